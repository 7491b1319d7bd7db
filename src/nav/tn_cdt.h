/* SPDX-License-Identifier: Zlib */
/* tn_cdt.h - constrained Delaunay triangulation (CDT) of points and segments.
 *
 * Orientation convention: orient(a,b,c) = (bx-ax)*(cy-ay) - (by-ay)*(cx-ax).
 * Every output triangle (v0,v1,v2) has orient > 0 (counter-clockwise in a
 * y-up frame; clockwise on a y-down screen).
 *
 * USE
 *   tn_cdt *c;
 *   if (tn_failed(tn_cdt_create(max_points, max_segments, NULL, &c, &err))) ...;
 *   tn_cdt_build_i(c, xy, n, segs, nsegs, TN_CDT_REMOVE_OUTSIDE, &err);
 *   tn_cdt_mesh m; tn_cdt_get_mesh(c, &m);   // valid until the next build
 *   ... rebuild as often as needed: builds never allocate ...
 *   tn_cdt_destroy(c);
 *
 * ALGORITHM
 * Two builders share the output format.
 *
 *  A. The rectilinear row sweep (tn_cdt_sweep.c): tn_cdt_build_i with
 *     exactly TN_CDT_REMOVE_OUTSIDE (or exactly TN_CDT_RECT_DOMAIN: the
 *     bounding rectangle, sides all constraints, points on its sides may
 *     end 3 constraints; everything inside is kept) on a tile-map outline - points sorted by (y, x)
 *     without duplicates, every constraint horizontal or vertical, a
 *     horizontal one joining consecutive points, every point the end of 2
 *     or 4 constraints (what tn_navmesh and bench_gen.c extract), x and y
 *     spans at most 16,384 (exact int64 predicates), the x span + 2 within
 *     the column array (4,160 columns, or 4 per point of capacity + 64 when
 *     that is more, up to 16,448: tile maps up to 16,384 wide).  Anything else, or
 *     any surprise during the sweep (a point inside a vertical constraint,
 *     crossing constraints), goes to B with nothing published.
 *     The points are visited row by row, left to right, below a FRONT: an
 *     x-monotone chain (found by column through a bitset) that bounds what
 *     is triangulated.  Each front edge knows whether the region below it
 *     is inside (odd depth) and whether it is a constraint, so only inside
 *     triangles are ever built and the removal costs nothing.  A point
 *     drops below the front edge straddling its column (the triangle to
 *     it), or right below a front vertex (two triangles; the vertical
 *     constraint between them is made so); a horizontal constraint to the
 *     previous point of the row that did not come out closes the x-monotone
 *     pocket above it, triangulated directly as a CDT (Anglada's apex
 *     recursion); peaks of the front next to the new point sharper than
 *     109.5 degrees are cut off (Domiter and Zalik 2008).  A front vertex
 *     with a constraint going down is never removed, so every constraint is
 *     made by the sweep itself.  Every triangle built makes the edges it
 *     turned interior Lawson-legal (strict test; the four outer edges of a
 *     flip re-tested; constraints never flipped): at the end every unfixed
 *     interior edge is locally Delaunay, so the mesh is the CDT of the
 *     inside faces, which is what B keeps (a face's CDT depends only on its
 *     own boundary).  The same triangle count as B, not always the same
 *     triangles where four points are cocircular.
 *
 *  B. The general builder (tn_cdt.c; exact predicates in tn_cdt_pred.c),
 *     for everything else:
 *  1. Exact duplicates are merged (open-addressing hash on the coordinate
 *     bits): remap[i] is the first input point with the same coordinates.
 *  2. Delaunay triangulation by sweep hull (Sinclair's S-hull, as in
 *     Delaunator): seed triangle = the point nearest the box centre, its
 *     nearest neighbour and the point making the smallest circumcircle with
 *     them; the other points are radix-sorted by (float) distance from its
 *     circumcentre and copied into that order (consecutive insertions touch
 *     consecutive memory); each is joined to the hull edges it sees (hull in
 *     a linked list, found through an angular hash) and every new triangle
 *     is made Delaunay by Lawson flips.  A point the sweep finds NOT strictly
 *     outside its hull (closer than the seed circle, or misordered by the
 *     float key) is located by a visibility walk and inserted by a triangle,
 *     edge or hull-edge split: the order only affects speed, never validity.
 *     TN_CDT_INCREMENTAL instead inserts every point that way in
 *     Hilbert-curve order (measured: about as fast on 1M random points,
 *     30-60% slower on tile maps).
 *  3. Each constraint is walked from one end towards the other through the
 *     triangles it crosses.  An edge already there is just marked (most tile
 *     outlines); a point lying on the segment splits it there; a crossed
 *     constraint edge is an error naming both segments.  The crossed
 *     triangles form a cavity whose two sides (pseudo-polygons over the new
 *     edge) are retriangulated directly as a constrained Delaunay
 *     triangulation (Anglada 1997): the apex over a base is the chain point
 *     whose circle with the base holds no other chain point, then both sides
 *     of the apex recursively.  A cavity whose boundary passes a point twice
 *     (a "slit": the segment crosses every triangle around a point near it)
 *     falls back to flipping the crossed edges (Sloan 1993) and Lawson
 *     flips of the new ones.
 *  4. TN_CDT_REMOVE_OUTSIDE: the depth of a triangle is the least number of
 *     constraints crossed to reach it from outside the hull (breadth-first,
 *     layer by layer); triangles of even depth are removed (even-odd rule).
 *     Then the kept triangles are renumbered in place and vert_tri filled.
 *
 * ROBUSTNESS
 *  Every decision is an exact predicate.  The row sweep: int64 orientation
 *  and in-circle tests, exact for spans up to 2^14 (each in-circle term
 *  below 2^58).  B: integer input spanning at most 4096 in x and in y
 *  (every tile map): plain double arithmetic is exact there (all
 *  intermediates are integers below 2^53), so no filter at all.
 *  Other integer input (|x|,|y| <= 2^26): Shewchuk's floating-point filter,
 *  then int64 orient / __int128 in-circle.  tn_cdt_build_d: the filter, then
 *  our own exact expansion arithmetic (two-sum/two-product, after Shewchuk
 *  1997; also used by build_i where __int128 is missing).  Flips use the
 *  STRICT in-circle test (flip only when the fourth point is strictly
 *  inside): each flip strictly lowers the lifted surface, so no flip
 *  sequence can cycle however cocircular the input (grid corners are); the
 *  result satisfies the empty-circle property non-strictly.  Duplicates,
 *  collinear runs, all-collinear input (no triangles), constraints through
 *  points, touching and overlapping constraints take ordinary code paths.
 *  tests/test_cdt.c checks every build against independent references
 *  (int64/__int128, and a big-integer for doubles): empty circles by brute
 *  force, constraints as chains of fixed edges, orientation, adjacency,
 *  directed-edge uniqueness, Euler counts, hull size, remap and vert_tri, the
 *  removal against the tile map, in sweep, incremental and input order; the
 *  row sweep on 600 random and stretched tile maps (brute force, the free
 *  area and tiles, the same count as B) and on damaged outlines, which must
 *  get B's answer.
 *
 * LIMITS
 *  build_i: |x|,|y| <= TN_CDT_MAX_COORD (2^26); build_d: coordinates 0 or of
 *  magnitude in [1e-30, 1e30] (no overflow or underflow in the exact
 *  stage); at most TN_CDT_MAX_POINTS points.  Zero-length constraints
 *  (equal or merged end points) are ignored; overlapping collinear
 *  constraints are fine; crossing ones are refused and the mesh is empty
 *  until the next good build.  Even-odd removal assumes closed outlines; a
 *  dangling constraint separates nothing (both sides get the same depth).
 *  One constraint crossing k edges costs O(k^2) at worst (apex searches):
 *  k = 3,000 takes 5 ms, k = 40,000 about 1 s; tile outlines cross 0-2.
 *  The row sweep's pocket costs O(k^2) in-circle tests for k front
 *  vertices above a horizontal constraint (tile maps: k = 0-3).
 *
 * MEMORY
 *  Everything is allocated by tn_cdt_create: 183-192 bytes per point of
 *  capacity plus the sweep's column array (16.6-66 KB) (measured: 12.1 MB
 *  for 66,049 points, the corners of a 256x256 map; 175 MB for
 *  1,000,000), independent of max_segments.  Builds never allocate; their
 *  cost depends on the input, not on the capacity.  The mesh arrays live in
 *  the tn_cdt and are valid until the next build.
 *
 * THREADS
 *  A tn_cdt is one builder's state: a build writes it, so one tn_cdt per
 *  thread that builds.  After a build, get_mesh / get_stats and reading
 *  the mesh are read-only and may run in several threads at once.  No
 *  globals: different tn_cdt objects are independent.
 *
 * COST.  The outline of a 256x256 map of 700 random blocks (2,377 points,
 * 2,388 segments) by the row sweep: about 0.2 ms, about 900
 * instructions a point; 1,000,000 uniform random points (B): about 0.35-0.4
 * s.  `tilenav-bench cdt` and `make bench-peers` (against Delaunator +
 * Constrainautor on the same input) print the current numbers
 * (docs/bench.md); docs/perf.md keeps the figures measured as the module
 * grew.
 */
