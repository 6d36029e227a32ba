/*
 * enc_grimwire.c — grimwire.conflict, GRIMWIRE's conflict rounds (rulebook
 * 002_c1f3df0ad7b1e31f.txt, cited 002:LINE) on the shared machinery of rules/encounter.h.
 *
 *   order     PER initiative (d20 + PER + roll modifiers), ties to the PCs' enemies (002:401-403);
 *             kept in /enc/initiative, restored at every new round (002:417, 002:421)
 *   turns     a 6-second round (002:415); each turn a budget {action, move, aux} (002:407-411);
 *             light weapons give extra attacks by COR (budget `attacks`, 002:567-579)
 *   passing   the turn goes to the end of the round, waiting ones in initiative order (002:421)
 *   reactions spend this round's action, or next round's once this one is spent (002:435-447);
 *             combatant `spent` {action, aux} = the last round whose action/aux is used up
 *   attacks   COR vs the target's hidden target number (PC or NPC against an NPC), the PC's AGL to
 *             evade an NPC's attack, or COR vs AGL between PCs (002:531-545, 002:767-769); damage
 *             with TOG, doubled on a natural 20, weak/resistant/immune types, armor never below 1
 *             (002:59, 002:563, 002:693, 002:749); a natural 1 leaves the attack pending until the
 *             GM names who may be hit: AGL 11 (minus the attacker's COR to spare them)
 * (002:553-559) condition ≤ 0 dying: −1 each turn, out cold, hit automatically, dead below −10
 * (002:256); burnout levels with their penalties (002:224-250) status    stun, paralysis, knocked
 * down, terror, grappled, bleeding, burning, out cold... as shared conditions (also written to the
 * sheet's `status`) that change the budget and what a character may do (002:779-878) Secrets
 * (/gm/enc): NPC stats, every target number (`tn` to hit a combatant, `attack_tn` to evade an NPC's
 * attacks, `terror_tn`), NPC initiative totals, a pending natural 1's damage. Readings of unclear
 * passages: rules/RULES.md, "Encounters (module grimwire.conflict)".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dice.h"
#include "encounter.h"
#include "grimwire.h"

#define CAUSE_MAX 160

/* ---- stats ---- */

static json_t *obj(json_t *parent, const char *key)
{
    json_t *o = json_object_get(parent, key);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(parent, key, o);
    }
    return o;
}

static int geti(const json_t *o, const char *key, int def)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

static int attr(rules_enc *e, const char *cid, const char *name)
{
    return geti(json_object_get(rules_enc_stats(e, cid), "attributes"), name, 0);
}

static int cond_cur(rules_enc *e, const char *cid)
{
    return geti(json_object_get(rules_enc_stats(e, cid), "condition"), "current", 0);
}

static void cond_set(rules_enc *e, const char *cid, int v)
{
    if (v < -100)
        v = -100; /* the sheet's floor (grimwire.c); far below dead (-10) */
    json_object_set_new(obj(rules_enc_stats(e, cid), "condition"), "current", json_integer(v));
}

static int burnout(rules_enc *e, const char *cid)
{
    return rules_enc_stat(e, cid, "burnout", 0);
}

static int has(rules_enc *e, const char *cid, const char *status)
{
    return rules_enc_cond_has(e, cid, status);
}

static json_t *comb(rules_enc *e, const char *cid)
{
    return rules_enc_combatant(e, cid);
}

static const char *nm(rules_enc *e, const char *cid)
{
    return rules_enc_name(e, cid);
}

/* cid's GM-only object (/gm/enc/combatants/<cid>) or NULL: unlike rules_enc_hidden_of it creates
 * nothing, for the checks before a refusal. */
static json_t *hidden_get(rules_enc *e, const char *cid)
{
    return json_object_get(json_object_get(e->hidden, "combatants"), cid);
}

static int npc(rules_enc *e, const char *cid)
{
    return rules_enc_is_npc(e, cid);
}

/* The round whose action (kind "action" or "aux") was last used up by cid (002:439). */
static int spent(rules_enc *e, const char *cid, const char *kind)
{
    return geti(json_object_get(comb(e, cid), "spent"), kind, 0);
}

static void spent_set(rules_enc *e, const char *cid, const char *kind, int round)
{
    json_object_set_new(obj(comb(e, cid), "spent"), kind, json_integer(round));
}

/* A combatant, for grimwire_status_mod's has(). */
typedef struct rules_enc_who_has {
    rules_enc *e;
    const char *cid;
} rules_enc_who_has;

static int enc_has(const void *ctx, const char *status)
{
    const rules_enc_who_has *w = ctx;
    return rules_enc_cond_has(w->e, w->cid, status);
}

/* Modifier to a roll of attribute `a` made for `use`: burnout (002:244-248) and the status
 * effects of grimwire_status_mod (the table the sheet's derived `roll_mod` uses too), read from
 * the encounter's conditions. */
static int roll_mod(rules_enc *e, const char *cid, const char *a, grimwire_roll_use use)
{
    rules_enc_who_has w = {e, cid};
    return grimwire_burnout_penalty(burnout(e, cid)) + grimwire_status_mod(a, use, enc_has, &w);
}

/* Rolls that fail automatically: stunned PER (002:824), paralysed TOG/COR/AGL (002:828). */
static int auto_fails(rules_enc *e, const char *cid, const char *a)
{
    if (has(e, cid, "stun") && strcmp(a, "per") == 0)
        return 1;
    return has(e, cid, "paralysis") &&
           (strcmp(a, "tog") == 0 || strcmp(a, "cor") == 0 || strcmp(a, "agl") == 0);
}

static int dying(rules_enc *e, const char *cid)
{
    return has(e, cid, "dying");
}

/* Cannot do anything at all: dying is "out cold" (002:256), unconscious (002:865), asleep, knocked
 * out, out cold (002:868-878); dead (out of the fight). */
static const char *incapacity(rules_enc *e, const char *cid)
{
    static const char *const names[] = {"dying", "unconscious", "out_cold", "knocked_out", "sleep"};
    if (rules_enc_is_out(e, cid))
        return "out of the fight";
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (has(e, cid, names[i]))
            return names[i];
    return NULL;
}

/* A d20 roll of cid's attribute `a` (+ extra) against tn, appended to dice. */
static grimwire_roll roll_attr(rules_enc *e, const char *cid, const char *a, grimwire_roll_use use,
                               int extra, int tn, int attack, int ff, json_t *dice)
{
    grimwire_roll r = {0};
    r.attr = attr(e, cid, a);
    r.mod = roll_mod(e, cid, a, use) + extra;
    r.tn = tn;
    r.attack = attack;
    r.ff = ff;
    grimwire_roll_d20(&r, e->rng, dice);
    if (auto_fails(e, cid, a)) {
        r.success = 0;
        r.critical = 0;
    }
    return r;
}

/* {natural, attr, mod, total, success[, critical, collateral]}: never the target number. */
static json_t *roll_json(const grimwire_roll *r, int secret_numbers)
{
    json_t *o = json_pack("{s:i, s:b}", "natural", r->natural, "success", r->success);
    if (!secret_numbers) {
        json_object_set_new(o, "attr", json_integer(r->attr));
        json_object_set_new(o, "mod", json_integer(r->mod));
        json_object_set_new(o, "total", json_integer(r->total));
    }
    if (r->attack) {
        json_object_set_new(o, "critical", json_boolean(r->critical));
        json_object_set_new(o, "collateral", json_boolean(r->collateral));
    }
    return o;
}

/* ---- status effects (shared conditions, mirrored to the sheet's `status`) ---- */

static const char *const STATUSES[] = {
    "inebriated",  "knocked_down",    "agony",    "frenzy",   "amok",
    "stun",        "paralysis",       "sensory",  "burning",  "bleeding",
    "brainwashed", "mind_controlled", "terror",   "hex",      "unconscious",
    "sleep",       "knocked_out",     "out_cold", "grappled", NULL};

static int is_status(const char *s)
{
    for (const char *const *n = STATUSES; *n; n++)
        if (strcmp(*n, s) == 0)
            return 1;
    return 0;
}

/* The sheet's `status` follows the encounter's conditions (ops_enc.c writes it back). */
static void sync_status(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *st = rules_enc_stats(e, cid);
        json_t *list = json_array();
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(comb(e, cid), "conditions"), k, c)
        {
            const char *n = json_string_value(json_object_get(c, "name"));
            if (n && is_status(n))
                json_array_append_new(list, json_string(n));
        }
        if (json_array_size(list) || json_object_get(st, "status"))
            json_object_set_new(st, "status", list);
        else
            json_decref(list);
    }
}

/* ---- damage types (002:691-721) ---- */

static const char *const PHYSICAL[] = {"bullets", "edged", "blunt", "explosions", NULL};
static const char *const ENERGETIC[] = {"heat", "cold", "electricity", "radiation", NULL};
static const char *const OTHER[] = {"chemical", "biological", "supernatural", NULL};

static int in_list(const char *const *l, const char *s)
{
    for (; *l; l++)
        if (strcmp(*l, s) == 0)
            return 1;
    return 0;
}

/* A damage type, or a family ("physical", "energetic"). */
static int known_type(const char *t)
{
    return in_list(PHYSICAL, t) || in_list(ENERGETIC, t) || in_list(OTHER, t) ||
           strcmp(t, "physical") == 0 || strcmp(t, "energetic") == 0;
}

static int physical(const char *t)
{
    return t && (strcmp(t, "physical") == 0 || in_list(PHYSICAL, t));
}

/* Whether cid's trait list `key` (weak/resist/immune) names type t or its family. */
static int trait(rules_enc *e, const char *cid, const char *key, const char *t)
{
    if (!t)
        return 0;
    const char *fam = physical(t) ? "physical" : in_list(ENERGETIC, t) ? "energetic" : NULL;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(rules_enc_stats(e, cid), key), i, v)
    {
        const char *s = json_string_value(v);
        if (s && (strcmp(s, t) == 0 || (fam && strcmp(s, fam) == 0)))
            return 1;
    }
    return 0;
}

/* ---- burnout, dying, dead ---- */

static void check_dying(rules_enc *e, const char *cid);

/* One more level of burnout (002:224-250): at level 4 the character drops to 0 Condition and
 * begins dying (002:250); Condition never stays above the lowered maximum (002:246-248). */
static void burnout_up(rules_enc *e, const char *cid, const char *why)
{
    int b = burnout(e, cid);
    if (b >= GRIMWIRE_BURNOUT_MAX)
        return;
    b++;
    rules_enc_stat_set(e, cid, "burnout", b);
    json_t *c = obj(rules_enc_stats(e, cid), "condition");
    int cap = grimwire_condition_cap(geti(c, "max", 10), b) + geti(c, "temporary", 0);
    if (cond_cur(e, cid) > cap)
        cond_set(e, cid, cap);
    /* 002:805 agony's level is non-lethal: at level 4 with a level of agony the character keeps
     * its Condition and does not begin dying, it is merely out cold */
    if (b == GRIMWIRE_BURNOUT_MAX && has(e, cid, "agony")) {
        if (!has(e, cid, "out_cold")) {
            rules_enc_cond_add(e, cid, "out_cold", 0, 0);
            json_object_set_new(comb(e, cid), "agony_out", json_true());
        }
    } else if (b == GRIMWIRE_BURNOUT_MAX && cond_cur(e, cid) > 0)
        cond_set(e, cid, 0);
    if (npc(e, cid))
        rules_enc_log_gm(e, "burnout", NULL, json_pack("{s:s, s:i}", "target", cid, "burnout", b),
                         "%s takes a level of burnout (%s): now %d (002:224-250)", nm(e, cid), why,
                         b);
    else
        rules_enc_log(e, "burnout", NULL, json_pack("{s:s, s:i}", "target", cid, "burnout", b),
                      "%s takes a level of burnout (%s): now %d (002:224-250)", nm(e, cid), why, b);
    check_dying(e, cid);
}

static void grapples_end(rules_enc *e, const char *cid, const char *why);
static void tick(rules_enc *e, const char *cid);

/* Condition 0 or below: dying, a level of burnout (002:226, 002:256); below −10: dead. A dying
 * or dead grappler lets go (grapples_end). */
static void check_dying(rules_enc *e, const char *cid)
{
    int cur = cond_cur(e, cid);
    if (cur <= 0)
        grapples_end(e, cid, "out cold");
    if (cur < GRIMWIRE_DEAD_BELOW) {
        if (!rules_enc_is_out(e, cid)) {
            rules_enc_cond_remove(e, cid, "dying");
            rules_enc_set_out(e, cid, "dead");
            rules_enc_log(e, "dead", NULL, json_pack("{s:s}", "target", cid),
                          "%s is dead (Condition below -10, 002:256)", nm(e, cid));
        }
        return;
    }
    if (cur <= 0 && !dying(e, cid)) {
        rules_enc_cond_add(e, cid, "dying", 0, 0);
        rules_enc_log(e, "dying", NULL, json_pack("{s:s}", "target", cid),
                      "%s drops to 0 Condition or below: dying and out cold (002:256)", nm(e, cid));
        burnout_up(e, cid, "Condition at 0 or below, 002:226");
    }
}

/*
 * Damage of type t (NULL: untyped, e.g. bleeding) to cid: immune → 0, weak → double, resistant
 * → half (rounded down, at least 1) (002:693), then armor for physical damage, never below 1
 * (002:749). Returns what was taken; the numbers go to the GM's log for an NPC target (its armor
 * and traits are the GM's), to the public log for a PC.
 */
static int take_damage_as(rules_enc *e, const char *cid, int dmg, const char *t, const char *source,
                          int nonlethal);

static int take_damage(rules_enc *e, const char *cid, int dmg, const char *t, const char *source)
{
    return take_damage_as(e, cid, dmg, t, source, 0);
}

/* take_damage; with `nonlethal` a blow that would take cid to 0 or below leaves it at 1
 * Condition and out cold instead (002:649, reading G11): no dying, no burnout. */
static int take_damage_as(rules_enc *e, const char *cid, int dmg, const char *t, const char *source,
                          int nonlethal)
{
    json_t *res = json_pack("{s:s, s:i}", "target", cid, "rolled", dmg);
    char how[120] = "";
    int d = dmg;
    if (t)
        json_object_set_new(res, "type", json_string(t));
    if (d > 0 && trait(e, cid, "immune", t)) {
        d = 0;
        snprintf(how, sizeof how, ", immune to %s", t);
    } else if (d > 0 && trait(e, cid, "weak", t)) {
        d *= 2;
        snprintf(how, sizeof how, ", weak to %s: doubled", t);
    } else if (d > 0 && trait(e, cid, "resist", t)) {
        d = d / 2 < 1 ? 1 : d / 2;
        snprintf(how, sizeof how, ", resistant to %s: halved", t);
    }
    int armor = rules_enc_stat(e, cid, "armor", 0);
    if (d > 0 && physical(t) && armor > 0) {
        int before = d;
        d = grimwire_armor(d, armor);
        size_t l = strlen(how);
        snprintf(how + l, sizeof how - l, ", armor %d: %d -> %d", armor, before, d);
        json_object_set_new(res, "armor", json_integer(armor));
    }
    int cur = cond_cur(e, cid) - d;
    int held = nonlethal && cur <= 0 && !dying(e, cid);
    cond_set(e, cid, held ? 1 : cur);
    json_object_set_new(res, "damage", json_integer(d));
    json_object_set_new(res, "condition", json_integer(cond_cur(e, cid)));
    if (npc(e, cid)) {
        rules_enc_log_gm(e, "damage", NULL, res,
                         "%s takes %d damage from %s (%d rolled%s): "
                         "Condition %d",
                         nm(e, cid), d, source, dmg, how, cond_cur(e, cid));
    } else {
        rules_enc_log(e, "damage", NULL, res,
                      "%s takes %d damage from %s (%d rolled%s): "
                      "Condition %d",
                      nm(e, cid), d, source, dmg, how, cond_cur(e, cid));
    }
    if (held) {
        rules_enc_cond_add(e, cid, "out_cold", 0, 0);
        grapples_end(e, cid, "out cold");
        rules_enc_log(e, "nonlethal", NULL, json_pack("{s:s}", "target", cid),
                      "The blow is held back: %s is left at 1 Condition and out cold (002:649)",
                      nm(e, cid));
    }
    check_dying(e, cid);
    return d;
}

