/* The moves (rules/moves.c, encounter.h "moves"): for each action and actor a seat may act for,
 * the choices of each parameter (the module's hook, else the engine's defaults) and the first
 * arguments, first choices first, that pass the action's check; nothing else is offered. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"

/* A test module: `hit` (turn) {target, hard?: bool, times?: 1..3 default 1}; `shout` (owner)
 * {words: free text}; `pick` (owner) {skill: a choice of the module, amount: an int the state
 * suggests}; `call` (gm); `die` (owner, confirm) that only a wounded combatant may take. */
static const rules_param P_HIT[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom"},
    {"hard", RULES_PARAM_BOOL, 0, 1, 0, 0, "hard"},
    {"times", RULES_PARAM_INT, 1, 3, 1, 0, "times"},
    {NULL},
};
static const rules_param P_SHOUT[] = {
    {"words", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "what is shouted"},
    {NULL},
};
static const rules_param P_WRITE[] = {
    {"note", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "which plan"},
    {NULL},
};
static const rules_param P_PICK[] = {
    {"skill", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED, "skill"},
    {"amount", RULES_PARAM_INT, 0, 10, 0, RULES_PARAM_REQUIRED, "amount"},
    {NULL},
};

static int ok_resolve(rules_enc *e, const rules_args *a, tb_err *err)
{
    return 0;
}

/* hit: never yourself, never hard (the test's rule), and only twice at most */
static int check_hit(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (rules_enc_streq(rules_arg_str(a, "target"), e->actor))
        return rules_enc_rule(err, "not yourself");
    if (rules_arg_int(a, "hard"))
        return rules_enc_rule(err, "too hard");
    if (rules_arg_int(a, "times") > 2)
        return rules_enc_rule(err, "too often");
    return 0;
}

/* pick: the skill must be the second choice ("climb") and the amount 4 */
static int check_pick(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (!rules_enc_streq(rules_arg_str(a, "skill"), "climb") || rules_arg_int(a, "amount") != 4)
        return rules_enc_rule(err, "climb 4 only");
    return 0;
}

/* write: the plan the state knows of (the hook's default) */
static int check_write(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return rules_enc_streq(rules_arg_str(a, "note"), "plan A")
               ? 0
               : rules_enc_rule(err, "no such plan");
}

static int check_die(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return json_is_true(json_object_get(rules_enc_combatant(e, e->actor), "wounded"))
               ? 0
               : rules_enc_rule(err, "not wounded");
}

static int choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                   const rules_param *p, json_t *out)
{
    if (strcmp(p->name, "skill") == 0) {
        json_array_append_new(out, json_pack("{s:s, s:s}", "value", "swim", "label", "Swim"));
        json_array_append_new(out, json_pack("{s:s, s:s}", "value", "climb", "label", "Climb"));
        return RULES_CHOICES_PICK;
    }
    if (strcmp(p->name, "note") == 0) {
        json_array_append_new(out, json_pack("{s:s, s:s}", "value", "plan A", "label", "plan A"));
        return RULES_CHOICES_DEFAULT;
    }
    if (strcmp(p->name, "amount") == 0) {
        json_array_append_new(out, json_pack("{s:i, s:s}", "value", 4, "label", "4"));
        return RULES_CHOICES_DEFAULT;
    }
    return RULES_CHOICES_NONE;
}

static const rules_enc_action ACTIONS[] = {
    {"hit", "Hit", RULES_ENC_TURN, P_HIT, ok_resolve, "900:1", check_hit},
    {"shout", "Shout", RULES_ENC_OWNER, P_SHOUT, ok_resolve, NULL, NULL, RULES_ENC_RARE},
    {"pick", "Pick", RULES_ENC_OWNER, P_PICK, ok_resolve, NULL, check_pick},
    {"call", "Call", RULES_ENC_GM, NULL, ok_resolve},
    {"write", "Write", RULES_ENC_OWNER, P_WRITE, ok_resolve, NULL, check_write},
    {"die", "Choose to die", RULES_ENC_OWNER, NULL, ok_resolve, NULL, check_die, RULES_ENC_CONFIRM},
    {NULL},
};

static const rules_module TEST_MODULE = {
    .id = "test.moves", .system = "test", .name = "Test", .actions = ACTIONS, .choices = choices};

/* Ann (e1, p1) and Bob (e2, p2) against an Orc (e3, the GM's), Ann's turn. */
static void fx(efx *f)
{
    efx_start_module(f, &TEST_MODULE, NULL);
    efx_combatant(f, "e1", "Ann", "party", "p1", 0);
    efx_combatant(f, "e2", "Bob", "party", "p2", 0);
    efx_combatant(f, "e3", "Orc", "foes", "gm", 1);
    json_object_set_new(f->enc, "order", json_pack("[s, s, s]", "e1", "e2", "e3"));
    json_object_set_new(f->enc, "turn", json_integer(0));
    json_object_set_new(f->enc, "round", json_integer(1));
}

static json_t *find(const json_t *moves, const char *action, const char *actor)
{
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m)
    {
        if (rules_enc_streq(json_string_value(json_object_get(m, "action")), action) &&
            (!actor || rules_enc_streq(json_string_value(json_object_get(m, "actor")), actor)))
            return m;
    }
    return NULL;
}

