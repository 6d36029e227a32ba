/* The FIVEY module fivey.between (rules/fivey/between.c) with scripted dice: hex travel and its
 * x-in-20 encounter check (004:519-533), the site clock (004:543-547), the night's rest actions
 * (004:549-560), downtime with lifestyles, random events and activities (004:562-639), leftover
 * inspiration as experience (004:402) and the level-up (004:385-400), and every refusal, each
 * drawing no die and changing nothing. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"
#include "rules_util.h"

/* Brunhild (e1, p1: level 1, STR 3, 20 crowns), Sylla (e2, p2: level 0, 60 crowns) and Vesper
 * (e3, p3: level 2, CHA 4, 3 damage, 45 crowns) from the sample sheets. */
static void party(efx *f)
{
    efx_init(f, "fivey.between");
    const char *files[] = {"brunhild.json", "sylla.json", "vesper.json"};
    const char *names[] = {"Brunhild", "Sylla", "Vesper"};
    char cid[8], seat[8];
    for (int i = 0; i < 3; i++) {
        json_t *s = ru_load_sample("fivey", files[i]);
        snprintf(cid, sizeof cid, "e%d", i + 1);
        snprintf(seat, sizeof seat, "p%d", i + 1);
        efx_add_sheet(f, cid, names[i], seat, 0, s);
        json_decref(s);
    }
}

static json_t *last_result(efx *f)
{
    return json_object_get(json_array_get(f->e.log, json_array_size(f->e.log) - 1), "result");
}

static void dice1(efx *f, int face)
{
    efx_dice(f, &face, 1);
}

/* 004:519-527 and 004:533: 4 hours a hex (+1 terrain, +1 weather, -1 road), 12 hours a day, a
 * march buys 4 more; the x-in-20 check with x the hours: a 4-hour hex meets someone on 1-4 and
 * not on "5 or more". */
START_TEST(hex_travel_hours_and_the_encounter_chance)
{
    efx f;
    party(&f);
    efx_refused(&f, "p1", "e1", "travel", NULL, TB_FORBIDDEN, "GM");
    dice1(&f, 4);
    EFX_OK(&f, "gm", NULL, "travel", NULL);
    ck_assert(ru_bval(last_result(&f), "encounter"));
    dice1(&f, 5);
    EFX_OK(&f, "gm", NULL, "travel", NULL);
    ck_assert(!ru_bval(last_result(&f), "encounter"));
    ck_assert_int_eq(ru_ival(f.enc, "hours"), 8);
    /* a stormy mountain: 6 hours, too many for the 4 left */
    efx_refused(&f, "gm", NULL, "travel", "{\"terrain\":1,\"weather\":1}", TB_RULE,
                "takes 6 hours and only 4");
    /* a paved road: 3 hours; 4 on the d20 misses a 3-in-20 chance */
    dice1(&f, 4);
    EFX_OK(&f, "gm", NULL, "travel", "{\"road\":1}");
    ck_assert_int_eq(ru_ival(last_result(&f), "hours"), 3);
    ck_assert(!ru_bval(last_result(&f), "encounter"));
    efx_refused(&f, "gm", NULL, "travel", "{\"check\":0}", TB_RULE, "only 1 of today's");
    /* Brunhild marches instead of resting: 4 more hours today */
    EFX_OK(&f, "p1", "e1", "rest", "{\"action\":\"march\"}");
    ck_assert_int_eq(ru_ival(f.enc, "limit"), 16);
    efx_dice(&f, NULL, 0);
    EFX_OK(&f, "gm", NULL, "travel", "{\"check\":0}");
    ck_assert(!efx_dice_bad(&f));
    ck_assert_int_eq(ru_ival(f.enc, "hours"), 15);
    efx_refused(&f, "p1", "e1", "rest", "{\"action\":\"cook\"}", TB_RULE, "already taken");
    EFX_OK(&f, "gm", NULL, "new_day", NULL);
    ck_assert_int_eq(ru_ival(f.enc, "day"), 2);
    ck_assert_int_eq(ru_ival(f.enc, "hours"), 0);
    ck_assert_int_eq(ru_ival(f.enc, "limit"), 12);
    EFX_OK(&f, "p1", "e1", "rest", "{\"action\":\"cook\"}");
    efx_free(&f);
}
END_TEST

/* 004:547: the clock starts at 1 and rises each turn; x-in-20 with x the clock; an encounter
 * sets it back to 1. */
