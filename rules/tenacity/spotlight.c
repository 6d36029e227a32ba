/*
 * spotlight.c — the 10acity fight, module tenacity.spotlight (rules/encounter.h): the spotlight
 * (003:84-92), attacks and the combat options (003:45, 003:66, 003:104-123), conditions
 * (003:96-103), advantages, spin and 10acity (003:30-39, 003:55, 003:76, 003:95), unconsciousness
 * and the coup de grâce (003:106-108), the social scale in a fight (003:49, 003:70). The action
 * table first, then each action's check (pure: before any die) and resolve, in table order. The
 * mechanics are the system's (tenacity_enc.h). Rulebook 003_632e2c704060b738.txt, cited
 * 003:LINE; readings in rules/RULES.md, tenacity, "Encounters (module tenacity.spotlight)" and
 * "Combat options".
 */
#include <stdio.h>
#include <string.h>

#include "tenacity_enc.h"

#define CHECK(name) static int chk_##name(const rules_enc *e, const rules_args *a, tb_err *err)
#define RESOLVE(name) static int act_##name(rules_enc *e, const rules_args *a, tb_err *err)
CHECK(attack);
RESOLVE(attack);
CHECK(condition);
RESOLVE(condition);
CHECK(advantage);
RESOLVE(advantage);
CHECK(overcome);
RESOLVE(overcome);
CHECK(defend);
RESOLVE(defend);
CHECK(generate_spin);
RESOLVE(generate_spin);
CHECK(coup);
RESOLVE(coup);
CHECK(recover);
RESOLVE(recover);
CHECK(move);
RESOLVE(move);
CHECK(sprint);
RESOLVE(sprint);
CHECK(withdraw);
RESOLVE(withdraw);
CHECK(interact);
RESOLVE(interact);
CHECK(overflow);
RESOLVE(overflow);
CHECK(social);
RESOLVE(social);
CHECK(standing);
RESOLVE(standing);

/* ---- the parameters ---- */

