/*
 * options.c — the combat options of the 10acity fight, module tenacity.spotlight (whose action
 * table is in spotlight.c): the parting strike (003:111), grapple and lock and their escape
 * (003:104-105), holding an action (003:58, 003:81), help (003:57, 003:79), stealth and seeking
 * the hidden (003:52, 003:73), cover, prone, high
 * ground and size (003:113-123), resistances (003:120), the narrator's trade of negative spin
 * (003:39) and the player's choice to die (003:108). Each action's check (pure: before any die)
 * and resolve, in the table's order. Rulebook 003_632e2c704060b738.txt, cited 003:LINE; readings
 * in rules/RULES.md, tenacity, "Combat options".
 */
#include <stdio.h>
#include <string.h>

#include "tenacity_enc.h"

/* 003:111 "When a character leaves the melee range of another character, that character can take
 * a parting action as an immediate reaction (unless you avoid the parting action by using the
 * withdraw action)"; 003:71 "a parting strike on you as a reaction". The one leaving is moving
 * now (the spotlight holder or a responder who has spent movement this turn, reading O2); one
 * parting strike per character per turn of the mover. */
TEN_ACTION_CHECK(parting)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "the fight has not started (003:85)");
    const char *holder = ten_holder(e), *resp = ten_str(e, "responder");
    int mover = (holder && strcmp(holder, target) == 0) || (resp && strcmp(resp, target) == 0);
    if (!mover ||
        (ten_budget(e, target, "move") > 0 && !rules_enc_cond_has(e, target, "sprinting")))
        return rules_enc_rule(err,
                              "%s is not moving away now: a parting strike answers a move out of "
                              "melee range (003:111)",
                              rules_enc_name(e, target));
    if (rules_enc_cond_has(e, target, "withdrawing"))
        return rules_enc_rule(err, "%s withdrew: no parting strike (003:112)",
                              rules_enc_name(e, target));
    if (!ten_opposed(e, actor, target))
        return rules_enc_rule(err, "a parting strike is against an opponent (003:111)");
    /* the map, when it shows both (reading S1): the mover started next to the striker and has
     * left its melee range */
    if (ten_spaces_at_start(e, actor, target) > TEN_MELEE_SPACES)
        return rules_enc_rule(err,
                              "%s did not start the turn in %s's melee range: there is no melee "
                              "range to leave (003:111)",
                              rules_enc_name(e, target), rules_enc_name(e, actor));
    int now = ten_spaces_now(e, actor, target);
    if (now >= 0 && now <= TEN_MELEE_SPACES)
        return rules_enc_rule(err,
                              "%s is still in %s's melee range: a parting strike answers leaving "
                              "it (003:111)",
                              rules_enc_name(e, target), rules_enc_name(e, actor));
    if (ten_listed(e, "parted", actor))
        return rules_enc_rule(err, "%s has already struck %s in parting this turn",
                              rules_enc_name(e, actor), rules_enc_name(e, target));
    return ten_strike_check(e, actor, target, a, 1, err);
}

TEN_ACTION_RESOLVE(parting)
{
    ten_strike(e, e->actor, rules_arg_str(a, "target"), a, 1);
    ten_put(ten_list(e, "parted"), e->actor);
    return 0;
}

/* ---- grapple and lock (003:104-105) ---- */

/* The limb or skill a grapple holds: `what`, or the arm (all with more than one limb). */
static const char *grapple_what(const rules_args *a)
{
    const char *what = rules_arg_str(a, "what");
    return what ? what : rules_arg_int(a, "limbs") > 1 ? "all" : "arm";
}

/*
 * 003:104 "Roll your armed or unarmed attack normally against the opponent's defense, if you
 * succeed, then instead of dealing damage, you roll your impact and apply that as the hindering
 * number of grappled condition." `limbs` grappled: one limb hinders `what` (a skill, attribute or
 * body part); more than one hinders "all physical actions except attempting to escape". One grip
 * per character held and per holder (reading O3).
 */
