/*
 * log.c — the encounter log (encounter.h, "The log"): an event's values, each with its audience,
 * rendered into words by one renderer from the phrasings of the module, then of its system, then
 * the common ones below, for each reader from what that reader may see.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encounter.h"

/* ---- the common phrasings: what the encounter machinery and the server's enc.* ops log ---- */

/* clang-format off */
static const rules_phrase COMMON[] = {
    /* {state}: the word "cond.<name>" of the module's or system's phrasings ("cond.daze" →
     * "dazed"); a condition without one is said by its name in words */
    {"expire", "{who} is no longer {state}"},
    {"expire", "{who} is no longer {condition}"},
    {"join", "{who} joins the encounter ({side})"},
    {"leave", "{who} leaves the encounter"},
    {"leave_for", "{who} leaves for {scene}"},
    {"start", "The GM starts an encounter: {module}"},
    {"end", "The encounter ends after {rounds} round{plural?}"},
    {"plural", "s"},
    {"adjust", "The GM adjusts {who}'s {field}"},
    {"adjust", "The GM adjusts {field}"},
    {NULL, NULL},
};
/* clang-format on */

const rules_phrase *rules_log_common(void)
{
    return COMMON;
}

/* ---- an event and its values ---- */

typedef enum lval_kind {
    LV_INT,   /* in the words and in result */
    LV_COUNT, /* in the words only */
    LV_WHO,   /* a combatant's name */
    LV_NAME,  /* a name the state holds */
    LV_WORD,  /* another phrasing */
    LV_JSON,  /* result only */
    LV_POOL,  /* dice faces, rendered by log.c: "6 5 [3 1]" */
    LV_LIST,  /* items, each rendered with a phrasing, joined by ", " */
} lval_kind;

typedef struct lval {
    const char *key; /* borrowed, static */
    lval_kind kind;
    rules_aud aud;
    int i;
    char *s;   /* owned: a name, a combatant's name, a word's or a list item's phrase key, the
                  faces of a pool */
    json_t *j; /* owned: LV_JSON, the items of LV_LIST */
} lval;

struct rules_log {
    rules_enc *e;
    const char *action, *event; /* borrowed, static */
    lval *v;
    size_t n, cap;
    json_t *dice; /* [[aud, die], ...] */
    char seat[40];
};

rules_log *rules_log_begin(rules_enc *e, const char *action, const char *event)
{
    rules_log *x = xcalloc(1, sizeof *x);
    x->e = e;
    x->action = action;
    x->event = event;
    x->dice = json_array();
    return x;
}

/* The value of key (replacing an earlier one: a later set of the same key wins). */
static lval *slot(rules_log *x, const char *key)
{
    for (size_t i = 0; i < x->n; i++)
        if (strcmp(x->v[i].key, key) == 0) {
            free(x->v[i].s);
            json_decref(x->v[i].j);
            memset(&x->v[i], 0, sizeof x->v[i]);
            x->v[i].key = key;
            return &x->v[i];
        }
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 8;
        x->v = xrealloc(x->v, x->cap * sizeof *x->v);
    }
    lval *v = &x->v[x->n++];
    memset(v, 0, sizeof *v);
    v->key = key;
    return v;
}

void rules_log_who(rules_log *x, const char *key, const char *cid)
{
    lval *v = slot(x, key);
    v->kind = LV_WHO;
    v->aud = RULES_AUD_PUBLIC;
    v->s = xstrdup(rules_enc_name(x->e, cid));
}

void rules_log_int(rules_log *x, const char *key, int i, rules_aud aud)
{
    lval *v = slot(x, key);
    v->kind = LV_INT;
    v->aud = aud;
    v->i = i;
}

void rules_log_count(rules_log *x, const char *key, int i, rules_aud aud)
{
    lval *v = slot(x, key);
    v->kind = LV_COUNT;
    v->aud = aud;
    v->i = i;
}

/* Appends the faces of the dice of p that kept is (or is not) set for, high to low. */
static void faces(const rules_pool *p, int kept, char *buf, size_t cap, size_t *len)
{
    int used[RULES_POOL_MAX] = {0};
    for (;;) {
        int best = -1;
        for (int i = 0; i < p->n && i < RULES_POOL_MAX; i++)
            if (!used[i] && !p->kept[i] == !kept && (best < 0 || p->value[i] > p->value[best]))
                best = i;
        if (best < 0)
            return;
        used[best] = 1;
        if (*len < cap)
            *len += (size_t)snprintf(buf + *len, cap - *len, "%s%d",
                                     *len && buf[*len - 1] != '[' ? " " : "", p->value[best]);
    }
}

