/*
 * bench_engine.c — microseconds per command through the engine's whole hot path (checks, the
 * handler, the working copy, the diff, the SQLite append and commit, the fan-out to every seat's
 * sink), on a campaign whose log is full (issue 10, "No copy of the world per command").
 *
 * Not a test: it asserts nothing and is never run by `meson test`. Usage:
 *     bench_engine [COMMANDS [PHASES]]  default 2000 per scenario; PHASES a comma list of
 *                                       roll, check, act, moves, map, mapmove, join,
 *                                       resume (default all but resume)
 *     bench_engine N resume [BACK]      N seats join, the engine restarts, the N seats resume
 *                                       (each having missed its last BACK diffs, 0-15)
 * A fivey campaign with a GM and 8 players (one socket each, sinks that only count bytes), 8
 * characters, a fivey.combat encounter with the 8 PCs and 4 goblins, and a log filled to its cap
 * (200 public entries, 200 GM entries). Then, one command per engine_flush (one commit each, as a
 * table with one command in flight does), it prints:
 *     roll d20+5 (player): <N> commands in <s> s = <us> us/command wall, <us> us CPU
 *     enc.act end (GM):    <N> commands in <s> s = <us> us/command wall, <us> us CPU
 * and for the check phase a player's public `roll.check` (fivey check, DC given) and the GM's
 * secret one; for the map phase (issue 30) the roll again with a shown map (a ~60 000-character
 * picture, a token per combatant), then the GM's map.move. CPU is the process's CPU time (user +
 * system, CLOCK_PROCESS_CPUTIME_ID): on a busy machine it is the steadier figure. Then 1 000 more
 * seats join (one event each; it prints the CPU per join) and the roll runs again with 1 009 seats
 * connected (COMMANDS / 10 times; it prints the CPU per recipient). The SQLite file lives in a
 * fresh directory under /tmp (synchronous=NORMAL).
 *
 * The resume phase (issue 26 "joins and resumes in O(N)"; only when asked for by name): N more
 * seats join one per flush (untimed; each seat's sink keeps its token, its last seq and the
 * history), every connection goes, the engine is destroyed and the store closed, both reopened
 * (what a restart after kill -9 reloads), the GM says hello (the campaign's reload; printed
 * apart), then the N seats say `hello {token, last_seq, history}` one per flush, in
 * resume_burst() (a function of its own so that `valgrind --tool=callgrind
 * --toggle-collect=resume_burst` counts the burst alone). It prints the CPU per resume and the
 * messages and bytes every sink got during the burst.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "engine.h"
#include "jsonalloc.h"
#include "rng.h"
#include "store.h"

#define PLAYERS 8
#define CROWD 1000

typedef struct sink_ctx {
    size_t bytes, msgs;
    json_t *last; /* the last message, parsed (only while capturing) */
    int capture;
    int track;          /* keep token, seq and history from what this seat gets */
    long long seq;      /* the last seq seen (welcome or diff) */
    long long seen[16]; /* the last 16 seqs seen, a ring (seen[nseen % 16] is the next) */
    unsigned nseen;
    char token[64], history[64];
} sink_ctx;

static void track(sink_ctx *s, const char *msg, size_t len)
{
    static const char DIFF[] = "{\"t\":\"diff\",\"seq\":";
    if (len > sizeof DIFF && memcmp(msg, DIFF, sizeof DIFF - 1) == 0) {
        s->seq = strtoll(msg + sizeof DIFF - 1, NULL, 10);
        s->seen[s->nseen++ % 16] = s->seq;
        return;
    }
    if (strncmp(msg, "{\"t\":\"joined\"", 13) != 0 && strncmp(msg, "{\"t\":\"welcome\"", 14) != 0)
        return;
    json_t *j = json_loadb(msg, len, 0, NULL);
    const char *tok = json_string_value(json_object_get(j, "token")),
               *h = json_string_value(json_object_get(j, "history"));
    if (tok)
        snprintf(s->token, sizeof s->token, "%s", tok);
    if (h)
        snprintf(s->history, sizeof s->history, "%s", h);
    if (json_is_integer(json_object_get(j, "seq"))) {
        s->seq = json_integer_value(json_object_get(j, "seq"));
        s->seen[s->nseen++ % 16] = s->seq;
    }
    json_decref(j);
}

