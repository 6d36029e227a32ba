/*
 * commit.c — step 4: the event appended, the batch committed, replies released (the pipeline:
 * engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encmemo.h"
#include "engine_int.h"
#include "playerseq.h"
#include "roster.h"

/* ---- the batch ---------------------------------------------------------------------------- */

/* Appends a held reply/event slot for c (NULL for the engine itself) to the open batch; the batch
 * owns it (engine_flush frees it). cmd_id and op_label are copied. */
pending *engine__push_pending(engine *e, engine_conn *c, const char *cmd_id, const char *op_label)
{
    pending *p = xcalloc(1, sizeof *p);
    p->conn = c;
    p->cmd_id = xstrdup(cmd_id ? cmd_id : "");
    p->op_label = xstrdup(op_label);
    p->t0_ns = engine__mono_ns();
    if (e->tail)
        e->tail->next = p;
    else
        e->head = p;
    e->tail = p;
    return p;
}

/* Opens the turn's transaction unless one is open. 0, or the store's error code. */
int engine__ensure_tx(engine *e, tb_err *err)
{
    if (store_in_transaction(e->st))
        return TB_OK;
    return store_begin(e->st, err);
}

/* Holds a nack for the sender; records it for idempotency when the refusal is a property of the
 * command itself (not of the moment: rate limits and internal failures may be retried). */
void engine__hold_nack(engine *e, engine_conn *c, const char *idem_campaign, const char *cmd_id,
                       const char *op_label, const tb_err *why)
{
    pending *p = engine__push_pending(e, c, cmd_id, op_label);
    p->reply = engine__dump_free(proto_msg_nack(cmd_id, why->code, why->msg));
    p->outcome = xstrdup(tb_code_name(why->code));
    if (idem_campaign && why->code != TB_RATE_LIMITED && why->code != TB_INTERNAL &&
        why->code != TB_UNAUTHORIZED) {
        tb_err err;
        if (strcmp(idem_campaign, STORE_HOST) == 0) {
            p->needs_host = 1;
        } else if ((p->idem_camp = engine__find_campaign(e, idem_campaign))) {
            engine__mark_work(e, p->idem_camp);
        }
        if (store_idem_put(e->st, idem_campaign, c->seat, cmd_id, p->reply, &err))
            e->batch_failed = 1;
    }
}

/* After a commit: connections of seats that no longer exist are told and closed. */
static void drop_removed_seats(campaign *k)
{
    json_t *seats = json_object_get(k->state, "seats");
    for (engine_conn *c = k->conns; c; c = c->camp_next) {
        if (c->seat && !json_object_get(seats, c->seat)) {
            engine__send_error(c, TB_UNAUTHORIZED, "your seat was removed from this campaign");
            engine__close_conn(c, 1008, "seat removed");
        }
    }
}

/* Whether a held item may be delivered as it is: everything it stands on committed. */
static int pending_ok(const pending *p, int failed, int host_ok)
{
    return !failed && (!p->camp || p->camp->batch_ok) &&
           (!p->idem_camp || p->idem_camp->batch_ok) && (!p->needs_host || host_ok);
}

/* What engine_flush knows of the turn's commit. */
typedef struct turn {
    int failed;  /* a write failed before the commit: nothing of the turn committed */
    int pending; /* the campaign files are committing (store_commit_start): the rest is to do */
    int host_ok; /* the host file committed (known once pending is 0) */
} turn;

/* Ends the turn's commit: the files still committing, then the host file. */
static void turn_finish(engine *e, turn *t)
{
    if (!t->pending)
        return;
    tb_err err = {0};
    if (store_commit(e->st, &err) != TB_OK)
        fprintf(stderr, "tabled: commit failed: %s\n", err.msg);
    t->pending = 0;
    t->host_ok = !t->failed && store_batch_ok(e->st, STORE_HOST);
}

/* Publishes (or drops) the working state the turn made of k, once its file is decided: a
 * campaign's replies wait for its own COMMIT only, and for the host file's when it is new. */
static void settle(engine *e, turn *t, campaign *k)
{
    if (!k || !k->in_work || k->settled) /* only what the turn wrote: the others stand */
        return;
    if (k->fresh)
        turn_finish(e, t);
    k->settled = 1;
    k->batch_ok = !t->failed && store_batch_ok(e->st, k->id) && (!k->fresh || t->host_ok);
    if (k->work) {
        if (k->batch_ok) {
            json_decref(k->state);
            k->state = k->work;
            k->seq = k->work_seq;
            k->changed = 1;
            engine__resume_cache_clear(&k->rcache); /* kept only while nothing happens */
        } else {
            json_decref(k->work);
        }
        k->work = NULL;
    }
    if (k->fresh && k->batch_ok) {
        k->fresh = 0;
        e->n_campaigns++;
    }
}

