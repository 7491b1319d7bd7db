/* SPDX-License-Identifier: Zlib */
/* tilenav-bench surf: the graph planner (tn_surf).
 *
 *  1. maps/demo.map, 1x2 character, jump 4: build time (median of 5),
 *     nodes, edges, memory; --queries pairs (start node, a goal tile
 *     reachable from it in the graph): found / partial, median and 99th
 *     percentile over the pairs of each pair's median of 3 passes (thread
 *     CPU time), allocations per query (counting
 *     allocator); --edits random single-tile edits: repair median, p90, mean, max,
 *     and the first edit's alone (no tn_surf_prepare_repairs: the dearer one).
 *  2. generated platformer levels (tn_levelgen) of each --sizes N (N x N,
 *     default 64,128; 512 and 1024 are the targets, which take
 *     seconds to build): build time (one run), then
 *     the same as 1.
 *  Then the speed targets against this run's numbers, each met or
 *  MISSED (the demo map's build; with 512 and 1024 in --sizes their builds,
 *  1024x1024's repair median and its query median and p99 per query mode).
 *  3. --gaps: the widest flat gap each planner crosses per jump height
 *     (a floor, a gap of k tiles, the same floor beyond; 1x2 character).
 *  4. --oracle N: the physics oracle (tests/surf_oracle.h) against both
 *     planners on N random 24x16 levels, EVERY size 1x1..3x3 and jump
 *     height 1..8 on every level (the unit test samples one per level).
 *  5. --optimality N: the plans' frames against the physics' fewest (a
 *     breadth-first search over exact states) on N random 24x16 levels.
 * Usage: tilenav-bench surf [--sizes 64,128,512,1024|none] [--edits K] [--queries Q]
 *                           [--gaps] [--oracle N] [--optimality N]
 *                           [--coyote full|last|all|none] [--landmarks K]
 *                           [--threads T] [--huge-pages] [--custom-step]
 *                           [--light-above N] [--full N]
 * --coyote: the generated levels' profile.coyote (full: TN_SURF_COYOTE_FULL,
 *     the default, a coyote jump on the last coyote frame held to the top;
 *     last: every hold on that frame; all: every coyote frame and hold;
 *     none: no coyote jumps, the fastest build).
 * --landmarks K: the generated levels' query landmarks (tn_surf_set_landmarks:
 *     -1 default, 0 none = the detour bound, 1..16); the query index is
 *     rebuilt once and its time printed.
 * --threads T: the demo map's build on 1 and on T threads (profile.threads,
 *     default 2), wall-clock medians of 5 interleaved runs (CPU time would
 *     add the threads up); the graphs are checked equal.
 * --huge-pages: the generated levels' graphs allocate through a caller's
 *     allocator that gives blocks of 2 MB or more 2 MB-aligned and marked
 *     for transparent huge pages (madvise MADV_HUGEPAGE; Linux only, else
 *     the flag changes nothing): big graphs are read at random, and with
 *     4 KB pages most of those reads also miss the TLB.
 * --light-above N: levels above N x N skip save/load, the query shortcuts
 *     and labels (default 1024: none does); --full N: the level of N x N
 *     runs them all the same (make bench: the 1024x1024 level, whose label
 *     queries are the query target on a level not edited).
 * --custom-step: the demo map's build with tn_body_step passed as a custom
 *     step function (profile.step) against the built-in one (its bitset
 *     path), CPU medians of 5 interleaved runs (tn_surf.h, COST).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1 /* madvise */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#if !defined(__STDC_NO_THREADS__) && !defined(__EMSCRIPTEN__)
#include <threads.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "../tests/surf_oracle.h"
#include "../tests/tu_nav.h"
#include "fileio.h"
#include "tn_bot.h"
#include "tn_levelgen.h"
#include "tn_path.h"
#include "tn_surf.h"

/* CPU time of this thread: on the shared machine a query of 20 us is
 * often preempted for a 4 ms scheduler tick, which wall-clock p99s show. */
/* Nodes reachable from `s` in graph g (walks and edges), into `out`;
 * returns their count.  `mark` has a byte per node. */
/* What the targets are checked against, as measured by this run
 * (printed at the end; NAN: not measured).  Level k: 0 = 512x512, 1 =
 * 1024x1024; query mode: 0 the search, 1 with shortcuts, 2 with labels. */
static struct {
    double demo_build;
    double build[2], repair[2], qmed[2][3], qp99[2][3];
    int qpartial[2][3];
    long qallocs[2][3];
    bool light[2]; /* measured without the shortcuts and labels (--light-above) */
} tgt;

static int target_level(int n) { return n == 512 ? 0 : n == 1024 ? 1 : -1; }

static void target_query(int lv, int mode, double *t, int k, int partial, long allocs)
{
    if (lv < 0 || k == 0) return;
    tgt.qmed[lv][mode] = bench_median(t, k);
    tgt.qp99[lv][mode] = bench_percentile(t, k, 99.0);
    tgt.qpartial[lv][mode] = partial;
    tgt.qallocs[lv][mode] = allocs;
}

static const char *verdict(double v, double limit) { return v <= limit ? "met" : "MISSED"; }

/* The speed targets against this run's numbers. */
static void targets_print(void)
{
    printf("targets (the graph planner's issue; this run's numbers):\n");
    printf("  %-44s %12.1f ms  %s\n", "demo map build < 2 ms (median, one thread)", tgt.demo_build,
           isnan(tgt.demo_build) ? "not run" : verdict(tgt.demo_build, 2.0));
    static const char *const lvname[2] = {"512x512", "1024x1024"};
    static const double build_max[2] = {30.0, 100.0};
    static const char *const mode[3] = {"search", "shortcuts", "labels"};
    for (int lv = 0; lv < 2; lv++) {
        char what[64];
        snprintf(what, sizeof what, "%s build < %.0f ms", lvname[lv], build_max[lv]);
        if (isnan(tgt.build[lv])) {
            printf("  %-44s %15s  not run (--sizes %d)\n", what, "", lv ? 1024 : 512);
            continue;
        }
        printf("  %-44s %12.1f ms  %s\n", what, tgt.build[lv],
               verdict(tgt.build[lv], build_max[lv]));
        if (lv == 0) continue; /* the repair and query targets are 1024x1024's */
        if (!isnan(tgt.repair[lv]))
            printf("  %-44s %12.1f ms  %s\n", "1024x1024 one-tile repair, median < 1 ms",
                   tgt.repair[lv], verdict(tgt.repair[lv], 1.0));
        for (int md = 0; md < 3; md++) {
            if (isnan(tgt.qmed[lv][md]) && md > 0 && tgt.light[lv]) {
                snprintf(what, sizeof what, "1024x1024 query (%s)", mode[md]);
                printf("  %-44s %15s  not run (a light run, --light-above)\n", what, "");
                continue;
            }
            if (isnan(tgt.qmed[lv][md])) continue;
            snprintf(what, sizeof what, "1024x1024 query (%s) median < 50 us", mode[md]);
            const bool clean = tgt.qpartial[lv][md] == 0 && tgt.qallocs[lv][md] == 0;
            printf("  %-44s %12.1f us  %s\n", what, tgt.qmed[lv][md],
                   clean ? verdict(tgt.qmed[lv][md], 50.0) : "MISSED (partial or allocations)");
            snprintf(what, sizeof what, "1024x1024 query (%s) p99 < 1 ms", mode[md]);
            printf("  %-44s %12.1f us  %s\n", what, tgt.qp99[lv][md],
                   clean ? verdict(tgt.qp99[lv][md], 1000.0) : "MISSED (partial or allocations)");
        }
    }
}

