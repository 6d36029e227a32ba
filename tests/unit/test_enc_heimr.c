/* heimr.combat (rules/heimr/combat.c) and heimr.chase (rules/heimr/chase.c), driven directly
 * with scripted dice. Rulebook 001_660a93111b0de833.txt, cited 001:LINE. Every action's dice are
 * scripted exactly: a script must be used up, no more and no less (fx_act checks it). */

#define ENC_FIXTURE_SHORT_NAMES
#include "enc_fixture.h"

static void fx_init(fixture *f)
{
    fx_init_module(f, "heimr.combat", NULL);
}

/* A heimr sheet: dex, sta, willpower, hp, fatigue and one extra ability JSON (or NULL). */
static json_t *sheet(int dex, int sta, int wp, int hp, int fatigue, const char *abilities)
{
    json_t *s = json_pack("{s:s, s:{s:i, s:i, s:i, s:i, s:i, s:i}, s:i, s:i, s:i, s:i, s:i}",
                          "name", "X", "attributes", "str", 1, "dex", dex, "sta", sta, "int", 0,
                          "soc", 0, "emp", 0, "hp", hp, "hp_max", hp > 0 ? hp : 5, "willpower", wp,
                          "willpower_max", wp, "fatigue", fatigue);
    if (abilities)
        json_object_set_new(s, "abilities", json_loads(abilities, 0, NULL));
    return s;
}

static const char *order_at(fixture *f, size_t i)
{
    return json_string_value(json_array_get(json_object_get(f->enc, "order"), i));
}

static json_t *comb(fixture *f, const char *cid)
{
    return rules_enc_combatant(&f->e, cid);
}

static int ival(json_t *o, const char *key)
{
    return (int)json_integer_value(json_object_get(o, key));
}

/* Three PCs with dex 0 and willpower 1 (C0: one d6 each), ordered e1 e2 e3 by d6 6, 4, 2; the
 * fourth argument: the ability sheet JSON of everyone. */
static void fx_three(fixture *f, const char *abilities)
{
    fx_add(f, "e1", "Ann", "p1", 0, sheet(0, 2, 1, 5, 2, abilities));
    fx_add(f, "e2", "Bob", "p2", 0, sheet(0, 2, 1, 5, 2, abilities));
    fx_add(f, "e3", "Cat", "p3", 0, sheet(0, 2, 1, 5, 2, abilities));
    ACT_OK(f, NULL, "begin", NULL, 6, 4, 2);
    ck_assert_str_eq(rules_enc_current(&f->e), "e1");
}

/* ---- initiative ---- */

START_TEST(initiative_by_dexterity_and_willpower_ties_to_the_higher_willpower)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Ann", "p1", 0, sheet(0, 2, 2, 5, 2, NULL));
    fx_add(&f, "e2", "Bob", "p2", 0, sheet(0, 2, 4, 5, 2, NULL));
    fx_add(&f, "e3", "Orc", "gm", 1, sheet(1, 2, 0, 5, 2, NULL));
    /* 001:242: e1 C0 P2: d6 3 → 5; e2 C0 P4: d6 1 → 5 (tie: willpower 4 first); e3 C1 P0: d6 2,
     * d10 9 → 9 */
    ACT_OK(&f, NULL, "begin", NULL, 3, 1, 2, 9);
    ck_assert_str_eq(order_at(&f, 0), "e3");
    ck_assert_str_eq(order_at(&f, 1), "e2");
    ck_assert_str_eq(order_at(&f, 2), "e1");
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    ck_assert_int_eq(ival(f.enc, "seconds"), 0);
    ck_assert_int_eq(ival(f.enc, "turn_seconds"), 2);
    ck_assert_int_eq(ival(comb(&f, "e2"), "init"), 5);
    /* the NPC's score is hidden, its roll in the GM log only */
    ck_assert_ptr_null(json_object_get(comb(&f, "e3"), "init"));
    ck_assert_int_eq(ival(rules_enc_hidden_of(&f.e, "e3"), "init"), 9);
    ck_assert_int_eq(json_array_size(f.e.gm_log), 1);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e3", "standard"), 1);
    refused(&f, NULL, "begin", NULL, "initiative is thrown once");
    fx_free(&f);
}
END_TEST

/* ---- delaying (001:244-246) ---- */

START_TEST(delay_moves_the_character_and_passes_the_turn)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, NULL);
    ACT_NODICE(&f, "e1", "delay", "{\"target\":\"e2\",\"when\":\"after\"}");
    ck_assert_str_eq(order_at(&f, 0), "e2");
    ck_assert_str_eq(order_at(&f, 1), "e1");
    ck_assert_str_eq(order_at(&f, 2), "e3");
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert_str_eq(
        json_string_value(json_object_get(json_object_get(comb(&f, "e1"), "delayed"), "of")), "e2");
    /* e2 ends the turn (a dodge is pre-rolled: Agility C0, d6 4); e1's delayed turn comes */
    ACT_OK(&f, "e2", "end_turn", NULL, 4);
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    /* after acting, no delay (001:246 "at the start of their turn") */
    refused(&f, "e1", "delay", "{\"target\":\"e1\",\"when\":\"after\"}", "themselves");
    ACT_NODICE(&f, "e1", "act", "{\"type\":\"free\",\"what\":\"shout\"}");
    refused(&f, "e1", "delay", "{\"target\":\"e3\",\"when\":\"after\"}", "start of the turn");
    ACT_OK(&f, "e1", "end_turn", NULL, 5);
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "delayed"));
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    /* e3 delays until just before e2, who has acted: e3 goes first from the next round on */
    ACT_NODICE(&f, "e3", "delay", "{\"target\":\"e2\",\"when\":\"before\"}");
    ck_assert_str_eq(order_at(&f, 0), "e3");
    ck_assert_str_eq(order_at(&f, 1), "e2");
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    ck_assert_int_eq(ival(f.enc, "seconds"), 2);
    refused(&f, "e3", "delay", "{\"target\":\"e2\",\"when\":\"before\"}", "already acts just");
    fx_free(&f);
}
END_TEST

/* ---- readied actions (001:248-250) ---- */

START_TEST(a_readied_attack_fires_and_moves_before_the_trigger)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, NULL);
    ACT_NODICE(&f, "e1", "ready",
               "{\"trigger\":\"Cat steps in\",\"target\":\"e3\",\"c\":0,\"p\":4,\"damage\":2}");
    ck_assert(json_is_true(json_object_get(comb(&f, "e1"), "readied")));
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "standard"), 0);
    refused(&f, "e1", "trigger", "{\"target\":\"e2\"}", "another character's turn");
    ACT_OK(&f, "e1", "end_turn", NULL, 6); /* e1's dodge: 6 */
    ACT_OK(&f, "e2", "end_turn", NULL, 3); /* e2's dodge: 3 */
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    /* e3 steps in: the attack (d6 5 → 9) against e3, who holds no defence: its dodge first
     * (d6 2), as the defence is rolled before the attack (001:420) */
    ACT_OK(&f, "e1", "trigger", "{\"target\":\"e3\"}", 2, 5);
    ck_assert_str_eq(order_at(&f, 0), "e2");
    ck_assert_str_eq(order_at(&f, 1), "e1");
    ck_assert_str_eq(order_at(&f, 2), "e3");
    ck_assert_str_eq(rules_enc_current(&f.e), "e3"); /* still e3's turn */
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "readied"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e3", "hp", 0), 3);
    refused(&f, "e1", "trigger", "{\"target\":\"e3\"}", "no readied action");
    /* a readied action whose trigger does not come is lost at the start of the next turn */
    /* e3's next dodge: one dodge used since its turn began, C0 - 2 (001:426): d6 1, d10 5 5 */
    ACT_OK(&f, "e3", "end_turn", NULL, 1, 5, 5); /* round 2: e2 */
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e3"), "defence"), "consistency"), -2);
    ACT_OK(&f, "e2", "end_turn", NULL); /* e2 still holds its dodge 3: no roll */
    ACT_NODICE(&f, "e1", "ready", "{\"trigger\":\"never\",\"action\":\"run away\"}");
    ACT_NODICE(&f, "e1", "end_turn", NULL); /* its dodge was used by nobody: still held */
    ACT_NODICE(&f, "e3", "end_turn", NULL);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ACT_NODICE(&f, "e2", "end_turn", NULL);
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "ready"));
    json_t *last = json_array_get(f.e.log, json_array_size(f.e.log) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(last, "action")), "ready-lost");
    fx_free(&f);
}
END_TEST

/* ---- pre-rolled defences (001:418-446) ---- */

static const char *DEF_ABILITIES =
    "[{\"name\":\"Agility\",\"attributes\":[\"dex\"],\"base_consistency\":1,"
    "\"trained_consistency\":1},{\"name\":\"Sword\",\"attributes\":[\"str\"],"
    "\"base_consistency\":0}]";

START_TEST(attacks_meet_pre_rolled_defences_whose_penalties_grow)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, DEF_ABILITIES);
    /* e2 pre-rolls a dodge: Agility C2 P0 (dex 0): d6 3, d10 5 7 → 7 */
    ACT_OK(&f, "e2", "defend", "{\"kind\":\"dodge\"}", 3, 5, 7);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "stance")), "dodge");
    refused(&f, "e2", "defend", "{\"kind\":\"block\",\"ability\":\"Sword\"}", "already holds");
    /* e1 attacks with C1 P0: d6 2, d10 7 → 7: a tie, the defence wins (001:420) */
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e2\",\"c\":1,\"p\":0}", 2, 7);
    json_t *res = json_object_get(json_array_get(f.e.log, json_array_size(f.e.log) - 1), "result");
    ck_assert(json_is_false(json_object_get(res, "hit")));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", 0), 5);
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e2"), "defended"), "dodge"), 1);
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "defence"));
    /* the next dodge: C2 - 2 (one dodge used, 001:426) = 0: d6 4 */
    ACT_OK(&f, "e2", "defend", "{\"kind\":\"dodge\"}", 4);
    json_t *d = json_object_get(comb(&f, "e2"), "defence");
    ck_assert_int_eq(ival(d, "consistency"), 0);
    ck_assert_int_eq(ival(d, "situational"), 2);
    ck_assert_int_eq(ival(d, "result"), 4);
    /* a block has its own count: no penalty; it waits, as the dodge is held */
    refused(&f, "e2", "defend", "{\"kind\":\"block\"}", "already holds");
    /* a parry is one per melee weapon between turns */
    json_object_del(comb(&f, "e2"), "defence");
    ACT_OK(&f, "e2", "defend", "{\"kind\":\"parry\",\"ability\":\"Sword\"}", 5);
    json_object_set_new(json_object_get(comb(&f, "e2"), "defended"), "parry", json_integer(1));
    json_object_del(comb(&f, "e2"), "defence");
    refused(&f, "e2", "defend", "{\"kind\":\"parry\",\"ability\":\"Sword\"}", "one parry per");
    refused(&f, "e2", "defend", "{\"kind\":\"block\"}", "needs a shield");
    /* uses are restored at the start of e2's turn (001:428) */
    ACT_OK(&f, "e1", "end_turn", "{\"defence\":\"parry\",\"ability\":\"Sword\"}", 2);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "defended"));
    fx_free(&f);
}
END_TEST

