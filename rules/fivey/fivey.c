/*
 * fivey.c — FIVEY (004_110cc4af3ff93059.txt, cited 004:LINE): stat checks, advantage and
 * disadvantage, contests, cooperation, passive scores, inspiration dice (and spending them for
 * XP), random-encounter and reaction rolls, the character sheet and its derived values, the
 * monster tables. Readings of unclear passages are numbered in rules/RULES.md, "## fivey".
 */
#include "fivey.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "dice.h"
#include "fivey_enc.h"

/* ---- resolution ---- */

int fivey_bonus(int stat, int skilled)
{
    /* 004:120 "Having a relevant skill allows the player to double their bonus"; 004:124 "You
     * still just double your bonus." */
    return skilled ? 2 * stat : stat;
}

void fivey_roll_check(fivey_roll *r, rules_rng *rng, json_t *dice, int bonus, fivey_edge edge,
                      int inspiration, int mod)
{
    memset(r, 0, sizeof *r);
    /* 004:83 "roll 1d20 plus that character's most relevant stat"; 004:98 "take the best result
     * of 2d20 ... the worst result of 2d20"; 004:100 sources do not stack: never more than 2. */
    int n = edge == FIVEY_EDGE_NONE ? 1 : 2;
    rules_pool_roll(&r->d20, rng, n, 20, 1,
                    edge == FIVEY_EDGE_DIS ? RULES_KEEP_LOWEST : RULES_KEEP_HIGHEST, NULL);
    if (dice)
        rules_pool_to_json(&r->d20, dice);
    r->natural = r->d20.sum_kept;
    r->bonus = bonus;
    r->mod = mod;
    /* 004:146 "spend 1 inspiration die to modify the result of any dice roll to their
     * character's favor by the number rolled ... in no case may a single roll be modified by more
     * than 1 die." Inspiration dice are d6s (004:144). */
    if (inspiration)
        r->insp = rules_roll_die(rng, 6, dice);
    r->total = r->natural + r->bonus + r->mod + r->insp;
}

int fivey_meets(int total, int dc)
{
    /* 004:83 "succeeds if the total score rolled meets or exceeds the difficulty class" */
    return rules_meets(total, dc, RULES_CMP_GE);
}

int fivey_dc_for_stars(int stars)
{
    /* 004:87-92 ★ 12, ★★ 14, ★★★ 16, ★★★★ 18, ★★★★★ 20 */
    return 10 + 2 * stars;
}

int fivey_passive(int bonus)
{
    /* 004:112 "Any bonus can be converted into a difficulty class by adding 10 to it." */
    return 10 + bonus;
}

int fivey_level_xp(int level)
{
    /* 004:387-393 */
    static const int xp[] = {0, 100, 300, 600, 1000, 1500};
    if (level < 0 || level > FIVEY_LEVEL_MAX)
        return -1;
    return xp[level];
}

/* 004:416-421 armor: defense class and strength requirement */
static const struct {
    const char *name;
    int dc, str;
} armors[] = {
    {"leather", 12, 1}, {"scale", 13, 2}, {"chain", 14, 3}, {"ring", 15, 4}, {"plate", 16, 5},
};

/* 004:622-629 Level / Investment / Line of Credit */
static const int INSTITUTION_CAPITAL[] = {0, 10, 30, 120, 240, 360};
static const int INSTITUTION_CREDIT[] = {0, 1, 5, 20, 50, 100};
#define INSTITUTION_LARGE 5
#define MASSIVE_CAPITAL 120 /* 004:629 "Massive +120 capital +50 crowns" */
#define MASSIVE_CREDIT 50

int fivey_institution_level(int capital)
{
    int level = 0;
    while (level < INSTITUTION_LARGE && capital >= INSTITUTION_CAPITAL[level + 1])
        level++;
    if (level == INSTITUTION_LARGE && capital >= INSTITUTION_CAPITAL[INSTITUTION_LARGE])
        level += (capital - INSTITUTION_CAPITAL[INSTITUTION_LARGE]) / MASSIVE_CAPITAL;
    return level;
}

int fivey_institution_credit(int level)
{
    if (level <= 0)
        return 0;
    if (level <= INSTITUTION_LARGE)
        return INSTITUTION_CREDIT[level];
    return INSTITUTION_CREDIT[INSTITUTION_LARGE] + MASSIVE_CREDIT * (level - INSTITUTION_LARGE);
}

const char *fivey_institution_name(int level)
{
    static const char *const NAMES[] = {"dreamstuff", "insignificant", "small",
                                        "middling",   "ascendant",     "large"};
    return level <= 0 ? NAMES[0] : level <= INSTITUTION_LARGE ? NAMES[level] : "massive";
}

int fivey_armor_dc(const char *armor)
{
    for (size_t i = 0; armor && i < sizeof armors / sizeof armors[0]; i++)
        if (strcmp(armors[i].name, armor) == 0)
            return armors[i].dc;
    return 0;
}

