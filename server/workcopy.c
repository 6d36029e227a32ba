/*
 * workcopy.c — copy-on-write working states (see workcopy.h for the design and why).
 */
#include "workcopy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

/* A new container holding v's own members (a shallow copy, new reference): what json_copy gives,
 * but an array's members are taken at once (json_array_extend: one allocation and a memcpy of the
 * table) rather than appended one by one, which costs several times as much for the 200 entries of
 * a log (issue 26). */
static json_t *workcopy__shallow(json_t *v)
{
    if (!json_is_array(v))
        return json_copy(v);
    json_t *out = json_array();
    if (json_array_extend(out, v)) {
        fprintf(stderr, "tabled: out of memory copying an array\n");
        abort();
    }
    return out;
}

/* A copy of every object and array of v, sharing its scalars (new reference). Scalars are never
 * changed in place here (handlers replace them: json_object_set_new), so sharing them is safe and
 * saves most of a deep copy's allocations. */
static json_t *workcopy__containers(json_t *v);

json_t *workcopy_containers(const json_t *v)
{
    return workcopy__containers((json_t *)v);
}

static json_t *workcopy__containers(json_t *v)
{
    if (json_is_object(v)) {
        json_t *out = json_object();
        const char *k;
        json_t *child;
        /* the keys come from an object: valid UTF-8 already (no check per key) */
        json_object_foreach(v, k, child)
            json_object_set_new_nocheck(out, k, workcopy__containers(child));
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

/* The committed state the working copy was made from (a reference of ours), for workcopy_own_path:
 * a container of the working copy is still shared when it is the base's own at the same path. */
static _Thread_local json_t *workcopy__base;

void workcopy_settle(void)
{
    json_decref(workcopy__base);
    workcopy__base = NULL;
}

const json_t *workcopy_base(void)
{
    return workcopy__base;
}

json_t *workcopy_own_path(json_t *work, const char *const *keys)
{
    json_t *wnode = work;
    const json_t *bnode = workcopy__base;
    for (const char *const *k = keys; *k; k++) {
        if (!json_is_object(wnode))
            return NULL;
        json_t *wchild = json_object_get(wnode, *k);
        const json_t *bchild = json_is_object(bnode) ? json_object_get(bnode, *k) : NULL;
        if (!wchild)
            return NULL;
        if (wchild == bchild && (json_is_object(wchild) || json_is_array(wchild))) {
            /* still the committed state's: a new container of its members, in its place */
            json_t *copy = workcopy__shallow(wchild);
            json_object_set_new_nocheck(wnode, *k, copy); /* a key it has */
            wchild = copy;
        }
        wnode = wchild;
        bnode = bchild;
    }
    return wnode;
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
            if (last && (w->shallow == OP_WRITE_COMBATANTS || w->shallow == OP_WRITE_LOG)) {
                break; /* copied when first written: workcopy_own_path */
            } else if (last && !w->shallow) {
                copy = workcopy__containers(wchild);
            } else {
                copy = workcopy__shallow(wchild); /* a new container of shared children */
            }
            json_object_set_new_nocheck(wnode, p.tokens[i], copy); /* a key it has */
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
    json_decref(workcopy__base); /* the last handler's, if nobody settled after it */
    workcopy__base = NULL;
    if (!writes || !json_is_object(base))
        return json_deep_copy(base);
    workcopy__base = json_incref((json_t *)base);
    json_t *work = json_copy((json_t *)base);
    for (const op_write *w = writes; w->path; w++)
        workcopy__path(work, base, w);
    return work;
}

/* splitmix64's finalizer: spreads the bits of x over the whole word. */
static uint64_t workcopy__mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* FNV-1a over n bytes, mixed. */
static uint64_t workcopy__bytes(const char *s, size_t n, uint64_t type)
{
    uint64_t h = 0xcbf29ce484222325ull ^ type;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return workcopy__mix(h);
}

/* Rotates a member's hash so that {a: b} and {b: a}-like swaps of key and value differ. */
static uint64_t workcopy__fingerprint_rot(uint64_t h)
{
    return h << 17 | h >> 47;
}

uint64_t workcopy_fingerprint(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        /* a sum over the members: the same whatever their order */
        uint64_t h = 0x6f626a;
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m) h += workcopy__mix(
            workcopy__bytes(k, strlen(k), 1) ^ workcopy__fingerprint_rot(workcopy_fingerprint(m)));
        return workcopy__mix(h ^ json_object_size(v));
    }
    case JSON_ARRAY: {
        uint64_t h = 0x617272;
        for (size_t i = 0; i < json_array_size(v); i++)
            h = workcopy__mix(h * 31 + workcopy_fingerprint(json_array_get(v, i)));
        return h;
    }
    case JSON_STRING:
        return workcopy__bytes(json_string_value(v), json_string_length(v), 2);
    case JSON_INTEGER:
        return workcopy__mix((uint64_t)json_integer_value(v) ^ 0x696e74);
    case JSON_REAL: {
        double d = json_real_value(v);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return workcopy__mix(bits ^ 0x7265616c);
    }
    case JSON_TRUE:
        return 0x7472756575ull;
    case JSON_FALSE:
        return 0x66616c7365ull;
    default:
        return 0x6e756c6cull;
    }
}

int workcopy_check(const json_t *state, uint64_t before)
{
    return workcopy_fingerprint(state) == before ? 0 : -1;
}
