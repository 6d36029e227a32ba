/*
 * between.c — grimwire.between, what a GRIMWIRE table does between the scenes
 * (rules/encounter.h; rulebook 002_c1f3df0ad7b1e31f.txt, cited 002:LINE): short and long rests
 * with their Condition, Focus and burnout recovery and their per-day limits; the days that pass
 * and the burnout their causes bring; XP and levelling up; learning techniques with learning
 * hours and exchanging them on a long rest; building and crafting with the MND and COR rolls and
 * the instability die.
 *
 * An encounter module with no turn order: the GM starts it (enc.start), adds the characters
 * present (enc.add) and moves the day on; players act for their own characters. Results land on
 * the sheets through sheet_stats (server/ops_enc.c write_back); each action checks that the
 * sheet can hold its result before it changes anything.
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
#include "encounter.h"
#include "grimwire.h"

#define SHORT_RESTS_PER_DAY 2 /* 002:214 */
#define UNRESTED_DAYS 3       /* 002:228 "Going 3 days without resting" */
#define XP_MAX 1000000        /* the sheet's xp maximum */
#define DAY_MAX 100000        /* the day count's editable range (EDITABLE below) */
#define SHORT_REST_S (30L * 60L)     /* 002:208 "a short rest of 30 minutes" */
#define LONG_REST_S (5L * 60L * 60L) /* 002:212 "a long rest ... 5 hours" */

static const char *const ATTRS[] = {"tog", "agl", "cor", "mnd", "per", "rsn", NULL};

/* 002:226-238, biological and mechanical: what the GM may mark as a cause of burnout */
static const char *const CAUSES[] = {"hunger",         "thirst",      "disease",
                                     "exposure",       "dampness",    "radiation",
                                     "no_maintenance", "no_recharge", NULL};

/* ---- small helpers over the combatant and its sheet copy (stats) ---- */

static int sub_int(rules_enc *e, const char *cid, const char *obj, const char *key)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_stats(e, cid), obj), key));
}

static void sub_set(rules_enc *e, const char *cid, const char *obj, const char *key, int v)
{
    json_t *stats = rules_enc_stats(e, cid);
    json_t *o = json_object_get(stats, obj);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(stats, obj, o);
    }
    json_object_set_new(o, key, json_integer(v));
}

static int comb_int(rules_enc *e, const char *cid, const char *key)
{
    return (int)json_integer_value(json_object_get(rules_enc_combatant(e, cid), key));
}

static void comb_set(rules_enc *e, const char *cid, const char *key, json_t *v /* stolen */)
{
    json_object_set_new(rules_enc_combatant(e, cid), key, v);
}

/* The stats list `key` of cid (created empty if missing; borrowed). */
static json_t *stat_list(rules_enc *e, const char *cid, const char *key)
{
    json_t *stats = rules_enc_stats(e, cid);
    json_t *l = json_object_get(stats, key);
    if (!json_is_array(l)) {
        l = json_array();
        json_object_set_new(stats, key, l);
    }
    return l;
}

/* Index of string s in array l, or -1. */
static int list_find(const json_t *l, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(l, i, v) if (rules_enc_streq(json_string_value(v), s)) return (int)i;
    return -1;
}

static int in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

static int has_status(const void *ctx, const char *status)
{
    return list_find(json_object_get((const json_t *)ctx, "status"), status) >= 0;
}

static int only_pcs(rules_enc *e, tb_err *err)
{
    if (e->actor && rules_enc_is_npc(e, e->actor))
        return rules_enc_rule(err,
                              "between the scenes is for the players' characters; %s is not "
                              "one",
                              rules_enc_name(e, e->actor));
    return 0;
}

/* Rolls cid's d20 + attribute `attr` + burnout penalty (002:244-248) + status effects against tn
 * (002:19-21); appends the die to dice. */
static grimwire_roll roll_attr(rules_enc *e, const char *cid, const char *attr, int tn,
                               json_t *dice)
{
    grimwire_roll r = {0};
    json_t *stats = rules_enc_stats(e, cid);
    r.attr = sub_int(e, cid, "attributes", attr);
    r.mod = grimwire_burnout_penalty(rules_enc_stat(e, cid, "burnout", 0)) +
            grimwire_status_mod(attr, GRIMWIRE_USE_PLAIN, has_status, stats);
    r.tn = tn;
    r.ff = 1;
    grimwire_roll_d20(&r, e->rng, dice);
    return r;
}

/* ---- resting (002:200-218, 002:252) ---- */

/* Whether cid can rest now: the place (002:216), alive and not dying (RULES.md reading), and
 * today's limit (002:214). */