TEN_ACTION_CHECK(grapple)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *skill = ten_skill_arg(a);
    if (strchr(grapple_what(a), ':'))
        return tb_fail(err, TB_BAD_REQUEST, "'what' names a limb, skill or attribute, without ':'");
    ten_mods m = {0};
    int rc = ten_require_contest(e, actor, target, "grapple", skill, err);
    if (!rc)
        rc = ten_require_reach(e, actor, target, a, err);
    if (!rc)
        rc = ten_fight_mods(e, actor, target, a, &m, err);
    if (rc)
        return rc;
    const char *cover = ten_cover(e, target);
    if (cover && strcmp(cover, "soft") == 0)
        return rules_enc_rule(err,
                              "%s is hidden behind soft cover: nobody can grapple what they "
                              "cannot find (003:115)",
                              rules_enc_name(e, target));
    if (ten_grip_of(e, target))
        return rules_enc_rule(err, "%s is already held by %s", rules_enc_name(e, target),
                              rules_enc_name(e, ten_grip_by(e, target)));
    if (json_object_get(rules_enc_combatant(e, actor), "gripping"))
        return rules_enc_rule(err,
                              "%s is already holding someone: the grappling limb does nothing "
                              "but keep the grapple (003:104)",
                              rules_enc_name(e, actor));
    rc = ten_require_budget(e, actor, "action", 1, err);
    return rc ? rc : ten_contest_check(e, actor, target, skill, a, err);
}

TEN_ACTION_RESOLVE(grapple)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *skill = ten_skill_arg(a), *what = grapple_what(a);
    int limbs = rules_arg_int(a, "limbs");
    ten_mods m = {0};
    ten_fight_mods(e, actor, target, a, &m, err);
    m.atk_adv += ten_take_action(e, actor);
    ten_contest c;
    rules_log *x = rules_log_begin(e, "grapple", "grapple");
    ten_contest_roll(e, actor, target, skill, a, &m, 1, &c, x);
    rules_log_who(x, "who", actor);
    rules_log_who(x, "target", target);
    ten_log_skill(e, x, actor, skill);
    ten_log_versus(e, x, actor, target, 0, c.atk.total, c.def.total);
    ten_say_states(e, x, actor, target, a);
    int hinder = c.impact < 1 ? 1 : c.impact;
    rules_log_word(x, "outcome", c.success ? "grapple.held" : "grapple.slips", RULES_AUD_PUBLIC);
    rules_log_count(x, "hinder", hinder, RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (c.success) {
        /* 003:104 the escape rolls "against the grappler's skill roll": the GM's for an NPC */
        ten_cond_put(e, target, TEN_GRAPPLED, "hinder", limbs > 1 ? "all" : what, hinder,
                     c.atk.total);
        json_object_set_new(rules_enc_combatant(e, target), "grip",
                            json_pack("{s:s, s:b, s:i}", "by", actor, "locked", 0, "limbs", limbs));
        json_object_set_new(rules_enc_combatant(e, actor), "gripping", json_string(target));
    }
    ten_bring(e, target);
    ten_done(e);
    return 0;
}

/*
 * 003:105 "you can take an action to turn the grapple into a lock ... While the opponent is
 * locked, they cannot use their movement at all and the grappler can apply their unarmed combat
 * or locking property weapon's damage against the locked opponent as an action without any rolls
 * required, this includes the first time that a lock is applied". Without a check: the impact
 * dice are still rolled as the damage (reading O3). The lock's escape roll is the grapple's.
 */
static const char *lock_skill(const rules_args *a)
{
    return rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Unarmed Combat";
}

TEN_ACTION_CHECK(lock)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    int rc = ten_require_able(e, actor, "lock", err);
    if (!rc)
        rc = ten_require_target(e, actor, target, err);
    if (!rc)
        rc = ten_skill_check(e, actor, lock_skill(a), err);
    if (rc)
        return rc;
    if (!rules_enc_streq(ten_grip_by(e, target), actor))
        return rules_enc_rule(err,
                              "%s does not hold %s in a grapple: a lock comes from a grapple "
                              "(003:105)",
                              rules_enc_name(e, actor), rules_enc_name(e, target));
    return ten_require_budget(e, actor, "action", 1, err);
}

