/*
 * engine_int.h — the engine's insides, shared by the files of its pipeline (not a public surface:
 * only server/engine*.c and the step files include it; everything else uses engine.h).
 *
 * One command goes through five steps, each in its own file:
 *   decode.c     engine_receive: the text frame parsed (protocol/) and dispatched;
 *   authorize.c  handle_cmd: seat, idempotency, rate limit, the op's row and its who/argument
 *                checks: every check once, before any handler runs;
 *   run_op.c     the handler on a copy-on-write working state (workcopy.h); host_ops.c for the
 *                host token's ops;
 *   commit.c     the event appended to the open transaction; engine_flush commits the turn's
 *                batch and releases its diffs and replies in arrival order;
 *   fanout.c     each diff to every seat, encoded once per audience.
 * session.c handles hello/join/welcome/resume and presence; engine.c the life cycle, connections,
 * metrics and the small helpers every step uses. Internal names read engine__verb.
 */
#ifndef TABLED_ENGINE_INT_H
#define TABLED_ENGINE_INT_H

#include <jansson.h>
#include <stdint.h>

#include "engine.h"
#include "joinlimit.h"
#include "playerseq.h"
#include "ops.h"
#include "protocol.h"

/* What a page of a campaign released to another process is told (error moved, host_ops.c). */
#define ENGINE_MOVED_MSG "this table is moving to another server; your page reconnects by itself"

/* ROLE_CREATOR: a creation code's connection (storage/invites.h, host_ops.c): campaign.create
 * alone, as many times as its invite allows */
enum role { ROLE_NONE = 0, ROLE_HOST, ROLE_GM, ROLE_PLAYER, ROLE_CREATOR };

/* Run-time facts about a seat that are not part of the state: presence and the rate bucket. */
typedef struct seat_rt {
    char *id;
    int online;    /* connections welcomed as this seat */
    int told;      /* whether the campaign's seats were last told it is online */
    int retell;    /* a newcomer's whole list said online != told: the next presence names it */
    double tokens; /* rate-limit bucket */
    uint64_t last_ns;
    struct seat_rt *next;
    struct seat_rt *hnext; /* campaign.seat_tab chain */
} seat_rt;

/* A join waiting for the end of its loop turn (session.c): the joins of one campaign in one turn
 * are one event, fanned out once. */
typedef struct joiner {
    engine_conn *conn;
    struct campaign *camp;
    char *name;
    char token[23];
    char *seat; /* the new seat, once run */
    tb_err why; /* why its seat.join refused it (why.code != 0), told at the welcome */
    struct joiner *next;
} joiner;

/* A welcome's state encoded once per audience and seq (session.c): the GM's, and a player's
 * who has no private area (every such player sees the same bytes). */
typedef struct welcome_cache {
    int64_t seq;             /* -1: empty */
    engine_msg *gm, *player; /* the state's text only (no headroom), NULL until first asked */
    engine_msg *presence;    /* the whole presence list's message (headroom) */
    uint64_t presence_ver;
    struct encmemo *memo; /* subtree texts kept across seqs (encmemo.h; NULL until a welcome):
                             not emptied by engine__welcome_cache_clear */
    /* the presence list's text without its flags (session.c presence_msg), kept while the state's
     * /seats object is the same (pl_seats, a reference held: its address is no other's): keys[
     * off[i], off[i+1]) is seat i's `,"id":`, rt[i] its seat_rt (looked up again when the campaign
     * made a seat_rt since: pl_nrt). Freed by engine__presence_text_free, not by the clear. */
    json_t *pl_seats;
    char *pl_keys;
    size_t *pl_off;
    struct seat_rt **pl_rt;
    size_t pl_n, pl_nrt;
} welcome_cache;

/* The tail of a campaign's event log as resumes read it (session.c): the events (lo, hi], each
 * decoded once with its fan-out (its ops split and encoded once, framed per seq), shared by
 * every seat that resumes over them while the campaign's seq is hi (issue 26: a burst of N
 * resumes reads and encodes each event once, not N times). */
typedef struct resume_ev {
    int64_t seq;
    json_t *patch;
    struct fanout *f; /* made on first use */
} resume_ev;
typedef struct resume_cache {
    int64_t lo, hi;
    resume_ev *ev; /* ev[i] is event lo + 1 + i */
    size_t n;
} resume_cache;

