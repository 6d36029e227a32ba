/*
 * test_engine.c — server/engine.c and server/ops.c: the one loop of a command (DESIGN.md), driven
 * the way the transport drives it. Every test runs the real engine over a real SQLite file in a
 * fresh temporary directory, with seeded rules_rng generators for dice and secrets. The only
 * stand-in is the connection's sink: it records every message the engine sends (and every close
 * request), which is exactly the seat the transport (server/serve.c) takes.
 *
 * Covered: campaign bootstrap and links, hello/join/welcome and visibility, group commit (one
 * COMMIT per turn, replies only after it), diffs before acks, idempotency within a turn, across
 * turns and across a restart, secret rolls, the command table's permission and schema checks,
 * seat removal, resume, rebuild from the log == live state, rate limit, log cap, host ops, abuse
 * limits and connections that vanish while a reply is held.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, strndup */
#endif
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "err.h"
#include "protocol.h"
#include "rng.h"
#include "store.h"
#include "workcopy.h"
#include "ops.h"
#include "store_view.h"

/* ---- the recording sink ------------------------------------------------------------------- */

typedef struct client {
    char **text;   /* every message sent to this connection, in order */
    json_t **json; /* the same, parsed */
    size_t n, cap;
    int closes;           /* close requests */
    int close_status;     /* status of the last close request */
    int gone;             /* engine_conn_closed was called */
    int sends_after_gone; /* must stay 0 */
    engine_conn *conn;
} client;

#define MAX_MESSAGES 20000

static void sink_send(void *ctx, engine_msg *m)
{
    client *cl = ctx;
    const char *msg = (const char *)m->text;
    size_t len = m->len;
    if (cl->gone) {
        cl->sends_after_gone++;
        return;
    }
    /* A looping engine (e.g. a cycle in a connection list) would grow this forever. */
    if (cl->n >= MAX_MESSAGES)
        ck_abort_msg("more than %d messages to one connection: the engine is looping; last: %s",
                     MAX_MESSAGES, cl->text[cl->n - 1]);
    if (cl->n == cl->cap) {
        cl->cap = cl->cap ? cl->cap * 2 : 16;
        cl->text = realloc(cl->text, cl->cap * sizeof *cl->text);
        cl->json = realloc(cl->json, cl->cap * sizeof *cl->json);
        ck_assert_ptr_nonnull(cl->text);
        ck_assert_ptr_nonnull(cl->json);
    }
    cl->text[cl->n] = strndup(msg, len);
    json_error_t jerr;
    cl->json[cl->n] = json_loadb(msg, len, 0, &jerr);
    ck_assert_msg(cl->json[cl->n] != NULL, "engine sent invalid JSON: %.*s", (int)len, msg);
    cl->n++;
}

static void sink_close(void *ctx, int ws_status, const char *reason)
{
    client *cl = ctx;
    (void)reason;
    ck_assert_msg(!cl->gone, "close requested for a connection that is already closed");
    cl->closes++;
    cl->close_status = ws_status;
}

static const engine_sink SINK = {sink_send, sink_close};

/* ---- fixture ------------------------------------------------------------------------------ */

#define MAX_CLIENTS 64

static char g_dir[64];
static char g_path[128];
static store *g_st;
static rules_rng *g_dice, *g_secret;
static engine *g_e;
static engine_opts g_opts;
static client *g_clients[MAX_CLIENTS];
static int g_nclients;

/* The first campaign's link, as engine_each_gm_link hands it out. */
static char g_camp[32], g_camp_name[64], g_gm_token[64], g_code[32];
static int g_links;

static void setup(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/tabled-engine-XXXXXX");
    ck_assert_msg(mkdtemp(g_dir) != NULL, "mkdtemp failed");
    snprintf(g_path, sizeof g_path, "%s/tabled.db", g_dir);
    g_st = NULL;
    g_e = NULL;
    g_nclients = 0;
    g_links = 0;
    g_camp[0] = g_gm_token[0] = g_code[0] = '\0';
    engine_opts_default(&g_opts);
    g_dice = rules_rng_seeded(1);
    g_secret = rules_rng_seeded(2);
}

static void free_client(client *cl)
{
    for (size_t i = 0; i < cl->n; i++) {
        free(cl->text[i]);
        json_decref(cl->json[i]);
    }
    free(cl->text);
    free(cl->json);
    free(cl);
}

static void close_all_clients(void)
{
    for (int i = 0; i < g_nclients; i++) {
        client *cl = g_clients[i];
        if (!cl->gone && cl->conn) {
            engine_conn_closed(g_e, cl->conn);
            cl->gone = 1;
            cl->conn = NULL;
        }
    }
}

static void teardown(void)
{
    if (g_e)
        close_all_clients();
    engine_destroy(g_e);
    g_e = NULL;
    store_close(g_st);
    g_st = NULL;
    for (int i = 0; i < g_nclients; i++)
        free_client(g_clients[i]);
    g_nclients = 0;
    rules_rng_destroy(g_dice);
    rules_rng_destroy(g_secret);
    store_view_rmdir(g_dir);
}

/* Opens the store and creates the engine (no campaign yet). */
static void start(void)
{
    tb_err err = {0};
    int rc = store_open(g_path, 0, &g_st, &err);
    ck_assert_msg(rc == TB_OK, "store_open: %s", err.msg);
    rc = engine_create(g_st, g_dice, g_secret, &g_opts, &g_e, &err);
    ck_assert_msg(rc == TB_OK, "engine_create: %s", err.msg);
}

static void link_cb(void *ctx, const char *campaign_id, const char *name, const char *gm_token,
                    const char *join_code)
{
    (void)ctx;
    g_links++;
    if (g_links > 1)
        return;
    snprintf(g_camp, sizeof g_camp, "%s", campaign_id);
    snprintf(g_camp_name, sizeof g_camp_name, "%s", name ? name : "");
    snprintf(g_gm_token, sizeof g_gm_token, "%s", gm_token);
    snprintf(g_code, sizeof g_code, "%s", join_code ? join_code : "");
}

/* start() + the first campaign + its GM link. */
static void boot(void)
{
    start();
    tb_err err = {0};
    ck_assert_int_eq(engine_ensure_campaign(g_e, &err), TB_OK);
    g_links = 0;
    ck_assert_int_eq(engine_each_gm_link(g_e, link_cb, NULL, &err), TB_OK);
    ck_assert_int_eq(g_links, 1);
}

/* Every connection is closed, the engine destroyed and the store closed; then both come back. */
static void restart(void)
{
    close_all_clients();
    engine_destroy(g_e);
    g_e = NULL;
    store_close(g_st);
    g_st = NULL;
    start();
}

/* ---- connections and messages ------------------------------------------------------------- */

static client *client_new(void)
{
    ck_assert_int_lt(g_nclients, MAX_CLIENTS);
    client *cl = calloc(1, sizeof *cl);
    ck_assert_ptr_nonnull(cl);
    g_clients[g_nclients++] = cl;
    cl->conn = engine_conn_open(g_e, &SINK, cl);
    ck_assert_ptr_nonnull(cl->conn);
    return cl;
}

/* The transport lost the connection. */
static void client_gone(client *cl)
{
    engine_conn_closed(g_e, cl->conn);
    cl->gone = 1;
    cl->conn = NULL;
}

static void send_text(client *cl, const char *text)
{
    engine_receive(g_e, cl->conn, text, strlen(text));
}

