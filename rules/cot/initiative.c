/*
 * initiative.c — City of Thieves' module `cot.initiative` "Initiative slots" for any Stage
 * (heist, prep, social call, violence, chases): the slots, claims, the Focus Round, Bolster,
 * Wait and a skill roll (the actions every cot slot module shares: cot_enc.h), and Getting the
 * Drop (000:101-119) with the target's answer. The rulebook is 000_d2a475e9ec148dd1.txt, cited as
 * 000:LINE; the readings are in rules/RULES.md, "cot", "Encounters".
 */
#include <stdio.h>
#include <string.h>

#include "cot_enc.h"

static int init_start(rules_enc *e, const rules_args *o, tb_err *err);
static int init_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
static int check_drop(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_drop(rules_enc *e, const rules_args *a, tb_err *err);
static int check_alert(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_alert(rules_enc *e, const rules_args *a, tb_err *err);
static int check_react(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_react(rules_enc *e, const rules_args *a, tb_err *err);
static int init_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                        const rules_param *p, json_t *out);

/* ---- the table ---- */

static const rules_param STAGE_OPTIONS[] = {
    {"stage", RULES_PARAM_STRING, 1, 20, 0, 0,
     "Stage: heist, prep, social, violence, foot_chase or vehicle_chase (default heist)"},
    {0},
};

static const rules_param DROP_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "the unaware target"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0, "hand_to_hand (default), shooting or explosives"},
    {"weapon", RULES_PARAM_STRING, 1, 100, 0, 0, "a weapon from the sheet (none: fists)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "Bonus dice for circumstances (+1k0 each)"},
    {"several", RULES_PARAM_BOOL, 0, 1, 0, 0,
     "part of a Drop on several people at once (then an alarm reaches their allies)"},
    COT_LEAN_ONTO_PARAM,
    {0},
};

static const rules_param ALERT_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who"},
    {"aware", RULES_PARAM_BOOL, 0, 1, 1, 0, "Aware (1) or unaware (0)"},
    {0},
};

static const rules_param REACT_PARAMS[] = {
    {"choice", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED,
     "flee, call_for_help or square_up"},
    {0},
};

static const rules_enc_action INIT_ACTIONS[] = {
    COT_COMMON_ACTIONS,
    {"drop", "Get the Drop", RULES_ENC_TURN, DROP_PARAMS, act_drop, "000:101-119", check_drop, 0},
    {"alert", "Mark Aware", RULES_ENC_GM, ALERT_PARAMS, act_alert, "000:117-119", check_alert,
     RULES_ENC_RARE},
    {"react", "Answer the Drop", RULES_ENC_OWNER, REACT_PARAMS, act_react, "000:117", check_react,
     0},
    {0},
};

/* clang-format off */
static const rules_phrase INIT_PHRASES[] = {
    {"drop", "{who} takes slot {slot} and gets the Drop on {whom} ({kind} roll, {skill_name}, "
             "{weapon}): {line}: {what} (000:106-115){detail?}"},
    {"drop", "{who} takes slot {slot} and gets the Drop on {whom} ({kind} roll, {skill_name}, "
             "{weapon}): {what} (000:106-115)"},
    {"drop.detail", "; {whom}'s Training {training}: the roll {passes} by {by}"},
    {"aware", "{who}'s allies (the {side}) are Aware now (000:119)"},
    {"alert", "The GM marks {who} {state} (000:117)"},
    {"react", "{who} {answer}"},
    {"react.flee", "tries to Flee"},
    {"react.call_for_help", "calls for help: the guards' Awareness rises"},
    {"react.square_up", "squares up to fight"},
    {NULL, NULL},
};
/* clang-format on */

