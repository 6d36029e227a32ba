/*
 * grimwire.c — GRIMWIRE (002_c1f3df0ad7b1e31f.txt, cited 002:LINE): the d20 + attribute roll
 * against a target number, assisting, player-vs-player rolls, the character sheet and its derived
 * values. Readings of unclear passages are numbered in rules/RULES.md, "## grimwire".
 */
#include "grimwire.h"

#include <string.h>

#include "clock.h"
#include "encounter.h"
#include "grimwire_enc.h"

#include "dice.h"

/* ---- resolution ---- */

void grimwire_judge(grimwire_roll *r)
{
    /* 002:21 "Attributes add directly to the value of the players' rolls"; 002:33 bonuses from
     * "in-game conditions" do the same (the drinking example, 002:45). */
    r->total = r->natural + r->attr + r->mod;
    /* 002:21 "If the player rolls that number or higher, they succeed." */
    r->success = rules_meets(r->total, r->tn, RULES_CMP_GE);
    r->critical = 0;
    r->collateral = 0;
    if (r->attack && r->natural == 20) {
        /* 002:59 "Rolling a 20 ... for an attack always succeeds, even if it falls short of the
         * target number, and doubles the damage." Not for other rolls (002:61). */
        r->success = 1;
        r->critical = 1;
    }
    if (r->natural == 1)
        r->success = 0; /* 002:63 "Rolling a 1 always fails" */
    /* 002:553, 002:633 a 1 on an attack ("or a higher number if they are using a weapon they do
     * not have the attribute requirements for") hits a target chosen by the GM instead; the
     * intended target is not hit by this roll (reading 4). */
    if (r->attack && r->natural <= (r->ff < 1 ? 1 : r->ff)) {
        r->collateral = 1;
        r->success = 0;
    }
}

void grimwire_roll_d20(grimwire_roll *r, rules_rng *rng, json_t *dice)
{
    r->natural = rules_roll_die(rng, 20, dice); /* 002:19 "roll a 20 sided die" */
    grimwire_judge(r);
}

int grimwire_light_attacks(int cor)
{
    /* 002:569-579: COR 1-2: 1, 3-5: 2, 6-8: 3, 9-10: 4. */
    if (cor >= 9)
        return 4;
    if (cor >= 6)
        return 3;
    if (cor >= 3)
        return 2;
    return 1;
}

int grimwire_armor(int damage, int armor)
{
    if (damage <= 0)
        return 0;
    /* 002:749 "Each point of armor reduces damage by 1 for each attack to a minimum of 1." */
    int d = damage - (armor > 0 ? armor : 0);
    return d < 1 ? 1 : d;
}

int grimwire_armor_agl(int tog, int armor_tog)
{
    return armor_tog > tog ? tog - armor_tog : 0;
}

int grimwire_melee_damage(int weapon_roll, int tog, int critical)
{
    /* 002:108, 002:563 TOG adds to melee and thrown damage; "Damage for a successful attack
     * cannot be lower than 1." */
    int d = weapon_roll + tog;
    if (d < 1)
        d = 1;
    return critical ? 2 * d : d; /* 002:59 doubles the damage (reading 6) */
}

int grimwire_collateral_tn(int attacker_cor)
{
    /* 002:557-559, 002:635, example 002:643 "PC1 has 2 COR so the target number is 9". */
    return GRIMWIRE_COLLATERAL_TN - attacker_cor;
}

int grimwire_ff_range(int tog, int tog_requirement, int frenzy)
{
    /* 002:633 a natural 1; 002:593 "A PC with 1 TOG uses a weapon that requires 3 TOG. Rolling a
     * natural 3 or below" — read as 1 + the shortfall (reading 4); 002:813 frenzy "+5". */
    int range = 1;
    if (tog_requirement > tog)
        range += tog_requirement - tog;
    if (frenzy)
        range += 5;
    return range > 20 ? 20 : range;
}

int grimwire_burnout_penalty(int level)
{
    /* 002:244 level 1: -1; 002:246 level 2: -3; 002:248 level 3: -5; 002:250 level 4 is dying
     * (the level 3 penalty stays, reading 7). */
    static const int pen[] = {0, -1, -3, -5, -5};
    if (level < 0)
        return 0;
    return pen[level > 4 ? 4 : level];
}

int grimwire_condition_cap(int max_condition, int burnout)
{
    /* 002:246 "max Condition reduced to 80% (rounded down)"; 002:248 "50% (rounded down)". */
    if (burnout >= 3)
        return max_condition * 50 / 100;
    if (burnout == 2)
        return max_condition * 80 / 100;
    return max_condition;
}

