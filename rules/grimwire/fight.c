/*
 * fight.c — what GRIMWIRE's conflict rules share (rulebook 002_c1f3df0ad7b1e31f.txt, cited
 * 002:LINE): what a status effect forbids, the d20 rolls with their modifiers, opposed rolls,
 * damage with its types and armor, burnout, dying and death, grapples, and spending a turn's
 * action, movement and auxiliary action. Called by the module (conflict.c) and by
 * rounds.c and strike.c; calls only rules/encounter.h and grimwire.h (grimwire_enc.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dice.h"
#include "grimwire_enc.h"

/* ---- reading a combatant in a conflict ---- */

int gw_spent(const rules_enc *e, const char *cid, const char *kind)
{
    return gw_geti(json_object_get(gw_comb(e, cid), "spent"), kind, 0);
}

void gw_spent_set(rules_enc *e, const char *cid, const char *kind, int round)
{
    json_object_set_new(gw_obj(gw_comb(e, cid), "spent"), kind, json_integer(round));
}

const char *gw_incapacity(const rules_enc *e, const char *cid)
{
    static const char *const names[] = {"dying", "unconscious", "out_cold", "knocked_out", "sleep"};
    if (rules_enc_is_out(e, cid))
        return "out of the fight";
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (gw_has(e, cid, names[i]))
            return names[i];
    return NULL;
}

int gw_auto_fails(const rules_enc *e, const char *cid, const char *a)
{
    if (gw_has(e, cid, "stun") && strcmp(a, "per") == 0)
        return 1;
    return gw_has(e, cid, "paralysis") &&
           (strcmp(a, "tog") == 0 || strcmp(a, "cor") == 0 || strcmp(a, "agl") == 0);
}

const char *gw_tog_or_cor(const rules_enc *e, const char *cid)
{
    return gw_attr(e, cid, "tog") >= gw_attr(e, cid, "cor") ? "tog" : "cor";
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

int gw_known_type(const char *t)
{
    return in_list(PHYSICAL, t) || in_list(ENERGETIC, t) || in_list(OTHER, t) ||
           strcmp(t, "physical") == 0 || strcmp(t, "energetic") == 0;
}

static int physical(const char *t)
{
    return t && (strcmp(t, "physical") == 0 || in_list(PHYSICAL, t));
}

/* Whether cid's trait list `key` (weak/resist/immune) names type t or its family. */
static int trait(const rules_enc *e, const char *cid, const char *key, const char *t)
{
    if (!t)
        return 0;
    const char *fam = physical(t) ? "physical" : in_list(ENERGETIC, t) ? "energetic" : NULL;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(gw_stats(e, cid), key), i, v)
    {
        const char *s = json_string_value(v);
        if (s && (strcmp(s, t) == 0 || (fam && strcmp(s, fam) == 0)))
            return 1;
    }
    return 0;
}

/* ---- damage dice ---- */

int gw_damage_check(const char *expr, tb_err *err)
{
    rules_dice_expr *dx = NULL;
    if (rules_dice_parse(expr, &dx, err))
        return err->code;
    rules_dice_free(dx);
    return 0;
}

int gw_roll_plain(rules_enc *e, const char *expr, json_t *dice)
{
    rules_dice_expr *x = NULL;
    tb_err err = {0};
    if (rules_dice_parse(expr, &x, &err))
        return 0;
    json_t *r = rules_dice_roll(x, e->rng);
    rules_dice_free(x);
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(r, "dice"), i, d) json_array_append(dice, d);
    int roll = (int)json_integer_value(json_object_get(r, "total"));
    json_decref(r);
    return roll < 1 ? 1 : roll;
}

/* ---- rolls ---- */

/* A combatant, for grimwire_status_mod's has(). */
typedef struct who_has {
    const rules_enc *e;
    const char *cid;
} who_has;

static int enc_has(const void *ctx, const char *status)
{
    const who_has *w = ctx;
    return gw_has(w->e, w->cid, status);
}

