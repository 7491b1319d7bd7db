/* tn_cdt.c - constrained Delaunay triangulation: create / destroy, the
 * general builder (ALGORITHM B of tn_cdt.h: sweep-hull Delaunay, segment
 * insertion, even-odd removal) and the build entry points, which try the
 * row sweep (tn_cdt_sweep.c) first.  Exact predicates: tn_cdt_pred.c.
 * See tn_cdt.h for the algorithm, the robustness argument and the cost. */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/cdt_impl.h"
#include "internal/memcount.h"

/* ------------------------------------------------------------------------ */
/* Create / destroy                                                           */
/* ------------------------------------------------------------------------ */

void tn_cdt_destroy(tn_cdt *c)
{
    if (!c) return;
    const tn_allocator *a = c->ap;
    tn_free(a, c->xy);
    tn_free(a, c->sxy);
    tn_free(a, c->loc);
    tn_free(a, c->remap);
    tn_free(a, c->vert_tri);
    tn_free(a, c->vert_edge);
    tn_free(a, c->dedup);
    tn_free(a, c->hull_next);
    tn_free(a, c->hull_prev);
    tn_free(a, c->hull_tri);
    tn_free(a, c->hull_hash);
    tn_free(a, c->keys);
    tn_free(a, c->keys2);
    tn_free(a, c->ids);
    tn_free(a, c->ids2);
    tn_free(a, c->tris);
    tn_free(a, c->he);
    tn_free(a, c->fixed);
    tn_free(a, c->stack);
    tn_free(a, c->tmp_a);
    tn_free(a, c->tmp_b);
    tn_free(a, c->tscratch);
    tn_free(a, c->pflag);
    tn_free(a, c->colv);
    tn_free(a, c->colbits);
    tn_free(a, c);
}

static tn_cdt *cdt_new(int max_points, int max_segments, const tn_allocator *a, tn_error *err)
{
    if (max_points < 0 || max_points > TN_CDT_MAX_POINTS || max_segments < 0) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "cdt: max_points %d must be in 0..%d and max_segments %d >= 0", max_points,
                     TN_CDT_MAX_POINTS, max_segments);
        return NULL;
    }
    tn_memcount mc; /* (the object's memory: what its create allocated) */
    tn_allocator ca = tn_memcount_wrap(&mc, a);
    tn_cdt *c = tn_alloc(&ca, sizeof *c);
    if (!c) goto oom;
    if (a) {
        c->alloc = *a;
        c->ap = &c->alloc;
    }
    c->max_points = max_points;
    c->max_segments = max_segments;
    size_t np = (size_t)max_points + 4;
    c->max_tris = 2 * max_points + 4;
    size_t nt = (size_t)c->max_tris;
    uint32_t dsz = 16;
    while (dsz < 2 * (uint32_t)np) dsz <<= 1;
    c->dedup_mask = dsz - 1;
    int hs = 1;
    while ((double)hs * hs < (double)np) hs++;
    c->hash_size = hs; /* capacity; each build uses ceil(sqrt(n)) */
    /* a constraint crosses fewer edges than there are triangles (it meets
     * each triangle once): its queue and new-edge list of vertex pairs fit
     * in 2*nt ints each; the removal's two BFS layers need nt each */
    c->tmp_cap = (int)(2 * nt + 16);
    c->chain_off = (int)np + 8; /* a chain holds distinct points: < np + 8 entries */
    c->xy = tn_alloc_array(&ca, 2 * np, sizeof *c->xy);
    c->sxy = tn_alloc_array(&ca, 2 * np, sizeof *c->sxy);
    c->loc = tn_alloc_array(&ca, np, sizeof *c->loc);
    c->remap = tn_alloc_array(&ca, np, sizeof(int32_t));
    c->vert_tri = tn_alloc_array(&ca, np, sizeof(int32_t));
    c->vert_edge = tn_alloc_array(&ca, np, sizeof(int32_t));
    c->dedup = tn_alloc_array(&ca, dsz, sizeof(int32_t));
    c->hull_next = tn_alloc_array(&ca, np, sizeof(int32_t));
    c->hull_prev = tn_alloc_array(&ca, np, sizeof(int32_t));
    c->hull_tri = tn_alloc_array(&ca, np, sizeof(int32_t));
    c->hull_hash = tn_alloc_array(&ca, (size_t)hs, sizeof(int32_t));
    c->keys = tn_alloc_array(&ca, np, sizeof(uint32_t));
    c->keys2 = tn_alloc_array(&ca, np, sizeof(uint32_t));
    c->ids = tn_alloc_array(&ca, np, sizeof(int32_t));
    c->ids2 = tn_alloc_array(&ca, np, sizeof(int32_t));
    c->tris = tn_alloc_array(&ca, 3 * nt, sizeof(int32_t));
    c->he = tn_alloc_array(&ca, 3 * nt, sizeof(int32_t));
    c->fixed = tn_alloc_array(&ca, 3 * nt, sizeof(uint8_t));
    c->stack = tn_alloc_array(&ca, np + 16, sizeof(int32_t));
    c->tmp_a = tn_alloc_array(&ca, (size_t)c->tmp_cap, sizeof(int32_t));
    c->tmp_b = tn_alloc_array(&ca, (size_t)c->tmp_cap, sizeof(int32_t));
    c->tscratch = tn_alloc_array(&ca, nt, sizeof(int32_t));
    /* sweep columns (x span + 2 of them): at least 4160, more when there
     * are points for them (a w-wide tile map has more than w corners), up
     * to the exact range: 16.6-66 KB */
    size_t cols = 4 * (size_t)max_points + 64;
    if (cols < 4096 + 64) cols = 4096 + 64;
    if (cols > RECT_MAX_SPAN + 64) cols = RECT_MAX_SPAN + 64;
    c->col_cap = (int)((cols + 63) / 64 * 64);
    c->pflag = tn_alloc_array(&ca, np, 1);
    c->colv = tn_alloc_array(&ca, (size_t)c->col_cap, sizeof(int32_t));
    c->colbits = tn_alloc_array(&ca, (size_t)c->col_cap / 64, sizeof(uint64_t));
    if (!c->pflag || !c->colv || !c->colbits) goto oom;
    if (!c->xy || !c->sxy || !c->loc || !c->remap || !c->vert_tri || !c->vert_edge || !c->dedup ||
        !c->hull_next || !c->hull_prev || !c->hull_tri || !c->hull_hash || !c->keys || !c->keys2 ||
        !c->ids || !c->ids2 || !c->tris || !c->he || !c->fixed || !c->stack || !c->tmp_a ||
        !c->tmp_b || !c->tscratch)
        goto oom;
    c->mem = mc.bytes;
    return c;
oom:
    tn_cdt_destroy(c);
    tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "cdt: out of memory for %d points",
                 max_points);
    return NULL;
}

size_t tn_cdt_memory(const tn_cdt *c) { return c ? c->mem : 0; }

tn_status tn_cdt_create(int max_points, int max_segments, const tn_allocator *a, tn_cdt **out,
                        tn_error *err)
{
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "cdt: no output pointer (out NULL)");
    tn_error local;
    tn_error *e = err ? err : &local;
    *out = cdt_new(max_points, max_segments, a, e);
    return *out ? cdt_ok(err) : e->status;
}

/* ------------------------------------------------------------------------ */
/* Triangle primitives                                                        */
/* ------------------------------------------------------------------------ */

static inline void link_he(tn_cdt *c, int a, int b)
{
    c->he[a] = b;
    if (b != -1) c->he[b] = a;
}

static inline int add_tri(tn_cdt *c, int v0, int v1, int v2, int h0, int h1, int h2)
{
    int t = 3 * c->ntris++;
    c->tris[t] = v0;
    c->tris[t + 1] = v1;
    c->tris[t + 2] = v2;
    link_he(c, t, h0);
    link_he(c, t + 1, h1);
    link_he(c, t + 2, h2);
    return t;
}

