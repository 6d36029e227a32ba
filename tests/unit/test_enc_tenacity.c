/* The tenacity encounter module tenacity.spotlight (rules/tenacity/spotlight.c and its files),
 * driven directly with scripted dice: the spotlight chain (003:84-90), responses (003:91), group
 * initiative (003:92), attacks and stress (003:45, 003:66, 003:106), conditions (003:96-103),
 * spin (003:30, 003:95), the coup de grâce (003:107) and the refusals. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"
#include "tenacity/tenacity_enc.h"
#include "rules_util.h"

typedef efx fx;

/* An encounter of module `id` (tenacity.spotlight or tenacity.social), started. */
static void fx_init_module(fx *f, const char *id, const char *options)
{
    efx_start(f, id, options);
}

static void fx_free(fx *f)
{
    efx_free(f);
}

/* Adds a combatant as enc.add does: public object, sheet_stats copied, then join. */
static void fx_add(fx *f, const char *cid, const char *name, const char *side, const char *seat,
                   int npc, const char *sample)
{
    json_t *sheet = sample ? ru_load_sample("tenacity", sample) : NULL;
    efx_combatant(f, cid, name, side, seat, npc);
    efx_join(f, cid, sheet);
    f->e.actor = NULL;
    json_decref(sheet);
}

/* Missa (p1) and Brakka (p2) against a sheetless goblin (challenge 2d6), in module id. */
static void fx_party_in(fx *f, const char *id, const char *options)
{
    fx_init_module(f, id, options);
    fx_add(f, "e1", "Missa", "party", "p1", 0, "missa.json");
    fx_add(f, "e2", "Brakka", "party", "p2", 0, "brakka.json");
    fx_add(f, "e3", "Goblin", "foes", "gm", 1, NULL);
}

/* The same party in tenacity.spotlight. */
static void fx_party(fx *f, const char *options)
{
    fx_party_in(f, "tenacity.spotlight", options);
}

static void fx_dice(fx *f, const int *faces, size_t n)
{
    efx_dice(f, faces, n);
}

/*
 * Runs enc.act as server/ops_enc.c does (rules_enc_act) as `seat` for `actor` (NULL: the current
 * combatant). On an error the state is restored, as the server discards its working copy.
 * Returns the code; f->err holds the message.
 */
static int act(fx *f, const char *seat, const char *actor, const char *name, const char *params)
{
    return efx_act(f, seat, actor, name, params);
}

#define OK(f, seat, actor, name, params)                                                           \
    do {                                                                                           \
        int rc_ = act(f, seat, actor, name, params);                                               \
        ck_assert_msg(rc_ == 0, "%s: %s", name, (f)->err.msg);                                     \
    } while (0)

static void refused(fx *f, const char *seat, const char *actor, const char *name,
                    const char *params, int code, const char *needle)
{
    json_t *before = json_deep_copy(f->enc);
    int rc = act(f, seat, actor, name, params);
    ck_assert_msg(rc == code, "%s should fail with %d, got %d (%s)", name, code, rc, f->err.msg);
    ck_assert_msg(strstr(f->err.msg, needle) != NULL, "message '%s' lacks '%s'", f->err.msg,
                  needle);
    ck_assert(json_equal(before, f->enc));
    json_decref(before);
}

static const char *holder(fx *f)
{
    return json_string_value(json_object_get(f->enc, "spotlight"));
}

static int stat_track(fx *f, const char *cid, const char *key)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_stats(&f->e, cid), key), "current"));
}

static int listed(fx *f, const char *key, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(f->enc, key), i,
                       v) if (strcmp(json_string_value(v), cid) == 0) return 1;
    return 0;
}

/* Initiative: Missa Reaction 2d10 [7,3]+2 = 9; Brakka 2d10 [4,2]+3 = 7; goblin 2d6 [3,3] = 6. */
static const int INIT[] = {7, 3, 4, 2, 3, 3};

START_TEST(initiative_ranks_and_the_winner_holds_the_spotlight)
{
    fx f;
    fx_party(&f, NULL);
    refused(&f, "gm", "e1", "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "rolls initiative first");
    fx_dice(&f, INIT, N_ELEMS(INIT));
    refused(&f, "p1", NULL, "initiative", NULL, TB_FORBIDDEN, "GM");
    OK(&f, "gm", NULL, "initiative", NULL);
    json_t *order = json_object_get(f.enc, "order");
    ck_assert_str_eq(json_string_value(json_array_get(order, 0)), "e1");
    ck_assert_str_eq(json_string_value(json_array_get(order, 1)), "e2");
    ck_assert_str_eq(json_string_value(json_array_get(order, 2)), "e3");
    ck_assert_int_eq(json_integer_value(json_object_get(rules_enc_combatant(&f.e, "e1"), "init")),
                     9);
    /* the goblin's roll is the GM's */
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "init"));
    ck_assert_int_eq(json_integer_value(json_object_get(rules_enc_hidden_of(&f.e, "e3"), "init")),
                     6);
    ck_assert_str_eq(holder(&f), "e1");
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "action"), 1);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "interaction"), 1);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "move"), 1);
    refused(&f, "gm", NULL, "initiative", NULL, TB_RULE, "established once");
    /* 003:86 the winner may pass the initiative: before doing anything */
    refused(&f, "p2", "e2", "move", NULL, TB_RULE, "Missa holds the spotlight, not Brakka");
    refused(&f, "p2", "e1", "move", NULL, TB_FORBIDDEN, "not your character");
    OK(&f, "p1", NULL, "pass", "{\"target\":\"e2\"}");
    ck_assert_str_eq(holder(&f), "e2");
    ck_assert(!listed(&f, "acted", "e1"));
    OK(&f, "p2", NULL, "move", NULL);
    refused(&f, "p2", NULL, "move", NULL, TB_RULE, "no move left");
    refused(&f, "p2", NULL, "pass", "{\"target\":\"e1\"}", TB_RULE, "003:86");
    fx_free(&f);
}
END_TEST

START_TEST(spotlight_chain_target_acts_next_and_the_round_resets)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa attacks the goblin with Telekinesis (Spirit 2d10, rank 3): [8,5] → 11 vs 2d6 [2,3] =
     * 5: a hit; impact 1d4 (rank 3 / 2) [3] → 3 stress.
     * The goblin attacks Missa: 2d6 [4,4] = 8 vs Reaction [6,2]+2 = 8: a tie, to the defender. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 5, 2, 3, 3, 4, 4, 6, 2};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 3);
    ck_assert(listed(&f, "cue", "e3"));
    refused(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "no action left");
    /* 003:87 the target goes next, not the ally who rolled higher */
    refused(&f, "p1", NULL, "end", "{\"next\":\"e2\"}", TB_RULE, "it goes to Goblin");
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    ck_assert_int_eq(json_integer_value(json_object_get(f.enc, "turn")), 2);
    ck_assert(listed(&f, "acted", "e1"));
    refused(&f, "p1", "e1", "move", NULL, TB_RULE, "Goblin holds the spotlight, not Missa");
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\"}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 0); /* ties go to the defender */
    ck_assert(listed(&f, "recalled", "e1"));             /* 003:91 Missa may respond */
    OK(&f, "gm", NULL, "end", NULL);
    /* 003:89 Missa has acted and is the only other one in the spotlight: she chooses */
    ck_assert_str_eq(holder(&f), "e1");
    ck_assert(json_is_true(json_object_get(f.enc, "choosing")));
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "action"), 0);
    refused(&f, "p1", NULL, "move", NULL, TB_RULE, "no move left");
    OK(&f, "p1", NULL, "end", "{\"next\":\"e2\"}");
    ck_assert_str_eq(holder(&f), "e2");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e2", "action"), 1);
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    /* 003:88, 003:90 Brakka brings nobody in; nobody is left: the round resets, and an opposing
     * character (the goblin) goes first */
    OK(&f, "p2", NULL, "end", NULL);
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_int_eq(json_array_size(json_object_get(f.enc, "acted")), 0);
    ck_assert_str_eq(holder(&f), "e3");
    ck_assert(rules_rng_exhausted(f.rng) == 0);
    fx_free(&f);
}
END_TEST

START_TEST(a_response_costs_10acity_or_spin_and_is_one_action)
{
    fx f;
    fx_party(&f, NULL);
    /* init; Missa moves and ends (no one brought in: an opposing character, the goblin);
     * the goblin attacks Missa: 2d6 [6,5] = 11 vs [3,1]+2 = 5: a hit, 1d4 [2] → 2 stress;
     * Missa responds: Telekinesis [9,9] + 3 = 12 vs 2d6 [1,1] = 2, doubles: +1 spin; 1d4 [4]. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 6, 5, 3, 1, 2, 9, 9, 1, 1, 4};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "move", NULL);
    refused(&f, "p1", NULL, "end", "{\"next\":\"e2\"}", TB_RULE, "an opposing character");
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    refused(&f, "p1", "e1", "respond", NULL, TB_RULE, "brought back into the spotlight");
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\"}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 2);
    refused(&f, "p2", "e1", "respond", NULL, TB_FORBIDDEN, "not your character");
    refused(&f, "p1", "e1", "respond", "{\"pay\":\"spin\"}", TB_RULE, "no spin");
    OK(&f, "p1", "e1", "respond", NULL); /* 0 spin: a 10acity point */
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "tenacity", -1), 2);
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "responder")), "e1");
    refused(&f, "gm", "e3", "move", NULL, TB_RULE, "Missa is responding");
    refused(&f, "p1", "e1", "move", NULL, TB_RULE, "no move left");
    OK(&f, "p1", "e1", "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", -99), 1); /* doubles, 003:95 */
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 4);
    ck_assert(json_is_null(json_object_get(f.enc, "responder")));
    ck_assert_str_eq(holder(&f), "e3"); /* a response does not move the spotlight */
    ck_assert(!listed(&f, "cue", "e3"));
    refused(&f, "p1", "e1", "respond", NULL, TB_RULE, "brought back");
    fx_free(&f);
}
END_TEST

