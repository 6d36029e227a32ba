/*
 * engine.h — the campaign engine: runs the one loop of a command (DESIGN.md).
 *
 * The engine owns every loaded campaign (state + seq), the connections' seats, the command
 * tables, idempotency and the group commit. A campaign is loaded on first use (a hello with one
 * of its tokens, a join with its code) from its snapshot and the events after it, and put away
 * (snapshot, file closed, memory freed) by engine_tick once it has been idle for a while: a
 * server holding 100 000 campaigns keeps only those in play. It knows nothing of sockets or event
 * loops: the transport (server/serve.c) hands it complete client messages and gives it a sink per
 * connection to send messages back and to ask for a close. That is what lets tests drive it with
 * a real SQLite file and recording sinks.
 *
 * Flow: engine_receive runs a command at once against the campaign's working state and appends
 * its event to the open batch; replies are held. A join waits for the end of the turn. engine_flush
 * (the transport calls it once per loop turn, before the loop sleeps) makes the turn's joins one
 * event per campaign, commits the batch — every command of a campaign in one COMMIT of its file
 * (storage/README.md) — and only then sends each event's diff to every seat of the campaign whose
 * view it changes (encoded once per audience: server/fanout.h), the ack/nack to each sender, and
 * the newcomers their welcome. If a campaign's COMMIT fails, its commands are answered with nack
 * internal and its working state is dropped: nothing unacknowledged is ever sent.
 *
 * Inside, a command is a pipeline with a file per step (decode → authorize → op → commit → fan
 * out): see server/engine_int.h.
 *
 * Not thread-safe: one engine runs on one thread (the loop).
 */
#ifndef TABLED_ENGINE_H
#define TABLED_ENGINE_H

#include <jansson.h>
#include <stdint.h>

#include "err.h"
#include "rng.h"
#include "store.h"

typedef struct engine engine;
typedef struct engine_conn engine_conn;

/* One encoded server message (a complete JSON text), reference-counted so that the same bytes
 * go to every socket of an audience: a diff is encoded once for everyone, once for the GM and
 * once per player whose private area it touches, never once per socket (issue 10). The text is
 * preceded by `head` writable bytes (engine_opts.headroom: lws's LWS_PRE), so the transport can
 * write it without a copy; the text itself never changes. Not thread-safe (one loop). */
typedef struct engine_msg {
    int refs;
    int lazy;            /* may wait in the socket's queue (at most ENGINE_LAZY_MS) until the
                            socket is written for another message: the others' news of a join
                            or presence burst (issue 26); never reordered */
    size_t len;          /* bytes of text, without a terminating NUL */
    size_t head;         /* bytes of headroom before text */
    unsigned char *text; /* = buf + head, NUL-terminated */
    unsigned char buf[];
} engine_msg;

/* Takes one more reference to m and returns it. */
engine_msg *engine_msg_ref(engine_msg *m);

/* Drops one reference; the last one frees m. NULL is a no-op. */
void engine_msg_unref(engine_msg *m);

/* How the engine reaches a connection. send lends msg for the call: a transport that queues it
 * takes its own reference (engine_msg_ref) and drops it when written or discarded. The engine
 * never calls a sink from inside engine_conn_closed. close asks the transport to close the
 * connection after what is queued was sent; the transport later calls engine_conn_closed. */
typedef struct engine_sink {
    void (*send)(void *ctx, engine_msg *msg);
    void (*close)(void *ctx, int ws_status, const char *reason);
} engine_sink;

