/*
 * test_jsonalloc.c — server/jsonalloc.c: a freed small block comes back for a request of its
 * size class and is never too small for the request it serves; at most JSONALLOC_KEEP blocks of a
 * class are kept; JSON values made and freed through it are whole (a value made before the
 * install is freed through it too).
 *
 * Under AddressSanitizer jsonalloc_install does nothing: the reuse checks are skipped there and
 * only the JSON round trip runs (with its leak check).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "jsonalloc.h"

#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
#define CACHED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACHED 0
#endif
#endif
#ifndef CACHED
#define CACHED 1
#endif

#define KEEP 64 /* JSONALLOC_KEEP */

static json_malloc_t jmalloc;
static json_free_t jfree;

static void setup(void)
{
    jsonalloc_install();
    json_get_alloc_funcs(&jmalloc, &jfree);
}

START_TEST(test_a_freed_block_serves_its_class)
{
    if (!CACHED)
        return;
    void *a = jmalloc(40);
    jfree(a);
    ck_assert_ptr_eq(jmalloc(33), a); /* 33 and 40 bytes: both a 48-byte chunk */
    void *b = jmalloc(100);
    jfree(b);
    ck_assert_ptr_ne(jmalloc(40), b); /* a 112-byte chunk does not serve a 48-byte request */
}
END_TEST

START_TEST(test_every_block_is_big_enough)
{
    if (!CACHED)
        return;
    /* blocks of every size up to 600 bytes, freed in a mixed order, then asked for again */
    void *p[600];
    for (size_t n = 1; n <= 600; n++)
        p[n - 1] = jmalloc(n);
    for (size_t i = 0; i < 600; i++)
        jfree(p[(i * 7) % 600]);
    for (size_t n = 600; n >= 1; n--) {
        void *q = jmalloc(n);
        ck_assert_uint_ge(malloc_usable_size(q), n);
        memset(q, 0xA5, n);
        p[n - 1] = q;
    }
    for (size_t i = 0; i < 600; i++)
        jfree(p[i]);
}
END_TEST

START_TEST(test_at_most_keep_blocks_per_class)
{
    if (!CACHED)
        return;
    void *p[KEEP + 10];
    for (int i = 0; i < KEEP + 10; i++)
        p[i] = jmalloc(24);
    for (int i = 0; i < KEEP + 10; i++)
        jfree(p[i]);
    /* the first KEEP freed were kept and come back, newest first; the 10 after them went to
     * free() */
    for (int i = KEEP - 1; i >= 0; i--)
        ck_assert_ptr_eq(jmalloc(24), p[i]);
}
END_TEST

START_TEST(test_json_values_round_trip)
{
    json_t *before = json_pack("{s:s}", "made", "before the install");
    setup();
    for (int round = 0; round < 3; round++) {
        json_t *log = json_array();
        for (int i = 0; i < 300; i++)
            json_array_append_new(log, json_pack("{s:i, s:s, s:[i,i]}", "seq", i, "text",
                                                 "a roll of d20+5", "dice", i, i + 1));
        char *text = json_dumps(log, JSON_COMPACT);
        json_t *back = json_loads(text, 0, NULL);
        ck_assert(json_equal(log, back));
        free(text); /* json_dumps's text is the caller's to free(): a plain malloc block */
        json_decref(back);
        json_decref(log);
    }
    ck_assert_str_eq(json_string_value(json_object_get(before, "made")), "before the install");
    json_decref(before);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jsonalloc");
    TCase *tc = tcase_create("jsonalloc");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_a_freed_block_serves_its_class);
    tcase_add_test(tc, test_every_block_is_big_enough);
    tcase_add_test(tc, test_at_most_keep_blocks_per_class);
    suite_add_tcase(s, tc);
    TCase *rt = tcase_create("values");
    tcase_add_test(rt, test_json_values_round_trip);
    suite_add_tcase(s, rt);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK); /* each test with a fresh cache */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
