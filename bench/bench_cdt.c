/* tilenav-bench cdt: constrained Delaunay triangulation timings.
 *
 *   tilenav-bench cdt --points N [--seed S] [--runs R] [--float] [--incremental]
 *       N uniform random points (integer coordinates in [0, 2^26), or doubles
 *       in [0, 1) with --float), triangulated R times (default 11); prints
 *       the median, min and max time and points per second.
 *   tilenav-bench cdt --map FILE... [--runs R] [--unit] [--incremental]
 *       For each map: the outline (bench_gen.c: the rule of tn_navmesh.h)
 *       triangulated R times (default 101), without and with
 *       TN_CDT_REMOVE_OUTSIDE; medians.  "cold": the removal builds again,
 *       each after an untimed build of the next map (of this map's whole
 *       hull when there is one map): repeating one build lets the branch
 *       predictors learn it, which a game rebuilding after an edit never
 *       sees.  "path": which algorithm built the removal mesh.
 *   tilenav-bench cdt --dump-input FILE.map [--unit] [--runs R] [--alternate OTHER.map]
 *                     [-o OUT.json]
 *   tilenav-bench cdt --dump-points N [--seed S] [--float] [--runs R] [-o OUT.json]
 *       Write the exact input we triangulate as JSON for bench/peers:
 *       {"points":[x0,y0,...],"segments":[a0,b0,...],"triangles":T,
 *        "triangles_hull":TH,"ours_runs":R,"ours_wall_ms":W,"ours_cpu_ms":C}
 *       where T is our triangle count with the outside removed (maps; points:
 *       the hull), TH the count of the whole hull, W and C the median wall
 *       and thread-CPU time of R builds of that (R = 0: not timed);
 *       --alternate: each timed build after an untimed build of OTHER.map
 *       (with the outside removed, on its own tn_cdt).  -o writes
 *       atomically and never replaces a file that is not such a dump.
 *
 * Memory is allocated once per input; builds never allocate. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "fileio.h"

#include "tn_cdt.h"
#include "tn_navmesh.h"
#include "tn_map.h"
#include "tn_rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* CPU time of this thread: on a shared machine it leaves out the time the
 * thread waited for a core (wall time is printed too). */
/* bench_gen.c */
int bench_outline(const tn_map *m, int unit, int32_t **xy, int *npoints, int32_t **segs,
                  int *nsegs);

/* A message of the cdt module already starts with "cdt: " (tn_common.h), and
 * so does every line this command prints: print the prefix once. */
static const char *bare(const char *msg) { return strncmp(msg, "cdt: ", 5) == 0 ? msg + 5 : msg; }

static tn_map *load_map(const char *path)
{
    /* tn_read_file says why (no such file, a directory) and never waits on
     * a FIFO nor reads an endless device (/dev/zero) */
    size_t len = 0;
    char *buf = NULL, msg[512];
    if (tn_read_file(path, TN_MAP_FILE_MAX, &buf, &len, msg, sizeof msg) != 0) {
        tn_print_shown(stderr, "cdt: %s\n", msg);
        return NULL;
    }
    tn_map *m = NULL;
    tn_error err;
    if (tn_failed(tn_map_parse(buf, len, path, NULL, &m, &err))) {
        tn_print_shown(stderr, "cdt: %s\n", bare(err.msg));
        m = NULL;
    }
    free(buf);
    return m;
}

static void random_points(int n, uint64_t seed, int use_float, int32_t *xi, double *xd)
{
    tn_rng r;
    tn_rng_seed(&r, seed, 2);
    for (int i = 0; i < 2 * n; i++) {
        if (use_float) {
            uint64_t hi = tn_rng_u32(&r), lo = tn_rng_u32(&r);
            xd[i] = (double)((hi << 21) ^ lo) * 0x1p-53; /* 53 random bits in [0, 1) */
        } else {
            xi[i] = (int32_t)(tn_rng_u32(&r) & ((1u << 26) - 1));
        }
    }
}

typedef struct bench_in {
    int n, nsegs, use_float;
    int32_t *xi;
    double *xd;
    int32_t *segs;
} bench_in;

static unsigned g_flags; /* --incremental: TN_CDT_INCREMENTAL */

static tn_status build_once(tn_cdt *c, const bench_in *in, unsigned flags, tn_error *err)
{
    flags |= g_flags;
    return in->use_float ? tn_cdt_build_d(c, in->xd, in->n, in->segs, in->nsegs, flags, err)
                         : tn_cdt_build_i(c, in->xi, in->n, in->segs, in->nsegs, flags, err);
}