static const rules_param P_INITIATIVE[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "initiative skill (Reaction)"},
    {0},
};
static const rules_param P_PASS[] = {TEN_P_TARGET, {0}};
#define P_STRIKE                                                                                   \
    {"impact_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "extra impact (003:12)"},                     \
        {"range", RULES_PARAM_STRING, 1, 10, 0, 0, "melee or ranged (melee)"},                     \
        {"type", RULES_PARAM_STRING, 1, 30, 0, 0, "damage type, for resistances"},                 \
    {                                                                                              \
        "find", RULES_PARAM_INT, 1, 11, 6, 0, "d10 to find someone behind soft cover (6)"          \
    }
static const rules_param P_ATTACK[] = {
    TEN_P_TARGET,
    TEN_P_SKILL,
    TEN_P_ROLL,
    TEN_P_DEF,
    P_STRIKE,
    {"target2", RULES_PARAM_STRING, 1, 32, 0, 0, "a flanking ally who gains a spin on a hit"},
    {0},
};
static const rules_param P_PARTING[] = {TEN_P_TARGET, TEN_P_SKILL, TEN_P_ROLL,
                                        TEN_P_DEF,    P_STRIKE,    {0}};
static const rules_param P_GRAPPLE[] = {
    TEN_P_TARGET,
    TEN_P_SKILL,
    TEN_P_ROLL,
    TEN_P_DEF,
    {"limbs", RULES_PARAM_INT, 1, 8, 1, 0, "limbs grappled (more than one: all physical actions)"},
    {"what", RULES_PARAM_STRING, 1, 40, 0, 0, "the limb or skill held (arm)"},
    {"range", RULES_PARAM_STRING, 1, 10, 0, 0, "melee or ranged (melee)"},
    {0},
};
static const rules_param P_LOCK[] = {
    TEN_P_TARGET,
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill whose damage applies (Unarmed Combat)"},
    {"impact_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "the weapon's damage bonus"},
    {"type", RULES_PARAM_STRING, 1, 30, 0, 0, "damage type, for resistances"},
    {0},
};
static const rules_param P_ESCAPE[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill (Athletics)"},
    {0},
};
static const rules_param P_HOLD[] = {
    {"what", RULES_PARAM_STRING, 4, 6, 0, 0, "action or move (action)"},
    {"trigger", RULES_PARAM_STRING, 1, 160, 0, RULES_PARAM_REQUIRED, "what sets it off"},
    {0},
};
static const rules_param P_HELP[] = {
    TEN_P_TARGET,
    {"skill", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "the skill you help with"},
    {0},
};
static const rules_param P_HIDE[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill (Stealth)"},
    {"adv", RULES_PARAM_INT, 0, 10, 0, 0, "advantage dice"},
    {"bonus", RULES_PARAM_INT, -20, 20, 0, 0, "equipment or ability bonus (003:73)"},
    {0},
};
static const rules_param P_SEEK[] = {
    TEN_P_TARGET,
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill (Perception)"},
    {"adv", RULES_PARAM_INT, 0, 10, 0, 0, "advantage dice"},
    {"bonus", RULES_PARAM_INT, -20, 20, 0, 0, "situational bonus"},
    {0},
};
static const rules_param P_COVER[] = {
    {"cover", RULES_PARAM_STRING, 4, 7, 0, RULES_PARAM_REQUIRED,
     "cover: none, partial, full or soft"},
    {0},
};
static const rules_param P_PRONE[] = {
    {"prone", RULES_PARAM_BOOL, 0, 1, 0, RULES_PARAM_REQUIRED, "lie down (unticked: stand up)"},
    {0},
};
static const rules_param P_HIGH[] = {
    {"elevated", RULES_PARAM_BOOL, 0, 1, 0, RULES_PARAM_REQUIRED,
     "on the high ground (unticked: down)"},
    {0},
};
static const rules_param P_SIZE[] = {
    TEN_P_TARGET,
    {"size", RULES_PARAM_INT, -4, 8, 0, RULES_PARAM_REQUIRED, "size steps (0: one space)"},
    {0},
};
static const rules_param P_RESIST[] = {
    TEN_P_TARGET,
    {"type", RULES_PARAM_STRING, 1, 30, 0, RULES_PARAM_REQUIRED, "damage or condition type"},
    {"value", RULES_PARAM_INT, 0, 20, 0, RULES_PARAM_REQUIRED, "how much (0 removes it)"},
    {0},
};
static const rules_param P_OFFER[] = {
    TEN_P_TARGET,
    {"negative", RULES_PARAM_INT, 1, 10, 0, RULES_PARAM_REQUIRED, "negative spin taken away"},
    {"cost", RULES_PARAM_STRING, 1, 160, 0, RULES_PARAM_REQUIRED, "the change in the scene"},
    {0},
};
static const rules_param P_DIE[] = {
    {"confirm", RULES_PARAM_BOOL, 0, 1, 0, RULES_PARAM_REQUIRED, "yes, my character dies"},
    {0},
};
static const rules_param P_CONDITION[] = {
    TEN_P_TARGET,
    {"kind", RULES_PARAM_STRING, 4, 6, 0, RULES_PARAM_REQUIRED, "hinder, stop or damage"},
    {"what", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "what it affects (legs, ...)"},
    TEN_P_SKILL,
    TEN_P_ROLL,
    TEN_P_DEF,
    {"challenge", RULES_PARAM_INT, 0, 99, 0, RULES_PARAM_SECRET, "challenge to shake it off"},
    {"type", RULES_PARAM_STRING, 1, 30, 0, 0, "its source's type, for resistances"},
    {0},
};
static const rules_param P_ADVANTAGE[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "an opponent to roll against"},
    {"to", RULES_PARAM_STRING, 1, 32, 0, 0, "who gets the spin (yourself)"},
    {"challenge_dice", RULES_PARAM_INT, 1, 6, 2, 0, "challenge d6s without a target"},
    TEN_P_SKILL,
    TEN_P_ROLL,
    TEN_P_DEF,
    {0},
};
static const rules_param P_OVERCOME[] = {
    {"cond", RULES_PARAM_STRING, 1, 120, 0, RULES_PARAM_REQUIRED, "the condition"},
    TEN_P_SKILL,
    {0},
};
static const rules_param P_NONE[] = {{0}};
static const rules_param P_RECOVER[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill (Concentration)"},
    {0},
};
static const rules_param P_WHAT[] = {
    {"what", RULES_PARAM_STRING, 1, 80, 0, 0, "what the character does"},
    {0},
};
static const rules_param P_SPRINT[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill (Athletics)"},
    {"adv", RULES_PARAM_INT, 0, 10, 0, 0, "advantage dice (003:57)"},
    {"bonus", RULES_PARAM_INT, -20, 20, 0, 0, "situational bonus"},
    {0},
};
static const rules_param P_END[] = {
    {"next", RULES_PARAM_STRING, 1, 32, 0, 0, "who takes the spotlight next"},
    {"shake", RULES_PARAM_STRING, 1, 120, 0, 0, "a condition to shake off (free, 003:97)"},
    {"shake_skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill for it (Endurance)"},
    {0},
};
static const rules_param P_RESPOND[] = {
    {"pay", RULES_PARAM_STRING, 4, 8, 0, 0, "spin or tenacity"},
    {0},
};
static const rules_param P_OVERFLOW[] = {
    {"choice", RULES_PARAM_STRING, 5, 11, 0, RULES_PARAM_REQUIRED, "wound or unconscious"},
    {0},
};
static const rules_param P_SOCIAL[] = {TEN_P_TARGET, TEN_P_SKILL, TEN_P_ROLL, TEN_P_DEF, {0}};
static const rules_param P_STANDING[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whose standing"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "in whose eyes"},
    {"value", RULES_PARAM_INT, 0, TEN_STANDING_TOP, TEN_STANDING_START, 0,
     "where it stands (5 neutral)"},
    {0},
};

/* ---- the actions ---- */

#define GM RULES_ENC_GM
#define TURN RULES_ENC_TURN
#define OWNER RULES_ENC_OWNER
#define RARE RULES_ENC_RARE /* seldom used: folded away (still offered) */
static const rules_enc_action ACTIONS[] = {
    {"initiative", "Roll initiative", GM, P_INITIATIVE, ten_act_initiative, "003:85-86",
     ten_chk_initiative},
    {"pass", "Pass the spotlight", TURN, P_PASS, ten_act_pass, "003:84, 003:86, 003:92",
     ten_chk_pass},
    {"attack", "Attack", TURN, P_ATTACK, act_attack, "003:45, 003:66, 003:68, 003:110, 003:113-123",
     chk_attack},
    {"parting", "Parting strike", OWNER, P_PARTING, ten_act_parting, "003:71, 003:111-112",
     ten_chk_parting},
    {"grapple", "Grapple", TURN, P_GRAPPLE, ten_act_grapple, "003:104", ten_chk_grapple},
    {"lock", "Lock", TURN, P_LOCK, ten_act_lock, "003:105", ten_chk_lock},
    {"escape", "Break free", TURN, P_ESCAPE, ten_act_escape, "003:104-105", ten_chk_escape},
    {"hold", "Hold", TURN, P_HOLD, ten_act_hold, "003:58, 003:81", ten_chk_hold, RARE},
    {"release", "Act on the hold", OWNER, P_NONE, ten_act_release, "003:58, 003:81",
     ten_chk_release},
    {"help", "Help", TURN, P_HELP, ten_act_help, "003:57, 003:79", ten_chk_help, RARE},
    {"hide", "Hide (stealth)", TURN, P_HIDE, ten_act_hide, "003:52, 003:73", ten_chk_hide, RARE},
    {"seek", "Look for someone hidden", TURN, P_SEEK, ten_act_seek, "003:73", ten_chk_seek},
    {"cover", "Take cover", OWNER, P_COVER, ten_act_state, "003:113-115", ten_chk_state, RARE},
    {"prone", "Go prone or stand up", OWNER, P_PRONE, ten_act_state, "003:117", ten_chk_state,
     RARE},
    {"high_ground", "High ground", OWNER, P_HIGH, ten_act_state, "003:116", ten_chk_state, RARE},
    {"size", "Set a size", GM, P_SIZE, ten_act_state, "003:121-123", ten_chk_state, RARE},
    {"resist", "Set a resistance", GM, P_RESIST, ten_act_resist, "003:120", NULL, RARE},
    {"offer", "Offer a trade for negative spin", GM, P_OFFER, ten_act_offer, "003:39",
     ten_chk_offer, RARE},
    {"accept", "Accept the trade", OWNER, P_NONE, ten_act_accept, "003:39", ten_chk_trade},
    {"decline", "Decline the trade", OWNER, P_NONE, ten_act_decline, "003:39", ten_chk_trade},
    {"die", "Choose to die", OWNER, P_DIE, ten_act_die, "003:108", ten_chk_die,
     RARE | RULES_ENC_CONFIRM},
    {"condition", "Create a condition", TURN, P_CONDITION, act_condition,
     "003:47, 003:68, 003:96-103, 003:120", chk_condition},
    {"advantage", "Create an advantage", TURN, P_ADVANTAGE, act_advantage, "003:46, 003:67",
     chk_advantage},
    {"overcome", "Overcome a condition", TURN, P_OVERCOME, act_overcome, "003:97", chk_overcome},
    {"defend", "Full defence", TURN, P_NONE, act_defend, "003:117", chk_defend},
    {"generate_spin", "Generate spin", TURN, P_NONE, act_generate_spin, "003:55, 003:76",
     chk_generate_spin, RARE},
    {"coup", "Coup de grâce", TURN, P_PASS, act_coup, "003:107", chk_coup},
    {"recover", "Recover from unconsciousness", TURN, P_RECOVER, act_recover, "003:106",
     chk_recover},
    {"move", "Move", TURN, P_WHAT, act_move, "003:82", chk_move},
    {"sprint", "Sprint", TURN, P_SPRINT, act_sprint, "003:72", chk_sprint},
    {"withdraw", "Withdraw", TURN, P_NONE, act_withdraw, "003:71, 003:112", chk_withdraw, RARE},
    {"interact", "Interact", TURN, P_WHAT, act_interact, "003:82", chk_interact},
    {"end", "End the turn", TURN, P_END, ten_act_end, "003:87-90, 003:97", ten_chk_end},
    {"respond", "Respond (10acity/spin)", OWNER, P_RESPOND, ten_act_respond, "003:91",
     ten_chk_respond},
    {"overflow", "Over max stress: wound or unconscious", OWNER, P_OVERFLOW, act_overflow,
     "003:66, 003:106", chk_overflow, RARE},
    {"spotlight", "Put in the spotlight", GM, P_PASS, ten_act_spotlight, "003:84",
     ten_chk_spotlight, RARE},
    {"social", "Change social standing", TURN, P_SOCIAL, act_social, "003:49, 003:70", chk_social,
     RARE},
    {"standing", "Set the social standing", GM, P_STANDING, act_standing, "003:70", chk_standing,
     RARE},
    {0},
};
#undef GM
#undef TURN
#undef OWNER
#undef RARE

static const rules_param OPTIONS[] = {
    {"group", RULES_PARAM_BOOL, 0, 1, 0, 0, "group initiative (003:92)"},
    {"hardcore", RULES_PARAM_BOOL, 0, 1, 0, 0, "hardcore mode: wounds, then death (003:109)"},
    {0},
};

static int start(rules_enc *e, const rules_args *options, tb_err *err)
{
    (void)options;
    (void)err;
    /* 003:82 "Every turn you can take one action, one interaction, and one movement." */
    rules_enc_budget_default(
        e, json_pack("{s:i, s:i, s:i}", "action", 1, "interaction", 1, "move", 1));
    ten_set_str(e, "spotlight", NULL);
    json_object_set_new(e->enc, "acted", json_array());
    json_object_set_new(e->enc, "cue", json_array());
    json_object_set_new(e->enc, "recalled", json_array());
    ten_set_str(e, "responder", NULL);
    ten_set_flag(e, "choosing", 0);
    ten_set_flag(e, "opening", 0);
    return 0;
}

const rules_module rules_module_tenacity_spotlight = {
    .id = "tenacity.spotlight",
    .system = "tenacity",
    .name = "Spotlight",
    .cite = "003:84-92",
    .options = OPTIONS,
    .start = start,
    .join = ten_join,
    .may_act = ten_may_act,
    .end = ten_end,
    .actions = ACTIONS,
    .choices = ten_choices,
    .phrases = ten_phrases_spotlight,
    .sheet_stats = ten_sheet_stats,
    .editable = ten_editable,
};

/* ---- attack (003:45, 003:66; the parting strike and the other options: options.c) ---- */

CHECK(attack)
{
    return ten_strike_check(e, e->actor, rules_arg_str(a, "target"), a, 0, err);
}

RESOLVE(attack)
{
    ten_strike(e, e->actor, rules_arg_str(a, "target"), a, 0);
    return 0;
}

/* ---- conditions (003:96-103) ---- */

CHECK(condition)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *kind = rules_arg_str(a, "kind"), *skill = ten_skill_arg(a);
    if (strcmp(kind, "hinder") != 0 && strcmp(kind, "stop") != 0 && strcmp(kind, "damage") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "'kind' is hinder, stop or damage (003:99-103)");
    if (strchr(rules_arg_str(a, "what"), ':'))
        return tb_fail(err, TB_BAD_REQUEST, "'what' names a body part or skill, without ':'");
    int rc = ten_require_contest(e, actor, target, "condition", skill, err);
    if (!rc)
        rc = ten_require_budget(e, actor, "action", 1, err);
    return rc ? rc : ten_contest_check(e, actor, target, skill, a, err);
}