/* Formats a message written with ' for " (the tests never need a real apostrophe) and sends it. */
static void sendq(client *cl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sendq(client *cl, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    send_text(cl, buf);
}

/* Parses a JSON document written with ' for " (as sendq's messages): a new reference. */
static json_t *loadq(const char *text)
{
    char *buf = strdup(text);
    ck_assert_ptr_nonnull(buf);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    json_t *doc = json_loads(buf, 0, NULL);
    free(buf);
    ck_assert_ptr_nonnull(doc);
    return doc;
}

static const json_t *msg_at(const client *cl, size_t i)
{
    ck_assert_msg(i < cl->n, "message %zu of %zu", i, cl->n);
    return cl->json[i];
}

/* A value at a JSON pointer (borrowed), or NULL. */
static const json_t *jget(const json_t *doc, const char *path)
{
    return proto_pointer_get(doc, path);
}

static const char *jstr(const json_t *doc, const char *path)
{
    const char *s = json_string_value(jget(doc, path));
    return s ? s : "<not a string>";
}

static long long jint(const json_t *doc, const char *path)
{
    const json_t *v = jget(doc, path);
    return json_is_integer(v) ? (long long)json_integer_value(v) : -999999;
}

static const char *mtype(const client *cl, size_t i)
{
    return jstr(msg_at(cl, i), "/t");
}

/* Index of the first message of type t at or after from, or -1. */
static long find_type(const client *cl, size_t from, const char *t)
{
    for (size_t i = from; i < cl->n; i++)
        if (strcmp(mtype(cl, i), t) == 0)
            return (long)i;
    return -1;
}

static size_t count_type(const client *cl, size_t from, const char *t)
{
    size_t n = 0;
    for (size_t i = from; i < cl->n; i++)
        if (strcmp(mtype(cl, i), t) == 0)
            n++;
    return n;
}

/* Index of the last ack/nack for cmd id at or after from, or -1. */
static long find_reply(const client *cl, size_t from, const char *id)
{
    long found = -1;
    for (size_t i = from; i < cl->n; i++) {
        const char *t = mtype(cl, i);
        if ((strcmp(t, "ack") == 0 || strcmp(t, "nack") == 0) &&
            strcmp(jstr(msg_at(cl, i), "/id"), id) == 0)
            found = (long)i;
    }
    return found;
}

/* Index of the diff with this seq at or after from, or -1. */
static long find_diff(const client *cl, size_t from, long long seq)
{
    for (size_t i = from; i < cl->n; i++)
        if (strcmp(mtype(cl, i), "diff") == 0 && jint(msg_at(cl, i), "/seq") == seq)
            return (long)i;
    return -1;
}

/* Whether any message at or after from contains needle (bytes as sent). */
static int saw_text(const client *cl, size_t from, const char *needle)
{
    for (size_t i = from; i < cl->n; i++)
        if (strstr(cl->text[i], needle))
            return 1;
    return 0;
}

/* Sends a cmd, flushes the turn and returns the reply (ack or nack) for it. */
static const json_t *run_cmd(client *cl, const char *id, const char *op, const char *args_q)
{
    size_t from = cl->n;
    sendq(cl, "{'t':'cmd','id':'%s','op':'%s','args':%s}", id, op, args_q);
    engine_flush(g_e);
    long r = find_reply(cl, from, id);
    ck_assert_msg(r >= 0, "no reply to cmd %s (%s)", id, op);
    return msg_at(cl, (size_t)r);
}

static void assert_ack(const json_t *m)
{
    ck_assert_msg(strcmp(jstr(m, "/t"), "ack") == 0, "expected an ack, got %s %s: %s",
                  jstr(m, "/t"), jstr(m, "/code"), jstr(m, "/message"));
}

static void assert_nack(const json_t *m, const char *code)
{
    ck_assert_msg(strcmp(jstr(m, "/t"), "nack") == 0, "expected nack %s, got %s", code,
                  jstr(m, "/t"));
    ck_assert_str_eq(jstr(m, "/code"), code);
}

/* The committed seq of the first campaign. */
static long long seq_now(void)
{
    int64_t seq = -1;
    ck_assert_ptr_nonnull(engine_campaign_state(g_e, g_camp, &seq));
    return (long long)seq;
}

static const json_t *state_now(void);

/* The player seq now (server/playerseq.h): what a player's diffs, acks and welcome count. */
static long long pseq_now(void)
{
    return (long long)json_integer_value(
        json_object_get(json_object_get(state_now(), "gm"), "player_seq"));
}

static const json_t *state_now(void)
{
    const json_t *s = engine_campaign_state(g_e, g_camp, NULL);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* A new connection that sends hello with token and gets its welcome; returns the client. */
static client *connect_as(const char *token)
{
    client *cl = client_new();
    sendq(cl, "{'t':'hello','v':1,'token':'%s'}", token);
    engine_flush(g_e);
    ck_assert_msg(cl->n >= 1, "no answer to hello");
    ck_assert_msg(strcmp(mtype(cl, 0), "welcome") == 0, "hello answered by %s %s: %s", mtype(cl, 0),
                  jstr(msg_at(cl, 0), "/code"), jstr(msg_at(cl, 0), "/message"));
    return cl;
}

static client *connect_resume(const char *token, long long last_seq)
{
    client *cl = client_new();
    sendq(cl, "{'t':'hello','v':1,'token':'%s','last_seq':%lld}", token, last_seq);
    engine_flush(g_e);
    ck_assert_msg(cl->n >= 1 && strcmp(mtype(cl, 0), "welcome") == 0, "no welcome on resume");
    return cl;
}

/* Joins the first campaign as name; writes the seat's token (>= 64 bytes) and returns the
 * client. */
static client *join_as(const char *name, char *token_out)
{
    client *cl = client_new();
    sendq(cl, "{'t':'join','code':'%s','name':'%s'}", g_code, name);
    engine_flush(g_e);
    ck_assert_msg(cl->n >= 2, "join answered with %zu messages", cl->n);
    ck_assert_msg(strcmp(mtype(cl, 0), "joined") == 0, "join answered by %s %s: %s", mtype(cl, 0),
                  jstr(msg_at(cl, 0), "/code"), jstr(msg_at(cl, 0), "/message"));
    ck_assert_str_eq(mtype(cl, 1), "welcome");
    if (token_out)
        snprintf(token_out, 64, "%s", jstr(msg_at(cl, 0), "/token"));
    return cl;
}

static long long commits_total(void)
{
    char *text = engine_metrics_text(g_e);
    ck_assert_ptr_nonnull(text);
    const char *p = strstr(text, "\ntabled_commits_total ");
    ck_assert_msg(p != NULL, "no tabled_commits_total in /metrics text");
    long long n = -1;
    ck_assert_int_eq(sscanf(p + strlen("\ntabled_commits_total "), "%lld", &n), 1);
    free(text);
    return n;
}

/* ---- a second, independent SQLite handle on the same file --------------------------------- */

static sqlite3 *raw_open(void)
{
    return store_view_open(g_path, SQLITE_OPEN_READONLY);
}

/* First column of the first row as an integer (-1 when there is no row). */
static long long sql_int(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static long long sql_int(const char *fmt, ...)
{
    char sql[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    sqlite3 *db = raw_open();
    sqlite3_stmt *st = NULL;
    ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
                  sqlite3_errmsg(db));
    long long v = -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* First column of the first row as a new malloc'd string (NULL when there is no row). */
static char *sql_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *sql_text(const char *fmt, ...)
{
    char sql[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    sqlite3 *db = raw_open();
    sqlite3_stmt *st = NULL;
    ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
                  sqlite3_errmsg(db));
    char *v = NULL;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        v = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static int is_join_code(const char *s)
{
    static const char A[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    if (strlen(s) != 9 || s[4] != '-')
        return 0;
    for (int i = 0; i < 9; i++)
        if (i != 4 && !strchr(A, s[i]))
            return 0;
    return 1;
}

static int is_token(const char *s)
{
    if (strlen(s) != 22)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_'))
            return 0;
    return 1;
}

/* ---- bootstrap: campaign, GM link, host token --------------------------------------------- */

START_TEST(test_ensure_campaign_gm_link_and_host_token_work_in_hello)
{
    start();
    ck_assert_int_eq(engine_campaign_count(g_e), 0);
    tb_err err = {0};
    ck_assert_int_eq(engine_ensure_campaign(g_e, &err), TB_OK);
    ck_assert_int_eq(engine_campaign_count(g_e), 1);
    ck_assert_int_eq(engine_ensure_campaign(g_e, &err), TB_OK); /* idempotent */
    ck_assert_int_eq(engine_campaign_count(g_e), 1);

    g_links = 0;
    ck_assert_int_eq(engine_each_gm_link(g_e, link_cb, NULL, &err), TB_OK);
    ck_assert_int_eq(g_links, 1);
    ck_assert_int_eq((int)strlen(g_camp), 10);
    ck_assert_int_eq(g_camp[0], 'c');
    ck_assert_str_eq(g_camp_name, "My campaign");
    ck_assert_msg(is_token(g_gm_token), "GM token '%s' is not 22 base64url characters", g_gm_token);
    ck_assert_msg(is_join_code(g_code), "join code '%s' is not XXXX-XXXX Crockford", g_code);
    ck_assert_int_eq(seq_now(), 1); /* campaign.create is the first event */

    client *gm = connect_as(g_gm_token);
    const json_t *w = msg_at(gm, 0);
    ck_assert_str_eq(jstr(w, "/seat/id"), "gm");
    ck_assert_str_eq(jstr(w, "/seat/role"), "gm");
    ck_assert_str_eq(jstr(w, "/seat/name"), "GM");
    ck_assert_str_eq(jstr(w, "/campaign/id"), g_camp);
    ck_assert_str_eq(jstr(w, "/campaign/name"), "My campaign");
    ck_assert_str_eq(jstr(w, "/campaign/system"), "generic");
    ck_assert_int_eq(jint(w, "/seq"), 1);
    ck_assert_ptr_null(jget(w, "/resume"));
    ck_assert_str_eq(jstr(w, "/state/gm/join/code"), g_code);
    ck_assert(json_is_true(jget(w, "/state/gm/join/open")));
    ck_assert_msg(json_equal(jget(w, "/state"), state_now()), "GM welcome state != live state");
    /* presence follows the welcome */
    ck_assert_str_eq(mtype(gm, 1), "presence");
    ck_assert(json_is_true(jget(msg_at(gm, 1), "/seats/gm")));

    /* a second round of links mints another GM token; both work */
    char first[64];
    snprintf(first, sizeof first, "%s", g_gm_token);
    g_links = 0;
    ck_assert_int_eq(engine_each_gm_link(g_e, link_cb, NULL, &err), TB_OK);
    ck_assert_str_ne(first, g_gm_token);
    connect_as(g_gm_token);
    connect_as(first);

    char *host = engine_mint_host_token(g_e, &err);
    ck_assert_ptr_nonnull(host);
    ck_assert(is_token(host));
    client *h = connect_as(host);
    w = msg_at(h, 0);
    ck_assert_str_eq(jstr(w, "/seat/role"), "host");
    ck_assert_str_eq(jstr(w, "/seat/id"), "host");
    ck_assert(json_is_null(jget(w, "/campaign")));
    free(host);

    /* an unknown token */
    client *bad = client_new();
    sendq(bad, "{'t':'hello','v':1,'token':'AAAAAAAAAAAAAAAAAAAAAA'}");
    engine_flush(g_e);
    ck_assert_uint_eq(bad->n, 1);
    ck_assert_str_eq(mtype(bad, 0), "error");
    ck_assert_str_eq(jstr(msg_at(bad, 0), "/code"), "unauthorized");
}
END_TEST

START_TEST(test_ping_is_answered_with_pong)
{
    boot();
    client *c = client_new();
    sendq(c, "{'t':'ping','n':3}");
    ck_assert_uint_eq(c->n, 1);
    ck_assert_str_eq(mtype(c, 0), "pong");
    ck_assert_int_eq(jint(msg_at(c, 0), "/n"), 3);
}
END_TEST

/* ---- join --------------------------------------------------------------------------------- */

START_TEST(test_join_creates_player_seat_welcomes_it_filtered_and_tells_the_gm)
{
    boot();
    client *gm = connect_as(g_gm_token);
    size_t gm_from = gm->n;
    long long s0 = seq_now();

    /* case-insensitive code, name with surrounding white space */
    char lower[32];
    snprintf(lower, sizeof lower, "%s", g_code);
    for (char *p = lower; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    client *p = client_new();
    sendq(p, "{'t':'join','code':'%s','name':'   Ann Lee  '}", lower);
    engine_flush(g_e);
    ck_assert_uint_ge(p->n, 2);
    const json_t *j = msg_at(p, 0);
    ck_assert_str_eq(jstr(j, "/t"), "joined");
    ck_assert_str_eq(jstr(j, "/seat"), "p1");
    ck_assert(is_token(jstr(j, "/token")));
    char token[64];
    snprintf(token, sizeof token, "%s", jstr(j, "/token"));

    const json_t *w = msg_at(p, 1);
    ck_assert_str_eq(jstr(w, "/t"), "welcome");
    ck_assert_str_eq(jstr(w, "/seat/id"), "p1");
    ck_assert_str_eq(jstr(w, "/seat/role"), "player");
    ck_assert_str_eq(jstr(w, "/seat/name"), "Ann Lee");
    ck_assert_int_eq(jint(w, "/seq"), s0 + 1);
    ck_assert_int_eq(seq_now(), s0 + 1);
    const json_t *st = jget(w, "/state");
    ck_assert(json_is_object(st));
    ck_assert_ptr_null(json_object_get(st, "gm"));
    const json_t *priv = json_object_get(st, "private");
    ck_assert(json_is_object(priv));
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)priv, key, v)
    {
        (void)v;
        ck_assert_str_eq(key, "p1");
    }
    ck_assert_str_eq(jstr(st, "/seats/p1/name"), "Ann Lee");
    ck_assert_str_eq(jstr(st, "/seats/p1/role"), "player");
    ck_assert_str_eq(jstr(st, "/seats/gm/role"), "gm");
    ck_assert_msg(!saw_text(p, 0, g_code), "the player saw the join code");
    long pres = find_type(p, 2, "presence");
    ck_assert_int_ge(pres, 2);
    ck_assert(json_is_true(jget(msg_at(p, (size_t)pres), "/seats/p1")));
    ck_assert(json_is_true(jget(msg_at(p, (size_t)pres), "/seats/gm")));

    /* the GM saw the seat appear and come online */
    long d = find_diff(gm, gm_from, s0 + 1);
    ck_assert_msg(d >= 0, "GM got no diff for the join");
    const json_t *ops = jget(msg_at(gm, (size_t)d), "/ops");
    int saw_add = 0;
    size_t i;
    json_array_foreach(ops, i, v)
    {
        if (strcmp(jstr(v, "/op"), "add") == 0 && strcmp(jstr(v, "/path"), "/seats/p1") == 0) {
            saw_add = 1;
            ck_assert_str_eq(jstr(v, "/value/name"), "Ann Lee");
            ck_assert_str_eq(jstr(v, "/value/role"), "player");
        }
    }
    ck_assert_msg(saw_add, "GM diff has no add of /seats/p1");
    long gp = find_type(gm, (size_t)d, "presence");
    ck_assert_msg(gp > d, "GM got no presence after the join diff");
    ck_assert(json_is_true(jget(msg_at(gm, (size_t)gp), "/seats/p1")));

    /* the token from joined works for hello */
    client *again = connect_as(token);
    ck_assert_str_eq(jstr(msg_at(again, 0), "/seat/id"), "p1");

    /* a second player gets the next id */
    client *p2 = join_as("Bob", NULL);
    ck_assert_str_eq(jstr(msg_at(p2, 0), "/seat"), "p2");

    /* join.close: the code stops working and nothing is written */
    assert_ack(run_cmd(gm, "close-1", "join.close", "{}"));
    long long s1 = seq_now();
    client *late = client_new();
    sendq(late, "{'t':'join','code':'%s','name':'Cid'}", g_code);
    engine_flush(g_e);
    ck_assert_uint_eq(late->n, 1);
    ck_assert_str_eq(mtype(late, 0), "error");
    ck_assert_str_eq(jstr(msg_at(late, 0), "/code"), "unauthorized");
    ck_assert_int_eq(seq_now(), s1);
    ck_assert_ptr_null(jget(state_now(), "/seats/p3"));
    ck_assert_int_eq(sql_int("SELECT max(seq) FROM events WHERE campaign='%s'", g_camp), s1);

    /* join.rotate opens joining again with a new code; the old one stays dead */
    const json_t *rot = run_cmd(gm, "rot-1", "join.rotate", "{}");
    assert_ack(rot);
    char newcode[32];
    snprintf(newcode, sizeof newcode, "%s", jstr(rot, "/result/join_code"));
    ck_assert(is_join_code(newcode));
    ck_assert_str_ne(newcode, g_code);
    client *late2 = client_new();
    sendq(late2, "{'t':'join','code':'%s','name':'Cid'}", g_code);
    engine_flush(g_e);
    ck_assert_str_eq(jstr(msg_at(late2, 0), "/code"), "unauthorized");
    snprintf(g_code, sizeof g_code, "%s", newcode);
    client *p3 = join_as("Cid", NULL);
    ck_assert_str_eq(jstr(msg_at(p3, 0), "/seat"), "p3");
}
END_TEST

START_TEST(test_join_with_a_bad_name_is_refused_and_writes_nothing)
{
    boot();
    long long s0 = seq_now();
    client *c = client_new();
    sendq(c, "{'t':'join','code':'%s','name':'   '}", g_code);
    sendq(c, "{'t':'join','code':'%s','name':'%s'}", g_code,
          "12345678901234567890123456789012345678901"); /* 41 characters */
    engine_flush(g_e);
    ck_assert_uint_eq(c->n, 2);
    ck_assert_str_eq(jstr(msg_at(c, 0), "/code"), "bad_request");
    ck_assert_str_eq(jstr(msg_at(c, 1), "/code"), "bad_request");
    ck_assert_int_eq(seq_now(), s0);
}
END_TEST

/* Joins of one loop turn make one event (issue 26) that advances the player seq once (issue 27:
 * its diff is public); a joiner whose name is taken by another joiner of the same turn is
 * refused alone (issue 27 item 13), the others are seated. */
START_TEST(test_joins_of_one_turn_are_one_event_and_a_taken_name_is_refused_alone)
{
    boot();
    client *watcher = join_as("Watcher", NULL);
    client *gm = connect_as(g_gm_token);
    assert_ack(run_cmd(gm, "sec", "roll", "{'expr':'1d6','secret':true}")); /* pseq behind seq */
    long long s0 = seq_now(), p0 = pseq_now();
    ck_assert_int_lt(p0, s0);
    size_t wfrom = watcher->n;
    client *a = client_new(), *b = client_new(), *c = client_new();
    sendq(a, "{'t':'join','code':'%s','name':'Ann'}", g_code);
    sendq(b, "{'t':'join','code':'%s','name':'ann'}", g_code); /* the same name */
    sendq(c, "{'t':'join','code':'%s','name':'Bob'}", g_code);
    engine_flush(g_e);
    ck_assert_int_eq(seq_now(), s0 + 1);
    ck_assert_int_eq(pseq_now(), p0 + 1);
    ck_assert_str_eq(mtype(a, 0), "joined");
    ck_assert_str_eq(mtype(c, 0), "joined");
    ck_assert_str_eq(mtype(b, 0), "error");
    ck_assert_str_eq(jstr(msg_at(b, 0), "/code"), "conflict");
    ck_assert_uint_eq(count_type(b, 0, "welcome"), 0);
    for (client *x = a; x; x = x == a ? c : NULL) {
        long w = find_type(x, 0, "welcome");
        ck_assert_msg(w > 0, "no welcome after joined");
        ck_assert_int_eq(jint(msg_at(x, (size_t)w), "/seq"), p0 + 1);
    }
    /* the player already seated gets one diff for both seats, numbered with the player seq */
    ck_assert_uint_eq(count_type(watcher, wfrom, "diff"), 1);
    ck_assert_int_eq(jint(msg_at(watcher, (size_t)find_type(watcher, wfrom, "diff")), "/seq"),
                     p0 + 1);
    const json_t *seats = jget(state_now(), "/seats");
    ck_assert_uint_eq(json_object_size(seats), 4); /* gm, Watcher, Ann, Bob */
}
END_TEST

/* A connection already welcomed as a seat that sends join becomes the new seat only: it is no
 * longer counted as the old seat and gets each diff once ("answered by joined, then exactly as a
 * hello", PROTOCOL.md). */
START_TEST(test_join_on_an_already_welcomed_connection_moves_it_to_the_new_seat)
{
    boot();
    client *watcher = join_as("Watcher", NULL); /* p1, stays connected */
    client *c = connect_as(g_gm_token);         /* the only GM connection */
    size_t from = c->n;
    sendq(c, "{'t':'join','code':'%s','name':'Dee'}", g_code);
    engine_flush(g_e);
    long j = find_type(c, from, "joined");
    ck_assert_msg(j >= 0, "no joined");
    ck_assert_str_eq(jstr(msg_at(c, (size_t)j), "/seat"), "p2");
    long w = find_type(c, (size_t)j, "welcome");
    ck_assert_msg(w > j, "no welcome after joined");
    ck_assert_str_eq(jstr(msg_at(c, (size_t)w), "/seat/role"), "player");

    /* the watcher was told, in small presence changes: the GM left, p2 came */
    json_t *told = json_object();
    for (size_t i = 0; i < watcher->n; i++)
        if (strcmp(mtype(watcher, i), "presence") == 0)
            json_object_update(told, (json_t *)jget(msg_at(watcher, i), "/seats"));
    ck_assert(json_is_false(json_object_get(told, "gm")));
    ck_assert(json_is_true(json_object_get(told, "p2")));
    ck_assert(json_is_true(json_object_get(told, "p1")));
    json_decref(told);

    /* the GM has no connection left; reconnecting tells the others only that */
    size_t wfrom = watcher->n;
    client *gm2 = connect_as(g_gm_token);
    long p = find_type(watcher, wfrom, "presence");
    ck_assert_msg(p >= 0, "no presence when the GM reconnected");
    ck_assert(json_is_true(jget(msg_at(watcher, (size_t)p), "/seats/gm")));
    ck_assert_uint_eq(json_object_size(jget(msg_at(watcher, (size_t)p), "/seats")), 1);

    /* the moved connection gets every event it may see exactly once, filtered as a player: the
     * GM's secret roll not at all */
    size_t cfrom = c->n;
    long long s = pseq_now();
    assert_ack(run_cmd(gm2, "sec", "roll", "{'expr':'9d9+99','secret':true}"));
    assert_ack(run_cmd(gm2, "pub", "roll", "{'expr':'1d4'}"));
    ck_assert_uint_eq(count_type(c, cfrom, "diff"), 1);
    /* a player's seq counts only what players see: the secret roll leaves no gap (issue 27) */
    ck_assert_int_eq(jint(msg_at(c, (size_t)find_type(c, cfrom, "diff")), "/seq"), s + 1);
    ck_assert_msg(!saw_text(c, cfrom, "9d9"), "the moved connection saw the GM's secret roll");
}
END_TEST

/* Private areas of other seats and /gm never reach a player: in the welcome state and in diffs
 * served on resume after a restart. The private data is written as an event directly to the
 * store (no core op writes /private yet); the engine loads it at start-up. */
START_TEST(test_player_never_sees_gm_or_other_seats_private_after_restart)
{
    boot();
    char t1[64], t2[64];
    join_as("Ann", t1);
    join_as("Bob", t2);
    long long s = seq_now(), ps = pseq_now();
    close_all_clients();
    engine_destroy(g_e);
    g_e = NULL;

    tb_err err = {0};
    json_t *patch = json_loads("[{\"op\":\"add\",\"path\":\"/private/p1\",\"value\":{\"note\":"
                               "\"mine\"}},{\"op\":\"add\",\"path\":\"/private/p2\",\"value\":{"
                               "\"note\":\"theirs\"}},{\"op\":\"add\",\"path\":\"/gm/plot\","
                               "\"value\":\"the butler\"}]",
                               0, NULL);
    ck_assert_ptr_nonnull(patch);
    /* as every event the engine writes, it carries the player seq (server/playerseq.h) */
    json_array_append_new(patch, json_pack("{s:s, s:s, s:I}", "op", "replace", "path",
                                           "/gm/player_seq", "value", (json_int_t)(ps + 1)));
    json_t *args = json_object();
    store_event ev = {.campaign = g_camp,
                      .seq = s + 1,
                      .seat = "gm",
                      .op = "test.inject",
                      .args = args,
                      .result = NULL,
                      .patch = patch,
                      .at_ms = 1};
    ck_assert_int_eq(store_begin(g_st, &err), TB_OK);
    ck_assert_int_eq(store_event_append(g_st, &ev, &err), TB_OK);
    ck_assert_int_eq(store_commit(g_st, &err), TB_OK);
    json_decref(patch);
    json_decref(args);
    ck_assert_int_eq(engine_create(g_st, g_dice, g_secret, &g_opts, &g_e, &err), TB_OK);
    ck_assert_int_eq(seq_now(), s + 1);

    client *p1 = connect_as(t1);
    const json_t *st = jget(msg_at(p1, 0), "/state");
    json_t *want = json_loads("{\"p1\":{\"note\":\"mine\"}}", 0, NULL);
    ck_assert_msg(json_equal(json_object_get(st, "private"), want), "p1's /private is wrong");
    json_decref(want);
    ck_assert_ptr_null(json_object_get(st, "gm"));
    ck_assert(!saw_text(p1, 0, "theirs"));
    ck_assert(!saw_text(p1, 0, "butler"));

    client *r = connect_resume(t2, ps);
    ck_assert(json_is_true(jget(msg_at(r, 0), "/resume")));
    long d = find_diff(r, 1, ps + 1);
    ck_assert_int_eq(d, 1);
    json_t *want_ops = json_loads(
        "[{\"op\":\"add\",\"path\":\"/private/p2\",\"value\":{\"note\":\"theirs\"}}]", 0, NULL);
    ck_assert_msg(json_equal(jget(msg_at(r, 1), "/ops"), want_ops), "p2's resumed diff: %s",
                  r->text[1]);
    json_decref(want_ops);
    ck_assert(!saw_text(r, 0, "mine"));
    ck_assert(!saw_text(r, 0, "butler"));

    client *gm = connect_as(g_gm_token);
    ck_assert_str_eq(jstr(msg_at(gm, 0), "/state/gm/plot"), "the butler");
    ck_assert_str_eq(jstr(msg_at(gm, 0), "/state/private/p2/note"), "theirs");
}
END_TEST

/* ---- group commit and ordering ------------------------------------------------------------ */

START_TEST(test_group_commit_holds_replies_until_one_commit_per_turn)
{
    boot();
    client *gm = connect_as(g_gm_token);
    client *p1 = join_as("Ann", NULL);
    long long n = seq_now();
    long long events0 = sql_int("SELECT count(*) FROM events WHERE campaign='%s'", g_camp);
    long long commits0 = commits_total();
    size_t gm_from = gm->n, p_from = p1->n;

    sendq(gm, "{'t':'cmd','id':'g1','op':'roll','args':{'expr':'1d20'}}");
    sendq(p1, "{'t':'cmd','id':'a1','op':'roll','args':{'expr':'2d6'}}");
    sendq(gm, "{'t':'cmd','id':'g2','op':'roll','args':{'expr':'1d4+1'}}");

    /* nothing is delivered, published or visible on disk before the commit */
    ck_assert_uint_eq(gm->n, gm_from);
    ck_assert_uint_eq(p1->n, p_from);
    ck_assert_int_eq(seq_now(), n);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM events WHERE campaign='%s'", g_camp), events0);
    ck_assert_int_eq(commits_total(), commits0);

    ck_assert_int_eq(engine_flush(g_e), 1);
    ck_assert_int_eq(commits_total(), commits0 + 1);
    ck_assert_int_eq(seq_now(), n + 3);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM events WHERE campaign='%s'", g_camp),
                     events0 + 3);

    long r;
    r = find_reply(gm, gm_from, "g1");
    ck_assert_int_ge(r, 0);
    assert_ack(msg_at(gm, (size_t)r));
    ck_assert_int_eq(jint(msg_at(gm, (size_t)r), "/seq"), n + 1);
    r = find_reply(p1, p_from, "a1");
    ck_assert_int_ge(r, 0);
    assert_ack(msg_at(p1, (size_t)r));
    ck_assert_int_eq(jint(msg_at(p1, (size_t)r), "/seq"), n + 2);
    r = find_reply(gm, gm_from, "g2");
    ck_assert_int_ge(r, 0);
    assert_ack(msg_at(gm, (size_t)r));
    ck_assert_int_eq(jint(msg_at(gm, (size_t)r), "/seq"), n + 3);
    ck_assert_uint_eq(count_type(gm, gm_from, "ack"), 2);
    ck_assert_uint_eq(count_type(p1, p_from, "ack"), 1);

    /* every connection got the three diffs, in seq order */
    client *both[2] = {gm, p1};
    size_t froms[2] = {gm_from, p_from};
    for (int c = 0; c < 2; c++) {
        long long want = n + 1;
        for (size_t i = froms[c]; i < both[c]->n; i++)
            if (strcmp(mtype(both[c], i), "diff") == 0)
                ck_assert_int_eq(jint(msg_at(both[c], i), "/seq"), want++);
        ck_assert_int_eq(want, n + 4);
    }

    /* an empty turn commits nothing */
    ck_assert_int_eq(engine_flush(g_e), 0);
    ck_assert_int_eq(commits_total(), commits0 + 1);
}
END_TEST

/* For every ack with a seq, the sender had already received the diff with that seq. */
static void assert_diffs_before_acks(const client *cl)
{
    size_t acks = 0;
    for (size_t i = 0; i < cl->n; i++) {
        if (strcmp(mtype(cl, i), "ack") != 0 || !json_is_integer(jget(msg_at(cl, i), "/seq")))
            continue;
        acks++;
        long long seq = jint(msg_at(cl, i), "/seq");
        long d = find_diff(cl, 0, seq);
        ck_assert_msg(d >= 0 && (size_t)d < i, "ack %s (seq %lld) at %zu, its diff at %ld",
                      jstr(msg_at(cl, i), "/id"), seq, i, d);
    }
    ck_assert_uint_gt(acks, 0);
}

START_TEST(test_each_ack_comes_after_the_diff_with_its_seq)
{
    boot();
    client *gm = connect_as(g_gm_token);
    client *p1 = join_as("Ann", NULL);
    client *p2 = join_as("Bob", NULL);
    /* several turns, and turns with several senders */
    for (int turn = 0; turn < 4; turn++) {
        sendq(gm, "{'t':'cmd','id':'g%d','op':'roll','args':{'expr':'1d6','secret':%s}}", turn,
              turn % 2 ? "true" : "false");
        sendq(p1, "{'t':'cmd','id':'a%d','op':'roll','args':{'expr':'1d8'}}", turn);
        if (turn % 2)
            sendq(p2, "{'t':'cmd','id':'b%d','op':'seat.rename','args':{'seat':'p2','name':'B%d'}}",
                  turn, turn);
        engine_flush(g_e);
    }
    assert_diffs_before_acks(gm);
    assert_diffs_before_acks(p1);
    assert_diffs_before_acks(p2);
    ck_assert_uint_eq(count_type(gm, 0, "ack"), 4);
    ck_assert_uint_eq(count_type(p1, 0, "ack"), 4);
    ck_assert_uint_eq(count_type(p2, 0, "ack"), 2);
}
END_TEST

/* ---- idempotency -------------------------------------------------------------------------- */

START_TEST(test_same_cmd_id_runs_once_within_a_turn_across_turns_and_after_restart)
{
    boot();
    char token[64];
    client *p1 = join_as("Ann", token);
    long long n = seq_now();
    size_t from = p1->n;

    sendq(p1, "{'t':'cmd','id':'same-1','op':'roll','args':{'expr':'3d6'}}");
    sendq(p1, "{'t':'cmd','id':'same-1','op':'roll','args':{'expr':'3d6'}}");
    engine_flush(g_e);
    sendq(p1, "{'t':'cmd','id':'same-1','op':'roll','args':{'expr':'3d6'}}");
    engine_flush(g_e);

    ck_assert_int_eq(seq_now(), n + 1);
    ck_assert_int_eq(
        sql_int("SELECT count(*) FROM events WHERE campaign='%s' AND op='roll'", g_camp), 1);
    ck_assert_uint_eq(count_type(p1, from, "diff"), 1);
    ck_assert_uint_eq(count_type(p1, from, "ack"), 3);
    const char *first = NULL;
    for (size_t i = from; i < p1->n; i++) {
        if (strcmp(mtype(p1, i), "ack") != 0)
            continue;
        if (!first)
            first = p1->text[i];
        else
            ck_assert_str_eq(p1->text[i], first);
    }
    ck_assert_int_eq(jint(msg_at(p1, (size_t)find_reply(p1, from, "same-1")), "/seq"), n + 1);
    char *ack = strdup(first);

    /* the same id from another seat is another command */
    client *gm = connect_as(g_gm_token);
    assert_ack(run_cmd(gm, "same-1", "roll", "{'expr':'3d6'}"));
    ck_assert_int_eq(seq_now(), n + 2);

    restart();
    ck_assert_int_eq(seq_now(), n + 2);
    client *again = connect_as(token);
    size_t af = again->n;
    sendq(again, "{'t':'cmd','id':'same-1','op':'roll','args':{'expr':'3d6'}}");
    engine_flush(g_e);
    long r = find_reply(again, af, "same-1");
    ck_assert_int_ge(r, 0);
    ck_assert_str_eq(again->text[r], ack);
    ck_assert_int_eq(seq_now(), n + 2);
    ck_assert_uint_eq(count_type(again, af, "diff"), 0);
    ck_assert_int_eq(
        sql_int("SELECT count(*) FROM events WHERE campaign='%s' AND op='roll'", g_camp), 2);
    free(ack);
}
END_TEST

/* ---- secret rolls ------------------------------------------------------------------------- */

START_TEST(test_gm_secret_roll_sends_players_nothing_at_all)
{
    boot();
    client *gm = connect_as(g_gm_token);
    char token[64];
    client *p1 = join_as("Ann", token);
    long long n = seq_now(), p0 = pseq_now();
    size_t gm_from = gm->n, p_from = p1->n;

    const json_t *ack = run_cmd(gm, "s1", "roll", "{'expr':'7d7+77','secret':true}");
    assert_ack(ack);
    ck_assert_int_eq(jint(ack, "/seq"), n + 1);
    ck_assert(json_is_true(jget(ack, "/result/secret")));
    ck_assert_str_eq(jstr(ack, "/result/expr"), "7d7+77");
    ck_assert_uint_eq(json_array_size(jget(ack, "/result/dice")), 7);

    /* the player: no frame at all (an empty diff would tell the table the GM did something
     * secret, issue 11); the next public event comes with its own, later seq */
    ck_assert_uint_eq(p1->n - p_from, 0);
    ck_assert(!saw_text(p1, 0, "7d7"));
    long long pn = pseq_now();
    assert_ack(run_cmd(gm, "s2", "roll", "{'expr':'1d4'}"));
    ck_assert_uint_eq(p1->n - p_from, 1);
    /* and the next public event's seq does not count the secret one (issue 27 item 11) */
    ck_assert_int_eq(jint(msg_at(p1, p_from), "/seq"), pn + 1);

    /* the GM: the roll appended to /gm/log */
    long d = find_diff(gm, gm_from, n + 1);
    ck_assert_int_ge(d, 0);
    const json_t *ops = jget(msg_at(gm, (size_t)d), "/ops");
    ck_assert_uint_eq(json_array_size(ops), 1);
    ck_assert_str_eq(jstr(ops, "/0/op"), "add");
    ck_assert_str_eq(jstr(ops, "/0/path"), "/gm/log/0");
    ck_assert_str_eq(jstr(ops, "/0/value/roll/expr"), "7d7+77");
    ck_assert_uint_eq(json_array_size(jget(state_now(), "/log")), 1); /* s2 */
    ck_assert_uint_eq(json_array_size(jget(state_now(), "/gm/log")), 1);

    /* nor in a fresh welcome, nor on resume */
    client *fresh = connect_as(token);
    ck_assert(!saw_text(fresh, 0, "7d7"));
    client *res = connect_resume(token, p0);
    ck_assert(!saw_text(res, 0, "7d7"));
    ck_assert_int_eq(find_diff(res, 0, p0 + 1), 1); /* the public roll, numbered right after */
    ck_assert_uint_eq(count_type(res, 0, "diff"), 1);
}
END_TEST

START_TEST(test_player_secret_roll_is_forbidden_writes_nothing_and_is_remembered)
{
    boot();
    client *gm = connect_as(g_gm_token);
    client *p1 = join_as("Ann", NULL);
    long long n = seq_now();
    size_t gm_from = gm->n, p_from = p1->n;

    const json_t *nack = run_cmd(p1, "ps", "roll", "{'expr':'1d6','secret':true}");
    assert_nack(nack, "forbidden");
    ck_assert_int_eq(seq_now(), n);
    ck_assert_uint_eq(count_type(p1, p_from, "diff"), 0);
    ck_assert_uint_eq(count_type(gm, gm_from, "diff"), 0);
    ck_assert_int_eq(
        sql_int("SELECT count(*) FROM events WHERE campaign='%s' AND seq>%lld", g_camp, n), 0);
    long r1 = find_reply(p1, p_from, "ps");
    char *first = strdup(p1->text[r1]);
    char *stored = sql_text(
        "SELECT reply FROM idempotency WHERE campaign='%s' AND seat='p1' AND cmd_id='ps'", g_camp);
    ck_assert_ptr_nonnull(stored);
    ck_assert_str_eq(stored, first);
    free(stored);

    /* the retry gets the identical nack, even with arguments that would now be allowed */
    size_t again = p1->n;
    const json_t *retry = run_cmd(p1, "ps", "roll", "{'expr':'1d6'}");
    assert_nack(retry, "forbidden");
    ck_assert_str_eq(p1->text[find_reply(p1, again, "ps")], first);
    ck_assert_int_eq(seq_now(), n);
    free(first);
}
END_TEST

/* ---- permissions and schema --------------------------------------------------------------- */

START_TEST(test_command_table_checks_permissions_and_arguments)
{
    boot();
    client *gm = connect_as(g_gm_token);
    client *p1 = join_as("Ann", NULL);
    join_as("Bob", NULL);
    long long n = seq_now();
    const json_t *m;

    assert_nack(run_cmd(p1, "x1", "join.rotate", "{}"), "forbidden");
    assert_nack(run_cmd(p1, "x2", "join.close", "{}"), "forbidden");
    assert_nack(run_cmd(p1, "x3", "seat.rename", "{'seat':'p2','name':'Mallory'}"), "forbidden");
    assert_nack(run_cmd(p1, "x4", "seat.rename", "{'seat':'gm','name':'Mallory'}"), "forbidden");
    assert_nack(run_cmd(p1, "x5", "seat.remove", "{'seat':'p2'}"), "forbidden");
    ck_assert_int_eq(seq_now(), n);
    ck_assert_str_eq(jstr(state_now(), "/seats/p2/name"), "Bob");

    m = run_cmd(p1, "x6", "seat.rename", "{'seat':'p1','name':'  Annie  '}");
    assert_ack(m);
    ck_assert_str_eq(jstr(m, "/result/seat"), "p1");
    ck_assert_str_eq(jstr(m, "/result/name"), "Annie");
    ck_assert_str_eq(jstr(state_now(), "/seats/p1/name"), "Annie");
    ck_assert_int_eq(seq_now(), n + 1);
    n++;

    m = run_cmd(p1, "x7", "roll", "{'expr':'1d6','bogus':1}");
    assert_nack(m, "bad_request");
    ck_assert_msg(strstr(jstr(m, "/message"), "bogus") != NULL, "message: %s", jstr(m, "/message"));
    m = run_cmd(p1, "x8", "roll", "{}");
    assert_nack(m, "bad_request");
    ck_assert_msg(strstr(jstr(m, "/message"), "expr") != NULL, "message: %s", jstr(m, "/message"));
    m = run_cmd(p1, "x9", "roll", "{'expr':5}");
    assert_nack(m, "bad_request");
    ck_assert_msg(strstr(jstr(m, "/message"), "'expr' must be a string") != NULL, "message: %s",
                  jstr(m, "/message"));
    m = run_cmd(p1, "x10", "roll", "{'expr':'1d6','secret':'yes'}");
    assert_nack(m, "bad_request");
    ck_assert_msg(strstr(jstr(m, "/message"), "secret") != NULL, "message: %s",
                  jstr(m, "/message"));
    assert_nack(run_cmd(p1, "x11", "seat.rename", "{'seat':'p1','name':7}"), "bad_request");
    assert_nack(run_cmd(p1, "x12", "seat.rename", "{'seat':['p1'],'name':'A'}"), "bad_request");
    assert_nack(run_cmd(p1, "x13", "seat.rename", "{'seat':'p1','name':'   '}"), "bad_request");
    assert_nack(run_cmd(p1, "x14", "roll", "{'expr':'1d6+'}"), "bad_request");
    assert_nack(run_cmd(gm, "x15", "join.rotate", "{'code':'AAAA-AAAA'}"), "bad_request");
    assert_nack(run_cmd(gm, "x16", "seat.rename", "{'seat':'p9','name':'Nobody'}"), "not_found");

    m = run_cmd(p1, "x17", "no.such.op", "{}");
    assert_nack(m, "not_found");
    m = run_cmd(p1, "x18", "seat.join", "{'name':'Sneaky'}");
    assert_nack(m, "not_found");
    m = run_cmd(gm, "x19", "seat.join", "{'name':'Sneaky'}");
    assert_nack(m, "not_found");
    ck_assert_ptr_null(jget(state_now(), "/seats/p3"));
    ck_assert_int_eq(seq_now(), n);

    /* before hello */
    client *anon = client_new();
    sendq(anon, "{'t':'cmd','id':'z1','op':'roll','args':{'expr':'1d6'}}");
    engine_flush(g_e);
    ck_assert_uint_eq(anon->n, 1);
    assert_nack(msg_at(anon, 0), "unauthorized");
    ck_assert_str_eq(jstr(msg_at(anon, 0), "/id"), "z1");
    ck_assert_int_eq(seq_now(), n);
}
END_TEST

/* ---- seat.remove -------------------------------------------------------------------------- */

START_TEST(test_seat_remove_closes_the_seat_and_revokes_its_token)
{
    boot();
    client *gm = connect_as(g_gm_token);
    char ann_token[64];
    client *ann = join_as("Ann", ann_token);
    client *bob = join_as("Bob", NULL);
    long long n = seq_now();

    assert_nack(run_cmd(bob, "r0", "seat.remove", "{'seat':'p1'}"), "forbidden");
    ck_assert_int_eq(ann->closes, 0);
    ck_assert_int_eq(
        sql_int("SELECT count(*) FROM tokens WHERE campaign='%s' AND seat='p1'", g_camp), 1);

    size_t ann_from = ann->n, bob_from = bob->n;
    const json_t *m = run_cmd(gm, "r1", "seat.remove", "{'seat':'p1'}");
    assert_ack(m);
    ck_assert_str_eq(jstr(m, "/result/seat"), "p1");
    ck_assert_int_eq(jint(m, "/seq"), n + 1);
    ck_assert_ptr_null(jget(state_now(), "/seats/p1"));
    ck_assert_ptr_nonnull(jget(state_now(), "/seats/p2"));

    /* the removed seat's connection: error unauthorized, then a close request */
    long e = find_type(ann, ann_from, "error");
    ck_assert_msg(e >= 0, "removed seat got no error");
    ck_assert_str_eq(jstr(msg_at(ann, (size_t)e), "/code"), "unauthorized");
    ck_assert_int_eq(ann->closes, 1);
    ck_assert_int_eq(ann->close_status, 1008);
    long d = find_diff(bob, bob_from, n + 1);
    ck_assert_msg(d >= 0, "other seat got no diff of the removal");
    ck_assert_str_eq(jstr(msg_at(bob, (size_t)d), "/ops/0/op"), "remove");
    ck_assert_str_eq(jstr(msg_at(bob, (size_t)d), "/ops/0/path"), "/seats/p1");

    /* nothing more reaches the closing connection */
    size_t ann_after = ann->n;
    assert_ack(run_cmd(gm, "r2", "roll", "{'expr':'1d6'}"));
    ck_assert_uint_eq(ann->n, ann_after);
    client_gone(ann);

    /* its token is gone */
    ck_assert_int_eq(
        sql_int("SELECT count(*) FROM tokens WHERE campaign='%s' AND seat='p1'", g_camp), 0);
    client *retry = client_new();
    sendq(retry, "{'t':'hello','v':1,'token':'%s'}", ann_token);
    engine_flush(g_e);
    ck_assert_uint_eq(retry->n, 1);
    ck_assert_str_eq(mtype(retry, 0), "error");
    ck_assert_str_eq(jstr(msg_at(retry, 0), "/code"), "unauthorized");

    /* the GM seat cannot be removed; an unknown seat is not found */
    long long s = seq_now();
    assert_nack(run_cmd(gm, "r3", "seat.remove", "{'seat':'gm'}"), "rule");
    assert_nack(run_cmd(gm, "r4", "seat.remove", "{'seat':'p9'}"), "not_found");
    ck_assert_int_eq(seq_now(), s);
    ck_assert_int_eq(gm->closes, 0);
}
END_TEST

/* ---- resume ------------------------------------------------------------------------------- */

START_TEST(test_resume_sends_exactly_the_missed_diffs)
{
    boot();
    client *gm = connect_as(g_gm_token);
    char token[64];
    client *live = join_as("Ann", token);     /* stays connected: the reference */
    long long n = seq_now(), pn = pseq_now(); /* the player's seq is pn (server/playerseq.h) */
    ck_assert_int_eq(jint(msg_at(live, 1), "/seq"), pn);
    json_t *state_n = json_deep_copy(jget(msg_at(live, 1), "/state"));
    size_t live_from = live->n;

    assert_ack(run_cmd(gm, "e1", "roll", "{'expr':'1d6'}"));
    assert_ack(run_cmd(gm, "e2", "roll", "{'expr':'2d6','secret':true}"));
    assert_ack(run_cmd(gm, "e3", "seat.rename", "{'seat':'p1','name':'Annie'}"));
    assert_ack(run_cmd(live, "e4", "roll", "{'expr':'1d20'}"));
    assert_ack(run_cmd(gm, "e5", "join.rotate", "{}"));
    ck_assert_int_eq(seq_now(), n + 5);
    /* the GM's secret roll (e2) and the new join code (e5) do not change a player's view, and do
     * not count in a player's seq either (issue 27 item 11) */
    long long pm = pseq_now();
    ck_assert_int_eq(pm, pn + 3);

    client *r = connect_resume(token, pn);
    const json_t *w = msg_at(r, 0);
    ck_assert(json_is_true(jget(w, "/resume")));
    ck_assert_ptr_null(jget(w, "/state"));
    ck_assert_int_eq(jint(w, "/seq"), pm);
    ck_assert_str_eq(jstr(w, "/seat/id"), "p1");
    ck_assert_str_eq(jstr(w, "/seat/name"), "Annie");
    /* exactly the diffs a connected client got, byte for byte, seqs pn+1..pn+3 */
    size_t i = 1;
    for (long long q = pn + 1; q <= pm; q++) {
        long l = find_diff(live, live_from, q);
        ck_assert_int_ge(l, 0);
        ck_assert_str_eq(mtype(r, i), "diff");
        ck_assert_int_eq(jint(msg_at(r, i), "/seq"), q);
        ck_assert_str_eq(r->text[i], live->text[l]);
        i++;
    }
    ck_assert_uint_eq(count_type(live, live_from, "diff"), 3);
    ck_assert_uint_eq(count_type(r, 0, "diff"), 3);
    ck_assert_msg(r->n == i || strcmp(mtype(r, i), "diff"), "more than the missed diffs");

    /* applying them to the state at pn gives exactly what a new client gets */
    json_t *s = json_incref(state_n);
    for (size_t q = 1; q < i; q++) {
        tb_err err = {0};
        json_t *next = proto_patch_apply(s, jget(msg_at(r, q), "/ops"), &err);
        ck_assert_msg(next != NULL, "diff %zu does not apply: %s", q, err.msg);
        json_decref(s);
        s = next;
    }
    client *fresh = connect_as(token);
    ck_assert_msg(json_equal(s, jget(msg_at(fresh, 0), "/state")),
                  "resumed state differs from a fresh welcome");
    json_decref(s);
    json_decref(state_n);

    /* last_seq == seq: resume with nothing to send */
    client *r0 = connect_resume(token, pm);
    ck_assert(json_is_true(jget(msg_at(r0, 0), "/resume")));
    ck_assert_uint_eq(count_type(r0, 0, "diff"), 0);

    /* after a restart too */
    restart();
    client *rr = connect_resume(token, pn);
    ck_assert(json_is_true(jget(msg_at(rr, 0), "/resume")));
    ck_assert_uint_eq(count_type(rr, 0, "diff"), 3);
    ck_assert_int_eq(jint(msg_at(rr, 1), "/seq"), pn + 1);
}
END_TEST

/* Issue 27 item 10: a seat made later cannot have the events from before it existed replayed by
 * asking to resume from an old seq: it gets the state as it is now, and nothing of a note the GM
 * showed and hid before it joined. */
START_TEST(test_a_late_joiner_cannot_resume_from_before_its_seat)
{
    boot();
    client *gm = connect_as(g_gm_token);
    assert_ack(run_cmd(gm, "n1", "gm.set", "{'key':'plot','value':'the butler did it'}"));
    assert_ack(run_cmd(gm, "n2", "gm.reveal", "{'path':'/gm/notes/plot'}"));
    assert_ack(run_cmd(gm, "n3", "gm.hide", "{'path':'/gm/notes/plot'}"));
    char token[64];
    client *bob = join_as("Bob", token);
    long long at_join = jint(msg_at(bob, 1), "/seq");
    for (long long from = 0; from < at_join; from++) {
        client *late = connect_resume(token, from);
        ck_assert_ptr_null(jget(msg_at(late, 0), "/resume"));
        ck_assert(json_is_object(jget(msg_at(late, 0), "/state")));
        ck_assert_uint_eq(count_type(late, 0, "diff"), 0);
        ck_assert_msg(!saw_text(late, 0, "butler"), "resume from %lld replayed the hidden note",
                      from);
    }
    /* from its own welcome on, it resumes */
    assert_ack(run_cmd(gm, "r1", "roll", "{'expr':'1d6'}"));
    client *again = connect_resume(token, at_join);
    ck_assert(json_is_true(jget(msg_at(again, 0), "/resume")));
    ck_assert_uint_eq(count_type(again, 0, "diff"), 1);
    ck_assert(!saw_text(again, 0, "butler"));
}
END_TEST

START_TEST(test_resume_from_a_future_seq_gets_a_fresh_state)
{
    boot();
    char token[64];
    join_as("Ann", token);
    long long m = seq_now();
    client *r = connect_resume(token, m + 10);
    const json_t *w = msg_at(r, 0);
    ck_assert_ptr_null(jget(w, "/resume"));
    ck_assert(json_is_object(jget(w, "/state")));
    ck_assert_int_eq(jint(w, "/seq"), m);
    ck_assert_uint_eq(count_type(r, 0, "diff"), 0);
    ck_assert_str_eq(jstr(w, "/state/seats/p1/name"), "Ann");
}
END_TEST

START_TEST(test_resume_beyond_resume_max_gets_a_fresh_state)
{
    g_opts.resume_max = 3;
    boot();
    client *gm = connect_as(g_gm_token);
    char token[64];
    join_as("Ann", token);
    long long n = seq_now();
    for (int i = 0; i < 4; i++) {
        char id[16];
        snprintf(id, sizeof id, "q%d", i);
        assert_ack(run_cmd(gm, id, "roll", "{'expr':'1d6'}"));
    }
    ck_assert_int_eq(seq_now(), n + 4);

    client *far = connect_resume(token, n); /* 4 missing > 3 */
    ck_assert_ptr_null(jget(msg_at(far, 0), "/resume"));
    ck_assert(json_is_object(jget(msg_at(far, 0), "/state")));
    ck_assert_int_eq(jint(msg_at(far, 0), "/seq"), n + 4);
    ck_assert_uint_eq(count_type(far, 0, "diff"), 0);
    ck_assert_uint_eq(json_array_size(jget(msg_at(far, 0), "/state/log")), 4);

    client *near = connect_resume(token, n + 1); /* exactly 3 missing */
    ck_assert(json_is_true(jget(msg_at(near, 0), "/resume")));
    ck_assert_uint_eq(count_type(near, 0, "diff"), 3);
    ck_assert_int_eq(jint(msg_at(near, 1), "/seq"), n + 2);
}
END_TEST

/* ---- rebuild from the log ----------------------------------------------------------------- */

static void assert_rebuild_equals_live(const char *camp)
{
    int64_t live_seq = -1;
    const json_t *live = engine_campaign_state(g_e, camp, &live_seq);
    ck_assert_ptr_nonnull(live);
    for (int from_zero = 1; from_zero >= 0; from_zero--) {
        json_t *s = NULL;
        int64_t q = -1;
        tb_err err = {0};
        ck_assert_msg(store_campaign_load(g_st, camp, from_zero, &s, &q, &err) == TB_OK,
                      "load(from_zero=%d): %s", from_zero, err.msg);
        ck_assert_int_eq(q, live_seq);
        if (!json_equal(s, live)) {
            char *a = json_dumps(s, JSON_SORT_KEYS | JSON_COMPACT);
            char *b = json_dumps(live, JSON_SORT_KEYS | JSON_COMPACT);
            ck_abort_msg("rebuilt (from_zero=%d) != live:\n%s\n%s", from_zero, a, b);
        }
        json_decref(s);
    }
}

START_TEST(test_state_rebuilt_from_the_log_equals_the_live_state)
{
    g_opts.snapshot_every = 3;
    g_opts.log_cap = 4;
    boot();
    client *gm = connect_as(g_gm_token);
    client *p1 = join_as("Ann", NULL);
    client *p2 = join_as("Bob", NULL);
    assert_ack(run_cmd(gm, "a", "roll", "{'expr':'4d6kh3+2'}"));
    assert_ack(run_cmd(gm, "b", "roll", "{'expr':'2d20kl1','secret':true}"));
    sendq(p1, "{'t':'cmd','id':'c','op':'roll','args':{'expr':'3d6-1'}}");
    sendq(p2, "{'t':'cmd','id':'d','op':'roll','args':{'expr':'2d6+1d4'}}");
    sendq(p1, "{'t':'cmd','id':'e','op':'seat.rename','args':{'seat':'p1','name':'Annie'}}");
    engine_flush(g_e);
    assert_ack(run_cmd(gm, "f", "join.rotate", "{}"));
    for (int i = 0; i < 5; i++) {
        char id[16];
        snprintf(id, sizeof id, "g%d", i);
        assert_ack(run_cmd(p2, id, "roll", "{'expr':'1d100'}"));
    }
    assert_ack(run_cmd(gm, "h", "seat.remove", "{'seat':'p2'}"));
    client_gone(p2);
    assert_ack(run_cmd(gm, "i", "join.close", "{}"));
    assert_nack(run_cmd(p1, "j", "roll", "{'expr':'1d6','secret':true}"), "forbidden");

    long long seq = seq_now();
    ck_assert_int_ge(seq, 15);
    ck_assert_int_gt(sql_int("SELECT count(*) FROM snapshots WHERE campaign='%s'", g_camp), 0);
    long long snap = sql_int("SELECT max(seq) FROM snapshots WHERE campaign='%s'", g_camp);
    ck_assert_int_gt(snap, 1);
    ck_assert_int_le(snap, seq);
    assert_rebuild_equals_live(g_camp);

    /* and the engine that starts on this file has the same state */
    json_t *before = json_deep_copy(state_now());
    restart();
    ck_assert_int_eq(seq_now(), seq);
    ck_assert(json_equal(state_now(), before));
    json_decref(before);
    client *gm2 = connect_as(g_gm_token);
    assert_ack(run_cmd(gm2, "k", "roll", "{'expr':'1d6'}"));
    assert_rebuild_equals_live(g_camp);
}
END_TEST

/* engine.h: engine_destroy "Flushes, writes a snapshot of every campaign whose last snapshot is
 * older than its seq, and frees the engine." */
START_TEST(test_destroy_writes_a_snapshot_at_the_current_seq)
{
    boot(); /* snapshot_every 100: no snapshot is due */
    client *gm = connect_as(g_gm_token);
    assert_ack(run_cmd(gm, "a", "roll", "{'expr':'1d6'}"));
    assert_ack(run_cmd(gm, "b", "roll", "{'expr':'1d6'}"));
    long long seq = seq_now();
    ck_assert_int_eq(sql_int("SELECT count(*) FROM snapshots WHERE campaign='%s'", g_camp), 0);
    close_all_clients();
    engine_destroy(g_e);
    g_e = NULL;
    ck_assert_int_eq(sql_int("SELECT max(seq) FROM snapshots WHERE campaign='%s'", g_camp), seq);
}
END_TEST

/* ---- rate limit --------------------------------------------------------------------------- */

START_TEST(test_rate_limited_cmd_is_refused_and_not_remembered)
{
    g_opts.rate_per_sec = 1;
    g_opts.rate_burst = 2;
    boot();
    client *gm = connect_as(g_gm_token);
    client *p1 = join_as("Ann", NULL);
    long long n = seq_now();
    size_t from = p1->n;
    sendq(p1, "{'t':'cmd','id':'r1','op':'roll','args':{'expr':'1d6'}}");
    sendq(p1, "{'t':'cmd','id':'r2','op':'roll','args':{'expr':'1d6'}}");
    sendq(p1, "{'t':'cmd','id':'r3','op':'roll','args':{'expr':'1d6'}}");
    engine_flush(g_e);
    assert_ack(msg_at(p1, (size_t)find_reply(p1, from, "r1")));
    assert_ack(msg_at(p1, (size_t)find_reply(p1, from, "r2")));
    long r3 = find_reply(p1, from, "r3");
    ck_assert_int_ge(r3, 0);
    assert_nack(msg_at(p1, (size_t)r3), "rate_limited");
    ck_assert_int_eq(seq_now(), n + 2);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM idempotency WHERE campaign='%s' AND seat='p1'"
                             " AND cmd_id='r3'",
                             g_camp),
                     0);

    /* another seat has its own bucket */
    assert_ack(run_cmd(gm, "g1", "roll", "{'expr':'1d6'}"));

    struct timespec ts = {1, 100000000};
    nanosleep(&ts, NULL);
    const json_t *m = run_cmd(p1, "r3", "roll", "{'expr':'1d6'}");
    assert_ack(m);
    ck_assert_int_eq(jint(m, "/seq"), n + 4);
    ck_assert_int_eq(seq_now(), n + 4);
}
END_TEST

/* ---- log cap ------------------------------------------------------------------------------ */

START_TEST(test_log_cap_keeps_the_newest_entries_and_small_diffs)
{
    g_opts.log_cap = 5;
    boot();
    client *gm = connect_as(g_gm_token);
    client *p1 = join_as("Ann", NULL);
    long long seqs[10];
    size_t last_from = 0;
    for (int i = 0; i < 10; i++) {
        char id[16];
        snprintf(id, sizeof id, "l%d", i);
        last_from = p1->n;
        const json_t *m = run_cmd(gm, id, "roll", "{'expr':'1d6'}");
        assert_ack(m);
        seqs[i] = jint(m, "/seq");
    }
    const json_t *log = jget(state_now(), "/log");
    ck_assert_uint_eq(json_array_size(log), 5);
    for (size_t i = 0; i < 5; i++)
        ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(log, i), "seq")),
                         seqs[5 + i]);

    long d = find_diff(p1, last_from, seqs[9]);
    ck_assert_int_ge(d, 0);
    const json_t *ops = jget(msg_at(p1, (size_t)d), "/ops");
    ck_assert_msg(json_array_size(ops) == 2, "10th roll's diff: %s", p1->text[d]);
    int removes = 0, adds = 0;
    size_t i;
    json_t *op;
    json_array_foreach(ops, i, op)
    {
        if (strcmp(jstr(op, "/op"), "remove") == 0 && strcmp(jstr(op, "/path"), "/log/0") == 0)
            removes++;
        if (strcmp(jstr(op, "/op"), "add") == 0 && strcmp(jstr(op, "/path"), "/log/4") == 0) {
            adds++;
            ck_assert_int_eq(jint(op, "/value/seq"), seqs[9]);
        }
    }
    ck_assert_int_eq(removes, 1);
    ck_assert_int_eq(adds, 1);

    /* the GM log is capped too */
    for (int k = 0; k < 7; k++) {
        char id[16];
        snprintf(id, sizeof id, "s%d", k);
        assert_ack(run_cmd(gm, id, "roll", "{'expr':'1d6','secret':true}"));
    }
    ck_assert_uint_eq(json_array_size(jget(state_now(), "/gm/log")), 5);
    assert_rebuild_equals_live(g_camp);
}
END_TEST

