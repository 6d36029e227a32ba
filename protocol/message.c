/*
 * message.c — client messages parsed and validated once, here, into a proto_msg; server messages
 * built here. Every validation failure is TB_BAD_REQUEST with a message that may go straight to
 * the client, so a message never quotes a token and quotes other strings cut short.
 */
#include "protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest client string quoted in an error message, in bytes. */
#define QUOTE_MAX 40

/* --- UTF-8 ------------------------------------------------------------------------------------ */

/*
 * Decodes the code point starting at s (at most `avail` bytes). Returns its length in bytes and
 * sets *cp, or returns 0 for an invalid sequence (overlong, surrogate, > U+10FFFF, truncated).
 */
static size_t utf8_next(const unsigned char *s, size_t avail, unsigned *cp)
{
    unsigned c = s[0], v, min;
    size_t len;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len > avail)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

size_t proto_utf8_prefix(const char *s, size_t max)
{
    if (!s)
        return 0;
    size_t total = strlen(s), i = 0;
    while (i < total) {
        unsigned cp;
        size_t n = utf8_next((const unsigned char *)s + i, total - i, &cp);
        if (n == 0)
            n = 1; /* an invalid byte counts as one character */
        if (i + n > max)
            break;
        i += n;
    }
    return i;
}

/* s quoted for an error message into buf: cut to QUOTE_MAX bytes on a code point, "..." if cut. */
static const char *quoted(const char *s, char *buf, size_t size)
{
    size_t n = proto_utf8_prefix(s, QUOTE_MAX);
    snprintf(buf, size, "'%.*s%s'", (int)n, s, s[n] ? "..." : "");
    return buf;
}

/* A JSON string of s (NULL → ""), with bytes that are not valid UTF-8 replaced by '?'. */
static json_t *safe_string(const char *s)
{
    if (!s)
        return json_string("");
    json_t *j = json_string(s);
    if (j)
        return j;
    size_t len = strlen(s), i = 0;
    char *copy = xmalloc(len + 1);
    while (i < len) {
        unsigned cp;
        size_t n = utf8_next((const unsigned char *)s + i, len - i, &cp);
        if (n == 0) {
            copy[i++] = '?';
        } else {
            memcpy(copy + i, s + i, n);
            i += n;
        }
    }
    copy[len] = '\0';
    j = json_string(copy);
    free(copy);
    return j;
}

/* --- parsing ---------------------------------------------------------------------------------- */

static const char *json_error_what(const json_error_t *e)
{
    switch (json_error_code(e)) {
    case json_error_invalid_utf8:
        return "invalid UTF-8";
    case json_error_duplicate_key:
        return "duplicate key";
    case json_error_null_character:
    case json_error_null_byte_in_key:
        return "NUL character";
    case json_error_premature_end_of_input:
        return "unexpected end of input";
    case json_error_end_of_input_expected:
        return "unexpected data after the message";
    case json_error_stack_overflow:
        return "nested too deeply";
    case json_error_numeric_overflow:
        return "number out of range";
    default:
        return "syntax error";
    }
}

/* Number of code points in valid UTF-8 s (as every string jansson parsed is). */
static size_t utf8_count(const char *s, size_t len)
{
    size_t count = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            count++;
    return count;
}

/* Sets *out to string field `name` of root (borrowed): 0, or TB_BAD_REQUEST when it is missing or
 * not a string. */
static int string_field(json_t *root, const char *name, const char **out, tb_err *err)
{
    json_t *v = json_object_get(root, name);
    *out = json_string_value(v);
    if (*out)
        return 0;
    if (v)
        tb_fail(err, TB_BAD_REQUEST, "field '%s' must be a string", name);
    else
        tb_fail(err, TB_BAD_REQUEST, "field '%s' is missing", name);
    return TB_BAD_REQUEST;
}

