/* The grimwire encounter module grimwire.conflict (rules/grimwire/conflict.c), driven directly
 * with scripted dice: each test names the rule (002:LINE) it pins down. The fixture does what
 * server/ops_enc.c does around a module: combatants with the sheet's stats, the who-check and
 * may_act before a TURN action, params parsed from JSON. */
#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"
#include "rules_util.h"

typedef efx fx;

static void fx_init(fx *f)
{
    efx_init(f, "grimwire.conflict");
}

static void fx_free(fx *f)
{
    efx_free(f);
}

/* The next dice, exactly. */
static void dice(fx *f, int n, ...)
{
    int faces[32];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        faces[i] = va_arg(ap, int);
    va_end(ap);
    efx_dice(f, faces, (size_t)n);
}

/* Adds combatant cid as ops_enc.c does: its sheet's stats (public for a PC, /gm for an NPC). */
static void add(fx *f, const char *cid, const char *name, const char *side, const char *seat,
                int npc, json_t *sheet /* stolen, may be NULL */)
{
    efx_combatant(f, cid, name, side, seat, npc);
    efx_join(f, cid, sheet);
    json_decref(sheet);
}

static json_t *sheet_of(const char *file)
{
    return ru_load_sample("grimwire", file);
}

/* A quick sheet: attributes and Condition. */
static json_t *quick(int tog, int agl, int cor, int mnd, int per, int cond, int armor)
{
    return json_pack("{s:{s:i, s:i, s:i, s:i, s:i, s:i}, s:{s:i, s:i}, s:i}", "attributes", "tog",
                     tog, "agl", agl, "cor", cor, "mnd", mnd, "per", per, "rsn", 0, "condition",
                     "current", cond, "max", cond > 10 ? cond : 10, "armor", armor);
}

/* enc.act as the server runs it (rules_enc_act): who-check, may_act for TURN actions, params,
 * the action's check, the action. */
static int act_as(fx *f, const char *seat, const char *action, const char *actor,
                  const char *params)
{
    return efx_act(f, seat, actor, action, params);
}

static int act(fx *f, const char *action, const char *actor, const char *params)
{
    return act_as(f, "gm", action, actor, params);
}

#define OK(call) ck_assert_msg((call) == 0, "%s: %s", #call, f.err.msg)
#define RULE(call, re)                                                                             \
    do {                                                                                           \
        ck_assert_int_eq((call), TB_RULE);                                                         \
        ck_assert_msg(strstr(f.err.msg, re) != NULL, "'%s' not in '%s'", re, f.err.msg);           \
    } while (0)

static const char *cur(fx *f)
{
    return rules_enc_current(&f->e);
}

static int budget(fx *f, const char *cid, const char *k)
{
    return rules_enc_budget_left(&f->e, cid, k);
}

static int condition(fx *f, const char *cid)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_stats(&f->e, cid), "condition"), "current"));
}

static int spent(fx *f, const char *cid)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_combatant(&f->e, cid), "spent"), "action"));
}

static const char *order_at(fx *f, size_t i)
{
    return json_string_value(json_array_get(json_object_get(f->enc, "order"), i));
}

static int last_log_has(json_t *log, const char *needle)
{
    size_t i;
    json_t *v;
    json_array_foreach(
        log, i, v) if (strstr(json_string_value(json_object_get(v, "text")), needle)) return 1;
    return 0;
}

/* Cyrus (PER 2) and a foe; the foe's d20 first (cids sort e1, e2). */
static void cyrus_and_foe(fx *f, int cyrus_d20, int foe_d20)
{
    add(f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json"));
    add(f, "e2", "Thug", "foes", "gm", 1, quick(1, 0, 1, 0, 0, 12, 0));
    dice(f, 2, cyrus_d20, foe_d20);
    ck_assert_int_eq(act(f, "begin", NULL, NULL), 0);
}

START_TEST(registered_and_listed_by_the_system)
{
    const rules_module *m = rules_module_find("grimwire.conflict");
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->system, "grimwire");
    const rules_system *s = rules_system_find("grimwire");
    ck_assert_str_eq(s->modules[0]->id, "grimwire.conflict");
    ck_assert_str_eq(s->modules[1]->id, "grimwire.between"); /* issue 17 */
    ck_assert_ptr_null(s->modules[2]);
}
END_TEST

/* 002:401 d20 + PER, highest first; 002:403 ties to the enemies; same side: they decide. */
START_TEST(initiative_by_per_ties_to_enemies)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json")); /* PER 2 */
    add(&f, "e2", "Aune", "party", "p2", 0, sheet_of("aune.json"));   /* PER 3 */
    add(&f, "e3", "Thug", "foes", "gm", 1, quick(0, 0, 0, 0, 1, 10, 0));
    add(&f, "e4", "Ally", "party", "gm", 1, quick(0, 0, 0, 0, 2, 10, 0));
    /* Cyrus 10+2=12, Aune 9+3=12, Thug 11+1=12, Ally 10+2=12: the enemy first, then input order */
    dice(&f, 4, 10, 9, 11, 10);
    RULE(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e3\"}"), "initiative first");
    OK(act(&f, "begin", NULL, NULL));
    ck_assert_str_eq(order_at(&f, 0), "e3");
    ck_assert_str_eq(order_at(&f, 1), "e1");
    ck_assert_str_eq(order_at(&f, 2), "e2");
    ck_assert_str_eq(order_at(&f, 3), "e4");
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    ck_assert_str_eq(cur(&f), "e3");
    /* the NPC's total is the GM's; a PC's is public */
    ck_assert_int_eq(json_integer_value(json_object_get(rules_enc_hidden_of(&f.e, "e3"), "init")),
                     12);
    ck_assert_ptr_null(json_object_get(rules_enc_combatant(&f.e, "e3"), "init"));
    ck_assert_int_eq(json_integer_value(json_object_get(rules_enc_combatant(&f.e, "e2"), "init")),
                     12);
    /* Aune and Cyrus tie on the same side: Aune goes first this round */
    ck_assert_int_eq(act_as(&f, "p1", "swap", "e2", "{\"target\":\"e1\"}"), TB_FORBIDDEN);
    OK(act_as(&f, "p2", "swap", "e2", "{\"target\":\"e1\"}"));
    ck_assert_str_eq(order_at(&f, 1), "e2");
    ck_assert_str_eq(order_at(&f, 2), "e1");
    RULE(act_as(&f, "p2", "swap", "e2", "{\"target\":\"e3\"}"), "same side");
    ck_assert_int_eq(act(&f, "begin", NULL, NULL), TB_RULE);
    fx_free(&f);
}
END_TEST

/* 002:441-447 the Cyrus/Kneecap example, round by round. */
START_TEST(cyrus_kneecap_example)
{
    fx f;
    fx_init(&f);
    cyrus_and_foe(&f, 15, 2); /* Cyrus 17, Thug 2 */
    ck_assert_str_eq(cur(&f), "e1");
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":30}"));
    /* round 1: Cyrus acts (a miss), then reacts to the Thug's move: round 2's action */
    dice(&f, 1, 5);
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"weapon\":2}"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    ck_assert_str_eq(cur(&f), "e2");
    OK(act(&f, "move", "e2", NULL));
    RULE(act_as(&f, "p1", "move", "e1", NULL), "Thug's turn");
    OK(act_as(&f, "p1", "reaction", "e1", "{\"name\":\"Kneecap\",\"focus\":2}"));
    ck_assert_int_eq(spent(&f, "e1"), 2);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 0);
    RULE(act_as(&f, "p1", "reaction", "e1", "{\"name\":\"Kneecap\"}"), "round 2's action");
    OK(act(&f, "end_turn", "e2", NULL));
    /* round 2: no action; a reaction takes round 3's */
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    ck_assert_int_eq(budget(&f, "e1", "move"), 1);
    RULE(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}"),
         "no action in round 2: it was spent on a reaction");
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "move", "e2", NULL));
    OK(act_as(&f, "p1", "reaction", "e1", "{\"name\":\"Kneecap\",\"focus\":2}"));
    ck_assert_int_eq(spent(&f, "e1"), 3);
    OK(act(&f, "end_turn", "e2", NULL));
    /* round 3: the enemies hold; Cyrus cannot take a normal action and does not act */
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    RULE(act_as(&f, "p1", "technique", "e1", "{\"name\":\"Kneecap\"}"), "no action in round 3");
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "end_turn", "e2", NULL));
    /* round 4: his action is back */
    ck_assert_int_eq(rules_enc_round(&f.e), 4);
    ck_assert_int_eq(budget(&f, "e1", "action"), 1);
    /* Focus 6 - 2 - 2 = 2 */
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(rules_enc_stats(&f.e, "e1"), "focus"), "current")),
                     2);
    fx_free(&f);
}
END_TEST

/* 002:437 a reaction before the character's turn is that round's action. */
START_TEST(reaction_before_the_turn_takes_this_rounds_action)
{
    fx f;
    fx_init(&f);
    cyrus_and_foe(&f, 1, 20); /* Cyrus 3, Thug 21 */
    ck_assert_str_eq(cur(&f), "e2");
    OK(act_as(&f, "p1", "reaction", "e1", "{\"name\":\"Kneecap\",\"focus\":7}"));
    ck_assert_int_eq(spent(&f, "e1"), 1);
    /* 6 - 7 = -1: negative Focus gives a level of burnout (002:198) ... */
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 1);
    OK(act(&f, "end_turn", "e2", NULL));
    ck_assert_str_eq(cur(&f), "e1");
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    ck_assert_int_eq(budget(&f, "e1", "move"), 1);
    /* ... and no specialty technique until Focus is 0 again */
    RULE(act_as(&f, "p1", "reaction", "e1", "{\"name\":\"Kneecap\"}"), "negative Focus");
    fx_free(&f);
}
END_TEST