static int can_rest(rules_enc *e, const char *cid, int long_rest, tb_err *err)
{
    const char *name = rules_enc_name(e, cid);
    if (!json_is_true(json_object_get(e->enc, "sheltered")))
        return rules_enc_rule(err, "nobody can rest here: resting needs a sheltered place away "
                                   "from enemies and danger");
    if (long_rest && !json_is_true(json_object_get(e->enc, "supplied")))
        return rules_enc_rule(err, "a long rest needs food, drinkable water and a place to sleep "
                                   "(a mechanical: an energy source), and there are none here");
    if (sub_int(e, cid, "condition", "current") <= 0)
        return rules_enc_rule(err, "%s is dying and must be stabilized before resting", name);
    if (long_rest && json_is_true(json_object_get(rules_enc_combatant(e, cid), "long_rest")))
        return rules_enc_rule(err, "%s has had today's long rest: one a day", name);
    if (!long_rest && comb_int(e, cid, "short_rests") >= SHORT_RESTS_PER_DAY)
        return rules_enc_rule(err, "%s has had two short rests today: two a day", name);
    return 0;
}

/* Rests cid (checked with can_rest first): Condition, Focus, and on a long rest without
 * downtime one level of burnout if none was recovered today. Logs it. */
static void rest_one(rules_enc *e, const char *cid, int long_rest, int downtime)
{
    int cmax = sub_int(e, cid, "condition", "max"), cur = sub_int(e, cid, "condition", "current");
    int fmax = sub_int(e, cid, "focus", "max"), foc = sub_int(e, cid, "focus", "current");
    int burnout = rules_enc_stat(e, cid, "burnout", 0), b_after = burnout;
    /* 002:252 "reduced by one level at the end of a long rest"; "will not recover from burnout"
     * with downtime; "only recover from one level of burnout per day" */
    if (long_rest && !downtime && burnout > 0 && !comb_int(e, cid, "burnout_down")) {
        b_after = burnout - 1;
        comb_set(e, cid, "burnout_down", json_true());
    }
    /* the Condition cap of the burnout at the end of the rest (RULES.md reading) */
    int c_after = grimwire_rest_condition(cur, cmax, b_after, long_rest);
    int f_after = grimwire_rest_focus(foc, fmax, long_rest);
    sub_set(e, cid, "condition", "current", c_after);
    sub_set(e, cid, "focus", "current", f_after);
    rules_enc_stat_set(e, cid, "burnout", b_after);
    if (long_rest) {
        comb_set(e, cid, "long_rest", json_true());
        comb_set(e, cid, "unrested", json_integer(0));
    } else {
        comb_set(e, cid, "short_rests", json_integer(comb_int(e, cid, "short_rests") + 1));
    }
    char extra[80] = "";
    if (b_after < burnout)
        snprintf(extra, sizeof extra, "; burnout eases to %d", b_after);
    else if (long_rest && burnout > 0)
        snprintf(extra, sizeof extra, "; burnout stays at %d%s", burnout,
                 downtime ? " (busy during the rest)" : " (one level a day)");
    rules_enc_log(e, long_rest ? "long_rest" : "short_rest", NULL,
                  json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i}", "who", cid, "condition_before",
                            cur, "condition", c_after, "focus_before", foc, "focus", f_after,
                            "burnout", b_after),
                  "%s takes a %s: Condition %d → %d, Focus %d → %d%s", rules_enc_name(e, cid),
                  long_rest ? "long rest (5 hours)" : "short rest (30 minutes)", cur, c_after, foc,
                  f_after, extra);
}

static int act_rest(rules_enc *e, const rules_args *a, int long_rest, tb_err *err)
{
    if (only_pcs(e, err) || can_rest(e, e->actor, long_rest, err))
        return err->code;
    rest_one(e, e->actor, long_rest, long_rest ? rules_arg_int(a, "downtime") : 0);
    rules_enc_take_time(e, long_rest ? LONG_REST_S : SHORT_REST_S); /* on the campaign clock */
    return 0;
}

static int act_short_rest(rules_enc *e, const rules_args *a, tb_err *err)
{
    return act_rest(e, a, 0, err);
}

static int act_long_rest(rules_enc *e, const rules_args *a, tb_err *err)
{
    return act_rest(e, a, 1, err);
}

/* The GM calls a rest for everyone present; those who cannot are named and left as they are. */
static int act_rest_all(rules_enc *e, const rules_args *a, tb_err *err)
{
    int long_rest = rules_arg_int(a, "long");
    const char *cid;
    int rested = 0;
    char skipped[400] = "";
    size_t len = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (rules_enc_is_npc(e, cid))
            continue;
        tb_err why = {0};
        if (can_rest(e, cid, long_rest, &why) == 0) {
            rest_one(e, cid, long_rest, 0);
            rested++;
        } else if (len < sizeof skipped) {
            len += (size_t)snprintf(skipped + len, sizeof skipped - len, "%s%s", len ? "; " : "",
                                    why.msg);
        }
    }
    if (!rested)
        return rules_enc_rule(err, "nobody can rest%s%s",
                              len ? ": "
                                  : " (add the characters "
                                    "present first)",
                              skipped);
    if (len)
        rules_enc_log(e, "rest", NULL, NULL, "Not resting: %s", skipped);
    rules_enc_take_time(e, long_rest ? LONG_REST_S : SHORT_REST_S); /* everyone at once */
    return 0;
}

