/*
 * clock.c — the campaign clock (clock.h; the reading is in rules/RULES.md, "Scenes and the
 * campaign clock").
 */
#include "clock.h"

#include <string.h>

#define MINUTE 60L
#define DAY RULES_CLOCK_DAY

/* City of Thieves, 000:17-22 "the stages are listed below, along with how long a round of that
 * kind of stage lasts". The Action stage covers violence and both chases (000:35-36 roll their
 * initiative; a chase is action at the table). */
static const rules_clock_stage COT_PREP = {"prep", "Prep", DAY, "000:19"};
static const rules_clock_stage COT_SOCIAL = {"social_call", "Social Call", 10 * MINUTE, "000:20"};
static const rules_clock_stage COT_HEIST = {"heist", "Heist", 5 * MINUTE, "000:21"};
static const rules_clock_stage COT_ACTION = {"action", "Action", MINUTE, "000:22"};
/* Heimr 001:238 "Every turn lasts two seconds." (every combatant acts once per round) */
static const rules_clock_stage HEIMR_TURN = {"turn", "Turn", 2, "001:238"};
/* Grimwire 002:415 "Each round lasts 6 seconds of in-game time." */
static const rules_clock_stage GRIMWIRE_ROUND = {"round", "Round", 6, "002:415"};
/* fivey: the book gives no length for a combat round (004:668-672 "another round of combat
 * ensues"); reading (RULES.md): 10 seconds. */
static const rules_clock_stage FIVEY_ROUND = {"round", "Round", 10, "004:668"};
/* tenacity: no round length in the book (003:91 rounds of the spotlight); reading (RULES.md):
 * 6 seconds. */
static const rules_clock_stage TENACITY_ROUND = {"round", "Round", 6, "003:91"};
static const rules_clock_stage OTHER_ROUND = {"round", "Round", MINUTE, ""};

const rules_clock_stage *rules_clock_stage_of(const char *system, const char *module,
                                              const char *stage)
{
    if (!system)
        return &OTHER_ROUND;
    if (strcmp(system, "cot") == 0) {
        if (stage && strcmp(stage, "prep") == 0)
            return &COT_PREP;
        if (stage && strcmp(stage, "social") == 0)
            return &COT_SOCIAL;
        if (stage && strcmp(stage, "heist") == 0)
            return &COT_HEIST;
        if (stage)
            return &COT_ACTION; /* violence, foot_chase, vehicle_chase */
        if (module && strcmp(module, "cot.social") == 0)
            return &COT_SOCIAL;
        if (module && strcmp(module, "cot.heist") == 0)
            return &COT_HEIST;
        return &COT_ACTION;
    }
    if (strcmp(system, "heimr") == 0)
        return &HEIMR_TURN;
    if (strcmp(system, "grimwire") == 0)
        return &GRIMWIRE_ROUND;
    if (strcmp(system, "fivey") == 0)
        return &FIVEY_ROUND;
    if (strcmp(system, "tenacity") == 0)
        return &TENACITY_ROUND;
    return &OTHER_ROUND;
}

long rules_clock_at(const rules_clock_scene *s)
{
    return s->start_s + s->rounds * s->unit_s + s->spent_s;
}

long rules_clock_now(long settled_s, const rules_clock_scene *s, int n)
{
    long now = settled_s;
    for (int i = 0; i < n; i++)
        if (rules_clock_at(&s[i]) > now)
            now = rules_clock_at(&s[i]);
    return now;
}

int rules_clock_next(const rules_clock_scene *s, int n)
{
    int best = -1;
    long best_end = 0;
    for (int i = 0; i < n; i++) {
        long end = rules_clock_at(&s[i]) + s[i].unit_s;
        if (best < 0 || end < best_end || (end == best_end && s[i].unit_s < s[best].unit_s)) {
            best = i;
            best_end = end;
        }
    }
    return best;
}

long rules_clock_rounds_at(const rules_clock_scene *s, long t)
{
    /* rounds are counted from the scene's start: time its actions took does not make rounds */
    if (t <= s->start_s || s->unit_s <= 0)
        return 0;
    return (t - s->start_s + s->unit_s - 1) / s->unit_s;
}

long rules_clock_resolve(const rules_clock_scene *s, int n, int i)
{
    long mine = rules_clock_at(&s[i]);
    int up = -1;
    for (int j = 0; j < n; j++)
        if (j != i && s[j].unit_s > s[i].unit_s && (up < 0 || s[j].unit_s < s[up].unit_s))
            up = j;
    if (up < 0)
        return mine;
    /* "consider it a full round of the next highest unit": the boundary of that scene's round
     * this time falls in (its rounds are counted from its own start) */
    return s[up].start_s + rules_clock_rounds_at(&s[up], mine) * s[up].unit_s;
}

/* floor division for a possibly negative numerator (campaign times are >= 0; this keeps the
 * arithmetic honest if one is not) */
static long floor_div(long a, long b)
{
    long q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

long rules_clock_periods_between(long from_s, long to_s, long period_s)
{
    if (period_s <= 0 || to_s <= from_s)
        return 0;
    return floor_div(to_s, period_s) - floor_div(from_s, period_s);
}

long rules_clock_to_next(long t, long period_s)
{
    return period_s - (t - floor_div(t, period_s) * period_s);
}