/* Restore the Delaunay property around a freshly inserted point p0 after
 * half-edge a (opposite p0) was created: Lawson flips with an explicit
 * stack.  The flip test is STRICT (flip only when the fourth point is
 * strictly inside the circle): every flip strictly lowers the lifted
 * surface, so no sequence of flips can cycle, whatever the cocircularity.
 * Returns the half-edge that now carries the edge p0 -> pr of a's original
 * triangle (the sweep uses it to follow the new hull edge). */
/* The exact stage of "d strictly inside the circle (a, b, cc)", after the
 * filter failed (out of line: keeps legalize's registers free). */
static CDT_NOINLINE int incircle_slow(tn_cdt *c, const double *a, const double *b, const double *cc,
                                      const double *d)
{
    c->st.exact_tests++;
#if defined(__SIZEOF_INT128__)
    if (c->exact_int) return incircle_exact_int(a, b, cc, d);
#endif
    return incircle_adapt(a, b, cc, d, 0.0);
}

/* d strictly inside the circle through the ccw triangle (a, b, cc), for a
 * compile-time predicate mode (see legalize). */
CDT_INLINE int incircle_pos(tn_cdt *c, const int mode, const double *restrict pt, int ia, int ib,
                            int ic, int id)
{
    const double *a = pt + 2 * ia, *b = pt + 2 * ib, *cc = pt + 2 * ic, *d = pt + 2 * id;
    double adx = a[0] - d[0], ady = a[1] - d[1];
    double bdx = b[0] - d[0], bdy = b[1] - d[1];
    double cdx = cc[0] - d[0], cdy = cc[1] - d[1];
    double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy, alift = adx * adx + ady * ady;
    double cdxady = cdx * ady, adxcdy = adx * cdy, blift = bdx * bdx + bdy * bdy;
    double adxbdy = adx * bdy, bdxady = bdx * ady, clift = cdx * cdx + cdy * cdy;
    double det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
    if (mode == CDT_EXACT_DOUBLE) return det > 0;
    double permanent = (fabs(bdxcdy) + fabs(cdxbdy)) * alift +
                       (fabs(cdxady) + fabs(adxcdy)) * blift +
                       (fabs(adxbdy) + fabs(bdxady)) * clift;
    double bound = CDT_ICC_BOUND_A * permanent;
    if (det > bound) return 1;
    if (-det > bound) return 0;
    return incircle_slow(c, a, b, cc, d) > 0;
}

/* Restore the Delaunay property around a freshly inserted point p0 after
 * half-edge a (opposite p0) was created: Lawson flips with an explicit
 * stack.  The flip test is STRICT (flip only when the fourth point is
 * strictly inside the circle): every flip strictly lowers the lifted
 * surface, so no sequence of flips can cycle, whatever the cocircularity.
 * Returns the half-edge that now carries the edge p0 -> pr of a's original
 * triangle (the sweep uses it to follow the new hull edge).  The stack
 * never holds more than one entry per flip, and every flip adds an edge at
 * p0: at most npoints entries.  Instantiated once per predicate mode. */
CDT_INLINE int legalize_impl(tn_cdt *c, int a, const int mode)
{
    int32_t *restrict tris = c->tris, *restrict he = c->he, *restrict stack = c->stack;
    int32_t *restrict ht = c->hull_tri;
    const double *restrict pt = c->pt;
    int i = 0, ar, flips = 0;
    for (;;) {
        int b = he[a];
        int a0 = he_base(a);
        ar = a == a0 ? a + 2 : a - 1;
        if (b >= 0) {
            int al = a == a0 + 2 ? a0 : a + 1;
            int b0 = he_base(b);
            int bl = b == b0 ? b + 2 : b - 1;
            int p0 = tris[ar], pr = tris[a], pl = tris[al], p1 = tris[bl];
            if (incircle_pos(c, mode, pt, p0, pr, pl, p1)) {
                tris[a] = p1;
                tris[b] = p0;
                int hbl = he[bl], har = he[ar];
                /* a hull edge moved to another slot: keep hull_tri pointing at it */
                if (hbl < 0) ht[p1] = a;
                if (har < 0) ht[p0] = b;
                he[a] = hbl;
                if (hbl >= 0) he[hbl] = a;
                he[b] = har;
                if (har >= 0) he[har] = b;
                he[ar] = bl;
                he[bl] = ar;
                stack[i++] = b == b0 + 2 ? b0 : b + 1;
                flips++;
                continue;
            }
        }
        if (i == 0) break;
        a = stack[--i];
    }
    c->st.flips += flips;
    return ar;
}

static int legalize_exact(tn_cdt *c, int a) { return legalize_impl(c, a, CDT_EXACT_DOUBLE); }
static int legalize_filtered(tn_cdt *c, int a) { return legalize_impl(c, a, CDT_INT); }

static inline int legalize(tn_cdt *c, int a)
{
    return c->mode == CDT_EXACT_DOUBLE ? legalize_exact(c, a) : legalize_filtered(c, a);
}

/* ------------------------------------------------------------------------ */
/* Sweep-hull Delaunay triangulation                                          */
/* ------------------------------------------------------------------------ */

static inline double pseudo_angle(double dx, double dy)
{
    double s = fabs(dx) + fabs(dy);
    if (s == 0.0) return 0.0;
    double p = dx / s;
    return (dy > 0 ? 3.0 - p : 1.0 + p) * 0.25; /* [0, 1], counter-clockwise */
}

static inline int hash_key(const tn_cdt *c, int i)
{
    int k = (int)(pseudo_angle(c->pt[2 * i] - c->cx, c->pt[2 * i + 1] - c->cy) * c->hash_size);
    return k >= c->hash_size ? k - c->hash_size : (k < 0 ? 0 : k);
}

/* Sort ids[0..n) by keys below 2^keybits (LSD radix, 11 bits a pass, stable). */
static void radix_sort(tn_cdt *c, int n, int keybits)
{
    uint32_t *k0 = c->keys, *k1 = c->keys2;
    int32_t *i0 = c->ids, *i1 = c->ids2;
    for (int shift = 0; shift < keybits; shift += 11) {
        uint32_t count[2048];
        memset(count, 0, sizeof count);
        for (int i = 0; i < n; i++) count[(k0[i] >> shift) & 2047]++;
        uint32_t sum = 0;
        for (int b = 0; b < 2048; b++) {
            uint32_t t = count[b];
            count[b] = sum;
            sum += t;
        }
        for (int i = 0; i < n; i++) {
            uint32_t d = count[(k0[i] >> shift) & 2047]++;
            k1[d] = k0[i];
            i1[d] = i0[i];
        }
        uint32_t *tk = k0;
        k0 = k1;
        k1 = tk;
        int32_t *ti = i0;
        i0 = i1;
        i1 = ti;
    }
    if (i0 != c->ids) { /* an odd number of passes: the result is in the second buffers */
        memcpy(c->ids, i0, (size_t)n * sizeof *i0);
    }
}

/* Find the triangle containing point p by a visibility walk from triangle t
 * (a walk that always terminates in a Delaunay triangulation; it varies the
 * order in which it tries the edges, and a brute-force scan backs it up).
 * Returns the triangle, *where = -1 when p is strictly inside, else the
 * half-edge p lies on, *dup = the vertex p coincides with or -1.  Returns -1
 * when p is outside the hull: *where is then a hull half-edge p sees
 * strictly from outside. */
