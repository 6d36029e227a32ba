/*
 * dice.c — parser, canonical form and roller for generic dice expressions (see dice.h).
 *
 * The parser is a hand-written recursive descent over a lazy lexer, so the first problem from
 * the left is the one reported. Numbers saturate at NUM_CAP while being read, so a 50-digit
 * count is simply "out of range" and never overflows.
 */
#include "dice.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUM_CAP 1000000000L
#define TERM_TEXT_MAX 16 /* "100d1000kh100" is the longest term: 13 characters */

typedef enum tok_kind {
    T_END,
    T_NUM,
    T_PLUS,
    T_MINUS,
    T_D,
    T_KH,
    T_KL,
    T_DH,
    T_DL,
} tok_kind;

typedef struct token {
    tok_kind kind;
    size_t pos; /* 0-based offset of the first character */
    size_t len;
    long value; /* T_NUM, saturated at NUM_CAP */
} token;

typedef struct lexer {
    const char *text;
    size_t at;
    token tok; /* the current token */
} lexer;

typedef enum keep_mode {
    KEEP_ALL,
    KEEP_HIGH, /* khK */
    KEEP_LOW,  /* klK */
    DROP_HIGH, /* dhK */
    DROP_LOW,  /* dlK */
} keep_mode;

static const char *const mode_text[] = {"", "kh", "kl", "dh", "dl"};

typedef struct dice_term {
    int sign;  /* 1 or -1 */
    int count; /* number of dice; 0 for a constant */
    int sides; /* dice only */
    keep_mode mode;
    int k;        /* the keep/drop count, when mode != KEEP_ALL */
    int constant; /* constants only */
    char text[TERM_TEXT_MAX];
} dice_term;

struct rules_dice_expr {
    size_t nterms;
    dice_term terms[RULES_DICE_MAX_TERMS];
    char canonical[RULES_DICE_MAX_TERMS * (TERM_TEXT_MAX + 1) + 1];
};

/* ---- lexer ---- */

/* ASCII-only classification: <ctype.h> would depend on the process locale. */
static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static char to_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static int unknown_char(const lexer *lx, size_t pos, tb_err *err)
{
    unsigned char c = (unsigned char)lx->text[pos];
    if (c >= 0x20 && c < 0x7f)
        return tb_fail(err, TB_BAD_REQUEST, "unknown character '%c' at position %zu", c, pos + 1);
    return tb_fail(err, TB_BAD_REQUEST, "unknown character 0x%02X at position %zu", c, pos + 1);
}

/* Reads the next token into lx->tok. Returns 0 or TB_BAD_REQUEST for an unknown character. */
static int lex_next(lexer *lx, tb_err *err)
{
    const char *t = lx->text;
    while (t[lx->at] == ' ' || t[lx->at] == '\t')
        lx->at++;

    token *tok = &lx->tok;
    tok->pos = lx->at;
    tok->len = 1;
    tok->value = 0;
    char c = to_lower(t[lx->at]);
    char c2 = c ? to_lower(t[lx->at + 1]) : '\0';

    if (c == '\0') {
        tok->kind = T_END;
        tok->len = 0;
    } else if (is_digit(c)) {
        tok->kind = T_NUM;
        size_t n = 0;
        while (is_digit(t[lx->at + n])) {
            if (tok->value < NUM_CAP)
                tok->value = tok->value * 10 + (t[lx->at + n] - '0');
            n++;
        }
        if (tok->value > NUM_CAP)
            tok->value = NUM_CAP;
        tok->len = n;
    } else if (c == '+') {
        tok->kind = T_PLUS;
    } else if (c == '-') {
        tok->kind = T_MINUS;
    } else if (c == 'd' && c2 == 'h') {
        tok->kind = T_DH;
        tok->len = 2;
    } else if (c == 'd' && c2 == 'l') {
        tok->kind = T_DL;
        tok->len = 2;
    } else if (c == 'd') {
        tok->kind = T_D;
    } else if (c == 'k' && c2 == 'l') {
        tok->kind = T_KL;
        tok->len = 2;
    } else if (c == 'k') {
        tok->kind = T_KH; /* 'k' alone means 'kh' */
        tok->len = c2 == 'h' ? 2 : 1;
    } else {
        return unknown_char(lx, lx->at, err);
    }
    lx->at += tok->len;
    return 0;
}

