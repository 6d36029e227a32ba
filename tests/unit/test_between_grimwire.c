/* grimwire.between (rules/grimwire/between.c), driven directly with scripted dice. Rulebook
 * 002_c1f3df0ad7b1e31f.txt, cited 002:LINE. Every action's dice are scripted exactly and a
 * refusal rolls nothing (enc_fixture.h). */
#define ENC_FIXTURE_SHORT_NAMES
#include "enc_fixture.h"
#include "grimwire/grimwire.h"

/* A grimwire sheet: level, xp, Condition current/max, Focus current/max, burnout, COR, MND. */
static json_t *sheet(int level, int xp, int cond, int cmax, int foc, int fmax, int burnout, int cor,
                     int mnd)
{
    return json_pack("{s:s, s:i, s:i, s:{s:i, s:i, s:i, s:i, s:i, s:i}, s:{s:i, s:i}, s:{s:i, s:i},"
                     " s:i, s:[], s:i}",
                     "name", "X", "level", level, "xp", xp, "attributes", "tog", 1, "agl", 1, "cor",
                     cor, "mnd", mnd, "per", 1, "rsn", 0, "condition", "current", cond, "max", cmax,
                     "focus", "current", foc, "max", fmax, "burnout", burnout, "techniques",
                     "learning_hours", 0);
}

static void fx_init(fixture *f)
{
    fx_init_module(f, "grimwire.between", NULL);
}

static json_t *comb(fixture *f, const char *cid)
{
    return rules_enc_combatant(&f->e, cid);
}

/* ---- rests (002:200-218, 002:252) ---- */

START_TEST(a_short_rest_gives_a_fifth_of_condition_and_half_of_focus)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(1, 0, 5, 16, 2, 8, 0, 3, 0));
    /* 002:208: 20% of 16 is 3.2, rounded down 3; half of 8 is 4 */
    ACT_NODICE(&f, "e1", "short_rest", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 8);
    ck_assert_int_eq(fx_stat(&f, "e1", "focus", "current"), 6);
    ACT_NODICE(&f, "e1", "short_rest", NULL); /* never above the max: 8 -> 10 by 4 */
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 11);
    ck_assert_int_eq(fx_stat(&f, "e1", "focus", "current"), 8);
    /* 002:214 "only benefit from two short rests ... per day" */
    ck_assert_int_eq(refused(&f, "e1", "short_rest", NULL, "two short rests today"), TB_RULE);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 11);
    fx_free(&f);
}
END_TEST

START_TEST(example_a_long_rest_gives_focus_equal_to_the_max_from_below_zero)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Vex", "p1", 0, sheet(1, 0, 4, 22, -5, 15, 0, 3, 0));
    /* 002:200 "max Focus of 15 and current Focus of -5, resting would only restore ... to 10";
     * 002:212 half the max Condition: 4 + 11 */
    ACT_NODICE(&f, "e1", "long_rest", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", "focus", "current"), 10);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 15);
    ck_assert_int_eq(refused(&f, "e1", "long_rest", NULL, "one a day"), TB_RULE);
    fx_free(&f);
}
END_TEST

START_TEST(a_long_rest_eases_one_level_of_burnout_unless_busy)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Vex", "p1", 0, sheet(1, 0, 5, 20, 0, 6, 3, 3, 0));
    fx_add(&f, "e2", "Aune", "p2", 0, sheet(1, 0, 5, 20, 0, 6, 2, 3, 0));
    /* 002:252 "reduced by one level at the end of a long rest": burnout 2 caps Condition at 80%
     * of 20 = 16 (002:246); 5 + 10 = 15 */
    ACT_NODICE(&f, "e1", "long_rest", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 2);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 15);
    /* "A character with burnout can still choose to do downtime ... will not recover"; the cap of
     * burnout 2 holds: 5 + 10 = 15 <= 16 */
    ACT_NODICE(&f, "e2", "long_rest", "{\"downtime\": 1}");
    ck_assert_int_eq(fx_stat(&f, "e2", NULL, "burnout"), 2);
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "long_rest"), "burnout stays at 2"));
    fx_free(&f);
}
END_TEST

START_TEST(resting_needs_shelter_supplies_and_a_living_character)
{
    fixture f;
    fx_init_module(&f, "grimwire.between", "{\"sheltered\": 0}");
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(1, 0, 5, 16, 2, 8, 0, 3, 0));
    refused(&f, "e1", "short_rest", NULL, "sheltered place");
    json_object_set_new(f.enc, "sheltered", json_true());
    json_object_set_new(f.enc, "supplied", json_false());
    refused(&f, "e1", "long_rest", NULL, "food, drinkable water");
    ACT_NODICE(&f, "e1", "short_rest", NULL);
    fx_free(&f);
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(1, 0, -2, 16, 2, 8, 0, 3, 0));
    refused(&f, "e1", "short_rest", NULL, "dying");
    fx_add(&f, "e2", "Aune", "p2", 0, sheet(1, 0, 3, 16, 2, 8, 0, 3, 0));
    ACT_NODICE(&f, NULL, "rest_all", "{\"long\": 1}"); /* the GM: Aune rests, Cyrus cannot */
    ck_assert_int_eq(fx_stat(&f, "e2", "condition", "current"), 11);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), -2);
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "rest"), "Cyrus is dying"));
    fx_free(&f);
}
END_TEST

/* ---- days and burnout (002:224-250) ---- */