static void on_send(void *ctx, engine_msg *m)
{
    sink_ctx *s = ctx;
    const char *msg = (const char *)m->text;
    size_t len = m->len;
    s->bytes += len;
    s->msgs++;
    if (s->track)
        track(s, msg, len);
    if (s->capture) {
        json_decref(s->last);
        s->last = json_loadb(msg, len, 0, NULL);
    }
}

static void on_close(void *ctx, int status, const char *reason)
{
    (void)ctx;
    fprintf(stderr, "bench_engine: the engine closed a connection (%d %s)\n", status, reason);
    exit(1);
}

static const engine_sink SINK = {on_send, on_close};

static engine *g_e;
static int g_cmd;

static void say(engine_conn *c, json_t *msg)
{
    char *s = json_dumps(msg, JSON_COMPACT);
    engine_receive(g_e, c, s, strlen(s));
    free(s);
    json_decref(msg);
}

/* Sends cmd op args (stolen) from c and flushes; returns the reply's result (new reference)
 * when capture is on and the reply is an ack, else NULL; exits on a nack. */
static json_t *cmd(engine_conn *c, sink_ctx *s, const char *op, json_t *args)
{
    char id[32];
    snprintf(id, sizeof id, "b%d", ++g_cmd);
    s->capture = 1;
    say(c, json_pack("{s:s, s:s, s:s, s:o}", "t", "cmd", "id", id, "op", op, "args", args));
    engine_flush(g_e);
    s->capture = 0;
    const char *t = json_string_value(json_object_get(s->last, "t"));
    if (!t || strcmp(t, "ack") != 0) {
        char *d = json_dumps(s->last, 0);
        fprintf(stderr, "bench_engine: %s refused: %s\n", op, d ? d : "(nothing)");
        exit(1);
    }
    return json_incref(json_object_get(s->last, "result"));
}

static json_t *sample(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rules/fivey/samples/%s.json", TB_SOURCE_ROOT, name);
    json_t *j = json_load_file(path, 0, NULL);
    if (!j) {
        fprintf(stderr, "bench_engine: cannot read %s\n", path);
        exit(1);
    }
    return j;
}

static void timed(const char *label, int n, engine_conn *c, sink_ctx *s, const char *op,
                  const char *args_text)
{
    json_t *args = json_loads(args_text, 0, NULL);
    double t0 = bench_clock_s(CLOCK_MONOTONIC), c0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "t%d", ++g_cmd);
        say(c, json_pack("{s:s, s:s, s:s, s:O}", "t", "cmd", "id", id, "op", op, "args", args));
        engine_flush(g_e);
    }
    double dt = bench_clock_s(CLOCK_MONOTONIC) - t0,
           dc = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    (void)s;
    printf("%-22s %d commands in %.3f s = %.1f us/command wall, %.1f us CPU\n", label, n, dt,
           dt * 1e6 / n, dc * 1e6 / n);
    json_decref(args);
}

/* The resume burst: n seats (sinks rs, tokens and seqs kept in ts) say hello with their last seq,
 * one per flush, on connections stored in rc. */
static __attribute__((noinline)) void resume_burst(int n, engine_conn **rc, sink_ctx *rs,
                                                   const sink_ctx *ts, unsigned back)
{
    for (int k = 0; k < n; k++) {
        rc[k] = engine_conn_open(g_e, &SINK, &rs[k]);
        json_t *hello = json_pack(
            "{s:s, s:i, s:s, s:I}", "t", "hello", "v", 1, "token", ts[k].token, "last_seq",
            (json_int_t)(back && ts[k].nseen > back ? ts[k].seen[(ts[k].nseen - 1 - back) % 16]
                                                    : ts[k].seq));
        if (ts[k].history[0]) /* (a store without a history id sends none) */
            json_object_set_new(hello, "history", json_string(ts[k].history));
        say(rc[k], hello);
        engine_flush(g_e);
    }
}

