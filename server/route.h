/*
 * route.h — routing keys in URLs (issue 28 item 2): several tabled processes behind one router
 * (nginx, deploy/nginx-tabled-shards.conf), each owning its campaigns, and no lookup of ours.
 *
 * A process started with --shard NAME mints campaign ids "NAME-c…" and puts the campaign's id in
 * every URL a browser uses for it: the page /c/<id>/, its WebSocket /c/<id>/ws, the GM's
 * /c/<id>/api/join; its console is /c/NAME/. The router reads the key's "NAME-" prefix (a map
 * the operator edits; a moved campaign gets a line of its own). A key without a prefix is a
 * campaign made before the shards, and the unkeyed paths of before (/ws, /api/join) stay: links
 * printed by an older tabled keep working on the process that kept the old database.
 */
#ifndef TABLED_ROUTE_H
#define TABLED_ROUTE_H

#define ROUTE_SHARD_MAX 12 /* letters of a shard name */
#define ROUTE_KEY_MAX 40   /* letters of a routing key (a campaign id or a shard name) */

/* 1 when name is a usable shard name: 1 to ROUTE_SHARD_MAX letters a-z or digits. */
int route_shard_ok(const char *name);

/* Splits a request path. "/c/<key>/rest…": writes key, sets *rest to "/rest…" and returns 1
 * ("/c/<key>" alone: *rest = ""). A path that does not start with "/c/": *rest = uri, key "",
 * returns 0. "/c/" with a key that is not 1 to ROUTE_KEY_MAX of a-z, 0-9 and '-' (not first):
 * returns -1. */
int route_split(const char *uri, char key[ROUTE_KEY_MAX + 1], const char **rest);

/* 0 when this process may own key; else 1: the key names another shard (its "NAME-" prefix, or
 * the bare name of another shard's console is not ours: a router sent it to the wrong process).
 * shard NULL (one process, no router): every key is ours. A key without a prefix is a campaign
 * of before the shards, ours if we have it (the token or code decides). */
int route_foreign(const char *shard, const char *key);

/* The path base of a campaign's links: "/c/<id>/" when shard is set, else "/". */
const char *route_base(const char *shard, const char *campaign_id, char *buf, unsigned long cap);

#endif
