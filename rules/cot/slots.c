/*
 * slots.c — City of Thieves' initiative slots (cot_enc.h, "SLOTS"; 000:31-40): joining rolls a
 * slot, the turn of a slot and the round, and the actions every slot module shares (begin, skip,
 * claim, wait, bolster, focus, give, roll). The rulebook is 000_d2a475e9ec148dd1.txt, cited as
 * 000:LINE.
 */
#include "cot_enc.h"

#include <stdio.h>
#include <string.h>

/* ---- slots ---- */

static json_t *slots(const rules_enc *e)
{
    return json_object_get(e->enc, "order");
}

json_t *cot_current_slot(const rules_enc *e)
{
    json_t *s = rules_enc_current_entry(e);
    return json_is_object(s) ? s : NULL;
}

static const char *claimer(const json_t *slot)
{
    return cot_str(slot, "claimed_by");
}

static json_t *slot_by_id(const rules_enc *e, const char *id)
{
    size_t i;
    json_t *s;
    json_array_foreach(slots(e), i, s) if (rules_enc_streq(cot_str(s, "id"), id)) return s;
    return NULL;
}

/* "slot 14": slots are named by their total, as the GM writes them down (000:37). */
typedef struct cot_slot_name {
    char s[32];
} cot_slot_name;

static cot_slot_name name_of(const json_t *slot)
{
    cot_slot_name n;
    snprintf(n.s, sizeof n.s, "slot %d", cot_int(slot, "total"));
    return n;
}

static json_t *claims(const rules_enc *e, const char *cid)
{
    return json_object_get(rules_enc_combatant(e, cid), "claimed");
}

json_t *cot_focus(const rules_enc *e)
{
    json_t *f = json_object_get(e->enc, "focus");
    return json_is_object(f) ? f : NULL;
}

int cot_claim_limit(const rules_enc *e, const char *cid)
{
    json_t *f = cot_focus(e);
    if (f && rules_enc_streq(cot_str(f, "by"), cid))
        return 1 + (int)json_array_size(json_object_get(f, "given"));
    if (f && cot_in_array(json_object_get(f, "given"), cid))
        return 0;
    return 1;
}

static int can_take(const rules_enc *e, const char *cid, const char *side)
{
    return !rules_enc_is_out(e, cid) && rules_enc_streq(rules_enc_side(e, cid), side) &&
           (int)json_array_size(claims(e, cid)) < cot_claim_limit(e, cid);
}

/* Someone of the owning side can still take this slot. */
static int slot_open(const rules_enc *e, const json_t *slot)
{
    const char *side = cot_str(slot, "side"), *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (can_take(e, cid, side))
            return 1;
    return 0;
}

