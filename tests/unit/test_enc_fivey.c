/* The fivey encounter module fivey.combat (rules/fivey/combat.c), driven directly with a
 * scripted RNG: the combatants are made as server/ops_enc.c makes them (sheet_stats copied from
 * the sample sheets, then the join hook), and every step's state is asserted exactly. Rulebook
 * 004_110cc4af3ff93059.txt, cited 004:LINE. */
#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "enc_fixture.h"
#include "rules_util.h"

typedef efx fixture;

static const rules_module *mod(void)
{
    const rules_module *m = rules_module_find("fivey.combat");
    ck_assert_ptr_nonnull(m);
    return m;
}

/* The next dice, exactly these faces (the step must use them all). */
#define DICE(f, ...) EFX_DICE(f, __VA_ARGS__)

static void fx_dice(fixture *f, const int *faces, size_t n)
{
    efx_dice(f, faces, n);
}

static void fx_no_dice(fixture *f)
{
    fx_dice(f, NULL, 0);
}

static void fx_init(fixture *f)
{
    efx_init(f, "fivey.combat");
}

static void fx_free(fixture *f)
{
    efx_free(f);
}

/* Adds a combatant as op_enc_add does: a PC from a sample sheet (seat), an NPC from a sheet or a
 * quick NPC (sheet NULL). Returns its id (it lives in the state). */
static const char *fx_add(fixture *f, const char *name, const char *seat, int npc,
                          const char *sample, const char *side)
{
    json_t *c = efx_combatant(f, NULL, name, side ? side : npc ? "foes" : "party", seat, npc);
    json_t *sheet = sample ? ru_load_sample("fivey", sample) : NULL;
    efx_join(f, efx_cid(c), sheet);
    json_decref(sheet);
    return efx_cid(c);
}

/* Runs action `name` as `seat` for actor (NULL: the current combatant) with params given as a
 * JSON text, as the server runs it (rules_enc_act); returns 0 or the tb_code. */
static int fx_act(fixture *f, const char *seat, const char *actor, const char *name,
                  const char *params)
{
    return efx_act(f, seat, actor, name, params);
}

static json_t *comb(fixture *f, const char *cid)
{
    return rules_enc_combatant(&f->e, cid);
}

static json_t *hstats(fixture *f, const char *cid)
{
    return json_object_get(json_object_get(json_object_get(f->hidden, "combatants"), cid), "stats");
}

static int geti(const json_t *o, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    const json_t *v = o;
    for (char *save = NULL, *k = strtok_r(buf, "/", &save); k; k = strtok_r(NULL, "/", &save))
        v = json_object_get(v, k);
    ck_assert_msg(json_is_integer(v), "no integer at %s", path);
    return (int)json_integer_value(v);
}

static const char *order_at(fixture *f, size_t i)
{
    return json_string_value(json_array_get(json_object_get(f->enc, "order"), i));
}

static const char *last_text(json_t *log)
{
    return json_string_value(
        json_object_get(json_array_get(log, json_array_size(log) - 1), "text"));
}

static void assert_used_up(fixture *f)
{
    ck_assert_msg(!rules_rng_exhausted(f->rng), "the step asked for more dice than scripted");
}

/* Vesper (e1, p1), Brunhild (e2, p2), a Goblin (e3, quick NPC, 4 HP) and an Orc (e4, 7 HP). */
static void fx_party(fixture *f)
{
    fx_add(f, "Vesper", "p1", 0, "vesper.json", NULL);
    fx_add(f, "Brunhild", "p2", 0, "brunhild.json", NULL);
    DICE(f, 4);
    fx_add(f, "Goblin", "gm", 1, NULL, NULL);
    DICE(f, 3, 4);
    fx_add(f, "Orc", "gm", 1, NULL, NULL);
    assert_used_up(f);
}

START_TEST(describes_actions_and_who)
{
    const rules_module *m = mod();
    ck_assert_str_eq(m->system, "fivey");
    ck_assert_int_eq(rules_module_action(m, "attack")->who, RULES_ENC_TURN);
    ck_assert_int_eq(rules_module_action(m, "move")->who, RULES_ENC_TURN);
    ck_assert_int_eq(rules_module_action(m, "end")->who, RULES_ENC_TURN);
    ck_assert_int_eq(rules_module_action(m, "initiative")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "surprise")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "morale")->who, RULES_ENC_GM);
    ck_assert_int_eq(rules_module_action(m, "spawn")->who, RULES_ENC_GM);
    for (const rules_enc_action *a = m->actions; a->name; a++)
        ck_assert_msg(a->cite && strncmp(a->cite, "004:", 4) == 0, "%s cites the rulebook",
                      a->name);
    /* the system lists exactly the modules it registers */
    const rules_system *s = rules_system_find("fivey");
    ck_assert_str_eq(s->modules[0]->id, "fivey.combat");
    size_t listed = 0, registered = 0;
    for (; s->modules[listed]; listed++)
        ck_assert_ptr_nonnull(rules_module_find(s->modules[listed]->id));
    for (size_t i = 0; rules_module_at(i); i++)
        registered += strcmp(rules_module_at(i)->system, "fivey") == 0;
    ck_assert_uint_eq(listed, registered);
}
END_TEST