/* ---- parser ---- */

/* The current token's text, for messages: "%.*s" with TOKTEXT(lx). */
#define TOKTEXT(lx) (int)(lx)->tok.len, (lx)->text + (lx)->tok.pos

static int expected_term(const lexer *lx, const token *op, tb_err *err)
{
    if (lx->tok.kind == T_END && op)
        return tb_fail(err, TB_BAD_REQUEST, "trailing operator '%c' at position %zu",
                       lx->text[op->pos], op->pos + 1);
    if (lx->tok.kind == T_END)
        return tb_fail(err, TB_BAD_REQUEST, "empty dice expression");
    return tb_fail(err, TB_BAD_REQUEST, "expected dice or a number at position %zu, found '%.*s'",
                   lx->tok.pos + 1, TOKTEXT(lx));
}

/*
 * Parses the rest of a dice term whose 'd' is the current token; count_tok is the explicit count
 * (NULL for "d6"), start the term's first character. Fills *term; *total_dice accumulates.
 */
static int parse_dice(lexer *lx, const token *count_tok, size_t start, dice_term *term,
                      long *total_dice, tb_err *err)
{
    size_t dpos = lx->tok.pos;
    long count = count_tok ? count_tok->value : 1;
    if (count < 1)
        return tb_fail(err, TB_BAD_REQUEST,
                       "dice count out of range at position %zu: %.*s (need at least 1 die)",
                       start + 1, (int)count_tok->len, lx->text + count_tok->pos);
    *total_dice += count;
    if (*total_dice > RULES_DICE_MAX_DICE)
        return tb_fail(err, TB_BAD_REQUEST,
                       "too many dice at position %zu: at most %d dice in the whole expression",
                       start + 1, RULES_DICE_MAX_DICE);

    if (lex_next(lx, err))
        return TB_BAD_REQUEST;
    if (lx->tok.kind != T_NUM)
        return tb_fail(err, TB_BAD_REQUEST, "missing number of sides after 'd' at position %zu",
                       dpos + 1);
    if (lx->tok.value < 1 || lx->tok.value > RULES_DICE_MAX_SIDES)
        return tb_fail(err, TB_BAD_REQUEST,
                       "sides out of range at position %zu: d%.*s (allowed 1..%d)", lx->tok.pos + 1,
                       TOKTEXT(lx), RULES_DICE_MAX_SIDES);
    term->count = (int)count;
    term->sides = (int)lx->tok.value;
    term->mode = KEEP_ALL;
    if (lex_next(lx, err))
        return TB_BAD_REQUEST;

    switch (lx->tok.kind) {
    case T_KH:
        term->mode = KEEP_HIGH;
        break;
    case T_KL:
        term->mode = KEEP_LOW;
        break;
    case T_DH:
        term->mode = DROP_HIGH;
        break;
    case T_DL:
        term->mode = DROP_LOW;
        break;
    default:
        return 0;
    }
    token op = lx->tok;
    if (lex_next(lx, err))
        return TB_BAD_REQUEST;
    if (lx->tok.kind != T_NUM)
        return tb_fail(err, TB_BAD_REQUEST, "missing count after '%.*s' at position %zu",
                       (int)op.len, lx->text + op.pos, op.pos + 1);
    long k = lx->tok.value;
    bool keep = term->mode == KEEP_HIGH || term->mode == KEEP_LOW;
    long lo = keep ? 1 : 0, hi = keep ? count : count - 1;
    if (k < lo || k > hi)
        return tb_fail(err, TB_BAD_REQUEST,
                       "%s count out of range at position %zu: %.*s%.*s with %ld dice "
                       "(allowed %ld..%ld)",
                       keep ? "keep" : "drop", op.pos + 1, (int)op.len, lx->text + op.pos,
                       TOKTEXT(lx), count, lo, hi);
    term->k = (int)k;
    return lex_next(lx, err) ? TB_BAD_REQUEST : 0;
}