int grimwire_level_xp(int level)
{
    /* 002:268-298, "Total XP" column */
    static const int xp[] = {0, 0, 20, 60, 120, 200, 300, 420, 580, 780, 1000};
    if (level < 1 || level > GRIMWIRE_LEVEL_MAX)
        return -1;
    return xp[level];
}

int grimwire_level_reward(int level, grimwire_reward *out)
{
    /* 002:268-298, "Reward" column: +attributes, +max Condition/Focus, learning capacity */
    static const grimwire_reward r[] = {{0, 0, 0},  {0, 5, 5},  {1, 3, 7},  {1, 3, 8},
                                        {2, 3, 10}, {1, 3, 12}, {1, 4, 15}, {1, 4, 17},
                                        {2, 4, 18}, {1, 5, 20}, {1, 5, 24}};
    if (level < 2 || level > GRIMWIRE_LEVEL_MAX)
        return -1;
    *out = r[level];
    return 0;
}

int grimwire_rest_condition(int current, int max_condition, int burnout, int long_rest)
{
    /* 002:208 "Condition equal to 20% of their max Condition"; 002:212 "half their max
     * Condition"; rounded down (the rulebook does not say: RULES.md grimwire reading 9) */
    int gain = long_rest ? max_condition / 2 : max_condition * 20 / 100;
    int cap = grimwire_condition_cap(max_condition, burnout);
    if (current >= cap)
        return current;
    return current + gain > cap ? cap : current + gain;
}

int grimwire_technique_slots(int max_focus)
{
    /* 002:302 "half their character's maximum Focus rounded down. So at 7 Focus max a PC would
     * have 3 special techniques." */
    return max_focus > 0 ? max_focus / 2 : 0;
}

int grimwire_learning_hours(int effort, int attr)
{
    /* 002:308 "they can put as many points as they have in the multiplier attribute toward
     * learning the technique" per hour; 002:312 "5 learning hour x 3 COR = 15". */
    if (attr < 1)
        return -1;
    return (effort + attr - 1) / attr;
}

int grimwire_rest_focus(int focus, int max_focus, int long_rest)
{
    /* 002:200 resting "gives a character Focus equal to their max" (max 15, -5 -> 10);
     * 002:208 short rest: "Focus equal to half their max Focus"; 002:212 long: "equal to their
     * max". Never above the max. */
    int f = focus + (long_rest ? max_focus : max_focus / 2);
    return f > max_focus ? max_focus : f;
}

/* ---- checks ---- */

static void put_roll(json_t *o, const grimwire_roll *r)
{
    json_object_set_new(o, "natural", json_integer(r->natural));
    json_object_set_new(o, "attr", json_integer(r->attr));
    json_object_set_new(o, "mod", json_integer(r->mod));
    json_object_set_new(o, "total", json_integer(r->total));
    json_object_set_new(o, "success", json_boolean(r->success));
    json_object_set_new(o, "critical", json_boolean(r->critical));
    json_object_set_new(o, "collateral", json_boolean(r->collateral));
}

static int check_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    grimwire_roll r = {0};
    r.attr = rules_arg_int(a, "attr");
    r.mod = rules_arg_int(a, "mod");
    r.tn = rules_arg_int(a, "tn");
    r.attack = rules_arg_int(a, "attack");
    r.ff = rules_arg_int(a, "ff");
    if (rules_arg_given(a, "ff") && !r.attack)
        return tb_fail(err, TB_BAD_REQUEST,
                       "grimwire check: parameter 'ff' (friendly-fire range) needs attack=1 "
                       "(002:633)");
    grimwire_roll_d20(&r, rng, json_object_get(result, "dice"));
    put_roll(result, &r);
    /* 002:53 the GM usually does not disclose the target number: it is reported as "tn", a
     * secret parameter's name, never as the public "target". */
    json_object_set_new(result, "tn", json_integer(r.tn));
    json_object_set_new(result, "attack", json_boolean(r.attack));
    return 0;
}

#define ASSIST_MAX 6
static const char *const assist_names[ASSIST_MAX] = {"attr",  "attr2", "attr3",
                                                     "attr4", "attr5", "attr6"};