/* ---- host ops ----------------------------------------------------------------------------- */

/* ---- copy-on-write working states (server/workcopy.h, ops.h) ------------------------------ */

START_TEST(test_every_row_declares_parseable_unnested_write_paths)
{
    const op_def *d;
    for (size_t i = 0; (d = ops_row_at(i)); i++) {
        ck_assert_msg(d->writes != NULL, "%s declares no writes (it would copy the world)",
                      d->name);
        for (const op_write *w = d->writes; w->path; w++) {
            proto_pointer p;
            ck_assert_msg(proto_pointer_parse(w->path, &p, NULL) == 0 && p.n > 0,
                          "%s: bad path '%s'", d->name, w->path);
            proto_pointer_free(&p);
            for (const op_write *o = d->writes; o->path; o++) {
                size_t n = strlen(w->path);
                ck_assert_msg(o == w || strncmp(o->path, w->path, n) != 0 ||
                                  (o->path[n] != '/' && o->path[n] != '\0'),
                              "%s: '%s' lies under '%s'", d->name, o->path, w->path);
            }
        }
    }
    ck_assert_ptr_nonnull(ops_row_at(0));
}
END_TEST

/* Whether the narrowed write w is part of the row's write o: the same path written the same way,
 * or a subtree below o when o may change anything below it (not shallow). */