START_TEST(three_days_without_a_long_rest_bring_burnout)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(1, 0, 16, 16, 2, 8, 0, 3, 0));
    fx_add(&f, "e2", "Aune", "p2", 0, sheet(1, 0, 16, 16, 2, 8, 0, 3, 0));
    for (int d = 0; d < 2; d++) {
        ACT_NODICE(&f, "e2", "long_rest", NULL);
        ACT_NODICE(&f, NULL, "next_day", NULL);
    }
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 0);
    ACT_NODICE(&f, "e2", "long_rest", NULL);
    ACT_NODICE(&f, NULL, "next_day", NULL); /* 002:228 "Going 3 days without resting" */
    ck_assert_int_eq(json_integer_value(json_object_get(f.enc, "day")), 4);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 1);
    ck_assert_int_eq(fx_stat(&f, "e2", NULL, "burnout"), 0);
    ACT_NODICE(&f, NULL, "next_day", NULL); /* 002:240 "continues to rise by one level per day" */
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 2);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 12); /* 80% of 16 (002:246) */
    /* 002:214 today's rests start again */
    ck_assert_int_eq(json_integer_value(json_object_get(comb(&f, "e2"), "short_rests")), 0);
    fx_free(&f);
}
END_TEST

START_TEST(a_cause_not_dealt_with_adds_a_level_a_day_and_level_four_is_dying)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(1, 0, 8, 16, 2, 8, 3, 3, 0));
    refused(&f, NULL, "cause", "{\"target\": \"e1\", \"cause\": \"boredom\"}", "hunger");
    ACT_NODICE(&f, NULL, "cause", "{\"target\": \"e1\", \"cause\": \"hunger\"}");
    ACT_NODICE(&f, "e1", "long_rest", NULL); /* burnout 3 -> 2 at the end of the rest */
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 2);
    ACT_NODICE(&f, NULL, "next_day", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 3);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 8); /* the 50% cap: 8 */
    ACT_NODICE(&f, NULL, "next_day", NULL);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 4);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 0); /* 002:250 */
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "burnout"), "dying"));
    ACT_NODICE(&f, NULL, "cause", "{\"target\": \"e1\", \"cause\": \"hunger\", \"on\": 0}");
    ck_assert_int_eq(json_array_size(json_object_get(comb(&f, "e1"), "causes")), 0);
    fx_free(&f);
}
END_TEST

/* ---- XP and levels (002:262-298) ---- */

START_TEST(levelling_up_applies_the_rewards_of_the_table)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 0));
    ck_assert_int_eq(refused(&f, "e1", "level_up", "{\"raise\": \"cor\"}", "needs 60 XP"), TB_RULE);
    ACT_NODICE(&f, NULL, "award", "{\"xp\": 25}");
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "xp"), 60);
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "award"), "enough to level up"));
    refused(&f, "e1", "level_up", "{\"raise\": \"cor,mnd\"}", "raises 1 attribute");
    refused(&f, "e1", "level_up", "{\"raise\": \"str\"}", "tog, agl");
    /* 002:274 level 3: +1 attribute, +3 max Condition/Focus, learning capacity +8 */
    ACT_NODICE(&f, "e1", "level_up", "{\"raise\": \"cor\"}");
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "level"), 3);
    ck_assert_int_eq(fx_stat(&f, "e1", "attributes", "cor"), 4);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "max"), 19);
    ck_assert_int_eq(fx_stat(&f, "e1", "focus", "max"), 11);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 14);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "learning_hours"), 8);
    fx_free(&f);
}
END_TEST

START_TEST(level_four_raises_two_attributes_never_past_ten)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Vex", "p1", 0, sheet(3, 120, 17, 22, 3, 7, 0, 10, 3));
    refused(&f, "e1", "level_up", "{\"raise\": \"cor\"}", "raises 2 attributes");
    refused(&f, "e1", "level_up", "{\"raise\": \"cor,mnd\"}", "cannot rise above 10");
    ACT_NODICE(&f, "e1", "level_up", "{\"raise\": \"mnd,mnd\"}");
    ck_assert_int_eq(fx_stat(&f, "e1", "attributes", "mnd"), 5);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "learning_hours"), 10);
    fx_free(&f);
}
END_TEST

START_TEST(level_rewards_and_rest_condition_helpers)
{
    grimwire_reward r;
    ck_assert_int_eq(grimwire_level_reward(1, &r), -1);
    ck_assert_int_eq(grimwire_level_reward(11, &r), -1);
    ck_assert_int_eq(grimwire_level_reward(8, &r), 0); /* 002:286 */
    ck_assert_int_eq(r.attributes, 2);
    ck_assert_int_eq(r.condition_focus, 4);
    ck_assert_int_eq(r.hours, 18);
    ck_assert_int_eq(grimwire_level_reward(10, &r), 0); /* 002:296 */
    ck_assert_int_eq(r.hours, 24);
    ck_assert_int_eq(grimwire_rest_condition(0, 9, 0, 0), 1);    /* 1.8 -> 1 */
    ck_assert_int_eq(grimwire_rest_condition(0, 9, 0, 1), 4);    /* 4.5 -> 4 */
    ck_assert_int_eq(grimwire_rest_condition(9, 20, 3, 1), 10);  /* the 50% cap */
    ck_assert_int_eq(grimwire_rest_condition(12, 20, 3, 1), 12); /* above the cap: kept */
}
END_TEST

/* ---- techniques (002:300-316) ---- */