static int locate(tn_cdt *c, int p, int t, int *where, int *dup)
{
    const int32_t *tris = c->tris, *he = c->he;
    int came = -1, rot = 0;
    long steps = 0, limit = 4L * c->ntris + 16;
    *dup = -1;
    for (;;) {
        int moved = 0;
        if (steps++ < limit) {
            for (int k = 0; k < 3; k++) {
                int e = 3 * t + (k + rot >= 3 ? k + rot - 3 : k + rot);
                if (e == came) continue;
                if (orient(c, tris[e], tris[next_he(e)], p) < 0) {
                    int f = he[e];
                    if (f == -1) {
                        *where = e; /* beyond a hull edge */
                        return -1;
                    }
                    came = f;
                    t = f / 3;
                    rot = rot == 2 ? 0 : rot + 1; /* vary the exit order: no cycling */
                    moved = 1;
                    break;
                }
            }
        } else {
            /* never observed; a brute-force scan keeps the walk total */
            int found = -1;
            for (int u = 0; u < c->ntris && found < 0; u++) {
                int ok = 1;
                for (int k = 0; k < 3 && ok; k++)
                    ok = orient(c, tris[3 * u + k], tris[next_he(3 * u + k)], p) >= 0;
                if (ok) found = u;
            }
            if (found < 0) {
                for (int e = 0; e < 3 * c->ntris; e++)
                    if (he[e] == -1 && orient(c, tris[e], tris[next_he(e)], p) < 0) {
                        *where = e;
                        return -1;
                    }
            }
            t = found;
        }
        if (moved) continue;
        int zero = -1, nz = 0;
        for (int k = 0; k < 3; k++) {
            int e = 3 * t + k;
            if (orient(c, tris[e], tris[next_he(e)], p) == 0) {
                zero = e;
                nz++;
            }
        }
        if (nz >= 2) {
            /* on two edge lines: p is their shared vertex */
            for (int k = 0; k < 3; k++) {
                int v = tris[3 * t + k];
                if (c->pt[2 * v] == c->pt[2 * p] && c->pt[2 * v + 1] == c->pt[2 * p + 1]) *dup = v;
            }
        }
        *where = nz == 1 ? zero : -1;
        return t;
    }
}

/* Add point p outside the hull, which sees the hull edge leaving hull
 * vertex s: a fan of new triangles over every hull edge p sees, each made
 * Delaunay by legalize (the sweep's step, entered from a known edge). */
static void hull_insert(tn_cdt *c, int p, int s)
{
    int32_t *hn = c->hull_next, *hp = c->hull_prev, *ht = c->hull_tri;
    while (orient(c, hp[s], s, p) < 0) s = hp[s]; /* back to the first visible edge */
    int t = add_tri(c, s, p, hn[s], -1, -1, ht[s]);
    ht[p] = legalize(c, t + 2);
    ht[s] = t;
    int n = hn[s], q;
    while (q = hn[n], orient(c, n, q, p) < 0) {
        t = add_tri(c, n, p, q, ht[p], -1, ht[n]);
        ht[p] = legalize(c, t + 2);
        hn[n] = n; /* no longer on the hull */
        n = q;
    }
    hp[p] = s;
    hn[s] = p;
    hn[p] = n;
    hp[n] = p;
}

/* Insert point p anywhere: located by a walk from start_tri, then a hull
 * fan, a triangle split (1 -> 3), an edge split (2 -> 4) or a hull-edge
 * split (1 -> 2), each followed by Lawson flips.  The incremental
 * construction inserts every point so; the sweep only those it finds not
 * strictly outside its hull. */
static void insert_point(tn_cdt *c, int p, int start_tri)
{
    int32_t *tris = c->tris, *he = c->he;
    int where, dup;
    int t = locate(c, p, start_tri, &where, &dup);
    if (t < 0) {
        hull_insert(c, p, tris[where]);
        return;
    }
    c->st.inside_inserts++;
    if (dup >= 0) { /* exact duplicates are merged before the sweep */
        c->remap[c->ids[p]] = c->ids[dup];
        return;
    }
    if (where < 0) {
        /* split triangle t = (v0, v1, v2) into three around p */
        int e0 = 3 * t, e1 = e0 + 1, e2 = e0 + 2;
        int v0 = tris[e0], v1 = tris[e1], v2 = tris[e2];
        int h1 = he[e1], h2 = he[e2];
        tris[e2] = p; /* t becomes (v0, v1, p) */
        int A = add_tri(c, v1, v2, p, h1, -1, e1);
        int B = add_tri(c, v2, v0, p, h2, e2, A + 1);
        if (h1 == -1) c->hull_tri[v1] = A;
        if (h2 == -1) c->hull_tri[v2] = B;
        (void)v0;
        legalize(c, e0);
        legalize(c, A);
        legalize(c, B);
        return;
    }
    int e = where, f = he[e];
    int u = tris[e], w = tris[next_he(e)], x = tris[prev_he(e)];
    int en = next_he(e), hx = he[en];
    tris[en] = p; /* t becomes (u, p, x) */
    if (f == -1) {
        /* p on the hull edge u -> w: one triangle becomes two */
        int T1 = add_tri(c, p, w, x, -1, hx, en);
        c->he[e] = -1;
        if (hx == -1) c->hull_tri[w] = T1 + 1;
        c->hull_next[u] = p;
        c->hull_prev[p] = u;
        c->hull_next[p] = w;
        c->hull_prev[w] = p;
        c->hull_tri[u] = e;
        c->hull_tri[p] = T1;
        if (!(c->flags & TN_CDT_INCREMENTAL)) c->hull_hash[hash_key(c, p)] = p;
        legalize(c, prev_he(e));
        legalize(c, T1 + 1);
        return;
    }
    /* p on the interior edge u -> w shared with (w, u, y): two become four */
    int fn = next_he(f), hy = he[fn];
    int y = tris[prev_he(f)];
    (void)y;
    tris[fn] = p; /* f's triangle becomes (w, p, y) */
    int T1 = add_tri(c, p, w, x, -1, hx, en);
    int T2 = add_tri(c, p, u, tris[prev_he(f)], e, hy, fn);
    link_he(c, f, T1);
    if (hx == -1) c->hull_tri[w] = T1 + 1;
    if (hy == -1) c->hull_tri[u] = T2 + 1;
    legalize(c, prev_he(e));
    legalize(c, T1 + 1);
    legalize(c, prev_he(f));
    legalize(c, T2 + 1);
}

