/*
 * encounter.c — the shared encounter machinery of encounter.h: combatants, order and turns,
 * budgets, conditions, stats and log entries, over the /enc and /gm/enc JSON trees.
 */
#include "encounter.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small JSON helpers ---- */

static json_t *obj_child(json_t *parent, const char *key)
{
    json_t *o = json_object_get(parent, key);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(parent, key, o);
    }
    return o;
}

static json_t *arr_child(json_t *parent, const char *key)
{
    json_t *a = json_object_get(parent, key);
    if (!json_is_array(a)) {
        a = json_array();
        json_object_set_new(parent, key, a);
    }
    return a;
}

/* ---- module descriptions ---- */

const rules_enc_action *rules_module_action(const rules_module *m, const char *name)
{
    for (const rules_enc_action *a = m->actions; a && a->name; a++)
        if (rules_enc_streq(a->name, name))
            return a;
    return NULL;
}

json_t *rules_module_describe(const rules_module *m)
{
    static const char *const WHO[] = {"", "gm", "turn", "owner", "any"};
    json_t *acts = json_array();
    for (const rules_enc_action *a = m->actions; a && a->name; a++) {
        json_t *o = json_pack("{s:s, s:s, s:s, s:o}", "name", a->name, "label",
                              a->label ? a->label : a->name, "who", WHO[a->who], "params",
                              rules_params_json(a->params));
        if (a->cite)
            json_object_set_new(o, "cite", json_string(a->cite));
        json_array_append_new(acts, o);
    }
    json_t *d = json_pack("{s:s, s:s, s:s, s:o, s:o}", "id", m->id, "name", m->name, "system",
                          m->system, "options", rules_params_json(m->options), "actions", acts);
    if (m->cite)
        json_object_set_new(d, "cite", json_string(m->cite));
    /* The numbers the GM may change with enc.set (the module's own, then the common ones), so a
     * client offers only what the server accepts: [{path, label, min, max}]. */
    json_t *ed = json_array();
    const rules_enc_field *tables[] = {m->editable, rules_enc_fields_common};
    for (int t = 0; t < 2; t++)
        for (const rules_enc_field *f = tables[t]; f && f->path; f++)
            if (f->type == RULES_PARAM_INT)
                json_array_append_new(ed,
                                      json_pack("{s:s, s:s, s:i, s:i}", "path", f->path, "label",
                                                f->label, "min", f->min, "max", f->max));
    json_object_set_new(d, "editable", ed);
    return d;
}

/* ---- combatants ---- */

json_t *rules_enc_combatant(const rules_enc *e, const char *cid)
{
    if (!cid)
        return NULL;
    return json_object_get(json_object_get(e->enc, "combatants"), cid);
}

const char *rules_enc_name(const rules_enc *e, const char *cid)
{
    const char *n = json_string_value(json_object_get(rules_enc_combatant(e, cid), "name"));
    return n ? n : "?";
}

const char *rules_enc_side(const rules_enc *e, const char *cid)
{
    const char *s = json_string_value(json_object_get(rules_enc_combatant(e, cid), "side"));
    return s ? s : "";
}

int rules_enc_is_npc(const rules_enc *e, const char *cid)
{
    return json_is_true(json_object_get(rules_enc_combatant(e, cid), "npc"));
}

json_t *rules_enc_hidden_of(rules_enc *e, const char *cid)
{
    return obj_child(obj_child(e->hidden, "combatants"), cid);
}

json_t *rules_enc_stats(rules_enc *e, const char *cid)
{
    if (rules_enc_is_npc(e, cid))
        return obj_child(rules_enc_hidden_of(e, cid), "stats");
    json_t *c = rules_enc_combatant(e, cid);
    return c ? obj_child(c, "stats") : obj_child(rules_enc_hidden_of(e, cid), "stats");
}

const json_t *rules_enc_stats_peek(const rules_enc *e, const char *cid)
{
    json_t *hid = json_object_get(json_object_get(e->hidden, "combatants"), cid);
    json_t *c = rules_enc_combatant(e, cid);
    return json_object_get(rules_enc_is_npc(e, cid) || !c ? hid : c, "stats");
}