typedef struct engine_opts {
    int snapshot_every;     /* events between snapshots; 0 (the default): by size, at least
                               100 events apart and once the events since the last snapshot
                               weigh as much as it did (commit.c) */
    double rate_per_sec;    /* commands per seat per second; 0 = unlimited (default 20) */
    double rate_burst;      /* bucket size (default 40) */
    int resume_max;         /* most diffs served on resume before a fresh state (default 1000) */
    size_t resume_max_bytes; /* most bytes of diffs served on resume before a fresh state
                                (default 2 MB; the server: half of a connection's send queue) */
    int log_cap;            /* newest entries kept in /log and /gm/log (default 200) */
    size_t headroom;        /* bytes free before every engine_msg's text (default 0) */
    int check_shared;       /* abort when a handler writes a subtree its row does not declare
                               (ops.h); costs a serialization of the state per command. Default:
                               on in the sanitizer build (TABLED_CHECK_SHARED), off otherwise */
    int join_free_per_addr; /* wrong join codes per address before delays start (default 5) */
    int max_per_seat;       /* connections welcomed at once as one player seat (default 8; 0: no
                               limit) */
    int max_seats;          /* player seats of one campaign (default 100; 0: no limit) */
    int seats_per_addr;     /* new seats one address makes before it must wait (default 20 an
                               hour; 0: no limit) */
    int join_free_all;      /* wrong join codes server-wide before delays start (default 50) */
    const char *history;    /* the database's history id (storage/history.h), copied; NULL or
                               "": none (a page's last_seq is then taken as it is) */
    int64_t test_clock_ms;  /* 0: commands see the wall clock; else the time event n of a
                               campaign sees is test_clock_ms + n seconds (--test-clock: runs
                               that compare bytes, tests/integration/noninterference.mjs) */
    int idle_close_ms;      /* a campaign nobody is connected to is put away after this long
                               (engine_tick; default 60 000) */
    int max_loaded;         /* more loaded campaigns than this: idle ones are put away at the
                               next engine_tick whatever their idle time (0: no bound) */
    int links_max;          /* engine_each_gm_link mints links for the first this many
                               campaigns (default 1 000: a start of a big host stays short; the
                               host's campaign.open links any other); 0: all */
    int burst_window_ms;    /* joins and presence changes of one campaign leave at most once per
                               this many ms (session.c): the first after a quiet window at once,
                               the later ones merged at the window's end (engine_due_ms). 0 (the
                               default here, what the engine tests drive): once per loop turn.
                               The server runs with ENGINE_BURST_WINDOW_MS */
    const char *shard;      /* --shard (server/route.h): new campaigns' ids are "<shard>-c…";
                               NULL: "c…" (borrowed: it outlives the engine) */
} engine_opts;

/* The burst window the server runs with (engine_opts.burst_window_ms; issue 26: a burst of 1 000
 * joins or resumes is about N x (its duration / window) frames, not N^2 / 2). */
#define ENGINE_BURST_WINDOW_MS 20

/* How long the transport may keep a lazy message (engine_msg.lazy) before it writes its socket
 * (issue 26: a join burst writes each seat already there once per ENGINE_LAZY_MS, not once per
 * burst window). */
#define ENGINE_LAZY_MS 100

/* Fills opts with the defaults above. */
void engine_opts_default(engine_opts *opts);

/* Changes the limits of a running engine (SIGHUP): rate_per_sec, max_per_seat, max_seats and
 * seats_per_addr of opts; the counts so far are kept. */
void engine_set_limits(engine *e, const engine_opts *opts);

/* Creates an engine over an open store (no campaign is loaded yet: each is loaded on first use).
 * dice draws every die; secret draws tokens, join codes and ids (always a CSPRNG in production).
 * All three are borrowed and must outlive the engine. *out is owned by the caller
 * (engine_destroy). */
int engine_create(store *st, rules_rng *dice, rules_rng *secret, const engine_opts *opts,
                  engine **out, tb_err *err);

/* Flushes, writes a snapshot of every loaded campaign whose last snapshot is older than its seq,
 * and frees the engine. Connections must have been closed first. NULL is a no-op. */
void engine_destroy(engine *e);

/* The host token for this run: a fresh token is minted, stored (hash only) and returned as a
 * new malloc'd string (caller frees). Earlier host tokens keep working. */
char *engine_mint_host_token(engine *e, tb_err *err);

/* A fresh random token (128 bits, base64url, 22 characters) from rng into out. */
void engine_mint_token(rules_rng *rng, char out[23]);

