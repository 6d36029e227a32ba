/*
 * visibility.c — what a viewer may see of a campaign state and of a patch, decided by path alone
 * (DESIGN.md "State and visibility"), so any stored patch can be filtered for any viewer later.
 *
 * Hidden areas sit at depth 1 ("/gm") and 2 ("/private/<other seat>"). So a path is either
 * visible (nothing hidden at or under it), hidden (at or under a hidden area), or one of the two
 * ancestors of hidden areas: "" and "/private".
 */
#include "protocol.h"

#include <string.h>

typedef enum area {
    AREA_VISIBLE,
    AREA_HIDDEN,
    AREA_ROOT,      /* "": holds /gm and /private */
    AREA_PRIVATE,   /* "/private": holds every seat's private area */
    AREA_MALFORMED, /* not a JSON pointer */
} area;

/* The first two tokens of a JSON pointer, read in place (issue 26: every op of every event is
 * classified, and proto_pointer_parse allocates each token): n is the number of tokens, tok[i]
 * (len[i] bytes, not NUL-terminated) the first two. A path with a '~' escape is parsed whole
 * (parsed holds the tokens then); head_free releases it. */
typedef struct path_head {
    size_t n;
    const char *tok[2];
    size_t len[2];
    proto_pointer parsed;
} path_head;

/* 0, or -1 when path is not a JSON pointer (proto_pointer_parse's rules). */
static int head_of(const char *path, path_head *h)
{
    h->n = 0;
    h->parsed.n = 0;
    h->parsed.tokens = NULL;
    if (!path)
        return -1;
    if (strchr(path, '~')) {
        if (proto_pointer_parse(path, &h->parsed, NULL))
            return -1;
        h->n = h->parsed.n;
        for (size_t i = 0; i < 2 && i < h->n; i++) {
            h->tok[i] = h->parsed.tokens[i];
            h->len[i] = strlen(h->tok[i]);
        }
        return 0;
    }
    if (path[0] == '\0')
        return 0;
    if (path[0] != '/')
        return -1;
    for (const char *c = path; *c; c++) {
        if (*c != '/')
            continue;
        if (h->n < 2)
            h->tok[h->n] = c + 1;
        if (h->n > 0 && h->n <= 2)
            h->len[h->n - 1] = (size_t)(c - h->tok[h->n - 1]);
        h->n++;
    }
    if (h->n <= 2)
        h->len[h->n - 1] = strlen(h->tok[h->n - 1]);
    return 0;
}

static void head_free(path_head *h)
{
    proto_pointer_free(&h->parsed);
}

/* Whether token i of h is the NUL-terminated s. */
static int head_is(const path_head *h, size_t i, const char *s)
{
    return h->n > i && strncmp(h->tok[i], s, h->len[i]) == 0 && s[h->len[i]] == '\0';
}

/* Where `path` lies for viewer v. */
static area classify(const char *path, const proto_viewer *v)
{
    if (v->is_gm)
        return AREA_VISIBLE;
    path_head h;
    if (head_of(path, &h))
        return AREA_MALFORMED;
    area a = AREA_VISIBLE;
    if (h.n == 0)
        a = AREA_ROOT;
    else if (head_is(&h, 0, "gm"))
        a = AREA_HIDDEN;
    else if (head_is(&h, 0, "private") && h.n == 1)
        a = AREA_PRIVATE;
    else if (head_is(&h, 0, "private"))
        a = v->seat && head_is(&h, 1, v->seat) ? AREA_VISIBLE : AREA_HIDDEN;
    head_free(&h);
    return a;
}

int proto_path_visible(const char *path, const proto_viewer *v)
{
    return v && classify(path, v) == AREA_VISIBLE;
}

/* The value of "private" as a non-GM viewer may see it; new reference. */
static json_t *filter_private(const json_t *priv, const proto_viewer *v)
{
    json_t *out = json_object();
    if (!json_is_object(priv))
        return out; /* nothing under /private is everyone's, whatever its type */
    json_t *own = v->seat ? json_object_get(priv, v->seat) : NULL;
    if (own)
        json_object_set(out, v->seat, own);
    return out;
}

json_t *proto_filter_state(const json_t *state, const proto_viewer *v)
{
    if (!state)
        return NULL;
    if (!json_is_object(state))
        return json_deep_copy(state);
    if (v->is_gm)
        return json_copy((json_t *)state);
    json_t *out = json_object();
    /* jansson's iterators want a non-const object; they only read it. */
    for (void *it = json_object_iter((json_t *)state); it;
         it = json_object_iter_next((json_t *)state, it)) {
        const char *key = json_object_iter_key(it);
        json_t *value = json_object_iter_value(it);
        if (strcmp(key, "gm") == 0)
            continue;
        if (strcmp(key, "private") == 0)
            json_object_set_new(out, key, filter_private(value, v));
        else
            json_object_set(out, key, value);
    }
    return out;
}