int main(int argc, char **argv)
{
    jsonalloc_install(); /* as tabled does */
    store_process_init();  /* as tabled does */
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    const char *only = argc > 2 ? argv[2] : NULL;
    char dir[] = "/tmp/tabled-bench-XXXXXX", path[64];
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/tabled.db", dir);
    tb_err err;
    store *st;
    if (store_open(path, 0, &st, &err)) {
        fprintf(stderr, "bench_engine: %s\n", err.msg);
        return 1;
    }
    rules_rng *dice = rules_rng_seeded(1), *secret = rules_rng_seeded(2);
    engine_opts opts;
    engine_opts_default(&opts);
    opts.rate_per_sec = 0;
    opts.max_seats = 0; /* the crowd of 1 000 (the default limit is 100 players) */
    if (engine_create(st, dice, secret, &opts, &g_e, &err)) {
        fprintf(stderr, "bench_engine: %s\n", err.msg);
        return 1;
    }
    char *host = engine_mint_host_token(g_e, &err);
    sink_ctx hs = {0}, gs = {0}, ps[PLAYERS] = {{0}};
    engine_conn *hc = engine_conn_open(g_e, &SINK, &hs);
    say(hc, json_pack("{s:s, s:i, s:s}", "t", "hello", "v", 1, "token", host));
    json_t *made = cmd(hc, &hs, "campaign.create",
                       json_pack("{s:s, s:s}", "name", "Bench", "system", "fivey"));
    engine_conn *gc = engine_conn_open(g_e, &SINK, &gs);
    say(gc, json_pack("{s:s, s:i, s:s}", "t", "hello", "v", 1, "token",
                      json_string_value(json_object_get(made, "gm_token"))));
    engine_conn *pc[PLAYERS];
    json_t *pcs = json_array();
    for (int i = 0; i < PLAYERS; i++) {
        char name[16];
        snprintf(name, sizeof name, "Player %d", i + 1);
        pc[i] = engine_conn_open(g_e, &SINK, &ps[i]);
        say(pc[i], json_pack("{s:s, s:s, s:s}", "t", "join", "code",
                             json_string_value(json_object_get(made, "join_code")), "name", name));
        json_t *sheet = sample(i % 2 ? "brunhild" : "vesper");
        json_t *ch = cmd(pc[i], &ps[i], "char.create",
                         json_pack("{s:s, s:o}", "name", name, "sheet", sheet));
        json_array_append(pcs, json_object_get(ch, "id"));
        json_decref(ch);
    }
    for (int i = 0; i < 200; i++) {
        json_decref(
            cmd(pc[i % PLAYERS], &ps[i % PLAYERS], "roll", json_pack("{s:s}", "expr", "3d6+2")));
        json_decref(cmd(gc, &gs, "roll", json_pack("{s:s, s:b}", "expr", "d20", "secret", 1)));
    }
    json_decref(cmd(gc, &gs, "enc.start", json_pack("{s:s}", "module", "fivey.combat")));
    size_t i;
    json_t *v, *cids = json_array();
    json_array_foreach(pcs, i, v)
    {
        json_t *r = cmd(gc, &gs, "enc.add", json_pack("{s:O}", "char", v));
        json_array_append(cids, json_object_get(r, "id"));
        json_decref(r);
    }
    for (int k = 0; k < 4; k++) {
        json_t *r = cmd(gc, &gs, "enc.add", json_pack("{s:{s:s}}", "npc", "name", "Goblin"));
        json_array_append(cids, json_object_get(r, "id"));
        json_decref(r);
    }
    json_decref(cmd(gc, &gs, "enc.act", json_pack("{s:s}", "action", "initiative")));

    if (bench_wants(only, "roll"))
        timed("roll d20+5 (player):", n, pc[0], &ps[0], "roll", "{\"expr\":\"d20+5\"}");
    if (bench_wants(only, "check")) {
        timed("roll.check (player):", n, pc[0], &ps[0], "roll.check",
              "{\"check\":\"check\",\"params\":{\"stat\":2,\"dc\":12}}");
        timed("roll.check secret (GM):", n, gc, &gs, "roll.check",
              "{\"check\":\"check\",\"params\":{\"stat\":2,\"dc\":12},\"secret\":true}");
    }
    if (bench_wants(only, "act"))
        timed("enc.act end (GM):", n, gc, &gs, "enc.act", "{\"action\":\"end\"}");
    if (bench_wants(only, "moves")) {
        timed("enc.moves (GM):", n, gc, &gs, "enc.moves", "{}");
        timed("enc.moves (player):", n, pc[0], &ps[0], "enc.moves", "{}");
    }
    if (bench_wants(only, "map") || bench_wants(only, "mapmove")) {
        /* issue 30: the same roll with a shown map in the scene (a picture of 59 990 characters,
         * near map.set's limit, and a token per combatant), then the GM moving tokens */
        size_t len = 59990 - 22;
        char *image = malloc(59991);
        memcpy(image, "data:image/png;base64,", 22);
        bench_base64_fill(image + 22, len);
        image[22 + len] = '\0';
        json_decref(cmd(gc, &gs, "map.set",
                        json_pack("{s:s, s:i, s:i, s:i, s:i, s:i}", "image", image, "w", 1200, "h",
                                  800, "size", 50, "cols", 24, "rows", 16)));
        free(image);
        json_array_foreach(cids, i, v) json_decref(
            cmd(gc, &gs, "map.token", json_pack("{s:O, s:i, s:i}", "cid", v, "x", (int)i, "y", 0)));
        json_decref(cmd(gc, &gs, "map.show", json_object()));
        if (bench_wants(only, "map"))
            timed("roll, a map shown:", n, pc[0], &ps[0], "roll", "{\"expr\":\"d20+5\"}");
        double c0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
        for (int k = 0; k < (bench_wants(only, "mapmove") ? n : 0); k++) {
            /* token k % 12 to a row it is not on */
            size_t t = (size_t)k % json_array_size(cids);
            char id[32];
            snprintf(id, sizeof id, "t%d", ++g_cmd);
            say(gc, json_pack("{s:s, s:s, s:s, s:{s:O, s:i, s:i}}", "t", "cmd", "id", id, "op",
                              "map.move", "args", "id", json_array_get(cids, t), "x", (int)t, "y",
                              1 + (k / (int)json_array_size(cids)) % 15));
            engine_flush(g_e);
        }
        if (bench_wants(only, "mapmove"))
            printf("%-22s %d commands, %.1f us CPU\n", "map.move (GM):", n,
                   (bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e6 / n);
    }
    json_decref(cids);
    size_t bytes = gs.bytes;
    for (int k = 0; k < PLAYERS; k++)
        bytes += ps[k].bytes;
    printf("bytes sent to the 9 seats: %zu\n", bytes);

    /* A crowd: CROWD more seats join (each join is one event and one commit), then the same
     * public roll fans out to all of them. */
    static sink_ctx crowd[CROWD];
    static engine_conn *cc[CROWD];
    int crowd_n = bench_wants(only, "join") ? CROWD : 0;
    double j0 = bench_clock_s(CLOCK_MONOTONIC), jc0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int k = 0; k < crowd_n; k++) {
        char name[16];
        snprintf(name, sizeof name, "Crowd %d", k + 1);
        cc[k] = engine_conn_open(g_e, &SINK, &crowd[k]);
        say(cc[k], json_pack("{s:s, s:s, s:s}", "t", "join", "code",
                             json_string_value(json_object_get(made, "join_code")), "name", name));
        engine_flush(g_e);
    }
    if (crowd_n) {
        printf("%-22s %d seats in %.3f s wall, %.1f us CPU per join\n", "join:", CROWD,
               bench_clock_s(CLOCK_MONOTONIC) - j0,
               (bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - jc0) * 1e6 / CROWD);
        int nc = n / 10 > 0 ? n / 10 : 1;
        double c0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
        timed("roll, 1009 seats:", nc, pc[0], &ps[0], "roll", "{\"expr\":\"d20+5\"}");
        printf("%-22s %.2f us CPU per recipient\n", "",
               (bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e6 / nc / (CROWD + PLAYERS + 1));
    }
    for (int k = 0; k < crowd_n; k++)
        engine_conn_closed(g_e, cc[k]);
    for (int k = 0; k < crowd_n; k++)
        json_decref(crowd[k].last);

    if (only && bench_wants(only, "resume")) {
        int rn = n;
        /* BACK (third argument, 0-15): each seat resumes from the seq it saw BACK diffs before
         * its last (it missed them); 0: from its last */
        unsigned back = argc > 3 ? (unsigned)atoi(argv[3]) % 16 : 0;
        sink_ctx *ts = calloc((size_t)rn, sizeof *ts), *rs = calloc((size_t)rn, sizeof *rs);
        engine_conn **tc = calloc((size_t)rn, sizeof *tc), **rc = calloc((size_t)rn, sizeof *rc);
        for (int k = 0; k < rn; k++) {
            char name[16];
            snprintf(name, sizeof name, "Back %d", k + 1);
            ts[k].track = 1;
            tc[k] = engine_conn_open(g_e, &SINK, &ts[k]);
            say(tc[k],
                json_pack("{s:s, s:s, s:s}", "t", "join", "code",
                          json_string_value(json_object_get(made, "join_code")), "name", name));
            engine_flush(g_e);
        }
        for (int k = 0; k < rn; k++) {
            engine_conn_closed(g_e, tc[k]);
            if (!ts[k].token[0]) {
                fprintf(stderr, "bench_engine: seat %d got no token\n", k + 1);
                return 1;
            }
        }
        engine_conn_closed(g_e, hc);
        engine_conn_closed(g_e, gc);
        for (int k = 0; k < PLAYERS; k++)
            engine_conn_closed(g_e, pc[k]);
        hc = gc = NULL;
        /* the restart: every connection gone, engine and store reopened */
        engine_destroy(g_e);
        store_close(st);
        if (store_open(path, 0, &st, &err) || engine_create(st, dice, secret, &opts, &g_e, &err)) {
            fprintf(stderr, "bench_engine: %s\n", err.msg);
            return 1;
        }
        double l0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
        gc = engine_conn_open(g_e, &SINK, &gs);
        say(gc, json_pack("{s:s, s:i, s:s}", "t", "hello", "v", 1, "token",
                          json_string_value(json_object_get(made, "gm_token"))));
        engine_flush(g_e);
        printf("%-22s %.1f us CPU (the campaign's reload, %d + %d seats)\n",
               "GM hello:", (bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - l0) * 1e6, PLAYERS + 1, rn);
        size_t gm0 = gs.msgs, gb0 = gs.bytes;
        double r0 = bench_clock_s(CLOCK_MONOTONIC), rc0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
        resume_burst(rn, rc, rs, ts, back);
        double rdc = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - rc0;
        size_t msgs = gs.msgs - gm0, rbytes = gs.bytes - gb0;
        int welcomed = 0;
        for (int k = 0; k < rn; k++) {
            msgs += rs[k].msgs;
            rbytes += rs[k].bytes;
            welcomed += rs[k].msgs > 0;
        }
        printf("%-22s %d seats in %.3f s wall, %.1f us CPU per resume; %zu messages, %zu bytes "
               "(%d seats answered)\n",
               "resume:", rn, bench_clock_s(CLOCK_MONOTONIC) - r0, rdc * 1e6 / rn, msgs, rbytes,
               welcomed);
        for (int k = 0; k < rn; k++)
            engine_conn_closed(g_e, rc[k]);
        engine_conn_closed(g_e, gc);
        gc = NULL;
        for (int k = 0; k < rn; k++) {
            json_decref(ts[k].last);
            json_decref(rs[k].last);
        }
        free(ts);
        free(rs);
        free(tc);
        free(rc);
        for (int k = 0; k < PLAYERS; k++)
            pc[k] = NULL;
    }

    json_decref(made);
    json_decref(pcs);
    json_decref(gs.last);
    json_decref(hs.last);
    for (int k = 0; k < PLAYERS; k++)
        json_decref(ps[k].last);
    free(host);
    if (hc)
        engine_conn_closed(g_e, hc);
    if (gc)
        engine_conn_closed(g_e, gc);
    for (int k = 0; k < PLAYERS; k++)
        if (pc[k])
            engine_conn_closed(g_e, pc[k]);
    engine_destroy(g_e);
    store_close(st);
    rules_rng_destroy(dice);
    rules_rng_destroy(secret);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    return system(rm) == 0 ? 0 : 1;
}