/* 002:421 passing: later in the round, waiting ones in initiative order, back next round. */
START_TEST(passing_acts_later_in_initiative_order)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "A", "party", "p1", 0, quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e2", "B", "party", "p2", 0, quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e3", "C", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e4", "D", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 10, 0));
    dice(&f, 4, 20, 19, 18, 17); /* A B C D */
    OK(act(&f, "begin", NULL, NULL));
    OK(act_as(&f, "p1", "pass", "e1", NULL)); /* A waits */
    ck_assert_str_eq(order_at(&f, 3), "e1");
    ck_assert_str_eq(cur(&f), "e2");
    OK(act_as(&f, "p2", "pass", "e2", NULL)); /* B waits too: A still first of the two */
    ck_assert_str_eq(cur(&f), "e3");
    ck_assert_str_eq(order_at(&f, 2), "e1");
    ck_assert_str_eq(order_at(&f, 3), "e2");
    OK(act(&f, "move", "e3", NULL));
    RULE(act(&f, "pass", "e3", NULL), "already did something");
    OK(act(&f, "end_turn", "e3", NULL));
    OK(act(&f, "end_turn", "e4", NULL));
    ck_assert_str_eq(cur(&f), "e1");
    ck_assert_int_eq(budget(&f, "e1", "action"), 1);
    /* passing a second time gives the turn up (reading) */
    OK(act_as(&f, "p1", "pass", "e1", NULL));
    ck_assert_str_eq(cur(&f), "e2");
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    OK(act_as(&f, "p2", "end_turn", "e2", NULL));
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_str_eq(order_at(&f, 0), "e1");
    ck_assert_str_eq(order_at(&f, 1), "e2");
    ck_assert_str_eq(cur(&f), "e1");
    /* skip: not acting at all this round */
    OK(act_as(&f, "p1", "pass", "e1", "{\"skip\":1}"));
    ck_assert_str_eq(cur(&f), "e2");
    ck_assert_str_eq(order_at(&f, 0), "e1");
    fx_free(&f);
}
END_TEST

/* 002:569-579 light weapons: attacks by COR; 002:585 not heavy weapons. */
START_TEST(light_weapon_attacks_by_cor)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "VEX-9", "party", "p1", 0, sheet_of("vex9.json")); /* COR 6, twin shivs 1d4 */
    add(&f, "e2", "Thug", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 40, 0));
    dice(&f, 2, 20, 1);
    OK(act(&f, "begin", NULL, NULL));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":10}"));
    /* VEX-9: knocked down (sample) and burnout 2 (-3 to all rolls) */
    dice(&f, 2, 10, 4); /* 10 + 6 - 3 = 13 >= 10: 1d4 4 + TOG 4 = 8 */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}"));
    ck_assert_int_eq(condition(&f, "e2"), 32);
    ck_assert_int_eq(budget(&f, "e1", "attacks"), 2);
    RULE(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"weapon\":2}"),
         "light weapons only");
    dice(&f, 1, 2); /* 2 + 3 = 5: a miss */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}"));
    dice(&f, 2, 20, 1); /* natural 20: (1 + 4) x 2 = 10 */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}"));
    ck_assert_int_eq(condition(&f, "e2"), 22);
    RULE(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}"), "COR 6 gives 3");
    fx_free(&f);
}
END_TEST

/* Issue 15, 002:53: a player's attack on a foe whose number the GM has not set waits for it (no
 * die is rolled: the scripted dice would run out), everything else waits too, and set_tn rolls
 * it as the attacker's. The GM's own attack without a number is still refused. */
START_TEST(a_players_attack_waits_for_the_target_number)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "VEX-9", "party", "p1", 0, sheet_of("vex9.json"));
    add(&f, "e2", "Thug", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 40, 0));
    dice(&f, 2, 20, 1);
    OK(act(&f, "begin", NULL, NULL));
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}"));
    ck_assert(last_log_has(f.e.log, "VEX-9 attacks Thug: the GM names the target number"));
    ck_assert_str_eq(
        json_string_value(json_object_get(json_object_get(f.enc, "waiting"), "target")), "e2");
    ck_assert_ptr_null(json_object_get(json_object_get(f.enc, "waiting"), "tn"));
    RULE(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}"),
         "VEX-9's attack waits for the GM's target number");
    RULE(act(&f, "damage", NULL, "{\"target\":\"e1\",\"amount\":1}"), "waits");
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"attack_tn\":12}")); /* not the one */
    ck_assert_ptr_nonnull(json_object_get(f.enc, "waiting"));
    dice(&f, 2, 10, 4); /* as light_weapon_attacks_by_cor: 13 >= 10, 1d4 4 + TOG 4 = 8 */
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":10}"));
    ck_assert_int_eq(condition(&f, "e2"), 32);
    ck_assert_ptr_null(json_object_get(f.enc, "waiting"));
    ck_assert_ptr_null(json_object_get(f.hidden, "waiting"));
    ck_assert_int_eq(budget(&f, "e1", "attacks"), 2);
    fx_free(&f);
    /* the GM attacking for the PC is refused instead: the GM knows the number is missing */
    fx_init(&f);
    add(&f, "e1", "VEX-9", "party", "p1", 0, sheet_of("vex9.json"));
    add(&f, "e2", "Thug", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 40, 0));
    dice(&f, 2, 20, 1);
    OK(act(&f, "begin", NULL, NULL));
    RULE(act(&f, "attack", "e1", "{\"target\":\"e2\"}"), "has not set the target number");
    ck_assert_ptr_null(json_object_get(f.enc, "waiting"));
    fx_free(&f);
}
END_TEST

/* Issue 24: the GM answers a player's waiting attack with one number (answer), kept as the
 * target's `tn`; with nothing waiting the answer is refused before any die. */
START_TEST(the_gm_answers_a_waiting_attack_with_one_number)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "VEX-9", "party", "p1", 0, sheet_of("vex9.json"));
    add(&f, "e2", "Thug", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 40, 0));
    dice(&f, 2, 20, 1);
    OK(act(&f, "begin", NULL, NULL));
    dice(&f, 0);
    RULE(act(&f, "answer", NULL, "{\"tn\":10}"), "no attack waits");
    ck_assert_int_eq(act_as(&f, "p1", "answer", NULL, "{\"tn\":10}"), TB_FORBIDDEN);
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}"));
    dice(&f, 2, 10, 4); /* as light_weapon_attacks_by_cor: 13 >= 10, 1d4 4 + TOG 4 = 8 */
    OK(act(&f, "answer", NULL, "{\"tn\":10}"));
    ck_assert_int_eq(condition(&f, "e2"), 32);
    ck_assert_ptr_null(json_object_get(f.enc, "waiting"));
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(json_object_get(f.hidden, "combatants"), "e2"), "tn")),
                     10);
    ck_assert(!last_log_has(f.e.log, "target number to hit Thug: 10"));
    ck_assert(last_log_has(f.e.gm_log, "target number to hit Thug: 10"));
    fx_free(&f);
}
END_TEST

/* Issue 23: what only an NPC's hidden numbers decide stays the GM's: the light-weapon attacks it
 * has left (its COR band, 002:569-579) live in /gm/enc, a PC's on its public budget; an NPC
 * helper's assist total (its attribute); the damage the GM deals an NPC by hand. */
START_TEST(an_npcs_hidden_numbers_stay_the_gms)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json"));
    add(&f, "e2", "Knife", "foes", "gm", 1,
        json_pack("{s:{s:i, s:i, s:i, s:i, s:i, s:i}, s:{s:i, s:i}, s:[{s:s, s:s, s:s}]}",
                  "attributes", "tog", 1, "agl", 0, "cor", 6, "mnd", 2, "per", 9, "rsn", 0,
                  "condition", "current", 20, "max", 20, "weapons", "name", "Knife", "kind",
                  "light", "damage", "1d4"));
    add(&f, "e3", "Boss", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 20, 0));
    dice(&f, 3, 1, 20, 1); /* Knife first */
    OK(act(&f, "begin", NULL, NULL));
    ck_assert_str_eq(cur(&f), "e2");
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"attack_tn\":12}"));
    dice(&f, 1, 15); /* Cyrus evades: 15 + AGL 2 */
    OK(act(&f, "attack", "e2", "{\"target\":\"e1\"}"));
    json_t *pub =
        json_object_get(json_object_get(json_object_get(f.enc, "combatants"), "e2"), "budget");
    ck_assert_ptr_null(json_object_get(pub, "attacks"));
    json_t *gm = json_object_get(
        json_object_get(json_object_get(json_object_get(f.hidden, "combatants"), "e2"), "budget"),
        "attacks");
    ck_assert_int_eq(json_integer_value(gm), 2); /* COR 6: three attacks, one made */
    dice(&f, 1, 15);
    OK(act(&f, "attack", "e2", "{\"target\":\"e1\"}"));
    OK(act(&f, "end_turn", "e2", NULL));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    ck_assert_str_eq(cur(&f), "e3");
    OK(act(&f, "end_turn", "e3", NULL));
    ck_assert_str_eq(cur(&f), "e2");
    /* a new turn: the count of the last one is gone */
    ck_assert_ptr_null(
        json_object_get(json_object_get(json_object_get(f.hidden, "combatants"), "e2"), "budget"));
    dice(&f, 1, 12); /* 12 + MND 2 */
    OK(act(&f, "assist", "e2", "{\"target\":\"e3\",\"attr\":\"mnd\"}"));
    json_t *c = rules_enc_cond(&f.e, "e3", "assisted");
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_null(json_object_get(c, "total"));
    ck_assert_int_eq(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(json_object_get(f.hidden, "combatants"), "e3"),
                            "assisted"),
            "total")),
        14);
    json_t *assist = json_array_get(f.e.log, json_array_size(f.e.log) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(assist, "action")), "assist");
    ck_assert_ptr_null(json_object_get(json_object_get(assist, "result"), "success"));
    OK(act(&f, "damage", NULL, "{\"target\":\"e3\",\"amount\":3}"));
    ck_assert(last_log_has(f.e.log, "The GM deals untyped damage to Boss"));
    ck_assert(last_log_has(f.e.gm_log, "The GM deals 3 untyped damage to Boss"));
    OK(act(&f, "damage", NULL, "{\"target\":\"e1\",\"amount\":1}"));
    ck_assert(last_log_has(f.e.log, "The GM deals 1 untyped damage to Cyrus"));
    fx_free(&f);
}
END_TEST

/* The move of action (and actor, when given) among the moves of seat, or NULL; the moves draw
 * no die and change nothing. */
static json_t *move_of(fx *f, const char *seat, const char *action, const char *actor)
{
    f->e.seat = seat;
    f->e.is_gm = strcmp(seat, "gm") == 0;
    json_t *before = json_deep_copy(f->enc), *hbefore = json_deep_copy(f->hidden);
    json_t *moves = rules_enc_moves(&f->e);
    ck_assert(json_equal(before, f->enc) && json_equal(hbefore, f->hidden));
    json_decref(before);
    json_decref(hbefore);
    json_t *found = NULL, *m;
    size_t i;
    json_array_foreach(moves, i, m)
    {
        if (!found && rules_enc_streq(json_string_value(json_object_get(m, "action")), action) &&
            (!actor || rules_enc_streq(json_string_value(json_object_get(m, "actor")), actor)))
            found = json_incref(m);
    }
    json_decref(moves);
    return found;
}

/* Issue 23: the moves offer exactly what the rules allow now: no "Get up" to a standing
 * character, no "Break free" to a free one; a player may assist (an ally first, the helper's
 * best attribute first); a waiting attack gives the GM one move with one number (issue 24). */
