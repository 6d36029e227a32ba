/*
 * dice_expr.h — the parsed dice expression, private to the dice code: dice.c parses it and writes
 * its canonical text, dice_roll.c rolls it and says a roll in words. Nothing outside rules/dice*.c
 * includes this; the public interface is dice.h.
 */
#ifndef TABLED_RULES_DICE_EXPR_H
#define TABLED_RULES_DICE_EXPR_H

#include "dice.h"

#include <stdbool.h>
#include <stddef.h>

#define TERM_TEXT_MAX 64 /* "100d1000r<1000!!>1000dl99>1000f<1000" and the like */
#define MAX_NODES (RULES_DICE_MAX_TERMS * 4)

typedef enum keep_mode {
    KEEP_ALL,
    KEEP_HIGH, /* khK */
    KEEP_LOW,  /* klK */
    DROP_HIGH, /* dhK */
    DROP_LOW,  /* dlK */
} keep_mode;

/* A compare point: which faces match. */
typedef enum cmp_kind {
    CMP_NONE,
    CMP_EQ,  /* exactly n */
    CMP_GE,  /* '>': n or higher */
    CMP_LE,  /* '<': n or lower */
    CMP_MAX, /* the highest face (an explosion's default) */
} cmp_kind;

typedef struct cmp {
    cmp_kind kind;
    int n;
} cmp;

typedef enum reroll_mode { REROLL_NONE, REROLL_UNTIL, REROLL_ONCE } reroll_mode;
typedef enum explode_mode { EXPLODE_NONE, EXPLODE_EACH, EXPLODE_COMPOUND } explode_mode;

typedef struct dice_term {
    int count; /* number of dice; 0 for a constant */
    int sides; /* dice only; 3 for Fate dice */
    bool fate; /* dF: faces -1, 0, +1 */
    keep_mode mode;
    int k; /* the keep/drop count, when mode != KEEP_ALL */
    reroll_mode reroll;
    cmp rr;
    explode_mode explode;
    cmp ex;
    cmp succ, fail; /* CMP_NONE when not counting */
    int constant;   /* constants only */
    int sign;       /* 1 or -1 in a sum of terms; 1 otherwise */
    char text[TERM_TEXT_MAX];
    char label[RULES_DICE_MAX_LABEL + 1];
} dice_term;

typedef enum node_kind { N_LEAF, N_ADD, N_SUB, N_MUL, N_DIV, N_NEG, N_PAREN } node_kind;

typedef struct node {
    node_kind kind;
    int a, b; /* children (node indexes) */
    int leaf; /* N_LEAF: the term */
} node;

struct rules_dice_expr {
    size_t nterms;
    dice_term terms[RULES_DICE_MAX_TERMS];
    int nnodes, root;
    node nodes[MAX_NODES];
    bool linear; /* a sum of terms: no '*' or '/' */
    char canonical[RULES_DICE_MAX_TERMS * (TERM_TEXT_MAX + RULES_DICE_MAX_LABEL + 4) +
                   RULES_DICE_MAX_LEN];
};

typedef struct outbuf {
    char *s;
    size_t cap, at;
} outbuf;

/* Parses text into e (the caller's): 0, or TB_BAD_REQUEST with err set (too long, malformed,
 * refused). text NULL reads as "". */
int rules_dice__parse_in(const char *text, rules_dice_expr *e, tb_err *err);
/* The expression of text, parsed or kept from the thread's last parse of the same text
 * (dice_roll.c):
 * borrowed, valid until the next call on this thread; NULL with err set when text is refused. */
const rules_dice_expr *rules_dice__parse_cached(const char *text, tb_err *err);
/* Appends s[0 .. n) / the decimal v to o, cut to fit; o's text stays NUL-terminated. */
void rules_dice__out(outbuf *o, const char *s, size_t n);
void rules_dice__out_int(outbuf *o, long long v);
/* The highest face of a term's dice: +1 for Fate dice. */
int rules_dice__top_face(const dice_term *t);
/* Whether face v matches c on a die whose highest face is `top`. */
bool rules_dice__cmp_match(cmp c, int v, int top);
/* a / b rounded down (b != 0). */
long long rules_dice__floor_div(long long a, long long b);
/* Writes node i of e to o: each leaf as its text (canonical) or its value (vals != NULL: the
 * formula). */
void rules_dice__print_node(const rules_dice_expr *e, int i, const long long *vals, outbuf *o);

#endif
