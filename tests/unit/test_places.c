/*
 * test_places.c — connections counted per client key and given back by handle, through growth
 * of the tables and handles re-used after they went.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "places.h"

START_TEST(counts_per_key_and_gives_back_by_handle)
{
    places *p = places_create();
    static int h[3];
    places_add(p, "a", &h[0]);
    places_add(p, "a", &h[1]);
    places_add(p, "b", &h[2]);
    ck_assert_int_eq(places_count(p, "a"), 2);
    ck_assert_int_eq(places_count(p, "b"), 1);
    ck_assert_int_eq(places_count(p, "c"), 0);
    ck_assert_int_eq(places_drop_handle(p, &h[0]), 1);
    ck_assert_int_eq(places_drop_handle(p, &h[0]), 0); /* once only */
    ck_assert_int_eq(places_count(p, "a"), 1);
    ck_assert_int_eq(places_drop_handle(p, (void *)0x1234), 0);
    places_destroy(p);
}
END_TEST

START_TEST(many_connections_many_keys_through_growth)
{
    places *p = places_create();
    enum { N = 5000 };
    static char handles[N];
    char key[32];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++) {
            snprintf(key, sizeof key, "10.0.%d.%d", i % 97, i % 7);
            places_add(p, key, &handles[i]);
        }
        int total = 0;
        for (int i = 0; i < 97; i++)
            for (int j = 0; j < 7; j++) {
                snprintf(key, sizeof key, "10.0.%d.%d", i, j);
                total += places_count(p, key);
            }
        ck_assert_int_eq(total, N);
        for (int i = 0; i < N; i += 2)
            ck_assert_int_eq(places_drop_handle(p, &handles[i]), 1);
        for (int i = 1; i < N; i += 2)
            ck_assert_int_eq(places_drop_handle(p, &handles[i]), 1);
        snprintf(key, sizeof key, "10.0.%d.%d", 5, 5);
        ck_assert_int_eq(places_count(p, key), 0);
    }
    places_destroy(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("places");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, counts_per_key_and_gives_back_by_handle);
    tcase_add_test(tc, many_connections_many_keys_through_growth);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