START_TEST(the_moves_offer_what_the_rules_allow_now)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json"));
    add(&f, "e2", "Aune", "party", "p2", 0, sheet_of("aune.json"));
    add(&f, "e3", "Thug", "foes", "gm", 1, quick(1, 0, 0, 0, 0, 12, 0));
    dice(&f, 3, 20, 10, 1);
    OK(act(&f, "begin", NULL, NULL));
    ck_assert_str_eq(cur(&f), "e1");
    ck_assert_ptr_null(move_of(&f, "p1", "get_up", "e1"));
    ck_assert_ptr_null(move_of(&f, "p1", "break_free", "e1"));
    ck_assert_ptr_null(move_of(&f, "p1", "begin", NULL));
    json_t *assist = move_of(&f, "p1", "assist", "e1");
    ck_assert_ptr_nonnull(assist);
    json_t *args = json_object_get(assist, "args");
    ck_assert_str_eq(json_string_value(json_object_get(args, "target")), "e2");
    ck_assert_str_eq(json_string_value(json_object_get(args, "attr")), "cor"); /* COR 3 */
    json_decref(assist);
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"knocked_down\"}"));
    json_t *up = move_of(&f, "p1", "get_up", "e1");
    ck_assert_ptr_nonnull(up);
    json_decref(up);
    /* the player's attack on the Thug waits; the GM's one move: answer, one number */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e3\"}"));
    ck_assert_ptr_null(move_of(&f, "p1", "end_turn", "e1"));
    json_t *answer = move_of(&f, "gm", "answer", NULL);
    ck_assert_ptr_nonnull(answer);
    ck_assert_int_eq(json_array_size(json_object_get(answer, "params")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(answer, "args"), "tn")),
                     11);
    json_decref(answer);
    ck_assert_ptr_null(move_of(&f, "gm", "damage", NULL)); /* everything else waits */
    fx_free(&f);
}
END_TEST

/* 002:693 weak x2, resistant /2, immune 0; 002:749 armor -1 per point, never below 1, physical. */
START_TEST(damage_types_and_armor)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Golem", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 99, 3));
    OK(act(&f, "traits", NULL,
           "{\"target\":\"e1\",\"weak\":\"heat\",\"resist\":\"blunt\",\"immune\":\"chemical\"}"));
    static const struct {
        const char *params;
        int taken;
    } cases[] = {
        {"{\"target\":\"e1\",\"amount\":5,\"type\":\"edged\"}", 2},    /* 5 - 3 */
        {"{\"target\":\"e1\",\"amount\":2,\"type\":\"bullets\"}", 1},  /* 002:751: never below 1 */
        {"{\"target\":\"e1\",\"amount\":5,\"type\":\"heat\"}", 10},    /* weak; no armor */
        {"{\"target\":\"e1\",\"amount\":9,\"type\":\"blunt\"}", 1},    /* 4, then armor: 1 */
        {"{\"target\":\"e1\",\"amount\":9,\"type\":\"chemical\"}", 0}, /* immune */
        {"{\"target\":\"e1\",\"amount\":7}", 7},                       /* untyped */
        {"{\"target\":\"e1\",\"amount\":7,\"type\":\"physical\"}", 4}, /* the family */
    };
    int c = 99;
    for (size_t i = 0; i < N_ELEMS(cases); i++) {
        OK(act(&f, "damage", NULL, cases[i].params));
        c -= cases[i].taken;
        ck_assert_msg(condition(&f, "e1") == c, "case %zu: %d != %d", i, condition(&f, "e1"), c);
    }
    ck_assert_int_eq(act(&f, "traits", NULL, "{\"target\":\"e1\",\"weak\":\"fire\"}"),
                     TB_BAD_REQUEST);
    fx_free(&f);
}
END_TEST

/* 002:553-559, 002:643 a natural 1: the GM picks who may be hit; AGL 11 minus the COR to spare. */
START_TEST(natural_one_hits_someone_else)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json")); /* COR 3, TOG 2 */
    add(&f, "e2", "Aune", "party", "p2", 0, sheet_of("aune.json"));   /* AGL 3 */
    add(&f, "e3", "Thug", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 12, 0));
    dice(&f, 3, 20, 1, 1);
    OK(act(&f, "begin", NULL, NULL));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e3\",\"tn\":5}"));
    dice(&f, 1, 1);
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e3\",\"weapon\":2}"));
    ck_assert_ptr_nonnull(json_object_get(f.enc, "pending"));
    ck_assert_int_eq(condition(&f, "e3"), 12);
    RULE(act_as(&f, "p1", "end_turn", "e1", NULL), "GM first picks");
    ck_assert_int_eq(act_as(&f, "p1", "collateral", NULL, "{\"target\":\"e2\"}"), TB_FORBIDDEN);
    /* Aune, an ally: TN 11 - 3 = 8; she rolls 4 + AGL 3 = 7: hit, 1d6 5 + TOG 2 = 7 */
    dice(&f, 2, 4, 5);
    OK(act(&f, "collateral", NULL, "{\"target\":\"e2\"}"));
    ck_assert_int_eq(condition(&f, "e2"), 5);
    ck_assert_ptr_null(json_object_get(f.enc, "pending"));
    json_t *res = json_object_get(json_array_get(f.e.log, json_array_size(f.e.log) - 3), "result");
    ck_assert_int_eq(json_integer_value(json_object_get(res, "avoid_tn")), 8);
    /* 5 + 3 = 8 would have avoided it */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e3\",\"weapon\":2}"));
    fx_free(&f);
}
END_TEST

/* 002:256 dying: out cold, -1 every turn, hit automatically, dead below -10; 002:226 burnout;
 * 002:258 healing only up to 0; 002:260 revived: 1 Condition, 0 Focus, out cold, burnout. */
START_TEST(dying_counts_down_to_death)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json"));
    add(&f, "e2", "Thug", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 12, 0));
    dice(&f, 2, 20, 1);
    OK(act(&f, "begin", NULL, NULL));
    OK(act(&f, "damage", NULL, "{\"target\":\"e2\",\"amount\":21}")); /* 12 - 21 = -9 */
    ck_assert(rules_enc_cond_has(&f.e, "e2", "dying"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "burnout", 0), 1);
    OK(act_as(&f, "p1", "end_turn", "e1", NULL)); /* the Thug's turn: -10, passes */
    ck_assert_int_eq(condition(&f, "e2"), -10);
    ck_assert_str_eq(cur(&f), "e1");
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    OK(act(&f, "heal", NULL, "{\"target\":\"e2\",\"amount\":30}"));
    ck_assert_int_eq(condition(&f, "e2"), 0);
    ck_assert(rules_enc_cond_has(&f.e, "e2", "dying"));
    OK(act(&f, "damage", NULL, "{\"target\":\"e2\",\"amount\":10}")); /* -10: not yet dead */
    ck_assert(!rules_enc_is_out(&f.e, "e2"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL)); /* -11: dead */
    ck_assert(rules_enc_is_out(&f.e, "e2"));
    ck_assert_str_eq(json_string_value(json_object_get(rules_enc_combatant(&f.e, "e2"), "out")),
                     "dead");
    ck_assert_str_eq(cur(&f), "e1");
    ck_assert_int_eq(rules_enc_round(&f.e), 3);
    /* Cyrus: dying, revived */
    OK(act(&f, "damage", NULL, "{\"target\":\"e1\",\"amount\":14}"));
    ck_assert(rules_enc_cond_has(&f.e, "e1", "dying"));
    RULE(act_as(&f, "p1", "reaction", "e1", "{\"name\":\"Kneecap\"}"), "cannot react");
    OK(act(&f, "revive", NULL, "{\"target\":\"e1\"}"));
    ck_assert_int_eq(condition(&f, "e1"), 1);
    ck_assert(rules_enc_cond_has(&f.e, "e1", "out_cold"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 2);
    fx_free(&f);
}
END_TEST

