/*
 * combat.c — heimr.combat, the Heimr combat encounter (rules/encounter.h; rulebook
 * 001_660a93111b0de833.txt, cited 001:LINE). Initiative, 2-second turns, the four action types,
 * delaying and readied actions, weapon attacks against pre-rolled defences, body parts, HP and
 * injuries, fatigue at most once per turn, breathers, effects lasting half their seconds in turns,
 * guards, grabs, moving someone and the ground. What it leaves to the GM, and the keys it adds to
 * /enc, /gm/enc and the combatants, are listed in rules/RULES.md, "heimr", "Encounters (module
 * heimr.combat)". The mechanics shared with heimr.chase are behind rules/heimr/heimr_enc.h.
 *
 * Each action is a check (pure: the refusal before any die) and a resolve (rolls and writes),
 * in the table's order below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heimr_enc.h"

/* ---- the actions ---- */

#define DECLARE(x)                                                                                 \
    static int check_##x(const rules_enc *e, const rules_args *a, tb_err *err);                    \
    static int act_##x(rules_enc *e, const rules_args *a, tb_err *err)
DECLARE(begin);
DECLARE(attack);
DECLARE(delay);
DECLARE(ready);
DECLARE(trigger);
DECLARE(defend);
DECLARE(act);
DECLARE(breather);
DECLARE(cancel);
DECLARE(stand);
DECLARE(drop_prone);
DECLARE(end_turn);
DECLARE(effect);
DECLARE(guard);
DECLARE(stand_down);
DECLARE(release);
DECLARE(break_free);
DECLARE(carry);
static int act_ground(rules_enc *e, const rules_args *a, tb_err *err);

#define P_TARGET(req, l)                                                                           \
    {                                                                                              \
        "target", RULES_PARAM_STRING, 1, 32, 0, req, l                                             \
    }
#define P_ABILITY                                                                                  \
    {                                                                                              \
        "ability", RULES_PARAM_STRING, 1, 60, 0, 0, "ability rolled (from the sheet)"              \
    }
#define P_ITEM                                                                                     \
    {                                                                                              \
        "item", RULES_PARAM_STRING, 1, 100, 0, 0, "item used: its bonuses (001:179)"               \
    }
#define P_PENALTY                                                                                  \
    {                                                                                              \
        "penalty", RULES_PARAM_INT, 0, 20, 0, 0, "situational penalty on consistency (001:103)"    \
    }
/* clang-format off */
#define ATTACK_PARAMS                                                                              \
    P_ABILITY, P_ITEM,                                                                             \
    {"aim", RULES_PARAM_STRING, 1, 15, 0, 0,                                                       \
     "aimed body part: torso, sword_arm, other_arm, right_leg, left_leg (C-2, 001:416)"},          \
    P_PENALTY,                                                                                     \
    {"damage", RULES_PARAM_INT, 0, 10, 1, 0, "HP lost on a hit (weapon damage, 001:123, 574)"},   \
    {"ranged", RULES_PARAM_BOOL, 0, 1, 0, 0, "a ranged attack (no parry, 001:422)"},               \
    {"brawl", RULES_PARAM_BOOL, 0, 1, 0, 0, "a brawl attack: hit 1 (001:401)"},                    \
    {"bind", RULES_PARAM_BOOL, 0, 1, 0, 0, "with brawl: grab instead of hitting (001:401)"},       \
    {"blind_spot", RULES_PARAM_BOOL, 0, 1, 0, 0,                                                   \
     "from the target's blind spot: defence C-5 (001:562)"},                                       \
    {"c", RULES_PARAM_INT, -20, 20, 0, 0, "consistency, instead of an ability"},                   \
    {"p", RULES_PARAM_INT, -30, 30, 0, 0, "potential, instead of an ability"}