/* A loaded campaign (engine.c: loaded on first use, put away when idle). */
typedef struct campaign {
    char *id;
    json_t *state; /* committed */
    int64_t seq;
    json_t *work; /* state after this turn's uncommitted events; NULL when none */
    int64_t work_seq;
    int64_t snap_seq;       /* seq of the newest snapshot written (or under way) */
    size_t snap_bytes;      /* its size (0: unknown) */
    size_t tail_bytes;      /* bytes of the patches appended since */
    int fresh;              /* created in the open transaction: dropped if it rolls back */
    int changed;            /* its state changed in the batch being delivered */
    int seat_gone;          /* an event of the batch removed a seat (its connections go) */
    int presence_due;       /* a seat went online or offline since the seats were last told */
    int in_work;            /* on engine.work: written in the open batch */
    int batch_ok;           /* what the last batch wrote to its file committed (engine_flush) */
    int settled;            /* engine_flush has published or dropped what the batch made of it */
    int releasing;          /* campaign.release ran in the open batch (host_ops.c) */
    int moved;              /* released: no hello, join or command reaches it; put away soon */
    uint64_t idle_since_ns; /* when its last connection left (0: it has some, or just loaded) */
    engine_conn *conns;
    seat_rt *seats;
    seat_rt **seat_tab; /* the same by id: a chained hash table of seat_cap (0: none yet) */
    size_t seat_cap, nseat_rt;
    joiner *joiners, **joiners_tail; /* this turn's joins, in arrival order */
    welcome_cache wc;
    resume_cache rcache;
    struct roster *roster;   /* player count and seat names (roster.h); NULL until a join asks */
    uint64_t presence_ver;   /* changes whenever a seat goes online or offline */
    uint64_t burst_until_ns; /* the burst window (session.c): joins and presence wait until then */
    uint64_t burst_turn;     /* the engine.turn that opened it: what it sends leaves together */
    int joins_now;           /* a joiner spoke: its campaign's joins run at the next flush */
    int in_joins;            /* on engine.joins */
    struct campaign *hnext;  /* engine.tab chain */
    struct campaign *prev, *next;   /* engine.loaded, in load order */
    struct campaign *work_next;     /* engine.work */
    struct campaign *presence_next; /* engine.presence */
    struct campaign *joins_next;    /* engine.joins */
    struct campaign *release_next;  /* engine.releases */
} campaign;

struct engine_conn {
    engine *eng;
    engine_sink sink;
    void *ctx;
    size_t headroom; /* engine_opts.headroom */
    enum role role;
    campaign *camp; /* NULL for the host and before hello */
    char *seat;
    int dead;
    int closing;
    int joins;
    char peer[64];       /* remote address ("" when the transport gave none) */
    int no_join;         /* admitted into the room kept for the GM: join is refused */
    int bad;             /* refused messages in the current window */
    uint64_t bad_since;  /* start of the window */
    seat_rt host_bucket; /* the host has no campaign: its bucket lives here */
    engine_conn *camp_next;
    engine_conn *all_prev, *all_next; /* engine.conns */
    engine_conn *dead_next;           /* engine.dead: closed while a reply was held */
    joiner *joining;                  /* its join, waiting for the end of the turn */
};

/* One held reply or event of the open batch, in arrival order. */
typedef struct pending {
    engine_conn *conn; /* the sender; replies skip it if it died meanwhile */
    campaign *camp;    /* events only */
    int64_t seq;       /* events only */
    int64_t pseq;      /* events only: the sender seat's seq after it (server/playerseq.h) */
    playerseq_step ps; /* events only: who sees it, each seat's seq after it (its references) */
    int64_t ack_entry; /* a command: the `entry` of its ack (0: none); set before the event (a
                          player's is dropped when it equals its seq) */
    int ack_pseq;      /* a player's command: its ack carries pseq, not seq; set likewise */
    json_t *patch;     /* events only */
    char *patch_text;  /* events only: the patch's compact text, as stored */
    size_t patch_len;
    size_t *op_at;           /* events only: where each op's text starts in it (and last its ']') */
    const char *result_text; /* a command: its result's compact text (result_len bytes), stored
                                as it is; set before the event (NULL: result is encoded) */
    size_t result_len;
    char *reply; /* ack/nack text for the sender, may be NULL */
    char *cmd_id;
    char *op_label; /* metrics: the op, or "unknown" */
    char *outcome;  /* metrics: "ack" or the nack code */
    uint64_t t0_ns;
    int needs_host;      /* the reply stands on a host-file write (a token, a registration) */
    joiner *joins;       /* a join event's joiners: welcomed once the batch is delivered */
    int ok;              /* (joins) whether the event committed */
    campaign *idem_camp; /* the campaign whose file recorded the reply, or NULL */
    struct pending *next;
} pending;

#define N_BUCKETS 12

typedef struct counter {
    char *op;
    char *outcome;
    uint64_t n;
    struct counter *next;
} counter;

struct engine {
    store *st;
    struct encmemo *results; /* the running command's result: the texts of its containers, for
                                its event's patch (run_op.c; emptied after the event) */
    rules_rng *dice;
    rules_rng *secret;
    engine_opts opt;
    campaign **tab; /* loaded campaigns by id: a chained hash table */
    size_t ntab, nloaded;
    campaign *loaded;    /* every loaded campaign, oldest first (a ring: loaded->prev is last) */
    campaign *work;      /* campaigns written in the open batch (dirty list) */
    campaign *presence;  /* campaigns with presence_due */
    campaign *joins;     /* campaigns with joiners this turn */
    campaign *releases;  /* campaigns released in the open batch (host_ops.c) */
    int64_t n_campaigns; /* registered (the registry's count, kept up to date) */
    engine_conn *conns;
    engine_conn *dead; /* closed while the batch held a reply for them: freed after it */
    pending *head, *tail;
    int batch_failed;
    uint64_t turn;            /* engine_flush calls so far */
    joinlimit *join_by_addr;  /* failed joins per remote address */
    joinlimit *join_all;      /* failed joins against every campaign of this server */
    joinlimit *seats_by_addr; /* seats made per address (opt.seats_per_addr an hour) */
    char history[65];         /* opt.history, copied ("" when none) */
    /* metrics */
    counter *counters;
    uint64_t hist[N_BUCKETS + 1];
    double hist_sum;
    uint64_t hist_count;
    uint64_t commits;
};