static int assist_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 002:81 "all players involved make a roll, each applying their own bonuses or penalties.
     * The highest result is used." A natural 1 always fails (002:63), so it is never the result
     * used while another roll stands (reading 3). */
    int tn = rules_arg_int(a, "tn");
    json_t *rolls = json_array();
    int best = -1, best_total = 0, best_natural = 0;
    for (int i = 0; i < ASSIST_MAX; i++) {
        if (i > 0 && !rules_arg_given(a, assist_names[i]))
            continue;
        grimwire_roll r = {0};
        r.attr = rules_arg_int(a, assist_names[i]);
        r.tn = tn;
        grimwire_roll_d20(&r, rng, json_object_get(result, "dice"));
        json_t *o = json_object();
        json_object_set_new(o, "by", json_string(assist_names[i]));
        put_roll(o, &r);
        json_object_del(o, "critical");
        json_object_del(o, "collateral");
        json_object_del(o, "mod");
        /* one success per helper would narrow the hidden target number (002:53): only the
         * outcome of the highest roll is the table's (002:81) */
        json_object_del(o, "success");
        json_array_append_new(rolls, o);
        int rank_new = r.natural == 1 ? 0 : 1;
        int rank_best = best_natural == 1 ? 0 : 1;
        if (best < 0 || rank_new > rank_best || (rank_new == rank_best && r.total > best_total)) {
            best = (int)json_array_size(rolls) - 1;
            best_total = r.total;
            best_natural = r.natural;
        }
    }
    json_object_set_new(result, "rolls", rolls);
    json_object_set_new(result, "used", json_integer(best));
    json_object_set_new(result, "natural", json_integer(best_natural));
    json_object_set_new(result, "total", json_integer(best_total));
    json_object_set_new(
        result, "success",
        json_boolean(best_natural != 1 && rules_meets(best_total, tn, RULES_CMP_GE)));
    json_object_set_new(result, "critical", json_false());
    json_object_set_new(result, "tn", json_integer(tn));
    return 0;
}

static int versus_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 002:531 "each PC rolls and the higher of the two (with bonuses and penalties included)
     * succeeds"; 002:541 a tie on attack/defense: "the defending PC takes half damage", other
     * ties are the GM's (success null). Naturals 20 and 1 keep their meaning (reading 8). */
    json_t *dice = json_object_get(result, "dice");
    grimwire_roll act = {0}, def = {0};
    act.attr = rules_arg_int(a, "attr");
    act.mod = rules_arg_int(a, "mod");
    act.attack = rules_arg_int(a, "attack");
    act.ff = 1;
    def.attr = rules_arg_int(a, "def");
    def.mod = rules_arg_int(a, "def_mod");
    grimwire_roll_d20(&act, rng, dice);
    grimwire_roll_d20(&def, rng, dice);
    json_object_set_new(json_array_get(dice, 0), "by", json_string("actor"));
    json_object_set_new(json_array_get(dice, 1), "by", json_string("defender"));
    put_roll(result, &act);
    json_t *d = json_object();
    put_roll(d, &def);
    json_object_del(d, "critical");
    json_object_del(d, "collateral");
    json_object_del(d, "success");
    json_object_set_new(result, "defender", d);

    int tie = 0, half = 0;
    json_t *success;
    if (act.natural == 1) {
        success = json_false(); /* 002:63 (and a collateral hit on attacks, 002:553) */
    } else if (act.critical) {
        success = json_true(); /* 002:59 */
    } else if (def.natural == 1) {
        success = json_true(); /* the defender's roll always fails (002:63) */
    } else if (act.total == def.total) {
        tie = 1;
        half = act.attack;
        success = act.attack ? json_true() : json_null();
    } else {
        success = json_boolean(rules_opposed(act.total, def.total, RULES_TIE_DEFENDER));
    }
    json_object_set_new(result, "success", success);
    json_object_set_new(result, "tie", json_boolean(tie));
    json_object_set_new(result, "half_damage", json_boolean(half));
    json_object_set_new(result, "attack", json_boolean(act.attack));
    return 0;
}

static void format_check(const json_t *result, rules_str *out)
{
    long long nat = json_integer_value(json_object_get(result, "natural"));
    long long attr = json_integer_value(json_object_get(result, "attr"));
    long long mod = json_integer_value(json_object_get(result, "mod"));
    rules_str_printf(out, "d20 %lld %+lld", nat, attr);
    if (mod)
        rules_str_printf(out, " %+lld", mod);
    rules_str_printf(out, " = %lld vs TN %lld: %s",
                     (long long)json_integer_value(json_object_get(result, "total")),
                     (long long)json_integer_value(json_object_get(result, "tn")),
                     json_is_true(json_object_get(result, "success")) ? "success" : "failure");
    if (json_is_true(json_object_get(result, "critical")))
        rules_str_printf(out, " (natural 20: double damage)");
    else if (json_is_true(json_object_get(result, "collateral")))
        rules_str_printf(out, " (natural %lld: may hit an unintended target)", nat);
    else if (nat == 1)
        rules_str_printf(out, " (natural 1)");
}

