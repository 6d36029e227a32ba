#include "places.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

/* Keys: an open-addressing table of (key, count); handles: an open-addressing table of
 * (handle, key slot). Both grow at half load; a key whose count drops to 0 stays as a tombstone
 * until the next growth (the tables only grow to twice the connections held at once). */
typedef struct pk {
    char *key;
    int count;
} pk;
typedef struct ph {
    const void *handle; /* NULL: empty; (void *)1: deleted */
    size_t key;
} ph;

struct places {
    pk *keys;
    size_t n_keys, cap_keys;
    ph *handles;
    size_t n_handles, used_handles, cap_handles;
};

#define PH_GONE ((const void *)1)

static size_t places__hash_str(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t places__hash_ptr(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

places *places_create(void)
{
    places *p = xcalloc(1, sizeof *p);
    p->cap_keys = p->cap_handles = 64;
    p->keys = xcalloc(p->cap_keys, sizeof *p->keys);
    p->handles = xcalloc(p->cap_handles, sizeof *p->handles);
    return p;
}

void places_destroy(places *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->cap_keys; i++)
        free(p->keys[i].key);
    free(p->keys);
    free(p->handles);
    free(p);
}

/* The slot of key (or the empty slot where it would go). */
static size_t places__key_slot(const places *p, const char *key)
{
    size_t i = places__hash_str(key) & (p->cap_keys - 1);
    while (p->keys[i].key && strcmp(p->keys[i].key, key) != 0)
        i = (i + 1) & (p->cap_keys - 1);
    return i;
}

static size_t places__handle_slot(const places *p, const void *handle, int for_insert)
{
    size_t i = places__hash_ptr(handle) & (p->cap_handles - 1);
    while (p->handles[i].handle && p->handles[i].handle != handle &&
           !(for_insert && p->handles[i].handle == PH_GONE))
        i = (i + 1) & (p->cap_handles - 1);
    return i;
}

/* Rebuilds both tables at twice the size of what they hold, dropping unused keys. */
static void places__grow(places *p)
{
    pk *old_keys = p->keys;
    size_t old_cap_keys = p->cap_keys;
    ph *old_handles = p->handles;
    size_t old_cap_handles = p->cap_handles;
    size_t want = 64;
    while (want < 4 * (p->n_handles + 1))
        want *= 2;
    p->cap_keys = p->cap_handles = want;
    p->keys = xcalloc(want, sizeof *p->keys);
    p->handles = xcalloc(want, sizeof *p->handles);
    p->n_keys = p->n_handles = p->used_handles = 0;
    for (size_t i = 0; i < old_cap_handles; i++) {
        const void *h = old_handles[i].handle;
        if (!h || h == PH_GONE)
            continue;
        const char *key = old_keys[old_handles[i].key].key;
        size_t k = places__key_slot(p, key);
        if (!p->keys[k].key) {
            p->keys[k].key = xstrdup(key);
            p->n_keys++;
        }
        p->keys[k].count++;
        size_t s = places__handle_slot(p, h, 1);
        p->handles[s].handle = h;
        p->handles[s].key = k;
        p->n_handles++;
        p->used_handles++;
    }
    for (size_t i = 0; i < old_cap_keys; i++)
        free(old_keys[i].key);
    free(old_keys);
    free(old_handles);
}

int places_count(const places *p, const char *key)
{
    size_t k = places__key_slot(p, key);
    return p->keys[k].key ? p->keys[k].count : 0;
}

void places_add(places *p, const char *key, const void *handle)
{
    if (2 * (p->n_keys + 1) > p->cap_keys || 2 * (p->used_handles + 1) > p->cap_handles)
        places__grow(p);
    size_t k = places__key_slot(p, key);
    if (!p->keys[k].key) {
        p->keys[k].key = xstrdup(key);
        p->n_keys++;
    }
    p->keys[k].count++;
    size_t s = places__handle_slot(p, handle, 1);
    if (!p->handles[s].handle)
        p->used_handles++;
    p->handles[s].handle = handle;
    p->handles[s].key = k;
    p->n_handles++;
}

int places_drop_handle(places *p, const void *handle)
{
    size_t s = places__handle_slot(p, handle, 0);
    if (p->handles[s].handle != handle)
        return 0;
    p->keys[p->handles[s].key].count--;
    p->handles[s].handle = PH_GONE;
    p->n_handles--;
    return 1;
}