#ifndef TN_CDT_H
#define TN_CDT_H

#include "tn_common.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    /* The domain is the points' bounding rectangle, every side of which
     * must be covered by constraints: everything inside it is kept (no
     * even-odd removal), so a tile map's free and blocked faces come out of
     * ONE row sweep (ALGORITHM A; constraints may meet the sides in
     * T-junctions).  The general builder, when the sweep does not apply,
     * keeps the whole convex hull = the same rectangle.  Not together with
     * TN_CDT_REMOVE_OUTSIDE. */
    TN_CDT_RECT_DOMAIN = 1u << 3,
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
tn_status tn_cdt_create(int max_points, int max_segments, const tn_allocator *a, tn_cdt **out,
                        tn_error *err);
void tn_cdt_destroy(tn_cdt *c);
/* The bytes tn_cdt_create allocated for c (all it ever will); 0 for NULL. */
size_t tn_cdt_memory(const tn_cdt *c);

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
tn_status tn_cdt_build_i(tn_cdt *c, const int32_t *xy, int npoints, const int32_t *segs, int nsegs,
                         unsigned flags, tn_error *err);
/* Floating-point coordinates (adaptive exact predicates); same rules.
 * Non-finite coordinates are refused. */
tn_status tn_cdt_build_d(tn_cdt *c, const double *xy, int npoints, const int32_t *segs, int nsegs,
                         unsigned flags, tn_error *err);

