/*
 * roll.c — the dice of a 10acity encounter (tenacity_enc.h): one side's roll (hero dice against
 * hero dice or an NPC's challenge d6s), the contest (ties to the defender, criticals, spin and
 * pushes, impact) and its log, the checks every roll makes before its first die, stress, wounds,
 * unconsciousness and death, and the roll to shake a condition off. Calls state.c and
 * rules/encounter.h. Rulebook 003_632e2c704060b738.txt, cited 003:LINE; readings in
 * rules/RULES.md, tenacity, "Encounters (module tenacity.spotlight)".
 */
#include <stdio.h>
#include <string.h>

#include "tenacity_enc.h"

/* ---- one side's roll ---- */

void ten_tag_last(json_t *dice, const char *role, const char *cid)
{
    json_t *d = json_array_get(dice, json_array_size(dice) - 1);
    json_object_set_new(d, "role", json_string(role));
    json_object_set_new(d, "by", json_string(cid));
}

int ten_skill_check(const rules_enc *e, const char *cid, const char *skill, tb_err *err)
{
    json_t *skills = ten_skills(e, cid);
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

/* A roll that is the character's own standard action (003:95 sets them apart from reactions);
 * the attempt to break a grapple or lock is not one (reading O6). */
static int action_role(const char *role)
{
    return role && (strcmp(role, "attack") == 0 || strcmp(role, "advantage") == 0 ||
                    strcmp(role, "sprint") == 0 || strcmp(role, "stealth") == 0 ||
                    strcmp(role, "seek") == 0);
}

/* A help waiting on cid's next action roll (003:57, 003:79): taken (it helps one roll) and its
 * helper returned, the helper's skill copied into skill; NULL when there is none. */
static const char *take_help(rules_enc *e, const char *cid, char skill[64])
{
    json_t *me = rules_enc_combatant(e, cid);
    const char *by = json_string_value(json_object_get(me, "helped_by"));
    if (!rules_enc_cond_has(e, cid, "helped") || !by)
        return NULL;
    /* the helper's id and skill outlive the keys: the combatant's own id, and a copy */
    const char *helper = NULL, *c;
    for (size_t i = 0; (c = rules_enc_cid_at(e, i)); i++)
        if (strcmp(c, by) == 0)
            helper = c;
    json_t *kept = json_object_get(me, "help_skill"); /* an NPC helper's: the GM's */
    const char *sk = json_string_value(
        kept ? kept
             : json_object_get(json_object_get(json_object_get(e->hidden, "combatants"), cid),
                               "help_skill"));
    snprintf(skill, 64, "%s", sk ? sk : "-");
    ten_help_end(e, cid);
    return helper;
}

/* 003:57 "On a quick pass/fail action you can give another character an advantage hero die":
 * 1 when cid's help is taken on a quick pass/fail roll (reading O1), else 0. 003:79 "The
 * character with the highest skill rank rolls their ability dice with one additional advantage
 * die, then adds their skill rank": *better is the helper's entry of `skill` when it helps with
 * that skill at a higher rank than cid's, both on the table (an NPC's ranks are the GM's, so an
 * NPC's help is always the die: reading O1). */
static int help_die(rules_enc *e, const char *cid, const char *skill, json_t **better)
{
    char with[64];
    const char *helper = take_help(e, cid, with);
    if (!helper)
        return 0;
    json_t *mine = json_object_get(ten_skills(e, cid), skill);
    json_t *theirs = json_object_get(ten_skills(e, helper), skill);
    if (ten_same(with, skill) && json_is_array(mine) && json_is_array(theirs) &&
        rules_enc_aud_of(e, cid) == RULES_AUD_PUBLIC &&
        rules_enc_aud_of(e, helper) == RULES_AUD_PUBLIC &&
        json_integer_value(json_array_get(theirs, 1)) >
            json_integer_value(json_array_get(mine, 1))) {
        *better = theirs;
        ten_say_to(e, "help", "help_rolls", helper, "helped", cid);
    }
    return 1;
}

/* The advantage (or, negative, disadvantage) dice cid's roll of skill for `role` gets from its
 * states: elevation on Perception (003:116), a helper's die on a quick pass/fail action roll
 * (sprint, recovering, seeking: 003:57, spent here), a lock's disadvantage die on its action rolls
 * (003:105); *better the helper's skill when the helper rolls (003:79). */
static int roll_edges(rules_enc *e, const char *cid, const char *skill, const char *role,
                      json_t **better)
{
    int adv = 0;
    /* 003:116 "Being in an elevated position gives an advantage die to perception checks" */
    if (ten_is(e, cid, "elevated") && ten_same(skill, "Perception"))
        adv++;
    if (strcmp(role, "sprint") == 0 || strcmp(role, "recover") == 0 || strcmp(role, "seek") == 0)
        adv += help_die(e, cid, skill, better);
    if (!action_role(role))
        return adv;
    /* 003:105 "the character can still take a standard action but with one disadvantage die" */
    if (rules_enc_cond_has(e, cid, TEN_LOCKED))
        adv--;
    return adv;
}

/* ten_roll, with the helper's skill entry `better` rolled instead of cid's (003:79; NULL: cid's,
 * unless a help taken here gives one). */
static void roll_side(rules_enc *e, const char *cid, const char *skill, int adv, int bonus,
                      const char *role, json_t *dice, ten_side *s, json_t *better)
{
    memset(s, 0, sizeof *s);
    s->cid = cid;
    json_t *skills = ten_skills(e, cid);
    int escape = strcmp(role, "escape") == 0;
    bonus -= ten_hinder_on(e, cid, skill, NULL, escape ? TEN_GRAPPLED : NULL); /* 003:99, 104 */
    adv += roll_edges(e, cid, skill, role, &better);
    if (!skills) {
        /* 003:13 the narrator rolls "the challenge dice ... (or referencing the NPC card)";
         * 003:14 "+1 and a +3 to the challenge roll" */
        int n = rules_enc_stat(e, cid, "challenge_dice", 2);
        int sum = rules_enc_stat(e, cid, "challenge_bonus", 0) + bonus;
        for (int i = 0; i < n && i < 20; i++) {
            sum += rules_roll_die(e->rng, 6, dice);
            ten_tag_last(dice, role, cid);
        }
        s->total = sum;
        s->rank = 2 * rules_enc_stat(e, cid, "impact_dice", 1);
        s->ibonus = rules_enc_stat(e, cid, "impact_bonus", 0);
        return;
    }
    json_t *sk = better ? better : json_object_get(skills, skill);
    s->hero = 1;
    int dice_n = (int)json_integer_value(json_array_get(sk, 0));
    if (dice_n + adv < 1)
        adv = 1 - dice_n; /* a disadvantage die never takes the last hero die (reading O6) */
    if (dice_n + adv > RULES_POOL_MAX)
        adv = RULES_POOL_MAX - dice_n;
    s->rank = (int)json_integer_value(json_array_get(sk, 1));
    s->ibonus = (int)json_integer_value(json_array_get(sk, 2));
    /* 003:11 "roll the number of d10 dice displayed on the attribute and take the highest" */
    tb_err ignored;
    tenacity_hero_roll(&s->r, e->rng, dice_n, adv, s->rank, bonus, &ignored);
    for (int i = 0; i < s->r.hero.n; i++) {
        rules_result_die(dice, 10, s->r.hero.value[i], s->r.hero.kept[i]);
        ten_tag_last(dice, role, cid);
    }
    s->total = s->r.total;
}

void ten_roll(rules_enc *e, const char *cid, const char *skill, int adv, int bonus,
              const char *role, json_t *dice, ten_side *s)
{
    roll_side(e, cid, skill, adv, bonus, role, dice, s, NULL);
}

/* The critical's extra hero die (003:28), added to s; logs the die into dice. */
static void extra_hero(rules_enc *e, ten_side *s, json_t *dice)
{
    s->r.extra_hero = rules_roll_die(e->rng, 10, dice);
    ten_tag_last(dice, "critical", s->cid);
    tenacity_judge(&s->r);
    s->total = s->r.total;
}

int ten_crit(rules_enc *e, ten_side *s, const char *crit, int against, json_t *dice, char took[8])
{
    took[0] = 0;
    if (!s->hero || !s->r.critical)
        return 0;
    /* 003:28 "an additional die of your choice between rolling an additional Hero die ... in case
     * your natural 10 was not high enough to succeed on its own, or ... an additional impact
     * die"; without a choice, the hero die exactly when the roll fails without it (reading 2) */
    int hero = crit ? strcmp(crit, "hero") == 0 : !tenacity_beats(s->total, against);
    if (hero)
        extra_hero(e, s, dice);
    snprintf(took, 8, "%s", hero ? "hero" : "impact");
    return !hero;
}

/*
 * The checks of a roll's parameters that do not need the dice (crit, push, push_with), done
 * before any die so that a refused action draws nothing: `crit` is hero or impact (003:28),
 * `push_with` names spin, tenacity or negative (003:31-37) and needs `push`. Sets *push to the
 * TENACITY_PUSH_* resources allowed (0 without a push). Returns 0 or TB_BAD_REQUEST.
 */
static int push_params(const rules_args *a, int *push, tb_err *err)
{
    const char *crit = ten_arg_str(a, "crit"), *with = ten_arg_str(a, "push_with");
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
    if (with && !ten_arg_int(a, "push", 0))
        return tb_fail(err, TB_BAD_REQUEST, "push_with: only with push");
    *push = ten_arg_int(a, "push", 0) ? allowed : 0;
    return 0;
}

int ten_roll_params(const rules_args *a, tb_err *err)
{
    int push;
    return push_params(a, &push, err);
}

/* The resources a's push may spend (the parameters were checked before). */
static int push_of(const rules_args *a)
{
    int push;
    tb_err ignored;
    return push_params(a, &push, &ignored) ? 0 : push;
}

/* Spin from the actor's roll (003:30, 003:95) and a push (003:34-37): applied to the stats.
 * `push`: the TENACITY_PUSH_* resources the player lets the push spend (0: no push). */
static void spin_and_push(rules_enc *e, ten_side *s, int def, int *success, int push, int action,
                          rules_log *x)
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
            rules_log_json(x, "push",
                           json_pack("{s:i, s:i, s:i}", "spin", p.spin, "tenacity", p.tenacity,
                                     "negative", p.negative),
                           rules_enc_aud_of(e, s->cid));
        }
    }
    int gain = tenacity_spin_gain(&s->r, !*success, action);
    if (gain)
        ten_spin_add(e, s->cid, gain);
    rules_log_int(x, "spin", gain, rules_enc_aud_of(e, s->cid));
}

