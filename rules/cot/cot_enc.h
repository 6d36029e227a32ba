/*
 * cot_enc.h — what City of Thieves' encounter modules share (internal to rules/cot/): the Stages
 * and skills, the pool roll of a combatant, the initiative slots and the turn of a slot, joining,
 * the actions every cot module has (begin, skip, claim, wait, bolster, focus, give, roll), the
 * attack's gear and harm, and the fields a GM may edit. The code is in rules/cot/cot_enc.c and
 * rules/cot/slots.c (the slots, joining and the shared actions); each
 * module (initiative.c, warfare.c, social.c, chase.c, heist.c) includes this header and
 * encounter.h, never another module's file. The rulebook is 000_d2a475e9ec148dd1.txt, cited as
 * 000:LINE; the readings of unclear passages are in rules/RULES.md, "cot".
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
 *
 * CHECK AND RESOLVE. Every action is a pure check (encounter.h: no die, no write; const e) and a
 * resolve that rolls and writes. The functions below that take a const rules_enc only read; the
 * others may write.
 */
#ifndef TABLED_RULES_COT_ENC_H
#define TABLED_RULES_COT_ENC_H

#include "cot.h"
#include "encounter.h"

/* ---- Stages and skills ---- */

typedef struct cot_stage {
    const char *id, *ability, *skill, *pool;
} cot_stage;

typedef struct cot_skill {
    const char *id, *ability, *label;
} cot_skill;

/* 000:33-36: the Stage `id` (heist, prep, social, violence, foot_chase, vehicle_chase) or NULL. */
const cot_stage *cot_stage_find(const char *id);
/* 000:44-96: the skill `id` with its ability and label, or NULL. */
const cot_skill *cot_skill_find(const char *id);
/* The i-th skill of the sheet (0-based), NULL past the end. */
const cot_skill *cot_skill_at(size_t i);

/* A name-only NPC (no sheet) rolls with a new sheet's values: abilities 2, skills 0 (the
 * defaults of the cot sheet schema; RULES.md, cot encounters, reading 9). */
#define COT_DEFAULT_ABILITY 2

/* ---- reading the state (pure) ---- */

const char *cot_str(const json_t *o, const char *key);
int cot_int(const json_t *o, const char *key);
/* o[key] when it is an integer, else def. */
int cot_int_or(const json_t *o, const char *key, int def);
/* o[key] as an object, created empty when missing (borrowed). */
json_t *cot_child(json_t *o, const char *key);
/* 1 when the array arr holds the string s. */
int cot_in_array(const json_t *arr, const char *s);
/* Read without creating (rules_enc_stats_peek): a true stat, an ability (2 when absent), a
 * skill (0). */
int cot_stat_true(const rules_enc *e, const char *cid, const char *key);
int cot_ability_of(const rules_enc *e, const char *cid, const char *ability);
int cot_skill_of(const rules_enc *e, const char *cid, const char *skill);
/* cid is Wounded (the condition or the sheet's stat). */
int cot_is_wounded(const rules_enc *e, const char *cid);

/* ---- rolling ---- */

/* One pool roll of a combatant, ready for the log. */
typedef struct cot_throw {
    cot_roll r;
    int bonus;                 /* +Bk0 from gear and circumstances */
    int bolster;               /* +Bk0 from Bolster (000:27) */
    int trained, trained_kept; /* +RkK from a Training scheme (000:218) */
} cot_throw;

/* The Bolster's +1k0 each waiting on cid (000:27). */
int cot_bolster_of(const rules_enc *e, const char *cid);
/* Whether cid's pool of ability + skill dice with `bonus` (and its Bolster) can be rolled: the
 * refusal cot_pool_roll would give, before any die. skill may be NULL (no skill). */
int cot_throw_check(const rules_enc *e, const char *cid, const char *ability, const char *skill,
                    int bonus, tb_err *err);
/*
 * Rolls cid's pool of ability + skill dice, keeping the ability (000:9), with `bonus` extra dice
 * (gear, circumstances: 000:11, 000:102, 000:123) and, when the combatant was Bolstered, the
 * Bolster's +1k0 each, which this roll uses up (000:27).
 */
int cot_throw_pool(rules_enc *e, const char *cid, const char *ability, const char *skill, int bonus,
                   cot_throw *t, tb_err *err);
