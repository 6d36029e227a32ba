/*
 * ops_journal.c — the journal of the evening (journal.export): a session's or the whole
 * campaign's log and table talk as a readable document, Markdown or a standalone print-friendly
 * HTML page, in the words the table saw, for one audience:
 *   "players"  what every player saw: the public parts only
 *   <seat>     that seat's version: the public parts and the seat's own private ones
 *   "gm"       everything
 * A player may ask only for their own seat's version. Row of OPS_JOURNAL; see ops.h for the
 * handler contract and protocol/PROTOCOL.md ("journal.export") for the wire shape.
 *
 * Secrecy by construction: the document is rendered from the audience's view of the state,
 * proto_filter_state (the filter every snapshot a seat receives goes through), never from the
 * full state; nothing else is read. The document says nothing derived from the whole state (no
 * export time, no event count): changing what the GM alone knows changes no byte of the
 * players' version (tests/integration/journal.test.mjs).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ops.h"
#include "protocol.h"

typedef enum jfmt { J_MD, J_HTML } jfmt;

/* One line of the journal: a log entry or a chat message of the view (borrowed). */
typedef struct jitem {
    json_t *e;
    int chat;         /* a message (else a log entry) */
    int secret;       /* from /gm: the GM's alone */
    const char *only; /* from /private/<seat>: that seat's and the GM's */
    json_int_t seq;
    size_t order; /* where it was found: keeps one event's lines in the order the log has them */
} jitem;

typedef struct jlist {
    jitem *v;
    size_t n, cap;
} jlist;

static void jlist_add(jlist *l, json_t *e, int chat, int secret, const char *only)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            abort();
    }
    l->v[l->n] =
        (jitem){e, chat, secret, only, json_integer_value(json_object_get(e, "seq")), l->n};
    l->n++;
}

/* Adds the entries of a log array. */
static void add_log(jlist *l, json_t *log, int secret, const char *only)
{
    size_t i;
    json_t *e;
    json_array_foreach(log, i, e) if (json_is_object(e)) jlist_add(l, e, 0, secret, only);
}

/* Adds the messages of a chat array, one per id: the full copy over a `hidden` one. */
static void add_chat(jlist *l, json_t *chat, int secret, const char *only)
{
    size_t i;
    json_t *m;
    json_array_foreach(chat, i, m)
    {
        const char *id = json_string_value(json_object_get(m, "id"));
        if (!id)
            continue;
        size_t k;
        for (k = 0; k < l->n; k++)
            if (l->v[k].chat &&
                strcmp(id, json_string_value(json_object_get(l->v[k].e, "id"))) == 0)
                break;
        if (k == l->n)
            jlist_add(l, m, 1, secret, only);
        else if (json_is_true(json_object_get(l->v[k].e, "hidden")) &&
                 !json_is_true(json_object_get(m, "hidden"))) {
            l->v[k].e = m;
            l->v[k].secret = secret;
        }
    }
}

/* Oldest first. Entries carry the public count (ops.h): an event only the GM or some seats see
 * shares its number with the next public one and came before it, so among equal numbers the earlier
 * time, then the GM's lines, then the order the lists keep. */
