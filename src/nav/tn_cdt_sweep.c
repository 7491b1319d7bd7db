/* SPDX-License-Identifier: Zlib */
/* tn_cdt_sweep.c - the rectilinear row sweep of tn_cdt (ALGORITHM A in
 * tn_cdt.h): the fast path for tile-map outlines. */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/cdt_impl.h"

/* ------------------------------------------------------------------------ */
/* Rectilinear row sweep (the fast path for tile-map outlines)                */
/* ------------------------------------------------------------------------ */

/* Input it takes (rect_build checks; anything else goes to the general
 * path): integer points sorted by (y, x) with no duplicates, every
 * constraint horizontal or vertical, a horizontal one between points that
 * are consecutive in that order (nothing lies inside it), every point the
 * end of 2 or 4 constraints (closed outlines: what tn_navmesh and
 * bench_gen.c extract from a tile map), spans within RECT_MAX_SPAN and the
 * column capacity, and only TN_CDT_REMOVE_OUTSIDE among the flags.
 *
 * The sweep visits the points row by row, left to right, keeping a FRONT:
 * an x-monotone chain (one vertex per column, found through a bitset of
 * columns) from a sentinel L* on the left, through visited points, to a
 * sentinel R* on the right.  Everything above the front that is inside the
 * domain is triangulated; below it, nothing.  Every front edge knows
 * whether the region just below it is inside (odd depth) and whether it is
 * a constraint.  Triangles are built only inside; outside regions are
 * tracked by the front alone, so the sentinels (outside) never enter a
 * triangle or a predicate and need no coordinates.
 *  - Drop: a new point v goes below the front edge (p, q) straddling its
 *    column, making the triangle (p, q, v); or, right below a front vertex
 *    p, the two triangles (p', p, v) and (p, q, v), p leaving the front (a
 *    vertical constraint p-v is made so).  v is strictly below the front
 *    edge (its row is the lowest, and a front vertex on its row is left of
 *    it), so the triangle is proper; no point is inside it (no front
 *    vertex lies between p and q, every unvisited point is below v's row
 *    or right of v on it).
 *  - Pocket: when v has a horizontal constraint to the previous point u
 *    of its row but u is not v's front neighbour, the front vertices
 *    between them (all on earlier rows) and the segment u-v bound an
 *    x-monotone polygon that every front vertex sees from the segment; it
 *    is triangulated as a constrained Delaunay triangulation directly
 *    (Anglada's apex recursion, as for forced constraints).
 *  - Fill: a front vertex q next to v that forms a peak (above the chord
 *    v-q') sharper than 109.5 degrees is cut off by the triangle (v, q, q')
 *    (after Domiter and Zalik 2008, who use 90), keeping triangles fat and
 *    the front short.
 * A front vertex with a constraint going down to an unvisited point is
 * never removed (fills and pockets skip or refuse it), so every vertical
 * constraint is made by a drop; horizontal ones by a drop or a pocket; a
 * pocket over such a vertex means crossing constraints.  Every triangle
 * built inside makes the edges it turned interior Lawson-legal (strict
 * in-circle test, the four outer edges re-tested after each flip, fixed
 * edges never flipped), so when the sweep ends every unfixed interior edge
 * is locally Delaunay: the result is the constrained Delaunay
 * triangulation of the inside faces, which is exactly what the general
 * path keeps with TN_CDT_REMOVE_OUTSIDE (a face's CDT depends only on its
 * boundary).  Any surprise (a point inside a vertical constraint, crossing
 * constraints, a constraint not made, an inside region left open below the
 * last row) abandons the sweep. */

/* Per point bits: its constraints (to the previous and the next point of
 * its row, to points above and below: ud[2v], ud[2v+1]), then its state
 * while on the front. */
enum {
    RF_LEFT = 1,
    RF_RIGHT = 2,
    RF_UP = 4,
    RF_DOWN = 8,
    RF_PEND = 16,  /* a constraint goes down from this front vertex to an unvisited point */
    RF_BELOW = 32, /* the region just below the front edge (v, next[v]) is inside */
    RF_FIXED = 64, /* the front edge (v, next[v]) is a constraint */
    RF_KEEP = RF_LEFT | RF_RIGHT | RF_UP | RF_DOWN | RF_PEND,
};