/* ---- initiative and the order ---- */

static int init_of(rules_enc *e, const char *cid)
{
    json_t *holder = npc(e, cid) ? rules_enc_hidden_of(e, cid) : comb(e, cid);
    return geti(holder, "init", 0);
}

/* Enemies of the player characters: a side no PC stands on (002:403 "enemies are prioritized"). */
static int enemy(rules_enc *e, const char *cid)
{
    const char *side = rules_enc_side(e, cid), *o;
    for (size_t i = 0; (o = rules_enc_cid_at(e, i)); i++)
        if (!npc(e, o) && strcmp(rules_enc_side(e, o), side) == 0)
            return 0;
    return 1;
}

/* Rolls cid's initiative, d20 + PER + modifiers (002:159, 002:401); PCs in public, the GM's rolls
 * for NPCs in the GM's log (002:401 "the GM rolls for the other NPC participants"). */
static int roll_init(rules_enc *e, const char *cid)
{
    json_t *dice = json_array();
    grimwire_roll r = roll_attr(e, cid, "per", GRIMWIRE_USE_PLAIN, 0, 0, 0, 0, dice);
    int total = auto_fails(e, cid, "per") ? -100 : r.total; /* a stunned PER roll fails */
    json_t *res = json_pack("{s:s, s:i, s:i, s:i, s:i}", "target", cid, "natural", r.natural,
                            "attr", r.attr, "mod", r.mod, "total", total);
    if (npc(e, cid)) {
        json_object_set_new(rules_enc_hidden_of(e, cid), "init", json_integer(total));
        rules_enc_log_gm(e, "initiative", dice, res, "%s rolls initiative: d20 %d %+d %+d = %d",
                         nm(e, cid), r.natural, r.attr, r.mod, total);
    } else {
        json_object_set_new(comb(e, cid), "init", json_integer(total));
        rules_enc_log(e, "initiative", dice, res, "%s rolls initiative: d20 %d %+d %+d = %d",
                      nm(e, cid), r.natural, r.attr, r.mod, total);
    }
    return total;
}

static int rank_cmp(rules_enc *e, const char *a, const char *b)
{
    int ia = init_of(e, a), ib = init_of(e, b);
    if (ia != ib)
        return ia > ib ? -1 : 1;
    int ea = enemy(e, a), eb = enemy(e, b);
    return ea != eb ? (ea ? -1 : 1) : 0;
}

static json_t *order(rules_enc *e)
{
    return json_object_get(e->enc, "order");
}

static int turn(rules_enc *e)
{
    return geti(e->enc, "turn", -1);
}

static void turn_set(rules_enc *e, int t)
{
    json_object_set_new(e->enc, "turn", json_integer(t));
}

/* Index of cid in the base order /enc/initiative (-1 when absent). */
static int base_index(rules_enc *e, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(e->enc, "initiative"), i,
                       v) if (rules_enc_streq(json_string_value(v), cid)) return (int)i;
    return -1;
}

/* Inserts cid into the base order and the running order at its rank (a combatant joining a
 * running conflict); the one whose turn it is keeps it. */
static void insert_ranked(rules_enc *e, const char *cid)
{
    json_t *base = json_object_get(e->enc, "initiative");
    size_t i = 0;
    while (i < json_array_size(base) &&
           rank_cmp(e, json_string_value(json_array_get(base, i)), cid) <= 0)
        i++;
    json_array_insert_new(base, i, json_string(cid));
    json_t *ord = order(e);
    int t = turn(e);
    i = 0;
    while (i < json_array_size(ord) &&
           rank_cmp(e, json_string_value(json_array_get(ord, i)), cid) <= 0)
        i++;
    if ((int)i <= t)
        i = (size_t)t + 1; /* after the current turn: its place this round has gone by */
    json_array_insert_new(ord, i, json_string(cid));
}

/* ---- turns ---- */

static void budget_zero(rules_enc *e, const char *cid, const char *kind)
{
    rules_enc_budget_set(e, cid, kind, 0);
}

/* What cid's budget holds this turn, after the per-turn reset: an action or aux already spent on
 * a reaction (002:437-439), stun and paralysis (002:824, 002:828), terror's cowering (002:854). */
static void budget_adjust(rules_enc *e, const char *cid)
{
    int r = rules_enc_round(e);
    if (spent(e, cid, "action") >= r)
        budget_zero(e, cid, "action");
    if (spent(e, cid, "aux") >= r)
        budget_zero(e, cid, "aux");
    if (has(e, cid, "stun") || has(e, cid, "paralysis")) {
        budget_zero(e, cid, "action");
        budget_zero(e, cid, "move");
    }
    if (geti(comb(e, cid), "cower", 0) == r)
        budget_zero(e, cid, "action");
}

/* 002:735 a drowning character rolls MND 11 each round to stay conscious; one who is
 * unconscious (or otherwise out cold) under water takes 6 damage a round. */
static void drowning_turn(rules_enc *e, const char *cid)
{
    if (!has(e, cid, "drowning"))
        return;
    if (incapacity(e, cid)) {
        rules_enc_log(e, "drowning", NULL, json_pack("{s:s, s:i}", "target", cid, "rolled", 6),
                      "%s is out cold under water: 6 damage (002:735)", nm(e, cid));
        take_damage(e, cid, 6, NULL, "drowning");
        return;
    }
    json_t *dice = json_array();
    grimwire_roll m =
        roll_attr(e, cid, "mnd", GRIMWIRE_USE_PLAIN, 0, GRIMWIRE_COLLATERAL_TN, 0, 0, dice);
    rules_enc_log(e, "drowning", dice, roll_json(&m, npc(e, cid)),
                  "%s is drowning: MND 11 to stay conscious, %s (002:735)", nm(e, cid),
                  m.success ? "stays conscious" : "falls unconscious");
    if (!m.success) {
        rules_enc_cond_add(e, cid, "unconscious", 0, 0);
        grapples_end(e, cid, "falls unconscious");
    }
}

/* 002:727 a character caught in a persistent area (molotov fire, condition `area` {damage,
 * type}) avoids its damage a second time only by moving out at the very start of the turn: the
 * turn waits for `leave` or `stay` (area_due); one who cannot move takes it at once. */
static void area_hurts(rules_enc *e, const char *cid);

static void area_turn(rules_enc *e, const char *cid)
{
    if (!has(e, cid, "area"))
        return;
    if (incapacity(e, cid) || has(e, cid, "stun") || has(e, cid, "paralysis"))
        area_hurts(e, cid);
    else
        json_object_set_new(comb(e, cid), "area_due", json_integer(rules_enc_round(e)));
}

/*
 * The beginning of cid's turn (once per round, not again on a turn taken later after passing):
 * dying loses 1 Condition (002:256), burning takes 2d6 (002:838), bleeding its level (002:842),
 * terror asks for a MND roll (002:854). Returns 1 when cid may take the turn, 0 when it cannot do
 * anything (dying, out cold, ...) and the turn passes at once.
 */
static int turn_begins(rules_enc *e, const char *cid)
{
    json_t *c = comb(e, cid);
    int r = rules_enc_round(e);
    json_object_del(c, "used");
    int first = geti(c, "tick", 0) != r;
    if (first) {
        json_object_set_new(c, "tick", json_integer(r));
        if (dying(e, cid)) {
            cond_set(e, cid, cond_cur(e, cid) - 1);
            rules_enc_log(e, "dying", NULL, json_pack("{s:s}", "target", cid),
                          "%s is dying: -1 Condition (002:256)", nm(e, cid));
            if (npc(e, cid))
                rules_enc_log_gm(e, "dying", NULL, NULL, "%s: Condition %d", nm(e, cid),
                                 cond_cur(e, cid));
            check_dying(e, cid);
        } else {
            if (has(e, cid, "burning")) {
                json_t *dice = json_array();
                int d = rules_roll_die(e->rng, 6, dice) + rules_roll_die(e->rng, 6, dice);
                rules_enc_log(e, "burning", dice,
                              json_pack("{s:s, s:i}", "target", cid, "rolled", d),
                              "%s burns: 2d6 = %d heat damage (002:838)", nm(e, cid), d);
                take_damage(e, cid, d, "heat", "burning");
            }
            if (has(e, cid, "bleeding") && !incapacity(e, cid)) {
                json_t *b = rules_enc_cond(e, cid, "bleeding");
                int d = geti(b, "level", 1);
                rules_enc_log(e, "bleeding", NULL,
                              json_pack("{s:s, s:i}", "target", cid, "rolled", d),
                              "%s bleeds: %d damage (002:842)", nm(e, cid), d);
                take_damage(e, cid, d < 1 ? 1 : d, NULL, "bleeding");
            }
            if (has(e, cid, "terror") && !incapacity(e, cid)) {
                int tn = geti(rules_enc_hidden_of(e, cid), "terror_tn", GRIMWIRE_COLLATERAL_TN);
                json_t *dice = json_array();
                grimwire_roll t =
                    roll_attr(e, cid, "mnd", GRIMWIRE_USE_PAIN_TERROR, 0, tn, 0, 0, dice);
                rules_enc_log_gm(
                    e, "terror", NULL,
                    json_pack("{s:s, s:i, s:i}", "target", cid, "total", t.total, "tn", tn),
                    "%s's MND roll against terror: %d vs TN %d", nm(e, cid), t.total, tn);
                if (t.success) {
                    rules_enc_cond_remove(e, cid, "terror");
                    rules_enc_log(e, "terror", dice, roll_json(&t, npc(e, cid)),
                                  "%s masters the terror: MND roll succeeds, terror removed "
                                  "(002:854)",
                                  nm(e, cid));
                } else {
                    json_object_set_new(c, "cower", json_integer(r));
                    rules_enc_log(e, "terror", dice, roll_json(&t, npc(e, cid)),
                                  "%s fails the MND roll: can only cower or flee this turn "
                                  "(002:854)",
                                  nm(e, cid));
                }
            }
        }
    }
    if (first && !rules_enc_is_out(e, cid)) {
        drowning_turn(e, cid);
        area_turn(e, cid);
    }
    budget_adjust(e, cid);
    const char *why = incapacity(e, cid);
    if (why) {
        rules_enc_log(e, "skip", NULL, json_pack("{s:s, s:s}", "target", cid, "why", why),
                      "%s cannot do anything (%s, 002:256, 002:865): the turn passes", nm(e, cid),
                      why);
        return 0;
    }
    return 1;
}

/* Whether an entry after the current one may still act this round. */
static int more_this_round(rules_enc *e)
{
    json_t *ord = order(e);
    for (size_t i = (size_t)(turn(e) + 1); i < json_array_size(ord); i++)
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
    json_array_foreach(json_object_get(e->enc, "initiative"), i,
                       v) if (comb(e, json_string_value(v))) json_array_append(fresh, v);
    json_array_foreach(order(e), i, v) if (base_index(e, json_string_value(v)) < 0)
        json_array_append(fresh, v);
    json_object_set_new(e->enc, "initiative", json_deep_copy(fresh));
    json_object_set_new(e->enc, "order", fresh);
    turn_set(e, (int)json_array_size(fresh) - 1);
}

static void round_begins(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        json_object_del(comb(e, cid), "waiting");
    rules_enc_log(e, "round", NULL, json_pack("{s:i}", "round", rules_enc_round(e)),
                  "Round %d begins (6 seconds, 002:415)", rules_enc_round(e));
}

/*
 * Ends the turn of `ending` (its timed conditions count down when `tick`) and gives the turn to
 * the next one who may take it; a new round starts in the initiative order. Those who cannot do
 * anything pass at once, at most one round of them per call.
 */
static void next_turn(rules_enc *e, const char *ending, int tick_it)
{
    if (ending && tick_it)
        tick(e, ending);
    int n = (int)json_array_size(order(e));
    for (int guard = 0; guard <= n; guard++) {
        if (!more_this_round(e))
            restore_order(e);
        int r = rules_enc_advance(e);
        if (r < 0) {
            rules_enc_log(e, "idle", NULL, NULL, "Nobody is left to act");
            return;
        }
        if (r == 1)
            round_begins(e);
        const char *cid = rules_enc_current(e);
        if (turn_begins(e, cid))
            return;
        tick(e, cid);
    }
}

/* ---- spending ---- */

static void mark_used(rules_enc *e, const char *cid)
{
    json_object_set_new(comb(e, cid), "used", json_true());
}

/* Spends cid's action this turn, or refuses naming the rule that took it. */
static int use_action(rules_enc *e, const char *cid, tb_err *err)
{
    int r = rules_enc_round(e);
    if (has(e, cid, "stun"))
        return rules_enc_rule(err, "%s is stunned: cannot act or move on their turn (002:824)",
                              nm(e, cid));
    if (has(e, cid, "paralysis"))
        return rules_enc_rule(err, "%s is paralysed: cannot move or act on their turn (002:828)",
                              nm(e, cid));
    if (geti(comb(e, cid), "cower", 0) == r)
        return rules_enc_rule(err,
                              "%s failed the MND roll against terror: can only cower or "
                              "flee this turn (002:854)",
                              nm(e, cid));
    if (rules_enc_budget_left(e, cid, "action") < 1 &&
        geti(json_object_get(comb(e, cid), "reacted"), "action", 0) >= r)
        return rules_enc_rule(err,
                              "%s has no action in round %d: it was spent on a reaction "
                              "(002:437-439, the Cyrus/Kneecap example 002:443-447)",
                              nm(e, cid), r);
    if (rules_enc_spend(e, cid, "action", 1, err))
        return err->code;
    spent_set(e, cid, "action", r);
    mark_used(e, cid);
    return 0;
}

static int use_move(rules_enc *e, const char *cid, tb_err *err)
{
    if (has(e, cid, "stun"))
        return rules_enc_rule(err, "%s is stunned: cannot act or move on their turn (002:824)",
                              nm(e, cid));
    if (has(e, cid, "paralysis"))
        return rules_enc_rule(err, "%s is paralysed: cannot move or act on their turn (002:828)",
                              nm(e, cid));
    if (rules_enc_budget_left(e, cid, "move") < 1)
        return rules_enc_rule(err,
                              "%s has no movement left this turn: a character moves "
                              "before or after their action, not both (002:465)",
                              nm(e, cid));
    rules_enc_spend(e, cid, "move", 1, err);
    mark_used(e, cid);
    return 0;
}

/* The better of cid's TOG (STR, grimwire reading 1) and COR, for "a STR or COR roll". */
static const char *tog_or_cor(rules_enc *e, const char *cid)
{
    return attr(e, cid, "tog") >= attr(e, cid, "cor") ? "tog" : "cor";
}

/*
 * An opposed roll (002:657-682): cid's attribute `aa` (+ extra) against t's `ta`, the higher total
 * wins and a tie goes to t, the one resisting (reading G8); a natural 1 never wins, the other
 * side's natural 1 loses. The dice go to `dice`; `res` gets {natural, <key>_natural, success} and,
 * when both are PCs, the totals; otherwise the totals go to the GM's log only (an NPC's attributes
 * are the GM's). Returns 1 when cid wins. Both totals are returned through *at and *tt (may be
 * NULL).
 */
static int opposed(rules_enc *e, const char *cid, const char *aa, int extra, const char *t,
                   const char *ta, int t_extra, const char *key, json_t *dice, json_t *res, int *at,
                   int *tt)
{
    grimwire_roll a = roll_attr(e, cid, aa, GRIMWIRE_USE_PLAIN, extra, 0, 0, 0, dice);
    grimwire_roll d = roll_attr(e, t, ta, GRIMWIRE_USE_PLAIN, t_extra, 0, 0, 0, dice);
    int win =
        a.natural != 1 && (d.natural == 1 || rules_opposed(a.total, d.total, RULES_TIE_DEFENDER));
    if (auto_fails(e, cid, aa))
        win = 0;
    else if (auto_fails(e, t, ta) && a.natural != 1)
        win = 1;
    char k[40];
    snprintf(k, sizeof k, "%s_natural", key);
    json_object_set_new(res, "natural", json_integer(a.natural));
    json_object_set_new(res, k, json_integer(d.natural));
    json_object_set_new(res, "success", json_boolean(win));
    if (!npc(e, cid) && !npc(e, t)) {
        snprintf(k, sizeof k, "%s_total", key);
        json_object_set_new(res, "total", json_integer(a.total));
        json_object_set_new(res, k, json_integer(d.total));
    } else {
        rules_enc_log_gm(e, "opposed", NULL, NULL, "%s %s %d vs %s %s %d", nm(e, cid), aa, a.total,
                         nm(e, t), ta, d.total);
    }
    if (at)
        *at = a.total;
    if (tt)
        *tt = d.total;
    return win;
}