/* ---- the days and burnout (002:224-252) ---- */

static int act_cause(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = rules_arg_str(a, "target"), *cause = rules_arg_str(a, "cause");
    if (!in_list(cause, CAUSES))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act cause: 'cause' is one of hunger, thirst, disease, exposure, "
                       "dampness, radiation, no_maintenance, no_recharge");
    json_t *causes = json_object_get(rules_enc_combatant(e, cid), "causes");
    if (!json_is_array(causes)) {
        causes = json_array();
        comb_set(e, cid, "causes", causes);
    }
    int at = list_find(causes, cause), on = rules_arg_int(a, "on");
    if (on && at < 0)
        json_array_append_new(causes, json_string(cause));
    else if (!on && at >= 0)
        json_array_remove(causes, (size_t)at);
    rules_enc_log(e, "cause", NULL,
                  json_pack("{s:s, s:s, s:b}", "who", cid, "cause", cause, "on", on), "%s: %s %s",
                  rules_enc_name(e, cid), cause, on ? "wears on them day by day" : "is dealt with");
    return 0;
}

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
    rules_enc_log(e, "day", NULL, json_pack("{s:i}", "day", day), "Day %d begins", day);
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (rules_enc_is_npc(e, cid))
            continue;
        int unrested = json_is_true(json_object_get(rules_enc_combatant(e, cid), "long_rest"))
                           ? 0
                           : comb_int(e, cid, "unrested") + 1;
        size_t ncauses = json_array_size(json_object_get(rules_enc_combatant(e, cid), "causes"));
        comb_set(e, cid, "unrested", json_integer(unrested < DAY_MAX ? unrested : DAY_MAX));
        comb_set(e, cid, "short_rests", json_integer(0));
        comb_set(e, cid, "long_rest", json_false());
        comb_set(e, cid, "burnout_down", json_false());
        if (unrested < UNRESTED_DAYS && ncauses == 0)
            continue;
        int b = rules_enc_stat(e, cid, "burnout", 0);
        if (b >= GRIMWIRE_BURNOUT_MAX)
            continue;
        rules_enc_stat_set(e, cid, "burnout", b + 1);
        int cmax = sub_int(e, cid, "condition", "max"),
            cur = sub_int(e, cid, "condition", "current");
        int cap = grimwire_condition_cap(cmax, b + 1) + sub_int(e, cid, "condition", "temporary");
        if (b + 1 == GRIMWIRE_BURNOUT_MAX && cur > 0)
            cur = 0; /* 002:250 "drops to 0 Condition and begins dying" */
        else if (cur > cap)
            cur = cap; /* 002:246-248 the cap */
        sub_set(e, cid, "condition", "current", cur);
        rules_enc_log(e, "burnout", NULL,
                      json_pack("{s:s, s:i, s:i, s:i}", "who", cid, "burnout", b + 1, "unrested",
                                unrested, "condition", cur),
                      "%s burns out further: burnout %d (%s)%s", rules_enc_name(e, cid), b + 1,
                      ncauses ? "what wears on them was not dealt with"
                              : "days without a proper rest",
                      b + 1 == GRIMWIRE_BURNOUT_MAX ? ": Condition 0, dying" : "");
    }
}

/* The days follow the campaign clock (RULES.md reading): every day that began between the
 * module's last count and now is a new day, also when another scene (a fight) took the time. */
static void between_catch_up(rules_enc *e)
{
    long days = rules_clock_periods_between(e->since_s, e->now_s, RULES_CLOCK_DAY);
    e->since_s = e->now_s;
    for (long i = 0; i < days && i < DAY_MAX; i++)
        day_begins(e);
}

/* The GM moves the day on: the clock runs to the start of the next day, which begins. */
static int act_next_day(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    between_catch_up(e); /* a day another scene began is not skipped */
    if (json_integer_value(json_object_get(e->enc, "day")) + 1 > DAY_MAX)
        return rules_enc_rule(err, "the calendar ends at day %d", DAY_MAX);
    rules_enc_take_time(e, rules_clock_to_next(e->now_s, RULES_CLOCK_DAY));
    between_catch_up(e);
    return 0;
}

/* ---- XP and levels (002:262-298) ---- */