START_TEST(the_site_clock_rises_and_an_encounter_resets_it)
{
    efx f;
    party(&f);
    efx_refused(&f, "gm", NULL, "site_turn", NULL, TB_RULE, "not in a site");
    EFX_OK(&f, "gm", NULL, "enter", NULL);
    ck_assert_int_eq(ru_ival(f.enc, "site"), 1);
    const int d[] = {2, 2, 20};
    efx_dice(&f, d, N_ELEMS(d));
    EFX_OK(&f, "gm", NULL, "site_turn", NULL); /* 2 on 1-in-20: nobody; clock 2 */
    ck_assert(!ru_bval(last_result(&f), "encounter"));
    ck_assert_int_eq(ru_ival(f.enc, "site"), 2);
    EFX_OK(&f, "gm", NULL, "site_turn", NULL); /* 2 on 2-in-20: an encounter; clock 1 */
    ck_assert(ru_bval(last_result(&f), "encounter"));
    ck_assert_int_eq(ru_ival(f.enc, "site"), 1);
    EFX_OK(&f, "gm", NULL, "site_turn", NULL);
    ck_assert_int_eq(ru_ival(f.enc, "site"), 2);
    ck_assert_int_eq(ru_ival(f.enc, "turns"), 3);
    EFX_OK(&f, "gm", NULL, "leave", NULL);
    ck_assert_int_eq(ru_ival(f.enc, "site"), 0);
    efx_free(&f);
}
END_TEST

/* 004:553-555: recover 1d6 + level hit points; practice restores an inspiration die (up to the
 * level); attune names the item; one rest action a night. */
START_TEST(rest_actions_recover_practice_attune_once_a_night)
{
    efx f;
    party(&f);
    efx_refused(&f, "p2", "e2", "rest", "{\"action\":\"recover\"}", TB_RULE, "no damage");
    efx_refused(&f, "p1", "e1", "rest", "{\"action\":\"practice\"}", TB_RULE,
                "as many as the level");
    efx_refused(&f, "p1", "e1", "rest", "{\"action\":\"attune\"}", TB_BAD_REQUEST, "item");
    efx_refused(&f, "p1", "e1", "rest", "{\"action\":\"dance\"}", TB_BAD_REQUEST, "recover");
    efx_refused(&f, "p1", "e3", "rest", "{\"action\":\"recover\"}", TB_FORBIDDEN, "not your");
    dice1(&f, 4); /* Vesper: 4 + level 2 = 6 against 3 damage */
    EFX_OK(&f, "p3", "e3", "rest", "{\"action\":\"recover\"}");
    ck_assert_int_eq(efx_stat(&f, "e3", "hp/damage"), 0);
    ck_assert_int_eq(ru_ival(last_result(&f), "restored"), 3);
    EFX_OK(&f, "p1", "e1", "rest", "{\"action\":\"attune\",\"item\":\"Military longsword\"}");
    ck_assert_str_eq(json_string_value(json_object_get(rules_enc_stats(&f.e, "e1"), "attuned")),
                     "Military longsword");
    rules_enc_stat_set(&f.e, "e2", "level", 1);
    EFX_OK(&f, "p2", "e2", "rest", "{\"action\":\"practice\"}");
    ck_assert_int_eq(efx_stat(&f, "e2", "inspiration"), 1);
    efx_free(&f);
}
END_TEST

/* The night's rest, whatever its action, gives a caster's spell casts back (reading 12); a
 * non-caster's rest writes nothing about spells. */
START_TEST(a_rest_restores_spell_casts)
{
    efx f;
    party(&f);
    rules_enc_stat_put(&f.e, "e3", "spell_slots/used", json_integer(2));
    EFX_OK(&f, "p3", "e3", "rest", "{\"action\":\"cook\"}");
    ck_assert_int_eq(efx_stat(&f, "e3", "spell_slots/used"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(f.e.log, json_array_size(f.e.log) - 2), "text")),
                     "Vesper's spells are ready again (2 casts)");
    EFX_OK(&f, "p1", "e1", "rest", "{\"action\":\"cook\"}");
    ck_assert_ptr_null(json_object_get(rules_enc_stats(&f.e, "e1"), "spell_slots"));
    efx_free(&f);
}
END_TEST

/* 004:562-639: the lifestyle is paid, the activity is the lifestyle's or a lesser one's, the
 * random event (1-5 bad, 16-20 good) gives disadvantage or advantage, then the activity. */