struct host_op;

/* engine.c — small helpers, connections, life cycle, metrics */
int engine__str_eq(const char *a, const char *b);
uint64_t engine__mono_ns(void);
int64_t engine__wall_ms(void);
int64_t engine__command_ms(const engine *e, int64_t seq);
char *engine__dump_free(json_t *msg);
void engine__send_shared(engine_conn *c, engine_msg *m);
void engine__send_text(engine_conn *c, const char *text);
void engine__send_msg(engine_conn *c, json_t *msg);
void engine__send_error(engine_conn *c, tb_code code, const char *message);
void engine__close_conn(engine_conn *c, int status, const char *reason);
void engine__mint_token(rules_rng *rng, char out[23]);
void engine__mint_id(rules_rng *rng, char out[11]);
campaign *engine__find_campaign(const engine *e, const char *id);
campaign *engine__campaign_get(engine *e, const char *id, tb_err *err);
void engine__mark_work(engine *e, campaign *k);
void engine__mark_presence(engine *e, campaign *k);
void engine__campaign_add(engine *e, campaign *k);
void engine__campaign_drop(engine *e, campaign *k);
json_t *engine__current_state(const campaign *k);
int64_t engine__current_seq(const campaign *k);
seat_rt *engine__seat_rt_get(campaign *k, const char *id);
seat_rt *engine__seat_rt_find(const campaign *k, const char *id);
void engine__count_outcome(engine *e, const char *op, const char *outcome);
void engine__observe_latency(engine *e, uint64_t t0);
void engine__free_campaign(campaign *k);
void engine__reap_dead(engine *e);

/* decode.c — step 1: a client message parsed and dispatched */
void engine__count_bad(engine_conn *c);

/* session.c — hello, join, welcome, resume and presence */
void engine__presence_flush(engine *e);
void engine__joins_run(engine *e);
void engine__joins_welcome(engine *e, joiner *list, int ok);
int engine__joiner_gone(engine_conn *c);
void engine__joiners_drop(campaign *k);
void engine__welcome_cache_clear(welcome_cache *wc);
void engine__presence_text_free(welcome_cache *wc);
void engine__join_now(engine *e, engine_conn *c);
void engine__resume_cache_clear(resume_cache *rc);
void engine__detach(engine_conn *c);
void engine__handle_hello(engine *e, engine_conn *c, const proto_msg *m);
void engine__handle_join(engine *e, engine_conn *c, const proto_msg *m);

/* authorize.c — step 2: who may do what, before anything runs */
void engine__handle_cmd(engine *e, engine_conn *c, const proto_msg *m);

/* run_op.c — step 3: the handler on a copy-on-write working state */
int engine__run_handler(engine *e, const op_def *def, const op_ctx *ctx, json_t *base,
                        const json_t *args, json_t **result, json_t **work, tb_err *err);
void engine__run_campaign_op(engine *e, engine_conn *c, campaign *k, const op_def *def,
                             const char *cmd_id, const json_t *args);
campaign *engine__create_campaign(engine *e, const char *name, const char *system,
                                  char gm_token[23], char join_code[10], pending *p, tb_err *err);

/* host_ops.c — the host token's command table */
const struct host_op *engine__host_op_find(const char *name);
void engine__run_host_op(engine *e, engine_conn *c, const char *op, const char *cmd_id,
                         const json_t *raw_args);
char *engine__replay_host_reply(engine *e, char *stored);
void engine__releases_run(engine *e);
void engine__run_creator_op(engine *e, engine_conn *c, const char *op, const char *cmd_id,
                            const json_t *raw_args);

/* commit.c — step 4: the event appended, the batch committed, replies released */
pending *engine__push_pending(engine *e, engine_conn *c, const char *cmd_id, const char *op_label);
int engine__ensure_tx(engine *e, tb_err *err);
void engine__hold_nack(engine *e, engine_conn *c, const char *idem_campaign, const char *cmd_id,
                       const char *op_label, const tb_err *why);
int engine__append_event(engine *e, campaign *k, const char *seat, const char *op,
                         const char *cmd_id, const json_t *args, const json_t *result,
                         json_t *new_state, int64_t now_ms, pending *p, tb_err *err);

/* fanout.c — step 5: diffs to every seat, encoded once per audience; lazy: the messages may
 * wait in the transport (engine_msg.lazy: a join event's news to the seats already there) */
void engine__fan_out(campaign *k, int64_t seq, const playerseq_step *ps, const json_t *patch,
                     const char *patch_text, size_t patch_len, const size_t *op_at, size_t headroom,
                     int lazy);
#endif