static int act_award(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *target = rules_arg_str(a, "target");
    int xp = rules_arg_int(a, "xp"), n = 0;
    const char *cid;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
            if (rules_enc_is_npc(e, cid) || (target && strcmp(cid, target) != 0))
                continue;
            int have = rules_enc_stat(e, cid, "xp", 0);
            if (pass == 0 && have + xp > XP_MAX)
                return rules_enc_rule(err, "%s cannot hold more than %d XP", rules_enc_name(e, cid),
                                      XP_MAX);
            if (pass == 0) {
                n++;
                continue;
            }
            rules_enc_stat_set(e, cid, "xp", have + xp);
            int level = rules_enc_stat(e, cid, "level", 1);
            int next = level < GRIMWIRE_LEVEL_MAX ? grimwire_level_xp(level + 1) : -1;
            rules_enc_log(e, "award", NULL,
                          json_pack("{s:s, s:i, s:i}", "who", cid, "xp", have + xp, "gain", xp),
                          "%s gains %d XP (%d in all)%s", rules_enc_name(e, cid), xp, have + xp,
                          next >= 0 && have + xp >= next ? ": enough to level up" : "");
        }
        if (pass == 0 && n == 0)
            return rules_enc_rule(err,
                                  target ? "%s is not a player's character"
                                         : "nobody is here to reward: add the characters "
                                           "present first",
                                  target ? rules_enc_name(e, target) : "");
    }
    return 0;
}

/* Levels up the actor (002:264 "Whenever a PC gets enough XP, their level increases") with the
 * attribute increases it chooses (`raise`: "cor" or "cor,mnd", one per increase the level
 * gives; the same attribute may be named twice). */
static int act_level_up(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    const char *cid = e->actor, *raise = rules_arg_str(a, "raise");
    int level = rules_enc_stat(e, cid, "level", 1), xp = rules_enc_stat(e, cid, "xp", 0);
    grimwire_reward r;
    if (level >= GRIMWIRE_LEVEL_MAX || grimwire_level_reward(level + 1, &r))
        return rules_enc_rule(err, "%s is at level %d, the highest", rules_enc_name(e, cid), level);
    if (xp < grimwire_level_xp(level + 1))
        return rules_enc_rule(err, "level %d needs %d XP; %s has %d", level + 1,
                              grimwire_level_xp(level + 1), rules_enc_name(e, cid), xp);
    /* the attribute increases: parse and check every one before changing anything */
    const char *picked[2];
    int n = 0;
    char buf[40];
    snprintf(buf, sizeof buf, "%s", raise ? raise : "");
    for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        int k = 0;
        while (ATTRS[k] && strcmp(ATTRS[k], t) != 0)
            k++;
        if (!ATTRS[k])
            return tb_fail(err, TB_BAD_REQUEST,
                           "enc.act level_up: 'raise' names attributes: "
                           "tog, agl, cor, mnd, per, rsn");
        if (n >= r.attributes) {
            n++;
            break;
        }
        picked[n++] = ATTRS[k];
    }
    if (n != r.attributes)
        return rules_enc_rule(err, "level %d raises %d attribute%s: name %s in 'raise'", level + 1,
                              r.attributes, r.attributes == 1 ? "" : "s",
                              r.attributes == 1 ? "one" : "two, with commas");
    for (int i = 0; i < n; i++) {
        int v = sub_int(e, cid, "attributes", picked[i]) + 1 +
                (i == 1 && strcmp(picked[0], picked[1]) == 0);
        if (v > GRIMWIRE_ATTR_MAX) /* 002:91 "10 is the maximum for any attribute" */
            return rules_enc_rule(err, "%s cannot rise above %d", picked[i], GRIMWIRE_ATTR_MAX);
    }
    if (sub_int(e, cid, "condition", "max") + r.condition_focus > 999 ||
        sub_int(e, cid, "focus", "max") + r.condition_focus > 999 ||
        rules_enc_stat(e, cid, "learning_hours", 0) + r.hours > 10000)
        return rules_enc_rule(err, "the sheet cannot hold more Condition, Focus or hours");
    for (int i = 0; i < n; i++)
        sub_set(e, cid, "attributes", picked[i], sub_int(e, cid, "attributes", picked[i]) + 1);
    sub_set(e, cid, "condition", "max", sub_int(e, cid, "condition", "max") + r.condition_focus);
    sub_set(e, cid, "focus", "max", sub_int(e, cid, "focus", "max") + r.condition_focus);
    rules_enc_stat_set(e, cid, "learning_hours",
                       rules_enc_stat(e, cid, "learning_hours", 0) + r.hours);
    rules_enc_stat_set(e, cid, "level", level + 1);
    rules_enc_log(e, "level_up", NULL,
                  json_pack("{s:s, s:i, s:i, s:i, s:s}", "who", cid, "level", level + 1,
                            "condition_focus", r.condition_focus, "hours", r.hours, "raise", raise),
                  "%s reaches level %d: %s%s%s +1, max Condition and max Focus +%d, %d learning "
                  "hours",
                  rules_enc_name(e, cid), level + 1, picked[0], n > 1 ? " and " : "",
                  n > 1 ? picked[1] : "", r.condition_focus, r.hours);
    return 0;
}

/* ---- techniques (002:300-316) ---- */

/* Puts learning hours into a technique (002:306-316): each hour adds the multiplier attribute to
 * its effort; hours beyond what the effort needs are not spent (002:310-314). */