typedef struct rsweep {
    const int32_t *P; /* the caller's coordinates; L* = n and R* = n + 1 have none */
    int32_t *tris, *he, *next, *prev, *above, *ud, *stack, *colv;
    int32_t *chain, *out, *si, *sj, *sb; /* pocket scratch, n + 1 entries each */
    uint8_t *fixed, *fl;
    uint64_t *bits;
    int n, minx, ntris, stack_cap, nfixed, fail;
    int all, y0, y1; /* TN_CDT_RECT_DOMAIN: inside = the rectangle rows y0..y1 */
    long long flips;
} rsweep;

/* Whether the region below a new front edge ending at v is inside, given
 * the region above it (in) and whether the edge is a constraint (f): the
 * even-odd rule, or with TN_CDT_RECT_DOMAIN only the first and last rows'
 * constraints (the rectangle's top and bottom) change it. */
static inline int rs_below(const rsweep *s, int in, int f, int v)
{
    if (!s->all) return in ^ f;
    if (!f) return in;
    int y = s->P[2 * v + 1];
    return y == s->y0 ? 1 : y == s->y1 ? 0 : in;
}

static inline int64_t rs_orient(const int32_t *P, int a, int b, int c)
{
    int64_t ax = P[2 * a], ay = P[2 * a + 1];
    return (P[2 * b] - ax) * (P[2 * c + 1] - ay) - (P[2 * b + 1] - ay) * (P[2 * c] - ax);
}

/* d strictly inside the circle through the counter-clockwise (a, b, c). */
static inline int rs_incircle(const int32_t *P, int a, int b, int c, int d)
{
    int64_t dx = P[2 * d], dy = P[2 * d + 1];
    int64_t adx = P[2 * a] - dx, ady = P[2 * a + 1] - dy;
    int64_t bdx = P[2 * b] - dx, bdy = P[2 * b + 1] - dy;
    int64_t cdx = P[2 * c] - dx, cdy = P[2 * c + 1] - dy;
    int64_t al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
    return al * (bdx * cdy - cdx * bdy) + bl * (cdx * ady - adx * cdy) +
               cl * (adx * bdy - bdx * ady) >
           0;
}

/* Columns: L* is column 0, point x is column x - minx + 1. */
static inline void rs_col_set(rsweep *s, int v, int col)
{
    s->bits[col >> 6] |= 1ull << (col & 63);
    s->colv[col] = v;
}

static inline void rs_col_clear(rsweep *s, int v)
{
    int col = s->P[2 * v] - s->minx + 1;
    s->bits[col >> 6] &= ~(1ull << (col & 63));
}

static inline int top_bit(uint64_t m)
{
#if defined(__GNUC__)
    return 63 - __builtin_clzll(m);
#else
    int k = 0;
    while (m >>= 1) k++;
    return k;
#endif
}

/* The rightmost column <= col holding a front vertex (0, L*'s, at least). */
static inline int rs_col_find(const rsweep *s, int col)
{
    int w = col >> 6;
    uint64_t m = s->bits[w] & (~0ull >> (63 - (col & 63)));
    while (!m) m = s->bits[--w];
    return (w << 6) + top_bit(m);
}

static inline int rs_add_tri(rsweep *s, int a, int b, int c, int ha, int hb, int hc)
{
    int t = 3 * s->ntris++;
    int32_t *T = s->tris, *H = s->he;
    T[t] = a, T[t + 1] = b, T[t + 2] = c;
    H[t] = ha, H[t + 1] = hb, H[t + 2] = hc;
    if (ha >= 0) H[ha] = t;
    if (hb >= 0) H[hb] = t + 1;
    if (hc >= 0) H[hc] = t + 2;
    s->fixed[t] = s->fixed[t + 1] = s->fixed[t + 2] = 0;
    return t;
}

/* Lawson flips of the half-edges on the stack (top entries): each one not
 * fixed, with a triangle on both sides, and the fourth point strictly
 * inside the circle is flipped, and the four outer edges of its
 * quadrilateral go back on the stack (a flip changes only their two
 * triangles, so every other edge keeps its verdict).  A boundary
 * half-edge moved by a flip may be a front edge's: `above` follows it. */