START_TEST(example_throwing_expert_takes_five_of_eight_hours)
{
    fixture f;
    fx_init(&f);
    json_t *s = sheet(2, 35, 14, 16, 6, 8, 0, 3, 0);
    json_object_set_new(s, "learning_hours", json_integer(8));
    fx_add(&f, "e1", "Cyrus", "p1", 0, s);
    /* 002:310-314 COR 3, effort 15, 8 hours: 5 hours, 3 left */
    ACT_NODICE(&f, "e1", "learn",
               "{\"technique\": \"Throwing Expert\", \"attribute\": \"cor\", \"effort\": 15}");
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "learning_hours"), 3);
    json_t *learned = json_object_get(fx_stats(&f, "e1"), "learned");
    ck_assert_str_eq(json_string_value(json_array_get(learned, 0)), "Throwing Expert");
    ck_assert_int_eq(json_integer_value(json_object_get(fx_last_result(&f, "learn"), "hours")), 5);
    refused(&f, "e1", "learn", "{\"technique\": \"Throwing Expert\"}", "already knows");
    fx_free(&f);
}
END_TEST

START_TEST(learning_goes_in_sessions_and_stops_at_the_hours_left)
{
    fixture f;
    fx_init(&f);
    json_t *s = sheet(2, 35, 14, 16, 6, 8, 0, 3, 2);
    json_object_set_new(s, "learning_hours", json_integer(3));
    fx_add(&f, "e1", "Cyrus", "p1", 0, s);
    refused(&f, "e1", "learn", "{\"technique\": \"Kneecap\"}", "'attribute'");
    refused(&f, "e1", "learn", "{\"technique\": \"Hex\", \"attribute\": \"rsn\", \"effort\": 4}",
            "no points in rsn");
    /* 002:316 "incrementally over several learning sessions": 2 hours x MND 2 = 4 of 10 */
    ACT_NODICE(
        &f, "e1", "learn",
        "{\"technique\": \"Analyze\", \"attribute\": \"mnd\", \"effort\": 10, \"hours\": 2}");
    json_t *entry = json_array_get(json_object_get(fx_stats(&f, "e1"), "learning"), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(entry, "points")), 4);
    /* 3 more hours needed, 1 left: 002:314 wait for the next level */
    ck_assert_int_eq(
        refused(&f, "e1", "learn", "{\"technique\": \"Analyze\"}", "1 learning hour left"),
        TB_RULE);
    ACT_NODICE(&f, "e1", "learn", "{\"technique\": \"Analyze\", \"hours\": 1}");
    ck_assert_int_eq(json_integer_value(json_object_get(entry, "points")), 6);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "learning_hours"), 0);
    fx_free(&f);
}
END_TEST

START_TEST(techniques_are_exchanged_on_a_long_rest_within_the_slots)
{
    fixture f;
    fx_init(&f);
    json_t *s = sheet(2, 35, 14, 16, 2, 4, 0, 3, 0); /* max Focus 4: 2 slots (002:302) */
    json_object_set_new(s, "techniques", json_pack("[s, s]", "Kneecap", "Brace"));
    json_object_set_new(s, "learned", json_pack("[s]", "Throwing Expert"));
    fx_add(&f, "e1", "Cyrus", "p1", 0, s);
    refused(&f, "e1", "exchange", "{\"take\": \"Throwing Expert\", \"drop\": \"Brace\"}",
            "long rest first");
    ACT_NODICE(&f, "e1", "long_rest", NULL);
    refused(&f, "e1", "exchange", "{\"take\": \"Throwing Expert\"}", "name one to drop");
    refused(&f, "e1", "exchange", "{\"take\": \"Flight\", \"drop\": \"Brace\"}", "not learned");
    ACT_NODICE(&f, "e1", "exchange", "{\"take\": \"Throwing Expert\", \"drop\": \"Brace\"}");
    json_t *active = json_object_get(fx_stats(&f, "e1"), "techniques");
    ck_assert_str_eq(json_string_value(json_array_get(active, 1)), "Throwing Expert");
    ck_assert_str_eq(
        json_string_value(json_array_get(json_object_get(fx_stats(&f, "e1"), "learned"), 0)),
        "Brace");
    fx_free(&f);
}
END_TEST

/* ---- crafting (002:336-385) ---- */

static const char *item_q(fixture *f)
{
    return json_string_value(json_object_get(fx_last_result(f, "craft"), "quality"));
}

START_TEST(crafting_both_rolls_well_made_one_unstable_none_failed)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2));
    refused(&f, "e1", "craft", "{\"item\": \"Grapple gun\"}", "has not set the numbers");
    refused(&f, "e1", "craft", "{\"item\": \"Grapple gun\", \"cor_tn\": 12}", "MND number");
    /* MND 10 + 2 = 12 >= 12, COR 9 + 3 = 12 >= 12: well made; the kind is known now (002:344) */
    ACT_OK(&f, "e1", "craft",
           "{\"item\": \"Grapple gun\", \"kind\": \"gun\", \"mnd_tn\": 12, \"cor_tn\": 12}", 10, 9);
    ck_assert_str_eq(item_q(&f), "well made");
    json_t *items = json_object_get(fx_stats(&f, "e1"), "items");
    ck_assert_int_eq(json_array_size(items), 1);
    ck_assert_ptr_null(json_object_get(json_array_get(items, 0), "unstable_die"));
    /* a gun again: no MND roll; COR 5 + 3 fails, MND counts as passed: unstable, d20 */
    ACT_OK(&f, "e1", "craft", "{\"item\": \"Flare gun\", \"kind\": \"gun\", \"cor_tn\": 12}", 5);
    ck_assert_str_eq(item_q(&f), "unstable");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(items, 1), "unstable_die")),
                     20);
    /* both fail: nothing is made (002:364) */
    ACT_OK(&f, "e1", "craft", "{\"item\": \"Drone\", \"mnd_tn\": 15, \"cor_tn\": 15}", 2, 2);
    ck_assert_str_eq(item_q(&f), "failed");
    ck_assert_int_eq(json_array_size(items), 2);
    fx_free(&f);
}
END_TEST

