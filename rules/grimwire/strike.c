/*
 * strike.c — the dice of a GRIMWIRE attack, shove or grapple once the module allowed and spent
 * it (rulebook 002_c1f3df0ad7b1e31f.txt, cited 002:LINE): the hit against the GM's hidden target
 * number, the PC's evasion of an NPC, or COR against AGL between PCs (002:531-545, 002:767-769);
 * damage with TOG, doubled on a natural 20 (002:59, 002:563); a natural 1's stray hit
 * (002:553-559); surprise (002:521-523), shields (002:755-761), heavy weapons (002:589),
 * targeted and held-back attacks (002:647-653); a player's attack waiting for the GM's number
 * (reading G4). Calls fight.c (grimwire_enc.h).
 */
#include <stdio.h>
#include <string.h>

#include "dice.h"
#include "grimwire_enc.h"

/* ---- the weapon ---- */

/* The weapon used: the sheet's weapons[weapon-1], a given damage expression, or bare hands (an
 * unarmed attack is a light-weapon attack doing TOG damage, 002:597). */
int gw_pick_weapon(const rules_enc *e, const char *cid, const rules_args *a, gw_weapon *w,
                   tb_err *err)
{
    json_t *list = json_object_get(gw_stats(e, cid), "weapons");
    int wi = rules_arg_int(a, "weapon");
    memset(w, 0, sizeof *w);
    if (rules_arg_given(a, "weapon") || (json_array_size(list) && !rules_arg_given(a, "damage"))) {
        json_t *x = json_array_get(list, (size_t)(wi - 1));
        if (!x)
            return tb_fail(err, TB_BAD_REQUEST, "%s has no weapon %d (the sheet lists %zu)",
                           gw_nm(e, cid), wi, json_array_size(list));
        snprintf(w->name, sizeof w->name, "%s", json_string_value(json_object_get(x, "name")));
        snprintf(w->damage, sizeof w->damage, "%s",
                 json_string_value(json_object_get(x, "damage")));
        snprintf(w->kind, sizeof w->kind, "%s", json_string_value(json_object_get(x, "kind")));
        w->tog_req = gw_geti(x, "tog_req", 0);
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
                           "a weapon's kind is light, heavy, ranged or supernatural");
        snprintf(w->kind, sizeof w->kind, "%s", k);
    }
    /* the damage dice read before the attack is rolled: a refused attack draws no die */
    return gw_damage_check(w->damage, err);
}

const char *gw_attack_type(const rules_args *a, const gw_weapon *w)
{
    const char *type = rules_arg_str(a, "type");
    if (!type)
        type = strcmp(w->kind, "supernatural") == 0 ? "supernatural" : "physical";
    return type;
}

static int melee(const gw_weapon *w, int thrown)
{
    return thrown || strcmp(w->kind, "light") == 0 || strcmp(w->kind, "heavy") == 0;
}

/* Damage of a hit: the weapon's dice + TOG for melee and thrown attacks, never below 1
 * (002:108, 002:563), doubled on a natural 20 (002:59), halved on a PC-vs-PC tie (002:541). The
 * expression was parsed before (gw_damage_check); one that does not parse rolls nothing. */
static int roll_damage(rules_enc *e, const char *cid, const char *expr, int add_tog, int critical,
                       int half, json_t *dice)
{
    rules_dice_expr *x = NULL;
    tb_err err = {0};
    int roll = 0;
    if (rules_dice_parse(expr, &x, &err) == 0) {
        json_t *r = rules_dice_roll(x, e->rng);
        rules_dice_free(x);
        size_t i;
        json_t *d;
        json_array_foreach(json_object_get(r, "dice"), i, d) json_array_append(dice, d);
        roll = (int)json_integer_value(json_object_get(r, "total"));
        json_decref(r);
    }
    int dmg = add_tog ? grimwire_melee_damage(roll, gw_attr(e, cid, "tog"), critical)
                      : (roll < 1 ? 1 : roll) * (critical ? 2 : 1);
    if (half)
        dmg = dmg / 2 < 1 ? 1 : dmg / 2;
    return dmg;
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
    int b = gw_geti(sp, "bonus", 0);
    json_object_del(e->enc, "surprise");
    rules_enc_log(e, "surprise", NULL, json_pack("{s:i}", "bonus", b),
                  "%s strikes first from surprise: +%d to hit (002:521-523)", gw_nm(e, cid), b);
    return b;
}

