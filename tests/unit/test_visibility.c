/*
 * test_visibility.c — who may see which path (protocol/visibility.c): the path rule, the state
 * snapshot a viewer gets, the ops of a patch a viewer gets, and that a player's bytes never hold
 * a secret of /gm or of another seat's /private.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const proto_viewer GM = {"gm1", 1};
static const proto_viewer P1 = {"p1", 0};
static const proto_viewer P2 = {"p2", 0};
static const proto_viewer P3 = {"p3", 0};
static const proto_viewer NOSEAT = {NULL, 0};

static json_t *J(const char *s)
{
    json_error_t e;
    json_t *j = json_loads(s, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
    ck_assert_msg(j != NULL, "bad JSON in test: %s (%s)", s, e.text);
    return j;
}

static char *dump(const json_t *j)
{
    return json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* Asserts got equals the JSON text want (NULL: got must be NULL). */
static void assert_json(const json_t *got, const char *want, const char *what)
{
    if (!want) {
        char *s = got ? dump(got) : NULL;
        ck_assert_msg(got == NULL, "%s: expected NULL, got %s", what, s);
        free(s);
        return;
    }
    ck_assert_msg(got != NULL, "%s: got NULL, want %s", what, want);
    json_t *w = J(want);
    char *g = dump(got), *ws = dump(w);
    ck_assert_msg(strcmp(g, ws) == 0, "%s: got %s want %s", what, g, ws);
    free(g);
    free(ws);
    json_decref(w);
}

/* --- proto_path_visible ---------------------------------------------------------------------- */

static const struct {
    const char *path;
    const proto_viewer *v;
    int visible;
} paths[] = {
    {"/gm", &P1, 0},
    {"/gm/x", &P1, 0},
    {"/gm/x/y/0", &P2, 0},
    {"/gm", &GM, 1},
    {"/gm/x", &GM, 1},
    {"/gmx", &P1, 1}, /* another key, not a prefix match on strings */
    {"/gmx/y", &P1, 1},
    {"/g~1m", &P1, 1},
    {"/GM", &P1, 1},
    {"/log/0", &P1, 1},
    {"/public/gm", &P1, 1},
    {"/chars/private/p2", &P1, 1},
    {"/private/p1/x", &P1, 1},
    {"/private/p1/x", &P2, 0},
    {"/private/p1/x", &GM, 1},
    {"/private/p1", &P1, 1},
    {"/private/p1", &P2, 0},
    {"/private/p1x", &P1, 0},
    {"/private/p", &P1, 0},
    {"/private/p1", &NOSEAT, 0},
    {"/private", &P1, 0},
    {"/private", &GM, 1},
    {"/privatex/p2", &P1, 1},
    {"/Private/p2", &P1, 1},
    {"", &P1, 0},
    {"", &GM, 1},
    {"/private/p~11", &P1, 0}, /* the seat "p/1", not "p1" */
    {"/private/p~01", &P1, 0},
    {"/~0gm", &P1, 1},
    {"/g~0m", &P1, 1},
    {"/gm~", &P1, 0}, /* malformed pointers are never visible to players */
    {"gm", &P1, 0},
    {"log", &P1, 0},
    {"/private/p1/~2", &P1, 0},
    /* read in place (no '~'): empty tokens and deep paths as proto_pointer_parse reads them */
    {"/", &P1, 1},
    {"/gm/", &P1, 0},
    {"/private/", &P1, 0},
    {"/private/p1/", &P1, 1},
    {"/private/p1/a/b/c", &P1, 1},
    {"/private/p1/a/b/c", &P2, 0},
    {"/log/0/gm/private", &P2, 1},
};

START_TEST(path_visibility_follows_the_first_two_tokens)
{
    ck_assert_msg(proto_path_visible(paths[_i].path, paths[_i].v) == paths[_i].visible,
                  "'%s' for %s", paths[_i].path,
                  paths[_i].v->seat ? paths[_i].v->seat : "(no seat)");
}
END_TEST

