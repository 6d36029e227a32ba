/*
 * cot.c — City of Thieves (000_d2a475e9ec148dd1.txt, cited 000:LINE): the keep-pool d6 roll,
 * opposed rolls, guard scores, and the character sheet. Readings of unclear passages are listed
 * in rules/RULES.md, "## cot".
 */
#include "cot.h"
#include "cot_enc.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "encounter.h"

/* ---- resolution ---- */

int cot_pool_check(const cot_pool_spec *spec, tb_err *err)
{
    int rolled = spec->skill + spec->ability + spec->bonus;
    if (rolled < 1)
        return tb_fail(err, TB_BAD_REQUEST,
                       "cot: skill + ability + bonus = %d dice; at least 1 die must be rolled",
                       rolled);
    if (rolled > RULES_POOL_MAX)
        return tb_fail(err, TB_BAD_REQUEST,
                       "cot: skill + ability + bonus = %d dice; at most %d can be rolled", rolled,
                       RULES_POOL_MAX);
    return 0;
}

int cot_pool_roll(const cot_pool_spec *spec, rules_rng *rng, cot_roll *out, tb_err *err)
{
    /* 000:9 "roll a number of six-sided dice equal to the relevant skill plus the connected
     * ability and keep a number of those dice equal to the ability"; 000:11 factors "add or
     * subtract from the dice pool"; 000:27 bonuses are written +XkY (X rolled, Y kept). */
    int rolled = spec->skill + spec->ability + spec->bonus;
    int keep = spec->ability + spec->kept_bonus;
    int bad = cot_pool_check(spec, err);
    if (bad)
        return bad;
    /* Keeping more than were rolled keeps them all (a -XkO penalty can leave fewer dice than the
     * ability: RULES.md, "cot", reading 2). */
    int rc = rules_pool_roll(&out->pool, rng, rolled, 6, keep, RULES_KEEP_HIGHEST, err);
    if (rc)
        return rc;
    out->total = out->pool.sum_kept;
    /* 000:9 "Rolling all 1s is a Catastrophe": every die rolled, kept or not. */
    out->catastrophe = rules_pool_count(&out->pool, 1) == out->pool.n;
    return 0;
}

int cot_roll_succeeds(const cot_roll *r, int difficulty)
{
    /* 000:9 "compare it to the difficulty"; met or exceeded succeeds (issue 4; 000:207 "meets or
     * exceeds"); a Catastrophe has "effects beyond failing" (000:9), so it always fails. */
    return !r->catastrophe && rules_meets(r->total, difficulty, RULES_CMP_GE);
}

int cot_guard_score(int rolled, int kept)
{
    /* 000:196 "Score= 3x Kept Dice +(1 per additional rolled die)" */
    return 3 * kept + (rolled - kept);
}

/* ---- Loyalties ---- */

int cot_loyalty_alter(json_t *loyalties, int n, const char *to, int prime, const char *who,
                      int *was_prime, tb_err *err)
{
    json_t *l = n >= 1 ? json_array_get(loyalties, (size_t)n - 1) : NULL;
    if (was_prime)
        *was_prime = 0;
    if (!l)
        return tb_fail(err, TB_RULE, "%s has no Loyalty %d", who, n);
    if (!to == !prime)
        return tb_fail(err, TB_BAD_REQUEST,
                       "say what Loyalty %d becomes (to: \"Kind: Target\") or swap it with the "
                       "Prime (prime: true), one of the two",
                       n);
    if (prime) {
        if (json_is_true(json_object_get(l, "prime")))
            return tb_fail(err, TB_RULE, "Loyalty %d already is %s's Prime", n, who);
        size_t i;
        json_t *o;
        json_array_foreach(loyalties, i, o) if (json_is_true(json_object_get(o, "prime")))
        {
            json_object_del(o, "prime");
            if (was_prime)
                *was_prime = (int)i + 1;
        }
        json_object_set_new(l, "prime", json_true());
        return 0;
    }
    /* 000:227-235 "short descriptions, focusing on the person or idea and the type of
     * relationship": "Kind: Target", each part as long as the sheet allows */
    const char *colon = strchr(to, ':'), *t = colon ? colon + 1 : NULL;
    while (*to == ' ')
        to++;
    size_t kind = colon > to ? (size_t)(colon - to) : 0;
    while (kind > 0 && to[kind - 1] == ' ')
        kind--;
    while (t && *t == ' ')
        t++;
    size_t tlen = t ? strlen(t) : 0;
    while (tlen > 0 && t[tlen - 1] == ' ')
        tlen--;
    if (!colon || kind == 0 || tlen == 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "to: a Loyalty reads \"Kind: Target\", like \"Desire: Knowledge\"");
    if (kind > 40 || tlen > 100)
        return tb_fail(err, TB_BAD_REQUEST,
                       "to: the kind holds at most 40 characters and the person or idea at most "
                       "100");
    /* (after the shape: a malformed `to` is a bad request whichever Loyalty it names)
     * 000:237 "changing the regular Loyalties to something different, or switching one of
     * their existing Loyalites with the Prime": the Prime is swapped, never rewritten */
    if (json_is_true(json_object_get(l, "prime")))
        return tb_fail(err, TB_RULE,
                       "Loyalty %d is %s's Prime: the Prime is not changed, only swapped with "
                       "another (000:237)",
                       n, who);
    json_object_set_new(l, "kind", json_stringn(to, kind));
    json_object_set_new(l, "target", json_stringn(t, tlen));
    return 0;
}