static int act_learn(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    const char *cid = e->actor, *tech = rules_arg_str(a, "technique");
    const char *attr = rules_arg_str(a, "attribute");
    json_t *learned = stat_list(e, cid, "learned"), *active = stat_list(e, cid, "techniques");
    if (list_find(learned, tech) >= 0 || list_find(active, tech) >= 0)
        return rules_enc_rule(err, "%s already knows %s", rules_enc_name(e, cid), tech);
    json_t *learning = stat_list(e, cid, "learning"), *entry = NULL, *it;
    size_t i;
    json_array_foreach(
        learning, i, it) if (rules_enc_streq(json_string_value(json_object_get(it, "name")), tech))
        entry = it;
    if (!entry && (!attr || !in_list(attr, ATTRS) || !rules_arg_given(a, "effort")))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act learn: a new technique needs its "
                       "'attribute' (tog, agl, cor, mnd, per, rsn) and "
                       "'effort'");
    if (!entry && json_array_size(learning) >= 50)
        return rules_enc_rule(err, "%s is learning 50 techniques already", rules_enc_name(e, cid));
    const char *mult = entry ? json_string_value(json_object_get(entry, "attribute")) : attr;
    int effort = entry ? (int)json_integer_value(json_object_get(entry, "effort"))
                       : rules_arg_int(a, "effort");
    int points = entry ? (int)json_integer_value(json_object_get(entry, "points")) : 0;
    int av = sub_int(e, cid, "attributes", mult);
    int need = grimwire_learning_hours(effort - points, av);
    if (need < 0)
        return rules_enc_rule(err, "%s has no points in %s to put toward %s",
                              rules_enc_name(e, cid), mult, tech);
    int have = rules_enc_stat(e, cid, "learning_hours", 0);
    int hours = rules_arg_given(a, "hours") ? rules_arg_int(a, "hours") : need;
    if (hours > need)
        hours = need;
    if (hours > have)
        return rules_enc_rule(err, "%s has %d learning hour%s left; %d needed",
                              rules_enc_name(e, cid), have, have == 1 ? "" : "s", hours);
    points += hours * av;
    rules_enc_stat_set(e, cid, "learning_hours", have - hours);
    int done = points >= effort;
    if (!entry && !done) {
        entry = json_pack("{s:s, s:s, s:i, s:i}", "name", tech, "attribute", mult, "effort", effort,
                          "points", 0);
        json_array_append_new(learning, entry);
    }
    if (done) {
        json_array_foreach(learning, i, it) if (it == entry) break;
        if (entry)
            json_array_remove(learning, i);
        json_array_append_new(learned, json_string(tech));
    } else {
        json_object_set_new(entry, "points", json_integer(points));
    }
    rules_enc_log(e, "learn", NULL,
                  json_pack("{s:s, s:s, s:i, s:i, s:i, s:b}", "who", cid, "technique", tech,
                            "hours", hours, "points", done ? effort : points, "effort", effort,
                            "learned", done),
                  "%s studies %s for %d hour%s (%d × %s): %s; %d learning hour%s left",
                  rules_enc_name(e, cid), tech, hours, hours == 1 ? "" : "s", av, mult,
                  done ? "learned" : "still learning", have - hours, have - hours == 1 ? "" : "s");
    return 0;
}

/* Exchanges an active technique for a learned one during today's long rest (002:304); with no
 * `drop`, adds one while the slots allow (002:302). */
static int act_exchange(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    const char *cid = e->actor, *take = rules_arg_str(a, "take"), *drop = rules_arg_str(a, "drop");
    if (!json_is_true(json_object_get(rules_enc_combatant(e, cid), "long_rest")))
        return rules_enc_rule(err,
                              "techniques are exchanged during a rest of 5 hours or longer: "
                              "%s takes a long rest first",
                              rules_enc_name(e, cid));
    json_t *learned = stat_list(e, cid, "learned"), *active = stat_list(e, cid, "techniques");
    int ti = list_find(learned, take), di = drop ? list_find(active, drop) : -1;
    if (ti < 0)
        return rules_enc_rule(err, "%s has not learned %s", rules_enc_name(e, cid), take);
    if (drop && di < 0)
        return rules_enc_rule(err, "%s is not one of %s's active techniques", drop,
                              rules_enc_name(e, cid));
    int slots = grimwire_technique_slots(sub_int(e, cid, "focus", "max"));
    if (!drop && (int)json_array_size(active) >= slots)
        return rules_enc_rule(err,
                              "%s has %d active techniques, all that half the max Focus "
                              "allows: name one to drop",
                              rules_enc_name(e, cid), slots);
    json_array_remove(learned, (size_t)ti);
    if (drop) {
        json_array_append_new(learned, json_string(drop));
        json_array_set_new(active, (size_t)di, json_string(take));
    } else {
        json_array_append_new(active, json_string(take));
    }
    rules_enc_log(e, "exchange", NULL,
                  json_pack("{s:s, s:s, s:s?}", "who", cid, "take", take, "drop", drop),
                  "%s readies %s%s%s", rules_enc_name(e, cid), take, drop ? " in place of " : "",
                  drop ? drop : "");
    return 0;
}

