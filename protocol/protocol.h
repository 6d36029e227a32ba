/*
 * protocol.h — the wire format of tabled, the whole surface of protocol/.
 *
 * Three parts, all pure functions over jansson trees (no I/O, no global state):
 *   1. JSON Pointer (RFC 6901) and JSON Patch (RFC 6902): canonical diff and atomic apply.
 *   2. Visibility: which parts of a campaign state and of a patch a viewer may receive
 *      (DESIGN.md, "State and visibility").
 *   3. Messages: client messages parsed and validated into typed structs; server messages built
 *      (shared/PROTOCOL.md, "Client → server" and "Server → client").
 *
 * Ownership follows jansson's words: a "new reference" is the caller's to json_decref; a
 * "borrowed" reference lives as long as its container; a "stolen" argument belongs to the callee
 * from the call on, also when the call fails.
 */
#ifndef TABLED_PROTOCOL_H
#define TABLED_PROTOCOL_H

#include <stddef.h>

#include <jansson.h>

#include "err.h"

/* ---------------------------------------------------------------------------------------------
 * JSON Pointer (RFC 6901)
 */

/* A parsed pointer: n unescaped reference tokens ("~1" → "/", "~0" → "~"). "" has n == 0. */
typedef struct proto_pointer {
    size_t n;
    char **tokens; /* owned: n strings, each owned */
} proto_pointer;

/*
 * Parses `path` into *out. Returns 0, or TB_BAD_REQUEST (err filled, *out left empty) when path
 * is NULL, is not "" and does not start with '/', or has a '~' not followed by '0' or '1'.
 * On success the caller releases *out with proto_pointer_free.
 */
int proto_pointer_parse(const char *path, proto_pointer *out, tb_err *err);

/* Frees the tokens of *p and empties it. Safe on an empty or already freed pointer. */
void proto_pointer_free(proto_pointer *p);

/*
 * The value `path` points at in `doc`, or NULL when the pointer is malformed or names nothing.
 * Array indexes must be "0" or a decimal without leading zeros ("-" names nothing here).
 * Borrowed reference: it lives as long as doc's subtree does.
 */
json_t *proto_pointer_get(const json_t *doc, const char *path);

/*
 * Index of an array reference token: 0 and *index set when `token` is "0" or [1-9][0-9]* and
 * fits in a size_t; -1 otherwise (also for "-").
 */
int proto_pointer_index(const char *token, size_t *index);

/* ---------------------------------------------------------------------------------------------
 * Compact JSON text (jsonenc.c)
 */

/* A growing byte buffer: data (malloc'd, the owner's to free) holds len bytes of cap. A zeroed
 * struct is an empty buffer. */
typedef struct proto_buf {
    char *data;
    size_t len, cap;
} proto_buf;

void proto_buf_reserve(proto_buf *b, size_t more);
void proto_buf_add(proto_buf *b, const char *s, size_t n);
void proto_buf_addc(proto_buf *b, char c);
void proto_buf_add_int(proto_buf *b, long long v);
/* Appends s (n bytes, valid UTF-8) as a JSON string, quoted and escaped as jansson does. */
void proto_buf_add_string(proto_buf *b, const char *s, size_t n);

/* Appends the compact JSON text of v: byte for byte what json_dumps(v, JSON_COMPACT |
 * JSON_ENCODE_ANY) writes, without its loop check and without snprintf per integer (several
 * times faster). v is borrowed. */
void proto_json_append(proto_buf *b, const json_t *v);

/* The compact JSON text of v as a new malloc'd NUL-terminated string (caller frees); *len (may be
 * NULL) gets its length. */
char *proto_json_dump(const json_t *v, size_t *len);

/* ---------------------------------------------------------------------------------------------
 * JSON Patch (RFC 6902)
 */

/*
 * A canonical patch turning old_doc into new_doc (both borrowed, not NULL, never modified). New
 * reference: a JSON array of operations, empty when the documents are equal (json_equal). Only
 * "add", "remove" and "replace" are produced, with explicit array indexes (never "-"); values are
 * deep copies, so the result shares nothing with the inputs. The same inputs give the same patch
 * byte for byte (object keys in strcmp order).
 *
 * Objects recurse per key; a value whose type changes is replaced. Arrays: the common prefix and
 * suffix are kept; if the rest of old, with its first k elements dropped (0 < k < its length),
 * is a prefix of the rest of new, the patch is k "remove"s and then "add"s (a capped log that
 * gained one entry and lost its oldest costs two ops); otherwise common indexes recurse, surplus
 * old elements are removed from the highest index down and new ones added by index.
 * A root whose type changes (or a changed scalar root) is one "replace" at path "".
 * Cost: a subtree that is the same pointer in both documents is skipped at once, so diffing two
 * states that share what did not change (copy-on-write) costs only what changed.
 * Object keys containing a NUL byte are not supported.
 */