/* Parses one term starting at the current token; op is the operator before it (or NULL). */
static int parse_term(lexer *lx, const token *op, dice_term *term, long *total_dice, tb_err *err)
{
    size_t start = lx->tok.pos;
    if (lx->tok.kind == T_D)
        return parse_dice(lx, NULL, start, term, total_dice, err);
    if (lx->tok.kind != T_NUM)
        return expected_term(lx, op, err);

    token num = lx->tok;
    if (lex_next(lx, err))
        return TB_BAD_REQUEST;
    if (lx->tok.kind == T_D)
        return parse_dice(lx, &num, start, term, total_dice, err);
    if (num.value > RULES_DICE_MAX_CONST)
        return tb_fail(err, TB_BAD_REQUEST,
                       "constant out of range at position %zu: %.*s (allowed 0..%d)", num.pos + 1,
                       (int)num.len, lx->text + num.pos, RULES_DICE_MAX_CONST);
    term->count = 0;
    term->constant = (int)num.value;
    return 0;
}

static void term_text(dice_term *t)
{
    if (t->count == 0)
        snprintf(t->text, sizeof t->text, "%d", t->constant);
    else if (t->mode == KEEP_ALL)
        snprintf(t->text, sizeof t->text, "%dd%d", t->count, t->sides);
    else
        snprintf(t->text, sizeof t->text, "%dd%d%s%d", t->count, t->sides, mode_text[t->mode],
                 t->k);
}

static void build_canonical(rules_dice_expr *e)
{
    size_t at = 0;
    for (size_t i = 0; i < e->nterms; i++) {
        dice_term *t = &e->terms[i];
        term_text(t);
        const char *sign = t->sign < 0 ? "-" : i > 0 ? "+" : "";
        at += (size_t)snprintf(e->canonical + at, sizeof e->canonical - at, "%s%s", sign, t->text);
    }
}

int rules_dice_parse(const char *text, rules_dice_expr **out, tb_err *err)
{
    *out = NULL;
    if (!text)
        text = "";
    size_t len = strlen(text);
    if (len > RULES_DICE_MAX_LEN)
        return tb_fail(err, TB_BAD_REQUEST, "dice expression too long: %zu characters (limit %d)",
                       len, RULES_DICE_MAX_LEN);

    lexer lx = {.text = text};
    if (lex_next(&lx, err))
        return TB_BAD_REQUEST;
    if (lx.tok.kind == T_END)
        return tb_fail(err, TB_BAD_REQUEST, "empty dice expression");

    int rc = TB_BAD_REQUEST;
    rules_dice_expr *e = xcalloc(1, sizeof *e);
    long total_dice = 0;
    token op_tok, *op = NULL;
    int sign = 1;
    if (lx.tok.kind == T_PLUS || lx.tok.kind == T_MINUS) {
        sign = lx.tok.kind == T_MINUS ? -1 : 1;
        op_tok = lx.tok;
        op = &op_tok;
        if (lex_next(&lx, err))
            goto fail;
    }
    for (;;) {
        if (e->nterms == RULES_DICE_MAX_TERMS) {
            if (lx.tok.kind == T_END) /* "...+" after the last allowed term */
                expected_term(&lx, op, err);
            else
                tb_fail(err, TB_BAD_REQUEST, "too many terms at position %zu: at most %d terms",
                        lx.tok.pos + 1, RULES_DICE_MAX_TERMS);
            goto fail;
        }
        dice_term *term = &e->terms[e->nterms];
        if (parse_term(&lx, op, term, &total_dice, err))
            goto fail;
        term->sign = sign;
        e->nterms++;

        if (lx.tok.kind == T_END)
            break;
        if (lx.tok.kind != T_PLUS && lx.tok.kind != T_MINUS) {
            tb_fail(err, TB_BAD_REQUEST, "expected '+' or '-' at position %zu, found '%.*s'",
                    lx.tok.pos + 1, TOKTEXT(&lx));
            goto fail;
        }
        sign = lx.tok.kind == T_MINUS ? -1 : 1;
        op_tok = lx.tok;
        op = &op_tok;
        if (lex_next(&lx, err))
            goto fail;
    }
    build_canonical(e);
    *out = e;
    return 0;

fail:
    free(e);
    return rc;
}