/* 002:250 burnout 4: 0 Condition and dying; 002:246 level 2 caps Condition at 80%. */
START_TEST(burnout_levels)
{
    fx f;
    fx_init(&f);
    json_t *s = sheet_of("cyrus.json"); /* Condition 14/16 */
    json_object_set_new(s, "burnout", json_integer(1));
    json_object_set_new(json_object_get(s, "focus"), "current", json_integer(0));
    add(&f, "e1", "Cyrus", "party", "p1", 0, s);
    add(&f, "e2", "Thug", "foes", "gm", 1, NULL);
    ck_assert_int_eq(condition(&f, "e2"), 10); /* a quick NPC: the sheet default */
    dice(&f, 2, 20, 1);
    OK(act(&f, "begin", NULL, NULL));
    /* a technique pushes Focus below 0: burnout 2, Condition capped at 80% of 16 = 12 */
    OK(act_as(&f, "p1", "technique", "e1", "{\"name\":\"Kneecap\",\"focus\":1}"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 2);
    ck_assert_int_eq(condition(&f, "e1"), 12);
    /* -3 to rolls: evading an attack of TN 10 with 9 + AGL 1 - 3 = 7 fails */
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"attack_tn\":10}"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    dice(&f, 1, 9);
    OK(act(&f, "attack", "e2", "{\"target\":\"e1\",\"damage\":\"3\",\"type\":\"edged\"}"));
    ck_assert_int_eq(condition(&f, "e1"), 11); /* 3 + TOG 0 (light) - armor 2 */
    OK(act(&f, "damage", NULL, "{\"target\":\"e1\",\"amount\":13}"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 3);
    rules_enc_stat_set(&f.e, "e1", "burnout", 3);
    RULE(act(&f, "reaction", "e1", "{\"name\":\"Kneecap\"}"), "cannot react");
    fx_free(&f);
}
END_TEST

/* Status effects that change the budget: stun (002:824), terror (002:854), knocked down
 * (002:799-801), burning (002:838), bleeding (002:842), grappled (002:678-682). */
START_TEST(status_effects_change_what_one_may_do)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json")); /* TOG 2, MND 0 */
    add(&f, "e2", "Aune", "party", "p2", 0, sheet_of("aune.json"));
    add(&f, "e3", "Thug", "foes", "gm", 1, quick(1, 0, 0, 0, 0, 12, 0));
    dice(&f, 3, 20, 10, 1);
    OK(act(&f, "begin", NULL, NULL)); /* Cyrus, Aune, Thug */
    /* terror, MND 11 by default: fails at 5 + 0 -> cower; the next turn 15 removes it */
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"terror\"}"));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"burning\"}"));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"bleeding\",\"level\":2}"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act_as(&f, "p2", "end_turn", "e2", NULL));
    /* round 2, Cyrus: burning 2d6 = 3 + 4 = 7 heat (no armor), bleeding 2, terror roll 5 */
    dice(&f, 3, 3, 4, 5);
    OK(act(&f, "end_turn", "e3", NULL));
    ck_assert_str_eq(cur(&f), "e1");
    ck_assert_int_eq(condition(&f, "e1"), 14 - 7 - 2);
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    RULE(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e3\"}"), "cower or flee");
    OK(act_as(&f, "p1", "move", "e1", NULL)); /* fleeing */
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"burning\",\"on\":0}"));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"bleeding\",\"on\":0}"));
    /* knocked down: get up costs the movement; help up is an auxiliary action */
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"knocked_down\"}"));
    OK(act_as(&f, "p1", "help_up", "e1", "{\"target\":\"e2\"}"));
    ck_assert(!rules_enc_cond_has(&f.e, "e2", "knocked_down"));
    ck_assert_int_eq(budget(&f, "e1", "aux"), 0);
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    /* Aune, stunned: nothing but an auxiliary action */
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"stun\"}"));
    ck_assert_int_eq(budget(&f, "e2", "action"), 0);
    ck_assert_int_eq(budget(&f, "e2", "move"), 0);
    RULE(act_as(&f, "p2", "move", "e2", NULL), "stunned");
    RULE(act_as(&f, "p2", "dash", "e2", NULL), "stunned");
    OK(act_as(&f, "p2", "aux", "e2", "{\"what\":\"groans\"}"));
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"stun\",\"on\":0}"));
    OK(act_as(&f, "p2", "end_turn", "e2", NULL));
    /* the Thug grapples Cyrus; round 3: terror roll 15 passes; Cyrus breaks free:
     * his better of TOG/COR, COR 3 + 8 = 11 vs the Thug's TOG 1 + 10 = 11: a tie holds;
     * then 12 + 3 vs 3 + 1 */
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"grappled\",\"target2\":\"e3\"}"));
    dice(&f, 1, 15);
    OK(act(&f, "end_turn", "e3", NULL));
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "terror"));
    dice(&f, 2, 8, 10);
    OK(act_as(&f, "p1", "break_free", "e1", NULL));
    ck_assert(rules_enc_cond_has(&f.e, "e1", "grappled"));
    dice(&f, 2, 1, 20); /* moving: 1 + 2 vs 20 + 1: held in place, the movement is spent */
    OK(act_as(&f, "p1", "move", "e1", NULL));
    ck_assert_int_eq(budget(&f, "e1", "move"), 0);
    ck_assert(last_log_has(f.e.log, "fails"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act_as(&f, "p2", "end_turn", "e2", NULL));
    OK(act(&f, "end_turn", "e3", NULL));
    dice(&f, 2, 12, 3);
    OK(act_as(&f, "p1", "break_free", "e1", NULL));
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "grappled"));
    /* the sheet's status follows */
    json_t *st = json_object_get(rules_enc_stats(&f.e, "e1"), "status");
    ck_assert_int_eq(json_array_size(st), 0);
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"sensory\"}"));
    st = json_object_get(rules_enc_stats(&f.e, "e1"), "status");
    ck_assert_str_eq(json_string_value(json_array_get(st, 0)), "sensory");
    ck_assert_int_eq(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"sad\"}"),
                     TB_BAD_REQUEST);
    fx_free(&f);
}
END_TEST

/* 002:790 an inebriated character resists terror with +3 and no penalty: Cyrus (MND 0) rolls 9
 * against TN 11: 9 + 3 = 12 masters it. (Before issue 16: 9 - 3 = 6, still terrified.) */
START_TEST(inebriated_resists_terror_with_plus_three)
{
    fx f;
    fx_init(&f);
    cyrus_and_foe(&f, 20, 1);
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"inebriated\"}"));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"terror\"}"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    dice(&f, 1, 9);
    OK(act(&f, "end_turn", "e2", NULL));
    ck_assert_str_eq(cur(&f), "e1");
    ck_assert(!rules_enc_cond_has(&f.e, "e1", "terror"));
    fx_free(&f);
}
END_TEST

/* 002:589 a heavy weapon above one's TOG needs a TOG roll before each attack: Cyrus (TOG 2) and
 * the sledgehammer (TOG 3): d20 4 + 2 = 6 < 11, too weak to swing it: the action is spent, no
 * attack die is rolled; d20 15 + 2 swings it and the attack follows. (Before issue 16 the roll
 * was only flagged on the sheet.) The sensory impairment's -5 reaches the attack through the
 * same table (002:832). */
START_TEST(a_too_heavy_weapon_needs_a_tog_roll_before_each_attack)
{
    fx f;
    fx_init(&f);
    cyrus_and_foe(&f, 20, 1);
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":10}"));
    dice(&f, 1, 4);
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"weapon\":3}"));
    ck_assert(last_log_has(f.e.log, "not strong enough"));
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    ck_assert_int_eq(condition(&f, "e2"), 12);
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "end_turn", "e2", NULL));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"sensory\"}"));
    /* TOG 15 + 2; the attack: COR d20 11 + 3 - 5 = 9 < 10: a miss */
    dice(&f, 2, 15, 11);
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"weapon\":3}"));
    ck_assert(last_log_has(f.e.log, "miss"));
    fx_free(&f);
}
END_TEST

/* 002:83 "Assisting another character while in a conflict costs an action": Cyrus helps Aune
 * with MND (0): d20 12; his action is gone and a second assist or an attack is refused; the
 * result waits on Aune. A bad attribute is refused before the d20. */
START_TEST(assisting_spends_the_helpers_action)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json"));
    add(&f, "e2", "Aune", "party", "p2", 0, sheet_of("aune.json"));
    add(&f, "e3", "Thug", "foes", "gm", 1, quick(1, 0, 0, 0, 0, 12, 0));
    dice(&f, 3, 20, 10, 1);
    OK(act(&f, "begin", NULL, NULL));
    dice(&f, 0);
    ck_assert_int_eq(act_as(&f, "p1", "assist", "e1", "{\"target\":\"e2\",\"attr\":\"luck\"}"),
                     TB_BAD_REQUEST);
    dice(&f, 1, 12);
    OK(act_as(&f, "p1", "assist", "e1", "{\"target\":\"e2\",\"attr\":\"mnd\"}"));
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    json_t *c = rules_enc_cond(&f.e, "e2", "assisted");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq((int)json_integer_value(json_object_get(c, "total")), 12);
    dice(&f, 0);
    ck_assert_int_ne(act_as(&f, "p1", "assist", "e1", "{\"target\":\"e2\",\"attr\":\"mnd\"}"), 0);
    fx_free(&f);
}
END_TEST

/* 002:465 move before or after the action, not both; 002:469 dash; 002:431 a second aux. */
START_TEST(budget_of_a_turn)
{
    fx f;
    fx_init(&f);
    cyrus_and_foe(&f, 20, 1);
    OK(act_as(&f, "p1", "move", "e1", NULL));
    RULE(act_as(&f, "p1", "move", "e1", NULL), "no movement left");
    RULE(act_as(&f, "p1", "dash", "e1", NULL), "no movement left");
    OK(act_as(&f, "p1", "aux", "e1", NULL));
    OK(act_as(&f, "p1", "aux", "e1", NULL)); /* the action, given up */
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    RULE(act_as(&f, "p1", "aux", "e1", NULL), "no auxiliary action left");
    ck_assert_int_eq(act_as(&f, "p2", "end_turn", "e1", NULL), TB_FORBIDDEN);
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":9}"));
    RULE(act(&f, "attack", "e1", "{\"target\":\"e2\"}"), "no action left");
    ck_assert_int_eq(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"tn\":3}"),
                     TB_FORBIDDEN);
    fx_free(&f);
}
END_TEST

/* A combatant joining a running conflict rolls initiative and takes its place after the turn. */
START_TEST(joining_mid_conflict)
{
    fx f;
    fx_init(&f);
    cyrus_and_foe(&f, 10, 5); /* Cyrus 12, Thug 5 */
    dice(&f, 1, 19);
    add(&f, "e3", "Hound", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 8, 0)); /* 19 */
    ck_assert_str_eq(order_at(&f, 0), "e1");
    ck_assert_str_eq(order_at(&f, 1), "e3");
    ck_assert_str_eq(cur(&f), "e1");
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    ck_assert_str_eq(cur(&f), "e3");
    OK(act(&f, "end_turn", "e3", NULL));
    OK(act(&f, "end_turn", "e2", NULL));
    ck_assert_str_eq(order_at(&f, 0), "e3"); /* its rank from round 2 on */
    ck_assert_str_eq(cur(&f), "e3");
    fx_free(&f);
}
END_TEST

/* ---- combat options (issue 17) ---- */

#define OK2(call) ck_assert_msg((call) == 0, "%s: %s", #call, f->err.msg)

static int has_c(fx *f, const char *cid, const char *name)
{
    return rules_enc_cond_has(&f->e, cid, name);
}

/* Asserts the action is refused with code (and a message holding needle), drew no die and
 * changed nothing: not /enc, not /gm/enc, not the logs (validate before you roll). */
static void refused(fx *f, const char *seat, const char *action, const char *actor,
                    const char *params, int code, const char *needle)
{
    json_t *enc = json_deep_copy(f->enc), *hid = json_deep_copy(f->hidden);
    size_t logs = json_array_size(f->e.log), gm_logs = json_array_size(f->e.gm_log);
    dice(f, 0);
    ck_assert_int_eq(act_as(f, seat, action, actor, params), code);
    ck_assert_msg(strstr(f->err.msg, needle), "%s: got '%s', want '%s'", action, f->err.msg,
                  needle);
    ck_assert_msg(!rules_rng_exhausted(f->rng), "%s refused but drew a die", action);
    ck_assert_msg(json_equal(enc, f->enc) && json_equal(hid, f->hidden),
                  "%s refused but changed the state", action);
    ck_assert_uint_eq(json_array_size(f->e.log), logs);
    ck_assert_uint_eq(json_array_size(f->e.gm_log), gm_logs);
    json_decref(enc);
    json_decref(hid);
}

/* Every scripted die was used, and none more. */
static void dice_used(fx *f)
{
    ck_assert_msg(!rules_rng_exhausted(f->rng), "more dice were drawn than scripted");
    ck_assert(rules_rng_die(f->rng, 20) == 1 && rules_rng_exhausted(f->rng));
}

/* Whether a public log entry's result holds key (an NPC's number must not be there). */
static int public_result_has(fx *f, const char *key)
{
    size_t i;
    json_t *v;
    json_array_foreach(f->e.log, i,
                       v) if (json_object_get(json_object_get(v, "result"), key)) return 1;
    return 0;
}

