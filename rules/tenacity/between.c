/*
 * between.c — the tenacity module tenacity.between (rules/encounter.h): what the table does
 * between the fights. Stress recovered at the end of a scene and from healing items, wounds
 * healed day by day under a healer's care, impact actions with a required impact and a round
 * deadline, an explored scene's shared impact pool, crafting and repair progress, the short rest
 * that recovers a 10acity point, and piloting a mount or vehicle. Rulebook
 * 003_632e2c704060b738.txt, cited 003:LINE; readings in rules/RULES.md, tenacity, "Between the
 * scenes (module tenacity.between)".
 *
 * The module's own state:
 *   /enc: day (days passed since the module started),
 *         tasks {<task>: {kind "impact"|"explore"|"craft", skill, need, rounds, challenge_dice,
 *                challenge_bonus, pool (explore: impact left to spend), total (craft),
 *                done (craft), by {<cid>: {impact, tries, done, failed}} (impact)}},
 *         care {<patient cid>: {by: <healer cid>, skill (a PC healer's)}}
 *   /gm/enc: care {<patient cid>: {skill}} (an NPC healer's skill: its sheet is the GM's)
 *   stats: the sheet's stress, wounds, tenacity and recovery (written back), skills as in
 *          tenacity.spotlight (ten_skills_of_sheet).
 * There is no turn order: the GM's moves are RULES_ENC_GM, a player's own RULES_ENC_OWNER.
 */
#include <string.h>

#include "clock.h"
#include "tenacity_enc.h"

#define ROUND_S 6L         /* a round of the spotlight (rules/clock.c reading) */
#define REST_S (10L * 60L) /* 003:76 "a short rest (10 minutes)" */
#define DAY_MAX 100000     /* the day count's editable maximum */

#define CHECK(name) static int chk_##name(const rules_enc *e, const rules_args *a, tb_err *err)
#define RESOLVE(name) static int act_##name(rules_enc *e, const rules_args *a, tb_err *err)
RESOLVE(scene_end);
CHECK(task);
RESOLVE(task);
RESOLVE(advance);
CHECK(work);
RESOLVE(work);
CHECK(spend);
RESOLVE(spend);
CHECK(tend);
RESOLVE(tend);
CHECK(heal_item);
RESOLVE(heal_item);
CHECK(rest);
RESOLVE(rest);
CHECK(pilot);
RESOLVE(pilot);
static int start(rules_enc *e, const rules_args *options, tb_err *err);
static int join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
static int check(const rules_enc *e, tb_err *err);
static void catch_up(rules_enc *e);

#define P_ROLL                                                                                     \
    {"adv", RULES_PARAM_INT, 0, 10, 0, 0, "advantage dice (003:57)"},                              \
    {                                                                                              \
        "bonus", RULES_PARAM_INT, -20, 20, 0, 0, "situational bonus"                               \
    }

static const rules_param P_TASK[] = {
    {"task", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "its name (the cliff)"},
    {"kind", RULES_PARAM_STRING, 5, 7, 0, 0, "impact, explore or craft"},
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "the skill it takes (Athletics)"},
    {"need", RULES_PARAM_INT, 0, 999, 0, 0, "impact required"},
    {"rounds", RULES_PARAM_INT, 0, 99, 0, 0, "rounds before the deadline (0: none)"},
    {"challenge_dice", RULES_PARAM_INT, 0, 10, 2, 0, "challenge d6s"},
    {"challenge_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "challenge bonus"},
    {0},
};
static const rules_param P_WORK[] = {
    {"task", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "which task"},
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "the skill rolled (the task's)"},
    P_ROLL,
    {"crit", RULES_PARAM_STRING, 4, 6, 0, 0, "natural 10: hero or impact (003:28)"},
    {0},
};
static const rules_param P_SPEND[] = {
    {"task", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "the explored scene"},
    {"cost", RULES_PARAM_INT, 1, 99, 0, RULES_PARAM_REQUIRED, "impact the option costs"},
    {"what", RULES_PARAM_STRING, 1, 80, 0, RULES_PARAM_REQUIRED, "the option learned about"},
    {0},
};
static const rules_param P_TEND[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "the wounded character"},
    {"skill", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "the healer's skill (Medicine)"},
    {0},
};
static const rules_param P_HEAL_ITEM[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "who is healed (yourself)"},
    {"stress", RULES_PARAM_INT, 1, 99, 0, RULES_PARAM_REQUIRED, "stress the item recovers"},
    {"what", RULES_PARAM_STRING, 1, 60, 0, 0, "the item"},
    {0},
};
static const rules_param P_PILOT[] = {
    {"vehicle", RULES_PARAM_INT, 0, TENACITY_RANK_MAX, 0, RULES_PARAM_REQUIRED,
     "the vehicle's maneuverability rank"},
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "the skill (Pilot)"},
    {"challenge_dice", RULES_PARAM_INT, 0, 10, 2, 0, "challenge d6s"},
    {"challenge_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "challenge bonus"},
    P_ROLL,
    {0},
};
static const rules_param P_DAYS[] = {
    {"days", RULES_PARAM_INT, 1, 30, 1, 0, "days that pass"},
    {0},
};
static const rules_param P_NONE[] = {{0}};

