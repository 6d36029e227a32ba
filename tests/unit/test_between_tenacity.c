/* The tenacity module tenacity.between (rules/tenacity/between.c) with scripted dice: stress at
 * the end of a scene and from a healing item (003:74), wounds healed under a healer's care
 * (003:74: 15 + 10 + 5 = 30 recovery for 3 wounds), the cliff and the monkeys (003:63), Missa's
 * explored scene (003:64), crafting (003:69), the short rest for 10acity (003:76), piloting
 * (003:77-78) and every refusal, each drawing no die and changing nothing. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"
#include "rules_util.h"

/* Missa (e1, p1), Brakka (e2, p2) and Odessa (e3, p3) from the sample sheets; Missa's Medicine
 * raised to rank 4 (2 impact d4) to be the healer, Brakka with 3 wounds of 4 and no recovery. */
static void party(efx *f)
{
    efx_init(f, "tenacity.between");
    json_t *m = ru_load_sample("tenacity", "missa.json");
    json_t *intellect = json_array_get(json_object_get(m, "attributes"), 3);
    json_object_set_new(json_array_get(json_object_get(intellect, "skills"), 3), "rank",
                        json_integer(4)); /* Medicine */
    json_t *b = ru_load_sample("tenacity", "brakka.json");
    json_object_set_new(json_object_get(b, "wounds"), "current", json_integer(3));
    json_object_set_new(b, "recovery", json_integer(0));
    json_t *o = ru_load_sample("tenacity", "odessa.json");
    efx_add_sheet(f, "e1", "Missa", "p1", 0, m);
    efx_add_sheet(f, "e2", "Brakka", "p2", 0, b);
    efx_add_sheet(f, "e3", "Odessa", "p3", 0, o);
    json_decref(m);
    json_decref(b);
    json_decref(o);
}

static json_t *task(efx *f, const char *name)
{
    return json_object_get(json_object_get(f->enc, "tasks"), name);
}

static json_t *last_result(efx *f)
{
    return json_object_get(json_array_get(f->e.log, json_array_size(f->e.log) - 1), "result");
}

/* 003:63: "The narrator might set an impact requirement of five (5) and inform you that you have
 * three (3) rounds ... Any character that can't generate the 5 points ... within the required 3
 * rounds would then be caught by the monkeys". Brakka (Athletics 4: 3d10, 2 impact d4) makes it
 * in two rounds; Missa (Athletics 1: no impact die) ties once and is caught after three. */