static int jitem_cmp(const void *a, const void *b)
{
    const jitem *x = a, *y = b;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    json_int_t xa = json_integer_value(json_object_get(x->e, "at"));
    json_int_t ya = json_integer_value(json_object_get(y->e, "at"));
    if (xa != ya)
        return xa < ya ? -1 : 1;
    if (x->secret != y->secret)
        return x->secret ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* ---- words ---- */

static const char *seat_name(json_t *view, const char *seat)
{
    if (!seat)
        return "Someone";
    if (strcmp(seat, "gm") == 0)
        return "GM";
    const char *n = json_string_value(
        json_object_get(json_object_get(json_object_get(view, "seats"), seat), "name"));
    return n ? n : "Someone";
}

/* Who a log entry names, as the log shows it: an encounter line's actor (while its scene holds
 * them), the character a check was rolled for (`name`), else the seat's name. */
static const char *entry_who(json_t *view, json_t *e)
{
    const char *actor = json_string_value(json_object_get(e, "actor"));
    const char *scene = json_string_value(json_object_get(e, "scene"));
    const char *kind = json_string_value(json_object_get(e, "kind"));
    if (actor && kind && strcmp(kind, "enc") == 0) {
        json_t *sc = scene && strcmp(scene, "enc") != 0
                         ? json_object_get(json_object_get(view, "scenes"), scene)
                         : json_object_get(view, "enc");
        const char *n = json_string_value(
            json_object_get(json_object_get(json_object_get(sc, "combatants"), actor), "name"));
        if (n)
            return n;
    }
    const char *n = json_string_value(json_object_get(e, "name"));
    return n ? n : seat_name(view, json_string_value(json_object_get(e, "seat")));
}

/* Writes s[0..n) escaped for the format. */
static void put_n(FILE *o, jfmt f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (f == J_HTML) {
            switch (c) {
            case '&':
                fputs("&amp;", o);
                break;
            case '<':
                fputs("&lt;", o);
                break;
            case '>':
                fputs("&gt;", o);
                break;
            case '"':
                fputs("&quot;", o);
                break;
            case '\'':
                fputs("&#39;", o);
                break;
            case '\n':
                fputs("<br>", o);
                break;
            case '\r':
                break;
            default:
                fputc(c, o);
            }
        } else {
            if (c == '\n') {
                fputs("  \n  ", o); /* a line break inside the list item */
                continue;
            }
            if (c == '\r')
                continue;
            if (c != '\0' && strchr("\\`*_[]<>#|~", c))
                fputc('\\', o);
            fputc(c, o);
        }
    }
}

static void put(FILE *o, jfmt f, const char *s)
{
    put_n(o, f, s, strlen(s));
}

static void put_strong(FILE *o, jfmt f, const char *s)
{
    fputs(f == J_MD ? "**" : "<strong>", o);
    put(o, f, s);
    fputs(f == J_MD ? "**" : "</strong>", o);
}

/* A rule's name as the table reads it: "pool_check" → "Pool check". */
static void put_label(FILE *o, jfmt f, const char *s)
{
    char buf[80];
    size_t n = 0;
    for (; s[n] && n + 1 < sizeof buf; n++)
        buf[n] = s[n] == '_' || s[n] == '.' ? ' ' : s[n];
    buf[n] = '\0';
    buf[0] = (char)toupper((unsigned char)buf[0]);
    put(o, f, buf);
}

static void put_total(FILE *o, jfmt f, json_t *roll)
{
    json_t *t = json_object_get(roll, "total");
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(t));
    put_strong(o, f, json_is_integer(t) ? buf : "?");
}

/* The body of a log entry, after its author's name. */
static void put_entry(FILE *o, jfmt f, json_t *view, json_t *e)
{
    const char *kind = json_string_value(json_object_get(e, "kind"));
    kind = kind ? kind : "";
    json_t *roll = json_object_get(e, "roll");
    json_t *check = json_object_get(e, "check");
    const char *text = json_string_value(json_object_get(e, "text"));
    if (strcmp(kind, "roll") == 0 && json_is_object(roll)) {
        const char *expr = json_string_value(json_object_get(roll, "expr"));
        put(o, f, " rolled ");
        put(o, f, expr ? expr : "dice");
        put(o, f, ": ");
        put_total(o, f, roll);
        return;
    }
    if (strcmp(kind, "check") == 0 && json_is_object(check)) {
        const char *label = json_string_value(json_object_get(e, "label"));
        const char *name = json_string_value(json_object_get(check, "check"));
        put(o, f, " rolled ");
        if (label)
            put(o, f, label);
        else if (name && strcmp(name, "check") != 0)
            put_label(o, f, name);
        else
            put(o, f, "a check");
        /* the parameters: the public ones, and those the rulebook hides from players where the
         * view holds them (/gm/hidden/<seq>: the GM's view only) */
        char seq[24];
        snprintf(seq, sizeof seq, "%lld", (long long)json_integer_value(json_object_get(e, "seq")));
        json_t *lists[2] = {
            json_object_get(check, "params"),
            json_object_get(json_object_get(json_object_get(view, "gm"), "hidden"), seq)};
        int first = 1;
        for (int k = 0; k < 2; k++) {
            const char *key;
            json_t *v;
            json_object_foreach(lists[k], key, v)
            {
                if (!json_is_integer(v) && !json_is_string(v))
                    continue;
                put(o, f, first ? " (" : ", ");
                first = 0;
                put_label(o, f, key);
                put(o, f, " ");
                if (json_is_string(v)) {
                    put(o, f, json_string_value(v));
                } else {
                    char b[32];
                    snprintf(b, sizeof b, "%lld", (long long)json_integer_value(v));
                    put(o, f, b);
                }
            }
        }
        if (!first)
            put(o, f, ")");
        put(o, f, ": ");
        put_total(o, f, check);
        json_t *s = json_object_get(check, "success");
        if (json_is_boolean(s))
            put(o, f, json_is_true(s) ? ", success" : ", failure");
        return;
    }
    put(o, f, ": ");
    if (text)
        put(o, f, text);
    else
        put_label(o, f, *kind ? kind : "event");
}

