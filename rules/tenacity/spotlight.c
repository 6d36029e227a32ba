/*
 * spotlight.c — who holds the spotlight in tenacity.spotlight (003:84-92): initiative, passing
 * it, who goes next at the end of a turn, responses of characters brought back into the
 * spotlight, round resets and the group-initiative option. Readings: rules/RULES.md, tenacity,
 * "Encounters (module tenacity.spotlight)".
 */
#include <string.h>

#include "enc_tenacity.h"

/* ---- small helpers ---- */

json_t *ten_list(rules_enc *e, const char *key)
{
    json_t *a = json_object_get(e->enc, key);
    if (!json_is_array(a)) {
        a = json_array();
        json_object_set_new(e->enc, key, a);
    }
    return a;
}

int ten_has(const json_t *list, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) if (json_string_value(v) &&
                                       rules_enc_streq(json_string_value(v), cid)) return 1;
    return 0;
}

void ten_put(json_t *list, const char *cid)
{
    if (!ten_has(list, cid))
        json_array_append_new(list, json_string(cid));
}

void ten_drop(json_t *list, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) if (rules_enc_streq(json_string_value(v), cid))
    {
        json_array_remove(list, i);
        return;
    }
}

const char *ten_str(const rules_enc *e, const char *key)
{
    return json_string_value(json_object_get(e->enc, key));
}

void ten_set_str(rules_enc *e, const char *key, const char *v)
{
    json_object_set_new(e->enc, key, v ? json_string(v) : json_null());
}

int ten_flag(const rules_enc *e, const char *key)
{
    return json_is_true(json_object_get(e->enc, key));
}

void ten_set_flag(rules_enc *e, const char *key, int v)
{
    json_object_set_new(e->enc, key, json_boolean(v));
}

int ten_option(const rules_enc *e, const char *name)
{
    json_t *v = json_object_get(json_object_get(e->enc, "options"), name);
    return json_is_true(v) || (json_is_integer(v) && json_integer_value(v) != 0);
}

const char *ten_holder(const rules_enc *e)
{
    return ten_str(e, "spotlight");
}

int ten_acted(rules_enc *e, const char *cid)
{
    return ten_has(ten_list(e, "acted"), cid);
}

int ten_opposed(const rules_enc *e, const char *a, const char *b)
{
    return strcmp(rules_enc_side(e, a), rules_enc_side(e, b)) != 0;
}

/* May take a turn at all: in the fight (not dead, not removed). */
static int present(const rules_enc *e, const char *cid)
{
    return rules_enc_combatant(e, cid) && !rules_enc_is_out(e, cid);
}

/* The order as a C list of ids (borrowed strings), n entries. */
static int order_ids(const rules_enc *e, const char **ids, int max)
{
    json_t *order = json_object_get(e->enc, "order");
    int n = 0;
    size_t i;
    json_t *v;
    json_array_foreach(order, i, v) if (json_is_string(v) && n < max) ids[n++] =
        json_string_value(v);
    return n;
}

#define MAXC 64

/* ---- group initiative (003:92) ---- */

static int in_group(const rules_enc *e, const char *cid, int g)
{
    const char *side = json_string_value(json_array_get(json_object_get(e->enc, "groups"), g));
    return side && strcmp(rules_enc_side(e, cid), side) == 0;
}

/* 003:92 "the group that goes second receives an advantage die on the first action that each
 * character takes": every member of a group after the first, once per round (reading). */
static void set_edges(rules_enc *e)
{
    json_t *edge = json_array();
    const char *ids[MAXC];
    int n = order_ids(e, ids, MAXC);
    for (int i = 0; i < n; i++)
        if (!in_group(e, ids[i], 0) && present(e, ids[i]))
            json_array_append_new(edge, json_string(ids[i]));
    json_object_set_new(e->enc, "edge", edge);
}

/* Groups: the sides in initiative order of their best roller, `first` moved to the front. */
static void set_groups(rules_enc *e, const char *first)
{
    json_t *groups = json_array();
    if (first)
        json_array_append_new(groups, json_string(first));
    const char *ids[MAXC];
    int n = order_ids(e, ids, MAXC);
    for (int i = 0; i < n; i++) {
        const char *side = rules_enc_side(e, ids[i]);
        size_t k;
        json_t *v;
        int seen = 0;
        json_array_foreach(groups, k, v) seen |= rules_enc_streq(json_string_value(v), side);
        if (!seen)
            json_array_append_new(groups, json_string(side));
    }
    json_object_set_new(e->enc, "groups", groups);
    json_object_set_new(e->enc, "group", json_integer(0));
    set_edges(e);
}