START_TEST(the_cliff_and_the_monkeys)
{
    efx f;
    party(&f);
    efx_refused(&f, "p1", "e1", "task", "{\"task\":\"cliff\",\"need\":5}", TB_FORBIDDEN, "GM");
    efx_refused(&f, "gm", NULL, "task", "{\"task\":\"cliff\"}", TB_BAD_REQUEST, "impact");
    efx_refused(&f, "p1", "e1", "work", "{\"task\":\"cliff\",\"skill\":\"Athletics\"}",
                TB_NOT_FOUND, "no task called");
    EFX_OK(&f, "gm", NULL, "task",
           "{\"task\":\"cliff\",\"need\":5,\"rounds\":3,\"skill\":\"Athletics\"}");
    ck_assert_ptr_nonnull(strstr(efx_last_text(&f), "5 impact within 3 rounds"));
    efx_refused(&f, "gm", NULL, "task", "{\"task\":\"cliff\",\"need\":5}", TB_RULE, "already");
    efx_refused(&f, "p1", "e2", "work", "{\"task\":\"cliff\"}", TB_FORBIDDEN, "not your");
    efx_refused(&f, "p1", "e1", "work", "{\"task\":\"cliff\",\"skill\":\"Flying\"}", TB_BAD_REQUEST,
                "no skill");

    /* Brakka, round 1: [6,2,1] + 4 = 10 against 3 + 4 = 7; impact 2 + 1 = 3 */
    const int b1[] = {6, 2, 1, 3, 4, 2, 1};
    efx_dice(&f, b1, N_ELEMS(b1));
    EFX_OK(&f, "p2", "e2", "work", "{\"task\":\"cliff\"}");
    ck_assert_int_eq(ru_ival(last_result(&f), "progress"), 3);
    /* round 2: [5,5,3] + 4 = 9 against 4; impact 1 + 1 = 2: 5, up the cliff */
    const int b2[] = {5, 5, 3, 2, 2, 1, 1};
    efx_dice(&f, b2, N_ELEMS(b2));
    EFX_OK(&f, "p2", "e2", "work", "{\"task\":\"cliff\"}");
    ck_assert(ru_bval(json_object_get(json_object_get(task(&f, "cliff"), "by"), "e2"), "done"));
    ck_assert_ptr_nonnull(strstr(efx_last_text(&f), "cliff done"));
    efx_refused(&f, "p2", "e2", "work", "{\"task\":\"cliff\"}", TB_RULE, "already made it");

    /* Missa, round 1: 4 + 1 = 5 against 3 + 2 = 5: ties go to the challenge (003:8) */
    const int m1[] = {4, 3, 2};
    efx_dice(&f, m1, N_ELEMS(m1));
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"cliff\"}");
    ck_assert(!ru_bval(last_result(&f), "success"));
    /* rounds 2 and 3: 9 + 1 = 10 against 2, a success with no impact die (rank 1, 003:9) */
    const int m2[] = {9, 1, 1, 9, 1, 1};
    efx_dice(&f, m2, N_ELEMS(m2));
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"cliff\"}");
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"cliff\"}");
    ck_assert(!efx_dice_bad(&f));
    json_t *mine = json_object_get(json_object_get(task(&f, "cliff"), "by"), "e1");
    ck_assert(ru_bval(mine, "failed"));
    ck_assert_int_eq(ru_ival(mine, "tries"), 3);
    ck_assert_ptr_nonnull(strstr(efx_last_text(&f), "out of time"));
    efx_refused(&f, "p1", "e1", "work", "{\"task\":\"cliff\"}", TB_RULE, "ran out of time");
    efx_free(&f);
}
END_TEST

/* The move of action for actor (NULL: the GM's own) among the seat's moves, or NULL. */
static json_t *move_for(efx *f, const char *seat, const char *action, const char *actor)
{
    f->e.seat = seat;
    f->e.is_gm = strcmp(seat, "gm") == 0;
    json_t *moves = rules_enc_moves(&f->e), *found = NULL;
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m)
    {
        const char *who = json_string_value(json_object_get(m, "actor"));
        if (strcmp(json_string_value(json_object_get(m, "action")), action) == 0 &&
            (actor ? who && strcmp(who, actor) == 0 : !who))
            found = json_incref(m);
    }
    json_decref(moves);
    return found;
}

/* Issue 24: "Set a task" refused its own form ("parameter 'need'") and the task was typed, matched
 * to the letter ("The cliff" refused). The GM's move comes with a need that passes (003:63's
 * five) and a kind to pick; the task's name is the one thing typed; a player's work names the
 * task from a pick of the tasks by name, and its arguments as offered go through. */
START_TEST(set_a_task_from_its_form_and_work_on_it_by_name)
{
    efx f;
    party(&f);
    json_t *m = move_for(&f, "gm", "task", NULL);
    ck_assert_ptr_nonnull(m);
    json_t *args = json_deep_copy(json_object_get(m, "args"));
    ck_assert_int_eq(ru_ival(args, "need"), 5);
    ck_assert_str_eq(json_string_value(json_object_get(args, "kind")), "impact");
    json_object_set_new(args, "task", json_string("The cliff"));
    json_object_set_new(args, "skill", json_string("Athletics"));
    char *text = json_dumps(args, JSON_COMPACT);
    EFX_OK(&f, "gm", NULL, "task", text);
    free(text);
    json_decref(args);
    json_decref(m);
    m = move_for(&f, "p2", "work", "e2");
    ck_assert_ptr_nonnull(m);
    json_t *param = json_array_get(json_object_get(m, "params"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(param, "name")), "task");
    ck_assert(json_is_true(json_object_get(param, "pick")));
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(m, "args"), "task")),
                     "The cliff");
    text = json_dumps(json_object_get(m, "args"), JSON_COMPACT);
    /* Brakka: Athletics 3d10 [6,2,1] + 4 = 10 against 2d6 [3,4] = 7; impact 2d4 [2,1] = 3 */
    const int d[] = {6, 2, 1, 3, 4, 2, 1};
    efx_dice(&f, d, N_ELEMS(d));
    EFX_OK(&f, "p2", "e2", "work", text);
    free(text);
    json_decref(m);
    ck_assert_int_eq(ru_ival(last_result(&f), "progress"), 3);
    ck_assert_str_eq(efx_last_text(&f), "Brakka rolls Athletics: 10 against 7, 3 impact: 3 of 5");
    /* done: no more work on it for Brakka */
    const int d2[] = {6, 2, 1, 3, 4, 2, 1};
    efx_dice(&f, d2, N_ELEMS(d2));
    EFX_OK(&f, "p2", "e2", "work", "{\"task\":\"The cliff\"}");
    ck_assert_ptr_null(move_for(&f, "p2", "work", "e2"));
    efx_free(&f);
}
END_TEST