START_TEST(escaped_seat_ids_are_compared_unescaped)
{
    const proto_viewer slash = {"p/1", 0}, tilde = {"p~1", 0};
    ck_assert_int_eq(proto_path_visible("/private/p~11/x", &slash), 1);
    ck_assert_int_eq(proto_path_visible("/private/p~01/x", &tilde), 1);
    ck_assert_int_eq(proto_path_visible("/private/p~11/x", &tilde), 0);
    ck_assert_int_eq(proto_path_visible("/private/p/1", &slash), 0);
    ck_assert_int_eq(proto_path_visible("/pr~1ivate/p2", &P1), 1);
    ck_assert_int_eq(proto_path_visible(NULL, &P1), 0);
    ck_assert_int_eq(proto_path_visible("/x", NULL), 0);
}
END_TEST

/* --- proto_filter_state ---------------------------------------------------------------------- */

#define CAMPAIGN_STATE                                                                             \
    "{\"log\":[\"a\",\"b\"],\"gm\":{\"secret\":\"S\",\"npc\":{\"hp\":3}},"                         \
    "\"private\":{\"p1\":{\"x\":1},\"p2\":{\"y\":2}},\"chars\":{\"p1\":{\"hp\":5}}}"

static const struct {
    const char *state;
    const proto_viewer *v;
    const char *want;
} states[] = {
    {CAMPAIGN_STATE, &P1,
     "{\"log\":[\"a\",\"b\"],\"private\":{\"p1\":{\"x\":1}},\"chars\":{\"p1\":{\"hp\":5}}}"},
    {CAMPAIGN_STATE, &P2,
     "{\"log\":[\"a\",\"b\"],\"private\":{\"p2\":{\"y\":2}},\"chars\":{\"p1\":{\"hp\":5}}}"},
    {CAMPAIGN_STATE, &P3, "{\"log\":[\"a\",\"b\"],\"private\":{},\"chars\":{\"p1\":{\"hp\":5}}}"},
    {CAMPAIGN_STATE, &NOSEAT,
     "{\"log\":[\"a\",\"b\"],\"private\":{},\"chars\":{\"p1\":{\"hp\":5}}}"},
    {CAMPAIGN_STATE, &GM, NULL /* unchanged */},
    {"{\"a\":1}", &P1, "{\"a\":1}"},
    {"{\"gm\":1,\"gmx\":2}", &P1, "{\"gmx\":2}"},
    {"{\"private\":\"none\"}", &P1, "{\"private\":{}}"},
    {"{\"private\":[{\"p1\":1}]}", &P1, "{\"private\":{}}"},
    {"{\"private\":null}", &P2, "{\"private\":{}}"},
    {"{}", &P1, "{}"},
    {"[{\"gm\":1}]", &P1, "[{\"gm\":1}]"},
    {"\"x\"", &P1, "\"x\""},
};

START_TEST(filter_state_hides_gm_and_other_seats)
{
    json_t *state = J(states[_i].state);
    char *before = dump(state);
    json_t *got = proto_filter_state(state, states[_i].v);
    assert_json(got, states[_i].want ? states[_i].want : states[_i].state, "filter_state");
    ck_assert_ptr_ne(got, state); /* always a copy */
    char *after = dump(state);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    json_decref(got);
    json_decref(state);
}
END_TEST

/* --- proto_filter_patch ---------------------------------------------------------------------- */