static int reachable(const tn_surf *g, int s, int32_t *out, unsigned char *mark)
{
    int nn = tn_surf_node_count(g), ne = tn_surf_edge_count(g), k = 0, head = 0;
    const tn_surf_edge *E = tn_surf_edges(g);
    memset(mark, 0, (size_t)nn);
    /* edges are sorted by take-off node: first edge of each node */
    static int32_t *first;
    static int cap;
    if (cap < nn + 1) {
        free(first);
        first = bench_alloc(sizeof(int32_t) * (size_t)(nn + 1));
        cap = nn + 1;
    }
    for (int n = 0, e = 0; n <= nn; n++) {
        while (e < ne && E[e].from < n) e++;
        first[n] = e;
    }
    out[k++] = s;
    mark[s] = 1;
    while (head < k) {
        int n = out[head++];
        const tn_surf_surface *S = &tn_surf_surfaces(g)[tn_surf_node_surface(g, n)];
        int last = S->node0 + (S->j1 - S->j0);
        int nb[2] = {n > S->node0 ? n - 1 : -1, n < last ? n + 1 : -1};
        for (int i = 0; i < 2; i++)
            if (nb[i] >= 0 && !mark[nb[i]]) mark[nb[i]] = 1, out[k++] = nb[i];
        for (int e = first[n]; e < first[n + 1]; e++)
            if (!mark[E[e].to]) mark[E[e].to] = 1, out[k++] = E[e].to;
    }
    return k;
}

/* Passes over the query pairs: a pair's time is the median of its passes.
 * On this kind of machine the first pass over a freshly built structure of
 * hundreds of MB is slow for reasons outside the library (the hypervisor
 * maps the new pages on first touch, without a page fault the kernel
 * counts; docs/perf.md), and a scheduler tick lands on a few queries of any
 * pass: a median over passes keeps neither, as the "medians over
 * runs" asks. */
#define QUERY_PASSES 3

/* The last time_queries' first pass alone: median and p99 (us), printed
 * beside the medians over passes. */
static double first_med, first_p99;

/* Times tn_surf_find over the pairs (start s[k], goal tile gx[k], gy[k]):
 * t[k] in us (the median of QUERY_PASSES passes), frames[k] the plan cost;
 * returns the answers found whole. */
static int time_queries(tn_surf *g, int n, const int *s, const int *gx, const int *gy, double *t,
                        int *frames, long *expanded, int *partial)
{
    static tn_surf_leg legs[1024];
    double *pt = bench_alloc(sizeof(double) * (size_t)(n > 0 ? n : 1) * QUERY_PASSES);
    int found = 0;
    *expanded = 0;
    *partial = 0;
    for (int pass = 0; pass < QUERY_PASSES; pass++)
        for (int k = 0; k < n; k++) {
            tn_surf_stats st;
            int cnt;
            double q0 = bench_cpu_now();
            tn_status res = tn_surf_find(g, s[k], gx[k], gy[k], legs, 1024, &cnt, &st, NULL);
            double us = (bench_cpu_now() - q0) * 1e6;
            if (pt) pt[(size_t)k * QUERY_PASSES + (size_t)pass] = us;
            if (pass > 0) continue; /* the answers are the same each pass */
            t[k] = us;
            frames[k] = st.frames - st.releases; /* the cost: releases are not priced */
            *expanded += st.expanded;
            if (tn_succeeded(res) && !tn_status_detail(res, TN_PARTIAL_RESULT))
                found++;
            else
                ++*partial;
        }
    first_med = bench_median(t, n); /* sorts t: t[k] is set again below */
    first_p99 = bench_percentile(t, n, 99.0);
    for (int k = 0; pt && k < n; k++)
        t[k] = bench_median(pt + (size_t)k * QUERY_PASSES, QUERY_PASSES);
    free(pt);
    return found;
}

/* The same pairs by the sliced query (tn_surf_find_begin, steps of
 * SLICE_NODES nodes, tn_surf_find_end), as a game spreads a far query over
 * frames: the time of one step (thread CPU time; begin and end count as
 * steps), the steps a query takes, and whether every plan costs what
 * tn_surf_find's did (frames[k]). */
enum { SLICE_NODES = 1000 };
static void sliced_queries(const char *name, const char *what, tn_surf *g, tu_counting *c, int n,
                           const int *s, const int *gx, const int *gy, const int *frames)
{
    static tn_surf_leg legs[1024];
    size_t cap = 1024, ns = 0;
    double *st = bench_alloc(sizeof(double) * cap);
    int most = 0, differ = 0, multi = 0;
    long allocs0 = c->allocs;
    for (int k = 0; k < n && st; k++) {
        int steps = 0, cnt;
        tn_surf_stats stats;
        tn_status res = TN_IN_PROGRESS;
        for (int phase = 0; phase < 2 && st; phase += res != TN_IN_PROGRESS) {
            double t0 = bench_cpu_now();
            if (steps == 0)
                res = tn_surf_find_begin(g, s[k], gx[k], gy[k], NULL);
            else if (phase == 0)
                res = tn_surf_find_step(g, SLICE_NODES, NULL, NULL);
            else
                res = tn_surf_find_end(g, legs, 1024, &cnt, &stats, NULL);
            if (ns == cap) st = realloc(st, sizeof(double) * (cap *= 2));
            if (st) st[ns++] = (bench_cpu_now() - t0) * 1e6;
            steps++;
            if (phase == 1) break;
        }
        if (tn_failed(res) || stats.frames - stats.releases != frames[k]) differ++;
        if (steps > most) most = steps;
        multi += steps > 3;
    }
    if (!st) {
        printf("  %-10s %s sliced: out of memory\n", name, what);
        return;
    }
    printf("  %-10s %s sliced (steps of %d nodes; begin and end count as steps): %zu steps, "
           "median %.1f us, p99 %.1f us, max %.1f us; %d of %d pairs took more than one step of "
           "search, at most %d steps; plan costs differ in %d; %ld allocations\n",
           name, what, SLICE_NODES, ns, bench_median(st, (int)ns),
           bench_percentile(st, (int)ns, 99.0), bench_percentile(st, (int)ns, 100.0), multi, n,
           most, differ, c->allocs - allocs0);
    free(st);
}

/* The same pairs by query objects (tn_surf_query_find): one object's
 * memory; then the pairs on 1 thread and split over 2 threads with an
 * object each (wall time of all the pairs, each run the median of 3): the
 * ratio is what a job system gains on this machine; every plan must cost
 * what tn_surf_find's did (frames[k]). */
typedef struct objjob {
    const tn_surf *g;
    const int *s, *gx, *gy, *frames;
    int n, differ;
} objjob;

static int objjob_run(void *arg)
{
    objjob *J = arg;
    tn_surf_query *q = NULL;
    J->differ = 0;
    if (tn_failed(tn_surf_query_create(J->g, NULL, &q, NULL))) return J->differ = -1;
    for (int k = 0; k < J->n; k++) {
        tn_surf_stats st;
        tn_status res =
            tn_surf_query_find(q, J->s[k], J->gx[k], J->gy[k], NULL, 0, NULL, &st, NULL);
        J->differ += tn_failed(res) || st.frames - st.releases != J->frames[k];
    }
    tn_surf_query_destroy(q);
    return 0;
}

