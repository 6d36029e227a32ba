/*
 * between.c — heimr.between, what a Heimr table does between the scenes (rules/encounter.h;
 * rulebook 001_660a93111b0de833.txt, cited 001:LINE): short rests, XP from the GM split among
 * the characters present, training an ability with that XP (and the attribute progress it
 * brings), and the environment's crossing, climbing and falling challenges.
 *
 * It is an encounter module with no turn order: the GM starts it with enc.start, adds the
 * characters present with enc.add, and every move is an enc.act — the GM's (award XP, call a
 * rest for everyone) or a player's own (rest, train, cross, fall). Results land on the sheets
 * through sheet_stats (server/ops_enc.c write_back). Only PCs take part; everything here is
 * public (a sheet is public).
 *
 * Keys it adds: /enc/xp_carry (XP left over from the last split, carried to the next award,
 * 001:217). Readings: rules/RULES.md, "heimr", "Between the scenes (module heimr.between)".
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "heimr_enc.h"

#define XP_AWARD_MAX 100000 /* one award; the sheet holds up to 1000000 */
#define SHEET_XP_MAX 1000000
#define TRAINING_MAX 10   /* the sheet's trained_consistency/trained_potential maximum */
#define ATTR_MAX 10       /* the sheet's attribute maximum */
#define REST_S (5L * 60L) /* 001:149 "at least five minutes of in character time" */
#define BREATH_S 30L      /* 001:292 "up to half a minute or so maximum" */

/* ---- the actions ---- */

