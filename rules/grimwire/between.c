/*
 * between.c — grimwire.between, what a GRIMWIRE table does between the scenes
 * (rules/encounter.h; rulebook 002_c1f3df0ad7b1e31f.txt, cited 002:LINE): short and long rests
 * with their Condition, Focus and burnout recovery and their per-day limits; the days that pass
 * and the burnout their causes bring; XP and levelling up; learning techniques with learning
 * hours and exchanging them on a long rest; building and crafting with the MND and COR rolls and
 * the instability die; falling.
 *
 * An encounter module with no turn order: the GM starts it (enc.start), adds the characters
 * present (enc.add) and moves the day on; players act for their own characters. Results land on
 * the sheets through sheet_stats (server/ops_enc.c write_back). Its action table comes first,
 * then each action's check (pure: whether the sheet can hold the result, before any die) and
 * resolve, in table order.
 *
 * Keys it adds: /enc/day (the day of the campaign, from 1), /enc/sheltered and /enc/supplied
 * (the GM's word on whether the place allows a rest, 002:216); on each combatant: short_rests
 * and long_rest (today's), burnout_down (recovered a level today), unrested (days in a row
 * without a long rest), causes (the burnout causes the GM marked). Readings: rules/RULES.md,
 * "grimwire", "Between the scenes (module grimwire.between)".
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "between.h"

#define SHORT_RESTS_PER_DAY 2        /* 002:214 */
#define UNRESTED_DAYS 3              /* 002:228 "Going 3 days without resting" */
#define XP_MAX 1000000               /* the sheet's xp maximum */
#define DAY_MAX 100000               /* the day count's editable range (EDITABLE below) */
#define SHORT_REST_S (30L * 60L)     /* 002:208 "a short rest of 30 minutes" */
#define LONG_REST_S (5L * 60L * 60L) /* 002:212 "a long rest ... 5 hours" */
#define WAIT_MAX_S (60L * 60L)       /* the GM's `wait`: an hour at most */

/* Each action: chk_<name> (the check) and act_<name> (the resolve). */
#define ACTION(x)                                                                                  \
    static int chk_##x(const rules_enc *e, const rules_args *a, tb_err *err);                      \
    static int act_##x(rules_enc *e, const rules_args *a, tb_err *err);
ACTION(short_rest)
ACTION(long_rest)
ACTION(rest_all)
ACTION(next_day)
ACTION(cause)
ACTION(award)
ACTION(level_up)
ACTION(fall)
#undef ACTION