START_TEST(stress_over_the_maximum_is_a_wound_then_unconscious)
{
    fx f;
    fx_party(&f, NULL);
    /* the goblin (2d6+0, 1d4) goes first: init Missa [1,1]+2 = 3, Brakka [1,2]+3 = 5, goblin
     * [6,6] = 12. It attacks Missa with an impact bonus: [6,6]=12 vs [2,1]+2 = 4: 1d4 [4] + 8 =
     * 12 stress > 10: a wound (0/3 → 1/3), stress back to 0. */
    static const int D[] = {1, 1, 1, 2, 6, 6, 6, 6, 2, 1, 4};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\",\"impact_bonus\":8}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 0);
    ck_assert_int_eq(stat_track(&f, "e1", "wounds"), 1);
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "unconscious"));
    /* Missa's player chooses unconsciousness over wounds from now on (003:106) */
    refused(&f, "p2", "e1", "overflow", "{\"choice\":\"unconscious\"}", TB_FORBIDDEN, "not your");
    OK(&f, "p1", "e1", "overflow", "{\"choice\":\"unconscious\"}");
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e1"); /* the target goes next */
    fx_free(&f);

    fx_party(&f, NULL);
    static const int D2[] = {1, 1, 1, 2, 6, 6, 6, 6, 2, 1, 4, 5, 5, 3, 2, 1, 2, 9, 8};
    fx_dice(&f, D2, N_ELEMS(D2));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", "e1", "overflow", "{\"choice\":\"unconscious\"}");
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\",\"impact_bonus\":8}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 0);
    ck_assert_int_eq(stat_track(&f, "e1", "wounds"), 0);
    ck_assert(rules_enc_cond_has(&f.e, "e1", "unconscious"));
    ck_assert(json_is_true(json_object_get(rules_enc_stats(&f.e, "e1"), "unconscious")));
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e1");
    refused(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "unconscious");
    /* 003:106 recover: Concentration (Spirit 2d10 [5,5] + 2 = 7, doubles: +1 spin) against 2d6
     * + 1d6 per wound (none): [3,2] = 5: awake */
    OK(&f, "p1", NULL, "recover", NULL);
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "unconscious"));
    ck_assert(json_is_false(json_object_get(rules_enc_stats(&f.e, "e1"), "unconscious")));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", -99), 1);
    fx_free(&f);
}
END_TEST

START_TEST(hardcore_mode_wounds_then_death)
{
    fx f;
    fx_party(&f, "{\"hardcore\":1}");
    /* the goblin has no wounds (0/0) in hardcore mode: over its stress it perishes (003:109).
     * init as in the chain; Missa: [9,1]+3 = 12 vs [1,1]: 1d4 [4] + 3 = 7 > 6 stress. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 9, 1, 1, 1, 4};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "attack",
       "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"impact_bonus\":3}");
    ck_assert(rules_enc_is_out(&f.e, "e3"));
    ck_assert_str_eq(json_string_value(json_object_get(rules_enc_combatant(&f.e, "e3"), "out")),
                     "dead");
    /* nobody opposing is left: anyone who has not acted */
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    fx_free(&f);
}
END_TEST

START_TEST(conditions_hinder_stop_damage_and_the_free_shake_off)
{
    fx f;
    fx_party(&f, NULL);
    /* init as in the chain. Missa hinders the goblin's "all" with Telekinesis: [8,2]+3 = 11 vs
     * [1,2] = 3: impact 1d4 [3] → hinder 3, challenge 11 (her roll).
     * Missa ends; the goblin attacks Brakka... first its roll: 2d6 [6,6] = 12 - 3 = 9 vs Brakka's
     * Reaction [8,3]+3 = 11: a miss. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 2, 1, 2, 3, 6, 6, 8, 3};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    refused(&f, "p1", NULL, "condition",
            "{\"target\":\"e3\",\"kind\":\"burn\",\"what\":\"all\",\"skill\":\"Telekinesis\"}",
            TB_BAD_REQUEST, "hinder, stop or damage");
    OK(&f, "p1", NULL, "condition",
       "{\"target\":\"e3\",\"kind\":\"hinder\",\"what\":\"all\",\"skill\":\"Telekinesis\"}");
    json_t *c = rules_enc_cond(&f.e, "e3", "hinder:all");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(json_integer_value(json_object_get(c, "level")), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(rules_enc_hidden_of(&f.e, "e3"), "conds"), "hinder:all")),
                     11);
    ck_assert_ptr_null(json_object_get(c, "challenge")); /* the challenge is the GM's */
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e2\"}");
    ck_assert_int_eq(stat_track(&f, "e2", "stress"), 4); /* Brakka's sample starts at 4 */
    json_t *gm = json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(gm, "result"), "attack")),
                     9);
    fx_free(&f);

    /* Brakka's sheet brings its hinder condition (left arm, 2; challenge 9 under /gm) */
    fx_party(&f, NULL);
    json_t *bc = rules_enc_cond(&f.e, "e2", "hinder:left arm");
    ck_assert_ptr_nonnull(bc);
    ck_assert_int_eq(json_integer_value(json_object_get(bc, "level")), 2);
    ck_assert_int_eq(
        json_integer_value(json_object_get(
            json_object_get(rules_enc_hidden_of(&f.e, "e2"), "conds"), "hinder:left arm")),
        9);
    fx_free(&f);

    /* stop and damage: Missa stops the goblin's move and sets it on fire (two rounds) */
    fx_party(&f, NULL);
    static const int D2[] = {7, 3, 4, 2, 3, 3, 8, 2, 1, 2, /* stop: 11 vs 3 */
                             /* Missa ends; the goblin takes the spotlight; it tries to shake off
                                at the end: challenge dice 2d6 [6,6] = 12 vs 11: it is gone */
                             6, 6};
    fx_dice(&f, D2, N_ELEMS(D2));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "condition",
       "{\"target\":\"e3\",\"kind\":\"stop\",\"what\":\"movement\",\"skill\":\"Telekinesis\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e3", "stop:movement"));
    OK(&f, "p1", NULL, "end", NULL);
    refused(&f, "gm", NULL, "move", NULL, TB_RULE, "stop:movement prevents it");
    refused(&f, "gm", NULL, "end", "{\"shake\":\"fire\"}", TB_RULE, "no condition 'fire'");
    OK(&f, "gm", NULL, "end", "{\"shake\":\"movement\"}");
    ck_assert(!rules_enc_cond_has(&f.e, "e3", "stop:movement"));
    fx_free(&f);

    /* damage at the start of each turn (003:103) */
    fx_party(&f, NULL);
    static const int D3[] = {7, 3, 4, 2, 3, 3, 8, 2, 1, 2, 2 /* impact 2: burns for 2 */};
    fx_dice(&f, D3, N_ELEMS(D3));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "condition",
       "{\"target\":\"e3\",\"kind\":\"damage\",\"what\":\"fire\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 0);
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 2); /* burnt as its turn begins */
    fx_free(&f);
}
END_TEST

START_TEST(hinder_penalties_do_not_stack_and_apply_to_rolls)
{
    fx f;
    fx_party(&f, NULL);
    /* two hinders on Telekinesis... Missa hinders the goblin twice over two rounds: 3 then 1:
     * the original 3 remains (003:99) */
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 2, 1, 2, 3, /* hinder 3 */
                            /* goblin's turn: nothing; Missa is not in the cue; the goblin ends:
                               nobody in its cue: an opposing character: Missa has acted,
                               Brakka goes */
                            /* Brakka ends: round 2, the goblin (opposing) first; it ends;
                               Missa: */
                            8, 2, 1, 2, 1};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "condition",
       "{\"target\":\"e3\",\"kind\":\"hinder\",\"what\":\"all\",\"skill\":\"Telekinesis\"}");
    OK(&f, "p1", NULL, "end", NULL);
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    OK(&f, "p2", NULL, "end", NULL);
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "end", "{\"next\":\"e1\"}");
    ck_assert_str_eq(holder(&f), "e1");
    OK(&f, "p1", NULL, "condition",
       "{\"target\":\"e3\",\"kind\":\"hinder\",\"what\":\"all\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(
        json_integer_value(json_object_get(rules_enc_cond(&f.e, "e3", "hinder:all"), "level")), 3);
    fx_free(&f);
}
END_TEST

START_TEST(spin_from_failure_and_negative_spin_from_a_fumble)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa attacks: [1,1] → a fumble (highest 1): -1 spin, no spin from doubles (003:30);
     * 1+3 = 4 vs [1,2] = 3: still a hit, impact [1] */
    static const int D[] = {7, 3, 4, 2, 3, 3, 1, 1, 1, 2, 1};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", -99), -1);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 1);
    /* 003:76 generate spin only at 0 */
    fx_free(&f);

    fx_party(&f, NULL);
    /* a failure gives a point of spin (003:95): [2,3]+3 = 6 vs [3,3] = 6: a tie, a miss */
    static const int D2[] = {7, 3, 4, 2, 3, 3, 2, 3, 3, 3};
    fx_dice(&f, D2, N_ELEMS(D2));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", -99), 1);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 0);
    refused(&f, "p1", NULL, "generate_spin", NULL, TB_RULE, "only at 0 spin, not 1");
    fx_free(&f);

    fx_party(&f, NULL);
    fx_dice(&f, INIT, N_ELEMS(INIT));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "generate_spin", NULL);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", -99), 1);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "move"), 0);
    fx_free(&f);

    /* Brakka has -2 spin: cannot generate spin */
    fx_party(&f, NULL);
    static const int D3[] = {1, 1, 9, 9, 1, 1}; /* Brakka first */
    fx_dice(&f, D3, N_ELEMS(D3));
    OK(&f, "gm", NULL, "initiative", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    refused(&f, "p2", NULL, "generate_spin", NULL, TB_RULE, "only at 0 spin, not -2");
    fx_free(&f);
}
END_TEST

START_TEST(pushing_a_failed_attack_spends_10acity)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa [2,3]+3 = 6 vs [4,4] = 8: pushed by 3: 3 10acity (she has 3, no spin); impact [2] */
    static const int D[] = {7, 3, 4, 2, 3, 3, 2, 3, 4, 4, 2};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"push\":1}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "tenacity", -1), 0);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", -99), 0);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 2);
    fx_free(&f);
}
END_TEST

/* 003:31-37 the player chooses what pays a push: Missa takes 3 negative spin and keeps her
 * 10acity. (Before issue 16 the push always spent 10acity first.) */
START_TEST(the_player_chooses_what_pays_the_push)
{
    fx f;
    fx_party(&f, NULL);
    static const int D[] = {7, 3, 4, 2, 3, 3, 2, 3, 4, 4, 2};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "attack",
       "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"push\":1,\"push_with\":\"negative\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "tenacity", -1), 3);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", -99), -3);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 2);
    fx_free(&f);
}
END_TEST

/* Validate before you roll (003:28): crit=auto is refused whatever the dice, before any die is
 * drawn, and without telling anyone what they would have rolled. (Before, it was accepted
 * unless a natural 10 came up, and the refusal came after the dice.) */
START_TEST(a_bad_crit_or_push_choice_is_refused_before_any_die)
{
    fx f;
    fx_party(&f, NULL);
    static const int INIT_ONLY[] = {7, 3, 4, 2, 3, 3};
    fx_dice(&f, INIT_ONLY, N_ELEMS(INIT_ONLY));
    OK(&f, "gm", NULL, "initiative", NULL);
    static const char *const BAD[][2] = {
        {"{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"crit\":\"auto\"}", "crit: 'auto'"},
        {"{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"push\":1,\"push_with\":\"luck\"}",
         "push_with: 'luck'"},
        {"{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"push_with\":\"spin\"}", "only with push"},
    };
    for (size_t i = 0; i < N_ELEMS(BAD); i++) {
        static const int D[] = {2, 3, 4, 4, 2}; /* no natural 10 */
        fx_dice(&f, D, N_ELEMS(D));
        refused(&f, "p1", NULL, "attack", BAD[i][0], TB_BAD_REQUEST, BAD[i][1]);
        ck_assert_msg(rules_rng_die(f.rng, 10) == 2, "%s drew a die", BAD[i][0]);
        ck_assert_ptr_null(strstr(f.err.msg, "rolled"));
    }
    fx_free(&f);
}
END_TEST

