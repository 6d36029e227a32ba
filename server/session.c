/*
 * session.c — hello, join, welcome, resume and presence (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "fanout.h"

/* The whole presence list of k for a newcomer: every seat of the committed state, online or not
 * (a new reference to a message). Linear in the seats, and built once for every newcomer until a
 * seat's presence or the roster changes (a join burst shares it). */
static engine_msg *presence_msg(engine *e, campaign *k)
{
    welcome_cache *wc = &k->wc;
    if (wc->presence && wc->seq == k->seq && wc->presence_ver == k->presence_ver)
        return engine_msg_ref(wc->presence);
    json_t *seats = json_object();
    const char *id;
    json_t *v;
    json_t *all = json_object_get(k->state, "seats");
    json_object_foreach(all, id, v) json_object_set_new(seats, id, json_false());
    for (seat_rt *s = k->seats; s; s = s->next)
        if (s->online > 0 && json_object_get(all, s->id))
            json_object_set_new(seats, s->id, json_true());
    json_t *msg = proto_msg_presence(seats);
    engine_msg *m = fanout_msg_json(e->opt.headroom, msg);
    json_decref(msg);
    if (wc->seq != k->seq)
        engine__welcome_cache_clear(wc);
    engine_msg_unref(wc->presence);
    wc->seq = k->seq;
    wc->presence = engine_msg_ref(m);
    wc->presence_ver = k->presence_ver;
    return m;
}

void engine__welcome_cache_clear(welcome_cache *wc)
{
    engine_msg_unref(wc->gm);
    engine_msg_unref(wc->player);
    engine_msg_unref(wc->presence);
    wc->gm = wc->player = wc->presence = NULL;
    wc->seq = -1;
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
    if (--s->online == 0) {
        k->presence_ver++;
        engine__mark_presence(c->eng, k);
    }
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

/* The state of k as c's seat sees it, encoded (a new reference to a message without headroom):
 * the GM's and that of a player without a private area are encoded once per seq and shared by
 * every welcome until the state changes (issue 26: a join or resume burst encodes the state once
 * per audience, not once per seat). */
static engine_msg *state_text(campaign *k, engine_conn *c)
{
    welcome_cache *wc = &k->wc;
    if (wc->seq != k->seq)
        engine__welcome_cache_clear(wc);
    wc->seq = k->seq;
    int own = c->role != ROLE_GM &&
              json_object_get(json_object_get(k->state, "private"), c->seat) != NULL;
    engine_msg **slot = own ? NULL : c->role == ROLE_GM ? &wc->gm : &wc->player;
    if (slot && *slot)
        return engine_msg_ref(*slot);
    proto_viewer v = {.seat = c->seat, .is_gm = c->role == ROLE_GM};
    json_t *state = proto_filter_state(k->state, &v);
    engine_msg *m = fanout_msg_json(0, state);
    json_decref(state);
    if (slot)
        *slot = engine_msg_ref(m);
    return m;
}

/* {"t":"welcome","seat","campaign","seq","state"} (proto_msg_welcome's text) around a state
 * already encoded: a copy of its bytes, no encoding. */
static void send_welcome_state(engine_conn *c, json_t *seat, json_t *camp, int64_t seq,
                               const engine_msg *state)
{
    static const char T[] = "{\"t\":\"welcome\",\"seat\":", CAMP[] = ",\"campaign\":",
                      SEQ[] = ",\"seq\":", STATE[] = ",\"state\":";
    proto_buf b = {0};
    fanout_msg_open(&b, c->headroom);
    proto_buf_reserve(&b, state->len + 256);
    proto_buf_add(&b, T, sizeof T - 1);
    proto_json_append(&b, seat);
    proto_buf_add(&b, CAMP, sizeof CAMP - 1);
    proto_json_append(&b, camp);
    proto_buf_add(&b, SEQ, sizeof SEQ - 1);
    proto_buf_add_int(&b, (long long)seq);
    proto_buf_add(&b, STATE, sizeof STATE - 1);
    proto_buf_add(&b, (const char *)state->text, state->len);
    proto_buf_addc(&b, '}');
    engine_msg *m = fanout_msg_close(&b, c->headroom);
    engine__send_shared(c, m);
    engine_msg_unref(m);
}

/* Makes c the connection of seat in campaign k (committed state) and sends its welcome, resuming
 * after last_seq when possible; the presence list follows unless no_presence (a join burst sends
 * one list to all its newcomers). */
static void welcome_seat(engine *e, engine_conn *c, campaign *k, const char *seat, int has_last,
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
        engine_msg *state = state_text(k, c);
        json_t *sj = seat_json(c);
        send_welcome_state(c, sj, camp_json, k->seq, state);
        json_decref(sj);
        json_decref(camp_json);
        engine_msg_unref(state);
    }
    c->camp_next = k->conns;
    k->conns = c;
    k->idle_since_ns = 0;
    seat_rt *s = engine__seat_rt_get(k, seat);
    if (++s->online == 1) {
        k->presence_ver++;
        engine__mark_presence(e, k); /* the others learn it at the end of this loop turn */
    }
}

