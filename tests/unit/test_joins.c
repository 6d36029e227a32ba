/*
 * test_joins.c — what keeps a join O(1) in the seats (issue 26 item 4) gives the bytes and the
 * answers the whole walks gave:
 *   - encmemo (server/encmemo.h): the text of states that share subtrees, encoded through one
 *     memo, equals proto_json_dump of each, byte for byte, for the GM's and a player's view, while
 *     old states are dropped and their nodes freed (a stale text would differ);
 *   - roster (server/roster.h): followed through seeded random events (joins, kicks, renames,
 *     role changes) from each event's patch, its player count and names equal a recount;
 *   - the engine: every joiner's welcome carries exactly the text of the state as its seat sees
 *     it and its presence list the bytes of proto_msg_presence; --max-seats and the name check
 *     follow kicks, renames, joins of one turn and a restart.
 * Real engine, real SQLite file in a fresh directory, seeded dice; the sink records every message.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, strndup */
#endif
#include <check.h>
#include <ftw.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encmemo.h"
#include "engine.h"
#include "ops.h"
#include "protocol.h"
#include "rng.h"
#include "roster.h"
#include "store.h"

/* ---- encmemo ------------------------------------------------------------------------------ */

static char *memo_text(encmemo *m, const json_t *v)
{
    proto_buf b = {0};
    encmemo_append(m, &b, v);
    proto_buf_addc(&b, '\0');
    return b.data;
}

static void assert_same_text(encmemo *m, const json_t *state, const proto_viewer *v)
{
    json_t *view = proto_filter_state(state, v);
    char *want = proto_json_dump(view, NULL), *got = memo_text(m, view);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    json_decref(view);
}

/* The next state as a handler's working copy makes it: a fresh root and fresh containers on the
 * way to what changes, everything else shared. */
static json_t *next_state(const json_t *s, int i, rules_rng *rng)
{
    json_t *n = json_copy((json_t *)s);
    json_t *seats = json_copy(json_object_get(n, "seats"));
    json_object_set_new(n, "seats", seats);
    char id[16], name[32];
    snprintf(id, sizeof id, "p%d", i);
    snprintf(name, sizeof name, "Name \"%d\"\n", i);
    json_object_set_new(seats, id, json_pack("{s:s, s:s}", "name", name, "role", "player"));
    if ((int)rules_rng_below(rng, 3) == 0) { /* a log entry, oldest dropped past 8 */
        json_t *log = json_copy(json_object_get(n, "log"));
        json_array_append_new(
            log, json_pack("{s:i, s:s, s:[i,f]}", "seq", i, "kind", "roll", "roll", i, 0.5 * i));
        if (json_array_size(log) > 8)
            json_array_remove(log, 0);
        json_object_set_new(n, "log", log);
    }
    if ((int)rules_rng_below(rng, 4) == 0) { /* a private area of its own for p<i> */
        json_t *priv = json_copy(json_object_get(n, "private"));
        json_object_set_new(priv, id, json_pack("{s:[s]}", "notes", name));
        json_object_set_new(n, "private", priv);
    }
    if ((int)rules_rng_below(rng, 5) == 0) { /* something only the GM reads */
        json_t *gm = json_copy(json_object_get(n, "gm"));
        json_object_set_new(gm, "player_seq", json_integer(i));
        json_object_set_new(n, "gm", gm);
    }
    if (i % 5 == 0) { /* a seat leaves (when it is still there) */
        snprintf(id, sizeof id, "p%d", 1 + (int)rules_rng_below(rng, (uint64_t)i));
        json_object_del(seats, id);
    }
    return n;
}

