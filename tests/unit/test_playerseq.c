/*
 * test_playerseq.c — a seq per player seat (server/playerseq.h, issue 29): the public count and
 * each seat's own count move exactly with the diffs each seat receives; the ops that keep them
 * rebuild the state; the walk back reads them per seat; the fan-out encodes a public diff once
 * and frames it once per seq (server/fanout.h).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fanout.h"
#include "playerseq.h"
#include "protocol.h"

static json_t *state_of(const char *text)
{
    json_error_t e;
    json_t *s = json_loads(text, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.text);
    return s;
}

/* One event from base to next (stolen) at campaign seq base_seq + 1: advances the counts, checks
 * that the patch (with the counts' ops) rebuilds the state after it, and returns that state (a
 * new reference) with the patch in *patch_out (a new reference) and the step in *ps. */
static json_t *event(json_t *base, int64_t base_seq, json_t *next, json_t **patch_out,
                     playerseq_step *ps)
{
    json_t *patch = proto_patch_diff(base, next);
    playerseq_advance(base, base_seq, next, patch, ps);
    tb_err err;
    json_t *rebuilt = proto_patch_apply(base, patch, &err);
    ck_assert_msg(rebuilt != NULL, "%s", err.msg);
    ck_assert_msg(json_equal(rebuilt, next), "the patch rebuilds the state after the event");
    json_decref(rebuilt);
    *patch_out = patch;
    return next;
}

/* The state after applying ops (a JSON text of a patch) to s (borrowed): a new reference. */
static json_t *with(const json_t *s, const char *ops)
{
    json_t *patch = state_of(ops);
    tb_err err;
    json_t *out = proto_patch_apply(s, patch, &err);
    ck_assert_msg(out != NULL, "%s", err.msg);
    json_decref(patch);
    return out;
}

START_TEST(each_seat_counts_its_own_diffs)
{
    json_t *s0 = state_of("{\"seats\":{\"gm\":{},\"p1\":{},\"p2\":{}},\"log\":[],\"private\":{},"
                          "\"gm\":{\"player_seq\":5}}");
    playerseq_step ps;
    json_t *patch;
    int intro;
    /* public: every seat +1 */
    json_t *s1 =
        event(s0, 7, with(s0, "[{\"op\":\"add\",\"path\":\"/log/-\",\"value\":1}]"), &patch, &ps);
    ck_assert_int_eq(ps.pub, 6);
    ck_assert_int_eq(playerseq_seat(s1, 8, "p1"), 6);
    ck_assert_int_eq(playerseq_seat(s1, 8, "p2"), 6);
    ck_assert(playerseq_moves_seat(patch, "p1", &intro) && !intro);
    json_decref(patch);
    playerseq_step_free(&ps);
    /* p1 alone (a whisper): p1 +1, p2 and the public count stay */
    json_t *s2 =
        event(s1, 8, with(s1, "[{\"op\":\"add\",\"path\":\"/private/p1\",\"value\":{\"x\":1}}]"),
              &patch, &ps);
    ck_assert_int_eq(ps.pub, 6);
    ck_assert_int_eq(playerseq_step_seat(&ps, "p1"), 7);
    ck_assert_int_eq(playerseq_step_seat(&ps, "p2"), 6);
    ck_assert_int_eq(playerseq_seat(s2, 9, "p1"), 7);
    ck_assert_int_eq(playerseq_seat(s2, 9, "p2"), 6);
    ck_assert(playerseq_moves_seat(patch, "p1", &intro) && !intro);
    ck_assert(!playerseq_moves_seat(patch, "p2", &intro));
    json_decref(patch);
    playerseq_step_free(&ps);
    /* p1 and p2 alone (a whisper between them): both +1 */
    json_t *s3 = event(s2, 9,
                       with(s2, "[{\"op\":\"add\",\"path\":\"/private/p1/y\",\"value\":1},"
                                "{\"op\":\"add\",\"path\":\"/private/p2\",\"value\":{\"y\":1}}]"),
                       &patch, &ps);
    ck_assert_int_eq(playerseq_seat(s3, 10, "p1"), 8);
    ck_assert_int_eq(playerseq_seat(s3, 10, "p2"), 7);
    ck_assert(playerseq_moves_seat(patch, "p2", &intro));
    json_decref(patch);
    playerseq_step_free(&ps);
    /* public and p1's own at once: one diff each, +1 each, the public count alone moves */
    json_t *s4 = event(s3, 10,
                       with(s3, "[{\"op\":\"add\",\"path\":\"/log/-\",\"value\":2},"
                                "{\"op\":\"add\",\"path\":\"/private/p1/z\",\"value\":1}]"),
                       &patch, &ps);
    ck_assert_int_eq(playerseq_seat(s4, 11, "p1"), 9);
    ck_assert_int_eq(playerseq_seat(s4, 11, "p2"), 8);
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(json_object_get(s4, "gm"), "seat_seq"), "p1")),
                     2);
    json_decref(patch);
    playerseq_step_free(&ps);
    /* the GM alone: nothing moves, no op */
    json_t *s5 = with(s4, "[{\"op\":\"add\",\"path\":\"/gm/note\",\"value\":\"x\"}]");
    patch = proto_patch_diff(s4, s5);
    size_t n = json_array_size(patch);
    playerseq_advance(s4, 11, s5, patch, &ps);
    ck_assert_int_eq(json_array_size(patch), n);
    ck_assert(!playerseq_moves_seat(patch, "p1", &intro) &&
              !playerseq_moves_seat(patch, "p2", &intro));
    ck_assert_int_eq(playerseq_seat(s5, 12, "p1"), 9);
    json_decref(patch);
    playerseq_step_free(&ps);
    /* p2 leaves: its own count goes with it */
    json_t *s6 =
        event(s5, 12, with(s5, "[{\"op\":\"remove\",\"path\":\"/seats/p2\"}]"), &patch, &ps);
    ck_assert_ptr_null(
        json_object_get(json_object_get(json_object_get(s6, "gm"), "seat_seq"), "p2"));
    ck_assert_int_eq(playerseq_seat(s6, 13, "p1"), 10);
    json_decref(patch);
    playerseq_step_free(&ps);
    json_t *all[] = {s0, s1, s2, s3, s4, s5, s6};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        json_decref(all[i]);
}
END_TEST