static void object_queries(const char *name, const tn_surf *g, int n, const int *s, const int *gx,
                           const int *gy, const int *frames, double find_med)
{
    tn_surf_query *q = NULL;
    double *pt = bench_alloc(sizeof(double) * (size_t)(n > 0 ? n : 1) * (QUERY_PASSES + 1));
    if (n < 2 || !pt || tn_failed(tn_surf_query_create(g, NULL, &q, NULL))) {
        free(pt);
        tn_surf_query_destroy(q);
        return;
    }
    const size_t mem = tn_surf_query_memory(q);
    /* one object on this thread: each pair's median of QUERY_PASSES passes
     * (thread CPU time), against tn_surf_find's (find_med) */
    double *t = pt + (size_t)n * QUERY_PASSES;
    for (int pass = 0; pass < QUERY_PASSES; pass++)
        for (int k = 0; k < n; k++) {
            double q0 = bench_cpu_now();
            tn_surf_query_find(q, s[k], gx[k], gy[k], NULL, 0, NULL, NULL, NULL);
            pt[(size_t)k * QUERY_PASSES + (size_t)pass] = (bench_cpu_now() - q0) * 1e6;
        }
    for (int k = 0; k < n; k++) t[k] = bench_median(pt + (size_t)k * QUERY_PASSES, QUERY_PASSES);
    const double omed = bench_median(t, n);
    free(pt);
    tn_surf_query_destroy(q);
    double t1[3], t2[3];
    int differ = 0, h = n / 2;
    for (int round = 0; round < 3; round++) {
        objjob one = {g, s, gx, gy, frames, n, 0};
        double w0 = bench_now();
        objjob_run(&one);
        t1[round] = bench_now() - w0;
        objjob J[2] = {{g, s, gx, gy, frames, h, 0},
                       {g, s + h, gx + h, gy + h, frames + h, n - h, 0}};
        w0 = bench_now();
#if !defined(__STDC_NO_THREADS__) && !defined(__EMSCRIPTEN__)
        thrd_t th;
        bool two = thrd_create(&th, objjob_run, &J[1]) == thrd_success;
        objjob_run(&J[0]);
        if (two)
            thrd_join(th, NULL);
        else
            objjob_run(&J[1]);
#else
        objjob_run(&J[0]);
        objjob_run(&J[1]);
#endif
        t2[round] = bench_now() - w0;
        differ += one.differ + J[0].differ + J[1].differ;
    }
    const double a = bench_median(t1, 3), b = bench_median(t2, 3);
    printf("  %-10s query objects: %.2f MB each; a query by an object median %.1f us "
           "(tn_surf_find's above %.1f us); the %d pairs on 1 thread %.1f ms, on 2 threads with an "
           "object each %.1f ms (wall, medians of 3 runs; x%.2f); plan costs differ in %d\n",
           name, (double)mem / 1048576.0, omed, find_med, n, a * 1e3, b * 1e3, b > 0 ? a / b : 0.0,
           differ);
}

/* A crowd of CROWD_BOTS bots on random trips (goals: random nodes' tiles,
 * some out of reach) for CROWD_STEPS steps, sharing one query object and
 * planning one at a time (the others held; examples/graph_sliced_bots.c),
 * with whole plans and with plans in slices of SLICE_NODES nodes: each
 * step's time for all the bots (thread CPU time), the plans made, the
 * trips that arrived, the most slices a plan took. */
enum { CROWD_BOTS = 16, CROWD_STEPS = 2000 };

static void crowd_mode(const tn_map *m, tn_surf *g, tn_surf_query *q, int budget, double *t,
                       int *plans, int *arrived, int *most)
{
    const tn_phys_params phys = tn_surf_get_profile(g)->phys;
    const int w = tn_surf_get_profile(g)->w, h = tn_surf_get_profile(g)->h;
    const int nn = tn_surf_node_count(g);
    tn_rng rng;
    tn_rng_seed(&rng, 99, 2);
    tn_bot *bots[CROWD_BOTS];
    tn_body bodies[CROWD_BOTS];
    int nb = 0;
    *plans = *arrived = *most = 0;
    for (int i = 0; i < CROWD_BOTS; i++) {
        if (tn_failed(tn_bot_create(NULL, NULL, &bots[nb], NULL))) break;
        tn_bot_set_graph(bots[nb], g);
        tn_bot_set_query(bots[nb], q, budget);
        int row, j;
        tn_surf_node_pos(g, (int)tn_rng_below(&rng, (uint32_t)nn), &row, &j);
        tn_body_place(&bodies[nb], &phys, w, h, (int)(tn_surf_lattice_x(g, j) / TN_TILE_PX),
                      row - h);
        nb++;
    }
    int turn = -1;
    for (int f = 0; f < CROWD_STEPS; f++) {
        double t0 = bench_cpu_now();
        for (int i = 0; i < nb; i++) {
            tn_bot *bot = bots[i];
            if (!tn_bot_active(bot) && bodies[i].on_ground && turn < 0) {
                int row, j;
                tn_surf_node_pos(g, (int)tn_rng_below(&rng, (uint32_t)nn), &row, &j);
                tn_bot_goto(bot, NULL, m, &bodies[i], &phys,
                            (int)(tn_surf_lattice_x(g, j) / TN_TILE_PX), row - 1, NULL);
                turn = tn_bot_planning(bot) ? i : -1;
            }
            tn_bot_hold_plans(bot, turn >= 0 && turn != i);
            const tn_bot_state before = tn_bot_get_info(bot).state;
            tn_input in = tn_bot_step(bot, NULL, m, &bodies[i], &phys);
            const tn_bot_info info = tn_bot_get_info(bot);
            if (turn == i && !info.planning) turn = -1;
            if (turn < 0 && (tn_bot_plan_held(bot) || info.planning)) turn = i;
            if (info.plan_slices > *most) *most = info.plan_slices;
            *arrived += before == TN_BOT_MOVING && info.state == TN_BOT_ARRIVED;
            tn_body_step(&bodies[i], m, &phys, in);
        }
        t[f] = (bench_cpu_now() - t0) * 1e6;
    }
    for (int i = 0; i < nb; i++) {
        *plans += tn_bot_get_info(bots[i]).plans;
        tn_bot_destroy(bots[i]);
    }
}

static void crowd_run(const char *name, const tn_map *m, tn_surf *g)
{
    tn_surf_query *q = NULL;
    double *t = bench_alloc(sizeof(double) * CROWD_STEPS);
    if (!t || tn_surf_node_count(g) < 2 || tn_failed(tn_surf_query_create(g, NULL, &q, NULL))) {
        free(t);
        return;
    }
    printf("  %-10s %d bots on random trips, %d steps, one query object, one bot planning at a "
           "time; a step's time for all of them (thread CPU):",
           name, CROWD_BOTS, CROWD_STEPS);
    for (int k = 0; k < 2; k++) {
        int plans, arrived, most;
        crowd_mode(m, g, q, k ? SLICE_NODES : 0, t, &plans, &arrived, &most);
        int over = 0;
        for (int f = 0; f < CROWD_STEPS; f++) over += t[f] > 1000.0;
        printf("%s %s%.0d%s median %.1f us, p99 %.1f us, max %.1f us, %d steps over 1 ms (%d "
               "plans, %d trips arrived%s",
               k ? ";" : "", k ? "slices of " : "whole plans", k ? SLICE_NODES : 0,
               k ? " nodes" : "", bench_median(t, CROWD_STEPS),
               bench_percentile(t, CROWD_STEPS, 99.0), bench_percentile(t, CROWD_STEPS, 100.0),
               over, plans, arrived, k ? "" : ")");
        if (k) printf(", at most %d slices a plan)\n", most);
    }
    tn_surf_query_destroy(q);
    free(t);
}

/* Queries whose goal is a standing tile that the start cannot reach: the
 * answer is the plan to the closest place reached (TN_UNREACHABLE).  Over
 * up to `q` random such pairs: the time of each (one pass; thread CPU
 * time) and the nodes expanded.  rs, mark: scratch of the node count; t:
 * q doubles. */
