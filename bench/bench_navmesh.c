/* tilenav-bench navmesh [--reps N] [--queries N] FILE...
 *
 * For each map file (tilenav or Moving AI format): the median time of a full
 * navmesh build over N repetitions (default 51) and the share of it spent in
 * the CDT, the outline/triangle counts, then path and line-of-sight query
 * times on random pairs of free tiles (fixed seed), and the single-tile edit
 * cost: toggle a random tile and back, each followed by the local update
 * (tn_navmesh_update_tile) or, for comparison, a full rebuild.  Target (issue 5): a
 * 256x256 map of random blocks with ~17,000 constraint edges built in under
 * 3 ms. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "fileio.h"

#include "tn_map.h"
#include "tn_navmesh.h"
#include "tn_rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/clear_oracle.h"
#include "../tests/tu_nav.h"

/* Radius paths against the tangent-graph oracle (tests/clear_oracle.h):
 * per radius, nq random clear start/goal pairs (1/8-tile grid): how many
 * each solves, the exact length / oracle (worst |ratio - 1|), the returned
 * polyline / oracle (worst), the least clearance minus r (exact, over the
 * polyline), the query time (median, p90).  The oracle is O(corners^2), so
 * it is skipped beyond `max_corners` convex corners (times only). */
static void radius_table(const tn_map *map, tn_navquery *q, int nq, int max_corners)
{
    static const double RADII[3] = {0.25, 0.4, 0.75};
    int corners = 0;
    for (int y = 0; y <= map->h; y++)
        for (int x = 0; x <= map->w; x++) {
            int nb = or_blocked(map, x - 1, y - 1) + or_blocked(map, x, y - 1) +
                     or_blocked(map, x - 1, y) + or_blocked(map, x, y);
            corners += nb == 1;
        }
    bool oracle = corners <= max_corners;
    int cap = 1 << 16;
    float *xy = bench_alloc(sizeof(float) * 2 * (size_t)cap);
    double *tq = bench_alloc(sizeof(double) * (size_t)(nq > 0 ? nq : 1));
    for (int ri = 0; ri < 3; ri++) {
        double r = RADII[ri];
        or_graph g;
        if (oracle) or_build(&g, map, r);
        tn_rng rng;
        tn_rng_seed(&rng, 99 + (uint64_t)ri, 3);
        int n = 0, ok = 0, unreach = 0, agree = 0, bad_clear = 0;
        double worst_exact = 0, worst_poly = 1, margin = INFINITY;
        for (int i = 0; i < nq; i++) {
            double p[4];
            bool have = true;
            for (int k = 0; k < 2 && have; k++) {
                have = false;
                for (int t = 0; t < 200 && !have; t++) {
                    p[2 * k] = tn_rng_below(&rng, (uint32_t)(8 * map->w)) / 8.0;
                    p[2 * k + 1] = tn_rng_below(&rng, (uint32_t)(8 * map->h)) / 8.0;
                    have = or_seg_clearance(map, p[2 * k], p[2 * k + 1], p[2 * k], p[2 * k + 1],
                                            r) >= r;
                }
            }
            if (!have) break;
            int np;
            double t0 = bench_now();
            tn_status st = tn_navquery_find_path(q, (float)p[0], (float)p[1], (float)p[2],
                                                 (float)p[3], (float)r, xy, cap, &np, NULL);
            tq[n++] = bench_now() - t0;
            bool solved = st == TN_OK;
            ok += solved;
            unreach += !solved;
            double cl = INFINITY;
            if (solved) {
                for (int k = 0; k + 1 < np; k++)
                    cl = fmin(cl, or_seg_clearance(map, xy[2 * k], xy[2 * k + 1], xy[2 * k + 2],
                                                   xy[2 * k + 3], r));
                margin = fmin(margin, cl - r);
                bad_clear += cl < r - 1e-4;
            }
            if (!oracle) continue;
            double best = or_query(&g, p[0], p[1], p[2], p[3]);
            if ((best < INFINITY) == solved) agree++;
            if (solved && best < INFINITY && best > 0) {
                double pl = 0;
                for (int k = 0; k + 1 < np; k++)
                    pl += hypot(xy[2 * k + 2] - xy[2 * k], xy[2 * k + 3] - xy[2 * k + 1]);
                worst_exact = fmax(worst_exact, fabs(tn_navquery_length(q) / best - 1));
                worst_poly = fmax(worst_poly, pl / best);
            }
        }
        if (oracle) {
            printf("%-22s   r=%.2f: %4d queries, %4d solved, %3d not; oracle agrees on %4d; "
                   "exact/oracle worst |1-x| %.1e, polyline/oracle worst %.5f; clearance "
                   "r%+.1e (%d below r-1e-4); %.1f us median, p90 %.1f us\n",
                   "", r, n, ok, unreach, agree, worst_exact, worst_poly, margin, bad_clear,
                   n ? bench_median(tq, n) * 1e6 : 0, n ? bench_percentile(tq, n, 90) * 1e6 : 0);
            or_free(&g);
        } else {
            printf("%-22s   r=%.2f: %4d queries, %4d solved, %3d not (oracle skipped: %d "
                   "corners); clearance r%+.1e (%d below r-1e-4); %.1f us median, p90 %.1f us\n",
                   "", r, n, ok, unreach, corners, margin, bad_clear,
                   n ? bench_median(tq, n) * 1e6 : 0, n ? bench_percentile(tq, n, 90) * 1e6 : 0);
        }
    }
    free(xy);
    free(tq);
}