/* Ann (a PC, p1) against the Brute (an NPC); Ann goes first. */
static void duel(fx *f, json_t *ann, json_t *brute)
{
    add(f, "e1", "Ann", "party", "p1", 0, ann);
    add(f, "e2", "Brute", "foes", "gm", 1, brute);
    dice(f, 2, 20, 1);
    OK2(act(f, "begin", NULL, NULL));
}

/* 002:661 a trip is AGL against the target's AGL (a tie stays with the target); the loser is
 * knocked down (002:794-798). */
START_TEST(trip_is_agl_against_agl_and_knocks_down)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 2, 0, 0, 0, 10, 0), quick(0, 1, 0, 0, 0, 10, 0));
    refused(&f, "p1", "trip", "e1", "{\"target\":\"e1\"}", TB_RULE, "themselves");
    refused(&f, "p2", "trip", "e1", "{\"target\":\"e2\"}", TB_FORBIDDEN, "");
    dice(&f, 2, 10, 11); /* 10 + 2 = 12 against 11 + 1 = 12 */
    OK(act_as(&f, "p1", "trip", "e1", "{\"target\":\"e2\"}"));
    dice_used(&f);
    ck_assert(!has_c(&f, "e2", "knocked_down"));
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    ck_assert(!public_result_has(&f, "target_total")); /* the Brute's AGL is the GM's */
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "end_turn", "e2", NULL));
    dice(&f, 2, 15, 3);
    OK(act_as(&f, "p1", "trip", "e1", "{\"target\":\"e2\"}"));
    ck_assert(has_c(&f, "e2", "knocked_down"));
    ck_assert_str_eq(json_string_value(
                         json_array_get(json_object_get(rules_enc_stats(&f.e, "e2"), "status"), 0)),
                     "knocked_down");
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "end_turn", "e2", NULL));
    refused(&f, "p1", "trip", "e1", "{\"target\":\"e2\"}", TB_RULE, "already on the ground");
    fx_free(&f);
}
END_TEST

/* 002:657 a shove: COR to land it (the GM's number, asked for when unset, reading G4), TOG
 * against TOG (G13), then the target's AGL against the force of the shove or knocked down. */
START_TEST(shove_lands_pushes_and_can_knock_down)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(3, 0, 2, 0, 0, 10, 0), quick(1, 0, 0, 0, 0, 10, 0));
    refused(&f, "p1", "shove", "e1", "{\"target\":\"e2\",\"tn\":5}", TB_FORBIDDEN, "only the GM");
    /* no number yet: the shove waits for the GM, no die */
    dice(&f, 0);
    OK(act_as(&f, "p1", "shove", "e1", "{\"target\":\"e2\"}"));
    ck_assert(!rules_rng_exhausted(f.rng));
    ck_assert_ptr_nonnull(json_object_get(f.enc, "waiting"));
    ck_assert_int_eq(budget(&f, "e1", "action"), 0);
    refused(&f, "p1", "move", "e1", NULL, TB_RULE, "waits for the GM");
    /* COR 10 + 2 = 12 lands on 12; TOG 10 + 3 = 13 against 5 + 1 = 6; AGL 4 against 13 */
    dice(&f, 4, 10, 10, 5, 4);
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":12}"));
    dice_used(&f);
    ck_assert_ptr_null(json_object_get(f.enc, "waiting"));
    ck_assert(has_c(&f, "e2", "knocked_down"));
    ck_assert(last_log_has(f.e.gm_log, "against the force of the shove 13"));
    ck_assert(!public_result_has(&f, "tn"));
    ck_assert(!public_result_has(&f, "target_total"));
    /* the next turn: the shove misses (COR 3 + 2 = 5 < 12), nothing more is rolled */
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "end_turn", "e2", NULL));
    dice(&f, 1, 3);
    OK(act_as(&f, "p1", "shove", "e1", "{\"target\":\"e2\"}"));
    dice_used(&f);
    fx_free(&f);
}
END_TEST

/* 002:665 a grapple: COR to grab, the better of TOG/COR against the target's to hold (G8); it
 * ends by breaking free, letting go (G14), or the grappler going out cold. */
START_TEST(grapple_holds_until_let_go_or_the_grappler_falls)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(2, 0, 3, 0, 0, 10, 0), quick(1, 0, 0, 0, 0, 10, 0));
    add(&f, "e3", "Other", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 10, 0));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":10}"));
    refused(&f, "p1", "grapple", "e1", "{\"target\":\"e1\"}", TB_RULE, "themselves");
    refused(&f, "gm", "grapple", "e1", "{\"target\":\"e3\"}", TB_RULE, "has not set");
    /* COR 8 + 3 = 11 grabs (10); COR 10 + 3 = 13 against TOG 5 + 1 = 6 holds */
    dice(&f, 3, 8, 10, 5);
    OK(act_as(&f, "p1", "grapple", "e1", "{\"target\":\"e2\"}"));
    dice_used(&f);
    ck_assert(has_c(&f, "e2", "grappled"));
    ck_assert_str_eq(
        json_string_value(json_object_get(rules_enc_cond(&f.e, "e2", "grappled"), "by")), "e1");
    refused(&f, "p1", "grapple", "e1", "{\"target\":\"e2\"}", TB_RULE, "already holds");
    refused(&f, "p1", "release", "e1", "{\"target\":\"e3\"}", TB_RULE, "not holding");
    OK(act_as(&f, "p1", "release", "e1", "{\"target\":\"e2\"}"));
    ck_assert(!has_c(&f, "e2", "grappled"));
    /* held again; the grappler drops: the hold ends */
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"grappled\",\"target2\":\"e1\"}"));
    OK(act(&f, "damage", NULL, "{\"target\":\"e1\",\"amount\":12}"));
    ck_assert(has_c(&f, "e1", "dying"));
    ck_assert(!has_c(&f, "e2", "grappled"));
    fx_free(&f);
}
END_TEST

/* 002:653 a targeted attack: the number rises by 3 (the GM may say otherwise), a hit causes
 * the effect instead of damage (G12). 002:649 holding back is a PC's choice. */
START_TEST(targeted_attack_is_harder_and_causes_the_effect)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 3, 0, 0, 10, 0), quick(1, 0, 0, 0, 0, 10, 0));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":10,\"attack_tn\":10}"));
    refused(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"effect\":\"sensory\",\"raise\":1}",
            TB_FORBIDDEN, "only the GM");
    refused(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"effect\":\"sensory\",\"nonlethal\":1}",
            TB_RULE, "no damage");
    dice(&f, 1, 9); /* 9 + 3 = 12 < 10 + 3 */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"effect\":\"sensory\"}"));
    ck_assert(!has_c(&f, "e2", "sensory"));
    dice(&f, 1, 10); /* the second light attack: 13 hits; no damage die */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"effect\":\"sensory\"}"));
    dice_used(&f);
    ck_assert(has_c(&f, "e2", "sensory"));
    ck_assert_int_eq(condition(&f, "e2"), 10);
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    refused(&f, "gm", "attack", "e2", "{\"target\":\"e1\",\"nonlethal\":1}", TB_RULE,
            "player character's choice");
    fx_free(&f);
}
END_TEST

/* 002:649 a held-back blow that would drop the foe leaves it at 1 Condition, out cold (G11). */
START_TEST(nonlethal_attack_leaves_the_foe_out_cold_at_one)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(2, 0, 3, 0, 0, 10, 0), quick(0, 0, 0, 0, 0, 3, 0));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":5}"));
    dice(&f, 2, 15, 6); /* hit; 6 + TOG 2 = 8 against Condition 3 */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"damage\":\"1d6\",\"nonlethal\":1}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e2"), 1);
    ck_assert(has_c(&f, "e2", "out_cold"));
    ck_assert(!has_c(&f, "e2", "dying"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "burnout", 0), 0);
    fx_free(&f);
}
END_TEST

/* 002:755-761 shielding: an auxiliary reaction; AGL + 5 against the attacker's COR; the shield
 * takes the hit; only one attacker a round. */
START_TEST(shielding_takes_the_blow_for_an_ally)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Ann", "party", "p1", 0, quick(0, 2, 0, 0, 0, 10, 0));
    add(&f, "e2", "Bob", "party", "p2", 0, quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e3", "Brute", "foes", "gm", 1, quick(1, 0, 1, 0, 0, 10, 0));
    add(&f, "e4", "Other", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 10, 0));
    dice(&f, 4, 1, 2, 20, 19);
    OK(act(&f, "begin", NULL, NULL)); /* Brute, Other, Bob, Ann */
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e3\",\"attack_tn\":12}"));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e4\",\"attack_tn\":12}"));
    refused(&f, "p1", "shield", "e1", "{\"target\":\"e1\"}", TB_RULE, "themselves");
    refused(&f, "p2", "shield", "e1", "{\"target\":\"e2\"}", TB_FORBIDDEN, "");
    OK(act_as(&f, "p1", "shield", "e1", "{\"target\":\"e2\"}"));
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(rules_enc_combatant(&f.e, "e1"), "spent"), "aux")),
                     1);
    refused(&f, "p1", "shield", "e1", "{\"target\":\"e2\"}", TB_RULE, "already shields");
    /* AGL 10 + 2 + 5 = 17 against COR 10 + 1 = 11: Ann takes 4 + TOG 1 = 5 */
    dice(&f, 3, 10, 10, 4);
    OK(act(&f, "attack", "e3", "{\"target\":\"e2\",\"damage\":\"1d6\"}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e1"), 5);
    ck_assert_int_eq(condition(&f, "e2"), 10);
    OK(act(&f, "end_turn", "e3", NULL));
    /* another attacker this round: no shield, Bob evades on his own (15 >= 12) */
    dice(&f, 1, 15);
    OK(act(&f, "attack", "e4", "{\"target\":\"e2\",\"damage\":\"1d6\"}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e1"), 5);
    ck_assert_int_eq(condition(&f, "e2"), 10);
    fx_free(&f);
}
END_TEST