int ten_impact_roll(rules_enc *e, ten_side *s, int crit_die, int bonus, json_t *dice)
{
    int n = s->hero ? tenacity_impact_dice(s->rank) : s->rank / 2;
    int impact = s->ibonus + bonus;
    for (int i = 0; i < n + crit_die; i++) {
        impact += rules_roll_die(e->rng, 4, dice);
        ten_tag_last(dice, "impact", s->cid);
    }
    return impact < 0 ? 0 : impact;
}

void ten_side_for_impact(const rules_enc *e, const char *cid, const char *skill, ten_side *s)
{
    memset(s, 0, sizeof *s);
    s->cid = cid;
    json_t *sk = json_object_get(ten_skills(e, cid), skill);
    if (json_is_array(sk)) {
        s->hero = 1;
        s->rank = (int)json_integer_value(json_array_get(sk, 1));
        s->ibonus = (int)json_integer_value(json_array_get(sk, 2));
    } else {
        s->rank = 2 * ten_stat(e, cid, "impact_dice", 1);
        s->ibonus = ten_stat(e, cid, "impact_bonus", 0);
    }
}

/* ---- the log of a roll ---- */

void ten_log_side(rules_enc *e, rules_log *x, const json_t *dice, const char *cid, const char *key,
                  int total)
{
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_log_dice(x, dice, aud);
    rules_log_int(x, key, total, aud);
}

