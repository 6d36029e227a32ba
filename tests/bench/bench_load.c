/*
 * bench_load.c — the load client of the load benchmark (driven by tests/bench/load.mjs; see
 * tests/bench/README.md). One process, one libwebsockets client context on lws's own poll loop,
 * T tables x S seats over real WebSockets on loopback.
 *
 * Against tabled (default): a host socket creates T campaigns; each table's GM says hello and S-1
 * players join by code (at most --window handshakes/joins in flight). Against the floor (--relay,
 * tests/bench/bench_relay.c) the S sockets of table k simply open /t/k.
 *
 * Then, unless --idle: each table's GM keeps one command in flight — a public `roll d20+5` (relay:
 * a frame of the same size) — and the latency of a command is the time from lws_write on the GM's
 * socket to the arrival of its diff at the last of the table's S-1 other seats. Against tabled the
 * next command is sent once the GM also has its ack. The first command of every table is a
 * warm-up (it also proves every seat has drained the join traffic) and is not counted.
 *
 * CPU is read from /proc/<pid>/stat (utime+stime) of the server (--pid) and getrusage of this
 * process, RSS from /proc/<pid>/status (VmRSS). --save FILE writes the seats' tokens and seqs after
 * the joins; --resume FILE reconnects those seats (hello with last_seq) instead of joining, e.g.
 * after a server restart. --route KEY: behind a router of several processes (issue 28,
 * tests/bench/shards.mjs), the host socket opens /c/KEY/ws and each table's seats
 * /c/<campaign>/ws. Prints one JSON object on stdout; progress and errors on stderr.
 *
 * A scene and its map (issue 30's "figures do not get worse by more than 10 % with a map in the
 * scene"): --scene MODULE makes every table a campaign of MODULE's system (--system, default the
 * part of MODULE before the dot) whose GM, once every seat has its welcome and before the
 * warm-up, starts an encounter of MODULE with one quick NPC fighter per seat (enc.start, S x
 * enc.add); --map also sets that scene's map with a picture of --image-chars characters (a data
 * URL, default 59 990: near map.set's 60 000), places a token for every fighter and shows the map
 * (map.set, S x map.token, map.show). --moves K: every K-th command of a table is a map.move of
 * one of its tokens (to a square it is not on) instead of the roll.
 * Exits 1 on any protocol error, refused command or time-out (--timeout, default 300 s).
 */
#include <jansson.h>
#include <libwebsockets.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

enum { ST_IDLE, ST_CONNECTING, ST_WAIT_WELCOME, ST_READY, ST_CLOSED };
enum { MAP_COLS = 24, MAP_ROWS = 16 }; /* --map: the grid (squares of 50 px on 1200 x 800) */

typedef struct seat {
    struct lws *wsi;
    struct table *tab;
    int idx; /* 0 = the GM (or the host socket), then the players */
    int state;
    int is_host;
    char token[64];
    long long seq; /* last seq seen */
    long long off; /* --scene: the GM's seq minus this seat's (the GM-only set-up events, e.g.
                      map.set before map.show, advance the GM's seq alone; server/playerseq.h) */
    double t_seq;  /* when it was seen */
    char *out;     /* one pending frame (LWS_PRE headroom), or NULL */
    size_t out_len;
    double *sent_at; /* where to stamp the time the pending frame was written */
    char *rx;
    size_t rx_len, rx_cap;
    int skipping; /* the rest of a presence list: not kept */
} seat;

typedef struct table {
    int id;
    char gm_token[64], code[40];
    char campaign[48]; /* its id (--route: its seats connect to /c/<id>/ws) */
    seat *seats;       /* S of them; seats[0] is the GM */
    long long target;  /* seq of the command in flight (tabled: from its ack), or -1 */
    int got, acked, inflight, done;
    double t_sent;    /* when the GM's frame was written */
    double t_last;    /* when the last other seat had the diff */
    int step;         /* --scene: the next set-up command (table_setup) */
    char (*cids)[24]; /* --scene: the fighters' combatant ids (= their tokens' ids) */
    long long fired;  /* commands sent in the warm-up and load phases */
    int pongs;        /* --scene: players settled after the set-up (table_settled) */
} table;

