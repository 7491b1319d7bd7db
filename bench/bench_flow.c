/* tilenav-bench flow: flow-field full rebuild and single-tile edit update.
 *
 * Boards: N x N, 15% random blocks, 5% one-way platforms, 4 destinations,
 * fixed seed.  For each size and connectivity: the median (and p10/p90)
 * of repeated full rebuilds; then single-tile edits (a block placed on a
 * random open tile, then removed again: two updates) timed one by one, with
 * the median, p90 and the share that fell back to a full rebuild; the ratio
 * median edit / median rebuild is measured in the same run.  Then the
 * 4-connected rebuild of a maze: a serpentine corridor filling the board
 * (one destination at its end), where the search goes tile by tile.
 * Times are wall-clock (bench_now) and, in brackets, this thread's CPU time,
 * which a shared, loaded machine inflates much less.
 * Usage: tilenav-bench flow [--reps N] [--edits N] [--size N]
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_flow.h"
#include "tn_map.h"
#include "tn_rng.h"

static tn_map *board(int n, uint64_t seed)
{
    tn_rng r;
    tn_rng_seed(&r, seed, 3);
    tn_map *m = NULL;
    tn_map_create(n, n, NULL, &m, NULL);
    if (!m) return NULL;
    for (int i = 0; i < n * n; i++) {
        float u = tn_rng_float(&r);
        m->tile[i] = u < 0.15f ? TN_TILE_BLOCK : u < 0.20f ? TN_TILE_ONEWAY : TN_TILE_EMPTY;
    }
    for (int k = 0; k < 4; k++) {
        int i = (int)tn_rng_below(&r, (uint32_t)(n * n));
        m->tile[i] = TN_TILE_EMPTY;
        m->mark[i] = TN_MARK_DEST;
    }
    return m;
}

static int run(int n, int conn, int reps, int edits)
{
    tn_map *m = board(n, 42);
    tn_flow *f = NULL;
    tn_error e;
    if (!m || tn_failed(tn_flow_create(n, n, conn, NULL, &f, &e))) {
        fprintf(stderr, "flow: cannot create the %dx%d board\n", n, n);
        tn_map_destroy(m);
        return 1;
    }
    double *t = bench_alloc(sizeof(double) * (size_t)(reps > 2 * edits ? reps : 2 * edits));
    double *c = bench_alloc(sizeof(double) * (size_t)(reps > 2 * edits ? reps : 2 * edits));
    long *touched = bench_alloc(sizeof(long) * (size_t)(2 * edits));
    tn_flow_rebuild(f, m, NULL); /* warm up */
    for (int k = 0; k < reps; k++) {
        double c0 = bench_cpu_now(), t0 = bench_now();
        tn_flow_rebuild(f, m, NULL);
        t[k] = bench_now() - t0;
        c[k] = bench_cpu_now() - c0;
    }
    double p10 = bench_percentile(t, reps, 10), p90 = bench_percentile(t, reps, 90);
    double full = bench_median(t, reps), fullc = bench_median(c, reps);
    long reached = f->last_touched;
    /* Single-tile edits. */
    tn_rng r;
    tn_rng_seed(&r, 7, 9);
    int ne = 0, fulls = 0;
    for (int k = 0; k < edits; k++) {
        int x, y;
        do {
            x = (int)tn_rng_below(&r, (uint32_t)n);
            y = (int)tn_rng_below(&r, (uint32_t)n);
        } while (tn_map_tile(m, x, y) != TN_TILE_EMPTY || tn_map_mark(m, x, y) != TN_MARK_NONE);
        for (int pass = 0; pass < 2; pass++) {
            tn_map_set_tile(m, x, y, pass == 0 ? TN_TILE_BLOCK : TN_TILE_EMPTY, NULL);
            double c0 = bench_cpu_now(), t0 = bench_now();
            tn_flow_update(f, m, x, y, NULL);
            t[ne] = bench_now() - t0;
            c[ne] = bench_cpu_now() - c0;
            touched[ne] = f->last_touched;
            fulls += f->last_full;
            ne++;
        }
    }
    double tmax = 0;
    long tmaxcells = 0, tsum = 0;
    for (int k = 0; k < ne; k++) {
        if (t[k] > tmax) tmax = t[k];
        if (touched[k] > tmaxcells) tmaxcells = touched[k];
        tsum += touched[k];
    }
    double e90 = bench_percentile(t, ne, 90), emed = bench_median(t, ne);
    double emedc = bench_median(c, ne);
    printf("%5dx%-5d %d-conn  rebuild median %8.3f ms [cpu %.3f] (p10 %.3f, p90 %.3f; %ld tiles "
           "reached)\n",
           n, n, conn, full * 1e3, fullc * 1e3, p10 * 1e3, p90 * 1e3, reached);
    printf("%12s %d-conn  edit    median %8.4f ms [cpu %.4f]  p90 %.4f  max %.3f ms; %.1f tiles "
           "recomputed on average (max %ld); %d of %d fell back to a rebuild\n",
           "", conn, emed * 1e3, emedc * 1e3, e90 * 1e3, tmax * 1e3, (double)tsum / ne, tmaxcells,
           fulls, ne);
    printf("%12s %d-conn  edit/rebuild ratio: median %.2f%% [cpu %.2f%%], p90 %.2f%%  (target < "
           "10%%)\n",
           "", conn, 100.0 * emed / full, 100.0 * emedc / fullc, 100.0 * e90 / full);
    free(t);
    free(c);
    free(touched);
    tn_flow_destroy(f);
    tn_map_destroy(m);
    return 0;
}

