/* The shared encounter machinery (rules/encounter.c): order and the turn pointer, rounds,
 * budgets, conditions with durations, stats (public for PCs, hidden for NPCs), log entries. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"

static const rules_module TEST_MODULE = {.id = "test.module", .system = "test", .name = "Test"};

typedef efx fixture;

static void fx_init(fixture *f, int is_gm, const char *seat)
{
    efx_start_module(f, &TEST_MODULE, NULL);
    efx_dice_seeded(f, 1);
    f->e.seat = seat;
    f->e.is_gm = is_gm;
}

static void fx_add(fixture *f, const char *cid, const char *name, const char *seat, int npc)
{
    efx_combatant(f, cid, name, npc ? "foes" : "party", seat, npc);
}

static void fx_free(fixture *f)
{
    efx_free(f);
}

/* Four combatants ordered by (score, tiebreak): e3 (15), e1 (12, 3), e4 (12, 1), e2 (8). */
static void fx_ordered(fixture *f)
{
    fx_add(f, "e1", "Ann", "p1", 0);
    fx_add(f, "e2", "Bob", "p2", 0);
    fx_add(f, "e3", "Orc", "gm", 1);
    fx_add(f, "e4", "Rat", "gm", 1);
    rules_rank r[] = {{"e1", {12, 3}, 0}, {"e2", {8}, 0}, {"e3", {15}, 0}, {"e4", {12, 1}, 0}};
    rules_enc_order_set(&f->e, r, 4);
}

static const char *order_at(fixture *f, size_t i)
{
    return json_string_value(json_array_get(json_object_get(f->enc, "order"), i));
}

START_TEST(order_sorts_by_keys_then_stable)
{
    fixture f;
    fx_init(&f, 1, "gm");
    fx_ordered(&f);
    ck_assert_str_eq(order_at(&f, 0), "e3");
    ck_assert_str_eq(order_at(&f, 1), "e1");
    ck_assert_str_eq(order_at(&f, 2), "e4");
    ck_assert_str_eq(order_at(&f, 3), "e2");
    ck_assert_ptr_null(rules_enc_current(&f.e));
    /* a full tie keeps the input order unless the coin says otherwise */
    rules_rank t[] = {{"e1", {5}, 0}, {"e2", {5}, 0}, {"e3", {5}, 2}, {"e4", {5}, 1}};
    rules_enc_order_set(&f.e, t, 4);
    ck_assert_str_eq(order_at(&f, 0), "e3");
    ck_assert_str_eq(order_at(&f, 1), "e4");
    ck_assert_str_eq(order_at(&f, 2), "e1");
    ck_assert_str_eq(order_at(&f, 3), "e2");
    fx_free(&f);
}
END_TEST

START_TEST(advance_skips_the_out_and_wraps_rounds)
{
    fixture f;
    fx_init(&f, 1, "gm");
    fx_ordered(&f);
    rules_enc_budget_default(&f.e, json_pack("{s:i, s:i}", "action", 1, "move", 1));
    rules_enc_begin_round(&f.e);
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e3", "action"), 1);
    rules_enc_set_out(&f.e, "e1", "dead");
    ck_assert_int_eq(rules_enc_advance(&f.e), 0);
    ck_assert_str_eq(rules_enc_current(&f.e), "e4"); /* e1 is out */
    ck_assert_int_eq(rules_enc_advance(&f.e), 0);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert_int_eq(rules_enc_advance(&f.e), 1); /* past the end: round 2 */
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    rules_enc_set_out(&f.e, "e1", NULL);
    ck_assert(!rules_enc_is_out(&f.e, "e1"));
    static const char *const ALL[] = {"e1", "e2", "e3", "e4"};
    for (int i = 0; i < 4; i++)
        rules_enc_set_out(&f.e, ALL[i], "fled");
    ck_assert_int_eq(rules_enc_advance(&f.e), -1);
    ck_assert_ptr_null(rules_enc_current(&f.e));
    fx_free(&f);
}
END_TEST

START_TEST(order_move_keeps_the_current_turn)
{
    fixture f;
    fx_init(&f, 1, "gm");
    fx_ordered(&f); /* e3 e1 e4 e2 */
    rules_enc_begin_round(&f.e);
    rules_enc_advance(&f.e);          /* e1's turn (index 1) */
    rules_enc_order_move(&f.e, 0, 3); /* e3 to the end: e1 e4 e2 e3 */
    ck_assert_str_eq(order_at(&f, 3), "e3");
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    rules_enc_order_move(&f.e, 2, 0); /* e2 to the front: e2 e1 e4 e3 */
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert_int_eq(rules_enc_order_index(&f.e, "e1"), 1);
    rules_enc_order_move(&f.e, 1, 3); /* the current one moves: the pointer follows it */
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert_int_eq(rules_enc_order_index(&f.e, "e1"), 3);
    ck_assert_int_eq(rules_enc_order_index(&f.e, "nobody"), -1);
    fx_free(&f);
}
END_TEST

START_TEST(budgets_spend_and_refuse)
{
    fixture f;
    fx_init(&f, 1, "gm");
    fx_ordered(&f);
    rules_enc_budget_default(&f.e, json_pack("{s:i}", "action", 2));
    rules_enc_begin_round(&f.e);
    tb_err err = {0};
    ck_assert_int_eq(rules_enc_spend(&f.e, "e3", "action", 1, &err), 0);
    ck_assert_int_eq(rules_enc_spend(&f.e, "e3", "action", 2, &err), TB_RULE);
    ck_assert_str_eq(err.msg, "Orc has 1 action left this turn, not 2");
    ck_assert_int_eq(rules_enc_spend(&f.e, "e3", "action", 1, &err), 0);
    ck_assert_int_eq(rules_enc_spend(&f.e, "e3", "action", 1, &err), TB_RULE);
    ck_assert_str_eq(err.msg, "Orc has no action left this turn");
    ck_assert_int_eq(rules_enc_spend(&f.e, "e3", "move", 1, &err), TB_RULE);
    fx_free(&f);
}
END_TEST

