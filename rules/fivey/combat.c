/*
 * combat.c — the FIVEY encounter module `fivey.combat` (rules/encounter.h), rulebook
 * 004_110cc4af3ff93059.txt cited as 004:LINE. Readings of unclear passages: rules/RULES.md,
 * "## fivey", "Encounters (module fivey.combat)".
 *
 *   initiative  GM    each member of the adventuring party: d20 + DEX against one d20 + the
 *                     opposing party's DEX; winners act before the opposition, the others after
 *                     it (004:666); round 1 starts (contests.c)
 *   attack      TURN  1 ◆: d20 + stat (doubled when proficient or attuned) vs the target's defense
 *                     class; damage die + stat; a natural 20 gives an inspiration die (004:676-682,
 *                     004:373)
 *   move        TURN  1 ◆ (004:686-688); climbing, crawling, swimming, jumping cost twice
 *                     (004:381, 004:690); swimming in armor risks 1d6 drowning (004:424)
 *   act         TURN  1 or 2 ◆, any other action (004:694-711)
 *   cast        TURN  ◆◆ and one of the sheet's casts: a spell it carries (004:481-505, 004:701;
 *                     spells.c)
 *   armor       TURN  ◆◆ and a DEX check against the armor's defense class to don or doff it
 *                     (004:424)
 *   end         TURN  ends the turn; past the last, a new round (004:668)
 *   surprise    GM    each member of the surprising party: d20 + DEX against one d20 + the other
 *                     party's wisdom; the winners take a free turn before initiative (004:645;
 *                     contests.c)
 *   morale      GM    the collective wisdom check of a side that dwindles or loses its leader;
 *                     DC 14, then 16, then 18 (004:670); failing, the side flees
 *   spawn       GM    adds an NPC from a bracket or an example monster in one step (004:744-767;
 *                     monsters.c)
 *   bracket     GM    an NPC's numbers from a monster bracket: HD d6 hit points, GA, damage die,
 *                     XP by bracket and defense class (004:715-742; monsters.c)
 *   leader      GM    marks a side's leader (004:670)   harm  GM  damage or healing by hand
 *   shield      OWNER readies a shield to be destroyed against the next hit (004:422)
 *
 * Each action is a pure check (everything that can refuse, before any die) and a resolve; what
 * the FIVEY modules share (a combatant's numbers, damage, morale, the contests, the monsters, the
 * spells) is in fivey_enc.h.
 *
 * State: /enc/party, /enc/budget, /enc/phase, /enc/morale; combatants' `leader`, `won`,
 * `shield_ready`; stats (public for a PC, /gm/enc for an NPC): rules/RULES.md, "Encounters
 * (module fivey.combat)".
 */
#include <string.h>

#include "dice.h"
#include "fivey_enc.h"