/*
 * Who shields t from cid's attack now (002:755-761): a combatant whose `shield` {target, round,
 * attacker?} names t this round, able to act, and not yet shielding from another attacker this
 * round ("only shield attacks from one attacker per round", several of that one's attacks).
 */
static const char *shield_for(const rules_enc *e, const char *cid, const char *t)
{
    const char *o;
    int r = rules_enc_round(e);
    for (size_t i = 0; (o = rules_enc_cid_at(e, i)); i++) {
        json_t *sh = json_object_get(gw_comb(e, o), "shield");
        const char *by = json_string_value(json_object_get(sh, "attacker"));
        if (!sh || strcmp(o, cid) == 0 || gw_geti(sh, "round", 0) != r ||
            !rules_enc_streq(json_string_value(json_object_get(sh, "target")), t) ||
            (by && strcmp(by, cid) != 0) || gw_incapacity(e, o) || gw_has(e, o, "stun") ||
            gw_has(e, o, "paralysis"))
            continue;
        return o;
    }
    return NULL;
}

/* 002:757 the shield's AGL roll with +5 against the attacker's COR; a tie goes to the attacker
 * (the shield tries to be hit). Logged; returns 1 when the shield takes the attack. */
static int shield_roll(rules_enc *e, const char *sh, const char *cid, const char *t)
{
    json_object_set_new(json_object_get(gw_comb(e, sh), "shield"), "attacker", json_string(cid));
    json_t *dice = json_array();
    json_t *res = json_pack("{s:s, s:s}", "target", t, "attacker", cid);
    int win = gw_opposed(e, sh, "agl", 5, cid, "cor", 0, "attacker", dice, res, NULL, NULL);
    rules_enc_log(e, "shield", dice, res,
                  "%s throws themselves in front of %s: AGL +5 against %s's COR, %s (002:757)",
                  gw_nm(e, sh), gw_nm(e, t), gw_nm(e, cid),
                  win ? "the shield takes the attack" : "too slow, the attack goes on");
    return win;
}

/* ---- the target number ---- */

/*
 * How a hit of cid on t is judged (002:29, 002:53, 002:531, 002:545, 002:767-769): *pc_vs_pc for
 * COR against the PC target's AGL; *evade for a PC's AGL roll against the NPC attacker's hidden
 * `attack_tn`; else COR against t's hidden `tn` (or the GM's `tn` argument). A dying target needs
 * no number (002:256). Returns 0 with *tn set, GW_HIT_WAIT when a player's roll waits for the
 * GM's number (reading G4), or TB_RULE when the GM's own roll has no number.
 */
int gw_hit_tn(const rules_enc *e, const rules_args *a, const char *cid, const char *t, int *tn,
              int *pc_vs_pc, int *evade, tb_err *err)
{
    *pc_vs_pc = !gw_npc(e, cid) && !gw_npc(e, t);
    *evade = gw_npc(e, cid) && !gw_npc(e, t);
    *tn = 0;
    if (*pc_vs_pc || gw_dying(e, t))
        return 0;
    const char *key = *evade ? "attack_tn" : "tn";
    json_t *v = json_object_get(gw_hidden_get(e, *evade ? cid : t), key);
    if (rules_arg_given(a, "tn"))
        *tn = rules_arg_int(a, "tn");
    else if (json_is_integer(v))
        *tn = (int)json_integer_value(v);
    else if (!e->is_gm && !*evade)
        return GW_HIT_WAIT;
    else
        return rules_enc_rule(err,
                              *evade ? "the GM has not set the target number for evading %s's "
                                       "attacks (set_tn attack_tn, 002:767-769)"
                                     : "the GM has not set the target number to hit %s (set_tn, "
                                       "002:29-53)",
                              *evade ? gw_nm(e, cid) : gw_nm(e, t));
    return 0;
}

/* ---- attacks ---- */