static int write_within(const op_write *w, const op_write *o)
{
    size_t n = strlen(o->path);
    if (strcmp(o->path, w->path) == 0)
        return o->shallow == w->shallow;
    return o->shallow == 0 && strncmp(o->path, w->path, n) == 0 && w->path[n] == '/';
}

/* A row's writes_of (ops.h) narrows its declared writes for one call: what it returns is part of
 * what the row declares (a path of the row, or below one the row copies whole), and a roll's
 * secret flag picks the one log it writes. */
START_TEST(test_writes_of_is_part_of_the_row_and_a_roll_copies_one_log)
{
    json_t *calls[] = {json_pack("{s:s}", "expr", "d6"),
                       json_pack("{s:s, s:b}", "expr", "d6", "secret", 1)};
    const op_def *d;
    for (size_t i = 0; (d = ops_row_at(i)); i++) {
        if (!d->writes_of)
            continue;
        for (size_t c = 0; c < 2; c++) {
            for (const op_write *w = d->writes_of(calls[c]); w->path; w++) {
                const op_write *o = d->writes;
                while (o->path && !write_within(w, o))
                    o++;
                ck_assert_msg(o->path != NULL, "%s: writes_of gives '%s', not in its row", d->name,
                              w->path);
            }
        }
    }
    const op_def *roll = ops_find("generic", "roll");
    ck_assert_ptr_nonnull(roll);
    ck_assert_ptr_nonnull(roll->writes_of);
    const op_write *pub = roll->writes_of(calls[0]), *sec = roll->writes_of(calls[1]);
    ck_assert_str_eq(pub[0].path, "/log");
    ck_assert_ptr_null(pub[1].path);
    ck_assert_str_eq(sec[0].path, "/gm/log");
    ck_assert_ptr_null(sec[1].path);
    json_decref(calls[0]);
    json_decref(calls[1]);
}
END_TEST

