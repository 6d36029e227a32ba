/*
 * heimr.c — Heimr Tabletop RPG Core (001_660a93111b0de833.txt, cited 001:LINE): dice challenges,
 * situational penalties, challenge requirements, willpower re-rolls, fatigue, and the character
 * sheet with its derived values and XP/attribute tables. Readings of unclear passages and the
 * printed examples that contradict their rule are listed in rules/RULES.md, "## heimr".
 */
#include "heimr.h"
#include "heimr_enc.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "encounter.h"

/* ---- resolution ---- */

int heimr_challenge_roll(int c, int p, rules_rng *rng, heimr_roll *out, tb_err *err)
{
    int n10 = abs(c);
    if (n10 > HEIMR_MAX_C)
        return tb_fail(err, TB_BAD_REQUEST, "heimr: consistency %d is beyond -%d..%d", c,
                       HEIMR_MAX_C, HEIMR_MAX_C);
    memset(out, 0, sizeof *out);
    out->c = c;
    out->p = p;
    /* 001:73 "You roll one d6, and any number of d10 equal to the consistency ... (with -3, you
     * roll three d10)". The d6 is rolled first (RULES.md, heimr, reading 1). */
    out->d6 = rules_rng_die(rng, 6);
    out->n10 = n10;
    for (int i = 0; i < n10; i++)
        out->d10[i] = rules_rng_die(rng, 10);
    heimr_roll_eval(out);
    return 0;
}

int heimr_roll_recast(heimr_roll *r, int c, rules_rng *rng, tb_err *err)
{
    int n10 = abs(c);
    if (n10 > HEIMR_MAX_C)
        return tb_fail(err, TB_BAD_REQUEST, "heimr: consistency %d is beyond -%d..%d", c,
                       HEIMR_MAX_C, HEIMR_MAX_C);
    /* the dice already rolled stay; only missing d10s are rolled */
    for (int i = r->n10; i < n10; i++)
        r->d10[i] = rules_rng_die(rng, 10);
    r->n10 = n10;
    r->c = c;
    heimr_roll_eval(r);
    return 0;
}

void heimr_roll_eval(heimr_roll *out)
{
    int c = out->c, n10 = out->n10;
    out->bonus = out->penalty = 0;
    out->die = out->d6;
    if (c > 0) {
        /* 001:73,79 highest die of (1d6, Cd10); 001:75 "the bonus is the number of dice with
         * which you roll 10, minus one" */
        int tens = 0;
        for (int i = 0; i < n10; i++) {
            if (out->d10[i] > out->die)
                out->die = out->d10[i];
            tens += out->d10[i] == 10;
        }
        out->bonus = tens > 1 ? tens - 1 : 0;
    } else if (c < 0) {
        /* 001:73,81 lowest die of (1d6, |C|d10); 001:75 "the penalty is the number of dice with
         * which you roll 1, minus one" — the d6 is one of those dice (RULES.md, reading 2). */
        int ones = out->d6 == 1;
        for (int i = 0; i < n10; i++) {
            if (out->d10[i] < out->die)
                out->die = out->d10[i];
            ones += out->d10[i] == 1;
        }
        out->penalty = ones > 1 ? ones - 1 : 0;
    }
    /* 001:80 "if (C) is zero: 1d6 + (P) = result"; 001:75 "Then add the potential" */
    out->before_potential = out->die + out->bonus - out->penalty;
    out->result = out->before_potential + out->p;
}

void heimr_roll_kept(const heimr_roll *r, unsigned char *kept)
{
    /* The die used is kept (the earliest of equal faces); with c > 0 every other 10 adds to the
     * bonus and with c < 0 every other 1 to the penalty, so they count as kept too. */
    int used = 0; /* 0: d6, 1+i: d10[i] */
    memset(kept, 0, (size_t)r->n10 + 1);
    if (r->c != 0) {
        for (int i = 0; i < r->n10; i++)
            if (r->d10[i] == r->die && r->d6 != r->die) {
                used = 1 + i;
                break;
            }
    }
    kept[used] = 1;
    if (r->c > 0 && r->bonus)
        for (int i = 0; i < r->n10; i++)
            kept[1 + i] |= r->d10[i] == 10;
    if (r->c < 0 && r->penalty) {
        kept[0] |= r->d6 == 1;
        for (int i = 0; i < r->n10; i++)
            kept[1 + i] |= r->d10[i] == 1;
    }
}

