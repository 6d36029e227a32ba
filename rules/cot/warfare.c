/*
 * warfare.c — City of Thieves' module `cot.warfare` "Gang Warfare" (000:121-136): the initiative
 * slots of Violence (Muscle+Athletics, cot_enc.h) with Cover rolled on joining, and Attack,
 * Restrain, Break free, Reposition and Flee. The rulebook is 000_d2a475e9ec148dd1.txt, cited as
 * 000:LINE; the readings are in rules/RULES.md, "cot", "Encounters".
 */
#include <stdio.h>
#include <string.h>

#include "cot_enc.h"

static int war_start(rules_enc *e, const rules_args *o, tb_err *err);
static int war_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_attack(rules_enc *e, const rules_args *a, tb_err *err);
static int check_reposition(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_reposition(rules_enc *e, const rules_args *a, tb_err *err);
static int check_flee(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_flee(rules_enc *e, const rules_args *a, tb_err *err);
static int check_break_free(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_break_free(rules_enc *e, const rules_args *a, tb_err *err);
static int war_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, json_t *out);

/* ---- the table ---- */

static const rules_param ATTACK_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to attack"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0,
     "hand_to_hand (default), shooting, explosives or driving"},
    {"weapon", RULES_PARAM_STRING, 1, 100, 0, 0, "a weapon from the sheet (none: bare hands)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "Bonus dice for circumstances (+1k0 each)"},
    {"restrain", RULES_PARAM_BOOL, 0, 1, 0, 0, "Restrain on a hit (Hand to Hand)"},
    COT_LEAN_ONTO_PARAM,
    {0},
};

static const rules_enc_action WAR_ACTIONS[] = {
    COT_COMMON_ACTIONS,
    {"attack", "Attack", RULES_ENC_TURN, ATTACK_PARAMS, act_attack, "000:130-136", check_attack, 0},
    {"reposition", "Reposition", RULES_ENC_TURN, cot_no_params, act_reposition, "000:128",
     check_reposition, 0},
    {"flee", "Flee", RULES_ENC_TURN, cot_no_params, act_flee, "000:126", check_flee, 0},
    {"break_free", "Break free", RULES_ENC_TURN, cot_no_params, act_break_free, "000:133",
     check_break_free, 0},
    {0},
};

/* clang-format off */
static const rules_phrase WAR_PHRASES[] = {
    {"war.cover", "takes cover (000:123)"},
    {"war.reposition", "takes slot {slot} and repositions (000:128)"},
    {"attack", "{who} takes slot {slot} and attacks {whom} ({skill_name}, {weapon}): {line}: "
               "{tail}{detail?}"},
    {"attack", "{who} takes slot {slot} and attacks {whom} ({skill_name}, {weapon}): {tail}"},
    {"harm.catastrophe", "Catastrophe: no harm done; the GM decides what else goes wrong "
                           "(000:9, 000:134)"},
    {"harm.dead", "{whom} is Dead (000:136){held?}"},
    {"harm.wounded", "{whom} is Wounded (000:135){held?}"},
    {"harm.cover", "{whom} loses Cover (000:134){held?}"},
    {"attack.restrained", "; Restrained (000:133)"},
    {"attack.detail", "; {whom}'s Cover {cover_before} − {damage} → {cover}{days?}"},
    {"attack.days", ", {recovery_days} days to recover"},
    {"fled", "{who} takes slot {slot} and leaves the Zone and the Gang Warfare (000:126)"},
    {"flee", "{who} takes slot {slot} and flees: every slot until {who}'s next action may join "
             "in; an enemy who does starts a Chase (000:126)"},
    {"slip", "{who} takes slot {slot} and slips free: nobody holds them any more"},
    {"break_free", "{who} takes slot {slot} and tries to break free of {holder}: Muscle+Athletics "
                   "{line}: {state} (000:133)"},
    {"break_free", "{who} takes slot {slot} and tries to break free of {holder}: {state} "
                   "(000:133)"},
    {NULL, NULL},
};
/* clang-format on */

const rules_module rules_module_cot_warfare = {
    .id = "cot.warfare",
    .system = "cot",
    .name = "Gang Warfare",
    .cite = "000:121-136",
    .start = war_start,
    .join = war_join,
    .may_act = cot_may_act,
    .actions = WAR_ACTIONS,
    .sheet_stats = cot_sheet_stats,
    .editable = cot_editable,
    .check = cot_module_check,
    .choices = war_choices,
    .phrases = WAR_PHRASES,
};

/* ---- choices ---- */

static const char *const ATTACK_SKILLS[] = {"hand_to_hand", "shooting", "explosives", "driving",
                                            NULL};

static int war_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, json_t *out)
{
    int rc = cot_choices_common(e, actor, a, p, out);
    if (rc != RULES_CHOICES_NONE || strcmp(a->name, "attack") != 0)
        return rc;
    if (strcmp(p->name, "target") == 0)
        cot_choose_combatants(e, actor, NULL, out);
    else if (strcmp(p->name, "skill") == 0)
        cot_choose_skills(e, actor, ATTACK_SKILLS, out);
    else if (strcmp(p->name, "weapon") == 0)
        cot_choose_weapons(e, actor, "bare hands", out);
    else
        return RULES_CHOICES_NONE;
    return RULES_CHOICES_PICK;
}

