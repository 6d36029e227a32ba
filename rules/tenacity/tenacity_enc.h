/*
 * tenacity_enc.h — what the 10acity encounter modules share (internal: only the files of
 * rules/tenacity/ include it). Rulebook 003_632e2c704060b738.txt, cited 003:LINE; readings in
 * rules/RULES.md,
 * "## tenacity".
 *
 * The files, each calling only the ones above it (never back up, never sideways):
 *   tenacity.h/.c  the system: hero dice, spin, pushes, the sheet (no encounter)
 *   words.c        every word the modules log (data), and a line that only names combatants
 *   state.c        what an encounter holds and how to read it: the spotlight's lists, stats and
 *                  tracks, skills, conditions and their challenges, the standing scale, the fight's
 *                  states (cover, prone, size, resistances, grips), the module hooks they share
 *   spaces.c       the spaces of the scene's map: where fighters stand, melee range
 *   roll.c         the dice of an encounter: a side's roll, the contest (ties to the defender,
 *                  criticals, spin and pushes, impact), its log, stress/wounds/unconsciousness,
 *                  shaking a condition off, and the checks every roll makes before its first die
 *   turn.c         who holds the spotlight (003:84-92): turns, rounds, who may go next
 *   fight.c        the fight's states in an attack (cover, prone, size, flanking, resistances)
 *   choices.c      what a seat may pick for each parameter of a move (the modules' choices hook)
 *   spotlight.c    the module tenacity.spotlight: its action table first, then its actions
 *   options.c      the combat options' actions of tenacity.spotlight (in spotlight.c's table)
 *   social.c       the module tenacity.social
 *   between.c      the module tenacity.between
 *
 * The state of tenacity.spotlight (documented in rules/RULES.md, "Encounters (module
 * tenacity.spotlight)" and "Combat options"):
 *   /enc: spotlight (cid|null), acted [cid], cue [cid], recalled [cid], responder (cid|null),
 *         choosing (bool), opening (bool), parted [cid], start_squares {cid: [x, y]} (the
 *         map's squares when the spotlight last moved); group mode: groups [side], group (index),
 *         edge [cid]; standing {who: {eyes: 0..10}}
 *   combatant: init (PCs), overflow ("wound"|"unconscious"), coup {target, stage, done}, cover,
 *              prone, elevated, size, grip {by, locked, limbs}, gripping, held {what, trigger},
 *              helped_by, help_skill (a PC helper's), offer {negative, cost}, resist {type: n}
 *              (PCs)
 *   stats: skills {name: [dice, rank, impact_bonus, attribute]} and the sheet's stress, wounds,
 *          tenacity, spin, unconscious, conditions; a sheetless NPC: challenge_dice,
 *          challenge_bonus, impact_dice, impact_bonus, stress, wounds
 *   /gm/enc/combatants/<cid>: init (NPCs), conds {<condition name>: challenge}, resist,
 * held_trigger, stealth (the hider's roll, 003:73), help_skill (an NPC helper's skill)
 *
 * Checks (an action's `check`) take a const rules_enc and read only: every reader below that
 * takes `const rules_enc *` creates nothing.
 */
#ifndef TABLED_RULES_TENACITY_ENC_H
#define TABLED_RULES_TENACITY_ENC_H

#include "encounter.h"
#include "tenacity.h"

/* The modules (spotlight.c, social.c, between.c), listed by the system (tenacity.c). */
extern const rules_module rules_module_tenacity_spotlight;
extern const rules_module rules_module_tenacity_social;
extern const rules_module rules_module_tenacity_between;

/* ==== words.c: every word the modules log, and the lines that only name combatants ==== */
/* The phrasings of the system (the shared layers' events) and of each module. */
extern const rules_phrase ten_phrases[];
extern const rules_phrase ten_phrases_spotlight[];
extern const rules_phrase ten_phrases_social[];
extern const rules_phrase ten_phrases_between[];
/* The words of a system phrasing without values (the spotlight's reasons, for a refusal's
 * message), or event itself. */
const char *ten_words(const char *event);
/* A line of its own that names one combatant: `event` with {who} = cid. */
void ten_say(rules_enc *e, const char *action, const char *event, const char *cid);
/* The same with a second combatant: {<key>} = other. */
void ten_say_to(rules_enc *e, const char *action, const char *event, const char *cid,
                const char *key, const char *other);