json_t *proto_patch_diff(const json_t *old_doc, const json_t *new_doc);

/* The same patch, whose values are new_doc's own subtrees (new references to them), not copies:
 * for documents that are never changed once made (the engine's committed states, server/
 * workcopy.h), where a copy would cost what the value weighs. Never change a value of it. */
json_t *proto_patch_diff_shared(const json_t *old_doc, const json_t *new_doc);

/*
 * Applies `patch` (all six RFC 6902 ops; "-" appends in add/move/copy; "" is the root) to a deep
 * copy of `doc`; doc is never modified. Returns a new reference to the patched copy, or NULL with
 * err set, and then nothing was changed (atomic):
 *   TB_BAD_REQUEST  patch is not an array, an op is not an object, has no or an unknown "op",
 *                   a missing or malformed "path"/"from", a missing "value", removes the root,
 *                   or moves a value into one of its own children;
 *   TB_CONFLICT     a path that does not exist (or whose parent does not), an array index out
 *                   of range, or a "test" whose value differs (numbers compare numerically).
 * The message names the op's index and path (paths cut to 60 bytes), never a value.
 */
json_t *proto_patch_apply(const json_t *doc, const json_t *patch, tb_err *err);

/* ---------------------------------------------------------------------------------------------
 * Visibility (DESIGN.md "State and visibility"): decided by path alone.
 *   /gm/...                GM only
 *   /private/<seat>/...    that seat and the GM
 *   everything else        everyone
 * The first two tokens are compared after unescaping, as whole tokens: "/gmx" is public.
 */

typedef struct proto_viewer {
    const char *seat; /* borrowed; the viewer's seat id, NULL for none */
    int is_gm;
} proto_viewer;

/*
 * 1 if viewer v may see everything at and under `path`, else 0. The GM sees every path. For
 * others, "" and "/private" are 0 (they contain hidden areas), and so is a malformed or NULL
 * pointer; a NULL v sees nothing.
 */
int proto_path_visible(const char *path, const proto_viewer *v);

/*
 * The state as viewer v may see it. state and v borrowed (state NULL → NULL). New reference: a
 * new top-level object (and "private" object) whose values are `state`'s own, shared by
 * reference: the caller serializes it and must not change it (committed states are immutable,
 * server/workcopy.h). For a non-GM viewer and an object state, "gm" is removed and "private"
 * keeps only the viewer's own key (a "private" that is not an object becomes {}: nothing there is
 * everyone's). The GM gets a shallow copy; a non-object state is copied as is.
 */
json_t *proto_filter_state(const json_t *state, const proto_viewer *v);

/*
 * The ops of the patch `ops` (borrowed) viewer v may receive. New reference: a new array; an op
 * kept unchanged is shared with `ops` by reference (patches are never changed once made), one
 * with a filtered value is new (the GM gets a deep copy of every op). For a non-GM viewer:
 *   - an op at or under a hidden area is dropped (so is any "test" not on a visible path);
 *   - "add"/"replace" at "" or "/private" is kept with its value filtered (proto_filter_state for
 *     the root; for "/private" an object with only the viewer's key, as in proto_filter_state);
 *     "remove" of those is kept as is;
 *   - "move" from a visible path to a hidden one becomes "remove" of "from"; "copy" to a hidden
 *     path is dropped; move/copy with both ends hidden is dropped.
 * Returns NULL when the patch cannot be filtered: `ops` is not an array, an op is not an object
 * with string "op" and "path" (and "from" for move/copy), or a "move"/"copy" reads a path hidden
 * from the viewer (or "" / "/private") into a path it may see, or writes to "" or "/private" —
 * that cannot be told without the hidden value. Callers treat NULL as an internal error; the
 * engine's patches (proto_patch_diff) never contain move or copy.
 */
json_t *proto_filter_patch(const json_t *ops, const proto_viewer *v);

/*
 * Splits the patch `ops` (borrowed) once into what the players receive, so each audience's
 * message is encoded once and not once per viewer (issue 10):
 *   *everyone  a new array: the ops a player receives whose private area the patch does not
 *              touch (the same as proto_filter_patch for such a viewer; may be empty);
 *   *touched   a new object whose keys are the seats with an op at or under /private/<seat> (each
 *              such seat receives proto_filter_patch(ops, that seat) instead; values are true),
 *              or NULL when there is none (jansson's getters take NULL as an empty object).
 * Returns 0; 1 when an op at "" or "/private" makes every player's view its own (both outputs
 * NULL: filter per viewer); -1 when ops cannot be filtered (see proto_filter_patch; outputs NULL).
 * The GM's audience is always the whole patch.
 */