/* Welcomes c as seat of campaign k, then sends it the whole presence list, itself online. */
static void welcome(engine *e, engine_conn *c, campaign *k, const char *seat, int has_last,
                    long long last_seq)
{
    welcome_seat(e, c, k, seat, has_last, last_seq);
    if (c->camp == k) {
        engine_msg *m = presence_msg(e, k);
        engine__send_shared(c, m);
        engine_msg_unref(m);
    }
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

/* join: a valid open code makes c a new player seat, answered by joined and then exactly as a
 * hello; a wrong code counts against the join limiter. The seat is made at the end of the loop
 * turn (engine__joins_run), with every other join of the campaign in the same turn: one event,
 * whose diff each seat already there receives once (issue 26: a join burst is O(seats) frames per
 * turn, not per join). */
void engine__handle_join(engine *e, engine_conn *c, const proto_msg *m)
{
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
    const op_def *def = ops_find(ops_campaign_system(k->state), "seat.join");
    json_t *args;
    json_t *raw = json_pack("{s:s}", "name", m->name);
    int bad = ops_check_args(def, raw, &args, &err);
    json_decref(raw);
    if (bad) {
        engine__send_error(c, err.code, err.msg);
        return;
    }
    /* A connection that already holds a seat becomes the new one (like a second hello). */
    engine__detach(c);
    c->role = ROLE_NONE;
    joiner *j = xcalloc(1, sizeof *j);
    j->conn = c;
    j->camp = k;
    j->name = xstrdup(json_string_value(json_object_get(args, "name")));
    json_decref(args);
    engine__mint_token(e->secret, j->token);
    c->joining = j;
    if (!k->joiners) {
        k->joiners_tail = &k->joiners;
        k->joins_next = e->joins;
        e->joins = k;
    }
    *k->joiners_tail = j;
    k->joiners_tail = &j->next;
}

static void joiner_free(joiner *j)
{
    free(j->name);
    free(j->seat);
    free(j);
}

/* The transport lost a connection whose join waits for the end of the turn. Returns 1 when the
 * join is dropped (it had not run: no seat is made for nobody, and c may be freed); 0 when it ran
 * and waits in the batch for its delivery, which skips c (c must stay until then). */
int engine__joiner_gone(engine_conn *c)
{
    joiner *j = c->joining;
    if (!j)
        return 1;
    campaign *k = j->camp;
    for (joiner **pp = &k->joiners; *pp; pp = &(*pp)->next)
        if (*pp == j) {
            *pp = j->next;
            if (k->joiners_tail == &j->next)
                k->joiners_tail = pp;
            c->joining = NULL;
            joiner_free(j);
            return 1;
        }
    return 0;
}

/* Runs this turn's joins: per campaign, every joiner's seat.join on the working state, then one
 * event (one joiner: op seat.join as a single join always was; several: seat "server", args
 * {names}, result {seats}) and each seat's token, in the open batch. The joiners are welcomed
 * once it is delivered (engine__joins_welcome). */
void engine__joins_run(engine *e)
{
    campaign *list = e->joins;
    e->joins = NULL;
    for (campaign *k = list, *next; k; k = next) {
        next = k->joins_next;
        k->joins_next = NULL;
        joiner *js = k->joiners;
        k->joiners = NULL;
        if (!js)
            continue;
        tb_err err = {0};
        const op_def *def = ops_find(ops_campaign_system(k->state), "seat.join");
        int64_t seq = engine__current_seq(k) + 1, now = engine__command_ms(e, seq);
        op_ctx ctx = {.seat = "",
                      .dice = e->dice,
                      .secret = e->secret,
                      .now_ms = now,
                      .seq = seq,
                      .log_cap = e->opt.log_cap};
        json_t *work = json_incref(engine__current_state(k)), *names = json_array(),
               *seats = json_array(), *args1 = NULL, *result1 = NULL;
        int r = engine__ensure_tx(e, &err), n = 0;
        for (joiner *j = js; j && !r; j = j->next, n++) {
            json_t *args = json_pack("{s:s}", "name", j->name), *result = NULL, *next_work;
            r = engine__run_handler(e, def, &ctx, work, args, &result, &next_work, &err);
            if (!r) {
                json_decref(work);
                work = next_work;
                j->seat = xstrdup(json_string_value(json_object_get(result, "seat")));
                json_array_append(names, json_object_get(args, "name"));
                json_array_append_new(seats, json_string(j->seat));
                r = store_token_put(e->st, j->token, k->id, j->seat, now, &err);
            }
            if (!args1) {
                args1 = json_incref(args);
                result1 = json_incref(result);
            }
            json_decref(args);
            json_decref(result);
        }
        pending *p = engine__push_pending(e, NULL, NULL, "seat.join");
        p->needs_host = 1; /* the new seats' tokens */
        p->joins = js;
        if (r) {
            json_decref(work);
            e->batch_failed = 1;
        } else if (n == 1) {
            r = engine__append_event(e, k, js->seat, "seat.join", NULL, args1, result1, work, now,
                                     p, &err);
        } else {
            json_t *args = json_pack("{s:O}", "names", names);
            json_t *result = json_pack("{s:O}", "seats", seats);
            r = engine__append_event(e, k, "server", "seat.join", NULL, args, result, work, now, p,
                                     &err);
            json_decref(args);
            json_decref(result);
        }
        if (r)
            e->batch_failed = 1;
        json_decref(names);
        json_decref(seats);
        json_decref(args1);
        json_decref(result1);
    }
}

/* The joiners of a delivered join event: when it committed (ok), each gets joined and its
 * welcome, then the one presence list they share; else each gets an error. list is freed. */
void engine__joins_welcome(engine *e, joiner *list, int ok)
{
    for (joiner *j = list; j; j = j->next) {
        engine_conn *c = j->conn;
        c->joining = NULL;
        if (c->dead || c->closing)
            continue;
        if (!ok || !j->seat) {
            engine__send_error(c, TB_INTERNAL, "the server could not save the new seat");
            continue;
        }
        engine__send_msg(c, proto_msg_joined(j->token, j->seat));
        welcome_seat(e, c, j->camp, j->seat, 0, 0);
    }
    engine_msg *m = NULL;
    for (joiner *j = list, *next; j; j = next) {
        next = j->next;
        if (ok && j->seat && j->conn->camp == j->camp) {
            if (!m)
                m = presence_msg(e, j->camp);
            engine__send_shared(j->conn, m);
        }
        joiner_free(j);
    }
    engine_msg_unref(m);
}
