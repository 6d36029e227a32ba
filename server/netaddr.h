/*
 * netaddr.h — client addresses: who is on the other end of a connection, behind a reverse proxy
 * or not, and address ranges the operator names (trusted proxies, who may read /metrics).
 *
 * Behind a reverse proxy (deploy/nginx-tabled.conf) every connection comes from the proxy's
 * address. A proxy the operator trusts (--trusted-proxy) reports the client's address in
 * X-Forwarded-For, appending the address it saw to what the client sent: so the client's address
 * is the rightmost one in that header that is not itself a trusted proxy (anything to its left
 * may have been written by the client and is ignored). From any other peer the header is ignored
 * and the peer's own address counts. Limits per client (join guessing, places) use
 * netaddr_key: an IPv4 address, or an IPv6 address's /64 (one home or one cloud machine gets a
 * whole /64, so a /128 per key would let one host take as many keys as it likes).
 *
 * Pure functions: no I/O, no allocation.
 */
#ifndef TABLED_NETADDR_H
#define TABLED_NETADDR_H

#include <stddef.h>

#define NETADDR_TEXT 64 /* room for any address text these functions write */

/* An address range: family AF_INET or AF_INET6, the address (IPv4-mapped IPv6 addresses are
 * kept as IPv4), and the prefix length. */
typedef struct netaddr_range {
    int family;
    unsigned char addr[16];
    int bits;
} netaddr_range;

/* Parses "ADDR" or "ADDR/BITS" (IPv4 or IPv6). Returns 0, or -1 when it is not one. */
int netaddr_range_parse(const char *text, netaddr_range *out);

/* 1 when the address text ip (IPv4, IPv6 or IPv4-mapped IPv6) lies in one of the n ranges. */
int netaddr_in(const char *ip, const netaddr_range *ranges, int n);

/* The client's address (see above) into out (NETADDR_TEXT bytes): peer is the TCP peer's address
 * text, xff the X-Forwarded-For header (NULL when none). An IPv4-mapped address is written as
 * IPv4. */
void netaddr_client(const char *peer, const char *xff, const netaddr_range *trusted, int n,
                    char out[NETADDR_TEXT]);

/* The key limits count a client under (see above), into out (NETADDR_TEXT bytes). */
void netaddr_key(const char *ip, char out[NETADDR_TEXT]);

#endif