int fivey_armor_str(const char *armor)
{
    for (size_t i = 0; armor && i < sizeof armors / sizeof armors[0]; i++)
        if (strcmp(armors[i].name, armor) == 0)
            return armors[i].str;
    return 0;
}

int fivey_defense_class(int dex, const char *armor, int shield)
{
    /* 004:373 "either is based on their armor worn or else equals 10 plus their dexterity
     * (skills not applicable)"; 004:414 armor "will replace their unarmored defense class.
     * Equipping a shield augments the user's defense class"; 004:422 shield +1. */
    int dc = fivey_armor_dc(armor);
    if (dc == 0)
        dc = fivey_passive(dex);
    return dc + (shield ? 1 : 0);
}

/* 004:487-505, the ten spells; [L] is 1 unless a feat says otherwise (004:485). */
static const fivey_spell spells[] = {
    {"Attract", FIVEY_SPELL_EFFECT, "minutes", "004:487"},
    {"Charm", FIVEY_SPELL_MENTAL, "hours", "004:489, 004:680"},
    {"Feather Fall", FIVEY_SPELL_EFFECT, "× 10 feet of falling", "004:491"},
    {"Fire Ball", FIVEY_SPELL_SAVE, NULL, "004:493"},
    {"Knock", FIVEY_SPELL_EFFECT, NULL, "004:495"},
    {"Illuminate", FIVEY_SPELL_EFFECT, "exploration turns", "004:497"},
    {"Levitate", FIVEY_SPELL_EFFECT, "minutes", "004:499"},
    {"Lightning Bolt", FIVEY_SPELL_SAVE, NULL, "004:501"},
    {"Shroud", FIVEY_SPELL_EFFECT, "× 10 minutes", "004:503"},
    {"Turn Undead", FIVEY_SPELL_UNDEAD, NULL, "004:505"},
};

const fivey_spell *fivey_spell_named(const char *name)
{
    for (size_t i = 0; name && i < sizeof spells / sizeof spells[0]; i++)
        if (strcmp(spells[i].name, name) == 0)
            return &spells[i];
    return NULL;
}

int fivey_spell_dc(int intelligence)
{
    /* 004:680 "magic spells typically use intelligence"; 004:112 a bonus as a DC is 10 + it
     * (reading 12) */
    return fivey_passive(intelligence);
}

static int bracket_index(char b)
{
    static const char order[] = "MGELB";
    for (int i = 0; i < 5; i++)
        if (order[i] == b)
            return i;
    return -1;
}

int fivey_monster_hd(char bracket)
{
    static const int hd[] = {1, 2, 4, 8, 16}; /* 004:720-724 */
    int i = bracket_index(bracket);
    return i < 0 ? -1 : hd[i];
}

int fivey_monster_ga(char bracket)
{
    int i = bracket_index(bracket);
    return i < 0 ? -1 : i + 1; /* 004:720-724 GA +1..+5 */
}

int fivey_monster_xp(char bracket, int dc)
{
    /* 004:736-740, rows DC 12, 14, 16, 18, 20; columns M G E L B */
    static const int xp[5][5] = {
        {4, 8, 12, 16, 20},  {5, 10, 15, 20, 25},  {6, 12, 18, 24, 30},
        {8, 16, 24, 32, 40}, {10, 20, 30, 40, 50},
    };
    int i = bracket_index(bracket);
    if (i < 0 || dc < 12 || dc > 20 || dc % 2)
        return -1;
    return xp[(dc - 12) / 2][i];
}

/* ---- checks ---- */

static int edge_of(const rules_args *a, const char *adv, const char *dis, fivey_edge *out,
                   tb_err *err)
{
    /* 004:100 sources are "considered in aggregate": the caller says which one applies. */
    if (rules_arg_int(a, adv) && rules_arg_int(a, dis))
        return tb_fail(err, TB_BAD_REQUEST,
                       "parameters '%s' and '%s' are exclusive: advantage and disadvantage are "
                       "weighed together into one (004:100)",
                       adv, dis);
    *out = rules_arg_int(a, adv)   ? FIVEY_EDGE_ADV
           : rules_arg_int(a, dis) ? FIVEY_EDGE_DIS
                                   : FIVEY_EDGE_NONE;
    return 0;
}

static void put_roll(json_t *o, const fivey_roll *r)
{
    json_object_set_new(o, "natural", json_integer(r->natural));
    json_object_set_new(o, "bonus", json_integer(r->bonus));
    json_object_set_new(o, "inspiration", r->insp ? json_integer(r->insp) : json_null());
    json_object_set_new(o, "total", json_integer(r->total));
}

