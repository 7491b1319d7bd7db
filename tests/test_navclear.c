/* test_navclear.c - radius (disc agent) paths of tn_navmesh against the
 * brute-force tangent-graph oracle in clear_oracle.h: every path keeps
 * r - 1e-4 from every blocked tile and the map edge (exact segment-to-
 * square distances), its exact length equals the oracle's optimum (1e-6
 * relative), the returned polyline (arcs as tangent polygons) is within
 * 0.5% of it, and every query the oracle solves is solved (and no other).
 * Random block maps at radii 0.25, 0.4, 0.75 and the Moving AI maps arena
 * and den312d (subsampled; skipped with a message when ../shared is absent).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clear_oracle.h"
#include "tn_navmesh.h"
#include "tn_rng.h"
#include "tu_nav.h"

#define MOVINGAI_DIR "../shared/data/movingai/"

static tn_map *map_rows(int w, int h, const char *rows)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    assert_non_null(m);
    assert_int_equal((int)strlen(rows), w * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            tn_map_set_tile(m, x, y, rows[y * w + x] == '#' ? TN_TILE_BLOCK : TN_TILE_EMPTY, NULL);
    return m;
}

static tn_map *random_blocks(int w, int h, int nblocks, int maxside, uint64_t seed)
{
    tn_rng r;
    tn_rng_seed(&r, seed, 11);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    for (int b = 0; b < nblocks; b++) {
        int bw = 1 + (int)tn_rng_below(&r, (uint32_t)maxside);
        int bh = 1 + (int)tn_rng_below(&r, (uint32_t)maxside);
        int x0 = (int)tn_rng_below(&r, (uint32_t)w), y0 = (int)tn_rng_below(&r, (uint32_t)h);
        for (int y = y0; y < y0 + bh && y < h; y++)
            for (int x = x0; x < x0 + bw && x < w; x++)
                tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
    }
    return m;
}

/* A Moving AI map, or NULL when ../shared is not there. */
static tn_map *load_movingai(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, MOVINGAI_DIR "%s", name);
    return tu_map_file(path);
}

static tn_navmesh *build(const tn_map *map)
{
    tn_error err;
    tn_navmesh *nm = NULL;
    tn_navmesh_create(map->w, map->h, NULL, NULL, &nm, &err);
    assert_non_null(nm);
    assert_true(tn_succeeded(tn_navmesh_build(nm, map, &err)));
    /* tile maps are always triangulated by the two row sweeps */
    tn_navmesh_view v;
    tn_navmesh_get_view(nm, &v);
    assert_true(v.swept || v.ntris == 0);
    return nm;
}

static double poly_len(const float *xy, int n)
{
    double l = 0;
    for (int i = 0; i + 1 < n; i++)
        l += hypot(xy[2 * i + 2] - xy[2 * i], xy[2 * i + 3] - xy[2 * i + 1]);
    return l;
}

/* Least distance of the polyline to a blocked tile or the outside. */
static double poly_clearance(const tn_map *m, const float *xy, int n, double r)
{
    double c = INFINITY;
    for (int i = 0; i + 1 < n; i++)
        c = fmin(c, or_seg_clearance(m, xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3], r));
    return c;
}

typedef struct stats {
    int queries, solved, unreachable;
    double worst_exact, worst_poly, sum_poly;
    double min_margin; /* least clearance - r */
} stats;

/* A random point with clearance >= r (coordinates on a 1/8 grid, so corner
 * and wall alignments happen), or false after many tries. */
static bool random_clear_point(const tn_map *m, tn_rng *rng, double r, double *x, double *y)
{
    for (int k = 0; k < 200; k++) {
        double px = tn_rng_below(rng, (uint32_t)(8 * m->w)) / 8.0;
        double py = tn_rng_below(rng, (uint32_t)(8 * m->h)) / 8.0;
        if (or_seg_clearance(m, px, py, px, py, r) >= r) {
            *x = px;
            *y = py;
            return true;
        }
    }
    return false;
}

