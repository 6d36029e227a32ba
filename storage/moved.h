/*
 * moved.h — campaigns this process gave away (issue 28 item 4: a campaign moved live to another
 * process). The old owner keeps a row of `moved` in its host file per campaign it released: its
 * commands, hellos and joins are answered "moved" from then on (also after a restart), so a page
 * keeps its token and retries until the router sends it to the new owner. The campaign's file
 * stays on disk, never opened again here (so a move back needs it taken out of this host file
 * first: not done yet).
 */
#ifndef TABLED_MOVED_H
#define TABLED_MOVED_H

#include <stdint.h>

#include "store.h"

/* Records that campaign id moved away (to: the operator's word for where, "" for none), in the
 * batch's host transaction. A second release of the same campaign keeps the first row. */
int store_moved_put(store *st, const char *id, const char *to, int64_t at_ms, tb_err *err);

/* 1 when campaign id moved away (to, when not NULL, gets where: cap bytes, NUL-terminated),
 * 0 when not, -1 on a storage error (err filled). */
int store_moved_find(store *st, const char *id, char *to, unsigned long cap, tb_err *err);

#endif
