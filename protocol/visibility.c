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

/* Where `path` lies for viewer v. */
static area classify(const char *path, const proto_viewer *v)
{
    if (v->is_gm)
        return AREA_VISIBLE;
    proto_pointer p;
    if (proto_pointer_parse(path, &p, NULL))
        return AREA_MALFORMED;
    area a = AREA_VISIBLE;
    if (p.n == 0)
        a = AREA_ROOT;
    else if (strcmp(p.tokens[0], "gm") == 0)
        a = AREA_HIDDEN;
    else if (strcmp(p.tokens[0], "private") == 0 && p.n == 1)
        a = AREA_PRIVATE;
    else if (strcmp(p.tokens[0], "private") == 0)
        a = v->seat && strcmp(p.tokens[1], v->seat) == 0 ? AREA_VISIBLE : AREA_HIDDEN;
    proto_pointer_free(&p);
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

/* Which players' views an op's path (or "from") singles out: 0 none, 1 the seat named in *seat
 * (a borrowed token of p, valid until it is freed), 2 every player's (the root or /private). */
static int audience_of(const char *path, proto_pointer *p, const char **seat)
{
    if (proto_pointer_parse(path, p, NULL))
        return -1;
    if (p->n == 0 || (p->n == 1 && strcmp(p->tokens[0], "private") == 0))
        return 2;
    if (strcmp(p->tokens[0], "private") == 0) {
        *seat = p->tokens[1];
        return 1;
    }
    return 0;
}

int proto_patch_audiences(const json_t *ops, json_t **everyone, json_t **touched)
{
    *everyone = *touched = NULL;
    if (!json_is_array(ops))
        return -1;
    json_t *seats = json_object();
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        const char *paths[2] = {json_string_value(json_object_get(op, "path")),
                                json_string_value(json_object_get(op, "from"))};
        for (int k = 0; k < 2; k++) {
            if (!paths[k])
                continue;
            proto_pointer p;
            const char *seat = NULL;
            int a = audience_of(paths[k], &p, &seat);
            if (a == 1)
                json_object_set_new(seats, seat, json_true());
            proto_pointer_free(&p);
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
