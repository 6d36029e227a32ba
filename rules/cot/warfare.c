/*
 * warfare.c — City of Thieves' module `cot.warfare` "Gang Warfare" (000:121-136): the initiative
 * slots of Violence (Muscle+Athletics, cot_enc.h) with Cover rolled on joining, and Attack,
 * Restrain, Break free, Reposition and Flee. The rulebook is 000_d2a475e9ec148dd1.txt, cited as
 * 000:LINE; the readings are in rules/RULES.md, "cot", "Encounters".
 */
#include <stdio.h>
#include <string.h>

#include "cot_enc.h"

static int war_start(rules_enc *e, const rules_args *o, tb_err *err);
static int war_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_attack(rules_enc *e, const rules_args *a, tb_err *err);
static int check_reposition(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_reposition(rules_enc *e, const rules_args *a, tb_err *err);
static int check_flee(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_flee(rules_enc *e, const rules_args *a, tb_err *err);
static int check_break_free(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_break_free(rules_enc *e, const rules_args *a, tb_err *err);
static int war_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, json_t *out);

/* ---- the table ---- */

static const rules_param ATTACK_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to attack"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0,
     "hand_to_hand (default), shooting, explosives or driving"},
    {"weapon", RULES_PARAM_STRING, 1, 100, 0, 0, "a weapon from the sheet (none: bare hands)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0 for circumstances"},
    {"restrain", RULES_PARAM_BOOL, 0, 1, 0, 0, "Restrain on a hit (Hand to Hand)"},
    {0},
};

static const rules_enc_action WAR_ACTIONS[] = {
    COT_COMMON_ACTIONS,
    {"attack", "Attack", RULES_ENC_TURN, ATTACK_PARAMS, act_attack, "000:130-136", check_attack, 0},
    {"reposition", "Reposition", RULES_ENC_TURN, cot_no_params, act_reposition, "000:128",
     check_reposition, 0},
    {"flee", "Flee", RULES_ENC_TURN, cot_no_params, act_flee, "000:126", check_flee, 0},
    {"break_free", "Break free", RULES_ENC_TURN, cot_no_params, act_break_free, "000:133",
     check_break_free, 0},
    {0},
};

const rules_module rules_module_cot_warfare = {
    .id = "cot.warfare",
    .system = "cot",
    .name = "Gang Warfare",
    .cite = "000:121-136",
    .start = war_start,
    .join = war_join,
    .may_act = cot_may_act,
    .actions = WAR_ACTIONS,
    .sheet_stats = cot_sheet_stats,
    .editable = cot_editable,
    .check = cot_module_check,
    .choices = war_choices,
};

/* ---- choices ---- */

static const char *const ATTACK_SKILLS[] = {"hand_to_hand", "shooting", "explosives", "driving",
                                            NULL};

static int war_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, json_t *out)
{
    int rc = cot_choices_common(e, actor, a, p, out);
    if (rc != RULES_CHOICES_NONE || strcmp(a->name, "attack") != 0)
        return rc;
    if (strcmp(p->name, "target") == 0)
        cot_choose_combatants(e, actor, NULL, out);
    else if (strcmp(p->name, "skill") == 0)
        cot_choose_skills(e, actor, ATTACK_SKILLS, out);
    else if (strcmp(p->name, "weapon") == 0)
        cot_choose_weapons(e, actor, "bare hands", out);
    else
        return RULES_CHOICES_NONE;
    return RULES_CHOICES_PICK;
}

/* ---- start and join ---- */

static int war_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)o;
    (void)err;
    /* 000:123 "After rolling Initiative as outlined in Chapter 1": violence, 000:35 */
    cot_start_stage(e, "violence");
    return 0;
}

static int war_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int rc = cot_join_common(e, cid, sheet, err);
    return rc ? rc : cot_roll_cover(e, cid, "cover", "takes cover (000:123)", err);
}

/* ---- Attack (000:130-136) ---- */

static int check_attack(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const cot_skill *sk;
    json_t *weapon;
    int rc = cot_target_check(e, rules_arg_str(a, "target"), 0, err);
    if (rc || (rc = cot_attack_gear(e, a, ATTACK_SKILLS, &sk, &weapon, err)))
        return rc;
    /* 000:133 "If the character is using the Hand to Hand skill and successfully hits, they can
     * choose to Restrain." */
    if (rules_arg_int(a, "restrain") && strcmp(sk->id, "hand_to_hand") != 0)
        return rules_enc_rule(err, "only a Hand to Hand attack can Restrain (000:133)");
    if ((rc = cot_turn_check(e, 0, err)))
        return rc;
    int wbonus = weapon ? cot_int(weapon, "bonus") : 0;
    return cot_throw_check(e, e->actor, sk->ability, sk->id, wbonus + rules_arg_int(a, "bonus"),
                           err);
}

