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

void proto_buf_add(proto_buf *b, const char *s, size_t n)
{
    proto_buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

void proto_buf_addc(proto_buf *b, char c)
{
    proto_buf_reserve(b, 1);
    b->data[b->len++] = c;
}

void proto_buf_add_int(proto_buf *b, long long v)
{
    char tmp[24];
    size_t n = 0;
    /* the magnitude as unsigned, so that LLONG_MIN is no overflow */
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    proto_buf_reserve(b, n + 1);
    if (v < 0)
        b->data[b->len++] = '-';
    while (n)
        b->data[b->len++] = tmp[--n];
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

void proto_buf_add_string(proto_buf *b, const char *s, size_t n)
{
    proto_buf_reserve(b, n + 2);
    b->data[b->len++] = '"';
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        proto_buf_add(b, s + run, i - run);
        const char *e = jsonenc__escape(c);
        proto_buf_add(b, e, strlen(e));
        run = i + 1;
    }
    proto_buf_add(b, s + run, n - run);
    proto_buf_addc(b, '"');
}

void proto_json_append(proto_buf *b, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        proto_buf_addc(b, '{');
        int first = 1;
        const char *key;
        json_t *child;
        json_object_foreach((json_t *)v, key, child)
        {
            if (!first)
                proto_buf_addc(b, ',');
            first = 0;
            proto_buf_add_string(b, key, strlen(key));
            proto_buf_addc(b, ':');
            proto_json_append(b, child);
        }
        proto_buf_addc(b, '}');
        return;
    }
    case JSON_ARRAY: {
        proto_buf_addc(b, '[');
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n; i++) {
            if (i)
                proto_buf_addc(b, ',');
            proto_json_append(b, json_array_get(v, i));
        }
        proto_buf_addc(b, ']');
        return;
    }
    case JSON_STRING:
        proto_buf_add_string(b, json_string_value(v), json_string_length(v));
        return;
    case JSON_INTEGER:
        proto_buf_add_int(b, (long long)json_integer_value(v));
        return;
    case JSON_REAL: {
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!text) {
            fprintf(stderr, "tabled: cannot encode a real number\n");
            abort();
        }
        proto_buf_add(b, text, strlen(text));
        free(text);
        return;
    }
    case JSON_TRUE:
        proto_buf_add(b, "true", 4);
        return;
    case JSON_FALSE:
        proto_buf_add(b, "false", 5);
        return;
    default:
        proto_buf_add(b, "null", 4);
        return;
    }
}

char *proto_json_dump(const json_t *v, size_t *len)
{
    proto_buf b = {0};
    proto_json_append(&b, v);
    proto_buf_addc(&b, '\0');
    if (len)
        *len = b.len - 1;
    return b.data;
}