static int bench_file(const char *path, int reps, int nqueries)
{
    /* tn_read_file says why (no such file, a directory) and never waits on
     * a FIFO (tu_slurp opened one and blocked, and a directory made it ask
     * malloc for 2^63 bytes) */
    size_t len;
    char *buf = NULL, msg[512];
    if (tn_read_file(path, TN_MAP_FILE_MAX, &buf, &len, msg, sizeof msg) != 0) {
        tn_print_shown(stderr, "tilenav-bench navmesh: %s\n", msg);
        return 1;
    }
    tn_map *map = NULL;
    tn_error err;
    tn_status s = tn_map_parse(buf, len, path, NULL, &map, &err);
    free(buf);
    if (tn_failed(s)) {
        tn_print_shown(stderr, "%s\n", err.msg);
        return 1;
    }
    tu_counting mesh_count = {0}, query_count = {0};
    tn_allocator ma = tu_counting_allocator(&mesh_count), qa = tu_counting_allocator(&query_count);
    tn_navmesh *nm = NULL;
    tn_navmesh_create(map->w, map->h, NULL, &ma, &nm, &err);
    tn_navquery *q = NULL;
    if (nm) tn_navquery_create(nm, &qa, &q, &err);
    if (!nm || !q) {
        tn_print_shown(stderr, "%s: %s\n", path, err.msg);
        tn_navmesh_destroy(nm);
        tn_map_destroy(map);
        return 1;
    }
    tn_navmesh_set_clock(nm, bench_now);
    double *total = bench_alloc(sizeof(double) * (size_t)reps);
    double *cdt = bench_alloc(sizeof(double) * (size_t)reps);
    double *cpu = bench_alloc(sizeof(double) * (size_t)reps);
    int rc = 0;
    if (tn_failed(tn_navmesh_build(nm, map, &err))) { /* warm-up */
        tn_print_shown(stderr, "%s: %s\n", path, err.msg);
        rc = 1;
        goto done;
    }
    for (int r = 0; r < reps; r++) {
        double c0 = bench_cpu_now(), t0 = bench_now();
        tn_navmesh_build(nm, map, NULL);
        total[r] = bench_now() - t0;
        cpu[r] = bench_cpu_now() - c0;
        tn_navmesh_view v;
        tn_navmesh_get_view(nm, &v);
        cdt[r] = v.cdt_seconds;
    }
    tn_navmesh_view v;
    tn_navmesh_get_view(nm, &v);
    double tmed = bench_median(total, reps) * 1e3, cmed = bench_median(cdt, reps) * 1e3;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    double cpumed = bench_median(cpu, reps) * 1e3;
    printf("%-22s %4dx%-4d %7d %7d %7d %7d %5d %9.3f %9.3f %9.3f %5.1f%%\n", name, map->w, map->h,
           v.npoints, v.nsegments, v.ntris, v.nfree, v.nregions, tmed, cpumed, cmed,
           tmed > 0 ? 100.0 * cmed / tmed : 0.0);

    /* the same map with capacities sized to its content (25% headroom) */
    tu_counting mesh_cc = {0}, query_cc = {0};
    tn_allocator mca = tu_counting_allocator(&mesh_cc), qca = tu_counting_allocator(&query_cc);
    tn_navmesh_config ccfg = tn_navmesh_config_for_map(map, 0.25f);
    tn_navmesh *nmc = NULL;
    tn_navquery *qc = NULL;
    if (tn_succeeded(tn_navmesh_create(map->w, map->h, &ccfg, &mca, &nmc, &err)))
        tn_navquery_create(nmc, &qca, &qc, &err);
    bool c_ok = nmc && qc && tn_succeeded(tn_navmesh_build(nmc, map, &err));
    tn_navquery_destroy(qc);
    tn_navmesh_destroy(nmc);
    printf("%-22s   memory: worst-case capacity for the size: mesh %.1f MB incl. CDT, query "
           "%.1f MB; sized to the content (tn_navmesh_config_for_map, +25%%: %d points): "
           "mesh %.1f MB, query %.1f MB%s; triangulated by %s\n",
           "", mesh_count.bytes / 1048576.0, query_count.bytes / 1048576.0, ccfg.max_points,
           mesh_cc.bytes / 1048576.0, query_cc.bytes / 1048576.0, c_ok ? "" : " (build FAILED)",
           v.swept ? "one row sweep" : "the general CDT");
    /* Queries between random free tile centres. */
    int nfree = 0;
    for (int i = 0; i < map->w * map->h; i++) nfree += map->tile[i] != TN_TILE_BLOCK;
    if (nfree > 0 && nqueries > 0) {
        int32_t *freel = bench_alloc(sizeof(int32_t) * (size_t)nfree);
        int k = 0;
        for (int i = 0; i < map->w * map->h; i++)
            if (map->tile[i] != TN_TILE_BLOCK) freel[k++] = i;
        tn_rng rng;
        tn_rng_seed(&rng, 42, 5);
        int cap = 1 << 16;
        float *xy = bench_alloc(sizeof(float) * 2 * (size_t)cap);
        double *tp = bench_alloc(sizeof(double) * (size_t)nqueries);
        double *tl = bench_alloc(sizeof(double) * (size_t)nqueries);
        double *tr = bench_alloc(sizeof(double) * (size_t)nqueries);
        long expanded = 0;
        int found = 0, exact = 0, visible = 0;
        for (int i = 0; i < nqueries; i++) {
            int a = freel[tn_rng_below(&rng, (uint32_t)nfree)];
            int b = freel[tn_rng_below(&rng, (uint32_t)nfree)];
            float ax = (float)(a % map->w) + 0.5f, ay = (float)(a / map->w) + 0.5f;
            float bx = (float)(b % map->w) + 0.5f, by = (float)(b / map->w) + 0.5f;
            int n;
            double t0 = bench_now();
            tn_status st = tn_navquery_find_path(q, ax, ay, bx, by, 0, xy, cap, &n, NULL);
            tp[i] = bench_now() - t0;
            if (tn_succeeded(st) && !tn_status_detail(st, TN_UNREACHABLE)) {
                found++;
                exact += tn_navquery_exact(q);
                expanded += tn_navquery_expanded(q);
            }
            t0 = bench_now();
            tn_navquery_find_path(q, ax, ay, bx, by, 0.4f, xy, cap, &n, NULL);
            tr[i] = bench_now() - t0;
            t0 = bench_now();
            visible += tn_navmesh_los(nm, ax, ay, bx, by);
            tl[i] = bench_now() - t0;
        }
        printf("%-22s   path r=0: median %8.1f us  p90 %8.1f us  (%d/%d found, %d exact, "
               "%.0f nodes expanded)\n",
               "", bench_median(tp, nqueries) * 1e6, bench_percentile(tp, nqueries, 90) * 1e6,
               found, nqueries, exact, found ? (double)expanded / found : 0.0);
        printf("%-22s   path r=0.4: median %6.1f us  p90 %8.1f us;  line of sight: median %.2f "
               "us (%d visible)\n",
               "", bench_median(tr, nqueries) * 1e6, bench_percentile(tr, nqueries, 90) * 1e6,
               bench_median(tl, nqueries) * 1e6, visible);
        free(tp);
        free(tl);
        free(tr);
        free(xy);
        free(freel);
    }

    radius_table(map, q, nqueries, 1000);

    /* Single-tile edits: toggle a random tile, update the mesh locally
     * (tn_navmesh_update_tile), toggle it back, update again; and the same
     * edits with a full rebuild for comparison. */
    {
        tn_rng rng;
        tn_rng_seed(&rng, 7, 9);
        int n = 2 * reps;
        double *te = bench_alloc(sizeof(double) * (size_t)n);
        double *tf = bench_alloc(sizeof(double) * (size_t)n);
        int local = 0;
        for (int i = 0; i < n; i += 2) {
            int x = (int)tn_rng_below(&rng, (uint32_t)map->w);
            int y = (int)tn_rng_below(&rng, (uint32_t)map->h);
            int old = tn_map_tile(map, x, y);
            for (int k = 0; k < 2; k++) {
                tn_map_set_tile(
                    map, x, y,
                    k == 0 ? (old == TN_TILE_BLOCK ? TN_TILE_EMPTY : TN_TILE_BLOCK) : old, NULL);
                double t0 = bench_now();
                tn_navmesh_update_tile(nm, map, x, y, NULL);
                te[i + k] = bench_now() - t0;
                tn_navmesh_view ev;
                tn_navmesh_get_view(nm, &ev);
                local += ev.last_local;
            }
        }
        tn_rng_seed(&rng, 7, 9);
        for (int i = 0; i < n; i += 2) {
            int x = (int)tn_rng_below(&rng, (uint32_t)map->w);
            int y = (int)tn_rng_below(&rng, (uint32_t)map->h);
            int old = tn_map_tile(map, x, y);
            for (int k = 0; k < 2; k++) {
                tn_map_set_tile(
                    map, x, y,
                    k == 0 ? (old == TN_TILE_BLOCK ? TN_TILE_EMPTY : TN_TILE_BLOCK) : old, NULL);
                double t0 = bench_now();
                tn_navmesh_build(nm, map, NULL);
                tf[i + k] = bench_now() - t0;
            }
        }
        double tl = bench_median(te, n), tb = bench_median(tf, n);
        printf("%-22s   single-tile edit: local update median %.3f ms (%d of %d stayed local),"
               " full rebuild %.3f ms: %.1fx\n",
               "", tl * 1e3, local, n, tb * 1e3, tl > 0 ? tb / tl : 0.0);
        free(te);
        free(tf);
    }
done:
    free(total);
    free(cdt);
    free(cpu);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(map);
    return rc;
}

