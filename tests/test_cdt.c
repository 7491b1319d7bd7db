/* Constrained Delaunay triangulation, checked against brute-force references:
 * exact predicates written independently of the library (int64 / __int128
 * here, a small big-integer for the floating-point entry), the empty-circle
 * property by brute force, every constraint present as a chain of fixed
 * edges, a proper triangulation (orientation, adjacency, area, Euler), and
 * the even-odd removal against the tile map it came from. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_cdt.h"
#include "tu_nav.h"
#include "tn_rng.h"

/* ------------------------------------------------------------------------ */
/* Reference exact predicates                                                 */
/* ------------------------------------------------------------------------ */

/* Input under test: coordinates as doubles; `is_int` says they are integers
 * (then the int64/__int128 reference is exact). Doubles use the big-integer
 * reference below. */
typedef struct input {
    int n;
    double *xy;
    int nsegs;
    int32_t *segs;
    int is_int;
} input;

/* --- a tiny signed big integer for the floating-point reference --------- */
/* Every double in the allowed range is m * 2^e with |m| < 2^53 and
 * e >= -152 (TN_CDT_MIN_COORD_D ~ 2^-99.7, minus 53 bits); we scale by
 * 2^160 so every coordinate is an integer of at most 262 bits, and products
 * of four differences fit in 1100 bits. Limbs: 32 bits, little endian. */
#define BIG_LIMBS 40
typedef struct big {
    int neg;
    uint32_t l[BIG_LIMBS];
} big;

static void big_from_double(big *r, double v)
{
    memset(r, 0, sizeof *r);
    if (v == 0.0) return;
    r->neg = v < 0;
    int e;
    double m = frexp(fabs(v), &e);        /* v = m * 2^e, m in [0.5, 1) */
    uint64_t mi = (uint64_t)ldexp(m, 53); /* exact */
    int shift = e - 53 + 160;             /* value * 2^160 = mi * 2^shift */
    assert_true(shift >= 0);
    for (int b = 0; b < 64; b++)
        if (mi >> b & 1) {
            int pos = b + shift;
            assert_true(pos / 32 < BIG_LIMBS);
            r->l[pos / 32] |= 1u << (pos % 32);
        }
}

static int big_cmp_mag(const big *a, const big *b)
{
    for (int i = BIG_LIMBS - 1; i >= 0; i--)
        if (a->l[i] != b->l[i]) return a->l[i] > b->l[i] ? 1 : -1;
    return 0;
}

static int big_is_zero(const big *a)
{
    for (int i = 0; i < BIG_LIMBS; i++)
        if (a->l[i]) return 0;
    return 1;
}

static void mag_add(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint64_t carry = 0;
    for (int i = 0; i < BIG_LIMBS; i++) {
        uint64_t s = (uint64_t)a[i] + b[i] + carry;
        r[i] = (uint32_t)s;
        carry = s >> 32;
    }
    assert_true(carry == 0);
}

static void mag_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) /* |a| >= |b| */
{
    int64_t borrow = 0;
    for (int i = 0; i < BIG_LIMBS; i++) {
        int64_t s = (int64_t)a[i] - b[i] - borrow;
        borrow = s < 0;
        r[i] = (uint32_t)(s + (borrow ? ((int64_t)1 << 32) : 0));
    }
}

static big big_add(big a, big b)
{
    big r;
    memset(&r, 0, sizeof r);
    if (a.neg == b.neg) {
        mag_add(r.l, a.l, b.l);
        r.neg = a.neg;
    } else if (big_cmp_mag(&a, &b) >= 0) {
        mag_sub(r.l, a.l, b.l);
        r.neg = a.neg;
    } else {
        mag_sub(r.l, b.l, a.l);
        r.neg = b.neg;
    }
    if (big_is_zero(&r)) r.neg = 0;
    return r;
}

static big big_neg(big a)
{
    if (!big_is_zero(&a)) a.neg = !a.neg;
    return a;
}

static big big_sub(big a, big b) { return big_add(a, big_neg(b)); }

static big big_mul(big a, big b)
{
    uint64_t acc[2 * BIG_LIMBS];
    memset(acc, 0, sizeof acc);
    big r;
    memset(&r, 0, sizeof r);
    int blo = 0, bhi = BIG_LIMBS; /* only the nonzero span of b */
    while (blo < BIG_LIMBS && !b.l[blo]) blo++;
    while (bhi > blo && !b.l[bhi - 1]) bhi--;
    for (int i = 0; i < BIG_LIMBS; i++) {
        if (!a.l[i]) continue;
        uint64_t carry = 0;
        for (int j = 0; j < BIG_LIMBS; j++) {
            if (j < blo || (j >= bhi && !carry)) continue;
            uint64_t cur = acc[i + j] + (uint64_t)a.l[i] * b.l[j] + carry;
            acc[i + j] = cur & 0xffffffffu;
            carry = cur >> 32;
        }
        for (int k = i + BIG_LIMBS; carry; k++) { /* (never: the j loop runs to the top) */
            assert_true(k < 2 * BIG_LIMBS);
            uint64_t cur = acc[k] + carry;
            acc[k] = cur & 0xffffffffu;
            carry = cur >> 32;
        }
    }
    for (int i = 0; i < 2 * BIG_LIMBS; i++) {
        if (i < BIG_LIMBS)
            r.l[i] = (uint32_t)acc[i];
        else
            assert_true(acc[i] == 0);
    }
    r.neg = a.neg != b.neg && !big_is_zero(&r);
    return r;
}

static int big_sign(const big *a) { return big_is_zero(a) ? 0 : (a->neg ? -1 : 1); }

/* --- the reference predicates ------------------------------------------- */

static int ref_orient(const input *in, int a, int b, int p)
{
    const double *A = in->xy + 2 * a, *B = in->xy + 2 * b, *P = in->xy + 2 * p;
    if (in->is_int) {
        int64_t l = ((int64_t)B[0] - (int64_t)A[0]) * ((int64_t)P[1] - (int64_t)A[1]);
        int64_t r = ((int64_t)B[1] - (int64_t)A[1]) * ((int64_t)P[0] - (int64_t)A[0]);
        return (l > r) - (l < r);
    }
    big ax, ay, bx, by, px, py;
    big_from_double(&ax, A[0]);
    big_from_double(&ay, A[1]);
    big_from_double(&bx, B[0]);
    big_from_double(&by, B[1]);
    big_from_double(&px, P[0]);
    big_from_double(&py, P[1]);
    big d = big_sub(big_mul(big_sub(bx, ax), big_sub(py, ay)),
                    big_mul(big_sub(by, ay), big_sub(px, ax)));
    return big_sign(&d);
}

/* > 0 when d is strictly inside the circle through ccw (a, b, c). */
static int ref_incircle(const input *in, int ia, int ib, int ic, int id)
{
    const double *a = in->xy + 2 * ia, *b = in->xy + 2 * ib, *c = in->xy + 2 * ic,
                 *d = in->xy + 2 * id;
    if (in->is_int) {
        __int128 adx = (int64_t)a[0] - (int64_t)d[0], ady = (int64_t)a[1] - (int64_t)d[1];
        __int128 bdx = (int64_t)b[0] - (int64_t)d[0], bdy = (int64_t)b[1] - (int64_t)d[1];
        __int128 cdx = (int64_t)c[0] - (int64_t)d[0], cdy = (int64_t)c[1] - (int64_t)d[1];
        __int128 al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
        __int128 det = al * (bdx * cdy - cdx * bdy) + bl * (cdx * ady - adx * cdy) +
                       cl * (adx * bdy - bdx * ady);
        return (det > 0) - (det < 0);
    }
    big v[8];
    big_from_double(&v[0], a[0]);
    big_from_double(&v[1], a[1]);
    big_from_double(&v[2], b[0]);
    big_from_double(&v[3], b[1]);
    big_from_double(&v[4], c[0]);
    big_from_double(&v[5], c[1]);
    big_from_double(&v[6], d[0]);
    big_from_double(&v[7], d[1]);
    big adx = big_sub(v[0], v[6]), ady = big_sub(v[1], v[7]);
    big bdx = big_sub(v[2], v[6]), bdy = big_sub(v[3], v[7]);
    big cdx = big_sub(v[4], v[6]), cdy = big_sub(v[5], v[7]);
    big al = big_add(big_mul(adx, adx), big_mul(ady, ady));
    big bl = big_add(big_mul(bdx, bdx), big_mul(bdy, bdy));
    big cl = big_add(big_mul(cdx, cdx), big_mul(cdy, cdy));
    big t1 = big_mul(al, big_sub(big_mul(bdx, cdy), big_mul(cdx, bdy)));
    big t2 = big_mul(bl, big_sub(big_mul(cdx, ady), big_mul(adx, cdy)));
    big t3 = big_mul(cl, big_sub(big_mul(adx, bdy), big_mul(bdx, ady)));
    big det = big_add(big_add(t1, t2), t3);
    return big_sign(&det);
}

static int same_pt(const input *in, int a, int b)
{
    return in->xy[2 * a] == in->xy[2 * b] && in->xy[2 * a + 1] == in->xy[2 * b + 1];
}

/* p on the closed segment a-b (exact). */
static int ref_on_segment(const input *in, int a, int b, int p)
{
    if (ref_orient(in, a, b, p) != 0) return 0;
    const double *A = in->xy + 2 * a, *B = in->xy + 2 * b, *P = in->xy + 2 * p;
    return P[0] >= fmin(A[0], B[0]) && P[0] <= fmax(A[0], B[0]) && P[1] >= fmin(A[1], B[1]) &&
           P[1] <= fmax(A[1], B[1]);
}

/* ------------------------------------------------------------------------ */
/* The checker                                                                */
/* ------------------------------------------------------------------------ */

typedef struct check_opts {
    int brute_delaunay; /* O(T * n) empty-circle check (with visibility when constrained) */
    int removed;        /* built with TN_CDT_REMOVE_OUTSIDE: skip hull/Euler/chain checks */
} check_opts;