static int check_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    fivey_edge edge;
    int dc = rules_arg_int(a, "dc"), rc = edge_of(a, "adv", "dis", &edge, err);
    if (rc)
        return rc;
    fivey_roll r;
    fivey_roll_check(&r, rng, json_object_get(result, "dice"),
                     fivey_bonus(rules_arg_int(a, "stat"), rules_arg_int(a, "skilled")), edge,
                     rules_arg_int(a, "inspiration"), rules_arg_int(a, "mod"));
    put_roll(result, &r);
    json_object_set_new(result, "dc", json_integer(dc));
    rules_result_outcome(result, r.total, 1, dc, RULES_CMP_GE);
    return 0;
}

static int contest_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 004:108 "all characters involved roll 1d20 plus their relevant stat bonus. The character
     * with the highest roll wins"; "anything that applies to a stat check would also apply to a
     * contest". A tie has no winner (reading 3). */
    fivey_edge e1, e2;
    int rc = edge_of(a, "adv", "dis", &e1, err);
    if (!rc)
        rc = edge_of(a, "opp_adv", "opp_dis", &e2, err);
    if (rc)
        return rc;
    json_t *dice = json_object_get(result, "dice");
    fivey_roll r, o;
    fivey_roll_check(&r, rng, dice,
                     fivey_bonus(rules_arg_int(a, "stat"), rules_arg_int(a, "skilled")), e1,
                     rules_arg_int(a, "inspiration"), rules_arg_int(a, "mod"));
    size_t mine = json_array_size(dice);
    fivey_roll_check(&o, rng, dice,
                     fivey_bonus(rules_arg_int(a, "opp_stat"), rules_arg_int(a, "opp_skilled")), e2,
                     0, rules_arg_int(a, "opp_mod"));
    for (size_t i = 0; i < json_array_size(dice); i++)
        json_object_set_new(json_array_get(dice, i), "by",
                            json_string(i < mine ? "actor" : "opponent"));
    put_roll(result, &r);
    json_t *oo = json_object();
    put_roll(oo, &o);
    json_object_set_new(result, "opponent", oo);
    const char *winner = r.total > o.total ? "actor" : (r.total < o.total ? "opponent" : "tie");
    json_object_set_new(result, "winner", json_string(winner));
    json_object_set_new(result, "success", json_boolean(r.total > o.total));
    return 0;
}

static int cooperate_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 004:104 "up to two characters can cooperate at a task. Both players make a stat check ...
     * but need only one success". The situation's edge applies to both (reading 4). */
    fivey_edge edge;
    int dc = rules_arg_int(a, "dc"), rc = edge_of(a, "adv", "dis", &edge, err);
    if (rc)
        return rc;
    json_t *dice = json_object_get(result, "dice");
    fivey_roll r1, r2;
    fivey_roll_check(&r1, rng, dice,
                     fivey_bonus(rules_arg_int(a, "stat"), rules_arg_int(a, "skilled")), edge, 0,
                     0);
    size_t first = json_array_size(dice);
    fivey_roll_check(&r2, rng, dice,
                     fivey_bonus(rules_arg_int(a, "stat2"), rules_arg_int(a, "skilled2")), edge, 0,
                     0);
    for (size_t i = 0; i < json_array_size(dice); i++)
        json_object_set_new(json_array_get(dice, i), "by",
                            json_string(i < first ? "first" : "second"));
    json_t *rolls = json_array();
    json_t *o1 = json_object(), *o2 = json_object();
    put_roll(o1, &r1);
    put_roll(o2, &r2);
    json_object_set_new(o1, "success", json_boolean(fivey_meets(r1.total, dc)));
    json_object_set_new(o2, "success", json_boolean(fivey_meets(r2.total, dc)));
    json_array_append_new(rolls, o1);
    json_array_append_new(rolls, o2);
    json_object_set_new(result, "rolls", rolls);
    int best = r1.total > r2.total ? r1.total : r2.total;
    json_object_set_new(result, "dc", json_integer(dc));
    rules_result_outcome(result, best, 1, dc, RULES_CMP_GE);
    return 0;
}

static int xp_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 004:402 "spend their leftover inspiration dice ... to gain experience points equal to the
     * sum of the dice. If a character has a number of inspiration dice in excess of their level,
     * they roll all the dice but keep a number equal to their level." The highest are kept
     * (the example keeps "the higher of the two"). */
    rules_pool p;
    int rc = rules_pool_roll(&p, rng, rules_arg_int(a, "dice"), 6, rules_arg_int(a, "level"),
                             RULES_KEEP_HIGHEST, err);
    if (rc)
        return rc;
    rules_pool_to_json(&p, json_object_get(result, "dice"));
    json_object_set_new(result, "kept", rules_pool_kept_json(&p));
    rules_result_outcome(result, p.sum_kept, 0, 0, RULES_CMP_GE);
    return 0;
}