/* Modifier to a roll of attribute `a` made for `use`: burnout (002:244-248) and the status
 * effects of grimwire_status_mod (the table the sheet's derived `roll_mod` uses too), read from
 * the encounter's conditions. */
static int roll_mod(const rules_enc *e, const char *cid, const char *a, grimwire_roll_use use)
{
    who_has w = {e, cid};
    int heavy =
        strcmp(a, "agl") == 0
            ? grimwire_armor_agl(gw_attr(e, cid, "tog"), gw_geti(gw_stats(e, cid), "armor_tog", 0))
            : 0; /* 002:753 */
    return grimwire_burnout_penalty(gw_burnout(e, cid)) + heavy +
           grimwire_status_mod(a, use, enc_has, &w);
}

grimwire_roll gw_roll_attr(rules_enc *e, const char *cid, const char *a, grimwire_roll_use use,
                           int extra, int tn, int attack, int ff, json_t *dice)
{
    grimwire_roll r = {0};
    r.attr = gw_attr(e, cid, a);
    r.mod = roll_mod(e, cid, a, use) + extra;
    r.tn = tn;
    r.attack = attack;
    r.ff = ff;
    grimwire_roll_d20(&r, e->rng, dice);
    if (gw_auto_fails(e, cid, a)) {
        r.success = 0;
        r.critical = 0;
    }
    return r;
}

json_t *gw_roll_json(const grimwire_roll *r, int secret_numbers)
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

/*
 * An opposed roll (002:657-682): cid's attribute `aa` (+ extra) against t's `ta`, the higher total
 * wins and a tie goes to t, the one resisting (reading G8); a natural 1 never wins, the other
 * side's natural 1 loses. The dice go to `dice`; `res` gets {natural, <key>_natural, success} and,
 * when both are PCs, the totals; otherwise the totals go to the GM's log only (an NPC's attributes
 * are the GM's). Both totals are returned through *at and *tt (may be NULL).
 */
