/*
 * jsonenc.c — compact JSON text of a jansson tree, byte for byte what json_dumps(v, JSON_COMPACT |
 * JSON_ENCODE_ANY) writes, several times faster (issue 26: jansson's dump was half of a command's
 * instructions, most of it in snprintf — for every integer, and for every container's address in
 * its loop check). The trees tabled encodes never hold a loop (a jansson tree cannot be built with
 * one through the API we use), so none is checked for. Strings are copied as they are, with the
 * escapes jansson writes (\" \\ \b \f \n \r \t, \u00XX in upper case for the other control
 * characters); jansson keeps its strings valid UTF-8, so the bytes from 0x80 are copied too.
 * Reals, rare in a campaign's state, are formatted by jansson itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

void proto_buf_reserve(proto_buf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

/* The encoder's own calls: the common case (room enough) inline, the growth in proto_buf_reserve.
 * (The exported functions cannot be inlined into one another: the library is built -fPIC.) */
static inline void jsonenc__reserve(proto_buf *b, size_t more)
{
    if (b->len + more > b->cap)
        proto_buf_reserve(b, more);
}

static inline void jsonenc__add(proto_buf *b, const char *s, size_t n)
{
    jsonenc__reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static inline void jsonenc__addc(proto_buf *b, char c)
{
    jsonenc__reserve(b, 1);
    b->data[b->len++] = c;
}

/* "00" "01" .. "99": integers are written two digits at a time */
static const char jsonenc__digits2[201] = "00010203040506070809101112131415161718192021222324"
                                          "25262728293031323334353637383940414243444546474849"
                                          "50515253545556575859606162636465666768697071727374"
                                          "75767778798081828384858687888990919293949596979899";

static inline void jsonenc__add_int(proto_buf *b, long long v)
{
    char tmp[24];
    size_t n = sizeof tmp;
    /* the magnitude as unsigned, so that LLONG_MIN is no overflow */
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    while (u >= 100) {
        unsigned d = (unsigned)(u % 100) * 2;
        u /= 100;
        tmp[--n] = jsonenc__digits2[d + 1];
        tmp[--n] = jsonenc__digits2[d];
    }
    if (u >= 10) {
        tmp[--n] = jsonenc__digits2[u * 2 + 1];
        tmp[--n] = jsonenc__digits2[u * 2];
    } else {
        tmp[--n] = (char)('0' + u);
    }
    if (v < 0)
        tmp[--n] = '-';
    jsonenc__reserve(b, sizeof tmp);
    char *d = b->data + b->len;
    b->len += sizeof tmp - n;
    while (n < sizeof tmp) /* at most 20 bytes: cheaper than a call to memcpy */
        *d++ = tmp[n++];
}

void proto_buf_add(proto_buf *b, const char *s, size_t n)
{
    jsonenc__add(b, s, n);
}

void proto_buf_addc(proto_buf *b, char c)
{
    jsonenc__addc(b, c);
}

void proto_buf_add_int(proto_buf *b, long long v)
{
    jsonenc__add_int(b, v);
}

/* What byte c becomes inside a string: NULL when it is copied as it is. */
static const char *jsonenc__escape(unsigned char c)
{
    static const char *const NAMED[32] = {
        ['\b'] = "\\b", ['\f'] = "\\f", ['\n'] = "\\n", ['\r'] = "\\r", ['\t'] = "\\t"};
    static char hex[32][7];
    if (c == '"')
        return "\\\"";
    if (c == '\\')
        return "\\\\";
    if (c >= 0x20)
        return NULL;
    if (NAMED[c])
        return NAMED[c];
    if (!hex[c][0]) /* filled once; the same bytes from every thread that races here */
        snprintf(hex[c], sizeof hex[c], "\\u%04X", c);
    return hex[c];
}

/* Which bytes are escaped inside a string: below 0x20, '"' and '\\'. */
/* clang-format off */
static const unsigned char jsonenc__special[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x00 - 0x0f */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x10 - 0x1f */
    ['"'] = 1, ['\\'] = 1,
};
/* clang-format on */

#define JSONENC_ONES 0x0101010101010101ull
#define JSONENC_HIGH 0x8080808080808080ull

/* Nonzero when one of the 8 bytes in x is a zero byte (exact for "is there one"). */
static inline uint64_t jsonenc__zero8(uint64_t x)
{
    return (x - JSONENC_ONES) & ~x & JSONENC_HIGH;
}

/* Nonzero when one of the 8 bytes in x must be escaped: below 0x20, '"' or '\\' (bytes from 0x80
 * never are). Exact for "is there one"; which one is found byte by byte. */
static inline uint64_t jsonenc__special8(uint64_t x)
{
    uint64_t below = (x - JSONENC_ONES * 0x20) & ~x & JSONENC_HIGH;
    return below | jsonenc__zero8(x ^ (JSONENC_ONES * '"')) |
           jsonenc__zero8(x ^ (JSONENC_ONES * '\\'));
}

/* The first index from i of s[0 .. n) whose byte must be escaped, or n: 8 bytes at a time while
 * none is (most text has no escape at all). */
static inline size_t jsonenc__plain(const char *s, size_t i, size_t n)
{
    while (i + 8 <= n) {
        uint64_t x;
        memcpy(&x, s + i, sizeof x);
        if (jsonenc__special8(x))
            break;
        i += 8;
    }
    for (; i < n; i++)
        if (jsonenc__special[(unsigned char)s[i]])
            return i;
    return n;
}

#define JSONENC_DUMP_START 1024 /* proto_json_dump's first buffer, in bytes */
#define JSONENC_SHORT 16        /* strings up to this long are copied byte by byte in one pass */

/* Writes s[0 .. n) quoted at d, which has room for n * 6 + 2 bytes; returns the end. One pass, for
 * most strings (keys, names, short values). */
static inline char *jsonenc__short(char *d, const char *s, size_t n)
{
    *d++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!jsonenc__special[c]) {
            *d++ = (char)c;
        } else {
            const char *e = jsonenc__escape(c);
            size_t m = strlen(e);
            memcpy(d, e, m);
            d += m;
        }
    }
    *d++ = '"';
    return d;
}