/* 003:64: Missa's investigation succeeds for 3 impact, another succeeds for 2 (Brakka fails):
 * a pool of 5; the narrator's options cost 1, 1, 2 and 4; 4 + 1 spent, nothing left. */
START_TEST(missa_explores_a_scene_with_a_shared_pool)
{
    efx f;
    party(&f);
    EFX_OK(&f, "gm", NULL, "task",
           "{\"task\":\"crime scene\",\"kind\":\"explore\",\"skill\":\"Investigation\"}");
    const int d[] = {8, 3, 2, 3, 3,  /* Missa: 8 + 2 = 10 vs 5, impact 3 */
                     2, 4, 4,        /* Brakka Perception: 2 + 2 = 4 vs 8, fails */
                     7, 1, 1, 2, 2}; /* Odessa Perception: 7 + 2 = 9 vs 3, impact 2 */
    efx_dice(&f, d, N_ELEMS(d));
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"crime scene\"}");
    EFX_OK(&f, "p2", "e2", "work", "{\"task\":\"crime scene\",\"skill\":\"Perception\"}");
    EFX_OK(&f, "p3", "e3", "work", "{\"task\":\"crime scene\",\"skill\":\"Perception\"}");
    ck_assert(!efx_dice_bad(&f));
    ck_assert_int_eq(ru_ival(task(&f, "crime scene"), "pool"), 5);
    EFX_OK(&f, "p1", "e1", "spend",
           "{\"task\":\"crime scene\",\"cost\":4,\"what\":\"the ritual\"}");
    EFX_OK(&f, "p3", "e3", "spend",
           "{\"task\":\"crime scene\",\"cost\":1,\"what\":\"the footprints\"}");
    ck_assert_int_eq(ru_ival(task(&f, "crime scene"), "pool"), 0);
    efx_refused(&f, "p1", "e1", "spend",
                "{\"task\":\"crime scene\",\"cost\":1,\"what\":\"the knife\"}", TB_RULE,
                "holds 0 impact");
    EFX_OK(&f, "gm", NULL, "task", "{\"task\":\"wall\",\"need\":3}");
    efx_refused(&f, "p1", "e1", "spend", "{\"task\":\"wall\",\"cost\":1,\"what\":\"x\"}", TB_RULE,
                "no pool");
    efx_free(&f);
}
END_TEST

/* 003:69: crafting progress is the impact of each success, the item is complete when the total
 * reaches the requirement (the reading of "over"); Missa's lockpicks add 1 to Crafting impact. */
START_TEST(crafting_progress_until_the_item_is_complete)
{
    efx f;
    party(&f);
    EFX_OK(&f, "gm", NULL, "task",
           "{\"task\":\"lockpicks\",\"kind\":\"craft\",\"need\":4,\"skill\":\"Crafting\"}");
    const int d[] = {6, 2, 2, 2,  /* 6 + 2 = 8 vs 4: 2 + 1 = 3 */
                     5, 1, 1, 1}; /* 5 + 2 = 7 vs 2: 1 + 1 = 2, total 5 */
    efx_dice(&f, d, N_ELEMS(d));
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"lockpicks\"}");
    ck_assert_int_eq(ru_ival(task(&f, "lockpicks"), "total"), 3);
    ck_assert(!ru_bval(task(&f, "lockpicks"), "done"));
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"lockpicks\"}");
    ck_assert_int_eq(ru_ival(task(&f, "lockpicks"), "total"), 5);
    ck_assert(ru_bval(task(&f, "lockpicks"), "done"));
    efx_refused(&f, "p1", "e1", "work", "{\"task\":\"lockpicks\"}", TB_RULE, "already finished");
    efx_free(&f);
}
END_TEST