static void unreachable_queries(const char *name, tn_surf *g, tu_counting *c, tn_rng *r, int q,
                                int32_t *rs, unsigned char *mark, double *t)
{
    static tn_surf_leg legs[1024];
    int nn = tn_surf_node_count(g), k = 0, tries = 0, bad = 0;
    long expanded = 0, allocs0 = c->allocs;
    int *ps = bench_alloc(sizeof(int) * (size_t)(q > 0 ? q : 1) * 4); /* start, goal, frames */
    if (!ps) return;
    while (k < q && tries < 20 * q) {
        tries++;
        int s = (int)tn_rng_below(r, (uint32_t)nn);
        reachable(g, s, rs, mark);
        int d = -1;
        for (int i = 0; i < 64 && d < 0; i++) {
            int n = (int)tn_rng_below(r, (uint32_t)nn);
            if (!mark[n]) d = n;
        }
        if (d < 0) continue;
        int row, j, cnt;
        tn_surf_node_pos(g, d, &row, &j);
        tn_surf_stats st;
        double q0 = bench_cpu_now();
        tn_status res = tn_surf_find(g, s, j / 6, row - 1, legs, 1024, &cnt, &st, NULL);
        ps[k] = s, ps[q + k] = j / 6, ps[2 * q + k] = row - 1,
        ps[3 * q + k] = st.frames - st.releases;
        t[k++] = (bench_cpu_now() - q0) * 1e6;
        expanded += st.expanded;
        if (!tn_succeeded(res) || !tn_status_detail(res, TN_UNREACHABLE)) bad++;
    }
    if (!k) {
        printf("  %-10s unreachable goals: none found in %d tries\n", name, tries);
        free(ps);
        return;
    }
    double mx = 0.0;
    for (int i = 0; i < k; i++) mx = t[i] > mx ? t[i] : mx;
    printf("  %-10s unreachable goals: %d pairs: %d not answered as unreachable; median %.1f us, "
           "p99 %.1f us, max %.1f us (thread CPU time, one pass), %.0f nodes expanded on average; "
           "%ld allocations\n",
           name, k, bad, bench_median(t, k), bench_percentile(t, k, 99.0), mx, (double)expanded / k,
           c->allocs - allocs0);
    sliced_queries(name, "unreachable goals", g, c, k, ps, ps + q, ps + 2 * q, ps + 3 * q);
    free(ps);
}

/* Queries over `q` random pairs (start node, a goal tile reachable from it
 * in the graph), then the same pairs with the query shortcuts, and `edits`
 * random single-tile edits (each repaired). */
static void graph_run(const char *name, tn_map *m, tn_surf *g, tu_counting *c, tn_rng *r, int q,
                      int edits, int lv, bool light)
{
    int nn = tn_surf_node_count(g);
    if (nn > 0 && q > 0) {
        double *t = bench_alloc(sizeof(double) * (size_t)q);
        int *ps = bench_zalloc((size_t)q * 5, sizeof(int));
        int32_t *rs = bench_alloc(sizeof(int32_t) * (size_t)nn);
        unsigned char *mark = bench_alloc((size_t)nn);
        if (!t || !ps || !rs || !mark) {
            printf("  %-10s queries: out of memory\n", name);
            free(t);
            free(ps);
            free(rs);
            free(mark);
            return;
        }
        int *pgx = ps + q, *pgy = pgx + q, *fa = pgy + q, *fb = fa + q;
        int k = 0, tries = 0, partial;
        long expanded;
        while (k < q && tries < 100 * q) {
            tries++;
            int s = (int)tn_rng_below(r, (uint32_t)nn);
            int nr = reachable(g, s, rs, mark);
            if (nr < 2) continue;
            int d = rs[1 + (int)tn_rng_below(r, (uint32_t)(nr - 1))];
            int row, j;
            tn_surf_node_pos(g, d, &row, &j);
            ps[k] = s, pgx[k] = j / 6, pgy[k++] = row - 1;
        }
        long allocs0 = c->allocs;
        int found = time_queries(g, k, ps, pgx, pgy, t, fa, &expanded, &partial);
        target_query(lv, 0, t, k, partial, c->allocs - allocs0);
        printf("  %-10s queries: %d reachable pairs: %d found, %d partial; median %.1f us, p99 "
               "%.1f us (thread CPU time, each pair's median of %d passes), %.0f nodes expanded on "
               "average; %ld allocations in all queries; the first pass alone: median %.1f us, p99 "
               "%.1f us\n",
               name, k, found, partial, bench_median(t, k), bench_percentile(t, k, 99.0),
               QUERY_PASSES, k ? (double)expanded / k : 0.0, c->allocs - allocs0, first_med,
               first_p99);
        double med0 = bench_median(t, k), p990 = bench_percentile(t, k, 99.0);
        sliced_queries(name, "queries", g, c, k, ps, pgx, pgy, fa);
        object_queries(name, g, k, ps, pgx, pgy, fa, med0);
        crowd_run(name, m, g);
        unreachable_queries(name, g, c, r, q < 100 ? q : 100, rs, mark, t);
        /* the same pairs with the query shortcuts (not in a light run: at
         * 1024x1024 they and the labels take about two minutes to build) */
        size_t mem0 = tn_surf_memory(g);
        double s0 = bench_cpu_now();
        tn_error e;
        if (light) {
            printf("  %-10s shortcuts and labels: not built (--light-above)\n", name);
        } else if (tn_failed(tn_surf_build_shortcuts(g, 0, &e))) {
            printf("  %-10s shortcuts: %s\n", name, e.msg);
        } else {
            double sb = bench_cpu_now() - s0;
            printf("  %-10s shortcuts built in %.1f ms: %d arcs added, memory +%.2f MB\n", name,
                   sb * 1e3, tn_surf_shortcut_count(g),
                   (double)(tn_surf_memory(g) - mem0) / 1048576.0);
            allocs0 = c->allocs;
            found = time_queries(g, k, ps, pgx, pgy, t, fb, &expanded, &partial);
            target_query(lv, 1, t, k, partial, c->allocs - allocs0);
            int differ = 0;
            for (int i = 0; i < k; i++) differ += fa[i] != fb[i];
            double med = bench_median(t, k), p99 = bench_percentile(t, k, 99.0);
            printf(
                "  %-10s queries with shortcuts: the same %d pairs: %d found, %d partial; median "
                "%.1f us (x%.1f), p99 %.1f us (x%.1f), %.0f keys settled on average; plan "
                "costs differ in %d; %ld allocations in all queries; the first pass alone: median "
                "%.1f us, p99 %.1f us\n",
                name, k, found, partial, med, med > 0 ? med0 / med : 0.0, p99,
                p99 > 0 ? p990 / p99 : 0.0, k ? (double)expanded / k : 0.0, differ,
                c->allocs - allocs0, first_med, first_p99);
            /* and with their hub labels */
            mem0 = tn_surf_memory(g);
            s0 = bench_cpu_now();
            if (tn_failed(tn_surf_build_labels(g, &e))) {
                printf("  %-10s labels: %s\n", name, e.msg);
            } else {
                sb = bench_cpu_now() - s0;
                printf("  %-10s labels built in %.1f ms: memory +%.2f MB (graph and shortcuts: "
                       "%.1f MB in all)\n",
                       name, sb * 1e3, (double)(tn_surf_memory(g) - mem0) / 1048576.0,
                       (double)tn_surf_memory(g) / 1048576.0);
                allocs0 = c->allocs;
                found = time_queries(g, k, ps, pgx, pgy, t, fb, &expanded, &partial);
                target_query(lv, 2, t, k, partial, c->allocs - allocs0);
                differ = 0;
                for (int i = 0; i < k; i++) differ += fa[i] != fb[i];
                double lmed = bench_median(t, k), lp99 = bench_percentile(t, k, 99.0);
                printf("  %-10s queries with labels: the same %d pairs: %d found, %d partial; "
                       "median %.1f us (x%.1f), p99 %.1f us (x%.1f); plan costs differ in %d; "
                       "%ld allocations in all queries; the first pass alone: median %.1f us, p99 "
                       "%.1f us\n",
                       name, k, found, partial, lmed, lmed > 0 ? med0 / lmed : 0.0, lp99,
                       lp99 > 0 ? p990 / lp99 : 0.0, differ, c->allocs - allocs0, first_med,
                       first_p99);
            }
        }
        free(t);
        free(ps);
        free(rs);
        free(mark);
    }
    if (edits > 0) {
        double *et = bench_alloc(sizeof(double) * (size_t)edits);
        int loc0, full0;
        tn_surf_repair_counts(g, &loc0, &full0);
        int upd0, rec0, upd, rec;
        tn_surf_landmark_counts(g, &upd0, &rec0);
        for (int i = 0; i < edits; i++) {
            int x = (int)tn_rng_below(r, (uint32_t)m->w), y = (int)tn_rng_below(r, (uint32_t)m->h);
            int tile = tn_map_tile(m, x, y) == TN_TILE_EMPTY ? TN_TILE_BLOCK : TN_TILE_EMPTY;
            tn_map_set_tile(m, x, y, tile, NULL);
            double e0 = bench_cpu_now();
            tn_surf_edit(g, m, x, y, NULL);
            et[i] = (bench_cpu_now() - e0) * 1e3;
        }
        int loc, full;
        tn_surf_repair_counts(g, &loc, &full);
        tn_surf_landmark_counts(g, &upd, &rec);
        double sum = 0.0;
        for (int i = 0; i < edits; i++) sum += et[i];
        const double first = et[0]; /* (the pool empty: see tn_surf_prepare_repairs) */
        const double med = bench_median(et, edits), p90 = bench_percentile(et, edits, 90.0);
        if (lv >= 0) tgt.repair[lv] = med;
        printf("  %-10s single-tile edit repaired: median %.1f ms, p90 %.1f, mean %.1f, max %.1f "
               "over %d random edits (%d local, %d full rebuilds); the first %.1f ms",
               name, med, p90, sum / edits, et[edits - 1], edits, loc - loc0, full - full0, first);
        if (upd > upd0 || rec > rec0)
            printf("; landmark tables: %d updated, %d recomputed", upd - upd0, rec - rec0);
        printf("\n");
        /* a drag of the block tool caught up at once: DRAG tiles in a row
         * changed, then one sync (one local repair for them all) */
        enum { DRAG = 10 };
        const int drags = edits < 10 ? edits : 10;
        const uint32_t gen0 = tn_surf_generation(g);
        tn_surf_repair_counts(g, &loc0, &full0);
        for (int i = 0; i < drags && m->w > DRAG + 4 && m->h > 4; i++) {
            const int x0 = 2 + (int)tn_rng_below(r, (uint32_t)(m->w - DRAG - 4));
            const int y = 2 + (int)tn_rng_below(r, (uint32_t)(m->h - 4));
            for (int x = x0; x < x0 + DRAG; x++)
                tn_map_set_tile(
                    m, x, y, tn_map_tile(m, x, y) == TN_TILE_EMPTY ? TN_TILE_BLOCK : TN_TILE_EMPTY,
                    NULL);
            double e0 = bench_cpu_now();
            tn_surf_sync(g, m, NULL);
            et[i] = (bench_cpu_now() - e0) * 1e3;
        }
        tn_surf_repair_counts(g, &loc, &full);
        if (drags > 0 && m->w > DRAG + 4 && m->h > 4)
            printf("  %-10s a drag of %d tiles in a row synced at once: median %.1f ms, max %.1f "
                   "over %d drags (%u repairs, %d tiles local, %d full rebuilds)\n",
                   name, DRAG, bench_median(et, drags), bench_percentile(et, drags, 100.0), drags,
                   (unsigned)(tn_surf_generation(g) - gen0), loc - loc0, full - full0);
        free(et);
    }
}