/* A copy of op with "value" replaced by `value` (stolen). */
static json_t *with_value(const json_t *op, json_t *value)
{
    json_t *copy = json_copy((json_t *)op);
    json_object_set_new(copy, "value", value);
    return copy;
}

/*
 * The op a non-GM viewer gets for `op`: 0 with *out a new reference, or NULL when the op is
 * dropped; -1 when it cannot be filtered (see proto_filter_patch).
 */
static int filter_op(const json_t *op, const proto_viewer *v, json_t **out)
{
    *out = NULL;
    const char *name = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    if (!name || !path)
        return -1;
    area to = classify(path, v);
    if (to == AREA_MALFORMED)
        return -1;

    if (strcmp(name, "add") == 0 || strcmp(name, "replace") == 0) {
        const json_t *value = json_object_get(op, "value");
        if (!value)
            return -1;
        if (to == AREA_VISIBLE)
            *out = json_incref((json_t *)op);
        else if (to == AREA_ROOT)
            *out = with_value(op, proto_filter_state(value, v));
        else if (to == AREA_PRIVATE)
            *out = with_value(op, filter_private(value, v));
        return 0;
    }
    if (strcmp(name, "remove") == 0) {
        if (to != AREA_HIDDEN)
            *out = json_incref((json_t *)op);
        return 0;
    }
    if (strcmp(name, "test") == 0) {
        if (to == AREA_VISIBLE)
            *out = json_incref((json_t *)op);
        return 0;
    }
    int is_move = strcmp(name, "move") == 0;
    if (!is_move && strcmp(name, "copy") != 0)
        return -1;
    const char *from_s = json_string_value(json_object_get(op, "from"));
    area from = from_s ? classify(from_s, v) : AREA_MALFORMED;
    if (from == AREA_MALFORMED)
        return -1;
    if (from == AREA_VISIBLE && to == AREA_VISIBLE) {
        *out = json_incref((json_t *)op);
        return 0;
    }
    if (to == AREA_HIDDEN) {
        /* The value goes where the viewer cannot follow: a move takes it away, a copy is unseen. */
        if (is_move && from != AREA_HIDDEN) {
            *out = json_object();
            json_object_set_new(*out, "op", json_string("remove"));
            json_object_set_new(*out, "path", json_string(from_s));
        }
        return 0;
    }
    return -1; /* a hidden value would appear at a path the viewer sees */
}

json_t *proto_filter_patch(const json_t *ops, const proto_viewer *v)
{
    if (!json_is_array(ops))
        return NULL;
    if (v->is_gm)
        return json_deep_copy(ops);
    json_t *out = json_array();
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        json_t *kept;
        if (!json_is_object(op) || filter_op(op, v, &kept)) {
            json_decref(out);
            return NULL;
        }
        if (kept)
            json_array_append_new(out, kept);
    }
    return out;
}

/* Which players' views an op's path (or "from") singles out: 0 none, 1 the seat named by token
 * 1 of *h, 2 every player's (the root or /private); -1 when it is not a JSON pointer. */
static int audience_of(const char *path, path_head *h)
{
    if (head_of(path, h))
        return -1;
    if (h->n == 0 || (h->n == 1 && head_is(h, 0, "private")))
        return 2;
    if (head_is(h, 0, "private"))
        return 1;
    return 0;
}

int proto_patch_audiences(const json_t *ops, json_t **everyone, json_t **touched)
{
    *everyone = *touched = NULL;
    if (!json_is_array(ops))
        return -1;
    json_t *seats = NULL; /* made at the first seat: most events touch no private area */
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        const char *paths[2] = {json_string_value(json_object_get(op, "path")),
                                json_string_value(json_object_get(op, "from"))};
        for (int k = 0; k < 2; k++) {
            if (!paths[k])
                continue;
            path_head h;
            int a = audience_of(paths[k], &h);
            if (a == 1 && !seats)
                seats = json_object();
            if (a == 1)
                json_object_setn_new(seats, h.tok[1], h.len[1], json_true());
            head_free(&h);
            if (a == 2 || a < 0) {
                json_decref(seats);
                return a == 2 ? 1 : -1;
            }
        }
    }
    proto_viewer nobody = {.seat = NULL, .is_gm = 0};
    *everyone = proto_filter_patch(ops, &nobody);
    if (!*everyone) {
        json_decref(seats);
        return -1;
    }
    *touched = seats;
    return 0;
}