RESOLVE(condition)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *kind = rules_arg_str(a, "kind"), *what = rules_arg_str(a, "what");
    int edge = ten_take_action(e, actor);
    ten_contest c;
    rules_log *x = rules_log_begin(e, "condition", "condition");
    /* 003:120 a resistance is "the bonus they receive to their rolls to avoid conditions from a
     * source of that type" */
    ten_mods m = {.atk_adv = edge, .def_bonus = ten_resist_of(e, target, ten_arg_str(a, "type"))};
    ten_contest_roll(e, actor, target, ten_skill_arg(a), a, &m, strcmp(kind, "stop") != 0, &c, x);
    rules_log_who(x, "who", actor);
    rules_log_who(x, "target", target);
    rules_log_name(x, "kind", kind, RULES_AUD_PUBLIC);
    rules_log_name(x, "what", what, RULES_AUD_PUBLIC);
    ten_log_versus(e, x, actor, target, 0, c.atk.total, c.def.total);
    rules_log_word(x, "outcome", c.success ? "cond.success" : "cond.failure", RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (c.success) {
        /* 003:99 the hinder penalty is the impact rolled; a damage condition's damage per turn
         * likewise (reading); at least 1. 003:97 the challenge to shake it off: the applier's
         * roll unless the narrator sets one (reading). */
        int level = strcmp(kind, "stop") == 0 ? 0 : (c.impact < 1 ? 1 : c.impact);
        int challenge =
            rules_arg_given(a, "challenge") ? rules_arg_int(a, "challenge") : c.atk.total;
        char name[120];
        snprintf(name, sizeof name, "%s:%s", kind, what);
        json_t *old = rules_enc_cond(e, target, name);
        int was = (int)json_integer_value(json_object_get(old, "level"));
        int keeps = old && was >= level && level;
        /* 003:99 "Penalties applied by hindering conditions do not stack ... if not then the
         * original penalty remains" */
        if (!keeps)
            ten_cond_put(e, target, NULL, kind, what, level, challenge);
        x = rules_log_begin(e, "condition", keeps ? "cond_keeps" : "cond_on");
        rules_log_who(x, "who", target);
        rules_log_name(x, "kind", kind, RULES_AUD_PUBLIC);
        rules_log_name(x, "what", what, RULES_AUD_PUBLIC);
        if (keeps || level)
            rules_log_count(x, "level", keeps ? was : level, RULES_AUD_PUBLIC);
        rules_log_end(x);
        if (!keeps) {
            if (strcmp(kind, "stop") == 0 && ten_covers(e, target, what, "move"))
                ten_coup_fail(e, target, "why.stopped");
        }
    }
    ten_bring(e, target);
    ten_done(e);
    return 0;
}