/* Something built, untimed, before each timed build: another input on its
 * own tn_cdt, so the timed build starts with branch predictors and caches
 * trained on other work, as after an edit in a game (repeating one build
 * lets the predictors learn it: measured 1.6x faster on the 700-block map). */
typedef struct bench_between {
    tn_cdt *c;
    const bench_in *in;
    unsigned flags;
} bench_between;

/* Medians of `runs` builds: wall and thread-CPU seconds; min/max of wall;
 * -1 on failure.  `between`: NULL, or built before each timed build. */
static double time_builds(tn_cdt *c, const bench_in *in, unsigned flags, int runs, double *mn,
                          double *mx, double *cpu, const bench_between *between)
{
    double *t = bench_alloc(sizeof(double) * (size_t)runs),
           *u = bench_alloc(sizeof(double) * (size_t)runs);
    tn_error err;
    for (int k = 0; k < runs; k++) {
        if (between && tn_failed(build_once(between->c, between->in, between->flags, &err))) {
            fprintf(stderr, "cdt: build failed: %s\n", bare(err.msg));
            free(t);
            free(u);
            return -1;
        }
        double t0 = bench_now(), u0 = bench_cpu_now();
        tn_status st = build_once(c, in, flags, &err);
        u[k] = bench_cpu_now() - u0;
        t[k] = bench_now() - t0;
        if (tn_failed(st)) {
            fprintf(stderr, "cdt: build failed: %s\n", bare(err.msg));
            free(t);
            free(u);
            return -1;
        }
    }
    double med = bench_median(t, runs); /* sorts */
    *mn = t[0];
    *mx = t[runs - 1];
    *cpu = bench_median(u, runs);
    free(t);
    free(u);
    return med;
}

static int write_json(const char *path, const bench_in *in, int ntris, int ntris_hull, int runs,
                      double wall, double cpu)
{
    /* -o: a file that is there and is not such a dump (a map, notes: a
     * slip of the name) is not replaced; the dump is made in memory and
     * written atomically, so a failed write never leaves a cut file */
    static const char head[] = "{\"points\":[";
    struct stat st;
    if (path && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        char got[sizeof head - 1] = {0};
        FILE *old = fopen(path, "rb");
        size_t n = old ? fread(got, 1, sizeof got, old) : 0;
        if (old) fclose(old);
        if (n > 0 && memcmp(got, head, sizeof got) != 0) {
            tn_print_shown(stderr,
                           "cdt: %s: not replaced: it is not a cdt dump (it does not start "
                           "with '%s')\n",
                           path, head);
            return 1;
        }
    }
    char *mem = NULL;
    size_t mem_len = 0;
    FILE *f = path ? open_memstream(&mem, &mem_len) : stdout;
    if (!f) {
        fprintf(stderr, "cdt: out of memory\n");
        return 1;
    }
    fprintf(f, "{\"points\":[");
    for (int i = 0; i < 2 * in->n; i++) {
        if (i) fputc(',', f);
        if (in->use_float)
            fprintf(f, "%.17g", in->xd[i]);
        else
            fprintf(f, "%d", (int)in->xi[i]);
    }
    fprintf(f, "],\n\"segments\":[");
    for (int i = 0; i < 2 * in->nsegs; i++) fprintf(f, i ? ",%d" : "%d", (int)in->segs[i]);
    fprintf(f,
            "],\n\"triangles\":%d,\"triangles_hull\":%d,\"ours_runs\":%d,\"ours_wall_ms\":%.6f,"
            "\"ours_cpu_ms\":%.6f}\n",
            ntris, ntris_hull, runs, wall * 1e3, cpu * 1e3);
    if (!path) return 0;
    int rc = 0;
    char err[1024];
    if (fclose(f) != 0) {
        fprintf(stderr, "cdt: out of memory\n");
        rc = 1;
    } else if (tn_write_file_atomic(path, mem, mem_len, err, sizeof err) != 0) {
        tn_print_shown(stderr, "cdt: %s\n", err);
        rc = 1;
    }
    free(mem);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: tilenav-bench cdt --points N [--seed S] [--runs R] [--float] [--incremental]\n"
        "       tilenav-bench cdt --map FILE... [--runs R] [--unit] [--incremental]\n"
        "       tilenav-bench cdt --dump-input FILE.map [--unit] [--navmesh] [--runs R]\n"
        "                         [--alternate OTHER.map] [-o OUT.json]\n"
        "       tilenav-bench cdt --dump-points N [--seed S] [--float] [--runs R] [-o OUT.json]\n"
        "  --unit: the outline as unit edges (every outline corner a point) instead of\n"
        "          merged runs split at vertices (tn_navmesh's rule); see bench_gen.c\n"
        "  --incremental: TN_CDT_INCREMENTAL (Hilbert-order insertion) instead of the sweep "
        "hull\n");
}