static int is_base64url(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

/* The string field `name` of root, min..max base64url characters, into *out. 0 or TB_BAD_REQUEST
 * (the message names the field, never its value: a token is a secret). */
static int base64url_field(json_t *root, const char *name, size_t min, size_t max, const char **out,
                           tb_err *err)
{
    if (string_field(root, name, out, err))
        return TB_BAD_REQUEST;
    size_t len = strlen(*out);
    int ok = len >= min && len <= max;
    for (size_t i = 0; ok && i < len; i++)
        ok = is_base64url((*out)[i]);
    if (!ok)
        return tb_fail(err, TB_BAD_REQUEST, "field '%s' must be %zu to %zu base64url characters",
                       name, min, max);
    return 0;
}

static int parse_hello(json_t *root, proto_msg *m, tb_err *err)
{
    json_t *v = json_object_get(root, "v");
    if (!json_is_integer(v) || json_integer_value(v) != 1)
        return tb_fail(err, TB_BAD_REQUEST, "unsupported protocol version (\"v\" must be 1)");

    /* The token is a secret: no message below may quote it, not even in part. */
    if (base64url_field(root, "token", 16, 256, &m->token, err))
        return TB_BAD_REQUEST;

    json_t *seq = json_object_get(root, "last_seq");
    if (seq) {
        if (!json_is_integer(seq) || json_integer_value(seq) < 0)
            return tb_fail(err, TB_BAD_REQUEST, "field 'last_seq' must be an integer >= 0");
        m->has_last_seq = 1;
        m->last_seq = json_integer_value(seq);
    }
    if (json_object_get(root, "history") &&
        base64url_field(root, "history", 1, 64, &m->history, err))
        return TB_BAD_REQUEST;
    return 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int parse_join(json_t *root, proto_msg *m, tb_err *err)
{
    const char *code, *name;
    if (string_field(root, "code", &code, err) || string_field(root, "name", &name, err))
        return TB_BAD_REQUEST;
    size_t n = utf8_count(code, strlen(code));
    if (n < 1 || n > 32)
        return tb_fail(err, TB_BAD_REQUEST, "field 'code' must be 1 to 32 characters");

    size_t start = 0, end = strlen(name);
    while (start < end && is_space(name[start]))
        start++;
    while (end > start && is_space(name[end - 1]))
        end--;
    for (size_t i = start; i < end;) {
        unsigned cp;
        size_t step = utf8_next((const unsigned char *)name + i, end - i, &cp);
        if (step == 0) /* cannot happen after jansson's check; refuse rather than assume */
            return tb_fail(err, TB_BAD_REQUEST, "field 'name' is not valid UTF-8");
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
            return tb_fail(err, TB_BAD_REQUEST, "field 'name' must not contain control characters");
        i += step;
    }
    n = utf8_count(name + start, end - start);
    if (n < 1 || n > 40)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'name' must be 1 to 40 characters (surrounding spaces not counted)");

    /* Keep the trimmed copy in root, so m->name stays owned by the message. */
    json_object_set_new(root, "name", json_stringn(name + start, end - start));
    m->code = code;
    m->name = json_string_value(json_object_get(root, "name"));
    return 0;
}

static int parse_cmd(json_t *root, proto_msg *m, tb_err *err)
{
    const char *id, *op;
    if (string_field(root, "id", &id, err) || string_field(root, "op", &op, err))
        return TB_BAD_REQUEST;

    size_t len = strlen(id);
    int ok = len >= 1 && len <= 64;
    for (size_t i = 0; ok && i < len; i++)
        ok = id[i] >= 0x20 && id[i] <= 0x7E;
    if (!ok)
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'id' must be 1 to 64 printable ASCII characters");

    len = strlen(op);
    ok = len >= 1 && len <= 64 && op[0] >= 'a' && op[0] <= 'z';
    for (size_t i = 1; ok && i < len; i++)
        ok = (op[i] >= 'a' && op[i] <= 'z') || (op[i] >= '0' && op[i] <= '9') || op[i] == '_' ||
             op[i] == '.';
    if (!ok) {
        char q[QUOTE_MAX + 8];
        return tb_fail(err, TB_BAD_REQUEST,
                       "field 'op' %s must be 1 to 64 characters of [a-z0-9_.] starting with a "
                       "letter",
                       quoted(op, q, sizeof q));
    }

    json_t *args = json_object_get(root, "args");
    if (!args) {
        args = json_object();
        json_object_set_new(root, "args", args);
    } else if (!json_is_object(args)) {
        return tb_fail(err, TB_BAD_REQUEST, "field 'args' must be an object");
    }
    m->id = id;
    m->op = op;
    m->args = args;
    return 0;
}

static int parse_ping(json_t *root, proto_msg *m, tb_err *err)
{
    json_t *n = json_object_get(root, "n");
    if (n && !json_is_number(n))
        return tb_fail(err, TB_BAD_REQUEST, "field 'n' must be a number");
    m->n = n;
    return 0;
}

/* --- the common message, read without jansson's reader ---------------------------------------- */

/*
 * Most messages are small objects of plain ASCII strings and integers ({"t":"cmd","id":"c1",
 * "op":"roll","args":{"expr":"d20+5"}}); jansson's reader spent ~12 k instructions on one
 * (issue 26). fast_load reads that subset into the tree json_loadb would build (the same keys in
 * the same order, strings, integers, true/false/null, arrays) and returns NULL on anything else —
 * an escape, a byte from 0x80 or below 0x20 in a string, a real or long number, a duplicate key,
 * deep nesting, any syntax error — so that json_loadb reads the message again and reports what it
 * finds, with its own position and kind of error.
 */
#define FAST_DEPTH 32  /* deeper messages go to jansson */
#define FAST_DIGITS 18 /* an integer of at most this many digits cannot overflow */

typedef struct fast_reader {
    const char *p, *end;
} fast_reader;

static void fast_ws(fast_reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

/* A string's bytes after its opening quote, up to the closing one (consumed): 0, or -1 when it
 * holds a byte this reader leaves to jansson. */
static int fast_string(fast_reader *r, const char **s, size_t *n)
{
    const char *start = r->p;
    while (r->p < r->end) {
        unsigned char c = (unsigned char)*r->p;
        if (c == '"') {
            *s = start;
            *n = (size_t)(r->p - start);
            r->p++;
            return 0;
        }
        if (c < 0x20 || c >= 0x80 || c == '\\')
            return -1;
        r->p++;
    }
    return -1;
}

static json_t *fast_value(fast_reader *r, int depth);

static json_t *fast_object(fast_reader *r, int depth)
{
    json_t *o = json_object();
    fast_ws(r);
    if (r->p < r->end && *r->p == '}') {
        r->p++;
        return o;
    }
    for (;;) {
        const char *key;
        size_t n;
        if (r->p == r->end || *r->p != '"')
            break;
        r->p++;
        if (fast_string(r, &key, &n) || json_object_getn(o, key, n))
            break;
        fast_ws(r);
        if (r->p == r->end || *r->p != ':')
            break;
        r->p++;
        json_t *v = fast_value(r, depth + 1);
        if (!v || json_object_setn_new_nocheck(o, key, n, v))
            break;
        fast_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            fast_ws(r);
            continue;
        }
        if (r->p < r->end && *r->p == '}') {
            r->p++;
            return o;
        }
        break;
    }
    json_decref(o);
    return NULL;
}

static json_t *fast_array(fast_reader *r, int depth)
{
    json_t *a = json_array();
    fast_ws(r);
    if (r->p < r->end && *r->p == ']') {
        r->p++;
        return a;
    }
    for (;;) {
        json_t *v = fast_value(r, depth + 1);
        if (!v || json_array_append_new(a, v))
            break;
        fast_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == ']') {
            r->p++;
            return a;
        }
        break;
    }
    json_decref(a);
    return NULL;
}

static json_t *fast_integer(fast_reader *r)
{
    int neg = *r->p == '-';
    if (neg)
        r->p++;
    const char *start = r->p;
    json_int_t v = 0;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
        v = v * 10 + (*r->p++ - '0');
    size_t n = (size_t)(r->p - start);
    if (n == 0 || n > FAST_DIGITS || (n > 1 && *start == '0'))
        return NULL;
    if (r->p < r->end && (*r->p == '.' || *r->p == 'e' || *r->p == 'E'))
        return NULL; /* a real */
    return json_integer(neg ? -v : v);
}

static json_t *fast_word(fast_reader *r, const char *word, size_t n, json_t *v)
{
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return NULL;
    r->p += n;
    return v;
}

static json_t *fast_value(fast_reader *r, int depth)
{
    fast_ws(r);
    if (r->p == r->end || depth > FAST_DEPTH)
        return NULL;
    const char *s;
    size_t n;
    switch (*r->p) {
    case '{':
        r->p++;
        return fast_object(r, depth);
    case '[':
        r->p++;
        return fast_array(r, depth);
    case '"':
        r->p++;
        return fast_string(r, &s, &n) ? NULL : json_stringn_nocheck(s, n);
    case 't':
        return fast_word(r, "true", 4, json_true());
    case 'f':
        return fast_word(r, "false", 5, json_false());
    case 'n':
        return fast_word(r, "null", 4, json_null());
    default:
        return *r->p == '-' || (*r->p >= '0' && *r->p <= '9') ? fast_integer(r) : NULL;
    }
}

/* The message as json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY) reads it when it
 * is an object of the subset above, else NULL. */
static json_t *fast_load(const char *buf, size_t len)
{
    fast_reader r = {buf, buf + len};
    fast_ws(&r);
    if (r.p == r.end || *r.p != '{')
        return NULL;
    json_t *root = fast_value(&r, 1);
    fast_ws(&r);
    if (root && r.p != r.end) {
        json_decref(root);
        return NULL;
    }
    return root;
}

int proto_parse_client(const char *buf, size_t len, proto_msg *out, tb_err *err)
{
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    /* jansson's own error text quotes the input ("near '...'"), which may hold a token: only
     * the position and the kind of error are passed on. */
    json_t *root = fast_load(buf, len);
    if (!root)
        root = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root)
        return tb_fail(err, TB_BAD_REQUEST, "invalid JSON at byte %d: %s", jerr.position,
                       json_error_what(&jerr));

    int rc;
    if (!json_is_object(root)) {
        rc = tb_fail(err, TB_BAD_REQUEST, "a message must be a JSON object");
        goto fail;
    }
    json_t *t = json_object_get(root, "t");
    if (!t) {
        rc = tb_fail(err, TB_BAD_REQUEST, "field 't' is missing");
        goto fail;
    }
    if (!json_is_string(t)) {
        rc = tb_fail(err, TB_BAD_REQUEST, "field 't' must be a string");
        goto fail;
    }

    const char *type = json_string_value(t);
    if (strcmp(type, "hello") == 0) {
        out->t = PROTO_HELLO;
        rc = parse_hello(root, out, err);
    } else if (strcmp(type, "join") == 0) {
        out->t = PROTO_JOIN;
        rc = parse_join(root, out, err);
    } else if (strcmp(type, "cmd") == 0) {
        out->t = PROTO_CMD;
        rc = parse_cmd(root, out, err);
    } else if (strcmp(type, "ping") == 0) {
        out->t = PROTO_PING;
        rc = parse_ping(root, out, err);
    } else {
        char q[QUOTE_MAX + 8];
        rc = tb_fail(err, TB_BAD_REQUEST, "unknown message type %s", quoted(type, q, sizeof q));
    }
    if (rc)
        goto fail;
    out->root = root;
    return 0;

fail:
    json_decref(root);
    memset(out, 0, sizeof *out);
    return rc ? rc : TB_BAD_REQUEST;
}

