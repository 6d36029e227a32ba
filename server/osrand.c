#include "osrand.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

static void refill(osrand *r)
{
    size_t got = 0;
    while (got < sizeof r->buf) {
        ssize_t n = getrandom(r->buf + got, sizeof r->buf - got, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            perror("tabled: getrandom");
            abort();
        }
        got += (size_t)n;
    }
    r->pos = 0;
}

uint64_t osrand_next64(void *ctx)
{
    osrand *r = ctx;
    if (r->pos == 0 || r->pos + 8 > sizeof r->buf)
        refill(r);
    uint64_t v;
    memcpy(&v, r->buf + r->pos, 8);
    r->pos += 8;
    if (r->pos >= sizeof r->buf)
        r->pos = 0; /* next call refills */
    return v;
}