START_TEST(defence_uses_are_restored_at_the_start_of_the_turn)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, DEF_ABILITIES);
    ACT_OK(&f, "e2", "defend", "{\"kind\":\"dodge\"}", 3, 5, 7);
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e2\",\"c\":0,\"p\":10}", 6); /* 16 > 7: hit */
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", 0), 4);
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e2"), "defended"), "dodge"), 1);
    /* e1 ends with a parry (Sword C0 P1, d6 2 → 3); e2's turn restores its uses */
    ACT_OK(&f, "e1", "end_turn", "{\"defence\":\"parry\",\"ability\":\"Sword\"}", 2);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "defended"));
    /* a ranged attack cannot be parried (001:422, 446): e1's parry is kept for the first melee
     * attack and a dodge is rolled now (Agility C2: d6 1, d10 2 2 → 2), then the attack: d6 2, a
     * tie */
    ACT_OK(&f, "e2", "attack", "{\"target\":\"e1\",\"c\":0,\"p\":0,\"ranged\":true}", 1, 2, 2, 2);
    json_t *res = json_object_get(json_array_get(f.e.log, json_array_size(f.e.log) - 1), "result");
    ck_assert(json_is_false(json_object_get(res, "hit")));
    ck_assert_ptr_nonnull(json_object_get(comb(&f, "e1"), "kept_parry"));
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e1"), "defended"), "dodge"), 1);
    fx_free(&f);
}
END_TEST

/* ---- body parts and injuries (001:143-166, 409-414) ---- */

START_TEST(the_attack_d6_picks_the_body_part_and_its_injury_effect)
{
    static const struct {
        int d6;
        const char *part, *cond;
    } T[] = {{1, "left_leg", "fall"},  {2, "right_leg", "fall"}, {3, "other_arm", "drop"},
             {4, "sword_arm", "drop"}, {5, "torso", "daze"},     {6, "torso", "daze"}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        fixture f;
        fx_init(&f);
        fx_add(&f, "e1", "Ann", "p1", 0, sheet(0, 2, 1, 5, 1, NULL));
        fx_add(&f, "e2", "Orc", "gm", 1, sheet(0, 2, 0, 1, 1, NULL));
        ACT_OK(&f, NULL, "begin", NULL, 6, 1);
        rules_enc_cond_add(&f.e, "e2", "helpless", 0, 0); /* 001:435: no defence */
        int faces[] = {T[i].d6};
        tb_err err = {0};
        ck_assert_int_eq(
            fx_act(&f, "e1", "attack", "{\"target\":\"e2\",\"c\":0,\"p\":5}", faces, 1, &err), 0);
        ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", 9), 0);
        json_t *inj = json_object_get(rules_enc_stats(&f.e, "e2"), "injuries");
        ck_assert_str_eq(json_string_value(json_array_get(inj, 0)), T[i].part);
        ck_assert_msg(rules_enc_cond_has(&f.e, "e2", T[i].cond), "d6 %d: %s", T[i].d6, T[i].cond);
        ck_assert_ptr_null(json_object_get(rules_enc_cond(&f.e, "e2", T[i].cond), "turns"));
        ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "injury")), "bloodied");
        /* the NPC's HP are in the GM log only; no public entry carries dice of its defence */
        ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "stats"));
        fx_free(&f);
    }
}
END_TEST

START_TEST(injury_levels_set_the_dying_clock)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Ann", "p1", 0, sheet(0, 2, 1, 5, 1, NULL));
    fx_add(&f, "e2", "Bob", "p2", 0, sheet(0, 2, 0, 1, 1, NULL));
    fx_add(&f, "e3", "Cat", "p3", 0, sheet(0, 2, 0, 1, 1, NULL));
    ACT_OK(&f, NULL, "begin", NULL, 6, 2, 1);
    rules_enc_cond_add(&f.e, "e2", "helpless", 0, 0);
    rules_enc_cond_add(&f.e, "e3", "helpless", 0, 0);
    /* hit 3 on 1 HP: -2, mangled (001:165): unconscious in 5 minutes, dead in 10 (2 s rounds) */
    /* aiming: C0 - 2 (001:416): d6 1, d10 4 6 → 1 + 5 */
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e2\",\"c\":0,\"p\":5,\"damage\":3,\"aim\":\"torso\"}",
           1, 4, 6);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", 0), -2);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "injury")), "mangled");
    json_t *dying = json_object_get(comb(&f, "e2"), "dying");
    ck_assert_int_eq(ival(dying, "unconscious"), 151);
    ck_assert_int_eq(ival(dying, "dead"), 301);
    ck_assert(!rules_enc_is_out(&f.e, "e2"));
    ck_assert(rules_enc_cond_has(&f.e, "e2", "daze")); /* aimed at the torso (001:416) */
    /* from one level to the next: mangled → mutilated, the sooner death wins */
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e2\",\"effect\":\"hit\",\"value\":2}");
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "injury")), "mutilated");
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e2"), "dying"), "dead"), 61);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "out")), "unconscious");
    rules_enc_set_out(&f.e, "e2", NULL); /* the GM stabilises e2 for the rest of the test */
    json_object_del(comb(&f, "e2"), "dying");
    /* the GM's hit 9 on e3: -8 is held at -5, mutilated: unconscious at once, dead in 2 minutes */
    ACT_NODICE(&f, NULL, "effect",
               "{\"target\":\"e3\",\"effect\":\"hit\",\"value\":9,"
               "\"part\":\"left_leg\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e3", "hp", 0), -5);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e3"), "out")), "unconscious");
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e3"), "dying"), "dead"), 61);
    ck_assert(rules_enc_cond_has(&f.e, "e3", "prone"));
    /* the turn pointer skips e3 */
    ACT_OK(&f, "e1", "end_turn", NULL, 4);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    refused(&f, "e2", "act", "{\"type\":\"free\",\"what\":\"x\"}", "dazed");
    ACT_NODICE(&f, "e2", "end_turn", NULL); /* dazed: cannot defend, nothing pre-rolled */
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    fx_free(&f);
}
END_TEST

/* ---- fatigue (001:284-314) ---- */

START_TEST(fatigue_rises_at_most_once_per_turn)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, NULL);
    rules_enc_stat_set(&f.e, "e1", "fatigue", 3);
    /* e1's attack d6 1 is below fatigue 3: 4 (001:286); before potential 1 < 3: it fails
     * (001:284) and e2 need not defend: the dodge rolled for it first (d6 4) stays held */
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e2\",\"c\":0,\"p\":9}", 4, 1);
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e2"), "defence"), "result"), 4);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "fatigue", 0), 4);
    json_t *res = json_object_get(json_array_get(f.e.log, json_array_size(f.e.log) - 1), "result");
    ck_assert(json_is_false(json_object_get(res, "fatigue_ok")));
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "defended"));
    /* e1's own dodge (d6 2) used against e2's attack: no second rise before e1's next turn */
    ACT_OK(&f, "e1", "end_turn", NULL, 2);
    ACT_OK(&f, "e2", "attack", "{\"target\":\"e1\",\"c\":0,\"p\":0}", 5);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "fatigue", 0), 4);
    ck_assert(json_is_true(json_object_get(comb(&f, "e1"), "fatigue_rose")));
    /* the dodge's 2 before potential was below fatigue 4: it fails, the attack hits */
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "hp", 0), 4);
    ACT_NODICE(&f, "e2", "end_turn", NULL); /* still holds its dodge 4 */
    ACT_OK(&f, "e3", "end_turn", NULL, 6);
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "fatigue_rose"));
    fx_free(&f);
}
END_TEST

START_TEST(a_breather_lowers_fatigue_to_no_less_than_base)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, NULL); /* stamina 2: base fatigue 2 */
    rules_enc_stat_set(&f.e, "e1", "fatigue", 3);
    /* ongoing: now, and the turn ends with -2 on defences (001:326): the dodge C-2 d6 4, d10 3 9 */
    ACT_OK(&f, "e1", "breather", NULL, 4, 3, 9);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "fatigue", 0), 2);
    ck_assert(rules_enc_cond_has(&f.e, "e1", "ongoing"));
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e1"), "defence"), "consistency"), -2);
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e1"), "defence"), "result"), 3);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    /* upcoming: e2's turn ends now, the breather finishes with its next standard action */
    rules_enc_stat_set(&f.e, "e2", "fatigue", 7);
    ACT_OK(&f, "e2", "breather", "{\"upcoming\":true}", 5);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "fatigue", 0), 7);
    ck_assert_ptr_nonnull(json_object_get(comb(&f, "e2"), "upcoming"));
    ACT_OK(&f, "e3", "end_turn", NULL, 5);
    ck_assert_ptr_null(rules_enc_cond(&f.e, "e1", "ongoing")); /* gone at e1's turn start */
    ACT_NODICE(&f, "e1", "end_turn", NULL);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e2", "standard"), 0);
    ck_assert_ptr_nonnull(json_object_get(comb(&f, "e2"), "continuing"));
    ACT_NODICE(&f, "e2", "end_turn", NULL);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "fatigue", 0), 5);
    fx_free(&f);
}
END_TEST