static int g_unit;    /* --unit: unit-edge extraction */
static int g_navmesh; /* --navmesh: with --dump-input, time the full tn_navmesh_build */

/* Median wall and CPU seconds of `runs` full navmesh builds of the map. */
static int time_navmesh(const char *path, int runs, double *wall, double *cpu)
{
    tn_map *m = load_map(path);
    if (!m) return 1;
    tn_error err;
    tn_navmesh *nm = NULL;
    tn_navmesh_create(m->w, m->h, NULL, NULL, &nm, &err);
    if (!nm || tn_failed(tn_navmesh_build(nm, m, &err))) {
        fprintf(stderr, "cdt: %s\n", bare(err.msg));
        tn_navmesh_destroy(nm);
        tn_map_destroy(m);
        return 1;
    }
    double *t = bench_alloc(sizeof(double) * (size_t)runs),
           *u = bench_alloc(sizeof(double) * (size_t)runs);
    for (int k = 0; k < runs; k++) {
        double t0 = bench_now(), u0 = bench_cpu_now();
        tn_navmesh_build(nm, m, NULL);
        u[k] = bench_cpu_now() - u0;
        t[k] = bench_now() - t0;
    }
    *wall = bench_median(t, runs);
    *cpu = bench_median(u, runs);
    free(t);
    free(u);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
    return 0;
}

static int load_map_input(const char *path, bench_in *in)
{
    tn_map *m = load_map(path);
    if (!m) return 1;
    memset(in, 0, sizeof *in);
    int rc = bench_outline(m, g_unit, &in->xi, &in->n, &in->segs, &in->nsegs);
    tn_map_destroy(m);
    if (rc) fprintf(stderr, "cdt: out of memory\n");
    return rc ? 1 : 0;
}

