/*
 * authorize.c — step 2: who may do what, before anything runs (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <string.h>

#include "engine_int.h"

/* The checks the op's row declares (ops.h), for c's seat: who may call it, then its arguments.
 * Returns 0 with *args the normalized arguments (a new reference), or the refusal's code with
 * err set (*args NULL). */
static int authorize_op(const engine_conn *c, const op_def *def, const json_t *raw_args,
                        json_t **args, tb_err *err)
{
    *args = NULL;
    if (def->who == WHO_GM && c->role != ROLE_GM)
        return tb_fail(err, TB_FORBIDDEN, "%s: only the GM may do this", def->name);
    if (ops_check_args(def, raw_args, args, err))
        return err->code;
    if (def->who == WHO_SELF_OR_GM && c->role != ROLE_GM &&
        strcmp(json_string_value(json_object_get(*args, "seat")), c->seat) != 0) {
        json_decref(*args);
        *args = NULL;
        return tb_fail(err, TB_FORBIDDEN, "%s: a player may only do this for their own seat",
                       def->name);
    }
    return TB_OK;
}

/* Token bucket: returns 1 if one more command may run now. */
static int rate_take(engine *e, seat_rt *s)
{
    if (e->opt.rate_per_sec <= 0)
        return 1;
    uint64_t now = engine__mono_ns();
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

/* A cmd from c: every check once, in this order, before any handler runs (STYLE.md, "One
 * command table"): a seat, idempotency (a re-sent id gets its stored reply, before the rate
 * limit), the seat's rate limit, the op's row, its who/argument checks; then run_op.c runs it.
 * Every outcome is a held reply released by engine_flush (commit.c). */
void engine__handle_cmd(engine *e, engine_conn *c, const proto_msg *m)
{
    tb_err err = {0};
    if (c->role == ROLE_NONE) {
        /* Not durable and not recorded: there is no seat to record it for. */
        engine__send_msg(c, proto_msg_nack(m->id, TB_UNAUTHORIZED, "send hello (or join) first"));
        engine__count_outcome(e, "unknown", "unauthorized");
        return;
    }
    /* Idempotency comes before the rate limit (DESIGN.md, step 3): a client resuming after a
     * restart re-sends every unacknowledged command in one burst, and a re-sent id that was
     * already applied costs one lookup, so it is answered with its stored reply, never with
     * rate_limited. */
    if (engine__ensure_tx(e, &err)) {
        e->batch_failed = 1;
        engine__hold_nack(e, c, NULL, m->id, "unknown", &err);
        return;
    }
    /* the host and a creation code have no campaign: their rows are the host file's */
    int hostish = c->role == ROLE_HOST || c->role == ROLE_CREATOR;
    const char *idem_campaign = hostish ? STORE_HOST : c->camp->id;
    char *stored = NULL;
    if (store_idem_get(e->st, idem_campaign, c->seat, m->id, &stored, &err)) {
        e->batch_failed = 1;
        engine__hold_nack(e, c, NULL, m->id, "unknown", &err);
        return;
    }
    if (stored) {
        pending *p = engine__push_pending(e, c, m->id, "replay");
        p->reply = hostish ? engine__replay_host_reply(e, stored) : stored;
        p->outcome = xstrdup("replay");
        return;
    }
    seat_rt *bucket = hostish ? &c->host_bucket : engine__seat_rt_get(c->camp, c->seat);
    if (!rate_take(e, bucket)) {
        tb_fail(&err, TB_RATE_LIMITED, "too many commands; slow down");
        engine__hold_nack(e, c, NULL, m->id, "unknown", &err);
        return;
    }
    if (c->role == ROLE_HOST) {
        engine__run_host_op(e, c, m->op, m->id, m->args);
        return;
    }
    if (c->role == ROLE_CREATOR) {
        engine__run_creator_op(e, c, m->op, m->id, m->args);
        return;
    }
    if (engine__host_op_find(m->op)) {
        tb_fail(&err, TB_FORBIDDEN, "%s: only the host token may do this", m->op);
        engine__hold_nack(e, c, idem_campaign, m->id, m->op, &err);
        return;
    }
    const op_def *def = ops_find(ops_campaign_system(engine__current_state(c->camp)), m->op);
    if (!def || def->who == WHO_INTERNAL) {
        tb_fail(&err, TB_NOT_FOUND, "unknown op '%.64s'", m->op);
        engine__hold_nack(e, c, idem_campaign, m->id, "unknown", &err);
        return;
    }
    json_t *args;
    if (authorize_op(c, def, m->args, &args, &err)) {
        engine__hold_nack(e, c, idem_campaign, m->id, def->name, &err);
        return;
    }
    engine__run_campaign_op(e, c, c->camp, def, m->id, args);
    json_decref(args);
}
