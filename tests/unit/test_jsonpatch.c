/*
 * test_jsonpatch.c — JSON Pointer and JSON Patch (protocol/jsonpatch.c): diff → apply round-trips,
 * the canonical shape of a diff, every RFC 6902 op (with the RFC's appendix A examples), errors,
 * atomicity, and a seeded randomized round-trip.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Parses s (any JSON value, duplicate keys rejected); fails the test when it is not JSON. */
static json_t *J(const char *s)
{
    json_error_t e;
    json_t *j = json_loads(s, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
    ck_assert_msg(j != NULL, "bad JSON in test: %s (%s)", s, e.text);
    return j;
}

/* json_dumps(compact, sorted keys); caller frees. */
static char *dump(const json_t *j)
{
    return json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* Asserts that diff(old, new) applied to old gives new, and that old is left unchanged. */
static void assert_round_trip(const json_t *old_doc, const json_t *new_doc)
{
    char *before = dump(old_doc);
    json_t *ops = proto_patch_diff(old_doc, new_doc);
    ck_assert(json_is_array(ops));
    tb_err err = {0};
    json_t *got = proto_patch_apply(old_doc, ops, &err);
    char *got_s = got ? dump(got) : NULL, *want_s = dump(new_doc), *ops_s = dump(ops);
    ck_assert_msg(got != NULL, "apply failed: %s (ops %s)", err.msg, ops_s);
    ck_assert_msg(json_equal(got, new_doc), "round trip: got %s want %s (ops %s)", got_s, want_s,
                  ops_s);
    char *after = dump(old_doc);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    free(got_s);
    free(want_s);
    free(ops_s);
    json_decref(got);
    json_decref(ops);
}

/* --- diff round trips ------------------------------------------------------------------------ */

static const struct {
    const char *old_doc, *new_doc;
} pairs[] = {
    {"{}", "{}"},
    {"{}", "{\"a\":1}"},
    {"{\"a\":1}", "{}"},
    {"{\"a\":1,\"b\":2}", "{\"a\":1,\"b\":3}"},
    {"{\"a\":{\"b\":{\"c\":1}}}", "{\"a\":{\"b\":{\"c\":2,\"d\":[1]}}}"},
    {"{\"a\":{\"b\":{\"c\":1}},\"x\":true}", "{\"a\":{},\"x\":false,\"y\":null}"},
    /* arrays: insert middle, delete middle, append, drop front + append, reverse, replace all */
    {"{\"l\":[1,2,3]}", "{\"l\":[1,9,2,3]}"},
    {"{\"l\":[1,2,3,4]}", "{\"l\":[1,4]}"},
    {"{\"l\":[1,2]}", "{\"l\":[1,2,3,4]}"},
    {"{\"log\":[1,2,3,4,5]}", "{\"log\":[2,3,4,5,6]}"},
    {"{\"log\":[1,2,3,4,5]}", "{\"log\":[3,4,5,6,7,8]}"},
    {"{\"l\":[1,2,3,4]}", "{\"l\":[4,3,2,1]}"},
    {"{\"l\":[1,2]}", "{\"l\":[3,4,5]}"},
    {"{\"l\":[1,2,3]}", "{\"l\":[9]}"},
    {"{\"l\":[1,2,3,2,1]}", "{\"l\":[2,1,2]}"},
    {"{\"l\":[1,1,1]}", "{\"l\":[1,1]}"},
    {"{\"l\":[1]}", "{\"l\":[1,1,1,1]}"},
    /* type changes */
    {"{\"a\":1}", "{\"a\":\"1\"}"},
    {"{\"a\":[1]}", "{\"a\":{\"0\":1}}"},
    {"{\"a\":null}", "{\"a\":false}"},
    {"{\"a\":1}", "{\"a\":1.0}"},
    {"{\"a\":{\"b\":1}}", "{\"a\":[{\"b\":1}]}"},
    /* arrays of objects and nested arrays */
    {"{\"l\":[{\"id\":1,\"hp\":5},{\"id\":2,\"hp\":3}]}",
     "{\"l\":[{\"id\":1,\"hp\":4},{\"id\":2,\"hp\":3},{\"id\":3}]}"},
    {"{\"l\":[{\"id\":1},{\"id\":2},{\"id\":3}]}", "{\"l\":[{\"id\":1},{\"id\":3}]}"},
    {"[[1,2],[3,[4,5]]]", "[[1],[3,[4,6,7]],[]]"},
    {"[[],[[]],[[[]]]]", "[[[[]]],[[]],[]]"},
    /* keys that need escaping */
    {"{\"a/b\":1,\"m~n\":{\"~1\":2}}", "{\"a/b\":2,\"m~n\":{\"~1\":3,\"/\":4}}"},
    {"{\"\":1,\"~\":2,\"/\":3}", "{\"\":[1],\"~~\":2,\"//\":3}"},
    {"{\"~01\":{\"/~\":[1]}}", "{\"~01\":{\"/~\":[1,2]}}"},
    /* roots */
    {"[1,2]", "{\"a\":1}"},
    {"\"x\"", "\"y\""},
    {"{}", "[]"},
    {"null", "{}"},
    {"1", "1"},
    {"[]", "[1]"},
    {"[1]", "[]"},
    {"{}", "{\"a\":{}}"},
    {"{\"a\":{}}", "{}"},
};

START_TEST(diff_then_apply_gives_the_new_document)
{
    json_t *a = J(pairs[_i].old_doc), *b = J(pairs[_i].new_doc);
    assert_round_trip(a, b);
    assert_round_trip(b, a);
    json_decref(a);
    json_decref(b);
}
END_TEST

/* The exact patch for a few inputs: pins the canonical form the event log stores. */
static const struct {
    const char *old_doc, *new_doc, *patch;
} exact[] = {
    {"{\"a\":1}", "{\"a\":1}", "[]"},
    {"{\"a\":1}", "{\"a\":2}", "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":2}]"},
    {"{\"b\":1,\"a\":1}", "{\"c\":1,\"a\":2}",
     "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":2},{\"op\":\"remove\",\"path\":\"/b\"},"
     "{\"op\":\"add\",\"path\":\"/c\",\"value\":1}]"},
    {"{\"log\":[1,2,3,4,5]}", "{\"log\":[2,3,4,5,6]}",
     "[{\"op\":\"remove\",\"path\":\"/log/0\"},{\"op\":\"add\",\"path\":\"/log/4\",\"value\":6}]"},
    {"{\"log\":[1,2,3,4,5]}", "{\"log\":[3,4,5,6,7]}",
     "[{\"op\":\"remove\",\"path\":\"/log/0\"},{\"op\":\"remove\",\"path\":\"/log/0\"},"
     "{\"op\":\"add\",\"path\":\"/log/3\",\"value\":6},{\"op\":\"add\",\"path\":\"/log/4\","
     "\"value\":7}]"},
    {"{\"l\":[1,2,3]}", "{\"l\":[9]}",
     "[{\"op\":\"replace\",\"path\":\"/l/0\",\"value\":9},{\"op\":\"remove\",\"path\":\"/l/2\"},"
     "{\"op\":\"remove\",\"path\":\"/l/1\"}]"},
    {"{\"l\":[1,2,3]}", "{\"l\":[1,9,2,3]}", "[{\"op\":\"add\",\"path\":\"/l/1\",\"value\":9}]"},
    {"{\"l\":[1,2,3,4]}", "{\"l\":[1,4]}",
     "[{\"op\":\"remove\",\"path\":\"/l/2\"},{\"op\":\"remove\",\"path\":\"/l/1\"}]"},
    {"{\"l\":[1]}", "{\"l\":[1,2,3]}",
     "[{\"op\":\"add\",\"path\":\"/l/1\",\"value\":2},{\"op\":\"add\",\"path\":\"/l/2\",\"value\":"
     "3}]"},
    {"{\"a/b\":1}", "{\"a/b\":1,\"m~n\":2}", "[{\"op\":\"add\",\"path\":\"/m~0n\",\"value\":2}]"},
    {"{\"a/b\":{\"x\":1}}", "{\"a/b\":{\"x\":2}}",
     "[{\"op\":\"replace\",\"path\":\"/a~1b/x\",\"value\":2}]"},
    {"1", "\"x\"", "[{\"op\":\"replace\",\"path\":\"\",\"value\":\"x\"}]"},
    {"{}", "[]", "[{\"op\":\"replace\",\"path\":\"\",\"value\":[]}]"},
    {"{\"a\":[1]}", "{\"a\":{\"0\":1}}",
     "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":{\"0\":1}}]"},
};

START_TEST(diff_has_the_canonical_shape)
{
    json_t *a = J(exact[_i].old_doc), *b = J(exact[_i].new_doc);
    json_t *ops = proto_patch_diff(a, b);
    /* No JSON_SORT_KEYS: the op's own key order ("op", "path", "value") is part of the form. */
    char *s = json_dumps(ops, JSON_COMPACT);
    ck_assert_str_eq(s, exact[_i].patch);
    free(s);
    json_decref(ops);
    json_decref(a);
    json_decref(b);
}
END_TEST

START_TEST(diff_is_deterministic_whatever_the_key_insertion_order)
{
    /* Same content, keys inserted in opposite orders. */
    json_t *old1 = J("{\"z\":1,\"m\":{\"q\":1,\"b\":2},\"a\":[1,{\"y\":1,\"x\":2}],\"k\":0}");
    json_t *old2 = J("{\"k\":0,\"a\":[1,{\"x\":2,\"y\":1}],\"m\":{\"b\":2,\"q\":1},\"z\":1}");
    json_t *new1 = J("{\"z\":2,\"m\":{\"q\":3,\"c\":2},\"a\":[1,{\"y\":0,\"w\":2}],\"n\":1}");
    json_t *new2 = J("{\"n\":1,\"a\":[1,{\"w\":2,\"y\":0}],\"m\":{\"c\":2,\"q\":3},\"z\":2}");
    json_t *d1 = proto_patch_diff(old1, new1), *d1b = proto_patch_diff(old1, new1);
    json_t *d2 = proto_patch_diff(old2, new2);
    char *s1 = json_dumps(d1, JSON_COMPACT), *s1b = json_dumps(d1b, JSON_COMPACT);
    char *s2 = json_dumps(d2, JSON_COMPACT);
    ck_assert_str_eq(s1, s1b);
    ck_assert_str_eq(s1, s2);
    ck_assert_int_eq(json_array_size(d1), 9);
    free(s1);
    free(s1b);
    free(s2);
    json_decref(d1);
    json_decref(d1b);
    json_decref(d2);
    json_decref(old1);
    json_decref(old2);
    json_decref(new1);
    json_decref(new2);
}
END_TEST

START_TEST(capped_log_append_and_drop_oldest_is_two_ops)
{
    json_t *old_doc = json_object(), *log = json_array();
    for (int i = 0; i < 50; i++)
        json_array_append_new(log, json_pack("{s:i,s:s}", "seq", i, "text", "rolled"));
    json_object_set_new(old_doc, "log", log);
    json_object_set_new(old_doc, "round", json_integer(3));

    json_t *new_doc = json_deep_copy(old_doc);
    json_t *new_log = json_object_get(new_doc, "log");
    json_array_remove(new_log, 0);
    json_array_append_new(new_log, json_pack("{s:i,s:s}", "seq", 50, "text", "new"));

    json_t *ops = proto_patch_diff(old_doc, new_doc);
    ck_assert_int_eq(json_array_size(ops), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(ops, 0), "op")), "remove");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(ops, 0), "path")), "/log/0");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(ops, 1), "op")), "add");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(ops, 1), "path")), "/log/49");
    assert_round_trip(old_doc, new_doc);
    json_decref(ops);
    json_decref(old_doc);
    json_decref(new_doc);
}
END_TEST