START_TEST(extended_crafting_needs_two_of_three_and_consumables_use_a_d10)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2));
    /* MND 3 + 2 fails; COR 12, 4, 13 (+3): 15, 7, 16 against 14: 2 of 3 (002:360) */
    ACT_OK(&f, "e1", "craft",
           "{\"item\": \"Smoke bomb\", \"mnd_tn\": 10, \"cor_tn\": 14, \"extended\": 1, "
           "\"consumable\": 1}",
           3, 12, 4, 13);
    ck_assert_str_eq(item_q(&f), "unstable");
    json_t *it = json_array_get(json_object_get(fx_stats(&f, "e1"), "items"), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(it, "unstable_die")), 10); /* 002:375 */
    /* the MND roll failed: the kind is not known yet (002:344) */
    ck_assert_int_eq(json_array_size(json_object_get(fx_stats(&f, "e1"), "blueprints")), 0);
    /* 1 of 3 is not enough */
    ACT_OK(&f, "e1", "craft",
           "{\"item\": \"Wagon\", \"mnd_tn\": 5, \"cor_tn\": 14, \"extended\": 1}", 10, 12, 4, 4);
    ck_assert_str_eq(item_q(&f), "unstable");
    ck_assert_int_eq(json_is_false(json_object_get(fx_last_result(&f, "craft"), "cor_ok")), 1);
    fx_free(&f);
}
END_TEST

START_TEST(build_numbers_are_the_gms_and_stay_out_of_the_public_log)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2));
    fx_add(&f, "e2", "Wolf", "gm", 1, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2));
    refused(&f, NULL, "set_build", "{\"target\": \"e2\", \"cor_tn\": 9}", "not a player");
    /* the GM sets the numbers (002:53 the GM keeps them); they wait in /gm/enc */
    ACT_NODICE(&f, NULL, "set_build", "{\"target\": \"e1\", \"cor_tn\": 13, \"mnd_tn\": 11}");
    json_t *build = json_object_get(rules_enc_hidden_of(&f.e, "e1"), "build");
    ck_assert_int_eq(json_integer_value(json_object_get(build, "cor_tn")), 13);
    /* a player may not name a target number */
    f.e.is_gm = 0;
    f.e.seat = "p1";
    ck_assert_int_eq(
        refused(&f, "e1", "craft", "{\"item\": \"Drone\", \"cor_tn\": 2}", "only the GM"),
        TB_FORBIDDEN);
    /* MND 9 + 2 = 11 meets 11; COR 9 + 3 = 12 misses 13: unstable */
    ACT_OK(&f, "e1", "craft", "{\"item\": \"Drone\"}", 9, 9);
    ck_assert_str_eq(item_q(&f), "unstable");
    const char *pub = fx_last_text(&f, "craft");
    ck_assert_str_eq(pub,
                     "Cyrus builds Drone: MND 11, understood; COR 12, badly assembled — unstable "
                     "(instability die d20)");
    ck_assert_ptr_null(json_object_get(fx_last_result(&f, "craft"), "cor_tn"));
    json_t *gm = json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(gm, "text")),
                                 "COR 12, badly "
                                 "assembled (against 13)"));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(gm, "result"), "cor_tn")),
                     13);
    /* the numbers were for that build: the next one waits for the GM's (issue 24 item 2) */
    ck_assert_ptr_null(json_object_get(rules_enc_hidden_of(&f.e, "e1"), "build"));
    ACT_NODICE(&f, "e1", "craft", "{\"item\": \"Drone\"}");
    ck_assert_ptr_nonnull(json_object_get(f.e.enc, "waiting"));
    fx_free(&f);
}
END_TEST

/* Issue 24 item 2: a player's build the GM has not given the numbers for is not refused; it
 * waits (no die) with the numbers it needs (002:53 the GM keeps them), and the GM's one answer,
 * filled with the usual number, rolls it as the player's. */