/* What a cheaper graph costs in plans: plan frames of the graph of `prof`
 * against the graph of `ref` (more edges), over random reachable pairs. */
static void plan_cost(const tn_map *m, const tn_surf_profile *prof, const tn_surf_profile *ref,
                      const char *what, const char *against, int pairs)
{
    const tn_surf_profile all = *ref;
    tn_surf *a = NULL, *b = NULL;
    if (tn_failed(tn_surf_create(m, prof, NULL, &a, NULL)) ||
        tn_failed(tn_surf_create(m, &all, NULL, &b, NULL))) {
        tn_surf_destroy(a);
        tn_surf_destroy(b);
        return;
    }
    tn_rng r;
    tn_rng_seed(&r, 5, 5);
    long fa = 0, fb = 0;
    int n = 0, longer = 0, worst = 0, mismatch = 0, nn = tn_surf_node_count(a);
    for (int q = 0; q < pairs * 4 && n < pairs && nn > 0; q++) {
        int s = (int)tn_rng_below(&r, (uint32_t)nn), d = (int)tn_rng_below(&r, (uint32_t)nn);
        int row, j;
        tn_surf_node_pos(a, d, &row, &j);
        tn_surf_stats sa, sb;
        tn_status x = tn_surf_find(a, s, j / 6, row - 1, NULL, 0, NULL, &sa, NULL);
        tn_status y = tn_surf_find(b, s, j / 6, row - 1, NULL, 0, NULL, &sb, NULL);
        bool okx = tn_succeeded(x) && !tn_status_detail(x, TN_PARTIAL_RESULT);
        bool oky = tn_succeeded(y) && !tn_status_detail(y, TN_PARTIAL_RESULT);
        if (okx != oky) mismatch++;
        if (!okx || !oky) continue;
        n++;
        fa += sa.frames;
        fb += sb.frames;
        longer += sa.frames > sb.frames;
        if (sa.frames - sb.frames > worst) worst = sa.frames - sb.frames;
    }
    printf("  %s: %d vs %d edges; over %d reachable pairs the plans are "
           "%+.2f%% frames (%d longer, at most %+d) against %s; %d pairs "
           "found by one graph only\n",
           what, tn_surf_edge_count(a), tn_surf_edge_count(b), n,
           fb ? 100.0 * (double)(fa - fb) / (double)fb : 0.0, longer, worst, against, mismatch);
    tn_surf_destroy(a);
    tn_surf_destroy(b);
}

/* The generated levels' allocator: counting (allocations per query), and
 * with --huge-pages big blocks aligned and marked for huge pages. */
typedef struct level_alloc {
    tu_counting c;
    bool huge;
} level_alloc;

static void *level_alloc_fn(void *user, size_t n)
{
    level_alloc *b = user;
    b->c.allocs++;
    b->c.bytes += n;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t H = (size_t)2 << 20;
    if (b->huge && n >= H && n <= SIZE_MAX - H) {
        const size_t r = (n + H - 1) & ~(H - 1);
        void *q = aligned_alloc(H, r);
        if (q) (void)madvise(q, r, MADV_HUGEPAGE);
        return q;
    }
#endif
    return bench_alloc(n);
}

static void level_free_fn(void *user, void *q)
{
    if (q) ((level_alloc *)user)->c.frees++;
    free(q);
}

/* The graph saved and loaded again (tn_surf_save, tn_surf_load): its
 * bytes, the medians of 5 saves and 5 loads (thread CPU time), and whether
 * the loaded graph saves to the same bytes. */
static void save_load_run(const char *name, const tn_map *m, const tn_surf_profile *prof,
                          const tn_surf *g, const tn_allocator *a)
{
    enum { RUNS = 5 };
    size_t n = 0, n2 = 0;
    tn_error e;
    if (tn_failed(tn_surf_save(g, NULL, 0, &n, &e))) {
        printf("  %-10s save: %s\n", name, e.msg);
        return;
    }
    unsigned char *buf = bench_alloc(n), *again = bench_alloc(n);
    double ts[RUNS], tl[RUNS];
    bool same = buf && again;
    for (int k = 0; k < RUNS && same; k++) {
        double t0 = bench_cpu_now();
        same = tn_succeeded(tn_surf_save(g, buf, n, &n2, &e));
        ts[k] = (bench_cpu_now() - t0) * 1e3;
        tn_surf *l = NULL;
        t0 = bench_cpu_now();
        same = same && tn_succeeded(tn_surf_load(m, prof, buf, n, name, a, &l, &e));
        tl[k] = (bench_cpu_now() - t0) * 1e3;
        same = same && tn_succeeded(tn_surf_save(l, again, n, &n2, NULL)) && n2 == n &&
               memcmp(buf, again, n) == 0;
        tn_surf_destroy(l);
    }
    if (same)
        printf(
            "  %-10s saved (tn_surf_save): %.2f MB, median %.1f ms; loaded (tn_surf_load): median "
            "%.1f ms (5 runs each); the loaded graph saves to the same bytes\n",
            name, (double)n / 1048576.0, bench_median(ts, RUNS), bench_median(tl, RUNS));
    else
        printf("  %-10s save and load: FAILED (%s)\n", name,
               buf && again ? e.msg : "out of memory");
    free(buf);
    free(again);
}