static const rules_param P_NONE[] = {{0}};
static const rules_param P_ATTACK[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "who is attacked"),
    ATTACK_PARAMS,
    {0},
};
static const rules_param P_DELAY[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "the character to delay until"),
    {"when", RULES_PARAM_STRING, 5, 6, 0, RULES_PARAM_REQUIRED, "before or after them"},
    {0},
};
static const rules_param P_READY[] = {
    {"trigger", RULES_PARAM_STRING, 1, 120, 0, RULES_PARAM_REQUIRED, "what must happen (001:248)"},
    {"action", RULES_PARAM_STRING, 1, 60, 0, 0, "attack (default) or another action"},
    P_TARGET(0, "attacked (default: whoever triggers it)"),
    ATTACK_PARAMS,
    {0},
};
static const rules_param P_TRIGGER[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "the character who triggered it"),
    {0},
};
static const rules_param P_DEFEND[] = {
    {"kind", RULES_PARAM_STRING, 5, 5, 0, RULES_PARAM_REQUIRED, "dodge, block or parry (001:420)"},
    P_ABILITY,
    P_ITEM,
    P_PENALTY,
    {"dodge_action", RULES_PARAM_BOOL, 0, 1, 0, 0, "the Dodge standard action: P+2 (001:364)"},
    {0},
};
static const rules_param P_ACT[] = {
    {"type", RULES_PARAM_STRING, 4, 8, 0, 0,
     "standard, free, ongoing or upcoming (001:322-327; default: the book's for the action)"},
    {"what", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "the action (move, draw, ...)"},
    P_TARGET(0, "the opponent charged (a Charge only, 001:344)"),
    {0},
};
static const rules_param P_BREATHER[] = {
    {"upcoming", RULES_PARAM_BOOL, 0, 1, 0, 0, "as an upcoming action (001:383)"},
    {0},
};
static const rules_param P_END[] = {
    {"defence", RULES_PARAM_STRING, 1, 10, 0, 0,
     "next defence if none is held: dodge, block, parry (001:395)"},
    P_ABILITY,
    P_ITEM,
    {0},
};
static const rules_param P_EFFECT[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "who receives it"),
    {"effect", RULES_PARAM_STRING, 3, 8, 0, RULES_PARAM_REQUIRED,
     "hit, drain, fall, drop, stumble, daze, weaken, bind (001:121-136)"},
    {"value", RULES_PARAM_INT, 1, 60, 0, 0, "seconds, or points for hit/drain (001:121)"},
    {"part", RULES_PARAM_STRING, 1, 15, 0, 0, "body part a hit injures (001:413)"},
    {0},
};
static const rules_param P_GUARD[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "the ally guarded"),
    {0},
};
static const rules_param P_BREAK[] = {
    {"ability", RULES_PARAM_STRING, 1, 60, 0, 0, "physical ability rolled (default Brawl)"},
    {"c", RULES_PARAM_INT, -20, 20, 0, 0, "consistency, instead of an ability"},
    {"p", RULES_PARAM_INT, -30, 30, 0, 0, "potential, instead of an ability"},
    {0},
};
static const rules_param P_CARRY[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "who is moved"),
    {"helpers", RULES_PARAM_STRING, 1, 150, 0, 0, "who lends a hand (names, separated by commas)"},
    {"to", RULES_PARAM_STRING, 1, 80, 0, 0, "where to"},
    {0},
};
static const rules_param P_GROUND[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "who stands there"),
    {"height", RULES_PARAM_INT, 0, 20, 0, 0, "height, in positions of about a metre (001:517)"},
    {"concealment", RULES_PARAM_INT, 0, 8, 0, 0,
     "cover against shots: tall grass 1, cart 2, table 3, merlon 5 (001:540)"},
    {"difficult", RULES_PARAM_BOOL, 0, 1, 0, 0,
     "difficult terrain: mud, snow, low water (001:475)"},
    {0},
};
/* clang-format on */

#define ROW(n, label, who, params, x, cite, flags)                                                 \
    {                                                                                              \
        n, label, who, params, act_##x, cite, check_##x, flags                                     \
    }
static const rules_enc_action ACTIONS[] = {
    ROW("begin", "Roll initiative", RULES_ENC_GM, P_NONE, begin, "001:240-242", 0),
    ROW("attack", "Attack", RULES_ENC_TURN, P_ATTACK, attack, "001:337,393-446", 0),
    ROW("delay", "Delay", RULES_ENC_TURN, P_DELAY, delay, "001:244-246", RULES_ENC_RARE),
    ROW("ready", "Ready an action", RULES_ENC_TURN, P_READY, ready, "001:248-252", 0),
    ROW("trigger", "Readied action fires", RULES_ENC_OWNER, P_TRIGGER, trigger, "001:248-250", 0),
    ROW("defend", "Pre-roll defence", RULES_ENC_OWNER, P_DEFEND, defend, "001:418-446",
        RULES_ENC_RARE),
    ROW("act", "Other action", RULES_ENC_TURN, P_ACT, act, "001:316-391", 0),
    ROW("breather", "Take a breather", RULES_ENC_TURN, P_BREATHER, breather, "001:383-384", 0),
    ROW("cancel", "Cancel upcoming action", RULES_ENC_TURN, P_NONE, cancel, "001:327", 0),
    ROW("stand", "Stand up", RULES_ENC_TURN, P_NONE, stand, "001:125", 0),
    ROW("drop_prone", "Drop prone", RULES_ENC_TURN, P_NONE, drop_prone, "001:358", RULES_ENC_RARE),
    ROW("end_turn", "End turn", RULES_ENC_TURN, P_END, end_turn, "001:238,395", 0),
    ROW("effect", "Apply an effect", RULES_ENC_GM, P_EFFECT, effect, "001:119-141,268-280",
        RULES_ENC_RARE),
    ROW("guard", "Guard an ally", RULES_ENC_TURN, P_GUARD, guard, "001:345,448-456", 0),
    ROW("stand_down", "Stop guarding", RULES_ENC_OWNER, P_NONE, stand_down, "001:452", 0),
    ROW("release", "Let go", RULES_ENC_OWNER, P_NONE, release, "001:407", 0),
    ROW("break_free", "Break free", RULES_ENC_TURN, P_BREAK, break_free, "001:407", 0),
    ROW("carry", "Move someone", RULES_ENC_TURN, P_CARRY, carry, "001:458-465", RULES_ENC_RARE),
    {"ground", "Set the ground", RULES_ENC_GM, P_GROUND, act_ground, "001:467-552", NULL,
     RULES_ENC_RARE},
    {0},
};

