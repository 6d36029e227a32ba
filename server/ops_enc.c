/*
 * ops_enc.c — encounters at the table: the ops that run every encounter module of
 * rules/encounter.h (enc.start, enc.add, enc.remove, enc.act, enc.set, enc.end). The module does
 * the rules; this file does what is the same for every module: where the encounter lives in the
 * campaign state, who may call which action (checked before the module runs), combatants made
 * from characters, sheet write-back, and stamping the module's log entries into /log and /gm/log.
 *
 *   /enc      public encounter state (encounter.h); /gm/enc its GM-only half.
 *   Combatant ids are "e1", "e2", ... (/enc/next_id); a PC combatant names its character in
 *   `char`; an NPC made from /gm/npcs names it only under /gm/enc (players never learn NPC ids).
 */
#include <stdio.h>
#include <string.h>

#include "encounter.h"
#include "ops.h"
#include "system.h"

/* Fills e for the running encounter; TB_RULE when there is none. log/gm_log are new arrays the
 * caller releases with enc_finish. */
static int enc_open(const op_ctx *ctx, json_t *state, rules_enc *e, tb_err *err)
{
    memset(e, 0, sizeof *e);
    json_t *enc = json_object_get(state, "enc");
    if (!json_is_object(enc))
        return tb_fail(err, TB_RULE, "no encounter is running; the GM starts one with enc.start");
    const char *mid = json_string_value(json_object_get(enc, "module"));
    e->mod = mid ? rules_module_find(mid) : NULL;
    if (!e->mod)
        return tb_fail(err, TB_INTERNAL, "the running encounter names an unknown module");
    e->enc = enc;
    e->hidden = ops_child(ops_child(state, "gm"), "enc");
    e->rng = ctx->dice;
    e->seat = ctx->seat;
    e->is_gm = ctx->is_gm;
    e->log = json_array();
    e->gm_log = json_array();
    return TB_OK;
}

/* The GM-only object of cid and its stats, read without creating anything (rules_enc_hidden_of
 * and rules_enc_stats create what is missing: right for modules, not for a read-only pass). */
static json_t *hidden_peek(const rules_enc *e, const char *cid)
{
    return json_object_get(json_object_get(e->hidden, "combatants"), cid);
}

static json_t *stats_peek(const rules_enc *e, const char *cid)
{
    return json_object_get(rules_enc_is_npc(e, cid) ? hidden_peek(e, cid)
                                                    : rules_enc_combatant(e, cid),
                           "stats");
}

/* The character record a combatant was made from ({id, name, sheet, derived}: /chars/<id> for a
 * PC, /gm/npcs/<id> for an NPC), or NULL for a quick NPC. */
static json_t *combatant_owner(json_t *state, rules_enc *e, const char *cid)
{
    const char *ch = json_string_value(json_object_get(rules_enc_combatant(e, cid), "char"));
    if (ch)
        return json_object_get(json_object_get(state, "chars"), ch);
    ch = json_string_value(json_object_get(hidden_peek(e, cid), "char"));
    if (ch)
        return json_object_get(json_object_get(json_object_get(state, "gm"), "npcs"), ch);
    return NULL;
}

/* Every combatant's stats before an action (a new object {cid: stats copy}). */
static json_t *stats_before(rules_enc *e)
{
    json_t *all = json_object();
    const char *cid;
    json_t *c;
    json_object_foreach(json_object_get(e->enc, "combatants"), cid, c)
    {
        json_t *stats = stats_peek(e, cid);
        if (stats)
            json_object_set_new(all, cid, json_deep_copy(stats));
    }
    return all;
}

/* Damage and conditions land on the sheets: the module's sheet_stats that the action changed
 * (compared with `before`, from stats_before) are written to the combatant's sheet when the
 * result still validates (a value the sheet cannot hold stays in the encounter only). A value the
 * action did not touch is left alone, so a GM's edit of the sheet mid-encounter survives. */
