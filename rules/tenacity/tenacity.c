/*
 * tenacity.c — the rule system 10acity Tactics (003_632e2c704060b738.txt, cited 003:LINE): its
 * checks "check" and "opposed" (rolled with the dice of dice.c), the character sheet and its
 * derived values, and the system's table with its encounter modules. Readings of unclear
 * passages are numbered in rules/RULES.md, "## tenacity".
 */
#include "tenacity.h"

#include <string.h>

#include "clock.h"
#include "tenacity_enc.h"

/* ---- checks ---- */

static void put_hero(json_t *result, const tenacity_roll *r, const char *role)
{
    json_t *dice = json_object_get(result, "dice");
    for (int i = 0; i < r->hero.n; i++) {
        rules_result_die(dice, 10, r->hero.value[i], r->hero.kept[i]);
        json_object_set_new(json_array_get(dice, json_array_size(dice) - 1), "role",
                            json_string(role));
    }
}

static int roll_tagged(rules_rng *rng, int sides, json_t *result, const char *role)
{
    json_t *dice = json_object_get(result, "dice");
    int v = rules_roll_die(rng, sides, dice);
    json_object_set_new(json_array_get(dice, json_array_size(dice) - 1), "role", json_string(role));
    return v;
}

static int parse_crit(const rules_args *a, tenacity_crit *out, tb_err *err)
{
    const char *c = rules_arg_str(a, "crit");
    if (!c || strcmp(c, "auto") == 0)
        *out = TENACITY_CRIT_AUTO;
    else if (strcmp(c, "hero") == 0)
        *out = TENACITY_CRIT_HERO;
    else if (strcmp(c, "impact") == 0)
        *out = TENACITY_CRIT_IMPACT;
    else
        return tb_fail(err, TB_BAD_REQUEST,
                       "tenacity: parameter 'crit' must be auto, hero or impact (003:28)");
    return 0;
}

/*
 * The part shared by "check" and "opposed": the critical's choice, success, pushing, spin and
 * impact. r is the actor's roll (hero dice already in result); has_def: 0 when there is nothing
 * to compare against (success null).
 */
static int resolve(const rules_args *a, rules_rng *rng, json_t *result, tenacity_roll *r,
                   int has_def, int def, tb_err *err)
{
    tenacity_crit crit;
    int rc = parse_crit(a, &crit, err);
    if (rc)
        return rc;
    const char *took = NULL;
    if (r->critical) {
        /* 003:28 "an additional die of your choice between rolling an additional Hero die (1d10)
         * and adding it to your skill check in case your natural 10 was not high enough to
         * succeed on its own, or ... an additional impact die (1d4)". Auto: the hero die only
         * when the check would fail without it (reading 2). */
        int hero = crit == TENACITY_CRIT_HERO ||
                   (crit == TENACITY_CRIT_AUTO && has_def && !tenacity_beats(r->total, def));
        if (hero) {
            r->extra_hero = roll_tagged(rng, 10, result, "critical");
            tenacity_judge(r);
            took = "hero";
        } else {
            took = "impact";
        }
    }
    int success = has_def ? tenacity_beats(r->total, def) : -1;

    if (success == 0 && rules_arg_int(a, "push")) {
        /* 003:34-37 pushing a failure into a success */
        tenacity_push p;
        int gain_if_pushed = tenacity_spin_gain(r, 0, rules_arg_int(a, "action"));
        if (tenacity_push_plan(def - r->total + 1, rules_arg_int(a, "spin"),
                               rules_arg_int(a, "tenacity"), gain_if_pushed, &p) == 0) {
            int pts = p.spin + p.tenacity + p.negative;
            r->total += rules_result_modifier(result, "push", pts);
            success = 1;
            json_t *o = json_object();
            json_object_set_new(o, "spin", json_integer(p.spin));
            json_object_set_new(o, "tenacity", json_integer(p.tenacity));
            json_object_set_new(o, "negative", json_integer(p.negative));
            json_object_set_new(result, "push", o);
        }
    }

    json_object_set_new(result, "highest", json_integer(r->highest));
    json_object_set_new(result, "rank", json_integer(r->rank));
    json_object_set_new(result, "critical", json_boolean(r->critical));
    json_object_set_new(result, "crit", took ? json_string(took) : json_null());
    json_object_set_new(result, "doubles", json_boolean(r->doubles));
    json_object_set_new(result, "fumble", json_boolean(r->fumble));
    json_object_set_new(result, "total", json_integer(r->total));
    json_object_set_new(result, "success", success < 0 ? json_null() : json_boolean(success));
    json_object_set_new(
        result, "spin",
        json_integer(tenacity_spin_gain(r, success == 0, rules_arg_int(a, "action"))));

    /* 003:5 "if you beat the challenge rating you roll your impact dice"; 003:12 "add them all
     * together. You will then add equipment or special ability bonuses". Rolled too when there is
     * nothing to compare against (reading 5). */
    if (success != 0) {
        int n = tenacity_impact_dice(r->rank) + (took && strcmp(took, "impact") == 0);
        int impact = rules_arg_int(a, "impact_bonus");
        for (int i = 0; i < n; i++)
            impact += roll_tagged(rng, 4, result, "impact");
        json_object_set_new(result, "impact_dice", json_integer(n));
        json_object_set_new(result, "impact", json_integer(impact));
    } else {
        json_object_set_new(result, "impact_dice", json_integer(0));
        json_object_set_new(result, "impact", json_null());
    }
    return 0;
}

