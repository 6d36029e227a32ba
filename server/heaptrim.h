/*
 * heaptrim.h — gives back to the system the heap that a burst of traffic left free.
 *
 * glibc's free() returns memory to the kernel only from the top of the heap; the rest of what a
 * burst allocated and freed (e.g. 1 000 seats joining at once: welcomes, presence lists, send
 * queues) stays resident for the life of the process, between the long-lived allocations made
 * during the same burst (connections, seats). A heaptrim timer looks once a period at how much
 * free heap the process holds and, when it is more than a threshold, calls malloc_trim(0),
 * which hands whole free pages back (madvise) wherever they are in the heap. That is what keeps
 * an idle seat's cost near what the seat really holds (tests/bench/README.md, "Memory").
 *
 * Only server/ uses it (it needs the loop). A no-op on a C library without malloc_trim.
 */
#ifndef TABLED_HEAPTRIM_H
#define TABLED_HEAPTRIM_H

#include <stddef.h>
#include <uv.h>

typedef struct heaptrim heaptrim;

/* Starts a timer on loop that runs every period_ms and trims when the heap holds more than
 * min_free free bytes. The timer does not keep the loop alive. Returns a handle the caller owns
 * (heaptrim_stop). */
heaptrim *heaptrim_start(uv_loop_t *loop, unsigned period_ms, size_t min_free);

/* Stops the timer and closes its handle; the memory is freed by the loop's close callback, so
 * the loop must run once more (as serve_run's shutdown does). NULL is a no-op. */
void heaptrim_stop(heaptrim *t);

/* Trims now if more than min_free bytes of the heap are free. Returns the bytes that were free
 * before (0 where the C library cannot tell). */
size_t heaptrim_now(size_t min_free);

#endif