static int encounter_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 004:533 "The likelihood is an x-in-20 chance where x equals the travel time of a hex"; the
     * printed "4-in-20 ... roll 5 or more" is a 16-in-20 chance: the rule is followed, an
     * encounter on a d20 of x or less (reading 6). 004:547 the site clock. */
    int chance = rules_arg_int(a, "chance");
    int d = rules_roll_die(rng, 20, json_object_get(result, "dice"));
    json_object_set_new(result, "chance", json_integer(chance));
    json_object_set_new(result, "encounter", json_boolean(d <= chance));
    rules_result_outcome(result, d, 0, 0, RULES_CMP_GE);
    return 0;
}

const char *fivey_reaction(int natural)
{
    /* 004:653-656 1-6 hostile, 7-14 uncertain, 15-20 friendly */
    return natural <= 6 ? "hostile" : (natural <= 14 ? "uncertain" : "friendly");
}

static int reaction_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 004:649 the referee "can also impose advantage or disadvantage on the roll"; 004:653-656
     * 1-6 hostile, 7-14 uncertain, 15-20 friendly. */
    fivey_edge edge;
    int rc = edge_of(a, "adv", "dis", &edge, err);
    if (rc)
        return rc;
    fivey_roll r;
    fivey_roll_check(&r, rng, json_object_get(result, "dice"), 0, edge, 0, 0);
    json_object_set_new(result, "reaction", json_string(fivey_reaction(r.natural)));
    json_object_set_new(result, "natural", json_integer(r.natural));
    rules_result_outcome(result, r.natural, 0, 0, RULES_CMP_GE);
    return 0;
}

static void format_d20s(const json_t *dice, const char *by, rules_str *out)
{
    size_t i;
    json_t *d;
    int first = 1;
    json_array_foreach(dice, i, d)
    {
        const char *b = json_string_value(json_object_get(d, "by"));
        if (by && (!b || strcmp(b, by) != 0))
            continue;
        if (json_integer_value(json_object_get(d, "sides")) != 20)
            continue;
        rules_str_printf(out, json_is_true(json_object_get(d, "kept")) ? "%s%lld" : "%s[%lld]",
                         first ? "d20 " : " ",
                         (long long)json_integer_value(json_object_get(d, "value")));
        first = 0;
    }
}

static void format_terms(const json_t *o, rules_str *out)
{
    rules_str_printf(out, " %+lld", (long long)json_integer_value(json_object_get(o, "bonus")));
    json_t *insp = json_object_get(o, "inspiration");
    if (json_is_integer(insp))
        rules_str_printf(out, " +d6 %lld", (long long)json_integer_value(insp));
}

static void format_check(const json_t *result, rules_str *out)
{
    format_d20s(json_object_get(result, "dice"), NULL, out);
    format_terms(result, out);
    const json_t *mods = json_object_get(json_object_get(result, "params"), "mod");
    if (json_integer_value(mods))
        rules_str_printf(out, " %+lld", (long long)json_integer_value(mods));
    rules_str_printf(out, " = %lld vs DC %lld: %s",
                     (long long)json_integer_value(json_object_get(result, "total")),
                     (long long)json_integer_value(json_object_get(result, "dc")),
                     json_is_true(json_object_get(result, "success")) ? "success" : "failure");
}

static void format_contest(const json_t *result, rules_str *out)
{
    const json_t *dice = json_object_get(result, "dice");
    format_d20s(dice, "actor", out);
    format_terms(result, out);
    rules_str_printf(out, " = %lld vs ",
                     (long long)json_integer_value(json_object_get(result, "total")));
    format_d20s(dice, "opponent", out);
    format_terms(json_object_get(result, "opponent"), out);
    rules_str_printf(out, " = %lld: %s",
                     (long long)json_integer_value(
                         json_object_get(json_object_get(result, "opponent"), "total")),
                     json_string_value(json_object_get(result, "winner")));
}

static void format_cooperate(const json_t *result, rules_str *out)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(result, "rolls"), i, r)
    {
        rules_str_printf(out, "%s", i ? "; " : "");
        format_d20s(json_object_get(result, "dice"), i ? "second" : "first", out);
        format_terms(r, out);
        rules_str_printf(out, " = %lld",
                         (long long)json_integer_value(json_object_get(r, "total")));
    }
    rules_str_printf(out, " vs DC %lld: %s",
                     (long long)json_integer_value(json_object_get(result, "dc")),
                     json_is_true(json_object_get(result, "success")) ? "success" : "failure");
}

static void format_named(const json_t *result, rules_str *out)
{
    rules_format_default(result, out);
    json_t *v = json_object_get(result, "reaction");
    if (json_is_string(v))
        rules_str_printf(out, ": %s", json_string_value(v));
    v = json_object_get(result, "encounter");
    if (json_is_boolean(v))
        rules_str_printf(out, " (%lld-in-20): %s",
                         (long long)json_integer_value(json_object_get(result, "chance")),
                         json_is_true(v) ? "encounter" : "no encounter");
}