TEN_ACTION_RESOLVE(lock)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    ten_take_action(e, actor);
    json_t *g = ten_grip_of(e, target);
    int first = !json_is_true(json_object_get(g, "locked"));
    if (first) {
        json_t *ch = json_object_get(ten_cond_challenges(e, target), TEN_GRAPPLED);
        ten_cond_put(e, target, TEN_LOCKED, "stop", "movement", 0, (int)json_integer_value(ch));
        json_object_set_new(g, "locked", json_true());
    }
    /* the damage: the skill's impact dice and equipment bonus, no check */
    ten_side s;
    ten_side_for_impact(e, actor, lock_skill(a), &s);
    json_t *dice = json_array();
    int impact = ten_impact_roll(e, &s, 0, rules_arg_int(a, "impact_bonus"), dice);
    int dmg = ten_size_damage(impact, ten_size(e, target) - ten_size(e, actor));
    /* the impact is open as every hit's (003:66); an NPC's dice are the GM's */
    int npc = rules_enc_aud_of(e, actor) == RULES_AUD_GM;
    rules_log *x = rules_log_begin(e, "lock", first ? "lock" : "lock_again");
    rules_log_who(x, "who", actor);
    rules_log_who(x, "target", target);
    if (!npc)
        rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    rules_log_int(x, "impact", impact, RULES_AUD_PUBLIC);
    rules_log_json(x, "first", json_boolean(first), RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (npc) {
        x = rules_log_begin(e, "lock", "lock_dice");
        rules_log_who(x, "who", actor);
        rules_log_dice(x, dice, RULES_AUD_GM);
        ten_log_gm_only(x, 1);
        rules_log_end(x);
    }
    json_decref(dice);
    ten_deal(e, target, dmg, rules_arg_str(a, "type"), "lock");
    ten_bring(e, target);
    ten_done(e);
    return 0;
}

/* 003:104 "A grappled opponent can spend their action to attempt to break a grapple condition";
 * 003:105 "A locked opponent may attempt to break the lock with an action by rolling against the
 * grappler's skill roll". The lock first, then the grapple; Athletics unless the player names
 * another skill. The free roll at the end of the turn is `end` with shake=grappled. */
static const char *escape_skill(const rules_args *a)
{
    return rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Athletics";
}

static const char *grip_held(const rules_enc *e, const char *cid)
{
    return rules_enc_cond_has(e, cid, TEN_LOCKED) ? TEN_LOCKED : TEN_GRAPPLED;
}

TEN_ACTION_CHECK(escape)
{
    const char *actor = e->actor;
    int rc = ten_require_able(e, actor, "escape", err);
    if (!rc)
        rc = ten_skill_check(e, actor, escape_skill(a), err);
    if (rc)
        return rc;
    if (!ten_grip_of(e, actor))
        return rules_enc_rule(err, "%s is not held in a grapple or lock", rules_enc_name(e, actor));
    rc = ten_require_budget(e, actor, "action", 1, err);
    return rc ? rc : ten_shake_check(e, actor, grip_held(e, actor), escape_skill(a), 1, err);
}

TEN_ACTION_RESOLVE(escape)
{
    ten_take_action(e, e->actor);
    ten_shake(e, e->actor, grip_held(e, e->actor), escape_skill(a), 1);
    ten_done(e);
    return 0;
}

/* ---- hold (003:58, 003:81) ---- */

/* 003:58 "You can hold your action or movement to activate later. Choose what activates your held
 * action or movement when establishing the hold." The hold spends the action (or movement) now;
 * `release` gives it back when the trigger happens. An NPC's trigger is the GM's. */
static const char *hold_what(const rules_args *a)
{
    return rules_arg_given(a, "what") ? rules_arg_str(a, "what") : "action";
}

