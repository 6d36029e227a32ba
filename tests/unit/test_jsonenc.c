/*
 * test_jsonenc.c — protocol/jsonenc.c: the compact JSON text of a tree is byte for byte what
 * jansson's json_dumps(JSON_COMPACT | JSON_ENCODE_ANY) writes (the stored result of an event is
 * re-encoded by jansson when a re-sent command's ack is rebuilt, and must be the same bytes), for
 * a table of edge cases and for random trees from a seeded generator.
 */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

static void assert_same(const json_t *v)
{
    char *want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    size_t len = 0;
    char *got = proto_json_dump(v, &len);
    ck_assert_ptr_nonnull(want);
    ck_assert_msg(strcmp(got, want) == 0, "encoded differently:\n  got:  %s\n  want: %s", got,
                  want);
    ck_assert_uint_eq(len, strlen(want));
    free(want);
    free(got);
}

static const char *const CASES[] = {
    "null",
    "true",
    "false",
    "0",
    "-1",
    "9223372036854775807",
    "[9,10,11,99,100,101,999,1000,-9,-10,-99,-100,-101,1764331200123,1000000000000000000]",
    "-9223372036854775808",
    "\"\"",
    "\"a\\\"b\\\\c/d\"",
    "\"\\b\\f\\n\\r\\t\"",
    "\"\\u0001\\u001f\\u007f\"",
    "\"caf\\u00e9 \\u2028 \\ud83c\\udfb2\"",
    "1.5",
    "-0.0",
    "1e300",
    "0.1",
    "[]",
    "{}",
    "[[],{},[{}],{\"a\":[]}]",
    "{\"z\":1,\"a\":2,\"m\":{\"y\":[1,\"x\",null]}}",
    "{\"key with \\\"quote\\\"\":\"\\n\",\"\\u00e9\":true}",
    "{\"t\":\"ack\",\"id\":\"x\",\"seq\":12,\"result\":{\"dice\":[{\"sides\":20,\"value\":7}]}}",
};

START_TEST(test_edge_cases_encode_as_jansson_does)
{
    json_error_t e;
    json_t *v = json_loads(CASES[_i], JSON_DECODE_ANY, &e);
    ck_assert_msg(v != NULL, "bad case %s: %s", CASES[_i], e.text);
    assert_same(v);
    json_decref(v);
}
END_TEST

START_TEST(test_a_string_with_a_nul_byte_encodes_as_jansson_does)
{
    json_t *v = json_stringn("a\0b", 3);
    assert_same(v);
    json_decref(v);
}
END_TEST

/* Strings are scanned 8 bytes at a time (jsonenc.c): every ASCII byte, and a multi-byte
 * character, at every position of strings of several lengths around that width, alone and beside
 * a second escape, as jansson writes them. */
START_TEST(test_every_byte_at_every_position_encodes_as_jansson_does)
{
    char buf[48];
    for (size_t len = 1; len <= 41; len += 4) {
        for (size_t at = 0; at < len; at++) {
            for (int c = 0; c <= 0x80; c++) {
                memset(buf, 'a', len);
                if (c == 0x80) { /* é, two bytes, where there is room */
                    if (at + 1 >= len)
                        continue;
                    buf[at] = (char)0xc3;
                    buf[at + 1] = (char)0xa9;
                } else {
                    buf[at] = (char)c;
                }
                json_t *v = json_stringn(buf, len);
                ck_assert_ptr_nonnull(v);
                assert_same(v);
                json_decref(v);
                if (at + 9 < len) { /* a quote 9 bytes on: two escapes, two words apart */
                    buf[at + 9] = '"';
                    v = json_stringn(buf, len);
                    assert_same(v);
                    json_decref(v);
                }
            }
        }
    }
}
END_TEST

static uint64_t g_rng = 42;

static uint64_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

/* A random string: ASCII, control characters, quotes, backslashes and multi-byte UTF-8. */
static json_t *random_string(void)
{
    static const char *const PIECES[] = {"a",
                                         "Z",
                                         " ",
                                         "\"",
                                         "\\",
                                         "/",
                                         "\n",
                                         "\t",
                                         "\x01",
                                         "\x1f",
                                         "\x7f",
                                         "\xc3\xa9",
                                         "\xe2\x80\xa8",
                                         "\xf0\x9f\x8e\xb2",
                                         "0",
                                         "~"};
    char buf[128];
    size_t n = 0, k = rnd() % 12;
    for (size_t i = 0; i < k; i++) {
        const char *p = PIECES[rnd() % (sizeof PIECES / sizeof PIECES[0])];
        size_t l = strlen(p);
        memcpy(buf + n, p, l);
        n += l;
    }
    buf[n] = '\0';
    return json_string(buf);
}

static json_t *random_tree(int depth)
{
    switch (depth > 3 ? rnd() % 6 : rnd() % 8) {
    case 0:
        return json_null();
    case 1:
        return json_boolean(rnd() % 2);
    case 2:
        return json_integer(
            (json_int_t)(rnd() % 3 == 0 ? (int64_t)rnd() : (int64_t)(rnd() % 2001) - 1000));
    case 3:
        return json_real((double)(int64_t)(rnd() % 100000) / 64.0);
    case 4:
    case 5:
        return random_string();
    case 6: {
        json_t *a = json_array();
        for (size_t i = rnd() % 5; i > 0; i--)
            json_array_append_new(a, random_tree(depth + 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        for (size_t i = rnd() % 5; i > 0; i--) {
            json_t *k = random_string();
            json_object_set_new(o, json_string_value(k), random_tree(depth + 1));
            json_decref(k);
        }
        return o;
    }
    }
}

START_TEST(test_random_trees_encode_as_jansson_does)
{
    for (int i = 0; i < 2000; i++) {
        json_t *v = random_tree(0);
        assert_same(v);
        json_decref(v);
    }
}
END_TEST

static Suite *jsonenc_suite(void)
{
    Suite *s = suite_create("jsonenc");
    TCase *tc = tcase_create("jansson");
    tcase_add_loop_test(tc, test_edge_cases_encode_as_jansson_does, 0,
                        (int)(sizeof CASES / sizeof CASES[0]));
    tcase_add_test(tc, test_a_string_with_a_nul_byte_encodes_as_jansson_does);
    tcase_add_test(tc, test_every_byte_at_every_position_encodes_as_jansson_does);
    tcase_add_test(tc, test_random_trees_encode_as_jansson_does);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(jsonenc_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
