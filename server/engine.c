#include "engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "joinlimit.h"
#include "ops.h"
#include "protocol.h"

/* ---- structures ----------------------------------------------------------------------------- */

enum role { ROLE_NONE = 0, ROLE_HOST, ROLE_GM, ROLE_PLAYER };

/* Run-time facts about a seat that are not part of the state: presence and the rate bucket. */
typedef struct seat_rt {
    char *id;
    int online;      /* connections welcomed as this seat */
    double tokens;   /* rate-limit bucket */
    uint64_t last_ns;
    struct seat_rt *next;
} seat_rt;

typedef struct campaign {
    char *id;
    json_t *state; /* committed */
    int64_t seq;
    json_t *work; /* state after this turn's uncommitted events; NULL when none */
    int64_t work_seq;
    int64_t snap_seq; /* seq of the newest snapshot written */
    int fresh;        /* created in the open transaction: dropped if it rolls back */
    int changed;      /* its state changed in the batch being delivered */
    engine_conn *conns;
    seat_rt *seats;
    struct campaign *next;
} campaign;

struct engine_conn {
    engine_sink sink;
    void *ctx;
    enum role role;
    campaign *camp; /* NULL for the host and before hello */
    char *seat;
    int dead;
    int closing;
    int joins;
    char peer[64];        /* remote address ("" when the transport gave none) */
    int no_join;          /* admitted into the room kept for the GM: join is refused */
    int bad;              /* refused messages in the current window */
    uint64_t bad_since;   /* start of the window */
    seat_rt host_bucket;  /* the host has no campaign: its bucket lives here */
    engine_conn *camp_next;
    engine_conn *all_next;
};

/* One held reply or event of the open batch, in arrival order. */
typedef struct pending {
    engine_conn *conn; /* the sender; replies skip it if it died meanwhile */
    campaign *camp;    /* events only */
    int64_t seq;       /* events only */
    json_t *patch;     /* events only */
    char *reply;       /* ack/nack text for the sender, may be NULL */
    char *cmd_id;
    char *op_label; /* metrics: the op, or "unknown" */
    char *outcome;  /* metrics: "ack" or the nack code */
    uint64_t t0_ns;
    struct pending *next;
} pending;

#define N_BUCKETS 12
static const double BUCKETS[N_BUCKETS] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                          0.05,   0.1,   0.25,   0.5,   1.0,  2.5};

typedef struct counter {
    char *op;
    char *outcome;
    uint64_t n;
    struct counter *next;
} counter;

struct engine {
    store *st;
    rules_rng *dice;
    rules_rng *secret;
    engine_opts opt;
    campaign *camps;
    engine_conn *conns;
    pending *head, *tail;
    int batch_failed;
    joinlimit *join_by_addr; /* failed joins per remote address */
    joinlimit *join_all;     /* failed joins against every campaign of this server */
    /* metrics */
    counter *counters;
    uint64_t hist[N_BUCKETS + 1];
    double hist_sum;
    uint64_t hist_count;
    uint64_t commits;
};

/* ---- small helpers ------------------------------------------------------------------------ */

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Serializes and frees a message built by protocol/. Returns a new malloc'd string. */
static char *dump_free(json_t *msg)
{
    char *s = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!s) {
        fprintf(stderr, "tabled: cannot serialize a message\n");
        abort();
    }
    return s;
}

static void send_text(engine_conn *c, const char *text)
{
    if (!c->dead && !c->closing)
        c->sink.send(c->ctx, text, strlen(text));
}

static void send_msg(engine_conn *c, json_t *msg)
{
    char *s = dump_free(msg);
    send_text(c, s);
    free(s);
}

static void send_error(engine_conn *c, tb_code code, const char *message)
{
    send_msg(c, proto_msg_error(code, message));
}

static void close_conn(engine_conn *c, int status, const char *reason)
{
    if (c->dead || c->closing)
        return;
    c->closing = 1;
    c->sink.close(c->ctx, status, reason);
}

/* Base64url without padding, for tokens. */
static void mint_token(rules_rng *rng, char out[23])
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

static void mint_id(rules_rng *rng, char out[11])
{
    static const char A[] = "0123456789abcdefghjkmnpqrstvwxyz";
    out[0] = 'c';
    for (int i = 1; i < 10; i++)
        out[i] = A[rules_rng_below(rng, 32)];
    out[10] = '\0';
}

static campaign *find_campaign(const engine *e, const char *id)
{
    for (campaign *k = e->camps; k; k = k->next)
        if (strcmp(k->id, id) == 0)
            return k;
    return NULL;
}

static json_t *current_state(const campaign *k)
{
    return k->work ? k->work : k->state;
}

static int64_t current_seq(const campaign *k)
{
    return k->work ? k->work_seq : k->seq;
}

static seat_rt *seat_rt_get(campaign *k, const char *id)
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

