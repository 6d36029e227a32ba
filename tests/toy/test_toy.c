/*
 * test_toy.c — the toy seventh system (tests/toy/README.md, issue 23): built from its folder
 * (tests/toy/rules/toy) and one word added to the list of systems, with every other source of
 * rules/ and server/ unchanged, it is a whole system: registered with its module, on the
 * campaign picker, on the campaign clock, its words in the log, its moves offered, its duel
 * played through the server's own ops.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "encounter.h"
#include "ops.h"
#include "system.h"

static rules_rng *g_dice;

/* Runs op as seat with args (stolen) on state; 0 or the code, *result set on success. */
static int run(json_t *state, const char *seat, const char *op, json_t *args, json_t **result)
{
    const op_def *d = ops_find("any", op);
    ck_assert_ptr_nonnull(d);
    op_ctx ctx = {.seat = seat,
                  .is_gm = strcmp(seat, "gm") == 0,
                  .dice = g_dice,
                  .secret = g_dice,
                  .now_ms = 1700000000000,
                  .seq = 1,
                  .log_cap = 200};
    json_t *norm = NULL, *r = NULL;
    tb_err err = {0};
    int rc = ops_check_args(d, args, &norm, &err);
    if (!rc)
        rc = d->fn(&ctx, state, norm, &r, &err);
    json_decref(norm);
    json_decref(args);
    if (result)
        *result = r;
    else
        json_decref(r);
    return rc;
}

static json_t *ok(json_t *state, const char *seat, const char *op, json_t *args)
{
    json_t *r = NULL;
    char what[64];
    snprintf(what, sizeof what, "%s", op);
    ck_assert_msg(run(state, seat, op, args, &r) == 0, "%s refused", what);
    return r;
}

START_TEST(the_registry_the_picker_and_the_clock_know_it)
{
    const rules_system *s = rules_system_find("toy");
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(rules_module_find("toy.duel"));
    ck_assert_ptr_eq(s->modules[0], rules_module_find("toy.duel"));
    ck_assert_ptr_nonnull(rules_system_find("fivey")); /* the five are there too */
    const rules_clock_stage *st = rules_clock_stage_of("toy", "toy.duel", NULL);
    ck_assert_str_eq(st->id, "bout");
    ck_assert_int_eq(st->unit_s, 3);
    json_t *list = ops_systems_json();
    int found = 0;
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (rules_enc_streq(json_string_value(json_object_get(v, "id")), "toy")) {
            found = 1;
            ck_assert_str_eq(json_string_value(json_object_get(v, "name")), "Toy duel");
            ck_assert_ptr_nonnull(json_string_value(json_object_get(v, "summary")));
        }
    }
    ck_assert(found);
    json_decref(list);
}
END_TEST

/* A toy campaign played through the server's ops: a sheet the toy validates, a scene of its
 * module on the clock, its moves, its words in the logs (an NPC's total the GM's), the
 * session's beginning (the toy changes nothing then). */
START_TEST(a_duel_through_the_servers_ops)
{
    json_t *state = ops_campaign_initial("c1", "Toy", "toy", "ABCD-EFGH");
    json_t *r = ok(state, "gm", "seat.join", json_pack("{s:s}", "name", "Ann"));
    char seat[16];
    snprintf(seat, sizeof seat, "%s", json_string_value(json_object_get(r, "seat")));
    json_decref(r);
    ck_assert_int_eq(run(state, "gm", "char.create",
                         json_pack("{s:s, s:{s:s, s:i}, s:s}", "name", "Ann", "sheet", "name",
                                   "Ann", "might", 9, "seat", seat),
                         NULL),
                     TB_BAD_REQUEST); /* Might is 1 to 5 */
    r = ok(state, "gm", "char.create",
           json_pack("{s:s, s:{s:s, s:i}, s:s}", "name", "Ann", "sheet", "name", "Ann", "might", 4,
                     "seat", seat));
    char ann_char[16];
    snprintf(ann_char, sizeof ann_char, "%s", json_string_value(json_object_get(r, "id")));
    json_decref(r);
    json_decref(ok(state, "gm", "system.describe", json_object()));
    json_decref(ok(state, "gm", "enc.start", json_pack("{s:s}", "module", "toy.duel")));
    json_decref(ok(state, "gm", "enc.add", json_pack("{s:s}", "char", ann_char)));
    json_decref(ok(state, "gm", "enc.add",
                   json_pack("{s:{s:s, s:{s:s, s:i}}}", "npc", "name", "Ogre", "sheet", "name",
                             "Ogre", "might", 1)));
    ck_assert_str_eq(
        json_string_value(json_object_get(
            json_object_get(json_object_get(json_object_get(state, "clock"), "scenes"), "enc"),
            "stage")),
        "bout");
    /* the GM is offered the beginning; Ann nothing of the GM's */
    r = ok(state, "gm", "enc.moves", json_object());
    ck_assert_str_eq(
        json_string_value(json_object_get(
            json_array_get(json_object_get(json_object_get(r, "moves"), "enc"), 0), "action")),
        "begin");
    json_decref(r);
    json_decref(ok(state, "gm", "enc.act", json_pack("{s:s}", "action", "begin")));
    /* Ann (Might 4) goes first; her move is a strike at the Ogre, sent as offered */
    r = ok(state, seat, "enc.moves", json_object());
    json_t *first = json_array_get(json_object_get(json_object_get(r, "moves"), "enc"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(first, "action")), "strike");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(first, "args"), "target")),
                     "e2");
    json_t *act = json_pack("{s:s, s:s, s:O}", "action", "strike", "actor", "e1", "params",
                            json_object_get(first, "args"));
    json_decref(r);
    json_decref(ok(state, seat, "enc.act", act));
    json_t *log = json_object_get(state, "log");
    const char *text =
        json_string_value(json_object_get(json_array_get(log, json_array_size(log) - 1), "text"));
    ck_assert_msg(strncmp(text, "Ann strikes", 11) == 0, "%s", text);
    /* the Ogre's strike: its total is the GM's */
    json_decref(ok(state, "gm", "enc.act",
                   json_pack("{s:s, s:{s:s}}", "action", "strike", "params", "target", "e1")));
    text =
        json_string_value(json_object_get(json_array_get(log, json_array_size(log) - 1), "text"));
    ck_assert_msg(strchr(text, ':') == NULL || strstr(text, ": a hit"), "%s", text);
    json_t *gm_log = json_object_get(json_object_get(state, "gm"), "log");
    ck_assert_uint_ge(json_array_size(gm_log), 1);
    /* the system's own phrasing: a rest */
    json_decref(
        ok(state, seat, "enc.act", json_pack("{s:s, s:s}", "action", "rest", "actor", "e1")));
    text =
        json_string_value(json_object_get(json_array_get(log, json_array_size(log) - 1), "text"));
    ck_assert_str_eq(text, "Ann catches a breath");
    /* nothing changes at the beginning of a toy session */
    json_decref(ok(state, "gm", "session.begin", json_object()));
    ck_assert_int_eq(run(state, seat, "session.alter",
                         json_pack("{s:s, s:i, s:b}", "char", ann_char, "loyalty", 1, "prime", 1),
                         NULL),
                     TB_RULE);
    json_decref(state);
}
END_TEST

int main(void)
{
    g_dice = rules_rng_seeded(3);
    Suite *s = suite_create("toy");
    TCase *tc = tcase_create("toy");
    tcase_add_test(tc, the_registry_the_picker_and_the_clock_know_it);
    tcase_add_test(tc, a_duel_through_the_servers_ops);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    rules_rng_destroy(g_dice);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