static void write_back(json_t *state, rules_enc *e, const json_t *before)
{
    if (!e->mod->sheet_stats)
        return;
    const char *sys = ops_campaign_system(state);
    const char *cid;
    json_t *c;
    json_object_foreach(json_object_get(e->enc, "combatants"), cid, c)
    {
        /* a quick NPC's sheet lives with it under /gm/enc and has no derived values */
        json_t *owner = combatant_owner(state, e, cid);
        json_t *sheet = owner ? json_object_get(owner, "sheet")
                              : json_object_get(hidden_peek(e, cid), "sheet");
        json_t *stats = stats_peek(e, cid);
        if (!json_is_object(sheet) || !stats)
            continue;
        json_t *was = json_object_get(before, cid);
        json_t *next = json_deep_copy(sheet);
        int changed = 0;
        for (const char *const *k = e->mod->sheet_stats; *k; k++) {
            json_t *v = json_object_get(stats, *k);
            json_t *b = json_object_get(was, *k);
            if (v && !(b && json_equal(v, b)) && !json_equal(v, json_object_get(next, *k))) {
                json_object_set_new(next, *k, json_deep_copy(v));
                changed = 1;
            }
        }
        tb_err ignored = {0};
        if (changed && rules_sheet_validate(sys, next, &ignored) == 0) {
            json_object_update(sheet, next);
            if (owner) /* derived values follow the sheet */
                json_object_set_new(owner, "derived", rules_sheet_derive(sys, sheet));
        }
        json_decref(next);
    }
}

/* Stamps the module's log entries (seq, at, seat) into /log and /gm/log; returns the public
 * entries (new reference) for the caller's result. */
static json_t *enc_finish(const op_ctx *ctx, json_t *state, rules_enc *e, int ok)
{
    json_t *out = json_array();
    for (int gm = 0; gm < 2; gm++) {
        json_t *entries = gm ? e->gm_log : e->log;
        size_t i;
        json_t *v;
        json_array_foreach(entries, i, v)
        {
            if (!ok)
                break;
            json_object_set_new(v, "seq", json_integer(ctx->seq));
            json_object_set_new(v, "at", json_integer(ctx->now_ms));
            json_object_set_new(v, "seat", json_string(ctx->seat));
            if (!gm || ctx->is_gm)
                json_array_append(out, v);
            ops_log_append(state, gm, json_incref(v), ctx->log_cap);
        }
    }
    json_decref(e->log);
    json_decref(e->gm_log);
    e->log = e->gm_log = NULL;
    return out;
}

/* ---- enc.start ---- */

static int op_enc_start(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    const char *mid = json_string_value(json_object_get(args, "module"));
    const char *sys = ops_campaign_system(state);
    if (json_is_object(json_object_get(state, "enc")))
        return tb_fail(err, TB_RULE, "an encounter is already running; end it first (enc.end)");
    const rules_module *m = rules_module_find(mid);
    if (!m || strcmp(m->system, sys) != 0) {
        char names[200] = "";
        size_t len = 0;
        const rules_module *x;
        for (size_t i = 0; (x = rules_module_at(i)) && len < sizeof names; i++)
            if (strcmp(x->system, sys) == 0)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                                        x->id);
        return tb_fail(err, TB_NOT_FOUND, "no encounter module '%.40s' in a %s campaign (%s)", mid,
                       sys, len ? names : "it has none");
    }
    rules_args opts;
    char what[80];
    snprintf(what, sizeof what, "enc.start %s", m->id);
    if (rules_args_parse(what, m->options, json_object_get(args, "options"), &opts, err))
        return err->code;
    json_t *enc = json_pack("{s:s, s:s, s:i, s:i, s:[], s:{}, s:i, s:o}", "module", m->id, "name",
                            m->name, "round", 0, "turn", -1, "order", "combatants", "next_id", 1,
                            "options", rules_args_json(&opts));
    json_object_set_new(state, "enc", enc);
    json_object_set_new(ops_child(state, "gm"), "enc", json_pack("{s:{}}", "combatants"));
    rules_enc e;
    if (enc_open(ctx, state, &e, err))
        return err->code;
    int rc = m->start ? m->start(&e, &opts, err) : TB_OK;
    if (rc == TB_OK)
        rules_enc_log(&e, "start", NULL, NULL, "The GM starts an encounter: %s", m->name);
    json_t *entries = enc_finish(ctx, state, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    *result = json_pack("{s:s, s:o}", "module", m->id, "log", entries);
    return TB_OK;
}

/* ---- enc.add / enc.remove ---- */

