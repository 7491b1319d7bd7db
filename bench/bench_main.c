/* tilenav-bench: benchmark and tool programs that print tables.
 * Usage: tilenav-bench COMMAND [ARGS...]; `tilenav-bench help` lists them. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_percentile(double *v, int n, double p)
{
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(p / 100.0 * (double)(n - 1) + 0.5);
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return v[i];
}

double bench_median(double *v, int n)
{
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} COMMANDS[] = {
    {"genmap", bench_genmap,
     "genmap --kind blocks|platformer --size N [--blocks N] --seed S [-o FILE.map [--force]]: "
     "write a random map (an existing FILE is replaced only with --force)"},
    {"astar", bench_astar,
     "astar [--queries N] [--reps R] [--seed S] [--limit L]: platformer A* query times (demo "
     "map, with and without a search trace; 512x512 level)"},
    {"arrival", bench_arrival,
     "arrival [--levels N] [--goals K] [--seed S] [--out DIR] [--size WxH] [--quiet] "
     "[--planner classic|graph]: bot arrival rate on random levels"},
    {"flow", bench_flow,
     "flow [--reps N] [--edits N] [--size N]: flow-field rebuild and single-edit update times"},
    {"enemies", bench_enemies,
     "enemies [--map FILE] [--steps N] [--frames N]: world step time with 1,000 and 10,000 "
     "enemies, software rendering frame rate"},
    {"render", bench_render,
     "render --map FILE [--frames N] [--steps N] [--overlays none,path,...] [--zooms 0,1,...] "
     "[--pan PX]: "
     "frame drawing time per zoom level and overlay (software renderer)"},
    {"cdt", bench_cdt,
     "cdt --points N | --map FILE... | --dump-input FILE.map | --dump-points N [...]: "
     "triangulation times (options: tilenav-bench cdt --help)"},
    {"navmesh", bench_navmesh,
     "navmesh [--reps N] [--queries N] FILE...: navmesh build, update and query times per map"},
    {"agents", bench_agents,
     "agents [--agents N] [--enemies N] [--steps N] [--runs R] [--size S] [--seed S] "
     "[--only companions|wanderers]: companion-style agents and wanderers step time"},
    {"soak", bench_soak,
     "soak --steps N --seed S [--map FILE] [--every K] [--planner classic|graph]: full world "
     "with random edits, invariants checked"},
    {"tiled", bench_tiled,
     "tiled [--reps N] [--size N] [--keep]: Tiled .tmj/.tmx load times (512x512)"},
    {"edits", bench_edits,
     "edits [--size N] [--seed S] [--edits K] [--frame-ms F]: what a map edit costs the game "
     "on a big level, the graph repaired in the edit and in the background"},
    {"surf", bench_surf,
     "surf [--sizes 64,128,512,1024|none] [--edits K] [--queries Q] [--gaps] [--oracle N] "
     "[--optimality N] [--coyote full|last|all|none] [--landmarks K] [--threads T] "
     "[--huge-pages]: graph planner build, edit, query; gap widths; oracle sweep; optimality "
     "against the physics"},
};

int main(int argc, char **argv)
{
    size_t n = sizeof COMMANDS / sizeof COMMANDS[0];
    if (argc >= 2) {
        for (size_t i = 0; i < n; i++)
            if (strcmp(argv[1], COMMANDS[i].name) == 0) return COMMANDS[i].fn(argc - 1, argv + 1);
    }
    FILE *out = argc >= 2 && strcmp(argv[1], "help") == 0 ? stdout : stderr;
    if (argc >= 2 && out == stderr)
        fprintf(stderr, "tilenav-bench: unknown command '%s'\n", argv[1]);
    fprintf(out, "usage: tilenav-bench COMMAND [ARGS...]\ncommands:\n");
    for (size_t i = 0; i < n; i++) fprintf(out, "  %s\n", COMMANDS[i].help);
    return out == stdout ? 0 : 2;
}
