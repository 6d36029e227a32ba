/*
 * enc_tenacity.c — the tenacity encounter module tenacity.spotlight (rules/encounter.h): the
 * rolls of an encounter (hero dice against hero dice or an NPC's challenge dice, ties to the
 * defender), impact as stress, wounds and unconsciousness, hinder/stop/damage conditions and the
 * free roll to shake one off, spin and negative spin, full defence, the coup de grâce, and the
 * action table. Who holds the spotlight: spotlight.c. Rulebook 003_632e2c704060b738.txt, cited
 * 003:LINE; readings in rules/RULES.md, tenacity, "Encounters (module tenacity.spotlight)".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "enc_tenacity.h"

/* ---- stats ---- */

int ten_unconscious(rules_enc *e, const char *cid)
{
    return json_is_true(json_object_get(rules_enc_stats(e, cid), "unconscious"));
}

int ten_spin(rules_enc *e, const char *cid)
{
    return rules_enc_stat(e, cid, "spin", 0);
}

void ten_spin_add(rules_enc *e, const char *cid, int delta)
{
    /* 003:37 "you can never have more than 10 points of negative spin" */
    rules_enc_stat_add(e, cid, "spin", delta, -TENACITY_NEGATIVE_SPIN_MAX, 99);
}

/* The track {current, max} `key` of cid's stats (created with max def_max if missing). */
static json_t *track(rules_enc *e, const char *cid, const char *key, int def_max)
{
    json_t *st = rules_enc_stats(e, cid);
    json_t *t = json_object_get(st, key);
    if (!json_is_object(t)) {
        t = json_pack("{s:i, s:i}", "current", 0, "max", def_max);
        json_object_set_new(st, key, t);
    }
    return t;
}

static int tget(json_t *t, const char *k)
{
    return (int)json_integer_value(json_object_get(t, k));
}

static int same(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

/* The skills map of cid: {name: [dice, rank, impact_bonus]}, or NULL for a sheetless NPC. */
static json_t *skills_of(rules_enc *e, const char *cid)
{
    json_t *s = json_object_get(rules_enc_stats(e, cid), "skills");
    return json_is_object(s) ? s : NULL;
}

/* Whether a condition's `what` covers skill (by name, its attribute's name, or "all"). */
static int covers(rules_enc *e, const char *cid, const char *what, const char *skill)
{
    if (same(what, "all") || same(what, skill))
        return 1;
    if (same(skill, "move") && same(what, "movement"))
        return 1;
    json_t *sk = json_object_get(skills_of(e, cid), skill);
    return sk && same(what, json_string_value(json_array_get(sk, 3)));
}

/* The largest hinder penalty on skill (003:99 "Penalties applied by hindering conditions do not
 * stack"), and the name of a stop condition on it (003:102) in *stop; the condition named skip
 * (NULL: none) does not count (003:104: a grapple does not hinder the attempt to escape it). */
static int hinder_on(rules_enc *e, const char *cid, const char *skill, const char **stop,
                     const char *skip)
{
    int pen = 0;
    size_t i;
    json_t *c;
    if (stop)
        *stop = NULL;
    json_array_foreach(json_object_get(rules_enc_combatant(e, cid), "conditions"), i, c)
    {
        const char *kind = json_string_value(json_object_get(c, "kind"));
        const char *what = json_string_value(json_object_get(c, "what"));
        if (!kind || !covers(e, cid, what, skill) ||
            (skip && same(json_string_value(json_object_get(c, "name")), skip)))
            continue;
        if (strcmp(kind, "hinder") == 0 && tget(c, "level") > pen)
            pen = tget(c, "level");
        if (strcmp(kind, "stop") == 0 && stop)
            *stop = json_string_value(json_object_get(c, "name"));
    }
    return pen;
}

static void tag_last(json_t *dice, const char *role, const char *cid)
{
    json_t *d = json_array_get(dice, json_array_size(dice) - 1);
    json_object_set_new(d, "role", json_string(role));
    json_object_set_new(d, "by", json_string(cid));
}

int ten_skill_check(rules_enc *e, const char *cid, const char *skill, tb_err *err)
{
    json_t *skills = skills_of(e, cid);
    if (!skills)
        return 0; /* a sheetless NPC rolls its challenge dice for any skill */
    if (!skill || strcmp(skill, "-") == 0)
        return tb_fail(err, TB_BAD_REQUEST, "name the skill %s rolls (parameter 'skill')",
                       rules_enc_name(e, cid));
    if (!json_is_array(json_object_get(skills, skill)))
        return tb_fail(err, TB_BAD_REQUEST, "%s has no skill '%.40s' on the sheet",
                       rules_enc_name(e, cid), skill);
    return 0;
}

int ten_roll(rules_enc *e, const char *cid, const char *skill, int adv, int bonus, const char *role,
             json_t *dice, ten_side *s, tb_err *err)
{
    memset(s, 0, sizeof *s);
    s->cid = cid;
    json_t *skills = skills_of(e, cid);
    int escape = strcmp(role, "escape") == 0;
    bonus -= hinder_on(e, cid, skill, NULL, escape ? TEN_GRAPPLED : NULL); /* 003:99, 003:104 */
    adv += ten_roll_edges(e, cid, skill, role);
    if (!skills) {
        /* 003:13 the narrator rolls "the challenge dice ... (or referencing the NPC card)";
         * 003:14 "+1 and a +3 to the challenge roll" */
        int n = rules_enc_stat(e, cid, "challenge_dice", 2);
        int sum = rules_enc_stat(e, cid, "challenge_bonus", 0) + bonus;
        for (int i = 0; i < n && i < 20; i++) {
            sum += rules_roll_die(e->rng, 6, dice);
            tag_last(dice, role, cid);
        }
        s->total = sum;
        s->rank = 2 * rules_enc_stat(e, cid, "impact_dice", 1);
        s->ibonus = rules_enc_stat(e, cid, "impact_bonus", 0);
        return 0;
    }
    json_t *sk = json_object_get(skills, skill);
    if (strcmp(skill, "-") == 0)
        return tb_fail(err, TB_BAD_REQUEST, "name the skill %s rolls (parameter 'skill')",
                       rules_enc_name(e, cid));
    if (!json_is_array(sk))
        return tb_fail(err, TB_BAD_REQUEST, "%s has no skill '%.40s' on the sheet",
                       rules_enc_name(e, cid), skill);
    s->hero = 1;
    int dice_n = (int)json_integer_value(json_array_get(sk, 0));
    if (dice_n + adv < 1)
        adv = 1 - dice_n; /* a disadvantage die never takes the last hero die (reading O6) */
    s->rank = (int)json_integer_value(json_array_get(sk, 1));
    s->ibonus = (int)json_integer_value(json_array_get(sk, 2));
    /* 003:11 "roll the number of d10 dice displayed on the attribute and take the highest" */
    int rc = tenacity_hero_roll(&s->r, e->rng, dice_n, adv, s->rank, bonus, err);
    if (rc)
        return rc;
    for (int i = 0; i < s->r.hero.n; i++) {
        rules_result_die(dice, 10, s->r.hero.value[i], s->r.hero.kept[i]);
        tag_last(dice, role, cid);
    }
    s->total = s->r.total;
    return 0;
}

/* The critical's extra hero die (003:28), added to s; logs the die into dice. */
static void extra_hero(rules_enc *e, ten_side *s, json_t *dice)
{
    s->r.extra_hero = rules_roll_die(e->rng, 10, dice);
    tag_last(dice, "critical", s->cid);
    tenacity_judge(&s->r);
    s->total = s->r.total;
}

/* ---- stress, wounds, unconsciousness, death ---- */

void ten_coup_fail(rules_enc *e, const char *cid, const char *why)
{
    json_t *c = rules_enc_combatant(e, cid);
    if (!json_object_get(c, "coup"))
        return;
    json_object_del(c, "coup");
    rules_enc_log(e, "coup", NULL, NULL, "%s's coup de grâce fails: %s (003:107)",
                  rules_enc_name(e, cid), why);
}

static void fall_unconscious(rules_enc *e, const char *cid)
{
    json_object_set_new(rules_enc_stats(e, cid), "unconscious", json_true());
    rules_enc_cond_add(e, cid, "unconscious", 0, 0);
    rules_enc_log(e, "unconscious", NULL, NULL, "%s falls unconscious (003:106)",
                  rules_enc_name(e, cid));
    ten_coup_fail(e, cid, "its performer fell unconscious");
    ten_drop(ten_list(e, "recalled"), cid);
    ten_grip_lost(e, cid, 0);
}

void ten_perish(rules_enc *e, const char *cid, const char *why)
{
    rules_enc_set_out(e, cid, "dead");
    rules_enc_log(e, "death", NULL, NULL, "%s perishes: %s", rules_enc_name(e, cid), why);
    ten_coup_fail(e, cid, "its performer died");
    ten_grip_lost(e, cid, 1);
}

void ten_stress(rules_enc *e, const char *cid, int n, const char *why)
{
    ten_stress_quiet(e, cid, n, why, 0);
}

void ten_stress_quiet(rules_enc *e, const char *cid, int n, const char *why, int quiet)
{
    if (n <= 0 || rules_enc_is_out(e, cid))
        return;
    int npc = rules_enc_is_npc(e, cid);
    json_t *st = track(e, cid, "stress", 10);
    json_t *wo = track(e, cid, "wounds", 0);
    int cur = tget(st, "current") + n, max = tget(st, "max");
    json_t *res = json_pack("{s:i, s:i, s:i}", "stress", n, "current", cur, "max", max);
    if (npc && quiet) {
        rules_enc_log(e, "stress", NULL, NULL, "%s takes the hit (%s)", rules_enc_name(e, cid),
                      why);
        rules_enc_log_gm(e, "stress", NULL, res, "%s takes %d stress: %d/%d",
                         rules_enc_name(e, cid), n, cur, max);
    } else if (npc) {
        rules_enc_log(e, "stress", NULL, NULL, "%s takes %d stress (%s)", rules_enc_name(e, cid), n,
                      why);
        rules_enc_log_gm(e, "stress", NULL, res, "%s takes %d stress: %d/%d",
                         rules_enc_name(e, cid), n, cur, max);
    } else {
        rules_enc_log(e, "stress", NULL, res, "%s takes %d stress (%s): %d/%d",
                      rules_enc_name(e, cid), n, why, cur, max);
    }
    /* 003:66 "If the total amount of stress accrued is over the amount of maximum stress that the
     * opponent can take, then the opponent must either mark off a point of wound or fall
     * unconscious, either way, the amount of stress on that character then resets back to 0." */
    if (cur <= max) {
        json_object_set_new(st, "current", json_integer(cur));
        return;
    }
    json_object_set_new(st, "current", json_integer(0));
    int w = tget(wo, "current"), wmax = tget(wo, "max");
    if (ten_option(e, "hardcore")) {
        /* 003:109 "characters do not fall unconscious ... they must take a point of wound. Then
         * at any point if a character does not have enough wound left ... they perish." */
        if (w >= wmax) {
            ten_perish(e, cid, "no wound left to take (hardcore mode, 003:109)");
            return;
        }
    } else {
        /* 003:106 "you have the choice to either fall unconscious, or you can stay conscious by
         * taking a point of wound (if you have one available)" */
        const char *pref =
            json_string_value(json_object_get(rules_enc_combatant(e, cid), "overflow"));
        if (w >= wmax || (pref && strcmp(pref, "unconscious") == 0)) {
            fall_unconscious(e, cid);
            return;
        }
    }
    json_object_set_new(wo, "current", json_integer(w + 1));
    if (npc)
        rules_enc_log_gm(e, "wound", NULL, NULL, "%s marks a wound (%d/%d); stress back to 0",
                         rules_enc_name(e, cid), w + 1, wmax);
    else
        rules_enc_log(e, "wound", NULL, NULL, "%s marks a wound (%d/%d); stress back to 0 (003:66)",
                      rules_enc_name(e, cid), w + 1, wmax);
}

/* ---- conditions (003:96-105) ---- */

/* The condition named or described by `what` ("hinder:legs" or "legs"), or NULL. */
static json_t *find_cond(rules_enc *e, const char *cid, const char *what)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(rules_enc_combatant(e, cid), "conditions"), i, c)
    {
        if (!json_object_get(c, "kind"))
            continue;
        if (same(json_string_value(json_object_get(c, "name")), what) ||
            same(json_string_value(json_object_get(c, "what")), what))
            return c;
    }
    return NULL;
}