START_TEST(an_attack_interrupts_an_upcoming_action_and_cancel_gives_the_action_back)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, NULL);
    ACT_OK(&f, "e1", "act", "{\"type\":\"upcoming\",\"what\":\"crawl\"}", 3);
    ck_assert_ptr_nonnull(json_object_get(comb(&f, "e1"), "upcoming"));
    /* e2 attacks e1 (its held dodge 3; attack d6 2 → 2: miss) — still interrupted (001:327) */
    ACT_OK(&f, "e2", "attack", "{\"target\":\"e1\",\"c\":0,\"p\":0}", 2);
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "upcoming"));
    ACT_OK(&f, "e2", "end_turn", NULL, 2);
    /* e3: an upcoming action, cancelled at the start of its next turn */
    ACT_OK(&f, "e3", "act", "{\"type\":\"upcoming\",\"what\":\"crawl\"}", 2);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "standard"), 1); /* not lost */
    ACT_OK(&f, "e1", "end_turn", NULL, 6);
    ACT_NODICE(&f, "e2", "end_turn", NULL);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e3", "standard"), 0);
    ACT_NODICE(&f, "e3", "cancel", NULL);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e3", "standard"), 1);
    refused(&f, "e3", "cancel", NULL, "no upcoming action");
    fx_free(&f);
}
END_TEST

/* 001:434 prone: "a consistency penalty of two for all ... defences", applied when the defence
 * is used: e2 pre-rolls a dodge at C2 (d6 3, d10 5 7 → 7), then falls prone; e1's attack (7)
 * meets the same dice read at C0: the d6, 3. (Before issue 16 the dodge kept its 7 and the tie
 * went to the defender.) Standing up again before the attack gives the consistency back. */
START_TEST(prone_or_ongoing_after_the_pre_roll_still_costs_the_defence)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, DEF_ABILITIES);
    ACT_OK(&f, "e2", "defend", "{\"kind\":\"dodge\"}", 3, 5, 7);
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e2\",\"effect\":\"fall\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e2", "prone"));
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e2\",\"c\":1,\"p\":0}", 2, 7);
    json_t *res = json_object_get(json_array_get(f.e.log, json_array_size(f.e.log) - 1), "result");
    ck_assert_msg(json_is_true(json_object_get(res, "hit")), "the prone dodge (3) holds a 7");
    json_t *gm = json_object_get(
        json_object_get(json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1), "result"),
        "defence");
    if (gm) {
        ck_assert_int_eq(ival(gm, "consistency"), 0);
        ck_assert_int_eq(ival(gm, "result"), 3);
    }
    fx_free(&f);
}
END_TEST

/* ---- action types and effects ---- */

START_TEST(free_actions_once_each_ongoing_ends_the_turn)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, NULL);
    ACT_NODICE(&f, "e1", "act", "{\"type\":\"free\",\"what\":\"Speak\"}");
    refused(&f, "e1", "act", "{\"type\":\"free\",\"what\":\"speak\"}", "already used the free");
    ACT_NODICE(&f, "e1", "act", "{\"type\":\"standard\",\"what\":\"move\"}");
    refused(&f, "e1", "act", "{\"type\":\"standard\",\"what\":\"draw\"}", "no standard left");
    refused(&f, "e1", "act", "{\"type\":\"ongoing\",\"what\":\"climb\"}", "no standard left");
    tb_err err = {0};
    ck_assert_int_eq(
        fx_act(&f, "e1", "act", "{\"type\":\"sideways\",\"what\":\"x\"}", NULL, 0, &err),
        TB_BAD_REQUEST);
    ACT_OK(&f, "e1", "end_turn", NULL, 1);
    ACT_OK(&f, "e2", "act", "{\"type\":\"ongoing\",\"what\":\"climb\"}", 4, 5, 6);
    ck_assert(rules_enc_cond_has(&f.e, "e2", "ongoing"));
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    /* prone: stand up is a free action, but not while fallen */
    ACT_NODICE(&f, "e3", "drop_prone", NULL);
    refused(&f, "e3", "drop_prone", NULL, "already used");
    ACT_NODICE(&f, "e3", "stand", NULL);
    ck_assert(!rules_enc_cond_has(&f.e, "e3", "prone"));
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e3\",\"effect\":\"fall\"}");
    refused(&f, "e3", "stand", NULL, "cannot stand up yet");
    fx_free(&f);
}
END_TEST

START_TEST(effects_last_half_their_seconds_in_turns)
{
    static const struct {
        const char *effect;
        int secs, turns;
    } T[] = {{"stumble", 5, 2}, {"weaken", 2, 1}, {"bind", 4, 2}, {"drop", 7, 3}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        fixture f;
        fx_init(&f);
        fx_three(&f, NULL);
        static const char *const ALL[] = {"e1", "e2", "e3"};
        for (int k = 0; k < 3; k++) /* no defences: no dice at the ends of turns */
            rules_enc_cond_add(&f.e, ALL[k], "helpless", 0, 0);
        char p[120];
        snprintf(p, sizeof p, "{\"target\":\"e1\",\"effect\":\"%s\",\"value\":%d}", T[i].effect,
                 T[i].secs);
        ACT_NODICE(&f, NULL, "effect", p);
        ck_assert_int_eq(ival(rules_enc_cond(&f.e, "e1", T[i].effect), "turns"), T[i].turns);
        /* counted down at the end of each of e1's turns */
        for (int k = 0; k < T[i].turns; k++) {
            ck_assert(rules_enc_cond_has(&f.e, "e1", T[i].effect));
            ACT_NODICE(&f, "e1", "end_turn", NULL);
            ACT_NODICE(&f, "e2", "end_turn", NULL);
            ACT_NODICE(&f, "e3", "end_turn", NULL);
        }
        ck_assert(!rules_enc_cond_has(&f.e, "e1", T[i].effect));
        fx_free(&f);
    }
}
END_TEST

START_TEST(an_odd_daze_allows_defending_from_the_start_of_its_last_turn)
{
    fixture f;
    fx_init(&f);
    fx_three(&f, NULL);
    ACT_OK(&f, "e1", "end_turn", NULL, 6);
    /* daze 3: one turn (001:270); no attacks, no defences (001:128) */
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e2\",\"effect\":\"daze\",\"value\":3}");
    refused(&f, "e2", "defend", "{\"kind\":\"dodge\"}", "cannot make defensive rolls");
    refused(&f, "e2", "attack", "{\"target\":\"e1\",\"c\":0,\"p\":0}", "dazed");
    /* got in this very turn, it passes at its end: the next dodge is rolled then (d6 3) */
    ACT_OK(&f, "e2", "end_turn", NULL, 3);
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "daze"));
    /* its end in words (rules/encounter.c "expire", the word cond.daze): never "no longer daze" */
    int said = 0;
    size_t i;
    json_t *entry;
    json_array_foreach(f.e.log, i, entry) said |=
        strstr(json_string_value(json_object_get(entry, "text")), "is no longer dazed") != NULL;
    ck_assert_msg(said, "the daze's end is not said in words");
    /* daze 3 again, outside e2's turn: odd, so e2 defends from the start of that turn (001:280) */
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e2\",\"effect\":\"daze\",\"value\":3}");
    ACT_OK(&f, "e3", "end_turn", NULL, 2);
    ACT_NODICE(&f, "e1", "end_turn", NULL); /* still holds its dodge 6 */
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert(json_is_true(json_object_get(rules_enc_cond(&f.e, "e2", "daze"), "defend")));
    /* its held dodge 3 meets e1's attack (d6 4: hit), and counts as used; the GM hands e1 the
     * turn for it and back (enc.set /enc/turn: an attack is a turn action, enc_fixture.h) */
    json_object_set_new(f.enc, "turn", json_integer(0));
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e2\",\"c\":0,\"p\":0}", 4);
    json_object_set_new(f.enc, "turn", json_integer(1));
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e2"), "defended"), "dodge"), 1);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", 0), 4);
    refused(&f, "e2", "attack", "{\"target\":\"e1\",\"c\":0,\"p\":0}", "dazed");
    /* daze 1: no turn, but no defence until the start of the next turn (001:280) */
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e3\",\"effect\":\"daze\",\"value\":1}");
    ck_assert(rules_enc_cond_has(&f.e, "e3", "no_defence"));
    ck_assert(!rules_enc_cond_has(&f.e, "e3", "daze"));
    refused(&f, "e3", "defend", "{\"kind\":\"dodge\"}", "cannot make defensive rolls");
    fx_free(&f);
}
END_TEST

/* ---- secrets ---- */

START_TEST(an_npc_defence_and_numbers_stay_in_the_gm_half)
{
    fixture f;
    fx_init(&f);
    fx_add(&f, "e1", "Ann", "p1", 0, sheet(0, 2, 1, 5, 1, NULL));
    fx_add(&f, "e2", "Orc", "gm", 1, sheet(0, 2, 0, 3, 1, NULL));
    ACT_OK(&f, NULL, "begin", NULL, 6, 1);
    size_t pub0 = json_array_size(f.e.log);
    /* the orc holds no defence: a dodge (d6 2) before the attack (d6 6, P0 → 6: hit) */
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e2\",\"c\":0,\"p\":0}", 2, 6);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", 0), 2);
    for (size_t i = pub0; i < json_array_size(f.e.log); i++) {
        json_t *l = json_array_get(f.e.log, i);
        const char *text = json_string_value(json_object_get(l, "text"));
        ck_assert_msg(!strstr(text, "HP"), "public: %s", text);
        ck_assert_ptr_null(json_object_get(json_object_get(l, "result"), "defence"));
        if (strcmp(json_string_value(json_object_get(l, "action")), "defend") == 0)
            ck_assert_ptr_null(json_object_get(l, "dice"));
    }
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "stats"));
    ACT_OK(&f, "e1", "end_turn", NULL, 3);
    /* the orc's end-of-turn dodge: its value hidden, the stance public */
    ACT_OK(&f, "e2", "end_turn", NULL, 4);
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "defence"));
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "stance")), "dodge");
    ck_assert_int_eq(ival(json_object_get(rules_enc_hidden_of(&f.e, "e2"), "defence"), "result"),
                     4);
    /* an NPC's readied action: public marker, hidden trigger */
    ACT_OK(&f, "e1", "end_turn", NULL);
    ACT_NODICE(&f, "e2", "ready", "{\"trigger\":\"the secret signal\",\"c\":0,\"p\":0}");
    ck_assert(json_is_true(json_object_get(comb(&f, "e2"), "readied")));
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "ready"));
    char *dump = json_dumps(f.enc, 0);
    ck_assert_ptr_null(strstr(dump, "secret signal"));
    free(dump);
    dump = json_dumps(f.e.log, 0);
    ck_assert_ptr_null(strstr(dump, "secret signal"));
    free(dump);
    fx_free(&f);
}
END_TEST