const rules_module rules_module_cot_initiative = {
    .id = "cot.initiative",
    .system = "cot",
    .name = "Initiative slots",
    .cite = "000:15-40, 000:101-119",
    .options = STAGE_OPTIONS,
    .start = init_start,
    .join = init_join,
    .may_act = cot_may_act,
    .actions = INIT_ACTIONS,
    .sheet_stats = cot_sheet_stats,
    .editable = cot_editable,
    .check = cot_module_check,
    .choices = init_choices,
    .phrases = INIT_PHRASES,
};

/* ---- choices ---- */

static const char *const DROP_SKILLS[] = {"hand_to_hand", "shooting", "explosives", NULL};

/* A Drop's target: someone unaware (000:102), the actor's foes first. */
static int unaware(const rules_enc *e, const char *actor, const char *cid)
{
    return !rules_enc_streq(cid, actor) && !rules_enc_cond_has(e, cid, "aware");
}

/* The target's answer to a Drop (000:117), as a person reads it. */
static const char *const REACT_LABELS[][2] = {
    {"flee", "Flee"},
    {"call_for_help", "Call for help"},
    {"square_up", "Square up"},
};

static int init_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                        const rules_param *p, json_t *out)
{
    int rc = cot_choices_common(e, actor, a, p, out);
    if (rc != RULES_CHOICES_NONE)
        return rc;
    if (strcmp(a->name, "drop") == 0) {
        if (strcmp(p->name, "target") == 0)
            cot_choose_combatants(e, actor, unaware, out);
        else if (strcmp(p->name, "skill") == 0)
            cot_choose_skills(e, actor, DROP_SKILLS, out);
        else if (strcmp(p->name, "weapon") == 0)
            cot_choose_weapons(e, actor, "fists", out);
        else
            return RULES_CHOICES_NONE;
        return RULES_CHOICES_PICK;
    }
    if (strcmp(a->name, "react") == 0 && strcmp(p->name, "choice") == 0) {
        for (size_t i = 0; i < sizeof REACT_LABELS / sizeof REACT_LABELS[0]; i++)
            cot_choice(out, json_string(REACT_LABELS[i][0]), REACT_LABELS[i][1]);
        return RULES_CHOICES_PICK;
    }
    return RULES_CHOICES_NONE;
}

/* ---- start and join ---- */

static int init_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    const char *id = rules_arg_str(o, "stage");
    if (!cot_stage_find(id ? id : "heist"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.start cot.initiative: 'stage' must be one of heist, prep, social, "
                       "violence, foot_chase, vehicle_chase (000:33-36)");
    cot_start_stage(e, id ? id : "heist");
    return 0;
}

static int init_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    return cot_join_common(e, cid, sheet, err);
}

/* ---- Getting the Drop (000:101-119) ---- */

static int check_drop(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    const cot_skill *sk;
    json_t *weapon;
    int rc = cot_target_check(e, t, 0, err);
    if (rc || (rc = cot_attack_gear(e, a, DROP_SKILLS, &sk, &weapon, err)))
        return rc;
    /* 000:102 "If your target is unaware that you are in the same zone as them" */
    if (rules_enc_cond_has(e, t, "aware"))
        return rules_enc_rule(err,
                              "%s is Aware: getting the Drop needs an unaware target "
                              "(000:102)",
                              rules_enc_name(e, t));
    if ((rc = cot_turn_check(e, "drop", err)))
        return rc;
    int wbonus = weapon ? cot_int(weapon, "bonus") : 0;
    int lean;
    if ((rc = cot_lean_own(e, a, &lean, err)))
        return rc;
    return cot_throw_check(e, e->actor, "muscle", sk->id, wbonus + lean + rules_arg_int(a, "bonus"),
                           err);
}