START_TEST(diff_values_are_copies_not_shared)
{
    json_t *a = J("{}"), *b = J("{\"x\":{\"y\":[1]}}");
    json_t *ops = proto_patch_diff(a, b);
    json_t *value = json_object_get(json_array_get(ops, 0), "value");
    ck_assert_ptr_ne(value, json_object_get(b, "x"));
    ck_assert(json_equal(value, json_object_get(b, "x")));
    json_decref(ops);
    json_decref(a);
    json_decref(b);
}
END_TEST

/* --- JSON Pointer ---------------------------------------------------------------------------- */

/* RFC 6901 §5's document and its examples, plus paths that name nothing. */
static const char *rfc6901_doc = "{\"foo\":[\"bar\",\"baz\"],\"\":0,\"a/b\":1,\"c%d\":2,\"e^f\":3,"
                                 "\"g|h\":4,\"i\\\\j\":5,\"k\\\"l\":6,\" \":7,\"m~n\":8}";
static const struct {
    const char *path, *want; /* want NULL: names nothing */
} pointers[] = {
    {"", NULL /* the whole document, checked apart */},
    {"/foo", "[\"bar\",\"baz\"]"},
    {"/foo/0", "\"bar\""},
    {"/foo/1", "\"baz\""},
    {"/", "0"},
    {"/a~1b", "1"},
    {"/c%d", "2"},
    {"/e^f", "3"},
    {"/g|h", "4"},
    {"/i\\j", "5"},
    {"/k\"l", "6"},
    {"/ ", "7"},
    {"/m~0n", "8"},
    {"/foo/2", NULL},
    {"/foo/-", NULL},
    {"/foo/01", NULL},
    {"/foo/-1", NULL},
    {"/foo/x", NULL},
    {"/foo/0/x", NULL},
    {"/nope", NULL},
    {"/m~n", NULL},
    {"/m~2n", NULL},
    {"foo", NULL},
    {"/foo/99999999999999999999999", NULL},
};

