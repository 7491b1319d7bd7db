/* tilenav-bench agents: step time of many companions among enemies and of
 * many wanderers, on the navigation mesh's queries.
 *
 *   tilenav-bench agents [--agents N] [--enemies N] [--steps N] [--runs R]
 *                        [--size S] [--seed S] [--only companions|wanderers]
 *
 * The map: S x S tiles (default 128) of random square blocks of side 1-4
 * covering about 12% of it, its navmesh built once (pixel units).
 *  - companions: N (default 1,000) companions, each following its own
 *    "character" (a point walking at 160 px/s in a straight line, turning
 *    at walls and now and then at random), among E (default 1,000) enemies
 *    flying the same way at 60 px/s.  One step = bucketing enemies and
 *    companions into the tn_grid (boids separation from both) + N companion
 *    steps (line of sight every 4 steps, paths when sight is lost, per-axis
 *    collision).  Target: under 1 ms.
 *  - wanderers: N wanderers (bias 0.5, smoothness 0.5) walking toward a
 *    target that jumps to a new random free spot every 300 steps; one step
 *    = tn_wander_step over all of them.  Target: under 0.5 ms.  Measured
 *    with the path guide (the default) and without it.
 * Timings are per step, median (and 90th percentile) over `steps` steps
 * after a warm-up of 120 steps, and the median of the R runs' medians.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "fileio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tn_companion.h"
#include "tn_navmesh.h"
#include "tn_rng.h"
#include "tn_wander.h"

#define T ((float)TN_TILE_PX)
#define DT (1.0f / 60.0f)
#define WARMUP 120

/* CPU time of this thread, seconds: unlike the wall clock it does not count
 * the time other processes on this shared machine take the core away. */
/* ---- navigation queries on a navmesh (pixel units) ---- */

typedef struct meshnav {
    tn_navmesh *mesh;
    tn_navquery *q;
    float buf[2 * 129];
    long los, paths;
} meshnav;

static bool mn_los(void *user, float ax, float ay, float bx, float by)
{
    meshnav *m = user;
    m->los++;
    return tn_navmesh_los(m->mesh, ax, ay, bx, by);
}

static int mn_path(void *user, float ax, float ay, float bx, float by, float radius, float *xy,
                   int cap)
{
    meshnav *m = user;
    m->paths++;
    int n = 0, want = cap + 1 < 129 ? cap + 1 : 129;
    tn_status st = tn_navquery_find_path(m->q, ax, ay, bx, by, radius, m->buf, want, &n, NULL);
    if (tn_failed(st) || tn_status_detail(st, TN_UNREACHABLE) || n < 2) return 0; /* none */
    if (n > want) n = want;
    memcpy(xy, m->buf + 2, sizeof(float) * 2 * (size_t)(n - 1));
    return n - 1;
}

/* ---- the scene ---- */

static tn_map *make_map(int size, uint64_t seed)
{
    tn_map *m = NULL;
    tn_map_create(size, size, NULL, &m, NULL);
    if (!m) return NULL;
    tn_rng r;
    tn_rng_seed(&r, seed, 11);
    int target = (int)(0.12 * size * size), filled = 0;
    while (filled < target) {
        int s = 1 + (int)tn_rng_below(&r, 4);
        int x = (int)tn_rng_below(&r, (uint32_t)(size - s)),
            y = (int)tn_rng_below(&r, (uint32_t)(size - s));
        for (int yy = y; yy < y + s; yy++)
            for (int xx = x; xx < x + s; xx++)
                if (tn_map_tile(m, xx, yy) != TN_TILE_BLOCK) {
                    tn_map_set_tile(m, xx, yy, TN_TILE_BLOCK, NULL);
                    filled++;
                }
    }
    return m;
}

static void free_spot(const tn_map *m, tn_rng *r, float half, float *x, float *y)
{
    do {
        *x = tn_rng_range(r, 0, (float)m->w * T);
        *y = tn_rng_range(r, 0, (float)m->h * T);
    } while (!tn_steer_box_free(m, *x, *y, half));
}

/* Points flying straight, bouncing off walls, turning now and then. */
typedef struct mover {
    float x, y, vx, vy;
} mover;

static void movers_init(mover *v, int n, const tn_map *m, tn_rng *r, float speed, float half)
{
    for (int i = 0; i < n; i++) {
        free_spot(m, r, half, &v[i].x, &v[i].y);
        float a = tn_rng_range(r, 0, 6.2831853f);
        v[i].vx = speed * cosf(a);
        v[i].vy = speed * sinf(a);
    }
}