static void format_assist(const json_t *result, rules_str *out)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(result, "rolls"), i, r)
    {
        rules_str_printf(out, "%s%s d20 %lld %+lld = %lld", i ? ", " : "",
                         json_string_value(json_object_get(r, "by")),
                         (long long)json_integer_value(json_object_get(r, "natural")),
                         (long long)json_integer_value(json_object_get(r, "attr")),
                         (long long)json_integer_value(json_object_get(r, "total")));
    }
    rules_str_printf(out, "; highest %lld vs TN %lld: %s",
                     (long long)json_integer_value(json_object_get(result, "total")),
                     (long long)json_integer_value(json_object_get(result, "tn")),
                     json_is_true(json_object_get(result, "success")) ? "success" : "failure");
}

static void format_versus(const json_t *result, rules_str *out)
{
    const json_t *d = json_object_get(result, "defender");
    json_t *s = json_object_get(result, "success");
    rules_str_printf(out, "d20 %lld %+lld = %lld vs defender d20 %lld %+lld = %lld: %s",
                     (long long)json_integer_value(json_object_get(result, "natural")),
                     (long long)(json_integer_value(json_object_get(result, "attr")) +
                                 json_integer_value(json_object_get(result, "mod"))),
                     (long long)json_integer_value(json_object_get(result, "total")),
                     (long long)json_integer_value(json_object_get(d, "natural")),
                     (long long)(json_integer_value(json_object_get(d, "attr")) +
                                 json_integer_value(json_object_get(d, "mod"))),
                     (long long)json_integer_value(json_object_get(d, "total")),
                     json_is_null(s) ? "tie (GM decides)"
                                     : (json_is_true(s) ? "success" : "failure"));
    if (json_is_true(json_object_get(result, "half_damage")))
        rules_str_printf(out, " (tie: half damage)");
    if (json_is_true(json_object_get(result, "critical")))
        rules_str_printf(out, " (natural 20: double damage)");
}

#define ATTR_PARAM(n, flags, l)                                                                    \
    {                                                                                              \
        n, RULES_PARAM_INT, GRIMWIRE_ATTR_MIN, GRIMWIRE_ATTR_MAX, 0, flags, l                      \
    }
/* 002:19 a d20 plus at most +10 (002:91) and situational modifiers: 1..60 covers the falling
 * table's 28 (002:505) and the "INT 25" example (002:61). */