static void run_queries(const tn_map *m, double r, int nq, uint64_t seed, stats *st,
                        const char *what)
{
    tn_navmesh *nm = build(m);
    tn_navquery *q = NULL;
    tn_navquery_create(nm, NULL, &q, NULL);
    assert_non_null(q);
    or_graph g;
    or_build(&g, m, r);
    tn_rng rng;
    tn_rng_seed(&rng, seed, 5);
    static float xy[2 * 8192];
    for (int it = 0; it < nq; it++) {
        double sx, sy, gx, gy;
        if (!random_clear_point(m, &rng, r, &sx, &sy) || !random_clear_point(m, &rng, r, &gx, &gy))
            break;
        double best = or_query(&g, sx, sy, gx, gy);
        int n = 0;
        tn_status s = tn_navquery_find_path(q, (float)sx, (float)sy, (float)gx, (float)gy, (float)r,
                                            xy, 8192, &n, NULL);
        st->queries++;
        if (best == INFINITY) {
            /* unreachable by the oracle: the mesh says so too and gives the
             * partial path to the closest place it reached, which keeps the
             * radius, starts at the start and ends no farther from the goal */
            if (s != (TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE))
                fprintf(stderr, "%s r=%g (%g,%g)->(%g,%g): oracle unreachable, mesh status %x\n",
                        what, r, sx, sy, gx, gy, (unsigned)s);
            assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
            assert_true(n >= 2 && xy[0] == (float)sx && xy[1] == (float)sy);
            assert_true(poly_clearance(m, xy, n, r) >= r - 1e-4);
            assert_true(hypot(xy[2 * n - 2] - gx, xy[2 * n - 1] - gy) <=
                        hypot(sx - gx, sy - gy) + 1e-4);
            st->unreachable++;
            continue;
        }
        if (s != TN_OK)
            fprintf(stderr, "%s r=%g (%g,%g)->(%g,%g): status %x, oracle %.9f\n", what, r, sx, sy,
                    gx, gy, (unsigned)s, best);
        assert_int_equal(s, TN_OK);
        st->solved++;
        assert_true(fabs(xy[0] - sx) < 1e-5 && fabs(xy[1] - sy) < 1e-5);
        assert_true(fabs(xy[2 * n - 2] - gx) < 1e-5 && fabs(xy[2 * n - 1] - gy) < 1e-5);
        double cl = poly_clearance(m, xy, n, r);
        double exact = tn_navquery_length(q), pl = poly_len(xy, n);
        double re = best > 0 ? exact / best : 1, rp = best > 0 ? pl / best : 1;
        if (cl < r - 1e-4 || fabs(re - 1) > 1e-6 || rp > 1.005)
            fprintf(stderr,
                    "%s r=%g (%.4f,%.4f)->(%.4f,%.4f): clearance %.6f, exact %.9f poly %.9f "
                    "oracle %.9f\n",
                    what, r, sx, sy, gx, gy, cl, exact, pl, best);
        assert_true(cl >= r - 1e-4);
        assert_true(fabs(re - 1) <= 1e-6);
        assert_true(rp <= 1.005);
        st->worst_exact = fmax(st->worst_exact, fabs(re - 1));
        st->worst_poly = fmax(st->worst_poly, rp);
        st->sum_poly += rp;
        st->min_margin = fmin(st->min_margin, cl - r);
    }
    or_free(&g);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
}

static void print_stats(const char *what, double r, const stats *st)
{
    printf("%-10s r=%.2f: %4d queries, %4d solved, %3d unreachable (both agree); exact length "
           "worst |ratio-1| %.1e; polyline mean %.5f worst %.5f; least clearance r%+.2e\n",
           what, r, st->queries, st->solved, st->unreachable, st->worst_exact,
           st->solved ? st->sum_poly / st->solved : 1.0, st->worst_poly, st->min_margin);
}

/* The example: a 4x4 pillar; the old answer ran 0.179 tiles under
 * its bottom face. */