/* ---- turns ---- */

static void set_turn_index(rules_enc *e, const char *cid)
{
    json_object_set_new(e->enc, "turn", json_integer(cid ? rules_enc_order_index(e, cid) : -1));
}

void ten_start_turn(rules_enc *e, const char *cid)
{
    ten_set_str(e, "spotlight", cid);
    set_turn_index(e, cid);
    json_object_set_new(e->enc, "cue", json_array());
    json_object_set_new(e->enc, "recalled", json_array());
    ten_set_str(e, "responder", NULL);
    if (ten_acted(e, cid)) {
        /* 003:89 "If a character that has already taken their turn this round is the only other
         * one in the spotlight, then they get to choose who goes next"; 003:91 they may spend a
         * 10acity/spin point to respond with a standard action. */
        ten_set_flag(e, "choosing", 1);
        rules_enc_budget_set(e, cid, "action", 0);
        rules_enc_budget_set(e, cid, "interaction", 0);
        rules_enc_budget_set(e, cid, "move", 0);
        ten_put(ten_list(e, "recalled"), cid);
        rules_enc_log(e, "spotlight", NULL, NULL,
                      "%s is back in the spotlight after acting: chooses who goes next, or spends "
                      "10acity/spin to respond (003:89, 003:91)",
                      rules_enc_name(e, cid));
        return;
    }
    ten_set_flag(e, "choosing", 0);
    /* 003:87 "up to one action, one interaction, and one movement" (003:82) */
    rules_enc_budget_reset(e, cid);
    ten_options_turn(e, cid);
    rules_enc_log(e, "spotlight", NULL, NULL, "%s takes the spotlight", rules_enc_name(e, cid));
    /* 003:117 full defence lasts "until your next turn" */
    if (rules_enc_cond_remove(e, cid, "defensive"))
        rules_enc_log(e, "expire", NULL, NULL, "%s is no longer on full defence",
                      rules_enc_name(e, cid));
    /* 003:72 a sprint's spaces are "for that round", 003:112 a withdrawal covers the turn */
    rules_enc_cond_remove(e, cid, "sprinting");
    rules_enc_cond_remove(e, cid, "withdrawing");
    /* 003:103 a damage condition deals its damage "at the beginning of each of their turns" */
    json_t *conds = json_deep_copy(json_object_get(rules_enc_combatant(e, cid), "conditions"));
    size_t i;
    json_t *c;
    json_array_foreach(conds, i, c)
    {
        const char *kind = json_string_value(json_object_get(c, "kind"));
        if (kind && strcmp(kind, "damage") == 0)
            ten_stress(e, cid, (int)json_integer_value(json_object_get(c, "level")),
                       json_string_value(json_object_get(c, "name")));
    }
    json_decref(conds);
    /* 003:107 the coup de grâce is completed on the performer's next turn */
    json_t *coup = json_object_get(rules_enc_combatant(e, cid), "coup");
    if (coup)
        json_object_set_new(coup, "stage", json_integer(2));
}

void ten_new_round(rules_enc *e)
{
    json_object_set_new(e->enc, "round", json_integer(rules_enc_round(e) + 1));
    json_object_set_new(e->enc, "acted", json_array());
    if (ten_option(e, "group")) {
        json_object_set_new(e->enc, "group", json_integer(0));
        set_edges(e);
    }
    /* 003:90 "everyone resets their turns and begins again" */
    rules_enc_log(e, "round", NULL, NULL, "Round %d: everyone has acted; turns reset (003:90)",
                  rules_enc_round(e));
}

void ten_bring(rules_enc *e, const char *cid)
{
    const char *holder = ten_holder(e);
    if (!holder || !e->actor || strcmp(e->actor, holder) != 0 || strcmp(cid, holder) == 0)
        return; /* a response does not move the spotlight */
    ten_put(ten_list(e, "cue"), cid);
    /* 003:91 "At any point a character is brought back into the spotlight who has already taken
     * their turn, then they can spend a 10acity/Spin point to respond" */
    if (ten_acted(e, cid) && present(e, cid) && !ten_unconscious(e, cid))
        ten_put(ten_list(e, "recalled"), cid);
}

