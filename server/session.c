/*
 * session.c — hello, join, welcome, resume and presence (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encmemo.h"
#include "engine_int.h"
#include "fanout.h"
#include "invites.h"
#include "log.h"
#include "playerseq.h"
#include "roster.h"
#include "workcopy.h"

void engine__presence_text_free(welcome_cache *wc)
{
    json_decref(wc->pl_seats);
    free(wc->pl_keys);
    free(wc->pl_off);
    free(wc->pl_rt);
    wc->pl_seats = NULL;
    wc->pl_keys = NULL;
    wc->pl_off = NULL;
    wc->pl_rt = NULL;
    wc->pl_n = wc->pl_nrt = 0;
}

/* Makes wc's kept presence text (engine_int.h) describe seats, k's committed /seats: its keys
 * are encoded again only when the object changed (a seat made, renamed or removed), and the
 * seat_rt pointers looked up again only when k made a seat_rt since. Every seat gets its seat_rt
 * here, so a burst of resumes (each seat's first connection after a restart) does not make the
 * campaign's count of them move, and the pointers are not looked up again per resume. */
static void presence_text_follow(welcome_cache *wc, campaign *k, json_t *seats)
{
    if (wc->pl_seats != seats) {
        engine__presence_text_free(wc);
        size_t n = json_object_size(seats);
        proto_buf b = {0};
        wc->pl_off = xmalloc(sizeof *wc->pl_off * (n + 1));
        wc->pl_rt = xcalloc(n ? n : 1, sizeof *wc->pl_rt);
        const char *id;
        json_t *v;
        size_t i = 0;
        json_object_foreach(seats, id, v)
        {
            wc->pl_off[i++] = b.len;
            if (i > 1)
                proto_buf_addc(&b, ',');
            proto_buf_add_string(&b, id, strlen(id));
            proto_buf_addc(&b, ':');
        }
        wc->pl_off[i] = b.len;
        wc->pl_keys = b.data;
        wc->pl_n = i;
        wc->pl_seats = json_incref(seats);
        wc->pl_nrt = (size_t)-1;
    }
    if (wc->pl_nrt != k->nseat_rt) {
        size_t i = 0;
        const char *id;
        json_t *v;
        json_object_foreach(seats, id, v) wc->pl_rt[i++] = engine__seat_rt_get(k, id);
        wc->pl_nrt = k->nseat_rt;
    }
}

/* The whole presence list of k for a newcomer: every seat of the committed state, online or not
 * (a new reference to a message). Built once for every newcomer until a seat's presence or the
 * roster changes (a join burst shares it), and then from the kept text of the seats' keys with
 * the current flags (issue 26: a resume burst does not encode every seat id again per resume).
 * The bytes of proto_msg_presence's message: {"t":"presence","seats":{id:bool,...}} in the
 * state's order. */