static void test_pillar(void **state)
{
    (void)state;
    char rows[16 * 10 + 1];
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 16; x++)
            rows[y * 16 + x] = (x >= 6 && x < 10 && y >= 3 && y < 7) ? '#' : '.';
    rows[160] = 0;
    tn_map *m = map_rows(16, 10, rows);
    tn_navmesh *nm = build(m);
    tn_navquery *q = NULL;
    tn_navquery_create(nm, NULL, &q, NULL);
    float xy[512];
    int n;
    assert_int_equal(tn_navquery_find_path(q, 2.5f, 5, 13.5f, 5, 0.4f, xy, 256, &n, NULL), TN_OK);
    double cl = poly_clearance(m, xy, n, 0.4);
    assert_true(cl >= 0.4 - 1e-4);
    /* the optimum: tangents from (2.5,5) to the circles at (6,7) and (10,7)
     * (or the top ones), the straight offset segment under the face, arcs */
    or_graph g;
    or_build(&g, m, 0.4);
    double best = or_query(&g, 2.5, 5, 13.5, 5);
    double d = hypot(6 - 2.5, 7 - 5), t = sqrt(d * d - 0.16);
    double turn = atan2(2, 3.5) + asin(0.4 / d);
    double expect = 2 * t + 4 + 2 * 0.4 * turn;
    assert_true(fabs(best - expect) < 1e-9);
    assert_true(fabs(tn_navquery_length(q) - expect) < 1e-6);
    printf("pillar: length %.6f (analytic %.6f), least clearance %.6f\n", tn_navquery_length(q),
           expect, cl);
    /* several radii on the same mesh: a radius that does not fit between
     * the pillar and the map edge (3 tiles) is unreachable */
    assert_int_equal(tn_navquery_find_path(q, 2.5f, 5, 13.5f, 5, 1.2f, xy, 256, &n, NULL), TN_OK);
    assert_true(poly_clearance(m, xy, n, 1.2) >= 1.2 - 1e-4);
    tn_status s = tn_navquery_find_path(q, 2.5f, 5, 13.5f, 5, 1.6f, xy, 256, &n, NULL);
    assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE); /* to the closest place */
    assert_true(poly_clearance(m, xy, n, 1.6) >= 1.6 - 1e-4);
    /* a start closer than r to a wall is refused */
    tn_error e;
    s = tn_navquery_find_path(q, 5.8f, 5, 13.5f, 5, 0.4f, xy, 256, &n, &e);
    assert_true(tn_failed(s) && tn_status_detail(s, TN_INVALID_PARAM));
    assert_non_null(strstr(e.msg, "closer than the radius"));
    or_free(&g);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

static const double RADII[3] = {0.25, 0.4, 0.75};

static void test_random_maps(void **state)
{
    (void)state;
    int total = 0;
    for (int ri = 0; ri < 3; ri++) {
        stats st = {0, 0, 0, 0, 0, 0, INFINITY};
        for (int k = 0; k < 12; k++) {
            int w = 16 + 2 * k, h = 14 + k;
            /* even k: sparse rectangles; odd k: dense small blocks (narrow
             * gaps, pinches, dead ends) */
            tn_map *m = k % 2 == 0 ? random_blocks(w, h, 6 + k * 2, 1 + k % 4, 100 + (uint64_t)k)
                                   : random_blocks(w, h, w * h / 7, 2, 100 + (uint64_t)k);
            char what[32];
            snprintf(what, sizeof what, "random%d", k);
            run_queries(m, RADII[ri], 40, 1000 * (uint64_t)ri + (uint64_t)k, &st, what);
            tn_map_destroy(m);
        }
        print_stats("random", RADII[ri], &st);
        total += st.queries;
    }
    assert_true(total >= 1400);
}

static void test_movingai(void **state)
{
    (void)state;
    const char *names[2] = {"arena.map", "den312d.map"};
    int total = 0;
    for (int i = 0; i < 2; i++) {
        tn_map *m = load_movingai(names[i]);
        if (!m) {
            printf("SKIP: %s%s is absent: Moving AI clearance tests not run\n", MOVINGAI_DIR,
                   names[i]);
            return;
        }
        for (int ri = 0; ri < 3; ri++) {
            stats st = {0, 0, 0, 0, 0, 0, INFINITY};
            run_queries(m, RADII[ri], 110, 77 + (uint64_t)ri, &st, names[i]);
            print_stats(names[i], RADII[ri], &st);
            total += st.queries;
        }
        tn_map_destroy(m);
    }
    assert_true(total >= 600);
}

