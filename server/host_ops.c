/*
 * host_ops.c — the host token's command table (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "invites.h"
#include "moved.h"

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
    json_t *row =
        json_pack("{s:s, s:s?, s:s?, s:I, s:I}", "id", id, "name", sum->name, "system", sum->system,
                  "seq", (json_int_t)sum->seq, "seats", (json_int_t)sum->seats);
    char to[81];
    if (store_moved_find(l->e->st, id, to, sizeof to, NULL) == 1) /* campaign.release */
        json_object_set_new(row, "moved", json_string(to));
    json_array_append_new(l->list, row);
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

/* campaign.create for the host, or for a creation code (invite: its id, which gives one of its
 * campaigns; the reply then says how many it may still make). */
static void campaign_create(engine *e, engine_conn *c, const char *cmd_id, const json_t *args,
                            const char *invite)
{
    tb_err err = {0};
    const char *name = json_string_value(json_object_get(args, "name"));
    const char *system = json_string_value(json_object_get(args, "system"));
    int left = -1;
    if (!ops_system_known(system)) {
        tb_fail(&err, TB_BAD_REQUEST, "campaign.create: unknown rule system '%.32s'", system);
        engine__hold_nack(e, c, STORE_HOST, cmd_id, "campaign.create", &err);
        return;
    }
    if (invite && store_invite_take(e->st, invite, &left, &err)) {
        if (err.code != TB_FORBIDDEN)
            e->batch_failed = 1;
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
    json_t *result =
        json_pack("{s:s, s:s, s:s}", "campaign", k->id, "gm_token", "", "join_code", code);
    if (invite)
        json_object_set_new(result, "left", json_integer(left));
    char *redacted = engine__dump_free(proto_msg_ack(cmd_id, -1, json_incref(result)));
    json_object_set_new(result, "gm_token", json_string(gm_token));
    p->reply = engine__dump_free(proto_msg_ack(cmd_id, -1, result));
    if (store_idem_put(e->st, STORE_HOST, c->seat, cmd_id, redacted, &err))
        e->batch_failed = 1;
    free(redacted);
}

static void host_campaign_create(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    campaign_create(e, c, cmd_id, args, NULL);
}

/* invite.create: a creation code for up to `campaigns` campaigns (default 1), with the host's
 * note. Like a GM token, the code is stored as a hash only: the idempotency row keeps an empty
 * code and a retry gets a newly minted code for the same invite (engine__replay_host_reply). */
static void host_invite_create(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    json_t *n = json_object_get(args, "campaigns");
    int campaigns = n ? (int)json_integer_value(n) : 1;
    const char *note = json_string_value(json_object_get(args, "note"));
    char id[11], code[23], seat[sizeof STORE_INVITE_SEAT + 11];
    engine__mint_id(e->secret, id);
    id[0] = 'i';
    engine__mint_token(e->secret, code);
    snprintf(seat, sizeof seat, "%s%s", STORE_INVITE_SEAT, id);
    pending *p = engine__push_pending(e, c, cmd_id, "invite.create");
    p->needs_host = 1;
    int64_t now = engine__wall_ms();
    if (store_invite_put(e->st, id, campaigns, note, now, &err) ||
        store_token_put(e->st, code, STORE_HOST, seat, now, &err)) {
        e->batch_failed = 1;
        p->reply = engine__dump_free(
            proto_msg_nack(cmd_id, TB_INTERNAL, "the server could not save this command"));
        p->outcome = xstrdup("internal");
        return;
    }
    char *redacted = engine__dump_free(proto_msg_ack(
        cmd_id, -1,
        json_pack("{s:s, s:s, s:i}", "invite", id, "code", "", "campaigns", campaigns)));
    p->reply = engine__dump_free(proto_msg_ack(
        cmd_id, -1,
        json_pack("{s:s, s:s, s:i}", "invite", id, "code", code, "campaigns", campaigns)));
    if (store_idem_put(e->st, STORE_HOST, "host", cmd_id, redacted, &err))
        e->batch_failed = 1;
    free(redacted);
}

static void host_invite_list(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    json_t *list;
    if (store_invites_json(e->st, &list, &err)) {
        engine__hold_nack(e, c, NULL, cmd_id, "invite.list", &err);
        return;
    }
    pending *p = engine__push_pending(e, c, cmd_id, "invite.list");
    p->reply = engine__dump_free(proto_msg_ack(cmd_id, -1, json_pack("{s:o}", "invites", list)));
}

/* invite.revoke: the invite makes no more campaigns (those it made stay, with their GMs). */
static void host_invite_revoke(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    const char *id = json_string_value(json_object_get(args, "invite"));
    if (store_invite_revoke(e->st, id, &err)) {
        if (err.code != TB_NOT_FOUND)
            e->batch_failed = 1;
        engine__hold_nack(e, c, STORE_HOST, cmd_id, "invite.revoke", &err);
        return;
    }
    pending *p = engine__push_pending(e, c, cmd_id, "invite.revoke");
    p->needs_host = 1;
    char *reply = engine__dump_free(proto_msg_ack(cmd_id, -1, json_pack("{s:s}", "invite", id)));
    if (store_idem_put(e->st, STORE_HOST, "host", cmd_id, reply, &err))
        e->batch_failed = 1;
    p->reply = reply;
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

/* campaign.release (issue 28 item 4, a live move): this process gives the campaign away. In the
 * batch, a `moved` row (storage/moved.h); once it committed, after every reply of the turn, each
 * socket of the campaign is told error moved and closed (engine__releases_run), and from then on
 * a hello, join or /api/join of it is answered moved, here and after a restart, so pages keep
 * their tokens and retry until the router sends them to the new owner. Every command this process
 * acknowledged is in the campaign's file when the host's ack arrives: the operator exports it
 * then (tabled export), imports it into the new owner, changes the router's line. A second
 * release is acknowledged again (moved rows are kept). */
static void host_campaign_release(engine *e, engine_conn *c, const char *cmd_id, const json_t *args)
{
    tb_err err = {0};
    const char *id = json_string_value(json_object_get(args, "campaign"));
    const char *to = json_string_value(json_object_get(args, "to"));
    campaign *k = engine__find_campaign(e, id);
    int known = k ? 1 : store_campaign_exists(e->st, id, &err);
    if (known == 0 || (k && k->fresh))
        tb_fail(&err, TB_NOT_FOUND, "campaign.release: no campaign '%.32s'", id);
    if (known <= 0 || (k && k->fresh)) {
        if (err.code == TB_INTERNAL)
            e->batch_failed = 1;
        engine__hold_nack(e, c, STORE_HOST, cmd_id, "campaign.release", &err);
        return;
    }
    pending *p = engine__push_pending(e, c, cmd_id, "campaign.release");
    p->needs_host = 1;
    if (store_moved_put(e->st, id, to, engine__wall_ms(), &err)) {
        e->batch_failed = 1;
        p->reply = engine__dump_free(
            proto_msg_nack(cmd_id, TB_INTERNAL, "the server could not save this command"));
        p->outcome = xstrdup("internal");
        return;
    }
    if (k && !k->releasing) {
        k->releasing = 1;
        k->release_next = e->releases;
        e->releases = k;
    }
    char *reply = engine__dump_free(proto_msg_ack(
        cmd_id, -1, json_pack("{s:s, s:b, s:s}", "campaign", id, "moved", 1, "to", to ? to : "")));
    if (store_idem_put(e->st, STORE_HOST, "host", cmd_id, reply, &err))
        e->batch_failed = 1;
    p->reply = reply;
}

/* The end of a turn (engine_flush): each campaign released in it whose moved row committed is
 * closed to its sockets (error moved, then a close); engine_tick puts it away once they are gone.
 * A release that did not commit leaves the campaign as it was. */
void engine__releases_run(engine *e)
{
    campaign *list = e->releases;
    e->releases = NULL;
    for (campaign *k = list, *next; k; k = next) {
        next = k->release_next;
        k->release_next = NULL;
        k->releasing = 0;
        if (store_moved_find(e->st, k->id, NULL, 0, NULL) != 1)
            continue;
        k->moved = 1;
        for (engine_conn *c = k->conns; c; c = c->camp_next) {
            engine__send_error(c, TB_MOVED, ENGINE_MOVED_MSG);
            engine__close_conn(c, 1012, "moved");
        }
    }
}

static const op_arg ARGS_CAMPAIGN_RELEASE[] = {
    {"campaign", ARG_STRING, 1, 1, 40},
    {"to", ARG_NAME, 0, 1, 80},
    {NULL, 0, 0, 0, 0},
};

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
static const op_arg ARGS_INVITE_CREATE[] = {
    {"campaigns", ARG_INT, 0, 1, 1000},
    {"note", ARG_NAME, 0, 1, 80},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_INVITE_REVOKE[] = {
    {"invite", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};

static const struct host_op {
    op_def def;
    host_handler run;
} HOST_OPS[] = {
    {{"campaign.create", NULL, WHO_HOST, 0, ARGS_CAMPAIGN_CREATE, NULL}, host_campaign_create},
    {{"campaign.list", NULL, WHO_HOST, 1, ARGS_HOST_NONE, NULL}, host_campaign_list},
    {{"campaign.open", NULL, WHO_HOST, 0, ARGS_CAMPAIGN_OPEN, NULL}, host_campaign_open},
    {{"campaign.release", NULL, WHO_HOST, 0, ARGS_CAMPAIGN_RELEASE, NULL}, host_campaign_release},
    {{"invite.create", NULL, WHO_HOST, 0, ARGS_INVITE_CREATE, NULL}, host_invite_create},
    {{"invite.list", NULL, WHO_HOST, 1, ARGS_HOST_NONE, NULL}, host_invite_list},
    {{"invite.revoke", NULL, WHO_HOST, 0, ARGS_INVITE_REVOKE, NULL}, host_invite_revoke},
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

/* A creation code's command (ROLE_CREATOR): campaign.create, checked like the host's and given
 * by the code's invite (c->seat is "invite:<id>"); anything else is refused. */
void engine__run_creator_op(engine *e, engine_conn *c, const char *op, const char *cmd_id,
                            const json_t *raw_args)
{
    tb_err err = {0};
    const struct host_op *h = engine__host_op_find(op);
    json_t *args;
    if (!h || h->run != host_campaign_create) {
        tb_fail(&err, TB_FORBIDDEN, "%.64s: an invitation may only create a campaign", op);
        engine__hold_nack(e, c, STORE_HOST, cmd_id, h ? h->def.name : "unknown", &err);
        return;
    }
    if (ops_check_args(&h->def, raw_args, &args, &err)) {
        engine__hold_nack(e, c, STORE_HOST, cmd_id, h->def.name, &err);
        return;
    }
    campaign_create(e, c, cmd_id, args, c->seat + strlen(STORE_INVITE_SEAT));
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
    const char *invite = json_string_value(json_object_get(result, "invite"));
    /* an invite.create ack: a new code for the same invite */
    const char *key = camp_id ? "gm_token" : "code";
    char seat[sizeof STORE_INVITE_SEAT + 33];
    if (invite)
        snprintf(seat, sizeof seat, "%s%.32s", STORE_INVITE_SEAT, invite);
    if (!(camp_id || invite) || !json_object_get(result, key)) {
        json_decref(msg);
        return stored;
    }
    char token[23];
    tb_err err;
    engine__mint_token(e->secret, token);
    if (store_token_put(e->st, token, camp_id ? camp_id : STORE_HOST, camp_id ? "gm" : seat,
                        engine__wall_ms(), &err)) {
        e->batch_failed = 1;
        token[0] = '\0';
    }
    json_object_set_new(result, key, json_string(token));
    free(stored);
    return engine__dump_free(msg);
}