void proto_msg_clear(proto_msg *m)
{
    if (!m)
        return;
    json_decref(m->root);
    memset(m, 0, sizeof *m);
}

/* --- building --------------------------------------------------------------------------------- */

/* {"t": t} */
static json_t *msg_new(const char *t)
{
    json_t *o = json_object();
    json_object_set_new(o, "t", json_string(t));
    return o;
}

/* Sets key to value (stolen); NULL → `fallback` (stolen) */
static void set_or(json_t *o, const char *key, json_t *value, json_t *fallback)
{
    if (value) {
        json_object_set_new(o, key, value);
        json_decref(fallback);
    } else {
        json_object_set_new(o, key, fallback);
    }
}

json_t *proto_msg_welcome(json_t *seat, json_t *campaign, long long seq, json_t *state)
{
    json_t *o = msg_new("welcome");
    set_or(o, "seat", seat, json_null());
    set_or(o, "campaign", campaign, json_null());
    json_object_set_new(o, "seq", json_integer(seq));
    if (state)
        json_object_set_new(o, "state", state);
    else
        json_object_set_new(o, "resume", json_true());
    return o;
}

json_t *proto_msg_diff(long long seq, json_t *ops)
{
    json_t *o = msg_new("diff");
    json_object_set_new(o, "seq", json_integer(seq));
    set_or(o, "ops", ops, json_array());
    return o;
}