/* Hidden pending natural 1 (002:553-559): what the attack would do to whoever it hits. */
static void set_pending(rules_enc *e, const char *cid, const char *target, const gw_weapon *w,
                        int thrown, const char *type)
{
    json_object_set_new(
        e->enc, "pending",
        json_pack("{s:s, s:s, s:s}", "attacker", cid, "target", target, "weapon", w->name));
    json_object_set_new(e->hidden, "pending",
                        json_pack("{s:s, s:s, s:b, s:s}", "attacker", cid, "damage", w->damage,
                                  "melee", melee(w, thrown), "type", type));
}

/* 002:589 a heavy weapon above the attacker's TOG: a TOG roll before each attack against the GM's
 * `tog_tn` (default 11, RULES.md grimwire encounters); 1 when the attacker swings it. */
static int heave(rules_enc *e, const rules_args *a, const char *cid, const gw_weapon *w)
{
    int ttn = rules_arg_given(a, "tog_tn") ? rules_arg_int(a, "tog_tn") : GRIMWIRE_COLLATERAL_TN;
    json_t *td = json_array();
    grimwire_roll tr = gw_roll_attr(e, cid, "tog", GRIMWIRE_USE_PLAIN, 0, ttn, 0, 0, td);
    rules_enc_log_gm(
        e, "heave", NULL,
        json_pack("{s:i, s:i, s:b}", "total", tr.total, "tn", ttn, "success", tr.success),
        "%s's TOG roll to swing a heavy weapon: %d vs TN %d", gw_nm(e, cid), tr.total, ttn);
    if (gw_npc(e, cid)) {
        json_decref(td);
        td = NULL;
    }
    rules_enc_log(e, "heave", td, gw_roll_json(&tr, gw_npc(e, cid)), "%s heaves the %s%s",
                  gw_nm(e, cid), w->name,
                  tr.success ? " and swings it"
                             : ", but is not strong enough to swing it: the attack is lost");
    return tr.success;
}

/* The dice of an attack whose target number is known (the module's attack, gw_attack_resume):
 * everything after the checks and the spending. */