START_TEST(memo_texts_equal_fresh_encodings)
{
    rules_rng *rng = rules_rng_seeded(7);
    json_t *s = json_pack("{s:{s:s}, s:{s:{s:s, s:s}, s:{s:s, s:s}}, s:[], s:{s:{s:[]}}, s:{s:i}, "
                          "s:i}",
                          "campaign", "name", "Täble", "seats", "gm", "name", "GM", "role", "gm",
                          "gm2", "name", "Co", "role", "gm", "log", "private", "p1", "notes", "gm",
                          "player_seq", 0, "next_seat", 1);
    encmemo *m = encmemo_new();
    proto_viewer gm = {.seat = "gm", .is_gm = 1};
    size_t most = 0;
    for (int i = 1; i <= 300; i++) {
        json_t *n = next_state(s, i, rng);
        json_decref(s); /* the old state goes: its own nodes are freed (the memo keeps its refs) */
        s = n;
        char seat[16];
        snprintf(seat, sizeof seat, "p%d", 1 + (int)rules_rng_below(rng, (uint64_t)i + 1));
        proto_viewer pl = {.seat = seat, .is_gm = 0};
        /* twice each, as a burst does: the second from the memo alone */
        assert_same_text(m, s, &gm);
        assert_same_text(m, s, &pl);
        assert_same_text(m, s, &gm);
        assert_same_text(m, s, &pl);
        if (encmemo_count(m) > most)
            most = encmemo_count(m);
    }
    /* bounded: what one state holds at depth 1 and 2 (about 250 seats, the log, the privates),
     * not what 300 states held */
    ck_assert_msg(most < 2 * 300, "the memo holds %zu texts", most);
    json_decref(s);
    json_t *empty = json_object();
    for (int i = 0; i < ENCMEMO_LEVELS + 1; i++) { /* a node goes once its parent's text did */
        proto_buf b = {0};
        encmemo_append(m, &b, empty); /* the sweep drops every text of the states gone */
        free(b.data);
    }
    json_decref(empty);
    ck_assert_uint_eq(encmemo_count(m), 0);
    encmemo_free(m);
    rules_rng_destroy(rng);
}
END_TEST

/* An event's patch encoded through encmemo_append_keep (commit.c: the values its ops add stay in
 * the campaign's memo) is proto_json_dump's text, and the states encoded after it through the
 * same memo still are too: the kept values' texts are the ones a snapshot then copies. The memo
 * stays bounded without a state encoded at every event (each keep sweeps a few slots). A result
 * that shares a container with the log entry the patch adds (a roll's dice), kept in a memo of
 * its own just before, gives its text to the patch's encoding: the same bytes again. */
START_TEST(memo_kept_patch_values_give_the_same_texts)
{
    rules_rng *rng = rules_rng_seeded(11);
    json_t *s = json_pack("{s:{s:s}, s:{s:{s:s, s:s}}, s:[], s:{}, s:{s:i}, s:i}", "campaign",
                          "name", "T\u00e4ble", "seats", "gm", "name", "GM", "role", "gm", "log",
                          "private", "gm", "player_seq", 0, "next_seat", 1);
    encmemo *m = encmemo_new(), *results = encmemo_new();
    proto_viewer gm = {.seat = "gm", .is_gm = 1};
    size_t most = 0;
    for (int i = 1; i <= 400; i++) {
        json_t *n = next_state(s, i, rng);
        json_t *patch = proto_patch_diff_shared(s, n);
        json_t *log = json_object_get(n, "log");
        json_t *res =
            json_pack("{s:O?, s:{s:i}, s:[]}", "roll",
                      json_object_get(json_array_get(log, json_array_size(log) - 1), "roll"),
                      "other", "i", i, "empty");
        proto_buf rb = {0};
        encmemo_append_keep(results, &rb, res, 1, NULL);
        proto_buf_addc(&rb, '\0');
        char *res_want = proto_json_dump(res, NULL);
        ck_assert_str_eq(rb.data, res_want);
        free(res_want);
        free(rb.data);
        proto_buf b = {0};
        encmemo_append_keep(m, &b, patch, 2, results);
        encmemo_clear(results);
        ck_assert_uint_eq(encmemo_count(results), 0);
        json_decref(res);
        proto_buf_addc(&b, '\0');
        char *want = proto_json_dump(patch, NULL);
        ck_assert_str_eq(b.data, want);
        free(want);
        free(b.data);
        json_decref(patch);
        json_decref(s);
        s = n;
        if (i % 37 == 0) /* a snapshot now and then, from the kept texts */
            assert_same_text(m, s, &gm);
        if (encmemo_count(m) > most)
            most = encmemo_count(m);
    }
    assert_same_text(m, s, &gm);
    ck_assert_msg(most < 2 * 400, "the memo holds %zu texts", most);
    json_decref(s);
    encmemo_free(m);
    encmemo_free(results);
    rules_rng_destroy(rng);
}
END_TEST