static int64_t edge_key(int a, int b)
{
    return a < b ? (int64_t)a << 32 | (uint32_t)b : (int64_t)b << 32 | (uint32_t)a;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Number of unique points on the convex hull boundary (collinear included);
 * monotone chain over the representatives, exact. */
static const input *sort_in;
static int cmp_pt(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    const double *A = sort_in->xy + 2 * a, *B = sort_in->xy + 2 * b;
    if (A[0] != B[0]) return A[0] < B[0] ? -1 : 1;
    if (A[1] != B[1]) return A[1] < B[1] ? -1 : 1;
    return 0;
}

static int cmp_pt_idx(const void *x, const void *y)
{
    int c = cmp_pt(x, y);
    if (c) return c;
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

static int hull_boundary_count(const input *in, const int32_t *remap)
{
    int *p = malloc(sizeof(int) * (size_t)(in->n + 1)), m = 0;
    int *h = malloc(sizeof(int) * (size_t)(2 * in->n + 2));
    for (int i = 0; i < in->n; i++)
        if (remap[i] == i) p[m++] = i;
    sort_in = in;
    qsort(p, (size_t)m, sizeof *p, cmp_pt);
    int k = 0;
    /* keep collinear points: pop only on a strict right turn */
    for (int i = 0; i < m; i++) {
        while (k >= 2 && ref_orient(in, h[k - 2], h[k - 1], p[i]) < 0) k--;
        h[k++] = p[i];
    }
    for (int i = m - 2, lo = k + 1; i >= 0; i--) {
        while (k >= lo && ref_orient(in, h[k - 2], h[k - 1], p[i]) < 0) k--;
        h[k++] = p[i];
    }
    int count = k - 1;
    free(p);
    free(h);
    return count;
}

/* Twice the signed area of triangle (a, b, c), in the integer case exact. */
static double area2(const input *in, int a, int b, int c)
{
    const double *A = in->xy + 2 * a, *B = in->xy + 2 * b, *C = in->xy + 2 * c;
    return (B[0] - A[0]) * (C[1] - A[1]) - (B[1] - A[1]) * (C[0] - A[0]);
}

static void check_mesh(const input *in, const tn_cdt_mesh *m, check_opts o)
{
    const int T = m->ntris, n = in->n;
    assert_int_equal(m->npoints, n);
    /* remap: to the first equal point (sort by coordinates, then index) */
    {
        int *ord = malloc(sizeof(int) * (size_t)(n + 1));
        for (int i = 0; i < n; i++) ord[i] = i;
        sort_in = in;
        qsort(ord, (size_t)n, sizeof *ord, cmp_pt_idx);
        for (int k = 0; k < n; k++) {
            int i = ord[k];
            int first = (k == 0 || !same_pt(in, ord[k - 1], i)) ? i : m->remap[ord[k - 1]];
            assert_int_equal(m->remap[i], first);
        }
        free(ord);
    }
    /* triangles: representatives, counter-clockwise (exact) */
    for (int t = 0; t < T; t++) {
        for (int k = 0; k < 3; k++) {
            int v = m->tri[3 * t + k];
            assert_true(v >= 0 && v < n);
            assert_int_equal(m->remap[v], v);
        }
        if (ref_orient(in, m->tri[3 * t], m->tri[3 * t + 1], m->tri[3 * t + 2]) <= 0)
            fail_msg("triangle %d (%d %d %d) is not counter-clockwise", t, m->tri[3 * t],
                     m->tri[3 * t + 1], m->tri[3 * t + 2]);
    }
    /* adjacency symmetric, neighbours share the edge reversed, fixed symmetric */
    int nbound = 0;
    for (int t = 0; t < T; t++)
        for (int k = 0; k < 3; k++) {
            int a = m->tri[3 * t + k], b = m->tri[3 * t + (k + 1) % 3];
            int u = m->adj[3 * t + k];
            if (u == -1) {
                nbound++;
                continue;
            }
            assert_true(u >= 0 && u < T && u != t);
            int found = 0;
            for (int j = 0; j < 3; j++)
                if (m->tri[3 * u + j] == b && m->tri[3 * u + (j + 1) % 3] == a) {
                    found = 1;
                    assert_int_equal(m->adj[3 * u + j], t);
                    assert_int_equal(m->fixed[3 * u + j], m->fixed[3 * t + k]);
                }
            if (!found)
                fail_msg("triangle %d edge %d: neighbour %d lacks edge %d-%d", t, k, u, b, a);
        }
    /* every directed edge at most once (no overlap along edges) */
    int64_t *de = malloc(sizeof(int64_t) * (size_t)(3 * T + 1));
    for (int t = 0; t < T; t++)
        for (int k = 0; k < 3; k++)
            de[3 * t + k] =
                (int64_t)m->tri[3 * t + k] << 32 | (uint32_t)m->tri[3 * t + (k + 1) % 3];
    qsort(de, (size_t)(3 * T), sizeof *de, cmp_i64);
    for (int i = 1; i < 3 * T; i++)
        if (de[i] == de[i - 1]) fail_msg("directed edge used twice: overlapping triangles");
    free(de);
    /* vert_tri */
    int nrep = 0, nused = 0;
    char *used = calloc((size_t)n + 1, 1);
    for (int t = 0; t < 3 * T; t++) used[m->tri[t]] = 1;
    for (int i = 0; i < n; i++) {
        int vt = m->vert_tri[i];
        if (m->remap[i] == i) nrep++;
        if (used[i]) nused++;
        if (m->remap[i] != i || !used[i]) {
            assert_int_equal(vt, -1);
            continue;
        }
        assert_true(vt >= 0 && vt < T);
        assert_true(m->tri[3 * vt] == i || m->tri[3 * vt + 1] == i || m->tri[3 * vt + 2] == i);
    }
    /* fixed edges, sorted, for the constraint and visibility checks */
    int64_t *fx = malloc(sizeof(int64_t) * (size_t)(3 * T + 1));
    int nfx = 0;
    for (int t = 0; t < 3 * T; t++)
        if (m->fixed[t]) fx[nfx++] = edge_key(m->tri[t], m->tri[t % 3 == 2 ? t - 2 : t + 1]);
    qsort(fx, (size_t)nfx, sizeof *fx, cmp_i64);
    {
        int k = 0; /* each interior fixed edge was listed from both sides */
        for (int i = 0; i < nfx; i++)
            if (k == 0 || fx[i] != fx[k - 1]) fx[k++] = fx[i];
        nfx = k;
    }

    if (!o.removed) {
        /* a triangulation of the convex hull: every representative used
         * (or none at all when they are collinear), area = hull area, Euler */
        int h = hull_boundary_count(in, m->remap);
        if (T == 0) {
            /* only when fewer than 3 points or all collinear */
            int noncol = 0;
            int a = -1, b = -1;
            for (int i = 0; i < n && !noncol; i++) {
                if (m->remap[i] != i) continue;
                if (a < 0)
                    a = i;
                else if (b < 0)
                    b = i;
                else
                    noncol = ref_orient(in, a, b, i) != 0;
            }
            assert_false(noncol);
        } else {
            assert_int_equal(nused, nrep);
            assert_int_equal(nbound, h);
            assert_int_equal(T, 2 * nrep - h - 2);
        }
        /* every constraint present as a chain of fixed edges: walk from one
         * end to the other along fixed edges lying on the segment (a proper
         * triangulation using every point has no point inside an edge, so
         * the chain holds every point on the segment); every fixed edge is
         * on such a chain */
        int *deg = calloc((size_t)n + 2, sizeof(int)),
            *nb = malloc(sizeof(int) * (size_t)(2 * nfx + 1));
        char *cov = calloc((size_t)nfx + 1, 1);
        for (int i = 0; i < nfx; i++)
            deg[(int)(fx[i] >> 32) + 1]++, deg[(int)(uint32_t)fx[i] + 1]++;
        for (int i = 0; i < n; i++) deg[i + 1] += deg[i];
        int *fill = malloc(sizeof(int) * (size_t)(n + 1));
        memcpy(fill, deg, sizeof(int) * (size_t)n);
        for (int i = 0; i < nfx; i++) {
            int a = (int)(fx[i] >> 32), b = (int)(uint32_t)fx[i];
            nb[fill[a]++] = b;
            nb[fill[b]++] = a;
        }
        for (int s = 0; s < in->nsegs && T > 0; s++) {
            int a = m->remap[in->segs[2 * s]], b = m->remap[in->segs[2 * s + 1]];
            int v = a, guard = 0;
            while (v != b) {
                int w = -1;
                for (int k = deg[v]; k < deg[v + 1] && w < 0; k++)
                    if (nb[k] != v && ref_on_segment(in, v, b, nb[k])) w = nb[k];
                if (w < 0)
                    fail_msg("constraint %d (%d-%d): no fixed edge from %d towards %d", s, a, b, v,
                             b);
                int64_t key = edge_key(v, w);
                int64_t *hit = bsearch(&key, fx, (size_t)nfx, sizeof key, cmp_i64);
                cov[hit - fx] = 1;
                v = w;
                assert_true(++guard <= n);
            }
        }
        for (int i = 0; i < nfx && T > 0; i++)
            if (!cov[i])
                fail_msg("fixed edge %d-%d lies on no constraint", (int)(fx[i] >> 32),
                         (int)(uint32_t)fx[i]);
        free(deg);
        free(nb);
        free(cov);
        free(fill);
    }
    /* locally Delaunay across every unfixed interior edge (strict test: a
     * cocircular fourth point is fine) */
    for (int t = 0; t < T; t++)
        for (int k = 0; k < 3; k++) {
            int u = m->adj[3 * t + k];
            if (u < 0 || m->fixed[3 * t + k]) continue;
            int a = m->tri[3 * t + k], b = m->tri[3 * t + (k + 1) % 3];
            int d = -1;
            for (int j = 0; j < 3; j++)
                if (m->tri[3 * u + j] != a && m->tri[3 * u + j] != b) d = m->tri[3 * u + j];
            if (ref_incircle(in, m->tri[3 * t], m->tri[3 * t + 1], m->tri[3 * t + 2], d) > 0)
                fail_msg("edge %d-%d is not locally Delaunay", a, b);
        }
    if (o.brute_delaunay) {
        /* every point strictly inside a triangle's circumcircle must be
         * hidden from the triangle by a constraint */
        for (int t = 0; t < T; t++) {
            int a = m->tri[3 * t], b = m->tri[3 * t + 1], c = m->tri[3 * t + 2];
            for (int p = 0; p < n; p++) {
                if (m->remap[p] != p || p == a || p == b || p == c) continue;
                if (ref_incircle(in, a, b, c, p) <= 0) continue;
                /* visible from the centroid unless a constraint crosses
                 * p-g; work on 3x coordinates so g is exact (integer case) */
                int hidden = 0;
                double gx = (in->xy[2 * a] + in->xy[2 * b] + in->xy[2 * c]) / 3.0;
                double gy = (in->xy[2 * a + 1] + in->xy[2 * b + 1] + in->xy[2 * c + 1]) / 3.0;
                if (in->nsegs > 0)
                    assert_true(in->is_int); /* visibility test below is integer-only */
                for (int s = 0; s < in->nsegs && !hidden; s++) {
                    int q = m->remap[in->segs[2 * s]], r = m->remap[in->segs[2 * s + 1]];
                    if (q == r) continue;
                    /* orient on 3x-scaled integers */
                    int64_t P[2] = {3 * (int64_t)in->xy[2 * p], 3 * (int64_t)in->xy[2 * p + 1]};
                    int64_t G[2] = {(int64_t)llround(3 * gx), (int64_t)llround(3 * gy)};
                    int64_t Q[2] = {3 * (int64_t)in->xy[2 * q], 3 * (int64_t)in->xy[2 * q + 1]};
                    int64_t R[2] = {3 * (int64_t)in->xy[2 * r], 3 * (int64_t)in->xy[2 * r + 1]};
#define OR(A, B, C) (((B)[0] - (A)[0]) * ((C)[1] - (A)[1]) - ((B)[1] - (A)[1]) * ((C)[0] - (A)[0]))
#define SG(v) (((v) > 0) - ((v) < 0))
                    int o1 = SG(OR(P, G, Q)), o2 = SG(OR(P, G, R)), o3 = SG(OR(Q, R, P)),
                        o4 = SG(OR(Q, R, G));
                    if (o1 * o2 < 0 && o3 * o4 < 0) hidden = 1;
                    /* a constraint endpoint strictly inside p-g also blocks */
                    const int64_t *E[2] = {Q, R};
                    for (int j = 0; j < 2 && !hidden; j++) {
                        const int64_t *X = E[j];
                        if ((X[0] == P[0] && X[1] == P[1]) || OR(P, G, X) != 0) continue;
                        if ((X[0] - P[0]) * (G[0] - X[0]) + (X[1] - P[1]) * (G[1] - X[1]) > 0)
                            hidden = 1;
                    }
#undef OR
#undef SG
                }
                if (!hidden)
                    fail_msg(
                        "point %d is inside the circumcircle of triangle %d (%d %d %d) and visible",
                        p, t, a, b, c);
            }
        }
    }
    free(fx);
    free(used);
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                    */
/* ------------------------------------------------------------------------ */

static void input_free(input *in)
{
    free(in->xy);
    free(in->segs);
    memset(in, 0, sizeof *in);
}

static input input_new(int n, int nsegs)
{
    input in;
    in.n = n;
    in.nsegs = nsegs;
    in.xy = calloc((size_t)(2 * n + 2), sizeof *in.xy);
    in.segs = calloc((size_t)(2 * nsegs + 2), sizeof *in.segs);
    in.is_int = 1;
    return in;
}

static tn_cdt_stats g_stats, g_total;

/* Build the input as integers; returns the status.  The mesh is checked. */
static tn_status run_i(const input *in, unsigned flags, check_opts o, tn_cdt_mesh *out,
                       tn_error *err)
{
    tn_error e;
    if (!err) err = &e;
    tn_cdt *c = NULL;
    tn_cdt_create(in->n, in->nsegs, NULL, &c, err);
    assert_non_null(c);
    int32_t *xy = malloc(sizeof(int32_t) * (size_t)(2 * in->n + 2));
    for (int i = 0; i < 2 * in->n; i++) xy[i] = (int32_t)in->xy[i];
    tn_status st = tn_cdt_build_i(c, xy, in->n, in->segs, in->nsegs, flags, err);
    tn_cdt_get_stats(c, &g_stats);
    g_total.inside_inserts += g_stats.inside_inserts;
    g_total.segments_forced += g_stats.segments_forced;
    g_total.segments_split += g_stats.segments_split;
    g_total.segments_present += g_stats.segments_present;
    g_total.forced_flips += g_stats.forced_flips;
    g_total.cavity_triangles += g_stats.cavity_triangles;
    g_total.duplicates += g_stats.duplicates;
    g_total.exact_tests += g_stats.exact_tests;
    if (!tn_failed(st)) {
        tn_cdt_mesh m;
        tn_cdt_get_mesh(c, &m);
        o.removed = (flags & TN_CDT_REMOVE_OUTSIDE) != 0;
        check_mesh(in, &m, o);
        if (out)
            *out = m, out->tri = NULL, out->adj = NULL, out->fixed = NULL, out->vert_tri = NULL,
            out->remap = NULL;
    }
    free(xy);
    tn_cdt_destroy(c);
    return st;
}

/* Builds in sweep order and in input order (the point-location path); both
 * must be valid, with the same triangle count. */
static int build_ok_i(const input *in, unsigned flags, check_opts o)
{
    tn_error err;
    tn_cdt_mesh m, m2;
    memset(&m, 0, sizeof m);
    tn_status st = run_i(in, flags, o, &m, &err);
    if (tn_failed(st)) fail_msg("build failed: %s", err.msg);
    st = run_i(in, flags | TN_CDT_INCREMENTAL, o, &m2, &err);
    if (tn_failed(st)) fail_msg("build (incremental) failed: %s", err.msg);
    assert_int_equal(m.ntris, m2.ntris);
    if (in->n > 20000) return m.ntris; /* walks of O(sqrt n) each: too slow */
    st = run_i(in, flags | TN_CDT_INPUT_ORDER, o, &m2, &err);
    if (tn_failed(st)) fail_msg("build (input order) failed: %s", err.msg);
    assert_int_equal(m.ntris, m2.ntris);
    st = run_i(in, flags | TN_CDT_INPUT_ORDER | TN_CDT_INCREMENTAL, o, &m2, &err);
    if (tn_failed(st)) fail_msg("build (incremental, input order) failed: %s", err.msg);
    assert_int_equal(m.ntris, m2.ntris);
    return m.ntris;
}

/* The same through tn_cdt_build_d (in->xy as given). */
static tn_status run_d(const input *in, unsigned flags, check_opts o, int *ntris, tn_error *err)
{
    tn_cdt *c = NULL;
    tn_cdt_create(in->n, in->nsegs, NULL, &c, err);
    assert_non_null(c);
    tn_status st = tn_cdt_build_d(c, in->xy, in->n, in->segs, in->nsegs, flags, err);
    tn_cdt_get_stats(c, &g_stats);
    g_total.exact_tests += g_stats.exact_tests;
    if (!tn_failed(st)) {
        tn_cdt_mesh m;
        tn_cdt_get_mesh(c, &m);
        o.removed = (flags & TN_CDT_REMOVE_OUTSIDE) != 0;
        check_mesh(in, &m, o);
        if (ntris) *ntris = m.ntris;
    }
    tn_cdt_destroy(c);
    return st;
}

static int build_ok_d(const input *in, unsigned flags, check_opts o)
{
    tn_error err;
    int t1 = -1, t2 = -1;
    if (in->n > 60)
        o.brute_delaunay = 0; /* the big-integer reference is slow; local checks suffice */
    if (tn_failed(run_d(in, flags, o, &t1, &err))) fail_msg("build_d failed: %s", err.msg);
    if (tn_failed(run_d(in, flags | TN_CDT_INCREMENTAL, o, &t2, &err)))
        fail_msg("build_d (incremental) failed: %s", err.msg);
    assert_int_equal(t1, t2);
    if (in->n <= 20000) {
        if (tn_failed(run_d(in, flags | TN_CDT_INPUT_ORDER, o, &t2, &err)))
            fail_msg("build_d (input order) failed: %s", err.msg);
        assert_int_equal(t1, t2);
    }
    return t1;
}

/* ------------------------------------------------------------------------ */
/* Tests: degenerate and tiny inputs                                          */
/* ------------------------------------------------------------------------ */

static const check_opts BRUTE = {1, 0};
static const check_opts LOCAL = {0, 0};

static void test_tiny(void **state)
{
    (void)state;
    for (int n = 0; n <= 3; n++) {
        input in = input_new(n, 0);
        static const double P[6] = {0, 0, 5, 1, 2, 7};
        memcpy(in.xy, P, sizeof(double) * (size_t)(2 * n));
        assert_int_equal(build_ok_i(&in, 0, BRUTE), n == 3 ? 1 : 0);
        input_free(&in);
    }
    /* three collinear points: nothing to triangulate */
    input in = input_new(3, 1);
    double P[6] = {0, 0, 2, 2, 5, 5};
    memcpy(in.xy, P, sizeof P);
    in.segs[0] = 0;
    in.segs[1] = 2;
    assert_int_equal(build_ok_i(&in, 0, BRUTE), 0);
    assert_int_equal(build_ok_i(&in, TN_CDT_REMOVE_OUTSIDE, BRUTE), 0);
    input_free(&in);
    /* a capacity-0 triangulator builds the empty input */
    tn_error err;
    tn_cdt *c = NULL;
    tn_cdt_create(0, 0, NULL, &c, &err);
    assert_non_null(c);
    assert_false(tn_failed(tn_cdt_build_i(c, NULL, 0, NULL, 0, 0, &err)));
    tn_cdt_mesh m;
    tn_cdt_get_mesh(c, &m);
    assert_int_equal(m.ntris, 0);
    tn_cdt_destroy(c);
}

static void test_duplicates(void **state)
{
    (void)state;
    /* all points equal */
    input in = input_new(10, 2);
    for (int i = 0; i < 10; i++) in.xy[2 * i] = 7, in.xy[2 * i + 1] = -3;
    in.segs[0] = 1, in.segs[1] = 5, in.segs[2] = 0, in.segs[3] = 9;
    assert_int_equal(build_ok_i(&in, 0, BRUTE), 0);
    input_free(&in);
    /* a square whose corners appear three times each, constraints on copies */
    in = input_new(12, 4);
    static const double sq[8] = {0, 0, 10, 0, 10, 10, 0, 10};
    for (int i = 0; i < 12; i++)
        in.xy[2 * i] = sq[2 * (i % 4)], in.xy[2 * i + 1] = sq[2 * (i % 4) + 1];
    for (int s = 0; s < 4; s++) in.segs[2 * s] = 4 + s, in.segs[2 * s + 1] = 8 + (s + 1) % 4;
    assert_int_equal(build_ok_i(&in, 0, BRUTE), 2);
    assert_int_equal(build_ok_i(&in, TN_CDT_REMOVE_OUTSIDE, BRUTE), 2);
    input_free(&in);
}

static void test_collinear(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 11, 1);
    for (int trial = 0; trial < 20; trial++) {
        int n = 2 + (int)tn_rng_below(&r, 500);
        input in = input_new(n, 3);
        int dx = (int)tn_rng_below(&r, 7) - 3, dy = (int)tn_rng_below(&r, 7) - 3;
        if (dx == 0 && dy == 0) dx = 1;
        for (int i = 0; i < n; i++) {
            int k = (int)tn_rng_below(&r, 1000) - 500;
            in.xy[2 * i] = 100 + k * dx;
            in.xy[2 * i + 1] = -50 + k * dy;
        }
        for (int s = 0; s < 6; s++) in.segs[s] = (int32_t)tn_rng_below(&r, (uint32_t)n);
        assert_int_equal(build_ok_i(&in, 0, BRUTE), 0);
        /* add one point off the line: a fan of n-ish triangles */
        input in2 = input_new(n + 1, 3);
        memcpy(in2.xy, in.xy, sizeof(double) * (size_t)(2 * n));
        memcpy(in2.segs, in.segs, sizeof(int32_t) * 6);
        in2.xy[2 * n] = 100 + dy * 3;
        in2.xy[2 * n + 1] = -50 - dx * 3;
        build_ok_i(&in2, 0, BRUTE);
        input_free(&in2);
        input_free(&in);
    }
}

/* k x k grid: every 2x2 cell is cocircular. */
static void test_grids(void **state)
{
    (void)state;
    /* spacing 3: small-span exact mode; spacing 999983: the int64/__int128 path */
    for (int spacing = 3; spacing < 1000000; spacing = spacing == 3 ? 999983 : 1000000)
        for (int k = 2; k <= 40; k += (k < 12 ? 1 : 7)) {
            input in = input_new(k * k, 0);
            for (int y = 0; y < k; y++)
                for (int x = 0; x < k; x++)
                    in.xy[2 * (y * k + x)] = x * spacing - 7,
                                       in.xy[2 * (y * k + x) + 1] = y * spacing + 2;
            int T = build_ok_i(&in, 0, k <= 20 ? BRUTE : LOCAL);
            assert_int_equal(T, 2 * (k - 1) * (k - 1));
            input_free(&in);
        }
    /* a grid with shuffled order and duplicates, and a rotated lattice */
    tn_rng r;
    tn_rng_seed(&r, 5, 5);
    input in = input_new(900, 0);
    for (int i = 0; i < 900; i++) {
        int x = (int)tn_rng_below(&r, 20), y = (int)tn_rng_below(&r, 20);
        in.xy[2 * i] = x + y; /* lattice sheared: still cocircular quads */
        in.xy[2 * i + 1] = y - x;
    }
    build_ok_i(&in, 0, BRUTE);
    input_free(&in);
}

/* Random points in a small range: duplicates, collinear runs, cocircular. */
static void test_random_small_range(void **state)
{
    (void)state;
    memset(&g_total, 0, sizeof g_total);
    tn_rng r;
    tn_rng_seed(&r, 42, 2);
    for (int trial = 0; trial < 300; trial++) {
        int n = 3 + (int)tn_rng_below(&r, 200);
        int range = 2 + (int)tn_rng_below(&r, 40);
        input in = input_new(n, 0);
        /* every third trial scaled up: same degeneracies on the int128 path */
        int scale = trial % 3 == 0 ? 65521 : 1;
        for (int i = 0; i < 2 * n; i++)
            in.xy[i] = ((int)tn_rng_below(&r, (uint32_t)range) - range / 2) * scale;
        build_ok_i(&in, 0, BRUTE);
        input_free(&in);
    }
    print_message("small range: %d duplicates, %d inside inserts\n", g_total.duplicates,
                  g_total.inside_inserts);
    assert_true(g_total.duplicates > 1000);
    assert_true(g_total.inside_inserts > 10000);
}

static void test_random_large(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 7, 3);
    int n = 200000;
    input in = input_new(n, 0);
    for (int i = 0; i < 2 * n; i++)
        in.xy[i] = (int32_t)(tn_rng_u32(&r) % (2u * TN_CDT_MAX_COORD + 1)) - TN_CDT_MAX_COORD;
    int T = build_ok_i(&in, 0, LOCAL);
    assert_true(T > n);
    input_free(&in);
    /* extreme coordinates: corners of the allowed box plus a few inside */
    in = input_new(9, 0);
    const double M = TN_CDT_MAX_COORD;
    double P[18] = {-M, -M, M, -M, M, M, -M, M, 0, 0, M - 1, M, -M, M - 1, 1, -M, M, 1};
    memcpy(in.xy, P, sizeof P);
    build_ok_i(&in, 0, BRUTE);
    input_free(&in);
}

/* ------------------------------------------------------------------------ */
/* Tests: constraints                                                         */
/* ------------------------------------------------------------------------ */

static int seg_cross_proper(const input *in, int a, int b, int c, int d)
{
    return ref_orient(in, a, b, c) * ref_orient(in, a, b, d) < 0 &&
           ref_orient(in, c, d, a) * ref_orient(in, c, d, b) < 0;
}

/* Two segments cross in a way the CDT must refuse: a proper crossing, or an
 * endpoint of one inside the other is fine (split), overlap is fine. */
static void random_constrained(tn_rng *r, int n, int range, int tries, input *out)
{
    input in = input_new(n, tries);
    for (int i = 0; i < 2 * n; i++) in.xy[i] = (int)tn_rng_below(r, (uint32_t)range);
    int ns = 0;
    for (int t = 0; t < tries; t++) {
        int a = (int)tn_rng_below(r, (uint32_t)n), b = (int)tn_rng_below(r, (uint32_t)n);
        int ok = 1;
        for (int s = 0; s < ns && ok; s++)
            ok = !seg_cross_proper(&in, a, b, in.segs[2 * s], in.segs[2 * s + 1]);
        /* also refuse a proper crossing through... collinear overlap is ok */
        if (!ok) continue;
        in.segs[2 * ns] = a;
        in.segs[2 * ns + 1] = b;
        ns++;
    }
    in.nsegs = ns;
    *out = in;
}

static void test_constraints_random(void **state)
{
    (void)state;
    memset(&g_total, 0, sizeof g_total);
    tn_rng r;
    tn_rng_seed(&r, 99, 4);
    for (int trial = 0; trial < 300; trial++) {
        int n = 4 + (int)tn_rng_below(&r, 120);
        int range = 3 + (int)tn_rng_below(&r, trial % 3 == 0 ? 12 : 1000);
        input in;
        random_constrained(&r, n, range, (int)tn_rng_below(&r, 60), &in);
        if (trial % 4 == 1) /* the int128 path: same configuration scaled */
            for (int i = 0; i < 2 * in.n; i++) in.xy[i] *= 16381;
        build_ok_i(&in, 0, BRUTE);
        build_ok_i(&in, TN_CDT_REMOVE_OUTSIDE, BRUTE);
        input_free(&in);
    }
    /* larger, local checks only */
    for (int trial = 0; trial < 5; trial++) {
        input in;
        random_constrained(&r, 3000, 1 << 20, 400, &in);
        build_ok_i(&in, 0, LOCAL);
        input_free(&in);
    }
    /* the interesting paths ran */
    print_message("constraints: %d present, %d forced (%lld cavity triangles, %lld fallback "
                  "flips), %d splits; "
                  "%d inside inserts\n",
                  g_total.segments_present, g_total.segments_forced, g_total.cavity_triangles,
                  g_total.forced_flips, g_total.segments_split, g_total.inside_inserts);
    assert_true(g_total.segments_forced > 1000);
    assert_true(g_total.segments_split > 100);
    assert_true(g_total.inside_inserts > 10000);
    assert_true(g_total.forced_flips > 0); /* the slit fallback ran */
}

/* A constraint whose cavity has a slit: the segment passes below point 1,
 * crossing all three triangles around it (found by fuzzing). */
static void test_cavity_slit(void **state)
{
    (void)state;
    static const double P[20] = {6, 5, 3, 7, 7, 6, 3, 8, 0, 8, 9, 0, 8, 5, 5, 9, 8, 2, 2, 6};
    static const int32_t S[12] = {6, 3, 0, 6, 4, 6, 6, 3, 6, 1, 0, 5};
    input in = input_new(10, 6);
    memcpy(in.xy, P, sizeof P);
    memcpy(in.segs, S, sizeof S);
    memset(&g_total, 0, sizeof g_total);
    build_ok_i(&in, 0, BRUTE);
    build_ok_i(&in, TN_CDT_REMOVE_OUTSIDE, BRUTE);
    assert_true(g_total.forced_flips > 0);
    input_free(&in);
}

/* Long constraints crossing thousands of edges (the flip queue's capacity). */
static void test_long_constraints(void **state)
{
    (void)state;
    /* a ladder: two rows of points and a constraint between the rows, end to end */
    int k = 1500;
    input in = input_new(2 * k + 2, 1);
    for (int i = 0; i < k; i++) {
        in.xy[4 * i] = 2 * i, in.xy[4 * i + 1] = 0;
        in.xy[4 * i + 2] = 2 * i + 1, in.xy[4 * i + 3] = 2;
    }
    in.xy[4 * k] = -1, in.xy[4 * k + 1] = 1;
    in.xy[4 * k + 2] = 2 * k + 1, in.xy[4 * k + 3] = 1;
    in.segs[0] = 2 * k, in.segs[1] = 2 * k + 1;
    build_ok_i(&in, 0, LOCAL);
    input_free(&in);
    /* a dense cloud with its box's diagonals split at the centre */
    tn_rng r;
    tn_rng_seed(&r, 13, 13);
    int n = 20000;
    in = input_new(n + 5, 4);
    for (int i = 0; i < 2 * n; i++) in.xy[i] = 1 + (int)tn_rng_below(&r, 999999);
    double C[10] = {0, 0, 1000000, 1000000, 0, 1000000, 1000000, 0, 500000, 500000};
    memcpy(in.xy + 2 * n, C, sizeof C);
    int32_t S[8] = {n, n + 4, n + 4, n + 1, n + 2, n + 4, n + 4, n + 3};
    memcpy(in.segs, S, sizeof S);
    build_ok_i(&in, 0, LOCAL);
    input_free(&in);
}

/* A constraint through points lying on it is split there. */
static void test_constraint_through_points(void **state)
{
    (void)state;
    input in = input_new(14, 2);
    for (int i = 0; i < 11; i++) in.xy[2 * i] = i * 2, in.xy[2 * i + 1] = i; /* on a line */
    in.xy[22] = 5, in.xy[23] = 20;
    in.xy[24] = 15, in.xy[25] = -8;
    in.xy[26] = 8, in.xy[27] = 4; /* duplicate of point 4 */
    in.segs[0] = 0, in.segs[1] = 10;
    in.segs[2] = 11, in.segs[3] = 13; /* ends on the first constraint */
    build_ok_i(&in, 0, BRUTE);
    input_free(&in);
}

static void test_crossing_refused(void **state)
{
    (void)state;
    input in = input_new(6, 3);
    double P[12] = {0, 0, 10, 10, 0, 10, 10, 0, 20, 20, 20, 0};
    memcpy(in.xy, P, sizeof P);
    int32_t S[6] = {4, 5, 0, 1, 2, 3};
    memcpy(in.segs, S, sizeof S);
    tn_error err;
    tn_status st = run_i(&in, 0, LOCAL, NULL, &err);
    assert_true(tn_failed(st));
    assert_true(tn_status_detail(st, TN_INVALID_PARAM));
    if (strcmp(err.msg, "cdt: constraint segments 1 (points 0-1) and 2 (points 2-3) cross") != 0)
        fail_msg("message: %s", err.msg);
    input_free(&in);
    /* crossing a constraint that was split at a point */
    in = input_new(5, 2);
    double Q[10] = {0, 0, 4, 0, 8, 0, 5, -3, 5, 3};
    memcpy(in.xy, Q, sizeof Q);
    int32_t S2[4] = {0, 2, 3, 4};
    memcpy(in.segs, S2, sizeof S2);
    st = run_i(&in, 0, LOCAL, NULL, &err);
    assert_true(tn_failed(st));
    if (strcmp(err.msg, "cdt: constraint segments 0 (points 0-2) and 1 (points 3-4) cross") != 0)
        fail_msg("message: %s", err.msg);
    /* touching at a point is not a crossing */
    in.xy[6] = 4, in.xy[7] = 0; /* point 3 == point 1, on the first constraint */
    build_ok_i(&in, 0, BRUTE);
    input_free(&in);
}

/* ------------------------------------------------------------------------ */
/* Tests: tile maps and the even-odd removal                                  */
/* ------------------------------------------------------------------------ */

/* Outline segments of the blocks of a w x h tile map (1 = block; outside is
 * block), merged into maximal horizontal/vertical runs (T-junctions are left
 * for the CDT to split).  Points: the run endpoints (y grows downward, so
 * the output is mirrored; irrelevant here). */
static input map_input(const uint8_t *tiles, int w, int h)
{
#define BLK(x, y) ((x) < 0 || (y) < 0 || (x) >= w || (y) >= h || tiles[(y)*w + (x)])
    int cap = 4 * (w + 1) * (h + 1) + 8;
    input in = input_new(2 * cap, cap);
    in.n = 0;
    in.nsegs = 0;
    /* horizontal edges at row line y: between (x, y-1) and (x, y) */
    for (int y = 0; y <= h; y++) {
        int x = 0;
        while (x < w) {
            int kind = BLK(x, y - 1) != BLK(x, y) ? (BLK(x, y) ? 1 : 2) : 0;
            if (!kind) {
                x++;
                continue;
            }
            int x0 = x;
            while (x < w && (BLK(x, y - 1) != BLK(x, y) ? (BLK(x, y) ? 1 : 2) : 0) == kind) x++;
            in.xy[2 * in.n] = x0, in.xy[2 * in.n + 1] = y;
            in.xy[2 * in.n + 2] = x, in.xy[2 * in.n + 3] = y;
            in.segs[2 * in.nsegs] = in.n, in.segs[2 * in.nsegs + 1] = in.n + 1;
            in.n += 2;
            in.nsegs++;
        }
    }
    for (int x = 0; x <= w; x++) {
        int y = 0;
        while (y < h) {
            int kind = BLK(x - 1, y) != BLK(x, y) ? (BLK(x, y) ? 1 : 2) : 0;
            if (!kind) {
                y++;
                continue;
            }
            int y0 = y;
            while (y < h && (BLK(x - 1, y) != BLK(x, y) ? (BLK(x, y) ? 1 : 2) : 0) == kind) y++;
            in.xy[2 * in.n] = x, in.xy[2 * in.n + 1] = y0;
            in.xy[2 * in.n + 2] = x, in.xy[2 * in.n + 3] = y;
            in.segs[2 * in.nsegs] = in.n, in.segs[2 * in.nsegs + 1] = in.n + 1;
            in.n += 2;
            in.nsegs++;
        }
    }
#undef BLK
    return in;
}

static void check_map_removal(const uint8_t *tiles, int w, int h, int brute)
{
    input in = map_input(tiles, w, h);
    int nfree = 0;
    for (int i = 0; i < w * h; i++) nfree += !tiles[i];
    if (nfree == 0) {
        input_free(&in);
        return;
    }
    check_opts o = {brute, 0};
    build_ok_i(&in, 0, o); /* whole hull: constraints present */
    tn_cdt *c = NULL;
    tn_cdt_create(in.n, in.nsegs, NULL, &c, NULL);
    int32_t *xy = malloc(sizeof(int32_t) * (size_t)(2 * in.n));
    for (int i = 0; i < 2 * in.n; i++) xy[i] = (int32_t)in.xy[i];
    tn_error err;
    tn_status st = tn_cdt_build_i(c, xy, in.n, in.segs, in.nsegs, TN_CDT_REMOVE_OUTSIDE, &err);
    if (tn_failed(st)) fail_msg("%s", err.msg);
    tn_cdt_mesh m;
    tn_cdt_get_mesh(c, &m);
    o.removed = 1;
    check_mesh(&in, &m, o);
    /* every kept triangle lies in free space (its centroid's tile is free:
     * a triangle crosses no outline) and the areas add up to the free area */
    double area = 0;
    for (int t = 0; t < m.ntris; t++) {
        int a = m.tri[3 * t], b = m.tri[3 * t + 1], cc = m.tri[3 * t + 2];
        area += area2(&in, a, b, cc);
        int64_t sx = (int64_t)(in.xy[2 * a] + in.xy[2 * b] + in.xy[2 * cc]);
        int64_t sy = (int64_t)(in.xy[2 * a + 1] + in.xy[2 * b + 1] + in.xy[2 * cc + 1]);
        int tx = (int)(sx / 3), ty = (int)(sy / 3); /* coordinates >= 0: floor */
        if (tx >= w) tx = w - 1;
        if (ty >= h) ty = h - 1;
        if (tiles[ty * w + tx])
            fail_msg("kept triangle %d has its centroid in block tile %d,%d", t, tx, ty);
    }
    assert_true(fabs(area - 2.0 * nfree) < 1e-9);
    /* every free tile corner that is a point is used */
    free(xy);
    tn_cdt_destroy(c);
    input_free(&in);
}

static void test_tile_maps(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 1234, 6);
    for (int trial = 0; trial < 60; trial++) {
        int w = 1 + (int)tn_rng_below(&r, 24), h = 1 + (int)tn_rng_below(&r, 24);
        uint8_t *tiles = calloc((size_t)(w * h), 1);
        int blocks = (int)tn_rng_below(&r, 20);
        for (int b = 0; b < blocks; b++) {
            int s = 1 + (int)tn_rng_below(&r, 4);
            int x0 = (int)tn_rng_below(&r, (uint32_t)w), y0 = (int)tn_rng_below(&r, (uint32_t)h);
            for (int y = y0; y < y0 + s && y < h; y++)
                for (int x = x0; x < x0 + s && x < w; x++) tiles[y * w + x] = 1;
        }
        /* random noise tiles too: diagonal touching corners */
        if (trial % 2)
            for (int i = 0; i < w * h; i++)
                if (tn_rng_below(&r, 5) == 0) tiles[i] = 1;
        check_map_removal(tiles, w, h, w * h <= 150);
        free(tiles);
    }
    /* a free pocket inside a block inside free space: depth 3 is kept */
    static const char *rows[] = {
        ".........", ".#######.", ".#.....#.", ".#.###.#.", ".#.#.#.#.",
        ".#.###.#.", ".#.....#.", ".#######.", ".........",
    };
    uint8_t t9[81];
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) t9[y * 9 + x] = rows[y][x] == '#';
    check_map_removal(t9, 9, 9, 1);
}