/* ==== state.c ==== */

/* ---- /enc lists and flags ---- */
/* The array /enc/<key> (created if missing). Borrowed. */
json_t *ten_list(rules_enc *e, const char *key);
/* cid is in list (NULL: no). */
int ten_has(const json_t *list, const char *cid);
void ten_put(json_t *list, const char *cid); /* appends unless there */
void ten_drop(json_t *list, const char *cid);
/* cid is in /enc/<key>. */
int ten_listed(const rules_enc *e, const char *key, const char *cid);
/* /enc/<key> as a string (NULL when absent or null) and setting it (NULL: json null). */
const char *ten_str(const rules_enc *e, const char *key);
void ten_set_str(rules_enc *e, const char *key, const char *v);
int ten_flag(const rules_enc *e, const char *key);
void ten_set_flag(rules_enc *e, const char *key, int v);
/* Start option `name` (enc.start options) is on. */
int ten_option(const rules_enc *e, const char *name);

/* ---- who ---- */
/* The spotlight holder, or NULL. */
const char *ten_holder(const rules_enc *e);
int ten_acted(const rules_enc *e, const char *cid);
/* Different sides (003:87 "an opposing character"). */
int ten_opposed(const rules_enc *e, const char *a, const char *b);
/* In the fight: a combatant, not out (dead, removed). */
int ten_present(const rules_enc *e, const char *cid);

/* ---- stats ---- */
/* cid's stats object where rules_enc_stats keeps it, or NULL (never created). Borrowed. */
json_t *ten_stats(const rules_enc *e, const char *cid);
int ten_stat(const rules_enc *e, const char *cid, const char *key, int def);
/* cid's budget of kind left this turn. */
int ten_budget(const rules_enc *e, const char *cid, const char *kind);
int ten_unconscious(const rules_enc *e, const char *cid);
int ten_spin(const rules_enc *e, const char *cid);
/* Adds delta to cid's spin, never below -10 (003:37). */
void ten_spin_add(rules_enc *e, const char *cid, int delta);
/* The track {current, max} `key` of cid's stats (created with max def_max if missing). */
json_t *ten_track(rules_enc *e, const char *cid, const char *key, int def_max);
/* Its current value (0 when there is none). */
int ten_track_now(const rules_enc *e, const char *cid, const char *key);
/* The skills map of cid, or NULL for a sheetless NPC (it rolls challenge dice). */
json_t *ten_skills(const rules_enc *e, const char *cid);
/* The skills map a sheet rolls (new reference): {name: [attribute dice, rank, best equipment
 * impact bonus (003:119), attribute name]}. */
json_t *ten_skills_of_sheet(const json_t *sheet);
/* Case-insensitive equality of two names (NULL never equal). */
int ten_same(const char *a, const char *b);

/* ---- conditions (003:96-105) ---- */
/* The largest hinder penalty on skill (003:99 "do not stack"), and the name of a stop condition
 * on it (003:102) in *stop (may be NULL); the condition named skip does not count (003:104). */
/* Whether a condition on `what` (a skill, its attribute, "all"; "movement" for move) covers
 * cid's skill. */
int ten_covers(const rules_enc *e, const char *cid, const char *what, const char *skill);
int ten_hinder_on(const rules_enc *e, const char *cid, const char *skill, const char **stop,
                  const char *skip);
/* The condition named or described by `what` ("hinder:legs" or "legs"), or NULL. */
json_t *ten_cond_find(const rules_enc *e, const char *cid, const char *what);
/* /gm/enc/combatants/<cid>/conds (created if missing). Borrowed. */
json_t *ten_cond_challenges(rules_enc *e, const char *cid);
/* The challenge to shake condition name off: the one recorded, else 7 (a sheet's condition
 * without one: the narrator sets it with enc.set, reading). */
int ten_cond_challenge(const rules_enc *e, const char *cid, const char *name);
/* Adds condition kind:what (or `name` when given) with level and its challenge. */
void ten_cond_put(rules_enc *e, const char *cid, const char *name, const char *kind,
                  const char *what, int level, int challenge);
/* The sheets' conditions follow the encounter's (written back by the server). */
void ten_sync_conditions(rules_enc *e);