/*
 * A grappled character must win an opposed STR (TOG) or COR roll against its grappler to take an
 * action, and a STR roll to move (002:678-679). The grappler is the condition's `by`; without one
 * the roll is the GM's. Returns 1 when cid may go on, 0 when the roll failed (logged).
 */
static int grapple_roll(rules_enc *e, const char *cid, int moving)
{
    json_t *g = rules_enc_cond(e, cid, "grappled");
    const char *by = json_string_value(json_object_get(g, "by"));
    if (!g || !by || !comb(e, by) || rules_enc_is_out(e, by))
        return 1;
    const char *aa = moving ? "tog" : tog_or_cor(e, cid);
    const char *ga = moving ? "tog" : tog_or_cor(e, by);
    json_t *dice = json_array();
    json_t *res = json_pack("{s:s}", "grappler", by);
    int win = opposed(e, cid, aa, 0, by, ga, 0, "grappler", dice, res, NULL, NULL);
    rules_enc_log(e, "grapple", dice, res, "%s, grappled by %s, rolls to %s: %s (002:678-679)",
                  nm(e, cid), nm(e, by), moving ? "move" : "act", win ? "succeeds" : "fails");
    return win;
}

/* cid lets go of everyone it grapples (002:663-689): it is out cold, dying or lets go. */
static void grapples_end(rules_enc *e, const char *cid, const char *why)
{
    const char *o;
    for (size_t i = 0; (o = rules_enc_cid_at(e, i)); i++) {
        json_t *g = rules_enc_cond(e, o, "grappled");
        if (g && rules_enc_streq(json_string_value(json_object_get(g, "by")), cid)) {
            rules_enc_cond_remove(e, o, "grappled");
            rules_enc_log(e, "grapple", NULL, json_pack("{s:s, s:s}", "target", o, "by", cid),
                          "%s is no longer grappled: %s %s", nm(e, o), nm(e, cid), why);
        }
    }
}

/* 002:805 the temporary level of burnout from agony goes when the agony does. */
static void agony_ends(rules_enc *e, const char *cid)
{
    int b = burnout(e, cid);
    if (b > 0)
        rules_enc_stat_set(e, cid, "burnout", b - 1);
    if (json_is_true(json_object_get(comb(e, cid), "agony_out"))) {
        json_object_del(comb(e, cid), "agony_out");
        rules_enc_cond_remove(e, cid, "out_cold");
    }
    rules_enc_log(e, "agony", NULL, json_pack("{s:s}", "target", cid),
                  "%s's agony passes: the temporary level of burnout goes (002:805)", nm(e, cid));
}

/* Counts cid's timed conditions down (rules_enc_cond_tick) and ends what expired with them. */
static void tick(rules_enc *e, const char *cid)
{
    int agony = has(e, cid, "agony");
    rules_enc_cond_tick(e, cid);
    if (agony && !has(e, cid, "agony"))
        agony_ends(e, cid);
}

/* ---- actions ---- */

static const char *actor(rules_enc *e)
{
    return e->actor;
}

/* Technique use: negative Focus or burnout 3 forbid specialty techniques (002:198, 002:248),
 * frenzy any technique (002:815); the cost may push Focus below 0, which gives a level of burnout
 * (002:198). */
static int pay_focus(rules_enc *e, const char *cid, const char *name, int cost, tb_err *err)
{
    json_t *st = rules_enc_stats(e, cid);
    json_t *f = obj(st, "focus");
    int cur = geti(f, "current", 0);
    if (has(e, cid, "frenzy") || has(e, cid, "amok"))
        return rules_enc_rule(err, "%s is in a frenzy: no techniques (002:815)", nm(e, cid));
    if (cur < 0)
        return rules_enc_rule(err,
                              "%s has negative Focus (%d): no specialty techniques until it "
                              "is restored to 0 (002:198)",
                              nm(e, cid), cur);
    if (burnout(e, cid) >= 3)
        return rules_enc_rule(err, "%s is at burnout level %d: no specialty techniques (002:248)",
                              nm(e, cid), burnout(e, cid));
    json_t *known = json_object_get(st, "techniques");
    if (json_is_array(known)) {
        int found = 0;
        size_t i;
        json_t *v;
        json_array_foreach(known, i, v) found |= strcasecmp(json_string_value(v), name) == 0;
        if (!found)
            return rules_enc_rule(err, "%s has no technique '%.60s' on the sheet (002:302)",
                                  nm(e, cid), name);
    }
    json_object_set_new(f, "current", json_integer(cur - cost));
    if (cur - cost < 0)
        burnout_up(e, cid, "Focus below 0, 002:198");
    return 0;
}

/*
 * Initiative (002:401-403). With `surprise` (a side): 002:521-523 that side's characters take
 * one turn before the initiative order, round 1 (all of them in their initiative order; on
 * `alert` only the first, whose attack comes before initiative); their first attack gets +5 (+2
 * on alert) through /enc/surprise; from round 2 on the initiative order (reading G18).
 */
static int do_begin(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err, "the conflict is already under way (round %d)",
                              rules_enc_round(e));
    const char *cid;
    const char *side = rules_arg_str(a, "surprise");
    int n = 0, surprisers = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        n++;
        surprisers +=
            side && rules_enc_streq(rules_enc_side(e, cid), side) && !rules_enc_is_out(e, cid);
    }
    if (n == 0)
        return rules_enc_rule(err, "add combatants before rolling initiative (002:401)");
    if (side && !surprisers)
        return rules_enc_rule(err, "nobody on side '%.32s' can take the surprise turn", side);
    if (side && surprisers == n)
        return rules_enc_rule(err, "a surprise needs someone to surprise (002:521)");
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
    rules_enc_log(
        e, "order", NULL, json_pack("{s:O}", "order", order(e)),
        "Initiative order set: highest PER roll first, ties to the enemies (002:401-403)");
    if (side) {
        int alert = rules_arg_int(a, "alert");
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
        rules_enc_log(e, "surprise", NULL, json_pack("{s:s, s:b}", "side", side, "alert", alert),
                      "Surprise: %s before initiative, and the first attack gets +%d to hit "
                      "(002:521-523)",
                      alert ? "the first attacker strikes" : "the attackers take one turn",
                      alert ? 2 : 5);
    }
    rules_enc_begin_round(e);
    round_begins(e);
    const char *first = rules_enc_current(e);
    if (first && !turn_begins(e, first))
        next_turn(e, first, 1);
    return 0;
}

static int do_end_turn(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    rules_enc_log(e, "end_turn", NULL, NULL, "%s ends the turn", nm(e, actor(e)));
    next_turn(e, actor(e), 1);
    return 0;
}

static int do_pass(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e);
    json_t *c = comb(e, cid);
    if (json_is_true(json_object_get(c, "used")))
        return rules_enc_rule(err,
                              "%s already did something this turn: end the turn instead of "
                              "passing (002:421)",
                              nm(e, cid));
    int idx = turn(e);
    if (rules_arg_int(a, "skip") || json_is_true(json_object_get(c, "waiting")) ||
        !more_this_round(e)) {
        /* 002:421 "or not act at all that round ... loses their turn for that round"; passing a
         * second time, or with nobody left to wait for, gives the turn up (reading). */
        rules_enc_log(e, "pass", NULL, json_pack("{s:b}", "skip", 1),
                      "%s does not act this round (002:421)", nm(e, cid));
        next_turn(e, cid, 1);
        return 0;
    }
    json_object_set_new(c, "waiting", json_true());
    json_t *ord = order(e);
    json_array_append(ord, json_array_get(ord, (size_t)idx));
    json_array_remove(ord, (size_t)idx);
    /* 002:421 "If multiple characters are trying to go last in a round, the order defaults to
     * the original initiative order": the waiting ones still to come, in initiative order. */
    size_t n = json_array_size(ord), from = n;
    while (from > (size_t)idx &&
           json_is_true(json_object_get(comb(e, json_string_value(json_array_get(ord, from - 1))),
                                        "waiting")))
        from--;
    for (size_t i = from + 1; i < n; i++)
        for (size_t j = i; j > from; j--) {
            const char *x = json_string_value(json_array_get(ord, j - 1));
            const char *y = json_string_value(json_array_get(ord, j));
            if (base_index(e, x) <= base_index(e, y))
                break;
            json_t *tmp = json_incref(json_array_get(ord, j - 1));
            json_array_set(ord, j - 1, json_array_get(ord, j));
            json_array_set_new(ord, j, tmp);
        }
    rules_enc_log(e, "pass", NULL, json_pack("{s:b}", "skip", 0),
                  "%s passes and will act later this round (002:421)", nm(e, cid));
    turn_set(e, idx - 1);
    next_turn(e, NULL, 0);
    return 0;
}

static int do_move(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = actor(e);
    if (use_move(e, cid, err))
        return err->code;
    if (has(e, cid, "grappled") && !grapple_roll(e, cid, 1))
        return 0;
    const char *how = "moves (a set distance, +1 m per AGL point, 002:122, 002:465)";
    if (has(e, cid, "knocked_down"))
        how = "crawls up to 3 m: knocked down (002:799)";
    else if (burnout(e, cid) >= 3)
        how = "can only crawl: burnout level 3 (002:248)";
    else if (has(e, cid, "grappled"))
        how = "moves at half speed: grappled (002:679)";
    else if (burnout(e, cid) == 2)
        how = "moves at half speed: burnout level 2 (002:246)";
    rules_enc_log(e, "move", NULL, NULL, "%s %s", nm(e, cid), how);
    return 0;
}

static int do_dash(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = actor(e);
    /* 002:469 "sacrifice their action on their turn to move double their normal movement" */
    if (has(e, cid, "knocked_down"))
        return rules_enc_rule(err, "%s is knocked down: crawl or get up first (002:799-800)",
                              nm(e, cid));
    if (use_move(e, cid, err) || use_action(e, cid, err))
        return err->code;
    if (has(e, cid, "grappled") && !grapple_roll(e, cid, 1))
        return 0;
    rules_enc_log(e, "dash", NULL, NULL, "%s dashes: double movement for the action (002:469)",
                  nm(e, cid));
    return 0;
}

static int do_aux(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e);
    const char *what = rules_arg_str(a, "what");
    if (rules_enc_budget_left(e, cid, "aux") < 1 && rules_enc_budget_left(e, cid, "action") > 0) {
        /* 002:431 "Players can sacrifice their action to make a second auxiliary action" */
        if (use_action(e, cid, err))
            return err->code;
        rules_enc_log(e, "aux", NULL, json_pack("{s:b}", "with_action", 1),
                      "%s gives up the action for a second auxiliary action%s%s (002:431)",
                      nm(e, cid), what ? ": " : "", what ? what : "");
        return 0;
    }
    if (rules_enc_budget_left(e, cid, "aux") < 1)
        return rules_enc_rule(err, "%s has no auxiliary action left this turn (002:427-431)",
                              nm(e, cid));
    rules_enc_spend(e, cid, "aux", 1, err);
    spent_set(e, cid, "aux", rules_enc_round(e));
    mark_used(e, cid);
    rules_enc_log(e, "aux", NULL, NULL, "%s takes an auxiliary action%s%s (002:427-429)",
                  nm(e, cid), what ? ": " : "", what ? what : "");
    return 0;
}

static const char *const ATTRS[] = {"tog", "agl", "cor", "mnd", "per", "rsn", NULL};

/*
 * Assisting an ally in a conflict (002:81-83): the helper rolls its own attribute (`attr`, with
 * its own modifiers and `mod`) and "Assisting another character while in a conflict costs an
 * action": the helper's action is spent. The result waits on the helped character as the
 * condition `assisted` {by, total}: "the highest result is used" when the task is rolled (the
 * GM compares). Validated before the d20.
 */
static int do_assist(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target"), *at = rules_arg_str(a, "attr");
    size_t i;
    for (i = 0; ATTRS[i] && strcmp(ATTRS[i], at) != 0; i++)
        ;
    if (!ATTRS[i])
        return tb_fail(err, TB_BAD_REQUEST,
                       "attr: '%.8s' is not one of tog, agl, cor, mnd, per, "
                       "rsn",
                       at);
    if (strcmp(t, cid) == 0)
        return rules_enc_rule(err, "%s cannot assist themselves", nm(e, cid));
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight", nm(e, t));
    if (use_action(e, cid, err))
        return err->code;
    json_t *dice = json_array();
    grimwire_roll r =
        roll_attr(e, cid, at, GRIMWIRE_USE_PLAIN, rules_arg_int(a, "mod"), 0, 0, 0, dice);
    json_t *c = rules_enc_cond_add(e, t, "assisted", 0, 0);
    json_object_set_new(c, "by", json_string(cid));
    json_object_set_new(c, "total", json_integer(r.total));
    if (npc(e, cid)) {
        rules_enc_log_gm(e, "assist", dice, roll_json(&r, 0), "%s assists %s: %s %d", nm(e, cid),
                         nm(e, t), at, r.total);
        dice = NULL;
    }
    json_t *res = roll_json(&r, npc(e, cid));
    json_object_set_new(res, "target", json_string(t));
    rules_enc_log(e, "assist", dice, res,
                  "%s spends the action helping %s: the higher of their results counts", nm(e, cid),
                  nm(e, t));
    return 0;
}

static int do_get_up(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = actor(e);
    if (!has(e, cid, "knocked_down"))
        return rules_enc_rule(err, "%s is not knocked down", nm(e, cid));
    if (use_move(e, cid, err))
        return err->code;
    rules_enc_cond_remove(e, cid, "knocked_down");
    rules_enc_log(e, "get_up", NULL, NULL,
                  "%s gets up, giving up the movement of this turn (002:800)", nm(e, cid));
    return 0;
}

static int do_help_up(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target");
    if (!has(e, t, "knocked_down"))
        return rules_enc_rule(err, "%s is not knocked down", nm(e, t));
    if (has(e, cid, "knocked_down"))
        return rules_enc_rule(err,
                              "%s is knocked down too: only a character that is not can "
                              "help (002:801)",
                              nm(e, cid));
    if (rules_enc_budget_left(e, cid, "aux") < 1)
        return rules_enc_rule(err, "%s has no auxiliary action left this turn (002:801)",
                              nm(e, cid));
    rules_enc_spend(e, cid, "aux", 1, err);
    spent_set(e, cid, "aux", rules_enc_round(e));
    mark_used(e, cid);
    rules_enc_cond_remove(e, t, "knocked_down");
    rules_enc_log(e, "help_up", NULL, json_pack("{s:s}", "target", t),
                  "%s helps %s up as an auxiliary action: %s keeps their movement (002:801)",
                  nm(e, cid), nm(e, t), nm(e, t));
    return 0;
}

static int do_break_free(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = actor(e);
    if (!has(e, cid, "grappled"))
        return rules_enc_rule(err, "%s is not grappled", nm(e, cid));
    json_t *g = rules_enc_cond(e, cid, "grappled");
    char by[40]; /* a copy: the condition goes when the grapple breaks */
    snprintf(by, sizeof by, "%s",
             json_string_value(json_object_get(g, "by"))
                 ? json_string_value(json_object_get(g, "by"))
                 : "");
    if (!by[0] || !comb(e, by))
        return rules_enc_rule(err, "the GM has not named who grapples %s (status with target2)",
                              nm(e, cid));
    if (use_action(e, cid, err))
        return err->code;
    /* 002:682 "You can attempt to break out of the grapple ... as your action": the opposed STR
     * (TOG) or COR roll of 002:678 (reading: each side uses its better of the two). */
    if (grapple_roll(e, cid, 0)) {
        rules_enc_cond_remove(e, cid, "grappled");
        rules_enc_log(e, "break_free", NULL, NULL, "%s breaks free of %s (002:682)", nm(e, cid),
                      nm(e, by));
    }
    return 0;
}

/* ---- surprise and shields, looked at by every attack ---- */

/*
 * 002:521-523 the first attack of a surprise gets +5 to hit (+2 when the enemies were on alert):
 * /enc/surprise {side, bonus} until a combatant of that side attacks. Returns the bonus for
 * cid's attack (and uses it up), or 0.
 */
