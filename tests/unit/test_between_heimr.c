/* heimr.between (rules/heimr/between.c), driven directly with scripted dice. Rulebook
 * 001_660a93111b0de833.txt, cited 001:LINE. Every action's dice are scripted exactly and a
 * refusal rolls nothing (enc_fixture.h). */
#define ENC_FIXTURE_SHORT_NAMES
#include "enc_fixture.h"

/* A heimr sheet: str, dex, hp of hp_max, fatigue, xp and abilities JSON (or NULL). */
static json_t *sheet(int str, int dex, int hp, int hp_max, int fatigue, int xp,
                     const char *abilities)
{
    json_t *s = json_pack("{s:s, s:{s:i, s:i, s:i, s:i, s:i, s:i}, s:i, s:i, s:i, s:i, s:i, s:i}",
                          "name", "X", "attributes", "str", str, "dex", dex, "sta", 3, "int", 0,
                          "soc", 0, "emp", 0, "hp", hp, "hp_max", hp_max, "willpower", 2,
                          "willpower_max", 2, "fatigue", fatigue, "xp", xp);
    if (abilities)
        json_object_set_new(s, "abilities", json_loads(abilities, 0, NULL));
    return s;
}

static void fx_init(fixture *f)
{
    fx_init_module(f, "heimr.between", NULL);
}

/* ---- short rest (001:145-149, 001:164) ---- */

START_TEST(a_short_rest_restores_hit_points_to_the_maximum)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(1, 1, 3, 10, 1, 0, NULL));
    ACT_NODICE(&f, "e1", "rest", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), 10);
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "rest"), "Astrid takes a short rest"));
    fx_free(&f);
}
END_TEST

START_TEST(an_injured_character_cannot_take_a_short_rest)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(1, 1, 0, 10, 1, 0, NULL));  /* bloodied */
    fx_add(&f, "e2", "Gunnar", "p2", 0, sheet(1, 1, -3, 10, 1, 0, NULL)); /* mangled */
    ck_assert_int_eq(refused(&f, "e1", "rest", NULL, "cannot take a short rest"), TB_RULE);
    refused(&f, "e2", "rest", NULL, "injured");
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), 0);
    ck_assert_int_eq(fx_stat(&f, "e2", NULL, "hp"), -3);
    fx_free(&f);
}
END_TEST

START_TEST(the_gm_calls_a_rest_and_the_injured_are_named)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(1, 1, 1, 8, 1, 0, NULL));
    fx_add(&f, "e2", "Gunnar", "p2", 0, sheet(1, 1, -1, 10, 1, 0, NULL));
    ACT_NODICE(&f, NULL, "rest_all", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), 8);
    ck_assert_int_eq(fx_stat(&f, "e2", NULL, "hp"), -1);
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "rest"), "Gunnar"));
    fx_free(&f);
    fx_init(&f);
    refused(&f, NULL, "rest_all", NULL, "nobody is here");
    fx_free(&f);
}
END_TEST

/* ---- XP (001:217) ---- */

START_TEST(example_xp_divided_among_four_carries_the_remainder)
{
    fixture f;
    fx_init(&f);
    refused(&f, NULL, "award", "{\"xp\": 10}", "nobody is here");
    const char *ids[] = {"e1", "e2", "e3", "e4"};
    for (int i = 0; i < 4; i++)
        fx_add(&f, ids[i], "PC", "p1", 0, sheet(0, 0, 5, 5, 1, 1, NULL));
    fx_add(&f, "e5", "Wolf", "gm", 1, sheet(0, 0, 5, 5, 1, 0, NULL)); /* not a character */
    /* 001:217 "10XP divided among four characters, means 2XP per character with 2 remaining" */
    ACT_NODICE(&f, NULL, "award", "{\"xp\": 10}");
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(fx_stat(&f, ids[i], NULL, "xp"), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(f.enc, "xp_carry")), 2);
    json_t *r = fx_last_result(&f, "award");
    ck_assert_int_eq(json_integer_value(json_object_get(r, "each")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "present")), 4);
    /* "carried over to the next time characters gain XP": 2 + 2 kept = 4, one each */
    ACT_NODICE(&f, NULL, "award", "{\"xp\": 2}");
    ck_assert_int_eq(fx_stat(&f, "e4", NULL, "xp"), 4);
    ck_assert_int_eq(json_integer_value(json_object_get(f.enc, "xp_carry")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(fx_stats(&f, "e5"), "xp")), 0);
    refused(&f, "e1", "award", "{\"xp\": 0}", "xp");
    fx_free(&f);
}
END_TEST