#define TN_PARAM                                                                                   \
    {                                                                                              \
        "tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_REQUIRED | RULES_PARAM_SECRET,                \
            "target number (hidden from players by default, 002:53)"                               \
    }
#define MOD_PARAM(n, l)                                                                            \
    {                                                                                              \
        n, RULES_PARAM_INT, -30, 30, 0, 0, l                                                       \
    }

static const rules_param check_params[] = {
    ATTR_PARAM("attr", RULES_PARAM_REQUIRED, "attribute, -10 to +10"),
    TN_PARAM,
    {"attack", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: an attack (natural 20 hits, double damage)"},
    MOD_PARAM("mod", "situational bonus or penalty (burnout, terrain, drink...)"),
    {"ff", RULES_PARAM_INT, 1, 20, 1, 0,
     "attacks: naturals up to this hit an unintended target (default 1)"},
    {0},
};

static const rules_param assist_params[] = {
    ATTR_PARAM("attr", RULES_PARAM_REQUIRED, "the acting character's attribute + modifiers"),
    TN_PARAM,
    ATTR_PARAM("attr2", RULES_PARAM_REQUIRED, "assistant 1 attribute + modifiers"),
    ATTR_PARAM("attr3", 0, "assistant 2"),
    ATTR_PARAM("attr4", 0, "assistant 3"),
    ATTR_PARAM("attr5", 0, "assistant 4"),
    ATTR_PARAM("attr6", 0, "assistant 5"),
    {0},
};

static const rules_param versus_params[] = {
    ATTR_PARAM("attr", RULES_PARAM_REQUIRED, "actor's attribute"),
    ATTR_PARAM("def", RULES_PARAM_REQUIRED, "defender's attribute"),
    {"attack", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: attack vs defense (ties: half damage)"},
    MOD_PARAM("mod", "actor's situational modifier"),
    MOD_PARAM("def_mod", "defender's situational modifier"),
    {0},
};

static const rules_check grimwire_checks[] = {
    {"check", "d20 + attribute vs target number; natural 20 attack hits (002:19-63)", check_params,
     check_roll, format_check},
    {"assist", "everyone rolls, the highest result is used (002:81)", assist_params, assist_roll,
     format_assist},
    {"versus", "player vs player: each rolls, the higher succeeds (002:531-541)", versus_params,
     versus_roll, format_versus},
    {0},
};

/* ---- sheet ---- */

#define ATTR_FIELD(n, l, c)                                                                        \
    {                                                                                              \
        n, RULES_FIELD_INT, GRIMWIRE_ATTR_MIN, GRIMWIRE_ATTR_MAX, 1, 0, l, "Attributes", NULL,     \
            NULL, c                                                                                \
    }
static const rules_field attribute_fields[] = {
    ATTR_FIELD("tog", "Toughness (TOG)", "002:97"),
    ATTR_FIELD("agl", "Agility (AGL)", "002:114"),
    ATTR_FIELD("cor", "Coordination (COR)", "002:124"),
    ATTR_FIELD("mnd", "Mind (MND)", "002:137"),
    ATTR_FIELD("per", "Perception (PER)", "002:153"),
    ATTR_FIELD("rsn", "Resonance (RSN)", "002:166"),
    {0},
};

static const rules_field condition_fields[] = {
    {"current", RULES_FIELD_INT, -100, 999, 1, 10, "Condition", "Condition", NULL, NULL, "002:184"},
    {"max", RULES_FIELD_INT, 1, 999, 1, 10, "Max Condition", "Condition", NULL, NULL, "002:184"},
    {"temporary", RULES_FIELD_INT, 0, 99, 0, 0, "Temporary Condition (inebriated, frenzy)",
     "Condition", NULL, NULL, "002:788,811"},
    {0},
};

static const rules_field focus_fields[] = {
    /* 002:198 Focus may go negative */
    {"current", RULES_FIELD_INT, -999, 999, 1, 5, "Focus", "Focus", NULL, NULL, "002:190-198"},
    {"max", RULES_FIELD_INT, 0, 999, 1, 5, "Max Focus", "Focus", NULL, NULL, "002:190"},
    {0},
};

static const char *const weapon_kinds[] = {"light", "heavy", "ranged", "supernatural", NULL};

static const rules_field weapon_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Weapons", NULL, NULL, NULL},
    {"kind", RULES_FIELD_ENUM, 0, 0, 1, 0, "Kind", "Weapons", weapon_kinds, NULL, "002:565-629"},
    {"damage", RULES_FIELD_STRING, 1, 40, 1, 0, "Damage dice (e.g. 1d6)", "Weapons", NULL, NULL,
     "002:543"},
    {"tog_req", RULES_FIELD_INT, 0, 10, 0, 0, "TOG requirement", "Weapons", NULL, NULL, "002:587"},
    {"shielding", RULES_FIELD_INT, 0, 10, 0, 0, "Shielding bonus to AGL", "Weapons", NULL, NULL,
     "002:765"},
    {0},
};

static const char *const attr_keys[] = {"tog", "agl", "cor", "mnd", "per", "rsn", NULL};

/* A technique being learned: the points put in so far toward its effort (002:306-316). */
static const rules_field learning_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Technique", "Techniques", NULL, NULL, "002:308"},
    {"attribute", RULES_FIELD_ENUM, 0, 0, 1, 0, "Multiplier attribute", "Techniques", attr_keys,
     NULL, "002:308"},
    {"effort", RULES_FIELD_INT, 1, 10000, 1, 0, "Learning effort", "Techniques", NULL, NULL,
     "002:308"},
    {"points", RULES_FIELD_INT, 0, 10000, 1, 0, "Effort put in so far", "Techniques", NULL, NULL,
     "002:314-316"},
    {0},
};

/* An object the character built (002:364-381): unstable ones roll their instability die. */
static const rules_field item_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Object", "Gear", NULL, NULL, "002:338"},
    {"unstable_die", RULES_FIELD_INT, 0, 20, 0, 0, "Instability die (0: well made)", "Gear", NULL,
     NULL, "002:366-379"},
    {"consumable", RULES_FIELD_BOOL, 0, 0, 0, 0, "Consumable", "Gear", NULL, NULL, "002:373"},
    {"broken", RULES_FIELD_BOOL, 0, 0, 0, 0, "Broken (can be repaired)", "Gear", NULL, NULL,
     "002:370"},
    {"kind", RULES_FIELD_STRING, 1, 100, 0, 0, "Type of object (its name if absent)", "Gear", NULL,
     NULL, "002:344"},
    {"supernatural", RULES_FIELD_BOOL, 0, 0, 0, 0, "Supernatural (a RSN roll to build or repair)",
     "Gear", NULL, NULL, "002:340"},
    {0},
};

static const char *const status_names[] = {
    "inebriated",  "knocked_down",    "agony",    "frenzy",   "amok",
    "stun",        "paralysis",       "sensory",  "burning",  "bleeding",
    "brainwashed", "mind_controlled", "terror",   "hex",      "unconscious",
    "sleep",       "knocked_out",     "out_cold", "grappled", NULL};