static void rs_legalize(rsweep *s, int top)
{
    int32_t *T = s->tris, *H = s->he, *st = s->stack;
    uint8_t *F = s->fixed;
    while (top > 0) {
        int a = st[--top];
        int b = H[a];
        if ((b < 0) | F[a]) continue; /* one branch, not two */
        int ar = prev_he(a), al = next_he(a), bl = prev_he(b), br = next_he(b);
        int p0 = T[ar], pr = T[a], pl = T[al], p1 = T[bl];
        if (!rs_incircle(s->P, p0, pr, pl, p1)) continue;
        /* (p0 pr pl) + (pl pr p1) become (p0 p1 pl) + (p1 p0 pr): see legalize_impl */
        T[a] = p1;
        T[b] = p0;
        int hbl = H[bl], har = H[ar];
        uint8_t fbl = F[bl], far = F[ar];
        if (hbl < 0 && s->above[pl] == bl) s->above[pl] = a;
        if (har < 0 && s->above[pr] == ar) s->above[pr] = b;
        H[a] = hbl;
        if (hbl >= 0) H[hbl] = a;
        H[b] = har;
        if (har >= 0) H[har] = b;
        H[ar] = bl, H[bl] = ar;
        F[a] = fbl, F[b] = far, F[ar] = F[bl] = 0;
        s->flips++;
        if (top + 4 > s->stack_cap) { /* never seen; the general path is safe */
            s->fail = 1;
            return;
        }
        st[top++] = a, st[top++] = al, st[top++] = b, st[top++] = br;
    }
}

/* The new front edge (u, v) (u left of v) replacing whatever lay between
 * them; `tri_he` is its half-edge in the triangle above, or -1. */
static inline void rs_link(rsweep *s, int u, int v, int tri_he, int below, int fixed)
{
    s->next[u] = v;
    s->prev[v] = u;
    s->above[u] = tri_he;
    s->fl[u] = (uint8_t)((s->fl[u] & RF_KEEP) | (below ? RF_BELOW : 0) | (fixed ? RF_FIXED : 0));
}

/* Close the pocket above the constraint u - v (u the previous point of v's
 * row): see the section comment. */
static void rs_pocket(rsweep *s, int u, int v)
{
    const int32_t *P = s->P;
    int32_t *chain = s->chain, *out = s->out, *si = s->si, *sj = s->sj, *sb = s->sb;
    int inside = s->fl[u] & RF_BELOW, k = 0;
    for (int w = u; w != v; w = s->next[w]) {
        if (k > s->n || (k > 0 && (s->fl[w] & RF_PEND))) { /* a constraint crosses u-v */
            s->fail = 1;
            return;
        }
        chain[k] = w;
        out[k] = 2 * s->above[w] + !!(s->fl[w] & RF_FIXED); /* above = -1: -2 or -1 */
        if (k > 0) rs_col_clear(s, w);
        k++;
    }
    chain[k] = v;
    s->nfixed++;
    if (!inside) { /* the region above u-v is outside: nothing to build */
        rs_link(s, u, v, -1, rs_below(s, 0, 1, v), 1);
        return;
    }
    int32_t *H = s->he;
    uint8_t *F = s->fixed;
    int top = 0, nst = 0, base = -1;
    si[top] = 0, sj[top] = k, sb[top] = -1, top++;
    while (top > 0) {
        top--;
        int i = si[top], j = sj[top], bt = sb[top];
        int ci = i + 1;
        for (int q = i + 2; q < j; q++)
            if (rs_incircle(P, chain[j], chain[i], chain[ci], chain[q])) ci = q;
        /* (chain[j], chain[i], chain[ci]): the base chain[j] -> chain[i] below */
        int t = rs_add_tri(s, chain[j], chain[i], chain[ci], bt, -1, -1);
        if (bt < 0) base = t;
        if (ci == i + 1) {
            int e = out[i];
            H[t + 1] = e < 0 ? -1 : e / 2;
            if (e >= 0) H[e / 2] = t + 1, s->stack[nst++] = t + 1;
            F[t + 1] = (uint8_t)(e & 1);
        } else {
            si[top] = i, sj[top] = ci, sb[top] = t + 1, top++;
        }
        if (ci == j - 1) {
            int e = out[ci];
            H[t + 2] = e < 0 ? -1 : e / 2;
            if (e >= 0) H[e / 2] = t + 2, s->stack[nst++] = t + 2;
            F[t + 2] = (uint8_t)(e & 1);
        } else {
            si[top] = ci, sj[top] = j, sb[top] = t + 2, top++;
        }
    }
    F[base] = 1;
    rs_link(s, u, v, base, rs_below(s, 1, 1, v), 1);
    /* the pocket is constrained Delaunay inside; only its rim (the old
     * front edges) needs testing against the triangles above */
    rs_legalize(s, nst);
}