/* ---- the social standing scale (003:49, 003:70), one for both modules ----
 * /enc/standing/<who>/<eyes>: who's standing in the eyes of eyes, an integer 0..10, public. */
#define TEN_STANDING_TOP 10             /* 003:70 "reach the top of the scale (usually 10)" */
#define TEN_STANDING_START 5            /* 003:70 "a neutral position such as 5" */
json_t *ten_standing_all(rules_enc *e); /* /enc/standing (created if missing). Borrowed. */
int ten_standing_of(const rules_enc *e, const char *who, const char *eyes, int def);
void ten_standing_set(rules_enc *e, const char *who, const char *eyes, int v);
/* Moves it from `from` by delta, clamped to 0..10 (003:70), records and returns it. */
int ten_standing_move(rules_enc *e, const char *who, const char *eyes, int from, int delta);

/* ---- the fight's states (003:104-123) ---- */
#define TEN_GRAPPLED "grappled"
#define TEN_LOCKED "locked"
const char *ten_cover(const rules_enc *e, const char *cid);       /* "partial"|"full"|"soft"|NULL */
int ten_is(const rules_enc *e, const char *cid, const char *key); /* prone, elevated */
int ten_size(const rules_enc *e, const char *cid);
/* cid's resistance to `type` (003:120): 0 when none or type is NULL. */
int ten_resist_of(const rules_enc *e, const char *cid, const char *type);
/* Where cid's resistances live (a PC's public, an NPC's the GM's); created. Borrowed. */
json_t *ten_resists(rules_enc *e, const char *cid);
/* The grip on cid ({by, locked, limbs}) or NULL, and who holds it. */
json_t *ten_grip_of(const rules_enc *e, const char *cid);
const char *ten_grip_by(const rules_enc *e, const char *cid);
/* Whether condition `name` is a grapple or a lock (003:104-105). */
int ten_grip_cond(const char *name);
/* Ends the grip on cid: both conditions, both records. */
void ten_grip_end(rules_enc *e, const char *cid);
/* cid fell unconscious or (dead) perished: whoever it held is free; a dead character is held by
 * nobody (reading O3). */
void ten_grip_lost(rules_enc *e, const char *cid, int dead);
/* Before a roll to shake condition name off: a lock is broken only with an action, a grapple
 * under a lock only after the lock (003:105). 0 or TB_RULE. */
int ten_grip_may_shake(const rules_enc *e, const char *cid, const char *name, int action,
                       tb_err *err);
/* After name was shaken off: a broken lock reverts to a grapple, an escaped grapple ends. */
void ten_grip_shaken(rules_enc *e, const char *cid, const char *name);
/* Fails cid's coup de grâce in progress (003:107: forced to do anything else); why is the
 * phrasing of the reason ("why.defend"). */
void ten_coup_fail(rules_enc *e, const char *cid, const char *why);

/* ---- parameters ---- */
/* The parameter `name` of the action's table: its string (NULL when absent or not in the table),
 * its integer (def when not in the table), whether it was given. */
const char *ten_arg_str(const rules_args *a, const char *name);
int ten_arg_int(const rules_args *a, const char *name, int def);
int ten_arg_given(const rules_args *a, const char *name);
/* The `skill` parameter, "-" when absent (a sheetless NPC rolls its challenge dice). */
const char *ten_skill_arg(const rules_args *a);

/* ---- help (003:57, 003:79) ---- */
/* The help waiting on cid's next action roll is over (taken, or lapsed): the condition `helped`
 * and the combatant's helped_by, help_skill. */
void ten_help_end(rules_enc *e, const char *cid);

/* ---- the hooks the modules share ---- */
/* A combatant's skills, its sheet's conditions, a quick NPC's card (003:13-14). */
int ten_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
/* 003:94 the end of a scene: positive spin is lost; 003:74 stress is recovered. */
/* The end of a scene (003:74): every combatant's stress back to 0, said under `action` (an NPC's
 * that it had some, to the GM only). */
void ten_recover_stress(rules_enc *e, const char *action);
int ten_end(rules_enc *e, tb_err *err);
extern const rules_enc_field ten_editable[];
extern const char *const ten_sheet_stats[];