int ten_take_action(rules_enc *e, const char *cid, tb_err *err)
{
    if (rules_enc_spend(e, cid, "action", 1, err))
        return -1;
    json_t *edge = json_object_get(e->enc, "edge");
    if (ten_has(edge, cid)) {
        ten_drop(edge, cid);
        return 1;
    }
    return 0;
}

void ten_after(rules_enc *e)
{
    const char *r = ten_str(e, "responder");
    /* a response is one action (003:91); a released held movement is one movement (003:81) */
    if (r && rules_enc_budget_left(e, r, "action") == 0 &&
        rules_enc_budget_left(e, r, "move") == 0) {
        rules_enc_log(e, "respond", NULL, NULL, "%s's response is over; %s has the spotlight",
                      rules_enc_name(e, r), rules_enc_name(e, ten_holder(e)));
        ten_set_str(e, "responder", NULL);
    }
}

int ten_may_act(rules_enc *e, const char *cid, tb_err *err)
{
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "the encounter has not started: the GM rolls initiative first "
                                   "(003:85)");
    const char *resp = ten_str(e, "responder");
    if (resp && strcmp(resp, cid) != 0)
        return rules_enc_rule(err, "%s is responding (003:91); %s acts after the response",
                              rules_enc_name(e, resp), rules_enc_name(e, cid));
    if (resp)
        return 0;
    const char *holder = ten_holder(e);
    if (!holder)
        return rules_enc_rule(err, "nobody holds the spotlight now");
    if (strcmp(holder, cid) != 0)
        return rules_enc_rule(err, "%s holds the spotlight, not %s (003:84)",
                              rules_enc_name(e, holder), rules_enc_name(e, cid));
    return 0;
}

/* ---- initiative (003:85-86) ---- */

int ten_act_initiative(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err, "initiative is established once (003:85); the GM moves the "
                                   "spotlight with 'spotlight'");
    const char *skill = rules_arg_str(a, "skill");
    if (!skill)
        skill = "Reaction"; /* 003:85 "usually this is the Reaction or Perception skill" */
    rules_rank rank[MAXC];
    int n = 0;
    const char *cid;
    /* every combatant can roll the skill before anyone rolls: a refusal draws no die */
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (present(e, cid) && ten_skill_check(e, cid, skill, err))
            return err->code;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)) && n < MAXC; i++) {
        if (!present(e, cid))
            continue;
        json_t *dice = json_array();
        ten_side s;
        int rc = ten_roll(e, cid, skill, 0, 0, "initiative", dice, &s, err);
        if (rc) {
            json_decref(dice);
            return rc;
        }
        json_t *res = json_pack("{s:s, s:i}", "skill", skill, "total", s.total);
        if (rules_enc_is_npc(e, cid)) {
            json_object_set_new(rules_enc_hidden_of(e, cid), "init", json_integer(s.total));
            rules_enc_log_gm(e, "initiative", dice, res, "%s rolls %s for initiative: %d",
                             rules_enc_name(e, cid), skill, s.total);
        } else {
            json_object_set_new(rules_enc_combatant(e, cid), "init", json_integer(s.total));
            rules_enc_log(e, "initiative", dice, res, "%s rolls %s for initiative: %d",
                          rules_enc_name(e, cid), skill, s.total);
        }
        /* 003:86 ties "usually go to the heroes of our story over an NPC"; "Alternatively, the
         * one with the highest reaction skill could go first" */
        json_t *react =
            json_object_get(json_object_get(rules_enc_stats(e, cid), "skills"), "Reaction");
        rank[n] = (rules_rank){cid,
                               {s.total, !rules_enc_is_npc(e, cid),
                                (int)json_integer_value(json_array_get(react, 1)), 0},
                               0};
        n++;
    }
    if (n == 0)
        return rules_enc_rule(err, "nobody is in the encounter to roll initiative");
    rules_enc_order_set(e, rank, n);
    json_object_set_new(e->enc, "round", json_integer(1));
    json_object_set_new(e->enc, "acted", json_array());
    const char *first = json_string_value(json_array_get(json_object_get(e->enc, "order"), 0));
    if (ten_option(e, "group"))
        set_groups(e, rules_enc_side(e, first));
    ten_set_flag(e, "opening", 1);
    rules_enc_log(e, "initiative", NULL, NULL,
                  ten_option(e, "group")
                      ? "%s rolled highest: their group goes first, or they pass to the other "
                        "group (003:92)"
                      : "%s rolled highest: acts first or passes the initiative (003:86)",
                  rules_enc_name(e, first));
    ten_start_turn(e, first);
    return 0;
}