/* Whether row w (terminated by a NULL path) names path. */
static int writes_name(const op_write *w, const char *path)
{
    for (; w->path; w++)
        if (strcmp(w->path, path) == 0)
            return 1;
    return 0;
}

/* issue 26: a row that writes one log copies that one. A check writes /log (its hidden numbers
 * under /gm/hidden, an ask under /asks and /gm/asks) or, secret, /gm/log alone; the GM's answer
 * logs the player's check publicly; a session's beginning and its close write a public line. */
START_TEST(test_a_check_an_answer_and_a_session_line_copy_only_the_log_they_write)
{
    const op_def *check = ops_find("fivey", "roll.check");
    ck_assert_ptr_nonnull(check);
    ck_assert_ptr_nonnull(check->writes_of);
    json_t *pub = json_pack("{s:s}", "check", "check");
    json_t *sec = json_pack("{s:s, s:b}", "check", "check", "secret", 1);
    const op_write *p = check->writes_of(pub), *s = check->writes_of(sec);
    ck_assert(writes_name(p, "/log") && writes_name(p, "/gm/hidden") && writes_name(p, "/asks") &&
              writes_name(p, "/gm/asks"));
    ck_assert(!writes_name(p, "/gm/log"));
    ck_assert_str_eq(s[0].path, "/gm/log");
    ck_assert_ptr_null(s[1].path);
    json_decref(pub);
    json_decref(sec);
    const op_def *answer = ops_find("fivey", "roll.answer");
    ck_assert_ptr_nonnull(answer);
    ck_assert(writes_name(answer->writes, "/log") && !writes_name(answer->writes, "/gm/log"));
    for (const char *const *n = (const char *const[]){"session.begin", "session.close", NULL}; *n;
         n++) {
        const op_def *d = ops_find("cot", *n);
        ck_assert_ptr_nonnull(d);
        ck_assert_msg(writes_name(d->writes, "/log") && !writes_name(d->writes, "/gm/log"), "%s",
                      *n);
    }
}
END_TEST

/* Runs map.move (a GM's call) on a working copy made from its writes_of, as run_op.c does, and
 * checks it left base as it was; returns the new state (new reference). */
static json_t *map_move_on_copy(const op_def *move, json_t *base, const char *args_text)
{
    json_t *args = json_loads(args_text, 0, NULL);
    ck_assert_ptr_nonnull(args);
    op_ctx ctx = {.seat = "gm", .is_gm = 1};
    uint64_t before = workcopy_fingerprint(base);
    json_t *work = workcopy_make(base, move->writes_of(args)), *result = NULL;
    tb_err err = {0};
    ck_assert_int_eq(move->fn(&ctx, work, args, &result, &err), TB_OK);
    ck_assert_int_eq(workcopy_check(base, before), 0);
    json_decref(result);
    json_decref(args);
    return work;
}

/* issue 26 item 2: a token's move copies the objects of tokens of the scene it names, not every
 * scene's maps: the other scene's maps and the tokens that stay are shared with the committed
 * state, and a move writes nothing outside what it declares: shown, hidden, and while the map is
 * hidden (the GM's kept tokens, made on the way when missing). */