/* ---- create an advantage (003:46, 003:67) ---- */

/* Who gets the spin: `to`, or the actor. */
static const char *advantage_to(const rules_enc *e, const rules_args *a)
{
    const char *to = rules_arg_str(a, "to");
    return to ? to : e->actor;
}

CHECK(advantage)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *to = advantage_to(e, a), *skill = ten_skill_arg(a);
    if (!rules_enc_combatant(e, to))
        return tb_fail(err, TB_NOT_FOUND, "to: no combatant '%.32s' in the encounter", to);
    if (ten_opposed(e, actor, to))
        return rules_enc_rule(err, "spin goes to yourself or an ally (003:67), not to %s",
                              rules_enc_name(e, to));
    int rc = ten_require_able(e, actor, "advantage", err);
    if (!rc && target)
        rc = ten_require_target(e, actor, target, err);
    if (!rc)
        rc = ten_require_skill_free(e, actor, skill, err);
    if (!rc)
        rc = ten_require_budget(e, actor, "action", 1, err);
    if (rc)
        return rc;
    if (target)
        return ten_contest_check(e, actor, target, skill, a, err);
    rc = ten_roll_params(a, err);
    return rc ? rc : ten_skill_check(e, actor, skill, err);
}

/* 003:67 create an advantage: "1 spin to an ally or yourself for every 2 points of impact
 * generated (minimum 1)", against a target or the narrator's challenge dice (hidden). */