#define STAT_PARAM(n, flags, l)                                                                    \
    {                                                                                              \
        n, RULES_PARAM_INT, FIVEY_STAT_MIN, FIVEY_STAT_MAX, 0, flags, l                            \
    }
#define BOOL_PARAM(n, l)                                                                           \
    {                                                                                              \
        n, RULES_PARAM_BOOL, 0, 1, 0, 0, l                                                         \
    }
#define MOD_PARAM(n, l)                                                                            \
    {                                                                                              \
        n, RULES_PARAM_INT, -20, 20, 0, 0, l                                                       \
    }
/* 004:87-92 the ★ ranks are DCs 12..20; lower and higher DCs exist (004:94, 004:742) */
#define DC_PARAM                                                                                   \
    {                                                                                              \
        "dc", RULES_PARAM_INT, 0, 40, 0, RULES_PARAM_REQUIRED,                                     \
            "difficulty class (★ 12, 14, 16, 18, 20)"                                            \
    }

static const rules_param check_params[] = {
    STAT_PARAM("stat", RULES_PARAM_REQUIRED, "stat bonus, 1 to 5"),
    DC_PARAM,
    BOOL_PARAM("skilled", "1: a relevant skill or attunement doubles the stat"),
    BOOL_PARAM("adv", "1: advantage (best of 2d20)"),
    BOOL_PARAM("dis", "1: disadvantage (worst of 2d20)"),
    BOOL_PARAM("inspiration", "1: spend one inspiration d6 (at most one per roll)"),
    MOD_PARAM("mod", "situational modifier"),
    {0},
};

static const rules_param contest_params[] = {
    STAT_PARAM("stat", RULES_PARAM_REQUIRED, "actor's stat"),
    BOOL_PARAM("skilled", "actor skilled"),
    BOOL_PARAM("adv", "actor has advantage"),
    BOOL_PARAM("dis", "actor has disadvantage"),
    BOOL_PARAM("inspiration", "actor spends an inspiration d6"),
    MOD_PARAM("mod", "actor's modifier"),
    STAT_PARAM("opp_stat", RULES_PARAM_REQUIRED, "opponent's stat"),
    BOOL_PARAM("opp_skilled", "opponent skilled"),
    BOOL_PARAM("opp_adv", "opponent has advantage"),
    BOOL_PARAM("opp_dis", "opponent has disadvantage"),
    MOD_PARAM("opp_mod", "opponent's modifier"),
    {0},
};

static const rules_param cooperate_params[] = {
    STAT_PARAM("stat", RULES_PARAM_REQUIRED, "first character's stat"),
    BOOL_PARAM("skilled", "first character skilled"),
    STAT_PARAM("stat2", RULES_PARAM_REQUIRED, "second character's stat"),
    BOOL_PARAM("skilled2", "second character skilled"),
    DC_PARAM,
    BOOL_PARAM("adv", "advantage for both"),
    BOOL_PARAM("dis", "disadvantage for both"),
    {0},
};

static const rules_param xp_params[] = {
    {"dice", RULES_PARAM_INT, 0, 40, 0, RULES_PARAM_REQUIRED, "leftover inspiration dice"},
    {"level", RULES_PARAM_INT, 0, FIVEY_LEVEL_MAX, 0, RULES_PARAM_REQUIRED,
     "character level: dice kept"},
    {0},
};

static const rules_param encounter_params[] = {
    {"chance", RULES_PARAM_INT, 1, 20, 0, RULES_PARAM_REQUIRED,
     "x of x-in-20 (hex travel hours, or the site clock)"},
    {0},
};

static const rules_param reaction_params[] = {
    BOOL_PARAM("adv", "advantage (a friendly bias)"),
    BOOL_PARAM("dis", "disadvantage (a hostile bias)"),
    {0},
};

static const rules_check fivey_checks[] = {
    {"check", "d20 + stat (doubled when skilled) vs DC, met or exceeded (004:83-124)", check_params,
     check_roll, format_check},
    {"contest", "both roll d20 + stat; the highest wins, a tie has no winner (004:108)",
     contest_params, contest_roll, format_contest},
    {"cooperate", "two characters check; one success is enough (004:104)", cooperate_params,
     cooperate_roll, format_cooperate},
    {"xp", "leftover inspiration d6s for XP, keep as many as the level (004:402)", xp_params,
     xp_roll, NULL},
    {"encounter", "random encounter: x-in-20 on a d20 (004:533, 004:547)", encounter_params,
     encounter_roll, format_named},
    {"reaction", "initial NPC reaction: d20 hostile/uncertain/friendly (004:649-656)",
     reaction_params, reaction_roll, format_named},
    {0},
};

/* ---- sheet ---- */

#define STAT_FIELD(n, l, c)                                                                        \
    {                                                                                              \
        n, RULES_FIELD_INT, FIVEY_STAT_MIN, FIVEY_STAT_MAX, 1, 1, l, "Stats", NULL, NULL, c        \
    }
