/*
 * bench_moves.c — what the moves cost (issue 23, tests/bench/README.md "bench_moves"): for each
 * system's fight module, a 10-combatant fight (6 PCs of 3 player seats, 4 NPCs) made through the
 * real op handlers, then the `enc.moves` handler timed for the GM, for a player, and for every
 * seat at once (the GM and the 3 players: what computing everybody's moves after each command
 * would add to it). Plain program, never run by meson test.
 *
 * Usage: bench_moves [ITERATIONS]   (default 200 per figure)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "encounter.h"
#include "ops.h"
#include "system.h"

static rules_rng *g_dice;

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs op as seat with args (stolen) on state; returns the result (new reference) or NULL. */
static json_t *run(json_t *state, const char *seat, const char *op, json_t *args)
{
    const op_def *d = ops_find("any", op);
    op_ctx ctx = {.seat = seat,
                  .is_gm = strcmp(seat, "gm") == 0,
                  .dice = g_dice,
                  .secret = g_dice,
                  .now_ms = 1700000000000,
                  .seq = 1,
                  .log_cap = 200};
    json_t *norm = NULL, *result = NULL;
    tb_err err = {0};
    if (!d || ops_check_args(d, args, &norm, &err) || d->fn(&ctx, state, norm, &result, &err)) {
        json_decref(result);
        result = NULL;
    }
    json_decref(norm);
    json_decref(args);
    return result;
}

/* The k-th sample sheet of the system (rules/<system>/samples, in name order, round robin). */
static json_t *sample(const char *system, int k)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/rules/%s/samples", TB_SOURCE_ROOT, system);
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort), found = 0;
    json_t *sheet = NULL;
    for (int i = 0; i < n; i++) {
        if (strstr(names[i]->d_name, ".json") && found++ == k % 3 && !sheet) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
            sheet = json_load_file(path, 0, NULL);
        }
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    return sheet;
}

/* Moves of seat `seat` (new reference), and how many. */
static json_t *moves(json_t *state, const char *seat, size_t *count)
{
    json_t *r = run(state, seat, "enc.moves", json_object());
    *count = json_array_size(json_object_get(json_object_get(r, "moves"), "enc"));
    return r;
}

static void bench(const char *module, int n)
{
    const rules_module *m = rules_module_find(module);
    json_t *state = ops_campaign_initial("c1", "Bench", m->system, "ABCD-EFGH");
    const char *seats[3] = {"p1", "p2", "p3"};
    for (int i = 0; i < 3; i++)
        json_decref(run(state, "gm", "seat.join", json_pack("{s:s}", "name", seats[i])));
    json_decref(run(state, "gm", "enc.start", json_pack("{s:s}", "module", module)));
    for (int k = 0; k < 6; k++) {
        json_t *sheet = sample(m->system, k);
        char name[16];
        snprintf(name, sizeof name, "PC %d", k + 1);
        json_t *ch =
            run(state, "gm", "char.create",
                json_pack("{s:s, s:o?, s:s}", "name", name, "sheet", sheet, "seat", seats[k % 3]));
        json_decref(
            run(state, "gm", "enc.add", json_pack("{s:O}", "char", json_object_get(ch, "id"))));
        json_decref(ch);
    }
    for (int k = 0; k < 4; k++)
        json_decref(
            run(state, "gm", "enc.add",
                json_pack("{s:{s:s, s:o?}}", "npc", "name", "Foe", "sheet", sample(m->system, k))));
    /* the fight under way: the GM's set-up action (begin or initiative) */
    json_t *r = run(state, "gm", "enc.act", json_pack("{s:s}", "action", "begin"));
    if (!r)
        r = run(state, "gm", "enc.act", json_pack("{s:s}", "action", "initiative"));
    json_decref(r);
    size_t n_gm, n_p;
    json_decref(moves(state, "gm", &n_gm));
    /* the player whose character has the turn, when one has */
    const char *cur = json_string_value(json_array_get(
        json_object_get(json_object_get(state, "enc"), "order"),
        (size_t)json_integer_value(json_object_get(json_object_get(state, "enc"), "turn"))));
    const char *pseat = json_string_value(json_object_get(
        json_object_get(json_object_get(json_object_get(state, "enc"), "combatants"), cur),
        "seat"));
    if (!pseat || strcmp(pseat, "gm") == 0)
        pseat = "p1";
    json_decref(moves(state, pseat, &n_p));
    double c0 = cpu_s();
    for (int i = 0; i < n; i++)
        json_decref(moves(state, "gm", &n_gm));
    double gm_us = (cpu_s() - c0) * 1e6 / n;
    c0 = cpu_s();
    for (int i = 0; i < n; i++)
        json_decref(moves(state, pseat, &n_p));
    double p_us = (cpu_s() - c0) * 1e6 / n;
    c0 = cpu_s();
    for (int i = 0; i < n; i++) {
        size_t x;
        json_decref(moves(state, "gm", &x));
        for (int s = 0; s < 3; s++)
            json_decref(moves(state, seats[s], &x));
    }
    double all_us = (cpu_s() - c0) * 1e6 / n;
    printf("%-20s %4zu moves GM %8.0f us | %3zu moves %s %7.0f us | every seat %8.0f us\n", module,
           n_gm, gm_us, n_p, pseat, p_us, all_us);
    json_decref(state);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    g_dice = rules_rng_seeded(7);
    printf("enc.moves in a 10-combatant fight (6 PCs of 3 seats, 4 NPCs), CPU per call, %d calls\n",
           n);
    static const char *const MODULES[] = {"cot.initiative", "heimr.combat", "grimwire.conflict",
                                          "tenacity.spotlight", "fivey.combat"};
    for (size_t i = 0; i < sizeof MODULES / sizeof *MODULES; i++)
        bench(MODULES[i], n);
    rules_rng_destroy(g_dice);
    return 0;
}
