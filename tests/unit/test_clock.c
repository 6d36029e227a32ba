/*
 * test_clock.c — the campaign clock (rules/clock.h): City of Thieves' stage lengths (000:17-22)
 * and how simultaneous scenes keep in step (000:24), with the book's own example.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

#define MIN 60L

/* 000:17-22 each stage's round length; other systems' rounds (clock.c cites each). */
START_TEST(stage_lengths_follow_the_books)
{
    static const struct {
        const char *system, *module, *stage, *id;
        long unit_s;
    } T[] = {
        {"cot", "cot.initiative", "prep", "prep", 24 * 60 * MIN},
        {"cot", "cot.social", "social", "social_call", 10 * MIN},
        {"cot", "cot.initiative", "heist", "heist", 5 * MIN},
        {"cot", "cot.initiative", "violence", "action", MIN},
        {"cot", "cot.chase", "foot_chase", "action", MIN},
        {"cot", "cot.chase", "vehicle_chase", "action", MIN},
        {"cot", "cot.social", NULL, "social_call", 10 * MIN},
        {"cot", "cot.heist", NULL, "heist", 5 * MIN},
        {"heimr", "heimr.combat", NULL, "turn", 2},
        {"heimr", "heimr.chase", NULL, "turn", 2},
        {"grimwire", "grimwire.conflict", NULL, "round", 6},
        {"fivey", "fivey.combat", NULL, "round", 10},
        {"tenacity", "tenacity.spotlight", NULL, "round", 6},
        {"generic", NULL, NULL, "round", MIN},
        {NULL, NULL, NULL, "round", MIN},
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        const rules_clock_stage *s = rules_clock_stage_of(T[i].system, T[i].module, T[i].stage);
        ck_assert_ptr_nonnull(s);
        ck_assert_msg(strcmp(s->id, T[i].id) == 0, "row %zu: %s", i, s->id);
        ck_assert_int_eq(s->unit_s, T[i].unit_s);
        ck_assert_ptr_nonnull(s->label);
    }
}
END_TEST

/* 000:24 "2 Heist rounds equal 1 round in a Social Call, but 3 Heist rounds equal 2 rounds in a
 * Social Call." */
START_TEST(the_books_example_two_and_three_heist_rounds)
{
    rules_clock_scene social = {0, 10 * MIN, 1, 0};
    ck_assert_int_eq(rules_clock_rounds_at(&social, 2 * 5 * MIN), 1);
    ck_assert_int_eq(rules_clock_rounds_at(&social, 3 * 5 * MIN), 2);
    /* the heist resolves after 3 rounds while the social call runs: a full round of the next
     * highest unit, so the campaign is 20 minutes in, not 15 */
    rules_clock_scene s[2] = {{0, 5 * MIN, 3, 0}, {0, 10 * MIN, 1, 0}};
    ck_assert_int_eq(rules_clock_resolve(s, 2, 0), 20 * MIN);
    /* resolving exactly at the threshold counts what was played: 2 Heist rounds = 10 minutes */
    s[0].rounds = 2;
    ck_assert_int_eq(rules_clock_resolve(s, 2, 0), 10 * MIN);
}
END_TEST

/* 000:24 "start at the smallest unit of time and resolve until it reaches the threshold for the
 * next highest scene": Heist, Heist, Social Call, Heist, Heist, Social Call. */
START_TEST(the_smallest_unit_plays_until_the_threshold)
{
    rules_clock_scene s[2] = {{0, 5 * MIN, 0, 0}, {0, 10 * MIN, 0, 0}};
    const int want[] = {0, 0, 1, 0, 0, 1, 0};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int i = rules_clock_next(s, 2);
        ck_assert_msg(i == want[k], "step %zu: scene %d, wanted %d", k, i, want[k]);
        s[i].rounds++;
    }
    ck_assert_int_eq(rules_clock_now(0, s, 2), 25 * MIN);
    ck_assert_int_eq(rules_clock_next(NULL, 0), -1);
}
END_TEST

/* Three scenes: an Action chase, a Heist and a Social Call. The chase (1 minute) plays until
 * the heist's threshold; a scene ending rounds up to the next highest unit still running (the
 * Heist, not the Social Call); one with no longer scene running keeps its own time. */
START_TEST(three_scenes_and_the_next_highest_unit)
{
    rules_clock_scene s[3] = {{0, MIN, 0, 0}, {0, 5 * MIN, 0, 0}, {0, 10 * MIN, 0, 0}};
    for (int k = 0; k < 5; k++) {
        ck_assert_int_eq(rules_clock_next(s, 3), 0);
        s[0].rounds++;
    }
    ck_assert_int_eq(rules_clock_next(s, 3), 1);
    s[0].rounds = 7; /* the chase resolves after 7 minutes: the Heist's 10-minute boundary */
    ck_assert_int_eq(rules_clock_resolve(s, 3, 0), 10 * MIN);
    /* the Social Call ending while only shorter scenes run keeps its own time */
    s[2].rounds = 1;
    ck_assert_int_eq(rules_clock_resolve(s, 3, 2), 10 * MIN);
    /* alone, a scene counts what it played */
    ck_assert_int_eq(rules_clock_resolve(s, 1, 0), 7 * MIN);
}
END_TEST