int rules_enc_stat_peek(const rules_enc *e, const char *cid, const char *key, int def)
{
    json_t *v = json_object_get(rules_enc_stats_peek(e, cid), key);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

int rules_enc_stat(rules_enc *e, const char *cid, const char *key, int def)
{
    json_t *v = json_object_get(rules_enc_stats(e, cid), key);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

void rules_enc_stat_set(rules_enc *e, const char *cid, const char *key, int value)
{
    json_object_set_new(rules_enc_stats(e, cid), key, json_integer(value));
}

int rules_enc_stat_add(rules_enc *e, const char *cid, const char *key, int delta, int lo, int hi)
{
    long v = (long)rules_enc_stat(e, cid, key, 0) + delta;
    if (v < lo)
        v = lo;
    if (v > hi)
        v = hi;
    rules_enc_stat_set(e, cid, key, (int)v);
    return (int)v;
}

int rules_enc_controls(const rules_enc *e, const char *cid)
{
    if (e->is_gm)
        return 1;
    json_t *c = rules_enc_combatant(e, cid);
    const char *seat = json_string_value(json_object_get(c, "seat"));
    return c && !json_is_true(json_object_get(c, "npc")) && seat && e->seat &&
           strcmp(seat, e->seat) == 0;
}

void rules_enc_set_out(rules_enc *e, const char *cid, const char *why)
{
    json_t *c = rules_enc_combatant(e, cid);
    if (!c)
        return;
    if (why)
        json_object_set_new(c, "out", json_string(why));
    else
        json_object_del(c, "out");
}

int rules_enc_is_out(const rules_enc *e, const char *cid)
{
    json_t *out = json_object_get(rules_enc_combatant(e, cid), "out");
    return out && !json_is_false(out) && !json_is_null(out);
}

int rules_enc_add_combatant(rules_enc *e, const char *name, const char *side, const char *seat,
                            int npc, char cid[24], tb_err *err)
{
    json_t *all = obj_child(e->enc, "combatants");
    if (json_object_size(all) >= RULES_ENC_MAX_COMBATANTS)
        return rules_enc_rule(err, "an encounter holds at most %d combatants",
                              RULES_ENC_MAX_COMBATANTS);
    json_int_t n = json_integer_value(json_object_get(e->enc, "next_id"));
    if (n < 1)
        n = 1;
    snprintf(cid, 24, "e%lld", (long long)n);
    json_object_set_new(e->enc, "next_id", json_integer(n + 1));
    json_object_set_new(all, cid,
                        json_pack("{s:s, s:s, s:s, s:s, s:b, s:[]}", "id", cid, "name", name,
                                  "side", side, "seat", seat, "npc", npc, "conditions"));
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    /* "c10" after "c9": shorter first, then lexicographic */
    size_t lx = strlen(x), ly = strlen(y);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    return strcmp(x, y);
}

/* The ids of e's combatants in the order of rules_enc_cid_at (a new array of *n keys, borrowed
 * from the object), for a walk of them all that changes none: rules_enc_cid_at sorts at every
 * step. */
static const char **cids_sorted(const rules_enc *e, size_t *n)
{
    json_t *all = json_object_get(e->enc, "combatants");
    *n = json_object_size(all);
    const char **keys = malloc((*n ? *n : 1) * sizeof *keys);
    if (!keys)
        abort();
    size_t k = 0;
    const char *key;
    json_t *v;
    json_object_foreach(all, key, v) keys[k++] = key;
    qsort(keys, *n, sizeof *keys, cmp_str);
    return keys;
}

const char *rules_enc_cid_at(const rules_enc *e, size_t i)
{
    if (i >= json_object_size(json_object_get(e->enc, "combatants")))
        return NULL;
    size_t n;
    const char **keys = cids_sorted(e, &n);
    const char *out = keys[i];
    free(keys);
    return out;
}

/* ---- order and turns ---- */

static int rank_cmp(const rules_rank *a, const rules_rank *b)
{
    for (int k = 0; k < 4; k++)
        if (a->key[k] != b->key[k])
            return a->key[k] > b->key[k] ? -1 : 1;
    if (a->coin != b->coin)
        return a->coin > b->coin ? -1 : 1;
    return 0;
}

void rules_enc_order_set(rules_enc *e, rules_rank *r, int n)
{
    /* insertion sort: stable, n is small */
    for (int i = 1; i < n; i++) {
        rules_rank x = r[i];
        int j = i - 1;
        while (j >= 0 && rank_cmp(&r[j], &x) > 0) {
            r[j + 1] = r[j];
            j--;
        }
        r[j + 1] = x;
    }
    json_t *order = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(order, json_string(r[i].id));
    json_object_set_new(e->enc, "order", order);
    json_object_set_new(e->enc, "turn", json_integer(-1));
}

static int turn_index(const rules_enc *e)
{
    json_t *t = json_object_get(e->enc, "turn");
    return json_is_integer(t) ? (int)json_integer_value(t) : -1;
}

json_t *rules_enc_current_entry(const rules_enc *e)
{
    int t = turn_index(e);
    return t < 0 ? NULL : json_array_get(json_object_get(e->enc, "order"), (size_t)t);
}

const char *rules_enc_current(const rules_enc *e)
{
    return json_string_value(rules_enc_current_entry(e));
}

int rules_enc_round(const rules_enc *e)
{
    return (int)json_integer_value(json_object_get(e->enc, "round"));
}

int rules_enc_order_index(const rules_enc *e, const char *cid)
{
    json_t *order = json_object_get(e->enc, "order");
    size_t i;
    json_t *v;
    json_array_foreach(order, i, v)
    {
        if (rules_enc_streq(json_string_value(v), cid))
            return (int)i;
    }
    return -1;
}

void rules_enc_order_move(rules_enc *e, int from, int to)
{
    json_t *order = json_object_get(e->enc, "order");
    int n = (int)json_array_size(order);
    if (from < 0 || from >= n || to < 0 || to >= n || from == to)
        return;
    int t = turn_index(e);
    json_t *x = json_incref(json_array_get(order, (size_t)from));
    json_array_remove(order, (size_t)from);
    json_array_insert_new(order, (size_t)to, x);
    if (t == from) {
        t = to;
    } else if (t >= 0) {
        if (from < t && to >= t)
            t--;
        else if (from > t && to <= t)
            t++;
    }
    json_object_set_new(e->enc, "turn", json_integer(t));
}

/* An entry may take the turn unless it names a combatant that is out. */
static int entry_active(const rules_enc *e, json_t *entry)
{
    const char *cid = json_string_value(entry);
    return !cid || !rules_enc_is_out(e, cid);
}

static void start_turn(rules_enc *e)
{
    const char *cid = rules_enc_current(e);
    if (cid)
        rules_enc_budget_reset(e, cid);
}

void rules_enc_begin_round(rules_enc *e)
{
    json_t *order = json_object_get(e->enc, "order");
    int n = (int)json_array_size(order);
    json_object_set_new(e->enc, "round", json_integer(rules_enc_round(e) + 1));
    int t = 0;
    while (t < n && !entry_active(e, json_array_get(order, (size_t)t)))
        t++;
    json_object_set_new(e->enc, "turn", json_integer(t < n ? t : -1));
    start_turn(e);
}

int rules_enc_advance(rules_enc *e)
{
    json_t *order = json_object_get(e->enc, "order");
    int n = (int)json_array_size(order);
    int any = 0;
    for (int i = 0; i < n; i++)
        any |= entry_active(e, json_array_get(order, (size_t)i));
    if (!any) {
        json_object_set_new(e->enc, "turn", json_integer(-1));
        return -1;
    }
    int t = turn_index(e) + 1;
    while (t < n && !entry_active(e, json_array_get(order, (size_t)t)))
        t++;
    if (t < n) {
        json_object_set_new(e->enc, "turn", json_integer(t));
        start_turn(e);
        return 0;
    }
    rules_enc_begin_round(e);
    return 1;
}

/* ---- budgets ---- */

void rules_enc_budget_default(rules_enc *e, json_t *budget)
{
    json_object_set_new(e->enc, "budget", budget);
}

void rules_enc_budget_reset(rules_enc *e, const char *cid)
{
    json_t *def = json_object_get(e->enc, "budget");
    json_t *c = rules_enc_combatant(e, cid);
    if (c && json_is_object(def))
        json_object_set_new(c, "budget", json_deep_copy(def));
}

int rules_enc_budget_left(rules_enc *e, const char *cid, const char *kind)
{
    json_t *b = json_object_get(rules_enc_combatant(e, cid), "budget");
    return (int)json_integer_value(json_object_get(b, kind));
}

void rules_enc_budget_set(rules_enc *e, const char *cid, const char *kind, int n)
{
    json_t *c = rules_enc_combatant(e, cid);
    if (c)
        json_object_set_new(obj_child(c, "budget"), kind, json_integer(n < 0 ? 0 : n));
}

int rules_enc_spend(rules_enc *e, const char *cid, const char *kind, int n, tb_err *err)
{
    int left = rules_enc_budget_left(e, cid, kind);
    if (left < n) {
        if (n == 1)
            return rules_enc_rule(err, "%s has no %s left this turn", rules_enc_name(e, cid), kind);
        return rules_enc_rule(err, "%s has %d %s left this turn, not %d", rules_enc_name(e, cid),
                              left, kind, n);
    }
    rules_enc_budget_set(e, cid, kind, left - n);
    return 0;
}

/* ---- what the GM may edit, and what a module can use ---- */

int rules_enc_streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* clang-format off */
const rules_enc_field rules_enc_fields_common[] = {
    {"/enc/name", RULES_PARAM_STRING, 1, 60, "the encounter's name"},
    {"/enc/round", RULES_PARAM_INT, 0, 999, "the round"}, /* RULES_ENC_MAX_ROUND: room to play on */
    {"/enc/turn", RULES_PARAM_INT, -1, 999, "the turn"},
    {"/enc/combatants/*/name", RULES_PARAM_STRING, 1, 40, "name"},
    {"/enc/combatants/*/side", RULES_PARAM_STRING, 1, 32, "side"},
    {"/enc/combatants/*/out", RULES_PARAM_STRING, 1, 40, "reason for being out of the fight"},
    {"/gm/enc/combatants/*/note", RULES_PARAM_STRING, 1, 500, "GM note"},
    {NULL, 0, 0, 0, NULL},
};
/* clang-format on */

#define PATH_MAX_SEGMENTS 8

/* Splits a JSON pointer ("/a/b") into at most PATH_MAX_SEGMENTS segments, written into buf
 * (NUL-separated); returns the count, or -1 when it has more or does not start with '/'. */
static int path_split(const char *path, char *buf, size_t cap, const char *seg[PATH_MAX_SEGMENTS])
{
    if (!path || path[0] != '/' || strlen(path) >= cap)
        return -1;
    strcpy(buf, path + 1);
    int n = 0;
    for (char *p = buf;; n++) {
        if (n == PATH_MAX_SEGMENTS)
            return -1;
        seg[n] = p;
        char *slash = strchr(p, '/');
        if (!slash)
            return n + 1;
        *slash = '\0';
        p = slash + 1;
    }
}

/* Whether path matches the field's pattern; a "*" segment must be an existing combatant's id,
 * copied to cid. A "stats/<key>" field matches /enc/combatants/<cid>/stats/<key> and
 * /gm/enc/combatants/<cid>/stats/<key>. */
static int field_match(const rules_enc *e, const rules_enc_field *f, const char *path, char cid[24])
{
    char pb[256], fb[128];
    const char *ps[PATH_MAX_SEGMENTS], *fs[PATH_MAX_SEGMENTS];
    int pn = path_split(path, pb, sizeof pb, ps);
    if (pn < 0)
        return 0;
    if (strncmp(f->path, "stats/", 6) == 0) {
        int gm = pn >= 6 && strcmp(ps[0], "gm") == 0;
        if (pn < 5 + gm || strcmp(ps[gm], "enc") != 0 || strcmp(ps[gm + 1], "combatants") != 0 ||
            strcmp(ps[gm + 3], "stats") != 0 || !rules_enc_combatant(e, ps[gm + 2]) ||
            strlen(ps[gm + 2]) >= 24)
            return 0;
        char rest[128] = "";
        size_t len = 0;
        for (int i = gm + 4; i < pn && len < sizeof rest; i++)
            len += (size_t)snprintf(rest + len, sizeof rest - len, "%s%s", len ? "/" : "", ps[i]);
        if (strcmp(rest, f->path + 6) != 0)
            return 0;
        strcpy(cid, ps[gm + 2]);
        return 1;
    }
    char fpath[128];
    snprintf(fpath, sizeof fpath, "%s", f->path);
    int fn = path_split(fpath, fb, sizeof fb, fs);
    if (fn != pn)
        return 0;
    cid[0] = '\0';
    for (int i = 0; i < pn; i++) {
        if (strcmp(fs[i], "*") == 0) {
            if (!rules_enc_combatant(e, ps[i]) || strlen(ps[i]) >= 24)
                return 0;
            strcpy(cid, ps[i]);
        } else if (strcmp(fs[i], ps[i]) != 0) {
            return 0;
        }
    }
    return 1;
}

/* The field of tables (module first, then common) that path names, or NULL. */
static const rules_enc_field *field_find(const rules_enc *e, const char *path, char cid[24])
{
    const rules_enc_field *tables[] = {e->mod->editable, rules_enc_fields_common};
    for (int t = 0; t < 2; t++)
        for (const rules_enc_field *f = tables[t]; f && f->path; f++)
            if (field_match(e, f, path, cid))
                return f;
    return NULL;
}

/* Checks value against f like an action parameter (rules_args_parse), with the field's label
 * (and the combatant's name) as the parameter's name. */
static int field_value_ok(const rules_enc *e, const rules_enc_field *f, const char *cid,
                          const json_t *value, tb_err *err)
{
    char name[96];
    if (cid[0])
        snprintf(name, sizeof name, "%.40s's %s", rules_enc_name(e, cid), f->label);
    else
        snprintf(name, sizeof name, "%s", f->label);
    const rules_param params[] = {
        {name, f->type, f->min, f->max, 0, RULES_PARAM_REQUIRED, f->label},
        {0},
    };
    json_t *obj = json_object();
    json_object_set(obj, name, (json_t *)value);
    rules_args a;
    int rc = rules_args_parse("enc.set", params, obj, &a, err);
    json_decref(obj);
    return rc;
}

/* The labels of the fields a GM may set in this module, for the refusal message. */
static void field_labels(const rules_enc *e, char *out, size_t cap)
{
    const rules_enc_field *tables[] = {rules_enc_fields_common, e->mod->editable};
    size_t len = 0;
    out[0] = '\0';
    for (int t = 0; t < 2; t++)
        for (const rules_enc_field *f = tables[t]; f && f->path && len < cap; f++)
            len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? ", " : "", f->label);
}

int rules_enc_editable(const rules_enc *e, const char *path, const json_t *value,
                       const rules_enc_field **field, char cid[24], tb_err *err)
{
    const rules_enc_field *f = field_find(e, path, cid);
    if (!f) {
        char labels[400];
        field_labels(e, labels, sizeof labels);
        return tb_fail(
            err, TB_BAD_REQUEST,
            "enc.set: %.120s is not something the GM may set in %s (what may be set, below "
            "/enc/ and /gm/enc/ and for a combatant of the encounter: %s)",
            path ? path : "(no path)", e->mod->name, labels);
    }
    if (field_value_ok(e, f, cid, value, err))
        return err->code;
    *field = f;
    return TB_OK;
}

/* The value at sub-path sub ("hp/damage") of a stats object, or NULL. */
static const json_t *stat_peek(const json_t *stats, const char *sub)
{
    const json_t *at = stats;
    for (const char *p = sub; at && *p;) {
        size_t n = strcspn(p, "/"); /* a key, read in place; empty ones skipped */
        if (n)
            at = json_object_getn(at, p, n);
        p += n + (p[n] == '/');
    }
    return at;
}

void rules_enc_stat_put(rules_enc *e, const char *cid, const char *sub, json_t *value)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", sub);
    json_t *at = rules_enc_stats(e, cid);
    char *save = NULL;
    char *key = strtok_r(buf, "/", &save);
    for (char *next = strtok_r(NULL, "/", &save); next; next = strtok_r(NULL, "/", &save)) {
        at = obj_child(at, key);
        key = next;
    }
    json_object_set_new(at, key, value);
}