/* ==== spaces.c: the spaces of the scene's map (003:82, 003:111-112, 003:121; reading S1) ====
 * A fighter's square is its shown token's; one square is one space. -1: the map does not say
 * (no map shown, a fighter not on it or larger than one space): the GM's word. */
#define TEN_MELEE_SPACES 1 /* melee range: your space and the ones next to it (reading S1) */
/* Spaces between a and b now (the larger of the column and row steps), or -1. */
int ten_spaces_now(const rules_enc *e, const char *a, const char *b);
/* The same at the start of the turn (/enc/start_squares), or -1. */
int ten_spaces_at_start(const rules_enc *e, const char *a, const char *b);
/* Keeps every fighter's square as the spotlight moves (/enc/start_squares {cid: [x, y]},
 * removed when no fighter is on a shown map). */
void ten_mark_start(rules_enc *e);
/* Whether cid started the turn in an opponent's melee range: 1, 0 (every opponent on the map
 * and none next to it), -1 (the map does not say). */
int ten_started_in_melee(const rules_enc *e, const char *cid);
/* Refuses a melee action (`range` not "ranged") on a target the map puts out of melee range. */
int ten_require_reach(const rules_enc *e, const char *actor, const char *target,
                      const rules_args *a, tb_err *err);

/* ==== roll.c ==== */

/* One side of a roll: hero dice (003:11) or a sheetless NPC's challenge d6s (003:13-14). */
typedef struct ten_side {
    const char *cid;
    int hero; /* 1: hero dice; 0: challenge dice */
    tenacity_roll r;
    int total;
    int rank;   /* the skill's rank (impact dice 003:15); a sheetless NPC: its impact dice x 2 */
    int ibonus; /* the skill's equipment impact bonus (003:12) */
} ten_side;

/* 0 when cid can roll skill (it is on its sheet; a sheetless NPC rolls any), else TB_BAD_REQUEST
 * naming it. */
int ten_skill_check(const rules_enc *e, const char *cid, const char *skill, tb_err *err);
/* Rolls cid's skill (checked: ten_skill_check) with adv extra dice and bonus (minus a matching
 * hinder penalty, 003:99; plus the edges of the fight's states, which a helper's die is spent
 * on); every die goes to `dice` tagged with role and cid. */
void ten_roll(rules_enc *e, const char *cid, const char *skill, int adv, int bonus,
              const char *role, json_t *dice, ten_side *s);
/* A natural 10 on s's hero dice (003:28): the critical's extra die, the one `crit` names ("hero" or
 * "impact"; NULL: the hero die exactly when s does not beat `against`, reading 2). The hero die
 * is rolled into dice and added to s; took is "hero", "impact" or "" (no critical). Returns 1
 * when the caller owes an extra impact die. */
int ten_crit(rules_enc *e, ten_side *s, const char *crit, int against, json_t *dice, char took[8]);
/* The roll parameters' checks that need no die (crit, push, push_with): 0 or TB_BAD_REQUEST. */
int ten_roll_params(const rules_args *a, tb_err *err);
/* The impact of side s: half its rank in d4 (+1 d4 for a critical's impact die) + bonus + its
 * equipment (003:12, 003:15), at least 0; each die appended to dice (borrowed). */
int ten_impact_roll(rules_enc *e, ten_side *s, int crit_die, int bonus, json_t *dice);
/* A sheetless or sheeted side for an impact roll without a check (a lock's damage, a healer's
 * day): cid's `skill` when on its sheet, else its card's impact dice. */
void ten_side_for_impact(const rules_enc *e, const char *cid, const char *skill, ten_side *s);
/* Tags the last die of dice with role and who rolled it. */
void ten_tag_last(json_t *dice, const char *role, const char *cid);

/* ---- the log (rules/encounter.h, "The log"): the words and the one-line helpers are in words.c
 * ---- */
/* One side's dice (borrowed) and total under key, for cid's audience (an NPC's are the GM's). */
void ten_log_side(rules_enc *e, rules_log *x, const json_t *dice, const char *cid, const char *key,
                  int total);
