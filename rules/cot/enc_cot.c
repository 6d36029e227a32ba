/*
 * enc_cot.c — the City of Thieves encounter modules (rules/encounter.h). The rulebook is
 * 000_d2a475e9ec148dd1.txt, cited as 000:LINE; the readings of unclear passages are listed in
 * rules/RULES.md, "cot", "Encounters".
 *
 *   cot.initiative  "Initiative slots" for any Stage (heist, prep, social call, violence, chases):
 *                   slots, claims, the Focus Round, Bolster, Wait, a skill roll, Getting the Drop.
 *   cot.warfare     "Gang Warfare": the same slots (Muscle+Athletics) plus Cover, Attack,
 *                   Restrain, Break free, Reposition and Flee.
 *   cot.chase       "Chase": the same slots (the chase Stage's pool) plus Cover, Distance per
 *                   Pursuer, vehicles, and the Target's and Pursuers' actions (000:139-171).
 *
 * SLOTS (000:31-38). Every combatant rolls its Stage's initiative pool when it joins; each total
 * becomes a slot owned by the combatant's side, not by the combatant. /enc/order holds the slots,
 * highest first: {id: "s1", total, side, claimed_by: cid|null}. At the current slot (/enc/turn) a
 * character of the owning side takes it by acting (or with `claim`); each character takes one
 * slot per round (combatant key `claimed`: the slot ids it took this round), the Focus character
 * as many as its crewmates gave (/enc/focus = {by, round, given: [cid]}). After a turn the
 * pointer moves to the next slot someone of its side can still take; past the last, a new round.
 *
 * Numbers: a combatant's abilities, skills, armour and weapons are copied from its sheet into
 * its stats when it joins (public for a PC, /gm/enc for an NPC: rules_enc_stats), with Cover in
 * `cover`. An NPC's dice and numbers go to the GM log; the public log tells its outcome only.
 */
#include <stdio.h>
#include <string.h>

#include "cot.h"
#include "encounter.h"

/* ---- tables ---- */

typedef struct cot_stage {
    const char *id, *ability, *skill, *pool;
} cot_stage;

/* 000:33-36 initiative by Stage; the Stages of 000:19-22 and the chases of 000:146 */
static const cot_stage STAGES[] = {
    {"heist", "brains", "planning", "Brains+Planning"},         /* 000:33 */
    {"prep", "brains", "planning", "Brains+Planning"},          /* 000:33 */
    {"social", "it", "size_up", "It+Size Up"},                  /* 000:34 */
    {"violence", "muscle", "athletics", "Muscle+Athletics"},    /* 000:35 */
    {"foot_chase", "muscle", "athletics", "Muscle+Athletics"},  /* 000:35 */
    {"vehicle_chase", "fingers", "driving", "Fingers+Driving"}, /* 000:36 */
    {NULL, NULL, NULL, NULL},
};

typedef struct cot_skill {
    const char *id, *ability, *label;
} cot_skill;

/* 000:44-96: each skill under its ability */
static const cot_skill SKILLS[] = {
    {"shooting", "muscle", "Shooting"},
    {"hand_to_hand", "muscle", "Hand to Hand"},
    {"athletics", "muscle", "Athletics"},
    {"intimidate", "muscle", "Intimidate"},
    {"resist", "muscle", "Resist"},
    {"explosives", "muscle", "Explosives"},
    {"driving", "fingers", "Driving"},
    {"cat_burglary", "fingers", "Cat Burglary"},
    {"palming", "fingers", "Palming"},
    {"sneak", "fingers", "Sneak"},
    {"lockpicking", "fingers", "Lockpicking"},
    {"build", "fingers", "Build"},
    {"mysticism", "brains", "Mysticism"},
    {"planning", "brains", "Planning"},
    {"lookout", "brains", "Lookout"},
    {"safecracking", "brains", "Safecracking"},
    {"appraisal", "brains", "Appraisal"},
    {"forgery", "brains", "Forgery"},
    {"connections", "it", "Connections"},
    {"size_up", "it", "Size Up"},
    {"con", "it", "Con"},
    {"impress", "it", "Impress"},
    {"manipulate", "it", "Manipulate"},
    {"convince", "it", "Convince"},
    {NULL, NULL, NULL},
};

static const char *const ABILITIES[] = {"muscle", "fingers", "brains", "it", NULL};

/* A name-only NPC (no sheet) rolls with a new sheet's values: abilities 2, skills 0 (the
 * defaults of the cot sheet schema; RULES.md, cot encounters, reading 9). */
#define DEFAULT_ABILITY 2

static const cot_stage *stage_find(const char *id)
{
    for (const cot_stage *s = STAGES; id && s->id; s++)
        if (strcmp(s->id, id) == 0)
            return s;
    return NULL;
}

static const cot_skill *skill_find(const char *id)
{
    for (const cot_skill *s = SKILLS; id && s->id; s++)
        if (strcmp(s->id, id) == 0)
            return s;
    return NULL;
}

/* ---- small JSON helpers ---- */

static const char *str_of(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static int int_of(const json_t *o, const char *key)
{
    return (int)json_integer_value(json_object_get(o, key));
}

static int stat_true(rules_enc *e, const char *cid, const char *key)
{
    return json_is_true(json_object_get(rules_enc_stats(e, cid), key));
}

static int ability_of(rules_enc *e, const char *cid, const char *ability)
{
    json_t *v = json_object_get(json_object_get(rules_enc_stats(e, cid), "abilities"), ability);
    return json_is_integer(v) ? (int)json_integer_value(v) : DEFAULT_ABILITY;
}

static int skill_of(rules_enc *e, const char *cid, const char *skill)
{
    return int_of(json_object_get(rules_enc_stats(e, cid), "skills"), skill);
}

static int in_array(const json_t *arr, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (json_string_value(v) &&
                                      rules_enc_streq(json_string_value(v), s)) return 1;
    return 0;
}

/* ---- rolling ---- */

/* One pool roll of a combatant, ready for the log. */
typedef struct cot_throw {
    cot_roll r;
    int bonus;      /* +Bk0 from gear and circumstances */
    int bolster;    /* +Bk0 from Bolster (000:27) */
    char line[160]; /* "4k2 → 6 5 [3 1] = 11" */
} cot_throw;

static void throw_line(cot_throw *t)
{
    int v[RULES_POOL_MAX], k[RULES_POOL_MAX], n = t->r.pool.n;
    for (int i = 0; i < n; i++) {
        v[i] = t->r.pool.value[i];
        k[i] = t->r.pool.kept[i];
    }
    /* kept first, each part high to low (as the cot check prints it) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (k[j] > k[j - 1] || (k[j] == k[j - 1] && v[j] > v[j - 1])); j--) {
            int tv = v[j], tk = k[j];
            v[j] = v[j - 1];
            k[j] = k[j - 1];
            v[j - 1] = tv;
            k[j - 1] = tk;
        }
    size_t len = (size_t)snprintf(t->line, sizeof t->line, "%dk%d →", n, t->r.pool.keep);
    int open = 0;
    for (int i = 0; i < n && len < sizeof t->line; i++) {
        int first_dropped = !k[i] && !open;
        if (first_dropped)
            open = 1;
        len += (size_t)snprintf(t->line + len, sizeof t->line - len, " %s%d",
                                first_dropped ? "[" : "", v[i]);
    }
    if (len < sizeof t->line)
        snprintf(t->line + len, sizeof t->line - len, "%s = %d%s", open ? "]" : "", t->r.total,
                 t->r.catastrophe ? " (Catastrophe)" : "");
}

/*
 * Rolls cid's pool of ability + skill dice, keeping the ability (000:9), with `bonus` extra dice
 * (gear, circumstances: 000:11, 000:102, 000:123) and, when the combatant was Bolstered, the
 * Bolster's +1k0 each, which this roll uses up (000:27).
 */
static int throw_pool(rules_enc *e, const char *cid, const char *ability, const char *skill,
                      int bonus, cot_throw *t, tb_err *err)
{
    memset(t, 0, sizeof *t);
    json_t *b = rules_enc_cond(e, cid, "bolstered");
    t->bolster = b ? int_of(b, "level") : 0;
    t->bonus = bonus;
    cot_pool_spec spec = {skill ? skill_of(e, cid, skill) : 0, ability_of(e, cid, ability),
                          bonus + t->bolster, 0};
    int rc = cot_pool_roll(&spec, e->rng, &t->r, err);
    if (rc)
        return rc;
    if (b)
        rules_enc_cond_remove(e, cid, "bolstered");
    throw_line(t);
    return 0;
}

static json_t *throw_dice(const cot_throw *t)
{
    json_t *dice = json_array();
    rules_pool_to_json(&t->r.pool, dice);
    return dice;
}

static json_t *throw_json(const cot_throw *t)
{
    json_t *o = json_pack("{s:i, s:i, s:o, s:i, s:b}", "rolled", t->r.pool.n, "keep",
                          t->r.pool.keep, "kept", rules_pool_kept_json(&t->r.pool), "total",
                          t->r.total, "catastrophe", t->r.catastrophe);
    if (t->bonus)
        json_object_set_new(o, "bonus", json_integer(t->bonus));
    if (t->bolster)
        json_object_set_new(o, "bolster", json_integer(t->bolster));
    return o;
}

/* ---- slots ---- */

static json_t *slots(const rules_enc *e)
{
    return json_object_get(e->enc, "order");
}

static json_t *current_slot(const rules_enc *e)
{
    json_t *s = rules_enc_current_entry(e);
    return json_is_object(s) ? s : NULL;
}

static const char *claimer(const json_t *slot)
{
    return str_of(slot, "claimed_by");
}

static json_t *slot_by_id(const rules_enc *e, const char *id)
{
    size_t i;
    json_t *s;
    json_array_foreach(slots(e), i, s) if (rules_enc_streq(str_of(s, "id"), id)) return s;
    return NULL;
}

/* "slot 14": slots are named by their total, as the GM writes them down (000:37). */
typedef struct slot_name {
    char s[32];
} slot_name;

static slot_name name_of(const json_t *slot)
{
    slot_name n;
    snprintf(n.s, sizeof n.s, "slot %d", int_of(slot, "total"));
    return n;
}

static json_t *claims(const rules_enc *e, const char *cid)
{
    return json_object_get(rules_enc_combatant(e, cid), "claimed");
}

static json_t *focus(const rules_enc *e)
{
    json_t *f = json_object_get(e->enc, "focus");
    return json_is_object(f) ? f : NULL;
}

/* How many slots cid may take this round: one (000:38); in a Focus Round its character one plus
 * every slot given to it, and a crewmate who gave its slot none (000:40). */
static int claim_limit(const rules_enc *e, const char *cid)
{
    json_t *f = focus(e);
    if (f && rules_enc_streq(str_of(f, "by"), cid))
        return 1 + (int)json_array_size(json_object_get(f, "given"));
    if (f && in_array(json_object_get(f, "given"), cid))
        return 0;
    return 1;
}

static int can_take(const rules_enc *e, const char *cid, const char *side)
{
    return !rules_enc_is_out(e, cid) && rules_enc_streq(rules_enc_side(e, cid), side) &&
           (int)json_array_size(claims(e, cid)) < claim_limit(e, cid);
}

/* Someone of the owning side can still take this slot. */
static int slot_open(const rules_enc *e, const json_t *slot)
{
    const char *side = str_of(slot, "side"), *cid;
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
    json_t *f = focus(e);
    if (f && int_of(f, "round") < rules_enc_round(e)) {
        rules_enc_log(e, "focus_end", NULL, NULL, "%s's Focus Round is over",
                      rules_enc_name(e, str_of(f, "by")));
        json_object_del(e->enc, "focus");
    }
}

/* Moves the pointer on from the current slot (begin: onto the first) to the next slot someone
 * of its side can still take; a slot nobody can take passes (000:38 "Once all the available
 * Slots have been used ... the round is over"). */
static void slot_settle(rules_enc *e, int move)
{
    size_t n = json_array_size(slots(e));
    for (size_t step = 0; step < 2 * n + 2; step++) {
        if (move) {
            int r = rules_enc_advance(e);
            if (r < 0)
                return;
            if (r == 1) {
                round_reset(e);
                rules_enc_log(e, "round", NULL, NULL, "Round %d begins", rules_enc_round(e));
            }
        }
        move = 1;
        json_t *s = current_slot(e);
        if (!s)
            return;
        if (slot_open(e, s))
            return;
        rules_enc_log(e, "pass", NULL, NULL, "%s (%s) passes: nobody on that side can take it",
                      name_of(s).s, str_of(s, "side"));
    }
    json_object_set_new(e->enc, "turn", json_integer(-1));
    rules_enc_log(e, "stall", NULL, NULL,
                  "Nobody is left who can take a slot; the GM ends or adjusts the encounter");
}

/* A total becomes a slot of `side`, in its place from highest to lowest (000:37); equal totals
 * keep the order they were rolled in. The current slot stays current. */
static void slot_insert(rules_enc *e, int total, const char *side)
{
    json_t *order = slots(e);
    size_t n = json_array_size(order), at = 0;
    while (at < n && int_of(json_array_get(order, at), "total") >= total)
        at++;
    int next = int_of(e->enc, "next_slot");
    char id[24];
    snprintf(id, sizeof id, "s%d", next < 1 ? 1 : next);
    json_object_set_new(e->enc, "next_slot", json_integer((next < 1 ? 1 : next) + 1));
    json_array_insert_new(
        order, at,
        json_pack("{s:s, s:i, s:s, s:n}", "id", id, "total", total, "side", side, "claimed_by"));
    int turn = int_of(e->enc, "turn");
    if (turn >= 0 && (int)at <= turn)
        json_object_set_new(e->enc, "turn", json_integer(turn + 1));
}

/* ---- the turn of a slot ---- */

/* may_act: cid may take a turn action now (000:38). */
static int cot_may_act(rules_enc *e, const char *cid, tb_err *err)
{
    json_t *s = current_slot(e);
    if (!s)
        return rules_enc_rule(err, rules_enc_round(e) == 0
                                       ? "the encounter has not started: the GM begins round 1 "
                                         "(begin)"
                                       : "no slot is up now");
    slot_name sn = name_of(s);
    const char *by = claimer(s);
    if (by)
        return rules_enc_streq(by, cid)
                   ? 0
                   : rules_enc_rule(err,
                                    "%s is claimed by %s; each slot is one character's turn "
                                    "(000:38)",
                                    sn.s, rules_enc_name(e, by));
    const char *side = str_of(s, "side");
    if (!rules_enc_streq(rules_enc_side(e, cid), side))
        return rules_enc_rule(err, "it is %s's turn, owned by the %s", sn.s, side ? side : "?");
    int limit = claim_limit(e, cid), taken = (int)json_array_size(claims(e, cid));
    if (taken < limit)
        return 0;
    if (limit == 0)
        return rules_enc_rule(err, "%s gave this round's slot to %s's Focus Round (000:40)",
                              rules_enc_name(e, cid), rules_enc_name(e, str_of(focus(e), "by")));
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
    json_t *s = current_slot(e);
    if (s && !claimer(s)) {
        json_object_set_new(s, "claimed_by", json_string(e->actor));
        json_t *c = rules_enc_combatant(e, e->actor);
        json_t *cl = json_object_get(c, "claimed");
        if (!json_is_array(cl)) {
            cl = json_array();
            json_object_set_new(c, "claimed", cl);
        }
        json_array_append_new(cl, json_string(str_of(s, "id")));
    }
    return s;
}

/* Starts a turn action: a fleeing character's next action leaves the Zone (000:126), nothing
 * else; then the actor takes the slot. Returns the slot's name for the log. */
static int turn_open(rules_enc *e, int flee, slot_name *sn, tb_err *err)
{
    if (!flee && rules_enc_cond_has(e, e->actor, "fleeing"))
        return rules_enc_rule(err,
                              "%s is fleeing: their next action leaves the Zone (flee) "
                              "(000:126)",
                              rules_enc_name(e, e->actor));
    *sn = name_of(take_slot(e));
    return 0;
}

/* Bolster "If they don't make a roll on their next turn, they lose this bonus" (000:27). */
static void bolster_lapse(rules_enc *e, const char *cid)
{
    if (rules_enc_cond_remove(e, cid, "bolstered"))
        rules_enc_log(e, "bolster_lost", NULL, NULL,
                      "%s made no roll on this turn and loses the Bolster (000:27)",
                      rules_enc_name(e, cid));
}

/* Ends the turn: an unused Bolster lapses (unless kept: the actor just bolstered), the pointer
 * moves to the next slot. */
static void turn_close(rules_enc *e, int rolled)
{
    if (!rolled)
        bolster_lapse(e, e->actor);
    slot_settle(e, 1);
}

static int target_in(rules_enc *e, const char *t, int self_ok, tb_err *err)
{
    if (!self_ok && strcmp(t, e->actor) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "target: %s cannot target themselves",
                       rules_enc_name(e, t));
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight (%s)", rules_enc_name(e, t),
                              str_of(rules_enc_combatant(e, t), "out"));
    return 0;
}

/* ---- start and join ---- */

static int start_stage(rules_enc *e, const cot_stage *st)
{
    json_object_set_new(e->enc, "stage", json_string(st->id));
    json_object_set_new(e->enc, "pool", json_string(st->pool));
    json_object_set_new(e->enc, "next_slot", json_integer(1));
    return 0;
}

static int init_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    const char *id = rules_arg_str(o, "stage");
    const cot_stage *st = stage_find(id ? id : "heist");
    if (!st)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.start cot.initiative: 'stage' must be one of heist, prep, social, "
                       "violence, foot_chase, vehicle_chase (000:33-36)");
    return start_stage(e, st);
}