START_TEST(a_campaign_without_counts_starts_at_its_seq)
{
    /* made before issue 27: no /gm at all; its first event (p1 alone) adds the counts */
    json_t *s0 = state_of("{\"seats\":{\"gm\":{},\"p1\":{}},\"private\":{}}");
    playerseq_step ps;
    json_t *patch;
    int intro;
    json_t *s1 =
        event(s0, 10, with(s0, "[{\"op\":\"add\",\"path\":\"/private/p1\",\"value\":{\"x\":1}}]"),
              &patch, &ps);
    ck_assert_int_eq(playerseq_get(s1, 11), 10);
    ck_assert_int_eq(playerseq_seat(s1, 11, "p1"), 11);
    ck_assert(playerseq_moves_seat(patch, "p1", &intro) && intro);
    json_decref(patch);
    playerseq_step_free(&ps);
    json_decref(s0);
    json_decref(s1);
}
END_TEST

START_TEST(a_public_diff_is_encoded_once_and_framed_per_seq)
{
    json_t *s0 = state_of("{\"seats\":{\"gm\":{},\"p1\":{},\"p2\":{},\"p3\":{}},\"log\":[],"
                          "\"private\":{},\"gm\":{\"player_seq\":5,\"seat_seq\":{\"p1\":2}}}");
    playerseq_step ps;
    json_t *patch;
    json_t *s1 =
        event(s0, 9, with(s0, "[{\"op\":\"add\",\"path\":\"/log/-\",\"value\":1}]"), &patch, &ps);
    fanout *f = fanout_begin(patch, NULL, 0, 10, &ps, 0, 0);
    engine_msg *m1 = fanout_for(f, "p1", 0), *m2 = fanout_for(f, "p2", 0),
               *m3 = fanout_for(f, "p3", 0), *g = fanout_for(f, "gm", 1);
    ck_assert_str_eq((const char *)m1->text,
                     "{\"t\":\"diff\",\"seq\":8,\"ops\":[{\"op\":\"add\",\"path\":\"/log/0\","
                     "\"value\":1}]}");
    ck_assert_str_eq((const char *)m2->text,
                     "{\"t\":\"diff\",\"seq\":6,\"ops\":[{\"op\":\"add\",\"path\":\"/log/0\","
                     "\"value\":1}]}");
    ck_assert_ptr_eq(m2, m3); /* the same seq: one message */
    ck_assert_ptr_ne(m1, m2);
    ck_assert(strstr((const char *)g->text, "\"seq\":10") &&
              strstr((const char *)g->text, "player_seq"));
    fanout_end(f);
    json_decref(patch);
    playerseq_step_free(&ps);
    /* p1 alone: p2 and p3 get nothing */
    json_t *s2 =
        event(s1, 10, with(s1, "[{\"op\":\"add\",\"path\":\"/private/p1\",\"value\":{\"x\":1}}]"),
              &patch, &ps);
    f = fanout_begin(patch, NULL, 0, 11, &ps, 0, 0);
    ck_assert(strstr((const char *)fanout_for(f, "p1", 0)->text, "\"seq\":9,"));
    ck_assert_ptr_null(fanout_for(f, "p2", 0));
    ck_assert_ptr_null(fanout_for(f, "p3", 0));
    fanout_end(f);
    json_decref(patch);
    playerseq_step_free(&ps);
    json_decref(s0);
    json_decref(s1);
    json_decref(s2);
}
END_TEST