/* ---- who may act: the server's check (server/ops_enc.c check_who) on this table ---- */

START_TEST(the_action_table_says_who_may_act)
{
    const rules_module *m = rules_module_find("heimr.combat");
    ck_assert_ptr_null(m->may_act); /* TURN actions: the current entry of the order only */
    static const struct {
        const char *name;
        rules_enc_who who;
    } T[] = {{"begin", RULES_ENC_GM},      {"attack", RULES_ENC_TURN},
             {"delay", RULES_ENC_TURN},    {"ready", RULES_ENC_TURN},
             {"trigger", RULES_ENC_OWNER}, {"defend", RULES_ENC_OWNER},
             {"end_turn", RULES_ENC_TURN}, {"effect", RULES_ENC_GM}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        const rules_enc_action *a = rules_module_action(m, T[i].name);
        ck_assert_ptr_nonnull(a);
        ck_assert_int_eq(a->who, T[i].who);
        ck_assert_ptr_nonnull(a->cite);
    }
    /* a player controls only their own PC */
    fixture f;
    fx_init(&f);
    fx_three(&f, NULL);
    f.e.is_gm = 0;
    f.e.seat = "p2";
    ck_assert(!rules_enc_controls(&f.e, "e1"));
    ck_assert(rules_enc_controls(&f.e, "e2"));
    ck_assert_str_ne(rules_enc_current(&f.e), "e2"); /* e2 would be refused: e1's turn */
    fx_free(&f);
}
END_TEST

/* ---- heimr.chase (001:300-306) ---- */

/* Athletics C1 from dexterity: a d6 (its face checks fatigue), then one d10; the die is the
 * higher of the two (001:71-81). */
static const char *RUNNING = "[{\"name\":\"Athletics\",\"attributes\":[\"dex\"],"
                             "\"base_consistency\":1}]";

static json_t *last_entry(json_t *log, const char *action)
{
    for (size_t i = json_array_size(log); i-- > 0;) {
        json_t *x = json_array_get(log, i);
        if (strcmp(json_string_value(json_object_get(x, "action")), action) == 0)
            return x;
    }
    return NULL;
}

static const char *last_text(fixture *f, const char *action)
{
    json_t *x = last_entry(f->e.log, action);
    ck_assert_ptr_nonnull(x);
    return json_string_value(json_object_get(x, "text"));
}

/* Ann (party, dex 2, fatigue 2) runs from an Orc (NPC, dex 1, fatigue 1) on Athletics. */
static void fx_chase(fixture *f, int distance)
{
    char opts[120];
    snprintf(opts, sizeof opts,
             "{\"ability\":\"Athletics\",\"target_side\":\"party\",\"distance\":%d}", distance);
    fx_init_module(f, "heimr.chase", opts);
    fx_add(f, "e1", "Ann", "p1", 0, sheet(2, 2, 1, 5, 2, RUNNING));
    fx_add(f, "e2", "Orc", "gm", 1, sheet(1, 2, 1, 5, 1, RUNNING));
    ck_assert_int_eq(ival(comb(f, "e2"), "distance"), distance);
    ACT_NODICE(f, NULL, "begin", NULL);
    ck_assert_str_eq(order_at(f, 0), "e1");
    ck_assert_str_eq(order_at(f, 1), "e2");
}

START_TEST(chase_squares_move_by_three_and_a_tired_target_is_caught)
{
    fixture f;
    fx_chase(&f, 2);
    /* the GM moves the turn on to the Orc (enc.set /enc/turn) before Ann ran */
    json_object_set_new(f.enc, "turn", json_integer(1));
    refused(&f, "e2", "run", NULL, "Ann has not run yet: the target rolls first");
    json_object_set_new(f.enc, "turn", json_integer(0));
    /* Ann: d6 1 below fatigue 2 raises it to 3 (001:286); d10 5 + 2 = 7 */
    ACT_OK(&f, "e1", "run", NULL, 1, 5);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "fatigue", 0), 3);
    ck_assert_str_eq(last_text(&f, "run"), "Ann runs on: Athletics 7 (fatigue 2 → 3)");
    /* the Orc: 9 + 1 = 10, three higher: one square closer (001:302) */
    ACT_OK(&f, "e2", "run", NULL, 4, 9);
    ck_assert_int_eq(ival(comb(&f, "e2"), "distance"), 1);
    ck_assert_str_eq(last_text(&f, "run"), "Orc gains a square on Ann: 1 left");
    /* an NPC's roll is the GM's */
    ck_assert_ptr_null(json_object_get(last_entry(f.e.log, "run"), "dice"));
    ck_assert_int_eq(ival(json_object_get(last_entry(f.e.gm_log, "run"), "result"), "result"), 10);
    /* round 2: Ann 3 + 2 = 5 (fatigue 3 → 4: it never falls in a chase, 001:304); the Orc 1 + 1
     * = 2, three lower: Ann gains a square */
    ACT_OK(&f, "e1", "run", NULL, 2, 3);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "fatigue", 0), 4);
    ACT_OK(&f, "e2", "run", NULL, 1, 1);
    ck_assert_int_eq(ival(comb(&f, "e2"), "distance"), 2);
    ck_assert_str_eq(last_text(&f, "run"), "Orc falls a square behind Ann: 2");
    /* a terrain decision (001:306): only the target takes it */
    refused(&f, "e1", "choose", NULL, "the GM has offered no other terrain");
    ACT_NODICE(&f, NULL, "offer", "{\"ability\":\"Brawl\"}");
    refused(&f, "e2", "choose", NULL, "only the one being chased chooses the terrain");
    ACT_NODICE(&f, "e1", "choose", "{\"take\":1}");
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "ability")), "Brawl");
    /* round 3 on Brawl (C0: the d6 is the die): 3 before potential is below fatigue 4: Ann is
     * out of breath and caught (001:304) */
    ACT_OK(&f, "e1", "run", NULL, 3);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e1"), "out")), "caught");
    ck_assert_str_eq(last_text(&f, "run"),
                     "Ann runs out of breath: the chasers reach them: Brawl 4 "
                     "(fatigue 4 → 5)");
    fx_free(&f);
}
END_TEST

START_TEST(chase_catching_up_and_a_tired_chaser_drops_out)
{
    fixture f;
    fx_chase(&f, 1);
    ACT_OK(&f, "e1", "run", NULL, 6, 1); /* 6 + 2 = 8 */
    /* 10 + 1 = 11 would pass Ann: the Orc reaches her and may act instead (001:302) */
    ACT_OK(&f, "e2", "run", NULL, 6, 10);
    ck_assert_int_eq(ival(comb(&f, "e2"), "distance"), 0);
    ck_assert_str_eq(last_text(&f, "run"), "Orc catches up with Ann and may act against them "
                                           "instead of running past");
    ACT_OK(&f, "e1", "run", NULL, 6, 1);
    rules_enc_stat_set(&f.e, "e2", "fatigue", 9);
    /* 6 before potential is below fatigue 9: the Orc drops out, Ann escapes (001:304) */
    ACT_OK(&f, "e2", "run", NULL, 6, 5);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e2"), "out")), "shaken off");
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e1"), "out")), "escaped");
    ck_assert_str_eq(last_text(&f, "escape"), "Ann escapes: nobody chases them any more");
    fx_free(&f);
}
END_TEST

/* ---- guarding, restraint and forced movement (001:345, 401, 407, 448-465; issue 17) ---- */

/* refused (enc_fixture.h), and the encounter, its hidden half and both logs are byte for byte
 * what they were: a refusal changes nothing. */
static int refused_same(fixture *f, const char *actor, const char *name, const char *params,
                        const char *needle)
{
    json_t *all = json_pack("[O, O, O, O]", f->enc, f->hidden, f->e.log, f->e.gm_log);
    char *before = json_dumps(all, JSON_SORT_KEYS);
    int rc = refused(f, actor, name, params, needle);
    char *after = json_dumps(all, JSON_SORT_KEYS);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    json_decref(all);
    return rc;
}

/* Ann, Bob and Cat (party) and an Orc (NPC, foes), all dex 0, willpower 1, fatigue 2: ordered
 * Ann, Bob, Orc, Cat by initiative d6 6, 5, 3 (Cat), 4 (Orc). */
static void fx_four(fixture *f)
{
    fx_init(f);
    fx_add(f, "e1", "Ann", "p1", 0, sheet(0, 2, 1, 5, 2, NULL));
    fx_add(f, "e2", "Bob", "p2", 0, sheet(0, 2, 1, 5, 2, NULL));
    fx_add(f, "e3", "Cat", "p3", 0, sheet(0, 2, 1, 5, 2, NULL));
    fx_add(f, "e4", "Orc", "gm", 1, sheet(0, 2, 1, 5, 2, NULL));
    ACT_OK(f, NULL, "begin", NULL, 6, 5, 3, 4);
    ck_assert_str_eq(order_at(f, 2), "e4");
    ck_assert_str_eq(order_at(f, 3), "e3");
}

