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
    /* 9 + 4, +1 for Brunhild's Battle-Hardened (004:337; issue 25 item 20: 13 before) */
    ck_assert_int_eq(efx_stat(&f, "e1", "hp/max"), 14);
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

/* Issue 25 item 20. 004:206 Sleepwalker: "1 extra rest action per nighttime phase (2 rest
 * actions total)": Sylla (an elf) cooks and scavenges, a third is refused; Brunhild, without the
 * feat, has one. A new day gives both back. */
START_TEST(a_sleepwalker_takes_two_rest_actions_a_night)
{
    efx f;
    party(&f);
    EFX_OK(&f, "p2", "e2", "rest", "{\"action\":\"cook\"}");
    EFX_OK(&f, "p2", "e2", "rest", "{\"action\":\"scavenge\"}");
    ck_assert_str_eq(efx_last_text(&f), "Sylla spends the rest action to scavenge");
    efx_refused(&f, "p2", "e2", "rest", "{\"action\":\"march\"}", TB_RULE,
                "both of tonight's rest actions");
    EFX_OK(&f, "p1", "e1", "rest", "{\"action\":\"cook\"}");
    efx_refused(&f, "p1", "e1", "rest", "{\"action\":\"scavenge\"}", TB_RULE,
                "already taken tonight's rest action");
    EFX_OK(&f, "gm", NULL, "new_day", NULL);
    EFX_OK(&f, "p2", "e2", "rest", "{\"action\":\"cook\"}");
    EFX_OK(&f, "p2", "e2", "rest", "{\"action\":\"cook\"}");
    efx_free(&f);
}
END_TEST

/* Issue 25 item 20. 004:337 Battle-Hardened: "a base healing rate of 1d8 instead of 1d6" and
 * "1 additional hit point each time they advance". Brunhild, 9 damage, rolls an 8: 8 + level 1
 * heals all 9 (a d6 could not show the 8); her level-up by 1d6 (a 3) gives 3 + 1. Vesper heals
 * with a d6 as before. */
START_TEST(battle_hardened_heals_with_a_d8_and_gains_a_hit_point_a_level)
{
    efx f;
    party(&f);
    rules_enc_stat_put(&f.e, "e1", "hp/damage", json_integer(9));
    dice1(&f, 8);
    EFX_OK(&f, "p1", "e1", "rest", "{\"action\":\"recover\"}");
    ck_assert(!efx_dice_bad(&f));
    ck_assert_int_eq(efx_stat(&f, "e1", "hp/damage"), 0);
    ck_assert_int_eq(ru_ival(last_result(&f), "healing"), 9);
    json_t *die = json_array_get(json_object_get(efx_last_entry(f.e.log, "rest"), "dice"), 0);
    ck_assert_int_eq(ru_ival(die, "sides"), 8);
    ck_assert_str_eq(efx_last_text(&f), "Brunhild rests and recovers 9 hit points (0 damage left)");
    dice1(&f, 6);
    EFX_OK(&f, "p3", "e3", "rest", "{\"action\":\"recover\"}");
    die = json_array_get(json_object_get(efx_last_entry(f.e.log, "rest"), "dice"), 0);
    ck_assert_int_eq(ru_ival(die, "sides"), 6);
    rules_enc_stat_set(&f.e, "e1", "xp", 300);
    dice1(&f, 3);
    EFX_OK(&f, "p1", "e1", "level_up", "{\"stat\":\"str\",\"roll\":1}");
    ck_assert_int_eq(efx_stat(&f, "e1", "hp/max"), 13); /* 9 + 3 + 1 */
    ck_assert_str_eq(efx_last_text(&f), "Brunhild reaches level 2: +4 hit points, +1 str");
    efx_free(&f);
}
END_TEST

/* Issue 25 item 21. 004:618-633: Vesper, wealthy, establishes an institution: d20 8 + CHA 4 =
 * 12 capital (17 with the 5 an older build kept on the combatant), an insignificant institution
 * (level 1) that offers 1 crown of credit at the next tennite, and 1 again at the one after (it
 * cannot be accumulated). A massive institution (500 capital) reinvests its credit with the owner's
 * establish (004:631): 500 + 14 + 150 = 664, level 7. */
