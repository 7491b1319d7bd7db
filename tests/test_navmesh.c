/* Tests for tn_navmesh: outlines, triangles, regions, location, A* + funnel,
 * agent radius, line of sight, nearest free point, and the Moving AI
 * validation (every scenario query: a valid path no longer than the 8-connected
 * optimum and no shorter than the straight line), with a visibility-graph
 * any-angle optimum as the reference on the small maps.  The sandbox's
 * navmesh part (tn_wnav) is tested in test_wnav.c.
 *
 * Paths are checked EXACTLY against the tile grid: with radius 0 every path
 * point is a tile corner or a tile centre, so doubling the coordinates gives
 * integers and every test below is integer arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_navmesh.h"
#include "tu_nav.h"
#include "tn_rng.h"
#include "tn_scen.h"

#define MOVINGAI_DIR "../shared/data/movingai/"

/* ---------------------------------------------------------------------- */
/* Helpers */

/* A map file of the tree; fails the test when it cannot be read. */
static tn_map *load_map(const char *path)
{
    tn_map *m = tu_map_file(path);
    if (!m) fail_msg("cannot read %s", path);
    return m;
}

/* A map from rows of '.', '#', '='. */
static tn_map *map_rows(int w, int h, const char *rows)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    assert_non_null(m);
    assert_int_equal((int)strlen(rows), w * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char c = rows[y * w + x];
            tn_map_set_tile(m, x, y,
                            c == '#'   ? TN_TILE_BLOCK
                            : c == '=' ? TN_TILE_ONEWAY
                                       : TN_TILE_EMPTY,
                            NULL);
        }
    return m;
}

static tn_map *random_map(int w, int h, int percent, uint64_t seed)
{
    tn_rng r;
    tn_rng_seed(&r, seed, 7);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if ((int)tn_rng_below(&r, 100) < percent) tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
    return m;
}

static bool is_free(const tn_map *m, int x, int y) { return tn_map_tile(m, x, y) != TN_TILE_BLOCK; }

static tn_navmesh *build(const tn_map *map)
{
    tn_error err;
    tn_navmesh *nm = NULL;
    tn_navmesh_create(map->w, map->h, NULL, NULL, &nm, &err);
    if (!nm) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(nm);
    tn_status s = tn_navmesh_build(nm, map, &err);
    if (tn_failed(s)) fprintf(stderr, "%s\n", err.msg);
    assert_true(tn_succeeded(s));
    return nm;
}

static double path_len(const float *xy, int n);

/* ---------------------------------------------------------------------- */
/* Naive references for the outlines and the triangles */

/* Unit outline edges: horizontal edge (x, y)-(x+1, y) and vertical (x, y)-(x, y+1). */
static bool h_edge(const tn_map *m, int x, int y)
{
    return is_free(m, x, y - 1) != is_free(m, x, y);
}
static bool v_edge(const tn_map *m, int x, int y)
{
    return is_free(m, x - 1, y) != is_free(m, x, y);
}

static bool naive_vertex(const tn_map *m, int x, int y)
{
    /* the map's four corners are always vertices (the mesh covers the map) */
    if ((x == 0 || x == m->w) && (y == 0 || y == m->h)) return true;
    bool h = h_edge(m, x - 1, y) || h_edge(m, x, y);
    bool v = v_edge(m, x, y - 1) || v_edge(m, x, y);
    return h && v;
}

/* Outline edges are outside the map only if both tiles are: never. */
static void check_outlines(const tn_map *m, const tn_navmesh_view *v)
{
    int W = m->w, H = m->h;
    int *vid = malloc(sizeof(int) * (size_t)(W + 1) * (size_t)(H + 1));
    int *hcov = calloc((size_t)(W + 1) * (size_t)(H + 1), sizeof(int));
    int *vcov = calloc((size_t)(W + 1) * (size_t)(H + 1), sizeof(int));
    for (int i = 0; i < (W + 1) * (H + 1); i++) vid[i] = -1;
    for (int p = 0; p < v->npoints; p++) {
        int x = v->xy[2 * p], y = v->xy[2 * p + 1];
        assert_true(x >= 0 && x <= W && y >= 0 && y <= H);
        assert_int_equal(vid[y * (W + 1) + x], -1); /* unique */
        vid[y * (W + 1) + x] = p;
        assert_true(naive_vertex(m, x, y));
    }
    for (int y = 0; y <= H; y++)
        for (int x = 0; x <= W; x++)
            if (naive_vertex(m, x, y) && v->npoints > 0) /* (no free tile: empty) */
                assert_true(vid[y * (W + 1) + x] >= 0);
    for (int s = 0; s < v->nsegments; s++) {
        int a = v->segs[2 * s], b = v->segs[2 * s + 1];
        int ax = v->xy[2 * a], ay = v->xy[2 * a + 1], bx = v->xy[2 * b], by = v->xy[2 * b + 1];
        assert_true(ax == bx || ay == by);
        assert_false(ax == bx && ay == by);
        if (ay == by) {
            int x0 = ax < bx ? ax : bx, x1 = ax < bx ? bx : ax;
            for (int x = x0; x < x1; x++) {
                assert_true(h_edge(m, x, ay));
                hcov[ay * (W + 1) + x]++;
                /* no vertex strictly inside: no T-junction */
                if (x > x0) assert_int_equal(vid[ay * (W + 1) + x], -1);
            }
        } else {
            int y0 = ay < by ? ay : by, y1 = ay < by ? by : ay;
            for (int y = y0; y < y1; y++) {
                assert_true(v_edge(m, ax, y));
                vcov[y * (W + 1) + ax]++;
                if (y > y0) assert_int_equal(vid[y * (W + 1) + ax], -1);
            }
        }
    }
    /* every outline unit edge covered exactly once */
    for (int y = 0; y <= H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(hcov[y * (W + 1) + x], h_edge(m, x, y) ? 1 : 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x <= W; x++)
            assert_int_equal(vcov[y * (W + 1) + x], v_edge(m, x, y) ? 1 : 0);
    free(vid);
    free(hcov);
    free(vcov);
}

static int64_t area2(const tn_navmesh_view *v, int t)
{
    const int32_t *p = v->xy;
    int a = v->tri[3 * t], b = v->tri[3 * t + 1], c = v->tri[3 * t + 2];
    return (int64_t)(p[2 * b] - p[2 * a]) * (p[2 * c + 1] - p[2 * a + 1]) -
           (int64_t)(p[2 * b + 1] - p[2 * a + 1]) * (p[2 * c] - p[2 * a]);
}

/* 4-connected components of free tiles: the reference regions. */
static int tile_components(const tn_map *m, int *comp)
{
    int W = m->w, H = m->h, n = 0;
    int *stack = malloc(sizeof(int) * (size_t)W * (size_t)H);
    for (int i = 0; i < W * H; i++) comp[i] = -1;
    for (int i = 0; i < W * H; i++) {
        if (!is_free(m, i % W, i / W) || comp[i] >= 0) continue;
        int sp = 0;
        stack[sp++] = i;
        comp[i] = n;
        while (sp) {
            int c = stack[--sp], x = c % W, y = c / W;
            static const int D[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            for (int k = 0; k < 4; k++) {
                int nx = x + D[k][0], ny = y + D[k][1];
                if (!is_free(m, nx, ny) || comp[ny * W + nx] >= 0) continue;
                comp[ny * W + nx] = n;
                stack[sp++] = ny * W + nx;
            }
        }
        n++;
    }
    free(stack);
    return n;
}

static void check_triangles(const tn_map *m, const tn_navmesh_view *v)
{
    int64_t free_area2 = 0;
    int nfree = 0, freetiles = 0;
    for (int i = 0; i < m->w * m->h; i++) freetiles += m->tile[i] != TN_TILE_BLOCK;
    int *comp = malloc(sizeof(int) * (size_t)m->w * (size_t)m->h);
    int ncomp = tile_components(m, comp);
    int *map_reg = malloc(sizeof(int) * (size_t)(ncomp + 1));
    for (int i = 0; i <= ncomp; i++) map_reg[i] = -1;
    for (int t = 0; t < v->ntris; t++) {
        int64_t a2 = area2(v, t);
        assert_true(a2 > 0);
        for (int i = 0; i < 3; i++) {
            int n = v->adj[3 * t + i];
            if (n < 0) continue;
            /* adjacency is symmetric and shares the edge */
            int a = v->tri[3 * t + i], b = v->tri[3 * t + (i + 1) % 3];
            int found = 0;
            for (int j = 0; j < 3; j++)
                if (v->adj[3 * n + j] == t) {
                    found = 1;
                    assert_int_equal(v->tri[3 * n + j], b);
                    assert_int_equal(v->tri[3 * n + (j + 1) % 3], a);
                }
            assert_true(found);
        }
        /* sample the centroid (3x scaled) and check its tile */
        const int32_t *p = v->xy;
        int a = v->tri[3 * t], b = v->tri[3 * t + 1], c = v->tri[3 * t + 2];
        int sx = p[2 * a] + p[2 * b] + p[2 * c], sy = p[2 * a + 1] + p[2 * b + 1] + p[2 * c + 1];
        int tx = sx / 3, ty = sy / 3;
        bool f = is_free(m, tx, ty);
        assert_int_equal(v->region[t] >= 0, f);
        if (f) {
            free_area2 += a2;
            nfree++;
            /* a region is one tile component, and vice versa */
            int cc = comp[ty * m->w + tx];
            if (map_reg[cc] < 0) map_reg[cc] = v->region[t];
            assert_int_equal(map_reg[cc], v->region[t]);
        }
    }
    assert_int_equal(nfree, v->nfree);
    /* region ids are 0..nregions-1, one per tile component */
    for (int i = 0; i < ncomp; i++) {
        assert_true(map_reg[i] >= 0 && map_reg[i] < v->nregions);
        for (int j = 0; j < i; j++) assert_true(map_reg[j] != map_reg[i]);
    }
    /* the free triangles tile the free space exactly */
    assert_true(free_area2 == 2 * (int64_t)freetiles);
    assert_int_equal(v->nregions, ncomp);
    free(comp);
    free(map_reg);
}

/* ---------------------------------------------------------------------- */
/* Exact path checks (coordinates doubled: tile corners are even) */

typedef struct frac {
    int64_t n, d; /* d > 0 */
} frac;

static frac mkfrac(int64_t n, int64_t d)
{
    frac f = {d < 0 ? -n : n, d < 0 ? -d : d};
    return f;
}
static int fcmp(frac a, frac b)
{
    int64_t l = a.n * b.d, r = b.n * a.d;
    return (l > r) - (l < r);
}

/* Does the closed segment P-Q meet the open square of tile (i, j)? */
static bool seg_meets_cell(int64_t px, int64_t py, int64_t qx, int64_t qy, int i, int j)
{
    frac lo = mkfrac(0, 1), hi = mkfrac(1, 1);
    bool lo_open = false, hi_open = false;
    int64_t P[2] = {px, py}, D[2] = {qx - px, qy - py}, C0[2] = {2 * i, 2 * j};
    for (int k = 0; k < 2; k++) {
        if (D[k] == 0) {
            if (!(P[k] > C0[k] && P[k] < C0[k] + 2)) return false;
            continue;
        }
        frac t1 = mkfrac(C0[k] - P[k], D[k]), t2 = mkfrac(C0[k] + 2 - P[k], D[k]);
        if (fcmp(t1, t2) > 0) {
            frac tmp = t1;
            t1 = t2;
            t2 = tmp;
        }
        if (fcmp(t1, lo) >= 0) {
            lo = t1;
            lo_open = true;
        }
        if (fcmp(t2, hi) <= 0) {
            hi = t2;
            hi_open = true;
        }
    }
    int c = fcmp(lo, hi);
    return c < 0 || (c == 0 && !lo_open && !hi_open);
}

static int quadrant_ok(int64_t dx, int64_t dy, int q)
{
    /* q: 0 NW, 1 NE, 2 SW, 3 SE (y down) */
    switch (q) {
    case 0: return dx <= 0 && dy <= 0;
    case 1: return dx >= 0 && dy <= 0;
    case 2: return dx <= 0 && dy >= 0;
    default: return dx >= 0 && dy >= 0;
    }
}

/* Free quadrants of a pinch corner (X, Y even), or 0 when it is no pinch:
 * bit q set for each free quadrant. */
static int pinch_quadrants(const tn_map *m, int64_t X, int64_t Y)
{
    int i = (int)(X / 2), j = (int)(Y / 2);
    bool nw = is_free(m, i - 1, j - 1), ne = is_free(m, i, j - 1);
    bool sw = is_free(m, i - 1, j), se = is_free(m, i, j);
    if (nw && se && !ne && !sw) return 1 | 8;
    if (ne && sw && !nw && !se) return 2 | 4;
    return 0;
}

static bool pinch_pass_ok(const tn_map *m, int64_t X, int64_t Y, int64_t ax, int64_t ay, int64_t bx,
                          int64_t by)
{
    int qm = pinch_quadrants(m, X, Y);
    if (!qm) return true;
    for (int q = 0; q < 4; q++)
        if ((qm >> q & 1) && quadrant_ok(ax - X, ay - Y, q) && quadrant_ok(bx - X, by - Y, q))
            return true;
    return false;
}

/* Exact validity of one segment (doubled coordinates) in free space. */
static bool seg_valid(const tn_map *m, int64_t px, int64_t py, int64_t qx, int64_t qy)
{
    if (px == qx && py == qy) return px >= 0 && py >= 0 && px <= 2 * m->w && py <= 2 * m->h;
    int64_t y0 = py < qy ? py : qy, y1 = py < qy ? qy : py;
    int jlo = (int)(y0 / 2) - 1, jhi = (int)(y1 / 2) + 1;
    for (int j = jlo; j <= jhi; j++) {
        /* x range of the line within rows [2j, 2j+2], conservatively */
        double xa, xb;
        if (qy == py) {
            xa = (double)(px < qx ? px : qx);
            xb = (double)(px < qx ? qx : px);
        } else {
            double ya = fmax((double)y0, 2.0 * j), yb = fmin((double)y1, 2.0 * j + 2);
            if (ya > yb) continue;
            double k = (double)(qx - px) / (double)(qy - py);
            xa = px + (ya - py) * k;
            xb = px + (yb - py) * k;
            if (xa > xb) {
                double t = xa;
                xa = xb;
                xb = t;
            }
        }
        int ilo = (int)floor(xa / 2) - 1, ihi = (int)floor(xb / 2) + 1;
        for (int i = ilo; i <= ihi; i++)
            if (seg_meets_cell(px, py, qx, qy, i, j) && !is_free(m, i, j)) return false;
    }
    /* along a grid line: every unit piece needs a free tile on one side */
    if (px == qx && px % 2 == 0) {
        for (int64_t y = (y0 / 2) * 2; y < y1; y += 2) {
            int j = (int)(y / 2);
            if (2 * j + 2 <= y0 || 2 * j >= y1) continue;
            if (!is_free(m, (int)(px / 2) - 1, j) && !is_free(m, (int)(px / 2), j)) return false;
        }
    }
    if (py == qy && py % 2 == 0) {
        int64_t x0 = px < qx ? px : qx, x1 = px < qx ? qx : px;
        for (int64_t x = (x0 / 2) * 2; x < x1; x += 2) {
            int i = (int)(x / 2);
            if (2 * i + 2 <= x0 || 2 * i >= x1) continue;
            if (!is_free(m, i, (int)(py / 2) - 1) && !is_free(m, i, (int)(py / 2))) return false;
        }
    }
    /* corners strictly inside the segment must not be pinches */
    int64_t dx = qx - px, dy = qy - py;
    int64_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    if (adx >= ady) {
        int64_t xs = px < qx ? px : qx, xe = px < qx ? qx : px;
        for (int64_t X = (xs / 2) * 2; X <= xe; X += 2) {
            if (X <= xs || X >= xe) continue;
            int64_t num = py * dx + (X - px) * dy; /* Y * dx */
            if (num % dx) continue;
            int64_t Y = num / dx;
            if (Y % 2) continue;
            if (pinch_quadrants(m, X, Y)) return false;
        }
    } else {
        int64_t ys = py < qy ? py : qy, ye = py < qy ? qy : py;
        for (int64_t Y = (ys / 2) * 2; Y <= ye; Y += 2) {
            if (Y <= ys || Y >= ye) continue;
            int64_t num = px * dy + (Y - py) * dx;
            if (num % dy) continue;
            int64_t X = num / dy;
            if (X % 2) continue;
            if (pinch_quadrants(m, X, Y)) return false;
        }
    }
    return true;
}

/* Check a whole path (tile units, radius 0): valid, and return its length. */
static double check_path(const tn_map *m, const float *xy, int n, const char *what)
{
    int64_t *P = malloc(sizeof(int64_t) * 2 * (size_t)n);
    for (int i = 0; i < 2 * n; i++) {
        double d = 2.0 * xy[i];
        if (d != floor(d)) {
            fprintf(stderr, "%s: path point %d is not on the half grid (%g)\n", what, i / 2, xy[i]);
            fail();
        }
        P[i] = (int64_t)d;
    }
    double len = 0;
    for (int i = 0; i + 1 < n; i++) {
        if (!seg_valid(m, P[2 * i], P[2 * i + 1], P[2 * i + 2], P[2 * i + 3])) {
            fprintf(stderr, "%s: segment %d (%g,%g)-(%g,%g) crosses a block\n", what, i, xy[2 * i],
                    xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3]);
            fail();
        }
        len += hypot((double)xy[2 * i + 2] - xy[2 * i], (double)xy[2 * i + 3] - xy[2 * i + 1]);
    }
    for (int i = 1; i + 1 < n; i++) {
        if (P[2 * i] % 2 || P[2 * i + 1] % 2) continue;
        if (!pinch_pass_ok(m, P[2 * i], P[2 * i + 1], P[2 * i - 2], P[2 * i - 1], P[2 * i + 2],
                           P[2 * i + 3])) {
            fprintf(stderr, "%s: path turns through a pinch at (%g,%g)\n", what, xy[2 * i],
                    xy[2 * i + 1]);
            fail();
        }
    }
    /* every point between two others turns: none lies straight on (a
     * corner on the line of the two before it, as along a wall) */
    for (int i = 1; i + 1 < n; i++) {
        int64_t ux = P[2 * i] - P[2 * i - 2], uy = P[2 * i + 1] - P[2 * i - 1];
        int64_t vx = P[2 * i + 2] - P[2 * i], vy = P[2 * i + 3] - P[2 * i + 1];
        if (ux * vy - uy * vx == 0 && ux * vx + uy * vy > 0) {
            fprintf(stderr, "%s: path point %d (%g,%g) lies straight on between its neighbours\n",
                    what, i, xy[2 * i], xy[2 * i + 1]);
            fail();
        }
    }
    free(P);
    return len;
}

/* 8-connected optimal length without corner cutting (Dijkstra with a lazy
 * binary heap), -1 if none. */
typedef struct hent {
    double d;
    int v;
} hent;

static void hpush(hent *h, int *n, double d, int v)
{
    int i = (*n)++;
    while (i > 0 && h[(i - 1) / 2].d > d) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i].d = d;
    h[i].v = v;
}

