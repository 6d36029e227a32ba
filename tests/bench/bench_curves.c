/*
 * bench_curves.c — how the cost of tabled grows (issue 26, "flat as tables, characters and
 * campaigns grow"). Not a test: it asserts nothing and is never run by `meson test`. Usage:
 *     bench_curves [--tabled PATH] [--big] [CURVES]
 * CURVES is a comma list of events, chars, campaigns, seats, bytes, startup (default all). Each
 * curve prints one line per point: the process CPU time per command (CLOCK_PROCESS_CPUTIME_ID,
 * the steadier figure on a busy machine) through the engine's whole hot path, one command per
 * engine_flush (one commit each, as a table with one command in flight), over a real SQLite data
 * directory under /tmp (synchronous=NORMAL):
 *   events     a player's `roll d20+5` after 1 000, 10 000 and 100 000 events in the campaign
 *   chars      the GM's `enc.act end` with 10, 50 and 200 characters in the campaign, 8 of them
 *              in the fight (fivey.combat, 4 goblins), then a player's `char.update` of a name
 *   campaigns  a roll with 1, 100 and 1 000 campaigns loaded (each with its GM connected)
 *   seats      a roll's CPU per recipient with 10, 100 and 1 000 seats connected
 *   bytes      bytes on disk per event (the campaign's file after a checkpoint) over 2 000 rolls,
 *              and the bytes of one roll's row
 *   startup    `tabled serve` on a data directory of 1, 1 000 and 10 000 campaigns (100 000 with
 *              --big): time from exec to the end of the banner, and the server's VmRSS then.
 *              Needs the binary: --tabled PATH (default build/server/tabled from the source root).
 * See tests/bench/README.md for the figures.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backup.h"
#include "bench_util.h"
#include "engine.h"
#include "jsonalloc.h"
#include "rng.h"
#include "store.h"

typedef struct sink_ctx {
    size_t bytes, msgs;
    json_t *last; /* the last message, parsed while capture is set */
    int capture;
} sink_ctx;

static void on_send(void *ctx, engine_msg *m)
{
    sink_ctx *s = ctx;
    s->bytes += m->len;
    s->msgs++;
    if (s->capture) {
        json_decref(s->last);
        s->last = json_loadb((const char *)m->text, m->len, 0, NULL);
    }
}

static void on_close(void *ctx, int status, const char *reason)
{
    (void)ctx;
    fprintf(stderr, "bench_curves: the engine closed a connection (%d %s)\n", status, reason);
    exit(1);
}

static const engine_sink SINK = {on_send, on_close};

/* A data directory, its store and engine, and the connections the curves drive. */
typedef struct bench {
    char dir[64], path[96];
    store *st;
    engine *e;
    rules_rng *dice, *secret;
    int cmd_no;
} bench;

static void bench_open_with(bench *b, int idle_close_ms)
{
    memset(b, 0, sizeof *b);
    snprintf(b->dir, sizeof b->dir, "/tmp/tabled-curves-XXXXXX");
    if (!mkdtemp(b->dir))
        exit(1);
    snprintf(b->path, sizeof b->path, "%s/t.db", b->dir);
    tb_err err;
    b->dice = rules_rng_seeded(1);
    b->secret = rules_rng_seeded(2);
    engine_opts opts;
    engine_opts_default(&opts);
    opts.rate_per_sec = 0;
    if (idle_close_ms >= 0)
        opts.idle_close_ms = idle_close_ms;
    if (store_open(b->path, 0, &b->st, &err) ||
        engine_create(b->st, b->dice, b->secret, &opts, &b->e, &err)) {
        fprintf(stderr, "bench_curves: %s\n", err.msg);
        exit(1);
    }
}

static void bench_open(bench *b)
{
    bench_open_with(b, -1);
}

static void bench_close(bench *b, int keep)
{
    engine_destroy(b->e);
    store_close(b->st);
    rules_rng_destroy(b->dice);
    rules_rng_destroy(b->secret);
    if (!keep) {
        char rm[128];
        snprintf(rm, sizeof rm, "rm -rf %s", b->dir);
        if (system(rm) != 0)
            fprintf(stderr, "bench_curves: cannot remove %s\n", b->dir);
    }
}

static void say(bench *b, engine_conn *c, json_t *msg)
{
    char *s = json_dumps(msg, JSON_COMPACT);
    engine_receive(b->e, c, s, strlen(s));
    free(s);
    json_decref(msg);
}

/* A new connection with its sink (leaked on purpose: they live as long as the run). */
static engine_conn *conn(bench *b, sink_ctx **sk)
{
    sink_ctx *s = calloc(1, sizeof *s);
    if (sk)
        *sk = s;
    return engine_conn_open(b->e, &SINK, s);
}

