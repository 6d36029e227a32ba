/*
 * test_message.c — client messages parsed and validated (protocol/message.c): every message type,
 * every validation error, token secrecy in error messages, and the exact JSON of every server
 * message builder.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

#define TOKEN16 "abcdefghijklmnop"
#define E_ACUTE "\xc3\xa9" /* U+00E9, 2 bytes */
#define E10 E_ACUTE E_ACUTE E_ACUTE E_ACUTE E_ACUTE E_ACUTE E_ACUTE E_ACUTE E_ACUTE E_ACUTE
#define HAN "\xe4\xb8\xad" /* U+4E2D, 3 bytes */
#define H10 HAN HAN HAN HAN HAN HAN HAN HAN HAN HAN
#define A16 "aaaaaaaaaaaaaaaa"
#define A64 A16 A16 A16 A16

/* Parses a NUL-terminated message; asserts success. */
static void parse_ok(const char *s, proto_msg *m)
{
    tb_err err = {0};
    int rc = proto_parse_client(s, strlen(s), m, &err);
    ck_assert_msg(rc == 0, "'%s' rejected: %s", s, err.msg);
    ck_assert_ptr_nonnull(m->root);
}

/* --- valid messages -------------------------------------------------------------------------- */

/* issue 26: an ack written from its result's stored text is byte for byte the encoded ack */
START_TEST(ack_text_is_the_encoded_ack)
{
    const char *results[] = {"{\"id\":\"c1\",\"n\":[1,-2,{\"s\":\"\u00e9 \\\"q\\\"\"}]}", NULL};
    const char *ids[] = {"r-1", "caf\u00e9 \"x\"", NULL};
    long long seqs[] = {-1, 0, 42};
    long long entries[] = {0, 7};
    for (size_t r = 0; r < 2; r++)
        for (size_t i = 0; i < 3; i++)
            for (size_t q = 0; q < 3; q++)
                for (size_t n = 0; n < 2; n++) {
                    json_t *res = results[r] ? json_loads(results[r], 0, NULL) : NULL;
                    size_t len = 0;
                    char *text = res ? proto_json_dump(res, &len) : NULL;
                    json_t *ack = proto_msg_ack(ids[i], seqs[q], res);
                    if (entries[n])
                        json_object_set_new(ack, "entry", json_integer(entries[n]));
                    size_t want_len = 0;
                    char *want = proto_json_dump(ack, &want_len);
                    char *got = proto_ack_text(ids[i], seqs[q], text, len, entries[n]);
                    ck_assert_str_eq(got, want);
                    free(got);
                    free(want);
                    free(text);
                    json_decref(ack);
                }
}
END_TEST

START_TEST(hello_is_parsed)
{
    proto_msg m;
    parse_ok("{\"t\":\"hello\",\"v\":1,\"token\":\"" TOKEN16 "\"}", &m);
    ck_assert_int_eq(m.t, PROTO_HELLO);
    ck_assert_str_eq(m.token, TOKEN16);
    ck_assert_int_eq(m.has_last_seq, 0);
    proto_msg_clear(&m);

    parse_ok("{\"t\":\"hello\",\"v\":1,\"token\":\"Ab0-_" A16 "\",\"last_seq\":42,\"extra\":[1]}",
             &m);
    ck_assert_int_eq(m.t, PROTO_HELLO);
    ck_assert_str_eq(m.token, "Ab0-_" A16);
    ck_assert_int_eq(m.has_last_seq, 1);
    ck_assert_int_eq(m.last_seq, 42);
    proto_msg_clear(&m);

    parse_ok("{\"last_seq\":0,\"token\":\"" TOKEN16 "\",\"v\":1,\"t\":\"hello\"}", &m);
    ck_assert_int_eq(m.has_last_seq, 1);
    ck_assert_int_eq(m.last_seq, 0);
    proto_msg_clear(&m);
}
END_TEST

START_TEST(hello_accepts_a_256_char_token)
{
    char buf[400], tok[257];
    memset(tok, 'Z', 256);
    tok[256] = '\0';
    snprintf(buf, sizeof buf, "{\"t\":\"hello\",\"v\":1,\"token\":\"%s\"}", tok);
    proto_msg m;
    parse_ok(buf, &m);
    ck_assert_uint_eq(strlen(m.token), 256);
    proto_msg_clear(&m);
}
END_TEST