/* Marks every ally of t (its side, still in the fight) Aware (000:119). */
static void alert_allies(rules_enc *e, const char *t)
{
    const char *cid, *side = rules_enc_side(e, t);
    int n = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (!rules_enc_streq(cid, t) && rules_enc_streq(rules_enc_side(e, cid), side) &&
            !rules_enc_is_out(e, cid) && !rules_enc_cond_has(e, cid, "aware")) {
            rules_enc_cond_add(e, cid, "aware", 0, 0);
            n++;
        }
    if (!n)
        return;
    rules_log *x = rules_log_begin(e, "aware", "aware");
    rules_log_who(x, "who", t);
    rules_log_name(x, "side", side, RULES_AUD_PUBLIC);
    rules_log_end(x);
}

static int act_drop(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *t = rules_arg_str(a, "target");
    const cot_skill *sk;
    json_t *weapon;
    cot_attack_gear(e, a, DROP_SKILLS, &sk, &weapon, err);
    rules_log *x = cot_turn_log(e, "drop", "drop");
    /* 000:102 "If attacking with fists or a weapon with the Blunt tag, then this is a Subdue
     * roll. If attacking with another weapon, then this is a Murder roll. In either case, add
     * the bonus from any wielded weapon." */
    int subdue = !weapon || json_is_true(json_object_get(weapon, "blunt"));
    int wbonus = weapon ? cot_int(weapon, "bonus") : 0;
    cot_throw th;
    int lean;
    cot_lean_own(e, a, &lean, err); /* the check passed: 0 or +1k0 (000:239) */
    if ((rc = cot_throw_pool(e, e->actor, "muscle", sk->id,
                             wbonus + lean + rules_arg_int(a, "bonus"), &th, err))) {
        rules_log_drop(x);
        return rc;
    }
    /* 000:102 "versus the opponent's Training Score"; 000:198 Training from Muscle+Resist, the
     * score of 000:196 */
    int muscle = cot_ability_of(e, t, "muscle");
    int training = cot_guard_score(muscle + cot_skill_of(e, t, "resist"), muscle);
    int ok = cot_roll_succeeds(&th.r, training), by = th.r.total - training;
    const char *outcome;
    int aware = 0;
    if (!ok) {
        outcome = "Aware"; /* 000:107, 000:113 "Attacker Fails: Target is Aware" */
        aware = 1;
    } else if (subdue && by >= 6) {
        outcome = "Unconscious"; /* 000:110 */
        rules_enc_set_out(e, t, "unconscious");
    } else if (by >= 3) {
        outcome = "Dead"; /* 000:109, 000:115 */
        rules_enc_set_out(e, t, "dead");
    } else if (subdue) {
        outcome = "Aware but Unconscious"; /* 000:108 */
        aware = 1;
        rules_enc_set_out(e, t, "unconscious");
    } else if (cot_is_wounded(e, t)) {
        /* 000:114 "Wounded and Aware" on a target already Wounded: a second wound kills, as
         * 000:136 "If the target is already wounded and their Cover Score drops to 0, they are
         * Dead" (RULES.md, cot encounters, reading 6) */
        outcome = "Dead";
        rules_enc_set_out(e, t, "dead");
    } else {
        outcome = "Wounded and Aware"; /* 000:114 */
        aware = 1;
        cot_make_wounded(e, t, -1);
    }
    if (aware) {
        rules_enc_cond_add(e, t, "aware", 0, 0);
        /* 000:117 "If the target is Conscious and Aware they may attempt to Flee, ... Call for
         * Help, ... or they could Square Up": the target's choice waits (action `react`) */
        if (!rules_enc_is_out(e, t))
            json_object_set_new(rules_enc_combatant(e, t), "drop_choice", json_string("pending"));
    }
    rules_aud theirs = rules_enc_aud_of(e, t);
    rules_log_who(x, "whom", t);
    rules_log_name(x, "kind", subdue ? "Subdue" : "Murder", RULES_AUD_PUBLIC);
    rules_log_name(x, "skill_name", sk->label, RULES_AUD_PUBLIC);
    rules_log_name(x, "weapon", weapon ? cot_str(weapon, "name") : "fists", RULES_AUD_PUBLIC);
    rules_log_json(x, "roll", json_string(subdue ? "subdue" : "murder"), RULES_AUD_PUBLIC);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_json(x, "outcome", json_string(outcome), RULES_AUD_PUBLIC);
    rules_log_name(x, "what", outcome, RULES_AUD_PUBLIC);
    cot_log_throw(x, &th, rules_enc_aud_of(e, e->actor));
    /* the Training Score is the target's number (000:196-198) */
    rules_log_int(x, "training", training, theirs);
    rules_log_int(x, "margin", by, theirs);
    rules_log_json(x, "success", json_boolean(ok), theirs);
    if (theirs == RULES_AUD_GM) {
        rules_log_count(x, "by", ok ? by : -by, theirs);
        rules_log_name(x, "passes", ok ? "succeeds" : "fails", theirs);
        rules_log_word(x, "detail", "drop.detail", theirs);
    }
    rules_log_end(x);
    /* 000:119 "When getting the Drop on multiple people, any result where the target is Aware
     * or made with a firearm will also make the target's allies Aware": only a Drop on several
     * people at once (`several`); a lone target's allies learn nothing */
    if (rules_arg_int(a, "several") && (aware || strcmp(sk->id, "shooting") == 0))
        alert_allies(e, t);
    cot_turn_close(e, 1);
    return 0;
}

