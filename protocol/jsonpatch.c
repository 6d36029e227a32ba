/*
 * jsonpatch.c — JSON Pointer (RFC 6901) and JSON Patch (RFC 6902): the canonical diff the engine
 * stores with every event, and the atomic apply used on replay (and by tests).
 */
#include "protocol.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest path quoted in an error message, in bytes. */
#define PATH_QUOTE_MAX 60

/* --- JSON Pointer ----------------------------------------------------------------------------- */

int proto_pointer_parse(const char *path, proto_pointer *out, tb_err *err)
{
    out->n = 0;
    out->tokens = NULL;
    if (!path)
        return tb_fail(err, TB_BAD_REQUEST, "missing JSON pointer");
    if (path[0] == '\0')
        return 0;
    if (path[0] != '/')
        return tb_fail(err, TB_BAD_REQUEST, "JSON pointer must be empty or start with '/'");

    size_t count = 0;
    for (const char *c = path; *c; c++) {
        if (*c == '/')
            count++;
        else if (*c == '~' && c[1] != '0' && c[1] != '1')
            return tb_fail(err, TB_BAD_REQUEST, "JSON pointer has '~' not followed by 0 or 1");
    }

    out->tokens = xcalloc(count, sizeof *out->tokens);
    const char *start = path + 1;
    for (size_t i = 0; i < count; i++) {
        const char *end = strchr(start, '/');
        size_t len = end ? (size_t)(end - start) : strlen(start);
        char *tok = xmalloc(len + 1);
        size_t k = 0;
        for (size_t j = 0; j < len; j++) {
            if (start[j] == '~') {
                tok[k++] = start[j + 1] == '0' ? '~' : '/';
                j++;
            } else {
                tok[k++] = start[j];
            }
        }
        tok[k] = '\0';
        out->tokens[i] = tok;
        out->n = i + 1;
        start = end ? end + 1 : start + len;
    }
    return 0;
}

void proto_pointer_free(proto_pointer *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->tokens[i]);
    free(p->tokens);
    p->tokens = NULL;
    p->n = 0;
}