/* ---- the state check ---- */

/* TB_RULE "the encounter is damaged: <what>; ..." */
static int damaged(tb_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int damaged(tb_err *err, const char *fmt, ...)
{
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return rules_enc_rule(err, "the encounter cannot go on: %s; the GM can end it (enc.end)", what);
}

static int is_opt(const json_t *o, const char *key, json_type type)
{
    const json_t *v = json_object_get(o, key);
    return !v || json_typeof(v) == type;
}

/* The type of an existing value a field declares (ranges are for the GM's writes only: the
 * rules may take a value past them). */
static int field_type_ok(const rules_enc_field *f, const json_t *v)
{
    switch (f->type) {
    case RULES_PARAM_INT:
        return json_is_integer(v);
    case RULES_PARAM_BOOL:
        return json_is_boolean(v) || json_is_integer(v);
    case RULES_PARAM_STRING:
        return json_is_string(v);
    }
    return 0;
}

/* Checks one combatant's shared shape; `stats` is where its stats live (may be NULL). */
static int check_combatant(const rules_enc *e, const char *cid, const json_t *c, tb_err *err)
{
    const char *who = json_string_value(json_object_get(c, "name"));
    if (!json_is_object(c))
        return damaged(err, "combatant %.24s is not an object", cid);
    if (!rules_enc_streq(json_string_value(json_object_get(c, "id")), cid))
        return damaged(err, "combatant %.24s does not carry its own id", cid);
    if (!who || !json_is_string(json_object_get(c, "side")) ||
        !json_is_string(json_object_get(c, "seat")) || !json_is_boolean(json_object_get(c, "npc")))
        return damaged(err, "combatant %.24s lacks its name, side, seat or npc flag", cid);
    if (!is_opt(c, "conditions", JSON_ARRAY) || !is_opt(c, "budget", JSON_OBJECT) ||
        !is_opt(c, "stats", JSON_OBJECT) ||
        !is_opt(json_object_get(e->hidden, "combatants"), cid, JSON_OBJECT))
        return damaged(err, "%.40s's conditions, budget or numbers are ill-formed", who);
    const json_t *hid = json_object_get(json_object_get(e->hidden, "combatants"), cid);
    if (!is_opt(hid, "stats", JSON_OBJECT))
        return damaged(err, "%.40s's hidden numbers are ill-formed", who);
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(c, "conditions"), i, v)
    {
        if (!json_is_string(json_object_get(v, "name")) || !is_opt(v, "turns", JSON_INTEGER) ||
            !is_opt(v, "level", JSON_INTEGER))
            return damaged(err, "%.40s's condition %zu is ill-formed", who, i + 1);
    }
    const char *k;
    json_object_foreach(json_object_get(c, "budget"), k, v)
    {
        if (!json_is_integer(v))
            return damaged(err, "%.40s's budget '%.20s' is not a number", who, k);
    }
    return TB_OK;
}