/* A chat message's heading: "Ann", "Ann to the GM", "Ann whispers to Bob". */
static void put_chat_head(FILE *o, jfmt f, json_t *view, json_t *m)
{
    const char *from = json_string_value(json_object_get(m, "from"));
    const char *to = json_string_value(json_object_get(m, "to"));
    fputs(f == J_MD ? "**" : "<strong>", o);
    put(o, f, seat_name(view, from));
    if (to && strcmp(to, "gm") == 0)
        put(o, f, " to the GM");
    else if (to && strcmp(to, "all") != 0) {
        put(o, f, " whispers to ");
        put(o, f, seat_name(view, to));
    }
    fputs(f == J_MD ? "**" : "</strong>", o);
}

/* A roll in a message: its expression and total, or that it was rolled for the GM. */
static void put_chat_roll(FILE *o, jfmt f, json_t *r)
{
    const char *expr = json_string_value(json_object_get(r, "expr"));
    put(o, f, expr ? expr : "dice");
    if (!json_is_integer(json_object_get(r, "total"))) {
        put(o, f, " (for the GM)");
        return;
    }
    put(o, f, " = ");
    put_total(o, f, r);
}

/* A message's words, each [[...]] replaced by its roll. */
static void put_chat_body(FILE *o, jfmt f, json_t *m)
{
    json_t *rolls = json_object_get(m, "rolls");
    const char *text = json_string_value(json_object_get(m, "text"));
    put(o, f, ": ");
    if (!text || !*text) {
        json_t *r = json_array_get(rolls, 0);
        if (json_is_true(json_object_get(m, "hidden"))) {
            const char *expr = json_string_value(json_object_get(r, "expr"));
            put(o, f, "rolled ");
            put(o, f, expr ? expr : "dice");
            put(o, f, " for the GM");
            return;
        }
        put(o, f, "rolls ");
        put_chat_roll(o, f, r);
        return;
    }
    size_t i = 0;
    const char *rest = text;
    for (;;) {
        const char *at = strstr(rest, "[[");
        const char *end = at ? strstr(at + 2, "]]") : NULL;
        if (!at || !end) {
            put(o, f, rest);
            break;
        }
        put_n(o, f, rest, (size_t)(at - rest));
        put(o, f, "[");
        put_chat_roll(o, f, json_array_get(rolls, i++));
        put(o, f, "]");
        rest = end + 2;
    }
}

/* "(GM only)", "(Ann and the GM)": who else read a line, beside it. */
static void put_audience(FILE *o, jfmt f, json_t *view, const jitem *it)
{
    const char *to = it->chat ? json_string_value(json_object_get(it->e, "to")) : NULL;
    char buf[120];
    if (it->secret)
        snprintf(buf, sizeof buf, "GM only");
    else if (it->chat && to && strcmp(to, "all") != 0)
        return; /* the heading says who a whisper was for */
    else if (it->only)
        snprintf(buf, sizeof buf, "%s and the GM only", seat_name(view, it->only));
    else
        return;
    fputs(f == J_MD ? " _(" : " <em class=\"aud\">(", o);
    put(o, f, buf);
    fputs(f == J_MD ? ")_" : ")</em>", o);
}

static void put_time(FILE *o, jfmt f, json_t *e)
{
    json_t *at = json_object_get(e, "at");
    if (!json_is_integer(at))
        return;
    time_t s = (time_t)(json_integer_value(at) / 1000);
    struct tm tm;
    if (!gmtime_r(&s, &tm))
        return;
    char buf[16];
    strftime(buf, sizeof buf, "%H:%M", &tm);
    fprintf(o, f == J_MD ? "%s · " : "<time>%s</time> ", buf);
}