void cot_loyalty_text(const json_t *l, char *out, size_t n)
{
    const char *kind = json_string_value(json_object_get(l, "kind"));
    const char *target = json_string_value(json_object_get(l, "target"));
    snprintf(out, n, "%s: %s%s", kind ? kind : "?", target ? target : "?",
             json_is_true(json_object_get(l, "prime")) ? " (Prime)" : "");
}

/* ---- checks ---- */

static void put_roll(json_t *result, const cot_roll *r, const char *by)
{
    json_t *dice = json_object_get(result, "dice");
    for (int i = 0; i < r->pool.n; i++) {
        rules_result_die(dice, 6, r->pool.value[i], r->pool.kept[i]);
        if (by)
            json_object_set_new(json_array_get(dice, json_array_size(dice) - 1), "by",
                                json_string(by));
    }
}

static void put_pool_fields(json_t *o, const cot_roll *r)
{
    json_object_set_new(o, "rolled", json_integer(r->pool.n));
    json_object_set_new(o, "keep", json_integer(r->pool.keep));
    json_object_set_new(o, "kept", rules_pool_kept_json(&r->pool));
    json_object_set_new(o, "catastrophe", json_boolean(r->catastrophe));
}

static int pool_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    cot_pool_spec spec = {rules_arg_int(a, "skill"), rules_arg_int(a, "ability"),
                          rules_arg_int(a, "bonus"), rules_arg_int(a, "kept_bonus")};
    cot_roll r;
    int rc = cot_pool_roll(&spec, rng, &r, err);
    if (rc)
        return rc;
    int difficulty = rules_arg_int(a, "difficulty"); /* default 9: 000:13 */
    put_roll(result, &r, NULL);
    json_object_set_new(result, "total", json_integer(r.total));
    json_object_set_new(result, "success", json_boolean(cot_roll_succeeds(&r, difficulty)));
    json_object_set_new(result, "difficulty", json_integer(difficulty));
    put_pool_fields(result, &r);
    return 0;
}

static int opposed_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    /* 000:13 "During an opposed roll, the opponent rolls first and the result of their roll
     * determines the difficulty of the second roll." */
    cot_pool_spec opp = {rules_arg_int(a, "opp_skill"), rules_arg_int(a, "opp_ability"),
                         rules_arg_int(a, "opp_bonus"), rules_arg_int(a, "opp_kept_bonus")};
    cot_pool_spec act = {rules_arg_int(a, "skill"), rules_arg_int(a, "ability"),
                         rules_arg_int(a, "bonus"), rules_arg_int(a, "kept_bonus")};
    cot_roll ro, ra;
    int rc = cot_pool_roll(&opp, rng, &ro, err);
    if (!rc)
        rc = cot_pool_roll(&act, rng, &ra, err);
    if (rc)
        return rc;
    put_roll(result, &ro, "opponent");
    put_roll(result, &ra, "actor");
    json_object_set_new(result, "total", json_integer(ra.total));
    json_object_set_new(result, "success", json_boolean(cot_roll_succeeds(&ra, ro.total)));
    json_object_set_new(result, "difficulty", json_integer(ro.total));
    put_pool_fields(result, &ra);
    json_t *o = json_object();
    json_object_set_new(o, "total", json_integer(ro.total));
    put_pool_fields(o, &ro);
    json_object_set_new(result, "opponent", o);
    return 0;
}