/* A field of the stats (f->path "stats/...") has its declared type in every combatant's stats,
 * the combatants taken in the order of rules_enc_cid_at (cids, n of them). */
static int check_stat_field(const rules_enc *e, const rules_enc_field *f, const char **cids,
                            size_t n, tb_err *err)
{
    for (size_t i = 0; i < n; i++) {
        const char *cid = cids[i];
        const json_t *c = rules_enc_combatant(e, cid);
        const json_t *stats = json_object_get(
            rules_enc_is_npc(e, cid) ? json_object_get(json_object_get(e->hidden, "combatants"), cid)
                                     : c,
            "stats");
        const json_t *v = stat_peek(stats, f->path + 6);
        if (v && !field_type_ok(f, v))
            return damaged(err, "%.40s's %s is not %s", rules_enc_name(e, cid), f->label,
                           f->type == RULES_PARAM_STRING ? "a text" : "a number");
    }
    return TB_OK;
}

/* Every field of table present in the state has its declared type. */
static int check_fields(const rules_enc *e, const rules_enc_field *table, tb_err *err)
{
    const char **cids = NULL; /* sorted once, at the first field of the stats */
    size_t n_cids = 0;
    int rc = TB_OK;
    for (const rules_enc_field *f = table; rc == TB_OK && f && f->path; f++) {
        if (strncmp(f->path, "stats/", 6) == 0) {
            if (!cids)
                cids = cids_sorted(e, &n_cids);
            rc = check_stat_field(e, f, cids, n_cids, err);
            continue;
        }
        /* only the fixed paths and per-combatant paths of the common shape */
        char buf[128];
        const char *seg[PATH_MAX_SEGMENTS];
        int n = path_split(f->path, buf, sizeof buf, seg); /* copies it into buf */
        int gm = n > 0 && strcmp(seg[0], "gm") == 0;
        const json_t *root = gm ? e->hidden : e->enc;
        if (n < 2 + gm)
            continue;
        if (n == 2 + gm) {
            const json_t *v = json_object_get(root, seg[1 + gm]);
            if (v && !field_type_ok(f, v))
                rc = damaged(err, "%s is ill-formed", f->label);
        } else if (n == 4 + gm && strcmp(seg[1 + gm], "combatants") == 0 &&
                   strcmp(seg[2 + gm], "*") == 0) {
            const char *cid;
            json_t *c;
            json_object_foreach(json_object_get(root, "combatants"), cid, c)
            {
                const json_t *v = json_object_get(c, seg[3 + gm]);
                if (rc == TB_OK && v && !field_type_ok(f, v))
                    rc = damaged(err, "%.40s's %s is ill-formed", rules_enc_name(e, cid),
                                 f->label);
            }
        }
    }
    free(cids);
    return rc;
}

