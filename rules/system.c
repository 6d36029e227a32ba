/*
 * system.c — the registry entry points, parameter parsing/validation, result building,
 * formatting and the shared mechanisms of system.h (pools, modifiers, comparisons).
 * The table of systems itself lives in registry.c.
 */
#include "system.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* registry.c */
extern const rules_system *const rules_registry[];

const rules_system *rules_system_at(size_t i)
{
    for (size_t k = 0; rules_registry[k]; k++)
        if (k == i)
            return rules_registry[k];
    return NULL;
}

const rules_system *rules_system_find(const char *id)
{
    if (!id)
        return NULL;
    for (size_t k = 0; rules_registry[k]; k++)
        if (strcmp(rules_registry[k]->id, id) == 0)
            return rules_registry[k];
    return NULL;
}

const rules_check *rules_check_find(const rules_system *s, const char *name)
{
    if (!s || !name)
        return NULL;
    for (const rules_check *c = s->checks; c && c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

/* ---- growable string ---- */

void rules_str_printf(rules_str *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        b->s = xrealloc(b->s, cap);
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void rules_str_free(rules_str *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

/* ---- arguments ---- */

static int param_index(const rules_param *params, const char *name)
{
    for (int i = 0; params && params[i].name; i++)
        if (strcmp(params[i].name, name) == 0)
            return i;
    return -1;
}

static int arg_index_or_abort(const rules_args *a, const char *name)
{
    int i = param_index(a->params, name);
    if (i < 0) {
        fprintf(stderr, "tabled: %s has no parameter '%s'\n", a->what, name);
        abort();
    }
    return i;
}

int rules_arg_int(const rules_args *a, const char *name)
{
    return a->ival[arg_index_or_abort(a, name)];
}

int rules_arg_given(const rules_args *a, const char *name)
{
    return a->given[arg_index_or_abort(a, name)];
}

const char *rules_arg_str(const rules_args *a, const char *name)
{
    return a->sval[arg_index_or_abort(a, name)];
}

int rules_args_exclusive(const rules_args *a, const char *p1, const char *p2, tb_err *err)
{
    if (rules_arg_given(a, p1) && rules_arg_given(a, p2))
        return tb_fail(err, TB_BAD_REQUEST, "parameters '%s' and '%s' are exclusive: give one", p1,
                       p2);
    return 0;
}

/* "skill, ability, bonus, difficulty" into out. */
static void param_names(const rules_param *params, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; params && params[i].name && len < n; i++) {
        int w = snprintf(out + len, n - len, "%s%s", i ? ", " : "", params[i].name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

int rules_args_parse(const char *what, const rules_param *params, const json_t *obj, rules_args *a,
                     tb_err *err)
{
    memset(a, 0, sizeof *a);
    a->params = params;
    a->what = what;
    if (obj && !json_is_object(obj))
        return tb_fail(err, TB_BAD_REQUEST, "%s: params must be an object of name: value", what);
    if (obj) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)obj, key, v)
        {
            if (param_index(params, key) < 0) {
                char names[160];
                param_names(params, names, sizeof names);
                return tb_fail(err, TB_BAD_REQUEST, "%s: unknown parameter '%.40s' (parameters: %s)",
                               what, key, names[0] ? names : "none");
            }
        }
    }
    for (int i = 0; params && params[i].name; i++) {
        const rules_param *p = &params[i];
        json_t *v = obj ? json_object_get(obj, p->name) : NULL;
        if (!v || json_is_null(v)) {
            if (p->flags & RULES_PARAM_REQUIRED) {
                if (p->type == RULES_PARAM_STRING)
                    return tb_fail(err, TB_BAD_REQUEST, "%s: missing required parameter '%s' (%s)",
                                   what, p->name, p->label ? p->label : "a string");
                return tb_fail(err, TB_BAD_REQUEST,
                               "%s: missing required parameter '%s' (%s, %d..%d)", what, p->name,
                               p->label ? p->label : "an integer", p->min, p->max);
            }
            a->ival[i] = p->def;
            continue;
        }
        a->given[i] = 1;
        switch (p->type) {
        case RULES_PARAM_INT: {
            if (!json_is_integer(v))
                return tb_fail(err, TB_BAD_REQUEST, "%s: parameter '%s' must be an integer in %d..%d",
                               what, p->name, p->min, p->max);
            json_int_t x = json_integer_value(v);
            if (x < p->min || x > p->max)
                return tb_fail(err, TB_BAD_REQUEST, "%s: parameter '%s' must be in %d..%d (got %lld)",
                               what, p->name, p->min, p->max, (long long)x);
            a->ival[i] = (int)x;
            break;
        }
        case RULES_PARAM_BOOL:
            if (json_is_boolean(v)) {
                a->ival[i] = json_is_true(v);
            } else if (json_is_integer(v) &&
                       (json_integer_value(v) == 0 || json_integer_value(v) == 1)) {
                a->ival[i] = (int)json_integer_value(v);
            } else {
                return tb_fail(err, TB_BAD_REQUEST, "%s: parameter '%s' must be 0 or 1", what,
                               p->name);
            }
            break;
        case RULES_PARAM_STRING: {
            if (!json_is_string(v))
                return tb_fail(err, TB_BAD_REQUEST, "%s: parameter '%s' must be a string", what,
                               p->name);
            size_t len = json_string_length(v);
            if (len < (size_t)p->min || len > (size_t)p->max)
                return tb_fail(err, TB_BAD_REQUEST,
                               "%s: parameter '%s' must be %d..%d characters long (got %zu)", what,
                               p->name, p->min, p->max, len);
            a->sval[i] = json_string_value(v);
            break;
        }
        }
    }
    return 0;
}

/* Fills a from params; 0 or TB_BAD_REQUEST naming the parameter. */
static int parse_args(const rules_system *s, const rules_check *c, const json_t *params,
                      rules_args *a, tb_err *err)
{
    char what[80];
    snprintf(what, sizeof what, "%s %s", s->id, c->name);
    int rc = rules_args_parse(what, c->params, params, a, err);
    a->check = c;
    a->what = c->name; /* static storage: `what` is a local */
    return rc;
}

json_t *rules_args_json(const rules_args *a)
{
    json_t *o = json_object();
    for (int i = 0; a->params && a->params[i].name; i++) {
        const rules_param *p = &a->params[i];
        if (!a->given[i])
            continue;
        if (p->type == RULES_PARAM_STRING)
            json_object_set_new(o, p->name, json_string(a->sval[i]));
        else
            json_object_set_new(o, p->name, json_integer(a->ival[i]));
    }
    return o;
}

json_t *rules_params_json(const rules_param *params)
{
    static const char *const TYPES[] = {"int", "bool", "string"};
    json_t *out = json_array();
    for (int i = 0; params && params[i].name; i++) {
        const rules_param *p = &params[i];
        json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:b, s:b}", "name", p->name, "type",
                              TYPES[p->type], "min", p->min, "max", p->max, "required",
                              (p->flags & RULES_PARAM_REQUIRED) != 0, "secret",
                              (p->flags & RULES_PARAM_SECRET) != 0);
        if (p->type != RULES_PARAM_STRING && !(p->flags & RULES_PARAM_REQUIRED))
            json_object_set_new(o, "default", json_integer(p->def));
        if (p->label)
            json_object_set_new(o, "label", json_string(p->label));
        json_array_append_new(out, o);
    }
    return out;
}

int rules_check_run_with(const rules_system *s, const rules_check *c, const json_t *params,
                         rules_rng *rng, json_t **result, tb_err *err)
{
    rules_args args;
    *result = NULL;
    int rc = parse_args(s, c, params, &args, err);
    if (rc)
        return rc;
    json_t *r = json_object();
    json_object_set_new(r, "system", json_string(s->id));
    json_object_set_new(r, "check", json_string(c->name));
    json_object_set_new(r, "params", rules_args_json(&args));
    json_object_set_new(r, "dice", json_array());
    rc = c->roll(&args, rng, r, err);
    if (rc) {
        json_decref(r);
        return rc;
    }
    json_t *succ = json_object_get(r, "success");
    if (!json_is_integer(json_object_get(r, "total")) ||
        !(json_is_boolean(succ) || json_is_null(succ))) {
        json_decref(r);
        return tb_fail(err, TB_INTERNAL, "%s %s: result lacks total or success", s->id, c->name);
    }
    *result = r;
    return 0;
}

int rules_check_run(const char *system, const char *check, const json_t *params, rules_rng *rng,
                    json_t **result, tb_err *err)
{
    *result = NULL;
    const rules_system *s = rules_system_find(system);
    if (!s)
        return tb_fail(err, TB_NOT_FOUND, "unknown rule system '%.40s'", system ? system : "");
    const rules_check *c = rules_check_find(s, check);
    if (!c) {
        rules_str names = {0};
        for (const rules_check *k = s->checks; k && k->name; k++)
            rules_str_printf(&names, "%s%s", k == s->checks ? "" : ", ", k->name);
        tb_fail(err, TB_NOT_FOUND, "%s has no check '%.40s' (checks: %s)", s->id,
                check ? check : "", names.s ? names.s : "none");
        rules_str_free(&names);
        return TB_NOT_FOUND;
    }
    return rules_check_run_with(s, c, params, rng, result, err);
}

/* ---- formatting ---- */

void rules_format_default(const json_t *result, rules_str *out)
{
    json_t *dice = json_object_get(result, "dice");
    size_t i;
    json_t *d;
    int first = 1;
    json_array_foreach(dice, i, d)
    {
        int v = (int)json_integer_value(json_object_get(d, "value"));
        int kept = json_is_true(json_object_get(d, "kept"));
        rules_str_printf(out, kept ? "%s%d" : "%s[%d]", first ? "" : " ", v);
        first = 0;
    }
    rules_str_printf(out, "%s= %lld", first ? "" : " ",
                     (long long)json_integer_value(json_object_get(result, "total")));
    json_t *target = json_object_get(result, "target");
    if (json_is_integer(target))
        rules_str_printf(out, " vs %lld", (long long)json_integer_value(target));
    json_t *succ = json_object_get(result, "success");
    if (json_is_boolean(succ))
        rules_str_printf(out, ": %s", json_is_true(succ) ? "success" : "failure");
}

char *rules_result_format(const json_t *result)
{
    rules_str out = {0};
    const rules_system *s = rules_system_find(json_string_value(json_object_get(result, "system")));
    const rules_check *c = rules_check_find(s, json_string_value(json_object_get(result, "check")));
    if (c && c->format)
        c->format(result, &out);
    else
        rules_format_default(result, &out);
    if (!out.s)
        return xstrdup("");
    return out.s;
}

/* ---- sheets ---- */

static const char *field_type_name(rules_field_type t)
{
    switch (t) {
    case RULES_FIELD_INT:
        return "int";
    case RULES_FIELD_BOOL:
        return "bool";
    case RULES_FIELD_STRING:
        return "string";
    case RULES_FIELD_ENUM:
        return "enum";
    case RULES_FIELD_OBJECT:
        return "object";
    case RULES_FIELD_LIST:
        return "list";
    case RULES_FIELD_STRINGS:
        return "strings";
    }
    return "?";
}

static json_t *fields_schema(const rules_field *fields)
{
    json_t *arr = json_array();
    for (const rules_field *f = fields; f && f->name; f++) {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(f->name));
        json_object_set_new(o, "type", json_string(field_type_name(f->type)));
        json_object_set_new(o, "label", json_string(f->label ? f->label : f->name));
        if (f->group)
            json_object_set_new(o, "group", json_string(f->group));
        json_object_set_new(o, "required", json_boolean(f->required));
        if (f->type == RULES_FIELD_INT || f->type == RULES_FIELD_STRING ||
            f->type == RULES_FIELD_LIST || f->type == RULES_FIELD_STRINGS) {
            json_object_set_new(o, "min", json_integer(f->min));
            json_object_set_new(o, "max", json_integer(f->max));
        }
        if (f->type == RULES_FIELD_INT)
            json_object_set_new(o, "default", json_integer(f->def));
        if (f->type == RULES_FIELD_ENUM) {
            json_t *ch = json_array();
            for (const char *const *c = f->choices; c && *c; c++)
                json_array_append_new(ch, json_string(*c));
            json_object_set_new(o, "choices", ch);
        }
        if (f->type == RULES_FIELD_OBJECT || f->type == RULES_FIELD_LIST)
            json_object_set_new(o, "fields", fields_schema(f->fields));
        if (f->cite)
            json_object_set_new(o, "cite", json_string(f->cite));
        json_array_append_new(arr, o);
    }
    return arr;
}