json_t *ten_cond_challenges(rules_enc *e, const char *cid)
{
    json_t *h = rules_enc_hidden_of(e, cid);
    json_t *c = json_object_get(h, "conds");
    if (!json_is_object(c)) {
        c = json_object();
        json_object_set_new(h, "conds", c);
    }
    return c;
}

/* Adds condition kind:what with level (hinder penalty / damage per turn) and its challenge. */
static void put_cond(rules_enc *e, const char *cid, const char *kind, const char *what, int level,
                     int challenge)
{
    char name[120];
    snprintf(name, sizeof name, "%s:%s", kind, what);
    rules_enc_cond_add(e, cid, name, 0, level);
    json_t *c = rules_enc_cond(e, cid, name);
    json_object_set_new(c, "kind", json_string(kind));
    json_object_set_new(c, "what", json_string(what));
    json_object_set_new(ten_cond_challenges(e, cid), name, json_integer(challenge));
}

/* The sheet's conditions follow the encounter's (write-back, ops_enc.c): [{kind, what, value,
 * challenge (NPCs only: a PC's stats are public)}]. */
static void sync_conditions(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *stats = rules_enc_stats(e, cid);
        json_t *out = json_array();
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(rules_enc_combatant(e, cid), "conditions"), k, c)
        {
            const char *kind = json_string_value(json_object_get(c, "kind"));
            if (!kind)
                continue;
            json_t *o = json_pack("{s:s, s:O}", "kind", kind, "what", json_object_get(c, "what"));
            if (tget(c, "level"))
                json_object_set_new(o, "value", json_integer(tget(c, "level")));
            json_t *ch = json_object_get(ten_cond_challenges(e, cid),
                                         json_string_value(json_object_get(c, "name")));
            if (rules_enc_is_npc(e, cid) && json_is_integer(ch))
                json_object_set(o, "challenge", ch);
            json_array_append_new(out, o);
        }
        if (json_array_size(out) || json_object_get(stats, "conditions"))
            json_object_set_new(stats, "conditions", out);
        else
            json_decref(out);
    }
}

/* ---- the log of a roll ---- */

/* One roll's log is a shared audience entry (rules/encounter.h): what an NPC rolls, its totals
 * and its skill names are the GM's; the public text is rendered from the public pieces. */
static void log_init(rules_enc *e, ten_log *l, const char *action)
{
    l->x = rules_enc_entry_begin(e, action);
}

/* Releases an unwritten log (the action failed). */
static void log_drop(ten_log *l)
{
    rules_enc_entry_drop(l->x);
    l->x = NULL;
}

/* Files one side's dice (in a scratch array, borrowed) and its total under key: cid's own. */
static void log_side(rules_enc *e, ten_log *l, json_t *dice, const char *cid, const char *key,
                     int total)
{
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_enc_entry_dice(l->x, aud, dice);
    rules_enc_entry_set(l->x, aud, key, json_integer(total));
}

static void log_both(ten_log *l, const char *key, json_t *v /* stolen */)
{
    rules_enc_entry_set(l->x, RULES_AUD_PUBLIC, key, v);
}

/* A field about cid's own resources (spin, push): public only for a PC. */
static void log_of(rules_enc *e, ten_log *l, const char *cid, const char *key, json_t *v)
{
    rules_enc_entry_set(l->x, rules_enc_aud_of(e, cid), key, v);
}

/* " with <skill>": cid's skill name is cid's own (an NPC's stays the GM's). */
static void log_skill(rules_enc *e, ten_log *l, const char *cid, const char *skill)
{
    if (strcmp(skill, "-") != 0)
        rules_enc_entry_say(l->x, rules_enc_aud_of(e, cid), " with %s", skill);
}

/* ": <a> vs <b>": the two totals of a contest for the GM's text, when one of them is hidden (an
 * NPC's, or a challenge the narrator set: other_hidden); between two PCs both totals are in the
 * public result already and nothing is said. */
static void log_versus(rules_enc *e, ten_log *l, const char *a_cid, const char *b_cid,
                       int other_hidden, int a, int b)
{
    if (other_hidden || rules_enc_aud_of(e, a_cid) == RULES_AUD_GM ||
        (b_cid && rules_enc_aud_of(e, b_cid) == RULES_AUD_GM))
        rules_enc_entry_say(l->x, RULES_AUD_GM, ": %d vs %d", a, b);
}

/* Writes the entries and ends the log. */
static void log_write(ten_log *l)
{
    rules_enc_entry_end(l->x);
    l->x = NULL;
}

/* ---- the contest: actor against a defender (003:66, 003:68) ---- */

static const char *args_str(const rules_args *a, const char *name)
{
    for (int i = 0; a->params && a->params[i].name; i++)
        if (strcmp(a->params[i].name, name) == 0)
            return a->sval[i];
    return NULL;
}

static int args_int(const rules_args *a, const char *name, int def)
{
    for (int i = 0; a->params && a->params[i].name; i++)
        if (strcmp(a->params[i].name, name) == 0)
            return a->ival[i];
    return def;
}

/*
 * The checks of a roll's parameters that do not need the dice (crit, push, push_with), done
 * before any die so that a refused action draws nothing: `crit` is hero or impact (003:28),
 * `push_with` names spin, tenacity or negative (003:31-37) and needs `push`. Sets *push to the
 * TENACITY_PUSH_* resources allowed (0 without a push). Returns 0 or TB_BAD_REQUEST.
 */
static int params_before_dice(const rules_args *a, int *push, tb_err *err)
{
    const char *crit = args_str(a, "crit"), *with = args_str(a, "push_with");
    *push = 0;
    if (crit && strcmp(crit, "hero") != 0 && strcmp(crit, "impact") != 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "crit: '%.20s' is not a choice: a natural 10 adds a hero die (hero) or an "
                       "impact die (impact)",
                       crit);
    int allowed = tenacity_push_resource(with);
    if (!allowed)
        return tb_fail(err, TB_BAD_REQUEST,
                       "push_with: '%.20s' is not a resource: spin, tenacity or negative", with);
    if (with && !args_int(a, "push", 0))
        return tb_fail(err, TB_BAD_REQUEST, "push_with: only with push");
    *push = args_int(a, "push", 0) ? allowed : 0;
    return 0;
}