static hent hpop(hent *h, int *n)
{
    hent top = h[0], x = h[--*n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1].d < h[c].d) c++;
        if (h[c].d >= x.d) break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0) h[i] = x;
    return top;
}

/* The oracle of an unreachable goal's partial answer (radius 0): the
 * distance from (gx, gy) (tile units) to the free space reachable from
 * tile (sx, sy), i.e. to the nearest tile square of its 4-connected free
 * component (free space is the union of free tiles; the navmesh's regions
 * are these components). */
static double region_gap(const tn_map *m, int sx, int sy, double gx, double gy)
{
    int W = m->w, H = m->h;
    int *stack = malloc(sizeof(int) * (size_t)W * (size_t)H);
    char *seen = calloc((size_t)W * (size_t)H, 1);
    int n = 0;
    stack[n++] = sy * W + sx;
    seen[sy * W + sx] = 1;
    double best = INFINITY;
    while (n > 0) {
        int u = stack[--n], x = u % W, y = u / W;
        double dx = gx < x ? x - gx : gx > x + 1 ? gx - (x + 1) : 0;
        double dy = gy < y ? y - gy : gy > y + 1 ? gy - (y + 1) : 0;
        best = fmin(best, hypot(dx, dy));
        const int DX[4] = {1, -1, 0, 0}, DY[4] = {0, 0, 1, -1};
        for (int k = 0; k < 4; k++) {
            int nx = x + DX[k], ny = y + DY[k];
            if (nx < 0 || ny < 0 || nx >= W || ny >= H || seen[ny * W + nx] || !is_free(m, nx, ny))
                continue;
            seen[ny * W + nx] = 1;
            stack[n++] = ny * W + nx;
        }
    }
    free(stack);
    free(seen);
    return best;
}

/* An unreachable goal's partial path (radius 0, tile units): the status
 * says so, the path is valid and starts at the start, and it ends at the
 * free space's closest point to the goal (region_gap). */
static void check_partial(const tn_map *m, tn_status s, const float *xy, int n, double sx,
                          double sy, double gx, double gy)
{
    assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
    assert_true(n >= 2);
    assert_true(xy[0] == (float)sx && xy[1] == (float)sy);
    check_path(m, xy, n, "partial");
    double gap = hypot(xy[2 * n - 2] - gx, xy[2 * n - 1] - gy);
    double want = region_gap(m, (int)floor(sx), (int)floor(sy), gx, gy);
    if (fabs(gap - want) > 1e-5)
        fail_msg("(%g,%g)-(%g,%g): the path ends %.6f from the goal, the closest free place is "
                 "%.6f from it",
                 sx, sy, gx, gy, gap, want);
}

static double octile_dijkstra(const tn_map *m, int sx, int sy, int gx, int gy)
{
    int W = m->w, H = m->h, N = W * H;
    double *d = malloc(sizeof(double) * (size_t)N);
    char *done = calloc((size_t)N, 1);
    hent *heap = malloc(sizeof(hent) * (size_t)N * 9);
    int nh = 0;
    for (int i = 0; i < N; i++) d[i] = INFINITY;
    d[sy * W + sx] = 0;
    hpush(heap, &nh, 0, sy * W + sx);
    while (nh > 0) {
        hent e = hpop(heap, &nh);
        int u = e.v;
        if (done[u]) continue;
        done[u] = 1;
        if (u == gy * W + gx) break;
        int x = u % W, y = u / W;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!dx && !dy) continue;
                int nx = x + dx, ny = y + dy;
                if (!is_free(m, nx, ny)) continue;
                if (dx && dy && (!is_free(m, x + dx, y) || !is_free(m, x, y + dy))) continue;
                double c = dx && dy ? 1.4142135623730951 : 1.0;
                if (d[u] + c < d[ny * W + nx]) {
                    d[ny * W + nx] = d[u] + c;
                    hpush(heap, &nh, d[u] + c, ny * W + nx);
                }
            }
    }
    double r = d[gy * W + gx];
    free(heap);
    free(d);
    free(done);
    return r == INFINITY ? -1 : r;
}

/* ---------------------------------------------------------------------- */
/* Visibility-graph reference: the exact any-angle optimum.  Nodes are the
 * convex corners (one blocked tile of four) and, per free quadrant, the
 * pinch corners; a node on a pinch may only be left and entered within its
 * quadrant. */

typedef struct vgraph {
    int n;
    int64_t *X, *Y; /* doubled coordinates */
    int *quad;      /* -1: any direction, else the allowed quadrant */
    double *w;      /* n*n edge lengths, INFINITY if not visible */
} vgraph;

static bool vnode_dir_ok(const vgraph *g, int a, int64_t tx, int64_t ty)
{
    return g->quad[a] < 0 || quadrant_ok(tx - g->X[a], ty - g->Y[a], g->quad[a]);
}

static void vgraph_build(vgraph *g, const tn_map *m)
{
    int cap = (m->w + 1) * (m->h + 1) * 2;
    g->X = malloc(sizeof(int64_t) * (size_t)cap);
    g->Y = malloc(sizeof(int64_t) * (size_t)cap);
    g->quad = malloc(sizeof(int) * (size_t)cap);
    g->n = 0;
    for (int y = 0; y <= m->h; y++)
        for (int x = 0; x <= m->w; x++) {
            int nb = !is_free(m, x - 1, y - 1) + !is_free(m, x, y - 1) + !is_free(m, x - 1, y) +
                     !is_free(m, x, y);
            int pq = pinch_quadrants(m, 2 * x, 2 * y);
            if (nb == 1) {
                g->X[g->n] = 2 * x;
                g->Y[g->n] = 2 * y;
                g->quad[g->n++] = -1;
            } else if (pq) {
                for (int q = 0; q < 4; q++)
                    if (pq >> q & 1) {
                        g->X[g->n] = 2 * x;
                        g->Y[g->n] = 2 * y;
                        g->quad[g->n++] = q;
                    }
            }
        }
    int n = g->n;
    g->w = malloc(sizeof(double) * (size_t)n * (size_t)n);
    for (int a = 0; a < n; a++) {
        g->w[a * n + a] = INFINITY;
        for (int b = a + 1; b < n; b++) {
            double d = INFINITY;
            if (vnode_dir_ok(g, a, g->X[b], g->Y[b]) && vnode_dir_ok(g, b, g->X[a], g->Y[a]) &&
                (g->X[a] != g->X[b] || g->Y[a] != g->Y[b]) &&
                seg_valid(m, g->X[a], g->Y[a], g->X[b], g->Y[b]))
                d = 0.5 * hypot((double)(g->X[a] - g->X[b]), (double)(g->Y[a] - g->Y[b]));
            g->w[a * n + b] = g->w[b * n + a] = d;
        }
    }
}

static void vgraph_free(vgraph *g)
{
    free(g->X);
    free(g->Y);
    free(g->quad);
    free(g->w);
}

/* Shortest any-angle length between two points given doubled. */
static double vgraph_query2(const vgraph *g, const tn_map *m, int64_t SX, int64_t SY, int64_t GX,
                            int64_t GY)
{
    if (seg_valid(m, SX, SY, GX, GY)) return 0.5 * hypot((double)(SX - GX), (double)(SY - GY));
    int n = g->n;
    double *d = malloc(sizeof(double) * (size_t)n), *tog = malloc(sizeof(double) * (size_t)n);
    char *done = calloc((size_t)n, 1);
    for (int a = 0; a < n; a++) {
        d[a] = vnode_dir_ok(g, a, SX, SY) && seg_valid(m, SX, SY, g->X[a], g->Y[a])
                   ? 0.5 * hypot((double)(SX - g->X[a]), (double)(SY - g->Y[a]))
                   : INFINITY;
        tog[a] = vnode_dir_ok(g, a, GX, GY) && seg_valid(m, g->X[a], g->Y[a], GX, GY)
                     ? 0.5 * hypot((double)(GX - g->X[a]), (double)(GY - g->Y[a]))
                     : INFINITY;
    }
    double best = INFINITY;
    for (;;) {
        int u = -1;
        for (int a = 0; a < n; a++)
            if (!done[a] && d[a] < INFINITY && (u < 0 || d[a] < d[u])) u = a;
        if (u < 0 || d[u] >= best) break;
        done[u] = 1;
        if (d[u] + tog[u] < best) best = d[u] + tog[u];
        for (int b = 0; b < n; b++)
            if (!done[b] && d[u] + g->w[u * n + b] < d[b]) d[b] = d[u] + g->w[u * n + b];
    }
    free(d);
    free(tog);
    free(done);
    return best;
}

