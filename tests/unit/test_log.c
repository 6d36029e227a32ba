/* The log renderer (rules/log.c, encounter.h "The log"): an event's values with their audiences
 * rendered per reader from the first phrasing whose required values the reader may see; the
 * public, the GM's and one seat's entries; words, optional values, dice, cite and the fallback
 * for an event without words. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"

/* clang-format off */
static const rules_phrase PHRASES[] = {
    {"sprint", "{who} sprints: {spaces} more spaces of movement this round{spin?} (003:72)"},
    {"count", "{n} of {who}'s friends come along"},
    {"pool", "{rolled}k{keep} -> {faces} = {total}: {mod+} and {zero+}{none+?}"},
    {"slots", "Round 1 begins; the slots, highest first: {slots}"},
    {"slot", "{n} ({side})"},
    {"sprint", "{who} sprints"},
    {"spin+", ", +{spin_n} spin"},
    {"peek", "{who} learns that {secret} is {what}"},
    {"peek", "{who} learns something"},
    {"roll", "{who} rolls {total} against {tn}"},
    {"roll", "{who} rolls {total}"},
    {"join", "{who} arrives ({side})"}, /* the module's words come before the common ones */
    {"hidden", "{who} does something quiet with {x}"},
    {"cond.dazed_now", "dazed"}, /* a condition's word: "is no longer dazed" */
    {NULL, NULL},
};
/* clang-format on */

static const rules_enc_action ACTIONS[] = {
    {"sprint", "Sprint", RULES_ENC_ANY, NULL, NULL, NULL},
    {NULL},
};

static const rules_module TEST_MODULE = {
    .id = "test.log", .system = "test", .name = "Test", .actions = ACTIONS, .phrases = PHRASES};

static void fx(efx *f)
{
    efx_start_module(f, &TEST_MODULE, NULL);
    efx_combatant(f, "e1", "Missa", "party", "p1", 0);
    efx_combatant(f, "e2", "Goblin", "foes", "gm", 1);
    f->e.actor = "e1";
}

static const char *text_of(const json_t *entry)
{
    return json_string_value(json_object_get(entry, "text"));
}

static json_t *at(const json_t *log, size_t i)
{
    return json_array_get(log, i);
}

START_TEST(a_public_event_renders_once_for_everyone)
{
    efx f;
    fx(&f);
    rules_log *x = rules_log_begin(&f.e, "sprint", "sprint");
    rules_log_who(x, "who", "e1");
    rules_log_int(x, "spaces", 6, RULES_AUD_PUBLIC);
    rules_log_count(x, "said", 2, RULES_AUD_PUBLIC); /* words only: not in result */
    json_t *pub = rules_log_end(x);
    ck_assert_ptr_eq(pub, at(f.e.log, 0));
    ck_assert_str_eq(text_of(pub), "Missa sprints: 6 more spaces of movement this round");
    ck_assert_str_eq(json_string_value(json_object_get(pub, "cite")), "003:72");
    ck_assert_str_eq(json_string_value(json_object_get(pub, "event")), "sprint");
    ck_assert_str_eq(json_string_value(json_object_get(pub, "actor")), "e1");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(pub, "result"), "spaces")),
                     6);
    ck_assert_uint_eq(json_object_size(json_object_get(pub, "result")), 1);
    ck_assert_uint_eq(json_array_size(f.e.gm_log), 0);
    ck_assert_uint_eq(json_array_size(f.e.seat_log), 0);
    efx_free(&f);
}
END_TEST

/* An NPC's number: the table reads the phrasing without it, the GM the whole one; both carry the
 * same ref, and the GM's die stays in the GM's entry. */