/* cmd op args (stolen) from c, flushed; the ack's result (new reference); exits on a nack. */
static json_t *cmd(bench *b, engine_conn *c, sink_ctx *s, const char *op, json_t *args)
{
    char id[32];
    snprintf(id, sizeof id, "c%d", ++b->cmd_no);
    s->capture = 1;
    say(b, c, json_pack("{s:s, s:s, s:s, s:o}", "t", "cmd", "id", id, "op", op, "args", args));
    engine_flush(b->e);
    s->capture = 0;
    const char *t = json_string_value(json_object_get(s->last, "t"));
    if (!t || strcmp(t, "ack") != 0) {
        char *d = json_dumps(s->last, 0);
        fprintf(stderr, "bench_curves: %s refused: %s\n", op, d ? d : "(nothing)");
        exit(1);
    }
    return json_incref(json_object_get(s->last, "result"));
}

/* n commands op args_text from c, one flush each: CPU microseconds per command. */
static double cpu_per(bench *b, engine_conn *c, const char *op, const char *args_text, int n)
{
    json_t *args = json_loads(args_text, 0, NULL);
    double c0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "t%d", ++b->cmd_no);
        say(b, c, json_pack("{s:s, s:s, s:s, s:O}", "t", "cmd", "id", id, "op", op, "args", args));
        engine_flush(b->e);
    }
    json_decref(args);
    return (bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e6 / n;
}

/* n commands op args_text from c, `per` to a flush (group commit: quick filling). */
static void fill(bench *b, engine_conn *c, const char *op, const char *args_text, int n, int per)
{
    json_t *args = json_loads(args_text, 0, NULL);
    for (int i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "f%d", ++b->cmd_no);
        say(b, c, json_pack("{s:s, s:s, s:s, s:O}", "t", "cmd", "id", id, "op", op, "args", args));
        if ((i + 1) % per == 0)
            engine_flush(b->e);
    }
    engine_flush(b->e);
    json_decref(args);
}

static json_t *sample(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rules/fivey/samples/%s.json", TB_SOURCE_ROOT, name);
    json_t *j = json_load_file(path, 0, NULL);
    if (!j) {
        fprintf(stderr, "bench_curves: cannot read %s\n", path);
        exit(1);
    }
    return j;
}

/* A fivey table: a GM and 8 players (sinks that count bytes); the host connection and the
 * campaign's create result in *host / *made. */
typedef struct table {
    engine_conn *host, *gm, *pl[8];
    sink_ctx *hs, *gs, *ps[8];
    json_t *made;
} table;

static void table_open(bench *b, table *t, const char *system)
{
    tb_err err;
    char *host = engine_mint_host_token(b->e, &err);
    t->host = conn(b, &t->hs);
    say(b, t->host, json_pack("{s:s, s:i, s:s}", "t", "hello", "v", 1, "token", host));
    free(host);
    t->made = cmd(b, t->host, t->hs, "campaign.create",
                  json_pack("{s:s, s:s}", "name", "Bench", "system", system));
    t->gm = conn(b, &t->gs);
    say(b, t->gm,
        json_pack("{s:s, s:i, s:s}", "t", "hello", "v", 1, "token",
                  json_string_value(json_object_get(t->made, "gm_token"))));
    for (int i = 0; i < 8; i++) {
        char name[16];
        snprintf(name, sizeof name, "Player %d", i + 1);
        t->pl[i] = conn(b, &t->ps[i]);
        say(b, t->pl[i],
            json_pack("{s:s, s:s, s:s}", "t", "join", "code",
                      json_string_value(json_object_get(t->made, "join_code")), "name", name));
        engine_flush(b->e);
    }
}

/* A new character of player i; its id (new reference). */
static json_t *character(bench *b, table *t, int i, int n)
{
    char name[24];
    snprintf(name, sizeof name, "Hero %d", n);
    json_t *sheet = sample(n % 2 ? "brunhild" : "vesper");
    json_t *ch = cmd(b, t->pl[i % 8], t->ps[i % 8], "char.create",
                     json_pack("{s:s, s:o}", "name", name, "sheet", sheet));
    json_t *id = json_incref(json_object_get(ch, "id"));
    json_decref(ch);
    return id;
}

/* ---- the curves --------------------------------------------------------------------------- */