/* Whether every integer of v (to a depth of 16) is within +-RULES_ENC_MAX_NUMBER: the rules'
 * sums and counts of such numbers cannot overflow an int. */
static int numbers_bounded(const json_t *v, int depth)
{
    if (json_is_integer(v))
        return json_integer_value(v) >= -RULES_ENC_MAX_NUMBER &&
               json_integer_value(v) <= RULES_ENC_MAX_NUMBER;
    if (depth > 16)
        return !json_is_object(v) && !json_is_array(v);
    const char *k;
    json_t *x;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, x)
        {
            if (!numbers_bounded(x, depth + 1))
                return 0;
        }
    }
    json_array_foreach(v, i, x)
    {
        if (!numbers_bounded(x, depth + 1))
            return 0;
    }
    return 1;
}

int rules_enc_check(const rules_enc *e, tb_err *err)
{
    if (!json_is_object(e->enc) || !json_is_object(e->hidden))
        return damaged(err, "its state is missing");
    const json_t *round = json_object_get(e->enc, "round");
    if (!json_is_integer(round) || json_integer_value(round) < 0 ||
        json_integer_value(round) > RULES_ENC_MAX_ROUND)
        return damaged(err, "the round is not a number from 0 to %d", RULES_ENC_MAX_ROUND);
    const json_t *order = json_object_get(e->enc, "order");
    if (!json_is_array(order))
        return damaged(err, "the order is not a list");
    const json_t *turn = json_object_get(e->enc, "turn");
    if (!json_is_integer(turn) || json_integer_value(turn) < -1 ||
        json_integer_value(turn) >= (json_int_t)json_array_size(order))
        return damaged(err, "the turn points outside the order");
    size_t i;
    json_t *v;
    json_array_foreach(order, i, v)
    {
        if (json_is_string(v))
            continue;
        if (!json_is_object(v) || !e->mod->check)
            return damaged(err, "entry %zu of the order is ill-formed", i + 1);
    }
    const json_t *all = json_object_get(e->enc, "combatants");
    if (!json_is_object(all) || !is_opt(e->hidden, "combatants", JSON_OBJECT) ||
        !is_opt(e->enc, "budget", JSON_OBJECT) || !is_opt(e->enc, "next_id", JSON_INTEGER))
        return damaged(err, "the combatants are ill-formed");
    const char *cid;
    json_object_foreach(json_object_get(e->enc, "budget"), cid, v)
    {
        if (!json_is_integer(v))
            return damaged(err, "the budget of a turn ('%.20s') is not a number", cid);
    }
    json_object_foreach((json_t *)all, cid, v)
    {
        if (check_combatant(e, cid, v, err))
            return err->code;
    }
    if (check_fields(e, rules_enc_fields_common, err) || check_fields(e, e->mod->editable, err))
        return err->code;
    if (!numbers_bounded(e->enc, 0) || !numbers_bounded(e->hidden, 0))
        return damaged(err, "it holds a number beyond %d or nested too deep", RULES_ENC_MAX_NUMBER);
    return e->mod->check ? e->mod->check(e, err) : TB_OK;
}