int heimr_fatigue_after(int fatigue, int d6)
{
    /* 001:286 "If the value of the D6 is lower then the fatigue of a character, the fatigue is
     * increased by one. Fatigue can not be higher then twenty or lower then one." */
    if (d6 < fatigue)
        fatigue++;
    if (fatigue > HEIMR_FATIGUE_MAX)
        fatigue = HEIMR_FATIGUE_MAX;
    if (fatigue < HEIMR_FATIGUE_MIN)
        fatigue = HEIMR_FATIGUE_MIN;
    return fatigue;
}

int heimr_fatigue_passes(const heimr_roll *r, int fatigue)
{
    /* 001:284 "a Challenge requirements equal to the fatigue, on the result before adding
     * potential ... the roll must be equal to or higher then the fatigue" */
    return r->before_potential >= fatigue;
}

int heimr_base_fatigue(int stamina)
{
    /* 001:294 "4 – stamina = base fatigue"; 001:296 "can not be less then 1" */
    int f = 4 - stamina;
    return f < HEIMR_FATIGUE_MIN ? HEIMR_FATIGUE_MIN : f;
}

int heimr_base_potential(const int *attributes, int n)
{
    /* 001:191 one attribute: the attribute; 001:193 several: "the average of those attributes,
     * rounded down" — floor, also below zero. */
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += attributes[i];
    int q = sum / n;
    if (sum % n != 0 && sum < 0)
        q--;
    return q;
}

long heimr_xp_cost(int level)
{
    /* 001:219 "the total XP spend on the previous two levels, starting at 5"; 001:221-222
     * 5, 10 (5+5), 15, 25, 40, 65, 105: from level 3 on, the sum of the two before. */
    if (level <= 0)
        return 0;
    long a = 5, b = 10; /* levels 1 and 2 */
    if (level == 1)
        return a;
    for (int l = 3; l <= level; l++) {
        long c = a + b;
        a = b;
        b = c;
    }
    return b;
}

long heimr_xp_total(int level)
{
    /* 001:223 total cost 5 15 30 55 95 160 265 */
    long t = 0;
    for (int l = 1; l <= level; l++)
        t += heimr_xp_cost(l);
    return t;
}

int heimr_attribute_progress_required(int new_value)
{
    /* 001:231-232 new value -2 -1 0 1 2 3 "4 or more": 8 6 4 6 8 10 12. Below -2 the table is
     * continued by its own step of 2 (RULES.md, heimr, reading 9). */
    if (new_value >= 4)
        return 12;
    if (new_value >= 0)
        return new_value == 0 ? 4 : 4 + 2 * new_value;
    return 4 + 2 * (-new_value);
}

/* ---- checks ---- */

static void put_dice(json_t *dice, const heimr_roll *r, int counts, const char *by, int attempt)
{
    unsigned char kept[HEIMR_MAX_C + 1];
    heimr_roll_kept(r, kept);
    for (int i = 0; i <= r->n10; i++) {
        rules_result_die(dice, i ? 10 : 6, i ? r->d10[i - 1] : r->d6, counts && kept[i]);
        json_t *d = json_array_get(dice, json_array_size(dice) - 1);
        if (by)
            json_object_set_new(d, "by", json_string(by));
        if (attempt >= 0)
            json_object_set_new(d, "attempt", json_integer(attempt));
    }
}

static json_t *d10s_json(const heimr_roll *r)
{
    json_t *a = json_array();
    for (int i = 0; i < r->n10; i++)
        json_array_append_new(a, json_integer(r->d10[i]));
    return a;
}