static const struct {
    const char *json, *code, *name;
} joins[] = {
    {"{\"t\":\"join\",\"code\":\"K7QF-2M9X\",\"name\":\"Ann\"}", "K7QF-2M9X", "Ann"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"  Ann Lee \\t\\n\"}", "K", "Ann Lee"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"Al\"}", "K", "Al"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"x\"}", "K", "x"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"" E10 E10 E10 E10 "\"}", "K", E10 E10 E10 E10},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\" " H10 H10 H10 H10 " \"}", "K", H10 H10 H10 H10},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"\\ud83c\\udfb2 dice\"}", "K",
     "\xf0\x9f\x8e\xb2 dice"},
    {"{\"t\":\"join\",\"code\":\"" A16 A16 "\",\"name\":\"" A16 A16 "aaaaaaaa\"}", A16 A16,
     A16 A16 "aaaaaaaa"},
};

START_TEST(join_is_parsed_and_name_trimmed)
{
    proto_msg m;
    parse_ok(joins[_i].json, &m);
    ck_assert_int_eq(m.t, PROTO_JOIN);
    ck_assert_str_eq(m.code, joins[_i].code);
    ck_assert_str_eq(m.name, joins[_i].name);
    /* the trimmed name is owned by the message */
    ck_assert_ptr_eq(m.name, json_string_value(json_object_get(m.root, "name")));
    proto_msg_clear(&m);
}
END_TEST

START_TEST(cmd_is_parsed)
{
    proto_msg m;
    parse_ok("{\"t\":\"cmd\",\"id\":\"c-1 !~\",\"op\":\"roll\",\"args\":{\"expr\":\"2d6\"}}", &m);
    ck_assert_int_eq(m.t, PROTO_CMD);
    ck_assert_str_eq(m.id, "c-1 !~");
    ck_assert_str_eq(m.op, "roll");
    ck_assert(json_is_object(m.args));
    ck_assert_str_eq(json_string_value(json_object_get(m.args, "expr")), "2d6");
    proto_msg_clear(&m);

    parse_ok("{\"t\":\"cmd\",\"id\":\"" A64 "\",\"op\":\"encounter.cot_chase.start2\"}", &m);
    ck_assert_str_eq(m.op, "encounter.cot_chase.start2");
    ck_assert_uint_eq(strlen(m.id), 64);
    ck_assert(json_is_object(m.args));
    ck_assert_uint_eq(json_object_size(m.args), 0);
    ck_assert_ptr_eq(m.args, json_object_get(m.root, "args")); /* owned by root */
    proto_msg_clear(&m);
}
END_TEST

START_TEST(ping_is_parsed)
{
    proto_msg m;
    parse_ok("{\"t\":\"ping\"}", &m);
    ck_assert_int_eq(m.t, PROTO_PING);
    ck_assert_ptr_null(m.n);
    proto_msg_clear(&m);

    parse_ok("{\"t\":\"ping\",\"n\":5}", &m);
    ck_assert_int_eq(json_integer_value(m.n), 5);
    proto_msg_clear(&m);

    parse_ok("{\"t\":\"ping\",\"n\":2.5}", &m);
    ck_assert(json_real_value(m.n) == 2.5);
    proto_msg_clear(&m);
}
END_TEST

START_TEST(clear_is_safe_on_zeroed_and_cleared_structs)
{
    proto_msg m;
    memset(&m, 0, sizeof m);
    proto_msg_clear(&m);
    parse_ok("{\"t\":\"ping\"}", &m);
    proto_msg_clear(&m);
    ck_assert_ptr_null(m.root);
    proto_msg_clear(&m);
    proto_msg_clear(NULL);
}
END_TEST

/* --- validation errors ----------------------------------------------------------------------- */