static void level_run(int n, int edits, int queries, unsigned long long seed, int coyote,
                      int landmarks, bool huge, bool light)
{
    tn_map *m = NULL;
    tn_map_create(n, n, NULL, &m, NULL);
    tn_rng r;
    tn_rng_seed(&r, seed, 77);
    tn_levelgen_platformer(m, &r, NULL);
    level_alloc la = {{0}, huge};
    tn_allocator a = {level_alloc_fn, level_free_fn, &la};
    tn_phys_params p = tn_phys_default(4.0f);
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &p);
    prof.coyote = coyote; /* --coyote */
    tn_surf *g = NULL;
    tn_error e;
    double t0 = bench_cpu_now();
    if (tn_failed(tn_surf_create(m, &prof, &a, &g, &e))) {
        printf("  %dx%d: %s\n", n, n, e.msg);
        tn_map_destroy(m);
        return;
    }
    double build = bench_cpu_now() - t0;
    char name[32];
    snprintf(name, sizeof name, "%dx%d", n, n);
    printf("  %-10s build %.1f ms (one run)  nodes %d  surfaces %d  edges %d  memory %.2f MB\n",
           name, build * 1e3, tn_surf_node_count(g), tn_surf_surface_count(g),
           tn_surf_edge_count(g), (double)tn_surf_memory(g) / 1048576.0);
    /* the query index again (kept edges, take-off chains, landmarks): its
     * share of the build; --landmarks K sets the landmarks (-1 default) */
    double i0 = bench_cpu_now();
    tn_surf_set_landmarks(g, landmarks);
    printf("  %-10s query index (landmarks: %s) rebuilt in %.1f ms; memory %.2f MB\n", name,
           landmarks < 0 ? "default" : (landmarks == 0 ? "none" : "set"),
           (bench_cpu_now() - i0) * 1e3, (double)tn_surf_memory(g) / 1048576.0);
    if (!light) save_load_run(name, m, &prof, g, &a);
    const int lv = target_level(n);
    if (lv >= 0) tgt.build[lv] = build * 1e3, tgt.light[lv] = light;
    graph_run(name, m, g, &la.c, &r, queries, edits, lv, light);
    tn_surf_destroy(g);
    tn_map_destroy(m);
}

/* Widest flat gap each planner crosses, per jump height. */
static void gaps(void)
{
    printf("widest flat gap crossed (1x2 character; a floor, a gap of k tiles, the same floor):\n");
    printf("  jump  graph  classic\n");
    for (int jh = 1; jh <= 8; jh++) {
        int best_g = 0, best_c = 0;
        for (int k = 1; k <= 16; k++) {
            /* the floor is row 14 (room for the highest jump); the gap is a pit
             * to the bottom, 31 rows deep:
             * nobody climbs out of it, so only a jump across reaches the goal */
            int W = 10 + k + 10, H = 46, F = 14;
            tn_map *m = NULL;
            tn_map_create(W, H, NULL, &m, NULL);
            for (int x = 0; x < W; x++)
                for (int y = F; y < H; y++)
                    if (x < 10 || x >= 10 + k) tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
            tn_phys_params p = tn_phys_default((float)jh);
            tn_surf_profile prof = tn_surf_profile_make(1, 2, &p);
            tn_surf *g = NULL;
            if (tn_succeeded(tn_surf_create(m, &prof, NULL, &g, NULL))) {
                int s = tn_surf_node_of_tile(g, 2, F - 1);
                tn_status st = s < 0 ? TN_FAILURE
                                     : tn_surf_find(g, s, W - 3, F - 1, NULL, 0, NULL, NULL, NULL);
                if (tn_succeeded(st) && !tn_status_detail(st, TN_PARTIAL_RESULT)) best_g = k;
                tn_surf_destroy(g);
            }
            tn_path *pf = NULL;
            tn_jump_model jm;
            tn_jump_model_init(&jm, &p, NULL);
            if (tn_succeeded(tn_path_create(W, H, &p, 0, NULL, &pf, NULL))) {
                tn_path_query q = tn_path_query_make(2, F - 1, W - 3, F - 1, 1, 2, &jm);
                tn_path_node buf[256];
                int cnt;
                tn_status st = tn_path_find(pf, m, &q, buf, 256, &cnt, NULL, NULL);
                if (tn_succeeded(st) && !tn_status_detail(st, TN_PARTIAL_RESULT)) best_c = k;
                tn_path_destroy(pf);
            }
            tn_map_destroy(m);
        }
        printf("  %4d  %5d  %7d\n", jh, best_g, best_c);
    }
}

static void oracle_sweep(int levels)
{
    long pairs[9] = {0}, reach[9] = {0}, found[9] = {0}, classic[9] = {0}, bad[9] = {0};
    tn_map *m = NULL;
    tn_map_create(24, 16, NULL, &m, NULL);
    double t0 = bench_now();
    for (int lv = 0; lv < levels; lv++) {
        tn_rng r;
        tn_rng_seed(&r, 5000 + (uint64_t)lv, 7);
        tn_levelgen_platformer(m, &r, NULL);
        for (int combo = 0; combo < 72; combo++) {
            int jh = 1 + combo % 8, w = 1 + (combo / 8) % 3, h = 1 + combo / 24;
            tn_phys_params p = tn_phys_default((float)jh);
            or_result R;
            or_run(m, w, h, &p, &R);
            tn_surf_profile prof = tn_surf_profile_make(w, h, &p);
            tn_surf *g = NULL;
            tn_path *pf = NULL;
            tn_jump_model jm;
            tn_jump_model_init(&jm, &p, NULL);
            tn_surf_create(m, &prof, NULL, &g, NULL);
            tn_path_create(m->w, m->h, &p, 0, NULL, &pf, NULL);
            for (int a = 0; a < R.ntiles; a++) {
                int st0 = g ? tn_surf_node_at(g, R.tile_y[a] + 1, R.tile_x[a] * 6) : -1;
                for (int b = 0; b < R.ntiles; b++) {
                    if (a == b) continue;
                    bool o = R.reach[a * R.ntiles + b] != 0;
                    pairs[jh]++;
                    reach[jh] += o;
                    bool f = false;
                    if (st0 >= 0) {
                        tn_status s = tn_surf_find(g, st0, R.tile_x[b], R.tile_y[b], NULL, 0, NULL,
                                                   NULL, NULL);
                        f = tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT);
                    }
                    found[jh] += f && o;
                    bad[jh] += f && !o;
                    tn_path_query q = tn_path_query_make(R.tile_x[a], R.tile_y[a], R.tile_x[b],
                                                         R.tile_y[b], w, h, &jm);
                    tn_path_node buf[256];
                    int cnt;
                    tn_status s = tn_path_find(pf, m, &q, buf, 256, &cnt, NULL, NULL);
                    classic[jh] += tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT) && o;
                }
            }
            tn_surf_destroy(g);
            tn_path_destroy(pf);
            or_result_free(&R);
        }
    }
    printf("oracle sweep: %d levels of 24x16, all 72 size x jump combinations each (%.0f s)\n",
           levels, bench_now() - t0);
    printf("  jump      pairs  oracle-reachable  planner-found  classic-found  false-claims\n");
    for (int j = 1; j <= 8; j++)
        printf("  %4d %10ld %17ld %14ld %14ld %13ld\n", j, pairs[j], reach[j], found[j], classic[j],
               bad[j]);
    tn_map_destroy(m);
}

