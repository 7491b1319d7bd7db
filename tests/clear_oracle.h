/* clear_oracle.h - brute-force reference for disc-agent (radius r) shortest
 * paths on tile maps, independent of tn_navmesh (shared by
 * tests/test_navclear.c and bench/bench_navmesh.c).
 *
 * A disc of radius r centred at p is clear when p is at least r from every
 * blocked tile and from the outside of the map.  The blocked set grown by r
 * is a union of rounded squares; a shortest path among them is made of
 * segments tangent to the circles of radius r around CONVEX corners (grid
 * points with exactly one blocked tile among their four) and arcs of those
 * circles.  The oracle is the classical tangent graph:
 *  - nodes: the start, the goal and every tangent point: the four common
 *    tangents of every pair of corner circles (outer ones offset by r
 *    along the centre line, inner ones through the midpoint, the second
 *    point the mirror image of the first), and the two tangents from the
 *    start and the goal to every circle;
 *  - a tangent point counts only on its corner's quarter circle that bounds
 *    the grown square (the quadrant of directions opposite the blocked
 *    tile); a segment counts when it keeps r - 1e-7 from every blocked tile
 *    in its bounding box (exact segment-to-square distance as the least of
 *    segment-to-edge distances, with an intersection test);
 *  - arcs join angularly consecutive tangent points of a circle when no
 *    part between them is closer than r to a tile: per circle, the quarter
 *    circle is cut at every angle where it crosses another grown square's
 *    boundary (offset edges, corner circles), and each piece is tested at
 *    its midpoint;
 *  - Dijkstra over that graph.
 * O(n^2 * box) to build for n corners; O(g log g) per query for g edges.
 * Plain code, no attempt at speed beyond skipping far tiles.
 */
#ifndef CLEAR_ORACLE_H
#define CLEAR_ORACLE_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tn_map.h"

#define OR_TOL 1e-7
#define OR_PI 3.14159265358979323846

typedef struct or_pt {
    double x, y;
    int corner; /* -1: start or goal */
    double ang; /* angle on the corner circle */
} or_pt;

typedef struct or_edge {
    int a, b;
    double len;
} or_edge;

typedef struct or_corner {
    int x, y;
    int qx, qy; /* blocked quadrant direction */
    double a0;  /* start angle of the valid quarter (counter-clockwise in atan2) */
    int nfree;  /* free angular pieces [lo, hi] relative to a0 */
    double lo[16], hi[16];
} or_corner;

typedef struct or_graph {
    const tn_map *m;
    double r;
    int nc;
    or_corner *c;
    or_pt *p;
    int np, pcap, nbase;
    or_edge *e;
    int ne, ecap, nebase;
} or_graph;

static bool or_blocked(const tn_map *m, int x, int y)
{
    return x < 0 || y < 0 || x >= m->w || y >= m->h || tn_map_tile(m, x, y) == TN_TILE_BLOCK;
}

static double or_pseg(double px, double py, double ax, double ay, double bx, double by)
{
    double ex = bx - ax, ey = by - ay, l = ex * ex + ey * ey;
    double t = l > 0 ? ((px - ax) * ex + (py - ay) * ey) / l : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    return hypot(ax + t * ex - px, ay + t * ey - py);
}

