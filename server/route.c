/*
 * route.c — routing keys in URLs (route.h).
 */
#include "route.h"

#include <stdio.h>
#include <string.h>

static int lower_or_digit(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

int route_shard_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n < 1 || n > ROUTE_SHARD_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!lower_or_digit(name[i]))
            return 0;
    return 1;
}

int route_split(const char *uri, char key[ROUTE_KEY_MAX + 1], const char **rest)
{
    key[0] = '\0';
    *rest = uri;
    if (strncmp(uri, "/c/", 3) != 0)
        return 0;
    const char *k = uri + 3;
    size_t n = 0;
    while (k[n] && k[n] != '/') {
        if (n >= ROUTE_KEY_MAX || !(lower_or_digit(k[n]) || (k[n] == '-' && n > 0)))
            return -1;
        n++;
    }
    if (n == 0)
        return -1;
    memcpy(key, k, n);
    key[n] = '\0';
    *rest = k + n;
    return 1;
}

int route_foreign(const char *shard, const char *key)
{
    if (!shard || !key || !*key)
        return 0;
    const char *dash = strchr(key, '-');
    size_t n = strlen(shard);
    if (dash) /* "NAME-…": a campaign minted by shard NAME */
        return !((size_t)(dash - key) == n && strncmp(key, shard, n) == 0);
    return 0; /* our console (key == shard), or a campaign of before the shards */
}

const char *route_base(const char *shard, const char *campaign_id, char *buf, unsigned long cap)
{
    if (!shard || !campaign_id)
        snprintf(buf, cap, "/");
    else
        snprintf(buf, cap, "/c/%s/", campaign_id);
    return buf;
}