static int check_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    int rc = rules_args_exclusive(a, "challenge", "challenge_dice", err);
    if (rc)
        return rc;
    if (rules_arg_given(a, "challenge_bonus") && !rules_arg_given(a, "challenge_dice"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "tenacity check: parameter 'challenge_bonus' needs 'challenge_dice' "
                       "(003:14)");
    tenacity_roll r;
    rc = tenacity_hero_roll(&r, rng, rules_arg_int(a, "dice"), rules_arg_int(a, "adv"),
                            rules_arg_int(a, "rank"), rules_arg_int(a, "bonus"), err);
    if (rc)
        return rc;
    put_hero(result, &r, "hero");
    int has_def = 0, def = 0;
    if (rules_arg_given(a, "challenge")) {
        has_def = 1;
        def = rules_arg_int(a, "challenge"); /* 003:13 "assigning a number" */
    } else if (rules_arg_given(a, "challenge_dice")) {
        /* 003:13 "rolling the challenge dice"; 003:14 "+1 and a +3 to the challenge roll" */
        has_def = 1;
        json_t *vals = json_array();
        for (int i = 0; i < rules_arg_int(a, "challenge_dice"); i++) {
            int v = roll_tagged(rng, 6, result, "challenge");
            def += v;
            json_array_append_new(vals, json_integer(v));
        }
        def += rules_arg_int(a, "challenge_bonus");
        json_object_set_new(result, "challenge_rolls", vals);
    }
    json_object_set_new(result, "challenge", has_def ? json_integer(def) : json_null());
    return resolve(a, rng, result, &r, has_def, def, err);
}

static int opposed_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 003:66 "The defender will roll either their hero dice or the NPC's challenge dice";
     * 003:68 "defenders win all ties". */
    tenacity_roll r, d;
    int rc = tenacity_hero_roll(&r, rng, rules_arg_int(a, "dice"), rules_arg_int(a, "adv"),
                                rules_arg_int(a, "rank"), rules_arg_int(a, "bonus"), err);
    if (!rc)
        rc = tenacity_hero_roll(&d, rng, rules_arg_int(a, "def_dice"), rules_arg_int(a, "def_adv"),
                                rules_arg_int(a, "def_rank"), rules_arg_int(a, "def_bonus"), err);
    if (rc)
        return rc;
    put_hero(result, &r, "hero");
    put_hero(result, &d, "defence");
    /* A defender's natural 10 adds the extra hero die to the defence (003:28; reading 7). */
    if (d.critical) {
        d.extra_hero = roll_tagged(rng, 10, result, "defence_critical");
        tenacity_judge(&d);
    }
    json_t *o = json_object();
    json_object_set_new(o, "highest", json_integer(d.highest));
    json_object_set_new(o, "critical", json_boolean(d.critical));
    json_object_set_new(o, "fumble", json_boolean(d.fumble));
    json_object_set_new(o, "total", json_integer(d.total));
    json_object_set_new(result, "defence", o);
    json_object_set_new(result, "challenge", json_integer(d.total));
    return resolve(a, rng, result, &r, 1, d.total, err);
}