static const rules_field grimwire_sheet[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Character", NULL, NULL, NULL},
    {"level", RULES_FIELD_INT, 1, GRIMWIRE_LEVEL_MAX, 1, 1, "Level", "Character", NULL, NULL,
     "002:268"},
    {"xp", RULES_FIELD_INT, 0, 1000000, 1, 0, "XP", "Character", NULL, NULL, "002:264-298"},
    {"attributes", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Attributes", "Attributes", NULL,
     attribute_fields, "002:85-176"},
    {"condition", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Condition", "Condition", NULL, condition_fields,
     "002:182-188"},
    {"focus", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Focus", "Focus", NULL, focus_fields, "002:190-200"},
    {"burnout", RULES_FIELD_INT, 0, GRIMWIRE_BURNOUT_MAX, 0, 0, "Burnout level", "Condition", NULL,
     NULL, "002:220-252"},
    {"armor", RULES_FIELD_INT, 0, 50, 0, 0, "Armor", "Gear", NULL, NULL, "002:747-751"},
    {"armor_tog", RULES_FIELD_INT, 0, 10, 0, 0, "Armor's TOG requirement", "Gear", NULL, NULL,
     "002:753"},
    {"techniques", RULES_FIELD_STRINGS, 0, 500, 0, 0, "Special techniques", "Techniques", NULL,
     NULL, "002:300-302"},
    {"learning_hours", RULES_FIELD_INT, 0, 10000, 0, 0, "Specialty learning hours left",
     "Techniques", NULL, NULL, "002:306"},
    {"learned", RULES_FIELD_STRINGS, 0, 500, 0, 0, "Techniques learned (not all active)",
     "Techniques", NULL, NULL, "002:304"},
    {"learning", RULES_FIELD_LIST, 0, 50, 0, 0, "Techniques being learned", "Techniques", NULL,
     learning_fields, "002:306-316"},
    {"items", RULES_FIELD_LIST, 0, 100, 0, 0, "Objects built", "Gear", NULL, item_fields,
     "002:336-385"},
    {"blueprints", RULES_FIELD_STRINGS, 0, 200, 0, 0,
     "Kinds of object the character knows how "
     "to build",
     "Gear", NULL, NULL, "002:344"},
    {"weapons", RULES_FIELD_LIST, 0, 20, 0, 0, "Weapons", "Weapons", NULL, weapon_fields,
     "002:543-629"},
    {"status", RULES_FIELD_STRINGS, 0, 19, 0, 0, "Status effects", "Condition", NULL, NULL,
     "002:779-876"},
    {"notes", RULES_FIELD_STRING, 0, 4000, 0, 0, "Notes", "Character", NULL, NULL, NULL},
    {0},
};

static int geti(const json_t *o, const char *a, const char *b)
{
    const json_t *v = json_object_get(o, a);
    if (b)
        v = json_object_get(v, b);
    return (int)json_integer_value(v);
}

static int has_status(const json_t *sheet, const char *name)
{
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(sheet, "status"), i,
                       s) if (strcmp(json_string_value(s), name) == 0) return 1;
    return 0;
}

static int grimwire_validate(const json_t *sheet, tb_err *err)
{
    int level = geti(sheet, "level", NULL), xp = geti(sheet, "xp", NULL);
    /* 002:264 "Whenever a PC gets enough XP, their level increases": a level needs its XP. */
    if (xp < grimwire_level_xp(level))
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'xp' (%d) is below the %d XP that level %d needs (002:268-298)", xp,
                       grimwire_level_xp(level), level);
    int burnout = geti(sheet, "burnout", NULL);
    int cmax = geti(sheet, "condition", "max"), cur = geti(sheet, "condition", "current");
    /* 002:250 "Level 4: Character drops to 0 Condition and begins dying" */
    if (burnout == 4 && cur > 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'condition.current' must be 0 or below at burnout level 4 "
                       "(002:250)");
    int cap = grimwire_condition_cap(cmax, burnout) + geti(sheet, "condition", "temporary");
    if (cur > cap)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'condition.current' (%d) is above the max Condition %d "
                       "(burnout %d caps it, 002:246-248)",
                       cur, cap, burnout);
    if (geti(sheet, "focus", "current") > geti(sheet, "focus", "max"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'focus.current' (%d) is above 'focus.max' (%d) (002:200)",
                       geti(sheet, "focus", "current"), geti(sheet, "focus", "max"));
    size_t ntech = json_array_size(json_object_get(sheet, "techniques"));
    int slots = grimwire_technique_slots(geti(sheet, "focus", "max"));
    if (ntech > (size_t)slots)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'techniques' has %zu entries; half the max Focus allows %d "
                       "(002:302)",
                       ntech, slots);
    size_t i, k;
    json_t *s, *w;
    json_array_foreach(json_object_get(sheet, "status"), i, s)
    {
        const char *name = json_string_value(s);
        int known = 0;
        for (const char *const *n = status_names; *n; n++)
            known |= strcmp(*n, name) == 0;
        if (!known)
            return tb_fail(err, TB_BAD_REQUEST,
                           "field 'status[%zu]': unknown status effect '%.40s' (002:779-876)", i,
                           name);
        for (k = 0; k < i; k++)
            if (strcmp(json_string_value(json_array_get(json_object_get(sheet, "status"), k)),
                       name) == 0)
                return tb_fail(err, TB_BAD_REQUEST, "field 'status[%zu]': '%s' is listed twice", i,
                               name);
    }
    json_array_foreach(json_object_get(sheet, "weapons"), i, w)
    {
        rules_dice_expr *e = NULL;
        tb_err perr;
        if (rules_dice_parse(json_string_value(json_object_get(w, "damage")), &e, &perr))
            return tb_fail(err, TB_BAD_REQUEST, "field 'weapons[%zu].damage': %s", i, perr.msg);
        rules_dice_free(e);
    }
    return 0;
}