static void put_roll_fields(json_t *o, const heimr_roll *r)
{
    json_object_set_new(o, "result", json_integer(r->result));
    json_object_set_new(o, "consistency", json_integer(r->c));
    json_object_set_new(o, "potential", json_integer(r->p));
    json_object_set_new(o, "d6", json_integer(r->d6));
    json_object_set_new(o, "d10s", d10s_json(r));
    json_object_set_new(o, "die", json_integer(r->die));
    json_object_set_new(o, "bonus", json_integer(r->bonus));
    json_object_set_new(o, "penalty", json_integer(r->penalty));
    json_object_set_new(o, "before_potential", json_integer(r->before_potential));
}

static int challenge_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 001:103 "A situational penalty reduces the consistency of a dice challenge" (3 - 2 = 1) */
    int c = rules_arg_int(a, "c") - rules_arg_int(a, "penalty");
    int p = rules_arg_int(a, "p");
    int has_cr = rules_arg_given(a, "cr"), cr = rules_arg_int(a, "cr");
    /* fatigue=F marks a physical roll (001:284-286) */
    int physical = rules_arg_given(a, "fatigue");
    int fatigue0 = rules_arg_int(a, "fatigue"), fatigue = fatigue0;
    int willpower = rules_arg_int(a, "willpower");
    heimr_roll r;
    int success = 0, fatigue_ok = 1, attempt = 0, fatigue_before = fatigue;
    json_t *dice = json_object_get(result, "dice");
    json_t *attempts = json_array();
    for (;; attempt++) {
        int rc = heimr_challenge_roll(c, p, rng, &r, err);
        if (rc) {
            json_decref(attempts);
            return rc;
        }
        fatigue_before = fatigue;
        if (physical) {
            fatigue_ok = heimr_fatigue_passes(&r, fatigue);
            fatigue = heimr_fatigue_after(fatigue, r.d6);
        }
        /* 001:109 "a number which is equal to or higher then the CR" */
        success = fatigue_ok && (!has_cr || rules_meets(r.result, cr, RULES_CMP_GE));
        json_t *at = json_object();
        put_roll_fields(at, &r);
        json_object_set_new(at, "success", json_boolean(success));
        if (physical) {
            json_object_set_new(at, "fatigue_before", json_integer(fatigue_before));
            json_object_set_new(at, "fatigue_after", json_integer(fatigue));
        }
        json_array_append_new(attempts, at);
        /* 001:113 "Characters are allowed to re-roll a failed CR at the cost of one willpower
         * for each roll." willpower=W: how many the player is willing to spend. */
        int failed = !success && (has_cr || physical);
        if (!failed || attempt >= willpower)
            break;
        /* the failed attempt's dice are recorded, none counting toward the final result */
        put_dice(dice, &r, 0, NULL, attempt);
    }
    put_dice(dice, &r, 1, NULL, attempt ? attempt : -1);
    json_object_set_new(result, "total", json_integer(r.result));
    json_object_set_new(result, "success",
                        (has_cr || physical) ? json_boolean(success) : json_null());
    put_roll_fields(result, &r);
    if (has_cr)
        json_object_set_new(result, "cr", json_integer(cr));
    if (physical) {
        json_object_set_new(result, "fatigue", json_integer(fatigue0));
        json_object_set_new(result, "fatigue_checked", json_integer(fatigue_before));
        json_object_set_new(result, "fatigue_ok", json_boolean(fatigue_ok));
        json_object_set_new(result, "fatigue_after", json_integer(fatigue));
    }
    json_object_set_new(result, "fatigue_increased", json_boolean(physical && fatigue > fatigue0));
    json_object_set_new(result, "willpower_spent", json_integer(attempt));
    if (attempt)
        json_object_set_new(result, "attempts", attempts);
    else
        json_decref(attempts);
    return 0;
}

static int initiative_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 001:242 "uses the character's dexterity as his consistency, and the number of willpower
     * a character has as it's potential"; ties: the higher willpower goes first. */
    int c = rules_arg_int(a, "dex") - rules_arg_int(a, "penalty");
    int wp = rules_arg_int(a, "willpower");
    heimr_roll r;
    int rc = heimr_challenge_roll(c, wp, rng, &r, err);
    if (rc)
        return rc;
    put_dice(json_object_get(result, "dice"), &r, 1, NULL, -1);
    json_object_set_new(result, "total", json_integer(r.result));
    json_object_set_new(result, "success", json_null());
    put_roll_fields(result, &r);
    json_object_set_new(result, "tiebreak", json_integer(wp));
    return 0;
}

