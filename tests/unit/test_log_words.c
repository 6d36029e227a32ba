/*
 * test_log_words.c — the words of the log stay in the phrasings (issue 23, encounter.h "The
 * log"), checked over the sources of rules/ and the tables of every registered module:
 *   - no phrasing holds a printf conversion ('%');
 *   - every event rules/ logs (rules_log_begin's event, rules_log_word's and rules_log_list's
 *     phrase keys, when written as string literals) has a phrasing in its module's system (a
 *     module's, the system's or the common ones);
 *   - no rules_log_name argument is a buffer a printf-family call filled in the same function (a
 *     number formatted into a name would reach every reader);
 * (The free-text rules_enc_log / rules_enc_entry_* this test also counted are gone: every system
 * logs values with their audience, issue 23.)
 * The sources are read from TB_SOURCE_ROOT/rules (comments dropped, string literals kept).
 */
#include <check.h>
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "encounter.h"

#ifndef TB_SOURCE_ROOT
#error "test_log_words.c needs TB_SOURCE_ROOT (tb_source_root_dep in tests/meson.build)"
#endif

/* The systems whose modules still call the free-text log (remove a word when its system moved). */
/* ---- the sources ---- */

typedef struct src {
    char path[512];
    char system[32]; /* "cot" for rules/cot/..., "" for rules/ itself */
    char *text;      /* comments blanked out, string literals kept */
} src;

#define MAX_SRC 128
static src g_src[MAX_SRC];
static int g_nsrc;

/* Blanks comments out of t (in place), leaving string and character literals alone. */
static void drop_comments(char *t)
{
    for (char *p = t; *p; p++) {
        if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                return;
        } else if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            char *stop = end ? end + 2 : p + strlen(p);
            for (; p < stop; p++)
                if (*p != '\n')
                    *p = ' ';
            p--;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
            if (!*p)
                return;
        }
    }
}

static void load_dir(const char *dir, const char *system)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot read %s", dir);
    struct dirent *de;
    while ((de = readdir(d))) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (de->d_name[0] == '.' || stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && !system[0] && strcmp(de->d_name, "samples") != 0) {
            load_dir(path, de->d_name);
            continue;
        }
        size_t n = strlen(de->d_name);
        if (!S_ISREG(st.st_mode) || n < 3 || strcmp(de->d_name + n - 2, ".c") != 0)
            continue;
        ck_assert_int_lt(g_nsrc, MAX_SRC);
        src *s = &g_src[g_nsrc++];
        snprintf(s->path, sizeof s->path, "%s", path);
        snprintf(s->system, sizeof s->system, "%s", system);
        FILE *f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        s->text = calloc(1, (size_t)st.st_size + 1);
        ck_assert_ptr_nonnull(s->text);
        ck_assert_uint_eq(fread(s->text, 1, (size_t)st.st_size, f), (size_t)st.st_size);
        fclose(f);
        drop_comments(s->text);
    }
    closedir(d);
}

static void load_sources(void)
{
    if (g_nsrc)
        return;
    load_dir(TB_SOURCE_ROOT "/rules", "");
    ck_assert_int_gt(g_nsrc, 10);
}

/* The text of the call's arguments starting at `open` (its '('), up to the matching ')':
 * returns the index of argument `want` (0-based) start and its end in *end, or NULL. */
static const char *arg_of(const char *open, int want, const char **end)
{
    int depth = 0, arg = 0;
    const char *start = open + 1;
    for (const char *p = open; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            continue;
        }
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}') {
            if (--depth == 0) {
                if (arg == want) {
                    *end = p;
                    return start;
                }
                return NULL;
            }
        } else if (*p == ',' && depth == 1) {
            if (arg == want) {
                *end = p;
                return start;
            }
            arg++;
            start = p + 1;
        }
    }
    return NULL;
}

/* ---- the phrasings ---- */

static int has_phrase(const rules_phrase *t, const char *event)
{
    for (; t && t->event; t++)
        if (strcmp(t->event, event) == 0)
            return 1;
    return 0;
}

/* Whether event has a phrasing a module of system (or the system, or the common table) gives. */
static int phrased(const char *system, const char *event)
{
    if (has_phrase(rules_log_common(), event))
        return 1;
    const rules_system *s = rules_system_find(system);
    if (!s)
        return 0;
    if (has_phrase(s->phrases, event))
        return 1;
    for (const struct rules_module *const *m = s->modules; m && *m; m++)
        if (has_phrase((*m)->phrases, event))
            return 1;
    return 0;
}

static void no_conversion(const rules_phrase *t, const char *where)
{
    for (; t && t->event; t++)
        ck_assert_msg(strchr(t->text, '%') == NULL, "%s: phrasing '%s' holds a '%%': \"%s\"", where,
                      t->event, t->text);
}