static void curve_events(void)
{
    static const int POINTS[] = {1000, 10000, 100000};
    bench b;
    bench_open(&b);
    table t;
    table_open(&b, &t, "fivey");
    int64_t have = 0;
    for (size_t i = 0; i < sizeof POINTS / sizeof POINTS[0]; i++) {
        engine_campaign_state(b.e, json_string_value(json_object_get(t.made, "campaign")), &have);
        if (have < POINTS[i])
            fill(&b, t.pl[1], "roll", "{\"expr\":\"3d6+2\"}", (int)(POINTS[i] - have), 200);
        double us = cpu_per(&b, t.pl[0], "roll", "{\"expr\":\"d20+5\"}", 2000);
        printf("events    %7d events in the campaign: roll %.1f us CPU\n", POINTS[i], us);
        fflush(stdout);
    }
    bench_close(&b, 0);
}

static void curve_chars(void)
{
    static const int POINTS[] = {10, 50, 200};
    for (size_t p = 0; p < sizeof POINTS / sizeof POINTS[0]; p++) {
        bench b;
        bench_open(&b);
        table t;
        table_open(&b, &t, "fivey");
        json_t *fight = json_array();
        for (int n = 0; n < POINTS[p]; n++) {
            json_t *id = character(&b, &t, n, n);
            if (n < 8)
                json_array_append(fight, id);
            json_decref(id);
        }
        json_decref(cmd(&b, t.gm, t.gs, "enc.start", json_pack("{s:s}", "module", "fivey.combat")));
        size_t i;
        json_t *v;
        json_array_foreach(fight, i, v)
            json_decref(cmd(&b, t.gm, t.gs, "enc.add", json_pack("{s:O}", "char", v)));
        for (int k = 0; k < 4; k++)
            json_decref(
                cmd(&b, t.gm, t.gs, "enc.add", json_pack("{s:{s:s}}", "npc", "name", "Goblin")));
        json_decref(cmd(&b, t.gm, t.gs, "enc.act", json_pack("{s:s}", "action", "initiative")));
        double us = cpu_per(&b, t.gm, "enc.act", "{\"action\":\"end\"}", 500);
        printf("chars     %7d characters (8 in the fight): enc.act end %.1f us CPU\n", POINTS[p],
               us);
        /* a player renames their character (the same name each time: the cost of the copy) */
        char upd[96];
        snprintf(upd, sizeof upd, "{\"id\":\"%s\",\"name\":\"Hero 0\"}",
                 json_string_value(json_array_get(fight, 0)));
        json_decref(cmd(&b, t.pl[0], t.ps[0], "char.update", json_loads(upd, 0, NULL))); /* acked */
        us = cpu_per(&b, t.pl[0], "char.update", upd, 500);
        printf("chars     %7d characters: char.update (a name) %.1f us CPU\n", POINTS[p], us);
        fflush(stdout);
        json_decref(fight);
        bench_close(&b, 0);
    }
}

static void curve_campaigns(void)
{
    static const int POINTS[] = {1, 100, 1000};
    bench b;
    bench_open(&b);
    table t;
    table_open(&b, &t, "generic");
    int have = 1;
    for (size_t p = 0; p < sizeof POINTS / sizeof POINTS[0]; p++) {
        for (; have < POINTS[p]; have++) {
            json_t *made = cmd(&b, t.host, t.hs, "campaign.create",
                               json_pack("{s:s, s:s}", "name", "Other", "system", "generic"));
            engine_conn *g = conn(&b, NULL);
            say(&b, g,
                json_pack("{s:s, s:i, s:s}", "t", "hello", "v", 1, "token",
                          json_string_value(json_object_get(made, "gm_token"))));
            json_decref(made);
        }
        engine_flush(b.e);
        double us = cpu_per(&b, t.pl[0], "roll", "{\"expr\":\"d20+5\"}", 2000);
        printf("campaigns %7d campaigns loaded: roll %.1f us CPU\n", POINTS[p], us);
        fflush(stdout);
    }
    bench_close(&b, 0);
}

static void curve_seats(void)
{
    static const int POINTS[] = {10, 100, 1000};
    bench b;
    bench_open(&b);
    table t;
    table_open(&b, &t, "generic"); /* 9 seats */
    int have = 9;
    for (size_t p = 0; p < sizeof POINTS / sizeof POINTS[0]; p++) {
        for (; have < POINTS[p]; have++) {
            engine_conn *c = conn(&b, NULL);
            say(&b, c,
                json_pack("{s:s, s:s, s:s}", "t", "join", "code",
                          json_string_value(json_object_get(t.made, "join_code")), "name",
                          "Crowd"));
            if (have % 16 == 0)
                engine_flush(b.e);
        }
        engine_flush(b.e);
        double us = cpu_per(&b, t.pl[0], "roll", "{\"expr\":\"d20+5\"}", 500);
        printf("seats     %7d seats: roll %.1f us CPU, %.2f us per recipient\n", POINTS[p], us,
               us / POINTS[p]);
        fflush(stdout);
    }
    bench_close(&b, 0);
}

static long file_bytes(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : 0;
}