/* q is a peak strictly above the chord a - b (a left of b) and sharp
 * enough to cut off: the angle at q under 109.5 degrees (cosine > -1/3).
 * Measured on the benchmark maps: 25% fewer flips than with 90 degrees
 * (Domiter and Zalik's choice), 4% fewer instructions; wider angles make
 * fat-enough triangles that get flipped anyway.  Exact in int64 within
 * RECT_MAX_SPAN (squared lengths <= 2^29, products <= 2^58). */
static inline int rs_peak(const int32_t *P, int a, int q, int b)
{
    if (rs_orient(P, a, q, b) <= 0) return 0;
    int64_t ux = P[2 * a] - P[2 * q], uy = P[2 * a + 1] - P[2 * q + 1];
    int64_t wx = P[2 * b] - P[2 * q], wy = P[2 * b + 1] - P[2 * q + 1];
    int64_t dot = ux * wx + uy * wy;
    return dot >= 0 || 9 * dot * dot < (ux * ux + uy * uy) * (wx * wx + wy * wy);
}

/* Cut off sharp peaks next to v (inside regions only). */
static void rs_fill(rsweep *s, int v)
{
    const int32_t *P = s->P;
    for (;;) { /* to the right: (v, q, q') */
        int q = s->next[v];
        if ((q >= s->n) | (s->fl[q] & RF_PEND) | !(s->fl[v] & RF_BELOW)) break;
        int q2 = s->next[q];
        if (q2 >= s->n || !rs_peak(P, v, q, q2)) break; /* R* is never inside */
        if (!(s->fl[q] & RF_BELOW)) { /* cannot happen: q has no constraint going down */
            s->fail = 1;
            return;
        }
        int t = rs_add_tri(s, v, q, q2, s->above[v], s->above[q], -1);
        s->fixed[t] = !!(s->fl[v] & RF_FIXED);
        s->fixed[t + 1] = !!(s->fl[q] & RF_FIXED);
        rs_link(s, v, q2, t + 2, 1, 0);
        rs_col_clear(s, q);
        s->stack[0] = t, s->stack[1] = t + 1;
        rs_legalize(s, 2);
    }
    for (;;) { /* to the left: (q', q, v) */
        int q = s->prev[v];
        if ((q >= s->n) | (s->fl[q] & RF_PEND) | !(s->fl[q] & RF_BELOW)) break;
        int q2 = s->prev[q];
        if (q2 >= s->n || !rs_peak(P, q2, q, v)) break;
        if (!(s->fl[q2] & RF_BELOW)) {
            s->fail = 1;
            return;
        }
        int t = rs_add_tri(s, q2, q, v, s->above[q2], s->above[q], -1);
        s->fixed[t] = !!(s->fl[q2] & RF_FIXED);
        s->fixed[t + 1] = !!(s->fl[q] & RF_FIXED);
        rs_link(s, q2, v, t + 2, 1, 0);
        rs_col_clear(s, q);
        s->stack[0] = t, s->stack[1] = t + 1;
        rs_legalize(s, 2);
    }
}