/* ---- the log (rules_log_*; the phrasings are cot_phrases, the system's) ----
 * A throw is logged as its numbers (result fields rolled, keep, kept, total, catastrophe, bonus,
 * bolster), its dice, and the word `line` ("4k2 → 6 5 [3 1] = 11", phrasing cot.roll), each for
 * aud: an NPC's are the GM's. The opposing roll of the same event is `oline` (cot.opposing), its
 * numbers in the words only. */
void cot_log_throw(rules_log *x, const cot_throw *t, rules_aud aud);
void cot_log_opposing(rules_log *x, const cot_throw *t, rules_aud aud);
/* The phrasings every cot module shares (rules_system_cot.phrases). */
extern const struct rules_phrase cot_phrases[];

/* ---- slots and the turn of a slot ---- */

/* The current slot object, or NULL. */
json_t *cot_current_slot(const rules_enc *e);
/* How many slots cid may take this round: one (000:38); in a Focus Round its character one plus
 * every slot given to it, and a crewmate who gave its slot none (000:40). */
int cot_claim_limit(const rules_enc *e, const char *cid);
/* /enc/focus when a Focus Round is under way, else NULL. */
json_t *cot_focus(const rules_enc *e);
/* The module hook may_act: cid may take a turn action now (000:38). Reads only. */
int cot_may_act(rules_enc *e, const char *cid, tb_err *err);
/* The check every turn action shares, for `action` (its name): a fleeing character's next action
 * leaves the Zone (000:126): only `flee` is open to it; a turn that goes on after an action
 * (/enc/follow_up {by, actions}: a successful Close's Takedown or Ram, 000:169) takes one of
 * those actions or ends (wait). */
int cot_turn_check(const rules_enc *e, const char *action, tb_err *err);
/* The actor takes the current slot (000:38): its total ("takes slot 14"). */
int cot_turn_take(rules_enc *e);
/* The same, and the turn's log entry begins: `who` (the actor)
 * and `slot` (the slot's total: "takes slot 14") are in it. */
rules_log *cot_turn_log(rules_enc *e, const char *action, const char *event);
/* Ends the turn: an unused Bolster lapses (unless `rolled`), the pointer moves to the next
 * slot. */
void cot_turn_close(rules_enc *e, int rolled);
/* Bolster "If they don't make a roll on their next turn, they lose this bonus" (000:27). */
void cot_bolster_lapse(rules_enc *e, const char *cid);
/* The actor is in the scene (not out: dead, fled, caught...): an owner's action needs it. */
int cot_actor_in(const rules_enc *e, tb_err *err);
/* t may be acted on: in the fight, and not the actor unless self_ok. */
int cot_target_check(const rules_enc *e, const char *t, int self_ok, tb_err *err);

/* ---- start and join ---- */

/* Sets /enc/stage, /enc/pool and the slot counter for Stage `id`. */
void cot_start_stage(rules_enc *e, const char *id);
/* Copies the sheet's numbers into the stats and rolls the Stage's initiative: a slot of cid's
 * side (000:31-37). */
