/*
 * rounds.c — the rounds of a GRIMWIRE conflict (rulebook 002_c1f3df0ad7b1e31f.txt, cited
 * 002:LINE): PER initiative with ties to the PCs' enemies (002:401-403), kept in /enc/initiative
 * and restored at every new round (002:417, 002:421); the beginning of a turn (dying, burning,
 * bleeding, terror, drowning, a lasting area: 002:256, 002:727-735, 002:838-854) and its end
 * (timed conditions, the next one who can act). Calls fight.c (grimwire_enc.h).
 */
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "grimwire_enc.h"

/* ---- initiative and the order ---- */

int gw_init_of(const rules_enc *e, const char *cid)
{
    json_t *holder = gw_npc(e, cid) ? gw_hidden_get(e, cid) : gw_comb(e, cid);
    return gw_geti(holder, "init", 0);
}

/* Enemies of the player characters: a side no PC stands on (002:403 "enemies are prioritized"). */
static int enemy(const rules_enc *e, const char *cid)
{
    const char *side = rules_enc_side(e, cid), *o;
    for (size_t i = 0; (o = rules_enc_cid_at(e, i)); i++)
        if (!gw_npc(e, o) && strcmp(rules_enc_side(e, o), side) == 0)
            return 0;
    return 1;
}

/* Rolls cid's initiative, d20 + PER + modifiers (002:159, 002:401); PCs in public, the GM's rolls
 * for NPCs in the GM's log (002:401 "the GM rolls for the other NPC participants"). */
static int roll_init(rules_enc *e, const char *cid)
{
    json_t *dice = json_array();
    grimwire_roll r = gw_roll_attr(e, cid, "per", GRIMWIRE_USE_PLAIN, 0, 0, 0, 0, dice);
    int total = gw_auto_fails(e, cid, "per") ? -100 : r.total; /* a stunned PER roll fails */
    json_object_set_new(gw_npc(e, cid) ? rules_enc_hidden_of(e, cid) : gw_comb(e, cid), "init",
                        json_integer(total));
    rules_aud aud = rules_enc_aud_of(e, cid); /* an NPC's initiative is the GM's */
    rules_log *x = rules_log_begin(e, "initiative", "initiative");
    rules_log_json(x, "target", json_string(cid), aud);
    rules_log_int(x, "natural", r.natural, aud);
    rules_log_int(x, "attr", r.attr, aud);
    rules_log_int(x, "mod", r.mod, aud);
    rules_log_int(x, "total", total, aud);
    rules_log_who(x, "who", cid);
    rules_log_dice(x, dice, aud);
    json_decref(dice);
    rules_log_end(x);
    return total;
}

static int rank_cmp(const rules_enc *e, const char *a, const char *b)
{
    int ia = gw_init_of(e, a), ib = gw_init_of(e, b);
    if (ia != ib)
        return ia > ib ? -1 : 1;
    int ea = enemy(e, a), eb = enemy(e, b);
    return ea != eb ? (ea ? -1 : 1) : 0;
}

static json_t *order(const rules_enc *e)
{
    return json_object_get(e->enc, "order");
}

int gw_turn(const rules_enc *e)
{
    return gw_geti(e->enc, "turn", -1);
}

void gw_turn_set(rules_enc *e, int t)
{
    json_object_set_new(e->enc, "turn", json_integer(t));
}

int gw_base_index(const rules_enc *e, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(e->enc, "initiative"), i, v)
    {
        if (rules_enc_streq(json_string_value(v), cid))
            return (int)i;
    }
    return -1;
}

/*
 * Initiative (002:401-403). With `surprise` (a side): 002:521-523 that side's characters take
 * one turn before the initiative order, round 1 (all of them in their initiative order; on
 * `alert` only the first, whose attack comes before initiative); their first attack gets +5 (+2
 * on alert) through /enc/surprise; from round 2 on the initiative order (reading G18).
 */