/* A larger map like the benchmark's: 256 x 256, blocks of side 1-8. */
static void test_tile_map_256(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 77, 7);
    int w = 256, h = 256;
    uint8_t *tiles = calloc((size_t)(w * h), 1);
    for (int b = 0; b < 1500; b++) {
        int s = 1 + (int)tn_rng_below(&r, 8);
        int x0 = (int)tn_rng_below(&r, (uint32_t)w), y0 = (int)tn_rng_below(&r, (uint32_t)h);
        for (int y = y0; y < y0 + s && y < h; y++)
            for (int x = x0; x < x0 + s && x < w; x++) tiles[y * w + x] = 1;
    }
    check_map_removal(tiles, w, h, 0);
    free(tiles);
}

/* ------------------------------------------------------------------------ */
/* Tests: the rectilinear row sweep (outlines as tn_navmesh extracts them)    */
/* ------------------------------------------------------------------------ */

/* The outline of a tile map by tn_navmesh's rule (bench_gen.c has the same):
 * a tile corner is a point unless its four tiles agree or form a straight
 * wall; free/blocked tile edges merged into maximal horizontal and vertical
 * runs, each split at every point on it; points in row-major order (sorted
 * by y, then x), which is what the sweep takes. */
static input outline_input_at(const uint8_t *tiles, int w, int h, const int *gx, const int *gy);
static input outline_input(const uint8_t *tiles, int w, int h)
{
    return outline_input_at(tiles, w, h, NULL, NULL);
}

