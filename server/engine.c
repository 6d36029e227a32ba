/*
 * engine.c — small helpers, connections, life cycle, metrics (the pipeline: engine_int.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_int.h"
#include "fanout.h"
#include "playerseq.h"

static const double BUCKETS[N_BUCKETS] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                          0.05,   0.1,   0.25,   0.5,   1.0,  2.5};

/* ---- small helpers ------------------------------------------------------------------------ */

/* Monotonic time in nanoseconds (rate limits, latency). */
uint64_t engine__mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wall-clock time in milliseconds (event and log timestamps). */
int64_t engine__wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The time a command that will be event `seq` sees: the wall clock, or the test clock. */
int64_t engine__command_ms(const engine *e, int64_t seq)
{
    return e->opt.test_clock_ms ? e->opt.test_clock_ms + seq * 1000 : engine__wall_ms();
}

/* Serializes and frees a message built by protocol/. Returns a new malloc'd string. */
char *engine__dump_free(json_t *msg)
{
    char *s = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!s) {
        fprintf(stderr, "tabled: cannot serialize a message\n");
        abort();
    }
    return s;
}

/* Lends m to c's transport (which takes its own reference if it queues it). */
void engine__send_shared(engine_conn *c, engine_msg *m)
{
    if (m && !c->dead && !c->closing)
        c->sink.send(c->ctx, m);
}

/* A message for one connection only. */
void engine__send_text(engine_conn *c, const char *text)
{
    if (c->dead || c->closing)
        return;
    engine_msg *m = fanout_msg_new(c->headroom, text, strlen(text));
    engine__send_shared(c, m);
    engine_msg_unref(m);
}

/* Serializes msg (stolen) and sends it to c alone. */
void engine__send_msg(engine_conn *c, json_t *msg)
{
    char *s = engine__dump_free(msg);
    engine__send_text(c, s);
    free(s);
}

/* Sends c an error message {code, message}. */
void engine__send_error(engine_conn *c, tb_code code, const char *message)
{
    engine__send_msg(c, proto_msg_error(code, message));
}

/* Asks the transport to close c after what is queued (once; never for a dead connection). */
void engine__close_conn(engine_conn *c, int status, const char *reason)
{
    if (c->dead || c->closing)
        return;
    c->closing = 1;
    c->sink.close(c->ctx, status, reason);
}

/* Base64url without padding, for tokens. */
void engine__mint_token(rules_rng *rng, char out[23])
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    uint8_t b[18];
    for (int i = 0; i < 18; i++)
        b[i] = (uint8_t)rules_rng_below(rng, 256);
    /* 128 bits of entropy: 22 characters × 6 bits = 132 bits, the top 4 of b[16] kept random */
    for (int i = 0, j = 0; i < 18 && j < 22; i += 3) {
        uint32_t v = (uint32_t)b[i] << 16 | (uint32_t)b[i + 1] << 8 | b[i + 2];
        for (int k = 3; k >= 0 && j < 22; k--)
            out[j++] = A[(v >> (6 * k)) & 63];
    }
    out[22] = '\0';
}

void engine_mint_token(rules_rng *rng, char out[23])
{
    engine__mint_token(rng, out);
}

/* A campaign id: 'c' and 9 Crockford base32 characters from rng, into out. */
void engine__mint_id(rules_rng *rng, char out[11])
{
    static const char A[] = "0123456789abcdefghjkmnpqrstvwxyz";
    out[0] = 'c';
    for (int i = 1; i < 10; i++)
        out[i] = A[rules_rng_below(rng, 32)];
    out[10] = '\0';
}

/* The loaded campaign with this id (borrowed), or NULL. */
campaign *engine__find_campaign(const engine *e, const char *id)
{
    for (campaign *k = e->camps; k; k = k->next)
        if (strcmp(k->id, id) == 0)
            return k;
    return NULL;
}

/* The state the next command runs on: this turn's uncommitted state, else the committed one
 * (borrowed; shared with the committed state, never to be changed: workcopy.h). */
json_t *engine__current_state(const campaign *k)
{
    return k->work ? k->work : k->state;
}