START_TEST(no_phrasing_holds_a_printf_conversion)
{
    no_conversion(rules_log_common(), "the common phrasings");
    const rules_system *s;
    for (size_t i = 0; (s = rules_system_at(i)); i++)
        no_conversion(s->phrases, s->id);
    const rules_module *m;
    for (size_t i = 0; (m = rules_module_at(i)); i++)
        no_conversion(m->phrases, m->id);
}
END_TEST

/* Every string literal of the argument [a, b) is an event with a phrasing for the system. */
static void literals_phrased(const src *s, const char *a, const char *b, const char *call)
{
    for (const char *p = a; p < b; p++) {
        if (*p != '"')
            continue;
        const char *q = strchr(p + 1, '"');
        ck_assert_ptr_nonnull(q);
        char event[80];
        snprintf(event, sizeof event, "%.*s", (int)(q - p - 1), p + 1);
        ck_assert_msg(phrased(s->system, event),
                      "%s: %s logs the event \"%s\", which no phrasing of %s renders", s->path,
                      call, event, s->system[0] ? s->system : "the common table");
        p = q;
    }
}

START_TEST(every_event_logged_has_a_phrasing)
{
    load_sources();
    static const struct {
        const char *call;
        int arg; /* the argument holding the event */
    } CALLS[] = {{"rules_log_begin", 2}, {"rules_log_word", 2}, {"rules_log_list", 2}};
    for (int k = 0; k < g_nsrc; k++) {
        const src *s = &g_src[k];
        if (strstr(s->path, "/rules/log.c"))
            continue; /* the renderer itself */
        for (size_t c = 0; c < sizeof CALLS / sizeof *CALLS; c++) {
            size_t len = strlen(CALLS[c].call);
            for (const char *p = strstr(s->text, CALLS[c].call); p;
                 p = strstr(p + len, CALLS[c].call)) {
                const char *open = p + len;
                while (*open == ' ' || *open == '\n')
                    open++;
                if (*open != '(')
                    continue;
                const char *end, *a = arg_of(open, CALLS[c].arg, &end);
                if (a)
                    literals_phrased(s, a, end, CALLS[c].call);
            }
        }
    }
}
END_TEST

/* The bodies of the functions of t: each top-level { ... } block, in turn. */
static const char *next_body(const char *t, const char **end)
{
    const char *p = t;
    while (*p && !(*p == '{' && (p == t || p[-1] == '\n')))
        p++;
    if (!*p)
        return NULL;
    int depth = 0;
    for (const char *q = p; *q; q++) {
        if (*q == '"') {
            for (q++; *q && *q != '"'; q++)
                if (*q == '\\' && q[1])
                    q++;
            continue;
        }
        if (*q == '{')
            depth++;
        else if (*q == '}' && --depth == 0) {
            *end = q;
            return p;
        }
    }
    *end = p + strlen(p);
    return p;
}

START_TEST(no_logged_name_is_a_buffer_printf_filled)
{
    load_sources();
    regex_t call, filled;
    ck_assert_int_eq(regcomp(&call, "rules_log_name[[:space:]]*\\(", REG_EXTENDED), 0);
    for (int k = 0; k < g_nsrc; k++) {
        const src *s = &g_src[k];
        const char *end;
        for (const char *body = next_body(s->text, &end); body; body = next_body(end, &end)) {
            char *fn = strndup(body, (size_t)(end - body + 1));
            regmatch_t m;
            for (const char *p = fn; regexec(&call, p, 1, &m, 0) == 0; p += m.rm_eo) {
                const char *aend, *a = arg_of(p + m.rm_eo - 1, 2, &aend);
                if (!a)
                    continue;
                while (*a == ' ' || *a == '\n' || *a == '&')
                    a++;
                size_t n = 0;
                while (a[n] == '_' || (a[n] >= 'a' && a[n] <= 'z') ||
                       (a[n] >= 'A' && a[n] <= 'Z') || (a[n] >= '0' && a[n] <= '9'))
                    n++;
                if (!n || a[0] == '"')
                    continue;
                char re[200];
                snprintf(re, sizeof re,
                         "(snprintf|sprintf|vsnprintf|vsprintf|rules_str_printf)[[:space:]]*\\("
                         "[[:space:]]*&?%.*s[^A-Za-z0-9_]",
                         (int)n, a);
                ck_assert_int_eq(regcomp(&filled, re, REG_EXTENDED), 0);
                int bad = regexec(&filled, fn, 0, NULL, 0) == 0;
                regfree(&filled);
                ck_assert_msg(!bad,
                              "%s: rules_log_name is given '%.*s', which a printf-family call "
                              "filled in the same function: log the number as a value "
                              "(rules_log_int/count) and let a phrasing say it",
                              s->path, (int)n, a);
            }
            free(fn);
        }
    }
    regfree(&call);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("log_words");
    TCase *tc = tcase_create("words");
    tcase_add_test(tc, no_phrasing_holds_a_printf_conversion);
    tcase_add_test(tc, every_event_logged_has_a_phrasing);
    tcase_add_test(tc, no_logged_name_is_a_buffer_printf_filled);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    for (int i = 0; i < g_nsrc; i++)
        free(g_src[i].text);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