int proto_pointer_index(const char *token, size_t *index)
{
    if (!token[0] || (token[0] == '0' && token[1]))
        return -1;
    size_t v = 0;
    for (const char *c = token; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        size_t d = (size_t)(*c - '0');
        if (v > (SIZE_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *index = v;
    return 0;
}

/* The child of `parent` named by one reference token, or NULL. Borrowed. */
static json_t *child(const json_t *parent, const char *token)
{
    if (json_is_object(parent))
        return json_object_get(parent, token);
    if (json_is_array(parent)) {
        size_t i;
        if (proto_pointer_index(token, &i) == 0 && i < json_array_size(parent))
            return json_array_get(parent, i);
    }
    return NULL;
}

/* The value named by the first `depth` tokens of p, or NULL. Borrowed. */
static json_t *resolve(const json_t *doc, const proto_pointer *p, size_t depth)
{
    /* jansson's getters take const and return non-const; so do we (borrowed references). */
    json_t *cur = (json_t *)doc;
    for (size_t i = 0; i < depth && cur; i++)
        cur = child(cur, p->tokens[i]);
    return cur;
}

json_t *proto_pointer_get(const json_t *doc, const char *path)
{
    proto_pointer p;
    if (!doc || proto_pointer_parse(path, &p, NULL))
        return NULL;
    json_t *v = resolve(doc, &p, p.n);
    proto_pointer_free(&p);
    return v;
}

/* --- diff ------------------------------------------------------------------------------------- */

/* A growable JSON pointer under construction; push returns the length to pop back to. */
typedef struct pathbuf {
    char *s;
    size_t len;
    size_t cap;
} pathbuf;

static void pb_reserve(pathbuf *pb, size_t extra)
{
    if (pb->len + extra + 1 > pb->cap) {
        size_t cap = pb->cap ? pb->cap : 64;
        while (pb->len + extra + 1 > cap)
            cap *= 2;
        pb->s = xrealloc(pb->s, cap);
        pb->cap = cap;
    }
}

static size_t pb_push_key(pathbuf *pb, const char *key)
{
    size_t old = pb->len;
    pb_reserve(pb, 1 + 2 * strlen(key));
    pb->s[pb->len++] = '/';
    for (const char *c = key; *c; c++) {
        if (*c == '~') {
            pb->s[pb->len++] = '~';
            pb->s[pb->len++] = '0';
        } else if (*c == '/') {
            pb->s[pb->len++] = '~';
            pb->s[pb->len++] = '1';
        } else {
            pb->s[pb->len++] = *c;
        }
    }
    pb->s[pb->len] = '\0';
    return old;
}

static size_t pb_push_index(pathbuf *pb, size_t i)
{
    char num[24];
    size_t n = sizeof num;
    num[--n] = '\0';
    do {
        num[--n] = (char)('0' + i % 10);
        i /= 10;
    } while (i);
    return pb_push_key(pb, num + n);
}

static void pb_pop(pathbuf *pb, size_t len)
{
    pb->len = len;
    pb->s[len] = '\0';
}

/* The ops being built, whether their values are deep copies or the new document's own, and the
 * three op names, made once per diff and shared by its ops (strings are never changed in place). */
typedef struct diffout {
    json_t *ops;
    int share;
    json_t *name[3]; /* OP_ADD, OP_REMOVE, OP_REPLACE: made when first used */
} diffout;

enum { OP_ADD, OP_REMOVE, OP_REPLACE };

/* Appends {"op","path"[,"value": value, shared or a deep copy]} to the ops. */
static void emit(diffout *out, int op, const pathbuf *pb, const json_t *value)
{
    static const char *const NAMES[3] = {"add", "remove", "replace"};
    if (!out->name[op])
        out->name[op] = json_string(NAMES[op]);
    json_t *o = json_object();
    json_object_set_nocheck(o, "op", out->name[op]);
    /* a pointer made of keys jansson holds as valid UTF-8 and of indexes: not checked again */
    json_object_set_new_nocheck(o, "path", json_stringn_nocheck(pb->s, pb->len));
    if (value)
        json_object_set_new_nocheck(
            o, "value", out->share ? json_incref((json_t *)value) : json_deep_copy(value));
    json_array_append_new(out->ops, o);
}

static int cmp_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of obj in strcmp order; an xmalloc'd array of borrowed strings. */
static const char **sorted_keys(const json_t *obj, size_t *n)
{
    size_t count = json_object_size(obj), i = 0;
    const char **keys = xcalloc(count, sizeof *keys);
    /* jansson's iterators want a non-const object; they only read it. */
    for (void *it = json_object_iter((json_t *)obj); it;
         it = json_object_iter_next((json_t *)obj, it))
        keys[i++] = json_object_iter_key(it);
    qsort(keys, i, sizeof *keys, cmp_keys);
    *n = i;
    return keys;
}

static void diff_value(const json_t *a, const json_t *b, pathbuf *pb, diffout *ops);

/* A member that differs between two objects walked in step: its key and both values (va NULL:
 * a key b added), kept from the walk so that no lookup by key is needed after it. */
typedef struct keyed {
    const char *k;
    const json_t *va, *vb;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    return strcmp(((const keyed *)a)->k, ((const keyed *)b)->k);
}

/* A list of members that starts in a caller's array of 8 and moves to the heap when it grows. */
typedef struct keylist {
    keyed local[8], *k;
    size_t n, cap;
} keylist;

static void keylist_push(keylist *l, const char *key, const json_t *va, const json_t *vb)
{
    if (l->n == l->cap) {
        l->cap *= 2;
        keyed *grown = xmalloc(l->cap * sizeof *grown);
        memcpy(grown, l->k, l->n * sizeof *grown);
        if (l->k != l->local)
            free(l->k);
        l->k = grown;
    }
    l->k[l->n++] = (keyed){key, va, vb};
}

/* Two objects with the same keys in the same order (a copy and its original: copy-on-write keeps
 * the order), b perhaps with new keys after them (an object that grew: /seats on a join), are
 * walked in step: only the members that differ and the new ones are visited, in strcmp order, and
 * no sort of every key is needed. Returns 0 when the keys do not pair up (nothing emitted). */
static int diff_object_in_step(const json_t *a, const json_t *b, pathbuf *pb, diffout *ops)
{
    keylist l;
    l.k = l.local;
    l.n = 0;
    l.cap = 8;
    void *ia = json_object_iter((json_t *)a);
    for (void *ib = json_object_iter((json_t *)b); ib;
         ib = json_object_iter_next((json_t *)b, ib)) {
        const char *kb = json_object_iter_key(ib);
        json_t *vb = json_object_iter_value(ib);
        if (!ia) { /* a key b added */
            keylist_push(&l, kb, NULL, vb);
            continue;
        }
        if (strcmp(json_object_iter_key(ia), kb) != 0) {
            if (l.k != l.local)
                free(l.k);
            return 0;
        }
        json_t *va = json_object_iter_value(ia);
        ia = json_object_iter_next((json_t *)a, ia);
        if (va != vb)
            keylist_push(&l, kb, va, vb);
    }
    if (l.n > 1)
        qsort(l.k, l.n, sizeof *l.k, cmp_keyed);
    for (size_t i = 0; i < l.n; i++) {
        size_t mark = pb_push_key(pb, l.k[i].k);
        if (l.k[i].va)
            diff_value(l.k[i].va, l.k[i].vb, pb, ops);
        else
            emit(ops, OP_ADD, pb, l.k[i].vb);
        pb_pop(pb, mark);
    }
    if (l.k != l.local)
        free(l.k);
    return 1;
}

static void diff_object(const json_t *a, const json_t *b, pathbuf *pb, diffout *ops)
{
    if (json_object_size(a) <= json_object_size(b) && diff_object_in_step(a, b, pb, ops))
        return;
    size_t na, nb, i = 0, j = 0;
    const char **ka = sorted_keys(a, &na);
    const char **kb = sorted_keys(b, &nb);
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : strcmp(ka[i], kb[j]);
        size_t mark;
        if (c < 0) {
            mark = pb_push_key(pb, ka[i++]);
            emit(ops, OP_REMOVE, pb, NULL);
        } else if (c > 0) {
            mark = pb_push_key(pb, kb[j]);
            emit(ops, OP_ADD, pb, json_object_get(b, kb[j]));
            j++;
        } else {
            mark = pb_push_key(pb, ka[i]);
            diff_value(json_object_get(a, ka[i]), json_object_get(b, kb[j]), pb, ops);
            i++;
            j++;
        }
        pb_pop(pb, mark);
    }
    free(ka);
    free(kb);
}

/* json_equal, with the shared subtree (the common case in the engine's states, server/workcopy.h)
 * decided without a call. */
static int same(const json_t *x, const json_t *y)
{
    return x == y || json_equal(x, y);
}

/* 1 if a[ai .. ai+n) equals b[bi .. bi+n) element by element. */
static int range_equal(const json_t *a, size_t ai, const json_t *b, size_t bi, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!same(json_array_get(a, ai + i), json_array_get(b, bi + i)))
            return 0;
    return 1;
}

static void diff_array(const json_t *a, const json_t *b, pathbuf *pb, diffout *ops)
{
    size_t n = json_array_size(a), m = json_array_size(b), p = 0, s = 0;
    while (p < n && p < m && same(json_array_get(a, p), json_array_get(b, p)))
        p++;
    while (s < n - p && s < m - p &&
           same(json_array_get(a, n - 1 - s), json_array_get(b, m - 1 - s)))
        s++;
    size_t on = n - p - s, nn = m - p - s; /* the differing middles: a[p..p+on), b[p..p+nn) */
    size_t mark;

    /* Dropped from the front of the middle, kept, then added after: k removes + adds. */
    for (size_t k = 1; k < on; k++) {
        size_t keep = on - k;
        if (keep > nn || !range_equal(a, p + k, b, p, keep))
            continue;
        mark = pb_push_index(pb, p);
        for (size_t r = 0; r < k; r++)
            emit(ops, OP_REMOVE, pb, NULL);
        pb_pop(pb, mark);
        for (size_t j = keep; j < nn; j++) {
            mark = pb_push_index(pb, p + j);
            emit(ops, OP_ADD, pb, json_array_get(b, p + j));
            pb_pop(pb, mark);
        }
        return;
    }

    size_t common = on < nn ? on : nn;
    for (size_t i = 0; i < common; i++) {
        mark = pb_push_index(pb, p + i);
        diff_value(json_array_get(a, p + i), json_array_get(b, p + i), pb, ops);
        pb_pop(pb, mark);
    }
    for (size_t i = on; i > nn; i--) {
        mark = pb_push_index(pb, p + i - 1);
        emit(ops, OP_REMOVE, pb, NULL);
        pb_pop(pb, mark);
    }
    for (size_t i = on; i < nn; i++) {
        mark = pb_push_index(pb, p + i);
        emit(ops, OP_ADD, pb, json_array_get(b, p + i));
        pb_pop(pb, mark);
    }
}

static void diff_value(const json_t *a, const json_t *b, pathbuf *pb, diffout *ops)
{
    /* The engine's states share every subtree a command did not touch (server/workcopy.h): a
     * shared subtree costs one pointer comparison, whatever its size. Two containers of the
     * same kind are walked directly (an equal pair emits nothing): comparing them first would
     * walk them twice. */
    if (a == b)
        return;
    if (json_is_object(a) && json_is_object(b))
        diff_object(a, b, pb, ops);
    else if (json_is_array(a) && json_is_array(b))
        diff_array(a, b, pb, ops);
    else if (!json_equal(a, b))
        emit(ops, OP_REPLACE, pb, b);
}

static json_t *patch_diff(const json_t *old_doc, const json_t *new_doc, int share)
{
    diffout out = {json_array(), share, {NULL, NULL, NULL}};
    pathbuf pb = {0};
    pb_reserve(&pb, 0);
    pb.s[0] = '\0';
    diff_value(old_doc, new_doc, &pb, &out);
    free(pb.s);
    for (int i = 0; i < 3; i++)
        json_decref(out.name[i]);
    return out.ops;
}

json_t *proto_patch_diff(const json_t *old_doc, const json_t *new_doc)
{
    return patch_diff(old_doc, new_doc, 0);
}

json_t *proto_patch_diff_shared(const json_t *old_doc, const json_t *new_doc)
{
    return patch_diff(old_doc, new_doc, 1);
}

/* --- apply ------------------------------------------------------------------------------------ */

/* RFC 6902 §4.6 equality: like json_equal, but numbers compare by numeric value (1 == 1.0). */
static int values_equal(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b)) {
        if (json_is_integer(a) && json_is_integer(b))
            return json_integer_value(a) == json_integer_value(b);
        return json_number_value(a) == json_number_value(b);
    }
    if (json_typeof(a) != json_typeof(b))
        return 0;
    if (json_is_object(a)) {
        if (json_object_size(a) != json_object_size(b))
            return 0;
        for (void *it = json_object_iter((json_t *)a); it;
             it = json_object_iter_next((json_t *)a, it)) {
            json_t *vb = json_object_get(b, json_object_iter_key(it));
            if (!vb || !values_equal(json_object_iter_value(it), vb))
                return 0;
        }
        return 1;
    }
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!values_equal(json_array_get(a, i), json_array_get(b, i)))
                return 0;
        return 1;
    }
    return json_equal(a, b);
}