/* Spin from the actor's roll (003:30, 003:95) and a push (003:34-37): applied to the stats. */
/* `push`: the TENACITY_PUSH_* resources the player lets the push spend (0: no push). */
static void spin_and_push(rules_enc *e, ten_side *s, int def, int *success, int push, int action,
                          ten_log *l)
{
    if (!s->hero)
        return;
    if (!*success && push) {
        tenacity_push p;
        int gain = tenacity_spin_gain(&s->r, 0, action);
        int spin = ten_spin(e, s->cid), tn = rules_enc_stat(e, s->cid, "tenacity", 0);
        if (tenacity_push_plan_with(def - s->total + 1, spin, tn, gain, push, &p) == 0) {
            ten_spin_add(e, s->cid, -p.spin - p.negative);
            rules_enc_stat_set(e, s->cid, "tenacity", tn - p.tenacity);
            s->total += p.spin + p.tenacity + p.negative;
            *success = 1;
            log_of(e, l, s->cid, "push",
                   json_pack("{s:i, s:i, s:i}", "spin", p.spin, "tenacity", p.tenacity, "negative",
                             p.negative));
        }
    }
    int gain = tenacity_spin_gain(&s->r, !*success, action);
    if (gain)
        ten_spin_add(e, s->cid, gain);
    log_of(e, l, s->cid, "spin", json_integer(gain));
}

/* The impact of a success: half the rank in d4 (+1 for a critical's impact die) + bonuses. */
int ten_impact_roll(rules_enc *e, ten_side *s, int crit_die, int bonus, json_t *dice)
{
    int n = s->hero ? tenacity_impact_dice(s->rank) : s->rank / 2;
    int impact = s->ibonus + bonus;
    for (int i = 0; i < n + crit_die; i++) {
        impact += rules_roll_die(e->rng, 4, dice);
        tag_last(dice, "impact", s->cid);
    }
    return impact < 0 ? 0 : impact;
}

/*
 * Rolls actor's `skill` against target's `def_skill` (or challenge dice), with the action's
 * params (adv, bonus, def_adv, def_bonus, crit, push, impact_bonus, def_skill) and the mods m
 * (the group initiative's advantage die, the fight's states: options.c). Fills c and the log
 * halves; the caller writes the log.
 */
static int contest(rules_enc *e, const char *actor, const char *target, const char *skill,
                   const rules_args *a, const ten_mods *m, int want_impact, ten_contest *c,
                   ten_log *l, tb_err *err)
{
    memset(c, 0, sizeof *c);
    const char *def_skill = args_str(a, "def_skill");
    if (!def_skill)
        def_skill = "Reaction"; /* 003:83 "The most common physical reaction is the reaction
                                   skill" */
    /* 003:117 full defence: "an advantage die to all of your defense rolls" */
    int def_adv =
        args_int(a, "def_adv", 0) + rules_enc_cond_has(e, target, "defensive") + m->def_adv;
    /* the parameters are sound and both skills exist before the first die: a refused contest
     * draws nothing (and its acceptance never depends on the dice) */
    int push, rc = params_before_dice(a, &push, err);
    if (rc || (rc = ten_skill_check(e, actor, skill, err)) ||
        (rc = ten_skill_check(e, target, def_skill, err)))
        return rc;
    json_t *ad = json_array(), *dd = json_array();
    rc = ten_roll(e, actor, skill, args_int(a, "adv", 0) + m->atk_adv,
                  args_int(a, "bonus", 0) + m->atk_bonus, m->reaction ? "reaction" : "attack", ad,
                  &c->atk, err);
    if (!rc)
        rc = ten_roll(e, target, def_skill, def_adv, args_int(a, "def_bonus", 0) + m->def_bonus,
                      "defence", dd, &c->def, err);
    if (rc) {
        json_decref(ad);
        json_decref(dd);
        return rc;
    }
    /* 003:28 on "any of your hero dice": the defender's critical adds its hero die (reading 7) */
    if (c->def.hero && c->def.r.critical)
        extra_hero(e, &c->def, dd);
    if (c->atk.hero && c->atk.r.critical) {
        const char *crit = args_str(a, "crit");
        int hero = crit ? strcmp(crit, "hero") == 0
                        : !tenacity_beats(c->atk.total, c->def.total); /* reading 2 */
        if (hero)
            extra_hero(e, &c->atk, ad);
        snprintf(c->took, sizeof c->took, "%s", hero ? "hero" : "impact");
    }
    /* 003:66 "If the attack result is higher than the defense result, then the attack is
     * successful"; 003:68 "defenders win all ties" */
    c->success = tenacity_beats(c->atk.total, c->def.total);
    spin_and_push(e, &c->atk, c->def.total, &c->success, push, !m->reaction, l);
    /* 003:95 spin only on one's own action: a defence gets only a fumble's negative spin */
    if (c->def.hero && c->def.r.fumble)
        ten_spin_add(e, target, -1);
    if (c->success && want_impact)
        c->impact = ten_impact_roll(e, &c->atk, strcmp(c->took, "impact") == 0,
                                    args_int(a, "impact_bonus", 0), ad);
    log_side(e, l, ad, actor, "attack", c->atk.total);
    log_side(e, l, dd, target, "defence", c->def.total);
    json_decref(ad);
    json_decref(dd);
    log_both(l, "success", json_boolean(c->success));
    if (c->took[0])
        log_of(e, l, actor, "crit", json_string(c->took));
    if (c->success && want_impact)
        log_both(l, "impact", json_integer(c->impact));
    /* 003:107 "If they are forced to do anything other than performing the coup de grâce ...
     * This includes taking a reaction to defend themselves." */
    ten_coup_fail(e, target, "its performer had to defend");
    return 0;
}

/* ---- common checks of an action ---- */

static int require_able(rules_enc *e, const char *cid, const char *action, tb_err *err)
{
    if (ten_unconscious(e, cid) && strcmp(action, "recover") != 0)
        return rules_enc_rule(err, "%s is unconscious and can only try to recover (003:106)",
                              rules_enc_name(e, cid));
    json_t *coup = json_object_get(rules_enc_combatant(e, cid), "coup");
    if (coup && strcmp(action, "coup") != 0)
        return rules_enc_rule(err,
                              "%s is performing a coup de grâce and can do nothing else "
                              "until it is done (003:107)",
                              rules_enc_name(e, cid));
    return 0;
}

static int require_skill_free(rules_enc *e, const char *cid, const char *skill, tb_err *err)
{
    const char *stop = NULL;
    hinder_on(e, cid, skill, &stop, NULL);
    if (stop)
        return rules_enc_rule(err, "%s cannot use %s: %s prevents it (003:102)",
                              rules_enc_name(e, cid), skill, stop);
    return 0;
}

static int require_target(rules_enc *e, const char *actor, const char *target, tb_err *err)
{
    if (strcmp(actor, target) == 0)
        return rules_enc_rule(err, "%s cannot target themself", rules_enc_name(e, actor));
    if (rules_enc_is_out(e, target))
        return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, target));
    return 0;
}

/* Runs after every action: conditions mirrored to the sheets, responses closed. */
static int done(rules_enc *e, int rc)
{
    if (rc == 0) {
        ten_after(e);
        sync_conditions(e);
    }
    return rc;
}

/* The skill an action rolls: `skill`, or any name for a sheetless NPC (it rolls challenge dice). */
static const char *skill_arg(const rules_args *a)
{
    const char *s = args_str(a, "skill");
    return s ? s : "-";
}

/* The checks every contest against a target makes before anything is spent or rolled: the actor
 * can act (`what` names the action), the target is someone else, and no condition stops the
 * skill (003:102). */
static int require_contest(rules_enc *e, const char *actor, const char *target, const char *what,
                           const char *skill, tb_err *err)
{
    int rc = require_able(e, actor, what, err);
    if (!rc)
        rc = require_target(e, actor, target, err);
    if (!rc)
        rc = require_skill_free(e, actor, skill, err);
    return rc;
}

/* ---- the pieces social.c shares (enc_tenacity.h) ---- */

int ten_contest_roll(rules_enc *e, const char *actor, const char *target, const char *skill,
                     const rules_args *a, ten_contest *c, ten_log *l, tb_err *err)
{
    static const ten_mods none = {0};
    return contest(e, actor, target, skill, a, &none, 1, c, l, err);
}

int ten_contest_mods(rules_enc *e, const char *actor, const char *target, const char *skill,
                     const rules_args *a, const ten_mods *m, int want_impact, ten_contest *c,
                     ten_log *l, tb_err *err)
{
    return contest(e, actor, target, skill, a, m, want_impact, c, l, err);
}

int ten_roll_params(const rules_args *a, tb_err *err)
{
    int push;
    return params_before_dice(a, &push, err);
}

