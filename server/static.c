/*
 * static.c — the browser client's files, cached, revalidated and compressed (static.h).
 */
#include "static.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "sha256.h"

#define STATIC_MAX_FILE (8 * 1024 * 1024) /* a file larger than this is not served */
#define STATIC_MIN_GZIP 512               /* smaller files go as they are */

typedef struct entry {
    char *path; /* below the directory, with its leading '/' */
    struct stat st;
    unsigned char *body, *gz;
    size_t len, gzlen;
    const char *ctype;
    char etag[24];
    struct entry *next;
} entry;

struct static_files {
    const char *dir;
    entry *head;
};

static const struct {
    const char *ext, *ctype;
    int text;
} TYPES[] = {
    {".html", "text/html; charset=utf-8", 1},
    {".js", "text/javascript; charset=utf-8", 1},
    {".mjs", "text/javascript; charset=utf-8", 1},
    {".css", "text/css; charset=utf-8", 1},
    {".json", "application/json", 1},
    {".webmanifest", "application/manifest+json", 1},
    {".svg", "image/svg+xml", 1},
    {".txt", "text/plain; charset=utf-8", 1},
    {".png", "image/png", 0},
    {".ico", "image/x-icon", 0},
    {".woff2", "font/woff2", 0},
};

static_files *static_files_create(const char *dir)
{
    static_files *sf = calloc(1, sizeof *sf);
    if (!sf)
        abort();
    sf->dir = dir;
    return sf;
}

static void entry_free(entry *e)
{
    free(e->path);
    free(e->body);
    free(e->gz);
    free(e);
}

void static_files_destroy(static_files *sf)
{
    if (!sf)
        return;
    for (entry *e = sf->head, *n; e; e = n) {
        n = e->next;
        entry_free(e);
    }
    free(sf);
}

/* Whether path (with its leading '/') may be served: no "..", no hidden file, nothing odd. */
static int path_ok(const char *path)
{
    if (path[0] != '/' || strlen(path) > 400)
        return 0;
    for (const char *s = path; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == '\\' || c == 0x7f)
            return 0;
        if (c == '/' && (s[1] == '.' || s[1] == '/' || s[1] == '\0'))
            return 0; /* "/.", "/..", hidden files, "//", a trailing '/' */
    }
    return 1;
}

/* The gzip form of e's body, when it is text and worth it. */
static void entry_compress(entry *e, int text)
{
    if (!text || e->len < STATIC_MIN_GZIP)
        return;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16 /* gzip */, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return;
    size_t cap = deflateBound(&z, (uLong)e->len);
    unsigned char *out = malloc(cap);
    if (!out)
        abort();
    z.next_in = e->body;
    z.avail_in = (uInt)e->len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out < e->len) {
        e->gz = out;
        e->gzlen = z.total_out;
    } else {
        free(out);
    }
    deflateEnd(&z);
}

/* (Re)reads the file at full into e; 0, or -1 when it is not a readable regular file. */
static int entry_load(static_files *sf, entry *e, const struct stat *st)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s", sf->dir, e->path);
    FILE *f = fopen(full, "rb");
    if (!f)
        return -1;
    unsigned char *body = malloc(st->st_size ? (size_t)st->st_size : 1);
    if (!body)
        abort();
    size_t got = fread(body, 1, (size_t)st->st_size, f);
    fclose(f);
    if (got != (size_t)st->st_size) {
        free(body);
        return -1;
    }
    free(e->body);
    free(e->gz);
    e->body = body;
    e->len = got;
    e->gz = NULL;
    e->gzlen = 0;
    e->st = *st;
    e->ctype = "application/octet-stream";
    int text = 0;
    size_t pl = strlen(e->path);
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++) {
        size_t el = strlen(TYPES[i].ext);
        if (pl > el && strcmp(e->path + pl - el, TYPES[i].ext) == 0) {
            e->ctype = TYPES[i].ctype;
            text = TYPES[i].text;
            break;
        }
    }
    char hex[65];
    sha256_hex(e->body, e->len, hex);
    snprintf(e->etag, sizeof e->etag, "\"%.16s\"", hex);
    entry_compress(e, text);
    return 0;
}

int static_files_get(static_files *sf, const char *uri, static_file *out)
{
    char path[512];
    size_t n = strcspn(uri, "?#");
    if (n >= sizeof path - 16)
        return -1;
    memcpy(path, uri, n);
    path[n] = '\0';
    if (strcmp(path, "/") == 0)
        snprintf(path, sizeof path, "/index.html");
    if (!path_ok(path))
        return -1;
    char full[1024];
    snprintf(full, sizeof full, "%s%s", sf->dir, path);
    struct stat st;
    if (stat(full, &st) || !S_ISREG(st.st_mode) || st.st_size > STATIC_MAX_FILE)
        return -1;
    entry *e = sf->head;
    while (e && strcmp(e->path, path) != 0)
        e = e->next;
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e)
            abort();
        e->path = strdup(path);
        if (!e->path || entry_load(sf, e, &st)) {
            entry_free(e);
            return -1;
        }
        e->next = sf->head;
        sf->head = e;
    } else if (e->st.st_size != st.st_size || e->st.st_mtim.tv_sec != st.st_mtim.tv_sec ||
               e->st.st_mtim.tv_nsec != st.st_mtim.tv_nsec || e->st.st_ino != st.st_ino) {
        if (entry_load(sf, e, &st))
            return -1;
    }
    out->body = e->body;
    out->len = e->len;
    out->gz = e->gz;
    out->gzlen = e->gzlen;
    out->ctype = e->ctype;
    memcpy(out->etag, e->etag, sizeof out->etag);
    return 0;
}

/* What a page of this site may load: its own scripts, styles, images (data: and blob: for
 * images made in the page), its manifest, and WebSockets to itself; nothing framed, nothing
 * inline. */
static const char CSP[] = "default-src 'none'; script-src 'self'; style-src 'self'; "
                          "img-src 'self' data: blob:; font-src 'self'; connect-src 'self' ws: "
                          "wss:; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
                          "form-action 'none'";

int static_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end)
{
    static const struct {
        const char *name, *value;
    } H[] = {
        {"content-security-policy:", CSP},
        {"x-content-type-options:", "nosniff"},
        {"referrer-policy:", "no-referrer"},
        {"x-frame-options:", "deny"},
    };
    for (size_t i = 0; i < sizeof H / sizeof H[0]; i++)
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)H[i].name,
                                        (const unsigned char *)H[i].value, (int)strlen(H[i].value),
                                        p, end))
            return 1;
    return 0;
}