/* Context of the op being applied, for error messages. */
typedef struct opctx {
    size_t index;
    const char *name;
    const char *path;
    tb_err *err;
} opctx;

static int op_fail(const opctx *c, tb_code code, const char *what)
{
    int cut = (int)proto_utf8_prefix(c->path, PATH_QUOTE_MAX);
    return tb_fail(c->err, code, "patch op %zu (%s \"%.*s%s\"): %s", c->index, c->name, cut,
                   c->path, c->path[cut] ? "..." : "", what);
}

/* Puts `value` (stolen) at p in *root, RFC 6902 "add" semantics. */
static int do_add(json_t **root, const proto_pointer *p, json_t *value, const opctx *c)
{
    if (p->n == 0) {
        json_decref(*root);
        *root = value;
        return 0;
    }
    json_t *parent = resolve(*root, p, p->n - 1);
    const char *last = p->tokens[p->n - 1];
    if (json_is_object(parent)) {
        json_object_set_new(parent, last, value);
        return 0;
    }
    if (json_is_array(parent)) {
        size_t i;
        if (strcmp(last, "-") == 0) {
            json_array_append_new(parent, value);
            return 0;
        }
        if (proto_pointer_index(last, &i) == 0 && i <= json_array_size(parent)) {
            json_array_insert_new(parent, i, value);
            return 0;
        }
        json_decref(value);
        return op_fail(c, TB_CONFLICT, "array index out of range");
    }
    json_decref(value);
    return op_fail(c, TB_CONFLICT,
                   parent ? "parent is not an object or array" : "parent path does not exist");
}

