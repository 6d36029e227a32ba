/*
 * dice.c — the 10acity dice (003_632e2c704060b738.txt, cited 003:LINE; tenacity.h): hero dice
 * against a challenge or an opposing roll, criticals, doubles, fumbles, spin, pushing a failure,
 * impact, and the small sums of the book (advantage spin, wound recovery, piloting, waking up).
 * Pure arithmetic over an injected RNG: the system's checks (tenacity.c) and the encounter
 * modules both roll through it. Readings of unclear passages are numbered in rules/RULES.md,
 * "## tenacity".
 */
#include <string.h>

#include "tenacity.h"

/* ---- resolution ---- */

void tenacity_judge(tenacity_roll *r)
{
    /* 003:11 "roll the number of d10 dice displayed on the attribute and take the highest rolled
     * number. You will then add your skill rank to that number." */
    r->highest = rules_pool_max(&r->hero);
    /* 003:28 "When you roll a natural 10 on any of your hero dice, it qualifies as a critical" */
    r->critical = rules_pool_count(&r->hero, 10) > 0;
    /* 003:29 "When you roll more than one die ... Anytime you roll a double": two hero dice with
     * the same face, whichever face (reading 3). */
    r->doubles = 0;
    for (int f = 1; f <= 10; f++)
        if (rules_pool_count(&r->hero, f) >= 2)
            r->doubles = 1;
    /* 003:30 "If your highest die value on your hero dice is a 1" */
    r->fumble = r->highest == 1;
    r->total = r->highest + r->rank + r->bonus + r->extra_hero;
}

int tenacity_hero_roll(tenacity_roll *r, rules_rng *rng, int dice, int adv, int rank, int bonus,
                       tb_err *err)
{
    memset(r, 0, sizeof *r);
    if (dice + adv < 1)
        return tb_fail(err, TB_BAD_REQUEST, "tenacity: at least 1 hero die must be rolled");
    int rc = rules_pool_roll(&r->hero, rng, dice + adv, 10, 1, RULES_KEEP_HIGHEST, err);
    if (rc)
        return rc;
    r->rank = rank;
    r->bonus = bonus;
    tenacity_judge(r);
    return 0;
}

int tenacity_beats(int total, int defence)
{
    /* 003:8 "if your final result is higher than the challenge, you succeed"; 003:20 "ties always
     * go to the defender"; 003:68 "defenders win all ties". */
    return rules_opposed(total, defence, RULES_TIE_DEFENDER);
}

int tenacity_impact_dice(int rank)
{
    /* 003:15 "impact dice is half your skill rank rounded down" (003:9) */
    return rank > 0 ? rank / 2 : 0;
}

int tenacity_spin_gain(const tenacity_roll *r, int failed, int action)
{
    /* 003:30 a fumble gives "a point of negative spin" and "you cannot accrue spin on any action
     * which results in a fumble". */
    if (r->fumble)
        return -1;
    /* 003:95 "You gain a point of Spin during your action if you fail your action or if you roll
     * doubles ... (This applies only when taking your action, not when rolling reactions or
     * interactions.)" One point per action (reading 4). */
    if (action && (r->doubles || failed))
        return 1;
    return 0;
}

int tenacity_push_plan(int needed, int spin, int tenacity, int gain, tenacity_push *out)
{
    return tenacity_push_plan_with(needed, spin, tenacity, gain, TENACITY_PUSH_ANY, out);
}

int tenacity_push_resource(const char *name)
{
    if (!name)
        return TENACITY_PUSH_ANY;
    if (strcmp(name, "spin") == 0)
        return TENACITY_PUSH_SPIN;
    if (strcmp(name, "tenacity") == 0)
        return TENACITY_PUSH_TENACITY;
    if (strcmp(name, "negative") == 0)
        return TENACITY_PUSH_NEGATIVE;
    return 0;
}

int tenacity_push_plan_with(int needed, int spin, int tenacity, int gain, int allowed,
                            tenacity_push *out)
{
    memset(out, 0, sizeof *out);
    if (needed <= 0)
        return 0;
    /* 003:31-37 the player picks what pays: a resource not allowed counts as none left */
    int spendable_spin = (allowed & TENACITY_PUSH_SPIN) ? spin : 0;
    if (!(allowed & TENACITY_PUSH_TENACITY))
        tenacity = 0;
    /* 003:36 "spend 10acity Points or Spin to gain a +1 to your result"; 003:38 "you cannot benefit
     * from Spin until your negative Spin is removed". Spin first: it is lost after the encounter
     * (003:94). */
    int s = spin;
    int use_spin = spendable_spin > 0 ? (spendable_spin < needed ? spendable_spin : needed) : 0;
    int left = needed - use_spin;
    s -= use_spin;
    int use_ten = tenacity > 0 ? (tenacity < left ? tenacity : left) : 0;
    left -= use_ten;
    if (left > 0 && !(allowed & TENACITY_PUSH_NEGATIVE))
        return -1; /* negative spin not allowed: nothing is spent */
    /* 003:37 "You may take as much Negative Spin as necessary ... you can never have more than 10
     * points of negative spin": the spin after this roll stays >= -10. */
    int room = s + gain + TENACITY_NEGATIVE_SPIN_MAX;
    if (room < 0)
        room = 0;
    if (left > room)
        return -1; /* not enough: nothing is spent (reading 6) */
    out->spin = use_spin;
    out->tenacity = use_ten;
    out->negative = left;
    return 0;
}

int tenacity_advantage_spin(int impact)
{
    /* 003:67 "1 spin ... for every 2 points of impact generated (minimum 1)" */
    return impact / 2 < 1 ? 1 : impact / 2;
}

int tenacity_wound_recovery(int wounds)
{
    /* 003:74 "It requires five (5) times a character's current amount of wound in recovery to
     * heal one point of wound." */
    return 5 * wounds;
}

int tenacity_pilot_bonus(int skill, int vehicle)
{
    /* 003:77-78 "take the lowest value between the rank of the mount/vehicle and then add an
     * additional +1 for every 2 ranks of the higher value" */
    int lo = skill < vehicle ? skill : vehicle;
    int diff = skill > vehicle ? skill - vehicle : vehicle - skill;
    return lo + diff / 2;
}

int tenacity_unconscious_dice(int wounds)
{
    /* 003:106 "2d6 + 1d6 for every point of wound that the character currently has" */
    return 2 + wounds;
}