START_TEST(pointer_get_follows_rfc6901)
{
    json_t *doc = J(rfc6901_doc);
    json_t *got = proto_pointer_get(doc, pointers[_i].path);
    if (_i == 0) {
        ck_assert_ptr_eq(got, doc);
    } else if (!pointers[_i].want) {
        ck_assert_msg(got == NULL, "%s should name nothing", pointers[_i].path);
    } else {
        json_t *want = J(pointers[_i].want);
        ck_assert_msg(got && json_equal(got, want), "%s", pointers[_i].path);
        json_decref(want);
    }
    json_decref(doc);
}
END_TEST

START_TEST(pointer_parse_unescapes_tokens)
{
    proto_pointer p;
    tb_err err = {0};
    ck_assert_int_eq(proto_pointer_parse("/a~1b/~01/m~0n//", &p, &err), 0);
    ck_assert_uint_eq(p.n, 5);
    ck_assert_str_eq(p.tokens[0], "a/b");
    ck_assert_str_eq(p.tokens[1], "~1");
    ck_assert_str_eq(p.tokens[2], "m~n");
    ck_assert_str_eq(p.tokens[3], "");
    ck_assert_str_eq(p.tokens[4], "");
    proto_pointer_free(&p);
    proto_pointer_free(&p); /* twice is safe */

    ck_assert_int_eq(proto_pointer_parse("", &p, &err), 0);
    ck_assert_uint_eq(p.n, 0);
    proto_pointer_free(&p);

    ck_assert_int_eq(proto_pointer_parse("a", &p, &err), TB_BAD_REQUEST);
    ck_assert_int_eq(err.code, TB_BAD_REQUEST);
    ck_assert_int_eq(proto_pointer_parse("/a~", &p, &err), TB_BAD_REQUEST);
    ck_assert_int_eq(proto_pointer_parse("/a~2", &p, &err), TB_BAD_REQUEST);
    ck_assert_int_eq(proto_pointer_parse(NULL, &p, &err), TB_BAD_REQUEST);
    ck_assert_uint_eq(p.n, 0);
}
END_TEST

