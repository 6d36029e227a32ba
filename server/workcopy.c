/*
 * workcopy.c — copy-on-write working states (see workcopy.h for the design and why).
 */
#include "workcopy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

/* A copy of every object and array of v, sharing its scalars (new reference). Scalars are never
 * changed in place here (handlers replace them: json_object_set_new), so sharing them is safe and
 * saves most of a deep copy's allocations. */
static json_t *workcopy__containers(json_t *v)
{
    if (json_is_object(v)) {
        json_t *out = json_object();
        const char *k;
        json_t *child;
        json_object_foreach(v, k, child) json_object_set_new(out, k, workcopy__containers(child));
        return out;
    }
    if (json_is_array(v)) {
        json_t *out = json_array();
        size_t i;
        json_t *child;
        json_array_foreach(v, i, child) json_array_append_new(out, workcopy__containers(child));
        return out;
    }
    return json_incref(v);
}

/* Makes the declared subtree w private in work, copying the containers on the way that are still
 * the base's own. Declared paths are never prefixes of one another (ops.h), so a container that is
 * no longer pointer-equal to the base's was copied on the way to another path and is ours. */
static void workcopy__path(json_t *work, const json_t *base, const op_write *w)
{
    proto_pointer p;
    if (proto_pointer_parse(w->path, &p, NULL) || p.n == 0) {
        fprintf(stderr, "tabled: bad declared write path '%s'\n", w->path);
        abort();
    }
    json_t *wnode = work;
    const json_t *bnode = base;
    for (size_t i = 0; i < p.n; i++) {
        json_t *wchild = json_object_get(wnode, p.tokens[i]);
        if (!wchild)
            break; /* the handler creates it in wnode, which is private */
        const json_t *bchild = json_is_object(bnode) ? json_object_get(bnode, p.tokens[i]) : NULL;
        int last = i + 1 == p.n;
        if (wchild == bchild) {
            json_t *copy;
            if (last && !w->append_only)
                copy = workcopy__containers(wchild);
            else
                copy = json_copy(wchild); /* shallow: a new container of shared children */
            json_object_set_new(wnode, p.tokens[i], copy);
            wchild = copy;
        }
        if (!last && !json_is_object(wchild))
            break; /* runs through a scalar or an array: replacing it needs only wnode */
        wnode = wchild;
        bnode = bchild;
    }
    proto_pointer_free(&p);
}

json_t *workcopy_make(const json_t *base, const op_write *writes)
{
    if (!writes || !json_is_object(base))
        return json_deep_copy(base);
    json_t *work = json_copy((json_t *)base);
    for (const op_write *w = writes; w->path; w++)
        workcopy__path(work, base, w);
    return work;
}

char *workcopy_fingerprint(const json_t *state)
{
    char *s = json_dumps(state, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    if (!s) {
        fprintf(stderr, "tabled: cannot serialize a state\n");
        abort();
    }
    return s;
}

int workcopy_check(const json_t *state, const char *before)
{
    char *now = workcopy_fingerprint(state);
    int same = strcmp(now, before) == 0;
    free(now);
    return same ? 0 : -1;
}
