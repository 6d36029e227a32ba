/*
 * session.c — hello, join, welcome, resume and presence (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "fanout.h"
#include "log.h"
#include "playerseq.h"

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
    for (campaign *k = e->camps; k; k = k->next) {
        if (!k->presence_due)
            continue;
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
        k->presence_due = 1;
}

/* ---- hello, join, welcome ----------------------------------------------------------------- */

/* A resume's diffs: the events after `from` (campaign seq), each with its player seq from
 * pseqs[ev->seq - from - 1] (NULL for the GM, whose seq is the campaign's). */
struct resume_ctx {
    engine_conn *c;
    int64_t from;
    const int64_t *pseqs;
};

static int resume_one(void *ctx, const store_event *ev)
{
    struct resume_ctx *rc = ctx;
    int64_t pseq = rc->pseqs ? rc->pseqs[ev->seq - rc->from - 1] : ev->seq;
    fanout *f = fanout_begin(ev->patch, ev->seq, pseq, rc->c->headroom);
    engine__send_shared(rc->c, fanout_for(f, rc->c->seat, rc->c->role == ROLE_GM));
    fanout_end(f);
    return 0;
}

/* ---- where a player resumes (issue 27 items 10, 11) ---------------------------------------- */

/* What one event says for the walk back: the player seq it sets (if it does), whether it is the
 * event that first set one, whether it made the resuming seat. */
typedef struct walk_ev {
    int64_t seq, value;
    int sets, intro, joins;
} walk_ev;

struct walk_ctx {
    walk_ev *ev;
    size_t n;
    const char *seat;
};

static int walk_one(void *ctx, const store_event *ev)
{
    struct walk_ctx *w = ctx;
    walk_ev *x = &w->ev[w->n++];
    x->seq = ev->seq;
    x->sets = playerseq_in_patch(ev->patch, &x->value, &x->intro);
    x->joins = playerseq_patch_adds_seat(ev->patch, w->seat);
    return 0;
}

#define RESUME_WINDOW 256 /* events read at once on the walk back */

/* A player asks to resume after its player seq v. Walks the event log back from the newest event
 * to the last one after which the player seq was v, and returns its campaign seq (the resume
 * sends every event after it), with *pseqs (malloc'd, one per event after it) their player seqs.
 * Returns -1 when the player must get a fresh state instead: v is ahead of the campaign, too
 * far back (more than opt.resume_max diffs, or 4 × that many events), or from before its seat
 * existed — a page of a seat made later must not be sent what happened before it (item 10). */
static int64_t player_resume_from(engine *e, campaign *k, const char *seat, int64_t v,
                                  int64_t **pseqs)
{
    int64_t now = playerseq_get(k->state, k->seq);
    *pseqs = NULL;
    if (v < 0 || v > now || now - v > e->opt.resume_max)
        return -1;
    int64_t limit = 4 * (int64_t)e->opt.resume_max;
    int64_t span = k->seq < limit ? k->seq : limit; /* events (k->seq - span, k->seq] */
    int64_t *after = xmalloc(sizeof *after * (size_t)(span + 1)); /* [k->seq - s]: after s */
    walk_ev *buf = xmalloc(sizeof *buf * RESUME_WINDOW);
    int64_t cur = now; /* the player seq after event hi */
    int64_t hi = k->seq, found = -1;
    int old = 0, stop = 0;
    while (found < 0 && !stop) {
        if (cur == v) {
            found = hi;
            break;
        }
        if (hi == 0 || k->seq - hi >= span)
            break;
        int64_t lo = hi - RESUME_WINDOW;
        if (lo < k->seq - span)
            lo = k->seq - span;
        struct walk_ctx w = {buf, 0, seat};
        tb_err err;
        if (store_events_each(e->st, k->id, lo, hi, walk_one, &w, &err)) {
            tb_log(TB_LOG_ERR, "resume of %s: %s", k->id, err.msg);
            break;
        }
        if (w.n != (size_t)(hi - lo))
            break;                       /* a hole in the log: no resume from there */
        for (size_t i = w.n; i-- > 0;) { /* buf[i].seq = lo + 1 + i, newest first */
            const walk_ev *x = &buf[i];
            after[k->seq - x->seq] = cur;
            if (cur == v) {
                found = x->seq;
                break;
            }
            if (x->joins) {
                stop = 1; /* v is from before this seat existed */
                break;
            }
            if (old || x->intro) {
                old = 1;
                cur = x->seq - 1;
            } else if (x->sets) {
                cur--;
            }
        }
        hi = lo;
    }
    free(buf);
    if (found < 0) {
        free(after);
        return -1;
    }
    int64_t n = k->seq - found;
    *pseqs = xmalloc(sizeof **pseqs * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) /* event found + 1 + i */
        (*pseqs)[i] = after[k->seq - (found + 1 + i)];
    free(after);
    return found;
}

