/*
 * options.c — the combat options of tenacity.spotlight (rules/encounter.h): the attack with its
 * states (cover, prone, elevation, size, flanking, resistances, 003:110-123), the parting strike
 * (003:111), grapple and lock and their escape (003:104-105), holding an action (003:58, 003:81),
 * help (003:57, 003:79), the narrator's trade of negative spin (003:39) and the player's choice to
 * die (003:108). Every check is made before the first die; a refusal changes nothing. Rulebook
 * 003_632e2c704060b738.txt, cited 003:LINE; readings in rules/RULES.md, tenacity, "Combat options".
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "enc_tenacity.h"

/* ---- states ---- */

static json_t *me(rules_enc *e, const char *cid)
{
    return rules_enc_combatant(e, cid);
}

static const char *cover_of(rules_enc *e, const char *cid)
{
    return json_string_value(json_object_get(me(e, cid), "cover"));
}

static int flag_of(rules_enc *e, const char *cid, const char *key)
{
    return json_is_true(json_object_get(me(e, cid), key));
}

static int size_of(rules_enc *e, const char *cid)
{
    return (int)json_integer_value(json_object_get(me(e, cid), "size"));
}

/* Where cid's resistances live: a PC's on its public combatant, an NPC's with the GM (an NPC
 * card's numbers are the GM's). Created if missing. Borrowed. */
static json_t *resists(rules_enc *e, const char *cid)
{
    json_t *home = rules_enc_is_npc(e, cid) ? rules_enc_hidden_of(e, cid) : me(e, cid);
    json_t *r = json_object_get(home, "resist");
    if (!json_is_object(r)) {
        r = json_object();
        json_object_set_new(home, "resist", r);
    }
    return r;
}

/* 003:120 "how much damage they ignore ... or the bonus they receive to their rolls to avoid
 * conditions from a source of that type" (0 when type is NULL or unknown). */
int ten_resist_of(rules_enc *e, const char *cid, const char *type)
{
    if (!type)
        return 0;
    json_t *home = rules_enc_is_npc(e, cid) ? rules_enc_hidden_of(e, cid) : me(e, cid);
    return (int)json_integer_value(json_object_get(json_object_get(home, "resist"), type));
}

static int same_word(const char *a, const char *b)
{
    return a && b && strcasecmp(a, b) == 0;
}

/* A roll that is the character's own standard action (003:95 sets them apart from reactions);
 * the attempt to break a grapple or lock is not one (reading O6). */
static int action_role(const char *role)
{
    return role && (strcmp(role, "attack") == 0 || strcmp(role, "advantage") == 0 ||
                    strcmp(role, "sprint") == 0);
}

int ten_roll_edges(rules_enc *e, const char *cid, const char *skill, const char *role)
{
    int adv = 0;
    /* 003:116 "Being in an elevated position gives an advantage die to perception checks" */
    if (flag_of(e, cid, "elevated") && same_word(skill, "Perception"))
        adv++;
    if (!action_role(role))
        return adv;
    /* 003:57 help gives "an advantage hero die" (003:79): on the helped character's next action
     * roll (reading O1) */
    if (rules_enc_cond_has(e, cid, "helped")) {
        adv++;
        rules_enc_cond_remove(e, cid, "helped");
        json_object_del(me(e, cid), "helped_by");
    }
    /* 003:105 "the character can still take a standard action but with one disadvantage die" */
    if (rules_enc_cond_has(e, cid, TEN_LOCKED))
        adv--;
    return adv;
}

/* ---- the attack's states (003:110-123) ---- */

/*
 * The checks and modifiers of a physical attack by actor on target, before any die: full hard
 * cover cannot be attacked (003:114); partial hard cover is one size step smaller (+1 advantage
 * die, +1 to defend) unless the attacker is elevated (003:116, reading O4); prone: +1 advantage die
 * to the defence at range, to the attack in melee (003:117); size: per step larger the attacker
 * gains 1 advantage die and +1, per step smaller the defender does (003:122-123, reading O5).
 * `range` is melee (default) or ranged; `target2` a flanking ally (003:110). Fills m (adds to it).
 */
