/*
 * session.c — hello, join, welcome, resume and presence (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "fanout.h"

/* The whole presence list of k for a newcomer: every seat of the committed state, online or not
 * (a new message). Linear in the seats: the run-time records are walked once, not looked up per
 * seat. */
static json_t *presence_msg(campaign *k)
{
    json_t *seats = json_object();
    const char *id;
    json_t *v;
    json_t *all = json_object_get(k->state, "seats");
    json_object_foreach(all, id, v) json_object_set_new(seats, id, json_false());
    for (seat_rt *s = k->seats; s; s = s->next)
        if (s->online > 0 && json_object_get(all, s->id))
            json_object_set_new(seats, s->id, json_true());
    return proto_msg_presence(seats);
}

/* Presence as diffs (issue 10): a connect or disconnect does not send every seat the whole
 * list; it marks the campaign, and once per loop turn (engine_flush) every seat of a marked
 * campaign gets one small `presence` with only the seats whose online flag changed since they were
 * last told, encoded once. A seat that went offline and back within one turn sends nothing. */
void engine__presence_flush(engine *e)
{
    campaign *list = e->presence;
    e->presence = NULL;
    for (campaign *k = list, *next; k; k = next) {
        next = k->presence_next;
        k->presence_next = NULL;
        k->presence_due = 0;
        json_t *seats = json_object();
        for (seat_rt *s = k->seats; s; s = s->next) {
            int online = s->online > 0;
            if (online != s->told)
                json_object_set_new(seats, s->id, json_boolean(online));
            s->told = online;
        }
        if (json_object_size(seats) == 0) {
            json_decref(seats);
            continue;
        }
        char *text = engine__dump_free(proto_msg_presence(seats));
        engine_msg *m = fanout_msg_new(e->opt.headroom, text, strlen(text));
        free(text);
        for (engine_conn *c = k->conns; c; c = c->camp_next)
            engine__send_shared(c, m);
        engine_msg_unref(m);
    }
}

/* Takes c out of its campaign's connection list; its seat goes offline when it was the last
 * (presence is told at the end of the turn). No-op when c has no campaign. */
void engine__detach(engine_conn *c)
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
    seat_rt *s = engine__seat_rt_get(k, c->seat);
    if (--s->online == 0)
        engine__mark_presence(c->eng, k);
    if (!k->conns)
        k->idle_since_ns = engine__mono_ns();
}

/* ---- hello, join, welcome ----------------------------------------------------------------- */

struct resume_ctx {
    engine_conn *c;
};

static int resume_one(void *ctx, const store_event *ev)
{
    struct resume_ctx *rc = ctx;
    fanout *f = fanout_begin(ev->patch, NULL, 0, ev->seq, rc->c->headroom);
    engine__send_shared(rc->c, fanout_for(f, rc->c->seat, rc->c->role == ROLE_GM));
    fanout_end(f);
    return 0;
}

static json_t *seat_json(engine_conn *c)
{
    if (c->role == ROLE_HOST)
        return json_pack("{s:s, s:s, s:s}", "id", "host", "role", "host", "name", "Host");
    json_t *seat = json_object_get(json_object_get(c->camp->state, "seats"), c->seat);
    return json_pack("{s:s, s:s, s:O}", "id", c->seat, "role", c->role == ROLE_GM ? "gm" : "player",
                     "name", json_object_get(seat, "name"));
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
    json_t *camp_json =
        json_pack("{s:s, s:O, s:O}", "id", k->id, "name", json_object_get(camp, "name"), "system",
                  json_object_get(camp, "system"));
    int resume = has_last && last_seq <= k->seq && k->seq - last_seq <= e->opt.resume_max;
    if (resume) {
        engine__send_msg(c, proto_msg_welcome(seat_json(c), camp_json, k->seq, NULL));
        struct resume_ctx rc = {c};
        tb_err err;
        if (store_events_each(e->st, k->id, last_seq, k->seq, resume_one, &rc, &err)) {
            fprintf(stderr, "tabled: resume of %s failed: %s\n", k->id, err.msg);
            engine__close_conn(c, 1011, "resume failed");
            return;
        }
    } else {
        proto_viewer v = {.seat = c->seat, .is_gm = c->role == ROLE_GM};
        json_t *state = proto_filter_state(k->state, &v);
        engine__send_msg(c, proto_msg_welcome(seat_json(c), camp_json, k->seq, state));
    }
    c->camp_next = k->conns;
    k->conns = c;
    k->idle_since_ns = 0;
    seat_rt *s = engine__seat_rt_get(k, seat);
    if (++s->online == 1)
        engine__mark_presence(e, k);      /* the others learn it at the end of this loop turn */
    engine__send_msg(c, presence_msg(k)); /* the newcomer gets the whole list, itself online */
}

/* hello: the token's seat is welcomed (state or resume); an unknown token gets an error. Flushes
 * first, so the welcome comes after every committed diff and before new ones. */