START_TEST(the_xp_kept_last_time_is_a_start_option)
{
    fixture f;
    fx_init_module(&f, "heimr.between", "{\"xp_carry\": 2}");
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(0, 0, 5, 5, 1, 0, NULL));
    fx_add(&f, "e2", "Gunnar", "p2", 0, sheet(0, 0, 5, 5, 1, 0, NULL));
    fx_add(&f, "e3", "Liesbeth", "p3", 0, sheet(0, 0, 5, 5, 1, 0, NULL));
    ACT_NODICE(&f, NULL, "award", "{\"xp\": 5}"); /* 7 among three: 2 each, 1 kept */
    ck_assert_int_eq(fx_stat(&f, "e3", NULL, "xp"), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(f.enc, "xp_carry")), 1);
    tb_err err = {0};
    ck_assert_int_eq(f.m->end(&f.e, &err), 0); /* the GM ends it: the kept XP is said */
    ck_assert_str_eq(fx_last_text(&f, "award"), "1 XP is kept for the next award");
    fx_free(&f);
}
END_TEST

/* ---- training (001:219-232) ---- */

#define SWORDS                                                                                     \
    "[{\"name\": \"Swords\", \"attributes\": [\"str\", \"dex\"], \"base_consistency\": 1, "        \
    "\"trained_consistency\": 1, \"trained_potential\": 0}]"

START_TEST(training_costs_the_table_xp_and_adds_attribute_progress)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(0, 1, 5, 5, 1, 20, SWORDS));
    /* 001:221 level 2 costs 10, level 1 costs 5 */
    ACT_NODICE(&f, "e1", "train", "{\"ability\": \"swords\", \"kind\": \"consistency\"}");
    json_t *ab = json_array_get(json_object_get(fx_stats(&f, "e1"), "abilities"), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(ab, "trained_consistency")), 2);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "xp"), 10);
    /* 001:227 the first attribute unless the player chooses (several: "you can choose") */
    ck_assert_int_eq(fx_stat(&f, "e1", "attribute_progress", "str"), 1);
    ACT_NODICE(&f, "e1", "train",
               "{\"ability\": \"Swords\", \"kind\": \"potential\", \"attribute\": \"dex\"}");
    ck_assert_int_eq(json_integer_value(json_object_get(ab, "trained_potential")), 1);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "xp"), 5);
    ck_assert_int_eq(fx_stat(&f, "e1", "attribute_progress", "dex"), 1);
    ck_assert_ptr_nonnull(
        strstr(fx_last_text(&f, "train"), "trains Swords potential to 1 for 5 XP"));
    fx_free(&f);
}
END_TEST

START_TEST(training_is_refused_without_the_xp_or_the_ability)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(0, 1, 5, 5, 1, 9, SWORDS));
    /* level 2 of consistency costs 10; 9 is not enough */
    ck_assert_int_eq(refused(&f, "e1", "train",
                             "{\"ability\": \"Swords\", \"kind\": \"consistency\"}", "costs 10 XP"),
                     TB_RULE);
    refused(&f, "e1", "train", "{\"ability\": \"Lockpicking\", \"kind\": \"potential\"}",
            "no ability called Lockpicking");
    refused(&f, "e1", "train", "{\"ability\": \"Swords\", \"kind\": \"luck\"}",
            "consistency or potential");
    refused(&f, "e1", "train",
            "{\"ability\": \"Swords\", \"kind\": \"potential\", \"attribute\": \"emp\"}",
            "not based on emp");
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "xp"), 9);
    ck_assert_ptr_null(json_object_get(fx_stats(&f, "e1"), "attribute_progress"));
    fx_free(&f);
}
END_TEST