/* Token bucket: returns 1 if one more command may run now. */
static int rate_take(engine *e, seat_rt *s)
{
    if (e->opt.rate_per_sec <= 0)
        return 1;
    uint64_t now = mono_ns();
    if (s->tokens < 0) {
        s->tokens = e->opt.rate_burst;
    } else {
        s->tokens += (double)(now - s->last_ns) / 1e9 * e->opt.rate_per_sec;
        if (s->tokens > e->opt.rate_burst)
            s->tokens = e->opt.rate_burst;
    }
    s->last_ns = now;
    if (s->tokens < 1)
        return 0;
    s->tokens -= 1;
    return 1;
}

static void count_outcome(engine *e, const char *op, const char *outcome)
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

static void observe_latency(engine *e, uint64_t t0)
{
    double s = (double)(mono_ns() - t0) / 1e9;
    int i = 0;
    while (i < N_BUCKETS && s > BUCKETS[i])
        i++;
    e->hist[i]++;
    e->hist_sum += s;
    e->hist_count++;
}

/* ---- the batch ---------------------------------------------------------------------------- */

static pending *push_pending(engine *e, engine_conn *c, const char *cmd_id, const char *op_label)
{
    pending *p = xcalloc(1, sizeof *p);
    p->conn = c;
    p->cmd_id = xstrdup(cmd_id ? cmd_id : "");
    p->op_label = xstrdup(op_label);
    p->t0_ns = mono_ns();
    if (e->tail)
        e->tail->next = p;
    else
        e->head = p;
    e->tail = p;
    return p;
}

static int ensure_tx(engine *e, tb_err *err)
{
    if (store_in_transaction(e->st))
        return TB_OK;
    return store_begin(e->st, err);
}

/* Holds a nack for the sender; records it for idempotency when the refusal is a property of the
 * command itself (not of the moment: rate limits and internal failures may be retried). */
static void hold_nack(engine *e, engine_conn *c, const char *idem_campaign, const char *cmd_id,
                      const char *op_label, const tb_err *why)
{
    pending *p = push_pending(e, c, cmd_id, op_label);
    p->reply = dump_free(proto_msg_nack(cmd_id, why->code, why->msg));
    p->outcome = xstrdup(tb_code_name(why->code));
    if (idem_campaign && why->code != TB_RATE_LIMITED && why->code != TB_INTERNAL &&
        why->code != TB_UNAUTHORIZED) {
        tb_err err;
        if (store_idem_put(e->st, idem_campaign, c->seat, cmd_id, p->reply, &err))
            e->batch_failed = 1;
    }
}

/* Filtered diff text for one viewer, cached per seat for one event. */
typedef struct diff_cache {
    const char *seat;
    char *text;
} diff_cache;

static const char *diff_for(json_t *patch, int64_t seq, const engine_conn *c, diff_cache *cache,
                            size_t *n)
{
    const char *key = c->role == ROLE_GM ? "" : c->seat; /* "" = the GM's unfiltered view */
    for (size_t i = 0; i < *n; i++)
        if (strcmp(cache[i].seat, key) == 0)
            return cache[i].text;
    json_t *ops;
    if (c->role == ROLE_GM) {
        ops = json_incref(patch);
    } else {
        proto_viewer v = {.seat = c->seat, .is_gm = 0};
        ops = proto_filter_patch(patch, &v);
        if (!ops) /* a move/copy out of a hidden area: never produced by our diff */
            ops = json_array();
    }
    cache[*n].seat = key;
    cache[*n].text = dump_free(proto_msg_diff(seq, ops));
    return cache[(*n)++].text;
}

static void fan_out(campaign *k, int64_t seq, json_t *patch)
{
    size_t n_conns = 0;
    for (engine_conn *c = k->conns; c; c = c->camp_next)
        n_conns++;
    diff_cache *cache = xcalloc(n_conns + 1, sizeof *cache);
    size_t n = 0;
    for (engine_conn *c = k->conns; c; c = c->camp_next)
        if (!c->dead && !c->closing)
            send_text(c, diff_for(patch, seq, c, cache, &n));
    for (size_t i = 0; i < n; i++)
        free(cache[i].text);
    free(cache);
}

static json_t *presence_msg(campaign *k)
{
    json_t *seats = json_object();
    const char *id;
    json_t *v;
    json_object_foreach(json_object_get(k->state, "seats"), id, v)
    {
        seat_rt *s = seat_rt_get(k, id);
        json_object_set_new(seats, id, json_boolean(s->online > 0));
    }
    return proto_msg_presence(seats);
}

static void broadcast_presence(campaign *k)
{
    char *text = dump_free(presence_msg(k));
    for (engine_conn *c = k->conns; c; c = c->camp_next)
        send_text(c, text);
    free(text);
}

static void detach(engine_conn *c)
{
    campaign *k = c->camp;
    if (!k)
        return;
    for (engine_conn **pp = &k->conns; *pp; pp = &(*pp)->camp_next) {
        if (*pp == c) {
            *pp = c->camp_next;
            break;
        }
    }
    c->camp = NULL;
    c->camp_next = NULL;
    seat_rt *s = seat_rt_get(k, c->seat);
    if (--s->online == 0)
        broadcast_presence(k);
}

