/*
 * between.c — the FIVEY module fivey.between (rules/encounter.h): the adventuring day and the
 * time between adventures. Hex travel with its hours and encounter chance, the site clock and its
 * encounter checks, the night's rest action (one per character per night), downtime turns
 * (tennites) with lifestyle costs, random events and the activities, cashing leftover inspiration
 * in for experience and the level-up. Rulebook 004_110cc4af3ff93059.txt, cited 004:LINE; readings
 * in rules/RULES.md, fivey, "Between the scenes (module fivey.between)".
 *
 *   new_day    GM     the clock runs to the next day: travel time and rest actions back
 *                     (004:511-513)
 *   travel     GM     a hex: 4 hours +-1, the x-in-20 encounter check (004:519-533)
 *   enter, site_turn, leave   GM   the site clock and its x-in-20 checks (004:543-547)
 *   award      GM     experience (004:402)
 *   tennite    GM     ten days of downtime: inspiration back, a downtime action again (004:564)
 *   rest       OWNER  the night's rest action (004:549-560)
 *   downtime   OWNER  a lifestyle and its activity (004:562-639)
 *   cash_in    OWNER  leftover inspiration becomes experience (004:402)
 *   level_up   OWNER  a new level (004:385-400)
 *   cast       OWNER  a spell outside a fight: one of the casts, no ◆ (004:481-505; spells.c)
 *
 * The module's own state:
 *   /enc: day (from 1), hours (travel hours spent today), limit (travel hours allowed today: 12,
 *         +4 per march), site (the site clock: 0 outside a site, else the x of the next x-in-20
 *         check), tennite (downtime turns run), rested [cid] (rest action used tonight),
 *         downtime [cid] (downtime action taken this tennite)
 *   stats: the sheet's level, xp, stats, hp, inspiration, crowns, attuned (all written back), and
 *          weapons and inventory (read: what may be attuned)
 * No turn order: the GM's moves are RULES_ENC_GM, a player's own RULES_ENC_OWNER. Each action is
 * a pure check (its refusals, before any die) and a resolve.
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "fivey_enc.h"

#define DAY_HOURS 12  /* 004:511 "Daytime is a 12-hour period" */
#define MARCH_HOURS 4 /* 004:527, 004:558 "up to 4 additional hours of travel time" */
#define HOUR_S (60L * 60L)
#define SITE_TURN_S (10L * 60L) /* 004:543 "A round of actions might take about 10 minutes" */
#define SITE_MAX 20             /* the site clock's editable maximum (an x-in-20 chance) */
#define TENNITE_DAYS 10         /* 004:564 "a period of time lasting 10 days" */
#define XP_MAX 1000000          /* the experience's editable maximum */