static const char *str_of(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

START_TEST(a_guard_takes_the_attack_first_guard_from_the_attacker_on_and_ends)
{
    fixture f;
    fx_four(&f);
    ACT_NODICE(&f, "e1", "guard", "{\"target\":\"e2\"}");
    ck_assert_str_eq(str_of(comb(&f, "e1"), "guarding"), "e2");
    refused_same(&f, "e1", "guard", "{\"target\":\"e4\"}", "guards allies only");
    refused_same(&f, "e1", "guard", "{\"target\":\"e1\"}", "cannot guard themselves");
    refused_same(&f, "e1", "guard", "{\"target\":\"e2\"}", "already guards Bob");
    ck_assert_int_eq(refused_same(&f, "e1", "guard", "{\"target\":\"zz\"}", "no combatant"),
                     TB_NOT_FOUND);
    /* standing down, and the free action is once a turn (001:325) */
    ACT_NODICE(&f, "e1", "stand_down", NULL);
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "guarding"));
    refused_same(&f, "e1", "stand_down", NULL, "guarding nobody");
    refused_same(&f, "e1", "guard", "{\"target\":\"e3\"}", "already used the free action 'guard'");
    ACT_OK(&f, "e1", "end_turn", NULL, 3);
    ACT_NODICE(&f, "e2", "guard", "{\"target\":\"e3\"}");
    ACT_OK(&f, "e2", "end_turn", NULL, 3);
    ACT_OK(&f, "e4", "end_turn", NULL, 2);
    ACT_NODICE(&f, "e3", "guard", "{\"target\":\"e1\"}");
    ACT_OK(&f, "e3", "end_turn", NULL, 3);
    /* round 2: Ann guards Cat too; Bob and Ann both guard Cat now */
    ACT_NODICE(&f, "e1", "guard", "{\"target\":\"e3\"}");
    ACT_NODICE(&f, "e1", "end_turn", NULL);
    ACT_NODICE(&f, "e2", "end_turn", NULL);
    /* the Orc attacks Cat: from the Orc's place in the order (Orc, Cat, Ann, Bob) Ann is the
     * first guard (001:452); her dodge 3 against 5: hit, torso */
    ACT_OK(&f, "e4", "attack", "{\"target\":\"e3\",\"c\":0,\"p\":0}", 5);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "hp", 0), 4);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e3", "hp", 0), 5);
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "guarding")); /* 001:452 it ends */
    ck_assert_str_eq(str_of(comb(&f, "e2"), "guarding"), "e3");
    ck_assert_str_eq(last_text(&f, "guard"),
                     "Ann steps in front of Cat: Orc's attack is directed at Ann");
    json_t *x = last_entry(f.e.log, "attack");
    ck_assert_str_eq(str_of(json_object_get(x, "result"), "target"), "e1");
    /* a dazed guard cannot respond (heimr encounter reading 13): Bob's guard lets the next attack
     * on Cat through */
    ACT_NODICE(&f, "e4", "end_turn", NULL); /* the Orc still holds its dodge */
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e2\",\"effect\":\"daze\",\"value\":4}");
    ACT_NODICE(&f, "e3", "end_turn", NULL);
    ACT_OK(&f, "e1", "end_turn", NULL, 3);
    ACT_NODICE(&f, "e2", "end_turn", NULL);
    ACT_OK(&f, "e4", "attack", "{\"target\":\"e3\",\"c\":0,\"p\":0}", 5);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e3", "hp", 0), 4);
    ck_assert_str_eq(str_of(comb(&f, "e2"), "guarding"), "e3");
    fx_free(&f);
}
END_TEST

START_TEST(a_guard_dodging_a_shot_lets_it_fly_on_and_a_block_stops_it)
{
    fixture f;
    fx_four(&f);
    ACT_NODICE(&f, "e1", "guard", "{\"target\":\"e2\"}");
    ACT_OK(&f, "e1", "end_turn", NULL, 5); /* Ann's dodge 5 */
    ACT_OK(&f, "e2", "end_turn", NULL, 3); /* Bob's dodge 3 */
    /* the Orc shoots at Bob: 4 against Ann's dodge 5, a miss; the same 4 flies on against Bob's
     * dodge 3: hit, sword arm (001:450; heimr encounter reading 12) */
    ACT_OK(&f, "e4", "attack", "{\"target\":\"e2\",\"c\":0,\"p\":0,\"ranged\":1}", 4);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "hp", 0), 5);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", 0), 4);
    ck_assert_str_eq(last_text(&f, "guard"), "Ann dodges: the shot flies on to Bob");
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "guarding"));
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e1"), "defended"), "dodge"), 1);
    ck_assert_int_eq(ival(json_object_get(comb(&f, "e2"), "defended"), "dodge"), 1);
    ACT_OK(&f, "e4", "end_turn", NULL, 2);
    ACT_OK(&f, "e3", "end_turn", NULL, 3);
    /* round 2: Ann guards Bob with a block (Brawl C0 P1: 5 → 6); Bob's new dodge 3 */
    ACT_NODICE(&f, "e1", "guard", "{\"target\":\"e2\"}");
    ACT_OK(&f, "e1", "end_turn", "{\"defence\":\"block\",\"ability\":\"Brawl\"}", 5);
    ACT_OK(&f, "e2", "end_turn", NULL, 3);
    /* 4 against the block 6: the shot is stopped and never reaches Bob */
    ACT_OK(&f, "e4", "attack", "{\"target\":\"e2\",\"c\":0,\"p\":0,\"ranged\":1}", 4);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "hp", 0), 4);
    ck_assert_ptr_nonnull(json_object_get(comb(&f, "e2"), "defence")); /* Bob's dodge unused */
    fx_free(&f);
}
END_TEST

START_TEST(a_grab_holds_the_leg_stops_the_held_and_a_hit_back_breaks_it)
{
    fixture f;
    fx_four(&f);
    refused_same(&f, "e1", "attack", "{\"target\":\"e4\",\"bind\":1,\"c\":0,\"p\":0}",
                 "give 'brawl'");
    /* Ann grabs the Orc: its dodge (d6 2) first, then her Brawl C0 P1: d6 2 → 3, right leg */
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e4\",\"brawl\":1,\"bind\":1,\"ability\":\"Brawl\"}",
           2, 2);
    json_t *hb = json_object_get(comb(&f, "e4"), "held_by");
    ck_assert_str_eq(str_of(hb, "by"), "e1");
    ck_assert_str_eq(str_of(hb, "part"), "right_leg");
    ck_assert_str_eq(str_of(comb(&f, "e1"), "holding"), "e4");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e4", "hp", 0), 5); /* a grab, not a hit 1 */
    ck_assert(strstr(last_text(&f, "attack"), "Ann grabs Orc by the right leg") != NULL);
    refused_same(&f, "e1", "attack",
                 "{\"target\":\"e2\",\"brawl\":1,\"bind\":1,\"ability\":\"Brawl\"}",
                 "one grab at a time");
    /* 001:407 the holder makes no defensive rolls */
    refused_same(&f, "e1", "defend", "{\"kind\":\"dodge\"}", "cannot make defensive rolls");
    ACT_NODICE(&f, "e1", "end_turn", NULL);
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "defence"));
    /* the Orc, unwilling and held, takes three to move, the holder among them (001:464) */
    refused_same(&f, "e2", "carry", "{\"target\":\"e4\",\"helpers\":\"e3\"}",
                 "Orc is unwilling and held: it takes 3 to move them, and 2 are at it");
    ACT_NODICE(&f, "e2", "carry",
               "{\"target\":\"e4\",\"helpers\":\"ann, Cat\",\"to\":\"into the corner\"}");
    ck_assert_str_eq(last_text(&f, "carry"), "Bob, Ann and Cat move Orc into the corner: Orc is "
                                             "unwilling and held, 3 needed");
    ACT_OK(&f, "e2", "end_turn", NULL, 3);
    /* held by the leg, the Orc cannot move (001:134-135) */
    refused_same(&f, "e4", "act", "{\"type\":\"standard\",\"what\":\"Move away\"}",
                 "held by the right leg and cannot move");
    /* its attack meets Ann's grip first: her Brawl d6 4 → 5 to beat; its 3 is stopped */
    size_t pub0 = json_array_size(f.e.log);
    ACT_OK(&f, "e4", "attack", "{\"target\":\"e1\",\"c\":0,\"p\":0}", 4, 3);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "hp", 0), 5);
    ck_assert_str_eq(str_of(comb(&f, "e1"), "holding"), "e4");
    ck_assert_str_eq(last_text(&f, "attack"), "Orc tries to attack Ann, but Ann's grip stops it");
    for (size_t i = pub0; i < json_array_size(f.e.log); i++) /* the Orc's roll is the GM's */
        if (rules_enc_streq(str_of(json_array_get(f.e.log, i), "action"), "attack"))
            ck_assert_ptr_null(json_object_get(json_array_get(f.e.log, i), "dice"));
    ck_assert(strstr(json_string_value(json_object_get(last_entry(f.e.gm_log, "attack"), "text")),
                     "(attack 3)") != NULL);
    ACT_OK(&f, "e4", "end_turn", NULL, 2);
    /* Cat lent a hand: her standard action went into it */
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e3", "standard"), 0);
    ACT_OK(&f, "e3", "end_turn", NULL, 3);
    ACT_NODICE(&f, "e1", "end_turn", NULL);
    ACT_NODICE(&f, "e2", "end_turn", NULL);
    /* round 2: the grip (d6 2 → 3) does not stop 5: it breaks, and Ann, who could not defend,
     * is hit in the torso (001:407) */
    ACT_OK(&f, "e4", "attack", "{\"target\":\"e1\",\"c\":0,\"p\":0}", 2, 5);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "hp", 0), 4);
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "holding"));
    ck_assert_ptr_null(json_object_get(comb(&f, "e4"), "held_by"));
    ck_assert_str_eq(last_text(&f, "release"),
                     "Ann no longer holds Orc: the attack breaks the grip");
    fx_free(&f);
}
END_TEST