/* gx[0..w], gy[0..h]: increasing coordinates of the grid lines (NULL: 0, 1,
 * 2, ...), a stretched map with the same outline structure. */
static input outline_input_at(const uint8_t *tiles, int w, int h, const int *gx, const int *gy)
{
#define BLK(x, y) ((x) < 0 || (y) < 0 || (x) >= w || (y) >= h || tiles[(y)*w + (x)])
    int nc = (w + 1) * (h + 1);
    int *id = malloc(sizeof(int) * (size_t)nc);
    input in = input_new(nc, 2 * nc);
    in.n = 0;
    in.nsegs = 0;
    for (int y = 0; y <= h; y++)
        for (int x = 0; x <= w; x++) {
            int a = BLK(x - 1, y - 1), b = BLK(x, y - 1), c = BLK(x - 1, y), d = BLK(x, y);
            int v = !(a == b && c == d) && !(a == c && b == d);
            id[y * (w + 1) + x] = v ? in.n : -1;
            if (v) in.xy[2 * in.n] = gx ? gx[x] : x, in.xy[2 * in.n + 1] = gy ? gy[y] : y, in.n++;
        }
    for (int y = 0; y <= h; y++) /* horizontal runs on grid line y */
        for (int x = 0, start = -1; x <= w; x++) {
            if (start >= 0 && id[y * (w + 1) + x] >= 0) {
                in.segs[2 * in.nsegs] = id[y * (w + 1) + start];
                in.segs[2 * in.nsegs + 1] = id[y * (w + 1) + x];
                in.nsegs++;
                start = -1;
            }
            if (x < w && BLK(x, y - 1) != BLK(x, y) && start < 0) start = x;
        }
    for (int x = 0; x <= w; x++) /* vertical runs on grid line x */
        for (int y = 0, start = -1; y <= h; y++) {
            if (start >= 0 && id[y * (w + 1) + x] >= 0) {
                in.segs[2 * in.nsegs] = id[start * (w + 1) + x];
                in.segs[2 * in.nsegs + 1] = id[y * (w + 1) + x];
                in.nsegs++;
                start = -1;
            }
            if (y < h && BLK(x - 1, y) != BLK(x, y) && start < 0) start = y;
        }
#undef BLK
    free(id);
    return in;
}