static int war_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)o;
    (void)err;
    /* 000:123 "After rolling Initiative as outlined in Chapter 1": violence, 000:35 */
    return start_stage(e, stage_find("violence"));
}

/* Copies what the rolls need from the sheet into the stats: abilities, skills, the armour bonus
 * (000:123) and the weapons with their bonus and Blunt tag (000:102). */
static void copy_sheet(rules_enc *e, const char *cid, const json_t *sheet)
{
    json_t *st = rules_enc_stats(e, cid);
    json_t *ab = json_object(), *sk = json_object(), *weapons = json_array();
    for (const char *const *a = ABILITIES; *a; a++) {
        json_t *v = json_object_get(json_object_get(sheet, "abilities"), *a);
        json_object_set_new(
            ab, *a, json_integer(json_is_integer(v) ? json_integer_value(v) : DEFAULT_ABILITY));
    }
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(sheet, "skills"), k, v) json_object_set(sk, k, v);
    int armour = 0;
    size_t i;
    json_array_foreach(json_object_get(sheet, "gear"), i, v)
    {
        const char *kind = str_of(v, "kind");
        if (kind && strcmp(kind, "armour") == 0)
            armour += int_of(v, "bonus");
        else if (kind && strcmp(kind, "weapon") == 0)
            json_array_append_new(weapons, json_pack("{s:s, s:i, s:b}", "name", str_of(v, "name"),
                                                     "bonus", int_of(v, "bonus"), "blunt",
                                                     json_is_true(json_object_get(v, "blunt"))));
    }
    json_object_set_new(st, "abilities", ab);
    json_object_set_new(st, "skills", sk);
    json_object_set_new(st, "armour", json_integer(armour));
    json_object_set_new(st, "weapons", weapons);
    if (stat_true(e, cid, "wounded"))
        rules_enc_cond_add(e, cid, "wounded", 0, 0);
}

/* Files a throw's dice and numbers (throw_json) in x for aud: rolled by an NPC, they are the
 * GM's (the shared audience entry of rules/encounter.h). */
static void log_throw(rules_enc_entry *x, rules_aud aud, const cot_throw *t)
{
    json_t *d = throw_dice(t);
    rules_enc_entry_dice(x, aud, d);
    json_decref(d);
    rules_enc_entry_merge(x, aud, throw_json(t));
}

/*
 * Logs the roll of a turn action. `head` says who does what ("Tommy takes slot 16 and attacks
 * Cole (Hand to Hand, fists)"), `tail` the outcome everyone sees. `pub` (stolen) is the public
 * result; `secret` (stolen, may be NULL) the target's numbers (Cover, Training) with `detail`, a
 * line about them. The actor's dice and pool are public for a PC and the GM's for an NPC; the
 * target's numbers are public for a PC target and the GM's for an NPC target.
 */
static void log_action(rules_enc *e, const char *action, const cot_throw *t, const char *target,
                       json_t *pub, json_t *secret, const char *head, const char *tail,
                       const char *detail)
{
    rules_aud mine = rules_enc_aud_of(e, e->actor);
    rules_aud theirs = target ? rules_enc_aud_of(e, target) : RULES_AUD_PUBLIC;
    rules_enc_entry *x = rules_enc_entry_begin(e, action);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC, pub);
    log_throw(x, mine, t);
    rules_enc_entry_merge(x, theirs, secret);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s", head);
    rules_enc_entry_say(x, mine, ": %s", t->line);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s", tail);
    if (detail && theirs == RULES_AUD_GM)
        rules_enc_entry_say(x, RULES_AUD_GM, "; %s", detail);
    rules_enc_entry_end(x);
}

static int join_common(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    copy_sheet(e, cid, sheet);
    /* 000:31 "roll Initiative as a group": every member of a side rolls its Stage's pool;
     * 000:37 the totals, marked with the side, are the slots (RULES.md, cot encounters, reading 1).
     */
    const cot_stage *st = stage_find(str_of(e->enc, "stage"));
    if (!st)
        st = stage_find("heist");
    cot_throw t;
    int rc = throw_pool(e, cid, st->ability, st->skill, 0, &t, err);
    if (rc)
        return rc;
    const char *side = rules_enc_side(e, cid);
    slot_insert(e, t.r.total, side);
    /* 000:37 the slots are the table's: the number is open, the pool and dice are the roller's */
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_enc_entry *x = rules_enc_entry_begin(e, "initiative");
    log_throw(x, aud, &t);
    rules_enc_entry_say(x, aud, "%s rolls initiative (%s): %s: ", rules_enc_name(e, cid), st->pool,
                        t.line);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "a slot %d for the %s (000:37)", t.r.total, side);
    rules_enc_entry_end(x);
    return 0;
}

static int init_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    return join_common(e, cid, sheet, err);
}

/* 000:123 "everyone rolls Resist with any armour bonuses, and records the number as their
 * Cover Score": Muscle+Resist with the armour's bonus dice (RULES.md, cot, readings, 5). */
static int roll_cover(rules_enc *e, const char *cid, const char *action, const char *why,
                      tb_err *err)
{
    cot_throw t;
    int armour = rules_enc_stat(e, cid, "armour", 0);
    int rc = throw_pool(e, cid, "muscle", "resist", armour, &t, err);
    if (rc)
        return rc;
    rules_enc_stat_set(e, cid, "cover", t.r.total);
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_enc_entry *x = rules_enc_entry_begin(e, action);
    log_throw(x, aud, &t);
    rules_enc_entry_set(x, aud, "cover", json_integer(t.r.total));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s %s", rules_enc_name(e, cid), why);
    rules_enc_entry_say(x, aud, ": Resist %s: Cover %d", t.line, t.r.total);
    rules_enc_entry_end(x);
    return 0;
}

static int war_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int rc = join_common(e, cid, sheet, err);
    return rc ? rc : roll_cover(e, cid, "cover", "takes cover (000:123)", err);
}

/* ---- actions every cot module has ---- */

static int act_begin(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (rules_enc_round(e) != 0)
        return rules_enc_rule(err, "round %d is under way; rounds follow on by themselves",
                              rules_enc_round(e));
    if (json_array_size(slots(e)) == 0)
        return rules_enc_rule(err, "there are no slots yet: add the combatants first (enc.add)");
    rules_enc_begin_round(e);
    char list[400] = "";
    size_t len = 0, i;
    json_t *s;
    json_array_foreach(slots(e), i, s) if (len < sizeof list) len +=
        (size_t)snprintf(list + len, sizeof list - len, "%s%d (%s)", i ? ", " : "",
                         int_of(s, "total"), str_of(s, "side"));
    rules_enc_log(e, "begin", NULL, NULL, "Round 1 begins; the slots, highest first: %s (000:37)",
                  list);
    slot_settle(e, 0);
    return 0;
}

static int act_skip(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    json_t *s = current_slot(e);
    if (!s)
        return rules_enc_rule(err, "no slot is up now");
    rules_enc_log(e, "skip", NULL, NULL, "The GM passes %s (%s)", name_of(s).s, str_of(s, "side"));
    slot_settle(e, 1);
    return 0;
}

static int act_claim(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    json_t *s = current_slot(e);
    if (claimer(s))
        return rules_enc_rule(err, "%s has already claimed %s: take an action",
                              rules_enc_name(e, e->actor), name_of(s).s);
    take_slot(e);
    rules_enc_log(e, "claim", NULL, NULL, "%s claims %s for the %s (000:38)",
                  rules_enc_name(e, e->actor), name_of(s).s, str_of(s, "side"));
    return 0;
}

static int act_wait(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    slot_name sn;
    int rc = turn_open(e, 0, &sn, err);
    if (rc)
        return rc;
    /* 000:28 "Wait: Skip your turn with no additional effects." */
    rules_enc_log(e, "wait", NULL, NULL, "%s takes %s and waits (000:28)",
                  rules_enc_name(e, e->actor), sn.s);
    turn_close(e, 0);
    return 0;
}

static int act_bolster(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    int rc = target_in(e, t, 1, err);
    slot_name sn;
    if (rc || (rc = turn_open(e, 0, &sn, err)))
        return rc;
    /* 000:27 "Skip your turn, but add +1k0 to the next roll a character of your choice make":
     * skipping the turn is not a roll, so the actor's own Bolster lapses first. Bolsters on one
     * character add up (RULES.md, cot encounters, reading 4). */
    bolster_lapse(e, e->actor);
    json_t *b = rules_enc_cond(e, t, "bolstered");
    int level = (b ? int_of(b, "level") : 0) + 1;
    rules_enc_cond_add(e, t, "bolstered", 0, level);
    rules_enc_log(e, "bolster", NULL, json_pack("{s:s, s:i}", "target", t, "bonus", level),
                  "%s takes %s to Bolster %s: +%dk0 on %s's next roll, lost unless rolled on "
                  "their next turn (000:27)",
                  rules_enc_name(e, e->actor), sn.s, rules_enc_name(e, t), level,
                  rules_enc_name(e, t));
    turn_close(e, 1);
    return 0;
}

static int act_focus(rules_enc *e, const rules_args *a, tb_err *err)
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
    if (stat_true(e, cid, "focus_used"))
        return rules_enc_rule(err,
                              "%s has already taken a Focus Round this session (000:40); "
                              "the GM clears focus_used on the sheet for a new session",
                              name);
    if (focus(e))
        return rules_enc_rule(err, "%s's Focus Round is under way this round",
                              rules_enc_name(e, str_of(focus(e), "by")));
    int round = rules_enc_round(e) < 1 ? 1 : rules_enc_round(e);
    json_object_set_new(e->enc, "focus",
                        json_pack("{s:s, s:i, s:[]}", "by", cid, "round", round, "given"));
    json_object_set_new(rules_enc_stats(e, cid), "focus_used", json_true());
    rules_enc_log(e, "focus", NULL, NULL,
                  "%s takes a Focus Round (round %d): crewmates may give %s their slots (give) "
                  "(000:40)",
                  name, round, name);
    return 0;
}

static int act_give(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    json_t *f = focus(e);
    const char *cid = e->actor, *name = rules_enc_name(e, cid);
    if (!f)
        return rules_enc_rule(err, "no Focus Round is under way: a crewmate declares one first "
                                   "(focus)");
    const char *by = str_of(f, "by");
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
    if (in_array(json_object_get(f, "given"), cid))
        return rules_enc_rule(err, "%s has already given this round's slot", name);
    if (json_array_size(claims(e, cid)) > 0)
        return rules_enc_rule(err, "%s has already taken a slot this round (000:38)", name);
    if (rules_enc_is_out(e, cid))
        return rules_enc_rule(err, "%s is out of the fight", name);
    if (!json_is_array(json_object_get(f, "given")))
        json_object_set_new(f, "given", json_array());
    json_array_append_new(json_object_get(f, "given"), json_string(cid));
    rules_enc_log(e, "give", NULL, NULL,
                  "%s gives this round's slot to %s's Focus Round: %s may take %d slots (000:40)",
                  name, rules_enc_name(e, by), rules_enc_name(e, by), claim_limit(e, by));
    return 0;
}

static int act_roll(rules_enc *e, const rules_args *a, tb_err *err)
{
    const cot_skill *sk = skill_find(rules_arg_str(a, "skill"));
    if (!sk)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act roll: 'skill' must be a skill of the sheet "
                       "(lockpicking, sneak, ...: 000:44-96)");
    slot_name sn;
    cot_throw t;
    int rc = turn_open(e, 0, &sn, err);
    if (rc ||
        (rc = throw_pool(e, e->actor, sk->ability, sk->id, rules_arg_int(a, "bonus"), &t, err)))
        return rc;
    int diff = rules_arg_int(a, "difficulty"); /* 9 unless the GM says otherwise: 000:13 */
    int ok = cot_roll_succeeds(&t.r, diff);
    json_t *res = json_pack("{s:s, s:i, s:b}", "skill", sk->id, "difficulty", diff, "success", ok);
    char head[160], tail[80];
    snprintf(head, sizeof head, "%s takes %s and rolls %s", rules_enc_name(e, e->actor), sn.s,
             sk->label);
    snprintf(tail, sizeof tail, "%s vs %d (000:9)",
             t.r.catastrophe ? "Catastrophe"
             : ok            ? "success"
                             : "failure",
             diff);
    log_action(e, "roll", &t, NULL, res, NULL, head, tail, NULL);
    turn_close(e, 1);
    return 0;
}