/* tn_navmesh_nearest_clear's answer, rounded to float, is a start
 * tn_navquery_find_path accepts (the reviewer's concave corner at the right
 * edge gave clearance 0.29999924 for radius 0.3), over a sweep of points. */
static void test_nearest_clear_after_rounding(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(35, 23, NULL, &m, NULL)));
    tn_map_set_tile(m, 34, 10, TN_TILE_BLOCK, NULL);
    tn_navmesh *nm = build(m);
    tn_navquery *q = NULL;
    assert_true(tn_succeeded(tn_navquery_create(nm, NULL, &q, NULL)));
    float xy[256];
    int n = 0, tried = 0;
    for (int i = 0; i < 4000; i++) {
        float px = (float)(i % 200) * 0.175f, py = 10.0f + (float)(i / 200) * 0.1f, x, y;
        if (!tn_navmesh_nearest_clear(nm, px, py, 0.3f, &x, &y)) continue;
        tried++;
        assert_true(tn_navmesh_clearance(nm, x, y, 2.0f) >= 0.3f);
        tn_error e;
        tn_status s = tn_navquery_find_path(q, x, y, 4.0f, 4.0f, 0.3f, xy, 128, &n, &e);
        if (tn_failed(s)) fail_msg("(%g,%g) -> (%.9g,%.9g): %s", px, py, x, y, e.msg);
    }
    assert_int_equal(tried, 4000);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* tn_navmesh_nearest_clear against a brute force over its documented
 * candidates (per free tile the point clamped into the tile shrunk by
 * min(r, 1/2)), with clearance by clear_oracle.h: the answer is clear and
 * no farther than the nearest clear candidate.  A candidate with exactly
 * the radius counts (r = 1/2 beside a wall): the reviewer's point in a
 * walled 2x2 room was sent 6 tiles away into another region. */
static void check_nearest_clear(const tn_map *m, const tn_navmesh *nm, double px, double py,
                                double r, double u)
{
    const double mg = r < 0.5 ? r : 0.5;
    double best = INFINITY;
    for (int ty = 0; ty < m->h; ty++)
        for (int tx = 0; tx < m->w; tx++) {
            if (or_blocked(m, tx, ty)) continue;
            double cx = fmin(fmax(px, tx + mg), tx + 1 - mg);
            double cy = fmin(fmax(py, ty + mg), ty + 1 - mg);
            if (or_seg_clearance(m, cx, cy, cx, cy, r) < r - 1e-9) continue;
            best = fmin(best, hypot(cx - px, cy - py));
        }
    float ox, oy;
    bool ok =
        tn_navmesh_nearest_clear(nm, (float)(px * u), (float)(py * u), (float)(r * u), &ox, &oy);
    if (!ok) {
        if (best < INFINITY) fail_msg("(%g,%g) r %g: none, a candidate %g away", px, py, r, best);
        return;
    }
    const double x = ox / u, y = oy / u;
    if (or_seg_clearance(m, x, y, x, y, r) < r - 1e-6)
        fail_msg("(%g,%g) r %g: (%g,%g) is not clear", px, py, r, x, y);
    if (hypot(x - px, y - py) > best + 1e-4)
        fail_msg("(%g,%g) r %g: (%g,%g) is %g away, a clear candidate %g", px, py, r, x, y,
                 hypot(x - px, y - py), best);
}

static void test_nearest_clear_is_nearest(void **state)
{
    (void)state;
    tn_map *room = map_rows(10, 6,
                            ".........."
                            ".####....."
                            ".#..#....."
                            ".#..#..##."
                            ".####..##."
                            "..........");
    const double units[2] = {1.0, 16.0};
    for (int k = 0; k < 2; k++) {
        tn_error err;
        tn_navmesh *nm = NULL;
        tn_navmesh_config cfg = tn_navmesh_default_config();
        cfg.tile_size = (float)units[k];
        assert_true(tn_succeeded(tn_navmesh_create(room->w, room->h, &cfg, NULL, &nm, &err)));
        assert_true(tn_succeeded(tn_navmesh_build(nm, room, &err)));
        check_nearest_clear(room, nm, 0.1, 0.1, 0.5, units[k]);
        check_nearest_clear(room, nm, 0.2, 3.0, 0.5, units[k]);
        check_nearest_clear(room, nm, 2.125, 2.125, 0.5, units[k]);
        tn_navmesh_destroy(nm);
    }
    tn_map_destroy(room);

    tn_rng rng;
    tn_rng_seed(&rng, 45, 3);
    const double radii[5] = {0.25, 0.45, 0.5, 0.75, 1.0};
    for (int i = 0; i < 12; i++) {
        tn_map *m = random_blocks(16, 12, 14, 3, 4500 + (uint64_t)i);
        tn_navmesh *nm = build(m);
        for (int q = 0; q < 60; q++) {
            double px = tn_rng_below(&rng, 8 * 16) / 8.0, py = tn_rng_below(&rng, 8 * 12) / 8.0;
            check_nearest_clear(m, nm, px, py, radii[q % 5], 1.0);
        }
        tn_navmesh_destroy(nm);
        tn_map_destroy(m);
    }
}