static double or_cross(double ax, double ay, double bx, double by, double cx, double cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static double or_segseg(double ax, double ay, double bx, double by, double cx, double cy, double dx,
                        double dy)
{
    double d1 = or_cross(ax, ay, bx, by, cx, cy), d2 = or_cross(ax, ay, bx, by, dx, dy);
    double d3 = or_cross(cx, cy, dx, dy, ax, ay), d4 = or_cross(cx, cy, dx, dy, bx, by);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
        return 0;
    double d = or_pseg(ax, ay, cx, cy, dx, dy);
    d = fmin(d, or_pseg(bx, by, cx, cy, dx, dy));
    d = fmin(d, or_pseg(cx, cy, ax, ay, bx, by));
    return fmin(d, or_pseg(dx, dy, ax, ay, bx, by));
}

/* Distance from segment a-b to tile (x, y)'s square. */
static double or_seg_tile(double ax, double ay, double bx, double by, int x, int y)
{
    if (ax >= x && ax <= x + 1 && ay >= y && ay <= y + 1) return 0;
    double d = INFINITY;
    const int ex[4][4] = {{0, 0, 1, 0}, {1, 0, 1, 1}, {1, 1, 0, 1}, {0, 1, 0, 0}};
    for (int k = 0; k < 4; k++)
        d = fmin(d,
                 or_segseg(ax, ay, bx, by, x + ex[k][0], y + ex[k][1], x + ex[k][2], y + ex[k][3]));
    return d;
}

/* Least distance from segment a-b to a blocked tile or the outside. */
static double or_seg_clearance(const tn_map *m, double ax, double ay, double bx, double by,
                               double r)
{
    int x0 = (int)floor(fmin(ax, bx) - r) - 1, x1 = (int)floor(fmax(ax, bx) + r) + 1;
    int y0 = (int)floor(fmin(ay, by) - r) - 1, y1 = (int)floor(fmax(ay, by) + r) + 1;
    if (x0 < -1) x0 = -1;
    if (y0 < -1) y0 = -1;
    if (x1 > m->w) x1 = m->w;
    if (y1 > m->h) y1 = m->h;
    double best = INFINITY;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (!or_blocked(m, x, y)) continue;
            /* skip tiles whose centre is far from the segment */
            if (or_pseg(x + 0.5, y + 0.5, ax, ay, bx, by) > r + 0.7072 && best < INFINITY) continue;
            best = fmin(best, or_seg_tile(ax, ay, bx, by, x, y));
        }
    return best;
}

static bool or_seg_ok(const or_graph *g, double ax, double ay, double bx, double by)
{
    return or_seg_clearance(g->m, ax, ay, bx, by, g->r) >= g->r - OR_TOL;
}

static double or_pt_tile(double px, double py, int x, int y)
{
    double dx = fmax(fmax(x - px, 0), px - (x + 1)), dy = fmax(fmax(y - py, 0), py - (y + 1));
    return hypot(dx, dy);
}

/* Angle of (dx, dy) relative to the corner's quarter start, in [0, 2pi). */
static double or_rel(const or_corner *c, double dx, double dy)
{
    double a = atan2(dy, dx) - c->a0;
    while (a < 0) a += 2 * OR_PI;
    while (a >= 2 * OR_PI) a -= 2 * OR_PI;
    if (a > 2 * OR_PI - 1e-9) a = 0;
    return a;
}

