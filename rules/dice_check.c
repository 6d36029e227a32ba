/*
 * dice_check.c — the pseudo-system "dice" with its one check "dice": a generic dice expression
 * (rules/dice.h) run through the same path as every system's checks, so `tabled roll dice 2d6+1`
 * and the table op `roll.check` give results of the common shape.
 */
#include "dice.h"
#include "system.h"

static int dice_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    json_t *r = NULL;
    int rc = rules_dice_roll_text(rules_arg_str(a, "expr"), rng, &r, err);
    if (rc)
        return rc;
    /* dice.h's shape, fields copied over the common ones: expr, dice, terms, total. */
    json_object_update(result, r);
    json_decref(r);
    json_object_set_new(result, "success", json_null());
    return 0;
}

/* The dice of term t: " (5 [2] 3)", dropped dice in brackets; 0 when it rolled none. */
static int format_term_dice(const json_t *dice, size_t t, rules_str *out)
{
    size_t i;
    json_t *d;
    int n = 0;
    json_array_foreach(dice, i, d)
    {
        if ((size_t)json_integer_value(json_object_get(d, "term")) != t)
            continue;
        int v = (int)json_integer_value(json_object_get(d, "value"));
        int kept = json_is_true(json_object_get(d, "kept"));
        rules_str_printf(out, "%s%s%d%s", n ? " " : " (", kept ? "" : "[", v, kept ? "" : "]");
        n++;
    }
    if (n)
        rules_str_printf(out, ")");
    return n;
}

/* "4d6kh3+2 → ([2] 5 3 6) + 2 = 16": each term's dice (dropped in brackets) or constant. With
 * '*' or '/' (a "formula"): "(1d4+1)*2 → 1d4 (3); (3+1)*2 = 8". */
static void dice_format(const json_t *result, rules_str *out)
{
    rules_str_printf(out, "%s →", json_string_value(json_object_get(result, "expr")));
    const json_t *dice = json_object_get(result, "dice");
    const char *formula = json_string_value(json_object_get(result, "formula"));
    size_t t;
    json_t *term;
    int groups = 0;
    json_array_foreach(json_object_get(result, "terms"), t, term)
    {
        if (formula) { /* only the terms that rolled dice; the formula shows the rest */
            rules_str tmp = {0};
            if (format_term_dice(dice, t, &tmp))
                rules_str_printf(out, "%s %s%s", groups++ ? ";" : "",
                                 json_string_value(json_object_get(term, "text")), tmp.s);
            rules_str_free(&tmp);
            continue;
        }
        int neg = json_integer_value(json_object_get(term, "sign")) < 0;
        rules_str_printf(out, t ? (neg ? " -" : " +") : (neg ? " -" : ""));
        if (!format_term_dice(dice, t, out))
            rules_str_printf(out, " %lld",
                             (long long)json_integer_value(json_object_get(term, "subtotal")));
    }
    if (formula)
        rules_str_printf(out, "%s %s", groups ? ";" : "", formula);
    rules_str_printf(out, " = %lld",
                     (long long)json_integer_value(json_object_get(result, "total")));
}

static const rules_param dice_params[] = {
    {"expr", RULES_PARAM_STRING, 1, RULES_DICE_MAX_LEN, 0,
     RULES_PARAM_REQUIRED | RULES_PARAM_POSITIONAL, "dice expression, e.g. 4d6kh3+2"},
    {0},
};

static const rules_check dice_checks[] = {
    {"dice",
     "a generic dice expression (NdS or dF, kh/kl/dh/dl, ! !! r ro, >N f, + - * / ( ), [labels])",
     dice_params, dice_roll, dice_format},
    {0},
};

static const struct rules_module *const dice_modules[] = {NULL}; /* no encounters */

const rules_system rules_system_dice = {
    .id = "dice",
    .name = "Dice expressions",
    .rulebook = NULL,
    .sheet = NULL,
    .checks = dice_checks,
    .modules = dice_modules,
};