static void format_roll(const json_t *result, rules_str *out)
{
    size_t i;
    json_t *d;
    const char *sect = NULL;
    json_array_foreach(json_object_get(result, "dice"), i, d)
    {
        const char *role = json_string_value(json_object_get(d, "role"));
        if (!sect || strcmp(sect, role) != 0) {
            rules_str_printf(out, "%s%s%s", sect ? "; " : "", role, "");
            sect = role;
        }
        int kept = json_is_true(json_object_get(d, "kept")) || strcmp(role, "hero") != 0;
        rules_str_printf(out, kept ? " %lld" : " [%lld]",
                         (long long)json_integer_value(json_object_get(d, "value")));
    }
    rules_str_printf(out, " → %lld",
                     (long long)json_integer_value(json_object_get(result, "total")));
    json_t *ch = json_object_get(result, "challenge");
    if (json_is_integer(ch))
        rules_str_printf(out, " vs %lld: %s", (long long)json_integer_value(ch),
                         json_is_true(json_object_get(result, "success")) ? "success" : "failure");
    if (json_is_true(json_object_get(result, "critical")))
        rules_str_printf(out, ", critical (%s die)",
                         json_string_value(json_object_get(result, "crit")));
    if (json_is_true(json_object_get(result, "fumble")))
        rules_str_printf(out, ", fumble");
    else if (json_is_true(json_object_get(result, "doubles")))
        rules_str_printf(out, ", doubles");
    json_t *push = json_object_get(result, "push");
    if (push)
        rules_str_printf(out, ", pushed (spin %lld, 10acity %lld, negative spin %lld)",
                         (long long)json_integer_value(json_object_get(push, "spin")),
                         (long long)json_integer_value(json_object_get(push, "tenacity")),
                         (long long)json_integer_value(json_object_get(push, "negative")));
    long long spin = json_integer_value(json_object_get(result, "spin"));
    if (spin)
        rules_str_printf(out, ", spin %+lld", spin);
    json_t *imp = json_object_get(result, "impact");
    if (json_is_integer(imp))
        rules_str_printf(out, ", impact %lld", (long long)json_integer_value(imp));
}

/* 003:22-27 ranks 0..10 and attribute ranks up to 3 are the scale; dice up to 10 leave room
 * for gear and talents (reading 1). */
#define DICE_PARAM(n, l)                                                                           \
    {                                                                                              \
        n, RULES_PARAM_INT, 1, 10, 0, RULES_PARAM_REQUIRED, l                                      \
    }
#define RANK_PARAM(n, l)                                                                           \
    {                                                                                              \
        n, RULES_PARAM_INT, 0, TENACITY_RANK_MAX, 0, RULES_PARAM_REQUIRED, l                       \
    }
#define ADV_PARAM(n, l)                                                                            \
    {                                                                                              \
        n, RULES_PARAM_INT, 0, 5, 0, 0, l                                                          \
    }
#define BONUS_PARAM(n, l)                                                                          \
    {                                                                                              \
        n, RULES_PARAM_INT, -20, 20, 0, 0, l                                                       \
    }