int grimwire_status_mod(const char *attr, grimwire_roll_use use,
                        int (*has)(const void *ctx, const char *status), const void *ctx)
{
    int m = 0, agl = strcmp(attr, "agl") == 0;
    if (has(ctx, "inebriated")) {
        /* 002:787 "+1 to TOG"; 002:789 "-3 Penalty to all other attributes"; 002:790 "+3 and no
         * penalty to MND rolls to resist pain and terror" */
        if (strcmp(attr, "tog") == 0)
            m += 1;
        else if (use == GRIMWIRE_USE_PAIN_TERROR && strcmp(attr, "mnd") == 0)
            m += 3;
        else
            m -= 3;
    }
    if (has(ctx, "knocked_down") && agl)
        m -= 3; /* 002:798 */
    if (has(ctx, "grappled") && agl)
        m -= 5; /* 002:681 */
    if (has(ctx, "stun") && (agl || strcmp(attr, "mnd") == 0))
        m -= 3; /* 002:824 */
    /* 002:832 "A -5 penalty to PER and anything requiring senses including attack and evasion" */
    if (has(ctx, "sensory") &&
        (strcmp(attr, "per") == 0 || use == GRIMWIRE_USE_ATTACK || use == GRIMWIRE_USE_EVASION))
        m -= 5;
    return m;
}

static int sheet_has(const void *sheet, const char *status)
{
    return has_status((const json_t *)sheet, status);
}