int ten_require_able(rules_enc *e, const char *cid, const char *action, tb_err *err)
{
    return require_able(e, cid, action, err);
}

int ten_require_target(rules_enc *e, const char *actor, const char *target, tb_err *err)
{
    return require_target(e, actor, target, err);
}

int ten_require_skill_free(rules_enc *e, const char *cid, const char *skill, tb_err *err)
{
    return require_skill_free(e, cid, skill, err);
}

const char *ten_arg_str(const rules_args *a, const char *name)
{
    return args_str(a, name);
}

void ten_tag_last(json_t *dice, const char *role, const char *cid)
{
    tag_last(dice, role, cid);
}

int ten_impact(rules_enc *e, ten_side *s, json_t *dice)
{
    return ten_impact_roll(e, s, 0, 0, dice);
}

int ten_require_contest(rules_enc *e, const char *actor, const char *target, const char *what,
                        const char *skill, tb_err *err)
{
    return require_contest(e, actor, target, what, skill, err);
}

const char *ten_skill_arg(const rules_args *a)
{
    return skill_arg(a);
}

void ten_log_begin(rules_enc *e, ten_log *l, const char *action)
{
    log_init(e, l, action);
}

void ten_log_drop(ten_log *l)
{
    log_drop(l);
}

void ten_log_write(ten_log *l)
{
    log_write(l);
}

void ten_log_side(rules_enc *e, ten_log *l, json_t *dice, const char *cid, const char *key,
                  int total)
{
    log_side(e, l, dice, cid, key, total);
}

void ten_log_roll(rules_enc *e, ten_log *l, const char *actor, const char *target,
                  const char *skill, const ten_contest *c)
{
    log_skill(e, l, actor, skill);
    log_versus(e, l, actor, target, 0, c->atk.total, c->def.total);
}

void ten_done(rules_enc *e)
{
    done(e, 0);
}

/* ---- actions ---- */

/* ---- social standing (003:49, 003:70) ----
 * The scale is the shared one (ten_standing_*, below): the actor's standing in the target's eyes.
 * It starts where the narrator sets it (`standing`), 5 when unset (003:70 "Usually you start in a
 * neutral position such as 5"). */

#define STANDING_TOP TEN_STANDING_TOP
#define STANDING_START TEN_STANDING_START

/* /enc/standing (created if missing). Borrowed. */
static json_t *standing_all(rules_enc *e)
{
    json_t *all = json_object_get(e->enc, "standing");
    if (!json_is_object(all)) {
        all = json_object();
        json_object_set_new(e->enc, "standing", all);
    }
    return all;
}

int ten_standing_of(rules_enc *e, const char *who, const char *eyes, int def)
{
    json_t *v = json_object_get(json_object_get(json_object_get(e->enc, "standing"), who), eyes);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

void ten_standing_set(rules_enc *e, const char *who, const char *eyes, int v)
{
    json_t *all = standing_all(e), *mine = json_object_get(all, who);
    if (!json_is_object(mine)) {
        mine = json_object();
        json_object_set_new(all, who, mine);
    }
    json_object_set_new(mine, eyes, json_integer(v));
}

int ten_standing_move(rules_enc *e, const char *who, const char *eyes, int from, int delta)
{
    int after = from + delta;
    after = after < 0 ? 0 : after > TEN_STANDING_TOP ? TEN_STANDING_TOP : after;
    ten_standing_set(e, who, eyes, after);
    return after;
}

/* GM: where `target`'s standing in the eyes of `target2` starts or stands (003:70). */
static int act_standing(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *who = rules_arg_str(a, "target"), *eyes = rules_arg_str(a, "target2");
    int v = rules_arg_int(a, "value");
    ten_standing_set(e, who, eyes, v);
    rules_enc_log(e, "standing", NULL, NULL, "%s's standing with %s is %d of %d (003:70)",
                  rules_enc_name(e, who), rules_enc_name(e, eyes), v, STANDING_TOP);
    return 0;
}

/* 003:49 "CHANGE SOCIAL STANDING: On a successful skill check you improve your social standing on
 * the social scale by your skill's impact roll. On a fail, your social standard declines by your
 * opponent's impact roll." A contest like any other (ties to the defender, 003:68; spin and pushes
 * as in every check); 10 wins the social challenge, 0 loses all credibility (003:70). */
static int act_social(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *skill = skill_arg(a);
    int rc = require_contest(e, actor, target, "social", skill, err);
    if (rc)
        return rc;
    int before = ten_standing_of(e, actor, target, STANDING_START);
    if (before <= 0 || before >= STANDING_TOP)
        return rules_enc_rule(err, "%s's social contest with %s is over (%s, 003:70)",
                              rules_enc_name(e, actor), rules_enc_name(e, target),
                              before <= 0 ? "no credibility left" : "won");
    int edge = ten_take_action(e, actor, err);
    if (edge < 0)
        return err->code;
    ten_contest c;
    ten_log l;
    log_init(e, &l, "social");
    if ((rc = contest(e, actor, target, skill, a, &(ten_mods){.atk_adv = edge}, 1, &c, &l, err))) {
        log_drop(&l);
        return rc;
    }
    int moved = c.impact;
    if (!c.success) {
        json_t *dd = json_array();
        moved = ten_impact_roll(e, &c.def, 0, 0, dd);
        log_side(e, &l, dd, target, "opp_impact", moved);
        json_decref(dd);
    }
    int after = ten_standing_move(e, actor, target, before, c.success ? moved : -moved);
    log_both(&l, "standing", json_integer(after));
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, "%s works on %s", rules_enc_name(e, actor),
                        rules_enc_name(e, target));
    log_skill(e, &l, actor, skill);
    log_versus(e, &l, actor, target, 0, c.atk.total, c.def.total);
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": standing %d → %d of %d%s", before, after,
                        STANDING_TOP,
                        after >= STANDING_TOP ? ": the social challenge is won (003:70)"
                        : after <= 0          ? ": all credibility lost (003:70)"
                                              : "");
    log_write(&l);
    return done(e, 0);
}

static int act_condition(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *kind = rules_arg_str(a, "kind"), *what = rules_arg_str(a, "what");
    const char *skill = skill_arg(a);
    if (strcmp(kind, "hinder") != 0 && strcmp(kind, "stop") != 0 && strcmp(kind, "damage") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "'kind' is hinder, stop or damage (003:99-103)");
    if (strchr(what, ':'))
        return tb_fail(err, TB_BAD_REQUEST, "'what' names a body part or skill, without ':'");
    int rc = require_contest(e, actor, target, "condition", skill, err);
    if (rc)
        return rc;
    int edge = ten_take_action(e, actor, err);
    if (edge < 0)
        return err->code;
    ten_contest c;
    ten_log l;
    log_init(e, &l, "condition");
    /* 003:120 a resistance is "the bonus they receive to their rolls to avoid conditions from a
     * source of that type" */
    ten_mods m = {.atk_adv = edge, .def_bonus = ten_resist_of(e, target, args_str(a, "type"))};
    if ((rc = contest(e, actor, target, skill, a, &m, strcmp(kind, "stop") != 0, &c, &l, err))) {
        log_drop(&l);
        return rc;
    }
    const char *tn = rules_enc_name(e, target);
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, "%s tries to %s %s's %s", rules_enc_name(e, actor),
                        kind, tn, what);
    log_versus(e, &l, actor, target, 0, c.atk.total, c.def.total);
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": %s",
                        c.success ? "success" : "failure (ties to the defender)");
    log_write(&l);
    if (c.success) {
        /* 003:99 the hinder penalty is the impact rolled; a damage condition's damage per turn
         * likewise (reading); at least 1. 003:97 the challenge to shake it off: the applier's
         * roll unless the narrator sets one (reading). */
        int level = strcmp(kind, "stop") == 0 ? 0 : (c.impact < 1 ? 1 : c.impact);
        int challenge =
            rules_arg_given(a, "challenge") ? rules_arg_int(a, "challenge") : c.atk.total;
        char name[120];
        snprintf(name, sizeof name, "%s:%s", kind, what);
        json_t *old = rules_enc_cond(e, target, name);
        if (old && tget(old, "level") >= level && level) {
            /* 003:99 "Penalties applied by hindering conditions do not stack ... if not then the
             * original penalty remains" */
            rules_enc_log(e, "condition", NULL, NULL,
                          "%s keeps %s at %d: the original penalty "
                          "remains (003:99)",
                          tn, name, tget(old, "level"));
        } else {
            put_cond(e, target, kind, what, level, challenge);
            if (level)
                rules_enc_log(e, "condition", NULL, NULL, "%s is %s (%d)", tn, name, level);
            else
                rules_enc_log(e, "condition", NULL, NULL, "%s is %s", tn, name);
            if (strcmp(kind, "stop") == 0 && covers(e, target, what, "move"))
                ten_coup_fail(e, target, "its performer was stopped");
        }
    }
    ten_bring(e, target);
    return done(e, 0);
}

