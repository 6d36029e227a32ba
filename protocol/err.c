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
    void *p = calloc(n ? n : 1, size ? size : 1);
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