START_TEST(attribute_progress_at_its_requirement_raises_the_attribute)
{
    fixture f;
    fx_init(&f);
    json_t *s = sheet(0, 1, 5, 5, 1, 100, SWORDS);
    /* 001:232 raising str to 1 takes progress 6; 5 already */
    json_object_set_new(s, "attribute_progress", json_pack("{s:i}", "str", 5));
    fx_add(&f, "e1", "Astrid", "p1", 0, s);
    ACT_NODICE(&f, "e1", "train", "{\"ability\": \"Swords\", \"kind\": \"potential\"}");
    ck_assert_int_eq(fx_stat(&f, "e1", "attributes", "str"), 1);
    ck_assert_int_eq(fx_stat(&f, "e1", "attribute_progress", "str"), 0); /* 001:229 */
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "train"), "str rises to 1"));
    fx_free(&f);
}
END_TEST

/* ---- falling, crossing, climbing (001:494, 001:519-535) ---- */

START_TEST(example_a_failed_fall_from_six_leaves_minus_three_hp_and_hurt_legs)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(0, 2, 10, 10, 1, 0, NULL));
    /* no Agility ability: C 0 (the d6), P = dex 2; CR 2 + 2*6 = 14; d6 5 + 2 = 7 fails */
    ACT_OK(&f, "e1", "fall", "{\"height\": 6}", 5);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), -3); /* 001:521 "height of six ... -3 HP" */
    json_t *inj = json_object_get(fx_stats(&f, "e1"), "injuries");
    ck_assert_int_eq(json_array_size(inj), 2);
    ck_assert_str_eq(json_string_value(json_array_get(inj, 0)), "right_leg");
    json_t *r = fx_last_result(&f, "fall");
    ck_assert_int_eq(json_integer_value(json_object_get(r, "hp")), -3);
    fx_free(&f);
}
END_TEST

START_TEST(example_jumping_from_four_needs_eight_and_falling_ten)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0,
           sheet(0, 2, 10, 10, 1, 0,
                 "[{\"name\": \"Agility\", \"attributes\": [\"dex\"], \"base_consistency\": 1, "
                 "\"trained_potential\": 1}]"));
    /* Agility C 1, P dex 2 + 1 = 3: d6 then one d10; the d10 5 + 3 = 8 meets the jump's 2*4 */
    ACT_OK(&f, "e1", "fall", "{\"height\": 4, \"jump\": 1}", 6, 5);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), 10);
    json_t *r = json_array_get(f.e.log, json_array_size(f.e.log) - 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(r, "result"), "cr")), 8);
    /* the same 8 is short of a fall's 2 + 2*4 = 10: HP 3 - 4 = -1 */
    ACT_OK(&f, "e1", "fall", "{\"height\": 4}", 6, 5);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), -1);
    fx_free(&f);
}
END_TEST

START_TEST(a_fall_from_eight_hurts_the_torso_and_never_heals)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(0, 0, -5, 10, 1, 0, NULL));
    /* already at -5: a fall does not raise HP */
    ACT_OK(&f, "e1", "fall", "{\"height\": 2}", 1);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), -5);
    fx_free(&f);
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(0, 0, 10, 10, 1, 0, NULL));
    ACT_OK(&f, "e1", "fall", "{\"height\": 8}", 6); /* 3 - 8 = -5 */
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), -5);
    json_t *inj = json_object_get(fx_stats(&f, "e1"), "injuries");
    ck_assert_int_eq(json_array_size(inj), 3);
    ck_assert_str_eq(json_string_value(json_array_get(inj, 2)), "torso");
    fx_free(&f);
}
END_TEST