START_TEST(breaking_free_beats_the_holders_brawl_and_letting_go_is_free)
{
    fixture f;
    fx_four(&f);
    ACT_OK(&f, "e1", "end_turn", NULL, 3);
    /* Bob grabs the Orc by the torso: its dodge 2, his Brawl 5 + 1 = 6 */
    ACT_OK(&f, "e2", "attack", "{\"target\":\"e4\",\"brawl\":1,\"bind\":1,\"ability\":\"Brawl\"}",
           2, 5);
    ck_assert_str_eq(str_of(json_object_get(comb(&f, "e4"), "held_by"), "part"), "torso");
    ACT_NODICE(&f, "e2", "end_turn", NULL);
    refused_same(&f, "e4", "break_free", "{\"ability\":\"Perception\"}", "not a physical ability");
    /* Bob's Brawl d6 5 → 6 to beat; the Orc's Brawl d6 4 → 5: still held */
    ACT_OK(&f, "e4", "break_free", NULL, 5, 4);
    ck_assert_str_eq(str_of(json_object_get(comb(&f, "e4"), "held_by"), "by"), "e2");
    json_t *x = last_entry(f.e.log, "break_free");
    ck_assert_str_eq(str_of(x, "text"), "Orc tries to break Bob's grip: still held");
    ck_assert_ptr_null(json_object_get(x, "dice"));
    refused_same(&f, "e4", "break_free", NULL, "standard");
    ACT_OK(&f, "e4", "end_turn", NULL, 2); /* its dodge was used by Bob's attack */
    ACT_OK(&f, "e3", "end_turn", NULL, 3);
    ACT_NODICE(&f, "e1", "end_turn", NULL);
    ACT_NODICE(&f, "e2", "end_turn", NULL);
    /* round 2: Bob's Brawl d6 1 fails his fatigue 2 (and raises it): no grip to beat; the Orc's
     * 3 + 1 passes its own fatigue: free */
    ACT_OK(&f, "e4", "break_free", NULL, 1, 3);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "fatigue", 0), 3);
    ck_assert_ptr_null(json_object_get(comb(&f, "e4"), "held_by"));
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "holding"));
    refused_same(&f, "e4", "break_free", NULL, "nobody holds Orc");
    refused_same(&f, "e2", "release", NULL, "Bob holds nobody");
    /* letting go: any time, the holder's own call (001:407) */
    ACT_NODICE(&f, "e4", "end_turn", NULL); /* the Orc's dodge 2 is still held */
    ACT_OK(&f, "e3", "attack", "{\"target\":\"e4\",\"brawl\":1,\"bind\":1,\"ability\":\"Brawl\"}",
           5);
    ck_assert_str_eq(str_of(comb(&f, "e3"), "holding"), "e4");
    ACT_NODICE(&f, "e3", "release", NULL);
    ck_assert_ptr_null(json_object_get(comb(&f, "e4"), "held_by"));
    fx_free(&f);
}
END_TEST

START_TEST(moving_someone_takes_as_many_hands_as_the_book_says)
{
    fixture f;
    fx_four(&f);
    refused_same(&f, "e1", "carry", "{\"target\":\"e4\"}",
                 "Orc is unwilling: it takes 4 to move them, and 1 is at it");
    refused_same(&f, "e1", "carry", "{\"target\":\"e4\",\"helpers\":\"e2,e3\"}", "3 are at it");
    refused_same(&f, "e1", "carry", "{\"target\":\"e4\",\"helpers\":\"e2,e2\"}", "named twice");
    ck_assert_int_eq(refused_same(&f, "e1", "carry", "{\"target\":\"e4\",\"helpers\":\"Zed\"}",
                                  "nobody called 'Zed'"),
                     TB_NOT_FOUND);
    refused_same(&f, "e1", "carry", "{\"target\":\"e1\"}", "on their own");
    /* dazed, the Orc can neither stand nor resist: two carry it (001:463) */
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e4\",\"effect\":\"daze\",\"value\":4}");
    ACT_NODICE(&f, "e1", "carry", "{\"target\":\"e4\",\"helpers\":\"e2\"}");
    ck_assert_str_eq(str_of(comb(&f, "e2"), "lending"), "e4");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "standard"), 0);
    ACT_OK(&f, "e1", "end_turn", NULL, 3);
    /* Bob's standard action went into it; a willing Cat takes one, but he has none left */
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e2", "standard"), 0);
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "lending"));
    ck_assert_str_eq(last_text(&f, "carry"),
                     "Bob's standard action this turn went into moving Orc");
    refused_same(&f, "e2", "carry", "{\"target\":\"e3\"}", "standard");
    fx_free(&f);
}
END_TEST

START_TEST(the_ground_height_cover_difficult_terrain_and_a_blind_spot_shape_attacks)
{
    fixture f;
    fx_four(&f);
    /* 001:517 two positions higher: no melee attack, before any die */
    ACT_NODICE(&f, NULL, "ground", "{\"target\":\"e4\",\"height\":2}");
    refused_same(&f, "e1", "attack", "{\"target\":\"e4\",\"c\":0,\"p\":0}",
                 "Orc stands 2 higher than Ann: too far for a melee attack");
    /* one higher: C-1 (the Orc's dodge d6 2; Ann's d6 5, d10 7 → the lowest, 5: hit) */
    ACT_NODICE(&f, NULL, "ground", "{\"target\":\"e4\",\"height\":1}");
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e4\",\"c\":0,\"p\":0}", 2, 5, 7);
    json_t *res = json_object_get(last_entry(f.e.log, "attack"), "result");
    ck_assert_int_eq(ival(json_object_get(res, "attack"), "consistency"), -1);
    ck_assert(json_is_true(json_object_get(res, "hit")));
    ACT_OK(&f, "e1", "end_turn", NULL, 3);
    /* 001:540 cover 2 against a shot: Bob's C2 becomes C0 (d6 6); the Orc's second dodge C-2
     * (001:426): d6 3, d10 4 5 → 3 */
    ACT_NODICE(&f, NULL, "ground", "{\"target\":\"e4\",\"concealment\":2}");
    ck_assert_str_eq(last_text(&f, "ground"), "Orc stands at height 1, behind cover 2");
    ACT_OK(&f, "e2", "attack", "{\"target\":\"e4\",\"c\":2,\"p\":0,\"ranged\":1}", 3, 4, 5, 6);
    res = json_object_get(last_entry(f.e.log, "attack"), "result");
    ck_assert_int_eq(ival(json_object_get(res, "attack"), "consistency"), 0);
    ck_assert(json_is_true(json_object_get(res, "hit")));
    ACT_OK(&f, "e2", "end_turn", NULL, 3);
    ACT_OK(&f, "e4", "end_turn", NULL, 2);
    /* 001:475 difficult terrain: the dodge C-1 (d6 4, d10 6 → 4) */
    ACT_NODICE(&f, NULL, "ground", "{\"target\":\"e3\",\"difficult\":1}");
    ACT_OK(&f, "e3", "end_turn", NULL, 4, 6);
    json_t *d = json_object_get(comb(&f, "e3"), "defence");
    ck_assert_int_eq(ival(d, "consistency"), -1);
    ck_assert_int_eq(ival(d, "situational"), 1);
    /* 001:562 a shot from Cat's blind spot: her dodge is read at C-6 (five more d10s: 2 9 9 9 9
     * → the lowest, 2), and Ann's 3 hits (heimr encounter reading 20) */
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e3\",\"c\":0,\"p\":0,\"ranged\":1,\"blind_spot\":1}",
           3, 2, 9, 9, 9, 9);
    res = json_object_get(last_entry(f.e.log, "attack"), "result");
    ck_assert_int_eq(ival(json_object_get(res, "defence"), "consistency"), -6);
    ck_assert_int_eq(ival(json_object_get(res, "defence"), "result"), 2);
    ck_assert(json_is_true(json_object_get(res, "hit")));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e3", "hp", 0), 4);
    fx_free(&f);
}
END_TEST

/* Heimr's grid read from the scene's map (issue 30; rules/RULES.md, heimr encounter reading 23):
 * a melee attack needs the same square (001:256); a shot at another square has half the
 * distance along the axes as its penalty (001:262-264: a diagonal neighbour is two away); a
 * combatant whose token is not shown on the map is placed by the GM's word (no refusal). */
START_TEST(the_map_decides_melee_reach_and_the_range_penalty)
{
    fixture f;
    fx_four(&f);
    json_t *sq = json_loads("{\"e1\":{\"id\":\"e1\",\"cid\":\"e1\",\"x\":0,\"y\":0},"
                            "\"e4\":{\"id\":\"e4\",\"cid\":\"e4\",\"x\":1,\"y\":1},"
                            "\"m1\":{\"id\":\"m1\",\"label\":\"Door\",\"x\":0,\"y\":0}}",
                            0, NULL);
    f.e.squares = sq;
    refused_same(&f, "e1", "attack", "{\"target\":\"e4\",\"c\":0,\"p\":0}",
                 "Orc is 2 squares away from Ann: a melee attack needs the same square");
    /* three squares away (two right, one down): C-1, the dice of the ground test's C-1 */
    json_object_set_new(json_object_get(sq, "e4"), "x", json_integer(2));
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e4\",\"c\":0,\"p\":0,\"ranged\":1}", 2, 5, 7);
    json_t *res = json_object_get(last_entry(f.e.log, "attack"), "result");
    ck_assert_int_eq(ival(json_object_get(res, "attack"), "consistency"), -1);
    ACT_OK(&f, "e1", "end_turn", NULL, 3);
    /* Bob is not on the map: his melee attack is the GM's word, not refused (the Orc's second
     * dodge and Bob's roll) */
    json_object_set_new(json_object_get(sq, "e4"), "x", json_integer(0));
    json_object_set_new(json_object_get(sq, "e4"), "y", json_integer(0));
    ACT_OK(&f, "e2", "attack", "{\"target\":\"e4\",\"c\":0,\"p\":0}", 3, 4, 5, 6);
    f.e.squares = NULL;
    json_decref(sq);
    fx_free(&f);
}
END_TEST

START_TEST(an_effect_on_the_holder_loosens_the_grip)
{
    fixture f;
    fx_four(&f);
    ACT_OK(&f, "e1", "attack", "{\"target\":\"e4\",\"brawl\":1,\"bind\":1,\"ability\":\"Brawl\"}",
           2, 2);
    ck_assert_str_eq(str_of(comb(&f, "e1"), "holding"), "e4");
    refused_same(&f, NULL, "effect", "{\"target\":\"e1\",\"effect\":\"shove\"}",
                 "'effect' must be");
    /* 001:407 "the bind effect also ends if you receive an effect" */
    ACT_NODICE(&f, NULL, "effect", "{\"target\":\"e1\",\"effect\":\"stumble\"}");
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "holding"));
    ck_assert_ptr_null(json_object_get(comb(&f, "e4"), "held_by"));
    ck_assert_str_eq(last_text(&f, "release"),
                     "Ann no longer holds Orc: the effect loosens their grip");
    fx_free(&f);
}
END_TEST

