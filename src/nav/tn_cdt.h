/* tn_cdt.h - constrained Delaunay triangulation (CDT) of points and segments.
 *
 * CONTRACT (fixed by the lead; the owner fills in the documentation of the
 * algorithm, limits, memory and measured cost, and may ADD functions, but must
 * keep these signatures and meanings, which the navmesh is written against).
 *
 * Orientation convention: orient(a,b,c) = (bx-ax)*(cy-ay) - (by-ay)*(cx-ax).
 * Every output triangle (v0,v1,v2) has orient > 0 (counter-clockwise in a
 * y-up frame; clockwise on a y-down screen).
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
tn_status tn_cdt_build_i(tn_cdt *c, const int32_t *xy, int npoints, const int32_t *segs,
                         int nsegs, unsigned flags, tn_error *err);
/* Floating-point coordinates (adaptive exact predicates); same rules.
 * Non-finite coordinates are refused. */
tn_status tn_cdt_build_d(tn_cdt *c, const double *xy, int npoints, const int32_t *segs,
                         int nsegs, unsigned flags, tn_error *err);

void tn_cdt_get_mesh(const tn_cdt *c, tn_cdt_mesh *out);

#endif