static int surprise_bonus(rules_enc *e, const char *cid)
{
    json_t *sp = json_object_get(e->enc, "surprise");
    if (!json_is_object(sp) ||
        !rules_enc_streq(json_string_value(json_object_get(sp, "side")), rules_enc_side(e, cid)))
        return 0;
    int b = geti(sp, "bonus", 0);
    json_object_del(e->enc, "surprise");
    rules_enc_log(e, "surprise", NULL, json_pack("{s:i}", "bonus", b),
                  "%s strikes first from surprise: +%d to hit (002:521-523)", nm(e, cid), b);
    return b;
}

/*
 * Who shields t from cid's attack now (002:755-761): a combatant whose `shield` {target, round,
 * attacker?} names t this round, able to act, and not yet shielding from another attacker this
 * round ("only shield attacks from one attacker per round", several of that one's attacks).
 */
static const char *shield_for(rules_enc *e, const char *cid, const char *t)
{
    const char *o;
    int r = rules_enc_round(e);
    for (size_t i = 0; (o = rules_enc_cid_at(e, i)); i++) {
        json_t *sh = json_object_get(comb(e, o), "shield");
        const char *by = json_string_value(json_object_get(sh, "attacker"));
        if (!sh || strcmp(o, cid) == 0 || geti(sh, "round", 0) != r ||
            !rules_enc_streq(json_string_value(json_object_get(sh, "target")), t) ||
            (by && strcmp(by, cid) != 0) || incapacity(e, o) || has(e, o, "stun") ||
            has(e, o, "paralysis"))
            continue;
        return o;
    }
    return NULL;
}

/* 002:757 the shield's AGL roll with +5 against the attacker's COR; a tie goes to the attacker
 * (the shield tries to be hit). Logged; returns 1 when the shield takes the attack. */
static int shield_roll(rules_enc *e, const char *sh, const char *cid, const char *t)
{
    json_object_set_new(json_object_get(comb(e, sh), "shield"), "attacker", json_string(cid));
    json_t *dice = json_array();
    json_t *res = json_pack("{s:s, s:s}", "target", t, "attacker", cid);
    int win = opposed(e, sh, "agl", 5, cid, "cor", 0, "attacker", dice, res, NULL, NULL);
    rules_enc_log(e, "shield", dice, res,
                  "%s throws themselves in front of %s: AGL +5 against %s's COR, %s (002:757)",
                  nm(e, sh), nm(e, t), nm(e, cid),
                  win ? "the shield takes the attack" : "too slow, the attack goes on");
    return win;
}

/* The weapon used: the sheet's weapons[weapon-1], a given damage expression, or bare hands (an
 * unarmed attack is a light-weapon attack doing TOG damage, 002:597). */
typedef struct weapon {
    char name[64];
    char damage[48];
    char kind[16];
    int tog_req;
} weapon;

static int pick_weapon(rules_enc *e, const char *cid, const rules_args *a, weapon *w, tb_err *err)
{
    json_t *list = json_object_get(rules_enc_stats(e, cid), "weapons");
    int wi = rules_arg_int(a, "weapon");
    memset(w, 0, sizeof *w);
    if (rules_arg_given(a, "weapon") || (json_array_size(list) && !rules_arg_given(a, "damage"))) {
        json_t *x = json_array_get(list, (size_t)(wi - 1));
        if (!x)
            return tb_fail(err, TB_BAD_REQUEST,
                           "enc.act attack: %s has no weapon %d (the sheet "
                           "lists %zu)",
                           nm(e, cid), wi, json_array_size(list));
        snprintf(w->name, sizeof w->name, "%s", json_string_value(json_object_get(x, "name")));
        snprintf(w->damage, sizeof w->damage, "%s",
                 json_string_value(json_object_get(x, "damage")));
        snprintf(w->kind, sizeof w->kind, "%s", json_string_value(json_object_get(x, "kind")));
        w->tog_req = geti(x, "tog_req", 0);
    } else if (rules_arg_given(a, "damage")) {
        snprintf(w->name, sizeof w->name, "an attack");
        snprintf(w->damage, sizeof w->damage, "%s", rules_arg_str(a, "damage"));
        snprintf(w->kind, sizeof w->kind, "%s", "light");
    } else {
        snprintf(w->name, sizeof w->name, "bare hands");
        snprintf(w->damage, sizeof w->damage, "0");
        snprintf(w->kind, sizeof w->kind, "light");
    }
    const char *k = rules_arg_str(a, "kind");
    if (k) {
        if (strcmp(k, "light") && strcmp(k, "heavy") && strcmp(k, "ranged") &&
            strcmp(k, "supernatural"))
            return tb_fail(err, TB_BAD_REQUEST,
                           "enc.act attack: 'kind' must be light, heavy, "
                           "ranged or supernatural");
        snprintf(w->kind, sizeof w->kind, "%s", k);
    }
    /* the damage dice read before the attack is rolled: a refused attack draws no die */
    rules_dice_expr *dx = NULL;
    if (rules_dice_parse(w->damage, &dx, err))
        return err->code;
    rules_dice_free(dx);
    return 0;
}

static int melee(const weapon *w, int thrown)
{
    return thrown || strcmp(w->kind, "light") == 0 || strcmp(w->kind, "heavy") == 0;
}

/* Damage of a hit: the weapon's dice + TOG for melee and thrown attacks, never below 1
 * (002:108, 002:563), doubled on a natural 20 (002:59), halved on a PC-vs-PC tie (002:541). */
static int roll_damage(rules_enc *e, const char *cid, const char *expr, int add_tog, int critical,
                       int half, json_t *dice, tb_err *err)
{
    rules_dice_expr *x = NULL;
    if (rules_dice_parse(expr, &x, err))
        return -1;
    json_t *r = rules_dice_roll(x, e->rng);
    rules_dice_free(x);
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(r, "dice"), i, d) json_array_append(dice, d);
    int roll = (int)json_integer_value(json_object_get(r, "total"));
    json_decref(r);
    int dmg = add_tog ? grimwire_melee_damage(roll, attr(e, cid, "tog"), critical)
                      : (roll < 1 ? 1 : roll) * (critical ? 2 : 1);
    if (half)
        dmg = dmg / 2 < 1 ? 1 : dmg / 2;
    return dmg;
}

/* Hidden pending natural 1 (002:553-559): what the attack would do to whoever it hits. */
static void set_pending(rules_enc *e, const char *cid, const char *target, const weapon *w,
                        int thrown, const char *type)
{
    json_object_set_new(
        e->enc, "pending",
        json_pack("{s:s, s:s, s:s}", "attacker", cid, "target", target, "weapon", w->name));
    json_object_set_new(e->hidden, "pending",
                        json_pack("{s:s, s:s, s:b, s:s}", "attacker", cid, "damage", w->damage,
                                  "melee", melee(w, thrown), "type", type));
}

static int attack_resolve(rules_enc *e, const rules_args *a, const char *cid, const char *t,
                          weapon w, const char *type, int thrown, int extra, int first, int tn,
                          int pc_vs_pc, int evade, tb_err *err);
static int maneuver_resolve(rules_enc *e, const char *name, const rules_args *a, const char *cid,
                            const char *t, int tn, int pc_vs_pc, int evade, tb_err *err);

/*
 * A player's attack on a foe whose target number the GM has not set (issue 15, item 5): the
 * player is not refused and never asked for the number (002:53 "usually the GM will not disclose
 * the target number"), and the rulebook gives no default one (RULES.md, grimwire encounters). The
 * attack is checked and its action spent like any attack; no die is rolled. It waits in
 * /gm/enc/waiting {attacker, params, first} (the GM's question) and /enc/waiting {attacker,
 * target} (the table sees it wait, never a number) until the GM sets the target's `tn` with
 * set_tn, which rolls it (attack_resume). Until then every other action waits too.
 */
static int attack_wait(rules_enc *e, const char *action, const rules_args *a, const char *cid,
                       const char *t, int first)
{
    json_object_set_new(e->hidden, "waiting",
                        json_pack("{s:s, s:o, s:b, s:s}", "attacker", cid, "params",
                                  rules_args_json(a), "first", first, "action", action));
    json_object_set_new(e->enc, "waiting", json_pack("{s:s, s:s}", "attacker", cid, "target", t));
    rules_enc_log(e, "attack", NULL, NULL, "%s attacks %s: the GM names the target number",
                  nm(e, cid), nm(e, t));
    rules_enc_log_gm(e, "attack", NULL, json_pack("{s:s}", "target", t),
                     "%s's attack waits for the target number to hit %s: set it (002:29-53)",
                     nm(e, cid), nm(e, t));
    return 0;
}

/* The waiting attack (attack_wait), once the GM set the target number: rolled as its attacker's,
 * against that number; the waiting marks are gone. */
static int attack_resume(rules_enc *e, tb_err *err)
{
    json_t *wait = json_incref(json_object_get(e->hidden, "waiting"));
    char cid[24];
    snprintf(cid, sizeof cid, "%s", json_string_value(json_object_get(wait, "attacker")));
    json_object_del(e->hidden, "waiting");
    json_object_del(e->enc, "waiting");
    const char *name = json_string_value(json_object_get(wait, "action"));
    if (!name)
        name = "attack"; /* a wait saved before issue 17 */
    const rules_enc_action *act = rules_module_action(e->mod, name);
    rules_args aa;
    weapon w;
    int rc =
        act ? rules_args_parse("enc.act", act->params, json_object_get(wait, "params"), &aa, err)
            : rules_enc_rule(err, "the waiting action is unknown");
    const char *t = rc ? NULL : rules_arg_str(&aa, "target");
    if (!rc && (!rules_enc_combatant(e, cid) || !rules_enc_combatant(e, t)))
        rc = rules_enc_rule(err, "the waiting attack's combatants have left the encounter");
    if (!rc && strcmp(name, "attack") != 0) {
        const char *was = e->actor;
        e->actor = cid;
        rc = maneuver_resolve(
            e, name, &aa, cid, t,
            (int)json_integer_value(json_object_get(rules_enc_hidden_of(e, t), "tn")), 0, 0, err);
        e->actor = was;
        json_decref(wait);
        return rc;
    }
    if (!rc)
        rc = pick_weapon(e, cid, &aa, &w, err);
    if (!rc) {
        const char *type = rules_arg_str(&aa, "type");
        if (!type)
            type = strcmp(w.kind, "supernatural") == 0 ? "supernatural" : "physical";
        const char *was = e->actor;
        e->actor = cid; /* the log names the attacker, as when the player attacked */
        rc = attack_resolve(
            e, &aa, cid, t, w, type, rules_arg_int(&aa, "thrown"), rules_arg_int(&aa, "mod"),
            json_is_true(json_object_get(wait, "first")),
            (int)json_integer_value(json_object_get(rules_enc_hidden_of(e, t), "tn")), 0, 0, err);
        e->actor = was;
    }
    json_decref(wait);
    return rc;
}

enum { HIT_WAIT = -1 };

/*
 * How a hit of cid on t is judged (002:29, 002:53, 002:531, 002:545, 002:767-769): *pc_vs_pc for
 * COR against the PC target's AGL; *evade for a PC's AGL roll against the NPC attacker's hidden
 * `attack_tn`; else COR against t's hidden `tn` (or the GM's `tn` argument). A dying target needs
 * no number (002:256). Returns 0 with *tn set, HIT_WAIT when a player's roll waits for the GM's
 * number (reading G4), or TB_RULE when the GM's own roll has no number.
 */
static int hit_tn(rules_enc *e, const rules_args *a, const char *cid, const char *t, int *tn,
                  int *pc_vs_pc, int *evade, tb_err *err)
{
    *pc_vs_pc = !npc(e, cid) && !npc(e, t);
    *evade = npc(e, cid) && !npc(e, t);
    *tn = 0;
    if (*pc_vs_pc || dying(e, t))
        return 0;
    const char *key = *evade ? "attack_tn" : "tn";
    json_t *v = json_object_get(hidden_get(e, *evade ? cid : t), key);
    if (rules_arg_given(a, "tn"))
        *tn = rules_arg_int(a, "tn");
    else if (json_is_integer(v))
        *tn = (int)json_integer_value(v);
    else if (!e->is_gm && !*evade)
        return HIT_WAIT;
    else
        return rules_enc_rule(err,
                              *evade ? "the GM has not set the target number for evading %s's "
                                       "attacks (set_tn attack_tn, 002:767-769)"
                                     : "the GM has not set the target number to hit %s (set_tn, "
                                       "002:29-53)",
                              *evade ? nm(e, cid) : nm(e, t));
    return 0;
}

static int do_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target");
    int thrown = rules_arg_int(a, "thrown"), extra = rules_arg_int(a, "mod");
    weapon w;
    if (strcmp(cid, t) == 0)
        return rules_enc_rule(err, "%s cannot attack themselves", nm(e, cid));
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight", nm(e, t));
    if ((rules_arg_given(a, "tn") || rules_arg_given(a, "tog_tn")) && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM sets target numbers (002:29, 002:53)");
    if (rules_arg_given(a, "raise") && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN,
                       "only the GM says how much harder a targeted attack is (002:653)");
    if (rules_arg_int(a, "nonlethal") && npc(e, cid))
        return rules_enc_rule(err, "holding back is a player character's choice (002:649)");
    if (rules_arg_int(a, "nonlethal") && rules_arg_str(a, "effect"))
        return rules_enc_rule(err, "a targeted attack does no damage to hold back (002:653)");
    if (pick_weapon(e, cid, a, &w, err))
        return err->code;
    const char *type = rules_arg_str(a, "type");
    if (type && !known_type(type))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act attack: unknown damage type '%.40s' "
                       "(002:695-721)",
                       type);
    if (!type)
        type = strcmp(w.kind, "supernatural") == 0 ? "supernatural" : "physical";
    /* spending: the action, or one of the extra light-weapon attacks (002:567-579, 002:585) */
    int light = strcmp(w.kind, "light") == 0;
    int extra_left = rules_enc_budget_left(e, cid, "attacks"), first = 0;
    if (extra_left > 0) {
        if (!light)
            return rules_enc_rule(err, "the extra attacks from COR are for light weapons only "
                                       "(002:567, 002:585)");
        rules_enc_spend(e, cid, "attacks", 1, err);
    } else {
        json_t *b = json_object_get(comb(e, cid), "budget");
        if (json_object_get(b, "attacks") && rules_enc_budget_left(e, cid, "action") < 1)
            return rules_enc_rule(err,
                                  "%s has made every attack of the turn: COR %d gives %d "
                                  "with light weapons (002:569-579)",
                                  nm(e, cid), attr(e, cid, "cor"),
                                  grimwire_light_attacks(attr(e, cid, "cor")));
        if (use_action(e, cid, err))
            return err->code;
        first = 1;
        int n = light ? grimwire_light_attacks(attr(e, cid, "cor")) +
                            (has(e, cid, "frenzy") || has(e, cid, "amok"))
                      : 1;
        if (n > 1)
            rules_enc_budget_set(e, cid, "attacks", n - 1);
    }
    int pc_vs_pc, evade, tn;
    int rc = hit_tn(e, a, cid, t, &tn, &pc_vs_pc, &evade, err);
    if (rc == HIT_WAIT)
        return attack_wait(e, "attack", a, cid, t, first);
    if (rc)
        return rc;
    return attack_resolve(e, a, cid, t, w, type, thrown, extra, first, tn, pc_vs_pc, evade, err);
}

/* The dice of an attack whose target number is known (do_attack, attack_resume): everything
 * after the checks and the spending. */