/* Build `in` with TN_CDT_REMOVE_OUTSIDE (which takes the row sweep when
 * `sweep`), check the mesh (brute force optionally), that it covers exactly
 * the free tiles, that every point is used and every boundary edge is a
 * constraint; then compare with the general path (TN_CDT_INCREMENTAL keeps
 * the sweep out): same status, same triangle count, same area. */
/* The tile column (row) holding coordinate v*3 of a centroid (3x scaled). */
static int grid_cell(const int *g, int n, double v3)
{
    int k = 0;
    while (k + 1 < n && 3.0 * (g ? g[k + 1] : k + 1) <= v3) k++;
    return k;
}

static void check_outline_at(const input *in, const uint8_t *tiles, int w, int h, const int *gx,
                             const int *gy, int brute, int sweep);
static void check_outline(const input *in, const uint8_t *tiles, int w, int h, int brute, int sweep)
{
    check_outline_at(in, tiles, w, h, NULL, NULL, brute, sweep);
}

static void check_outline_at(const input *in, const uint8_t *tiles, int w, int h, const int *gx,
                             const int *gy, int brute, int sweep)
{
    tn_error err;
    tn_cdt *c = NULL;
    tn_cdt_create(in->n, in->nsegs, NULL, &c, &err);
    assert_non_null(c);
    int32_t *xy = malloc(sizeof(int32_t) * (size_t)(2 * in->n + 2));
    for (int i = 0; i < 2 * in->n; i++) xy[i] = (int32_t)in->xy[i];
    tn_status st = tn_cdt_build_i(c, xy, in->n, in->segs, in->nsegs, TN_CDT_REMOVE_OUTSIDE, &err);
    if (tn_failed(st)) fail_msg("%s", err.msg);
    tn_cdt_stats stats;
    tn_cdt_get_stats(c, &stats);
    assert_int_equal(stats.rectilinear, sweep);
    tn_cdt_mesh m;
    tn_cdt_get_mesh(c, &m);
    check_opts o = {brute, 1};
    check_mesh(in, &m, o);
    double free_area = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (!tiles[y * w + x])
                free_area += (double)((gx ? gx[x + 1] - gx[x] : 1) * (gy ? gy[y + 1] - gy[y] : 1));
    double area = 0;
    for (int t = 0; t < m.ntris; t++) {
        int a = m.tri[3 * t], b = m.tri[3 * t + 1], cc = m.tri[3 * t + 2];
        area += area2(in, a, b, cc);
        int tx = grid_cell(gx, w, in->xy[2 * a] + in->xy[2 * b] + in->xy[2 * cc]);
        int ty = grid_cell(gy, h, in->xy[2 * a + 1] + in->xy[2 * b + 1] + in->xy[2 * cc + 1]);
        if (tiles[ty * w + tx])
            fail_msg("kept triangle %d has its centroid in block %d,%d", t, tx, ty);
        for (int k = 0; k < 3; k++)
            if (m.adj[3 * t + k] < 0 && !m.fixed[3 * t + k])
                fail_msg("triangle %d: boundary edge %d is not a constraint", t, k);
    }
    assert_true(fabs(area - 2.0 * free_area) < 1e-6);
    for (int i = 0; i < in->n; i++) /* every outline corner touches a free tile */
        if (m.remap[i] == i && m.vert_tri[i] < 0) fail_msg("point %d unused", i);
    int ntris = m.ntris;
    st = tn_cdt_build_i(c, xy, in->n, in->segs, in->nsegs,
                        TN_CDT_REMOVE_OUTSIDE | TN_CDT_INCREMENTAL, &err);
    if (tn_failed(st)) fail_msg("general path: %s", err.msg);
    tn_cdt_get_stats(c, &stats);
    assert_int_equal(stats.rectilinear, 0);
    tn_cdt_get_mesh(c, &m);
    assert_int_equal(m.ntris, ntris);
    free(xy);
    tn_cdt_destroy(c);
}

static uint8_t *random_tiles(tn_rng *r, int w, int h, int blocks, int side, int noise)
{
    uint8_t *tiles = calloc((size_t)(w * h), 1);
    for (int b = 0; b < blocks; b++) {
        int s = 1 + (int)tn_rng_below(r, (uint32_t)side);
        int x0 = (int)tn_rng_below(r, (uint32_t)w), y0 = (int)tn_rng_below(r, (uint32_t)h);
        for (int y = y0; y < y0 + s && y < h; y++)
            for (int x = x0; x < x0 + s && x < w; x++) tiles[y * w + x] = 1;
    }
    if (noise)
        for (int i = 0; i < w * h; i++)
            if (tn_rng_below(r, (uint32_t)noise) == 0) tiles[i] = 1;
    return tiles;
}