/* ---- roster ------------------------------------------------------------------------------- */

static void assert_roster_is_recount(const roster *r, const json_t *seats)
{
    int players = 0, named = 0;
    const char *id;
    json_t *v;
    json_object_foreach((json_t *)seats, id, v)
    {
        const char *role = json_string_value(json_object_get(v, "role"));
        players += !role || strcmp(role, "gm") != 0;
        named += json_is_string(json_object_get(v, "name"));
    }
    ck_assert_ptr_eq(roster_seats(r), seats);
    ck_assert_int_eq(roster_players(r), players);
    ck_assert_int_eq(roster_names(r), named);
    static const char *const PROBES[] = {"ann", " ANN", "Bob", "b  ob", "Cat ", "dan", "Eve", NULL};
    for (int i = 0; PROBES[i]; i++) {
        char want[32], have[32];
        ops_seat_name_key(PROBES[i], want);
        int taken = 0;
        json_object_foreach((json_t *)seats, id, v)
        {
            const char *name = json_string_value(json_object_get(v, "name"));
            if (name) {
                ops_seat_name_key(name, have);
                taken |= strcmp(want, have) == 0;
            }
        }
        ck_assert_msg(roster_name_taken(r, PROBES[i]) == taken, "%s: roster says %d", PROBES[i],
                      !taken);
    }
}

START_TEST(roster_follows_events_like_a_recount)
{
    static const char *const NAMES[] = {"Ann", "ann", "Bob", "B  OB", "Cat", "Dan", "Eve"};
    rules_rng *rng = rules_rng_seeded(11);
    json_t *s = json_pack("{s:{s:{s:s, s:s}}, s:i}", "seats", "gm", "name", "GM", "role", "gm",
                          "next_seat", 1);
    roster *r = roster_new();
    roster_follow(r, json_object_get(s, "seats"));
    assert_roster_is_recount(r, json_object_get(s, "seats"));
    for (int i = 0; i < 400; i++) {
        json_t *n = json_copy(s);
        json_t *seats = json_copy(json_object_get(n, "seats"));
        json_object_set_new(n, "seats", seats);
        char id[16];
        snprintf(id, sizeof id, "p%d", (int)rules_rng_below(rng, 13));
        const char *name = NAMES[(int)rules_rng_below(rng, 7)];
        json_t *had = json_object_get(seats, id);
        switch ((int)rules_rng_below(rng, 5)) {
        case 0: /* a join (or a seat replaced) */
            json_object_set_new(seats, id, json_pack("{s:s, s:s}", "name", name, "role", "player"));
            break;
        case 1: /* a kick */
            json_object_del(seats, id);
            break;
        case 2: /* a rename */
            if (had) {
                json_t *e = json_copy(had);
                json_object_set_new(e, "name", json_string(name));
                json_object_set_new(seats, id, e);
            }
            break;
        case 3: /* a seat made a GM, or a player again; or its name taken away */
            if (had) {
                json_t *e = json_copy(had);
                if ((int)rules_rng_below(rng, 2))
                    json_object_set_new(e, "role", json_string(i % 2 ? "gm" : "player"));
                else
                    json_object_del(e, "name");
                json_object_set_new(seats, id, e);
            }
            break;
        default: /* nothing but the seat counter */
            json_object_set_new(n, "next_seat", json_integer(i));
            break;
        }
        json_t *patch = proto_patch_diff(s, n);
        roster_follow_patch(r, json_object_get(s, "seats"), seats, patch);
        assert_roster_is_recount(r, seats);
        json_decref(patch);
        json_decref(s);
        s = n;
    }
    /* a roster that described another object recounts */
    json_t *other = json_pack("{s:{s:s}}", "x", "name", "Ann");
    roster_follow_seat(r, NULL, other, "x");
    assert_roster_is_recount(r, other);
    json_decref(other);
    json_decref(s);
    roster_free(r);
    rules_rng_destroy(rng);
}
END_TEST