static const struct {
    const char *ops;
    const proto_viewer *v;
    const char *want; /* NULL: the patch cannot be filtered */
} patches[] = {
    /* visible ops pass, hidden ones are dropped */
    {"[{\"op\":\"add\",\"path\":\"/log/2\",\"value\":\"c\"}]", &P1,
     "[{\"op\":\"add\",\"path\":\"/log/2\",\"value\":\"c\"}]"},
    {"[{\"op\":\"replace\",\"path\":\"/gm/secret\",\"value\":\"T\"},"
     "{\"op\":\"add\",\"path\":\"/log/2\",\"value\":\"c\"},"
     "{\"op\":\"remove\",\"path\":\"/gm/npc\"}]",
     &P1, "[{\"op\":\"add\",\"path\":\"/log/2\",\"value\":\"c\"}]"},
    {"[{\"op\":\"add\",\"path\":\"/gm\",\"value\":{}}]", &P1, "[]"},
    {"[{\"op\":\"add\",\"path\":\"/gmx\",\"value\":{}}]", &P1,
     "[{\"op\":\"add\",\"path\":\"/gmx\",\"value\":{}}]"},
    {"[{\"op\":\"add\",\"path\":\"/private/p1/r\",\"value\":6},"
     "{\"op\":\"add\",\"path\":\"/private/p2/r\",\"value\":4}]",
     &P1, "[{\"op\":\"add\",\"path\":\"/private/p1/r\",\"value\":6}]"},
    {"[{\"op\":\"add\",\"path\":\"/private/p1/r\",\"value\":6},"
     "{\"op\":\"add\",\"path\":\"/private/p2/r\",\"value\":4}]",
     &P2, "[{\"op\":\"add\",\"path\":\"/private/p2/r\",\"value\":4}]"},
    {"[{\"op\":\"remove\",\"path\":\"/private/p2\"}]", &P1, "[]"},
    {"[]", &P1, "[]"},
    /* ancestors: the value is filtered, a remove is kept */
    {"[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"a\":1,\"gm\":{\"s\":1},"
     "\"private\":{\"p1\":1,\"p2\":2}}}]",
     &P1, "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"a\":1,\"private\":{\"p1\":1}}}]"},
    {"[{\"op\":\"add\",\"path\":\"\",\"value\":{\"gm\":{\"s\":1}}}]", &P2,
     "[{\"op\":\"add\",\"path\":\"\",\"value\":{}}]"},
    {"[{\"op\":\"add\",\"path\":\"/private\",\"value\":{\"p1\":{\"a\":1},\"p2\":{\"b\":2},"
     "\"p3\":{\"c\":3}}}]",
     &P2, "[{\"op\":\"add\",\"path\":\"/private\",\"value\":{\"p2\":{\"b\":2}}}]"},
    {"[{\"op\":\"replace\",\"path\":\"/private\",\"value\":{\"p1\":{\"a\":1},\"p2\":{\"b\":2}}}]",
     &P3, "[{\"op\":\"replace\",\"path\":\"/private\",\"value\":{}}]"},
    {"[{\"op\":\"add\",\"path\":\"/private\",\"value\":\"P2_SECRET\"}]", &P1,
     "[{\"op\":\"add\",\"path\":\"/private\",\"value\":{}}]"},
    {"[{\"op\":\"remove\",\"path\":\"/private\"}]", &P1,
     "[{\"op\":\"remove\",\"path\":\"/private\"}]"},
    {"[{\"op\":\"remove\",\"path\":\"\"}]", &P1, "[{\"op\":\"remove\",\"path\":\"\"}]"},
    /* tests: only on visible paths */
    {"[{\"op\":\"test\",\"path\":\"/gm/"
     "s\",\"value\":1},{\"op\":\"test\",\"path\":\"\",\"value\":{}},"
     "{\"op\":\"test\",\"path\":\"/private\",\"value\":{}},{\"op\":\"test\",\"path\":\"/a\","
     "\"value\":1}]",
     &P1, "[{\"op\":\"test\",\"path\":\"/a\",\"value\":1}]"},
    /* move and copy */
    {"[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/b\"}]", &P1,
     "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/b\"}]"},
    {"[{\"op\":\"copy\",\"from\":\"/private/p1/x\",\"path\":\"/private/p1/y\"}]", &P1,
     "[{\"op\":\"copy\",\"from\":\"/private/p1/x\",\"path\":\"/private/p1/y\"}]"},
    {"[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/gm/a\"}]", &P1,
     "[{\"op\":\"remove\",\"path\":\"/a\"}]"},
    {"[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/gm/a\"}]", &P1, "[]"},
    {"[{\"op\":\"move\",\"from\":\"/gm/a\",\"path\":\"/private/p2/a\"}]", &P1, "[]"},
    {"[{\"op\":\"move\",\"from\":\"/private\",\"path\":\"/gm/p\"}]", &P1,
     "[{\"op\":\"remove\",\"path\":\"/private\"}]"},
    {"[{\"op\":\"move\",\"from\":\"/gm/a\",\"path\":\"/a\"}]", &P1, NULL},
    {"[{\"op\":\"copy\",\"from\":\"/private/p2\",\"path\":\"/a\"}]", &P1, NULL},
    {"[{\"op\":\"copy\",\"from\":\"/private\",\"path\":\"/a\"}]", &P1, NULL},
    {"[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/private\"}]", &P1, NULL},
    {"[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"\"}]", &P1, NULL},
    /* malformed input cannot be filtered */
    {"{}", &P1, NULL},
    {"[1]", &P1, NULL},
    {"[{\"op\":\"add\",\"value\":1}]", &P1, NULL},
    {"[{\"op\":\"add\",\"path\":\"gm\",\"value\":1}]", &P1, NULL},
    {"[{\"op\":\"add\",\"path\":\"/private\"}]", &P1, NULL},
    {"[{\"op\":\"frob\",\"path\":\"/a\"}]", &P1, NULL},
    {"[{\"op\":\"move\",\"path\":\"/a\"}]", &P1, NULL},
    /* the GM gets everything unchanged */
    {"[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"gm\":{\"s\":1}}},"
     "{\"op\":\"move\",\"from\":\"/gm/a\",\"path\":\"/a\"}]",
     &GM,
     "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"gm\":{\"s\":1}}},"
     "{\"op\":\"move\",\"from\":\"/gm/a\",\"path\":\"/a\"}]"},
};