json_t *rules_sheet_schema(const char *system)
{
    const rules_system *s = rules_system_find(system);
    if (!s)
        return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "system", json_string(s->id));
    json_object_set_new(o, "name", json_string(s->name));
    json_object_set_new(o, "fields", fields_schema(s->sheet));
    return o;
}

static const rules_field *field_find(const rules_field *fields, const char *name)
{
    for (const rules_field *f = fields; f && f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

static int validate_fields(const rules_field *fields, const json_t *obj, const char *path,
                           tb_err *err);

static void join_path(char *out, size_t n, const char *path, const char *name)
{
    snprintf(out, n, "%.120s%s%.60s", path, *path ? "." : "", name);
}

static int validate_value(const rules_field *f, const json_t *v, const char *fp, tb_err *err)
{
    switch (f->type) {
    case RULES_FIELD_INT: {
        if (!json_is_integer(v))
            return tb_fail(err, TB_BAD_REQUEST, "field '%s' must be an integer in %d..%d", fp,
                           f->min, f->max);
        json_int_t x = json_integer_value(v);
        if (x < f->min || x > f->max)
            return tb_fail(err, TB_BAD_REQUEST, "field '%s' must be in %d..%d (got %lld)", fp,
                           f->min, f->max, (long long)x);
        return 0;
    }
    case RULES_FIELD_BOOL:
        if (!json_is_boolean(v))
            return tb_fail(err, TB_BAD_REQUEST, "field '%s' must be true or false", fp);
        return 0;
    case RULES_FIELD_STRING: {
        if (!json_is_string(v))
            return tb_fail(err, TB_BAD_REQUEST, "field '%s' must be a string", fp);
        size_t len = json_string_length(v);
        if (len < (size_t)f->min || len > (size_t)f->max)
            return tb_fail(err, TB_BAD_REQUEST,
                           "field '%s' must be %d..%d characters long (got %zu)", fp, f->min,
                           f->max, len);
        return 0;
    }
    case RULES_FIELD_ENUM: {
        const char *sv = json_string_value(v);
        for (const char *const *c = f->choices; sv && c && *c; c++)
            if (strcmp(*c, sv) == 0)
                return 0;
        rules_str ch = {0};
        for (const char *const *c = f->choices; c && *c; c++)
            rules_str_printf(&ch, "%s%s", c == f->choices ? "" : ", ", *c);
        tb_fail(err, TB_BAD_REQUEST, "field '%s' must be one of: %s", fp, ch.s ? ch.s : "");
        rules_str_free(&ch);
        return TB_BAD_REQUEST;
    }
    case RULES_FIELD_OBJECT:
        return validate_fields(f->fields, v, fp, err);
    case RULES_FIELD_LIST:
    case RULES_FIELD_STRINGS: {
        if (!json_is_array(v))
            return tb_fail(err, TB_BAD_REQUEST, "field '%s' must be a list", fp);
        size_t n = json_array_size(v);
        if (n < (size_t)f->min || n > (size_t)f->max)
            return tb_fail(err, TB_BAD_REQUEST, "field '%s' must have %d..%d entries (got %zu)", fp,
                           f->min, f->max, n);
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item)
        {
            char ip[200];
            snprintf(ip, sizeof ip, "%.150s[%zu]", fp, i);
            if (f->type == RULES_FIELD_LIST) {
                int rc = validate_fields(f->fields, item, ip, err);
                if (rc)
                    return rc;
            } else if (!json_is_string(item) || json_string_length(item) < 1 ||
                       json_string_length(item) > 100) {
                return tb_fail(err, TB_BAD_REQUEST,
                               "field '%s' must be a string of 1..100 "
                               "characters",
                               ip);
            }
        }
        return 0;
    }
    }
    return 0;
}

static int validate_fields(const rules_field *fields, const json_t *obj, const char *path,
                           tb_err *err)
{
    if (!json_is_object(obj)) {
        if (!*path)
            return tb_fail(err, TB_BAD_REQUEST, "the sheet must be a JSON object");
        return tb_fail(err, TB_BAD_REQUEST, "field '%s' must be an object", path);
    }
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v)
    {
        if (!field_find(fields, key)) {
            char fp[200];
            join_path(fp, sizeof fp, path, key);
            return tb_fail(err, TB_BAD_REQUEST, "unknown field '%.100s'", fp);
        }
    }
    for (const rules_field *f = fields; f && f->name; f++) {
        char fp[200];
        join_path(fp, sizeof fp, path, f->name);
        json_t *fv = json_object_get(obj, f->name);
        if (!fv) {
            if (f->required)
                return tb_fail(err, TB_BAD_REQUEST, "missing required field '%s' (%s)", fp,
                               f->label ? f->label : f->name);
            continue;
        }
        int rc = validate_value(f, fv, fp, err);
        if (rc)
            return rc;
    }
    return 0;
}