/* A new round: every slot is free again, nobody has claimed one, a Focus Round is over. */
static void round_reset(rules_enc *e)
{
    size_t i;
    json_t *s;
    json_array_foreach(slots(e), i, s) json_object_set_new(s, "claimed_by", json_null());
    const char *cid;
    for (i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        json_object_del(rules_enc_combatant(e, cid), "claimed");
    json_t *f = cot_focus(e);
    if (f && cot_int(f, "round") < rules_enc_round(e)) {
        rules_log *x = rules_log_begin(e, "focus_end", "focus_end");
        rules_log_who(x, "who", cot_str(f, "by"));
        rules_log_end(x);
        json_object_del(e->enc, "focus");
    }
}

/* Moves the pointer on from the current slot (begin: onto the first) to the next slot someone
 * of its side can still take; a slot nobody can take passes (000:38 "Once all the available
 * Slots have been used ... the round is over"). */
static void slot_settle(rules_enc *e, int move)
{
    json_object_del(e->enc, "follow_up"); /* a turn that went on ends with the slot */
    size_t n = json_array_size(slots(e));
    for (size_t step = 0; step < 2 * n + 2; step++) {
        if (move) {
            int r = rules_enc_advance(e);
            if (r < 0)
                return;
            if (r == 1) {
                round_reset(e);
                rules_log *x = rules_log_begin(e, "round", "round");
                rules_log_count(x, "round", rules_enc_round(e), RULES_AUD_PUBLIC);
                rules_log_end(x);
            }
        }
        move = 1;
        json_t *s = cot_current_slot(e);
        if (!s)
            return;
        if (slot_open(e, s))
            return;
        rules_log *x = rules_log_begin(e, "pass", "pass");
        rules_log_count(x, "slot", cot_int(s, "total"), RULES_AUD_PUBLIC);
        rules_log_name(x, "side", cot_str(s, "side"), RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    json_object_set_new(e->enc, "turn", json_integer(-1));
    rules_log_end(rules_log_begin(e, "stall", "stall"));
}

/* A total becomes a slot of `side`, in its place from highest to lowest (000:37); equal totals
 * keep the order they were rolled in. The current slot stays current. */
static void slot_insert(rules_enc *e, int total, const char *side)
{
    json_t *order = slots(e);
    size_t n = json_array_size(order), at = 0;
    while (at < n && cot_int(json_array_get(order, at), "total") >= total)
        at++;
    int next = cot_int(e->enc, "next_slot");
    char id[24];
    snprintf(id, sizeof id, "s%d", next < 1 ? 1 : next);
    json_object_set_new(e->enc, "next_slot", json_integer((next < 1 ? 1 : next) + 1));
    json_array_insert_new(
        order, at,
        json_pack("{s:s, s:i, s:s, s:n}", "id", id, "total", total, "side", side, "claimed_by"));
    int turn = cot_int(e->enc, "turn");
    if (turn >= 0 && (int)at <= turn)
        json_object_set_new(e->enc, "turn", json_integer(turn + 1));
}

/* ---- the turn of a slot ---- */

int cot_may_act(rules_enc *e, const char *cid, tb_err *err)
{
    json_t *s = cot_current_slot(e);
    if (!s)
        return rules_enc_rule(err, rules_enc_round(e) == 0
                                       ? "the encounter has not started: the GM begins round 1 "
                                         "(begin)"
                                       : "no slot is up now");
    cot_slot_name sn = name_of(s);
    const char *by = claimer(s);
    if (by)
        return rules_enc_streq(by, cid)
                   ? 0
                   : rules_enc_rule(err,
                                    "%s is claimed by %s; each slot is one character's turn "
                                    "(000:38)",
                                    sn.s, rules_enc_name(e, by));
    const char *side = cot_str(s, "side");
    if (!rules_enc_streq(rules_enc_side(e, cid), side))
        return rules_enc_rule(err, "it is %s's turn, owned by the %s", sn.s, side ? side : "?");
    int limit = cot_claim_limit(e, cid), taken = (int)json_array_size(claims(e, cid));
    if (taken < limit)
        return 0;
    if (limit == 0)
        return rules_enc_rule(err, "%s gave this round's slot to %s's Focus Round (000:40)",
                              rules_enc_name(e, cid),
                              rules_enc_name(e, cot_str(cot_focus(e), "by")));
    if (limit > 1)
        return rules_enc_rule(err,
                              "%s has taken the %d slots of the Focus Round this round "
                              "(000:40)",
                              rules_enc_name(e, cid), limit);
    json_t *first = slot_by_id(e, json_string_value(json_array_get(claims(e, cid), 0)));
    return rules_enc_rule(err,
                          "%s has already taken a slot this round (%s): each character "
                          "claims one slot per round (000:38)",
                          rules_enc_name(e, cid), first ? name_of(first).s : "?");
}

/* The actor takes the current slot (000:38). */
static json_t *take_slot(rules_enc *e)
{
    json_t *s = cot_current_slot(e);
    if (s && !claimer(s)) {
        json_object_set_new(s, "claimed_by", json_string(e->actor));
        json_t *c = rules_enc_combatant(e, e->actor);
        json_t *cl = json_object_get(c, "claimed");
        if (!json_is_array(cl)) {
            cl = json_array();
            json_object_set_new(c, "claimed", cl);
        }
        json_array_append_new(cl, json_string(cot_str(s, "id")));
    }
    return s;
}

int cot_turn_check(const rules_enc *e, const char *action, tb_err *err)
{
    if (strcmp(action, "flee") != 0 && rules_enc_cond_has(e, e->actor, "fleeing"))
        return rules_enc_rule(err,
                              "%s is fleeing: their next action leaves the Zone (flee) "
                              "(000:126)",
                              rules_enc_name(e, e->actor));
    json_t *fu = json_object_get(e->enc, "follow_up");
    if (json_is_object(fu) && rules_enc_streq(cot_str(fu, "by"), e->actor) &&
        strcmp(action, "wait") != 0 && !cot_in_array(json_object_get(fu, "actions"), action))
        return rules_enc_rule(err, "%s's turn goes on only with %s, or ends (wait) (%s)",
                              rules_enc_name(e, e->actor), cot_str(fu, "what"),
                              cot_str(fu, "cite"));
    return 0;
}

int cot_turn_take(rules_enc *e)
{
    return cot_int(take_slot(e), "total");
}

rules_log *cot_turn_log(rules_enc *e, const char *action, const char *event)
{
    int slot = cot_turn_take(e);
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_who(x, "who", e->actor);
    rules_log_count(x, "slot", slot, RULES_AUD_PUBLIC);
    return x;
}

void cot_bolster_lapse(rules_enc *e, const char *cid)
{
    if (!rules_enc_cond_remove(e, cid, "bolstered"))
        return;
    rules_log *x = rules_log_begin(e, "bolster_lost", "bolster_lost");
    rules_log_who(x, "who", cid);
    rules_log_end(x);
}

void cot_turn_close(rules_enc *e, int rolled)
{
    if (!rolled)
        cot_bolster_lapse(e, e->actor);
    slot_settle(e, 1);
}

int cot_actor_in(const rules_enc *e, tb_err *err)
{
    if (!e->actor || !rules_enc_is_out(e, e->actor))
        return 0;
    return rules_enc_rule(err, "%s is out of the scene (%s)", rules_enc_name(e, e->actor),
                          cot_str(rules_enc_combatant(e, e->actor), "out"));
}

int cot_target_check(const rules_enc *e, const char *t, int self_ok, tb_err *err)
{
    if (!self_ok && strcmp(t, e->actor) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "target: %s cannot target themselves",
                       rules_enc_name(e, t));
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight (%s)", rules_enc_name(e, t),
                              cot_str(rules_enc_combatant(e, t), "out"));
    return 0;
}

/* ---- start and join ---- */

void cot_start_stage(rules_enc *e, const char *id)
{
    const cot_stage *st = cot_stage_find(id);
    json_object_set_new(e->enc, "stage", json_string(st->id));
    json_object_set_new(e->enc, "pool", json_string(st->pool));
    json_object_set_new(e->enc, "next_slot", json_integer(1));
}

static const char *const ABILITIES[] = {"muscle", "fingers", "brains", "it", NULL};

/* Copies what the rolls need from the sheet into the stats: abilities, skills, the armour bonus
 * (000:123) and the weapons with their bonus and Blunt tag (000:102). */
static void copy_sheet(rules_enc *e, const char *cid, const json_t *sheet)
{
    json_t *st = rules_enc_stats(e, cid);
    json_t *ab = json_object(), *sk = json_object(), *weapons = json_array();
    for (const char *const *a = ABILITIES; *a; a++) {
        json_t *v = json_object_get(json_object_get(sheet, "abilities"), *a);
        json_object_set_new(
            ab, *a, json_integer(json_is_integer(v) ? json_integer_value(v) : COT_DEFAULT_ABILITY));
    }
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(sheet, "skills"), k, v) json_object_set(sk, k, v);
    int armour = 0;
    size_t i;
    json_array_foreach(json_object_get(sheet, "gear"), i, v)
    {
        const char *kind = cot_str(v, "kind");
        if (kind && strcmp(kind, "armour") == 0)
            armour += cot_int(v, "bonus");
        else if (kind && strcmp(kind, "weapon") == 0)
            json_array_append_new(weapons, json_pack("{s:s, s:i, s:b}", "name", cot_str(v, "name"),
                                                     "bonus", cot_int(v, "bonus"), "blunt",
                                                     json_is_true(json_object_get(v, "blunt"))));
    }
    json_object_set_new(st, "abilities", ab);
    json_object_set_new(st, "skills", sk);
    json_object_set_new(st, "armour", json_integer(armour));
    json_object_set_new(st, "weapons", weapons);
    if (cot_stat_true(e, cid, "wounded"))
        rules_enc_cond_add(e, cid, "wounded", 0, 0);
}

int cot_join_common(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    copy_sheet(e, cid, sheet);
    cot_copy_loyalties(e, cid, sheet); /* Lean Onto in any roll (000:239) */
    /* 000:31 "roll Initiative as a group": every member of a side rolls its Stage's pool;
     * 000:37 the totals, marked with the side, are the slots (RULES.md, cot encounters, reading 1).
     */
    const cot_stage *st = cot_stage_find(cot_str(e->enc, "stage"));
    if (!st)
        st = cot_stage_find("heist");
    cot_throw t;
    int rc = cot_throw_pool(e, cid, st->ability, st->skill, 0, &t, err);
    if (rc)
        return rc;
    const char *side = rules_enc_side(e, cid);
    slot_insert(e, t.r.total, side);
    /* 000:37 the slots are the table's: the number is open, the pool and dice are the roller's */
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_log *x = rules_log_begin(e, "initiative", "initiative");
    rules_log_who(x, "who", cid);
    rules_log_name(x, "pool", st->pool, aud);
    cot_log_throw(x, &t, aud);
    rules_log_count(x, "slot", t.r.total, RULES_AUD_PUBLIC);
    rules_log_name(x, "side", side, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- the actions every slot module has ---- */

const rules_param cot_no_params[] = {{0}};

const rules_param cot_target_params[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who"},
    {0},
};

const rules_param cot_roll_params[] = {
    {"skill", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED, "skill (lockpicking, sneak...)"},
    {"difficulty", RULES_PARAM_INT, 0, 200, COT_DIFFICULTY_BASE, 0, "difficulty (default 9)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "Bonus dice for gear or circumstances (+1k0 each)"},
    COT_LEAN_ONTO_PARAM,
    {0},
};

int cot_check_begin(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (rules_enc_round(e) != 0)
        return rules_enc_rule(err, "round %d is under way; rounds follow on by themselves",
                              rules_enc_round(e));
    if (json_array_size(slots(e)) == 0)
        return rules_enc_rule(err, "there are no slots yet: add the combatants first (enc.add)");
    return 0;
}

int cot_act_begin(rules_enc *e, const rules_args *a, tb_err *err)
{
    rules_enc_begin_round(e);
    json_t *list = json_array(), *s;
    size_t i;
    json_array_foreach(slots(e), i, s) json_array_append_new(
        list, json_pack("{s:i, s:s}", "slot", cot_int(s, "total"), "side", cot_str(s, "side")));
    rules_log *x = rules_log_begin(e, "begin", "begin");
    rules_log_list(x, "slots", "cot.slot", list, RULES_AUD_PUBLIC); /* 000:37 the table's */
    rules_log_end(x);
    slot_settle(e, 0);
    return 0;
}

int cot_check_skip(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (!cot_current_slot(e))
        return rules_enc_rule(err, "no slot is up now");
    return 0;
}

int cot_act_skip(rules_enc *e, const rules_args *a, tb_err *err)
{
    json_t *s = cot_current_slot(e);
    rules_log *x = rules_log_begin(e, "skip", "skip");
    rules_log_count(x, "slot", cot_int(s, "total"), RULES_AUD_PUBLIC);
    rules_log_name(x, "side", cot_str(s, "side"), RULES_AUD_PUBLIC);
    rules_log_end(x);
    slot_settle(e, 1);
    return 0;
}

int cot_check_claim(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    json_t *s = cot_current_slot(e);
    if (claimer(s))
        return rules_enc_rule(err, "%s has already claimed %s: take an action",
                              rules_enc_name(e, e->actor), name_of(s).s);
    return 0;
}

int cot_act_claim(rules_enc *e, const rules_args *a, tb_err *err)
{
    json_t *s = take_slot(e);
    rules_log *x = rules_log_begin(e, "claim", "claim");
    rules_log_who(x, "who", e->actor);
    rules_log_count(x, "slot", cot_int(s, "total"), RULES_AUD_PUBLIC);
    rules_log_name(x, "side", cot_str(s, "side"), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

int cot_check_wait(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    return cot_turn_check(e, "wait", err);
}

int cot_act_wait(rules_enc *e, const rules_args *a, tb_err *err)
{
    rules_log *x = cot_turn_log(e, "wait", "wait");
    /* 000:28 "Wait: Skip your turn with no additional effects." */
    rules_log_end(x);
    cot_turn_close(e, 0);
    return 0;
}

int cot_check_bolster(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc = cot_target_check(e, rules_arg_str(a, "target"), 1, err);
    return rc ? rc : cot_turn_check(e, "bolster", err);
}

int cot_act_bolster(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    rules_log *x = cot_turn_log(e, "bolster", "bolster");
    /* 000:27 "Skip your turn, but add +1k0 to the next roll a character of your choice make":
     * skipping the turn is not a roll, so the actor's own Bolster lapses first. Bolsters on one
     * character add up (RULES.md, cot encounters, reading 4). */
    cot_bolster_lapse(e, e->actor);
    int level = cot_bolster_of(e, t) + 1;
    rules_enc_cond_add(e, t, "bolstered", 0, level);
    rules_log_who(x, "whom", t);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_int(x, "bonus", level, RULES_AUD_PUBLIC);
    rules_log_end(x);
    cot_turn_close(e, 1);
    return 0;
}

int cot_check_focus(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor, *name = rules_enc_name(e, cid);
    /* 000:38 "members of the Crew have access to a Focus Round" */
    if (rules_enc_is_npc(e, cid))
        return rules_enc_rule(err, "only a member of the crew (a player character) has a Focus "
                                   "Round (000:38)");
    if (rules_enc_is_out(e, cid))
        return rules_enc_rule(err, "%s is out of the fight", name);
    /* 000:40 "A character may only take one Focus Round per session." */
    if (cot_stat_true(e, cid, "focus_used"))
        return rules_enc_rule(err,
                              "%s has already taken a Focus Round this session (000:40); "
                              "the GM clears focus_used on the sheet for a new session",
                              name);
    if (cot_focus(e))
        return rules_enc_rule(err, "%s's Focus Round is under way this round",
                              rules_enc_name(e, cot_str(cot_focus(e), "by")));
    return 0;
}

int cot_act_focus(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    int round = rules_enc_round(e) < 1 ? 1 : rules_enc_round(e);
    json_object_set_new(e->enc, "focus",
                        json_pack("{s:s, s:i, s:[]}", "by", cid, "round", round, "given"));
    json_object_set_new(rules_enc_stats(e, cid), "focus_used", json_true());
    rules_log *x = rules_log_begin(e, "focus", "focus");
    rules_log_who(x, "who", cid);
    rules_log_count(x, "round", round, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

int cot_check_give(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    json_t *f = cot_focus(e);
    const char *cid = e->actor, *name = rules_enc_name(e, cid);
    if (!f)
        return rules_enc_rule(err, "no Focus Round is under way: a crewmate declares one first "
                                   "(focus)");
    const char *by = cot_str(f, "by");
    if (!by)
        return rules_enc_rule(err, "the Focus Round names nobody; the GM ends the encounter");
    if (rules_enc_streq(by, cid))
        return rules_enc_rule(err,
                              "%s takes the Focus Round; the slots come from the others on "
                              "the crew (000:40)",
                              name);
    if (rules_enc_is_npc(e, cid) || !rules_enc_streq(rules_enc_side(e, cid), rules_enc_side(e, by)))
        return rules_enc_rule(err,
                              "only %s's crewmates (player characters of the %s) can give "
                              "slots to the Focus Round (000:40)",
                              rules_enc_name(e, by), rules_enc_side(e, by));
    if (cot_in_array(json_object_get(f, "given"), cid))
        return rules_enc_rule(err, "%s has already given this round's slot", name);
    if (json_array_size(claims(e, cid)) > 0)
        return rules_enc_rule(err, "%s has already taken a slot this round (000:38)", name);
    if (rules_enc_is_out(e, cid))
        return rules_enc_rule(err, "%s is out of the fight", name);
    return 0;
}

int cot_act_give(rules_enc *e, const rules_args *a, tb_err *err)
{
    json_t *f = cot_focus(e);
    const char *cid = e->actor, *by = cot_str(f, "by");
    if (!json_is_array(json_object_get(f, "given")))
        json_object_set_new(f, "given", json_array());
    json_array_append_new(json_object_get(f, "given"), json_string(cid));
    rules_log *x = rules_log_begin(e, "give", "give");
    rules_log_who(x, "who", cid);
    rules_log_who(x, "by", by);
    rules_log_count(x, "n", cot_claim_limit(e, by), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

int cot_check_roll(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const cot_skill *sk = cot_skill_find(rules_arg_str(a, "skill"));
    if (!sk)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act roll: 'skill' must be a skill of the sheet "
                       "(lockpicking, sneak, ...: 000:44-96)");
    int lean, rc = cot_lean_own(e, a, &lean, err);
    if (rc || (rc = cot_turn_check(e, "roll", err)))
        return rc;
    return cot_throw_check(e, e->actor, sk->ability, sk->id, rules_arg_int(a, "bonus") + lean, err);
}

int cot_act_roll(rules_enc *e, const rules_args *a, tb_err *err)
{
    const cot_skill *sk = cot_skill_find(rules_arg_str(a, "skill"));
    rules_log *x = cot_turn_log(e, "roll", "roll");
    cot_throw t;
    int lean, rc = cot_lean_own(e, a, &lean, err);
    if (rc || (rc = cot_throw_pool(e, e->actor, sk->ability, sk->id,
                                   rules_arg_int(a, "bonus") + lean, &t, err))) {
        rules_log_drop(x);
        return rc;
    }
    int diff = rules_arg_int(a, "difficulty"); /* 9 unless the GM says otherwise: 000:13 */
    int ok = cot_roll_succeeds(&t.r, diff);
    rules_log_json(x, "skill", json_string(sk->id), RULES_AUD_PUBLIC);
    rules_log_name(x, "skill_name", sk->label, RULES_AUD_PUBLIC);
    rules_log_int(x, "difficulty", diff, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_name(x, "outcome",
                   t.r.catastrophe ? "Catastrophe"
                   : ok            ? "success"
                                   : "failure",
                   RULES_AUD_PUBLIC);
    cot_log_throw(x, &t, rules_enc_aud_of(e, e->actor));
    rules_log_end(x);
    cot_turn_close(e, 1);
    return 0;
}

/* The slots of /enc/order ({id, total, side, claimed_by}), the Focus Round ({by, round, given})
 * and each combatant's `claimed` list, as the slot functions above read them. */
int cot_module_check(const rules_enc *e, tb_err *err)
{
    size_t i;
    json_t *s;
    json_array_foreach(slots(e), i, s)
    {
        json_t *by = json_object_get(s, "claimed_by");
        if (!json_is_object(s) || !cot_str(s, "id") || !cot_str(s, "side") ||
            !json_is_integer(json_object_get(s, "total")) ||
            (by && !json_is_null(by) && !json_is_string(by)))
            return rules_enc_rule(err,
                                  "the encounter cannot go on: slot %zu of the order is "
                                  "ill-formed; the GM can end it (enc.end)",
                                  i + 1);
    }
    json_t *f = json_object_get(e->enc, "focus");
    if (f && !json_is_null(f) &&
        (!json_is_object(f) || !cot_str(f, "by") || !json_is_integer(json_object_get(f, "round")) ||
         !json_is_array(json_object_get(f, "given"))))
        return rules_enc_rule(err, "the encounter cannot go on: the Focus Round is ill-formed; "
                                   "the GM can end it (enc.end)");
    json_t *fu = json_object_get(e->enc, "follow_up");
    if (fu && (!json_is_object(fu) || !cot_str(fu, "by") || !cot_str(fu, "what") ||
               !cot_str(fu, "cite") || !json_is_array(json_object_get(fu, "actions"))))
        return rules_enc_rule(err, "the encounter cannot go on: the turn that goes on is "
                                   "ill-formed; the GM can end it (enc.end)");
    const char *cid;
    for (i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *c = json_object_get(rules_enc_combatant(e, cid), "claimed");
        if (c && !json_is_array(c))
            return rules_enc_rule(err,
                                  "the encounter cannot go on: %s's claimed slots are "
                                  "ill-formed; the GM can end it (enc.end)",
                                  rules_enc_name(e, cid));
    }
    return 0;
}

/* Training (000:218 "Add dice on action- 1 Foresight per rolled die and 2 Foresight per kept
 * die added"), spent in any scene, not only a heist's Prep (issue 25): +RkK on the character's
 * next roll (condition `training` {level: R, kept: K}, used up by it). No slot. */
const rules_param cot_train_params[] = {
    {"rolled", RULES_PARAM_INT, 0, 10, 0, 0, "dice rolled added (1 Foresight each)"},
    {"kept", RULES_PARAM_INT, 0, 10, 0, 0, "dice kept added (2 Foresight each)"},
    {0},
};

int cot_check_train(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int rolled = rules_arg_int(a, "rolled"), kept = rules_arg_int(a, "kept");
    int have = rules_enc_stat_peek(e, e->actor, "foresight", 0);
    if (cot_actor_in(e, err))
        return err->code;
    /* 000:213 "Planning can accumulate Foresight": the crew's, as its schemes */
    if (rules_enc_is_npc(e, e->actor))
        return rules_enc_rule(err, "Foresight is the crew's: only a player character trains with "
                                   "it (000:213-218)");
    if (rolled + kept < 1)
        return tb_fail(err, TB_BAD_REQUEST, "training adds dice: give rolled and/or kept");
    if (have < rolled + 2 * kept)
        return rules_enc_rule(err, "%s has %d Foresight; this takes %d (000:218)",
                              rules_enc_name(e, e->actor), have, rolled + 2 * kept);
    return 0;
}

int cot_act_train(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rolled = rules_arg_int(a, "rolled"), kept = rules_arg_int(a, "kept");
    int cost = rolled + 2 * kept, left = rules_enc_stat(e, e->actor, "foresight", 0) - cost;
    rules_enc_stat_set(e, e->actor, "foresight", left);
    json_object_set_new(rules_enc_cond_add(e, e->actor, "training", 0, rolled), "kept",
                        json_integer(kept));
    rules_log *x = rules_log_begin(e, "train", "train");
    rules_log_who(x, "who", e->actor);
    rules_log_int(x, "cost", cost, RULES_AUD_PUBLIC);
    rules_log_int(x, "foresight", left, RULES_AUD_PUBLIC);
    rules_log_count(x, "dice", rolled, RULES_AUD_PUBLIC);
    rules_log_count(x, "kept_dice", kept, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- the words (rules_system_cot.phrases: every cot module's) ---- */

/* clang-format off */
const rules_phrase cot_phrases[] = {
    {"cot.roll", "{rolled}k{keep} → {faces} = {total}{cat?}"},
    {"cot.opposing", "{orolled}k{okeep} → {ofaces} = {ototal}{ocat?}"},
    {"cot.cat", " (Catastrophe)"},
    {"focus_end", "{who}'s Focus Round is over"},
    {"round", "Round {round} begins"},
    {"pass", "slot {slot} ({side}) passes: nobody on that side can take it"},
    {"stall", "Nobody is left who can take a slot; the GM ends or adjusts the encounter"},
    {"bolster_lost", "{who} made no roll on this turn and loses the Bolster (000:27)"},
    {"initiative", "{who} rolls initiative ({pool}): {line}: a slot {slot} for the {side} (000:37)"},
    {"initiative", "a slot {slot} for the {side} (000:37)"},
    {"begin", "Round 1 begins; the slots, highest first: {slots} (000:37)"},
    {"cot.slot", "{slot} ({side})"},
    {"skip", "The GM passes slot {slot} ({side})"},
    {"claim", "{who} claims slot {slot} for the {side} (000:38)"},
    {"wait", "{who} takes slot {slot} and waits (000:28)"},
    {"bolster", "{who} takes slot {slot} to Bolster {whom}: +{bonus}k0 on {whom}'s next roll, "
                "lost unless rolled on their next turn (000:27)"},
    {"focus", "{who} takes a Focus Round (round {round}): crewmates may give {who} their slots "
              "(give) (000:40)"},
    {"give", "{who} gives this round's slot to {by}'s Focus Round: {by} may take {n} slots "
             "(000:40)"},
    {"roll", "{who} takes slot {slot} and rolls {skill_name}: {line}: {outcome} vs {difficulty} "
             "(000:9)"},
    {"roll", "{who} takes slot {slot} and rolls {skill_name}: {outcome} vs {difficulty} (000:9)"},
    {"cover", "{who} {why}: Resist {line}: Cover {cover}"},
    {"cover", "{who} {why}"},
    {"hold", "{holder} holds on: Muscle+Athletics {line}"},
    {"train", "{who} spends {cost} Foresight: trained for it: +{dice} dice rolled, +{kept_dice} "
              "kept on the next roll (000:218)"},
    {NULL, NULL},
};
/* clang-format on */
