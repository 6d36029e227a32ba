/*
 * jsonalloc.c — jansson's small blocks kept for reuse (issue 26: CPU per command).
 *
 * A command builds and frees thousands of small jansson values (the parsed command, the log
 * entry, the patch, the replaced parts of the state). glibc keeps only 7 freed blocks of a size
 * per thread for quick reuse (its tcache); freeing a state's log entries overflows it into the
 * fastbins and bins, and the next large allocation (a log's table, a dice expression) sorts and
 * merges them all again: malloc and free were a fifth of a roll's instructions (callgrind). Here
 * the thread that installs it (the loop's) keeps up to JSONALLOC_KEEP freed blocks per glibc
 * chunk size up to JSONALLOC_MAX_CHUNK bytes, handed back to jansson before asking malloc: at
 * most JSONALLOC_KEEP x (32 + 48 + ... + 512) bytes (about 540 KB) stay out of the heap.
 *
 * A block's size class is read back with malloc_usable_size, so no header is added: a class
 * holds blocks of exactly one glibc chunk size, and a request is served from the class glibc
 * itself would have used. Under AddressSanitizer nothing is kept (it would hide a use after
 * free) and jansson uses malloc and free as before.
 */
#include <stdlib.h>

#include <jansson.h>

#include "jsonalloc.h"

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JSONALLOC_OFF 1
#endif
#endif
#else
#define JSONALLOC_OFF 1
#endif

#ifndef JSONALLOC_OFF
#include <malloc.h>

#define JSONALLOC_KEEP 64
#define JSONALLOC_MAX_CHUNK 512
#define JSONALLOC_CLASSES (JSONALLOC_MAX_CHUNK / 16 + 1)

typedef struct jsonalloc_bin {
    void *head; /* freed blocks, linked through their first word */
    unsigned n;
} jsonalloc_bin;

/* Only the thread that installed the functions keeps blocks (the loop's); other threads (the
 * store's workers, which may come and go) use malloc and free as they are, so no cache is left
 * behind by a thread that ends. */
static jsonalloc_bin jsonalloc__bins[JSONALLOC_CLASSES];
static __thread int jsonalloc__mine;

/* glibc's chunk for a request of n bytes: n + 8 rounded up to 16, at least 32; in 16-byte
 * steps. */
static size_t jsonalloc__class(size_t n)
{
    size_t chunk = (n + 8 + 15) & ~(size_t)15;
    return (chunk < 32 ? 32 : chunk) / 16;
}

static void *jsonalloc__malloc(size_t n)
{
    size_t c = jsonalloc__class(n);
    if (c < JSONALLOC_CLASSES && jsonalloc__mine) {
        jsonalloc_bin *b = &jsonalloc__bins[c];
        if (b->head) {
            void *p = b->head;
            b->head = *(void **)p;
            b->n--;
            return p;
        }
    }
    return malloc(n);
}

static void jsonalloc__free(void *p)
{
    if (!p)
        return;
    if (!jsonalloc__mine) {
        free(p);
        return;
    }
    /* With glibc, usable size + 8 is the chunk's size (a multiple of 16), so the block goes back
     * to the class a request for its size is served from. Under an allocator that reports the
     * size asked for (valgrind's), the class is rounded down: still never too small. */
    size_t u = malloc_usable_size(p), c = (u + 8) / 16;
    if (u >= sizeof(void *) && c < JSONALLOC_CLASSES) {
        jsonalloc_bin *b = &jsonalloc__bins[c];
        if (b->n < JSONALLOC_KEEP) {
            *(void **)p = b->head;
            b->head = p;
            b->n++;
            return;
        }
    }
    free(p);
}
#endif

void jsonalloc_install(void)
{
#ifndef JSONALLOC_OFF
    jsonalloc__mine = 1;
    json_set_alloc_funcs(jsonalloc__malloc, jsonalloc__free);
#endif
}