/* --optimality N: the plans against the physics' fastest.  N random 24x16
 * levels, the profile cycling through sizes 1x1..3x3 and jump heights 1..8
 * (level k: jump 1 + k % 8, width 1 + k % 3, height 1 + k / 3 % 3);
 * from every standing node on a tile's left edge, or_fastest (a
 * breadth-first search over exact physics states, tests/surf_oracle.h)
 * gives the fewest frames to stand on each tile, and tn_surf_find's plan
 * to that tile is compared.  A plan with fewer frames than the physics
 * allows would be a bug in the frame counts. */
static void optimality_sweep(int levels)
{
    long pairs = 0, found = 0, equal = 0, faster = 0, plan = 0, best = 0, hist[7] = {0};
    int worst = 0;
    static const char *const bins[7] = {"0", "1-2", "3-5", "6-10", "11-20", "21-40", ">40"};
    tn_map *m = NULL;
    tn_map_create(24, 16, NULL, &m, NULL);
    int *fr = bench_alloc(sizeof(int) * 24 * 16);
    double t0 = bench_now();
    for (int lv = 0; lv < levels; lv++) {
        tn_rng r;
        tn_rng_seed(&r, 7000 + (uint64_t)lv, 7);
        tn_levelgen_platformer(m, &r, NULL);
        const int jh = 1 + lv % 8, w = 1 + lv % 3, h = 1 + (lv / 3) % 3;
        tn_phys_params p = tn_phys_default((float)jh);
        tn_surf_profile prof = tn_surf_profile_make(w, h, &p);
        tn_surf *g = NULL;
        if (tn_failed(tn_surf_create(m, &prof, NULL, &g, NULL))) continue;
        for (int s = 0; s < tn_surf_node_count(g); s++) {
            int row, j;
            tn_surf_node_pos(g, s, &row, &j);
            if (j % 6) continue;
            or_fastest(m, w, h, &p, row, j, TN_SURF_MAX_AIR, fr);
            for (int t = 0; t < 24 * 16; t++) {
                const int gx = t % 24, gy = t / 24, o = fr[t];
                if (o < 0 || (gx == j / 6 && gy == row - 1)) continue;
                pairs++;
                tn_surf_stats st;
                tn_status x = tn_surf_find(g, s, gx, gy, NULL, 0, NULL, &st, NULL);
                if (tn_failed(x) || tn_status_detail(x, TN_PARTIAL_RESULT)) continue;
                found++;
                plan += st.frames;
                best += o;
                const int ex = st.frames - o;
                if (ex < 0) {
                    faster++;
                    continue;
                }
                equal += ex == 0;
                worst = ex > worst ? ex : worst;
                hist[ex == 0    ? 0
                     : ex <= 2  ? 1
                     : ex <= 5  ? 2
                     : ex <= 10 ? 3
                     : ex <= 20 ? 4
                     : ex <= 40 ? 5
                                : 6]++;
            }
        }
        tn_surf_destroy(g);
    }
    printf("optimality: %d levels of 24x16 (profiles cycled), plans against the physics' fewest "
           "frames (breadth-first search over exact states, tests/surf_oracle.h) (%.0f s)\n",
           levels, bench_now() - t0);
    printf("  %ld (start, tile) pairs the physics reaches, %ld planned; plan frames %ld against "
           "%ld (+%.2f%%); as fast as the physics in %ld (%.1f%%); most frames over %d; fewer "
           "frames than the physics allows: %ld\n",
           pairs, found, plan, best, best ? 100.0 * (double)(plan - best) / (double)best : 0.0,
           equal, found ? 100.0 * (double)equal / (double)found : 0.0, worst, faster);
    printf("  frames over the fewest:");
    for (int b = 0; b < 7; b++) printf(" %s: %ld%s", bins[b], hist[b], b < 6 ? "," : "\n");
    free(fr);
    tn_map_destroy(m);
}

/* A slider move: one graph built again in place (tn_surf_rebuild) from jump
 * 3 to `prof`'s, against tn_surf_create of `prof`, interleaved, CPU time. */
static void rebuild_run(const tn_map *m, const tn_surf_profile *prof)
{
    enum { RUNS = 7 };
    double tc[RUNS], tr[RUNS];
    bool same = true;
    tn_phys_params p3 = prof->phys;
    p3.jump_height = 3.0f;
    tn_surf_profile other = *prof;
    other.phys = p3;
    tn_surf *keep = NULL;
    tn_surf_create(m, &other, NULL, &keep, NULL);
    for (int k = 0; k < RUNS && keep; k++) {
        tn_surf *g = NULL;
        double t0 = bench_cpu_now();
        tn_surf_create(m, prof, NULL, &g, NULL);
        tc[k] = (bench_cpu_now() - t0) * 1e3;
        tn_surf_rebuild(keep, m, &other, NULL);
        t0 = bench_cpu_now();
        tn_surf_rebuild(keep, m, prof, NULL);
        tr[k] = (bench_cpu_now() - t0) * 1e3;
        same = same && g && tn_surf_edge_count(g) == tn_surf_edge_count(keep) &&
               memcmp(tn_surf_edges(g), tn_surf_edges(keep),
                      (size_t)tn_surf_edge_count(g) * sizeof(tn_surf_edge)) == 0;
        tn_surf_destroy(g);
    }
    if (keep)
        printf("  demo       rebuilt in place (tn_surf_rebuild, a slider move from jump 3): median "
               "%.1f ms CPU against %.1f ms for tn_surf_create (%d interleaved runs); the same "
               "edges: %s; memory with the kept scratch %.2f MB\n",
               bench_median(tr, RUNS), bench_median(tc, RUNS), RUNS, same ? "yes" : "NO",
               (double)tn_surf_memory(keep) / 1048576.0);
    tn_surf_destroy(keep);
}

/* The build on 1 and on `threads` threads, interleaved, wall clock. */
static void threads_run(const tn_map *m, const tn_surf_profile *prof, int threads)
{
    double t[2][5];
    bool same = true;
    for (int k = 0; k < 5; k++) {
        tn_surf *g[2] = {NULL, NULL};
        for (int v = 0; v < 2; v++) {
            tn_surf_profile p = *prof;
            p.threads = v ? threads : 1;
            double t0 = bench_now();
            tn_surf_create(m, &p, NULL, &g[v], NULL);
            t[v][k] = (bench_now() - t0) * 1e3;
        }
        same = same && g[0] && g[1] && tn_surf_edge_count(g[0]) == tn_surf_edge_count(g[1]) &&
               memcmp(tn_surf_edges(g[0]), tn_surf_edges(g[1]),
                      (size_t)tn_surf_edge_count(g[0]) * sizeof(tn_surf_edge)) == 0;
        tn_surf_destroy(g[0]);
        tn_surf_destroy(g[1]);
    }
    double a = bench_median(t[0], 5), b = bench_median(t[1], 5);
    printf(
        "  demo       build on %d threads (profile.threads): wall median %.1f ms against %.1f ms "
        "on 1 (x%.2f, 5 interleaved runs); the same edges: %s\n",
        threads, b, a, a / b, same ? "yes" : "NO");
}

/* tn_body_step passed as a custom step function: the builder cannot know
 * it is tn_body_step, so it steps every near-terrain state one by one and
 * replays every edge instead of the bitset path. */
static void body_step_wrapped(tn_body *b, const tn_map *m, const tn_phys_params *p, tn_input in)
{
    tn_body_step(b, m, p, in);
}

/* --custom-step: the demo map's build with the built-in step against the
 * same physics as a custom step function, interleaved, CPU time. */