static const rules_enc_action ACTIONS[] = {
    {"scene_end", "End the scene: stress recovered", RULES_ENC_GM, P_NONE, act_scene_end, "003:74",
     NULL},
    {"task", "Set a task", RULES_ENC_GM, P_TASK, act_task, "003:63, 003:64, 003:69", chk_task},
    {"advance", "A day passes", RULES_ENC_GM, P_DAYS, act_advance, "003:74", NULL},
    {"work", "Work on the task", RULES_ENC_OWNER, P_WORK, act_work, "003:63, 003:64, 003:69",
     chk_work},
    {"spend", "Spend the pool", RULES_ENC_OWNER, P_SPEND, act_spend, "003:64", chk_spend},
    {"tend", "Tend a wounded friend", RULES_ENC_OWNER, P_TEND, act_tend, "003:74", chk_tend},
    {"heal_item", "Use a healing item", RULES_ENC_OWNER, P_HEAL_ITEM, act_heal_item, "003:74",
     chk_heal_item},
    {"rest", "Short rest: 1 10acity", RULES_ENC_OWNER, P_NONE, act_rest, "003:76", chk_rest},
    {"pilot", "Pilot", RULES_ENC_OWNER, P_PILOT, act_pilot, "003:77-78", chk_pilot, RULES_ENC_RARE},
    {0},
};

/* What the GM fixes by hand: the healing tracks and the day count. */
static const rules_enc_field EDITABLE[] = {
    {"stats/stress/current", RULES_PARAM_INT, 0, 999, "stress"},
    {"stats/wounds/current", RULES_PARAM_INT, 0, 999, "wounds"},
    {"stats/recovery", RULES_PARAM_INT, 0, 999, "wound recovery"},
    {"stats/tenacity", RULES_PARAM_INT, 0, 99, "10acity points"},
    {"/enc/day", RULES_PARAM_INT, 0, 100000, "day"},
    {NULL, 0, 0, 0, NULL},
};

/* Stress, wounds, recovery and 10acity land on the sheets (003:74, 003:76). */
static const char *const SHEET_STATS[] = {"stress", "wounds", "tenacity", "recovery", NULL};

/* What outlives the scene (RULES.md, "Between the scenes: what carries over"): the day count,
 * the tasks with their progress and who is in whose care. */
static const char *const CARRY[] = {"day", "tasks", "care", NULL};
static const char *const CARRY_GM[] = {"care", NULL}; /* an NPC healer's skill */

const rules_module rules_module_tenacity_between = {
    .id = "tenacity.between",
    .system = "tenacity",
    .name = "Between the scenes",
    .cite = "003:63-64, 003:69, 003:74-78",
    .start = start,
    .join = join,
    .actions = ACTIONS,
    .choices = ten_choices,
    .phrases = ten_phrases_between,
    .sheet_stats = SHEET_STATS,
    .editable = EDITABLE,
    .check = check,
    .carry = CARRY,
    .carry_gm = CARRY_GM,
    .catch_up = catch_up,
};

/* ---- small helpers ---- */

/* The object /enc/<key> (created if missing). Borrowed. */
static json_t *obj(rules_enc *e, const char *key)
{
    json_t *o = json_object_get(e->enc, key);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(e->enc, key, o);
    }
    return o;
}