START_TEST(test_a_token_move_copies_one_scene_s_tokens)
{
    const op_def *move = ops_find("fivey", "map.move");
    ck_assert_ptr_nonnull(move);
    ck_assert_ptr_nonnull(move->writes_of);
    json_t *args = json_pack("{s:s, s:s, s:i, s:i}", "scene", "a/b~", "id", "c1", "x", 1, "y", 2);
    const op_write *w = move->writes_of(args);
    ck_assert_str_eq(w[0].path, "/maps/a~1b~0/tokens");
    ck_assert_str_eq(w[1].path, "/gm/maps/a~1b~0/tokens");
    ck_assert_str_eq(w[2].path, "/gm/maps/a~1b~0/kept/tokens");
    ck_assert(w[0].shallow == 1 && w[1].shallow == 1 && w[2].shallow == 1);
    ck_assert_ptr_null(w[3].path);
    json_object_del(args, "scene");
    ck_assert_str_eq(move->writes_of(args)[0].path, "/maps/enc/tokens");
    json_decref(args);

    json_t *base =
        loadq("{'enc':{'combatants':{'c1':{'seat':'s1'}}},'scenes':{'s2':{'combatants':{}}},"
              "'maps':{'enc':{'grid':{'cols':10,'rows':10},'tokens':{'c1':{'id':'c1','x':0,"
              "'y':0,'cid':'c1'},'m1':{'id':'m1','x':3,'y':3,'label':'Door'}},'next':2},"
              "'s2':{'grid':{'cols':5,'rows':5},'tokens':{}}},"
              "'gm':{'maps':{'enc':{'grid':{'cols':10,'rows':10},'shown':true,'tokens':{'g1':"
              "{'id':'g1','x':1,'y':1,'label':'Trap'}},'zones':{}},"
              "'s2':{'grid':{'cols':5,'rows':5},'shown':true}}}}");
    json_t *work = map_move_on_copy(move, base, "{\"id\":\"c1\",\"x\":4,\"y\":5}");
    ck_assert_int_eq(json_integer_value(jget(work, "/maps/enc/tokens/c1/x")), 4);
    ck_assert_int_eq(json_integer_value(jget(base, "/maps/enc/tokens/c1/x")), 0);
    ck_assert_ptr_eq(jget(work, "/maps/s2"), jget(base, "/maps/s2"));
    ck_assert_ptr_eq(jget(work, "/gm/maps/s2"), jget(base, "/gm/maps/s2"));
    ck_assert_ptr_eq(jget(work, "/maps/enc/tokens/m1"), jget(base, "/maps/enc/tokens/m1"));
    ck_assert_ptr_eq(jget(work, "/maps/enc/grid"), jget(base, "/maps/enc/grid"));
    ck_assert_ptr_eq(jget(work, "/gm/maps/enc/tokens/g1"), jget(base, "/gm/maps/enc/tokens/g1"));
    json_decref(work);
    work = map_move_on_copy(move, base, "{\"id\":\"g1\",\"x\":7,\"y\":7}");
    ck_assert_int_eq(json_integer_value(jget(work, "/gm/maps/enc/tokens/g1/x")), 7);
    ck_assert_ptr_eq(jget(work, "/maps/enc/tokens/c1"), jget(base, "/maps/enc/tokens/c1"));
    json_decref(work);

    /* the map hidden: its shown tokens are the GM's kept ones, made on the way when missing */
    json_object_del(json_object_get(base, "maps"), "enc");
    work = map_move_on_copy(move, base, "{\"id\":\"g1\",\"x\":2,\"y\":2}");
    ck_assert_int_eq(json_integer_value(jget(work, "/gm/maps/enc/tokens/g1/x")), 2);
    json_decref(work);
    json_object_set_new(
        json_object_get(json_object_get(json_object_get(base, "gm"), "maps"), "enc"), "kept",
        json_pack("{s:{s:{s:s, s:i, s:i, s:s}}, s:i}", "tokens", "c1", "id", "c1", "x", 0, "y", 0,
                  "cid", "c1", "next", 1));
    work = map_move_on_copy(move, base, "{\"id\":\"c1\",\"x\":9,\"y\":9}");
    ck_assert_int_eq(json_integer_value(jget(work, "/gm/maps/enc/kept/tokens/c1/x")), 9);
    ck_assert_int_eq(json_integer_value(jget(base, "/gm/maps/enc/kept/tokens/c1/x")), 0);
    ck_assert_ptr_eq(jget(work, "/gm/maps/enc/tokens/g1"), jget(base, "/gm/maps/enc/tokens/g1"));
    json_decref(work);
    json_decref(base);
}
END_TEST

START_TEST(test_workcopy_shares_what_is_not_declared_and_catches_a_write_into_it)
{
    json_t *base = loadq("{'log':[{'a':1},{'b':2}],'chars':{'c1':{'name':'Ann'}},"
                         "'gm':{'log':[],'notes':{'x':{'deep':[1]}}},'seats':{}}");
    static const op_write W[] = {
        {"/log", OP_WRITE_LOG}, {"/gm/notes", 0}, {"/missing/below", 0}, {NULL, 0}};
    uint64_t before = workcopy_fingerprint(base);
    json_t *work = workcopy_make(base, W);
    /* shared: undeclared subtrees and the log's entries; private: the containers on the way */
    ck_assert_ptr_eq(json_object_get(work, "chars"), json_object_get(base, "chars"));
    ck_assert_ptr_eq(json_object_get(work, "seats"), json_object_get(base, "seats"));
    /* a log is copied when first written (workcopy_own_path), its entries shared */
    static const char *const LOG[] = {"log", NULL};
    ck_assert_ptr_eq(json_object_get(work, "log"), json_object_get(base, "log"));
    ck_assert_ptr_ne(workcopy_own_path(work, LOG), json_object_get(base, "log"));
    ck_assert_ptr_eq(workcopy_own_path(work, LOG), json_object_get(work, "log"));
    ck_assert_ptr_eq(json_array_get(json_object_get(work, "log"), 0),
                     json_array_get(json_object_get(base, "log"), 0));
    ck_assert_ptr_ne(json_object_get(work, "gm"), json_object_get(base, "gm"));
    ck_assert_ptr_eq(jget(work, "/gm/log"), jget(base, "/gm/log"));
    ck_assert_ptr_ne(jget(work, "/gm/notes/x/deep"), jget(base, "/gm/notes/x/deep"));

    /* writes the row declares leave the base as it was */
    json_array_append_new(json_object_get(work, "log"), json_pack("{s:i}", "c", 3));
    json_array_remove(json_object_get(work, "log"), 0);
    json_array_append_new((json_t *)jget(work, "/gm/notes/x/deep"), json_integer(2));
    json_object_set_new(work, "next_seat", json_integer(2));
    json_object_set_new(work, "missing", json_object());
    ck_assert_int_eq(workcopy_check(base, before), 0);

    /* a write into a shared subtree changes the committed state: caught */
    json_object_set_new((json_t *)jget(work, "/chars/c1"), "name", json_string("Bob"));
    ck_assert_int_eq(workcopy_check(base, before), -1);
    workcopy_settle();

    /* the diff of base and work names only what changed */
    json_t *patch = proto_patch_diff(base, work);
    char *ptext = json_dumps(patch, JSON_COMPACT);
    ck_assert_ptr_null(strstr(ptext, "seats"));
    json_decref(patch);
    free(ptext);
    json_decref(work);
    json_decref(base);
}
END_TEST

/* issue 26: ops_log_append_at, the one writer of logs, copies a log at its first append (entries
 * shared) and every container on the way that is still the committed state's (here /private and
 * /private/p1, which the row does not even declare), and makes what is missing; the committed
 * state never changes. */
START_TEST(test_a_log_append_copies_on_the_way_and_never_writes_the_base)
{
    json_t *base =
        loadq("{'log':[{'a':1}],'gm':{'log':[{'g':1}]},'private':{'p1':{'log':[{'p':1}]},"
              "'p2':{'log':[]}}}");
    uint64_t before = workcopy_fingerprint(base);
    static const op_write W[] = {OP_WRITES_LOGS, {NULL, 0}};
    json_t *work = workcopy_make(base, W);
    ck_assert_ptr_eq(jget(work, "/gm/log"), jget(base, "/gm/log")); /* not yet copied */
    ops_log_append(work, 1, json_pack("{s:i}", "g", 2), 200);
    ops_log_append(work, 0, json_pack("{s:i}", "a", 2), 1); /* cap 1: the oldest dropped */
    ops_log_append_at(work, (const char *const[]){"private", "p1", NULL},
                      json_pack("{s:i}", "p", 2), 200);
    ops_log_append_at(work, (const char *const[]){"private", "p3", NULL},
                      json_pack("{s:i}", "p", 3), 200);
    ck_assert_int_eq(workcopy_check(base, before), 0);
    ck_assert_int_eq(json_array_size(jget(work, "/gm/log")), 2);
    ck_assert_ptr_eq(jget(work, "/gm/log/0"), jget(base, "/gm/log/0")); /* entries shared */
    ck_assert_int_eq(json_array_size(jget(work, "/log")), 1);
    ck_assert_int_eq(json_integer_value(jget(work, "/log/0/a")), 2);
    ck_assert_int_eq(json_array_size(jget(work, "/private/p1/log")), 2);
    ck_assert_ptr_eq(jget(work, "/private/p1/log/0"), jget(base, "/private/p1/log/0"));
    ck_assert_int_eq(json_integer_value(jget(work, "/private/p3/log/0/p")), 3);
    ck_assert_ptr_eq(jget(work, "/private/p2"), jget(base, "/private/p2")); /* untouched: shared */
    ck_assert_int_eq(json_array_size(jget(base, "/private/p1/log")), 1);
    ck_assert_ptr_null(jget(base, "/private/p3"));
    /* a second append writes the copy it made, copying nothing again */
    const json_t *gm_log = jget(work, "/gm/log");
    ops_log_append(work, 1, json_pack("{s:i}", "g", 3), 200);
    ck_assert_ptr_eq(jget(work, "/gm/log"), gm_log);
    ck_assert_int_eq(workcopy_check(base, before), 0);
    workcopy_settle();
    json_decref(work);
    json_decref(base);
}
END_TEST

/* issue 26, the characters curve: /chars and /gm/npcs (OP_WRITE_COMBATANTS) are left shared by
 * workcopy_make; workcopy_own_path copies only the containers on the way to the one character a
 * handler changes, once, and the diff names only what changed. */
START_TEST(test_workcopy_own_path_copies_one_character_on_first_write)
{
    json_t *base =
        loadq("{'chars':{'c1':{'name':'Ann','sheet':{'hp':5,'gear':[1]}},'c2':{'name':'Bo',"
              "'sheet':{'hp':3}}},'gm':{'npcs':{'n1':{'sheet':{'hp':2}}},'log':[]}}");
    static const op_write W[] = {
        {"/chars", OP_WRITE_COMBATANTS}, {"/gm/npcs", OP_WRITE_COMBATANTS}, {NULL, 0}};
    uint64_t before = workcopy_fingerprint(base);
    json_t *work = workcopy_make(base, W);
    ck_assert_ptr_eq(jget(work, "/chars"), jget(base, "/chars"));
    ck_assert_ptr_eq(jget(work, "/gm/npcs"), jget(base, "/gm/npcs"));

    const char *const at[] = {"chars", "c1", "sheet", NULL};
    json_t *sheet = workcopy_own_path(work, at);
    ck_assert_ptr_nonnull(sheet);
    ck_assert_ptr_eq(sheet, jget(work, "/chars/c1/sheet"));
    ck_assert_ptr_ne(sheet, jget(base, "/chars/c1/sheet"));
    ck_assert_ptr_ne(jget(work, "/chars"), jget(base, "/chars"));
    ck_assert_ptr_ne(jget(work, "/chars/c1"), jget(base, "/chars/c1"));
    /* the other characters, the sheet's members and the other object of characters: shared */
    ck_assert_ptr_eq(jget(work, "/chars/c2"), jget(base, "/chars/c2"));
    ck_assert_ptr_eq(jget(work, "/chars/c1/sheet/gear"), jget(base, "/chars/c1/sheet/gear"));
    ck_assert_ptr_eq(jget(work, "/gm/npcs"), jget(base, "/gm/npcs"));
    /* taken again: the same private copy */
    ck_assert_ptr_eq(workcopy_own_path(work, at), sheet);
    /* a missing key or a scalar on the way: nothing */
    ck_assert_ptr_null(workcopy_own_path(work, (const char *const[]){"chars", "c9", NULL}));
    ck_assert_ptr_null(
        workcopy_own_path(work, (const char *const[]){"chars", "c1", "name", "x", NULL}));

    json_object_set_new(sheet, "hp", json_integer(4));
    json_object_set_new((json_t *)jget(work, "/chars/c1"), "derived", json_object());
    json_object_set_new(workcopy_own_path(work, (const char *const[]){"gm", "npcs", "n1", NULL}),
                        "hp", json_integer(1));
    ck_assert_int_eq(workcopy_check(base, before), 0);
    workcopy_settle();

    json_t *patch = proto_patch_diff(base, work);
    char *ptext = json_dumps(patch, JSON_COMPACT);
    ck_assert_ptr_nonnull(strstr(ptext, "\"/chars/c1/sheet/hp\""));
    ck_assert_ptr_nonnull(strstr(ptext, "\"/chars/c1/derived\""));
    ck_assert_ptr_nonnull(strstr(ptext, "\"/gm/npcs/n1/hp\""));
    ck_assert_ptr_null(strstr(ptext, "c2"));
    ck_assert_int_eq(json_array_size(patch), 3);
    json_decref(patch);
    free(ptext);

    /* settled (or a handler run on a deep copy): everything is private, nothing is copied */
    json_t *deep = json_deep_copy(base);
    ck_assert_ptr_eq(workcopy_own_path(deep, at), jget(deep, "/chars/c1/sheet"));
    json_decref(deep);
    json_decref(work);
    json_decref(base);
}
END_TEST

/* Runs op (already normalized args, stolen) for seat on *state, committing on success like the
 * engine: on a copy-on-write working copy when cow (the committed state checked unchanged), else
 * on a deep copy. The old state is returned in *was (new reference) for pointer checks. */
static void play_op(const char *op, const char *seat, json_t **state, json_t *args, int cow,
                    json_t **was)
{
    const op_def *def = ops_find("fivey", op);
    ck_assert_ptr_nonnull(def);
    op_ctx ctx = {.seat = seat, .is_gm = strcmp(seat, "gm") == 0, .seq = 1, .log_cap = 50};
    tb_err err = {0};
    json_t *norm = NULL, *result = NULL;
    ck_assert_int_eq(ops_check_args(def, args, &norm, &err), TB_OK);
    uint64_t before = workcopy_fingerprint(*state);
    json_t *work = cow ? workcopy_make(*state, def->writes) : json_deep_copy(*state);
    ck_assert_msg(def->fn(&ctx, work, norm, &result, &err) == TB_OK, "%s: %s", op, err.msg);
    workcopy_settle();
    ck_assert_int_eq(workcopy_check(*state, before), 0);
    if (was)
        *was = json_incref(*state);
    json_decref(*state);
    *state = work;
    json_decref(result);
    json_decref(norm);
    json_decref(args);
}

/* issue 26: char.update copies the one character it changes (W_CHARS, workcopy_own_path), a PC's
 * and an NPC's; the others stay the committed state's, and the campaign comes out as a deep
 * copy's run makes it. */
