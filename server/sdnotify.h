/*
 * sdnotify.h — telling systemd how the service is doing (sd_notify(3), without libsystemd).
 *
 * deploy/tabled.service is Type=notify: systemd counts the service started when it says
 * "READY=1" (after it listens and has printed its links), shows "reloading" between
 * "RELOADING=1" and the next "READY=1" (SIGHUP), and "stopping" after "STOPPING=1".
 */
#ifndef TABLED_SDNOTIFY_H
#define TABLED_SDNOTIFY_H

/* Sends one state line ("READY=1", ...) to $NOTIFY_SOCKET (a path, or "@name" for an abstract
 * socket). Returns 1 when sent, 0 when there is no such socket to tell (not run by systemd), -1
 * when sending failed (logged). */
int sdnotify(const char *state);

#endif