static void free_campaign(campaign *k)
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

/* After a commit: connections of seats that no longer exist are told and closed. */
static void drop_removed_seats(campaign *k)
{
    json_t *seats = json_object_get(k->state, "seats");
    for (engine_conn *c = k->conns; c; c = c->camp_next) {
        if (c->seat && !json_object_get(seats, c->seat)) {
            send_error(c, TB_UNAUTHORIZED, "your seat was removed from this campaign");
            close_conn(c, 1008, "seat removed");
        }
    }
}

static void reap_dead(engine *e);

int engine_flush(engine *e)
{
    if (!e->head && !store_in_transaction(e->st)) {
        reap_dead(e);
        return 0;
    }
    tb_err err = {0};
    int ok = !e->batch_failed;
    if (store_in_transaction(e->st)) {
        if (ok && store_commit(e->st, &err) == TB_OK)
            e->commits++;
        else {
            if (ok)
                fprintf(stderr, "tabled: commit failed: %s\n", err.msg);
            store_rollback(e->st);
            ok = 0;
        }
    }
    /* Publish (or drop) the working states. */
    for (campaign **pp = &e->camps; *pp;) {
        campaign *k = *pp;
        if (!ok && k->fresh) {
            *pp = k->next;
            free_campaign(k);
            continue;
        }
        if (k->work) {
            if (ok) {
                json_decref(k->state);
                k->state = k->work;
                k->seq = k->work_seq;
                k->changed = 1;
            } else {
                json_decref(k->work);
            }
            k->work = NULL;
        }
        k->fresh = 0;
        pp = &k->next;
    }
    /* Deliver in arrival order: each event's diff to every seat, then the sender's reply. */
    pending *p = e->head;
    e->head = e->tail = NULL;
    e->batch_failed = 0;
    while (p) {
        pending *next = p->next;
        if (ok) {
            if (p->patch)
                fan_out(p->camp, p->seq, p->patch);
            if (p->reply)
                send_text(p->conn, p->reply);
            count_outcome(e, p->op_label, p->outcome ? p->outcome : "ack");
        } else if (p->reply) {
            char *nack = dump_free(proto_msg_nack(
                p->cmd_id, TB_INTERNAL,
                store_disk_full(e->st)
                    ? "the server's disk is full, so this command was not saved; try again later"
                    : "the server could not save this command"));
            send_text(p->conn, nack);
            free(nack);
            count_outcome(e, p->op_label, "internal");
        }
        observe_latency(e, p->t0_ns);
        json_decref(p->patch);
        free(p->reply);
        free(p->cmd_id);
        free(p->op_label);
        free(p->outcome);
        free(p);
        p = next;
    }
    for (campaign *k = e->camps; k; k = k->next) {
        if (k->changed)
            drop_removed_seats(k);
        k->changed = 0;
    }
    reap_dead(e);
    return 1;
}

/* ---- running a command -------------------------------------------------------------------- */

/* Applies a successful handler's new state as one event of the open transaction. new_state is
 * stolen. Returns 0, or TB_INTERNAL (the batch is then marked failed). */
static int append_event(engine *e, campaign *k, const char *seat, const char *op,
                        const json_t *args, const json_t *result, json_t *new_state,
                        int64_t now_ms, pending *p, tb_err *err)
{
    json_t *base = current_state(k);
    int64_t seq = current_seq(k) + 1;
    json_t *patch = proto_patch_diff(base, new_state);
    store_event ev = {.campaign = k->id,
                      .seq = seq,
                      .seat = seat,
                      .op = op,
                      .args = args,
                      .result = result,
                      .patch = patch,
                      .at_ms = now_ms};
    int r = store_event_append(e->st, &ev, err);
    /* Seats that disappeared lose their tokens in the same transaction. */
    const char *id;
    json_t *v;
    json_t *new_seats = json_object_get(new_state, "seats");
    json_object_foreach(json_object_get(base, "seats"), id, v)
    {
        if (!r && !json_object_get(new_seats, id))
            r = store_token_revoke_seat(e->st, k->id, id, err);
    }
    if (!r && seq - k->snap_seq >= e->opt.snapshot_every) {
        r = store_snapshot_put(e->st, k->id, seq, new_state, err);
        if (!r)
            k->snap_seq = seq;
    }
    if (r) {
        json_decref(patch);
        json_decref(new_state);
        e->batch_failed = 1;
        return TB_INTERNAL;
    }
    json_decref(k->work);
    k->work = new_state;
    k->work_seq = seq;
    p->camp = k;
    p->seq = seq;
    p->patch = patch;
    return TB_OK;
}

/* Runs def for conn's seat in campaign k. On success the event is in the transaction and the ack
 * is held; on failure a nack is held. */
