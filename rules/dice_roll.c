/*
 * dice_roll.c — rolling a parsed dice expression (dice.h) and saying a roll in words. The parser
 * and the canonical text are in dice.c; the expression's shape is dice_expr.h.
 */
#include "dice_expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The last expression parsed by rules_dice__parse_cached on this thread, and its exact text. A
 * table rolls the same few texts over and over ("d20+5"), and parsing was a fifth of a roll's
 * instructions (issue 26). Deterministic and harmless: an expression depends on its text alone,
 * so a hit is byte for byte what parsing again would make; nothing random, no clock; a text that
 * fails is never kept (it is parsed, and refused with the same message, every time); one entry
 * per thread, no heap (nothing to free or to leak when a thread ends).
 */
static _Thread_local struct {
    char text[RULES_DICE_MAX_LEN + 1]; /* "" when the entry holds nothing */
    rules_dice_expr e;
} dice_last;

const rules_dice_expr *rules_dice__parse_cached(const char *text, tb_err *err)
{
    if (!text)
        text = "";
    if (text[0] && strcmp(text, dice_last.text) == 0)
        return &dice_last.e;  /* a kept text is at most RULES_DICE_MAX_LEN bytes */
    dice_last.text[0] = '\0'; /* the parse writes the entry: empty until it succeeds */
    if (rules_dice__parse_in(text, &dice_last.e, err))
        return NULL;
    strcpy(dice_last.text, text); /* at most RULES_DICE_MAX_LEN bytes: checked by the parse */
    return &dice_last.e;
}

/* ---- rolling ---- */

/* jansson returns NULL / -1 only on allocation failure, which aborts like xmalloc does. */
static json_t *must(json_t *j)
{
    if (!j)
        abort();
    return j;
}

/* key is one of this file's literals, plain ASCII: jansson's UTF-8 check of it is skipped (it was
 * a sixth of a roll's instructions, issue 26). */