START_TEST(full_defence_gives_the_defender_an_advantage_die)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa defends and ends: the goblin (opposing) attacks her: [5,5] = 10 vs Reaction 3 dice
     * [1,2,9]+2 = 11: a miss */
    static const int D[] = {7, 3, 4, 2, 3, 3, 5, 5, 1, 2, 9};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "defend", NULL);
    ck_assert(rules_enc_cond_has(&f.e, "e1", "defensive"));
    OK(&f, "p1", NULL, "end", NULL);
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\"}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 0);
    ck_assert(!rules_rng_exhausted(f.rng));
    fx_free(&f);
}
END_TEST

/* 003:72: a sprint spends the action and adds the Athletics check's total to the movement
 * (Missa: 1d10 [6] + 1 = 7 spaces); 003:112: withdrawing spends the action too, so she cannot do
 * both; the goblin withdraws on its turn. */
START_TEST(sprint_adds_the_check_to_movement_and_withdraw_spends_the_action)
{
    fx f;
    fx_party(&f, NULL);
    static const int D[] = {7, 3, 4, 2, 3, 3, 6};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    refused(&f, "p1", NULL, "sprint", "{\"skill\":\"Flying\"}", TB_BAD_REQUEST, "no skill");
    OK(&f, "p1", NULL, "sprint", NULL);
    ck_assert(!rules_rng_exhausted(f.rng));
    json_t *c = rules_enc_cond(&f.e, "e1", "sprinting");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(json_integer_value(json_object_get(c, "level")), 7);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "action"), 0);
    refused(&f, "p1", NULL, "withdraw", NULL, TB_RULE, "no action left");
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "withdraw", NULL);
    ck_assert(rules_enc_cond_has(&f.e, "e3", "withdrawing"));
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e3", "action"), 0);
    fx_free(&f);
}
END_TEST

START_TEST(coup_de_grace_takes_two_actions_and_fails_when_forced_to_defend)
{
    fx f;
    fx_party(&f, NULL);
    fx_dice(&f, INIT, N_ELEMS(INIT));
    OK(&f, "gm", NULL, "initiative", NULL);
    refused(&f, "p1", NULL, "coup", "{\"target\":\"e3\"}", TB_RULE, "not helpless");
    json_object_set_new(rules_enc_stats(&f.e, "e3"), "unconscious", json_true());
    rules_enc_cond_add(&f.e, "e3", "unconscious", 0, 0);
    OK(&f, "p1", NULL, "coup", "{\"target\":\"e3\"}");
    refused(&f, "p1", NULL, "move", NULL, TB_RULE, "coup de grâce");
    refused(&f, "p1", NULL, "coup", "{\"target\":\"e3\"}", TB_RULE, "next turn");
    OK(&f, "p1", NULL, "end", NULL);
    /* the goblin is unconscious: in the cue, it takes the spotlight, ends */
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    OK(&f, "p2", NULL, "end", NULL); /* round 2: Missa? the opposing goblin goes first */
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    OK(&f, "gm", NULL, "end", "{\"next\":\"e1\"}");
    ck_assert_str_eq(holder(&f), "e1");
    OK(&f, "p1", NULL, "coup", "{\"target\":\"e3\"}");
    ck_assert(!rules_enc_is_out(&f.e, "e3")); /* at the end of that turn */
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert(rules_enc_is_out(&f.e, "e3"));
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e1"), "coup"));
    fx_free(&f);

    /* forced to defend: the coup fails */
    fx_party(&f, NULL);
    fx_add(&f, "e4", "Rat", "foes", "gm", 1, NULL);
    static const int D[] = {7, 3, 4, 2, 3, 3, 1, 1, /* rat: 2 */
                            2, 2, 1, 1, 1};         /* rat attacks Missa: 4 vs [1,1]+2, [1] */
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    json_object_set_new(rules_enc_stats(&f.e, "e3"), "unconscious", json_true());
    OK(&f, "p1", NULL, "coup", "{\"target\":\"e3\"}");
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    /* the goblin's turn brings nobody in: an opposing character, Brakka (not the rat) */
    refused(&f, "gm", NULL, "end", "{\"next\":\"e4\"}", TB_RULE, "it goes to Brakka");
    OK(&f, "gm", NULL, "end", NULL);
    OK(&f, "p2", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e4");
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\"}");
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e1"), "coup"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", -99), -1); /* her fumbled defence */
    fx_free(&f);
}
END_TEST

START_TEST(group_initiative_second_group_gets_an_advantage_die)
{
    fx f;
    fx_party(&f, "{\"group\":1}");
    /* the goblin rolls highest [6,6] = 12 and lets the party go first (003:92): Missa passes?
     * No: the goblin passes to Brakka: the party goes first, the foes get the edge. */
    static const int D[] = {1, 1, 1, 2, 6, 6};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(f.enc, "groups"), 0)),
                     "foes");
    ck_assert(listed(&f, "edge", "e1") && listed(&f, "edge", "e2") && !listed(&f, "edge", "e3"));
    OK(&f, "gm", NULL, "pass", "{\"target\":\"e2\"}");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(f.enc, "groups"), 0)),
                     "party");
    ck_assert(listed(&f, "edge", "e3") && !listed(&f, "edge", "e1"));
    ck_assert_str_eq(holder(&f), "e2");
    /* in a group, any order: Brakka hands to Missa; the goblin is not in the group */
    refused(&f, "p2", NULL, "pass", "{\"target\":\"e3\"}", TB_RULE, "not in the group");
    OK(&f, "p2", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e1");
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    /* the goblin's first action has an extra die: 3d6? challenge dice ignore advantage; with a
     * sheet it is an extra d10 — checked through the edge list being spent */
    static const int D2[] = {2, 2, 1, 1, 1};
    fx_dice(&f, D2, N_ELEMS(D2));
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\"}");
    ck_assert(!listed(&f, "edge", "e3"));
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_str_eq(holder(&f), "e2"); /* the party first again */
    ck_assert(listed(&f, "edge", "e3"));
    fx_free(&f);
}
END_TEST

START_TEST(group_edge_is_an_extra_hero_die)
{
    fx f;
    fx_party(&f, "{\"group\":1}");
    /* Missa wins [9,9], her party goes first; the foes are the goblin... here Brakka attacks with
     * his edge after the goblin's group? Make the goblin win and keep its group first: the party
     * is second: Missa's first attack rolls 3d10. */
    static const int D[] = {1, 1, 1, 2, 6, 6};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2"); /* the party, in initiative order: Brakka 5 > Missa 3 */
    OK(&f, "p2", NULL, "pass", "{\"target\":\"e1\"}");
    /* Telekinesis 2d10 + 1 edge die: [1,2,8]+3 = 11 vs [1,1] = 2; impact [4] */
    static const int D2[] = {1, 2, 8, 1, 1, 4};
    fx_dice(&f, D2, N_ELEMS(D2));
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert(!rules_rng_exhausted(f.rng));
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 4);
    json_t *entry = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(f.e.log, i, v) if (strcmp(json_string_value(json_object_get(v, "action")),
                                                 "attack") == 0) entry = v;
    ck_assert_ptr_nonnull(entry);
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(entry, "result"), "attack")), 11);
    fx_free(&f);
}
END_TEST

/* 003:49, 003:70: a success moves the standing up by the impact rolled, a failure down by the
 * opponent's impact; it starts at 5 or where the narrator sets it; 0 ends the contest. */
START_TEST(social_standing_moves_by_impact_and_ends_at_0_or_10)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa works on the goblin with Telekinesis: [8,5] → 11 vs 2d6 [2,3] = 5: success, impact
     * 1d4 [3]: standing 5 → 8 */
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 5, 2, 3, 3};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "social", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    json_t *st = json_object_get(json_object_get(f.enc, "standing"), "e1");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "e3")), 8);
    fx_free(&f);

    fx_party(&f, NULL);
    /* the narrator starts Missa at 2; [3,1] → 6 vs the goblin's [6,6] = 12: failure, and the
     * goblin's impact 1d4 [4] takes the standing to 0: all credibility lost */
    static const int E[] = {7, 3, 4, 2, 3, 3, 3, 1, 6, 6, 4};
    fx_dice(&f, E, N_ELEMS(E));
    OK(&f, "gm", NULL, "initiative", NULL);
    refused(&f, "gm", NULL, "standing", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":11}",
            TB_BAD_REQUEST, "value");
    OK(&f, "gm", NULL, "standing", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":2}");
    OK(&f, "p1", NULL, "social", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    st = json_object_get(json_object_get(f.enc, "standing"), "e1");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "e3")), 0);
    fx_free(&f);
}
END_TEST

START_TEST(npc_numbers_stay_out_of_the_public_log)
{
    fx f;
    fx_party(&f, NULL);
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 5, 2, 3, 3};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    size_t i, k;
    json_t *v, *d;
    json_array_foreach(f.e.log, i, v)
    {
        json_t *res = json_object_get(v, "result");
        ck_assert_ptr_null(json_object_get(res, "defence"));
        json_array_foreach(json_object_get(v, "dice"), k, d)
            ck_assert_str_ne(json_string_value(json_object_get(d, "by")), "e3");
        const char *text = json_string_value(json_object_get(v, "text"));
        ck_assert_msg(strstr(text, "/6") == NULL, "the goblin's max stress leaked: %s", text);
    }
    fx_free(&f);
}
END_TEST

/* ---- tenacity.social (rules/tenacity/social.c): the standing scale of a social scene ---- */

/* /enc/standing/<who>/<eyes>, -1 when absent. */
static int scale(fx *f, const char *who, const char *eyes)
{
    json_t *v = json_object_get(json_object_get(json_object_get(f->enc, "standing"), who), eyes);
    return json_is_integer(v) ? (int)json_integer_value(v) : -1;
}

/* Every refusal below comes before the dice of the next successful action: the script holds only
 * those, so a refusal that drew a die would shift every result after it (and the script would
 * run out: fx_script_used checks it). */
static void fx_script_used(fx *f)
{
    ck_assert_msg(!rules_rng_exhausted(f->rng), "the scripted dice ran out");
}