static int fight_mods(rules_enc *e, const char *actor, const char *target, const rules_args *a,
                      ten_mods *m, tb_err *err)
{
    const char *range = ten_arg_str(a, "range");
    if (range && strcmp(range, "melee") != 0 && strcmp(range, "ranged") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "range: melee or ranged, not '%.20s'", range);
    const char *flank = ten_arg_str(a, "target2");
    if (flank && (strcmp(flank, actor) == 0 || strcmp(flank, target) == 0 ||
                  ten_opposed(e, actor, flank) || rules_enc_is_out(e, flank)))
        return rules_enc_rule(err,
                              "%s cannot flank with %s: flanking is two allies attacking from "
                              "opposite directions (003:110)",
                              rules_enc_name(e, actor), rules_enc_name(e, flank));
    const char *cover = cover_of(e, target);
    if (cover && strcmp(cover, "full") == 0)
        return rules_enc_rule(err,
                              "%s is completely behind hard cover and cannot be attacked "
                              "directly (003:114)",
                              rules_enc_name(e, target));
    int ranged = range && strcmp(range, "ranged") == 0;
    if (cover && strcmp(cover, "partial") == 0 && !flag_of(e, actor, "elevated")) {
        m->def_adv++;
        m->def_bonus++;
    }
    if (flag_of(e, target, "prone")) {
        if (ranged)
            m->def_adv++;
        else
            m->atk_adv++;
    }
    int d = size_of(e, target) - size_of(e, actor);
    if (d > 0) {
        m->atk_adv += d;
        m->atk_bonus += d;
    } else if (d < 0) {
        m->def_adv -= d;
        m->def_bonus -= d;
    }
    return 0;
}

/* The public words for the states that changed the contest ("" when none). */
static void say_states(rules_enc *e, ten_log *l, const char *actor, const char *target,
                       const rules_args *a)
{
    const char *cover = cover_of(e, target), *range = ten_arg_str(a, "range");
    char buf[200] = "";
    size_t n = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        int w_ = snprintf(buf + n, sizeof buf - n, "%s", n ? ", " : " (");                         \
        if (w_ > 0 && (size_t)w_ < sizeof buf - n)                                                 \
            n += (size_t)w_;                                                                       \
        w_ = snprintf(buf + n, sizeof buf - n, __VA_ARGS__);                                       \
        if (w_ > 0 && (size_t)w_ < sizeof buf - n)                                                 \
            n += (size_t)w_;                                                                       \
    } while (0)
    if (cover && strcmp(cover, "partial") == 0)
        ADD("%s", flag_of(e, actor, "elevated") ? "the high ground sees past the cover"
                                                : "behind partial cover");
    if (flag_of(e, target, "prone"))
        ADD("%s", range && strcmp(range, "ranged") == 0 ? "prone, at range" : "prone, up close");
    int d = size_of(e, target) - size_of(e, actor);
    if (d)
        ADD("%d size step%s %s", d < 0 ? -d : d, d == 1 || d == -1 ? "" : "s",
            d > 0 ? "larger" : "smaller");
#undef ADD
    if (n)
        rules_enc_entry_say(l->x, RULES_AUD_PUBLIC, "%s)", buf);
}

/* 003:122 "your damage is halved and halved again for every additional step"; 003:123 "your
 * damage is doubled and doubled again for every additional step" (d: target's size minus the
 * attacker's; halves round down, reading O5). */
static int size_damage(int impact, int d)
{
    for (; d > 0; d--)
        impact /= 2;
    for (; d < 0 && impact < 100000; d++)
        impact *= 2;
    return impact;
}

/*
 * Deals n points of `type` damage to target: its resistance ignored first (003:120). An NPC's
 * resistance is the GM's: when it takes a part, the public log says the hit landed without the
 * number and the GM log says how much was resisted. Returns the stress dealt.
 */
static int deal(rules_enc *e, const char *target, int n, const char *type, const char *why)
{
    int r = ten_resist_of(e, target, type);
    int taken = n > r ? n - r : 0;
    int hide = r > 0 && n > 0 && rules_enc_is_npc(e, target);
    if (r > 0 && n > 0) {
        if (hide)
            rules_enc_log_gm(e, "resist", NULL, json_pack("{s:s, s:i}", "type", type, "resist", r),
                             "%s ignores %d of the %s damage (resistance %d)",
                             rules_enc_name(e, target), n - taken, type, r);
        else
            rules_enc_log(e, "resist", NULL, json_pack("{s:s, s:i}", "type", type, "resist", r),
                          "%s ignores %d of the %s damage (003:120)", rules_enc_name(e, target),
                          n - taken, type);
    }
    if (taken > 0)
        ten_stress_quiet(e, target, taken, why, hide);
    else if (hide)
        rules_enc_log(e, "stress", NULL, NULL, "%s takes the hit (%s)", rules_enc_name(e, target),
                      why);
    return taken;
}

/* Attack or parting strike (reaction) of actor on target: every check, then the blind roll
 * behind soft cover, the contest, the damage. */
