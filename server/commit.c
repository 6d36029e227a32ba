/*
 * commit.c — step 4: the event appended, the batch committed, replies released (the pipeline:
 * engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "playerseq.h"

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

int engine_flush(engine *e)
{
    engine__presence_flush(e);
    if (!e->head && !store_in_transaction(e->st)) {
        engine__reap_dead(e);
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
            engine__free_campaign(k);
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
                engine__fan_out(p->camp, p->seq, p->pseq, p->patch, e->opt.headroom);
            if (p->reply)
                engine__send_text(p->conn, p->reply);
            engine__count_outcome(e, p->op_label, p->outcome ? p->outcome : "ack");
        } else if (p->reply) {
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
    engine__reap_dead(e);
    return 1;
}

/* ---- the event ---------------------------------------------------------------------------- */

/* Applies a successful handler's new state as one event of the open transaction. new_state is
 * stolen. Returns 0, or TB_INTERNAL (the batch is then marked failed). */
int engine__append_event(engine *e, campaign *k, const char *seat, const char *op,
                         const json_t *args, const json_t *result, json_t *new_state,
                         int64_t now_ms, pending *p, tb_err *err)
{
    json_t *base = engine__current_state(k);
    int64_t seq = engine__current_seq(k) + 1;
    json_t *patch = proto_patch_diff(base, new_state);
    int64_t pseq = playerseq_advance(base, seq - 1, new_state, patch);
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
    p->pseq = pseq;
    p->patch = patch;
    return TB_OK;
}