/* ---- building and crafting (002:336-385) ---- */

static const char *quality(int mnd_ok, int cor_ok)
{
    /* 002:364 both: well made; neither: fails; one but not the other: unstable */
    return mnd_ok && cor_ok ? "well made" : !mnd_ok && !cor_ok ? "failed" : "unstable";
}

/* The GM sets the target numbers of cid's next build (002:344, 002:356: "based on the complexity
 * of the object"); they stay in /gm/enc until the build (002:53: target numbers are the GM's). */
static int act_set_build(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = rules_arg_str(a, "target");
    if (rules_enc_is_npc(e, cid))
        return rules_enc_rule(err, "%s is not a player's character", rules_enc_name(e, cid));
    json_t *tns = json_pack("{s:i}", "cor_tn", rules_arg_int(a, "cor_tn"));
    if (rules_arg_given(a, "mnd_tn"))
        json_object_set_new(tns, "mnd_tn", json_integer(rules_arg_int(a, "mnd_tn")));
    json_object_set_new(rules_enc_hidden_of(e, cid), "build", tns);
    rules_enc_log_gm(e, "set_build", NULL, json_pack("{s:s, s:O}", "target", cid, "tn", tns),
                     "The GM sets the numbers of %s's next build: COR %d%s", rules_enc_name(e, cid),
                     rules_arg_int(a, "cor_tn"),
                     rules_arg_given(a, "mnd_tn") ? ", and MND for a new kind of object" : "");
    return 0;
}

/* A target number of the build: the GM's parameter, else the one set with set_build; -1 none. */
static int build_tn(rules_enc *e, const rules_args *a, const char *key)
{
    if (rules_arg_given(a, key))
        return rules_arg_int(a, key);
    json_t *v = json_object_get(json_object_get(rules_enc_hidden_of(e, e->actor), "build"), key);
    return json_is_integer(v) ? (int)json_integer_value(v) : -1;
}

static int act_craft(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    const char *cid = e->actor, *item = rules_arg_str(a, "item"), *kind = rules_arg_str(a, "kind");
    const char *name = rules_enc_name(e, cid);
    if ((rules_arg_given(a, "mnd_tn") || rules_arg_given(a, "cor_tn")) && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM sets target numbers");
    int mnd_tn = build_tn(e, a, "mnd_tn"), cor_tn = build_tn(e, a, "cor_tn");
    int extended = rules_arg_int(a, "extended"), consumable = rules_arg_int(a, "consumable");
    const char *know = kind ? kind : item;
    json_t *blueprints = stat_list(e, cid, "blueprints"), *items = stat_list(e, cid, "items");
    int known = list_find(blueprints, know) >= 0;
    if (cor_tn < 0)
        return rules_enc_rule(err, "the GM has not set the numbers of %s's build yet", name);
    if (!known && mnd_tn < 0)
        return rules_enc_rule(err,
                              "%s has never built a %s: the GM sets the MND number for it "
                              "first",
                              name, know);
    if (json_array_size(items) >= 100)
        return rules_enc_rule(err, "%s carries 100 objects already", name);
    if (!known && json_array_size(blueprints) >= 200)
        return rules_enc_rule(err, "%s knows 200 kinds of object already", name);
    /* validated: roll. The totals and outcomes are the table's; the numbers they met, the GM's. */
    rules_enc_entry *x = rules_enc_entry_begin(e, "craft");
    json_t *dice = json_array();
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s builds %s: ", name, item);
    /* 002:344 the MND roll only the first time; a failure still builds, unstable */
    int mnd_ok = 1;
    if (!known) {
        grimwire_roll m = roll_attr(e, cid, "mnd", mnd_tn, dice);
        mnd_ok = m.success;
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "MND %d, %s", m.total,
                            mnd_ok ? "understood" : "not understood");
        rules_enc_entry_say(x, RULES_AUD_GM, " (against %d)", mnd_tn);
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "; ");
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "mnd_total", json_integer(m.total));
        rules_enc_entry_set(x, RULES_AUD_GM, "mnd_tn", json_integer(mnd_tn));
    } else {
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "knows how; ");
    }
    /* 002:356 the COR roll; 002:360 a long build: 2 of 3 COR rolls */
    int rolls = extended ? 3 : 1, wins = 0;
    json_t *totals = json_array();
    for (int i = 0; i < rolls; i++) {
        grimwire_roll c = roll_attr(e, cid, "cor", cor_tn, dice);
        wins += c.success;
        json_array_append_new(totals, json_integer(c.total));
    }
    int cor_ok = extended ? wins >= 2 : wins == 1;
    if (extended)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "COR %d, %d, %d: %d of 3 phases go right",
                            (int)json_integer_value(json_array_get(totals, 0)),
                            (int)json_integer_value(json_array_get(totals, 1)),
                            (int)json_integer_value(json_array_get(totals, 2)), wins);
    else
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "COR %d, %s",
                            (int)json_integer_value(json_array_get(totals, 0)),
                            cor_ok ? "assembled" : "badly assembled");
    rules_enc_entry_say(x, RULES_AUD_GM, " (against %d)", cor_tn);
    const char *q = quality(mnd_ok, cor_ok);
    int unstable = strcmp(q, "unstable") == 0, die = consumable ? 10 : 20; /* 002:368, 002:375 */
    rules_enc_entry_say(
        x, RULES_AUD_PUBLIC, " — %s%s", strcmp(q, "failed") == 0 ? "it does not come together" : q,
        unstable ? (consumable ? " (instability die d10)" : " (instability die d20)") : "");
    rules_enc_entry_dice(x, RULES_AUD_PUBLIC, dice);
    json_decref(dice);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                          json_pack("{s:s, s:s, s:b, s:b, s:s, s:i, s:o}", "who", cid, "item", item,
                                    "mnd_ok", mnd_ok, "cor_ok", cor_ok, "quality", q,
                                    "unstable_die", unstable ? die : 0, "cor_totals", totals));
    rules_enc_entry_set(x, RULES_AUD_GM, "cor_tn", json_integer(cor_tn));
    rules_enc_entry_end(x);
    if (!known && mnd_ok)
        json_array_append_new(blueprints, json_string(know));
    if (strcmp(q, "failed") != 0) {
        json_t *o = json_pack("{s:s}", "name", item);
        if (unstable)
            json_object_set_new(o, "unstable_die", json_integer(die));
        if (consumable)
            json_object_set_new(o, "consumable", json_true());
        json_array_append_new(items, o);
    }
    /* the numbers were for this build */
    json_object_del(rules_enc_hidden_of(e, cid), "build");
    return 0;
}