static struct {
    int port, relay, tables, seats, window, idle, commands;
    double seconds, timeout, hold, settle;
    long pid;
    const char *host_token, *save, *resume;
    const char *route; /* --route KEY: behind a router (issue 28), the host socket at /c/KEY/ws */
    const char *system, *scene; /* --system (default generic), --scene MODULE */
    int map, moves, image_chars, set_up;
    struct lws_context *ctx;
    seat host;
    table *tabs;
    int phase; /* 0 setup, 1 joining, 2 warm-up, 3 load, 4 done, 5 the scenes' set-up */
    int created, opened, welcomed, total, warm;
    int next_open;
    double t_join0, t_join1, t_load0, t_load1;
    double *lat;
    size_t n_lat, cap_lat;
    long long frames_rx, bytes_rx;
    int failed;
    char *relay_payload;
    size_t relay_len;
} B;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "bench_load: %s%s%.300s\n", what, detail ? ": " : "", detail ? detail : "");
    B.failed = 1;
    B.phase = 4;
}

/* The server's utime+stime in microseconds (/proc/<pid>/stat), or -1. */
static double proc_cpu_us(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may contain spaces */
    if (!p)
        return -1;
    unsigned long long ut = 0, st = 0;
    /* after ")": state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(14)
     * stime(15) */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) * 1e6 / (double)sysconf(_SC_CLK_TCK);
}

