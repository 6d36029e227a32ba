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

#include "encounter.h"
#include "heimr.h"

#define HP_FLOOR (-5)       /* 001:166 mutilated is -4 or -5; the sheet's hp minimum */
#define XP_AWARD_MAX 100000 /* one award; the sheet holds up to 1000000 */
#define SHEET_XP_MAX 1000000
#define TRAINING_MAX 10 /* the sheet's trained_consistency/trained_potential maximum */
#define ATTR_MAX 10     /* the sheet's attribute maximum */
#define REST_S (5L * 60L) /* 001:149 "at least five minutes of in character time" */

/* ---- reading the combatant's sheet copy (its stats) ---- */

static int stat_attr(rules_enc *e, const char *cid, const char *name)
{
    json_t *a = json_object_get(rules_enc_stats(e, cid), "attributes");
    return (int)json_integer_value(json_object_get(a, name));
}

/* The ability object named `name` (any case) in cid's sheet copy, or NULL. */
static json_t *find_ability(rules_enc *e, const char *cid, const char *name)
{
    size_t i;
    json_t *ab;
    json_array_foreach(json_object_get(rules_enc_stats(e, cid), "abilities"), i, ab)
    {
        const char *n = json_string_value(json_object_get(ab, "name"));
        if (n && strcasecmp(n, name) == 0)
            return ab;
    }
    return NULL;
}

/* The consistency and potential of Agility for cid: the sheet's Agility ability when it lists
 * one (base + trained, 001:176-177; base potential the average of its attributes, 001:191-193),
 * else the standard ability: dexterity as potential (001:205) and base consistency 0 (RULES.md,
 * heimr encounter reading 2). */
static void agility_of(rules_enc *e, const char *cid, int *c, int *p)
{
    json_t *ab = find_ability(e, cid, "agility");
    if (!ab) {
        *c = 0;
        *p = stat_attr(e, cid, "dex");
        return;
    }
    int attrs[6], n = 0;
    size_t k;
    json_t *an;
    json_array_foreach(json_object_get(ab, "attributes"), k, an) if (n < 6) attrs[n++] =
        stat_attr(e, cid, json_string_value(an));
    *c = (int)json_integer_value(json_object_get(ab, "base_consistency")) +
         (int)json_integer_value(json_object_get(ab, "trained_consistency"));
    *p = (n ? heimr_base_potential(attrs, n) : 0) +
         (int)json_integer_value(json_object_get(ab, "trained_potential"));
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

static int only_pcs(rules_enc *e, tb_err *err)
{
    if (e->actor && rules_enc_is_npc(e, e->actor))
        return rules_enc_rule(err,
                              "between the scenes is for the players' characters; %s is not "
                              "one",
                              rules_enc_name(e, e->actor));
    return 0;
}

/* ---- short rest (001:145-149, 001:164) ---- */

/* Rests cid: HP to its maximum when it has 1 HP or more. 0, or TB_RULE (nothing changed) when it
 * is injured. Logs the rest. */
static int rest_one(rules_enc *e, const char *cid, tb_err *err)
{
    int hp = rules_enc_stat(e, cid, "hp", 0), max = rules_enc_stat(e, cid, "hp_max", 1);
    /* 001:149 "only be restored by a short rest, if your character has one or more hit points
     * remaining"; 001:164 bloodied "You can't take a short rest"; 001:145 "as long as you are
     * uninjured" */
    if (hp < 1)
        return rules_enc_rule(err,
                              "%s is injured (%d hit points) and cannot take a short rest: "
                              "the wounds need treatment first",
                              rules_enc_name(e, cid), hp);
    rules_enc_stat_set(e, cid, "hp", max); /* 001:149 "restore hit points to it's maximum" */
    rules_enc_log(e, "rest", NULL,
                  json_pack("{s:s, s:i, s:i}", "who", cid, "hp_before", hp, "hp", max),
                  "%s takes a short rest of five quiet minutes: hit points %d of %d",
                  rules_enc_name(e, cid), max, max);
    return 0;
}

static int act_rest(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (only_pcs(e, err) || rest_one(e, e->actor, err))
        return err->code;
    rules_enc_take_time(e, REST_S); /* on the campaign clock */
    return 0;
}

/* The GM calls a short rest: every character who can rest does; the injured are named. */
static int act_rest_all(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid;
    int rested = 0;
    char skipped[400] = "";
    size_t len = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (rules_enc_is_npc(e, cid))
            continue;
        tb_err why = {0};
        if (rest_one(e, cid, &why) == 0)
            rested++;
        else if (len < sizeof skipped)
            len += (size_t)snprintf(skipped + len, sizeof skipped - len, "%s%s", len ? ", " : "",
                                    rules_enc_name(e, cid));
    }
    if (!rested && !len)
        return rules_enc_rule(err, "nobody is here to rest: add the characters present first");
    if (len)
        rules_enc_log(e, "rest", NULL, NULL, "Too injured to rest, needing treatment: %s", skipped);
    if (rested)
        rules_enc_take_time(e, REST_S); /* everyone at once */
    return 0;
}