static void movers_step(mover *v, int n, const tn_map *m, tn_rng *r, float speed, float half)
{
    for (int i = 0; i < n; i++) {
        float vx = v[i].vx, vy = v[i].vy;
        unsigned hit = tn_steer_move(m, half, &v[i].x, &v[i].y, vx * DT, vy * DT, &vx, &vy);
        if (hit || tn_rng_below(r, 240) == 0) {
            float a = tn_rng_range(r, 0, 6.2831853f);
            vx = speed * cosf(a);
            vy = speed * sinf(a);
        }
        v[i].vx = vx;
        v[i].vy = vy;
    }
}

typedef struct result {
    double med_ms, p90_ms;   /* wall clock */
    double cpu_med, cpu_p90; /* thread CPU time, ms */
    double los_per_step, paths_per_step, search_share;
} result;

static result run_companions(const tn_map *m, meshnav *nav, int n, int ne, int steps, uint64_t seed)
{
    tn_rng r;
    tn_rng_seed(&r, seed, 21);
    tn_agent_nav an = {nav, mn_los, mn_path};
    tn_companion_params p = tn_companion_default_params();
    mover *chars = bench_alloc(sizeof *chars * (size_t)n),
          *en = bench_alloc(sizeof *en * (size_t)ne);
    tn_companion *c = bench_alloc(sizeof *c * (size_t)n);
    float *xy = bench_alloc(sizeof(float) * 2 * (size_t)(n + ne));
    double *t = bench_alloc(sizeof(double) * (size_t)steps),
           *tc = bench_alloc(sizeof(double) * (size_t)steps);
    tn_grid *g = NULL;
    tn_grid_create(0, 0, (float)m->w * T, (float)m->h * T, p.separation_radius, n + ne, NULL, &g,
                   NULL);
    movers_init(chars, n, m, &r, 160.0f, 16.0f);
    movers_init(en, ne, m, &r, 60.0f, 6.0f);
    for (int i = 0; i < n; i++) {
        float x = chars[i].x - 20, y = chars[i].y - 20;
        tn_steer_unstick(m, p.half, &x, &y, 64);
        tn_companion_init(&c[i], x, y, (unsigned)i);
    }
    long los0 = 0, paths0 = 0, searching = 0;
    for (int k = 0; k < WARMUP + steps; k++) {
        movers_step(chars, n, m, &r, 160.0f, 16.0f);
        movers_step(en, ne, m, &r, 60.0f, 6.0f);
        if (k == WARMUP) {
            los0 = nav->los;
            paths0 = nav->paths;
        }
        double c0 = bench_cpu_now(), t0 = bench_now();
        /* Enemies first, then the companions (separation among them too). */
        for (int i = 0; i < ne; i++) {
            xy[2 * i] = en[i].x;
            xy[2 * i + 1] = en[i].y;
        }
        for (int i = 0; i < n; i++) {
            xy[2 * (ne + i)] = c[i].x;
            xy[2 * (ne + i) + 1] = c[i].y;
        }
        tn_grid_build(g, xy, n + ne, NULL);
        for (int i = 0; i < n; i++) {
            tn_companion_env e = {m,           &an,  chars[i].x, chars[i].y, chars[i].vx,
                                  chars[i].vy, 8.0f, 16.0f,      g,          ne + i,
                                  NULL,        0,    DT};
            tn_companion_step(&c[i], &p, &e);
        }
        double t1 = bench_now(), c1 = bench_cpu_now();
        if (k >= WARMUP) {
            t[k - WARMUP] = (t1 - t0) * 1e3;
            tc[k - WARMUP] = (c1 - c0) * 1e3;
            for (int i = 0; i < n; i++) searching += c[i].state == TN_COMPANION_SEARCH;
        }
    }
    result res;
    res.p90_ms = bench_percentile(t, steps, 90);
    res.med_ms = bench_median(t, steps);
    res.los_per_step = (double)(nav->los - los0) / steps;
    res.paths_per_step = (double)(nav->paths - paths0) / steps;
    res.search_share = (double)searching / ((double)steps * n);
    res.cpu_p90 = bench_percentile(tc, steps, 90);
    res.cpu_med = bench_median(tc, steps);
    free(tc);
    tn_grid_destroy(g);
    free(chars);
    free(en);
    free(c);
    free(xy);
    free(t);
    return res;
}