int bench_cdt(int argc, char **argv)
{
    int npoints = -1, runs = -1, use_float = 0, dump_points = -1;
    unsigned long long seed = 1;
    const char *dump_input = NULL, *out = NULL, *alternate = NULL;
    const char *maps[64];
    int nmaps = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--float")) {
            use_float = 1;
            continue;
        }
        if (!strcmp(a, "--unit")) {
            g_unit = 1;
            continue;
        }
        if (!strcmp(a, "--navmesh")) {
            g_navmesh = 1;
            continue;
        }
        if (!strcmp(a, "--incremental")) {
            g_flags |= TN_CDT_INCREMENTAL;
            continue;
        }
        if (!strcmp(a, "--map")) {
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                if (nmaps == 64) { /* (the 65th and later were dropped without a word) */
                    fprintf(stderr, "cdt: --map takes at most 64 maps\n");
                    return 2;
                }
                maps[nmaps++] = argv[++i];
            }
            continue;
        }
        int bad = 0;
        if (!strcmp(a, "--points"))
            bad = bench_arg_int("cdt", a, v, 1, 50000000, &npoints);
        else if (!strcmp(a, "--dump-points"))
            bad = bench_arg_int("cdt", a, v, 0, 50000000, &dump_points);
        else if (!strcmp(a, "--seed"))
            bad = bench_arg_seed("cdt", a, v, &seed);
        else if (!strcmp(a, "--runs"))
            bad = bench_arg_int("cdt", a, v, 0, 1000000, &runs); /* 0: a dump, untimed */
        else if (!v &&
                 (!strcmp(a, "--dump-input") || !strcmp(a, "--alternate") || !strcmp(a, "-o"))) {
            bench_arg_missing("cdt", a);
            usage(stderr);
            return 2;
        } else if (!strcmp(a, "--dump-input"))
            dump_input = v;
        else if (!strcmp(a, "--alternate"))
            alternate = v;
        else if (!strcmp(a, "-o"))
            out = v;
        else {
            bench_arg_unknown("cdt", a);
            usage(stderr);
            return 2;
        }
        if (bad) return 2;
        i++;
    }
    tn_error err;
    if (runs == 0 && !dump_input && dump_points < 0) {
        fprintf(stderr, "cdt: --runs 0 (no timing) goes with --dump-input or --dump-points\n");
        return 2;
    }
    if ((out || alternate) && !dump_input && dump_points < 0) { /* (ignored without a word) */
        fprintf(stderr, "cdt: %s goes with --dump-input%s\n", out ? "-o" : "--alternate",
                out ? " or --dump-points" : "");
        return 2;
    }
    if (dump_input || dump_points >= 0) {
        bench_in in;
        memset(&in, 0, sizeof in);
        unsigned flags = 0;
        if (dump_input) {
            if (load_map_input(dump_input, &in)) return 1;
            flags = TN_CDT_REMOVE_OUTSIDE;
        } else {
            in.n = dump_points;
            in.use_float = use_float;
            in.xi = bench_alloc(sizeof(int32_t) * (size_t)(2 * in.n + 1));
            in.xd = bench_alloc(sizeof(double) * (size_t)(2 * in.n + 1));
            random_points(in.n, seed, use_float, in.xi, in.xd);
        }
        bench_in other;
        memset(&other, 0, sizeof other);
        bench_between between = {NULL, &other, flags};
        if (alternate) {
            if (!dump_input) {
                fprintf(stderr, "cdt: --alternate goes with --dump-input\n");
                return 2;
            }
            if (load_map_input(alternate, &other)) return 1;
            tn_cdt_create(other.n, other.nsegs, NULL, &between.c, &err);
            if (!between.c) {
                fprintf(stderr, "cdt: %s\n", bare(err.msg));
                return 1;
            }
        }
        tn_cdt *c = NULL;
        tn_cdt_create(in.n, in.nsegs, NULL, &c, &err);
        int rc = 1, said = 0; /* said: write_json printed why itself */
        if (c && !tn_failed(build_once(c, &in, 0, &err))) {
            tn_cdt_mesh mh, mr;
            tn_cdt_get_mesh(c, &mh);
            int hull = mh.ntris;
            double mn, mx, cpu = 0, wall = 0;
            if (runs > 0 && g_navmesh && dump_input) {
                if (time_navmesh(dump_input, runs, &wall, &cpu)) wall = -1;
            } else if (runs > 0) {
                wall =
                    time_builds(c, &in, flags, runs, &mn, &mx, &cpu, between.c ? &between : NULL);
            }
            if (wall >= 0 && !tn_failed(build_once(c, &in, flags, &err))) {
                tn_cdt_get_mesh(c, &mr);
                rc = write_json(out, &in, mr.ntris, hull, runs > 0 ? runs : 0, wall, cpu);
                said = rc;
            }
        }
        if (rc && !said) fprintf(stderr, "cdt: %s\n", bare(err.msg));
        tn_cdt_destroy(c);
        tn_cdt_destroy(between.c);
        free(other.xi);
        free(other.segs);
        free(in.xi);
        free(in.xd);
        free(in.segs);
        return rc;
    }
    if (nmaps > 0) {
        if (runs < 1) runs = 101;
        bench_in *ins = bench_zalloc((size_t)nmaps, sizeof *ins);
        tn_cdt **cs = bench_zalloc((size_t)nmaps, sizeof *cs);
        for (int k = 0; k < nmaps; k++) {
            if (load_map_input(maps[k], &ins[k])) {
                for (int j = 0; j < k; j++) {
                    tn_cdt_destroy(cs[j]);
                    free(ins[j].xi);
                    free(ins[j].xd);
                    free(ins[j].segs);
                }
                free(ins);
                free(cs);
                return 1;
            }
            tn_cdt_create(ins[k].n, ins[k].nsegs, NULL, &cs[k], &err);
            if (!cs[k]) {
                fprintf(stderr, "cdt: %s\n", bare(err.msg));
                return 1;
            }
        }
        printf("%-26s %6s %6s %6s %8s %8s %6s %8s %8s %8s %6s %6s\n", "map", "points", "segs",
               "tris", "hull ms", "cpu ms", "flips", "remove", "cpu ms", "cold ms", "path",
               "flips");
        for (int k = 0; k < nmaps; k++) {
            bench_in *in = &ins[k];
            tn_cdt *c = cs[k];
            double mn = 0, mx = 0, ch = 0, cr = 0, cc = 0; /* set on success only */
            tn_cdt_stats sh, sr;
            double th = time_builds(c, in, 0, runs, &mn, &mx, &ch, NULL);
            tn_cdt_get_stats(c, &sh);
            double tr = time_builds(c, in, TN_CDT_REMOVE_OUTSIDE, runs, &mn, &mx, &cr, NULL);
            tn_cdt_get_stats(c, &sr);
            tn_cdt_mesh m;
            tn_cdt_get_mesh(c, &m);
            /* cold: after a build of the next map (or of this one's hull) */
            bench_between between = {cs[(k + 1) % nmaps], &ins[(k + 1) % nmaps],
                                     nmaps > 1 ? TN_CDT_REMOVE_OUTSIDE : 0u};
            double tc = 0;
            if (nmaps == 1) { /* a second tn_cdt for the hull build */
                tn_cdt_create(in->n, in->nsegs, NULL, &between.c, &err);
                if (!between.c) return 1;
            }
            tc = time_builds(c, in, TN_CDT_REMOVE_OUTSIDE, runs, &mn, &mx, &cc, &between);
            if (nmaps == 1) tn_cdt_destroy(between.c);
            if (th < 0 || tr < 0 || tc < 0) return 1;
            const char *name = strrchr(maps[k], '/') ? strrchr(maps[k], '/') + 1 : maps[k];
            printf("%-26s %6d %6d %6d %8.3f %8.3f %6lld %8.3f %8.3f %8.3f %6s %6lld\n", name, in->n,
                   in->nsegs, m.ntris, th * 1e3, ch * 1e3, sh.flips, tr * 1e3, cr * 1e3, tc * 1e3,
                   sr.rectilinear ? "sweep" : "gen", sr.flips);
        }
        printf("(medians of %d builds each, wall and thread-CPU ms; hull = the whole convex hull\n"
               " (general path); remove = TN_CDT_REMOVE_OUTSIDE, repeated builds of the same map;\n"
               " cold = the same, each build after one of %s (wall); path: sweep = the\n"
               " rectilinear row sweep, gen = the general path; outline %s)\n",
               runs, nmaps > 1 ? "the next map in the list" : "this map's hull",
               g_unit ? "unit edges (--unit)" : "merged runs split at vertices, as tn_navmesh");
        for (int k = 0; k < nmaps; k++) {
            tn_cdt_destroy(cs[k]);
            free(ins[k].xi);
            free(ins[k].segs);
        }
        free(ins);
        free(cs);
        return 0;
    }
    if (npoints < 0) {
        usage(stderr);
        return 2;
    }
    if (runs < 1) runs = 11;
    bench_in in;
    memset(&in, 0, sizeof in);
    in.n = npoints;
    in.use_float = use_float;
    in.xi = bench_alloc(sizeof(int32_t) * (size_t)(2 * npoints + 1));
    in.xd = bench_alloc(sizeof(double) * (size_t)(2 * npoints + 1));
    if (!in.xi || !in.xd) {
        fprintf(stderr, "cdt: out of memory\n");
        return 1;
    }
    random_points(npoints, seed, use_float, in.xi, in.xd);
    tn_cdt *c = NULL;
    tn_cdt_create(npoints, 0, NULL, &c, &err);
    if (!c) {
        fprintf(stderr, "cdt: %s\n", bare(err.msg));
        return 1;
    }
    double mn, mx, cpu;
    double med = time_builds(c, &in, 0, runs, &mn, &mx, &cpu, NULL);
    if (med < 0) return 1;
    tn_cdt_mesh m;
    tn_cdt_stats st;
    tn_cdt_get_mesh(c, &m);
    tn_cdt_get_stats(c, &st);
    printf("cdt: %d uniform random points (%s, seed %llu), %d runs\n", npoints,
           use_float ? "doubles in [0,1)" : "integers in [0,2^26)", seed, runs);
    printf("%10s %10s %10s %10s %12s %10s %10s %8s\n", "median ms", "min ms", "max ms", "cpu ms",
           "points/s", "triangles", "flips", "walked");
    printf("%10.1f %10.1f %10.1f %10.1f %12.0f %10d %10lld %8d\n", med * 1e3, mn * 1e3, mx * 1e3,
           cpu * 1e3, med > 0 ? npoints / med : 0.0, m.ntris, st.flips, st.inside_inserts);
    printf("(median/min/max wall time and median thread-CPU time over the runs; points/s from the "
           "wall median)\n");
    tn_cdt_destroy(c);
    free(in.xi);
    free(in.xd);
    return 0;
}