/* ---- begin: initiative (001:240-242) ---- */

static int check_begin(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err,
                              "the fight has begun (round %d): initiative is thrown once, at "
                              "the start of combat (001:242)",
                              rules_enc_round(e));
    if (json_object_size(json_object_get(e->enc, "combatants")) == 0)
        return rules_enc_rule(err, "nobody to order: add combatants with enc.add first");
    return 0;
}

static int act_begin(rules_enc *e, const rules_args *a, tb_err *err)
{
    int n = (int)json_object_size(json_object_get(e->enc, "combatants"));
    rules_rank *r = calloc((size_t)n, sizeof *r);
    if (!r)
        abort();
    const char *cid;
    for (int i = 0; (cid = rules_enc_cid_at(e, (size_t)i)) && i < n; i++)
        heimr_initiative(e, cid, &r[i]);
    rules_enc_order_set(e, r, n);
    const char *ids[RULES_ENC_MAX_COMBATANTS];
    json_t *order = json_object_get(e->enc, "order");
    for (int i = 0; i < n && i < RULES_ENC_MAX_COMBATANTS; i++)
        ids[i] = json_string_value(json_array_get(order, (size_t)i));
    char names[480];
    heimr_names_join(e, ids, n, 0, names, sizeof names);
    rules_enc_begin_round(e);
    heimr_round_start(e);
    rules_log *x = rules_log_begin(e, "begin", "begin");
    rules_log_name(x, "order", names, RULES_AUD_PUBLIC);
    rules_log_end(x);
    const char *cur = rules_enc_current(e);
    if (cur && rules_enc_is_out(e, cur))
        heimr_next_turn(e);
    else if (cur)
        heimr_turn_start(e, cur);
    free(r);
    return 0;
}

/* ---- attack (001:337, 393-446) ---- */

static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err)
{
    heimr_attack k;
    heimr_attack_from_args(a, &k);
    int rc = heimr_can_act_check(e, e->actor, err);
    if (!rc)
        rc = heimr_attack_check(e, e->actor, &k, e->actor, err);
    /* 001:337 "Weapon attack Standard"; 001:341 brawl attack standard */
    if (!rc)
        rc = heimr_budget_check(e, e->actor, "standard", err);
    return rc;
}

static int act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    heimr_attack k;
    heimr_attack_from_args(a, &k);
    rules_enc_spend(e, e->actor, "standard", 1, err);
    heimr_mark_acted(e, e->actor);
    heimr_attack_run(e, e->actor, &k, "");
    return 0;
}

/* ---- delay (001:244-246) ---- */

static int check_delay(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int from, to;
    return heimr_delay_place(e, e->actor, rules_arg_str(a, "target"), rules_arg_str(a, "when"),
                             &from, &to, err);
}

static int act_delay(rules_enc *e, const rules_args *a, tb_err *err)
{
    int from, to;
    heimr_delay_place(e, e->actor, rules_arg_str(a, "target"), rules_arg_str(a, "when"), &from, &to,
                      err);
    heimr_delay(e, e->actor, rules_arg_str(a, "target"), rules_arg_str(a, "when"), from, to);
    return 0;
}

/* ---- ready and trigger (001:248-252) ---- */

static int check_ready(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *what = rules_arg_str(a, "action");
    int rc = heimr_can_act_check(e, cid, err);
    if (rc)
        return rc;
    /* 001:248 "players can ready one combat action" */
    if (json_object_get(heimr_priv_of(e, cid), "ready"))
        return rules_enc_rule(err, "%s already has a readied action (001:248)",
                              rules_enc_name(e, cid));
    heimr_attack k;
    heimr_attack_from_args(a, &k);
    if ((!what || strcmp(what, "attack") == 0) && (rc = heimr_attack_check(e, cid, &k, cid, err)))
        return rc;
    /* the readied action is the turn's standard action, done later (RULES.md, reading 5) */
    return heimr_budget_check(e, cid, "standard", err);
}