static int strike(rules_enc *e, const char *actor, const char *target, const rules_args *a,
                  int reaction, tb_err *err)
{
    const char *skill = ten_skill_arg(a);
    const char *type = rules_arg_str(a, "type");
    const char *def_skill = rules_arg_str(a, "def_skill");
    ten_mods m = {.reaction = reaction};
    int rc = ten_require_contest(e, actor, target, reaction ? "parting" : "attack", skill, err);
    if (!rc)
        rc = fight_mods(e, actor, target, a, &m, err);
    if (!rc)
        rc = ten_roll_params(a, err);
    if (!rc)
        rc = ten_skill_check(e, actor, skill, err);
    if (!rc)
        rc = ten_skill_check(e, target, def_skill ? def_skill : "Reaction", err);
    if (rc)
        return rc;
    if (!reaction) {
        int edge = ten_take_action(e, actor, err);
        if (edge < 0)
            return err->code;
        m.atk_adv += edge;
    }
    const char *an = rules_enc_name(e, actor), *tn = rules_enc_name(e, target);
    const char *verb = reaction ? "strikes in parting at" : "attacks";
    const char *cover = cover_of(e, target);
    if (cover && strcmp(cover, "soft") == 0) {
        /* 003:115 "The opponent rolls 1d10 and on a six (6) or higher they managed to find you
         * and you roll the attack and defense normally from there." The narrator may move the
         * number (`find`). */
        int need = rules_arg_given(a, "find") ? rules_arg_int(a, "find") : 6;
        json_t *dice = json_array();
        int found = rules_roll_die(e->rng, 10, dice) >= need;
        ten_tag_last(dice, "blind", actor);
        /* an NPC's die is the GM's, as every die it rolls */
        int npc = rules_enc_aud_of(e, actor) == RULES_AUD_GM;
        rules_enc_log(e, "blind", npc ? NULL : json_incref(dice),
                      json_pack("{s:b}", "found", found), "%s %s %s blindly through soft cover: %s",
                      an, verb, tn, found ? "found (003:115)" : "a miss, nothing found (003:115)");
        if (npc)
            rules_enc_log_gm(e, "blind", json_incref(dice), json_pack("{s:i}", "need", need),
                             "%s's blind roll needed %d", an, need);
        json_decref(dice);
        if (!found) {
            ten_bring(e, target);
            ten_done(e);
            return 0;
        }
    }
    ten_contest c;
    ten_log l;
    ten_log_begin(e, &l, reaction ? "parting" : "attack");
    if ((rc = ten_contest_mods(e, actor, target, skill, a, &m, 1, &c, &l, err))) {
        ten_log_drop(&l);
        return rc;
    }
    int d = size_of(e, target) - size_of(e, actor);
    int dmg = c.success ? size_damage(c.impact, d) : 0;
    int hidden_resist =
        c.success && rules_enc_is_npc(e, target) && ten_resist_of(e, target, type) > 0;
    int shown = dmg - (hidden_resist ? 0 : ten_resist_of(e, target, type));
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, "%s %s %s", an, verb, tn);
    ten_log_roll(e, &l, actor, target, skill, &c);
    say_states(e, &l, actor, target, a);
    if (!c.success)
        rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": a miss");
    else if (hidden_resist || shown != c.impact)
        rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": a hit, %d impact", c.impact);
    else
        rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": a hit, %d stress", c.impact);
    if (!c.success && c.atk.total == c.def.total &&
        rules_enc_aud_of(e, actor) == RULES_AUD_PUBLIC &&
        rules_enc_aud_of(e, target) == RULES_AUD_PUBLIC)
        rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, " (a tie goes to the defender, 003:66)");
    ten_log_write(&l);
    if (c.success) {
        if (dmg != c.impact)
            rules_enc_log(e, "size", NULL,
                          json_pack("{s:i, s:i}", "impact", c.impact, "damage", dmg),
                          "%s's damage is %s for size: %d (003:122-123)", an,
                          d > 0 ? "halved" : "doubled", dmg);
        /* 003:45 "DEAL DAMAGE: On a successful skill check you deal your skill's impact as
         * stress" */
        deal(e, target, dmg, type, reaction ? "parting strike" : "attack");
        const char *flank = ten_arg_str(a, "target2");
        if (flank) {
            /* 003:110 "the first attacker can give the second attacker a point of spin upon a
             * successful attack" */
            ten_spin_add(e, flank, 1);
            rules_enc_log(e, "flank", NULL, json_pack("{s:s, s:i}", "to", flank, "spin", 1),
                          "%s flanks with %s: %s gains 1 spin (003:110)", an,
                          rules_enc_name(e, flank), rules_enc_name(e, flank));
        }
    }
    ten_bring(e, target);
    ten_done(e);
    return 0;
}

int ten_act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    return strike(e, e->actor, rules_arg_str(a, "target"), a, 0, err);
}

/* 003:111 "When a character leaves the melee range of another character, that character can take
 * a parting action as an immediate reaction (unless you avoid the parting action by using the
 * withdraw action)"; 003:71 "a parting strike on you as a reaction". The one leaving is moving
 * now (the spotlight holder or a responder who has spent movement this turn, reading O2); one
 * parting strike per character per turn of the mover. */