/* "5k2 → 6 5 [4 2 1] = 11": kept high to low, then the dropped dice in brackets. */
static void format_pool(const json_t *o, const json_t *dice, const char *by, rules_str *out)
{
    int kept[RULES_POOL_MAX], dropped[RULES_POOL_MAX], nk = 0, nd = 0;
    size_t i;
    json_t *d;
    json_array_foreach(dice, i, d)
    {
        const char *b = json_string_value(json_object_get(d, "by"));
        if (by && (!b || strcmp(b, by) != 0))
            continue;
        int v = (int)json_integer_value(json_object_get(d, "value"));
        if (json_is_true(json_object_get(d, "kept")) && nk < RULES_POOL_MAX)
            kept[nk++] = v;
        else if (nd < RULES_POOL_MAX)
            dropped[nd++] = v;
    }
    for (int k = 0; k < 2; k++) {
        int *v = k ? dropped : kept, n = k ? nd : nk;
        for (int x = 1; x < n; x++)
            for (int y = x; y > 0 && v[y] > v[y - 1]; y--) {
                int t = v[y];
                v[y] = v[y - 1];
                v[y - 1] = t;
            }
    }
    rules_str_printf(out, "%lldk%lld →",
                     (long long)json_integer_value(json_object_get(o, "rolled")),
                     (long long)json_integer_value(json_object_get(o, "keep")));
    for (int x = 0; x < nk; x++)
        rules_str_printf(out, " %d", kept[x]);
    for (int x = 0; x < nd; x++)
        rules_str_printf(out, "%s%d%s", x ? " " : " [", dropped[x], x == nd - 1 ? "]" : "");
    rules_str_printf(out, " = %lld", (long long)json_integer_value(json_object_get(o, "total")));
}

static void format_outcome(const json_t *result, rules_str *out)
{
    rules_str_printf(
        out, " vs %lld: %s", (long long)json_integer_value(json_object_get(result, "difficulty")),
        json_is_true(json_object_get(result, "catastrophe"))
            ? "catastrophe"
            : (json_is_true(json_object_get(result, "success")) ? "success" : "failure"));
}

static void pool_format(const json_t *result, rules_str *out)
{
    format_pool(result, json_object_get(result, "dice"), NULL, out);
    format_outcome(result, out);
}

static void opposed_format(const json_t *result, rules_str *out)
{
    const json_t *dice = json_object_get(result, "dice");
    const json_t *opp = json_object_get(result, "opponent");
    rules_str_printf(out, "opponent ");
    format_pool(opp, dice, "opponent", out);
    if (json_is_true(json_object_get(opp, "catastrophe")))
        rules_str_printf(out, " (catastrophe)");
    rules_str_printf(out, "; ");
    format_pool(result, dice, "actor", out);
    format_outcome(result, out);
}

/* Ranges: the rulebook gives none for abilities and skills (RULES.md, "cot", reading 1). */
#define SKILL_PARAM(n, l)                                                                          \
    {                                                                                              \
        n, RULES_PARAM_INT, 0, 10, 0, RULES_PARAM_REQUIRED, l                                      \
    }
#define ABILITY_PARAM(n, l)                                                                        \
    {                                                                                              \
        n, RULES_PARAM_INT, 1, 10, 0, RULES_PARAM_REQUIRED, l                                      \
    }
#define BONUS_PARAM(n, l)                                                                          \
    {                                                                                              \
        n, RULES_PARAM_INT, -20, 20, 0, 0, l                                                       \
    }
#define KEPT_PARAM(n, l)                                                                           \
    {                                                                                              \
        n, RULES_PARAM_INT, 0, 10, 0, 0, l                                                         \
    }

static const rules_param pool_params[] = {
    SKILL_PARAM("skill", "skill rank"),
    ABILITY_PARAM("ability", "ability rank: dice kept"),
    BONUS_PARAM("bonus", "Bonus dice: rolled, none kept (+1k0 each; negative: fewer)"),
    KEPT_PARAM("kept_bonus", "Extra dice kept"),
    {"difficulty", RULES_PARAM_INT, 0, 200, COT_DIFFICULTY_BASE, 0, "difficulty (default 9)"},
    {0},
};

