/*
 * encmemo.c — subtree texts kept between encodings of a state (encmemo.h): an open-addressing
 * table keyed by node address, linear probing, deletion by backward shift.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encmemo.h"

#define ENCMEMO_MIN_CAP 64
#define ENCMEMO_STEP 16 /* slots encmemo_append_keep looks at */

typedef struct encmemo_slot {
    json_t *node; /* NULL: empty; else one reference held */
    char *text;   /* proto_json_append's text of node (not NUL-terminated) */
    size_t len;
} encmemo_slot;

struct encmemo {
    encmemo_slot *tab;
    size_t cap; /* a power of two */
    size_t n;
    size_t cursor; /* where encmemo_append_keep's sweep goes on */
};

encmemo *encmemo_new(void)
{
    encmemo *m = xcalloc(1, sizeof *m);
    m->cap = ENCMEMO_MIN_CAP;
    m->tab = xcalloc(m->cap, sizeof *m->tab);
    return m;
}

static void encmemo__release(encmemo_slot *s)
{
    json_decref(s->node);
    free(s->text);
    s->node = NULL;
    s->text = NULL;
}

void encmemo_free(encmemo *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        if (m->tab[i].node)
            encmemo__release(&m->tab[i]);
    free(m->tab);
    free(m);
}

size_t encmemo_count(const encmemo *m)
{
    return m->n;
}

static size_t encmemo__home(const encmemo *m, const json_t *node)
{
    uint64_t h = (uint64_t)(uintptr_t)node * 0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 29)) & (m->cap - 1);
}

static encmemo_slot *encmemo__find(encmemo *m, const json_t *node)
{
    for (size_t i = encmemo__home(m, node);; i = (i + 1) & (m->cap - 1)) {
        if (m->tab[i].node == node)
            return &m->tab[i];
        if (!m->tab[i].node)
            return NULL;
    }
}

/* Puts s (a slot that owns its node's reference and text) into the table, which has room. */
static void encmemo__place(encmemo *m, encmemo_slot s)
{
    size_t i = encmemo__home(m, s.node);
    while (m->tab[i].node)
        i = (i + 1) & (m->cap - 1);
    m->tab[i] = s;
}

static void encmemo__grow(encmemo *m)
{
    encmemo_slot *old = m->tab;
    size_t old_cap = m->cap;
    m->cap *= 2;
    m->tab = xcalloc(m->cap, sizeof *m->tab);
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].node)
            encmemo__place(m, old[i]);
    free(old);
}

static void encmemo__put(encmemo *m, const json_t *node, const char *text, size_t len)
{
    if (2 * (m->n + 1) > m->cap)
        encmemo__grow(m);
    encmemo_slot s = {json_incref((json_t *)node), xmalloc(len ? len : 1), len};
    memcpy(s.text, text, len);
    encmemo__place(m, s);
    m->n++;
}

/* Empties slot i and moves back the entries after it whose probe passed through it, so every
 * entry stays reachable from its home slot (no tombstones). */
static void encmemo__delete(encmemo *m, size_t i)
{
    size_t mask = m->cap - 1;
    encmemo__release(&m->tab[i]);
    m->n--;
    for (size_t j = (i + 1) & mask; m->tab[j].node; j = (j + 1) & mask) {
        size_t home = encmemo__home(m, m->tab[j].node);
        /* the entry at j stays when its home lies cyclically in (i, j] */
        int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (stays)
            continue;
        m->tab[i] = m->tab[j];
        m->tab[j] = (encmemo_slot){0};
        i = j;
    }
}

/* Drops every entry whose node only the memo still holds: no live state has it any more. */
static void encmemo__sweep(encmemo *m)
{
    for (size_t i = 0; i < m->cap;) {
        if (m->tab[i].node && m->tab[i].node->refcount == 1)
            encmemo__delete(m, i); /* slot i may now hold an entry that moved back: look again */
        else
            i++;
    }
}

/* How a walk below treats what it meets: the memo it keeps texts in, the memo it copies texts
 * from (look), and, for encmemo_append_keep, the depth whose containers it keeps. */
typedef struct encmemo__how {
    encmemo *m;
    encmemo *look;
    int keep; /* encmemo__keep: the depth of the containers kept */
} encmemo__how;