static int act_ready(rules_enc *e, const rules_args *a, tb_err *err)
{
    heimr_attack k;
    heimr_attack_from_args(a, &k);
    rules_enc_spend(e, e->actor, "standard", 1, err);
    heimr_mark_acted(e, e->actor);
    heimr_ready(e, e->actor, rules_arg_str(a, "action"), rules_arg_str(a, "trigger"), &k);
    return 0;
}

static int check_trigger(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *by = rules_arg_str(a, "target");
    json_t *ready = json_object_get(heimr_priv_of(e, cid), "ready");
    if (!ready)
        return rules_enc_rule(err, "%s has no readied action (001:248)", rules_enc_name(e, cid));
    if (strcmp(by, cid) == 0)
        return rules_enc_rule(err, "%s cannot trigger their own readied action",
                              rules_enc_name(e, cid));
    if (rules_enc_is_out(e, cid))
        return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, cid));
    const char *cur = rules_enc_current(e);
    if (cur && strcmp(cur, cid) == 0)
        return rules_enc_rule(err,
                              "a readied action fires in another character's turn, not in "
                              "%s's own (001:250)",
                              rules_enc_name(e, cid));
    int rc = heimr_can_act_check(e, cid, err);
    if (rc || !rules_enc_streq(json_string_value(json_object_get(ready, "action")), "attack"))
        return rc;
    heimr_attack k;
    heimr_readied_attack(ready, by, &k);
    if (!rules_enc_combatant(e, k.target))
        return rules_enc_rule(err, "the readied attack's target has left the encounter");
    /* cid will stand just before `by` (act_trigger): guards count from there */
    int moves = rules_enc_order_index(e, cid) >= 0 && rules_enc_order_index(e, by) >= 0;
    return heimr_attack_check(e, cid, &k, moves ? by : cid, err);
}

static int act_trigger(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    heimr_trigger(e, e->actor, rules_arg_str(a, "target"));
    return 0;
}

/* ---- defend: pre-rolled defences (001:364, 418-446) ---- */

static int check_defend(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *kind = rules_arg_str(a, "kind");
    int dodge_action = rules_arg_int(a, "dodge_action");
    if (dodge_action) {
        /* 001:364 "Dodge Standard: If you know a ranged attack is coming, you can ready your
         * dodge defence ... a potential bonus of two to your dodging roll." */
        const char *cur = rules_enc_current(e);
        if (strcmp(kind, "dodge") != 0)
            return rules_enc_rule(err, "the Dodge action readies a dodge only (001:364)");
        if (!cur || strcmp(cur, cid) != 0)
            return rules_enc_rule(err,
                                  "the Dodge action is a standard action of %s's own turn "
                                  "(001:364)",
                                  rules_enc_name(e, cid));
        int rc = heimr_can_act_check(e, cid, err);
        if (!rc)
            rc = heimr_budget_check(e, cid, "standard", err);
        if (rc)
            return rc;
    }
    return heimr_defence_check(e, cid, kind, rules_arg_str(a, "ability"), rules_arg_str(a, "item"),
                               dodge_action ? HEIMR_DEF_REPLACING : 0, err);
}

static int act_defend(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    int dodge_action = rules_arg_int(a, "dodge_action");
    if (dodge_action) {
        rules_enc_spend(e, cid, "standard", 1, err);
        heimr_mark_acted(e, cid);
        /* the held defence gives way to the readied dodge */
        json_object_del(heimr_priv(e, cid), "defence");
    }
    return heimr_defence_roll(e, cid, rules_arg_str(a, "kind"), rules_arg_str(a, "ability"),
                              rules_arg_str(a, "item"), rules_arg_int(a, "penalty"),
                              dodge_action ? 2 : 0, err);
}

/* ---- act: the other actions (001:316-391) ---- */

static int check_act(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    const char *type = heimr_act_type(rules_arg_str(a, "type"), rules_arg_str(a, "what")),
               *what = rules_arg_str(a, "what");
    if (!type || !what)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act act: give 'type' (standard, free, ongoing or upcoming) for an "
                       "action the book does not list (001:322)");
    int rc = heimr_can_act_check(e, cid, err);
    if (rc)
        return rc;
    /* 001:350-357 the movement actions, refused to one held in place (001:134-135) */
    static const char *const MOVES[] = {"move", "run", "charge", "crawl", "climb", NULL};
    char wkey[64];
    heimr_lower_key(what, wkey, sizeof wkey);
    for (int i = 0; MOVES[i]; i++)
        if (strncmp(wkey, MOVES[i], strlen(MOVES[i])) == 0 &&
            (rc = heimr_may_move_check(e, cid, err)))
            return rc;
    /* 001:344 a charge goes to the next square, against an opponent there (001:61; grid.c) */
    const char *at = rules_arg_str(a, "target");
    if (strncmp(wkey, "charge", 6) == 0) {
        if ((rc = heimr_charge_check(e, cid, at, err)))
            return rc;
    } else if (at) {
        return rules_enc_rule(err, "only a charge names an opponent (001:344)");
    }
    /* 001:324 one standard action; 001:326 ongoing: a standard action that ends the turn */
    if (strcmp(type, "standard") == 0 || strcmp(type, "ongoing") == 0)
        return heimr_budget_check(e, cid, "standard", err);
    /* 001:325 "you can not use the same free action more then once during the same turn" */
    if (strcmp(type, "free") == 0 || strcmp(type, "upcoming") == 0)
        return heimr_free_check(e, cid, what, err);
    return tb_fail(err, TB_BAD_REQUEST,
                   "enc.act act: 'type' must be standard, free, ongoing or upcoming (001:322)");
}