/* 002:725 splash: one damage roll, an AGL roll against the GM's number halves it (G16). */
START_TEST(splash_damage_is_halved_by_a_good_agl_roll)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 2, 0, 0, 0, 10, 0), quick(0, 0, 0, 0, 0, 12, 0));
    refused(&f, "gm", "splash", NULL, "{\"who\":\"e1,e9\",\"damage\":\"2d6\",\"tn\":12}",
            TB_NOT_FOUND, "no combatant");
    refused(&f, "gm", "splash", NULL, "{\"who\":\"e1,e1\",\"damage\":\"2d6\",\"tn\":12}",
            TB_BAD_REQUEST, "twice");
    refused(&f, "gm", "splash", NULL,
            "{\"who\":\"e1\",\"damage\":\"2d6\",\"type\":\"slime\",\"tn\":12}", TB_BAD_REQUEST,
            "unknown damage type");
    refused(&f, "p1", "splash", NULL, "{\"who\":\"e1\",\"damage\":\"2d6\",\"tn\":12}", TB_FORBIDDEN,
            "");
    /* 6 + 4 = 10; Ann AGL 10 + 2 = 12: half, 5; the Brute 3: 10 */
    dice(&f, 4, 6, 4, 10, 3);
    OK(act(&f, "splash", NULL,
           "{\"who\":\"e1,e2\",\"damage\":\"2d6\",\"type\":\"explosions\",\"tn\":12}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e1"), 5);
    ck_assert_int_eq(condition(&f, "e2"), 2);
    ck_assert(!public_result_has(&f, "tn"));
    fx_free(&f);
}
END_TEST

/* 002:727 a lasting area hurts again at the start of the turn unless the character moves out
 * first: the turn waits for leave or stay. */
START_TEST(persistent_area_hurts_at_the_turn_start_unless_left)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 0, 0, 0, 10, 0), quick(0, 0, 0, 0, 0, 10, 0));
    refused(&f, "gm", "area", NULL, "{\"who\":\"e1\"}", TB_BAD_REQUEST, "damage");
    refused(&f, "p1", "leave", "e1", NULL, TB_RULE, "not standing in an area");
    refused(&f, "p1", "stay", "e1", NULL, TB_RULE, "not standing in an area");
    dice(&f, 1, 3);
    OK(act(&f, "area", NULL, "{\"who\":\"e1\",\"damage\":\"1d4\",\"type\":\"heat\"}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e1"), 7);
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "end_turn", "e2", NULL));
    /* round 2: the start of Ann's turn */
    refused(&f, "p1", "attack", "e1", "{\"target\":\"e2\"}", TB_RULE, "move out of it");
    refused(&f, "p1", "end_turn", "e1", NULL, TB_RULE, "move out of it");
    dice(&f, 0);
    OK(act_as(&f, "p1", "leave", "e1", NULL));
    ck_assert(!rules_rng_exhausted(f.rng));
    ck_assert_int_eq(condition(&f, "e1"), 7);
    ck_assert(!has_c(&f, "e1", "area"));
    ck_assert_int_eq(budget(&f, "e1", "move"), 0);
    dice(&f, 1, 2);
    OK(act(&f, "area", NULL, "{\"who\":\"e1\",\"damage\":\"1d4\"}"));
    ck_assert_int_eq(condition(&f, "e1"), 5);
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "end_turn", "e2", NULL));
    dice(&f, 1, 4); /* round 3: Ann stays in it */
    OK(act_as(&f, "p1", "stay", "e1", NULL));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e1"), 1);
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "area", NULL, "{\"who\":\"e1\",\"on\":0}"));
    ck_assert(!has_c(&f, "e1", "area"));
    fx_free(&f);
}
END_TEST

/* Issue 30, RULES.md reading G26: a blast placed on the scene's map (002:725 "anyone within a
 * certain radius") catches every fighter whose shown token lies within the radius of the centre,
 * measured between the squares' centres (a diagonal neighbour is 1.4 away: outside radius 1). A
 * hidden token (not in e->squares) and a marker decide nothing; `who` is the GM's word without a
 * map; every refusal draws no die and changes nothing. The same for a lasting area (002:727). */
/* Some public log line starts with `text`. */
static int logged_start(fx *f, const char *text)
{
    size_t i;
    json_t *en;
    json_array_foreach(f->e.log, i, en)
    {
        const char *t = json_string_value(json_object_get(en, "text"));
        if (t && strncmp(t, text, strlen(text)) == 0)
            return 1;
    }
    return 0;
}

START_TEST(a_blast_placed_on_the_map_catches_those_within_its_radius)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Ann", "party", "p1", 0, quick(0, 2, 0, 0, 0, 10, 0));
    add(&f, "e2", "Brute", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 12, 0));
    add(&f, "e3", "Guard", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 12, 0));
    add(&f, "e4", "Sneak", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 12, 0));
    dice(&f, 4, 20, 10, 5, 1);
    OK(act(&f, "begin", NULL, NULL));
    const char *blast = "{\"centre\":\"2,2\",\"damage\":\"2d6\",\"type\":\"explosions\",\"tn\":12}";
    refused(&f, "gm", "splash", NULL, blast, TB_RULE, "no map");
    /* Ann at 2,2, the Brute next to her, the Guard on the diagonal; the Sneak's token is hidden
     * (the server puts only shown tokens in squares); a marker on Ann's square */
    json_t *sq = json_loads("{\"e1\":{\"id\":\"e1\",\"cid\":\"e1\",\"x\":2,\"y\":2},"
                            "\"e2\":{\"id\":\"e2\",\"cid\":\"e2\",\"x\":3,\"y\":2},"
                            "\"e3\":{\"id\":\"e3\",\"cid\":\"e3\",\"x\":3,\"y\":3},"
                            "\"m1\":{\"id\":\"m1\",\"label\":\"Crate\",\"x\":2,\"y\":2}}",
                            0, NULL);
    f.e.squares = sq;
    refused(&f, "gm", "splash", NULL,
            "{\"who\":\"e1\",\"centre\":\"2,2\",\"damage\":\"2d6\",\"tn\":12}", TB_BAD_REQUEST,
            "not both");
    refused(&f, "gm", "splash", NULL, "{\"who\":\"e1\",\"radius\":2,\"damage\":\"2d6\",\"tn\":12}",
            TB_BAD_REQUEST, "needs a centre");
    refused(&f, "gm", "splash", NULL, "{\"centre\":\"2;2\",\"damage\":\"2d6\",\"tn\":12}",
            TB_BAD_REQUEST, "column and row");
    refused(&f, "gm", "splash", NULL, "{\"centre\":\"-1,2\",\"damage\":\"2d6\",\"tn\":12}",
            TB_BAD_REQUEST, "column and row");
    refused(&f, "gm", "splash", NULL, "{\"damage\":\"2d6\",\"tn\":12}", TB_BAD_REQUEST,
            "name who is caught");
    refused(&f, "gm", "splash", NULL, "{\"centre\":\"9,9\",\"damage\":\"2d6\",\"tn\":12}", TB_RULE,
            "nobody in the fight is within 1 square of 9,9");
    refused(&f, "gm", "splash", NULL, "{\"centre\":\"2,2\",\"damage\":\"2x\",\"tn\":12}",
            TB_BAD_REQUEST, "");
    refused(&f, "p1", "splash", NULL, blast, TB_FORBIDDEN, "");
    /* the GM's move: the centre a pick of the fighters' squares, its default form valid */
    json_t *m = move_of(&f, "gm", "splash", NULL);
    ck_assert_ptr_nonnull(m);
    json_t *ps = json_object_get(m, "params"), *centre = NULL, *pv;
    size_t i;
    json_array_foreach(ps, i, pv) if (strcmp(json_string_value(json_object_get(pv, "name")),
                                             "centre") == 0) centre = pv;
    ck_assert_ptr_nonnull(centre);
    json_t *ch = json_object_get(centre, "choices");
    ck_assert_int_eq(json_array_size(ch), 4); /* not on the map, Ann's, the Brute's, the Guard's */
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(ch, 1), "value")), "2,2");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(ch, 1), "label")),
                     "Ann's square (2, 2)");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(ch, 3), "value")), "3,3");
    json_decref(m);
    /* 6 + 4 = 10: Ann (AGL 2) d20 10 → 12, half: 5; the Brute d20 3: all 10. The Guard (1.4
     * away) and the Sneak (hidden) roll nothing and keep their Condition. */
    dice(&f, 4, 6, 4, 10, 3);
    OK(act(&f, "splash", NULL, blast));
    dice_used(&f);
    /* its public line says where it went off (the square is on the shown map) */
    ck_assert(logged_start(&f, "A blast on square 2,2, radius 1: 10 damage"));
    ck_assert_int_eq(condition(&f, "e1"), 5);
    ck_assert_int_eq(condition(&f, "e2"), 2);
    ck_assert_int_eq(condition(&f, "e3"), 12);
    ck_assert_int_eq(condition(&f, "e4"), 12);
    /* radius 0 on the Guard's square: only him (d6 4, his AGL d20 2 fails) */
    dice(&f, 2, 4, 2);
    OK(act(&f, "splash", NULL, "{\"centre\":\"3,3\",\"radius\":0,\"damage\":\"1d6\",\"tn\":12}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e3"), 8);
    ck_assert_int_eq(condition(&f, "e2"), 2);
    /* without the map the GM's word still decides: the Sneak is named by hand (d6 1, d20 1) */
    f.e.squares = NULL;
    dice(&f, 2, 1, 1);
    OK(act(&f, "splash", NULL, "{\"who\":\"e4\",\"damage\":\"1d6\",\"tn\":12}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e4"), 11);
    f.e.squares = sq;
    /* a lasting area on the map, radius 2 around the Guard: Ann (1.4), the Brute (1) and him;
     * each takes its damage now (1d4: 1, 1, 3) */
    refused(&f, "gm", "area", NULL, "{\"centre\":\"30,30\",\"damage\":\"1d4\"}", TB_RULE,
            "within 1 square");
    /* with the shown map's grid known (8 columns, 6 rows), a centre off it is refused as such,
     * even when its radius would reach a fighter on the map (30,30 above was accepted as a square
     * when no grid was given) */
    json_t *grid = json_pack("{s:i, s:i}", "cols", 8, "rows", 6);
    f.e.grid = grid;
    refused(&f, "gm", "area", NULL, "{\"centre\":\"8,2\",\"radius\":5,\"damage\":\"1d4\"}",
            TB_BAD_REQUEST, "the centre 8,2 is off the map");
    refused(&f, "gm", "splash", NULL,
            "{\"centre\":\"3,6\",\"radius\":4,\"damage\":\"1d6\",\"tn\":12}", TB_BAD_REQUEST,
            "off the map");
    /* a token off the grid (a map saved before map.set kept tokens on it) is not offered as a
     * centre: on a 3 by 3 grid only Ann's 2,2 is */
    json_t *small = json_pack("{s:i, s:i}", "cols", 3, "rows", 3);
    f.e.grid = small;
    json_t *m3 = move_of(&f, "gm", "splash", NULL), *c3 = NULL;
    json_array_foreach(json_object_get(m3, "params"), i,
                       pv) if (strcmp(json_string_value(json_object_get(pv, "name")), "centre") ==
                               0) c3 = pv;
    ck_assert_ptr_nonnull(c3);
    ck_assert_int_eq(json_array_size(json_object_get(c3, "choices")), 2);
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(c3, "choices"), 1), "value")),
                     "2,2");
    json_decref(m3);
    json_decref(small);
    f.e.grid = grid;
    dice(&f, 3, 1, 1, 3);
    OK(act(&f, "area", NULL, "{\"centre\":\"3,3\",\"radius\":2,\"damage\":\"1d4\"}"));
    dice_used(&f);
    ck_assert(logged_start(&f, "A lasting area on square 3,3, radius 2"));
    ck_assert(has_c(&f, "e1", "area") && has_c(&f, "e2", "area") && has_c(&f, "e3", "area"));
    ck_assert(!has_c(&f, "e4", "area"));
    ck_assert_int_eq(condition(&f, "e1"), 4);
    ck_assert_int_eq(condition(&f, "e2"), 1);
    ck_assert_int_eq(condition(&f, "e3"), 5);
    /* taken away around the Brute's square, radius 0: him only */
    OK(act(&f, "area", NULL, "{\"centre\":\"3,2\",\"radius\":0,\"on\":0}"));
    ck_assert(logged_start(&f, "The lasting area on square 3,2, radius 0, is taken away"));
    ck_assert(!has_c(&f, "e2", "area") && has_c(&f, "e1", "area"));
    f.e.squares = NULL;
    f.e.grid = NULL;
    json_decref(sq);
    json_decref(grid);
    fx_free(&f);
}
END_TEST