void rules_log_pool(rules_log *x, const char *key, const rules_pool *p, rules_aud aud)
{
    char buf[4 * RULES_POOL_MAX + 8];
    size_t len = 0;
    buf[0] = '\0';
    faces(p, 1, buf, sizeof buf, &len);
    if (p->keep < p->n && len < sizeof buf) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s[", len ? " " : "");
        faces(p, 0, buf, sizeof buf, &len);
        if (len < sizeof buf)
            snprintf(buf + len, sizeof buf - len, "]");
    }
    lval *v = slot(x, key);
    v->kind = LV_POOL;
    v->aud = aud;
    v->s = xstrdup(buf);
}

void rules_log_list(rules_log *x, const char *key, const char *item_event, json_t *items,
                    rules_aud aud)
{
    lval *v = slot(x, key);
    v->kind = LV_LIST;
    v->aud = aud;
    v->s = xstrdup(item_event);
    v->j = json_is_array(items) ? items : (json_decref(items), json_array());
}

void rules_log_name(rules_log *x, const char *key, const char *s, rules_aud aud)
{
    lval *v = slot(x, key);
    v->kind = LV_NAME;
    v->aud = aud;
    v->s = xstrdup(s ? s : "?");
}

void rules_log_word(rules_log *x, const char *key, const char *event, rules_aud aud)
{
    lval *v = slot(x, key);
    v->kind = LV_WORD;
    v->aud = aud;
    v->s = xstrdup(event);
}

void rules_log_json(rules_log *x, const char *key, json_t *j, rules_aud aud)
{
    lval *v = slot(x, key);
    v->kind = LV_JSON;
    v->aud = aud;
    v->j = j ? j : json_null();
}

static void add_die(rules_log *x, rules_aud aud, json_t *die)
{
    json_array_append_new(x->dice, json_pack("[i, O]", (int)aud, die));
}

void rules_log_dice(rules_log *x, const json_t *dice, rules_aud aud)
{
    size_t i;
    json_t *d;
    json_array_foreach(dice, i, d) add_die(x, aud, d);
}

void rules_log_dice_by(rules_log *x, const json_t *dice, const char *key, rules_aud other)
{
    size_t i;
    json_t *d;
    json_array_foreach(dice, i, d)
    {
        const char *by = json_string_value(json_object_get(d, key));
        add_die(x, by && rules_enc_combatant(x->e, by) ? rules_enc_aud_of(x->e, by) : other, d);
    }
}

void rules_log_seat(rules_log *x, const char *seat)
{
    snprintf(x->seat, sizeof x->seat, "%s", seat ? seat : "");
}

void rules_log_drop(rules_log *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < x->n; i++) {
        free(x->v[i].s);
        json_decref(x->v[i].j);
    }
    free(x->v);
    json_decref(x->dice);
    free(x);
}

/* ---- rendering ---- */

/* Who reads a rendering: everyone, the entry's seat (and what is public), the GM (everything). */
typedef enum reader { READ_PUBLIC, READ_SEAT, READ_GM } reader;

/* A value for the entry's seat is the GM's when the entry names no player's seat. */
static rules_aud aud_of(const rules_log *x, rules_aud aud)
{
    if (aud == RULES_AUD_SEAT && (!x->seat[0] || strcmp(x->seat, "gm") == 0))
        return RULES_AUD_GM;
    return aud;
}

static int sees(const rules_log *x, reader r, rules_aud aud)
{
    switch (aud_of(x, aud)) {
    case RULES_AUD_PUBLIC:
        return 1;
    case RULES_AUD_SEAT:
        return r != READ_PUBLIC;
    default:
        return r == READ_GM;
    }
}

static const lval *value(const rules_log *x, const char *key, size_t len)
{
    for (size_t i = 0; i < x->n; i++)
        if (strlen(x->v[i].key) == len && strncmp(x->v[i].key, key, len) == 0)
            return &x->v[i];
    return NULL;
}