int ten_shake(rules_enc *e, const char *cid, const char *cond, const char *skill, int action,
              tb_err *err)
{
    json_t *c = find_cond(e, cid, cond);
    if (!c)
        return rules_enc_rule(err, "%s has no condition '%.40s' to shake off",
                              rules_enc_name(e, cid), cond);
    const char *name = json_string_value(json_object_get(c, "name"));
    int rc = ten_grip_may_shake(e, cid, name, action, err); /* 003:104-105 */
    if (rc)
        return rc;
    json_t *chv = json_object_get(ten_cond_challenges(e, cid), name);
    /* a condition from the sheet without a challenge: the narrator sets one (enc.set); 7 until
     * then (reading) */
    int challenge = json_is_integer(chv) ? (int)json_integer_value(chv) : 7;
    json_t *dice = json_array();
    ten_side s;
    rc = ten_roll(e, cid, skill, 0, 0, ten_grip_cond(name) ? "escape" : "shake", dice, &s, err);
    if (rc) {
        json_decref(dice);
        return rc;
    }
    int ok = tenacity_beats(s.total, challenge);
    if (s.hero) {
        int gain = tenacity_spin_gain(&s.r, !ok, action); /* 003:95 */
        if (gain)
            ten_spin_add(e, cid, gain);
    }
    ten_log l;
    log_init(e, &l, "shake");
    log_side(e, &l, dice, cid, "total", s.total);
    json_decref(dice);
    /* the challenge is the GM's (003:97 "as set by the narrator") */
    rules_enc_entry_set(l.x, RULES_AUD_GM, "challenge", json_integer(challenge));
    log_both(&l, "success", json_boolean(ok));
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, "%s tries to shake off %s", rules_enc_name(e, cid),
                        name);
    log_skill(e, &l, cid, skill);
    if (!action)
        rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, " (free, end of turn, 003:97)");
    log_versus(e, &l, cid, NULL, 1, s.total, challenge);
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": %s", ok ? "it is gone" : "it remains");
    char keep[120];
    snprintf(keep, sizeof keep, "%s", name);
    log_write(&l);
    if (ok) {
        json_object_del(ten_cond_challenges(e, cid), keep);
        rules_enc_cond_remove(e, cid, keep);
        ten_grip_shaken(e, cid, keep);
    }
    return 0;
}

static int act_overcome(rules_enc *e, const rules_args *a, tb_err *err)
{
    /* 003:97 "A creature can also take their action to attempt to remove a condition" */
    const char *actor = e->actor;
    int rc = require_able(e, actor, "overcome", err);
    if (rc)
        return rc;
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    return done(e, ten_shake(e, actor, rules_arg_str(a, "cond"), skill_arg(a), 1, err));
}

static int act_advantage(rules_enc *e, const rules_args *a, tb_err *err)
{
    /* 003:67 create an advantage: "1 spin to an ally or yourself for every 2 points of impact
     * generated (minimum 1)" */
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *to = rules_arg_str(a, "to");
    const char *skill = skill_arg(a);
    if (!to)
        to = actor;
    if (!rules_enc_combatant(e, to))
        return tb_fail(err, TB_NOT_FOUND, "to: no combatant '%.32s' in the encounter", to);
    if (ten_opposed(e, actor, to))
        return rules_enc_rule(err, "spin goes to yourself or an ally (003:67), not to %s",
                              rules_enc_name(e, to));
    int rc = require_able(e, actor, "advantage", err);
    if (!rc && target)
        rc = require_target(e, actor, target, err);
    if (!rc)
        rc = require_skill_free(e, actor, skill, err);
    if (rc)
        return rc;
    int edge = ten_take_action(e, actor, err);
    if (edge < 0)
        return err->code;
    ten_contest c;
    ten_log l;
    log_init(e, &l, "advantage");
    if (target) {
        if ((rc = contest(e, actor, target, skill, a, &(ten_mods){.atk_adv = edge}, 1, &c, &l,
                          err))) {
            log_drop(&l);
            return rc;
        }
    } else {
        /* against "challenge dice as assigned by the narrator": the GM's roll stays hidden */
        memset(&c, 0, sizeof c);
        int push;
        if ((rc = params_before_dice(a, &push, err))) {
            log_drop(&l);
            return rc;
        }
        json_t *ad = json_array(), *cd = json_array();
        rc = ten_roll(e, actor, skill, args_int(a, "adv", 0) + edge, args_int(a, "bonus", 0),
                      "advantage", ad, &c.atk, err);
        if (rc) {
            json_decref(ad);
            json_decref(cd);
            log_drop(&l);
            return rc;
        }
        int ch = 0;
        for (int i = 0; i < rules_arg_int(a, "challenge_dice"); i++) {
            ch += rules_roll_die(e->rng, 6, cd);
            tag_last(cd, "challenge", "gm");
        }
        c.def.total = ch;
        if (c.atk.hero && c.atk.r.critical) {
            int hero = !tenacity_beats(c.atk.total, ch);
            if (hero)
                extra_hero(e, &c.atk, ad);
            snprintf(c.took, sizeof c.took, "%s", hero ? "hero" : "impact");
        }
        c.success = tenacity_beats(c.atk.total, ch);
        spin_and_push(e, &c.atk, ch, &c.success, push, 1, &l);
        if (c.success)
            c.impact = ten_impact_roll(e, &c.atk, strcmp(c.took, "impact") == 0, 0, ad);
        log_side(e, &l, ad, actor, "total", c.atk.total);
        rules_enc_entry_dice(l.x, RULES_AUD_GM, cd);
        rules_enc_entry_set(l.x, RULES_AUD_GM, "challenge", json_integer(ch));
        json_decref(ad);
        json_decref(cd);
        log_both(&l, "success", json_boolean(c.success));
        if (c.success)
            log_both(&l, "impact", json_integer(c.impact));
    }
    int spin = c.success ? tenacity_advantage_spin(c.impact) : 0;
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, "%s creates an advantage", rules_enc_name(e, actor));
    log_skill(e, &l, actor, skill);
    log_versus(e, &l, actor, target, !target, c.atk.total, c.def.total);
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": %s", c.success ? "success" : "failure");
    log_write(&l);
    if (spin) {
        ten_spin_add(e, to, spin);
        rules_enc_log(e, "advantage", NULL, json_pack("{s:i}", "spin", spin),
                      "%s gains %d spin (003:67)", rules_enc_name(e, to), spin);
    }
    if (target)
        ten_bring(e, target);
    return done(e, 0);
}

static int act_move(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor;
    int rc = require_able(e, actor, "move", err);
    if (!rc)
        rc = require_skill_free(e, actor, "move", err); /* a stop condition on movement */
    if (!rc)
        rc = rules_enc_spend(e, actor, "move", 1, err);
    if (rc)
        return rc;
    const char *what = rules_arg_str(a, "what");
    rules_enc_log(e, "move", NULL, NULL, "%s moves%s%s", rules_enc_name(e, actor), what ? ": " : "",
                  what ? what : "");
    return done(e, 0);
}

static int act_interact(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor;
    int rc = require_able(e, actor, "interact", err);
    if (!rc)
        rc = rules_enc_spend(e, actor, "interaction", 1, err);
    if (rc)
        return rc;
    const char *what = rules_arg_str(a, "what");
    rules_enc_log(e, "interact", NULL, NULL, "%s: %s", rules_enc_name(e, actor),
                  what ? what : "an interaction");
    return done(e, 0);
}

static int act_defend(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *actor = e->actor;
    int rc = require_able(e, actor, "defend", err);
    if (rc)
        return rc;
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    /* 003:117 "By spending your action to defend, you receive an advantage die to all of your
     * defense rolls until your next turn." */
    rules_enc_cond_add(e, actor, "defensive", 0, 0);
    rules_enc_log(e, "defend", NULL, NULL, "%s goes on full defence (003:117)",
                  rules_enc_name(e, actor));
    return done(e, 0);
}

/* 003:72 "you may spend your action to sprint. By sprinting, you roll your athletic skill check
 * and add the total amount of the check to your movement spaces for that round" (until the
 * sprinter's next turn: the condition `sprinting`, its level the extra spaces). An action roll:
 * doubles gain spin, a fumble negative spin (003:95, 003:30). */
static int act_sprint(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor;
    const char *skill = rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Athletics";
    int rc = require_able(e, actor, "sprint", err);
    if (!rc)
        rc = require_skill_free(e, actor, "move", err); /* a stop condition on movement */
    if (!rc)
        rc = ten_skill_check(e, actor, skill, err);
    if (rc)
        return rc;
    int extra = ten_take_action(e, actor, err);
    if (extra < 0)
        return err->code;
    json_t *dice = json_array();
    ten_side s;
    if (ten_roll(e, actor, skill, rules_arg_int(a, "adv") + extra, rules_arg_int(a, "bonus"),
                 "sprint", dice, &s, err)) {
        json_decref(dice);
        return err->code;
    }
    int total = s.total < 0 ? 0 : s.total;
    int gain = s.hero ? tenacity_spin_gain(&s.r, 0, 1) : 0;
    if (gain)
        ten_spin_add(e, actor, gain);
    rules_enc_cond_add(e, actor, "sprinting", 0, total);
    rules_enc_log(e, "sprint", dice, json_pack("{s:i, s:i}", "spaces", total, "spin", gain),
                  "%s sprints: %d more spaces of movement this round%s", rules_enc_name(e, actor),
                  total,
                  gain > 0   ? ", +1 spin"
                  : gain < 0 ? ", 1 negative spin"
                             : "");
    return done(e, 0);
}