void ten_log_skill(rules_enc *e, rules_log *x, const char *cid, const char *skill)
{
    if (strcmp(skill, "-") == 0)
        return;
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_log_word(x, "with", "w.with", aud);
    rules_log_name(x, "skill", skill, aud);
}

void ten_log_versus(rules_enc *e, rules_log *x, const char *a_cid, const char *b_cid,
                    int other_hidden, int a, int b)
{
    /* between two PCs both totals are in the public result already and nothing is said */
    if (!other_hidden && rules_enc_aud_of(e, a_cid) != RULES_AUD_GM &&
        !(b_cid && rules_enc_aud_of(e, b_cid) == RULES_AUD_GM))
        return;
    rules_log_word(x, "vs", "w.vs", RULES_AUD_GM);
    rules_log_count(x, "va", a, RULES_AUD_GM);
    rules_log_count(x, "vb", b, RULES_AUD_GM);
}

void ten_log_gm_only(rules_log *x, int gm_only)
{
    rules_log_word(x, "gm", "w.gm", gm_only ? RULES_AUD_GM : RULES_AUD_PUBLIC);
}

void ten_log_try(rules_enc *e, rules_log *x, json_t *dice, const char *cid, const char *skill,
                 const char *other, int other_hidden, int total, int against, int ok)
{
    ten_log_side(e, x, dice, cid, "total", total);
    ten_log_skill(e, x, cid, skill);
    ten_log_versus(e, x, cid, other, other_hidden, total, against);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
}