START_TEST(a_tired_roll_fails_and_raises_fatigue)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(0, 9, 10, 10, 4, 0, NULL));
    /* 001:284 d6 3 before potential is below fatigue 4: fails however high P; 001:286 +1 */
    ACT_OK(&f, "e1", "cross", "{\"cr\": 5}", 3);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "fatigue"), 5);
    json_t *cond = json_object_get(fx_stats(&f, "e1"), "conditions");
    ck_assert_str_eq(json_string_value(json_array_get(cond, 0)), "prone"); /* 001:494 */
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "cross"), "falls prone"));
    fx_free(&f);
}
END_TEST

START_TEST(crossing_succeeds_and_a_failed_climb_is_a_fall)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(0, 2, 10, 10, 1, 0, NULL));
    ACT_OK(&f, "e1", "cross", "{\"cr\": 5}", 3); /* window CR 5: 3 + 2 */
    ck_assert_ptr_null(json_object_get(fx_stats(&f, "e1"), "conditions"));
    /* a rope (CR 4) up to height 3 fails on 1 + 2; the fall from 3 (CR 8) fails on 2 + 2 */
    ACT_OK(&f, "e1", "cross", "{\"cr\": 4, \"height\": 3}", 1, 2);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), 0);
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "climb"), "climbs"));
    fx_free(&f);
}
END_TEST

START_TEST(the_action_table_says_who_may_act)
{
    const rules_module *m = rules_module_find("heimr.between");
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(rules_module_action(m, "award")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "rest_all")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "rest")->who, RULES_ENC_OWNER);
    ck_assert_int_eq(rules_module_action(m, "train")->who, RULES_ENC_OWNER);
    ck_assert_int_eq(rules_module_action(m, "fall")->who, RULES_ENC_OWNER);
    for (const rules_enc_action *a = m->actions; a->name; a++)
        ck_assert_msg(a->cite && strncmp(a->cite, "001:", 4) == 0, "%s has no citation", a->name);
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Wolf", "gm", 1, sheet(0, 0, 3, 5, 1, 0, NULL));
    refused(&f, "e1", "rest", NULL, "not one");
    fx_free(&f);
}
END_TEST

/* ---- issue 25 item 8: the breath back (001:292), a failed CR tried again (001:113) ---- */

/* A short rest's five quiet minutes are a breather too: fatigue back to its base, 4 - stamina 3
 * = 1 (001:292, 001:294). */
START_TEST(a_short_rest_gives_the_breath_back_too)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(1, 1, 3, 10, 6, 0, NULL));
    ACT_NODICE(&f, "e1", "rest", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), 10);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "fatigue"), 1);
    ck_assert_str_eq(fx_last_text(&f, "rest"), "Astrid takes a short rest of five quiet minutes: "
                                               "hit points 10 of 10, fatigue back to 1");
    fx_free(&f);
}
END_TEST

/* An injured character cannot rest (001:164) but can stand still for half a minute (001:292). */
START_TEST(an_injured_character_catches_their_breath_without_resting)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(1, 1, 0, 10, 5, 0, NULL));
    refused(&f, "e1", "rest", NULL, "cannot take a short rest");
    long took = f.e.took_s;
    ACT_NODICE(&f, "e1", "breather", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "fatigue"), 1);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "hp"), 0);
    ck_assert_str_eq(fx_last_text(&f, "breather"), "Astrid catches their breath: fatigue 1");
    ck_assert_int_eq(f.e.took_s - took, 30);
    refused(&f, "e1", "breather", NULL, "not out of breath");
    fx_free(&f);
}
END_TEST

static const char *LOCKS = "[{\"name\":\"Lock picking\",\"attributes\":[\"dex\"],"
                           "\"base_consistency\":1}]";

/* 001:113 "Characters are allowed to re-roll a failed CR at the cost of one willpower for each
 * roll." Lock picking C1 P1 (dex 1) against CR 8. */