START_TEST(conditions_count_down_and_log)
{
    fixture f;
    fx_init(&f, 1, "gm");
    fx_ordered(&f);
    rules_enc_cond_add(&f.e, "e1", "stunned", 2, 0);
    rules_enc_cond_add(&f.e, "e1", "prone", 0, 0);
    rules_enc_cond_add(&f.e, "e1", "bleeding", 0, 3);
    ck_assert(rules_enc_cond_has(&f.e, "e1", "stunned"));
    ck_assert_int_eq(
        json_integer_value(json_object_get(rules_enc_cond(&f.e, "e1", "bleeding"), "level")), 3);
    ck_assert_int_eq(rules_enc_cond_tick(&f.e, "e1"), 0);
    ck_assert_int_eq(rules_enc_cond_tick(&f.e, "e1"), 1);
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "stunned"));
    ck_assert(rules_enc_cond_has(&f.e, "e1", "prone")); /* untimed: stays */
    ck_assert_int_eq(json_array_size(f.e.log), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(f.e.log, 0), "text")),
                     "Ann is no longer stunned");
    ck_assert_int_eq(rules_enc_cond_remove(&f.e, "e1", "prone"), 1);
    ck_assert_int_eq(rules_enc_cond_remove(&f.e, "e1", "prone"), 0);
    /* adding again replaces: one entry per name */
    rules_enc_cond_add(&f.e, "e1", "bleeding", 0, 1);
    ck_assert_int_eq(
        json_array_size(json_object_get(rules_enc_combatant(&f.e, "e1"), "conditions")), 1);
    fx_free(&f);
}
END_TEST

START_TEST(stats_of_npcs_are_hidden)
{
    fixture f;
    fx_init(&f, 0, "p1");
    fx_ordered(&f);
    rules_enc_stat_set(&f.e, "e1", "hp", 10);
    rules_enc_stat_set(&f.e, "e3", "hp", 30);
    ck_assert_int_eq(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(json_object_get(f.enc, "combatants"), "e1"), "stats"),
            "hp")),
        10);
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "stats"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e3", "hp", -1), 30);
    ck_assert_int_eq(rules_enc_stat_add(&f.e, "e3", "hp", -40, 0, 30), 0);
    ck_assert_int_eq(rules_enc_stat_add(&f.e, "e1", "hp", 5, 0, 12), 12);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", -7), -7);
    /* who controls what: p1 controls e1 only */
    ck_assert(rules_enc_controls(&f.e, "e1"));
    ck_assert(!rules_enc_controls(&f.e, "e2"));
    ck_assert(!rules_enc_controls(&f.e, "e3"));
    f.e.is_gm = 1;
    ck_assert(rules_enc_controls(&f.e, "e3"));
    fx_free(&f);
}
END_TEST

START_TEST(cid_iteration_is_numeric)
{
    fixture f;
    fx_init(&f, 1, "gm");
    fx_add(&f, "e10", "J", "gm", 1);
    fx_add(&f, "e9", "I", "gm", 1);
    fx_add(&f, "e1", "A", "gm", 1);
    ck_assert_str_eq(rules_enc_cid_at(&f.e, 0), "e1");
    ck_assert_str_eq(rules_enc_cid_at(&f.e, 1), "e9");
    ck_assert_str_eq(rules_enc_cid_at(&f.e, 2), "e10");
    ck_assert_ptr_null(rules_enc_cid_at(&f.e, 3));
    fx_free(&f);
}
END_TEST

START_TEST(every_module_describes_itself)
{
    const rules_module *m;
    size_t n = 0;
    for (size_t i = 0; (m = rules_module_at(i)); i++, n++) {
        ck_assert_ptr_eq(rules_module_find(m->id), m);
        json_t *d = rules_module_describe(m);
        ck_assert_str_eq(json_string_value(json_object_get(d, "id")), m->id);
        ck_assert(json_is_array(json_object_get(d, "actions")));
        for (const rules_enc_action *a = m->actions; a && a->name; a++) {
            ck_assert_ptr_eq(rules_module_action(m, a->name), a);
            ck_assert_ptr_nonnull(a->resolve);
            ck_assert(a->who >= RULES_ENC_GM && a->who <= RULES_ENC_ANY);
        }
        json_decref(d);
    }
    ck_assert_uint_ge(n, 5); /* one per system at least */
    ck_assert_ptr_null(rules_module_find("nope.nothing"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("encounter");
    TCase *tc = tcase_create("machinery");
    tcase_add_test(tc, order_sorts_by_keys_then_stable);
    tcase_add_test(tc, advance_skips_the_out_and_wraps_rounds);
    tcase_add_test(tc, order_move_keeps_the_current_turn);
    tcase_add_test(tc, budgets_spend_and_refuse);
    tcase_add_test(tc, conditions_count_down_and_log);
    tcase_add_test(tc, stats_of_npcs_are_hidden);
    tcase_add_test(tc, cid_iteration_is_numeric);
    tcase_add_test(tc, every_module_describes_itself);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