/*
 * Commits the turn (store.h: each campaign file written in it, then the host file) and delivers.
 * What committed is published and delivered; a campaign whose file failed drops its working state
 * and its commands are answered nack internal, without touching the others (a damaged file takes
 * down its campaign alone). A write that failed before the commit (batch_failed) fails the turn.
 * With many files, they commit on the store's committer while the replies of those decided go
 * (store_commit_start); a reply that stands on the host file waits for all of them.
 */
int engine_flush(engine *e)
{
    e->turn++;            /* what a burst window lets out in this call leaves together */
    engine__joins_run(e); /* the joins due: one event per campaign, in this batch */
    engine__presence_flush(e);
    if (!e->head && !store_in_transaction(e->st)) {
        engine__reap_dead(e);
        return 0;
    }
    turn t = {.failed = e->batch_failed};
    if (store_in_transaction(e->st)) {
        if (t.failed) {
            store_rollback(e->st);
        } else {
            e->commits++; /* some files may commit even when the commit fails */
            t.pending = 1;
            if (!store_commit_start(e->st))
                turn_finish(e, &t);
        }
    }
    if (!t.pending)
        t.host_ok = !t.failed && store_batch_ok(e->st, STORE_HOST);
    campaign *list = e->work;
    e->work = NULL;
    /* Deliver in arrival order: each event's diff to every seat, then the sender's reply; the
     * joiners are welcomed last, with the state after every event of the turn. */
    pending *p = e->head, *joins = NULL;
    e->head = e->tail = NULL;
    e->batch_failed = 0;
    while (p) {
        pending *next = p->next;
        if (p->needs_host)
            turn_finish(e, &t);
        settle(e, &t, p->camp);
        settle(e, &t, p->idem_camp);
        int ok = pending_ok(p, t.failed, t.host_ok);
        if (p->joins) {
            p->ok = ok;
            p->next = joins;
            joins = p;
            if (ok && p->patch) /* the seats there learn of the newcomers lazily (issue 26) */
                engine__fan_out(p->camp, p->seq, &p->ps, p->patch, p->patch_text, p->patch_len,
                                p->op_at, e->opt.headroom, 1);
            engine__count_outcome(e, p->op_label, ok ? "ack" : "internal");
            engine__observe_latency(e, p->t0_ns);
            p = next;
            continue;
        }
        if (ok) {
            if (p->patch)
                engine__fan_out(p->camp, p->seq, &p->ps, p->patch, p->patch_text, p->patch_len,
                                p->op_at, e->opt.headroom, 0);
            if (p->reply)
                engine__send_text(p->conn, p->reply);
            engine__count_outcome(e, p->op_label, p->outcome ? p->outcome : "ack");
        } else if (p->reply) {
            turn_finish(e, &t); /* whether the disk is full is known once every file is */
            char *nack = engine__dump_free(proto_msg_nack(
                p->cmd_id, TB_INTERNAL,
                store_disk_full(e->st)
                    ? "the server's disk is full, so this command was not saved; try again later"
                    : "the server could not save this command"));
            engine__send_text(p->conn, nack);
            free(nack);
            engine__count_outcome(e, p->op_label, "internal");
        }
        engine__observe_latency(e, p->t0_ns);
        json_decref(p->patch);
        playerseq_step_free(&p->ps);
        free(p->patch_text);
        free(p->op_at);
        free(p->reply);
        free(p->cmd_id);
        free(p->op_label);
        free(p->outcome);
        free(p);
        p = next;
    }
    turn_finish(e, &t);
    for (campaign *k = list; k; k = k->work_next)
        settle(e, &t, k);
    while (joins) { /* in arrival order: the list was built backwards */
        pending *first = NULL;
        for (pending **pp = &joins; *pp; pp = &(*pp)->next)
            if (!(*pp)->next) {
                first = *pp;
                *pp = NULL;
                break;
            }
        engine__joins_welcome(e, first->joins, first->ok);
        json_decref(first->patch);
        playerseq_step_free(&first->ps);
        free(first->patch_text);
        free(first->op_at);
        free(first->cmd_id);
        free(first->op_label);
        free(first);
        engine__presence_flush(e); /* the others learn the newcomers are here, in this turn */
    }
    for (campaign *k = list, *next; k; k = next) {
        next = k->work_next;
        k->work_next = NULL;
        k->in_work = 0;
        k->settled = 0;
        if (k->changed && k->seat_gone) /* not a walk of every connection per join */
            drop_removed_seats(k);
        k->changed = 0;
        k->seat_gone = 0;
        if (k->fresh) /* created in a turn that did not commit: its file is an orphan */
            engine__campaign_drop(e, k);
    }
    engine__releases_run(e); /* after every reply of the turn: then its sockets are told */
    engine__reap_dead(e);
    return 1;
}