static int check_pc(const rules_enc *e, const rules_args *a, tb_err *err);
static int check_rest(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_rest(rules_enc *e, const rules_args *a, tb_err *err);
static int check_rest_all(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_rest_all(rules_enc *e, const rules_args *a, tb_err *err);
static int check_breather(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_breather(rules_enc *e, const rules_args *a, tb_err *err);
static int check_challenge(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_challenge(rules_enc *e, const rules_args *a, tb_err *err);
static int check_reroll(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_reroll(rules_enc *e, const rules_args *a, tb_err *err);
static int check_award(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_award(rules_enc *e, const rules_args *a, tb_err *err);
static int check_train(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_train(rules_enc *e, const rules_args *a, tb_err *err);
static int act_cross(rules_enc *e, const rules_args *a, tb_err *err);
static int act_fall(rules_enc *e, const rules_args *a, tb_err *err);

static const rules_param P_NONE[] = {{0}};
static const rules_param P_CHALLENGE[] = {
    {"ability", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED,
     "the ability rolled (from the sheet)"},
    {"cr", RULES_PARAM_INT, 0, 40, 0, RULES_PARAM_REQUIRED,
     "the challenge requirement the GM gives (001:109)"},
    {"penalty", RULES_PARAM_INT, 0, 20, 0, 0, "situational penalty on consistency (001:103)"},
    {0},
};
static const rules_param P_AWARD[] = {
    {"xp", RULES_PARAM_INT, 1, XP_AWARD_MAX, 0, RULES_PARAM_REQUIRED,
     "XP the encounter was worth, shared by everyone present"},
    {0},
};
static const rules_param P_TRAIN[] = {
    {"ability", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "the ability to train"},
    {"kind", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED, "consistency or potential"},
    {"attribute", RULES_PARAM_STRING, 1, 3, 0, 0,
     "which attribute gains progress, when the ability has several"},
    {0},
};
static const rules_param P_FALL[] = {
    {"height", RULES_PARAM_INT, 2, 30, 0, RULES_PARAM_REQUIRED, "the height fallen from"},
    {"jump", RULES_PARAM_BOOL, 0, 1, 0, 0, "a jump on purpose (easier than a fall)"},
    {0},
};
static const rules_param P_CROSS[] = {
    {"cr", RULES_PARAM_INT, 0, 40, 0, RULES_PARAM_REQUIRED,
     "the challenge requirement the GM gives"},
    {"height", RULES_PARAM_INT, 0, 30, 0, 0, "for a climb: the height to reach"},
    {0},
};

static const rules_enc_action ACTIONS[] = {
    {"rest", "Take a short rest", RULES_ENC_OWNER, P_NONE, act_rest, "001:145-149,164", check_rest},
    {"rest_all", "Call a short rest", RULES_ENC_GM, P_NONE, act_rest_all, "001:145-149,164",
     check_rest_all},
    {"breather", "Catch your breath", RULES_ENC_OWNER, P_NONE, act_breather, "001:292",
     check_breather},
    {"challenge", "Roll against a challenge", RULES_ENC_OWNER, P_CHALLENGE, act_challenge,
     "001:105-113", check_challenge},
    {"reroll", "Try again (one willpower)", RULES_ENC_OWNER, P_NONE, act_reroll, "001:113",
     check_reroll},
    {"award", "Award XP", RULES_ENC_GM, P_AWARD, act_award, "001:217", check_award},
    {"train", "Train an ability", RULES_ENC_OWNER, P_TRAIN, act_train, "001:219-232", check_train},
    {"cross", "Cross or climb", RULES_ENC_OWNER, P_CROSS, act_cross, "001:494,519-535", check_pc,
     RULES_ENC_RARE},
    {"fall", "Fall or jump down", RULES_ENC_OWNER, P_FALL, act_fall, "001:521", check_pc,
     RULES_ENC_RARE},
    {0},
};

/* ---- reading the combatant's sheet copy (its stats) ---- */

static int stat_attr(const rules_enc *e, const char *cid, const char *name)
{
    json_t *a = json_object_get(heimr_stats_of(e, cid), "attributes");
    return (int)json_integer_value(json_object_get(a, name));
}

/* The ability object named `name` (any case) in cid's sheet copy, or NULL. */
static json_t *find_ability(const rules_enc *e, const char *cid, const char *name)
{
    size_t i;
    json_t *ab;
    json_array_foreach(json_object_get(heimr_stats_of(e, cid), "abilities"), i, ab)
    {
        const char *n = json_string_value(json_object_get(ab, "name"));
        if (n && strcasecmp(n, name) == 0)
            return ab;
    }
    return NULL;
}

/* The consistency, potential and whether it is physical of ability `name` for cid: the sheet's
 * ability when it lists it (base + trained, 001:176-177; base potential the average of its
 * attributes, 001:191-193; physical with one physical attribute, 001:284), else a standard
 * ability with base consistency 0 and its attribute as potential (001:201-209; RULES.md heimr
 * encounter reading 2). 0 when cid has no such ability. */
static int ability_of(const rules_enc *e, const char *cid, const char *name, int *c, int *p,
                      int *phys)
{
    json_t *ab = find_ability(e, cid, name);
    if (!ab) {
        const char *attr = heimr_standard_attr(name);
        *c = 0;
        *p = attr ? stat_attr(e, cid, attr) : 0;
        *phys = attr && heimr_is_physical(attr);
        return attr != NULL;
    }
    int attrs[6], n = 0;
    size_t k;
    json_t *an;
    *phys = 0;
    json_array_foreach(json_object_get(ab, "attributes"), k, an)
    {
        if (n < 6)
            attrs[n++] = stat_attr(e, cid, json_string_value(an));
        *phys |= heimr_is_physical(json_string_value(an));
    }
    *c = (int)json_integer_value(json_object_get(ab, "base_consistency")) +
         (int)json_integer_value(json_object_get(ab, "trained_consistency"));
    *p = (n ? heimr_base_potential(attrs, n) : 0) +
         (int)json_integer_value(json_object_get(ab, "trained_potential"));
    return 1;
}

/* Adds string s to the list `key` of cid's stats unless it is there. */
static void stat_list_add(rules_enc *e, const char *cid, const char *key, const char *s)
{
    json_t *stats = rules_enc_stats(e, cid);
    json_t *list = json_object_get(stats, key);
    if (!json_is_array(list)) {
        list = json_array();
        json_object_set_new(stats, key, list);
    }
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) if (rules_enc_streq(json_string_value(v), s)) return;
    json_array_append_new(list, json_string(s));
}

/* The check of every player's own move: only PCs take part, and not one the GM set out of the
 * scene. */
static int check_pc(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (e->actor && rules_enc_is_npc(e, e->actor))
        return rules_enc_rule(err,
                              "between the scenes is for the players' characters; %s is not "
                              "one",
                              rules_enc_name(e, e->actor));
    if (e->actor && rules_enc_is_out(e, e->actor))
        return rules_enc_rule(
            err, "%s is out of the scene (%s)", rules_enc_name(e, e->actor),
            json_string_value(json_object_get(rules_enc_combatant(e, e->actor), "out")));
    return 0;
}

/* ---- rolls against a challenge requirement (001:105-113, 284-286) ---- */

/* Rolls C c, P p for cid against cr: a physical roll (phys) must reach the fatigue before
 * potential (001:284) and raises it on a d6 below it (001:286; outside a fight on every roll).
 * The dice and numbers go into x, public (a PC's sheet is). 1 on success. */
static int roll_against(rules_enc *e, const char *cid, int c, int p, int phys, int cr, rules_log *x)
{
    heimr_roll r;
    heimr_enc_roll(c, p, e->rng, &r);
    int fat = rules_enc_stat(e, cid, "fatigue", 1);
    int fat_ok = !phys || heimr_fatigue_passes(&r, fat);
    int ok = fat_ok && r.result >= cr;
    int after = phys ? heimr_fatigue_after(fat, r.d6) : fat;
    rules_enc_stat_set(e, cid, "fatigue", after);
    json_t *dice = json_array();
    heimr_roll_dice(dice, &r, NULL);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_int(x, "consistency", c, RULES_AUD_PUBLIC);
    rules_log_int(x, "potential", p, RULES_AUD_PUBLIC);
    rules_log_int(x, "result", r.result, RULES_AUD_PUBLIC);
    rules_log_int(x, "before_potential", r.before_potential, RULES_AUD_PUBLIC);
    rules_log_int(x, "cr", cr, RULES_AUD_PUBLIC);
    rules_log_json(x, "fatigue_ok", json_boolean(fat_ok), RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_int(x, "fatigue", after, RULES_AUD_PUBLIC);
    if (!fat_ok)
        rules_log_word(x, "tired", "agility.tired", RULES_AUD_PUBLIC);
    rules_log_word(x, "outcome", ok ? "agility.made" : "agility.failed", RULES_AUD_PUBLIC);
    return ok;
}

/* ---- short rest (001:145-149, 001:164) ---- */

/* 001:149 "only be restored by a short rest, if your character has one or more hit points
 * remaining"; 001:164 bloodied "You can't take a short rest"; 001:145 "as long as you are
 * uninjured" */
static int rest_check(const rules_enc *e, const char *cid, tb_err *err)
{
    int hp = heimr_stat(e, cid, "hp", 0);
    if (hp < 1)
        return rules_enc_rule(err,
                              "%s is injured (%d hit points) and cannot take a short rest: "
                              "the wounds need treatment first",
                              rules_enc_name(e, cid), hp);
    return 0;
}

/* cid's base fatigue: 4 - stamina, at least 1 (001:294-296). */
static int base_fatigue(const rules_enc *e, const char *cid)
{
    return heimr_base_fatigue(stat_attr(e, cid, "sta"));
}

/* 001:292 "When characters get the opportunity to take a breather, their fatigue returns to it's
 * standard level": fatigue to its base; 1 when it fell. */
static int breath_back(rules_enc *e, const char *cid)
{
    int base = base_fatigue(e, cid);
    if (rules_enc_stat(e, cid, "fatigue", 1) <= base)
        return 0;
    rules_enc_stat_set(e, cid, "fatigue", base);
    return 1;
}

/* Rests cid (rest_check passed): HP to its maximum, and the five quiet minutes are a breather
 * too (001:292). Logs the rest. */
static void rest_one(rules_enc *e, const char *cid)
{
    int hp = rules_enc_stat(e, cid, "hp", 0), max = rules_enc_stat(e, cid, "hp_max", 1);
    rules_enc_stat_set(e, cid, "hp", max); /* 001:149 "restore hit points to it's maximum" */
    int breath = breath_back(e, cid);
    rules_log *x = rules_log_begin(e, "rest", "rest");
    if (breath) {
        rules_log_word(x, "breath", "rest.breath", RULES_AUD_PUBLIC);
        rules_log_int(x, "fatigue", rules_enc_stat(e, cid, "fatigue", 1), RULES_AUD_PUBLIC);
    }
    rules_log_who(x, "name", cid);
    rules_log_json(x, "who", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_int(x, "hp_before", hp, RULES_AUD_PUBLIC);
    rules_log_int(x, "hp", max, RULES_AUD_PUBLIC);
    rules_log_end(x);
}

static int check_rest(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc = check_pc(e, a, err);
    return rc ? rc : rest_check(e, e->actor, err);
}

static int act_rest(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    rest_one(e, e->actor);
    rules_enc_take_time(e, REST_S); /* on the campaign clock */
    return 0;
}

/* The characters present (PCs in the module), in id order, written to ids (<= max). */
static int present(const rules_enc *e, const char **ids, int max)
{
    int n = 0;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)) && n < max; i++)
        if (!rules_enc_is_npc(e, cid))
            ids[n++] = cid;
    return n;
}

/* The GM calls a short rest: every character who can rest does; the injured are named. */
static int check_rest_all(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *ids[1];
    if (present(e, ids, 1) == 0)
        return rules_enc_rule(err, "nobody is here to rest: add the characters present first");
    return 0;
}

static int act_rest_all(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    const char *ids[RULES_ENC_MAX_COMBATANTS], *hurt[RULES_ENC_MAX_COMBATANTS];
    int n = present(e, ids, RULES_ENC_MAX_COMBATANTS), rested = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        tb_err why = {0};
        if (rest_check(e, ids[i], &why) == 0) {
            rest_one(e, ids[i]);
            rested++;
        } else {
            hurt[skipped++] = ids[i];
        }
    }
    if (skipped) {
        char names[400];
        heimr_names_join(e, hurt, skipped, 0, names, sizeof names);
        rules_log *x = rules_log_begin(e, "rest", "rest-skipped");
        rules_log_name(x, "names", names, RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    if (rested)
        rules_enc_take_time(e, REST_S); /* everyone at once */
    return 0;
}

/* ---- a breather (001:292) ---- */

/* The character stands still for half a minute: fatigue back to its base; refused when it is
 * there already (nothing to catch). Injured characters may (a breather is not a short rest). */
static int check_breather(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc = check_pc(e, a, err);
    if (rc)
        return rc;
    int f = heimr_stat(e, e->actor, "fatigue", 1), base = base_fatigue(e, e->actor);
    if (f <= base)
        return rules_enc_rule(err, "%s is not out of breath: fatigue %d is the base (001:292)",
                              rules_enc_name(e, e->actor), f);
    return 0;
}

static int act_breather(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    breath_back(e, e->actor);
    rules_log *x = rules_log_begin(e, "breather", "breath");
    rules_log_who(x, "who", e->actor);
    rules_log_int(x, "fatigue", rules_enc_stat(e, e->actor, "fatigue", 1), RULES_AUD_PUBLIC);
    rules_log_end(x);
    rules_enc_take_time(e, BREATH_S);
    return 0;
}

/* ---- a challenge requirement, and trying again with willpower (001:105-113) ---- */

/* What a challenge rolls: cid's ability `name` (challenge_of) at consistency less the penalty. */
static int challenge_of(const rules_enc *e, const char *cid, const char *name, int *c, int *p,
                        int *phys, tb_err *err)
{
    if (!ability_of(e, cid, name, c, p, phys))
        return rules_enc_rule(err,
                              "%s has no ability called %s on the sheet: the GM writes it on "
                              "the sheet first, or names the standard ability it falls under",
                              rules_enc_name(e, cid), name);
    return 0;
}

static int check_challenge(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int c, p, phys, rc = check_pc(e, a, err);
    return rc ? rc : challenge_of(e, e->actor, rules_arg_str(a, "ability"), &c, &p, &phys, err);
}

/* Rolls cid's challenge `failed` {ability, cr, penalty} as `event` (challenge, reroll): a failure
 * is kept on the combatant (`failed`, public: a PC's) for a re-roll, a success clears it. */
static void challenge_roll(rules_enc *e, const char *cid, json_t *ch /* stolen */,
                           const char *event)
{
    const char *name = json_string_value(json_object_get(ch, "ability"));
    int cr = (int)json_integer_value(json_object_get(ch, "cr"));
    int pen = (int)json_integer_value(json_object_get(ch, "penalty"));
    int c, p, phys;
    ability_of(e, cid, name, &c, &p, &phys);
    rules_log *x = rules_log_begin(e, event, event);
    rules_log_who(x, "who", cid);
    rules_log_name(x, "with", name, RULES_AUD_PUBLIC);
    if (strcmp(event, "reroll") == 0)
        rules_log_int(x, "willpower", rules_enc_stat(e, cid, "willpower", 0), RULES_AUD_PUBLIC);
    /* 001:103 a situational penalty lowers the consistency */
    int ok = roll_against(e, cid, c - pen, p, phys, cr, x);
    rules_log_end(x);
    json_t *comb = rules_enc_combatant(e, cid);
    if (ok)
        json_object_del(comb, "failed");
    else
        json_object_set(comb, "failed", ch);
    json_decref(ch);
}

static int act_challenge(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    /* the ability as the sheet (or the book) writes it */
    const char *asked = rules_arg_str(a, "ability");
    json_t *ab = find_ability(e, e->actor, asked);
    const char *name =
        ab ? json_string_value(json_object_get(ab, "name")) : heimr_standard_name(asked);
    challenge_roll(e, e->actor,
                   json_pack("{s:s, s:i, s:i}", "ability", name, "cr", rules_arg_int(a, "cr"),
                             "penalty", rules_arg_int(a, "penalty")),
                   "challenge");
    return 0;
}

/* 001:113 "Characters are allowed to re-roll a failed CR at the cost of one willpower for each
 * roll": the last failed challenge of the character, while it has willpower. (A crossing, a
 * climb or a fall are not: their failure already had its consequence, 001:111; RULES.md heimr
 * between reading 6.) */
static int check_reroll(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc = check_pc(e, a, err);
    if (rc)
        return rc;
    json_t *failed = json_object_get(rules_enc_combatant(e, e->actor), "failed");
    if (!json_is_object(failed))
        return rules_enc_rule(err, "%s has no failed challenge to try again (001:113)",
                              rules_enc_name(e, e->actor));
    if (heimr_stat(e, e->actor, "willpower", 0) < 1)
        return rules_enc_rule(err, "%s has no willpower left to try again (001:113)",
                              rules_enc_name(e, e->actor));
    int c, p, phys;
    return challenge_of(e, e->actor, json_string_value(json_object_get(failed, "ability")), &c, &p,
                        &phys, err);
}

static int act_reroll(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    const char *cid = e->actor;
    rules_enc_stat_add(e, cid, "willpower", -1, 0, 50);
    challenge_roll(e, cid, json_deep_copy(json_object_get(rules_enc_combatant(e, cid), "failed")),
                   "reroll");
    return 0;
}

/* ---- XP (001:217) ---- */

/* 001:217 "divided among the characters present ... rounded down"; "The remaining experience
 * points can be carried over to the next time characters gain XP" */
static int check_award(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *ids[RULES_ENC_MAX_COMBATANTS];
    int n = present(e, ids, RULES_ENC_MAX_COMBATANTS);
    if (n == 0)
        return rules_enc_rule(err, "nobody is here to share the XP: add the characters present "
                                   "first");
    int pool =
        rules_arg_int(a, "xp") + (int)json_integer_value(json_object_get(e->enc, "xp_carry"));
    for (int i = 0; i < n; i++)
        if (heimr_stat(e, ids[i], "xp", 0) + pool / n > SHEET_XP_MAX)
            return rules_enc_rule(err, "%s cannot hold more than %d XP", rules_enc_name(e, ids[i]),
                                  SHEET_XP_MAX);
    return 0;
}

static int act_award(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *ids[RULES_ENC_MAX_COMBATANTS];
    int n = present(e, ids, RULES_ENC_MAX_COMBATANTS);
    int xp = rules_arg_int(a, "xp");
    int carry = (int)json_integer_value(json_object_get(e->enc, "xp_carry"));
    int pool = xp + carry, each = pool / n, left = pool % n;
    for (int i = 0; i < n; i++)
        rules_enc_stat_add(e, ids[i], "xp", each, 0, SHEET_XP_MAX);
    json_object_set_new(e->enc, "xp_carry", json_integer(left));
    rules_log *x = rules_log_begin(e, "award", "award");
    rules_log_int(x, "xp", xp, RULES_AUD_PUBLIC);
    rules_log_int(x, "carried_in", carry, RULES_AUD_PUBLIC);
    rules_log_int(x, "present", n, RULES_AUD_PUBLIC);
    rules_log_int(x, "each", each, RULES_AUD_PUBLIC);
    rules_log_int(x, "carried", left, RULES_AUD_PUBLIC);
    if (carry)
        rules_log_word(x, "kept", "award.kept", RULES_AUD_PUBLIC);
    if (n != 1)
        rules_log_word(x, "s", "plural", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- training (001:219-232) ---- */

/* What a training does, found before anything changes. */
typedef struct training {
    json_t *ab;        /* the ability on the sheet copy (borrowed) */
    const char *field; /* trained_consistency / trained_potential */
    const char *which; /* the attribute gaining progress */
    int level;         /* the level reached */
    long cost;
} training;

static int train_plan(const rules_enc *e, const rules_args *a, training *t, tb_err *err)
{
    const char *cid = e->actor, *name = rules_arg_str(a, "ability");
    const char *kind = rules_arg_str(a, "kind"), *attr = rules_arg_str(a, "attribute");
    int rc = check_pc(e, a, err);
    if (rc)
        return rc;
    if (strcmp(kind, "consistency") == 0)
        t->field = "trained_consistency";
    else if (strcmp(kind, "potential") == 0)
        t->field = "trained_potential";
    else
        return tb_fail(err, TB_BAD_REQUEST, "enc.act train: 'kind' is consistency or potential");
    json_t *ab = t->ab = find_ability(e, cid, name);
    if (!ab)
        return rules_enc_rule(err,
                              "%s has no ability called %s on the sheet: the GM writes it on "
                              "the sheet first, with its base consistency",
                              rules_enc_name(e, cid), name);
    int level = (int)json_integer_value(json_object_get(ab, t->field));
    if (level >= TRAINING_MAX)
        return rules_enc_rule(err, "%s's %s %s is already at %d, the most a sheet holds",
                              rules_enc_name(e, cid),
                              json_string_value(json_object_get(ab, "name")), kind, TRAINING_MAX);
    /* 001:219 "the total XP spend on the previous two levels, starting at 5" */
    t->level = level + 1;
    t->cost = heimr_xp_cost(level + 1);
    int xp = heimr_stat(e, cid, "xp", 0);
    if (xp < t->cost)
        return rules_enc_rule(err, "training %s %s to %d costs %ld XP; %s has %d",
                              json_string_value(json_object_get(ab, "name")), kind, level + 1,
                              t->cost, rules_enc_name(e, cid), xp);
    /* 001:227 "increase the attribute progress of the attribute associated with the ability";
     * several: "you can choose" (the first one when no choice is given: RULES.md reading) */
    t->which = NULL;
    size_t k;
    json_t *an;
    json_array_foreach(json_object_get(ab, "attributes"), k, an)
    {
        const char *s = json_string_value(an);
        if (!t->which && (!attr || rules_enc_streq(s, attr)))
            t->which = s;
    }
    if (!t->which)
        return rules_enc_rule(err,
                              "%s is not based on %s: choose one of the attributes it is "
                              "based on",
                              json_string_value(json_object_get(ab, "name")), attr ? attr : "?");
    return 0;
}

static int check_train(const rules_enc *e, const rules_args *a, tb_err *err)
{
    training t;
    return train_plan(e, a, &t, err);
}

static int act_train(rules_enc *e, const rules_args *a, tb_err *err)
{
    training t;
    train_plan(e, a, &t, err);
    const char *cid = e->actor, *kind = rules_arg_str(a, "kind"), *which = t.which;
    int xp = rules_enc_stat(e, cid, "xp", 0) - (int)t.cost;
    json_object_set_new(t.ab, t.field, json_integer(t.level));
    rules_enc_stat_set(e, cid, "xp", xp);
    json_t *stats = rules_enc_stats(e, cid);
    json_t *prog = json_object_get(stats, "attribute_progress");
    if (!json_is_object(prog)) {
        prog = json_object();
        json_object_set_new(stats, "attribute_progress", prog);
    }
    json_t *attributes = json_object_get(stats, "attributes");
    int value = (int)json_integer_value(json_object_get(attributes, which));
    int progress = (int)json_integer_value(json_object_get(prog, which));
    int need = heimr_attribute_progress_required(value + 1);
    int rises = 0;
    if (value < ATTR_MAX) {
        progress++;
        /* 001:229 "Once the attribute progress reaches a certain value, the attribute is
         * increased by one ... the attribute progress of that attribute becomes zero" */
        if (progress >= need) {
            json_object_set_new(attributes, which, json_integer(value + 1));
            progress = 0;
            rises = 1;
        }
        json_object_set_new(prog, which, json_integer(progress));
    }
    const char *abn = json_string_value(json_object_get(t.ab, "name"));
    rules_log *x = rules_log_begin(e, "train", "train");
    rules_log_who(x, "who", cid);
    rules_log_json(x, "ability", json_string(abn), RULES_AUD_PUBLIC);
    rules_log_name(x, "ability_name", abn, RULES_AUD_PUBLIC);
    rules_log_json(x, "kind", json_string(kind), RULES_AUD_PUBLIC);
    rules_log_name(x, "kind_name", kind, RULES_AUD_PUBLIC);
    rules_log_int(x, "level", t.level, RULES_AUD_PUBLIC);
    rules_log_int(x, "cost", (int)t.cost, RULES_AUD_PUBLIC);
    rules_log_int(x, "xp", xp, RULES_AUD_PUBLIC);
    rules_log_json(x, "attribute", json_string(which), RULES_AUD_PUBLIC);
    rules_log_name(x, "attr_name", which, RULES_AUD_PUBLIC);
    rules_log_int(x, "progress", progress, RULES_AUD_PUBLIC);
    rules_log_int(x, "need", need, RULES_AUD_PUBLIC);
    if (rises) {
        rules_log_word(x, "rise", "train.rise", RULES_AUD_PUBLIC);
        rules_log_int(x, "rises_to", value + 1, RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    return 0;
}

/* ---- the environment: crossing, climbing, falling (001:494, 001:519-535) ---- */

/* Rolls cid's Agility challenge against cr with the fatigue check of a physical roll
 * (001:284-286): fatigue rises on a d6 below it. Logs it as `action`, what cid does in the
 * words of `doing` (a word of the module's phrasings, about height h); returns 1 on success, 0
 * on failure. */
static int agility_roll(rules_enc *e, const char *cid, int cr, const char *action,
                        const char *doing, int h)
{
    int c, p, phys;
    ability_of(e, cid, "agility", &c, &p, &phys);
    rules_log *x = rules_log_begin(e, action, "agility");
    rules_log_who(x, "who", cid);
    rules_log_word(x, "doing", doing, RULES_AUD_PUBLIC);
    if (h)
        rules_log_int(x, "height", h, RULES_AUD_PUBLIC);
    int ok = roll_against(e, cid, c, p, 1, cr, x); /* climbing, jumping: physical */
    rules_log_end(x);
    return ok;
}

/* A fall (or jump, when jump) from height h >= 2 (001:521): CR 2h for a jump, 2 + 2h for a
 * fall; on a failure HP drops to 3 - h (never raised; not below -5), injuring the legs, and the
 * torso at -4 or -5. */
static void fall_from(rules_enc *e, const char *cid, int h, int jump)
{
    int cr = jump ? 2 * h : 2 + 2 * h;
    if (agility_roll(e, cid, cr, "fall", jump ? "agility.jump" : "agility.fall", h))
        return;
    int hp = rules_enc_stat(e, cid, "hp", 0), to = 3 - h;
    if (to < HEIMR_HP_FLOOR)
        to = HEIMR_HP_FLOOR;
    if (to < hp)
        rules_enc_stat_set(e, cid, "hp", to);
    int now = to < hp ? to : hp;
    /* 001:521 "The injury you receive is to the legs, and to the torso if reduced to -4 or -5" */
    if (now <= 0) {
        stat_list_add(e, cid, "injuries", "right_leg");
        stat_list_add(e, cid, "injuries", "left_leg");
        if (now <= -4)
            stat_list_add(e, cid, "injuries", "torso");
    }
    rules_log *x = rules_log_begin(e, "fall", "landed");
    rules_log_who(x, "who", cid);
    rules_log_int(x, "hp", now, RULES_AUD_PUBLIC);
    if (now <= 0)
        rules_log_word(x, "hurt", now <= -4 ? "landed.torso" : "landed.legs", RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* A crossing or climbing challenge against the GM's CR (001:494, 001:519): a failed crossing
 * leaves the character on this side, prone; a failed climb to height >= 2 is a fall from it. */
static int act_cross(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = e->actor;
    int h = rules_arg_int(a, "height");
    if (agility_roll(e, cid, rules_arg_int(a, "cr"), h ? "climb" : "cross",
                     h ? "agility.climb" : "agility.cross", 0))
        return 0;
    if (h >= 2) { /* 001:519 "If you fail this challenge you will fall from the height" */
        fall_from(e, cid, h, 0);
        return 0;
    }
    /* 001:494 "the character can not go across the border, and characters fall prone" */
    stat_list_add(e, cid, "conditions", "prone");
    heimr_tell(e, "cross", "cross-failed", cid, NULL);
    return 0;
}

static int act_fall(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    fall_from(e, e->actor, rules_arg_int(a, "height"), rules_arg_int(a, "jump"));
    return 0;
}

/* ---- the module ---- */

static const rules_param P_START[] = {
    {"xp_carry", RULES_PARAM_INT, 0, 1000, 0, 0, "XP kept from the last award (001:217)"},
    {0},
};

static int between_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)err;
    /* 001:217: the XP kept from the last split, when the GM carries it into this one */
    json_object_set_new(e->enc, "xp_carry", json_integer(rules_arg_int(o, "xp_carry")));
    return 0;
}

/* The GM ends the scenes in between: the XP kept is said, for the next start (reading 3). */
static int between_end(rules_enc *e, tb_err *err)
{
    (void)err;
    int carry = (int)json_integer_value(json_object_get(e->enc, "xp_carry"));
    if (carry > 0) {
        rules_log *x = rules_log_begin(e, "award", "carried");
        rules_log_int(x, "carried", carry, RULES_AUD_PUBLIC);
        rules_log_word(x, "verb", carry == 1 ? "carried.is" : "carried.are", RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    return 0;
}

static int between_check(const rules_enc *e, tb_err *err)
{
    json_t *c = json_object_get(e->enc, "xp_carry");
    if (c && (!json_is_integer(c) || json_integer_value(c) < 0))
        return rules_enc_rule(err, "the XP kept for the next award is damaged; the GM can end "
                                   "this (enc.end) and start again");
    return 0;
}

static const char *const SHEET_STATS[] = {
    "hp",      "hp_max",   "xp",         "abilities", "attributes", "attribute_progress",
    "fatigue", "injuries", "conditions", "willpower", NULL};

/* clang-format off */
static const rules_phrase PHRASES[] = {
    {"rest", "{name} takes a short rest of five quiet minutes: hit points {hp} of {hp}{breath?}"},
    {"rest.breath", ", fatigue back to {fatigue} (001:292)"},
    {"rest-skipped", "Too injured to rest, needing treatment: {names}"},
    {"breath", "{who} catches their breath: fatigue {fatigue} (001:292)"},
    {"challenge", "{who} rolls {with}: {result} against {cr}{tired?} — {outcome}"},
    {"reroll", "{who} spends one willpower ({willpower} left) to try again: {with} {result} "
               "against {cr}{tired?} — {outcome} (001:113)"},
    {"award", "The GM awards {xp} XP{kept?}: {each} XP each for the {present} character{s?} "
              "present, {carried} XP kept for the next award"},
    {"award.kept", " (with the XP kept from last time)"},
    {"carried", "{carried} XP {verb} kept for the next award"},
    {"carried.is", "is"},
    {"carried.are", "are"},
    {"train", "{who} trains {ability_name} {kind_name} to {level} for {cost} XP ({xp} XP left); "
              "{attr_name} progress {progress} of {need}{rise?}"},
    {"train.rise", "; {attr_name} rises to {rises_to}"},
    {"agility", "{who} {doing}: Agility {result} against {cr}{tired?} — {outcome}"},
    {"agility.jump", "jumps down from height {height}"},
    {"agility.fall", "falls from height {height}"},
    {"agility.climb", "climbs"},
    {"agility.cross", "tries to cross"},
    {"agility.tired", " (too tired: the roll before potential is below the fatigue)"},
    {"agility.made", "made it"},
    {"agility.failed", "failed"},
    {"landed", "{who} lands badly: hit points {hp}{hurt?} (armour does not help)"},
    {"landed.legs", ", legs injured"},
    {"landed.torso", ", legs and torso injured"},
    {"cross-failed", "{who} stays on this side and falls prone"},
    {NULL, NULL},
};
/* clang-format on */

/* What outlives the scene (RULES.md, "Between the scenes: what carries over"): the XP kept from
 * the last split (001:217). */
static const char *const CARRY[] = {"xp_carry", NULL};

static const rules_enc_field EDITABLE[] = {
    {"/enc/xp_carry", RULES_PARAM_INT, 0, 1000, "XP kept for the next award"},
    {"stats/hp", RULES_PARAM_INT, -5, 100, "hit points"},
    {"stats/xp", RULES_PARAM_INT, 0, SHEET_XP_MAX, "unspent XP"},
    {NULL, 0, 0, 0, NULL},
};

const rules_module rules_module_heimr_between = {
    .id = "heimr.between",
    .system = "heimr",
    .name = "Between the scenes",
    .cite = "001:145-232,494-535",
    .options = P_START,
    .start = between_start,
    .end = between_end,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = EDITABLE,
    .check = between_check,
    .carry = CARRY,
    .choices = heimr_between_choices, /* choices.c */
    .phrases = PHRASES,
};