void engine__handle_hello(engine *e, engine_conn *c, const proto_msg *m)
{
    engine_flush(e); /* the welcome must come after every committed diff and before new ones */
    engine__detach(c);
    c->role = ROLE_NONE;
    tb_err err = {0};
    char *camp_id = NULL, *seat = NULL;
    if (store_token_find(e->st, m->token, &camp_id, &seat, &err)) {
        engine__send_error(c, err.code,
                           err.code == TB_UNAUTHORIZED ? "unknown or revoked token" : err.msg);
        goto out;
    }
    if (strcmp(camp_id, STORE_HOST) == 0) {
        free(c->seat);
        c->seat = xstrdup("host");
        c->role = ROLE_HOST;
        engine__send_msg(c, proto_msg_welcome(seat_json(c), json_null(), 0, json_object()));
        goto out;
    }
    campaign *k = engine__campaign_get(e, camp_id, &err);
    if (!k && err.code == TB_INTERNAL) {
        engine__send_error(c, TB_INTERNAL, err.msg);
        goto out;
    }
    if (!k || !json_object_get(json_object_get(k->state, "seats"), seat)) {
        engine__send_error(c, TB_UNAUTHORIZED, "unknown or revoked token");
        goto out;
    }
    welcome(e, c, k, seat, m->has_last_seq, m->last_seq);
out:
    free(camp_id);
    free(seat);
}

/* The campaign whose open join code is code: found through the registry (no walk of the
 * campaigns), loaded, and checked against its state, which has the last word. */
static campaign *find_by_join_code(engine *e, const char *code)
{
    char want[33], have[33], id[33];
    if (!ops_join_code_normalize(code, want) || store_campaign_by_join(e->st, want, id, NULL))
        return NULL;
    campaign *k = engine__campaign_get(e, id, NULL);
    if (!k)
        return NULL;
    json_t *join = json_object_get(json_object_get(k->state, "gm"), "join");
    const char *c = json_string_value(json_object_get(join, "code"));
    if (c && json_is_true(json_object_get(join, "open")) && ops_join_code_normalize(c, have) &&
        strcmp(want, have) == 0)
        return k;
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
    int64_t now = (int64_t)(engine__mono_ns() / 1000000u);
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
    engine__send_error(c, TB_RATE_LIMITED, msg);
    engine__count_bad(c);
    return 1;
}

static void join_failed(engine *e, engine_conn *c)
{
    int64_t now = (int64_t)(engine__mono_ns() / 1000000u);
    joinlimit_fail(e->join_all, "*", now);
    if (c->peer[0])
        joinlimit_fail(e->join_by_addr, c->peer, now);
}

/* join: a valid open code makes c a new player seat (seat.join as one event, committed at once),
 * answered by joined and then exactly as a hello; a wrong code counts against the join limiter. */
void engine__handle_join(engine *e, engine_conn *c, const proto_msg *m)
{
    engine_flush(e);
    tb_err err = {0};
    if (++c->joins > MAX_JOINS_PER_CONN) {
        engine__send_error(c, TB_RATE_LIMITED, "too many joins on one connection");
        engine__close_conn(c, 1008, "too many joins");
        return;
    }
    if (c->no_join) {
        /* A seat made here would belong to a socket about to be closed: refuse before anything. */
        engine__send_error(c, TB_RATE_LIMITED, "the server is full; try again later");
        engine__close_conn(c, 1013, "the server is full; try again later");
        return;
    }
    if (join_throttled(e, c))
        return;
    campaign *k = find_by_join_code(e, m->code);
    if (!k) {
        join_failed(e, c);
        engine__send_error(c, TB_UNAUTHORIZED, "unknown or closed join code");
        return;
    }
    if (c->peer[0])
        joinlimit_forget(e->join_by_addr, c->peer);
    /* A connection that already holds a seat becomes the new one (like a second hello). */
    engine__detach(c);
    c->role = ROLE_NONE;
    const op_def *def = ops_find(ops_campaign_system(k->state), "seat.join");
    json_t *args, *result = NULL;
    json_t *raw = json_pack("{s:s}", "name", m->name);
    int bad = ops_check_args(def, raw, &args, &err);
    json_decref(raw);
    if (bad) {
        engine__send_error(c, err.code, err.msg);
        return;
    }
    json_t *work = NULL;
    int64_t now = engine__command_ms(e, k->seq + 1);
    op_ctx ctx = {.seat = "",
                  .dice = e->dice,
                  .secret = e->secret,
                  .now_ms = now,
                  .seq = k->seq + 1,
                  .log_cap = e->opt.log_cap};
    char token[23];
    engine__mint_token(e->secret, token);
    if (engine__run_handler(e, def, &ctx, k->state, args, &result, &work, &err) ||
        engine__ensure_tx(e, &err)) {
        json_decref(work);
        engine__send_error(c, err.code, err.msg);
        goto out;
    }
    const char *seat = json_string_value(json_object_get(result, "seat"));
    pending *p = engine__push_pending(e, c, NULL, "seat.join");
    p->needs_host = 1; /* the new seat's token */
    if (store_token_put(e->st, token, k->id, seat, now, &err) ||
        engine__append_event(e, k, seat, "seat.join", NULL, args, result, work, now, p, &err))
        e->batch_failed = 1;
    if (!engine_flush(e) || k->seq != ctx.seq || !store_batch_ok(e->st, STORE_HOST)) {
        engine__send_error(c, TB_INTERNAL, "the server could not save the new seat");
        goto out;
    }
    engine__send_msg(c, proto_msg_joined(token, seat));
    welcome(e, c, k, seat, 0, 0);
out:
    json_decref(args);
    json_decref(result);
}