static const struct {
    const char *input;
    size_t len; /* 0: strlen(input) */
    const char *msg;
} bad[] = {
    /* not JSON, not an object, no type */
    {"", 0, "invalid JSON"},
    {"not json", 0, "invalid JSON at byte"},
    {"{\"t\":\"hello\"", 0, "unexpected end of input"},
    {"{\"t\":\"ping\"} x", 0, "unexpected data"},
    {"{\"t\":\"\xff\"}", 0, "invalid UTF-8"},
    {"{\"t\":\"ping\",\"n\":\"\xc3\x28\"}", 0, "invalid UTF-8"},
    {"{\"t\":\"\xed\xa0\x80\"}", 0, "invalid UTF-8"}, /* an encoded surrogate */
    {"{\"t\":\"ping\"}\0", 13, "invalid JSON"},
    {"{\"t\":\"pi\0ng\"}", 13, "invalid JSON"},
    {"{\"t\":\"pi\\u0000ng\"}", 0, "NUL character"},
    {"[{\"t\":\"ping\"}]", 0, "must be a JSON object"},
    {"42", 0, "must be a JSON object"},
    {"\"ping\"", 0, "must be a JSON object"},
    {"null", 0, "must be a JSON object"},
    {"{}", 0, "field 't' is missing"},
    {"{\"T\":\"ping\"}", 0, "field 't' is missing"},
    {"{\"t\":5}", 0, "field 't' must be a string"},
    {"{\"t\":null}", 0, "field 't' must be a string"},
    {"{\"t\":[\"ping\"]}", 0, "field 't' must be a string"},
    {"{\"t\":\"x\"}", 0, "unknown message type 'x'"},
    {"{\"t\":\"Hello\"}", 0, "unknown message type 'Hello'"},
    {"{\"t\":\"\"}", 0, "unknown message type ''"},
    {"{\"t\":\"" A64 "\"}", 0, "unknown message type '" A16 A16 "aaaaaaaa...'"},
    {"{\"t\":\"" E10 E10 E10 "\"}", 0, "unknown message type '" E10 E10 "...'"},
    {"{\"t\":\"ping\",\"t\":\"ping\"}", 0, "duplicate key"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"roll\",\"args\":{\"a\":1,\"a\":2}}", 0, "duplicate key"},

    /* hello */
    {"{\"t\":\"hello\",\"token\":\"" TOKEN16 "\"}", 0, "unsupported protocol version"},
    {"{\"t\":\"hello\",\"v\":2,\"token\":\"" TOKEN16 "\"}", 0, "unsupported protocol version"},
    {"{\"t\":\"hello\",\"v\":0,\"token\":\"" TOKEN16 "\"}", 0, "unsupported protocol version"},
    {"{\"t\":\"hello\",\"v\":\"1\",\"token\":\"" TOKEN16 "\"}", 0, "unsupported protocol version"},
    {"{\"t\":\"hello\",\"v\":1.0,\"token\":\"" TOKEN16 "\"}", 0, "unsupported protocol version"},
    {"{\"t\":\"hello\",\"v\":null,\"token\":\"" TOKEN16 "\"}", 0, "unsupported protocol version"},
    {"{\"t\":\"hello\",\"v\":1}", 0, "field 'token' is missing"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":1234567890123456}", 0, "field 'token' must be a string"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":null}", 0, "field 'token' must be a string"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"\"}", 0, "16 to 256 base64url"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"abcdefghijklmno\"}", 0, "16 to 256 base64url"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"abcdefgh+jklmnop\"}", 0, "16 to 256 base64url"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"abcdefgh/jklmnop\"}", 0, "16 to 256 base64url"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"abcdefghijklmno=\"}", 0, "16 to 256 base64url"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"abcdefgh jklmnop\"}", 0, "16 to 256 base64url"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"" E10 "abcdefgh\"}", 0, "16 to 256 base64url"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"" TOKEN16 "\",\"last_seq\":-1}", 0,
     "field 'last_seq' must be an integer >= 0"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"" TOKEN16 "\",\"last_seq\":\"3\"}", 0,
     "field 'last_seq' must be an integer"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"" TOKEN16 "\",\"last_seq\":1.5}", 0,
     "field 'last_seq' must be an integer"},
    {"{\"t\":\"hello\",\"v\":1,\"token\":\"" TOKEN16 "\",\"last_seq\":null}", 0,
     "field 'last_seq' must be an integer"},

    /* join */
    {"{\"t\":\"join\",\"name\":\"Ann\"}", 0, "field 'code' is missing"},
    {"{\"t\":\"join\",\"code\":7,\"name\":\"Ann\"}", 0, "field 'code' must be a string"},
    {"{\"t\":\"join\",\"code\":\"\",\"name\":\"Ann\"}", 0, "field 'code' must be 1 to 32"},
    {"{\"t\":\"join\",\"code\":\"" A16 A16 "a\",\"name\":\"Ann\"}", 0,
     "field 'code' must be 1 to 32"},
    {"{\"t\":\"join\",\"code\":\"K\"}", 0, "field 'name' is missing"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":5}", 0, "field 'name' must be a string"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":{}}", 0, "field 'name' must be a string"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"\"}", 0, "field 'name' must be 1 to 40"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"  \\t \"}", 0, "field 'name' must be 1 to 40"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"" E10 E10 E10 E10 E_ACUTE "\"}", 0,
     "field 'name' must be 1 to 40"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"" A16 A16 "aaaaaaaaa\"}", 0,
     "field 'name' must be 1 to 40"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"a\\u0007b\"}", 0, "control characters"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"a\\tb\"}", 0, "control characters"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"a\\u007fb\"}", 0, "control characters"},
    {"{\"t\":\"join\",\"code\":\"K\",\"name\":\"a\\u0085b\"}", 0, "control characters"},

    /* cmd */
    {"{\"t\":\"cmd\",\"op\":\"roll\"}", 0, "field 'id' is missing"},
    {"{\"t\":\"cmd\",\"id\":1,\"op\":\"roll\"}", 0, "field 'id' must be a string"},
    {"{\"t\":\"cmd\",\"id\":\"\",\"op\":\"roll\"}", 0, "field 'id' must be 1 to 64 printable"},
    {"{\"t\":\"cmd\",\"id\":\"" A64 "a\",\"op\":\"roll\"}", 0, "field 'id' must be 1 to 64"},
    {"{\"t\":\"cmd\",\"id\":\"" E_ACUTE "\",\"op\":\"roll\"}", 0, "printable ASCII"},
    {"{\"t\":\"cmd\",\"id\":\"a\\nb\",\"op\":\"roll\"}", 0, "printable ASCII"},
    {"{\"t\":\"cmd\",\"id\":\"a\\u007f\",\"op\":\"roll\"}", 0, "printable ASCII"},
    {"{\"t\":\"cmd\",\"id\":\"1\"}", 0, "field 'op' is missing"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":[]}", 0, "field 'op' must be a string"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"\"}", 0, "field 'op' '' must be 1 to 64"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"Roll\"}", 0, "field 'op' 'Roll' must be"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"1roll\"}", 0, "starting with a letter"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\".roll\"}", 0, "starting with a letter"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"roll!\"}", 0, "[a-z0-9_.]"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"roll-check\"}", 0, "[a-z0-9_.]"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"r" A64 "\"}", 0, "1 to 64"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"roll\",\"args\":[]}", 0,
     "field 'args' must be an object"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"roll\",\"args\":\"2d6\"}", 0,
     "field 'args' must be an object"},
    {"{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"roll\",\"args\":null}", 0,
     "field 'args' must be an object"},

    /* ping */
    {"{\"t\":\"ping\",\"n\":\"5\"}", 0, "field 'n' must be a number"},
    {"{\"t\":\"ping\",\"n\":null}", 0, "field 'n' must be a number"},
    {"{\"t\":\"ping\",\"n\":true}", 0, "field 'n' must be a number"},
    {"{\"t\":\"ping\",\"n\":{}}", 0, "field 'n' must be a number"},
};