static void run_campaign_op(engine *e, engine_conn *c, campaign *k, const op_def *def,
                            const char *cmd_id, const json_t *raw_args)
{
    tb_err err = {0};
    json_t *args = NULL, *result = NULL;
    if (def->who == WHO_GM && c->role != ROLE_GM) {
        tb_fail(&err, TB_FORBIDDEN, "%s: only the GM may do this", def->name);
        goto refuse;
    }
    if (ops_check_args(def, raw_args, &args, &err))
        goto refuse;
    if (def->who == WHO_SELF_OR_GM && c->role != ROLE_GM &&
        strcmp(json_string_value(json_object_get(args, "seat")), c->seat) != 0) {
        tb_fail(&err, TB_FORBIDDEN, "%s: a player may only do this for their own seat", def->name);
        goto refuse;
    }
    json_t *work = json_deep_copy(current_state(k));
    int64_t now = wall_ms();
    op_ctx ctx = {.seat = c->seat,
                  .is_gm = c->role == ROLE_GM,
                  .dice = e->dice,
                  .secret = e->secret,
                  .now_ms = now,
                  .seq = current_seq(k) + 1,
                  .log_cap = e->opt.log_cap};
    if (def->fn(&ctx, work, args, &result, &err)) {
        json_decref(work);
        goto refuse;
    }
    pending *p = push_pending(e, c, cmd_id, def->name);
    if (append_event(e, k, c->seat, def->name, args, result, work, now, p, &err)) {
        p->reply = dump_free(proto_msg_nack(cmd_id, TB_INTERNAL, "the server could not save this command"));
        p->outcome = xstrdup("internal");
        goto out;
    }
    p->reply = dump_free(proto_msg_ack(cmd_id, p->seq, json_incref(result)));
    if (store_idem_put(e->st, k->id, c->seat, cmd_id, p->reply, &err))
        e->batch_failed = 1;
    goto out;
refuse:
    hold_nack(e, c, k->id, cmd_id, def->name, &err);
out:
    json_decref(args);
    json_decref(result);
}

/* Creates a campaign inside the open transaction: its id, its first event (the whole initial
 * state as a patch from {}), the GM token. *gm_token and *join_code are written. */
static campaign *create_campaign(engine *e, const char *name, const char *system, char gm_token[23],
                                 char join_code[10], pending *p, tb_err *err)
{
    char id[11];
    do
        mint_id(e->secret, id);
    while (find_campaign(e, id));
    ops_join_code(e->secret, join_code);
    mint_token(e->secret, gm_token);
    int64_t now = wall_ms();
    if (store_campaign_insert(e->st, id, now, err) ||
        store_token_put(e->st, gm_token, id, "gm", now, err)) {
        e->batch_failed = 1;
        return NULL;
    }
    campaign *k = xcalloc(1, sizeof *k);
    k->id = xstrdup(id);
    k->state = json_object();
    k->fresh = 1;
    k->next = e->camps;
    e->camps = k;
    json_t *args = json_pack("{s:s, s:s}", "name", name, "system", system);
    json_t *result = json_pack("{s:s}", "campaign", id);
    int r = append_event(e, k, "host", "campaign.create", args, result,
                         ops_campaign_initial(id, name, system, join_code), now, p, err);
    json_decref(args);
    json_decref(result);
    return r ? NULL : k;
}

/* ---- host ops: the host token's command table ---------------------------------------------- */

/* Host ops touch the engine itself (the set of campaigns), so their handlers live here, not in
 * ops.c; their rows are checked by the same ops_check_args as every campaign op. args is the
 * normalized copy. */
typedef void (*host_handler)(engine *e, engine_conn *c, const char *cmd_id, const json_t *args);

static void host_campaign_list(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    json_t *list = json_array();
    for (campaign *k = e->camps; k; k = k->next) {
        json_t *s = current_state(k);
        json_t *camp = json_object_get(s, "campaign");
        json_array_append_new(
            list, json_pack("{s:s, s:O, s:O, s:I, s:I}", "id", k->id, "name",
                            json_object_get(camp, "name"), "system", json_object_get(camp, "system"),
                            "seq", (json_int_t)current_seq(k), "seats",
                            (json_int_t)json_object_size(json_object_get(s, "seats"))));
    }
    pending *p = push_pending(e, c, cmd_id, "campaign.list");
    p->reply = dump_free(proto_msg_ack(cmd_id, -1, json_pack("{s:o}", "campaigns", list)));
}