/* 004:422 Shield "Destroy to negate an attack": Brunhild readies hers; Vesper's hit on her is
 * negated before any damage die, the shield is gone (stats, so the sheet) with its +1; the next
 * hit lands. Only a shield-bearer may ready one. */
START_TEST(a_readied_shield_is_destroyed_to_negate_a_hit)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    DICE(&f, 10, 11, 10);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    ck_assert_int_eq(fx_act(&f, "p1", "e1", "shield", NULL), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Vesper carries no shield");
    ck_assert_int_eq(geti(rules_enc_stats(&f.e, "e2"), "defense"), 15);
    ck_assert_int_eq(fx_act(&f, "p2", "e2", "shield", NULL), 0);
    ck_assert_str_eq(last_text(f.e.log), "Brunhild will destroy the shield to stop the next hit");
    /* d20 10 + 8 = 18 meets DC 15: a hit, negated; no damage die is asked for */
    DICE(&f, 10);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e2\"}"), 0);
    assert_used_up(&f);
    ck_assert_str_eq(last_text(f.e.log),
                     "Vesper attacks Brunhild with the Dagger: hits, but Brunhild destroys the "
                     "shield to stop it");
    ck_assert_int_eq(geti(rules_enc_stats(&f.e, "e2"), "hp/damage"), 0);
    ck_assert(json_is_false(json_object_get(rules_enc_stats(&f.e, "e2"), "shield")));
    ck_assert_int_eq(geti(rules_enc_stats(&f.e, "e2"), "defense"), 14);
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "shield_ready"));
    /* the next hit lands: d20 10 + 8 = 18 against 14; the dagger's d4 shows 3 */
    DICE(&f, 10, 3);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e2\"}"), 0);
    assert_used_up(&f);
    ck_assert_int_gt(geti(rules_enc_stats(&f.e, "e2"), "hp/damage"), 0);
    ck_assert_int_eq(fx_act(&f, "p2", "e2", "shield", NULL), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Brunhild carries no shield");
    fx_free(&f);
}
END_TEST

START_TEST(join_from_sheets_and_brackets)
{
    fixture f;
    fx_init(&f);
    ck_assert_int_eq(geti(f.enc, "budget/actions"), 2); /* 004:674 */
    fx_party(&f);
    /* Vesper: no armor, DEX 1 → DC 11; dagger skilled: CHA 4 doubled = +8, d6 + 4 (004:678) */
    json_t *v = json_object_get(comb(&f, "e1"), "stats");
    ck_assert_int_eq(geti(v, "defense"), 11);
    ck_assert_int_eq(geti(v, "dex"), 1);
    ck_assert_int_eq(geti(v, "hp/max"), 11);
    ck_assert_int_eq(geti(v, "hp/damage"), 3);
    ck_assert_int_eq(geti(v, "inspiration"), 2);
    json_t *w = json_array_get(json_object_get(v, "weapons"), 0);
    ck_assert_int_eq(geti(w, "bonus"), 8);
    ck_assert_int_eq(geti(w, "stat"), 4);
    ck_assert_str_eq(json_string_value(json_object_get(w, "die")), "1d6");
    /* Brunhild: chain 14 + shield = 15; longsword STR 3 skilled → +6 */
    json_t *b = json_object_get(comb(&f, "e2"), "stats");
    ck_assert_int_eq(geti(b, "defense"), 15);
    ck_assert_int_eq(geti(json_array_get(json_object_get(b, "weapons"), 0), "bonus"), 6);
    /* The goblin (004:759: XP 5, HD 1, DC 14, +1): a mook, 1d6 = 4 HP, stats only under /gm */
    ck_assert_ptr_null(json_object_get(comb(&f, "e3"), "stats"));
    json_t *g = hstats(&f, "e3");
    ck_assert_str_eq(json_string_value(json_object_get(g, "bracket")), "M");
    ck_assert_int_eq(geti(g, "hp/max"), 4);
    ck_assert_int_eq(geti(g, "defense"), 14);
    ck_assert_int_eq(geti(g, "ga"), 1);
    ck_assert_int_eq(geti(g, "xp"), 5);
    ck_assert_str_eq(json_string_value(json_object_get(g, "die")), "1d4");
    /* The orc (004:762: XP 10, HD 2, DC 14, +2): a grunt, 2d6 = 3 + 4 = 7, d6 damage */
    json_t *o = hstats(&f, "e4");
    ck_assert_str_eq(json_string_value(json_object_get(o, "bracket")), "G");
    ck_assert_int_eq(geti(o, "hp/max"), 7);
    ck_assert_int_eq(geti(o, "dex"), 2);
    ck_assert_str_eq(json_string_value(json_object_get(o, "die")), "1d6");
    /* the HP dice went to the GM's log only */
    ck_assert_int_eq((int)json_array_size(f.e.log), 0);
    ck_assert_int_eq((int)json_array_size(f.e.gm_log), 2);
    fx_free(&f);
}
END_TEST