int ten_roll_to_cond(rules_enc *e, const char *cid, const char *skill, int adv, int bonus,
                     const char *role, const char *cond, json_t *dice, int *gain)
{
    ten_side s;
    ten_roll(e, cid, skill, adv, bonus, role, dice, &s);
    int total = s.total < 0 ? 0 : s.total;
    /* an action roll: doubles gain spin, a fumble negative spin (003:95, 003:30) */
    *gain = s.hero ? tenacity_spin_gain(&s.r, 0, 1) : 0;
    if (*gain)
        ten_spin_add(e, cid, *gain);
    /* the number is the total: an NPC's is the GM's (its challenge bonus is in it) */
    rules_enc_cond_add(e, cid, cond, 0, rules_enc_aud_of(e, cid) == RULES_AUD_PUBLIC ? total : 0);
    return total;
}

/* ---- cooperating (003:57, 003:79-80) ---- */

/* 003:57 "On impact actions you roll your skill and impact to add to that character's impact
 * total upon success"; 003:80 "for each one that succeeds their check, they can add their impact
 * roll": after the helped character's success, the helper rolls skill against the same defence
 * (defender's total) or the narrator's challenge (hidden) `against` and, on its own
 * success, its impact. No spin either way: it is not the helper's action (003:95). A helper who
 * is out or unconscious by then adds nothing. Returns the impact added; logs one line. */