/* ---- who goes next (003:87-90) ---- */

/* Untouched: nothing of the turn spent yet. */
static int untouched(rules_enc *e, const char *cid)
{
    return rules_enc_budget_left(e, cid, "action") > 0 &&
           rules_enc_budget_left(e, cid, "interaction") > 0 &&
           rules_enc_budget_left(e, cid, "move") > 0;
}

/* Appends to out (ids in initiative order) the present combatants passing the filter. */
enum { F_NOT_ACTED = 1, F_ACTED = 2, F_OPPOSING = 4, F_CUE = 8, F_GROUP = 16 };

static int pick(rules_enc *e, const char *holder, unsigned f, const char **out)
{
    const char *ids[MAXC];
    int n = order_ids(e, ids, MAXC), k = 0;
    json_t *cue = ten_list(e, "cue");
    int g = (int)json_integer_value(json_object_get(e->enc, "group"));
    for (int i = 0; i < n; i++) {
        const char *c = ids[i];
        if (!present(e, c) || (holder && strcmp(c, holder) == 0))
            continue;
        if ((f & F_NOT_ACTED) && ten_acted(e, c))
            continue;
        if ((f & F_ACTED) && !ten_acted(e, c))
            continue;
        if ((f & F_OPPOSING) && !ten_opposed(e, holder, c))
            continue;
        if ((f & F_CUE) && !ten_has(cue, c))
            continue;
        if ((f & F_GROUP) && !in_group(e, c, g))
            continue;
        out[k++] = c;
    }
    return k;
}

/* The candidates for the spotlight after holder's turn, in initiative order; *why names the rule,
 * *reset is set when the round resets first. Returns their number. */
static int next_candidates(rules_enc *e, const char *holder, const char **out, const char **why,
                           int *reset)
{
    int n;
    *reset = 0;
    if (ten_option(e, "group")) {
        int groups = (int)json_array_size(json_object_get(e->enc, "groups"));
        /* 003:92 each group "in any order they choose", one group after the other */
        for (;;) {
            if ((n = pick(e, NULL, F_NOT_ACTED | F_GROUP, out)) > 0) {
                *why = "the rest of the group acts in any order it chooses (003:92)";
                return n;
            }
            int g = (int)json_integer_value(json_object_get(e->enc, "group")) + 1;
            if (g >= groups) {
                if (*reset)
                    return 0;
                ten_new_round(e);
                *reset = 1;
                g = 0;
            }
            json_object_set_new(e->enc, "group", json_integer(g));
        }
    }
    /* 003:90 "Once everyone has taken a turn and the spotlight would not be able to activate
     * anyone else, then everyone resets their turns and begins again." */
    if (pick(e, NULL, F_NOT_ACTED, out) == 0) {
        ten_new_round(e);
        *reset = 1;
    }
    int choosing = ten_flag(e, "choosing") && !*reset;
    /* 003:87 "If that character's turn brings another character into the spotlight, then that
     * character goes next. In the case of multiple affected characters, an opposing character
     * goes next or if there is no opposing character any of the affected characters can go
     * next." */
    if ((n = pick(e, holder, F_CUE | F_NOT_ACTED | F_OPPOSING, out)) > 0 ||
        (n = pick(e, holder, F_CUE | F_NOT_ACTED, out)) > 0) {
        *why = "brought into the spotlight (003:87)";
        return n;
    }
    /* 003:89 an affected character who has already acted chooses who goes next */
    if (!*reset && ((n = pick(e, holder, F_CUE | F_ACTED | F_OPPOSING, out)) > 0 ||
                    (n = pick(e, holder, F_CUE | F_ACTED, out)) > 0)) {
        *why = "back in the spotlight after acting: chooses who goes next (003:89)";
        return n;
    }
    if (choosing && (n = pick(e, holder, F_NOT_ACTED, out)) > 0) {
        /* 003:84 "If that character has already acted, they pass the spotlight to another
         * character of their choice." */
        *why = "passed by a character who has already acted (003:84)";
        return n;
    }
    /* 003:88 "If a character's actions does not bring anyone else into the spotlight, then any
     * opposing character goes next." With no opposing character left, anyone left (reading). */
    if ((n = pick(e, holder, F_NOT_ACTED | F_OPPOSING, out)) > 0) {
        *why = "an opposing character goes next (003:88)";
        return n;
    }
    *why = "nobody opposing is left to act: anyone who has not acted (003:88, 003:90)";
    n = pick(e, holder, F_NOT_ACTED, out);
    if (n == 0 && holder && present(e, holder) && !ten_acted(e, holder))
        out[n++] = holder; /* alone after a reset */
    return n;
}