static result run_wanderers(const tn_map *m, meshnav *nav, int n, int steps, uint64_t seed,
                            bool guide)
{
    tn_rng r;
    tn_rng_seed(&r, seed, 31);
    tn_agent_nav an = {nav, mn_los, mn_path};
    tn_wander_params p = tn_wander_default_params();
    p.guide = guide;
    tn_wander_env env = {m, &an, DT};
    tn_wanderer *a = bench_alloc(sizeof *a * (size_t)n);
    double *t = bench_alloc(sizeof(double) * (size_t)steps),
           *tc = bench_alloc(sizeof(double) * (size_t)steps);
    float tx, ty;
    free_spot(m, &r, 8, &tx, &ty);
    for (int i = 0; i < n; i++) {
        float x, y;
        free_spot(m, &r, p.half + 1, &x, &y);
        tn_wanderer_init(&a[i], x, y, tn_rng_range(&r, -3.14f, 3.14f), tx, ty, seed, (uint64_t)i);
    }
    long los0 = 0, paths0 = 0;
    for (int k = 0; k < WARMUP + steps; k++) {
        if (k % 300 == 299) {
            free_spot(m, &r, 8, &tx, &ty);
            for (int i = 0; i < n; i++) tn_wanderer_set_target(&a[i], tx, ty);
        }
        if (k == WARMUP) {
            los0 = nav->los;
            paths0 = nav->paths;
        }
        double c0 = bench_cpu_now(), t0 = bench_now();
        tn_wander_step(a, n, &p, &env);
        double t1 = bench_now(), c1 = bench_cpu_now();
        if (k >= WARMUP) {
            t[k - WARMUP] = (t1 - t0) * 1e3;
            tc[k - WARMUP] = (c1 - c0) * 1e3;
        }
    }
    result res = {0};
    res.p90_ms = bench_percentile(t, steps, 90);
    res.med_ms = bench_median(t, steps);
    res.los_per_step = (double)(nav->los - los0) / steps;
    res.paths_per_step = (double)(nav->paths - paths0) / steps;
    res.cpu_p90 = bench_percentile(tc, steps, 90);
    res.cpu_med = bench_median(tc, steps);
    free(tc);
    free(a);
    free(t);
    return res;
}

/* The uniform grid alone: build with n points, separation queries. */
static void run_grid(const tn_map *m, int n, uint64_t seed, double *build_us, double *query_ns)
{
    tn_rng r;
    tn_rng_seed(&r, seed, 41);
    float *xy = bench_alloc(sizeof(float) * 2 * (size_t)n);
    for (int i = 0; i < n; i++) free_spot(m, &r, 4, &xy[2 * i], &xy[2 * i + 1]);
    tn_grid *g = NULL;
    tn_grid_create(0, 0, (float)m->w * T, (float)m->h * T, 40.0f, n, NULL, &g, NULL);
    enum { REPS = 51, QUERIES = 20000 };
    double tb[REPS], tq[REPS], sink = 0;
    for (int k = 0; k < REPS; k++) {
        double t0 = bench_now();
        tn_grid_build(g, xy, n, NULL);
        double t1 = bench_now();
        for (int q = 0; q < QUERIES; q++) {
            float sx, sy;
            int i = q % n;
            sink += tn_grid_separation(g, xy[2 * i] + 3.0f, xy[2 * i + 1], 40.0f, i, &sx, &sy);
        }
        double t2 = bench_now();
        tb[k] = (t1 - t0) * 1e6;
        tq[k] = (t2 - t1) * 1e9 / QUERIES;
    }
    *build_us = bench_median(tb, REPS);
    *query_ns = bench_median(tq, REPS) + 0.0 * sink;
    tn_grid_destroy(g);
    free(xy);
}

static int usage(void)
{
    fprintf(stderr, "usage: tilenav-bench agents [--agents N] [--enemies N] [--steps N] "
                    "[--runs R] [--size S] [--seed S] [--only companions|wanderers]\n");
    return 2;
}

