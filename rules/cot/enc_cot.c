/*
 * enc_cot.c — the City of Thieves encounter modules (rules/encounter.h). The rulebook is
 * 000_d2a475e9ec148dd1.txt, cited as 000:LINE; the readings of unclear passages are listed in
 * rules/RULES.md, "cot", "Encounters".
 *
 *   cot.initiative  "Initiative slots" for any Stage (heist, prep, social call, violence, chases):
 *                   slots, claims, the Focus Round, Bolster, Wait, a skill roll, Getting the Drop.
 *   cot.warfare     "Gang Warfare": the same slots (Muscle+Athletics) plus Cover, Attack,
 *                   Restrain, Break free, Reposition and Flee.
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
                                      strcmp(json_string_value(v), s) == 0) return 1;
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
    json_array_foreach(slots(e), i, s) if (id && strcmp(str_of(s, "id"), id) == 0) return s;
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
    if (f && strcmp(str_of(f, "by"), cid) == 0)
        return 1 + (int)json_array_size(json_object_get(f, "given"));
    if (f && in_array(json_object_get(f, "given"), cid))
        return 0;
    return 1;
}

static int can_take(const rules_enc *e, const char *cid, const char *side)
{
    return !rules_enc_is_out(e, cid) && strcmp(rules_enc_side(e, cid), side) == 0 &&
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
        return strcmp(by, cid) == 0
                   ? 0
                   : rules_enc_rule(err,
                                    "%s is claimed by %s; each slot is one character's turn "
                                    "(000:38)",
                                    sn.s, rules_enc_name(e, by));
    const char *side = str_of(s, "side");
    if (strcmp(rules_enc_side(e, cid), side) != 0)
        return rules_enc_rule(err, "it is %s's turn, owned by the %s", sn.s, side);
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
    if (strcmp(by, cid) == 0)
        return rules_enc_rule(err,
                              "%s takes the Focus Round; the slots come from the others on "
                              "the crew (000:40)",
                              name);
    if (rules_enc_is_npc(e, cid) || strcmp(rules_enc_side(e, cid), rules_enc_side(e, by)) != 0)
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
                       w) if (name && strcmp(str_of(w, "name"), name) == 0) return w;
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
        if (strcmp(cid, t) != 0 && strcmp(rules_enc_side(e, cid), side) == 0 &&
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
    } else {
        outcome = "Wounded and Aware"; /* 000:114 */
        aware = 1;
        make_wounded(e, t, -1);
    }
    if (aware)
        rules_enc_cond_add(e, t, "aware", 0, 0);
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
    /* 000:119 "any result where the target is Aware or made with a firearm will also make the
     * target's allies Aware" */
    if (aware || strcmp(sk->id, "shooting") == 0)
        alert_allies(e, t);
    turn_close(e, 1);
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
};

const rules_module *const rules_modules_cot[] = {&rules_module_cot_initiative,
                                                 &rules_module_cot_warfare, NULL};