/* The seq of engine__current_state. */
int64_t engine__current_seq(const campaign *k)
{
    return k->work ? k->work_seq : k->seq;
}

/* The run-time record of seat id in k (borrowed), created on first use. */
seat_rt *engine__seat_rt_get(campaign *k, const char *id)
{
    for (seat_rt *s = k->seats; s; s = s->next)
        if (strcmp(s->id, id) == 0)
            return s;
    seat_rt *s = xcalloc(1, sizeof *s);
    s->id = xstrdup(id);
    s->tokens = -1; /* filled on first use */
    s->next = k->seats;
    k->seats = s;
    return s;
}

/* Counts one command by op and outcome for /metrics. */
void engine__count_outcome(engine *e, const char *op, const char *outcome)
{
    counter *c;
    for (c = e->counters; c; c = c->next)
        if (strcmp(c->op, op) == 0 && strcmp(c->outcome, outcome) == 0)
            break;
    if (!c) {
        c = xcalloc(1, sizeof *c);
        c->op = xstrdup(op);
        c->outcome = xstrdup(outcome);
        c->next = e->counters;
        e->counters = c;
    }
    c->n++;
}

/* Adds the time since t0 (engine__mono_ns) to the command latency histogram. */
void engine__observe_latency(engine *e, uint64_t t0)
{
    double s = (double)(engine__mono_ns() - t0) / 1e9;
    int i = 0;
    while (i < N_BUCKETS && s > BUCKETS[i])
        i++;
    e->hist[i]++;
    e->hist_sum += s;
    e->hist_count++;
}

/* Frees k and its run-time seat records (its connections are not freed). */
void engine__free_campaign(campaign *k)
{
    json_decref(k->state);
    json_decref(k->work);
    while (k->seats) {
        seat_rt *s = k->seats;
        k->seats = s->next;
        free(s->id);
        free(s);
    }
    free(k->id);
    free(k);
}

/* ---- connections -------------------------------------------------------------------------- */

engine_conn *engine_conn_open(engine *e, const engine_sink *sink, void *ctx)
{
    engine_conn *c = xcalloc(1, sizeof *c);
    c->sink = *sink;
    c->ctx = ctx;
    c->headroom = e->opt.headroom;
    c->host_bucket.tokens = -1;
    c->bad_since = engine__mono_ns();
    c->all_next = e->conns;
    e->conns = c;
    return c;
}

void engine_conn_set_peer(engine_conn *c, const char *addr)
{
    snprintf(c->peer, sizeof c->peer, "%s", addr ? addr : "");
}

void engine_conn_refuse_join(engine_conn *c)
{
    c->no_join = 1;
}

enum engine_seated engine_conn_seated(const engine_conn *c)
{
    return c->role == ROLE_NONE     ? ENGINE_SEATED_NONE
           : c->role == ROLE_PLAYER ? ENGINE_SEATED_PLAYER
                                    : ENGINE_SEATED_GM;
}

void engine_conn_closed(engine *e, engine_conn *c)
{
    c->dead = 1;
    engine__detach(c);
    /* Held replies may still name this connection: it is freed once the batch is delivered. */
    int held = 0;
    for (pending *p = e->head; p; p = p->next)
        if (p->conn == c)
            held = 1;
    if (held)
        return;
    for (engine_conn **pp = &e->conns; *pp; pp = &(*pp)->all_next) {
        if (*pp == c) {
            *pp = c->all_next;
            break;
        }
    }
    free(c->seat);
    free(c);
}

/* Frees connections that died while a batch held replies for them. */
void engine__reap_dead(engine *e)
{
    for (engine_conn **pp = &e->conns; *pp;) {
        engine_conn *c = *pp;
        if (c->dead) {
            *pp = c->all_next;
            free(c->seat);
            free(c);
        } else {
            pp = &c->all_next;
        }
    }
}

/* ---- life cycle --------------------------------------------------------------------------- */

