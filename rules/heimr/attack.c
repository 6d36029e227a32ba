/*
 * attack.c — an attack of the Heimr combat, from the roll to the hit (001:393-446), for the
 * Heimr encounter modules (heimr_enc.h): a guard takes it first (001:450), a holder's Brawl
 * stops it (001:407), the defence is chosen or rolled before the attack roll (001:420), the body
 * part, the damage or the grab (001:401, 411-414). An NPC attacker's dice and numbers, and an NPC
 * defender's defence and HP, are the GM's (rules/RULES.md, "What the table sees (heimr)").
 */
#include <stdio.h>
#include <string.h>

#include "heimr_enc.h"

#define BLIND_SPOT 5 /* 001:562 "a penalty of 5 on their defence consistency" */

void heimr_attack_from_args(const rules_args *a, heimr_attack *k)
{
    memset(k, 0, sizeof *k);
    const char *s;
    if ((s = rules_arg_str(a, "target")))
        snprintf(k->target, sizeof k->target, "%s", s);
    if ((s = rules_arg_str(a, "ability")))
        snprintf(k->ability, sizeof k->ability, "%s", s);
    if ((s = rules_arg_str(a, "item")))
        snprintf(k->item, sizeof k->item, "%s", s);
    if ((s = rules_arg_str(a, "aim")))
        snprintf(k->aim, sizeof k->aim, "%s", s);
    k->has_cp = rules_arg_given(a, "c") || rules_arg_given(a, "p");
    k->c = rules_arg_int(a, "c");
    k->p = rules_arg_int(a, "p");
    k->penalty = rules_arg_int(a, "penalty");
    k->damage = rules_arg_int(a, "damage");
    k->ranged = rules_arg_int(a, "ranged");
    k->brawl = rules_arg_int(a, "brawl");
    k->bind = rules_arg_int(a, "bind");
    k->blind_spot = rules_arg_int(a, "blind_spot");
}

json_t *heimr_attack_json(const heimr_attack *k)
{
    json_t *o =
        json_pack("{s:i, s:i, s:i, s:b, s:b, s:b}", "penalty", k->penalty, "damage", k->damage,
                  "ranged", k->ranged, "brawl", k->brawl, "has_cp", k->has_cp, "bind", k->bind);
    if (k->blind_spot)
        json_object_set_new(o, "blind_spot", json_true());
    if (k->target[0])
        json_object_set_new(o, "target", json_string(k->target));
    if (k->ability[0])
        json_object_set_new(o, "ability", json_string(k->ability));
    if (k->item[0])
        json_object_set_new(o, "item", json_string(k->item));
    if (k->aim[0])
        json_object_set_new(o, "aim", json_string(k->aim));
    if (k->has_cp) {
        json_object_set_new(o, "c", json_integer(k->c));
        json_object_set_new(o, "p", json_integer(k->p));
    }
    return o;
}

void heimr_attack_from_json(const json_t *o, heimr_attack *k)
{
    memset(k, 0, sizeof *k);
    const char *s;
    if ((s = json_string_value(json_object_get(o, "target"))))
        snprintf(k->target, sizeof k->target, "%s", s);
    if ((s = json_string_value(json_object_get(o, "ability"))))
        snprintf(k->ability, sizeof k->ability, "%s", s);
    if ((s = json_string_value(json_object_get(o, "item"))))
        snprintf(k->item, sizeof k->item, "%s", s);
    if ((s = json_string_value(json_object_get(o, "aim"))))
        snprintf(k->aim, sizeof k->aim, "%s", s);
    k->has_cp = json_is_true(json_object_get(o, "has_cp"));
    k->c = (int)json_integer_value(json_object_get(o, "c"));
    k->p = (int)json_integer_value(json_object_get(o, "p"));
    k->penalty = (int)json_integer_value(json_object_get(o, "penalty"));
    k->damage = (int)json_integer_value(json_object_get(o, "damage"));
    k->ranged = json_is_true(json_object_get(o, "ranged"));
    k->brawl = json_is_true(json_object_get(o, "brawl"));
    k->bind = json_is_true(json_object_get(o, "bind"));
    k->blind_spot = json_is_true(json_object_get(o, "blind_spot"));
}