int rules_sheet_validate(const char *system, const json_t *sheet, tb_err *err)
{
    const rules_system *s = rules_system_find(system);
    if (!s)
        return tb_fail(err, TB_NOT_FOUND, "unknown rule system '%.40s'", system ? system : "");
    if (!s->sheet)
        return tb_fail(err, TB_BAD_REQUEST, "%s has no character sheets", s->id);
    int rc = validate_fields(s->sheet, sheet, "", err);
    if (rc)
        return rc;
    return s->validate ? s->validate(sheet, err) : 0;
}

json_t *rules_sheet_derive(const char *system, const json_t *sheet)
{
    const rules_system *s = rules_system_find(system);
    if (!s || rules_sheet_validate(system, sheet, NULL))
        return NULL;
    return s->derive ? s->derive(sheet) : json_object();
}

/* ---- shared mechanisms ---- */

void rules_pool_select(rules_pool *p, int keep, rules_keep mode)
{
    if (keep < 0)
        keep = 0;
    if (keep > p->n)
        keep = p->n;
    p->keep = keep;
    p->sum_kept = 0;
    memset(p->kept, 0, sizeof p->kept);
    /* Selection by repeated scans: pools are small (<= 64) and this keeps the tie rule obvious:
     * among equal faces, the earliest rolled die is taken first. */
    for (int k = 0; k < keep; k++) {
        int best = -1;
        for (int i = 0; i < p->n; i++) {
            if (p->kept[i])
                continue;
            if (best < 0 || (mode == RULES_KEEP_HIGHEST ? p->value[i] > p->value[best]
                                                        : p->value[i] < p->value[best]))
                best = i;
        }
        p->kept[best] = 1;
        p->sum_kept += p->value[best];
    }
}