START_TEST(test_char_update_copies_the_one_character)
{
    json_t *st[2];
    for (int cow = 0; cow < 2; cow++) {
        st[cow] = ops_campaign_initial("c1", "T", "fivey", NULL);
        json_object_set_new(json_object_get(st[cow], "seats"), "p1",
                            json_pack("{s:s, s:s}", "name", "Ann", "role", "player"));
        const char *who[][3] = {{"p1", "Brunhild", "brunhild"},
                                {"p1", "Vesper", "vesper"},
                                {"gm", "Sylla", "sylla"}};
        for (int i = 0; i < 3; i++) {
            char file[256];
            snprintf(file, sizeof file, "%s/rules/fivey/samples/%s.json", TB_SOURCE_ROOT,
                     who[i][2]);
            json_t *sheet = json_load_file(file, 0, NULL);
            ck_assert_ptr_nonnull(sheet);
            play_op("char.create", who[i][0], &st[cow],
                    json_pack("{s:s, s:o, s:b}", "name", who[i][1], "sheet", sheet, "npc", i == 2),
                    0, NULL);
        }
        const char *ids[3] = {NULL, NULL, NULL}, *k;
        json_t *v;
        int n = 0;
        json_object_foreach(json_object_get(st[cow], "chars"), k, v) ids[n++] = k;
        json_object_foreach((json_t *)jget(st[cow], "/gm/npcs"), k, v) ids[2] = k;
        ck_assert(n == 2 && ids[2]);
        char pc[32], other[32], npc[32];
        snprintf(pc, sizeof pc, "%s", ids[0]);
        snprintf(other, sizeof other, "%s", ids[1]);
        snprintf(npc, sizeof npc, "%s", ids[2]);
        json_t *sheet = json_deep_copy(jget(st[cow], "/chars")); /* any valid sheet: Brunhild's */
        json_t *brunhild = json_deep_copy(json_object_get(json_object_get(sheet, pc), "sheet"));
        json_decref(sheet);
        json_t *was = NULL;
        play_op("char.update", "p1", &st[cow],
                json_pack("{s:s, s:s, s:o}", "id", pc, "name", "Bruni", "sheet", brunhild), cow,
                &was);
        char path[64];
        snprintf(path, sizeof path, "/chars/%s", other);
        if (cow) /* the character not named is the committed state's own */
            ck_assert_ptr_eq(jget(st[cow], path), jget(was, path));
        snprintf(path, sizeof path, "/chars/%s/name", pc);
        ck_assert_str_eq(json_string_value(jget(st[cow], path)), "Bruni");
        snprintf(path, sizeof path, "/chars/%s/name", pc);
        ck_assert_str_ne(json_string_value(jget(was, path)), "Bruni");
        json_decref(was);
        play_op("char.update", "gm", &st[cow], json_pack("{s:s, s:s}", "id", npc, "name", "Syl"),
                cow, &was);
        snprintf(path, sizeof path, "/chars/%s", pc);
        if (cow)
            ck_assert_ptr_eq(jget(st[cow], path), jget(was, path));
        snprintf(path, sizeof path, "/gm/npcs/%s/name", npc);
        ck_assert_str_eq(json_string_value(jget(st[cow], path)), "Syl");
        json_decref(was);
    }
    ck_assert(json_equal(st[0], st[1]));
    json_decref(st[0]);
    json_decref(st[1]);
}
END_TEST

START_TEST(test_fingerprint_ignores_key_order_and_sees_any_change)
{
    static const char *const SAME[][2] = {
        {"{\"a\":1,\"b\":[1,2,{\"c\":\"x\"}]}", "{\"b\":[1,2,{\"c\":\"x\"}],\"a\":1}"},
    };
    static const char *const DIFFERENT[][2] = {
        {"{\"a\":1}", "{\"a\":2}"},
        {"{\"a\":1}", "{\"b\":1}"},
        {"{\"a\":\"b\"}", "{\"b\":\"a\"}"},
        {"[1,2]", "[2,1]"},
        {"{\"a\":[{\"b\":{\"c\":\"deep\"}}]}", "{\"a\":[{\"b\":{\"c\":\"deeP\"}}]}"},
        {"{\"a\":1}", "{\"a\":1.0}"},
        {"{\"a\":true}", "{\"a\":false}"},
        {"{\"a\":null}", "{\"a\":{}}"},
        {"{\"a\":{},\"b\":1}", "{\"a\":{\"b\":1}}"},
    };
    for (size_t i = 0; i < sizeof SAME / sizeof SAME[0]; i++) {
        json_t *x = json_loads(SAME[i][0], 0, NULL), *y = json_loads(SAME[i][1], 0, NULL);
        ck_assert(workcopy_fingerprint(x) == workcopy_fingerprint(y));
        json_decref(x);
        json_decref(y);
    }
    for (size_t i = 0; i < sizeof DIFFERENT / sizeof DIFFERENT[0]; i++) {
        json_t *x = json_loads(DIFFERENT[i][0], JSON_DECODE_ANY, NULL);
        json_t *y = json_loads(DIFFERENT[i][1], JSON_DECODE_ANY, NULL);
        ck_assert_msg(workcopy_fingerprint(x) != workcopy_fingerprint(y), "%s vs %s",
                      DIFFERENT[i][0], DIFFERENT[i][1]);
        json_decref(x);
        json_decref(y);
    }
}
END_TEST

/* The rulebook's sample sheet (rules/fivey/samples/<name>.json) as compact JSON text with ' for ".
 */
static char *fivey_sample_q(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rules/fivey/samples/%s.json", TB_SOURCE_ROOT, name);
    json_t *j = json_load_file(path, 0, NULL);
    ck_assert_msg(j != NULL, "cannot read %s", path);
    json_object_del(j, "notes"); /* free text with apostrophes, which sendq would turn into " */
    char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(j);
    for (char *c = s; *c; c++)
        if (*c == '"')
            *c = '\'';
    return s;
}

/* A realistic campaign: fivey, a GM and two players with a character each, a fivey.combat
 * encounter with them and two goblins, initiative rolled, and a full log. Leaves g_camp,
 * g_gm_token and g_code naming it; returns the GM's client and writes the players' to pl[2]. */
static client *fivey_table(client *pl[2], char chars[2][16])
{
    start();
    tb_err err = {0};
    char *host_token = engine_mint_host_token(g_e, &err);
    client *host = connect_as(host_token);
    free(host_token);
    const json_t *m = run_cmd(host, "h1", "campaign.create", "{'name':'Prop','system':'fivey'}");
    assert_ack(m);
    snprintf(g_camp, sizeof g_camp, "%s", jstr(m, "/result/campaign"));
    snprintf(g_gm_token, sizeof g_gm_token, "%s", jstr(m, "/result/gm_token"));
    snprintf(g_code, sizeof g_code, "%s", jstr(m, "/result/join_code"));
    client *gm = connect_as(g_gm_token);
    static const char *const NAMES[2] = {"vesper", "brunhild"};
    for (int i = 0; i < 2; i++) {
        pl[i] = join_as(i ? "Bo" : "Ann", NULL);
        char *sheet = fivey_sample_q(NAMES[i]);
        char args[4096], id[16];
        snprintf(args, sizeof args, "{'name':'%s','sheet':%s}", NAMES[i], sheet);
        free(sheet);
        snprintf(id, sizeof id, "ch%d", i);
        m = run_cmd(pl[i], id, "char.create", args);
        assert_ack(m);
        snprintf(chars[i], 16, "%s", jstr(m, "/result/id"));
    }
    for (int i = 0; i < 210; i++) {
        char id[16];
        snprintf(id, sizeof id, "fill%d", i);
        assert_ack(run_cmd(i % 3 ? pl[i % 2] : gm, id, "roll",
                           i % 3 ? "{'expr':'2d6'}" : "{'expr':'d20','secret':true}"));
    }
    assert_ack(run_cmd(gm, "e0", "enc.start", "{'module':'fivey.combat'}"));
    for (int i = 0; i < 2; i++) {
        char args[64], id[16];
        snprintf(args, sizeof args, "{'char':'%s'}", chars[i]);
        snprintf(id, sizeof id, "ea%d", i);
        assert_ack(run_cmd(gm, id, "enc.add", args));
    }
    assert_ack(run_cmd(gm, "eg1", "enc.add", "{'npc':{'name':'Goblin'}}"));
    assert_ack(run_cmd(gm, "eg2", "enc.add", "{'npc':{'name':'Goblin'}}"));
    assert_ack(run_cmd(gm, "ei", "enc.act", "{'action':'initiative'}"));
    return gm;
}

/* The property of issue 10: for random command sequences on a realistic state, the patch a
 * command commits, applied to the state before it, gives the state after it; and a refused
 * command leaves the state byte for byte as it was (and consumes no seq). */
START_TEST(test_random_commands_patch_old_into_new_and_refusals_change_nothing)
{
    g_opts.rate_per_sec = 0;
    g_opts.check_shared = 1; /* every command also checked against its declared writes */
    client *pl[2];
    char chars[2][16];
    client *gm = fivey_table(pl, chars);
    rules_rng *pick = rules_rng_seeded(20261124u + (unsigned)_i);
    int acks = 0, nacks = 0;
    for (int step = 0; step < 160; step++) {
        client *actor = rules_rng_below(pick, 3) == 0 ? gm : pl[rules_rng_below(pick, 2)];
        const char *op = NULL;
        char args[512];
        int k = (int)rules_rng_below(pick, 6);
        switch (rules_rng_below(pick, 14)) {
        case 0:
            op = "roll";
            snprintf(args, sizeof args, "{'expr':'%s','secret':%s}",
                     k == 5  ? "d0"
                     : k % 2 ? "d20+5"
                             : "3d6",
                     k < 2 ? "true" : "false");
            break;
        case 1:
            op = "gm.set";
            snprintf(args, sizeof args, "{'key':'k%d','value':{'n':%d,'l':[%d]}}", k, step, k);
            break;
        case 2:
            op = "gm.unset";
            snprintf(args, sizeof args, "{'key':'k%d'}", k);
            break;
        case 3:
            op = "gm.reveal";
            snprintf(args, sizeof args, "{'path':'/gm/notes/k%d'}", k);
            break;
        case 4:
            op = "gm.hide";
            snprintf(args, sizeof args, "{'path':'/gm/notes/k%d'}", k);
            break;
        case 5:
            op = "char.update";
            snprintf(args, sizeof args, "{'id':'%s','name':'Name %d'}", chars[k % 2], step);
            break;
        case 6:
            op = "seat.rename";
            snprintf(args, sizeof args, "{'seat':'p%d','name':'Seat %d'}", 1 + k % 3, step);
            break;
        case 7:
            op = k == 0 ? "join.close" : "join.rotate";
            snprintf(args, sizeof args, "{}");
            break;
        case 8:
        case 9:
            op = "enc.act";
            snprintf(args, sizeof args, "{'action':'%s'}",
                     k < 3   ? "end"
                     : k < 5 ? "move"
                             : "dance");
            break;
        case 10:
            op = "enc.act";
            snprintf(args, sizeof args, "{'action':'attack','params':{'target':'e%d'}}", 1 + k % 4);
            break;
        case 11:
            op = "enc.set";
            snprintf(args, sizeof args, "{'path':'/%senc/x%d','value':%d}", k % 2 ? "gm/" : "", k,
                     step);
            break;
        case 12:
            op = "campaign.rename";
            snprintf(args, sizeof args, "{'name':'%s'}", k == 0 ? "" : "Renamed");
            break;
        default:
            op = "system.describe";
            snprintf(args, sizeof args, "{}");
            break;
        }
        json_t *old = json_deep_copy(state_now());
        char *before = json_dumps(old, JSON_SORT_KEYS | JSON_COMPACT);
        long long seq0 = seq_now();
        size_t gm_from = gm->n;
        char id[16];
        snprintf(id, sizeof id, "r%d", step);
        const json_t *r = run_cmd(actor, id, op, args);
        char *after = json_dumps(state_now(), JSON_SORT_KEYS | JSON_COMPACT);
        if (strcmp(jstr(r, "/t"), "nack") == 0) {
            nacks++;
            ck_assert_msg(strcmp(before, after) == 0, "refused %s %s changed the state", op, args);
            ck_assert_int_eq(seq_now(), seq0);
        } else if (strcmp(op, "system.describe") == 0) {
            /* read-only: stores nothing, changes nothing (issue 27 item 1) */
            acks++;
            ck_assert_int_eq(seq_now(), seq0);
            ck_assert_msg(strcmp(before, after) == 0, "%s changed the state", op);
            ck_assert(json_is_null(jget(r, "/seq")));
            json_decref(old);
            free(before);
            free(after);
            continue;
        } else {
            acks++;
            ck_assert_int_eq(seq_now(), seq0 + 1);
            long d = find_diff(gm, gm_from, seq0 + 1);
            json_t *patched;
            if (d < 0) { /* nothing changed: no diff is sent (not even to the GM) */
                patched = json_incref(old);
            } else {
                tb_err err = {0};
                patched = proto_patch_apply(old, jget(msg_at(gm, (size_t)d), "/ops"), &err);
                ck_assert_msg(patched != NULL, "%s: the patch does not apply: %s", op, err.msg);
            }
            char *got = json_dumps(patched, JSON_SORT_KEYS | JSON_COMPACT);
            ck_assert_msg(strcmp(got, after) == 0, "%s %s: old + patch != new", op, args);
            free(got);
            json_decref(patched);
        }
        free(before);
        free(after);
        json_decref(old);
    }
    rules_rng_destroy(pick);
    ck_assert_msg(acks > 30 && nacks > 10, "a mix of outcomes: %d acks, %d nacks", acks, nacks);
}
END_TEST