/* A scene started later counts its rounds from its own start; the campaign time is the latest
 * of what ended and what runs. */
START_TEST(a_later_scene_counts_from_its_start)
{
    rules_clock_scene s[2] = {{15 * MIN, MIN, 0, 0}, {0, 10 * MIN, 1, 0}};
    ck_assert_int_eq(rules_clock_at(&s[0]), 15 * MIN);
    ck_assert_int_eq(rules_clock_now(0, s, 2), 15 * MIN);
    ck_assert_int_eq(rules_clock_now(30 * MIN, s, 2), 30 * MIN);
    s[0].rounds = 2; /* ends at 17 minutes, inside the social call's second round (10-20) */
    ck_assert_int_eq(rules_clock_resolve(s, 2, 0), 20 * MIN);
    ck_assert_int_eq(rules_clock_rounds_at(&s[0], 15 * MIN), 0);
    ck_assert_int_eq(rules_clock_rounds_at(&s[0], 15 * MIN + 1), 1);
    /* same unit is not "next highest": the scene keeps its own time */
    rules_clock_scene same[2] = {{0, MIN, 3, 0}, {0, MIN, 9, 0}};
    ck_assert_int_eq(rules_clock_resolve(same, 2, 0), 3 * MIN);
    /* a scene that never began a round takes no time */
    rules_clock_scene idle[2] = {{0, 5 * MIN, 0, 0}, {0, 10 * MIN, 0, 0}};
    ck_assert_int_eq(rules_clock_resolve(idle, 2, 0), 0);
}
END_TEST

/* Time a between scene's actions take (a rest, a day's travel) counts on the clock beside its
 * rounds: the scene is at start + rounds * unit + spent; its rounds still count from its start. */
START_TEST(time_an_action_takes_moves_the_scene)
{
    const long HOUR = 60 * MIN;
    rules_clock_scene rest = {10 * MIN, 6, 0, 5 * HOUR}; /* a long rest, 002:212 */
    ck_assert_int_eq(rules_clock_at(&rest), 10 * MIN + 5 * HOUR);
    ck_assert_int_eq(rules_clock_rounds_at(&rest, 10 * MIN + 60), 10);
    rules_clock_scene s[2] = {rest, {0, 10 * MIN, 1, 0}};
    ck_assert_int_eq(rules_clock_now(0, s, 2), 10 * MIN + 5 * HOUR);
    /* the scene that is behind plays next: the social call's next round ends at 20 minutes */
    ck_assert_int_eq(rules_clock_next(s, 2), 1);
    /* ending beside a longer round still rounds up to its boundary (000:24): 5 h 10 min lies on
     * one (31 Social Call rounds), a minute more counts to the next */
    ck_assert_int_eq(rules_clock_resolve(s, 2, 0), 10 * MIN + 5 * HOUR);
    s[0].spent_s += MIN;
    ck_assert_int_eq(rules_clock_resolve(s, 2, 0), 10 * MIN + 5 * HOUR + 10 * MIN);
}
END_TEST

/* Days and site turns are boundaries of the campaign clock (time 0 starts day 1): how many
 * began between two moments, and how long until the next one. */
START_TEST(days_and_turns_are_boundaries_of_the_clock)
{
    const long DAY = RULES_CLOCK_DAY, TURN = 10 * MIN; /* 004:543 a site round, ~10 minutes */
    static const struct {
        long from, to, period, want;
    } T[] = {
        {0, DAY - 1, DAY, 0},         /* still day 1 */
        {0, DAY, DAY, 1},             /* day 2 begins at the boundary */
        {DAY - 30, DAY + 30, DAY, 1}, /* a one-minute fight across midnight */
        {DAY, DAY, DAY, 0},           /* no time, no day */
        {DAY + 5, DAY - 5, DAY, 0},   /* backwards: nothing */
        {0, 10 * DAY, DAY, 10},       /* a tennite, 004:564 */
        {14400, 15100, TURN, 1},      /* 700 s of fight in a site crosses a turn */
        {14400, 14999, TURN, 0},
        {0, 100, 0, 0}, /* no period */
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        ck_assert_msg(rules_clock_periods_between(T[i].from, T[i].to, T[i].period) == T[i].want,
                      "row %zu", i);
    ck_assert_int_eq(rules_clock_to_next(0, DAY), DAY);
    ck_assert_int_eq(rules_clock_to_next(5 * 3600, DAY), DAY - 5 * 3600);
    ck_assert_int_eq(rules_clock_to_next(DAY, DAY), DAY);
    ck_assert_int_eq(rules_clock_to_next(DAY + 1, DAY), DAY - 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("clock");
    TCase *tc = tcase_create("clock");
    tcase_add_test(tc, stage_lengths_follow_the_books);
    tcase_add_test(tc, the_books_example_two_and_three_heist_rounds);
    tcase_add_test(tc, the_smallest_unit_plays_until_the_threshold);
    tcase_add_test(tc, three_scenes_and_the_next_highest_unit);
    tcase_add_test(tc, a_later_scene_counts_from_its_start);
    tcase_add_test(tc, time_an_action_takes_moves_the_scene);
    tcase_add_test(tc, days_and_turns_are_boundaries_of_the_clock);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