/* Session N's number when e is the line session.begin logs ("Session N begins"), else 0. */
static long long session_begins(json_t *e)
{
    const char *kind = json_string_value(json_object_get(e, "kind"));
    const char *text = json_string_value(json_object_get(e, "text"));
    long long n = 0;
    char tail[8] = "";
    if (!kind || !text || strcmp(kind, "session") != 0 ||
        sscanf(text, "Session %lld %7s", &n, tail) != 2 || strcmp(tail, "begins") != 0)
        return 0;
    return n;
}

/* ---- the document ---- */

static const char CSS[] =
    "body{font:16px/1.5 Georgia,'Times New Roman',serif;color:#111;background:#fff;"
    "max-width:42em;margin:2em auto;padding:0 1em}"
    "h1{font-size:1.6em;margin:0 0 .2em}h2{font-size:1.2em;margin:1.5em 0 .5em;"
    "border-bottom:1px solid #999;break-after:avoid}"
    ".meta{color:#444;margin:0 0 1.5em}.e{margin:.3em 0;break-inside:avoid}"
    "time{color:#555;font-variant-numeric:tabular-nums;margin-right:.4em}"
    ".aud{color:#555}"
    "@media print{body{margin:0;max-width:none;font-size:11pt}a{color:inherit}}";

typedef struct jdoc {
    jfmt f;
    const char *title;    /* the campaign's name */
    const char *audience; /* in words: "the players", "Ann", "the GM" */
    const char *scope;    /* in words: "Session 3", "The whole campaign" */
} jdoc;

static void doc_head(FILE *o, const jdoc *d)
{
    if (d->f == J_MD) {
        fputs("# ", o);
        put(o, d->f, d->title);
        fputs(" — journal\n\n_", o);
        put(o, d->f, d->scope);
        fputs(", as ", o);
        put(o, d->f, d->audience);
        fputs(" saw it (times in UTC)_\n", o);
        return;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'\">"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>",
          o);
    put(o, d->f, d->title);
    fputs(" — journal</title><style>", o);
    fputs(CSS, o);
    fputs("</style></head>\n<body>\n<h1>", o);
    put(o, d->f, d->title);
    fputs(" — journal</h1>\n<p class=\"meta\">", o);
    put(o, d->f, d->scope);
    fputs(", as ", o);
    put(o, d->f, d->audience);
    fputs(" saw it (times in UTC)</p>\n", o);
}

static void doc_session(FILE *o, jfmt f, long long n)
{
    fprintf(o, f == J_MD ? "\n## Session %lld\n\n" : "<h2>Session %lld</h2>\n", n);
}

static void doc_line(FILE *o, jfmt f, json_t *view, const jitem *it)
{
    fputs(f == J_MD ? "- " : "<p class=\"e\">", o);
    put_time(o, f, it->e);
    if (it->chat) {
        put_chat_head(o, f, view, it->e);
        put_chat_body(o, f, it->e);
    } else {
        put_strong(o, f, entry_who(view, it->e));
        put_entry(o, f, view, it->e);
    }
    put_audience(o, f, view, it);
    fputs(f == J_MD ? "\n" : "</p>\n", o);
}

/* ---- the op ---- */

/* A file name's stem from words: "The Duke's Ball" → "the-duke-s-ball". */
static void slug(char *out, size_t cap, const char *s)
{
    size_t n = 0;
    int dash = 0;
    for (; *s && n + 2 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) && c < 128) {
            if (dash && n)
                out[n++] = '-';
            out[n++] = (char)tolower(c);
            dash = 0;
        } else
            dash = 1;
    }
    out[n] = '\0';
    if (!n)
        snprintf(out, cap, "campaign");
}