TEN_ACTION_CHECK(hold)
{
    const char *actor = e->actor, *what = hold_what(a);
    if (strcmp(what, "action") != 0 && strcmp(what, "move") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "what: action or move, not '%.20s'", what);
    int rc = ten_require_able(e, actor, "hold", err);
    if (!rc && strcmp(what, "move") == 0)
        rc = ten_require_skill_free(e, actor, "move", err);
    if (rc)
        return rc;
    if (ten_str(e, "responder"))
        return rules_enc_rule(err, "a response is one standard action now (003:91): it cannot be "
                                   "held");
    if (json_object_get(rules_enc_combatant(e, actor), "held"))
        return rules_enc_rule(err, "%s is already holding an action or movement",
                              rules_enc_name(e, actor));
    return ten_require_budget(e, actor, strcmp(what, "move") == 0 ? "move" : "action", 1, err);
}

TEN_ACTION_RESOLVE(hold)
{
    const char *actor = e->actor, *what = hold_what(a);
    const char *trigger = rules_arg_str(a, "trigger");
    int move = strcmp(what, "move") == 0;
    rules_enc_spend(e, actor, move ? "move" : "action", 1, err);
    json_t *held = json_pack("{s:s}", "what", what);
    const char *noun = move ? "noun.move" : "noun.action";
    int npc = rules_enc_is_npc(e, actor);
    rules_log *x = rules_log_begin(e, "hold", npc ? "hold_npc" : "hold");
    rules_log_who(x, "who", actor);
    rules_log_word(x, "noun", noun, RULES_AUD_PUBLIC);
    rules_log_json(x, "what", json_string(what), RULES_AUD_PUBLIC);
    if (npc) { /* its trigger is the GM's */
        rules_log_end(x);
        json_object_set_new(rules_enc_hidden_of(e, actor), "held_trigger", json_string(trigger));
        x = rules_log_begin(e, "hold", "hold_trigger");
        rules_log_who(x, "who", actor);
        rules_log_word(x, "noun", noun, RULES_AUD_GM);
        rules_log_name(x, "until", trigger, RULES_AUD_GM);
    } else {
        json_object_set_new(held, "trigger", json_string(trigger));
        rules_log_json(x, "trigger", json_string(trigger), RULES_AUD_PUBLIC);
        rules_log_name(x, "until", trigger, RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    json_object_set_new(rules_enc_combatant(e, actor), "held", held);
    ten_done(e);
    return 0;
}

/* The trigger happened: the held action (or movement) is taken now, out of turn, like a response
 * (003:81 "to be triggered by another action that happens later in the scene"). */
TEN_ACTION_CHECK(release)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    (void)a;
    const char *actor = e->actor;
    if (!json_object_get(rules_enc_combatant(e, actor), "held"))
        return rules_enc_rule(err, "%s is holding nothing", rules_enc_name(e, actor));
    int rc = ten_require_able(e, actor, "release", err);
    if (rc)
        return rc;
    const char *resp = ten_str(e, "responder");
    if (resp)
        return rules_enc_rule(err, "%s is responding now (003:91); release after it",
                              rules_enc_name(e, resp));
    return 0;
}

TEN_ACTION_RESOLVE(release)
{
    const char *actor = e->actor;
    json_t *me = rules_enc_combatant(e, actor);
    int move = rules_enc_streq(
        json_string_value(json_object_get(json_object_get(me, "held"), "what")), "move");
    const char *holder = ten_holder(e);
    if (holder && strcmp(holder, actor) == 0) {
        rules_enc_budget_set(e, actor, move ? "move" : "action",
                             rules_enc_budget_left(e, actor, move ? "move" : "action") + 1);
    } else {
        rules_enc_budget_set(e, actor, "action", move ? 0 : 1);
        rules_enc_budget_set(e, actor, "interaction", 0);
        rules_enc_budget_set(e, actor, "move", move ? 1 : 0);
        ten_set_str(e, "responder", actor);
    }
    rules_log *x = rules_log_begin(e, "release", "release");
    rules_log_who(x, "who", actor);
    rules_log_word(x, "noun", move ? "noun.move" : "noun.action", RULES_AUD_PUBLIC);
    rules_log_json(x, "what", json_string(move ? "move" : "action"), RULES_AUD_PUBLIC);
    rules_log_end(x);
    json_object_del(me, "held");
    json_object_del(rules_enc_hidden_of(e, actor), "held_trigger");
    ten_done(e);
    return 0;
}

/* ---- help (003:57, 003:79) ---- */

/* 003:57 "you can give another character an advantage hero die as long as you have at least one
 * rank of the appropriate skill"; 003:79 "You cannot benefit from more than one creature helping
 * you at a time". The help waits on the ally's next action roll and lapses at the helper's next
 * turn: on a quick pass/fail roll it is the advantage die, on an impact action the helper
 * cooperates (003:57, 003:79-80: its skill and impact added on a success; roll.c, reading O1). */
TEN_ACTION_CHECK(help)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *skill = rules_arg_str(a, "skill");
    int rc = ten_require_able(e, actor, "help", err);
    if (!rc)
        rc = ten_require_target(e, actor, target, err);
    if (!rc)
        rc = ten_skill_check(e, actor, skill, err);
    if (rc)
        return rc;
    if (ten_opposed(e, actor, target))
        return rules_enc_rule(err, "%s helps allies, not %s (003:57)", rules_enc_name(e, actor),
                              rules_enc_name(e, target));
    json_t *sk = json_object_get(ten_skills(e, actor), skill);
    if (json_is_array(sk) && json_integer_value(json_array_get(sk, 1)) < 1)
        return rules_enc_rule(err, "%s needs at least one rank of %s to help (003:57)",
                              rules_enc_name(e, actor), skill);
    if (rules_enc_cond_has(e, target, "helped"))
        return rules_enc_rule(err, "%s already has help: only one helper at a time (003:79)",
                              rules_enc_name(e, target));
    return ten_require_budget(e, actor, "action", 1, err);
}