static void jsonenc__string(proto_buf *b, const char *s, size_t n)
{
    if (n <= JSONENC_SHORT) {
        jsonenc__reserve(b, n * 6 + 2);
        b->len = (size_t)(jsonenc__short(b->data + b->len, s, n) - b->data);
        return;
    }
    jsonenc__reserve(b, n + 2);
    b->data[b->len++] = '"';
    size_t run = 0;
    for (size_t i = jsonenc__plain(s, 0, n); i < n; i = jsonenc__plain(s, i, n)) {
        jsonenc__add(b, s + run, i - run);
        const char *e = jsonenc__escape((unsigned char)s[i]);
        jsonenc__add(b, e, strlen(e));
        run = ++i;
    }
    jsonenc__add(b, s + run, n - run);
    jsonenc__addc(b, '"');
}

void proto_buf_add_string(proto_buf *b, const char *s, size_t n)
{
    jsonenc__string(b, s, n);
}

/* proto_json_append's walk (static: its recursion and its calls stay inside this file). */
static void jsonenc__value(proto_buf *b, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        jsonenc__addc(b, '{');
        /* the iterator itself, not json_object_foreach (which looks every key up again) */
        char sep = 0;
        for (void *it = json_object_iter((json_t *)v); it;
             it = json_object_iter_next((json_t *)v, it), sep = ',') {
            const char *key = json_object_iter_key(it);
            size_t n = json_object_iter_key_len(it);
            if (n <= JSONENC_SHORT) { /* ,"key": with one check of the room */
                jsonenc__reserve(b, n * 6 + 4);
                char *d = b->data + b->len;
                if (sep)
                    *d++ = sep;
                d = jsonenc__short(d, key, n);
                *d++ = ':';
                b->len = (size_t)(d - b->data);
            } else {
                if (sep)
                    jsonenc__addc(b, sep);
                jsonenc__string(b, key, n);
                jsonenc__addc(b, ':');
            }
            jsonenc__value(b, json_object_iter_value(it));
        }
        jsonenc__addc(b, '}');
        return;
    }
    case JSON_ARRAY: {
        jsonenc__addc(b, '[');
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n; i++) {
            if (i)
                jsonenc__addc(b, ',');
            jsonenc__value(b, json_array_get(v, i));
        }
        jsonenc__addc(b, ']');
        return;
    }
    case JSON_STRING:
        jsonenc__string(b, json_string_value(v), json_string_length(v));
        return;
    case JSON_INTEGER:
        jsonenc__add_int(b, (long long)json_integer_value(v));
        return;
    case JSON_REAL: {
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!text) {
            fprintf(stderr, "tabled: cannot encode a real number\n");
            abort();
        }
        jsonenc__add(b, text, strlen(text));
        free(text);
        return;
    }
    case JSON_TRUE:
        jsonenc__add(b, "true", 4);
        return;
    case JSON_FALSE:
        jsonenc__add(b, "false", 5);
        return;
    default:
        jsonenc__add(b, "null", 4);
        return;
    }
}

void proto_json_append(proto_buf *b, const json_t *v)
{
    jsonenc__value(b, v);
}

char *proto_json_dump(const json_t *v, size_t *len)
{
    /* room for a command's patch, result or ack at once (from 256 bytes it took 2-3 reallocs
     * each, issue 26); the texts are short-lived */
    proto_buf b = {0};
    proto_buf_reserve(&b, JSONENC_DUMP_START);
    jsonenc__value(&b, v);
    jsonenc__addc(&b, '\0');
    if (len)
        *len = b.len - 1;
    return b.data;
}