START_TEST(a_players_build_waits_for_the_gms_numbers_and_one_answer_rolls_it)
{
    fixture f;
    fx_init(&f);
    json_t *s = sheet(2, 35, 14, 16, 6, 8, 0, 3, 2);
    json_object_set_new(s, "items", json_pack("[{s:s, s:b}]", "name", "Gun", "broken", 1));
    json_object_set_new(s, "blueprints", json_pack("[s]", "Gun"));
    fx_add(&f, "e1", "Cyrus", "p1", 0, s);
    fx_add(&f, "e2", "Aune", "p2", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2));
    refused(&f, NULL, "answer", "{\"cor_tn\": 11}", "no build waits");
    /* the GM acting for the builder still names the numbers (it knows them) */
    refused(&f, "e1", "craft", "{\"item\": \"Drone\"}", "has not set the numbers");
    f.e.is_gm = 0;
    f.e.seat = "p1";
    ACT_NODICE(&f, "e1", "craft", "{\"item\": \"Drone\", \"supernatural\": 1}");
    json_t *w = json_object_get(f.e.enc, "waiting");
    ck_assert_str_eq(json_string_value(json_object_get(w, "builder")), "e1");
    ck_assert_str_eq(json_string_value(json_object_get(w, "item")), "Drone");
    json_t *hw = json_object_get(f.e.hidden, "waiting");
    ck_assert_int_eq(json_array_size(json_object_get(hw, "needs")), 3); /* new, supernatural */
    ck_assert_str_eq(fx_last_text(&f, "craft"),
                     "Cyrus sets to work on Drone: the GM names the numbers");
    json_t *gm = json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(gm, "text")),
                     "Cyrus's work on Drone waits for your target numbers: MND, COR and RSN");
    ck_assert_int_eq(json_array_size(json_object_get(fx_stats(&f, "e1"), "items")), 1);
    /* one build at a time: the builder's next, and another's that needs numbers, are refused */
    refused(&f, "e1", "repair", "{\"item\": \"Gun\"}", "already waits");
    f.e.seat = "p2";
    refused(&f, "e2", "craft", "{\"item\": \"Rope\"}", "Cyrus's build waits");
    /* the GM's answer: every number the build needs, checked before any die */
    f.e.is_gm = 1;
    f.e.seat = "gm";
    ck_assert_int_eq(refused(&f, NULL, "answer", "{\"cor_tn\": 10, \"mnd_tn\": 10}", "RSN"),
                     TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(json_object_get(f.e.enc, "waiting"));
    /* MND 10 + 2, COR 9 + 3 meet 12; RSN 5 + 0 misses 12: unstable, Cyrus's */
    ACT_OK(&f, NULL, "answer", "{\"cor_tn\": 12, \"mnd_tn\": 12, \"rsn_tn\": 12}", 10, 9, 5);
    ck_assert_str_eq(item_q(&f), "unstable");
    ck_assert_str_eq(fx_last_text(&f, "craft"),
                     "Cyrus builds Drone: MND 12, understood; COR 12, assembled; RSN 5, the "
                     "supernatural part goes wrong — unstable (instability die d20)");
    ck_assert_ptr_null(json_object_get(f.e.enc, "waiting"));
    ck_assert_ptr_null(json_object_get(f.e.hidden, "waiting"));
    /* the GM's answer is the GM's line: the table sees only the build */
    ck_assert_ptr_null(fx_last_text(&f, "answer"));
    ck_assert_str_eq(
        json_string_value(json_object_get(efx_last_entry(f.e.gm_log, "answer"), "text")),
        "The GM names the MND, COR and RSN numbers of Cyrus's work");
    ck_assert_ptr_null(json_object_get(rules_enc_hidden_of(&f.e, "e1"), "build"));
    ck_assert_int_eq(json_array_size(json_object_get(fx_stats(&f, "e1"), "items")), 2);
    /* a repair of a known kind needs only COR; the answer's other numbers are not asked */
    f.e.is_gm = 0;
    f.e.seat = "p1";
    ACT_NODICE(&f, "e1", "repair", "{\"item\": \"Gun\"}");
    gm = json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(gm, "text")), "numbers: COR"));
    f.e.is_gm = 1;
    f.e.seat = "gm";
    ACT_OK(&f, NULL, "answer", "{\"cor_tn\": 8}", 6); /* COR 6 + 3 meets 8 */
    ck_assert_ptr_null(
        json_object_get(json_array_get(json_object_get(fx_stats(&f, "e1"), "items"), 0), "broken"));
    /* the numbers the GM set before stand: the answer gives only the one missing (MND) */
    ACT_NODICE(&f, NULL, "set_build", "{\"target\": \"e2\", \"cor_tn\": 10}");
    f.e.is_gm = 0;
    f.e.seat = "p2";
    ACT_NODICE(&f, "e2", "craft", "{\"item\": \"Rope\"}");
    f.e.is_gm = 1;
    f.e.seat = "gm";
    ACT_OK(&f, NULL, "answer", "{\"mnd_tn\": 5}", 3,
           2); /* MND 3 + 2 meets 5, COR 2 + 3 misses 10 */
    ck_assert_str_eq(item_q(&f), "unstable");
    /* a build that can no longer be done when the GM answers (Aune is dying) is called off, no
     * die: the wait never stalls the table */
    f.e.is_gm = 0;
    f.e.seat = "p2";
    ACT_NODICE(&f, "e2", "craft", "{\"item\": \"Net\"}");
    json_object_set_new(json_object_get(fx_stats(&f, "e2"), "condition"), "current",
                        json_integer(-1));
    f.e.is_gm = 1;
    f.e.seat = "gm";
    ACT_NODICE(&f, NULL, "answer", "{\"mnd_tn\": 5, \"cor_tn\": 5}");
    ck_assert_str_eq(fx_last_text(&f, "answer"),
                     "Aune's work on Net is called off: it can no longer be done");
    ck_assert_ptr_null(json_object_get(f.e.enc, "waiting"));
    ck_assert_int_eq(json_array_size(json_object_get(fx_stats(&f, "e2"), "items")), 1);
    /* a builder who left the scene (enc.remove) leaves a void wait: the next build waits */
    f.e.is_gm = 0;
    f.e.seat = "p1";
    ACT_NODICE(&f, "e1", "craft", "{\"item\": \"Kite\"}");
    json_object_del(json_object_get(f.e.enc, "combatants"), "e1");
    json_object_set_new(json_object_get(fx_stats(&f, "e2"), "condition"), "current",
                        json_integer(10));
    f.e.seat = "p2";
    ACT_NODICE(&f, "e2", "craft", "{\"item\": \"Sled\"}");
    ck_assert_str_eq(
        json_string_value(json_object_get(json_object_get(f.e.enc, "waiting"), "builder")), "e2");
    fx_free(&f);
}
END_TEST