/* The public diff cut out of the patch's text (fanout.c, issue 26) is byte for byte the one
 * encoded from its ops: GM-only ops before, after, between and around the public ones, a view with
 * nothing public, and a patch text whose hidden ops are not the patch's (no cut then); and cut at
 * the ops' offsets when they are given (fanout_ops_at). */
START_TEST(a_public_diff_cut_from_the_patch_text_is_the_encoded_one)
{
    static const char *const PATCHES[] = {
        "[{\"op\":\"add\",\"path\":\"/log/-\",\"value\":{\"t\":\"a \\\"b\\\"\"}},"
        "{\"op\":\"replace\",\"path\":\"/gm/player_seq\",\"value\":6}]",
        "[{\"op\":\"add\",\"path\":\"/gm/x\",\"value\":[1,2]},"
        "{\"op\":\"remove\",\"path\":\"/log/0\"},{\"op\":\"add\",\"path\":\"/log/-\",\"value\":2}]",
        "[{\"op\":\"add\",\"path\":\"/gm/x\",\"value\":1},{\"op\":\"add\",\"path\":\"/log/-\","
        "\"value\":3},{\"op\":\"add\",\"path\":\"/gm/y\",\"value\":{}}]",
        "[{\"op\":\"add\",\"path\":\"/log/-\",\"value\":4},{\"op\":\"add\",\"path\":\"/gm/x\","
        "\"value\":1},{\"op\":\"add\",\"path\":\"/log/-\",\"value\":5}]",
        "[{\"op\":\"add\",\"path\":\"/gm/x\",\"value\":1}]",
    };
    for (size_t i = 0; i < sizeof PATCHES / sizeof PATCHES[0]; i++) {
        json_t *patch = state_of(PATCHES[i]);
        playerseq_step ps = {0};
        ck_assert_int_eq(proto_patch_audiences(patch, &ps.everyone, &ps.touched), 0);
        ps.pub = 7;
        size_t len;
        char *text = proto_json_dump(patch, &len);
        for (int wrong = 0; wrong < 2; wrong++) {
            /* wrong: the text of a hidden last op differs (a text that is not the patch's
             * where the cut looks: no cut then) */
            if (wrong && i != 0 && i != 2)
                continue;
            char *given = xstrdup(text);
            if (wrong)
                given[len - 3] = 'X';
            fanout *cut = fanout_begin(patch, given, len, 10, &ps, 0, 0),
                   *enc = fanout_begin(patch, NULL, 0, 10, &ps, 0, 0);
            engine_msg *a = fanout_for(cut, "p1", 0), *b = fanout_for(enc, "p1", 0);
            ck_assert_msg((a == NULL) == (b == NULL), "patch %zu: a diff from one only", i);
            if (a)
                ck_assert_str_eq((const char *)a->text, (const char *)b->text);
            fanout_end(cut);
            fanout_end(enc);
            free(given);
        }
        /* where each op starts known (fanout_ops_at: the engine's encode_patch gives them) */
        size_t n = json_array_size(patch), *at = xmalloc((n + 1) * sizeof *at);
        at[0] = 1;
        for (size_t k = 0; k < n; k++) {
            size_t op_len;
            free(proto_json_dump(json_array_get(patch, k), &op_len));
            at[k + 1] = at[k] + op_len + 1; /* the ',' after it, or the ']' past the last */
        }
        at[n] -= 1;
        ck_assert_int_eq(text[at[n]], ']');
        fanout *cut = fanout_begin(patch, text, len, 10, &ps, 0, 0),
               *enc = fanout_begin(patch, NULL, 0, 10, &ps, 0, 0);
        fanout_ops_at(cut, at);
        engine_msg *a = fanout_for(cut, "p1", 0), *b = fanout_for(enc, "p1", 0);
        ck_assert_msg((a == NULL) == (b == NULL), "patch %zu: a diff from one only", i);
        if (a)
            ck_assert_str_eq((const char *)a->text, (const char *)b->text);
        fanout_end(cut);
        fanout_end(enc);
        free(at);
        free(text);
        playerseq_step_free(&ps);
        json_decref(patch);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("playerseq");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, each_seat_counts_its_own_diffs);
    tcase_add_test(tc, a_campaign_without_counts_starts_at_its_seq);
    tcase_add_test(tc, a_public_diff_is_encoded_once_and_framed_per_seq);
    tcase_add_test(tc, a_public_diff_cut_from_the_patch_text_is_the_encoded_one);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