/* Sends c a welcome (stolen) with the database's history id (storage/history.h) added. */
static void send_welcome(engine *e, engine_conn *c, json_t *w)
{
    if (e->history[0])
        json_object_set_new(w, "history", json_string(e->history));
    engine__send_msg(c, w);
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
    int gm = role && strcmp(role, "gm") == 0;
    if (!gm && e->opt.max_per_seat > 0 &&
        engine__seat_rt_get(k, seat)->online >= e->opt.max_per_seat) {
        /* Issue 27 item 4: one player's link may not hold every place of the server. */
        tb_log_limited(TB_LOG_KIND_SEAT, TB_LOG_WARNING,
                       "refused %s: seat %s of %s is open on %d connections already "
                       "(--max-per-seat)",
                       c->peer[0] ? c->peer : "a client", seat, k->id, e->opt.max_per_seat);
        engine__send_error(c, TB_RATE_LIMITED,
                           "this link is open in too many places at once; close one and try again");
        engine__close_conn(c, 1013, "this link is open in too many places");
        return;
    }
    c->camp = k;
    free(c->seat);
    c->seat = xstrdup(seat);
    c->role = gm ? ROLE_GM : ROLE_PLAYER;
    json_t *camp = json_object_get(k->state, "campaign");
    json_t *camp_json =
        json_pack("{s:s, s:O, s:O}", "id", k->id, "name", json_object_get(camp, "name"), "system",
                  json_object_get(camp, "system"));
    /* The GM's seq is the campaign's; a player's counts only what players see, and it resumes
     * only from a point its own seat has seen (server/playerseq.h). */
    int64_t seq = gm ? k->seq : playerseq_get(k->state, k->seq), from = -1;
    int64_t *pseqs = NULL;
    if (has_last && gm && last_seq <= k->seq && k->seq - last_seq <= e->opt.resume_max)
        from = last_seq;
    else if (has_last && !gm)
        from = player_resume_from(e, k, seat, last_seq, &pseqs);
    if (from >= 0) {
        send_welcome(e, c, proto_msg_welcome(seat_json(c), camp_json, seq, NULL));
        struct resume_ctx rc = {c, from, pseqs};
        tb_err err;
        int failed = store_events_each(e->st, k->id, from, k->seq, resume_one, &rc, &err);
        free(pseqs);
        if (failed) {
            tb_log(TB_LOG_ERR, "resume of %s failed: %s", k->id, err.msg);
            engine__close_conn(c, 1011, "resume failed");
            return;
        }
    } else {
        proto_viewer v = {.seat = c->seat, .is_gm = c->role == ROLE_GM};
        json_t *state = proto_filter_state(k->state, &v);
        send_welcome(e, c, proto_msg_welcome(seat_json(c), camp_json, seq, state));
    }
    c->camp_next = k->conns;
    k->conns = c;
    seat_rt *s = engine__seat_rt_get(k, seat);
    if (++s->online == 1)
        k->presence_due = 1;              /* the others learn it at the end of this loop turn */
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
    campaign *k = engine__find_campaign(e, camp_id);
    if (!k || !json_object_get(json_object_get(k->state, "seats"), seat)) {
        engine__send_error(c, TB_UNAUTHORIZED, "unknown or revoked token");
        goto out;
    }
    /* a last_seq of another history (a restore from a backup) is no place to resume from */
    int same_history = !m->history || !e->history[0] || strcmp(m->history, e->history) == 0;
    welcome(e, c, k, seat, m->has_last_seq && same_history, m->last_seq);
out:
    free(camp_id);
    free(seat);
}

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
 * counted per client address (the address a trusted proxy reports: serve.c) and server-wide. A
 * wrong code names no campaign, so the server-wide count stands for every open campaign at once:
 * many addresses guessing together slow down too. An attempt made while its address must still
 * wait is refused without looking at the code, so it cannot be used to guess.
 * The server-wide wait holds only addresses that have guessed wrong themselves (issue 27 item 2):
 * strangers guessing cannot lock a player with the right code out, and a guesser gets one
 * attempt per fresh address before the server-wide wait holds it too. Returns 1 when the attempt
 * was refused. */
