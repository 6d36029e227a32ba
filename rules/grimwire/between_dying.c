/*
 * between_dying.c — dying out of conflict in grimwire.between (rulebook 002_c1f3df0ad7b1e31f.txt,
 * cited 002:LINE, 002:254-260): a dying character's Condition running down every 6 seconds of the
 * campaign clock, the GM's number for stabilizing them, the attempt, and the GM letting time pass.
 * Each action a check (pure, before any die) and a resolve, in the order of the module's table
 * (between.c). Calls grimwire_enc.h, and gw_between_catch_up (between.c) to count the clock.
 */
#include "clock.h"
#include "between.h"

/* ---- dying out of conflict (002:254-260) ---- */

/* Whether cid is dying: Condition 0 or below, not yet below -10 (002:256), still in the scene. */
static int dying(const rules_enc *e, const char *cid)
{
    int c = gw_sub_int(e, cid, "condition", "current");
    return !gw_npc(e, cid) && c <= 0 && c >= GRIMWIRE_DEAD_BELOW && !rules_enc_is_out(e, cid);
}

/* 002:256 a dying character's Condition "drops by 1 ... every 6 seconds out of conflict"; below
 * -10 they are dead (out of the scene). Counts the 6-second marks of the campaign clock in
 * (from, to]. */
void gw_between_dying_countdown(rules_enc *e, long from, long to)
{
    long n = rules_clock_periods_between(from, to, GW_DYING_STEP_S);
    const char *cid;
    for (size_t i = 0; n > 0 && (cid = rules_enc_cid_at(e, i)); i++) {
        if (!dying(e, cid))
            continue;
        int c = gw_sub_int(e, cid, "condition", "current");
        int after = n > c + 100L ? -100 : c - (int)n; /* the sheet's floor */
        gw_sub_set(e, cid, "condition", "current", after);
        rules_log *x = rules_log_begin(e, "dying", "bleeding_out");
        rules_log_json(x, "who", json_string(cid), RULES_AUD_PUBLIC);
        rules_log_int(x, "condition_before", c, RULES_AUD_PUBLIC);
        rules_log_int(x, "condition", after, RULES_AUD_PUBLIC);
        rules_log_who(x, "pc", cid);
        if (after < GRIMWIRE_DEAD_BELOW)
            rules_log_word(x, "outcome", "dying.dead", RULES_AUD_PUBLIC);
        rules_log_end(x);
        if (after < GRIMWIRE_DEAD_BELOW)
            rules_enc_set_out(e, cid, "dead");
    }
}

/* ---- stabilizing out of conflict (002:258-260) ---- */

/* cid's Condition once the time the module has not counted yet has run (pure; a dying
 * character's countdown, 002:256). */
static int condition_now(const rules_enc *e, const char *cid)
{
    int c = gw_sub_int(e, cid, "condition", "current");
    if (!dying(e, cid))
        return c;
    long n = rules_clock_periods_between(e->since_s, e->now_s, GW_DYING_STEP_S);
    return n > c + 100L ? -100 : c - (int)n;
}

static int dying_target(const rules_enc *e, const char *t, tb_err *err)
{
    int c = condition_now(e, t);
    if (gw_npc(e, t) || !dying(e, t) || c < GRIMWIRE_DEAD_BELOW)
        return rules_enc_rule(err, "%s is not dying", gw_nm(e, t));
    return 0;
}

/* The GM's number for stabilizing t (002:258 "based on the extent of their injuries and how long
 * they have lain dying"; 002:53 the GM keeps it): /gm/enc/combatants/<t>/stabilize_tn. */
int gw_chk_between_set_stabilize(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return dying_target(e, rules_arg_str(a, "target"), err);
}

int gw_act_between_set_stabilize(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    json_object_set_new(rules_enc_hidden_of(e, t), "stabilize_tn",
                        json_integer(rules_arg_int(a, "tn")));
    rules_log *g = rules_log_begin(e, "set_stabilize", "stabilize_tn");
    rules_log_int(g, "tn", rules_arg_int(a, "tn"), RULES_AUD_GM);
    rules_log_who(g, "pc", t);
    rules_log_end(g);
    return 0;
}

/* 002:258 a medkit or medical knowledge (`medkit`) or an INT (RSN, reading G17) roll, and a COR
 * roll, both against the GM's number; refused before a die while the GM has not set it. */
int gw_chk_between_stabilize(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (gw_able(e, err) || dying_target(e, t, err))
        return err->code;
    if (!json_is_integer(json_object_get(gw_hidden_get(e, t), "stabilize_tn")))
        return rules_enc_rule(
            err, "the GM has not yet said how hard %s is to stabilize: ask the GM", gw_nm(e, t));
    return 0;
}

/* The attempt is one action, 6 seconds (002:415; RULES.md reading between 12): the countdown runs
 * up to it first and, when it fails, on through it. Both rolls pass: 1 Condition, 0 Focus, out
 * cold and a level of burnout (002:260). */
int gw_act_between_stabilize(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = e->actor, *t = rules_arg_str(a, "target");
    gw_between_catch_up(e);
    int tn = (int)json_integer_value(json_object_get(gw_hidden_get(e, t), "stabilize_tn"));
    json_t *dice = json_array();
    rules_log *x = rules_log_begin(e, "stabilize", "stabilize");
    int ok = 1;
    if (!rules_arg_int(a, "medkit")) {
        grimwire_roll k = gw_sheet_roll(e, cid, "rsn", tn, dice);
        rules_log_int(x, "rsn_total", k.total, RULES_AUD_PUBLIC);
        rules_log_word(x, "kit", "stabilize.rsn", RULES_AUD_PUBLIC);
        ok = k.success;
    } else {
        rules_log_word(x, "kit", "stabilize.medkit", RULES_AUD_PUBLIC);
    }
    grimwire_roll c = gw_sheet_roll(e, cid, "cor", tn, dice);
    ok = ok && c.success;
    rules_log_int(x, "cor_total", c.total, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_int(x, "tn", tn, RULES_AUD_GM);
    rules_log_who(x, "pc", cid);
    rules_log_who(x, "other", t);
    rules_log_word(x, "outcome", ok ? "stabilize.works" : "stabilize.not_yet", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
    if (ok) {
        gw_sub_set(e, t, "condition", "current", 1);
        gw_sub_set(e, t, "focus", "current", 0);
        json_t *status = gw_stat_list(e, t, "status");
        if (gw_list_find(status, "out_cold") < 0 && json_array_size(status) < 19)
            json_array_append_new(status, json_string("out_cold"));
        int b = gw_stat_int(e, t, "burnout", 0);
        if (b < GRIMWIRE_BURNOUT_MAX)
            rules_enc_stat_set(e, t, "burnout", b + 1);
        json_object_del(rules_enc_hidden_of(e, t), "stabilize_tn");
    }
    rules_enc_take_time(e, GW_DYING_STEP_S);
    gw_between_catch_up(e);
    return 0;
}

/* The GM lets time pass (a dying character's countdown, 002:256). */
int gw_chk_between_wait(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)e;
    (void)a;
    (void)err;
    return 0;
}

int gw_act_between_wait(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    gw_between_catch_up(e);
    rules_log *x = rules_log_begin(e, "wait", "wait");
    rules_log_count(x, "seconds", rules_arg_int(a, "seconds"), RULES_AUD_PUBLIC);
    rules_log_end(x);
    rules_enc_take_time(e, rules_arg_int(a, "seconds"));
    gw_between_catch_up(e);
    return 0;
}