static int opposed_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 001:109 "they will both roll and compare the results"; the opponent (a defender) rolls
     * first: defences are pre-rolled (001:444-446) and a defence "equal to or higher then the
     * attack score" wins (001:420), so ties go to the opponent. */
    heimr_roll ro, ra;
    int rc = heimr_challenge_roll(rules_arg_int(a, "opp_c") - rules_arg_int(a, "opp_penalty"),
                                  rules_arg_int(a, "opp_p"), rng, &ro, err);
    if (!rc)
        rc = heimr_challenge_roll(rules_arg_int(a, "c") - rules_arg_int(a, "penalty"),
                                  rules_arg_int(a, "p"), rng, &ra, err);
    if (rc)
        return rc;
    json_t *dice = json_object_get(result, "dice");
    put_dice(dice, &ro, 1, "opponent", -1);
    put_dice(dice, &ra, 1, "actor", -1);
    json_object_set_new(result, "total", json_integer(ra.result));
    json_object_set_new(result, "success",
                        json_boolean(rules_opposed(ra.result, ro.result, RULES_TIE_DEFENDER)));
    put_roll_fields(result, &ra);
    json_t *o = json_object();
    put_roll_fields(o, &ro);
    json_object_set_new(result, "opponent", o);
    return 0;
}

static void format_roll(const json_t *o, rules_str *out)
{
    long long c = json_integer_value(json_object_get(o, "consistency"));
    long long p = json_integer_value(json_object_get(o, "potential"));
    rules_str_printf(out, "C%lld P%lld → d6 %lld", c, p,
                     json_integer_value(json_object_get(o, "d6")));
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(o, "d10s"), i, d)
        rules_str_printf(out, "%s%lld", i ? " " : ", d10 ", json_integer_value(d));
    rules_str_printf(out, ": %lld", json_integer_value(json_object_get(o, "die")));
    long long bonus = json_integer_value(json_object_get(o, "bonus"));
    long long pen = json_integer_value(json_object_get(o, "penalty"));
    if (bonus)
        rules_str_printf(out, " +%lld (extra 10s)", bonus);
    if (pen)
        rules_str_printf(out, " -%lld (extra 1s)", pen);
    rules_str_printf(out, " %s %lld = %lld", p < 0 ? "-" : "+", p < 0 ? -p : p,
                     json_integer_value(json_object_get(o, "result")));
}

static void challenge_format(const json_t *result, rules_str *out)
{
    long long spent = json_integer_value(json_object_get(result, "willpower_spent"));
    if (spent)
        rules_str_printf(out, "(after %lld willpower re-roll%s) ", spent, spent > 1 ? "s" : "");
    format_roll(result, out);
    json_t *cr = json_object_get(result, "cr");
    if (cr)
        rules_str_printf(out, " vs CR %lld", json_integer_value(cr));
    json_t *fat = json_object_get(result, "fatigue");
    if (fat && !json_is_true(json_object_get(result, "fatigue_ok")))
        rules_str_printf(out, " (%lld before potential < fatigue %lld)",
                         json_integer_value(json_object_get(result, "before_potential")),
                         json_integer_value(json_object_get(result, "fatigue_checked")));
    json_t *succ = json_object_get(result, "success");
    if (json_is_boolean(succ))
        rules_str_printf(out, ": %s", json_is_true(succ) ? "success" : "failure");
    if (fat)
        rules_str_printf(out, "; fatigue %lld → %lld", json_integer_value(fat),
                         json_integer_value(json_object_get(result, "fatigue_after")));
}

static void initiative_format(const json_t *result, rules_str *out)
{
    format_roll(result, out);
    rules_str_printf(out, " (ties: willpower %lld)",
                     json_integer_value(json_object_get(result, "tiebreak")));
}

