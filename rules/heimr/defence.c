/*
 * defence.c — the ground a combatant stands on and pre-rolled defences (001:418-446, 467-552),
 * for the Heimr encounter modules (heimr_enc.h). A defence's kind and result are open (001:395,
 * 446); an NPC's ability, C, P and dice are the GM's.
 */
#include <stdio.h>
#include <string.h>

#include "heimr_enc.h"

int heimr_ground(const rules_enc *e, const char *cid, const char *key)
{
    json_t *g = json_object_get(rules_enc_combatant(e, cid), "ground");
    json_t *v = json_object_get(g, key);
    return json_is_true(v) ? 1 : (int)json_integer_value(v);
}

/* 001:280 dazed: no defensive rolls until the daze has passed (an odd daze: until the start of
 * the turn in which it ends, `defend` set on the condition then); 001:435-437 helpless, asleep
 * and unconscious combatants (out of the fight) cannot defend. */
int heimr_can_defend(const rules_enc *e, const char *cid)
{
    json_t *daze = rules_enc_cond(e, cid, "daze");
    if (daze && !heimr_is_true(daze, "defend"))
        return 0;
    if (rules_enc_cond_has(e, cid, "no_defence") || rules_enc_cond_has(e, cid, "helpless"))
        return 0;
    /* 001:407 "If you have an opponent grabbed using bind, you can not make any defensive
     * rolls." */
    if (json_object_get(rules_enc_combatant(e, cid), "holding"))
        return 0;
    return !rules_enc_is_out(e, cid);
}

static int defence_uses(const rules_enc *e, const char *cid, const char *kind)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_combatant(e, cid), "defended"), kind));
}

/* 001:326 an ongoing action: "a consistency penalty of two on all defensive rolls until the
 * start of your next turn"; 001:434 prone: "a consistency penalty of two for all attacks and
 * defences"; 001:475 difficult terrain: "a consistency penalty of one to melee attacks, parry and
 * dodge". What cid's defence of `kind` loses now. */
static int standing_penalty(const rules_enc *e, const char *cid, const char *kind)
{
    int difficult = heimr_ground(e, cid, "difficult") && kind && strcmp(kind, "block") != 0;
    return 2 * rules_enc_cond_has(e, cid, "ongoing") + 2 * rules_enc_cond_has(e, cid, "prone") +
           difficult;
}

void heimr_defence_recast(rules_enc *e, json_t *d, int delta)
{
    /* the same dice, d10s it lacks rolled now (heimr_roll_recast); `situational` adds delta */
    heimr_roll r = {0};
    r.c = (int)json_integer_value(json_object_get(d, "consistency"));
    r.p = (int)json_integer_value(json_object_get(d, "potential"));
    r.d6 = (int)json_integer_value(json_object_get(d, "d6"));
    json_t *d10s = json_object_get(d, "d10s");
    r.n10 = (int)json_array_size(d10s);
    if (r.n10 > HEIMR_MAX_C)
        r.n10 = HEIMR_MAX_C;
    for (int i = 0; i < r.n10; i++)
        r.d10[i] = (int)json_integer_value(json_array_get(d10s, (size_t)i));
    heimr_enc_recast(&r, r.c - delta, e->rng);
    json_t *fresh = heimr_roll_json(&r);
    json_object_update(d, fresh);
    json_decref(fresh);
    json_object_set_new(
        d, "situational",
        json_integer((int)json_integer_value(json_object_get(d, "situational")) + delta));
}

/*
 * A pre-rolled defence d (in priv) is used against an attack: the ongoing and prone penalties
 * count as they are now, not as they were when it was rolled (RULES.md, heimr encounters,
 * reading 10). The same dice are read at the new consistency; d10s missing are rolled now. d is
 * updated in place.
 */
static void defence_at_use(rules_enc *e, const char *cid, json_t *d)
{
    if (!json_object_get(d, "standing"))
        return; /* rolled by an older version: what it included is unknown, it stays */
    int then = (int)json_integer_value(json_object_get(d, "standing"));
    int now = standing_penalty(e, cid, json_string_value(json_object_get(d, "kind")));
    if (now == then)
        return;
    heimr_defence_recast(e, d, now - then);
    json_object_set_new(d, "standing", json_integer(now));
}