static const rules_param opposed_params[] = {
    SKILL_PARAM("skill", "actor's skill rank"),
    ABILITY_PARAM("ability", "actor's ability rank"),
    BONUS_PARAM("bonus", "Actor's bonus dice (+1k0 each)"),
    KEPT_PARAM("kept_bonus", "Actor's extra dice kept"),
    SKILL_PARAM("opp_skill", "opponent's skill rank"),
    ABILITY_PARAM("opp_ability", "opponent's ability rank"),
    BONUS_PARAM("opp_bonus", "Opponent's bonus dice (+1k0 each)"),
    KEPT_PARAM("opp_kept_bonus", "Opponent's extra dice kept"),
    {0},
};

static const rules_check cot_checks[] = {
    {"pool", "skill+ability d6, keep ability highest, vs difficulty (000:9-13)", pool_params,
     pool_roll, pool_format},
    {"opposed", "the opponent rolls first; their total is the actor's difficulty (000:13)",
     opposed_params, opposed_roll, opposed_format},
    {0},
};

/* ---- sheet ---- */

static const rules_field abilities_fields[] = {
    /* 000:44, 58, 71, 85 */
    {"muscle", RULES_FIELD_INT, 1, 10, 1, 2, "Muscle", "Abilities", NULL, NULL, "000:44"},
    {"fingers", RULES_FIELD_INT, 1, 10, 1, 2, "Fingers", "Abilities", NULL, NULL, "000:58"},
    {"brains", RULES_FIELD_INT, 1, 10, 1, 2, "Brains", "Abilities", NULL, NULL, "000:71"},
    {"it", RULES_FIELD_INT, 1, 10, 1, 2, "It", "Abilities", NULL, NULL, "000:85"},
    {0},
};

#define SKILL(n, l, g, c)                                                                          \
    {                                                                                              \
        n, RULES_FIELD_INT, 0, 10, 0, 0, l, g, NULL, NULL, c                                       \
    }
static const rules_field skills_fields[] = {
    SKILL("shooting", "Shooting", "Muscle", "000:46"),
    SKILL("hand_to_hand", "Hand to Hand", "Muscle", "000:48"),
    SKILL("athletics", "Athletics", "Muscle", "000:50"),
    SKILL("intimidate", "Intimidate", "Muscle", "000:52"),
    SKILL("resist", "Resist", "Muscle", "000:54"),
    SKILL("explosives", "Explosives", "Muscle", "000:56"),
    SKILL("driving", "Driving", "Fingers", "000:60"),
    SKILL("cat_burglary", "Cat Burglary", "Fingers", "000:61"),
    SKILL("palming", "Palming", "Fingers", "000:63"),
    SKILL("sneak", "Sneak", "Fingers", "000:65"),
    SKILL("lockpicking", "Lockpicking", "Fingers", "000:67"),
    SKILL("build", "Build", "Fingers", "000:69"),
    SKILL("mysticism", "Mysticism", "Brains", "000:73"),
    SKILL("planning", "Planning", "Brains", "000:75"),
    SKILL("lookout", "Lookout", "Brains", "000:77"),
    SKILL("safecracking", "Safecracking", "Brains", "000:79"),
    SKILL("appraisal", "Appraisal", "Brains", "000:81"),
    SKILL("forgery", "Forgery", "Brains", "000:83"),
    SKILL("connections", "Connections", "It", "000:87"),
    SKILL("size_up", "Size Up", "It", "000:89"),
    SKILL("con", "Con", "It", "000:91"),
    SKILL("impress", "Impress", "It", "000:92"),
    SKILL("manipulate", "Manipulate", "It", "000:94"),
    SKILL("convince", "Convince", "It", "000:96"),
    {0},
};

static const rules_field loyalty_fields[] = {
    /* 000:227-235: "short descriptions, focusing on the person or idea and the type of
     * relationship", e.g. "Hatred: Germans". */
    {"kind", RULES_FIELD_STRING, 1, 40, 1, 0, "Relationship (Hatred, Devoted, Desire...)",
     "Loyalties", NULL, NULL, "000:227"},
    {"target", RULES_FIELD_STRING, 1, 100, 1, 0, "Person or idea", "Loyalties", NULL, NULL,
     "000:227"},
    {"prime", RULES_FIELD_BOOL, 0, 0, 0, 0, "Prime Loyalty", "Loyalties", NULL, NULL, "000:227"},
    {0},
};