void engine_opts_default(engine_opts *o)
{
    o->snapshot_every = 100;
    o->rate_per_sec = 20;
    o->rate_burst = 40;
    o->resume_max = 1000;
    o->log_cap = 200;
    o->headroom = 0;
#ifdef TABLED_CHECK_SHARED
    o->check_shared = 1;
#else
    o->check_shared = 0;
#endif
    o->join_free_per_addr = 5;
    o->join_free_all = 50;
    o->max_per_seat = 8;
    o->max_seats = 100;
    o->seats_per_addr = 20;
}

/* Seats per address (issue 27 item 4): opt.seats_per_addr new seats, then a wait before each
 * next one, from 3 minutes doubling to an hour; forgotten after an hour without a new seat. With
 * 0, no limit (the limiter never waits). */
static joinlimit_opts seats_limit(const engine_opts *o)
{
    /* the wait starts with the failure past free_fails: the seats_per_addr-th seat sets it */
    joinlimit_opts l = {o->seats_per_addr > 0 ? o->seats_per_addr - 1 : 1 << 30, 3 * 60000, 3600000,
                        3600000, 4096};
    return l;
}

void engine_set_limits(engine *e, const engine_opts *opts)
{
    e->opt.rate_per_sec = opts->rate_per_sec;
    e->opt.max_per_seat = opts->max_per_seat;
    e->opt.max_seats = opts->max_seats;
    if (e->opt.seats_per_addr != opts->seats_per_addr) {
        e->opt.seats_per_addr = opts->seats_per_addr;
        joinlimit_opts l = seats_limit(&e->opt);
        joinlimit_destroy(e->seats_by_addr);
        e->seats_by_addr = joinlimit_create(&l);
    }
}

/*
 * Brings a campaign just loaded to the current shape of the state (ops_state_upgrade) as one
 * event of its own (op "state.upgrade", seat "server"), committed before any client connects, so
 * the event log still replays to the live state and a client resuming from an older seq is sent
 * the change as a diff filtered for its seat. 0, or the store's error (nothing changed then).
 */
static int upgrade_campaign(engine *e, campaign *k, tb_err *err)
{
    json_t *next = json_deep_copy(k->state);
    if (!ops_state_upgrade(next)) {
        json_decref(next);
        return 0;
    }
    json_t *patch = proto_patch_diff(k->state, next), *none = json_object();
    playerseq_advance(k->state, k->seq, next, patch); /* the player seq counts it too */
    store_event ev = {.campaign = k->id,
                      .seq = k->seq + 1,
                      .seat = "server",
                      .op = "state.upgrade",
                      .args = none,
                      .result = none,
                      .patch = patch,
                      .at_ms = engine__command_ms(e, k->seq + 1)};
    int r = store_begin(e->st, err);
    if (!r) {
        r = store_event_append(e->st, &ev, err);
        if (!r)
            r = store_commit(e->st, err);
        if (r)
            store_rollback(e->st);
    }
    json_decref(patch);
    json_decref(none);
    if (r) {
        json_decref(next);
        return r;
    }
    json_decref(k->state);
    k->state = next;
    k->seq++;
    return 0;
}