/* Add point v (the next in (y, x) order) below the front. */
static void rs_drop(rsweep *s, int v)
{
    const int fv = s->fl[v], col = s->P[2 * v] - s->minx + 1;
    const int left = fv & RF_LEFT ? v - 1 : -1, up = fv & RF_UP ? s->ud[2 * v] : -1;
    const int pc = rs_col_find(s, col), p = s->colv[pc];
    if (pc == col) {
        /* right below p: (pp, p, v) and (p, q, v); p leaves the front */
        int wall = up == p;
        if (((up >= 0) | (s->fl[p] & RF_PEND)) && !wall) {
            s->fail = 1; /* v inside a vertical constraint, or one not made */
            return;
        }
        int pp = s->prev[p], q = s->next[p];
        int in1 = !!(s->fl[pp] & RF_BELOW), in2 = !!(s->fl[p] & RF_BELOW);
        /* only a constraint separates inside from outside (with
         * TN_CDT_RECT_DOMAIN: only the rectangle's left or right side) */
        int sep = s->all ? wall & ((pp >= s->n) | (q >= s->n)) : wall;
        if ((in1 ^ in2) != sep) {
            s->fail = 1;
            return;
        }
        int t1 = -1, t2 = -1, top = 0, f1 = left == pp;
        if (in1) {
            t1 = rs_add_tri(s, pp, p, v, s->above[pp], -1, -1);
            s->fixed[t1] = !!(s->fl[pp] & RF_FIXED);
            s->fixed[t1 + 1] = (uint8_t)wall;
            s->fixed[t1 + 2] = (uint8_t)f1;
            s->stack[top++] = t1;
        }
        if (in2) {
            t2 = rs_add_tri(s, p, q, v, s->above[p], -1, t1 < 0 ? -1 : t1 + 1);
            s->fixed[t2] = !!(s->fl[p] & RF_FIXED);
            s->fixed[t2 + 2] = (uint8_t)wall;
            s->stack[top++] = t2;
            if (t1 >= 0) s->stack[top++] = t2 + 2; /* p-v between two new triangles */
        }
        s->nfixed += wall + f1;
        rs_link(s, pp, v, t1 < 0 ? -1 : t1 + 2, rs_below(s, in1, f1, v), f1);
        rs_link(s, v, q, t2 < 0 ? -1 : t2 + 1, in2, 0);
        s->colv[col] = v; /* p's column */
        rs_legalize(s, top);
    } else {
        /* below the front edge (p, q): the triangle (p, q, v) */
        if (up >= 0) { /* its upper end left the front: impossible unless crossed */
            s->fail = 1;
            return;
        }
        int q = s->next[p];
        int in = !!(s->fl[p] & RF_BELOW), f = left == p, t = -1;
        if (in) {
            t = rs_add_tri(s, p, q, v, s->above[p], -1, -1);
            s->fixed[t] = !!(s->fl[p] & RF_FIXED);
            s->fixed[t + 2] = (uint8_t)f;
        }
        s->nfixed += f;
        rs_link(s, p, v, t < 0 ? -1 : t + 2, rs_below(s, in, f, v), f);
        rs_link(s, v, q, t < 0 ? -1 : t + 1, in, 0);
        rs_col_set(s, v, col);
        if (in) {
            s->stack[0] = t;
            rs_legalize(s, 1);
        }
    }
    if (s->fail) return;
    if ((left >= 0) & (s->prev[v] != left)) {
        rs_pocket(s, left, v);
        if (s->fail) return;
    }
    s->fl[v] |= (uint8_t)((fv & RF_DOWN) * (RF_PEND / RF_DOWN));
    rs_fill(s, v);
}

/* The fast path: build the mesh with the row sweep and return 1, or return
 * 0 (nothing published) when the input is not for it or it hit a
 * surprise.  Coordinates are already checked against TN_CDT_MAX_COORD. */