#define TEXT_MAX 512

typedef struct out {
    char buf[TEXT_MAX];
    size_t len;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len + n >= sizeof o->buf)
        n = sizeof o->buf - 1 - o->len;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static int render_event(const rules_log *x, reader r, const char *event, out *o, int depth);
static int render_list(const rules_log *x, reader r, const lval *v, out *o, int depth);

/* Renders one template for reader r into o; 0 when a required value is absent or hidden from r. */
static int render_template(const rules_log *x, reader r, const char *t, out *o, int depth)
{
    size_t start = o->len;
    for (const char *p = t; *p;) {
        const char *open = strchr(p, '{');
        const char *close = open ? strchr(open, '}') : NULL;
        if (!open || !close) {
            put(o, p, strlen(p));
            break;
        }
        put(o, p, (size_t)(open - p));
        p = close + 1;
        size_t klen = (size_t)(close - open - 1);
        int optional = klen > 0 && open[klen] == '?';
        if (optional)
            klen--;
        int sign = klen > 0 && open[klen] == '+'; /* {key+}: an int with its sign, "+3" */
        if (sign)
            klen--;
        const lval *v = value(x, open + 1, klen);
        int ok = v && sees(x, r, v->aud);
        if (ok) {
            char num[16];
            switch (v->kind) {
            case LV_INT:
            case LV_COUNT:
                snprintf(num, sizeof num, sign ? "%+d" : "%d", v->i);
                put(o, num, strlen(num));
                break;
            case LV_WHO:
            case LV_NAME:
            case LV_POOL:
                put(o, v->s, strlen(v->s));
                break;
            case LV_LIST:
                ok = depth < 4 && render_list(x, r, v, o, depth + 1);
                break;
            case LV_WORD:
                ok = depth < 4 && render_event(x, r, v->s, o, depth + 1) == 1;
                break;
            case LV_JSON: /* never in the words */
                ok = 0;
                break;
            }
        }
        if (!ok && !optional) {
            o->len = start;
            o->buf[start] = '\0';
            return 0;
        }
    }
    return 1;
}

/*
 * Renders event for reader r from the first of its phrasings (the module's, the system's, the
 * common ones) whose required values r may all see. 1 when one rendered, 0 when the event has
 * phrasings but none renders for r, -1 when it has none at all (a programming error).
 */
static int render_event(const rules_log *x, reader r, const char *event, out *o, int depth)
{
    const rules_system *sys = rules_system_find(x->e->mod->system);
    const rules_phrase *tables[] = {x->e->mod->phrases, sys ? sys->phrases : NULL, COMMON};
    int found = 0;
    for (int t = 0; t < 3; t++)
        for (const rules_phrase *p = tables[t]; p && p->event; p++) {
            if (strcmp(p->event, event) != 0)
                continue;
            found = 1;
            if (render_template(x, r, p->text, o, depth))
                return 1;
        }
    return found ? 0 : -1;
}

/* Renders the items of list v, each with the phrasing v->s reading its {keys} from the item (an
 * int in decimal, a string as it is; every value the list's audience), joined by ", ". */
static int render_list(const rules_log *x, reader r, const lval *v, out *o, int depth)
{
    size_t i;
    json_t *item;
    json_array_foreach(v->j, i, item)
    {
        rules_log *one = rules_log_begin(x->e, x->action, v->s);
        const char *k;
        json_t *iv;
        json_object_foreach(item, k, iv)
        {
            if (json_is_integer(iv))
                rules_log_count(one, k, (int)json_integer_value(iv), v->aud);
            else if (json_is_string(iv))
                rules_log_name(one, k, json_string_value(iv), v->aud);
        }
        snprintf(one->seat, sizeof one->seat, "%s", x->seat);
        if (i)
            put(o, ", ", 2);
        int ok = render_event(one, r, v->s, o, depth) == 1;
        rules_log_drop(one);
        if (!ok)
            return 0;
    }
    return 1;
}

/* The entry as reader r reads it, or NULL when nothing renders for r: {kind, module, round,
 * actor?, action, event, ref, text, cite?, dice?, result?}. */