int proto_patch_audiences(const json_t *ops, json_t **everyone, json_t **touched);

/* ---------------------------------------------------------------------------------------------
 * Messages (shared/PROTOCOL.md)
 */

typedef enum proto_msg_type { PROTO_HELLO = 1, PROTO_JOIN, PROTO_CMD, PROTO_PING } proto_msg_type;

typedef struct proto_msg {
    proto_msg_type t;
    json_t *root; /* owned: the parsed message; the strings below point into it */

    /* hello */
    const char *token;
    int has_last_seq;
    long long last_seq;
    const char *history; /* NULL when absent: the history the client's last_seq belongs to */

    /* join */
    const char *code;
    const char *name; /* trimmed of surrounding ASCII whitespace */

    /* cmd */
    const char *id;
    const char *op;
    json_t *args; /* borrowed from root; {} when absent */

    /* ping */
    json_t *n; /* borrowed, NULL when absent */
} proto_msg;

/*
 * Parses one client message of `len` bytes (not NUL-terminated) into *out, which is overwritten
 * (clear a previous message first). Returns 0, and *out owns the parsed tree (release it with
 * proto_msg_clear); or TB_BAD_REQUEST with err set and *out zeroed. Checks:
 *   - valid JSON (UTF-8, no NUL, no duplicate keys), an object with a string "t" that is
 *     "hello", "join", "cmd" or "ping";
 *   - hello: "v" == 1, "token" 16..256 base64url characters, optional integer "last_seq" >= 0,
 *     optional "history" 1..64 base64url characters;
 *   - join: "code" 1..32 characters; "name" 1..40 characters (code points) after trimming ASCII
 *     whitespace, no control characters;
 *   - cmd: "id" 1..64 printable ASCII characters, "op" 1..64 characters of [a-z][a-z0-9_.]*,
 *     optional object "args";
 *   - ping: optional number "n".
 * Extra fields are ignored. The message never contains a token; other strings are quoted cut to
 * 40 bytes.
 */
int proto_parse_client(const char *buf, size_t len, proto_msg *out, tb_err *err);

/* Releases m->root and zeroes *m. Safe on a zeroed or already cleared struct. */
void proto_msg_clear(proto_msg *m);

/*
 * Server message builders. Each returns a new reference to an object with "t" set, ready for
 * json_dumps(JSON_COMPACT). A json_t argument marked stolen is owned by the builder from the call
 * on; a NULL one becomes JSON null unless said otherwise. String arguments are borrowed and
 * copied; bytes that are not valid UTF-8 are replaced by '?' (a NULL string becomes "").
 */

/*
 * {"t":"welcome","seat","campaign","seq", and "state" — or "resume":true when state is NULL}.
 * seat, campaign and state stolen.
 */
json_t *proto_msg_welcome(json_t *seat, json_t *campaign, long long seq, json_t *state);

/* {"t":"diff","seq","ops"}; ops stolen, NULL → [] */
json_t *proto_msg_diff(long long seq, json_t *ops);

/* {"t":"ack","id","seq","result"}; seq < 0 → null (read-only op); result stolen, NULL → null */
json_t *proto_msg_ack(const char *id, long long seq, json_t *result);

/* The same ack as text (malloc'd, NUL-terminated), with "entry" after the result when entry is
 * not 0, and the result given as its compact encoding (result_len bytes, borrowed; NULL: null),
 * copied rather than encoded again: the engine stores that text in the event row too (issue 26).
 * The bytes are those of proto_msg_ack's encoding (+ entry). id: valid UTF-8, or NULL for "". */
char *proto_ack_text(const char *id, long long seq, const char *result_text, size_t result_len,
                     long long entry);

/* {"t":"nack","id","code","message","cite"?}; code as tb_code_name; the message's rulebook line
 * references move to `cite` (tb_cite_strip), which is present only when there were some */
json_t *proto_msg_nack(const char *id, tb_code code, const char *message);

/* {"t":"error","code","message","cite"?}: the message as for proto_msg_nack */
json_t *proto_msg_error(tb_code code, const char *message);

/* {"t":"joined","token","seat"} */
json_t *proto_msg_joined(const char *token, const char *seat);

/* {"t":"presence","seats"}; seats stolen ({seat id: online}), NULL → {} */
json_t *proto_msg_presence(json_t *seats);

/* {"t":"pong","n"}; n borrowed (copied), NULL → null */
json_t *proto_msg_pong(json_t *n);

/*
 * Length in bytes of the longest prefix of s, at most max bytes, that ends on a UTF-8 code point
 * boundary; for cutting strings quoted in error messages. s borrowed, NULL → 0.
 */
size_t proto_utf8_prefix(const char *s, size_t max);

#endif