START_TEST(pointer_index_rejects_non_canonical_numbers)
{
    size_t i = 77;
    ck_assert_int_eq(proto_pointer_index("0", &i), 0);
    ck_assert_uint_eq(i, 0);
    ck_assert_int_eq(proto_pointer_index("120", &i), 0);
    ck_assert_uint_eq(i, 120);
    ck_assert_int_eq(proto_pointer_index("00", &i), -1);
    ck_assert_int_eq(proto_pointer_index("012", &i), -1);
    ck_assert_int_eq(proto_pointer_index("-", &i), -1);
    ck_assert_int_eq(proto_pointer_index("", &i), -1);
    ck_assert_int_eq(proto_pointer_index("1e2", &i), -1);
    ck_assert_int_eq(proto_pointer_index("+1", &i), -1);
    ck_assert_int_eq(proto_pointer_index("99999999999999999999999999", &i), -1);
    ck_assert_uint_eq(i, 120);
}
END_TEST

/* --- apply ----------------------------------------------------------------------------------- */

/* want NULL: the patch must fail with `code`, and the message must contain `msg`. */
static const struct {
    const char *doc, *patch, *want;
    tb_code code;
    const char *msg;
} applies[] = {
    /* RFC 6902 appendix A */
    /* A.1 */ {"{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]",
               "{\"baz\":\"qux\",\"foo\":\"bar\"}", TB_OK, NULL},
    /* A.2 */
    {"{\"foo\":[\"bar\",\"baz\"]}", "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
     "{\"foo\":[\"bar\",\"qux\",\"baz\"]}", TB_OK, NULL},
    /* A.3 */
    {"{\"baz\":\"qux\",\"foo\":\"bar\"}", "[{\"op\":\"remove\",\"path\":\"/baz\"}]",
     "{\"foo\":\"bar\"}", TB_OK, NULL},
    /* A.4 */
    {"{\"foo\":[\"bar\",\"qux\",\"baz\"]}", "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]",
     "{\"foo\":[\"bar\",\"baz\"]}", TB_OK, NULL},
    /* A.5 */
    {"{\"baz\":\"qux\",\"foo\":\"bar\"}",
     "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
     "{\"baz\":\"boo\",\"foo\":\"bar\"}", TB_OK, NULL},
    /* A.6 */
    {"{\"foo\":{\"bar\":\"baz\",\"waldo\":\"fred\"},\"qux\":{\"corge\":\"grault\"}}",
     "[{\"op\":\"move\",\"from\":\"/foo/waldo\",\"path\":\"/qux/thud\"}]",
     "{\"foo\":{\"bar\":\"baz\"},\"qux\":{\"corge\":\"grault\",\"thud\":\"fred\"}}", TB_OK, NULL},
    /* A.7 */
    {"{\"foo\":[\"all\",\"grass\",\"cows\",\"eat\"]}",
     "[{\"op\":\"move\",\"from\":\"/foo/1\",\"path\":\"/foo/3\"}]",
     "{\"foo\":[\"all\",\"cows\",\"eat\",\"grass\"]}", TB_OK, NULL},
    /* A.8 */
    {"{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}",
     "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"qux\"},{\"op\":\"test\",\"path\":\"/foo/1\","
     "\"value\":2}]",
     "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}", TB_OK, NULL},
    /* A.9 */
    {"{\"baz\":\"qux\"}", "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"bar\"}]", NULL,
     TB_CONFLICT, "test failed"},
    /* A.10 */
    {"{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/child\",\"value\":{\"grandchild\":{}}}]",
     "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}", TB_OK, NULL},
    /* A.11 */
    {"{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"xyz\":123}]",
     "{\"foo\":\"bar\",\"baz\":\"qux\"}", TB_OK, NULL},
    /* A.12 */
    {"{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]", NULL,
     TB_CONFLICT, "/baz/bat"},
    /* A.13 (duplicate "op" members) is rejected by the JSON parser: see its own test. */
    /* A.14 */
    {"{\"/\":9,\"~1\":10}", "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":10}]",
     "{\"/\":9,\"~1\":10}", TB_OK, NULL},
    /* A.15 */
    {"{\"/\":9,\"~1\":10}", "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":\"10\"}]", NULL,
     TB_CONFLICT, "test failed"},
    /* A.16 */
    {"{\"foo\":[\"bar\"]}", "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":[\"abc\",\"def\"]}]",
     "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}", TB_OK, NULL},

    /* each op, more cases */
    {"{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/a\",\"value\":2}]", "{\"a\":2}", TB_OK, NULL},
    {"{\"a\":[1]}", "[{\"op\":\"add\",\"path\":\"/a/1\",\"value\":2}]", "{\"a\":[1,2]}", TB_OK,
     NULL},
    {"{\"a\":[1]}", "[{\"op\":\"add\",\"path\":\"/a/0\",\"value\":0}]", "{\"a\":[0,1]}", TB_OK,
     NULL},
    {"{\"a\":1}", "[{\"op\":\"add\",\"path\":\"\",\"value\":[1]}]", "[1]", TB_OK, NULL},
    {"{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"\",\"value\":\"x\"}]", "\"x\"", TB_OK, NULL},
    {"{\"a\":{\"b\":[1,2,3]}}", "[{\"op\":\"replace\",\"path\":\"/a/b/2\",\"value\":null}]",
     "{\"a\":{\"b\":[1,2,null]}}", TB_OK, NULL},
    {"{\"a\":[1,2,3]}",
     "[{\"op\":\"remove\",\"path\":\"/a/2\"},{\"op\":\"remove\",\"path\":\"/a/0\"}]", "{\"a\":[2]}",
     TB_OK, NULL},
    {"{\"a\":{\"x\":1},\"b\":{}}", "[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/b/c\"}]",
     "{\"a\":{\"x\":1},\"b\":{\"c\":{\"x\":1}}}", TB_OK, NULL},
    {"{\"a\":[1,2]}", "[{\"op\":\"copy\",\"from\":\"/a/0\",\"path\":\"/a/-\"}]", "{\"a\":[1,2,1]}",
     TB_OK, NULL},
    {"{\"a\":{\"x\":1}}",
     "[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/b\"},{\"op\":\"add\",\"path\":\"/b/y\","
     "\"value\":2}]",
     "{\"a\":{\"x\":1},\"b\":{\"x\":1,\"y\":2}}", TB_OK, NULL},
    {"{\"a\":{\"x\":1}}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/b\"}]",
     "{\"b\":{\"x\":1}}", TB_OK, NULL},
    {"{\"a\":{\"x\":1}}", "[{\"op\":\"move\",\"from\":\"/a/x\",\"path\":\"\"}]", "1", TB_OK, NULL},
    {"{\"a\":1}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a\"}]", "{\"a\":1}", TB_OK, NULL},
    {"{\"a\":1}", "[{\"op\":\"move\",\"from\":\"\",\"path\":\"\"}]", "{\"a\":1}", TB_OK, NULL},
    {"{\"a\":[1,2,3]}", "[{\"op\":\"move\",\"from\":\"/a/0\",\"path\":\"/a/-\"}]",
     "{\"a\":[2,3,1]}", TB_OK, NULL},
    {"{\"a\":1.0}", "[{\"op\":\"test\",\"path\":\"/a\",\"value\":1}]", "{\"a\":1.0}", TB_OK, NULL},
    {"{\"a\":[{\"b\":2}]}", "[{\"op\":\"test\",\"path\":\"/a\",\"value\":[{\"b\":2.0}]}]",
     "{\"a\":[{\"b\":2}]}", TB_OK, NULL},
    {"{\"a\":1}", "[{\"op\":\"test\",\"path\":\"\",\"value\":{\"a\":1}}]", "{\"a\":1}", TB_OK,
     NULL},
    {"{\"a\":1}", "[]", "{\"a\":1}", TB_OK, NULL},

    /* malformed patches and ops: TB_BAD_REQUEST */
    {"{}", "{}", NULL, TB_BAD_REQUEST, "array"},
    {"{}", "[1]", NULL, TB_BAD_REQUEST, "op 0: not an object"},
    {"{}", "[{\"path\":\"/a\"}]", NULL, TB_BAD_REQUEST, "\"op\""},
    {"{}", "[{\"op\":7,\"path\":\"/a\"}]", NULL, TB_BAD_REQUEST, "\"op\""},
    {"{}", "[{\"op\":\"frob\",\"path\":\"/a\"}]", NULL, TB_BAD_REQUEST, "unknown op"},
    {"{}", "[{\"op\":\"add\",\"value\":1}]", NULL, TB_BAD_REQUEST, "\"path\""},
    {"{}", "[{\"op\":\"add\",\"path\":\"a\",\"value\":1}]", NULL, TB_BAD_REQUEST, "pointer"},
    {"{}", "[{\"op\":\"add\",\"path\":\"/~2\",\"value\":1}]", NULL, TB_BAD_REQUEST, "pointer"},
    {"{}", "[{\"op\":\"add\",\"path\":\"/a\"}]", NULL, TB_BAD_REQUEST, "missing \"value\""},
    {"{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"/a\"}]", NULL, TB_BAD_REQUEST, "\"value\""},
    {"{\"a\":1}", "[{\"op\":\"test\",\"path\":\"/a\"}]", NULL, TB_BAD_REQUEST, "\"value\""},
    {"{\"a\":1}", "[{\"op\":\"move\",\"path\":\"/b\"}]", NULL, TB_BAD_REQUEST, "\"from\""},
    {"{\"a\":1}", "[{\"op\":\"copy\",\"path\":\"/b\",\"from\":\"a\"}]", NULL, TB_BAD_REQUEST,
     "\"from\""},
    {"{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"\"}]", NULL, TB_BAD_REQUEST, "root"},
    {"{\"a\":{\"b\":1}}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a/b/c\"}]", NULL,
     TB_BAD_REQUEST, "children"},
    {"{\"a\":{}}", "[{\"op\":\"move\",\"from\":\"\",\"path\":\"/a/b\"}]", NULL, TB_BAD_REQUEST,
     "children"},

    /* paths that do not exist: TB_CONFLICT */
    {"{}", "[{\"op\":\"remove\",\"path\":\"/missing\"}]", NULL, TB_CONFLICT, "\"/missing\""},
    {"{}", "[{\"op\":\"replace\",\"path\":\"/missing\",\"value\":1}]", NULL, TB_CONFLICT,
     "does not exist"},
    {"{\"a\":[1]}", "[{\"op\":\"add\",\"path\":\"/a/2\",\"value\":1}]", NULL, TB_CONFLICT, "range"},
    {"{\"a\":[1]}", "[{\"op\":\"add\",\"path\":\"/a/01\",\"value\":1}]", NULL, TB_CONFLICT,
     "range"},
    {"{\"a\":[1]}", "[{\"op\":\"remove\",\"path\":\"/a/-\"}]", NULL, TB_CONFLICT, "exist"},
    {"{\"a\":[1]}", "[{\"op\":\"replace\",\"path\":\"/a/1\",\"value\":1}]", NULL, TB_CONFLICT,
     "exist"},
    {"{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/a/b\",\"value\":1}]", NULL, TB_CONFLICT,
     "not an object or array"},
    {"{\"a\":1}", "[{\"op\":\"copy\",\"from\":\"/b\",\"path\":\"/c\"}]", NULL, TB_CONFLICT,
     "\"from\" does not exist"},
    {"{\"a\":1}", "[{\"op\":\"move\",\"from\":\"/b\",\"path\":\"/c\"}]", NULL, TB_CONFLICT,
     "\"from\" does not exist"},
    {"{\"a\":1}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/x/y\"}]", NULL, TB_CONFLICT,
     "parent"},
    {"{\"a\":1}", "[{\"op\":\"test\",\"path\":\"/b\",\"value\":1}]", NULL, TB_CONFLICT, "exist"},
    {"{\"a\":[1]}", "[{\"op\":\"test\",\"path\":\"/a\",\"value\":[1,2]}]", NULL, TB_CONFLICT,
     "test failed"},
    {"{\"a\":null}", "[{\"op\":\"test\",\"path\":\"/a\",\"value\":false}]", NULL, TB_CONFLICT,
     "test failed"},
    /* the message names the failing op's index */
    {"{\"a\":1}",
     "[{\"op\":\"add\",\"path\":\"/b\",\"value\":2},{\"op\":\"remove\",\"path\":\"/a\"},{\"op\":"
     "\"remove\",\"path\":\"/zz\"}]",
     NULL, TB_CONFLICT, "patch op 2 (remove \"/zz\")"},
};