static int act_act(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    const char *type = heimr_act_type(rules_arg_str(a, "type"), rules_arg_str(a, "what")),
               *what = rules_arg_str(a, "what");
    json_t *c = rules_enc_combatant(e, cid);
    if (strcmp(type, "standard") == 0 || strcmp(type, "ongoing") == 0)
        rules_enc_spend(e, cid, "standard", 1, err);
    else
        heimr_free_use(e, cid, what);
    heimr_mark_acted(e, cid);
    rules_log *x = rules_log_begin(e, "act", "act");
    rules_log_who(x, "who", cid);
    rules_log_name(x, "what", what, RULES_AUD_PUBLIC);
    rules_log_name(x, "type", type, RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (strcmp(type, "ongoing") == 0) {
        /* 001:326 "a consistency penalty of two on all defensive rolls until the start of your
         * next turn" */
        rules_enc_cond_add(e, cid, "ongoing", 0, 0);
        heimr_finish_turn(e, cid, NULL, NULL, NULL);
    } else if (strcmp(type, "upcoming") == 0) {
        /* 001:327 "a free action that ends your turn, and is continued as a standard action in
         * your next turn" */
        json_object_set_new(c, "upcoming", json_pack("{s:s}", "what", what));
        heimr_finish_turn(e, cid, NULL, NULL, NULL);
    }
    return 0;
}

/* ---- breather (001:383-384) ---- */

static int check_breather(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc = heimr_can_act_check(e, e->actor, err);
    if (!rc && !rules_arg_int(a, "upcoming"))
        rc = heimr_budget_check(e, e->actor, "standard", err);
    return rc;
}

static int act_breather(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    json_t *c = rules_enc_combatant(e, cid);
    heimr_mark_acted(e, cid);
    if (rules_arg_int(a, "upcoming")) {
        /* 001:383 "Ongoing or upcoming"; as upcoming it completes with the next turn's standard
         * action (001:327) */
        heimr_free_use(e, cid, "breather");
        json_object_set_new(c, "upcoming", json_pack("{s:s}", "what", "breather"));
        heimr_tell(e, "breather", "breather-upcoming", cid, NULL);
    } else {
        rules_enc_spend(e, cid, "standard", 1, err);
        heimr_log_breather(e, cid, "breather", heimr_breather(e, cid));
        rules_enc_cond_add(e, cid, "ongoing", 0, 0); /* 001:326 */
    }
    heimr_finish_turn(e, cid, NULL, NULL, NULL);
    return 0;
}

/* ---- cancel an upcoming action (001:327) ---- */

static int check_cancel(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    json_t *c = rules_enc_combatant(e, e->actor);
    /* 001:327 "you can decide to cancel the action at the start of your next turn" */
    if (!json_object_get(c, "continuing"))
        return rules_enc_rule(err, "%s has no upcoming action to cancel",
                              rules_enc_name(e, e->actor));
    if (heimr_is_true(c, "acted"))
        return rules_enc_rule(err, "an upcoming action is cancelled at the start of the turn "
                                   "(001:327)");
    return 0;
}

static int act_cancel(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    json_t *c = rules_enc_combatant(e, cid);
    rules_log *x = rules_log_begin(e, "cancel", "cancel");
    rules_log_who(x, "who", cid);
    rules_log_name(x, "what",
                   json_string_value(json_object_get(json_object_get(c, "continuing"), "what")),
                   RULES_AUD_PUBLIC);
    rules_log_end(x);
    json_object_del(c, "continuing");
    rules_enc_budget_set(e, cid, "standard", 1);
    return 0;
}

/* ---- stand up and drop prone (001:125, 358, 434) ---- */

static int check_stand(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    int rc = heimr_can_act_check(e, cid, err);
    if (rc)
        return rc;
    if (!rules_enc_cond_has(e, cid, "prone"))
        return rules_enc_rule(err, "%s is not prone", rules_enc_name(e, cid));
    /* 001:125 "After two seconds you can stand up again"; an injured leg keeps the fall
     * (001:156) */
    if (rules_enc_cond_has(e, cid, "fall"))
        return rules_enc_rule(err, "%s has fallen and cannot stand up yet (001:125, 001:156)",
                              rules_enc_name(e, cid));
    return heimr_free_check(e, cid, "stand", err);
}

static int act_stand(rules_enc *e, const rules_args *a, tb_err *err)
{
    heimr_free_use(e, e->actor, "stand");
    rules_enc_cond_remove(e, e->actor, "prone");
    heimr_tell(e, "stand", "stand", e->actor, NULL);
    return 0;
}

static int check_drop_prone(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = heimr_can_act_check(e, e->actor, err);
    return rc ? rc : heimr_free_check(e, e->actor, "drop prone", err);
}

static int act_drop_prone(rules_enc *e, const rules_args *a, tb_err *err)
{
    heimr_free_use(e, e->actor, "drop prone");
    /* 001:358 "Drop prone Free: Your character is now in a prone position." */
    rules_enc_cond_add(e, e->actor, "prone", 0, 0);
    heimr_tell(e, "prone", "prone", e->actor, NULL);
    return 0;
}

/* ---- end of the turn (001:238, 270, 395) ---- */

static int check_end_turn(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return heimr_finish_check(e, e->actor, rules_arg_str(a, "defence"), rules_arg_str(a, "ability"),
                              rules_arg_str(a, "item"), err);
}

static int act_end_turn(rules_enc *e, const rules_args *a, tb_err *err)
{
    heimr_finish_turn(e, e->actor, rules_arg_str(a, "defence"), rules_arg_str(a, "ability"),
                      rules_arg_str(a, "item"));
    return 0;
}

/* ---- effect: what the GM applies (001:119-141, 268-280) ---- */

static int check_effect(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)e;
    return heimr_effect_check(rules_arg_str(a, "effect"), rules_arg_str(a, "part"), err);
}