int ten_act_parting(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "the fight has not started (003:85)");
    const char *holder = ten_holder(e), *resp = ten_str(e, "responder");
    int mover = (holder && strcmp(holder, target) == 0) || (resp && strcmp(resp, target) == 0);
    if (!mover || (rules_enc_budget_left(e, target, "move") > 0 &&
                   !rules_enc_cond_has(e, target, "sprinting")))
        return rules_enc_rule(err,
                              "%s is not moving away now: a parting strike answers a move out of "
                              "melee range (003:111)",
                              rules_enc_name(e, target));
    if (rules_enc_cond_has(e, target, "withdrawing"))
        return rules_enc_rule(err, "%s withdrew: no parting strike (003:112)",
                              rules_enc_name(e, target));
    if (!ten_opposed(e, actor, target))
        return rules_enc_rule(err, "a parting strike is against an opponent (003:111)");
    if (ten_has(ten_list(e, "parted"), actor))
        return rules_enc_rule(err, "%s has already struck %s in parting this turn",
                              rules_enc_name(e, actor), rules_enc_name(e, target));
    int rc = strike(e, actor, target, a, 1, err);
    if (!rc)
        ten_put(ten_list(e, "parted"), actor);
    return rc;
}

/* ---- grapple and lock (003:104-105) ---- */

int ten_grip_cond(const char *name)
{
    return name && (strcmp(name, TEN_GRAPPLED) == 0 || strcmp(name, TEN_LOCKED) == 0);
}

/* The grip on cid ({by, locked}) or NULL. */
static json_t *grip_of(rules_enc *e, const char *cid)
{
    json_t *g = json_object_get(me(e, cid), "grip");
    return json_is_object(g) ? g : NULL;
}

static const char *grip_by(rules_enc *e, const char *cid)
{
    return json_string_value(json_object_get(grip_of(e, cid), "by"));
}

/* Puts condition name (kind, what, level) on cid with its challenge (the holder's roll). */
static void put_grip_cond(rules_enc *e, const char *cid, const char *name, const char *kind,
                          const char *what, int level, int challenge)
{
    rules_enc_cond_add(e, cid, name, 0, level);
    json_t *c = rules_enc_cond(e, cid, name);
    json_object_set_new(c, "kind", json_string(kind));
    json_object_set_new(c, "what", json_string(what));
    json_object_set_new(ten_cond_challenges(e, cid), name, json_integer(challenge));
}

/* Ends the grip on cid: both conditions, both records. */
static void grip_end(rules_enc *e, const char *cid)
{
    const char *by = grip_by(e, cid);
    if (by)
        json_object_del(me(e, by), "gripping");
    json_object_del(me(e, cid), "grip");
    rules_enc_cond_remove(e, cid, TEN_GRAPPLED);
    rules_enc_cond_remove(e, cid, TEN_LOCKED);
    json_object_del(ten_cond_challenges(e, cid), TEN_GRAPPLED);
    json_object_del(ten_cond_challenges(e, cid), TEN_LOCKED);
}

void ten_grip_lost(rules_enc *e, const char *cid, int dead)
{
    const char *held = json_string_value(json_object_get(me(e, cid), "gripping"));
    if (held) {
        char keep[64];
        snprintf(keep, sizeof keep, "%s", held);
        grip_end(e, keep);
        rules_enc_log(e, "escape", NULL, NULL, "%s is free: %s holds nobody now",
                      rules_enc_name(e, keep), rules_enc_name(e, cid));
    }
    if (dead && grip_of(e, cid))
        grip_end(e, cid);
}

int ten_grip_may_shake(rules_enc *e, const char *cid, const char *name, int action, tb_err *err)
{
    if (name && strcmp(name, TEN_LOCKED) == 0 && !action)
        return rules_enc_rule(err,
                              "%s breaks a lock only with an action, not the free roll at the end "
                              "of the turn (003:105)",
                              rules_enc_name(e, cid));
    if (name && strcmp(name, TEN_GRAPPLED) == 0 && rules_enc_cond_has(e, cid, TEN_LOCKED))
        return rules_enc_rule(err,
                              "%s is locked: the lock must be broken before the grapple (003:105)",
                              rules_enc_name(e, cid));
    return 0;
}

void ten_grip_shaken(rules_enc *e, const char *cid, const char *name)
{
    json_t *g = grip_of(e, cid);
    if (!g)
        return;
    if (strcmp(name, TEN_LOCKED) == 0) {
        /* 003:105 "if they succeed, then the lock reverts back to a grapple" */
        json_object_set_new(g, "locked", json_false());
        rules_enc_log(e, "escape", NULL, NULL,
                      "%s breaks the lock: it is a grapple again (003:105)",
                      rules_enc_name(e, cid));
    } else if (strcmp(name, TEN_GRAPPLED) == 0) {
        /* 003:104 "if they succeed, then the grapple ends" */
        grip_end(e, cid);
        rules_enc_log(e, "escape", NULL, NULL, "%s breaks free of the grapple (003:104)",
                      rules_enc_name(e, cid));
    }
}

/*
 * 003:104 "Roll your armed or unarmed attack normally against the opponent's defense, if you
 * succeed, then instead of dealing damage, you roll your impact and apply that as the hindering
 * number of grappled condition." `limbs` grappled: one limb hinders `what` (a skill, attribute or
 * body part); more than one hinders "all physical actions except attempting to escape". One grip
 * per character held and per holder (reading O3).
 */