/* ---- conditions ---- */

static json_t *conds_of(const rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    return c ? arr_child(c, "conditions") : NULL;
}

json_t *rules_enc_cond(const rules_enc *e, const char *cid, const char *name)
{
    /* a reader: a combatant without a conditions list has none (nothing is created) */
    json_t *conds = json_object_get(rules_enc_combatant(e, cid), "conditions");
    size_t i;
    json_t *v;
    json_array_foreach(conds, i, v)
    {
        const char *n = json_string_value(json_object_get(v, "name"));
        if (n && strcmp(n, name) == 0)
            return v;
    }
    return NULL;
}

int rules_enc_cond_has(const rules_enc *e, const char *cid, const char *name)
{
    return rules_enc_cond(e, cid, name) != NULL;
}

int rules_enc_cond_remove(rules_enc *e, const char *cid, const char *name)
{
    json_t *conds = conds_of(e, cid);
    size_t i;
    json_t *v;
    json_array_foreach(conds, i, v)
    {
        const char *n = json_string_value(json_object_get(v, "name"));
        if (n && strcmp(n, name) == 0) {
            json_array_remove(conds, i);
            return 1;
        }
    }
    return 0;
}

json_t *rules_enc_cond_add(rules_enc *e, const char *cid, const char *name, int turns, int level)
{
    json_t *conds = conds_of(e, cid);
    if (!conds)
        return NULL;
    rules_enc_cond_remove(e, cid, name);
    json_t *c = json_pack("{s:s}", "name", name);
    if (turns > 0)
        json_object_set_new(c, "turns", json_integer(turns));
    if (level)
        json_object_set_new(c, "level", json_integer(level));
    json_array_append_new(conds, c);
    return c;
}

