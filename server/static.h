/*
 * static.h — the browser client's files (web-static/) as the server sends them: read once and
 * kept in memory, read again when the file changed on disk (size, mtime or inode), each with a
 * strong ETag (from its SHA-256) and, for text, a gzip copy. Answers are revalidated by the
 * browser on every load (`Cache-Control: no-cache` + ETag → 304), so an upgrade of the server's
 * files reaches every phone at its next load while an unchanged file costs a 304.
 *
 * Only server/ includes this header (it names lws). Not thread-safe: the loop thread only.
 */
#ifndef TABLED_STATIC_H
#define TABLED_STATIC_H

#include <libwebsockets.h>
#include <stddef.h>

typedef struct static_files static_files;

/* The files under dir (borrowed: must outlive the cache). Never NULL (aborts on OOM). */
static_files *static_files_create(const char *dir);
void static_files_destroy(static_files *sf);

/* One file as it is sent: borrowed from the cache until the next static_files_get. */
typedef struct static_file {
    const unsigned char *body, *gz; /* gz: NULL when not worth compressing */
    size_t len, gzlen;
    const char *ctype;
    char etag[24]; /* "\"<16 hex>\"" with its quotes */
} static_file;

/*
 * The file for the path of a GET (the query is ignored; "/" is "/index.html"). 0 with *out
 * filled; -1 when there is no such file, or the path leaves the directory (".."), names a hidden
 * file or a directory.
 */
int static_files_get(static_files *sf, const char *uri, static_file *out);

/* Adds the headers every answer of the server carries (a Content-Security-Policy that allows the
 * web app manifest and images from this site, nosniff, no referrer, no framing) at *p. 0 or 1
 * when the buffer is full. */
int static_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end);

#endif