/* 003:112 "you can spend your action to withdraw in order to avoid any parting shots from any
 * character in which you started your turn within melee range" (003:71): the condition
 * `withdrawing` until the next turn tells the table no parting strike is due. */
static int act_withdraw(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *actor = e->actor;
    int rc = require_able(e, actor, "withdraw", err);
    if (rc)
        return rc;
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    rules_enc_cond_add(e, actor, "withdrawing", 0, 0);
    rules_enc_log(e, "withdraw", NULL, NULL,
                  "%s withdraws: no parting strike from anyone in melee range at the start of "
                  "the turn",
                  rules_enc_name(e, actor));
    return done(e, 0);
}

static int act_generate_spin(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *actor = e->actor;
    int rc = require_able(e, actor, "generate_spin", err);
    if (rc)
        return rc;
    /* 003:76 "if your character has no spin (including negative spin), they can take their
     * action to concentrate ... one (1) point of positive spin"; 003:55 "spend your entire turn" */
    if (ten_spin(e, actor) != 0)
        return rules_enc_rule(err, "%s can generate spin only at 0 spin, not %d (003:76)",
                              rules_enc_name(e, actor), ten_spin(e, actor));
    if (!(rules_enc_budget_left(e, actor, "action") && rules_enc_budget_left(e, actor, "move") &&
          rules_enc_budget_left(e, actor, "interaction")))
        return rules_enc_rule(err, "generating spin takes %s's entire turn (003:55)",
                              rules_enc_name(e, actor));
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    rules_enc_budget_set(e, actor, "move", 0);
    rules_enc_budget_set(e, actor, "interaction", 0);
    ten_spin_add(e, actor, 1);
    rules_enc_log(e, "generate_spin", NULL, NULL, "%s concentrates and gains 1 spin (003:76)",
                  rules_enc_name(e, actor));
    return done(e, 0);
}

static int act_recover(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor;
    if (!ten_unconscious(e, actor))
        return rules_enc_rule(err, "%s is not unconscious", rules_enc_name(e, actor));
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    const char *skill = args_str(a, "skill");
    if (!skill)
        skill = "Concentration"; /* 003:106 "roll their strength or concentration" */
    json_t *dice = json_array();
    ten_side s;
    int rc = ten_roll(e, actor, skill, 0, 0, "recover", dice, &s, err);
    if (rc) {
        json_decref(dice);
        return rc;
    }
    /* 003:106 "The challenge rating for recovering from unconsciousness without help is 2d6 +
     * 1d6 for every point of wound that the character currently has." */
    int wounds = tget(track(e, actor, "wounds", 0), "current");
    int ch = 0;
    json_t *cd = json_array();
    for (int i = 0; i < tenacity_unconscious_dice(wounds); i++) {
        ch += rules_roll_die(e->rng, 6, cd);
        tag_last(cd, "challenge", "gm");
    }
    int ok = tenacity_beats(s.total, ch);
    if (s.hero) {
        int gain = tenacity_spin_gain(&s.r, !ok, 1);
        if (gain)
            ten_spin_add(e, actor, gain);
    }
    ten_log l;
    log_init(e, &l, "recover");
    log_side(e, &l, dice, actor, "total", s.total);
    rules_enc_entry_dice(l.x, RULES_AUD_PUBLIC, cd); /* the rulebook's own challenge: open */
    log_both(&l, "challenge", json_integer(ch));
    log_both(&l, "success", json_boolean(ok));
    json_decref(dice);
    json_decref(cd);
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, "%s tries to recover", rules_enc_name(e, actor));
    log_skill(e, &l, actor, skill);
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, " against %dd6: %s",
                        tenacity_unconscious_dice(wounds), ok ? "wakes up" : "stays unconscious");
    log_write(&l);
    if (ok) {
        json_object_set_new(rules_enc_stats(e, actor), "unconscious", json_false());
        rules_enc_cond_remove(e, actor, "unconscious");
    }
    return done(e, 0);
}

void ten_coup_finish(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *coup = json_object_get(c, "coup");
    const char *target = json_string_value(json_object_get(coup, "target"));
    if (target && !rules_enc_is_out(e, target)) {
        char why[160];
        snprintf(why, sizeof why, "%s's coup de grâce (003:107)", rules_enc_name(e, cid));
        ten_perish(e, target, why);
    }
    json_object_del(c, "coup");
}

static int act_coup(rules_enc *e, const rules_args *a, tb_err *err)
{
    /* 003:107 "A coup de grâce requires two full actions to perform. Once someone begins a coup
     * de grâce action, they cannot do anything else until the end of their next turn in which
     * that action must be spent to complete the coup de grâce." */
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    int rc = require_able(e, actor, "coup", err);
    if (!rc)
        rc = require_target(e, actor, target, err);
    if (rc)
        return rc;
    json_t *me = rules_enc_combatant(e, actor);
    json_t *coup = json_object_get(me, "coup");
    if (ten_str(e, "responder"))
        return rules_enc_rule(err, "a coup de grâce takes two full actions on one's own turns "
                                   "(003:107), not a response");
    if (!coup) {
        if (!ten_unconscious(e, target))
            return rules_enc_rule(err,
                                  "%s is not helpless: a coup de grâce is on an unconscious "
                                  "character (003:106-107)",
                                  rules_enc_name(e, target));
        if (ten_take_action(e, actor, err) < 0)
            return err->code;
        json_object_set_new(me, "coup", json_pack("{s:s, s:i}", "target", target, "stage", 1));
        rules_enc_log(e, "coup", NULL, NULL,
                      "%s begins a coup de grâce on %s: it completes with the action of their "
                      "next turn (003:107)",
                      rules_enc_name(e, actor), rules_enc_name(e, target));
        ten_bring(e, target);
        return done(e, 0);
    }
    if (!rules_enc_streq(json_string_value(json_object_get(coup, "target")), target))
        return rules_enc_rule(
            err, "%s's coup de grâce is on %s", rules_enc_name(e, actor),
            rules_enc_name(e, json_string_value(json_object_get(coup, "target"))));
    if (json_integer_value(json_object_get(coup, "stage")) < 2 ||
        json_is_true(json_object_get(coup, "done")))
        return rules_enc_rule(err,
                              "the coup de grâce's second action comes on %s's next turn "
                              "(003:107)",
                              rules_enc_name(e, actor));
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    json_object_set_new(coup, "done", json_true());
    rules_enc_log(e, "coup", NULL, NULL,
                  "%s completes the coup de grâce: %s perishes at the end of this turn (003:107)",
                  rules_enc_name(e, actor), rules_enc_name(e, target));
    ten_bring(e, target);
    return done(e, 0);
}

static int act_overflow(rules_enc *e, const rules_args *a, tb_err *err)
{
    /* 003:106 the choice between a wound and unconsciousness is the character's */
    const char *choice = rules_arg_str(a, "choice");
    if (strcmp(choice, "wound") != 0 && strcmp(choice, "unconscious") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "'choice' is wound or unconscious (003:106)");
    json_object_set_new(rules_enc_combatant(e, e->actor), "overflow", json_string(choice));
    rules_enc_log(e, "overflow", NULL, NULL, "Over their maximum stress, %s will %s (003:106)",
                  rules_enc_name(e, e->actor),
                  strcmp(choice, "wound") == 0 ? "take a wound while one is left"
                                               : "fall unconscious");
    return 0;
}

static int wrap_end(rules_enc *e, const rules_args *a, tb_err *err)
{
    return done(e, ten_act_end(e, a, err));
}

static int wrap_pass(rules_enc *e, const rules_args *a, tb_err *err)
{
    return done(e, ten_act_pass(e, a, err));
}

static int wrap_respond(rules_enc *e, const rules_args *a, tb_err *err)
{
    return done(e, ten_act_respond(e, a, err));
}

static int wrap_spotlight(rules_enc *e, const rules_args *a, tb_err *err)
{
    return done(e, ten_act_spotlight(e, a, err));
}

static int wrap_initiative(rules_enc *e, const rules_args *a, tb_err *err)
{
    return done(e, ten_act_initiative(e, a, err));
}

/* ---- joining ---- */

static int start(rules_enc *e, const rules_args *options, tb_err *err)
{
    (void)options;
    (void)err;
    /* 003:82 "Every turn you can take one action, one interaction, and one movement." */
    rules_enc_budget_default(
        e, json_pack("{s:i, s:i, s:i}", "action", 1, "interaction", 1, "move", 1));
    ten_set_str(e, "spotlight", NULL);
    json_object_set_new(e->enc, "acted", json_array());
    json_object_set_new(e->enc, "cue", json_array());
    json_object_set_new(e->enc, "recalled", json_array());
    ten_set_str(e, "responder", NULL);
    ten_set_flag(e, "choosing", 0);
    ten_set_flag(e, "opening", 0);
    return 0;
}