/* The server's VmRSS in KiB (/proc/<pid>/status), or -1. */
static long proc_rss_kb(long pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

static double self_cpu_us(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_usec;
}

/* Queues one text frame on s (a seat has at most one pending frame: one request in flight). */
static void seat_send(seat *s, const char *text, size_t len, double *stamp)
{
    if (s->out) {
        fail("internal: two frames pending on one socket", NULL);
        return;
    }
    s->out = malloc(LWS_PRE + len);
    if (!s->out)
        abort();
    memcpy(s->out + LWS_PRE, text, len);
    s->out_len = len;
    s->sent_at = stamp;
    lws_callback_on_writable(s->wsi);
}

static void seat_sendf(seat *s, double *stamp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void seat_sendf(seat *s, double *stamp, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    seat_send(s, buf, (size_t)n, stamp);
}

static void seat_connect(seat *s)
{
    char path[80], host[64];
    if (B.relay)
        snprintf(path, sizeof path, "/t/%d", s->tab->id);
    else if (B.route && s->is_host)
        snprintf(path, sizeof path, "/c/%s/ws", B.route);
    else if (B.route)
        snprintf(path, sizeof path, "/c/%s/ws", s->tab->campaign);
    else
        snprintf(path, sizeof path, "/ws");
    snprintf(host, sizeof host, "127.0.0.1:%d", B.port);
    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = B.ctx;
    ci.address = "127.0.0.1";
    ci.port = B.port;
    ci.path = path;
    ci.host = host;
    ci.protocol = "tabled.v1";
    ci.userdata = s;
    ci.pwsi = &s->wsi;
    s->state = ST_CONNECTING;
    if (!lws_client_connect_via_info(&ci))
        fail("cannot start a connection", NULL);
}

/* Opens more seats while fewer than --window are between connect and welcome. */
static void open_more(void)
{
    while (B.phase == 1 && B.next_open < B.total && B.opened - B.welcomed < B.window) {
        int k = B.next_open / B.seats, i = B.next_open % B.seats;
        B.next_open++;
        B.opened++;
        seat_connect(&B.tabs[k].seats[i]);
    }
}

/* The GM of t sends the next command: a public roll (tabled) or a frame of the same size (relay).
 */
static void table_fire(table *t)
{
    seat *gm = &t->seats[0];
    t->got = t->acked = 0;
    t->inflight = 1;
    t->target = -1;
    if (B.relay) {
        /* the frame carries the seq the players will see, like tabled's diff */
        t->target = ++gm->seq;
        int n = snprintf(B.relay_payload, 40, "{\"t\":\"diff\",\"seq\":%lld,", t->target);
        B.relay_payload[n] = ' ';
        seat_send(gm, B.relay_payload, B.relay_len, &t->t_sent);
        t->acked = 1;
    } else if (B.moves > 0 && t->fired % B.moves == B.moves - 1) {
        /* a token of the map: token k's m-th move goes to row 1 + m % 15 of its column k (the
         * map has 16 rows; it starts on row 0), never the square it is on */
        static long long n;
        long long m = t->fired / B.moves;
        int k = (int)(m % B.seats);
        m /= B.seats;
        seat_sendf(gm, &t->t_sent,
                   "{\"t\":\"cmd\",\"id\":\"m%lld\",\"op\":\"map.move\",\"args\":{\"id\":\"%s\","
                   "\"x\":%d,\"y\":%lld}}",
                   ++n, t->cids[k], k % MAP_COLS, 1 + m % (MAP_ROWS - 1));
    } else {
        static long long n;
        seat_sendf(gm, &t->t_sent,
                   "{\"t\":\"cmd\",\"id\":\"r%lld\",\"op\":\"roll\",\"args\":{\"expr\":\"d20+5\"}}",
                   ++n);
    }
    t->fired++;
}

static void start_load(void);

/* One command of t is complete: record it (after the warm-up), then fire the next or stop. */
static void table_complete(table *t, double now)
{
    t->inflight = 0;
    if (B.phase == 2) {
        if (++B.warm == B.tables) {
            if (B.idle)
                B.phase = 4;
            else
                start_load();
        }
        return;
    }
    if (B.phase != 3)
        return;
    if (B.n_lat == B.cap_lat) {
        B.cap_lat = B.cap_lat ? 2 * B.cap_lat : 4096;
        B.lat = realloc(B.lat, B.cap_lat * sizeof *B.lat);
        if (!B.lat)
            abort();
    }
    B.lat[B.n_lat++] = (t->t_last - t->t_sent) * 1e6;
    t->done++;
    if (now - B.t_load0 < B.seconds && (B.commands <= 0 || t->done < B.commands)) {
        table_fire(t);
        return;
    }
    for (int k = 0; k < B.tables; k++)
        if (B.tabs[k].inflight)
            return;
    B.t_load1 = now;
    B.phase = 4;
}

static double srv_cpu0, cli_cpu0, srv_cpu1, cli_cpu1;
static long rss_before, rss_after;

static void start_warmup(void)
{
    if (B.phase != 5) /* the scenes' set-up is not part of the joins' time */
        B.t_join1 = now_s();
    B.phase = 2;
    B.warm = 0;
    for (int k = 0; k < B.tables; k++)
        table_fire(&B.tabs[k]);
}

static void start_load(void)
{
    rss_after = B.pid ? proc_rss_kb(B.pid) : -1;
    B.phase = 3;
    srv_cpu0 = B.pid ? proc_cpu_us(B.pid) : -1;
    cli_cpu0 = self_cpu_us();
    B.frames_rx = B.bytes_rx = 0;
    B.t_load0 = now_s();
    for (int k = 0; k < B.tables; k++)
        table_fire(&B.tabs[k]);
}

/* --map: map.set of the scene "enc" with a picture of --image-chars characters: a PNG data URL
 * whose base64 comes from a fixed sequence (the same bytes in every run). */
static void table_map_set(table *t)
{
    static const char head[] = "{\"t\":\"cmd\",\"id\":\"mapset\",\"op\":\"map.set\",\"args\":{"
                               "\"w\":1200,\"h\":800,\"size\":50,\"cols\":24,\"rows\":16,"
                               "\"image\":\"data:image/png;base64,";
    static const char tail[] = "\"}}";
    size_t n = (size_t)B.image_chars - (sizeof "data:image/png;base64," - 1);
    n -= n % 4;
    size_t len = sizeof head - 1 + n + sizeof tail - 1;
    char *buf = malloc(len);
    if (!buf)
        abort();
    memcpy(buf, head, sizeof head - 1);
    bench_base64_fill(buf + sizeof head - 1, n);
    memcpy(buf + sizeof head - 1 + n, tail, sizeof tail - 1);
    seat_send(&t->seats[0], buf, len, NULL);
    free(buf);
}

/* --scene: the GM of t sends its next set-up command (one in flight; table_setup_ack moves on):
 * enc.start, a fighter per seat, then with --map the map, a token per fighter and map.show. */
static void table_setup(table *t)
{
    seat *gm = &t->seats[0];
    int S = B.seats, k = t->step;
    if (k == 0)
        seat_sendf(
            gm, NULL,
            "{\"t\":\"cmd\",\"id\":\"s0\",\"op\":\"enc.start\",\"args\":{\"module\":\"%s\"}}",
            B.scene);
    else if (k <= S)
        seat_sendf(gm, NULL,
                   "{\"t\":\"cmd\",\"id\":\"s%d\",\"op\":\"enc.add\",\"args\":{\"npc\":{\"name\":"
                   "\"Fighter %d\"}}}",
                   k, k);
    else if (B.map && k == S + 1)
        table_map_set(t);
    else if (B.map && k <= 2 * S + 1)
        seat_sendf(gm, NULL,
                   "{\"t\":\"cmd\",\"id\":\"s%d\",\"op\":\"map.token\",\"args\":{\"cid\":\"%s\","
                   "\"x\":%d,\"y\":0}}",
                   k, t->cids[k - S - 2], (k - S - 2) % MAP_COLS);
    else if (B.map && k == 2 * S + 2)
        seat_sendf(gm, NULL, "{\"t\":\"cmd\",\"id\":\"s%d\",\"op\":\"map.show\",\"args\":{}}", k);
}

/* The GM's ack of set-up command t->step (m: the ack). */
static void table_setup_ack(table *t, json_t *m)
{
    int S = B.seats, k = t->step;
    if (k >= 1 && k <= S) {
        const char *id = json_string_value(json_object_get(json_object_get(m, "result"), "id"));
        if (!id) {
            fail("enc.add: no combatant id in the ack", NULL);
            return;
        }
        snprintf(t->cids[k - 1], sizeof t->cids[k - 1], "%s", id);
    }
    int last = B.map ? 2 * S + 2 : S;
    if (++t->step <= last) {
        table_setup(t);
        return;
    }
    /* settle every player with a ping: its pong comes after every diff of the set-up */
    for (int i = 1; i < S; i++)
        seat_sendf(&t->seats[i], NULL, "{\"t\":\"ping\",\"n\":1}");
}

/* Player s's pong after the set-up: its seq and the GM's now name the same event. */
static void table_settled(seat *s)
{
    table *t = s->tab;
    s->off = t->seats[0].seq - s->seq;
    if (++t->pongs == B.seats - 1 && ++B.set_up == B.tables)
        start_warmup();
}

static void start_scenes(void)
{
    B.t_join1 = now_s();
    B.phase = 5;
    for (int k = 0; k < B.tables; k++)
        table_setup(&B.tabs[k]);
}

/* A seat got its welcome (tabled) or its socket opened (relay). */
static void seat_ready(seat *s)
{
    s->state = ST_READY;
    B.welcomed++;
    if (B.welcomed == B.total && B.scene && !B.relay)
        start_scenes();
    else if (B.welcomed == B.total)
        start_warmup();
    else
        open_more();
}

/* The value of "key": as a number, or -1 (a cheap scan: the server writes compact JSON). */
static long long scan_ll(const char *buf, size_t len, const char *key)
{
    const char *p = memmem(buf, len, key, strlen(key));
    if (!p)
        return -1;
    return strtoll(p + strlen(key), NULL, 10);
}

static void on_host_message(seat *s, json_t *m, const char *t);

/* Completes t's command once every other seat has its diff and (tabled) the GM its ack. */
static void table_check(table *t, double now)
{
    if (t->inflight && t->acked && t->got == B.seats - 1 && t->seats[0].seq >= t->target)
        table_complete(t, now);
}

/* The host socket creates the campaigns one by one, then the joins start. */
static void host_create_next(seat *h)
{
    seat_sendf(h, NULL,
               "{\"t\":\"cmd\",\"id\":\"create%d\",\"op\":\"campaign.create\","
               "\"args\":{\"name\":\"bench %d\",\"system\":\"%s\"}}",
               B.created, B.created, B.system);
}

static void start_joins(void)
{
    B.phase = 1;
    rss_before = B.pid ? proc_rss_kb(B.pid) : -1;
    B.t_join0 = now_s();
    open_more();
}

static void on_host_message(seat *h, json_t *m, const char *type)
{
    if (strcmp(type, "welcome") == 0) {
        host_create_next(h);
    } else if (strcmp(type, "ack") == 0) {
        json_t *r = json_object_get(m, "result");
        const char *gm = json_string_value(json_object_get(r, "gm_token"));
        const char *code = json_string_value(json_object_get(r, "join_code"));
        const char *id = json_string_value(json_object_get(r, "campaign"));
        if (!gm || !code || !id) {
            fail("campaign.create: no gm_token/join_code in the ack", NULL);
            return;
        }
        table *t = &B.tabs[B.created++];
        snprintf(t->gm_token, sizeof t->gm_token, "%s", gm);
        snprintf(t->code, sizeof t->code, "%s", code);
        snprintf(t->campaign, sizeof t->campaign, "%s", id);
        snprintf(t->seats[0].token, sizeof t->seats[0].token, "%s", gm);
        if (B.created < B.tables)
            host_create_next(h);
        else
            start_joins();
    } else {
        char *text = json_dumps(m, JSON_COMPACT);
        fail("host socket refused", text);
        free(text);
    }
}

/* The GM's ack of t's command says its seq: the seats that already have it count, as of the
 * time their seq reached it (diffs are sent before the ack, so the GM always has). */
static void ack_seq(table *tab, long long seq, double now)
{
    tab->acked = 1;
    tab->target = seq;
    tab->got = 0;
    for (int i = 1; i < B.seats; i++)
        if (tab->seats[i].seq + tab->seats[i].off >= tab->target) {
            tab->got++;
            if (tab->seats[i].t_seq > tab->t_last || tab->got == 1)
                tab->t_last = tab->seats[i].t_seq;
        }
    table_check(tab, now);
}

/* One complete text message on seat s (len bytes, not NUL-terminated). */
static void seat_message(seat *s, const char *buf, size_t len)
{
    double now = now_s();
    B.frames_rx++;
    B.bytes_rx += (long long)len;
    if (len < 8 || memcmp(buf, "{\"t\":\"", 6) != 0) {
        fail("unexpected message", NULL);
        return;
    }
    const char *t = buf + 6;
    if (strncmp(t, "diff\"", 5) == 0) {
        long long seq = scan_ll(buf, len, "\"seq\":");
        if (seq > s->seq) {
            s->seq = seq;
            s->t_seq = now;
        }
        table *tab = s->tab;
        if (tab && tab->inflight && seq + s->off == tab->target) {
            if (s->idx > 0 && ++tab->got == B.seats - 1)
                tab->t_last = now;
            table_check(tab, now);
        }
        return;
    }
    if (strncmp(t, "welcome\"", 8) == 0 && !s->is_host && s->state == ST_WAIT_WELCOME) {
        /* A player's welcome carries the whole state (most of a join's bytes at 1 000 seats):
         * only its seq is read (the first "seq": the server writes seat, campaign, seq, state),
         * so the client keeps up with the server. */
        long long seq = scan_ll(buf, len, "\"seq\":");
        if (seq > s->seq)
            s->seq = seq;
        seat_ready(s);
        return;
    }
    if (strncmp(t, "pong\"", 5) == 0 && B.phase == 5 && s->idx > 0) {
        table_settled(s);
        return;
    }
    if (strncmp(t, "presence\"", 9) == 0 || strncmp(t, "pong\"", 5) == 0)
        return;
    if (strncmp(t, "ack\"", 4) == 0 && !s->is_host && s->idx == 0 && B.phase != 5 && s->tab &&
        s->tab->inflight) {
        /* The GM's ack of a timed command: only its seq is read, as for a diff (the server writes
         * t, id, then seq, and an id has no quote), so the client's cost per command stays near
         * the relay's, which parses nothing. */
        ack_seq(s->tab, scan_ll(buf, len, "\"seq\":"), now);
        return;
    }
    json_error_t je;
    json_t *m = json_loadb(buf, len, 0, &je);
    if (!m) {
        fail("unparseable message", je.text);
        return;
    }
    const char *type = json_string_value(json_object_get(m, "t"));
    if (!type)
        type = "";
    if (s->is_host) {
        on_host_message(s, m, type);
    } else if (strcmp(type, "joined") == 0) {
        snprintf(s->token, sizeof s->token, "%s", json_string_value(json_object_get(m, "token")));
    } else if (strcmp(type, "welcome") == 0) {
        json_t *seq = json_object_get(m, "seq");
        if (json_is_integer(seq) && json_integer_value(seq) > s->seq)
            s->seq = json_integer_value(seq);
        if (s->state == ST_WAIT_WELCOME)
            seat_ready(s);
    } else if (strcmp(type, "ack") == 0 && s->idx == 0 && B.phase == 5) {
        table_setup_ack(s->tab, m);
    } else {
        char *text = json_dumps(m, JSON_COMPACT);
        fail("refused", text);
        free(text);
    }
    json_decref(m);
}

/* The socket is open: say hello (GM, resume), join (a new player) or, relay, nothing. */
static void seat_established(seat *s)
{
    if (s->is_host) {
        s->state = ST_WAIT_WELCOME;
        seat_sendf(s, NULL, "{\"t\":\"hello\",\"v\":1,\"token\":\"%s\"}", B.host_token);
        return;
    }
    if (B.relay) {
        seat_ready(s);
        return;
    }
    s->state = ST_WAIT_WELCOME;
    if (B.resume)
        seat_sendf(s, NULL, "{\"t\":\"hello\",\"v\":1,\"token\":\"%s\",\"last_seq\":%lld}",
                   s->token, s->seq);
    else if (s->idx == 0)
        seat_sendf(s, NULL, "{\"t\":\"hello\",\"v\":1,\"token\":\"%s\"}", s->token);
    else
        seat_sendf(s, NULL, "{\"t\":\"join\",\"code\":\"%s\",\"name\":\"t%d p%d\"}", s->tab->code,
                   s->tab->id, s->idx);
}

static int callback_client(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                           size_t len)
{
    seat *s = user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        fail("connection error", in ? (const char *)in : "");
        return 0;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        seat_established(s);
        return 0;
    case LWS_CALLBACK_CLIENT_RECEIVE: {
        int last = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);
        if (s->skipping) {
            B.bytes_rx += (long long)len;
            s->skipping = !last;
            return 0;
        }
        if (!last && s->rx_len == 0 && len > 15 && memcmp(in, "{\"t\":\"presence\"", 15) == 0) {
            /* The presence lists of a big table (before branch perf) are most of the bytes a
             * join sends: the client only counts them, so it keeps up with the server. */
            B.frames_rx++;
            B.bytes_rx += (long long)len;
            s->skipping = 1;
            return 0;
        }
        if (last && s->rx_len == 0) {
            seat_message(s, in, len);
            return 0;
        }
        if (s->rx_len + len > s->rx_cap) {
            s->rx_cap = (s->rx_len + len) * 2;
            s->rx = realloc(s->rx, s->rx_cap);
            if (!s->rx)
                abort();
        }
        memcpy(s->rx + s->rx_len, in, len);
        s->rx_len += len;
        if (last) {
            seat_message(s, s->rx, s->rx_len);
            s->rx_len = 0;
        }
        return 0;
    }
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        if (s->out) {
            if (s->sent_at)
                *s->sent_at = now_s();
            int n = lws_write(wsi, (unsigned char *)s->out + LWS_PRE, s->out_len, LWS_WRITE_TEXT);
            free(s->out);
            s->out = NULL;
            if (n < 0)
                return -1;
        }
        return 0;
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if (B.phase != 4 && len >= 2) {
            char why[160];
            const unsigned char *p = in;
            snprintf(why, sizeof why, "status %d, %.*s", p[0] << 8 | p[1], (int)(len - 2),
                     (const char *)in + 2);
            fail("the server closed a socket", why);
        }
        return 0;
    case LWS_CALLBACK_CLIENT_CLOSED:
        s->state = ST_CLOSED;
        s->wsi = NULL;
        if (B.phase != 4) {
            char why[160];
            snprintf(why, sizeof why,
                     "table %d seat %d, in phase %d, %d of %d seats welcomed, after %.1f s",
                     s->tab ? s->tab->id : -1, s->idx, B.phase, B.welcomed, B.total,
                     now_s() - B.t_join0);
            fail("a socket closed without a close frame (a seat the server dropped, e.g. because "
                 "its send "
                 "queue was full, whose close frame was still behind unread data)",
                 why);
        }
        return 0;
    default:
        return 0;
    }
}

