/*
 * test_sdnotify.c — the service's state lines reach systemd's socket (a real AF_UNIX datagram
 * socket here, by path and abstract), and nothing is sent without NOTIFY_SOCKET.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sdnotify.h"

/* A datagram socket bound at name (a path, or "@x" abstract); returns its fd. */
static int listener(const char *name)
{
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    size_t n = strlen(name);
    memcpy(sa.sun_path, name, n);
    if (name[0] == '@')
        sa.sun_path[0] = '\0';
    ck_assert_int_eq(
        bind(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)),
        0);
    return fd;
}

static void expect(int fd, const char *want)
{
    char buf[64];
    ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    ck_assert_str_eq(buf, want);
}

START_TEST(states_reach_the_socket_by_path_and_abstract)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/tabled-notify-%d", (int)getpid());
    unlink(path);
    int fd = listener(path);
    setenv("NOTIFY_SOCKET", path, 1);
    ck_assert_int_eq(sdnotify("READY=1"), 1);
    expect(fd, "READY=1");
    ck_assert_int_eq(sdnotify("RELOADING=1"), 1);
    expect(fd, "RELOADING=1");
    close(fd);
    unlink(path);

    char abstract[64];
    snprintf(abstract, sizeof abstract, "@tabled-notify-%d", (int)getpid());
    fd = listener(abstract);
    setenv("NOTIFY_SOCKET", abstract, 1);
    ck_assert_int_eq(sdnotify("STOPPING=1"), 1);
    expect(fd, "STOPPING=1");
    close(fd);
}
END_TEST

START_TEST(without_notify_socket_nothing_is_sent)
{
    unsetenv("NOTIFY_SOCKET");
    ck_assert_int_eq(sdnotify("READY=1"), 0);
    setenv("NOTIFY_SOCKET", "relative/path", 1);
    ck_assert_int_eq(sdnotify("READY=1"), 0);
    setenv("NOTIFY_SOCKET", "/nonexistent/dir/sock", 1);
    ck_assert_int_eq(sdnotify("READY=1"), -1);
    unsetenv("NOTIFY_SOCKET");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sdnotify");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, states_reach_the_socket_by_path_and_abstract);
    tcase_add_test(tc, without_notify_socket_nothing_is_sent);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