START_TEST(apply_follows_rfc6902)
{
    json_t *doc = J(applies[_i].doc), *patch = J(applies[_i].patch);
    char *before = dump(doc);
    tb_err err = {0};
    json_t *got = proto_patch_apply(doc, patch, &err);
    if (applies[_i].want) {
        json_t *want = J(applies[_i].want);
        char *got_s = got ? dump(got) : NULL;
        ck_assert_msg(got != NULL, "case %d failed: %s", _i, err.msg);
        ck_assert_msg(json_equal(got, want), "case %d: got %s", _i, got_s);
        free(got_s);
        json_decref(want);
    } else {
        ck_assert_msg(got == NULL, "case %d should fail", _i);
        ck_assert_msg(err.code == applies[_i].code, "case %d: code %s, message %s", _i,
                      tb_code_name(err.code), err.msg);
        ck_assert_msg(strstr(err.msg, applies[_i].msg) != NULL, "case %d: message '%s' lacks '%s'",
                      _i, err.msg, applies[_i].msg);
    }
    char *after = dump(doc);
    ck_assert_str_eq(before, after); /* doc is never modified */
    free(before);
    free(after);
    json_decref(got);
    json_decref(doc);
    json_decref(patch);
}
END_TEST

START_TEST(rfc6902_a13_duplicate_op_member_is_rejected_by_the_parser)
{
    const char *a13 = "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"op\":\"remove\"}]";
    json_error_t e;
    json_t *patch = json_loads(a13, JSON_REJECT_DUPLICATES, &e);
    ck_assert_ptr_null(patch);
    ck_assert_int_eq(json_error_code(&e), json_error_duplicate_key);
}
END_TEST