static engine_msg *presence_msg(engine *e, campaign *k)
{
    welcome_cache *wc = &k->wc;
    if (wc->presence && wc->seq == k->seq && wc->presence_ver == k->presence_ver)
        return engine_msg_ref(wc->presence);
    static const char HEAD[] = "{\"t\":\"presence\",\"seats\":{";
    presence_text_follow(wc, k, json_object_get(k->state, "seats"));
    proto_buf b = {0};
    fanout_msg_open(&b, e->opt.headroom);
    proto_buf_reserve(&b, sizeof HEAD + wc->pl_off[wc->pl_n] + 5 * wc->pl_n + 2);
    proto_buf_add(&b, HEAD, sizeof HEAD - 1);
    for (size_t i = 0; i < wc->pl_n; i++) {
        seat_rt *s = wc->pl_rt[i];
        int online = s && s->online > 0;
        proto_buf_add(&b, wc->pl_keys + wc->pl_off[i], wc->pl_off[i + 1] - wc->pl_off[i]);
        proto_buf_add(&b, online ? "true" : "false", online ? 4 : 5);
        if (s && online != s->told)
            s->retell = 1; /* the seats there were told otherwise: the next presence names it,
                              even if it is back to what they were told by then */
    }
    proto_buf_add(&b, "}}", 2);
    engine_msg *m = fanout_msg_close(&b, e->opt.headroom);
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

/* Whether k's burst window holds what would leave now (engine_opts.burst_window_ms): one window
 * per campaign for its joins and its presence changes, so the joins it ends and the presence
 * that tells them leave in one turn (one write per seat). */
static int burst_holds(const engine *e, const campaign *k, uint64_t now)
{
    return e->opt.burst_window_ms > 0 && now < k->burst_until_ns && k->burst_turn != e->turn;
}

/* Something of k leaves now: a window opens unless one opened in this turn. */
static void burst_open(engine *e, campaign *k, uint64_t now)
{
    if (e->opt.burst_window_ms <= 0 || k->burst_turn == e->turn)
        return;
    k->burst_until_ns = now + (uint64_t)e->opt.burst_window_ms * 1000000u;
    k->burst_turn = e->turn;
}

/* Presence as diffs (issue 10): a connect or disconnect does not send every seat the whole
 * list; it marks the campaign, and every seat of a marked campaign gets one small `presence`
 * with only the seats whose online flag changed since they were last told, encoded once. At most
 * once per burst window per campaign (issue 26): the first change after a quiet window leaves at
 * once (this turn), the later ones wait for the window's end and leave together, so a burst of
 * N resumes sends each seat there about (its duration / window) messages, not N. A seat that went
 * offline and back before its campaign was told sends nothing, unless a newcomer's whole list
 * said otherwise meanwhile (seat_rt.retell). */
void engine__presence_flush(engine *e)
{
    uint64_t now = engine__mono_ns();
    campaign *list = e->presence;
    e->presence = NULL;
    for (campaign *k = list, *next; k; k = next) {
        next = k->presence_next;
        if (k->conns && burst_holds(e, k, now)) {
            k->presence_next = e->presence; /* the window is open: wait for its end */
            e->presence = k;
            continue;
        }
        k->presence_next = NULL;
        k->presence_due = 0;
        json_t *seats = json_object();
        for (seat_rt *s = k->seats; s; s = s->next) {
            int online = s->online > 0;
            if (online != s->told || s->retell)
                json_object_set_new(seats, s->id, json_boolean(online));
            s->told = online;
            s->retell = 0;
        }
        if (json_object_size(seats) == 0 || !k->conns) {
            json_decref(seats);
            continue;
        }
        burst_open(e, k, now);
        char *text = engine__dump_free(proto_msg_presence(seats));
        engine_msg *m = fanout_msg_new(e->opt.headroom, text, strlen(text));
        free(text);
        m->lazy = 1; /* news for the others: may wait for the transport (ENGINE_LAZY_MS) */
        for (engine_conn *c = k->conns; c; c = c->camp_next)
            engine__send_shared(c, m);
        engine_msg_unref(m);
    }
}

int engine_due_ms(const engine *e)
{
    uint64_t now = engine__mono_ns(), due = 0;
    for (const campaign *k = e->presence; k; k = k->presence_next)
        if (!due || k->burst_until_ns < due)
            due = k->burst_until_ns;
    for (const campaign *k = e->joins; k; k = k->joins_next)
        if (!due || k->burst_until_ns < due)
            due = k->burst_until_ns;
    if (!due)
        return -1;
    return due <= now ? 0 : (int)((due - now + 999999u) / 1000000u);
}

/* Takes c out of its campaign's connection list; its seat goes offline when it was the last
 * (presence is told at the end of the turn, or of the campaign's burst window). No-op when c has
 * no campaign. */
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

/* ---- the tail of the log that resumes read (resume_cache: engine_int.h) ------------------- */

void engine__resume_cache_clear(resume_cache *rc)
{
    for (size_t i = 0; i < rc->n; i++) {
        json_decref(rc->ev[i].patch);
        fanout_end(rc->ev[i].f);
    }
    free(rc->ev);
    rc->ev = NULL;
    rc->n = 0;
    rc->lo = rc->hi = 0;
}

struct cache_read {
    resume_ev *ev;
    size_t n;
    int64_t next; /* the seq the next event must have */
    int hole;
};

static int cache_one(void *ctx, const store_event *ev)
{
    struct cache_read *r = ctx;
    if (ev->seq != r->next) {
        r->hole = 1; /* a hole in the log: no resume from there */
        return 1;
    }
    r->ev[r->n++] = (resume_ev){ev->seq, json_incref((json_t *)ev->patch), NULL};
    r->next++;
    return 0;
}

/* Makes k's resume cache hold the events (from, k->seq] (from >= 0), reading only those it does
 * not hold yet; it starts over when the campaign's seq moved. 0, or -1 when the log cannot give
 * them (a read failure, logged, or a hole). */
static int resume_cover(engine *e, campaign *k, int64_t from)
{
    resume_cache *rc = &k->rcache;
    if (rc->hi != k->seq || !rc->ev) {
        engine__resume_cache_clear(rc);
        rc->lo = rc->hi = k->seq;
    }
    if (from >= rc->lo)
        return 0;
    size_t want = (size_t)(rc->lo - from);
    struct cache_read r = {xmalloc(sizeof *r.ev * (want + rc->n)), 0, from + 1, 0};
    tb_err err = {0};
    int failed = store_events_each(e->st, k->id, from, rc->lo, cache_one, &r, &err);
    if (failed || r.n != want) {
        if (failed && !r.hole)
            tb_log(TB_LOG_ERR, "resume of %s: %s", k->id, err.msg);
        for (size_t i = 0; i < r.n; i++)
            json_decref(r.ev[i].patch);
        free(r.ev);
        return -1;
    }
    if (rc->n)
        memcpy(r.ev + want, rc->ev, rc->n * sizeof *rc->ev);
    free(rc->ev);
    rc->ev = r.ev;
    rc->n += want;
    rc->lo = from;
    return 0;
}

/* Sends c the diffs of the events (from, k->seq] as its seat sees them, from the resume cache
 * (resume_cover(from) done), each with the seat's seq from pseqs[seq - from - 1] (NULL for the
 * GM, whose seq is the campaign's). */
/* The diff c gets of event s of a resume from `from` (borrowed from the event's fanout; NULL when
 * it sees nothing of it). */
static engine_msg *resume_msg(campaign *k, engine_conn *c, int64_t from, const int64_t *pseqs,
                              int64_t s)
{
    resume_ev *ev = &k->rcache.ev[s - k->rcache.lo - 1];
    if (!ev->f)
        ev->f = fanout_begin(ev->patch, NULL, 0, ev->seq, NULL, 0, c->headroom);
    int64_t seq = pseqs ? pseqs[s - from - 1] : s;
    return fanout_for_seq(ev->f, c->seat, c->role == ROLE_GM, seq);
}

/* Whether the diffs c would get resuming from `from` weigh at most opt.resume_max_bytes: past
 * that the whole state is sent instead (it is smaller, and a connection's queue holds it). */
static int resume_fits(engine *e, campaign *k, engine_conn *c, int64_t from, const int64_t *pseqs)
{
    size_t bytes = 0;
    for (int64_t s = from + 1; s <= k->seq && bytes <= e->opt.resume_max_bytes; s++) {
        engine_msg *m = resume_msg(k, c, from, pseqs, s);
        bytes += m ? m->len : 0;
    }
    return bytes <= e->opt.resume_max_bytes;
}

static void resume_send(campaign *k, engine_conn *c, int64_t from, const int64_t *pseqs)
{
    for (int64_t s = from + 1; s <= k->seq; s++)
        engine__send_shared(c, resume_msg(k, c, from, pseqs, s));
}

/* ---- where a player resumes (issue 27 items 10, 11) ---------------------------------------- */

#define RESUME_WINDOW 256 /* events read at once on the walk back */

/* A player asks to resume after its seat's seq v. Walks the event log back from the newest event
 * to the last one after which the seat's seq was v, and returns its campaign seq (the resume
 * sends every event after it), with *pseqs (malloc'd, one per event after it) the seat's seqs.
 * Returns -1 when the player must get a fresh state instead: v is ahead of the campaign, too
 * far back (more than opt.resume_max diffs, or 4 × that many events), or from before its seat
 * existed — a page of a seat made later must not be sent what happened before it (item 10). */
static int64_t player_resume_from(engine *e, campaign *k, const char *seat, int64_t v,
                                  int64_t **pseqs)
{
    int64_t now = playerseq_seat(k->state, k->seq, seat);
    *pseqs = NULL;
    if (v < 0 || v > now || now - v > e->opt.resume_max)
        return -1;
    int64_t limit = 4 * (int64_t)e->opt.resume_max;
    int64_t span = k->seq < limit ? k->seq : limit; /* events (k->seq - span, k->seq] */
    int64_t *after = xmalloc(sizeof *after * (size_t)(span + 1)); /* [k->seq - s]: after s */
    int64_t cur = now; /* the seat's seq after event hi */
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
        if (resume_cover(e, k, lo))
            break; /* a hole in the log (or a read failure): no resume from there */
        const resume_cache *rc = &k->rcache;
        for (int64_t s = hi; s > lo; s--) { /* newest first */
            const json_t *patch = rc->ev[s - rc->lo - 1].patch;
            int intro = 0, moves = playerseq_moves_seat(patch, seat, &intro);
            after[k->seq - s] = cur;
            if (cur == v) {
                found = s;
                break;
            }
            if (playerseq_patch_adds_seat(patch, seat)) {
                stop = 1; /* v is from before this seat existed */
                break;
            }
            if (old || intro) {
                old = 1;
                cur = s - 1;
            } else if (moves) {
                cur--;
            }
        }
        hi = lo;
    }
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
    if (c->role == ROLE_CREATOR)
        return json_pack("{s:s, s:s, s:s}", "id", "creator", "role", "creator", "name", "New GM");
    json_t *seat = json_object_get(json_object_get(c->camp->state, "seats"), c->seat);
    return json_pack("{s:s, s:s, s:O}", "id", c->seat, "role", c->role == ROLE_GM ? "gm" : "player",
                     "name", json_object_get(seat, "name"));
}