static void set_new(json_t *obj, const char *key, json_t *value)
{
    if (json_object_set_new_nocheck(obj, key, must(value)))
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
 * equal values the earliest-rolled are kept, whatever the mode. With more dice than written
 * (explosions), a drop count still drops k and a keep count keeps k.
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

/* One die as it lands: its value, and how it came (for the result). */
typedef struct die {
    int value;
    bool rerolled; /* rolled, then rerolled away: never counts */
    bool exploded; /* an extra die from '!' */
    int nrolls;    /* '!!': how many rolls add up to value (rolls_at..) */
    int rolls_at;
} die;

typedef struct roller {
    rules_rng *rng;
    int drawn;
    bool capped;
    die dice[RULES_DICE_MAX_ROLLS];
    int ndice;
    int rolls[RULES_DICE_MAX_ROLLS]; /* the faces of compounded dice */
    int nrolls;
} roller;

static int draw(roller *r, const dice_term *t)
{
    r->drawn++;
    int v = rules_rng_die(r->rng, t->sides);
    return t->fate ? v - 2 : v;
}

static bool room(roller *r)
{
    if (r->drawn < RULES_DICE_MAX_ROLLS)
        return true;
    r->capped = true;
    return false;
}

static void push(roller *r, int value, bool rerolled, bool exploded)
{
    if (r->ndice == RULES_DICE_MAX_ROLLS)
        return; /* cannot happen: a die is pushed only after a draw, and draws are capped */
    r->dice[r->ndice++] = (die){.value = value, .rerolled = rerolled, .exploded = exploded};
}

/* Rolls term t's dice into r (from r->ndice on). */
static void roll_term(roller *r, const dice_term *t)
{
    for (int j = 0; j < t->count; j++) {
        int v = draw(r, t);
        if (t->reroll != REROLL_NONE)
            while (rules_dice__cmp_match(t->rr, v, rules_dice__top_face(t)) && room(r)) {
                push(r, v, true, false);
                v = draw(r, t);
                if (t->reroll == REROLL_ONCE)
                    break;
            }
        if (t->explode == EXPLODE_COMPOUND) {
            int at = r->nrolls, last = v, total = v;
            r->rolls[r->nrolls++] = v;
            while (rules_dice__cmp_match(t->ex, last, rules_dice__top_face(t)) && room(r)) {
                last = draw(r, t);
                total += last;
                if (r->nrolls < RULES_DICE_MAX_ROLLS)
                    r->rolls[r->nrolls++] = last;
            }
            push(r, total, false, false);
            if (r->nrolls - at > 1) {
                r->dice[r->ndice - 1].nrolls = r->nrolls - at;
                r->dice[r->ndice - 1].rolls_at = at;
            } else {
                r->nrolls = at;
            }
            continue;
        }
        push(r, v, false, false);
        if (t->explode == EXPLODE_EACH)
            while (rules_dice__cmp_match(t->ex, v, rules_dice__top_face(t)) && room(r)) {
                v = draw(r, t);
                push(r, v, false, true);
            }
    }
}

static long long eval_node(const rules_dice_expr *e, int i, const long long *vals)
{
    const node *n = &e->nodes[i];
    switch (n->kind) {
    case N_LEAF:
        return vals[n->leaf];
    case N_PAREN:
        return eval_node(e, n->a, vals);
    case N_NEG:
        return -eval_node(e, n->a, vals);
    case N_ADD:
        return eval_node(e, n->a, vals) + eval_node(e, n->b, vals);
    case N_SUB:
        return eval_node(e, n->a, vals) - eval_node(e, n->b, vals);
    case N_MUL:
        return eval_node(e, n->a, vals) * eval_node(e, n->b, vals);
    default: {
        long long d = eval_node(e, n->b, vals);
        return d ? rules_dice__floor_div(eval_node(e, n->a, vals), d)
                 : 0; /* 0 is refused at parse */
    }
    }
}

json_t *rules_dice_roll(const rules_dice_expr *e, rules_rng *rng)
{
    json_t *dice = must(json_array());
    json_t *terms = must(json_array());
    long long vals[RULES_DICE_MAX_TERMS];
    roller rbuf; /* on the stack, and not cleared: only the counters need a start */
    roller *r = &rbuf;
    r->rng = rng;
    r->drawn = 0;
    r->capped = false;
    int vbuf[RULES_DICE_MAX_ROLLS];
    bool kept[RULES_DICE_MAX_ROLLS];

    for (size_t i = 0; i < e->nterms; i++) {
        const dice_term *t = &e->terms[i];
        long long subtotal = t->constant;
        if (t->count > 0) {
            r->ndice = 0;
            r->nrolls = 0;
            roll_term(r, t);
            int n = 0;
            for (int j = 0; j < r->ndice; j++)
                if (!r->dice[j].rerolled)
                    vbuf[n++] = r->dice[j].value;
            bool standing_kept[RULES_DICE_MAX_ROLLS];
            mark_kept(vbuf, n, t->mode, t->k, standing_kept);
            subtotal = 0;
            for (int j = 0, s = 0; j < r->ndice; j++) {
                const die *d = &r->dice[j];
                kept[j] = d->rerolled ? false : standing_kept[s++];
                json_t *o = must(json_object());
                set_new(o, "sides", json_integer(t->sides));
                set_new(o, "value", json_integer(d->value));
                set_new(o, "kept", json_boolean(kept[j]));
                set_new(o, "term", json_integer((json_int_t)i));
                if (t->fate)
                    set_new(o, "fate", json_true());
                if (d->rerolled)
                    set_new(o, "rerolled", json_true());
                if (d->exploded)
                    set_new(o, "exploded", json_true());
                if (d->nrolls > 1) {
                    json_t *rolls = must(json_array());
                    for (int k = 0; k < d->nrolls; k++)
                        append_new(rolls, json_integer(r->rolls[d->rolls_at + k]));
                    set_new(o, "rolls", rolls);
                }
                if (kept[j] && t->succ.kind != CMP_NONE) {
                    if (rules_dice__cmp_match(t->succ, d->value, rules_dice__top_face(t))) {
                        set_new(o, "success", json_true());
                        subtotal++;
                    } else if (t->fail.kind != CMP_NONE &&
                               rules_dice__cmp_match(t->fail, d->value, rules_dice__top_face(t))) {
                        set_new(o, "failure", json_true());
                        subtotal--;
                    }
                } else if (kept[j]) {
                    subtotal += d->value;
                }
                append_new(dice, o);
            }
        }
        vals[i] = subtotal;
        json_t *term = must(json_object());
        set_new(term, "text", json_string(t->text));
        set_new(term, "sign", json_integer(t->sign));
        set_new(term, "subtotal", json_integer(subtotal));
        if (t->label[0])
            set_new(term, "label", json_string(t->label));
        append_new(terms, term);
    }

    json_t *result = must(json_object());
    set_new(result, "expr", json_string(e->canonical));
    set_new(result, "dice", dice);
    set_new(result, "terms", terms);
    set_new(result, "total", json_integer(eval_node(e, e->root, vals)));
    if (!e->linear) {
        char buf[RULES_DICE_MAX_TERMS * 24 + RULES_DICE_MAX_LEN];
        outbuf o = {buf, sizeof buf, 0};
        buf[0] = '\0';
        rules_dice__print_node(e, e->root, vals, &o);
        set_new(result, "formula", json_string(buf));
    }
    if (r->capped)
        set_new(result, "capped", json_true());
    return result;
}

int rules_dice_roll_text(const char *text, rules_rng *rng, json_t **result, tb_err *err)
{
    *result = NULL;
    const rules_dice_expr *e = rules_dice__parse_cached(text, err);
    if (!e)
        return TB_BAD_REQUEST;
    *result = rules_dice_roll(e, rng);
    return 0;
}

/* ---- in words ---- */

static void words_put(outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void words_put(outbuf *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->s + o->at, o->cap - o->at, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->at += (size_t)n < o->cap - o->at ? (size_t)n : o->cap - o->at - 1;
}

/* "6, 6, 4": the values of term ti's dice that are (or are not) kept, joined. */
static int words_values(const json_t *dice, json_int_t ti, int want_kept, outbuf *o)
{
    size_t i;
    json_t *d;
    int n = 0;
    json_array_foreach(dice, i, d)
    {
        if (json_integer_value(json_object_get(d, "term")) != ti ||
            json_is_true(json_object_get(d, "kept")) != want_kept)
            continue;
        long long v = json_integer_value(json_object_get(d, "value"));
        if (json_is_true(json_object_get(d, "fate")))
            words_put(o, "%s%s", n ? ", " : "", v > 0 ? "plus" : v < 0 ? "minus" : "blank");
        else
            words_put(o, "%s%lld", n ? ", " : "", v);
        n++;
    }
    return n;
}

static int term_has_dice(const json_t *dice, json_int_t ti)
{
    size_t i;
    json_t *d;
    json_array_foreach(dice, i,
                       d) if (json_integer_value(json_object_get(d, "term")) == ti) return 1;
    return 0;
}

void rules_dice_words(const json_t *result, char *buf, size_t cap)
{
    if (!cap)
        return;
    outbuf o = {buf, cap, 0};
    buf[0] = '\0';
    const json_t *terms = json_object_get(result, "terms"), *dice = json_object_get(result, "dice");
    const char *expr = json_string_value(json_object_get(result, "expr"));
    words_put(&o, "%s:", expr ? expr : "roll");
    size_t i;
    json_t *t;
    json_array_foreach(terms, i, t)
    {
        long long sub = json_integer_value(json_object_get(t, "subtotal"));
        int neg = json_integer_value(json_object_get(t, "sign")) < 0;
        const char *label = json_string_value(json_object_get(t, "label"));
        const char *text = json_string_value(json_object_get(t, "text"));
        words_put(&o, "%s%s",
                  i == 0 ? " "
                  : neg  ? ", minus "
                         : ", plus ",
                  i == 0 && neg ? "minus " : "");
        if (!term_has_dice(dice, (json_int_t)i)) {
            words_put(&o, "%lld", sub);
        } else {
            /* kept first, then what was set aside; with nothing set aside, no "(kept)" */
            words_put(&o, "rolled ");
            int kept_n = words_values(dice, (json_int_t)i, 1, &o);
            size_t mark = o.at;
            words_put(&o, "%s", kept_n ? " (kept) and " : "nothing kept and ");
            if (!words_values(dice, (json_int_t)i, 0, &o)) {
                o.at = mark;
                buf[mark] = '\0';
            }
            if (text && (strchr(text, '>') || strchr(text, '<') || strchr(text, '=')))
                words_put(&o, ": %lld success%s", sub, sub == 1 || sub == -1 ? "" : "es");
        }
        if (label)
            words_put(&o, " (%s)", label);
    }
    const char *formula = json_string_value(json_object_get(result, "formula"));
    if (formula)
        words_put(&o, "; %s", formula);
    words_put(&o, " = %lld", (long long)json_integer_value(json_object_get(result, "total")));
}