int engine_create(store *st, rules_rng *dice, rules_rng *secret, const engine_opts *opts,
                  engine **out, tb_err *err)
{
    engine *e = xcalloc(1, sizeof *e);
    e->st = st;
    e->dice = dice;
    e->secret = secret;
    if (opts)
        e->opt = *opts;
    else
        engine_opts_default(&e->opt);
    snprintf(e->history, sizeof e->history, "%s", e->opt.history ? e->opt.history : "");
    e->opt.history = NULL; /* the copy above is the engine's */
    /* Per address: 5 free failures, then 1 s, 2 s, 4 s … up to a minute; forgotten after 15
     * quiet minutes. Server-wide: 50 free failures, then 250 ms doubling up to 15 s, forgotten
     * after a quiet minute, so a guessing swarm costs real players at most a short wait. */
    joinlimit_opts per_addr = {e->opt.join_free_per_addr, 1000, 60000, 15 * 60000, 4096};
    joinlimit_opts all = {e->opt.join_free_all, 250, 15000, 60000, 1};
    joinlimit_opts seats = seats_limit(&e->opt);
    e->join_by_addr = joinlimit_create(&per_addr);
    e->join_all = joinlimit_create(&all);
    e->seats_by_addr = joinlimit_create(&seats);
    json_t *ids;
    if (store_campaign_ids(st, &ids, err)) {
        joinlimit_destroy(e->join_by_addr);
        joinlimit_destroy(e->join_all);
        joinlimit_destroy(e->seats_by_addr);
        free(e);
        return err->code;
    }
    size_t i;
    json_t *v;
    campaign **tail = &e->camps;
    json_array_foreach(ids, i, v)
    {
        campaign *k = xcalloc(1, sizeof *k);
        k->id = xstrdup(json_string_value(v));
        if (store_campaign_load(st, k->id, 0, &k->state, &k->seq, err)) {
            free(k->id);
            free(k);
            json_decref(ids);
            engine_destroy(e);
            return err->code;
        }
        k->snap_seq = k->seq; /* conservatively: the next snapshot comes N events from now */
        *tail = k;
        tail = &k->next;
        if (upgrade_campaign(e, k, err)) {
            json_decref(ids);
            engine_destroy(e);
            return err->code;
        }
    }
    json_decref(ids);
    *out = e;
    return TB_OK;
}

int engine_snapshot_all(engine *e, tb_err *err)
{
    engine_flush(e);
    int r = store_begin(e->st, err);
    if (r)
        return r;
    for (campaign *k = e->camps; k && !r; k = k->next)
        if (k->seq > 0 && k->snap_seq < k->seq)
            r = store_snapshot_put(e->st, k->id, k->seq, k->state, err);
    if (!r)
        r = store_commit(e->st, err);
    if (r) {
        store_rollback(e->st);
        return r;
    }
    for (campaign *k = e->camps; k; k = k->next)
        k->snap_seq = k->seq;
    return TB_OK;
}

void engine_destroy(engine *e)
{
    if (!e)
        return;
    tb_err err;
    if (engine_snapshot_all(e, &err)) /* flushes first */
        fprintf(stderr, "tabled: snapshot at shutdown failed: %s\n", err.msg);
    engine__reap_dead(e);
    while (e->conns) {
        engine_conn *c = e->conns;
        e->conns = c->all_next;
        free(c->seat);
        free(c);
    }
    while (e->camps) {
        campaign *k = e->camps;
        e->camps = k->next;
        engine__free_campaign(k);
    }
    joinlimit_destroy(e->join_by_addr);
    joinlimit_destroy(e->join_all);
    joinlimit_destroy(e->seats_by_addr);
    while (e->counters) {
        counter *c = e->counters;
        e->counters = c->next;
        free(c->op);
        free(c->outcome);
        free(c);
    }
    free(e);
}

char *engine_mint_host_token(engine *e, tb_err *err)
{
    char token[23];
    engine__mint_token(e->secret, token);
    if (store_token_put(e->st, token, STORE_HOST, "host", engine__wall_ms(), err))
        return NULL;
    return xstrdup(token);
}

int engine_ensure_campaign(engine *e, tb_err *err)
{
    if (e->camps)
        return TB_OK;
    if (engine__ensure_tx(e, err))
        return err->code;
    char gm_token[23], code[10];
    pending *p = engine__push_pending(e, NULL, NULL, "campaign.create");
    if (!engine__create_campaign(e, "My campaign", "generic", gm_token, code, p, err))
        e->batch_failed = 1;
    engine_flush(e);
    if (!e->camps)
        return tb_fail(err, TB_INTERNAL, "could not create the first campaign");
    return TB_OK;
}

int engine_each_gm_link(engine *e, engine_link_fn fn, void *ctx, tb_err *err)
{
    for (campaign *k = e->camps; k; k = k->next) {
        char token[23];
        engine__mint_token(e->secret, token);
        if (store_token_put(e->st, token, k->id, "gm", engine__wall_ms(), err))
            return err->code;
        json_t *join = json_object_get(json_object_get(k->state, "gm"), "join");
        const char *code = json_is_true(json_object_get(join, "open"))
                               ? json_string_value(json_object_get(join, "code"))
                               : NULL;
        fn(ctx, k->id,
           json_string_value(json_object_get(json_object_get(k->state, "campaign"), "name")), token,
           code);
    }
    return TB_OK;
}

