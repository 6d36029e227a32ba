/*
 * engine.c — small helpers, connections, life cycle, metrics (the pipeline: engine_int.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "encmemo.h"
#include "engine_int.h"
#include "fanout.h"
#include "moved.h"
#include "playerseq.h"
#include "roster.h"

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

/* Two strings, either of which may be NULL, are equal. */
int engine__str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Serializes and frees a message built by protocol/. Returns a new malloc'd string. */
char *engine__dump_free(json_t *msg)
{
    char *s = proto_json_dump(msg, NULL);
    json_decref(msg);
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
    if (!c->dead && !c->closing) {
        engine_msg *m = fanout_msg_json(c->headroom, msg);
        engine__send_shared(c, m);
        engine_msg_unref(m);
    }
    json_decref(msg);
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

static size_t camp_hash(const char *id)
{
    size_t h = 5381;
    for (; *id; id++)
        h = h * 33 + (unsigned char)*id;
    return h;
}

/* The loaded campaign with this id (borrowed), or NULL. */
campaign *engine__find_campaign(const engine *e, const char *id)
{
    if (!e->ntab)
        return NULL;
    for (campaign *k = e->tab[camp_hash(id) % e->ntab]; k; k = k->hnext)
        if (strcmp(k->id, id) == 0)
            return k;
    return NULL;
}

/* Makes k (new, not loaded yet) a loaded campaign: in the table and at the end of the ring. */
void engine__campaign_add(engine *e, campaign *k)
{
    if (e->nloaded + 1 > e->ntab) {
        size_t n = e->ntab ? e->ntab * 2 : 64;
        campaign **tab = xcalloc(n, sizeof *tab);
        for (size_t i = 0; i < e->ntab; i++)
            for (campaign *c = e->tab[i], *next; c; c = next) {
                next = c->hnext;
                size_t b = camp_hash(c->id) % n;
                c->hnext = tab[b];
                tab[b] = c;
            }
        free(e->tab);
        e->tab = tab;
        e->ntab = n;
    }
    size_t b = camp_hash(k->id) % e->ntab;
    k->hnext = e->tab[b];
    e->tab[b] = k;
    if (e->loaded) {
        k->next = e->loaded;
        k->prev = e->loaded->prev;
        k->prev->next = k;
        e->loaded->prev = k;
    } else {
        e->loaded = k->next = k->prev = k;
    }
    e->nloaded++;
    k->idle_since_ns = engine__mono_ns();
}

/* Unloads k: out of the table and the ring, its file closed, freed. k must be on no list (work,
 * presence) and have no connection. */
void engine__campaign_drop(engine *e, campaign *k)
{
    for (campaign **pp = &e->tab[camp_hash(k->id) % e->ntab]; *pp; pp = &(*pp)->hnext)
        if (*pp == k) {
            *pp = k->hnext;
            break;
        }
    if (k->next == k) {
        e->loaded = NULL;
    } else {
        k->prev->next = k->next;
        k->next->prev = k->prev;
        if (e->loaded == k)
            e->loaded = k->next;
    }
    e->nloaded--;
    tb_err err;
    if (store_campaign_close(e->st, k->id, &err))
        fprintf(stderr, "tabled: %s\n", err.msg);
    engine__free_campaign(k);
}

/* Puts k on the list of campaigns written in the open batch (once). */
void engine__mark_work(engine *e, campaign *k)
{
    if (k->in_work)
        return;
    k->in_work = 1;
    k->work_next = e->work;
    e->work = k;
}

/* Marks k's presence to be told at the end of this loop turn (once). */
void engine__mark_presence(engine *e, campaign *k)
{
    if (k->presence_due)
        return;
    k->presence_due = 1;
    k->presence_next = e->presence;
    e->presence = k;
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
static size_t seat_rt_slot(const char *id, size_t cap)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (size_t)(h & (cap - 1));
}

/* The run-time record of seat id, or NULL when it has none yet. A hash look-up: a command's rate
 * bucket, a welcome and the presence list of a 1 000-seat table do not walk every seat. */
seat_rt *engine__seat_rt_find(const campaign *k, const char *id)
{
    if (!k->seat_cap)
        return NULL;
    for (seat_rt *s = k->seat_tab[seat_rt_slot(id, k->seat_cap)]; s; s = s->hnext)
        if (strcmp(s->id, id) == 0)
            return s;
    return NULL;
}

seat_rt *engine__seat_rt_get(campaign *k, const char *id)
{
    seat_rt *s = engine__seat_rt_find(k, id);
    if (s)
        return s;
    if (k->nseat_rt >= k->seat_cap) { /* grow: chains of one on average */
        free(k->seat_tab);
        k->seat_cap = k->seat_cap ? 2 * k->seat_cap : 16;
        k->seat_tab = xcalloc(k->seat_cap, sizeof *k->seat_tab);
        for (seat_rt *o = k->seats; o; o = o->next) {
            size_t i = seat_rt_slot(o->id, k->seat_cap);
            o->hnext = k->seat_tab[i];
            k->seat_tab[i] = o;
        }
    }
    s = xcalloc(1, sizeof *s);
    s->id = xstrdup(id);
    s->tokens = -1; /* filled on first use */
    s->next = k->seats;
    k->seats = s;
    size_t i = seat_rt_slot(id, k->seat_cap);
    s->hnext = k->seat_tab[i];
    k->seat_tab[i] = s;
    k->nseat_rt++;
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
    engine__welcome_cache_clear(&k->wc);
    engine__presence_text_free(&k->wc);
    encmemo_free(k->wc.memo);
    roster_free(k->roster);
    engine__resume_cache_clear(&k->rcache);
    json_decref(k->state);
    json_decref(k->work);
    while (k->seats) {
        seat_rt *s = k->seats;
        k->seats = s->next;
        free(s->id);
        free(s);
    }
    free(k->seat_tab);
    free(k->id);
    free(k);
}

/* ---- connections -------------------------------------------------------------------------- */

engine_conn *engine_conn_open(engine *e, const engine_sink *sink, void *ctx)
{
    engine_conn *c = xcalloc(1, sizeof *c);
    c->eng = e;
    c->sink = *sink;
    c->ctx = ctx;
    c->headroom = e->opt.headroom;
    c->host_bucket.tokens = -1;
    c->bad_since = engine__mono_ns();
    c->all_next = e->conns;
    if (e->conns)
        e->conns->all_prev = c;
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
    return c->role == ROLE_NONE                                ? ENGINE_SEATED_NONE
           : c->role == ROLE_PLAYER || c->role == ROLE_CREATOR ? ENGINE_SEATED_PLAYER
                                                               : ENGINE_SEATED_GM;
}

/* Takes c out of the list of every connection and frees it. */
static void conn_free(engine *e, engine_conn *c)
{
    if (c->all_prev)
        c->all_prev->all_next = c->all_next;
    else
        e->conns = c->all_next;
    if (c->all_next)
        c->all_next->all_prev = c->all_prev;
    free(c->seat);
    free(c);
}

void engine_conn_closed(engine *e, engine_conn *c)
{
    c->dead = 1;
    engine__detach(c);
    /* Held replies (or a join that ran) may still name this connection: it is freed once the
     * batch is delivered. */
    int held = !engine__joiner_gone(c);
    for (pending *p = e->head; p && !held; p = p->next)
        held = p->conn == c;
    if (held) {
        c->dead_next = e->dead;
        e->dead = c;
        return;
    }
    conn_free(e, c);
}

/* Frees connections that died while a batch held replies for them (only those: a walk of the
 * dead list, not of every connection). */
void engine__reap_dead(engine *e)
{
    while (e->dead) {
        engine_conn *c = e->dead;
        e->dead = c->dead_next;
        conn_free(e, c);
    }
}

/* ---- life cycle --------------------------------------------------------------------------- */

void engine_opts_default(engine_opts *o)
{
    *o = (engine_opts){0}; /* every field has a value (history: none) */
    o->snapshot_every = 0;
    o->rate_per_sec = 20;
    o->rate_burst = 40;
    o->resume_max = 1000;
    o->resume_max_bytes = 2 * 1024 * 1024;
    o->log_cap = 200;
    o->headroom = 0;
#ifdef TABLED_CHECK_SHARED
    o->check_shared = 1;
#else
    o->check_shared = 0;
#endif
    o->join_free_per_addr = 5;
    o->join_free_all = 50;
    o->idle_close_ms = 60000;
    o->max_loaded = 0;
    o->links_max = 1000;
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
    e->opt.resume_max_bytes = opts->resume_max_bytes;
    if (e->opt.seats_per_addr != opts->seats_per_addr) {
        e->opt.seats_per_addr = opts->seats_per_addr;
        joinlimit_opts l = seats_limit(&e->opt);
        joinlimit_destroy(e->seats_by_addr);
        e->seats_by_addr = joinlimit_create(&l);
    }
}

/*
 * Brings a campaign just loaded to the current shape of the state (ops_state_upgrade) as one
 * event of its own (op "state.upgrade", seat "server"), committed before any client of the
 * campaign is welcomed, so the event log still replays to the live state and a client resuming
 * from an older seq is sent the change as a diff filtered for its seat. 0, or the store's error
 * (nothing changed then). No batch may be open.
 */
static int upgrade_campaign(engine *e, campaign *k, tb_err *err)
{
    json_t *next = json_deep_copy(k->state);
    if (!ops_state_upgrade(next)) {
        json_decref(next);
        return 0;
    }
    json_t *patch = proto_patch_diff(k->state, next), *none = json_object();
    playerseq_step ps; /* the players' counts count it too */
    playerseq_advance(k->state, k->seq, next, patch, &ps);
    playerseq_step_free(&ps);
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

/* Writes k's summary to the registry on its own (outside a batch); a failure is only logged: the
 * registry is a cache of the campaign's state, written again at the next change or load. */
static void put_summary(engine *e, const campaign *k)
{
    store_summary sum;
    tb_err err;
    store_summary_of_state(k->state, k->seq, &sum);
    if (store_campaign_summary_put(e->st, k->id, &sum, &err) && err.code != TB_NOT_FOUND)
        fprintf(stderr, "tabled: %s\n", err.msg);
}

campaign *engine__campaign_get(engine *e, const char *id, tb_err *err)
{
    campaign *k = engine__find_campaign(e, id);
    if (k && k->moved)
        tb_fail(err, TB_MOVED, "%s", ENGINE_MOVED_MSG);
    if (k)
        return k->moved ? NULL : k;
    int known = store_campaign_exists(e->st, id, err);
    if (known <= 0) {
        if (known == 0)
            tb_fail(err, TB_NOT_FOUND, "no campaign '%.40s'", id);
        return NULL;
    }
    int moved = store_moved_find(e->st, id, NULL, 0, err);
    if (moved) { /* released to another process (host_ops.c): never loaded here again */
        if (moved > 0)
            tb_fail(err, TB_MOVED, "%s", ENGINE_MOVED_MSG);
        return NULL;
    }
    /* Loading commits the campaign's upgrade on its own: the turn's batch goes first. */
    if (store_in_transaction(e->st) || e->head)
        engine_flush(e);
    k = xcalloc(1, sizeof *k);
    k->id = xstrdup(id);
    tb_err why = {0};
    if (store_campaign_load(e->st, id, 0, &k->state, &k->seq, &why)) {
        fprintf(stderr, "tabled: campaign %s cannot be opened: %s\n", id, why.msg);
        tb_fail(err, TB_INTERNAL,
                "this campaign cannot be opened now; the server's operator has "
                "been told");
        store_campaign_close(e->st, id, NULL);
        free(k->id);
        free(k);
        return NULL;
    }
    if (k->seq == 0) { /* registered, so it has its first event: the file is gone */
        fprintf(stderr, "tabled: campaign %s has no events: its file %s/%s.db is missing\n", id,
                store_campaign_dir(e->st), id);
        tb_fail(err, TB_INTERNAL,
                "this campaign cannot be opened now; the server's operator has "
                "been told");
        json_decref(k->state);
        free(k->id);
        free(k);
        return NULL;
    }
    k->snap_seq = k->seq; /* conservatively: the next snapshot comes N events from now */
    engine__campaign_add(e, k);
    if (upgrade_campaign(e, k, &why)) {
        fprintf(stderr, "tabled: campaign %s cannot be upgraded: %s\n", id, why.msg);
        tb_fail(err, TB_INTERNAL,
                "this campaign cannot be opened now; the server's operator has "
                "been told");
        engine__campaign_drop(e, k);
        return NULL;
    }
    put_summary(e, k); /* the registry may lag the file after a failed host commit */
    return k;
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
    if (store_campaign_count(st, &e->n_campaigns, err)) {
        free(e);
        return err->code;
    }
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
    *out = e;
    return TB_OK;
}

/* Snapshots of every loaded campaign whose newest snapshot is older than its seq, with their
 * summaries, in one batch. No batch may be open. */
static int snapshot_loaded(engine *e, tb_err *err)
{
    int r = store_begin(e->st, err);
    if (r)
        return r;
    campaign *k = e->loaded;
    for (size_t i = 0; i < e->nloaded && !r; i++, k = k->next) {
        if (k->seq == 0 || k->snap_seq >= k->seq)
            continue;
        store_summary sum;
        store_summary_of_state(k->state, k->seq, &sum);
        r = store_snapshot_put(e->st, k->id, k->seq, k->state, err);
        if (!r && store_campaign_summary_put(e->st, k->id, &sum, err) && err->code != TB_NOT_FOUND)
            r = err->code;
    }
    if (!r)
        r = store_commit(e->st, err);
    if (r) {
        store_rollback(e->st);
        return r;
    }
    k = e->loaded;
    for (size_t i = 0; i < e->nloaded; i++, k = k->next)
        k->snap_seq = k->seq;
    return TB_OK;
}

int engine_snapshot_all(engine *e, tb_err *err)
{
    engine_flush(e);
    return snapshot_loaded(e, err);
}

/* Puts k away: a snapshot when the newest is older than its seq, its summary (seq and seats) in
 * the registry, its file closed, its memory freed. k is idle (no connection, no batch). */
static void put_away(engine *e, campaign *k)
{
    tb_err err;
    if (k->seq > 0 && k->snap_seq < k->seq) {
        if (store_snapshot_put(e->st, k->id, k->seq, k->state, &err))
            fprintf(stderr, "tabled: snapshot of %s failed: %s\n", k->id, err.msg);
        else
            k->snap_seq = k->seq;
    }
    put_summary(e, k);
    engine__campaign_drop(e, k);
}

int engine_tick(engine *e)
{
    if (!e->nloaded)
        return 0;
    engine_flush(e); /* the turn's batch and presence first: then what is idle is idle */
    uint64_t now = engine__mono_ns(), idle_ns = (uint64_t)e->opt.idle_close_ms * 1000000u;
    int closed = 0;
    campaign *k = e->loaded;
    for (size_t i = 0, n = e->nloaded; i < n; i++) {
        campaign *next = k->next;
        int idle = !k->conns && !k->in_work && !k->presence_due && !k->work && !k->in_joins &&
                   k->idle_since_ns;
        int over = e->opt.max_loaded > 0 && e->nloaded > (size_t)e->opt.max_loaded;
        if (idle && (over || k->moved || now - k->idle_since_ns >= idle_ns)) {
            put_away(e, k);
            closed++;
        }
        k = next;
    }
    return closed;
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
    while (e->loaded) {
        campaign *k = e->loaded;
        k->conns = NULL;
        k->in_work = k->presence_due = 0;
        engine__joiners_drop(k);
        engine__campaign_drop(e, k);
    }
    free(e->tab);
    encmemo_free(e->results);
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
    if (e->n_campaigns > 0)
        return TB_OK;
    if (engine__ensure_tx(e, err))
        return err->code;
    char gm_token[23], code[10];
    pending *p = engine__push_pending(e, NULL, NULL, "campaign.create");
    if (!engine__create_campaign(e, "My campaign", "generic", gm_token, code, p, err))
        e->batch_failed = 1;
    engine_flush(e);
    if (e->n_campaigns == 0)
        return tb_fail(err, TB_INTERNAL, "could not create the first campaign");
    return TB_OK;
}

struct links {
    engine *e;
    engine_link_fn fn;
    void *ctx;
    tb_err *err;
    int left; /* links still to make (opt.links_max) */
};

#define LINKS_ENOUGH (-1) /* link_one's "stop": not an error */

static int link_one(void *ctx, const char *id, const store_summary *sum)
{
    struct links *l = ctx;
    if (store_moved_find(l->e->st, id, NULL, 0, NULL) == 1)
        return 0; /* released to another process (host_ops.c): its links are the new owner's */
    if (l->left-- <= 0)
        return LINKS_ENOUGH;
    char token[23];
    engine__mint_token(l->e->secret, token);
    if (store_token_put(l->e->st, token, id, "gm", engine__wall_ms(), l->err))
        return l->err->code;
    l->fn(l->ctx, id, sum->name ? sum->name : id, token, sum->join_code);
    return 0;
}

int engine_each_gm_link(engine *e, engine_link_fn fn, void *ctx, tb_err *err)
{
    /* The registry holds what a link needs (name, join code): no campaign is loaded for it. One
     * batch for every token: one commit, however many campaigns. */
    engine_flush(e);
    struct links l = {e, fn, ctx, err, e->opt.links_max > 0 ? e->opt.links_max : INT32_MAX};
    int r = store_begin(e->st, err);
    if (!r)
        r = store_campaigns_each(e->st, link_one, &l, err);
    if (r == LINKS_ENOUGH)
        r = TB_OK;
    if (!r)
        r = store_commit(e->st, err);
    else
        store_rollback(e->st);
    return r;
}

int engine_campaign_here(engine *e, const char *id)
{
    campaign *k = engine__find_campaign(e, id);
    if (k)
        return !k->moved;
    return store_campaign_exists(e->st, id, NULL) == 1 &&
           store_moved_find(e->st, id, NULL, 0, NULL) == 0;
}

int engine_gm_join(engine *e, const char *token, char code[33], tb_err *err)
{
    char *camp_id = NULL, *seat = NULL;
    int r = store_token_find(e->st, token, &camp_id, &seat, err);
    if (r)
        return r;
    tb_err why = {0};
    campaign *k = strcmp(camp_id, STORE_HOST) == 0 ? NULL : engine__campaign_get(e, camp_id, &why);
    json_t *seat_obj = k ? json_object_get(json_object_get(k->state, "seats"), seat) : NULL;
    const char *role = json_string_value(json_object_get(seat_obj, "role"));
    if (!k && why.code == TB_MOVED) {
        r = tb_fail(err, TB_MOVED, "%s", why.msg);
    } else if (!seat_obj) {
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
    return (int)e->n_campaigns;
}

int engine_campaigns_loaded(const engine *e)
{
    return (int)e->nloaded;
}

const json_t *engine_campaign_state(engine *e, const char *campaign_id, int64_t *seq)
{
    campaign *k = engine__campaign_get(e, campaign_id, NULL);
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
            "# TYPE tabled_campaigns gauge\ntabled_campaigns %d\n"
            "# HELP tabled_campaigns_stored Campaigns in this process's data directory.\n"
            "# TYPE tabled_campaigns_stored gauge\ntabled_campaigns_stored %d\n",
            engine_campaigns_loaded(e), engine_campaign_count(e));
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
