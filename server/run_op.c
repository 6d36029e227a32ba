/*
 * run_op.c — step 3: the handler on a copy-on-write working state (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encmemo.h"
#include "engine_int.h"
#include "playerseq.h"
#include "route.h"
#include "workcopy.h"

/* Runs def's handler on a copy-on-write working copy of base (workcopy.h). Returns the handler's
 * code; on success *work is the new state (a new reference), on failure it is NULL and base is
 * as it was. With opt.check_shared, a handler that changed base (a subtree it shares with the
 * committed state) aborts the process, naming the op: a broken contract must not go unnoticed. */
int engine__run_handler(engine *e, const op_def *def, const op_ctx *ctx, json_t *base,
                        const json_t *args, json_t **result, json_t **work, tb_err *err)
{
    uint64_t before = e->opt.check_shared ? workcopy_fingerprint(base) : 0;
    *work = workcopy_make(base, def->writes_of ? def->writes_of(args) : def->writes);
    int r = def->fn(ctx, *work, args, result, err);
    workcopy_settle(); /* the logs left shared stay so (workcopy.h) */
    if (e->opt.check_shared && workcopy_check(base, before)) {
        fprintf(stderr,
                "tabled: op %s changed state outside the subtrees its row declares "
                "(server/ops.h, copy-on-write)\n",
                def->name);
        abort();
    }
    if (r) {
        json_decref(*work);
        *work = NULL;
    }
    return r;
}

/* Runs def (already authorized: authorize.c) for conn's seat in campaign k with the normalized
 * args (borrowed). On success the event is in the transaction and the ack is held; on failure
 * (the handler refused: nothing changed, no randomness was consumed before its checks) a nack is
 * held. */
void engine__run_campaign_op(engine *e, engine_conn *c, campaign *k, const op_def *def,
                             const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    json_t *result = NULL, *work;
    /* the number the event's log entries and keys carry: its public count (server/playerseq.h) */
    int64_t number = playerseq_get(engine__current_state(k), engine__current_seq(k)) + 1;
    int64_t now = engine__command_ms(e, number);
    op_ctx ctx = {.seat = c->seat,
                  .is_gm = c->role == ROLE_GM,
                  .dice = e->dice,
                  .secret = e->secret,
                  .now_ms = now,
                  .seq = number,
                  .event_seq = engine__current_seq(k) + 1,
                  .log_cap = e->opt.log_cap};
    if (engine__run_handler(e, def, &ctx, engine__current_state(k), args, &result, &work, &err)) {
        /* a read-only op stores nothing, not even its refusal (issue 27 item 1) */
        engine__hold_nack(e, c, def->readonly ? NULL : k->id, cmd_id, def->name, &err);
        goto out;
    }
    if (def->readonly) {
        /* Read-only (system.describe): no event, no idempotency row; the answer (seq null) is
         * held like any reply so it comes after the diffs of this turn. Running it again for a
         * re-sent id gives the same answer, so nothing needs remembering: one player asking in a
         * loop must not be able to fill the disk (issue 27 item 1). */
        json_decref(work);
        pending *p = engine__push_pending(e, c, cmd_id, def->name);
        p->reply = engine__dump_free(proto_msg_ack(cmd_id, -1, json_incref(result)));
        goto out;
    }
    pending *p = engine__push_pending(e, c, cmd_id, def->name);
    /* The event carries its command's id: it is the idempotency record (store.h), and the ack
     * a retry gets is rebuilt from it byte for byte: the GM's with `entry`, a player's with its
     * seat's seq, and `entry` when that is not the seq (engine__append_event). */
    p->ack_entry = number;
    p->ack_pseq = c->role != ROLE_GM;
    /* the result encoded once: the event row stores this text and the ack copies it; the texts
     * of its containers are kept for the event's patch (a roll's log entry holds its dice) */
    size_t result_len = 0;
    char *result_text = NULL;
    if (result) {
        if (!e->results)
            e->results = encmemo_new();
        proto_buf b = {0};
        encmemo_append_keep(e->results, &b, result, 1, NULL);
        result_len = b.len;
        proto_buf_addc(&b, '\0');
        result_text = b.data;
    }
    p->result_text = result_text;
    p->result_len = result_len;
    int failed =
        engine__append_event(e, k, c->seat, def->name, cmd_id, args, result, work, now, p, &err);
    p->result_text = NULL;
    if (e->results)
        encmemo_clear(e->results);
    if (failed) {
        p->reply = engine__dump_free(
            proto_msg_nack(cmd_id, TB_INTERNAL, "the server could not save this command"));
        p->outcome = xstrdup("internal");
    } else {
        /* the GM's seq is the campaign's, a player's its seat's (server/playerseq.h); `entry` is
         * the number the event's log entries and ids carry (its public count) */
        p->reply = proto_ack_text(cmd_id, c->role == ROLE_GM ? p->seq : p->pseq, result_text,
                                  result_len, p->ack_entry);
    }
    free(result_text);
out:
    json_decref(result);
}

/* Creates a campaign inside the open transaction: its id, its first event (the whole initial
 * state as a patch from {}), the GM token. *gm_token and *join_code are written. */
campaign *engine__create_campaign(engine *e, const char *name, const char *system,
                                  char gm_token[23], char join_code[10], pending *p, tb_err *err)
{
    char id[11 + ROUTE_SHARD_MAX + 1], minted[11];
    char path[4096];
    int taken;
    do {
        /* behind a router, the id starts with this process's name: the route to it (route.h) */
        engine__mint_id(e->secret, minted);
        if (e->opt.shard)
            snprintf(id, sizeof id, "%s-%s", e->opt.shard, minted);
        else
            memcpy(id, minted, sizeof minted);
        /* an id that is registered, or whose file was left by a creation that never committed */
        taken = engine__find_campaign(e, id) || store_campaign_exists(e->st, id, NULL) != 0 ||
                (store_campaign_path(e->st, id, path, sizeof path, NULL) == TB_OK &&
                 access(path, F_OK) == 0);
    } while (taken);
    ops_join_code(e->secret, join_code);
    engine__mint_token(e->secret, gm_token);
    int64_t now = engine__wall_ms();
    p->needs_host = 1; /* the registration and the GM's token */
    if (store_campaign_insert(e->st, id, now, err) ||
        store_token_put(e->st, gm_token, id, "gm", now, err)) {
        e->batch_failed = 1;
        return NULL;
    }
    campaign *k = xcalloc(1, sizeof *k);
    k->id = xstrdup(id);
    k->state = json_object();
    k->fresh = 1;
    engine__campaign_add(e, k);
    json_t *args = json_pack("{s:s, s:s}", "name", name, "system", system);
    json_t *result = json_pack("{s:s}", "campaign", id);
    int r = engine__append_event(e, k, "host", "campaign.create", NULL, args, result,
                                 ops_campaign_initial(id, name, system, join_code), now, p, err);
    json_decref(args);
    json_decref(result);
    return r ? NULL : k;
}