/* ---- Getting the Drop (000:101-119) ---- */

static json_t *weapon_of(rules_enc *e, const char *cid, const char *name)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(rules_enc_stats(e, cid), "weapons"), i,
                       w) if (rules_enc_streq(str_of(w, "name"), name)) return w;
    return NULL;
}

/* The skill and weapon of an attack: `skills` lists the skills allowed. */
static int attack_gear(rules_enc *e, const rules_args *a, const char *const *skills,
                       const cot_skill **sk, json_t **weapon, tb_err *err)
{
    const char *s = rules_arg_str(a, "skill");
    if (!s)
        s = "hand_to_hand";
    *sk = NULL;
    for (const char *const *x = skills; *x; x++)
        if (strcmp(*x, s) == 0)
            *sk = skill_find(s);
    if (!*sk) {
        char list[120] = "";
        size_t len = 0;
        for (const char *const *x = skills; *x && len < sizeof list; x++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", *x);
        return tb_fail(err, TB_BAD_REQUEST, "skill: '%.32s' cannot be used for this (%s)", s, list);
    }
    const char *wn = rules_arg_str(a, "weapon");
    *weapon = wn ? weapon_of(e, e->actor, wn) : NULL;
    if (wn && !*weapon)
        return tb_fail(err, TB_BAD_REQUEST, "weapon: %s has no weapon named '%.40s' on the sheet",
                       rules_enc_name(e, e->actor), wn);
    /* 000:131 "Shooting and Explosives require specific gear to use in combat." */
    if (!*weapon && (strcmp(s, "shooting") == 0 || strcmp(s, "explosives") == 0))
        return rules_enc_rule(err, "%s needs a weapon (000:131)", (*sk)->label);
    return 0;
}

/* Marks every ally of t (its side, still in the fight) Aware (000:119). */
static void alert_allies(rules_enc *e, const char *t)
{
    const char *cid, *side = rules_enc_side(e, t);
    int n = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (!rules_enc_streq(cid, t) && rules_enc_streq(rules_enc_side(e, cid), side) &&
            !rules_enc_is_out(e, cid) && !rules_enc_cond_has(e, cid, "aware")) {
            rules_enc_cond_add(e, cid, "aware", 0, 0);
            n++;
        }
    if (n)
        rules_enc_log(e, "aware", NULL, NULL, "%s's allies (the %s) are Aware now (000:119)",
                      rules_enc_name(e, t), side);
}

static void make_wounded(rules_enc *e, const char *t, int days)
{
    rules_enc_cond_add(e, t, "wounded", 0, 0);
    json_object_set_new(rules_enc_stats(e, t), "wounded", json_true());
    if (days >= 0)
        rules_enc_stat_set(e, t, "recovery_days", days);
}

static int act_drop(rules_enc *e, const rules_args *a, tb_err *err)
{
    static const char *const DROP_SKILLS[] = {"hand_to_hand", "shooting", "explosives", NULL};
    const char *t = rules_arg_str(a, "target"), *tn = rules_enc_name(e, t);
    const cot_skill *sk;
    json_t *weapon;
    slot_name sn;
    int rc = target_in(e, t, 0, err);
    if (rc || (rc = attack_gear(e, a, DROP_SKILLS, &sk, &weapon, err)))
        return rc;
    /* 000:102 "If your target is unaware that you are in the same zone as them" */
    if (rules_enc_cond_has(e, t, "aware"))
        return rules_enc_rule(err,
                              "%s is Aware: getting the Drop needs an unaware target "
                              "(000:102)",
                              tn);
    if ((rc = turn_open(e, 0, &sn, err)))
        return rc;
    /* 000:102 "If attacking with fists or a weapon with the Blunt tag, then this is a Subdue
     * roll. If attacking with another weapon, then this is a Murder roll. In either case, add
     * the bonus from any wielded weapon." */
    int subdue = !weapon || json_is_true(json_object_get(weapon, "blunt"));
    int wbonus = weapon ? int_of(weapon, "bonus") : 0;
    cot_throw th;
    if ((rc = throw_pool(e, e->actor, "muscle", sk->id, wbonus + rules_arg_int(a, "bonus"), &th,
                         err)))
        return rc;
    /* 000:102 "versus the opponent's Training Score"; 000:198 Training from Muscle+Resist, the
     * score of 000:196 */
    int muscle = ability_of(e, t, "muscle");
    int training = cot_guard_score(muscle + skill_of(e, t, "resist"), muscle);
    int ok = cot_roll_succeeds(&th.r, training), by = th.r.total - training;
    const char *outcome;
    int aware = 0;
    if (!ok) {
        outcome = "Aware"; /* 000:107, 000:113 "Attacker Fails: Target is Aware" */
        aware = 1;
    } else if (subdue && by >= 6) {
        outcome = "Unconscious"; /* 000:110 */
        rules_enc_set_out(e, t, "unconscious");
    } else if (by >= 3) {
        outcome = "Dead"; /* 000:109, 000:115 */
        rules_enc_set_out(e, t, "dead");
    } else if (subdue) {
        outcome = "Aware but Unconscious"; /* 000:108 */
        aware = 1;
        rules_enc_set_out(e, t, "unconscious");
    } else if (stat_true(e, t, "wounded") || rules_enc_cond_has(e, t, "wounded")) {
        /* 000:114 "Wounded and Aware" on a target already Wounded: a second wound kills, as
         * 000:136 "If the target is already wounded and their Cover Score drops to 0, they are
         * Dead" (RULES.md, cot encounters, reading 6) */
        outcome = "Dead";
        rules_enc_set_out(e, t, "dead");
    } else {
        outcome = "Wounded and Aware"; /* 000:114 */
        aware = 1;
        make_wounded(e, t, -1);
    }
    if (aware) {
        rules_enc_cond_add(e, t, "aware", 0, 0);
        /* 000:117 "If the target is Conscious and Aware they may attempt to Flee, ... Call for
         * Help, ... or they could Square Up": the target's choice waits (action `react`) */
        if (!rules_enc_is_out(e, t))
            json_object_set_new(rules_enc_combatant(e, t), "drop_choice", json_string("pending"));
    }
    json_t *res = json_pack("{s:s, s:s, s:s}", "roll", subdue ? "subdue" : "murder", "target", t,
                            "outcome", outcome);
    char head[240], tail[80], detail[120];
    snprintf(head, sizeof head, "%s takes %s and gets the Drop on %s (%s roll, %s, %s)",
             rules_enc_name(e, e->actor), sn.s, tn, subdue ? "Subdue" : "Murder", sk->label,
             weapon ? str_of(weapon, "name") : "fists");
    snprintf(tail, sizeof tail, "%s (000:106-115)", outcome);
    snprintf(detail, sizeof detail, "%s's Training %d: the roll %s by %d", tn, training,
             ok ? "succeeds" : "fails", ok ? by : -by);
    /* the Training Score is the target's number (000:196-198) */
    log_action(e, "drop", &th, t, res,
               json_pack("{s:i, s:i, s:b}", "training", training, "margin", by, "success", ok),
               head, tail, detail);
    /* 000:119 "When getting the Drop on multiple people, any result where the target is Aware
     * or made with a firearm will also make the target's allies Aware": only a Drop on several
     * people at once (`several`); a lone target's allies learn nothing */
    if (rules_arg_int(a, "several") && (aware || strcmp(sk->id, "shooting") == 0))
        alert_allies(e, t);
    turn_close(e, 1);
    return 0;
}

/* The choices of a Conscious and Aware target after a Drop (000:117). */
static const char *const DROP_CHOICES[][2] = {
    {"flee", "tries to Flee"},
    {"call_for_help", "calls for help: the guards' Awareness rises"},
    {"square_up", "squares up to fight"},
};

/*
 * The target of a Drop who is Conscious and Aware makes its choice (000:117): Flee, Call for
 * Help or Square Up. Refused unless a Drop left that choice pending. The choice is kept on the
 * combatant (`drop_choice`) for what follows: a Chase (000:126, the chases issue), the guards'
 * Awareness (000:174-200), Gang Warfare (000:121). Rolls no die.
 */
static int act_react(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *c = rules_arg_str(a, "choice"), *name = rules_enc_name(e, e->actor);
    json_t *me = rules_enc_combatant(e, e->actor);
    size_t i, n = sizeof DROP_CHOICES / sizeof DROP_CHOICES[0];
    for (i = 0; i < n && strcmp(DROP_CHOICES[i][0], c) != 0; i++)
        ;
    if (i == n)
        return tb_fail(err, TB_BAD_REQUEST,
                       "choice: '%.32s' is not one of flee, call_for_help, square_up", c);
    if (strcmp(str_of(me, "drop_choice") ? str_of(me, "drop_choice") : "", "pending") != 0)
        return rules_enc_rule(err,
                              "%s has no choice to make: only a target left conscious and aware "
                              "by getting the Drop chooses to flee, call for help or square up",
                              name);
    json_object_set_new(me, "drop_choice", json_string(c));
    rules_enc_log(e, "react", NULL, json_pack("{s:s}", "choice", c), "%s %s", name,
                  DROP_CHOICES[i][1]);
    return 0;
}

static int act_alert(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    int aware = rules_arg_int(a, "aware");
    if (aware)
        rules_enc_cond_add(e, t, "aware", 0, 0);
    else
        rules_enc_cond_remove(e, t, "aware");
    rules_enc_log(e, "alert", NULL, NULL, "The GM marks %s %s (000:117)", rules_enc_name(e, t),
                  aware ? "Aware" : "unaware");
    return 0;
}

/* ---- Gang Warfare (000:121-136) ---- */

/* Cover loss of one Attack that is not a Catastrophe (000:134-136); fills what happened. */
typedef struct harm {
    int before, damage, after, days;
    const char *outcome; /* "cover", "wounded", "dead" */
} harm;

static harm apply_harm(rules_enc *e, const char *t, int total)
{
    harm h = {rules_enc_stat(e, t, "cover", 0), 0, 0, -1, "cover"};
    /* 000:134 "reduces the target's Cover Score by 1. Exceeding the target's Cover Score
     * reduces the value by however much the Attack exceeded the Score." (RULES.md, cot encounters,
     * reading 5) */
    h.damage = total > h.before ? total - h.before : 1;
    int left = h.before - h.damage;
    if (left > 0) {
        h.after = left;
        rules_enc_stat_set(e, t, "cover", left);
        return h;
    }
    h.after = 0;
    rules_enc_stat_set(e, t, "cover", 0);
    if (stat_true(e, t, "wounded") || rules_enc_cond_has(e, t, "wounded")) {
        /* 000:136 "If the target is already wounded and their Cover Score drops to 0, they are
         * Dead." */
        h.outcome = "dead";
        rules_enc_set_out(e, t, "dead");
        rules_enc_cond_remove(e, t, "restrained");
        return h;
    }
    /* 000:135 "they become wounded and any leftover damage is the number of days until they
     * recover" */
    h.outcome = "wounded";
    h.days = -left;
    make_wounded(e, t, h.days);
    return h;
}

static int act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    static const char *const ATTACK_SKILLS[] = {"hand_to_hand", "shooting", "explosives", "driving",
                                                NULL};
    const char *t = rules_arg_str(a, "target"), *tn = rules_enc_name(e, t);
    const cot_skill *sk;
    json_t *weapon;
    slot_name sn;
    int restrain = rules_arg_int(a, "restrain");
    int rc = target_in(e, t, 0, err);
    if (rc || (rc = attack_gear(e, a, ATTACK_SKILLS, &sk, &weapon, err)))
        return rc;
    /* 000:133 "If the character is using the Hand to Hand skill and successfully hits, they can
     * choose to Restrain." */
    if (restrain && strcmp(sk->id, "hand_to_hand") != 0)
        return rules_enc_rule(err, "only a Hand to Hand attack can Restrain (000:133)");
    if ((rc = turn_open(e, 0, &sn, err)))
        return rc;
    /* 000:130 "The aggressor rolls Muscle+the relevant skill with their opponent's Cover Score as
     * the difficulty"; 000:131 in a vehicle Fingers+Driving. */
    cot_throw th;
    int wbonus = weapon ? int_of(weapon, "bonus") : 0;
    if ((rc = throw_pool(e, e->actor, sk->ability, sk->id, wbonus + rules_arg_int(a, "bonus"), &th,
                         err)))
        return rc;
    int cover = rules_enc_stat(e, t, "cover", 0);
    int hit = cot_roll_succeeds(&th.r, cover);
    harm h = {cover, 0, cover, -1, "catastrophe"};
    if (!th.r.catastrophe) /* 000:134 "Any Attack in which the aggressor's roll is not a
                              Catastrophe reduces the target's Cover Score by 1" */
        h = apply_harm(e, t, th.r.total);
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
             sn.s, tn, sk->label, weapon ? str_of(weapon, "name") : "bare hands");
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
    log_action(e, "attack", &th, t, res, cres, head, tail, detail);
    turn_close(e, 1);
    return 0;
}

static int not_restrained(rules_enc *e, const char *what, tb_err *err)
{
    json_t *r = rules_enc_cond(e, e->actor, "restrained");
    if (!r)
        return 0;
    return rules_enc_rule(err,
                          "%s is Restrained by %s: a Restrained character cannot %s "
                          "(000:133)",
                          rules_enc_name(e, e->actor), rules_enc_name(e, str_of(r, "by")), what);
}

static int act_reposition(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    slot_name sn;
    int rc = not_restrained(e, "Reposition", err);
    if (rc || (rc = turn_open(e, 0, &sn, err)))
        return rc;
    /* 000:128 "allows a character to re-roll their Cover Score" */
    char why[80];
    snprintf(why, sizeof why, "takes %s and repositions (000:128)", sn.s);
    if ((rc = roll_cover(e, e->actor, "reposition", why, err)))
        return rc;
    turn_close(e, 1);
    return 0;
}

static int act_flee(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    slot_name sn;
    int rc = not_restrained(e, "Flee", err);
    if (rc || (rc = turn_open(e, 1, &sn, err)))
        return rc;
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
    turn_close(e, 0);
    return 0;
}