static json_t *moves_of(efx *f, const char *seat)
{
    f->e.seat = seat;
    f->e.is_gm = strcmp(seat, "gm") == 0;
    json_t *before = json_deep_copy(f->enc);
    json_t *m = rules_enc_moves(&f->e);
    ck_assert_msg(json_equal(before, f->enc), "the moves changed the state");
    ck_assert(!efx_dice_bad(f));
    json_decref(before);
    return m;
}

START_TEST(a_player_gets_their_turn_and_owner_moves_with_defaults_that_pass)
{
    efx f;
    fx(&f);
    json_t *moves = moves_of(&f, "p1");
    json_t *hit = find(moves, "hit", "e1");
    ck_assert_ptr_nonnull(hit);
    /* the target: foes first, and the default passes (not yourself, not hard, times 1) */
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(hit, "args"), "target")),
                     "e3");
    ck_assert_str_eq(json_string_value(json_object_get(hit, "actor_name")), "Ann");
    json_t *target = json_array_get(json_object_get(hit, "params"), 0);
    ck_assert(json_is_true(json_object_get(target, "pick")));
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(target, "choices"), 0), "label")),
                     "Orc");
    ck_assert_uint_eq(json_array_size(json_object_get(target, "choices")), 3);
    /* Bob's turn actions are not Ann's to take; the GM's call is not offered to a player */
    ck_assert_ptr_null(find(moves, "hit", "e2"));
    ck_assert_ptr_null(find(moves, "call", NULL));
    ck_assert_ptr_null(find(moves, "shout", "e2"));
    /* the module's choices: the second skill and the suggested amount pass */
    json_t *pick = find(moves, "pick", "e1");
    ck_assert_ptr_nonnull(pick);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(pick, "args"), "skill")),
                     "climb");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(pick, "args"), "amount")),
                     4);
    /* free text: offered, rare, left out of args for the person to type */
    json_t *shout = find(moves, "shout", "e1");
    ck_assert(json_is_true(json_object_get(shout, "rare")));
    ck_assert_ptr_null(json_object_get(json_object_get(shout, "args"), "words"));
    /* a text the state suggests (the hook's default) is in args, not left to the person */
    json_t *write = find(moves, "write", "e1");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(write, "args"), "note")),
                     "plan A");
    /* reading conditions creates nothing, even for a combatant without a list */
    json_object_del(rules_enc_combatant(&f.e, "e2"), "conditions");
    json_t *before = json_deep_copy(f.enc);
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "prone"));
    ck_assert(json_equal(before, f.enc));
    json_decref(before);
    /* a check that refuses with every choice: not offered; once it passes: offered, confirm */
    ck_assert_ptr_null(find(moves, "die", "e1"));
    json_decref(moves);
    json_object_set_new(rules_enc_combatant(&f.e, "e1"), "wounded", json_true());
    moves = moves_of(&f, "p1");
    ck_assert(json_is_true(json_object_get(find(moves, "die", "e1"), "confirm")));
    /* Bob, not on his turn: no hit */
    json_decref(moves);
    moves = moves_of(&f, "p2");
    ck_assert_ptr_null(find(moves, "hit", NULL));
    ck_assert_ptr_nonnull(find(moves, "shout", "e2"));
    json_decref(moves);
    efx_free(&f);
}
END_TEST

/* Every offered move, sent as it is (free text typed), goes through rules_enc_act. */
START_TEST(every_offered_move_goes_through_and_the_gm_starts_with_the_turn)
{
    efx f;
    fx(&f);
    json_t *moves = moves_of(&f, "gm");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(moves, 0), "actor")), "e1");
    ck_assert_ptr_nonnull(find(moves, "call", NULL));
    ck_assert_ptr_nonnull(find(moves, "shout", "e3"));
    ck_assert_ptr_null(find(moves, "hit", "e3")); /* not the Orc's turn */
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m)
    {
        json_t *args = json_deep_copy(json_object_get(m, "args"));
        if (strcmp(json_string_value(json_object_get(m, "action")), "shout") == 0)
            json_object_set_new(args, "words", json_string("Charge!"));
        tb_err err = {0};
        ck_assert_msg(rules_enc_act(&f.e, json_string_value(json_object_get(m, "action")),
                                    json_string_value(json_object_get(m, "actor")), args,
                                    &err) == 0,
                      "%s: %s", json_string_value(json_object_get(m, "action")), err.msg);
        json_decref(args);
    }
    json_decref(moves);
    /* one who is out takes no turn; an owner action is the check's to refuse (die: the wounded
     * may, out or not) */
    rules_enc_set_out(&f.e, "e1", "down");
    moves = moves_of(&f, "gm");
    ck_assert_ptr_null(find(moves, "hit", "e1"));
    ck_assert_ptr_null(find(moves, "die", "e1"));
    json_object_set_new(rules_enc_combatant(&f.e, "e1"), "wounded", json_true());
    json_decref(moves);
    moves = moves_of(&f, "gm");
    ck_assert_ptr_nonnull(find(moves, "die", "e1"));
    json_decref(moves);
    efx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("moves");
    TCase *tc = tcase_create("moves");
    tcase_add_test(tc, a_player_gets_their_turn_and_owner_moves_with_defaults_that_pass);
    tcase_add_test(tc, every_offered_move_goes_through_and_the_gm_starts_with_the_turn);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