/* The DEX contest against the opposing party (004:666) and a two-action turn (004:674-678). */
START_TEST(initiative_and_a_two_action_turn)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    ck_assert_int_eq(fx_act(&f, "p1", "e1", "attack", "{\"target\":\"e3\"}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "the fight has not started: the GM rolls initiative first "
                                "(004:666)");
    /* the opposition: average DEX of the goblin (1) and the orc (2) = 1; d20 10 → 11.
     * Vesper d20 11 + 1 = 12 beats it; Brunhild d20 10 + 1 = 11 ties: no win (reading 3). */
    DICE(&f, 10, 11, 10);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    assert_used_up(&f);
    ck_assert_str_eq(order_at(&f, 0), "e1");
    ck_assert_str_eq(order_at(&f, 1), "e3");
    ck_assert_str_eq(order_at(&f, 2), "e4");
    ck_assert_str_eq(order_at(&f, 3), "e2");
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert(json_is_true(json_object_get(comb(&f, "e1"), "won")));
    ck_assert_ptr_null(json_object_get(comb(&f, "e2"), "won"));
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 2);
    /* the public entry: the PCs' rolls; the opposition's bonus and total only in the GM's */
    json_t *pub = json_array_get(f.e.log, json_array_size(f.e.log) - 1);
    ck_assert_int_eq(geti(pub, "result/rolls/e1/total"), 12);
    ck_assert_ptr_null(json_object_get(json_object_get(pub, "result"), "opposition_total"));
    ck_assert_int_eq(geti(json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1),
                          "result/opposition_total"),
                     11);

    /* out of turn: Brunhild acts after the opposition */
    ck_assert_int_eq(fx_act(&f, "p2", "e2", "move", NULL), TB_RULE);
    ck_assert_str_eq(f.err.msg, "it is Vesper's turn, not Brunhild's: each acts in the "
                                "initiative order (004:666)");

    /* ◆ 1: Vesper stabs the goblin: d20 5 + 8 = 13 < DC 14, a miss */
    DICE(&f, 5);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e3\"}"), 0);
    assert_used_up(&f);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 1);
    ck_assert_str_eq(last_text(f.e.log), "Vesper attacks Goblin with the Dagger: misses");
    ck_assert_int_eq(geti(hstats(&f, "e3"), "hp/damage"), 0);
    /* the goblin's defense class stays the GM's */
    pub = json_array_get(f.e.log, json_array_size(f.e.log) - 1);
    ck_assert_ptr_null(json_object_get(json_object_get(pub, "result"), "defense"));
    ck_assert_int_eq(geti(pub, "result/total"), 13);
    /* ◆ 2: d20 6 + 8 = 14 meets DC 14; d6 1 + CHA 4 = 5 damage ≥ 4 HP: dead (004:367) */
    DICE(&f, 6, 1);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e3\"}"), 0);
    assert_used_up(&f);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 0);
    ck_assert_int_eq(geti(hstats(&f, "e3"), "hp/damage"), 5);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e3"), "out")), "dead");
    ck_assert_int_eq(geti(f.hidden, "xp"), 5);
    /* a third ◆ is refused and nothing is rolled */
    fx_no_dice(&f);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "move", NULL), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Vesper has no actions left this turn");
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e4\"}"), TB_RULE);
    /* the end of the turn: the dead goblin is skipped, the orc's turn */
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "end", NULL), 0);
    ck_assert_str_eq(rules_enc_current(&f.e), "e4");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e4", "actions"), 2);
    /* the orc attacks Brunhild: d20 12 + GA 2 = 14 < 15: a miss; the public entry hides the
     * orc's bonus and total */
    DICE(&f, 12);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "attack", "{\"target\":\"e2\"}"), 0);
    pub = json_array_get(f.e.log, json_array_size(f.e.log) - 1);
    ck_assert_ptr_null(json_object_get(json_object_get(pub, "result"), "bonus"));
    ck_assert_ptr_null(json_object_get(json_object_get(pub, "result"), "total"));
    ck_assert_int_eq(geti(pub, "result/defense"), 15);
    ck_assert_int_eq(
        geti(json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1), "result/total"), 14);
    /* d20 11 + 2 = 13 hits Vesper's DC 11; d6 6 (the bracket die, no stat: reading E3) */
    DICE(&f, 11, 6);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "attack", "{\"target\":\"e1\"}"), 0);
    ck_assert_int_eq(geti(json_object_get(comb(&f, "e1"), "stats"), "hp/damage"), 9);
    ck_assert_ptr_null(json_object_get(comb(&f, "e1"), "out"));
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "end", NULL), 0);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert_int_eq(fx_act(&f, "p2", NULL, "end", NULL), 0);
    /* a new round: the same order, Vesper first again (004:668) */
    ck_assert_int_eq(rules_enc_round(&f.e), 2);
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 2);
    ck_assert_str_eq(last_text(f.e.log), "Round 2: Vesper acts first");
    fx_free(&f);
}
END_TEST