START_TEST(social_scene_needs_an_open_contest_and_refusals_draw_no_die)
{
    fx f;
    fx_party_in(&f, "tenacity.social", NULL);
    /* Missa works on the goblin with Telekinesis: [8,5] → 11 vs 2d6 [2,3] = 5: success, impact
     * 1d4 [3]: standing 5 → 8 */
    static const int D[] = {8, 5, 2, 3, 3};
    fx_dice(&f, D, N_ELEMS(D));
    const char *sway = "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}";
    refused(&f, "p1", "e1", "sway", sway, TB_RULE, "opens that contest");
    refused(&f, "p1", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e3\"}", TB_FORBIDDEN, "GM");
    refused(&f, "gm", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":10}",
            TB_BAD_REQUEST, "value");
    refused(&f, "gm", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":0}",
            TB_BAD_REQUEST, "value");
    refused(&f, "gm", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e1\"}", TB_RULE, "themself");
    refused(&f, "gm", NULL, "standing", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":4}",
            TB_RULE, "open that contest");
    OK(&f, "gm", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e3\"}");
    ck_assert_int_eq(scale(&f, "e1", "e3"), 5); /* 003:70 "a neutral position such as 5" */
    refused(&f, "gm", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":3}", TB_RULE,
            "already");
    refused(&f, "p2", "e1", "sway", sway, TB_FORBIDDEN, "not your character");
    refused(&f, "p1", "e1", "sway", "{\"target\":\"e3\",\"skill\":\"Juggling\"}", TB_BAD_REQUEST,
            "Juggling");
    refused(&f, "p1", "e1", "sway", "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"crit\":\"xx\"}",
            TB_BAD_REQUEST, "crit");
    refused(&f, "p1", "e1", "sway", "{\"target\":\"e2\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "opens that contest");
    refused(&f, "p1", "e1", "quit", "{\"target\":\"e2\"}", TB_RULE, "opens that contest");
    OK(&f, "p1", "e1", "sway", sway);
    ck_assert_int_eq(scale(&f, "e1", "e3"), 8);
    fx_script_used(&f);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", 0), 0); /* a success without doubles */
    fx_free(&f);
}
END_TEST

START_TEST(social_scene_failure_tie_and_scrutiny_lower_the_scale)
{
    fx f;
    fx_party_in(&f, "tenacity.social", NULL);
    static const int D[] = {
        3, 1, 6, 6,
        4,          /* Missa [3,1] → 6 vs the goblin's [6,6] = 12: she fails, spin +1 (003:95),
                       and the goblin's impact 1d4 [4] lowers her standing 5 → 1 (003:49) */
        4, 2, 3, 4, /* [4,2] → 7 vs [3,4] = 7: the tie goes to the goblin (003:68) ... */
        1,          /* ... whose impact [1] lowers it 1 → 0: all credibility lost (003:70) */
        5, 4, 3, 2,
        2,          /* the goblin works against Missa's standing with Brakka: 2d6 [5,4] = 9 vs
                       her Reaction [3,2] → 5: it lands, impact [2]: 5 → 3 */
        1, 1, 6, 3, /* again: [1,1] = 2 vs [6,3] → 8: it fails; the scale stays (reading) */
    };
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e3\"}");
    OK(&f, "p1", "e1", "sway", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(scale(&f, "e1", "e3"), 1);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", 0), 1);
    OK(&f, "p1", "e1", "sway", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(scale(&f, "e1", "e3"), 0);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", 0), 2);
    /* over at 0: every move on it is refused before a die */
    refused(&f, "p1", "e1", "sway", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "lost all credibility");
    refused(&f, "gm", "e3", "scrutiny", "{\"target\":\"e1\",\"skill\":\"Sneer\"}", TB_RULE,
            "lost all credibility");
    refused(&f, "p1", "e1", "quit", "{\"target\":\"e3\"}", TB_RULE, "lost all credibility");
    /* the goblin's scrutiny of Missa in Brakka's eyes: open that contest at 5 */
    OK(&f, "gm", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e2\"}");
    refused(&f, "p1", "e1", "scrutiny",
            "{\"target\":\"e3\",\"target2\":\"e2\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "not trying to win over");
    OK(&f, "gm", "e3", "scrutiny", "{\"target\":\"e1\",\"target2\":\"e2\",\"skill\":\"Sneer\"}");
    ck_assert_int_eq(scale(&f, "e1", "e2"), 3);
    OK(&f, "gm", "e3", "scrutiny", "{\"target\":\"e1\",\"target2\":\"e2\",\"skill\":\"Sneer\"}");
    ck_assert_int_eq(scale(&f, "e1", "e2"), 3);
    fx_script_used(&f);
    /* the goblin's dice and totals stay the GM's: no public die of e3 */
    size_t i, k;
    json_t *v, *d;
    int gm_dice = 0;
    json_array_foreach(f.e.log, i, v)
    {
        json_array_foreach(json_object_get(v, "dice"), k, d)
            ck_assert_str_ne(json_string_value(json_object_get(d, "by")), "e3");
        /* the goblin's total: its defence against a sway, its attack in a scrutiny */
        const char *act = json_string_value(json_object_get(v, "action"));
        ck_assert_ptr_null(json_object_get(json_object_get(v, "result"),
                                           rules_enc_streq(act, "sway") ? "defence" : "attack"));
    }
    json_array_foreach(f.e.gm_log, i, v) json_array_foreach(json_object_get(v, "dice"), k, d)
        gm_dice += rules_enc_streq(json_string_value(json_object_get(d, "by")), "e3");
    ck_assert_int_gt(gm_dice, 0);
    /* the end of the scene: positive spin is lost (003:94) */
    ck_assert_int_eq(f.m->end(&f.e, &f.err), 0);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "spin", 0), 0);
    fx_free(&f);
}
END_TEST

START_TEST(social_scene_ten_wins_push_with_10acity_and_the_gm_moves_the_scale)
{
    fx f;
    fx_party_in(&f, "tenacity.social", NULL);
    static const int D[] = {
        4, 2, 4, 4,    /* Missa [4,2] → 7 vs [4,4] = 8: short by 1; pushed with 2 10acity to 9 */
        3,             /* impact [3]: 6 → 9 */
        8, 5, 2, 3, 4, /* [8,5] → 11 vs 5: impact [4]: 9 → 10, won over (003:70) */
        9, 3, 2, 2,    /* Brakka works against Missa in the goblin's eyes: Intimidation [9] → 12
                          vs her Reaction [3,2] → 5: it lands, impact 1d4 [2]: 4 → 2 */
    };
    fx_dice(&f, D, N_ELEMS(D) - 4);
    OK(&f, "gm", NULL, "open", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":6}");
    ck_assert_int_eq(scale(&f, "e1", "e3"), 6);
    int tn = rules_enc_stat(&f.e, "e1", "tenacity", 0);
    OK(&f, "p1", "e1", "sway",
       "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"push\":true,\"push_with\":\"tenacity\"}");
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "tenacity", 0), tn - 2);
    ck_assert_int_eq(scale(&f, "e1", "e3"), 9);
    OK(&f, "p1", "e1", "sway", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(scale(&f, "e1", "e3"), 10);
    refused(&f, "p1", "e1", "sway", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "already won");
    fx_script_used(&f);
    /* the narrator moves it back (difficult to come back from, but the GM's call) */
    refused(&f, "gm", NULL, "standing", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":11}",
            TB_BAD_REQUEST, "value");
    OK(&f, "gm", NULL, "standing", "{\"target\":\"e1\",\"target2\":\"e3\",\"value\":4}");
    ck_assert_int_eq(scale(&f, "e1", "e3"), 4);
    /* a crewmate may work against a PC too (PC against PC: both rolls are public) */
    fx_dice(&f, D + N_ELEMS(D) - 4, 4);
    OK(&f, "p2", "e2", "scrutiny",
       "{\"target\":\"e1\",\"target2\":\"e3\",\"skill\":\"Intimidation\"}");
    ck_assert_int_eq(scale(&f, "e1", "e3"), 2);
    fx_script_used(&f);
    /* giving up closes the contest where it stands */
    refused(&f, "p2", "e1", "quit", "{\"target\":\"e3\"}", TB_FORBIDDEN, "not your character");
    OK(&f, "p1", "e1", "quit", "{\"target\":\"e3\"}");
    ck_assert_int_eq(scale(&f, "e1", "e3"), -1);
    /* a damaged scale is refused by the module's check */
    json_object_set_new(json_object_get(json_object_get(f.enc, "standing"), "e1"), "e3",
                        json_integer(12));
    ck_assert_int_eq(f.m->check(&f.e, &f.err), TB_RULE);
    ck_assert_ptr_nonnull(strstr(f.err.msg, "damaged"));
    fx_free(&f);
}
END_TEST

/* ---- the fight's options (rules/tenacity/options.c) ---- */

/* Every scripted die was drawn, and no more: the next one runs past the script. */
static void fx_script_done(fx *f)
{
    ck_assert_msg(!rules_rng_exhausted(f->rng), "the scripted dice ran out");
    rules_rng_die(f->rng, 6);
    ck_assert_msg(rules_rng_exhausted(f->rng), "scripted dice were left over");
}

static json_t *grip(fx *f, const char *cid)
{
    return json_object_get(rules_enc_combatant(&f->e, cid), "grip");
}

static int gm_cond(fx *f, const char *cid, const char *name)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_hidden_of(&f->e, cid), "conds"), name));
}

/* Whether some public log entry's compact JSON holds needle. */
static int public_log_has(fx *f, const char *needle)
{
    char *s = json_dumps(f->e.log, JSON_COMPACT);
    int found = strstr(s, needle) != NULL;
    free(s);
    return found;
}

/* ---- issue 25, items 15-19: what a rulebook audit found ---- */

/* Issue 25 item 15: 003:74 "Stress is recovered automatically at the end of a scene": the end of a
 * fight (enc.end, the module's end hook) brings everyone's stress back to 0; wounds stay. The
 * goblin's recovery is the GM's (its stress is). */
START_TEST(stress_is_recovered_when_the_fight_ends)
{
    fx f;
    fx_party(&f, NULL);
    /* init as in the chain; Missa hits the goblin: [9,1]+3 = 12 vs [1,1] = 2: 1d4 [4] = 4 stress
     * (max 6). Missa ends; the goblin strikes back: [6,6] = 12 vs Missa's Reaction [2,1]+2 = 4:
     * 1d4 [3] = 3 stress. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 9, 1, 1, 1, 4, 6, 6, 2, 1, 3};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    OK(&f, "p1", NULL, "end", NULL);
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\"}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 3);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 4);
    int brakka_wounds = stat_track(&f, "e2", "wounds");
    ck_assert_int_gt(stat_track(&f, "e2", "stress"), 0); /* Brakka's sample starts stressed */
    fx_script_done(&f);
    size_t pub = json_array_size(f.e.log);
    ck_assert_int_eq(f.m->end(&f.e, &f.err), 0);
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 0);
    ck_assert_int_eq(stat_track(&f, "e2", "stress"), 0);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 0);
    ck_assert_int_eq(stat_track(&f, "e2", "wounds"), brakka_wounds);
    /* the table reads the PCs' recovery; the goblin's is the GM's */
    ck_assert(public_log_has(&f, "Missa recovers all stress at the end of the scene"));
    ck_assert(!public_log_has(&f, "Goblin recovers"));
    ck_assert_int_eq(json_array_size(f.e.log), pub + 2);
    char *gm = json_dumps(f.e.gm_log, JSON_COMPACT);
    ck_assert_ptr_nonnull(strstr(gm, "Goblin recovers all stress"));
    free(gm);
    fx_free(&f);

    /* the end of a social scene is the end of a scene too */
    fx_party_in(&f, "tenacity.social", NULL);
    ck_assert_int_gt(stat_track(&f, "e2", "stress"), 0);
    ck_assert_int_eq(f.m->end(&f.e, &f.err), 0);
    ck_assert_int_eq(stat_track(&f, "e2", "stress"), 0);
    fx_free(&f);
}
END_TEST