json_t *ten_skills_of_sheet(const json_t *sheet)
{
    /* the skills an encounter rolls: {name: [attribute dice, rank, impact bonus, attribute]} */
    json_t *skills = json_object();
    size_t i, k, q;
    json_t *attr, *sk, *eq;
    json_array_foreach(json_object_get(sheet, "attributes"), i, attr)
    {
        json_array_foreach(json_object_get(attr, "skills"), k, sk)
        {
            const char *name = json_string_value(json_object_get(sk, "name"));
            int bonus = 0;
            /* 003:119 one item per action: the best bonus of an item for that skill */
            json_array_foreach(json_object_get(sheet, "equipment"), q, eq)
            {
                const char *s = json_string_value(json_object_get(eq, "skill"));
                int b = (int)json_integer_value(json_object_get(eq, "impact_bonus"));
                if (s && name && strcmp(s, name) == 0 && b > bonus)
                    bonus = b;
            }
            json_object_set_new(skills, name,
                                json_pack("[i, i, i, O]",
                                          (int)json_integer_value(json_object_get(attr, "dice")),
                                          (int)json_integer_value(json_object_get(sk, "rank")),
                                          bonus, json_object_get(attr, "name")));
        }
    }
    return skills;
}

int ten_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)err;
    json_t *stats = rules_enc_stats(e, cid);
    if (sheet) {
        json_object_set_new(stats, "skills", ten_skills_of_sheet(sheet));
        size_t i;
        json_t *eq;
        /* the sheet's conditions enter the encounter */
        json_array_foreach(json_object_get(sheet, "conditions"), i, eq)
        {
            json_t *ch = json_object_get(eq, "challenge");
            put_cond(e, cid, json_string_value(json_object_get(eq, "kind")),
                     json_string_value(json_object_get(eq, "what")),
                     (int)json_integer_value(json_object_get(eq, "value")),
                     json_is_integer(ch) ? (int)json_integer_value(ch) : 7);
        }
    } else {
        /* a quick NPC: the NPC card's challenge dice (003:13-14); the GM sets them with enc.set
         * under /gm/enc/combatants/<id>/stats */
        json_object_set_new(stats, "challenge_dice", json_integer(2));
        json_object_set_new(stats, "challenge_bonus", json_integer(0));
        json_object_set_new(stats, "impact_dice", json_integer(1));
        json_object_set_new(stats, "impact_bonus", json_integer(0));
        track(e, cid, "stress", 6);
        track(e, cid, "wounds", 0);
    }
    if (ten_unconscious(e, cid))
        rules_enc_cond_add(e, cid, "unconscious", 0, 0);
    /* joining a running fight: last in the order; acts when the spotlight reaches them */
    if (rules_enc_round(e) > 0)
        json_array_append_new(json_object_get(e->enc, "order"), json_string(cid));
    sync_conditions(e);
    return 0;
}

/* ---- the table ---- */