static int act_effect(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    heimr_effect(e, rules_arg_str(a, "target"), rules_arg_str(a, "effect"),
                 rules_arg_given(a, "value") ? rules_arg_int(a, "value") : 0,
                 rules_arg_str(a, "part"));
    return 0;
}

/* ---- guarding (001:345, 448-456) ---- */

/* Guard (001:345 "Guard Free: Block an opponent from moving to a different square or attacking
 * an ally"): the actor guards an ally, replacing an earlier guard. */
static int check_guard(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *tgt = rules_arg_str(a, "target");
    const char *was = json_string_value(json_object_get(rules_enc_combatant(e, cid), "guarding"));
    int rc = heimr_can_act_check(e, cid, err);
    if (rc)
        return rc;
    if (!rules_enc_combatant(e, tgt))
        return tb_fail(err, TB_NOT_FOUND, "no combatant '%.32s' in this encounter", tgt);
    if (strcmp(tgt, cid) == 0)
        return rules_enc_rule(err, "%s cannot guard themselves", rules_enc_name(e, cid));
    /* 001:450 "When you are guarding an ally": one of the same side (RULES.md, heimr encounter
     * reading 11) */
    if (!rules_enc_streq(rules_enc_side(e, tgt), rules_enc_side(e, cid)))
        return rules_enc_rule(err, "%s guards allies only, and %s is on the other side (001:450)",
                              rules_enc_name(e, cid), rules_enc_name(e, tgt));
    if (rules_enc_streq(was, tgt))
        return rules_enc_rule(err, "%s already guards %s", rules_enc_name(e, cid),
                              rules_enc_name(e, tgt));
    if (heimr_holder_of(e, cid))
        return rules_enc_rule(err, "%s is held and cannot step in front of anyone (001:407)",
                              rules_enc_name(e, cid));
    return heimr_free_check(e, cid, "guard", err);
}

static int act_guard(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *tgt = rules_arg_str(a, "target");
    heimr_free_use(e, cid, "guard");
    json_object_set_new(rules_enc_combatant(e, cid), "guarding", json_string(tgt));
    heimr_tell(e, "guard", "guard", cid, tgt);
    return 0;
}

/* The guard stands down, any time (the guard is theirs to keep or drop; 001:452 ends it only by
 * intercepting). */
/* An owner's move of one out of the fight (dead, unconscious) is not its own to make. */
static int check_standing(const rules_enc *e, tb_err *err)
{
    if (rules_enc_is_out(e, e->actor))
        return rules_enc_rule(
            err, "%s is out of the fight (%s)", rules_enc_name(e, e->actor),
            json_string_value(json_object_get(rules_enc_combatant(e, e->actor), "out")));
    return 0;
}

