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
     "genmap --kind blocks|platformer --size N [--blocks N] --seed S [-o FILE]: write a random "
     "map"},
    {"astar", bench_astar, "astar: platformer A* query times (demo map, 512x512 level)"},
    {"arrival", bench_arrival,
     "arrival --levels N --goals K --seed S: bot arrival rate on random levels"},
    {"flow", bench_flow, "flow: flow-field rebuild and single-edit update times"},
    {"enemies", bench_enemies, "enemies: world step time with 1,000 and 10,000 enemies"},
    {"cdt", bench_cdt, "cdt --points N: triangulate N uniform random points"},
    {"navmesh", bench_navmesh, "navmesh FILE...: median navmesh build time per map"},
    {"agents", bench_agents, "agents: companion-style agents and wanderers step time"},
    {"soak", bench_soak,
     "soak --steps N --seed S: full world with random edits, invariants checked"},
    {"tiled", bench_tiled, "tiled [--reps N] [--size N]: Tiled .tmj/.tmx load times (512x512)"},
    {"surf", bench_surf,
     "surf [--sizes 64,128] [--edits K] [--gaps] [--oracle N]: graph planner build, edit, query; "
     "gap widths; oracle sweep"},
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