/* ---- the engine --------------------------------------------------------------------------- */

typedef struct client {
    char **text;
    size_t n, cap;
    engine_conn *conn;
    int gone;
} client;

static void sink_send(void *ctx, engine_msg *m)
{
    client *cl = ctx;
    if (cl->n == cl->cap) {
        cl->cap = cl->cap ? 2 * cl->cap : 16;
        cl->text = realloc(cl->text, cl->cap * sizeof *cl->text);
        ck_assert_ptr_nonnull(cl->text);
    }
    cl->text[cl->n++] = strndup((const char *)m->text, m->len);
}

static void sink_close(void *ctx, int status, const char *reason)
{
    (void)ctx;
    (void)status;
    (void)reason;
}

static const engine_sink SINK = {sink_send, sink_close};

#define MAX_CLIENTS 64
static char g_dir[64], g_path[128], g_camp[32], g_gm_token[64], g_code[32];
static store *g_st;
static engine *g_e;
static engine_opts g_opts;
static rules_rng *g_dice, *g_secret;
static client *g_clients[MAX_CLIENTS];
static int g_n;

static void start(void)
{
    tb_err err = {0};
    ck_assert_int_eq(store_open(g_path, 0, &g_st, &err), TB_OK);
    ck_assert_int_eq(engine_create(g_st, g_dice, g_secret, &g_opts, &g_e, &err), TB_OK);
}

static void stop(void)
{
    for (int i = 0; i < g_n; i++)
        if (!g_clients[i]->gone) {
            engine_conn_closed(g_e, g_clients[i]->conn);
            g_clients[i]->gone = 1;
        }
    engine_destroy(g_e);
    g_e = NULL;
    store_close(g_st);
    g_st = NULL;
}

static void link_cb(void *ctx, const char *id, const char *name, const char *gm_token,
                    const char *code)
{
    (void)ctx;
    (void)name;
    snprintf(g_camp, sizeof g_camp, "%s", id);
    snprintf(g_gm_token, sizeof g_gm_token, "%s", gm_token);
    snprintf(g_code, sizeof g_code, "%s", code ? code : "");
}