/* Issue 25 item 16: an `end` with `shake` whose `next` may not have the spotlight is refused
 * before the free roll's die (validate before you roll): the refusal draws nothing, changes
 * nothing, and the same end with a lawful `next` then rolls exactly its own dice. */
START_TEST(a_refused_end_draws_no_shake_die)
{
    fx f;
    fx_party(&f, NULL);
    /* init as in the chain; Missa stops the goblin's move: [8,2]+3 = 11 vs [1,2] = 3. The goblin's
     * free roll: 2d6 [6,6] = 12 vs 11: gone. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 2, 1, 2, 6, 6};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "condition",
       "{\"target\":\"e3\",\"kind\":\"stop\",\"what\":\"movement\",\"skill\":\"Telekinesis\"}");
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    /* Missa has acted: the spotlight goes to Brakka (003:88) */
    refused(&f, "gm", NULL, "end", "{\"shake\":\"movement\",\"next\":\"e1\"}", TB_RULE,
            "cannot go to Missa");
    ck_assert(rules_enc_cond_has(&f.e, "e3", "stop:movement"));
    OK(&f, "gm", NULL, "end", "{\"shake\":\"movement\",\"next\":\"e2\"}");
    ck_assert(!rules_enc_cond_has(&f.e, "e3", "stop:movement"));
    ck_assert_str_eq(holder(&f), "e2");
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

/* Issue 25 item 18: help on a quick pass/fail roll is the advantage die (003:57, 003:79): Missa
 * helps Brakka (Athletics 1) and his sprint rolls 3 + 1 dice: [2,3,4,9] + 4 = 13 spaces; the
 * help is spent. A stop condition is a pass/fail roll too; an attack is not (the test above). */
START_TEST(help_is_an_advantage_die_on_a_quick_roll)
{
    fx f;
    fx_party(&f, NULL);
    static const int D[] = {7, 3, 4, 2, 3, 3, 2, 3, 4, 9};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "help", "{\"target\":\"e2\",\"skill\":\"Athletics\"}");
    OK(&f, "p1", NULL, "end", NULL);
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    OK(&f, "p2", NULL, "sprint", NULL);
    ck_assert_int_eq(
        json_integer_value(json_object_get(rules_enc_cond(&f.e, "e2", "sprinting"), "level")), 13);
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "helped"));
    fx_script_done(&f);
    fx_free(&f);

    /* a stop condition: Missa helps Brakka again, and his stop (Intimidation: Presence 1d10,
     * rank 3) rolls 1 + 1 dice: [2,9] + 3 = 12 vs [5,5] = 10; no impact, nobody cooperates */
    fx_party(&f, NULL);
    static const int D2[] = {7, 3, 4, 2, 3, 3, 2, 9, 5, 5};
    fx_dice(&f, D2, N_ELEMS(D2));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "help", "{\"target\":\"e2\",\"skill\":\"Athletics\"}");
    OK(&f, "p1", NULL, "end", NULL);
    OK(&f, "gm", NULL, "end", NULL);
    OK(&f, "p2", NULL, "condition",
       "{\"target\":\"e3\",\"kind\":\"stop\",\"what\":\"movement\",\"skill\":\"Intimidation\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e3", "stop:movement"));
    ck_assert(!public_log_has(&f, "cooperates"));
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

/* Issue 25 item 19: 003:52, 003:73 stealth sets the challenge "for anyone else attempting to
 * discover your location". Missa hides (Stealth 1, Dexterity 2d10): [6,2] + 1 = 7, open; the
 * goblin hides: [4,4] = 8, the GM's; Brakka looks for it (Perception 2, Awareness 1d10): [7] + 2 =
 * 9 beats 8: found. */
START_TEST(stealth_sets_the_challenge_to_find_the_hider)
{
    fx f;
    fx_party(&f, NULL);
    static const int D[] = {7, 3, 4, 2, 3, 3, 6, 2, 4, 4, 7};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    refused(&f, "p1", NULL, "seek", "{\"target\":\"e3\"}", TB_RULE, "not hidden");
    refused(&f, "p1", NULL, "hide", "{\"skill\":\"Flying\"}", TB_BAD_REQUEST, "no skill");
    OK(&f, "p1", NULL, "hide", NULL);
    ck_assert_int_eq(
        json_integer_value(json_object_get(rules_enc_cond(&f.e, "e1", "hidden"), "level")), 7);
    ck_assert(public_log_has(&f, "Missa hides with Stealth: 7 to find them"));
    refused(&f, "p1", NULL, "hide", NULL, TB_RULE, "no action left");
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "hide", NULL);
    ck_assert(rules_enc_cond_has(&f.e, "e3", "hidden"));
    ck_assert_int_eq(
        json_integer_value(json_object_get(rules_enc_hidden_of(&f.e, "e3"), "stealth")), 8);
    ck_assert(public_log_has(&f, "Goblin hides"));
    ck_assert(!public_log_has(&f, "8 to find"));
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    OK(&f, "p2", NULL, "seek", "{\"target\":\"e3\"}");
    ck_assert(!rules_enc_cond_has(&f.e, "e3", "hidden"));
    ck_assert(public_log_has(&f, "Brakka looks for Goblin with Perception: found"));
    ck_assert(!public_log_has(&f, "9 vs 8")); /* the goblin's roll stays the GM's */
    ck_assert(rules_enc_cond_has(&f.e, "e1", "hidden"));
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

START_TEST(grapple_hinders_by_impact_lock_stops_movement_and_escapes_beat_the_roll)
{
    fx f;
    fx_party(&f, NULL);
    /* init (Missa first). Missa grapples the goblin telekinetically (003:81's example):
     * Telekinesis [8,5]+3 = 11 vs 2d6 [2,3] = 5: grappled, impact 1d4 [3] → hindered by 3; the
     * escape rolls against her 11.
     * Goblin's free roll at the end of its turn: [4,4] = 8 vs 11: it stays.
     * Round 2, the GM puts Missa in the spotlight; she locks: no check, Telekinesis' impact 1d4 [2]
     * → 2 stress. Goblin's action: [6,6] = 12 vs 11: the lock is broken, a grapple again; its free
     * roll [6,5] = 11 vs 11: a tie to the holder, it stays. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 5, 2, 3, 3, 4, 4, 2, 6, 6, 6, 5};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    const char *grab = "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}";
    refused(&f, "p1", NULL, "lock", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "does not hold Goblin");
    refused(&f, "p1", NULL, "escape", NULL, TB_RULE, "not held");
    refused(&f, "p1", NULL, "grapple", "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"limbs\":0}",
            TB_BAD_REQUEST, "limbs");
    refused(&f, "p1", NULL, "grapple", "{\"target\":\"e1\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "themself");
    refused(&f, "p1", NULL, "grapple", "{\"target\":\"e3\",\"skill\":\"Juggling\"}", TB_BAD_REQUEST,
            "Juggling");
    OK(&f, "p1", NULL, "grapple", grab);
    json_t *c = rules_enc_cond(&f.e, "e3", "grappled");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(json_integer_value(json_object_get(c, "level")), 3);
    ck_assert_str_eq(json_string_value(json_object_get(c, "kind")), "hinder");
    ck_assert_str_eq(json_string_value(json_object_get(grip(&f, "e3"), "by")), "e1");
    ck_assert_str_eq(
        json_string_value(json_object_get(rules_enc_combatant(&f.e, "e1"), "gripping")), "e3");
    ck_assert_int_eq(gm_cond(&f, "e3", "grappled"), 11);
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    refused(&f, "gm", NULL, "end", "{\"shake\":\"locked\"}", TB_RULE, "no condition 'locked'");
    OK(&f, "gm", NULL, "end", "{\"shake\":\"grappled\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e3", "grappled"));
    ck_assert_str_eq(holder(&f), "e2");
    refused(&f, "p2", NULL, "lock", "{\"target\":\"e3\"}", TB_RULE, "does not hold");
    OK(&f, "p2", NULL, "end", NULL); /* round 2: the goblin; the GM moves it to Missa */
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "spotlight", "{\"target\":\"e1\"}");
    ck_assert_str_eq(holder(&f), "e1");
    refused(&f, "p1", NULL, "lock", "{\"target\":\"e3\",\"skill\":\"Juggling\"}", TB_BAD_REQUEST,
            "Juggling");
    OK(&f, "p1", NULL, "lock", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 2);
    ck_assert(rules_enc_cond_has(&f.e, "e3", "locked"));
    ck_assert(json_is_true(json_object_get(grip(&f, "e3"), "locked")));
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    /* 003:105 "they cannot use their movement at all"; the lock before the grapple, and only
     * with an action */
    refused(&f, "gm", NULL, "move", NULL, TB_RULE, "locked prevents it");
    refused(&f, "gm", NULL, "end", "{\"shake\":\"locked\"}", TB_RULE, "only with an action");
    refused(&f, "gm", NULL, "end", "{\"shake\":\"grappled\"}", TB_RULE, "lock must be broken");
    OK(&f, "gm", NULL, "escape", NULL);
    ck_assert(!rules_enc_cond_has(&f.e, "e3", "locked"));
    ck_assert(rules_enc_cond_has(&f.e, "e3", "grappled"));
    ck_assert(json_is_false(json_object_get(grip(&f, "e3"), "locked")));
    OK(&f, "gm", NULL, "end", "{\"shake\":\"grappled\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e3", "grappled"));
    /* the holder's roll is the GM's */
    ck_assert(!public_log_has(&f, "\"challenge\""));
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