static int or_dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Free pieces of corner c's quarter circle. */
static void or_corner_pieces(const or_graph *g, or_corner *c)
{
    const tn_map *m = g->m;
    double r = g->r, rs = r - OR_TOL;
    double cut[256];
    int nc = 0;
    cut[nc++] = 0;
    cut[nc++] = OR_PI / 2;
    int R = (int)ceil(2 * r) + 1;
    for (int y = c->y - R; y < c->y + R; y++)
        for (int x = c->x - R; x < c->x + R; x++) {
            if (!or_blocked(m, x, y)) continue;
            /* offset edges: lines X = x - rs, X = x + 1 + rs over [y, y+1], and
             * Y = y - rs, Y = y + 1 + rs over [x, x+1] */
            for (int k = 0; k < 4; k++) {
                bool vert = k < 2;
                double L = vert ? (k == 0 ? x - rs : x + 1 + rs) : (k == 2 ? y - rs : y + 1 + rs);
                double off = L - (vert ? c->x : c->y);
                if (fabs(off) > r) continue;
                double h = sqrt(r * r - off * off);
                for (int s = -1; s <= 1; s += 2) {
                    double along = (vert ? c->y : c->x) + s * h;
                    double lo = vert ? y : x;
                    if (along < lo || along > lo + 1) continue;
                    double dx = vert ? off : along - c->x, dy = vert ? along - c->y : off;
                    double a = or_rel(c, dx, dy);
                    if (a <= OR_PI / 2 && nc < 256) cut[nc++] = a;
                }
            }
            /* corner circles of radius rs around the square's corners */
            for (int k = 0; k < 4; k++) {
                double kx = x + (k & 1), ky = y + (k >> 1);
                double dx = kx - c->x, dy = ky - c->y, d = hypot(dx, dy);
                if (d < 1e-12 || d > r + rs || d < fabs(r - rs)) continue;
                double a = (d * d + r * r - rs * rs) / (2 * d);
                double hh = sqrt(fmax(r * r - a * a, 0));
                double mx = a * dx / d, my = a * dy / d;
                for (int s = -1; s <= 1; s += 2) {
                    double px = mx - s * hh * dy / d, py = my + s * hh * dx / d;
                    double an = or_rel(c, px, py);
                    if (an <= OR_PI / 2 && nc < 256) cut[nc++] = an;
                }
            }
        }
    qsort(cut, (size_t)nc, sizeof cut[0], or_dcmp);
    c->nfree = 0;
    for (int i = 0; i + 1 < nc; i++) {
        double a = 0.5 * (cut[i] + cut[i + 1]);
        if (cut[i + 1] - cut[i] < 1e-12) continue;
        double px = c->x + r * cos(c->a0 + a), py = c->y + r * sin(c->a0 + a);
        bool ok = true;
        for (int y = c->y - R; y < c->y + R && ok; y++)
            for (int x = c->x - R; x < c->x + R && ok; x++)
                if (or_blocked(m, x, y) && or_pt_tile(px, py, x, y) < rs) ok = false;
        if (!ok) continue;
        if (c->nfree > 0 && fabs(c->hi[c->nfree - 1] - cut[i]) < 1e-12) {
            c->hi[c->nfree - 1] = cut[i + 1];
        } else if (c->nfree < 16) {
            c->lo[c->nfree] = cut[i];
            c->hi[c->nfree] = cut[i + 1];
            c->nfree++;
        }
    }
}

/* The free piece holding relative angle a, or -1. */
static int or_piece(const or_corner *c, double a)
{
    for (int i = 0; i < c->nfree; i++)
        if (a >= c->lo[i] - 1e-9 && a <= c->hi[i] + 1e-9) return i;
    return -1;
}

static int or_add_pt(or_graph *g, double x, double y, int corner)
{
    if (g->np == g->pcap) {
        g->pcap = g->pcap ? 2 * g->pcap : 1024;
        g->p = realloc(g->p, sizeof *g->p * (size_t)g->pcap);
    }
    or_pt *p = &g->p[g->np];
    p->x = x;
    p->y = y;
    p->corner = corner;
    p->ang = corner >= 0 ? or_rel(&g->c[corner], x - g->c[corner].x, y - g->c[corner].y) : 0;
    return g->np++;
}

static void or_add_edge(or_graph *g, int a, int b, double len)
{
    if (g->ne == g->ecap) {
        g->ecap = g->ecap ? 2 * g->ecap : 4096;
        g->e = realloc(g->e, sizeof *g->e * (size_t)g->ecap);
    }
    g->e[g->ne].a = a;
    g->e[g->ne].b = b;
    g->e[g->ne].len = len;
    g->ne++;
}

/* Is (x, y) on corner i's valid quarter and clear there? */
static bool or_on_arc(const or_graph *g, int i, double x, double y)
{
    const or_corner *c = &g->c[i];
    double dx = x - c->x, dy = y - c->y;
    if (dx * c->qx > 1e-9 || dy * c->qy > 1e-9) return false;
    return or_piece(c, or_rel(c, dx, dy)) >= 0;
}

/* Add the segment between two tangent points when both are valid and it is
 * clear (point indices given; corners -1 for the start and goal). */
static void or_try(or_graph *g, double ax, double ay, int ca, double bx, double by, int cb, int ia,
                   int ib)
{
    if (ca >= 0 && !or_on_arc(g, ca, ax, ay)) return;
    if (cb >= 0 && !or_on_arc(g, cb, bx, by)) return;
    if (!or_seg_ok(g, ax, ay, bx, by)) return;
    if (ia < 0) ia = or_add_pt(g, ax, ay, ca);
    if (ib < 0) ib = or_add_pt(g, bx, by, cb);
    or_add_edge(g, ia, ib, hypot(bx - ax, by - ay));
}