RESOLVE(advantage)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *to = advantage_to(e, a), *skill = ten_skill_arg(a);
    int edge = ten_take_action(e, actor);
    ten_contest c;
    rules_log *x = rules_log_begin(e, "advantage", "advantage");
    if (target)
        ten_contest_roll(e, actor, target, skill, a, &(ten_mods){.atk_adv = edge}, 1, &c, x);
    else
        ten_challenge_contest(e, actor, skill, a, edge, rules_arg_int(a, "challenge_dice"), &c, x);
    int spin = c.success ? tenacity_advantage_spin(c.impact) : 0;
    rules_log_who(x, "who", actor);
    ten_log_skill(e, x, actor, skill);
    ten_log_versus(e, x, actor, target, !target, c.atk.total, c.def.total);
    rules_log_word(x, "outcome", c.success ? "adv.success" : "adv.failure", RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (spin) {
        ten_spin_add(e, to, spin);
        x = rules_log_begin(e, "advantage", "adv_spin");
        rules_log_who(x, "who", to);
        rules_log_int(x, "spin", spin, RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    if (target)
        ten_bring(e, target);
    ten_done(e);
    return 0;
}

/* ---- overcome a condition (003:97 "A creature can also take their action to attempt to
 * remove a condition") ---- */

CHECK(overcome)
{
    int rc = ten_require_able(e, e->actor, "overcome", err);
    if (!rc)
        rc = ten_require_budget(e, e->actor, "action", 1, err);
    return rc ? rc
              : ten_shake_check(e, e->actor, rules_arg_str(a, "cond"), ten_skill_arg(a), 1, err);
}

RESOLVE(overcome)
{
    ten_take_action(e, e->actor);
    ten_shake(e, e->actor, rules_arg_str(a, "cond"), ten_skill_arg(a), 1);
    ten_done(e);
    return 0;
}

/* ---- actions that only spend the action ---- */

/* The actor can act and has its action left. */
static int able_with_action(const rules_enc *e, const char *action, tb_err *err)
{
    int rc = ten_require_able(e, e->actor, action, err);
    return rc ? rc : ten_require_budget(e, e->actor, "action", 1, err);
}

CHECK(defend)
{
    (void)a;
    return able_with_action(e, "defend", err);
}

/* The action spent on a stance that lasts until the actor's next turn: full defence (003:117
 * "an advantage die to all of your defense rolls until your next turn"), withdrawing (003:112). */
static int stance(rules_enc *e, const char *cond, const char *event)
{
    ten_take_action(e, e->actor);
    rules_enc_cond_add(e, e->actor, cond, 0, 0);
    ten_say(e, event, event, e->actor);
    ten_done(e);
    return 0;
}

RESOLVE(defend)
{
    (void)a;
    (void)err;
    return stance(e, "defensive", "defend");
}

/* 003:76 "if your character has no spin (including negative spin), they can take their action to
 * concentrate ... one (1) point of positive spin"; 003:55 "spend your entire turn" */
CHECK(generate_spin)
{
    (void)a;
    const char *actor = e->actor;
    int rc = ten_require_able(e, actor, "generate_spin", err);
    if (rc)
        return rc;
    if (ten_spin(e, actor) != 0)
        return rules_enc_rule(err, "%s can generate spin only at 0 spin, not %d (003:76)",
                              rules_enc_name(e, actor), ten_spin(e, actor));
    if (!ten_untouched(e, actor))
        return rules_enc_rule(err, "generating spin takes %s's entire turn (003:55)",
                              rules_enc_name(e, actor));
    return 0;
}

RESOLVE(generate_spin)
{
    const char *actor = e->actor;
    ten_take_action(e, actor);
    rules_enc_budget_set(e, actor, "move", 0);
    rules_enc_budget_set(e, actor, "interaction", 0);
    ten_spin_add(e, actor, 1);
    ten_say(e, "generate_spin", "generate_spin", actor);
    ten_done(e);
    return 0;
}

/* ---- the coup de grâce (003:107) ---- */

/* 003:107 "A coup de grâce requires two full actions to perform. Once someone begins a coup de
 * grâce action, they cannot do anything else until the end of their next turn in which that
 * action must be spent to complete the coup de grâce." */
CHECK(coup)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    int rc = ten_require_able(e, actor, "coup", err);
    if (!rc)
        rc = ten_require_target(e, actor, target, err);
    if (rc)
        return rc;
    json_t *coup = json_object_get(rules_enc_combatant(e, actor), "coup");
    if (ten_str(e, "responder"))
        return rules_enc_rule(err, "a coup de grâce takes two full actions on one's own turns "
                                   "(003:107), not a response");
    if (!coup) {
        if (!ten_unconscious(e, target))
            return rules_enc_rule(err,
                                  "%s is not helpless: a coup de grâce is on an unconscious "
                                  "character (003:106-107)",
                                  rules_enc_name(e, target));
        return ten_require_budget(e, actor, "action", 1, err);
    }
    const char *on = json_string_value(json_object_get(coup, "target"));
    if (!rules_enc_streq(on, target))
        return rules_enc_rule(err, "%s's coup de grâce is on %s", rules_enc_name(e, actor),
                              rules_enc_name(e, on));
    if (json_integer_value(json_object_get(coup, "stage")) < 2 ||
        json_is_true(json_object_get(coup, "done")))
        return rules_enc_rule(err,
                              "the coup de grâce's second action comes on %s's next turn "
                              "(003:107)",
                              rules_enc_name(e, actor));
    return ten_require_budget(e, actor, "action", 1, err);
}

RESOLVE(coup)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    json_t *me = rules_enc_combatant(e, actor);
    json_t *coup = json_object_get(me, "coup");
    ten_take_action(e, actor);
    if (!coup)
        json_object_set_new(me, "coup", json_pack("{s:s, s:i}", "target", target, "stage", 1));
    else
        json_object_set_new(coup, "done", json_true());
    ten_say_to(e, "coup", coup ? "coup_done" : "coup_begin", actor, "target", target);
    ten_bring(e, target);
    ten_done(e);
    return 0;
}