static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_attack(rules_enc *e, const rules_args *a, tb_err *err);
static int check_move(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_move(rules_enc *e, const rules_args *a, tb_err *err);
static int check_other(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_other(rules_enc *e, const rules_args *a, tb_err *err);
static int check_armor(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_armor(rules_enc *e, const rules_args *a, tb_err *err);
static int act_end(rules_enc *e, const rules_args *a, tb_err *err);
static int check_morale(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_morale(rules_enc *e, const rules_args *a, tb_err *err);
static int check_leader(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_leader(rules_enc *e, const rules_args *a, tb_err *err);
static int act_harm(rules_enc *e, const rules_args *a, tb_err *err);
static int check_shield(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_shield(rules_enc *e, const rules_args *a, tb_err *err);

static int combat_start(rules_enc *e, const rules_args *o, tb_err *err);
static int combat_may_act(rules_enc *e, const char *cid, tb_err *err);
static int combat_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                          const rules_param *p, json_t *out);

/* ---- the table ---- */

#define TARGET(label)                                                                              \
    {                                                                                              \
        "target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, label                        \
    }

static const rules_param P_INITIATIVE[] = {
    {"opp", RULES_PARAM_INT, 0, 10, 0, 0,
     "the opposing party's DEX or power (default: its average DEX, rounded down)"},
    {0},
};
static const rules_param P_ATTACK[] = {
    TARGET("whom to attack"),
    {"weapon", RULES_PARAM_INT, 0, 9, 0, 0, "which weapon of the sheet (0 = the first)"},
    {"adv", RULES_PARAM_BOOL, 0, 1, 0, 0, "advantage"},
    {"dis", RULES_PARAM_BOOL, 0, 1, 0, 0, "disadvantage"},
    {"insp", RULES_PARAM_BOOL, 0, 1, 0, 0, "spend an inspiration die on the attack roll"},
    {"insp_dmg", RULES_PARAM_BOOL, 0, 1, 0, 0, "spend an inspiration die on the damage"},
    {"insp_nat20", RULES_PARAM_BOOL, 0, 1, 0, 0,
     "spend the die a natural 20 brings on the damage at once"},
    {"free", RULES_PARAM_BOOL, 0, 1, 0, 0, "a free attack, no ◆ (GM only)"},
    {0},
};
static const rules_param P_MOVE[] = {
    {"paces", RULES_PARAM_INT, 0, 99, 0, 0, "paces (default: as far as one ◆ goes)"},
    {"how", RULES_PARAM_STRING, 4, 5, 0, 0, "walk, climb, crawl, swim or jump (twice the cost)"},
    {0},
};
static const rules_param P_OTHER[] = {
    {"what", RULES_PARAM_STRING, 1, 80, 0, RULES_PARAM_REQUIRED, "what the character does"},
    {"cost", RULES_PARAM_INT, 1, 2, 1, 0, "◆ it costs (1 or 2)"},
    {0},
};
static const rules_param P_ARMOR[] = {
    {"don", RULES_PARAM_STRING, 4, 7, 0, 0, "armor to put on (leather, scale, chain, ring, plate)"},
    {"doff", RULES_PARAM_BOOL, 0, 1, 0, 0, "take the armor off"},
    {0},
};
static const rules_param P_SURPRISE[] = {
    {"side", RULES_PARAM_STRING, 1, 32, 0, 0, "the surprising side (default: the party)"},
    {"wis", RULES_PARAM_INT, 0, 10, 0, 0,
     "the other party's wisdom (default: its average INT, rounded down)"},
    {0},
};
static const rules_param P_MORALE[] = {
    {"side", RULES_PARAM_STRING, 1, 32, 0, 0, "the side checking (default: the one due)"},
    {"wis", RULES_PARAM_INT, 0, 10, 0, 0, "its wisdom (default: average INT of those standing)"},
    {"dc", RULES_PARAM_INT, 0, 30, 0, 0, "the DC (default 14, then 16, then 18)"},
    {0},
};
static const rules_param P_SPAWN[] = {
    {"name", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "the NPC's name"},
    {"monster", RULES_PARAM_STRING, 1, 40, 0, 0, "an example monster (Goblin, Orc, Bear...)"},
    {"bracket", RULES_PARAM_STRING, 1, 12, 0, 0, "M, G, E, L or B"},
    {"dc", RULES_PARAM_INT, 12, 20, 12, 0, "defense class"},
    {"hp", RULES_PARAM_INT, 0, 999, 0, 0, "hit points (0: roll HD d6)"},
    {"side", RULES_PARAM_STRING, 1, 32, 0, 0, "side (default foes)"},
    {0},
};
static const rules_param P_BRACKET[] = {
    TARGET("the NPC"),
    {"bracket", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED, "M, G, E, L or B"},
    {"dc", RULES_PARAM_INT, 12, 20, 12, 0, "defense class (12 light, 14 medium, 16 heavy)"},
    {"hp", RULES_PARAM_INT, 0, 999, 0, 0, "hit points (0: roll HD d6)"},
    {0},
};
static const rules_param P_TARGET[] = {
    TARGET("the combatant"),
    {0},
};
static const rules_param P_HARM[] = {
    TARGET("the combatant"),
    {"amount", RULES_PARAM_INT, -999, 999, 0, RULES_PARAM_REQUIRED, "damage (negative: heals)"},
    {0},
};
static const rules_param P_SHIELD[] = {
    {"ready", RULES_PARAM_BOOL, 0, 1, 1, 0, "destroy it to stop the next hit"},
    {0},
};

/* clang-format off */
static const rules_enc_action ACTIONS[] = {
    {"initiative", "Roll initiative", RULES_ENC_GM, P_INITIATIVE, fivey_initiative, "004:666",
     fivey_initiative_check, 0},
    {"attack", "Attack ◆", RULES_ENC_TURN, P_ATTACK, act_attack, "004:676-682", check_attack, 0},
    {"move", "Move ◆", RULES_ENC_TURN, P_MOVE, act_move, "004:686-690, 004:381, 004:424",
     check_move, 0},
    {"act", "Other action", RULES_ENC_TURN, P_OTHER, act_other, "004:694-711", check_other, 0},
    {"cast", "Cast a spell ◆◆", RULES_ENC_TURN, fivey_cast_params, fivey_cast_turn,
     "004:481-505, 004:680, 004:701", fivey_cast_turn_check, 0},
    {"armor", "Armor on or off ◆◆", RULES_ENC_TURN, P_ARMOR, act_armor, "004:424", check_armor,
     RULES_ENC_RARE},
    {"end", "End turn", RULES_ENC_TURN, NULL, act_end, "004:668", NULL, 0},
    {"surprise", "Surprise", RULES_ENC_GM, P_SURPRISE, fivey_surprise, "004:645",
     fivey_surprise_check, RULES_ENC_RARE},
    {"morale", "Morale check", RULES_ENC_GM, P_MORALE, act_morale, "004:670", check_morale, 0},
    {"spawn", "Add a monster", RULES_ENC_GM, P_SPAWN, fivey_spawn, "004:715-767",
     fivey_spawn_check, 0},
    {"bracket", "Set bracket", RULES_ENC_GM, P_BRACKET, fivey_bracket, "004:715-742",
     fivey_bracket_check, RULES_ENC_RARE},
    {"leader", "Mark leader", RULES_ENC_GM, P_TARGET, act_leader, "004:670", check_leader,
     RULES_ENC_RARE},
    {"harm", "Damage / heal", RULES_ENC_GM, P_HARM, act_harm, "004:367", NULL, RULES_ENC_RARE},
    {"shield", "Ready the shield to stop a hit", RULES_ENC_OWNER, P_SHIELD, act_shield, "004:422",
     check_shield, 0},
    {0},
};
/* clang-format on */

static const rules_param OPTIONS[] = {
    {"party", RULES_PARAM_STRING, 1, 32, 0, 0, "the adventuring party's side (default party)"},
    {0},
};

/* What the GM adjusts mid-fight: damage taken and hit points (004:363-367), inspiration dice. */
static const rules_enc_field EDITABLE[] = {
    {"stats/hp/damage", RULES_PARAM_INT, 0, 999, "damage taken"},
    {"stats/hp/max", RULES_PARAM_INT, 1, 999, "hit points"},
    {"stats/inspiration", RULES_PARAM_INT, 0, 99, "inspiration dice"},
    {NULL, 0, 0, 0, NULL},
};

/* The words of the module's events (encounter.h, "The log"); the shared ones (morale, rounds,
 * monsters, contests, spells) are the system's, in fivey_enc.c. */
/* clang-format off */
static const rules_phrase PHRASES[] = {
    {"attack", "{who} attacks {whom}{with?}{versus?}{outcome}{nat20?}{freely?}"},
    {"attack.with", " with the {weapon}"},
    {"attack.versus", " ({total} vs DC {defense})"},
    {"attack.hit", ": hits, {damage} damage"},
    {"attack.blocked", ": hits, but {whom} destroys the shield to stop it"},
    {"attack.miss", ": misses"},
    {"attack.nat20", "; a natural 20: an inspiration die (004:373)"},
    {"attack.free", " (a free attack)"},
    {"move", "{who} moves {paces} paces{how_word?}"},
    {"move.how", " ({way})"},
    {"swim", "{who} swims {paces} paces in {armor} armor{versus?}{afloat}"},
    {"swim.afloat", " and keeps afloat"},
    {"swim.under", ", goes under and takes {damage} drowning damage"},
    {"roll.versus_dc", " ({total} vs DC {dc})"},
    {"act", "{who}: {what} ({cost} ◆)"},
    {"armor", "{who} hurries to {how} the {kind} armor{versus?}{outcome}"},
    {"armor.don", "put on"},
    {"armor.doff", "take off"},
    {"armor.done", ": done"},
    {"armor.not_on", ": it will not come on yet"},
    {"armor.not_off", ": it will not come off yet"},
    {"free_turn_end", "{who} ends the free turn"},
    {"turn_end", "{who} ends the turn"},
    {"surprise-over", "The surprise is over: regular initiative takes hold (004:645)"},
    {"leader", "{who} leads the {side} (004:670)"},
    {"harm", "{who} takes {amount} damage"},
    {"harm", "{who} takes damage"},
    {"heal", "{who} heals {points}"},
    {"heal", "{who} heals"},
    {"shield_ready", "{who} will destroy the shield to stop the next hit"},
    {"shield_kept", "{who} keeps the shield for now"},
    {NULL, NULL},
};
/* clang-format on */

/* spells and spell_slots: a cast spends one (reading 12); armor: donned or doffed (004:424) */
static const char *const SHEET_STATS[] = {"hp",          "inspiration", "shield", "spells",
                                          "spell_slots", "armor",       NULL};

const rules_module rules_module_fivey_combat = {
    .id = "fivey.combat",
    .system = "fivey",
    .name = "Combat",
    .cite = "004:641-742",
    .options = OPTIONS,
    .start = combat_start,
    .join = fivey_enc_join,
    .may_act = combat_may_act,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = EDITABLE,
    .choices = combat_choices,
    .phrases = PHRASES,
};

/* An event whose only value is who did it. */
static void log_who(rules_enc *e, const char *action, const char *event, const char *cid)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_who(x, "who", cid);
    rules_log_end(x);
}

/* ---- attack ---- */

/* What cid attacks with: weapon wi of the sheet, or a monster's GA and bracket die (reading
 * E3). */
typedef struct weapon {
    int bonus, stat;
    const char *die, *name; /* name NULL for a monster */
} weapon;

/* 0 with *w filled, or the refusal. */
static int weapon_of(const rules_enc *e, const char *cid, int wi, weapon *w, tb_err *err)
{
    const json_t *st = rules_enc_stats_peek(e, cid);
    json_t *weapons = json_object_get(st, "weapons");
    if (!json_is_array(weapons)) {
        /* a monster: d20 + GA; damage the bracket's die, D/A being its average (reading E3) */
        const char *die = json_string_value(json_object_get(st, "die"));
        *w = (weapon){rules_enc_stat_peek(e, cid, "ga", 1), 0, die ? die : "1d6", NULL};
        return 0;
    }
    if (json_array_size(weapons) == 0)
        return rules_enc_rule(err,
                              "%s has no weapon on the sheet: the damage die comes from "
                              "the weapon (004:678)",
                              rules_enc_name(e, cid));
    if ((size_t)wi >= json_array_size(weapons))
        return tb_fail(
            err, TB_BAD_REQUEST, "enc.act attack: 'weapon' %d: %s has %zu weapon(s) (0..%zu)", wi,
            rules_enc_name(e, cid), json_array_size(weapons), json_array_size(weapons) - 1);
    json_t *it = json_array_get(weapons, (size_t)wi);
    *w = (weapon){(int)json_integer_value(json_object_get(it, "bonus")),
                  (int)json_integer_value(json_object_get(it, "stat")),
                  json_string_value(json_object_get(it, "die")),
                  json_string_value(json_object_get(it, "name"))};
    return 0;
}

static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *t = rules_arg_str(a, "target");
    if (strcmp(me, t) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act attack: a combatant does not attack itself");
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight (%s)", rules_enc_name(e, t),
                              json_string_value(json_object_get(rules_enc_combatant(e, t), "out")));
    int is_free = rules_arg_int(a, "free");
    if (is_free && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN,
                       "a free attack (no ◆) comes from a feat's condition: the GM grants it "
                       "(004:684)");
    if (rules_arg_int(a, "adv") && rules_arg_int(a, "dis"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act attack: 'adv' and 'dis' are weighed "
                       "together into one (004:100)");
    weapon w;
    int rc = weapon_of(e, me, rules_arg_int(a, "weapon"), &w, err);
    if (rc)
        return rc;
    /* the damage die must roll before anything is rolled (a sheet's damage is validated) */
    rules_dice_expr *die = NULL;
    if ((rc = rules_dice_parse(w.die ? w.die : "", &die, err)))
        return rc;
    rules_dice_free(die);
    if (rules_enc_stat_peek(e, t, "defense", 0) <= 0)
        return rules_enc_rule(err, "%s has no defense class yet: the GM sets it (bracket)",
                              rules_enc_name(e, t));
    int insp = rules_arg_int(a, "insp"), insp_dmg = rules_arg_int(a, "insp_dmg");
    int have = rules_enc_stat_peek(e, me, "inspiration", 0);
    if ((insp || insp_dmg || rules_arg_int(a, "insp_nat20")) && rules_enc_is_npc(e, me))
        return rules_enc_rule(err, "inspiration dice are the players' (004:144)");
    if (insp && have < 1)
        return rules_enc_rule(err, "%s has no inspiration die to spend (004:146)",
                              rules_enc_name(e, me));
    /* 004:146 one die per roll; the attack and the damage are two rolls, so two dice, both in
     * hand before the attack is rolled (validate before you roll). The die a natural 20 brings
     * (004:373) is spent on the damage only through insp_nat20, which is never refused. */
    if (insp + insp_dmg > have)
        return rules_enc_rule(err,
                              "%s has %d inspiration %s: one on the attack and one on the damage "
                              "takes two",
                              rules_enc_name(e, me), have, have == 1 ? "die" : "dice");
    return is_free ? 0 : fivey_budget_check(e, me, 1, err);
}

/* The shield of cid is destroyed (004:422): off its stats (and so its sheet) and its defense
 * class loses the shield's +1 (004:373). */
static void destroy_shield(rules_enc *e, const char *cid)
{
    json_t *st = rules_enc_stats(e, cid);
    json_object_set_new(st, "shield", json_false());
    rules_enc_stat_add(e, cid, "defense", -1, 0, 99);
    json_object_del(rules_enc_combatant(e, cid), "shield_ready");
}

static int act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *t = rules_arg_str(a, "target");
    int is_free = rules_arg_int(a, "free");
    fivey_edge edge = rules_arg_int(a, "adv")   ? FIVEY_EDGE_ADV
                      : rules_arg_int(a, "dis") ? FIVEY_EDGE_DIS
                                                : FIVEY_EDGE_NONE;
    int npc = rules_enc_is_npc(e, me);
    weapon w;
    weapon_of(e, me, rules_arg_int(a, "weapon"), &w, err);
    int def = rules_enc_stat(e, t, "defense", 0);
    int insp = rules_arg_int(a, "insp"), insp_dmg = rules_arg_int(a, "insp_dmg");
    int insp_nat20 = rules_arg_int(a, "insp_nat20");
    int have = rules_enc_stat(e, me, "inspiration", 0);
    if (!is_free)
        rules_enc_spend(e, me, FIVEY_BUDGET, 1, err);

    json_t *dice = json_array();
    fivey_roll r;
    /* 004:678 "The character rolls d20 plus their relevant stat; if the total meets or exceeds
     * the target's defense class"; 004:146 one inspiration d6 added to the roll */
    fivey_roll_check(&r, e->rng, dice, w.bonus, edge, insp, 0);
    if (insp)
        have--;
    int hit = fivey_meets(r.total, def);
    /* 004:422 Shield: "Destroy to negate an attack": a readied shield stops a hit before any
     * damage die is rolled */
    int blocked = hit && json_is_true(json_object_get(rules_enc_combatant(e, t), "shield_ready"));
    if (blocked)
        hit = 0;
    /* 004:373 "if a player's attack roll turns up a natural 20 and they thereby gain 1
     * inspiration die"; PCs only (inspiration dice are the players', 004:144). */
    int nat20 = r.natural == 20 && !npc;
    if (nat20)
        have++;
    /* 004:373 "there is nothing stopping that player from spending it immediately to increase
     * the damage" */
    if (nat20 && insp_nat20)
        insp_dmg = 1;
    int dmg = 0, dmg_insp = 0;
    if (insp_dmg && !hit)
        insp_dmg = 0; /* no damage roll to add to: the die stays unspent */
    if (hit) {
        json_t *roll = NULL;
        rules_dice_roll_text(w.die, e->rng, &roll, err); /* parsed by the check */
        json_t *dmg_dice = json_array();
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(roll, "dice"), i, v)
        {
            rules_result_die(dmg_dice, (int)json_integer_value(json_object_get(v, "sides")),
                             (int)json_integer_value(json_object_get(v, "value")),
                             json_is_true(json_object_get(v, "kept")));
        }
        /* "they deal damage equal to their damage die plus their stat ... though not also [the
         * doubling] for the resultant damage" (004:678) */
        dmg = (int)json_integer_value(json_object_get(roll, "total")) + w.stat;
        json_decref(roll);
        if (insp_dmg) {
            dmg_insp = rules_roll_die(e->rng, 6, dmg_dice);
            dmg += dmg_insp;
            have--;
        }
        if (dmg < 0)
            dmg = 0;
        json_array_foreach(dmg_dice, i, v) json_object_set_new(v, "by", json_string("damage"));
        json_array_extend(dice, dmg_dice);
        json_decref(dmg_dice);
    }
    if (insp || nat20 || insp_dmg)
        rules_enc_stat_set(e, me, "inspiration", have);

    /* What players may see (rules/RULES.md, "What the table sees (fivey)"): the d20, hit or miss
     * and the damage; an NPC's bonus, total and damage dice give its numbers away, an NPC target's
     * defense class is the GM's (004:426). */
    rules_aud mine = rules_enc_aud_of(e, me), theirs = rules_enc_aud_of(e, t);
    rules_log *x = rules_log_begin(e, "attack", "attack");
    size_t i;
    json_t *v;
    json_array_foreach(dice, i, v)
    {
        const char *by = json_string_value(json_object_get(v, "by"));
        json_t *one = json_pack("[O]", v);
        rules_log_dice(x, one, by && strcmp(by, "damage") == 0 ? mine : RULES_AUD_PUBLIC);
        json_decref(one);
    }
    json_decref(dice);
    rules_log_who(x, "who", me);
    rules_log_who(x, "whom", t);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_int(x, "natural", r.natural, RULES_AUD_PUBLIC);
    rules_log_json(x, "hit", json_boolean(hit), RULES_AUD_PUBLIC);
    rules_log_int(x, "damage", dmg, RULES_AUD_PUBLIC);
    rules_log_int(x, "bonus", r.bonus, mine);
    rules_log_int(x, "total", r.total, mine);
    if (insp)
        rules_log_int(x, "inspiration", r.insp, mine);
    if (dmg_insp)
        rules_log_int(x, "damage_inspiration", dmg_insp, mine);
    rules_log_int(x, "damage_bonus", w.stat, mine);
    if (nat20)
        rules_log_int(x, "inspiration_gained", 1, mine);
    rules_log_int(x, "defense", def, theirs);
    if (is_free)
        rules_log_json(x, "free", json_true(), RULES_AUD_PUBLIC);
    if (blocked)
        rules_log_json(x, "shield", json_true(), RULES_AUD_PUBLIC);
    if (w.name) {
        rules_log_name(x, "weapon", w.name, RULES_AUD_PUBLIC);
        rules_log_word(x, "with", "attack.with", RULES_AUD_PUBLIC);
    }
    /* the roll against the defense class, where a number in it is the GM's (a PC's own total
     * and a PC's defense class are in the result) */
    if (mine == RULES_AUD_GM || theirs == RULES_AUD_GM)
        rules_log_word(x, "versus", "attack.versus", RULES_AUD_GM);
    rules_log_word(x, "outcome",
                   hit       ? "attack.hit"
                   : blocked ? "attack.blocked"
                             : "attack.miss",
                   RULES_AUD_PUBLIC);
    if (nat20)
        rules_log_word(x, "nat20", "attack.nat20", RULES_AUD_PUBLIC);
    if (hit && is_free)
        rules_log_word(x, "freely", "attack.free", RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (hit && dmg > 0)
        fivey_apply_damage(e, t, dmg);
    if (blocked)
        destroy_shield(e, t);
    return 0;
}

/* ---- move ---- */

static const char *const HOW[] = {"walk", "climb", "crawl", "swim", "jump", NULL};

/* How far one ◆ of `how` takes cid: the move rating walking, half of it otherwise (004:381,
 * 004:690); -1 for a way the book does not list. */
static int reach_of(const rules_enc *e, const char *cid, const char *how)
{
    int k = 0;
    while (HOW[k] && strcmp(HOW[k], how) != 0)
        k++;
    if (!HOW[k])
        return -1;
    int move = rules_enc_stat_peek(e, cid, "move", FIVEY_BASE_MOVE);
    return k == 0 ? move : move / 2;
}

static int check_move(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *how = rules_arg_str(a, "how");
    if (!how)
        how = "walk";
    int reach = reach_of(e, me, how);
    if (reach < 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act move: 'how' is walk, climb, crawl, swim or jump");
    /* 004:381 "climbing, crawling, or swimming, the distance moved costs twice as much";
     * 004:690 "Jumping across a distance costs twice the move rating" */
    if (rules_arg_given(a, "paces") && rules_arg_int(a, "paces") > reach)
        return rules_enc_rule(err,
                              strcmp(how, "walk") == 0
                                  ? "%s moves at most %d paces per ◆ (004:688)"
                                  : "%s moves at most %d paces per ◆ this way: it costs "
                                    "twice as much (004:381, 004:690)",
                              rules_enc_name(e, me), reach);
    return fivey_budget_check(e, me, 1, err);
}

/*
 * `move` (turn; `paces`, `how`): 1 ◆, at most the move rating (004:688); climbing, crawling,
 * swimming and jumping cost twice as much (004:381, 004:690), so half the paces per ◆ (rounded
 * down, reading E7). Swimming in armor is a DEX check against the armor's defense class, 1d6
 * drowning damage on a failure (004:424).
 */
static int act_move(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *how = rules_arg_str(a, "how");
    if (!how)
        how = "walk";
    int paces = rules_arg_given(a, "paces") ? rules_arg_int(a, "paces") : reach_of(e, me, how);
    rules_enc_spend(e, me, FIVEY_BUDGET, 1, err);
    const char *armor = json_string_value(json_object_get(rules_enc_stats(e, me), "armor"));
    int against = strcmp(how, "swim") == 0 ? fivey_armor_dc(armor) : 0;
    if (!against) {
        rules_log *x = rules_log_begin(e, "move", "move");
        rules_log_who(x, "who", me);
        rules_log_int(x, "paces", paces, RULES_AUD_PUBLIC);
        rules_log_json(x, "how", json_string(how), RULES_AUD_PUBLIC);
        if (strcmp(how, "walk") != 0) {
            rules_log_name(x, "way", how, RULES_AUD_PUBLIC);
            rules_log_word(x, "how_word", "move.how", RULES_AUD_PUBLIC);
        }
        rules_log_end(x);
        return 0;
    }
    /* 004:424 "The armor's defense class also serves this function while trying to swim—taking
     * 1d6 drowning damage on a failed check." */
    int dex = rules_enc_stat(e, me, "dex", 1);
    json_t *dice = json_array();
    fivey_roll r;
    fivey_roll_check(&r, e->rng, dice, dex, FIVEY_EDGE_NONE, 0, 0);
    int ok = fivey_meets(r.total, against), dmg = 0;
    if (!ok)
        dmg = rules_roll_die(e->rng, 6, dice);
    rules_aud mine = rules_enc_aud_of(e, me);
    rules_log *x = rules_log_begin(e, "move", "swim");
    rules_log_dice(x, dice, mine);
    json_decref(dice);
    rules_log_who(x, "who", me);
    rules_log_int(x, "paces", paces, RULES_AUD_PUBLIC);
    rules_log_json(x, "how", json_string(how), RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_int(x, "damage", dmg, RULES_AUD_PUBLIC);
    rules_log_int(x, "natural", r.natural, mine);
    rules_log_int(x, "bonus", dex, mine);
    rules_log_int(x, "total", r.total, mine);
    rules_log_int(x, "dc", against, mine);
    rules_log_name(x, "armor", armor, RULES_AUD_PUBLIC);
    rules_log_word(x, "versus", "roll.versus_dc", mine);
    rules_log_word(x, "afloat", ok ? "swim.afloat" : "swim.under", RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (dmg)
        fivey_apply_damage(e, me, dmg);
    return 0;
}

/* ---- any other action ---- */

static int check_other(const rules_enc *e, const rules_args *a, tb_err *err)
{
    /* 004:696 "Most actions cost 1 ◆, though some actions may cost up to 2 ◆" */
    return fivey_budget_check(e, e->actor, rules_arg_int(a, "cost"), err);
}

static int act_other(rules_enc *e, const rules_args *a, tb_err *err)
{
    int cost = rules_arg_int(a, "cost");
    if (rules_enc_spend(e, e->actor, FIVEY_BUDGET, cost, err))
        return err->code;
    rules_log *x = rules_log_begin(e, "act", "act");
    rules_log_who(x, "who", e->actor);
    rules_log_name(x, "what", rules_arg_str(a, "what"), RULES_AUD_PUBLIC);
    rules_log_int(x, "cost", cost, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- armor in a jiffy (004:424) ---- */

static int check_armor(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *don = rules_arg_str(a, "don");
    int doff = rules_arg_int(a, "doff");
    if (!!don == !!doff)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act armor: give either 'don' (a kind) or 'doff'");
    const json_t *st = rules_enc_stats_peek(e, me);
    const char *worn = json_string_value(json_object_get(st, "armor"));
    if (!worn && json_is_string(json_object_get(st, "bracket")))
        return rules_enc_rule(err, "%s is a monster: its defense class is its own (004:426)",
                              rules_enc_name(e, me));
    if (!worn)
        worn = "none";
    if (don && fivey_armor_dc(don) == 0)
        return tb_fail(
            err, TB_BAD_REQUEST,
            "enc.act armor: 'don' is leather, scale, chain, ring or plate (004:416-421)");
    if (don && strcmp(worn, "none") != 0)
        return rules_enc_rule(err, "%s wears %s armor: take it off first", rules_enc_name(e, me),
                              worn);
    if (doff && strcmp(worn, "none") == 0)
        return rules_enc_rule(err, "%s wears no armor to take off", rules_enc_name(e, me));
    return fivey_budget_check(e, me, 2, err);
}

/* Sets cid's armor and, from it, defense class and movement (004:373, 004:414). */
static void wear_armor(rules_enc *e, const char *cid, const char *armor)
{
    json_t *st = rules_enc_stats(e, cid);
    json_object_set_new(st, "armor", json_string(armor));
    int dex = rules_enc_stat(e, cid, "dex", 1), str = rules_enc_stat(e, cid, "str", 1);
    rules_enc_stat_set(
        e, cid, "defense",
        fivey_defense_class(dex, armor, json_is_true(json_object_get(st, "shield"))));
    rules_enc_stat_set(e, cid, "move", FIVEY_BASE_MOVE - (str < fivey_armor_str(armor) ? 2 : 0));
}

/*
 * `armor` (turn; `don` a kind, or `doff`): 2 ◆ and a DEX check against the armor's defense class
 * (004:424); on a success the armor is on (or off), with the defense class and movement it gives;
 * on a failure the ◆ are spent and nothing changes.
 */
static int act_armor(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *don = rules_arg_str(a, "don");
    const char *kind =
        don ? don : json_string_value(json_object_get(rules_enc_stats(e, me), "armor"));
    int against = fivey_armor_dc(kind);
    rules_enc_spend(e, me, FIVEY_BUDGET, 2, err);
    int dex = rules_enc_stat(e, me, "dex", 1);
    json_t *dice = json_array();
    fivey_roll r;
    /* 004:424 "spend 2 ◆ to check dexterity against the armor's defense class" */
    fivey_roll_check(&r, e->rng, dice, dex, FIVEY_EDGE_NONE, 0, 0);
    int ok = fivey_meets(r.total, against);
    rules_aud mine = rules_enc_aud_of(e, me);
    rules_log *x = rules_log_begin(e, "armor", "armor");
    rules_log_dice(x, dice, mine);
    json_decref(dice);
    rules_log_who(x, "who", me);
    rules_log_json(x, "armor", json_string(kind), RULES_AUD_PUBLIC);
    rules_log_json(x, "doing", json_string(don ? "don" : "doff"), RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_int(x, "natural", r.natural, mine);
    rules_log_int(x, "bonus", dex, mine);
    rules_log_int(x, "total", r.total, mine);
    rules_log_int(x, "dc", against, mine);
    rules_log_name(x, "kind", kind, RULES_AUD_PUBLIC);
    rules_log_word(x, "how", don ? "armor.don" : "armor.doff", RULES_AUD_PUBLIC);
    rules_log_word(x, "versus", "roll.versus_dc", mine);
    rules_log_word(x, "outcome",
                   ok    ? "armor.done"
                   : don ? "armor.not_on"
                         : "armor.not_off",
                   RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (ok)
        wear_armor(e, me, don ? don : "none");
    return 0;
}

/* ---- end of a turn ---- */

static int act_end(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    /* e->actor may point into /enc/order (the server's default actor), which the end of the
     * surprise replaces: hold the id the combatant object keeps instead. */
    e->actor = json_string_value(json_object_get(rules_enc_combatant(e, e->actor), "id"));
    const char *me = e->actor;
    rules_enc_cond_tick(e, me);
    json_object_set_new(rules_enc_combatant(e, me), "budget", json_pack("{s:i}", FIVEY_BUDGET, 0));
    if (json_is_string(json_object_get(e->enc, "phase"))) {
        /* the free turns of the surprise: then initiative (004:645) */
        json_t *order = json_object_get(e->enc, "order");
        int t = (int)json_integer_value(json_object_get(e->enc, "turn")) + 1;
        while (t < (int)json_array_size(order) &&
               rules_enc_is_out(e, json_string_value(json_array_get(order, (size_t)t))))
            t++;
        log_who(e, "end", "free_turn_end", me);
        if (t < (int)json_array_size(order)) {
            json_object_set_new(e->enc, "turn", json_integer(t));
            rules_enc_budget_reset(e, json_string_value(json_array_get(order, (size_t)t)));
            return 0;
        }
        json_object_del(e->enc, "phase");
        json_object_set_new(e->enc, "order", json_array());
        json_object_set_new(e->enc, "turn", json_integer(-1));
        rules_log_end(rules_log_begin(e, "surprise-over", "surprise-over"));
        return 0;
    }
    log_who(e, "end", "turn_end", me);
    int rc = rules_enc_advance(e);
    if (rc == 1) {
        rules_log *x = rules_log_begin(e, "round", "round");
        rules_log_count(x, "round", rules_enc_round(e), RULES_AUD_PUBLIC);
        rules_log_who(x, "first", rules_enc_current(e));
        rules_log_end(x);
    } else if (rc < 0) {
        rules_log_end(rules_log_begin(e, "round", "nobody_left"));
    }
    return 0;
}

/* ---- GM actions ---- */

static int check_morale(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_morale_check(e, rules_arg_str(a, "side"), a, err);
}

static int act_morale(rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_morale(e, rules_arg_str(a, "side"), a, err);
}

/* A side's leader is one who still stands: its defeat calls the side's morale (004:670). */
static int check_leader(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_standing(e, rules_arg_str(a, "target"), err);
}

static int act_leader(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
        if (strcmp(rules_enc_side(e, k), rules_enc_side(e, t)) == 0)
            json_object_del(rules_enc_combatant(e, k), "leader");
    json_object_set_new(rules_enc_combatant(e, t), "leader", json_true());
    rules_log *x = rules_log_begin(e, "leader", "leader");
    rules_log_who(x, "who", t);
    rules_log_name(x, "side", rules_enc_side(e, t), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

static int act_harm(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    int amount = rules_arg_int(a, "amount");
    /* an NPC's hit points are the GM's: the table hears that it is hurt or healed, not how much */
    rules_aud aud = rules_enc_aud_of(e, t);
    rules_log *x = rules_log_begin(e, "harm", amount >= 0 ? "harm" : "heal");
    rules_log_who(x, "who", t);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_int(x, "amount", amount, aud);
    if (amount < 0)
        rules_log_count(x, "points", -amount, aud);
    rules_log_end(x);
    fivey_apply_damage(e, t, amount);
    return 0;
}

/* ---- the shield (004:422) ---- */

static int check_shield(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = fivey_standing(e, e->actor, err);
    if (rc)
        return rc;
    if (!json_is_true(json_object_get(rules_enc_stats_peek(e, e->actor), "shield")))
        return rules_enc_rule(err, "%s carries no shield", rules_enc_name(e, e->actor));
    return 0;
}

/* 004:422 Shield "+1 ... Destroy to negate an attack." The bearer readies it (or stands it down)
 * as a standing choice, so no attack waits on a prompt: the next hit on the bearer is negated
 * (act_attack), and the shield is gone, from the sheet too, with its +1 defense class. */
static int act_shield(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor;
    int on = rules_arg_int(a, "ready");
    json_object_set_new(rules_enc_combatant(e, me), "shield_ready", json_boolean(on));
    log_who(e, "shield", on ? "shield_ready" : "shield_kept", me);
    return 0;
}

/* ---- the module's hooks ---- */

static int combat_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)err;
    const char *p = rules_arg_str(o, "party");
    json_object_set_new(e->enc, "party", json_string(p ? p : "party"));
    /* 004:674 "All characters can perform 2 actions ◆ during their turn." */
    rules_enc_budget_default(e, json_pack("{s:i}", FIVEY_BUDGET, 2));
    return 0;
}

static int combat_may_act(rules_enc *e, const char *cid, tb_err *err)
{
    const char *cur = rules_enc_current(e);
    int surprise = json_is_string(json_object_get(e->enc, "phase"));
    if (!cur)
        return rules_enc_rule(err, rules_enc_round(e) == 0
                                       ? "the fight has not started: the GM rolls initiative "
                                         "first (004:666)"
                                       : "nobody has the turn now");
    if (strcmp(cur, cid) != 0)
        return rules_enc_rule(err,
                              surprise
                                  ? "it is %s's free turn from the surprise, not %s's (004:645)"
                                  : "it is %s's turn, not %s's: each acts in the initiative "
                                    "order (004:666)",
                              rules_enc_name(e, cur), rules_enc_name(e, cid));
    return 0;
}

/* The choices of a parameter (encounter.h, "Moves"): what the state holds for it, the most
 * likely first; what the game cannot know (a name, what a character does) stays free text. */
static int combat_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                          const rules_param *p, json_t *out)
{
    const char *act = a->name, *name = p->name;
    const json_t *st = actor ? rules_enc_stats_peek(e, actor) : NULL;
    if (strcmp(act, "attack") == 0 && strcmp(name, "weapon") == 0) {
        json_t *ws = json_object_get(st, "weapons"), *w;
        size_t i;
        if (!json_is_array(ws)) {
            fivey_choice(out, NULL, "its natural attack");
            return RULES_CHOICES_PICK;
        }
        json_array_foreach(ws, i, w) fivey_choice(out, json_integer((json_int_t)i),
                                                  json_string_value(json_object_get(w, "name")));
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "move") == 0 && strcmp(name, "how") == 0) {
        static const char *const LABELS[] = {"walk", "climb (twice the cost)",
                                             "crawl (twice the cost)", "swim (twice the cost)",
                                             "jump (twice the cost)"};
        for (int k = 0; HOW[k]; k++)
            fivey_choice(out, json_string(HOW[k]), LABELS[k]);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "move") == 0 && strcmp(name, "paces") == 0) {
        fivey_choice(out, NULL, "as far as one ◆ goes");
        return RULES_CHOICES_DEFAULT;
    }
    if (strcmp(act, "cast") == 0)
        return fivey_cast_choices(e, actor, p, out);
    if (strcmp(act, "armor") == 0) {
        const char *worn = json_string_value(json_object_get(st, "armor"));
        int wearing = worn && strcmp(worn, "none") != 0;
        if (strcmp(name, "doff") == 0) {
            fivey_choice(out, json_integer(wearing), wearing ? "take it off" : "no");
            return RULES_CHOICES_PICK;
        }
        if (wearing) {
            fivey_choice(out, NULL, "nothing: take it off first");
            return RULES_CHOICES_PICK;
        }
        static const char *const KINDS[] = {"leather", "scale", "chain", "ring", "plate", NULL};
        for (const char *const *k = KINDS; *k; k++)
            fivey_choice(out, json_string(*k), *k);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "shield") == 0) {
        int ready = json_is_true(json_object_get(rules_enc_combatant(e, actor), "shield_ready"));
        fivey_choice(out, json_integer(!ready), ready ? "stand it down" : "ready it");
        fivey_choice(out, json_integer(ready), ready ? "keep it ready" : "keep it for now");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "surprise") == 0 || strcmp(act, "initiative") == 0)
        return fivey_contest_choices(e, a, p, out);
    if (strcmp(act, "spawn") == 0 || strcmp(act, "bracket") == 0)
        return fivey_monster_choices(e, a, p, out);
    if (strcmp(act, "morale") == 0)
        return fivey_morale_choices(e, p, "the side due", out);
    if (strcmp(act, "harm") == 0 && strcmp(name, "target") == 0) {
        /* anyone, the fallen too: healing brings the dead back (004:367) */
        fivey_choose_side(e, out, fivey_party_side(e), 1);
        const char *k;
        for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
            if (rules_enc_is_out(e, k))
                fivey_choice(out, json_string(k), rules_enc_name(e, k));
        return RULES_CHOICES_PICK;
    }
    return RULES_CHOICES_NONE;
}