static void setup(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/tabled-joins-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
    snprintf(g_path, sizeof g_path, "%s/tabled.db", g_dir);
    engine_opts_default(&g_opts);
    g_opts.max_seats = 4;
    g_dice = rules_rng_seeded(1);
    g_secret = rules_rng_seeded(2);
    g_n = 0;
    start();
    tb_err err = {0};
    ck_assert_int_eq(engine_ensure_campaign(g_e, &err), TB_OK);
    ck_assert_int_eq(engine_each_gm_link(g_e, link_cb, NULL, &err), TB_OK);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void teardown(void)
{
    stop();
    for (int i = 0; i < g_n; i++) {
        for (size_t j = 0; j < g_clients[i]->n; j++)
            free(g_clients[i]->text[j]);
        free(g_clients[i]->text);
        free(g_clients[i]);
    }
    rules_rng_destroy(g_dice);
    rules_rng_destroy(g_secret);
    nftw(g_dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static client *client_new(void)
{
    ck_assert_int_lt(g_n, MAX_CLIENTS);
    client *cl = calloc(1, sizeof *cl);
    ck_assert_ptr_nonnull(cl);
    cl->conn = engine_conn_open(g_e, &SINK, cl);
    g_clients[g_n++] = cl;
    return cl;
}

static void say(client *cl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(client *cl, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    engine_receive(g_e, cl->conn, buf, strlen(buf));
}

/* Index of the first message of cl from `from` whose text starts with prefix, or -1. */
static long find(const client *cl, size_t from, const char *prefix)
{
    for (size_t i = from; i < cl->n; i++)
        if (strncmp(cl->text[i], prefix, strlen(prefix)) == 0)
            return (long)i;
    return -1;
}

static const char *seat_of(const client *cl)
{
    static char seat[32];
    long i = find(cl, 0, "{\"t\":\"joined\"");
    ck_assert_msg(i >= 0, "not joined: %s", cl->n ? cl->text[cl->n - 1] : "(nothing)");
    json_t *j = json_loads(cl->text[i], 0, NULL);
    snprintf(seat, sizeof seat, "%s", json_string_value(json_object_get(j, "seat")));
    json_decref(j);
    return seat;
}

/* A joiner's welcome and presence list are the bytes the whole encodings give, from the state
 * committed now (the joiners of one turn see the same state). */
static void assert_welcomed_exactly(const client *cl, const char *const *online)
{
    const char *seat = seat_of(cl);
    const json_t *state = engine_campaign_state(g_e, g_camp, NULL);
    proto_viewer v = {.seat = seat, .is_gm = 0};
    json_t *view = proto_filter_state(state, &v);
    char *text = proto_json_dump(view, NULL);
    long w = find(cl, 0, "{\"t\":\"welcome\"");
    ck_assert_msg(w >= 0, "no welcome");
    const char *at = strstr(cl->text[w], ",\"state\":");
    ck_assert_ptr_nonnull(at);
    at += strlen(",\"state\":");
    ck_assert_msg(strncmp(at, text, strlen(text)) == 0 &&
                      (at[strlen(text)] == '}' || at[strlen(text)] == ','),
                  "welcome of %s differs from the state's own text", seat);
    free(text);
    json_decref(view);
    json_t *seats = json_object();
    const char *id;
    json_t *e;
    json_object_foreach(json_object_get(state, "seats"), id, e)
    {
        int on = 0;
        for (int i = 0; online[i]; i++)
            on |= strcmp(online[i], id) == 0;
        json_object_set_new(seats, id, json_boolean(on));
    }
    json_t *msg = proto_msg_presence(seats);
    char *want = proto_json_dump(msg, NULL);
    json_decref(msg);
    long p = find(cl, (size_t)w, "{\"t\":\"presence\"");
    ck_assert_msg(p >= 0, "no presence list");
    ck_assert_str_eq(cl->text[p], want);
    free(want);
}

static client *join(const char *name)
{
    client *cl = client_new();
    say(cl, "{'t':'join','code':'%s','name':'%s'}", g_code, name);
    return cl;
}

static int refused(const client *cl, const char *code)
{
    char want[64];
    snprintf(want, sizeof want, "\"code\":\"%s\"", code);
    return find(cl, 0, "{\"t\":\"error\"") >= 0 && strstr(cl->text[0], want) != NULL;
}

static void cmd(client *cl, const char *id, const char *op, const char *args)
{
    say(cl, "{'t':'cmd','id':'%s','op':'%s','args':%s}", id, op, args);
    engine_flush(g_e);
    long r = find(cl, 0, "{\"t\":\"ack\"");
    for (size_t i = 0; i < cl->n; i++)
        if (strstr(cl->text[i], "\"t\":\"ack\"") && strstr(cl->text[i], id))
            r = (long)i;
    ck_assert_msg(r >= 0 && strstr(cl->text[r], id), "%s not acked: %s", op, cl->text[cl->n - 1]);
}

START_TEST(joins_give_the_whole_encodings_bytes_and_the_kept_counts_hold)
{
    client *gm = client_new();
    say(gm, "{'t':'hello','v':1,'token':'%s'}", g_gm_token);
    engine_flush(g_e);
    /* one turn: Ann and Bob join, "  ANN" clashes with Ann in the same turn */
    client *ann = join("Ann"), *bob = join("Bob"), *ann2 = join("  ANN");
    engine_flush(g_e);
    const char *on1[] = {"gm", "p1", "p2", NULL};
    assert_welcomed_exactly(ann, on1);
    assert_welcomed_exactly(bob, on1);
    ck_assert_msg(refused(ann2, "conflict"), "a clashing name in the same turn: %s",
                  ann2->n ? ann2->text[0] : "");
    /* one join per turn, each welcome from the memo of the last one */
    client *cat = join("Cat");
    engine_flush(g_e);
    const char *on2[] = {"gm", "p1", "p2", "p3", NULL};
    assert_welcomed_exactly(cat, on2);
    /* renamed Bob -> "Eve": "eve" is taken now, "Bob" free (the names follow a rename) */
    cmd(gm, "r1", "seat.rename", "{'seat':'p2','name':'Eve'}");
    client *eve = join("eve");
    engine_flush(g_e);
    ck_assert_msg(refused(eve, "conflict"), "a renamed seat's new name was free");
    client *bob2 = join("Bob");
    engine_flush(g_e);
    const char *on3[] = {"gm", "p1", "p2", "p3", "p4", NULL};
    assert_welcomed_exactly(bob2, on3);
    ck_assert_str_eq(seat_of(bob2), "p4");
    /* 4 players: the table is full (--max-seats 4) */
    client *dan = join("Dan");
    engine_flush(g_e);
    ck_assert_msg(refused(dan, "conflict"), "a fifth player joined a table of 4");
    /* a kick makes room, and frees the name */
    cmd(gm, "k1", "seat.remove", "{'seat':'p1'}");
    long told = find(ann, 0, "{\"t\":\"error\"");
    ck_assert_msg(told >= 0 && strstr(ann->text[told], "removed"), "a kicked seat was not told");
    client *ann3 = join("Ann");
    engine_flush(g_e);
    const char *on4[] = {"gm", "p2", "p3", "p4", "p5", NULL};
    assert_welcomed_exactly(ann3, on4);
    /* after a restart (the campaign loaded again): still full, names still taken */
    stop();
    start();
    client *gm2 = client_new();
    say(gm2, "{'t':'hello','v':1,'token':'%s'}", g_gm_token);
    engine_flush(g_e);
    client *fan = join("Fan");
    engine_flush(g_e);
    ck_assert_msg(refused(fan, "conflict"), "a fifth player joined after a restart");
    cmd(gm2, "k2", "seat.remove", "{'seat':'p3'}");
    client *cat2 = join("CAT"), *eve2 = join("Eve");
    engine_flush(g_e);
    ck_assert_msg(refused(eve2, "conflict"), "a taken name was free after a restart");
    const char *on5[] = {"gm", "p6", NULL};
    assert_welcomed_exactly(cat2, on5);
}
END_TEST

/* The merged presence map cl was told (the whole list, then the changes), as a new object. */
static json_t *presence_of(const client *cl)
{
    json_t *map = json_object();
    for (long i = find(cl, 0, "{\"t\":\"presence\""); i >= 0;
         i = find(cl, (size_t)i + 1, "{\"t\":\"presence\"")) {
        json_t *m = json_loads(cl->text[i], 0, NULL);
        json_object_update(map, json_object_get(m, "seats"));
        json_decref(m);
    }
    return map;
}

static int count_from(const client *cl, size_t from, const char *prefix)
{
    int n = 0;
    for (long i = find(cl, from, prefix); i >= 0; i = find(cl, (size_t)i + 1, prefix))
        n++;
    return n;
}

static void token_of(const client *cl, char out[64])
{
    long i = find(cl, 0, "{\"t\":\"joined\"");
    ck_assert_int_ge(i, 0);
    json_t *j = json_loads(cl->text[i], 0, NULL);
    snprintf(out, 64, "%s", json_string_value(json_object_get(j, "token")));
    json_decref(j);
}

static void assert_online(const client *cl, const char *seat, int want)
{
    json_t *map = presence_of(cl);
    json_t *v = json_object_get(map, seat);
    ck_assert_msg(v && json_is_true(v) == want, "%s is told %s, not %s", seat,
                  v ? (json_is_true(v) ? "online" : "offline") : "nothing",
                  want ? "online" : "offline");
    json_decref(map);
}

/* issue 26: joins and presence changes of a campaign leave at most once per burst window, the
 * first after a quiet window at once; a newcomer whose whole list said a seat was offline while
 * it was coming back is told it is online when the window ends. */
START_TEST(a_burst_window_merges_joins_and_presence_and_the_flags_end_right)
{
    stop();
    g_opts.burst_window_ms = 40;
    start();
    client *gm = client_new();
    say(gm, "{'t':'hello','v':1,'token':'%s'}", g_gm_token);
    engine_flush(g_e);
    usleep(60000); /* a quiet window: the first join leaves at once */
    client *ann = join("Ann");
    engine_flush(g_e);
    ck_assert_msg(find(ann, 0, "{\"t\":\"joined\"") >= 0, "the first join waited");
    size_t mark = gm->n;
    client *bob = join("Bob"), *cat = join("Cat");
    engine_flush(g_e); /* in the window: both wait */
    ck_assert_msg(bob->n == 0 && cat->n == 0, "a join inside the window did not wait");
    int due = engine_due_ms(g_e);
    ck_assert_msg(due > 0 && due <= 40, "due in %d ms", due);
    usleep((useconds_t)(due + 5) * 1000);
    engine_flush(g_e);
    ck_assert_str_eq(seat_of(bob), "p2");
    ck_assert_str_eq(seat_of(cat), "p3");
    ck_assert_int_eq(count_from(gm, mark, "{\"t\":\"diff\""), 1); /* one event for both */
    ck_assert_int_eq(count_from(gm, mark, "{\"t\":\"presence\""), 1);
    assert_online(gm, "p3", 1);
    ck_assert_int_eq(engine_due_ms(g_e), -1);
    /* Bob leaves after a quiet window (told at once); inside the window that opens, Ann leaves,
     * a second socket of Cat's is welcomed (its list: Ann offline), and Ann comes back */
    char ann_token[64], cat_token[64];
    token_of(ann, ann_token);
    token_of(cat, cat_token);
    usleep(60000);
    engine_conn_closed(g_e, bob->conn);
    bob->gone = 1;
    engine_flush(g_e);
    assert_online(gm, "p2", 0);
    engine_conn_closed(g_e, ann->conn);
    ann->gone = 1;
    engine_flush(g_e);
    client *cat2 = client_new();
    say(cat2, "{'t':'hello','v':1,'token':'%s'}", cat_token);
    engine_flush(g_e);
    assert_online(cat2, "p1", 0);
    client *ann2 = client_new();
    say(ann2, "{'t':'hello','v':1,'token':'%s'}", ann_token);
    engine_flush(g_e);
    ck_assert_int_gt(engine_due_ms(g_e), 0);
    usleep((useconds_t)(engine_due_ms(g_e) + 5) * 1000);
    engine_flush(g_e);
    for (client *const *c = (client *const[]){gm, cat, cat2, ann2, NULL}; *c; c++) {
        assert_online(*c, "p1", 1);
        assert_online(*c, "p2", 0);
        assert_online(*c, "p3", 1);
        assert_online(*c, "gm", 1);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("joins");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, memo_texts_equal_fresh_encodings);
    tcase_add_test(tc, memo_kept_patch_values_give_the_same_texts);
    tcase_add_test(tc, roster_follows_events_like_a_recount);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("engine");
    tcase_set_timeout(te, 120);
    tcase_add_checked_fixture(te, setup, teardown);
    tcase_add_test(te, joins_give_the_whole_encodings_bytes_and_the_kept_counts_hold);
    tcase_add_test(te, a_burst_window_merges_joins_and_presence_and_the_flags_end_right);
    suite_add_tcase(s, te);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