/* Removes the value at p from *root; when `taken` is not NULL, stores a new reference to it. */
static int do_remove(json_t *root, const proto_pointer *p, json_t **taken, const opctx *c)
{
    if (p->n == 0)
        return op_fail(c, TB_BAD_REQUEST, "cannot remove the root");
    json_t *parent = resolve(root, p, p->n - 1);
    const char *last = p->tokens[p->n - 1];
    json_t *target = child(parent, last);
    if (!target)
        return op_fail(c, TB_CONFLICT, "path does not exist");
    if (taken)
        *taken = json_incref(target);
    if (json_is_object(parent)) {
        json_object_del(parent, last);
    } else {
        size_t i;
        proto_pointer_index(last, &i); /* child() succeeded, so this is a valid index */
        json_array_remove(parent, i);
    }
    return 0;
}

/* Replaces the existing value at p with `value` (stolen). */
static int do_replace(json_t **root, const proto_pointer *p, json_t *value, const opctx *c)
{
    if (p->n == 0) {
        json_decref(*root);
        *root = value;
        return 0;
    }
    json_t *parent = resolve(*root, p, p->n - 1);
    const char *last = p->tokens[p->n - 1];
    if (!child(parent, last)) {
        json_decref(value);
        return op_fail(c, TB_CONFLICT, "path does not exist");
    }
    if (json_is_object(parent)) {
        json_object_set_new(parent, last, value);
    } else {
        size_t i;
        proto_pointer_index(last, &i);
        json_array_set_new(parent, i, value);
    }
    return 0;
}

