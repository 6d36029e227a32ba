/*
 * act.c — running an action (encounter.h, "running an action"): the one path the server's
 * enc.act, the Check fixture, the fuzzer and the moves take. Who may act, the parameters, the
 * action's check, then its resolve; everything before the resolve draws no die and writes no
 * tree, so a refusal leaves the state and the dice exactly as they were.
 */
#include <stdio.h>
#include <string.h>

#include "encounter.h"

/* A string parameter named "target..." names a combatant (encounter.h, rules_enc_action). */
static int is_target_param(const rules_param *p)
{
    return p->type == RULES_PARAM_STRING && strncmp(p->name, "target", 6) == 0;
}

int rules_enc_who_check(rules_enc *e, const rules_enc_action *act, const char *actor, tb_err *err)
{
    const char *what = act->label ? act->label : act->name;
    if (act->who == RULES_ENC_GM && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM may %s", what);
    if (act->who == RULES_ENC_TURN && !actor) {
        actor = rules_enc_current(e);
        if (!actor)
            return tb_fail(err, TB_BAD_REQUEST, "enc.act %s: name the acting combatant ('actor')",
                           act->name);
    }
    if (actor && !rules_enc_combatant(e, actor))
        return tb_fail(err, TB_NOT_FOUND, "no combatant '%.32s' in the encounter", actor);
    if (act->who == RULES_ENC_OWNER && !actor)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act %s: name the acting combatant ('actor')",
                       act->name);
    if ((act->who == RULES_ENC_TURN || act->who == RULES_ENC_OWNER) &&
        !rules_enc_controls(e, actor))
        return tb_fail(err, TB_FORBIDDEN, "%s is not your character", rules_enc_name(e, actor));
    /* a copy: the default actor was read from the order, which the action may replace */
    if (actor) {
        snprintf(e->actor_id, sizeof e->actor_id, "%s", actor);
        actor = e->actor_id;
    }
    e->actor = actor;
    if (act->who != RULES_ENC_TURN)
        return TB_OK;
    if (rules_enc_is_out(e, actor))
        return tb_fail(err, TB_RULE, "%s is out of the fight (%s)", rules_enc_name(e, actor),
                       json_string_value(json_object_get(rules_enc_combatant(e, actor), "out")));
    if (e->mod->may_act)
        return e->mod->may_act(e, actor, err);
    const char *cur = rules_enc_current(e);
    if (!cur)
        return tb_fail(err, TB_RULE,
                       rules_enc_round(e) == 0
                           ? "the encounter has not started: nobody has a turn yet"
                           : "nobody has the turn now");
    if (strcmp(cur, actor) != 0)
        return tb_fail(err, TB_RULE, "it is %s's turn, not %s's", rules_enc_name(e, cur),
                       rules_enc_name(e, actor));
    return TB_OK;
}

int rules_enc_args_check(rules_enc *e, const rules_enc_action *act, const json_t *params,
                         rules_args *a, tb_err *err)
{
    char what[80];
    snprintf(what, sizeof what, "enc.act %s", act->name);
    if (rules_args_parse(what, act->params, params, a, err))
        return err->code;
    for (int i = 0; act->params && act->params[i].name; i++)
        if (is_target_param(&act->params[i]) && a->sval[i] && !rules_enc_combatant(e, a->sval[i]))
            return tb_fail(err, TB_NOT_FOUND, "%s: no combatant '%.32s' in the encounter",
                           act->params[i].name, a->sval[i]);
    return act->check ? act->check(e, a, err) : TB_OK;
}

int rules_enc_act_check(rules_enc *e, const rules_enc_action *act, const char *actor,
                        const json_t *params, rules_args *a, tb_err *err)
{
    if (rules_enc_who_check(e, act, actor, err))
        return err->code;
    return rules_enc_args_check(e, act, params, a, err);
}

int rules_enc_act(rules_enc *e, const char *action, const char *actor, const json_t *params,
                  tb_err *err)
{
    const rules_enc_action *act = rules_module_action(e->mod, action);
    if (!act)
        return tb_fail(err, TB_NOT_FOUND, "%s has no action '%.32s'", e->mod->id,
                       action ? action : "");
    rules_args a;
    if (rules_enc_act_check(e, act, actor, params, &a, err))
        return err->code;
    return act->resolve(e, &a, err);
}
