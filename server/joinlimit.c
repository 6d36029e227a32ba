#include "joinlimit.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

typedef struct jl_entry {
    char *key;
    int fails;
    int64_t last_fail_ms;
    int64_t next_ok_ms;
} jl_entry;

struct joinlimit {
    joinlimit_opts opt;
    jl_entry *v;
    int n;
};

joinlimit *joinlimit_create(const joinlimit_opts *opts)
{
    joinlimit *jl = xcalloc(1, sizeof *jl);
    jl->opt = *opts;
    if (jl->opt.max_keys < 1)
        jl->opt.max_keys = 1;
    jl->v = xcalloc((size_t)jl->opt.max_keys, sizeof *jl->v);
    return jl;
}

void joinlimit_destroy(joinlimit *jl)
{
    if (!jl)
        return;
    for (int i = 0; i < jl->n; i++)
        free(jl->v[i].key);
    free(jl->v);
    free(jl);
}

static void joinlimit__drop(joinlimit *jl, int i)
{
    free(jl->v[i].key);
    jl->v[i] = jl->v[--jl->n];
}

/* The entry of key, or NULL; forgets entries that have been quiet for forget_ms on the way. */
static jl_entry *joinlimit__find(joinlimit *jl, const char *key, int64_t now_ms)
{
    jl_entry *hit = NULL;
    for (int i = 0; i < jl->n;) {
        jl_entry *x = &jl->v[i];
        if (now_ms - x->last_fail_ms >= jl->opt.forget_ms && now_ms >= x->next_ok_ms) {
            joinlimit__drop(jl, i);
            continue;
        }
        if (strcmp(x->key, key) == 0)
            hit = x;
        i++;
    }
    return hit;
}

int64_t joinlimit_wait_ms(joinlimit *jl, const char *key, int64_t now_ms)
{
    jl_entry *x = joinlimit__find(jl, key, now_ms);
    return x && x->next_ok_ms > now_ms ? x->next_ok_ms - now_ms : 0;
}

int joinlimit_fails(joinlimit *jl, const char *key, int64_t now_ms)
{
    jl_entry *x = joinlimit__find(jl, key, now_ms);
    return x ? x->fails : 0;
}

void joinlimit_fail(joinlimit *jl, const char *key, int64_t now_ms)
{
    jl_entry *x = joinlimit__find(jl, key, now_ms);
    if (!x) {
        if (jl->n == jl->opt.max_keys) { /* full: the key whose last failure is oldest goes */
            int old = 0;
            for (int i = 1; i < jl->n; i++)
                if (jl->v[i].last_fail_ms < jl->v[old].last_fail_ms)
                    old = i;
            joinlimit__drop(jl, old);
        }
        x = &jl->v[jl->n++];
        memset(x, 0, sizeof *x);
        x->key = xstrdup(key);
    }
    x->fails++;
    x->last_fail_ms = now_ms;
    int over = x->fails - jl->opt.free_fails;
    if (over > 0) {
        int64_t d = jl->opt.base_ms;
        for (int i = 1; i < over && d < jl->opt.max_ms; i++)
            d *= 2;
        if (d > jl->opt.max_ms)
            d = jl->opt.max_ms;
        x->next_ok_ms = now_ms + d;
    }
}

void joinlimit_forget(joinlimit *jl, const char *key)
{
    for (int i = 0; i < jl->n; i++)
        if (strcmp(jl->v[i].key, key) == 0) {
            joinlimit__drop(jl, i);
            return;
        }
}
