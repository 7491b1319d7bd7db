/* tn_cdt.h - constrained Delaunay triangulation (CDT) of points and segments.
 *
 * Orientation convention: orient(a,b,c) = (bx-ax)*(cy-ay) - (by-ay)*(cx-ax).
 * Every output triangle (v0,v1,v2) has orient > 0 (counter-clockwise in a
 * y-up frame; clockwise on a y-down screen).
 *
 * ALGORITHM
 *  1. Exact duplicates are merged (hash on the coordinates): remap[i] is the
 *     first input point with the same coordinates.
 *  2. Delaunay triangulation by sweep hull (Sinclair's S-hull as done by
 *     Delaunator): a seed triangle near the centre with the smallest
 *     circumcircle; the other points sorted by distance from its
 *     circumcentre (radix sort on float keys) and added in that order to the
 *     outside of a convex hull kept in a linked list with an angular hash;
 *     each new triangle is made Delaunay by Lawson flips.  A point the sweep
 *     finds not strictly outside the hull (closer than the seed circle, or
 *     misordered by the float key) is located by a walk and inserted by a
 *     triangle, edge or hull-edge split: ordering only affects speed.
 *  3. Each constraint is walked from one end towards the other through the
 *     triangles it crosses; a point lying on it splits it there; a crossed
 *     constraint edge is an error naming both segments.  The crossed edges
 *     are flipped until the segment is an edge (Sloan 1993), then the new
 *     edges are Lawson-flipped until locally Delaunay.
 *  4. TN_CDT_REMOVE_OUTSIDE: the depth of a triangle is the least number of
 *     constraints crossed to reach it from outside the hull (breadth-first,
 *     layer by layer); triangles of even depth are removed (even-odd rule).
 *
 * ROBUSTNESS
 *  Every decision is an exact predicate: a floating-point filter with
 *  Shewchuk's error bound, then an exact stage - int64 orient and __int128
 *  in-circle for tn_cdt_build_i (coordinates within 2^26, so every term
 *  fits), adaptive exact expansions for tn_cdt_build_d (and for
 *  tn_cdt_build_i on compilers without __int128).  Flips use the STRICT
 *  in-circle test (flip only when the fourth point is strictly inside): each
 *  flip strictly lowers the lifted surface, so no flip sequence can cycle,
 *  however cocircular the input (grid corners); the result satisfies the
 *  empty-circle property non-strictly.  Collinear runs, all-collinear input
 *  (no triangles), duplicates and constraints through points all take
 *  ordinary code paths, checked in tests/test_cdt.c against brute force.
 *
 * LIMITS
 *  build_i: |x|,|y| <= TN_CDT_MAX_COORD (2^26); build_d: coordinates 0 or of
 *  magnitude in [1e-30, 1e30]; at most TN_CDT_MAX_POINTS points.
 *  Zero-length constraints (equal or merged end points) are ignored;
 *  overlapping collinear constraints are fine; crossing ones are refused.
 *  Even-odd removal assumes closed outlines; a dangling constraint does not
 *  separate anything (both sides get the same depth).
 *
 * MEMORY
 *  Everything is allocated by tn_cdt_create (about 160 bytes per point of
 *  capacity); builds never allocate.  The mesh arrays live in the tn_cdt and
 *  are valid until the next build.
 *
 * COST (measured, see bench/bench_cdt.c; filled in below)
 */
#ifndef TN_CDT_H
#define TN_CDT_H

#include "tn_common.h"

typedef struct tn_cdt tn_cdt;

/* Flags for the build functions. */
enum {
    /* Remove the triangles outside the domain: walking in from the convex
     * hull, every crossed constraint toggles outside/inside (even-odd rule).
     * Without it the whole convex hull stays triangulated. */
    TN_CDT_REMOVE_OUTSIDE = 1u << 0,
    /* Testing aid: insert the points in input order instead of sorting
     * them, so the walks are long and every kind of split happens.  Slower;
     * the result is equally valid (it may differ only where four or more
     * points are cocircular). */
    TN_CDT_INPUT_ORDER = 1u << 1,
    /* Build the Delaunay triangulation by incremental insertion in
     * Hilbert-curve order (each point located by a short walk) instead of
     * the default sweep hull.  Same results up to cocircular ties; measured
     * a little slower here, kept for comparison (bench `cdt --incremental`). */
    TN_CDT_INCREMENTAL = 1u << 2,
};

