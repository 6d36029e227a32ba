#include "netaddr.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses an address text into family + bytes (IPv4-mapped IPv6 becomes IPv4). 0 or -1. */
static int netaddr__parse_ip(const char *text, int *family, unsigned char addr[16])
{
    if (inet_pton(AF_INET, text, addr) == 1) {
        *family = AF_INET;
        return 0;
    }
    if (inet_pton(AF_INET6, text, addr) != 1)
        return -1;
    static const unsigned char MAPPED[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(addr, MAPPED, 12) == 0) {
        memmove(addr, addr + 12, 4);
        *family = AF_INET;
    } else {
        *family = AF_INET6;
    }
    return 0;
}

int netaddr_range_parse(const char *text, netaddr_range *out)
{
    char buf[NETADDR_TEXT];
    if (!text || strlen(text) >= sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%s", text);
    char *slash = strchr(buf, '/');
    long bits = -1;
    if (slash) {
        char *end;
        *slash = '\0';
        if (!isdigit((unsigned char)slash[1]))
            return -1;
        bits = strtol(slash + 1, &end, 10);
        if (*end)
            return -1;
    }
    memset(out, 0, sizeof *out);
    if (netaddr__parse_ip(buf, &out->family, out->addr))
        return -1;
    int max = out->family == AF_INET ? 32 : 128;
    if (bits > max)
        return -1;
    out->bits = bits < 0 ? max : (int)bits;
    return 0;
}

static int netaddr__match(const netaddr_range *r, int family, const unsigned char *addr)
{
    if (r->family != family)
        return 0;
    int full = r->bits / 8, rest = r->bits % 8;
    if (memcmp(r->addr, addr, (size_t)full) != 0)
        return 0;
    if (!rest)
        return 1;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return (r->addr[full] & mask) == (addr[full] & mask);
}

int netaddr_in(const char *ip, const netaddr_range *ranges, int n)
{
    int family;
    unsigned char addr[16];
    if (!ip || netaddr__parse_ip(ip, &family, addr))
        return 0;
    for (int i = 0; i < n; i++)
        if (netaddr__match(&ranges[i], family, addr))
            return 1;
    return 0;
}

/* Writes the canonical text of ip (IPv4-mapped as IPv4) into out; the text as given when it is
 * not an address. */
static void netaddr__canonical(const char *ip, char out[NETADDR_TEXT])
{
    int family;
    unsigned char addr[16];
    if (netaddr__parse_ip(ip, &family, addr) || !inet_ntop(family, addr, out, NETADDR_TEXT))
        snprintf(out, NETADDR_TEXT, "%s", ip);
}

void netaddr_client(const char *peer, const char *xff, const netaddr_range *trusted, int n,
                    char out[NETADDR_TEXT])
{
    netaddr__canonical(peer ? peer : "", out);
    if (!xff || !*xff || !netaddr_in(peer, trusted, n))
        return;
    /* walk X-Forwarded-For from the right: the first hop that is not a trusted proxy is the
     * client; when every hop is trusted, the leftmost one is */
    const char *end = xff + strlen(xff);
    char hop[NETADDR_TEXT];
    while (end > xff) {
        const char *start = end;
        while (start > xff && start[-1] != ',')
            start--;
        const char *a = start, *b = end;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        int family;
        unsigned char addr[16];
        if ((size_t)(b - a) < sizeof hop) {
            snprintf(hop, sizeof hop, "%.*s", (int)(b - a), a);
            if (netaddr__parse_ip(hop, &family, addr) != 0)
                return; /* not an address: the last good hop (or the peer) stands */
            netaddr__canonical(hop, out);
            if (!netaddr_in(hop, trusted, n))
                return;
        } else {
            return;
        }
        end = start > xff ? start - 1 : xff;
    }
}

void netaddr_key(const char *ip, char out[NETADDR_TEXT])
{
    int family;
    unsigned char addr[16];
    if (netaddr__parse_ip(ip, &family, addr)) {
        snprintf(out, NETADDR_TEXT, "%s", ip);
        return;
    }
    if (family == AF_INET6)
        memset(addr + 8, 0, 8);
    char text[INET6_ADDRSTRLEN];
    inet_ntop(family, addr, text, sizeof text);
    snprintf(out, NETADDR_TEXT, family == AF_INET6 ? "%s/64" : "%s", text);
}