START_TEST(establishing_builds_an_institution_that_offers_credit)
{
    efx f;
    party(&f);
    rules_enc_stat_set(&f.e, "e3", "crowns", 1000);
    json_object_set_new(rules_enc_combatant(&f.e, "e3"), "capital", json_integer(5)); /* older */
    const char *establish = "{\"lifestyle\":\"wealthy\",\"activity\":\"establish\","
                            "\"stat\":\"cha\",\"event\":0}";
    dice1(&f, 8);
    EFX_OK(&f, "p3", "e3", "downtime", establish);
    ck_assert_str_eq(efx_last_text(&f),
                     "Vesper lives wealthy (100 crowns) and invests 12 capital in "
                     "the institution (17 in all); it is now insignificant "
                     "(level 1)");
    json_t *inst = json_object_get(rules_enc_combatant(&f.e, "e3"), "institution");
    ck_assert_int_eq(ru_ival(inst, "capital"), 17);
    ck_assert_int_eq(ru_ival(inst, "level"), 1);
    ck_assert_int_eq(ru_ival(inst, "credit"), 0);
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "capital"));
    EFX_OK(&f, "gm", NULL, "tennite", NULL);
    ck_assert_int_eq(ru_ival(inst, "credit"), 1);
    ck_assert_str_eq(efx_last_text(&f),
                     "Vesper's institution offers its line of credit: 1 cr. this tennite");
    EFX_OK(&f, "gm", NULL, "tennite", NULL);
    ck_assert_int_eq(ru_ival(inst, "credit"), 1); /* not 2: credit is not accumulated */
    json_object_set_new(inst, "capital", json_integer(500));
    EFX_OK(&f, "gm", NULL, "tennite", NULL);
    ck_assert_int_eq(ru_ival(inst, "level"), 6);
    ck_assert_int_eq(ru_ival(inst, "credit"), 150);
    dice1(&f, 10);
    EFX_OK(&f, "p3", "e3", "downtime", establish);
    ck_assert_str_eq(efx_last_text(&f),
                     "Vesper lives wealthy (100 crowns) and invests 14 capital in "
                     "the institution and reinvests 150 cr. of its credit (664 "
                     "in all); it is now massive (level 7)");
    ck_assert_int_eq(ru_ival(inst, "capital"), 664);
    ck_assert_int_eq(ru_ival(inst, "credit"), 0);
    efx_free(&f);
}
END_TEST

/* Issue 25 item 21 (and issue 23's secrets). An NPC's institution is the GM's (reading 4): its
 * line of credit at a tennite is logged to the GM alone (the table read "Mira's institution
 * offers its line of credit", telling that she has one); the GM sets it in the GM's copy, and
 * an institution written on her public combatant is refused. */
static int public_credit_entries(const efx *f)
{
    int n = 0;
    size_t i;
    json_t *x;
    json_array_foreach(f->e.log, i, x) n +=
        rules_enc_streq(json_string_value(json_object_get(x, "event")), "credit");
    return n;
}

START_TEST(an_npcs_institution_is_the_gms)
{
    efx f;
    party(&f);
    json_t *s = ru_load_sample("fivey", "sylla.json");
    efx_add_sheet(&f, "e4", "Mira", "gm", 1, s);
    json_decref(s);
    json_object_set_new(rules_enc_hidden_of(&f.e, "e4"), "institution",
                        json_pack("{s:i, s:i, s:i}", "capital", 400, "level", 5, "credit", 0));
    EFX_OK(&f, "gm", NULL, "tennite", NULL);
    ck_assert_int_eq(public_credit_entries(&f), 0);
    json_t *gm = efx_last_entry(f.e.gm_log, "tennite");
    ck_assert_str_eq(json_string_value(json_object_get(gm, "text")),
                     "Mira's institution offers its line of credit: 100 cr. this tennite");
    const rules_enc_field *field = NULL;
    char cid[24];
    tb_err err = {0};
    json_t *v = json_integer(30);
    ck_assert_int_eq(
        rules_enc_editable(&f.e, "/gm/enc/combatants/e4/institution/capital", v, &field, cid, &err),
        TB_OK);
    json_decref(v);
    ck_assert_str_eq(cid, "e4");
    json_object_set_new(rules_enc_combatant(&f.e, "e4"), "institution",
                        json_pack("{s:i}", "capital", 30));
    ck_assert_int_eq(rules_enc_check(&f.e, &err), TB_RULE);
    ck_assert_ptr_nonnull(strstr(err.msg, "Mira is the GM's character"));
    json_object_del(rules_enc_combatant(&f.e, "e4"), "institution");
    efx_free(&f);
}
END_TEST

/* Issue 25 item 21. 004:574: a season of downtime is 3 downtime turns for twice the lifestyle's
 * cost, a year 12 for ten times it. Brunhild works a poor season (10 x 2 crowns): each turn its
 * event (3 bad: the worse of two d20s, 7; 10 none: 9; 18 good: the better, 16) and 1d20 + STR 3:
 * 10 + 12 + 19 = 41 crowns; 30 days pass. Vesper begs a year: 12 turns of 1d6, 120 days, once. */