static int act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *t = rules_arg_str(a, "target"), *tn = rules_enc_name(e, t);
    const cot_skill *sk;
    json_t *weapon;
    int restrain = rules_arg_int(a, "restrain");
    cot_attack_gear(e, a, ATTACK_SKILLS, &sk, &weapon, err);
    cot_slot_name sn = cot_turn_take(e);
    /* 000:130 "The aggressor rolls Muscle+the relevant skill with their opponent's Cover Score as
     * the difficulty"; 000:131 in a vehicle Fingers+Driving. */
    cot_throw th;
    int wbonus = weapon ? cot_int(weapon, "bonus") : 0;
    if ((rc = cot_throw_pool(e, e->actor, sk->ability, sk->id, wbonus + rules_arg_int(a, "bonus"),
                             &th, err)))
        return rc;
    int cover = rules_enc_stat(e, t, "cover", 0);
    int hit = cot_roll_succeeds(&th.r, cover);
    cot_harm h = {cover, 0, cover, -1, "catastrophe"};
    if (!th.r.catastrophe) /* 000:134 "Any Attack in which the aggressor's roll is not a
                              Catastrophe reduces the target's Cover Score by 1" */
        h = cot_apply_harm(e, t, th.r.total);
    int restrained = 0;
    if (restrain && hit && !rules_enc_is_out(e, t)) {
        /* 000:133 "A Restrained character cannot Flee or Reposition on their turn." */
        rules_enc_cond_add(e, t, "restrained", 0, 0);
        json_object_set_new(rules_enc_cond(e, t, "restrained"), "by", json_string(e->actor));
        rules_enc_cond_remove(e, t, "fleeing");
        restrained = 1;
    }
    char head[240], tail[200], detail[120], days[48] = "";
    snprintf(head, sizeof head, "%s takes %s and attacks %s (%s, %s)", rules_enc_name(e, e->actor),
             sn.s, tn, sk->label, weapon ? cot_str(weapon, "name") : "bare hands");
    if (strcmp(h.outcome, "catastrophe") == 0)
        snprintf(tail, sizeof tail,
                 "Catastrophe: no harm done; the GM decides what else goes "
                 "wrong (000:9, 000:134)");
    else
        snprintf(tail, sizeof tail, "%s %s%s", tn,
                 strcmp(h.outcome, "dead") == 0      ? "is Dead (000:136)"
                 : strcmp(h.outcome, "wounded") == 0 ? "is Wounded (000:135)"
                                                     : "loses Cover (000:134)",
                 restrained ? "; Restrained (000:133)" : "");
    if (h.days >= 0)
        snprintf(days, sizeof days, ", %d days to recover", h.days);
    snprintf(detail, sizeof detail, "%s's Cover %d − %d → %d%s", tn, h.before, h.damage, h.after,
             days);
    json_t *res = json_pack("{s:s, s:s}", "target", t, "outcome", h.outcome);
    if (restrained)
        json_object_set_new(res, "restrained", json_true());
    /* the Cover Score is the target's number (000:123) */
    json_t *cres = json_pack("{s:i, s:i, s:i, s:b}", "cover_before", h.before, "damage", h.damage,
                             "cover", h.after, "hit", hit);
    if (h.days >= 0)
        json_object_set_new(cres, "recovery_days", json_integer(h.days));
    cot_log_action(e, "attack", &th, t, res, cres, head, tail, detail);
    cot_turn_close(e, 1);
    return 0;
}

/* ---- Reposition and Flee (000:126-128) ---- */

static int not_restrained(const rules_enc *e, const char *what, tb_err *err)
{
    json_t *r = rules_enc_cond(e, e->actor, "restrained");
    if (!r)
        return 0;
    return rules_enc_rule(err,
                          "%s is Restrained by %s: a Restrained character cannot %s "
                          "(000:133)",
                          rules_enc_name(e, e->actor), rules_enc_name(e, cot_str(r, "by")), what);
}

static int check_reposition(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = not_restrained(e, "Reposition", err);
    if (rc || (rc = cot_turn_check(e, 0, err)))
        return rc;
    return cot_throw_check(e, e->actor, "muscle", "resist", cot_stat(e, e->actor, "armour", 0),
                           err);
}

static int act_reposition(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    cot_slot_name sn = cot_turn_take(e);
    /* 000:128 "allows a character to re-roll their Cover Score" */
    char why[80];
    snprintf(why, sizeof why, "takes %s and repositions (000:128)", sn.s);
    if ((rc = cot_roll_cover(e, e->actor, "reposition", why, err)))
        return rc;
    cot_turn_close(e, 1);
    return 0;
}