static int attack_resolve(rules_enc *e, const rules_args *a, const char *cid, const char *t,
                          weapon w, const char *type, int thrown, int extra, int first, int tn,
                          int pc_vs_pc, int evade, tb_err *err)
{
    /* the target number is known before any die: a grappled attacker's roll comes after */
    if (first && has(e, cid, "grappled") && !grapple_roll(e, cid, 0))
        return 0;
    /* 002:589 "If a character does not meet the requirement, they can still use the weapon.
     * However, they must make a TOG roll before each attack. If the character fails this roll,
     * they aren't strong enough to swing the weapon." Against the GM's `tog_tn` (default 11,
     * RULES.md grimwire encounters) */
    if (strcmp(w.kind, "heavy") == 0 && attr(e, cid, "tog") < w.tog_req) {
        int ttn =
            rules_arg_given(a, "tog_tn") ? rules_arg_int(a, "tog_tn") : GRIMWIRE_COLLATERAL_TN;
        json_t *td = json_array();
        grimwire_roll tr = roll_attr(e, cid, "tog", GRIMWIRE_USE_PLAIN, 0, ttn, 0, 0, td);
        rules_enc_log_gm(
            e, "heave", NULL,
            json_pack("{s:i, s:i, s:b}", "total", tr.total, "tn", ttn, "success", tr.success),
            "%s's TOG roll to swing a heavy weapon: %d vs TN %d", nm(e, cid), tr.total, ttn);
        if (npc(e, cid)) {
            json_decref(td);
            td = NULL;
        }
        rules_enc_log(e, "heave", td, roll_json(&tr, npc(e, cid)), "%s heaves the %s%s", nm(e, cid),
                      w.name,
                      tr.success ? " and swings it"
                                 : ", but is not strong enough to swing it: the attack is lost");
        if (!tr.success)
            return 0;
    }
    /* 002:653 a targeted attack raises the target number (by 3 unless the GM says otherwise);
     * 002:521-523 the first attack of a surprise gets +5 (+2 on alert) to hit. Against a PC who
     * evades, both move the PC's number the other way (reading G12). */
    const char *effect = rules_arg_str(a, "effect");
    int raise = effect ? rules_arg_int(a, "raise") : 0;
    int bonus = surprise_bonus(e, cid);
    if (evade)
        tn += bonus - raise;
    else if (pc_vs_pc)
        extra += bonus - raise;
    else {
        extra += bonus;
        tn += raise;
    }
    json_t *dice = json_array();
    int hit, critical = 0, collateral = 0, half = 0, natural = 0;
    /* 002:755-761 someone shielding the target steps in first */
    const char *sh = shield_for(e, cid, t);
    int shielded = sh && shield_roll(e, sh, cid, t);
    if (shielded)
        t = sh;
    json_t *res = json_pack("{s:s, s:s, s:s}", "target", t, "weapon", w.name, "type", type);
    if (effect)
        json_object_set_new(res, "effect", json_string(effect));
    char line[200];
    if (shielded) {
        hit = 1;
        snprintf(line, sizeof line, "%s takes the blow as a shield (002:757)", nm(e, t));
    } else if (dying(e, t)) {
        /* 002:256 "Attacks targeting them automatically hit" */
        hit = 1;
        snprintf(line, sizeof line, "%s is dying and cannot defend: the attack hits (002:256)",
                 nm(e, t));
    } else if (pc_vs_pc) {
        /* 002:531 player vs player: COR against AGL, the higher wins; 002:541 ties: half */
        grimwire_roll ar =
            roll_attr(e, cid, "cor", GRIMWIRE_USE_ATTACK, extra, 0, 1,
                      grimwire_ff_range(attr(e, cid, "tog"), w.tog_req,
                                        has(e, cid, "frenzy") || has(e, cid, "amok")),
                      dice);
        grimwire_roll dr = roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, 0, 0, 0, dice);
        critical = ar.critical;
        collateral = ar.collateral;
        natural = ar.natural;
        if (collateral || ar.natural == 1)
            hit = 0;
        else if (critical || dr.natural == 1 || auto_fails(e, t, "agl"))
            hit = 1;
        else if (ar.total == dr.total)
            hit = half = 1;
        else
            hit = ar.total > dr.total;
        json_object_set_new(res, "attack", roll_json(&ar, 0));
        json_object_set_new(res, "evade", roll_json(&dr, 0));
        snprintf(line, sizeof line, "COR d20 %d %+d %+d = %d vs AGL d20 %d %+d %+d = %d%s",
                 ar.natural, ar.attr, ar.mod, ar.total, dr.natural, dr.attr, dr.mod, dr.total,
                 half ? ": a tie, half damage (002:541)" : "");
    } else if (evade) {
        /* an NPC's attack: the PC rolls AGL to evade, against the GM's number (002:767-769) */
        grimwire_roll dr = roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, tn, 0, 0, dice);
        hit = !dr.success;
        json_object_set_new(res, "evade", roll_json(&dr, 0));
        rules_enc_log_gm(e, "attack", NULL, json_pack("{s:s, s:i}", "target", t, "tn", tn),
                         "%s evades on AGL %d against TN %d", nm(e, t), dr.total, tn);
        snprintf(line, sizeof line, "%s rolls AGL to evade: d20 %d %+d %+d = %d, %s", nm(e, t),
                 dr.natural, dr.attr, dr.mod, dr.total, hit ? "fails" : "evades");
    } else {
        /* against an NPC: COR against the GM's target number (002:545) */
        grimwire_roll ar =
            roll_attr(e, cid, "cor", GRIMWIRE_USE_ATTACK, extra, tn, 1,
                      grimwire_ff_range(attr(e, cid, "tog"), w.tog_req,
                                        has(e, cid, "frenzy") || has(e, cid, "amok")),
                      dice);
        hit = ar.success;
        critical = ar.critical;
        collateral = ar.collateral;
        natural = ar.natural;
        json_object_set_new(res, "attack", roll_json(&ar, npc(e, cid)));
        rules_enc_log_gm(e, "attack", NULL,
                         json_pack("{s:s, s:i, s:i}", "target", t, "total", ar.total, "tn", tn),
                         "%s's COR roll %d against TN %d", nm(e, cid), ar.total, tn);
        if (npc(e, cid))
            snprintf(line, sizeof line, "COR d20 %d", ar.natural);
        else
            snprintf(line, sizeof line, "COR d20 %d %+d %+d = %d", ar.natural, ar.attr, ar.mod,
                     ar.total);
    }
    json_object_set_new(res, "hit", json_boolean(hit));
    if (collateral) {
        set_pending(e, cid, t, &w, thrown, type);
        rules_enc_log(e, "attack", dice, res,
                      "%s attacks %s with %s: %s: a natural %d, the attack may hit someone "
                      "else; the GM picks who (002:553-555, 002:633)",
                      nm(e, cid), nm(e, t), w.name, line, natural);
        return 0;
    }
    if (!hit) {
        rules_enc_log(e, "attack", dice, res, "%s attacks %s with %s: %s: a miss", nm(e, cid),
                      nm(e, t), w.name, line);
        return 0;
    }
    if (effect) { /* on the shield too: it takes what the attack does (reading G15) */
        /* 002:653 "effects other than damage": a hit causes the effect instead of damage
         * (reading G12); a status effect the module knows is put on the target */
        int st = is_status(effect);
        if (st)
            rules_enc_cond_add(e, t, effect, rules_arg_int(a, "turns"), 0);
        rules_enc_log(e, "attack", dice, res,
                      "%s makes a targeted attack on %s with %s (%s): %s: a hit, %s (002:653)",
                      nm(e, cid), nm(e, t), w.name, effect, line,
                      st ? "the effect takes hold" : "the GM says what it does");
        if (st && strcmp(effect, "knocked_down") != 0 && incapacity(e, t))
            grapples_end(e, t, "is out cold");
        return 0;
    }
    json_t *ddice = json_array();
    int dmg = roll_damage(e, cid, w.damage, melee(&w, thrown), critical, half, ddice, err);
    if (dmg < 0) {
        json_decref(ddice);
        json_decref(dice);
        json_decref(res);
        return err->code;
    }
    json_object_set_new(res, "damage", json_integer(dmg));
    json_object_set_new(res, "critical", json_boolean(critical));
    /* the damage dealt is open (it lands on the target's track); an NPC's damage dice and the
     * formula would give its TOG away with it, so they are the GM's */
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_enc_entry *x = rules_enc_entry_begin(e, "attack");
    rules_enc_entry_dice(x, RULES_AUD_PUBLIC, dice);
    rules_enc_entry_dice(x, aud, ddice);
    json_decref(dice);
    json_decref(ddice);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC, res);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s attacks %s with %s: %s: a hit%s for %d damage",
                        nm(e, cid), nm(e, t), w.name, line,
                        critical ? " (natural 20: double damage, 002:59)" : "", dmg);
    rules_enc_entry_say(x, aud, " (%s%s)", w.damage,
                        melee(&w, thrown) ? " + TOG, at least 1, 002:563" : "");
    rules_enc_entry_end(x);
    char src[CAUSE_MAX];
    if (strcmp(w.name, "an attack") == 0)
        snprintf(src, sizeof src, "an attack by %s", nm(e, cid));
    else
        snprintf(src, sizeof src, "%s's %s", nm(e, cid), w.name);
    take_damage_as(e, t, dmg, type, src, rules_arg_int(a, "nonlethal"));
    return 0;
}

static int do_collateral(rules_enc *e, const rules_args *a, tb_err *err)
{
    json_t *pub = json_object_get(e->enc, "pending");
    json_t *hid = json_object_get(e->hidden, "pending");
    if (!json_is_object(pub) || !json_is_object(hid))
        return rules_enc_rule(err, "no natural 1 is waiting for its unintended target");
    const char *t = rules_arg_str(a, "target");
    char atk[48];
    snprintf(atk, sizeof atk, "%s", json_string_value(json_object_get(hid, "attacker")));
    if (!t) {
        rules_enc_log(e, "collateral", NULL, NULL,
                      "%s's natural 1 hits nobody: no one else is in range (002:555)", nm(e, atk));
        json_object_del(e->enc, "pending");
        json_object_del(e->hidden, "pending");
        return 0;
    }
    /* 002:557 AGL 11 to avoid; 002:559 the attacker may add their COR to spare them (by default
     * an ally: someone on the attacker's side) */
    int spare = rules_arg_given(a, "spare")
                    ? rules_arg_int(a, "spare")
                    : strcmp(rules_enc_side(e, t), rules_enc_side(e, atk)) == 0;
    int tn = spare ? grimwire_collateral_tn(attr(e, atk, "cor")) : GRIMWIRE_COLLATERAL_TN;
    json_t *dice = json_array();
    int hit;
    json_t *res = json_pack("{s:s, s:b}", "target", t, "spare", spare);
    if (dying(e, t)) {
        hit = 1;
    } else {
        grimwire_roll r = roll_attr(e, t, "agl", GRIMWIRE_USE_PLAIN, 0, tn, 0, 0, dice);
        hit = !r.success;
        json_object_set_new(res, "evade", roll_json(&r, npc(e, t)));
    }
    json_object_set_new(res, "hit", json_boolean(hit));
    if (!npc(e, atk))
        json_object_set_new(res, "avoid_tn", json_integer(tn));
    rules_enc_log_gm(e, "collateral", NULL, json_pack("{s:i}", "tn", tn),
                     "the unintended target's AGL target number: %d", tn);
    if (!npc(e, atk))
        rules_enc_log(e, "collateral", dice, res,
                      "%s's natural 1 may hit %s: AGL %d to avoid (11%s, 002:557-559): %s",
                      nm(e, atk), nm(e, t), tn, spare ? " minus the attacker's COR" : "",
                      hit ? "hit" : "avoided");
    else
        rules_enc_log(e, "collateral", dice, res,
                      "%s's natural 1 may hit %s: an AGL roll to avoid (002:557-559): %s",
                      nm(e, atk), nm(e, t), hit ? "hit" : "avoided");
    if (hit) {
        json_t *ddice = json_array();
        int dmg = roll_damage(e, atk, json_string_value(json_object_get(hid, "damage")),
                              json_is_true(json_object_get(hid, "melee")), 0, 0, ddice, err);
        if (dmg < 0) {
            json_decref(ddice);
            return err->code;
        }
        rules_enc_log(e, "collateral", ddice, json_pack("{s:s, s:i}", "target", t, "damage", dmg),
                      "%s is hit for %d damage", nm(e, t), dmg);
        char src[CAUSE_MAX];
        snprintf(src, sizeof src, "%s's stray attack", nm(e, atk));
        take_damage(e, t, dmg, json_string_value(json_object_get(hid, "type")), src);
    }
    json_object_del(e->enc, "pending");
    json_object_del(e->hidden, "pending");
    return 0;
}

/*
 * The round whose action (`aux`: auxiliary action) a reaction of cid takes now (002:433-451):
 * this round's if unused, else next round's; -1 with err set when cid cannot react (before the
 * rounds, out cold, stunned, paralysed, both spent). Changes nothing: reaction_spend does.
 */
static int reaction_round(rules_enc *e, const char *cid, int aux, tb_err *err)
{
    int r = rules_enc_round(e);
    const char *why = incapacity(e, cid);
    if (r < 1)
        rules_enc_rule(err, "reactions happen during conflict rounds: the GM rolls initiative "
                            "first (002:399-401)");
    else if (why)
        rules_enc_rule(err, "%s cannot react: %s (002:256)", nm(e, cid), why);
    else if (has(e, cid, "stun") || has(e, cid, "paralysis"))
        rules_enc_rule(err, "%s is %s and cannot act (002:824, 002:828)", nm(e, cid),
                       has(e, cid, "stun") ? "stunned" : "paralysed");
    else {
        int s = spent(e, cid, aux ? "aux" : "action");
        if (s < r)
            return r; /* 002:437 before (or without) acting: this round's */
        if (s == r)
            return r + 1; /* 002:439 already acted: next round's */
        rules_enc_rule(err,
                       "%s already spent round %d's %s on a reaction: no reaction until then "
                       "(002:439)",
                       nm(e, cid), s, aux ? "auxiliary action" : "action");
    }
    return -1;
}

/* Spends the action (or aux) of round `uses` on a reaction (reaction_round). */
static void reaction_spend(rules_enc *e, const char *cid, int aux, int uses)
{
    const char *kind = aux ? "aux" : "action";
    spent_set(e, cid, kind, uses);
    json_object_set_new(obj(comb(e, cid), "reacted"), kind, json_integer(uses));
    if (uses == rules_enc_round(e)) {
        budget_zero(e, cid, kind);
        if (rules_enc_current(e) && strcmp(rules_enc_current(e), cid) == 0)
            mark_used(e, cid);
    }
}

/* ---- combat options (issue 17): 002:647-689, 002:723-761, 002:258, 002:733-735 ---- */

/* The checks every move on another combatant shares: not oneself, not someone out of the fight. */
static int on_other(rules_enc *e, const char *cid, const char *t, const char *what, tb_err *err)
{
    if (strcmp(cid, t) == 0)
        return rules_enc_rule(err, "%s cannot %s themselves", nm(e, cid), what);
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight", nm(e, t));
    return 0;
}

/*
 * The COR roll that lands a shove or grabs for a grapple (002:657, 002:665), judged like an
 * attack's hit (hit_tn: the target's hidden number, the PC's AGL to evade an NPC, or COR against
 * AGL between PCs, a tie to the defender) with `extra`; a dying target is grabbed without a roll.
 * No damage, no stray hit on a natural 1 (it simply misses). Dice to `dice`, the public view of
 * the rolls into res; the numbers to the GM's log. Returns 1 when it lands.
 */
static int land_roll(rules_enc *e, const char *cid, const char *t, int extra, int tn, int pc_vs_pc,
                     int evade, json_t *dice, json_t *res)
{
    if (dying(e, t))
        return 1;
    if (pc_vs_pc)
        return opposed(e, cid, "cor", extra, t, "agl", 0, "evade", dice, res, NULL, NULL);
    if (evade) {
        grimwire_roll dr = roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, tn, 0, 0, dice);
        json_object_set_new(res, "evade", roll_json(&dr, 0));
        rules_enc_log_gm(e, "land", NULL, json_pack("{s:i}", "tn", tn), "%s's AGL %d against TN %d",
                         nm(e, t), dr.total, tn);
        return !dr.success;
    }
    grimwire_roll ar = roll_attr(e, cid, "cor", GRIMWIRE_USE_ATTACK, extra, tn, 1, 1, dice);
    json_object_set_new(res, "attack", roll_json(&ar, npc(e, cid)));
    rules_enc_log_gm(e, "land", NULL, json_pack("{s:i, s:i}", "total", ar.total, "tn", tn),
                     "%s's COR roll %d against TN %d", nm(e, cid), ar.total, tn);
    return ar.success;
}