static void host_campaign_create(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    const char *name = json_string_value(json_object_get(args, "name"));
    const char *system = json_string_value(json_object_get(args, "system"));
    if (!ops_system_known(system)) {
        tb_fail(&err, TB_BAD_REQUEST, "campaign.create: unknown rule system '%.32s'", system);
        hold_nack(e, c, STORE_HOST, cmd_id, "campaign.create", &err);
        return;
    }
    char gm_token[23], code[10];
    pending *p = push_pending(e, c, cmd_id, "campaign.create");
    campaign *k = create_campaign(e, name, system, gm_token, code, p, &err);
    if (!k) {
        p->reply = dump_free(
            proto_msg_nack(cmd_id, TB_INTERNAL, "the server could not save this command"));
        p->outcome = xstrdup("internal");
        return;
    }
    /* The idempotency row must not hold the token (only hashes are stored): it keeps an empty
     * gm_token, and a retry gets a freshly minted one (see replay_host_reply). */
    char *redacted = dump_free(proto_msg_ack(
        cmd_id, -1, json_pack("{s:s, s:s, s:s}", "campaign", k->id, "gm_token", "", "join_code", code)));
    p->reply = dump_free(proto_msg_ack(
        cmd_id, -1,
        json_pack("{s:s, s:s, s:s}", "campaign", k->id, "gm_token", gm_token, "join_code", code)));
    if (store_idem_put(e->st, STORE_HOST, "host", cmd_id, redacted, &err))
        e->batch_failed = 1;
    free(redacted);
}

/* campaign.open: a fresh GM token for an existing campaign, so the host's console can switch to
 * (or back to) any campaign of this server. Like campaign.create, the idempotency row keeps an
 * empty gm_token and a retry gets a newly minted one (replay_host_reply). */
static void host_campaign_open(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    const char *id = json_string_value(json_object_get(args, "campaign"));
    campaign *k = find_campaign(e, id);
    if (!k) {
        tb_fail(&err, TB_NOT_FOUND, "campaign.open: no campaign '%.32s'", id);
        hold_nack(e, c, STORE_HOST, cmd_id, "campaign.open", &err);
        return;
    }
    char gm_token[23];
    mint_token(e->secret, gm_token);
    pending *p = push_pending(e, c, cmd_id, "campaign.open");
    if (store_token_put(e->st, gm_token, k->id, "gm", wall_ms(), &err)) {
        e->batch_failed = 1;
        p->reply = dump_free(
            proto_msg_nack(cmd_id, TB_INTERNAL, "the server could not save this command"));
        p->outcome = xstrdup("internal");
        return;
    }
    char *redacted = dump_free(
        proto_msg_ack(cmd_id, -1, json_pack("{s:s, s:s}", "campaign", k->id, "gm_token", "")));
    p->reply = dump_free(
        proto_msg_ack(cmd_id, -1, json_pack("{s:s, s:s}", "campaign", k->id, "gm_token", gm_token)));
    if (store_idem_put(e->st, STORE_HOST, "host", cmd_id, redacted, &err))
        e->batch_failed = 1;
    free(redacted);
}