START_TEST(a_hidden_number_drops_out_of_the_public_rendering)
{
    efx f;
    fx(&f);
    rules_log *x = rules_log_begin(&f.e, "sprint", "sprint");
    rules_log_who(x, "who", "e2");
    rules_log_int(x, "spaces", 11, RULES_AUD_GM);
    json_t *dice =
        json_pack("[{s:i, s:i}, {s:i, s:i}]", "sides", 6, "value", 5, "sides", 6, "value", 6);
    rules_log_dice(x, dice, rules_enc_aud_of(&f.e, "e2"));
    json_decref(dice);
    rules_log_end(x);
    json_t *pub = at(f.e.log, 0), *gm = at(f.e.gm_log, 0);
    ck_assert_str_eq(text_of(pub), "Goblin sprints");
    ck_assert_ptr_null(json_object_get(pub, "dice"));
    ck_assert_ptr_null(json_object_get(pub, "result"));
    ck_assert_str_eq(text_of(gm), "Goblin sprints: 11 more spaces of movement this round");
    ck_assert_uint_eq(json_array_size(json_object_get(gm, "dice")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(gm, "result"), "spaces")),
                     11);
    ck_assert_int_eq(json_integer_value(json_object_get(pub, "ref")),
                     json_integer_value(json_object_get(gm, "ref")));
    efx_free(&f);
}
END_TEST

START_TEST(a_word_renders_its_own_phrasing_for_the_same_reader)
{
    efx f;
    fx(&f);
    rules_log *c = rules_log_begin(&f.e, "sprint", "count");
    rules_log_who(c, "who", "e1");
    rules_log_count(c, "n", 3, RULES_AUD_PUBLIC);
    json_t *said = rules_log_end(c);
    ck_assert_str_eq(text_of(said), "3 of Missa's friends come along");
    ck_assert_ptr_null(json_object_get(said, "result"));
    json_array_clear(f.e.log);
    rules_log *x = rules_log_begin(&f.e, "sprint", "sprint");
    rules_log_who(x, "who", "e1");
    rules_log_int(x, "spaces", 4, RULES_AUD_PUBLIC);
    rules_log_word(x, "spin", "spin+", RULES_AUD_PUBLIC);
    rules_log_int(x, "spin_n", 1, RULES_AUD_GM);
    rules_log_end(x);
    /* the word needs spin_n, which only the GM sees: the table reads the sentence without it */
    ck_assert_str_eq(text_of(at(f.e.log, 0)),
                     "Missa sprints: 4 more spaces of movement this round");
    ck_assert_str_eq(text_of(at(f.e.gm_log, 0)),
                     "Missa sprints: 4 more spaces of movement this round, +1 spin");
    efx_free(&f);
}
END_TEST

/* A value for one seat: that seat's entry (for the server's /private/<seat>/log) renders it, the
 * table's does not; no GM entry when nothing is the GM's alone. */
START_TEST(a_seat_value_goes_to_that_seat_alone)
{
    efx f;
    fx(&f);
    rules_log *x = rules_log_begin(&f.e, "peek", "peek");
    rules_log_seat(x, "p1");
    rules_log_who(x, "who", "e1");
    rules_log_name(x, "secret", "the vault", RULES_AUD_SEAT);
    rules_log_name(x, "what", "behind the painting", RULES_AUD_SEAT);
    rules_log_int(x, "clue", 3, RULES_AUD_SEAT);
    rules_log_end(x);
    ck_assert_str_eq(text_of(at(f.e.log, 0)), "Missa learns something");
    ck_assert_ptr_null(json_object_get(at(f.e.log, 0), "result"));
    json_t *mine = at(f.e.seat_log, 0);
    ck_assert_str_eq(text_of(mine), "Missa learns that the vault is behind the painting");
    ck_assert_str_eq(json_string_value(json_object_get(mine, "for")), "p1");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(mine, "result"), "clue")),
                     3);
    ck_assert_uint_eq(json_array_size(f.e.gm_log), 0);
    /* a seat value with no player's seat named is the GM's */
    x = rules_log_begin(&f.e, "peek", "peek");
    rules_log_seat(x, "gm");
    rules_log_who(x, "who", "e2");
    rules_log_name(x, "secret", "the vault", RULES_AUD_SEAT);
    rules_log_name(x, "what", "empty", RULES_AUD_SEAT);
    rules_log_end(x);
    ck_assert_uint_eq(json_array_size(f.e.seat_log), 1);
    ck_assert_str_eq(text_of(at(f.e.gm_log, 0)), "Goblin learns that the vault is empty");
    ck_assert_str_eq(text_of(at(f.e.log, 1)), "Goblin learns something");
    efx_free(&f);
}
END_TEST