int bench_navmesh(int argc, char **argv)
{
    int reps = 51, nq = 200, rc = 0, files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(a, "--reps") == 0)
            bad = bench_arg_int("navmesh", a, v, 1, 1000000, &reps), i++;
        else if (strcmp(a, "--queries") == 0)
            bad = bench_arg_int("navmesh", a, v, 0, 10000000, &nq), i++;
        else if (a[0] == '-' && a[1]) {
            bench_arg_unknown("navmesh", a);
            bad = 1;
        }
        if (bad) {
            fprintf(stderr, "usage: tilenav-bench navmesh [--reps N] [--queries N] FILE...\n");
            return 2;
        }
    }
    printf("%-22s %9s %7s %7s %7s %7s %5s %9s %9s %9s %6s\n", "map", "size", "points", "constr",
           "tris", "free", "regns", "build ms", "(cpu ms)", "CDT ms", "CDT");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 || strcmp(argv[i], "--queries") == 0) {
            i++;
            continue;
        }
        files++;
        rc |= bench_file(argv[i], reps, nq);
    }
    if (!files) {
        fprintf(stderr, "usage: tilenav-bench navmesh [--reps N] [--queries N] FILE...\n");
        return 2;
    }
    printf("(medians of %d builds; target: 256x256 random blocks, ~17,000 constraints, < 3 ms)\n",
           reps);
    return rc;
}
