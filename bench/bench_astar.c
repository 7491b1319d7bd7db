/* tilenav-bench astar: platformer A* query times.
 *
 * Maps: maps/demo.map (or, when it is missing, a generated 80x45 level, and
 * the table says so) and a generated 512x512 level (tn_levelgen, --seed).
 * Character 1x2, jump height 4.  --queries pairs of random standing tiles
 * per map (the same pairs for both heuristics), each query timed --reps
 * times (median kept); the table gives the median, 95th percentile and
 * maximum over the queries, the mean states expanded, states expanded per
 * second (total states / total time), how many queries reached the goal,
 * ended partial (unreachable) or hit the search limit (--limit, default
 * 32768 states on the 512x512 level, then 4x that to show what the limit
 * costs; every state on the demo map), and
 * the heap allocations made during the queries, counted by a counting
 * tn_allocator given to the finder (they must be 0).  On the demo map the
 * optimal queries run a second time with a search trace (tn_path_set_trace,
 * a caller-owned buffer of 1<<16 events, reset before each query), timed
 * right after the untraced run: the line "with a trace" gives both medians
 * and means, their ratio and the events recorded per query.
 * The physics step (tn_phys.h cites it): after the demo map's table, one
 * line gives the time of a tn_body_step of a 1x2 body, jump height 4, on
 * that map: 64 bodies placed on random standing tiles, each fed its own
 * random input (left, right, jump, down drawn before the timing) for 2,000
 * steps, timed as one run; the medians of 5 runs, per body-step, of the
 * wall-clock time and of the thread's CPU time (less skewed by a loaded
 * machine).
 * Usage: tilenav-bench astar [--queries N] [--reps R] [--seed S] [--limit L]
 */
#include "bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_levelgen.h"
#include "tn_path.h"
#include "tn_trace.h"
#include "../tests/tu_nav.h"

static tn_map *load(const char *path)
{
    size_t n = 0;
    char *buf = tu_slurp(path, &n);
    tn_map *m = NULL;
    tn_error err;
    if (buf && tn_failed(tn_map_parse(buf, n, path, NULL, &m, &err))) {
        fprintf(stderr, "astar: %s\n", err.msg);
        m = NULL;
    }
    free(buf);
    return m;
}

static tn_map *generated(int w, int h, uint64_t seed)
{
    tn_map *m = NULL;
    tn_map_create(w, h, NULL, &m, NULL);
    tn_rng r;
    tn_rng_seed(&r, seed, 512);
    if (m) tn_levelgen_platformer(m, &r, NULL);
    return m;
}

static bool pick(const tn_map *m, tn_rng *r, int *x, int *y)
{
    for (int t = 0; t < 100000; t++) {
        int tx = (int)tn_rng_below(r, (uint32_t)m->w), ty = (int)tn_rng_below(r, (uint32_t)m->h);
        if (tn_path_box_fits(m, tx, ty, 1, 2) && tn_path_box_ground(m, tx, ty, 1)) {
            *x = tx;
            *y = ty;
            return true;
        }
    }
    return false;
}

typedef struct row {
    double med, p95, max, mean, mean_exp, rate, mean_events;
    int full, partial, limited;
    long allocs, dropped;
} row;

/* trace: NULL, or a trace reset before each query (and set on pf for the
 * run). */
static row measure(tn_path *pf, tu_counting *cnt, const tn_map *m, const int *q, int nq, int reps,
                   int heuristic, int limit, const tn_jump_model *jm, tn_trace *trace)
{
    row r;
    memset(&r, 0, sizeof r);
    double *t = bench_alloc(sizeof(double) * (size_t)nq),
           *rep = bench_alloc(sizeof(double) * (size_t)reps);
    double tsum = 0, esum = 0, evsum = 0;
    tn_path_node out[512];
    tn_path_set_trace(pf, trace);
    long before = cnt->allocs;
    for (int i = 0; i < nq; i++) {
        tn_path_query qq =
            tn_path_query_make(q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3], 1, 2, jm);
        qq.heuristic = heuristic;
        qq.max_expand = limit;
        tn_path_stats st;
        int n;
        tn_status s = 0;
        for (int k = 0; k < reps; k++) {
            double t0 = bench_now();
            if (trace) tn_trace_reset(trace);
            s = tn_path_find(pf, m, &qq, out, 512, &n, &st, NULL);
            rep[k] = bench_now() - t0;
        }
        if (trace) {
            evsum += (double)trace->count + (double)trace->dropped;
            r.dropped += trace->dropped;
        }
        t[i] = bench_median(rep, reps);
        tsum += t[i];
        esum += st.expanded;
        if (tn_status_detail(s, TN_LIMIT_REACHED))
            r.limited++;
        else if (tn_status_detail(s, TN_UNREACHABLE))
            r.partial++;
        else
            r.full++;
    }
    r.allocs = cnt->allocs - before;
    tn_path_set_trace(pf, NULL);
    r.mean_exp = esum / nq;
    r.mean = tsum / nq;
    r.mean_events = evsum / nq;
    r.rate = tsum > 0 ? esum / tsum : 0;
    r.max = bench_percentile(t, nq, 100);
    r.p95 = bench_percentile(t, nq, 95);
    r.med = bench_median(t, nq);
    free(t);
    free(rep);
    return r;
}

