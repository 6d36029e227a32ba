/*
 * host_ops.c — the host token's command table (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"

/* ---- host ops: the host token's command table ---------------------------------------------- */

/* Host ops touch the engine itself (the set of campaigns), so their handlers live here, not in
 * ops.c; their rows are checked by the same ops_check_args as every campaign op. args is the
 * normalized copy. */
typedef void (*host_handler)(engine *e, engine_conn *c, const char *cmd_id, const json_t *args);

struct list_ctx {
    engine *e;
    json_t *list;
};

/* One campaign of campaign.list: a loaded campaign's live figures, else the registry's. */
static int list_one(void *ctx, const char *id, const store_summary *sum)
{
    struct list_ctx *l = ctx;
    campaign *k = engine__find_campaign(l->e, id);
    store_summary live;
    if (k) {
        store_summary_of_state(engine__current_state(k), engine__current_seq(k), &live);
        sum = &live;
    }
    json_array_append_new(l->list,
                          json_pack("{s:s, s:s?, s:s?, s:I, s:I}", "id", id, "name", sum->name,
                                    "system", sum->system, "seq", (json_int_t)sum->seq, "seats",
                                    (json_int_t)sum->seats));
    return 0;
}

static void host_campaign_list(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    struct list_ctx l = {e, json_array()};
    if (store_campaigns_each(e->st, list_one, &l, &err)) {
        json_decref(l.list);
        engine__hold_nack(e, c, NULL, cmd_id, "campaign.list", &err);
        return;
    }
    pending *p = engine__push_pending(e, c, cmd_id, "campaign.list");
    p->reply = engine__dump_free(proto_msg_ack(
        cmd_id, -1, json_pack("{s:o, s:o}", "campaigns", l.list, "systems", ops_systems_json())));
}

static void host_campaign_create(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    const char *name = json_string_value(json_object_get(args, "name"));
    const char *system = json_string_value(json_object_get(args, "system"));
    if (!ops_system_known(system)) {
        tb_fail(&err, TB_BAD_REQUEST, "campaign.create: unknown rule system '%.32s'", system);
        engine__hold_nack(e, c, STORE_HOST, cmd_id, "campaign.create", &err);
        return;
    }
    char gm_token[23], code[10];
    pending *p = engine__push_pending(e, c, cmd_id, "campaign.create");
    campaign *k = engine__create_campaign(e, name, system, gm_token, code, p, &err);
    if (!k) {
        p->reply = engine__dump_free(
            proto_msg_nack(cmd_id, TB_INTERNAL, "the server could not save this command"));
        p->outcome = xstrdup("internal");
        return;
    }
    /* The idempotency row must not hold the token (only hashes are stored): it keeps an empty
     * gm_token, and a retry gets a freshly minted one (see replay_host_reply). */
    char *redacted = engine__dump_free(proto_msg_ack(
        cmd_id, -1,
        json_pack("{s:s, s:s, s:s}", "campaign", k->id, "gm_token", "", "join_code", code)));
    p->reply = engine__dump_free(proto_msg_ack(
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
    if (!engine__find_campaign(e, id) && store_campaign_exists(e->st, id, &err) != 1) {
        tb_fail(&err, TB_NOT_FOUND, "campaign.open: no campaign '%.32s'", id);
        engine__hold_nack(e, c, STORE_HOST, cmd_id, "campaign.open", &err);
        return;
    }
    char gm_token[23];
    engine__mint_token(e->secret, gm_token);
    pending *p = engine__push_pending(e, c, cmd_id, "campaign.open");
    p->needs_host = 1;
    if (store_token_put(e->st, gm_token, id, "gm", engine__wall_ms(), &err)) {
        e->batch_failed = 1;
        p->reply = engine__dump_free(
            proto_msg_nack(cmd_id, TB_INTERNAL, "the server could not save this command"));
        p->outcome = xstrdup("internal");
        return;
    }
    char *redacted = engine__dump_free(
        proto_msg_ack(cmd_id, -1, json_pack("{s:s, s:s}", "campaign", id, "gm_token", "")));
    p->reply = engine__dump_free(
        proto_msg_ack(cmd_id, -1, json_pack("{s:s, s:s}", "campaign", id, "gm_token", gm_token)));
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
    {{"campaign.create", NULL, WHO_HOST, 0, ARGS_CAMPAIGN_CREATE, NULL}, host_campaign_create},
    {{"campaign.list", NULL, WHO_HOST, 1, ARGS_HOST_NONE, NULL}, host_campaign_list},
    {{"campaign.open", NULL, WHO_HOST, 0, ARGS_CAMPAIGN_OPEN, NULL}, host_campaign_open},
    {{NULL, NULL, 0, 0, NULL, NULL}, NULL},
};

/* The host op row named name (borrowed), or NULL. */
const struct host_op *engine__host_op_find(const char *name)
{
    for (const struct host_op *h = HOST_OPS; h->def.name; h++)
        if (strcmp(h->def.name, name) == 0)
            return h;
    return NULL;
}

/* Runs the host op named op for the host connection c (checks its row's arguments first);
 * every outcome is a held reply. */
void engine__run_host_op(engine *e, engine_conn *c, const char *op, const char *cmd_id,
                         const json_t *raw_args)
{
    tb_err err = {0};
    const struct host_op *h = engine__host_op_find(op);
    json_t *args;
    if (!h) {
        tb_fail(&err, TB_NOT_FOUND, "unknown op '%.64s' for the host", op);
        engine__hold_nack(e, c, STORE_HOST, cmd_id, "unknown", &err);
        return;
    }
    if (ops_check_args(&h->def, raw_args, &args, &err)) {
        engine__hold_nack(e, c, STORE_HOST, cmd_id, h->def.name, &err);
        return;
    }
    h->run(e, c, cmd_id, args);
    json_decref(args);
}

/* A stored host reply, ready to resend (stolen). A campaign.create ack was stored without its GM
 * token; the retry gets a new token for the same campaign (the first one may have been lost with
 * the reply that carried it). */
char *engine__replay_host_reply(engine *e, char *stored)
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
    engine__mint_token(e->secret, token);
    if (store_token_put(e->st, token, camp_id, "gm", engine__wall_ms(), &err)) {
        e->batch_failed = 1;
        token[0] = '\0';
    }
    json_object_set_new(result, "gm_token", json_string(token));
    free(stored);
    return engine__dump_free(msg);
}