static int check_flee(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    int rc = not_restrained(e, "Flee", err);
    return rc ? rc : cot_turn_check(e, 1, err);
}

static int act_flee(rules_enc *e, const rules_args *a, tb_err *err)
{
    cot_slot_name sn = cot_turn_take(e);
    const char *name = rules_enc_name(e, e->actor);
    if (rules_enc_cond_remove(e, e->actor, "fleeing")) {
        /* 000:126 "On the character's next action, they leave the Zone and the Gang Warfare." */
        rules_enc_set_out(e, e->actor, "fled");
        rules_enc_log(e, "flee", NULL, NULL,
                      "%s takes %s and leaves the Zone and the Gang Warfare (000:126)", name, sn.s);
    } else {
        /* 000:126 "Every slot between this action and the character's next action gets a chance
         * to join in. If an enemy joins in, then a Chase begins." (the GM runs the chase) */
        rules_enc_cond_add(e, e->actor, "fleeing", 0, 0);
        rules_enc_log(e, "flee", NULL, NULL,
                      "%s takes %s and flees: every slot until %s's next action may join in; an "
                      "enemy who does starts a Chase (000:126)",
                      name, sn.s, name);
    }
    cot_turn_close(e, 0);
    return 0;
}

/* ---- Break free (000:133) ---- */

/* The holder of a Restrained actor who can still hold on, or NULL (it slips free). */
static const char *holder_of(const rules_enc *e)
{
    const char *by = cot_str(rules_enc_cond(e, e->actor, "restrained"), "by");
    return by && by[0] && rules_enc_combatant(e, by) && !rules_enc_is_out(e, by) ? by : NULL;
}

static int check_break_free(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (!rules_enc_cond(e, e->actor, "restrained"))
        return rules_enc_rule(err, "%s is not Restrained", rules_enc_name(e, e->actor));
    int rc = cot_turn_check(e, 0, err);
    const char *by = holder_of(e);
    if (rc || !by)
        return rc;
    if ((rc = cot_throw_check(e, by, "muscle", "athletics", 0, err)))
        return rc;
    return cot_throw_check(e, e->actor, "muscle", "athletics", 0, err);
}

static int act_break_free(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *me = e->actor, *name = rules_enc_name(e, me);
    /* a copy: removing the condition frees the string */
    char by_id[40];
    snprintf(by_id, sizeof by_id, "%s", holder_of(e) ? holder_of(e) : "");
    const char *by = by_id[0] ? by_id : NULL;
    cot_slot_name sn = cot_turn_take(e);
    if (!by) {
        rules_enc_cond_remove(e, me, "restrained");
        rules_enc_log(e, "break_free", NULL, NULL,
                      "%s takes %s and slips free: nobody holds them any more", name, sn.s);
        cot_turn_close(e, 0);
        return 0;
    }
    char holder[64];
    snprintf(holder, sizeof holder, "%s", rules_enc_name(e, by));
    /* 000:133 "the two characters may roll opposed Muscle+ Athletics"; 000:13 the opponent rolls
     * first and sets the difficulty. */
    cot_throw opp, mine;
    if ((rc = cot_throw_pool(e, by, "muscle", "athletics", 0, &opp, err)) ||
        (rc = cot_throw_pool(e, me, "muscle", "athletics", 0, &mine, err)))
        return rc;
    int ok = cot_roll_succeeds(&mine.r, opp.r.total);
    if (ok)
        rules_enc_cond_remove(e, me, "restrained");
    /* each roll is its roller's: an NPC's pool, dice and total (the difficulty it sets) are the
     * GM's; the table sees who breaks free */
    rules_aud theirs = rules_enc_aud_of(e, by), mine_aud = rules_enc_aud_of(e, me);
    rules_enc_entry *x = rules_enc_entry_begin(e, "hold");
    cot_log_throw(x, theirs, &opp);
    rules_enc_entry_say(x, theirs, "%s holds on: Muscle+Athletics %s", holder, opp.line);
    rules_enc_entry_end(x);
    x = rules_enc_entry_begin(e, "break_free");
    cot_log_throw(x, mine_aud, &mine);
    rules_enc_entry_set(x, theirs, "difficulty", json_integer(opp.r.total));
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "success", json_boolean(ok));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s takes %s and tries to break free of %s", name,
                        sn.s, holder);
    rules_enc_entry_say(x, mine_aud, ": Muscle+Athletics %s", mine.line);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s (000:133)", ok ? "free" : "still Restrained");
    rules_enc_entry_end(x);
    cot_turn_close(e, 1);
    return 0;
}