static const char *const gear_kinds[] = {"weapon", "armour", "vehicle", "tool", NULL};

static const rules_field gear_fields[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Gear", NULL, NULL, NULL},
    {"kind", RULES_FIELD_ENUM, 0, 0, 1, 0, "Kind", "Gear", gear_kinds, NULL, "000:102,123,140"},
    /* 000:102 "the bonus from any wielded weapon", 000:123 "armour bonuses", 000:167 "Vehicle
     * grants a weapon bonus": read as +Bk0 dice (RULES.md, "cot", reading 5). */
    {"bonus", RULES_FIELD_INT, 0, 10, 0, 0, "Bonus dice (+1k0 each)", "Gear", NULL, NULL,
     "000:102"},
    {"blunt", RULES_FIELD_BOOL, 0, 0, 0, 0, "Blunt tag (Subdue, not Murder)", "Gear", NULL, NULL,
     "000:102"},
    {"speed", RULES_FIELD_INT, 0, 20, 0, 0, "Speed rating (vehicles)", "Gear", NULL, NULL,
     "000:140"},
    {"body", RULES_FIELD_INT, 0, 100, 0, 0, "Body Score (vehicles)", "Gear", NULL, NULL, "000:151"},
    {0},
};

static const rules_field cot_sheet[] = {
    {"name", RULES_FIELD_STRING, 1, 100, 1, 0, "Name", "Character", NULL, NULL, NULL},
    {"abilities", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Abilities", "Abilities", NULL, abilities_fields,
     "000:42"},
    {"skills", RULES_FIELD_OBJECT, 0, 0, 1, 0, "Skills (missing = 0)", "Skills", NULL,
     skills_fields, "000:42-96"},
    {"loyalties", RULES_FIELD_LIST, 0, 4, 0, 0, "Loyalties (at most 4, one Prime)", "Loyalties",
     NULL, loyalty_fields, "000:227"},
    {"reputation", RULES_FIELD_INT, 0, 1000, 0, 0, "Reputation", "Crew", NULL, NULL, "000:203"},
    {"foresight", RULES_FIELD_INT, 0, 40, 0, 0, "Foresight (at most Brains+Planning)", "Crew", NULL,
     NULL, "000:213-215"},
    /* issue 16: sheets saved before these fields existed have neither; absent reads 0 */
    {"heat", RULES_FIELD_INT, 0, 1000, 0, 0, "Heat (a failed stakeout raises it)", "Crew", NULL,
     NULL, "000:205"},
    {"resources", RULES_FIELD_INT, 0, 100000, 0, 0, "Resources", "Crew", NULL, NULL, "000:220"},
    {"speed", RULES_FIELD_INT, 0, 20, 0, 0, "Speed rating (tech or magic)", "Character", NULL, NULL,
     "000:140"},
    {"wounded", RULES_FIELD_BOOL, 0, 0, 0, 0, "Wounded", "Condition", NULL, NULL, "000:135"},
    {"recovery_days", RULES_FIELD_INT, 0, 1000, 0, 0, "Days until the wound heals", "Condition",
     NULL, NULL, "000:135"},
    /* 000:40 "A character may only take one Focus Round per session": the encounter sets it,
     * the GM clears it when a new session starts. */
    {"focus_used", RULES_FIELD_BOOL, 0, 0, 0, 0, "Focus Round taken this session", "Crew", NULL,
     NULL, "000:40"},
    {"gear", RULES_FIELD_LIST, 0, 50, 0, 0, "Gear", "Gear", NULL, gear_fields, "000:102"},
    {"notes", RULES_FIELD_STRING, 0, 4000, 0, 0, "Notes", "Character", NULL, NULL, NULL},
    {0},
};

static int ability_of(const json_t *sheet, const char *name)
{
    return (int)json_integer_value(json_object_get(json_object_get(sheet, "abilities"), name));
}

/* Missing skills are 0 (an untrained character writes none down). */
static int skill_of(const json_t *sheet, const char *name)
{
    return (int)json_integer_value(json_object_get(json_object_get(sheet, "skills"), name));
}