static void opposed_format(const json_t *result, rules_str *out)
{
    rules_str_printf(out, "opponent ");
    format_roll(json_object_get(result, "opponent"), out);
    rules_str_printf(out, "; ");
    format_roll(result, out);
    rules_str_printf(out, ": %s",
                     json_is_true(json_object_get(result, "success"))
                         ? "success"
                         : "failure (ties go to the opponent)");
}

#define C_PARAM(n, req, l)                                                                         \
    {                                                                                              \
        n, RULES_PARAM_INT, -20, 20, 0, req, l                                                     \
    }
#define P_PARAM(n, req, l)                                                                         \
    {                                                                                              \
        n, RULES_PARAM_INT, -50, 50, 0, req, l                                                     \
    }
#define PEN_PARAM(n, l)                                                                            \
    {                                                                                              \
        n, RULES_PARAM_INT, 0, 20, 0, 0, l                                                         \
    }

static const rules_param challenge_params[] = {
    C_PARAM("c", RULES_PARAM_REQUIRED, "consistency: d10s rolled (001:73)"),
    P_PARAM("p", RULES_PARAM_REQUIRED, "potential, added (001:75)"),
    {"cr", RULES_PARAM_INT, -100, 200, 0, 0, "challenge requirement: result >= CR (001:109)"},
    {"fatigue", RULES_PARAM_INT, 1, 20, 1, 0,
     "the character's fatigue: marks a physical roll (001:284-286)"},
    PEN_PARAM("penalty", "situational penalty: lowers consistency (001:103)"),
    {"willpower", RULES_PARAM_INT, 0, 20, 0, 0,
     "willpower to spend on re-rolls of a failed CR, one each (001:113)"},
    {0},
};

static const rules_param initiative_params[] = {
    {"dex", RULES_PARAM_INT, -20, 20, 0, RULES_PARAM_REQUIRED, "dexterity: consistency"},
    {"willpower", RULES_PARAM_INT, 0, 50, 0, RULES_PARAM_REQUIRED, "willpower: potential"},
    PEN_PARAM("penalty", "situational penalty on consistency"),
    {0},
};

static const rules_param opposed_params[] = {
    C_PARAM("c", RULES_PARAM_REQUIRED, "actor's consistency"),
    P_PARAM("p", RULES_PARAM_REQUIRED, "actor's potential"),
    PEN_PARAM("penalty", "actor's situational penalty"),
    C_PARAM("opp_c", RULES_PARAM_REQUIRED, "opponent's consistency"),
    P_PARAM("opp_p", RULES_PARAM_REQUIRED, "opponent's potential"),
    PEN_PARAM("opp_penalty", "opponent's situational penalty"),
    {0},
};

static const rules_check heimr_checks[] = {
    {"challenge", "1d6 + |C|d10, highest (C>0) or lowest (C<0), + P; vs CR (001:71-113)",
     challenge_params, challenge_roll, challenge_format},
    {"opposed", "both roll; the opponent rolls first and wins ties (001:109, 001:420)",
     opposed_params, opposed_roll, opposed_format},
    {"initiative", "dexterity as C, willpower as P; ties to the higher willpower (001:242)",
     initiative_params, initiative_roll, initiative_format},
    {0},
};

/* ---- sheet ---- */

static const char *const attr_names[] = {"str", "dex", "sta", "int", "soc", "emp", NULL};

#define ATTR(n, l, g, c)                                                                           \
    {                                                                                              \
        n, RULES_FIELD_INT, -5, 10, 1, 0, l, g, NULL, NULL, c                                      \
    }
static const rules_field attributes_fields[] = {
    ATTR("str", "Strength", "Physical", "001:32"),
    ATTR("dex", "Dexterity", "Physical", "001:33"),
    ATTR("sta", "Stamina", "Physical", "001:34"),
    ATTR("int", "Intelligence", "Mental", "001:35"),
    ATTR("soc", "Sociability", "Mental", "001:36"),
    ATTR("emp", "Empathy", "Mental", "001:37"),
    {0},
};

#define PROGRESS(n, l)                                                                             \
    {                                                                                              \
        n, RULES_FIELD_INT, 0, 20, 0, 0, l, "Attribute progress", NULL, NULL, "001:227-232"        \
    }