int ten_act_grapple(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *skill = ten_skill_arg(a);
    const char *what = rules_arg_str(a, "what");
    int limbs = rules_arg_int(a, "limbs");
    if (!what)
        what = limbs > 1 ? "all" : "arm";
    if (strchr(what, ':'))
        return tb_fail(err, TB_BAD_REQUEST, "'what' names a limb, skill or attribute, without ':'");
    ten_mods m = {0};
    int rc = ten_require_contest(e, actor, target, "grapple", skill, err);
    if (!rc)
        rc = fight_mods(e, actor, target, a, &m, err);
    if (rc)
        return rc;
    const char *cover = cover_of(e, target);
    if (cover && strcmp(cover, "soft") == 0)
        return rules_enc_rule(err,
                              "%s is hidden behind soft cover: nobody can grapple what they "
                              "cannot find (003:115)",
                              rules_enc_name(e, target));
    if (grip_of(e, target))
        return rules_enc_rule(err, "%s is already held by %s", rules_enc_name(e, target),
                              rules_enc_name(e, grip_by(e, target)));
    if (json_object_get(me(e, actor), "gripping"))
        return rules_enc_rule(err,
                              "%s is already holding someone: the grappling limb does nothing "
                              "but keep the grapple (003:104)",
                              rules_enc_name(e, actor));
    int edge = ten_take_action(e, actor, err);
    if (edge < 0)
        return err->code;
    m.atk_adv += edge;
    ten_contest c;
    ten_log l;
    ten_log_begin(e, &l, "grapple");
    if ((rc = ten_contest_mods(e, actor, target, skill, a, &m, 1, &c, &l, err))) {
        ten_log_drop(&l);
        return rc;
    }
    rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, "%s tries to grapple %s", rules_enc_name(e, actor),
                        rules_enc_name(e, target));
    ten_log_roll(e, &l, actor, target, skill, &c);
    say_states(e, &l, actor, target, a);
    if (c.success)
        rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": grappled, hindered by %d",
                            c.impact < 1 ? 1 : c.impact);
    else
        rules_enc_entry_say(l.x, RULES_AUD_PUBLIC, ": slips the grab");
    ten_log_write(&l);
    if (c.success) {
        /* 003:104 the escape rolls "against the grappler's skill roll": the GM's for an NPC */
        put_grip_cond(e, target, TEN_GRAPPLED, "hinder", limbs > 1 ? "all" : what,
                      c.impact < 1 ? 1 : c.impact, c.atk.total);
        json_object_set_new(me(e, target), "grip",
                            json_pack("{s:s, s:b, s:i}", "by", actor, "locked", 0, "limbs", limbs));
        json_object_set_new(me(e, actor), "gripping", json_string(target));
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
int ten_act_lock(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor, *target = rules_arg_str(a, "target");
    const char *skill = rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Unarmed Combat";
    int rc = ten_require_able(e, actor, "lock", err);
    if (!rc)
        rc = ten_require_target(e, actor, target, err);
    if (!rc)
        rc = ten_skill_check(e, actor, skill, err);
    if (rc)
        return rc;
    if (!rules_enc_streq(grip_by(e, target), actor))
        return rules_enc_rule(err,
                              "%s does not hold %s in a grapple: a lock comes from a grapple "
                              "(003:105)",
                              rules_enc_name(e, actor), rules_enc_name(e, target));
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    json_t *g = grip_of(e, target);
    int first = !json_is_true(json_object_get(g, "locked"));
    if (first) {
        json_t *ch = json_object_get(ten_cond_challenges(e, target), TEN_GRAPPLED);
        put_grip_cond(e, target, TEN_LOCKED, "stop", "movement", 0, (int)json_integer_value(ch));
        json_object_set_new(g, "locked", json_true());
    }
    /* the damage: the skill's impact dice and equipment bonus, no check */
    ten_side s;
    memset(&s, 0, sizeof s);
    s.cid = actor;
    json_t *sk = json_object_get(json_object_get(rules_enc_stats(e, actor), "skills"), skill);
    if (json_is_array(sk)) {
        s.hero = 1;
        s.rank = (int)json_integer_value(json_array_get(sk, 1));
        s.ibonus = (int)json_integer_value(json_array_get(sk, 2));
    } else {
        s.rank = 2 * rules_enc_stat(e, actor, "impact_dice", 1);
        s.ibonus = rules_enc_stat(e, actor, "impact_bonus", 0);
    }
    json_t *dice = json_array();
    int impact = ten_impact_roll(e, &s, 0, rules_arg_int(a, "impact_bonus"), dice);
    int dmg = size_damage(impact, size_of(e, target) - size_of(e, actor));
    /* the impact is open as every hit's (003:66); an NPC's dice are the GM's */
    int npc = rules_enc_aud_of(e, actor) == RULES_AUD_GM;
    rules_enc_log(e, "lock", npc ? NULL : json_incref(dice),
                  json_pack("{s:i, s:b}", "impact", impact, "first", first),
                  first ? "%s locks %s: no movement at all, and %d impact of damage (003:105)"
                        : "%s works the lock on %s: %d impact of damage (003:105)",
                  rules_enc_name(e, actor), rules_enc_name(e, target), impact);
    if (npc)
        rules_enc_log_gm(e, "lock", json_incref(dice), NULL, "%s's damage dice for the lock",
                         rules_enc_name(e, actor));
    json_decref(dice);
    deal(e, target, dmg, rules_arg_str(a, "type"), "lock");
    ten_bring(e, target);
    ten_done(e);
    return 0;
}

/* 003:104 "A grappled opponent can spend their action to attempt to break a grapple condition";
 * 003:105 "A locked opponent may attempt to break the lock with an action by rolling against the
 * grappler's skill roll". The lock first, then the grapple; Athletics unless the player names
 * another skill. The free roll at the end of the turn is `end` with shake=grappled. */
int ten_act_escape(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor;
    const char *skill = rules_arg_given(a, "skill") ? rules_arg_str(a, "skill") : "Athletics";
    int rc = ten_require_able(e, actor, "escape", err);
    if (!rc)
        rc = ten_skill_check(e, actor, skill, err);
    if (rc)
        return rc;
    if (!grip_of(e, actor))
        return rules_enc_rule(err, "%s is not held in a grapple or lock", rules_enc_name(e, actor));
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    rc = ten_shake(e, actor, rules_enc_cond_has(e, actor, TEN_LOCKED) ? TEN_LOCKED : TEN_GRAPPLED,
                   skill, 1, err);
    if (!rc)
        ten_done(e);
    return rc;
}

/* ---- hold (003:58, 003:81) ---- */

/* 003:58 "You can hold your action or movement to activate later. Choose what activates your held
 * action or movement when establishing the hold." The hold spends the action (or movement) now;
 * `release` gives it back when the trigger happens. An NPC's trigger is the GM's. */
int ten_act_hold(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *actor = e->actor;
    const char *what = rules_arg_given(a, "what") ? rules_arg_str(a, "what") : "action";
    const char *trigger = rules_arg_str(a, "trigger");
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
    if (json_object_get(me(e, actor), "held"))
        return rules_enc_rule(err, "%s is already holding an action or movement",
                              rules_enc_name(e, actor));
    if (rules_enc_spend(e, actor, strcmp(what, "move") == 0 ? "move" : "action", 1, err))
        return err->code;
    json_t *held = json_pack("{s:s}", "what", what);
    const char *an = rules_enc_name(e, actor);
    const char *noun = strcmp(what, "move") == 0 ? "movement" : "action";
    if (rules_enc_is_npc(e, actor)) {
        json_object_set_new(rules_enc_hidden_of(e, actor), "held_trigger", json_string(trigger));
        rules_enc_log(e, "hold", NULL, json_pack("{s:s}", "what", what), "%s holds its %s", an,
                      noun);
        rules_enc_log_gm(e, "hold", NULL, NULL, "%s holds its %s until: %s", an, noun, trigger);
    } else {
        json_object_set_new(held, "trigger", json_string(trigger));
        rules_enc_log(e, "hold", NULL, json_pack("{s:s, s:s}", "what", what, "trigger", trigger),
                      "%s holds the %s until: %s (003:81)", an, noun, trigger);
    }
    json_object_set_new(me(e, actor), "held", held);
    ten_done(e);
    return 0;
}

/* The trigger happened: the held action (or movement) is taken now, out of turn, like a response
 * (003:81 "to be triggered by another action that happens later in the scene"). */
int ten_act_release(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *actor = e->actor;
    json_t *held = json_object_get(me(e, actor), "held");
    if (!held)
        return rules_enc_rule(err, "%s is holding nothing", rules_enc_name(e, actor));
    int rc = ten_require_able(e, actor, "release", err);
    if (rc)
        return rc;
    const char *resp = ten_str(e, "responder");
    if (resp)
        return rules_enc_rule(err, "%s is responding now (003:91); release after it",
                              rules_enc_name(e, resp));
    int move = rules_enc_streq(json_string_value(json_object_get(held, "what")), "move");
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
    rules_enc_log(e, "release", NULL, json_pack("{s:s}", "what", move ? "move" : "action"),
                  "%s's trigger happens: %s takes the held %s now (003:81)",
                  rules_enc_name(e, actor), rules_enc_name(e, actor), move ? "movement" : "action");
    json_object_del(me(e, actor), "held");
    json_object_del(rules_enc_hidden_of(e, actor), "held_trigger");
    ten_done(e);
    return 0;
}

/* ---- help (003:57, 003:79) ---- */

/* 003:57 "you can give another character an advantage hero die as long as you have at least one
 * rank of the appropriate skill"; 003:79 "You cannot benefit from more than one creature helping
 * you at a time". The die goes to the ally's next action roll; it lapses at the helper's next turn
 * (reading O1). Cooperating on impact (003:80) is each character rolling its own action here. */
int ten_act_help(rules_enc *e, const rules_args *a, tb_err *err)
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
    json_t *sk = json_object_get(json_object_get(rules_enc_stats(e, actor), "skills"), skill);
    if (json_is_array(sk) && json_integer_value(json_array_get(sk, 1)) < 1)
        return rules_enc_rule(err, "%s needs at least one rank of %s to help (003:57)",
                              rules_enc_name(e, actor), skill);
    if (rules_enc_cond_has(e, target, "helped"))
        return rules_enc_rule(err, "%s already has help: only one helper at a time (003:79)",
                              rules_enc_name(e, target));
    if (ten_take_action(e, actor, err) < 0)
        return err->code;
    rules_enc_cond_add(e, target, "helped", 0, 1);
    json_object_set_new(me(e, target), "helped_by", json_string(actor));
    rules_enc_log(e, "help", NULL, json_pack("{s:s}", "to", target),
                  "%s helps %s with %s: an advantage die on the next action (003:57)",
                  rules_enc_name(e, actor), rules_enc_name(e, target), skill);
    ten_done(e);
    return 0;
}

