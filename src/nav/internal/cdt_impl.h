/* SPDX-License-Identifier: Zlib */
/* internal/cdt_impl.h - private to tn_cdt.c, tn_cdt_pred.c and
 * tn_cdt_sweep.c (not installed): the tn_cdt state, the half-edge helpers,
 * the predicate modes and the filtered predicates of the general builder.
 *
 * Storage is the half-edge array layout popularised by Delaunator: triangle t
 * owns half-edges 3t, 3t+1, 3t+2; half-edge e runs from tris[e] to
 * tris[next(e)], and he[e] is the opposite half-edge in the neighbouring
 * triangle (-1 on the convex hull).  Every triangle is counter-clockwise
 * (orient > 0). */
#ifndef TN_CDT_IMPL_H
#define TN_CDT_IMPL_H

#include "tn_cdt.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Everything declared below is library-internal: hidden from the shared
 * library's exports (GCC/Clang; tests/pkg/exports.sh checks). */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* Library-internal names (external linkage, tn_ prefix) */
#define orient_exact_int tn_cdti_orient_exact_int
#define incircle_exact_int tn_cdti_incircle_exact_int
#define orient_adapt tn_cdti_orient_adapt
#define incircle_adapt tn_cdti_incircle_adapt
#define rect_build tn_cdti_rect_build

struct tn_cdt {
    tn_allocator alloc;
    const tn_allocator *ap; /* &alloc, or NULL for malloc */
    size_t mem;             /* bytes its create allocated (tn_cdt_memory) */
    int max_points, max_segments, max_tris;

    unsigned flags;
    int mode;      /* CDT_EXACT_DOUBLE, CDT_INT or CDT_FLOAT: how predicates decide */
    int exact_int; /* 1: integer coordinates (exact stage in int64/int128) */
    int npoints;
    double *xy;         /* 2*max_points; coordinates of every input point */
    double *sxy;        /* 2*max_points; distinct points in insertion order ("local" ids) */
    const double *pt;   /* what the predicates read: xy while seeding, then sxy */
    int32_t *loc;       /* max_points: local id of a distinct input point */
    int32_t *remap;     /* max_points */
    int32_t *vert_tri;  /* max_points, output */
    int32_t *vert_edge; /* max_points: one half-edge leaving the vertex */

    /* duplicate detection: open addressing on the coordinates */
    int32_t *dedup;
    uint32_t dedup_mask;

    /* sweep hull */
    int32_t *hull_next, *hull_prev, *hull_tri, *hull_hash;
    int hash_size, hull_start;
    double cx, cy;
    uint32_t *keys, *keys2;
    int32_t *ids, *ids2;

    /* triangles */
    int ntris;
    int32_t *tris, *he;
    uint8_t *fixed;
    int32_t *stack;         /* legalisation stack, max_points + 16 */
    int32_t *tmp_a, *tmp_b; /* 2*max_tris + 16 each: edge queues, BFS layers */
    int32_t *tscratch;      /* max_tris: depth, then new triangle numbers */
    int tmp_cap;            /* entries in tmp_a / tmp_b */
    int chain_off;          /* where the chain edges' outside half-edges start in tmp_a / tmp_b */
    int walks;              /* constraint walks so far in this build (chain stamps) */

    /* rectilinear row sweep (see rect_build); the front reuses hull_next
     * (next), hull_prev (prev) and hull_tri (triangle half-edge above) */
    uint8_t *pflag;    /* max_points + 2: RF_* bits */
    int32_t *colv;     /* col_cap: the front vertex in each column */
    uint64_t *colbits; /* col_cap / 64 words: the columns holding a front vertex */
    int col_cap;       /* columns the sweep can handle (multiple of 64) */

    int nout; /* triangles in the published mesh */
    tn_cdt_stats st;
    const int32_t *segs; /* during a build: the caller's segments (error messages) */
    int nsegs;
};

/* unsigned arithmetic: division by 3 becomes a multiply and a shift */
static inline int he_base(int e) { return (int)((unsigned)e / 3u * 3u); }
/* arithmetic, not a branch: which slot an edge sits in is unpredictable */
static inline int next_he(int e) { return e + 1 - 3 * (e - he_base(e) == 2); }
static inline int prev_he(int e) { return e - 1 + 3 * (e - he_base(e) == 0); }

#if defined(__GNUC__)
#define CDT_NOINLINE __attribute__((noinline))
#else
#define CDT_NOINLINE
#endif

/* Shewchuk's static filter bounds (epsilon = 2^-53). */
#define CDT_EPS (DBL_EPSILON * 0.5)
#define CDT_CCW_BOUND_A ((3.0 + 16.0 * CDT_EPS) * CDT_EPS)
#define CDT_ICC_BOUND_A ((10.0 + 96.0 * CDT_EPS) * CDT_EPS)

