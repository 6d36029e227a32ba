#include "heaptrim.h"

#include <stdlib.h>

#include "err.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

struct heaptrim {
    uv_timer_t timer;
    size_t min_free;
};

size_t heaptrim_now(size_t min_free)
{
#ifdef __GLIBC__
    /* mallinfo2: fordblks is every free byte the arena holds, in the middle of the heap or at
     * its top. Single-threaded server: the main arena is the only one. */
    struct mallinfo2 mi = mallinfo2();
    if (mi.fordblks > min_free)
        malloc_trim(0);
    return mi.fordblks;
#else
    (void)min_free;
    return 0;
#endif
}

static void heaptrim__tick(uv_timer_t *h)
{
    heaptrim *t = h->data;
    heaptrim_now(t->min_free);
}

heaptrim *heaptrim_start(uv_loop_t *loop, unsigned period_ms, size_t min_free)
{
    heaptrim *t = xcalloc(1, sizeof *t);
    t->min_free = min_free;
    uv_timer_init(loop, &t->timer);
    t->timer.data = t;
    uv_timer_start(&t->timer, heaptrim__tick, period_ms, period_ms);
    uv_unref((uv_handle_t *)&t->timer);
    return t;
}

static void heaptrim__closed(uv_handle_t *h)
{
    free(h->data);
}

void heaptrim_stop(heaptrim *t)
{
    if (!t)
        return;
    uv_timer_stop(&t->timer);
    uv_close((uv_handle_t *)&t->timer, heaptrim__closed);
}
