/*
 * workcopy.h — the working copy a command's handler runs on: copy-on-write with structural
 * sharing, so a command costs what it touches, not the size of the campaign (issue 10).
 *
 * Why copy-on-write and not a mutation API that records the patch: every handler and every rule
 * module (some 8 000 lines) writes jansson trees directly; a mutation API would mean rewriting all
 * of them at once. Copy-on-write keeps their code as it is and asks one line of each command-table
 * row: the subtrees it may write (op_def.writes, ops.h). Everything else is shared by reference
 * with the committed state, the diff (proto_patch_diff) skips pointer-equal subtrees at once, and
 * a refused op just drops its copy. The price is a contract a handler could break by writing into
 * a shared subtree; workcopy_fingerprint/workcopy_check catch that (the sanitizer build checks
 * every command).
 */
#ifndef TABLED_WORKCOPY_H
#define TABLED_WORKCOPY_H

#include <jansson.h>
#include <stdint.h>

#include "ops.h"

/*
 * A working copy of base (borrowed, never modified) for a handler that writes only the subtrees
 * in writes (terminated by path == NULL; NULL = anything, then a deep copy of everything). New
 * reference. The root and every object on the way down to a declared path are fresh shallow
 * copies; a declared subtree that exists gets fresh copies of all its objects and arrays (its
 * scalars, which handlers replace and never change in place, are shared), or only a shallow copy
 * of itself when shallow, and none when OP_WRITE_COMBATANTS or OP_WRITE_LOG (copied on first
 * write: workcopy_own_path below); every other value is the base's own (shared: read it, never
 * change it). It holds a reference to base until workcopy_settle. A declared path that runs
 * through a missing key or a non-object stops there (the handler creates the rest in a private
 * container). A malformed declared path aborts: the tables are code, not input.
 */
json_t *workcopy_make(const json_t *base, const op_write *writes);

/* Lets go of the base workcopy_make remembered for workcopy_own_path, once the handler has run
 * (engine__run_handler). */
void workcopy_settle(void);

/*
 * A subtree declared OP_WRITE_COMBATANTS (/chars, /gm/npcs) or OP_WRITE_LOG (/log, /gm/log: ops.h)
 * is copied on first write, member by member: workcopy_make leaves it the base's, and a handler
 * about to change a character (or ops_log_append_at about to append to a log)
 * takes workcopy_own_path(work, (const char *[]){"chars", id, "sheet", NULL}): the container at
 * that path of object keys, after every container on the way that is still the base's own (the
 * same pointer at the same path of the state workcopy_make was given) has been replaced by a
 * shallow copy of itself (issue 26: an action that changes no character copies none, and one
 * that changes a sheet copies /chars's table, the character and its sheet, not the cast). NULL
 * when a key is missing or the path runs through a scalar. Its members below the path are still
 * shared: replace them, never change one in place. Without a workcopy_make since the last
 * workcopy_settle (a handler run on a deep copy) nothing is copied: everything is private.
 */
json_t *workcopy_own_path(json_t *work, const char *const *keys);

/* The committed state the working copy in hand was made from (borrowed: read it, never change
 * it), to read what a subtree held before the handler began changing its private copy; NULL
 * after workcopy_settle or for a deep copy (workcopy_make with no declared writes). */
const json_t *workcopy_base(void);

/* A copy of every object and array of v whose scalars are v's own (new reference): a deep copy
 * as far as anyone who replaces scalars and never changes one in place can tell (the contract of
 * every handler and rule module, ops.h), for a fraction of its allocations. */
json_t *workcopy_containers(const json_t *v);

/* A 64-bit fingerprint of state's content (order of object keys ignored) to compare before and
 * after a handler: a hash, so a change goes unnoticed with a chance of about 2^-64. It walks the
 * whole state without allocating (several times cheaper than serializing it). */
uint64_t workcopy_fingerprint(const json_t *state);

/* 0 when state still has the fingerprint `before` (from workcopy_fingerprint), else -1: a handler
 * changed a subtree it shares with the committed state. */
int workcopy_check(const json_t *state, uint64_t before);

#endif