static json_t *entry_for(const rules_log *x, reader r, int ref)
{
    out o = {.len = 0};
    o.buf[0] = '\0';
    if (render_event(x, r, x->event, &o, 0) != 1)
        return NULL;
    if (o.buf[0] >= 'a' && o.buf[0] <= 'z')
        o.buf[0] = (char)(o.buf[0] - 'a' + 'A');
    char cite[128];
    tb_cite_strip(o.buf, cite, sizeof cite);
    json_t *entry = json_pack("{s:s, s:s, s:i, s:s, s:s, s:i, s:s}", "kind", "enc", "module",
                              x->e->mod->id, "round", rules_enc_round(x->e), "action", x->action,
                              "event", x->event, "ref", ref, "text", o.buf);
    if (cite[0])
        json_object_set_new(entry, "cite", json_string(cite));
    if (x->e->actor)
        json_object_set_new(entry, "actor", json_string(x->e->actor));
    json_t *dice = json_array(), *result = json_object();
    size_t i;
    json_t *d;
    json_array_foreach(x->dice, i, d)
    {
        if (sees(x, r, (rules_aud)json_integer_value(json_array_get(d, 0))))
            json_array_append_new(dice, json_deep_copy(json_array_get(d, 1)));
    }
    for (i = 0; i < x->n; i++) {
        const lval *v = &x->v[i];
        if (!sees(x, r, v->aud))
            continue;
        if (v->kind == LV_INT)
            json_object_set_new(result, v->key, json_integer(v->i));
        else if (v->kind == LV_JSON)
            json_object_set_new(result, v->key, json_deep_copy(v->j));
    }
    if (json_array_size(dice))
        json_object_set_new(entry, "dice", dice);
    else
        json_decref(dice);
    if (json_object_size(result))
        json_object_set_new(entry, "result", result);
    else
        json_decref(result);
    return entry;
}

/* Whether some value or die of x is for audience aud. */
static int holds(const rules_log *x, rules_aud aud)
{
    for (size_t i = 0; i < x->n; i++)
        if (aud_of(x, x->v[i].aud) == aud)
            return 1;
    size_t i;
    json_t *d;
    json_array_foreach(x->dice, i, d)
    {
        if (aud_of(x, (rules_aud)json_integer_value(json_array_get(d, 0))) == aud)
            return 1;
    }
    return 0;
}

/* An event no phrasing renders even with every value: a programming error. The table reads
 * something harmless (who did what, in the action's own label) and the entry says which event
 * lacked words (`unphrased`): the Check fixture and the fuzzer fail on it. */
static json_t *unphrased(const rules_log *x, int ref)
{
    const rules_enc_action *a = rules_module_action(x->e->mod, x->action);
    const char *label = a && a->label ? a->label : x->action;
    char text[160];
    if (x->e->actor)
        snprintf(text, sizeof text, "%s: %s", rules_enc_name(x->e, x->e->actor), label);
    else
        snprintf(text, sizeof text, "%s", label);
    return json_pack("{s:s, s:s, s:i, s:s, s:s, s:i, s:s, s:s}", "kind", "enc", "module",
                     x->e->mod->id, "round", rules_enc_round(x->e), "action", x->action, "event",
                     x->event, "ref", ref, "text", text, "unphrased", x->event);
}

json_t *rules_log_end(rules_log *x)
{
    rules_enc *e = x->e;
    int ref = e->log_refs++;
    json_t *pub = entry_for(x, READ_PUBLIC, ref);
    json_t *gm = holds(x, RULES_AUD_GM) ? entry_for(x, READ_GM, ref) : NULL;
    json_t *seat = holds(x, RULES_AUD_SEAT) ? entry_for(x, READ_SEAT, ref) : NULL;
    if (!pub && !gm && !seat)
        pub = unphrased(x, ref);
    if (pub)
        json_array_append_new(e->log, pub);
    if (gm)
        json_array_append_new(e->gm_log, gm);
    if (seat) {
        json_object_set_new(seat, "for", json_string(x->seat));
        if (e->seat_log)
            json_array_append_new(e->seat_log, seat);
        else
            json_decref(seat);
    }
    rules_log_drop(x);
    return pub;
}

rules_aud rules_enc_aud_of(const rules_enc *e, const char *cid)
{
    return rules_enc_is_npc(e, cid) ? RULES_AUD_GM : RULES_AUD_PUBLIC;
}