/* Index of cell (x, y) along a Hilbert curve over a 2^bits square. */
static uint32_t hilbert_index(uint32_t x, uint32_t y, int bits)
{
    uint32_t d = 0, mask = (1u << bits) - 1;
    for (uint32_t s = 1u << (bits - 1); s > 0; s >>= 1) {
        uint32_t rx = (x & s) != 0, ry = (y & s) != 0;
        d += s * s * ((3 * rx) ^ ry);
        if (!ry) {
            if (rx) {
                x ^= mask;
                y ^= mask;
            }
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

/* Incremental insertion in Hilbert-curve order (or input order): each point
 * is found by a short walk from the previous one's triangle.  ids[0..m)
 * hold the distinct points; coordinates are already in c->xy. */
static void triangulate_incremental(tn_cdt *c, int m, double minx, double miny, double ext)
{
    const double *xy = c->xy;
    if (!(c->flags & TN_CDT_INPUT_ORDER)) {
        int bits = 1;
        while (bits < 16 && (double)(1u << (2 * bits)) < 4.0 * m) bits++; /* ~4 cells per point */
        double scale = ext > 0 ? ((double)(1u << bits) - 1.0) / ext : 0.0;
        for (int k = 0; k < m; k++) {
            int i = c->ids[k];
            uint32_t qx = (uint32_t)((xy[2 * i] - minx) * scale),
                     qy = (uint32_t)((xy[2 * i + 1] - miny) * scale);
            c->keys[k] = hilbert_index(qx, qy, bits);
        }
        radix_sort(c, m, 2 * bits);
    }
    for (int k = 0; k < m; k++) {
        int i = c->ids[k];
        c->sxy[2 * k] = xy[2 * i];
        c->sxy[2 * k + 1] = xy[2 * i + 1];
        c->loc[i] = k;
    }
    c->pt = c->sxy;
    /* seed: the first two points and the first one not collinear with them */
    int i2 = 2;
    while (i2 < m && orient(c, 0, 1, i2) == 0) i2++;
    if (i2 == m) return; /* all collinear */
    int i0 = 0, i1 = 1;
    if (orient(c, i0, i1, i2) < 0) {
        i1 = i2;
        i2 = 1;
    }
    int32_t *hn = c->hull_next, *hp = c->hull_prev, *ht = c->hull_tri;
    hn[i0] = hp[i2] = i1;
    hn[i1] = hp[i0] = i2;
    hn[i2] = hp[i1] = i0;
    ht[i0] = 0;
    ht[i1] = 1;
    ht[i2] = 2;
    add_tri(c, i0, i1, i2, -1, -1, -1);
    int seed2 = i1 > i2 ? i1 : i2;
    for (int i = 2; i < m; i++) {
        if (i == seed2) continue;
        /* every triangle legalize touched contains the last point: start there */
        insert_point(c, i, c->ntris - 1);
    }
}

/* Delaunay triangulation of the points with remap[i] == i. */
static void triangulate(tn_cdt *c)
{
    const int n = c->npoints;
    const double *xy = c->xy;
    c->pt = c->xy; /* input ids until the insertion order is known */
    c->ntris = 0;
    int m = 0;
    double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (c->remap[i] != i) continue;
        double x = xy[2 * i], y = xy[2 * i + 1];
        if (x < minx) minx = x;
        if (y < miny) miny = y;
        if (x > maxx) maxx = x;
        if (y > maxy) maxy = y;
        c->ids[m++] = i;
    }
    if (m < 3) return;
    if (c->flags & TN_CDT_INCREMENTAL) {
        triangulate_incremental(c, m, minx, miny, fmax(maxx - minx, maxy - miny));
        return;
    }
    double mx = 0.5 * (minx + maxx), my = 0.5 * (miny + maxy);
    /* seed: i0 nearest the box centre, i1 nearest i0, i2 making the
     * smallest circumcircle with them (any non-collinear choice is correct;
     * this one keeps the sweep's early hull small and round) */
    int i0 = -1, i1 = -1, i2 = -1;
    double best = INFINITY;
    for (int k = 0; k < m; k++) {
        int i = c->ids[k];
        double dx = xy[2 * i] - mx, dy = xy[2 * i + 1] - my, d = dx * dx + dy * dy;
        if (d < best) {
            best = d;
            i0 = i;
        }
    }
    best = INFINITY;
    for (int k = 0; k < m; k++) {
        int i = c->ids[k];
        if (i == i0) continue;
        double dx = xy[2 * i] - xy[2 * i0], dy = xy[2 * i + 1] - xy[2 * i0 + 1],
               d = dx * dx + dy * dy;
        if (d < best) {
            best = d;
            i1 = i;
        }
    }
    best = INFINITY;
    double ax = xy[2 * i0], ay = xy[2 * i0 + 1];
    for (int k = 0; k < m; k++) {
        int i = c->ids[k];
        if (i == i0 || i == i1) continue;
        if (orient(c, i0, i1, i) == 0) continue;
        double bx = xy[2 * i1] - ax, by = xy[2 * i1 + 1] - ay;
        double cx = xy[2 * i] - ax, cy = xy[2 * i + 1] - ay;
        double bl = bx * bx + by * by, cl = cx * cx + cy * cy, d = 0.5 / (bx * cy - by * cx);
        double rx = (cy * bl - by * cl) * d, ry = (bx * cl - cx * bl) * d, r = rx * rx + ry * ry;
        if (!(r < best) && i2 != -1) continue;
        best = r;
        i2 = i;
    }
    if (i2 == -1) return; /* all points collinear: no triangle */
    if (orient(c, i0, i1, i2) < 0) {
        int t = i1;
        i1 = i2;
        i2 = t;
    }
    {
        double bx = xy[2 * i1] - ax, by = xy[2 * i1 + 1] - ay;
        double cx = xy[2 * i2] - ax, cy = xy[2 * i2 + 1] - ay;
        double bl = bx * bx + by * by, cl = cx * cx + cy * cy, d = 0.5 / (bx * cy - by * cx);
        c->cx = ax + (cy * bl - by * cl) * d;
        c->cy = ay + (bx * cl - cx * bl) * d;
        if (!isfinite(c->cx) || !isfinite(c->cy)) {
            c->cx = (ax + xy[2 * i1] + xy[2 * i2]) / 3.0;
            c->cy = (ay + xy[2 * i1 + 1] + xy[2 * i2 + 1]) / 3.0;
        }
    }
    /* keys: squared distance to the centre in units of the box size, as a
     * float (the order only steers speed: misordered points still insert) */
    double ext = fmax(maxx - minx, maxy - miny), inv = ext > 0 ? 1.0 / ext : 1.0;
    for (int k = 0; k < m; k++) {
        int i = c->ids[k];
        double dx = (xy[2 * i] - c->cx) * inv, dy = (xy[2 * i + 1] - c->cy) * inv;
        float d = (float)(dx * dx + dy * dy);
        uint32_t bits;
        memcpy(&bits, &d, sizeof bits);
        c->keys[k] = bits; /* non-negative floats order like their bits */
    }
    if (!(c->flags & TN_CDT_INPUT_ORDER)) radix_sort(c, m, 32);
    /* from here on vertices are local ids: consecutive insertions touch
     * consecutive memory */
    for (int k = 0; k < m; k++) {
        int i = c->ids[k];
        c->sxy[2 * k] = xy[2 * i];
        c->sxy[2 * k + 1] = xy[2 * i + 1];
        c->loc[i] = k;
    }
    c->pt = c->sxy;
    i0 = c->loc[i0];
    i1 = c->loc[i1];
    i2 = c->loc[i2];

    c->hash_size = 1;
    while ((double)c->hash_size * c->hash_size < (double)m) c->hash_size++;
    for (int k = 0; k < c->hash_size; k++) c->hull_hash[k] = -1;
    int32_t *hn = c->hull_next, *hp = c->hull_prev, *ht = c->hull_tri, *hh = c->hull_hash;
    hn[i0] = hp[i2] = i1;
    hn[i1] = hp[i0] = i2;
    hn[i2] = hp[i1] = i0;
    ht[i0] = 0;
    ht[i1] = 1;
    ht[i2] = 2;
    hh[hash_key(c, i0)] = i0;
    hh[hash_key(c, i1)] = i1;
    hh[hash_key(c, i2)] = i2;
    add_tri(c, i0, i1, i2, -1, -1, -1);
    c->hull_start = i0;

    for (int i = 0; i < m; i++) {
        if (i == i0 || i == i1 || i == i2) continue;
        /* a hull vertex near i's angle around the centre */
        int key = hash_key(c, i), start = 0;
        for (int j = 0; j < c->hash_size; j++) {
            start = hh[(key + j) % c->hash_size];
            if (start != -1 && start != hn[start]) break;
        }
        start = hp[start];
        int e = start, q;
        while (q = hn[e], orient(c, e, q, i) >= 0) {
            e = q;
            if (e == start) {
                e = -1;
                break;
            }
        }
        if (e == -1) {
            /* not strictly outside the hull: ordinary incremental insertion */
            insert_point(c, i, ht[start] / 3);
            continue;
        }
        int t = add_tri(c, e, i, hn[e], -1, -1, ht[e]);
        ht[i] = legalize(c, t + 2);
        ht[e] = t;
        int nn = hn[e];
        while (q = hn[nn], orient(c, nn, q, i) < 0) {
            t = add_tri(c, nn, i, q, ht[i], -1, ht[nn]);
            ht[i] = legalize(c, t + 2);
            hn[nn] = nn; /* removed from the hull */
            nn = q;
        }
        if (e == start) {
            while (q = hp[e], orient(c, q, e, i) < 0) {
                t = add_tri(c, q, i, e, -1, ht[e], ht[q]);
                legalize(c, t + 2);
                ht[q] = t;
                hn[e] = e;
                e = q;
            }
        }
        c->hull_start = hp[i] = e;
        hn[e] = hp[nn] = i;
        hn[i] = nn;
        hh[key] = i;
        hh[hash_key(c, e)] = e;
    }
}

/* ------------------------------------------------------------------------ */
/* Constraints                                                                */
/* ------------------------------------------------------------------------ */

/* A half-edge leaving v from which a counter-clockwise rotation visits
 * every triangle around v (the hull edge for a hull vertex). */
static int first_out(const tn_cdt *c, int v)
{
    int e0 = c->vert_edge[v], e = e0;
    for (;;) {
        int f = c->he[e];
        if (f == -1) return e;
        e = next_he(f);
        if (e == e0) return e0;
    }
}

static inline void fix_he(tn_cdt *c, int e)
{
    c->fixed[e] = 1;
    if (c->he[e] != -1) c->fixed[c->he[e]] = 1;
}

/* Flip the interior edge e (constraint phase: keeps fixed flags and
 * vert_edge up to date).  The new diagonal ends up in slots prev(e) and
 * prev(he[e]). */
static void flip(tn_cdt *c, int a)
{
    int32_t *tris = c->tris, *he = c->he;
    uint8_t *fx = c->fixed;
    int b = he[a];
    int ar = prev_he(a), al = next_he(a);
    int bl = prev_he(b), br = next_he(b);
    int p0 = tris[ar], pr = tris[a], pl = tris[al], p1 = tris[bl];
    tris[a] = p1;
    tris[b] = p0;
    int hbl = he[bl], har = he[ar];
    uint8_t fbl = fx[bl], far = fx[ar];
    link_he(c, a, hbl);
    link_he(c, b, har);
    link_he(c, ar, bl);
    fx[a] = fbl;
    fx[b] = far;
    fx[ar] = fx[bl] = 0;
    c->vert_edge[p1] = a;
    c->vert_edge[pl] = al;
    c->vert_edge[p0] = ar;
    c->vert_edge[pr] = br;
    c->st.forced_flips++;
}

/* The half-edge u -> w, or -1. */
static int find_edge(const tn_cdt *c, int u, int w)
{
    int e0 = first_out(c, u), e = e0;
    for (;;) {
        if (c->tris[next_he(e)] == w) return e;
        int f = c->he[prev_he(e)];
        if (f == -1 || f == e0) return -1;
        e = f;
    }
}

static void mark_fixed(tn_cdt *c, int u, int w)
{
    int e = find_edge(c, u, w);
    if (e == -1) e = find_edge(c, w, u);
    if (e == -1) return; /* cannot happen: callers establish the edge */
    c->fixed[e] = 1;
    if (c->he[e] != -1) c->fixed[c->he[e]] = 1;
}

static inline int sgn(double v) { return (v > 0) - (v < 0); }

/* p lies on the closed segment a-b. */
static int on_segment(tn_cdt *c, int a, int b, int p)
{
    if (orient(c, a, b, p) != 0) return 0;
    const double *A = c->pt + 2 * a, *B = c->pt + 2 * b, *P = c->pt + 2 * p;
    return P[0] >= fmin(A[0], B[0]) && P[0] <= fmax(A[0], B[0]) && P[1] >= fmin(A[1], B[1]) &&
           P[1] <= fmax(A[1], B[1]);
}

static tn_status crossing_error(tn_cdt *c, int seg, int u, int w, tn_error *err)
{
    int other = -1;
    for (int s = 0; s < seg && other < 0; s++) {
        int a = c->loc[c->remap[c->segs[2 * s]]], b = c->loc[c->remap[c->segs[2 * s + 1]]];
        if (a != b && on_segment(c, a, b, u) && on_segment(c, a, b, w)) other = s;
    }
    int a = c->segs[2 * seg], b = c->segs[2 * seg + 1];
    if (other < 0)
        return tn_error_set(
            err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
            "cdt: constraint segment %d (points %d-%d) crosses an earlier constraint", seg, a, b);
    return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                        "cdt: constraint segments %d (points %d-%d) and %d (points %d-%d) cross",
                        other, c->segs[2 * other], c->segs[2 * other + 1], seg, a, b);
}

/* Segment-segment proper crossing of p-q with a-b (no shared endpoint). */
static int crosses(tn_cdt *c, int a, int b, int p, int q)
{
    if (p == a || p == b || q == a || q == b) return 0;
    return orient(c, a, b, p) * orient(c, a, b, q) < 0 &&
           orient(c, p, q, a) * orient(c, p, q, b) < 0;
}

/* Fallback for a cavity whose boundary repeats a point (the segment passes
 * round a point all of whose triangles it crosses, leaving a slit in a
 * pseudo-polygon): force the edge a-b (no point strictly inside it) by
 * flipping the crossed edges, listed as vertex pairs in tmp_a[0..2*nq)
 * (Sloan 1993), then Lawson flips of the new edges until they are locally
 * Delaunay.  O(k^2) flips at worst, but only on such rare cavities. */
static tn_status force_edge(tn_cdt *c, int a, int b, int nq)
{
    int32_t *q = c->tmp_a, *nw = c->tmp_b;
    int cap = c->tmp_cap / 2; /* pairs */
    int head = 0, count = nq, nn = 0;
    long guard = 0, limit = 16L * (nq + 4) * (nq + 4) + 1000;
    while (count > 0) {
        if (++guard > limit) return TN_FAILURE; /* cannot happen: Sloan's argument */
        int u = q[2 * head], w = q[2 * head + 1];
        head = (head + 1) % cap;
        count--;
        int e = find_edge(c, u, w);
        int f = c->he[e];
        int p = c->tris[prev_he(e)], s = c->tris[prev_he(f)];
        if (orient(c, p, s, u) * orient(c, p, s, w) >= 0) {
            /* the quadrilateral is not strictly convex: try again later */
            int tail = (head + count) % cap;
            q[2 * tail] = u;
            q[2 * tail + 1] = w;
            count++;
            continue;
        }
        flip(c, e);
        if (crosses(c, a, b, p, s)) {
            int tail = (head + count) % cap;
            q[2 * tail] = p;
            q[2 * tail + 1] = s;
            count++;
        } else {
            nw[2 * nn] = p;
            nw[2 * nn + 1] = s;
            nn++;
        }
    }
    mark_fixed(c, a, b);
    /* restore the Delaunay property among the new edges (strict test) */
    int swapped = 1;
    while (swapped) {
        swapped = 0;
        for (int k = 0; k < nn; k++) {
            int u = nw[2 * k], w = nw[2 * k + 1];
            if ((u == a && w == b) || (u == b && w == a)) continue;
            int e = find_edge(c, u, w);
            if (e < 0 || c->fixed[e]) continue;
            int f = c->he[e];
            int p = c->tris[prev_he(e)], s = c->tris[prev_he(f)];
            if (incircle(c, u, w, p, s) > 0) {
                flip(c, e);
                nw[2 * k] = p;
                nw[2 * k + 1] = s;
                swapped = 1;
            }
        }
    }
    return TN_OK;
}

/* Forcing a constraint edge a-end in: the triangles it crosses form a
 * cavity; the points on its left make one pseudo-polygon with a-end as its
 * base, those on its right another, and each is triangulated afresh
 * (Anglada 1997; Shewchuk and Brown 2015): the apex over a base is the
 * chain point whose circle with the base holds no other chain point, and
 * the two sides of the apex are triangulated the same way.  The result is
 * the constrained Delaunay triangulation of the cavity: no flips to undo.
 * The walk fills the chains; this builds the triangles in the cavity's own
 * slots (as many as it had) and links them to the cavity's outside.
 *
 * Chain storage (no allocation): left chain points in tmp_a[0..), right in
 * tmp_b[0..); at offset c->chain_off the outside half-edge of each chain
 * edge with its fixed flag, encoded 2*he + fixed (-2/-1 for no half-edge);
 * triangle slots in tscratch; the range stack in keys/keys2/ids2. */
static inline int enc_out(int he, int fixed) { return he < 0 ? -2 + fixed : 2 * he + fixed; }

/* Append point v to a chain; true when the chain (stamp st) has it already. */
static inline int chain_add(int32_t *stamp, int32_t *chain, int *n, int v, int32_t st)
{
    int seen = stamp[v] == st;
    stamp[v] = st;
    chain[(*n)++] = v;
    return seen;
}

/* Triangulate the pseudo-polygon P[0..k] lying left of the base P[0]->P[k],
 * P[q] = v[rev ? k - q : q]; chain edge q (P[q], P[q+1]) has outside
 * half-edge code o[rev ? k - 1 - q : q].  base_twin: the half-edge across
 * the base (-1 for none yet); returns the base's new half-edge. */
static int cavity_polygon(tn_cdt *c, const int32_t *v, const int32_t *o, int k, int rev,
                          int base_twin, int *slot)
{
    int32_t *tris = c->tris, *he = c->he;
    uint8_t *fx = c->fixed;
    uint32_t *si = c->keys, *sj = c->keys2;
    int32_t *sb = c->ids2;
    int top = 0, top_base = -1;
#define PV(q) v[rev ? k - (q) : (q)]
#define PO(q) o[rev ? k - 1 - (q) : (q)]
    si[top] = 0, sj[top] = (uint32_t)k, sb[top] = base_twin, top++;
    while (top > 0) {
        top--;
        int i = (int)si[top], j = (int)sj[top], bt = sb[top];
        int ci = i + 1;
        for (int q = i + 2; q < j; q++)
            if (incircle(c, PV(i), PV(j), PV(ci), PV(q)) > 0) ci = q;
        int t = 3 * c->tscratch[(*slot)++];
        tris[t] = PV(i);
        tris[t + 1] = PV(j);
        tris[t + 2] = PV(ci);
        link_he(c, t, bt);
        fx[t] = bt >= 0 ? fx[bt] : 1; /* top level: the constraint itself */
        if (top_base < 0) top_base = t;
        if (ci == j - 1) {
            int e = PO(ci);
            link_he(c, t + 1, e < 0 ? -1 : e / 2);
            fx[t + 1] = (uint8_t)(e & 1);
        } else {
            fx[t + 1] = 0;
            si[top] = (uint32_t)ci, sj[top] = (uint32_t)j, sb[top] = t + 1, top++;
        }
        if (ci == i + 1) {
            int e = PO(i);
            link_he(c, t + 2, e < 0 ? -1 : e / 2);
            fx[t + 2] = (uint8_t)(e & 1);
        } else {
            fx[t + 2] = 0;
            si[top] = (uint32_t)i, sj[top] = (uint32_t)ci, sb[top] = t + 2, top++;
        }
        c->vert_edge[PV(i)] = t;
        c->vert_edge[PV(j)] = t + 1;
        c->vert_edge[PV(ci)] = t + 2;
    }
#undef PV
#undef PO
    (void)he;
    return top_base;
}

/* Is a-b an edge already?  Then it is marked fixed.  Looks for b around a
 * counter-clockwise from any edge, then clockwise if a is on the hull
 * (most constraints are edges already). */
static int edge_present(tn_cdt *c, int a, int b)
{
    const int32_t *tris = c->tris;
    int e0 = c->vert_edge[a], e = e0;
    for (;;) {
        if (tris[next_he(e)] == b) {
            fix_he(c, e);
            return 1;
        }
        int pe = prev_he(e), f = c->he[pe];
        if (f < 0) {
            if (tris[pe] == b) { /* the hull edge b -> a */
                fix_he(c, pe);
                return 1;
            }
            for (e = e0;;) { /* clockwise from the start */
                int g = c->he[e];
                if (g < 0) break;
                e = next_he(g);
                if (tris[next_he(e)] == b) {
                    fix_he(c, e);
                    return 1;
                }
            }
            return 0;
        }
        if (f == e0) return 0;
        e = f;
    }
}

enum { SEG_PRESENT, SEG_SPLIT, SEG_CROSS, SEG_NONE };

/* Around a, towards b: SEG_PRESENT (the edge a-b, now fixed), SEG_SPLIT
 * (*out = a point on a-b next to a; the edge to it is fixed), SEG_CROSS
 * (*out = the half-edge opposite a that a-b crosses first) or SEG_NONE. */
static int leave_point(tn_cdt *c, int a, int b, int *out)
{
    const int32_t *tris = c->tris;
    const double *A = c->pt + 2 * a, *B = c->pt + 2 * b;
    int e0 = first_out(c, a), e = e0;
    for (;;) {
        int n = tris[next_he(e)], m = tris[prev_he(e)];
        if (n == b || m == b) {
            fix_he(c, n == b ? e : prev_he(e));
            return SEG_PRESENT;
        }
        int o1 = orient(c, a, n, b), o2 = orient(c, a, m, b);
        const double *N = c->pt + 2 * n, *M = c->pt + 2 * m;
        if (o1 == 0 &&
            (sgn(N[0] - A[0]) * sgn(B[0] - A[0]) > 0 || sgn(N[1] - A[1]) * sgn(B[1] - A[1]) > 0)) {
            *out = n; /* n lies on a-b: split the constraint there */
            fix_he(c, e);
            return SEG_SPLIT;
        }
        if (o2 == 0 &&
            (sgn(M[0] - A[0]) * sgn(B[0] - A[0]) > 0 || sgn(M[1] - A[1]) * sgn(B[1] - A[1]) > 0)) {
            *out = m;
            fix_he(c, prev_he(e));
            return SEG_SPLIT;
        }
        if (o1 > 0 && o2 < 0) {
            *out = next_he(e);
            return SEG_CROSS;
        }
        int f = c->he[prev_he(e)];
        if (f == -1 || f == e0) return SEG_NONE;
        e = f;
    }
}

/* The chains of one crossing walk (see cavity_polygon). */
typedef struct seg_walk {
    int32_t *lv, *rv, *lo, *ro; /* left / right chain points and outside codes */
    int nl, nr, ntl;            /* their lengths, crossed triangles (tscratch) */
    int end;                    /* b, or the first point on a-b */
    int repeat;                 /* a chain passes a point twice (a slit) */
} seg_walk;

/* Walk along a-b from the crossed half-edge `cross` through the crossed
 * triangles until b or a point on a-b, collecting the chains on either
 * side (tmp_a: left, tmp_b: right) and the triangles (tscratch).  Fails
 * when a constraint is crossed. */
static tn_status walk_crossing(tn_cdt *c, int seg, int a, int b, int cross, seg_walk *w,
                               tn_error *err)
{
    const int32_t *tris = c->tris;
    int32_t *lv = c->tmp_a, *rv = c->tmp_b, *lo = c->tmp_a + c->chain_off,
            *ro = c->tmp_b + c->chain_off;
    int nl = 0, nr = 0, ntl = 0, h = cross, end = -1, repeat = 0;
    int32_t *stamp = c->vert_tri; /* free until the output: marks chain points */
    const int32_t sl = 2 * c->walks, sr = sl + 1;
    c->walks++;
    {
        int ep = prev_he(h), en = next_he(h); /* a -> n (right side), m -> a (left side) */
        lo[nl] = enc_out(c->he[en], c->fixed[en]);
        repeat |= chain_add(stamp, lv, &nl, a, sl);
        ro[nr] = enc_out(c->he[ep], c->fixed[ep]);
        repeat |= chain_add(stamp, rv, &nr, a, sr);
        repeat |= chain_add(stamp, lv, &nl, tris[en], sl);
        repeat |= chain_add(stamp, rv, &nr, tris[h], sr);
        c->tscratch[ntl++] = h / 3;
    }
    for (;;) {
        if (c->fixed[h]) return crossing_error(c, seg, tris[h], tris[next_he(h)], err);
        int g = c->he[h]; /* g runs from the left chain to the right one */
        int gn = next_he(g), gp = prev_he(g);
        int o = tris[gp];
        c->tscratch[ntl++] = g / 3;
        int s = o == b ? 0 : orient(c, a, b, o);
        if (s == 0) {
            end = o; /* b, or a point on a-b: the constraint continues from there */
            lo[nl - 1] = enc_out(c->he[gp], c->fixed[gp]);
            repeat |= chain_add(stamp, lv, &nl, o, sl);
            ro[nr - 1] = enc_out(c->he[gn], c->fixed[gn]);
            repeat |= chain_add(stamp, rv, &nr, o, sr);
            break;
        }
        if (s > 0) { /* o on the left: leave through n' -> o */
            lo[nl - 1] = enc_out(c->he[gp], c->fixed[gp]);
            repeat |= chain_add(stamp, lv, &nl, o, sl);
            h = gn;
        } else {
            ro[nr - 1] = enc_out(c->he[gn], c->fixed[gn]);
            repeat |= chain_add(stamp, rv, &nr, o, sr);
            h = gp;
        }
    }
    w->lv = lv, w->rv = rv, w->lo = lo, w->ro = ro;
    w->nl = nl, w->nr = nr, w->ntl = ntl, w->end = end, w->repeat = repeat;
    return TN_OK;
}

/* A chain passes a point twice (a slit): the flip fallback, fed with the
 * crossed edges of a second walk from `cross` to `end`. */
static tn_status force_by_flips(tn_cdt *c, int seg, int a, int b, int cross, int end, tn_error *err)
{
    const int32_t *tris = c->tris;
    int nq = 0, h = cross;
    for (;;) {
        c->tmp_a[2 * nq] = tris[h];
        c->tmp_a[2 * nq + 1] = tris[next_he(h)];
        nq++;
        int g = c->he[h], o = tris[prev_he(g)];
        if (o == end) break;
        h = orient(c, a, b, o) > 0 ? next_he(g) : prev_he(g);
    }
    if (tn_failed(force_edge(c, a, end, nq)))
        return tn_error_set(err, TN_FAILURE, 0, 0, "cdt: internal error forcing constraint %d",
                            seg);
    return TN_OK;
}

/* Insert constraint segment seg = (a, b) (representative indices): piece
 * by piece from a, each piece an edge already, split at a point on a-b,
 * or forced through the triangles it crosses (their cavity
 * re-triangulated on either side, or flips for a slit). */
static tn_status insert_segment(tn_cdt *c, int seg, int a, int b, tn_error *err)
{
    while (a != b) {
        if (edge_present(c, a, b)) {
            c->st.segments_present++;
            return TN_OK;
        }
        int out = -1;
        int how = leave_point(c, a, b, &out);
        if (how == SEG_PRESENT) {
            c->st.segments_present++;
            return TN_OK;
        }
        if (how == SEG_SPLIT) {
            c->st.segments_split++;
            a = out;
            continue;
        }
        if (how == SEG_NONE)
            return tn_error_set(err, TN_FAILURE, 0, 0,
                                "cdt: internal error: no way from point %d towards %d", a, b);
        seg_walk w;
        memset(&w, 0, sizeof w);
        tn_status st = walk_crossing(c, seg, a, b, out, &w, err);
        if (tn_failed(st)) return st;
        c->st.segments_forced++;
        if (w.end != b) c->st.segments_split++;
        if (w.repeat) {
            st = force_by_flips(c, seg, a, b, out, w.end, err);
            if (tn_failed(st)) return st;
            a = w.end;
            continue;
        }
        c->st.cavity_triangles += w.ntl;
        /* left polygon over a -> end, then the right one over end -> a */
        int slot = 0;
        int lb = cavity_polygon(c, w.lv, w.lo, w.nl - 1, 0, -1, &slot);
        cavity_polygon(c, w.rv, w.ro, w.nr - 1, 1, lb, &slot);
        a = w.end;
    }
    return TN_OK;
}

/* ------------------------------------------------------------------------ */
/* Build                                                                      */
/* ------------------------------------------------------------------------ */

static inline uint32_t hash_xy(double x, double y)
{
    uint64_t bx, by;
    memcpy(&bx, &x, sizeof bx);
    memcpy(&by, &y, sizeof by);
    /* integer-valued doubles have all-zero low mantissa bits: mix fully
     * (splitmix64 finaliser) */
    uint64_t h = bx ^ (by * 0x9E3779B97F4A7C15ull + (by >> 29));
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 31;
    return (uint32_t)h;
}

/* Merge exact duplicates: remap[i] = first index with the same coordinates. */
static void merge_duplicates(tn_cdt *c)
{
    uint32_t mask = 15;
    while (mask + 1 < 2 * (uint32_t)c->npoints) mask = 2 * mask + 1;
    int32_t *tab = c->dedup;
    memset(tab, 0xff, (size_t)(mask + 1) * sizeof *tab);
    for (int i = 0; i < c->npoints; i++) {
        double x = c->xy[2 * i], y = c->xy[2 * i + 1];
        uint32_t h = hash_xy(x, y) & mask;
        c->remap[i] = i;
        for (;;) {
            int j = tab[h];
            if (j < 0) {
                tab[h] = i;
                break;
            }
            if (c->xy[2 * j] == x && c->xy[2 * j + 1] == y) {
                c->remap[i] = j;
                break;
            }
            h = (h + 1) & mask;
        }
    }
}

/* Even-odd removal: the depth of a triangle is the least number of
 * constraints crossed to reach it from outside the hull. */
static void keep_inside(tn_cdt *c, int32_t *depth)
{
    int nt = c->ntris;
    int32_t *cur = c->tmp_a, *nxt = c->tmp_b;
    int ncur = 0, nnxt = 0;
    for (int t = 0; t < nt; t++) depth[t] = -1;
    for (int t = 0; t < nt; t++) {
        for (int k = 0; k < 3; k++) {
            int e = 3 * t + k;
            if (c->he[e] != -1) continue;
            if (!c->fixed[e]) {
                if (depth[t] != 0) {
                    depth[t] = 0;
                    cur[ncur++] = t;
                }
            } else if (depth[t] == -1) {
                depth[t] = -2;
                nxt[nnxt++] = t;
            }
        }
    }
    int d = 0;
    for (;;) {
        for (int i = 0; i < ncur; i++) {
            int t = cur[i];
            for (int k = 0; k < 3; k++) {
                int e = 3 * t + k, f = c->he[e];
                if (f == -1) continue;
                int u = f / 3;
                if (depth[u] >= 0) continue;
                if (!c->fixed[e]) {
                    depth[u] = d;
                    cur[ncur++] = u;
                } else if (depth[u] == -1) {
                    depth[u] = -2;
                    nxt[nnxt++] = u;
                }
            }
        }
        if (nnxt == 0) break;
        d++;
        ncur = 0;
        for (int i = 0; i < nnxt; i++)
            if (depth[nxt[i]] == -2) {
                depth[nxt[i]] = d;
                cur[ncur++] = nxt[i];
            }
        nnxt = 0;
    }
}

static tn_status build(tn_cdt *c, const int32_t *segs, int nsegs, unsigned flags, tn_error *err)
{
    memset(&c->st, 0, sizeof c->st);
    c->flags = flags;
    merge_duplicates(c);
    for (int i = 0; i < c->npoints; i++) c->st.duplicates += c->remap[i] != i;
    c->st.points = c->npoints - c->st.duplicates;
    triangulate(c);
    /* duplicates found by the walk (never, after merge_duplicates) */
    int nt = c->ntris;
    int32_t *tris = c->tris, *he = c->he;
    memset(c->fixed, 0, (size_t)nt * 3);
    if (nsegs > 0 && nt > 0) {
        for (int e = 0; e < 3 * nt; e++) c->vert_edge[tris[e]] = e;
        for (int i = 0; i < c->npoints; i++) c->vert_tri[i] = -1; /* chain stamps */
        c->walks = 0;
        c->segs = segs;
        c->nsegs = nsegs;
        for (int s = 0; s < nsegs; s++) {
            int a = c->loc[c->remap[segs[2 * s]]], b = c->loc[c->remap[segs[2 * s + 1]]];
            if (a == b) continue;
            tn_status st = insert_segment(c, s, a, b, err);
            if (tn_failed(st)) {
                c->segs = NULL;
                return st;
            }
        }
        c->segs = NULL;
    } else if (nsegs > 0) {
        /* no triangle: constraints between collinear points are still
         * checked for crossings?  Collinear points cannot cross properly. */
    }
    c->st.ntris_hull = nt;
    /* which triangles survive, renumbered in order */
    int32_t *newid = c->tscratch;
    if (flags & TN_CDT_REMOVE_OUTSIDE) {
        keep_inside(c, newid);
    } else {
        for (int t = 0; t < nt; t++) newid[t] = 1;
    }
    int kept = 0;
    for (int t = 0; t < nt; t++) newid[t] = (newid[t] & 1) ? kept++ : -1;
    /* compact in place: slot 3*newid[t] <= 3*t, so nothing unread is overwritten */
    for (int t = 0; t < nt; t++) {
        int nid = newid[t];
        if (nid < 0) continue;
        for (int k = 0; k < 3; k++) {
            int e = 3 * t + k, f = he[e];
            tris[3 * nid + k] = c->ids[tris[e]]; /* local -> input id */
            he[3 * nid + k] = f == -1 ? -1 : newid[f / 3];
            c->fixed[3 * nid + k] = c->fixed[e];
        }
    }
    c->nout = kept;
    for (int i = 0; i < c->npoints; i++) c->vert_tri[i] = -1;
    for (int t = 0; t < kept; t++)
        for (int k = 0; k < 3; k++) c->vert_tri[tris[3 * t + k]] = t;
    return TN_OK;
}

static tn_status check_common(tn_cdt *c, int npoints, const void *xy, const int32_t *segs,
                              int nsegs, unsigned flags, tn_error *err)
{
    if (!c)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "cdt: no tn_cdt (c is NULL)");
    c->nout = 0;
    c->npoints = 0;
    if (npoints < 0 || npoints > c->max_points)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "cdt: npoints %d outside 0..%d (the capacity given to tn_cdt_create)",
                            npoints, c->max_points);
    if (nsegs < 0 || nsegs > c->max_segments)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "cdt: nsegs %d outside 0..%d (the capacity given to tn_cdt_create)",
                            nsegs, c->max_segments);
    if ((npoints > 0 && !xy) || (nsegs > 0 && !segs))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "cdt: no %s (NULL)",
                            npoints > 0 && !xy ? "xy" : "segs");
    const unsigned known =
        TN_CDT_REMOVE_OUTSIDE | TN_CDT_INPUT_ORDER | TN_CDT_INCREMENTAL | TN_CDT_RECT_DOMAIN;
    if (flags & ~known)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "cdt: unknown flags 0x%x",
                            flags & ~known);
    if ((flags & TN_CDT_REMOVE_OUTSIDE) && (flags & TN_CDT_RECT_DOMAIN))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "cdt: TN_CDT_REMOVE_OUTSIDE and TN_CDT_RECT_DOMAIN exclude each other");
    for (int s = 0; s < 2 * nsegs; s++)
        if (segs[s] < 0 || segs[s] >= npoints)
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "cdt: segment %d uses point %d, outside 0..%d", s / 2, (int)segs[s],
                                npoints - 1);
    return TN_OK;
}