int rect_build(tn_cdt *c, const int32_t *xy, int n, const int32_t *segs, int nsegs, int all)
{
    if (n < 3 || nsegs < 2 || n > c->max_points) return 0;
    int32_t minx = xy[0], maxx = xy[0];
    for (int i = 1; i < n; i++) {
        int32_t x = xy[2 * i], y = xy[2 * i + 1], px = xy[2 * i - 2], py = xy[2 * i - 1];
        if (y < py || (y == py && x <= px)) return 0; /* not sorted by (y, x), or a duplicate */
        minx = x < minx ? x : minx;
        maxx = x > maxx ? x : maxx;
    }
    /* exact predicates; columns 0 (L*) to spanx + 1 */
    int64_t spanx = (int64_t)maxx - minx, spany = (int64_t)xy[2 * n - 1] - xy[1];
    if (spanx > RECT_MAX_SPAN || spany > RECT_MAX_SPAN || spanx + 2 > c->col_cap) return 0;
    /* each point's constraints: direction bits, and the points above and
     * below (a horizontal one joins consecutive points: nothing inside) */
    uint8_t *fl = c->pflag;
    int32_t *ud = c->tmp_a; /* 2n <= tmp_cap */
    memset(fl, 0, (size_t)n + 2);
    for (int k = 0; k < nsegs; k++) {
        int a = segs[2 * k], b = segs[2 * k + 1];
        if (a > b) {
            int t = a;
            a = b;
            b = t;
        }
        int fa, fb;
        if (xy[2 * a + 1] == xy[2 * b + 1] && b == a + 1) {
            fa = RF_RIGHT, fb = RF_LEFT;
        } else if (xy[2 * a] == xy[2 * b] && a != b) {
            fa = RF_DOWN, fb = RF_UP;
            ud[2 * a + 1] = b;
            ud[2 * b] = a;
        } else {
            return 0; /* slanted, empty, or with a point inside */
        }
        if ((fl[a] & fa) | (fl[b] & fb)) return 0; /* overlapping or repeated */
        fl[a] |= (uint8_t)fa;
        fl[b] |= (uint8_t)fb;
    }
    int odd = 0; /* a lone point (no constraint) or an open outline (odd count) */
    for (int i = 0; i < n; i++) {
        int d = fl[i] & 15;
        /* bit d of 0x6996: d has an odd bit count (allowed on the sides
         * of a TN_CDT_RECT_DOMAIN rectangle: T-junctions) */
        odd |= (d == 0) | ((all == 0) & (0x6996 >> d));
    }
    if (odd) return 0;
    const int32_t y0 = xy[1], y1 = xy[2 * n - 1];
    if (all) { /* the bounding rectangle's sides are all constraints */
        for (int i = 0; i < n; i++) {
            int32_t x = xy[2 * i], y = xy[2 * i + 1];
            int row_first = i == 0 || xy[2 * i - 1] != y;
            int row_last = i == n - 1 || xy[2 * i + 3] != y;
            if (y == y0 || y == y1) {
                if ((row_first && x != minx) || (row_last && x != maxx)) return 0;
                if (!row_last && !(fl[i] & RF_RIGHT)) return 0;
            }
            if ((x == minx || x == maxx) && y != y1 && !(fl[i] & RF_DOWN)) return 0;
        }
    }

    const int L = n, R = n + 1; /* the artificial ends of the front: never in a triangle */
    rsweep s;
    memset(&s, 0, sizeof s);
    s.P = xy;
    s.tris = c->tris, s.he = c->he, s.fixed = c->fixed;
    s.next = c->hull_next, s.prev = c->hull_prev, s.above = c->hull_tri;
    s.ud = ud, s.fl = fl;
    s.stack = c->tmp_b, s.stack_cap = c->tmp_cap;
    s.colv = c->colv, s.bits = c->colbits;
    s.chain = c->ids, s.out = c->ids2, s.si = c->loc, s.sj = c->vert_edge, s.sb = c->stack;
    s.n = n, s.minx = minx;
    s.all = all, s.y0 = y0, s.y1 = y1;
    memset(s.bits, 0, sizeof(uint64_t) * (size_t)((spanx + 1) / 64 + 1));
    s.next[L] = 0, s.prev[0] = L, s.next[0] = R, s.prev[R] = 0;
    s.above[L] = s.above[0] = -1;
    fl[0] |= (uint8_t)((fl[0] & RF_DOWN) * (RF_PEND / RF_DOWN));
    rs_col_set(&s, L, 0);
    rs_col_set(&s, 0, xy[0] - minx + 1);
    for (int v = 1; v < n && !s.fail; v++) rs_drop(&s, v);
    if (s.fail || s.nfixed != nsegs) return 0;
    for (int v = L; v != R; v = s.next[v]) /* closed outlines leave no inside below */
        if (fl[v] & RF_BELOW) return 0;

    /* publish: half-edges -> neighbour triangles, vert_tri, remap */
    int nt = s.ntris;
    int32_t *he = c->he, *tris = c->tris;
    for (int e = 0; e < 3 * nt; e++) { /* -1 stays -1, without a branch */
        int32_t h = he[e], neg = -(int32_t)(h < 0);
        he[e] = (int32_t)((uint32_t)h / 3u) | neg;
    }
    for (int i = 0; i < n; i++) c->vert_tri[i] = -1, c->remap[i] = i;
    for (int t = 0; t < nt; t++) {
        c->vert_tri[tris[3 * t]] = t;
        c->vert_tri[tris[3 * t + 1]] = t;
        c->vert_tri[tris[3 * t + 2]] = t;
    }
    c->ntris = c->nout = nt;
    c->npoints = n;
    memset(&c->st, 0, sizeof c->st);
    c->st.points = n;
    c->st.flips = s.flips;
    c->st.segments_present = nsegs;
    c->st.ntris_hull = nt;
    c->st.rectilinear = 1;
    return 1;
}