/* The checks of a shove or grapple before anything changes (validate before you roll). */
static int maneuver_check(rules_enc *e, const char *name, const rules_args *a, const char *cid,
                          const char *t, tb_err *err)
{
    if (on_other(e, cid, t, name, err))
        return err->code;
    if (rules_arg_given(a, "tn") && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM sets target numbers (002:29, 002:53)");
    if (strcmp(name, "grapple") == 0) {
        json_t *g = rules_enc_cond(e, t, "grappled");
        if (g && rules_enc_streq(json_string_value(json_object_get(g, "by")), cid))
            return rules_enc_rule(err, "%s already holds %s", nm(e, cid), nm(e, t));
        if (g)
            return rules_enc_rule(err,
                                  "%s is already held by %s: one grappler at a time is kept "
                                  "(the GM handles a second one)",
                                  nm(e, t), nm(e, json_string_value(json_object_get(g, "by"))));
    }
    return 0;
}

/*
 * Shove (002:657): the COR roll to land it, then a TOG roll opposed by the target's TOG (reading
 * G13); both won: the target is pushed back up to 3 m (the GM says how far) and rolls AGL against
 * the force of the shove (the shover's TOG total, reading G13) to stay on its feet, else it is
 * knocked down.
 * Grapple (002:665): the COR roll to grab, then the better of TOG and COR opposed by the target's
 * better of the two to hold (reading G8); held: the target is `grappled` by cid until it breaks
 * free (break_free), cid lets go (release) or cid is out cold.
 */
static int maneuver_resolve(rules_enc *e, const char *name, const rules_args *a, const char *cid,
                            const char *t, int tn, int pc_vs_pc, int evade, tb_err *err)
{
    (void)err;
    int shove = strcmp(name, "shove") == 0;
    if (has(e, cid, "grappled") && !grapple_roll(e, cid, 0))
        return 0;
    json_t *dice = json_array();
    json_t *res = json_pack("{s:s}", "target", t);
    int landed = land_roll(e, cid, t, rules_arg_int(a, "mod"), tn, pc_vs_pc, evade, dice, res);
    json_object_set_new(res, "landed", json_boolean(landed));
    rules_enc_log(e, name, dice, res, "%s tries to %s %s: the %s %s (%s)", nm(e, cid),
                  shove ? "shove" : "grab", nm(e, t), shove ? "shove" : "grab",
                  landed ? "lands" : "misses", shove ? "002:657" : "002:665");
    if (!landed)
        return 0;
    dice = json_array();
    res = json_pack("{s:s}", "target", t);
    int force = 0, won;
    if (shove)
        won = opposed(e, cid, "tog", 0, t, "tog", 0, "target", dice, res, &force, NULL);
    else
        won = opposed(e, cid, tog_or_cor(e, cid), 0, t, tog_or_cor(e, t), 0, "target", dice, res,
                      NULL, NULL);
    if (!shove) {
        if (won) {
            rules_enc_cond_add(e, t, "grappled", 0, 0);
            json_object_set_new(rules_enc_cond(e, t, "grappled"), "by", json_string(cid));
        }
        rules_enc_log(e, "grapple", dice, res, "%s %s (002:665)", nm(e, cid),
                      won ? "holds on: the target is grappled" : "cannot hold on");
        if (won)
            rules_enc_log(e, "grapple", NULL, NULL, "%s is grappled by %s", nm(e, t), nm(e, cid));
        return 0;
    }
    rules_enc_log(e, "shove", dice, res, "%s pushes %s (002:657)", nm(e, cid),
                  won ? "hard enough: the target is pushed back up to 3 m, the GM says how far"
                      : "but the target stands firm");
    if (!won || dying(e, t) || has(e, t, "knocked_down"))
        return 0;
    dice = json_array();
    grimwire_roll st = roll_attr(e, t, "agl", GRIMWIRE_USE_PLAIN, 0, force, 0, 0, dice);
    rules_enc_log_gm(e, "shove", NULL, json_pack("{s:i, s:i}", "total", st.total, "tn", force),
                     "%s's AGL %d against the force of the shove %d", nm(e, t), st.total, force);
    if (!st.success)
        rules_enc_cond_add(e, t, "knocked_down", 0, 0);
    rules_enc_log(e, "shove", dice, roll_json(&st, npc(e, t)), "%s %s (002:657)", nm(e, t),
                  st.success ? "keeps their feet" : "is knocked down");
    return 0;
}

static int do_maneuver(rules_enc *e, const char *name, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target");
    if (maneuver_check(e, name, a, cid, t, err))
        return err->code;
    int pc_vs_pc, evade, tn;
    int rc = hit_tn(e, a, cid, t, &tn, &pc_vs_pc, &evade, err);
    if (rc > 0)
        return rc;
    if (use_action(e, cid, err))
        return err->code;
    if (rc == HIT_WAIT)
        return attack_wait(e, name, a, cid, t, 1);
    return maneuver_resolve(e, name, a, cid, t, tn, pc_vs_pc, evade, err);
}

static int do_shove(rules_enc *e, const rules_args *a, tb_err *err)
{
    return do_maneuver(e, "shove", a, err);
}

static int do_grapple(rules_enc *e, const rules_args *a, tb_err *err)
{
    return do_maneuver(e, "grapple", a, err);
}

/* 002:661 a trip: AGL opposed by the target's AGL (a tie to the target); the tripped target is
 * knocked down (002:794-801). */
static int do_trip(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target");
    if (on_other(e, cid, t, "trip", err))
        return err->code;
    if (has(e, t, "knocked_down") || dying(e, t))
        return rules_enc_rule(err, "%s is already on the ground", nm(e, t));
    if (use_action(e, cid, err))
        return err->code;
    if (has(e, cid, "grappled") && !grapple_roll(e, cid, 0))
        return 0;
    json_t *dice = json_array();
    json_t *res = json_pack("{s:s}", "target", t);
    int won = opposed(e, cid, "agl", rules_arg_int(a, "mod"), t, "agl", 0, "target", dice, res,
                      NULL, NULL);
    if (won)
        rules_enc_cond_add(e, t, "knocked_down", 0, 0);
    rules_enc_log(e, "trip", dice, res, "%s tries to trip %s: %s (002:661)", nm(e, cid), nm(e, t),
                  won ? "down they go, knocked down" : "they keep their feet");
    return 0;
}

/* Letting go of a grappled target (reading G14: free, at any time, like ending one's own hold). */
static int do_release(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target");
    json_t *g = rules_enc_cond(e, t, "grappled");
    if (!g || !rules_enc_streq(json_string_value(json_object_get(g, "by")), cid))
        return rules_enc_rule(err, "%s is not holding %s", nm(e, cid), nm(e, t));
    rules_enc_cond_remove(e, t, "grappled");
    rules_enc_log(e, "release", NULL, json_pack("{s:s}", "target", t), "%s lets go of %s",
                  nm(e, cid), nm(e, t));
    return 0;
}

/*
 * 002:755-761 shielding another: an auxiliary reaction that covers `target` for the rest of
 * the round against one attacker (the first who attacks it; several of that one's attacks). The
 * opposed roll comes with each attack (shield_roll); declared before the attack (reading G15).
 */
static int do_shield(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target");
    if (on_other(e, cid, t, "shield", err))
        return err->code;
    json_t *old = json_object_get(comb(e, cid), "shield");
    if (old && geti(old, "round", 0) == rules_enc_round(e))
        return rules_enc_rule(err, "%s already shields %s this round (002:761)", nm(e, cid),
                              nm(e, json_string_value(json_object_get(old, "target"))));
    int uses = reaction_round(e, cid, 1, err);
    if (uses < 0)
        return err->code;
    reaction_spend(e, cid, 1, uses);
    json_object_set_new(comb(e, cid), "shield",
                        json_pack("{s:s, s:i}", "target", t, "round", rules_enc_round(e)));
    rules_enc_log(e, "shield", NULL, json_pack("{s:s, s:i}", "target", t, "uses_round", uses),
                  "%s stands ready to shield %s this round, an auxiliary reaction (002:755-761)",
                  nm(e, cid), nm(e, t));
    return 0;
}

/* A comma list of combatant ids (splash, area): each known, none twice; at most 16. */
static int id_list(rules_enc *e, const char *s, char ids[16][32], size_t *n, tb_err *err)
{
    char buf[400];
    *n = 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok;
         tok = strtok_r(NULL, ", ", &save)) {
        if (*n == 16)
            return tb_fail(err, TB_BAD_REQUEST, "enc.act: at most 16 targets");
        if (!comb(e, tok))
            return tb_fail(err, TB_NOT_FOUND, "enc.act: no combatant '%.31s'", tok);
        for (size_t i = 0; i < *n; i++)
            if (strcmp(ids[i], tok) == 0)
                return tb_fail(err, TB_BAD_REQUEST, "enc.act: '%.31s' is named twice", tok);
        snprintf(ids[(*n)++], 32, "%s", tok);
    }
    if (*n == 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act: name at least one target");
    return 0;
}

/* The damage expression of a blast or an area, parsed before any die is rolled. */
static int check_damage(const rules_args *a, tb_err *err)
{
    const char *type = rules_arg_str(a, "type");
    if (type && !known_type(type))
        return tb_fail(err, TB_BAD_REQUEST, "enc.act: unknown damage type '%.40s' (002:695-721)",
                       type);
    rules_dice_expr *dx = NULL;
    if (rules_dice_parse(rules_arg_str(a, "damage"), &dx, err))
        return err->code;
    rules_dice_free(dx);
    return 0;
}

/* One roll of a damage expression already checked (check_damage), at least 0. */
static int roll_plain(rules_enc *e, const char *expr, json_t *dice)
{
    tb_err err = {0};
    int d = roll_damage(e, NULL, expr, 0, 0, 0, dice, &err);
    return d < 0 ? 0 : d;
}

/*
 * 002:725 splash damage (a grenade): one damage roll for the blast; each target in it rolls AGL
 * against the GM's number to avoid the worst of it and takes half (rounded down, at least 1,
 * reading G16); a dying target cannot roll.
 */
static int do_splash(rules_enc *e, const rules_args *a, tb_err *err)
{
    char ids[16][32];
    size_t n;
    if (id_list(e, rules_arg_str(a, "who"), ids, &n, err) || check_damage(a, err))
        return err->code;
    for (size_t i = 0; i < n; i++)
        if (rules_enc_is_out(e, ids[i]))
            return rules_enc_rule(err, "%s is out of the fight", nm(e, ids[i]));
    int tn = rules_arg_int(a, "tn");
    const char *type = rules_arg_str(a, "type");
    json_t *dice = json_array();
    int dmg = roll_plain(e, rules_arg_str(a, "damage"), dice);
    rules_enc_log(e, "splash", dice, json_pack("{s:i}", "rolled", dmg),
                  "A blast: %d damage to everyone caught in it, an AGL roll halves it (002:725)",
                  dmg);
    rules_enc_log_gm(e, "splash", NULL, json_pack("{s:i}", "tn", tn),
                     "the blast's AGL target number: %d", tn);
    for (size_t i = 0; i < n; i++) {
        const char *t = ids[i];
        int d = dmg;
        if (!dying(e, t)) {
            json_t *ad = json_array();
            grimwire_roll r = roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, tn, 0, 0, ad);
            if (r.success)
                d = dmg / 2 < 1 ? 1 : dmg / 2;
            rules_enc_log(e, "splash", ad, roll_json(&r, npc(e, t)), "%s %s", nm(e, t),
                          r.success ? "dives clear of the worst: half damage"
                                    : "is caught in the blast");
        }
        take_damage(e, t, d, type, "the blast");
    }
    return 0;
}

/* Damage of the area cid stands in (condition `area` {damage, type}) (002:727). */
static void area_hurts(rules_enc *e, const char *cid)
{
    json_t *ar = rules_enc_cond(e, cid, "area");
    char expr[48], type[20];
    snprintf(expr, sizeof expr, "%s", json_string_value(json_object_get(ar, "damage")));
    snprintf(type, sizeof type, "%s",
             json_string_value(json_object_get(ar, "type"))
                 ? json_string_value(json_object_get(ar, "type"))
                 : "");
    json_object_del(comb(e, cid), "area_due");
    json_t *dice = json_array();
    int d = roll_plain(e, expr, dice);
    rules_enc_log(e, "area", dice, json_pack("{s:s, s:i}", "target", cid, "rolled", d),
                  "%s is still in the area: %d damage (002:727)", nm(e, cid), d);
    take_damage(e, cid, d, type[0] ? type : NULL, "the area");
}

/*
 * 002:727 persistent damage (a molotov's fire): the GM puts `who` in an area of `damage`
 * (type) that lasts `rounds` of each one's turns (0: until the GM takes it away with on=0); they
 * take its damage now, and again at the start of each turn unless they move out first (leave).
 */
static int do_area(rules_enc *e, const rules_args *a, tb_err *err)
{
    char ids[16][32];
    size_t n;
    if (id_list(e, rules_arg_str(a, "who"), ids, &n, err))
        return err->code;
    if (!rules_arg_int(a, "on")) {
        for (size_t i = 0; i < n; i++) {
            if (rules_enc_cond_remove(e, ids[i], "area"))
                rules_enc_log(e, "area", NULL, json_pack("{s:s}", "target", ids[i]),
                              "%s is no longer in the area", nm(e, ids[i]));
            json_object_del(comb(e, ids[i]), "area_due");
        }
        return 0;
    }
    if (!rules_arg_str(a, "damage"))
        return tb_fail(err, TB_BAD_REQUEST, "enc.act area: give the area's damage (1d6)");
    if (check_damage(a, err))
        return err->code;
    for (size_t i = 0; i < n; i++)
        if (rules_enc_is_out(e, ids[i]))
            return rules_enc_rule(err, "%s is out of the fight", nm(e, ids[i]));
    for (size_t i = 0; i < n; i++) {
        json_t *c = rules_enc_cond_add(e, ids[i], "area", rules_arg_int(a, "rounds"), 0);
        json_object_set_new(c, "damage", json_string(rules_arg_str(a, "damage")));
        if (rules_arg_str(a, "type"))
            json_object_set_new(c, "type", json_string(rules_arg_str(a, "type")));
        rules_enc_log(e, "area", NULL, json_pack("{s:s}", "target", ids[i]),
                      "%s is caught in a lasting area of damage: moving out at the start of "
                      "the turn avoids it (002:727)",
                      nm(e, ids[i]));
        area_hurts(e, ids[i]);
    }
    return 0;
}

/* Refuses a turn action while the area's damage is due: move out (leave) or stay first. */
static int area_waits(rules_enc *e, const char *cid, tb_err *err)
{
    if (cid && geti(comb(e, cid), "area_due", 0) == rules_enc_round(e) && has(e, cid, "area"))
        return rules_enc_rule(err,
                              "%s stands in the area: first move out of it (leave) or stay in "
                              "it and take the damage (stay) (002:727)",
                              nm(e, cid));
    return 0;
}

/* 002:727 moving out of the area at once, before any other action: the movement, no damage;
 * a grappled character first wins the roll to move (002:679), or stays and is hurt. */
static int do_leave(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = actor(e);
    if (geti(comb(e, cid), "area_due", 0) != rules_enc_round(e) || !has(e, cid, "area"))
        return rules_enc_rule(err, "%s is not standing in an area of damage now", nm(e, cid));
    if (use_move(e, cid, err))
        return err->code;
    if (has(e, cid, "grappled") && !grapple_roll(e, cid, 1)) {
        area_hurts(e, cid);
        return 0;
    }
    json_object_del(comb(e, cid), "area_due");
    rules_enc_cond_remove(e, cid, "area");
    rules_enc_log(e, "leave", NULL, NULL,
                  "%s moves out of the area before it hurts again (002:727)", nm(e, cid));
    return 0;
}

static int do_stay(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = actor(e);
    if (geti(comb(e, cid), "area_due", 0) != rules_enc_round(e) || !has(e, cid, "area"))
        return rules_enc_rule(err, "%s is not standing in an area of damage now", nm(e, cid));
    area_hurts(e, cid);
    const char *cur = rules_enc_current(e);
    if (cur && strcmp(cur, cid) == 0 && incapacity(e, cid))
        next_turn(e, cid, 1);
    return 0;
}

/* 002:733-735 drowning or suffocating: the GM says when a character's breath runs out (2 minutes
 * + 1 per TOG point) and when they surface; the MND 11 rolls and the damage come each turn. */