int heimr_defence_check(const rules_enc *e, const char *cid, const char *kind, const char *ability,
                        const char *item, unsigned skip, tb_err *err)
{
    const char *name = rules_enc_name(e, cid);
    int parry = kind && strcmp(kind, "parry") == 0;
    if (!kind || (strcmp(kind, "dodge") != 0 && strcmp(kind, "block") != 0 && !parry))
        return tb_fail(err, TB_BAD_REQUEST,
                       "defence: 'kind' must be dodge, block or parry "
                       "(001:420)");
    if (!(skip & HEIMR_DEF_TURN_END) && !heimr_can_defend(e, cid))
        return rules_enc_rule(err,
                              "%s cannot make defensive rolls now (dazed, helpless or holding "
                              "someone: 001:280, 001:407, 001:435)",
                              name);
    json_t *held = skip ? NULL : json_object_get(heimr_priv_of(e, cid), "defence");
    const char *held_kind = json_string_value(json_object_get(held, "kind"));
    if (held && !(held_kind && strcmp(held_kind, "parry") == 0 && !parry))
        return rules_enc_rule(err,
                              "%s already holds a pre-rolled %s; a new defence is rolled "
                              "once it is used (001:446)",
                              name, held_kind ? held_kind : "defence");
    if (parry && defence_uses(e, cid, "parry") >= heimr_stat(e, cid, "melee_weapons", 1))
        return rules_enc_rule(err,
                              "%s has already parried since their last turn: one parry per "
                              "melee weapon between turns (001:426)",
                              name);
    if (strcmp(kind, "block") == 0 && !ability && !item)
        return rules_enc_rule(err, "blocking needs a shield and the ability used with it: name "
                                   "the 'item' or 'ability' (001:422)");
    if (parry && !ability && !item)
        return rules_enc_rule(err, "parrying needs a weapon and its ability: name the 'item' or "
                                   "'ability' (001:422)");
    heimr_spec s;
    return heimr_spec_resolve(e, cid, ability ? ability : (item ? NULL : "Agility"), item, 0, 0, 0,
                              &s, err);
}

/*
 * Pre-rolls cid's defence of `kind` (dodge, block or parry) with an ability (dodge: Agility by
 * default, 001:422) and stores it in priv(cid).defence; the public `stance` names the kind only.
 * extra_p: +2 for the Dodge action (001:364).
 */
int heimr_defence_roll(rules_enc *e, const char *cid, const char *kind, const char *ability,
                       const char *item, int situational, int extra_p, tb_err *err)
{
    int rc = heimr_defence_check(e, cid, kind, ability, item, 0, err);
    if (rc)
        return rc;
    json_t *c = rules_enc_combatant(e, cid);
    json_t *pv = heimr_priv(e, cid);
    int parry = strcmp(kind, "parry") == 0;
    json_t *held = json_object_get(pv, "defence");
    heimr_spec s;
    heimr_spec_resolve(e, cid, ability ? ability : (item ? NULL : "Agility"), item, 0, 0, 0, &s,
                       err);
    /* 001:426 two per earlier use of a dodge or a block since the last turn; 001:326 an ongoing
     * action: two on all defences; 001:434 prone: two */
    int uses = parry ? 0 : defence_uses(e, cid, kind);
    int standing = standing_penalty(e, cid, kind);
    int pen = 2 * uses + situational + standing;
    heimr_roll r;
    heimr_enc_roll(s.c - pen, s.p + extra_p, e->rng, &r);
    if (held) /* 001:446 a parry already rolled is kept for the first melee attack */
        json_object_set(pv, "kept_parry", held);
    json_t *d = heimr_roll_json(&r);
    json_object_set_new(d, "kind", json_string(kind));
    json_object_set_new(d, "ability", json_string(s.ability));
    json_object_set_new(d, "physical", json_boolean(s.phys));
    json_object_set_new(d, "situational", json_integer(pen));
    json_object_set_new(d, "standing", json_integer(standing));
    json_object_set_new(pv, "defence", d);
    json_object_set_new(c, "stance", json_string(kind));
    /* 001:395, 001:446 "you can ask how high a character's defence roll is": the kind and the
     * result are open, an NPC's ability, dice and pool stay the GM's */
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_log *x = rules_log_begin(e, "defend", "defend");
    rules_log_who(x, "who", cid);
    heimr_log_roll(x, &r, NULL, aud);
    rules_log_json(x, "ability", json_string(s.ability), aud);
    rules_log_name(x, "with", s.ability, aud);
    rules_log_json(x, "physical", json_boolean(s.phys), aud);
    rules_log_int(x, "situational", pen, aud);
    rules_log_int(x, "standing", standing, aud);
    rules_log_json(x, "kind", json_string(kind), RULES_AUD_PUBLIC);
    rules_log_name(x, "stance", kind, RULES_AUD_PUBLIC);
    rules_log_int(x, "result", r.result, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/*
 * The defence tgt meets an attack with (001:418-446), in *def (borrowed from priv(tgt), NULL: no
 * defence) and the slot it sits in: a kept parry first against a melee attack; none held, or a
 * parry against a ranged attack: a dodge is rolled now, before the attack roll (001:420 "You must
 * roll defence before knowing the result of the attack roll"; 001:422 "You can only parry against
 * melee attacks").
 */
void heimr_defence_pick(rules_enc *e, const char *tgt, int ranged, json_t **def, const char **slot)
{
    *def = NULL;
    *slot = NULL;
    if (!heimr_can_defend(e, tgt))
        return;
    json_t *tp = heimr_priv(e, tgt);
    json_t *held = json_object_get(tp, "defence");
    const char *hk = json_string_value(json_object_get(held, "kind"));
    if (!ranged && json_object_get(tp, "kept_parry")) {
        *slot = "kept_parry"; /* 001:446 "must be used ... against the first melee attack" */
    } else if (held && !(ranged && hk && strcmp(hk, "parry") == 0)) {
        *slot = "defence";
    } else {
        tb_err err = {0};
        heimr_defence_roll(e, tgt, "dodge", NULL, NULL, 0, 0, &err); /* Agility: on every sheet */
        *slot = "defence";
    }
    *def = json_object_get(tp, *slot);
    if (*def)
        defence_at_use(e, tgt, *def);
}