START_TEST(the_instability_die_decides_each_use)
{
    fixture f;
    fx_init(&f);
    json_t *s = sheet(2, 35, 14, 16, 6, 8, 0, 3, 2);
    json_object_set_new(s, "items",
                        json_pack("[{s:s, s:i}, {s:s, s:i}, {s:s, s:i, s:b}, {s:s}]", "name", "Gun",
                                  "unstable_die", 20, "name", "Saw", "unstable_die", 20, "name",
                                  "Bomb", "unstable_die", 10, "consumable", 1, "name", "Knife"));
    fx_add(&f, "e1", "Cyrus", "p1", 0, s);
    json_t *items = json_object_get(fx_stats(&f, "e1"), "items");
    ACT_OK(&f, "e1", "use", "{\"item\": \"Gun\"}", 3); /* 002:369 doesn't work */
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "use"), "does not work"));
    ACT_OK(&f, "e1", "use", "{\"item\": \"Gun\"}", 2); /* 002:370 breaks, repairable */
    ck_assert_int_eq(json_is_true(json_object_get(json_array_get(items, 0), "broken")), 1);
    refused(&f, "e1", "use", "{\"item\": \"Gun\"}", "broken");
    ACT_OK(&f, "e1", "use", "{\"item\": \"Saw\"}", 1); /* 002:371 breaks for good */
    ck_assert_int_eq(json_array_size(items), 3);
    ACT_OK(&f, "e1", "use", "{\"item\": \"Bomb\"}", 1); /* 002:377 harmful */
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "use"), "harmful"));
    ck_assert_int_eq(json_array_size(items), 2);
    ACT_NODICE(&f, "e1", "use", "{\"item\": \"Knife\"}"); /* well made: no die */
    refused(&f, "e1", "use", "{\"item\": \"Spoon\"}", "no Spoon");
    fx_free(&f);
}
END_TEST

static int has_status_str(fixture *f, const char *cid, const char *st)
{
    json_t *l = json_object_get(fx_stats(f, cid), "status");
    size_t i;
    json_t *v;
    json_array_foreach(l, i, v) if (strcmp(json_string_value(v), st) == 0) return 1;
    return 0;
}

/* Issue 25 item 9. 002:385 a repair follows the rules of building with the GM's (lower) numbers
 * and mends the broken object itself; 002:381 an unstable object stays unstable. */
START_TEST(a_repair_mends_the_broken_object_and_it_stays_unstable)
{
    fixture f;
    fx_init(&f);
    json_t *s = sheet(2, 35, 14, 16, 6, 8, 0, 3, 2);
    json_object_set_new(s, "items",
                        json_pack("[{s:s, s:i, s:b}, {s:s, s:b}]", "name", "Gun", "unstable_die",
                                  20, "broken", 1, "name", "Saw", "broken", 1));
    json_object_set_new(s, "blueprints", json_pack("[s]", "Gun"));
    fx_add(&f, "e1", "Cyrus", "p1", 0, s);
    json_t *items = json_object_get(fx_stats(&f, "e1"), "items");
    refused(&f, "e1", "repair", "{\"item\": \"Knife\"}", "has no Knife");
    refused(&f, "e1", "repair", "{\"item\": \"Gun\"}", "has not set the numbers");
    ACT_NODICE(&f, NULL, "set_build", "{\"target\": \"e1\", \"cor_tn\": 8}");
    /* a gun is known: COR 6 + 3 = 9 meets 8: mended, still unstable (d20) and still one gun */
    ACT_OK(&f, "e1", "repair", "{\"item\": \"Gun\"}", 6);
    ck_assert_int_eq(json_array_size(items), 2);
    json_t *gun = json_array_get(items, 0);
    ck_assert_ptr_null(json_object_get(gun, "broken"));
    ck_assert_int_eq(json_integer_value(json_object_get(gun, "unstable_die")), 20);
    ck_assert_str_eq(fx_last_text(&f, "repair"),
                     "Cyrus repairs Gun: knows how; COR 9, assembled — it works again, unstable "
                     "(instability die d20)");
    refused(&f, "e1", "repair", "{\"item\": \"Gun\"}", "Gun is not broken");
    ACT_OK(&f, "e1", "use", "{\"item\": \"Gun\"}", 15); /* it works again */
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "use"), "it works"));
    /* a saw was never built: MND and COR; both fail: still broken, nothing added */
    ACT_OK(&f, "e1", "repair", "{\"item\": \"Saw\", \"mnd_tn\": 15, \"cor_tn\": 15}", 2, 2);
    ck_assert_int_eq(json_is_true(json_object_get(json_array_get(items, 1), "broken")), 1);
    ck_assert_int_eq(json_array_size(items), 2);
    /* MND 12 + 2 passes, COR 2 + 3 fails: it works, but unstable now (d20) */
    ACT_OK(&f, "e1", "repair", "{\"item\": \"Saw\", \"mnd_tn\": 12, \"cor_tn\": 12}", 12, 2);
    ck_assert_ptr_null(json_object_get(json_array_get(items, 1), "broken"));
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(items, 1), "unstable_die")),
                     20);
    fx_free(&f);
}
END_TEST