static const struct lws_protocols PROTOCOLS[] = {
    {"tabled.v1", callback_client, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(double p)
{
    if (!B.n_lat)
        return 0;
    size_t i = (size_t)ceil(p / 100.0 * (double)B.n_lat);
    return B.lat[i ? i - 1 : 0];
}

static void alloc_tables(void)
{
    B.tabs = calloc((size_t)B.tables, sizeof *B.tabs);
    for (int k = 0; k < B.tables; k++) {
        table *t = &B.tabs[k];
        t->id = k;
        t->seats = calloc((size_t)B.seats, sizeof *t->seats);
        t->cids = calloc((size_t)B.seats, sizeof *t->cids);
        for (int i = 0; i < B.seats; i++) {
            t->seats[i].tab = t;
            t->seats[i].idx = i;
        }
    }
    B.total = B.tables * B.seats;
}

static int save_tokens(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "%d %d\n", B.tables, B.seats);
    for (int k = 0; k < B.tables; k++)
        for (int i = 0; i < B.seats; i++)
            fprintf(f, "%s %lld\n", B.tabs[k].seats[i].token, B.tabs[k].seats[i].seq);
    return fclose(f);
}

static int load_tokens(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f || fscanf(f, "%d %d", &B.tables, &B.seats) != 2 || B.tables < 1 || B.seats < 2) {
        if (f)
            fclose(f);
        return -1;
    }
    alloc_tables();
    for (int k = 0; k < B.tables; k++)
        for (int i = 0; i < B.seats; i++) {
            seat *s = &B.tabs[k].seats[i];
            if (fscanf(f, "%63s %lld", s->token, &s->seq) != 2) {
                fclose(f);
                return -1;
            }
        }
    fclose(f);
    return 0;
}