static int cooperate(rules_enc *e, const char *helper, const char *skill, const char *helped,
                     const char *defender, int against, int hidden)
{
    if (!helper || rules_enc_is_out(e, helper) || ten_unconscious(e, helper))
        return 0;
    if (ten_skills(e, helper) && !json_is_array(json_object_get(ten_skills(e, helper), skill)))
        return 0;
    json_t *dice = json_array();
    ten_side s;
    ten_roll(e, helper, skill, 0, 0, "cooperate", dice, &s);
    char took[8];
    int crit_die = ten_crit(e, &s, NULL, against, dice, took);
    int ok = tenacity_beats(s.total, against);
    int impact = ok ? ten_impact_roll(e, &s, crit_die, 0, dice) : 0;
    rules_log *x = rules_log_begin(e, "cooperate", "cooperate");
    rules_log_who(x, "who", helper);
    rules_log_who(x, "helped", helped);
    ten_log_try(e, x, dice, helper, skill, defender, hidden, s.total, against, ok);
    json_decref(dice);
    rules_log_int(x, "impact", impact, RULES_AUD_PUBLIC);
    rules_log_word(x, "outcome", ok ? "coop.adds" : "coop.fails", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return impact;
}

/* ---- the contest: actor against a defender (003:66, 003:68) ---- */

static const char *def_skill_of(const rules_args *a)
{
    const char *def_skill = ten_arg_str(a, "def_skill");
    /* 003:83 "The most common physical reaction is the reaction skill" */
    return def_skill ? def_skill : "Reaction";
}

int ten_contest_check(const rules_enc *e, const char *actor, const char *target, const char *skill,
                      const rules_args *a, tb_err *err)
{
    /* a refused contest draws nothing, and its acceptance never depends on the dice */
    int rc = ten_roll_params(a, err);
    if (!rc)
        rc = ten_skill_check(e, actor, skill, err);
    if (!rc)
        rc = ten_skill_check(e, target, def_skill_of(a), err);
    return rc;
}

void ten_contest_roll(rules_enc *e, const char *actor, const char *target, const char *skill,
                      const rules_args *a, const ten_mods *m, int want_impact, ten_contest *c,
                      rules_log *x)
{
    static const ten_mods none = {0};
    if (!m)
        m = &none;
    memset(c, 0, sizeof *c);
    /* 003:117 full defence: "an advantage die to all of your defense rolls" */
    int def_adv =
        ten_arg_int(a, "def_adv", 0) + rules_enc_cond_has(e, target, "defensive") + m->def_adv;
    json_t *ad = json_array(), *dd = json_array();
    /* a help on the actor's action: on an impact action the helper cooperates after a success,
     * on a quick pass/fail one (a stop condition) it is an advantage die (reading O1) */
    char coop_skill[64] = "-";
    const char *helper = NULL;
    int help_adv = 0;
    json_t *better = NULL;
    if (!m->reaction && want_impact)
        helper = take_help(e, actor, coop_skill);
    else if (!m->reaction)
        help_adv = help_die(e, actor, skill, &better);
    roll_side(e, actor, skill, ten_arg_int(a, "adv", 0) + m->atk_adv + help_adv,
              ten_arg_int(a, "bonus", 0) + m->atk_bonus, m->reaction ? "reaction" : "attack", ad,
              &c->atk, better);
    ten_roll(e, target, def_skill_of(a), def_adv, ten_arg_int(a, "def_bonus", 0) + m->def_bonus,
             "defence", dd, &c->def);
    /* 003:28 on "any of your hero dice": the defender's critical adds its hero die (reading 7) */
    if (c->def.hero && c->def.r.critical)
        extra_hero(e, &c->def, dd);
    ten_crit(e, &c->atk, ten_arg_str(a, "crit"), c->def.total, ad, c->took);
    /* 003:66 "If the attack result is higher than the defense result, then the attack is
     * successful"; 003:68 "defenders win all ties" */
    c->success = tenacity_beats(c->atk.total, c->def.total);
    spin_and_push(e, &c->atk, c->def.total, &c->success, push_of(a), !m->reaction, x);
    /* 003:95 spin only on one's own action: a defence gets only a fumble's negative spin */
    if (c->def.hero && c->def.r.fumble)
        ten_spin_add(e, target, -1);
    if (c->success && want_impact)
        c->impact = ten_impact_roll(e, &c->atk, strcmp(c->took, "impact") == 0,
                                    ten_arg_int(a, "impact_bonus", 0), ad);
    if (c->success && helper)
        c->impact += cooperate(e, helper, coop_skill, actor, target, c->def.total, 0);
    ten_log_side(e, x, ad, actor, "attack", c->atk.total);
    ten_log_side(e, x, dd, target, "defence", c->def.total);
    json_decref(ad);
    json_decref(dd);
    rules_log_json(x, "success", json_boolean(c->success), RULES_AUD_PUBLIC);
    if (c->took[0])
        rules_log_json(x, "crit", json_string(c->took), rules_enc_aud_of(e, actor));
    if (c->success && want_impact)
        rules_log_int(x, "impact", c->impact, RULES_AUD_PUBLIC);
    /* 003:107 "If they are forced to do anything other than performing the coup de grâce ...
     * This includes taking a reaction to defend themselves." */
    ten_coup_fail(e, target, "why.defend");
}

void ten_challenge_contest(rules_enc *e, const char *actor, const char *skill, const rules_args *a,
                           int adv, int n, ten_contest *c, rules_log *x)
{
    /* against "challenge dice as assigned by the narrator": the GM's roll stays hidden */
    memset(c, 0, sizeof *c);
    json_t *ad = json_array(), *cd = json_array();
    char coop_skill[64] = "-";
    const char *helper = take_help(e, actor, coop_skill); /* reading O1 */
    ten_roll(e, actor, skill, ten_arg_int(a, "adv", 0) + adv, ten_arg_int(a, "bonus", 0),
             "advantage", ad, &c->atk);
    int ch = 0;
    for (int i = 0; i < n; i++) {
        ch += rules_roll_die(e->rng, 6, cd);
        ten_tag_last(cd, "challenge", "gm");
    }
    c->def.total = ch;
    ten_crit(e, &c->atk, ten_arg_str(a, "crit"), ch, ad, c->took);
    c->success = tenacity_beats(c->atk.total, ch);
    spin_and_push(e, &c->atk, ch, &c->success, push_of(a), 1, x);
    if (c->success)
        c->impact = ten_impact_roll(e, &c->atk, strcmp(c->took, "impact") == 0, 0, ad);
    if (c->success && helper)
        c->impact += cooperate(e, helper, coop_skill, actor, NULL, ch, 1);
    ten_log_side(e, x, ad, actor, "total", c->atk.total);
    rules_log_dice(x, cd, RULES_AUD_GM);
    rules_log_int(x, "challenge", ch, RULES_AUD_GM);
    json_decref(ad);
    json_decref(cd);
    rules_log_json(x, "success", json_boolean(c->success), RULES_AUD_PUBLIC);
    if (c->success)
        rules_log_int(x, "impact", c->impact, RULES_AUD_PUBLIC);
}

/* ---- what every action checks before anything is spent or rolled ---- */

int ten_require_in(const rules_enc *e, const char *cid, tb_err *err)
{
    if (rules_enc_is_out(e, cid))
        return rules_enc_rule(
            err, "%s is out of the scene (%s)", rules_enc_name(e, cid),
            json_string_value(json_object_get(rules_enc_combatant(e, cid), "out")));
    return 0;
}

int ten_require_able(const rules_enc *e, const char *cid, const char *action, tb_err *err)
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

int ten_require_skill_free(const rules_enc *e, const char *cid, const char *skill, tb_err *err)
{
    const char *stop = NULL;
    ten_hinder_on(e, cid, skill, &stop, NULL);
    if (stop)
        return rules_enc_rule(err, "%s cannot use %s: %s prevents it (003:102)",
                              rules_enc_name(e, cid), skill, stop);
    return 0;
}

int ten_require_target(const rules_enc *e, const char *actor, const char *target, tb_err *err)
{
    if (strcmp(actor, target) == 0)
        return rules_enc_rule(err, "%s cannot target themself", rules_enc_name(e, actor));
    if (rules_enc_is_out(e, target))
        return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, target));
    return 0;
}