static int hand_on(rules_enc *e, const char *holder, const char *next, tb_err *err)
{
    const char *cands[MAXC];
    const char *why = "";
    int reset = 0;
    int n = next_candidates(e, holder, cands, &why, &reset);
    if (n == 0) {
        ten_set_str(e, "spotlight", NULL);
        set_turn_index(e, NULL);
        rules_enc_log(e, "spotlight", NULL, NULL, "Nobody is left to take the spotlight");
        return 0;
    }
    const char *to = cands[0];
    if (next) {
        to = NULL;
        for (int i = 0; i < n; i++)
            if (strcmp(cands[i], next) == 0)
                to = cands[i];
        if (!to) {
            char names[300] = "";
            size_t len = 0;
            for (int i = 0; i < n && len < sizeof names - 1; i++) {
                int w = snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                 rules_enc_name(e, cands[i]));
                if (w < 0)
                    break;
                len += (size_t)w;
            }
            return rules_enc_rule(err, "the spotlight cannot go to %s: it goes to %s (%s)",
                                  rules_enc_name(e, next), names, why);
        }
    }
    rules_enc_log(e, "pass", NULL, NULL, "The spotlight goes to %s: %s", rules_enc_name(e, to),
                  why);
    ten_start_turn(e, to);
    return 0;
}

int ten_act_end(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *holder = e->actor;
    const char *resp = ten_str(e, "responder");
    if (resp && strcmp(resp, holder) == 0) {
        rules_enc_budget_set(e, holder, "action", 0);
        ten_after(e);
        return 0;
    }
    json_t *coup = json_object_get(rules_enc_combatant(e, holder), "coup");
    const char *shake = rules_arg_str(a, "shake");
    if (shake) {
        if (coup)
            return rules_enc_rule(err,
                                  "%s is performing a coup de grâce and can do nothing else "
                                  "(003:107)",
                                  rules_enc_name(e, holder));
        if (ten_flag(e, "choosing"))
            return rules_enc_rule(err, "the free roll to shake off a condition comes at the end "
                                       "of one's own turn (003:97)");
        /* 003:97 "at the end of their turn ... remove one of the conditions as a free reaction" */
        const char *skill = rules_arg_str(a, "shake_skill");
        int rc = ten_shake(e, holder, shake, skill ? skill : "Endurance", 0, err);
        if (rc)
            return rc;
    }
    if (coup) {
        if (json_is_true(json_object_get(coup, "done")))
            ten_coup_finish(e, holder);
        else if (json_integer_value(json_object_get(coup, "stage")) == 2)
            ten_coup_fail(e, holder, "its second action was not spent on it");
    }
    if (!ten_acted(e, holder))
        ten_put(ten_list(e, "acted"), holder);
    ten_set_flag(e, "opening", 0);
    rules_enc_log(e, "end", NULL, NULL, "%s ends the turn", rules_enc_name(e, holder));
    return hand_on(e, holder, rules_arg_str(a, "next"), err);
}