static void curve_bytes(void)
{
    bench b;
    bench_open(&b);
    table t;
    table_open(&b, &t, "generic");
    const char *id = json_string_value(json_object_get(t.made, "campaign"));
    char file[160], wal[170];
    snprintf(file, sizeof file, "%s.campaigns/%s.db", b.path, id);
    snprintf(wal, sizeof wal, "%s-wal", file);
    fill(&b, t.pl[0], "roll", "{\"expr\":\"d20+5\"}", 300, 1); /* a full log first */
    int64_t s0, s1;
    engine_campaign_state(b.e, id, &s0);
    store_checkpoint(file, NULL, NULL, NULL);
    long before = file_bytes(file);
    fill(&b, t.pl[0], "roll", "{\"expr\":\"d20+5\"}", 2000, 1);
    engine_campaign_state(b.e, id, &s1);
    store_checkpoint(file, NULL, NULL, NULL);
    long after = file_bytes(file);
    printf("bytes     %.0f bytes on disk per event (%lld rolls, a snapshot by size included; "
           "WAL %ld bytes)\n",
           (double)(after - before) / (double)(s1 - s0), (long long)(s1 - s0), file_bytes(wal));
    bench_close(&b, 0);
}

/* Starts tabled serve on path; returns the microseconds to the end of its banner and *rss_kb. */
static double start_tabled(const char *bin, const char *path, long *rss_kb)
{
    int fds[2];
    if (pipe(fds) != 0)
        exit(1);
    double t0 = bench_clock_s(CLOCK_MONOTONIC);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        execl(bin, bin, "serve", "--port", "0", "--bind", "127.0.0.1", "--db", path, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    char line[1024];
    double dt = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Open the console link", 21) == 0) {
            dt = bench_clock_s(CLOCK_MONOTONIC) - t0;
            break;
        }
    char status[64], buf[256];
    snprintf(status, sizeof status, "/proc/%d/status", (int)pid);
    FILE *s = fopen(status, "r");
    *rss_kb = -1;
    while (s && fgets(buf, sizeof buf, s))
        if (strncmp(buf, "VmRSS:", 6) == 0)
            *rss_kb = atol(buf + 6);
    if (s)
        fclose(s);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    fclose(f);
    return dt * 1e6;
}

static void curve_startup(const char *bin, int big)
{
    static const int POINTS[] = {1, 1000, 10000, 100000};
    size_t n = big ? 4 : 3;
    bench b;
    bench_open_with(&b, 0); /* a campaign nobody uses is put away at once: its file closed */
    table t;
    table_open(&b, &t, "generic");
    int have = 1;
    for (size_t p = 0; p < n; p++) {
        double c0 = bench_clock_s(CLOCK_MONOTONIC);
        for (; have < POINTS[p]; have++) {
            char id[32];
            snprintf(id, sizeof id, "m%d", ++b.cmd_no);
            say(&b, t.host,
                json_pack("{s:s, s:s, s:s, s:{s:s, s:s}}", "t", "cmd", "id", id, "op",
                          "campaign.create", "args", "name", "Other", "system", "generic"));
            if (have % 500 == 0)
                engine_tick(b.e); /* flushes, then puts the new campaigns away */
        }
        engine_tick(b.e);
        int64_t stored = engine_campaign_count(b.e);
        if (stored != POINTS[p]) {
            fprintf(stderr, "bench_curves: %lld campaigns made, not %d\n", (long long)stored,
                    POINTS[p]);
            exit(1);
        }
        double made_s = bench_clock_s(CLOCK_MONOTONIC) - c0;
        long rss = 0;
        double us = start_tabled(bin, b.path, &rss);
        printf("startup   %7d campaigns: tabled serve ready in %.0f ms, VmRSS %ld KB (made in "
               "%.1f s)\n",
               POINTS[p], us / 1000, rss, made_s);
        fflush(stdout);
    }
    bench_close(&b, 0);
}

int main(int argc, char **argv)
{
    jsonalloc_install(); /* as tabled does */
    store_process_init();  /* as tabled does */
    const char *only = NULL, *bin = TB_SOURCE_ROOT "/build/server/tabled";
    int big = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tabled") == 0 && i + 1 < argc)
            bin = argv[++i];
        else if (strcmp(argv[i], "--big") == 0)
            big = 1;
        else
            only = argv[i];
    }
    if (bench_wants(only, "events"))
        curve_events();
    if (bench_wants(only, "chars"))
        curve_chars();
    if (bench_wants(only, "campaigns"))
        curve_campaigns();
    if (bench_wants(only, "seats"))
        curve_seats();
    if (bench_wants(only, "bytes"))
        curve_bytes();
    if (bench_wants(only, "startup"))
        curve_startup(bin, big);
    return 0;
}