int engine_gm_join(engine *e, const char *token, char code[33], tb_err *err)
{
    char *camp_id = NULL, *seat = NULL;
    int r = store_token_find(e->st, token, &camp_id, &seat, err);
    if (r)
        return r;
    campaign *k = strcmp(camp_id, STORE_HOST) == 0 ? NULL : engine__find_campaign(e, camp_id);
    json_t *seat_obj = k ? json_object_get(json_object_get(k->state, "seats"), seat) : NULL;
    const char *role = json_string_value(json_object_get(seat_obj, "role"));
    if (!seat_obj) {
        r = tb_fail(err, TB_UNAUTHORIZED, "unknown or revoked token");
    } else if (!role || strcmp(role, "gm") != 0) {
        r = tb_fail(err, TB_FORBIDDEN, "only the GM may see the join code");
    } else {
        json_t *join = json_object_get(json_object_get(k->state, "gm"), "join");
        const char *c = json_string_value(json_object_get(join, "code"));
        if (!c || !json_is_true(json_object_get(join, "open")))
            r = tb_fail(err, TB_CONFLICT, "joining is closed");
        else
            snprintf(code, 33, "%s", c);
    }
    free(camp_id);
    free(seat);
    return r;
}

int engine_campaign_count(const engine *e)
{
    int n = 0;
    for (campaign *k = e->camps; k; k = k->next)
        n++;
    return n;
}

const json_t *engine_campaign_state(const engine *e, const char *campaign_id, int64_t *seq)
{
    campaign *k = engine__find_campaign(e, campaign_id);
    if (!k)
        return NULL;
    if (seq)
        *seq = k->seq;
    return k->state;
}

static void appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < *cap - *len) {
            *len += (size_t)n;
            return;
        }
        *cap = *cap * 2 + (size_t)(n > 0 ? n : 0);
        *buf = xrealloc(*buf, *cap);
    }
}

char *engine_metrics_text(const engine *e)
{
    size_t len = 0, cap = 4096;
    char *buf = xmalloc(cap);
    buf[0] = '\0';
    appendf(&buf, &len, &cap,
            "# HELP tabled_campaigns Campaigns loaded in this process.\n"
            "# TYPE tabled_campaigns gauge\ntabled_campaigns %d\n",
            engine_campaign_count(e));
    appendf(&buf, &len, &cap,
            "# HELP tabled_commands_total Commands by op and outcome (ack or the nack code).\n"
            "# TYPE tabled_commands_total counter\n");
    for (counter *c = e->counters; c; c = c->next)
        appendf(&buf, &len, &cap, "tabled_commands_total{op=\"%s\",outcome=\"%s\"} %llu\n", c->op,
                c->outcome, (unsigned long long)c->n);
    appendf(&buf, &len, &cap,
            "# HELP tabled_command_seconds Time from receipt to the commit that made a command"
            " durable.\n# TYPE tabled_command_seconds histogram\n");
    uint64_t cum = 0;
    for (int i = 0; i < N_BUCKETS; i++) {
        cum += e->hist[i];
        appendf(&buf, &len, &cap, "tabled_command_seconds_bucket{le=\"%g\"} %llu\n", BUCKETS[i],
                (unsigned long long)cum);
    }
    cum += e->hist[N_BUCKETS];
    appendf(&buf, &len, &cap,
            "tabled_command_seconds_bucket{le=\"+Inf\"} %llu\n"
            "tabled_command_seconds_sum %.6f\ntabled_command_seconds_count %llu\n",
            (unsigned long long)cum, e->hist_sum, (unsigned long long)e->hist_count);
    appendf(&buf, &len, &cap,
            "# HELP tabled_commits_total Transactions committed (one per loop turn with"
            " commands).\n# TYPE tabled_commits_total counter\ntabled_commits_total %llu\n",
            (unsigned long long)e->commits);
    return buf;
}