static int act_break_free(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *me = e->actor, *name = rules_enc_name(e, me);
    json_t *r = rules_enc_cond(e, me, "restrained");
    if (!r)
        return rules_enc_rule(err, "%s is not Restrained", name);
    /* a copy: removing the condition frees the string */
    char by_id[40];
    snprintf(by_id, sizeof by_id, "%s", str_of(r, "by") ? str_of(r, "by") : "");
    const char *by = by_id[0] ? by_id : NULL;
    slot_name sn;
    int rc = turn_open(e, 0, &sn, err);
    if (rc)
        return rc;
    if (!by || !rules_enc_combatant(e, by) || rules_enc_is_out(e, by)) {
        rules_enc_cond_remove(e, me, "restrained");
        rules_enc_log(e, "break_free", NULL, NULL,
                      "%s takes %s and slips free: nobody holds them any more", name, sn.s);
        turn_close(e, 0);
        return 0;
    }
    char holder[64];
    snprintf(holder, sizeof holder, "%s", rules_enc_name(e, by));
    /* 000:133 "the two characters may roll opposed Muscle+ Athletics"; 000:13 the opponent rolls
     * first and sets the difficulty. */
    cot_throw opp, mine;
    if ((rc = throw_pool(e, by, "muscle", "athletics", 0, &opp, err)) ||
        (rc = throw_pool(e, me, "muscle", "athletics", 0, &mine, err)))
        return rc;
    int ok = cot_roll_succeeds(&mine.r, opp.r.total);
    if (ok)
        rules_enc_cond_remove(e, me, "restrained");
    /* each roll is its roller's: an NPC's pool, dice and total (the difficulty it sets) are the
     * GM's; the table sees who breaks free */
    rules_aud theirs = rules_enc_aud_of(e, by), mine_aud = rules_enc_aud_of(e, me);
    rules_enc_entry *x = rules_enc_entry_begin(e, "hold");
    log_throw(x, theirs, &opp);
    rules_enc_entry_say(x, theirs, "%s holds on: Muscle+Athletics %s", holder, opp.line);
    rules_enc_entry_end(x);
    x = rules_enc_entry_begin(e, "break_free");
    log_throw(x, mine_aud, &mine);
    rules_enc_entry_set(x, theirs, "difficulty", json_integer(opp.r.total));
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "success", json_boolean(ok));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s takes %s and tries to break free of %s", name,
                        sn.s, holder);
    rules_enc_entry_say(x, mine_aud, ": Muscle+Athletics %s", mine.line);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s (000:133)", ok ? "free" : "still Restrained");
    rules_enc_entry_end(x);
    turn_close(e, 1);
    return 0;
}

/* ---- Social Calls (000:224-291): module cot.social ----
 *
 * WHERE WHAT LIVES (visibility is by path, DESIGN.md)
 *   /gm/enc/combatants/<cid>/loyalties  every combatant's Loyalties [{kind,target,prime}], copied
 *                                       at join (a PC's from /private/<seat>/sheets/<char>)
 *   /gm/enc/combatants/<cid>/identity   the true identity the GM set (`identity`)
 *   /enc/combatants/<cid>/presented     the presented identity (a disguise is one), public
 *   /enc/combatants/<cid>/emotion       {state, skill, positive, by, as}: the Build Up's state,
 *                                       public: the table plays it out (RULES.md reading 12)
 *   knowledge of one side:  a PC's seat: /private/<seat>/social/<cid>
 *                           the NPCs (seat "gm"): /gm/enc/known/<cid>
 *     = {identified: bool, identity?, presented_seen?, loyalties: {"<n>": text}, impedes?,
 *        agenda?: {text, by, alters?, achieved?, denied?}, tried?: what an opponent learnt}
 */

/* The Build Up skills and their positive/negative states (000:262-268). */
typedef struct social_skill {
    const char *skill, *positive, *negative;
    int follow; /* may Follow Through (000:271): all but Con */
} social_skill;

static const social_skill SOCIAL_SKILLS[] = {
    {"intimidate", "Fearful", "Angry", 1},        /* 000:264 */
    {"con", "Mark", "Wise", 0},                   /* 000:265 */
    {"impress", "Devoted", "Envious", 1},         /* 000:266 */
    {"manipulate", "Accepting", "Suspicious", 1}, /* 000:267 */
    {"convince", "Engaged", "Stubborn", 1},       /* 000:268 */
    {NULL, NULL, NULL, 0},
};

static const social_skill *social_skill_find(const char *id)
{
    for (const social_skill *s = SOCIAL_SKILLS; id && s->skill; s++)
        if (strcmp(s->skill, id) == 0)
            return s;
    return NULL;
}

static json_t *child(json_t *o, const char *key)
{
    json_t *c = json_object_get(o, key);
    if (!json_is_object(c)) {
        c = json_object();
        json_object_set_new(o, key, c);
    }
    return c;
}

/* The seat whose knowledge cid's learning is: its controller ("gm" for an NPC). */
static const char *seat_of(const rules_enc *e, const char *cid)
{
    const char *s = str_of(rules_enc_combatant(e, cid), "seat");
    return rules_enc_is_npc(e, cid) || !s ? "gm" : s;
}

/* What `seat` knows about combatant `about`: a player's seat under /private/<seat>/social, the
 * GM's side under /gm/enc/known (also without a /private: a unit test without one). Created when
 * `create`, else NULL when nothing is known yet. */
static json_t *known_at(rules_enc *e, const char *seat, const char *about, int create)
{
    int player = strcmp(seat, "gm") != 0 && e->priv;
    if (!create) {
        json_t *root = player ? json_object_get(json_object_get(e->priv, seat), "social")
                              : json_object_get(e->hidden, "known");
        return json_object_get(root, about);
    }
    json_t *root = player ? child(child(e->priv, seat), "social") : child(e->hidden, "known");
    json_t *k = child(root, about);
    if (!json_is_object(json_object_get(k, "loyalties")))
        json_object_set_new(k, "loyalties", json_object());
    return k;
}

static json_t *known(rules_enc *e, const char *seat, const char *about)
{
    return known_at(e, seat, about, 1);
}

static int identified(rules_enc *e, const char *seat, const char *about)
{
    return json_is_true(json_object_get(known_at(e, seat, about, 0), "identified"));
}

static json_t *loyalties_of(rules_enc *e, const char *cid)
{
    return json_object_get(rules_enc_hidden_of(e, cid), "loyalties");
}

/* The agenda cid pushes, as its side knows it (its own seat's copy), or NULL. */
static json_t *agenda_of(rules_enc *e, const char *cid, const char *target)
{
    json_t *a = json_object_get(known_at(e, seat_of(e, cid), target, 0), "agenda");
    return json_is_object(a) && strcmp(str_of(a, "by"), cid) == 0 ? a : NULL;
}

/* Writes `key` = v (stolen) into the knowledge of every seat controlling a combatant of side
 * (and the GM's own copy, /gm/enc/known, which the GM reads anyway). */
static void side_learns(rules_enc *e, const char *side, const char *about, const char *key,
                        json_t *v)
{
    const char *cid;
    json_object_set(known(e, "gm", about), key, v);
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (strcmp(rules_enc_side(e, cid), side) == 0 && strcmp(seat_of(e, cid), "gm") != 0)
            json_object_set(known(e, seat_of(e, cid), about), key, v);
    json_decref(v);
}

static int social_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int rc = join_common(e, cid, sheet, err);
    if (rc)
        return rc;
    /* 000:227 Loyalties are the owner's and the GM's: a PC's live at
     * /private/<seat>/sheets/<char> (rules_system.sheet_private), an NPC's in its GM sheet */
    const json_t *loy = json_object_get(sheet, "loyalties");
    const char *ch = str_of(rules_enc_combatant(e, cid), "char");
    if (!rules_enc_is_npc(e, cid) && ch && e->priv) {
        json_t *ps = json_object_get(
            json_object_get(json_object_get(e->priv, seat_of(e, cid)), "sheets"), ch);
        if (json_is_array(json_object_get(ps, "loyalties")))
            loy = json_object_get(ps, "loyalties");
    }
    json_object_set_new(rules_enc_hidden_of(e, cid), "loyalties",
                        json_is_array(loy) ? json_deep_copy(loy) : json_array());
    /* a character presents as itself until the GM says otherwise (000:257 "presented identity") */
    json_object_set_new(rules_enc_combatant(e, cid), "presented",
                        json_string(rules_enc_name(e, cid)));
    return 0;
}

static int social_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)o;
    (void)err;
    /* 000:250 "To begin a Social Call, roll Initiative as outline in Chapter 1": It+Size Up */
    return start_stage(e, stage_find("social"));
}

/* GM: sets who a combatant presents as (a disguise, 000:257) and, GM-only, who it truly is. */
static int act_identity(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *pres = rules_arg_str(a, "presented"),
               *truth = rules_arg_str(a, "identity");
    if (!pres && !truth)
        return tb_fail(err, TB_BAD_REQUEST,
                       "say who %s presents as (presented), who they truly are (identity), or "
                       "both",
                       rules_enc_name(e, t));
    if (truth)
        json_object_set_new(rules_enc_hidden_of(e, t), "identity", json_string(truth));
    if (pres) {
        json_object_set_new(rules_enc_combatant(e, t), "presented", json_string(pres));
        rules_enc_log(e, "identity", NULL, NULL, "%s now presents as %s (000:257)",
                      rules_enc_name(e, t), pres);
    }
    return 0;
}

/* The +1k0 of Lean Onto (000:239): `lean_onto` = n, the actor's own Loyalty n (1-based), or
 * `lean_onto_target` = n, the target's Loyalty n the actor's side has learned, only in a social
 * call, never the Loyalty the agenda alters. Checked before any die. */
static int lean_onto(rules_enc *e, const rules_args *a, const char *t, int *bonus, tb_err *err)
{
    int own = rules_arg_int(a, "lean_onto"), theirs = rules_arg_int(a, "lean_onto_target");
    *bonus = 0;
    if (own) {
        if (!json_array_get(loyalties_of(e, e->actor), (size_t)own - 1))
            return rules_enc_rule(err, "%s has no Loyalty %d to Lean Onto (000:239)",
                                  rules_enc_name(e, e->actor), own);
        (*bonus)++;
    }
    if (theirs) {
        char key[8];
        snprintf(key, sizeof key, "%d", theirs);
        if (!json_object_get(json_object_get(known_at(e, seat_of(e, e->actor), t, 0), "loyalties"),
                             key))
            return rules_enc_rule(err,
                                  "%s does not know %s's Loyalty %d: a Read Room finds it first "
                                  "(000:253)",
                                  rules_enc_name(e, e->actor), rules_enc_name(e, t), theirs);
        json_t *ag = agenda_of(e, e->actor, t);
        if (ag && int_of(ag, "alters") == theirs)
            return rules_enc_rule(err, "the agenda alters that Loyalty: nobody Leans Onto the "
                                       "Loyalty they are trying to alter (000:239)");
        (*bonus)++;
    }
    return 0;
}

/* One opposed social roll: the target rolls first and sets the difficulty (000:13); the
 * target's dice are its side's. Returns 0 with *ok. */
static int social_throw(rules_enc *e, const char *t, const char *skill, const char *opp_skill,
                        int bonus, cot_throw *opp, cot_throw *mine, int *ok, tb_err *err)
{
    const cot_skill *sk = skill_find(skill);
    int rc = throw_pool(e, t, "it", opp_skill, 0, opp, err);
    if (rc || (rc = throw_pool(e, e->actor, sk->ability, sk->id, bonus, mine, err)))
        return rc;
    *ok = cot_roll_succeeds(&mine->r, opp->r.total);
    return 0;
}

static void log_social(rules_enc *e, const char *action, const char *t, const cot_throw *opp,
                       const cot_throw *mine, const char *opp_label, int ok, const char *head)
{
    rules_aud theirs = rules_enc_aud_of(e, t), aud = rules_enc_aud_of(e, e->actor);
    rules_enc_entry *x = rules_enc_entry_begin(e, action);
    log_throw(x, aud, mine);
    rules_enc_entry_set(x, theirs, "difficulty", json_integer(opp->r.total));
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "success", json_boolean(ok));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s", head);
    rules_enc_entry_say(x, aud, ": %s", mine->line);
    rules_enc_entry_say(x, theirs, " against %s's %s %s", rules_enc_name(e, t), opp_label,
                        opp->line);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s", ok ? "success" : "failure");
    rules_enc_entry_end(x);
}

static int social_target(rules_enc *e, const char *t, tb_err *err)
{
    int rc = target_in(e, t, 0, err);
    if (rc)
        return rc;
    if (strcmp(rules_enc_side(e, t), rules_enc_side(e, e->actor)) == 0)
        return rules_enc_rule(err,
                              "%s is on %s's side: a Social Call works on the other party "
                              "(000:248)",
                              rules_enc_name(e, t), rules_enc_name(e, e->actor));
    return 0;
}

/*
 * Read Room (000:252-255): Size Up vs the target's Size Up. `ask` = identity (the default while
 * the target is unidentified), loyalty (with `loyalty` = n: "a single Loyalty of your choice")
 * or impedes ("are there any Loyalties that would impede your current Agenda"). Who learns:
 *   identity, success: the actor's seat learns the target's identity;
 *   identity, failure: the actor's seat learns it all the same, the target's seat learns the
 *                      actor's presented identity (000:253);
 *   loyalty/impedes, success: the actor's seat learns the answer; the target learns nothing;
 *   loyalty/impedes, failure: the target's seat learns what the actor tried to uncover if it
 *                      knew the actor's identity, else the actor's presented identity (000:255).
 */