static const rules_field stat_fields[] = {
    STAT_FIELD("cha", "Charisma", "004:81"),
    STAT_FIELD("dex", "Dexterity", "004:81"),
    STAT_FIELD("int", "Intelligence", "004:81"),
    STAT_FIELD("str", "Strength", "004:81"),
    {0},
};

static const rules_field hp_fields[] = {
    {"max", RULES_FIELD_INT, 1, 999, 1, 4, "Hit points", "Hit points", NULL, NULL, "004:363-367"},
    {"damage", RULES_FIELD_INT, 0, 999, 1, 0, "Damage taken (running tally)", "Hit points", NULL,
     NULL, "004:367"},
    {0},
};

static const char *const stat_names[] = {"cha", "dex", "int", "str", NULL};
static const char *const armor_names[] = {"none", "leather", "scale", "chain",
                                          "ring", "plate",   NULL};

static const rules_field weapon_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Weapons", NULL, NULL, NULL},
    {"damage", RULES_FIELD_STRING, 1, 40, 1, 0, "Damage die (d6, d8, d10...)", "Weapons", NULL,
     NULL, "004:436-450"},
    {"stat", RULES_FIELD_ENUM, 0, 0, 1, 0, "Stat (melee str, ranged dex, spells int)", "Weapons",
     stat_names, NULL, "004:680"},
    {"skilled", RULES_FIELD_BOOL, 0, 0, 0, 0, "Proficient (a skill slot)", "Weapons", NULL, NULL,
     "004:122,678"},
    {0},
};

static const char *const spell_names[] = {
    "Attract",  "Charm",          "Feather Fall", "Fire Ball",   "Knock", "Illuminate",
    "Levitate", "Lightning Bolt", "Shroud",       "Turn Undead", NULL};

/* A spell the character carries (004:483 "trapped on parchment, in the form of scrolls or
 * grimoires"), at its level [L] (004:485). */
static const rules_field spell_fields[] = {
    {"name", RULES_FIELD_ENUM, 0, 0, 1, 0, "Spell", "Spells", spell_names, NULL, "004:487-505"},
    {"level", RULES_FIELD_INT, 1, FIVEY_LEVEL_MAX, 0, 1, "Spell level (1 unless a feat says)",
     "Spells", NULL, NULL, "004:485"},
    {"vessel", RULES_FIELD_STRING, 1, 100, 0, 0, "Held in (scroll, book, instrument...)", "Spells",
     NULL, NULL, "004:483"},
    {0},
};

/* Casts before the next rest (reading 12: the book counts no slots). */
static const rules_field slot_fields[] = {
    {"max", RULES_FIELD_INT, 0, 20, 1, 1, "Spell casts per rest", "Spells", NULL, NULL, "004:483"},
    {"used", RULES_FIELD_INT, 0, 20, 1, 0, "Casts used since the last rest", "Spells", NULL, NULL,
     "004:483"},
    {0},
};

