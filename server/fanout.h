/*
 * fanout.h — the last step of a command: its diff to every seat, encoded once per audience.
 *
 * A committed patch has at most these audiences: the GM (the whole patch), every player whose
 * private area it does not touch (the public ops), and each player whose /private/<seat> it
 * touches (proto_patch_audiences). Each audience's ops are encoded once, on first use; a player's
 * `diff` carries its own seat's seq (server/playerseq.h), so the public ops' text is framed once
 * per distinct seq into a reference-counted engine_msg that every socket of that seq queues as
 * is (at a table where nobody was told anything alone, that is one message for every player).
 * An audience whose view is empty gets nothing at all (issue 11: an empty diff would tell the
 * table that the GM did something secret); the seqs a seat receives count exactly the diffs it
 * receives (issue 29).
 *
 * Internal to server/: fanout_* are pure apart from malloc; engine__fan_out (engine_int.h), the
 * pipeline's last step, walks a campaign's connections with them.
 */
#ifndef TABLED_FANOUT_H
#define TABLED_FANOUT_H

#include <jansson.h>
#include <stdint.h>

#include "engine.h"
#include "playerseq.h"
#include "protocol.h"

typedef struct fanout fanout;

/* A fan-out of one event: patch borrowed (it must outlive the fanout), patch_text its compact
 * text (patch_len bytes; borrowed likewise; NULL: encoded when needed), seq its seq (the GM's
 * diff carries it), ps what it does for the players (borrowed likewise: the audiences, and each
 * seat's seq after it, server/playerseq.h; NULL: the audiences are worked out here and every
 * player's diff carries pseq), headroom the engine_msg headroom. Owned by the caller
 * (fanout_end). */
fanout *fanout_begin(const json_t *patch, const char *patch_text, size_t patch_len, int64_t seq,
                     const playerseq_step *ps, int64_t pseq, size_t headroom);

/* Where each op's text starts in patch_text (json_array_size(patch) + 1 offsets, the last that
 * of its closing ']'; borrowed like patch_text): a view that hides some first and last ops is then
 * cut out of the text without encoding them. */
void fanout_ops_at(fanout *f, const size_t *op_at);

/* The diff for a viewer (seat borrowed; is_gm for the GM's seat): borrowed, valid until
 * fanout_end, or NULL when the viewer's view of the patch is empty (send nothing). */
engine_msg *fanout_for(fanout *f, const char *seat, int is_gm);

/* The same with the seq a player's diff carries given (a resume knows each seat's seq at each
 * event: server/session.c); the GM's carries the event's. A seat's own view is kept per seat, the
 * public one per seq, so one fanout serves every seat that resumes over its event. */
engine_msg *fanout_for_seq(fanout *f, const char *seat, int is_gm, int64_t seq);

/* Frees f and drops its references to the messages (queued ones live on). NULL is a no-op. */
void fanout_end(fanout *f);

/* A new message (one reference) holding a copy of the len bytes of text after headroom bytes. */
engine_msg *fanout_msg_new(size_t headroom, const char *text, size_t len);

/* A new message holding the compact JSON text of msg (borrowed), encoded in place. */
engine_msg *fanout_msg_json(size_t headroom, const json_t *msg);

/* Building a message in place: fanout_msg_open makes b (empty) hold the room for the message's
 * header and headroom; append the text with proto_buf_*; fanout_msg_close turns b into the
 * message (one reference) and empties it. */
void fanout_msg_open(proto_buf *b, size_t headroom);
engine_msg *fanout_msg_close(proto_buf *b, size_t headroom);

#endif