int rules_pool_roll(rules_pool *p, rules_rng *rng, int n, int sides, int keep, rules_keep mode,
                    tb_err *err)
{
    if (n < 0 || n > RULES_POOL_MAX)
        return tb_fail(err, TB_BAD_REQUEST, "a pool must have 0..%d dice (got %d)", RULES_POOL_MAX,
                       n);
    if (sides < 1)
        return tb_fail(err, TB_BAD_REQUEST, "a die must have at least 1 side (got %d)", sides);
    p->sides = sides;
    p->n = n;
    for (int i = 0; i < n; i++)
        p->value[i] = rules_rng_die(rng, sides);
    rules_pool_select(p, keep, mode);
    return 0;
}

int rules_pool_count(const rules_pool *p, int face)
{
    int c = 0;
    for (int i = 0; i < p->n; i++)
        c += p->value[i] == face;
    return c;
}

int rules_pool_max(const rules_pool *p)
{
    int m = 0;
    for (int i = 0; i < p->n; i++)
        if (i == 0 || p->value[i] > m)
            m = p->value[i];
    return m;
}

int rules_pool_min(const rules_pool *p)
{
    int m = 0;
    for (int i = 0; i < p->n; i++)
        if (i == 0 || p->value[i] < m)
            m = p->value[i];
    return m;
}

