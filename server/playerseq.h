/*
 * playerseq.h — the seq a player sees (issue 27 items 10 and 11, issue 29; protocol/PROTOCOL.md,
 * "Resume and ordering", "Two counts").
 *
 * Every event has a campaign seq: its key in the event log, and the GM's seq (the GM sees every
 * event). A player seat's seq counts only the events whose diff for that seat is not empty, so
 * it cannot count what the GM keeps, nor what is said or shown to another seat alone. It is the
 * sum of two counts kept in the state, GM-only (rebuilt from snapshots and patches like
 * everything else, never sent to a player):
 *   /gm/player_seq        the public count: events every player sees a change of (a diff op
 *                         outside /gm and /private);
 *   /gm/seat_seq/<seat>   the seat's own count: events that change only /private/<seat> for it
 *                         (and maybe other seats' private areas), nothing public.
 * An event raises the public count, or the own count of each seat it touches privately, never
 * both for one seat: so a seat's seq moves by one exactly when its filtered diff is not empty.
 * The public diff is the same for every player and is encoded once (issue 10); only the seq in
 * front of it differs between seats that were told different private things (server/fanout.c).
 * Numbers in shared lists — log entries' seq, ask and hidden keys, public message and handout
 * ids — are the public count of the event (op_ctx.seq: public count + 1), which nothing private
 * moves; ids of what only some seats read add those seats (ops_audience_id, server/ops.h).
 *
 * A campaign made before issue 27 has no /gm/player_seq: its first event after the change adds
 * it, starting at the campaign seq before that event ("before here, player seq = campaign seq").
 * One made before issue 29 has /gm/player_seq holding the old shared count (which also counted
 * private events): every seat's seq goes on from it, so a page's last_seq stays valid.
 *
 * Pure: jansson and protocol/ only.
 */
#ifndef TABLED_PLAYERSEQ_H
#define TABLED_PLAYERSEQ_H

#include <jansson.h>
#include <stdint.h>

#define PLAYERSEQ_PATH "/gm/player_seq"
#define PLAYERSEQ_SEATS_PATH "/gm/seat_seq"

/* What one event does for the players: its audiences (proto_patch_audiences, computed once for
 * the counts and the fan-out) and the counts after it. */
typedef struct playerseq_step {
    json_t *everyone; /* the ops a player with no touched private area receives (a reference) */
    json_t *touched;  /* {seat: true} for the seats whose private area it touches (a reference;
                         NULL: none) */
    int per_viewer;   /* every player's view must be filtered on its own (an op at "" etc.) */
    int64_t pub;      /* the public count after the event */
    json_t *own;      /* /gm/seat_seq after the event (a reference, NULL when none) */
} playerseq_step;

/* The public count of a state at campaign seq `seq` (seq itself when the state has none yet):
 * an event's number in shared lists is this + 1. */
int64_t playerseq_get(const json_t *state, int64_t seq);

/* The seq of player seat `seat` in a state at campaign seq `seq`. */
int64_t playerseq_seat(const json_t *state, int64_t seq, const char *seat);

/* For an event about to be appended: base is the state before it (at campaign seq base_seq),
 * new_state the state after it (its root and /gm may be replaced: copy-on-write), patch the diff
 * between them (ops on /gm/player_seq and /gm/seat_seq are appended when the counts change).
 * *out (its references owned by the caller: playerseq_step_free) says who sees it. */
void playerseq_advance(const json_t *base, int64_t base_seq, json_t *new_state, json_t *patch,
                       playerseq_step *out);

/* The seq of seat after the step's event (the public count for a seat without one of its own). */
int64_t playerseq_step_seat(const playerseq_step *s, const char *seat);

/* Drops the step's references; a zeroed step is a no-op. */
void playerseq_step_free(playerseq_step *s);

/* Whether an event's patch moved the seq of seat: 1 when it does (*intro = 1 when it is the op
 * that first added /gm/player_seq: before it, every seq was the campaign seq), else 0. */
int playerseq_moves_seat(const json_t *patch, const char *seat, int *intro);

/* 1 when the patch adds the seat `seat` (the event that made it: seat.join). */
int playerseq_patch_adds_seat(const json_t *patch, const char *seat);

#endif