/* ---- the event ---------------------------------------------------------------------------- */

/* The ids (a new array) of the seats of old_seats that new_seats no longer has: read from the
 * event's ops (a key gone from an object is a "remove" at its path, proto_patch_diff_shared), so
 * a join does not walk every seat; an op on /seats itself or the root: every seat is looked at. */
static json_t *removed_seats(const json_t *patch, const json_t *old_seats, const json_t *new_seats)
{
    json_t *gone = json_array();
    int whole = 0;
    for (size_t i = 0; i < json_array_size(patch) && !whole; i++) {
        const json_t *op = json_array_get(patch, i);
        const char *path = json_string_value(json_object_get(op, "path"));
        proto_pointer ptr;
        if (!path || proto_pointer_parse(path, &ptr, NULL)) {
            whole = 1;
            continue;
        }
        if (ptr.n == 0 || (ptr.n == 1 && strcmp(ptr.tokens[0], "seats") == 0))
            whole = 1;
        else if (ptr.n == 2 && strcmp(ptr.tokens[0], "seats") == 0 &&
                 !json_object_get(new_seats, ptr.tokens[1]) &&
                 json_object_get(old_seats, ptr.tokens[1]))
            json_array_append_new(gone, json_string(ptr.tokens[1]));
        proto_pointer_free(&ptr);
    }
    if (whole) {
        json_array_clear(gone);
        const char *id;
        json_t *v;
        json_object_foreach((json_t *)old_seats, id, v)
        {
            if (!json_object_get(new_seats, id))
                json_array_append_new(gone, json_string(id));
        }
    }
    return gone;
}

/* Whether /campaign or /gm/join (what a campaign's summary reads besides its seats) may differ
 * between two states: 0 when both are the same nodes (states never change). */
static int summary_moved(const json_t *a, const json_t *b)
{
    json_t *ga = json_object_get(a, "gm"), *gb = json_object_get(b, "gm");
    return json_object_get(a, "campaign") != json_object_get(b, "campaign") ||
           (ga != gb && json_object_get(ga, "join") != json_object_get(gb, "join"));
}

/* The patch's text, proto_json_dump's (the patch is an array), with the value of each op kept in
 * the memo m and the texts of look copied (encmemo_append_keep); *op_at (new) where each op's
 * text starts, then its ']'. */
static char *encode_patch(encmemo *m, const json_t *patch, encmemo *look, size_t *len,
                          size_t **op_at)
{
    size_t n = json_array_size(patch);
    size_t *at = xmalloc((n + 1) * sizeof *at);
    proto_buf b = {0};
    proto_buf_addc(&b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            proto_buf_addc(&b, ',');
        at[i] = b.len;
        encmemo_append_keep(m, &b, json_array_get(patch, i), 1, look);
    }
    at[n] = b.len;
    proto_buf_addc(&b, ']');
    proto_buf_addc(&b, '\0');
    *len = b.len - 1;
    *op_at = at;
    return b.data;
}

/* Applies a successful handler's new state as one event of the open transaction; cmd_id (may be
 * NULL) makes the event its command's idempotency record (store.h). new_state is stolen. The
 * registry's summary of the campaign follows when the event changes it (name, join code, seats).
 * Returns 0, or TB_INTERNAL (the batch is then marked failed). */
