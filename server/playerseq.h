/*
 * playerseq.h — the seq a player sees (issue 27 items 10 and 11; protocol/PROTOCOL.md, "Resume
 * and ordering").
 *
 * Every event has a campaign seq: its key in the event log, and the GM's seq (the GM sees every
 * event). A player sees only the events that change what some player may see, so a player's seq
 * counts those alone: the player seq, kept in the state at /gm/player_seq (GM-only, so it is
 * rebuilt from snapshots and patches like everything else, and never sent to a player). An event
 * that changes what a player may see raises it by one, in the same patch (an op on
 * /gm/player_seq that only the GM receives); an event only the GM sees leaves it alone. So the
 * numbers a player meets — diff seqs, acks, the welcome, and the seq of log entries, ask and
 * hidden keys (handlers get the player seq as op_ctx.seq) — advance only with what players see:
 * they cannot count the GM's secret events or tell when they happened.
 *
 * A campaign made before this has no /gm/player_seq: its first event after the change adds it,
 * starting at the campaign seq before that event ("before here, player seq = campaign seq"), so
 * a page that kept a last_seq from then resumes as before.
 *
 * Pure: jansson only.
 */
#ifndef TABLED_PLAYERSEQ_H
#define TABLED_PLAYERSEQ_H

#include <jansson.h>
#include <stdint.h>

#define PLAYERSEQ_PATH "/gm/player_seq"

/* The player seq of a state at campaign seq `seq` (seq itself when the state has none yet). */
int64_t playerseq_get(const json_t *state, int64_t seq);

/* For an event about to be appended: base is the state before it (at campaign seq base_seq),
 * new_state the state after it (its root and /gm may be replaced: copy-on-write), patch the diff
 * between them (an op on /gm/player_seq is appended when the number changes or is first set).
 * Returns the player seq after the event. */
int64_t playerseq_advance(const json_t *base, int64_t base_seq, json_t *new_state, json_t *patch);

/* What an event's patch says about the player seq: *value the number after the event when the
 * patch sets it (returns 1; *intro = 1 when it is the op that first added it), or 0 when the
 * patch leaves it alone. */
int playerseq_in_patch(const json_t *patch, int64_t *value, int *intro);

/* 1 when the patch adds the seat `seat` (the event that made it: seat.join). */
int playerseq_patch_adds_seat(const json_t *patch, const char *seat);

#endif