void ten_options_turn(rules_enc *e, const char *cid)
{
    json_object_set_new(e->enc, "parted", json_array());
    if (json_object_get(me(e, cid), "held")) {
        json_object_del(me(e, cid), "held");
        json_object_del(rules_enc_hidden_of(e, cid), "held_trigger");
        rules_enc_log(e, "hold", NULL, NULL, "%s's held action lapses unused",
                      rules_enc_name(e, cid));
    }
    const char *other;
    for (size_t i = 0; (other = rules_enc_cid_at(e, i)); i++)
        if (rules_enc_streq(json_string_value(json_object_get(me(e, other), "helped_by")), cid)) {
            json_object_del(me(e, other), "helped_by");
            rules_enc_cond_remove(e, other, "helped");
        }
}

/* ---- states set at the table (003:113-123) ---- */

/* Parameter `name` was given (0 when the action's table has no such parameter). */
static int given(const rules_args *a, const char *name)
{
    for (int i = 0; a->params && a->params[i].name; i++)
        if (strcmp(a->params[i].name, name) == 0)
            return a->given[i];
    return 0;
}

/* Sets a combatant's state key to v (stolen), or removes the key when v is NULL: a state that
 * is off is absent, as every other combatant state. */
static void state_put(json_t *c, const char *key, json_t *v)
{
    if (v)
        json_object_set_new(c, key, v);
    else
        json_object_del(c, key);
}