START_TEST(downtime_pays_the_lifestyle_and_rolls_the_activity)
{
    efx f;
    party(&f);
    efx_refused(&f, "p1", "e1", "downtime",
                "{\"lifestyle\":\"modest\",\"activity\":\"study\",\"stat\":\"int\"}", TB_RULE,
                "at least a comfortable lifestyle");
    efx_refused(&f, "p1", "e1", "downtime",
                "{\"lifestyle\":\"comfortable\",\"activity\":\"study\",\"stat\":\"int\"}", TB_RULE,
                "has 20 crowns");
    efx_refused(&f, "p1", "e1", "downtime", "{\"lifestyle\":\"modest\",\"activity\":\"carouse\"}",
                TB_BAD_REQUEST, "stat");
    efx_refused(&f, "p1", "e1", "downtime", "{\"lifestyle\":\"lavish\",\"activity\":\"beg\"}",
                TB_BAD_REQUEST, "lifestyle is");
    /* Brunhild carouses: no event (10), 12 + STR 3 = 15 experience; 20 - 20 crowns */
    const int c[] = {10, 12};
    efx_dice(&f, c, 2);
    EFX_OK(&f, "p1", "e1", "downtime",
           "{\"lifestyle\":\"modest\",\"activity\":\"carouse\",\"stat\":\"str\"}");
    ck_assert_int_eq(efx_stat(&f, "e1", "xp"), 115);
    ck_assert_int_eq(efx_stat(&f, "e1", "crowns"), 0);
    efx_refused(&f, "p1", "e1", "downtime", "{\"lifestyle\":\"squalid\",\"activity\":\"beg\"}",
                TB_RULE, "already taken");
    /* Sylla studies: a good event (16): best of [3, 15] + INT 1 = 16 against DC 16 */
    const int s[] = {16, 3, 15};
    efx_dice(&f, s, 3);
    EFX_OK(&f, "p2", "e2", "downtime",
           "{\"lifestyle\":\"comfortable\",\"activity\":\"study\",\"stat\":\"int\"}");
    ck_assert(ru_bval(last_result(&f), "success"));
    ck_assert_str_eq(json_string_value(json_object_get(last_result(&f), "event")), "good");
    ck_assert_int_eq(efx_stat(&f, "e2", "crowns"), 10);
    /* Vesper works, skilled: a bad event (3): worst of [18, 7] + 2 x CHA 4 = 15 crowns */
    const int w[] = {3, 18, 7};
    efx_dice(&f, w, 3);
    EFX_OK(&f, "p3", "e3", "downtime",
           "{\"lifestyle\":\"poor\",\"activity\":\"work\",\"stat\":\"cha\",\"skilled\":1}");
    ck_assert_int_eq(ru_ival(last_result(&f), "roll"), 15);
    ck_assert_int_eq(efx_stat(&f, "e3", "crowns"), 45 - 10 + 15);
    /* a new tennite: Brunhild begs in a village, no event roll: 1d6 5 + STR 3 */
    EFX_OK(&f, "gm", NULL, "tennite", NULL);
    const int b[] = {5};
    efx_dice(&f, b, 1);
    EFX_OK(&f, "p1", "e1", "downtime",
           "{\"lifestyle\":\"squalid\",\"activity\":\"beg\",\"stat\":\"str\",\"settlement\":"
           "\"village\",\"event\":0}");
    ck_assert(!efx_dice_bad(&f));
    ck_assert_int_eq(efx_stat(&f, "e1", "crowns"), 8);
    efx_free(&f);
}
END_TEST

/* 004:402: "a level 1 character who ends a session with 2 inspiration dice may roll both but can
 * only count the higher of the two towards their experience"; 004:144 a tennite restores them. */
START_TEST(leftover_inspiration_becomes_experience)
{
    efx f;
    party(&f);
    efx_refused(&f, "p2", "e2", "cash_in", NULL, TB_RULE, "no inspiration");
    rules_enc_stat_set(&f.e, "e2", "inspiration", 1);
    efx_refused(&f, "p2", "e2", "cash_in", NULL, TB_RULE, "level 0");
    rules_enc_stat_set(&f.e, "e1", "inspiration", 2);
    const int d[] = {2, 5};
    efx_dice(&f, d, 2);
    EFX_OK(&f, "p1", "e1", "cash_in", NULL);
    ck_assert_int_eq(efx_stat(&f, "e1", "xp"), 105);
    ck_assert_int_eq(efx_stat(&f, "e1", "inspiration"), 0);
    EFX_OK(&f, "gm", NULL, "tennite", NULL);
    ck_assert_int_eq(efx_stat(&f, "e1", "inspiration"), 1);
    efx_free(&f);
}
END_TEST

