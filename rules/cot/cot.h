/*
 * cot.h — City of Thieves (rulebook 000_d2a475e9ec148dd1.txt, cited as 000:LINE): the keep-pool
 * d6 roll and the guard scores, as plain C for encounter modules (initiative slots, gang warfare,
 * chases, social calls) that roll without going through JSON parameters.
 *
 * The rule system itself (checks "pool" and "opposed", the sheet) is rules_system_cot, found
 * through rules/system.h.
 */
#ifndef TABLED_RULES_COT_H
#define TABLED_RULES_COT_H

#include "system.h"

#define COT_DIFFICULTY_BASE 9 /* 000:13 */

/* A pool: skill + ability dice, ability kept, with "+XkY" bonuses (000:9, 000:11, 000:27). */
typedef struct cot_pool_spec {
    int skill;
    int ability;
    int bonus;      /* +bonus k0: extra dice rolled (negative: fewer rolled), 000:11, 000:27 */
    int kept_bonus; /* +0 k kept_bonus: extra dice kept (Foresight "Training", 000:218) */
} cot_pool_spec;

typedef struct cot_roll {
    rules_pool pool; /* every die, in roll order, with which were kept */
    int total;       /* sum of the kept dice */
    int catastrophe; /* every die shows 1 (000:9) */
} cot_roll;

/* Whether the pool can be rolled (no die drawn): TB_BAD_REQUEST as cot_pool_roll would refuse
 * it, else 0. */
int cot_pool_check(const cot_pool_spec *spec, tb_err *err);

/*
 * Rolls the pool: rolled = skill + ability + bonus, kept = min(ability + kept_bonus, rolled),
 * highest kept (000:9). TB_BAD_REQUEST (message names the parameters) when fewer than 1 or more
 * than RULES_POOL_MAX dice would be rolled. rng is borrowed.
 */
int cot_pool_roll(const cot_pool_spec *spec, rules_rng *rng, cot_roll *out, tb_err *err);

/* Success against a difficulty: met or exceeded (000:9, 000:13), never on a Catastrophe. */
int cot_roll_succeeds(const cot_roll *r, int difficulty);

/* Guard score: 3 x kept dice + 1 per additional rolled die (000:196). */
int cot_guard_score(int rolled, int kept);

/*
 * 000:237 "changing the regular Loyalties to something different, or switching one of their
 * existing Loyalites with the Prime Loyalty": Loyalty n (1-based) of `loyalties` (an array of
 * {kind, target, prime}, changed in place) becomes `to` ("Kind: Target", like "Desire:
 * Knowledge"; kind 1-40 and target 1-100 bytes, as on the sheet; a regular Loyalty: the Prime
 * is never rewritten), or, with `prime` set, trades places with the Prime. Exactly one of the
 * two. `who` names the character in messages.
 * On success *was_prime (may be NULL) is the 1-based number of the Loyalty that was the Prime
 * before a swap, else 0. TB_BAD_REQUEST when `to` is malformed or neither/both are given,
 * TB_RULE when there is no Loyalty n, it is the Prime (both ways); nothing changes on failure.
 */
int cot_loyalty_alter(json_t *loyalties, int n, const char *to, int prime, const char *who,
                      int *was_prime, tb_err *err);

/* "Kind: Target" (with " (Prime)" for the Prime) of one Loyalty into out (n bytes). */
void cot_loyalty_text(const json_t *loyalty, char *out, size_t n);

#endif