static void test_sweep_tile_maps(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 4321, 9);
    for (int trial = 0; trial < 400; trial++) {
        int w = 1 + (int)tn_rng_below(&r, 20), h = 1 + (int)tn_rng_below(&r, 20);
        /* sparse blocks, dense blocks, salt-and-pepper (diagonal contacts,
         * saddle points with four constraints), and mixes */
        int kind = trial % 4;
        uint8_t *tiles = random_tiles(&r, w, h, kind == 2 ? 0 : 1 + (int)tn_rng_below(&r, 25),
                                      1 + (int)tn_rng_below(&r, 6), kind >= 2 ? 2 + kind : 0);
        int nfree = 0;
        for (int i = 0; i < w * h; i++) nfree += !tiles[i];
        input in = outline_input(tiles, w, h);
        if (nfree > 0) check_outline(&in, tiles, w, h, w * h <= 120, 1);
        input_free(&in);
        free(tiles);
    }
    /* pockets nested three deep, and a free ring around a block */
    static const char *rows[] = {
        ".........", ".#######.", ".#.....#.", ".#.###.#.", ".#.#.#.#.",
        ".#.###.#.", ".#.....#.", ".#######.", ".........",
    };
    uint8_t t9[81];
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) t9[y * 9 + x] = rows[y][x] == '#';
    input in = outline_input(t9, 9, 9);
    check_outline(&in, t9, 9, 9, 1, 1);
    input_free(&in);
}

/* TN_CDT_RECT_DOMAIN input of a tile map, as tn_navmesh builds it: the
 * outline points plus the map's four corners, the outline runs plus the
 * border runs along blocked tiles (every side of the rectangle a
 * constraint, T-junctions where outlines meet it). */
static input rect_input(const uint8_t *tiles, int w, int h)
{
#define BLK(x, y) ((x) < 0 || (y) < 0 || (x) >= w || (y) >= h || tiles[(y)*w + (x)])
    int nc = (w + 1) * (h + 1);
    int *id = malloc(sizeof(int) * (size_t)nc);
    input in = input_new(nc, 2 * nc + 4);
    in.n = 0;
    in.nsegs = 0;
    for (int y = 0; y <= h; y++)
        for (int x = 0; x <= w; x++) {
            int a = BLK(x - 1, y - 1), b = BLK(x, y - 1), c = BLK(x - 1, y), d = BLK(x, y);
            int v = (!(a == b && c == d) && !(a == c && b == d)) ||
                    ((x == 0 || x == w) && (y == 0 || y == h));
            id[y * (w + 1) + x] = v ? in.n : -1;
            if (v) in.xy[2 * in.n] = x, in.xy[2 * in.n + 1] = y, in.n++;
        }
    for (int dir = 0; dir < 2; dir++) /* horizontal runs, then vertical ones */
        for (int l = 0; l <= (dir ? w : h); l++)
            for (int k = 0, start = -1; k <= (dir ? h : w); k++) {
                int x = dir ? l : k, y = dir ? k : l;
                if (start >= 0 && id[y * (w + 1) + x] >= 0) {
                    int sx = dir ? l : start, sy = dir ? start : l;
                    in.segs[2 * in.nsegs] = id[sy * (w + 1) + sx];
                    in.segs[2 * in.nsegs + 1] = id[y * (w + 1) + x];
                    in.nsegs++;
                    start = -1;
                }
                int wall = dir ? (y < h && (BLK(x - 1, y) != BLK(x, y) || x == 0 || x == w))
                               : (x < w && (BLK(x, y - 1) != BLK(x, y) || y == 0 || y == h));
                if (wall && start < 0) start = k;
            }
#undef BLK
    free(id);
    return in;
}

/* TN_CDT_RECT_DOMAIN: one row sweep keeps free and blocked faces alike;
 * valid CDT (brute-force empty circles on small maps), the whole rectangle
 * covered, the same triangle count as the general builder's hull. */
static void test_sweep_rect_domain(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 97531, 5);
    for (int trial = 0; trial < 300; trial++) {
        int w = 1 + (int)tn_rng_below(&r, 20), h = 1 + (int)tn_rng_below(&r, 20);
        int kind = trial % 4;
        uint8_t *tiles = random_tiles(&r, w, h, kind == 2 ? 0 : 1 + (int)tn_rng_below(&r, 25),
                                      1 + (int)tn_rng_below(&r, 6), kind >= 2 ? 2 + kind : 0);
        input in = rect_input(tiles, w, h);
        tn_error err;
        tn_cdt *c = NULL;
        tn_cdt_create(in.n, in.nsegs, NULL, &c, &err);
        assert_non_null(c);
        int32_t *xy = malloc(sizeof(int32_t) * (size_t)(2 * in.n + 2));
        for (int i = 0; i < 2 * in.n; i++) xy[i] = (int32_t)in.xy[i];
        tn_status st = tn_cdt_build_i(c, xy, in.n, in.segs, in.nsegs, TN_CDT_RECT_DOMAIN, &err);
        if (tn_failed(st)) fail_msg("%s", err.msg);
        tn_cdt_stats stats;
        tn_cdt_get_stats(c, &stats);
        assert_int_equal(stats.rectilinear, 1);
        tn_cdt_mesh m;
        tn_cdt_get_mesh(c, &m);
        check_opts o = {w * h <= 120, 0};
        check_mesh(&in, &m, o);
        double area = 0;
        for (int t = 0; t < m.ntris; t++)
            area += area2(&in, m.tri[3 * t], m.tri[3 * t + 1], m.tri[3 * t + 2]);
        assert_true(fabs(area - 2.0 * w * h) < 1e-9);
        int ntris = m.ntris;
        st = tn_cdt_build_i(c, xy, in.n, in.segs, in.nsegs, TN_CDT_INCREMENTAL, &err);
        if (tn_failed(st)) fail_msg("general path: %s", err.msg);
        tn_cdt_get_mesh(c, &m);
        assert_int_equal(m.ntris, ntris);
        assert_true(tn_failed(tn_cdt_build_i(c, xy, in.n, in.segs, in.nsegs,
                                             TN_CDT_RECT_DOMAIN | TN_CDT_REMOVE_OUTSIDE, &err)));
        /* a side with a gap is refused by the sweep (the general builder
         * triangulates the hull instead) */
        int k = 0;
        while (k < in.nsegs &&
               (in.xy[2 * in.segs[2 * k] + 1] != 0 || in.xy[2 * in.segs[2 * k + 1] + 1] != 0))
            k++;
        assert_true(k < in.nsegs);
        in.segs[2 * k] = in.segs[2 * in.nsegs - 2];
        in.segs[2 * k + 1] = in.segs[2 * in.nsegs - 1];
        st = tn_cdt_build_i(c, xy, in.n, in.segs, in.nsegs - 1, TN_CDT_RECT_DOMAIN, &err);
        if (tn_failed(st)) fail_msg("gap: %s", err.msg);
        tn_cdt_get_stats(c, &stats);
        assert_int_equal(stats.rectilinear, 0);
        tn_cdt_get_mesh(c, &m);
        assert_int_equal(m.ntris, ntris);
        free(xy);
        tn_cdt_destroy(c);
        input_free(&in);
        free(tiles);
    }
}

/* The same outlines on a stretched grid (random gaps of 1-60 between grid
 * lines): long thin free spaces, big circles, irregular cocircularity. */
static void test_sweep_stretched(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 2468, 3);
    int gx[41], gy[41];
    for (int trial = 0; trial < 200; trial++) {
        int w = 1 + (int)tn_rng_below(&r, 16), h = 1 + (int)tn_rng_below(&r, 16);
        gx[0] = gy[0] = -(int)tn_rng_below(&r, 1000);
        for (int k = 1; k <= 40; k++) {
            gx[k] = gx[k - 1] + 1 + (int)tn_rng_below(&r, trial % 3 ? 60 : 3);
            gy[k] = gy[k - 1] + 1 + (int)tn_rng_below(&r, trial % 5 ? 60 : 2);
        }
        uint8_t *tiles = random_tiles(&r, w, h, 1 + (int)tn_rng_below(&r, 12),
                                      1 + (int)tn_rng_below(&r, 4), trial % 2 ? 3 : 0);
        int nfree = 0;
        for (int i = 0; i < w * h; i++) nfree += !tiles[i];
        input in = outline_input_at(tiles, w, h, gx, gy);
        if (nfree > 0) check_outline_at(&in, tiles, w, h, gx, gy, w * h <= 100, 1);
        input_free(&in);
        free(tiles);
    }
}

/* Random damage to valid outlines: a constraint dropped (an open outline),
 * a point moved off the grid line, a point added on a vertical constraint
 * with constraints to both sides, a crossing rectangle.  Whatever the sweep
 * does, the answer must be the general path's: the same status, and when
 * it succeeds, a valid mesh with the same triangle count. */
static void test_sweep_mutations(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 1357, 5);
    for (int trial = 0; trial < 300; trial++) {
        int w = 2 + (int)tn_rng_below(&r, 12), h = 2 + (int)tn_rng_below(&r, 12);
        uint8_t *tiles = random_tiles(&r, w, h, 1 + (int)tn_rng_below(&r, 10), 3, 0);
        input base = outline_input(tiles, w, h);
        free(tiles);
        if (base.n < 4 || base.nsegs < 2) {
            input_free(&base);
            continue;
        }
        input in = input_new(base.n + 4, base.nsegs + 4);
        memcpy(in.xy, base.xy, sizeof(double) * 2 * (size_t)base.n);
        memcpy(in.segs, base.segs, sizeof(int32_t) * 2 * (size_t)base.nsegs);
        in.n = base.n;
        in.nsegs = base.nsegs;
        int kind = trial % 4;
        if (kind == 0) { /* drop a constraint */
            int k = (int)tn_rng_below(&r, (uint32_t)in.nsegs);
            in.segs[2 * k] = in.segs[2 * in.nsegs - 2];
            in.segs[2 * k + 1] = in.segs[2 * in.nsegs - 1];
            in.nsegs--;
        } else if (kind == 1) { /* move a point by one in x */
            int k = (int)tn_rng_below(&r, (uint32_t)in.n);
            in.xy[2 * k] += tn_rng_below(&r, 2) ? 1 : -1;
        } else if (kind == 2) { /* a point with left and right constraints on a vertical one */
            int k = (int)tn_rng_below(&r, (uint32_t)in.nsegs);
            int a = in.segs[2 * k], b = in.segs[2 * k + 1];
            double x = in.xy[2 * a], y0 = fmin(in.xy[2 * a + 1], in.xy[2 * b + 1]),
                   y1 = fmax(in.xy[2 * a + 1], in.xy[2 * b + 1]);
            if (in.xy[2 * b] == x && y1 - y0 >= 2) { /* vertical: three new points, one on it */
                double y = y0 + 1;
                int n = in.n;
                in.xy[2 * n] = x - 1, in.xy[2 * n + 1] = y;
                in.xy[2 * n + 2] = x, in.xy[2 * n + 3] = y;
                in.xy[2 * n + 4] = x + 1, in.xy[2 * n + 5] = y;
                in.segs[2 * in.nsegs] = n, in.segs[2 * in.nsegs + 1] = n + 1;
                in.segs[2 * in.nsegs + 2] = n + 1, in.segs[2 * in.nsegs + 3] = n + 2;
                in.n += 3;
                in.nsegs += 2;
            }
        } else { /* a rectangle that may cross outlines */
            int n = in.n;
            int x0 = (int)tn_rng_below(&r, (uint32_t)w), y0 = (int)tn_rng_below(&r, (uint32_t)h);
            int x1 = x0 + 1 + (int)tn_rng_below(&r, 4), y1 = y0 + 1 + (int)tn_rng_below(&r, 4);
            double P[8] = {x0, y0, x1, y0, x0, y1, x1, y1};
            memcpy(in.xy + 2 * n, P, sizeof P);
            int32_t S[8] = {n, n + 1, n, n + 2, n + 1, n + 3, n + 2, n + 3};
            memcpy(in.segs + 2 * in.nsegs, S, sizeof S);
            in.n += 4;
            in.nsegs += 4;
        }
        /* sorted order kept where it was: re-sort the points by (y, x) */
        int *ord = malloc(sizeof(int) * (size_t)in.n), *inv = malloc(sizeof(int) * (size_t)in.n);
        for (int i = 0; i < in.n; i++) ord[i] = i;
        for (int i = 1; i < in.n; i++) /* insertion sort, stable */
            for (int j = i; j > 0; j--) {
                const double *A = in.xy + 2 * ord[j - 1], *B = in.xy + 2 * ord[j];
                if (A[1] < B[1] || (A[1] == B[1] && A[0] <= B[0])) break;
                int t = ord[j];
                ord[j] = ord[j - 1];
                ord[j - 1] = t;
            }
        input srt = input_new(in.n, in.nsegs);
        for (int i = 0; i < in.n; i++) {
            srt.xy[2 * i] = in.xy[2 * ord[i]], srt.xy[2 * i + 1] = in.xy[2 * ord[i] + 1];
            inv[ord[i]] = i;
        }
        for (int k = 0; k < 2 * in.nsegs; k++) srt.segs[k] = inv[in.segs[k]];
        free(ord);
        free(inv);
        tn_error e1, e2;
        check_opts o = {srt.n <= 60, 1};
        tn_cdt_mesh m1, m2;
        tn_status s1 = run_i(&srt, TN_CDT_REMOVE_OUTSIDE, o, &m1, &e1);
        tn_status s2 = run_i(&srt, TN_CDT_REMOVE_OUTSIDE | TN_CDT_INCREMENTAL, o, &m2, &e2);
        if (tn_failed(s1) != tn_failed(s2))
            fail_msg("trial %d: sweep %s, general path %s", trial, tn_failed(s1) ? e1.msg : "ok",
                     tn_failed(s2) ? e2.msg : "ok");
        if (!tn_failed(s1)) assert_int_equal(m1.ntris, m2.ntris);
        input_free(&srt);
        input_free(&in);
        input_free(&base);
    }
}