/* ---- XP (001:217) ---- */

/* The characters present (PCs in the module), in id order, written to ids (<= max). */
static int present(rules_enc *e, const char **ids, int max)
{
    int n = 0;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)) && n < max; i++)
        if (!rules_enc_is_npc(e, cid))
            ids[n++] = cid;
    return n;
}

static int act_award(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *ids[RULES_ENC_MAX_COMBATANTS];
    int n = present(e, ids, RULES_ENC_MAX_COMBATANTS);
    if (n == 0)
        return rules_enc_rule(err, "nobody is here to share the XP: add the characters present "
                                   "first");
    int xp = rules_arg_int(a, "xp");
    int carry = (int)json_integer_value(json_object_get(e->enc, "xp_carry"));
    /* 001:217 "divided among the characters present ... rounded down"; "The remaining
     * experience points can be carried over to the next time characters gain XP" */
    int pool = xp + carry, each = pool / n, left = pool % n;
    for (int i = 0; i < n; i++)
        if (rules_enc_stat(e, ids[i], "xp", 0) + each > SHEET_XP_MAX)
            return rules_enc_rule(err, "%s cannot hold more than %d XP", rules_enc_name(e, ids[i]),
                                  SHEET_XP_MAX);
    for (int i = 0; i < n; i++)
        rules_enc_stat_add(e, ids[i], "xp", each, 0, SHEET_XP_MAX);
    json_object_set_new(e->enc, "xp_carry", json_integer(left));
    rules_enc_log(
        e, "award", NULL,
        json_pack("{s:i, s:i, s:i, s:i, s:i}", "xp", xp, "carried_in", carry, "present", n, "each",
                  each, "carried", left),
        "The GM awards %d XP%s: %d XP each for the %d character%s present, %d XP kept for "
        "the next award",
        xp, carry ? " (with the XP kept from last time)" : "", each, n, n == 1 ? "" : "s", left);
    return 0;
}

/* ---- training (001:219-232) ---- */

