/*
 * encmemo.h — the compact JSON text of a campaign's state, with the text of its subtrees kept
 * between encodings (issue 26 item 4: "the welcome encoded once per audience and shared").
 *
 * Every join is a new seq, so a welcome per joiner encoded the whole state again: the log and
 * every seat, 47.5 % of a join's CPU at 1 000 seats. A committed state is never changed (the
 * contract of server/workcopy.h, which proto_patch_diff_shared relies on too) and the next state
 * shares every subtree an event did not write, as does every viewer's filtered copy of it
 * (proto_filter_state). So the text of a subtree is kept under its address: the next encoding
 * copies the text of every object or array it meets again instead of encoding it.
 *
 * Why the bytes are the same: a kept text is proto_json_append's text of its node, and the memo
 * holds a reference on the node for as long as it keeps the text, so the address cannot be
 * reused by another node and the node (immutable) still has that text. Containers are framed
 * exactly as proto_json_append frames them.
 *
 * Bounded: only the objects and arrays one or two levels below the root are kept (a log entry, a
 * seat; the root itself is a fresh copy for every viewer), and an entry whose node nothing but
 * the memo holds any more (its state was replaced) is dropped at the next encoding.
 */
#ifndef TABLED_ENCMEMO_H
#define TABLED_ENCMEMO_H

#include <jansson.h>
#include <stddef.h>

#include "protocol.h"

#define ENCMEMO_LEVELS 2 /* levels below the root whose objects and arrays are kept */

typedef struct encmemo encmemo;

encmemo *encmemo_new(void);
void encmemo_free(encmemo *m); /* NULL is fine */

/* Appends the compact JSON text of v (borrowed) to b: byte for byte proto_json_append(b, v),
 * taking the text of the objects and arrays at depth 1 and 2 below v from m when m holds them and
 * keeping the ones it encodes. v and every container below it must never change afterwards (a
 * committed state, or a filtered view of one that is not changed after it was made). */
void encmemo_append(encmemo *m, proto_buf *b, const json_t *v);

/* Appends the compact JSON text of v (borrowed) to b, byte for byte proto_json_append(b, v), and
 * keeps in m the text of every object or array at depth `keep` below v (not looked up in m: they
 * are new). look (may be NULL) is a memo whose texts are copied wherever its nodes appear, at any
 * depth (a command's result, kept just before, shares its dice with the log entry the patch
 * adds). An event's patch with keep = 2 leaves the values its ops add (a log entry, a seat) in the
 * memo, so the state's next encoding (a snapshot, a welcome) copies their text instead of
 * encoding them again. The kept nodes must never change afterwards (the values of a patch are
 * the new state's own nodes). Each call also drops a few of the entries nothing else holds any
 * more, so the memo stays bounded between encodings of the state. */
void encmemo_append_keep(encmemo *m, proto_buf *b, const json_t *v, int keep, encmemo *look);

/* Drops every text m holds (and its references). */
void encmemo_clear(encmemo *m);

/* How many texts m holds (for tests). */
size_t encmemo_count(const encmemo *m);

#endif