/* c NULL: an empty mesh (all zero); out NULL: nothing. */
void tn_cdt_get_mesh(const tn_cdt *c, tn_cdt_mesh *out);

/* What the last build did (for benchmarks, tests and the curious). */
typedef struct tn_cdt_stats {
    int points;                 /* distinct points */
    int duplicates;             /* input points merged into an earlier equal one */
    int inside_inserts;         /* points the sweep met inside its hull (inserted by a walk) */
    long long flips;            /* Delaunay (Lawson) flips */
    int segments_present;       /* constraint edges already in the Delaunay triangulation */
    int segments_forced;        /* constraint edges forced in by flipping */
    int segments_split;         /* times a constraint was split at a point lying on it */
    long long cavity_triangles; /* triangles rebuilt while forcing constraints */
    long long forced_flips;     /* flips by the fallback for cavities with a slit */
    int ntris_hull;             /* triangles before the removal of the outside */
    long long exact_tests;      /* predicates the floating-point filter could not decide
                               (exact stage; 0 on small integer spans, which are
                               exact in doubles) */
    int rectilinear;            /* 1: built by the rectilinear row sweep (ALGORITHM A); it
                               builds inside triangles only, so ntris_hull is the kept
                               count, and it never walks, forces or splits */
} tn_cdt_stats;
/* c NULL: all zero; out NULL: nothing. */
void tn_cdt_get_stats(const tn_cdt *c, tn_cdt_stats *out);

#ifdef __cplusplus
}
#endif

#endif