/* The first phrasing whose required values the reader sees wins; dice by who rolled them. */
START_TEST(the_first_phrasing_the_reader_can_read_wins_and_dice_go_by_roller)
{
    efx f;
    fx(&f);
    rules_log *x = rules_log_begin(&f.e, "sprint", "roll");
    rules_log_who(x, "who", "e1");
    rules_log_int(x, "total", 9, RULES_AUD_PUBLIC);
    rules_log_int(x, "tn", 12, RULES_AUD_GM);
    json_t *dice =
        json_pack("[{s:i, s:i, s:s}, {s:i, s:i, s:s}, {s:i, s:i}]", "sides", 10, "value", 4, "by",
                  "e1", "sides", 10, "value", 7, "by", "e2", "sides", 6, "value", 2);
    rules_log_dice_by(x, dice, "by", RULES_AUD_GM);
    json_decref(dice);
    rules_log_end(x);
    ck_assert_str_eq(text_of(at(f.e.log, 0)), "Missa rolls 9");
    ck_assert_str_eq(text_of(at(f.e.gm_log, 0)), "Missa rolls 9 against 12");
    ck_assert_uint_eq(json_array_size(json_object_get(at(f.e.log, 0), "dice")), 1);
    ck_assert_uint_eq(json_array_size(json_object_get(at(f.e.gm_log, 0), "dice")), 3);
    ck_assert_ptr_null(json_object_get(json_object_get(at(f.e.log, 0), "result"), "tn"));
    efx_free(&f);
}
END_TEST

/* The module's phrasing of "join" comes before the common one; "leave" falls to the common. */
START_TEST(module_phrasings_come_before_the_common_ones)
{
    efx f;
    fx(&f);
    rules_log *x = rules_log_begin(&f.e, "join", "join");
    rules_log_who(x, "who", "e2");
    rules_log_name(x, "side", "foes", RULES_AUD_PUBLIC);
    rules_log_end(x);
    x = rules_log_begin(&f.e, "leave", "leave");
    rules_log_who(x, "who", "e2");
    rules_log_end(x);
    ck_assert_str_eq(text_of(at(f.e.log, 0)), "Goblin arrives (foes)");
    ck_assert_str_eq(text_of(at(f.e.log, 1)), "Goblin leaves the encounter");
    ck_assert_int_eq(json_integer_value(json_object_get(at(f.e.log, 1), "ref")), 1);
    efx_free(&f);
}
END_TEST

/* Nothing for the table: the GM's entry alone. An event without any phrasing (or whose only
 * phrasing needs a value never given) is logged harmlessly, marked `unphrased`. */
START_TEST(gm_only_events_and_events_without_words)
{
    efx f;
    fx(&f);
    rules_log *x = rules_log_begin(&f.e, "sprint", "hidden");
    rules_log_who(x, "who", "e2");
    rules_log_name(x, "x", "the key", RULES_AUD_GM);
    ck_assert_ptr_null(rules_log_end(x));
    ck_assert_uint_eq(json_array_size(f.e.log), 0);
    ck_assert_str_eq(text_of(at(f.e.gm_log, 0)), "Goblin does something quiet with the key");
    x = rules_log_begin(&f.e, "sprint", "no_such_event");
    rules_log_int(x, "n", 3, RULES_AUD_GM);
    json_t *pub = rules_log_end(x);
    ck_assert_str_eq(text_of(pub), "Missa: Sprint");
    ck_assert_str_eq(json_string_value(json_object_get(pub, "unphrased")), "no_such_event");
    ck_assert_ptr_null(json_object_get(pub, "result"));
    x = rules_log_begin(&f.e, "sprint", "hidden");
    rules_log_who(x, "who", "e2");
    ck_assert_str_eq(json_string_value(json_object_get(rules_log_end(x), "unphrased")), "hidden");
    rules_log_drop(NULL);
    rules_log_drop(rules_log_begin(&f.e, "sprint", "sprint"));
    efx_free(&f);
}
END_TEST

/* The common phrasings of the machinery: a condition running out, and a lower-case first word is
 * capitalised. */