/* Issue 25 item 14. 002:340 "Creating an object of a supernatural nature or using magic to create
 * an object requires a RSN roll": one more roll against the GM's number (reading 12: every roll
 * passed, well made; every one failed, nothing; else unstable). */
START_TEST(a_supernatural_object_needs_a_rsn_roll)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2)); /* RSN 0 */
    refused(&f, "e1", "craft",
            "{\"item\": \"Hex lamp\", \"supernatural\": 1, \"mnd_tn\": 10, \"cor_tn\": 10}",
            "RSN roll");
    /* MND 10 + 2, COR 9 + 3 pass; RSN 5 + 0 misses 12: unstable */
    ACT_OK(&f, "e1", "craft",
           "{\"item\": \"Hex lamp\", \"supernatural\": 1, \"mnd_tn\": 10, \"cor_tn\": 10, "
           "\"rsn_tn\": 12}",
           10, 9, 5);
    ck_assert_str_eq(item_q(&f), "unstable");
    ck_assert_str_eq(fx_last_text(&f, "craft"),
                     "Cyrus builds Hex lamp: MND 12, understood; COR 12, assembled; RSN 5, the "
                     "supernatural part goes wrong — unstable (instability die d20)");
    json_t *lamp = json_array_get(json_object_get(fx_stats(&f, "e1"), "items"), 0);
    ck_assert_int_eq(json_is_true(json_object_get(lamp, "supernatural")), 1);
    /* the RSN number is the GM's, like every number (002:53) */
    ck_assert_ptr_null(strstr(fx_last_text(&f, "craft"), "against"));
    /* set with the build's numbers; all three pass: well made */
    ACT_NODICE(&f, NULL, "set_build", "{\"target\": \"e1\", \"cor_tn\": 10, \"rsn_tn\": 4}");
    ACT_OK(&f, "e1", "craft", "{\"item\": \"Ward\", \"kind\": \"Hex lamp\", \"supernatural\": 1}",
           9, 5);
    ck_assert_str_eq(item_q(&f), "well made");
    fx_free(&f);
}
END_TEST

/* Issue 25 item 11. 002:256 out of conflict a dying character's Condition "drops by 1 ... every
 * 6 seconds", and below -10 they are dead; 002:258-260 stabilizing: the GM's number, an INT (RSN)
 * roll unless a medkit, and a COR roll; 1 Condition, 0 Focus, out cold, a level of burnout. */
START_TEST(dying_between_the_scenes_counts_down_until_stabilized)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, -3, 16, 6, 8, 0, 3, 2));
    fx_add(&f, "e2", "Aune", "p2", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2)); /* COR 3, RSN 0 */
    fx_add(&f, "e3", "Vex", "p3", 0, sheet(2, 35, -8, 16, 6, 8, 0, 3, 2));
    refused(&f, "e1", "learn", "{\"technique\": \"Throw\", \"attribute\": \"cor\", \"effort\": 5}",
            "dying");
    /* 30 seconds: 5 marks of 6; Vex falls below -10 */
    ACT_NODICE(&f, NULL, "wait", "{\"seconds\": 30}");
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), -8);
    ck_assert_str_eq(fx_last_text(&f, "dying"), "Vex is dying: Condition -8 → -13: dead");
    ck_assert_int_eq(rules_enc_is_out(&f.e, "e3"), 1);
    refused(&f, "e2", "stabilize", "{\"target\": \"e3\"}", "not dying");
    refused(&f, "e2", "stabilize", "{\"target\": \"e1\"}", "ask the GM");
    ACT_NODICE(&f, NULL, "set_stabilize", "{\"target\": \"e1\", \"tn\": 10}");
    /* INT 5 + 0 fails, COR 15 + 3: not yet; the attempt's 6 seconds cost a point */
    ACT_OK(&f, "e2", "stabilize", "{\"target\": \"e1\"}", 5, 15);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), -9);
    ck_assert_ptr_null(strstr(fx_last_text(&f, "stabilize"), "10")); /* the number is the GM's */
    /* with a medkit: COR 12 + 3 = 15 meets 10 */
    ACT_OK(&f, "e2", "stabilize", "{\"target\": \"e1\", \"medkit\": 1}", 12);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 1);
    ck_assert_int_eq(fx_stat(&f, "e1", "focus", "current"), 0);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 1);
    ck_assert_int_eq(has_status_str(&f, "e1", "out_cold"), 1);
    ACT_NODICE(&f, NULL, "wait", "{\"seconds\": 60}"); /* stabilized: no more countdown */
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 1);
    fx_free(&f);
}
END_TEST

/* ---- falling (002:483-505) ---- */

START_TEST(a_fall_deals_the_table_damage_and_a_broken_fall_half)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2)); /* AGL 1 */
    /* 002:498 two stories: 2d8, TN 13; AGL 5 + 1 fails: full damage, knocked down (002:485) */
    ACT_OK(&f, "e1", "fall", "{\"stories\": 2}", 5, 3, 4);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 7);
    ck_assert_int_eq(has_status_str(&f, "e1", "knocked_down"), 1);
    fx_free(&f);
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2));
    /* 15 + 1 = 16 breaks it: half of 6 + 5, rounded down; not knocked down */
    ACT_OK(&f, "e1", "fall", "{\"stories\": 3}", 15, 6, 5);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 9);
    ck_assert_int_eq(has_status_str(&f, "e1", "knocked_down"), 0);
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "fall"), "AGL 16 against 13"));
    /* 002:487 a jump on purpose from one story, broken (12 + 1 = 13 >= 10): no damage */
    ACT_OK(&f, "e1", "fall", "{\"stories\": 1, \"jump\": 1}", 12);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 9);
    /* 002:489 something soft breaks a fall below 10 stories by itself: half of 2d12 */
    ACT_OK(&f, "e1", "fall", "{\"stories\": 4, \"soft\": 1}", 3, 4);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 6);
    fx_free(&f);
}
END_TEST

