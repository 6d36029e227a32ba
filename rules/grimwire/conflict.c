/*
 * conflict.c — grimwire.conflict, GRIMWIRE's conflict rounds (rulebook 002_c1f3df0ad7b1e31f.txt,
 * cited 002:LINE) on the shared machinery of rules/encounter.h: its action table, then each
 * action's check (pure: the refusal before any die) and resolve (the dice and the writes), in
 * table order. What the actions share lives below the module (grimwire_enc.h): fight.c (stats,
 * status effects, damage, dying, spending), rounds.c (initiative and turns), strike.c (the dice
 * of attacks, shoves and grapples).
 *
 *   turns     a 6-second round (002:415); each turn a budget {action, move, aux} (002:407-411);
 *             light weapons give extra attacks by COR (002:567-579): `budget.attacks` for a PC,
 *             the GM's /gm/enc/combatants/<id>/budget for an NPC (its count gives its COR away)
 *   reactions spend this round's action, or next round's once this one is spent (002:435-447)
 *   attacks   COR vs the target's hidden target number, the PC's AGL to evade an NPC, COR vs AGL
 *             between PCs (002:531-545, 002:767-769); a player's attack with no number waits for
 *             the GM's (reading G4); a natural 1 waits for the GM's pick (002:553-559)
 *   secrets   (/gm/enc) NPC stats, every target number, NPC initiative totals, the pending
 *             natural 1's damage, an NPC's extra attacks and assist total.
 * Readings: rules/RULES.md, "Encounters (module grimwire.conflict)".
 */
#include <stdio.h>
#include <string.h>

#include "conflict.h"

/* Each action: chk_<name> (the check), do_<name> (the resolve's dice and writes) and res_<name>
 * (the resolve the table holds: do_<name>, then the sheet's status follows the conditions). */
#define ACTION(x)                                                                                  \
    static int chk_##x(const rules_enc *e, const rules_args *a, tb_err *err);                      \
    static void do_##x(rules_enc *e, const rules_args *a);                                         \
    static int res_##x(rules_enc *e, const rules_args *a, tb_err *err);
ACTION(begin)
ACTION(attack)
ACTION(technique)
ACTION(move)
ACTION(dash)
ACTION(aux)
ACTION(get_up)
ACTION(help_up)
ACTION(wake)
ACTION(assist)
ACTION(break_free)
ACTION(pass)
ACTION(end_turn)
ACTION(reaction)
ACTION(swap)
#undef ACTION

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
/* Who a blast or an area catches: the GM's list, or a centre square on the scene's map and a
 * radius in squares (conflict_gm.c caught_of; RULES.md reading G26). */
/* clang-format off */
#define CAUGHT                                                                                     \
    {"who", RULES_PARAM_STRING, 1, 400, 0, 0, "who is caught (comma list of combatants)"},         \
    {"centre", RULES_PARAM_STRING, 3, 9, 0, 0, "or its centre on the map: column,row (3,4)"},      \
    {"radius", RULES_PARAM_INT, 0, 20, 1, 0, "with a centre: its radius in squares (1)"}