static int geti(const json_t *o, const char *k)
{
    return (int)json_integer_value(json_object_get(o, k));
}

static void seti(json_t *o, const char *k, int v)
{
    json_object_set_new(o, k, json_integer(v));
}

/* cid's track {current, max} `key` (borrowed; created empty if missing). */
static json_t *track(rules_enc *e, const char *cid, const char *key)
{
    return ten_track(e, cid, key, 0);
}

/* The task named by parameter "task", or NULL. */
static json_t *task_of(const rules_enc *e, const rules_args *a)
{
    json_t *t = json_object_get(json_object_get(e->enc, "tasks"), rules_arg_str(a, "task"));
    return json_is_object(t) ? t : NULL;
}

/* 0 when parameter "task" names a task, else TB_NOT_FOUND naming it. */
static int require_task(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (!task_of(e, a))
        return tb_fail(err, TB_NOT_FOUND, "there is no task called '%.40s': the GM sets it first",
                       rules_arg_str(a, "task"));
    return 0;
}

static const char *kind_of(const json_t *task)
{
    return json_string_value(json_object_get(task, "kind"));
}

/* Rolls the narrator's challenge dice (003:13-14: n d6 + bonus) into dice; returns the total. */
static int challenge_roll(rules_enc *e, int n, int bonus, json_t *dice)
{
    int sum = bonus;
    for (int i = 0; i < n; i++) {
        sum += rules_roll_die(e->rng, 6, dice);
        json_t *d = json_array_get(dice, json_array_size(dice) - 1);
        json_object_set_new(d, "role", json_string("challenge"));
    }
    return sum;
}

/* ---- the GM's moves ---- */

/* 003:74 "Stress is recovered automatically at the end of a scene": every character's stress
 * goes back to 0. */
RESOLVE(scene_end)
{
    (void)a;
    (void)err;
    ten_recover_stress(e, "scene_end");
    rules_log_end(rules_log_begin(e, "scene_end", "scene_end"));
    return 0;
}

static const char *const KINDS[] = {"impact", "explore", "craft", NULL};

static const char *task_kind(const rules_args *a)
{
    return rules_arg_given(a, "kind") ? rules_arg_str(a, "kind") : "impact";
}

/* The GM sets a task: an impact action with a required impact and a deadline in rounds (003:63),
 * a scene to explore with a shared impact pool (003:64), or an item to craft or repair to a
 * required impact (003:69). The challenge is the narrator's challenge dice (003:13). */
CHECK(task)
{
    const char *name = rules_arg_str(a, "task"), *kind = task_kind(a);
    int k = 0;
    while (KINDS[k] && strcmp(KINDS[k], kind) != 0)
        k++;
    if (!KINDS[k])
        return tb_fail(err, TB_BAD_REQUEST,
                       "a task is an impact action, a scene to explore or "
                       "an item to craft (kind impact, explore or craft)");
    if (strcmp(kind, "explore") != 0 && rules_arg_int(a, "need") < 1)
        return tb_fail(err, TB_BAD_REQUEST,
                       "say how much impact '%.40s' needs (parameter 'need', at least 1)", name);
    if (json_object_get(json_object_get(e->enc, "tasks"), name))
        return rules_enc_rule(err, "there is already a task called '%.40s'", name);
    return 0;
}