START_TEST(natural_20_and_inspiration)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    DICE(&f, 1, 20, 20); /* both PCs win */
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    /* Vesper spends an inspiration die on the roll: d20 20 + 8 + d6 2; the natural 20 gives a
     * die back (004:373): 2 - 1 + 1 = 2; she spends one on the damage: d6 3 + 4 + d6 5 = 12 */
    DICE(&f, 20, 2, 3, 5);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack",
                            "{\"target\":\"e4\", \"insp\":1, "
                            "\"insp_dmg\":1}"),
                     0);
    assert_used_up(&f);
    json_t *pub = json_array_get(f.e.log, 0);
    for (size_t i = 0; i < json_array_size(f.e.log); i++)
        if (strcmp(json_string_value(json_object_get(json_array_get(f.e.log, i), "action")),
                   "attack") == 0)
            pub = json_array_get(f.e.log, i);
    ck_assert_int_eq(geti(pub, "result/total"), 30);
    ck_assert_int_eq(geti(pub, "result/damage"), 12);
    ck_assert_int_eq(geti(pub, "result/inspiration_gained"), 1);
    ck_assert_int_eq((int)json_array_size(json_object_get(pub, "dice")), 4);
    ck_assert_int_eq(geti(json_object_get(comb(&f, "e1"), "stats"), "inspiration"), 1);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e4"), "out")), "dead");
    /* no die left to spend on a roll: Vesper spends her last, then has none */
    DICE(&f, 2, 1);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e3\", \"insp\":1}"), 0);
    ck_assert_int_eq(geti(json_object_get(comb(&f, "e1"), "stats"), "inspiration"), 0);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "end", NULL), 0);
    /* the goblin has no inspiration dice at all */
    fx_no_dice(&f);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert_int_eq(fx_act(&f, "p2", NULL, "end", NULL), 0);
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "attack", "{\"target\":\"e1\", \"insp\":1}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "inspiration dice are the players' (004:144)");
    fx_free(&f);
}
END_TEST

/* 004:146 one die per roll: the attack and the damage take two dice. With one die in hand the
 * pair is refused before any die is rolled, whatever the d20 would have shown. (Before the fix
 * the attack was rolled and then refused, only on an ordinary hit.) A natural 20's die may pay
 * the damage at once (insp_nat20, 004:373); without a natural 20 nothing is spent on it. */
START_TEST(inspiration_for_attack_and_damage_is_checked_before_rolling)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    DICE(&f, 1, 20, 20);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    json_t *st = json_object_get(comb(&f, "e1"), "stats");
    json_object_set_new(st, "inspiration", json_integer(1));
    DICE(&f, 5, 2, 3, 5); /* an ordinary hit, if it were rolled */
    ck_assert_int_eq(
        fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e4\", \"insp\":1, \"insp_dmg\":1}"),
        TB_RULE);
    ck_assert_str_eq(f.err.msg, "Vesper has 1 inspiration die: one on the attack and one on the "
                                "damage takes two");
    ck_assert_int_eq(rules_rng_die(f.rng, 20), 5); /* the rng is untouched */
    /* a natural 20 pays the damage with the die it brings: 1 in hand, 1 spent on the roll */
    DICE(&f, 20, 2, 3, 5);
    ck_assert_int_eq(
        fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e4\", \"insp\":1, \"insp_nat20\":1}"), 0);
    assert_used_up(&f);
    ck_assert_int_eq(geti(json_object_get(comb(&f, "e1"), "stats"), "inspiration"), 0);
    fx_free(&f);
}
END_TEST

START_TEST(refusals_change_nothing_worth_keeping)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    DICE(&f, 1, 20, 20);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    fx_no_dice(&f);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e1\"}"), TB_BAD_REQUEST);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e3\", \"weapon\":1}"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack",
                            "{\"target\":\"e3\", \"adv\":1, "
                            "\"dis\":1}"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e3\", \"free\":1}"),
                     TB_FORBIDDEN);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "move", "{\"paces\":7}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Vesper moves at most 6 paces per ◆ (004:688)");
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "act", "{\"what\":\"Cast a spell\", \"cost\":3}"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 2);
    ck_assert(!rules_rng_exhausted(f.rng));
    /* a ◆◆ action takes the whole turn (004:701) */
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "act", "{\"what\":\"Cast a spell\", \"cost\":2}"), 0);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 0);
    ck_assert_str_eq(last_text(f.e.log), "Vesper: Cast a spell (2 ◆)");
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "bracket", "{\"target\":\"e1\", \"bracket\":\"M\"}"),
                     TB_RULE);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "bracket", "{\"target\":\"e3\", \"bracket\":\"Q\"}"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "morale", "{\"side\":\"party\"}"), TB_RULE);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "surprise", NULL), TB_RULE);
    fx_free(&f);
}
END_TEST

/* Surprise: each member of the surprising party against the other party's wisdom (004:645). */
START_TEST(surprise_gives_free_turns_then_initiative)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    /* the foes' wisdom: average INT 1 (goblin 1, orc 2); d20 9 → 10. Vesper 15 + 1 wins,
     * Brunhild 9 + 1 = 10 ties: no free turn. */
    DICE(&f, 9, 15, 9);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "surprise", NULL), 0);
    assert_used_up(&f);
    ck_assert_str_eq(json_string_value(json_object_get(f.enc, "phase")), "surprise");
    ck_assert_int_eq((int)json_array_size(json_object_get(f.enc, "order")), 1);
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    ck_assert_int_eq(rules_enc_round(&f.e), 0);
    ck_assert_int_eq(fx_act(&f, "p2", "e2", "move", NULL), TB_RULE);
    ck_assert_str_eq(f.err.msg, "it is Vesper's free turn from the surprise, not Brunhild's "
                                "(004:645)");
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), TB_RULE);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "move", NULL), 0);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "end", NULL), 0);
    ck_assert_ptr_null(json_object_get(f.enc, "phase"));
    ck_assert_ptr_null(rules_enc_current(&f.e));
    ck_assert_str_eq(last_text(f.e.log), "The surprise is over: regular initiative takes hold");
    /* opposition 1 + 1 = 2; Vesper 2 + 1 = 3 and Brunhild 3 + 1 = 4 both win: the higher
     * total first (reading E1) */
    DICE(&f, 1, 2, 3);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    ck_assert_int_eq(rules_enc_round(&f.e), 1);
    ck_assert_str_eq(rules_enc_current(&f.e), "e2");
    ck_assert_str_eq(order_at(&f, 1), "e1");
    fx_free(&f);
}
END_TEST