/* Between two tile centres. */
static double vgraph_query(const vgraph *g, const tn_map *m, int sx, int sy, int gx, int gy)
{
    return vgraph_query2(g, m, 2 * sx + 1, 2 * sy + 1, 2 * gx + 1, 2 * gy + 1);
}

/* ---------------------------------------------------------------------- */
/* Tests: outlines, triangles, regions */

static void test_outlines_handmade(void **state)
{
    (void)state;
    struct {
        int w, h;
        const char *rows;
        int points, segments, regions;
    } cases[] = {
        /* open room: the map border only */
        {3, 3, ".........", 4, 4, 1},
        /* one block in the middle: border + a square */
        {5, 5, "............#............", 8, 8, 1},
        /* a block touching the top border splits it at x = 2 and 3 */
        {5, 3, "..#............", 8, 8, 1},
        /* a wall row with a block hanging below: the wall's outline at y = 1
         * is split where the block's sides touch it (no T-junction) */
        {5, 3,
         "#####"
         "..#.."
         ".....",
         10, 8, 1}, /* + the two blocked map corners */
        /* a pinch: two blocks touching at a corner, which joins 4 segments */
        {4, 4, ".....#....#.....", 11, 12, 1},
        /* diagonal free tiles only: two regions */
        {2, 2, ".##.", 9, 8, 2}, /* + the two blocked map corners */
        /* one-way platforms are free */
        {4, 2, ".==.....", 4, 4, 1},
        /* everything blocked: no mesh */
        {2, 2, "####", 0, 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tn_map *m = map_rows(cases[k].w, cases[k].h, cases[k].rows);
        tn_navmesh *nm = build(m);
        tn_navmesh_view v;
        tn_navmesh_get_view(nm, &v);
        if (v.npoints != cases[k].points || v.nsegments != cases[k].segments ||
            v.nregions != cases[k].regions)
            fprintf(stderr, "case %zu: %d points %d segments %d regions\n", k, v.npoints,
                    v.nsegments, v.nregions);
        assert_int_equal(v.npoints, cases[k].points);
        assert_int_equal(v.nsegments, cases[k].segments);
        assert_int_equal(v.nregions, cases[k].regions);
        check_outlines(m, &v);
        if (v.ntris) check_triangles(m, &v);
        tn_navmesh_destroy(nm);
        tn_map_destroy(m);
    }
}

static void test_outlines_and_triangles_random(void **state)
{
    (void)state;
    for (int k = 0; k < 60; k++) {
        int w = 3 + k % 23, h = 2 + (k * 7) % 19;
        tn_map *m = random_map(w, h, (k * 13) % 60, 1000 + (uint64_t)k);
        tn_navmesh *nm = build(m);
        tn_navmesh_view v;
        tn_navmesh_get_view(nm, &v);
        check_outlines(m, &v);
        if (v.ntris) check_triangles(m, &v);
        /* a rebuild of the same map gives the same mesh */
        int nt = v.ntris, np = v.npoints;
        assert_true(tn_succeeded(tn_navmesh_build(nm, m, NULL)));
        tn_navmesh_get_view(nm, &v);
        assert_int_equal(v.ntris, nt);
        assert_int_equal(v.npoints, np);
        tn_navmesh_destroy(nm);
        tn_map_destroy(m);
    }
}

static void test_files_regions(void **state)
{
    (void)state;
    tn_map *m = load_map("tests/data/nav_rooms.map");
    tn_navmesh *nm = build(m);
    tn_navmesh_view v;
    tn_navmesh_get_view(nm, &v);
    check_outlines(m, &v);
    check_triangles(m, &v);
    assert_int_equal(v.nregions, 2); /* the closed room is its own region */
    assert_int_equal(tn_navmesh_region_at(nm, 14.5f, 5.5f) >= 0, true);
    assert_true(tn_navmesh_region_at(nm, 14.5f, 5.5f) != tn_navmesh_region_at(nm, 0.5f, 0.5f));
    assert_int_equal(tn_navmesh_region_at(nm, 4.5f, 0.5f), -1); /* a block */
    assert_int_equal(tn_navmesh_region_at(nm, 2.5f, 6.5f), tn_navmesh_region_at(nm, 0.5f, 0.5f));
    /* a smaller map rebuilds in the same mesh; a bigger one is refused */
    tn_map *small = map_rows(3, 2, "..#...");
    assert_true(tn_succeeded(tn_navmesh_build(nm, small, NULL)));
    tn_navmesh_get_view(nm, &v);
    check_triangles(small, &v);
    tn_map *big = NULL;
    assert_true(tn_succeeded(tn_map_create(30, 3, NULL, &big, NULL)));
    tn_error err;
    assert_true(tn_failed(tn_navmesh_build(nm, big, &err)));
    assert_non_null(strstr(err.msg, "larger"));
    /* the small map's mesh stays (test_refused_build_keeps_mesh) */
    assert_true(tn_navmesh_locate(nm, 0.5f, 0.5f, -1) >= 0);
    tn_map_destroy(big);
    tn_map_destroy(small);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* A map with no free tile builds an empty mesh, and a query says that
 * the map has no free tile (it said "never built, or its last build
 * failed", a library review found); an update that opens a tile makes a
 * mesh again. */
static void test_all_blocked_map(void **state)
{
    (void)state;
    tn_map *map = tu_map_text("tilenav-map 1\nsize 3 3\ntiles\n###\n###\n###\n");
    tn_navmesh *nm = NULL;
    assert_true(tn_succeeded(tn_navmesh_create(3, 3, NULL, NULL, &nm, NULL)));
    tn_error e;
    assert_true(tn_succeeded(tn_navmesh_build(nm, map, &e)));
    tn_navmesh_view v;
    tn_navmesh_get_view(nm, &v);
    assert_int_equal(v.ntris, 0);
    tn_navquery *q = NULL;
    assert_true(tn_succeeded(tn_navquery_create(nm, NULL, &q, NULL)));
    float xy[16];
    int n = 0;
    assert_true(tn_failed(tn_navquery_find_path(q, 1.5f, 1.5f, 2.5f, 2.5f, 0.0f, xy, 8, &n, &e)));
    if (!strstr(e.msg, "the 3x3 map has no free tile")) fail_msg("%s", e.msg);
    tn_map_set_tile(map, 1, 1, TN_TILE_EMPTY, NULL);
    assert_true(tn_succeeded(tn_navmesh_update_tile(nm, map, 1, 1, NULL)));
    tn_navmesh_get_view(nm, &v);
    assert_true(v.ntris > 0);
    assert_true(tn_failed(tn_navquery_find_path(q, 0.5f, 0.5f, 1.5f, 1.5f, 0.0f, xy, 8, &n, &e)));
    if (!strstr(e.msg, "start (0.5, 0.5) is not in free space (a block")) fail_msg("%s", e.msg);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(map);
}

/* A build refused for a map larger than the mesh leaves the mesh as it
 * was (it emptied it: every query then said "the navmesh is empty"). */
static void test_refused_build_keeps_mesh(void **state)
{
    (void)state;
    tn_map *map = tu_map_text("tilenav-map 1\nsize 8 4\ntiles\n"
                              "........\n..##....\n........\n########\n");
    tn_map *wide = tu_map_text("tilenav-map 1\nsize 9 4\ntiles\n"
                               ".........\n.........\n.........\n#########\n");
    tn_navmesh *m = NULL;
    assert_true(tn_succeeded(tn_navmesh_create(8, 4, NULL, NULL, &m, NULL)));
    assert_true(tn_succeeded(tn_navmesh_build(m, map, NULL)));
    tn_navmesh_view v;
    tn_navmesh_get_view(m, &v);
    const int tris = v.ntris;
    assert_true(tris > 0);
    tn_error e;
    assert_int_equal(tn_navmesh_build(m, wide, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(
        strstr(e.msg, "map 9x4 is larger than the navmesh's 8x4 (the mesh is unchanged)"));
    tn_navmesh_get_view(m, &v);
    assert_int_equal(v.ntris, tris);
    assert_true(tn_navmesh_locate(m, 0.5f, 0.5f, -1) >= 0);
    tn_navmesh_destroy(m);
    tn_map_destroy(wide);
    tn_map_destroy(map);
}

/* cfg NULL is the default config (now documented): the same memory, tile
 * size and mesh as tn_navmesh_default_config() given explicitly. */
static void test_create_null_config(void **state)
{
    (void)state;
    tn_map *map = tu_map_text("tilenav-map 1\nsize 8 4\ntiles\n"
                              "........\n..##....\n........\n########\n");
    tn_navmesh *a = NULL, *b = NULL;
    const tn_navmesh_config def = tn_navmesh_default_config();
    assert_int_equal(tn_navmesh_create(8, 4, NULL, NULL, &a, NULL), TN_OK);
    assert_int_equal(tn_navmesh_create(8, 4, &def, NULL, &b, NULL), TN_OK);
    assert_int_equal(tn_navmesh_memory(a), tn_navmesh_memory(b));
    assert_true(tn_succeeded(tn_navmesh_build(a, map, NULL)));
    assert_true(tn_succeeded(tn_navmesh_build(b, map, NULL)));
    tn_navmesh_view va, vb;
    tn_navmesh_get_view(a, &va);
    tn_navmesh_get_view(b, &vb);
    assert_true(va.tile_size == 1.0f && vb.tile_size == 1.0f);
    assert_int_equal(va.npoints, vb.npoints);
    assert_int_equal(va.ntris, vb.ntris);
    assert_memory_equal(va.tri, vb.tri, 3 * sizeof(int32_t) * (size_t)va.ntris);
    assert_int_equal(tn_navmesh_locate(a, 0.5f, 0.5f, -1), tn_navmesh_locate(b, 0.5f, 0.5f, -1));
    tn_navmesh_destroy(a);
    tn_navmesh_destroy(b);
    tn_map_destroy(map);
}

static void test_create_errors(void **state)
{
    (void)state;
    tn_error err;
    tn_navmesh *bad = (tn_navmesh *)&err; /* must become NULL */
    tn_status cs = tn_navmesh_create(0, 5, NULL, NULL, &bad, &err);
    assert_true(tn_failed(cs) && tn_status_detail(cs, TN_INVALID_PARAM));
    assert_null(bad);
    assert_non_null(strstr(err.msg, "outside"));
    tn_navmesh_config c = tn_navmesh_default_config();
    c.tile_size = -1;
    assert_true(tn_failed(tn_navmesh_create(5, 5, &c, NULL, &bad, &err)));
    assert_null(bad);
    c.tile_size = -NAN; /* said "tile_size -nan" */
    assert_true(tn_failed(tn_navmesh_create(5, 5, &c, NULL, &bad, &err)));
    assert_string_equal(err.msg, "navmesh: tile_size is not a number (NaN)");
    assert_true(tn_failed(tn_navmesh_create(5, 5, NULL, NULL, NULL, &err)));
    tn_navquery *badq = NULL;
    assert_true(tn_failed(tn_navquery_create(NULL, NULL, &badq, &err)));
    assert_null(badq);
    /* fewer than one free tile's square is refused at once */
    c = tn_navmesh_default_config();
    c.max_points = 3;
    assert_true(tn_failed(tn_navmesh_create(5, 5, &c, NULL, &bad, &err)));
    assert_non_null(strstr(err.msg, "outside 4..36"));
    c = tn_navmesh_default_config();
    c.max_segments = 2;
    assert_true(tn_failed(tn_navmesh_create(5, 5, &c, NULL, &bad, &err)));
    /* too small a capacity is reported at build */
    c = tn_navmesh_default_config();
    c.max_points = 4;
    tn_navmesh *nm = NULL;
    tn_navmesh_create(5, 5, &c, NULL, &nm, &err);
    assert_non_null(nm);
    tn_map *m = map_rows(5, 5, "............#............");
    tn_status s = tn_navmesh_build(nm, m, &err);
    assert_true(tn_failed(s) && tn_status_detail(s, TN_CAPACITY));
    /* the message says what this map needs (an adopter could not tell) */
    {
        tn_navmesh_config need = tn_navmesh_config_for_map(m, 0.0f);
        char want[96];
        snprintf(want, sizeof want, "no headroom: %d points, %d segments)", need.max_points,
                 need.max_segments);
        if (!strstr(err.msg, want)) fail_msg("%s", err.msg);
    }
    assert_false(tn_navmesh_los(nm, 0.5f, 0.5f, 1.5f, 0.5f));
    /* a path on the emptied mesh says so (it said the start was "not in
     * free space (a block, or outside the map)" for any start) */
    tn_navquery *q = NULL;
    assert_int_equal(tn_navquery_create(nm, NULL, &q, &err), TN_OK);
    float xy[8];
    int n = -1;
    for (int r = 0; r < 2; r++) {
        s = tn_navquery_find_path(q, 0.5f, 0.5f, 4.5f, 4.5f, 0.25f * (float)r, xy, 4, &n, &err);
        assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
        assert_non_null(strstr(err.msg, "last build or update failed"));
        assert_int_equal(n, 0);
    }
    tn_navquery_destroy(q);
    /* ... and so on a mesh never built */
    tn_navmesh *fresh = NULL;
    assert_int_equal(tn_navmesh_create(5, 5, NULL, NULL, &fresh, &err), TN_OK);
    assert_int_equal(tn_navquery_create(fresh, NULL, &q, &err), TN_OK);
    s = tn_navquery_find_path(q, 0.5f, 0.5f, 4.5f, 4.5f, 0, xy, 4, &n, &err);
    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(err.msg, "never built"));
    tn_navquery_destroy(q);
    tn_navmesh_destroy(fresh);
    tn_map_destroy(m);
    tn_navmesh_destroy(nm);
}

/* Capacities sized to the content (tn_navmesh_config_for_map): the mesh
 * builds, passes the exact checks, gives the same paths as a worst-case
 * mesh and takes local edits within the headroom; a capacity one point
 * short is refused at build. */
static void test_config_for_map(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        int w = 20 + 9 * k, h = 15 + 5 * k;
        tn_map *m = random_map(w, h, 8 + 6 * k, 900 + (uint64_t)k);
        tn_navmesh_config c = tn_navmesh_config_for_map(m, 0.25f);
        tn_navmesh_view big;
        tn_navmesh *ref = build(m);
        tn_navmesh_get_view(ref, &big);
        assert_true(c.max_points >= big.npoints && c.max_points < (w + 1) * (h + 1));
        tn_error err;
        tn_navmesh *nm = NULL;
        tn_navquery *q = NULL, *qr = NULL;
        assert_int_equal(tn_navmesh_create(w, h, &c, NULL, &nm, &err), TN_OK);
        assert_int_equal(tn_navmesh_build(nm, m, &err), TN_OK);
        assert_int_equal(tn_navquery_create(nm, NULL, &q, &err), TN_OK);
        assert_int_equal(tn_navquery_create(ref, NULL, &qr, &err), TN_OK);
        tn_rng r;
        tn_rng_seed(&r, 5 + (uint64_t)k, 2);
        float xy[2048];
        for (int it = 0; it < 40; it++) {
            int x = (int)tn_rng_below(&r, (uint32_t)w), y = (int)tn_rng_below(&r, (uint32_t)h);
            tn_map_set_tile(m, x, y, is_free(m, x, y) ? TN_TILE_BLOCK : TN_TILE_EMPTY, NULL);
            assert_int_equal(tn_navmesh_update_tile(nm, m, x, y, &err), TN_OK);
            assert_int_equal(tn_navmesh_update_tile(ref, m, x, y, &err), TN_OK);
            tn_navmesh_view v;
            tn_navmesh_get_view(nm, &v);
            check_outlines(m, &v);
            if (v.ntris) check_triangles(m, &v);
            float sx = (float)tn_rng_below(&r, (uint32_t)w) + 0.5f;
            float sy = (float)tn_rng_below(&r, (uint32_t)h) + 0.5f;
            float gx = (float)tn_rng_below(&r, (uint32_t)w) + 0.5f;
            float gy = (float)tn_rng_below(&r, (uint32_t)h) + 0.5f;
            int n1, n2;
            tn_status s1 = tn_navquery_find_path(q, sx, sy, gx, gy, 0, xy, 1024, &n1, NULL);
            double l1 = tn_succeeded(s1) ? path_len(xy, n1) : -1;
            tn_status s2 = tn_navquery_find_path(qr, sx, sy, gx, gy, 0, xy, 1024, &n2, NULL);
            double l2 = tn_succeeded(s2) ? path_len(xy, n2) : -1;
            assert_int_equal(s1, s2);
            assert_true(fabs(l1 - l2) < 1e-6);
        }
        tn_navquery_destroy(q);
        tn_navquery_destroy(qr);
        tn_navmesh_destroy(nm);
        /* one point short of the outline: CAPACITY at build, an empty mesh */
        tn_navmesh_get_view(ref, &big);
        c.max_points = big.npoints - 1;
        assert_int_equal(tn_navmesh_create(w, h, &c, NULL, &nm, &err), TN_OK);
        tn_status s = tn_navmesh_build(nm, m, &err);
        assert_true(tn_failed(s) && tn_status_detail(s, TN_CAPACITY));
        assert_int_equal(tn_navmesh_locate(nm, 0.5f, 0.5f, -1), -1);
        tn_navmesh_destroy(nm);
        tn_navmesh_destroy(ref);
        /* a headroom that means nothing: the default (worst-case) capacities */
        const float bad[] = {-0.5f, NAN, -INFINITY};
        for (int i = 0; i < 3; i++) {
            c = tn_navmesh_config_for_map(m, bad[i]);
            assert_int_equal(c.max_points, 0);
            assert_int_equal(c.max_segments, 0);
        }
        tn_map_destroy(m);
    }
}

/* Local rebuilds: after each of many random single-tile edits the updated
 * mesh passes the same exact checks as a full build, and its paths are as
 * short as those of a mesh built from scratch (both exact). */
static void test_local_update(void **state)
{
    (void)state;
    int local = 0, total = 0;
    for (int k = 0; k < 6; k++) {
        int w = 14 + 5 * k, h = 12 + 3 * k;
        tn_map *m = random_map(w, h, 10 + 5 * k, 3000 + (uint64_t)k);
        tn_navmesh *nm = build(m);
        tn_navmesh *ref = build(m);
        tn_navquery *q = NULL;
        tn_navquery_create(nm, NULL, &q, NULL);
        tn_navquery *qr = NULL;
        tn_navquery_create(ref, NULL, &qr, NULL);
        tn_rng r;
        tn_rng_seed(&r, 77 + (uint64_t)k, 1);
        float xy[2048];
        for (int it = 0; it < 150; it++) {
            int x = (int)tn_rng_below(&r, (uint32_t)w), y = (int)tn_rng_below(&r, (uint32_t)h);
            if (it % 5 == 0) { /* near the border too */
                x = it % 2 ? 0 : w - 1;
            }
            tn_map_set_tile(m, x, y, is_free(m, x, y) ? TN_TILE_BLOCK : TN_TILE_EMPTY, NULL);
            tn_error err;
            assert_int_equal(tn_navmesh_update_tile(nm, m, x, y, &err), TN_OK);
            tn_navmesh_view v;
            tn_navmesh_get_view(nm, &v);
            local += v.last_local;
            total++;
            check_outlines(m, &v);
            if (v.ntris) check_triangles(m, &v);
            if (it % 10 != 9) continue;
            assert_true(tn_succeeded(tn_navmesh_build(ref, m, NULL)));
            for (int j = 0; j < 20; j++) {
                float sx = (float)tn_rng_below(&r, (uint32_t)w) + 0.5f;
                float sy = (float)tn_rng_below(&r, (uint32_t)h) + 0.5f;
                float gx = (float)tn_rng_below(&r, (uint32_t)w) + 0.5f;
                float gy = (float)tn_rng_below(&r, (uint32_t)h) + 0.5f;
                int n1, n2;
                tn_status s1 = tn_navquery_find_path(q, sx, sy, gx, gy, 0, xy, 1024, &n1, NULL);
                double l1 = tn_succeeded(s1) ? check_path(m, xy, n1, "local") : -1;
                tn_status s2 = tn_navquery_find_path(qr, sx, sy, gx, gy, 0, xy, 1024, &n2, NULL);
                double l2 = tn_succeeded(s2) ? path_len(xy, n2) : -1;
                assert_int_equal(s1, s2);
                assert_true(fabs(l1 - l2) < 1e-6);
                assert_int_equal(tn_navmesh_los(nm, sx, sy, gx, gy),
                                 tn_navmesh_los(ref, sx, sy, gx, gy));
                /* radius paths walk the vertex fans (vtri) of the updated mesh */
                if (tn_navmesh_clearance(nm, sx, sy, 1.0f) >= 0.3f &&
                    tn_navmesh_clearance(nm, gx, gy, 1.0f) >= 0.3f) {
                    s1 = tn_navquery_find_path(q, sx, sy, gx, gy, 0.3f, xy, 1024, &n1, NULL);
                    double c1 = tn_succeeded(s1) ? tn_navquery_length(q) : -1;
                    s2 = tn_navquery_find_path(qr, sx, sy, gx, gy, 0.3f, xy, 1024, &n2, NULL);
                    double c2 = tn_succeeded(s2) ? tn_navquery_length(qr) : -1;
                    assert_int_equal(s1, s2);
                    assert_true(fabs(c1 - c2) < 1e-6);
                }
            }
        }
        tn_navquery_destroy(q);
        tn_navquery_destroy(qr);
        tn_navmesh_destroy(nm);
        tn_navmesh_destroy(ref);
        tn_map_destroy(m);
    }
    printf("local rebuild: %d of %d single-tile edits stayed local\n", local, total);
    assert_true(local > total / 2);
}

/* ---------------------------------------------------------------------- */
/* Location */

static void test_locate(void **state)
{
    (void)state;
    tn_map *m = random_map(37, 29, 30, 77);
    tn_navmesh *nm = build(m);
    tn_navmesh_view v;
    tn_navmesh_get_view(nm, &v);
    tn_rng r;
    tn_rng_seed(&r, 5, 1);
    int hint = -1;
    for (int k = 0; k < 5000; k++) {
        float x = tn_rng_range(&r, -1.0f, 38.0f), y = tn_rng_range(&r, -1.0f, 30.0f);
        if (k % 7 == 0) x = floorf(x); /* on tile edges too */
        if (k % 11 == 0) y = floorf(y);
        int t = tn_navmesh_locate(nm, x, y, k % 3 ? hint : -1);
        bool inside = x > 0 && y > 0 && x < 37 && y < 29;
        bool strictly_free =
            inside && x != floorf(x) && y != floorf(y) && is_free(m, (int)x, (int)y);
        if (strictly_free) assert_true(t >= 0);
        if (t >= 0) {
            assert_true(v.region[t] >= 0);
            /* the triangle contains the point */
            for (int i = 0; i < 3; i++) {
                int a = v.tri[3 * t + i], b = v.tri[3 * t + (i + 1) % 3];
                double o = (double)(v.xy[2 * b] - v.xy[2 * a]) * (y - v.xy[2 * a + 1]) -
                           (double)(v.xy[2 * b + 1] - v.xy[2 * a + 1]) * (x - v.xy[2 * a]);
                assert_true(o >= 0);
            }
            hint = t;
        } else if (inside && x != floorf(x) && y != floorf(y)) {
            assert_false(is_free(m, (int)x, (int)y));
        }
    }
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* ---------------------------------------------------------------------- */
/* Paths */

static double path_len(const float *xy, int n)
{
    double l = 0;
    for (int i = 0; i + 1 < n; i++)
        l += hypot((double)xy[2 * i + 2] - xy[2 * i], (double)xy[2 * i + 3] - xy[2 * i + 1]);
    return l;
}

static void test_path_simple(void **state)
{
    (void)state;
    tn_map *m = load_map("tests/data/nav_gap.map");
    tn_navmesh *nm = build(m);
    tn_navquery *q = NULL;
    tn_navquery_create(nm, NULL, &q, NULL);
    assert_non_null(q);
    float xy[256];
    int n;
    /* straight line in the open */
    assert_int_equal(tn_navquery_find_path(q, 0.5f, 0.5f, 10.5f, 3.5f, 0, xy, 128, &n, NULL),
                     TN_OK);
    assert_int_equal(n, 2);
    assert_true(xy[0] == 0.5f && xy[1] == 0.5f && xy[2] == 10.5f && xy[3] == 3.5f);
    /* around the wall's top end (5,4)-(6,4): through the two corners */
    assert_int_equal(tn_navquery_find_path(q, 2.5f, 8.5f, 8.5f, 8.5f, 0, xy, 128, &n, NULL), TN_OK);
    check_path(m, xy, n, "gap");
    assert_int_equal(n, 4);
    assert_true(xy[2] == 5.0f && xy[3] == 4.0f && xy[4] == 6.0f && xy[5] == 4.0f);
    double want = 2 * hypot(2.5, 4.5) + 1.0;
    assert_true(fabs(path_len(xy, n) - want) < 1e-5);
    /* buffer too small: partial, first points written */
    tn_status s = tn_navquery_find_path(q, 2.5f, 8.5f, 8.5f, 8.5f, 0, xy, 2, &n, NULL);
    assert_true(tn_succeeded(s) && tn_status_detail(s, TN_BUFFER_TOO_SMALL));
    assert_int_equal(n, 2);
    /* start in a block */
    tn_error e;
    s = tn_navquery_find_path(q, 5.5f, 6.5f, 8.5f, 8.5f, 0, xy, 128, &n, &e);
    assert_true(tn_failed(s) && tn_status_detail(s, TN_INVALID_PARAM));
    assert_int_equal(e.status, s); /* the message names the point */
    assert_non_null(strstr(e.msg, "start (5.5, 6.5) is not in free space"));
    assert_int_equal(tn_navquery_find_path(q, 2.5f, 8.5f, 8.5f, 8.5f, 0, xy, 128, &n, &e), TN_OK);
    assert_int_equal(e.status, TN_OK); /* a success clears the record */
    assert_string_equal(e.msg, "");
    s = tn_navquery_find_path(q, 2.5f, 8.5f, 8.5f, 8.5f, 0, xy, 2, &n, &e);
    assert_true(tn_succeeded(s) && strstr(e.msg, "buffer holds the first 2"));
    /* same point */
    assert_int_equal(tn_navquery_find_path(q, 1.5f, 1.5f, 1.5f, 1.5f, 0, xy, 128, &n, NULL), TN_OK);
    assert_int_equal(n, 2);
    int nc;
    tn_navquery_corridor(q, &nc);
    assert_int_equal(nc, 1);
    /* the same point with a radius: the point itself, length 0 (it was a
     * loop around the nearest block, or UNREACHABLE in the open) */
    assert_int_equal(tn_navquery_find_path(q, 1.5f, 1.5f, 1.5f, 1.5f, 0.4f, xy, 128, &n, NULL),
                     TN_OK);
    assert_int_equal(n, 2);
    assert_true(xy[0] == 1.5f && xy[1] == 1.5f && xy[2] == 1.5f && xy[3] == 1.5f);
    assert_true(tn_navquery_length(q) == 0.0);
    /* an infinite clearance limit still sees the map's edge */
    float c = tn_navmesh_clearance(nm, 0.5f, 0.5f, INFINITY);
    assert_true(c == tn_navmesh_clearance(nm, 0.5f, 0.5f, 1000.0f) && c == 0.5f);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);

    /* unreachable: another region */
    m = load_map("tests/data/nav_rooms.map");
    nm = build(m);
    tn_navquery_create(nm, NULL, &q, NULL);
    tn_error e2;
    s = tn_navquery_find_path(q, 0.5f, 0.5f, 14.5f, 5.5f, 0, xy, 128, &n, &e2);
    check_partial(m, s, xy, n, 0.5, 0.5, 14.5, 5.5); /* to the closest place, as tn_surf_find */
    assert_non_null(strstr(e2.msg, "another region"));
    assert_non_null(strstr(e2.msg, "the path ends at the closest place reached"));
    assert_int_equal(e2.status, s);
    /* with a radius: the disc's search, then its nearest place with room
     * near the region's nearest point (a corner touch was a tile farther) */
    s = tn_navquery_find_path(q, 1.5f, 1.5f, 14.5f, 5.5f, 0.3f, xy, 128, &n, &e2);
    assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
    assert_non_null(strstr(e2.msg, "another region"));
    {
        const double gap = hypot(xy[2 * n - 2] - 14.5, xy[2 * n - 1] - 5.5);
        const double want = region_gap(m, 1, 1, 14.5, 5.5) + 0.3;
        if (!(gap <= want + 0.05))
            fail_msg("radius 0.3: ends %.4f from the goal, %.4f has room", gap, want);
    }
    /* a buffer too small for the partial path says both */
    if (n > 2) {
        s = tn_navquery_find_path(q, 0.5f, 0.5f, 14.5f, 5.5f, 0, xy, 2, &n, &e2);
        assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE | TN_BUFFER_TOO_SMALL);
        assert_int_equal(n, 2);
    }
    /* the door and the one-way platform: flyers pass through both */
    assert_int_equal(tn_navquery_find_path(q, 0.5f, 0.5f, 19.5f, 0.5f, 0, xy, 128, &n, NULL),
                     TN_OK);
    check_path(m, xy, n, "rooms");
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* In pixels (tile_size 16), paths come out in pixels. */
static void test_path_pixels(void **state)
{
    (void)state;
    tn_map *m = load_map("tests/data/nav_gap.map");
    tn_navmesh_config c = tn_navmesh_default_config();
    c.tile_size = 16;
    tn_navmesh *nm = NULL;
    tn_navmesh_create(m->w, m->h, &c, NULL, &nm, NULL);
    assert_true(tn_succeeded(tn_navmesh_build(nm, m, NULL)));
    tn_navquery *q = NULL;
    tn_navquery_create(nm, NULL, &q, NULL);
    float xy[64];
    int n;
    assert_int_equal(tn_navquery_find_path(q, 40, 136, 136, 136, 0, xy, 32, &n, NULL), TN_OK);
    assert_int_equal(n, 4);
    assert_true(xy[2] == 80.0f && xy[3] == 64.0f && xy[4] == 96.0f && xy[5] == 64.0f);
    assert_true(tn_navmesh_los(nm, 8, 8, 168, 8));
    assert_false(tn_navmesh_los(nm, 40, 136, 136, 136));
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* Random small maps: every path is valid, no longer than the 8-connected
 * optimum, no shorter than the any-angle optimum (visibility graph), and
 * LOS agrees with the exact grid test on random segments. */
static void test_paths_random_vs_references(void **state)
{
    (void)state;
    double worst = 1.0, sum = 0;
    int count = 0, optimal = 0;
    for (int k = 0; k < 12; k++) {
        int w = 12 + k * 3, h = 10 + k * 2;
        tn_map *m = random_map(w, h, 12 + k * 2, 500 + (uint64_t)k);
        tn_navmesh *nm = build(m);
        tn_navquery *q = NULL;
        tn_navquery_create(nm, NULL, &q, NULL);
        vgraph g;
        vgraph_build(&g, m);
        tn_rng r;
        tn_rng_seed(&r, (uint64_t)k, 3);
        float xy[2048];
        for (int it = 0; it < 40; it++) {
            int sx = (int)tn_rng_below(&r, (uint32_t)w), sy = (int)tn_rng_below(&r, (uint32_t)h);
            int gx = (int)tn_rng_below(&r, (uint32_t)w), gy = (int)tn_rng_below(&r, (uint32_t)h);
            if (!is_free(m, sx, sy) || !is_free(m, gx, gy)) continue;
            double oct = octile_dijkstra(m, sx, sy, gx, gy);
            int n;
            tn_status s = tn_navquery_find_path(q, sx + 0.5f, sy + 0.5f, gx + 0.5f, gy + 0.5f, 0,
                                                xy, 1024, &n, NULL);
            if (oct < 0) {
                check_partial(m, s, xy, n, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5);
                continue;
            }
            assert_int_equal(s, TN_OK);
            double len = check_path(m, xy, n, "random");
            double best = vgraph_query(&g, m, sx, sy, gx, gy);
            assert_true(len <= oct + 1e-6);
            assert_true(len >= best - 1e-6);
            if (best > 0) {
                double ratio = len / best;
                if (ratio > worst) worst = ratio;
                sum += ratio;
                count++;
                optimal += ratio < 1 + 1e-9;
            }
            /* the width-aware triangle A* (radius > 0): valid, not shorter
             * than the optimum, and not much longer on these open maps */
            int nr;
            tn_status sr = tn_navquery_find_path(q, sx + 0.5f, sy + 0.5f, gx + 0.5f, gy + 0.5f,
                                                 0.05f, xy, 1024, &nr, NULL);
            if (tn_succeeded(sr)) {
                for (int i = 0; i + 1 < nr; i++)
                    assert_true(
                        tn_navmesh_los(nm, xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3]));
                double lr = path_len(xy, nr);
                assert_true(lr >= best - 1e-4);
                assert_true(lr <= 1.5 * best + 1.0);
            }
            /* line of sight agrees with the exact segment test */
            float ax = tn_rng_range(&r, 0, (float)w), ay = tn_rng_range(&r, 0, (float)h);
            ax = floorf(ax * 2) / 2;
            ay = floorf(ay * 2) / 2;
            bool exact =
                is_free(m, (int)floorf(ax), (int)floorf(ay)) &&
                seg_valid(m, 2 * (sx) + 1, 2 * sy + 1, (int64_t)(2 * ax), (int64_t)(2 * ay));
            bool los = tn_navmesh_los(nm, sx + 0.5f, sy + 0.5f, ax, ay);
            /* (a point on a tile border may be free although its tile is not) */
            if (ax != floorf(ax) && ay != floorf(ay)) {
                if (exact != los)
                    fprintf(stderr, "los (%d.5,%d.5)-(%g,%g): mesh %d exact %d\n", sx, sy, ax, ay,
                            los, exact);
                assert_int_equal(exact, los);
            }
        }
        vgraph_free(&g);
        tn_navquery_destroy(q);
        tn_navmesh_destroy(nm);
        tn_map_destroy(m);
    }
    printf("random maps: %d paths vs any-angle optimum: mean ratio %.5f, worst %.5f, %d optimal\n",
           count, count ? sum / count : 0, worst, optimal);
}

/* The regions of a half-grid point: a pinch corner (two diagonal free
 * tiles) lies in both of its tiles' regions. */
static void point_regions(const tn_navmesh *nm, const tn_map *m, int64_t X, int64_t Y, int r[2])
{
    const float x = X * 0.5f, y = Y * 0.5f, d = 0.25f;
    r[0] = r[1] = tn_navmesh_region_at(nm, x, y);
    int q = X % 2 == 0 && Y % 2 == 0 ? pinch_quadrants(m, X, Y) : 0;
    if (q == (1 | 8)) {
        r[0] = tn_navmesh_region_at(nm, x - d, y - d);
        r[1] = tn_navmesh_region_at(nm, x + d, y + d);
    } else if (q == (2 | 4)) {
        r[0] = tn_navmesh_region_at(nm, x + d, y - d);
        r[1] = tn_navmesh_region_at(nm, x - d, y + d);
    }
}

/* Start and goal anywhere on the half grid (tile corners and edge midpoints
 * included, the degenerate cases of the interval search, and pinch corners,
 * which belong to both of their tiles): the radius-0 path is valid and
 * exactly as long as the visibility-graph optimum. */
static void test_paths_halfgrid_exact(void **state)
{
    (void)state;
    int checked = 0, pinches = 0;
    for (int k = 0; k < 10; k++) {
        int w = 10 + k * 2, h = 8 + k * 2;
        tn_map *m = random_map(w, h, 15 + k * 3, 700 + (uint64_t)k);
        tn_navmesh *nm = build(m);
        tn_navquery *q = NULL;
        tn_navquery_create(nm, NULL, &q, NULL);
        vgraph g;
        vgraph_build(&g, m);
        tn_rng r;
        tn_rng_seed(&r, 100 + (uint64_t)k, 3);
        float xy[2048];
        for (int it = 0; it < 200; it++) {
            int64_t SX = tn_rng_below(&r, (uint32_t)(2 * w + 1)),
                    SY = tn_rng_below(&r, (uint32_t)(2 * h + 1));
            int64_t GX = tn_rng_below(&r, (uint32_t)(2 * w + 1)),
                    GY = tn_rng_below(&r, (uint32_t)(2 * h + 1));
            float sx = SX * 0.5f, sy = SY * 0.5f, gx = GX * 0.5f, gy = GY * 0.5f;
            int rs[2], rg[2];
            point_regions(nm, m, SX, SY, rs);
            point_regions(nm, m, GX, GY, rg);
            pinches += rs[0] != rs[1] || rg[0] != rg[1];
            int n;
            tn_status s = tn_navquery_find_path(q, sx, sy, gx, gy, 0, xy, 1024, &n, NULL);
            if (rs[0] < 0 || rg[0] < 0) {
                assert_true(tn_failed(s) && tn_status_detail(s, TN_INVALID_PARAM));
                continue;
            }
            double best = vgraph_query2(&g, m, SX, SY, GX, GY);
            if (rs[0] != rg[0] && rs[0] != rg[1] && rs[1] != rg[0] && rs[1] != rg[1]) {
                /* partial: to the closest place (checked on a tile's
                 * component in check_partial; a start on a pinch corner has
                 * two) */
                assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
                check_path(m, xy, n, "partial, half grid");
                assert_true(best == INFINITY);
                continue;
            }
            assert_int_equal(s, TN_OK);
            assert_true(tn_navquery_exact(q));
            double len = check_path(m, xy, n, "half grid");
            if (fabs(len - best) > 1e-6)
                fprintf(stderr, "map %d: (%g,%g)-(%g,%g): length %.9f, optimum %.9f\n", k, sx, sy,
                        gx, gy, len, best);
            assert_true(fabs(len - best) <= 1e-6);
            checked++;
        }
        vgraph_free(&g);
        tn_navquery_destroy(q);
        tn_navmesh_destroy(nm);
        tn_map_destroy(m);
    }
    printf("half grid: %d paths equal to the optimum, %d with a pinch corner as an end\n", checked,
           pinches);
    assert_true(checked > 700);
}

/* ---------------------------------------------------------------------- */
/* Line of sight on hand-made cases */

static void test_los_cases(void **state)
{
    (void)state;
    /*  0123456
     * 0.......
     * 1..#....
     * 2...#...   (2,1) and (3,2) touch at the corner (3,2): a pinch
     * 3.......
     * 4.##....
     */
    tn_map *m = map_rows(7, 5,
                         "......."
                         "..#...."
                         "...#..."
                         "......."
                         ".##....");
    tn_navmesh *nm = build(m);
    /* open */
    assert_true(tn_navmesh_los(nm, 0.5f, 0.5f, 6.5f, 0.5f));
    /* through a block */
    assert_false(tn_navmesh_los(nm, 0.5f, 1.5f, 6.5f, 1.5f));
    /* grazing the corner (2,1) of block (2,1) from (0,3) to (4,-1)?  y=-1 is
     * outside; use (1,2)-(3,0): passes (2,1), the top-left corner: touches
     * only block (2,1)'s corner from outside -> visible */
    assert_true(tn_navmesh_los(nm, 1.0f, 2.0f, 3.0f, 0.0f));
    assert_true(tn_navmesh_los(nm, 1.5f, 2.5f, 2.5f, 0.5f) == false); /* cuts (2,1)? */
    /* through the pinch (3,2) diagonally from (2.5,2.5) to (3.5,1.5) */
    assert_false(tn_navmesh_los(nm, 2.5f, 2.5f, 3.5f, 1.5f));
    assert_false(tn_navmesh_los(nm, 2.0f, 3.0f, 4.0f, 1.0f));
    /* along the pinch's free diagonal the other way it runs into blocks */
    assert_false(tn_navmesh_los(nm, 1.5f, 0.5f, 4.5f, 3.5f));
    /* along a wall: the top of blocks (1,4),(2,4) at y = 4 */
    assert_true(tn_navmesh_los(nm, 0.0f, 4.0f, 6.0f, 4.0f));
    /* along the map border */
    assert_true(tn_navmesh_los(nm, 0.0f, 0.0f, 7.0f, 0.0f));
    assert_true(tn_navmesh_los(nm, 0.0f, 0.0f, 0.0f, 5.0f));
    /* along a line between two blocks: y = 2 from x = 2.5? (2,1) above,
     * nothing below at x 2..3 -> visible */
    assert_true(tn_navmesh_los(nm, 0.5f, 2.0f, 3.0f, 2.0f));
    /* horizontal through the pinch corner (3,2): blocked */
    assert_false(tn_navmesh_los(nm, 0.5f, 2.0f, 6.5f, 2.0f));
    /* from a point inside a block */
    assert_false(tn_navmesh_los(nm, 2.5f, 1.5f, 0.5f, 0.5f));
    /* endpoints on vertices */
    assert_true(tn_navmesh_los(nm, 3.0f, 1.0f, 6.0f, 1.0f));
    assert_true(tn_navmesh_los(nm, 3.0f, 2.0f, 6.0f, 2.0f));
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* LOS against the exact test on many random half-grid segments. */
static void test_los_random(void **state)
{
    (void)state;
    int agree = 0;
    for (int k = 0; k < 8; k++) {
        int w = 20 + k * 4, h = 15 + k * 3;
        tn_map *m = random_map(w, h, 10 + 4 * k, 900 + (uint64_t)k);
        tn_navmesh *nm = build(m);
        tn_rng r;
        tn_rng_seed(&r, 11 + (uint64_t)k, 3);
        for (int it = 0; it < 3000; it++) {
            int64_t ax = tn_rng_below(&r, (uint32_t)(2 * w + 1)),
                    ay = tn_rng_below(&r, (uint32_t)(2 * h + 1));
            int64_t bx = tn_rng_below(&r, (uint32_t)(2 * w + 1)),
                    by = tn_rng_below(&r, (uint32_t)(2 * h + 1));
            if (it % 3 == 0) { /* short segments, many through corners */
                bx = ax + (int64_t)tn_rng_below(&r, 9) - 4;
                by = ay + (int64_t)tn_rng_below(&r, 9) - 4;
                if (bx < 0 || by < 0 || bx > 2 * w || by > 2 * h) continue;
            }
            /* both endpoints must be in free space for the exact test */
            bool a_free = tn_navmesh_locate(nm, ax * 0.5f, ay * 0.5f, -1) >= 0;
            bool b_free = tn_navmesh_locate(nm, bx * 0.5f, by * 0.5f, -1) >= 0;
            bool exact = a_free && b_free && seg_valid(m, ax, ay, bx, by);
            /* a segment starting or ending at a pinch corner has a free
             * direction per quadrant; the exact test says nothing there */
            if (pinch_quadrants(m, ax, ay) && ax % 2 == 0 && ay % 2 == 0) continue;
            if (pinch_quadrants(m, bx, by) && bx % 2 == 0 && by % 2 == 0) continue;
            bool los = tn_navmesh_los(nm, ax * 0.5f, ay * 0.5f, bx * 0.5f, by * 0.5f);
            if (los != exact)
                fprintf(stderr, "map %d: los (%g,%g)-(%g,%g): mesh %d exact %d\n", k, ax * 0.5,
                        ay * 0.5, bx * 0.5, by * 0.5, los, exact);
            assert_int_equal(los, exact);
            agree++;
        }
        tn_navmesh_destroy(nm);
        tn_map_destroy(m);
    }
    assert_true(agree > 10000);
}

/* ---------------------------------------------------------------------- */
/* Agent radius */

static void test_radius(void **state)
{
    (void)state;
    tn_map *m = load_map("tests/data/nav_corridor.map");
    tn_navmesh *nm = build(m);
    tn_navquery *q = NULL;
    tn_navquery_create(nm, NULL, &q, NULL);
    float xy[256];
    int n;
    /* radius 0 and 0.45: the one-tile corridor (row 3) */
    assert_int_equal(tn_navquery_find_path(q, 1.5f, 1.5f, 12.5f, 1.5f, 0, xy, 128, &n, NULL),
                     TN_OK);
    double l0 = path_len(xy, n);
    for (int i = 0; i < n; i++) assert_true(xy[2 * i + 1] <= 4.0f);
    assert_int_equal(tn_navquery_find_path(q, 1.5f, 1.5f, 12.5f, 1.5f, 0.45f, xy, 128, &n, NULL),
                     TN_OK);
    for (int i = 0; i < n; i++) assert_true(xy[2 * i + 1] <= 4.0f);
    assert_true(path_len(xy, n) >= l0);
    /* every turning point keeps 0.45 from the corner it turns around */
    for (int i = 1; i + 1 < n; i++) {
        double dmin = 1e9;
        for (int y = 0; y <= m->h; y++)
            for (int x = 0; x <= m->w; x++)
                if (naive_vertex(m, x, y))
                    dmin = fmin(dmin, hypot(xy[2 * i] - x, xy[2 * i + 1] - y));
        assert_true(dmin > 0.45 - 1e-4);
    }
    /* radius 0.6: only the two-tile corridor (rows 7-8) */
    assert_int_equal(tn_navquery_find_path(q, 1.5f, 1.5f, 12.5f, 1.5f, 0.6f, xy, 128, &n, NULL),
                     TN_OK);
    bool low = false;
    for (int i = 0; i < n; i++) low |= xy[2 * i + 1] >= 7.0f;
    assert_true(low);
    /* radius 1.1: no corridor is wide enough: a partial path, as tn_surf's,
     * to the place reached closest to the goal, with room for the disc,
     * nearer the goal than the start */
    tn_error pe;
    tn_status s = tn_navquery_find_path(q, 1.5f, 1.5f, 12.5f, 1.5f, 1.1f, xy, 128, &n, &pe);
    assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
    assert_non_null(strstr(pe.msg, "no way to it is wide enough for radius 1.1"));
    assert_true(n >= 2 && xy[0] == 1.5f && xy[1] == 1.5f);
    {
        const float ex = xy[2 * n - 2], ey = xy[2 * n - 1];
        assert_true(tn_navmesh_clearance(nm, ex, ey, 2.0f) >= 1.1f - 1e-3f);
        printf("  radius 1.1, partial: ends at (%g, %g)\n", (double)ex, (double)ey);
        assert_true(hypot(ex - 12.5, ey - 1.5) < 11.0 - 0.1);
    }
    /* inside the left area it is still fine */
    assert_int_equal(tn_navquery_find_path(q, 1.5f, 1.5f, 1.5f, 9.5f, 1.1f, xy, 128, &n, NULL),
                     TN_OK);
    /* a negative radius is refused */
    s = tn_navquery_find_path(q, 1.5f, 1.5f, 1.5f, 9.5f, -1.0f, xy, 128, &n, NULL);
    assert_true(tn_failed(s) && tn_status_detail(s, TN_INVALID_PARAM));
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* Point (x, y) in the closed triangle t of the view. */
static bool view_tri_holds(const tn_navmesh_view *v, int t, double x, double y)
{
    for (int i = 0; i < 3; i++) {
        const int32_t *a = v->xy + 2 * v->tri[3 * t + i],
                      *b = v->xy + 2 * v->tri[3 * t + (i + 1) % 3];
        if ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) < -1e-6) return false;
    }
    return true;
}

/* The corridor of a radius path is a chain: free triangles from the one
 * holding the start to the one holding the goal, each sharing an edge with
 * the next, every path point in one of them (it was the triangles under
 * the path's points: 3-5 triangles with gaps between them). */
static void test_radius_corridor_connected(void **state)
{
    (void)state;
    const char *maps[] = {"maps/demo.map", "tests/data/nav_corridor.map", NULL};
    int checked = 0;
    for (int k = 0; k < 4; k++) {
        tn_map *m = k < 2 ? load_map(maps[k]) : random_map(40, 30, 22, 500u + (unsigned)k);
        tn_navmesh *nm = build(m);
        tn_navmesh_view v;
        tn_navmesh_get_view(nm, &v);
        tn_navquery *q = NULL;
        assert_true(tn_succeeded(tn_navquery_create(nm, NULL, &q, NULL)));
        tn_rng r;
        tn_rng_seed(&r, 77u + (unsigned)k, 3);
        static float xy[2 * 4096];
        for (int trial = 0; trial < 60; trial++) {
            const float radii[] = {0.3125f, 0.45f, 1.0f, 0.1f};
            float rad = radii[trial % 4];
            float sx = (float)tn_rng_below(&r, (uint32_t)m->w) + 0.5f,
                  sy = (float)tn_rng_below(&r, (uint32_t)m->h) + 0.5f;
            float gx = (float)tn_rng_below(&r, (uint32_t)m->w) + 0.5f,
                  gy = (float)tn_rng_below(&r, (uint32_t)m->h) + 0.5f;
            if (!tn_navmesh_nearest_clear(nm, sx, sy, rad, &sx, &sy) ||
                !tn_navmesh_nearest_clear(nm, gx, gy, rad, &gx, &gy))
                continue;
            int n = 0;
            tn_status ps = tn_navquery_find_path(q, sx, sy, gx, gy, rad, xy, 4096, &n, NULL);
            if (tn_failed(ps)) continue;
            if (tn_status_detail(ps, TN_UNREACHABLE)) /* partial: the corridor ends at its end */
                gx = xy[2 * n - 2], gy = xy[2 * n - 1];
            int nc = 0;
            const int32_t *c = tn_navquery_corridor(q, &nc);
            assert_true(nc >= 1);
            if (!view_tri_holds(&v, c[0], sx, sy)) fail_msg("map %d trial %d: start off", k, trial);
            if (!view_tri_holds(&v, c[nc - 1], gx, gy))
                fail_msg("map %d trial %d: goal off", k, trial);
            for (int i = 0; i < nc; i++) {
                assert_true(c[i] >= 0 && c[i] < v.ntris && v.region[c[i]] >= 0);
                if (i == 0) continue;
                int shared = 0;
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++)
                        shared += v.tri[3 * c[i - 1] + a] == v.tri[3 * c[i] + b];
                if (shared != 2)
                    fail_msg("map %d trial %d radius %g: corridor triangles %d (%d) and %d (%d) "
                             "share no edge",
                             k, trial, (double)rad, i - 1, c[i - 1], i, c[i]);
            }
            for (int i = 0; i < n; i++) {
                bool in = false;
                for (int j = 0; j < nc && !in; j++)
                    in = view_tri_holds(&v, c[j], xy[2 * i], xy[2 * i + 1]);
                if (!in)
                    fail_msg("map %d trial %d: path point %d outside the corridor", k, trial, i);
            }
            checked++;
        }
        tn_navquery_destroy(q);
        tn_navmesh_destroy(nm);
        tn_map_destroy(m);
    }
    assert_true(checked >= 60);
}

/* ---------------------------------------------------------------------- */
/* Funnel alone */

static void test_funnel(void **state)
{
    (void)state;
    /* straight corridor: no corners */
    double P[4 * 4] = {0, 0, 0, 0, /**/ 1, 1, 1, -1, /**/ 2, 1, 2, -1, /**/ 3, 0, 3, 0};
    double out[16];
    /* "left" has orient > 0: walking +x, left is +y */
    assert_int_equal(tn_funnel(P, 4, out, 8), 2);
    assert_true(out[2] == 3 && out[3] == 0);
    /* a corner: the goal is up-left behind the left end of portal 2 */
    double Q[4 * 4] = {0, 0, 0, 0, /**/ 1, 1, 1, -1, /**/ 2, 1, 2, -1, /**/ 2, 5, 2, 5};
    int n = tn_funnel(Q, 4, out, 8);
    assert_int_equal(n, 3);
    assert_true(out[2] == 2 && out[3] == 1);
    /* capacity: count is still the full path */
    assert_int_equal(tn_funnel(Q, 4, out, 1), 3);
    /* no output buffer: it only counts (it wrote through NULL); no portals
     * or none at all: 0 (it read through NULL) */
    assert_int_equal(tn_funnel(Q, 4, NULL, 8), 3);
    assert_int_equal(tn_funnel(Q, 4, out, -1), 3);
    assert_int_equal(tn_funnel(NULL, 4, out, 8), 0);
    assert_int_equal(tn_funnel(Q, 0, out, 8), 0);
}

/* ---------------------------------------------------------------------- */
/* tn_navmesh.h MEMORY: a tn_navquery takes exactly 690 * P + 95,646 bytes
 * for a mesh of point capacity P, 34 more when P is even (the header said
 * ~665 * P, 4-9% short of what the counting allocator measures; then that
 * formula for every P, which only the odd ones tested here kept: 80x45,
 * P = 3,726, was 34 bytes more). */

static void test_query_memory_formula(void **state)
{
    (void)state;
    if (sizeof(void *) != 8) skip(); /* the header's bytes are 64-bit ones */
    tn_map *blocks = random_map(64, 48, 8, 77);
    const int sizes[][2] = {{16, 16}, {64, 64}, {256, 256}, {0, 0}, {80, 45}, {1, 1}, {17, 16}};
    for (int k = 0; k < 7; k++) {
        int w = k != 3 ? sizes[k][0] : 64, h = k != 3 ? sizes[k][1] : 48;
        tn_navmesh_config c =
            k != 3 ? tn_navmesh_default_config() : tn_navmesh_config_for_map(blocks, 0.25f);
        tn_navmesh *nm = NULL;
        assert_true(tn_succeeded(tn_navmesh_create(w, h, &c, NULL, &nm, NULL)));
        size_t p = k != 3 ? (size_t)(w + 1) * (size_t)(h + 1) : (size_t)c.max_points;
        tu_counting cnt = {0, 0, 0};
        tn_allocator a = tu_counting_allocator(&cnt);
        tn_navquery *q = NULL;
        assert_true(tn_succeeded(tn_navquery_create(nm, &a, &q, NULL)));
        assert_int_equal(cnt.bytes, 690 * p + 95646 + (p % 2 ? 0 : 34));
        tn_navquery_destroy(q);
        assert_int_equal(cnt.frees, cnt.allocs);
        tn_navmesh_destroy(nm);
    }
    tn_map_destroy(blocks);
}

/* ---------------------------------------------------------------------- */
/* Nearest free point */

static void test_nearest_free(void **state)
{
    (void)state;
    tn_map *m = random_map(25, 19, 45, 4242);
    tn_navmesh *nm = build(m);
    tn_rng r;
    tn_rng_seed(&r, 9, 9);
    for (int it = 0; it < 2000; it++) {
        float x = tn_rng_range(&r, -3, 28), y = tn_rng_range(&r, -3, 22);
        float margin = it % 2 ? 0.0f : 0.25f;
        float ox, oy;
        assert_true(tn_navmesh_nearest_free(nm, x, y, margin, &ox, &oy));
        /* brute force over every free tile */
        double best = INFINITY;
        for (int ty = 0; ty < m->h; ty++)
            for (int tx = 0; tx < m->w; tx++) {
                if (!is_free(m, tx, ty)) continue;
                double qx = fmin(fmax(x, tx + margin), tx + 1 - margin);
                double qy = fmin(fmax(y, ty + margin), ty + 1 - margin);
                best = fmin(best, hypot(qx - x, qy - y));
            }
        assert_true(fabs(hypot(ox - x, oy - y) - best) < 1e-4);
        assert_true(tn_navmesh_locate(nm, ox, oy, -1) >= 0);
    }
    float ox0, oy0;
    assert_false(tn_navmesh_nearest_free(nm, 3.5f, 3.5f, -0.1f, &ox0, &oy0));
    assert_false(tn_navmesh_nearest_free(nm, 3.5f, 3.5f, 0.5f, &ox0, &oy0));
    tn_error err;
    assert_true(tn_failed(tn_navmesh_update_tile(nm, m, 25, 0, &err)));
    assert_non_null(strstr(err.msg, "outside"));
    tn_map *full = map_rows(2, 1, "##");
    tn_navmesh *nf = build(full);
    float ox, oy;
    assert_false(tn_navmesh_nearest_free(nf, 0.5f, 0.5f, 0, &ox, &oy));
    tn_navmesh_destroy(nf);
    tn_map_destroy(full);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* ---------------------------------------------------------------------- */
/* Debug draw: counts what is drawn */

typedef struct counter {
    int lines, tris, circles;
} counter;
static void c_line(void *u, float a, float b, float c, float d, uint32_t k)
{
    (void)a, (void)b, (void)c, (void)d, (void)k;
    ((counter *)u)->lines++;
}
static void c_tri(void *u, float a, float b, float c, float d, float e, float f, uint32_t k)
{
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)k;
    ((counter *)u)->tris++;
}

static void test_draw(void **state)
{
    (void)state;
    tn_map *m = load_map("tests/data/nav_gap.map");
    tn_navmesh *nm = build(m);
    counter c = {0, 0, 0};
    tn_debug_draw dd = {.user = &c, .line = c_line, .tri = c_tri};
    tn_navmesh_draw(nm, &dd, 16, TN_NAVDRAW_TRIANGLES | TN_NAVDRAW_OUTLINES);
    tn_navmesh_view v;
    tn_navmesh_get_view(nm, &v);
    assert_int_equal(c.tris, v.nfree);
    assert_true(c.lines >= v.nsegments);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* ---------------------------------------------------------------------- */
/* Moving AI validation */

typedef struct maistats {
    int queries, failures;
    double worst_vs_octile, mean_vs_octile, worst_vs_anyangle, mean_vs_anyangle;
    int anyangle_count, anyangle_optimal;
    int exact; /* queries answered by the exact search (no fallback) */
} maistats;

static void run_movingai(const char *name, bool with_vgraph, maistats *st)
{
    char path[512];
    snprintf(path, sizeof path, MOVINGAI_DIR "%s", name);
    tn_map *m = load_map(path);
    snprintf(path, sizeof path, MOVINGAI_DIR "%s.scen", name);
    size_t len = 0;
    char *buf = tu_slurp(path, &len);
    assert_non_null(buf);
    tn_scen *sc = NULL;
    tn_error err;
    assert_true(tn_succeeded(tn_scen_parse(buf, len, path, NULL, &sc, &err)));
    free(buf);
    tn_navmesh *nm = build(m);
    tn_navquery *q = NULL;
    tn_navquery_create(nm, NULL, &q, NULL);
    vgraph g;
    if (with_vgraph) vgraph_build(&g, m);
    int cap = 1 << 16;
    float *xy = malloc(sizeof(float) * 2 * (size_t)cap);
    memset(st, 0, sizeof *st);
    st->worst_vs_octile = 0;
    for (int i = 0; i < sc->count; i++) {
        const tn_scen_query *sq = &sc->q[i];
        int n;
        tn_status s = tn_navquery_find_path(q, sq->sx + 0.5f, sq->sy + 0.5f, sq->gx + 0.5f,
                                            sq->gy + 0.5f, 0, xy, cap, &n, NULL);
        if (s != TN_OK) {
            fprintf(stderr, "%s query %d: status %s\n", name, i, tn_status_str(s));
            fail();
        }
        st->exact += tn_navquery_exact(q);
        char what[96];
        snprintf(what, sizeof what, "%s query %d", name, i);
        double l = check_path(m, xy, n, what);
        double tol = fmax(1e-4, 5e-6 * sq->optimal) + 1e-9 * l;
        double straight = hypot((double)(sq->gx - sq->sx), (double)(sq->gy - sq->sy));
        if (l > sq->optimal + tol || l < straight - 1e-9) {
            fprintf(stderr, "%s: length %.6f, 8-connected optimum %.6f, straight %.6f\n", what, l,
                    sq->optimal, straight);
            st->failures++;
        }
        st->queries++;
        if (sq->optimal > 0) {
            double r = l / sq->optimal;
            st->mean_vs_octile += r;
            if (r > st->worst_vs_octile) st->worst_vs_octile = r;
        }
        if (with_vgraph) {
            double best = vgraph_query(&g, m, sq->sx, sq->sy, sq->gx, sq->gy);
            assert_true(l >= best - 1e-6);
            if (best > 0) {
                double r = l / best;
                st->mean_vs_anyangle += r;
                st->anyangle_count++;
                st->anyangle_optimal += r < 1 + 1e-9;
                if (r > st->worst_vs_anyangle) st->worst_vs_anyangle = r;
            }
        }
    }
    st->mean_vs_octile /= st->queries ? st->queries : 1;
    if (st->anyangle_count) st->mean_vs_anyangle /= st->anyangle_count;
    printf("%-20s %5d queries (%d exact search), %d failures; length / 8-connected optimum: "
           "mean %.4f worst %.4f",
           name, st->queries, st->exact, st->failures, st->mean_vs_octile, st->worst_vs_octile);
    if (with_vgraph)
        printf("; / any-angle optimum: mean %.5f worst %.5f, %d of %d optimal",
               st->mean_vs_anyangle, st->worst_vs_anyangle, st->anyangle_optimal,
               st->anyangle_count);
    printf("\n");
    free(xy);
    if (with_vgraph) vgraph_free(&g);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_scen_destroy(sc);
    tn_map_destroy(m);
}

static bool have_movingai(const char *test)
{
    FILE *f = fopen(MOVINGAI_DIR "arena.map", "rb");
    if (!f) {
        printf("SKIP %s: " MOVINGAI_DIR " is missing (Moving AI benchmark maps)\n", test);
        return false;
    }
    fclose(f);
    return true;
}

static void test_movingai_small(void **state)
{
    (void)state;
    if (!have_movingai("test_movingai_small")) skip();
    maistats st;
    run_movingai("arena.map", true, &st);
    assert_int_equal(st.failures, 0);
    run_movingai("den312d.map", true, &st);
    assert_int_equal(st.failures, 0);
}

static void test_movingai_random512(void **state)
{
    (void)state;
    if (!have_movingai("test_movingai_random512")) skip();
    maistats st;
    run_movingai("random512-10-0.map", false, &st);
    assert_int_equal(st.failures, 0);
}

/* tn_navmesh_memory (its CDTs included) and tn_navquery_memory are what
 * their creates allocated (a counting allocator), the worst-case capacity
 * and one sized to a map; navquery's is the header's 690 * P + 95,646
 * (test_query_memory_formula checks it further). */
static void test_memory_counted(void **state)
{
    (void)state;
    tn_map *map = tu_map_text("tilenav-map 1\nsize 12 6\ntiles\n"
                              "............\n.P..##......\n....##...#..\n"
                              "............\n......#.....\n############\n");
    for (int k = 0; k < 2; k++) {
        tn_navmesh_config cfg =
            k ? tn_navmesh_config_for_map(map, 0.25f) : tn_navmesh_default_config();
        tu_counting c = {0};
        tn_allocator a = tu_counting_allocator(&c);
        tn_navmesh *m = NULL;
        assert_true(tn_succeeded(tn_navmesh_create(map->w, map->h, &cfg, &a, &m, NULL)));
        assert_int_equal(tn_navmesh_memory(m), c.bytes);
        tu_counting cq = {0};
        tn_allocator aq = tu_counting_allocator(&cq);
        tn_navquery *q = NULL;
        assert_true(tn_succeeded(tn_navquery_create(m, &aq, &q, NULL)));
        assert_int_equal(tn_navquery_memory(q), cq.bytes);
        const size_t P = (size_t)(map->w + 1) * (size_t)(map->h + 1); /* the worst case's */
        if (!k && sizeof(void *) == 8) assert_int_equal(tn_navquery_memory(q), 690 * P + 95646);
        tn_navquery_destroy(q);
        tn_navmesh_destroy(m);
        assert_int_equal(c.allocs, c.frees);
        assert_int_equal(cq.allocs, cq.frees);
    }
    assert_int_equal(tn_navmesh_memory(NULL), 0);
    assert_int_equal(tn_navquery_memory(NULL), 0);
    tn_map_destroy(map);
}

/* tn_navquery_agent_nav: the agents' queries over a mesh in pixels, the
 * glue every game wrote (an adopter's review): the points after the start
 * as find_path gives them, a partial answer negated, start and goal moved
 * off walls first, a path longer than cap cut, NULL safe. */
static void test_agent_nav(void **state)
{
    (void)state;
    tn_map *m = map_rows(10, 6,
                         ".........."
                         "..###....."
                         "..#......."
                         "..#..#####"
                         ".....#...."
                         ".....#....");
    tn_navmesh_config c = tn_navmesh_default_config();
    c.tile_size = 16;
    tn_navmesh *nm = NULL;
    tn_error err;
    assert_int_equal(tn_navmesh_create(10, 6, &c, NULL, &nm, &err), TN_OK);
    assert_int_equal(tn_navmesh_build(nm, m, &err), TN_OK);
    tn_navquery *q = NULL;
    assert_int_equal(tn_navquery_create(nm, NULL, &q, &err), TN_OK);
    float scratch[2 * 32], xy[2 * 32], ref[2 * 32];
    tn_navquery_agent ctx = {q, scratch, 32};
    tn_agent_nav nav = tn_navquery_agent_nav(&ctx);
    /* line of sight: the mesh's */
    assert_true(nav.los(nav.user, 8, 8, 150, 8));
    assert_false(nav.los(nav.user, 8, 40, 70, 40));
    assert_int_equal(nav.los(nav.user, 20, 70, 70, 20), tn_navmesh_los(nm, 20, 70, 70, 20));
    /* a path: find_path's points after the start */
    for (int r = 0; r < 2; r++) {
        const float rad = 4.0f * (float)r;
        int n = 0;
        assert_true(tn_succeeded(tn_navquery_find_path(q, 8, 88, 72, 40, rad, ref, 32, &n, &err)));
        assert_true(n >= 3);
        int k = nav.path(nav.user, 8, 88, 72, 40, rad, xy, 32);
        assert_int_equal(k, n - 1);
        for (int i = 0; i < 2 * k; i++) assert_true(xy[i] == ref[i + 2]);
        /* cut to cap: the first points */
        assert_int_equal(nav.path(nav.user, 8, 88, 72, 40, rad, xy, 1), 1);
        assert_true(xy[0] == ref[2] && xy[1] == ref[3]);
    }
    /* unreachable (the closed room right of the wall): the way to the
     * closest place, its count negated */
    int k = nav.path(nav.user, 8, 88, 120, 80, 0.0f, xy, 32);
    assert_true(k < 0);
    float lx = xy[2 * (-k - 1)], ly = xy[2 * (-k - 1) + 1];
    /* (the start's region nearest (120, 80): the top of the room's ceiling) */
    if (fabsf(lx - 120.0f) > 1e-3f || fabsf(ly - 48.0f) > 1e-3f)
        fail_msg("ends at (%g, %g)", (double)lx, (double)ly);
    /* a start just inside a block's corner, or too near a wall for the
     * radius: moved off first, so there is a path */
    assert_true(nav.path(nav.user, 33, 17, 8, 88, 0.0f, xy, 32) > 0);
    assert_true(nav.path(nav.user, 28, 40, 8, 88, 6.0f, xy, 32) > 0);
    /* a goal the disc cannot come near, moved to where it can, is no
     * arrival (a review: +1, as if reached, 104 px from the goal): a pocket
     * one tile wide under the room for a radius over half a tile, and a
     * point deep in a block for radius 0 */
    {
        tn_map *pm = map_rows(6, 6,
                              "......"
                              "......"
                              "......"
                              "####.#"
                              "####.#"
                              "######");
        tn_navmesh *pn = NULL;
        assert_int_equal(tn_navmesh_create(6, 6, &c, NULL, &pn, &err), TN_OK);
        assert_int_equal(tn_navmesh_build(pn, pm, &err), TN_OK);
        tn_navquery *pq = NULL;
        assert_int_equal(tn_navquery_create(pn, NULL, &pq, &err), TN_OK);
        tn_navquery_agent pc = {pq, scratch, 32};
        tn_agent_nav pnav = tn_navquery_agent_nav(&pc);
        assert_true(pnav.path(pnav.user, 16, 16, 72, 72, 10.0f, xy, 32) < 0);
        assert_true(pnav.path(pnav.user, 16, 16, 72, 72, 6.0f, xy, 32) > 0); /* it fits */
        assert_true(pnav.path(pnav.user, 16, 16, 24, 72, 0.0f, xy, 32) < 0);
        tn_navquery_destroy(pq);
        tn_navmesh_destroy(pn);
        tn_map_destroy(pm);
    }
    /* NULL safe */
    tn_agent_nav none = tn_navquery_agent_nav(NULL);
    assert_false(none.los(none.user, 8, 8, 150, 8));
    assert_int_equal(none.path(none.user, 8, 88, 72, 40, 0.0f, xy, 32), 0);
    tn_navquery_agent bad = {q, scratch, 1};
    tn_agent_nav badnav = tn_navquery_agent_nav(&bad);
    assert_int_equal(badnav.path(badnav.user, 8, 88, 72, 40, 0.0f, xy, 32), 0);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

/* tn_navmesh_get_view with no mesh: an empty view (it dereferenced it);
 * tn_navquery_set_trace with no query: nothing (it did too). */
static void test_view_and_trace_null(void **state)
{
    (void)state;
    tn_navmesh_view v;
    memset(&v, 0xff, sizeof v);
    tn_navmesh_get_view(NULL, &v);
    assert_int_equal(v.map_w, 0);
    assert_int_equal(v.ntris, 0);
    assert_int_equal(v.npoints, 0);
    assert_null(v.tri);
    assert_false(v.swept);
    tn_navmesh *m = NULL;
    assert_true(tn_succeeded(tn_navmesh_create(4, 4, NULL, NULL, &m, NULL)));
    tn_navmesh_get_view(m, NULL);
    tn_navquery_set_trace(NULL, NULL);
    tn_navmesh_destroy(m);
}

/* tn_navmesh_nearest_clear's candidates for a radius of half a tile or
 * more are tile centres (tn_navmesh.h): on an open 8x8 map a radius of 3.6
 * tiles fits only around the map's centre, a tile corner: false from
 * elsewhere, true from that point itself. */
static void test_nearest_clear_centres_only(void **state)
{
    (void)state;
    tn_map *map = NULL;
    assert_true(tn_succeeded(tn_map_create(8, 8, NULL, &map, NULL)));
    tn_navmesh *m = NULL;
    assert_true(tn_succeeded(tn_navmesh_create(8, 8, NULL, NULL, &m, NULL)));
    assert_true(tn_succeeded(tn_navmesh_build(m, map, NULL)));
    float ox = -1, oy = -1;
    assert_true(tn_navmesh_nearest_clear(m, 1, 1, 3.5f, &ox, &oy));
    assert_true(ox == 3.5f && oy == 3.5f); /* the nearest centre 3.5 from the edges */
    assert_false(tn_navmesh_nearest_clear(m, 1, 1, 3.6f, &ox, &oy));
    assert_true(tn_navmesh_nearest_clear(m, 4, 4, 3.6f, &ox, &oy));
    assert_true(ox == 4.0f && oy == 4.0f);
    tn_navmesh_destroy(m);
    tn_map_destroy(map);
}

/* A query refused at once (NaN coordinates, a buffer under 2 points)
 * reports its own results: no corridor, 0 expanded, not exact.  It left
 * the previous query's (a later failure, a blocked start, reset them), so
 * a game reading tn_navquery_exact or the corridor after a failed query
 * saw another path's. */
static void test_failed_query_resets_results(void **state)
{
    (void)state;
    tn_map *map = NULL;
    assert_true(tn_succeeded(tn_map_create(12, 8, NULL, &map, NULL)));
    for (int y = 0; y < 6; y++) tn_map_set_tile(map, 5, y, TN_TILE_BLOCK, NULL);
    tn_navmesh *m = NULL;
    tn_navquery *q = NULL;
    assert_true(tn_succeeded(tn_navmesh_create(12, 8, NULL, NULL, &m, NULL)));
    assert_true(tn_succeeded(tn_navmesh_build(m, map, NULL)));
    assert_true(tn_succeeded(tn_navquery_create(m, NULL, &q, NULL)));
    float xy[32];
    int n = 0, nc = 0;
    const float bad[3][2] = {{NAN, 1.5f}, {1.5f, INFINITY}, {1.5f, 1.5f}};
    for (int k = 0; k < 3; k++) {
        const float radius = k == 1 ? 0.3f : 0.0f;
        assert_int_equal(
            tn_navquery_find_path(q, 1.5f, 1.5f, 10.5f, 1.5f, radius, xy, 16, &n, NULL), TN_OK);
        tn_navquery_corridor(q, &nc);
        assert_true(nc > 1 && tn_navquery_exact(q));
        if (k != 1) assert_true(tn_navquery_expanded(q) > 0);
        const int cap = k == 2 ? 1 : 16; /* k 2: a buffer too small */
        assert_true(tn_failed(tn_navquery_find_path(q, bad[k][0], bad[k][1], 10.5f, 1.5f, radius,
                                                    xy, cap, &n, NULL)));
        assert_int_equal(n, 0);
        assert_non_null(tn_navquery_corridor(q, &nc));
        assert_int_equal(nc, 0);
        assert_int_equal(tn_navquery_expanded(q), 0);
        assert_false(tn_navquery_exact(q));
        assert_true(tn_navquery_length(q) == 0.0);
    }
    tn_navquery_destroy(q);
    tn_navmesh_destroy(m);
    tn_map_destroy(map);
}

/* Each bad argument of tn_navquery_find_path is named in its own message:
 * a NaN start used to be reported as "with radius 0: not finite or a
 * negative radius", a NULL count or a cap of 1 as one sentence about all
 * three outputs, and a radius wider than the map as a start "closer than
 * the radius to a wall" whose suggested tn_navmesh_nearest_clear found
 * nothing (found by a library user's program). */
static void test_find_path_bad_argument_messages(void **state)
{
    (void)state;
    tn_map *map = NULL;
    assert_true(tn_succeeded(tn_map_create(12, 8, NULL, &map, NULL)));
    tn_navmesh *m = NULL;
    tn_navquery *q = NULL;
    tn_navmesh_config cfg = tn_navmesh_default_config();
    cfg.tile_size = 16; /* messages in the caller's units */
    assert_true(tn_succeeded(tn_navmesh_create(12, 8, &cfg, NULL, &m, NULL)));
    assert_true(tn_succeeded(tn_navmesh_build(m, map, NULL)));
    assert_true(tn_succeeded(tn_navquery_create(m, NULL, &q, NULL)));
    float xy[32];
    int n = 0;
    tn_error e;
    struct {
        float sx, sy, gx, gy, r;
        int cap;
        bool no_q, no_xy, no_count;
        const char *want;
    } cases[] = {
        {24, 24, 150, 100, 0, 16, true, false, false,
         "navmesh: a path needs a query object (q is NULL)"},
        {24, 24, 150, 100, 0, 16, false, false, true,
         "navmesh: count is NULL but xy is not (NULL for both: search alone)"},
        {24, 24, 150, 100, 0, 1, false, false, false,
         "navmesh: a path's output buffer of 1 points is too small (at least 2: the start and the "
         "goal)"},
        {NAN, 24, 150, 100, 0, 16, false, false, false,
         "navmesh: the start of a path has x not a number (NaN)"},
        {24, 24, 150, -NAN, 0, 16, false, false, false,
         "navmesh: the goal of a path has y not a number (NaN)"},
        {24, 24, 150, INFINITY, 0, 16, false, false, false,
         "navmesh: the goal (150, inf) of a path is not a finite point"},
        {24, 24, 150, 100, -1, 16, false, false, false,
         "navmesh: a path's radius -1 is not a finite number >= 0"},
        {24, 24, 150, 100, NAN, 16, false, false, false,
         "navmesh: a path's radius is not a number (NaN)"},
        {24, 24, 150, 100, -NAN, 16, false, false, false,
         "navmesh: a path's radius is not a number (NaN)"},
        {24, 24, 150, 100, 65, 16, false, false, false,
         "navmesh: radius 65 is too large for the 12x8 map: a disc of that radius (130 across) "
         "fits nowhere in it (192 x 128)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        n = 7;
        tn_status s =
            tn_navquery_find_path(cases[k].no_q ? NULL : q, cases[k].sx, cases[k].sy, cases[k].gx,
                                  cases[k].gy, cases[k].r, cases[k].no_xy ? NULL : xy, cases[k].cap,
                                  cases[k].no_count ? NULL : &n, &e);
        assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
        assert_int_equal(e.status, s);
        if (strcmp(e.msg, cases[k].want) != 0) fail_msg("case %zu: %s", k, e.msg);
        if (!cases[k].no_count) assert_int_equal(n, 0);
    }
    /* a radius that fits the map (64 = half of its 128 px height) is a
     * question about the start, as before */
    tn_status s = tn_navquery_find_path(q, 24, 24, 150, 100, 64, xy, 16, &n, &e);
    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(e.msg, "the start (24, 24) is closer than the radius 64 to a wall"));
    /* and one that fits the start and goal still plans */
    assert_int_equal(tn_navquery_find_path(q, 24, 24, 150, 100, 8, xy, 16, &n, &e), TN_OK);
    tn_navquery_destroy(q);
    tn_navmesh_destroy(m);
    tn_map_destroy(map);
}

/* xy NULL searches alone, as tn_path_find and tn_surf_find do with no
 * output (it was INVALID_PARAM: the library's one path call that needed a
 * buffer): the same status and message as with a buffer big enough, never
 * BUFFER_TOO_SMALL, *count 0 (count may be NULL), and the same corridor,
 * length and exactness; cap is not read. */
static void test_find_path_search_alone(void **state)
{
    (void)state;
    tn_map *map = map_rows(16, 8,
                           "................"
                           "..####....#....."
                           "..#..#....#....."
                           "..####....#....."
                           "..........#....."
                           "....####..#....."
                           "..........#....."
                           "................");
    tn_navmesh *m = NULL;
    tn_navquery *q = NULL;
    tn_navmesh_config cfg = tn_navmesh_default_config();
    cfg.tile_size = 16;
    assert_true(tn_succeeded(tn_navmesh_create(16, 8, &cfg, NULL, &m, NULL)));
    assert_true(tn_succeeded(tn_navmesh_build(m, map, NULL)));
    assert_true(tn_succeeded(tn_navquery_create(m, NULL, &q, NULL)));
    struct {
        float sx, sy, gx, gy, r;
    } cases[] = {
        {8, 8, 248, 120, 0},   /* around the wall */
        {8, 8, 248, 120, 5},   /* a disc around it */
        {8, 120, 56, 40, 0},   /* into the closed box: another region */
        {8, 120, 56, 40, 4},   /* a disc toward it */
        {8, 8, 8, 8, 6},       /* already there */
        {200, 24, 200, 24, 0}, /* already there, radius 0 */
        {8, 8, 248, 8, 0},     /* straight over the wall's top */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        float xy[128];
        int n = -1, n0 = -1;
        tn_error e, e0;
        const tn_status s = tn_navquery_find_path(q, cases[k].sx, cases[k].sy, cases[k].gx,
                                                  cases[k].gy, cases[k].r, xy, 64, &n, &e);
        assert_true(tn_succeeded(s));
        assert_false(tn_status_detail(s, TN_BUFFER_TOO_SMALL));
        int nc = 0;
        const int32_t *c = tn_navquery_corridor(q, &nc);
        int32_t corr[256];
        assert_true(nc <= 256);
        if (nc) memcpy(corr, c, (size_t)nc * sizeof *corr);
        const double len = tn_navquery_length(q);
        const bool exact = tn_navquery_exact(q);
        /* a cap of 2 cuts the longer paths: a search alone never does */
        tn_status s2 = tn_navquery_find_path(q, cases[k].sx, cases[k].sy, cases[k].gx, cases[k].gy,
                                             cases[k].r, xy, 2, &n0, &e0);
        assert_int_equal(tn_status_detail(s2, TN_BUFFER_TOO_SMALL) != 0, n > 2);
        const tn_status s0 = tn_navquery_find_path(q, cases[k].sx, cases[k].sy, cases[k].gx,
                                                   cases[k].gy, cases[k].r, NULL, -5, &n0, &e0);
        if (s0 != s || strcmp(e0.msg, e.msg) != 0)
            fail_msg("case %zu: with a buffer %#x '%s', alone %#x '%s'", k, (unsigned)s, e.msg,
                     (unsigned)s0, e0.msg);
        assert_int_equal(n0, 0);
        int nc0 = 0;
        const int32_t *c0 = tn_navquery_corridor(q, &nc0);
        assert_int_equal(nc0, nc);
        if (nc) assert_memory_equal(c0, corr, (size_t)nc * sizeof *corr);
        assert_true(tn_navquery_length(q) == len);
        assert_int_equal(tn_navquery_exact(q), exact);
        /* count may be NULL too */
        assert_int_equal(tn_navquery_find_path(q, cases[k].sx, cases[k].sy, cases[k].gx,
                                               cases[k].gy, cases[k].r, NULL, 0, NULL, NULL),
                         s);
        if (k == 2 || k == 3) assert_true(tn_status_detail(s, TN_UNREACHABLE));
        if (k == 0 || k == 1) assert_int_equal(s, TN_OK);
    }
    tn_navquery_destroy(q);
    tn_navmesh_destroy(m);
    tn_map_destroy(map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outlines_handmade),
        cmocka_unit_test(test_outlines_and_triangles_random),
        cmocka_unit_test(test_files_regions),
        cmocka_unit_test(test_create_errors),
        cmocka_unit_test(test_refused_build_keeps_mesh),
        cmocka_unit_test(test_all_blocked_map),
        cmocka_unit_test(test_local_update),
        cmocka_unit_test(test_config_for_map),
        cmocka_unit_test(test_locate),
        cmocka_unit_test(test_funnel),
        cmocka_unit_test(test_query_memory_formula),
        cmocka_unit_test(test_path_simple),
        cmocka_unit_test(test_path_pixels),
        cmocka_unit_test(test_los_cases),
        cmocka_unit_test(test_los_random),
        cmocka_unit_test(test_paths_random_vs_references),
        cmocka_unit_test(test_paths_halfgrid_exact),
        cmocka_unit_test(test_radius),
        cmocka_unit_test(test_radius_corridor_connected),
        cmocka_unit_test(test_nearest_free),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_movingai_small),
        cmocka_unit_test(test_movingai_random512),
        cmocka_unit_test(test_memory_counted),
        cmocka_unit_test(test_agent_nav),
        cmocka_unit_test(test_create_null_config),
        cmocka_unit_test(test_view_and_trace_null),
        cmocka_unit_test(test_nearest_clear_centres_only),
        cmocka_unit_test(test_failed_query_resets_results),
        cmocka_unit_test(test_find_path_bad_argument_messages),
        cmocka_unit_test(test_find_path_search_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