/* The actor, standing, has `key` (guarding, holding); `nobody` the refusal when not. */
static int check_has(const rules_enc *e, const char *key, const char *nobody, tb_err *err)
{
    if (check_standing(e, err))
        return err->code;
    if (!json_object_get(rules_enc_combatant(e, e->actor), key))
        return rules_enc_rule(err, "%s %s", rules_enc_name(e, e->actor), nobody);
    return 0;
}

static int check_stand_down(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    return check_has(e, "guarding", "is guarding nobody", err);
}

static int act_stand_down(rules_enc *e, const rules_args *a, tb_err *err)
{
    json_t *c = rules_enc_combatant(e, e->actor);
    heimr_tell(e, "guard", "stand-down", e->actor,
               json_string_value(json_object_get(c, "guarding")));
    json_object_del(c, "guarding");
    return 0;
}

/* ---- grabs (001:401, 407) ---- */

/* 001:407 "You can choose to release the bind at any time": the holder (or the GM) lets go. */
static int check_release(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    return check_has(e, "holding", "holds nobody", err);
}

static int act_release(rules_enc *e, const rules_args *a, tb_err *err)
{
    heimr_bind_end(e, e->actor, "release.go");
    return 0;
}

/*
 * Breaking free: the held character's own physical challenge (an ability, Brawl by default, or
 * the GM's C/P), its turn's standard action. The holder's Brawl is the requirement (001:407,
 * heimr_hold_stop, rolled first); passing it, and the fatigue requirement (001:284), ends the
 * grab.
 */
static int break_spec(const rules_enc *e, const rules_args *a, heimr_spec *s, tb_err *err)
{
    int has_cp = rules_arg_given(a, "c") || rules_arg_given(a, "p");
    const char *ab = rules_arg_str(a, "ability");
    return heimr_spec_resolve(e, e->actor, ab ? ab : (has_cp ? NULL : "Brawl"), NULL, has_cp,
                              rules_arg_int(a, "c"), rules_arg_int(a, "p"), s, err);
}

static int check_break_free(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    int rc = heimr_can_act_check(e, cid, err);
    if (rc)
        return rc;
    if (!heimr_holder_of(e, cid))
        return rules_enc_rule(err, "nobody holds %s", rules_enc_name(e, cid));
    heimr_spec s;
    if ((rc = break_spec(e, a, &s, err)))
        return rc;
    /* 001:407 only "actions that require a physical dice challenge" can be stopped: a grip is
     * broken with a physical one (RULES.md, heimr encounter reading 16) */
    if (!s.phys)
        return rules_enc_rule(err,
                              "%s is not a physical ability: a grip is broken by strength or "
                              "agility (001:407)",
                              s.ability);
    return heimr_budget_check(e, cid, "standard", err);
}

static int act_break_free(rules_enc *e, const rules_args *a, tb_err *err)
{
    heimr_spec s;
    break_spec(e, a, &s, err);
    rules_enc_spend(e, e->actor, "standard", 1, err);
    heimr_mark_acted(e, e->actor);
    heimr_break_free(e, e->actor, &s);
    return 0;
}

/* ---- moving someone (001:458-465) ---- */

/*
 * Forced movement: the actor, with the helpers named, carries, drags or pushes tgt `to`
 * somewhere — the actor's Move (001:350, the standard action); each helper's next standard
 * action goes into it (RULES.md, heimr encounter reading 18). Refused with too few hands.
 */
static int check_carry(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    char ids[HEIMR_MAX_HELPERS][40];
    int n, need;
    const char *why;
    int rc = heimr_can_act_check(e, cid, err);
    if (!rc)
        rc = heimr_may_move_check(e, cid, err);
    if (!rc)
        rc = heimr_carry_check(e, cid, rules_arg_str(a, "target"), rules_arg_str(a, "helpers"), ids,
                               &n, &need, &why, err);
    return rc ? rc : heimr_budget_check(e, cid, "standard", err);
}

static int act_carry(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *tgt = rules_arg_str(a, "target"), *to = rules_arg_str(a, "to");
    char ids[HEIMR_MAX_HELPERS][40];
    int n, need;
    const char *why;
    heimr_carry_check(e, cid, tgt, rules_arg_str(a, "helpers"), ids, &n, &need, &why, err);
    rules_enc_spend(e, cid, "standard", 1, err);
    heimr_mark_acted(e, cid);
    heimr_carry(e, cid, tgt, to, ids, n, need, why);
    return 0;
}

/* ---- the ground (001:467-552) ---- */

/*
 * The GM places a combatant on the battlefield's ground: `height` (001:517, in positions of a
 * metre to a metre and a half), `concealment` (001:438, 540-552: its effectiveness, 0 for none)
 * and `difficult` terrain (001:475). Only the numbers given change. Public: the table sees where
 * everyone stands. Nothing refuses it (no check).
 */