int cot_join_common(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
/* 000:123 Cover: Muscle+Resist with the armour's bonus dice, logged as `action` (event cover)
 * with the phrasing `why` ("takes cover") and, when slot > 0, the slot taken for it. */
int cot_roll_cover(rules_enc *e, const char *cid, const char *action, const char *why, int slot,
                   tb_err *err);

/* ---- attacks (Getting the Drop, Gang Warfare, chases) ---- */

/* The weapon named `name` on cid's sheet, or NULL. */
json_t *cot_weapon_of(const rules_enc *e, const char *cid, const char *name);
/* The skill and weapon of the actor's attack (parameters `skill`, default hand_to_hand, and
 * `weapon`): `skills` lists the skills allowed (NULL-terminated); Shooting and Explosives need
 * a weapon (000:131). Pure. */
int cot_attack_gear(const rules_enc *e, const rules_args *a, const char *const *skills,
                    const cot_skill **sk, json_t **weapon, tb_err *err);
/* Cover loss of one Attack that is not a Catastrophe (000:134-136). */
typedef struct cot_harm {
    int before, damage, after, days;
    const char *outcome; /* "cover", "wounded", "dead" */
} cot_harm;
cot_harm cot_apply_harm(rules_enc *e, const char *t, int total);
/* The phrasing of its outcome: harm.catastrophe, harm.dead, harm.wounded or harm.cover (each
 * module says it its way). */
const char *cot_harm_word(const cot_harm *h);
/* t is Wounded (condition and sheet), with days to recover when days >= 0 (000:135). */
void cot_make_wounded(rules_enc *e, const char *t, int days);

/* ---- choices (the modules' `choices` hooks; encounter.h, "moves") ---- */

/* Appends {value, label} to out; value is stolen (NULL: null, leave the parameter out). */
void cot_choice(json_t *out, json_t *value, const char *label);
/* Which combatants a target parameter may name: keep(e, actor, cid) (NULL: any but the actor). */
typedef int (*cot_keep_fn)(const rules_enc *e, const char *actor, const char *cid);
/* The combatants in the fight that keep accepts, the actor's foes first, by name. */
void cot_choose_combatants(const rules_enc *e, const char *actor, cot_keep_fn keep, json_t *out);
/* No weapon (`bare`: "bare hands") first, then the weapons on the actor's sheet. */
void cot_choose_weapons(const rules_enc *e, const char *actor, const char *bare, json_t *out);
/* The skills of `list` (NULL-terminated; NULL: every skill of the sheet), the actor's trained
 * ones first (highest rank first), by their names. */
void cot_choose_skills(const rules_enc *e, const char *actor, const char *const *list, json_t *out);
/* The choices of the actions every slot module has (bolster's target, roll's skill); the module
 * hooks call it first. */
int cot_choices_common(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, json_t *out);

/* ---- the actions every cot module has ---- */

/* The parameter of Lean Onto one's own Loyalty (cot_lean_own), in a roll's table. */
#define COT_LEAN_ONTO_PARAM                                                                        \
    {                                                                                              \
        "lean_onto", RULES_PARAM_INT, 0, 4, 0, 0, "Lean Onto my Loyalty n (+1k0)"                  \
    }

extern const rules_param cot_no_params[];
extern const rules_param cot_target_params[];
extern const rules_param cot_roll_params[];

int cot_check_begin(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_begin(rules_enc *e, const rules_args *a, tb_err *err);
int cot_check_skip(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_skip(rules_enc *e, const rules_args *a, tb_err *err);
int cot_check_claim(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_claim(rules_enc *e, const rules_args *a, tb_err *err);
int cot_check_wait(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_wait(rules_enc *e, const rules_args *a, tb_err *err);
int cot_check_bolster(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_bolster(rules_enc *e, const rules_args *a, tb_err *err);
int cot_check_focus(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_focus(rules_enc *e, const rules_args *a, tb_err *err);
int cot_check_give(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_give(rules_enc *e, const rules_args *a, tb_err *err);
int cot_check_roll(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_roll(rules_enc *e, const rules_args *a, tb_err *err);
int cot_check_train(const rules_enc *e, const rules_args *a, tb_err *err);
int cot_act_train(rules_enc *e, const rules_args *a, tb_err *err);
extern const rules_param cot_train_params[];

/* The rows of the shared actions, first in every slot module's table. */
/* clang-format off */
#define COT_COMMON_ACTIONS \
    {"begin", "Begin round 1", RULES_ENC_GM, cot_no_params, cot_act_begin, "000:37-38", \
     cot_check_begin, 0}, \
    {"skip", "Pass the slot", RULES_ENC_GM, cot_no_params, cot_act_skip, "000:38", \
     cot_check_skip, 0}, \
    {"claim", "Claim the slot", RULES_ENC_TURN, cot_no_params, cot_act_claim, "000:38", \
     cot_check_claim, RULES_ENC_RARE}, \
    {"wait", "Wait", RULES_ENC_TURN, cot_no_params, cot_act_wait, "000:28", cot_check_wait, 0}, \
    {"bolster", "Bolster", RULES_ENC_TURN, cot_target_params, cot_act_bolster, "000:27", \
     cot_check_bolster, 0}, \
    {"focus", "Focus Round", RULES_ENC_OWNER, cot_no_params, cot_act_focus, "000:38-40", \
     cot_check_focus, RULES_ENC_RARE}, \
    {"give", "Give my slot to the Focus Round", RULES_ENC_OWNER, cot_no_params, cot_act_give, \
     "000:40", cot_check_give, 0}, \
    {"roll", "Roll a skill", RULES_ENC_TURN, cot_roll_params, cot_act_roll, "000:9-13", \
     cot_check_roll, 0}, \
    {"train", "Spend Foresight on Training", RULES_ENC_OWNER, cot_train_params, cot_act_train, \
     "000:218", cot_check_train, RULES_ENC_RARE}
/* clang-format on */

/* ---- what the GM may set, and what the slot modules can use ---- */

/* The numbers a GM adjusts mid-scene: Cover (000:123), a wound and its days (000:135), the
 * Focus Round of the session (000:40), abilities and skills (000:44-96). */
#define COT_SKILL_FIELD(id, label)                                                                 \
    {                                                                                              \
        "stats/skills/" id, RULES_PARAM_INT, 0, 10, label                                          \
    }
/* clang-format off */
#define COT_EDITABLE_FIELDS \
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

extern const rules_enc_field cot_editable[];
/* Written back to the sheets after every action: wounds (000:135), the Focus Round (000:40),
 * Foresight (000:213-218: spent on Training in any scene). */
extern const char *const cot_sheet_stats[];
/* The module hook `check`: the slots, the Focus Round and each combatant's `claimed` list. */
int cot_module_check(const rules_enc *e, tb_err *err);

/* ---- the Spot of a heist (cot.heist; rules/cot/spot.c) ----
 *   /gm/enc/spot  {zones: {zid: {name, tags: [..], edge, rating, hazard}},
 *                  barriers: {bid: {from, to, tag, score, open}},
 *                  guards: {gid: {name, zone, awareness, training}}}   — the GM's plan, all of it
 *   /enc/spot     {zones: {zid: {name, tags}}, barriers: {bid: {from, to, tag, open}},
 *                  guards: {gid: {name, zone, aware}}, crew: {cid: zid or "outside"}}
 *                  — only what the crew has discovered */

#define COT_OUTSIDE "outside" /* the street outside the Spot, where the crew begins (000:175) */

/* /gm/enc/spot/<k> and /enc/spot/<k> (zones, barriers, guards, crew), created when missing; the
 * _get forms only read (NULL when missing). */
json_t *cot_spot_plan(rules_enc *e, const char *k);
json_t *cot_spot_shown(rules_enc *e, const char *k);
json_t *cot_spot_plan_get(const rules_enc *e, const char *k);
json_t *cot_spot_shown_get(const rules_enc *e, const char *k);
int cot_zone_has_tag(const json_t *zone, const char *tag);
/* Zone zid is outside or the crew knows it; zid is outside or the GM planned it. */
int cot_zone_shown(const rules_enc *e, const char *zid);
int cot_zone_known(const rules_enc *e, const char *zid);
/* Makes zone zid public, with the barriers whose both sides the crew now knows. 1 if new. */
int cot_spot_reveal(rules_enc *e, const char *zid);
/* The crew sees zone zid and its guards (names, Aware or not; never their scores). */
void cot_spot_see_guards(rules_enc *e, const char *zid);
/* Every guard of zone zid becomes Aware; how many were not. */
int cot_spot_alarm(rules_enc *e, const char *zid);
/* The highest Awareness of the guards in zid (000:200), -1 when none. */
int cot_zone_awareness(rules_enc *e, const char *zid);
/* A guard the crew sees in zid is Aware. */
int cot_zone_has_aware_guard(const rules_enc *e, const char *zid);
/* The GM's barrier between zones a and b (either way round), or NULL. */
json_t *cot_barrier_between(const rules_enc *e, const char *a, const char *b);
/* Where crew member cid is (a zone id or COT_OUTSIDE), and a zone's name for the table. */
const char *cot_crew_position(const rules_enc *e, const char *cid);
const char *cot_zone_name(const rules_enc *e, const char *zid);
/* The comma-separated zone tags as a new array, or NULL with err filled (000:176-186). */
json_t *cot_zone_tags_parse(const char *list, tb_err *err);
/* A barrier tag's index (lock, vault, height, structure, none: 000:188-192), -1 if none; the
 * skills (i = 1, 2) that bypass it, or NULL. */
int cot_barrier_tag(const char *tag);
const char *cot_barrier_skill(int tag, int i);
/* Research's goal (000:206-211): its difficulty against `zones` (the GM's) and the mark's
 * Connections (a number of the GM's, `mark`), or for hidden zones
 * 0 with *hidden set; -1 when the goal is none of layout, hidden, mark, itinerary. */
int cot_goal_difficulty(const json_t *zones, const rules_args *a, int mark, int *hidden);
/* The mark's Connections the GM set (`mark`, /gm/enc/spot/mark), 0 when none. */
int cot_mark_connections(const rules_enc *e);
/* The Heist's clock (000:21 "Heist: 5 minutes" a round; issue 25): a crew member's move or bypass
 * is its action of a round. cid's count of them (`acts` on its combatant) goes up by one, and
 * the scene's /enc/round is the highest count: the round begins when the first crew member acts,
 * the next when one acts again. */
void cot_heist_round(rules_enc *e, const char *cid);
/* Research's method (000:203-205): its skill, or NULL. */
const char *cot_method_skill(const char *how);
/* A crew member's stats group number (def when absent) and sheet number (reputation, heat,
 * foresight, resources). */
int cot_crew_stat(const rules_enc *e, const char *cid, const char *group, const char *key, int def);
int cot_crew_num(const rules_enc *e, const char *cid, const char *k);
/* A crew member's roll of skill (its ability per 000:44-96) with bonus and a waiting Training
 * scheme (000:218), which the roll uses up: whether it can be rolled, and rolling it (dice: a
 * new array). */
int cot_crew_check(const rules_enc *e, const char *cid, const char *skill, int bonus, tb_err *err);
int cot_crew_roll(rules_enc *e, const char *cid, const char *skill, int bonus, cot_roll *r,
                  json_t **dice, tb_err *err);

/* The choices of the heist's parameters: every planned zone (shown_only: those the crew knows;
 * `outside` first when outside); the zones the actor can walk into now first; the barriers the
 * crew knows, closed ones where the actor stands first; zone tags alone or together. */
void cot_spot_choose_zones(const rules_enc *e, int shown_only, int outside, json_t *out);
void cot_spot_choose_moves(const rules_enc *e, const char *actor, json_t *out);
void cot_spot_choose_barriers(const rules_enc *e, const char *actor, json_t *out);
void cot_zone_choose_tags(json_t *out);
/* A scheme's Foresight cost for the actor (000:216-222), refused when it cannot be paid or the
 * arguments do not make one. Pure. */
int cot_scheme_cost(const rules_enc *e, const rules_args *a, int *cost, tb_err *err);

/* ---- what each side knows (cot.social; rules/cot/loyalty.c) ----
 *   /gm/enc/combatants/<cid>/loyalties  every combatant's Loyalties [{kind,target,prime}]
 *   knowledge of one side:  a PC's seat: /private/<seat>/social/<cid>
 *                           the NPCs (seat "gm"): /gm/enc/known/<cid>
 *     = {identified, identity?, presented_seen?, loyalties: {"<n>": text}, impedes?,
 *        agendas?: {<by>: agenda}, agenda?: the latest, tried?, alterable?}
 *     agenda = {text, by, alters?, achieved?, denied?, impedes?} */

/* The seat whose knowledge cid's learning is: its controller ("gm" for an NPC). */
const char *cot_seat_of(const rules_enc *e, const char *cid);
/* What `seat` knows about combatant `about` (NULL: nothing yet); the same created when missing. */
json_t *cot_known_get(const rules_enc *e, const char *seat, const char *about);
json_t *cot_known(rules_enc *e, const char *seat, const char *about);
/* `seat` has identified `about` (000:253). */
int cot_identified(const rules_enc *e, const char *seat, const char *about);
/* cid's Loyalties (the GM's copy), or NULL. */
json_t *cot_loyalties_of(const rules_enc *e, const char *cid);
/* The agenda cid pushes on target as cid's side knows it, or NULL. */
json_t *cot_agenda_of(const rules_enc *e, const char *cid, const char *target);
/* Every seat of `side` (and the GM's side's copy) learns the agenda v (stolen, {by, text,
 * alters?, achieved?, denied?, impedes?}) about `about`: kept per pusher, `agendas[<by>]` (an
 * agenda is its pusher's: RULES.md reading 13), and as `agenda`, the latest one. */
void cot_side_learns_agenda(rules_enc *e, const char *side, const char *about, json_t *v);
/* Copies cid's Loyalties (a PC's from its player's private sheet, an NPC's from its sheet) into
 * /gm/enc/combatants/<cid>/loyalties when it joins any cot scene. */
void cot_copy_loyalties(rules_enc *e, const char *cid, const json_t *sheet);
/* Lean Onto one's own Loyalty (000:239 "any Loyalty of immediate relevance to any type of
 * action"; parameter `lean_onto` = n, 0 for none): the refusal when the actor has no Loyalty n,
 * else 0 with *bonus the +1k0 (0 or 1). Whether it is relevant is the table's call. */
int cot_lean_own(const rules_enc *e, const rules_args *a, int *bonus, tb_err *err);
/* The actor's own Loyalties as choices (its seat's to read), Loyalty `first` first; `none`
 * (null) before them when not NULL. */
void cot_choose_loyalties(const rules_enc *e, const char *actor, int first, const char *none,
                          json_t *out);
/* Every seat forgets what it learned of Loyalty n of cid (it changed). */
void cot_forget_loyalty(rules_enc *e, const char *cid, int n);

/* ---- the chase (cot.chase; rules/cot/pursuit.c) ----
 * /enc/target_side names the Target group (every other side pursues, 000:147); each Pursuer has
 * its public `distance`; stats `vehicle`, `driver`, `speed`, `body`, `ram_bonus`. */

/* cid is of the Target group; in a vehicle; moving at Speed (a Speed rating, not cramped:
 * 000:139-144); its Velocity Rating (000:157: the Speed rating, else Muscle). */
int cot_chase_is_target(const rules_enc *e, const char *cid);
int cot_chase_in_vehicle(const rules_enc *e, const char *cid);
int cot_chase_at_speed(const rules_enc *e, const char *cid);
int cot_chase_velocity(const rules_enc *e, const char *cid);
/* A Pursuer's Distance (0 once it Boarded, 000:163) and setting it (never below 0). */
int cot_chase_dist(const rules_enc *e, const char *pursuer);
void cot_chase_dist_set(rules_enc *e, const char *pursuer, int d);
/* Refusals: unless the actor is of the group (target 1: the Target, 0: a Pursuer); unless cid
 * drives (or is on foot: 000:153-171); unless t is of the Target group and in the chase; unless
 * the pursuer is at Distance 0 (`what` needs it, `cite` the line). */
int cot_chase_role(const rules_enc *e, int target, const char *what, tb_err *err);
int cot_chase_driver(const rules_enc *e, const char *cid, const char *what, tb_err *err);
int cot_chase_target_check(const rules_enc *e, const char *t, const char *what, tb_err *err);
int cot_chase_at_zero(const rules_enc *e, const char *pursuer, const char *what, const char *cite,
                      tb_err *err);
/* A Pursuer able to Close (000:153): in the chase, on foot or driving. */
int cot_chase_can_close(const rules_enc *e, const char *cid);
/* Of the actor and t, the one who pursues; the driver of t's vehicle (its Body Score), or NULL
 * when t is on foot. */
const char *cot_chase_pursuer_of(const rules_enc *e, const char *t);
const char *cot_chase_vehicle_holder(const rules_enc *e, const char *t);
/* cid's chase pool (000:141-144: Speed+Driving at Speed, Fingers+Driving in a vehicle,
 * Muscle+Athletics on foot): whether it can be rolled, and rolling it (`what`: its name). */
int cot_chase_pool_check(const rules_enc *e, const char *cid, tb_err *err);
int cot_chase_throw(rules_enc *e, const char *cid, cot_throw *t, const char **what, tb_err *err);
/* The opposed roll of the actor against opp (000:13: opp first, its total the difficulty),
 * logged as `event` with the actor's slot: 1 when the actor succeeds, 0 when not, <0 a refusal;
 * and its checks (the turn, both pools). */
int cot_chase_opposed(rules_enc *e, const char *opp, const char *event, int slot, tb_err *err);
int cot_chase_opposed_check(const rules_enc *e, const char *opp, const char *action, tb_err *err);

/* ---- the modules (rules/cot/<module>.c) ---- */

extern const rules_module rules_module_cot_initiative;
extern const rules_module rules_module_cot_warfare;
extern const rules_module rules_module_cot_heist;
extern const rules_module rules_module_cot_chase;
extern const rules_module rules_module_cot_social;

#endif
