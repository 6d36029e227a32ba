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
    rules_log *x = rules_log_begin(e, "surprise", "surprise_strike");
    rules_log_int(x, "bonus", b, RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_end(x);
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
    rules_log *x = rules_log_begin(e, "shield", "shield_roll");
    gw_log_res(x, json_pack("{s:s, s:s}", "target", t, "attacker", cid), RULES_AUD_PUBLIC);
    int win = gw_opposed(e, sh, "agl", 5, cid, "cor", 0, "attacker_natural", "attacker_total", dice,
                         x, NULL, NULL);
    rules_log_who(x, "who", sh);
    rules_log_who(x, "other", t);
    rules_log_who(x, "third", cid);
    rules_log_word(x, "outcome", win ? "shield.takes" : "shield.slow", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
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

static void stray(rules_enc *e, const char *t, int spare_given, int spare, const char *event);

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
    rules_log *g = rules_log_begin(e, "heave", "heave_tn");
    rules_log_int(g, "total", tr.total, RULES_AUD_GM);
    rules_log_int(g, "tn", ttn, RULES_AUD_GM);
    rules_log_json(g, "success", json_boolean(tr.success), RULES_AUD_GM);
    rules_log_who(g, "who", cid);
    rules_log_end(g);
    rules_log *x = rules_log_begin(e, "heave", "heave");
    gw_log_roll(x, &tr, gw_npc(e, cid), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_name(x, "wname", w->name, RULES_AUD_PUBLIC);
    rules_log_word(x, "how", tr.success ? "heave.swings" : "heave.fails", RULES_AUD_PUBLIC);
    if (!gw_npc(e, cid)) /* an NPC's die would give its TOG away with the outcome */
        rules_log_dice(x, td, RULES_AUD_PUBLIC);
    json_decref(td);
    rules_log_end(x);
    return tr.success;
}

/* A roll in an attack's line ("d20 14 +3 +0 = 17"): its natural, signed attribute and modifier,
 * and total under keys <p>_nat, <p>_attr, <p>_mod, <p>_total (p "a": the attack, "d": the
 * evasion). */
static void log_line_roll(rules_log *x, const char *p, const grimwire_roll *r, rules_aud aud)
{
    int a = p[0] == 'a';
    rules_log_count(x, a ? "a_nat" : "d_nat", r->natural, aud);
    rules_log_count(x, a ? "a_attr" : "d_attr", r->attr, aud);
    rules_log_count(x, a ? "a_mod" : "d_mod", r->mod, aud);
    rules_log_count(x, a ? "a_total" : "d_total", r->total, aud);
}

/* The dice of an attack whose target number is known (the module's attack, gw_attack_resume):
 * everything after the checks and the spending. */
void gw_attack_resolve(rules_enc *e, const rules_args *a, const char *cid, const char *t,
                       const gw_weapon *w, int first, int tn, int pc_vs_pc, int evade)
{
    const char *type = gw_attack_type(a, w);
    int thrown = rules_arg_int(a, "thrown"), extra = rules_arg_int(a, "mod");
    /* the GM's number given with an attack stands (issue 24): for an NPC's attacks (`attack_tn`,
     * what a PC rolls to evade it) or for hitting an NPC (its `tn`) where none stood yet, so the
     * next attack is one tap; GM-only like every number (002:53) */
    if (!pc_vs_pc && rules_arg_given(a, "tn")) {
        const char *who = evade ? cid : t, *key = evade ? "attack_tn" : "tn";
        json_t *h = rules_enc_hidden_of(e, who);
        if (!json_is_integer(json_object_get(h, key))) {
            json_object_set_new(h, key, json_integer(tn));
            rules_log *g =
                rules_log_begin(e, "set_tn", evade ? "standing_attack_tn" : "standing_tn");
            rules_log_int(g, "tn", tn, RULES_AUD_GM);
            rules_log_who(g, "who", who);
            rules_log_end(g);
        }
    }
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
    rules_log *x = rules_log_begin(e, "attack", "attack");
    gw_log_res(x, json_pack("{s:s, s:s, s:s}", "target", t, "weapon", w->name, "type", type),
               RULES_AUD_PUBLIC);
    if (effect)
        rules_log_json(x, "effect", json_string(effect), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    rules_log_name(x, "wname", w->name, RULES_AUD_PUBLIC);
    rules_log_word(x, "head", "head.attacks", RULES_AUD_PUBLIC);
    int ff = grimwire_ff_range(gw_attr(e, cid, "tog"), w->tog_req,
                               gw_has(e, cid, "frenzy") || gw_has(e, cid, "amok"));
    if (shielded) {
        hit = 1;
        rules_log_word(x, "line", "line.shield", RULES_AUD_PUBLIC);
    } else if (gw_dying(e, t)) {
        /* 002:256 "Attacks targeting them automatically hit" */
        hit = 1;
        rules_log_word(x, "line", "line.dying", RULES_AUD_PUBLIC);
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
        rules_log_json(x, "attack", gw_roll_json(&ar, 0), RULES_AUD_PUBLIC);
        rules_log_json(x, "evade", gw_roll_json(&dr, 0), RULES_AUD_PUBLIC);
        log_line_roll(x, "a", &ar, RULES_AUD_PUBLIC);
        log_line_roll(x, "d", &dr, RULES_AUD_PUBLIC);
        if (half)
            rules_log_word(x, "half", "line.half", RULES_AUD_PUBLIC);
        rules_log_word(x, "line", "line.pvp", RULES_AUD_PUBLIC);
    } else if (evade) {
        /* an NPC's attack: the PC rolls AGL to evade, against the GM's number (002:767-769) */
        grimwire_roll dr = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, tn, 0, 0, dice);
        hit = !dr.success;
        rules_log_json(x, "evade", gw_roll_json(&dr, 0), RULES_AUD_PUBLIC);
        rules_log *g = rules_log_begin(e, "attack", "evade_tn");
        rules_log_json(g, "target", json_string(t), RULES_AUD_GM);
        rules_log_int(g, "tn", tn, RULES_AUD_GM);
        rules_log_who(g, "who", t);
        rules_log_count(g, "total", dr.total, RULES_AUD_GM);
        rules_log_end(g);
        log_line_roll(x, "d", &dr, RULES_AUD_PUBLIC);
        rules_log_word(x, "evades", hit ? "w.fails" : "w.evades", RULES_AUD_PUBLIC);
        rules_log_word(x, "line", "line.evade", RULES_AUD_PUBLIC);
    } else {
        /* against an NPC: COR against the GM's target number (002:545) */
        grimwire_roll ar = gw_roll_attr(e, cid, "cor", GRIMWIRE_USE_ATTACK, extra, tn, 1, ff, dice);
        hit = ar.success;
        critical = ar.critical;
        collateral = ar.collateral;
        natural = ar.natural;
        rules_log_json(x, "attack", gw_roll_json(&ar, gw_npc(e, cid)), RULES_AUD_PUBLIC);
        rules_log *g = rules_log_begin(e, "attack", "attack_tn");
        rules_log_json(g, "target", json_string(t), RULES_AUD_GM);
        rules_log_int(g, "total", ar.total, RULES_AUD_GM);
        rules_log_int(g, "tn", tn, RULES_AUD_GM);
        rules_log_who(g, "who", cid);
        rules_log_end(g);
        if (gw_npc(e, cid)) {
            rules_log_count(x, "a_nat", ar.natural, RULES_AUD_PUBLIC);
            rules_log_word(x, "line", "line.natural", RULES_AUD_PUBLIC);
        } else {
            log_line_roll(x, "a", &ar, RULES_AUD_PUBLIC);
            rules_log_word(x, "line", "line.cor", RULES_AUD_PUBLIC);
        }
    }
    rules_log_json(x, "hit", json_boolean(hit), RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    if (collateral) {
        set_pending(e, cid, t, w, thrown, type);
        rules_log_count(x, "nat", natural, RULES_AUD_PUBLIC);
        rules_log_word(x, "outcome", "attack.stray", RULES_AUD_PUBLIC);
        rules_log_end(x);
        return;
    }
    if (!hit) {
        rules_log_word(x, "outcome", "attack.miss", RULES_AUD_PUBLIC);
        rules_log_end(x);
        /* 002:674 "Attacks against the grappled target have a chance to hit you. You must roll
         * an AGL 11 if they miss, reduced by the attackers COR if they don't wish to hit as with
         * friendly fire" (the grappler on the attacker's side: spared, reading G24) */
        json_t *held = rules_enc_cond(e, t, "grappled");
        const char *by = json_string_value(json_object_get(held, "by"));
        char g[40];
        snprintf(g, sizeof g, "%s", by ? by : "");
        if (g[0] && strcmp(g, cid) != 0 && gw_comb(e, g) && !rules_enc_is_out(e, g)) {
            set_pending(e, cid, t, w, thrown, type);
            stray(e, g, 0, 0, "stray_grappler");
        }
        return;
    }
    if (effect) { /* on the shield too: it takes what the attack does (reading G15) */
        /* 002:653 "effects other than damage": a hit causes the effect instead of damage
         * (reading G12); a status effect the module knows is put on the target */
        int st = gw_is_status(effect);
        if (st)
            rules_enc_cond_add(e, t, effect, rules_arg_int(a, "turns"), 0);
        rules_log_name(x, "ename", effect, RULES_AUD_PUBLIC);
        rules_log_word(x, "head", "head.targeted", RULES_AUD_PUBLIC);
        rules_log_word(x, "holds", st ? "effect.holds" : "effect.gm", RULES_AUD_PUBLIC);
        rules_log_word(x, "outcome", "attack.targeted", RULES_AUD_PUBLIC);
        rules_log_end(x);
        if (st && strcmp(effect, "knocked_down") != 0 && gw_incapacity(e, t))
            gw_grapples_end(e, t, "end.is_out");
        return;
    }
    json_t *ddice = json_array();
    int dmg = roll_damage(e, cid, w->damage, melee(w, thrown), critical, half, ddice);
    rules_log_int(x, "damage", dmg, RULES_AUD_PUBLIC);
    rules_log_json(x, "critical", json_boolean(critical), RULES_AUD_PUBLIC);
    if (critical)
        rules_log_word(x, "crit", "attack.critical", RULES_AUD_PUBLIC);
    /* the damage dealt is open (it lands on the target's track); an NPC's damage dice and the
     * formula would give its TOG away with it, so they are the GM's */
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_log_dice(x, ddice, aud);
    json_decref(ddice);
    rules_log_name(x, "dexpr", w->damage, aud);
    rules_log_word(x, "formula", melee(w, thrown) ? "formula.melee" : "formula.plain", aud);
    rules_log_word(x, "outcome", "attack.hit", RULES_AUD_PUBLIC);
    rules_log_end(x);
    gw_source src = {strcmp(w->name, "an attack") == 0 ? "src.attack" : "src.weapon", cid, w->name};
    gw_take_damage(e, t, dmg, type, src, rules_arg_int(a, "nonlethal"));
}

/* ---- the natural 1's stray hit (002:553-559, 002:631-643) ---- */

void gw_collateral(rules_enc *e, const char *t, int spare_given, int spare)
{
    stray(e, t, spare_given, spare, "stray");
}

/* The attack waiting in /gm/enc/pending may hit t (the natural 1's pick, 002:553-559, or the one
 * who holds the missed target, 002:674: event "stray" or "stray_grappler"); t NULL: nobody. */
static void stray(rules_enc *e, const char *t, int spare_given, int spare, const char *event)
{
    json_t *hid = json_object_get(e->hidden, "pending");
    char atk[48];
    snprintf(atk, sizeof atk, "%s", json_string_value(json_object_get(hid, "attacker")));
    if (!t) {
        rules_log *x = rules_log_begin(e, "collateral", "stray_nobody");
        rules_log_who(x, "who", atk);
        rules_log_end(x);
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
    rules_log *g = rules_log_begin(e, "collateral", "stray_tn");
    rules_log_int(g, "tn", tn, RULES_AUD_GM);
    rules_log *x = rules_log_begin(e, "collateral", event);
    gw_log_res(x, json_pack("{s:s, s:b}", "target", t, "spare", spare), RULES_AUD_PUBLIC);
    if (gw_dying(e, t)) {
        hit = 1;
    } else {
        grimwire_roll r = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_PLAIN, 0, tn, 0, 0, dice);
        hit = !r.success;
        rules_log_json(x, "evade", gw_roll_json(&r, gw_npc(e, t)), RULES_AUD_PUBLIC);
    }
    rules_log_json(x, "hit", json_boolean(hit), RULES_AUD_PUBLIC);
    /* an NPC attacker's number to avoid (11 minus its COR) would give its COR away */
    rules_log_int(x, "avoid_tn", tn, rules_enc_aud_of(e, atk));
    rules_log_who(x, "who", atk);
    rules_log_who(x, "other", t);
    if (spare)
        rules_log_word(x, "spare_w", "stray.spare", RULES_AUD_PUBLIC);
    rules_log_word(x, "outcome", hit ? "w.hit" : "w.avoided", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(g);
    rules_log_end(x);
    if (hit) {
        json_t *ddice = json_array();
        int dmg = roll_damage(e, atk, json_string_value(json_object_get(hid, "damage")),
                              json_is_true(json_object_get(hid, "melee")), 0, 0, ddice);
        rules_log *d = rules_log_begin(e, "collateral", "stray_hit");
        rules_log_json(d, "target", json_string(t), RULES_AUD_PUBLIC);
        rules_log_int(d, "damage", dmg, RULES_AUD_PUBLIC);
        rules_log_who(d, "who", t);
        /* the damage is open; an NPC's dice with it would give its TOG away (as in an attack) */
        rules_log_dice(d, ddice, rules_enc_aud_of(e, atk));
        json_decref(ddice);
        rules_log_end(d);
        gw_take_damage(e, t, dmg, json_string_value(json_object_get(hid, "type")),
                       (gw_source){"src.stray", atk, NULL}, 0);
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
                     int evade, json_t *dice, rules_log *x)
{
    if (gw_dying(e, t))
        return 1;
    if (pc_vs_pc)
        return gw_opposed(e, cid, "cor", extra, t, "agl", 0, "evade_natural", "evade_total", dice,
                          x, NULL, NULL);
    rules_log *g = rules_log_begin(e, "land", "land_tn");
    rules_log_int(g, "tn", tn, RULES_AUD_GM);
    int landed;
    if (evade) {
        grimwire_roll dr = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, tn, 0, 0, dice);
        rules_log_json(x, "evade", gw_roll_json(&dr, 0), RULES_AUD_PUBLIC);
        rules_log_who(g, "who", t);
        rules_log_word(g, "roll", "land.agl", RULES_AUD_PUBLIC);
        rules_log_count(g, "total", dr.total, RULES_AUD_GM);
        landed = !dr.success;
    } else {
        grimwire_roll ar = gw_roll_attr(e, cid, "cor", GRIMWIRE_USE_ATTACK, extra, tn, 1, 1, dice);
        rules_log_json(x, "attack", gw_roll_json(&ar, gw_npc(e, cid)), RULES_AUD_PUBLIC);
        rules_log_who(g, "who", cid);
        rules_log_word(g, "roll", "land.cor", RULES_AUD_PUBLIC);
        rules_log_int(g, "total", ar.total, RULES_AUD_GM);
        landed = ar.success;
    }
    rules_log_end(g);
    return landed;
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
    rules_log *x = rules_log_begin(e, shove ? "shove" : "grapple", shove ? "shove_try" : "grab");
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    int landed = land_roll(e, cid, t, rules_arg_int(a, "mod"), tn, pc_vs_pc, evade, dice, x);
    rules_log_json(x, "landed", json_boolean(landed), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    rules_log_word(x, "outcome", landed ? "w.lands" : "w.misses", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
    if (!landed)
        return;
    dice = json_array();
    x = rules_log_begin(e, shove ? "shove" : "grapple", shove ? "push" : "hold");
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    int force = 0, won;
    if (shove)
        won = gw_opposed(e, cid, "tog", 0, t, "tog", 0, "target_natural", "target_total", dice, x,
                         &force, NULL);
    else
        won = gw_opposed(e, cid, gw_tog_or_cor(e, cid), 0, t, gw_tog_or_cor(e, t), 0,
                         "target_natural", "target_total", dice, x, NULL, NULL);
    rules_log_who(x, "who", cid);
    if (shove)
        rules_log_word(x, "how", won ? "push.hard" : "push.firm", RULES_AUD_PUBLIC);
    else
        rules_log_word(x, "how", won ? "hold.on" : "hold.off", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    if (!shove) {
        if (won) {
            rules_enc_cond_add(e, t, "grappled", 0, 0);
            json_object_set_new(rules_enc_cond(e, t, "grappled"), "by", json_string(cid));
        }
        rules_log_end(x);
        if (won) {
            x = rules_log_begin(e, "grapple", "grappled");
            rules_log_who(x, "who", t);
            rules_log_who(x, "other", cid);
            rules_log_end(x);
        }
        return;
    }
    rules_log_end(x);
    if (!won || gw_dying(e, t) || gw_has(e, t, "knocked_down"))
        return;
    dice = json_array();
    grimwire_roll st = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_PLAIN, 0, force, 0, 0, dice);
    rules_log *g = rules_log_begin(e, "shove", "shove_force");
    rules_log_int(g, "total", st.total, RULES_AUD_GM);
    rules_log_int(g, "tn", force, RULES_AUD_GM);
    rules_log_who(g, "who", t);
    rules_log_end(g);
    if (!st.success)
        rules_enc_cond_add(e, t, "knocked_down", 0, 0);
    x = rules_log_begin(e, "shove", "shove_feet");
    gw_log_roll(x, &st, gw_npc(e, t), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", t);
    rules_log_word(x, "how", st.success ? "feet.keeps" : "feet.down", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
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
    rules_log *x = rules_log_begin(e, "attack", "attack_waits");
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    rules_log_end(x);
    x = rules_log_begin(e, "attack", "attack_asks");
    rules_log_json(x, "target", json_string(t), RULES_AUD_GM);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    gw_log_for(x, RULES_AUD_GM);
    rules_log_end(x);
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