/* Morale (004:670): the leader falls, the side checks DC 14, fails, and flees. */
START_TEST(morale_after_the_leader_falls)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    DICE(&f, 2, 1, 1, 1);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "spawn",
                            "{\"name\":\"Goblin boss\", "
                            "\"bracket\":\"E\", \"dc\":16}"),
                     TB_OK);
    assert_used_up(&f);
    /* an elite: HD 4, GA 3, d8; 4d6 = 2 + 1 + 1 + 1 = 5 hit points (004:722, 004:728) */
    json_t *b = hstats(&f, "e5");
    ck_assert_int_eq(geti(b, "hp/max"), 5);
    ck_assert_str_eq(json_string_value(json_object_get(b, "bracket")), "E");
    ck_assert_int_eq(geti(b, "hd"), 4);
    ck_assert_int_eq(geti(b, "xp"), 18); /* 004:738 DC 16, E */
    ck_assert_str_eq(json_string_value(json_object_get(b, "die")), "1d8");
    fx_no_dice(&f);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "bracket",
                            "{\"target\":\"e5\", \"bracket\":\"elite\", "
                            "\"dc\":16, \"hp\":6}"),
                     0);
    assert_used_up(&f);
    ck_assert_int_eq(geti(hstats(&f, "e5"), "hp/max"), 6);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "leader", "{\"target\":\"e5\"}"), 0);
    ck_assert(json_is_true(json_object_get(comb(&f, "e5"), "leader")));
    DICE(&f, 1, 20, 20);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    /* Vesper: d20 10 + 8 = 18 ≥ 16; d6 2 + 4 = 6 ≥ 6: the boss is dead, morale due */
    DICE(&f, 10, 2);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "attack", "{\"target\":\"e5\"}"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e5"), "out")), "dead");
    ck_assert(json_is_true(
        json_object_get(json_object_get(json_object_get(f.enc, "morale"), "foes"), "due")));
    ck_assert_str_eq(last_text(f.e.log), "The foes must check morale: their leader is defeated");
    /* the collective check: average INT of those standing (goblin 1, orc 2) = 1; d20 12 + 1 =
     * 13 < 14 (moderate): they flee */
    DICE(&f, 12);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "morale", NULL), 0);
    assert_used_up(&f);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e3"), "out")), "fled");
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e4"), "out")), "fled");
    ck_assert_int_eq(geti(f.enc, "morale/foes/checks"), 1);
    ck_assert(json_is_false(
        json_object_get(json_object_get(json_object_get(f.enc, "morale"), "foes"), "due")));
    ck_assert_str_eq(last_text(f.e.log), "The foes check morale: they break and flee");
    fx_free(&f);
}
END_TEST

/* Dwindling numbers (half the side out) call a check; the second is difficult (DC 16). */
START_TEST(morale_when_numbers_dwindle)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "harm", "{\"target\":\"e3\", \"amount\":4}"), 0);
    ck_assert_str_eq(last_text(f.e.log), "The foes must check morale: their numbers dwindle");
    DICE(&f, 13); /* 13 + INT 2 = 15 ≥ 14: they hold */
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "morale", NULL), 0);
    ck_assert_ptr_null(json_object_get(comb(&f, "e4"), "out"));
    ck_assert_int_eq(geti(json_array_get(f.e.gm_log, json_array_size(f.e.gm_log) - 1), "result/dc"),
                     14);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "morale", NULL), TB_BAD_REQUEST);
    DICE(&f, 13); /* asked again: DC 16, 15 fails */
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "morale", "{\"side\":\"foes\"}"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e4"), "out")), "fled");
    /* healing by hand brings the goblin back */
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "harm", "{\"target\":\"e3\", \"amount\":-2}"), 0);
    ck_assert_ptr_null(json_object_get(comb(&f, "e3"), "out"));
    ck_assert_int_eq(geti(hstats(&f, "e3"), "hp/damage"), 2);
    fx_free(&f);
}
END_TEST

START_TEST(spawn_by_example_monster_and_late_joiners)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    DICE(&f, 1, 20, 20);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    /* a bear (004:748: XP 12, HD 4, DC 12, +3) joins the fight: at the end of the order */
    DICE(&f, 6, 5, 4, 3);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "spawn",
                            "{\"name\":\"Old Grizzle\", "
                            "\"monster\":\"bear\"}"),
                     0);
    assert_used_up(&f);
    json_t *s = hstats(&f, "e5");
    ck_assert_int_eq(geti(s, "hp/max"), 18);
    ck_assert_int_eq(geti(s, "defense"), 12);
    ck_assert_int_eq(geti(s, "xp"), 12);
    ck_assert_int_eq(geti(s, "ga"), 3);
    ck_assert_str_eq(order_at(&f, 4), "e5");
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e5"), "side")), "foes");
    ck_assert(json_is_true(json_object_get(comb(&f, "e5"), "npc")));
    ck_assert_ptr_null(json_object_get(comb(&f, "e5"), "stats"));
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "spawn", "{\"name\":\"X\", \"monster\":\"Kraken\"}"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "spawn", "{\"name\":\"X\"}"), TB_BAD_REQUEST);
    /* "Hobgoblin" is not taken for a "Goblin" */
    DICE(&f, 3, 3);
    fx_add(&f, "Hobgoblin", "gm", 1, NULL, NULL);
    ck_assert_int_eq(geti(hstats(&f, "e6"), "xp"), 10);
    ck_assert_str_eq(order_at(&f, 5), "e6");
    fx_free(&f);
}
END_TEST