static const op_arg ARGS_CAMPAIGN_OPEN[] = {
    {"campaign", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};

static const op_arg ARGS_CAMPAIGN_CREATE[] = {
    {"name", ARG_NAME, 1, 1, 80},
    {"system", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_HOST_NONE[] = {{NULL, 0, 0, 0, 0}};

static const struct host_op {
    op_def def;
    host_handler run;
} HOST_OPS[] = {
    {{"campaign.create", NULL, WHO_HOST, 0, ARGS_CAMPAIGN_CREATE}, host_campaign_create},
    {{"campaign.list", NULL, WHO_HOST, 1, ARGS_HOST_NONE}, host_campaign_list},
    {{"campaign.open", NULL, WHO_HOST, 0, ARGS_CAMPAIGN_OPEN}, host_campaign_open},
    {{NULL, NULL, 0, 0, NULL}, NULL},
};

static const struct host_op *host_op_find(const char *name)
{
    for (const struct host_op *h = HOST_OPS; h->def.name; h++)
        if (strcmp(h->def.name, name) == 0)
            return h;
    return NULL;
}

static void run_host_op(engine *e, engine_conn *c, const char *op, const char *cmd_id,
                        const json_t *raw_args)
{
    tb_err err = {0};
    const struct host_op *h = host_op_find(op);
    json_t *args;
    if (!h) {
        tb_fail(&err, TB_NOT_FOUND, "unknown op '%.64s' for the host", op);
        hold_nack(e, c, STORE_HOST, cmd_id, "unknown", &err);
        return;
    }
    if (ops_check_args(&h->def, raw_args, &args, &err)) {
        hold_nack(e, c, STORE_HOST, cmd_id, h->def.name, &err);
        return;
    }
    h->run(e, c, cmd_id, args);
    json_decref(args);
}

/* A stored host reply, ready to resend (stolen). A campaign.create ack was stored without its GM
 * token; the retry gets a new token for the same campaign (the first one may have been lost with
 * the reply that carried it). */
static char *replay_host_reply(engine *e, char *stored)
{
    json_t *msg = json_loads(stored, 0, NULL);
    json_t *result = json_object_get(msg, "result");
    const char *camp_id = json_string_value(json_object_get(result, "campaign"));
    if (!camp_id || !json_object_get(result, "gm_token")) {
        json_decref(msg);
        return stored;
    }
    char token[23];
    tb_err err;
    mint_token(e->secret, token);
    if (store_token_put(e->st, token, camp_id, "gm", wall_ms(), &err)) {
        e->batch_failed = 1;
        token[0] = '\0';
    }
    json_object_set_new(result, "gm_token", json_string(token));
    free(stored);
    return dump_free(msg);
}

static void handle_cmd(engine *e, engine_conn *c, const proto_msg *m)
{
    tb_err err = {0};
    if (c->role == ROLE_NONE) {
        /* Not durable and not recorded: there is no seat to record it for. */
        send_msg(c, proto_msg_nack(m->id, TB_UNAUTHORIZED, "send hello (or join) first"));
        count_outcome(e, "unknown", "unauthorized");
        return;
    }
    /* Idempotency comes before the rate limit (DESIGN.md, step 3): a client resuming after a
     * restart re-sends every unacknowledged command in one burst, and a re-sent id that was
     * already applied costs one lookup, so it is answered with its stored reply, never with
     * rate_limited. */
    if (ensure_tx(e, &err)) {
        e->batch_failed = 1;
        hold_nack(e, c, NULL, m->id, "unknown", &err);
        return;
    }
    const char *idem_campaign = c->role == ROLE_HOST ? STORE_HOST : c->camp->id;
    char *stored = NULL;
    if (store_idem_get(e->st, idem_campaign, c->seat, m->id, &stored, &err)) {
        e->batch_failed = 1;
        hold_nack(e, c, NULL, m->id, "unknown", &err);
        return;
    }
    if (stored) {
        pending *p = push_pending(e, c, m->id, "replay");
        p->reply = c->role == ROLE_HOST ? replay_host_reply(e, stored) : stored;
        p->outcome = xstrdup("replay");
        return;
    }
    seat_rt *bucket = c->role == ROLE_HOST ? &c->host_bucket : seat_rt_get(c->camp, c->seat);
    if (!rate_take(e, bucket)) {
        tb_fail(&err, TB_RATE_LIMITED, "too many commands; slow down");
        hold_nack(e, c, NULL, m->id, "unknown", &err);
        return;
    }
    if (c->role == ROLE_HOST) {
        run_host_op(e, c, m->op, m->id, m->args);
        return;
    }
    if (host_op_find(m->op)) {
        tb_fail(&err, TB_FORBIDDEN, "%s: only the host token may do this", m->op);
        hold_nack(e, c, idem_campaign, m->id, m->op, &err);
        return;
    }
    const op_def *def = ops_find(ops_campaign_system(current_state(c->camp)), m->op);
    if (!def || def->who == WHO_INTERNAL) {
        tb_fail(&err, TB_NOT_FOUND, "unknown op '%.64s'", m->op);
        hold_nack(e, c, idem_campaign, m->id, "unknown", &err);
        return;
    }
    run_campaign_op(e, c, c->camp, def, m->id, m->args);
}

/* ---- hello, join, welcome ----------------------------------------------------------------- */

struct resume_ctx {
    engine_conn *c;
};

static int resume_one(void *ctx, const store_event *ev)
{
    struct resume_ctx *rc = ctx;
    diff_cache cache[1] = {{0}};
    size_t n = 0;
    send_text(rc->c, diff_for((json_t *)ev->patch, ev->seq, rc->c, cache, &n));
    free(cache[0].text);
    return 0;
}

static json_t *seat_json(engine_conn *c)
{
    if (c->role == ROLE_HOST)
        return json_pack("{s:s, s:s, s:s}", "id", "host", "role", "host", "name", "Host");
    json_t *seat = json_object_get(json_object_get(c->camp->state, "seats"), c->seat);
    return json_pack("{s:s, s:s, s:O}", "id", c->seat, "role",
                     c->role == ROLE_GM ? "gm" : "player", "name", json_object_get(seat, "name"));
}

/* Welcomes c as seat of campaign k (committed state), resuming after last_seq when possible. */
static void welcome(engine *e, engine_conn *c, campaign *k, const char *seat, int has_last,
                    long long last_seq)
{
    json_t *entry = json_object_get(json_object_get(k->state, "seats"), seat);
    const char *role = json_string_value(json_object_get(entry, "role"));
    c->camp = k;
    free(c->seat);
    c->seat = xstrdup(seat);
    c->role = role && strcmp(role, "gm") == 0 ? ROLE_GM : ROLE_PLAYER;
    json_t *camp = json_object_get(k->state, "campaign");
    json_t *camp_json = json_pack("{s:s, s:O, s:O}", "id", k->id, "name", json_object_get(camp, "name"),
                                  "system", json_object_get(camp, "system"));
    int resume = has_last && last_seq <= k->seq && k->seq - last_seq <= e->opt.resume_max;
    if (resume) {
        send_msg(c, proto_msg_welcome(seat_json(c), camp_json, k->seq, NULL));
        struct resume_ctx rc = {c};
        tb_err err;
        if (store_events_each(e->st, k->id, last_seq, k->seq, resume_one, &rc, &err)) {
            fprintf(stderr, "tabled: resume of %s failed: %s\n", k->id, err.msg);
            close_conn(c, 1011, "resume failed");
            return;
        }
    } else {
        proto_viewer v = {.seat = c->seat, .is_gm = c->role == ROLE_GM};
        json_t *state = proto_filter_state(k->state, &v);
        send_msg(c, proto_msg_welcome(seat_json(c), camp_json, k->seq, state));
    }
    c->camp_next = k->conns;
    k->conns = c;
    seat_rt *s = seat_rt_get(k, seat);
    s->online++;
    if (s->online == 1)
        broadcast_presence(k);
    else
        send_msg(c, presence_msg(k));
}

static void handle_hello(engine *e, engine_conn *c, const proto_msg *m)
{
    engine_flush(e); /* the welcome must come after every committed diff and before new ones */
    detach(c);
    c->role = ROLE_NONE;
    tb_err err = {0};
    char *camp_id = NULL, *seat = NULL;
    if (store_token_find(e->st, m->token, &camp_id, &seat, &err)) {
        send_error(c, err.code, err.code == TB_UNAUTHORIZED ? "unknown or revoked token" : err.msg);
        goto out;
    }
    if (strcmp(camp_id, STORE_HOST) == 0) {
        free(c->seat);
        c->seat = xstrdup("host");
        c->role = ROLE_HOST;
        send_msg(c, proto_msg_welcome(seat_json(c), json_null(), 0, json_object()));
        goto out;
    }
    campaign *k = find_campaign(e, camp_id);
    if (!k || !json_object_get(json_object_get(k->state, "seats"), seat)) {
        send_error(c, TB_UNAUTHORIZED, "unknown or revoked token");
        goto out;
    }
    welcome(e, c, k, seat, m->has_last_seq, m->last_seq);
out:
    free(camp_id);
    free(seat);
}

static void count_bad(engine_conn *c);

static campaign *find_by_join_code(engine *e, const char *code)
{
    char want[33], have[33];
    if (!ops_join_code_normalize(code, want))
        return NULL;
    for (campaign *k = e->camps; k; k = k->next) {
        json_t *join = json_object_get(json_object_get(k->state, "gm"), "join");
        const char *c = json_string_value(json_object_get(join, "code"));
        if (c && json_is_true(json_object_get(join, "open")) && ops_join_code_normalize(c, have) &&
            strcmp(want, have) == 0)
            return k;
    }
    return NULL;
}

#define MAX_JOINS_PER_CONN 10

/* Join-code guessing (issue 12, item 6): besides the limit per connection, failed joins are
 * counted per remote address and server-wide. A wrong code names no campaign, so the server-wide
 * count stands for every open campaign at once: many addresses guessing together slow down too.
 * An attempt made while its address (or the server) must still wait is refused without looking
 * at the code, so it cannot be used to guess. Returns 1 when the attempt was refused. */
static int join_throttled(engine *e, engine_conn *c)
{
    int64_t now = (int64_t)(mono_ns() / 1000000u);
    int64_t wait = joinlimit_wait_ms(e->join_all, "*", now);
    if (c->peer[0]) {
        int64_t w = joinlimit_wait_ms(e->join_by_addr, c->peer, now);
        if (w > wait)
            wait = w;
    }
    if (wait <= 0)
        return 0;
    char msg[128];
    snprintf(msg, sizeof msg, "too many wrong join codes; try again in %lld seconds",
             (long long)((wait + 999) / 1000));
    send_error(c, TB_RATE_LIMITED, msg);
    count_bad(c);
    return 1;
}

static void join_failed(engine *e, engine_conn *c)
{
    int64_t now = (int64_t)(mono_ns() / 1000000u);
    joinlimit_fail(e->join_all, "*", now);
    if (c->peer[0])
        joinlimit_fail(e->join_by_addr, c->peer, now);
}

static void handle_join(engine *e, engine_conn *c, const proto_msg *m)
{
    engine_flush(e);
    tb_err err = {0};
    if (++c->joins > MAX_JOINS_PER_CONN) {
        send_error(c, TB_RATE_LIMITED, "too many joins on one connection");
        close_conn(c, 1008, "too many joins");
        return;
    }
    if (c->no_join) {
        /* A seat made here would belong to a socket about to be closed: refuse before anything. */
        send_error(c, TB_RATE_LIMITED, "the server is full; try again later");
        close_conn(c, 1013, "the server is full; try again later");
        return;
    }
    if (join_throttled(e, c))
        return;
    campaign *k = find_by_join_code(e, m->code);
    if (!k) {
        join_failed(e, c);
        send_error(c, TB_UNAUTHORIZED, "unknown or closed join code");
        return;
    }
    if (c->peer[0])
        joinlimit_forget(e->join_by_addr, c->peer);
    /* A connection that already holds a seat becomes the new one (like a second hello). */
    detach(c);
    c->role = ROLE_NONE;
    const op_def *def = ops_find(ops_campaign_system(k->state), "seat.join");
    json_t *args, *result = NULL;
    json_t *raw = json_pack("{s:s}", "name", m->name);
    int bad = ops_check_args(def, raw, &args, &err);
    json_decref(raw);
    if (bad) {
        send_error(c, err.code, err.msg);
        return;
    }
    json_t *work = json_deep_copy(k->state);
    int64_t now = wall_ms();
    op_ctx ctx = {.seat = "", .dice = e->dice, .secret = e->secret, .now_ms = now,
                  .seq = k->seq + 1, .log_cap = e->opt.log_cap};
    char token[23];
    mint_token(e->secret, token);
    if (def->fn(&ctx, work, args, &result, &err) || ensure_tx(e, &err)) {
        json_decref(work);
        send_error(c, err.code, err.msg);
        goto out;
    }
    const char *seat = json_string_value(json_object_get(result, "seat"));
    pending *p = push_pending(e, c, NULL, "seat.join");
    if (store_token_put(e->st, token, k->id, seat, now, &err) ||
        append_event(e, k, seat, "seat.join", args, result, work, now, p, &err))
        e->batch_failed = 1;
    if (!engine_flush(e) || k->seq != ctx.seq) {
        send_error(c, TB_INTERNAL, "the server could not save the new seat");
        goto out;
    }
    send_msg(c, proto_msg_joined(token, seat));
    welcome(e, c, k, seat, 0, 0);
out:
    json_decref(args);
    json_decref(result);
}

/* Counts a refused message; a connection that keeps sending them is closed. */
static void count_bad(engine_conn *c)
{
    uint64_t now = mono_ns();
    if (now - c->bad_since > 10ull * 1000000000u) {
        c->bad_since = now;
        c->bad = 0;
    }
    if (++c->bad > 50)
        close_conn(c, 1008, "too many bad messages");
}

void engine_receive_refused(engine *e, engine_conn *c, tb_code code, const char *message)
{
    if (c->dead || c->closing)
        return;
    send_error(c, code, message);
    count_bad(c);
}

void engine_receive(engine *e, engine_conn *c, const char *buf, size_t len)
{
    if (c->dead || c->closing)
        return;
    proto_msg m = {0};
    tb_err err = {0};
    if (proto_parse_client(buf, len, &m, &err)) {
        engine_receive_refused(e, c, err.code, err.msg);
        return;
    }
    switch (m.t) {
    case PROTO_HELLO:
        handle_hello(e, c, &m);
        break;
    case PROTO_JOIN:
        handle_join(e, c, &m);
        break;
    case PROTO_CMD:
        handle_cmd(e, c, &m);
        break;
    case PROTO_PING:
        send_msg(c, proto_msg_pong(m.n));
        break;
    }
    proto_msg_clear(&m);
}

/* ---- connections -------------------------------------------------------------------------- */

engine_conn *engine_conn_open(engine *e, const engine_sink *sink, void *ctx)
{
    engine_conn *c = xcalloc(1, sizeof *c);
    c->sink = *sink;
    c->ctx = ctx;
    c->host_bucket.tokens = -1;
    c->bad_since = mono_ns();
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
    detach(c);
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
static void reap_dead(engine *e)
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
    o->join_free_per_addr = 5;
    o->join_free_all = 50;
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
    /* Per address: 5 free failures, then 1 s, 2 s, 4 s … up to a minute; forgotten after 15
     * quiet minutes. Server-wide: 50 free failures, then 250 ms doubling up to 15 s, forgotten
     * after a quiet minute, so a guessing swarm costs real players at most a short wait. */
    joinlimit_opts per_addr = {e->opt.join_free_per_addr, 1000, 60000, 15 * 60000, 4096};
    joinlimit_opts all = {e->opt.join_free_all, 250, 15000, 60000, 1};
    e->join_by_addr = joinlimit_create(&per_addr);
    e->join_all = joinlimit_create(&all);
    json_t *ids;
    if (store_campaign_ids(st, &ids, err)) {
        joinlimit_destroy(e->join_by_addr);
        joinlimit_destroy(e->join_all);
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
    reap_dead(e);
    while (e->conns) {
        engine_conn *c = e->conns;
        e->conns = c->all_next;
        free(c->seat);
        free(c);
    }
    while (e->camps) {
        campaign *k = e->camps;
        e->camps = k->next;
        free_campaign(k);
    }
    joinlimit_destroy(e->join_by_addr);
    joinlimit_destroy(e->join_all);
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
    mint_token(e->secret, token);
    if (store_token_put(e->st, token, STORE_HOST, "host", wall_ms(), err))
        return NULL;
    return xstrdup(token);
}

int engine_ensure_campaign(engine *e, tb_err *err)
{
    if (e->camps)
        return TB_OK;
    if (ensure_tx(e, err))
        return err->code;
    char gm_token[23], code[10];
    pending *p = push_pending(e, NULL, NULL, "campaign.create");
    if (!create_campaign(e, "My campaign", "generic", gm_token, code, p, err))
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
        mint_token(e->secret, token);
        if (store_token_put(e->st, token, k->id, "gm", wall_ms(), err))
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
    campaign *k = strcmp(camp_id, STORE_HOST) == 0 ? NULL : find_campaign(e, camp_id);
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
    campaign *k = find_campaign(e, campaign_id);
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