/* Uses an unstable object: its instability die (002:366-379). */
static int act_use(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    const char *cid = e->actor, *item = rules_arg_str(a, "item");
    json_t *items = stat_list(e, cid, "items"), *o = NULL, *it;
    size_t i, at = 0;
    json_array_foreach(
        items, i,
        it) if (!o && rules_enc_streq(json_string_value(json_object_get(it, "name")), item))
    {
        o = it;
        at = i;
    }
    if (!o)
        return rules_enc_rule(err, "%s has no %s", rules_enc_name(e, cid), item);
    if (json_is_true(json_object_get(o, "broken")))
        return rules_enc_rule(err, "%s is broken: it needs repairing first", item);
    int die = (int)json_integer_value(json_object_get(o, "unstable_die"));
    int consumable = json_is_true(json_object_get(o, "consumable"));
    if (die <= 0) {
        if (consumable)
            json_array_remove(items, at);
        rules_enc_log(e, "use", NULL, NULL, "%s uses %s: it works", rules_enc_name(e, cid), item);
        return 0;
    }
    int v = rules_rng_die(e->rng, die);
    json_t *dice = json_array();
    rules_result_die(dice, die, v, 1);
    const char *what;
    if (consumable) {
        /* 002:376 2 or 3: doesn't work, can't be reused; 002:377 1: harmful, the GM says how */
        what = v == 1   ? "it goes wrong: something harmful happens (the GM says what)"
               : v <= 3 ? "it does not work and is wasted"
                        : "it works";
        json_array_remove(items, at); /* used up either way */
    } else if (v == 1) {
        what = "it breaks for good and may hurt someone nearby"; /* 002:371 */
        json_array_remove(items, at);
    } else if (v == 2) {
        what = "it breaks, but can be repaired"; /* 002:370 */
        json_object_set_new(o, "broken", json_true());
    } else {
        what = v == 3 ? "it does not work this time" : "it works"; /* 002:369 */
    }
    rules_enc_log(e, "use", dice, json_pack("{s:s, s:s, s:i}", "who", cid, "item", item, "roll", v),
                  "%s uses %s (instability d%d: %d): %s", rules_enc_name(e, cid), item, die, v,
                  what);
    return 0;
}

/* ---- falling (002:483-505) ---- */

/* 002:495-505: from `stories` up: damage dice (count x sides) and the target number to break it */
static const struct fall_row {
    int stories, n, sides, tn;
} FALLS[] = {{1, 1, 6, 10},   {2, 2, 8, 13},   {4, 2, 12, 16}, {10, 3, 20, 19},
             {18, 4, 20, 22}, {28, 5, 20, 25}, {40, 6, 20, 28}};

/* A fall of `stories` (the row at or below it: RULES.md reading 11): an AGL roll breaks it for half
 * the damage and no knock-down (002:485); a soft surface (water below 45 m) breaks a fall below
 * 10 stories by itself (002:489) and is needed to try at 10 or more (002:491, 002:501); a jump
 * on purpose from 2 stories or lower takes nothing when broken (002:487). Damage lowers Condition;
 * at 0 or below the character is dying and takes a level of burnout (002:226, 002:256). */