/* The party's fight under way: the opposition's 1 + 1 loses to Vesper's and Brunhild's 20s, so
 * Vesper (e1) has the turn with both ◆, then Brunhild (e2). */
static void fx_fight(fixture *f)
{
    fx_init(f);
    fx_party(f);
    DICE(f, 1, 20, 20);
    ck_assert_int_eq(fx_act(f, "gm", NULL, "initiative", NULL), 0);
}

/* Vesper carries Lightning Bolt (004:501): ◆◆ and one of her two casts; [L]d6 = 1d6 to each
 * target, halved for a save of d20 + DEX against her 10 + INT = 11 (reading 13). The goblin
 * (GA 1) rolls 3: 4 fails and takes 5, dead at 4 HP; the orc (GA 2) rolls 9: 11 saves, takes 2.
 * The table sees who saves and the damage; the saves' dice and bonuses are the GM's. */
START_TEST(lightning_bolt_halves_the_damage_for_a_save)
{
    fixture f;
    fx_fight(&f);
    DICE(&f, 5, 3, 9);
    ck_assert_int_eq(
        fx_act(&f, "p1", NULL, "cast",
               "{\"spell\":\"Lightning Bolt\", \"target\":\"e3\", \"target2\":\"e4\"}"),
        0);
    assert_used_up(&f);
    json_t *st = json_object_get(comb(&f, "e1"), "stats");
    ck_assert_int_eq(geti(st, "spell_slots/used"), 1);
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 0);
    ck_assert_int_eq(geti(hstats(&f, "e3"), "hp/damage"), 5);
    ck_assert_str_eq(json_string_value(json_object_get(comb(&f, "e3"), "out")), "dead");
    ck_assert_int_eq(geti(hstats(&f, "e4"), "hp/damage"), 2);
    json_t *x = ru_last_entry(f.e.log, "cast");
    ck_assert_str_eq(json_string_value(json_object_get(x, "text")),
                     "Vesper casts Lightning Bolt: 5 damage — Goblin fails to save and takes 5; "
                     "Orc saves and takes 2");
    ck_assert_int_eq((int)json_array_size(json_object_get(x, "dice")), 1); /* the damage die */
    json_t *r = json_object_get(x, "result");
    ck_assert_int_eq(geti(r, "dc"), 11);
    ck_assert_int_eq(geti(r, "casts_left"), 1);
    ck_assert_ptr_null(json_object_get(r, "save_e4"));
    json_t *t2 = json_array_get(json_object_get(r, "targets"), 1);
    ck_assert(json_is_true(json_object_get(t2, "saved")));
    ck_assert_int_eq(geti(t2, "damage"), 2);
    json_t *g = ru_last_entry(f.e.gm_log, "cast");
    ck_assert_int_eq(geti(json_object_get(g, "result"), "save_e4/bonus"), 2);
    ck_assert_int_eq((int)json_array_size(json_object_get(g, "dice")), 3);
    ck_assert_ptr_nonnull(
        strstr(json_string_value(json_object_get(g, "text")), "Orc saves (9 + 2 = 11 vs DC 11)"));
    fx_free(&f);
}
END_TEST

/* Every refusal of `cast` comes before any die and changes nothing: not the caster's turn, a
 * spell the book does not know, one the sheet does not carry, no target for a bolt, Charm on two,
 * a target out of the fight, one ◆ left, no casts left. */