START_TEST(invalid_messages_are_bad_requests)
{
    const char *in = bad[_i].input;
    size_t len = bad[_i].len ? bad[_i].len : strlen(in);
    proto_msg m;
    memset(&m, 0x5a, sizeof m); /* garbage: parse must overwrite it */
    tb_err err = {0};
    int rc = proto_parse_client(in, len, &m, &err);
    ck_assert_msg(rc == TB_BAD_REQUEST, "case %d accepted (rc %d)", _i, rc);
    ck_assert_int_eq(err.code, TB_BAD_REQUEST);
    ck_assert_msg(strstr(err.msg, bad[_i].msg) != NULL, "case %d: message '%s' lacks '%s'", _i,
                  err.msg, bad[_i].msg);
    ck_assert_ptr_null(m.root);
    ck_assert_ptr_null(m.token);
    ck_assert_ptr_null(m.args);
    /* the message can go to a client as is: it is valid UTF-8 */
    json_t *s = json_string(err.msg);
    ck_assert_msg(s != NULL, "case %d: message is not UTF-8", _i);
    json_decref(s);
    proto_msg_clear(&m);
}
END_TEST

START_TEST(parse_without_err_pointer_still_fails)
{
    proto_msg m;
    ck_assert_int_eq(proto_parse_client("{}", 2, &m, NULL), TB_BAD_REQUEST);
    ck_assert_int_eq(proto_parse_client("{\"t\":\"hello\",\"v\":1}", 19, &m, NULL), TB_BAD_REQUEST);
    ck_assert_int_eq(proto_parse_client(NULL, 0, &m, NULL), TB_BAD_REQUEST);
    ck_assert_ptr_null(m.root);
}
END_TEST