static int check_alert(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return cot_target_check(e, rules_arg_str(a, "target"), 1, err);
}

static int act_alert(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    int aware = rules_arg_int(a, "aware");
    if (aware)
        rules_enc_cond_add(e, t, "aware", 0, 0);
    else
        rules_enc_cond_remove(e, t, "aware");
    rules_log *x = rules_log_begin(e, "alert", "alert");
    rules_log_who(x, "who", t);
    rules_log_name(x, "state", aware ? "Aware" : "unaware", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- the target's answer (000:117) ---- */

/* The choices of a Conscious and Aware target after a Drop (000:117), and their phrasings. */
static const char *const DROP_CHOICES[][2] = {
    {"flee", "react.flee"},
    {"call_for_help", "react.call_for_help"},
    {"square_up", "react.square_up"},
};
#define N_DROP_CHOICES (sizeof DROP_CHOICES / sizeof DROP_CHOICES[0])

static size_t drop_choice(const char *c)
{
    size_t i;
    for (i = 0; i < N_DROP_CHOICES && strcmp(DROP_CHOICES[i][0], c) != 0; i++)
        ;
    return i;
}

/*
 * The target of a Drop who is Conscious and Aware makes its choice (000:117): Flee, Call for
 * Help or Square Up. Refused unless a Drop left that choice pending. The choice is kept on the
 * combatant (`drop_choice`) for what follows: a Chase (000:126, the chases issue), the guards'
 * Awareness (000:174-200), Gang Warfare (000:121). Rolls no die.
 */
static int check_react(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    const char *c = rules_arg_str(a, "choice");
    const char *pending = cot_str(rules_enc_combatant(e, e->actor), "drop_choice");
    if (drop_choice(c) == N_DROP_CHOICES)
        return tb_fail(err, TB_BAD_REQUEST,
                       "choice: '%.32s' is not one of flee, call_for_help, square_up", c);
    if (strcmp(pending ? pending : "", "pending") != 0)
        return rules_enc_rule(err,
                              "%s has no choice to make: only a target left conscious and aware "
                              "by getting the Drop chooses to flee, call for help or square up",
                              rules_enc_name(e, e->actor));
    return 0;
}

static int act_react(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *c = rules_arg_str(a, "choice");
    json_object_set_new(rules_enc_combatant(e, e->actor), "drop_choice", json_string(c));
    rules_log *x = rules_log_begin(e, "react", "react");
    rules_log_who(x, "who", e->actor);
    rules_log_json(x, "choice", json_string(c), RULES_AUD_PUBLIC);
    rules_log_word(x, "answer", DROP_CHOICES[drop_choice(c)][1], RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}