START_TEST(failed_patch_is_atomic)
{
    json_t *doc = J("{\"a\":1,\"l\":[1,2]}");
    json_t *patch = J("[{\"op\":\"add\",\"path\":\"/b\",\"value\":2},"
                      "{\"op\":\"remove\",\"path\":\"/nope\"},"
                      "{\"op\":\"add\",\"path\":\"/c\",\"value\":3}]");
    tb_err err = {0};
    json_t *got = proto_patch_apply(doc, patch, &err);
    ck_assert_ptr_null(got);
    ck_assert_int_eq(err.code, TB_CONFLICT);
    ck_assert_ptr_nonnull(strstr(err.msg, "op 1"));
    ck_assert_ptr_nonnull(strstr(err.msg, "/nope"));
    char *s = json_dumps(doc, JSON_COMPACT);
    ck_assert_str_eq(s, "{\"a\":1,\"l\":[1,2]}");
    free(s);
    json_decref(doc);
    json_decref(patch);
}
END_TEST

START_TEST(error_message_cuts_long_paths_and_never_quotes_values)
{
    json_t *doc = J("{}");
    json_t *patch =
        json_pack("[{s:s,s:s,s:s}]", "op", "replace", "path",
                  "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                  "value", "SECRET-VALUE");
    tb_err err = {0};
    ck_assert_ptr_null(proto_patch_apply(doc, patch, &err));
    ck_assert_int_eq(err.code, TB_CONFLICT);
    ck_assert_ptr_nonnull(strstr(err.msg, "...\""));
    ck_assert_ptr_null(strstr(err.msg, "SECRET"));
    ck_assert_uint_lt(strlen(err.msg), 160);
    json_decref(doc);
    json_decref(patch);
}
END_TEST

START_TEST(apply_without_err_pointer_still_fails_cleanly)
{
    json_t *doc = J("{}"), *patch = J("[{\"op\":\"remove\",\"path\":\"/x\"}]");
    ck_assert_ptr_null(proto_patch_apply(doc, patch, NULL));
    ck_assert_ptr_null(proto_patch_apply(NULL, patch, NULL));
    json_decref(doc);
    json_decref(patch);
}
END_TEST

/* --- randomized round trips ------------------------------------------------------------------ */

/* xorshift64*: a tiny fixed-seed generator, so a failure reproduces. */
typedef struct rng {
    uint64_t s;
} rng;

static uint32_t next(rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1DULL) >> 32);
}

