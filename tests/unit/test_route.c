/*
 * test_route.c — routing keys in URLs (server/route.h, issue 28 item 2): which paths carry a key,
 * which keys are another shard's, the links' base, and the names a shard may have.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "route.h"

START_TEST(paths_with_and_without_a_key)
{
    char key[ROUTE_KEY_MAX + 1];
    const char *rest;
    ck_assert_int_eq(route_split("/ws", key, &rest), 0);
    ck_assert_str_eq(rest, "/ws");
    ck_assert_str_eq(key, "");
    ck_assert_int_eq(route_split("/c/b-c7k2m9x4qd/ws", key, &rest), 1);
    ck_assert_str_eq(key, "b-c7k2m9x4qd");
    ck_assert_str_eq(rest, "/ws");
    ck_assert_int_eq(route_split("/c/a/", key, &rest), 1);
    ck_assert_str_eq(key, "a");
    ck_assert_str_eq(rest, "/");
    ck_assert_int_eq(route_split("/c/c7k2m9x4qd", key, &rest), 1); /* typed without its slash */
    ck_assert_str_eq(rest, "");
    ck_assert_int_eq(route_split("/c/b-c1/api/join?x=1", key, &rest), 1);
    ck_assert_str_eq(rest, "/api/join?x=1");
    /* not a key: empty, a capital, a leading '-', a dot, too long */
    ck_assert_int_eq(route_split("/c//ws", key, &rest), -1);
    ck_assert_int_eq(route_split("/c/B-c1/ws", key, &rest), -1);
    ck_assert_int_eq(route_split("/c/-b/ws", key, &rest), -1);
    ck_assert_int_eq(route_split("/c/../ws", key, &rest), -1);
    char longer[64] = "/c/";
    memset(longer + 3, 'a', ROUTE_KEY_MAX + 1);
    strcat(longer, "/ws");
    ck_assert_int_eq(route_split(longer, key, &rest), -1);
    longer[3 + ROUTE_KEY_MAX] = '/';
    longer[3 + ROUTE_KEY_MAX + 1] = '\0';
    ck_assert_int_eq(route_split(longer, key, &rest), 1);
    ck_assert_int_eq((int)strlen(key), ROUTE_KEY_MAX);
    /* "/cx/…" and "/c" are paths of their own */
    ck_assert_int_eq(route_split("/cx/a/ws", key, &rest), 0);
    ck_assert_int_eq(route_split("/c", key, &rest), 0);
}
END_TEST

START_TEST(another_shards_keys)
{
    ck_assert_int_eq(route_foreign(NULL, "b-c1"), 0); /* one process: every key is ours */
    ck_assert_int_eq(route_foreign("b", "b-c7k2m9x4qd"), 0);
    ck_assert_int_eq(route_foreign("b", "a-c7k2m9x4qd"), 1);
    ck_assert_int_eq(route_foreign("b", "bb-c7k2m9x4qd"), 1); /* a prefix is a whole name */
    ck_assert_int_eq(route_foreign("bb", "b-c7k2m9x4qd"), 1);
    ck_assert_int_eq(route_foreign("b", "b"), 0); /* our console */
    ck_assert_int_eq(route_foreign("b", "c7k2m9x4qd"),
                     0); /* a campaign of before: the token decides */
    ck_assert_int_eq(route_foreign("b", ""), 0);
}
END_TEST

START_TEST(link_bases_and_shard_names)
{
    char base[64];
    ck_assert_str_eq(route_base(NULL, "c7k2m9x4qd", base, sizeof base), "/");
    ck_assert_str_eq(route_base("b", "b-c7k2m9x4qd", base, sizeof base), "/c/b-c7k2m9x4qd/");
    ck_assert(route_shard_ok("a"));
    ck_assert(route_shard_ok("eu1"));
    ck_assert(route_shard_ok("abcdefghijkl"));
    ck_assert(!route_shard_ok("abcdefghijklm"));
    ck_assert(!route_shard_ok(""));
    ck_assert(!route_shard_ok(NULL));
    ck_assert(!route_shard_ok("a-b"));
    ck_assert(!route_shard_ok("A"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("route");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, paths_with_and_without_a_key);
    tcase_add_test(tc, another_shards_keys);
    tcase_add_test(tc, link_bases_and_shard_names);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