typedef void (*encmemo__step)(proto_buf *b, const json_t *v, int depth, const encmemo__how *h);

/* Container v framed as proto_json_append frames it, each member written by step at depth + 1
 * (the two walks below differ only in what they do with a member). */
static void encmemo__frame(proto_buf *b, const json_t *v, int depth, const encmemo__how *h,
                           encmemo__step step)
{
    if (json_is_object(v)) {
        proto_buf_addc(b, '{');
        int first = 1;
        const char *key;
        json_t *child;
        json_object_foreach((json_t *)v, key, child)
        {
            if (!first)
                proto_buf_addc(b, ',');
            first = 0;
            proto_buf_add_string(b, key, strlen(key));
            proto_buf_addc(b, ':');
            step(b, child, depth + 1, h);
        }
        proto_buf_addc(b, '}');
    } else {
        proto_buf_addc(b, '[');
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n; i++) {
            if (i)
                proto_buf_addc(b, ',');
            step(b, json_array_get(v, i), depth + 1, h);
        }
        proto_buf_addc(b, ']');
    }
}

/* encmemo_append's walk: h->m is looked up below the root, and keeps every container of depth 1
 * to ENCMEMO_LEVELS (the deepest encoded whole). */
static void encmemo__append(proto_buf *b, const json_t *v, int depth, const encmemo__how *h)
{
    int container = json_is_object(v) || json_is_array(v);
    if (!container) {
        proto_json_append(b, v);
        return;
    }
    if (depth > 0) {
        const encmemo_slot *s = encmemo__find(h->m, v);
        if (s) {
            proto_buf_add(b, s->text, s->len);
            return;
        }
    }
    size_t at = b->len;
    if (depth >= ENCMEMO_LEVELS)
        proto_json_append(b, v);
    else
        encmemo__frame(b, v, depth, h, encmemo__append);
    if (depth > 0)
        encmemo__put(h->m, v, b->data + at, b->len - at);
}

void encmemo_append(encmemo *m, proto_buf *b, const json_t *v)
{
    encmemo__sweep(m); /* v holds its own nodes: none of them is dropped */
    encmemo__append(b, v, 0, &(encmemo__how){.m = m});
}

/* encmemo_append_keep's walk: h->look (may be NULL) is looked up for every container met;
 * without it, a container at depth h->keep or below is encoded whole. */
static void encmemo__keep(proto_buf *b, const json_t *v, int depth, const encmemo__how *h)
{
    int container = json_is_object(v) || json_is_array(v);
    const encmemo_slot *s = container && h->look ? encmemo__find(h->look, v) : NULL;
    size_t at = b->len;
    if (!container || (!h->look && depth >= h->keep))
        proto_json_append(b, v);
    else if (s)
        proto_buf_add(b, s->text, s->len);
    else
        encmemo__frame(b, v, depth, h, encmemo__keep);
    if (container && depth == h->keep)
        encmemo__put(h->m, v, b->data + at, b->len - at);
}

/* Sweeps the next ENCMEMO_STEP slots (encmemo__sweep a few at a time): the whole table every
 * cap / ENCMEMO_STEP calls, so what the memo kept alive is freed a little per event, as the
 * states it belonged to were, not all at once at the next encoding (a burst of frees misses
 * the allocator's caches: server/jsonalloc.h). */
static void encmemo__sweep_some(encmemo *m)
{
    for (size_t k = 0; k < ENCMEMO_STEP; k++) {
        size_t i = m->cursor;
        if (m->tab[i].node && m->tab[i].node->refcount == 1)
            encmemo__delete(m, i); /* slot i may now hold an entry that moved back: next call */
        else
            m->cursor = (i + 1) & (m->cap - 1);
    }
}

void encmemo_append_keep(encmemo *m, proto_buf *b, const json_t *v, int keep, encmemo *look)
{
    if (m->n) /* (an empty memo, such as engine.results between commands, has nothing to drop) */
        encmemo__sweep_some(m);
    encmemo__keep(b, v, 0,
                  &(encmemo__how){.m = m, .look = look && look->n ? look : NULL, .keep = keep});
}

void encmemo_clear(encmemo *m)
{
    for (size_t i = 0; m->n && i < m->cap; i++)
        if (m->tab[i].node) {
            encmemo__release(&m->tab[i]);
            m->n--;
        }
}
