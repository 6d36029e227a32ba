/*
 * clock.c — the campaign clock (clock.h; the reading is in rules/RULES.md, "Scenes and the
 * campaign clock").
 */
#include "clock.h"

#include <string.h>

#include "system.h"

/* A system that gives no round length (or is not known) counts one-minute rounds. */
static const rules_clock_stage OTHER_ROUND = {"round", "Round", 60, ""};

static int matches(const char *want, const char *have)
{
    return !want || (have && strcmp(want, have) == 0);
}

const rules_clock_stage *rules_clock_stage_of(const char *system, const char *module,
                                              const char *stage)
{
    const rules_system *s = system ? rules_system_find(system) : NULL;
    for (const rules_clock_stage *r = s ? s->clock : NULL; r && r->id; r++)
        if (matches(r->module, module) && matches(r->word, stage))
            return r;
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