json_t *proto_msg_ack(const char *id, long long seq, json_t *result)
{
    json_t *o = msg_new("ack");
    json_object_set_new(o, "id", safe_string(id));
    json_object_set_new(o, "seq", seq < 0 ? json_null() : json_integer(seq));
    set_or(o, "result", result, json_null());
    return o;
}

char *proto_ack_text(const char *id, long long seq, const char *result_text, size_t result_len,
                     long long entry)
{
    static const char HEAD[] = "{\"t\":\"ack\",\"id\":", SEQ[] = ",\"seq\":",
                      RESULT[] = ",\"result\":", ENTRY[] = ",\"entry\":";
    id = id ? id : "";
    proto_buf b = {0};
    proto_buf_reserve(&b, sizeof HEAD + strlen(id) + 48 + result_len);
    proto_buf_add(&b, HEAD, sizeof HEAD - 1);
    proto_buf_add_string(&b, id, strlen(id));
    proto_buf_add(&b, SEQ, sizeof SEQ - 1);
    if (seq < 0)
        proto_buf_add(&b, "null", 4);
    else
        proto_buf_add_int(&b, seq);
    proto_buf_add(&b, RESULT, sizeof RESULT - 1);
    if (result_text)
        proto_buf_add(&b, result_text, result_len);
    else
        proto_buf_add(&b, "null", 4);
    if (entry) {
        proto_buf_add(&b, ENTRY, sizeof ENTRY - 1);
        proto_buf_add_int(&b, entry);
    }
    proto_buf_add(&b, "}", 2); /* with its NUL */
    return b.data;
}