/* ---- recovering from unconsciousness (003:106) ---- */

static const char *recover_skill(const rules_args *a)
{
    const char *skill = rules_arg_str(a, "skill");
    return skill ? skill : "Concentration"; /* 003:106 "roll their strength or concentration" */
}

CHECK(recover)
{
    if (!ten_unconscious(e, e->actor))
        return rules_enc_rule(err, "%s is not unconscious", rules_enc_name(e, e->actor));
    int rc = ten_require_budget(e, e->actor, "action", 1, err);
    return rc ? rc : ten_skill_check(e, e->actor, recover_skill(a), err);
}

/* 003:106 "The challenge rating for recovering from unconsciousness without help is 2d6 + 1d6 for
 * every point of wound that the character currently has." */
RESOLVE(recover)
{
    const char *actor = e->actor, *skill = recover_skill(a);
    ten_take_action(e, actor);
    json_t *dice = json_array(), *cd = json_array();
    ten_side s;
    ten_roll(e, actor, skill, 0, 0, "recover", dice, &s);
    int n = tenacity_unconscious_dice(ten_track_now(e, actor, "wounds")), ch = 0;
    for (int i = 0; i < n; i++) {
        ch += rules_roll_die(e->rng, 6, cd);
        ten_tag_last(cd, "challenge", "gm");
    }
    int ok = tenacity_beats(s.total, ch);
    if (s.hero) {
        int gain = tenacity_spin_gain(&s.r, !ok, 1);
        if (gain)
            ten_spin_add(e, actor, gain);
    }
    /* the rulebook's own challenge is open, but its size is the wounds: an NPC's are the GM's */
    rules_aud aud = rules_enc_aud_of(e, actor);
    rules_log *x = rules_log_begin(e, "recover", "recover");
    rules_log_who(x, "who", actor);
    ten_log_side(e, x, dice, actor, "total", s.total);
    rules_log_dice(x, cd, aud);
    rules_log_int(x, "challenge", ch, aud);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    json_decref(dice);
    json_decref(cd);
    ten_log_skill(e, x, actor, skill);
    rules_log_word(x, "against", "recover.against", aud);
    rules_log_count(x, "dice_n", n, aud);
    rules_log_word(x, "outcome", ok ? "recover.wakes" : "recover.stays", RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (ok) {
        json_object_set_new(rules_enc_stats(e, actor), "unconscious", json_false());
        rules_enc_cond_remove(e, actor, "unconscious");
    }
    ten_done(e);
    return 0;
}

/* ---- movement (003:71-72, 003:82, 003:112) ---- */

CHECK(move)
{
    (void)a;
    int rc = ten_require_able(e, e->actor, "move", err);
    if (!rc) /* a stop condition on movement */
        rc = ten_require_skill_free(e, e->actor, "move", err);
    return rc ? rc : ten_require_budget(e, e->actor, "move", 1, err);
}

/* Move and interact: one of the turn's `budget` spent, said as `event` with what the player named
 * (003:71-72, 003:82). */
static int spend_and_say(rules_enc *e, const rules_args *a, const char *budget, const char *event,
                         tb_err *err)
{
    rules_enc_spend(e, e->actor, budget, 1, err);
    const char *what = rules_arg_str(a, "what");
    rules_log *x = rules_log_begin(e, event, event);
    rules_log_who(x, "who", e->actor);
    if (what)
        rules_log_name(x, "what", what, RULES_AUD_PUBLIC);
    rules_log_end(x);
    ten_done(e);
    return 0;
}

RESOLVE(move)
{
    return spend_and_say(e, a, "move", "move", err);
}

static const char *sprint_skill(const rules_args *a)
{
    return rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Athletics";
}

CHECK(sprint)
{
    int rc = ten_require_able(e, e->actor, "sprint", err);
    if (!rc) /* a stop condition on movement */
        rc = ten_require_skill_free(e, e->actor, "move", err);
    if (!rc)
        rc = ten_skill_check(e, e->actor, sprint_skill(a), err);
    return rc ? rc : ten_require_budget(e, e->actor, "action", 1, err);
}

/* 003:72 "you may spend your action to sprint. By sprinting, you roll your athletic skill check
 * and add the total amount of the check to your movement spaces for that round" (until the
 * sprinter's next turn: the condition `sprinting`, its level the extra spaces). An action roll:
 * doubles gain spin, a fumble negative spin (003:95, 003:30). */
RESOLVE(sprint)
{
    const char *actor = e->actor;
    int extra = ten_take_action(e, actor);
    json_t *dice = json_array();
    int gain;
    /* the spaces are the total: an NPC's are the GM's (its challenge bonus is in them) */
    int total = ten_roll_to_cond(e, actor, sprint_skill(a), rules_arg_int(a, "adv") + extra,
                                 rules_arg_int(a, "bonus"), "sprint", "sprinting", dice, &gain);
    rules_aud aud = rules_enc_aud_of(e, actor);
    rules_log *x = rules_log_begin(e, "sprint", "sprint");
    rules_log_who(x, "who", actor);
    rules_log_dice(x, dice, aud);
    json_decref(dice);
    rules_log_int(x, "spaces", total, aud);
    rules_log_int(x, "spin", gain, aud);
    if (gain)
        rules_log_word(x, "spin_w", gain > 0 ? "sprint.gain" : "sprint.loss", aud);
    rules_log_end(x);
    ten_done(e);
    return 0;
}

CHECK(withdraw)
{
    (void)a;
    if (ten_started_in_melee(e, e->actor) == 0)
        return rules_enc_rule(err,
                              "%s started the turn in no opponent's melee range: there is nothing "
                              "to withdraw from (003:112)",
                              rules_enc_name(e, e->actor));
    return able_with_action(e, "withdraw", err);
}

/* 003:112 "you can spend your action to withdraw in order to avoid any parting shots from any
 * character in which you started your turn within melee range" (003:71): the condition
 * `withdrawing` until the next turn tells the table no parting strike is due. */
RESOLVE(withdraw)
{
    (void)a;
    (void)err;
    return stance(e, "withdrawing", "withdraw");
}

CHECK(interact)
{
    (void)a;
    int rc = ten_require_able(e, e->actor, "interact", err);
    return rc ? rc : ten_require_budget(e, e->actor, "interaction", 1, err);
}

RESOLVE(interact)
{
    return spend_and_say(e, a, "interaction", "interact", err);
}

/* ---- over the maximum stress: a wound or unconsciousness (003:66, 003:106) ---- */

CHECK(overflow)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    (void)e;
    const char *choice = rules_arg_str(a, "choice");
    if (strcmp(choice, "wound") != 0 && strcmp(choice, "unconscious") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "'choice' is wound or unconscious (003:106)");
    return 0;
}