static int do_drown(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight", nm(e, t));
    if (!rules_arg_int(a, "on")) {
        if (!rules_enc_cond_remove(e, t, "drowning"))
            return rules_enc_rule(err, "%s is not drowning", nm(e, t));
        rules_enc_log(e, "drown", NULL, json_pack("{s:s, s:b}", "target", t, "on", 0),
                      "%s breathes again", nm(e, t));
        return 0;
    }
    rules_enc_cond_add(e, t, "drowning", 0, 0);
    rules_enc_log(e, "drown", NULL, json_pack("{s:s, s:b}", "target", t, "on", 1),
                  "%s is out of breath and begins to drown: a MND roll each round to stay "
                  "conscious (002:735)",
                  nm(e, t));
    return 0;
}

/* The revived state of 002:260: 1 Condition, 0 Focus, out cold, one level of burnout. */
static void revive(rules_enc *e, const char *t)
{
    rules_enc_cond_remove(e, t, "dying");
    cond_set(e, t, 1);
    json_object_set_new(obj(rules_enc_stats(e, t), "focus"), "current", json_integer(0));
    rules_enc_cond_add(e, t, "out_cold", 0, 0);
    rules_enc_log(e, "revive", NULL, json_pack("{s:s}", "target", t),
                  "%s is stabilized: 1 Condition, 0 Focus, out cold (002:260)", nm(e, t));
    burnout_up(e, t, "revived, 002:260");
}

/*
 * 002:258 stabilizing a dying character as the action: a medkit or medical knowledge (`medkit`)
 * or else an INT (RSN, reading G17) roll, and a COR roll, both against the GM's hidden
 * `stabilize_tn` of the dying one (set_tn: how hurt and how long dying). Both pass: revived
 * (002:260). Without the GM's number the attempt is refused before any die.
 */
static int do_stabilize(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target");
    if (strcmp(cid, t) == 0)
        return rules_enc_rule(err, "a dying character cannot do anything (002:256)");
    if (!dying(e, t) || rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is not dying", nm(e, t));
    json_t *v = json_object_get(hidden_get(e, t), "stabilize_tn");
    if (!json_is_integer(v))
        return rules_enc_rule(err,
                              "the GM has not yet said how hard %s is to stabilize: ask the GM "
                              "(002:258)",
                              nm(e, t));
    int tn = (int)json_integer_value(v);
    if (use_action(e, cid, err))
        return err->code;
    if (has(e, cid, "grappled") && !grapple_roll(e, cid, 0))
        return 0;
    json_t *dice = json_array();
    json_t *res = json_pack("{s:s}", "target", t);
    int ok = 1;
    if (!rules_arg_int(a, "medkit")) {
        grimwire_roll k = roll_attr(e, cid, "rsn", GRIMWIRE_USE_PLAIN, 0, tn, 0, 0, dice);
        json_object_set_new(res, "rsn", roll_json(&k, npc(e, cid)));
        ok = k.success;
    }
    grimwire_roll c = roll_attr(e, cid, "cor", GRIMWIRE_USE_PLAIN, 0, tn, 0, 0, dice);
    json_object_set_new(res, "cor", roll_json(&c, npc(e, cid)));
    ok = ok && c.success;
    json_object_set_new(res, "success", json_boolean(ok));
    rules_enc_log_gm(e, "stabilize", NULL, json_pack("{s:i}", "tn", tn),
                     "stabilizing %s: target number %d", nm(e, t), tn);
    rules_enc_log(e, "stabilize", dice, res, "%s works to stabilize %s%s: %s (002:258)", nm(e, cid),
                  nm(e, t), rules_arg_int(a, "medkit") ? " with a medkit" : "",
                  ok ? "it works" : "not yet, still dying");
    if (ok)
        revive(e, t);
    return 0;
}

static int do_technique(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *name = rules_arg_str(a, "name");
    if (use_action(e, cid, err))
        return err->code;
    if (pay_focus(e, cid, name, rules_arg_int(a, "focus"), err))
        return err->code;
    if (has(e, cid, "grappled") && !grapple_roll(e, cid, 0))
        return 0;
    rules_enc_log(e, "technique", NULL,
                  json_pack("{s:s, s:i}", "name", name, "focus", rules_arg_int(a, "focus")),
                  "%s uses %s (%d Focus) as the action of the turn (002:425)", nm(e, cid), name,
                  rules_arg_int(a, "focus"));
    return 0;
}

/*
 * A reaction (002:433-447): at any time, when its trigger happens. It takes this round's action
 * (or auxiliary action) if that is still unused, otherwise next round's; when both are spent it
 * is refused. An auxiliary reaction does the same with the auxiliary action (002:451).
 */
static int do_reaction(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *name = rules_arg_str(a, "name"), *t = rules_arg_str(a, "target");
    int r = rules_enc_round(e), aux = rules_arg_int(a, "aux");
    int uses = reaction_round(e, cid, aux, err);
    if (uses < 0)
        return err->code;
    if (pay_focus(e, cid, name, rules_arg_int(a, "focus"), err))
        return err->code;
    reaction_spend(e, cid, aux, uses);
    char to[80] = "";
    if (t)
        snprintf(to, sizeof to, " to %s", nm(e, t));
    rules_enc_log(e, "reaction", NULL,
                  json_pack("{s:s, s:i, s:i, s:s}", "name", name, "focus",
                            rules_arg_int(a, "focus"), "uses_round", uses, "uses",
                            aux ? "aux" : "action"),
                  "%s uses %s as a%s reaction%s: it takes the %s of round %d (%s)", nm(e, cid),
                  name, aux ? "n auxiliary" : "", to, aux ? "auxiliary action" : "action", uses,
                  uses == r ? "002:437" : "002:439");
    return 0;
}

/* 002:403 "If the tie is between two characters on the same side, they can decide who goes
 * first each round": actor takes the tied target's place before its turn comes. */
static int do_swap(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = actor(e), *t = rules_arg_str(a, "target");
    if (rules_enc_round(e) < 1)
        return rules_enc_rule(err, "initiative has not been rolled yet (002:401)");
    if (strcmp(rules_enc_side(e, cid), rules_enc_side(e, t)) != 0 ||
        init_of(e, cid) != init_of(e, t) || strcmp(cid, t) == 0)
        return rules_enc_rule(err, "only characters of the same side with tied initiative decide "
                                   "who goes first (002:403)");
    int i = rules_enc_order_index(e, cid), j = rules_enc_order_index(e, t), cur = turn(e);
    for (int k = 0; k < 2; k++) {
        int x = k ? j : i;
        const char *who = k ? t : cid;
        if (x < cur || (x == cur && json_is_true(json_object_get(comb(e, who), "used"))))
            return rules_enc_rule(err, "%s has already had the turn this round", nm(e, who));
    }
    json_t *ord = order(e);
    json_t *x = json_incref(json_array_get(ord, (size_t)i));
    json_array_set(ord, (size_t)i, json_array_get(ord, (size_t)j));
    json_array_set_new(ord, (size_t)j, x);
    rules_enc_log(e, "swap", NULL, json_pack("{s:s}", "target", t),
                  "%s and %s, tied, swap places this round (002:403)", nm(e, cid), nm(e, t));
    if (i == cur || j == cur) {
        const char *now = rules_enc_current(e);
        rules_enc_budget_reset(e, now);
        if (!turn_begins(e, now))
            next_turn(e, now, 1);
    }
    return 0;
}

/* ---- GM actions ---- */

static int do_set_tn(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    json_t *h = rules_enc_hidden_of(e, t);
    static const char *const keys[] = {"tn", "attack_tn", "terror_tn", "stabilize_tn"};
    int given = 0;
    for (int k = 0; k < 4; k++)
        given |= rules_arg_given(a, keys[k]);
    if (!given)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act set_tn: give tn, attack_tn, terror_tn or stabilize_tn");
    for (int k = 0; k < 4; k++)
        if (rules_arg_given(a, keys[k]))
            json_object_set_new(h, keys[k], json_integer(rules_arg_int(a, keys[k])));
    rules_enc_log_gm(e, "set_tn", NULL, json_pack("{s:s, s:O}", "target", t, "tn", h),
                     "The GM sets the hidden target numbers of %s (002:53)", nm(e, t));
    /* the number a player's attack waits for (attack_wait): it is rolled now */
    json_t *wait = json_object_get(e->hidden, "waiting");
    const char *wt = json_string_value(json_object_get(json_object_get(wait, "params"), "target"));
    if (wait && rules_arg_given(a, "tn") && rules_enc_streq(wt, t))
        return attack_resume(e, err);
    return 0;
}

static int type_list(const char *s, json_t **out, tb_err *err)
{
    *out = json_array();
    char buf[200];
    snprintf(buf, sizeof buf, "%s", s ? s : "");
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok;
         tok = strtok_r(NULL, ", ", &save)) {
        if (!known_type(tok)) {
            json_decref(*out);
            *out = NULL;
            return tb_fail(err, TB_BAD_REQUEST,
                           "enc.act traits: unknown damage type '%.40s' "
                           "(002:695-721)",
                           tok);
        }
        json_array_append_new(*out, json_string(tok));
    }
    return 0;
}

static int do_traits(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    static const char *const keys[] = {"weak", "resist", "immune"};
    json_t *lists[3] = {0};
    for (int k = 0; k < 3; k++)
        if (type_list(rules_arg_str(a, keys[k]), &lists[k], err)) {
            for (int j = 0; j < k; j++)
                json_decref(lists[j]);
            return err->code;
        }
    json_t *st = rules_enc_stats(e, t);
    for (int k = 0; k < 3; k++)
        json_object_set_new(st, keys[k], lists[k]);
    json_t *res = json_pack("{s:s, s:O, s:O, s:O}", "target", t, "weak", lists[0], "resist",
                            lists[1], "immune", lists[2]);
    if (npc(e, t))
        rules_enc_log_gm(e, "traits", NULL, res,
                         "The GM sets %s's damage weaknesses, "
                         "resistances and immunities (002:693)",
                         nm(e, t));
    else
        rules_enc_log(e, "traits", NULL, res,
                      "The GM sets %s's damage weaknesses, resistances "
                      "and immunities (002:693)",
                      nm(e, t));
    return 0;
}

static int do_status(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *name = rules_arg_str(a, "name");
    const char *by = rules_arg_str(a, "target2");
    if (!is_status(name))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act status: unknown status effect '%.40s' "
                       "(002:779-876)",
                       name);
    if (!rules_arg_int(a, "on")) {
        if (!rules_enc_cond_remove(e, t, name))
            return rules_enc_rule(err, "%s is not %s", nm(e, t), name);
        if (strcmp(name, "agony") == 0)
            agony_ends(e, t);
        rules_enc_log(e, "status", NULL,
                      json_pack("{s:s, s:s, s:b}", "target", t, "name", name, "on", 0),
                      "%s is no longer %s", nm(e, t), name);
        return 0;
    }
    int agony = strcmp(name, "agony") == 0;
    if (agony && (has(e, t, "frenzy") || has(e, t, "amok")))
        return rules_enc_rule(err, "%s is in a frenzy: immune to agony (002:816)", nm(e, t));
    if (agony && has(e, t, "agony"))
        return rules_enc_rule(err, "%s is already in agony", nm(e, t));
    if (strcmp(name, "grappled") == 0 && by && !comb(e, by))
        return tb_fail(err, TB_NOT_FOUND, "enc.act status: no combatant '%.31s'", by);
    /* 002:805 agony lasts 10 rounds of conflict unless the GM says otherwise */
    rules_enc_cond_add(e, t, name,
                       agony && !rules_arg_given(a, "turns") ? 10 : rules_arg_int(a, "turns"),
                       rules_arg_int(a, "level"));
    if (by && strcmp(name, "grappled") == 0)
        json_object_set_new(rules_enc_cond(e, t, name), "by", json_string(by));
    if (rules_arg_given(a, "tn"))
        json_object_set_new(rules_enc_hidden_of(e, t), "terror_tn",
                            json_integer(rules_arg_int(a, "tn")));
    rules_enc_log(e, "status", NULL,
                  json_pack("{s:s, s:s, s:b}", "target", t, "name", name, "on", 1),
                  "%s is %s%s (002:779-878)", nm(e, t), name,
                  rules_arg_int(a, "turns") > 0 ? " for a while" : "");
    if (agony)
        burnout_up(e, t, "agony, temporary, 002:805");
    if (strcmp(name, "unconscious") == 0 || strcmp(name, "out_cold") == 0 ||
        strcmp(name, "knocked_out") == 0 || strcmp(name, "sleep") == 0)
        grapples_end(e, t, "is out cold");
    if (strcmp(name, "unconscious") == 0) {
        /* 002:866 "Falling unconscious removes all such [mental] effects" */
        static const char *const mental[] = {"terror", "brainwashed", "mind_controlled", "frenzy",
                                             "amok"};
        for (size_t i = 0; i < sizeof mental / sizeof *mental; i++)
            rules_enc_cond_remove(e, t, mental[i]);
    }
    const char *cur = rules_enc_current(e);
    if (cur && strcmp(cur, t) == 0) {
        budget_adjust(e, t);
        if (incapacity(e, t))
            next_turn(e, t, 1);
    }
    return 0;
}

static int do_damage(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *type = rules_arg_str(a, "type");
    if (type && !known_type(type))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act damage: unknown damage type '%.40s' "
                       "(002:695-721)",
                       type);
    int was_out = rules_enc_is_out(e, t);
    rules_enc_log(e, "damage", NULL,
                  json_pack("{s:s, s:i}", "target", t, "rolled", rules_arg_int(a, "amount")),
                  "The GM deals %d %s damage to %s", rules_arg_int(a, "amount"),
                  type ? type : "untyped", nm(e, t));
    take_damage(e, t, rules_arg_int(a, "amount"), type, "the GM");
    const char *cur = rules_enc_current(e);
    if (!was_out && cur && strcmp(cur, t) == 0 && incapacity(e, t))
        next_turn(e, t, 1);
    return 0;
}

static int do_heal(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    json_t *c = obj(rules_enc_stats(e, t), "condition");
    int cap = grimwire_condition_cap(geti(c, "max", 10), burnout(e, t)) + geti(c, "temporary", 0);
    /* 002:258 healing cannot revive a dying character, only raise their Condition up to 0 */
    if (dying(e, t))
        cap = 0;
    int cur = cond_cur(e, t), to = cur + rules_arg_int(a, "amount");
    if (to > cap)
        to = cap;
    if (to < cur)
        to = cur;
    cond_set(e, t, to);
    if (npc(e, t))
        rules_enc_log_gm(e, "heal", NULL, NULL, "%s: Condition %d -> %d", nm(e, t), cur, to);
    json_t *res = json_pack("{s:s}", "target", t);
    if (!npc(e, t)) {
        json_object_set_new(res, "from", json_integer(cur));
        json_object_set_new(res, "to", json_integer(to));
    }
    rules_enc_log(e, "heal", NULL, res, "%s is healed%s", nm(e, t),
                  dying(e, t) ? " (still dying: healing raises Condition at most to 0, 002:258)"
                              : "");
    return 0;
}

static int do_revive(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (!dying(e, t))
        return rules_enc_rule(err, "%s is not dying", nm(e, t));
    /* 002:260 (the stabilizing rolls are the GM's here; `stabilize` rolls them, 002:258) */
    revive(e, t);
    return 0;
}

/* ---- the module ---- */

static int enc_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)o;
    (void)err;
    /* 002:407-411 a turn: action, movement, auxiliary action */
    rules_enc_budget_default(e, json_pack("{s:i, s:i, s:i}", "action", 1, "move", 1, "aux", 1));
    json_object_set_new(e->enc, "initiative", json_array());
    json_object_set_new(e->enc, "seconds_per_round", json_integer(6)); /* 002:415 */
    return 0;
}

static int enc_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)sheet;
    (void)err;
    json_t *st = rules_enc_stats(e, cid);
    json_t *c = json_object_get(st, "condition");
    if (!json_is_object(c)) /* a quick NPC without a sheet: the sheet's default, 10 */
        json_object_set_new(st, "condition", json_pack("{s:i, s:i}", "current", 10, "max", 10));
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(st, "status"), i, v)
    {
        const char *s = json_string_value(v);
        if (s && is_status(s))
            rules_enc_cond_add(e, cid, s, 0, 0);
    }
    json_object_set_new(comb(e, cid), "spent", json_pack("{s:i, s:i}", "action", 0, "aux", 0));
    if (cond_cur(e, cid) <= 0)
        rules_enc_cond_add(e, cid, "dying", 0, 0); /* 002:256 */
    if (rules_enc_round(e) > 0) {
        /* joining a running conflict: its initiative now, its place from the next turns on */
        roll_init(e, cid);
        insert_ranked(e, cid);
    }
    return 0;
}