#define COMMON_PARAMS                                                                              \
    {                                                                                              \
        "impact_bonus",                                                                            \
        RULES_PARAM_INT,                                                                           \
        -20,                                                                                       \
        20,                                                                                        \
        0,                                                                                         \
        0,                                                                                         \
        "equipment/ability bonus to impact (003:12)"},                                             \
        {"crit", RULES_PARAM_STRING, 1, 6, 0, 0, "natural 10: auto, hero or impact (003:28)"},     \
        {"action", RULES_PARAM_BOOL, 0, 1, 1, 0, "1: the character's action (spin, 003:95)"},      \
        {"push", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: push a failure (003:34-37)"},                   \
        {"tenacity", RULES_PARAM_INT, 0, 99, 0, 0, "10acity points available to push"},            \
    {                                                                                              \
        "spin", RULES_PARAM_INT, -TENACITY_NEGATIVE_SPIN_MAX, 99, 0, 0,                            \
            "current spin (negative: negative spin)"                                               \
    }

static const rules_param check_params[] = {
    DICE_PARAM("dice", "attribute hero dice (d10)"),
    RANK_PARAM("rank", "skill rank"),
    {"challenge", RULES_PARAM_INT, 0, 99, 0, 0, "fixed challenge rating"},
    {"challenge_dice", RULES_PARAM_INT, 1, 20, 0, 0, "challenge d6s, summed"},
    {"challenge_bonus", RULES_PARAM_INT, 1, 3, 0, 0, "+1..+3 to the challenge roll (003:14)"},
    ADV_PARAM("adv", "advantage hero dice"),
    BONUS_PARAM("bonus", "bonus to the result"),
    COMMON_PARAMS,
    {0},
};

static const rules_param opposed_params[] = {
    DICE_PARAM("dice", "actor's hero dice"),
    RANK_PARAM("rank", "actor's skill rank"),
    ADV_PARAM("adv", "actor's advantage dice"),
    BONUS_PARAM("bonus", "actor's bonus"),
    DICE_PARAM("def_dice", "defender's hero dice"),
    RANK_PARAM("def_rank", "defender's skill rank"),
    ADV_PARAM("def_adv", "defender's advantage dice"),
    BONUS_PARAM("def_bonus", "defender's bonus"),
    COMMON_PARAMS,
    {0},
};

static const rules_check tenacity_checks[] = {
    {"check", "hero dice: highest d10 + rank vs challenge (ties to the defender) (003:8-30)",
     check_params, check_roll, format_roll},
    {"opposed", "hero dice vs the defender's hero dice, ties to the defender (003:66-68)",
     opposed_params, opposed_roll, format_roll},
    {0},
};

/* ---- sheet ---- */

static const rules_field skill_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 60, 1, 0, "Skill", "Skills", NULL, NULL, "003:15"},
    {"rank", RULES_FIELD_INT, 0, TENACITY_RANK_MAX, 1, 0, "Rank", "Skills", NULL, NULL,
     "003:22-27"},
    {0},
};

static const rules_field attribute_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 60, 1, 0, "Attribute", "Attributes", NULL, NULL, "003:15"},
    {"dice", RULES_FIELD_INT, 1, 10, 1, 1, "Hero dice", "Attributes", NULL, NULL, "003:11"},
    {"skills", RULES_FIELD_LIST, 4, 4, 1, 0, "Its four skills", "Skills", NULL, skill_fields,
     "003:15"},
    {0},
};

static const rules_field track_fields[] = {
    {"current", RULES_FIELD_INT, 0, 999, 1, 0, "Current", "Health", NULL, NULL, "003:66"},
    {"max", RULES_FIELD_INT, 0, 999, 1, 0, "Maximum", "Health", NULL, NULL, "003:66"},
    {0},
};

static const char *const condition_kinds[] = {"hinder", "stop", "damage", NULL};

static const rules_field condition_fields[] = {
    {"kind", RULES_FIELD_ENUM, 0, 0, 1, 0, "Kind", "Conditions", condition_kinds, NULL,
     "003:99-103"},
    {"what", RULES_FIELD_STRING, 1, 100, 1, 0, "What it affects (legs, hearing...)", "Conditions",
     NULL, NULL, "003:100"},
    {"value", RULES_FIELD_INT, 0, 99, 0, 0, "Hinder penalty or damage per turn", "Conditions", NULL,
     NULL, "003:99"},
    {"challenge", RULES_FIELD_INT, 0, 99, 0, 0, "Challenge rating to shake it off", "Conditions",
     NULL, NULL, "003:97"},
    {0},
};

static const rules_field equipment_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Equipment", NULL, NULL, NULL},
    {"skill", RULES_FIELD_STRING, 1, 60, 0, 0, "Skill it is used with", "Equipment", NULL, NULL,
     "003:41"},
    {"impact_bonus", RULES_FIELD_INT, 0, 20, 0, 0, "Impact bonus (weapon damage...)", "Equipment",
     NULL, NULL, "003:12,41"},
    {0},
};

