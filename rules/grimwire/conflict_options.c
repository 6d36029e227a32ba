/*
 * conflict_options.c — the combat options of grimwire.conflict (rulebook 002_c1f3df0ad7b1e31f.txt,
 * cited 002:LINE; issue 17): trip, shove, grapple, let go, shield, stabilize, and leaving or
 * staying in a lasting area, each a check (pure, before any die) and a resolve, in the order of the
 * module's table (conflict.c). Calls grimwire_enc.h (strike.c's dice for shoves and grapples).
 */
#include <stdio.h>
#include <string.h>

#include "conflict.h"

/* ---- trip (002:661, 002:794-801) ---- */

/* AGL opposed by the target's AGL (a tie to the target); the tripped target is knocked down. */
int gw_chk_trip(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (gw_turn_ready(e, err) || gw_on_other(e, t, "trip", err))
        return err->code;
    if (gw_has(e, t, "knocked_down") || gw_dying(e, t))
        return rules_enc_rule(err, "%s is already on the ground", gw_nm(e, t));
    return gw_action_check(e, e->actor, err);
}

static void do_trip(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    gw_use_action(e, cid);
    if (gw_has(e, cid, "grappled") && !gw_grapple_roll(e, cid, 0))
        return;
    json_t *dice = json_array();
    rules_log *x = rules_log_begin(e, "trip", "trip");
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    int won = gw_opposed(e, cid, "agl", rules_arg_int(a, "mod"), t, "agl", 0, "target_natural",
                         "target_total", dice, x, NULL, NULL);
    if (won)
        rules_enc_cond_add(e, t, "knocked_down", 0, 0);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    rules_log_word(x, "outcome", won ? "trip.down" : "trip.feet", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
}

/* ---- shove, grapple (002:655-689) ---- */

/* The checks of a shove or grapple before anything changes (validate before you roll). */
static int chk_maneuver(const rules_enc *e, const char *name, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    if (gw_turn_ready(e, err) || gw_on_other(e, t, name, err))
        return err->code;
    if (rules_arg_given(a, "tn") && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM sets target numbers (002:29, 002:53)");
    if (strcmp(name, "grapple") == 0) {
        json_t *g = rules_enc_cond(e, t, "grappled");
        if (g && rules_enc_streq(json_string_value(json_object_get(g, "by")), cid))
            return rules_enc_rule(err, "%s already holds %s", gw_nm(e, cid), gw_nm(e, t));
        if (g)
            return rules_enc_rule(err,
                                  "%s is already held by %s: one grappler at a time is kept "
                                  "(the GM handles a second one)",
                                  gw_nm(e, t),
                                  gw_nm(e, json_string_value(json_object_get(g, "by"))));
    }
    int pc_vs_pc, evade, tn;
    int rc = gw_hit_tn(e, a, cid, t, &tn, &pc_vs_pc, &evade, err);
    if (rc > 0)
        return rc;
    return gw_action_check(e, cid, err);
}

static void do_maneuver(rules_enc *e, const char *name, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    int pc_vs_pc, evade, tn;
    tb_err err = {0};
    int rc = gw_hit_tn(e, a, cid, t, &tn, &pc_vs_pc, &evade, &err);
    gw_use_action(e, cid);
    if (rc == GW_HIT_WAIT)
        gw_attack_wait(e, name, a, cid, t, 1);
    else
        gw_maneuver_resolve(e, name, a, cid, t, tn, pc_vs_pc, evade);
}

int gw_chk_shove(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return chk_maneuver(e, "shove", a, err);
}

static void do_shove(rules_enc *e, const rules_args *a)
{
    do_maneuver(e, "shove", a);
}

int gw_chk_grapple(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return chk_maneuver(e, "grapple", a, err);
}

static void do_grapple(rules_enc *e, const rules_args *a)
{
    do_maneuver(e, "grapple", a);
}

/* ---- release (reading G14: free, at any time, like ending one's own hold) ---- */

int gw_chk_release(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    if (gw_ready(e, err) || gw_actor_in(e, err))
        return err->code;
    json_t *g = rules_enc_cond(e, t, "grappled");
    if (!g || !rules_enc_streq(json_string_value(json_object_get(g, "by")), cid))
        return rules_enc_rule(err, "%s is not holding %s", gw_nm(e, cid), gw_nm(e, t));
    return 0;
}

static void do_release(rules_enc *e, const rules_args *a)
{
    const char *t = rules_arg_str(a, "target");
    rules_enc_cond_remove(e, t, "grappled");
    gw_log_pair(e, "release", "release", e->actor, t);
}

/* ---- shield (002:755-761) ---- */

/*
 * Shielding another: an auxiliary reaction that covers `target` for the rest of the round against
 * one attacker (the first who attacks it; several of that one's attacks). The opposed roll comes
 * with each attack (strike.c); declared before the attack (reading G15).
 */
int gw_chk_shield(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    if (gw_ready(e, err) || gw_on_other(e, t, "shield", err))
        return err->code;
    json_t *old = json_object_get(gw_comb(e, cid), "shield");
    if (old && gw_geti(old, "round", 0) == rules_enc_round(e))
        return rules_enc_rule(err, "%s already shields %s this round (002:761)", gw_nm(e, cid),
                              gw_nm(e, json_string_value(json_object_get(old, "target"))));
    return gw_reaction_round(e, cid, 1, err) < 0 ? err->code : 0;
}

static void do_shield(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    tb_err err = {0};
    int uses = gw_reaction_round(e, cid, 1, &err);
    gw_reaction_spend(e, cid, 1, uses);
    json_object_set_new(gw_comb(e, cid), "shield",
                        json_pack("{s:s, s:i}", "target", t, "round", rules_enc_round(e)));
    rules_log *x = rules_log_begin(e, "shield", "shield");
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_int(x, "uses_round", uses, RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    rules_log_end(x);
}

/* ---- stabilize (002:258-260) ---- */

/*
 * Stabilizing a dying character as the action: a medkit or medical knowledge (`medkit`) or else
 * an INT (RSN, reading G17) roll, and a COR roll, both against the GM's hidden `stabilize_tn` of
 * the dying one (set_tn: how hurt and how long dying). Both pass: revived (002:260). Without the
 * GM's number the attempt is refused before any die.
 */
int gw_chk_stabilize(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    if (gw_turn_ready(e, err))
        return err->code;
    if (strcmp(cid, t) == 0)
        return rules_enc_rule(err, "a dying character cannot do anything (002:256)");
    if (!gw_dying(e, t) || rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is not dying", gw_nm(e, t));
    if (!json_is_integer(json_object_get(gw_hidden_get(e, t), "stabilize_tn")))
        return rules_enc_rule(err,
                              "the GM has not yet said how hard %s is to stabilize: ask the GM "
                              "(002:258)",
                              gw_nm(e, t));
    return gw_action_check(e, cid, err);
}

static void do_stabilize(rules_enc *e, const rules_args *a)
{
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    int tn = gw_geti(gw_hidden_get(e, t), "stabilize_tn", 0);
    gw_use_action(e, cid);
    if (gw_has(e, cid, "grappled") && !gw_grapple_roll(e, cid, 0))
        return;
    json_t *dice = json_array();
    int ok = 1;
    rules_log *x = rules_log_begin(e, "stabilize", "stabilize");
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    if (!rules_arg_int(a, "medkit")) {
        grimwire_roll k = gw_roll_attr(e, cid, "rsn", GRIMWIRE_USE_PLAIN, 0, tn, 0, 0, dice);
        rules_log_json(x, "rsn", gw_roll_json(&k, gw_npc(e, cid)), RULES_AUD_PUBLIC);
        ok = k.success;
    } else {
        rules_log_word(x, "kit", "stabilize.medkit", RULES_AUD_PUBLIC);
    }
    grimwire_roll c = gw_roll_attr(e, cid, "cor", GRIMWIRE_USE_PLAIN, 0, tn, 0, 0, dice);
    rules_log_json(x, "cor", gw_roll_json(&c, gw_npc(e, cid)), RULES_AUD_PUBLIC);
    ok = ok && c.success;
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log *g = rules_log_begin(e, "stabilize", "stabilize_tn");
    rules_log_int(g, "tn", tn, RULES_AUD_GM);
    rules_log_who(g, "who", t);
    rules_log_end(g);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    rules_log_word(x, "outcome", ok ? "stabilize.works" : "stabilize.not_yet", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
    if (ok)
        gw_revive(e, t);
}

/* ---- leave, stay: a lasting area at the start of the turn (002:727, reading G19) ---- */

static int in_area_now(const rules_enc *e, tb_err *err)
{
    const char *cid = e->actor;
    if (gw_geti(gw_comb(e, cid), "area_due", 0) != rules_enc_round(e) || !gw_has(e, cid, "area"))
        return rules_enc_rule(err, "%s is not standing in an area of damage now", gw_nm(e, cid));
    return 0;
}

/* Moving out of the area at once, before any other action: the movement, no damage; a grappled
 * character first wins the roll to move (002:679), or stays and is hurt. */
int gw_chk_leave(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_ready(e, err) || in_area_now(e, err) || gw_move_check(e, e->actor, err))
        return err->code;
    return 0;
}

static void do_leave(rules_enc *e, const rules_args *a)
{
    (void)a;
    const char *cid = e->actor;
    gw_use_move(e, cid);
    if (gw_has(e, cid, "grappled") && !gw_grapple_roll(e, cid, 1)) {
        gw_area_hurts(e, cid);
        return;
    }
    json_object_del(gw_comb(e, cid), "area_due");
    rules_enc_cond_remove(e, cid, "area");
    gw_log_actor(e, "leave", "leave");
}

int gw_chk_stay(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_ready(e, err) || in_area_now(e, err))
        return err->code;
    return 0;
}

static void do_stay(rules_enc *e, const rules_args *a)
{
    (void)a;
    const char *cid = e->actor;
    gw_area_hurts(e, cid);
    const char *cur = rules_enc_current(e);
    if (cur && strcmp(cur, cid) == 0 && gw_incapacity(e, cid))
        gw_next_turn(e, cid, 1);
}

GW_RESOLVE(gw_res_trip, trip)
GW_RESOLVE(gw_res_shove, shove)
GW_RESOLVE(gw_res_grapple, grapple)
GW_RESOLVE(gw_res_release, release)
GW_RESOLVE(gw_res_shield, shield)
GW_RESOLVE(gw_res_stabilize, stabilize)
GW_RESOLVE(gw_res_leave, leave)
GW_RESOLVE(gw_res_stay, stay)