static int act_new_day(rules_enc *e, const rules_args *a, tb_err *err);
static int check_travel(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_travel(rules_enc *e, const rules_args *a, tb_err *err);
static int act_enter(rules_enc *e, const rules_args *a, tb_err *err);
static int check_site_turn(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_site_turn(rules_enc *e, const rules_args *a, tb_err *err);
static int act_leave(rules_enc *e, const rules_args *a, tb_err *err);
static int check_award(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_award(rules_enc *e, const rules_args *a, tb_err *err);
static int check_tennite(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_tennite(rules_enc *e, const rules_args *a, tb_err *err);
static int check_rest(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_rest(rules_enc *e, const rules_args *a, tb_err *err);
static int check_cash_in(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_cash_in(rules_enc *e, const rules_args *a, tb_err *err);
static int check_level_up(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_level_up(rules_enc *e, const rules_args *a, tb_err *err);

static int between_start(rules_enc *e, const rules_args *options, tb_err *err);
static int between_check(const rules_enc *e, tb_err *err);
static void catch_up(rules_enc *e);
static int between_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                           const rules_param *p, json_t *out);

/* ---- the table ---- */

static const rules_param P_TRAVEL[] = {
    {"terrain", RULES_PARAM_BOOL, 0, 1, 0, 0, "difficult terrain (+1 hour)"},
    {"weather", RULES_PARAM_BOOL, 0, 1, 0, 0, "difficult weather (+1 hour)"},
    {"road", RULES_PARAM_BOOL, 0, 1, 0, 0, "paved road (-1 hour)"},
    {"check", RULES_PARAM_BOOL, 0, 1, 1, 0, "roll for an encounter"},
    {0},
};
static const rules_param P_AWARD[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who earns it"},
    {"xp", RULES_PARAM_INT, 1, 100000, 0, RULES_PARAM_REQUIRED, "experience points"},
    {0},
};
static const rules_param P_REST[] = {
    {"action", RULES_PARAM_STRING, 4, 8, 0, RULES_PARAM_REQUIRED,
     "recover, attune, practice, cook, scavenge or march"},
    {"item", RULES_PARAM_STRING, 1, 100, 0, 0, "the item to attune to"},
    {0},
};
static const rules_param P_DOWNTIME[] = {
    {"lifestyle", RULES_PARAM_STRING, 4, 11, 0, RULES_PARAM_REQUIRED, "squalid ... decadent"},
    {"activity", RULES_PARAM_STRING, 3, 9, 0, RULES_PARAM_REQUIRED,
     "beg, work, carouse, study, establish or ball"},
    {"stat", RULES_PARAM_STRING, 3, 3, 0, 0, "the stat rolled (str, dex, int, cha)"},
    {"skilled", RULES_PARAM_BOOL, 0, 1, 0, 0, "a skill applies (doubles the stat)"},
    {"settlement", RULES_PARAM_STRING, 4, 10, 0, 0, "where one begs (village)"},
    {"event", RULES_PARAM_BOOL, 0, 1, 1, 0, "roll for a random event"},
    {0},
};
static const rules_param P_LEVEL[] = {
    {"stat", RULES_PARAM_STRING, 3, 3, 0, RULES_PARAM_REQUIRED, "the stat that rises"},
    {"roll", RULES_PARAM_BOOL, 0, 1, 0, 0, "roll 1d6 hit points instead of 4"},
    {0},
};
static const rules_param P_TENNITE[] = {
    {"span", RULES_PARAM_STRING, 4, 7, 0, 0, "a tennite, a season (3 tennites) or a year (12)"},
    {0},
};
static const rules_param P_NONE[] = {{0}};

/* clang-format off */
static const rules_enc_action ACTIONS[] = {
    {"new_day", "A new day", RULES_ENC_GM, P_NONE, act_new_day, "004:511-513", NULL, 0},
    {"travel", "Travel a hex", RULES_ENC_GM, P_TRAVEL, act_travel, "004:519-527, 004:533",
     check_travel, 0},
    {"enter", "Enter a site", RULES_ENC_GM, P_NONE, act_enter, "004:547", NULL, 0},
    {"site_turn", "A site turn passes", RULES_ENC_GM, P_NONE, act_site_turn, "004:543-547",
     check_site_turn, 0},
    {"leave", "Leave the site", RULES_ENC_GM, P_NONE, act_leave, "004:547", NULL, 0},
    {"award", "Award experience", RULES_ENC_GM, P_AWARD, act_award, "004:402", check_award, 0},
    {"tennite", "Run a downtime round", RULES_ENC_GM, P_TENNITE, act_tennite,
     "004:144, 004:564, 004:574", check_tennite, 0},
    {"rest", "Rest for the night", RULES_ENC_OWNER, P_REST, act_rest, "004:549-560", check_rest,
     0},
    {"downtime", "Downtime activity", RULES_ENC_OWNER, P_DOWNTIME, fivey_downtime, "004:562-639",
     fivey_downtime_check, 0},
    {"cash_in", "Inspiration to experience", RULES_ENC_OWNER, P_NONE, act_cash_in, "004:402",
     check_cash_in, RULES_ENC_RARE},
    {"level_up", "Level up", RULES_ENC_OWNER, P_LEVEL, act_level_up, "004:385-400",
     check_level_up, 0},
    {"cast", "Cast a spell", RULES_ENC_OWNER, fivey_cast_params, fivey_cast_free,
     "004:481-505, 004:680", fivey_cast_free_check, RULES_ENC_RARE},
    {0},
};
/* clang-format on */

/* The words of the module's events (encounter.h, "The log"). */
/* clang-format off */
static const rules_phrase PHRASES[] = {
    {"new_day", "Day {day} begins"},
    {"days_pass", "{days} days pass: day {day} begins"},
    {"travel", "The party crosses a hex in {hours} hours ({today} of {limit} today){check?}"},
    {"travel.check", "; {hours}-in-20: {met}"},
    {"travel.met", "an encounter!"},
    {"travel.nobody", "nobody met"},
    {"enter", "The party enters the site; the clock starts at 1"},
    {"site_turn", "A site turn passes; {chance}-in-20: {met}"},
    {"site_turn.met", "an encounter! The clock goes back to 1"},
    {"site_turn.nobody", "nobody comes"},
    {"site_time", "Time passes in the site: the clock stands at {clock}"},
    {"leave", "The party leaves the site"},
    {"award", "{who} gains {xp} experience ({total})"},
    {"award", "{who} gains {xp} experience"},
    {"tennite", "Ten days of downtime pass; inspiration is restored"},
    {"tennites", "{turns} tennites of downtime pass ({days} days); inspiration is restored"},
    {"spells_ready", "{who}'s spells are ready again ({spell_casts} casts)"},
    {"spells_ready", "{who}'s spells are ready again"},
    {"rest", "{who} {does}"},
    {"rest.recover", "rests and recovers {restored} hit points ({damage} damage left)"},
    {"rest.recover", "rests and recovers hit points"},
    {"rest.practice", "practises and restores an inspiration die ({inspiration})"},
    {"rest.practice", "practises and restores an inspiration die"},
    {"rest.attune", "attunes to {item}"},
    {"rest.attune", "attunes to an item"},
    {"rest.march", "marches on: {limit} hours of travel today"},
    {"rest.other", "spends the rest action to {what}"},
    {"cash_in", "{who} turns {spent} inspiration dice into {gained} experience ({xp})"},
    {"cash_in", "{who} turns inspiration dice into experience"},
    {"level_up", "{who} reaches level {level}: +{hp} hit points, +1 {stat_name}"},
    {"level_up", "{who} reaches a new level"},
    {NULL, NULL},
};
/* clang-format on */

/* What outlives the scene (RULES.md, "Between the scenes: what carries over"): the day and its
 * travel, the site clock, the downtime count and who has used tonight's rest or this tennite's
 * downtime action. */
static const char *const CARRY[] = {"day",     "hours",  "limit",    "site", "turns",
                                    "tennite", "rested", "downtime", "span", NULL};
/* and each character's institution (004:616-633) */
static const char *const CARRY_EACH[] = {"institution", NULL};

/* What the GM fixes by hand: the clocks. */
static const rules_enc_field EDITABLE[] = {
    {"/enc/day", RULES_PARAM_INT, 1, 100000, "day"},
    {"/enc/hours", RULES_PARAM_INT, 0, 24, "travel hours today"},
    {"/enc/limit", RULES_PARAM_INT, 0, 24, "travel hours allowed today"},
    {"/enc/site", RULES_PARAM_INT, 0, 20, "site clock"},
    {"stats/crowns", RULES_PARAM_INT, 0, 10000000, "crowns"},
    {"stats/xp", RULES_PARAM_INT, 0, XP_MAX, "experience"},
    /* credit spent on equipment or hirelings (004:631), capital lost to a bad event (004:633) */
    {"/enc/combatants/*/institution/capital", RULES_PARAM_INT, 0, 10000000,
     "the institution's capital"},
    {"/enc/combatants/*/institution/credit", RULES_PARAM_INT, 0, 10000000,
     "the institution's credit"},
    /* an NPC's institution is the GM's (004:616; between_check refuses it on the combatant) */
    {"/gm/enc/combatants/*/institution/capital", RULES_PARAM_INT, 0, 10000000,
     "an NPC's institution's capital"},
    {"/gm/enc/combatants/*/institution/credit", RULES_PARAM_INT, 0, 10000000,
     "an NPC's institution's credit"},
    {NULL, 0, 0, 0, NULL},
};

/* Healing, inspiration, experience, levels, stats, crowns, attunement and spell casts land on
 * the sheets ("spells" is read only: the card shows a caster's casts; "weapons" and "inventory"
 * are what a character may attune to; "feats" change the night: 004:206, 004:337). */
static const char *const SHEET_STATS[] = {
    "level",       "xp",     "stats",   "hp",        "inspiration", "crowns", "attuned",
    "spell_slots", "spells", "weapons", "inventory", "feats",       NULL};

const rules_module rules_module_fivey_between = {
    .id = "fivey.between",
    .system = "fivey",
    .name = "Between the scenes",
    .cite = "004:385-402, 004:509-639",
    .start = between_start,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = EDITABLE,
    .check = between_check,
    .carry = CARRY,
    .carry_each = CARRY_EACH,
    .catch_up = catch_up,
    .choices = between_choices,
    .phrases = PHRASES,
};

/* ---- small helpers ---- */

static int geti(const json_t *o, const char *k)
{
    return (int)json_integer_value(json_object_get(o, k));
}

static void seti(json_t *o, const char *k, int v)
{
    json_object_set_new(o, k, json_integer(v));
}

/*
 * An x-in-20 encounter check (004:533, 004:547): the GM's d20 into dice; an encounter when it
 * shows x or less. (Reading: the book's "4-in-20 ... roll 5 or more" is the roll that avoids
 * the encounter.) Returns 1 on an encounter.
 */
static int encounter_check(rules_enc *e, int x, json_t *dice)
{
    return rules_roll_die(e->rng, 20, dice) <= x;
}

/* ---- the day and travel ---- */

/* A new day begins (004:511-513): travel time back to 12 hours, every character has a rest
 * action again. Logged unless quiet (several days at once are logged together). */
static void day_begins(rules_enc *e, int quiet)
{
    if (geti(e->enc, "day") >= 100000) /* the day's editable maximum */
        return;
    seti(e->enc, "day", geti(e->enc, "day") + 1);
    seti(e->enc, "hours", 0);
    seti(e->enc, "limit", DAY_HOURS);
    json_array_clear(fivey_list(e, "rested"));
    if (!quiet) {
        rules_log *x = rules_log_begin(e, "new_day", "new_day");
        rules_log_int(x, "day", geti(e->enc, "day"), RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
}

/* Night passes and a new day begins (004:511-513): the clock runs to the start of the next
 * day. */
static int act_new_day(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    catch_up(e); /* a day another scene began is not skipped */
    rules_enc_take_time(e, rules_clock_to_next(e->now_s, RULES_CLOCK_DAY));
    catch_up(e);
    return 0;
}

/* One hex (004:519-527): 4 hours, +1 difficult terrain, +1 difficult weather, -1 paved road. */
static int hex_hours(const rules_args *a)
{
    return 4 + rules_arg_int(a, "terrain") + rules_arg_int(a, "weather") - rules_arg_int(a, "road");
}

/* At most the day's 12 hours plus any march (004:511, 004:527). */
static int check_travel(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int h = hex_hours(a), spent = geti(e->enc, "hours"), limit = geti(e->enc, "limit");
    if (spent + h > limit)
        return rules_enc_rule(err,
                              "that hex takes %d hours and only %d of today's travel time is "
                              "left: march at night or wait for the next day",
                              h, limit - spent);
    return 0;
}

/* The hex's hours, then the x-in-20 check with x the hours (004:533) unless the GM skips it. */
static int act_travel(rules_enc *e, const rules_args *a, tb_err *err)
{
    int h = hex_hours(a), spent = geti(e->enc, "hours"), limit = geti(e->enc, "limit");
    seti(e->enc, "hours", spent + h);
    rules_enc_take_time(e, h * HOUR_S); /* on the campaign clock */
    rules_log *x = rules_log_begin(e, "travel", "travel");
    rules_log_int(x, "hours", h, RULES_AUD_PUBLIC);
    rules_log_int(x, "today", spent + h, RULES_AUD_PUBLIC);
    rules_log_int(x, "limit", limit, RULES_AUD_PUBLIC);
    if (rules_arg_int(a, "check")) {
        json_t *dice = json_array();
        int met = encounter_check(e, h, dice);
        rules_log_dice(x, dice, RULES_AUD_PUBLIC);
        json_decref(dice);
        rules_log_json(x, "encounter", json_boolean(met), RULES_AUD_PUBLIC);
        rules_log_word(x, "check", "travel.check", RULES_AUD_PUBLIC);
        rules_log_word(x, "met", met ? "travel.met" : "travel.nobody", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    return 0;
}

/* ---- the site clock ---- */

/* The party enters a site: the clock starts at 1 (004:547). */
static int act_enter(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    seti(e->enc, "site", 1);
    rules_log_end(rules_log_begin(e, "enter", "enter"));
    return 0;
}

static int check_site_turn(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (geti(e->enc, "site") < 1)
        return rules_enc_rule(err, "the party is not in a site: enter one first");
    return 0;
}

/* A site turn (004:543-547): the x-in-20 check with x the clock, then the clock goes up by 1, or
 * back to 1 after an encounter ("since the last encounter took place"). Six turns are an hour. */
static int act_site_turn(rules_enc *e, const rules_args *a, tb_err *err)
{
    catch_up(e); /* turns another scene took raise the clock first */
    int x = geti(e->enc, "site");
    json_t *dice = json_array();
    int met = encounter_check(e, x, dice);
    seti(e->enc, "site", met ? 1 : x + 1);
    seti(e->enc, "turns", geti(e->enc, "turns") + 1);
    rules_log *l = rules_log_begin(e, "site_turn", "site_turn");
    rules_log_dice(l, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_int(l, "chance", x, RULES_AUD_PUBLIC);
    rules_log_json(l, "encounter", json_boolean(met), RULES_AUD_PUBLIC);
    rules_log_int(l, "clock", geti(e->enc, "site"), RULES_AUD_PUBLIC);
    rules_log_word(l, "met", met ? "site_turn.met" : "site_turn.nobody", RULES_AUD_PUBLIC);
    rules_log_end(l);
    rules_enc_take_time(e, SITE_TURN_S); /* this turn is counted here, not by catch_up */
    return 0;
}

/* Leaving a site stops the clock. */
static int act_leave(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    seti(e->enc, "site", 0);
    rules_log_end(rules_log_begin(e, "leave", "leave"));
    return 0;
}

/* ---- experience and downtime turns ---- */

static int check_award(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *to = rules_arg_str(a, "target");
    if (rules_enc_stat_peek(e, to, "xp", 0) + rules_arg_int(a, "xp") > XP_MAX)
        return rules_enc_rule(err, "%s would have more than %d experience", rules_enc_name(e, to),
                              XP_MAX);
    return 0;
}

/* The GM awards experience (004:402 "The ways in which characters earn experience depends on the
 * focus of the game"): added to the target's. An NPC's experience is the GM's (its stats are):
 * the table hears the award, its total goes to the GM only (issue 27, item 12). */
static int act_award(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *to = rules_arg_str(a, "target");
    int xp = rules_enc_stat(e, to, "xp", 0) + rules_arg_int(a, "xp");
    rules_enc_stat_set(e, to, "xp", xp);
    rules_aud theirs = rules_enc_aud_of(e, to);
    rules_log *x = rules_log_begin(e, "award", "award");
    rules_log_who(x, "who", to);
    rules_log_int(x, "xp", rules_arg_int(a, "xp"), RULES_AUD_PUBLIC);
    rules_log_int(x, "total", xp, theirs);
    rules_log_end(x);
    return 0;
}

static int check_tennite(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)e;
    if (!fivey_span_named(rules_arg_str(a, "span")))
        return tb_fail(err, TB_BAD_REQUEST,
                       "a downtime round is a tennite, a season or a year (004:574)");
    return 0;
}

/* A downtime round: a tennite of 10 days (004:564), or a season or a year of 3 or 12 of them
 * (004:574: the downtime action then covers them all). Every character may take a downtime
 * action again, inspiration dice are restored to the level (004:144 "restored after each
 * downtime phase"), and each institution offers its line of credit (004:618). */
static int act_tennite(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const fivey_span *span = fivey_span_named(rules_arg_str(a, "span"));
    seti(e->enc, "tennite", geti(e->enc, "tennite") + span->turns);
    json_object_set_new(e->enc, "span", json_string(span->name));
    json_array_clear(fivey_list(e, "downtime"));
    /* its days on the campaign clock, to the start of a day (their new days: catch_up) */
    catch_up(e);
    rules_enc_take_time(e, rules_clock_to_next(e->now_s, RULES_CLOCK_DAY) +
                               (TENNITE_DAYS * span->turns - 1) * RULES_CLOCK_DAY);
    catch_up(e);
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        int lvl = rules_enc_stat(e, cid, "level", 0);
        if (rules_enc_stat(e, cid, "inspiration", 0) < lvl)
            rules_enc_stat_set(e, cid, "inspiration", lvl);
    }
    rules_log *x = rules_log_begin(e, "tennite", span->turns == 1 ? "tennite" : "tennites");
    rules_log_int(x, "tennite", geti(e->enc, "tennite"), RULES_AUD_PUBLIC);
    rules_log_count(x, "turns", span->turns, RULES_AUD_PUBLIC);
    rules_log_count(x, "days", TENNITE_DAYS * span->turns, RULES_AUD_PUBLIC);
    rules_log_end(x);
    fivey_institutions_credit(e); /* 004:618 each institution's line of credit */
    return 0;
}

/* ---- the night's rest (004:549-560) ---- */

static const char *const REST_KINDS[] = {"recover",  "attune", "practice", "cook",
                                         "scavenge", "march",  NULL};

/* Whether cid carries an item of that name: a weapon or a line of the inventory (004:122). A
 * character who joined a scene before the stats held them (an older build's scene) carries
 * whatever it names. */
static int carries(const rules_enc *e, const char *cid, const char *item)
{
    const json_t *st = rules_enc_stats_peek(e, cid);
    if (!json_object_get(st, "inventory") && !json_object_get(st, "weapons"))
        return 1;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(st, "inventory"), i, v)
    {
        if (rules_enc_streq(json_string_value(v), item))
            return 1;
    }
    json_array_foreach(json_object_get(st, "weapons"), i, v)
    {
        if (rules_enc_streq(json_string_value(json_object_get(v, "name")), item))
            return 1;
    }
    return 0;
}

/* Rest actions a night: one (004:549), two with the Sleepwalker feat (004:206 "1 extra rest
 * action per nighttime phase (2 rest actions total)"). */
static int rest_actions(const rules_enc *e, const char *cid)
{
    return fivey_has_feat(e, cid, "Sleepwalker") ? 2 : 1;
}

/* The healing rate's die: d6 (004:553), d8 with the Battle-Hardened feat (004:337 "a base
 * healing rate of 1d8 instead of 1d6"). */
static int healing_die(const rules_enc *e, const char *cid)
{
    return fivey_has_feat(e, cid, "Battle-Hardened") ? 8 : 6;
}

static int check_rest(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *what = rules_arg_str(a, "action");
    if (!fivey_one_of(what, REST_KINDS))
        return tb_fail(err, TB_BAD_REQUEST,
                       "a rest action is recover, attune, practice, cook, "
                       "scavenge or march");
    int nights_actions = rest_actions(e, me);
    if (fivey_listed(e, "rested", me) >= nights_actions)
        return rules_enc_rule(err,
                              nights_actions == 1
                                  ? "%s has already taken tonight's rest action"
                                  : "%s has already taken both of tonight's rest actions "
                                    "(Sleepwalker, 004:206)",
                              rules_enc_name(e, me));
    int lvl = rules_enc_stat_peek(e, me, "level", 0),
        insp = rules_enc_stat_peek(e, me, "inspiration", 0);
    const char *item = rules_arg_str(a, "item");
    if (strcmp(what, "recover") == 0 &&
        geti(json_object_get(rules_enc_stats_peek(e, me), "hp"), "damage") == 0)
        return rules_enc_rule(err, "%s has no damage to recover", rules_enc_name(e, me));
    if (strcmp(what, "practice") == 0 && insp >= lvl)
        return rules_enc_rule(err, "%s already has %d inspiration dice, as many as the level",
                              rules_enc_name(e, me), insp);
    if (strcmp(what, "attune") == 0 && !item)
        return tb_fail(err, TB_BAD_REQUEST, "name the item to attune to (parameter 'item')");
    /* 004:122 one attuned item, which the character carries (the sheet's rule) */
    if (strcmp(what, "attune") == 0 && !carries(e, me, item))
        return rules_enc_rule(err, "%s carries no %.100s to attune to (004:122)",
                              rules_enc_name(e, me), item);
    return 0;
}

/* The night's rest action (004:549-560), one per character per night. */
static int act_rest(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *what = rules_arg_str(a, "action");
    json_t *hp = json_object_get(rules_enc_stats(e, me), "hp");
    int lvl = rules_enc_stat(e, me, "level", 0), insp = rules_enc_stat(e, me, "inspiration", 0);
    const char *item = rules_arg_str(a, "item");
    json_array_append_new(fivey_list(e, "rested"), json_string(me));
    /* an NPC's numbers (hit points, dice, casts) are the GM's: its sheet is (rules/RULES.md) */
    rules_aud mine = rules_enc_aud_of(e, me);
    /* The night's rest gives a caster's spell casts back (reading 12, 004:483). */
    json_t *casts = json_object_get(rules_enc_stats(e, me), "spell_slots");
    if (geti(casts, "used") > 0) {
        rules_enc_stat_put(e, me, "spell_slots/used", json_integer(0));
        rules_log *x = rules_log_begin(e, "rest", "spells_ready");
        rules_log_who(x, "who", me);
        rules_log_int(x, "spell_casts", geti(casts, "max"), mine);
        rules_log_end(x);
    }
    rules_log *x = rules_log_begin(e, "rest", "rest");
    rules_log_who(x, "who", me);
    if (strcmp(what, "recover") == 0) {
        /* 004:553 "Restore hit points equal to your healing rate (usually, 1d6 plus your level)" */
        json_t *dice = json_array();
        int heal = rules_roll_die(e->rng, healing_die(e, me), dice) + lvl;
        int dmg = geti(hp, "damage");
        int left = dmg > heal ? dmg - heal : 0;
        rules_enc_stat_put(e, me, "hp/damage", json_integer(left));
        rules_log_dice(x, dice, mine);
        json_decref(dice);
        rules_log_int(x, "healing", heal, mine);
        rules_log_int(x, "restored", dmg - left, mine);
        rules_log_int(x, "damage", left, mine);
        rules_log_word(x, "does", "rest.recover", RULES_AUD_PUBLIC);
    } else if (strcmp(what, "practice") == 0) {
        /* 004:555 "Restore an inspiration die" (reading: up to the level, 004:144) */
        rules_enc_stat_set(e, me, "inspiration", insp + 1);
        rules_log_int(x, "inspiration", insp + 1, mine);
        rules_log_word(x, "does", "rest.practice", RULES_AUD_PUBLIC);
    } else if (strcmp(what, "attune") == 0) {
        /* 004:554 "Attune to a different item than the one to which you are currently attuned" */
        json_object_set_new(rules_enc_stats(e, me), "attuned", json_string(item));
        rules_log_name(x, "item", item, mine);
        rules_log_word(x, "does", "rest.attune", RULES_AUD_PUBLIC);
    } else if (strcmp(what, "march") == 0) {
        /* 004:527 "negate your rest action ... in exchange up to 4 more hours of travel that
         * day"; reading: the day the party travels next, so march before travelling on */
        seti(e->enc, "limit", geti(e->enc, "limit") + MARCH_HOURS);
        rules_log_int(x, "limit", geti(e->enc, "limit"), RULES_AUD_PUBLIC);
        rules_log_word(x, "does", "rest.march", RULES_AUD_PUBLIC);
    } else {
        rules_log_name(x, "what", what, RULES_AUD_PUBLIC);
        rules_log_word(x, "does", "rest.other", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    return 0;
}

/* ---- experience and levels (004:385-402) ---- */

static int check_cash_in(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *me = e->actor;
    int n = rules_enc_stat_peek(e, me, "inspiration", 0),
        lvl = rules_enc_stat_peek(e, me, "level", 0);
    if (n < 1)
        return rules_enc_rule(err, "%s has no inspiration dice left", rules_enc_name(e, me));
    if (lvl < 1)
        return rules_enc_rule(err, "%s is level 0 and keeps none of the dice",
                              rules_enc_name(e, me));
    if (n > RULES_POOL_MAX)
        return rules_enc_rule(err, "%s holds %d inspiration dice; roll at most %d at once",
                              rules_enc_name(e, me), n, RULES_POOL_MAX);
    return 0;
}

/* Leftover inspiration becomes experience at the end of an adventure (004:402): roll them all,
 * keep as many as the level (the highest), add their sum. */
static int act_cash_in(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor;
    int n = rules_enc_stat(e, me, "inspiration", 0), lvl = rules_enc_stat(e, me, "level", 0);
    rules_pool p;
    json_t *dice = json_array();
    rules_pool_roll(&p, e->rng, n, 6, lvl < n ? lvl : n, RULES_KEEP_HIGHEST, NULL);
    rules_pool_to_json(&p, dice);
    int xp = rules_enc_stat(e, me, "xp", 0) + p.sum_kept;
    rules_enc_stat_set(e, me, "xp", xp);
    rules_enc_stat_set(e, me, "inspiration", 0);
    rules_aud mine = rules_enc_aud_of(e, me); /* an NPC's experience is the GM's */
    rules_log *x = rules_log_begin(e, "cash_in", "cash_in");
    rules_log_dice(x, dice, mine);
    json_decref(dice);
    rules_log_who(x, "who", me);
    rules_log_count(x, "spent", n, mine);
    rules_log_int(x, "gained", p.sum_kept, mine);
    rules_log_int(x, "xp", xp, mine);
    rules_log_end(x);
    return 0;
}

static int check_level_up(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *stat = rules_arg_str(a, "stat");
    int lvl = rules_enc_stat_peek(e, me, "level", 0), xp = rules_enc_stat_peek(e, me, "xp", 0);
    if (!fivey_one_of(stat, FIVEY_STATS))
        return tb_fail(err, TB_BAD_REQUEST, "the stat is str, dex, int or cha");
    if (lvl >= FIVEY_LEVEL_MAX)
        return rules_enc_rule(err, "%s is already level %d, the highest", rules_enc_name(e, me),
                              lvl);
    if (xp < fivey_level_xp(lvl + 1))
        return rules_enc_rule(err, "%s has %d experience; level %d needs %d", rules_enc_name(e, me),
                              xp, lvl + 1, fivey_level_xp(lvl + 1));
    if (fivey_sheet_stat(e, me, stat) >= FIVEY_STAT_MAX)
        return rules_enc_rule(err, "%s's %s is already +%d, the most", rules_enc_name(e, me), stat,
                              FIVEY_STAT_MAX);
    return 0;
}

/* A new level (004:385-400): the experience of the next level reached; +4 hit points, or 1d6 when
 * the player rolls (004:397 "+4 (1d6)"); +1 to one stat, at most +5 (004:399). The healing rate
 * follows the level (004:398, 004:553). */
static int act_level_up(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *stat = rules_arg_str(a, "stat");
    int lvl = rules_enc_stat(e, me, "level", 0);
    json_t *dice = json_array();
    int hp = rules_arg_int(a, "roll") ? rules_roll_die(e->rng, 6, dice) : 4;
    /* 004:337 Battle-Hardened: "gain 1 additional hit point each time they advance" */
    if (fivey_has_feat(e, me, "Battle-Hardened"))
        hp++;
    json_t *st = rules_enc_stats(e, me);
    json_t *stats = json_object_get(st, "stats");
    if (!json_is_object(stats)) {
        stats = json_object();
        json_object_set_new(st, "stats", stats);
    }
    seti(stats, stat, geti(stats, stat) + 1);
    rules_enc_stat_put(e, me, "hp/max", json_integer(geti(json_object_get(st, "hp"), "max") + hp));
    rules_enc_stat_set(e, me, "level", lvl + 1);
    rules_aud mine = rules_enc_aud_of(e, me); /* an NPC's level and numbers are the GM's */
    rules_log *x = rules_log_begin(e, "level_up", "level_up");
    rules_log_dice(x, dice, mine);
    json_decref(dice);
    rules_log_who(x, "who", me);
    rules_log_int(x, "level", lvl + 1, mine);
    rules_log_int(x, "hp", hp, mine);
    rules_log_json(x, "stat", json_string(stat), mine);
    rules_log_name(x, "stat_name", stat, mine);
    rules_log_end(x);
    return 0;
}

/* ---- the module's hooks ---- */

static int between_start(rules_enc *e, const rules_args *options, tb_err *err)
{
    (void)options;
    (void)err;
    seti(e->enc, "day", 1);
    seti(e->enc, "hours", 0);
    seti(e->enc, "limit", DAY_HOURS);
    seti(e->enc, "site", 0);
    seti(e->enc, "turns", 0);
    seti(e->enc, "tennite", 0);
    json_object_set_new(e->enc, "rested", json_array());
    json_object_set_new(e->enc, "downtime", json_array());
    return 0;
}

/* The module's own keys keep their shape (rules_enc_check). */
static int between_check(const rules_enc *e, tb_err *err)
{
    static const char *const INTS[] = {"day", "hours", "limit", "site", "turns", "tennite", NULL};
    for (const char *const *k = INTS; *k; k++)
        if (!json_is_integer(json_object_get(e->enc, *k)))
            return rules_enc_rule(err, "the between-scenes %s is damaged; the GM can end it", *k);
    if (!json_is_array(json_object_get(e->enc, "rested")) ||
        !json_is_array(json_object_get(e->enc, "downtime")))
        return rules_enc_rule(err, "the between-scenes lists are damaged; the GM can end it");
    const json_t *span = json_object_get(e->enc, "span");
    if (span && !fivey_span_named(json_string_value(span)))
        return rules_enc_rule(err,
                              "the between-scenes downtime span is damaged; the GM can end it");
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        /* an NPC's institution is the GM's (fivey_institution): not on its public combatant */
        if (rules_enc_is_npc(e, cid) && json_object_get(rules_enc_combatant(e, cid), "institution"))
            return rules_enc_rule(err,
                                  "%s is the GM's character: its institution is the GM's to "
                                  "set, in the GM's copy",
                                  rules_enc_name(e, cid));
    }
    return 0;
}

/*
 * The clocks follow the campaign clock (RULES.md reading): every day that began since the module
 * last counted is a new day, and inside a site every 10 minutes another scene took (a fight)
 * is a turn that raises the site clock as a turn without an encounter would (no check is rolled
 * for it: the GM rolls the turn being played, site_turn). The time this action took itself is
 * not a site turn (a site turn counts its own).
 */
static void catch_up(rules_enc *e)
{
    long days = rules_clock_periods_between(e->since_s, e->now_s, RULES_CLOCK_DAY);
    long turns = rules_clock_periods_between(e->since_s, e->now_s - e->took_s, SITE_TURN_S);
    e->since_s = e->now_s;
    int x = geti(e->enc, "site");
    if (x >= 1 && turns > 0) {
        int to = x + turns > SITE_MAX ? SITE_MAX : x + (int)turns;
        seti(e->enc, "site", to);
        seti(e->enc, "turns", geti(e->enc, "turns") + (int)(to - x));
        rules_log *l = rules_log_begin(e, "site_turn", "site_time");
        rules_log_int(l, "passed", (int)turns, RULES_AUD_PUBLIC);
        rules_log_int(l, "clock", to, RULES_AUD_PUBLIC);
        rules_log_end(l);
    }
    for (long i = 0; i < days && i < 100000; i++)
        day_begins(e, days > 1);
    if (days > 1) {
        rules_log *l = rules_log_begin(e, "new_day", "days_pass");
        rules_log_int(l, "days", (int)days, RULES_AUD_PUBLIC);
        rules_log_int(l, "day", geti(e->enc, "day"), RULES_AUD_PUBLIC);
        rules_log_end(l);
    }
}

/* The rest actions in the order a player most likely wants them: recovering when hurt,
 * practising when a die is missing, then the others. */
static void choose_rest(const rules_enc *e, const char *me, json_t *out)
{
    static const char *const LABELS[] = {"Recover hit points",
                                         "Attune to another item",
                                         "Practice (an inspiration die back)",
                                         "Cook",
                                         "Scavenge",
                                         "March on (4 more hours of travel)"};
    int hurt = geti(json_object_get(rules_enc_stats_peek(e, me), "hp"), "damage") > 0;
    int short_of_dice =
        rules_enc_stat_peek(e, me, "inspiration", 0) < rules_enc_stat_peek(e, me, "level", 0);
    int first = hurt ? 0 : short_of_dice ? 2 : 3;
    fivey_choice(out, json_string(REST_KINDS[first]), LABELS[first]);
    for (int k = 0; REST_KINDS[k]; k++)
        if (k != first)
            fivey_choice(out, json_string(REST_KINDS[k]), LABELS[k]);
}

/* What cid carries that it may attune to (not the item it is attuned to). */
static void choose_items(const rules_enc *e, const char *me, json_t *out)
{
    const json_t *st = rules_enc_stats_peek(e, me);
    const char *att = json_string_value(json_object_get(st, "attuned"));
    fivey_choice(out, NULL, "nothing");
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(st, "weapons"), i, v)
    {
        const char *s = json_string_value(json_object_get(v, "name"));
        if (s && !rules_enc_streq(s, att))
            fivey_choice(out, json_string(s), s);
    }
    json_array_foreach(json_object_get(st, "inventory"), i, v)
    {
        const char *s = json_string_value(v);
        int dup = 0;
        size_t j;
        json_t *w;
        json_array_foreach(json_object_get(st, "weapons"), j, w) dup |=
            rules_enc_streq(json_string_value(json_object_get(w, "name")), s);
        if (s && !dup && !rules_enc_streq(s, att))
            fivey_choice(out, json_string(s), s);
    }
}

/* The choices of a parameter (encounter.h, "Moves"): the rest actions, what may be attuned, the
 * lifestyles and their activities, the stats, the settlements, who earns experience. */
static int between_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                           const rules_param *p, json_t *out)
{
    const char *act = a->name, *name = p->name;
    if (strcmp(act, "rest") == 0) {
        if (strcmp(name, "action") == 0)
            choose_rest(e, actor, out);
        else
            choose_items(e, actor, out);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "downtime") == 0)
        return fivey_downtime_choices(e, actor, p, out);
    if (strcmp(act, "cast") == 0)
        return fivey_cast_choices(e, actor, p, out);
    if (strcmp(act, "tennite") == 0) {
        const fivey_span *sp;
        for (size_t i = 0; (sp = fivey_span_at(i)); i++)
            fivey_choice(out, json_string(sp->name), sp->label);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "level_up") == 0 && strcmp(name, "stat") == 0) {
        fivey_choose_stats(e, actor, out, 1);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "award") == 0 && strcmp(name, "target") == 0) {
        const char *k;
        for (int npc = 0; npc < 2; npc++)
            for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
                if (rules_enc_is_npc(e, k) == npc)
                    fivey_choice(out, json_string(k), rules_enc_name(e, k));
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "award") == 0 && strcmp(name, "xp") == 0) {
        fivey_choice(out, json_integer(10), "10");
        return RULES_CHOICES_DEFAULT;
    }
    return RULES_CHOICES_NONE;
}
