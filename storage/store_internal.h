/*
 * store_internal.h — for storage/ only: the store's SQLite connection, so backup.c's export and
 * import can run their own statements inside the store's transactions. Not part of the surface.
 */
#ifndef TABLED_STORE_INTERNAL_H
#define TABLED_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store.h"

/* The store's connection (borrowed). */
sqlite3 *store__sqlite(store *st);

#endif