START_TEST(a_high_fall_needs_something_soft_and_can_leave_a_character_dying)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2));
    /* 002:501-502 ten stories: 3d20, and water is not soft: no roll, full damage */
    ACT_OK(&f, "e1", "fall", "{\"stories\": 12, \"water\": 1}", 2, 3, 4);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 5);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 0);
    /* four stories, AGL 2 + 1 fails: 2d12 11 + 9 = 20 -> -15: dying, a level of burnout (002:226)
     */
    ACT_OK(&f, "e1", "fall", "{\"stories\": 4}", 2, 11, 9);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), -15);
    ck_assert_int_eq(fx_stat(&f, "e1", NULL, "burnout"), 1);
    /* below -10: dead, not dying (002:256; issue 25 item 11) */
    ck_assert_ptr_nonnull(strstr(fx_last_text(&f, "fall"), "dead"));
    ck_assert_ptr_null(strstr(fx_last_text(&f, "fall"), "dying"));
    ck_assert_int_eq(rules_enc_is_out(&f.e, "e1"), 1);
    fx_free(&f);
    fx_init(&f);
    fx_add(&f, "e1", "Cyrus", "p1", 0, sheet(2, 35, 14, 16, 6, 8, 0, 3, 2));
    /* forty stories or more: 6d20 against 28, a soft surface lets the roll be tried (002:491) */
    ACT_OK(&f, "e1", "fall", "{\"stories\": 60, \"soft\": 1}", 20, 1, 1, 1, 1, 1, 1);
    /* the roll is made (its d20 and the 6d20), but 20 + 1 is short of 28: full damage */
    ck_assert_int_eq(json_array_size(json_object_get(json_array_get(f.e.log, 0), "dice")), 7);
    ck_assert_int_eq(fx_stat(&f, "e1", "condition", "current"), 8);
    fx_free(&f);
}
END_TEST

START_TEST(the_action_table_says_who_may_act)
{
    const rules_module *m = rules_module_find("grimwire.between");
    ck_assert_ptr_nonnull(m);
    const char *gm[] = {"rest_all", "next_day", "cause", "award", "set_build"};
    for (size_t i = 0; i < 5; i++)
        ck_assert_int_eq(rules_module_action(m, gm[i])->who, RULES_ENC_GM);
    const char *own[] = {"short_rest", "long_rest", "level_up", "learn",
                         "exchange",   "craft",     "use",      "fall"};
    for (size_t i = 0; i < 8; i++)
        ck_assert_int_eq(rules_module_action(m, own[i])->who, RULES_ENC_OWNER);
    for (const rules_enc_action *a = m->actions; a->name; a++)
        ck_assert_msg(a->cite && strncmp(a->cite, "002:", 4) == 0, "%s has no citation", a->name);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("between_grimwire");
    TCase *tc = tcase_create("between");
    tcase_add_test(tc, a_short_rest_gives_a_fifth_of_condition_and_half_of_focus);
    tcase_add_test(tc, example_a_long_rest_gives_focus_equal_to_the_max_from_below_zero);
    tcase_add_test(tc, a_long_rest_eases_one_level_of_burnout_unless_busy);
    tcase_add_test(tc, resting_needs_shelter_supplies_and_a_living_character);
    tcase_add_test(tc, three_days_without_a_long_rest_bring_burnout);
    tcase_add_test(tc, a_cause_not_dealt_with_adds_a_level_a_day_and_level_four_is_dying);
    tcase_add_test(tc, levelling_up_applies_the_rewards_of_the_table);
    tcase_add_test(tc, level_four_raises_two_attributes_never_past_ten);
    tcase_add_test(tc, level_rewards_and_rest_condition_helpers);
    tcase_add_test(tc, example_throwing_expert_takes_five_of_eight_hours);
    tcase_add_test(tc, learning_goes_in_sessions_and_stops_at_the_hours_left);
    tcase_add_test(tc, techniques_are_exchanged_on_a_long_rest_within_the_slots);
    tcase_add_test(tc, crafting_both_rolls_well_made_one_unstable_none_failed);
    tcase_add_test(tc, extended_crafting_needs_two_of_three_and_consumables_use_a_d10);
    tcase_add_test(tc, a_players_build_waits_for_the_gms_numbers_and_one_answer_rolls_it);
    tcase_add_test(tc, build_numbers_are_the_gms_and_stay_out_of_the_public_log);
    tcase_add_test(tc, the_instability_die_decides_each_use);
    tcase_add_test(tc, a_repair_mends_the_broken_object_and_it_stays_unstable);
    tcase_add_test(tc, a_supernatural_object_needs_a_rsn_roll);
    tcase_add_test(tc, dying_between_the_scenes_counts_down_until_stabilized);
    tcase_add_test(tc, a_fall_deals_the_table_damage_and_a_broken_fall_half);
    tcase_add_test(tc, a_high_fall_needs_something_soft_and_can_leave_a_character_dying);
    tcase_add_test(tc, the_action_table_says_who_may_act);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