/* The result, valid until the next build or destroy. */
typedef struct tn_cdt_mesh {
    int ntris;
    const int32_t *tri;      /* 3*ntris vertex indices (input point indices) */
    const int32_t *adj;      /* 3*ntris: triangle across edge i, i.e. the edge from
                                tri[3t+i] to tri[3t+(i+1)%3]; -1 on the boundary */
    const uint8_t *fixed;    /* 3*ntris: 1 when that edge lies on a constraint */
    int npoints;             /* number of input points */
    const int32_t *vert_tri; /* per input point: one triangle using it, -1 if none
                                (a duplicate, or all its triangles removed) */
    const int32_t *remap;    /* per input point: the point it was merged with
                                (itself unless it duplicates an earlier point) */
} tn_cdt_mesh;

/* Capacity for up to max_points points and max_segments constraint segments.
 * All memory is allocated here; builds never allocate. */
tn_cdt *tn_cdt_create(int max_points, int max_segments, const tn_allocator *a, tn_error *err);
void tn_cdt_destroy(tn_cdt *c);

/* Integer coordinates (exact predicates).  xy: 2*npoints values in
 * [-TN_CDT_MAX_COORD, TN_CDT_MAX_COORD].  segs: 2*nsegs point indices.
 * Duplicate points are merged; a constraint through another point is split
 * there.  Constraints that cross each other are refused (INVALID_PARAM, the
 * message names the two segments). */
#define TN_CDT_MAX_COORD (1 << 26)
/* Capacity limit of tn_cdt_create (keeps every half-edge index in int32). */
#define TN_CDT_MAX_POINTS (1 << 28)
/* tn_cdt_build_d: every coordinate must be 0 or have a magnitude in
 * [TN_CDT_MIN_COORD_D, TN_CDT_MAX_COORD_D], so that no exact product in the
 * predicates can overflow or underflow (which would break exactness). */
#define TN_CDT_MAX_COORD_D 1e30
#define TN_CDT_MIN_COORD_D 1e-30
tn_status tn_cdt_build_i(tn_cdt *c, const int32_t *xy, int npoints, const int32_t *segs,
                         int nsegs, unsigned flags, tn_error *err);
/* Floating-point coordinates (adaptive exact predicates); same rules.
 * Non-finite coordinates are refused. */
tn_status tn_cdt_build_d(tn_cdt *c, const double *xy, int npoints, const int32_t *segs,
                         int nsegs, unsigned flags, tn_error *err);

void tn_cdt_get_mesh(const tn_cdt *c, tn_cdt_mesh *out);

/* What the last build did (for benchmarks, tests and the curious). */
typedef struct tn_cdt_stats {
    int points;             /* distinct points */
    int duplicates;         /* input points merged into an earlier equal one */
    int inside_inserts;     /* points the sweep met inside its hull (inserted by a walk) */
    long long flips;        /* Delaunay (Lawson) flips */
    int segments_present;   /* constraint edges already in the Delaunay triangulation */
    int segments_forced;    /* constraint edges forced in by flipping */
    int segments_split;     /* times a constraint was split at a point lying on it */
    long long cavity_triangles; /* triangles rebuilt while forcing constraints */
    long long forced_flips; /* flips by the fallback for cavities with a slit */
    int ntris_hull;         /* triangles before the removal of the outside */
    long long exact_tests;  /* predicates the floating-point filter could not decide
                               (exact stage; 0 on small integer spans, which are
                               exact in doubles) */
} tn_cdt_stats;
void tn_cdt_get_stats(const tn_cdt *c, tn_cdt_stats *out);

#endif