static const rules_field fivey_sheet[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Character", NULL, NULL, NULL},
    {"level", RULES_FIELD_INT, 0, FIVEY_LEVEL_MAX, 1, 1, "Level", "Character", NULL, NULL,
     "004:387-393"},
    {"xp", RULES_FIELD_INT, 0, 1000000, 1, 100, "Experience", "Character", NULL, NULL, "004:385"},
    {"origin", RULES_FIELD_STRING, 1, 60, 0, 0, "Origin or background", "Character", NULL, NULL,
     "004:163-167"},
    {"stats", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Stats", "Stats", NULL, stat_fields, "004:81"},
    {"skills", RULES_FIELD_STRINGS, 0, 6, 0, 0, "Skills", "Traits", NULL, NULL, "004:118-124"},
    {"titles", RULES_FIELD_STRINGS, 0, 6, 0, 0, "Titles", "Traits", NULL, NULL, "004:126-134"},
    {"feats", RULES_FIELD_STRINGS, 0, 6, 0, 0, "Feats", "Traits", NULL, NULL, "004:136-140"},
    {"attuned", RULES_FIELD_STRING, 1, 100, 0, 0, "Attuned item", "Traits", NULL, NULL, "004:122"},
    {"hp", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Hit points", "Hit points", NULL, hp_fields,
     "004:363-367"},
    {"inspiration", RULES_FIELD_INT, 0, 99, 1, 0, "Inspiration dice (d6)", "Inspiration", NULL,
     NULL, "004:142-150"},
    {"armor", RULES_FIELD_ENUM, 0, 0, 0, 0, "Armor", "Equipment", armor_names, NULL, "004:412-421"},
    {"shield", RULES_FIELD_BOOL, 0, 0, 0, 0, "Shield", "Equipment", NULL, NULL, "004:422"},
    {"weapons", RULES_FIELD_LIST, 0, 10, 0, 0, "Weapons", "Weapons", NULL, weapon_fields,
     "004:428-452"},
    {"spells", RULES_FIELD_LIST, 0, 10, 0, 0, "Spells", "Spells", NULL, spell_fields,
     "004:481-505"},
    {"spell_slots", RULES_FIELD_OBJECT, 0, 0, 0, 0, "Spell casts", "Spells", NULL, slot_fields,
     "004:483"},
    {"inventory", RULES_FIELD_STRINGS, 0, 20, 0, 0, "Inventory (20 slots)", "Equipment", NULL, NULL,
     "004:351"},
    {"crowns", RULES_FIELD_INT, 0, 10000000, 0, 0, "Crowns", "Equipment", NULL, NULL, "004:341"},
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

static int in_strings(const json_t *arr, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (strcmp(json_string_value(v), s) == 0) return 1;
    return 0;
}

static int fivey_validate(const json_t *sheet, tb_err *err)
{
    int level = geti(sheet, "level", NULL), xp = geti(sheet, "xp", NULL);
    /* 004:385 "Level 1 characters start with 100 experience points"; the table 004:387-393 */
    if (xp < fivey_level_xp(level))
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'xp' (%d) is below the %d XP that level %d needs (004:387-393)", xp,
                       fivey_level_xp(level), level);
    /* 004:81 +1 in each of 4 stats; 004:165 the level-0 template +1; 004:169 "+6" at level 1;
     * 004:399 +1 per level: at most 5 + level in all (reading 7). */
    int total = 0;
    for (const char *const *s = stat_names; *s; s++)
        total += geti(sheet, "stats", *s);
    if (total > 5 + level)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'stats' totals +%d; a level %d character has at most +%d "
                       "(004:165-169, 004:399)",
                       total, level, 5 + level);
    /* 004:165 a template gives 1 skill, 1 title, 1 feat; 004:157 the level 1 template another;
     * 004:400 "+1 slot each for a new skill, title, and feat" per level: 1 + level slots. */
    static const char *const slots[] = {"skills", "titles", "feats"};
    for (int i = 0; i < 3; i++) {
        size_t n = json_array_size(json_object_get(sheet, slots[i]));
        if (n > (size_t)(1 + level))
            return tb_fail(err, TB_BAD_REQUEST,
                           "field '%s' has %zu entries; a level %d character has %d slots "
                           "(004:165, 004:400)",
                           slots[i], n, level, 1 + level);
    }
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(sheet, "weapons"), i, w)
    {
        rules_dice_expr *e = NULL;
        tb_err perr;
        if (rules_dice_parse(json_string_value(json_object_get(w, "damage")), &e, &perr))
            return tb_fail(err, TB_BAD_REQUEST, "field 'weapons[%zu].damage': %s", i, perr.msg);
        rules_dice_free(e);
    }
    /* Spells and their casts (reading 12): a sheet listing spells says how many casts it has;
     * no more casts used than it has. */
    const json_t *casts = json_object_get(sheet, "spell_slots");
    if (json_array_size(json_object_get(sheet, "spells")) > 0 && !json_is_object(casts))
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'spell_slots' is needed when the sheet lists spells: how many "
                       "casts before a rest (004:483)");
    if (geti(casts, "used", NULL) > geti(casts, "max", NULL))
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'spell_slots.used' (%d) is more than 'spell_slots.max' (%d)",
                       geti(casts, "used", NULL), geti(casts, "max", NULL));
    /* 004:122 attuned "to one of their items on hand" */
    const char *att = json_string_value(json_object_get(sheet, "attuned"));
    if (att) {
        int found = in_strings(json_object_get(sheet, "inventory"), att);
        json_array_foreach(json_object_get(sheet, "weapons"), i, w) found |=
            strcmp(json_string_value(json_object_get(w, "name")), att) == 0;
        if (!found)
            return tb_fail(err, TB_BAD_REQUEST,
                           "field 'attuned': '%.60s' is not among the weapons or inventory "
                           "(004:122)",
                           att);
    }
    return 0;
}