/* The physics step: median of PHYS_RUNS runs of PHYS_BODIES bodies x
 * PHYS_STEPS steps of random input on m, in ns per body-step. */
enum { PHYS_BODIES = 64, PHYS_STEPS = 2000, PHYS_RUNS = 5 };

static int bench_phys(const char *name, const tn_map *m, uint64_t seed)
{
    tn_phys_params p = tn_phys_default(4.0f);
    tn_rng r;
    tn_rng_seed(&r, seed, 11);
    tn_body *b = bench_alloc(sizeof *b * PHYS_BODIES);
    tn_input *in = bench_alloc(sizeof *in * PHYS_BODIES * PHYS_STEPS);
    double run[PHYS_RUNS], cpu[PHYS_RUNS];
    long airborne = 0, walls = 0;
    for (int k = 0; k < PHYS_RUNS; k++) {
        for (int i = 0; i < PHYS_BODIES; i++) {
            int x, y;
            if (!pick(m, &r, &x, &y)) {
                fprintf(stderr, "astar: no standing tiles on %s\n", name);
                free(b);
                free(in);
                return 1;
            }
            tn_body_place(&b[i], &p, 1, 2, x, y);
            tn_body_settle(&b[i], m, &p);
        }
        /* an input held for 1..32 steps, as a player's keys are */
        for (int i = 0; i < PHYS_BODIES; i++) {
            tn_input cur = {0};
            for (int s = 0, hold = 0; s < PHYS_STEPS; s++, hold--) {
                if (hold <= 0) {
                    uint32_t bits = tn_rng_u32(&r);
                    int dir = (int)(bits % 3); /* none, left, right */
                    cur.left = dir == 1;
                    cur.right = dir == 2;
                    cur.jump = (bits >> 2) % 4 == 0;
                    cur.down = (bits >> 4) % 16 == 0;
                    hold = 1 + (int)((bits >> 8) % 32);
                }
                in[(size_t)s * PHYS_BODIES + (size_t)i] = cur;
            }
        }
        double t0 = bench_now(), c0 = bench_cpu_now();
        for (int s = 0; s < PHYS_STEPS; s++)
            for (int i = 0; i < PHYS_BODIES; i++) {
                tn_body_step(&b[i], m, &p, in[(size_t)s * PHYS_BODIES + (size_t)i]);
                airborne += !b[i].on_ground;
                walls += b[i].hit_wall;
            }
        cpu[k] = (bench_cpu_now() - c0) / ((double)PHYS_BODIES * PHYS_STEPS);
        run[k] = (bench_now() - t0) / ((double)PHYS_BODIES * PHYS_STEPS);
    }
    const double steps = (double)PHYS_RUNS * PHYS_BODIES * PHYS_STEPS;
    printf("\nphysics step (tn_body_step), 1x2 body, jump height 4, on %s: median %.1f ns per "
           "body-step wall-clock, %.1f ns CPU (%d runs of %d bodies x %d steps of random held "
           "input; %.0f%% of steps in the air, %.0f%% against a wall)\n",
           name, bench_median(run, PHYS_RUNS) * 1e9, bench_median(cpu, PHYS_RUNS) * 1e9, PHYS_RUNS,
           PHYS_BODIES, PHYS_STEPS, 100.0 * (double)airborne / steps,
           100.0 * (double)walls / steps);
    free(b);
    free(in);
    return 0;
}