/* Checks an attack can be made before anything is rolled (also when it is readied). */
int heimr_attack_check(const rules_enc *e, const char *cid, const heimr_attack *k, const char *from,
                       tb_err *err)
{
    if (k->aim[0] && !heimr_is_part(k->aim))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act: 'aim' must be one of torso, sword_arm, "
                       "other_arm, right_leg, left_leg (001:413)");
    if (k->bind && !k->brawl)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act: 'bind' is the brawl attack's grab: give 'brawl' "
                       "too (001:401)");
    if (k->target[0] && strcmp(k->target, cid) == 0)
        return rules_enc_rule(err, "%s cannot attack themselves", rules_enc_name(e, cid));
    json_t *me = rules_enc_combatant(e, cid);
    /* 001:401 "You need one free hand to do the bind effect": one grab at a time (reading) */
    if (k->bind && json_object_get(me, "holding"))
        return rules_enc_rule(err, "%s already holds %s: one grab at a time (001:401)",
                              rules_enc_name(e, cid),
                              rules_enc_name(e, json_string_value(json_object_get(me, "holding"))));
    if (k->bind && k->target[0] && heimr_holder_of(e, k->target))
        return rules_enc_rule(err, "%s is already held by %s", rules_enc_name(e, k->target),
                              rules_enc_name(e, heimr_holder_of(e, k->target)));
    /* 001:131 a bound arm: "Keep your arm attached to whatever it is touching" — a sword arm
     * held wields no weapon; kicks and head-butts remain (RULES.md, heimr encounter reading 14) */
    if (rules_enc_streq(heimr_held_part(e, cid), "sword_arm") && !k->brawl)
        return rules_enc_rule(err, "%s's sword arm is held: only a brawl attack is left (001:131)",
                              rules_enc_name(e, cid));
    /* 001:517 "You can attack characters with melee who are one position higher or one position
     * lower": two or more apart, a melee attack is refused (the one a guard would take too) */
    if (k->target[0] && !k->ranged && rules_enc_combatant(e, k->target)) {
        const char *g = heimr_guard_for(e, cid, k->target, from);
        const char *at = g ? g : k->target;
        int dh = heimr_ground(e, at, "height") - heimr_ground(e, cid, "height");
        if (dh >= 2 || dh <= -2)
            return rules_enc_rule(err,
                                  "%s stands %d higher than %s: too far for a melee attack, climb "
                                  "first (001:517)",
                                  rules_enc_name(e, dh > 0 ? at : cid), dh > 0 ? dh : -dh,
                                  rules_enc_name(e, dh > 0 ? cid : at));
        /* 001:256 "Characters can only attack each other with melee attacks when they are in
         * the same square": read from the map when both tokens are shown on it */
        int d = heimr_grid_between(e, cid, at);
        if (d > 0)
            return rules_enc_rule(err,
                                  "%s is %d square%s away from %s: a melee attack needs the same "
                                  "square (001:256)",
                                  rules_enc_name(e, at), d, d == 1 ? "" : "s",
                                  rules_enc_name(e, cid));
    }
    heimr_spec s;
    return heimr_spec_resolve(e, cid, k->ability[0] ? k->ability : NULL,
                              k->item[0] ? k->item : NULL, k->has_cp, k->c, k->p, &s, err);
}

/* The attacker's roll, shared by every target it meets (a guard, then the one guarded). */
typedef struct swing {
    heimr_roll r;
    heimr_spec s;
    int fat, passes, rose;
} swing;

/*
 * The rolled attack w of cid meets tgt holding def (in `slot`, or NULL: no defence): the
 * defence is used (001:426 counted, 001:446 its fatigue now), the hit (attack above the defence:
 * ties to the defender, 001:420), the body part from the attack's d6 (001:411-414), the damage
 * or the grab (001:401), and the log entry. The kind of defence used goes to used[8] ("" for
 * none). Returns 1 on a hit.
 */