static uint32_t below(rng *r, uint32_t n)
{
    return next(r) % n;
}

static const char *const key_pool[] = {"a", "b", "c", "hp", "a/b", "m~n",
                                       "~", "/", "",  "~1", "log"};

static json_t *gen(rng *r, int depth)
{
    uint32_t kind = below(r, depth > 0 ? 9 : 6);
    switch (kind) {
    case 0:
        return json_null();
    case 1:
        return json_boolean(below(r, 2));
    case 2:
        return json_integer(below(r, 5));
    case 3:
        return json_real(below(r, 3) + 0.5);
    case 4:
    case 5: {
        char s[2] = {(char)('p' + below(r, 4)), '\0'};
        return json_string(s);
    }
    case 6:
    case 7: {
        json_t *a = json_array();
        for (uint32_t i = below(r, 5); i > 0; i--)
            json_array_append_new(a, gen(r, depth - 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        for (uint32_t i = below(r, 5); i > 0; i--)
            json_object_set_new(o, key_pool[below(r, N_ELEMS(key_pool))], gen(r, depth - 1));
        return o;
    }
    }
}

/* Changes v in place here and there; returns the (possibly replaced) value, owning it. */
static json_t *mutate(json_t *v, rng *r, int depth)
{
    if (below(r, 8) == 0 || (!json_is_object(v) && !json_is_array(v))) {
        if (below(r, 3) == 0)
            return v; /* leave it */
        json_decref(v);
        return gen(r, depth);
    }
    for (uint32_t actions = 1 + below(r, 3); actions > 0; actions--) {
        if (json_is_object(v)) {
            const char *key = key_pool[below(r, N_ELEMS(key_pool))];
            json_t *cur = json_object_get(v, key);
            uint32_t what = below(r, 3);
            if (what == 0 && cur)
                json_object_del(v, key);
            else if (what == 1 && cur)
                json_object_set_new(v, key, mutate(json_incref(cur), r, depth - 1));
            else
                json_object_set_new(v, key, gen(r, depth - 1));
        } else {
            size_t n = json_array_size(v);
            uint32_t what = below(r, 5);
            if (what == 0 && n) {
                json_array_remove(v, below(r, (uint32_t)n));
            } else if (what == 1 && n) {
                size_t i = below(r, (uint32_t)n);
                json_array_set_new(v, i, mutate(json_incref(json_array_get(v, i)), r, depth - 1));
            } else if (what == 2 && n) { /* a capped log: drop the oldest, append one */
                json_array_remove(v, 0);
                json_array_append_new(v, gen(r, depth - 1));
            } else {
                json_array_insert_new(v, below(r, (uint32_t)n + 1), gen(r, depth - 1));
            }
        }
    }
    return v;
}

START_TEST(random_documents_round_trip)
{
    rng r = {0x9E3779B97F4A7C15ULL};
    for (int iter = 0; iter < 3000; iter++) {
        json_t *a = gen(&r, 4);
        json_t *b = mutate(json_deep_copy(a), &r, 4);
        assert_round_trip(a, b);
        assert_round_trip(b, a);
        json_decref(a);
        json_decref(b);
    }
}
END_TEST

static Suite *jsonpatch_suite(void)
{
    Suite *s = suite_create("jsonpatch");
    TCase *tc = tcase_create("diff");
    tcase_add_loop_test(tc, diff_then_apply_gives_the_new_document, 0, N_ELEMS(pairs));
    tcase_add_loop_test(tc, diff_has_the_canonical_shape, 0, N_ELEMS(exact));
    tcase_add_test(tc, diff_is_deterministic_whatever_the_key_insertion_order);
    tcase_add_test(tc, capped_log_append_and_drop_oldest_is_two_ops);
    tcase_add_test(tc, diff_values_are_copies_not_shared);
    suite_add_tcase(s, tc);

    tc = tcase_create("pointer");
    tcase_add_loop_test(tc, pointer_get_follows_rfc6901, 0, N_ELEMS(pointers));
    tcase_add_test(tc, pointer_parse_unescapes_tokens);
    tcase_add_test(tc, pointer_index_rejects_non_canonical_numbers);
    suite_add_tcase(s, tc);

    tc = tcase_create("apply");
    tcase_add_loop_test(tc, apply_follows_rfc6902, 0, N_ELEMS(applies));
    tcase_add_test(tc, rfc6902_a13_duplicate_op_member_is_rejected_by_the_parser);
    tcase_add_test(tc, failed_patch_is_atomic);
    tcase_add_test(tc, error_message_cuts_long_paths_and_never_quotes_values);
    tcase_add_test(tc, apply_without_err_pointer_still_fails_cleanly);
    suite_add_tcase(s, tc);

    tc = tcase_create("random");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_documents_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(jsonpatch_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