/* 002:735 drowning: MND 11 each round to stay conscious; out cold under water, 6 a round. */
START_TEST(drowning_rolls_mnd_each_round_then_hurts)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 0, 1, 0, 10, 0), quick(0, 0, 0, 0, 0, 10, 0));
    refused(&f, "gm", "drown", NULL, "{\"target\":\"e1\",\"on\":0}", TB_RULE, "not drowning");
    OK(act(&f, "drown", NULL, "{\"target\":\"e1\"}"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    dice(&f, 1, 10); /* round 2: 10 + 1 = 11 stays conscious */
    OK(act(&f, "end_turn", "e2", NULL));
    dice_used(&f);
    ck_assert_str_eq(cur(&f), "e1");
    ck_assert(!has_c(&f, "e1", "unconscious"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    dice(&f, 1, 9); /* round 3: 9 + 1 = 10 fails: unconscious, the turn passes */
    OK(act(&f, "end_turn", "e2", NULL));
    ck_assert(has_c(&f, "e1", "unconscious"));
    ck_assert_str_eq(cur(&f), "e2");
    dice(&f, 0);
    OK(act(&f, "end_turn", "e2", NULL)); /* round 4: 6 damage, no die */
    ck_assert(!rules_rng_exhausted(f.rng));
    ck_assert_int_eq(condition(&f, "e1"), 4);
    OK(act(&f, "drown", NULL, "{\"target\":\"e1\",\"on\":0}"));
    ck_assert(!has_c(&f, "e1", "drowning"));
    fx_free(&f);
}
END_TEST

/* Issue 25 item 13: the table reads a status in words (002:779-878): "Cyrus is in agony", not
 * "Cyrus is agony"; "knocked down", not "knocked_down". */
static int logged(fx *f, const char *text)
{
    size_t i;
    json_t *v;
    json_array_foreach(f->e.log, i, v)
    {
        if (strcmp(json_string_value(json_object_get(v, "text")), text) == 0)
            return 1;
    }
    return 0;
}

START_TEST(a_status_is_said_in_words)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Cyrus", "party", "p1", 0, sheet_of("cyrus.json"));
    static const char *const SAID[][2] = {
        {"agony", "Cyrus is in agony"},
        {"terror", "Cyrus is terrified"},
        {"knocked_down", "Cyrus is knocked down"},
        {"mind_controlled", "Cyrus is mind controlled"},
        {"stun", "Cyrus is stunned"},
        {"sleep", "Cyrus is asleep"},
    };
    char q[96];
    for (size_t i = 0; i < sizeof SAID / sizeof SAID[0]; i++) {
        snprintf(q, sizeof q, "{\"target\":\"e1\",\"name\":\"%s\"}", SAID[i][0]);
        OK(act(&f, "status", NULL, q));
        ck_assert_msg(logged(&f, SAID[i][1]), "not logged: %s", SAID[i][1]);
    }
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"agony\",\"on\":0}"));
    ck_assert_msg(logged(&f, "Cyrus is no longer in agony"), "not logged: %s",
                  "Cyrus is no longer in agony");
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"knocked_down\",\"on\":0}"));
    ck_assert_msg(logged(&f, "Cyrus is no longer knocked down"), "not logged: %s",
                  "Cyrus is no longer knocked down");
    RULE(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"knocked_down\",\"on\":0}"),
         "Cyrus is not knocked down");
    fx_free(&f);
}
END_TEST

/* A timed status that runs out is said in the same words (the common "expire" line reads the
 * system's "cond.<name>"; it said "Ann is no longer hex"). */
START_TEST(a_status_that_runs_out_is_said_in_words)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 0, 0, 0, 5, 0), quick(0, 0, 0, 0, 0, 10, 0));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"hex\",\"turns\":1}"));
    for (int i = 0; i < 4 && has_c(&f, "e1", "hex"); i++) {
        const char *who = cur(&f);
        ck_assert_ptr_nonnull(who);
        OK(act_as(&f, strcmp(who, "e1") == 0 ? "p1" : "gm", "end_turn", who, NULL));
    }
    ck_assert(!has_c(&f, "e1", "hex"));
    ck_assert_msg(logged(&f, "Ann is no longer hexed"), "not logged: Ann is no longer hexed");
    fx_free(&f);
}
END_TEST

/* 002:805 agony: a temporary, non-lethal level of burnout for 10 rounds; 002:816 frenzy is
 * immune. */
START_TEST(agony_is_a_temporary_non_lethal_burnout)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 0, 0, 0, 5, 0), quick(0, 0, 0, 0, 0, 10, 0));
    rules_enc_stat_set(&f.e, "e1", "burnout", 3);
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"agony\"}"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 4);
    ck_assert(has_c(&f, "e1", "out_cold"));
    ck_assert(!has_c(&f, "e1", "dying"));
    ck_assert_int_eq(condition(&f, "e1"), 5);
    refused(&f, "gm", "status", NULL, "{\"target\":\"e1\",\"name\":\"agony\"}", TB_RULE,
            "already in agony");
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"agony\",\"on\":0}"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 3);
    ck_assert(!has_c(&f, "e1", "out_cold"));
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"agony\"}"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "burnout", 0), 1);
    for (int i = 0; i < 10; i++) { /* Ann went out cold: it is the Brute's turn */
        ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "burnout", 0), 1);
        OK(act(&f, "end_turn", "e2", NULL));
        OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    }
    ck_assert(!has_c(&f, "e2", "agony"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "burnout", 0), 0);
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"frenzy\"}"));
    refused(&f, "gm", "status", NULL, "{\"target\":\"e1\",\"name\":\"agony\"}", TB_RULE,
            "immune to agony");
    fx_free(&f);
}
END_TEST

/* Issue 24 item 3: the GM's number given once with an NPC's attack stands as its `attack_tn`
 * (GM-only), so its next attack is one tap: the move's arguments leave the number out. */
START_TEST(an_npcs_number_given_once_stands_for_its_next_attacks)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 0, 0, 0, 10, 0), quick(0, 0, 0, 0, 0, 10, 0));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    json_t *m = move_of(&f, "gm", "attack", "e2");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(m, "args"), "tn")), 11);
    json_decref(m);
    dice(&f, 1, 15); /* AGL 15 meets 12: evaded */
    OK(act(&f, "attack", "e2", "{\"target\":\"e1\",\"tn\":12,\"damage\":\"1d4\"}"));
    dice_used(&f);
    ck_assert_int_eq(
        json_integer_value(json_object_get(rules_enc_hidden_of(&f.e, "e2"), "attack_tn")), 12);
    ck_assert(!public_result_has(&f, "attack_tn"));
    OK(act(&f, "end_turn", "e2", NULL));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    m = move_of(&f, "gm", "attack", "e2");
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_null(json_object_get(json_object_get(m, "args"), "tn")); /* one tap */
    json_decref(m);
    dice(&f, 2, 11, 2); /* AGL 11 misses 12: hit for 1d4 2 */
    OK(act(&f, "attack", "e2", "{\"target\":\"e1\",\"damage\":\"1d4\"}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e1"), 8);
    fx_free(&f);
}
END_TEST

/* Issue 25 item 12. 002:816 a frenzy is "Immune to agony and fear": terror is refused on a
 * frenzied character and a frenzy ends both (reading G23); 002:805 agony's level is "a temporary
 * level": agony given at level 4 added none, so none goes when it ends. */
START_TEST(frenzy_is_immune_to_fear_and_agony_takes_back_only_its_own_level)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 0, 0, 0, 5, 0), quick(0, 0, 0, 0, 0, 10, 0));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"terror\"}"));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"agony\"}"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 1);
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"frenzy\"}"));
    ck_assert(!has_c(&f, "e1", "terror"));
    ck_assert(!has_c(&f, "e1", "agony"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e1", "burnout", 0), 0);
    ck_assert_str_eq(efx_last_text(&f), "Ann is no longer in agony");
    refused(&f, "gm", "status", NULL, "{\"target\":\"e1\",\"name\":\"terror\"}", TB_RULE,
            "immune to fear");
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"frenzy\",\"on\":0}"));
    OK(act(&f, "status", NULL, "{\"target\":\"e1\",\"name\":\"amok\"}"));
    refused(&f, "gm", "status", NULL, "{\"target\":\"e1\",\"name\":\"terror\"}", TB_RULE,
            "immune to fear");
    /* the Brute at burnout 4 (0 Condition, dying): agony adds no level and takes none away */
    rules_enc_stat_set(&f.e, "e2", "burnout", 4);
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"agony\"}"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "burnout", 0), 4);
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"agony\",\"on\":0}"));
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "burnout", 0), 4);
    fx_free(&f);
}
END_TEST

/* Issue 25 item 14. 002:674 a miss on a grappled target may hit the one who holds it: AGL 11,
 * minus the attacker's COR when it does not wish to hit them (an ally: reading G24). */
