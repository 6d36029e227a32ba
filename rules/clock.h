/*
 * clock.h — the campaign clock: in-world time of scenes that run at once (issue 13).
 *
 * Each scene has a stage whose round lasts a fixed time (City of Thieves 000:17-22: Prep 1 day,
 * Social Call 10 minutes, Heist 5 minutes, Action 1 minute; Heimr 2-second turns 001:238;
 * Grimwire 6-second rounds 002:415; fivey and tenacity: readings in rules/RULES.md). A scene is
 * described by when it started on the campaign clock, its round length and the rounds it has
 * begun; everything here is arithmetic over those numbers (pure: no state, no I/O).
 *
 * How scenes keep in step (000:24): "start at the smallest unit of time and resolve until it
 * reaches the threshold for the next highest scene. If a scene resolves before it exceeds the
 * threshold then consider it a full round of the next highest unit of time." So:
 *   - the scene to play next is the one whose next round ends first (ties: the shorter round),
 *     rules_clock_next: Heist, Heist, Social Call, Heist, Heist, Social Call, ...;
 *   - a scene that ends while a scene with a longer round still runs counts up to that scene's
 *     next round boundary (rules_clock_resolve): 3 Heist rounds = 15 minutes count as 20, which
 *     is 2 Social Call rounds;
 *   - how many rounds of a scene a moment covers is rules_clock_rounds_at (2 Heist rounds = 10
 *     minutes = 1 Social Call round).
 * A round that has begun counts in full: a scene in its round r is at start + r * unit.
 */
#ifndef TABLED_RULES_CLOCK_H
#define TABLED_RULES_CLOCK_H

/* A stage: its id ("heist"), the words a person reads ("Heist"), its round length in seconds
 * and the rulebook line it comes from; as a row of a system's clock table (system.h,
 * rules_system.clock), also the scenes it is for: of module `module` (NULL: any module of the
 * system) whose stage word (/enc/stage) is `word` (NULL: any, or none). */
typedef struct rules_clock_stage {
    const char *id;
    const char *label;
    long unit_s;
    const char *cite;
    const char *module;
    const char *word;
} rules_clock_stage;

/* The stage a scene of module `module` (an id like "cot.chase") of rule system `system` runs
 * at: the first row of the system's clock table that matches the module and `stage`, the
 * scene's own stage word where it has one (cot's /enc/stage: heist, prep, social, violence,
 * foot_chase, vehicle_chase), else NULL. Never NULL: a system without a matching row (or an
 * unknown one) gets a one-minute "Round" (the reading for systems without a round length).
 * Static storage. */
const rules_clock_stage *rules_clock_stage_of(const char *system, const char *module,
                                              const char *stage);

/* One running scene on the campaign clock. */
typedef struct rules_clock_scene {
    long start_s; /* campaign time when it started */
    long unit_s;  /* its round length (> 0) */
    long rounds;  /* rounds begun (>= 0) */
    long spent_s; /* in-world time its actions took beyond its rounds (a rest, a day's travel in
                     a between scene: rules_enc_take_time), >= 0 */
} rules_clock_scene;

/* Where the scene's own time is: start_s + rounds * unit_s + spent_s. */
long rules_clock_at(const rules_clock_scene *s);

/* The campaign's elapsed time: the later of settled_s (the time scenes that ended came to) and
 * every running scene's rules_clock_at. n may be 0. */
long rules_clock_now(long settled_s, const rules_clock_scene *s, int n);

/* The index of the scene whose next round should be played (000:24 "start at the smallest unit
 * ... until it reaches the threshold for the next highest scene"): the smallest end of the next
 * round, start + (rounds + 1) * unit; on a tie the shorter round, then the lower index. -1 when
 * n is 0. */
int rules_clock_next(const rules_clock_scene *s, int n);

/* How many rounds of scene s the campaign time t covers: ceil((t - start) / unit), 0 when t is
 * not after the start (2 Heist rounds, t = 600 s, cover 1 Social Call round; 3 cover 2). */
long rules_clock_rounds_at(const rules_clock_scene *s, long t);

/* The campaign time scene i comes to when it resolves now while the others of s[0..n) still run
 * (000:24): its own time rounded up to the next round boundary of the running scene with the
 * shortest round that is longer than its own ("the next highest unit"); its own time when no
 * running scene has a longer round. */
long rules_clock_resolve(const rules_clock_scene *s, int n, int i);

/* ---- days and turns on the campaign clock (between the scenes) ----
 * The campaign's time 0 is the start of its first day; day d (from 1) covers
 * [(d - 1) * RULES_CLOCK_DAY, d * RULES_CLOCK_DAY). A module that counts days or turns keeps the
 * campaign time it last counted up to and asks how many boundaries have passed since. */
#define RULES_CLOCK_DAY (24L * 60L * 60L)

/* How many boundaries of a period of `period_s` seconds (multiples of it from campaign time 0)
 * lie in (from_s, to_s]: the days that began (period RULES_CLOCK_DAY) or the site turns that
 * ended between two moments. 0 when to_s <= from_s or period_s <= 0. */
long rules_clock_periods_between(long from_s, long to_s, long period_s);

/* Seconds from t to the next boundary of a period of period_s (a full period when t is on one):
 * how long "the next day begins" takes. period_s > 0. */
long rules_clock_to_next(long t, long period_s);

#endif