void gw_attack_resolve(rules_enc *e, const rules_args *a, const char *cid, const char *t,
                       const gw_weapon *w, int first, int tn, int pc_vs_pc, int evade)
{
    const char *type = gw_attack_type(a, w);
    int thrown = rules_arg_int(a, "thrown"), extra = rules_arg_int(a, "mod");
    /* the target number is known before any die: a grappled attacker's roll comes after */
    if (first && gw_has(e, cid, "grappled") && !gw_grapple_roll(e, cid, 0))
        return;
    if (strcmp(w->kind, "heavy") == 0 && gw_attr(e, cid, "tog") < w->tog_req &&
        !heave(e, a, cid, w))
        return;
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
    json_t *res = json_pack("{s:s, s:s, s:s}", "target", t, "weapon", w->name, "type", type);
    if (effect)
        json_object_set_new(res, "effect", json_string(effect));
    char line[200];
    int ff = grimwire_ff_range(gw_attr(e, cid, "tog"), w->tog_req,
                               gw_has(e, cid, "frenzy") || gw_has(e, cid, "amok"));
    if (shielded) {
        hit = 1;
        snprintf(line, sizeof line, "%s takes the blow as a shield (002:757)", gw_nm(e, t));
    } else if (gw_dying(e, t)) {
        /* 002:256 "Attacks targeting them automatically hit" */
        hit = 1;
        snprintf(line, sizeof line, "%s is dying and cannot defend: the attack hits (002:256)",
                 gw_nm(e, t));
    } else if (pc_vs_pc) {
        /* 002:531 player vs player: COR against AGL, the higher wins; 002:541 ties: half */
        grimwire_roll ar = gw_roll_attr(e, cid, "cor", GRIMWIRE_USE_ATTACK, extra, 0, 1, ff, dice);
        grimwire_roll dr = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, 0, 0, 0, dice);
        critical = ar.critical;
        collateral = ar.collateral;
        natural = ar.natural;
        if (collateral || ar.natural == 1)
            hit = 0;
        else if (critical || dr.natural == 1 || gw_auto_fails(e, t, "agl"))
            hit = 1;
        else if (ar.total == dr.total)
            hit = half = 1;
        else
            hit = ar.total > dr.total;
        json_object_set_new(res, "attack", gw_roll_json(&ar, 0));
        json_object_set_new(res, "evade", gw_roll_json(&dr, 0));
        snprintf(line, sizeof line, "COR d20 %d %+d %+d = %d vs AGL d20 %d %+d %+d = %d%s",
                 ar.natural, ar.attr, ar.mod, ar.total, dr.natural, dr.attr, dr.mod, dr.total,
                 half ? ": a tie, half damage (002:541)" : "");
    } else if (evade) {
        /* an NPC's attack: the PC rolls AGL to evade, against the GM's number (002:767-769) */
        grimwire_roll dr = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, tn, 0, 0, dice);
        hit = !dr.success;
        json_object_set_new(res, "evade", gw_roll_json(&dr, 0));
        rules_enc_log_gm(e, "attack", NULL, json_pack("{s:s, s:i}", "target", t, "tn", tn),
                         "%s evades on AGL %d against TN %d", gw_nm(e, t), dr.total, tn);
        snprintf(line, sizeof line, "%s rolls AGL to evade: d20 %d %+d %+d = %d, %s", gw_nm(e, t),
                 dr.natural, dr.attr, dr.mod, dr.total, hit ? "fails" : "evades");
    } else {
        /* against an NPC: COR against the GM's target number (002:545) */
        grimwire_roll ar = gw_roll_attr(e, cid, "cor", GRIMWIRE_USE_ATTACK, extra, tn, 1, ff, dice);
        hit = ar.success;
        critical = ar.critical;
        collateral = ar.collateral;
        natural = ar.natural;
        json_object_set_new(res, "attack", gw_roll_json(&ar, gw_npc(e, cid)));
        rules_enc_log_gm(e, "attack", NULL,
                         json_pack("{s:s, s:i, s:i}", "target", t, "total", ar.total, "tn", tn),
                         "%s's COR roll %d against TN %d", gw_nm(e, cid), ar.total, tn);
        if (gw_npc(e, cid))
            snprintf(line, sizeof line, "COR d20 %d", ar.natural);
        else
            snprintf(line, sizeof line, "COR d20 %d %+d %+d = %d", ar.natural, ar.attr, ar.mod,
                     ar.total);
    }
    json_object_set_new(res, "hit", json_boolean(hit));
    if (collateral) {
        set_pending(e, cid, t, w, thrown, type);
        rules_enc_log(e, "attack", dice, res,
                      "%s attacks %s with %s: %s: a natural %d, the attack may hit someone "
                      "else; the GM picks who (002:553-555, 002:633)",
                      gw_nm(e, cid), gw_nm(e, t), w->name, line, natural);
        return;
    }
    if (!hit) {
        rules_enc_log(e, "attack", dice, res, "%s attacks %s with %s: %s: a miss", gw_nm(e, cid),
                      gw_nm(e, t), w->name, line);
        return;
    }
    if (effect) { /* on the shield too: it takes what the attack does (reading G15) */
        /* 002:653 "effects other than damage": a hit causes the effect instead of damage
         * (reading G12); a status effect the module knows is put on the target */
        int st = gw_is_status(effect);
        if (st)
            rules_enc_cond_add(e, t, effect, rules_arg_int(a, "turns"), 0);
        rules_enc_log(e, "attack", dice, res,
                      "%s makes a targeted attack on %s with %s (%s): %s: a hit, %s (002:653)",
                      gw_nm(e, cid), gw_nm(e, t), w->name, effect, line,
                      st ? "the effect takes hold" : "the GM says what it does");
        if (st && strcmp(effect, "knocked_down") != 0 && gw_incapacity(e, t))
            gw_grapples_end(e, t, "is out cold");
        return;
    }
    json_t *ddice = json_array();
    int dmg = roll_damage(e, cid, w->damage, melee(w, thrown), critical, half, ddice);
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
                        gw_nm(e, cid), gw_nm(e, t), w->name, line,
                        critical ? " (natural 20: double damage, 002:59)" : "", dmg);
    rules_enc_entry_say(x, aud, " (%s%s)", w->damage,
                        melee(w, thrown) ? " + TOG, at least 1, 002:563" : "");
    rules_enc_entry_end(x);
    char src[GW_CAUSE_MAX];
    if (strcmp(w->name, "an attack") == 0)
        snprintf(src, sizeof src, "an attack by %s", gw_nm(e, cid));
    else
        snprintf(src, sizeof src, "%s's %s", gw_nm(e, cid), w->name);
    gw_take_damage(e, t, dmg, type, src, rules_arg_int(a, "nonlethal"));
}

