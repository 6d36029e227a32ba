/*
 * dice.c — parser and canonical form of generic dice expressions (see dice.h); dice_roll.c rolls
 * them.
 *
 * The parser is a hand-written recursive descent over a lazy lexer, so the first problem from
 * the left is the one reported. Numbers saturate at NUM_CAP while being read, so a 50-digit
 * count is simply "out of range" and never overflows. The parsed expression is a small tree of
 * nodes over an array of terms (the dice and constants, in the order written: the order their
 * dice are drawn). Everything that could make a roll run forever, divide by zero or overflow is
 * refused here, before a die is drawn.
 */
#include "dice_expr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUM_CAP 1000000000L

typedef enum tok_kind {
    T_END,
    T_NUM,
    T_PLUS,
    T_MINUS,
    T_STAR,
    T_SLASH,
    T_LPAREN,
    T_RPAREN,
    T_D,
    T_KH,
    T_KL,
    T_DH,
    T_DL,
    T_BANG,  /* ! */
    T_BANG2, /* !! */
    T_R,
    T_RO,
    T_GT,
    T_LT,
    T_EQ,
    T_F,
    T_LABEL, /* [text] */
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

static const char *const mode_text[] = {"", "kh", "kl", "dh", "dl"};

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

/* A label: '[' then printable text without brackets, then ']'. */
static int lex_label(lexer *lx, token *tok, tb_err *err)
{
    const char *t = lx->text;
    size_t n = 1;
    while (t[lx->at + n] && t[lx->at + n] != ']') {
        unsigned char c = (unsigned char)t[lx->at + n];
        if (c == '[')
            return tb_fail(err, TB_BAD_REQUEST,
                           "'[' inside a label at position %zu (inline rolls [[...]] belong in a "
                           "message, not in a dice expression)",
                           lx->at + n + 1);
        if (c < 0x20 || c == 0x7f)
            return unknown_char(lx, lx->at + n, err);
        n++;
    }
    if (!t[lx->at + n])
        return tb_fail(err, TB_BAD_REQUEST, "label not closed with ']' at position %zu",
                       lx->at + 1);
    if (n - 1 > RULES_DICE_MAX_LABEL)
        return tb_fail(err, TB_BAD_REQUEST,
                       "label too long at position %zu: %zu characters (limit %d)", lx->at + 1,
                       n - 1, RULES_DICE_MAX_LABEL);
    tok->kind = T_LABEL;
    tok->len = n + 1;
    return 0;
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

    switch (c) {
    case '\0':
        tok->kind = T_END;
        tok->len = 0;
        break;
    case '+':
        tok->kind = T_PLUS;
        break;
    case '-':
        tok->kind = T_MINUS;
        break;
    case '*':
        tok->kind = T_STAR;
        break;
    case '/':
        tok->kind = T_SLASH;
        break;
    case '(':
        tok->kind = T_LPAREN;
        break;
    case ')':
        tok->kind = T_RPAREN;
        break;
    case '>':
        tok->kind = T_GT;
        break;
    case '<':
        tok->kind = T_LT;
        break;
    case '=':
        tok->kind = T_EQ;
        break;
    case 'f':
        tok->kind = T_F;
        break;
    case '!':
        tok->kind = c2 == '!' ? T_BANG2 : T_BANG;
        tok->len = c2 == '!' ? 2 : 1;
        break;
    case 'r':
        tok->kind = c2 == 'o' ? T_RO : T_R;
        tok->len = c2 == 'o' ? 2 : 1;
        break;
    case 'd':
        tok->kind = c2 == 'h' ? T_DH : c2 == 'l' ? T_DL : T_D;
        tok->len = (c2 == 'h' || c2 == 'l') ? 2 : 1;
        break;
    case 'k':
        tok->kind = c2 == 'l' ? T_KL : T_KH; /* 'k' alone means 'kh' */
        tok->len = (c2 == 'h' || c2 == 'l') ? 2 : 1;
        break;
    case '[':
        if (lex_label(lx, tok, err))
            return TB_BAD_REQUEST;
        break;
    default:
        if (!is_digit(c))
            return unknown_char(lx, lx->at, err);
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
    }
    lx->at += tok->len;
    return 0;
}

/* ---- parser ---- */

/* The current token's text, for messages: "%.*s" with TOKTEXT(lx). */
#define TOKTEXT(lx) (int)(lx)->tok.len, (lx)->text + (lx)->tok.pos

typedef struct parser {
    lexer lx;
    rules_dice_expr *e;
    long total_dice;
    tb_err *err;
} parser;

static int expected_term(const parser *p, const token *op)
{
    const lexer *lx = &p->lx;
    if (lx->tok.kind == T_END && op)
        return tb_fail(p->err, TB_BAD_REQUEST, "trailing operator '%c' at position %zu",
                       lx->text[op->pos], op->pos + 1);
    if (lx->tok.kind == T_END)
        return tb_fail(p->err, TB_BAD_REQUEST, "empty dice expression");
    return tb_fail(p->err, TB_BAD_REQUEST,
                   "expected dice or a number at position %zu, found '%.*s'", lx->tok.pos + 1,
                   TOKTEXT(lx));
}

static int next(parser *p)
{
    return lex_next(&p->lx, p->err) ? TB_BAD_REQUEST : 0;
}

/* The highest face of a term's dice: +1 for Fate dice. */
int rules_dice__top_face(const dice_term *t)
{
    return t->fate ? 1 : t->sides;
}

/* Whether face v matches c on a die whose highest face is `top`. */
bool rules_dice__cmp_match(cmp c, int v, int top)
{
    switch (c.kind) {
    case CMP_EQ:
        return v == c.n;
    case CMP_GE:
        return v >= c.n;
    case CMP_LE:
        return v <= c.n;
    case CMP_MAX:
        return v == top;
    default:
        return false;
    }
}

/* Whether every face of the term matches c (a reroll or explosion that could never end). */
static bool cmp_every_face(const dice_term *t, cmp c)
{
    for (int v = t->fate ? -1 : 1; v <= rules_dice__top_face(t); v++)
        if (!rules_dice__cmp_match(c, v, rules_dice__top_face(t)))
            return false;
    return true;
}

/*
 * An optional compare point after a modifier ('!', 'r', 'f'): [('>'|'<'|'=')] N, or `def` when
 * none follows. `required` (success targets): the sign must be there.
 */
static int parse_cmp(parser *p, const token *op, bool required, cmp def, cmp *out)
{
    lexer *lx = &p->lx;
    cmp_kind kind = CMP_EQ;
    if (lx->tok.kind == T_GT || lx->tok.kind == T_LT || lx->tok.kind == T_EQ) {
        kind = lx->tok.kind == T_GT ? CMP_GE : lx->tok.kind == T_LT ? CMP_LE : CMP_EQ;
        if (next(p))
            return TB_BAD_REQUEST;
        if (lx->tok.kind != T_NUM)
            return tb_fail(p->err, TB_BAD_REQUEST, "missing number after '%.*s' at position %zu",
                           (int)op->len, lx->text + op->pos, op->pos + 1);
    } else if (lx->tok.kind != T_NUM || required) {
        *out = def;
        return 0;
    }
    if (lx->tok.value > RULES_DICE_MAX_SIDES)
        return tb_fail(p->err, TB_BAD_REQUEST,
                       "compare number out of range at position %zu: %.*s (allowed 0..%d)",
                       lx->tok.pos + 1, TOKTEXT(lx), RULES_DICE_MAX_SIDES);
    out->kind = kind;
    out->n = (int)lx->tok.value;
    return next(p);
}

static int twice(parser *p, const token *op)
{
    return tb_fail(p->err, TB_BAD_REQUEST,
                   "'%.*s' at position %zu: a dice term takes each kind of modifier once",
                   (int)op->len, p->lx.text + op->pos, op->pos + 1);
}

/* keep/drop: the token is kh/kl/dh/dl/k or a bare 'd' before a number. */
static int parse_keep(parser *p, dice_term *term, keep_mode mode)
{
    lexer *lx = &p->lx;
    token op = lx->tok;
    if (term->mode != KEEP_ALL)
        return twice(p, &op);
    if (next(p))
        return TB_BAD_REQUEST;
    if (lx->tok.kind != T_NUM)
        return tb_fail(p->err, TB_BAD_REQUEST, "missing count after '%.*s' at position %zu",
                       (int)op.len, lx->text + op.pos, op.pos + 1);
    long k = lx->tok.value;
    bool keep = mode == KEEP_HIGH || mode == KEEP_LOW;
    long lo = keep ? 1 : 0, hi = keep ? term->count : term->count - 1;
    if (k < lo || k > hi)
        return tb_fail(p->err, TB_BAD_REQUEST,
                       "%s count out of range at position %zu: %.*s%.*s with %d dice "
                       "(allowed %ld..%ld)",
                       keep ? "keep" : "drop", op.pos + 1, (int)op.len, lx->text + op.pos,
                       TOKTEXT(lx), term->count, lo, hi);
    term->mode = mode;
    term->k = (int)k;
    return next(p);
}

/* The modifiers after NdS, each at most once, in any order. */
static int parse_modifiers(parser *p, dice_term *term)
{
    lexer *lx = &p->lx;
    static const cmp ONE = {CMP_EQ, 1}, MAX = {CMP_MAX, 0}, NONE = {CMP_NONE, 0};
    for (;;) {
        token op = lx->tok;
        int rc = 0;
        switch (op.kind) {
        case T_R:
        case T_RO:
            if (term->reroll)
                return twice(p, &op);
            term->reroll = op.kind == T_R ? REROLL_UNTIL : REROLL_ONCE;
            rc = next(p) || parse_cmp(p, &op, false, ONE, &term->rr);
            if (!rc && term->reroll == REROLL_UNTIL && cmp_every_face(term, term->rr))
                return tb_fail(p->err, TB_BAD_REQUEST,
                               "reroll at position %zu matches every face: it would never "
                               "stop",
                               op.pos + 1);
            break;
        case T_BANG:
        case T_BANG2:
            if (term->explode)
                return twice(p, &op);
            term->explode = op.kind == T_BANG ? EXPLODE_EACH : EXPLODE_COMPOUND;
            rc = next(p) || parse_cmp(p, &op, false, MAX, &term->ex);
            if (!rc && cmp_every_face(term, term->ex))
                return tb_fail(p->err, TB_BAD_REQUEST,
                               "explosion at position %zu matches every face: it would never "
                               "stop",
                               op.pos + 1);
            break;
        case T_KH:
        case T_KL:
        case T_DH:
        case T_DL:
            rc = parse_keep(p, term,
                            op.kind == T_KH   ? KEEP_HIGH
                            : op.kind == T_KL ? KEEP_LOW
                            : op.kind == T_DH ? DROP_HIGH
                                              : DROP_LOW);
            break;
        case T_D: /* a bare 'd' after a dice term: drop the lowest */
            rc = parse_keep(p, term, DROP_LOW);
            break;
        case T_GT:
        case T_LT:
        case T_EQ:
            if (term->succ.kind != CMP_NONE)
                return twice(p, &op);
            rc = parse_cmp(p, &op, false, NONE, &term->succ);
            break;
        case T_F:
            if (term->fail.kind != CMP_NONE)
                return twice(p, &op);
            rc = next(p) || parse_cmp(p, &op, false, ONE, &term->fail);
            if (!rc && term->succ.kind == CMP_NONE) {
                /* the success target may come after: "6d10f1>8" is read like "6d10>8f1" */
                if (lx->tok.kind == T_GT || lx->tok.kind == T_LT || lx->tok.kind == T_EQ)
                    break;
                return tb_fail(p->err, TB_BAD_REQUEST,
                               "failures at position %zu count only with a success target "
                               "(e.g. 6d10>8f1)",
                               op.pos + 1);
            }
            break;
        default:
            return 0;
        }
        if (rc)
            return TB_BAD_REQUEST;
    }
}

/*
 * Parses the rest of a dice term whose 'd' is the current token; count_tok is the explicit count
 * (NULL for "d6"), start the term's first character. Fills *term.
 */
static int parse_dice(parser *p, const token *count_tok, size_t start, dice_term *term)
{
    lexer *lx = &p->lx;
    size_t dpos = lx->tok.pos;
    long count = count_tok ? count_tok->value : 1;
    if (count < 1)
        return tb_fail(p->err, TB_BAD_REQUEST,
                       "dice count out of range at position %zu: %.*s (need at least 1 die)",
                       start + 1, (int)count_tok->len, lx->text + count_tok->pos);
    p->total_dice += count;
    if (p->total_dice > RULES_DICE_MAX_DICE)
        return tb_fail(p->err, TB_BAD_REQUEST,
                       "too many dice at position %zu: at most %d dice in the whole expression",
                       start + 1, RULES_DICE_MAX_DICE);

    if (next(p))
        return TB_BAD_REQUEST;
    term->count = (int)count;
    if (lx->tok.kind == T_F) {
        term->fate = true;
        term->sides = 3;
    } else if (lx->tok.kind != T_NUM) {
        return tb_fail(p->err, TB_BAD_REQUEST, "missing number of sides after 'd' at position %zu",
                       dpos + 1);
    } else if (lx->tok.value < 1 || lx->tok.value > RULES_DICE_MAX_SIDES) {
        return tb_fail(p->err, TB_BAD_REQUEST,
                       "sides out of range at position %zu: d%.*s (allowed 1..%d)", lx->tok.pos + 1,
                       TOKTEXT(lx), RULES_DICE_MAX_SIDES);
    } else {
        term->sides = (int)lx->tok.value;
    }
    term->mode = KEEP_ALL;
    if (next(p))
        return TB_BAD_REQUEST;
    return parse_modifiers(p, term);
}

static int new_node(parser *p, node_kind kind, int a, int b, int *out)
{
    rules_dice_expr *e = p->e;
    if (e->nnodes == MAX_NODES)
        return tb_fail(p->err, TB_BAD_REQUEST, "dice expression too complex at position %zu",
                       p->lx.tok.pos + 1);
    e->nodes[e->nnodes] = (node){.kind = kind, .a = a, .b = b};
    *out = e->nnodes++;
    return 0;
}

static int parse_sum(parser *p, int depth, int *out);

/* One term (dice or a number) and its label; op is the operator before it (or NULL). */
static int parse_term(parser *p, const token *op, int *out)
{
    lexer *lx = &p->lx;
    rules_dice_expr *e = p->e;
    if (lx->tok.kind != T_D && lx->tok.kind != T_NUM)
        return expected_term(p, op);
    if (e->nterms == RULES_DICE_MAX_TERMS)
        return tb_fail(p->err, TB_BAD_REQUEST, "too many terms at position %zu: at most %d terms",
                       lx->tok.pos + 1, RULES_DICE_MAX_TERMS);
    dice_term *term = &e->terms[e->nterms];
    memset(term, 0, sizeof *term); /* the expression is not zeroed whole (rules_dice_parse) */
    size_t start = lx->tok.pos;
    int rc;
    if (lx->tok.kind == T_D) {
        rc = parse_dice(p, NULL, start, term);
    } else {
        token num = lx->tok;
        if (next(p))
            return TB_BAD_REQUEST;
        if (lx->tok.kind == T_D) {
            rc = parse_dice(p, &num, start, term);
        } else if (num.value > RULES_DICE_MAX_CONST) {
            return tb_fail(p->err, TB_BAD_REQUEST,
                           "constant out of range at position %zu: %.*s (allowed 0..%d)",
                           num.pos + 1, (int)num.len, lx->text + num.pos, RULES_DICE_MAX_CONST);
        } else {
            term->count = 0;
            term->constant = (int)num.value;
            rc = 0;
        }
    }
    if (rc)
        return rc;
    if (lx->tok.kind == T_LABEL) {
        size_t n = lx->tok.len - 2; /* the text between the brackets, cut to fit */
        if (n > sizeof term->label - 1)
            n = sizeof term->label - 1;
        memcpy(term->label, lx->text + lx->tok.pos + 1, n);
        term->label[n] = '\0';
        if (next(p))
            return TB_BAD_REQUEST;
    }
    term->sign = 1;
    if (new_node(p, N_LEAF, -1, -1, out))
        return TB_BAD_REQUEST;
    e->nodes[*out].leaf = (int)e->nterms++;
    return 0;
}

static int parse_atom(parser *p, int depth, const token *op, int *out)
{
    lexer *lx = &p->lx;
    if (lx->tok.kind != T_LPAREN)
        return parse_term(p, op, out);
    token open = lx->tok;
    if (depth >= RULES_DICE_MAX_DEPTH)
        return tb_fail(p->err, TB_BAD_REQUEST,
                       "too many parentheses inside each other at position %zu (at most %d)",
                       open.pos + 1, RULES_DICE_MAX_DEPTH);
    int inner;
    if (next(p) || parse_sum(p, depth + 1, &inner))
        return TB_BAD_REQUEST;
    if (lx->tok.kind != T_RPAREN)
        return tb_fail(p->err, TB_BAD_REQUEST, "'(' at position %zu is not closed", open.pos + 1);
    if (new_node(p, N_PAREN, inner, -1, out))
        return TB_BAD_REQUEST;
    return next(p);
}

static int parse_product(parser *p, int depth, const token *op, int *out)
{
    lexer *lx = &p->lx;
    if (parse_atom(p, depth, op, out))
        return TB_BAD_REQUEST;
    while (lx->tok.kind == T_STAR || lx->tok.kind == T_SLASH) {
        token o = lx->tok;
        int rhs;
        if (next(p) || parse_atom(p, depth, &o, &rhs) ||
            new_node(p, o.kind == T_STAR ? N_MUL : N_DIV, *out, rhs, out))
            return TB_BAD_REQUEST;
    }
    return 0;
}

/* expr := ['+'|'-'] product (('+'|'-') product)* */
static int parse_sum(parser *p, int depth, int *out)
{
    lexer *lx = &p->lx;
    token op_tok, *op = NULL;
    bool neg = false;
    if (lx->tok.kind == T_PLUS || lx->tok.kind == T_MINUS) {
        neg = lx->tok.kind == T_MINUS;
        op_tok = lx->tok;
        op = &op_tok;
        if (next(p))
            return TB_BAD_REQUEST;
    }
    if (parse_product(p, depth, op, out))
        return TB_BAD_REQUEST;
    if (neg && new_node(p, N_NEG, *out, -1, out))
        return TB_BAD_REQUEST;
    while (lx->tok.kind == T_PLUS || lx->tok.kind == T_MINUS) {
        op_tok = lx->tok;
        int rhs;
        if (next(p) || parse_product(p, depth, &op_tok, &rhs) ||
            new_node(p, op_tok.kind == T_PLUS ? N_ADD : N_SUB, *out, rhs, out))
            return TB_BAD_REQUEST;
    }
    return 0;
}

/* ---- what an expression can reach: refused before any die when it is unsafe ---- */

typedef struct range {
    long long lo, hi;
} range;

long long rules_dice__floor_div(long long a, long long b)
{
    long long q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static long long clamp_ll(long long v)
{
    const long long cap = 4LL * RULES_DICE_MAX_TOTAL;
    return v > cap ? cap : v < -cap ? -cap : v;
}

static range term_range(const dice_term *t)
{
    if (t->count == 0)
        return (range){t->constant, t->constant};
    /* the most dice that can stand: explosions can add up to the roll cap */
    long long n = t->explode == EXPLODE_EACH ? RULES_DICE_MAX_ROLLS : t->count;
    if (t->mode == KEEP_HIGH || t->mode == KEEP_LOW)
        n = t->k;
    if (t->succ.kind != CMP_NONE)
        return (range){t->fail.kind != CMP_NONE ? -n : 0, n};
    long long face_hi = t->fate ? 1 : t->sides, face_lo = t->fate ? -1 : 1;
    if (t->explode == EXPLODE_COMPOUND)
        face_hi *= RULES_DICE_MAX_ROLLS;
    return (range){n * face_lo < 0 ? n * face_lo : 0, clamp_ll(n * face_hi)};
}

static int node_range(const parser *p, int i, range *out)
{
    const node *n = &p->e->nodes[i];
    range a, b;
    switch (n->kind) {
    case N_LEAF:
        *out = term_range(&p->e->terms[n->leaf]);
        return 0;
    case N_PAREN:
        return node_range(p, n->a, out);
    case N_NEG:
        if (node_range(p, n->a, &a))
            return TB_BAD_REQUEST;
        *out = (range){-a.hi, -a.lo};
        return 0;
    default:
        break;
    }
    if (node_range(p, n->a, &a) || node_range(p, n->b, &b))
        return TB_BAD_REQUEST;
    long long c[4];
    switch (n->kind) {
    case N_ADD:
        *out = (range){clamp_ll(a.lo + b.lo), clamp_ll(a.hi + b.hi)};
        return 0;
    case N_SUB:
        *out = (range){clamp_ll(a.lo - b.hi), clamp_ll(a.hi - b.lo)};
        return 0;
    case N_MUL:
        c[0] = a.lo * b.lo, c[1] = a.lo * b.hi, c[2] = a.hi * b.lo, c[3] = a.hi * b.hi;
        break;
    default: /* N_DIV */
        if (b.lo <= 0 && b.hi >= 0)
            return tb_fail(p->err, TB_BAD_REQUEST,
                           "the divisor could be 0: divide by dice or a number that cannot be 0");
        c[0] = rules_dice__floor_div(a.lo, b.lo), c[1] = rules_dice__floor_div(a.lo, b.hi),
        c[2] = rules_dice__floor_div(a.hi, b.lo), c[3] = rules_dice__floor_div(a.hi, b.hi);
    }
    out->lo = out->hi = c[0];
    for (int k = 1; k < 4; k++) {
        if (c[k] < out->lo)
            out->lo = c[k];
        if (c[k] > out->hi)
            out->hi = c[k];
    }
    out->lo = clamp_ll(out->lo);
    out->hi = clamp_ll(out->hi);
    return 0;
}

/* ---- canonical text ---- */

/* Text is appended without the printf family (issue 26: snprintf was a fifth of a roll's parse).
 * An append that does not fit is cut, and the text always ends in a NUL, as snprintf would. */
void rules_dice__out(outbuf *o, const char *s, size_t n)
{
    if (o->at >= o->cap)
        return;
    size_t room = o->cap - o->at - 1;
    if (n > room)
        n = room;
    memcpy(o->s + o->at, s, n);
    o->at += n;
    o->s[o->at] = '\0';
}

static void out_put(outbuf *o, const char *s)
{
    rules_dice__out(o, s, strlen(s));
}

void rules_dice__out_int(outbuf *o, long long v)
{
    char tmp[24];
    size_t n = sizeof tmp;
    /* the magnitude as unsigned, so that LLONG_MIN is no overflow */
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[--n] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--n] = '-';
    rules_dice__out(o, tmp + n, sizeof tmp - n);
}

static void put_cmp(outbuf *o, cmp c)
{
    switch (c.kind) {
    case CMP_EQ:
        break;
    case CMP_GE:
        out_put(o, ">");
        break;
    case CMP_LE:
        out_put(o, "<");
        break;
    default:
        return;
    }
    rules_dice__out_int(o, c.n);
}

static void term_text(dice_term *t)
{
    outbuf o = {t->text, sizeof t->text, 0};
    t->text[0] = '\0';
    if (t->count == 0) {
        rules_dice__out_int(&o, t->constant);
        return;
    }
    rules_dice__out_int(&o, t->count);
    if (t->fate) {
        out_put(&o, "dF");
    } else {
        out_put(&o, "d");
        rules_dice__out_int(&o, t->sides);
    }
    if (t->reroll) {
        out_put(&o, t->reroll == REROLL_UNTIL ? "r" : "ro");
        put_cmp(&o, t->rr);
    }
    if (t->explode) {
        out_put(&o, t->explode == EXPLODE_EACH ? "!" : "!!");
        put_cmp(&o, t->ex);
    }
    if (t->mode != KEEP_ALL) {
        out_put(&o, mode_text[t->mode]);
        rules_dice__out_int(&o, t->k);
    }
    if (t->succ.kind == CMP_EQ) {
        out_put(&o, "=");
        rules_dice__out_int(&o, t->succ.n);
    } else if (t->succ.kind != CMP_NONE) {
        put_cmp(&o, t->succ);
    }
    if (t->fail.kind != CMP_NONE) {
        out_put(&o, "f");
        put_cmp(&o, t->fail);
    }
}

/* Writes node i: each leaf as its text (canonical) or its value (vals != NULL: the formula). */
void rules_dice__print_node(const rules_dice_expr *e, int i, const long long *vals, outbuf *o)
{
    const node *n = &e->nodes[i];
    static const char *const OP[] = {"", "+", "-", "*", "/"};
    switch (n->kind) {
    case N_LEAF:
        if (vals) {
            rules_dice__out_int(o, vals[n->leaf]);
        } else {
            out_put(o, e->terms[n->leaf].text);
            if (e->terms[n->leaf].label[0]) {
                out_put(o, "[");
                out_put(o, e->terms[n->leaf].label);
                out_put(o, "]");
            }
        }
        return;
    case N_PAREN:
        out_put(o, "(");
        rules_dice__print_node(e, n->a, vals, o);
        out_put(o, ")");
        return;
    case N_NEG:
        out_put(o, "-");
        rules_dice__print_node(e, n->a, vals, o);
        return;
    default:
        rules_dice__print_node(e, n->a, vals, o);
        out_put(o, OP[n->kind]);
        rules_dice__print_node(e, n->b, vals, o);
    }
}

/* Signs of the terms of a sum; false when the expression multiplies or divides. */
static bool assign_signs(rules_dice_expr *e, int i, int sign)
{
    node *n = &e->nodes[i];
    switch (n->kind) {
    case N_LEAF:
        e->terms[n->leaf].sign = sign;
        return true;
    case N_PAREN:
        return assign_signs(e, n->a, sign);
    case N_NEG:
        return assign_signs(e, n->a, -sign);
    case N_ADD:
        return assign_signs(e, n->a, sign) && assign_signs(e, n->b, sign);
    case N_SUB:
        return assign_signs(e, n->a, sign) && assign_signs(e, n->b, -sign);
    default:
        return false;
    }
}

/* Parses text (at most RULES_DICE_MAX_LEN characters) into *e: 0, or TB_BAD_REQUEST with err set
 * (*e is then left half written). */
static int parse_into(const char *text, rules_dice_expr *e, tb_err *err)
{
    parser p = {.lx = {.text = text}, .err = err};
    if (lex_next(&p.lx, err))
        return TB_BAD_REQUEST;
    if (p.lx.tok.kind == T_END)
        return tb_fail(err, TB_BAD_REQUEST, "empty dice expression");

    /* Not zeroed: zeroing 7 KB on every roll cost more than the parse (issue 26). A term is
     * zeroed when it is started (parse_term), a node written whole (new_node). */
    p.e = e;
    p.e->nterms = 0;
    p.e->nnodes = p.e->root = 0;
    p.e->linear = false;
    p.e->canonical[0] = '\0';
    range r;
    if (parse_sum(&p, 0, &p.e->root))
        goto fail;
    if (p.lx.tok.kind == T_RPAREN) {
        tb_fail(err, TB_BAD_REQUEST, "')' at position %zu closes nothing", p.lx.tok.pos + 1);
        goto fail;
    }
    if (p.lx.tok.kind == T_LABEL) {
        tb_fail(err, TB_BAD_REQUEST, "a label at position %zu must follow dice or a number",
                p.lx.tok.pos + 1);
        goto fail;
    }
    if (p.lx.tok.kind != T_END) {
        tb_fail(err, TB_BAD_REQUEST, "expected '+', '-', '*' or '/' at position %zu, found '%.*s'",
                p.lx.tok.pos + 1, TOKTEXT(&p.lx));
        goto fail;
    }
    if (node_range(&p, p.e->root, &r))
        goto fail;
    if (r.hi > RULES_DICE_MAX_TOTAL || r.lo < -(long long)RULES_DICE_MAX_TOTAL) {
        tb_fail(err, TB_BAD_REQUEST, "the total could pass %d: use smaller numbers",
                RULES_DICE_MAX_TOTAL);
        goto fail;
    }
    for (size_t i = 0; i < e->nterms; i++)
        term_text(&e->terms[i]);
    e->linear = assign_signs(e, e->root, 1);
    if (!e->linear)
        for (size_t i = 0; i < e->nterms; i++)
            e->terms[i].sign = 1;
    outbuf o = {e->canonical, sizeof e->canonical, 0};
    /* a leading '+' is dropped; print_node writes what remains */
    rules_dice__print_node(e, e->root, NULL, &o);
    return 0;

fail:
    return TB_BAD_REQUEST;
}

/* Refuses text longer than RULES_DICE_MAX_LEN; text NULL reads as "". */
static int check_len(const char **text, tb_err *err)
{
    if (!*text)
        *text = "";
    size_t len = strlen(*text);
    if (len > RULES_DICE_MAX_LEN)
        return tb_fail(err, TB_BAD_REQUEST, "dice expression too long: %zu characters (limit %d)",
                       len, RULES_DICE_MAX_LEN);
    return 0;
}

int rules_dice__parse_in(const char *text, rules_dice_expr *e, tb_err *err)
{
    if (check_len(&text, err) || parse_into(text, e, err))
        return TB_BAD_REQUEST;
    return 0;
}

int rules_dice_parse(const char *text, rules_dice_expr **out, tb_err *err)
{
    *out = NULL;
    rules_dice_expr *e = xmalloc(sizeof *e);
    if (rules_dice__parse_in(text, e, err)) {
        free(e);
        return TB_BAD_REQUEST;
    }
    *out = e;
    return 0;
}

void rules_dice_free(rules_dice_expr *e)
{
    free(e);
}

const char *rules_dice_canonical(const rules_dice_expr *e)
{
    return e->canonical;
}