int ten_act_pass(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *holder = e->actor;
    const char *to = rules_arg_str(a, "target");
    if (ten_str(e, "responder"))
        return rules_enc_rule(err, "a response is one standard action (003:91): it cannot pass "
                                   "the spotlight");
    if (strcmp(to, holder) == 0)
        return rules_enc_rule(err, "%s already holds the spotlight", rules_enc_name(e, holder));
    if (!present(e, to))
        return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, to));
    if (ten_flag(e, "choosing")) {
        /* 003:84, 003:89: an acted character chooses who goes next */
        return hand_on(e, holder, to, err);
    }
    if (!untouched(e, holder))
        return rules_enc_rule(err,
                              "%s has already started the turn: only a character who has "
                              "not acted yet may pass the spotlight on (003:86); end the "
                              "turn instead",
                              rules_enc_name(e, holder));
    if (ten_acted(e, to))
        return rules_enc_rule(err, "%s has already acted this round", rules_enc_name(e, to));
    if (ten_option(e, "group")) {
        if (ten_flag(e, "opening") && !in_group(e, to, 0)) {
            /* 003:92 "The character that rolls the highest initiative gets to choose which group
             * goes first." */
            set_groups(e, rules_enc_side(e, to));
            rules_enc_log(e, "pass", NULL, NULL, "%s lets the %s go first (003:92)",
                          rules_enc_name(e, holder), rules_enc_side(e, to));
        } else if (!in_group(e, to, (int)json_integer_value(json_object_get(e->enc, "group")))) {
            return rules_enc_rule(err, "%s is not in the group acting now (003:92)",
                                  rules_enc_name(e, to));
        }
    } else if (!ten_flag(e, "opening")) {
        return rules_enc_rule(err, "only the character who rolled highest passes the initiative "
                                   "(003:86); end the turn to hand the spotlight on");
    }
    ten_set_flag(e, "opening", 0);
    rules_enc_log(e, "pass", NULL, NULL, "%s passes the spotlight to %s (003:86)",
                  rules_enc_name(e, holder), rules_enc_name(e, to));
    ten_start_turn(e, to);
    return 0;
}

int ten_act_respond(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "the encounter has not started (003:85)");
    if (!ten_has(ten_list(e, "recalled"), cid))
        return rules_enc_rule(err,
                              "%s may respond only when brought back into the spotlight "
                              "after acting this round (003:91)",
                              rules_enc_name(e, cid));
    if (json_object_get(rules_enc_combatant(e, cid), "coup"))
        return rules_enc_rule(err,
                              "%s is performing a coup de grâce and can do nothing else "
                              "(003:107)",
                              rules_enc_name(e, cid));
    const char *resp = ten_str(e, "responder");
    if (resp)
        return rules_enc_rule(err, "%s is responding now (003:91)", rules_enc_name(e, resp));
    const char *pay = rules_arg_str(a, "pay");
    int spin = ten_spin(e, cid), ten = rules_enc_stat(e, cid, "tenacity", 0);
    if (!pay)
        pay = spin > 0 ? "spin" : "tenacity";
    if (strcmp(pay, "spin") == 0) {
        /* 003:38 "you cannot benefit from Spin until your negative Spin is removed" */
        if (spin < 1)
            return rules_enc_rule(err, "%s has no spin to spend (003:38, 003:91)",
                                  rules_enc_name(e, cid));
        ten_spin_add(e, cid, -1);
    } else if (strcmp(pay, "tenacity") == 0) {
        if (ten < 1)
            return rules_enc_rule(err, "%s has no 10acity to spend (003:91)",
                                  rules_enc_name(e, cid));
        rules_enc_stat_set(e, cid, "tenacity", ten - 1);
    } else {
        return tb_fail(err, TB_BAD_REQUEST, "enc.act respond: 'pay' is spin or tenacity");
    }
    ten_drop(ten_list(e, "recalled"), cid);
    /* 003:91 "respond with a standard action at that time" */
    rules_enc_budget_set(e, cid, "action", 1);
    if (strcmp(cid, ten_holder(e)) != 0) {
        rules_enc_budget_set(e, cid, "interaction", 0);
        rules_enc_budget_set(e, cid, "move", 0);
        ten_set_str(e, "responder", cid);
    }
    rules_enc_log(e, "respond", NULL, json_pack("{s:s}", "pay", pay),
                  "%s spends a point of %s to respond with a standard action (003:91)",
                  rules_enc_name(e, cid), strcmp(pay, "spin") == 0 ? "spin" : "10acity");
    return 0;
}

int ten_act_spotlight(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *to = rules_arg_str(a, "target");
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "roll initiative first (003:85)");
    if (!present(e, to))
        return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, to));
    rules_enc_log(e, "spotlight", NULL, NULL, "The GM puts %s in the spotlight",
                  rules_enc_name(e, to));
    ten_set_flag(e, "opening", 0);
    ten_start_turn(e, to);
    return 0;
}