TEN_ACTION_RESOLVE(help)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    ten_take_action(e, actor);
    rules_enc_cond_add(e, target, "helped", 0, 1);
    json_object_set_new(rules_enc_combatant(e, target), "helped_by", json_string(actor));
    /* an NPC's skill names are the GM's ("What the table sees"): its help's skill too */
    rules_aud aud = rules_enc_aud_of(e, actor);
    json_object_set_new(aud == RULES_AUD_GM ? rules_enc_hidden_of(e, target)
                                            : rules_enc_combatant(e, target),
                        "help_skill", json_string(rules_arg_str(a, "skill")));
    rules_log *x = rules_log_begin(e, "help", "help");
    rules_log_who(x, "who", actor);
    rules_log_who(x, "target", target);
    rules_log_name(x, "skill", rules_arg_str(a, "skill"), aud);
    rules_log_json(x, "to", json_string(target), RULES_AUD_PUBLIC);
    rules_log_end(x);
    ten_done(e);
    return 0;
}

/* ---- stealth (003:52, 003:73) ---- */

#define TEN_HIDDEN "hidden"

static const char *stealth_skill(const rules_args *a)
{
    return rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Stealth";
}

static const char *seek_skill(const rules_args *a)
{
    /* 003:8 "spotting an ambush" is Perception's; 003:116 an elevated seeker's die is on it */
    return rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Perception";
}

TEN_ACTION_CHECK(hide)
{
    const char *actor = e->actor, *skill = stealth_skill(a);
    int rc = ten_require_able(e, actor, "hide", err);
    if (!rc)
        rc = ten_require_skill_free(e, actor, skill, err);
    if (!rc)
        rc = ten_skill_check(e, actor, skill, err);
    return rc ? rc : ten_require_budget(e, actor, "action", 1, err);
}

/* 003:73 "When you wish to be unseen or unheard, roll a stealth skill check. That roll establishes
 * the difficulty number of anyone attempting to perceive you" (003:52 "a challenge rating that
 * others need to beat"): the condition `hidden`, its challenge the total (reading O9: a PC's is
 * open as every PC roll, its level; an NPC's the GM's, /gm/enc/combatants/<id>/stealth). Hiding
 * again replaces the number. An action roll: doubles gain spin, a fumble negative spin (003:95). */