/* {with}: " with <skill>" in cid's audience (nothing for a sheetless NPC's "-"). */
void ten_log_skill(rules_enc *e, rules_log *x, const char *cid, const char *skill);
/* {vs}: ": <a> vs <b>" for the GM when one total is hidden (an NPC's, or other_hidden). */
void ten_log_versus(rules_enc *e, rules_log *x, const char *a_cid, const char *b_cid,
                    int other_hidden, int a, int b);
/* A try against a number: cid's dice and total, {with} its skill, {vs} against `against` (for the
 * GM when a total is hidden: other's, or other_hidden), and the public success. */
void ten_log_try(rules_enc *e, rules_log *x, json_t *dice, const char *cid, const char *skill,
                 const char *other, int other_hidden, int total, int against, int ok);
/* An action roll whose total (at least 0) becomes condition cond's level on cid (a PC's; an NPC's
 * level is 0: its number is the GM's): sprint's spaces, a hider's stealth (003:72, 003:73). The
 * roll's spin (doubles, a fumble) is applied and put in *gain. Returns the total. */
int ten_roll_to_cond(rules_enc *e, const char *cid, const char *skill, int adv, int bonus,
                     const char *role, const char *cond, json_t *dice, int *gain);
/* {gm}: required by a phrasing only the GM reads (gm_only), or said to everyone. */
void ten_log_gm_only(rules_log *x, int gm_only);

/* ---- the contest (003:66, 003:68) ---- */
/* What the fight's states add to a contest's two sides (fight.c) and whether it is a reaction
 * (no spin from it, 003:95). */
typedef struct ten_mods {
    int atk_adv, atk_bonus, def_adv, def_bonus;
    int reaction;
} ten_mods;

typedef struct ten_contest {
    ten_side atk, def;
    int success;
    int impact;   /* rolled on a success (003:5, 003:45) */
    char took[8]; /* the critical's die: "hero", "impact" or "" */
} ten_contest;

/* Before the dice of a contest: a's roll parameters (ten_roll_params) and both skills (the
 * defender's `def_skill`, default Reaction). */
int ten_contest_check(const rules_enc *e, const char *actor, const char *target, const char *skill,
                      const rules_args *a, tb_err *err);
/*
 * The contest every tenacity check is: actor's `skill` against target's `def_skill` (Reaction)
 * with a's roll parameters (adv, bonus, def_adv, def_bonus, crit, push, push_with, impact_bonus)
 * and m (NULL: none); ties to the defender (003:68), spin and pushes paid with spin, 10acity or
 * negative spin (003:30-37), the critical's die (003:28) and, on a success with want_impact, the
 * impact. Checked before (ten_contest_check). Fills c and the log l (begun with ten_log_begin).
 */
void ten_contest_roll(rules_enc *e, const char *actor, const char *target, const char *skill,
                      const rules_args *a, const ten_mods *m, int want_impact, ten_contest *c,
                      rules_log *x);
/* actor's skill against n of the narrator's challenge d6s, hidden (003:46, 003:67): the
 * contest's rules with a GM-only challenge; adv extra hero dice. Checked before (ten_roll_params,
 * ten_skill_check). */
void ten_challenge_contest(rules_enc *e, const char *actor, const char *skill, const rules_args *a,
                           int adv, int n, ten_contest *c, rules_log *x);

/* ---- what every action checks before anything is spent or rolled ---- */
/* cid is in the scene, not out (dead, fled): what an owner's action (taken at any time) asks of
 * its actor, as the server asks it of a turn's. */
int ten_require_in(const rules_enc *e, const char *cid, tb_err *err);
/* The actor can act (`action` names it: not unconscious unless it recovers, no coup de grâce
 * under way unless it is the coup). */
int ten_require_able(const rules_enc *e, const char *cid, const char *action, tb_err *err);
/* target is someone else and not out. */
int ten_require_target(const rules_enc *e, const char *actor, const char *target, tb_err *err);
/* No condition stops cid's skill (003:102). */
int ten_require_skill_free(const rules_enc *e, const char *cid, const char *skill, tb_err *err);
/* The three above for a contest of actor on target with skill. */
int ten_require_contest(const rules_enc *e, const char *actor, const char *target, const char *what,
                        const char *skill, tb_err *err);
/* cid has n of `kind` left this turn (the words of rules_enc_spend). */
int ten_require_budget(const rules_enc *e, const char *cid, const char *kind, int n, tb_err *err);