/* Taking cover, going prone, climbing high (`cover`, `prone`, `high_ground`): the character's own
 * (its movement, no extra cost: reading O4); the size step (`size`) is the GM's, on `target` (the
 * NPC card, 003:121). One function for the four actions: each gives its one parameter. */
int ten_act_state(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *who = given(a, "size") ? rules_arg_str(a, "target") : e->actor;
    const char *cover = given(a, "cover") ? rules_arg_str(a, "cover") : NULL;
    if (cover && strcmp(cover, "none") != 0 && strcmp(cover, "partial") != 0 &&
        strcmp(cover, "full") != 0 && strcmp(cover, "soft") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "cover: none, partial, full or soft, not '%.20s'",
                       cover);
    json_t *c = me(e, who);
    const char *an = rules_enc_name(e, who);
    if (cover) {
        state_put(c, "cover", strcmp(cover, "none") == 0 ? NULL : json_string(cover));
        rules_enc_log(e, "state", NULL, json_pack("{s:s}", "cover", cover), "%s %s", an,
                      strcmp(cover, "none") == 0      ? "leaves cover"
                      : strcmp(cover, "partial") == 0 ? "takes partial cover (003:114)"
                      : strcmp(cover, "full") == 0    ? "is completely behind hard cover (003:114)"
                                                      : "hides behind soft cover (003:115)");
    }
    if (given(a, "prone")) {
        int v = rules_arg_int(a, "prone");
        state_put(c, "prone", v ? json_true() : NULL);
        rules_enc_log(e, "state", NULL, json_pack("{s:b}", "prone", v), "%s %s", an,
                      v ? "goes prone (003:117)" : "stands up");
    }
    if (given(a, "elevated")) {
        int v = rules_arg_int(a, "elevated");
        state_put(c, "elevated", v ? json_true() : NULL);
        rules_enc_log(e, "state", NULL, json_pack("{s:b}", "elevated", v), "%s %s", an,
                      v ? "takes the high ground (003:116)" : "leaves the high ground");
    }
    if (given(a, "size")) {
        int v = rules_arg_int(a, "size");
        state_put(c, "size", v ? json_integer(v) : NULL);
        rules_enc_log(e, "state", NULL, json_pack("{s:i}", "size", v),
                      "%s is %d size step%s %s a one-space creature (003:121)", an, v < 0 ? -v : v,
                      v == 1 || v == -1 ? "" : "s", v < 0 ? "below" : "above");
    }
    ten_done(e);
    return 0;
}

