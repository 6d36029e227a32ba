#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tb_fail(tb_err *err, tb_code code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return (int)code;
}

void tb_err_clear(tb_err *err)
{
    if (err) {
        err->code = TB_OK;
        err->msg[0] = '\0';
    }
}

const char *tb_code_name(tb_code code)
{
    switch (code) {
    case TB_OK: return "ok";
    case TB_BAD_REQUEST: return "bad_request";
    case TB_UNAUTHORIZED: return "unauthorized";
    case TB_FORBIDDEN: return "forbidden";
    case TB_NOT_FOUND: return "not_found";
    case TB_CONFLICT: return "conflict";
    case TB_RULE: return "rule";
    case TB_RATE_LIMITED: return "rate_limited";
    case TB_TOO_LARGE: return "too_large";
    case TB_INTERNAL: return "internal";
    case TB_MOVED: return "moved";
    }
    return "internal";
}

static void oom(size_t n)
{
    fprintf(stderr, "tabled: out of memory (%zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    n = n ? n : 1;
    size = size ? size : 1;
    if (n <= 1024 / size) {
        /* A small block through malloc: glibc's calloc skips its per-thread cache of freed
         * blocks, malloc takes from it (issue 26: the hot path's small structs). */
        void *p = xmalloc(n * size);
        memset(p, 0, n * size);
        return p;
    }
    void *p = calloc(n, size);
    if (!p)
        oom(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}

/* ---- rulebook line references out of text (tb_cite_strip) ---- */

static int cite__digit(char c)
{
    return c >= '0' && c <= '9';
}

static int cite__alnum(char c)
{
    return cite__digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Digits (at least one) then optionally "-digits": the length, 0 when s does not start so. */
static size_t cite__lines(const char *s)
{
    size_t n = 0;
    while (cite__digit(s[n]))
        n++;
    if (n && s[n] == '-' && cite__digit(s[n + 1]))
        for (n++; cite__digit(s[n]); n++)
            ;
    return n;
}

/* The length of the reference run starting at s (0 when none starts there): "NNN:lines" followed
 * by any ", lines" that is not itself a new "NNN:" reference. start is the text's beginning. */
static size_t cite__ref(const char *start, const char *s)
{
    if (s > start && cite__alnum(s[-1]))
        return 0;
    if (!cite__digit(s[0]) || !cite__digit(s[1]) || !cite__digit(s[2]) || s[3] != ':')
        return 0;
    size_t n = cite__lines(s + 4);
    if (!n)
        return 0;
    n += 4;
    for (;;) {
        size_t sep = s[n] == ',' ? (s[n + 1] == ' ' ? 2 : 1) : 0;
        size_t more = sep ? cite__lines(s + n + sep) : 0;
        if (!more || s[n + sep + more] == ':' || cite__alnum(s[n + sep + more]))
            return n;
        n += sep + more;
    }
}

/* Appends the reference run (len bytes at s) to cite. */
static void cite__add(char *cite, size_t cap, const char *s, size_t len)
{
    if (!cap)
        return;
    size_t have = strlen(cite);
    snprintf(cite + have, cap - have, "%s%.*s", have ? ", " : "", (int)len, s);
}

/* Drops separators (spaces, ',', ';', ':') from the end of out[0..*n). */
static void cite__trim_back(char *out, size_t *n)
{
    while (*n && strchr(" ,;:", out[*n - 1]))
        (*n)--;
}

/* Whether the n bytes at s are what is left of a group that said nothing but references. */
static int cite__empty_group(const char *s, size_t n)
{
    while (n && strchr(" ,;:.", *s))
        s++, n--;
    while (n && strchr(" ,;:", s[n - 1]))
        n--;
    return n == 0 || (n == 3 && strncmp(s, "and", 3) == 0) || (n == 3 && strncmp(s, "see", 3) == 0);
}

int tb_cite_strip(char *text, char *cite, size_t cap)
{
    if (cap)
        cite[0] = '\0';
    if (!text)
        return 0;
    size_t len = strlen(text), n = 0;
    char *out = xmalloc(len + 1);
    int found = 0;
    for (size_t i = 0; i < len;) {
        size_t r;
        if (text[i] == '(') {
            const char *close = strchr(text + i, ')');
            size_t end = close ? (size_t)(close - text) : len;
            const char *inner = memchr(text + i + 1, '(', end - i - 1);
            int has = 0; /* a group holding another: its inner group is the one stripped */
            for (size_t k = i + 1; k < end && !has && !inner; k++)
                has = cite__ref(text, text + k) > 0;
            if (has) {
                /* rebuild the group's inside without its references */
                size_t g0 = n;
                out[n++] = '(';
                for (size_t k = i + 1; k < end;) {
                    if ((r = cite__ref(text, text + k))) {
                        cite__add(cite, cap, text + k, r);
                        found++;
                        k += r;
                        if (n > g0 + 1 && strchr(" ,;:", out[n - 1])) {
                            cite__trim_back(out, &n); /* stops at the '(' */
                        } else {
                            while (k < end && strchr(" ,;:", text[k]))
                                k++;
                        }
                        continue;
                    }
                    out[n++] = text[k++];
                }
                if (cite__empty_group(out + g0 + 1, n - g0 - 1)) {
                    /* the group goes, with the space before it; a '.' it held stays */
                    int stop = memchr(out + g0 + 1, '.', n - g0 - 1) != NULL;
                    n = g0;
                    while (n && out[n - 1] == ' ')
                        n--;
                    if (stop)
                        out[n++] = '.';
                } else {
                    out[n++] = ')';
                }
                i = close ? end + 1 : end;
                continue;
            }
        }
        if ((r = cite__ref(text, text + i))) {
            cite__add(cite, cap, text + i, r);
            found++;
            while (n && out[n - 1] == ' ')
                n--;
            i += r;
            continue;
        }
        out[n++] = text[i++];
    }
    out[n] = '\0';
    memcpy(text, out, n + 1);
    free(out);
    return found;
}