START_TEST(a_grapple_on_two_limbs_hinders_all_but_the_escape_and_a_lock_costs_a_die)
{
    fx f;
    fx_party(&f, NULL);
    /* init: Missa [1,1]+2 = 3, Brakka [1,2]+3 = 5, goblin [6,6] = 12: the goblin first. It
     * grapples two of Brakka's limbs: [5,5] = 10 vs Reaction [3,2]+3 = 6: impact [2] → all
     * physical actions hindered by 2, the escape against 10 (GM-only).
     * Brakka escapes with Athletics: [8,2,1]+4 = 12 vs 10 (the grapple's 2 does not count:
     * 10 would tie and fail). */
    static const int D[] = {1, 1, 1, 2, 6, 6, 5, 5, 3, 2, 2, 8, 2, 1};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "grapple", "{\"target\":\"e2\",\"limbs\":2}");
    json_t *c = rules_enc_cond(&f.e, "e2", "grappled");
    ck_assert_str_eq(json_string_value(json_object_get(c, "what")), "all");
    ck_assert_int_eq(json_integer_value(json_object_get(c, "level")), 2);
    ck_assert_int_eq(gm_cond(&f, "e2", "grappled"), 10);
    ck_assert(!public_log_has(&f, "\"attack\":10"));
    refused(&f, "gm", NULL, "lock", "{\"target\":\"e2\"}", TB_RULE, "no action left");
    refused(&f, "gm", NULL, "grapple", "{\"target\":\"e1\"}", TB_RULE, "already holding");
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    refused(&f, "p2", NULL, "escape", "{\"skill\":\"Juggling\"}", TB_BAD_REQUEST, "Juggling");
    OK(&f, "p2", NULL, "escape", NULL);
    ck_assert_ptr_null(grip(&f, "e2"));
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "grappled"));
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "gripping"));
    fx_script_done(&f);
    fx_free(&f);

    /* 003:105 a locked character acts with one disadvantage die: Brakka locked, attacks with
     * Melee Combat on 3 - 1 = 2 dice */
    fx_party(&f, NULL);
    static const int D2[] = {1, 1, 1, 2, 6, 6, 5, 5, 3, 2, 2, /* grapple as above */
                             /* round 2 after Missa and Brakka end: the goblin locks: [1] */
                             1,
                             /* Brakka attacks: 2 dice [9,4]+6-2 = 13 vs [2,2] = 4: 3d4 [1,1,1]+2 */
                             9, 4, 2, 2, 1, 1, 1};
    fx_dice(&f, D2, N_ELEMS(D2));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "gm", NULL, "grapple", "{\"target\":\"e2\",\"limbs\":2}");
    OK(&f, "gm", NULL, "end", NULL);
    OK(&f, "p2", NULL, "end", NULL);
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "lock", "{\"target\":\"e2\"}");
    ck_assert_int_eq(stat_track(&f, "e2", "stress"), 5); /* 4 + 1 */
    ck_assert(!public_log_has(&f, "\"by\":\"e3\""));     /* the goblin's dice are the GM's */
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    refused(&f, "p2", NULL, "sprint", NULL, TB_RULE, "locked prevents it");
    OK(&f, "p2", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Melee Combat\"}");
    json_t *last = json_array_get(f.e.log, 0);
    for (size_t i = 0; i < json_array_size(f.e.log); i++)
        if (rules_enc_streq(
                json_string_value(json_object_get(json_array_get(f.e.log, i), "action")), "attack"))
            last = json_array_get(f.e.log, i);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(last, "result"), "attack")),
                     13);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 5);
    /* the grappler falls unconscious: Brakka is free (reading O3) */
    ten_stress(&f.e, "e3", 5, "test");
    ck_assert(rules_enc_cond_has(&f.e, "e3", "unconscious"));
    ck_assert_ptr_null(grip(&f, "e2"));
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "locked"));
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "gripping"));
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

START_TEST(a_held_action_is_taken_when_its_trigger_happens_or_lapses)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa holds her action; the goblin moves; she releases and attacks: [8,5]+3 = 11 vs
     * [2,3] = 5, 1d4 [3] */
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 5, 2, 3, 3};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    refused(&f, "p1", NULL, "hold", "{\"what\":\"jump\",\"trigger\":\"x\"}", TB_BAD_REQUEST,
            "action or move");
    refused(&f, "p1", NULL, "hold", "{\"what\":\"action\"}", TB_BAD_REQUEST, "trigger");
    refused(&f, "p1", "e1", "release", NULL, TB_RULE, "holding nothing");
    OK(&f, "p1", NULL, "hold", "{\"trigger\":\"the goblin moves\"}");
    json_t *held = json_object_get(rules_enc_combatant(&f.e, "e1"), "held");
    ck_assert_str_eq(json_string_value(json_object_get(held, "what")), "action");
    ck_assert_str_eq(json_string_value(json_object_get(held, "trigger")), "the goblin moves");
    refused(&f, "p1", NULL, "hold", "{\"what\":\"move\",\"trigger\":\"x\"}", TB_RULE,
            "already holding");
    refused(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "no action left");
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "move", NULL);
    refused(&f, "p2", "e1", "release", NULL, TB_FORBIDDEN, "not your character");
    OK(&f, "p1", "e1", "release", NULL);
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "responder")), "e1");
    refused(&f, "gm", "e3", "move", NULL, TB_RULE, "Missa is responding");
    refused(&f, "p1", "e1", "move", NULL, TB_RULE, "no move left");
    OK(&f, "p1", "e1", "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 3);
    ck_assert(json_is_null(json_object_get(f.enc, "responder")));
    ck_assert_str_eq(holder(&f), "e3");
    refused(&f, "p1", "e1", "release", NULL, TB_RULE, "holding nothing");
    /* an NPC's trigger is the GM's */
    OK(&f, "gm", NULL, "hold", "{\"what\":\"action\",\"trigger\":\"Brakka draws steel\"}");
    ck_assert_ptr_null(
        json_object_get(json_object_get(rules_enc_combatant(&f.e, "e3"), "held"), "trigger"));
    ck_assert_str_eq(
        json_string_value(json_object_get(rules_enc_hidden_of(&f.e, "e3"), "held_trigger")),
        "Brakka draws steel");
    ck_assert(!public_log_has(&f, "draws steel"));
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    /* a held movement that is never triggered lapses at the holder's next turn */
    OK(&f, "p2", NULL, "hold", "{\"what\":\"move\",\"trigger\":\"someone runs\"}");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e2", "move"), 0);
    OK(&f, "p2", NULL, "end", NULL); /* round 2: the goblin's hold lapses at its turn */
    ck_assert_str_eq(holder(&f), "e3");
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "held"));
    ck_assert_ptr_null(json_object_get(rules_enc_hidden_of(&f.e, "e3"), "held_trigger"));
    OK(&f, "gm", NULL, "end", NULL);
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e2"), "held"));
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

START_TEST(cover_prone_flanking_resistance_and_size_change_the_attack)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa attacks the goblin at range behind partial cover and prone: the goblin defends at
     * +1 ([4,5]+1 = 10; a sheetless NPC's challenge dice take no advantage die) vs [8,5]+3 = 11:
     * a hit, 1d4 [3], fire: 2 resisted (GM-only) → 1 stress; Brakka flanks: +1 spin.
     * The goblin (size 1, a step larger) attacks Missa: Missa defends at +1 die, +1:
     * [6,5] = 11 vs [2,1,1]+2+1 = 5: 1d4 [3] doubled → 6 stress. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 8, 5, 4, 5, 3, 6, 5, 2, 1, 1, 3};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    refused(&f, "p1", "e1", "cover", "{\"cover\":\"bush\"}", TB_BAD_REQUEST, "none, partial");
    refused(&f, "p1", "e1", "size", "{\"target\":\"e1\",\"size\":2}", TB_FORBIDDEN, "GM");
    refused(&f, "p1", "e1", "prone", NULL, TB_BAD_REQUEST, "prone");
    refused(&f, "p1", "e3", "prone", "{\"prone\":true}", TB_FORBIDDEN, "not your character");
    OK(&f, "gm", "e3", "cover", "{\"cover\":\"full\"}");
    const char *shot = "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"range\":\"ranged\","
                       "\"type\":\"fire\",\"target2\":\"e2\"}";
    refused(&f, "p1", NULL, "attack", shot, TB_RULE, "cannot be attacked directly");
    OK(&f, "gm", "e3", "cover", "{\"cover\":\"partial\"}");
    OK(&f, "gm", "e3", "prone", "{\"prone\":true}");
    refused(&f, "p1", NULL, "attack",
            "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"range\":\"far\"}", TB_BAD_REQUEST,
            "melee or ranged");
    refused(&f, "p1", NULL, "attack",
            "{\"target\":\"e3\",\"skill\":\"Telekinesis\",\"target2\":\"e3\"}", TB_RULE, "flank");
    refused(&f, "p1", "e3", "resist", "{\"target\":\"e3\",\"type\":\"fire\",\"value\":2}",
            TB_FORBIDDEN, "GM");
    OK(&f, "gm", NULL, "resist", "{\"target\":\"e3\",\"type\":\"fire\",\"value\":2}");
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "resist"));
    OK(&f, "p1", NULL, "attack", shot);
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 1);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "spin", 0), -1); /* -2 + 1 (003:110) */
    /* the goblin's resistance stays the GM's: no stress number, no "ignores" in public */
    ck_assert(!public_log_has(&f, "ignores"));
    ck_assert(!public_log_has(&f, "1 stress"));
    ck_assert(public_log_has(&f, "a hit, 3 impact"));
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    OK(&f, "gm", NULL, "size", "{\"target\":\"e3\",\"size\":1}");
    OK(&f, "gm", "e3", "prone", "{\"prone\":false}");
    OK(&f, "gm", "e3", "cover", "{\"cover\":\"none\"}");
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "prone"));
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "cover"));
    OK(&f, "gm", NULL, "attack", "{\"target\":\"e1\"}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 6);
    ck_assert(public_log_has(&f, "doubled for size: 6"));
    fx_script_done(&f);
    fx_free(&f);

    /* elevation sees past partial cover (003:116); a larger target halves the damage (003:122):
     * Missa (elevated) vs the goblin (size 1, partial cover): +1 die and +1 for her:
     * [8,5,1]+3+1 = 12 vs [6,5] = 11 (no +1 for the cover): 1d4 [3] halved → 1 stress */
    fx_party(&f, NULL);
    static const int D2[] = {7, 3, 4, 2, 3, 3, 8, 5, 1, 6, 5, 3};
    fx_dice(&f, D2, N_ELEMS(D2));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", "e1", "high_ground", "{\"elevated\":true}");
    OK(&f, "gm", NULL, "size", "{\"target\":\"e3\",\"size\":1}");
    OK(&f, "gm", "e3", "cover", "{\"cover\":\"partial\"}");
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 1);
    fx_script_done(&f);
    fx_free(&f);

    /* 003:120 a resistance adds to the roll to avoid a condition of its type: the goblin resists
     * poison 3: Missa [8,5]+3 = 11 vs [4,5]+3 = 12: it holds; without the type 11 vs 9 */
    fx_party(&f, NULL);
    static const int D3[] = {7, 3, 4, 2, 3, 3, 8, 5, 4, 5};
    fx_dice(&f, D3, N_ELEMS(D3));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "gm", NULL, "resist", "{\"target\":\"e3\",\"type\":\"poison\",\"value\":3}");
    OK(&f, "p1", NULL, "condition",
       "{\"target\":\"e3\",\"kind\":\"stop\",\"what\":\"movement\",\"skill\":"
       "\"Telekinesis\",\"type\":\"poison\"}");
    ck_assert(!rules_enc_cond_has(&f.e, "e3", "stop:movement"));
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