/* GM: cid resists `type` by value (003:120), 0 removes it. A PC's resistance is on the table; an
 * NPC's stays with the GM. */
int ten_act_resist(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *target = rules_arg_str(a, "target"), *type = rules_arg_str(a, "type");
    int v = rules_arg_int(a, "value");
    json_t *r = resists(e, target);
    if (v)
        json_object_set_new(r, type, json_integer(v));
    else
        json_object_del(r, type);
    if (rules_enc_is_npc(e, target))
        rules_enc_log_gm(e, "resist", NULL, json_pack("{s:s, s:i}", "type", type, "value", v),
                         "%s resists %s %d", rules_enc_name(e, target), type, v);
    else
        rules_enc_log(e, "resist", NULL, json_pack("{s:s, s:i}", "type", type, "value", v),
                      "%s resists %s %d (003:120)", rules_enc_name(e, target), type, v);
    return 0;
}

/* ---- the narrator's trade of negative spin (003:39) ---- */

/* GM: offers target a change in the scene (`cost`) for `negative` points of its negative spin.
 * 003:39 "The player and the narrator go back and forth bargaining ... once they come to an
 * agreement": a new offer replaces the last; the player accepts or declines. */
int ten_act_offer(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *target = rules_arg_str(a, "target"), *cost = rules_arg_str(a, "cost");
    int n = rules_arg_int(a, "negative");
    if (rules_enc_is_npc(e, target))
        return rules_enc_rule(err,
                              "the trade is a bargain with a player (003:39), and %s is the "
                              "GM's",
                              rules_enc_name(e, target));
    int spin = ten_spin(e, target);
    if (spin >= 0)
        return rules_enc_rule(err, "%s has no negative spin to trade (003:39)",
                              rules_enc_name(e, target));
    if (n > -spin)
        return rules_enc_rule(err, "%s has only %d negative spin", rules_enc_name(e, target),
                              -spin);
    json_object_set_new(me(e, target), "offer",
                        json_pack("{s:i, s:s}", "negative", n, "cost", cost));
    rules_enc_log(
        e, "offer", NULL, json_pack("{s:s, s:i, s:s}", "to", target, "negative", n, "cost", cost),
        "The GM offers %s: %s, for %d negative spin (003:39)", rules_enc_name(e, target), cost, n);
    return 0;
}

static json_t *offer_of(rules_enc *e, const char *cid, tb_err *err)
{
    json_t *o = json_object_get(me(e, cid), "offer");
    if (!json_is_object(o))
        rules_enc_rule(err, "the GM has offered %s no trade", rules_enc_name(e, cid));
    return json_is_object(o) ? o : NULL;
}

int ten_act_accept(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    json_t *o = offer_of(e, cid, err);
    if (!o)
        return err->code;
    int n = (int)json_integer_value(json_object_get(o, "negative"));
    int spin = ten_spin(e, cid);
    if (n > -spin)
        n = spin < 0 ? -spin : 0; /* spin earned since the offer: never above 0 */
    ten_spin_add(e, cid, n);
    rules_enc_log(e, "accept", NULL,
                  json_pack("{s:i, s:O}", "negative", n, "cost", json_object_get(o, "cost")),
                  "%s accepts: %s; %d negative spin is gone (003:39)", rules_enc_name(e, cid),
                  json_string_value(json_object_get(o, "cost")), n);
    json_object_del(me(e, cid), "offer");
    return 0;
}

int ten_act_decline(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    if (!offer_of(e, cid, err))
        return err->code;
    json_object_del(me(e, cid), "offer");
    rules_enc_log(e, "decline", NULL, NULL, "%s declines the GM's offer", rules_enc_name(e, cid));
    return 0;
}

/* ---- the choice to die (003:108) ---- */

/* 003:108 "A player can opt for their character to die at any time that narratively makes sense
 * in the story, this is a narrative prerogative of the player": the player's character, with
 * `confirm`. */
int ten_act_die(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    if (rules_enc_is_npc(e, cid))
        return rules_enc_rule(err, "the choice to die is a player's, for their own character "
                                   "(003:108)");
    if (!rules_arg_int(a, "confirm"))
        return tb_fail(err, TB_BAD_REQUEST, "confirm: the choice to die needs confirm=true");
    if (rules_enc_is_out(e, cid))
        return rules_enc_rule(err, "%s is already out of the fight", rules_enc_name(e, cid));
    ten_perish(e, cid, "their player's choice (003:108)");
    ten_done(e);
    return 0;
}