/* 004:385-399: the next level's experience, +4 hit points (or 1d6), +1 to one stat up to +5. */
START_TEST(level_up_needs_the_experience_and_raises_hp_and_a_stat)
{
    efx f;
    party(&f);
    efx_refused(&f, "p1", "e1", "level_up", "{\"stat\":\"str\"}", TB_RULE, "level 2 needs 300");
    efx_refused(&f, "p1", "e1", "level_up", "{\"stat\":\"wis\"}", TB_BAD_REQUEST, "str, dex");
    efx_refused(&f, "p1", NULL, "award", "{\"target\":\"e1\",\"xp\":200}", TB_FORBIDDEN, "GM");
    EFX_OK(&f, "gm", NULL, "award", "{\"target\":\"e1\",\"xp\":200}");
    ck_assert_int_eq(efx_stat(&f, "e1", "xp"), 300);
    EFX_OK(&f, "p1", "e1", "level_up", "{\"stat\":\"str\"}");
    ck_assert_int_eq(efx_stat(&f, "e1", "level"), 2);
    ck_assert_int_eq(efx_stat(&f, "e1", "hp/max"), 13);
    ck_assert_int_eq(efx_stat(&f, "e1", "stats/str"), 4);
    rules_enc_stat_set(&f.e, "e1", "xp", 600);
    rules_enc_stat_put(&f.e, "e1", "stats/str", json_integer(5));
    efx_refused(&f, "p1", "e1", "level_up", "{\"stat\":\"str\"}", TB_RULE, "already +5");
    rules_enc_stat_set(&f.e, "e2", "xp", 100);
    dice1(&f, 3);
    EFX_OK(&f, "p2", "e2", "level_up", "{\"stat\":\"dex\",\"roll\":1}");
    ck_assert_int_eq(efx_stat(&f, "e2", "hp/max"), 7);
    ck_assert_int_eq(efx_stat(&f, "e2", "stats/dex"), 3);
    rules_enc_stat_set(&f.e, "e3", "level", 5);
    efx_refused(&f, "p3", "e3", "level_up", "{\"stat\":\"cha\"}", TB_RULE, "the highest");
    efx_free(&f);
}
END_TEST

/* 004:402 the GM awards experience; an NPC's experience is the GM's (its stats are under
 * /gm/enc): the table hears the award, the GM alone reads its total (issue 27, item 12). A PC's
 * total stays on the public line. */
START_TEST(an_npcs_experience_total_is_the_gms)
{
    efx f;
    party(&f);
    json_t *s = ru_load_sample("fivey", "sylla.json");
    efx_add_sheet(&f, "e4", "Mira", "gm", 1, s);
    json_decref(s);
    EFX_OK(&f, "gm", NULL, "award", "{\"target\":\"e4\",\"xp\":20}");
    ck_assert_int_eq(efx_stat(&f, "e4", "xp"), 60);
    ck_assert_str_eq(efx_last_text(&f), "Mira gains 20 experience");
    json_t *pub = json_object_get(json_array_get(f.e.log, json_array_size(f.e.log) - 1), "result");
    ck_assert_ptr_null(json_object_get(pub, "total"));
    json_t *gm = json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(gm, "text")),
                     "Mira gains 20 experience (60)");
    ck_assert_int_eq(ru_ival(json_object_get(gm, "result"), "total"), 60);
    size_t gm_entries = json_array_size(f.e.gm_log);
    EFX_OK(&f, "gm", NULL, "award", "{\"target\":\"e1\",\"xp\":20}");
    ck_assert_str_eq(efx_last_text(&f), "Brunhild gains 20 experience (120)");
    ck_assert_uint_eq(json_array_size(f.e.gm_log), gm_entries);
    efx_free(&f);
}
END_TEST

/* 004:122 (the sheet's rule) and 004:554: a character attunes to an item it carries, a weapon or
 * a line of the inventory; anything else is refused before the night's rest is spent (it would
 * leave a sheet that no longer validates). */
START_TEST(attuning_needs_an_item_the_character_carries)
{
    efx f;
    party(&f);
    efx_refused(&f, "p1", "e1", "rest", "{\"action\":\"attune\",\"item\":\"Crown jewels\"}",
                TB_RULE, "carries no Crown jewels");
    EFX_OK(&f, "p1", "e1", "rest", "{\"action\":\"attune\",\"item\":\"Rope\"}");
    ck_assert_str_eq(efx_last_text(&f), "Brunhild attunes to Rope");
    efx_free(&f);
}
END_TEST