/* The state of k as c's seat sees it, encoded (a new reference to a message without headroom):
 * the GM's and that of a player without a private area are encoded once per seq and shared by
 * every welcome until the state changes (issue 26: a join or resume burst encodes the state once
 * per audience, not once per seat); across seqs, the text of every subtree the new state shares
 * with the last one encoded is copied, not encoded again (encmemo.h: one join per turn costs
 * what it changed, not the whole state). */
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
    if (!wc->memo)
        wc->memo = encmemo_new();
    proto_buf b = {0};
    fanout_msg_open(&b, 0);
    encmemo_append(wc->memo, &b, state);
    engine_msg *m = fanout_msg_close(&b, 0);
    json_decref(state);
    if (slot)
        *slot = engine_msg_ref(m);
    return m;
}

/* {"t":"welcome","seat","campaign","seq","state","history"} (send_welcome's text) around a state
 * already encoded: a copy of its bytes, no encoding. */
static void send_welcome_state(engine *e, engine_conn *c, json_t *seat, json_t *camp, int64_t seq,
                               const engine_msg *state)
{
    static const char T[] = "{\"t\":\"welcome\",\"seat\":", CAMP[] = ",\"campaign\":",
                      SEQ[] = ",\"seq\":", STATE[] = ",\"state\":", HISTORY[] = ",\"history\":";
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
    if (e->history[0]) {
        json_t *h = json_string(e->history);
        proto_buf_add(&b, HISTORY, sizeof HISTORY - 1);
        proto_json_append(&b, h);
        json_decref(h);
    }
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
    /* The GM's seq is the campaign's; a player's counts only the diffs its seat receives, and it
     * resumes only from a point its own seat has seen (server/playerseq.h). */
    int64_t seq = gm ? k->seq : playerseq_seat(k->state, k->seq, seat), from = -1;
    int64_t *pseqs = NULL;
    if (has_last && gm && last_seq >= 0 && last_seq <= k->seq &&
        k->seq - last_seq <= e->opt.resume_max && resume_cover(e, k, last_seq) == 0)
        from = last_seq; /* (a player's walk back covered its events already) */
    else if (has_last && !gm)
        from = player_resume_from(e, k, seat, last_seq, &pseqs);
    if (from >= 0 && !resume_fits(e, k, c, from, pseqs)) {
        from = -1;
        free(pseqs);
        pseqs = NULL;
    }
    if (from >= 0) {
        send_welcome(e, c, proto_msg_welcome(seat_json(c), camp_json, seq, NULL));
        resume_send(k, c, from, pseqs);
        free(pseqs);
    } else {
        engine_msg *state = state_text(k, c);
        json_t *sj = seat_json(c);
        send_welcome_state(e, c, sj, camp_json, seq, state);
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
        /* the host token, or a creation code (storage/invites.h: campaign.create alone) */
        int creator = strncmp(seat, STORE_INVITE_SEAT, strlen(STORE_INVITE_SEAT)) == 0;
        free(c->seat);
        c->seat = xstrdup(creator ? seat : "host");
        c->role = creator ? ROLE_CREATOR : ROLE_HOST;
        /* a creation code is told the rule systems campaign.create takes (host_ops.c) */
        engine__send_msg(
            c, proto_msg_welcome(seat_json(c), json_null(), 0,
                                 creator ? json_pack("{s:o}", "systems", ops_systems_json())
                                         : json_object()));
        goto out;
    }
    campaign *k = engine__campaign_get(e, camp_id, &err);
    if (!k && (err.code == TB_INTERNAL || err.code == TB_MOVED)) {
        engine__send_error(c, err.code, err.msg);
        if (err.code == TB_MOVED) /* the page keeps its token and comes back through the router */
            engine__close_conn(c, 1012, "moved");
        goto out;
    }
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

/* The campaign whose open join code is code: found through the registry (no walk of the
 * campaigns), loaded, and checked against its state, which has the last word. */
static campaign *find_by_join_code(engine *e, const char *code, tb_err *err)
{
    char want[33], have[33], id[33];
    if (!ops_join_code_normalize(code, want) || store_campaign_by_join(e->st, want, id, NULL))
        return NULL;
    campaign *k = engine__campaign_get(e, id, err);
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

/* k's roster (roster.h) made to describe seats (a /seats object of k's committed or working
 * state): O(1) when it follows k's events already. */
static roster *seats_roster(campaign *k, const json_t *seats)
{
    if (!k->roster)
        k->roster = roster_new();
    roster_follow(k->roster, seats);
    return k->roster;
}

/* Seats (issue 27 item 4): a campaign holds at most opt.max_seats players, and one address makes
 * at most opt.seats_per_addr new seats before it must wait. Returns 1 (after the error) when c
 * may not make a seat in k now. */
static int seat_refused(engine *e, engine_conn *c, campaign *k)
{
    char msg[160];
    int players = roster_players(seats_roster(k, json_object_get(k->state, "seats")));
    for (const joiner *j = k->joiners; j; j = j->next)
        players++; /* seats this turn will make (engine__joins_run) */
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
    campaign *k = find_by_join_code(e, m->code, &err);
    if (!k && err.code == TB_MOVED) { /* not a wrong code: the page tries again elsewhere */
        engine__send_error(c, TB_MOVED, err.msg);
        engine__close_conn(c, 1012, "moved");
        return;
    }
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
    json_t *args;
    json_t *raw = json_pack("{s:s}", "name", m->name);
    int bad = ops_check_args(def, raw, &args, &err);
    json_decref(raw);
    if (bad) {
        engine__send_error(c, err.code, err.msg);
        return;
    }
    joiner *j = xcalloc(1, sizeof *j);
    j->conn = c;
    j->camp = k;
    j->name = xstrdup(json_string_value(json_object_get(args, "name")));
    /* the seat counts against its address now (issue 27 item 4): a second join from the same
     * address in this turn must see it */
    if (c->peer[0])
        joinlimit_fail(e->seats_by_addr, c->peer, (int64_t)(engine__mono_ns() / 1000000u));
    json_decref(args);
    engine__mint_token(e->secret, j->token);
    c->joining = j;
    if (!k->joiners)
        k->joiners_tail = &k->joiners;
    if (!k->in_joins) {
        k->in_joins = 1;
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

/* Frees the joins k still holds (a window not ended when the engine is destroyed: their
 * connections are gone, no seat is made). */
void engine__joiners_drop(campaign *k)
{
    while (k->joiners) {
        joiner *j = k->joiners;
        k->joiners = j->next;
        joiner_free(j);
    }
    k->in_joins = 0;
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

/* A joining connection sent something else: its join runs at the next flush, window or not
 * (what it sends after its join finds its seat). */
void engine__join_now(engine *e, engine_conn *c)
{
    if (c->joining && c->joining->camp->in_joins)
        c->joining->camp->joins_now = 1;
    engine_flush(e);
}

/* seat.join for a later joiner of a batch, run in place on the batch's working copy work (issue
 * 26: a copy of /seats per joiner made a burst of N joins copy O(N^2) seat entries, a quarter of
 * the server's instructions at 1 000 seats). The batch's first join ran on a copy
 * (engine__run_handler: workcopy_make of W_SEAT_JOIN), so work's root and /seats are the batch's
 * own, shared with no committed state; seat.join refuses before it writes anything (a name
 * taken), so a refused joiner leaves work as it was (checked under opt.check_shared, as
 * engine__run_handler checks the committed state). The roster (roster.h) describes work's
 * /seats and is told of the seat added. 0, or the refusal's code (in *err). */
static int seat_join_in_place(engine *e, const op_def *def, const op_ctx *ctx, campaign *k,
                              json_t *work, const json_t *args, json_t **result, tb_err *err)
{
    uint64_t before = e->opt.check_shared ? workcopy_fingerprint(work) : 0;
    int r = def->fn(ctx, work, args, result, err);
    if (r && e->opt.check_shared && workcopy_check(work, before)) {
        fprintf(stderr,
                "tabled: op %s changed the state before it refused (server/session.c, "
                "seat_join_in_place)\n",
                def->name);
        abort();
    }
    if (!r)
        roster_seat_added(k->roster, json_object_get(work, "seats"),
                          json_string_value(json_object_get(*result, "seat")));
    return r;
}

/* Runs the joins that are due: per campaign, every joiner's seat.join on the working state, then
 * one event (one joiner: op seat.join as a single join always was; several: seat "server", args
 * {names}, result {seats}) and each seat's token, in the open batch. The joiners are welcomed
 * once it is delivered (engine__joins_welcome). Joins are due at most once per burst window per
 * campaign (issue 26): the first after a quiet window in its own turn, the later ones together
 * at the window's end, one event whose diff each seat there receives once. A join not run yet
 * is in no file: if the server stops first, its page has no `joined` and asks the player to
 * join again. */
void engine__joins_run(engine *e)
{
    uint64_t t = engine__mono_ns();
    campaign *list = e->joins;
    e->joins = NULL;
    for (campaign *k = list, *next; k; k = next) {
        next = k->joins_next;
        if (k->joiners && !k->joins_now && burst_holds(e, k, t)) {
            k->joins_next = e->joins; /* the window is open: wait for its end */
            e->joins = k;
            continue;
        }
        k->joins_next = NULL;
        k->in_joins = 0;
        k->joins_now = 0;
        joiner *js = k->joiners;
        k->joiners = NULL;
        if (!js)
            continue;
        burst_open(e, k, t);
        tb_err err = {0};
        const op_def *def = ops_find(ops_campaign_system(k->state), "seat.join");
        /* the number its log entries carry is its public count (server/playerseq.h) */
        json_t *base = engine__current_state(k);
        int64_t event_seq = engine__current_seq(k) + 1;
        int64_t number = playerseq_get(base, event_seq - 1) + 1;
        int64_t now = engine__command_ms(e, number);
        op_ctx ctx = {.seat = "",
                      .dice = e->dice,
                      .secret = e->secret,
                      .now_ms = now,
                      .seq = number,
                      .event_seq = event_seq,
                      .log_cap = e->opt.log_cap};
        json_t *work = json_incref(base), *names = json_array(), *seats = json_array(),
               *args1 = NULL, *result1 = NULL;
        int r = engine__ensure_tx(e, &err), n = 0;
        joiner *first = NULL;
        for (joiner *j = js; j && !r; j = j->next) {
            json_t *args = json_pack("{s:s}", "name", j->name), *result = NULL, *next_work;
            ctx.names = seats_roster(k, json_object_get(work, "seats")); /* no walk of every name */
            if (first
                    ? seat_join_in_place(e, def, &ctx, k, work, args, &result, &j->why)
                    : engine__run_handler(e, def, &ctx, work, args, &result, &next_work, &j->why)) {
                json_decref(args); /* refused (a name taken): this joiner alone is told */
                continue;
            }
            j->seat = xstrdup(json_string_value(json_object_get(result, "seat")));
            if (!first) { /* work becomes the batch's own copy */
                roster_follow_seat(k->roster, json_object_get(work, "seats"),
                                   json_object_get(next_work, "seats"), j->seat);
                json_decref(work);
                work = next_work;
            }
            json_array_append(names, json_object_get(args, "name"));
            json_array_append_new(seats, json_string(j->seat));
            r = store_token_put(e->st, j->token, k->id, j->seat, now, &err);
            if (!first) {
                first = j;
                args1 = json_incref(args);
                result1 = json_incref(result);
            }
            n++;
            json_decref(args);
            json_decref(result);
        }
        pending *p = engine__push_pending(e, NULL, NULL, "seat.join");
        p->needs_host = n > 0; /* the new seats' tokens */
        p->joins = js;
        if (r) {
            json_decref(work);
            e->batch_failed = 1;
        } else if (n == 0) {
            json_decref(work); /* every joiner was refused: no event */
        } else if (n == 1) {
            r = engine__append_event(e, k, first->seat, "seat.join", NULL, args1, result1, work,
                                     now, p, &err);
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
        if (j->why.code && ok) {
            engine__send_error(c, j->why.code, j->why.msg);
            continue;
        }
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