START_TEST(filter_patch_keeps_only_what_the_viewer_may_see)
{
    json_t *ops = J(patches[_i].ops);
    char *before = dump(ops);
    json_t *got = proto_filter_patch(ops, patches[_i].v);
    char what[32];
    snprintf(what, sizeof what, "patch case %d", _i);
    assert_json(got, patches[_i].want, what);
    char *after = dump(ops);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    json_decref(got);
    json_decref(ops);
}
END_TEST

/* --- proto_patch_audiences ------------------------------------------------------------------ */

/* Over every patch of the table above: the split says, for each player, which message it gets,
 * and that message is exactly what proto_filter_patch gives that player. */
START_TEST(audiences_give_each_player_what_the_filter_gives_it)
{
    json_t *ops = J(patches[_i].ops);
    char *before = dump(ops);
    json_t *everyone, *touched;
    int r = proto_patch_audiences(ops, &everyone, &touched);
    static const proto_viewer *const players[] = {&P1, &P2, &P3, &NOSEAT};
    if (r == 0) {
        for (size_t k = 0; k < N_ELEMS(players); k++) {
            const proto_viewer *v = players[k];
            if (v->seat && json_object_get(touched, v->seat))
                continue; /* gets its own proto_filter_patch */
            json_t *want = proto_filter_patch(ops, v);
            ck_assert_ptr_nonnull(want);
            char *w = dump(want), *g = dump(everyone);
            ck_assert_msg(strcmp(w, g) == 0, "case %d, seat %s: everyone's %s, its own %s", _i,
                          v->seat ? v->seat : "-", g, w);
            free(w);
            free(g);
            json_decref(want);
        }
    } else if (r == 1) {
        ck_assert_ptr_null(everyone);
        ck_assert_ptr_null(touched);
        ck_assert_msg(strstr(patches[_i].ops, "\"path\":\"\"") ||
                          strstr(patches[_i].ops, "\"/private\""),
                      "case %d: per viewer without an op at the root or /private", _i);
    } else {
        ck_assert_ptr_null(everyone);
        ck_assert_ptr_null(proto_filter_patch(ops, &P1));
    }
    char *after = dump(ops);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    json_decref(everyone);
    json_decref(touched);
    json_decref(ops);
}
END_TEST