static int may_act(rules_enc *e, const char *cid, tb_err *err)
{
    const char *cur = rules_enc_current(e);
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "the conflict has not begun: the GM rolls initiative first "
                                   "(002:401)");
    if (!cur)
        return rules_enc_rule(err, "nobody has the turn now");
    if (strcmp(cur, cid) != 0)
        return rules_enc_rule(err, "it is %s's turn, not %s's (002:401)", nm(e, cur), nm(e, cid));
    json_t *p = json_object_get(e->enc, "pending");
    if (json_is_object(p))
        return rules_enc_rule(err,
                              "%s's natural 1 may hit someone else: the GM first picks the "
                              "unintended target (collateral, 002:555)",
                              nm(e, json_string_value(json_object_get(p, "attacker"))));
    return 0;
}

/* Every action leaves the sheet's `status` in step with the conditions. */
/* While a player's attack waits for the GM's target number (attack_wait), only the GM's set_tn
 * acts: the attack comes first, as it was declared. */
static int waits(rules_enc *e, tb_err *err)
{
    const char *who =
        json_string_value(json_object_get(json_object_get(e->hidden, "waiting"), "attacker"));
    if (!who)
        return 0;
    return rules_enc_rule(err, "%s's attack waits for the GM's target number", nm(e, who));
}

#define WRAP(fn)                                                                                   \
    static int fn##_w(rules_enc *e, const rules_args *a, tb_err *err)                              \
    {                                                                                              \
        if (fn != do_set_tn && waits(e, err))                                                      \
            return err->code;                                                                      \
        int rc = fn(e, a, err);                                                                    \
        if (rc == 0)                                                                               \
            sync_status(e);                                                                        \
        return rc;                                                                                 \
    }
/* A turn action also waits while the character stands in an area of damage (area_waits). */
#define WRAP_TURN(fn)                                                                              \
    static int fn##_w(rules_enc *e, const rules_args *a, tb_err *err)                              \
    {                                                                                              \
        if (waits(e, err) || area_waits(e, e->actor, err))                                         \
            return err->code;                                                                      \
        int rc = fn(e, a, err);                                                                    \
        if (rc == 0)                                                                               \
            sync_status(e);                                                                        \
        return rc;                                                                                 \
    }
WRAP(do_begin)
WRAP_TURN(do_assist)
WRAP_TURN(do_end_turn)
WRAP_TURN(do_pass)
WRAP_TURN(do_move)
WRAP_TURN(do_dash)
WRAP_TURN(do_aux)
WRAP_TURN(do_get_up)
WRAP_TURN(do_help_up)
WRAP_TURN(do_break_free)
WRAP_TURN(do_attack)
WRAP(do_collateral)
WRAP_TURN(do_technique)
WRAP_TURN(do_trip)
WRAP_TURN(do_shove)
WRAP_TURN(do_grapple)
WRAP_TURN(do_stabilize)
WRAP(do_release)
WRAP(do_shield)
WRAP(do_leave)
WRAP(do_stay)
WRAP(do_splash)
WRAP(do_area)
WRAP(do_drown)
WRAP(do_reaction)
WRAP(do_swap)
WRAP(do_set_tn)
WRAP(do_traits)
WRAP(do_status)
WRAP(do_damage)
WRAP(do_heal)
WRAP(do_revive)

#define TARGET                                                                                     \
    {                                                                                              \
        "target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "target combatant"           \
    }
#define SECRET_TN(n, l)                                                                            \
    {                                                                                              \
        n, RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET, l                                        \
    }

static const rules_param P_NONE[] = {{0}};
static const rules_param P_PASS[] = {
    {"skip", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: do not act at all this round"},
    {0},
};
static const rules_param P_AUX[] = {
    {"what", RULES_PARAM_STRING, 1, 120, 0, 0, "what (a short sentence, a PER roll...)"},
    {0},
};
static const rules_param P_TARGET[] = {TARGET, {0}};
static const rules_param P_ATTACK[] = {
    TARGET,
    {"weapon", RULES_PARAM_INT, 1, 20, 1, 0, "weapon number on the sheet (1 = first)"},
    {"damage", RULES_PARAM_STRING, 1, 40, 0, 0, "damage dice instead of a sheet weapon (1d6)"},
    {"kind", RULES_PARAM_STRING, 1, 12, 0, 0, "light, heavy, ranged or supernatural"},
    {"type", RULES_PARAM_STRING, 1, 16, 0, 0, "damage type (edged, blunt, heat, ...)"},
    {"thrown", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: a thrown weapon (TOG adds)"},
    {"mod", RULES_PARAM_INT, -30, 30, 0, 0, "situational modifier (range, cover, surprise)"},
    SECRET_TN("tn", "GM: target number for this attack"),
    SECRET_TN("tog_tn", "GM: target number of the TOG roll to swing a too heavy weapon (11)"),
    {"effect", RULES_PARAM_STRING, 1, 40, 0, 0,
     "a targeted attack: the effect instead of damage (sensory, knocked_down, stun, disarm...)"},
    {"raise", RULES_PARAM_INT, 0, 20, 3, RULES_PARAM_SECRET,
     "GM: how much harder a targeted attack is (3)"},
    {"turns", RULES_PARAM_INT, 0, 100, 0, 0, "a targeted attack's effect lasts (0: until removed)"},
    {"nonlethal", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: hold back, leave them out cold at 1"},
    {0},
};
static const rules_param P_BEGIN[] = {
    {"surprise", RULES_PARAM_STRING, 1, 32, 0, 0, "the side that attacks by surprise"},
    {"alert", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: the enemies were on alert (+2, one attack)"},
    {0},
};
static const rules_param P_MANEUVER[] = {
    TARGET,
    {"mod", RULES_PARAM_INT, -30, 30, 0, 0, "situational modifier"},
    SECRET_TN("tn", "GM: target number to land it"),
    {0},
};
static const rules_param P_TRIP[] = {
    TARGET,
    {"mod", RULES_PARAM_INT, -30, 30, 0, 0, "situational modifier"},
    {0},
};
static const rules_param P_TARGETS[] = {
    {"who", RULES_PARAM_STRING, 1, 400, 0, RULES_PARAM_REQUIRED,
     "who is caught (comma list of combatants)"},
    {"damage", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "damage dice (3d6)"},
    {"type", RULES_PARAM_STRING, 1, 16, 0, 0, "damage type (explosions, heat, ...)"},
    SECRET_TN("tn", "GM: target number of the AGL roll for half damage"),
    {0},
};
static const rules_param P_AREA[] = {
    {"who", RULES_PARAM_STRING, 1, 400, 0, RULES_PARAM_REQUIRED,
     "who is caught (comma list of combatants)"},
    {"damage", RULES_PARAM_STRING, 1, 40, 0, 0, "damage dice each time (1d6)"},
    {"type", RULES_PARAM_STRING, 1, 16, 0, 0, "damage type (heat, chemical, ...)"},
    {"rounds", RULES_PARAM_INT, 0, 100, 0, 0,
     "how many of each one's turns it lasts (0: until removed)"},
    {"on", RULES_PARAM_BOOL, 0, 1, 1, 0, "1: put them in it, 0: the area is gone for them"},
    {0},
};
static const rules_param P_DROWN[] = {
    TARGET,
    {"on", RULES_PARAM_BOOL, 0, 1, 1, 0, "1: out of breath, 0: breathing again"},
    {0},
};
static const rules_param P_STABILIZE[] = {
    TARGET,
    {"medkit", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: a medkit or medical knowledge (no RSN roll)"},
    {0},
};
static const rules_param P_ASSIST[] = {
    TARGET,
    {"attr", RULES_PARAM_STRING, 2, 3, 0, RULES_PARAM_REQUIRED,
     "the helper's attribute (tog, agl, cor, mnd, per, rsn)"},
    {"mod", RULES_PARAM_INT, -30, 30, 0, 0, "the helper's situational modifier"},
    {0},
};
static const rules_param P_COLLATERAL[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "who may be hit (none: nobody in range)"},
    {"spare", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: the attacker adds COR to spare them"},
    {0},
};
static const rules_param P_TECHNIQUE[] = {
    {"name", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "technique"},
    {"focus", RULES_PARAM_INT, 0, 50, 0, 0, "Focus it costs"},
    {0},
};
static const rules_param P_REACTION[] = {
    {"name", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "technique"},
    {"focus", RULES_PARAM_INT, 0, 50, 0, 0, "Focus it costs"},
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "the combatant it answers"},
    {"aux", RULES_PARAM_BOOL, 0, 1, 0, 0, "1: an auxiliary reaction"},
    {0},
};
static const rules_param P_SET_TN[] = {
    TARGET,
    SECRET_TN("tn", "target number to hit this combatant (COR)"),
    SECRET_TN("attack_tn", "target number to evade its attacks (AGL)"),
    SECRET_TN("terror_tn", "target number of its MND roll against terror"),
    SECRET_TN("stabilize_tn", "target number to stabilize it while dying (RSN, COR)"),
    {0},
};
static const rules_param P_TRAITS[] = {
    TARGET,
    {"weak", RULES_PARAM_STRING, 1, 160, 0, 0, "damage types it is weak to (comma list)"},
    {"resist", RULES_PARAM_STRING, 1, 160, 0, 0, "damage types it resists"},
    {"immune", RULES_PARAM_STRING, 1, 160, 0, 0, "damage types it is immune to"},
    {0},
};
static const rules_param P_STATUS[] = {
    TARGET,
    {"name", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED, "status effect"},
    {"on", RULES_PARAM_BOOL, 0, 1, 1, 0, "1: add it, 0: remove it"},
    {"turns", RULES_PARAM_INT, 0, 100, 0, 0, "lasts this many of its turns (0: until removed)"},
    {"level", RULES_PARAM_INT, 0, 20, 0, 0, "bleeding: damage per turn"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, 0, "grappled: who grapples"},
    SECRET_TN("tn", "terror: target number of the MND roll"),
    {0},
};
static const rules_param P_DAMAGE[] = {
    TARGET,
    {"amount", RULES_PARAM_INT, 1, 999, 0, RULES_PARAM_REQUIRED, "damage"},
    {"type", RULES_PARAM_STRING, 1, 16, 0, 0, "damage type (armor stops physical)"},
    {0},
};
static const rules_param P_HEAL[] = {
    TARGET,
    {"amount", RULES_PARAM_INT, 1, 999, 0, RULES_PARAM_REQUIRED, "Condition restored"},
    {0},
};

static const rules_enc_action ACTIONS[] = {
    {"begin", "Roll initiative", RULES_ENC_GM, P_BEGIN, do_begin_w, "002:399-403, 002:519-523"},
    {"attack", "Attack", RULES_ENC_TURN, P_ATTACK, do_attack_w, "002:543-601, 002:743-751"},
    {"technique", "Technique", RULES_ENC_TURN, P_TECHNIQUE, do_technique_w, "002:425, 002:198"},
    {"move", "Move", RULES_ENC_TURN, P_NONE, do_move_w, "002:463-465"},
    {"dash", "Dash", RULES_ENC_TURN, P_NONE, do_dash_w, "002:467-469"},
    {"aux", "Auxiliary action", RULES_ENC_TURN, P_AUX, do_aux_w, "002:427-431"},
    {"get_up", "Get up", RULES_ENC_TURN, P_NONE, do_get_up_w, "002:800"},
    {"help_up", "Help up", RULES_ENC_TURN, P_TARGET, do_help_up_w, "002:801"},
    {"assist", "Assist", RULES_ENC_TURN, P_ASSIST, do_assist_w, "002:81-83"},
    {"break_free", "Break free", RULES_ENC_TURN, P_NONE, do_break_free_w, "002:678-682"},
    {"trip", "Trip", RULES_ENC_TURN, P_TRIP, do_trip_w, "002:661, 002:794-801"},
    {"shove", "Shove", RULES_ENC_TURN, P_MANEUVER, do_shove_w, "002:655-657"},
    {"grapple", "Grapple", RULES_ENC_TURN, P_MANEUVER, do_grapple_w, "002:663-689"},
    {"release", "Let go", RULES_ENC_OWNER, P_TARGET, do_release_w, "002:663-689"},
    {"shield", "Shield someone", RULES_ENC_OWNER, P_TARGET, do_shield_w, "002:755-761"},
    {"stabilize", "Stabilize", RULES_ENC_TURN, P_STABILIZE, do_stabilize_w, "002:258-260"},
    {"leave", "Move out of the area", RULES_ENC_TURN, P_NONE, do_leave_w, "002:727"},
    {"stay", "Stay in the area", RULES_ENC_TURN, P_NONE, do_stay_w, "002:727"},
    {"pass", "Pass", RULES_ENC_TURN, P_PASS, do_pass_w, "002:419-421"},
    {"end_turn", "End turn", RULES_ENC_TURN, P_NONE, do_end_turn_w, "002:405-417"},
    {"reaction", "Reaction", RULES_ENC_OWNER, P_REACTION, do_reaction_w, "002:433-451"},
    {"swap", "Swap tied initiative", RULES_ENC_OWNER, P_TARGET, do_swap_w, "002:403"},
    {"collateral", "Natural 1: who is hit", RULES_ENC_GM, P_COLLATERAL, do_collateral_w,
     "002:553-559, 002:631-643"},
    {"set_tn", "Set target numbers", RULES_ENC_GM, P_SET_TN, do_set_tn_w, "002:29-55"},
    {"traits", "Damage traits", RULES_ENC_GM, P_TRAITS, do_traits_w, "002:691-721"},
    {"status", "Status effect", RULES_ENC_GM, P_STATUS, do_status_w, "002:779-878"},
    {"damage", "Deal damage", RULES_ENC_GM, P_DAMAGE, do_damage_w, "002:723-751"},
    {"splash", "Blast (splash damage)", RULES_ENC_GM, P_TARGETS, do_splash_w, "002:723-725"},
    {"area", "Lasting area of damage", RULES_ENC_GM, P_AREA, do_area_w, "002:727"},
    {"drown", "Drowning", RULES_ENC_GM, P_DROWN, do_drown_w, "002:733-737"},
    {"heal", "Heal", RULES_ENC_GM, P_HEAL, do_heal_w, "002:188, 002:258"},
    {"revive", "Stabilize", RULES_ENC_GM, P_TARGET, do_revive_w, "002:256-260"},
    {0},
};

/* ---- what the GM may set ---- */

/* What the GM adjusts mid-conflict: Condition (002:184), Focus (002:190-198), Burnout (002:242)
 * and Armor (002:747-751), in the ranges of the sheet (rules/grimwire/grimwire.c). */
static const rules_enc_field GRIMWIRE_EDITABLE[] = {
    {"stats/condition/current", RULES_PARAM_INT, -100, 999, "Condition"},
    {"stats/condition/max", RULES_PARAM_INT, 1, 999, "maximum Condition"},
    {"stats/condition/temporary", RULES_PARAM_INT, 0, 99, "temporary Condition"},
    {"stats/focus/current", RULES_PARAM_INT, -999, 999, "Focus"},
    {"stats/focus/max", RULES_PARAM_INT, 0, 999, "maximum Focus"},
    {"stats/burnout", RULES_PARAM_INT, 0, GRIMWIRE_BURNOUT_MAX, "Burnout"},
    {"stats/armor", RULES_PARAM_INT, 0, 50, "Armor"},
    {NULL, 0, 0, 0, NULL},
};

static const char *const SHEET_STATS[] = {"attributes", "condition",  "focus",   "burnout", "armor",
                                          "status",     "techniques", "weapons", NULL};

const rules_module rules_module_grimwire_conflict = {
    .id = "grimwire.conflict",
    .system = "grimwire",
    .name = "Conflict",
    .cite = "002:393-455",
    .start = enc_start,
    .join = enc_join,
    .may_act = may_act,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = GRIMWIRE_EDITABLE,
};