static int act_fall(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    const char *cid = e->actor, *name = rules_enc_name(e, cid);
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
    char how[80];
    if (cushion && !high) {
        broken = 1;
        snprintf(how, sizeof how, "lands on something soft");
    } else if (high && !cushion) {
        broken = 0;
        snprintf(how, sizeof how, "has nothing soft to land on");
    } else {
        grimwire_roll g = roll_attr(e, cid, "agl", row->tn, dice);
        broken = g.success;
        total = g.total;
        snprintf(how, sizeof how, "AGL %d against %d", total, row->tn);
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
    int cur = sub_int(e, cid, "condition", "current"), after = cur - damage;
    if (after < -100)
        after = -100; /* the sheet's floor */
    sub_set(e, cid, "condition", "current", after);
    int dying = cur > 0 && after <= 0;
    if (dying) {
        int b = rules_enc_stat(e, cid, "burnout", 0);
        if (b < GRIMWIRE_BURNOUT_MAX)
            rules_enc_stat_set(e, cid, "burnout", b + 1);
    }
    if (!broken) {
        json_t *status = stat_list(e, cid, "status");
        if (list_find(status, "knocked_down") < 0 && json_array_size(status) < 19)
            json_array_append_new(status, json_string("knocked_down"));
    }
    rules_enc_log(e, "fall", dice,
                  json_pack("{s:s, s:i, s:b, s:i, s:i, s:i}", "who", cid, "stories", row->stories,
                            "broken", broken, "agl", total, "damage", damage, "condition", after),
                  "%s %s %d stor%s and %s: %s, %d damage%s%s", name, jump ? "jumps" : "falls",
                  stories, stories == 1 ? "y" : "ies", how,
                  broken ? "the fall is broken" : "knocked down", damage, dying ? "; dying" : "",
                  dying ? " (a level of burnout)" : "");
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
    comb_set(e, cid, "short_rests", json_integer(0));
    comb_set(e, cid, "long_rest", json_false());
    comb_set(e, cid, "burnout_down", json_false());
    comb_set(e, cid, "unrested", json_integer(0));
    comb_set(e, cid, "causes", json_array());
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
    {0},
};
static const rules_param P_CRAFT[] = {
    {"item", RULES_PARAM_STRING, 1, 100, 0, RULES_PARAM_REQUIRED, "what is built"},
    {"kind", RULES_PARAM_STRING, 1, 100, 0, 0, "the type of object (the item's name if absent)"},
    {"mnd_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "GM: MND target number (else the one set for the build)"},
    {"cor_tn", RULES_PARAM_INT, 1, 60, 0, RULES_PARAM_SECRET,
     "GM: COR target number (else the one set for the build)"},
    {"extended", RULES_PARAM_BOOL, 0, 1, 0, 0, "a long build: 2 of 3 COR rolls"},
    {"consumable", RULES_PARAM_BOOL, 0, 1, 0, 0, "a consumable"},
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

static const rules_enc_action ACTIONS[] = {
    {"short_rest", "Short rest", RULES_ENC_OWNER, P_NONE, act_short_rest, "002:208,214-216"},
    {"long_rest", "Long rest", RULES_ENC_OWNER, P_LONG_REST, act_long_rest, "002:200,212-218,252"},
    {"rest_all", "Call a rest", RULES_ENC_GM, P_REST_ALL, act_rest_all, "002:206-218,252"},
    {"next_day", "Next day", RULES_ENC_GM, P_NONE, act_next_day, "002:214,224-250"},
    {"cause", "Mark a burnout cause", RULES_ENC_GM, P_CAUSE, act_cause, "002:224-240"},
    {"award", "Award XP", RULES_ENC_GM, P_AWARD, act_award, "002:264"},
    {"level_up", "Level up", RULES_ENC_OWNER, P_LEVEL_UP, act_level_up, "002:264-298"},
    {"learn", "Study a technique", RULES_ENC_OWNER, P_LEARN, act_learn, "002:306-316"},
    {"exchange", "Exchange a technique", RULES_ENC_OWNER, P_EXCHANGE, act_exchange, "002:302-304"},
    {"set_build", "Set build numbers", RULES_ENC_GM, P_SET_BUILD, act_set_build,
     "002:29-55,344,356"},
    {"craft", "Build something", RULES_ENC_OWNER, P_CRAFT, act_craft, "002:336-385"},
    {"use", "Use an unstable object", RULES_ENC_OWNER, P_USE, act_use, "002:366-379"},
    {"fall", "Fall or jump down", RULES_ENC_OWNER, P_FALL, act_fall, "002:483-505"},
    {0},
};

static const char *const SHEET_STATS[] = {
    "xp",      "level",    "attributes",     "condition", "focus",      "burnout", "techniques",
    "learned", "learning", "learning_hours", "items",     "blueprints", "status",  NULL};

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
    .carry = CARRY,
    .carry_each = CARRY_EACH,
    .carry_each_gm = CARRY_EACH_GM,
    .catch_up = between_catch_up,
};