tn_status tn_cdt_build_i(tn_cdt *c, const int32_t *xy, int npoints, const int32_t *segs, int nsegs,
                         unsigned flags, tn_error *err)
{
    tn_status st = check_common(c, npoints, xy, segs, nsegs, flags, err);
    if (tn_failed(st)) return st;
    for (int i = 0; i < 2 * npoints; i++)
        if (xy[i] < -TN_CDT_MAX_COORD || xy[i] > TN_CDT_MAX_COORD)
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "cdt: point %d has %c = %d, outside +-%d", i / 2, i % 2 ? 'y' : 'x',
                                (int)xy[i], TN_CDT_MAX_COORD);
    if ((flags == TN_CDT_REMOVE_OUTSIDE || flags == TN_CDT_RECT_DOMAIN) &&
        rect_build(c, xy, npoints, segs, nsegs, flags == TN_CDT_RECT_DOMAIN))
        return cdt_ok(err);
    for (int i = 0; i < 2 * npoints; i++) c->xy[i] = (double)xy[i];
    c->npoints = npoints;
    c->exact_int = 1;
    c->mode = CDT_INT;
    if (npoints > 0) {
        int32_t x0 = xy[0], x1 = xy[0], y0 = xy[1], y1 = xy[1];
        for (int i = 1; i < npoints; i++) {
            int32_t x = xy[2 * i], y = xy[2 * i + 1];
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
        if ((double)x1 - x0 <= CDT_EXACT_SPAN && (double)y1 - y0 <= CDT_EXACT_SPAN)
            c->mode = CDT_EXACT_DOUBLE;
    }
    st = build(c, segs, nsegs, flags, err);
    if (tn_failed(st)) c->nout = 0;
    return tn_failed(st) ? st : cdt_ok(err);
}