int gw_opposed(rules_enc *e, const char *cid, const char *aa, int extra, const char *t,
               const char *ta, int t_extra, const char *nat_key, const char *total_key,
               json_t *dice, rules_log *x, int *at, int *tt)
{
    grimwire_roll a = gw_roll_attr(e, cid, aa, GRIMWIRE_USE_PLAIN, extra, 0, 0, 0, dice);
    grimwire_roll d = gw_roll_attr(e, t, ta, GRIMWIRE_USE_PLAIN, t_extra, 0, 0, 0, dice);
    int win =
        a.natural != 1 && (d.natural == 1 || rules_opposed(a.total, d.total, RULES_TIE_DEFENDER));
    if (gw_auto_fails(e, cid, aa))
        win = 0;
    else if (gw_auto_fails(e, t, ta) && a.natural != 1)
        win = 1;
    rules_log_int(x, "natural", a.natural, RULES_AUD_PUBLIC);
    rules_log_int(x, nat_key, d.natural, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(win), RULES_AUD_PUBLIC);
    if (!gw_npc(e, cid) && !gw_npc(e, t)) {
        rules_log_int(x, "total", a.total, RULES_AUD_PUBLIC);
        rules_log_int(x, total_key, d.total, RULES_AUD_PUBLIC);
    } else {
        rules_log *g = rules_log_begin(e, "opposed", "opposed");
        rules_log_who(g, "who", cid);
        rules_log_name(g, "stat", aa, RULES_AUD_PUBLIC);
        rules_log_int(g, "total", a.total, RULES_AUD_GM);
        rules_log_who(g, "other", t);
        rules_log_name(g, "other_stat", ta, RULES_AUD_PUBLIC);
        rules_log_int(g, "other_total", d.total, RULES_AUD_GM);
        rules_log_end(g);
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
int gw_grapple_roll(rules_enc *e, const char *cid, int moving)
{
    json_t *g = rules_enc_cond(e, cid, "grappled");
    const char *by = json_string_value(json_object_get(g, "by"));
    if (!g || !by || !gw_comb(e, by) || rules_enc_is_out(e, by))
        return 1;
    const char *aa = moving ? "tog" : gw_tog_or_cor(e, cid);
    const char *ga = moving ? "tog" : gw_tog_or_cor(e, by);
    json_t *dice = json_array();
    rules_log *x = rules_log_begin(e, "grapple", "grapple_roll");
    rules_log_json(x, "grappler", json_string(by), RULES_AUD_PUBLIC);
    int win = gw_opposed(e, cid, aa, 0, by, ga, 0, "grappler_natural", "grappler_total", dice, x,
                         NULL, NULL);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", by);
    rules_log_word(x, "goal", moving ? "w.move" : "w.act", RULES_AUD_PUBLIC);
    rules_log_word(x, "outcome", win ? "w.succeeds" : "w.fails", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
    return win;
}

/* ---- Condition, burnout, dying ---- */

void gw_cond_set(rules_enc *e, const char *cid, int v)
{
    if (v < -100)
        v = -100; /* the sheet's floor (grimwire.c); far below dead (-10) */
    json_object_set_new(gw_obj(rules_enc_stats(e, cid), "condition"), "current", json_integer(v));
}

/* One more level of burnout (002:224-250): at level 4 the character drops to 0 Condition and
 * begins dying (002:250); Condition never stays above the lowered maximum (002:246-248). */
void gw_burnout_up(rules_enc *e, const char *cid, const char *why)
{
    int b = gw_burnout(e, cid);
    if (b >= GRIMWIRE_BURNOUT_MAX)
        return;
    b++;
    rules_enc_stat_set(e, cid, "burnout", b);
    json_t *c = gw_obj(rules_enc_stats(e, cid), "condition");
    int cap = grimwire_condition_cap(gw_geti(c, "max", 10), b) + gw_geti(c, "temporary", 0);
    if (gw_cond_cur(e, cid) > cap)
        gw_cond_set(e, cid, cap);
    /* 002:805 agony's level is non-lethal: at level 4 with a level of agony the character keeps
     * its Condition and does not begin dying, it is merely out cold */
    if (b == GRIMWIRE_BURNOUT_MAX && gw_has(e, cid, "agony")) {
        if (!gw_has(e, cid, "out_cold")) {
            rules_enc_cond_add(e, cid, "out_cold", 0, 0);
            json_object_set_new(gw_comb(e, cid), "agony_out", json_true());
        }
    } else if (b == GRIMWIRE_BURNOUT_MAX && gw_cond_cur(e, cid) > 0)
        gw_cond_set(e, cid, 0);
    rules_aud aud = rules_enc_aud_of(e, cid); /* an NPC's burnout is the GM's */
    rules_log *x = rules_log_begin(e, "burnout", "burnout");
    rules_log_json(x, "target", json_string(cid), aud);
    rules_log_int(x, "burnout", b, aud);
    rules_log_who(x, "who", cid);
    rules_log_word(x, "why", why, aud);
    rules_log_end(x);
    gw_check_dying(e, cid);
}

/* Condition 0 or below: dying, a level of burnout (002:226, 002:256); below −10: dead. A dying
 * or dead grappler lets go (gw_grapples_end). */
void gw_check_dying(rules_enc *e, const char *cid)
{
    int cur = gw_cond_cur(e, cid);
    if (cur <= 0)
        gw_grapples_end(e, cid, "end.out_cold");
    if (cur < GRIMWIRE_DEAD_BELOW) {
        if (!rules_enc_is_out(e, cid)) {
            rules_enc_cond_remove(e, cid, "dying");
            rules_enc_set_out(e, cid, "dead");
            gw_log_who(e, "dead", "dead", cid);
        }
        return;
    }
    if (cur <= 0 && !gw_dying(e, cid)) {
        rules_enc_cond_add(e, cid, "dying", 0, 0);
        gw_log_who(e, "dying", "dying", cid);
        gw_burnout_up(e, cid, "why.dying");
    }
}

/*
 * Damage of type t (NULL: untyped, e.g. bleeding) to cid: immune → 0, weak → double, resistant
 * → half (rounded down, at least 1) (002:693), then armor for physical damage, never below 1
 * (002:749). The numbers go to the GM's log for an NPC target (its armor and traits are the
 * GM's), to the public log for a PC. With `nonlethal` a blow that would take cid to 0 or below
 * leaves it at 1 Condition and out cold instead (002:649, reading G11): no dying, no burnout.
 */
int gw_take_damage(rules_enc *e, const char *cid, int dmg, const char *t, gw_source src,
                   int nonlethal)
{
    rules_aud aud = rules_enc_aud_of(e, cid); /* an NPC's armor, traits and Condition: the GM's */
    rules_log *x = rules_log_begin(e, "damage", "damage");
    rules_log_json(x, "target", json_string(cid), aud);
    rules_log_int(x, "rolled", dmg, aud);
    if (t) {
        rules_log_json(x, "type", json_string(t), aud);
        rules_log_name(x, "dtype", t, aud);
    }
    int d = dmg;
    if (d > 0 && trait(e, cid, "immune", t)) {
        d = 0;
        rules_log_word(x, "how", "how.immune", aud);
    } else if (d > 0 && trait(e, cid, "weak", t)) {
        d *= 2;
        rules_log_word(x, "how", "how.weak", aud);
    } else if (d > 0 && trait(e, cid, "resist", t)) {
        d = d / 2 < 1 ? 1 : d / 2;
        rules_log_word(x, "how", "how.resist", aud);
    }
    int armor = gw_geti(gw_stats(e, cid), "armor", 0);
    if (d > 0 && physical(t) && armor > 0) {
        rules_log_count(x, "before", d, aud);
        d = grimwire_armor(d, armor);
        rules_log_int(x, "armor", armor, aud);
        rules_log_word(x, "armor_how", "how.armor", aud);
    }
    int cur = gw_cond_cur(e, cid) - d;
    int held = nonlethal && cur <= 0 && !gw_dying(e, cid);
    gw_cond_set(e, cid, held ? 1 : cur);
    rules_log_int(x, "damage", d, aud);
    rules_log_int(x, "condition", gw_cond_cur(e, cid), aud);
    rules_log_who(x, "who", cid);
    gw_log_source(x, src, aud);
    rules_log_end(x);
    if (held) {
        rules_enc_cond_add(e, cid, "out_cold", 0, 0);
        gw_grapples_end(e, cid, "end.out_cold");
        gw_log_who(e, "nonlethal", "nonlethal", cid);
    }
    gw_check_dying(e, cid);
    return d;
}

/* cid lets go of everyone it grapples (002:663-689): it is out cold, dying or lets go. */
void gw_grapples_end(rules_enc *e, const char *cid, const char *why)
{
    const char *o;
    for (size_t i = 0; (o = rules_enc_cid_at(e, i)); i++) {
        json_t *g = rules_enc_cond(e, o, "grappled");
        if (g && rules_enc_streq(json_string_value(json_object_get(g, "by")), cid)) {
            rules_enc_cond_remove(e, o, "grappled");
            rules_log *x = rules_log_begin(e, "grapple", "grapple_ends");
            rules_log_json(x, "target", json_string(o), RULES_AUD_PUBLIC);
            rules_log_json(x, "by", json_string(cid), RULES_AUD_PUBLIC);
            rules_log_who(x, "who", o);
            rules_log_who(x, "other", cid);
            rules_log_word(x, "why", why, RULES_AUD_PUBLIC);
            rules_log_end(x);
        }
    }
}

/* Agony's level is the one it added (002:805 "a temporary level"): a character already at level 4
 * when the agony came took none, so none goes (issue 25 item 12). The mark is GM-only: for an NPC
 * it would say whether its burnout was below 4. */
void gw_agony_begins(rules_enc *e, const char *cid)
{
    int b = gw_burnout(e, cid);
    if (b >= GRIMWIRE_BURNOUT_MAX)
        return;
    json_object_set_new(rules_enc_hidden_of(e, cid), "agony_level", json_true());
    gw_burnout_up(e, cid, "why.agony");
}

void gw_agony_ends(rules_enc *e, const char *cid)
{
    json_t *h = rules_enc_hidden_of(e, cid);
    int b = gw_burnout(e, cid);
    if (b > 0 && json_is_true(json_object_get(h, "agony_level")))
        rules_enc_stat_set(e, cid, "burnout", b - 1);
    json_object_del(h, "agony_level");
    if (json_is_true(json_object_get(gw_comb(e, cid), "agony_out"))) {
        json_object_del(gw_comb(e, cid), "agony_out");
        rules_enc_cond_remove(e, cid, "out_cold");
    }
    gw_log_who(e, "agony", "agony_ends", cid);
}

void gw_tick(rules_enc *e, const char *cid)
{
    int agony = gw_has(e, cid, "agony");
    rules_enc_cond_tick(e, cid);
    if (agony && !gw_has(e, cid, "agony"))
        gw_agony_ends(e, cid);
}

/* Damage of the area cid stands in (condition `area` {damage, type}) (002:727). */
void gw_area_hurts(rules_enc *e, const char *cid)
{
    json_t *ar = rules_enc_cond(e, cid, "area");
    char expr[48], type[20];
    snprintf(expr, sizeof expr, "%s", json_string_value(json_object_get(ar, "damage")));
    snprintf(type, sizeof type, "%s",
             json_string_value(json_object_get(ar, "type"))
                 ? json_string_value(json_object_get(ar, "type"))
                 : "");
    json_object_del(gw_comb(e, cid), "area_due");
    json_t *dice = json_array();
    int d = gw_roll_plain(e, expr, dice);
    gw_log_rolled(e, "area", "area_hurts", cid, d, dice);
    gw_take_damage(e, cid, d, type[0] ? type : NULL, (gw_source){"src.area", NULL, NULL}, 0);
}

void gw_revive(rules_enc *e, const char *t)
{
    rules_enc_cond_remove(e, t, "dying");
    gw_cond_set(e, t, 1);
    json_object_set_new(gw_obj(rules_enc_stats(e, t), "focus"), "current", json_integer(0));
    rules_enc_cond_add(e, t, "out_cold", 0, 0);
    gw_log_who(e, "revive", "revive", t);
    gw_burnout_up(e, t, "why.revived");
}

/* ---- spending a turn ---- */

void gw_mark_used(rules_enc *e, const char *cid)
{
    json_object_set_new(gw_comb(e, cid), "used", json_true());
}

int gw_budget_left(const rules_enc *e, const char *cid, const char *kind)
{
    return gw_geti(json_object_get(gw_comb(e, cid), "budget"), kind, 0);
}

/* Stunned or paralysed: no action, no movement (002:824, 002:828). */
static int held_still(const rules_enc *e, const char *cid, tb_err *err)
{
    if (gw_has(e, cid, "stun"))
        return rules_enc_rule(err, "%s is stunned: cannot act or move on their turn (002:824)",
                              gw_nm(e, cid));
    if (gw_has(e, cid, "paralysis"))
        return rules_enc_rule(err, "%s is paralysed: cannot move or act on their turn (002:828)",
                              gw_nm(e, cid));
    return 0;
}

int gw_action_check(const rules_enc *e, const char *cid, tb_err *err)
{
    int r = rules_enc_round(e);
    if (held_still(e, cid, err))
        return err->code;
    if (gw_geti(gw_comb(e, cid), "cower", 0) == r)
        return rules_enc_rule(err,
                              "%s failed the MND roll against terror: can only cower or "
                              "flee this turn (002:854)",
                              gw_nm(e, cid));
    if (gw_budget_left(e, cid, "action") < 1 &&
        gw_geti(json_object_get(gw_comb(e, cid), "reacted"), "action", 0) >= r)
        return rules_enc_rule(err,
                              "%s has no action in round %d: it was spent on a reaction "
                              "(002:437-439, the Cyrus/Kneecap example 002:443-447)",
                              gw_nm(e, cid), r);
    if (gw_budget_left(e, cid, "action") < 1)
        return rules_enc_rule(err, "%s has no action left this turn", gw_nm(e, cid));
    return 0;
}

void gw_use_action(rules_enc *e, const char *cid)
{
    rules_enc_budget_set(e, cid, "action", gw_budget_left(e, cid, "action") - 1);
    gw_spent_set(e, cid, "action", rules_enc_round(e));
    gw_mark_used(e, cid);
}

int gw_move_check(const rules_enc *e, const char *cid, tb_err *err)
{
    if (held_still(e, cid, err))
        return err->code;
    if (gw_budget_left(e, cid, "move") < 1)
        return rules_enc_rule(err,
                              "%s has no movement left this turn: a character moves "
                              "before or after their action, not both (002:465)",
                              gw_nm(e, cid));
    return 0;
}

void gw_use_move(rules_enc *e, const char *cid)
{
    rules_enc_budget_set(e, cid, "move", gw_budget_left(e, cid, "move") - 1);
    gw_mark_used(e, cid);
}

void gw_use_aux(rules_enc *e, const char *cid)
{
    rules_enc_budget_set(e, cid, "aux", gw_budget_left(e, cid, "aux") - 1);
    gw_spent_set(e, cid, "aux", rules_enc_round(e));
    gw_mark_used(e, cid);
}

/*
 * The round whose action (`aux`: auxiliary action) a reaction of cid takes now (002:433-451):
 * this round's if unused, else next round's; -1 with err set when cid cannot react (before the
 * rounds, out cold, stunned, paralysed, both spent). Changes nothing: gw_reaction_spend does.
 */
int gw_reaction_round(const rules_enc *e, const char *cid, int aux, tb_err *err)
{
    int r = rules_enc_round(e);
    const char *why = gw_incapacity(e, cid);
    if (r < 1)
        rules_enc_rule(err, "reactions happen during conflict rounds: the GM rolls initiative "
                            "first (002:399-401)");
    else if (why)
        rules_enc_rule(err, "%s cannot react: %s (002:256)", gw_nm(e, cid), why);
    else if (gw_has(e, cid, "stun") || gw_has(e, cid, "paralysis"))
        rules_enc_rule(err, "%s is %s and cannot act (002:824, 002:828)", gw_nm(e, cid),
                       gw_has(e, cid, "stun") ? "stunned" : "paralysed");
    else {
        int s = gw_spent(e, cid, aux ? "aux" : "action");
        if (s < r)
            return r; /* 002:437 before (or without) acting: this round's */
        if (s == r)
            return r + 1; /* 002:439 already acted: next round's */
        rules_enc_rule(err,
                       "%s already spent round %d's %s on a reaction: no reaction until then "
                       "(002:439)",
                       gw_nm(e, cid), s, aux ? "auxiliary action" : "action");
    }
    return -1;
}

void gw_reaction_spend(rules_enc *e, const char *cid, int aux, int uses)
{
    const char *kind = aux ? "aux" : "action";
    gw_spent_set(e, cid, kind, uses);
    json_object_set_new(gw_obj(gw_comb(e, cid), "reacted"), kind, json_integer(uses));
    if (uses == rules_enc_round(e)) {
        rules_enc_budget_set(e, cid, kind, 0);
        if (rules_enc_current(e) && strcmp(rules_enc_current(e), cid) == 0)
            gw_mark_used(e, cid);
    }
}

/* Technique use: negative Focus or burnout 3 forbid specialty techniques (002:198, 002:248),
 * frenzy any technique (002:815); the name must be on the sheet (002:302). */
int gw_focus_check(const rules_enc *e, const char *cid, const char *name, tb_err *err)
{
    json_t *st = gw_stats(e, cid);
    int cur = gw_geti(json_object_get(st, "focus"), "current", 0);
    if (gw_has(e, cid, "frenzy") || gw_has(e, cid, "amok"))
        return rules_enc_rule(err, "%s is in a frenzy: no techniques (002:815)", gw_nm(e, cid));
    if (cur < 0)
        return rules_enc_rule(err,
                              "%s has negative Focus (%d): no specialty techniques until it "
                              "is restored to 0 (002:198)",
                              gw_nm(e, cid), cur);
    if (gw_burnout(e, cid) >= 3)
        return rules_enc_rule(err, "%s is at burnout level %d: no specialty techniques (002:248)",
                              gw_nm(e, cid), gw_burnout(e, cid));
    json_t *known = json_object_get(st, "techniques");
    if (json_is_array(known)) {
        int found = 0;
        size_t i;
        json_t *v;
        json_array_foreach(known, i, v)
        {
            const char *s = json_string_value(v);
            found |= s && strcasecmp(s, name) == 0;
        }
        if (!found)
            return rules_enc_rule(err, "%s has no technique '%.60s' on the sheet (002:302)",
                                  gw_nm(e, cid), name);
    }
    return 0;
}

/* The cost may push Focus below 0, which gives a level of burnout (002:198). */
void gw_pay_focus(rules_enc *e, const char *cid, int cost)
{
    json_t *f = gw_obj(rules_enc_stats(e, cid), "focus");
    int cur = gw_geti(f, "current", 0);
    json_object_set_new(f, "current", json_integer(cur - cost));
    if (cur - cost < 0)
        gw_burnout_up(e, cid, "why.focus");
}

/* Where cid's count of light-weapon attacks lives: its public budget for a PC, its GM-only
 * object for an NPC (the count would give its COR away, 002:569-579). */
static json_t *attacks_holder(const rules_enc *e, const char *cid)
{
    return json_object_get(gw_npc(e, cid) ? gw_hidden_get(e, cid) : gw_comb(e, cid), "budget");
}

int gw_attacks_left(const rules_enc *e, const char *cid)
{
    return gw_geti(attacks_holder(e, cid), "attacks", -1);
}

void gw_attacks_set(rules_enc *e, const char *cid, int n)
{
    if (!gw_npc(e, cid)) {
        rules_enc_budget_set(e, cid, "attacks", n);
        return;
    }
    json_object_set_new(gw_obj(rules_enc_hidden_of(e, cid), "budget"), "attacks",
                        json_integer(n < 0 ? 0 : n));
}

void gw_attacks_reset(rules_enc *e, const char *cid)
{
    json_t *h = gw_hidden_get(e, cid);
    if (json_object_get(h, "budget"))
        json_object_del(h, "budget");
}

/* ---- what every check of the conflict asks first ---- */

/* While a player's attack waits for the GM's target number (gw_attack_wait), only the GM's
 * set_tn acts: the attack comes first, as it was declared. */
int gw_ready(const rules_enc *e, tb_err *err)
{
    const char *who =
        json_string_value(json_object_get(json_object_get(e->hidden, "waiting"), "attacker"));
    if (!who)
        return 0;
    return rules_enc_rule(err, "%s's attack waits for the GM's target number", gw_nm(e, who));
}

/* A turn action also waits while the character stands in an area of damage: it moves out
 * (leave) or stays (stay) first (002:727). */
int gw_turn_ready(const rules_enc *e, tb_err *err)
{
    const char *cid = e->actor;
    if (gw_ready(e, err))
        return err->code;
    if (cid && gw_geti(gw_comb(e, cid), "area_due", 0) == rules_enc_round(e) &&
        gw_has(e, cid, "area"))
        return rules_enc_rule(err,
                              "%s stands in the area: first move out of it (leave) or stay in "
                              "it and take the damage (stay) (002:727)",
                              gw_nm(e, cid));
    return 0;
}

/* An actor out of the fight (dead) takes no action at all, not even one at any time. */
int gw_actor_in(const rules_enc *e, tb_err *err)
{
    if (e->actor && rules_enc_is_out(e, e->actor))
        return rules_enc_rule(err, "%s is out of the fight", gw_nm(e, e->actor));
    return 0;
}

/* The checks every move on another combatant shares: not oneself, not someone out of the fight. */
int gw_on_other(const rules_enc *e, const char *t, const char *what, tb_err *err)
{
    if (strcmp(e->actor, t) == 0)
        return rules_enc_rule(err, "%s cannot %s themselves", gw_nm(e, e->actor), what);
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight", gw_nm(e, t));
    return 0;
}