START_TEST(seasonal_and_yearly_downtime_pay_more_for_more_turns)
{
    efx f;
    party(&f);
    efx_refused(&f, "gm", NULL, "tennite", "{\"span\":\"month\"}", TB_BAD_REQUEST,
                "a tennite, a season or a year");
    int day = (int)json_integer_value(json_object_get(f.enc, "day"));
    EFX_OK(&f, "gm", NULL, "tennite", "{\"span\":\"season\"}");
    ck_assert_str_eq(efx_last_text(&f),
                     "3 tennites of downtime pass (30 days); inspiration is restored");
    ck_assert_int_eq((int)json_integer_value(json_object_get(f.enc, "day")), day + 30);
    ck_assert_int_eq((int)json_integer_value(json_object_get(f.enc, "tennite")), 3);
    efx_refused(&f, "p1", "e1", "downtime",
                "{\"lifestyle\":\"modest\",\"activity\":\"carouse\",\"stat\":\"str\"}", TB_RULE,
                "a modest lifestyle costs 40 for a season");
    rules_enc_stat_set(&f.e, "e1", "crowns", 100);
    const int season[] = {3, 12, 7, 10, 9, 18, 4, 16};
    efx_dice(&f, season, 8);
    EFX_OK(&f, "p1", "e1", "downtime",
           "{\"lifestyle\":\"poor\",\"activity\":\"work\",\"stat\":\"str\"}");
    ck_assert(!efx_dice_bad(&f));
    ck_assert_str_eq(efx_last_text(&f), "Brunhild lives poor for a season (20 crowns, 3 downtime "
                                        "turns; events: 1 good, 1 bad) and works and earns 41 "
                                        "crowns");
    ck_assert_int_eq(efx_stat(&f, "e1", "crowns"), 100 - 20 + 41);
    efx_refused(&f, "p1", "e1", "downtime", "{\"lifestyle\":\"squalid\",\"activity\":\"beg\"}",
                TB_RULE, "already taken this season's downtime action");
    EFX_OK(&f, "gm", NULL, "tennite", "{\"span\":\"year\"}");
    ck_assert_int_eq((int)json_integer_value(json_object_get(f.enc, "day")), day + 150);
    const int year[] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};
    efx_dice(&f, year, 12);
    EFX_OK(&f, "p3", "e3", "downtime",
           "{\"lifestyle\":\"squalid\",\"activity\":\"beg\",\"event\":0}");
    ck_assert(!efx_dice_bad(&f));
    ck_assert_str_eq(efx_last_text(&f), "Vesper lives squalid for a year (0 crowns, 12 downtime "
                                        "turns) and begs and gains 42 crowns");
    ck_assert_int_eq(efx_stat(&f, "e3", "crowns"), 45 + 42);
    efx_free(&f);
}
END_TEST

/* Issue 25 item 21. 004:481-505 spells outside a fight (reading 14): one of the casts, no ◆.
 * Vesper turns undead (1d6: 4 hit dice worth), then bolts Mira, an NPC of the GM's with Sylla's
 * sheet: 1d6 = 5; Mira's d20 9 + DEX 2 = 11 meets Vesper's 10 + INT 1: she saves and takes 2;
 * her save is the GM's. Out of casts, a third is refused before any die; the night's rest gives
 * them back. */
START_TEST(spells_are_cast_between_the_scenes)
{
    efx f;
    party(&f);
    json_t *sheet = ru_load_sample("fivey", "sylla.json");
    efx_add_sheet(&f, "e4", "Mira", "gm", 1, sheet);
    json_decref(sheet);
    dice1(&f, 4);
    EFX_OK(&f, "p3", "e3", "cast", "{\"spell\":\"Turn Undead\"}");
    ck_assert_str_eq(efx_last_text(&f), "Vesper casts Turn Undead: up to 4 hit dice worth of "
                                        "undead turn away and freeze, each skipping its next "
                                        "turn");
    const int bolt[] = {5, 9};
    efx_dice(&f, bolt, 2);
    EFX_OK(&f, "p3", "e3", "cast", "{\"spell\":\"Lightning Bolt\",\"target\":\"e4\"}");
    ck_assert(!efx_dice_bad(&f));
    ck_assert_str_eq(efx_last_text(&f), "Vesper casts Lightning Bolt: 5 damage — Mira saves and "
                                        "takes 2");
    ck_assert_int_eq(efx_stat(&f, "e4", "hp/damage"), 2);
    ck_assert_int_eq(efx_stat(&f, "e3", "spell_slots/used"), 2);
    efx_refused(&f, "p3", "e3", "cast", "{\"spell\":\"Turn Undead\"}", TB_RULE,
                "no spell casts left until a rest");
    EFX_OK(&f, "p3", "e3", "rest", "{\"action\":\"cook\"}");
    ck_assert_int_eq(efx_stat(&f, "e3", "spell_slots/used"), 0);
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
    tcase_add_test(tc, a_sleepwalker_takes_two_rest_actions_a_night);
    tcase_add_test(tc, battle_hardened_heals_with_a_d8_and_gains_a_hit_point_a_level);
    tcase_add_test(tc, establishing_builds_an_institution_that_offers_credit);
    tcase_add_test(tc, an_npcs_institution_is_the_gms);
    tcase_add_test(tc, seasonal_and_yearly_downtime_pay_more_for_more_turns);
    tcase_add_test(tc, spells_are_cast_between_the_scenes);
    suite_add_tcase(s, tc);
    return ru_run_suite(s);
}