/* A radius far beyond the map (1e10 tiles) is refused as one too large for
 * the map (any radius over half its narrower side): it overflowed the int tile range of the clearance
 * check, which then visited no tile, so the path went through the walls. */
static void test_huge_radius_refused(void **state)
{
    (void)state;
    tn_map *m = map_rows(8, 3,
                         "........"
                         ".######."
                         "........");
    tn_navmesh *nm = build(m);
    tn_navquery *q = NULL;
    assert_true(tn_succeeded(tn_navquery_create(nm, NULL, &q, NULL)));
    float xy[64], ox, oy;
    int n = 0;
    const float radii[4] = {2.0f, 1e10f, 1e30f, 3e38f};
    for (int i = 0; i < 4; i++) {
        tn_error e;
        tn_status s = tn_navquery_find_path(q, 0.5f, 0.5f, 4.0f, 2.5f, radii[i], xy, 32, &n, &e);
        if (!tn_failed(s)) fail_msg("radius %g: status %08x, %d points", radii[i], s, n);
        assert_true(tn_status_detail(s, TN_INVALID_PARAM));
        /* wider than the map's 3 rows: said so, not blamed on the start */
        if (!strstr(e.msg, "is too large for the 8x3 map: a disc of that radius"))
            fail_msg("radius %g: %s", radii[i], e.msg);
        assert_false(tn_navmesh_nearest_clear(nm, 0.5f, 0.5f, radii[i], &ox, &oy));
    }
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* tn_navquery_length is 0 after a radius-0 query (tn_navmesh.h), not the
 * length of the radius path before it. */
static void test_length_zero_after_point_query(void **state)
{
    (void)state;
    tn_map *m = map_rows(8, 3,
                         "........"
                         "...##..."
                         "........");
    tn_navmesh *nm = build(m);
    tn_navquery *q = NULL;
    assert_true(tn_succeeded(tn_navquery_create(nm, NULL, &q, NULL)));
    float xy[256];
    int n = 0;
    assert_int_equal(tn_navquery_find_path(q, 0.5f, 1.5f, 7.5f, 1.5f, 0.4f, xy, 128, &n, NULL),
                     TN_OK);
    assert_true(tn_navquery_length(q) > 7.0);
    assert_int_equal(tn_navquery_find_path(q, 0.5f, 1.5f, 7.5f, 1.5f, 0.0f, xy, 128, &n, NULL),
                     TN_OK);
    assert_true(tn_navquery_length(q) == 0.0);
    assert_int_equal(tn_navquery_find_path(q, 0.5f, 1.5f, 7.5f, 1.5f, 0.4f, xy, 128, &n, NULL),
                     TN_OK);
    assert_int_equal(tn_navquery_find_path(q, 2.5f, 1.5f, 2.5f, 1.5f, 0.0f, xy, 128, &n, NULL),
                     TN_OK);
    assert_true(tn_navquery_length(q) == 0.0);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pillar),
        cmocka_unit_test(test_random_maps),
        cmocka_unit_test(test_movingai),
        cmocka_unit_test(test_nearest_clear_after_rounding),
        cmocka_unit_test(test_nearest_clear_is_nearest),
        cmocka_unit_test(test_huge_radius_refused),
        cmocka_unit_test(test_length_zero_after_point_query),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