/* 003:74: "So if a character has 3 points of wound, it would require 15 recovery to heal the
 * first point of wound. Then 10 ... and 5 ... for a grand total of 30 recovery." Missa (Medicine
 * 4: 2d4 a day) tends Brakka's 3 wounds over five days. */
START_TEST(wounds_heal_under_a_healer_15_then_10_then_5)
{
    efx f;
    party(&f);
    efx_refused(&f, "p1", "e1", "tend", "{\"target\":\"e3\",\"skill\":\"Medicine\"}", TB_RULE,
                "no wound");
    efx_refused(&f, "p3", "e3", "tend", "{\"target\":\"e2\",\"skill\":\"Medicine\"}", TB_RULE,
                "no impact die");
    efx_refused(&f, "p1", "e1", "tend", "{\"target\":\"e2\",\"skill\":\"Surgery\"}", TB_BAD_REQUEST,
                "no skill");
    EFX_OK(&f, "p1", "e1", "tend", "{\"target\":\"e2\",\"skill\":\"Medicine\"}");
    efx_refused(&f, "p1", "e1", "advance", NULL, TB_FORBIDDEN, "GM");
    static const struct {
        int d[2], wounds, recovery;
    } days[] = {
        {{4, 4}, 3, 8}, {{4, 3}, 2, 0}, /* 15: the first wound */
        {{4, 4}, 2, 8}, {{1, 1}, 1, 0}, /* 10: the second */
        {{3, 2}, 0, 0},                 /* 5: the last */
    };
    for (size_t i = 0; i < N_ELEMS(days); i++) {
        efx_dice(&f, days[i].d, 2);
        EFX_OK(&f, "gm", NULL, "advance", NULL);
        ck_assert(!efx_dice_bad(&f));
        ck_assert_int_eq(efx_stat(&f, "e2", "wounds/current"), days[i].wounds);
        ck_assert_int_eq(efx_stat(&f, "e2", "recovery"), days[i].recovery);
    }
    ck_assert_int_eq(ru_ival(f.enc, "day"), 5);
    /* healed: no longer in care, the next day rolls nothing */
    ck_assert_ptr_null(json_object_get(json_object_get(f.enc, "care"), "e2"));
    efx_dice(&f, NULL, 0);
    EFX_OK(&f, "gm", NULL, "advance", NULL);
    ck_assert(!efx_dice_bad(&f));
    efx_free(&f);
}
END_TEST

/* An NPC healer (issue 23): who tends whom is open, the skill she tends with is on her GM-only
 * sheet (/gm/enc/care, the GM's log); her dice are hers, Brakka's recovery is his (open). */
START_TEST(an_npc_healers_skill_and_dice_are_the_gms)
{
    efx f;
    party(&f);
    json_t *v = ru_load_sample("tenacity", "missa.json");
    json_t *intellect = json_array_get(json_object_get(v, "attributes"), 3);
    json_object_set_new(json_array_get(json_object_get(intellect, "skills"), 3), "rank",
                        json_integer(4)); /* Medicine: 2 impact d4 */
    efx_add_sheet(&f, "e4", "Sister Vey", "gm", 1, v);
    json_decref(v);
    EFX_OK(&f, "gm", "e4", "tend", "{\"target\":\"e2\",\"skill\":\"Medicine\"}");
    json_t *care = json_object_get(json_object_get(f.enc, "care"), "e2");
    ck_assert_str_eq(json_string_value(json_object_get(care, "by")), "e4");
    ck_assert_ptr_null(json_object_get(care, "skill"));
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(json_object_get(f.hidden, "care"), "e2"), "skill")),
                     "Medicine");
    ck_assert_str_eq(efx_last_text(&f), "Sister Vey takes Brakka into care");
    json_t *gm = json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(gm, "text")),
                     "Sister Vey takes Brakka into care (Medicine)");
    const int d[] = {4, 3};
    efx_dice(&f, d, N_ELEMS(d));
    EFX_OK(&f, "gm", NULL, "advance", NULL);
    ck_assert(!efx_dice_bad(&f));
    ck_assert_int_eq(efx_stat(&f, "e2", "recovery"), 7);
    json_t *day = json_array_get(f.e.log, json_array_size(f.e.log) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(day, "text")),
                     "Sister Vey tends Brakka: 7 recovery, 7 of 15 for the next wound");
    ck_assert_ptr_null(json_object_get(day, "dice"));
    ck_assert_int_eq(ru_ival(json_object_get(day, "result"), "recovery"), 7);
    efx_free(&f);
}
END_TEST