/* Issue 24: the lifestyle was free text matched exactly ("Squalid" refused though the labels
 * show capitals). The lifestyles and activities offered are the book's words (004:566-572), and
 * each lifestyle with its own activity (and a stat where it rolls one) passes the check for a
 * character who can pay; the rest actions offered first are the ones that pass: recovering when
 * hurt, a die back when one is missing. */
START_TEST(lifestyles_and_rest_actions_are_picks_that_pass)
{
    efx f;
    party(&f);
    rules_enc_stat_set(&f.e, "e2", "crowns", 500);
    const rules_enc_action *dt = rules_module_action(f.m, "downtime");
    json_t *life = json_array(), *acts = json_array();
    ck_assert_int_eq(f.m->choices(&f.e, "e2", dt, &dt->params[0], life), RULES_CHOICES_PICK);
    ck_assert_int_eq(f.m->choices(&f.e, "e2", dt, &dt->params[1], acts), RULES_CHOICES_PICK);
    const char *want[] = {"squalid", "poor", "modest", "comfortable", "wealthy", "decadent"};
    ck_assert_uint_eq(json_array_size(life), 6);
    f.e.seat = "p2";
    f.e.is_gm = 0;
    for (size_t i = 0; i < 6; i++) {
        json_t *l = json_object_get(json_array_get(life, i), "value");
        ck_assert_str_eq(json_string_value(l), want[i]);
        json_t *params =
            json_pack("{s:O, s:O, s:s}", "lifestyle", l, "activity",
                      json_object_get(json_array_get(acts, i), "value"), "stat", "dex");
        if (i == 0 || i == 5)
            json_object_del(params, "stat");
        rules_args a;
        ck_assert_msg(rules_enc_act_check(&f.e, dt, "e2", params, &a, &f.err) == 0, "%s: %s",
                      want[i], f.err.msg);
        json_decref(params);
    }
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(life, 0), "label")),
                     "Squalid (free)");
    json_decref(life);
    json_decref(acts);

    const rules_enc_action *rest = rules_module_action(f.m, "rest");
    const char *first[] = {"cook", "cook", "recover"}; /* Vesper (e3) has 3 damage */
    for (int i = 0; i < 3; i++) {
        char cid[4];
        snprintf(cid, sizeof cid, "e%d", i + 1);
        json_t *out = json_array();
        ck_assert_int_eq(f.m->choices(&f.e, cid, rest, &rest->params[0], out), RULES_CHOICES_PICK);
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(out, 0), "value")),
                         first[i]);
        json_decref(out);
    }
    rules_enc_stat_set(&f.e, "e2", "level", 1);
    json_t *out = json_array(), *items = json_array();
    f.m->choices(&f.e, "e2", rest, &rest->params[0], out);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(out, 0), "value")),
                     "practice");
    /* what Sylla may attune to: what she carries, not the bow she is attuned to */
    f.m->choices(&f.e, "e2", rest, &rest->params[1], items);
    ck_assert(json_is_null(json_object_get(json_array_get(items, 0), "value")));
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(items, 1), "value")),
                     "Quiver of arrows");
    ck_assert_uint_eq(json_array_size(items), 5);
    json_decref(out);
    json_decref(items);
    efx_free(&f);
}
END_TEST

START_TEST(a_damaged_clock_is_refused)
{
    efx f;
    party(&f);
    ck_assert_int_eq(rules_enc_check(&f.e, &f.err), 0);
    json_object_set_new(f.enc, "site", json_string("x"));
    ck_assert_int_eq(rules_enc_check(&f.e, &f.err), TB_RULE);
    efx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("between_fivey");
    TCase *tc = tcase_create("between");
    tcase_add_test(tc, hex_travel_hours_and_the_encounter_chance);
    tcase_add_test(tc, the_site_clock_rises_and_an_encounter_resets_it);
    tcase_add_test(tc, rest_actions_recover_practice_attune_once_a_night);
    tcase_add_test(tc, a_rest_restores_spell_casts);
    tcase_add_test(tc, downtime_pays_the_lifestyle_and_rolls_the_activity);
    tcase_add_test(tc, leftover_inspiration_becomes_experience);
    tcase_add_test(tc, level_up_needs_the_experience_and_raises_hp_and_a_stat);
    tcase_add_test(tc, a_damaged_clock_is_refused);
    tcase_add_test(tc, an_npcs_experience_total_is_the_gms);
    tcase_add_test(tc, attuning_needs_an_item_the_character_carries);
    tcase_add_test(tc, lifestyles_and_rest_actions_are_picks_that_pass);
    suite_add_tcase(s, tc);
    return ru_run_suite(s);
}