static const rules_param P_NONE[] = {{0}};
static const rules_param P_LONG_REST[] = {
    {"downtime", RULES_PARAM_BOOL, 0, 1, 0, 0, "spend an hour of it busy (no burnout recovery)"},
    {0},
};
static const rules_param P_REST_ALL[] = {
    {"long", RULES_PARAM_BOOL, 0, 1, 0, 0, "a long rest (5 hours)"},
    {0},
};
static const rules_param P_CAUSE[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "the character"},
    {"cause", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED,
     "hunger, thirst, disease, exposure, dampness, radiation, no_maintenance, no_recharge"},
    {"on", RULES_PARAM_BOOL, 0, 1, 1, 0, "1: it persists; 0: it was dealt with"},
    {0},
};
static const rules_param P_AWARD[] = {
    {"xp", RULES_PARAM_INT, 1, 100000, 0, RULES_PARAM_REQUIRED, "XP"},
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "one character (everyone present if absent)"},
    {0},
};
static const rules_param P_LEVEL_UP[] = {
    {"raise", RULES_PARAM_STRING, 1, 20, 0, 0,
     "the attribute to raise (two with a comma at levels 4 and 8)"},
    {0},
};
static const rules_param P_LEARN[] = {
    {"technique", RULES_PARAM_STRING, 1, 100, 0, RULES_PARAM_REQUIRED, "the technique"},
    {"attribute", RULES_PARAM_STRING, 1, 3, 0, 0, "its multiplier attribute (a new technique)"},
    {"effort", RULES_PARAM_INT, 1, 10000, 0, 0, "its learning effort (a new technique)"},
    {"hours", RULES_PARAM_INT, 1, 10000, 0, 0, "hours to spend (all it needs if absent)"},
    {0},
};
static const rules_param P_EXCHANGE[] = {
    {"take", RULES_PARAM_STRING, 1, 100, 0, RULES_PARAM_REQUIRED, "the learned technique"},
    {"drop", RULES_PARAM_STRING, 1, 100, 0, 0, "the active technique it replaces"},
    {0},
};
static const rules_param P_SET_BUILD[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who builds"},
    {"cor_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_REQUIRED | RULES_PARAM_SECRET,
     "COR target number to assemble it"},
    {"mnd_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "MND target number, for a kind of object new to the builder"},
    {"rsn_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "RSN target number, for a supernatural object"},
    {0},
};
static const rules_param P_CRAFT[] = {
    {"item", RULES_PARAM_STRING, 1, 100, 0, RULES_PARAM_REQUIRED, "what is built"},
    {"kind", RULES_PARAM_STRING, 1, 100, 0, 0, "the type of object (the item's name if absent)"},
    {"mnd_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "GM: MND target number (else the one set for the build)"},
    {"cor_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "GM: COR target number (else the one set for the build)"},
    {"rsn_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "GM: RSN target number (else the one set for the build)"},
    {"extended", RULES_PARAM_BOOL, 0, 1, 0, 0, "a long build: 2 of 3 COR rolls"},
    {"consumable", RULES_PARAM_BOOL, 0, 1, 0, 0, "a consumable"},
    {"supernatural", RULES_PARAM_BOOL, 0, 1, 0, 0,
     "of a supernatural nature or made with magic: a RSN roll too"},
    {0},
};
static const rules_param P_REPAIR[] = {
    {"item", RULES_PARAM_STRING, 1, 100, 0, RULES_PARAM_REQUIRED, "the broken object"},
    {"mnd_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "GM: MND target number (else the one set for the build)"},
    {"cor_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "GM: COR target number (else the one set for the build)"},
    {"rsn_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "GM: RSN target number (else the one set for the build)"},
    {"extended", RULES_PARAM_BOOL, 0, 1, 0, 0, "a long repair: 2 of 3 COR rolls"},
    {0},
};
static const rules_param P_ANSWER_BUILD[] = {
    {"mnd_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "MND target number, for a kind of object new to the builder"},
    {"cor_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET, "COR target number to assemble it"},
    {"rsn_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "RSN target number, for a supernatural object"},
    {0},
};
static const rules_param P_USE[] = {
    {"item", RULES_PARAM_STRING, 1, 100, 0, RULES_PARAM_REQUIRED, "the object"},
    {0},
};
static const rules_param P_FALL[] = {
    {"stories", RULES_PARAM_INT, 1, 100, 0, RULES_PARAM_REQUIRED, "stories fallen (4.5 m each)"},
    {"jump", RULES_PARAM_BOOL, 0, 1, 0, 0, "jumped on purpose"},
    {"soft", RULES_PARAM_BOOL, 0, 1, 0, 0, "lands on something soft"},
    {"water", RULES_PARAM_BOOL, 0, 1, 0, 0, "lands in water"},
    {0},
};

static const rules_param P_SET_STABILIZE[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "the dying character"},
    {"tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_REQUIRED | RULES_PARAM_SECRET,
     "target number of the rolls to stabilize them (how hurt, how long dying)"},
    {0},
};
static const rules_param P_STABILIZE[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "the dying character"},
    {"medkit", RULES_PARAM_BOOL, 0, 1, 0, 0, "with a medkit or medical knowledge (no INT roll)"},
    {0},
};
static const rules_param P_WAIT[] = {
    {"seconds", RULES_PARAM_INT, 1, WAIT_MAX_S, GW_DYING_STEP_S, 0, "seconds that pass"},
    {0},
};

#define ROW(x, label, who, params, cite, flags)                                                    \
    {                                                                                              \
#x, label, who, params, act_##x, cite, chk_##x, flags                                      \
    }
/* A row whose check and resolve live in between_skills.c (between.h). */
#define XROW(x, label, who, params, cite, flags)                                                   \
    {                                                                                              \
#x, label, who, params, gw_act_##x, cite, gw_chk_##x, flags                                \
    }
/* A row whose check and resolve live in between_dying.c (between.h). */
#define DROW(x, label, who, params, cite, flags)                                                   \
    {                                                                                              \
#x, label, who, params, gw_act_between_##x, cite, gw_chk_between_##x, flags                \
    }
static const rules_enc_action ACTIONS[] = {
    ROW(short_rest, "Short rest", RULES_ENC_OWNER, P_NONE, "002:208,214-216", 0),
    ROW(long_rest, "Long rest", RULES_ENC_OWNER, P_LONG_REST, "002:200,212-218,252", 0),
    ROW(rest_all, "Call a rest", RULES_ENC_GM, P_REST_ALL, "002:206-218,252", 0),
    ROW(next_day, "Next day", RULES_ENC_GM, P_NONE, "002:214,224-250", 0),
    ROW(cause, "Mark a burnout cause", RULES_ENC_GM, P_CAUSE, "002:224-240", 0),
    ROW(award, "Award XP", RULES_ENC_GM, P_AWARD, "002:264", 0),
    ROW(level_up, "Level up", RULES_ENC_OWNER, P_LEVEL_UP, "002:264-298", 0),
    XROW(learn, "Study a technique", RULES_ENC_OWNER, P_LEARN, "002:306-316", 0),
    XROW(exchange, "Exchange a technique", RULES_ENC_OWNER, P_EXCHANGE, "002:302-304", 0),
    XROW(set_build, "Set build numbers", RULES_ENC_GM, P_SET_BUILD, "002:29-55,344,356", 0),
    XROW(craft, "Build something", RULES_ENC_OWNER, P_CRAFT, "002:336-385", 0),
    XROW(repair, "Repair something", RULES_ENC_OWNER, P_REPAIR, "002:381-385", 0),
    /* the GM's numbers for a player's build that waits for them (issue 24 item 2) */
    {"answer", "Name the build's numbers", RULES_ENC_GM, P_ANSWER_BUILD, gw_act_answer_build,
     "002:29-55,344,356", gw_chk_answer_build, 0},
    XROW(use, "Use an unstable object", RULES_ENC_OWNER, P_USE, "002:366-379", 0),
    ROW(fall, "Fall or jump down", RULES_ENC_OWNER, P_FALL, "002:483-505", RULES_ENC_RARE),
    DROW(set_stabilize, "Set how hard to stabilize", RULES_ENC_GM, P_SET_STABILIZE, "002:29-55,258",
         0),
    DROW(stabilize, "Stabilize", RULES_ENC_OWNER, P_STABILIZE, "002:258-260", 0),
    DROW(wait, "Let time pass", RULES_ENC_GM, P_WAIT, "002:256", RULES_ENC_RARE),
    {0},
};
#undef ROW
#undef XROW
#undef DROW

/* 002:226-238, biological and mechanical: what the GM may mark as a cause of burnout */
static const char *const CAUSES[] = {"hunger",         "thirst",      "disease",
                                     "exposure",       "dampness",    "radiation",
                                     "no_maintenance", "no_recharge", NULL};

/* ---- resting (002:200-218, 002:252) ---- */

/* Why cid cannot rest now: the place (002:216), alive and not dying (RULES.md reading), and
 * today's limit (002:214); REST_OK when it can. */
enum {
    REST_OK = -1,
    REST_NO_SHELTER,
    REST_NO_SUPPLIES,
    REST_DYING,
    REST_LONG_DONE,
    REST_SHORT_DONE
};
static int rest_blocked(const rules_enc *e, const char *cid, int long_rest)
{
    if (!json_is_true(json_object_get(e->enc, "sheltered")))
        return REST_NO_SHELTER;
    if (long_rest && !json_is_true(json_object_get(e->enc, "supplied")))
        return REST_NO_SUPPLIES;
    if (gw_sub_int(e, cid, "condition", "current") <= 0)
        return REST_DYING;
    if (long_rest && gw_comb_true(e, cid, "long_rest"))
        return REST_LONG_DONE;
    if (!long_rest && gw_comb_int(e, cid, "short_rests") >= SHORT_RESTS_PER_DAY)
        return REST_SHORT_DONE;
    return REST_OK;
}

/* The phrasing of each REST_ reason, for the log of a rest the GM calls. */
static const char *const NOREST_WORDS[] = {"norest.shelter", "norest.supplies", "norest.dying",
                                           "norest.long", "norest.short"};

/* Whether cid can rest now: 0, or the refusal. */
static int can_rest(const rules_enc *e, const char *cid, int long_rest, tb_err *err)
{
    const char *name = gw_nm(e, cid);
    switch (rest_blocked(e, cid, long_rest)) {
    case REST_NO_SHELTER:
        return rules_enc_rule(err, "nobody can rest here: resting needs a sheltered place away "
                                   "from enemies and danger");
    case REST_NO_SUPPLIES:
        return rules_enc_rule(err, "a long rest needs food, drinkable water and a place to sleep "
                                   "(a mechanical: an energy source), and there are none here");
    case REST_DYING:
        return rules_enc_rule(err, "%s is dying and must be stabilized before resting", name);
    case REST_LONG_DONE:
        return rules_enc_rule(err, "%s has had today's long rest: one a day", name);
    case REST_SHORT_DONE:
        return rules_enc_rule(err, "%s has had two short rests today: two a day", name);
    }
    return 0;
}

/* Rests cid (checked with can_rest first): Condition, Focus, and on a long rest without
 * downtime one level of burnout if none was recovered today. Logs it. */
static void rest_one(rules_enc *e, const char *cid, int long_rest, int downtime)
{
    int cmax = gw_sub_int(e, cid, "condition", "max"),
        cur = gw_sub_int(e, cid, "condition", "current");
    int fmax = gw_sub_int(e, cid, "focus", "max"), foc = gw_sub_int(e, cid, "focus", "current");
    int burnout = gw_stat_int(e, cid, "burnout", 0), b_after = burnout;
    /* 002:252 "reduced by one level at the end of a long rest"; "will not recover from burnout"
     * with downtime; "only recover from one level of burnout per day" */
    if (long_rest && !downtime && burnout > 0 && !gw_comb_int(e, cid, "burnout_down")) {
        b_after = burnout - 1;
        gw_comb_set(e, cid, "burnout_down", json_true());
    }
    /* the Condition cap of the burnout at the end of the rest (RULES.md reading) */
    int c_after = grimwire_rest_condition(cur, cmax, b_after, long_rest);
    int f_after = grimwire_rest_focus(foc, fmax, long_rest);
    gw_sub_set(e, cid, "condition", "current", c_after);
    gw_sub_set(e, cid, "focus", "current", f_after);
    rules_enc_stat_set(e, cid, "burnout", b_after);
    if (long_rest) {
        gw_comb_set(e, cid, "long_rest", json_true());
        gw_comb_set(e, cid, "unrested", json_integer(0));
    } else {
        gw_comb_set(e, cid, "short_rests", json_integer(gw_comb_int(e, cid, "short_rests") + 1));
    }
    rules_log *x = rules_log_begin(e, long_rest ? "long_rest" : "short_rest", "rest");
    rules_log_json(x, "who", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_int(x, "condition_before", cur, RULES_AUD_PUBLIC);
    rules_log_int(x, "condition", c_after, RULES_AUD_PUBLIC);
    rules_log_int(x, "focus_before", foc, RULES_AUD_PUBLIC);
    rules_log_int(x, "focus", f_after, RULES_AUD_PUBLIC);
    rules_log_int(x, "burnout", b_after, RULES_AUD_PUBLIC);
    rules_log_who(x, "pc", cid);
    rules_log_word(x, "kind", long_rest ? "rest.long" : "rest.short", RULES_AUD_PUBLIC);
    if (b_after < burnout)
        rules_log_word(x, "extra", "rest.eases", RULES_AUD_PUBLIC);
    else if (long_rest && burnout > 0)
        rules_log_word(x, "extra", downtime ? "rest.stays_busy" : "rest.stays_daily",
                       RULES_AUD_PUBLIC);
    rules_log_end(x);
}

static int chk_short_rest(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_pc_only(e, err) || can_rest(e, e->actor, 0, err))
        return err->code;
    return 0;
}

static int act_short_rest(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    rest_one(e, e->actor, 0, 0);
    rules_enc_take_time(e, SHORT_REST_S); /* on the campaign clock */
    return 0;
}

static int chk_long_rest(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_pc_only(e, err) || can_rest(e, e->actor, 1, err))
        return err->code;
    return 0;
}

static int act_long_rest(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    rest_one(e, e->actor, 1, rules_arg_int(a, "downtime"));
    rules_enc_take_time(e, LONG_REST_S);
    return 0;
}

/* The GM calls a rest for everyone present; those who cannot are named and left as they are. */
static int chk_rest_all(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int long_rest = rules_arg_int(a, "long");
    const char *cid;
    char skipped[400] = "";
    size_t len = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        tb_err why = {0};
        if (gw_npc(e, cid) || rules_enc_is_out(e, cid))
            continue;
        if (can_rest(e, cid, long_rest, &why) == 0)
            return 0;
        if (len < sizeof skipped)
            len += (size_t)snprintf(skipped + len, sizeof skipped - len, "%s%s", len ? "; " : "",
                                    why.msg);
    }
    return rules_enc_rule(err, "nobody can rest%s%s",
                          len ? ": " : " (add the characters present first)", skipped);
}

static int act_rest_all(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    int long_rest = rules_arg_int(a, "long");
    const char *cid;
    int why[RULES_ENC_MAX_COMBATANTS];
    size_t n = 0;
    for (; (cid = rules_enc_cid_at(e, n)) && n < RULES_ENC_MAX_COMBATANTS; n++)
        why[n] =
            gw_npc(e, cid) || rules_enc_is_out(e, cid) ? REST_OK : rest_blocked(e, cid, long_rest);
    for (size_t i = 0; i < n; i++)
        if (why[i] == REST_OK && !gw_npc(e, rules_enc_cid_at(e, i)) &&
            !rules_enc_is_out(e, rules_enc_cid_at(e, i)))
            rest_one(e, rules_enc_cid_at(e, i), long_rest, 0);
    /* who cannot rest though the place allows it (the check saw that someone can), one line each,
     * in the words of the refusal they would get */
    for (size_t i = 0; i < n; i++) {
        if (why[i] == REST_OK)
            continue;
        rules_log *x = rules_log_begin(e, "rest", "not_resting");
        rules_log_who(x, "pc", rules_enc_cid_at(e, i));
        rules_log_word(x, "why", NOREST_WORDS[why[i]], RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    rules_enc_take_time(e, long_rest ? LONG_REST_S : SHORT_REST_S); /* everyone at once */
    return 0;
}

/* ---- the days and burnout (002:224-252) ---- */

/* A new day: per character, a level of burnout when a cause the GM marked persists or after the
 * third day in a row without a long rest (002:228, 002:240; at most one level a day, RULES.md
 * reading); at level 4 Condition drops to 0 (002:250). Today's rests are reset (002:214). Does
 * nothing past DAY_MAX. */
static void day_begins(rules_enc *e)
{
    int day = (int)json_integer_value(json_object_get(e->enc, "day")) + 1;
    if (day > DAY_MAX)
        return;
    json_object_set_new(e->enc, "day", json_integer(day));
    rules_log *d = rules_log_begin(e, "day", "day");
    rules_log_int(d, "day", day, RULES_AUD_PUBLIC);
    rules_log_end(d);
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (gw_npc(e, cid))
            continue;
        int unrested = gw_comb_true(e, cid, "long_rest") ? 0 : gw_comb_int(e, cid, "unrested") + 1;
        size_t ncauses = json_array_size(json_object_get(rules_enc_combatant(e, cid), "causes"));
        gw_comb_set(e, cid, "unrested", json_integer(unrested < DAY_MAX ? unrested : DAY_MAX));
        gw_comb_set(e, cid, "short_rests", json_integer(0));
        gw_comb_set(e, cid, "long_rest", json_false());
        gw_comb_set(e, cid, "burnout_down", json_false());
        if (unrested < UNRESTED_DAYS && ncauses == 0)
            continue;
        int b = gw_stat_int(e, cid, "burnout", 0);
        if (b >= GRIMWIRE_BURNOUT_MAX)
            continue;
        rules_enc_stat_set(e, cid, "burnout", b + 1);
        int cmax = gw_sub_int(e, cid, "condition", "max"),
            cur = gw_sub_int(e, cid, "condition", "current");
        int cap =
            grimwire_condition_cap(cmax, b + 1) + gw_sub_int(e, cid, "condition", "temporary");
        if (b + 1 == GRIMWIRE_BURNOUT_MAX && cur > 0)
            cur = 0; /* 002:250 "drops to 0 Condition and begins dying" */
        else if (cur > cap)
            cur = cap; /* 002:246-248 the cap */
        gw_sub_set(e, cid, "condition", "current", cur);
        rules_log *x = rules_log_begin(e, "burnout", "burnout_day");
        rules_log_json(x, "who", json_string(cid), RULES_AUD_PUBLIC);
        rules_log_int(x, "burnout", b + 1, RULES_AUD_PUBLIC);
        rules_log_int(x, "unrested", unrested, RULES_AUD_PUBLIC);
        rules_log_int(x, "condition", cur, RULES_AUD_PUBLIC);
        rules_log_who(x, "pc", cid);
        rules_log_word(x, "why", ncauses ? "burnout.causes" : "burnout.unrested", RULES_AUD_PUBLIC);
        if (b + 1 == GRIMWIRE_BURNOUT_MAX)
            rules_log_word(x, "dying", "burnout.dying", RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
}

/* The days follow the campaign clock (RULES.md reading): every day that began between the
 * module's last count and now is a new day, also when another scene (a fight) took the time; a
 * dying character's Condition runs down with the same clock, up to each day's start first (a
 * day's burnout may leave someone dying). */
void gw_between_catch_up(rules_enc *e)
{
    long t = e->since_s;
    long days = rules_clock_periods_between(t, e->now_s, RULES_CLOCK_DAY);
    for (long i = 0; i < days && i < DAY_MAX; i++) {
        long next = t + rules_clock_to_next(t, RULES_CLOCK_DAY);
        gw_between_dying_countdown(e, t, next);
        day_begins(e);
        t = next;
    }
    gw_between_dying_countdown(e, t, e->now_s);
    e->since_s = e->now_s;
}

/* The GM moves the day on: the clock runs to the start of the next day, which begins. The day
 * the clock already began (gw_between_catch_up) counts first. */
static int chk_next_day(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    long day = json_integer_value(json_object_get(e->enc, "day"));
    long days = rules_clock_periods_between(e->since_s, e->now_s, RULES_CLOCK_DAY);
    if (days > 0 && day < DAY_MAX)
        day = day + days < DAY_MAX ? day + days : DAY_MAX;
    if (day + 1 > DAY_MAX)
        return rules_enc_rule(err, "the calendar ends at day %d", DAY_MAX);
    return 0;
}

static int act_next_day(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    gw_between_catch_up(e); /* a day another scene began is not skipped */
    rules_enc_take_time(e, rules_clock_to_next(e->now_s, RULES_CLOCK_DAY));
    gw_between_catch_up(e);
    return 0;
}

static int chk_cause(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)e;
    if (!gw_in_list(rules_arg_str(a, "cause"), CAUSES))
        return tb_fail(err, TB_BAD_REQUEST,
                       "a cause of burnout is one of hunger, thirst, disease, exposure, "
                       "dampness, radiation, no_maintenance, no_recharge");
    return 0;
}

static int act_cause(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = rules_arg_str(a, "target"), *cause = rules_arg_str(a, "cause");
    json_t *causes = json_object_get(rules_enc_combatant(e, cid), "causes");
    if (!json_is_array(causes)) {
        causes = json_array();
        gw_comb_set(e, cid, "causes", causes);
    }
    int at = gw_list_find(causes, cause), on = rules_arg_int(a, "on");
    if (on && at < 0)
        json_array_append_new(causes, json_string(cause));
    else if (!on && at >= 0)
        json_array_remove(causes, (size_t)at);
    rules_log *x = rules_log_begin(e, "cause", "cause");
    gw_log_res(x, json_pack("{s:s, s:s, s:b}", "who", cid, "cause", cause, "on", on),
               RULES_AUD_PUBLIC);
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "cname", cause, RULES_AUD_PUBLIC);
    rules_log_word(x, "how", on ? "cause.on" : "cause.off", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- XP and levels (002:262-298) ---- */

/* Whether cid is one the award goes to: the target, or every PC when there is none. */
static int awarded(const rules_enc *e, const rules_args *a, const char *cid)
{
    const char *target = rules_arg_str(a, "target");
    return !gw_npc(e, cid) && (!target || strcmp(cid, target) == 0);
}

static int chk_award(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *target = rules_arg_str(a, "target"), *cid;
    int xp = rules_arg_int(a, "xp"), n = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (!awarded(e, a, cid))
            continue;
        if (gw_stat_int(e, cid, "xp", 0) + xp > XP_MAX)
            return rules_enc_rule(err, "%s cannot hold more than %d XP", gw_nm(e, cid), XP_MAX);
        n++;
    }
    if (n == 0)
        return rules_enc_rule(err,
                              target ? "%s is not a player's character"
                                     : "nobody is here to reward: add the characters "
                                       "present first",
                              target ? gw_nm(e, target) : "");
    return 0;
}

static int act_award(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    int xp = rules_arg_int(a, "xp");
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (!awarded(e, a, cid))
            continue;
        int have = gw_stat_int(e, cid, "xp", 0);
        rules_enc_stat_set(e, cid, "xp", have + xp);
        int level = gw_stat_int(e, cid, "level", 1);
        int next = level < GRIMWIRE_LEVEL_MAX ? grimwire_level_xp(level + 1) : -1;
        rules_log *x = rules_log_begin(e, "award", "award");
        rules_log_json(x, "who", json_string(cid), RULES_AUD_PUBLIC);
        rules_log_int(x, "xp", have + xp, RULES_AUD_PUBLIC);
        rules_log_int(x, "gain", xp, RULES_AUD_PUBLIC);
        rules_log_who(x, "pc", cid);
        if (next >= 0 && have + xp >= next)
            rules_log_word(x, "due", "award.due", RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    return 0;
}

/* The attribute increases of a level up (`raise`: "cor" or "cor,mnd", one per increase the level
 * gives; the same attribute may be named twice), read and checked before anything changes. */
typedef struct level_plan {
    int level;
    grimwire_reward r;
    const char *picked[2];
    int n;
} level_plan;

static int level_plan_of(const rules_enc *e, const rules_args *a, level_plan *p, tb_err *err)
{
    const char *cid = e->actor, *raise = rules_arg_str(a, "raise");
    int xp = gw_stat_int(e, cid, "xp", 0);
    p->level = gw_stat_int(e, cid, "level", 1);
    p->n = 0;
    if (p->level >= GRIMWIRE_LEVEL_MAX || grimwire_level_reward(p->level + 1, &p->r))
        return rules_enc_rule(err, "%s is at level %d, the highest", gw_nm(e, cid), p->level);
    if (xp < grimwire_level_xp(p->level + 1))
        return rules_enc_rule(err, "level %d needs %d XP; %s has %d", p->level + 1,
                              grimwire_level_xp(p->level + 1), gw_nm(e, cid), xp);
    char buf[40];
    snprintf(buf, sizeof buf, "%s", raise ? raise : "");
    for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        int k = 0;
        while (GW_ATTRS[k] && strcmp(GW_ATTRS[k], t) != 0)
            k++;
        if (!GW_ATTRS[k])
            return tb_fail(err, TB_BAD_REQUEST,
                           "name the attributes to raise: tog, agl, cor, mnd, per or rsn");
        if (p->n >= p->r.attributes) {
            p->n++;
            break;
        }
        p->picked[p->n++] = GW_ATTRS[k];
    }
    if (p->n != p->r.attributes)
        return rules_enc_rule(err, "level %d raises %d attribute%s: name %s in 'raise'",
                              p->level + 1, p->r.attributes, p->r.attributes == 1 ? "" : "s",
                              p->r.attributes == 1 ? "one" : "two, with commas");
    for (int i = 0; i < p->n; i++) {
        int v = gw_sub_int(e, cid, "attributes", p->picked[i]) + 1 +
                (i == 1 && strcmp(p->picked[0], p->picked[1]) == 0);
        if (v > GRIMWIRE_ATTR_MAX) /* 002:91 "10 is the maximum for any attribute" */
            return rules_enc_rule(err, "%s cannot rise above %d", p->picked[i], GRIMWIRE_ATTR_MAX);
    }
    if (gw_sub_int(e, cid, "condition", "max") + p->r.condition_focus > 999 ||
        gw_sub_int(e, cid, "focus", "max") + p->r.condition_focus > 999 ||
        gw_stat_int(e, cid, "learning_hours", 0) + p->r.hours > 10000)
        return rules_enc_rule(err, "the sheet cannot hold more Condition, Focus or hours");
    return 0;
}

/* 002:264 "Whenever a PC gets enough XP, their level increases", with the attribute increases
 * the player chooses. */
static int chk_level_up(const rules_enc *e, const rules_args *a, tb_err *err)
{
    level_plan p;
    if (gw_pc_only(e, err) || level_plan_of(e, a, &p, err))
        return err->code;
    return 0;
}

static int act_level_up(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    level_plan p;
    level_plan_of(e, a, &p, err);
    for (int i = 0; i < p.n; i++)
        gw_sub_set(e, cid, "attributes", p.picked[i],
                   gw_sub_int(e, cid, "attributes", p.picked[i]) + 1);
    gw_sub_set(e, cid, "condition", "max",
               gw_sub_int(e, cid, "condition", "max") + p.r.condition_focus);
    gw_sub_set(e, cid, "focus", "max", gw_sub_int(e, cid, "focus", "max") + p.r.condition_focus);
    rules_enc_stat_set(e, cid, "learning_hours",
                       gw_stat_int(e, cid, "learning_hours", 0) + p.r.hours);
    rules_enc_stat_set(e, cid, "level", p.level + 1);
    rules_log *x = rules_log_begin(e, "level_up", "level_up");
    rules_log_json(x, "who", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_int(x, "level", p.level + 1, RULES_AUD_PUBLIC);
    rules_log_int(x, "condition_focus", p.r.condition_focus, RULES_AUD_PUBLIC);
    rules_log_int(x, "hours", p.r.hours, RULES_AUD_PUBLIC);
    rules_log_json(x, "raise", json_string(rules_arg_str(a, "raise")), RULES_AUD_PUBLIC);
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "a1", p.picked[0], RULES_AUD_PUBLIC);
    if (p.n > 1) {
        rules_log_name(x, "a2", p.picked[1], RULES_AUD_PUBLIC);
        rules_log_word(x, "and", "level.and", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    return 0;
}

/* ---- falling (002:483-505) ---- */

/* 002:495-505: from `stories` up: damage dice (count x sides) and the target number to break it */
static const struct fall_row {
    int stories, n, sides, tn;
} FALLS[] = {{1, 1, 6, 10},   {2, 2, 8, 13},   {4, 2, 12, 16}, {10, 3, 20, 19},
             {18, 4, 20, 22}, {28, 5, 20, 25}, {40, 6, 20, 28}};

static const char FALL_ROLL[] = "fall.roll";

static int chk_fall(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    return gw_pc_only(e, err);
}

/* A fall of `stories` (the row at or below it: RULES.md reading 11): an AGL roll breaks it for half
 * the damage and no knock-down (002:485); a soft surface (water below 45 m) breaks a fall below
 * 10 stories by itself (002:489) and is needed to try at 10 or more (002:491, 002:501); a jump
 * on purpose from 2 stories or lower takes nothing when broken (002:487). Damage lowers Condition;
 * at 0 or below the character is dying and takes a level of burnout (002:226, 002:256). */
static int act_fall(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = e->actor;
    gw_between_catch_up(e); /* the countdown of someone dying already runs up to the fall */
    int stories = rules_arg_int(a, "stories"), jump = rules_arg_int(a, "jump");
    int soft = rules_arg_int(a, "soft"), water = rules_arg_int(a, "water");
    size_t r = 0;
    while (r + 1 < sizeof FALLS / sizeof FALLS[0] && FALLS[r + 1].stories <= stories)
        r++;
    const struct fall_row *row = &FALLS[r];
    int high = row->stories >= 10;
    int cushion = soft || (water && !high); /* 002:489, 002:502 water is not soft from 45 m */
    json_t *dice = json_array();
    int broken, total = 0;
    const char *how;
    if (cushion && !high) {
        broken = 1;
        how = "fall.soft";
    } else if (high && !cushion) {
        broken = 0;
        how = "fall.hard";
    } else {
        grimwire_roll g = gw_sheet_roll(e, cid, "agl", row->tn, dice);
        broken = g.success;
        total = g.total;
        how = FALL_ROLL;
    }
    int damage = 0;
    if (!(broken && jump && row->stories <= 2)) {
        for (int i = 0; i < row->n; i++) {
            int v = rules_rng_die(e->rng, row->sides);
            rules_result_die(dice, row->sides, v, 1);
            damage += v;
        }
        if (broken)
            damage /= 2; /* 002:485 "half the damage", rounded down (reading 11) */
    }
    int cur = gw_sub_int(e, cid, "condition", "current"), after = cur - damage;
    if (after < -100)
        after = -100; /* the sheet's floor */
    gw_sub_set(e, cid, "condition", "current", after);
    int dying = cur > 0 && after <= 0, dead = after < GRIMWIRE_DEAD_BELOW;
    if (dying) {
        int b = gw_stat_int(e, cid, "burnout", 0);
        if (b < GRIMWIRE_BURNOUT_MAX)
            rules_enc_stat_set(e, cid, "burnout", b + 1);
    }
    if (!broken) {
        json_t *status = gw_stat_list(e, cid, "status");
        if (gw_list_find(status, "knocked_down") < 0 && json_array_size(status) < 19)
            json_array_append_new(status, json_string("knocked_down"));
    }
    rules_log *x = rules_log_begin(e, "fall", "fall");
    rules_log_json(x, "who", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_int(x, "stories", row->stories, RULES_AUD_PUBLIC);
    rules_log_json(x, "broken", json_boolean(broken), RULES_AUD_PUBLIC);
    rules_log_int(x, "agl", total, RULES_AUD_PUBLIC);
    rules_log_int(x, "damage", damage, RULES_AUD_PUBLIC);
    rules_log_int(x, "condition", after, RULES_AUD_PUBLIC);
    rules_log_who(x, "pc", cid);
    rules_log_word(x, "verb", jump ? "fall.jumps" : "fall.falls", RULES_AUD_PUBLIC);
    rules_log_count(x, "height", stories, RULES_AUD_PUBLIC);
    rules_log_word(x, "unit", stories == 1 ? "w.story" : "w.stories", RULES_AUD_PUBLIC);
    rules_log_word(x, "how", how, RULES_AUD_PUBLIC);
    if (how == FALL_ROLL)
        rules_log_count(x, "fall_tn", row->tn, RULES_AUD_PUBLIC);
    rules_log_word(x, "outcome", broken ? "fall.broken" : "fall.down", RULES_AUD_PUBLIC);
    if (dead) /* 002:256 "If a character falls below -10 Condition, they are dead" */
        rules_log_word(x, "dying", "fall.dead", RULES_AUD_PUBLIC);
    else if (dying)
        rules_log_word(x, "dying", "fall.dying", RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
    if (dead)
        rules_enc_set_out(e, cid, "dead");
    return 0;
}

/* ---- the module ---- */

static int between_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)err;
    json_object_set_new(e->enc, "day", json_integer(rules_arg_int(o, "day")));
    json_object_set_new(e->enc, "sheltered", json_boolean(rules_arg_int(o, "sheltered")));
    json_object_set_new(e->enc, "supplied", json_boolean(rules_arg_int(o, "supplied")));
    return 0;
}

static int between_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)sheet;
    (void)err;
    gw_comb_set(e, cid, "short_rests", json_integer(0));
    gw_comb_set(e, cid, "long_rest", json_false());
    gw_comb_set(e, cid, "burnout_down", json_false());
    gw_comb_set(e, cid, "unrested", json_integer(0));
    gw_comb_set(e, cid, "causes", json_array());
    return 0;
}

static int between_check(const rules_enc *e, tb_err *err)
{
    if (!json_is_integer(json_object_get(e->enc, "day")))
        return rules_enc_rule(err, "the day count is damaged; the GM can end this (enc.end)");
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *c = rules_enc_combatant(e, cid);
        json_t *causes = json_object_get(c, "causes");
        if ((causes && !json_is_array(causes)) ||
            json_integer_value(json_object_get(c, "short_rests")) < 0 ||
            json_integer_value(json_object_get(c, "unrested")) < 0)
            return rules_enc_rule(err,
                                  "%s's rests or burnout causes are damaged; the GM can end "
                                  "this (enc.end)",
                                  rules_enc_name(e, cid));
    }
    return 0;
}

static const rules_param P_START[] = {
    {"day", RULES_PARAM_INT, 1, DAY_MAX, 1, 0, "the day of the campaign"},
    {"sheltered", RULES_PARAM_BOOL, 0, 1, 1, 0, "a sheltered place away from danger"},
    {"supplied", RULES_PARAM_BOOL, 0, 1, 1, 0, "food, water and beds (or an energy source)"},
    {0},
};

static const char *const SHEET_STATS[] = {"xp",       "level",          "attributes", "condition",
                                          "focus",    "burnout",        "techniques", "learned",
                                          "learning", "learning_hours", "items",      "blueprints",
                                          "status",   "armor_tog",      NULL};

/* What outlives the scene (RULES.md, "Between the scenes: what carries over"): the day; each
 * character's rests today, days without a long rest and burnout causes; the GM's numbers for a
 * character's next build (GM-only). */
static const char *const CARRY[] = {"day", NULL};
static const char *const CARRY_EACH[] = {"short_rests", "long_rest", "burnout_down",
                                         "unrested",    "causes",    NULL};
static const char *const CARRY_EACH_GM[] = {"build", NULL};

static const rules_enc_field EDITABLE[] = {
    {"/enc/day", RULES_PARAM_INT, 1, DAY_MAX, "day"},
    {"/enc/sheltered", RULES_PARAM_BOOL, 0, 1, "sheltered place"},
    {"/enc/supplied", RULES_PARAM_BOOL, 0, 1, "food, water and beds"},
    {"/enc/combatants/*/short_rests", RULES_PARAM_INT, 0, 2, "short rests today"},
    {"/enc/combatants/*/long_rest", RULES_PARAM_BOOL, 0, 1, "long rest today"},
    {"/enc/combatants/*/unrested", RULES_PARAM_INT, 0, DAY_MAX, "days without a long rest"},
    {"stats/burnout", RULES_PARAM_INT, 0, GRIMWIRE_BURNOUT_MAX, "burnout"},
    {NULL, 0, 0, 0, NULL},
};

const rules_module rules_module_grimwire_between = {
    .id = "grimwire.between",
    .system = "grimwire",
    .name = "Between the scenes",
    .cite = "002:200-385",
    .options = P_START,
    .start = between_start,
    .join = between_join,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = EDITABLE,
    .check = between_check,
    .choices = gw_between_choices,
    .phrases = gw_between_phrases,
    .carry = CARRY,
    .carry_each = CARRY_EACH,
    .carry_each_gm = CARRY_EACH_GM,
    .catch_up = gw_between_catch_up,
};