/* 1 if a is a proper prefix of b (token by token). */
static int is_proper_prefix(const proto_pointer *a, const proto_pointer *b)
{
    if (a->n >= b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->tokens[i], b->tokens[i]) != 0)
            return 0;
    return 1;
}

static int apply_op(json_t **root, const json_t *op, size_t index, tb_err *err)
{
    opctx c = {index, "?", "", err};
    if (!json_is_object(op))
        return tb_fail(err, TB_BAD_REQUEST, "patch op %zu: not an object", index);
    const char *name = json_string_value(json_object_get(op, "op"));
    if (!name)
        return tb_fail(err, TB_BAD_REQUEST, "patch op %zu: missing string \"op\"", index);
    c.name = name;
    const char *path = json_string_value(json_object_get(op, "path"));
    if (!path)
        return tb_fail(err, TB_BAD_REQUEST, "patch op %zu (%.*s): missing string \"path\"", index,
                       (int)proto_utf8_prefix(name, 10), name);
    c.path = path;

    int is_add = strcmp(name, "add") == 0, is_remove = strcmp(name, "remove") == 0;
    int is_replace = strcmp(name, "replace") == 0, is_move = strcmp(name, "move") == 0;
    int is_copy = strcmp(name, "copy") == 0, is_test = strcmp(name, "test") == 0;
    if (!(is_add || is_remove || is_replace || is_move || is_copy || is_test)) {
        c.name = "?";
        return op_fail(&c, TB_BAD_REQUEST, "unknown op");
    }

    proto_pointer p = {0}, from = {0};
    int rc = 0;
    if (proto_pointer_parse(path, &p, NULL)) {
        rc = op_fail(&c, TB_BAD_REQUEST, "malformed JSON pointer in \"path\"");
        goto out;
    }
    const json_t *value = json_object_get(op, "value");
    if ((is_add || is_replace || is_test) && !value) {
        rc = op_fail(&c, TB_BAD_REQUEST, "missing \"value\"");
        goto out;
    }
    if (is_move || is_copy) {
        const char *from_s = json_string_value(json_object_get(op, "from"));
        if (!from_s) {
            rc = op_fail(&c, TB_BAD_REQUEST, "missing string \"from\"");
            goto out;
        }
        if (proto_pointer_parse(from_s, &from, NULL)) {
            rc = op_fail(&c, TB_BAD_REQUEST, "malformed JSON pointer in \"from\"");
            goto out;
        }
    }

    if (is_add) {
        rc = do_add(root, &p, json_deep_copy(value), &c);
    } else if (is_remove) {
        rc = do_remove(*root, &p, NULL, &c);
    } else if (is_replace) {
        rc = do_replace(root, &p, json_deep_copy(value), &c);
    } else if (is_test) {
        json_t *target = resolve(*root, &p, p.n);
        if (!target)
            rc = op_fail(&c, TB_CONFLICT, "path does not exist");
        else if (!values_equal(target, value))
            rc = op_fail(&c, TB_CONFLICT, "test failed: value differs");
    } else if (is_copy) {
        json_t *src = resolve(*root, &from, from.n);
        if (!src)
            rc = op_fail(&c, TB_CONFLICT, "\"from\" does not exist");
        else
            rc = do_add(root, &p, json_deep_copy(src), &c);
    } else { /* move */
        json_t *moved = NULL;
        if (is_proper_prefix(&from, &p)) {
            rc = op_fail(&c, TB_BAD_REQUEST, "cannot move a value into one of its children");
        } else if (!resolve(*root, &from, from.n)) {
            rc = op_fail(&c, TB_CONFLICT, "\"from\" does not exist");
        } else if (from.n == 0) {
            rc = 0; /* "" to "" (anything else under "" failed above): nothing moves */
        } else if ((rc = do_remove(*root, &from, &moved, &c)) == 0) {
            rc = do_add(root, &p, moved, &c);
        }
    }

out:
    proto_pointer_free(&p);
    proto_pointer_free(&from);
    return rc;
}

json_t *proto_patch_apply(const json_t *doc, const json_t *patch, tb_err *err)
{
    if (!doc) {
        tb_fail(err, TB_BAD_REQUEST, "no document to patch");
        return NULL;
    }
    if (!json_is_array(patch)) {
        tb_fail(err, TB_BAD_REQUEST, "a JSON patch must be an array of ops");
        return NULL;
    }
    json_t *root = json_deep_copy(doc);
    for (size_t i = 0; i < json_array_size(patch); i++) {
        if (apply_op(&root, json_array_get(patch, i), i, err)) {
            json_decref(root);
            return NULL;
        }
    }
    return root;
}