START_TEST(cast_refusals_draw_no_die_and_change_nothing)
{
    fixture f;
    fx_fight(&f);
    rules_enc_set_out(&f.e, "e3", "fled");
    json_t *enc0 = json_deep_copy(f.enc), *hid0 = json_deep_copy(f.hidden);
    fx_no_dice(&f);
    /* (Brunhild's player asks for the first: a seat acts for its own character only) */
    static const struct {
        const char *actor, *params;
        int code;
        const char *msg;
    } cases[] = {
        {"e2", "{\"spell\":\"Lightning Bolt\", \"target\":\"e4\"}", TB_RULE,
         "it is Vesper's turn, not Brunhild's: each acts in the initiative order (004:666)"},
        {"e1", "{\"spell\":\"Magic Missile\", \"target\":\"e4\"}", TB_BAD_REQUEST,
         "enc.act cast: there is no spell called 'Magic Missile' (004:487-505)"},
        {"e1", "{\"spell\":\"Charm\", \"target\":\"e4\"}", TB_RULE,
         "Vesper does not carry the spell Charm (004:483)"},
        {"e1", "{\"spell\":\"Lightning Bolt\"}", TB_BAD_REQUEST,
         "enc.act cast: Lightning Bolt needs a target"},
        {"e1", "{\"spell\":\"Lightning Bolt\", \"target\":\"e4\", \"target2\":\"e4\"}",
         TB_BAD_REQUEST, "enc.act cast: Orc is named twice"},
        {"e1", "{\"spell\":\"Lightning Bolt\", \"target\":\"e3\"}", TB_RULE,
         "Goblin is out of the fight"},
    };
    for (size_t i = 0; i < N_ELEMS(cases); i++) {
        ck_assert_int_eq(fx_act(&f, i == 0 ? "p2" : "p1", cases[i].actor, "cast", cases[i].params),
                         cases[i].code);
        ck_assert_str_eq(f.err.msg, cases[i].msg);
    }
    ck_assert(!rules_rng_exhausted(f.rng));
    ck_assert(json_equal(f.enc, enc0));
    ck_assert(json_equal(f.hidden, hid0));
    /* one ◆ left after a move: the spell takes two (004:701) */
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "move", "{\"paces\":2}"), 0);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "cast", "{\"spell\":\"Turn Undead\"}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Vesper has 1 actions left this turn, not 2");
    /* no casts left until a rest (reading 12) */
    rules_enc_budget_reset(&f.e, "e1");
    rules_enc_stat_put(&f.e, "e1", "spell_slots/used", json_integer(2));
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "cast", "{\"spell\":\"Turn Undead\"}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Vesper has no spell casts left until a rest");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 2);
    ck_assert(!rules_rng_exhausted(f.rng));
    json_decref(enc0);
    json_decref(hid0);
    fx_free(&f);
}
END_TEST

/* Charm (004:489): d20 + INT against the virtual armor class 10 + CHA (004:680); charmed for
 * [L]d6 hours. Sylla's 11 + 1 meets the orc's 10 + 2; then, out of casts, she is refused. Turn
 * Undead (004:505): [L]d6 hit dice worth, the GM picks which undead. */
START_TEST(charm_against_charisma_and_turn_undead)
{
    fixture f;
    fx_init(&f);
    fx_party(&f);
    fx_add(&f, "Sylla", "p3", 0, "sylla.json", NULL);
    DICE(&f, 1, 20, 1, 20); /* the opposition 1 + 1; Sylla 22 first, then Vesper 21 */
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "initiative", NULL), 0);
    ck_assert_str_eq(rules_enc_current(&f.e), "e5");
    DICE(&f, 11, 4);
    ck_assert_int_eq(fx_act(&f, "p3", NULL, "cast", "{\"spell\":\"Charm\", \"target\":\"e4\"}"), 0);
    assert_used_up(&f);
    json_t *c = rules_enc_cond(&f.e, "e4", "charmed");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(geti(c, "hours"), 4);
    ck_assert_str_eq(json_string_value(json_object_get(c, "by")), "e5");
    json_t *x = ru_last_entry(f.e.log, "cast");
    ck_assert_str_eq(json_string_value(json_object_get(x, "text")),
                     "Sylla casts Charm on Orc: charmed, friendly for 4 hours");
    ck_assert_ptr_null(json_object_get(json_object_get(x, "result"), "against"));
    ck_assert_int_eq(geti(json_object_get(ru_last_entry(f.e.gm_log, "cast"), "result"), "against"),
                     12);
    ck_assert_int_eq(geti(rules_enc_stats(&f.e, "e5"), "spell_slots/used"), 1);
    ck_assert_int_eq(fx_act(&f, "p3", NULL, "end", NULL), 0);
    /* Vesper's turn: Turn Undead, 1d6 = 3 hit dice */
    ck_assert_str_eq(rules_enc_current(&f.e), "e1");
    DICE(&f, 3);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "cast", "{\"spell\":\"Turn Undead\"}"), 0);
    assert_used_up(&f);
    ck_assert_str_eq(last_text(f.e.log),
                     "Vesper casts Turn Undead: up to 3 hit dice worth of "
                     "undead turn away and freeze, each skipping its next turn");
    fx_free(&f);
}
END_TEST

/* 004:424 donning or doffing "in a jiffy": 2 ◆ and DEX against the armor's defense class.
 * Brunhild (DEX 1) doffs her chain with 13 + 1 = 14: defense 10 + 1 + shield 1 = 12; Vesper's
 * 5 + 1 against leather's 12 fails: the ◆ are gone and she is still unarmored. */