/* ---- the natural 1's stray hit (002:553-559, 002:631-643) ---- */

void gw_collateral(rules_enc *e, const char *t, int spare_given, int spare)
{
    json_t *hid = json_object_get(e->hidden, "pending");
    char atk[48];
    snprintf(atk, sizeof atk, "%s", json_string_value(json_object_get(hid, "attacker")));
    if (!t) {
        rules_enc_log(e, "collateral", NULL, NULL,
                      "%s's natural 1 hits nobody: no one else is in range (002:555)",
                      gw_nm(e, atk));
        json_object_del(e->enc, "pending");
        json_object_del(e->hidden, "pending");
        return;
    }
    /* 002:557 AGL 11 to avoid; 002:559 the attacker may add their COR to spare them (by default
     * an ally: someone on the attacker's side) */
    if (!spare_given)
        spare = strcmp(rules_enc_side(e, t), rules_enc_side(e, atk)) == 0;
    int tn = spare ? grimwire_collateral_tn(gw_attr(e, atk, "cor")) : GRIMWIRE_COLLATERAL_TN;
    json_t *dice = json_array();
    int hit;
    json_t *res = json_pack("{s:s, s:b}", "target", t, "spare", spare);
    if (gw_dying(e, t)) {
        hit = 1;
    } else {
        grimwire_roll r = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_PLAIN, 0, tn, 0, 0, dice);
        hit = !r.success;
        json_object_set_new(res, "evade", gw_roll_json(&r, gw_npc(e, t)));
    }
    json_object_set_new(res, "hit", json_boolean(hit));
    if (!gw_npc(e, atk))
        json_object_set_new(res, "avoid_tn", json_integer(tn));
    rules_enc_log_gm(e, "collateral", NULL, json_pack("{s:i}", "tn", tn),
                     "the unintended target's AGL target number: %d", tn);
    if (!gw_npc(e, atk))
        rules_enc_log(e, "collateral", dice, res,
                      "%s's natural 1 may hit %s: AGL %d to avoid (11%s, 002:557-559): %s",
                      gw_nm(e, atk), gw_nm(e, t), tn, spare ? " minus the attacker's COR" : "",
                      hit ? "hit" : "avoided");
    else
        rules_enc_log(e, "collateral", dice, res,
                      "%s's natural 1 may hit %s: an AGL roll to avoid (002:557-559): %s",
                      gw_nm(e, atk), gw_nm(e, t), hit ? "hit" : "avoided");
    if (hit) {
        json_t *ddice = json_array();
        int dmg = roll_damage(e, atk, json_string_value(json_object_get(hid, "damage")),
                              json_is_true(json_object_get(hid, "melee")), 0, 0, ddice);
        rules_enc_log(e, "collateral", ddice, json_pack("{s:s, s:i}", "target", t, "damage", dmg),
                      "%s is hit for %d damage", gw_nm(e, t), dmg);
        char src[GW_CAUSE_MAX];
        snprintf(src, sizeof src, "%s's stray attack", gw_nm(e, atk));
        gw_take_damage(e, t, dmg, json_string_value(json_object_get(hid, "type")), src, 0);
    }
    json_object_del(e->enc, "pending");
    json_object_del(e->hidden, "pending");
}

/* ---- shove and grapple (002:655-689) ---- */

/*
 * The COR roll that lands a shove or grabs for a grapple (002:657, 002:665), judged like an
 * attack's hit (gw_hit_tn) with `extra`; a dying target is grabbed without a roll. No damage, no
 * stray hit on a natural 1 (it simply misses). Dice to `dice`, the public view of the rolls into
 * res; the numbers to the GM's log. Returns 1 when it lands.
 */