#define P_TARGET                                                                                   \
    {                                                                                              \
        "target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "target"                     \
    }
#define P_SKILL                                                                                    \
    {                                                                                              \
        "skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill rolled"                                   \
    }
#define P_ROLL                                                                                     \
    {"adv", RULES_PARAM_INT, 0, 5, 0, 0, "advantage dice"},                                        \
        {"bonus", RULES_PARAM_INT, -20, 20, 0, 0, "bonus to the result"},                          \
        {"crit", RULES_PARAM_STRING, 4, 6, 0, 0, "natural 10: hero or impact (003:28)"},           \
        {"push", RULES_PARAM_BOOL, 0, 1, 0, 0, "push a failure with spin/10acity/negative spin"},  \
    {                                                                                              \
        "push_with", RULES_PARAM_STRING, 1, 10, 0, 0,                                              \
            "what pays the push: spin, tenacity or negative (default: the cheapest first)"         \
    }
#define P_DEF                                                                                      \
    {"def_skill", RULES_PARAM_STRING, 1, 60, 0, 0, "defender's skill (Reaction)"},                 \
        {"def_adv", RULES_PARAM_INT, 0, 5, 0, 0, "defender's advantage dice"},                     \
    {                                                                                              \
        "def_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "defender's bonus"                            \
    }

static const rules_param P_INITIATIVE[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "initiative skill (Reaction)"},
    {0},
};
static const rules_param P_PASS[] = {P_TARGET, {0}};
static const rules_param P_END[] = {
    {"next", RULES_PARAM_STRING, 1, 32, 0, 0, "who takes the spotlight next"},
    {"shake", RULES_PARAM_STRING, 1, 120, 0, 0, "a condition to shake off (free, 003:97)"},
    {"shake_skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill for it (Endurance)"},
    {0},
};
static const rules_param P_RESPOND[] = {
    {"pay", RULES_PARAM_STRING, 4, 8, 0, 0, "spin or tenacity"},
    {0},
};
#define P_STRIKE                                                                                   \
    {"impact_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "extra impact (003:12)"},                     \
        {"range", RULES_PARAM_STRING, 1, 10, 0, 0, "melee or ranged (melee)"},                     \
        {"type", RULES_PARAM_STRING, 1, 30, 0, 0, "damage type, for resistances"},                 \
    {                                                                                              \
        "find", RULES_PARAM_INT, 1, 11, 6, 0, "d10 to find someone behind soft cover (6)"          \
    }
static const rules_param P_ATTACK[] = {
    P_TARGET,
    P_SKILL,
    P_ROLL,
    P_DEF,
    P_STRIKE,
    {"target2", RULES_PARAM_STRING, 1, 32, 0, 0, "a flanking ally who gains a spin on a hit"},
    {0},
};
static const rules_param P_PARTING[] = {P_TARGET, P_SKILL, P_ROLL, P_DEF, P_STRIKE, {0}};
static const rules_param P_GRAPPLE[] = {
    P_TARGET,
    P_SKILL,
    P_ROLL,
    P_DEF,
    {"limbs", RULES_PARAM_INT, 1, 8, 1, 0, "limbs grappled (more than one: all physical actions)"},
    {"what", RULES_PARAM_STRING, 1, 40, 0, 0, "the limb or skill held (arm)"},
    {"range", RULES_PARAM_STRING, 1, 10, 0, 0, "melee or ranged (melee)"},
    {0},
};
static const rules_param P_LOCK[] = {
    P_TARGET,
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill whose damage applies (Unarmed Combat)"},
    {"impact_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "the weapon's damage bonus"},
    {"type", RULES_PARAM_STRING, 1, 30, 0, 0, "damage type, for resistances"},
    {0},
};
static const rules_param P_ESCAPE[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill (Athletics)"},
    {0},
};
static const rules_param P_HOLD[] = {
    {"what", RULES_PARAM_STRING, 4, 6, 0, 0, "action or move (action)"},
    {"trigger", RULES_PARAM_STRING, 1, 160, 0, RULES_PARAM_REQUIRED, "what sets it off"},
    {0},
};
static const rules_param P_HELP[] = {
    P_TARGET,
    {"skill", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "the skill you help with"},
    {0},
};
static const rules_param P_COVER[] = {
    {"cover", RULES_PARAM_STRING, 4, 7, 0, RULES_PARAM_REQUIRED,
     "cover: none, partial, full or soft"},
    {0},
};
static const rules_param P_PRONE[] = {
    {"prone", RULES_PARAM_BOOL, 0, 1, 0, RULES_PARAM_REQUIRED, "lie down (unticked: stand up)"},
    {0},
};
static const rules_param P_HIGH[] = {
    {"elevated", RULES_PARAM_BOOL, 0, 1, 0, RULES_PARAM_REQUIRED,
     "on the high ground (unticked: down)"},
    {0},
};
static const rules_param P_SIZE[] = {
    P_TARGET,
    {"size", RULES_PARAM_INT, -4, 8, 0, RULES_PARAM_REQUIRED, "size steps (0: one space)"},
    {0},
};
static const rules_param P_RESIST[] = {
    P_TARGET,
    {"type", RULES_PARAM_STRING, 1, 30, 0, RULES_PARAM_REQUIRED, "damage or condition type"},
    {"value", RULES_PARAM_INT, 0, 20, 0, RULES_PARAM_REQUIRED, "how much (0 removes it)"},
    {0},
};
static const rules_param P_OFFER[] = {
    P_TARGET,
    {"negative", RULES_PARAM_INT, 1, 10, 0, RULES_PARAM_REQUIRED, "negative spin taken away"},
    {"cost", RULES_PARAM_STRING, 1, 160, 0, RULES_PARAM_REQUIRED, "the change in the scene"},
    {0},
};
static const rules_param P_DIE[] = {
    {"confirm", RULES_PARAM_BOOL, 0, 1, 0, RULES_PARAM_REQUIRED, "yes, my character dies"},
    {0},
};
static const rules_param P_CONDITION[] = {
    P_TARGET,
    {"kind", RULES_PARAM_STRING, 4, 6, 0, RULES_PARAM_REQUIRED, "hinder, stop or damage"},
    {"what", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "what it affects (legs, ...)"},
    P_SKILL,
    P_ROLL,
    P_DEF,
    {"challenge", RULES_PARAM_INT, 0, 99, 0, RULES_PARAM_SECRET, "challenge to shake it off"},
    {"type", RULES_PARAM_STRING, 1, 30, 0, 0, "its source's type, for resistances"},
    {0},
};
static const rules_param P_OVERCOME[] = {
    {"cond", RULES_PARAM_STRING, 1, 120, 0, RULES_PARAM_REQUIRED, "the condition"},
    P_SKILL,
    {0},
};
static const rules_param P_ADVANTAGE[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "an opponent to roll against"},
    {"to", RULES_PARAM_STRING, 1, 32, 0, 0, "who gets the spin (yourself)"},
    {"challenge_dice", RULES_PARAM_INT, 1, 6, 2, 0, "challenge d6s without a target"},
    P_SKILL,
    P_ROLL,
    P_DEF,
    {0},
};
static const rules_param P_WHAT[] = {
    {"what", RULES_PARAM_STRING, 1, 80, 0, 0, "what the character does"},
    {0},
};
static const rules_param P_RECOVER[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill (Concentration)"},
    {0},
};
static const rules_param P_OVERFLOW[] = {
    {"choice", RULES_PARAM_STRING, 5, 11, 0, RULES_PARAM_REQUIRED, "wound or unconscious"},
    {0},
};
static const rules_param P_NONE[] = {{0}};
static const rules_param P_SPRINT[] = {
    {"skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill (Athletics)"},
    {"adv", RULES_PARAM_INT, 0, 10, 0, 0, "advantage dice (003:57)"},
    {"bonus", RULES_PARAM_INT, -20, 20, 0, 0, "situational bonus"},
    {0},
};
static const rules_param P_SOCIAL[] = {P_TARGET, P_SKILL, P_ROLL, P_DEF, {0}};
static const rules_param P_STANDING[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whose standing"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "in whose eyes"},
    {"value", RULES_PARAM_INT, 0, STANDING_TOP, STANDING_START, 0, "where it stands (5 neutral)"},
    {0},
};

static const rules_enc_action ACTIONS[] = {
    {"initiative", "Roll initiative", RULES_ENC_GM, P_INITIATIVE, wrap_initiative, "003:85-86"},
    {"pass", "Pass the spotlight", RULES_ENC_TURN, P_PASS, wrap_pass, "003:84, 003:86, 003:92"},
    {"attack", "Attack", RULES_ENC_TURN, P_ATTACK, ten_act_attack,
     "003:45, 003:66, 003:68, 003:110, 003:113-123"},
    {"parting", "Parting strike", RULES_ENC_OWNER, P_PARTING, ten_act_parting,
     "003:71, 003:111-112"},
    {"grapple", "Grapple", RULES_ENC_TURN, P_GRAPPLE, ten_act_grapple, "003:104"},
    {"lock", "Lock", RULES_ENC_TURN, P_LOCK, ten_act_lock, "003:105"},
    {"escape", "Break free", RULES_ENC_TURN, P_ESCAPE, ten_act_escape, "003:104-105"},
    {"hold", "Hold", RULES_ENC_TURN, P_HOLD, ten_act_hold, "003:58, 003:81"},
    {"release", "Act on the hold", RULES_ENC_OWNER, P_NONE, ten_act_release, "003:58, 003:81"},
    {"help", "Help", RULES_ENC_TURN, P_HELP, ten_act_help, "003:57, 003:79"},
    {"cover", "Take cover", RULES_ENC_OWNER, P_COVER, ten_act_state, "003:113-115"},
    {"prone", "Go prone or stand up", RULES_ENC_OWNER, P_PRONE, ten_act_state, "003:117"},
    {"high_ground", "High ground", RULES_ENC_OWNER, P_HIGH, ten_act_state, "003:116"},
    {"size", "Set a size", RULES_ENC_GM, P_SIZE, ten_act_state, "003:121-123"},
    {"resist", "Set a resistance", RULES_ENC_GM, P_RESIST, ten_act_resist, "003:120"},
    {"offer", "Offer a trade for negative spin", RULES_ENC_GM, P_OFFER, ten_act_offer, "003:39"},
    {"accept", "Accept the trade", RULES_ENC_OWNER, P_NONE, ten_act_accept, "003:39"},
    {"decline", "Decline the trade", RULES_ENC_OWNER, P_NONE, ten_act_decline, "003:39"},
    {"die", "Choose to die", RULES_ENC_OWNER, P_DIE, ten_act_die, "003:108"},
    {"condition", "Create a condition", RULES_ENC_TURN, P_CONDITION, act_condition,
     "003:47, 003:68, 003:96-103, 003:120"},
    {"advantage", "Create an advantage", RULES_ENC_TURN, P_ADVANTAGE, act_advantage,
     "003:46, 003:67"},
    {"overcome", "Overcome a condition", RULES_ENC_TURN, P_OVERCOME, act_overcome, "003:97"},
    {"defend", "Full defence", RULES_ENC_TURN, P_NONE, act_defend, "003:117"},
    {"generate_spin", "Generate spin", RULES_ENC_TURN, P_NONE, act_generate_spin, "003:55, 003:76"},
    {"coup", "Coup de grâce", RULES_ENC_TURN, P_PASS, act_coup, "003:107"},
    {"recover", "Recover from unconsciousness", RULES_ENC_TURN, P_RECOVER, act_recover, "003:106"},
    {"move", "Move", RULES_ENC_TURN, P_WHAT, act_move, "003:82"},
    {"sprint", "Sprint", RULES_ENC_TURN, P_SPRINT, act_sprint, "003:72"},
    {"withdraw", "Withdraw", RULES_ENC_TURN, P_NONE, act_withdraw, "003:71, 003:112"},
    {"interact", "Interact", RULES_ENC_TURN, P_WHAT, act_interact, "003:82"},
    {"end", "End the turn", RULES_ENC_TURN, P_END, wrap_end, "003:87-90, 003:97"},
    {"respond", "Respond (10acity/spin)", RULES_ENC_OWNER, P_RESPOND, wrap_respond, "003:91"},
    {"overflow", "Over max stress: wound or unconscious", RULES_ENC_OWNER, P_OVERFLOW, act_overflow,
     "003:66, 003:106"},
    {"spotlight", "Put in the spotlight", RULES_ENC_GM, P_PASS, wrap_spotlight, "003:84"},
    {"social", "Change social standing", RULES_ENC_TURN, P_SOCIAL, act_social, "003:49, 003:70"},
    {"standing", "Set the social standing", RULES_ENC_GM, P_STANDING, act_standing, "003:70"},
    {0},
};

static const rules_param OPTIONS[] = {
    {"group", RULES_PARAM_BOOL, 0, 1, 0, 0, "group initiative (003:92)"},
    {"hardcore", RULES_PARAM_BOOL, 0, 1, 0, 0, "hardcore mode: wounds, then death (003:109)"},
    {0},
};

/* ---- what the GM may set ---- */

/* What the GM adjusts mid-scene: the Stress and Wounds tracks (003:66), 10acity points (003:93),
 * Spin (003:37: at most 10 negative) and Unconscious (003:106), in the ranges of the sheet, and
 * a sheetless NPC's card. */
const rules_enc_field ten_editable[] = {
    {"stats/stress/current", RULES_PARAM_INT, 0, 999, "stress"},
    {"stats/stress/max", RULES_PARAM_INT, 0, 999, "maximum stress"},
    {"stats/wounds/current", RULES_PARAM_INT, 0, 999, "wounds"},
    {"stats/wounds/max", RULES_PARAM_INT, 0, 999, "maximum wounds"},
    {"stats/tenacity", RULES_PARAM_INT, 0, 99, "10acity points"},
    {"stats/spin", RULES_PARAM_INT, -TENACITY_NEGATIVE_SPIN_MAX, 99, "spin"},
    {"stats/unconscious", RULES_PARAM_BOOL, 0, 1, "unconsciousness"},
    /* a sheetless NPC's card (003:13-14; RULES.md, tenacity encounters) */
    {"stats/challenge_dice", RULES_PARAM_INT, 0, 20, "challenge dice"},
    {"stats/challenge_bonus", RULES_PARAM_INT, -20, 20, "challenge bonus"},
    {"stats/impact_dice", RULES_PARAM_INT, 0, 10, "impact dice"},
    {"stats/impact_bonus", RULES_PARAM_INT, -20, 20, "impact bonus"},
    {NULL, 0, 0, 0, NULL},
};

/* Damage, wounds, spin, 10acity and conditions land on the sheets (003:66, 003:94, 003:97). */
const char *const ten_sheet_stats[] = {"stress",      "wounds",     "tenacity", "spin",
                                       "unconscious", "conditions", NULL};

/* 003:94 (and 003:92): "After an encounter is over, you lose all points of Spin UNLESS you have
 * negative Spin"; negative spin stays until earned back. */
int ten_end(rules_enc *e, tb_err *err)
{
    (void)err;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (rules_enc_stat(e, cid, "spin", 0) > 0)
            rules_enc_stat_set(e, cid, "spin", 0);
    return 0;
}

const rules_module rules_module_tenacity_spotlight = {
    .id = "tenacity.spotlight",
    .system = "tenacity",
    .name = "Spotlight",
    .cite = "003:84-92",
    .options = OPTIONS,
    .start = start,
    .join = ten_join,
    .may_act = ten_may_act,
    .end = ten_end,
    .actions = ACTIONS,
    .sheet_stats = ten_sheet_stats,
    .editable = ten_editable,
};