static json_t *fivey_derive(const json_t *sheet)
{
    json_t *d = json_object();
    int level = geti(sheet, "level", NULL), xp = geti(sheet, "xp", NULL);
    int dex = geti(sheet, "stats", "dex"), str = geti(sheet, "stats", "str");
    const char *armor = json_string_value(json_object_get(sheet, "armor"));
    int shield = json_is_true(json_object_get(sheet, "shield"));
    json_object_set_new(d, "defense_class", json_integer(fivey_defense_class(dex, armor, shield)));
    /* 004:379 base 6 paces; 004:414 -2 below the armor's strength; 004:355 encumbrance option
     * (over 10 slots) is reported, not applied (reading 8). */
    int move = FIVEY_BASE_MOVE;
    if (str < fivey_armor_str(armor))
        move -= 2;
    json_object_set_new(d, "movement", json_integer(move));
    size_t items = json_array_size(json_object_get(sheet, "inventory"));
    json_object_set_new(d, "encumbered", json_boolean(items > 10));
    /* 004:112 passive scores: 10 + bonus; skilled: 10 + doubled bonus */
    json_t *passive = json_object(), *passive_sk = json_object();
    for (const char *const *s = stat_names; *s; s++) {
        json_object_set_new(passive, *s, json_integer(fivey_passive(geti(sheet, "stats", *s))));
        json_object_set_new(passive_sk, *s,
                            json_integer(fivey_passive(fivey_bonus(geti(sheet, "stats", *s), 1))));
    }
    json_object_set_new(d, "passive", passive);
    json_object_set_new(d, "passive_skilled", passive_sk);
    int hp = geti(sheet, "hp", "max"), dmg = geti(sheet, "hp", "damage");
    json_object_set_new(d, "hp_left", json_integer(hp - dmg));
    /* 004:367 "Once their total damage accumulated equals or exceeds their hit points, they
     * perish" (004:682 says "exceeds": reading 5) */
    json_object_set_new(d, "dead", json_boolean(dmg >= hp));
    /* 004:553 "usually, 1d6 plus your level"; 004:337 Battle-Hardened "a base healing rate of
     * 1d8 instead of 1d6" */
    int d8 = 0;
    size_t fi;
    json_t *feat;
    json_array_foreach(json_object_get(sheet, "feats"), fi, feat) d8 |=
        json_is_string(feat) && strcasecmp(json_string_value(feat), "Battle-Hardened") == 0;
    char heal[16];
    snprintf(heal, sizeof heal, "1d%d+%d", d8 ? 8 : 6, level);
    json_object_set_new(d, "healing_rate", json_string(heal));
    /* 004:144 inspiration dice at the start of an adventure */
    json_object_set_new(d, "inspiration_start", json_integer(level));
    json_object_set_new(d, "trait_slots", json_integer(1 + level));
    int next = level < FIVEY_LEVEL_MAX ? fivey_level_xp(level + 1) : -1;
    json_object_set_new(d, "next_level_xp", next < 0 ? json_null() : json_integer(next));
    json_object_set_new(d, "level_up_due", json_boolean(next >= 0 && xp >= next));
    /* 004:678 attack: d20 + stat, doubled when proficient or attuned; damage die + stat (not
     * doubled) */
    const char *att = json_string_value(json_object_get(sheet, "attuned"));
    json_t *weapons = json_array();
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(sheet, "weapons"), i, w)
    {
        const char *name = json_string_value(json_object_get(w, "name"));
        int stat = geti(sheet, "stats", json_string_value(json_object_get(w, "stat")));
        int skilled =
            json_is_true(json_object_get(w, "skilled")) || (att && strcmp(att, name) == 0);
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(name));
        json_object_set_new(o, "attack_bonus", json_integer(fivey_bonus(stat, skilled)));
        char dmg_text[64];
        snprintf(dmg_text, sizeof dmg_text, "%s+%d",
                 json_string_value(json_object_get(w, "damage")), stat);
        json_object_set_new(o, "damage", json_string(dmg_text));
        json_array_append_new(weapons, o);
    }
    json_object_set_new(d, "weapons", weapons);
    /* 004:680 spells use intelligence; the DC of a save against them is 10 + it (reading 12).
     * A sheet with no spells has none of these. */
    if (json_array_size(json_object_get(sheet, "spells")) > 0) {
        int in = geti(sheet, "stats", "int");
        const json_t *slots = json_object_get(sheet, "spell_slots");
        json_object_set_new(d, "spell_attack", json_integer(in));
        json_object_set_new(d, "spell_dc", json_integer(fivey_spell_dc(in)));
        json_object_set_new(d, "spell_slots_left",
                            json_integer(geti(slots, "max", NULL) - geti(slots, "used", NULL)));
    }
    return d;
}

/* The encounter modules: their one registration. */
extern const rules_module rules_module_fivey_combat, rules_module_fivey_social,
    rules_module_fivey_between;
static const rules_module *const fivey_modules[] = {
    &rules_module_fivey_combat, &rules_module_fivey_social, &rules_module_fivey_between, NULL};

/* The book gives no length for a combat round (004:668-672 "another round of combat ensues");
 * reading (RULES.md): 10 seconds. */
static const rules_clock_stage fivey_clock[] = {{"round", "Round", 10, "004:668"}, {0}};

const rules_system rules_system_fivey = {
    .id = "fivey",
    .name = "FIVEY",
    .rulebook = "004_110cc4af3ff93059.txt",
    .sheet = fivey_sheet,
    .validate = fivey_validate,
    .derive = fivey_derive,
    .checks = fivey_checks,
    .modules = fivey_modules,
    .phrases = fivey_enc_phrases,
    .summary =
        "Fantasy after the fifth edition: stat bonuses of 1 to 5, a d20, two actions a turn, "
        "spells and morale",
    .clock = fivey_clock,
};