/* Creates the first campaign ("My campaign", system generic) when there is none. */
int engine_ensure_campaign(engine *e, tb_err *err);

/* Calls fn for every campaign (the first opt.links_max, oldest first) with a freshly minted GM
 * token and the current join code (NULL when joining is closed), from the registry (no campaign
 * is loaded for it). The strings are borrowed for the call. */
typedef void (*engine_link_fn)(void *ctx, const char *campaign_id, const char *name,
                               const char *gm_token, const char *join_code);
int engine_each_gm_link(engine *e, engine_link_fn fn, void *ctx, tb_err *err);

/* A new connection; the returned handle stays valid until engine_conn_closed. sink is copied,
 * ctx borrowed. */
engine_conn *engine_conn_open(engine *e, const engine_sink *sink, void *ctx);

/* The connection's remote address (copied; at most 63 bytes kept), the key of the limit on
 * failed joins per address. A connection without one is limited only server-wide. */
void engine_conn_set_peer(engine_conn *c, const char *addr);

/* The connection may not `join` (it was admitted into the places kept for the GM): a join gets
 * error rate_limited and a close 1013, and no seat is created. */
void engine_conn_refuse_join(engine_conn *c);

/* Who the connection is so far: the transport's limits (a deadline for hello, room kept for the
 * GM when the server is nearly full) ask. */
enum engine_seated { ENGINE_SEATED_NONE = 0, ENGINE_SEATED_PLAYER, ENGINE_SEATED_GM /* or host */ };
enum engine_seated engine_conn_seated(const engine_conn *c);

/* The transport lost or closed the connection. The handle must not be used afterwards. */
void engine_conn_closed(engine *e, engine_conn *c);

/* One complete client message (a text frame, all fragments joined). */
void engine_receive(engine *e, engine_conn *c, const char *buf, size_t len);

/* A message the transport refused before parsing (e.g. TB_TOO_LARGE, binary frame): answered
 * with error and counted against the connection's abuse budget. */
void engine_receive_refused(engine *e, engine_conn *c, tb_code code, const char *message);

/* Commits the commands of this loop turn and delivers their diffs and replies. Returns 1 when
 * there was something to flush. */
int engine_flush(engine *e);

/* Milliseconds until a burst window held by engine_flush ends (joins or presence changes waiting:
 * engine_opts.burst_window_ms), or -1 when nothing waits. The transport arms a timer for it: the
 * engine_flush of the turn it wakes sends what waited. */
int engine_due_ms(const engine *e);

/* Writes a snapshot of every loaded campaign at its current seq (clean shutdown). */
int engine_snapshot_all(engine *e, tb_err *err);

/* Puts away the campaigns idle for opt.idle_close_ms (or beyond opt.max_loaded): the transport
 * calls it about once a second. Returns how many were put away. */
int engine_tick(engine *e);

/* The open join code of the campaign whose GM seat holds `token` (for the join QR code over
 * HTTP, which a player must not be able to fetch). Writes code (NUL-terminated) and returns 0, or
 * TB_UNAUTHORIZED (unknown token), TB_FORBIDDEN (not a GM seat), TB_CONFLICT (joining closed). */
int engine_gm_join(engine *e, const char *token, char code[33], tb_err *err);

/* Counters for /healthz and /metrics: campaigns stored, campaigns loaded. engine_metrics_text
 * appends Prometheus text (metric families of the engine) to a new malloc'd string the caller
 * frees. */
int engine_campaign_count(const engine *e);
int engine_campaigns_loaded(const engine *e);
char *engine_metrics_text(const engine *e);

/* 1 when campaign id is stored here and was not released (a campaign moved in from another
 * process keeps its id, whose shard prefix names its first owner: serve.c lets it through). */
int engine_campaign_here(engine *e, const char *id);

/* The campaign's committed state (borrowed, loading the campaign if needed) and seq, or NULL
 * when unknown. For tests and tools. */
const json_t *engine_campaign_state(engine *e, const char *campaign_id, int64_t *seq);

#endif