static void tick(lws_sorted_usec_list_t *sul)
{
    lws_sul_schedule(B.ctx, 0, sul, tick, 100 * LWS_US_PER_MS);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: bench_load --port N [--relay] [--pid PID] [--host-token TOK]\n"
            "                  [--tables T] [--seats S] [--seconds X] [--commands N] [--idle]\n"
            "                  [--window W] [--save FILE | --resume FILE] [--timeout SECONDS]\n"
            "                  [--settle SECONDS] [--hold SECONDS] [--route KEY]\n"
            "                  [--system SYS] [--scene MODULE [--map [--image-chars N]\n"
            "                  [--moves K]]]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    B.tables = 1;
    B.seats = 8;
    B.window = 64;
    B.seconds = 5;
    B.timeout = 300;
    B.settle = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--relay"))
            B.relay = 1;
        else if (!strcmp(a, "--map"))
            B.map = 1;
        else if (!strcmp(a, "--idle"))
            B.idle = 1;
        else if (!v)
            usage();
        else if (!strcmp(a, "--port"))
            B.port = atoi(argv[++i]);
        else if (!strcmp(a, "--pid"))
            B.pid = atol(argv[++i]);
        else if (!strcmp(a, "--host-token"))
            B.host_token = argv[++i];
        else if (!strcmp(a, "--tables"))
            B.tables = atoi(argv[++i]);
        else if (!strcmp(a, "--seats"))
            B.seats = atoi(argv[++i]);
        else if (!strcmp(a, "--seconds"))
            B.seconds = atof(argv[++i]);
        else if (!strcmp(a, "--commands"))
            B.commands = atoi(argv[++i]);
        else if (!strcmp(a, "--window"))
            B.window = atoi(argv[++i]);
        else if (!strcmp(a, "--save"))
            B.save = argv[++i];
        else if (!strcmp(a, "--resume"))
            B.resume = argv[++i];
        else if (!strcmp(a, "--settle"))
            B.settle = atof(argv[++i]);
        else if (!strcmp(a, "--hold"))
            B.hold = atof(argv[++i]);
        else if (!strcmp(a, "--timeout"))
            B.timeout = atof(argv[++i]);
        else if (!strcmp(a, "--route"))
            B.route = argv[++i];
        else if (!strcmp(a, "--system"))
            B.system = argv[++i];
        else if (!strcmp(a, "--scene"))
            B.scene = argv[++i];
        else if (!strcmp(a, "--moves"))
            B.moves = atoi(argv[++i]);
        else if (!strcmp(a, "--image-chars"))
            B.image_chars = atoi(argv[++i]);
        else
            usage();
    }
    B.image_chars = B.image_chars ? B.image_chars : 59990;
    if (!B.port || B.tables < 1 || B.seats < 2 || B.window < 1 ||
        (!B.relay && !B.resume && !B.host_token) || (B.map && !B.scene) || (B.moves && !B.map) ||
        B.moves < 0 || B.image_chars < 100 || B.image_chars > 60000 || (B.scene && B.resume))
        usage();
    /* a module's system is the part of its name before the dot (heimr.combat: heimr) */
    static char sys[40];
    if (!B.system && B.scene) {
        snprintf(sys, sizeof sys, "%.*s", (int)strcspn(B.scene, "."), B.scene);
        B.system = sys;
    }
    if (!B.system)
        B.system = "generic";
    if (B.resume) {
        if (load_tokens(B.resume)) {
            fprintf(stderr, "bench_load: cannot read %s\n", B.resume);
            return 2;
        }
    } else {
        alloc_tables();
    }

    /* one socket per seat: raise our own descriptor limit as far as allowed */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.pt_serv_buf_size = 65536; /* read big chunks: the presence lists of a big table */
    info.protocols = PROTOCOLS;
    B.ctx = lws_create_context(&info);
    if (!B.ctx) {
        fprintf(stderr, "bench_load: cannot create the lws context\n");
        return 1;
    }
    /* the relay's frame: as long as tabled's diff of a d20+5 roll (see README) */
    B.relay_len = 300;
    B.relay_payload = malloc(B.relay_len);
    memset(B.relay_payload, ' ', B.relay_len);
    memcpy(B.relay_payload + B.relay_len - 2, "\"}", 2);
    memcpy(B.relay_payload + 40, "\"pad\":\"", 7);

    lws_sorted_usec_list_t sul;
    memset(&sul, 0, sizeof sul);
    tick(&sul);
    double t_start = now_s();
    if (B.relay || B.resume) {
        start_joins();
    } else {
        B.host.is_host = 1;
        B.host.idx = -1;
        B.phase = 0;
        seat_connect(&B.host);
    }
    while (B.phase != 4) {
        if (lws_service(B.ctx, 0) < 0)
            fail("lws_service failed", NULL);
        if (now_s() - t_start > B.timeout)
            fail("timed out", B.phase == 1   ? "joining"
                              : B.phase == 2 ? "warm-up"
                              : B.phase == 5 ? "the scenes' set-up"
                                             : "load");
    }
    if (!B.idle && !B.failed) {
        srv_cpu1 = B.pid ? proc_cpu_us(B.pid) : -1;
        cli_cpu1 = self_cpu_us();
    }
    if (B.save && !B.failed && save_tokens(B.save))
        fprintf(stderr, "bench_load: cannot write %s\n", B.save);
    if (B.idle && !B.failed) {
        /* idle seats: measured after they were idle a while (the server may give back heap
         * on a timer) */
        for (double t_idle = now_s(); now_s() - t_idle < B.settle;)
            lws_service(B.ctx, 0);
        rss_after = B.pid ? proc_rss_kb(B.pid) : -1;
    }
    if (B.hold > 0 && !B.failed) {
        /* keep the seats connected (for a look at the server from outside) */
        fprintf(stderr, "bench_load: holding %d seats for %.0f s\n", B.total, B.hold);
        for (double t_hold = now_s(); now_s() - t_hold < B.hold;)
            lws_service(B.ctx, 0);
    }

    qsort(B.lat, B.n_lat, sizeof *B.lat, cmp_double);
    double load_s = B.t_load1 - B.t_load0;
    json_t *out =
        json_pack("{s:s, s:i, s:i, s:i, s:f, s:I, s:I, s:f}", "server",
                  B.relay ? "relay" : "tabled", "tables", B.tables, "seats", B.seats, "seated",
                  B.total, "join_s", B.t_join1 - B.t_join0, "rss_before_kb", (json_int_t)rss_before,
                  "rss_after_kb", (json_int_t)rss_after, "rss_per_seat_b",
                  rss_before > 0 ? (double)(rss_after - rss_before) * 1024.0 / B.total : -1);
    if (!B.idle && B.n_lat) {
        double srv = srv_cpu1 - srv_cpu0, cli = cli_cpu1 - cli_cpu0;
        json_object_set_new(out, "commands", json_integer((json_int_t)B.n_lat));
        json_object_set_new(out, "load_s", json_real(load_s));
        json_object_set_new(out, "cmds_per_s", json_real((double)B.n_lat / load_s));
        json_object_set_new(out, "lat_us",
                            json_pack("{s:f, s:f, s:f, s:f}", "p50", pct(50), "p90", pct(90), "p99",
                                      pct(99), "max", B.lat[B.n_lat - 1]));
        json_object_set_new(out, "srv_cpu_us_per_cmd", json_real(srv / (double)B.n_lat));
        json_object_set_new(out, "srv_cpu_pct", json_real(srv / load_s / 1e4));
        json_object_set_new(out, "cli_cpu_pct", json_real(cli / load_s / 1e4));
    }
    /* --idle: every message of the joins or resumes (and the warm-up command) */
    json_object_set_new(out, "frames_rx", json_integer(B.frames_rx));
    json_object_set_new(out, "bytes_rx", json_integer(B.bytes_rx));
    json_object_set_new(out, "ok", json_boolean(!B.failed));
    char *text = json_dumps(out, JSON_COMPACT);
    puts(text);
    free(text);
    json_decref(out);
    lws_context_destroy(B.ctx);
    return B.failed ? 1 : 0;
}