static int op_journal_export(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                             tb_err *err)
{
    const char *audience = json_string_value(json_object_get(args, "audience"));
    const char *scope = json_string_value(json_object_get(args, "scope"));
    const char *format = json_string_value(json_object_get(args, "format"));
    if (!audience)
        audience = ctx->is_gm ? "gm" : ctx->seat;
    if (!scope)
        scope = "campaign";
    if (!format)
        format = "md";
    if (strcmp(scope, "campaign") != 0 && strcmp(scope, "session") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "scope: 'session' or 'campaign'");
    if (strcmp(format, "md") != 0 && strcmp(format, "html") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "format: 'md' or 'html'");

    proto_viewer v = {NULL, 0};
    const char *aud_words;
    if (strcmp(audience, "gm") == 0) {
        v.is_gm = 1;
        aud_words = "the GM";
    } else if (strcmp(audience, "players") == 0) {
        aud_words = "the players";
    } else {
        if (!json_object_get(json_object_get(state, "seats"), audience))
            return tb_fail(err, TB_NOT_FOUND, "nobody sits at seat '%.32s'", audience);
        v.seat = audience;
        aud_words = seat_name(state, audience);
    }
    if (!ctx->is_gm && (v.is_gm || !v.seat || strcmp(v.seat, ctx->seat) != 0))
        return tb_fail(err, TB_FORBIDDEN, "a player's journal is their own: ask for your seat's");

    /* from here on only the audience's view is read */
    json_t *view = proto_filter_state(state, &v);
    jlist l = {0};
    add_log(&l, json_object_get(view, "log"), 0, NULL);
    add_chat(&l, json_object_get(view, "chat"), 0, NULL);
    json_t *gm = json_object_get(view, "gm");
    add_log(&l, json_object_get(gm, "log"), 1, NULL);
    add_chat(&l, json_object_get(gm, "chat"), 1, NULL);
    const char *seat;
    json_t *mine;
    json_object_foreach(json_object_get(view, "private"), seat, mine)
    {
        add_log(&l, json_object_get(mine, "log"), 0, seat);
        add_chat(&l, json_object_get(mine, "chat"), 0, seat);
    }
    if (l.n)
        qsort(l.v, l.n, sizeof *l.v, jitem_cmp);

    /* "session": from the line that began the current session (all that is kept when the log
     * no longer holds it: every kept line is newer) */
    json_int_t from = 0;
    long long number =
        json_integer_value(json_object_get(json_object_get(view, "session"), "number"));
    char scope_words[48] = "The whole campaign";
    if (strcmp(scope, "session") == 0) {
        if (number <= 0) {
            free(l.v);
            json_decref(view);
            return tb_fail(err, TB_RULE,
                           "no session has begun yet: ask for the whole campaign's journal");
        }
        for (size_t i = 0; i < l.n; i++)
            if (!l.v[i].chat && !l.v[i].secret && !l.v[i].only &&
                session_begins(l.v[i].e) == number)
                from = l.v[i].seq;
        snprintf(scope_words, sizeof scope_words, "Session %lld", number);
    }

    jdoc d = {strcmp(format, "html") == 0 ? J_HTML : J_MD,
              json_string_value(json_object_get(json_object_get(view, "campaign"), "name")),
              aud_words, scope_words};
    if (!d.title)
        d.title = "Campaign";
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    if (!o)
        abort();
    doc_head(o, &d);
    size_t shown = 0;
    for (size_t i = 0; i < l.n; i++) {
        const jitem *it = &l.v[i];
        if (it->seq < from)
            continue;
        long long n = it->chat || it->secret || it->only ? 0 : session_begins(it->e);
        if (n > 0) {
            doc_session(o, d.f, n);
            continue;
        }
        doc_line(o, d.f, view, it);
        shown++;
    }
    if (!shown)
        fputs(d.f == J_MD ? "\nNothing was said or rolled yet.\n"
                          : "<p>Nothing was said or rolled yet.</p>\n",
              o);
    if (d.f == J_HTML)
        fputs("</body></html>\n", o);
    fclose(o);

    char stem[48], who[48], name[160];
    slug(stem, sizeof stem, d.title);
    slug(who, sizeof who, v.is_gm ? "gm" : v.seat ? aud_words : "players");
    if (strcmp(scope, "session") == 0)
        snprintf(name, sizeof name, "%s-session-%lld-%s.%s", stem, number, who, format);
    else
        snprintf(name, sizeof name, "%s-journal-%s.%s", stem, who, format);
    *result = json_pack("{s:s, s:s, s:s, s:s, s:s%}", "format", format, "audience", audience,
                        "scope", scope, "filename", name, "text", text, len);
    free(text);
    free(l.v);
    json_decref(view);
    return TB_OK;
}

static const op_arg ARGS_EXPORT[] = {
    {"audience", ARG_STRING, 0, 1, 32},
    {"scope", ARG_STRING, 0, 1, 16},
    {"format", ARG_STRING, 0, 1, 8},
    {NULL, 0, 0, 0, 0},
};
static const op_write W_NONE[] = {{NULL, 0}};

const op_def OPS_JOURNAL[] = {
    {"journal.export", op_journal_export, WHO_ANY, 1, ARGS_EXPORT, W_NONE},
    {NULL, NULL, 0, 0, NULL, NULL},
};
