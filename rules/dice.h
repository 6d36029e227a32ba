/*
 * dice.h — generic dice expressions: the free-form rolls at the table and
 * `tabled roll dice EXPR`.
 *
 * Grammar (case-insensitive; spaces and tabs allowed between tokens, not inside one):
 *
 *     expr := ['+' | '-'] term (('+' | '-') term)*
 *     term := dice | integer
 *     dice := [N] 'd' S [('kh' | 'kl' | 'dh' | 'dl' | 'k') K]      'k' alone means 'kh'
 *
 * e.g. 4d6kh3+2, 2d20kl1, d20+5, 3d6-1, 2d6+1d4, 4d6dl1, 1d100, 10, -1d4+3.
 *
 * Limits (RULES_DICE_*; each violation is a TB_BAD_REQUEST naming the limit and the 1-based
 * character position of the offending token): expression length, total dice over all terms,
 * sides, N >= 1, keep/drop count (kh/kl: 1 <= K <= N; dh/dl: 0 <= K < N), constants, number of
 * terms.
 *
 * Keep/drop: khK keeps the K highest, klK the K lowest, dhK drops the K highest (keeps the N-K
 * lowest), dlK drops the K lowest (keeps the N-K highest). When dice tie, the earliest-rolled ones
 * among the equals are kept: 4d6kh1 rolling 6,6,2,1 keeps the first 6 and drops the second.
 *
 * Roll result (a new JSON object; the web client and the wire protocol rely on this shape):
 *
 *     {"expr": "4d6kh3+2",
 *      "dice":  [{"sides": 6, "value": 2, "kept": false, "term": 0}, ...],
 *      "terms": [{"text": "4d6kh3", "sign": 1, "subtotal": 15},
 *                {"text": "2", "sign": 1, "subtotal": 2}],
 *      "total": 17}
 *
 * "dice" lists every die in the order rolled, term by term (constants roll none); "term" indexes
 * "terms"; a term's "text" is its canonical text without sign; "sign" is 1 or -1; "subtotal" is
 * the sum of its kept dice or its constant (never negative); "total" = sum of sign * subtotal.
 */
#ifndef TABLED_RULES_DICE_H
#define TABLED_RULES_DICE_H

#include <jansson.h>

#include "err.h"
#include "rng.h"

#define RULES_DICE_MAX_LEN 200      /* characters of input text, spaces included */
#define RULES_DICE_MAX_DICE 100     /* dice over the whole expression */
#define RULES_DICE_MAX_SIDES 1000   /* sides of one die; at least 1 */
#define RULES_DICE_MAX_CONST 100000 /* a constant term: 0..this */
#define RULES_DICE_MAX_TERMS 20     /* dice and constant terms together */

typedef struct rules_dice_expr rules_dice_expr; /* opaque parsed expression */

/*
 * Parses text (NUL-terminated; NULL is treated as empty). On success returns 0 and sets *out to
 * a new expression owned by the caller (rules_dice_free). On failure returns TB_BAD_REQUEST,
 * sets *out to NULL and fills err (may be NULL) with a message that quotes the limit or the
 * unexpected character and its 1-based position. The message only echoes the input, so it is
 * safe to send to the player who typed it.
 */
int rules_dice_parse(const char *text, rules_dice_expr **out, tb_err *err);

/* Frees e. NULL is a no-op. */
void rules_dice_free(rules_dice_expr *e);

/*
 * The normalized text of e: lower-case, no spaces, no leading '+', "d20" written "1d20", 'k'
 * written 'kh', numbers without leading zeros; e.g. " D20 + 05 " -> "1d20+5". Parsing the
 * canonical text gives the same expression back, with one caveat: the canonical text can be up
 * to two characters per term longer than the input ("d9k1" -> "1d9kh1"), so for an input near
 * RULES_DICE_MAX_LEN it may itself be over that limit. Borrowed: valid until rules_dice_free(e).
 */
const char *rules_dice_canonical(const rules_dice_expr *e);

/*
 * Rolls e once with rng (borrowed; dice are drawn in the order they appear) and returns a new
 * reference to the result object described above; never NULL (aborts on OOM). With a scripted
 * rng, check rules_rng_exhausted afterwards: a die past the script counts as 1.
 */
json_t *rules_dice_roll(const rules_dice_expr *e, rules_rng *rng);

/*
 * Parse + roll in one call. On success returns 0 and sets *result to a new reference owned by
 * the caller. On failure returns the rules_dice_parse error, sets *result to NULL and fills err.
 */
int rules_dice_roll_text(const char *text, rules_rng *rng, json_t **result, tb_err *err);

#endif