/* ---- stress, wounds, unconsciousness, death (003:66, 003:106-109) ---- */
/* Adds n stress to cid; over the maximum: a wound or unconsciousness (003:66, 003:106), or in
 * hardcore mode a wound or death (003:109). Logs it. */
void ten_stress(rules_enc *e, const char *cid, int n, const char *why);
/* ten_stress, where quiet keeps an NPC's number out of the public text (a resistance, 003:120). */
void ten_stress_quiet(rules_enc *e, const char *cid, int n, const char *why, int quiet);
/* cid dies: why is the phrasing of the reason ("death.choice"), by who brought it (or NULL). */
void ten_perish(rules_enc *e, const char *cid, const char *why, const char *by);

/* ---- shaking a condition off (003:97) ---- */
/* Before the roll to shake `cond` off with skill (action: 1 when it is the action). */
int ten_shake_check(const rules_enc *e, const char *cid, const char *cond, const char *skill,
                    int action, tb_err *err);
/* The roll (checked before). */
void ten_shake(rules_enc *e, const char *cid, const char *cond, const char *skill, int action);

/* ==== turn.c: the spotlight (003:84-92) ==== */

/* Puts cid in the spotlight: a fresh turn (budget, damage conditions, end of full defence), or,
 * when cid has already acted this round, only the choice of who goes next (003:89). */
void ten_start_turn(rules_enc *e, const char *cid);
/* A holder's action affected cid: cid enters the spotlight (003:84, 003:87) and, if it has
 * already acted, may respond (003:91). */
void ten_bring(rules_enc *e, const char *cid);
/* Spends the actor's action (003:82; checked before: ten_require_budget); returns 1 (an extra
 * advantage die) when it is the group initiative's second group's first action this round
 * (003:92), else 0. */
int ten_take_action(rules_enc *e, const char *cid);
/* After every action: the responder's response is over once its action is spent; conditions
 * mirrored to the sheets. */
void ten_done(rules_enc *e);
int ten_may_act(rules_enc *e, const char *cid, tb_err *err);
/* Nothing of cid's turn is spent yet. */
int ten_untouched(const rules_enc *e, const char *cid);
/* cid is in the group whose turn it is (group initiative), g the group's index. */
int ten_in_group(const rules_enc *e, const char *cid, int g);
/* The group initiative's groups: the sides in initiative order, `first` moved to the front. */
void ten_set_groups(rules_enc *e, const char *first);
/* Initiative (003:85-86): the order, round 1, the winner in the spotlight (rolled: every
 * combatant present can roll skill, checked before). */
void ten_initiative(rules_enc *e, const char *skill);
/* holder's turn is over: who takes the spotlight next (003:87-90), `next` when the holder names
 * one. ten_next_check says before, on a copy of the state, whether `next` may have it (over: the
 * holder's turn ends first, ten_turn_over). */
int ten_next_check(const rules_enc *e, const char *holder, const char *next, int over, tb_err *err);
void ten_hand_on(rules_enc *e, const char *holder, const char *next);
/* The end of holder's turn before the spotlight moves: a coup de grâce completed or failed, the
 * holder has acted. */
void ten_turn_over(rules_enc *e, const char *holder);

/* ==== fight.c: the fight's states in an attack (003:110-123) ==== */

/* The checks and modifiers of a physical attack by actor on target, before any die (range,
 * flanking, full cover, partial cover, prone, size). Adds to m. 0 or the refusal. */
int ten_fight_mods(const rules_enc *e, const char *actor, const char *target, const rules_args *a,
                   ten_mods *m, tb_err *err);
/* The public words for the states that changed the contest. */
void ten_say_states(rules_enc *e, rules_log *x, const char *actor, const char *target,
                    const rules_args *a);
/* Impact scaled for size (003:122-123): d = target's size minus the attacker's. */
int ten_size_damage(int impact, int d);
/* Deals n points of `type` damage to target, its resistance first (003:120). Returns the stress
 * dealt. */
int ten_deal(rules_enc *e, const char *target, int n, const char *type, const char *why);
/* Attack or parting strike (reaction) of actor on target: its checks, and its resolve. */
int ten_strike_check(const rules_enc *e, const char *actor, const char *target, const rules_args *a,
                     int reaction, tb_err *err);