/* clang-format on */
static const rules_param P_TARGETS[] = {
    CAUGHT,
    {"damage", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "damage dice (3d6)"},
    {"type", RULES_PARAM_STRING, 1, 16, 0, 0, "damage type (explosions, heat, ...)"},
    SECRET_TN("tn", "GM: target number of the AGL roll for half damage"),
    {0},
};
static const rules_param P_AREA[] = {
    CAUGHT,
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
static const rules_param P_ANSWER[] = {
    {"tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_REQUIRED | RULES_PARAM_SECRET,
     "target number to hit (COR)"},
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

#define ROW(x, label, who, params, cite, flags)                                                    \
    {                                                                                              \
#x, label, who, params, res_##x, cite, chk_##x, flags                                      \
    }
/* A row whose check and resolve live in conflict_options.c or conflict_gm.c (conflict.h). */
#define XROW(x, label, who, params, cite, flags)                                                   \
    {                                                                                              \
#x, label, who, params, gw_res_##x, cite, gw_chk_##x, flags                                \
    }
static const rules_enc_action ACTIONS[] = {
    ROW(begin, "Roll initiative", RULES_ENC_GM, P_BEGIN, "002:399-403, 002:519-523", 0),
    ROW(attack, "Attack", RULES_ENC_TURN, P_ATTACK, "002:543-601, 002:743-751", 0),
    ROW(technique, "Technique", RULES_ENC_TURN, P_TECHNIQUE, "002:425, 002:198", 0),
    ROW(move, "Move", RULES_ENC_TURN, P_NONE, "002:463-465", 0),
    ROW(dash, "Dash", RULES_ENC_TURN, P_NONE, "002:467-469", 0),
    ROW(aux, "Auxiliary action", RULES_ENC_TURN, P_AUX, "002:427-431", 0),
    ROW(get_up, "Get up", RULES_ENC_TURN, P_NONE, "002:800", 0),
    ROW(help_up, "Help up", RULES_ENC_TURN, P_TARGET, "002:801", 0),
    ROW(wake, "Wake someone", RULES_ENC_TURN, P_TARGET, "002:868-875", 0),
    ROW(assist, "Assist", RULES_ENC_TURN, P_ASSIST, "002:81-83", 0),
    ROW(break_free, "Break free", RULES_ENC_TURN, P_NONE, "002:678-682", 0),
    XROW(trip, "Trip", RULES_ENC_TURN, P_TRIP, "002:661, 002:794-801", 0),
    XROW(shove, "Shove", RULES_ENC_TURN, P_MANEUVER, "002:655-657", 0),
    XROW(grapple, "Grapple", RULES_ENC_TURN, P_MANEUVER, "002:663-689", 0),
    XROW(release, "Let go", RULES_ENC_OWNER, P_TARGET, "002:663-689", 0),
    XROW(shield, "Shield someone", RULES_ENC_OWNER, P_TARGET, "002:755-761", 0),
    XROW(stabilize, "Stabilize", RULES_ENC_TURN, P_STABILIZE, "002:258-260", 0),
    XROW(leave, "Move out of the area", RULES_ENC_TURN, P_NONE, "002:727", 0),
    XROW(stay, "Stay in the area", RULES_ENC_TURN, P_NONE, "002:727", 0),
    ROW(pass, "Pass", RULES_ENC_TURN, P_PASS, "002:419-421", 0),
    ROW(end_turn, "End turn", RULES_ENC_TURN, P_NONE, "002:405-417", 0),
    ROW(reaction, "Reaction", RULES_ENC_OWNER, P_REACTION, "002:433-451", 0),
    ROW(swap, "Swap tied initiative", RULES_ENC_OWNER, P_TARGET, "002:403", RULES_ENC_RARE),
    XROW(collateral, "Natural 1: who is hit", RULES_ENC_GM, P_COLLATERAL,
         "002:553-559, 002:631-643", 0),
    XROW(set_tn, "Set target numbers", RULES_ENC_GM, P_SET_TN, "002:29-55", 0),
    XROW(answer, "Name the target number", RULES_ENC_GM, P_ANSWER, "002:29-55", 0),
    XROW(traits, "Damage traits", RULES_ENC_GM, P_TRAITS, "002:691-721", RULES_ENC_RARE),
    XROW(status, "Status effect", RULES_ENC_GM, P_STATUS, "002:779-878", 0),
    XROW(damage, "Deal damage", RULES_ENC_GM, P_DAMAGE, "002:723-751", 0),
    XROW(splash, "Blast (splash damage)", RULES_ENC_GM, P_TARGETS, "002:723-725", RULES_ENC_RARE),
    XROW(area, "Lasting area of damage", RULES_ENC_GM, P_AREA, "002:727", RULES_ENC_RARE),
    XROW(drown, "Drowning", RULES_ENC_GM, P_DROWN, "002:733-737", RULES_ENC_RARE),
    XROW(heal, "Heal", RULES_ENC_GM, P_HEAL, "002:188, 002:258", 0),
    XROW(revive, "Stabilize", RULES_ENC_GM, P_TARGET, "002:256-260", RULES_ENC_RARE),
    {0},
};
#undef ROW
#undef XROW

/* ---- begin (002:399-403, 002:519-523) ---- */

static int chk_begin(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (gw_ready(e, err))
        return err->code;
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err, "the conflict is already under way (round %d)",
                              rules_enc_round(e));
    const char *cid, *side = rules_arg_str(a, "surprise");
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
    return 0;
}

static void do_begin(rules_enc *e, const rules_args *a)
{
    gw_roll_order(e, rules_arg_str(a, "surprise"), rules_arg_int(a, "alert"));
    gw_first_round(e);
}

/* ---- attack (002:543-601, 002:743-751) ---- */

static int chk_attack(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    gw_weapon w;
    if (gw_turn_ready(e, err))
        return err->code;
    if (strcmp(cid, t) == 0)
        return rules_enc_rule(err, "%s cannot attack themselves", gw_nm(e, cid));
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight", gw_nm(e, t));
    if ((rules_arg_given(a, "tn") || rules_arg_given(a, "tog_tn")) && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM sets target numbers (002:29, 002:53)");
    if (rules_arg_given(a, "raise") && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN,
                       "only the GM says how much harder a targeted attack is (002:653)");
    if (rules_arg_int(a, "nonlethal") && gw_npc(e, cid))
        return rules_enc_rule(err, "holding back is a player character's choice (002:649)");
    if (rules_arg_int(a, "nonlethal") && rules_arg_str(a, "effect"))
        return rules_enc_rule(err, "a targeted attack does no damage to hold back (002:653)");
    if (gw_pick_weapon(e, cid, a, &w, err))
        return err->code;
    const char *type = rules_arg_str(a, "type");
    if (type && !gw_known_type(type))
        return tb_fail(err, TB_BAD_REQUEST, "unknown damage type '%.40s' (002:695-721)", type);
    /* spending: the action, or one of the extra light-weapon attacks (002:567-579, 002:585) */
    int left = gw_attacks_left(e, cid);
    if (left > 0 && strcmp(w.kind, "light") != 0)
        return rules_enc_rule(err, "the extra attacks from COR are for light weapons only "
                                   "(002:567, 002:585)");
    if (left == 0 && gw_budget_left(e, cid, "action") < 1)
        return rules_enc_rule(err,
                              "%s has made every attack of the turn: COR %d gives %d "
                              "with light weapons (002:569-579)",
                              gw_nm(e, cid), gw_attr(e, cid, "cor"),
                              grimwire_light_attacks(gw_attr(e, cid, "cor")));
    if (left <= 0 && gw_action_check(e, cid, err))
        return err->code;
    int pc_vs_pc, evade, tn;
    int rc = gw_hit_tn(e, a, cid, t, &tn, &pc_vs_pc, &evade, err);
    return rc == GW_HIT_WAIT ? 0 : rc;
}

static void do_attack(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    gw_weapon w;
    tb_err err = {0};
    gw_pick_weapon(e, cid, a, &w, &err);
    int left = gw_attacks_left(e, cid), first = 0;
    if (left > 0) {
        gw_attacks_set(e, cid, left - 1);
    } else {
        gw_use_action(e, cid);
        first = 1;
        int n = strcmp(w.kind, "light") == 0
                    ? grimwire_light_attacks(gw_attr(e, cid, "cor")) +
                          (gw_has(e, cid, "frenzy") || gw_has(e, cid, "amok"))
                    : 1;
        if (n > 1)
            gw_attacks_set(e, cid, n - 1);
    }
    int pc_vs_pc, evade, tn;
    if (gw_hit_tn(e, a, cid, t, &tn, &pc_vs_pc, &evade, &err) == GW_HIT_WAIT)
        gw_attack_wait(e, "attack", a, cid, t, first);
    else
        gw_attack_resolve(e, a, cid, t, &w, first, tn, pc_vs_pc, evade);
}

/* ---- technique (002:425, 002:198) ---- */

static int chk_technique(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (gw_turn_ready(e, err) || gw_action_check(e, e->actor, err) ||
        gw_focus_check(e, e->actor, rules_arg_str(a, "name"), err))
        return err->code;
    return 0;
}

static void do_technique(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *name = rules_arg_str(a, "name");
    gw_use_action(e, cid);
    gw_pay_focus(e, cid, rules_arg_int(a, "focus"));
    if (gw_has(e, cid, "grappled") && !gw_grapple_roll(e, cid, 0))
        return;
    rules_log *x = rules_log_begin(e, "technique", "technique");
    rules_log_json(x, "name", json_string(name), RULES_AUD_PUBLIC);
    rules_log_int(x, "focus", rules_arg_int(a, "focus"), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_name(x, "tname", name, RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* ---- move, dash, aux (002:427-431, 002:463-469) ---- */

static int chk_move(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_turn_ready(e, err) || gw_move_check(e, e->actor, err))
        return err->code;
    return 0;
}

static void do_move(rules_enc *e, const rules_args *a)
{
    (void)a;
    const char *cid = e->actor;
    gw_use_move(e, cid);
    if (gw_has(e, cid, "grappled") && !gw_grapple_roll(e, cid, 1))
        return;
    const char *how = "move.walks";
    if (gw_has(e, cid, "knocked_down"))
        how = "move.crawls";
    else if (gw_burnout(e, cid) >= 3)
        how = "move.burnout3";
    else if (gw_has(e, cid, "grappled"))
        how = "move.grappled";
    else if (gw_burnout(e, cid) == 2)
        how = "move.burnout2";
    rules_log *x = rules_log_begin(e, "move", "move");
    rules_log_who(x, "who", cid);
    rules_log_word(x, "how", how, RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* 002:469 "sacrifice their action on their turn to move double their normal movement" */
static int chk_dash(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_turn_ready(e, err))
        return err->code;
    if (gw_has(e, e->actor, "knocked_down"))
        return rules_enc_rule(err, "%s is knocked down: crawl or get up first (002:799-800)",
                              gw_nm(e, e->actor));
    if (gw_move_check(e, e->actor, err) || gw_action_check(e, e->actor, err))
        return err->code;
    return 0;
}

static void do_dash(rules_enc *e, const rules_args *a)
{
    (void)a;
    const char *cid = e->actor;
    gw_use_move(e, cid);
    gw_use_action(e, cid);
    if (gw_has(e, cid, "grappled") && !gw_grapple_roll(e, cid, 1))
        return;
    gw_log_actor(e, "dash", "dash");
}

/* 002:431 "Players can sacrifice their action to make a second auxiliary action" */
static int chk_aux(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    if (gw_turn_ready(e, err))
        return err->code;
    if (gw_budget_left(e, cid, "aux") >= 1)
        return 0;
    if (gw_budget_left(e, cid, "action") > 0)
        return gw_action_check(e, cid, err);
    return rules_enc_rule(err, "%s has no auxiliary action left this turn (002:427-431)",
                          gw_nm(e, cid));
}

static void do_aux(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *what = rules_arg_str(a, "what");
    int second = gw_budget_left(e, cid, "aux") < 1;
    if (second)
        gw_use_action(e, cid);
    else
        gw_use_aux(e, cid);
    rules_log *x = rules_log_begin(e, "aux", second ? "aux_second" : "aux");
    if (second)
        rules_log_json(x, "with_action", json_true(), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    if (what) {
        rules_log_name(x, "wtext", what, RULES_AUD_PUBLIC);
        rules_log_word(x, "what", "aux.what", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
}

/* ---- get up, help up (002:800-801) ---- */

static int chk_get_up(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_turn_ready(e, err))
        return err->code;
    if (!gw_has(e, e->actor, "knocked_down"))
        return rules_enc_rule(err, "%s is not knocked down", gw_nm(e, e->actor));
    return gw_move_check(e, e->actor, err);
}

static void do_get_up(rules_enc *e, const rules_args *a)
{
    (void)a;
    gw_use_move(e, e->actor);
    rules_enc_cond_remove(e, e->actor, "knocked_down");
    gw_log_actor(e, "get_up", "get_up");
}

static int chk_help_up(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    if (gw_turn_ready(e, err))
        return err->code;
    if (!gw_has(e, t, "knocked_down"))
        return rules_enc_rule(err, "%s is not knocked down", gw_nm(e, t));
    if (gw_has(e, cid, "knocked_down"))
        return rules_enc_rule(err,
                              "%s is knocked down too: only a character that is not can "
                              "help (002:801)",
                              gw_nm(e, cid));
    if (gw_budget_left(e, cid, "aux") < 1)
        return rules_enc_rule(err, "%s has no auxiliary action left this turn (002:801)",
                              gw_nm(e, cid));
    return 0;
}

static void do_help_up(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    gw_use_aux(e, cid);
    rules_enc_cond_remove(e, t, "knocked_down");
    gw_log_pair(e, "help_up", "help_up", cid, t);
}

/* 002:870 the sleeping "can be awakened by noise or other stimuli"; 002:874 a knocked out
 * character "can be woken instantly as an auxiliary action by a conscious character" (the one
 * whose turn it is: reading G25, the same auxiliary action for both). */
static int chk_wake(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    if (gw_turn_ready(e, err))
        return err->code;
    if (!gw_has(e, t, "sleep") && !gw_has(e, t, "knocked_out"))
        return rules_enc_rule(err, "%s is not asleep or knocked out", gw_nm(e, t));
    if (gw_budget_left(e, cid, "aux") < 1)
        return rules_enc_rule(err, "%s has no auxiliary action left this turn", gw_nm(e, cid));
    return 0;
}

static void do_wake(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    gw_use_aux(e, cid);
    rules_enc_cond_remove(e, t, "sleep");
    rules_enc_cond_remove(e, t, "knocked_out");
    gw_log_pair(e, "wake", "wake", cid, t);
}

/* ---- assist (002:81-83) ---- */

/*
 * Assisting an ally in a conflict: the helper rolls its own attribute (`attr`, with its own
 * modifiers and `mod`) and "Assisting another character while in a conflict costs an action":
 * the helper's action is spent. The result waits on the helped character as the condition
 * `assisted` {by, total}: "the highest result is used" when the task is rolled (the GM compares).
 * An NPC helper's total is the GM's (/gm/enc/combatants/<target>/assisted).
 */
static int chk_assist(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target"), *at = rules_arg_str(a, "attr");
    if (gw_turn_ready(e, err))
        return err->code;
    size_t i;
    for (i = 0; GW_ATTRS[i] && strcmp(GW_ATTRS[i], at) != 0; i++)
        ;
    if (!GW_ATTRS[i])
        return tb_fail(err, TB_BAD_REQUEST,
                       "'%.8s' is not an attribute: tog, agl, cor, mnd, per or rsn", at);
    if (strcmp(t, cid) == 0)
        return rules_enc_rule(err, "%s cannot assist themselves", gw_nm(e, cid));
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight", gw_nm(e, t));
    return gw_action_check(e, cid, err);
}

static void do_assist(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target"), *at = rules_arg_str(a, "attr");
    gw_use_action(e, cid);
    json_t *dice = json_array();
    grimwire_roll r =
        gw_roll_attr(e, cid, at, GRIMWIRE_USE_PLAIN, rules_arg_int(a, "mod"), 0, 0, 0, dice);
    json_t *c = rules_enc_cond_add(e, t, "assisted", 0, 0);
    json_object_set_new(c, "by", json_string(cid));
    rules_log *x;
    if (gw_npc(e, cid)) {
        json_object_set_new(rules_enc_hidden_of(e, t), "assisted",
                            json_pack("{s:s, s:i}", "by", cid, "total", r.total));
        x = rules_log_begin(e, "assist", "assist_total");
        gw_log_roll(x, &r, 0, RULES_AUD_GM);
        rules_log_who(x, "who", cid);
        rules_log_who(x, "other", t);
        rules_log_name(x, "stat", at, RULES_AUD_GM);
        rules_log_dice(x, dice, RULES_AUD_GM);
        rules_log_end(x);
        /* the table sees the helping, not whether the NPC's total reached 0 */
        x = rules_log_begin(e, "assist", "assist");
        rules_log_int(x, "natural", r.natural, RULES_AUD_PUBLIC);
    } else {
        json_object_set_new(c, "total", json_integer(r.total));
        x = rules_log_begin(e, "assist", "assist");
        gw_log_roll(x, &r, 0, RULES_AUD_PUBLIC);
        rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    }
    json_decref(dice);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    rules_log_end(x);
}

/* ---- break free (002:678-682) ---- */

static int chk_break_free(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    if (gw_turn_ready(e, err))
        return err->code;
    json_t *g = rules_enc_cond(e, cid, "grappled");
    if (!g)
        return rules_enc_rule(err, "%s is not grappled", gw_nm(e, cid));
    const char *by = json_string_value(json_object_get(g, "by"));
    if (!by || !by[0] || !gw_comb(e, by))
        return rules_enc_rule(err, "the GM has not named who grapples %s (status with target2)",
                              gw_nm(e, cid));
    return gw_action_check(e, cid, err);
}

static void do_break_free(rules_enc *e, const rules_args *a)
{
    (void)a;
    const char *cid = e->actor;
    char by[40]; /* a copy: the condition goes when the grapple breaks */
    snprintf(by, sizeof by, "%s",
             json_string_value(json_object_get(rules_enc_cond(e, cid, "grappled"), "by")));
    gw_use_action(e, cid);
    /* 002:682 "You can attempt to break out of the grapple ... as your action": the opposed STR
     * (TOG) or COR roll of 002:678 (reading: each side uses its better of the two). */
    if (gw_grapple_roll(e, cid, 0)) {
        rules_enc_cond_remove(e, cid, "grappled");
        rules_log *x = rules_log_begin(e, "break_free", "break_free");
        rules_log_who(x, "who", cid);
        rules_log_who(x, "other", by);
        rules_log_end(x);
    }
}

/* ---- pass, end the turn (002:405-421) ---- */

static int chk_pass(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_turn_ready(e, err))
        return err->code;
    if (json_is_true(json_object_get(gw_comb(e, e->actor), "used")))
        return rules_enc_rule(err,
                              "%s already did something this turn: end the turn instead of "
                              "passing (002:421)",
                              gw_nm(e, e->actor));
    return 0;
}

static void log_pass(rules_enc *e, const char *cid, int skip)
{
    rules_log *x = rules_log_begin(e, "pass", skip ? "pass_skip" : "pass");
    rules_log_json(x, "skip", json_boolean(skip), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_end(x);
}

static void do_pass(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor;
    json_t *c = gw_comb(e, cid);
    int idx = gw_turn(e);
    if (rules_arg_int(a, "skip") || json_is_true(json_object_get(c, "waiting")) ||
        !gw_more_this_round(e)) {
        /* 002:421 "or not act at all that round ... loses their turn for that round"; passing a
         * second time, or with nobody left to wait for, gives the turn up (reading). */
        log_pass(e, cid, 1);
        gw_next_turn(e, cid, 1);
        return;
    }
    json_object_set_new(c, "waiting", json_true());
    json_t *ord = json_object_get(e->enc, "order");
    json_array_append(ord, json_array_get(ord, (size_t)idx));
    json_array_remove(ord, (size_t)idx);
    /* 002:421 "If multiple characters are trying to go last in a round, the order defaults to
     * the original initiative order": the waiting ones still to come, in initiative order. */
    size_t n = json_array_size(ord), from = n;
    while (from > (size_t)idx &&
           json_is_true(json_object_get(
               gw_comb(e, json_string_value(json_array_get(ord, from - 1))), "waiting")))
        from--;
    for (size_t i = from + 1; i < n; i++)
        for (size_t j = i; j > from; j--) {
            const char *x = json_string_value(json_array_get(ord, j - 1));
            const char *y = json_string_value(json_array_get(ord, j));
            if (gw_base_index(e, x) <= gw_base_index(e, y))
                break;
            json_t *tmp = json_incref(json_array_get(ord, j - 1));
            json_array_set(ord, j - 1, json_array_get(ord, j));
            json_array_set_new(ord, j, tmp);
        }
    log_pass(e, cid, 0);
    gw_turn_set(e, idx - 1);
    gw_next_turn(e, NULL, 0);
}

static int chk_end_turn(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    return gw_turn_ready(e, err);
}

static void do_end_turn(rules_enc *e, const rules_args *a)
{
    (void)a;
    gw_log_actor(e, "end_turn", "end_turn");
    gw_next_turn(e, e->actor, 1);
}

/* ---- reaction (002:433-451) ---- */

/*
 * At any time, when its trigger happens. It takes this round's action (or auxiliary action) if
 * that is still unused, otherwise next round's; when both are spent it is refused. An auxiliary
 * reaction does the same with the auxiliary action (002:451).
 */
static int chk_reaction(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (gw_ready(e, err) || gw_reaction_round(e, e->actor, rules_arg_int(a, "aux"), err) < 0 ||
        gw_focus_check(e, e->actor, rules_arg_str(a, "name"), err))
        return err->code;
    return 0;
}

static void do_reaction(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *name = rules_arg_str(a, "name"), *t = rules_arg_str(a, "target");
    int r = rules_enc_round(e), aux = rules_arg_int(a, "aux");
    tb_err err = {0};
    int uses = gw_reaction_round(e, cid, aux, &err);
    gw_pay_focus(e, cid, rules_arg_int(a, "focus"));
    gw_reaction_spend(e, cid, aux, uses);
    rules_log *x = rules_log_begin(e, "reaction", "reaction");
    rules_log_json(x, "name", json_string(name), RULES_AUD_PUBLIC);
    rules_log_int(x, "focus", rules_arg_int(a, "focus"), RULES_AUD_PUBLIC);
    rules_log_int(x, "uses_round", uses, RULES_AUD_PUBLIC);
    rules_log_json(x, "uses", json_string(aux ? "aux" : "action"), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_name(x, "tname", name, RULES_AUD_PUBLIC);
    rules_log_word(x, "kind", aux ? "react.aux" : "react.action", RULES_AUD_PUBLIC);
    rules_log_word(x, "line", uses == r ? "react.this_round" : "react.next_round",
                   RULES_AUD_PUBLIC);
    if (t) {
        rules_log_who(x, "other", t);
        rules_log_word(x, "to", "react.to", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
}

/* ---- swap (002:403) ---- */

/* "If the tie is between two characters on the same side, they can decide who goes first each
 * round": actor takes the tied target's place before its turn comes. */
static int chk_swap(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    if (gw_ready(e, err) || gw_actor_in(e, err))
        return err->code;
    if (rules_enc_round(e) < 1)
        return rules_enc_rule(err, "initiative has not been rolled yet (002:401)");
    if (strcmp(rules_enc_side(e, cid), rules_enc_side(e, t)) != 0 ||
        gw_init_of(e, cid) != gw_init_of(e, t) || strcmp(cid, t) == 0)
        return rules_enc_rule(err, "only characters of the same side with tied initiative decide "
                                   "who goes first (002:403)");
    int i = rules_enc_order_index(e, cid), j = rules_enc_order_index(e, t), cur = gw_turn(e);
    for (int k = 0; k < 2; k++) {
        int x = k ? j : i;
        const char *who = k ? t : cid;
        if (x < cur || (x == cur && json_is_true(json_object_get(gw_comb(e, who), "used"))))
            return rules_enc_rule(err, "%s has already had the turn this round", gw_nm(e, who));
    }
    return 0;
}

static void do_swap(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    int i = rules_enc_order_index(e, cid), j = rules_enc_order_index(e, t), cur = gw_turn(e);
    json_t *ord = json_object_get(e->enc, "order");
    json_t *x = json_incref(json_array_get(ord, (size_t)i));
    json_array_set(ord, (size_t)i, json_array_get(ord, (size_t)j));
    json_array_set_new(ord, (size_t)j, x);
    gw_log_pair(e, "swap", "swap", cid, t);
    if (i == cur || j == cur) {
        const char *now = rules_enc_current(e);
        rules_enc_budget_reset(e, now);
        if (!gw_turn_begins(e, now))
            gw_next_turn(e, now, 1);
    }
}

/* The resolves of the table (rules_enc_act runs them once the check passed). */
#define RESOLVE(x) static GW_RESOLVE(res_##x, x)
RESOLVE(begin)
RESOLVE(attack)
RESOLVE(technique)
RESOLVE(move)
RESOLVE(dash)
RESOLVE(aux)
RESOLVE(get_up)
RESOLVE(help_up)
RESOLVE(wake)
RESOLVE(assist)
RESOLVE(break_free)
RESOLVE(pass)
RESOLVE(end_turn)
RESOLVE(reaction)
RESOLVE(swap)
#undef RESOLVE

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
        if (s && gw_is_status(s))
            rules_enc_cond_add(e, cid, s, 0, 0);
    }
    json_object_set_new(gw_comb(e, cid), "spent", json_pack("{s:i, s:i}", "action", 0, "aux", 0));
    if (gw_cond_cur(e, cid) <= 0)
        rules_enc_cond_add(e, cid, "dying", 0, 0); /* 002:256 */
    if (rules_enc_round(e) > 0) /* joining a running conflict: its initiative now */
        gw_join_order(e, cid);
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
        return rules_enc_rule(err, "it is %s's turn, not %s's (002:401)", gw_nm(e, cur),
                              gw_nm(e, cid));
    json_t *p = json_object_get(e->enc, "pending");
    if (json_is_object(p))
        return rules_enc_rule(err,
                              "%s's natural 1 may hit someone else: the GM first picks the "
                              "unintended target (collateral, 002:555)",
                              gw_nm(e, json_string_value(json_object_get(p, "attacker"))));
    return 0;
}

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

static const char *const SHEET_STATS[] = {"attributes", "condition", "focus",  "burnout",
                                          "armor",      "armor_tog", "status", "techniques",
                                          "weapons",    NULL};

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
    .choices = gw_conflict_choices,
    .phrases = gw_conflict_phrases,
};