static const rules_field progress_fields[] = {
    PROGRESS("str", "Strength progress"),
    PROGRESS("dex", "Dexterity progress"),
    PROGRESS("sta", "Stamina progress"),
    PROGRESS("int", "Intelligence progress"),
    PROGRESS("soc", "Sociability progress"),
    PROGRESS("emp", "Empathy progress"),
    {0},
};

static const rules_field ability_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 60, 1, 0, "Ability", "Abilities", NULL, NULL, "001:172"},
    {"attributes", RULES_FIELD_STRINGS, 1, 6, 1, 0, "Based on (str, dex, sta, int, soc, emp)",
     "Abilities", NULL, NULL, "001:191-193"},
    {"base_consistency", RULES_FIELD_INT, -2, 3, 1, 0, "Base consistency (set by the GM)",
     "Abilities", NULL, NULL, "001:185-187"},
    {"trained_consistency", RULES_FIELD_INT, 0, 10, 0, 0, "Trained consistency", "Abilities", NULL,
     NULL, "001:174-176"},
    {"trained_potential", RULES_FIELD_INT, 0, 10, 0, 0, "Trained potential", "Abilities", NULL,
     NULL, "001:174-177"},
    {0},
};

static const rules_field item_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Item", "Items", NULL, NULL, "001:23"},
    {"ability", RULES_FIELD_STRING, 1, 60, 0, 0, "Ability it is used with", "Items", NULL, NULL,
     "001:181"},
    {"consistency_bonus", RULES_FIELD_INT, -5, 5, 0, 0, "Consistency bonus", "Items", NULL, NULL,
     "001:179"},
    {"potential_bonus", RULES_FIELD_INT, -5, 10, 0, 0, "Potential bonus (P+n)", "Items", NULL, NULL,
     "001:179,574-595"},
    {0},
};

const char *const heimr_parts[] = {"torso",     "sword_arm", "other_arm",
                                   "right_leg", "left_leg",  NULL};

static const rules_field heimr_sheet[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Character", NULL, NULL, NULL},
    {"attributes", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Attributes", "Attributes", NULL,
     attributes_fields, "001:29-37"},
    {"attribute_progress", RULES_FIELD_OBJECT, 0, 0, 0, 0, "Attribute progress",
     "Attribute progress", NULL, progress_fields, "001:227-232"},
    {"hp", RULES_FIELD_INT, -5, 100, 1, 5, "Hit points", "Health", NULL, NULL, "001:143-166"},
    {"hp_max", RULES_FIELD_INT, 1, 100, 1, 5, "Maximum hit points", "Health", NULL, NULL,
     "001:149"},
    {"willpower", RULES_FIELD_INT, 0, 50, 1, 3, "Willpower", "Health", NULL, NULL,
     "001:23,113,242"},
    {"willpower_max", RULES_FIELD_INT, 0, 50, 1, 3, "Maximum willpower", "Health", NULL, NULL,
     "001:23"},
    {"fatigue", RULES_FIELD_INT, 1, 20, 1, 1, "Fatigue (from the base fatigue up to 20)", "Health", NULL, NULL,
     "001:282-298"},
    {"xp", RULES_FIELD_INT, 0, 1000000, 0, 0, "Unspent XP", "Experience", NULL, NULL, "001:217"},
    {"abilities", RULES_FIELD_LIST, 0, 60, 0, 0, "Abilities", "Abilities", NULL, ability_fields,
     "001:170-213"},
    {"skills", RULES_FIELD_STRINGS, 0, 100, 0, 0, "Skills", "Skills", NULL, NULL, "001:23"},
    {"conditions", RULES_FIELD_STRINGS, 0, 50, 0, 0, "Conditions", "Health", NULL, NULL, "001:23"},
    {"injuries", RULES_FIELD_STRINGS, 0, 5, 0, 0, "Injured body parts", "Health", NULL, NULL,
     "001:151-157,413"},
    {"items", RULES_FIELD_LIST, 0, 100, 0, 0, "Items", "Items", NULL, item_fields, "001:179"},
    {"notes", RULES_FIELD_STRING, 0, 4000, 0, 0, "Notes", "Character", NULL, NULL, NULL},
    {0},
};

