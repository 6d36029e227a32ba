/*
 * places.h — how many connections each client holds (issue 27 item 4).
 *
 * A count per key (a client address key, netaddr_key), so one address cannot take every place
 * the server has: the transport asks places_full before it admits a connection and counts it in
 * and out. Connections are also remembered by an opaque handle (the lws connection), so the
 * count is given back when the handle goes, whoever closes it (places_drop_handle).
 *
 * Pure bookkeeping; not thread-safe (the loop's thread).
 */
#ifndef TABLED_PLACES_H
#define TABLED_PLACES_H

#include <stddef.h>

typedef struct places places;

places *places_create(void);
void places_destroy(places *p);

/* Connections counted for key now. */
int places_count(const places *p, const char *key);

/* Counts one more connection for key, remembered under handle (not NULL, not yet counted). */
void places_add(places *p, const char *key, const void *handle);

/* Gives back the connection counted under handle; no-op for a handle not counted. Returns 1 when
 * one was. */
int places_drop_handle(places *p, const void *handle);

#endif