RESOLVE(task)
{
    const char *name = rules_arg_str(a, "task"), *kind = task_kind(a);
    int need = rules_arg_int(a, "need");
    json_t *t =
        json_pack("{s:s, s:i, s:i, s:i, s:i}", "kind", kind, "need", need, "rounds",
                  rules_arg_int(a, "rounds"), "challenge_dice", rules_arg_int(a, "challenge_dice"),
                  "challenge_bonus", rules_arg_int(a, "challenge_bonus"));
    if (rules_arg_given(a, "skill"))
        json_object_set_new(t, "skill", json_string(rules_arg_str(a, "skill")));
    if (strcmp(kind, "explore") == 0)
        seti(t, "pool", 0);
    else if (strcmp(kind, "craft") == 0) {
        seti(t, "total", 0);
        json_object_set_new(t, "done", json_false());
    } else
        json_object_set_new(t, "by", json_object());
    json_object_set_new(obj(e, "tasks"), name, t);
    int impact = strcmp(kind, "impact") == 0, craft = strcmp(kind, "craft") == 0;
    int deadline = impact && geti(t, "rounds") > 0;
    rules_log *x = rules_log_begin(e, "task",
                                   deadline ? "task_deadline"
                                   : impact ? "task_impact"
                                   : craft  ? "task_craft"
                                            : "task_explore");
    rules_log_name(x, "task", name, RULES_AUD_PUBLIC);
    if (strcmp(kind, "explore") != 0)
        rules_log_int(x, "need", need, RULES_AUD_PUBLIC);
    if (deadline)
        rules_log_int(x, "rounds", geti(t, "rounds"), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* One day of a healer's care of patient (003:74): the healer's skill impact roll is added to the
 * patient's recovery; 5 x current wounds of recovery heal one wound, the rest carries over (a
 * reading: the book's 15 + 10 + 5 = 30 only adds up when nothing is lost). Returns 1 when the
 * patient has no wound left. */
static int care_day(rules_enc *e, const char *patient, const char *healer, const char *skill)
{
    json_t *dice = json_array();
    ten_side s;
    ten_side_for_impact(e, healer, skill, &s);
    int got = ten_impact_roll(e, &s, 0, 0, dice);
    json_t *w = track(e, patient, "wounds");
    int rec = rules_enc_stat(e, patient, "recovery", 0) + got, healed = 0;
    /* 003:74 "It requires five (5) times a character's current amount of wound in recovery to
     * heal one point of wound." */
    while (geti(w, "current") > 0 && rec >= tenacity_wound_recovery(geti(w, "current"))) {
        rec -= tenacity_wound_recovery(geti(w, "current"));
        seti(w, "current", geti(w, "current") - 1);
        healed++;
    }
    if (geti(w, "current") == 0)
        rec = 0;
    rules_enc_stat_set(e, patient, "recovery", rec);
    /* the healer's dice are the healer's; what the day did is the patient's (a PC's recovery is
     * open, an NPC's the GM's) */
    rules_aud aud = rules_enc_aud_of(e, patient);
    rules_log *x = rules_log_begin(e, "care", "care");
    rules_log_who(x, "healer", healer);
    rules_log_who(x, "who", patient);
    rules_log_dice(x, dice, rules_enc_aud_of(e, healer));
    json_decref(dice);
    rules_log_int(x, "recovery", rec, aud);
    rules_log_int(x, "rolled", got, aud);
    rules_log_int(x, "wounds", geti(w, "current"), aud);
    rules_log_int(x, "healed", healed, aud);
    if (geti(w, "current") > 0)
        rules_log_int(x, "needed", tenacity_wound_recovery(geti(w, "current")), aud);
    rules_log_count(x, "next", tenacity_wound_recovery(geti(w, "current")), aud);
    rules_log_word(x, "day", healed ? "care.healed" : "care.progress", aud);
    if (healed != 1)
        rules_log_word(x, "s", "w.s", aud);
    rules_log_end(x);
    return geti(w, "current") == 0;
}

/* The skill patient's healer tends with: a PC healer's is on the table (/enc/care), an NPC's is
 * the GM's (/gm/enc/care). */
static const char *care_skill(const rules_enc *e, const char *patient)
{
    json_t *c = json_object_get(json_object_get(e->enc, "care"), patient);
    const char *skill = json_string_value(json_object_get(c, "skill"));
    return skill ? skill
                 : json_string_value(json_object_get(
                       json_object_get(json_object_get(e->hidden, "care"), patient), "skill"));
}

/* A day passes: every healer rolls for their patient (003:74 "each day"). */
static void day_passes(rules_enc *e)
{
    json_t *care = obj(e, "care");
    if (geti(e->enc, "day") >= DAY_MAX)
        return;
    seti(e->enc, "day", geti(e->enc, "day") + 1);
    rules_log *x = rules_log_begin(e, "advance", "day");
    rules_log_int(x, "day", geti(e->enc, "day"), RULES_AUD_PUBLIC);
    rules_log_end(x);
    const char *patient;
    json_t *c, *tmp;
    json_object_foreach_safe(care, tmp, patient, c)
    {
        const char *healer = json_string_value(json_object_get(c, "by"));
        if (!rules_enc_combatant(e, healer) || !rules_enc_combatant(e, patient) ||
            care_day(e, patient, healer, care_skill(e, patient))) {
            if (rules_enc_combatant(e, patient))
                ten_say(e, "care", "care_done", patient);
            json_object_del(json_object_get(e->hidden, "care"), patient);
            json_object_del(care, patient);
        }
    }
}

/* The days follow the campaign clock (RULES.md reading): every day that began since the module
 * last counted passes, also when another scene (a fight) took the time. */
static void catch_up(rules_enc *e)
{
    long days = rules_clock_periods_between(e->since_s, e->now_s, RULES_CLOCK_DAY);
    e->since_s = e->now_s;
    for (long d = 0; d < days && d < DAY_MAX; d++)
        day_passes(e);
}

/* Days pass (GM): the clock runs on to the start of the day `days` days on. */
RESOLVE(advance)
{
    (void)err;
    catch_up(e); /* a day another scene began is not skipped */
    rules_enc_take_time(e, rules_clock_to_next(e->now_s, RULES_CLOCK_DAY) +
                               (rules_arg_int(a, "days") - 1) * RULES_CLOCK_DAY);
    catch_up(e);
    return 0;
}

/* ---- a player's own moves ---- */

/* The skill a try at the task rolls: `skill`, or the task's. */
static const char *work_skill(const rules_args *a, const json_t *task)
{
    return rules_arg_given(a, "skill") ? rules_arg_str(a, "skill")
                                       : json_string_value(json_object_get(task, "skill"));
}

/* Work on a task (003:63, 003:64, 003:69): the skill against the narrator's challenge dice; on a
 * success the skill's impact counts. */
CHECK(work)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    if (require_task(e, a, err))
        return err->code;
    json_t *t = task_of(e, a);
    const char *name = rules_arg_str(a, "task"), *kind = kind_of(t), *me = e->actor;
    const char *skill = work_skill(a, t);
    if (strcmp(kind, "craft") == 0 && json_is_true(json_object_get(t, "done")))
        return rules_enc_rule(err, "%.40s is already finished", name);
    if (strcmp(kind, "impact") == 0) {
        json_t *mine = json_object_get(json_object_get(t, "by"), me);
        if (json_is_true(json_object_get(mine, "done")))
            return rules_enc_rule(err, "%s has already made it (%.40s)", rules_enc_name(e, me),
                                  name);
        if (json_is_true(json_object_get(mine, "failed")))
            return rules_enc_rule(err, "%s ran out of time on %.40s", rules_enc_name(e, me), name);
    }
    if (!skill)
        return tb_fail(err, TB_BAD_REQUEST, "name the skill %s rolls (parameter 'skill')",
                       rules_enc_name(e, me));
    if (ten_roll_params(a, err)) /* crit: hero or impact, before any die */
        return err->code;
    return ten_skill_check(e, me, skill, err);
}

RESOLVE(work)
{
    json_t *t = task_of(e, a);
    const char *name = rules_arg_str(a, "task"), *kind = kind_of(t), *me = e->actor;
    const char *skill = work_skill(a, t);
    json_t *mine = NULL;
    if (strcmp(kind, "impact") == 0) {
        json_t *by = json_object_get(t, "by");
        mine = json_object_get(by, me);
        if (!mine) {
            mine =
                json_pack("{s:i, s:i, s:b, s:b}", "impact", 0, "tries", 0, "done", 0, "failed", 0);
            json_object_set_new(by, me, mine);
        }
    }
    json_t *dice = json_array();
    ten_side s;
    ten_roll(e, me, skill, rules_arg_int(a, "adv"), rules_arg_int(a, "bonus"), "skill", dice, &s);
    int ch = challenge_roll(e, geti(t, "challenge_dice"), geti(t, "challenge_bonus"), dice);
    /* 003:28 "on any of your hero dice": a natural 10 is a critical between the scenes too
     * (reading 5) */
    char took[8];
    int crit_die = ten_crit(e, &s, rules_arg_str(a, "crit"), ch, dice, took);
    int ok = tenacity_beats(s.total, ch); /* 003:8, 003:20: ties to the challenge */
    int impact = ok ? ten_impact_roll(e, &s, crit_die, 0, dice) : 0;
    /* the task, its challenge and its progress are open (RULES.md); what an NPC rolls with and
     * its total are the GM's */
    rules_aud aud = rules_enc_aud_of(e, me);
    rules_log *x = rules_log_begin(e, "work", "work");
    rules_log_who(x, "who", me);
    rules_log_dice_by(x, dice, "by", RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_int(x, "total", s.total, aud);
    rules_log_int(x, "challenge", ch, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_int(x, "impact", impact, RULES_AUD_PUBLIC);
    if (took[0])
        rules_log_json(x, "crit", json_string(took), aud);
    rules_log_word(x, "roll", "work.roll", aud);
    if (strcmp(skill, "-") != 0) /* a sheetless NPC's challenge dice */
        rules_log_name(x, "skill", skill, aud);
    rules_log_name(x, "task", name, RULES_AUD_PUBLIC);
    if (strcmp(kind, "impact") == 0) {
        /* 003:63 "Any character that can't generate the 5 points of athletic movement impact
         * within the required 3 rounds would then be caught": each character's own impact, one
         * try per round */
        seti(mine, "tries", geti(mine, "tries") + 1);
        rules_enc_take_time(e, ROUND_S); /* one try a round, on the campaign clock */
        seti(mine, "impact", geti(mine, "impact") + impact);
        int need = geti(t, "need"), rounds = geti(t, "rounds");
        rules_log_int(x, "progress", geti(mine, "impact"), RULES_AUD_PUBLIC);
        rules_log_int(x, "need", need, RULES_AUD_PUBLIC);
        const char *tail = "work.progress";
        if (geti(mine, "impact") >= need) {
            json_object_set_new(mine, "done", json_true());
            tail = "work.done";
        } else if (rounds > 0 && geti(mine, "tries") >= rounds) {
            json_object_set_new(mine, "failed", json_true());
            tail = "work.late";
        }
        rules_log_word(x, "tail", tail, RULES_AUD_PUBLIC);
    } else if (strcmp(kind, "explore") == 0) {
        /* 003:64 "This becomes your pool of impact points ... For every character aiding ...
         * that succeeds their check, they too roll their impact dice and add that total" */
        seti(t, "pool", geti(t, "pool") + impact);
        rules_log_int(x, "pool", geti(t, "pool"), RULES_AUD_PUBLIC);
        rules_log_word(x, "tail", "work.pool", RULES_AUD_PUBLIC);
    } else {
        /* 003:69 "If successful, the skill's impact dice are rolled and that is how much progress
         * is made ... Once the total amount of impact is over the impact requirement of the
         * item, the item is complete." (reading: reaching the requirement completes it) */
        seti(t, "total", geti(t, "total") + impact);
        rules_log_int(x, "progress", geti(t, "total"), RULES_AUD_PUBLIC);
        rules_log_int(x, "need", geti(t, "need"), RULES_AUD_PUBLIC);
        int done = geti(t, "total") >= geti(t, "need");
        json_object_set_new(t, "done", json_boolean(done));
        rules_log_word(x, "tail", "work.craft", RULES_AUD_PUBLIC);
        if (done)
            rules_log_word(x, "finished", "work.finished", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    return 0;
}

/* Spend from an explored scene's pool on one of the options the narrator named (003:64). */
CHECK(spend)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    if (require_task(e, a, err))
        return err->code;
    json_t *t = task_of(e, a);
    const char *name = rules_arg_str(a, "task");
    if (strcmp(kind_of(t), "explore") != 0)
        return rules_enc_rule(err, "%.40s is not a scene to explore: there is no pool to spend",
                              name);
    int cost = rules_arg_int(a, "cost"), pool = geti(t, "pool");
    if (cost > pool)
        return rules_enc_rule(err, "the pool of %.40s holds %d impact, not %d", name, pool, cost);
    return 0;
}

RESOLVE(spend)
{
    json_t *t = task_of(e, a);
    int cost = rules_arg_int(a, "cost"), pool = geti(t, "pool");
    seti(t, "pool", pool - cost);
    rules_log *x = rules_log_begin(e, "spend", "spend");
    rules_log_who(x, "who", e->actor);
    rules_log_int(x, "cost", cost, RULES_AUD_PUBLIC);
    rules_log_int(x, "pool", pool - cost, RULES_AUD_PUBLIC);
    rules_log_name(x, "what", rules_arg_str(a, "what"), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* A healer takes a wounded character into care (003:74); the daily rolls come with the GM's
 * advance. */
CHECK(tend)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    const char *target = rules_arg_str(a, "target"), *skill = rules_arg_str(a, "skill");
    if (ten_skill_check(e, e->actor, skill, err))
        return err->code;
    if (ten_track_now(e, target, "wounds") < 1)
        return rules_enc_rule(err, "%s has no wound to heal", rules_enc_name(e, target));
    json_t *sk = json_object_get(ten_skills(e, e->actor), skill);
    if (sk && tenacity_impact_dice((int)json_integer_value(json_array_get(sk, 1))) < 1 &&
        json_integer_value(json_array_get(sk, 2)) < 1)
        return rules_enc_rule(err, "%s's %s rolls no impact die (rank 2 or more is needed)",
                              rules_enc_name(e, e->actor), skill);
    return 0;
}

RESOLVE(tend)
{
    const char *target = rules_arg_str(a, "target"), *skill = rules_arg_str(a, "skill");
    /* the care is open (who tends whom); the skill an NPC tends with is on its GM-only sheet */
    rules_aud aud = rules_enc_aud_of(e, e->actor);
    json_t *care = json_pack("{s:s}", "by", e->actor);
    if (aud == RULES_AUD_PUBLIC)
        json_object_set_new(care, "skill", json_string(skill));
    else {
        json_t *hidden = json_object_get(e->hidden, "care");
        if (!json_is_object(hidden)) {
            hidden = json_object();
            json_object_set_new(e->hidden, "care", hidden);
        }
        json_object_set_new(hidden, target, json_pack("{s:s}", "skill", skill));
    }
    json_object_set_new(obj(e, "care"), target, care);
    rules_log *x = rules_log_begin(e, "tend", "tend");
    rules_log_who(x, "who", e->actor);
    rules_log_who(x, "target", target);
    rules_log_word(x, "skill_w", "tend.skill", aud);
    rules_log_name(x, "skill", skill, aud);
    rules_log_end(x);
    return 0;
}

/* A healing item or ability removes stress at once (003:74 "or can be recovered instantly during
 * a scene via healing items or special abilities"). */
static const char *healed_one(const rules_enc *e, const rules_args *a)
{
    return rules_arg_given(a, "target") ? rules_arg_str(a, "target") : e->actor;
}

CHECK(heal_item)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    const char *target = healed_one(e, a);
    if (ten_track_now(e, target, "stress") == 0)
        return rules_enc_rule(err, "%s has no stress to recover", rules_enc_name(e, target));
    return 0;
}

RESOLVE(heal_item)
{
    const char *target = healed_one(e, a);
    json_t *st = track(e, target, "stress");
    int was = geti(st, "current"), n = rules_arg_int(a, "stress");
    seti(st, "current", was > n ? was - n : 0);
    /* the stress is the target's: an NPC's is the GM's */
    rules_aud aud = rules_enc_aud_of(e, target);
    rules_log *x = rules_log_begin(e, "heal_item", "heal_item");
    rules_log_who(x, "who", e->actor);
    rules_log_who(x, "target", target);
    rules_log_name(x, "item",
                   rules_arg_given(a, "what") ? rules_arg_str(a, "what") : "a healing item",
                   RULES_AUD_PUBLIC);
    rules_log_int(x, "recovered", was - geti(st, "current"), aud);
    rules_log_int(x, "stress", geti(st, "current"), aud);
    rules_log_word(x, "left", "heal_item.left", aud);
    rules_log_end(x);
    return 0;
}

/* 003:76 "if your character has no 10acity left, they can take a short rest (10 minutes) to
 * recover one (1) 10acity point ... only when the character has no 10acity." */
CHECK(rest)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    (void)a;
    int t = ten_stat(e, e->actor, "tenacity", 0);
    if (t > 0)
        return rules_enc_rule(err,
                              "%s still has %d 10acity: a short rest recovers one only when "
                              "none is left",
                              rules_enc_name(e, e->actor), t);
    return 0;
}

RESOLVE(rest)
{
    rules_enc_stat_set(e, e->actor, "tenacity", 1);
    rules_enc_take_time(e, REST_S);
    rules_log *x = rules_log_begin(e, "rest", "rest");
    rules_log_who(x, "who", e->actor);
    rules_log_int(x, "tenacity", 1, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* Piloting a mount or vehicle (003:77-78): the Dexterity dice with the lower of skill and vehicle
 * rank plus 1 per 2 ranks of difference (tenacity_pilot_bonus) instead of the skill rank,
 * against the narrator's challenge dice. */
static const char *pilot_skill(const rules_args *a)
{
    return rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Pilot";
}

CHECK(pilot)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    return ten_skill_check(e, e->actor, pilot_skill(a), err);
}

RESOLVE(pilot)
{
    const char *skill = pilot_skill(a);
    json_t *sk = json_object_get(ten_skills(e, e->actor), skill);
    int rank = (int)json_integer_value(json_array_get(sk, 1));
    int vehicle = rules_arg_int(a, "vehicle");
    int pb = sk ? tenacity_pilot_bonus(rank, vehicle) : 0;
    json_t *dice = json_array();
    ten_side s;
    ten_roll(e, e->actor, skill, rules_arg_int(a, "adv"), rules_arg_int(a, "bonus") + pb - rank,
             "skill", dice, &s);
    int ch = challenge_roll(e, rules_arg_int(a, "challenge_dice"),
                            rules_arg_int(a, "challenge_bonus"), dice);
    /* 003:28 a natural 10: piloting is pass/fail (no impact to add to), so the critical's die is
     * the hero die, rolled when the roll fails without it (reading 5) */
    char took[8];
    ten_crit(e, &s, NULL, ch, dice, took);
    int ok = tenacity_beats(s.total, ch);
    /* the outcome is open; an NPC's rank (in its pilot bonus), dice and total are the GM's */
    rules_aud aud = rules_enc_aud_of(e, e->actor);
    rules_log *x = rules_log_begin(e, "pilot", "pilot");
    rules_log_who(x, "who", e->actor);
    rules_log_dice_by(x, dice, "by", RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_int(x, "pilot_bonus", pb, aud);
    rules_log_int(x, "total", s.total, aud);
    rules_log_int(x, "challenge", ch, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    if (strcmp(took, "hero") == 0)
        rules_log_json(x, "crit", json_string(took), aud);
    rules_log_count(x, "vehicle", vehicle, aud);
    rules_log_word(x, "detail", "pilot.detail", aud);
    rules_log_word(x, "outcome", ok ? "pilot.success" : "pilot.failure", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- the module's hooks ---- */

static int start(rules_enc *e, const rules_args *options, tb_err *err)
{
    (void)options;
    (void)err;
    seti(e->enc, "day", 0);
    json_object_set_new(e->enc, "tasks", json_object());
    json_object_set_new(e->enc, "care", json_object());
    return 0;
}

static int join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)err;
    if (sheet)
        json_object_set_new(rules_enc_stats(e, cid), "skills", ten_skills_of_sheet(sheet));
    return 0;
}

/* The module's own keys keep their shape (rules_enc_check). */
static int check(const rules_enc *e, tb_err *err)
{
    json_t *tasks = json_object_get(e->enc, "tasks"), *care = json_object_get(e->enc, "care");
    if ((tasks && !json_is_object(tasks)) || (care && !json_is_object(care)))
        return rules_enc_rule(err, "the between-scenes tasks or care list is damaged; the GM can "
                                   "end it");
    const char *k;
    json_t *t;
    json_object_foreach(tasks, k, t)
    {
        const char *kind = json_string_value(json_object_get(t, "kind"));
        if (!kind || (strcmp(kind, "impact") == 0 && !json_is_object(json_object_get(t, "by"))))
            return rules_enc_rule(err, "task '%.40s' is damaged; the GM can end it", k);
    }
    return 0;
}