/* ---- issue 23: checks before dice, the book's action types, an NPC's readied action ---- */

/* RULES.md heimr encounter reading 21: C -20, a penalty of 20 and aiming is C -42, rolled as
 * C -40 (before issue 23 it was refused after the Orc's dodge had been rolled). */
START_TEST(a_consistency_past_forty_rolls_forty_d10s_instead_of_refusing)
{
    fixture f;
    fx_four(&f);
    /* the Orc's dodge (d6 6 → 6), then Ann's roll: d6 1 and forty d10s of 5: lowest 1 */
    ACT_OK(&f, "e1", "attack",
           "{\"target\":\"e4\",\"c\":-20,\"p\":0,\"penalty\":20,\"aim\":\"torso\"}", 6, 1, 5, 5, 5,
           5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
           5, 5, 5, 5, 5, 5, 5);
    json_t *roll = json_object_get(fx_last_result(&f, "attack"), "attack");
    ck_assert_int_eq(ival(roll, "consistency"), -40);
    ck_assert_uint_eq(json_array_size(json_object_get(roll, "d10s")), 40);
    ck_assert_int_eq(ival(roll, "result"), 1);
    ck_assert(json_is_false(json_object_get(fx_last_result(&f, "attack"), "hit")));
    fx_free(&f);
}
END_TEST

/* 001:335-391 the list of combat actions gives each its type: "Run Ongoing", "Speak Free". */
START_TEST(other_actions_take_their_type_from_the_book)
{
    fixture f;
    fx_four(&f);
    /* Run is ongoing: the turn ends, C-2 on defences (001:326): the dodge d6 4, d10 5 6 */
    ACT_OK(&f, "e1", "act", "{\"what\":\"Run\"}", 4, 5, 6);
    ck_assert_str_eq(last_text(&f, "act"), "Ann: Run (ongoing action)");
    ck_assert(rules_enc_cond_has(&f.e, "e1", "ongoing"));
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    refused_same(&f, "e2", "act", "{\"what\":\"juggle\"}", "give 'type'");
    ACT_NODICE(&f, "e2", "act", "{\"what\":\"speak\"}");
    ck_assert_str_eq(last_text(&f, "act"), "Bob: speak (free action)");
    refused_same(&f, "e2", "act", "{\"what\":\"Speak\"}", "already used the free action 'Speak'");
    ACT_NODICE(&f, "e2", "act", "{\"what\":\"Speak\",\"type\":\"standard\"}"); /* the GM's say */
    fx_free(&f);
}
END_TEST

/* RULES.md, "What the table sees (heimr)": what an NPC readies and its trigger are the GM's,
 * also when it fires (before issue 23 the firing line said both to the table). */
START_TEST(an_npc_readied_action_fires_without_telling_the_table_what_it_was)
{
    fixture f;
    fx_four(&f);
    ACT_OK(&f, "e1", "end_turn", NULL, 3);
    ACT_OK(&f, "e2", "end_turn", NULL, 3);
    ACT_NODICE(&f, "e4", "ready", "{\"trigger\":\"the bell rings\",\"action\":\"pull the lever\"}");
    ACT_OK(&f, "e4", "end_turn", NULL, 3);
    size_t pub0 = json_array_size(f.e.log), gm0 = json_array_size(f.e.gm_log);
    ACT_NODICE(&f, "e4", "trigger", "{\"target\":\"e3\"}");
    ck_assert_uint_eq(json_array_size(f.e.log), pub0 + 2);
    ck_assert_str_eq(str_of(json_array_get(f.e.log, pub0), "text"),
                     "Orc's readied action fires: Orc acts just before Cat");
    ck_assert_str_eq(str_of(json_array_get(f.e.log, pub0 + 1), "text"),
                     "Orc does what they readied (the GM resolves it)");
    for (size_t i = 0; i < json_array_size(f.e.log); i++) {
        const char *text = str_of(json_array_get(f.e.log, i), "text");
        ck_assert_msg(!strstr(text, "bell") && !strstr(text, "lever"), "public: %s", text);
    }
    ck_assert_str_eq(str_of(json_array_get(f.e.gm_log, gm0), "text"),
                     "Orc's trigger (the bell rings) occurs: Orc acts just before Cat");
    ck_assert_str_eq(str_of(json_array_get(f.e.gm_log, gm0 + 1), "text"),
                     "Orc does what they readied: pull the lever (the GM resolves it)");
    fx_free(&f);
}
END_TEST

/* What the resolve would refuse is the check's: a readied attack whose sword arm was grabbed in
 * between, a turn's end that would pre-roll a block without a shield. Nothing changes, no die. */
START_TEST(a_check_refuses_what_the_resolve_would_before_anything_changes)
{
    fixture f;
    fx_four(&f);
    ACT_NODICE(&f, "e1", "ready",
               "{\"trigger\":\"the Orc moves\",\"target\":\"e4\",\"c\":0,\"p\":1}");
    /* a block without a shield would be pre-rolled: refused before the turn ends */
    refused_same(&f, "e1", "end_turn", "{\"defence\":\"block\"}", "blocking needs a shield");
    ACT_OK(&f, "e1", "end_turn", NULL, 1); /* a dodge: d6 1 → 1 */
    /* Bob holds a dodge already: what he asks of a new defence does not matter */
    ACT_OK(&f, "e2", "defend", "{\"kind\":\"dodge\"}", 2);
    ACT_NODICE(&f, "e2", "end_turn", "{\"defence\":\"block\"}");
    /* the Orc grabs Ann by her sword arm: Brawl aimed, C-2 P1: d6 6, d10 6 6 → 7 */
    ACT_OK(&f, "e4", "attack",
           "{\"target\":\"e1\",\"brawl\":1,\"bind\":1,\"ability\":\"Brawl\",\"aim\":\"sword_arm\"}",
           6, 6, 6);
    ck_assert_str_eq(str_of(json_object_get(comb(&f, "e1"), "held_by"), "part"), "sword_arm");
    /* 001:131 a held sword arm wields no weapon: the readied attack cannot fire */
    refused_same(&f, "e1", "trigger", "{\"target\":\"e4\"}", "sword arm is held");
    fx_free(&f);
}
END_TEST

/* The moves' choices (choices.c): End turn asks nothing (a dodge with Agility: 001:395, 422);
 * an attack's first item is the first weapon on the sheet, its ability then the item's. */
static json_t *choices_of(fixture *f, const char *actor, const char *action, const char *param,
                          int *kind)
{
    const rules_enc_action *a = rules_module_action(f->m, action);
    ck_assert_ptr_nonnull(a);
    json_t *out = json_array();
    for (const rules_param *p = a->params; p && p->name; p++)
        if (strcmp(p->name, param) == 0)
            *kind = f->m->choices(&f->e, actor, a, p, out);
    return out;
}

START_TEST(end_turn_asks_nothing_and_an_attack_offers_the_sheet_s_weapon)
{
    fixture f;
    fx_init(&f);
    json_t *s = sheet(0, 2, 1, 5, 2, "[{\"name\":\"Swordmanship\",\"attributes\":[\"str\"]}]");
    json_object_set_new(s, "items",
                        json_loads("[{\"name\":\"Cloak\"},{\"name\":\"Longsword\","
                                   "\"ability\":\"Swordmanship\"}]",
                                   0, NULL));
    fx_add(&f, "e1", "Ann", "p1", 0, s);
    fx_add(&f, "e2", "Orc", "gm", 1, sheet(0, 2, 1, 5, 2, NULL));
    ACT_OK(&f, NULL, "begin", NULL, 6, 1);
    static const char *const END[] = {"defence", "ability", "item"};
    for (int i = 0; i < 3; i++) {
        int kind = -1;
        json_t *c = choices_of(&f, "e1", "end_turn", END[i], &kind);
        ck_assert_int_eq(kind, RULES_CHOICES_PICK);
        ck_assert(json_is_null(json_object_get(json_array_get(c, 0), "value")));
        json_decref(c);
    }
    int kind = -1;
    json_t *c = choices_of(&f, "e1", "attack", "item", &kind);
    ck_assert_str_eq(str_of(json_array_get(c, 0), "value"), "Longsword");
    json_decref(c);
    c = choices_of(&f, "e1", "attack", "ability", &kind);
    ck_assert(json_is_null(json_object_get(json_array_get(c, 0), "value")));
    ck_assert_str_eq(str_of(json_array_get(c, 1), "value"), "Swordmanship"); /* the sheet's own */
    json_decref(c);
    c = choices_of(&f, "e2", "attack", "ability", &kind); /* no weapon: the abilities */
    ck_assert_str_eq(str_of(json_array_get(c, 0), "value"), "Brawl");
    json_decref(c);
    fx_free(&f);
}
END_TEST

/* The moves a player gets (rules_enc_moves): End turn is one tap (its args ask nothing), an
 * attack is offered with arguments that pass, and no GM action is among them. */
START_TEST(a_players_end_turn_is_one_tap_and_every_offered_move_passes)
{
    fixture f;
    fx_four(&f);
    f.e.seat = "p1";
    f.e.is_gm = 0;
    json_t *moves = rules_enc_moves(&f.e);
    int end = 0, attack = 0;
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m)
    {
        const char *action = str_of(m, "action");
        ck_assert_str_ne(str_of(m, "who"), "gm");
        ck_assert_str_eq(str_of(m, "actor"), "e1");
        const rules_enc_action *a = rules_module_action(f.m, action);
        rules_args args;
        tb_err err = {0};
        ck_assert_msg(rules_enc_act_check(&f.e, a, "e1", json_object_get(m, "args"), &args, &err) ==
                              0 ||
                          rules_enc_streq(action, "ready"), /* its trigger is the person's */
                      "%s: %s", action, err.msg);
        if (rules_enc_streq(action, "end_turn")) {
            end = 1;
            ck_assert_uint_eq(json_object_size(json_object_get(m, "args")), 0);
        }
        if (rules_enc_streq(action, "attack")) {
            attack = 1;
            ck_assert_str_eq(str_of(json_object_get(m, "args"), "target"), "e4"); /* the foe */
        }
    }
    ck_assert(end && attack);
    json_decref(moves);
    f.e.seat = "gm";
    f.e.is_gm = 1;
    fx_free(&f);
}
END_TEST