/* The serpentine: rows of wall with a gap at alternating ends. */
static int run_maze(int n, int reps)
{
    tn_map *m = NULL;
    tn_map_create(n, n, NULL, &m, NULL);
    tn_flow *f = NULL;
    tn_error e;
    if (!m || tn_failed(tn_flow_create(n, n, 4, NULL, &f, &e))) {
        fprintf(stderr, "flow: cannot create the %dx%d maze\n", n, n);
        tn_map_destroy(m);
        return 1;
    }
    for (int y = 1; y < n; y += 2)
        for (int x = 0; x < n; x++)
            if (x != ((y / 2) % 2 ? 0 : n - 1)) m->tile[y * n + x] = TN_TILE_BLOCK;
    m->mark[0] = TN_MARK_DEST;
    double *t = bench_alloc(sizeof(double) * (size_t)reps),
           *c = bench_alloc(sizeof(double) * (size_t)reps);
    tn_flow_rebuild(f, m, NULL); /* warm up */
    for (int k = 0; k < reps; k++) {
        double c0 = bench_cpu_now(), t0 = bench_now();
        tn_flow_rebuild(f, m, NULL);
        t[k] = bench_now() - t0;
        c[k] = bench_cpu_now() - c0;
    }
    printf("%5dx%-5d 4-conn  maze rebuild median %8.3f ms [cpu %.3f] (%ld tiles reached)\n", n, n,
           bench_median(t, reps) * 1e3, bench_median(c, reps) * 1e3, f->last_touched);
    free(t);
    free(c);
    tn_flow_destroy(f);
    tn_map_destroy(m);
    return 0;
}

int bench_flow(int argc, char **argv)
{
    int reps = 31, edits = 200, only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad;
        if (strcmp(a, "--reps") == 0)
            bad = bench_arg_int("flow", a, v, 1, 100000, &reps);
        else if (strcmp(a, "--edits") == 0)
            bad = bench_arg_int("flow", a, v, 1, 10000000, &edits);
        else if (strcmp(a, "--size") == 0) /* 4 destinations on a board of 15% blocks */
            bad = bench_arg_int("flow", a, v, 4, TN_MAP_MAX_SIZE, &only);
        else {
            bench_arg_unknown("flow", a);
            fprintf(stderr, "usage: tilenav-bench flow [--reps N] [--edits N] [--size N]\n");
            return 2;
        }
        if (bad) return 2;
        i++;
    }
    printf("flow field: boards with 15%% blocks, 5%% one-way, 4 destinations; medians of %d "
           "rebuilds and %d edits (block placed + removed)\n",
           reps, 2 * edits);
    static const int SIZES[] = {256, 1024};
    for (int s = 0; s < 2; s++) {
        if (only && SIZES[s] != only) continue;
        for (int conn = 4; conn <= 8; conn += 4)
            if (run(SIZES[s], conn, reps, edits)) return 1;
    }
    if (only && only != 256 && only != 1024)
        for (int conn = 4; conn <= 8; conn += 4)
            if (run(only, conn, reps, edits)) return 1;
    for (int s = 0; s < 2; s++)
        if ((!only || SIZES[s] == only) && run_maze(SIZES[s], reps)) return 1;
    if (only && only != 256 && only != 1024 && run_maze(only, reps)) return 1;
    printf(
        "target: 1024x1024 4-connected rebuild < 4 ms; a single-tile edit < 10%% of a rebuild\n");
    return 0;
}