int heimr_attr(const json_t *sheet, const char *name)
{
    return (int)json_integer_value(json_object_get(json_object_get(sheet, "attributes"), name));
}

static int is_in(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

static int heimr_validate(const json_t *sheet, tb_err *err)
{
    long long hp = json_integer_value(json_object_get(sheet, "hp"));
    long long hpmax = json_integer_value(json_object_get(sheet, "hp_max"));
    if (hp > hpmax)
        return tb_fail(err, TB_BAD_REQUEST, "field 'hp' must be at most hp_max = %lld (got %lld)",
                       hpmax, hp);
    long long wp = json_integer_value(json_object_get(sheet, "willpower"));
    long long wpmax = json_integer_value(json_object_get(sheet, "willpower_max"));
    if (wp > wpmax)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'willpower' must be at most willpower_max = %lld (got %lld)", wpmax,
                       wp);
    /* 001:292 fatigue returns to base fatigue, 001:384 "can not be lower then the base fatigue" */
    int base = heimr_base_fatigue(heimr_attr(sheet, "sta"));
    long long fat = json_integer_value(json_object_get(sheet, "fatigue"));
    if (fat < base)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'fatigue' must be at least the base fatigue 4 - stamina = %d (got "
                       "%lld) (001:294-296, 001:384)",
                       base, fat);
    /* 001:229 once progress reaches the requirement the attribute rises and progress is 0 */
    json_t *prog = json_object_get(sheet, "attribute_progress");
    for (int i = 0; prog && attr_names[i]; i++) {
        json_t *v = json_object_get(prog, attr_names[i]);
        int need = heimr_attribute_progress_required(heimr_attr(sheet, attr_names[i]) + 1);
        if (v && json_integer_value(v) >= need)
            return tb_fail(err, TB_BAD_REQUEST,
                           "field 'attribute_progress.%s' must be below %d, the progress that "
                           "raises %s to %d (got %lld) (001:229-232)",
                           attr_names[i], need, attr_names[i], heimr_attr(sheet, attr_names[i]) + 1,
                           json_integer_value(v));
    }
    json_t *abilities = json_object_get(sheet, "abilities"), *ab;
    size_t i;
    json_array_foreach(abilities, i, ab)
    {
        const char *name = json_string_value(json_object_get(ab, "name"));
        for (size_t j = 0; j < i; j++)
            if (strcmp(name, json_string_value(
                                 json_object_get(json_array_get(abilities, j), "name"))) == 0)
                return tb_fail(err, TB_BAD_REQUEST,
                               "field 'abilities[%zu].name': ability '%.60s' is listed twice", i,
                               name);
        size_t k;
        json_t *an;
        json_array_foreach(json_object_get(ab, "attributes"), k, an)
        {
            const char *a = json_string_value(an);
            if (!is_in(a, attr_names))
                return tb_fail(err, TB_BAD_REQUEST,
                               "field 'abilities[%zu].attributes[%zu]' must be one of: str, dex, "
                               "sta, int, soc, emp (001:29-37)",
                               i, k);
        }
    }
    json_t *inj = json_object_get(sheet, "injuries"), *bp;
    json_array_foreach(inj, i, bp)
    {
        if (!is_in(json_string_value(bp), heimr_parts))
            return tb_fail(err, TB_BAD_REQUEST,
                           "field 'injuries[%zu]' must be one of: torso, sword_arm, other_arm, "
                           "right_leg, left_leg (001:413)",
                           i);
    }
    return 0;
}

const char *heimr_injury_level(long long hp)
{
    /* 001:145 zero or less hit points: injured; 001:163-166 the three levels */
    if (hp > 0)
        return NULL;
    if (hp >= -1)
        return "bloodied";
    if (hp >= -3)
        return "mangled";
    return "mutilated";
}