static int cot_validate(const json_t *sheet, tb_err *err)
{
    /* 000:227 "a maximum of 4 Loyalties, one of which is their Prime Loyalty" */
    json_t *loy = json_object_get(sheet, "loyalties");
    size_t n = json_array_size(loy), primes = 0, i;
    json_t *l;
    json_array_foreach(loy, i, l) primes += json_is_true(json_object_get(l, "prime"));
    if (n > 0 && primes != 1)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'loyalties' must have exactly one Prime Loyalty (has %zu) "
                       "(000:227)",
                       primes);
    /* 000:215 "a pool of Foresight equal to their Brains+Planning" */
    int fmax = ability_of(sheet, "brains") + skill_of(sheet, "planning");
    json_t *fs = json_object_get(sheet, "foresight");
    if (fs && json_integer_value(fs) > fmax)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'foresight' must be at most Brains+Planning = %d (got %lld) "
                       "(000:215)",
                       fmax, (long long)json_integer_value(fs));
    /* 000:135 a Cover of 0 makes one wounded "and any leftover damage is the number of days" */
    json_t *rd = json_object_get(sheet, "recovery_days");
    if (rd && json_integer_value(rd) > 0 && !json_is_true(json_object_get(sheet, "wounded")))
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'recovery_days' needs 'wounded': true (000:135)");
    /* speed/body belong to vehicles (000:140, 000:151) */
    json_t *gear = json_object_get(sheet, "gear"), *g;
    json_array_foreach(gear, i, g)
    {
        const char *kind = json_string_value(json_object_get(g, "kind"));
        if (strcmp(kind, "vehicle") != 0 &&
            (json_object_get(g, "speed") || json_object_get(g, "body")))
            return tb_fail(err, TB_BAD_REQUEST,
                           "field 'gear[%zu]': only a vehicle has speed or body (000:140,151)", i);
    }
    return 0;
}

static json_t *pool_json(int skill, int ability, int bonus, const char *pool)
{
    json_t *o = json_object();
    json_object_set_new(o, "pool", json_string(pool));
    json_object_set_new(o, "skill", json_integer(skill));
    json_object_set_new(o, "ability", json_integer(ability));
    json_object_set_new(o, "bonus", json_integer(bonus));
    json_object_set_new(o, "rolled", json_integer(skill + ability + bonus));
    json_object_set_new(o, "keep", json_integer(ability));
    return o;
}

static json_t *cot_derive(const json_t *sheet)
{
    int muscle = ability_of(sheet, "muscle"), fingers = ability_of(sheet, "fingers");
    int brains = ability_of(sheet, "brains"), it = ability_of(sheet, "it");
    int armour = 0;
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(sheet, "gear"), i,
                       g) if (strcmp(json_string_value(json_object_get(g, "kind")), "armour") == 0)
        armour += (int)json_integer_value(json_object_get(g, "bonus"));

    json_t *d = json_object();
    /* 000:197 Awareness: Brains + Lookout pool; 000:198 Training: Muscle + Resist pool; the
     * score is 3 x kept + 1 per additional rolled die (000:196). */
    json_object_set_new(d, "awareness",
                        json_integer(cot_guard_score(brains + skill_of(sheet, "lookout"), brains)));
    json_object_set_new(d, "training",
                        json_integer(cot_guard_score(muscle + skill_of(sheet, "resist"), muscle)));
    json_object_set_new(d, "foresight_max", json_integer(brains + skill_of(sheet, "planning")));
    /* the Crew's numbers a sheet of an older version lacks read 0 (000:203-220) */
    static const char *const CREW[] = {"reputation", "heat", "foresight", "resources", NULL};
    json_t *crew = json_object();
    for (const char *const *k = CREW; *k; k++)
        json_object_set_new(crew, *k,
                            json_integer((int)json_integer_value(json_object_get(sheet, *k))));
    json_object_set_new(d, "crew", crew);
    /* 000:33-36 initiative pools per stage */
    json_t *ini = json_object();
    json_object_set_new(ini, "heist",
                        pool_json(skill_of(sheet, "planning"), brains, 0, "Brains+Planning"));
    json_object_set_new(ini, "prep",
                        pool_json(skill_of(sheet, "planning"), brains, 0, "Brains+Planning"));
    json_object_set_new(ini, "social", pool_json(skill_of(sheet, "size_up"), it, 0, "It+Size Up"));
    json_object_set_new(ini, "violence",
                        pool_json(skill_of(sheet, "athletics"), muscle, 0, "Muscle+Athletics"));
    json_object_set_new(ini, "foot_chase",
                        pool_json(skill_of(sheet, "athletics"), muscle, 0, "Muscle+Athletics"));
    json_object_set_new(ini, "vehicle_chase",
                        pool_json(skill_of(sheet, "driving"), fingers, 0, "Fingers+Driving"));
    json_object_set_new(d, "initiative", ini);
    /* 000:123 "rolls Resist with any armour bonuses, and records the number as their Cover" */
    json_object_set_new(d, "cover",
                        pool_json(skill_of(sheet, "resist"), muscle, armour, "Muscle+Resist"));
    return d;
}