/* ---- start and join ---- */

static int war_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)o;
    (void)err;
    /* 000:123 "After rolling Initiative as outlined in Chapter 1": violence, 000:35 */
    cot_start_stage(e, "violence");
    return 0;
}

static int war_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int rc = cot_join_common(e, cid, sheet, err);
    return rc ? rc : cot_roll_cover(e, cid, "cover", "war.cover", 0, err);
}

/* ---- Attack (000:130-136) ---- */

static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const cot_skill *sk;
    json_t *weapon;
    int rc = cot_target_check(e, rules_arg_str(a, "target"), 0, err);
    if (rc || (rc = cot_attack_gear(e, a, ATTACK_SKILLS, &sk, &weapon, err)))
        return rc;
    /* 000:133 "If the character is using the Hand to Hand skill and successfully hits, they can
     * choose to Restrain." */
    if (rules_arg_int(a, "restrain") && strcmp(sk->id, "hand_to_hand") != 0)
        return rules_enc_rule(err, "only a Hand to Hand attack can Restrain (000:133)");
    if ((rc = cot_turn_check(e, "attack", err)))
        return rc;
    int wbonus = weapon ? cot_int(weapon, "bonus") : 0;
    int lean;
    if ((rc = cot_lean_own(e, a, &lean, err)))
        return rc;
    return cot_throw_check(e, e->actor, sk->ability, sk->id,
                           wbonus + lean + rules_arg_int(a, "bonus"), err);
}

static int act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *t = rules_arg_str(a, "target");
    const cot_skill *sk;
    json_t *weapon;
    int restrain = rules_arg_int(a, "restrain");
    cot_attack_gear(e, a, ATTACK_SKILLS, &sk, &weapon, err);
    rules_log *x = cot_turn_log(e, "attack", "attack");
    /* 000:130 "The aggressor rolls Muscle+the relevant skill with their opponent's Cover Score as
     * the difficulty"; 000:131 in a vehicle Fingers+Driving. */
    cot_throw th;
    int wbonus = weapon ? cot_int(weapon, "bonus") : 0;
    int lean;
    cot_lean_own(e, a, &lean, err); /* the check passed: 0 or +1k0 (000:239) */
    if ((rc = cot_throw_pool(e, e->actor, sk->ability, sk->id,
                             wbonus + lean + rules_arg_int(a, "bonus"), &th, err))) {
        rules_log_drop(x);
        return rc;
    }
    int cover = rules_enc_stat(e, t, "cover", 0);
    int hit = cot_roll_succeeds(&th.r, cover);
    cot_harm h = {cover, 0, cover, -1, "catastrophe"};
    if (!th.r.catastrophe) /* 000:134 "Any Attack in which the aggressor's roll is not a
                              Catastrophe reduces the target's Cover Score by 1" */
        h = cot_apply_harm(e, t, th.r.total);
    int restrained = 0;
    if (restrain && hit && !rules_enc_is_out(e, t)) {
        /* 000:133 "A Restrained character cannot Flee or Reposition on their turn." */
        rules_enc_cond_add(e, t, "restrained", 0, 0);
        json_object_set_new(rules_enc_cond(e, t, "restrained"), "by", json_string(e->actor));
        rules_enc_cond_remove(e, t, "fleeing");
        restrained = 1;
    }
    rules_aud theirs = rules_enc_aud_of(e, t);
    rules_log_who(x, "whom", t);
    rules_log_name(x, "skill_name", sk->label, RULES_AUD_PUBLIC);
    rules_log_name(x, "weapon", weapon ? cot_str(weapon, "name") : "bare hands", RULES_AUD_PUBLIC);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_json(x, "outcome", json_string(h.outcome), RULES_AUD_PUBLIC);
    rules_log_word(x, "tail", cot_harm_word(&h), RULES_AUD_PUBLIC);
    if (restrained) {
        rules_log_json(x, "restrained", json_true(), RULES_AUD_PUBLIC);
        rules_log_word(x, "held", "attack.restrained", RULES_AUD_PUBLIC);
    }
    cot_log_throw(x, &th, rules_enc_aud_of(e, e->actor));
    /* the Cover Score is the target's number (000:123) */
    rules_log_int(x, "cover_before", h.before, theirs);
    rules_log_int(x, "damage", h.damage, theirs);
    rules_log_int(x, "cover", h.after, theirs);
    rules_log_json(x, "hit", json_boolean(hit), theirs);
    if (h.days >= 0) {
        rules_log_int(x, "recovery_days", h.days, theirs);
        rules_log_word(x, "days", "attack.days", theirs);
    }
    if (theirs == RULES_AUD_GM)
        rules_log_word(x, "detail", "attack.detail", theirs);
    rules_log_end(x);
    cot_turn_close(e, 1);
    return 0;
}