static json_t *heimr_derive(const json_t *sheet)
{
    json_t *d = json_object();
    json_object_set_new(d, "base_fatigue",
                        json_integer(heimr_base_fatigue(heimr_attr(sheet, "sta"))));
    json_t *ini = json_object();
    json_object_set_new(ini, "c", json_integer(heimr_attr(sheet, "dex")));
    json_object_set_new(ini, "p",
                        json_object_get(sheet, "willpower")
                            ? json_integer(json_integer_value(json_object_get(sheet, "willpower")))
                            : json_integer(0));
    json_object_set_new(d, "initiative", ini); /* 001:242 */
    const char *injury = heimr_injury_level(json_integer_value(json_object_get(sheet, "hp")));
    json_object_set_new(d, "injury", json_string(injury ? injury : "none"));

    json_t *req = json_object();
    for (int i = 0; attr_names[i]; i++)
        json_object_set_new(
            req, attr_names[i],
            json_integer(heimr_attribute_progress_required(heimr_attr(sheet, attr_names[i]) + 1)));
    json_object_set_new(d, "attribute_progress_required", req);

    /* 001:204-209: the six standard abilities and their attribute */
    static const char *const standard[][2] = {{"brawl", "str"},      {"agility", "dex"},
                                              {"survival", "sta"},   {"perception", "int"},
                                              {"persuasion", "soc"}, {"insight", "emp"}};
    json_t *std = json_object();
    for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "attribute", json_string(standard[i][1]));
        json_object_set_new(o, "base_potential", json_integer(heimr_attr(sheet, standard[i][1])));
        json_object_set_new(std, standard[i][0], o);
    }
    json_object_set_new(d, "standard_abilities", std);

    json_t *abl = json_array();
    long xp_spent = 0;
    size_t i;
    json_t *ab;
    json_array_foreach(json_object_get(sheet, "abilities"), i, ab)
    {
        int attrs[6], n = 0;
        size_t k;
        json_t *an;
        json_array_foreach(json_object_get(ab, "attributes"), k, an) if (n < 6) attrs[n++] =
            heimr_attr(sheet, json_string_value(an));
        int bp = heimr_base_potential(attrs, n);
        int tc = (int)json_integer_value(json_object_get(ab, "trained_consistency"));
        int tp = (int)json_integer_value(json_object_get(ab, "trained_potential"));
        int bc = (int)json_integer_value(json_object_get(ab, "base_consistency"));
        long xp = heimr_xp_total(tc) + heimr_xp_total(tp);
        xp_spent += xp;
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(json_string_value(json_object_get(ab, "name"))));
        json_object_set_new(o, "base_potential", json_integer(bp));
        /* 001:176-177 base + trained */
        json_object_set_new(o, "consistency", json_integer(bc + tc));
        json_object_set_new(o, "potential", json_integer(bp + tp));
        json_object_set_new(o, "xp_spent", json_integer(xp));
        json_object_set_new(o, "next_consistency_xp", json_integer(heimr_xp_cost(tc + 1)));
        json_object_set_new(o, "next_potential_xp", json_integer(heimr_xp_cost(tp + 1)));
        json_array_append_new(abl, o);
    }
    json_object_set_new(d, "abilities", abl);
    json_object_set_new(d, "xp_spent", json_integer(xp_spent));
    return d;
}

/* The encounter modules: their one registration. */
extern const rules_module rules_module_heimr_combat, rules_module_heimr_chase,
    rules_module_heimr_between;
static const rules_module *const heimr_modules[] = {
    &rules_module_heimr_combat, &rules_module_heimr_chase, &rules_module_heimr_between, NULL};

/* 001:238 "Every turn lasts two seconds." (every combatant acts once per round) */
static const rules_clock_stage heimr_clock[] = {{"turn", "Turn", 2, "001:238"}, {0}};


const rules_system rules_system_heimr = {
    .id = "heimr",
    .name = "Heimr", /* the rulebook: "Heimr Tabletop RPG Core" */
    .rulebook = "001_660a93111b0de833.txt",
    .sheet = heimr_sheet,
    .validate = heimr_validate,
    .derive = heimr_derive,
    .checks = heimr_checks,
    .modules = heimr_modules,
    .summary = "A core without a set setting: a d6 and d10s by capability against a challenge, "
               "fatigue and willpower",
    .clock = heimr_clock,
    .phrases = heimr_phrases, /* words.c */
};