TEN_ACTION_RESOLVE(hide)
{
    const char *actor = e->actor;
    int extra = ten_take_action(e, actor);
    json_t *dice = json_array();
    int gain;
    int total = ten_roll_to_cond(e, actor, stealth_skill(a), rules_arg_int(a, "adv") + extra,
                                 rules_arg_int(a, "bonus"), "stealth", TEN_HIDDEN, dice, &gain);
    rules_aud aud = rules_enc_aud_of(e, actor);
    json_object_set_new(rules_enc_hidden_of(e, actor), "stealth", json_integer(total));
    rules_log *x = rules_log_begin(e, "hide", "hide");
    rules_log_who(x, "who", actor);
    rules_log_dice(x, dice, aud);
    json_decref(dice);
    rules_log_int(x, "total", total, aud);
    ten_log_skill(e, x, actor, stealth_skill(a));
    rules_log_int(x, "spin", gain, aud);
    rules_log_end(x);
    ten_done(e);
    return 0;
}

TEN_ACTION_CHECK(seek)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target"), *skill = seek_skill(a);
    int rc = ten_require_contest(e, actor, target, "seek", skill, err);
    if (!rc)
        rc = ten_skill_check(e, actor, skill, err);
    if (rc)
        return rc;
    if (!rules_enc_cond_has(e, target, TEN_HIDDEN))
        return rules_enc_rule(err, "%s is not hidden", rules_enc_name(e, target));
    return ten_require_budget(e, actor, "action", 1, err);
}

/* 003:73 "that would become the challenge rating for anyone else attempting to discover your
 * location": the seeker's skill (Perception) must beat the hider's roll (ties to the hider,
 * 003:20); found, the hider is hidden no more. A quick pass/fail action (a helper's die, 003:57;
 * a failure or doubles gain spin, 003:95); it brings the hider into the spotlight (reading 10). */
TEN_ACTION_RESOLVE(seek)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target"), *skill = seek_skill(a);
    int extra = ten_take_action(e, actor);
    int challenge =
        (int)json_integer_value(json_object_get(rules_enc_hidden_of(e, target), "stealth"));
    json_t *dice = json_array();
    ten_side s;
    ten_roll(e, actor, skill, rules_arg_int(a, "adv") + extra, rules_arg_int(a, "bonus"), "seek",
             dice, &s);
    int found = tenacity_beats(s.total, challenge);
    int gain = s.hero ? tenacity_spin_gain(&s.r, !found, 1) : 0;
    if (gain)
        ten_spin_add(e, actor, gain);
    rules_log *x = rules_log_begin(e, "seek", "seek");
    rules_log_who(x, "who", actor);
    rules_log_who(x, "target", target);
    ten_log_try(e, x, dice, actor, skill, target, 0, s.total, challenge, found);
    json_decref(dice);
    rules_log_int(x, "spin", gain, rules_enc_aud_of(e, actor));
    rules_log_word(x, "outcome", found ? "seek.found" : "seek.unseen", RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (found) {
        rules_enc_cond_remove(e, target, TEN_HIDDEN);
        json_object_del(rules_enc_hidden_of(e, target), "stealth");
    }
    ten_bring(e, target);
    ten_done(e);
    return 0;
}

/* ---- states set at the table (003:113-123) ---- */

/* Sets a combatant's state key to v (stolen), or removes the key when v is NULL: a state that
 * is off is absent, as every other combatant state. */
static void state_put(json_t *c, const char *key, json_t *v)
{
    if (v)
        json_object_set_new(c, key, v);
    else
        json_object_del(c, key);
}

/* The line of a state set: {who} {how}, its value under key in the result (v stolen); steps:
 * the size steps the words say. */