int bench_agents(int argc, char **argv)
{
    int n = 1000, ne = 1000, steps = 600, runs = 5, size = 128;
    uint64_t seed = 1;
    const char *only = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        unsigned long long s64;
        if (strcmp(a, "--agents") == 0)
            bad = bench_arg_int("agents", a, v, 1, 1000000, &n);
        else if (strcmp(a, "--enemies") == 0)
            bad = bench_arg_int("agents", a, v, 0, 1000000, &ne);
        else if (strcmp(a, "--steps") == 0)
            bad = bench_arg_int("agents", a, v, 1, 100000000, &steps);
        else if (strcmp(a, "--runs") == 0)
            bad = bench_arg_int("agents", a, v, 1, 100000, &runs);
        else if (strcmp(a, "--size") == 0)
            bad = bench_arg_int("agents", a, v, 16, 1024, &size);
        else if (strcmp(a, "--seed") == 0) {
            bad = bench_arg_seed("agents", a, v, &s64);
            if (!bad) seed = s64;
        } else if (strcmp(a, "--only") == 0) {
            if (!v) return bench_arg_missing("agents", a), usage();
            if (strcmp(v, "companions") != 0 && strcmp(v, "wanderers") != 0) {
                /* (any other word ran both, as if --only were not there) */
                tn_print_shown(stderr, "agents: --only: '%s' is not companions or wanderers\n", v);
                return usage();
            }
            only = v;
        } else
            return bench_arg_unknown("agents", a), usage();
        if (bad) return 2;
        i++;
    }
    tn_map *m = make_map(size, seed);
    tn_error err;
    tn_navmesh_config cfg = tn_navmesh_default_config();
    cfg.tile_size = T;
    meshnav nav = {0};
    if (!m || tn_failed(tn_navmesh_create(size, size, &cfg, NULL, &nav.mesh, &err)) ||
        tn_failed(tn_navmesh_build(nav.mesh, m, &err)) ||
        tn_failed(tn_navquery_create(nav.mesh, NULL, &nav.q, &err))) {
        fprintf(stderr, "agents: %s\n", err.msg);
        return 1;
    }
    tn_navmesh_view view;
    tn_navmesh_get_view(nav.mesh, &view);
    printf("agents: %dx%d map, 12%% random blocks, navmesh %d free triangles in %d regions; "
           "%d steps after %d warm-up, %d runs\n",
           size, size, view.nfree, view.nregions, steps, WARMUP, runs);
    printf("%-34s %10s %10s %10s %10s %10s %10s %10s\n", "", "median ms", "p90 ms", "cpu med",
           "cpu p90", "los/step", "paths/step", "searching");
    double *meds = bench_alloc(sizeof(double) * (size_t)runs), cm = -1, wm = -1;
    result last = {0};
    if (strcmp(only, "wanderers") != 0) {
        for (int k = 0; k < runs; k++) {
            last = run_companions(m, &nav, n, ne, steps, seed + (uint64_t)k);
            meds[k] = last.med_ms;
            char label[64];
            snprintf(label, sizeof label, "%d companions, %d enemies, run %d", n, ne, k + 1);
            printf("%-34s %10.3f %10.3f %10.3f %10.3f %10.1f %10.2f %9.1f%%\n", label, last.med_ms,
                   last.p90_ms, last.cpu_med, last.cpu_p90, last.los_per_step, last.paths_per_step,
                   100.0 * last.search_share);
        }
        cm = bench_median(meds, runs);
    }
    double wm_noguide = -1;
    if (strcmp(only, "companions") != 0) {
        for (int guide = 1; guide >= 0; guide--) {
            for (int k = 0; k < runs; k++) {
                last = run_wanderers(m, &nav, n, steps, seed + (uint64_t)k, guide != 0);
                meds[k] = last.med_ms;
                char label[64];
                snprintf(label, sizeof label, "%d wanderers%s, run %d", n,
                         guide ? "" : " (no guide)", k + 1);
                printf("%-34s %10.3f %10.3f %10.3f %10.3f %10.1f %10.2f %10s\n", label, last.med_ms,
                       last.p90_ms, last.cpu_med, last.cpu_p90, last.los_per_step,
                       last.paths_per_step, "-");
            }
            if (guide)
                wm = bench_median(meds, runs);
            else
                wm_noguide = bench_median(meds, runs);
        }
    }
    printf("\n%-34s %10s %10s %10s %8s\n", "median of the runs' medians", "ms/step", "ns/agent",
           "target ms", "");
    if (cm >= 0)
        printf("%-34s %10.3f %10.0f %10.3f %8s\n", "companions among enemies", cm, cm * 1e6 / n,
               1.0, cm < 1.0 ? "met" : "MISSED");
    if (wm >= 0)
        printf("%-34s %10.3f %10.0f %10.3f %8s\n", "wanderers", wm, wm * 1e6 / n, 0.5,
               wm < 0.5 ? "met" : "MISSED");
    if (wm_noguide >= 0)
        printf("%-34s %10.3f %10.0f %10.3f %8s\n", "wanderers without path guide", wm_noguide,
               wm_noguide * 1e6 / n, 0.5, wm_noguide < 0.5 ? "met" : "MISSED");
    free(meds);
    double build_us, query_ns;
    run_grid(m, n + ne, seed, &build_us, &query_ns);
    printf("grid (cells of 40 px, %d points): build %.1f us, separation query %.0f ns "
           "(medians of 51)\n",
           n + ne, build_us, query_ns);
    tn_navquery_destroy(nav.q);
    tn_navmesh_destroy(nav.mesh);
    tn_map_destroy(m);
    return 0;
}