static int act_train(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    const char *cid = e->actor, *name = rules_arg_str(a, "ability");
    const char *kind = rules_arg_str(a, "kind"), *attr = rules_arg_str(a, "attribute");
    const char *field;
    if (strcmp(kind, "consistency") == 0)
        field = "trained_consistency";
    else if (strcmp(kind, "potential") == 0)
        field = "trained_potential";
    else
        return tb_fail(err, TB_BAD_REQUEST, "enc.act train: 'kind' is consistency or potential");
    json_t *ab = find_ability(e, cid, name);
    if (!ab)
        return rules_enc_rule(err,
                              "%s has no ability called %s on the sheet: the GM writes it on "
                              "the sheet first, with its base consistency",
                              rules_enc_name(e, cid), name);
    int level = (int)json_integer_value(json_object_get(ab, field));
    if (level >= TRAINING_MAX)
        return rules_enc_rule(err, "%s's %s %s is already at %d, the most a sheet holds",
                              rules_enc_name(e, cid),
                              json_string_value(json_object_get(ab, "name")), kind, TRAINING_MAX);
    /* 001:219 "the total XP spend on the previous two levels, starting at 5" */
    long cost = heimr_xp_cost(level + 1);
    int xp = rules_enc_stat(e, cid, "xp", 0);
    if (xp < cost)
        return rules_enc_rule(err, "training %s %s to %d costs %ld XP; %s has %d",
                              json_string_value(json_object_get(ab, "name")), kind, level + 1, cost,
                              rules_enc_name(e, cid), xp);
    /* 001:227 "increase the attribute progress of the attribute associated with the ability";
     * several: "you can choose" (the first one when no choice is given: RULES.md reading) */
    json_t *attrs = json_object_get(ab, "attributes");
    const char *which = NULL;
    size_t k;
    json_t *an;
    json_array_foreach(attrs, k, an)
    {
        const char *s = json_string_value(an);
        if (!which && (!attr || rules_enc_streq(s, attr)))
            which = s;
    }
    if (!which)
        return rules_enc_rule(err,
                              "%s is not based on %s: choose one of the attributes it is "
                              "based on",
                              json_string_value(json_object_get(ab, "name")), attr ? attr : "?");
    /* validated: now change */
    json_object_set_new(ab, field, json_integer(level + 1));
    rules_enc_stat_set(e, cid, "xp", xp - (int)cost);
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
    char rise[120] = "";
    if (value < ATTR_MAX) {
        progress++;
        /* 001:229 "Once the attribute progress reaches a certain value, the attribute is
         * increased by one ... the attribute progress of that attribute becomes zero" */
        if (progress >= need) {
            json_object_set_new(attributes, which, json_integer(value + 1));
            progress = 0;
            snprintf(rise, sizeof rise, "; %s rises to %d", which, value + 1);
        }
        json_object_set_new(prog, which, json_integer(progress));
    }
    rules_enc_log(e, "train", NULL,
                  json_pack("{s:s, s:s, s:i, s:i, s:i, s:s, s:i}", "ability",
                            json_string_value(json_object_get(ab, "name")), "kind", kind, "level",
                            level + 1, "cost", (int)cost, "xp", xp - (int)cost, "attribute", which,
                            "progress", progress),
                  "%s trains %s %s to %d for %ld XP (%d XP left); %s progress %d of %d%s",
                  rules_enc_name(e, cid), json_string_value(json_object_get(ab, "name")), kind,
                  level + 1, cost, xp - (int)cost, which, progress, need, rise);
    return 0;
}

/* ---- the environment: crossing, climbing, falling (001:494, 001:519-535) ---- */

/* Rolls cid's Agility challenge against cr with the fatigue check of a physical roll
 * (001:284-286): fatigue rises on a d6 below it. Logs it as `action` with `text` before the
 * outcome; returns 1 on success, 0 on failure, < 0 (err set) on a bad roll. */
static int agility_roll(rules_enc *e, const char *cid, int cr, const char *action, const char *text,
                        tb_err *err)
{
    int c, p;
    agility_of(e, cid, &c, &p);
    heimr_roll r;
    if (heimr_challenge_roll(c, p, e->rng, &r, err))
        return -1;
    int fat = rules_enc_stat(e, cid, "fatigue", 1);
    int fat_ok = heimr_fatigue_passes(&r, fat);
    int ok = fat_ok && r.result >= cr;
    int after = heimr_fatigue_after(fat, r.d6);
    rules_enc_stat_set(e, cid, "fatigue", after);
    json_t *dice = json_array();
    unsigned char kept[HEIMR_MAX_C + 1];
    heimr_roll_kept(&r, kept);
    for (int i = 0; i <= r.n10; i++)
        rules_result_die(dice, i ? 10 : 6, i ? r.d10[i - 1] : r.d6, kept[i]);
    rules_enc_log(e, action, dice,
                  json_pack("{s:i, s:i, s:i, s:i, s:i, s:b, s:b, s:i}", "consistency", c,
                            "potential", p, "result", r.result, "before_potential",
                            r.before_potential, "cr", cr, "fatigue_ok", fat_ok, "success", ok,
                            "fatigue", after),
                  "%s %s: Agility %d against %d%s — %s", rules_enc_name(e, cid), text, r.result, cr,
                  fat_ok ? "" : " (too tired: the roll before potential is below the fatigue)",
                  ok ? "made it" : "failed");
    return ok;
}