/* The benchmark's kind of map: 256 x 256, random blocks of side 1-8. */
static void test_sweep_tile_map_256(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 78, 7);
    for (int k = 0; k < 3; k++) {
        uint8_t *tiles = random_tiles(&r, 256, 256, 700 + 1300 * k, 8, 0);
        input in = outline_input(tiles, 256, 256);
        check_outline(&in, tiles, 256, 256, 0, 1);
        input_free(&in);
        free(tiles);
    }
}

/* Inputs that look rectilinear but are not for the sweep: it must hand
 * them to the general path, which then gives its usual answer. */
static void test_sweep_fallbacks(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 99, 1);
    uint8_t *tiles = random_tiles(&r, 12, 10, 8, 4, 4);
    input in = outline_input(tiles, 12, 10);
    /* points in reverse order: not sorted */
    input rev = input_new(in.n, in.nsegs);
    for (int i = 0; i < in.n; i++) {
        rev.xy[2 * i] = in.xy[2 * (in.n - 1 - i)];
        rev.xy[2 * i + 1] = in.xy[2 * (in.n - 1 - i) + 1];
    }
    for (int s = 0; s < 2 * in.nsegs; s++) rev.segs[s] = in.n - 1 - in.segs[s];
    check_outline(&rev, tiles, 12, 10, 1, 0);
    /* a repeated constraint */
    input dup = input_new(in.n, in.nsegs + 1);
    memcpy(dup.xy, in.xy, sizeof(double) * 2 * (size_t)in.n);
    memcpy(dup.segs, in.segs, sizeof(int32_t) * 2 * (size_t)in.nsegs);
    dup.segs[2 * in.nsegs] = in.segs[1], dup.segs[2 * in.nsegs + 1] = in.segs[0];
    check_outline(&dup, tiles, 12, 10, 1, 0);
    input_free(&dup);
    input_free(&rev);
    input_free(&in);
    free(tiles);

    /* a point inside a vertical constraint (not split there), with
     * constraints to its left and right: even degree, sorted, but the
     * sweep meets it under the constraint's upper end */
    {
        input p = input_new(7, 6);
        static const double P[14] = {2, 0, 0, 2, 2, 2, 4, 2, 0, 4, 2, 4, 4, 4};
        memcpy(p.xy, P, sizeof P);
        static const int32_t S[12] = {0, 5, 1, 2, 2, 3, 1, 4, 3, 6, 4, 6};
        memcpy(p.segs, S, sizeof S);
        check_opts o = {1, 1};
        tn_cdt_mesh m1, m2;
        tn_error err;
        if (tn_failed(run_i(&p, TN_CDT_REMOVE_OUTSIDE, o, &m1, &err))) fail_msg("%s", err.msg);
        assert_int_equal(g_stats.rectilinear, 0);
        assert_true(g_stats.segments_split >= 1); /* the general path split it */
        if (tn_failed(run_i(&p, TN_CDT_REMOVE_OUTSIDE | TN_CDT_INCREMENTAL, o, &m2, &err)))
            fail_msg("%s", err.msg);
        assert_int_equal(m1.ntris, m2.ntris);
        input_free(&p);
    }
    /* crossing constraints with closed outlines: the square 0..4 and the
     * rectangle -1..5 x 2..6 cut each other; refused either way */
    {
        input p = input_new(8, 8);
        static const double P[16] = {0, 0, 4, 0, -1, 2, 5, 2, 0, 4, 4, 4, -1, 6, 5, 6};
        memcpy(p.xy, P, sizeof P);
        static const int32_t S[16] = {0, 1, 0, 4, 1, 5, 4, 5, 2, 3, 2, 6, 3, 7, 6, 7};
        memcpy(p.segs, S, sizeof S);
        tn_error err;
        check_opts o = {0, 1};
        tn_status st = run_i(&p, TN_CDT_REMOVE_OUTSIDE, o, NULL, &err);
        assert_true(tn_failed(st) && tn_status_detail(st, TN_INVALID_PARAM));
        assert_non_null(strstr(err.msg, "cross"));
        assert_int_equal(g_stats.rectilinear, 0);
        input_free(&p);
    }
}

/* ------------------------------------------------------------------------ */
/* Tests: floating-point input (adaptive exact predicates)                    */
/* ------------------------------------------------------------------------ */

static input float_input(int n) /* is_int = 0: the big-integer reference */
{
    input in = input_new(n, 0);
    in.is_int = 0;
    return in;
}

static double rnd01(tn_rng *r)
{
    uint64_t hi = tn_rng_u32(r), lo = tn_rng_u32(r);
    return (double)((hi << 21) ^ lo) * 0x1p-53;
}

static void test_float_random(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 8, 8);
    for (int trial = 0; trial < 40; trial++) {
        int n = 3 + (int)tn_rng_below(&r, 150);
        input in = float_input(n);
        for (int i = 0; i < 2 * n; i++) in.xy[i] = rnd01(&r) * 2 - 1;
        build_ok_d(&in, 0, BRUTE);
        input_free(&in);
    }
    input in = float_input(5000);
    for (int i = 0; i < 2 * in.n; i++) in.xy[i] = rnd01(&r) * 1e6;
    build_ok_d(&in, 0, LOCAL);
    input_free(&in);
}

/* Inputs where the floating-point filter cannot decide. */
static void test_float_near_degenerate(void **state)
{
    (void)state;
    memset(&g_total, 0, sizeof g_total);
    tn_rng r;
    tn_rng_seed(&r, 9, 9);
    /* (a) points on a circle, rounded: nearly cocircular, plus the centre */
    for (int n = 4; n <= 96; n += 23) {
        input in = float_input(n + 1);
        for (int k = 0; k < n; k++) {
            double t = 6.283185307179586 * k / n;
            in.xy[2 * k] = 3.0 + 1.7 * cos(t);
            in.xy[2 * k + 1] = -2.0 + 1.7 * sin(t);
        }
        in.xy[2 * n] = 3.0, in.xy[2 * n + 1] = -2.0;
        build_ok_d(&in, 0, BRUTE);
        input_free(&in);
    }
    /* (b) a grid with spacing 0.1 (not representable: quads almost cocircular,
     * rows almost collinear) */
    {
        int k = 15;
        input in = float_input(k * k);
        for (int y = 0; y < k; y++)
            for (int x = 0; x < k; x++)
                in.xy[2 * (y * k + x)] = x * 0.1, in.xy[2 * (y * k + x) + 1] = y * 0.1 + 0.3;
        build_ok_d(&in, 0, BRUTE);
        input_free(&in);
    }
    /* (c) points on the line y = 0.3 x + 0.1 computed in doubles, a few off it */
    for (int trial = 0; trial < 10; trial++) {
        int n = 20 + (int)tn_rng_below(&r, 100);
        input in = float_input(n);
        for (int i = 0; i < n; i++) {
            double x = rnd01(&r) * 10;
            in.xy[2 * i] = x;
            in.xy[2 * i + 1] = 0.3 * x + 0.1;
        }
        for (int i = 0; i < trial; i++)
            in.xy[2 * i + 1] += (tn_rng_below(&r, 2) ? 1 : -1) * 1e-15 * (i + 1);
        build_ok_d(&in, 0, BRUTE);
        input_free(&in);
    }
    /* (d) a lattice near 1.0 perturbed by a few ulps */
    for (int trial = 0; trial < 10; trial++) {
        int k = 8;
        input in = float_input(k * k);
        for (int y = 0; y < k; y++)
            for (int x = 0; x < k; x++) {
                double px = 1.0 + x * 0x1p-40, py = 1.0 + y * 0x1p-40;
                int jx = (int)tn_rng_below(&r, 5) - 2, jy = (int)tn_rng_below(&r, 5) - 2;
                in.xy[2 * (y * k + x)] = px + jx * 0x1p-52;
                in.xy[2 * (y * k + x) + 1] = py + jy * 0x1p-52;
            }
        build_ok_d(&in, 0, BRUTE);
        input_free(&in);
    }
    /* (e) extreme magnitudes at both ends of the accepted range */
    {
        input in = float_input(40);
        for (int i = 0; i < 20; i++) {
            in.xy[2 * i] = (rnd01(&r) + 0.5) * 1e29 * (i % 2 ? 1 : -1);
            in.xy[2 * i + 1] = (rnd01(&r) + 0.5) * 1e29;
        }
        for (int i = 20; i < 40; i++) {
            in.xy[2 * i] = (rnd01(&r) + 0.5) * 1e-29;
            in.xy[2 * i + 1] = (rnd01(&r) - 0.5 < 0 ? -1 : 1) * (rnd01(&r) + 0.5) * 1e-29;
        }
        build_ok_d(&in, 0, BRUTE);
        input_free(&in);
    }
    print_message("near-degenerate floats: %lld exact predicate evaluations\n",
                  g_total.exact_tests);
    assert_true(g_total.exact_tests > 1000);
}