static void say_state(rules_enc *e, const char *who, const char *key, json_t *v, const char *how,
                      int steps)
{
    rules_log *x = rules_log_begin(e, "state", "state");
    rules_log_who(x, "who", who);
    rules_log_word(x, "how", how, RULES_AUD_PUBLIC);
    rules_log_json(x, key, v, RULES_AUD_PUBLIC);
    if (strcmp(key, "size") == 0) {
        rules_log_count(x, "steps", steps, RULES_AUD_PUBLIC);
        if (steps != 1)
            rules_log_word(x, "s", "w.s", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
}

/* Taking cover, going prone, climbing high (`cover`, `prone`, `high_ground`): the character's own
 * (its movement, no extra cost: reading O4); the size step (`size`) is the GM's, on `target` (the
 * NPC card, 003:121). One check and one resolve for the four actions: each gives its parameter. */
TEN_ACTION_CHECK(state)
{
    if (!ten_arg_given(a, "size") && ten_require_in(e, e->actor, err))
        return err->code;
    const char *cover = ten_arg_given(a, "cover") ? ten_arg_str(a, "cover") : NULL;
    if (cover && strcmp(cover, "none") != 0 && strcmp(cover, "partial") != 0 &&
        strcmp(cover, "full") != 0 && strcmp(cover, "soft") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "cover: none, partial, full or soft, not '%.20s'",
                       cover);
    return 0;
}

TEN_ACTION_RESOLVE(state)
{
    const char *who = ten_arg_given(a, "size") ? rules_arg_str(a, "target") : e->actor;
    const char *cover = ten_arg_given(a, "cover") ? ten_arg_str(a, "cover") : NULL;
    json_t *c = rules_enc_combatant(e, who);
    if (cover) {
        state_put(c, "cover", strcmp(cover, "none") == 0 ? NULL : json_string(cover));
        say_state(e, who, "cover", json_string(cover),
                  strcmp(cover, "none") == 0      ? "cover.none"
                  : strcmp(cover, "partial") == 0 ? "cover.partial"
                  : strcmp(cover, "full") == 0    ? "cover.full"
                                                  : "cover.soft",
                  0);
    }
    if (ten_arg_given(a, "prone")) {
        int v = rules_arg_int(a, "prone");
        state_put(c, "prone", v ? json_true() : NULL);
        say_state(e, who, "prone", json_boolean(v), v ? "prone.down" : "prone.up", 0);
    }
    if (ten_arg_given(a, "elevated")) {
        int v = rules_arg_int(a, "elevated");
        state_put(c, "elevated", v ? json_true() : NULL);
        say_state(e, who, "elevated", json_boolean(v), v ? "high.up" : "high.down", 0);
    }
    if (ten_arg_given(a, "size")) {
        int v = rules_arg_int(a, "size");
        state_put(c, "size", v ? json_integer(v) : NULL);
        say_state(e, who, "size", json_integer(v), v < 0 ? "size.below" : "size.above",
                  v < 0 ? -v : v);
    }
    ten_done(e);
    return 0;
}

/* GM: cid resists `type` by value (003:120), 0 removes it. A PC's resistance is on the table; an
 * NPC's stays with the GM. */
TEN_ACTION_RESOLVE(resist)
{
    (void)err;
    const char *target = rules_arg_str(a, "target"), *type = rules_arg_str(a, "type");
    int v = rules_arg_int(a, "value");
    json_t *r = ten_resists(e, target);
    if (v)
        json_object_set_new(r, type, json_integer(v));
    else
        json_object_del(r, type);
    int npc = rules_enc_is_npc(e, target);
    rules_aud aud = npc ? RULES_AUD_GM : RULES_AUD_PUBLIC;
    rules_log *x = rules_log_begin(e, "resist", npc ? "resist_set_npc" : "resist_set");
    rules_log_who(x, "who", target);
    rules_log_json(x, "type", json_string(type), aud);
    rules_log_name(x, "dtype", type, aud);
    rules_log_int(x, "value", v, aud);
    ten_log_gm_only(x, npc);
    rules_log_end(x);
    return 0;
}

/* ---- the narrator's trade of negative spin (003:39) ---- */

/* GM: offers target a change in the scene (`cost`) for `negative` points of its negative spin.
 * 003:39 "The player and the narrator go back and forth bargaining ... once they come to an
 * agreement": a new offer replaces the last; the player accepts or declines. */
TEN_ACTION_CHECK(offer)
{
    const char *target = rules_arg_str(a, "target");
    if (rules_enc_is_npc(e, target))
        return rules_enc_rule(err,
                              "the trade is a bargain with a player (003:39), and %s is the "
                              "GM's",
                              rules_enc_name(e, target));
    int spin = ten_spin(e, target);
    if (spin >= 0)
        return rules_enc_rule(err, "%s has no negative spin to trade (003:39)",
                              rules_enc_name(e, target));
    if (rules_arg_int(a, "negative") > -spin)
        return rules_enc_rule(err, "%s has only %d negative spin", rules_enc_name(e, target),
                              -spin);
    return 0;
}

TEN_ACTION_RESOLVE(offer)
{
    const char *target = rules_arg_str(a, "target"), *cost = rules_arg_str(a, "cost");
    int n = rules_arg_int(a, "negative");
    json_object_set_new(rules_enc_combatant(e, target), "offer",
                        json_pack("{s:i, s:s}", "negative", n, "cost", cost));
    rules_log *x = rules_log_begin(e, "offer", "offer");
    rules_log_who(x, "who", target);
    rules_log_json(x, "to", json_string(target), RULES_AUD_PUBLIC);
    rules_log_int(x, "negative", n, RULES_AUD_PUBLIC);
    rules_log_json(x, "cost", json_string(cost), RULES_AUD_PUBLIC);
    rules_log_name(x, "costname", cost, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* accept and decline: an offer is open to the actor. */
TEN_ACTION_CHECK(trade)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    (void)a;
    if (!json_is_object(json_object_get(rules_enc_combatant(e, e->actor), "offer")))
        return rules_enc_rule(err, "the GM has offered %s no trade", rules_enc_name(e, e->actor));
    return 0;
}

TEN_ACTION_RESOLVE(accept)
{
    const char *cid = e->actor;
    json_t *o = json_object_get(rules_enc_combatant(e, cid), "offer");
    int n = (int)json_integer_value(json_object_get(o, "negative"));
    int spin = ten_spin(e, cid);
    if (n > -spin)
        n = spin < 0 ? -spin : 0; /* spin earned since the offer: never above 0 */
    ten_spin_add(e, cid, n);
    rules_log *x = rules_log_begin(e, "accept", "accept");
    rules_log_who(x, "who", cid);
    rules_log_int(x, "negative", n, RULES_AUD_PUBLIC);
    rules_log_json(x, "cost", json_incref(json_object_get(o, "cost")), RULES_AUD_PUBLIC);
    rules_log_name(x, "costname", json_string_value(json_object_get(o, "cost")), RULES_AUD_PUBLIC);
    rules_log_end(x);
    json_object_del(rules_enc_combatant(e, cid), "offer");
    return 0;
}

TEN_ACTION_RESOLVE(decline)
{
    json_object_del(rules_enc_combatant(e, e->actor), "offer");
    ten_say(e, "decline", "decline", e->actor);
    return 0;
}

/* ---- the choice to die (003:108) ---- */

/* 003:108 "A player can opt for their character to die at any time that narratively makes sense
 * in the story, this is a narrative prerogative of the player": the player's character, with
 * `confirm`. */
TEN_ACTION_CHECK(die)
{
    const char *cid = e->actor;
    if (rules_enc_is_npc(e, cid))
        return rules_enc_rule(err, "the choice to die is a player's, for their own character "
                                   "(003:108)");
    if (!rules_arg_int(a, "confirm"))
        return tb_fail(err, TB_BAD_REQUEST, "confirm: the choice to die needs confirm=true");
    if (rules_enc_is_out(e, cid))
        return rules_enc_rule(err, "%s is already out of the fight", rules_enc_name(e, cid));
    return 0;
}

TEN_ACTION_RESOLVE(die)
{
    ten_perish(e, e->actor, "death.choice", NULL);
    ten_done(e);
    return 0;
}
