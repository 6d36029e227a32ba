/*
 * test_netaddr.c — the client's address behind a trusted proxy (X-Forwarded-For read from the
 * right, spoofed entries to the left ignored), address ranges, and the keys limits count under.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "netaddr.h"

static netaddr_range R[4];
static int NR;

static void trust(const char *a, const char *b)
{
    NR = 0;
    ck_assert_int_eq(netaddr_range_parse(a, &R[NR++]), 0);
    if (b)
        ck_assert_int_eq(netaddr_range_parse(b, &R[NR++]), 0);
}

static const char *client(const char *peer, const char *xff)
{
    static char out[NETADDR_TEXT];
    netaddr_client(peer, xff, R, NR, out);
    return out;
}

START_TEST(ranges_parse_and_match)
{
    netaddr_range r;
    ck_assert_int_eq(netaddr_range_parse("10.1.0.0/16", &r), 0);
    ck_assert(netaddr_in("10.1.200.3", &r, 1));
    ck_assert(!netaddr_in("10.2.0.1", &r, 1));
    ck_assert(netaddr_in("::ffff:10.1.0.9", &r, 1)); /* an IPv4-mapped peer is IPv4 */
    ck_assert_int_eq(netaddr_range_parse("2001:db8::/32", &r), 0);
    ck_assert(netaddr_in("2001:db8:5::1", &r, 1));
    ck_assert(!netaddr_in("2001:db9::1", &r, 1));
    ck_assert(!netaddr_in("10.1.0.1", &r, 1));
    ck_assert_int_eq(netaddr_range_parse("127.0.0.1", &r), 0);
    ck_assert_int_eq(r.bits, 32);
    ck_assert(!netaddr_in("127.0.0.2", &r, 1));
    ck_assert_int_eq(netaddr_range_parse("10.0.0.0/33", &r), -1);
    ck_assert_int_eq(netaddr_range_parse("10.0.0.0/", &r), -1);
    ck_assert_int_eq(netaddr_range_parse("proxy.example", &r), -1);
    ck_assert_int_eq(netaddr_range_parse("", &r), -1);
    ck_assert(!netaddr_in("not an address", &r, 1));
}
END_TEST

START_TEST(the_client_is_the_rightmost_untrusted_hop)
{
    trust("127.0.0.1", "::1");
    /* nginx on loopback appends the address it saw */
    ck_assert_str_eq(client("127.0.0.1", "203.0.113.7"), "203.0.113.7");
    ck_assert_str_eq(client("::ffff:127.0.0.1", "203.0.113.7"), "203.0.113.7");
    /* what the client wrote itself is to the left and ignored */
    ck_assert_str_eq(client("127.0.0.1", "1.2.3.4, 203.0.113.7"), "203.0.113.7");
    ck_assert_str_eq(client("127.0.0.1", "garbage, 203.0.113.7"), "203.0.113.7");
    /* a chain of trusted proxies is skipped */
    trust("127.0.0.1", "10.0.0.0/8");
    ck_assert_str_eq(client("127.0.0.1", "198.51.100.2, 10.0.0.5"), "198.51.100.2");
    /* every hop trusted: the leftmost */
    ck_assert_str_eq(client("127.0.0.1", "10.0.0.9, 10.0.0.5"), "10.0.0.9");
    /* from a peer that is not a trusted proxy the header counts for nothing */
    ck_assert_str_eq(client("198.51.100.9", "127.0.0.1"), "198.51.100.9");
    /* no header, an empty one, or one whose last hop is not an address: the peer */
    ck_assert_str_eq(client("127.0.0.1", NULL), "127.0.0.1");
    ck_assert_str_eq(client("127.0.0.1", ""), "127.0.0.1");
    ck_assert_str_eq(client("127.0.0.1", "1.2.3.4, unknown"), "127.0.0.1");
    ck_assert_str_eq(client("127.0.0.1", " 2001:db8::5 "), "2001:db8::5");
    /* no trusted proxy at all */
    NR = 0;
    ck_assert_str_eq(client("127.0.0.1", "203.0.113.7"), "127.0.0.1");
}
END_TEST

START_TEST(keys_are_an_ipv4_address_or_an_ipv6_64)
{
    char k[NETADDR_TEXT];
    netaddr_key("203.0.113.7", k);
    ck_assert_str_eq(k, "203.0.113.7");
    netaddr_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd", k);
    ck_assert_str_eq(k, "2001:db8:1:2::/64");
    char k2[NETADDR_TEXT];
    netaddr_key("2001:db8:1:2::99", k2);
    ck_assert_str_eq(k, k2);
    netaddr_key("::ffff:192.0.2.1", k);
    ck_assert_str_eq(k, "192.0.2.1");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("netaddr");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ranges_parse_and_match);
    tcase_add_test(tc, the_client_is_the_rightmost_untrusted_hop);
    tcase_add_test(tc, keys_are_an_ipv4_address_or_an_ipv6_64);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