START_TEST(a_miss_on_a_grappled_target_may_hit_the_grappler)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 2, 0, 0, 10, 0), quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e3", "Bob", "party", "p2", 0, quick(0, 1, 0, 0, 0, 10, 0));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"tn\":15}"));
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"grappled\",\"target2\":\"e3\"}"));
    /* COR 5 + 2 misses 15; Bob rolls AGL 3 + 1 = 4 against 11 - 2: hit for 1d4 3 */
    dice(&f, 3, 5, 3, 3);
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e2\",\"damage\":\"1d4\"}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e3"), 7);
    ck_assert_int_eq(condition(&f, "e2"), 10);
    ck_assert_msg(logged(&f, "Bob is hit for 3 damage"), "not logged: the stray hit");
    ck_assert(!json_object_get(f.enc, "pending"));
    fx_free(&f);
}
END_TEST

/* Issue 25 item 14. 002:874 a knocked out character "can be woken instantly as an auxiliary action
 * by a conscious character" and wakes "after a minute" (10 rounds); 002:870 the sleeping too. */
START_TEST(a_sleeping_or_knocked_out_character_is_woken_with_the_aux_action)
{
    fx f;
    fx_init(&f);
    duel(&f, quick(0, 0, 0, 0, 0, 10, 0), quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e3", "Bob", "party", "p2", 0, quick(0, 0, 0, 0, 0, 10, 0));
    refused(&f, "p1", "wake", "e1", "{\"target\":\"e3\"}", TB_RULE, "not asleep");
    OK(act(&f, "status", NULL, "{\"target\":\"e3\",\"name\":\"knocked_out\"}"));
    ck_assert_int_eq(
        json_integer_value(json_object_get(rules_enc_cond(&f.e, "e3", "knocked_out"), "turns")),
        10);
    OK(act(&f, "status", NULL, "{\"target\":\"e2\",\"name\":\"sleep\"}"));
    OK(act_as(&f, "p1", "wake", "e1", "{\"target\":\"e3\"}"));
    ck_assert(!has_c(&f, "e3", "knocked_out"));
    ck_assert_int_eq(budget(&f, "e1", "aux"), 0);
    ck_assert_str_eq(efx_last_text(&f), "Ann wakes Bob up as an auxiliary action");
    refused(&f, "p1", "wake", "e1", "{\"target\":\"e2\"}", TB_RULE, "no auxiliary action");
    fx_free(&f);
}
END_TEST

/* Issue 25 item 14. 002:753 armor above the wearer's TOG requirement: a penalty to AGL (minus the
 * shortfall, reading 10): the evasion roll takes it. */
START_TEST(armor_too_heavy_for_its_wearer_costs_agl)
{
    fx f;
    fx_init(&f);
    json_t *ann = quick(1, 0, 0, 0, 0, 10, 0);
    json_object_set_new(ann, "armor_tog", json_integer(4));
    duel(&f, ann, quick(0, 0, 0, 0, 0, 10, 0));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"attack_tn\":10}"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    /* AGL 12 + 0 - 3 = 9 misses 10: hit for 1d4 2 */
    dice(&f, 2, 12, 2);
    OK(act(&f, "attack", "e2", "{\"target\":\"e1\",\"damage\":\"1d4\"}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e1"), 8);
    fx_free(&f);
}
END_TEST

/* 002:258-260 stabilizing: the GM's number, an INT (RSN) roll unless a medkit, and a COR roll. */
START_TEST(stabilizing_a_dying_ally_takes_rsn_and_cor)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Ann", "party", "p1", 0, quick(0, 0, 2, 0, 0, 10, 0));
    add(&f, "e2", "Bob", "party", "p2", 0, quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e3", "Brute", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 10, 0));
    dice(&f, 3, 20, 19, 1);
    OK(act(&f, "begin", NULL, NULL));
    OK(act(&f, "damage", NULL, "{\"target\":\"e2\",\"amount\":12}"));
    ck_assert(has_c(&f, "e2", "dying"));
    refused(&f, "p1", "stabilize", "e1", "{\"target\":\"e3\"}", TB_RULE, "not dying");
    refused(&f, "p1", "stabilize", "e1", "{\"target\":\"e2\"}", TB_RULE, "ask the GM");
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e2\",\"stabilize_tn\":10}"));
    dice(&f, 2, 5, 15); /* RSN 5 fails, COR 17 passes: still dying */
    OK(act_as(&f, "p1", "stabilize", "e1", "{\"target\":\"e2\"}"));
    dice_used(&f);
    ck_assert(has_c(&f, "e2", "dying"));
    ck_assert(!last_log_has(f.e.log, "10"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    OK(act(&f, "end_turn", "e3", NULL));
    dice(&f, 1, 8); /* a medkit: COR 8 + 2 = 10 */
    OK(act_as(&f, "p1", "stabilize", "e1", "{\"target\":\"e2\",\"medkit\":1}"));
    dice_used(&f);
    ck_assert(!has_c(&f, "e2", "dying"));
    ck_assert(has_c(&f, "e2", "out_cold"));
    ck_assert_int_eq(condition(&f, "e2"), 1);
    ck_assert_int_eq(rules_enc_stat(&f.e, "e2", "burnout", 0), 2);
    fx_free(&f);
}
END_TEST

/* 002:521-523 surprise: the attackers' turns come first (round 1), the first attack +5; on
 * alert only the first attacker, +2 (G18). */
START_TEST(surprise_gives_the_attackers_a_turn_and_a_bonus)
{
    fx f;
    fx_init(&f);
    add(&f, "e1", "Ann", "party", "p1", 0, quick(0, 0, 3, 0, 0, 10, 0));
    add(&f, "e2", "Bob", "party", "p2", 0, quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e3", "Brute", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e4", "Other", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 10, 0));
    refused(&f, "gm", "begin", NULL, "{\"surprise\":\"nobody\"}", TB_RULE, "nobody on side");
    dice(&f, 4, 5, 10, 20, 15);
    OK(act(&f, "begin", NULL, "{\"surprise\":\"party\"}"));
    ck_assert_int_eq(json_array_size(json_object_get(f.enc, "order")), 2);
    ck_assert_str_eq(cur(&f), "e2");
    OK(act_as(&f, "p2", "end_turn", "e2", NULL));
    OK(act(&f, "set_tn", NULL, "{\"target\":\"e3\",\"tn\":10}"));
    dice(&f, 1, 2); /* 2 + 3 + 5 = 10 hits; bare hands, at least 1 */
    OK(act_as(&f, "p1", "attack", "e1", "{\"target\":\"e3\"}"));
    dice_used(&f);
    ck_assert_int_eq(condition(&f, "e3"), 9);
    ck_assert_ptr_null(json_object_get(f.enc, "surprise"));
    OK(act_as(&f, "p1", "end_turn", "e1", NULL));
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_str_eq(cur(&f), "e3");
    ck_assert_int_eq(json_array_size(json_object_get(f.enc, "order")), 4);
    fx_free(&f);

    fx_init(&f);
    add(&f, "e1", "Ann", "party", "p1", 0, quick(0, 0, 3, 0, 0, 10, 0));
    add(&f, "e2", "Bob", "party", "p2", 0, quick(0, 0, 0, 0, 0, 10, 0));
    add(&f, "e3", "Brute", "foes", "gm", 1, quick(0, 0, 0, 0, 0, 10, 0));
    dice(&f, 3, 5, 10, 20);
    OK(act(&f, "begin", NULL, "{\"surprise\":\"party\",\"alert\":1}"));
    ck_assert_int_eq(json_array_size(json_object_get(f.enc, "order")), 1);
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(f.enc, "surprise"), "bonus")), 2);
    fx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("enc_grimwire");
    TCase *tc = tcase_create("conflict");
    tcase_add_test(tc, registered_and_listed_by_the_system);
    tcase_add_test(tc, initiative_by_per_ties_to_enemies);
    tcase_add_test(tc, cyrus_kneecap_example);
    tcase_add_test(tc, reaction_before_the_turn_takes_this_rounds_action);
    tcase_add_test(tc, passing_acts_later_in_initiative_order);
    tcase_add_test(tc, light_weapon_attacks_by_cor);
    tcase_add_test(tc, a_players_attack_waits_for_the_target_number);
    tcase_add_test(tc, the_gm_answers_a_waiting_attack_with_one_number);
    tcase_add_test(tc, an_npcs_hidden_numbers_stay_the_gms);
    tcase_add_test(tc, the_moves_offer_what_the_rules_allow_now);
    tcase_add_test(tc, damage_types_and_armor);
    tcase_add_test(tc, natural_one_hits_someone_else);
    tcase_add_test(tc, dying_counts_down_to_death);
    tcase_add_test(tc, burnout_levels);
    tcase_add_test(tc, status_effects_change_what_one_may_do);
    tcase_add_test(tc, budget_of_a_turn);
    tcase_add_test(tc, inebriated_resists_terror_with_plus_three);
    tcase_add_test(tc, assisting_spends_the_helpers_action);
    tcase_add_test(tc, a_too_heavy_weapon_needs_a_tog_roll_before_each_attack);
    tcase_add_test(tc, joining_mid_conflict);
    tcase_add_test(tc, trip_is_agl_against_agl_and_knocks_down);
    tcase_add_test(tc, shove_lands_pushes_and_can_knock_down);
    tcase_add_test(tc, grapple_holds_until_let_go_or_the_grappler_falls);
    tcase_add_test(tc, targeted_attack_is_harder_and_causes_the_effect);
    tcase_add_test(tc, nonlethal_attack_leaves_the_foe_out_cold_at_one);
    tcase_add_test(tc, shielding_takes_the_blow_for_an_ally);
    tcase_add_test(tc, splash_damage_is_halved_by_a_good_agl_roll);
    tcase_add_test(tc, persistent_area_hurts_at_the_turn_start_unless_left);
    tcase_add_test(tc, a_blast_placed_on_the_map_catches_those_within_its_radius);
    tcase_add_test(tc, drowning_rolls_mnd_each_round_then_hurts);
    tcase_add_test(tc, agony_is_a_temporary_non_lethal_burnout);
    tcase_add_test(tc, frenzy_is_immune_to_fear_and_agony_takes_back_only_its_own_level);
    tcase_add_test(tc, a_miss_on_a_grappled_target_may_hit_the_grappler);
    tcase_add_test(tc, a_sleeping_or_knocked_out_character_is_woken_with_the_aux_action);
    tcase_add_test(tc, armor_too_heavy_for_its_wearer_costs_agl);
    tcase_add_test(tc, an_npcs_number_given_once_stands_for_its_next_attacks);
    tcase_add_test(tc, a_status_is_said_in_words);
    tcase_add_test(tc, a_status_that_runs_out_is_said_in_words);
    tcase_add_test(tc, stabilizing_a_dying_ally_takes_rsn_and_cor);
    tcase_add_test(tc, surprise_gives_the_attackers_a_turn_and_a_bonus);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