/* 003:74 stress: a healing item at once, all of it at the end of the scene; 003:76 the short rest
 * recovers one 10acity only when none is left. */
START_TEST(stress_recovers_and_a_short_rest_gives_one_10acity)
{
    efx f;
    party(&f);
    ck_assert_int_eq(efx_stat(&f, "e2", "stress/current"), 4);
    EFX_OK(&f, "p1", "e1", "heal_item", "{\"target\":\"e2\",\"stress\":3,\"what\":\"a salve\"}");
    ck_assert_int_eq(efx_stat(&f, "e2", "stress/current"), 1);
    ck_assert_ptr_nonnull(strstr(efx_last_text(&f), "a salve"));
    efx_refused(&f, "p1", "e1", "heal_item", "{\"stress\":2}", TB_RULE, "no stress");
    efx_refused(&f, "p1", "e1", "scene_end", NULL, TB_FORBIDDEN, "GM");
    EFX_OK(&f, "gm", NULL, "scene_end", NULL);
    ck_assert_int_eq(efx_stat(&f, "e2", "stress/current"), 0);

    efx_refused(&f, "p1", "e1", "rest", NULL, TB_RULE, "still has 3 10acity");
    rules_enc_stat_set(&f.e, "e1", "tenacity", 0);
    EFX_OK(&f, "p1", "e1", "rest", NULL);
    ck_assert_int_eq(efx_stat(&f, "e1", "tenacity"), 1);
    efx_refused(&f, "p1", "e1", "rest", NULL, TB_RULE, "still has 1");
    efx_free(&f);
}
END_TEST

/* 003:78: Missa (Pilot 1) flies a ship of maneuverability 3: Dexterity dice + 2. */
START_TEST(missa_pilots_a_ship_of_rank_3_with_plus_2)
{
    efx f;
    party(&f);
    const int d[] = {5, 2, 3, 3};
    efx_dice(&f, d, N_ELEMS(d));
    EFX_OK(&f, "p1", "e1", "pilot", "{\"vehicle\":3}");
    json_t *r = last_result(&f);
    ck_assert_int_eq(ru_ival(r, "pilot_bonus"), 2);
    ck_assert_int_eq(ru_ival(r, "total"), 7);
    ck_assert(ru_bval(r, "success"));
    efx_refused(&f, "p2", "e2", "pilot", "{\"vehicle\":1,\"skill\":\"Flying\"}", TB_BAD_REQUEST,
                "no skill 'Flying'");
    efx_free(&f);
}
END_TEST

/* Issue 25 item 17: 003:28 "When you roll a natural 10 on any of your hero dice, it qualifies as a
 * critical roll": between the scenes too (crafting, exploring, timed tasks, piloting). The choice
 * is the player's (`crit`); without it the hero die comes exactly when the roll fails without it,
 * else the impact die. The critical gives no spin. */