static int land_roll(rules_enc *e, const char *cid, const char *t, int extra, int tn, int pc_vs_pc,
                     int evade, json_t *dice, json_t *res)
{
    if (gw_dying(e, t))
        return 1;
    if (pc_vs_pc)
        return gw_opposed(e, cid, "cor", extra, t, "agl", 0, "evade", dice, res, NULL, NULL);
    if (evade) {
        grimwire_roll dr = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, tn, 0, 0, dice);
        json_object_set_new(res, "evade", gw_roll_json(&dr, 0));
        rules_enc_log_gm(e, "land", NULL, json_pack("{s:i}", "tn", tn), "%s's AGL %d against TN %d",
                         gw_nm(e, t), dr.total, tn);
        return !dr.success;
    }
    grimwire_roll ar = gw_roll_attr(e, cid, "cor", GRIMWIRE_USE_ATTACK, extra, tn, 1, 1, dice);
    json_object_set_new(res, "attack", gw_roll_json(&ar, gw_npc(e, cid)));
    rules_enc_log_gm(e, "land", NULL, json_pack("{s:i, s:i}", "total", ar.total, "tn", tn),
                     "%s's COR roll %d against TN %d", gw_nm(e, cid), ar.total, tn);
    return ar.success;
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
void gw_maneuver_resolve(rules_enc *e, const char *name, const rules_args *a, const char *cid,
                         const char *t, int tn, int pc_vs_pc, int evade)
{
    int shove = strcmp(name, "shove") == 0;
    if (gw_has(e, cid, "grappled") && !gw_grapple_roll(e, cid, 0))
        return;
    json_t *dice = json_array();
    json_t *res = json_pack("{s:s}", "target", t);
    int landed = land_roll(e, cid, t, rules_arg_int(a, "mod"), tn, pc_vs_pc, evade, dice, res);
    json_object_set_new(res, "landed", json_boolean(landed));
    rules_enc_log(e, name, dice, res, "%s tries to %s %s: the %s %s (%s)", gw_nm(e, cid),
                  shove ? "shove" : "grab", gw_nm(e, t), shove ? "shove" : "grab",
                  landed ? "lands" : "misses", shove ? "002:657" : "002:665");
    if (!landed)
        return;
    dice = json_array();
    res = json_pack("{s:s}", "target", t);
    int force = 0, won;
    if (shove)
        won = gw_opposed(e, cid, "tog", 0, t, "tog", 0, "target", dice, res, &force, NULL);
    else
        won = gw_opposed(e, cid, gw_tog_or_cor(e, cid), 0, t, gw_tog_or_cor(e, t), 0, "target",
                         dice, res, NULL, NULL);
    if (!shove) {
        if (won) {
            rules_enc_cond_add(e, t, "grappled", 0, 0);
            json_object_set_new(rules_enc_cond(e, t, "grappled"), "by", json_string(cid));
        }
        rules_enc_log(e, "grapple", dice, res, "%s %s (002:665)", gw_nm(e, cid),
                      won ? "holds on: the target is grappled" : "cannot hold on");
        if (won)
            rules_enc_log(e, "grapple", NULL, NULL, "%s is grappled by %s", gw_nm(e, t),
                          gw_nm(e, cid));
        return;
    }
    rules_enc_log(e, "shove", dice, res, "%s pushes %s (002:657)", gw_nm(e, cid),
                  won ? "hard enough: the target is pushed back up to 3 m, the GM says how far"
                      : "but the target stands firm");
    if (!won || gw_dying(e, t) || gw_has(e, t, "knocked_down"))
        return;
    dice = json_array();
    grimwire_roll st = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_PLAIN, 0, force, 0, 0, dice);
    rules_enc_log_gm(e, "shove", NULL, json_pack("{s:i, s:i}", "total", st.total, "tn", force),
                     "%s's AGL %d against the force of the shove %d", gw_nm(e, t), st.total, force);
    if (!st.success)
        rules_enc_cond_add(e, t, "knocked_down", 0, 0);
    rules_enc_log(e, "shove", dice, gw_roll_json(&st, gw_npc(e, t)), "%s %s (002:657)", gw_nm(e, t),
                  st.success ? "keeps their feet" : "is knocked down");
}

/* ---- a player's attack waiting for the GM's number (reading G4) ---- */