START_TEST(a_failed_challenge_is_tried_again_for_one_willpower)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(1, 1, 5, 5, 1, 0, LOCKS));
    refused(&f, "e1", "reroll", NULL, "no failed challenge");
    refused(&f, "e1", "challenge", "{\"ability\":\"Lute\",\"cr\":8}", "no ability called Lute");
    ACT_OK(&f, "e1", "challenge", "{\"ability\":\"lock picking\",\"cr\":8}", 2, 3); /* 3+1 */
    ck_assert_str_eq(fx_last_text(&f, "challenge"),
                     "Astrid rolls Lock picking: 4 against 8 — failed");
    ck_assert_ptr_nonnull(json_object_get(rules_enc_combatant(&f.e, "e1"), "failed"));
    ACT_OK(&f, "e1", "reroll", NULL, 5, 9); /* 9 + 1 = 10 */
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "willpower"), 1);
    ck_assert_str_eq(fx_last_text(&f, "reroll"), "Astrid spends one willpower (1 left) to try "
                                                 "again: Lock picking 10 against 8 — made it");
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e1"), "failed"));
    refused(&f, "e1", "reroll", NULL, "no failed challenge");
    /* two failures: the first re-roll spends the last willpower, the second is refused */
    ACT_OK(&f, "e1", "challenge", "{\"ability\":\"Lock picking\",\"cr\":8,\"penalty\":1}", 2);
    ACT_OK(&f, "e1", "reroll", NULL, 3);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "willpower"), 0);
    refused(&f, "e1", "reroll", NULL, "no willpower left");
    fx_free(&f);
}
END_TEST

/* 001:284 only a roll based on a physical attribute has the fatigue requirement: Persuasion
 * (sociability) passes whatever the fatigue, and raises none. */
START_TEST(a_mental_challenge_ignores_fatigue)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Astrid", "p1", 0, sheet(1, 1, 5, 5, 6, 0, NULL));
    ACT_OK(&f, "e1", "challenge", "{\"ability\":\"Persuasion\",\"cr\":3}", 4); /* C0: the d6 */
    ck_assert_str_eq(fx_last_text(&f, "challenge"),
                     "Astrid rolls Persuasion: 4 against 3 — made it");
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "fatigue"), 6);
    ACT_OK(&f, "e1", "challenge", "{\"ability\":\"Agility\",\"cr\":3}", 4); /* 4 + dex 1 */
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "challenge"), "too tired"));
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "fatigue"), 7);
    fx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("between_heimr");
    TCase *tc = tcase_create("between");
    tcase_add_test(tc, a_short_rest_restores_hit_points_to_the_maximum);
    tcase_add_test(tc, an_injured_character_cannot_take_a_short_rest);
    tcase_add_test(tc, the_gm_calls_a_rest_and_the_injured_are_named);
    tcase_add_test(tc, example_xp_divided_among_four_carries_the_remainder);
    tcase_add_test(tc, the_xp_kept_last_time_is_a_start_option);
    tcase_add_test(tc, training_costs_the_table_xp_and_adds_attribute_progress);
    tcase_add_test(tc, training_is_refused_without_the_xp_or_the_ability);
    tcase_add_test(tc, attribute_progress_at_its_requirement_raises_the_attribute);
    tcase_add_test(tc, example_a_failed_fall_from_six_leaves_minus_three_hp_and_hurt_legs);
    tcase_add_test(tc, example_jumping_from_four_needs_eight_and_falling_ten);
    tcase_add_test(tc, a_fall_from_eight_hurts_the_torso_and_never_heals);
    tcase_add_test(tc, a_tired_roll_fails_and_raises_fatigue);
    tcase_add_test(tc, crossing_succeeds_and_a_failed_climb_is_a_fall);
    tcase_add_test(tc, the_action_table_says_who_may_act);
    suite_add_tcase(s, tc);
    TCase *i25 = tcase_create("issue25");
    tcase_add_test(i25, a_short_rest_gives_the_breath_back_too);
    tcase_add_test(i25, an_injured_character_catches_their_breath_without_resting);
    tcase_add_test(i25, a_failed_challenge_is_tried_again_for_one_willpower);
    tcase_add_test(i25, a_mental_challenge_ignores_fatigue);
    suite_add_tcase(s, i25);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