int ten_require_contest(const rules_enc *e, const char *actor, const char *target, const char *what,
                        const char *skill, tb_err *err)
{
    int rc = ten_require_able(e, actor, what, err);
    if (!rc)
        rc = ten_require_target(e, actor, target, err);
    if (!rc)
        rc = ten_require_skill_free(e, actor, skill, err);
    return rc;
}

int ten_require_budget(const rules_enc *e, const char *cid, const char *kind, int n, tb_err *err)
{
    int left = ten_budget(e, cid, kind);
    if (left >= n)
        return 0;
    if (n == 1)
        return rules_enc_rule(err, "%s has no %s left this turn", rules_enc_name(e, cid), kind);
    return rules_enc_rule(err, "%s has %d %s left this turn, not %d", rules_enc_name(e, cid), left,
                          kind, n);
}

/* ---- stress, wounds, unconsciousness, death ---- */

static void fall_unconscious(rules_enc *e, const char *cid)
{
    json_object_set_new(rules_enc_stats(e, cid), "unconscious", json_true());
    rules_enc_cond_add(e, cid, "unconscious", 0, 0);
    rules_log *x = rules_log_begin(e, "unconscious", "unconscious");
    rules_log_who(x, "who", cid);
    rules_log_end(x);
    ten_coup_fail(e, cid, "why.unconscious");
    ten_drop(ten_list(e, "recalled"), cid);
    ten_grip_lost(e, cid, 0);
}