/* traced: also time the optimal queries with a trace (the demo map). */
static int bench_map(const char *name, tn_map *m, int nq, int reps, uint64_t seed, int limit,
                     bool traced)
{
    tu_counting cnt = {0};
    tn_allocator a = tu_counting_allocator(&cnt);
    tn_path *pf = NULL;
    tn_error err;
    if (tn_failed(tn_path_create(m->w, m->h, NULL, limit, &a, &pf, &err))) {
        fprintf(stderr, "astar: %s\n", err.msg);
        return 1;
    }
    tn_phys_params p = tn_phys_default(4.0f);
    tn_jump_model jm;
    tn_jump_model_init(&jm, &p, NULL);
    tn_rng r;
    tn_rng_seed(&r, seed, 7);
    int *q = bench_alloc(sizeof(int) * 4 * (size_t)nq);
    for (int i = 0; i < nq; i++)
        if (!pick(m, &r, &q[4 * i], &q[4 * i + 1]) || !pick(m, &r, &q[4 * i + 2], &q[4 * i + 3])) {
            fprintf(stderr, "astar: no standing tiles on %s\n", name);
            free(q);
            tn_path_destroy(pf);
            return 1;
        }
    /* warm up the caches and the per-tile bits */
    measure(pf, &cnt, m, q, nq < 20 ? nq : 20, 1, TN_PATH_OPTIMAL, 0, &jm, NULL);
    row o = measure(pf, &cnt, m, q, nq, reps, TN_PATH_OPTIMAL, 0, &jm, NULL);
    row tr = {0};
    tn_trace trace;
    tn_trace_event *ev = NULL;
    if (traced) {
        enum { TRACE_CAP = 1 << 16 };
        ev = bench_alloc(sizeof *ev *
                         TRACE_CAP); /* the caller's buffer: not the finder's allocator */
        tn_trace_init(&trace, ev, ev ? TRACE_CAP : 0);
        tr = measure(pf, &cnt, m, q, nq, reps, TN_PATH_OPTIMAL, 0, &jm, &trace);
    }
    row f = measure(pf, &cnt, m, q, nq, reps, TN_PATH_FAST, 0, &jm, NULL);
    printf("\n%s: %dx%d, %d queries x %d reps, limit %d states\n", name, m->w, m->h, nq, reps,
           tn_path_max_expand(pf));
    printf("  %-22s %14s %14s\n", "", "optimal", "fast (3h)");
    printf("  %-22s %11.1f us %11.1f us\n", "median query", o.med * 1e6, f.med * 1e6);
    printf("  %-22s %11.1f us %11.1f us\n", "95th percentile", o.p95 * 1e6, f.p95 * 1e6);
    printf("  %-22s %11.1f us %11.1f us\n", "slowest query", o.max * 1e6, f.max * 1e6);
    printf("  %-22s %14.0f %14.0f\n", "states expanded (mean)", o.mean_exp, f.mean_exp);
    printf("  %-22s %12.1f M %12.1f M\n", "states per second", o.rate / 1e6, f.rate / 1e6);
    printf("  %-22s %5d/%d/%-6d %5d/%d/%-6d\n", "full/unreach./limit", o.full, o.partial, o.limited,
           f.full, f.partial, f.limited);
    printf("  %-22s %14ld %14ld\n", "allocations in queries", o.allocs, f.allocs);
    if (traced)
        printf("  with a trace (tn_path_set_trace), optimal: median %.1f us against %.1f untraced "
               "(x%.2f), mean %.1f against %.1f us (x%.2f); %.0f events per query, %ld dropped, "
               "%ld allocations\n",
               tr.med * 1e6, o.med * 1e6, o.med > 0 ? tr.med / o.med : 0, tr.mean * 1e6,
               o.mean * 1e6, o.mean > 0 ? tr.mean / o.mean : 0, tr.mean_events, tr.dropped,
               tr.allocs);
    free(ev);
    free(q);
    tn_path_destroy(pf);
    return o.allocs || f.allocs || tr.allocs ? 1 : 0;
}

int bench_astar(int argc, char **argv)
{
    int nq = 300, reps = 5, limit = 32768;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad;
        if (strcmp(a, "--queries") == 0)
            bad = bench_arg_int("astar", a, v, 1, 10000000, &nq);
        else if (strcmp(a, "--reps") == 0)
            bad = bench_arg_int("astar", a, v, 1, 100000, &reps);
        else if (strcmp(a, "--seed") == 0)
            bad = bench_arg_seed("astar", a, v, &seed);
        else if (strcmp(a, "--limit") == 0) /* 4 * limit is run too */
            bad = bench_arg_int("astar", a, v, 1, INT_MAX / 4, &limit);
        else {
            bench_arg_unknown("astar", a);
            fprintf(stderr, "usage: tilenav-bench astar [--queries N] [--reps R] [--seed S] "
                            "[--limit L]\n");
            return 2;
        }
        if (bad) return 2;
        i++;
    }
    printf("astar: platformer A*, 1x2 character, jump height 4, -O2 build\n");
    int rc = 0;
    tn_map *demo = load("maps/demo.map");
    if (demo) {
        rc |= bench_map("maps/demo.map", demo, nq, reps, seed, 0, true);
        rc |= bench_phys("maps/demo.map", demo, seed);
    } else {
        demo = generated(80, 45, seed);
        rc |= bench_map("generated 80x45 level (maps/demo.map is missing)", demo, nq, reps, seed, 0,
                        true);
        rc |= bench_phys("the generated 80x45 level", demo, seed);
    }
    tn_map_destroy(demo);
    tn_map *big = generated(512, 512, seed);
    rc |= bench_map("generated 512x512 level", big, nq / 3 > 0 ? nq / 3 : 1, reps, seed, limit,
                    false);
    rc |= bench_map("generated 512x512 level, 4x the limit", big, nq / 3 > 0 ? nq / 3 : 1, reps,
                    seed, 4 * limit, false);
    tn_map_destroy(big);
    printf("\ntargets: demo median < 50 us; every 512x512 query < 10 ms; "
           "0 allocations per query\n");
    return rc;
}