static const rules_field tenacity_sheet[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Character", NULL, NULL, NULL},
    {"attributes", RULES_FIELD_LIST, 6, 6, 1, 0, "Six attributes", "Attributes", NULL,
     attribute_fields, "003:15"},
    {"stress", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Stress", "Health", NULL, track_fields,
     "003:66,106"},
    {"wounds", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Wounds", "Health", NULL, track_fields,
     "003:66,74,106"},
    {"tenacity", RULES_FIELD_INT, 0, 99, 1, 1, "10acity points", "Resources", NULL, NULL, "003:93"},
    {"spin", RULES_FIELD_INT, -TENACITY_NEGATIVE_SPIN_MAX, 99, 0, 0,
     "Spin (negative: negative spin)", "Resources", NULL, NULL, "003:37,94"},
    {"recovery", RULES_FIELD_INT, 0, 999, 0, 0, "Wound recovery accrued", "Health", NULL, NULL,
     "003:74"},
    {"unconscious", RULES_FIELD_BOOL, 0, 0, 0, 0, "Unconscious", "Health", NULL, NULL, "003:106"},
    {"conditions", RULES_FIELD_LIST, 0, 20, 0, 0, "Conditions", "Conditions", NULL,
     condition_fields, "003:96-105"},
    {"equipment", RULES_FIELD_LIST, 0, 50, 0, 0, "Equipment", "Equipment", NULL, equipment_fields,
     "003:12"},
    {"talents", RULES_FIELD_STRINGS, 0, 50, 0, 0, "Talents and special abilities", "Resources",
     NULL, NULL, "003:31,35"},
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

static const char *str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* The attribute holding skill `name`, or NULL. */
static const json_t *skill_attribute(const json_t *sheet, const char *name, const json_t **skill)
{
    size_t i, k;
    json_t *a, *s;
    json_array_foreach(json_object_get(sheet, "attributes"), i, a)
    {
        json_array_foreach(json_object_get(a, "skills"), k,
                           s) if (strcmp(str(s, "name"), name) == 0)
        {
            if (skill)
                *skill = s;
            return a;
        }
    }
    return NULL;
}

static int tenacity_validate(const json_t *sheet, tb_err *err)
{
    size_t i, k, j;
    json_t *a, *s, *b;
    json_t *attrs = json_object_get(sheet, "attributes");
    /* 003:15 "You have 6 attributes ... and each attribute has 4 skills": names are unique. */
    json_array_foreach(attrs, i, a)
    {
        for (j = 0; j < i; j++)
            if (strcmp(str(json_array_get(attrs, j), "name"), str(a, "name")) == 0)
                return tb_fail(err, TB_BAD_REQUEST,
                               "field 'attributes[%zu].name': '%s' is used twice (003:15)", i,
                               str(a, "name"));
        json_array_foreach(json_object_get(a, "skills"), k, s)
        {
            const json_t *sk = NULL;
            const json_t *owner = skill_attribute(sheet, str(s, "name"), &sk);
            if (owner != a || sk != s)
                return tb_fail(err, TB_BAD_REQUEST,
                               "field 'attributes[%zu].skills[%zu].name': skill '%s' is listed "
                               "twice (003:15)",
                               i, k, str(s, "name"));
        }
    }
    /* 003:66 stress over the maximum becomes a wound or unconsciousness and "resets back to 0" */
    if (geti(sheet, "stress", "current") > geti(sheet, "stress", "max"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'stress.current' (%d) is over 'stress.max' (%d): take a wound or "
                       "fall unconscious (003:66)",
                       geti(sheet, "stress", "current"), geti(sheet, "stress", "max"));
    if (geti(sheet, "stress", "max") < 1)
        return tb_fail(err, TB_BAD_REQUEST, "field 'stress.max' must be at least 1 (003:66)");
    if (geti(sheet, "wounds", "current") > geti(sheet, "wounds", "max"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'wounds.current' (%d) is over 'wounds.max' (%d) (003:106,109)",
                       geti(sheet, "wounds", "current"), geti(sheet, "wounds", "max"));
    json_array_foreach(json_object_get(sheet, "conditions"), i, b)
    {
        /* 003:99 a hinder condition's penalty is the impact rolled: at least 1 */
        if (strcmp(str(b, "kind"), "hinder") == 0 && geti(b, "value", NULL) < 1)
            return tb_fail(err, TB_BAD_REQUEST,
                           "field 'conditions[%zu].value': a hinder condition needs a penalty "
                           "of at least 1 (003:99)",
                           i);
    }
    json_array_foreach(json_object_get(sheet, "equipment"), i, b)
    {
        const char *sk = str(b, "skill");
        if (sk && !skill_attribute(sheet, sk, NULL))
            return tb_fail(err, TB_BAD_REQUEST,
                           "field 'equipment[%zu].skill': no skill named '%.60s' on the sheet", i,
                           sk);
    }
    return 0;
}

/* 003:22-27 the rating categories of a skill. */
static const char *rating(int rank, int dice)
{
    if (rank >= 10 && dice >= 3)
        return "legendary";
    if (rank >= 8 && dice >= 2)
        return "master";
    if (rank >= 6 && dice >= 2)
        return "expert";
    if (rank >= 4 && dice >= 2)
        return "professional";
    if (rank >= 2)
        return "trained";
    return "untrained";
}

static json_t *tenacity_derive(const json_t *sheet)
{
    json_t *d = json_object();
    json_t *skills = json_object();
    size_t i, k, e;
    json_t *a, *s, *q;
    json_array_foreach(json_object_get(sheet, "attributes"), i, a)
    {
        json_array_foreach(json_object_get(a, "skills"), k, s)
        {
            int rank = geti(s, "rank", NULL), dice = geti(a, "dice", NULL);
            int bonus = 0;
            json_array_foreach(json_object_get(sheet, "equipment"), e, q)
            {
                const char *sk = str(q, "skill");
                if (sk && strcmp(sk, str(s, "name")) == 0 && geti(q, "impact_bonus", NULL) > bonus)
                    bonus = geti(q, "impact_bonus", NULL); /* one item per action (003:119) */
            }
            json_t *o = json_object();
            json_object_set_new(o, "attribute", json_string(str(a, "name")));
            json_object_set_new(o, "dice", json_integer(dice));
            json_object_set_new(o, "rank", json_integer(rank));
            json_object_set_new(o, "impact_dice", json_integer(tenacity_impact_dice(rank)));
            json_object_set_new(o, "impact_bonus", json_integer(bonus));
            json_object_set_new(o, "rating", json_string(rating(rank, dice)));
            json_object_set_new(skills, str(s, "name"), o);
        }
    }
    json_object_set_new(d, "skills", skills);
    int spin = geti(sheet, "spin", NULL), wounds = geti(sheet, "wounds", "current");
    /* 003:38 no benefit from spin while negative */
    json_object_set_new(d, "spin_usable", json_integer(spin > 0 ? spin : 0));
    json_object_set_new(d, "negative_spin", json_integer(spin < 0 ? -spin : 0));
    json_object_set_new(d, "wound_recovery_needed",
                        json_integer(wounds > 0 ? tenacity_wound_recovery(wounds) : 0));
    json_object_set_new(d, "unconscious_challenge_dice",
                        json_integer(tenacity_unconscious_dice(wounds)));
    json_object_set_new(d, "wounds_left",
                        json_integer(geti(sheet, "wounds", "max") - wounds)); /* 003:106 */
    /* 003:75 a short rest recovers 1 10acity only at 0; 003:76 generate spin only at 0 */
    json_object_set_new(d, "can_recover_tenacity",
                        json_boolean(geti(sheet, "tenacity", NULL) == 0));
    json_object_set_new(d, "can_generate_spin", json_boolean(spin == 0));
    return d;
}

/* The encounter modules (tenacity_enc.h): their one registration. */
static const rules_module *const tenacity_modules[] = {&rules_module_tenacity_spotlight,
                                                       &rules_module_tenacity_social,
                                                       &rules_module_tenacity_between, NULL};

/* No round length in the book (003:91 rounds of the spotlight); reading (RULES.md): 6 seconds. */
static const rules_clock_stage tenacity_clock[] = {{"round", "Round", 6, "003:91"}, {0}};

const rules_system rules_system_tenacity = {
    .id = "tenacity",
    .name = "10acity Tactics",
    .rulebook = "003_632e2c704060b738.txt",
    .sheet = tenacity_sheet,
    .validate = tenacity_validate,
    .derive = tenacity_derive,
    .checks = tenacity_checks,
    .modules = tenacity_modules,
    .phrases = ten_phrases,
    .summary =
        "10acity Tactics: skill rolls against a challenge rating, impact dice, the spotlight "
        "passed in combat, spin",
    .clock = tenacity_clock,
};