static json_t *grimwire_derive(const json_t *sheet)
{
    static const char *const attrs[] = {"tog", "agl", "cor", "mnd", "per", "rsn"};
    json_t *d = json_object();
    int burnout = geti(sheet, "burnout", NULL);
    int tog = geti(sheet, "attributes", "tog"), cor = geti(sheet, "attributes", "cor");
    int cur = geti(sheet, "condition", "current");
    int level = geti(sheet, "level", NULL), xp = geti(sheet, "xp", NULL);

    /* Modifier per attribute roll: burnout (002:244-248) plus status effects (one table,
     * grimwire_status_mod); and the rolls whose modifier differs by what they are for: MND
     * against pain and terror (002:790), attacks by COR and evasion by AGL (002:832). */
    json_t *mods = json_object();
    int bp = grimwire_burnout_penalty(burnout);
    int heavy = grimwire_armor_agl(tog, geti(sheet, "armor_tog", NULL)); /* 002:753 */
    for (size_t i = 0; i < 6; i++)
        json_object_set_new(
            mods, attrs[i],
            json_integer(bp + (i == 1 ? heavy : 0) +
                         grimwire_status_mod(attrs[i], GRIMWIRE_USE_PLAIN, sheet_has, sheet)));
    json_object_set_new(
        mods, "mnd_pain_terror",
        json_integer(bp + grimwire_status_mod("mnd", GRIMWIRE_USE_PAIN_TERROR, sheet_has, sheet)));
    json_object_set_new(
        mods, "attack",
        json_integer(bp + grimwire_status_mod("cor", GRIMWIRE_USE_ATTACK, sheet_has, sheet)));
    json_object_set_new(
        mods, "evasion",
        json_integer(bp + heavy +
                     grimwire_status_mod("agl", GRIMWIRE_USE_EVASION, sheet_has, sheet)));
    json_object_set_new(d, "roll_mod", mods);
    json_t *fails = json_array(); /* rolls that fail automatically */
    if (has_status(sheet, "stun"))
        json_array_append_new(fails, json_string("per")); /* 002:824 */
    if (has_status(sheet, "paralysis")) {                 /* 002:828 */
        json_array_append_new(fails, json_string("tog"));
        json_array_append_new(fails, json_string("cor"));
        json_array_append_new(fails, json_string("agl"));
    }
    json_object_set_new(d, "auto_fail", fails);

    json_object_set_new(d, "burnout_penalty", json_integer(grimwire_burnout_penalty(burnout)));
    json_object_set_new(
        d, "condition_max",
        json_integer(grimwire_condition_cap(geti(sheet, "condition", "max"), burnout)));
    /* 002:186, 002:250, 002:256 */
    json_object_set_new(d, "dying", json_boolean(cur <= 0 || burnout >= 4));
    json_object_set_new(d, "dead", json_boolean(cur < GRIMWIRE_DEAD_BELOW));
    /* 002:198 negative Focus, 002:248 burnout 3: no specialty techniques */
    json_object_set_new(d, "specialty_techniques",
                        json_boolean(geti(sheet, "focus", "current") >= 0 && burnout < 3));
    json_object_set_new(d, "technique_slots",
                        json_integer(grimwire_technique_slots(geti(sheet, "focus", "max"))));
    json_object_set_new(d, "light_attacks",
                        json_integer(grimwire_light_attacks(cor) +
                                     (has_status(sheet, "frenzy") || has_status(sheet, "amok"))));
    json_object_set_new(d, "collateral_tn", json_integer(grimwire_collateral_tn(cor)));
    /* 002:122 AGL metres of movement; 002:246 halved; 002:248 crawl only; 002:799 crawl 3 m */
    json_object_set_new(d, "movement_bonus_m", json_integer(geti(sheet, "attributes", "agl")));
    json_object_set_new(d, "movement_halved", json_boolean(burnout == 2));
    json_object_set_new(d, "crawl_only",
                        json_boolean(burnout >= 3 || has_status(sheet, "knocked_down")));
    /* 002:629 "18m plus (or minus if the attribute is negative) 2m for every point ... RSN" */
    json_object_set_new(d, "magic_range_m",
                        json_integer(18 + 2 * geti(sheet, "attributes", "rsn")));
    /* 002:735 "2 mins plus one additional minute for each point they have in TOG" */
    int breath = 2 + tog;
    json_object_set_new(d, "breath_minutes", json_integer(breath < 0 ? 0 : breath));
    json_object_set_new(d, "initiative_attr", json_string("per")); /* 002:159, 002:401 */
    int next = level < GRIMWIRE_LEVEL_MAX ? grimwire_level_xp(level + 1) : -1;
    json_object_set_new(d, "next_level_xp", next < 0 ? json_null() : json_integer(next));
    json_object_set_new(d, "level_up_due", json_boolean(next >= 0 && xp >= next));

    json_t *weapons = json_array();
    size_t i;
    json_t *w;
    int frenzy = has_status(sheet, "frenzy") || has_status(sheet, "amok");
    json_array_foreach(json_object_get(sheet, "weapons"), i, w)
    {
        const char *kind = json_string_value(json_object_get(w, "kind"));
        int req = geti(w, "tog_req", NULL);
        json_t *o = json_object();
        json_object_set_new(o, "name", json_copy(json_object_get(w, "name")));
        /* 002:567 light weapons by COR; 002:585 not heavy weapons; 002:812 frenzy +1 */
        int attacks = strcmp(kind, "light") == 0 ? grimwire_light_attacks(cor) : 1;
        json_object_set_new(o, "attacks", json_integer(attacks + frenzy));
        /* 002:108, 002:563 TOG adds to melee (and thrown) damage */
        int melee = strcmp(kind, "light") == 0 || strcmp(kind, "heavy") == 0;
        json_object_set_new(o, "damage_bonus", json_integer(melee ? tog : 0));
        /* 002:589 below the requirement: a TOG roll before each attack */
        json_object_set_new(o, "tog_roll_needed", json_boolean(req > tog));
        json_object_set_new(o, "ff", json_integer(grimwire_ff_range(tog, req, frenzy)));
        json_array_append_new(weapons, o);
    }
    json_object_set_new(d, "weapons", weapons);
    return d;
}

/* The encounter modules: their one registration. */
extern const rules_module rules_module_grimwire_conflict, rules_module_grimwire_between;
static const rules_module *const grimwire_modules[] = {&rules_module_grimwire_conflict,
                                                       &rules_module_grimwire_between, NULL};

/* 002:415 "Each round lasts 6 seconds of in-game time." */
static const rules_clock_stage grimwire_clock[] = {{"round", "Round", 6, "002:415"}, {0}};

const rules_system rules_system_grimwire = {
    .id = "grimwire",
    .name = "GRIMWIRE",
    .rulebook = "002_c1f3df0ad7b1e31f.txt",
    .sheet = grimwire_sheet,
    .validate = grimwire_validate,
    .derive = grimwire_derive,
    .checks = grimwire_checks,
    .modules = grimwire_modules,
    .summary = "A d20 and an attribute against a target number the GM keeps; condition, focus and "
               "burnout",
    .clock = grimwire_clock,
    .phrases = gw_system_phrases,
};