void gw_roll_order(rules_enc *e, const char *side, int alert)
{
    const char *cid;
    int n = 0;
    while (rules_enc_cid_at(e, (size_t)n))
        n++;
    rules_rank *r = calloc((size_t)n, sizeof *r);
    if (!r)
        abort();
    for (int i = 0; (cid = rules_enc_cid_at(e, (size_t)i)); i++) {
        r[i].id = cid;
        r[i].key[0] = roll_init(e, cid);
    }
    for (int i = 0; i < n; i++)
        r[i].key[1] = enemy(e, r[i].id); /* 002:403 ties: enemies first */
    rules_enc_order_set(e, r, n);
    free(r);
    json_object_set_new(e->enc, "initiative", json_deep_copy(order(e)));
    rules_log *x = rules_log_begin(e, "order", "order");
    rules_log_json(x, "order", json_deep_copy(order(e)), RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (!side)
        return;
    json_t *only = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(order(e), i, v)
    {
        const char *c = json_string_value(v);
        if (rules_enc_streq(rules_enc_side(e, c), side) && !rules_enc_is_out(e, c) &&
            !(alert && json_array_size(only)))
            json_array_append(only, v);
    }
    json_object_set_new(e->enc, "order", only);
    json_object_set_new(e->enc, "surprise",
                        json_pack("{s:s, s:i}", "side", side, "bonus", alert ? 2 : 5));
    x = rules_log_begin(e, "surprise", "surprise");
    gw_log_res(x, json_pack("{s:s, s:b}", "side", side, "alert", alert), RULES_AUD_PUBLIC);
    rules_log_word(x, "how", alert ? "surprise.alert" : "surprise.all", RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* Inserts cid into the base order and the running order at its rank (a combatant joining a
 * running conflict); the one whose turn it is keeps it. */
void gw_join_order(rules_enc *e, const char *cid)
{
    roll_init(e, cid);
    json_t *base = json_object_get(e->enc, "initiative");
    size_t i = 0;
    while (i < json_array_size(base) &&
           rank_cmp(e, json_string_value(json_array_get(base, i)), cid) <= 0)
        i++;
    json_array_insert_new(base, i, json_string(cid));
    json_t *ord = order(e);
    int t = gw_turn(e);
    i = 0;
    while (i < json_array_size(ord) &&
           rank_cmp(e, json_string_value(json_array_get(ord, i)), cid) <= 0)
        i++;
    if ((int)i <= t)
        i = (size_t)t + 1; /* after the current turn: its place this round has gone by */
    json_array_insert_new(ord, i, json_string(cid));
}

/* ---- turns ---- */

/* What cid's budget holds this turn, after the per-turn reset: an action or aux already spent on
 * a reaction (002:437-439), stun and paralysis (002:824, 002:828), terror's cowering (002:854). */
void gw_budget_adjust(rules_enc *e, const char *cid)
{
    int r = rules_enc_round(e);
    if (gw_spent(e, cid, "action") >= r)
        rules_enc_budget_set(e, cid, "action", 0);
    if (gw_spent(e, cid, "aux") >= r)
        rules_enc_budget_set(e, cid, "aux", 0);
    if (gw_has(e, cid, "stun") || gw_has(e, cid, "paralysis")) {
        rules_enc_budget_set(e, cid, "action", 0);
        rules_enc_budget_set(e, cid, "move", 0);
    }
    if (gw_geti(gw_comb(e, cid), "cower", 0) == r)
        rules_enc_budget_set(e, cid, "action", 0);
}

/* 002:735 a drowning character rolls MND 11 each round to stay conscious; one who is
 * unconscious (or otherwise out cold) under water takes 6 damage a round. */
static void drowning_turn(rules_enc *e, const char *cid)
{
    if (!gw_has(e, cid, "drowning"))
        return;
    if (gw_incapacity(e, cid)) {
        rules_log *x = rules_log_begin(e, "drowning", "drowning_out");
        gw_log_res(x, json_pack("{s:s, s:i}", "target", cid, "rolled", 6), RULES_AUD_PUBLIC);
        rules_log_who(x, "who", cid);
        rules_log_end(x);
        gw_take_damage(e, cid, 6, NULL, (gw_source){"src.drowning", NULL, NULL}, 0);
        return;
    }
    json_t *dice = json_array();
    grimwire_roll m =
        gw_roll_attr(e, cid, "mnd", GRIMWIRE_USE_PLAIN, 0, GRIMWIRE_COLLATERAL_TN, 0, 0, dice);
    rules_log *x = rules_log_begin(e, "drowning", "drowning");
    gw_log_roll(x, &m, gw_npc(e, cid), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_word(x, "outcome", m.success ? "w.stays_conscious" : "w.falls_unconscious",
                   RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
    if (!m.success) {
        rules_enc_cond_add(e, cid, "unconscious", 0, 0);
        gw_grapples_end(e, cid, "end.falls");
    }
}

/* 002:727 a character caught in a persistent area (molotov fire, condition `area` {damage,
 * type}) avoids its damage a second time only by moving out at the very start of the turn: the
 * turn waits for `leave` or `stay` (area_due); one who cannot move takes it at once. */
static void area_turn(rules_enc *e, const char *cid)
{
    if (!gw_has(e, cid, "area"))
        return;
    if (gw_incapacity(e, cid) || gw_has(e, cid, "stun") || gw_has(e, cid, "paralysis"))
        gw_area_hurts(e, cid);
    else
        json_object_set_new(gw_comb(e, cid), "area_due", json_integer(rules_enc_round(e)));
}

/* 002:854 a terrified character rolls MND against the terror (its hidden `terror_tn`, 11 when
 * unset) at the start of its turn: mastered, or only cowering or fleeing this turn. */
static void terror_turn(rules_enc *e, const char *cid)
{
    int tn = gw_geti(rules_enc_hidden_of(e, cid), "terror_tn", GRIMWIRE_COLLATERAL_TN);
    json_t *dice = json_array();
    grimwire_roll t = gw_roll_attr(e, cid, "mnd", GRIMWIRE_USE_PAIN_TERROR, 0, tn, 0, 0, dice);
    rules_log *g = rules_log_begin(e, "terror", "terror_tn");
    rules_log_json(g, "target", json_string(cid), RULES_AUD_GM);
    rules_log_int(g, "total", t.total, RULES_AUD_GM);
    rules_log_int(g, "tn", tn, RULES_AUD_GM);
    rules_log_who(g, "who", cid);
    rules_log_end(g);
    if (t.success)
        rules_enc_cond_remove(e, cid, "terror");
    else
        json_object_set_new(gw_comb(e, cid), "cower", json_integer(rules_enc_round(e)));
    rules_log *x = rules_log_begin(e, "terror", t.success ? "terror_mastered" : "terror_cower");
    gw_log_roll(x, &t, gw_npc(e, cid), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
}

/* The effects at the first beginning of cid's turn in a round (002:256, 002:838-854). */
static void turn_effects(rules_enc *e, const char *cid)
{
    if (gw_dying(e, cid)) {
        gw_cond_set(e, cid, gw_cond_cur(e, cid) - 1);
        gw_log_who(e, "dying", "dying_tick", cid);
        if (gw_npc(e, cid)) {
            rules_log *x = rules_log_begin(e, "dying", "condition_now");
            rules_log_who(x, "who", cid);
            rules_log_int(x, "condition", gw_cond_cur(e, cid), RULES_AUD_GM);
            rules_log_end(x);
        }
        gw_check_dying(e, cid);
        return;
    }
    if (gw_has(e, cid, "burning")) {
        json_t *dice = json_array();
        int d = rules_roll_die(e->rng, 6, dice) + rules_roll_die(e->rng, 6, dice);
        gw_log_rolled(e, "burning", "burning", cid, d, dice);
        gw_take_damage(e, cid, d, "heat", (gw_source){"src.burning", NULL, NULL}, 0);
    }
    if (gw_has(e, cid, "bleeding") && !gw_incapacity(e, cid)) {
        json_t *b = rules_enc_cond(e, cid, "bleeding");
        int d = gw_geti(b, "level", 1);
        gw_log_rolled(e, "bleeding", "bleeding", cid, d, NULL);
        gw_take_damage(e, cid, d < 1 ? 1 : d, NULL, (gw_source){"src.bleeding", NULL, NULL}, 0);
    }
    if (gw_has(e, cid, "terror") && !gw_incapacity(e, cid))
        terror_turn(e, cid);
}

/*
 * The beginning of cid's turn (its effects once per round, not again on a turn taken later after
 * passing): dying loses 1 Condition (002:256), burning takes 2d6 (002:838), bleeding its level
 * (002:842), terror asks for a MND roll (002:854). Returns 1 when cid may take the turn, 0 when
 * it cannot do anything (dying, out cold, ...) and the turn passes at once.
 */
int gw_turn_begins(rules_enc *e, const char *cid)
{
    json_t *c = gw_comb(e, cid);
    int r = rules_enc_round(e);
    json_object_del(c, "used");
    gw_attacks_reset(e, cid);
    int first = gw_geti(c, "tick", 0) != r;
    if (first) {
        json_object_set_new(c, "tick", json_integer(r));
        turn_effects(e, cid);
    }
    if (first && !rules_enc_is_out(e, cid)) {
        drowning_turn(e, cid);
        area_turn(e, cid);
    }
    gw_budget_adjust(e, cid);
    const char *why = gw_incapacity(e, cid);
    if (why) {
        rules_log *x = rules_log_begin(e, "skip", "skip");
        gw_log_res(x, json_pack("{s:s, s:s}", "target", cid, "why", why), RULES_AUD_PUBLIC);
        rules_log_who(x, "who", cid);
        rules_log_name(x, "state", why, RULES_AUD_PUBLIC);
        rules_log_end(x);
        return 0;
    }
    return 1;
}

int gw_more_this_round(const rules_enc *e)
{
    json_t *ord = order(e);
    for (size_t i = (size_t)(gw_turn(e) + 1); i < json_array_size(ord); i++)
        if (!rules_enc_is_out(e, json_string_value(json_array_get(ord, i))))
            return 1;
    return 0;
}

/* The round is over: the order goes back to the initiative order (002:417, 002:421 "In the next
 * round, players return to their original place"), minus those removed from the encounter. */
static void restore_order(rules_enc *e)
{
    json_t *fresh = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(e->enc, "initiative"), i, v)
    {
        if (gw_comb(e, json_string_value(v)))
            json_array_append(fresh, v);
    }
    json_array_foreach(order(e), i, v)
    {
        if (gw_base_index(e, json_string_value(v)) < 0)
            json_array_append(fresh, v);
    }
    json_object_set_new(e->enc, "initiative", json_deep_copy(fresh));
    json_object_set_new(e->enc, "order", fresh);
    gw_turn_set(e, (int)json_array_size(fresh) - 1);
}

static void round_begins(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        json_object_del(gw_comb(e, cid), "waiting");
    rules_log *x = rules_log_begin(e, "round", "round");
    rules_log_int(x, "round", rules_enc_round(e), RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* The first round begins (after gw_roll_order): its first turn, or the next one who can act. */
void gw_first_round(rules_enc *e)
{
    rules_enc_begin_round(e);
    round_begins(e);
    const char *first = rules_enc_current(e);
    if (first && !gw_turn_begins(e, first))
        gw_next_turn(e, first, 1);
}

/*
 * Ends the turn of `ending` (its timed conditions count down when `tick_it`) and gives the turn to
 * the next one who may take it; a new round starts in the initiative order. Those who cannot do
 * anything pass at once, at most one round of them per call.
 */
void gw_next_turn(rules_enc *e, const char *ending, int tick_it)
{
    if (ending && tick_it)
        gw_tick(e, ending);
    int n = (int)json_array_size(order(e));
    for (int guard = 0; guard <= n; guard++) {
        if (!gw_more_this_round(e))
            restore_order(e);
        int r = rules_enc_advance(e);
        if (r < 0) {
            rules_log_end(rules_log_begin(e, "idle", "idle"));
            return;
        }
        if (r == 1)
            round_begins(e);
        const char *cid = rules_enc_current(e);
        if (gw_turn_begins(e, cid))
            return;
        gw_tick(e, cid);
    }
}