void ten_perish(rules_enc *e, const char *cid, const char *why, const char *by)
{
    rules_enc_set_out(e, cid, "dead");
    rules_log *x = rules_log_begin(e, "death", "death");
    rules_log_who(x, "who", cid);
    rules_log_word(x, "why", why, RULES_AUD_PUBLIC);
    if (by)
        rules_log_who(x, "by", by);
    rules_log_end(x);
    ten_coup_fail(e, cid, "why.died");
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
    json_t *st = ten_track(e, cid, "stress", 10);
    json_t *wo = ten_track(e, cid, "wounds", 0);
    int cur = (int)json_integer_value(json_object_get(st, "current")) + n;
    int max = (int)json_integer_value(json_object_get(st, "max"));
    /* a PC's track is open; an NPC's is the GM's, and behind a resistance (quiet) so is the stress
     * it took */
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_log *x = rules_log_begin(e, "stress", npc ? "stress_npc" : "stress");
    rules_log_who(x, "who", cid);
    rules_log_name(x, "why", why, RULES_AUD_PUBLIC);
    if (npc)
        rules_log_count(x, "n", n, quiet ? RULES_AUD_GM : RULES_AUD_PUBLIC);
    rules_log_int(x, "stress", n, aud);
    rules_log_int(x, "current", cur, aud);
    rules_log_int(x, "max", max, aud);
    rules_log_end(x);
    /* 003:66 "If the total amount of stress accrued is over the amount of maximum stress that the
     * opponent can take, then the opponent must either mark off a point of wound or fall
     * unconscious, either way, the amount of stress on that character then resets back to 0." */
    if (cur <= max) {
        json_object_set_new(st, "current", json_integer(cur));
        return;
    }
    json_object_set_new(st, "current", json_integer(0));
    int w = (int)json_integer_value(json_object_get(wo, "current"));
    int wmax = (int)json_integer_value(json_object_get(wo, "max"));
    if (ten_option(e, "hardcore")) {
        /* 003:109 "characters do not fall unconscious ... they must take a point of wound. Then
         * at any point if a character does not have enough wound left ... they perish." */
        if (w >= wmax) {
            ten_perish(e, cid, "death.hardcore", NULL);
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
    rules_log *wx = rules_log_begin(e, "wound", npc ? "wound_npc" : "wound");
    rules_log_who(wx, "who", cid);
    rules_log_count(wx, "wounds", w + 1, aud);
    rules_log_count(wx, "max", wmax, aud);
    rules_log_end(wx);
}

/* ---- shaking a condition off (003:97) ---- */

int ten_shake_check(const rules_enc *e, const char *cid, const char *cond, const char *skill,
                    int action, tb_err *err)
{
    json_t *c = ten_cond_find(e, cid, cond);
    if (!c)
        return rules_enc_rule(err, "%s has no condition '%.40s' to shake off",
                              rules_enc_name(e, cid), cond);
    const char *name = json_string_value(json_object_get(c, "name"));
    int rc = ten_grip_may_shake(e, cid, name, action, err); /* 003:104-105 */
    return rc ? rc : ten_skill_check(e, cid, skill, err);
}

void ten_shake(rules_enc *e, const char *cid, const char *cond, const char *skill, int action)
{
    char name[120];
    snprintf(name, sizeof name, "%s",
             json_string_value(json_object_get(ten_cond_find(e, cid, cond), "name")));
    /* a condition from the sheet without a challenge: the narrator sets one (enc.set); 7 until
     * then (reading) */
    int challenge = ten_cond_challenge(e, cid, name);
    json_t *dice = json_array();
    ten_side s;
    /* the action spent on shaking a condition off is a quick pass/fail roll: a help's die (003:57,
     * reading O1) */
    json_t *better = NULL;
    int help_adv = action ? help_die(e, cid, skill, &better) : 0;
    roll_side(e, cid, skill, help_adv, 0, ten_grip_cond(name) ? "escape" : "shake", dice, &s,
              better);
    int ok = tenacity_beats(s.total, challenge);
    if (s.hero) {
        int gain = tenacity_spin_gain(&s.r, !ok, action); /* 003:95 */
        if (gain)
            ten_spin_add(e, cid, gain);
    }
    rules_log *x = rules_log_begin(e, "shake", "shake");
    rules_log_who(x, "who", cid);
    /* the condition's own name (name above is a copy that outlives its removal) */
    rules_log_name(x, "cond",
                   json_string_value(json_object_get(ten_cond_find(e, cid, cond), "name")),
                   RULES_AUD_PUBLIC);
    ten_log_side(e, x, dice, cid, "total", s.total);
    json_decref(dice);
    /* the challenge is the GM's (003:97 "as set by the narrator") */
    rules_log_int(x, "challenge", challenge, RULES_AUD_GM);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    ten_log_skill(e, x, cid, skill);
    if (!action)
        rules_log_word(x, "free", "shake.free", RULES_AUD_PUBLIC);
    ten_log_versus(e, x, cid, NULL, 1, s.total, challenge);
    rules_log_word(x, "outcome", ok ? "shake.gone" : "shake.stays", RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (ok) {
        json_object_del(ten_cond_challenges(e, cid), name);
        rules_enc_cond_remove(e, cid, name);
        ten_grip_shaken(e, cid, name);
    }
}
