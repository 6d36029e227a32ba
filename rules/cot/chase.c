/*
 * chase.c — City of Thieves' module `cot.chase` "Chase" (000:139-171): the initiative slots of
 * the chase Stage (cot_enc.h) plus Cover, Distance per Pursuer, vehicles, and the Target's and
 * Pursuers' actions. The rulebook is 000_d2a475e9ec148dd1.txt, cited as 000:LINE; the readings
 * are in rules/RULES.md, "cot.chase".
 *
 * /enc/target_side names the Target group (000:147 "Each chase has one Target and every other
 * participant is considered a Pursuer"); /enc/cramped is set by Shake into a crowd (000:155).
 * Each Pursuer carries its own public `distance` to the Target (000:147, set from the GM's
 * initial Distance when it joins); a Pursuer that Boarded has the condition "boarded" and is
 * always at Distance 0 (000:163). Vehicles are set by the GM (`vehicle`): stats `vehicle`
 * (name), `driver`, `speed` (the Speed rating, 000:140), `body` (the vehicle's Body Score, on
 * its driver) and `ram_bonus` (the weapon bonus of a Ram, 000:167).
 */
#include <stdio.h>
#include <string.h>

#include "cot_enc.h"

static int chase_start(rules_enc *e, const rules_args *o, tb_err *err);
static int chase_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
static int check_vehicle(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_vehicle(rules_enc *e, const rules_args *a, tb_err *err);
static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_attack(rules_enc *e, const rules_args *a, tb_err *err);
static int check_accelerate(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_accelerate(rules_enc *e, const rules_args *a, tb_err *err);
static int check_shake(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_shake(rules_enc *e, const rules_args *a, tb_err *err);
static int check_escape(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_escape(rules_enc *e, const rules_args *a, tb_err *err);
static int check_takedown(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_takedown(rules_enc *e, const rules_args *a, tb_err *err);
static int check_board(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_board(rules_enc *e, const rules_args *a, tb_err *err);
static int check_ram(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_ram(rules_enc *e, const rules_args *a, tb_err *err);
static int check_close(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_close(rules_enc *e, const rules_args *a, tb_err *err);
static int check_seize(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_seize(rules_enc *e, const rules_args *a, tb_err *err);
static int check_fall_off(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_fall_off(rules_enc *e, const rules_args *a, tb_err *err);
static int chase_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                         const rules_param *p, json_t *out);

/* ---- the table ---- */

static const rules_param CHASE_OPTIONS[] = {
    {"target_side", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED,
     "the side that is the Target (everyone else pursues)"},
    {"distance", RULES_PARAM_INT, 0, 20, 2, 0, "the initial Distance (default 2)"},
    {"stage", RULES_PARAM_STRING, 1, 20, 0, 0, "foot_chase (default) or vehicle_chase"},
    {0},
};

static const rules_param VEHICLE_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who rides"},
    {"vehicle", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "the vehicle's name"},
    {"driver", RULES_PARAM_BOOL, 0, 1, 0, 0, "drives it"},
    {"speed", RULES_PARAM_INT, 0, 10, 0, 0, "the Speed rating"},
    {"body", RULES_PARAM_INT, 0, 60, 0, 0, "the vehicle's Body Score (driver)"},
    {"ram_bonus", RULES_PARAM_INT, 0, 10, 0, 0, "the vehicle's weapon bonus for a Ram"},
    {0},
};

static const rules_param ATTACK_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to attack"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0, "hand_to_hand (default), shooting or explosives"},
    {"weapon", RULES_PARAM_STRING, 1, 100, 0, 0, "a weapon from the sheet (none: bare hands)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "Bonus dice for circumstances (+1k0 each)"},
    {"at_vehicle", RULES_PARAM_BOOL, 0, 1, 0, 0, "hit the vehicle (its Body), not the person"},
    COT_LEAN_ONTO_PARAM,
    {0},
};

static const rules_param SHAKE_PARAMS[] = {
    {"how", RULES_PARAM_STRING, 1, 10, 0, 0, "crowd (default), obstacle or dislodge"},
    {"difficulty", RULES_PARAM_INT, 1, 60, 0, 0, "the obstacle's difficulty"},
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "the boarder to dislodge"},
    {0},
};

static const rules_param RAM_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to ram"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "Bonus dice for circumstances (+1k0 each)"},
    {"at_vehicle", RULES_PARAM_BOOL, 0, 1, 0, 0, "hit the vehicle (its Body), not the person"},
    COT_LEAN_ONTO_PARAM,
    {0},
};

static const rules_enc_action CHASE_ACTIONS[] = {
    COT_COMMON_ACTIONS,
    {"vehicle", "Put in a vehicle", RULES_ENC_GM, VEHICLE_PARAMS, act_vehicle, "000:140-142",
     check_vehicle, RULES_ENC_RARE},
    {"attack", "Attack", RULES_ENC_TURN, ATTACK_PARAMS, act_attack, "000:151", check_attack, 0},
    {"accelerate", "Accelerate", RULES_ENC_TURN, cot_no_params, act_accelerate, "000:153",
     check_accelerate, 0},
    {"shake", "Shake", RULES_ENC_TURN, SHAKE_PARAMS, act_shake, "000:155", check_shake, 0},
    {"escape", "Escape", RULES_ENC_TURN, cot_no_params, act_escape, "000:157", check_escape, 0},
    {"takedown", "Takedown", RULES_ENC_TURN, cot_target_params, act_takedown, "000:161",
     check_takedown, 0},
    {"board", "Board", RULES_ENC_TURN, cot_target_params, act_board, "000:163", check_board, 0},
    {"ram", "Ram", RULES_ENC_TURN, RAM_PARAMS, act_ram, "000:167", check_ram, 0},
    {"close", "Close", RULES_ENC_TURN, cot_target_params, act_close, "000:169", check_close, 0},
    {"hold", "Hold them", RULES_ENC_TURN, cot_target_params, act_seize, "000:161", check_seize, 0},
    {"fall_off", "Fall Off", RULES_ENC_TURN, cot_no_params, act_fall_off, "000:171", check_fall_off,
     RULES_ENC_RARE},
    {0},
};

/* A chase's own (000:139-171): the crowd, the Distances, and the vehicles the GM set. */
static const rules_enc_field CHASE_EDITABLE[] = {
    COT_EDITABLE_FIELDS,
    {"/enc/cramped", RULES_PARAM_BOOL, 0, 1, "cramped conditions"},
    {"/enc/combatants/*/distance", RULES_PARAM_INT, 0, 40, "Distance to the Target"},
    {"stats/speed", RULES_PARAM_INT, 0, 10, "Speed rating"},
    {"stats/body", RULES_PARAM_INT, 0, 60, "the vehicle's Body"},
    {"stats/ram_bonus", RULES_PARAM_INT, 0, 10, "the vehicle's Ram bonus"},
    {"stats/driver", RULES_PARAM_BOOL, 0, 1, "driving"},
    {"stats/vehicle", RULES_PARAM_STRING, 1, 40, "vehicle"},
    {NULL, 0, 0, 0, NULL},
};

/* clang-format off */
static const rules_phrase CHASE_PHRASES[] = {
    {"chase.cover", "takes cover (000:146)"},
    {"vehicle", "{who} rides in the {vehicle}{driver?}"},
    {"vehicle.driver", " as its driver"},
    {"oppose", "{who} opposes: {pool} {line}"},
    {"swerve", "{who} swerves: Fingers+Driving {line}"},
    {"attack", "{who} takes slot {slot} and attacks {of?}{whom}: {line}: {tail}{detail?}"},
    {"attack", "{who} takes slot {slot} and attacks {of?}{whom}: {tail}"},
    {"ram", "{who} takes slot {slot} and rams {of?}{whom}: {line}: {tail}{detail?}"},
    {"ram", "{who} takes slot {slot} and rams {of?}{whom}: {tail}"},
    {"hit.of", "the vehicle of "},
    {"hit.no_harm", "Catastrophe: no harm done (000:9)"},
    {"hit.wrecked", "the vehicle is wrecked (000:151)"},
    {"hit.body", "the vehicle loses Body (000:151)"},
    {"harm.catastrophe", "{whom} takes no harm: Catastrophe (000:9)"},
    {"harm.dead", "{whom} is Dead (000:136)"},
    {"harm.wounded", "{whom} is Wounded (000:135)"},
    {"harm.cover", "{whom} loses Cover (000:134)"},
    {"hit.body_detail", "; Body {body_before} − {damage} → {body}"},
    {"hit.cover_detail", "; {whom}'s Cover {cover_before} − {damage} → {cover}"},
    {"accelerate", "{who} takes slot {slot} and accelerates away from {whom}: {pool} {line}: "
                   "{outcome} (000:153)"},
    {"accelerate", "{who} takes slot {slot} and accelerates away from {whom}: {outcome} "
                   "(000:153)"},
    {"crowd", "{who} takes slot {slot} and heads into a crowd: everyone moves at Muscles velocity "
              "now (000:142-144, 000:155)"},
    {"dislodge", "{who} takes slot {slot} and swerves to throw off {whom}: Fingers+Driving "
                 "{line}: {state} (000:155)"},
    {"dislodge", "{who} takes slot {slot} and swerves to throw off {whom}: {state} (000:155)"},
    {"shake", "{who} takes slot {slot} and takes on an obstacle of {difficulty}: {pool} {line}: "
              "{state} (000:155)"},
    {"shake", "{who} takes slot {slot} and takes on an obstacle of {difficulty}: {state} "
              "(000:155)"},
    {"obstacle", "{who} tackles the obstacle: {pool} {line}: {state}; Distance {distance} "
                 "(000:155)"},
    {"obstacle", "{who} tackles the obstacle: {state}; Distance {distance} (000:155)"},
    {"escape", "{who} takes slot {slot} and the {side} escape: the chase is theirs (000:157)"},
    {"takedown", "{who} takes slot {slot} and tries to take down {whom}: {pool} {line}: "
                 "{outcome} (000:161)"},
    {"takedown", "{who} takes slot {slot} and tries to take down {whom}: {outcome} (000:161)"},
    {"caught", "{who} catches the {side}: the chase is over (000:161)"},
    {"board", "{who} takes slot {slot} and jumps for {whom}'s vehicle: Muscle+Athletics {line}: "
              "{state} (000:163)"},
    {"board", "{who} takes slot {slot} and jumps for {whom}'s vehicle: {state} (000:163)"},
    {"close", "{who} takes slot {slot} and closes on {whom}: {pool} {line}: {outcome} (000:169)"},
    {"close", "{who} takes slot {slot} and closes on {whom}: {outcome} (000:169)"},
    {"run_down", "{who} takes slot {slot} and runs {whom} down at Speed: Distance 0 (000:169)"},
    {"fall_off", "{who} takes slot {slot} and falls off the chase (000:171)"},
    {"seize", "{who} holds {whom} (000:161)"},
    {NULL, NULL},
};
/* clang-format on */

const rules_module rules_module_cot_chase = {
    .id = "cot.chase",
    .system = "cot",
    .name = "Chase",
    .cite = "000:139-171",
    .options = CHASE_OPTIONS,
    .start = chase_start,
    .join = chase_join,
    .may_act = cot_may_act,
    .actions = CHASE_ACTIONS,
    .sheet_stats = cot_sheet_stats,
    .editable = CHASE_EDITABLE,
    .check = cot_module_check,
    .choices = chase_choices,
    .phrases = CHASE_PHRASES,
};

/* ---- choices ---- */

static const char *const ATTACK_SKILLS[] = {"hand_to_hand", "shooting", "explosives", NULL};

/* The other group of the chase (an Attack's, a Ram's target), and its Target group (a
 * Takedown's, a Board's, a Close's). */
static int other_group(const rules_enc *e, const char *actor, const char *cid)
{
    return cot_chase_is_target(e, cid) != cot_chase_is_target(e, actor);
}

static int the_target(const rules_enc *e, const char *actor, const char *cid)
{
    return cot_chase_is_target(e, cid) && !rules_enc_streq(cid, actor);
}

static int boarder(const rules_enc *e, const char *actor, const char *cid)
{
    (void)actor;
    return rules_enc_cond_has(e, cid, "boarded");
}

/* The Target group a Takedown caught, when the turn goes on after it; 0 when there is none. */
static int choose_caught(const rules_enc *e, json_t *out)
{
    const char *cid;
    size_t n = json_array_size(out);
    if (!json_is_object(json_object_get(e->enc, "follow_up")))
        return 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (cot_chase_is_target(e, cid) &&
            rules_enc_streq(cot_str(rules_enc_combatant(e, cid), "out"), "caught"))
            cot_choice(out, json_string(cid), rules_enc_name(e, cid));
    return json_array_size(out) > n;
}

static const char *const SHAKE_HOW[][2] = {
    {"crowd", "Into a crowd"},
    {"obstacle", "An obstacle"},
    {"dislodge", "Throw off a boarder"},
};

static int chase_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                         const rules_param *p, json_t *out)
{
    int rc = cot_choices_common(e, actor, a, p, out);
    const char *act = a->name, *par = p->name;
    if (rc != RULES_CHOICES_NONE)
        return rc;
    int hit = strcmp(act, "attack") == 0 || strcmp(act, "ram") == 0;
    if ((strcmp(act, "ram") == 0 || strcmp(act, "hold") == 0) && strcmp(par, "target") == 0 &&
        choose_caught(e, out))
        ; /* the turn goes on after a Takedown: its Target (000:161) */
    else if (hit && strcmp(par, "target") == 0)
        cot_choose_combatants(e, actor, other_group, out);
    else if (strcmp(act, "attack") == 0 && strcmp(par, "skill") == 0)
        cot_choose_skills(e, actor, ATTACK_SKILLS, out);
    else if (strcmp(act, "attack") == 0 && strcmp(par, "weapon") == 0)
        cot_choose_weapons(e, actor, "bare hands", out);
    else if ((strcmp(act, "takedown") == 0 || strcmp(act, "board") == 0 ||
              strcmp(act, "close") == 0) &&
             strcmp(par, "target") == 0)
        cot_choose_combatants(e, actor, the_target, out);
    else if (strcmp(act, "shake") == 0 && strcmp(par, "how") == 0)
        for (size_t i = 0; i < sizeof SHAKE_HOW / sizeof SHAKE_HOW[0]; i++)
            cot_choice(out, json_string(SHAKE_HOW[i][0]), SHAKE_HOW[i][1]);
    else if (strcmp(act, "shake") == 0 && strcmp(par, "target") == 0) {
        cot_choice(out, NULL, "nobody");
        cot_choose_combatants(e, actor, boarder, out);
    } else if (strcmp(act, "shake") == 0 && strcmp(par, "difficulty") == 0) {
        cot_choice(out, json_integer(COT_DIFFICULTY_BASE), "the obstacle's difficulty");
        return RULES_CHOICES_DEFAULT; /* 000:13: 9 unless the Target sets another */
    } else
        return RULES_CHOICES_NONE;
    return RULES_CHOICES_PICK;
}

/* ---- a turn that goes on (000:161, 000:169) ---- */

/* The actor's turn goes on with one of `actions` (space-separated) or ends (wait): the slot stays
 * the actor's (/enc/follow_up {by, actions, what, cite}; cot_turn_check). Returns 1. */
static int follow_up(rules_enc *e, const char *actions, const char *what, const char *cite)
{
    json_t *list = json_array();
    char buf[64];
    snprintf(buf, sizeof buf, "%s", actions);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        json_array_append_new(list, json_string(w));
    json_object_set_new(e->enc, "follow_up",
                        json_pack("{s:s, s:o, s:s, s:s}", "by", e->actor, "actions", list, "what",
                                  what, "cite", cite));
    return 1;
}

/* t was caught by the Takedown whose turn goes on (its follow-up is on it). */
static int caught(const rules_enc *e, const char *t)
{
    json_t *fu = json_object_get(e->enc, "follow_up");
    return rules_enc_streq(cot_str(fu, "by"), e->actor) &&
           rules_enc_streq(cot_str(rules_enc_combatant(e, t), "out"), "caught");
}

/* ---- start and join ---- */

static int chase_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    const char *id = rules_arg_str(o, "stage");
    if (!id)
        id = "foot_chase";
    if (strcmp(id, "foot_chase") != 0 && strcmp(id, "vehicle_chase") != 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.start cot.chase: 'stage' must be foot_chase or vehicle_chase "
                       "(000:35-36)");
    cot_start_stage(e, id);
    /* 000:146 "The GM then sets an initial Distance." */
    json_object_set_new(e->enc, "distance", json_integer(rules_arg_int(o, "distance")));
    json_object_set_new(e->enc, "target_side", json_string(rules_arg_str(o, "target_side")));
    json_object_set_new(e->enc, "cramped", json_false());
    return 0;
}

/* 000:146 "the sides rolling initiative ... Participants roll Resist with any armour bonuses,
 * and records the number as their Cover Score." */
static int chase_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int rc = cot_join_common(e, cid, sheet, err);
    if (rc || (rc = cot_roll_cover(e, cid, "cover", "chase.cover", 0, err)))
        return rc;
    if (!cot_chase_is_target(e, cid))
        cot_chase_dist_set(e, cid, cot_int(e->enc, "distance"));
    return 0;
}

/* ---- the GM's vehicles (000:140) ---- */

static int check_vehicle(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return cot_target_check(e, rules_arg_str(a, "target"), 1, err);
}

/* The GM puts a combatant in a vehicle (000:140 "Vehicles have a set Speed rating"). */
static int act_vehicle(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    json_t *st = rules_enc_stats(e, t);
    json_object_set_new(st, "vehicle", json_string(rules_arg_str(a, "vehicle")));
    json_object_set_new(st, "driver", json_boolean(rules_arg_int(a, "driver")));
    rules_enc_stat_set(e, t, "speed", rules_arg_int(a, "speed"));
    if (rules_arg_int(a, "driver")) {
        rules_enc_stat_set(e, t, "body", rules_arg_int(a, "body"));
        rules_enc_stat_set(e, t, "ram_bonus", rules_arg_int(a, "ram_bonus"));
    }
    if (!cot_chase_is_target(e, t)) /* a passenger rides at its vehicle's Distance */
        cot_chase_dist_set(e, t, cot_chase_dist(e, t));
    rules_log *x = rules_log_begin(e, "vehicle", "vehicle");
    rules_log_who(x, "who", t);
    rules_log_name(x, "vehicle", rules_arg_str(a, "vehicle"), RULES_AUD_PUBLIC);
    if (rules_arg_int(a, "driver"))
        rules_log_word(x, "driver", "vehicle.driver", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- Attack and Ram (000:151, 000:165-167) ---- */

/* The skill, weapon and bonus dice of a hit: a Ram rolls Fingers+Driving with the vehicle's
 * bonus (000:167), an Attack the Gang Warfare attack (000:130-131). */
static int hit_gear(const rules_enc *e, const rules_args *a, int ram, const cot_skill **sk,
                    json_t **weapon, int *bonus, tb_err *err)
{
    *sk = cot_skill_find("driving");
    *weapon = NULL;
    if (!ram) {
        int rc = cot_attack_gear(e, a, ATTACK_SKILLS, sk, weapon, err);
        if (rc)
            return rc;
    }
    int lean, rc = cot_lean_own(e, a, &lean, err); /* +1k0 from the actor's Loyalty (000:239) */
    *bonus = (ram ? rules_enc_stat_peek(e, e->actor, "ram_bonus", 0)
                  : (*weapon ? cot_int(*weapon, "bonus") : 0)) +
             rules_arg_int(a, "bonus") + lean;
    return rc;
}

static int hit_check(const rules_enc *e, const rules_args *a, int ram, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    const cot_skill *sk;
    json_t *weapon;
    /* the Ram that follows a Takedown (000:161) hits the Target it caught */
    int bonus, rc = ram && caught(e, t) ? 0 : cot_target_check(e, t, 0, err);
    if (rc)
        return rc;
    if (cot_chase_is_target(e, t) == cot_chase_is_target(e, e->actor))
        return rules_enc_rule(err, "%s is on the same side of the chase", rules_enc_name(e, t));
    if ((rc = hit_gear(e, a, ram, &sk, &weapon, &bonus, err)))
        return rc;
    /* 000:159-167: the Ram is among the Pursuers' actions only */
    if (ram && (rc = cot_chase_role(e, 0, "Ram", err)))
        return rc;
    if (ram && (!cot_chase_in_vehicle(e, e->actor) || !cot_stat_true(e, e->actor, "driver")))
        return rules_enc_rule(err, "only the driver of a vehicle can Ram (000:167)");
    if ((ram || strcmp(sk->id, "hand_to_hand") == 0) &&
        (rc = cot_chase_at_zero(e, cot_chase_pursuer_of(e, t), ram ? "a Ram" : "a melee attack",
                                ram ? "000:167" : "000:151", err)))
        return rc;
    if (rules_arg_int(a, "at_vehicle") && !cot_chase_vehicle_holder(e, t))
        return rules_enc_rule(err, "%s is not in a vehicle with a driver", rules_enc_name(e, t));
    if ((rc = cot_turn_check(e, ram ? "ram" : "attack", err)))
        return rc;
    return cot_throw_check(e, e->actor, sk->ability, sk->id, bonus, err);
}

/* An Attack or a Ram in a chase. Against a vehicle (at_vehicle) the roll hits its Body Score,
 * else the person's Cover (000:151). */
static int chase_hit(rules_enc *e, const rules_args *a, int ram, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    const cot_skill *sk;
    json_t *weapon;
    int bonus, rc;
    hit_gear(e, a, ram, &sk, &weapon, &bonus, err);
    const char *holder = rules_arg_int(a, "at_vehicle") ? cot_chase_vehicle_holder(e, t) : NULL;
    rules_log *x = cot_turn_log(e, ram ? "ram" : "attack", ram ? "ram" : "attack");
    cot_throw th;
    if ((rc = cot_throw_pool(e, e->actor, sk->ability, sk->id, bonus, &th, err))) {
        rules_log_drop(x);
        return rc;
    }
    rules_log_who(x, "whom", t);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    cot_log_throw(x, &th, rules_enc_aud_of(e, e->actor));
    rules_aud theirs = rules_enc_aud_of(e, holder ? holder : t);
    if (holder) {
        /* 000:151 "Attacks against a Vehicle target its Body Score"; the loss follows 000:134
         * (RULES.md, cot chases, reading 4) */
        int before = rules_enc_stat(e, holder, "body", 0), dmg = 0;
        if (!th.r.catastrophe)
            dmg = th.r.total > before ? th.r.total - before : 1;
        int after = before - dmg < 0 ? 0 : before - dmg;
        rules_enc_stat_set(e, holder, "body", after);
        rules_log_word(x, "of", "hit.of", RULES_AUD_PUBLIC);
        rules_log_word(x, "tail",
                       th.r.catastrophe ? "hit.no_harm"
                       : after == 0     ? "hit.wrecked"
                                        : "hit.body",
                       RULES_AUD_PUBLIC);
        rules_log_json(x, "outcome", json_string(after == 0 ? "wrecked" : "body"),
                       RULES_AUD_PUBLIC);
        rules_log_int(x, "body_before", before, theirs);
        rules_log_int(x, "damage", dmg, theirs);
        rules_log_int(x, "body", after, theirs);
        if (theirs == RULES_AUD_GM)
            rules_log_word(x, "detail", "hit.body_detail", theirs);
    } else {
        cot_harm h = {rules_enc_stat(e, t, "cover", 0), 0, rules_enc_stat(e, t, "cover", 0), -1,
                      "catastrophe"};
        if (!th.r.catastrophe)
            h = cot_apply_harm(e, t, th.r.total);
        rules_log_word(x, "tail", cot_harm_word(&h), RULES_AUD_PUBLIC);
        rules_log_json(x, "outcome", json_string(h.outcome), RULES_AUD_PUBLIC);
        rules_log_int(x, "cover_before", h.before, theirs);
        rules_log_int(x, "damage", h.damage, theirs);
        rules_log_int(x, "cover", h.after, theirs);
        if (theirs == RULES_AUD_GM)
            rules_log_word(x, "detail", "hit.cover_detail", theirs);
    }
    rules_log_end(x);
    cot_turn_close(e, 1);
    return 0;
}

static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return hit_check(e, a, 0, err);
}

static int act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    return chase_hit(e, a, 0, err);
}

/* ---- the Target's actions (000:149-157) ---- */

static int check_accelerate(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = cot_chase_role(e, 1, "Accelerate", err);
    if (rc || (rc = cot_chase_driver(e, e->actor, "Accelerate", err)) ||
        (rc = cot_turn_check(e, "accelerate", err)))
        return rc;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (cot_chase_can_close(e, cid) &&
            (rc = cot_chase_opposed_check(e, cid, "accelerate", err)))
            return rc;
    return 0;
}

static int act_accelerate(rules_enc *e, const rules_args *a, tb_err *err)
{
    int slot = cot_turn_take(e);
    /* 000:153 "an opposed roll versus their Pursuers and if successful, increase the Distance
     * by 1. If there are multiple Pursuers, then each group able to Close rolls." */
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (!cot_chase_can_close(e, cid))
            continue;
        int ok = cot_chase_opposed(e, cid, "accelerate", slot, err);
        if (ok < 0)
            return -ok;
        if (ok)
            cot_chase_dist_set(e, cid, cot_chase_dist(e, cid) + 1);
    }
    cot_turn_close(e, 1);
    return 0;
}

/* Shake's `how`: 0 crowd (the default), 1 obstacle, 2 dislodge, -1 none of them. */
static int shake_how(const rules_args *a)
{
    static const char *const HOW[] = {"crowd", "obstacle", "dislodge"};
    const char *how = rules_arg_str(a, "how");
    for (int i = 0; i < 3; i++)
        if (strcmp(how ? how : "crowd", HOW[i]) == 0)
            return i;
    return -1;
}

static int check_shake(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int how = shake_how(a);
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    if (how < 0)
        return tb_fail(err, TB_BAD_REQUEST, "how: '%.20s' is not crowd, obstacle or dislodge",
                       rules_arg_str(a, "how"));
    int rc = cot_chase_role(e, 1, "Shake", err);
    if (rc || (rc = cot_chase_driver(e, me, "Shake", err)))
        return rc;
    if (how == 1 && !rules_arg_given(a, "difficulty"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "difficulty: an obstacle needs the difficulty the Target sets (000:155)");
    if (how == 2 && (!t || !rules_enc_cond_has(e, t, "boarded")))
        return rules_enc_rule(err, "only a Pursuer who Boarded can be dislodged (000:155)");
    if ((rc = cot_turn_check(e, "shake", err)))
        return rc;
    if (how == 2) {
        if ((rc = cot_throw_check(e, t, "muscle", "athletics", 0, err)))
            return rc;
        return cot_throw_check(e, me, "fingers", "driving", 0, err);
    }
    if (how == 1) {
        if ((rc = cot_chase_pool_check(e, me, err)))
            return rc;
        const char *cid;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
            if (cot_chase_can_close(e, cid) && (rc = cot_chase_pool_check(e, cid, err)))
                return rc;
    }
    return 0;
}

/* 000:155 "Fingers+ Driving versus the Pursuers Muscle+Athletics, if successful, the Pursuer is
 * thrown from the Vehicle." */
static int shake_dislodge(rules_enc *e, const char *t, int slot, tb_err *err)
{
    const char *me = e->actor;
    cot_throw o, m;
    int rc;
    if ((rc = cot_throw_pool(e, t, "muscle", "athletics", 0, &o, err)) ||
        (rc = cot_throw_pool(e, me, "fingers", "driving", 0, &m, err)))
        return rc;
    int ok = cot_roll_succeeds(&m.r, o.r.total);
    rules_aud oa = rules_enc_aud_of(e, t), ma = rules_enc_aud_of(e, me);
    rules_log *x = rules_log_begin(e, "oppose", "hold");
    rules_log_who(x, "holder", t);
    cot_log_throw(x, &o, oa);
    rules_log_end(x);
    if (ok) {
        rules_enc_cond_remove(e, t, "boarded");
        rules_enc_set_out(e, t, "thrown off");
    }
    x = rules_log_begin(e, "shake", "dislodge");
    rules_log_who(x, "who", me);
    rules_log_count(x, "slot", slot, RULES_AUD_PUBLIC);
    rules_log_who(x, "whom", t);
    cot_log_throw(x, &m, ma);
    rules_log_int(x, "difficulty", o.r.total, oa);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_name(x, "state", ok ? "thrown from the vehicle" : "still on board", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* 000:155 "The Target sets a difficulty and rolls against it. Similarly, their Pursuers also
 * roll against it. If the Target is successful, increase the Distance by 1. If the Pursuers are
 * unsuccessful, increase the Distance by another 1." The difficulty is set openly. */
static int shake_obstacle(rules_enc *e, int diff, int slot, tb_err *err)
{
    const char *me = e->actor;
    cot_throw m;
    const char *mw;
    int rc = cot_chase_throw(e, me, &m, &mw, err);
    if (rc)
        return rc;
    int ok = cot_roll_succeeds(&m.r, diff);
    rules_aud ma = rules_enc_aud_of(e, me);
    rules_log *x = rules_log_begin(e, "shake", "shake");
    rules_log_who(x, "who", me);
    rules_log_count(x, "slot", slot, RULES_AUD_PUBLIC);
    rules_log_name(x, "pool", mw, ma);
    cot_log_throw(x, &m, ma);
    rules_log_int(x, "difficulty", diff, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_name(x, "state", ok ? "over it" : "held up", RULES_AUD_PUBLIC);
    rules_log_end(x);
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (!cot_chase_can_close(e, cid))
            continue;
        cot_throw p;
        const char *pw;
        if ((rc = cot_chase_throw(e, cid, &p, &pw, err)))
            return rc;
        int pok = cot_roll_succeeds(&p.r, diff);
        int add = (ok ? 1 : 0) + (pok ? 0 : 1);
        cot_chase_dist_set(e, cid, cot_chase_dist(e, cid) + add);
        rules_aud pa = rules_enc_aud_of(e, cid);
        x = rules_log_begin(e, "obstacle", "obstacle");
        rules_log_who(x, "who", cid);
        rules_log_name(x, "pool", pw, pa);
        cot_log_throw(x, &p, pa);
        rules_log_int(x, "distance", cot_chase_dist(e, cid), RULES_AUD_PUBLIC);
        rules_log_name(x, "state", pok ? "over it" : "held up", RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    return 0;
}

static int act_shake(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc, how = shake_how(a);
    if (how == 0) {
        /* 000:155 "entering a crowded space. Participants in the chase then use the rules for
         * cramped conditions." */
        rules_log *x = cot_turn_log(e, "shake", "crowd");
        json_object_set_new(e->enc, "cramped", json_true());
        rules_log_end(x);
        cot_turn_close(e, 0);
        return 0;
    }
    int slot = cot_turn_take(e);
    rc = how == 2 ? shake_dislodge(e, rules_arg_str(a, "target"), slot, err)
                  : shake_obstacle(e, rules_arg_int(a, "difficulty"), slot, err);
    if (rc)
        return rc;
    cot_turn_close(e, 1);
    return 0;
}

static int check_escape(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = cot_chase_role(e, 1, "Escape", err);
    /* 000:157 "must have distance from their pursuers equal to the fastest Pursuer's Velocity
     * Rating and be able to Accelerate" */
    if (rc ||
        (rc = cot_chase_driver(e, e->actor, "Accelerate, so only the driver may Escape", err)))
        return rc;
    int fastest = 0, nearest = -1;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (cot_chase_is_target(e, cid) || rules_enc_is_out(e, cid))
            continue;
        if (cot_chase_velocity(e, cid) > fastest)
            fastest = cot_chase_velocity(e, cid);
        if (nearest < 0 || cot_chase_dist(e, cid) < nearest)
            nearest = cot_chase_dist(e, cid);
    }
    if (nearest >= 0 && nearest < fastest)
        return rules_enc_rule(err,
                              "the nearest Pursuer is at Distance %d: escaping needs Distance %d, "
                              "the fastest Pursuer's Velocity (000:157)",
                              nearest, fastest);
    return cot_turn_check(e, "escape", err);
}

static int act_escape(rules_enc *e, const rules_args *a, tb_err *err)
{
    rules_log *x = cot_turn_log(e, "escape", "escape");
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (cot_chase_is_target(e, cid) && !rules_enc_is_out(e, cid))
            rules_enc_set_out(e, cid, "escaped");
    rules_log_name(x, "side", cot_str(e->enc, "target_side"), RULES_AUD_PUBLIC);
    rules_log_end(x);
    cot_turn_close(e, 0);
    return 0;
}

/* ---- the Pursuers' actions (000:159-171) ---- */

static int check_takedown(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    int rc = cot_chase_role(e, 0, "make a Takedown", err);
    if (rc || (rc = cot_chase_target_check(e, t, "a Takedown", err)) ||
        (rc = cot_chase_at_zero(e, e->actor, "a Takedown", "000:161", err)))
        return rc;
    return cot_chase_opposed_check(e, t, "takedown", err);
}

static int act_takedown(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    int ok = cot_chase_opposed(e, t, "takedown", cot_turn_take(e), err);
    if (ok < 0)
        return -ok;
    if (ok) {
        /* 000:161 "If the Pursuer succeeds, they end the chase, Victorious." */
        const char *cid;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
            if (cot_chase_is_target(e, cid) && !rules_enc_is_out(e, cid))
                rules_enc_set_out(e, cid, "caught");
        rules_log *x = rules_log_begin(e, "takedown", "caught");
        rules_log_who(x, "who", e->actor);
        rules_log_name(x, "side", cot_str(e->enc, "target_side"), RULES_AUD_PUBLIC);
        rules_log_end(x);
        /* 000:161 "If the Pursuer performs a successful Takedown while on foot, they may
         * immediately initiate a hold against a Target. If the Pursuer is in a Vehicle ..., the
         * Target is subject to an immediate Ram attack": the turn goes on (issue 25) */
        if (!cot_chase_in_vehicle(e, e->actor) && follow_up(e, "hold", "a hold", "000:161"))
            return 0;
        if (cot_stat_true(e, e->actor, "driver") && follow_up(e, "ram", "a Ram", "000:161"))
            return 0;
    } else {
        /* 000:161 "If they fail, then Distance increases by 2." */
        cot_chase_dist_set(e, e->actor, cot_chase_dist(e, e->actor) + 2);
        rules_enc_cond_remove(e, e->actor, "boarded");
    }
    cot_turn_close(e, 1);
    return 0;
}

static int check_board(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    int rc = cot_chase_role(e, 0, "Board", err);
    if (rc || (rc = cot_chase_target_check(e, t, "Boarding", err)))
        return rc;
    if (!cot_chase_in_vehicle(e, e->actor) || !cot_chase_in_vehicle(e, t))
        return rules_enc_rule(err, "Board is only for a Pursuer in a vehicle against a Target in "
                                   "a vehicle (000:163)");
    if ((rc = cot_chase_at_zero(e, e->actor, "Boarding", "000:163", err)) ||
        (rc = cot_turn_check(e, "board", err)) ||
        (rc = cot_throw_check(e, t, "fingers", "driving", 0, err)))
        return rc;
    return cot_throw_check(e, e->actor, "muscle", "athletics", 0, err);
}

static int act_board(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *t = rules_arg_str(a, "target");
    int slot = cot_turn_take(e);
    /* 000:163 "The Pursuer rolls Muscle+Athletics versus their Opponents Fingers+Driving." */
    cot_throw o, m;
    if ((rc = cot_throw_pool(e, t, "fingers", "driving", 0, &o, err)) ||
        (rc = cot_throw_pool(e, e->actor, "muscle", "athletics", 0, &m, err)))
        return rc;
    int ok = cot_roll_succeeds(&m.r, o.r.total);
    if (ok)
        rules_enc_cond_add(e, e->actor, "boarded", 0, 0);
    rules_aud oa = rules_enc_aud_of(e, t), ma = rules_enc_aud_of(e, e->actor);
    rules_log *x = rules_log_begin(e, "oppose", "swerve");
    rules_log_who(x, "who", t);
    cot_log_throw(x, &o, oa);
    rules_log_end(x);
    x = rules_log_begin(e, "board", "board");
    rules_log_who(x, "who", e->actor);
    rules_log_count(x, "slot", slot, RULES_AUD_PUBLIC);
    rules_log_who(x, "whom", t);
    cot_log_throw(x, &m, ma);
    rules_log_int(x, "difficulty", o.r.total, oa);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_name(x, "state", ok ? "on board" : "missed", RULES_AUD_PUBLIC);
    rules_log_end(x);
    cot_turn_close(e, 1);
    return 0;
}

static int check_ram(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return hit_check(e, a, 1, err);
}

static int act_ram(rules_enc *e, const rules_args *a, tb_err *err)
{
    return chase_hit(e, a, 1, err);
}

/* 000:169 "if the Pursuer has a Speed Velocity Rating and the Target has a Muscles Velocity
 * Rating, attempting to Close reduces the Distance to 0." */
static int runs_down(const rules_enc *e, const char *t)
{
    return cot_chase_at_speed(e, e->actor) && !cot_chase_at_speed(e, t);
}

static int check_close(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    int rc = cot_chase_role(e, 0, "Close", err);
    if (rc || (rc = cot_chase_driver(e, e->actor, "Close", err)) ||
        (rc = cot_chase_target_check(e, t, "Closing", err)))
        return rc;
    return runs_down(e, t) ? cot_turn_check(e, "close", err)
                           : cot_chase_opposed_check(e, t, "close", err);
}

static int act_close(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (runs_down(e, t)) {
        rules_log *x = cot_turn_log(e, "close", "run_down");
        cot_chase_dist_set(e, e->actor, 0);
        rules_log_who(x, "whom", t);
        rules_log_end(x);
        cot_turn_close(e, 0);
        return 0;
    }
    /* 000:169 "an opposed roll versus their Target and if successful, decrease the Distance by
     * 1" */
    int ok = cot_chase_opposed(e, t, "close", cot_turn_take(e), err);
    if (ok < 0)
        return -ok;
    if (ok)
        cot_chase_dist_set(e, e->actor, cot_chase_dist(e, e->actor) - 1);
    /* 000:169 "On a successful roll, the Pursuer may also attempt a Takedown or Ram": the turn
     * goes on when one of them can be made now, at Distance 0 (issue 25) */
    if (ok && cot_chase_dist(e, e->actor) == 0 &&
        follow_up(e, cot_stat_true(e, e->actor, "driver") ? "takedown ram" : "takedown",
                  "a Takedown or a Ram", "000:169"))
        return 0;
    cot_turn_close(e, 1);
    return 0;
}

/* 000:161: the hold a Pursuer on foot may make at once after its successful Takedown: the
 * caught Target is Restrained by it (000:133), no roll (the Takedown was the contest). */
static int check_seize(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    json_t *fu = json_object_get(e->enc, "follow_up");
    if (!rules_enc_streq(cot_str(fu, "by"), e->actor) ||
        !cot_in_array(json_object_get(fu, "actions"), "hold"))
        return rules_enc_rule(err, "a hold follows a successful Takedown on foot (000:161)");
    if (!cot_chase_is_target(e, t))
        return rules_enc_rule(err, "%s is a Pursuer: a hold is on the Target (000:161)",
                              rules_enc_name(e, t));
    if (!caught(e, t))
        return cot_target_check(e, t, 0, err);
    return cot_turn_check(e, "hold", err);
}

static int act_seize(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    json_t *c = rules_enc_cond_add(e, t, "restrained", 0, 0);
    json_object_set_new(c, "by", json_string(e->actor));
    rules_log *x = rules_log_begin(e, "hold", "seize");
    rules_log_who(x, "who", e->actor);
    rules_log_who(x, "whom", t);
    rules_log_end(x);
    cot_turn_close(e, 0);
    return 0;
}

static int check_fall_off(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = cot_chase_role(e, 0, "Fall Off", err);
    if (rc || (rc = cot_chase_driver(e, e->actor, "Fall Off", err)))
        return rc;
    return cot_turn_check(e, "fall_off", err);
}

static int act_fall_off(rules_enc *e, const rules_args *a, tb_err *err)
{
    rules_log *x = cot_turn_log(e, "fall_off", "fall_off");
    /* 000:171 "leave a chase without having caught the Target. No roll is needed" */
    rules_enc_set_out(e, e->actor, "fell off");
    rules_log_end(x);
    cot_turn_close(e, 0);
    return 0;
}