static int join_throttled(engine *e, engine_conn *c)
{
    int64_t now = (int64_t)(engine__mono_ns() / 1000000u);
    int suspect = !c->peer[0] || joinlimit_fails(e->join_by_addr, c->peer, now) > 0;
    int64_t wait = suspect ? joinlimit_wait_ms(e->join_all, "*", now) : 0;
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
    tb_log_limited(TB_LOG_KIND_JOIN, TB_LOG_WARNING,
                   "refused %s: a join while it must wait %lld s "
                   "(wrong join codes)",
                   c->peer[0] ? c->peer : "a client", (long long)((wait + 999) / 1000));
    engine__send_error(c, TB_RATE_LIMITED, msg);
    engine__count_bad(c);
    return 1;
}

/* Seats (issue 27 item 4): a campaign holds at most opt.max_seats players, and one address makes
 * at most opt.seats_per_addr new seats before it must wait. Returns 1 (after the error) when c
 * may not make a seat in k now. */
static int seat_refused(engine *e, engine_conn *c, campaign *k)
{
    char msg[160];
    int players = 0;
    const char *id;
    json_t *v;
    json_object_foreach(json_object_get(k->state, "seats"), id, v)
    {
        const char *role = json_string_value(json_object_get(v, "role"));
        players += !role || strcmp(role, "gm") != 0;
    }
    if (e->opt.max_seats > 0 && players >= e->opt.max_seats) {
        tb_log_limited(TB_LOG_KIND_SEAT, TB_LOG_WARNING,
                       "refused %s: campaign %s has %d player seats already (--max-seats)",
                       c->peer[0] ? c->peer : "a client", k->id, players);
        snprintf(msg, sizeof msg,
                 "this table is full (%d players); the GM can remove a seat to make room", players);
        engine__send_error(c, TB_CONFLICT, msg);
        return 1;
    }
    int64_t now = (int64_t)(engine__mono_ns() / 1000000u);
    int64_t wait = c->peer[0] ? joinlimit_wait_ms(e->seats_by_addr, c->peer, now) : 0;
    if (wait <= 0)
        return 0;
    tb_log_limited(TB_LOG_KIND_SEAT, TB_LOG_WARNING,
                   "refused %s: too many new seats from one address (--joins-per-address)",
                   c->peer);
    snprintf(msg, sizeof msg,
             "too many new seats from your address; try again in %lld minutes, or use the link "
             "you joined with before",
             (long long)((wait + 59999) / 60000));
    engine__send_error(c, TB_RATE_LIMITED, msg);
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
    if (seat_refused(e, c, k))
        return;
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
    int64_t number = playerseq_get(k->state, k->seq) + 1; /* server/playerseq.h */
    int64_t event_seq = k->seq + 1;
    int64_t now = engine__command_ms(e, number);
    op_ctx ctx = {.seat = "",
                  .dice = e->dice,
                  .secret = e->secret,
                  .now_ms = now,
                  .seq = number,
                  .event_seq = event_seq,
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
    if (store_token_put(e->st, token, k->id, seat, now, &err) ||
        engine__append_event(e, k, seat, "seat.join", args, result, work, now, p, &err))
        e->batch_failed = 1;
    if (!engine_flush(e) || k->seq != event_seq) {
        engine__send_error(c, TB_INTERNAL, "the server could not save the new seat");
        goto out;
    }
    if (c->peer[0])
        joinlimit_fail(e->seats_by_addr, c->peer, (int64_t)(engine__mono_ns() / 1000000u));
    engine__send_msg(c, proto_msg_joined(token, seat));
    welcome(e, c, k, seat, 0, 0);
out:
    json_decref(args);
    json_decref(result);
}