/* The encounter modules, one a file in rules/cot/ (cot_enc.h): their one registration. */
static const rules_module *const cot_modules[] = {
    &rules_module_cot_initiative, &rules_module_cot_warfare, &rules_module_cot_heist,
    &rules_module_cot_chase,      &rules_module_cot_social,  NULL};

/* 000:17-22 "the stages are listed below, along with how long a round of that kind of stage
 * lasts": a scene's stage word (/enc/stage) first, else its module. The Action stage covers
 * violence and both chases (000:35-36 roll their initiative; a chase is action at the table). */
#define COT_PREP "prep", "Prep", 24L * 60 * 60, "000:19"
#define COT_SOCIAL "social_call", "Social Call", 10L * 60, "000:20"
#define COT_HEIST "heist", "Heist", 5L * 60, "000:21"
#define COT_ACTION "action", "Action", 60L, "000:22"
/* clang-format off */
static const rules_clock_stage cot_clock[] = {
    {COT_PREP, NULL, "prep"},
    {COT_SOCIAL, NULL, "social"},
    {COT_HEIST, NULL, "heist"},
    {COT_ACTION, NULL, "violence"},
    {COT_ACTION, NULL, "foot_chase"},
    {COT_ACTION, NULL, "vehicle_chase"},
    {COT_SOCIAL, "cot.social", NULL},
    {COT_HEIST, "cot.heist", NULL},
    {COT_ACTION, NULL, NULL},
    {0},
};
/* clang-format on */

/* 000:237 "A Character may alter one of their Loyalties in the same way at the beginning of a
 * session": args {loyalty, to?, prime?} as in a Social Call (cot_loyalty_alter). */
static int cot_session_alter(json_t *sheet, const json_t *args, const char *name,
                             rules_session_change *change, tb_err *err)
{
    int n = (int)json_integer_value(json_object_get(args, "loyalty"));
    json_t *loy = json_object_get(sheet, "loyalties");
    int rc = cot_loyalty_alter(loy, n, json_string_value(json_object_get(args, "to")),
                               json_is_true(json_object_get(args, "prime")), name, NULL, err);
    if (rc)
        return rc;
    char now[160];
    cot_loyalty_text(json_array_get(loy, (size_t)n - 1), now, sizeof now);
    snprintf(change->public_text, sizeof change->public_text, "One of %s's Loyalties changes",
             name);
    snprintf(change->gm_text, sizeof change->gm_text, "%s's Loyalty %d is now %s", name, n, now);
    change->result = json_pack("{s:i, s:s, s:O}", "loyalty", n, "now", now, "loyalties", loy);
    return 0;
}

/* 000:227 "Loyalties are representative of the ideals and relationships that drive your
 * character": what a character holds dear is the player's to reveal (issue 11). */
static const char *const cot_private[] = {"loyalties", NULL};

const rules_system rules_system_cot = {
    .id = "cot",
    .name = "City of Thieves",
    .rulebook = "000_d2a475e9ec148dd1.txt",
    .sheet = cot_sheet,
    .validate = cot_validate,
    .derive = cot_derive,
    .checks = cot_checks,
    .modules = cot_modules,
    .sheet_private = cot_private,
    .summary = "A heist system: pools of d6 by skill and ability, the ability's dice kept; heists, "
               "social calls, gang warfare and chases",
    .clock = cot_clock,
    .session_alter = cot_session_alter,
    .phrases = cot_phrases,
};