static int act_ground(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *tgt = rules_arg_str(a, "target");
    json_t *c = rules_enc_combatant(e, tgt);
    json_t *g = json_object_get(c, "ground");
    if (!json_is_object(g)) {
        g = json_object();
        json_object_set_new(c, "ground", g);
    }
    static const char *const KEYS[] = {"height", "concealment", NULL};
    for (int i = 0; KEYS[i]; i++)
        if (rules_arg_given(a, KEYS[i]))
            json_object_set_new(g, KEYS[i], json_integer(rules_arg_int(a, KEYS[i])));
    if (rules_arg_given(a, "difficult"))
        json_object_set_new(g, "difficult", json_boolean(rules_arg_int(a, "difficult")));
    rules_log *x = rules_log_begin(e, "ground", "ground");
    rules_log_who(x, "who", tgt);
    rules_log_int(x, "height", heimr_ground(e, tgt, "height"), RULES_AUD_PUBLIC);
    if (heimr_ground(e, tgt, "difficult"))
        rules_log_word(x, "difficult", "ground.difficult", RULES_AUD_PUBLIC);
    if (heimr_ground(e, tgt, "concealment")) {
        rules_log_word(x, "cover", "ground.cover", RULES_AUD_PUBLIC);
        rules_log_int(x, "concealment", heimr_ground(e, tgt, "concealment"), RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    return 0;
}

/* ---- the module's hooks ---- */

/* The scene is over: everyone gets their breath back (001:292, 001:304). */
static int combat_end(rules_enc *e, tb_err *err)
{
    (void)err;
    heimr_breath_back(e);
    return 0;
}

static int combat_start(rules_enc *e, const rules_args *options, tb_err *err)
{
    (void)options;
    (void)err;
    /* 001:324-327 one standard action per turn; free actions are counted by name */
    rules_enc_budget_default(e, json_pack("{s:i}", "standard", 1));
    json_object_set_new(e->enc, "turn_seconds", json_integer(HEIMR_TURN_SECONDS));
    json_object_set_new(e->enc, "seconds", json_integer(0));
    return 0;
}

static int combat_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)err;
    heimr_join_stats(e, cid, sheet);
    heimr_join_injuries(e, cid);
    if (rules_enc_round(e) > 0) {
        /* joining a running fight: initiative now, at the end of the order */
        rules_rank r = {0};
        heimr_initiative(e, cid, &r);
        json_array_append_new(json_object_get(e->enc, "order"), json_string(cid));
    }
    return 0;
}

/* The words of the module's own events (the shared ones are the system's: words.c). */
/* clang-format off */
static const rules_phrase PHRASES[] = {
    {"begin", "Round 1: the order is {order} (001:242)"},
    {"act", "{who}: {what} ({type} action)"},
    {"breather-upcoming",
     "{who} starts taking a breather (upcoming: it finishes next turn) (001:383)"},
    {"cancel", "{who} cancels {what} and has the standard action back"},
    {"stand", "{who} stands up (free action)"},
    {"prone", "{who} drops prone (001:358)"},
    {"guard", "{who} guards {whom}: the next attack on {whom} meets {who} first (001:450-452)"},
    {"stand-down", "{who} stops guarding {whom}"},
    {"ground", "{who} stands at height {height}{difficult?}{cover?} (001:475, 001:517, 001:540)"},
    {"ground.difficult", ", on difficult ground"},
    {"ground.cover", ", behind cover {concealment}"},
    {NULL, NULL},
};
/* clang-format on */

/* What the GM adjusts mid-fight: hit points (001:143-166), willpower and fatigue, in the ranges
 * of the sheet (rules/heimr/heimr.c). */
static const rules_enc_field EDITABLE[] = {
    {"stats/hp", RULES_PARAM_INT, -5, 100, "hit points"},
    {"stats/hp_max", RULES_PARAM_INT, 1, 100, "maximum hit points"},
    {"stats/willpower", RULES_PARAM_INT, 0, 50, "willpower"},
    {"stats/willpower_max", RULES_PARAM_INT, 0, 50, "maximum willpower"},
    {"stats/fatigue", RULES_PARAM_INT, 1, 20, "fatigue"},
    {NULL, 0, 0, 0, NULL},
};

/* Damage, willpower, fatigue and injuries land on the sheets (server/ops_enc.c write_back). */
static const char *const SHEET_STATS[] = {"hp",      "hp_max",   "willpower", "willpower_max",
                                          "fatigue", "injuries", NULL};

const rules_module rules_module_heimr_combat = {
    .id = "heimr.combat",
    .system = "heimr",
    .name = "Combat",
    .cite = "001:234-446",
    .start = combat_start,
    .join = combat_join,
    .end = combat_end,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = EDITABLE,
    .choices = heimr_combat_choices, /* choices.c */
    .phrases = PHRASES,
};