/* 003:106 the choice between a wound and unconsciousness is the character's */
RESOLVE(overflow)
{
    const char *choice = rules_arg_str(a, "choice");
    json_object_set_new(rules_enc_combatant(e, e->actor), "overflow", json_string(choice));
    rules_log *x = rules_log_begin(e, "overflow", "overflow");
    rules_log_who(x, "who", e->actor);
    rules_log_word(x, "choice",
                   strcmp(choice, "wound") == 0 ? "overflow.wound" : "overflow.unconscious",
                   RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- social standing in a fight (003:49, 003:70; the scale: state.c) ---- */

CHECK(social)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *skill = ten_skill_arg(a);
    int rc = ten_require_contest(e, actor, target, "social", skill, err);
    if (rc)
        return rc;
    int before = ten_standing_of(e, actor, target, TEN_STANDING_START);
    if (before <= 0 || before >= TEN_STANDING_TOP)
        return rules_enc_rule(err, "%s's social contest with %s is over (%s, 003:70)",
                              rules_enc_name(e, actor), rules_enc_name(e, target),
                              before <= 0 ? "no credibility left" : "won");
    rc = ten_require_budget(e, actor, "action", 1, err);
    return rc ? rc : ten_contest_check(e, actor, target, skill, a, err);
}

/* 003:49 "CHANGE SOCIAL STANDING: On a successful skill check you improve your social standing on
 * the social scale by your skill's impact roll. On a fail, your social standard declines by your
 * opponent's impact roll." A contest like any other (ties to the defender, 003:68; spin and pushes
 * as in every check); 10 wins the social challenge, 0 loses all credibility (003:70). */
RESOLVE(social)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *skill = ten_skill_arg(a);
    int before = ten_standing_of(e, actor, target, TEN_STANDING_START);
    int edge = ten_take_action(e, actor);
    ten_contest c;
    rules_log *x = rules_log_begin(e, "social", "social");
    ten_contest_roll(e, actor, target, skill, a, &(ten_mods){.atk_adv = edge}, 1, &c, x);
    int moved = c.impact;
    if (!c.success) {
        json_t *dd = json_array();
        moved = ten_impact_roll(e, &c.def, 0, 0, dd);
        ten_log_side(e, x, dd, target, "opp_impact", moved);
        json_decref(dd);
    }
    int after = ten_standing_move(e, actor, target, before, c.success ? moved : -moved);
    rules_log_int(x, "standing", after, RULES_AUD_PUBLIC);
    rules_log_who(x, "who", actor);
    rules_log_who(x, "target", target);
    ten_log_skill(e, x, actor, skill);
    ten_log_versus(e, x, actor, target, 0, c.atk.total, c.def.total);
    rules_log_count(x, "before", before, RULES_AUD_PUBLIC);
    rules_log_count(x, "top", TEN_STANDING_TOP, RULES_AUD_PUBLIC);
    if (after >= TEN_STANDING_TOP || after <= 0)
        rules_log_word(x, "end", after > 0 ? "social.won" : "social.lost", RULES_AUD_PUBLIC);
    rules_log_end(x);
    ten_done(e);
    return 0;
}

/* GM: where `target`'s standing in the eyes of `target2` starts or stands (003:70): in someone
 * else's eyes. */
CHECK(standing)
{
    if (rules_enc_streq(rules_arg_str(a, "target"), rules_arg_str(a, "target2")))
        return rules_enc_rule(err, "%s has no standing in their own eyes",
                              rules_enc_name(e, rules_arg_str(a, "target")));
    return 0;
}

RESOLVE(standing)
{
    (void)err;
    const char *who = rules_arg_str(a, "target"), *eyes = rules_arg_str(a, "target2");
    int v = rules_arg_int(a, "value");
    ten_standing_set(e, who, eyes, v);
    rules_log *x = rules_log_begin(e, "standing", "standing");
    rules_log_who(x, "who", who);
    rules_log_who(x, "eyes", eyes);
    rules_log_count(x, "value", v, RULES_AUD_PUBLIC);
    rules_log_count(x, "top", TEN_STANDING_TOP, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}