/* A fall (or jump, when jump) from height h >= 2 (001:521): CR 2h for a jump, 2 + 2h for a
 * fall; on a failure HP drops to 3 - h (never raised; not below -5), injuring the legs, and the
 * torso at -4 or -5. */
static int fall_from(rules_enc *e, const char *cid, int h, int jump, tb_err *err)
{
    int cr = jump ? 2 * h : 2 + 2 * h;
    char text[80];
    snprintf(text, sizeof text, "%s from height %d", jump ? "jumps down" : "falls", h);
    int ok = agility_roll(e, cid, cr, "fall", text, err);
    if (ok != 0)
        return ok < 0 ? -1 : 0;
    int hp = rules_enc_stat(e, cid, "hp", 0), to = 3 - h;
    if (to < HP_FLOOR)
        to = HP_FLOOR;
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
    rules_enc_log(e, "fall", NULL, json_pack("{s:i}", "hp", now),
                  "%s lands badly: hit points %d%s (armour does not help)", rules_enc_name(e, cid),
                  now,
                  now <= -4  ? ", legs and torso injured"
                  : now <= 0 ? ", legs injured"
                             : "");
    return 0;
}

static int act_fall(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    if (fall_from(e, e->actor, rules_arg_int(a, "height"), rules_arg_int(a, "jump"), err) < 0)
        return err->code;
    return 0;
}

/* A crossing or climbing challenge against the GM's CR (001:494, 001:519): a failed crossing
 * leaves the character on this side, prone; a failed climb to height >= 2 is a fall from it. */
static int act_cross(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (only_pcs(e, err))
        return err->code;
    const char *cid = e->actor;
    int h = rules_arg_int(a, "height");
    int ok = agility_roll(e, cid, rules_arg_int(a, "cr"), h ? "climb" : "cross",
                          h ? "climbs" : "tries to cross", err);
    if (ok < 0)
        return err->code;
    if (ok)
        return 0;
    if (h >= 2) /* 001:519 "If you fail this challenge you will fall from the height" */
        return fall_from(e, cid, h, 0, err) < 0 ? err->code : 0;
    /* 001:494 "the character can not go across the border, and characters fall prone" */
    stat_list_add(e, cid, "conditions", "prone");
    rules_enc_log(e, "cross", NULL, NULL, "%s stays on this side and falls prone",
                  rules_enc_name(e, cid));
    return 0;
}

/* ---- the module ---- */

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
    if (carry > 0)
        rules_enc_log(e, "award", NULL, json_pack("{s:i}", "carried", carry),
                      "%d XP %s kept for the next award", carry, carry == 1 ? "is" : "are");
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

static const rules_param P_START[] = {
    {"xp_carry", RULES_PARAM_INT, 0, 1000, 0, 0, "XP kept from the last award (001:217)"},
    {0},
};
static const rules_param P_NONE[] = {{0}};
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
    {"rest", "Take a short rest", RULES_ENC_OWNER, P_NONE, act_rest, "001:145-149,164"},
    {"rest_all", "Call a short rest", RULES_ENC_GM, P_NONE, act_rest_all, "001:145-149,164"},
    {"award", "Award XP", RULES_ENC_GM, P_AWARD, act_award, "001:217"},
    {"train", "Train an ability", RULES_ENC_OWNER, P_TRAIN, act_train, "001:219-232"},
    {"cross", "Cross or climb", RULES_ENC_OWNER, P_CROSS, act_cross, "001:494,519-535"},
    {"fall", "Fall or jump down", RULES_ENC_OWNER, P_FALL, act_fall, "001:521"},
    {0},
};

static const char *const SHEET_STATS[] = {
    "hp",      "hp_max",   "xp",         "abilities", "attributes", "attribute_progress",
    "fatigue", "injuries", "conditions", NULL};

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
};