START_TEST(armor_on_and_off_in_a_jiffy)
{
    fixture f;
    fx_fight(&f);
    json_t *enc0 = json_deep_copy(f.enc), *hid0 = json_deep_copy(f.hidden);
    fx_no_dice(&f);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "armor", "{\"doff\":1}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Vesper wears no armor to take off");
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "armor", "{\"don\":\"mithril\"}"), TB_BAD_REQUEST);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "armor", "{\"don\":\"plate\", \"doff\":1}"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "armor", NULL), TB_BAD_REQUEST);
    ck_assert(!rules_rng_exhausted(f.rng));
    ck_assert(json_equal(f.enc, enc0));
    ck_assert(json_equal(f.hidden, hid0));
    json_decref(enc0);
    json_decref(hid0);
    DICE(&f, 5);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "armor", "{\"don\":\"leather\"}"), 0);
    assert_used_up(&f);
    ck_assert_str_eq(last_text(f.e.log), "Vesper hurries to put on the leather armor (6 vs DC "
                                         "12): it will not come on yet");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e1", "actions"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(rules_enc_stats(&f.e, "e1"), "armor")),
                     "none");
    ck_assert_int_eq(geti(rules_enc_stats(&f.e, "e1"), "defense"), 11);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "end", NULL), 0);
    fx_no_dice(&f);
    ck_assert_int_eq(fx_act(&f, "p2", NULL, "armor", "{\"don\":\"plate\"}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Brunhild wears chain armor: take it off first");
    DICE(&f, 13);
    ck_assert_int_eq(fx_act(&f, "p2", NULL, "armor", "{\"doff\":1}"), 0);
    assert_used_up(&f);
    json_t *st = rules_enc_stats(&f.e, "e2");
    ck_assert_str_eq(json_string_value(json_object_get(st, "armor")), "none");
    ck_assert_int_eq(geti(st, "defense"), 12);
    ck_assert_int_eq(geti(st, "move"), 6);
    ck_assert_str_eq(last_text(f.e.log),
                     "Brunhild hurries to take off the chain armor (14 vs DC 14): done");
    /* a monster's defense class is its own (004:426): the goblin has no armor to don */
    ck_assert_int_eq(fx_act(&f, "p2", NULL, "end", NULL), 0);
    ck_assert_str_eq(rules_enc_current(&f.e), "e3");
    fx_no_dice(&f);
    ck_assert_int_eq(fx_act(&f, "gm", NULL, "armor", "{\"don\":\"leather\"}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Goblin is a monster: its defense class is its own (004:426)");
    ck_assert_int_eq(rules_enc_budget_left(&f.e, "e3", "actions"), 2);
    ck_assert(!rules_rng_exhausted(f.rng));
    fx_free(&f);
}
END_TEST

/* 004:381 climbing, crawling, swimming cost twice; 004:690 jumping too: 3 paces a ◆ of a move
 * rating of 6. Swimming in chain is DEX against 14, 1d6 drowning damage on a failure (004:424);
 * unarmored, no check. */
START_TEST(climbing_swimming_and_jumping_cost_twice)
{
    fixture f;
    fx_fight(&f);
    json_t *enc0 = json_deep_copy(f.enc), *hid0 = json_deep_copy(f.hidden);
    fx_no_dice(&f);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "move", "{\"paces\":4, \"how\":\"climb\"}"), TB_RULE);
    ck_assert_str_eq(f.err.msg, "Vesper moves at most 3 paces per ◆ this way: it costs twice as "
                                "much (004:381, 004:690)");
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "move", "{\"how\":\"fly\"}"), TB_BAD_REQUEST);
    ck_assert(json_equal(f.enc, enc0));
    ck_assert(json_equal(f.hidden, hid0));
    json_decref(enc0);
    json_decref(hid0);
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "move", "{\"how\":\"jump\"}"), 0);
    ck_assert_str_eq(last_text(f.e.log), "Vesper moves 3 paces (jump)");
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "move", "{\"how\":\"swim\", \"paces\":2}"), 0);
    ck_assert(!rules_rng_exhausted(f.rng)); /* unarmored: no check */
    ck_assert_int_eq(fx_act(&f, "p1", NULL, "end", NULL), 0);
    DICE(&f, 5, 4);
    ck_assert_int_eq(fx_act(&f, "p2", NULL, "move", "{\"how\":\"swim\"}"), 0);
    assert_used_up(&f);
    ck_assert_str_eq(last_text(f.e.log),
                     "Brunhild swims 3 paces in chain armor (6 vs DC 14), goes under and takes 4 "
                     "drowning damage");
    ck_assert_int_eq(geti(rules_enc_stats(&f.e, "e2"), "hp/damage"), 4);
    DICE(&f, 13);
    ck_assert_int_eq(fx_act(&f, "p2", NULL, "move", "{\"how\":\"swim\"}"), 0);
    assert_used_up(&f);
    ck_assert_int_eq(geti(rules_enc_stats(&f.e, "e2"), "hp/damage"), 4);
    fx_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("enc_fivey");
    TCase *tc = tcase_create("module");
    tcase_add_test(tc, describes_actions_and_who);
    tcase_add_test(tc, join_from_sheets_and_brackets);
    tcase_add_test(tc, a_readied_shield_is_destroyed_to_negate_a_hit);
    tcase_add_test(tc, initiative_and_a_two_action_turn);
    tcase_add_test(tc, natural_20_and_inspiration);
    tcase_add_test(tc, inspiration_for_attack_and_damage_is_checked_before_rolling);
    tcase_add_test(tc, refusals_change_nothing_worth_keeping);
    tcase_add_test(tc, surprise_gives_free_turns_then_initiative);
    tcase_add_test(tc, morale_after_the_leader_falls);
    tcase_add_test(tc, morale_when_numbers_dwindle);
    tcase_add_test(tc, spawn_by_example_monster_and_late_joiners);
    tcase_add_test(tc, lightning_bolt_halves_the_damage_for_a_save);
    tcase_add_test(tc, cast_refusals_draw_no_die_and_change_nothing);
    tcase_add_test(tc, charm_against_charisma_and_turn_undead);
    tcase_add_test(tc, armor_on_and_off_in_a_jiffy);
    tcase_add_test(tc, climbing_swimming_and_jumping_cost_twice);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
