/*
 * err.h — the one way to fail, shared by every module (rules, protocol, storage, server).
 *
 * A function that can fail takes a `tb_err *` (may be NULL when the caller does not care about
 * the message), returns 0 (TB_OK) on success or one of the codes below, and on failure fills the
 * struct with the same code and a sentence a person can read. The codes are the wire protocol's
 * error codes (protocol/PROTOCOL.md, "Error codes"), so an error travels to a client unchanged.
 *
 * Messages must never contain a secret (a token, a /gm value): they may be sent to a player.
 *
 * Allocation failure is not an error code: xmalloc and friends abort the process.
 */
#ifndef TABLED_ERR_H
#define TABLED_ERR_H

#include <stddef.h>

typedef enum tb_code {
    TB_OK = 0,
    TB_BAD_REQUEST,
    TB_UNAUTHORIZED,
    TB_FORBIDDEN,
    TB_NOT_FOUND,
    TB_CONFLICT,
    TB_RULE,
    TB_RATE_LIMITED,
    TB_TOO_LARGE,
    TB_INTERNAL,
    TB_MOVED, /* the campaign moved to another process: retry (the router will send you there) */
} tb_code;

#define TB_ERR_MSG_MAX 256

typedef struct tb_err {
    tb_code code;
    char msg[TB_ERR_MSG_MAX];
} tb_err;

/* Fills *err (if not NULL) with code and a printf-formatted message; returns code. */
int tb_fail(tb_err *err, tb_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Resets *err to TB_OK with an empty message. */
void tb_err_clear(tb_err *err);

/* The wire name of a code ("bad_request", ...). Static string, never NULL. */
const char *tb_code_name(tb_code code);

/*
 * Takes rulebook line references ("000:37", "001:294-296", "001:123, 574") out of text a person
 * reads and collects them in cite (issue 15: line references belong in RULES.md and a tooltip, not
 * in the table's sentences). A parenthesised group that held only references goes with the space
 * before it ("takes cover (000:123): Resist" -> "takes cover: Resist"); a group with words keeps
 * them ("(weapon damage, 001:123)" -> "(weapon damage)"); a reference outside parentheses goes
 * with the space before it. A reference is three digits, a colon and a line number (a range, and
 * bare line numbers after a comma, belong to it), not preceded by a letter or digit. text is
 * rewritten in place (it only shrinks); cite (cap bytes, may be NULL when cap is 0) receives the
 * references joined by ", ", truncated to fit, "" when none. Returns how many were taken out.
 */
int tb_cite_strip(char *text, char *cite, size_t cap);

/* Allocation wrappers: never return NULL; abort with a message on exhaustion. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