static int attack_meet(rules_enc *e, const char *cid, const heimr_attack *k, const char *tgt,
                       const swing *w, json_t *def, const char *slot, const char *how, char *used)
{
    json_t *tc = rules_enc_combatant(e, tgt), *tp = heimr_priv(e, tgt);
    const heimr_roll *r = &w->r;
    /* the entry (rules/RULES.md, "What the table sees (heimr)"): an NPC attacker's dice and
     * numbers, an NPC defender's defence as it was used and its HP are the GM's */
    rules_aud mine = rules_enc_aud_of(e, cid), theirs = rules_enc_aud_of(e, tgt);
    rules_log *x = rules_log_begin(e, "attack", "attack");
    rules_log_who(x, "who", cid);
    rules_log_who(x, "whom", tgt);
    if (how[0])
        rules_log_name(x, "how", how, RULES_AUD_PUBLIC);
    json_t *dice = json_array();
    heimr_roll_dice(dice, r, "attack");
    rules_log_dice(x, dice, mine);
    json_decref(dice);
    rules_log_json(x, "attacker", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_json(x, "target", json_string(tgt), RULES_AUD_PUBLIC);
    rules_log_json(x, "attack", heimr_roll_json(r), mine);
    rules_log_json(x, "fatigue_ok", json_boolean(w->passes), mine);
    rules_log_int(x, "fatigue_checked", w->fat, mine);
    if (w->rose)
        rules_log_json(x, "fatigue_rose", json_true(), mine);
    if (mine == RULES_AUD_GM) { /* the NPC's roll, for the GM */
        rules_log_word(x, "stats", "attack.stats", RULES_AUD_GM);
        rules_log_name(x, "with", w->s.ability[0] ? w->s.ability : "attack", RULES_AUD_GM);
        rules_log_int(x, "result", r->result, RULES_AUD_GM);
        rules_log_int(x, "consistency", r->c, RULES_AUD_GM);
        rules_log_int(x, "potential", r->p, RULES_AUD_GM);
    }
    rules_log_int(x, "before_potential", r->before_potential, mine);
    int hit = 0, dmg = 0, graze = 0;
    const char *part = NULL;
    const char *dkind = def ? json_string_value(json_object_get(def, "kind")) : NULL;
    int dval = def ? (int)json_integer_value(json_object_get(def, "result")) : 0;
    used[0] = 0;
    if (!w->passes) {
        /* 001:284 "If this is an attack, the opponent does not have to defend" */
        rules_log_word(x, "outcome", mine == RULES_AUD_GM ? "attack.tired-npc" : "attack.tired",
                       RULES_AUD_PUBLIC);
    } else {
        int def_fails = 0;
        if (def) {
            /* the defence is used: 001:426 counts it, 001:446 fatigue changes only now */
            snprintf(used, 8, "%s", dkind ? dkind : "");
            json_t *uses = json_object_get(tc, "defended");
            if (!json_is_object(uses)) {
                uses = json_object();
                json_object_set_new(tc, "defended", uses);
            }
            json_object_set_new(uses, dkind,
                                json_integer(json_integer_value(json_object_get(uses, dkind)) + 1));
            int tfat = rules_enc_stat(e, tgt, "fatigue", 1);
            if (heimr_is_true(def, "physical")) {
                def_fails =
                    (int)json_integer_value(json_object_get(def, "before_potential")) < tfat;
                heimr_fatigue_rise(e, tgt, (int)json_integer_value(json_object_get(def, "d6")));
            }
            rules_log_json(x, "defence", json_incref(def), theirs);
            rules_log_json(x, "defence_fails_fatigue", json_boolean(def_fails), RULES_AUD_GM);
            rules_log_word(x, "def", def_fails ? "attack.def-tired" : "attack.def", theirs);
            rules_log_name(x, "against", dkind, RULES_AUD_PUBLIC);
            rules_log_int(x, "defended", dval, theirs);
        } else {
            rules_log_word(x, "against", "attack.undefended", RULES_AUD_PUBLIC);
        }
        hit = !def || def_fails || rules_opposed(r->result, dval, RULES_TIE_DEFENDER);
        /* 001:401 a brawl attack equal to the defence or one less "can be considered a 'hit', but
         * it wasn't strong enough to effect hit points" — nor to hold (RULES.md, heimr
         * encounter reading 14) */
        graze = k->brawl && !hit && (r->result == dval || r->result == dval - 1);
        part = k->aim[0] ? k->aim : HEIMR_PART_BY_D6[r->d6 - 1];
        dmg = k->bind ? 0 : k->brawl ? 1 : k->damage;
        rules_log_word(x, "outcome", "attack.met", RULES_AUD_PUBLIC);
        rules_log_word(x, "verdict",
                       hit     ? "verdict.hit"
                       : graze ? "verdict.graze"
                               : "verdict.miss",
                       RULES_AUD_PUBLIC);
        if (hit) { /* 001:411-414 the attack's d6 is where it lands, in plain sight */
            rules_log_word(x, "where", "attack.where", RULES_AUD_PUBLIC);
            rules_log_name(x, "at", part, RULES_AUD_PUBLIC);
            rules_log_int(x, "spot", r->d6, RULES_AUD_PUBLIC);
            if (k->aim[0])
                rules_log_word(x, "aimed", "attack.aimed", RULES_AUD_PUBLIC);
            rules_log_json(x, "part", json_string(part), RULES_AUD_PUBLIC);
        }
        /* the defence is spent: a new one is pre-rolled (001:446) */
        if (slot) {
            json_object_del(tp, slot);
            if (strcmp(slot, "defence") == 0)
                json_object_del(tc, "stance");
        }
    }
    rules_log_json(x, "hit", json_boolean(hit), RULES_AUD_PUBLIC);
    if (hit && k->bind) {
        /* 001:401 "the target receives either a hit 1 or bind effect"; 001:407 "The body part you
         * bind is the one you roll for with the brawl challenge" */
        json_object_set_new(tc, "held_by", json_pack("{s:s, s:s}", "by", cid, "part", part));
        json_object_set_new(rules_enc_combatant(e, cid), "holding", json_string(tgt));
        rules_log_word(x, "grab", "attack.grab", RULES_AUD_PUBLIC);
        rules_log_name(x, "at_words", heimr_part_words(part), RULES_AUD_PUBLIC);
        rules_log_json(x, "bind", json_true(), RULES_AUD_PUBLIC);
    } else if (hit) {
        rules_log_int(x, "damage", dmg,
                      mine == RULES_AUD_GM && theirs == RULES_AUD_GM ? RULES_AUD_GM
                                                                     : RULES_AUD_PUBLIC);
        int hp = heimr_take_damage(e, tgt, dmg, part, x);
        if (theirs == RULES_AUD_GM) {
            rules_log_word(x, "hp_gm", "attack.hp", RULES_AUD_GM);
            rules_log_int(x, "hp", hp, RULES_AUD_GM);
        }
    }
    rules_log_end(x);
    /* 001:407 "the bind effect also ends if you receive an effect, or if the character you have
     * grabbed successfully attacks you": a hit on a holder loosens its grip */
    if (hit && json_object_get(tc, "holding"))
        heimr_bind_end(e, tgt, "release.hit");
    return hit;
}

/*
 * One attack of cid on k->target (001:393-446). A guard of the target takes it instead (001:450,
 * guard_for); a held attacker's roll must reach its holder's Brawl first (001:407, hold_stop);
 * the defence is chosen (or rolled) before the attack roll; a ranged attack the guard dodges
 * moves on to the one guarded with the same roll, a block stops it (001:450).
 */
void heimr_attack_run(rules_enc *e, const char *cid, const heimr_attack *k, const char *how)
{
    const char *tgt = k->target;
    tb_err err = {0};
    swing w;
    memset(&w, 0, sizeof w);
    heimr_spec_resolve(e, cid, k->ability[0] ? k->ability : NULL, k->item[0] ? k->item : NULL,
                       k->has_cp, k->c, k->p, &w.s, &err);
    const char *guard = heimr_guard_for(e, cid, tgt, cid);
    const char *at = guard ? guard : tgt;
    /* 001:407 the holder's Brawl is the requirement, set before the attack is rolled */
    int cr = 0, held = heimr_holder_of(e, cid) != NULL && w.s.phys;
    if (held)
        heimr_hold_stop(e, cid, &cr);
    heimr_interrupt_upcoming(e, at); /* 001:327 */
    json_t *def;
    const char *slot;
    heimr_defence_pick(e, at, k->ranged, &def, &slot);

    /* the attack roll: 001:416 aiming, 001:434 prone attacker / ranged at a prone target,
     * the GM's situational penalty (range, clusters, darkness: 001:262, 266, 540) */
    int pen = k->penalty;
    if (k->aim[0])
        pen += 2;
    if (rules_enc_cond_has(e, cid, "prone"))
        pen += 2;
    if (k->ranged && rules_enc_cond_has(e, at, "prone"))
        pen += 2;
    if (!k->ranged) {
        /* 001:475 difficult terrain: melee attacks C-1; 001:517 a target one higher: C-1, one
         * lower: C+1 */
        pen += heimr_ground(e, cid, "difficult");
        pen += heimr_ground(e, at, "height") - heimr_ground(e, cid, "height");
    } else {
        /* 001:438, 540-552 concealment: its effectiveness off a ranged attack; never against a
         * melee attacker, who shares the target's cluster (heimr encounter reading 19) */
        pen += heimr_ground(e, at, "concealment");
        /* 001:262-264 a target in another square: half the distance, rounded down, read from the
         * map (moves along the axes; climbing to a higher target counts, jumping down is free) */
        int d = heimr_grid_between(e, cid, at);
        int up = heimr_ground(e, at, "height") - heimr_ground(e, cid, "height");
        if (d > 0)
            pen += (d + (up > 0 ? up : 0)) / 2;
    }
    heimr_enc_roll(w.s.c - pen, w.s.p, e->rng, &w.r);
    w.fat = rules_enc_stat(e, cid, "fatigue", 1);
    /* 001:284 a physical roll must reach fatigue before potential; "If this is an attack, the
     * opponent does not have to defend." */
    w.passes = !w.s.phys || heimr_fatigue_passes(&w.r, w.fat);
    w.rose = w.s.phys && heimr_fatigue_rise(e, cid, w.r.d6);

    if (held && cr > 0 && (!w.passes || w.r.result < cr)) {
        /* 001:407 the action does not pass the requirement: it is stopped, the grip holds */
        rules_aud mine = rules_enc_aud_of(e, cid);
        rules_log *x = rules_log_begin(e, "attack", "stopped");
        rules_log_who(x, "who", cid);
        rules_log_who(x, "whom", tgt);
        rules_log_who(x, "holder", heimr_holder_of(e, cid));
        if (how[0])
            rules_log_name(x, "how", how, RULES_AUD_PUBLIC);
        json_t *dice = json_array();
        heimr_roll_dice(dice, &w.r, "attack");
        rules_log_dice(x, dice, mine);
        json_decref(dice);
        rules_log_json(x, "attacker", json_string(cid), mine);
        rules_log_json(x, "target", json_string(tgt), mine);
        rules_log_json(x, "attack", heimr_roll_json(&w.r), mine);
        rules_log_json(x, "fatigue_ok", json_boolean(w.passes), mine);
        rules_log_json(x, "hit", json_false(), RULES_AUD_PUBLIC);
        rules_log_json(x, "stopped", json_true(), RULES_AUD_PUBLIC);
        rules_log_word(x, "own", "stopped.own", mine);
        rules_log_name(x, "with", w.s.ability[0] ? w.s.ability : "attack", mine);
        rules_log_int(x, "result", w.r.result, mine);
        rules_log_end(x);
        return;
    }
    if (held)
        heimr_bind_end(e, heimr_holder_of(e, cid), "release.attack");
    /* 001:562 blind spots module: "a penalty of 5 on their defence consistency from ranged
     * attacks coming from a blind spot" (and melee from one who entered from it), on the
     * defence used, read again now (heimr encounter reading 20) */
    if (k->blind_spot && w.passes && def)
        heimr_defence_recast(e, def, BLIND_SPOT);
    if (guard) {
        /* 001:450 "the attack will be directed to you instead"; 001:452 "The guard ends once
         * you've intercepted one opponent" */
        json_object_del(rules_enc_combatant(e, guard), "guarding");
        rules_log *x = rules_log_begin(e, "guard", "guard-step");
        rules_log_who(x, "who", guard);
        rules_log_who(x, "whom", tgt);
        rules_log_who(x, "by", cid);
        rules_log_end(x);
    }
    char used[8];
    int hit = attack_meet(e, cid, k, at, &w, def, slot, how, used);
    if (guard && k->ranged && w.passes && !hit && strcmp(used, "dodge") == 0 &&
        !rules_enc_is_out(e, tgt)) {
        /* 001:450 "If this is a ranged attack, the attack moves on to it's original target if you
         * successfully dodge the attack. Blocking a ranged attack stops it." The same roll
         * (RULES.md, heimr encounter reading 12). */
        heimr_tell(e, "guard", "guard-dodge", guard, tgt);
        heimr_interrupt_upcoming(e, tgt);
        heimr_defence_pick(e, tgt, 1, &def, &slot);
        if (k->blind_spot && def)
            heimr_defence_recast(e, def, BLIND_SPOT);
        w.rose = 0;
        attack_meet(e, cid, k, tgt, &w, def, slot, how, used);
    }
    heimr_restraint_tidy(e);
}

/* ---- readied actions (001:248-252) ---- */

void heimr_ready(rules_enc *e, const char *cid, const char *what, const char *trigger,
                 const heimr_attack *k)
{
    int is_attack = !what || strcmp(what, "attack") == 0;
    json_t *pv = heimr_priv(e, cid);
    json_t *ready =
        json_pack("{s:s, s:s}", "action", is_attack ? "attack" : what, "trigger", trigger);
    if (is_attack)
        json_object_set_new(ready, "attack", heimr_attack_json(k));
    json_object_set_new(ready, "round", json_integer(rules_enc_round(e)));
    json_object_set_new(pv, "ready", ready);
    json_object_set_new(rules_enc_combatant(e, cid), "readied", json_true());
    /* an NPC's readied action and its trigger are the GM's (RULES.md, "What the table sees") */
    rules_aud mine = rules_enc_aud_of(e, cid);
    rules_log *x = rules_log_begin(e, "ready", "ready");
    rules_log_who(x, "who", cid);
    if (mine == RULES_AUD_GM)
        rules_log_word(x, "secret", "ready.secret", RULES_AUD_GM);
    if (is_attack)
        rules_log_word(x, "what", "ready.attack", mine);
    else
        rules_log_name(x, "what", what, mine);
    if (k->target[0]) {
        rules_log_word(x, "on", "ready.on", mine);
        rules_log_who(x, "aimed_at", k->target);
    }
    rules_log_name(x, "trigger", trigger, mine);
    rules_log_end(x);
}

void heimr_readied_attack(const json_t *ready, const char *by, heimr_attack *k)
{
    heimr_attack_from_json(json_object_get(ready, "attack"), k);
    if (!k->target[0]) /* "an opponent enters this square": the one who triggered it */
        snprintf(k->target, sizeof k->target, "%s", by);
}

void heimr_trigger(rules_enc *e, const char *cid, const char *by)
{
    json_t *pv = heimr_priv(e, cid);
    /* 001:250 "The character with the readied action is moved to the turn before the character
     * who triggered the action." */
    int from = rules_enc_order_index(e, cid), ti = rules_enc_order_index(e, by);
    if (from >= 0 && ti >= 0) {
        int to = ti > from ? ti - 1 : ti;
        rules_enc_order_move(e, from, to);
    }
    json_t *keep = json_incref(json_object_get(pv, "ready"));
    json_object_del(pv, "ready");
    json_object_del(rules_enc_combatant(e, cid), "readied");
    const char *what = json_string_value(json_object_get(keep, "action"));
    int attack = strcmp(what, "attack") == 0;
    /* an NPC's trigger and readied action are the GM's: the table sees it act (RULES.md, "What
     * the table sees (heimr)") */
    rules_aud mine = rules_enc_aud_of(e, cid);
    rules_log *x = rules_log_begin(e, "trigger", "trigger");
    rules_log_who(x, "who", cid);
    rules_log_who(x, "whom", by);
    if (!(mine == RULES_AUD_GM && attack))
        rules_log_name(x, "trigger", json_string_value(json_object_get(keep, "trigger")), mine);
    rules_log_end(x);
    if (attack) {
        heimr_attack k;
        heimr_readied_attack(keep, by, &k);
        heimr_attack_run(e, cid, &k, "Readied: ");
    } else {
        x = rules_log_begin(e, "trigger", "readied");
        rules_log_who(x, "who", cid);
        rules_log_name(x, "what", what, mine);
        rules_log_end(x);
    }
    json_decref(keep);
}