static void or_build(or_graph *g, const tn_map *m, double r)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->r = r;
    g->c = malloc(sizeof *g->c * (size_t)(m->w + 1) * (size_t)(m->h + 1));
    for (int y = 0; y <= m->h; y++)
        for (int x = 0; x <= m->w; x++) {
            int nb = 0, qx = 0, qy = 0;
            for (int k = 0; k < 4; k++) {
                int dx = (k & 1) ? 0 : -1, dy = (k & 2) ? 0 : -1;
                if (or_blocked(m, x + dx, y + dy)) {
                    nb++;
                    qx = dx ? -1 : 1;
                    qy = dy ? -1 : 1;
                }
            }
            if (nb != 1) continue;
            or_corner *c = &g->c[g->nc++];
            c->x = x;
            c->y = y;
            c->qx = qx;
            c->qy = qy;
            /* valid directions: (-qx, -qy) quadrant; start angle (ccw in atan2) */
            double a = atan2(-qy, -qx) - OR_PI / 4;
            c->a0 = a;
            or_corner_pieces(g, c);
        }
    for (int i = 0; i < g->nc; i++) {
        const or_corner *ci = &g->c[i];
        for (int j = i + 1; j < g->nc; j++) {
            const or_corner *cj = &g->c[j];
            double dx = cj->x - ci->x, dy = cj->y - ci->y, d = hypot(dx, dy);
            double ux = dx / d, uy = dy / d, nx = -uy, ny = ux;
            for (int s = -1; s <= 1; s += 2) /* outer */
                or_try(g, ci->x + s * r * nx, ci->y + s * r * ny, i, cj->x + s * r * nx,
                       cj->y + s * r * ny, j, -1, -1);
            if (d > 2 * r) { /* inner: through the midpoint */
                double mx = 0.5 * (ci->x + cj->x), my = 0.5 * (ci->y + cj->y);
                double hm = d / 2, al = acos(r / hm);
                double bx = (mx - ci->x) / hm, by = (my - ci->y) / hm;
                for (int s = -1; s <= 1; s += 2) {
                    double ca = cos(s * al), sa = sin(s * al);
                    double tx = ci->x + r * (bx * ca - by * sa),
                           ty = ci->y + r * (bx * sa + by * ca);
                    or_try(g, tx, ty, i, 2 * mx - tx, 2 * my - ty, j, -1, -1);
                }
            }
        }
    }
    g->nbase = g->np;
    g->nebase = g->ne;
}

static void or_free(or_graph *g)
{
    free(g->c);
    free(g->p);
    free(g->e);
}

typedef struct or_h {
    double d;
    int v;
} or_h;