static int act_read_room(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *ask = rules_arg_str(a, "ask");
    const char *me = e->actor, *my_seat = seat_of(e, me), *their_seat = seat_of(e, t);
    int rc = social_target(e, t, err), n = rules_arg_int(a, "loyalty"), bonus;
    if (rc)
        return rc;
    int ided = identified(e, my_seat, t);
    if (!ask)
        ask = ided ? "loyalty" : "identity";
    int want_id = strcmp(ask, "identity") == 0, want_loy = strcmp(ask, "loyalty") == 0;
    if (!want_id && !want_loy && strcmp(ask, "impedes") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "ask: identity, loyalty or impedes");
    if (!want_id && !ided)
        return rules_enc_rule(err,
                              "%s has not identified %s yet: Read Room for the identity first "
                              "(000:253-254)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    if (want_loy && (n < 1 || n > 4))
        return tb_fail(err, TB_BAD_REQUEST, "loyalty: which Loyalty, 1 to 4 (000:227)");
    if (strcmp(ask, "impedes") == 0 && !agenda_of(e, me, t))
        return rules_enc_rule(err, "%s has no agenda against %s yet: set one first (agenda)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    if ((rc = lean_onto(e, a, t, &bonus, err)))
        return rc;
    slot_name sn;
    cot_throw opp, mine;
    int ok;
    if ((rc = turn_open(e, 0, &sn, err)) ||
        (rc = social_throw(e, t, "size_up", "size_up", bonus, &opp, &mine, &ok, err)))
        return rc;
    /* 000:255 "If the opponent it aware of your identity": identified, or it saw the presented
     * one on an earlier failure */
    json_t *theirs_k = known_at(e, their_seat, me, 0);
    int they_knew = identified(e, their_seat, me) || json_object_get(theirs_k, "presented_seen");
    const char *truth = str_of(rules_enc_hidden_of(e, t), "identity");
    char head[200];
    if (want_id) {
        /* 000:253 the aggressor learns the identity either way */
        json_t *mine_k = known(e, my_seat, t);
        json_object_set_new(mine_k, "identified", json_true());
        json_object_set_new(mine_k, "identity", json_string(truth ? truth : rules_enc_name(e, t)));
        if (!ok)
            json_object_set_new(known(e, their_seat, me), "presented_seen",
                                json_string(str_of(rules_enc_combatant(e, me), "presented")));
        snprintf(head, sizeof head, "%s takes %s and reads the room on %s", rules_enc_name(e, me),
                 sn.s, rules_enc_name(e, t));
    } else {
        json_t *loys = loyalties_of(e, t);
        if (ok && want_loy) {
            char key[8], text[240];
            json_t *l = json_array_get(loys, (size_t)n - 1);
            snprintf(key, sizeof key, "%d", n);
            if (l)
                cot_loyalty_text(l, text, sizeof text);
            json_object_set_new(json_object_get(known(e, my_seat, t), "loyalties"), key,
                                json_string(l ? text : "none"));
        } else if (ok) {
            /* 000:254 whether any Loyalty impedes the agenda: the GM judges it (`impedes` on
             * the agenda, set with enc.set or the `impedes` action) */
            json_t *ag = agenda_of(e, me, t);
            json_object_set(known(e, my_seat, t), "impedes",
                            json_object_get(ag, "impedes") ? json_object_get(ag, "impedes")
                                                           : json_false());
        } else if (they_knew) {
            json_object_set_new(known(e, their_seat, me), "tried",
                                json_pack("{s:s, s:s?, s:i}", "by", me, "ask", ask, "loyalty", n));
        } else {
            json_object_set_new(known(e, their_seat, me), "presented_seen",
                                json_string(str_of(rules_enc_combatant(e, me), "presented")));
        }
        snprintf(head, sizeof head, "%s takes %s and reads %s", rules_enc_name(e, me), sn.s,
                 rules_enc_name(e, t));
    }
    log_social(e, "read_room", t, &opp, &mine, "Size Up", ok, head);
    turn_close(e, 1);
    return 0;
}

/* Push Agenda, first step (000:258-260): the actor sets what it wants from the target, known to
 * its side and the GM; `alters` = n when the agenda alters the target's Loyalty n (000:230). No
 * roll and no slot: the rolls are the Build Up and the Follow Through. */
static int act_agenda(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    int rc = social_target(e, t, err), alters = rules_arg_int(a, "alters");
    if (rc)
        return rc;
    /* 000:257 "If your character know who their target is, you can then attempt to Push Agenda" */
    if (!identified(e, seat_of(e, me), t))
        return rules_enc_rule(err, "%s must know who %s is first: Read Room (000:257)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    json_t *ag = json_pack("{s:s, s:s}", "by", me, "text", rules_arg_str(a, "text"));
    if (alters)
        json_object_set_new(ag, "alters", json_integer(alters));
    side_learns(e, rules_enc_side(e, me), t, "agenda", ag);
    rules_enc_log(e, "agenda", NULL, NULL, "%s sets an agenda for %s (000:258)",
                  rules_enc_name(e, me), rules_enc_name(e, t));
    return 0;
}

/* The emotional state on t, or NULL. */
static json_t *emotion(const rules_enc *e, const char *t)
{
    json_t *m = json_object_get(rules_enc_combatant(e, t), "emotion");
    return json_is_object(m) ? m : NULL;
}

/* 000:261 "the character responsible for the Build Up that invoked that [negative] state
 * cannot Follow Through", unless its presented identity changed since. */
static int barred_by_negative(rules_enc *e, const char *t, tb_err *err)
{
    json_t *m = emotion(e, t);
    const char *pres = str_of(rules_enc_combatant(e, e->actor), "presented");
    if (m && !json_is_true(json_object_get(m, "positive")) &&
        strcmp(str_of(m, "by"), e->actor) == 0 && pres && str_of(m, "as") &&
        strcmp(pres, str_of(m, "as")) == 0)
        return rules_enc_rule(err,
                              "%s made %s %s: they cannot push again until they present as "
                              "someone else (000:261)",
                              rules_enc_name(e, e->actor), rules_enc_name(e, t),
                              str_of(m, "state"));
    return 0;
}

static void set_emotion(rules_enc *e, const char *t, const social_skill *s, int positive)
{
    json_object_set_new(rules_enc_combatant(e, t), "emotion",
                        json_pack("{s:s, s:s, s:b, s:s, s:s?}", "state",
                                  positive ? s->positive : s->negative, "skill", s->skill,
                                  "positive", positive, "by", e->actor, "as",
                                  str_of(rules_enc_combatant(e, e->actor), "presented")));
}

/* Build Up (000:260-268): a Social skill vs the target's Size Up: success sets the skill's
 * positive state, failure its negative one. Needs an agenda against the target. */
static int act_build_up(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    const social_skill *s = social_skill_find(rules_arg_str(a, "skill"));
    int rc = social_target(e, t, err), bonus;
    if (rc)
        return rc;
    if (!s)
        return tb_fail(err, TB_BAD_REQUEST,
                       "skill: intimidate, con, impress, manipulate or convince (000:262-268)");
    if (!agenda_of(e, me, t))
        return rules_enc_rule(err, "%s has no agenda against %s: set one first (000:258)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    if ((rc = barred_by_negative(e, t, err)) || (rc = lean_onto(e, a, t, &bonus, err)))
        return rc;
    slot_name sn;
    cot_throw opp, mine;
    int ok;
    if ((rc = turn_open(e, 0, &sn, err)) ||
        (rc = social_throw(e, t, s->skill, "size_up", bonus, &opp, &mine, &ok, err)))
        return rc;
    set_emotion(e, t, s, ok);
    char head[200];
    snprintf(head, sizeof head, "%s takes %s and builds up %s with %s", rules_enc_name(e, me), sn.s,
             rules_enc_name(e, t), skill_find(s->skill)->label);
    log_social(e, "build_up", t, &opp, &mine, "Size Up", ok, head);
    rules_enc_log(e, "emotion", NULL, NULL, "%s is %s (000:261)", rules_enc_name(e, t),
                  ok ? s->positive : s->negative);
    turn_close(e, 1);
    return 0;
}

/* Follow Through (000:270-271): Intimidate, Impress, Manipulate or Convince vs the target's
 * Read Room (It+Size Up): success achieves the agenda, failure turns the state to the skill's
 * negative. A Lean Into (lean_into) denies the agenda before any roll. */
static int act_follow_through(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    const social_skill *s = social_skill_find(rules_arg_str(a, "skill"));
    int rc = social_target(e, t, err), bonus;
    if (rc)
        return rc;
    if (!s || !s->follow)
        return tb_fail(err, TB_BAD_REQUEST,
                       "skill: intimidate, impress, manipulate or convince (000:271)");
    json_t *ag = agenda_of(e, me, t);
    if (!ag)
        return rules_enc_rule(err, "%s has no agenda against %s: set one first (000:258)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    if (json_is_true(json_object_get(ag, "denied")))
        return rules_enc_rule(err, "%s Leaned Into a Loyalty and denied this agenda (000:241)",
                              rules_enc_name(e, t));
    /* 000:270 "Follow Through on the Emotional State you, or another character created" */
    if (!emotion(e, t))
        return rules_enc_rule(err, "%s is in no emotional state yet: Build Up first (000:270)",
                              rules_enc_name(e, t));
    if ((rc = barred_by_negative(e, t, err)) || (rc = lean_onto(e, a, t, &bonus, err)))
        return rc;
    slot_name sn;
    cot_throw opp, mine;
    int ok;
    if ((rc = turn_open(e, 0, &sn, err)) ||
        (rc = social_throw(e, t, s->skill, "size_up", bonus, &opp, &mine, &ok, err)))
        return rc;
    if (ok) {
        json_t *done = json_deep_copy(ag);
        int alters = int_of(ag, "alters");
        json_object_set_new(done, "achieved", json_true());
        side_learns(e, rules_enc_side(e, me), t, "agenda", done); /* replaces ag */
        /* an achieved agenda that alters a PC's Loyalty: its player makes the change (act_alter),
         * so their seat learns which Loyalty, never the agenda's text */
        if (alters && strcmp(seat_of(e, t), "gm") != 0)
            json_object_set_new(known(e, seat_of(e, t), t), "alterable", json_integer(alters));
    } else {
        set_emotion(e, t, s, 0);
    }
    char head[200];
    snprintf(head, sizeof head, "%s takes %s and follows through on %s with %s",
             rules_enc_name(e, me), sn.s, rules_enc_name(e, t), skill_find(s->skill)->label);
    log_social(e, "follow_through", t, &opp, &mine, "Read Room", ok, head);
    if (ok)
        rules_enc_log(e, "achieved", NULL, NULL, "%s achieves the agenda (000:271)",
                      rules_enc_name(e, me));
    else
        rules_enc_log(e, "emotion", NULL, NULL, "%s is %s (000:271)", rules_enc_name(e, t),
                      s->negative);
    turn_close(e, 1);
    return 0;
}

/* Lean Into (000:241): the target (its controller, at any time) denies the agenda `by` pushes
 * against it by Leaning Into its Loyalty n, which the agenda goes against; never the Loyalty the
 * agenda alters ("The married woman could not Lean Into Devoted: Husband"). Whether the agenda
 * really goes against it is the GM's call at the table. */
static int act_lean_into(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *by = rules_arg_str(a, "target"), *me = e->actor;
    int n = rules_arg_int(a, "loyalty");
    json_t *ag = agenda_of(e, by, me);
    if (!ag)
        return rules_enc_rule(err, "%s pushes no agenda on %s (000:241)", rules_enc_name(e, by),
                              rules_enc_name(e, me));
    json_t *l = json_array_get(loyalties_of(e, me), (size_t)n - 1);
    if (!l)
        return rules_enc_rule(err, "%s has no Loyalty %d (000:241)", rules_enc_name(e, me), n);
    if (int_of(ag, "alters") == n)
        return rules_enc_rule(err,
                              "the agenda is altering that very Loyalty: %s can Lean Into "
                              "another that applies, not this one (000:241)",
                              rules_enc_name(e, me));
    json_t *denied = json_deep_copy(ag);
    json_object_set_new(denied, "denied", json_true());
    side_learns(e, rules_enc_side(e, by), me, "agenda", denied);
    rules_enc_log(e, "lean_into", NULL, NULL,
                  "%s Leans Into a Loyalty and denies %s's agenda "
                  "(000:241)",
                  rules_enc_name(e, me), rules_enc_name(e, by));
    return 0;
}

/* Forgets what every seat learned of Loyalty n of cid (after it changed): the learned text is
 * no longer true, and learning it again is a Read Room. */
static void forget_loyalty(rules_enc *e, const char *cid, int n)
{
    char key[8];
    snprintf(key, sizeof key, "%d", n);
    json_object_del(json_object_get(known_at(e, "gm", cid, 0), "loyalties"), key);
    const char *seat;
    json_t *mine;
    json_object_foreach(e->priv, seat, mine) json_object_del(
        json_object_get(json_object_get(json_object_get(mine, "social"), cid), "loyalties"), key);
}

/*
 * 000:237 "Loyalties may be manipulated by others during Social Calls, either changing the
 * regular Loyalties to something different, or switching one of their existing Loyalites with the
 * Prime Loyalty. Characters may only alter one Loyalty per Social Call." The actor's Loyalty n
 * becomes `to` ("Kind: Target"), or (`prime`) trades places with the Prime. A player alters it
 * when an agenda that alters that Loyalty was achieved against the character (000:271: its seat
 * then knows `alterable` = n about it, which the panel offers as Alter); the GM rules it at any
 * time. Once per character per call (/gm/enc/combatants/<cid>/altered). The change itself is
 * cot_loyalty_alter's (shared with the session's alteration, server/ops_session.c); it lands in
 * the character's private sheet; what other seats had learned of it is forgotten.
 */
static int act_alter(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *to = rules_arg_str(a, "to");
    int n = rules_arg_int(a, "loyalty"), prime = rules_arg_int(a, "prime"), was_prime, rc;
    json_t *h = rules_enc_hidden_of(e, me), *loy = loyalties_of(e, me);
    if (json_object_get(h, "altered"))
        return rules_enc_rule(err,
                              "%s already had a Loyalty altered in this Social Call: one per "
                              "call",
                              rules_enc_name(e, me));
    json_t *ag = json_object_get(known_at(e, "gm", me, 0), "agenda");
    json_t *mine = known_at(e, seat_of(e, me), me, 0);
    int achieved = (json_is_true(json_object_get(ag, "achieved")) && int_of(ag, "alters") == n) ||
                   int_of(mine, "alterable") == n;
    if (!e->is_gm && !achieved)
        return rules_enc_rule(err,
                              "%s's Loyalty %d changes when an agenda that alters it is achieved "
                              "(or when the GM rules it)",
                              rules_enc_name(e, me), n);
    if ((rc = cot_loyalty_alter(loy, n, to, prime, rules_enc_name(e, me), &was_prime, err)))
        return rc;
    if (was_prime)
        forget_loyalty(e, me, was_prime);
    forget_loyalty(e, me, n);
    json_object_del(mine, "alterable");
    json_object_set_new(h, "altered", json_integer(n));
    /* a PC's Loyalties live in its player's private sheet (000:227) */
    const char *ch = str_of(rules_enc_combatant(e, me), "char");
    json_t *ps = json_object_get(
        json_object_get(json_object_get(e->priv, seat_of(e, me)), "sheets"), ch ? ch : "");
    if (!rules_enc_is_npc(e, me) && json_is_object(ps))
        json_object_set_new(ps, "loyalties", json_deep_copy(loy));
    char txt[160];
    cot_loyalty_text(json_array_get(loy, (size_t)n - 1), txt, sizeof txt);
    rules_enc_log(e, "alter", NULL, NULL, "One of %s's Loyalties changes", rules_enc_name(e, me));
    rules_enc_log_gm(e, "alter", NULL, NULL, "%s's Loyalty %d is now %s", rules_enc_name(e, me), n,
                     txt);
    return 0;
}

/* The end of a Social Call: what each seat learned about this call's characters is forgotten
 * (/private/<seat>/social/<cid>; the GM's side's /gm/enc/known goes with /gm/enc): identities,
 * Loyalties and agendas are learned again in the next call, where they may have changed. */
static int social_end(rules_enc *e, tb_err *err)
{
    (void)err;
    const char *seat, *cid;
    json_t *mine;
    json_object_foreach(e->priv, seat, mine)
    {
        json_t *soc = json_object_get(mine, "social");
        if (!json_is_object(soc))
            continue;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
            json_object_del(soc, cid);
        if (json_object_size(soc) == 0)
            json_object_del(mine, "social");
    }
    return 0;
}

/* GM: whether a Loyalty of the target impedes the agenda `by` pushes (the answer a successful
 * Read Room "impedes" gives, 000:254): kept with the agenda, in every copy. */
static int act_impedes(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *by = rules_arg_str(a, "target"), *t = rules_arg_str(a, "target2");
    json_t *ag = agenda_of(e, by, t);
    if (!ag)
        return rules_enc_rule(err, "%s pushes no agenda on %s", rules_enc_name(e, by),
                              rules_enc_name(e, t));
    json_t *v = json_deep_copy(ag);
    json_object_set_new(v, "impedes", json_boolean(rules_arg_int(a, "impedes")));
    side_learns(e, rules_enc_side(e, by), t, "agenda", v);
    return 0;
}

/* ---- Chases (000:139-171) ----
 *
 * /enc/target_side names the Target group (000:147 "Each chase has one Target and every other
 * participant is considered a Pursuer"); /enc/cramped is set by Shake into a crowd (000:155).
 * Each Pursuer carries its own public `distance` to the Target (000:147, set from the GM's
 * initial Distance when it joins); a Pursuer that Boarded has the condition "boarded" and is
 * always at Distance 0 (000:163). Vehicles are set by the GM (`vehicle`): stats `vehicle`
 * (name), `driver`, `speed` (the Speed rating, 000:140), `body` (the vehicle's Body Score, on
 * its driver) and `ram_bonus` (the weapon bonus of a Ram, 000:167).
 */

static int is_target(rules_enc *e, const char *cid)
{
    const char *ts = str_of(e->enc, "target_side");
    return ts && strcmp(rules_enc_side(e, cid), ts) == 0;
}

static int in_vehicle(rules_enc *e, const char *cid)
{
    return str_of(rules_enc_stats(e, cid), "vehicle") != NULL;
}

/* 000:139-144: at Speed when the character has a Speed rating it can use (not cramped,
 * 000:142-143); otherwise at Muscles velocity. */
static int at_speed(rules_enc *e, const char *cid)
{
    return rules_enc_stat(e, cid, "speed", 0) > 0 &&
           !json_is_true(json_object_get(e->enc, "cramped"));
}

/* The Velocity Rating (000:157): the Speed rating at Speed; at Muscles velocity the Muscle
 * ability (RULES.md, cot chases, reading 2). */
static int velocity(rules_enc *e, const char *cid)
{
    return at_speed(e, cid) ? rules_enc_stat(e, cid, "speed", 0) : ability_of(e, cid, "muscle");
}

/* Rolls cid's chase pool (000:141-144): Speed+Driving at Speed, Fingers+Driving in a vehicle at
 * Muscles velocity, Muscle+Athletics on foot; `what` gets the pool's name. */
static int throw_chase(rules_enc *e, const char *cid, cot_throw *t, const char **what, tb_err *err)
{
    if (at_speed(e, cid)) {
        memset(t, 0, sizeof *t);
        cot_pool_spec spec = {skill_of(e, cid, "driving"), rules_enc_stat(e, cid, "speed", 0), 0,
                              0};
        int rc = cot_pool_roll(&spec, e->rng, &t->r, err);
        if (rc)
            return rc;
        throw_line(t);
        *what = "Speed+Driving";
        return 0;
    }
    if (in_vehicle(e, cid)) {
        *what = "Fingers+Driving";
        return throw_pool(e, cid, "fingers", "driving", 0, t, err);
    }
    *what = "Muscle+Athletics";
    return throw_pool(e, cid, "muscle", "athletics", 0, t, err);
}

static int chase_dist(rules_enc *e, const char *pursuer)
{
    if (rules_enc_cond_has(e, pursuer, "boarded"))
        return 0; /* 000:163 "always considered to be at Distance 0" */
    return int_of(rules_enc_combatant(e, pursuer), "distance");
}

static void chase_dist_set(rules_enc *e, const char *pursuer, int d)
{
    json_object_set_new(rules_enc_combatant(e, pursuer), "distance", json_integer(d < 0 ? 0 : d));
}

/* Fails unless the actor is of the group (target 1: the Target, 0: a Pursuer). */
static int chase_role(rules_enc *e, int target, const char *what, tb_err *err)
{
    if (is_target(e, e->actor) == target)
        return 0;
    return rules_enc_rule(err, "only %s may %s (000:%s)", target ? "the Target" : "a Pursuer", what,
                          target ? "149" : "159");
}

/* "If in a vehicle, only the driver may ..." (000:153, 000:155, 000:169, 000:171). */
static int chase_driver(rules_enc *e, const char *cid, const char *what, tb_err *err)
{
    if (!in_vehicle(e, cid) || stat_true(e, cid, "driver"))
        return 0;
    return rules_enc_rule(err,
                          "%s is a passenger: in a vehicle only the driver may %s "
                          "(000:153-171)",
                          rules_enc_name(e, cid), what);
}

/* A Pursuer that can still Close (000:153 "each group able to Close rolls"). */
static int can_close(rules_enc *e, const char *cid)
{
    return !is_target(e, cid) && !rules_enc_is_out(e, cid) &&
           (!in_vehicle(e, cid) || stat_true(e, cid, "driver"));
}

static int chase_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    const char *id = rules_arg_str(o, "stage");
    if (!id)
        id = "foot_chase";
    if (strcmp(id, "foot_chase") != 0 && strcmp(id, "vehicle_chase") != 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.start cot.chase: 'stage' must be foot_chase or vehicle_chase "
                       "(000:35-36)");
    start_stage(e, stage_find(id));
    /* 000:146 "The GM then sets an initial Distance." */
    json_object_set_new(e->enc, "distance", json_integer(rules_arg_int(o, "distance")));
    json_object_set_new(e->enc, "target_side", json_string(rules_arg_str(o, "target_side")));
    json_object_set_new(e->enc, "cramped", json_false());
    return 0;
}

/* 000:146 "the sides rolling initiative ... Participants roll Resist with any armour bonuses,
 * and records the number as their Cover Score." */
static int chase_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int rc = join_common(e, cid, sheet, err);
    if (rc || (rc = roll_cover(e, cid, "cover", "takes cover (000:146)", err)))
        return rc;
    if (!is_target(e, cid))
        chase_dist_set(e, cid, int_of(e->enc, "distance"));
    return 0;
}

/* The GM puts a combatant in a vehicle (000:140 "Vehicles have a set Speed rating"). */
static int act_vehicle(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    json_t *st = rules_enc_stats(e, t);
    json_object_set_new(st, "vehicle", json_string(rules_arg_str(a, "vehicle")));
    json_object_set_new(st, "driver", json_boolean(rules_arg_int(a, "driver")));
    rules_enc_stat_set(e, t, "speed", rules_arg_int(a, "speed"));
    if (rules_arg_int(a, "driver")) {
        rules_enc_stat_set(e, t, "body", rules_arg_int(a, "body"));
        rules_enc_stat_set(e, t, "ram_bonus", rules_arg_int(a, "ram_bonus"));
    }
    rules_enc_log(e, "vehicle", NULL, NULL, "%s rides in the %s%s", rules_enc_name(e, t),
                  rules_arg_str(a, "vehicle"), rules_arg_int(a, "driver") ? " as its driver" : "");
    return 0;
}

/* The pursuer and target of an action between the two groups: the actor and `target`, one of
 * each group, in that order. */
static void chase_pair(rules_enc *e, const char *t, const char **pursuer, const char **target)
{
    int me_target = is_target(e, e->actor);
    *pursuer = me_target ? t : e->actor;
    *target = me_target ? e->actor : t;
}

/* An opposed roll (000:13: the opponent rolls first and sets the difficulty): `opp` rolls its
 * chase pool, then the actor; logs both and returns 1 when the actor succeeds (0 fails, <0 an
 * error). `head` says what the actor does. */
static int chase_opposed(rules_enc *e, const char *opp, const char *action, const char *head,
                         const char *cite, tb_err *err)
{
    cot_throw o, m;
    const char *ow, *mw;
    int rc = throw_chase(e, opp, &o, &ow, err);
    if (rc || (rc = throw_chase(e, e->actor, &m, &mw, err)))
        return -rc;
    int ok = cot_roll_succeeds(&m.r, o.r.total);
    rules_aud oa = rules_enc_aud_of(e, opp), ma = rules_enc_aud_of(e, e->actor);
    rules_enc_entry *x = rules_enc_entry_begin(e, "oppose");
    log_throw(x, oa, &o);
    rules_enc_entry_say(x, oa, "%s opposes: %s %s", rules_enc_name(e, opp), ow, o.line);
    rules_enc_entry_end(x);
    x = rules_enc_entry_begin(e, action);
    log_throw(x, ma, &m);
    rules_enc_entry_set(x, oa, "difficulty", json_integer(o.r.total));
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "success", json_boolean(ok));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s", head);
    rules_enc_entry_say(x, ma, ": %s %s", mw, m.line);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s (%s)", ok ? "success" : "failure", cite);
    rules_enc_entry_end(x);
    return ok;
}

static int act_accelerate(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    slot_name sn;
    int rc = chase_role(e, 1, "Accelerate", err);
    if (rc || (rc = chase_driver(e, e->actor, "Accelerate", err)) ||
        (rc = turn_open(e, 0, &sn, err)))
        return rc;
    /* 000:153 "an opposed roll versus their Pursuers and if successful, increase the Distance
     * by 1. If there are multiple Pursuers, then each group able to Close rolls." */
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (!can_close(e, cid))
            continue;
        char head[160];
        snprintf(head, sizeof head, "%s takes %s and accelerates away from %s",
                 rules_enc_name(e, e->actor), sn.s, rules_enc_name(e, cid));
        int ok = chase_opposed(e, cid, "accelerate", head, "000:153", err);
        if (ok < 0)
            return -ok;
        if (ok)
            chase_dist_set(e, cid, chase_dist(e, cid) + 1);
    }
    turn_close(e, 1);
    return 0;
}

static int act_shake(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *how = rules_arg_str(a, "how"), *me = e->actor;
    if (!how)
        how = "crowd";
    int crowd = strcmp(how, "crowd") == 0, obstacle = strcmp(how, "obstacle") == 0,
        dislodge = strcmp(how, "dislodge") == 0;
    if (!crowd && !obstacle && !dislodge)
        return tb_fail(err, TB_BAD_REQUEST, "how: '%.20s' is not crowd, obstacle or dislodge", how);
    const char *t = rules_arg_str(a, "target");
    slot_name sn;
    int rc = chase_role(e, 1, "Shake", err);
    if (rc || (rc = chase_driver(e, me, "Shake", err)))
        return rc;
    if (obstacle && !rules_arg_given(a, "difficulty"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "difficulty: an obstacle needs the difficulty the Target sets (000:155)");
    if (dislodge && (!t || !rules_enc_cond_has(e, t, "boarded")))
        return rules_enc_rule(err, "only a Pursuer who Boarded can be dislodged (000:155)");
    if ((rc = turn_open(e, 0, &sn, err)))
        return rc;
    const char *name = rules_enc_name(e, me);
    if (crowd) {
        /* 000:155 "entering a crowded space. Participants in the chase then use the rules for
         * cramped conditions." */
        json_object_set_new(e->enc, "cramped", json_true());
        rules_enc_log(e, "shake", NULL, NULL,
                      "%s takes %s and heads into a crowd: everyone moves at Muscles velocity now "
                      "(000:142-144, 000:155)",
                      name, sn.s);
        turn_close(e, 0);
        return 0;
    }
    if (dislodge) {
        /* 000:155 "Fingers+ Driving versus the Pursuers Muscle+Athletics, if successful, the
         * Pursuer is thrown from the Vehicle." */
        cot_throw o, m;
        if ((rc = throw_pool(e, t, "muscle", "athletics", 0, &o, err)) ||
            (rc = throw_pool(e, me, "fingers", "driving", 0, &m, err)))
            return rc;
        int ok = cot_roll_succeeds(&m.r, o.r.total);
        rules_aud oa = rules_enc_aud_of(e, t), ma = rules_enc_aud_of(e, me);
        rules_enc_entry *x = rules_enc_entry_begin(e, "oppose");
        log_throw(x, oa, &o);
        rules_enc_entry_say(x, oa, "%s holds on: Muscle+Athletics %s", rules_enc_name(e, t),
                            o.line);
        rules_enc_entry_end(x);
        if (ok) {
            rules_enc_cond_remove(e, t, "boarded");
            rules_enc_set_out(e, t, "thrown off");
        }
        x = rules_enc_entry_begin(e, "shake");
        log_throw(x, ma, &m);
        rules_enc_entry_set(x, oa, "difficulty", json_integer(o.r.total));
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "success", json_boolean(ok));
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s takes %s and swerves to throw off %s", name,
                            sn.s, rules_enc_name(e, t));
        rules_enc_entry_say(x, ma, ": Fingers+Driving %s", m.line);
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s (000:155)",
                            ok ? "thrown from the vehicle" : "still on board");
        rules_enc_entry_end(x);
        turn_close(e, 1);
        return 0;
    }
    /* 000:155 "The Target sets a difficulty and rolls against it. Similarly, their Pursuers also
     * roll against it. If the Target is successful, increase the Distance by 1. If the Pursuers
     * are unsuccessful, increase the Distance by another 1." The difficulty is set openly. */
    int diff = rules_arg_int(a, "difficulty");
    cot_throw m;
    const char *mw;
    if ((rc = throw_chase(e, me, &m, &mw, err)))
        return rc;
    int ok = cot_roll_succeeds(&m.r, diff);
    rules_aud ma = rules_enc_aud_of(e, me);
    rules_enc_entry *x = rules_enc_entry_begin(e, "shake");
    log_throw(x, ma, &m);
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "difficulty", json_integer(diff));
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "success", json_boolean(ok));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s takes %s and takes on an obstacle of %d", name,
                        sn.s, diff);
    rules_enc_entry_say(x, ma, ": %s %s", mw, m.line);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s (000:155)", ok ? "over it" : "held up");
    rules_enc_entry_end(x);
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (!can_close(e, cid))
            continue;
        cot_throw p;
        const char *pw;
        if ((rc = throw_chase(e, cid, &p, &pw, err)))
            return rc;
        int pok = cot_roll_succeeds(&p.r, diff);
        int add = (ok ? 1 : 0) + (pok ? 0 : 1);
        chase_dist_set(e, cid, chase_dist(e, cid) + add);
        rules_aud pa = rules_enc_aud_of(e, cid);
        x = rules_enc_entry_begin(e, "obstacle");
        log_throw(x, pa, &p);
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "distance", json_integer(chase_dist(e, cid)));
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s tackles the obstacle", rules_enc_name(e, cid));
        rules_enc_entry_say(x, pa, ": %s %s", pw, p.line);
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s; Distance %d (000:155)",
                            pok ? "over it" : "held up", chase_dist(e, cid));
        rules_enc_entry_end(x);
    }
    turn_close(e, 1);
    return 0;
}