START_TEST(soft_cover_needs_a_blind_find_and_leaving_melee_invites_a_parting_strike)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa attacks the goblin behind soft cover: d10 [5] < 6: nothing found, no contest.
     * She moves away; the goblin strikes in parting: [6,6] = 12 vs [3,2]+2 = 5: 1d4 [2]. */
    static const int D[] = {7, 3, 4, 2, 3, 3, 5, 6, 6, 3, 2, 2};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "gm", "e3", "cover", "{\"cover\":\"soft\"}");
    refused(&f, "p1", NULL, "grapple", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "soft cover");
    refused(&f, "gm", "e3", "parting", "{\"target\":\"e1\"}", TB_RULE, "not moving away");
    OK(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}");
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 0);
    ck_assert(public_log_has(&f, "nothing found"));
    OK(&f, "p1", NULL, "move", NULL);
    refused(&f, "p2", "e2", "parting", "{\"target\":\"e1\"}", TB_RULE, "against an opponent");
    OK(&f, "gm", "e3", "parting", "{\"target\":\"e1\"}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 2);
    ck_assert_str_eq(holder(&f), "e1"); /* a reaction does not take the spotlight */
    refused(&f, "gm", "e3", "parting", "{\"target\":\"e1\"}", TB_RULE, "already struck");
    OK(&f, "p1", NULL, "end", NULL);
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    /* 003:112 a withdrawal avoids it */
    OK(&f, "p2", NULL, "withdraw", NULL);
    OK(&f, "p2", NULL, "move", NULL);
    refused(&f, "gm", "e3", "parting", "{\"target\":\"e2\"}", TB_RULE, "withdrew");
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

START_TEST(help_gives_one_advantage_die_and_the_gm_trades_negative_spin_and_a_player_may_die)
{
    fx f;
    fx_party(&f, NULL);
    /* Missa helps Brakka (Telekinesis 3). An attack is an impact action: no advantage die, Missa
     * cooperates (003:57, 003:79-80; issue 25 item 18: before, Brakka rolled 3 + 1 dice). Brakka
     * [2,3,9]+6 = 15 vs [5,5] = 10: 3d4 [1,1,1]+2 = 5; Missa cooperates: [8,1]+3 = 11 vs the
     * same 10: her 1d4 [1] is added: 6 stress */
    static const int D[] = {7, 3, 4, 2, 3, 3, 2, 3, 9, 5, 5, 1, 1, 1, 8, 1, 1};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    refused(&f, "p1", NULL, "help", "{\"target\":\"e2\",\"skill\":\"Melee Combat\"}", TB_RULE,
            "at least one rank");
    refused(&f, "p1", NULL, "help", "{\"target\":\"e3\",\"skill\":\"Persuasion\"}", TB_RULE,
            "allies");
    refused(&f, "p1", NULL, "help", "{\"target\":\"e2\"}", TB_BAD_REQUEST, "skill");
    OK(&f, "p1", NULL, "help", "{\"target\":\"e2\",\"skill\":\"Telekinesis\"}");
    ck_assert(rules_enc_cond_has(&f.e, "e2", "helped"));
    OK(&f, "p1", NULL, "end", NULL);
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    OK(&f, "p2", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Melee Combat\"}");
    ck_assert_int_eq(stat_track(&f, "e3", "stress"), 6);
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "helped"));
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e2"), "help_skill"));
    ck_assert(public_log_has(&f, "Missa cooperates with Brakka with Telekinesis: +1 impact"));
    ck_assert(!public_log_has(&f, "11 vs 10")); /* the goblin's defence is the GM's */

    /* 003:39 the narrator's trade: Brakka has 2 negative spin */
    refused(&f, "gm", NULL, "offer", "{\"target\":\"e2\",\"negative\":3,\"cost\":\"x\"}", TB_RULE,
            "only 2");
    refused(&f, "gm", NULL, "offer", "{\"target\":\"e1\",\"negative\":1,\"cost\":\"x\"}", TB_RULE,
            "no negative spin");
    refused(&f, "gm", NULL, "offer", "{\"target\":\"e3\",\"negative\":1,\"cost\":\"x\"}", TB_RULE,
            "bargain");
    refused(&f, "p2", "e2", "offer", "{\"target\":\"e2\",\"negative\":1,\"cost\":\"x\"}",
            TB_FORBIDDEN, "GM");
    refused(&f, "p2", "e2", "accept", NULL, TB_RULE, "no trade");
    OK(&f, "gm", NULL, "offer",
       "{\"target\":\"e2\",\"negative\":2,\"cost\":\"the axe's handle comes loose\"}");
    refused(&f, "p1", "e2", "accept", NULL, TB_FORBIDDEN, "not your character");
    OK(&f, "p2", "e2", "accept", NULL);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "spin", -99), 0);
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e2"), "offer"));
    ck_assert(public_log_has(&f, "the axe's handle comes loose"));
    refused(&f, "p2", "e2", "decline", NULL, TB_RULE, "no trade");

    /* 003:108 the player's choice to die */
    refused(&f, "gm", "e3", "die", "{\"confirm\":true}", TB_RULE, "player's");
    refused(&f, "p2", "e2", "die", NULL, TB_BAD_REQUEST, "confirm");
    refused(&f, "p2", "e2", "die", "{\"confirm\":false}", TB_BAD_REQUEST, "confirm");
    refused(&f, "p1", "e2", "die", "{\"confirm\":true}", TB_FORBIDDEN, "not your character");
    OK(&f, "p2", "e2", "die", "{\"confirm\":true}");
    ck_assert(rules_enc_is_out(&f.e, "e2"));
    ck_assert_str_eq(json_string_value(json_object_get(rules_enc_combatant(&f.e, "e2"), "out")),
                     "dead");
    refused(&f, "p2", "e2", "die", "{\"confirm\":true}", TB_RULE, "already out");
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

START_TEST(one_standing_scale_clamps_for_both_modules)
{
    fx f;
    fx_party(&f, NULL);
    ck_assert_int_eq(ten_standing_of(&f.e, "e1", "e3", -1), -1);
    ck_assert_int_eq(ten_standing_move(&f.e, "e1", "e3", 8, 5), 10);
    ck_assert_int_eq(ten_standing_move(&f.e, "e1", "e3", 2, -4), 0);
    ck_assert_int_eq(ten_standing_move(&f.e, "e1", "e3", 5, -1), 4);
    ck_assert_int_eq(ten_standing_of(&f.e, "e1", "e3", -1), 4);
    fx_free(&f);
}
END_TEST

/* ---- the moves (issue 23): what a seat may do now, filled so that it goes through ---- */

static json_t *moves_of(fx *f, const char *seat)
{
    f->e.seat = seat;
    f->e.is_gm = strcmp(seat, "gm") == 0;
    return rules_enc_moves(&f->e);
}

/* The move of action for actor (NULL: one taken without an actor), or NULL. */
static json_t *move_in(json_t *moves, const char *action, const char *actor)
{
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m)
    {
        const char *who = json_string_value(json_object_get(m, "actor"));
        if (strcmp(json_string_value(json_object_get(m, "action")), action) == 0 &&
            (actor ? who && strcmp(who, actor) == 0 : !who))
            return m;
    }
    return NULL;
}

/* The values a parameter of a move may take, as one string ("e3 e2"). */
static const char *choices_of(json_t *m, const char *param, char *buf, size_t cap)
{
    size_t i, k, n = 0;
    json_t *p, *c;
    buf[0] = '\0';
    json_array_foreach(json_object_get(m, "params"), i, p)
    {
        if (strcmp(json_string_value(json_object_get(p, "name")), param) != 0)
            continue;
        json_array_foreach(json_object_get(p, "choices"), k, c)
        {
            const char *v = json_string_value(json_object_get(c, "value"));
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " " : "", v ? v : "-");
            if (n >= cap)
                break;
        }
    }
    return buf;
}

/* Every move goes through its check as it is offered (a text the person types filled in), and the
 * moves that are not folded away are `plain`. */
static void moves_go_through(fx *f, json_t *moves, int plain)
{
    size_t i;
    json_t *m;
    int n = 0;
    json_array_foreach(moves, i, m)
    {
        const rules_enc_action *a =
            rules_module_action(f->m, json_string_value(json_object_get(m, "action")));
        json_t *args = json_deep_copy(json_object_get(m, "args"));
        for (const rules_param *p = a->params; p && p->name; p++)
            if ((p->flags & RULES_PARAM_REQUIRED) && !json_object_get(args, p->name))
                json_object_set_new(args, p->name, json_string(p->name));
        rules_args pa;
        tb_err err = {0};
        ck_assert_msg(rules_enc_act_check(&f->e, a, json_string_value(json_object_get(m, "actor")),
                                          args, &pa, &err) == 0,
                      "%s: %s", a->name, err.msg);
        json_decref(args);
        n += !json_is_true(json_object_get(m, "rare"));
    }
    ck_assert_int_eq(n, plain);
}

/* Issue 23: a phone showed 24 actions, "Choose to die" and "Coup de grâce" at full health among
 * them. Missa, first at initiative, is offered what she may do now (the pass of the initiative
 * winner, 003:86; her attack on the goblin with her best skill), ten moves in plain sight and the
 * seldom ones folded away; the choice to die (003:108, legal at any time) asks to be confirmed;
 * a coup de grâce is offered only on a helpless character (003:106-107), nothing that needs a
 * grapple, a hold, a trade or a condition is offered without one. */
START_TEST(the_moves_offer_only_the_legal_ones_filled_so_that_they_go_through)
{
    fx f;
    char buf[200];
    fx_party(&f, NULL);
    json_t *m = moves_of(&f, "gm");
    ck_assert_ptr_nonnull(move_in(m, "initiative", NULL));
    ck_assert_ptr_null(move_in(m, "attack", "e3")); /* nobody acts before initiative */
    json_decref(m);
    fx_dice(&f, INIT, N_ELEMS(INIT));
    OK(&f, "gm", NULL, "initiative", NULL);
    m = moves_of(&f, "p1");
    json_t *atk = move_in(m, "attack", "e1");
    ck_assert_ptr_nonnull(atk);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(atk, "args"), "target")),
                     "e3");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(atk, "args"), "skill")),
                     "Telekinesis");
    ck_assert_str_eq(choices_of(atk, "target", buf, sizeof buf), "e3 e2");
    ck_assert_ptr_nonnull(move_in(m, "pass", "e1"));
    static const char *const never[] = {"coup",    "recover",  "escape",     "lock",
                                        "release", "parting",  "respond",    "accept",
                                        "decline", "overcome", "initiative", NULL};
    for (int i = 0; never[i]; i++)
        ck_assert_msg(!move_in(m, never[i], "e1") && !move_in(m, never[i], NULL), "%s offered",
                      never[i]);
    json_t *die = move_in(m, "die", "e1");
    ck_assert(json_is_true(json_object_get(die, "confirm")));
    ck_assert(json_is_true(json_object_get(die, "rare")));
    ck_assert_ptr_null(move_in(m, "attack", "e2")); /* Brakka's are Brakka's player's */
    moves_go_through(&f, m, 10);
    json_decref(m);
    /* the goblin is knocked out: now a coup de grâce is Missa's to take, on the goblin alone */
    json_object_set_new(rules_enc_stats(&f.e, "e3"), "unconscious", json_true());
    m = moves_of(&f, "p1");
    json_t *coup = move_in(m, "coup", "e1");
    ck_assert_ptr_nonnull(coup);
    ck_assert_str_eq(choices_of(coup, "target", buf, sizeof buf), "e3");
    moves_go_through(&f, m, 11);
    json_decref(m);
    m = moves_of(&f, "gm"); /* the GM may take them too: hers first, all else folded away */
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(m, 0), "actor")), "e1");
    moves_go_through(&f, m, 11);
    json_decref(m);
    fx_free(&f);
}
END_TEST