tn_status tn_cdt_build_d(tn_cdt *c, const double *xy, int npoints, const int32_t *segs, int nsegs,
                         unsigned flags, tn_error *err)
{
    tn_status st = check_common(c, npoints, xy, segs, nsegs, flags, err);
    if (tn_failed(st)) return st;
    for (int i = 0; i < 2 * npoints; i++) {
        double v = xy[i], m = fabs(v);
        if (isnan(v)) /* "%g" prints it "nan" or "-nan" */
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "cdt: point %d has %c not a number (NaN)", i / 2,
                                i % 2 ? 'y' : 'x');
        if (!isfinite(v) || m > TN_CDT_MAX_COORD_D || (m != 0.0 && m < TN_CDT_MIN_COORD_D))
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "cdt: point %d has %c = %g: coordinates must be 0 or "
                                "of magnitude in [%g, %g]",
                                i / 2, i % 2 ? 'y' : 'x', v, TN_CDT_MIN_COORD_D,
                                TN_CDT_MAX_COORD_D);
        c->xy[i] = v + 0.0; /* -0.0 becomes +0.0: duplicates compare by bits */
    }
    c->npoints = npoints;
    c->exact_int = 0;
    c->mode = CDT_FLOAT;
    st = build(c, segs, nsegs, flags, err);
    if (tn_failed(st)) c->nout = 0;
    return tn_failed(st) ? st : cdt_ok(err);
}

void tn_cdt_get_mesh(const tn_cdt *c, tn_cdt_mesh *out)
{
    if (!out) return;
    if (!c) {
        memset(out, 0, sizeof *out);
        return;
    }
    out->ntris = c->nout;
    out->tri = c->tris;
    out->adj = c->he;
    out->fixed = c->fixed;
    out->npoints = c->npoints;
    out->vert_tri = c->vert_tri;
    out->remap = c->remap;
}

void tn_cdt_get_stats(const tn_cdt *c, tn_cdt_stats *out)
{
    if (!out) return;
    if (!c) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = c->st;
}