/* Bad hellos that carry a token: the error message must not hold any of it. */
#define SECRET "S3cretT0kenQuiteLongValue"
static const char *const secret_hellos[] = {
    "{\"t\":\"hello\",\"v\":2,\"token\":\"" SECRET "\"}",
    "{\"t\":\"hello\",\"token\":\"" SECRET "\"}",
    "{\"t\":\"hello\",\"v\":1,\"token\":\"" SECRET "+\"}",
    "{\"t\":\"hello\",\"v\":1,\"token\":\"" SECRET "=\"}",
    "{\"t\":\"hello\",\"v\":1,\"token\":\"" SECRET SECRET SECRET SECRET SECRET SECRET SECRET SECRET
        SECRET SECRET SECRET "\"}",
    "{\"t\":\"hello\",\"v\":1,\"token\":\"" SECRET "\",\"last_seq\":-4}",
    "{\"t\":\"hello\",\"v\":1,\"token\":\"" SECRET "\",\"last_seq\":1,\"last_seq\":2}",
    "{\"t\":\"hello\",\"v\":1,\"token\":\"" SECRET "\xff\"}",
    "{\"t\":\"hello\",\"v\":1,\"token\":\"" SECRET,
    "{\"t\":\"hello\",\"v\":1,\"token\":\"" SECRET "\"",
    "{\"t\":\"hello\",\"v\":1,\"token\":" SECRET "}",
    "{\"t\":\"hello\",\"v\":1,\"token\":[\"" SECRET "\"]}",
};

START_TEST(hello_errors_never_echo_the_token)
{
    const char *in = secret_hellos[_i];
    proto_msg m;
    tb_err err = {0};
    ck_assert_int_eq(proto_parse_client(in, strlen(in), &m, &err), TB_BAD_REQUEST);
    ck_assert_msg(strstr(err.msg, "S3cret") == NULL && strstr(err.msg, "Value") == NULL,
                  "case %d leaks the token: %s", _i, err.msg);
}
END_TEST

/* Every message type accepts unknown fields, and a parse after a clear reuses the struct. */
START_TEST(extra_fields_are_ignored)
{
    static const char *const msgs[] = {
        "{\"t\":\"hello\",\"v\":1,\"token\":\"" TOKEN16 "\",\"x\":{\"y\":[]}}",
        "{\"t\":\"join\",\"code\":\"K\",\"name\":\"Bo\",\"color\":\"red\"}",
        "{\"t\":\"cmd\",\"id\":\"1\",\"op\":\"roll\",\"ts\":123}",
        "{\"t\":\"ping\",\"zz\":null}",
    };
    proto_msg m;
    for (size_t i = 0; i < N_ELEMS(msgs); i++) {
        parse_ok(msgs[i], &m);
        ck_assert_int_eq(m.t, (int)(PROTO_HELLO + i));
        proto_msg_clear(&m);
    }
}
END_TEST

START_TEST(utf8_prefix_cuts_on_code_points)
{
    ck_assert_uint_eq(proto_utf8_prefix("h" E_ACUTE "llo", 2), 1);
    ck_assert_uint_eq(proto_utf8_prefix("h" E_ACUTE "llo", 3), 3);
    ck_assert_uint_eq(proto_utf8_prefix("h" E_ACUTE "llo", 100), 6);
    ck_assert_uint_eq(proto_utf8_prefix(HAN HAN, 5), 3);
    ck_assert_uint_eq(proto_utf8_prefix("ab\xff", 3), 3); /* a bad byte counts as one */
    ck_assert_uint_eq(proto_utf8_prefix("", 3), 0);
    ck_assert_uint_eq(proto_utf8_prefix(NULL, 3), 0);
}
END_TEST

/* --- builders -------------------------------------------------------------------------------- */

