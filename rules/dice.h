/*
 * dice.h — generic dice expressions: the free-form rolls at the table, `/roll` in a message and
 * `tabled roll dice EXPR`. The grammar is the common part of what Roll20's players type every
 * evening (rules/RULES.md, "The dice box"), with the same meanings.
 *
 * Grammar (case-insensitive; spaces and tabs allowed between tokens, not inside one):
 *
 *     expr    := ['+' | '-'] product (('+' | '-') product)*
 *     product := atom (('*' | '/') atom)*
 *     atom    := '(' expr ')' | term [label]
 *     term    := dice | integer
 *     dice    := [N] 'd' (S | 'F') modifier*
 *     label   := '[' text ']'                 a name for the term: "d20+5 [to hit]"
 *     modifier, each at most once per dice term, in any order:
 *       'r' [cmp]    reroll a die that matches until it does not (default cmp: =1)
 *       'ro' [cmp]   reroll a die that matches once (default cmp: =1)
 *       '!' [cmp]    explode: a die that matches rolls one more die, which may explode too
 *                    (default cmp: the highest face)
 *       '!!' [cmp]   compound: like '!', but the extra rolls add into the same die
 *       ('kh' | 'kl' | 'dh' | 'dl' | 'k' | 'd') K
 *                    keep/drop; 'k' alone means 'kh', 'd' alone means 'dl' ("8d100d3")
 *       ('>' | '<' | '=') T
 *                    count successes instead of adding: each kept die that matches is one
 *       'f' [cmp]    with successes: each kept die that matches takes one away (default =1)
 *     cmp     := ['>' | '<' | '='] integer    '>' is "this or higher", '<' "this or lower"
 *                                             (Roll20's meaning), a bare number "exactly"
 *
 * e.g. 4d6kh3+2, 2d20kl1, d20+5 [to hit], 3d6!, 5d10!!>9, 2d6r<2, 1d20ro1, 6d10>8f1, 8d100d3,
 * 4dF+1, (2d6+3)*2, 1d8/2, -1d4+3, 10.
 *
 * Fate dice (dF) show -1, 0 or +1, each a third of the time. A division rounds down.
 * Order of work on one dice term: each die is rolled, rerolled (r/ro), then exploded (! / !!:
 * the extra die comes right after the one that exploded; rerolls do not apply to it); then
 * keep/drop over the dice that stand (rerolled-away dice are shown but never count); then
 * successes and failures over the kept dice.
 *
 * Limits (RULES_DICE_*; each violation is a TB_BAD_REQUEST naming the limit and the 1-based
 * character position of the offending token): expression length, dice written over all terms,
 * sides, N >= 1, keep/drop count against the dice written (kh/kl: 1 <= K <= N; dh/dl: 0 <= K < N),
 * constants, number of terms, nesting of parentheses, a label's length. Refused before any die,
 * because they could never finish or never mean anything: a reroll ('r') or an explosion that
 * every face matches, failures without a success target, a divisor that could be 0, a total
 * that could pass +-RULES_DICE_MAX_TOTAL. Explosions and rerolls stop after RULES_DICE_MAX_ROLLS
 * dice in all (the result then says "capped": true).
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
 * "terms"; a term's "text" is its canonical text without sign or label; "subtotal" is the sum of
 * its kept dice (a count of successes less failures, with '>'/'<'/'='), or its constant.
 * A die may also carry: "fate": true (a dF die, value -1..1, "sides": 3), "rerolled": true
 * (rolled and rerolled away: never kept), "exploded": true (an extra die from '!'), "rolls":
 * [6, 6, 2] (the rolls a compounded die '!!' adds up), "success": true / "failure": true.
 * A term may carry "label". When the expression is a sum of terms (no '*', '/'), "sign" is each
 * term's sign (1 or -1) and "total" = sum of sign * subtotal; otherwise every "sign" is 1 and
 * "formula" shows the arithmetic with each term replaced by its subtotal ("(7+3)*2").
 * "capped": true only when RULES_DICE_MAX_ROLLS stopped an explosion or a reroll.
 */
#ifndef TABLED_RULES_DICE_H
#define TABLED_RULES_DICE_H

#include <jansson.h>

#include "err.h"
#include "rng.h"

#define RULES_DICE_MAX_LEN 200          /* characters of input text, spaces included */
#define RULES_DICE_MAX_DICE 100         /* dice written over the whole expression */
#define RULES_DICE_MAX_SIDES 1000       /* sides of one die; at least 1 */
#define RULES_DICE_MAX_CONST 100000     /* a constant term: 0..this */
#define RULES_DICE_MAX_TERMS 20         /* dice and constant terms together */
#define RULES_DICE_MAX_DEPTH 8          /* parentheses inside parentheses */
#define RULES_DICE_MAX_LABEL 40         /* bytes of a label */
#define RULES_DICE_MAX_ROLLS 1000       /* dice drawn, rerolls and explosions included */
#define RULES_DICE_MAX_TOTAL 1000000000 /* the largest total an expression may reach */

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
 * The normalized text of e: lower-case (but "dF"), no spaces, no leading '+', "d20" written
 * "1d20", 'k' written 'kh', 'd' as a drop written 'dl', modifiers in the order of the grammar
 * above (r/ro, !/!!, keep/drop, success, f), a compare point "=N" written "N", numbers without
 * leading zeros, a label kept as typed inside brackets; e.g. " D20 + 05 [hit]" -> "1d20+5[hit]".
 * Parsing the canonical text gives the same expression back (it may be a little longer than the
 * input: "d9k1" -> "1d9kh1"). Borrowed: valid until rules_dice_free(e).
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

/*
 * The roll in plain words, for a person (a journal, a screen reader): "1d20+5 [to hit]: rolled
 * 14, plus 5: 19"; "4d6kh3: rolled 6, 6, 4 (kept) and 3 = 16"; "6d10>8: rolled 9, 10 and 3, 8,
 * 1, 2: 2 successes". Appends to buf (cap bytes, NUL-terminated, truncated). `result` is a roll
 * result (borrowed).
 */
void rules_dice_words(const json_t *result, char *buf, size_t cap);

#endif
