/*
 * preflight.h — a look at a database file before it is opened for good (issue 27 item 7).
 *
 * store_open creates a database where there is none, and SQLite opens a damaged file without a
 * word until a read lands on the damage. Two ways to lose a table silently follow: a tabled.db
 * that is missing or empty beside its write-ahead log (what a copy onto a full disk, or a restore
 * that forgot a file, leaves) starts a new empty database with new links, and a page of noise is
 * served until `tabled backup`'s integrity check trips over it. store_preflight runs first and
 * refuses both, with a sentence that says what to do.
 *
 * It opens its own SQLite connection (never creating a file) and closes it.
 */
#ifndef TABLED_PREFLIGHT_H
#define TABLED_PREFLIGHT_H

#include "err.h"

enum {
    STORE_PREFLIGHT_MUST_EXIST = 1, /* a database that does not exist is refused (replay, export) */
};

/* 0 when path may be opened with store_open: it passes PRAGMA quick_check and is a tabled
 * database (or an empty one), or it does not exist (and flags allow that) and no write-ahead log
 * waits beside it. Otherwise err says why and the code is TB_NOT_FOUND (missing, and it must
 * exist), TB_CONFLICT (missing or empty, but <path>-wal holds data) or TB_INTERNAL (damaged, not
 * an SQLite file, or not tabled's). */
int store_preflight(const char *path, int flags, tb_err *err);

#endif
