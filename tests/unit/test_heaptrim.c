/*
 * test_heaptrim.c — server/heaptrim.c: heap that a burst freed between blocks that stay is given
 * back to the system (resident memory falls), by heaptrim_now and by the timer, and a heap with
 * less free than the threshold is left alone.
 *
 * Needs glibc's own malloc: under AddressSanitizer (its allocator replaces malloc) the memory
 * checks are skipped and only the timer's start/stop (and its leak check) runs.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "heaptrim.h"

#if defined(__SANITIZE_ADDRESS__)
#define REAL_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REAL_MALLOC 0
#endif
#endif
#ifndef REAL_MALLOC
#define REAL_MALLOC 1
#endif

#define BURST 256         /* blocks of the burst */
#define BLOCK (64 * 1024) /* below glibc's mmap threshold: they come from the heap */
#define BURST_BYTES ((size_t)BURST * BLOCK)

static void *keep[BURST];     /* small blocks that stay, one after each burst block */
static volatile unsigned sum; /* reads of the burst: the compiler may not drop the blocks */

/* Resident memory of this process in bytes (/proc/self/statm). */
static size_t rss(void)
{
    unsigned long size = 0, res = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%lu %lu", &size, &res), 2);
    fclose(f);
    return (size_t)res * (size_t)sysconf(_SC_PAGESIZE);
}

/* A burst of BURST_BYTES, touched, freed again, with a small block that stays after each block:
 * glibc's free cannot give any of it back from the top of the heap. */
static void burst(void)
{
    void *b[BURST];
    for (int i = 0; i < BURST; i++) {
        b[i] = malloc(BLOCK);
        ck_assert_ptr_nonnull(b[i]);
        memset(b[i], 0xA5, BLOCK);
        keep[i] = malloc(32);
    }
    for (int i = 0; i < BURST; i++) {
        for (size_t off = 0; off < BLOCK; off += 4096)
            sum += ((unsigned char *)b[i])[off];
        free(b[i]);
    }
}

static void unkeep(void)
{
    for (int i = 0; i < BURST; i++) {
        free(keep[i]);
        keep[i] = NULL;
    }
}

START_TEST(test_trim_gives_back_a_freed_burst)
{
    if (!REAL_MALLOC)
        return;
    burst();
    size_t before = rss();
    size_t was_free = heaptrim_now(1024 * 1024);
    size_t after = rss();
    ck_assert_uint_ge(was_free, BURST_BYTES / 2);
    /* most of the burst's pages are no longer resident */
    ck_assert_msg(after + BURST_BYTES / 2 < before, "RSS %zu -> %zu after the trim", before, after);
    unkeep();
}
END_TEST

START_TEST(test_below_the_threshold_nothing_is_trimmed)
{
    if (!REAL_MALLOC)
        return;
    burst();
    size_t before = rss();
    size_t was_free = heaptrim_now(SIZE_MAX);
    size_t after = rss();
    ck_assert_uint_ge(was_free, BURST_BYTES / 2);
    ck_assert_msg(after + BURST_BYTES / 4 > before, "RSS %zu -> %zu without a trim", before, after);
    heaptrim_now(0);
    unkeep();
}
END_TEST

static void on_stop(uv_timer_t *h)
{
    heaptrim_stop(h->data);
    uv_close((uv_handle_t *)h, NULL);
}

START_TEST(test_the_timer_trims_and_stops)
{
    uv_loop_t loop;
    uv_timer_t stop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    burst();
    size_t before = rss();
    heaptrim *t = heaptrim_start(&loop, 10, 1024 * 1024);
    /* the trim timer does not keep the loop alive: this one does, for 100 ms */
    uv_timer_init(&loop, &stop);
    stop.data = t;
    uv_timer_start(&stop, on_stop, 100, 0);
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(uv_loop_close(&loop), 0); /* every handle closed, the heaptrim freed */
    if (REAL_MALLOC)
        ck_assert_msg(rss() + BURST_BYTES / 2 < before, "RSS %zu -> %zu after 100 ms", before,
                      rss());
    unkeep();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("heaptrim");
    TCase *tc = tcase_create("heaptrim");
    tcase_add_test(tc, test_trim_gives_back_a_freed_burst);
    tcase_add_test(tc, test_below_the_threshold_nothing_is_trimmed);
    tcase_add_test(tc, test_the_timer_trims_and_stops);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    /* each test in its own process (Check's default, said here because it matters): a fresh heap
     * whose layout the burst decides, not the chunks an earlier test left in glibc's bins */
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
