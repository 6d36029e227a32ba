#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

/* A growing NULL-terminated vector of owned strings. */
typedef struct strvec {
    char **v;
    int n, cap;
} strvec;

static void strvec_push(strvec *s, const char *str, size_t len)
{
    if (s->n + 2 > s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = xrealloc(s->v, (size_t)s->cap * sizeof *s->v);
    }
    char *copy = xmalloc(len + 1);
    memcpy(copy, str, len);
    copy[len] = '\0';
    s->v[s->n++] = copy;
    s->v[s->n] = NULL;
}

static char *trim(char *s, char **end)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    *e = '\0';
    *end = e;
    return s;
}

/* A key is a long flag's name: a lower-case letter, then letters, digits and dashes. */
static int config__key_ok(const char *k)
{
    if (!islower((unsigned char)*k))
        return 0;
    for (; *k; k++)
        if (!islower((unsigned char)*k) && !isdigit((unsigned char)*k) && *k != '-')
            return 0;
    return 1;
}

/* Appends the options of file `path` to out. Returns 0, or 2 after printing the reason. */
static int config__read(const char *what, const char *path, strvec *out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot read the config file %s: %s\n", what, path, strerror(errno));
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, rc = 0;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char *end;
        char *s = trim(line, &end);
        if (!*s || *s == '#')
            continue;
        char *eq = strchr(s, '=');
        char *value = NULL, *vend = NULL;
        if (eq) {
            *eq = '\0';
            value = trim(eq + 1, &vend);
        }
        char *kend;
        char *key = trim(s, &kend);
        if (key[0] == '-' && key[1] == '-')
            key += 2; /* "--port = 1" reads as "port = 1" */
        if (!config__key_ok(key)) {
            fprintf(stderr, "%s: %s:%d: expected \"name = value\" with a flag's name (like port)\n",
                    what, path, lineno);
            rc = 2;
            break;
        }
        if (strcmp(key, "config") == 0) {
            fprintf(stderr, "%s: %s:%d: a config file cannot name another one\n", what, path,
                    lineno);
            rc = 2;
            break;
        }
        if (eq && !*value) {
            fprintf(stderr, "%s: %s:%d: %s has no value after \"=\"\n", what, path, lineno, key);
            rc = 2;
            break;
        }
        char flag[128];
        int n = snprintf(flag, sizeof flag, "--%s", key);
        if (n < 0 || (size_t)n >= sizeof flag) {
            fprintf(stderr, "%s: %s:%d: the name is too long\n", what, path, lineno);
            rc = 2;
            break;
        }
        strvec_push(out, flag, (size_t)n);
        if (eq)
            strvec_push(out, value, (size_t)(vend - value));
    }
    if (!rc && ferror(f)) {
        fprintf(stderr, "%s: cannot read the config file %s: %s\n", what, path, strerror(errno));
        rc = 2;
    }
    free(line);
    fclose(f);
    return rc;
}

int config_expand(const char *what, int argc, char **argv, int *out_argc, char ***out_argv)
{
    strvec out = {0};
    const char *path = NULL;
    int at = -1, span = 0; /* where --config is in argv, and how many words it takes */
    *out_argv = NULL;
    for (int i = 1; i < argc; i++) {
        const char *file = NULL;
        int words = 1;
        if (strcmp(argv[i], "--config") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: --config needs a value\n", what);
                return 2;
            }
            file = argv[i + 1];
            words = 2;
        } else if (strncmp(argv[i], "--config=", 9) == 0) {
            file = argv[i] + 9;
        } else {
            continue;
        }
        if (path) {
            fprintf(stderr, "%s: --config is given twice\n", what);
            return 2;
        }
        path = file;
        at = i;
        span = words;
        i += words - 1;
    }
    strvec_push(&out, argv[0], strlen(argv[0]));
    if (path && config__read(what, path, &out)) {
        config_free(out.v);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (i == at) {
            i += span - 1;
            continue;
        }
        strvec_push(&out, argv[i], strlen(argv[i]));
    }
    *out_argc = out.n;
    *out_argv = out.v;
    return 0;
}

void config_free(char **argv)
{
    if (!argv)
        return;
    for (char **p = argv; *p; p++)
        free(*p);
    free(argv);
}