/* tn_cdt_pred.c: exact predicates for integer input (int64 / __int128) and
 * Shewchuk's adaptive expansions for doubles.  Signs: orient > 0 when c
 * (p) is left of a->b; incircle > 0 when d is strictly inside the circle
 * through the counter-clockwise a, b, c. */
int orient_exact_int(const double *a, const double *b, const double *p);
#if defined(__SIZEOF_INT128__)
int incircle_exact_int(const double *a, const double *b, const double *c, const double *d);
#endif
int orient_adapt(const double *a, const double *b, const double *c, double detsum);
int incircle_adapt(const double *a, const double *b, const double *c, const double *d,
                   double permanent);

/* tn_cdt_sweep.c: the rectilinear row sweep (ALGORITHM A of tn_cdt.h).
 * Builds and publishes the mesh and returns 1, or returns 0 with nothing
 * published when the input is not for it; all = TN_CDT_RECT_DOMAIN. */
int rect_build(tn_cdt *c, const int32_t *xy, int n, const int32_t *segs, int nsegs, int all);

/* Predicate modes.  CDT_EXACT_DOUBLE: integer input spanning at most 4096
 * in x and in y; every intermediate of both determinants is then an integer
 * below 2^53 (differences <= 2^12, lifts <= 2^25, terms <= 2^50, sums
 * < 2^53), so plain double arithmetic is exact and needs no filter.
 * CDT_INT: other integer input: filter, then int64/__int128.  CDT_FLOAT:
 * filter, then adaptive expansions. */
enum { CDT_EXACT_DOUBLE = 0, CDT_INT = 1, CDT_FLOAT = 2 };
/* The rectilinear sweep's integer predicates are exact in int64 while x
 * and y each span at most this: differences <= 2^14, lifts <= 2^29, each
 * in-circle term <= 2^58, the sum < 2^60. */
#define RECT_MAX_SPAN 16384
#define CDT_EXACT_SPAN 4096.0

#if defined(__GNUC__)
#define CDT_INLINE static inline __attribute__((always_inline))
#else
#define CDT_INLINE static inline
#endif

/* Sign of orient(a, b, p): > 0 when p is left of a->b. */
CDT_INLINE int orient_pt(tn_cdt *c, const double *a, const double *b, const double *p)
{
    double l = (b[0] - a[0]) * (p[1] - a[1]);
    double r = (b[1] - a[1]) * (p[0] - a[0]);
    double det = l - r;
    if (c->mode == CDT_EXACT_DOUBLE) return (det > 0) - (det < 0);
    double bound = CDT_CCW_BOUND_A * (fabs(l) + fabs(r));
    if (det > bound) return 1;
    if (-det > bound) return -1;
    c->st.exact_tests++;
    if (c->exact_int) return orient_exact_int(a, b, p);
    return orient_adapt(a, b, p, fabs(l) + fabs(r));
}

CDT_INLINE int orient(tn_cdt *c, int a, int b, int p)
{
    return orient_pt(c, c->pt + 2 * a, c->pt + 2 * b, c->pt + 2 * p);
}

/* Sign of incircle: > 0 when d is strictly inside the circle through the
 * counter-clockwise triangle (a, b, cc). */
CDT_INLINE int incircle(tn_cdt *c, int ia, int ib, int ic, int id)
{
    const double *a = c->pt + 2 * ia, *b = c->pt + 2 * ib, *cc = c->pt + 2 * ic,
                 *d = c->pt + 2 * id;
    double adx = a[0] - d[0], ady = a[1] - d[1];
    double bdx = b[0] - d[0], bdy = b[1] - d[1];
    double cdx = cc[0] - d[0], cdy = cc[1] - d[1];
    double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy, alift = adx * adx + ady * ady;
    double cdxady = cdx * ady, adxcdy = adx * cdy, blift = bdx * bdx + bdy * bdy;
    double adxbdy = adx * bdy, bdxady = bdx * ady, clift = cdx * cdx + cdy * cdy;
    double det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
    if (c->mode == CDT_EXACT_DOUBLE) return (det > 0) - (det < 0);
    double permanent = (fabs(bdxcdy) + fabs(cdxbdy)) * alift +
                       (fabs(cdxady) + fabs(adxcdy)) * blift +
                       (fabs(adxbdy) + fabs(bdxady)) * clift;
    double bound = CDT_ICC_BOUND_A * permanent;
    if (det > bound) return 1;
    if (-det > bound) return -1;
    c->st.exact_tests++;
#if defined(__SIZEOF_INT128__)
    if (c->exact_int) return incircle_exact_int(a, b, cc, d);
#endif
    return incircle_adapt(a, b, cc, d, permanent);
}

/* Success: clear a caller's error record (a stale message must not
 * survive a later success). */
static inline tn_status cdt_ok(tn_error *err)
{
    tn_error_clear(err);
    return TN_OK;
}

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