/* Shortest path length from s to g (both clear of r), or INFINITY. */
static double or_query(or_graph *g, double sx, double sy, double gx, double gy)
{
    double r = g->r;
    g->np = g->nbase;
    g->ne = g->nebase;
    int is = or_add_pt(g, sx, sy, -1), ig = or_add_pt(g, gx, gy, -1);
    if (or_seg_ok(g, sx, sy, gx, gy)) return hypot(gx - sx, gy - sy);
    for (int k = 0; k < 2; k++) {
        double px = k ? gx : sx, py = k ? gy : sy;
        int ip = k ? ig : is;
        for (int i = 0; i < g->nc; i++) {
            const or_corner *c = &g->c[i];
            double dx = px - c->x, dy = py - c->y, d = hypot(dx, dy);
            if (d <= r + 1e-12) {
                /* on the circle: the point itself is the tangent point */
                if (d >= r - 1e-9 && or_on_arc(g, i, px, py))
                    or_add_edge(g, ip, or_add_pt(g, px, py, i), 0);
                continue;
            }
            double al = acos(r / d), bx = dx / d, by = dy / d;
            for (int s = -1; s <= 1; s += 2) {
                double ca = cos(s * al), sa = sin(s * al);
                double tx = c->x + r * (bx * ca - by * sa), ty = c->y + r * (bx * sa + by * ca);
                or_try(g, px, py, -1, tx, ty, i, ip, -1);
            }
        }
    }
    /* arcs: sort the points of each corner by angle */
    int np = g->np;
    int *ord = malloc(sizeof *ord * (size_t)np);
    int n = 0;
    for (int i = 0; i < np; i++)
        if (g->p[i].corner >= 0) ord[n++] = i;
    /* insertion sort by (corner, angle) is too slow; use qsort with keys */
    double *key = malloc(sizeof *key * (size_t)np);
    for (int i = 0; i < n; i++) key[i] = g->p[ord[i]].corner * 10.0 + g->p[ord[i]].ang;
    /* simple index sort */
    int *idx = malloc(sizeof *idx * (size_t)(n + 1));
    for (int i = 0; i < n; i++) idx[i] = i;
    /* shell sort on keys */
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++) {
            int t = idx[i];
            int j = i;
            while (j >= gap && key[idx[j - gap]] > key[t]) {
                idx[j] = idx[j - gap];
                j -= gap;
            }
            idx[j] = t;
        }
    for (int k = 0; k + 1 < n; k++) {
        const or_pt *a = &g->p[ord[idx[k]]], *b = &g->p[ord[idx[k + 1]]];
        if (a->corner != b->corner) continue;
        const or_corner *c = &g->c[a->corner];
        int pa = or_piece(c, a->ang), pb = or_piece(c, b->ang);
        if (pa < 0 || pa != pb) continue;
        or_add_edge(g, ord[idx[k]], ord[idx[k + 1]], r * fabs(b->ang - a->ang));
    }
    free(key);
    free(idx);
    free(ord);
    /* Dijkstra over an adjacency built on the fly (CSR) */
    int *deg = calloc((size_t)np + 1, sizeof *deg);
    for (int i = 0; i < g->ne; i++) {
        deg[g->e[i].a + 1]++;
        deg[g->e[i].b + 1]++;
    }
    for (int i = 0; i < np; i++) deg[i + 1] += deg[i];
    int *adj = malloc(sizeof *adj * (size_t)(2 * g->ne + 1));
    int *fill = malloc(sizeof *fill * (size_t)np);
    memcpy(fill, deg, sizeof *fill * (size_t)np);
    for (int i = 0; i < g->ne; i++) {
        adj[fill[g->e[i].a]++] = i;
        adj[fill[g->e[i].b]++] = i;
    }
    double *dist = malloc(sizeof *dist * (size_t)np);
    for (int i = 0; i < np; i++) dist[i] = INFINITY;
    or_h *h = malloc(sizeof *h * (size_t)(2 * g->ne + 2));
    int hn = 0;
    dist[is] = 0;
    h[hn++] = (or_h){0, is};
    double res = INFINITY;
    while (hn > 0) {
        or_h top = h[0];
        h[0] = h[--hn];
        for (int i = 0;;) { /* sift down */
            int c = 2 * i + 1;
            if (c >= hn) break;
            if (c + 1 < hn && h[c + 1].d < h[c].d) c++;
            if (h[c].d >= h[i].d) break;
            or_h t = h[c];
            h[c] = h[i];
            h[i] = t;
            i = c;
        }
        if (top.d > dist[top.v]) continue;
        if (top.v == ig) {
            res = top.d;
            break;
        }
        for (int k = deg[top.v]; k < deg[top.v + 1]; k++) {
            const or_edge *e = &g->e[adj[k]];
            int o = e->a == top.v ? e->b : e->a;
            double nd = top.d + e->len;
            if (nd < dist[o]) {
                dist[o] = nd;
                int i = hn++;
                h[i] = (or_h){nd, o};
                while (i > 0 && h[(i - 1) / 2].d > h[i].d) { /* sift up */
                    or_h t = h[i];
                    h[i] = h[(i - 1) / 2];
                    h[(i - 1) / 2] = t;
                    i = (i - 1) / 2;
                }
            }
        }
    }
    free(deg);
    free(adj);
    free(fill);
    free(dist);
    free(h);
    return res;
}

#endif