/* Asserts the sorted compact dump of msg (a new reference, released here) equals want. */
static void assert_msg(json_t *msg, const char *want)
{
    ck_assert_ptr_nonnull(msg);
    char *s = json_dumps(msg, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_str_eq(s, want);
    free(s);
    json_decref(msg);
}

START_TEST(builders_produce_the_exact_json)
{
    assert_msg(proto_msg_welcome(
                   json_pack("{s:s,s:s,s:s}", "id", "p1", "role", "player", "name", "Ann"),
                   json_pack("{s:s,s:s,s:s}", "id", "c1", "name", "Moor", "system", "generic"), 7,
                   json_pack("{s:i}", "a", 1)),
               "{\"campaign\":{\"id\":\"c1\",\"name\":\"Moor\",\"system\":\"generic\"},"
               "\"seat\":{\"id\":\"p1\",\"name\":\"Ann\",\"role\":\"player\"},\"seq\":7,"
               "\"state\":{\"a\":1},\"t\":\"welcome\"}");
    assert_msg(
        proto_msg_welcome(json_pack("{s:s}", "id", "gm"), json_pack("{s:s}", "id", "c1"), 12, NULL),
        "{\"campaign\":{\"id\":\"c1\"},\"resume\":true,\"seat\":{\"id\":\"gm\"},\"seq\":12,"
        "\"t\":\"welcome\"}");
    assert_msg(proto_msg_welcome(NULL, NULL, 0, json_object()),
               "{\"campaign\":null,\"seat\":null,\"seq\":0,\"state\":{},\"t\":\"welcome\"}");

    assert_msg(
        proto_msg_diff(3, json_pack("[{s:s,s:s,s:i}]", "op", "add", "path", "/a", "value", 1)),
        "{\"ops\":[{\"op\":\"add\",\"path\":\"/a\",\"value\":1}],\"seq\":3,\"t\":\"diff\"}");
    assert_msg(proto_msg_diff(4, json_array()), "{\"ops\":[],\"seq\":4,\"t\":\"diff\"}");
    assert_msg(proto_msg_diff(5, NULL), "{\"ops\":[],\"seq\":5,\"t\":\"diff\"}");
    assert_msg(proto_msg_diff(9007199254740993LL, NULL),
               "{\"ops\":[],\"seq\":9007199254740993,\"t\":\"diff\"}");

    assert_msg(proto_msg_ack("c-1", 5, json_pack("{s:i}", "total", 9)),
               "{\"id\":\"c-1\",\"result\":{\"total\":9},\"seq\":5,\"t\":\"ack\"}");
    assert_msg(proto_msg_ack("c-2", -1, NULL),
               "{\"id\":\"c-2\",\"result\":null,\"seq\":null,\"t\":\"ack\"}");
    assert_msg(proto_msg_ack("c-3", 0, json_array()),
               "{\"id\":\"c-3\",\"result\":[],\"seq\":0,\"t\":\"ack\"}");

    assert_msg(proto_msg_nack("c-4", TB_RULE, "CoT p.12: no second action"),
               "{\"code\":\"rule\",\"id\":\"c-4\",\"message\":\"CoT p.12: no second action\","
               "\"t\":\"nack\"}");
    assert_msg(proto_msg_nack("c-5", TB_FORBIDDEN, "GM only"),
               "{\"code\":\"forbidden\",\"id\":\"c-5\",\"message\":\"GM only\",\"t\":\"nack\"}");

    assert_msg(proto_msg_error(TB_TOO_LARGE, "message over 65536 bytes"),
               "{\"code\":\"too_large\",\"message\":\"message over 65536 bytes\",\"t\":\"error\"}");
    assert_msg(proto_msg_error(TB_BAD_REQUEST, "say \"hi\"\n"),
               "{\"code\":\"bad_request\",\"message\":\"say \\\"hi\\\"\\n\",\"t\":\"error\"}");

    assert_msg(proto_msg_joined(TOKEN16, "p3"),
               "{\"seat\":\"p3\",\"t\":\"joined\",\"token\":\"" TOKEN16 "\"}");

    assert_msg(proto_msg_presence(json_pack("{s:b,s:b}", "p1", 1, "gm", 0)),
               "{\"seats\":{\"gm\":false,\"p1\":true},\"t\":\"presence\"}");
    assert_msg(proto_msg_presence(NULL), "{\"seats\":{},\"t\":\"presence\"}");
}
END_TEST

START_TEST(pong_copies_n)
{
    json_t *n = json_integer(41);
    assert_msg(proto_msg_pong(n), "{\"n\":41,\"t\":\"pong\"}");
    ck_assert_int_eq(n->refcount, 1); /* borrowed: still ours alone */
    json_decref(n);
    n = json_real(0.5);
    assert_msg(proto_msg_pong(n), "{\"n\":0.5,\"t\":\"pong\"}");
    json_decref(n);
    assert_msg(proto_msg_pong(NULL), "{\"n\":null,\"t\":\"pong\"}");

    /* the usual flow: the n of a parsed ping goes back in the pong */
    proto_msg m;
    parse_ok("{\"t\":\"ping\",\"n\":123}", &m);
    json_t *pong = proto_msg_pong(m.n);
    proto_msg_clear(&m);
    assert_msg(pong, "{\"n\":123,\"t\":\"pong\"}");
}
END_TEST

START_TEST(builders_repair_strings_that_are_not_utf8)
{
    assert_msg(proto_msg_nack("c\xff", TB_RULE, "bad \xc3 byte \xe4\xb8"),
               "{\"code\":\"rule\",\"id\":\"c?\",\"message\":\"bad ? byte ??\",\"t\":\"nack\"}");
    assert_msg(proto_msg_error(TB_INTERNAL, NULL),
               "{\"code\":\"internal\",\"message\":\"\",\"t\":\"error\"}");
    assert_msg(proto_msg_ack(NULL, 1, NULL),
               "{\"id\":\"\",\"result\":null,\"seq\":1,\"t\":\"ack\"}");
    assert_msg(proto_msg_joined("tok", "p" E_ACUTE),
               "{\"seat\":\"p" E_ACUTE "\",\"t\":\"joined\",\"token\":\"tok\"}");
}
END_TEST

/* An error from the parser can be sent back as is. */
START_TEST(parse_error_round_trips_into_an_error_message)
{
    proto_msg m;
    tb_err err = {0};
    const char *in = "{\"t\":\"" E10 E10 E10 "\"}";
    ck_assert_int_eq(proto_parse_client(in, strlen(in), &m, &err), TB_BAD_REQUEST);
    json_t *msg = proto_msg_error(err.code, err.msg);
    char *s = json_dumps(msg, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_str_eq(s, "{\"code\":\"bad_request\",\"message\":\"unknown message type '" E10 E10
                        "...'\",\"t\":\"error\"}");
    free(s);
    json_decref(msg);
}
END_TEST

/* --- rulebook line references out of table text (tb_cite_strip) ------------------------------ */

static const struct {
    const char *in, *text, *cite;
} cites[] = {
    {"A slot 4 for the guards (000:37)", "A slot 4 for the guards", "000:37"},
    {"Watchman Cole takes cover (000:123): Resist", "Watchman Cole takes cover: Resist", "000:123"},
    {"it is Brunhild's turn (004:666).", "it is Brunhild's turn.", "004:666"},
    {"dies of their injuries (001:165-166)", "dies of their injuries", "001:165-166"},
    {"lost (001:294-296, 001:384)", "lost", "001:294-296, 001:384"},
    {"rolls (weapon damage, 001:123, 574)", "rolls (weapon damage)", "001:123, 574"},
    {"a bonus (004:87-92, reading E6)", "a bonus (reading E6)", "004:87-92"},
    {"set (003:97 \"as set by the narrator\")", "set (\"as set by the narrator\")", "003:97"},
    {"heals (and 003:92) now", "heals now", "003:92"},
    {"stable (The rolls are the GM's, 002:258.)", "stable (The rolls are the GM's.)", "002:258"},
    {"as 002:53 says", "as says", "002:53"},
    {"two refs (000:1) and (000:2; 000:3)", "two refs and", "000:1, 000:2, 000:3"},
    /* not references: no three digits, a letter or digit before, a clock */
    {"rolls 2d100:3 and 1000:3 at 12:30 (d10)", "rolls 2d100:3 and 1000:3 at 12:30 (d10)", ""},
    {"x (weird (000:5) nesting)", "x (weird nesting)", "000:5"},
    {"", "", ""},
};

START_TEST(cite_strip_moves_line_references_out_of_text)
{
    char text[256], cite[64];
    snprintf(text, sizeof text, "%s", cites[_i].in);
    int n = tb_cite_strip(text, cite, sizeof cite);
    ck_assert_str_eq(text, cites[_i].text);
    ck_assert_str_eq(cite, cites[_i].cite);
    ck_assert_int_eq(n > 0, cites[_i].cite[0] != '\0');
}
END_TEST

/* A refusal's message reaches the table without its line reference; the nack carries it. */
START_TEST(nack_and_error_carry_the_citation_apart)
{
    assert_msg(proto_msg_nack("c1", TB_RULE, "initiative first (004:666)"),
               "{\"cite\":\"004:666\",\"code\":\"rule\",\"id\":\"c1\",\"message\":"
               "\"initiative first\",\"t\":\"nack\"}");
    assert_msg(proto_msg_error(TB_RULE, "no (001:2-3)"),
               "{\"cite\":\"001:2-3\",\"code\":\"rule\",\"message\":\"no\",\"t\":\"error\"}");
}
END_TEST

/* proto_parse_client reads the common message itself (plain ASCII strings, integers) and leaves
 * the rest to jansson: either way the tree is the one json_loadb builds, the same keys in the
 * same order, and a message jansson refuses is refused. Messages mutated from a few seeds, with a
 * fixed generator. */
static const char *const tree_seeds[] = {
    "{\"t\":\"cmd\",\"id\":\"c1\",\"op\":\"roll\",\"args\":{\"expr\":\"d20+5\",\"secret\":false}}",
    " {\"t\" : \"ping\", \"n\":-0, \"x\":[1,[2,{}],[],true,null,\"y\"]}\n",
    "{\"t\":\"cmd\",\"id\":\"c2\",\"op\":\"chat\",\"args\":{\"text\":\"a\\n\\\"b\\\" " E_ACUTE "\","
    "\"n\":123456789012345678,\"m\":-1234567890123456789,\"r\":1.5e3}}",
    "{\"t\":\"ping\",\"n\":1,\"n\":2}",
    "{\"t\":\"ping\",\"n\":01}",
};

START_TEST(the_tree_is_jansson_s)
{
    static const char alpha[] = "{}[]:,\"\\ \t\n-0123456789.eEtrufalsn\x01\x80\xc3\xa9xyz";
    unsigned long long g = 42;
#define NEXT(n) ((unsigned)((g = g * 6364136223846793005ull + 1442695040888963407ull) >> 33) % (n))
    int same = 0;
    for (int it = 0; it < 40000; it++) {
        char b[300];
        const char *seed = tree_seeds[NEXT(N_ELEMS(tree_seeds))];
        size_t n = strlen(seed);
        memcpy(b, seed, n);
        for (unsigned k = NEXT(4); k > 0; k--) {
            unsigned op = NEXT(3), at = NEXT((unsigned)n + 1);
            char c = alpha[NEXT(sizeof alpha)]; /* the NUL too */
            if (op == 0 && n < sizeof b - 1) {
                memmove(b + at + 1, b + at, n - at);
                b[at] = c;
                n++;
            } else if (op == 1 && at < n) {
                memmove(b + at, b + at + 1, n - at - 1);
                n--;
            } else if (at < n) {
                b[at] = c;
            }
        }
        json_error_t jerr;
        json_t *want = json_loadb(b, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
        proto_msg m;
        tb_err err = {0};
        int rc = proto_parse_client(b, n, &m, &err);
        ck_assert_msg(want || rc, "'%.*s' read, jansson refuses it", (int)n, b);
        if (!rc) {
            /* parse_cmd adds the args it lacked; nothing else changes a cmd's or ping's tree */
            if (m.t == PROTO_CMD && !json_object_get(want, "args"))
                json_object_set_new(want, "args", json_object());
            char *a = json_dumps(want, JSON_COMPACT), *c = json_dumps(m.root, JSON_COMPACT);
            ck_assert_msg(strcmp(a, c) == 0 && json_equal(want, m.root), "'%.*s': %s, not %s",
                          (int)n, b, c, a);
            free(a);
            free(c);
            same++;
        }
        json_decref(want);
        proto_msg_clear(&m);
    }
#undef NEXT
    ck_assert_int_gt(same, 5000); /* the loop read messages, not only refusals */
}
END_TEST

static Suite *message_suite(void)
{
    Suite *s = suite_create("message");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, hello_is_parsed);
    tcase_add_test(tc, hello_accepts_a_256_char_token);
    tcase_add_loop_test(tc, join_is_parsed_and_name_trimmed, 0, N_ELEMS(joins));
    tcase_add_test(tc, cmd_is_parsed);
    tcase_add_test(tc, ping_is_parsed);
    tcase_add_test(tc, clear_is_safe_on_zeroed_and_cleared_structs);
    tcase_add_test(tc, extra_fields_are_ignored);
    tcase_add_test(tc, the_tree_is_jansson_s);
    suite_add_tcase(s, tc);

    tc = tcase_create("validate");
    tcase_add_loop_test(tc, invalid_messages_are_bad_requests, 0, N_ELEMS(bad));
    tcase_add_test(tc, parse_without_err_pointer_still_fails);
    tcase_add_loop_test(tc, hello_errors_never_echo_the_token, 0, N_ELEMS(secret_hellos));
    tcase_add_test(tc, utf8_prefix_cuts_on_code_points);
    suite_add_tcase(s, tc);

    tc = tcase_create("build");
    tcase_add_test(tc, builders_produce_the_exact_json);
    tcase_add_test(tc, pong_copies_n);
    tcase_add_test(tc, builders_repair_strings_that_are_not_utf8);
    tcase_add_test(tc, parse_error_round_trips_into_an_error_message);
    tcase_add_loop_test(tc, cite_strip_moves_line_references_out_of_text, 0, N_ELEMS(cites));
    tcase_add_test(tc, nack_and_error_carry_the_citation_apart);
    tcase_add_test(tc, ack_text_is_the_encoded_ack);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(message_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