static int act_escape(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    slot_name sn;
    int rc = chase_role(e, 1, "Escape", err);
    /* 000:157 "must have distance from their pursuers equal to the fastest Pursuer's Velocity
     * Rating and be able to Accelerate" */
    if (rc || (rc = chase_driver(e, e->actor, "Accelerate, so only the driver may Escape", err)))
        return rc;
    int fastest = 0, nearest = -1;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (is_target(e, cid) || rules_enc_is_out(e, cid))
            continue;
        if (velocity(e, cid) > fastest)
            fastest = velocity(e, cid);
        if (nearest < 0 || chase_dist(e, cid) < nearest)
            nearest = chase_dist(e, cid);
    }
    if (nearest >= 0 && nearest < fastest)
        return rules_enc_rule(err,
                              "the nearest Pursuer is at Distance %d: escaping needs Distance %d, "
                              "the fastest Pursuer's Velocity (000:157)",
                              nearest, fastest);
    if ((rc = turn_open(e, 0, &sn, err)))
        return rc;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (is_target(e, cid) && !rules_enc_is_out(e, cid))
            rules_enc_set_out(e, cid, "escaped");
    rules_enc_log(e, "escape", NULL, NULL,
                  "%s takes %s and the %s escape: the chase is theirs (000:157)",
                  rules_enc_name(e, e->actor), sn.s, str_of(e->enc, "target_side"));
    turn_close(e, 0);
    return 0;
}