void ten_strike(rules_enc *e, const char *actor, const char *target, const rules_args *a,
                int reaction);

/* ==== choices.c: the moves' choices (rules/encounter.h, "moves") ==== */

/* The choices hook of the three modules: the values the state holds for parameter p of action a
 * for actor, only those the action's check accepts (the other parameters at their first
 * choice). */
int ten_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                const rules_param *p, json_t *out);

/* ==== the actions of tenacity.spotlight kept beside their machinery (its table is in
 * spotlight.c): a check (pure) and a resolve each ==== */

#define TEN_ACTION_CHECK(name)                                                                     \
    int ten_chk_##name(const rules_enc *e, const rules_args *a, tb_err *err)
#define TEN_ACTION_RESOLVE(name) int ten_act_##name(rules_enc *e, const rules_args *a, tb_err *err)
/* turn.c: the spotlight's own */
TEN_ACTION_CHECK(initiative);
TEN_ACTION_RESOLVE(initiative);
TEN_ACTION_CHECK(pass);
TEN_ACTION_RESOLVE(pass);
TEN_ACTION_CHECK(end);
TEN_ACTION_RESOLVE(end);
TEN_ACTION_CHECK(respond);
TEN_ACTION_RESOLVE(respond);
TEN_ACTION_CHECK(spotlight);
TEN_ACTION_RESOLVE(spotlight);
/* options.c: the combat options */
TEN_ACTION_CHECK(parting);
TEN_ACTION_RESOLVE(parting);
TEN_ACTION_CHECK(grapple);
TEN_ACTION_RESOLVE(grapple);
TEN_ACTION_CHECK(lock);
TEN_ACTION_RESOLVE(lock);
TEN_ACTION_CHECK(escape);
TEN_ACTION_RESOLVE(escape);
TEN_ACTION_CHECK(hold);
TEN_ACTION_RESOLVE(hold);
TEN_ACTION_CHECK(release);
TEN_ACTION_RESOLVE(release);
TEN_ACTION_CHECK(help);
TEN_ACTION_RESOLVE(help);
TEN_ACTION_CHECK(hide);
TEN_ACTION_RESOLVE(hide);
TEN_ACTION_CHECK(seek);
TEN_ACTION_RESOLVE(seek);
TEN_ACTION_CHECK(state); /* cover, prone, high_ground, size */
TEN_ACTION_RESOLVE(state);
TEN_ACTION_RESOLVE(resist);
TEN_ACTION_CHECK(offer);
TEN_ACTION_RESOLVE(offer);
TEN_ACTION_CHECK(trade); /* accept, decline */
TEN_ACTION_RESOLVE(accept);
TEN_ACTION_RESOLVE(decline);
TEN_ACTION_CHECK(die);
TEN_ACTION_RESOLVE(die);

/* ==== the parameters the modules' tables share ==== */
#define TEN_P_TARGET                                                                               \
    {                                                                                              \
        "target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "target"                     \
    }
#define TEN_P_SKILL                                                                                \
    {                                                                                              \
        "skill", RULES_PARAM_STRING, 1, 60, 0, 0, "skill rolled"                                   \
    }
#define TEN_P_ROLL                                                                                 \
    {"adv", RULES_PARAM_INT, 0, 5, 0, 0, "advantage dice"},                                        \
        {"bonus", RULES_PARAM_INT, -20, 20, 0, 0, "bonus to the result"},                          \
        {"crit", RULES_PARAM_STRING, 4, 6, 0, 0, "natural 10: hero or impact (003:28)"},           \
        {"push", RULES_PARAM_BOOL, 0, 1, 0, 0, "push a failure with spin/10acity/negative spin"},  \
    {                                                                                              \
        "push_with", RULES_PARAM_STRING, 1, 10, 0, 0,                                              \
            "what pays the push: spin, tenacity or negative (default: the cheapest first)"         \
    }
#define TEN_P_DEF                                                                                  \
    {"def_skill", RULES_PARAM_STRING, 1, 60, 0, 0, "defender's skill (Reaction)"},                 \
        {"def_adv", RULES_PARAM_INT, 0, 5, 0, 0, "defender's advantage dice"},                     \
    {                                                                                              \
        "def_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "defender's bonus"                            \
    }

#endif