START_TEST(audiences_name_the_touched_private_seats)
{
    json_t *ops = J("[{\"op\":\"add\",\"path\":\"/log/0\",\"value\":1},"
                    "{\"op\":\"add\",\"path\":\"/private/p2/roll\",\"value\":2},"
                    "{\"op\":\"remove\",\"path\":\"/gm/x\"}]");
    json_t *everyone, *touched;
    ck_assert_int_eq(proto_patch_audiences(ops, &everyone, &touched), 0);
    assert_json(everyone, "[{\"op\":\"add\",\"path\":\"/log/0\",\"value\":1}]", "everyone");
    assert_json(touched, "{\"p2\":true}", "touched");
    json_decref(everyone);
    json_decref(touched);
    json_decref(ops);
}
END_TEST

/* The seat a path names is its second token unescaped, however deep the path (the in-place
 * reading and the escaped one give the same seats). */
START_TEST(audiences_read_escaped_and_deep_private_paths)
{
    json_t *ops = J("[{\"op\":\"add\",\"path\":\"/private/p~11/x\",\"value\":1},"
                    "{\"op\":\"add\",\"path\":\"/private/p3/a/b/c\",\"value\":2},"
                    "{\"op\":\"remove\",\"path\":\"/private/p4\"},"
                    "{\"op\":\"add\",\"path\":\"/\",\"value\":3}]");
    json_t *everyone, *touched;
    ck_assert_int_eq(proto_patch_audiences(ops, &everyone, &touched), 0);
    assert_json(everyone, "[{\"op\":\"add\",\"path\":\"/\",\"value\":3}]", "everyone");
    assert_json(touched, "{\"p/1\":true,\"p3\":true,\"p4\":true}", "touched");
    json_decref(everyone);
    json_decref(touched);
    json_decref(ops);
}
END_TEST

/* --- a campaign's life, seen by each seat ---------------------------------------------------- */

/* Successive states of one campaign; secrets carry the markers GM_SECRET and P2_SECRET. */
static const char *const timeline[] = {
    "{}",
    "{\"log\":[],\"gm\":{\"notes\":\"GM_SECRET\"},\"private\":{}}",
    "{\"log\":[\"p1 joined\"],\"gm\":{\"notes\":\"GM_SECRET\",\"dc\":15},"
    "\"private\":{\"p1\":{\"roll\":4}}}",
    "{\"log\":[\"p1 joined\",\"p2 joined\"],\"gm\":{\"notes\":\"GM_SECRET\",\"dc\":15},"
    "\"private\":{\"p1\":{\"roll\":4},\"p2\":{\"loyalty\":\"P2_SECRET\"}}}",
    "{\"log\":[\"p2 joined\",\"roll 7\"],\"gm\":{\"notes\":\"GM_SECRET x2\",\"npcs\":[{\"n\":"
    "\"GM_SECRET npc\"}]},\"private\":{\"p1\":{\"roll\":5},\"p2\":{\"loyalty\":\"P2_SECRET!\"}}}",
    "{\"log\":[\"roll 7\",\"reveal: dc 15\"],\"dc\":15,\"gm\":{},"
    "\"private\":{\"p2\":{\"loyalty\":\"P2_SECRET!\",\"more\":[\"P2_SECRET\"]}}}",
    "{\"log\":[\"roll 7\",\"reveal: dc 15\"],\"dc\":15,\"private\":\"P2_SECRET as a scalar\"}",
    "[1,{\"gm\":\"an array root has no /gm\"}]",
    "{\"gm\":\"GM_SECRET\",\"private\":{\"p2\":\"P2_SECRET\",\"p1\":\"mine\"}}",
    "{\"gm\":{\"a\":\"GM_SECRET\"},\"private\":{\"p2\":{\"z\":\"P2_SECRET\"}},\"ok\":1}",
};