int engine__append_event(engine *e, campaign *k, const char *seat, const char *op,
                         const char *cmd_id, const json_t *args, const json_t *result,
                         json_t *new_state, int64_t now_ms, pending *p, tb_err *err)
{
    json_t *base = engine__current_state(k);
    int64_t seq = engine__current_seq(k) + 1;
    json_t *patch = proto_patch_diff_shared(base, new_state); /* states never change */
    /* the players' counts, and who sees the event: worked out once, for the fan-out too */
    playerseq_step ps;
    playerseq_advance(base, seq - 1, new_state, patch, &ps);
    int64_t pseq = playerseq_step_seat(&ps, seat); /* the sender's (a player's ack carries it) */
    if (p->ack_pseq && p->ack_entry == pseq)
        p->ack_entry = 0; /* a player's ack says `entry` only when it is not its seq */
    /* Encoded once: stored, and the GM's diff. The values its ops add (a log entry) stay in the
     * campaign's memo, so the snapshot by size copies their text (encmemo.h, issue 26). */
    if (!k->wc.memo)
        k->wc.memo = encmemo_new();
    size_t patch_len, *op_at;
    char *patch_text = encode_patch(k->wc.memo, patch, e->results, &patch_len, &op_at);
    store_event ev = {.campaign = k->id,
                      .seq = seq,
                      .seat = seat,
                      .op = op,
                      .args = args,
                      .result = result,
                      .patch = patch,
                      .at_ms = now_ms,
                      .cmd_id = cmd_id,
                      .ack_seq = cmd_id && p->ack_pseq ? pseq : 0,
                      .ack_entry = cmd_id ? p->ack_entry : 0,
                      .patch_text = patch_text,
                      .patch_len = patch_len,
                      .result_text = p->result_text,
                      .result_len = p->result_len};
    engine__mark_work(e, k);
    int r = store_event_append(e->st, &ev, err);
    /* Seats that disappeared lose their tokens in the same batch. */
    json_t *old_seats = json_object_get(base, "seats");
    json_t *new_seats = json_object_get(new_state, "seats");
    if (k->roster && old_seats != new_seats) /* from the seats the ops touch (roster.h) */
        roster_follow_patch(k->roster, old_seats, new_seats, patch);
    json_t *gone = old_seats != new_seats ? removed_seats(patch, old_seats, new_seats) : NULL;
    for (size_t i = 0; i < json_array_size(gone) && !r; i++) {
        r = store_token_revoke_seat(e->st, k->id, json_string_value(json_array_get(gone, i)), err);
        p->needs_host = 1;
        k->seat_gone = 1;
    }
    json_decref(gone);
    /* what the summary reads (store_summary_of_state) is shared when the event left it alone */
    store_summary was, now;
    if (!r && (old_seats != new_seats || summary_moved(base, new_state))) {
        store_summary_of_state(base, seq - 1, &was);
        store_summary_of_state(new_state, seq, &now);
        if (was.seats != now.seats || !engine__str_eq(was.name, now.name) ||
            !engine__str_eq(was.system, now.system) ||
            !engine__str_eq(was.join_code, now.join_code)) {
            r = store_campaign_summary_put(e->st, k->id, &now, err);
            if (r == TB_NOT_FOUND)
                r = TB_OK; /* not registered (a tool's campaign): nothing to keep up to date */
        }
    }
    /* By default a snapshot is due after 100 events, and once the patches since the last one
     * weigh as much as it did: encoding the whole state then costs, spread over the events, what
     * encoding their own patches cost, whatever the size of the campaign (issue 26), and a
     * rebuild reads at most a state's weight of log after the snapshot. --snapshot-every N
     * (opt.snapshot_every) asks for one every N events instead. */
    k->tail_bytes += patch_len;
    int due = e->opt.snapshot_every > 0
                  ? seq - k->snap_seq >= e->opt.snapshot_every
                  : seq - k->snap_seq >= 100 && k->tail_bytes >= k->snap_bytes;
    if (!r && due) {
        proto_buf b = {0}; /* the kept texts copied (encmemo.h) */
        encmemo_append(k->wc.memo, &b, new_state);
        size_t len = b.len;
        proto_buf_addc(&b, '\0');
        char *text = b.data;
        r = store_snapshot_put_text(e->st, k->id, seq, text, len, err);
        free(text);
        if (!r) {
            k->snap_seq = seq;
            k->snap_bytes = len;
            k->tail_bytes = 0;
        }
    }
    if (r) {
        json_decref(patch);
        playerseq_step_free(&ps);
        free(patch_text);
        free(op_at);
        json_decref(new_state);
        e->batch_failed = 1;
        return TB_INTERNAL;
    }
    json_decref(k->work);
    k->work = new_state;
    k->work_seq = seq;
    p->camp = k;
    p->seq = seq;
    p->pseq = pseq;
    playerseq_step_free(&p->ps);
    p->ps = ps;
    p->patch = patch;
    p->patch_text = patch_text;
    p->patch_len = patch_len;
    free(p->op_at);
    p->op_at = op_at;
    return TB_OK;
}