static void custom_step_run(const tn_map *m, const tn_surf_profile *prof)
{
    enum { RUNS = 5 };
    double t[2][RUNS];
    bool same = true;
    for (int k = 0; k < RUNS; k++) {
        tn_surf *g[2] = {NULL, NULL};
        for (int v = 0; v < 2; v++) {
            tn_surf_profile p = *prof;
            p.step = v ? body_step_wrapped : NULL;
            double t0 = bench_cpu_now();
            tn_surf_create(m, &p, NULL, &g[v], NULL);
            t[v][k] = (bench_cpu_now() - t0) * 1e3;
        }
        same = same && g[0] && g[1] && tn_surf_edge_count(g[0]) == tn_surf_edge_count(g[1]);
        tn_surf_destroy(g[0]);
        tn_surf_destroy(g[1]);
    }
    double a = bench_median(t[0], RUNS), b = bench_median(t[1], RUNS);
    printf("  demo       build with tn_body_step as a custom step function (profile.step): "
           "median %.1f ms CPU against %.1f ms built-in (x%.1f, %d interleaved runs); the same "
           "edge count: %s\n",
           b, a, b / a, RUNS, same ? "yes" : "NO");
}

int bench_surf(int argc, char **argv)
{
    int edits = 20, oracle = 0, queries = 1000, optimality = 0;
    tgt.demo_build = NAN;
    for (int lv = 0; lv < 2; lv++) {
        tgt.build[lv] = tgt.repair[lv] = NAN;
        for (int md = 0; md < 3; md++) tgt.qmed[lv][md] = tgt.qp99[lv][md] = NAN;
    }
    bool do_gaps = false;
    int coyote = TN_SURF_COYOTE_FULL;
    int landmarks = -1, threads = 2, light_above = 1024, full = 0;
    bool huge = false, custom = false;
    int size_list[32] = {64, 128}, nsizes = 2; /* --sizes: default 64,128 */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(a, "--sizes") == 0 && v && strcmp(v, "none") == 0)
            nsizes = 0, i++;
        else if (strcmp(a, "--sizes") == 0)
            bad = (nsizes = bench_arg_list("surf", a, v, 16, 1024, size_list, 32)) < 0, i++;
        else if (strcmp(a, "--edits") == 0)
            bad = bench_arg_int("surf", a, v, 0, 1000000, &edits), i++;
        else if (strcmp(a, "--queries") == 0)
            bad = bench_arg_int("surf", a, v, 1, 10000000, &queries), i++;
        else if (strcmp(a, "--oracle") == 0)
            bad = bench_arg_int("surf", a, v, 0, 1000000, &oracle), i++;
        else if (strcmp(a, "--optimality") == 0)
            bad = bench_arg_int("surf", a, v, 0, 1000000, &optimality), i++;
        else if (strcmp(a, "--landmarks") == 0) /* -1: the default (tn_surf_set_landmarks) */
            bad = bench_arg_int("surf", a, v, -1, 16, &landmarks), i++;
        else if (strcmp(a, "--threads") == 0)
            bad = bench_arg_int("surf", a, v, 1, 64, &threads), i++;
        else if (strcmp(a, "--light-above") == 0)
            bad = bench_arg_int("surf", a, v, 0, 1024, &light_above), i++;
        else if (strcmp(a, "--full") == 0)
            bad = bench_arg_int("surf", a, v, 0, 1024, &full), i++;
        else if (strcmp(a, "--coyote") == 0 && !v)
            bad = bench_arg_missing("surf", a);
        else if (strcmp(a, "--gaps") == 0)
            do_gaps = true;
        else if (strcmp(a, "--coyote") == 0 && v && strcmp(v, "last") == 0)
            coyote = TN_SURF_COYOTE_LAST, i++;
        else if (strcmp(a, "--coyote") == 0 && v && strcmp(v, "all") == 0)
            coyote = TN_SURF_COYOTE_ALL, i++;
        else if (strcmp(a, "--coyote") == 0 && v && strcmp(v, "none") == 0)
            coyote = TN_SURF_COYOTE_NONE, i++;
        else if (strcmp(a, "--coyote") == 0 && v && strcmp(v, "full") == 0)
            coyote = TN_SURF_COYOTE_FULL, i++;
        else if (strcmp(a, "--huge-pages") == 0)
            huge = true;
        else if (strcmp(a, "--custom-step") == 0)
            custom = true;
        else {
            if (strcmp(a, "--coyote") == 0)
                tn_print_shown(stderr, "surf: --coyote: '%s' is not full, last, all or none\n", v);
            else
                bench_arg_unknown("surf", a);
            fprintf(stderr, "usage: tilenav-bench surf [--sizes 64,128,512,1024|none] [--edits K] "
                            "[--queries Q] [--gaps] [--oracle N] [--optimality N] "
                            "[--coyote full|last|all|none] "
                            "[--landmarks K] [--threads T] [--huge-pages] [--custom-step] "
                            "[--light-above N] [--full N]\n");
            return 2;
        }
        if (bad) return 2;
    }
    /* demo map */
    char err[256];
    tn_map *dm = NULL;
    if (tn_load_map("maps/demo.map", &dm, err, sizeof err) == 0) {
        tn_phys_params p = tn_phys_default(4.0f);
        tn_surf_profile prof = tn_surf_profile_make(1, 2, &p);
        /* 21 runs: a build takes about 8 ms, and with 5 the median moved by a
         * third between runs of the bench on this shared machine */
        enum { DEMO_RUNS = 21 };
        double t[DEMO_RUNS];
        int ne = 0, nn = 0;
        size_t mem = 0;
        for (int k = 0; k < DEMO_RUNS; k++) {
            tn_surf *g = NULL;
            double t0 = bench_cpu_now();
            tn_surf_create(dm, &prof, NULL, &g, NULL);
            t[k] = (bench_cpu_now() - t0) * 1e3;
            if (g) ne = tn_surf_edge_count(g), nn = tn_surf_node_count(g), mem = tn_surf_memory(g);
            tn_surf_destroy(g);
        }
        printf(
            "maps/demo.map (80x45), 1x2, jump 4: build median %.1f ms CPU (%d runs); %d nodes, %d "
            "edges, memory %.2f MB\n",
            bench_median(t, DEMO_RUNS), DEMO_RUNS, nn, ne, (double)mem / 1048576.0);
        tgt.demo_build = bench_median(t, DEMO_RUNS);
        {
            tn_surf *g = NULL;
            if (tn_succeeded(tn_surf_create(dm, &prof, NULL, &g, NULL)))
                save_load_run("demo", dm, &prof, g, NULL);
            tn_surf_destroy(g);
        }
        rebuild_run(dm, &prof);
        if (threads > 1) threads_run(dm, &prof, threads);
        if (custom) custom_step_run(dm, &prof);
        /* before graph_run edits the map */
        tn_surf_profile ref = prof;
        ref.keep_all_landings = true;
        plan_cost(dm, &prof, &ref, "thinned landings", "every landing kept", queries);
        ref = prof;
        ref.coyote = TN_SURF_COYOTE_LAST;
        plan_cost(dm, &prof, &ref, "coyote jumps held (_FULL)", "every hold of them (_LAST)",
                  queries);
        tu_counting c = {0};
        tn_allocator ca = tu_counting_allocator(&c);
        tn_surf *g = NULL;
        if (tn_succeeded(tn_surf_create(dm, &prof, &ca, &g, NULL))) {
            tn_rng r;
            tn_rng_seed(&r, 1, 78);
            graph_run("demo", dm, g, &c, &r, queries, edits, -1, false);
            tn_surf_destroy(g);
        }
        tn_map_destroy(dm);
    } else {
        printf("demo map: %s\n", err);
    }
    printf("generated platformer levels (1x2, jump 4); every time is thread CPU time%s:\n",
           huge ? "; blocks of 2 MB+ on huge pages (--huge-pages)" : "");
    for (int k = 0; k < nsizes; k++) {
        int n = size_list[k];
        level_run(n, edits, queries, 1, coyote, landmarks, huge, n > light_above && n != full);
    }
    targets_print();
    if (do_gaps) gaps();
    if (oracle > 0) oracle_sweep(oracle);
    if (optimality > 0) optimality_sweep(optimality);
    return 0;
}