START_TEST(player_bytes_never_hold_another_seats_secrets)
{
    int gm_saw = 0, p2_saw = 0; /* the markers are really there for those who may see them */
    for (size_t i = 0; i + 1 < N_ELEMS(timeline); i++) {
        json_t *a = J(timeline[i]), *b = J(timeline[i + 1]);
        json_t *ops = proto_patch_diff(a, b);
        json_t *snap = proto_filter_state(b, &P1);
        json_t *mine = proto_filter_patch(ops, &P1);
        ck_assert_ptr_nonnull(mine);
        json_t *msg = proto_msg_diff((long long)i, mine);
        char *s1 = json_dumps(msg, JSON_COMPACT), *s2 = dump(snap);
        ck_assert_msg(!strstr(s1, "GM_SECRET") && !strstr(s1, "P2_SECRET"), "diff %zu: %s", i, s1);
        ck_assert_msg(!strstr(s2, "GM_SECRET") && !strstr(s2, "P2_SECRET"), "state %zu: %s", i + 1,
                      s2);
        free(s1);
        free(s2);
        json_decref(msg);
        json_decref(snap);

        json_t *gm_ops = proto_filter_patch(ops, &GM), *p2_ops = proto_filter_patch(ops, &P2);
        s1 = dump(gm_ops);
        s2 = dump(p2_ops);
        gm_saw += strstr(s1, "GM_SECRET") != NULL;
        p2_saw += strstr(s2, "P2_SECRET") != NULL;
        ck_assert_msg(!strstr(s2, "GM_SECRET"), "diff %zu for p2: %s", i, s2);
        free(s1);
        free(s2);
        json_decref(gm_ops);
        json_decref(p2_ops);
        json_decref(ops);
        json_decref(a);
        json_decref(b);
    }
    ck_assert_int_ge(gm_saw, 4);
    ck_assert_int_ge(p2_saw, 3);
}
END_TEST

/* A client that applies its filtered diffs ends with the state a new client would get. */
START_TEST(filtered_diffs_keep_each_seat_in_step_with_a_fresh_snapshot)
{
    const proto_viewer *viewers[] = {&GM, &P1, &P2, &P3, &NOSEAT};
    const proto_viewer *v = viewers[_i];
    json_t *first = J(timeline[0]);
    json_t *client = proto_filter_state(first, v);
    json_decref(first);
    for (size_t i = 0; i + 1 < N_ELEMS(timeline); i++) {
        json_t *a = J(timeline[i]), *b = J(timeline[i + 1]);
        json_t *ops = proto_patch_diff(a, b);
        json_t *mine = proto_filter_patch(ops, v);
        ck_assert_ptr_nonnull(mine);
        tb_err err = {0};
        json_t *next_state = proto_patch_apply(client, mine, &err);
        ck_assert_msg(next_state != NULL, "step %zu: %s", i, err.msg);
        json_t *fresh = proto_filter_state(b, v);
        char *got = dump(next_state), *want = dump(fresh);
        ck_assert_msg(strcmp(got, want) == 0, "step %zu: client %s, fresh %s", i, got, want);
        free(got);
        free(want);
        json_decref(client);
        client = next_state;
        json_decref(fresh);
        json_decref(mine);
        json_decref(ops);
        json_decref(a);
        json_decref(b);
    }
    json_decref(client);
}
END_TEST

static Suite *visibility_suite(void)
{
    Suite *s = suite_create("visibility");
    TCase *tc = tcase_create("paths");
    tcase_add_loop_test(tc, path_visibility_follows_the_first_two_tokens, 0, N_ELEMS(paths));
    tcase_add_test(tc, escaped_seat_ids_are_compared_unescaped);
    suite_add_tcase(s, tc);

    tc = tcase_create("state");
    tcase_add_loop_test(tc, filter_state_hides_gm_and_other_seats, 0, N_ELEMS(states));
    suite_add_tcase(s, tc);

    tc = tcase_create("patch");
    tcase_add_loop_test(tc, filter_patch_keeps_only_what_the_viewer_may_see, 0, N_ELEMS(patches));
    tcase_add_loop_test(tc, audiences_give_each_player_what_the_filter_gives_it, 0,
                        N_ELEMS(patches));
    tcase_add_test(tc, audiences_name_the_touched_private_seats);
    tcase_add_test(tc, audiences_read_escaped_and_deep_private_paths);
    tcase_add_test(tc, player_bytes_never_hold_another_seats_secrets);
    tcase_add_loop_test(tc, filtered_diffs_keep_each_seat_in_step_with_a_fresh_snapshot, 0, 5);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(visibility_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