START_TEST(test_host_creates_lists_and_retries_campaigns)
{
    boot();
    tb_err err = {0};
    char *host_token = engine_mint_host_token(g_e, &err);
    ck_assert_ptr_nonnull(host_token);
    client *host = connect_as(host_token);
    free(host_token);

    const json_t *m =
        run_cmd(host, "h1", "campaign.create", "{'name':'The Heist','system':'generic'}");
    assert_ack(m);
    ck_assert(json_is_null(jget(m, "/seq")));
    char camp2[32], tok1[64], code2[32];
    snprintf(camp2, sizeof camp2, "%s", jstr(m, "/result/campaign"));
    snprintf(tok1, sizeof tok1, "%s", jstr(m, "/result/gm_token"));
    snprintf(code2, sizeof code2, "%s", jstr(m, "/result/join_code"));
    ck_assert_int_eq((int)strlen(camp2), 10);
    ck_assert_str_ne(camp2, g_camp);
    ck_assert_msg(is_token(tok1), "gm_token '%s'", tok1);
    ck_assert(is_join_code(code2));
    ck_assert_int_eq(engine_campaign_count(g_e), 2);

    int64_t seq2 = -1;
    const json_t *st2 = engine_campaign_state(g_e, camp2, &seq2);
    ck_assert_ptr_nonnull(st2);
    ck_assert_int_eq(seq2, 1);
    ck_assert_int_eq(sql_int("SELECT min(seq) FROM events WHERE campaign='%s'", camp2), 1);
    char *op1 = sql_text("SELECT op FROM events WHERE campaign='%s' AND seq=1", camp2);
    ck_assert_str_eq(op1, "campaign.create");
    free(op1);
    ck_assert_str_eq(jstr(st2, "/campaign/name"), "The Heist");
    ck_assert_str_eq(jstr(st2, "/gm/join/code"), code2);

    client *gm2 = connect_as(tok1);
    ck_assert_str_eq(jstr(msg_at(gm2, 0), "/seat/role"), "gm");
    ck_assert_str_eq(jstr(msg_at(gm2, 0), "/campaign/id"), camp2);
    ck_assert_str_eq(jstr(msg_at(gm2, 0), "/campaign/name"), "The Heist");

    /* the new campaign's join code works */
    client *pl = client_new();
    sendq(pl, "{'t':'join','code':'%s','name':'Zed'}", code2);
    engine_flush(g_e);
    ck_assert_str_eq(mtype(pl, 0), "joined");
    ck_assert_str_eq(jstr(msg_at(pl, 1), "/campaign/id"), camp2);

    m = run_cmd(host, "h2", "campaign.list", "{}");
    assert_ack(m);
    ck_assert(json_is_null(jget(m, "/seq")));
    const json_t *list = jget(m, "/result/campaigns");
    ck_assert_uint_eq(json_array_size(list), 2);
    int saw1 = 0, saw2 = 0;
    size_t i;
    json_t *c;
    json_array_foreach(list, i, c)
    {
        if (strcmp(jstr(c, "/id"), g_camp) == 0) {
            saw1 = 1;
            ck_assert_str_eq(jstr(c, "/name"), "My campaign");
            ck_assert_int_eq(jint(c, "/seq"), seq_now());
            ck_assert_int_eq(jint(c, "/seats"), 1);
        }
        if (strcmp(jstr(c, "/id"), camp2) == 0) {
            saw2 = 1;
            ck_assert_str_eq(jstr(c, "/system"), "generic");
            ck_assert_int_eq(jint(c, "/seq"), 2);
            ck_assert_int_eq(jint(c, "/seats"), 2);
        }
    }
    ck_assert(saw1 && saw2);

    /* retry: same campaign, a new GM token; the stored reply holds no token */
    m = run_cmd(host, "h1", "campaign.create", "{'name':'The Heist','system':'generic'}");
    assert_ack(m);
    ck_assert_str_eq(jstr(m, "/result/campaign"), camp2);
    ck_assert_str_eq(jstr(m, "/result/join_code"), code2);
    char tok2[64];
    snprintf(tok2, sizeof tok2, "%s", jstr(m, "/result/gm_token"));
    ck_assert_msg(is_token(tok2), "retried gm_token '%s'", tok2);
    ck_assert_str_ne(tok2, tok1);
    ck_assert_int_eq(engine_campaign_count(g_e), 2);
    client *gm3 = connect_as(tok2);
    ck_assert_str_eq(jstr(msg_at(gm3, 0), "/campaign/id"), camp2);
    ck_assert_str_eq(jstr(msg_at(gm3, 0), "/seat/role"), "gm");
    char *row =
        sql_text("SELECT reply FROM idempotency WHERE campaign='' AND seat='host' AND cmd_id='h1'");
    ck_assert_ptr_nonnull(row);
    ck_assert_msg(strstr(row, "\"gm_token\":\"\"") != NULL, "stored reply: %s", row);
    ck_assert(strstr(row, tok1) == NULL);
    ck_assert(strstr(row, tok2) == NULL);
    free(row);

    /* refusals */
    client *gm = connect_as(g_gm_token);
    assert_nack(run_cmd(gm, "h3", "campaign.create", "{'name':'Mine','system':'generic'}"),
                "forbidden");
    assert_nack(run_cmd(host, "h4", "campaign.create", "{'name':'X','system':'dnd5e'}"),
                "bad_request");
    assert_nack(run_cmd(host, "h5", "campaign.create", "{'name':'X'}"), "bad_request");
    assert_nack(run_cmd(host, "h6", "campaign.create", "{'name':'  ','system':'generic'}"),
                "bad_request");
    assert_nack(run_cmd(host, "h7", "roll", "{'expr':'1d6'}"), "not_found");
    ck_assert_int_eq(engine_campaign_count(g_e), 2);
}
END_TEST

/* ---- abuse -------------------------------------------------------------------------------- */

START_TEST(test_more_than_fifty_bad_messages_close_with_1008)
{
    boot();
    client *c = client_new();
    for (int i = 0; i < 50; i++)
        send_text(c, "this is not json");
    ck_assert_uint_eq(c->n, 50);
    for (size_t i = 0; i < c->n; i++) {
        ck_assert_str_eq(mtype(c, i), "error");
        ck_assert_str_eq(jstr(msg_at(c, i), "/code"), "bad_request");
    }
    ck_assert_int_eq(c->closes, 0);
    send_text(c, "{not json either");
    ck_assert_int_eq(c->closes, 1);
    ck_assert_int_eq(c->close_status, 1008);
    size_t n = c->n;
    send_text(c, "still not json");
    sendq(c, "{'t':'ping','n':1}");
    engine_flush(g_e);
    ck_assert_uint_eq(c->n, n);
    ck_assert_int_eq(c->closes, 1);
}
END_TEST

/* ---- connections that vanish -------------------------------------------------------------- */

/* Presence as diffs (issue 10): a join tells the seats already there one small change, not the
 * whole list, so N joins cost O(N) presence bytes per seat, not O(N^2); the newcomer gets the
 * whole list once. */
START_TEST(test_presence_sends_only_the_seats_that_changed)
{
    boot();
    client *gm = connect_as(g_gm_token);
    size_t from = gm->n;
    client *last = NULL;
    for (int i = 0; i < 30; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        last = join_as(name, NULL);
        engine_flush(g_e);
    }
    size_t n = 0;
    for (size_t i = from; i < gm->n; i++) {
        if (strcmp(mtype(gm, i), "presence") != 0)
            continue;
        n++;
        ck_assert_uint_eq(json_object_size(jget(msg_at(gm, i), "/seats")), 1);
    }
    ck_assert_uint_eq(n, 30);
    long p = find_type(last, 0, "presence");
    ck_assert_int_ge(p, 0);
    ck_assert_uint_eq(json_object_size(jget(msg_at(last, (size_t)p), "/seats")), 31);
}
END_TEST

START_TEST(test_connection_closed_with_a_held_reply_is_skipped_and_shown_offline)
{
    boot();
    client *gm = connect_as(g_gm_token);
    client *p1 = join_as("Ann", NULL);
    long long n = seq_now();
    size_t gm_from = gm->n, p_from = p1->n;

    sendq(p1, "{'t':'cmd','id':'held','op':'roll','args':{'expr':'1d6'}}");
    sendq(p1, "{'t':'cmd','id':'held2','op':'roll','args':{'expr':'bad'}}");
    ck_assert_uint_eq(p1->n, p_from);
    client_gone(p1);

    ck_assert_int_eq(engine_flush(g_e), 1);
    /* presence is told once per turn, and only what changed */
    long pr = find_type(gm, gm_from, "presence");
    ck_assert_msg(pr >= 0, "no presence after the player left");
    ck_assert(json_is_false(jget(msg_at(gm, (size_t)pr), "/seats/p1")));
    ck_assert_uint_eq(json_object_size(jget(msg_at(gm, (size_t)pr), "/seats")), 1);
    ck_assert_int_eq(p1->sends_after_gone, 0);
    ck_assert_uint_eq(p1->n, p_from);
    /* the command was durable all the same; the others see its diff */
    ck_assert_int_eq(seq_now(), n + 1);
    ck_assert_int_ge(find_diff(gm, gm_from, n + 1), 0);

    /* the engine goes on */
    assert_ack(run_cmd(gm, "after", "roll", "{'expr':'1d6'}"));
    ck_assert_int_eq(seq_now(), n + 2);
    ck_assert_int_eq(p1->sends_after_gone, 0);
}
END_TEST

/* ---- campaigns loaded on first use, put away when idle (issue 26/28) ------------------------ */

/* engine.h: a campaign nobody is connected to is put away by engine_tick (snapshot, file closed)
 * and loaded again by the next hello; nothing is lost and the log goes on. */
START_TEST(test_idle_campaign_is_put_away_and_loaded_again_by_hello)
{
    g_opts.idle_close_ms = 0;
    boot();
    client *gm = connect_as(g_gm_token);
    assert_ack(run_cmd(gm, "a", "roll", "{'expr':'2d6'}"));
    long long n = seq_now();
    json_t *before = json_deep_copy(state_now());
    ck_assert_int_eq(engine_tick(g_e), 0); /* someone is connected */
    ck_assert_int_eq(engine_campaigns_loaded(g_e), 1);
    client_gone(gm);
    ck_assert_int_eq(engine_tick(g_e), 1);
    ck_assert_int_eq(engine_campaigns_loaded(g_e), 0);
    ck_assert_int_eq(engine_campaign_count(g_e), 1);
    ck_assert_int_eq(sql_int("SELECT max(seq) FROM snapshots WHERE campaign='%s'", g_camp), n);

    client *again = connect_as(g_gm_token);
    ck_assert_int_eq(engine_campaigns_loaded(g_e), 1);
    ck_assert_int_eq(jint(msg_at(again, 0), "/seq"), n);
    ck_assert(json_equal(before, json_object_get(msg_at(again, 0), "state")));
    /* a re-sent id is still recognised; a new one runs with the next seq */
    const json_t *re = run_cmd(again, "a", "roll", "{'expr':'2d6'}");
    assert_ack(re);
    ck_assert_int_eq(jint(re, "/seq"), n);
    const json_t *next = run_cmd(again, "b", "roll", "{'expr':'1d4'}");
    ck_assert_int_eq(jint(next, "/seq"), n + 1);
    json_decref(before);
}
END_TEST

/* A join code finds a campaign that is not loaded (the registry knows it); the host lists
 * a put-away campaign with the figures it had. */
START_TEST(test_join_and_campaign_list_reach_a_campaign_that_is_put_away)
{
    g_opts.idle_close_ms = 0;
    boot();
    client *gm = connect_as(g_gm_token);
    assert_ack(run_cmd(gm, "r", "campaign.rename", "{'name':'The Salt Road'}"));
    long long n = seq_now();
    client_gone(gm);
    ck_assert_int_eq(engine_tick(g_e), 1);
    ck_assert_int_eq(engine_campaigns_loaded(g_e), 0);

    client *host = client_new();
    char *host_token = engine_mint_host_token(g_e, NULL);
    sendq(host, "{'t':'hello','v':1,'token':'%s'}", host_token);
    free(host_token);
    const json_t *list = run_cmd(host, "l", "campaign.list", "{}");
    assert_ack(list);
    ck_assert_int_eq(engine_campaigns_loaded(g_e), 0); /* listed without loading it */
    ck_assert_str_eq(jstr(list, "/result/campaigns/0/name"), "The Salt Road");
    ck_assert_int_eq(jint(list, "/result/campaigns/0/seq"), n);
    ck_assert_int_eq(jint(list, "/result/campaigns/0/seats"), 1);

    client *p1 = join_as("Ann", NULL); /* by the code, through the registry */
    ck_assert_int_eq(engine_campaigns_loaded(g_e), 1);
    ck_assert_int_eq(jint(msg_at(p1, 1), "/seq"), n + 1);
    list = run_cmd(host, "l2", "campaign.list", "{}");
    ck_assert_int_eq(jint(list, "/result/campaigns/0/seats"), 2);
}
END_TEST

/* ---- suite -------------------------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 20);
    suite_add_tcase(s, tc);
    return tc;
}

static Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc;

    tc = tcase(s, "bootstrap");
    tcase_add_test(tc, test_ensure_campaign_gm_link_and_host_token_work_in_hello);
    tcase_add_test(tc, test_ping_is_answered_with_pong);

    tc = tcase(s, "join");
    tcase_add_test(tc, test_join_creates_player_seat_welcomes_it_filtered_and_tells_the_gm);
    tcase_add_test(tc, test_join_with_a_bad_name_is_refused_and_writes_nothing);
    tcase_add_test(tc, test_joins_of_one_turn_are_one_event_and_a_taken_name_is_refused_alone);
    tcase_add_test(tc, test_join_on_an_already_welcomed_connection_moves_it_to_the_new_seat);
    tcase_add_test(tc, test_player_never_sees_gm_or_other_seats_private_after_restart);

    tc = tcase(s, "commit");
    tcase_add_test(tc, test_group_commit_holds_replies_until_one_commit_per_turn);
    tcase_add_test(tc, test_each_ack_comes_after_the_diff_with_its_seq);

    tc = tcase(s, "idempotency");
    tcase_add_test(tc, test_same_cmd_id_runs_once_within_a_turn_across_turns_and_after_restart);

    tc = tcase(s, "secret");
    tcase_add_test(tc, test_gm_secret_roll_sends_players_nothing_at_all);
    tcase_add_test(tc, test_player_secret_roll_is_forbidden_writes_nothing_and_is_remembered);

    tc = tcase(s, "permissions");
    tcase_add_test(tc, test_command_table_checks_permissions_and_arguments);
    tcase_add_test(tc, test_seat_remove_closes_the_seat_and_revokes_its_token);

    tc = tcase(s, "resume");
    tcase_add_test(tc, test_resume_sends_exactly_the_missed_diffs);
    tcase_add_test(tc, test_a_late_joiner_cannot_resume_from_before_its_seat);
    tcase_add_test(tc, test_resume_from_a_future_seq_gets_a_fresh_state);
    tcase_add_test(tc, test_resume_beyond_resume_max_gets_a_fresh_state);

    tc = tcase(s, "durability");
    tcase_add_test(tc, test_state_rebuilt_from_the_log_equals_the_live_state);
    tcase_add_test(tc, test_destroy_writes_a_snapshot_at_the_current_seq);

    tc = tcase(s, "limits");
    tcase_add_test(tc, test_rate_limited_cmd_is_refused_and_not_remembered);
    tcase_add_test(tc, test_log_cap_keeps_the_newest_entries_and_small_diffs);
    tcase_add_test(tc, test_more_than_fifty_bad_messages_close_with_1008);

    tc = tcase(s, "host");
    tcase_add_test(tc, test_host_creates_lists_and_retries_campaigns);

    tc = tcase(s, "copy-on-write");
    tcase_set_timeout(tc, 120); /* the property test runs ~1 000 commands (slow under ASan) */
    tcase_add_test(tc, test_every_row_declares_parseable_unnested_write_paths);
    tcase_add_test(tc, test_writes_of_is_part_of_the_row_and_a_roll_copies_one_log);
    tcase_add_test(tc, test_a_token_move_copies_one_scene_s_tokens);
    tcase_add_test(tc, test_a_check_an_answer_and_a_session_line_copy_only_the_log_they_write);
    tcase_add_test(tc, test_workcopy_shares_what_is_not_declared_and_catches_a_write_into_it);
    tcase_add_test(tc, test_a_log_append_copies_on_the_way_and_never_writes_the_base);
    tcase_add_test(tc, test_workcopy_own_path_copies_one_character_on_first_write);
    tcase_add_test(tc, test_char_update_copies_the_one_character);
    tcase_add_test(tc, test_fingerprint_ignores_key_order_and_sees_any_change);
    tcase_add_loop_test(tc, test_random_commands_patch_old_into_new_and_refusals_change_nothing, 0,
                        3);

    tc = tcase(s, "lifecycle");
    tcase_add_test(tc, test_idle_campaign_is_put_away_and_loaded_again_by_hello);
    tcase_add_test(tc, test_join_and_campaign_list_reach_a_campaign_that_is_put_away);

    tc = tcase(s, "connections");
    tcase_add_test(tc, test_connection_closed_with_a_held_reply_is_skipped_and_shown_offline);
    tcase_add_test(tc, test_presence_sends_only_the_seats_that_changed);

    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(engine_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
