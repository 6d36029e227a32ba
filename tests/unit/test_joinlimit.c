/*
 * test_joinlimit.c — failed join attempts: free failures, then delays that double up to a cap,
 * keys independent of each other, forgetting after a quiet time or a success, a bounded table.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "joinlimit.h"

static const joinlimit_opts OPTS = {
    .free_fails = 3, .base_ms = 1000, .max_ms = 8000, .forget_ms = 60000, .max_keys = 4};

START_TEST(free_failures_cost_nothing_then_delays_double_up_to_the_cap)
{
    joinlimit *jl = joinlimit_create(&OPTS);
    int64_t t = 5000;
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(joinlimit_wait_ms(jl, "10.0.0.1", t), 0);
        joinlimit_fail(jl, "10.0.0.1", t);
    }
    ck_assert_int_eq(joinlimit_wait_ms(jl, "10.0.0.1", t), 0);
    static const int64_t want[] = {1000, 2000, 4000, 8000, 8000, 8000};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        joinlimit_fail(jl, "10.0.0.1", t);
        ck_assert_int_eq(joinlimit_wait_ms(jl, "10.0.0.1", t), want[i]);
        ck_assert_int_eq(joinlimit_wait_ms(jl, "10.0.0.1", t + want[i] / 2), want[i] / 2);
        t += want[i];
        ck_assert_int_eq(joinlimit_wait_ms(jl, "10.0.0.1", t), 0);
    }
    joinlimit_destroy(jl);
}
END_TEST

START_TEST(keys_are_independent_and_a_success_forgets_its_key)
{
    joinlimit *jl = joinlimit_create(&OPTS);
    for (int i = 0; i < 4; i++)
        joinlimit_fail(jl, "a", 0);
    ck_assert_int_eq(joinlimit_wait_ms(jl, "a", 0), 1000);
    ck_assert_int_eq(joinlimit_wait_ms(jl, "b", 0), 0);
    joinlimit_forget(jl, "a");
    ck_assert_int_eq(joinlimit_wait_ms(jl, "a", 0), 0);
    joinlimit_fail(jl, "a", 0); /* counting starts over */
    ck_assert_int_eq(joinlimit_wait_ms(jl, "a", 0), 0);
    joinlimit_destroy(jl);
}
END_TEST

START_TEST(a_quiet_key_is_forgotten_after_forget_ms)
{
    joinlimit *jl = joinlimit_create(&OPTS);
    for (int i = 0; i < 4; i++)
        joinlimit_fail(jl, "a", 0);
    joinlimit_fail(jl, "a", 59999); /* 5th failure: 2 s */
    ck_assert_int_eq(joinlimit_wait_ms(jl, "a", 59999), 2000);
    /* a minute after its last failure, a key starts over with free failures */
    joinlimit_fail(jl, "a", 59999 + 60000);
    ck_assert_int_eq(joinlimit_wait_ms(jl, "a", 59999 + 60000), 0);
    joinlimit_destroy(jl);
}
END_TEST

START_TEST(the_table_is_bounded_and_drops_the_stalest_key)
{
    joinlimit *jl = joinlimit_create(&OPTS);
    for (int i = 0; i < 4; i++)
        joinlimit_fail(jl, "old", 0);
    char key[16];
    for (int k = 0; k < 4; k++) { /* four newer keys fill the table of 4 */
        snprintf(key, sizeof key, "k%d", k);
        for (int i = 0; i < 4; i++)
            joinlimit_fail(jl, key, 10 + k);
    }
    ck_assert_int_eq(joinlimit_wait_ms(jl, "old", 10), 0);
    ck_assert_int_gt(joinlimit_wait_ms(jl, "k3", 13), 0);
    joinlimit_destroy(jl);
}
END_TEST

static Suite *joinlimit_suite(void)
{
    Suite *s = suite_create("joinlimit");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, free_failures_cost_nothing_then_delays_double_up_to_the_cap);
    tcase_add_test(tc, keys_are_independent_and_a_success_forgets_its_key);
    tcase_add_test(tc, a_quiet_key_is_forgotten_after_forget_ms);
    tcase_add_test(tc, the_table_is_bounded_and_drops_the_stalest_key);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(joinlimit_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