/* ---- Reposition and Flee (000:126-128) ---- */

static int not_restrained(const rules_enc *e, const char *what, tb_err *err)
{
    json_t *r = rules_enc_cond(e, e->actor, "restrained");
    if (!r)
        return 0;
    return rules_enc_rule(err,
                          "%s is Restrained by %s: a Restrained character cannot %s "
                          "(000:133)",
                          rules_enc_name(e, e->actor), rules_enc_name(e, cot_str(r, "by")), what);
}

static int check_reposition(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = not_restrained(e, "Reposition", err);
    if (rc || (rc = cot_turn_check(e, "reposition", err)))
        return rc;
    return cot_throw_check(e, e->actor, "muscle", "resist",
                           rules_enc_stat_peek(e, e->actor, "armour", 0), err);
}

static int act_reposition(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc, slot = cot_turn_take(e);
    /* 000:128 "allows a character to re-roll their Cover Score" */
    if ((rc = cot_roll_cover(e, e->actor, "reposition", "war.reposition", slot, err)))
        return rc;
    cot_turn_close(e, 1);
    return 0;
}

static int check_flee(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = not_restrained(e, "Flee", err);
    return rc ? rc : cot_turn_check(e, "flee", err);
}

static int act_flee(rules_enc *e, const rules_args *a, tb_err *err)
{
    int leaves = rules_enc_cond_remove(e, e->actor, "fleeing");
    rules_log *x = cot_turn_log(e, "flee", leaves ? "fled" : "flee");
    if (leaves) /* 000:126 "On the character's next action, they leave the Zone and the Gang
                   Warfare." */
        rules_enc_set_out(e, e->actor, "fled");
    else /* 000:126 "Every slot between this action and the character's next action gets a
            chance to join in. If an enemy joins in, then a Chase begins." (the GM runs it) */
        rules_enc_cond_add(e, e->actor, "fleeing", 0, 0);
    rules_log_end(x);
    cot_turn_close(e, 0);
    return 0;
}

/* ---- Break free (000:133) ---- */

/* The holder of a Restrained actor who can still hold on, or NULL (it slips free). */
static const char *holder_of(const rules_enc *e)
{
    const char *by = cot_str(rules_enc_cond(e, e->actor, "restrained"), "by");
    return by && by[0] && rules_enc_combatant(e, by) && !rules_enc_is_out(e, by) ? by : NULL;
}

static int check_break_free(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (!rules_enc_cond(e, e->actor, "restrained"))
        return rules_enc_rule(err, "%s is not Restrained", rules_enc_name(e, e->actor));
    int rc = cot_turn_check(e, "break_free", err);
    const char *by = holder_of(e);
    if (rc || !by)
        return rc;
    if ((rc = cot_throw_check(e, by, "muscle", "athletics", 0, err)))
        return rc;
    return cot_throw_check(e, e->actor, "muscle", "athletics", 0, err);
}

static int act_break_free(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *me = e->actor;
    /* a copy: removing the condition frees the string */
    char by_id[40];
    snprintf(by_id, sizeof by_id, "%s", holder_of(e) ? holder_of(e) : "");
    const char *by = by_id[0] ? by_id : NULL;
    if (!by) {
        rules_log *x = cot_turn_log(e, "break_free", "slip");
        rules_enc_cond_remove(e, me, "restrained");
        rules_log_end(x);
        cot_turn_close(e, 0);
        return 0;
    }
    int slot = cot_turn_take(e);
    /* 000:133 "the two characters may roll opposed Muscle+ Athletics"; 000:13 the opponent rolls
     * first and sets the difficulty. */
    cot_throw opp, mine;
    if ((rc = cot_throw_pool(e, by, "muscle", "athletics", 0, &opp, err)) ||
        (rc = cot_throw_pool(e, me, "muscle", "athletics", 0, &mine, err)))
        return rc;
    int ok = cot_roll_succeeds(&mine.r, opp.r.total);
    if (ok)
        rules_enc_cond_remove(e, me, "restrained");
    /* each roll is its roller's: an NPC's pool, dice and total (the difficulty it sets) are the
     * GM's; the table sees who breaks free */
    rules_aud theirs = rules_enc_aud_of(e, by), mine_aud = rules_enc_aud_of(e, me);
    rules_log *x = rules_log_begin(e, "hold", "hold");
    rules_log_who(x, "holder", by);
    cot_log_throw(x, &opp, theirs);
    rules_log_end(x);
    x = rules_log_begin(e, "break_free", "break_free");
    rules_log_who(x, "who", me);
    rules_log_count(x, "slot", slot, RULES_AUD_PUBLIC);
    rules_log_who(x, "holder", by);
    cot_log_throw(x, &mine, mine_aud);
    rules_log_int(x, "difficulty", opp.r.total, theirs);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_name(x, "state", ok ? "free" : "still Restrained", RULES_AUD_PUBLIC);
    rules_log_end(x);
    cot_turn_close(e, 1);
    return 0;
}