/* Constraints on nearly degenerate floating-point input. */
static void test_float_constraints(void **state)
{
    (void)state;
    memset(&g_total, 0, sizeof g_total);
    tn_rng r;
    tn_rng_seed(&r, 10, 10);
    for (int trial = 0; trial < 60; trial++) {
        int k = 3 + (int)tn_rng_below(&r, 8), n = k * k;
        input in = float_input(n);
        for (int i = 0; i < n; i++) {
            /* a rotated grid: coordinates rounded, so near-collinear runs */
            double gx = i % k, gy = i / k;
            in.xy[2 * i] =
                0.8 * gx - 0.6 * gy + (trial % 2 ? 0x1p-50 * (int)tn_rng_below(&r, 3) : 0);
            in.xy[2 * i + 1] = 0.6 * gx + 0.8 * gy;
        }
        int tries = (int)tn_rng_below(&r, 30);
        in.segs = realloc(in.segs, sizeof(int32_t) * (size_t)(2 * tries + 2));
        int ns = 0;
        for (int t = 0; t < tries; t++) {
            int a = (int)tn_rng_below(&r, (uint32_t)n), b = (int)tn_rng_below(&r, (uint32_t)n);
            int ok = a != b;
            for (int s2 = 0; s2 < ns && ok; s2++)
                ok = !seg_cross_proper(&in, a, b, in.segs[2 * s2], in.segs[2 * s2 + 1]);
            if (!ok) continue;
            in.segs[2 * ns] = a, in.segs[2 * ns + 1] = b, ns++;
        }
        in.nsegs = ns;
        build_ok_d(&in, 0, LOCAL);
        build_ok_d(&in, TN_CDT_REMOVE_OUTSIDE, LOCAL);
        input_free(&in);
    }
    /* a point one ulp off a constraint is not on it */
    input in = float_input(5);
    double P[10] = {0, 0, 1, 1, 0.5, 0.5 + 0x1p-53, 1, 0, 0, 1};
    memcpy(in.xy, P, sizeof P);
    in.segs = realloc(in.segs, sizeof(int32_t) * 2);
    in.segs[0] = 0, in.segs[1] = 1, in.nsegs = 1;
    build_ok_d(&in, 0, LOCAL);
    input_free(&in);
    print_message("float constraints: %lld exact predicate evaluations\n", g_total.exact_tests);
    assert_true(g_total.exact_tests > 100);
}

/* Integer-valued doubles: build_d agrees with build_i. */
static void test_float_matches_int(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 12, 12);
    for (int trial = 0; trial < 30; trial++) {
        input in;
        random_constrained(&r, 5 + (int)tn_rng_below(&r, 80), 3 + (int)tn_rng_below(&r, 30), 20,
                           &in);
        int ti = build_ok_i(&in, TN_CDT_REMOVE_OUTSIDE, BRUTE);
        in.is_int = 0; /* big-integer reference this time */
        int td = build_ok_d(&in, TN_CDT_REMOVE_OUTSIDE, LOCAL);
        assert_int_equal(ti, td);
        input_free(&in);
    }
    /* -0.0 and 0.0 are the same point; range limits */
    input in = float_input(4);
    double P[8] = {0.0, 0.0, -0.0, -0.0, 1, 0, 0, 1};
    memcpy(in.xy, P, sizeof P);
    assert_int_equal(build_ok_d(&in, 0, BRUTE), 1);
    tn_error err;
    in.xy[2] = 1e31;
    assert_true(tn_failed(run_d(&in, 0, LOCAL, NULL, &err)));
    assert_non_null(strstr(err.msg, "point 1"));
    in.xy[2] = 1e-31;
    assert_true(tn_failed(run_d(&in, 0, LOCAL, NULL, &err)));
    in.xy[2] = INFINITY;
    assert_true(tn_failed(run_d(&in, 0, LOCAL, NULL, &err)));
    input_free(&in);
}

/* ------------------------------------------------------------------------ */
/* Tests: API boundary and memory                                             */
/* ------------------------------------------------------------------------ */

static void test_bad_params(void **state)
{
    (void)state;
    tn_error err;
    tn_cdt *c = (tn_cdt *)&err; /* must become NULL */
    tn_status cs = tn_cdt_create(-1, 0, NULL, &c, &err);
    assert_true(tn_failed(cs) && tn_status_detail(cs, TN_INVALID_PARAM));
    assert_null(c);
    assert_non_null(strstr(err.msg, "max_points"));
    assert_true(tn_failed(tn_cdt_create(4, 1, NULL, NULL, &err))); /* no out */
    assert_int_equal(tn_cdt_create(4, 1, NULL, &c, &err), TN_OK);
    assert_int_equal(err.status, TN_OK); /* a success clears the record */
    assert_string_equal(err.msg, "");
    int32_t xy[10] = {0, 0, 1, 0, 0, 1, 1, 1, 5, 5};
    int32_t seg[4] = {0, 3, 1, 2};
    tn_status st = tn_cdt_build_i(c, xy, 5, NULL, 0, 0, &err);
    assert_true(tn_failed(st) && tn_status_detail(st, TN_INVALID_PARAM));
    assert_non_null(strstr(err.msg, "npoints 5"));
    st = tn_cdt_build_i(c, xy, 4, seg, 2, 0, &err);
    assert_true(tn_failed(st) && tn_status_detail(st, TN_INVALID_PARAM));
    seg[1] = 4;
    st = tn_cdt_build_i(c, xy, 4, seg, 1, 0, &err);
    assert_true(tn_failed(st));
    assert_non_null(strstr(err.msg, "point 4"));
    seg[1] = 3;
    st = tn_cdt_build_i(c, xy, 4, seg, 1, 1u << 9, &err);
    assert_true(tn_failed(st));
    assert_non_null(strstr(err.msg, "flags"));
    xy[3] = TN_CDT_MAX_COORD + 1;
    st = tn_cdt_build_i(c, xy, 4, seg, 1, 0, &err);
    assert_true(tn_failed(st));
    assert_non_null(strstr(err.msg, "point 1"));
    tn_cdt_mesh m;
    tn_cdt_get_mesh(c, &m);
    assert_int_equal(m.ntris, 0); /* a failed build publishes nothing */
    xy[3] = 0;
    st = tn_cdt_build_i(c, xy, 4, seg, 1, 0, &err);
    assert_false(tn_failed(st));
    tn_cdt_get_mesh(c, &m);
    assert_int_equal(m.ntris, 2);
    double dxy[8] = {0, 0, 1, 0, 0, NAN, 1, 1};
    st = tn_cdt_build_d(c, dxy, 4, seg, 1, 0, &err);
    assert_true(tn_failed(st));
    assert_string_equal(err.msg, "cdt: point 2 has y not a number (NaN)");
    dxy[5] = -NAN; /* said "y = -nan" */
    assert_true(tn_failed(tn_cdt_build_d(c, dxy, 4, seg, 1, 0, &err)));
    assert_string_equal(err.msg, "cdt: point 2 has y not a number (NaN)");
    tn_cdt_destroy(c);
}

static int g_allocs;
static void *count_alloc(void *user, size_t size)
{
    (void)user;
    g_allocs++;
    return malloc(size);
}
static void count_free(void *user, void *p)
{
    (void)user;
    free(p);
}

static void test_no_alloc_in_build(void **state)
{
    (void)state;
    tn_allocator a = {count_alloc, count_free, NULL};
    g_allocs = 0;
    tn_error err;
    tn_cdt *c = NULL;
    tn_cdt_create(5000, 100, &a, &c, &err);
    assert_non_null(c);
    int after_create = g_allocs;
    tn_rng r;
    tn_rng_seed(&r, 3, 3);
    int32_t *xy = malloc(sizeof(int32_t) * 10000);
    int32_t seg[200];
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 10000; i++) xy[i] = (int32_t)tn_rng_below(&r, 100);
        for (int s = 0; s < 200; s++)
            seg[s] = s; /* segments between consecutive points may cross */
        tn_status st = tn_cdt_build_i(c, xy, 5000, seg, 0, TN_CDT_REMOVE_OUTSIDE, &err);
        assert_false(tn_failed(st));
    }
    assert_int_equal(g_allocs, after_create);
    /* the rectilinear sweep too */
    uint8_t *tiles = random_tiles(&r, 60, 50, 80, 6, 0);
    input in = outline_input(tiles, 60, 50);
    assert_true(in.n <= 5000 && in.nsegs <= 5000);
    tn_cdt *c2 = NULL;
    tn_cdt_create(5000, 5000, &a, &c2, &err);
    after_create = g_allocs;
    for (int i = 0; i < 2 * in.n; i++) xy[i] = (int32_t)in.xy[i];
    for (int round = 0; round < 3; round++) {
        tn_status st = tn_cdt_build_i(c2, xy, in.n, in.segs, in.nsegs, TN_CDT_REMOVE_OUTSIDE, &err);
        assert_false(tn_failed(st));
        tn_cdt_stats stats;
        tn_cdt_get_stats(c2, &stats);
        assert_int_equal(stats.rectilinear, 1);
    }
    assert_int_equal(g_allocs, after_create);
    tn_cdt_destroy(c2);
    input_free(&in);
    free(tiles);
    free(xy);
    tn_cdt_destroy(c);
}

/* tn_cdt_memory is what tn_cdt_create allocated (a counting allocator). */
static void test_memory_counted(void **state)
{
    (void)state;
    const int pts[3] = {0, 100, 5000};
    for (int k = 0; k < 3; k++) {
        tu_counting cnt = {0};
        tn_allocator a = tu_counting_allocator(&cnt);
        tn_cdt *c = NULL;
        assert_true(tn_succeeded(tn_cdt_create(pts[k], 2 * pts[k], &a, &c, NULL)));
        assert_int_equal(tn_cdt_memory(c), cnt.bytes);
        tn_cdt_destroy(c);
    }
    assert_int_equal(tn_cdt_memory(NULL), 0);
}

/* tn_cdt_get_mesh / _get_stats with no tn_cdt: all zero, as from a build
 * of nothing (they dereferenced it); no output: nothing. */
static void test_get_null(void **state)
{
    (void)state;
    tn_cdt_mesh m;
    memset(&m, 0xff, sizeof m);
    tn_cdt_get_mesh(NULL, &m);
    assert_int_equal(m.ntris, 0);
    assert_int_equal(m.npoints, 0);
    assert_null(m.tri);
    assert_null(m.remap);
    tn_cdt_stats st;
    memset(&st, 0xff, sizeof st);
    tn_cdt_get_stats(NULL, &st);
    assert_int_equal(st.points, 0);
    assert_true(st.flips == 0);
    tn_cdt *c = NULL;
    assert_true(tn_succeeded(tn_cdt_create(8, 8, NULL, &c, NULL)));
    tn_cdt_get_mesh(c, NULL);
    tn_cdt_get_stats(c, NULL);
    tn_cdt_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_collinear),
        cmocka_unit_test(test_grids),
        cmocka_unit_test(test_random_small_range),
        cmocka_unit_test(test_random_large),
        cmocka_unit_test(test_constraints_random),
        cmocka_unit_test(test_cavity_slit),
        cmocka_unit_test(test_long_constraints),
        cmocka_unit_test(test_constraint_through_points),
        cmocka_unit_test(test_crossing_refused),
        cmocka_unit_test(test_tile_maps),
        cmocka_unit_test(test_tile_map_256),
        cmocka_unit_test(test_sweep_tile_maps),
        cmocka_unit_test(test_sweep_stretched),
        cmocka_unit_test(test_sweep_rect_domain),
        cmocka_unit_test(test_sweep_mutations),
        cmocka_unit_test(test_sweep_tile_map_256),
        cmocka_unit_test(test_sweep_fallbacks),
        cmocka_unit_test(test_float_random),
        cmocka_unit_test(test_float_near_degenerate),
        cmocka_unit_test(test_float_constraints),
        cmocka_unit_test(test_float_matches_int),
        cmocka_unit_test(test_bad_params),
        cmocka_unit_test(test_no_alloc_in_build),
        cmocka_unit_test(test_memory_counted),
        cmocka_unit_test(test_get_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
