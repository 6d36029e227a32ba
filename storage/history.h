/*
 * history.h — which history a database holds (issue 27 item 8; protocol/PROTOCOL.md, "Resume and
 * ordering").
 *
 * A page resumes with the seq it saw last. After a restore from a backup the database's event
 * log is another history from the backup's point on: the same seqs hold other events, and a page
 * that resumed by seq alone would keep rolls that no longer exist. So each database has a
 * history id, sent in every welcome; a page sends it back with its last_seq, and one that does
 * not match is sent a fresh state.
 *
 * The id is made once and kept across restarts (a kill -9 and a restart keep the history). A
 * backup (store_backup) marks its copy; the first server to open a marked copy gives it a new id
 * and clears the mark — a copy started twice becomes two histories, as it should. A database of
 * an older tabled has no id: it gets one at its first start.
 *
 * Kept in a table of its own (tabled_meta: key, value), made when first needed.
 */
#ifndef TABLED_HISTORY_H
#define TABLED_HISTORY_H

#include <sqlite3.h>

#include "err.h"
#include "store.h"

#define STORE_HISTORY_MAX 65 /* room for an id and its NUL */

/* The history id of the database into out: its own, or `fresh` (1..64 characters, stored now)
 * when it has none yet or it is a marked copy. 0, or TB_INTERNAL (the disk is full, ...; out is
 * then ""). Outside a transaction. */
int store_history(store *st, const char *fresh, char out[STORE_HISTORY_MAX], tb_err *err);

/* Marks the database on connection db (a backup copy being made) as a copy. 0 or TB_INTERNAL. */
int store_history_mark_copy(sqlite3 *db, tb_err *err);

#endif