/* A Charge from the map (rules/RULES.md, heimr encounter reading 23): 001:344 "go to a different
 * square and make a melee weapon attack or brawl attack against an opponent in that square", and
 * in combat a square borders only those up, down, left and right (001:61): the opponent stands
 * one square away along an axis (001:264). Refused before any die, the state as it was; a
 * fighter not on the map charges by the GM's word; the moves offer only who may be charged. */
static size_t charge_targets(fixture *f, const char *actor, const char *want)
{
    int kind = 0;
    json_t *out = choices_of(f, actor, "act", "target", &kind);
    ck_assert_int_eq(kind, RULES_CHOICES_PICK);
    ck_assert(json_is_null(json_object_get(json_array_get(out, 0), "value"))); /* no one */
    size_t n = json_array_size(out);
    if (want)
        ck_assert_str_eq(str_of(json_array_get(out, 1), "value"), want);
    json_decref(out);
    return n;
}

START_TEST(a_charge_on_the_map_reaches_the_next_square_along_an_axis)
{
    fixture f;
    fx_four(&f);
    json_t *sq = json_loads("{\"e1\":{\"id\":\"e1\",\"cid\":\"e1\",\"x\":0,\"y\":0},"
                            "\"e4\":{\"id\":\"e4\",\"cid\":\"e4\",\"x\":1,\"y\":1}}",
                            0, NULL);
    f.e.squares = sq;
    /* diagonal: two squares along the axes (001:264), not a bordering square (001:61) */
    refused_same(&f, "e1", "act", "{\"what\":\"Charge\",\"target\":\"e4\"}",
                 "Orc is 2 squares away from Ann: a charge reaches the square next to Ann's");
    ck_assert_uint_eq(charge_targets(&f, "e1", NULL), 1);
    /* the same square: a charge goes to a different square (001:344) */
    json_object_set_new(json_object_get(sq, "e4"), "y", json_integer(0));
    json_object_set_new(json_object_get(sq, "e4"), "x", json_integer(0));
    refused_same(&f, "e1", "act", "{\"what\":\"charge\",\"target\":\"e4\"}",
                 "Orc is in Ann's square: a charge goes to a different square");
    ck_assert_uint_eq(charge_targets(&f, "e1", NULL), 1);
    /* on the map a charge names its opponent, an opponent (001:344); only a charge names one */
    json_object_set_new(json_object_get(sq, "e4"), "x", json_integer(1));
    refused_same(&f, "e1", "act", "{\"what\":\"Charge\"}", "a charge names the opponent charged");
    refused_same(&f, "e1", "act", "{\"what\":\"Charge\",\"target\":\"e2\"}",
                 "Bob is not Ann's opponent");
    refused_same(&f, "e1", "act", "{\"what\":\"Move\",\"target\":\"e4\"}",
                 "only a charge names an opponent");
    /* the next square to the right: the charge goes (ongoing, 001:326: the turn ends and the
     * dodge is pre-rolled at C-2, d6 4, d10 5 6) */
    ck_assert_uint_eq(charge_targets(&f, "e1", "e4"), 2);
    ACT_OK(&f, "e1", "act", "{\"what\":\"Charge\",\"target\":\"e4\"}", 4, 5, 6);
    ck_assert_str_eq(last_text(&f, "act"), "Ann: Charge (ongoing action)");
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    /* Bob is not on the map: his charge is the GM's word, named or not */
    ck_assert_uint_eq(charge_targets(&f, "e2", "e4"), 2);
    ACT_OK(&f, "e2", "act", "{\"what\":\"Charge\"}", 4, 5, 6);
    f.e.squares = NULL;
    json_decref(sq);
    fx_free(&f);
}
END_TEST

/* ---- issue 25 item 8: fatigue back to its base when the scene is over (001:292, 001:304) ---- */

/* The module's end hook, as enc.end runs it (its stats then land on the sheets). */
static void end_scene(fixture *f)
{
    f->e.actor = NULL;
    ck_assert_ptr_nonnull(f->m->end);
    ck_assert_int_eq(f->m->end(&f->e, &f->err), 0);
}

START_TEST(the_chase_over_everyone_gets_their_breath_back)
{
    fixture f;
    fx_chase(&f, 2);
    ACT_OK(&f, "e1", "run", NULL, 1, 5); /* Ann: fatigue 2 → 3 */
    ACT_OK(&f, "e2", "run", NULL, 4, 9);
    ACT_OK(&f, "e1", "run", NULL, 2, 3); /* 3 → 4 */
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "fatigue", 0), 4);
    rules_enc_stat_set(&f.e, "e2", "fatigue", 6); /* the GM's number for the Orc */
    size_t pub0 = json_array_size(f.e.log), gm0 = json_array_size(f.e.gm_log);
    end_scene(&f);
    /* base fatigue 4 - stamina 2 = 2 for both (001:294-296) */
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "fatigue", 0), 2);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "fatigue", 0), 2);
    ck_assert_uint_eq(json_array_size(f.e.log), pub0 + 1); /* the Orc's is the GM's */
    ck_assert_str_eq(str_of(json_array_get(f.e.log, pub0), "text"),
                     "Ann gets their breath back: fatigue 2");
    ck_assert_str_eq(str_of(json_array_get(f.e.gm_log, gm0), "text"),
                     "Orc gets their breath back: fatigue 2");
    fx_free(&f);
}
END_TEST

START_TEST(the_fight_over_fatigue_returns_to_base_and_no_lower)
{
    fixture f;
    fx_four(&f);
    rules_enc_stat_set(&f.e, "e1", "fatigue", 9);
    rules_enc_stat_set(&f.e, "e2", "fatigue", 2); /* at its base: nothing to say */
    size_t pub0 = json_array_size(f.e.log);
    end_scene(&f);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "fatigue", 0), 2);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "fatigue", 0), 2);
    ck_assert_uint_eq(json_array_size(f.e.log), pub0 + 1);
    ck_assert_str_eq(str_of(json_array_get(f.e.log, pub0), "text"),
                     "Ann gets their breath back: fatigue 2");
    fx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("enc_heimr");
    TCase *tc = tcase_create("module");
    tcase_add_test(tc, initiative_by_dexterity_and_willpower_ties_to_the_higher_willpower);
    tcase_add_test(tc, delay_moves_the_character_and_passes_the_turn);
    tcase_add_test(tc, a_readied_attack_fires_and_moves_before_the_trigger);
    tcase_add_test(tc, attacks_meet_pre_rolled_defences_whose_penalties_grow);
    tcase_add_test(tc, defence_uses_are_restored_at_the_start_of_the_turn);
    tcase_add_test(tc, the_attack_d6_picks_the_body_part_and_its_injury_effect);
    tcase_add_test(tc, injury_levels_set_the_dying_clock);
    tcase_add_test(tc, fatigue_rises_at_most_once_per_turn);
    tcase_add_test(tc, a_breather_lowers_fatigue_to_no_less_than_base);
    tcase_add_test(tc, an_attack_interrupts_an_upcoming_action_and_cancel_gives_the_action_back);
    tcase_add_test(tc, free_actions_once_each_ongoing_ends_the_turn);
    tcase_add_test(tc, prone_or_ongoing_after_the_pre_roll_still_costs_the_defence);
    tcase_add_test(tc, effects_last_half_their_seconds_in_turns);
    tcase_add_test(tc, an_odd_daze_allows_defending_from_the_start_of_its_last_turn);
    tcase_add_test(tc, an_npc_defence_and_numbers_stay_in_the_gm_half);
    tcase_add_test(tc, the_action_table_says_who_may_act);
    suite_add_tcase(s, tc);
    TCase *ch = tcase_create("chase");
    tcase_add_test(ch, chase_squares_move_by_three_and_a_tired_target_is_caught);
    tcase_add_test(ch, chase_catching_up_and_a_tired_chaser_drops_out);
    suite_add_tcase(s, ch);
    TCase *op = tcase_create("options");
    tcase_add_test(op, a_guard_takes_the_attack_first_guard_from_the_attacker_on_and_ends);
    tcase_add_test(op, a_guard_dodging_a_shot_lets_it_fly_on_and_a_block_stops_it);
    tcase_add_test(op, a_grab_holds_the_leg_stops_the_held_and_a_hit_back_breaks_it);
    tcase_add_test(op, breaking_free_beats_the_holders_brawl_and_letting_go_is_free);
    tcase_add_test(op, moving_someone_takes_as_many_hands_as_the_book_says);
    tcase_add_test(op, an_effect_on_the_holder_loosens_the_grip);
    tcase_add_test(op, the_ground_height_cover_difficult_terrain_and_a_blind_spot_shape_attacks);
    tcase_add_test(op, the_map_decides_melee_reach_and_the_range_penalty);
    tcase_add_test(op, a_charge_on_the_map_reaches_the_next_square_along_an_axis);
    suite_add_tcase(s, op);
    TCase *i23 = tcase_create("issue23");
    tcase_add_test(i23, a_consistency_past_forty_rolls_forty_d10s_instead_of_refusing);
    tcase_add_test(i23, other_actions_take_their_type_from_the_book);
    tcase_add_test(i23, an_npc_readied_action_fires_without_telling_the_table_what_it_was);
    tcase_add_test(i23, a_check_refuses_what_the_resolve_would_before_anything_changes);
    tcase_add_test(i23, end_turn_asks_nothing_and_an_attack_offers_the_sheet_s_weapon);
    tcase_add_test(i23, a_players_end_turn_is_one_tap_and_every_offered_move_passes);
    suite_add_tcase(s, i23);
    TCase *i25 = tcase_create("issue25");
    tcase_add_test(i25, the_chase_over_everyone_gets_their_breath_back);
    tcase_add_test(i25, the_fight_over_fatigue_returns_to_base_and_no_lower);
    suite_add_tcase(s, i25);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