static int target_is_target(rules_enc *e, const char *t, const char *what, tb_err *err)
{
    int rc = target_in(e, t, 0, err);
    if (rc)
        return rc;
    if (!is_target(e, t))
        return rules_enc_rule(err, "%s is a Pursuer: %s is against the Target (000:159)",
                              rules_enc_name(e, t), what);
    return 0;
}

static int at_zero(rules_enc *e, const char *pursuer, const char *what, const char *cite,
                   tb_err *err)
{
    int d = chase_dist(e, pursuer);
    if (d == 0)
        return 0;
    return rules_enc_rule(err, "%s is at Distance %d: %s needs Distance 0 (%s)",
                          rules_enc_name(e, pursuer), d, what, cite);
}

static int act_takedown(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    slot_name sn;
    int rc = chase_role(e, 0, "make a Takedown", err);
    if (rc || (rc = target_is_target(e, t, "a Takedown", err)) ||
        (rc = at_zero(e, e->actor, "a Takedown", "000:161", err)) ||
        (rc = turn_open(e, 0, &sn, err)))
        return rc;
    char head[160];
    snprintf(head, sizeof head, "%s takes %s and tries to take down %s",
             rules_enc_name(e, e->actor), sn.s, rules_enc_name(e, t));
    int ok = chase_opposed(e, t, "takedown", head, "000:161", err);
    if (ok < 0)
        return -ok;
    if (ok) {
        /* 000:161 "If the Pursuer succeeds, they end the chase, Victorious." The hold (on foot)
         * or the Ram (in a vehicle) that may follow is the GM's to run. */
        const char *cid;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
            if (is_target(e, cid) && !rules_enc_is_out(e, cid))
                rules_enc_set_out(e, cid, "caught");
        rules_enc_log(e, "takedown", NULL, NULL, "%s catches the %s: the chase is over (000:161)",
                      rules_enc_name(e, e->actor), str_of(e->enc, "target_side"));
    } else {
        /* 000:161 "If they fail, then Distance increases by 2." */
        chase_dist_set(e, e->actor, chase_dist(e, e->actor) + 2);
        rules_enc_cond_remove(e, e->actor, "boarded");
    }
    turn_close(e, 1);
    return 0;
}

static int act_board(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    slot_name sn;
    int rc = chase_role(e, 0, "Board", err);
    if (rc || (rc = target_is_target(e, t, "Boarding", err)))
        return rc;
    if (!in_vehicle(e, e->actor) || !in_vehicle(e, t))
        return rules_enc_rule(err, "Board is only for a Pursuer in a vehicle against a Target in "
                                   "a vehicle (000:163)");
    if ((rc = at_zero(e, e->actor, "Boarding", "000:163", err)) || (rc = turn_open(e, 0, &sn, err)))
        return rc;
    /* 000:163 "The Pursuer rolls Muscle+Athletics versus their Opponents Fingers+Driving." */
    cot_throw o, m;
    if ((rc = throw_pool(e, t, "fingers", "driving", 0, &o, err)) ||
        (rc = throw_pool(e, e->actor, "muscle", "athletics", 0, &m, err)))
        return rc;
    int ok = cot_roll_succeeds(&m.r, o.r.total);
    if (ok)
        rules_enc_cond_add(e, e->actor, "boarded", 0, 0);
    rules_aud oa = rules_enc_aud_of(e, t), ma = rules_enc_aud_of(e, e->actor);
    rules_enc_entry *x = rules_enc_entry_begin(e, "oppose");
    log_throw(x, oa, &o);
    rules_enc_entry_say(x, oa, "%s swerves: Fingers+Driving %s", rules_enc_name(e, t), o.line);
    rules_enc_entry_end(x);
    x = rules_enc_entry_begin(e, "board");
    log_throw(x, ma, &m);
    rules_enc_entry_set(x, oa, "difficulty", json_integer(o.r.total));
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "success", json_boolean(ok));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s takes %s and jumps for %s's vehicle",
                        rules_enc_name(e, e->actor), sn.s, rules_enc_name(e, t));
    rules_enc_entry_say(x, ma, ": Muscle+Athletics %s", m.line);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s (000:163)", ok ? "on board" : "missed");
    rules_enc_entry_end(x);
    turn_close(e, 1);
    return 0;
}

static int act_close(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    slot_name sn;
    int rc = chase_role(e, 0, "Close", err);
    if (rc || (rc = chase_driver(e, e->actor, "Close", err)) ||
        (rc = target_is_target(e, t, "Closing", err)) || (rc = turn_open(e, 0, &sn, err)))
        return rc;
    const char *me = rules_enc_name(e, e->actor);
    if (at_speed(e, e->actor) && !at_speed(e, t)) {
        /* 000:169 "if the Pursuer has a Speed Velocity Rating and the Target has a Muscles
         * Velocity Rating, attempting to Close reduces the Distance to 0." */
        chase_dist_set(e, e->actor, 0);
        rules_enc_log(e, "close", NULL, NULL,
                      "%s takes %s and runs %s down at Speed: Distance 0 (000:169)", me, sn.s,
                      rules_enc_name(e, t));
        turn_close(e, 0);
        return 0;
    }
    char head[160];
    snprintf(head, sizeof head, "%s takes %s and closes on %s", me, sn.s, rules_enc_name(e, t));
    /* 000:169 "an opposed roll versus their Target and if successful, decrease the Distance by
     * 1" */
    int ok = chase_opposed(e, t, "close", head, "000:169", err);
    if (ok < 0)
        return -ok;
    if (ok)
        chase_dist_set(e, e->actor, chase_dist(e, e->actor) - 1);
    turn_close(e, 1);
    return 0;
}

static int act_fall_off(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    slot_name sn;
    int rc = chase_role(e, 0, "Fall Off", err);
    if (rc || (rc = chase_driver(e, e->actor, "Fall Off", err)) || (rc = turn_open(e, 0, &sn, err)))
        return rc;
    /* 000:171 "leave a chase without having caught the Target. No roll is needed" */
    rules_enc_set_out(e, e->actor, "fell off");
    rules_enc_log(e, "fall_off", NULL, NULL, "%s takes %s and falls off the chase (000:171)",
                  rules_enc_name(e, e->actor), sn.s);
    turn_close(e, 0);
    return 0;
}

/* The Body Score of t's vehicle (its driver's stat `body`), or NULL when t is on foot. */
static const char *vehicle_holder(rules_enc *e, const char *t)
{
    const char *v = str_of(rules_enc_stats(e, t), "vehicle"), *cid;
    if (!v)
        return NULL;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        const char *w = str_of(rules_enc_stats(e, cid), "vehicle");
        if (w && strcmp(w, v) == 0 && stat_true(e, cid, "driver"))
            return cid;
    }
    return NULL;
}

/* An Attack or a Ram in a chase: `ram` rolls Fingers+Driving with the vehicle's bonus (000:167),
 * else the Gang Warfare attack (000:130-131). Against a vehicle (at_vehicle) the roll hits its
 * Body Score, else the person's Cover (000:151). */
static int chase_hit(rules_enc *e, const rules_args *a, int ram, tb_err *err)
{
    static const char *const ATTACK_SKILLS[] = {"hand_to_hand", "shooting", "explosives", NULL};
    const char *t = rules_arg_str(a, "target"), *pursuer, *target;
    const cot_skill *sk = skill_find("driving");
    json_t *weapon = NULL;
    slot_name sn;
    int rc = target_in(e, t, 0, err);
    if (rc)
        return rc;
    if (is_target(e, t) == is_target(e, e->actor))
        return rules_enc_rule(err, "%s is on the same side of the chase", rules_enc_name(e, t));
    if (!ram && (rc = attack_gear(e, a, ATTACK_SKILLS, &sk, &weapon, err)))
        return rc;
    if (ram && (!in_vehicle(e, e->actor) || !stat_true(e, e->actor, "driver")))
        return rules_enc_rule(err, "only the driver of a vehicle can Ram (000:167)");
    chase_pair(e, t, &pursuer, &target);
    if ((ram || strcmp(sk->id, "hand_to_hand") == 0) &&
        (rc = at_zero(e, pursuer, ram ? "a Ram" : "a melee attack", ram ? "000:167" : "000:151",
                      err)))
        return rc;
    const char *holder = rules_arg_int(a, "at_vehicle") ? vehicle_holder(e, t) : NULL;
    if (rules_arg_int(a, "at_vehicle") && !holder)
        return rules_enc_rule(err, "%s is not in a vehicle with a driver", rules_enc_name(e, t));
    if ((rc = turn_open(e, 0, &sn, err)))
        return rc;
    cot_throw th;
    int bonus =
        ram ? rules_enc_stat(e, e->actor, "ram_bonus", 0) : (weapon ? int_of(weapon, "bonus") : 0);
    if ((rc = throw_pool(e, e->actor, sk->ability, sk->id, bonus + rules_arg_int(a, "bonus"), &th,
                         err)))
        return rc;
    char head[200], tail[160], detail[120];
    const char *tn = rules_enc_name(e, t);
    json_t *res, *sec;
    snprintf(head, sizeof head, "%s takes %s and %s %s%s", rules_enc_name(e, e->actor), sn.s,
             ram ? "rams" : "attacks", holder ? "the vehicle of " : "", tn);
    if (holder) {
        /* 000:151 "Attacks against a Vehicle target its Body Score"; the loss follows 000:134
         * (RULES.md, cot chases, reading 4) */
        int before = rules_enc_stat(e, holder, "body", 0), dmg = 0;
        if (!th.r.catastrophe)
            dmg = th.r.total > before ? th.r.total - before : 1;
        int after = before - dmg < 0 ? 0 : before - dmg;
        rules_enc_stat_set(e, holder, "body", after);
        snprintf(tail, sizeof tail, "%s",
                 th.r.catastrophe ? "Catastrophe: no harm done (000:9)"
                 : after == 0     ? "the vehicle is wrecked (000:151)"
                                  : "the vehicle loses Body (000:151)");
        snprintf(detail, sizeof detail, "Body %d − %d → %d", before, dmg, after);
        res = json_pack("{s:s, s:s}", "target", t, "outcome", after == 0 ? "wrecked" : "body");
        sec = json_pack("{s:i, s:i, s:i}", "body_before", before, "damage", dmg, "body", after);
        log_action(e, ram ? "ram" : "attack", &th, holder, res, sec, head, tail, detail);
    } else {
        harm h = {rules_enc_stat(e, t, "cover", 0), 0, rules_enc_stat(e, t, "cover", 0), -1,
                  "catastrophe"};
        if (!th.r.catastrophe)
            h = apply_harm(e, t, th.r.total);
        snprintf(tail, sizeof tail, "%s %s", tn,
                 strcmp(h.outcome, "catastrophe") == 0 ? "takes no harm: Catastrophe (000:9)"
                 : strcmp(h.outcome, "dead") == 0      ? "is Dead (000:136)"
                 : strcmp(h.outcome, "wounded") == 0   ? "is Wounded (000:135)"
                                                       : "loses Cover (000:134)");
        snprintf(detail, sizeof detail, "%s's Cover %d − %d → %d", tn, h.before, h.damage, h.after);
        res = json_pack("{s:s, s:s}", "target", t, "outcome", h.outcome);
        sec = json_pack("{s:i, s:i, s:i}", "cover_before", h.before, "damage", h.damage, "cover",
                        h.after);
        log_action(e, ram ? "ram" : "attack", &th, t, res, sec, head, tail, detail);
    }
    turn_close(e, 1);
    return 0;
}

static int act_chase_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    return chase_hit(e, a, 0, err);
}

static int act_ram(rules_enc *e, const rules_args *a, tb_err *err)
{
    return chase_hit(e, a, 1, err);
}

/* ---- the tables ---- */

static const rules_param NO_PARAMS[] = {{0}};

static const rules_param STAGE_OPTIONS[] = {
    {"stage", RULES_PARAM_STRING, 1, 20, 0, 0,
     "Stage: heist, prep, social, violence, foot_chase or vehicle_chase (default heist)"},
    {0},
};

static const rules_param TARGET_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who"},
    {0},
};

static const rules_param ROLL_PARAMS[] = {
    {"skill", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED, "skill (lockpicking, sneak...)"},
    {"difficulty", RULES_PARAM_INT, 0, 200, COT_DIFFICULTY_BASE, 0, "difficulty (default 9)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0 for gear or circumstances"},
    {0},
};

static const rules_param DROP_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "the unaware target"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0, "hand_to_hand (default), shooting or explosives"},
    {"weapon", RULES_PARAM_STRING, 1, 100, 0, 0, "a weapon from the sheet (none: fists)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0 for circumstances"},
    {"several", RULES_PARAM_BOOL, 0, 1, 0, 0,
     "part of a Drop on several people at once (then an alarm reaches their allies)"},
    {0},
};

static const rules_param REACT_PARAMS[] = {
    {"choice", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED,
     "flee, call_for_help or square_up"},
    {0},
};

static const rules_param ALERT_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who"},
    {"aware", RULES_PARAM_BOOL, 0, 1, 1, 0, "Aware (1) or unaware (0)"},
    {0},
};

static const rules_param ATTACK_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to attack"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0,
     "hand_to_hand (default), shooting, explosives or driving"},
    {"weapon", RULES_PARAM_STRING, 1, 100, 0, 0, "a weapon from the sheet (none: bare hands)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0 for circumstances"},
    {"restrain", RULES_PARAM_BOOL, 0, 1, 0, 0, "Restrain on a hit (Hand to Hand)"},
    {0},
};

#define COMMON_ACTIONS                                                                               \
    {"begin", "Begin round 1", RULES_ENC_GM, NO_PARAMS, act_begin, "000:37-38"},                     \
        {"skip", "Pass the slot", RULES_ENC_GM, NO_PARAMS, act_skip, "000:38"},                      \
        {"claim", "Claim the slot", RULES_ENC_TURN, NO_PARAMS, act_claim, "000:38"},                 \
        {"wait", "Wait", RULES_ENC_TURN, NO_PARAMS, act_wait, "000:28"},                             \
        {"bolster", "Bolster", RULES_ENC_TURN, TARGET_PARAMS, act_bolster, "000:27"},                \
        {"focus", "Focus Round", RULES_ENC_OWNER, NO_PARAMS, act_focus, "000:38-40"},                \
        {"give", "Give my slot to the Focus Round", RULES_ENC_OWNER, NO_PARAMS, act_give, "000:40"}, \
    {                                                                                                \
        "roll", "Roll a skill", RULES_ENC_TURN, ROLL_PARAMS, act_roll, "000:9-13"                    \
    }