void rules_result_die(json_t *dice, int sides, int value, int kept)
{
    json_t *d = json_object();
    json_object_set_new(d, "sides", json_integer(sides));
    json_object_set_new(d, "value", json_integer(value));
    json_object_set_new(d, "kept", json_boolean(kept));
    json_array_append_new(dice, d);
}

void rules_pool_to_json(const rules_pool *p, json_t *dice)
{
    for (int i = 0; i < p->n; i++)
        rules_result_die(dice, p->sides, p->value[i], p->kept[i]);
}

json_t *rules_pool_kept_json(const rules_pool *p)
{
    int v[RULES_POOL_MAX];
    int n = 0;
    for (int i = 0; i < p->n; i++)
        if (p->kept[i])
            v[n++] = p->value[i];
    /* insertion sort, high to low */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] > v[j - 1]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

int rules_roll_die(rules_rng *rng, int sides, json_t *dice)
{
    int v = rules_rng_die(rng, sides);
    if (dice)
        rules_result_die(dice, sides, v, 1);
    return v;
}

int rules_result_modifier(json_t *result, const char *source, int value)
{
    json_t *mods = json_object_get(result, "modifiers");
    if (!mods) {
        mods = json_array();
        json_object_set_new(result, "modifiers", mods);
    }
    json_t *m = json_object();
    json_object_set_new(m, "source", json_string(source));
    json_object_set_new(m, "value", json_integer(value));
    json_array_append_new(mods, m);
    return value;
}

int rules_meets(int total, int target, rules_cmp cmp)
{
    return cmp == RULES_CMP_GE ? total >= target : total > target;
}

int rules_opposed(int actor_total, int defender_total, rules_tie tie)
{
    if (actor_total != defender_total)
        return actor_total > defender_total;
    return tie == RULES_TIE_ACTOR;
}

void rules_result_outcome(json_t *result, int total, int has_target, int target, rules_cmp cmp)
{
    json_object_set_new(result, "total", json_integer(total));
    if (has_target) {
        json_object_set_new(result, "target", json_integer(target));
        json_object_set_new(result, "success", json_boolean(rules_meets(total, target, cmp)));
    } else {
        json_object_set_new(result, "success", json_null());
    }
}