/*
 * A player's attack on a foe whose target number the GM has not set (issue 15, item 5): the
 * player is not refused and never asked for the number (002:53 "usually the GM will not disclose
 * the target number"), and the rulebook gives no default one (RULES.md, grimwire encounters). The
 * attack is checked and its action spent like any attack; no die is rolled. It waits in
 * /gm/enc/waiting {attacker, params, first, action} (the GM's question) and /enc/waiting
 * {attacker, target} (the table sees it wait, never a number) until the GM sets the target's `tn`
 * (set_tn or answer), which rolls it (gw_attack_resume). Until then every other action waits too.
 */
void gw_attack_wait(rules_enc *e, const char *action, const rules_args *a, const char *cid,
                    const char *t, int first)
{
    json_object_set_new(e->hidden, "waiting",
                        json_pack("{s:s, s:o, s:b, s:s}", "attacker", cid, "params",
                                  rules_args_json(a), "first", first, "action", action));
    json_object_set_new(e->enc, "waiting", json_pack("{s:s, s:s}", "attacker", cid, "target", t));
    rules_enc_log(e, "attack", NULL, NULL, "%s attacks %s: the GM names the target number",
                  gw_nm(e, cid), gw_nm(e, t));
    rules_enc_log_gm(e, "attack", NULL, json_pack("{s:s}", "target", t),
                     "%s's attack waits for the target number to hit %s: set it (002:29-53)",
                     gw_nm(e, cid), gw_nm(e, t));
}

/* The waiting attack's action, arguments and attacker; 0 or the refusal. */
static int waiting_args(const rules_enc *e, const rules_enc_action **act, rules_args *aa,
                        const char **cid, gw_weapon *w, tb_err *err)
{
    json_t *wait = json_object_get(e->hidden, "waiting");
    const char *name = json_string_value(json_object_get(wait, "action"));
    if (!name)
        name = "attack"; /* a wait saved before issue 17 */
    *act = rules_module_action(e->mod, name);
    *cid = json_string_value(json_object_get(wait, "attacker"));
    if (!*act)
        return rules_enc_rule(err, "the waiting action is unknown");
    if (rules_args_parse("the waiting attack", (*act)->params, json_object_get(wait, "params"), aa,
                         err))
        return err->code;
    const char *t = rules_arg_str(aa, "target");
    if (!*cid || !rules_enc_combatant(e, *cid) || !t || !rules_enc_combatant(e, t))
        return rules_enc_rule(err, "the waiting attack's combatants have left the encounter");
    if (strcmp(name, "attack") == 0)
        return gw_pick_weapon(e, *cid, aa, w, err);
    return 0;
}

int gw_attack_resume_check(const rules_enc *e, tb_err *err)
{
    const rules_enc_action *act;
    rules_args aa;
    const char *cid;
    gw_weapon w;
    return waiting_args(e, &act, &aa, &cid, &w, err);
}

/* The waiting attack, once the GM set the target number: rolled as its attacker's, against that
 * number; the waiting marks are gone. */
void gw_attack_resume(rules_enc *e)
{
    json_t *wait = json_incref(json_object_get(e->hidden, "waiting"));
    const rules_enc_action *act;
    rules_args aa;
    const char *attacker;
    gw_weapon w;
    tb_err err = {0};
    int rc = waiting_args(e, &act, &aa, &attacker, &w, &err);
    json_object_del(e->hidden, "waiting");
    json_object_del(e->enc, "waiting");
    if (rc == 0) {
        char cid[24];
        snprintf(cid, sizeof cid, "%s", attacker);
        const char *t = rules_arg_str(&aa, "target");
        int tn = (int)json_integer_value(json_object_get(rules_enc_hidden_of(e, t), "tn"));
        const char *was = e->actor;
        e->actor = cid; /* the log names the attacker, as when the player attacked */
        if (strcmp(act->name, "attack") != 0)
            gw_maneuver_resolve(e, act->name, &aa, cid, t, tn, 0, 0);
        else
            gw_attack_resolve(e, &aa, cid, t, &w, json_is_true(json_object_get(wait, "first")), tn,
                              0, 0);
        e->actor = was;
    }
    json_decref(wait);
}