static const rules_enc_action INIT_ACTIONS[] = {
    COMMON_ACTIONS,
    {"drop", "Get the Drop", RULES_ENC_TURN, DROP_PARAMS, act_drop, "000:101-119"},
    {"alert", "Mark Aware", RULES_ENC_GM, ALERT_PARAMS, act_alert, "000:117-119"},
    {"react", "Answer the Drop", RULES_ENC_OWNER, REACT_PARAMS, act_react, "000:117"},
    {0},
};

static const rules_enc_action WAR_ACTIONS[] = {
    COMMON_ACTIONS,
    {"attack", "Attack", RULES_ENC_TURN, ATTACK_PARAMS, act_attack, "000:130-136"},
    {"reposition", "Reposition", RULES_ENC_TURN, NO_PARAMS, act_reposition, "000:128"},
    {"flee", "Flee", RULES_ENC_TURN, NO_PARAMS, act_flee, "000:126"},
    {"break_free", "Break free", RULES_ENC_TURN, NO_PARAMS, act_break_free, "000:133"},
    {0},
};

static const rules_param CHASE_OPTIONS[] = {
    {"target_side", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED,
     "the side that is the Target (everyone else pursues)"},
    {"distance", RULES_PARAM_INT, 0, 20, 2, 0, "the initial Distance (default 2)"},
    {"stage", RULES_PARAM_STRING, 1, 20, 0, 0, "foot_chase (default) or vehicle_chase"},
    {0},
};

static const rules_param VEHICLE_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who rides"},
    {"vehicle", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "the vehicle's name"},
    {"driver", RULES_PARAM_BOOL, 0, 1, 0, 0, "drives it"},
    {"speed", RULES_PARAM_INT, 0, 10, 0, 0, "the Speed rating"},
    {"body", RULES_PARAM_INT, 0, 60, 0, 0, "the vehicle's Body Score (driver)"},
    {"ram_bonus", RULES_PARAM_INT, 0, 10, 0, 0, "the vehicle's weapon bonus for a Ram"},
    {0},
};

static const rules_param SHAKE_PARAMS[] = {
    {"how", RULES_PARAM_STRING, 1, 10, 0, 0, "crowd (default), obstacle or dislodge"},
    {"difficulty", RULES_PARAM_INT, 1, 60, 0, 0, "the obstacle's difficulty"},
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "the boarder to dislodge"},
    {0},
};

static const rules_param CHASE_ATTACK_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to attack"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0, "hand_to_hand (default), shooting or explosives"},
    {"weapon", RULES_PARAM_STRING, 1, 100, 0, 0, "a weapon from the sheet (none: bare hands)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0 for circumstances"},
    {"at_vehicle", RULES_PARAM_BOOL, 0, 1, 0, 0, "hit the vehicle (its Body), not the person"},
    {0},
};

static const rules_param RAM_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to ram"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0 for circumstances"},
    {"at_vehicle", RULES_PARAM_BOOL, 0, 1, 0, 0, "hit the vehicle (its Body), not the person"},
    {0},
};

static const rules_enc_action CHASE_ACTIONS[] = {
    COMMON_ACTIONS,
    {"vehicle", "Put in a vehicle", RULES_ENC_GM, VEHICLE_PARAMS, act_vehicle, "000:140-142"},
    {"attack", "Attack", RULES_ENC_TURN, CHASE_ATTACK_PARAMS, act_chase_attack, "000:151"},
    {"accelerate", "Accelerate", RULES_ENC_TURN, NO_PARAMS, act_accelerate, "000:153"},
    {"shake", "Shake", RULES_ENC_TURN, SHAKE_PARAMS, act_shake, "000:155"},
    {"escape", "Escape", RULES_ENC_TURN, NO_PARAMS, act_escape, "000:157"},
    {"takedown", "Takedown", RULES_ENC_TURN, TARGET_PARAMS, act_takedown, "000:161"},
    {"board", "Board", RULES_ENC_TURN, TARGET_PARAMS, act_board, "000:163"},
    {"ram", "Ram", RULES_ENC_TURN, RAM_PARAMS, act_ram, "000:167"},
    {"close", "Close", RULES_ENC_TURN, TARGET_PARAMS, act_close, "000:169"},
    {"fall_off", "Fall Off", RULES_ENC_TURN, NO_PARAMS, act_fall_off, "000:171"},
    {0},
};

/* ---- what the GM may set, and what these modules can use ---- */

/* The numbers a GM adjusts mid-scene: Cover (000:123), a wound and its days (000:135), the
 * Focus Round of the session (000:40), abilities and skills (000:44-96). */
#define COT_SKILL_FIELD(id, label)                                                                 \
    {                                                                                              \
        "stats/skills/" id, RULES_PARAM_INT, 0, 10, label                                          \
    }
/* clang-format off */
#define COT_EDITABLE_FIELDS                                                                        \
    {"stats/cover", RULES_PARAM_INT, 0, 99, "Cover"}, \
    {"stats/wounded", RULES_PARAM_BOOL, 0, 1, "wound"}, \
    {"stats/recovery_days", RULES_PARAM_INT, 0, 1000, "days until the wound heals"}, \
    {"stats/focus_used", RULES_PARAM_BOOL, 0, 1, "Focus Round of this session"}, \
    /* an NPC's numbers as the GM decides them (000:196-198), in the sheet's ranges */ \
    {"stats/abilities/muscle", RULES_PARAM_INT, 1, 10, "Muscle"}, \
    {"stats/abilities/fingers", RULES_PARAM_INT, 1, 10, "Fingers"}, \
    {"stats/abilities/brains", RULES_PARAM_INT, 1, 10, "Brains"}, \
    {"stats/abilities/it", RULES_PARAM_INT, 1, 10, "It"}, \
    COT_SKILL_FIELD("shooting", "Shooting"), \
    COT_SKILL_FIELD("hand_to_hand", "Hand to Hand"), \
    COT_SKILL_FIELD("athletics", "Athletics"), \
    COT_SKILL_FIELD("intimidate", "Intimidate"), \
    COT_SKILL_FIELD("resist", "Resist"), \
    COT_SKILL_FIELD("explosives", "Explosives"), \
    COT_SKILL_FIELD("driving", "Driving"), \
    COT_SKILL_FIELD("cat_burglary", "Cat Burglary"), \
    COT_SKILL_FIELD("palming", "Palming"), \
    COT_SKILL_FIELD("sneak", "Sneak"), \
    COT_SKILL_FIELD("lockpicking", "Lockpicking"), \
    COT_SKILL_FIELD("build", "Build"), \
    COT_SKILL_FIELD("mysticism", "Mysticism"), \
    COT_SKILL_FIELD("planning", "Planning"), \
    COT_SKILL_FIELD("lookout", "Lookout"), \
    COT_SKILL_FIELD("safecracking", "Safecracking"), \
    COT_SKILL_FIELD("appraisal", "Appraisal"), \
    COT_SKILL_FIELD("forgery", "Forgery"), \
    COT_SKILL_FIELD("connections", "Connections"), \
    COT_SKILL_FIELD("size_up", "Size Up"), \
    COT_SKILL_FIELD("con", "Con"), \
    COT_SKILL_FIELD("impress", "Impress"), \
    COT_SKILL_FIELD("manipulate", "Manipulate"), \
    COT_SKILL_FIELD("convince", "Convince")
/* clang-format on */

static const rules_enc_field COT_EDITABLE[] = {
    COT_EDITABLE_FIELDS,
    {NULL, 0, 0, 0, NULL},
};

/* A chase's own (000:139-171): the crowd, the Distances, and the vehicles the GM set. */
static const rules_enc_field COT_CHASE_EDITABLE[] = {
    COT_EDITABLE_FIELDS,
    {"/enc/cramped", RULES_PARAM_BOOL, 0, 1, "cramped conditions"},
    {"/enc/combatants/*/distance", RULES_PARAM_INT, 0, 40, "Distance to the Target"},
    {"stats/speed", RULES_PARAM_INT, 0, 10, "Speed rating"},
    {"stats/body", RULES_PARAM_INT, 0, 60, "the vehicle's Body"},
    {"stats/ram_bonus", RULES_PARAM_INT, 0, 10, "the vehicle's Ram bonus"},
    {"stats/driver", RULES_PARAM_BOOL, 0, 1, "driving"},
    {"stats/vehicle", RULES_PARAM_STRING, 1, 40, "vehicle"},
    {NULL, 0, 0, 0, NULL},
};

/* The slots of /enc/order ({id, total, side, claimed_by}), the Focus Round ({by, round, given})
 * and each combatant's `claimed` list, as the slot functions above read them. */
static int cot_check(const rules_enc *e, tb_err *err)
{
    size_t i;
    json_t *s;
    json_array_foreach(slots(e), i, s)
    {
        json_t *by = json_object_get(s, "claimed_by");
        if (!json_is_object(s) || !str_of(s, "id") || !str_of(s, "side") ||
            !json_is_integer(json_object_get(s, "total")) ||
            (by && !json_is_null(by) && !json_is_string(by)))
            return rules_enc_rule(err,
                                  "the encounter cannot go on: slot %zu of the order is "
                                  "ill-formed; the GM can end it (enc.end)",
                                  i + 1);
    }
    json_t *f = json_object_get(e->enc, "focus");
    if (f && !json_is_null(f) &&
        (!json_is_object(f) || !str_of(f, "by") || !json_is_integer(json_object_get(f, "round")) ||
         !json_is_array(json_object_get(f, "given"))))
        return rules_enc_rule(err, "the encounter cannot go on: the Focus Round is ill-formed; "
                                   "the GM can end it (enc.end)");
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

/* Written back to the sheets after every action: wounds (000:135) and the Focus Round (000:40). */
static const char *const SHEET_STATS[] = {"wounded", "recovery_days", "focus_used", NULL};

const rules_module rules_module_cot_initiative = {
    .id = "cot.initiative",
    .system = "cot",
    .name = "Initiative slots",
    .cite = "000:15-40, 000:101-119",
    .options = STAGE_OPTIONS,
    .start = init_start,
    .join = init_join,
    .may_act = cot_may_act,
    .actions = INIT_ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = COT_EDITABLE,
    .check = cot_check,
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
    .sheet_stats = SHEET_STATS,
    .editable = COT_EDITABLE,
    .check = cot_check,
};

static const rules_param IDENTITY_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who"},
    {"presented", RULES_PARAM_STRING, 1, 100, 0, 0, "who they present as (a disguise)"},
    {"identity", RULES_PARAM_STRING, 1, 100, 0, 0, "who they truly are (the GM's)"},
    {0},
};

#define LEAN_PARAMS                                                                                \
    {"lean_onto", RULES_PARAM_INT, 0, 4, 0, 0, "Lean Onto my Loyalty n (+1k0)"},                   \
    {                                                                                              \
        "lean_onto_target", RULES_PARAM_INT, 0, 4, 0, 0, "Lean Onto their Loyalty n (+1k0)"        \
    }

static const rules_param READ_ROOM_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to read"},
    {"ask", RULES_PARAM_STRING, 1, 12, 0, 0, "identity, loyalty or impedes"},
    {"loyalty", RULES_PARAM_INT, 0, 4, 0, 0, "which Loyalty (1-4)"},
    LEAN_PARAMS,
    {0},
};

static const rules_param AGENDA_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom"},
    {"text", RULES_PARAM_STRING, 1, 200, 0, RULES_PARAM_REQUIRED, "what you want from them"},
    {"alters", RULES_PARAM_INT, 0, 4, 0, 0, "the Loyalty (1-4) it alters, if any"},
    {0},
};

/* The skills' labels name the choices (the panel offers them as a pick, 000:262-271). */
static const rules_param BUILD_UP_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED,
     "a Social skill: convince, intimidate, con, impress or manipulate"},
    LEAN_PARAMS,
    {0},
};

static const rules_param FOLLOW_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED,
     "a Social skill: convince, intimidate, impress or manipulate"},
    LEAN_PARAMS,
    {0},
};

static const rules_param LEAN_INTO_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who pushes the agenda"},
    {"loyalty", RULES_PARAM_INT, 1, 4, 1, RULES_PARAM_REQUIRED, "my Loyalty (1-4) it goes against"},
    {0},
};

static const rules_param IMPEDES_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who pushes the agenda"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "on whom"},
    {"impedes", RULES_PARAM_BOOL, 0, 1, 1, 0, "a Loyalty impedes it"},
    {0},
};

static const rules_param ALTER_PARAMS[] = {
    {"loyalty", RULES_PARAM_INT, 1, 4, 1, RULES_PARAM_REQUIRED, "which Loyalty (1-4)"},
    {"to", RULES_PARAM_STRING, 3, 100, 0, 0, "what it becomes (Kind: Target)"},
    {"prime", RULES_PARAM_BOOL, 0, 1, 0, 0, "swap it with the Prime instead"},
    {0},
};

static const rules_enc_action SOCIAL_ACTIONS[] = {
    COMMON_ACTIONS,
    {"identity", "Set identity", RULES_ENC_GM, IDENTITY_PARAMS, act_identity, "000:257"},
    {"read_room", "Read Room", RULES_ENC_TURN, READ_ROOM_PARAMS, act_read_room, "000:252-255"},
    {"agenda", "Set an agenda", RULES_ENC_OWNER, AGENDA_PARAMS, act_agenda, "000:257-259"},
    {"build_up", "Build Up", RULES_ENC_TURN, BUILD_UP_PARAMS, act_build_up, "000:260-268"},
    {"follow_through", "Follow Through", RULES_ENC_TURN, FOLLOW_PARAMS, act_follow_through,
     "000:270-271"},
    {"lean_into", "Lean Into a Loyalty", RULES_ENC_OWNER, LEAN_INTO_PARAMS, act_lean_into,
     "000:241"},
    {"impedes", "Does a Loyalty impede it", RULES_ENC_GM, IMPEDES_PARAMS, act_impedes, "000:254"},
    {"alter", "Alter a Loyalty", RULES_ENC_OWNER, ALTER_PARAMS, act_alter, "000:237, 000:271"},
    {0},
};

const rules_module rules_module_cot_social = {
    .id = "cot.social",
    .system = "cot",
    .name = "Social Call",
    .cite = "000:224-291",
    .start = social_start,
    .join = social_join,
    .may_act = cot_may_act,
    .end = social_end,
    .actions = SOCIAL_ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = COT_EDITABLE,
    .check = cot_check,
};

const rules_module rules_module_cot_chase = {
    .id = "cot.chase",
    .system = "cot",
    .name = "Chase",
    .cite = "000:139-171",
    .options = CHASE_OPTIONS,
    .start = chase_start,
    .join = chase_join,
    .may_act = cot_may_act,
    .actions = CHASE_ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = COT_CHASE_EDITABLE,
    .check = cot_check,
};