void rules_dice_free(rules_dice_expr *e)
{
    free(e);
}

const char *rules_dice_canonical(const rules_dice_expr *e)
{
    return e->canonical;
}

/* ---- rolling ---- */

/* jansson returns NULL / -1 only on allocation failure, which aborts like xmalloc does. */
static json_t *must(json_t *j)
{
    if (!j)
        abort();
    return j;
}

static void set_new(json_t *obj, const char *key, json_t *value)
{
    if (json_object_set_new(obj, key, must(value)))
        abort();
}

static void append_new(json_t *arr, json_t *value)
{
    if (json_array_append_new(arr, must(value)))
        abort();
}

/*
 * Marks which of the n values are kept under mode/k. Each die's rank counts the dice that beat
 * it: a better value, or an equal value rolled earlier; the m best ranks are kept. So among
 * equal values the earliest-rolled are kept, whatever the mode.
 */
static void mark_kept(const int *vals, int n, keep_mode mode, int k, bool *kept)
{
    if (mode == KEEP_ALL) {
        for (int i = 0; i < n; i++)
            kept[i] = true;
        return;
    }
    bool high = mode == KEEP_HIGH || mode == DROP_LOW;
    int m = (mode == KEEP_HIGH || mode == KEEP_LOW) ? k : n - k;
    for (int i = 0; i < n; i++) {
        int rank = 0;
        for (int j = 0; j < n; j++) {
            bool better = high ? vals[j] > vals[i] : vals[j] < vals[i];
            if (better || (vals[j] == vals[i] && j < i))
                rank++;
        }
        kept[i] = rank < m;
    }
}

json_t *rules_dice_roll(const rules_dice_expr *e, rules_rng *rng)
{
    json_t *dice = must(json_array());
    json_t *terms = must(json_array());
    long total = 0;
    int vals[RULES_DICE_MAX_DICE];
    bool kept[RULES_DICE_MAX_DICE];

    for (size_t i = 0; i < e->nterms; i++) {
        const dice_term *t = &e->terms[i];
        long subtotal = t->constant;
        if (t->count > 0) {
            subtotal = 0;
            for (int j = 0; j < t->count; j++)
                vals[j] = rules_rng_die(rng, t->sides);
            mark_kept(vals, t->count, t->mode, t->k, kept);
            for (int j = 0; j < t->count; j++) {
                json_t *die = must(json_object());
                set_new(die, "sides", json_integer(t->sides));
                set_new(die, "value", json_integer(vals[j]));
                set_new(die, "kept", json_boolean(kept[j]));
                set_new(die, "term", json_integer((json_int_t)i));
                append_new(dice, die);
                if (kept[j])
                    subtotal += vals[j];
            }
        }
        json_t *term = must(json_object());
        set_new(term, "text", json_string(t->text));
        set_new(term, "sign", json_integer(t->sign));
        set_new(term, "subtotal", json_integer(subtotal));
        append_new(terms, term);
        total += t->sign * subtotal;
    }

    json_t *result = must(json_object());
    set_new(result, "expr", json_string(e->canonical));
    set_new(result, "dice", dice);
    set_new(result, "terms", terms);
    set_new(result, "total", json_integer(total));
    return result;
}

int rules_dice_roll_text(const char *text, rules_rng *rng, json_t **result, tb_err *err)
{
    rules_dice_expr *e;
    *result = NULL;
    int rc = rules_dice_parse(text, &e, err);
    if (rc)
        return rc;
    *result = rules_dice_roll(e, rng);
    rules_dice_free(e);
    return 0;
}