START_TEST(common_phrasings_and_the_capital_letter)
{
    efx f;
    fx(&f);
    rules_enc_cond_add(&f.e, "e1", "prone", 1, 0);
    ck_assert_int_eq(rules_enc_cond_tick(&f.e, "e1"), 1);
    ck_assert_str_eq(text_of(at(f.e.log, 0)), "Missa is no longer prone");
    json_object_set_new(rules_enc_combatant(&f.e, "e1"), "name", json_string("missa"));
    rules_log *x = rules_log_begin(&f.e, "sprint", "sprint");
    rules_log_who(x, "who", "e1");
    rules_log_end(x);
    ck_assert_str_eq(text_of(at(f.e.log, 1)), "Missa sprints");
    /* a condition the module has a word for is said in it, another one by its name in words
     * (never "is no longer knocked_down") */
    rules_enc_cond_add(&f.e, "e1", "dazed_now", 1, 0);
    rules_enc_cond_add(&f.e, "e1", "knocked_down", 1, 0);
    ck_assert_int_eq(rules_enc_cond_tick(&f.e, "e1"), 2);
    ck_assert_str_eq(text_of(at(f.e.log, 2)), "Missa is no longer dazed");
    ck_assert_str_eq(text_of(at(f.e.log, 3)), "Missa is no longer knocked down");
    efx_free(&f);
}
END_TEST

/* A pool's faces, a signed int and a list, as log.c writes them. */
START_TEST(pools_signed_ints_and_lists)
{
    efx f;
    fx(&f);
    rules_pool p = {.sides = 6, .n = 4, .keep = 2, .value = {3, 6, 1, 5}, .kept = {0, 1, 0, 1}};
    rules_log *x = rules_log_begin(&f.e, "sprint", "pool");
    rules_log_count(x, "rolled", 4, RULES_AUD_PUBLIC);
    rules_log_count(x, "keep", 2, RULES_AUD_PUBLIC);
    rules_log_pool(x, "faces", &p, RULES_AUD_PUBLIC);
    rules_log_int(x, "total", 11, RULES_AUD_PUBLIC);
    rules_log_count(x, "mod", 3, RULES_AUD_PUBLIC);
    rules_log_count(x, "zero", 0, RULES_AUD_PUBLIC);
    ck_assert_str_eq(text_of(rules_log_end(x)), "4k2 -> 6 5 [3 1] = 11: +3 and +0");
    rules_pool all = {.sides = 6, .n = 2, .keep = 2, .value = {2, 4}, .kept = {1, 1}};
    x = rules_log_begin(&f.e, "sprint", "pool");
    rules_log_count(x, "rolled", 2, RULES_AUD_PUBLIC);
    rules_log_count(x, "keep", 2, RULES_AUD_PUBLIC);
    rules_log_pool(x, "faces", &all, RULES_AUD_PUBLIC);
    rules_log_int(x, "total", 6, RULES_AUD_PUBLIC);
    rules_log_count(x, "mod", -2, RULES_AUD_PUBLIC);
    rules_log_count(x, "zero", 0, RULES_AUD_PUBLIC);
    ck_assert_str_eq(text_of(rules_log_end(x)), "2k2 -> 4 2 = 6: -2 and +0");
    x = rules_log_begin(&f.e, "sprint", "slots");
    rules_log_list(
        x, "slots", "slot",
        json_pack("[{s:i, s:s}, {s:i, s:s}]", "n", 14, "side", "crew", "n", 11, "side", "guards"),
        RULES_AUD_PUBLIC);
    json_t *e = rules_log_end(x);
    ck_assert_str_eq(text_of(e),
                     "Round 1 begins; the slots, highest first: 14 (crew), 11 (guards)");
    ck_assert_ptr_null(json_object_get(e, "result"));
    efx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("log");
    TCase *tc = tcase_create("render");
    tcase_add_test(tc, a_public_event_renders_once_for_everyone);
    tcase_add_test(tc, a_hidden_number_drops_out_of_the_public_rendering);
    tcase_add_test(tc, a_word_renders_its_own_phrasing_for_the_same_reader);
    tcase_add_test(tc, a_seat_value_goes_to_that_seat_alone);
    tcase_add_test(tc, the_first_phrasing_the_reader_can_read_wins_and_dice_go_by_roller);
    tcase_add_test(tc, module_phrasings_come_before_the_common_ones);
    tcase_add_test(tc, gm_only_events_and_events_without_words);
    tcase_add_test(tc, common_phrasings_and_the_capital_letter);
    tcase_add_test(tc, pools_signed_ints_and_lists);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