static int op_enc_add(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    rules_enc e;
    if (enc_open(ctx, state, &e, err))
        return err->code;
    const char *chid = json_string_value(json_object_get(args, "char"));
    const json_t *quick = json_object_get(args, "npc");
    const char *side = json_string_value(json_object_get(args, "side"));
    const char *sys = ops_campaign_system(state);
    int rc = TB_OK;
    json_t *sheet = NULL; /* borrowed */
    const char *name = NULL, *seat = "gm";
    int npc = 1;
    json_t *quick_sheet = NULL;
    if ((chid != NULL) == (quick != NULL)) {
        rc = tb_fail(err, TB_BAD_REQUEST, "enc.add: give either 'char' (a character id) or 'npc' "
                                          "({name, side?, sheet?})");
    } else if (chid) {
        json_t *c = json_object_get(json_object_get(state, "chars"), chid);
        if (c) {
            npc = 0;
            seat = json_string_value(json_object_get(c, "seat"));
            const char *k;
            json_t *v;
            json_object_foreach(json_object_get(e.enc, "combatants"), k, v)
            {
                const char *ch = json_string_value(json_object_get(v, "char"));
                if (ch && strcmp(ch, chid) == 0) {
                    rc = tb_fail(err, TB_RULE, "%s is already in the encounter (%s)",
                                 json_string_value(json_object_get(c, "name")), k);
                    break;
                }
            }
        } else {
            c = json_object_get(json_object_get(json_object_get(state, "gm"), "npcs"), chid);
        }
        if (!c && rc == TB_OK)
            rc = tb_fail(err, TB_NOT_FOUND, "no character '%.32s' in this campaign", chid);
        if (c) {
            name = json_string_value(json_object_get(c, "name"));
            sheet = json_object_get(c, "sheet");
        }
    } else {
        const json_t *n = json_object_get(quick, "name");
        const json_t *s = json_object_get(quick, "sheet");
        const char *qside = json_string_value(json_object_get(quick, "side"));
        if (qside && !side)
            side = qside;
        if (!json_is_string(n) || json_string_length(n) < 1 || json_string_length(n) > 40)
            rc = tb_fail(err, TB_BAD_REQUEST, "enc.add: 'npc.name' must be a name of 1 to 40 "
                                              "characters");
        else if (s && !json_is_object(s))
            rc = tb_fail(err, TB_BAD_REQUEST, "enc.add: 'npc.sheet' must be an object");
        else if (s && rules_sheet_validate(sys, s, err))
            rc = err->code;
        if (rc == TB_OK) {
            name = json_string_value(n);
            if (s)
                sheet = quick_sheet = json_deep_copy(s);
        }
    }
    if (rc == TB_OK && side && (strlen(side) < 1 || strlen(side) > 32))
        rc = tb_fail(err, TB_BAD_REQUEST, "enc.add: 'side' must be 1 to 32 characters");
    if (rc) {
        json_decref(quick_sheet);
        json_decref(enc_finish(ctx, state, &e, 0));
        return rc;
    }
    if (!side)
        side = npc ? "foes" : "party";
    char cid[24];
    if ((rc = rules_enc_add_combatant(&e, name, side, seat ? seat : "gm", npc, cid, err))) {
        json_decref(quick_sheet);
        json_decref(enc_finish(ctx, state, &e, 0));
        return rc;
    }
    json_t *comb = rules_enc_combatant(&e, cid);
    if (!npc)
        json_object_set_new(comb, "char", json_string(chid));
    json_t *hid = rules_enc_hidden_of(&e, cid);
    if (npc && chid)
        json_object_set_new(hid, "char", json_string(chid));
    if (quick_sheet)
        json_object_set_new(hid, "sheet", quick_sheet); /* steals */
    json_t *stats = rules_enc_stats(&e, cid);
    for (const char *const *k = e.mod->sheet_stats; k && *k && sheet; k++) {
        json_t *v = json_object_get(sheet, *k);
        if (v)
            json_object_set_new(stats, *k, json_deep_copy(v));
    }
    e.actor = cid;
    rc = e.mod->join ? e.mod->join(&e, cid, sheet, err) : TB_OK;
    if (rc == TB_OK)
        rules_enc_log(&e, "join", NULL, NULL, "%s joins the encounter (%s)", name, side);
    json_t *entries = enc_finish(ctx, state, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    *result = json_pack("{s:s, s:o}", "id", cid, "log", entries);
    return TB_OK;
}

static int op_enc_remove(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                         tb_err *err)
{
    rules_enc e;
    if (enc_open(ctx, state, &e, err))
        return err->code;
    const char *cid = json_string_value(json_object_get(args, "id"));
    if (!rules_enc_combatant(&e, cid)) {
        json_decref(enc_finish(ctx, state, &e, 0));
        return tb_fail(err, TB_NOT_FOUND, "no combatant '%.32s' in the encounter", cid);
    }
    rules_enc_log(&e, "leave", NULL, NULL, "%s leaves the encounter", rules_enc_name(&e, cid));
    int idx = rules_enc_order_index(&e, cid);
    if (idx >= 0) {
        json_t *order = json_object_get(e.enc, "order");
        int turn = (int)json_integer_value(json_object_get(e.enc, "turn"));
        json_array_remove(order, (size_t)idx);
        if (idx < turn || (idx == turn && turn >= (int)json_array_size(order)))
            turn--;
        json_object_set_new(e.enc, "turn", json_integer(turn));
    }
    json_object_del(json_object_get(e.enc, "combatants"), cid);
    json_object_del(json_object_get(e.hidden, "combatants"), cid);
    json_t *entries = enc_finish(ctx, state, &e, 1);
    *result = json_pack("{s:s, s:o}", "id", cid, "log", entries);
    return TB_OK;
}

/* ---- enc.act ---- */

/* The who-check of encounter.h for action a by the caller; sets e->actor (to a copy in buf: a
 * module may replace the order the default actor was read from). */
static int check_who(rules_enc *e, const rules_enc_action *a, const char *actor, char buf[40],
                     tb_err *err)
{
    if (a->who == RULES_ENC_GM && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM may %s", a->label ? a->label : a->name);
    if (a->who == RULES_ENC_TURN && !actor) {
        actor = rules_enc_current(e);
        if (!actor)
            return tb_fail(err, TB_BAD_REQUEST, "enc.act %s: name the acting combatant "
                                                "('actor')",
                           a->name);
    }
    if (actor && !rules_enc_combatant(e, actor))
        return tb_fail(err, TB_NOT_FOUND, "no combatant '%.32s' in the encounter", actor);
    if ((a->who == RULES_ENC_OWNER) && !actor)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act %s: name the acting combatant ('actor')",
                       a->name);
    if ((a->who == RULES_ENC_TURN || a->who == RULES_ENC_OWNER) && !rules_enc_controls(e, actor))
        return tb_fail(err, TB_FORBIDDEN, "%s is not your character", rules_enc_name(e, actor));
    if (actor) {
        snprintf(buf, 40, "%s", actor);
        actor = buf;
    }
    e->actor = actor;
    if (a->who != RULES_ENC_TURN)
        return TB_OK;
    if (rules_enc_is_out(e, actor))
        return tb_fail(err, TB_RULE, "%s is out of the fight (%s)", rules_enc_name(e, actor),
                       json_string_value(json_object_get(rules_enc_combatant(e, actor), "out")));
    if (e->mod->may_act)
        return e->mod->may_act(e, actor, err);
    const char *cur = rules_enc_current(e);
    if (!cur)
        return tb_fail(err, TB_RULE, rules_enc_round(e) == 0
                                         ? "the encounter has not started: nobody has a turn yet"
                                         : "nobody has the turn now");
    if (strcmp(cur, actor) != 0)
        return tb_fail(err, TB_RULE, "it is %s's turn, not %s's", rules_enc_name(e, cur),
                       rules_enc_name(e, actor));
    return TB_OK;
}

static int op_enc_act(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    rules_enc e;
    if (enc_open(ctx, state, &e, err))
        return err->code;
    const char *name = json_string_value(json_object_get(args, "action"));
    const char *actor = json_string_value(json_object_get(args, "actor"));
    const rules_enc_action *a = rules_module_action(e.mod, name);
    int rc = TB_OK;
    rules_args pa;
    char what[80], actor_buf[40];
    snprintf(what, sizeof what, "enc.act %s", name);
    if (!a)
        rc = tb_fail(err, TB_NOT_FOUND, "%s has no action '%.32s'", e.mod->id, name);
    else if ((rc = check_who(&e, a, actor, actor_buf, err)) != TB_OK)
        ;
    else if ((rc = rules_args_parse(what, a->params, json_object_get(args, "params"), &pa, err)))
        ;
    else {
        for (int i = 0; a->params && a->params[i].name && rc == TB_OK; i++) {
            const char *pn = a->params[i].name;
            if (strncmp(pn, "target", 6) == 0 && a->params[i].type == RULES_PARAM_STRING &&
                pa.sval[i] && !rules_enc_combatant(&e, pa.sval[i]))
                rc = tb_fail(err, TB_NOT_FOUND, "%s: no combatant '%.32s' in the encounter", pn,
                             pa.sval[i]);
        }
        if (rc == TB_OK) {
            json_t *before = stats_before(&e);
            rc = a->fn(&e, &pa, err);
            if (rc == TB_OK)
                write_back(state, &e, before);
            json_decref(before);
        }
    }
    json_t *entries = enc_finish(ctx, state, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    *result = json_pack("{s:s, s:o}", "action", name, "log", entries);
    if (e.actor)
        json_object_set_new(*result, "actor", json_string(e.actor));
    return TB_OK;
}

/* ---- enc.set / enc.end ---- */

static int op_enc_set(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    rules_enc e;
    if (enc_open(ctx, state, &e, err))
        return err->code;
    const char *path = json_string_value(json_object_get(args, "path"));
    int pub = strncmp(path, "/enc/", 5) == 0;
    int rc = TB_OK;
    if (!pub && strncmp(path, "/gm/enc/", 8) != 0)
        rc = tb_fail(err, TB_BAD_REQUEST, "enc.set: 'path' must be below /enc/ or /gm/enc/");
    else if (pub && (strcmp(path, "/enc/module") == 0))
        rc = tb_fail(err, TB_BAD_REQUEST, "enc.set: the module of a running encounter cannot "
                                          "change");
    else
        rc = ops_pointer_set(state, path, json_deep_copy(json_object_get(args, "value")), err);
    if (rc == TB_OK && !json_is_object(json_object_get(state, "enc")))
        rc = tb_fail(err, TB_BAD_REQUEST, "enc.set: /enc must stay an object");
    if (rc == TB_OK) {
        if (pub)
            rules_enc_log(&e, "adjust", NULL, NULL, "The GM adjusts %.200s", path + 5);
        else
            rules_enc_log_gm(&e, "adjust", NULL, NULL, "The GM adjusts %.200s", path);
    }
    json_t *entries = enc_finish(ctx, state, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    *result = json_pack("{s:s, s:o}", "path", path, "log", entries);
    return TB_OK;
}

static int op_enc_end(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                      tb_err *err)
{
    rules_enc e;
    if (enc_open(ctx, state, &e, err))
        return err->code;
    int rounds = rules_enc_round(&e);
    int rc = TB_OK;
    if (e.mod->end) {
        json_t *before = stats_before(&e);
        rc = e.mod->end(&e, err);
        if (rc == TB_OK)
            write_back(state, &e, before);
        json_decref(before);
    }
    if (rc == TB_OK)
        rules_enc_log(&e, "end", NULL, NULL, "The encounter ends after %d round%s", rounds,
                      rounds == 1 ? "" : "s");
    json_t *entries = enc_finish(ctx, state, &e, rc == TB_OK);
    if (rc) {
        json_decref(entries);
        return rc;
    }
    json_object_del(state, "enc");
    json_object_del(json_object_get(state, "gm"), "enc");
    *result = json_pack("{s:i, s:o}", "rounds", rounds, "log", entries);
    return TB_OK;
}

static const op_arg ARGS_START[] = {
    {"module", ARG_STRING, 1, 1, 40},
    {"options", ARG_OBJECT, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ADD[] = {
    {"char", ARG_STRING, 0, 1, 32},
    {"npc", ARG_OBJECT, 0, 0, 0},
    {"side", ARG_STRING, 0, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_REMOVE[] = {
    {"id", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ACT[] = {
    {"action", ARG_STRING, 1, 1, 40},
    {"actor", ARG_STRING, 0, 1, 32},
    {"params", ARG_OBJECT, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_SET[] = {
    {"path", ARG_STRING, 1, 5, 200},
    {"value", ARG_ANY, 1, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_NONE[] = {
    {NULL, 0, 0, 0, 0},
};

/* Every encounter op may change the encounter, the characters its combatants were made from
 * (write_back) and the logs. */
static const op_write W_ENC[] = {{"/enc", 0}, {"/gm/enc", 0}, {"/chars", 0}, {"/gm/npcs", 0},
                                 OP_WRITES_LOGS, {NULL, 0}};

const op_def OPS_ENC[] = {
    {"enc.start", op_enc_start, WHO_GM, 0, ARGS_START, W_ENC},
    {"enc.add", op_enc_add, WHO_GM, 0, ARGS_ADD, W_ENC},
    {"enc.remove", op_enc_remove, WHO_GM, 0, ARGS_REMOVE, W_ENC},
    {"enc.act", op_enc_act, WHO_ANY, 0, ARGS_ACT, W_ENC},
    {"enc.set", op_enc_set, WHO_GM, 0, ARGS_SET, W_ENC},
    {"enc.end", op_enc_end, WHO_GM, 0, ARGS_NONE, W_ENC},
    {NULL, NULL, 0, 0, NULL, NULL},
};
