/*
 * jsonalloc.h — jansson's small blocks kept for reuse by the loop's thread (jsonalloc.c says why).
 */
#ifndef TABLED_JSONALLOC_H
#define TABLED_JSONALLOC_H

/* Makes jansson allocate through a cache of small blocks kept by the calling thread (other
 * threads allocate as before). Call once, from the loop's thread, before any
 * JSON value exists (a value made before is still freed correctly: every cached block is an
 * ordinary malloc block). Does nothing under AddressSanitizer or without glibc. */
void jsonalloc_install(void);

#endif