/* Sets o.message to message without its rulebook line references, and o.cite to them when it
 * had any (tb_cite_strip): a refusal is read by a person at the table. message borrowed. */
static void msg__set_text(json_t *o, const char *message)
{
    char *text = xstrdup(message ? message : ""), cite[TB_ERR_MSG_MAX];
    tb_cite_strip(text, cite, sizeof cite);
    json_object_set_new(o, "message", safe_string(text));
    if (cite[0])
        json_object_set_new(o, "cite", json_string(cite));
    free(text);
}

json_t *proto_msg_nack(const char *id, tb_code code, const char *message)
{
    json_t *o = msg_new("nack");
    json_object_set_new(o, "id", safe_string(id));
    json_object_set_new(o, "code", json_string(tb_code_name(code)));
    msg__set_text(o, message);
    return o;
}

json_t *proto_msg_error(tb_code code, const char *message)
{
    json_t *o = msg_new("error");
    json_object_set_new(o, "code", json_string(tb_code_name(code)));
    msg__set_text(o, message);
    return o;
}

json_t *proto_msg_joined(const char *token, const char *seat)
{
    json_t *o = msg_new("joined");
    json_object_set_new(o, "token", safe_string(token));
    json_object_set_new(o, "seat", safe_string(seat));
    return o;
}

json_t *proto_msg_presence(json_t *seats)
{
    json_t *o = msg_new("presence");
    set_or(o, "seats", seats, json_object());
    return o;
}

json_t *proto_msg_pong(json_t *n)
{
    json_t *o = msg_new("pong");
    json_object_set_new(o, "n", n ? json_deep_copy(n) : json_null());
    return o;
}