/* The scene's map decides melee range (issue 30; rules/RULES.md, tenacity reading S1): a square
 * is a space, melee range the spaces next to you (diagonals too). Missa (0,0) starts next to the
 * goblin (1,0), Brakka far away (6,6). Every refusal draws no die (the script is used exactly). */
static void put_square(json_t *sq, const char *cid, int x, int y)
{
    json_object_set_new(sq, cid,
                        json_pack("{s:s, s:s, s:i, s:i}", "id", cid, "cid", cid, "x", x, "y", y));
}

START_TEST(the_map_decides_melee_range_parting_strikes_and_withdrawing)
{
    fx f;
    char buf[200];
    fx_party(&f, NULL);
    json_t *sq = json_object();
    put_square(sq, "e1", 0, 0);
    put_square(sq, "e2", 6, 6);
    put_square(sq, "e3", 1, 0);
    json_object_set_new(
        sq, "m1", json_pack("{s:s, s:s, s:i, s:i}", "id", "m1", "label", "Door", "x", 2, "y", 0));
    f.e.squares = sq;
    /* init; the goblin strikes Missa in parting: [6,6] = 12 vs [3,2]+2 = 5: 1d4 [2] */
    static const int D[] = {7, 3, 4, 2, 3, 3, 6, 6, 3, 2, 2};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    json_t *from = json_object_get(f.enc, "start_squares");
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(from, "e3"), 0)), 1);
    ck_assert_ptr_null(json_object_get(from, "m1")); /* a marker is no fighter */
    /* Missa steps to (0,1): still next to the goblin (a diagonal): no parting strike */
    OK(&f, "p1", NULL, "move", NULL);
    put_square(sq, "e1", 0, 1);
    refused(&f, "gm", "e3", "parting", "{\"target\":\"e1\"}", TB_RULE,
            "Missa is still in Goblin's melee range");
    /* she leaves it: the goblin may strike; Brakka never stood next to her */
    put_square(sq, "e1", 3, 3);
    refused(&f, "p2", "e2", "parting", "{\"target\":\"e1\"}", TB_RULE, "against an opponent");
    OK(&f, "gm", "e3", "parting", "{\"target\":\"e1\"}");
    ck_assert_int_eq(stat_track(&f, "e1", "stress"), 2);
    /* from (3,3) the goblin at (1,0) is 3 spaces away: no melee attack or grapple, no die */
    refused(&f, "p1", NULL, "attack", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "Goblin is 3 spaces away from Missa");
    refused(&f, "p1", NULL, "grapple", "{\"target\":\"e3\",\"skill\":\"Telekinesis\"}", TB_RULE,
            "melee reaches only the spaces next to you");
    /* the moves offer her attack at range only */
    json_t *m = moves_of(&f, "p1");
    json_t *atk = move_in(m, "attack", "e1");
    ck_assert_ptr_nonnull(atk);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(atk, "args"), "range")),
                     "ranged");
    json_decref(m);
    OK(&f, "p1", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e3");
    /* the goblin's turn starts at (1,0) with nobody next to it: nothing to withdraw from, and
     * the moves do not offer it */
    refused(&f, "gm", NULL, "withdraw", NULL, TB_RULE, "nothing to withdraw from");
    m = moves_of(&f, "gm");
    ck_assert_ptr_null(move_in(m, "withdraw", "e3"));
    json_decref(m);
    /* a fighter larger than one space, or off the map, is the GM's word, as before there were
     * maps */
    OK(&f, "gm", NULL, "size", "{\"target\":\"e3\",\"size\":1}");
    OK(&f, "gm", NULL, "withdraw", NULL);
    ck_assert(rules_enc_cond_has(&f.e, "e3", "withdrawing"));
    OK(&f, "gm", NULL, "size", "{\"target\":\"e3\",\"size\":0}");
    json_object_del(sq, "e2");
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e2");
    ck_assert_ptr_null(json_object_get(json_object_get(f.enc, "start_squares"), "e2"));
    OK(&f, "p2", NULL, "withdraw", NULL);
    (void)buf;
    fx_script_done(&f);
    f.e.squares = NULL;
    json_decref(sq);
    fx_free(&f);
}
END_TEST

/* An NPC's skill names are the GM's ("What the table sees"): the goblin helps the orc with
 * Stealth; the table reads that it helps, the GM with which skill; the skill waits in /gm/enc. */
START_TEST(an_npc_helpers_skill_is_the_gms)
{
    fx f;
    fx_party(&f, NULL);
    fx_add(&f, "e4", "Orc", "foes", "gm", 1, NULL);
    static const int D[] = {7, 3, 4, 2, 3, 3, 1, 1};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "gm", NULL, "spotlight", "{\"target\":\"e3\"}");
    OK(&f, "gm", "e3", "help", "{\"target\":\"e4\",\"skill\":\"Stealth\"}");
    ck_assert(public_log_has(&f, "Goblin helps Orc: an advantage die"));
    char *pub = json_dumps(f.e.log, JSON_COMPACT), *gm = json_dumps(f.e.gm_log, JSON_COMPACT);
    ck_assert_ptr_null(strstr(pub, "Stealth"));
    ck_assert_ptr_nonnull(strstr(gm, "Goblin helps Orc with Stealth"));
    free(pub);
    free(gm);
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e4"), "help_skill"));
    ck_assert_str_eq(
        json_string_value(json_object_get(rules_enc_hidden_of(&f.e, "e4"), "help_skill")),
        "Stealth");
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

/* 003:79 "The character with the highest skill rank rolls their ability dice with one additional
 * advantage die, then adds their skill rank": Brakka (Might 3d10, Athletics 4) helps Missa
 * (Might 1d10, Athletics 1) sprint: he rolls 3 + 1 dice for her, [2,3,4,9] + 4 = 13 spaces. */
START_TEST(the_higher_rank_rolls_a_helped_quick_roll)
{
    fx f;
    fx_party(&f, NULL);
    static const int D[] = {7, 3, 4, 2, 3, 3, 2, 3, 4, 9};
    fx_dice(&f, D, N_ELEMS(D));
    OK(&f, "gm", NULL, "initiative", NULL);
    OK(&f, "p1", NULL, "pass", "{\"target\":\"e2\"}");
    OK(&f, "p2", NULL, "help", "{\"target\":\"e1\",\"skill\":\"Athletics\"}");
    OK(&f, "p2", NULL, "end", NULL);
    OK(&f, "gm", NULL, "end", NULL);
    ck_assert_str_eq(holder(&f), "e1");
    OK(&f, "p1", NULL, "sprint", NULL);
    ck_assert(public_log_has(&f, "Brakka rolls for Missa, with the higher rank"));
    ck_assert_int_eq(
        json_integer_value(json_object_get(rules_enc_cond(&f.e, "e1", "sprinting"), "level")), 13);
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "helped"));
    fx_script_done(&f);
    fx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("enc_tenacity");
    TCase *tc = tcase_create("spotlight");
    tcase_add_test(tc, initiative_ranks_and_the_winner_holds_the_spotlight);
    tcase_add_test(tc, spotlight_chain_target_acts_next_and_the_round_resets);
    tcase_add_test(tc, a_response_costs_10acity_or_spin_and_is_one_action);
    tcase_add_test(tc, group_initiative_second_group_gets_an_advantage_die);
    tcase_add_test(tc, group_edge_is_an_extra_hero_die);
    tcase_add_test(tc, the_moves_offer_only_the_legal_ones_filled_so_that_they_go_through);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("resolution");
    tcase_add_test(tr, stress_over_the_maximum_is_a_wound_then_unconscious);
    tcase_add_test(tr, hardcore_mode_wounds_then_death);
    tcase_add_test(tr, conditions_hinder_stop_damage_and_the_free_shake_off);
    tcase_add_test(tr, hinder_penalties_do_not_stack_and_apply_to_rolls);
    tcase_add_test(tr, spin_from_failure_and_negative_spin_from_a_fumble);
    tcase_add_test(tr, pushing_a_failed_attack_spends_10acity);
    tcase_add_test(tr, the_player_chooses_what_pays_the_push);
    tcase_add_test(tr, a_bad_crit_or_push_choice_is_refused_before_any_die);
    tcase_add_test(tr, full_defence_gives_the_defender_an_advantage_die);
    tcase_add_test(tr, sprint_adds_the_check_to_movement_and_withdraw_spends_the_action);
    tcase_add_test(tr, coup_de_grace_takes_two_actions_and_fails_when_forced_to_defend);
    tcase_add_test(tr, npc_numbers_stay_out_of_the_public_log);
    tcase_add_test(tr, social_standing_moves_by_impact_and_ends_at_0_or_10);
    suite_add_tcase(s, tr);
    TCase *ts = tcase_create("social");
    tcase_add_test(ts, social_scene_needs_an_open_contest_and_refusals_draw_no_die);
    tcase_add_test(ts, social_scene_failure_tie_and_scrutiny_lower_the_scale);
    tcase_add_test(ts, social_scene_ten_wins_push_with_10acity_and_the_gm_moves_the_scale);
    suite_add_tcase(s, ts);
    TCase *to = tcase_create("options");
    tcase_add_test(to, grapple_hinders_by_impact_lock_stops_movement_and_escapes_beat_the_roll);
    tcase_add_test(to, a_grapple_on_two_limbs_hinders_all_but_the_escape_and_a_lock_costs_a_die);
    tcase_add_test(to, a_held_action_is_taken_when_its_trigger_happens_or_lapses);
    tcase_add_test(to, cover_prone_flanking_resistance_and_size_change_the_attack);
    tcase_add_test(to, soft_cover_needs_a_blind_find_and_leaving_melee_invites_a_parting_strike);
    tcase_add_test(
        to, help_gives_one_advantage_die_and_the_gm_trades_negative_spin_and_a_player_may_die);
    tcase_add_test(to, one_standing_scale_clamps_for_both_modules);
    tcase_add_test(to, the_map_decides_melee_range_parting_strikes_and_withdrawing);
    suite_add_tcase(s, to);
    TCase *t25 = tcase_create("issue25");
    tcase_add_test(t25, stress_is_recovered_when_the_fight_ends);
    tcase_add_test(t25, a_refused_end_draws_no_shake_die);
    tcase_add_test(t25, help_is_an_advantage_die_on_a_quick_roll);
    tcase_add_test(t25, stealth_sets_the_challenge_to_find_the_hider);
    tcase_add_test(t25, an_npc_helpers_skill_is_the_gms);
    tcase_add_test(t25, the_higher_rank_rolls_a_helped_quick_roll);
    suite_add_tcase(s, t25);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