START_TEST(a_natural_10_is_a_critical_between_the_scenes)
{
    efx f;
    party(&f);
    EFX_OK(&f, "gm", NULL, "task",
           "{\"task\":\"lockpicks\",\"kind\":\"craft\",\"need\":9,\"skill\":\"Crafting\"}");
    efx_refused(&f, "p1", "e1", "work", "{\"task\":\"lockpicks\",\"crit\":\"spin\"}",
                TB_BAD_REQUEST, "crit");
    /* [10] + 2 = 12 vs [3,3] = 6: a success on its own, so the impact die: 2d4 [2,3] + 1 = 6 */
    const int c1[] = {10, 3, 3, 2, 3};
    efx_dice(&f, c1, N_ELEMS(c1));
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"lockpicks\"}");
    efx_dice_used_all(&f, "crafting");
    ck_assert_int_eq(ru_ival(task(&f, "lockpicks"), "total"), 6);
    ck_assert_str_eq(json_string_value(json_object_get(last_result(&f), "crit")), "impact");
    ck_assert_int_eq(efx_stat(&f, "e1", "spin"), 0);
    /* the player asks for the hero die: [10] + 2 + [4] = 16 vs [6,6] = 12: 1d4 [1] + 1 = 2 */
    const int c2[] = {10, 6, 6, 4, 1};
    efx_dice(&f, c2, N_ELEMS(c2));
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"lockpicks\",\"crit\":\"hero\"}");
    efx_dice_used_all(&f, "crafting with the hero die");
    ck_assert_int_eq(ru_ival(task(&f, "lockpicks"), "total"), 8);

    /* exploring: Investigation [10,1] + 2 = 12 vs [6,6] + 1 = 13 fails without it: the hero die
     * [4] makes 16; impact 1d4 [2] */
    EFX_OK(&f, "gm", NULL, "task",
           "{\"task\":\"crime scene\",\"kind\":\"explore\",\"skill\":\"Investigation\","
           "\"challenge_bonus\":1}");
    const int x1[] = {10, 1, 6, 6, 4, 2};
    efx_dice(&f, x1, N_ELEMS(x1));
    EFX_OK(&f, "p1", "e1", "work", "{\"task\":\"crime scene\"}");
    efx_dice_used_all(&f, "exploring");
    ck_assert(ru_bval(last_result(&f), "success"));
    ck_assert_int_eq(ru_ival(task(&f, "crime scene"), "pool"), 2);

    /* piloting (pass/fail): [10,1] + 2 = 12 vs [3,3] + 10 = 16: the hero die [5]: 17, a success */
    const int p1[] = {10, 1, 3, 3, 5};
    efx_dice(&f, p1, N_ELEMS(p1));
    EFX_OK(&f, "p1", "e1", "pilot", "{\"vehicle\":3,\"challenge_dice\":2,\"challenge_bonus\":10}");
    efx_dice_used_all(&f, "piloting");
    ck_assert(ru_bval(last_result(&f), "success"));
    ck_assert_int_eq(ru_ival(last_result(&f), "total"), 17);
    efx_free(&f);
}
END_TEST

/* The module's check refuses a damaged task list. */
START_TEST(a_damaged_task_list_is_refused)
{
    efx f;
    party(&f);
    ck_assert_int_eq(rules_enc_check(&f.e, &f.err), 0);
    json_object_set_new(f.enc, "tasks", json_integer(3));
    ck_assert_int_eq(rules_enc_check(&f.e, &f.err), TB_RULE);
    efx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("between_tenacity");
    TCase *tc = tcase_create("between");
    tcase_add_test(tc, the_cliff_and_the_monkeys);
    tcase_add_test(tc, set_a_task_from_its_form_and_work_on_it_by_name);
    tcase_add_test(tc, missa_explores_a_scene_with_a_shared_pool);
    tcase_add_test(tc, crafting_progress_until_the_item_is_complete);
    tcase_add_test(tc, wounds_heal_under_a_healer_15_then_10_then_5);
    tcase_add_test(tc, an_npc_healers_skill_and_dice_are_the_gms);
    tcase_add_test(tc, stress_recovers_and_a_short_rest_gives_one_10acity);
    tcase_add_test(tc, missa_pilots_a_ship_of_rank_3_with_plus_2);
    tcase_add_test(tc, a_damaged_task_list_is_refused);
    tcase_add_test(tc, a_natural_10_is_a_critical_between_the_scenes);
    suite_add_tcase(s, tc);
    return ru_run_suite(s);
}