int rules_enc_cond_tick(rules_enc *e, const char *cid)
{
    json_t *conds = conds_of(e, cid);
    int expired = 0;
    for (size_t i = 0; i < json_array_size(conds);) {
        json_t *c = json_array_get(conds, i);
        json_t *turns = json_object_get(c, "turns");
        if (json_is_integer(turns)) {
            json_int_t left = json_integer_value(turns) - 1;
            if (left <= 0) {
                const char *name = json_string_value(json_object_get(c, "name"));
                /* "cond.<name>", the word a module may have for it; the name in words */
                char word[64] = "cond.", said[64];
                size_t n = 0;
                for (const char *u = name ? name : "?"; *u && n + 1 < sizeof said; u++)
                    said[n++] = *u == '_' ? ' ' : *u; /* "knocked_down" → "knocked down" */
                said[n] = '\0';
                strncat(word, name ? name : "", sizeof word - strlen(word) - 1);
                rules_log *x = rules_log_begin(e, "expire", "expire");
                rules_log_who(x, "who", cid);
                rules_log_word(x, "state", word, RULES_AUD_PUBLIC);
                rules_log_name(x, "condition", said, RULES_AUD_PUBLIC);
                rules_log_end(x);
                json_array_remove(conds, i);
                expired++;
                continue;
            }
            json_object_set_new(c, "turns", json_integer(left));
        }
        i++;
    }
    return expired;
}

int rules_enc_rule(tb_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->code = TB_RULE;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return TB_RULE;
}

void rules_enc_take_time(rules_enc *e, long seconds)
{
    if (seconds <= 0)
        return;
    e->now_s += seconds;
    e->took_s += seconds;
}
