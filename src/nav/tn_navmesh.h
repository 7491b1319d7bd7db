/* tn_navmesh.h - navigation mesh of a tile map's free space for flyers: a
 * constrained Delaunay triangulation (tn_cdt) of the block outlines, with
 * point location, A* over triangles, funnel paths, an agent radius, line of
 * sight and the nearest free point.
 *
 * FREE SPACE.  Empty tiles and one-way platforms are free; blocks and the
 * outside of the map are obstacles.  Free space is the union of the closed
 * free tiles, except that two free tiles touching only at a corner (the other
 * two tiles around that corner blocked: a "pinch") are NOT connected there,
 * exactly like an 8-connected grid that forbids corner cutting.
 *
 * BUILD (tn_navmesh_build, O(W*H + n log n)):
 *  1. Outlines: one pass over the (W+1)*(H+1) tile corners.  A corner is a
 *     vertex when the free/blocked pattern of its four tiles is neither
 *     uniform nor a straight wall.  Unit edges between a free and a blocked
 *     tile are merged along each grid line into maximal runs and every run is
 *     split at each vertex on it, so every outline touching another one ends
 *     there (no T-junctions); the map border is an outline like any other.
 *  2. CDT of the vertices (integer corner coordinates in TILE units) with the
 *     outline segments as constraints, without TN_CDT_REMOVE_OUTSIDE: the
 *     whole convex hull stays triangulated, which keeps the point-location
 *     walk simple (it can never get stuck) and makes line of sight exact.
 *  3. Tile test: a triangle never crosses an outline, so its centroid's tile
 *     says whether all of it is free or inside a block (exact: the centroid
 *     is a multiple of 1/3 computed in integers).  Blocked triangles get
 *     region -1; free ones are flood-filled into regions across shared edges.
 *  4. Location buckets: a grid with one cell per TN_NAVMESH_BUCKET x
 *     TN_NAVMESH_BUCKET tiles stores the triangle under each cell's centre
 *     (found by short walks from the neighbouring cell).
 *
 * UNITS.  The mesh lives in tile units (vertex (x, y) = corner of tile (x, y),
 * y down).  Every query takes and returns coordinates in "query units":
 * tile units times config.tile_size (1 = tiles, TN_TILE_PX = world pixels).
 *
 * QUERIES (all read-only on the mesh; the path query keeps its scratch in a
 * tn_navquery so several users can share one mesh):
 *  - locate: a remembering stochastic visibility walk (Devillers, Pion and
 *    Teillaud 2002) from the caller's hint triangle, or from the bucket under
 *    the point when there is no hint; a point on an edge or vertex shared by a
 *    free and a blocked triangle is reported in the free one.
 *  - path: A* over triangles.  A triangle's search position is the point of
 *    its entry portal that minimises |parent point - q| + |q - goal| (where
 *    the straight line to the goal crosses the portal, else the better end),
 *    g accumulates the lengths of that polyline, h = straight distance to the
 *    goal; closed triangles are reopened when reached more cheaply (like
 *    Detour).  Then the funnel ("simple stupid funnel", Mononen 2010) pulls
 *    the string to the shortest path inside the corridor.
 *  - radius r > 0: every portal is shrunk by r at both ends (along the
 *    portal), portals shorter than 2r are impassable, and crossing a
 *    triangle from one edge to another needs a width of 2r, where the width
 *    is the shorter of the two edges and, when the third edge is an outline,
 *    the distance from the shared vertex to it (Demyen and Buro 2006, without
 *    their search beyond unconstrained edges).  So paths keep r from the
 *    outline corners they turn around, measured along the portal; straight
 *    legs may still pass a corner closer than r (no arcs).  Start and goal are
 *    taken as given (not pushed away from walls).
 *  - line of sight: walks the triangles along the segment and fails at the
 *    first blocked triangle.  Grazing an outline (touching a block corner,
 *    running along a wall) is visible; passing through a pinch is not.
 *  - nearest free point: ring search over the tile grid kept with the mesh
 *    (exact, O(d^2) for distance d), optionally `margin` inside free tiles.
 *
 * LIMITS.  Capacity (points, constraint segments, triangles) is fixed at
 * create for the map size: the default is the worst case (a checkerboard:
 * (W+1)*(H+1) points), so any map of that size builds.  A map bigger than
 * the created size is refused.  Coordinates in the CDT are at most 4096.
 *
 * MEMORY.  At create: the CDT for max_points/max_segments, ~60 bytes per
 * potential point for outlines, regions and buckets, W*H bytes of the tile
 * grid; a tn_navquery ~50 bytes per potential triangle.  Nothing is
 * allocated by builds or queries.
 *
 * COST (measured, see bench/bench_navmesh.c; 2-core shared machine, -O2):
 *  build of a 256x256 random-blocks map (~17,000 constraints):  see the
 *  header's MEASURED table at the end of this comment.
 *
 *  MEASURED: (filled in from `tilenav-bench navmesh`)
 */
#ifndef TN_NAVMESH_H
#define TN_NAVMESH_H

#include "tn_common.h"
#include "tn_debug.h"
#include "tn_map.h"

/* Tiles per side of a point-location bucket. */
#define TN_NAVMESH_BUCKET 4
/* Interval-search nodes reserved per triangle of capacity by a tn_navquery;
 * a query that needs more falls back to the triangle A*. */
#define TN_NAVQUERY_NODES_PER_TRI 2

typedef struct tn_navmesh tn_navmesh;
typedef struct tn_navquery tn_navquery;

typedef struct tn_navmesh_config {
    float tile_size; /* query units per tile: 1 (default) = tile units, 16 = pixels */
    int max_points;  /* capacity; 0 (default) = worst case for the map size */
    int max_segments;/* capacity; 0 (default) = worst case for the map size */
} tn_navmesh_config;

tn_navmesh_config tn_navmesh_default_config(void);

/* A mesh for maps of up to map_w x map_h tiles (1..TN_MAP_MAX_SIZE).  All
 * memory is allocated here.  NULL (err filled) on bad arguments or no memory. */
tn_navmesh *tn_navmesh_create(int map_w, int map_h, const tn_navmesh_config *cfg,
                              const tn_allocator *a, tn_error *err);
void tn_navmesh_destroy(tn_navmesh *m);

/* (Re)build from `map` (at most the created size).  Fails with CAPACITY when
 * the outlines exceed configured capacities; the mesh is then empty (every
 * query answers "not free") until the next successful build. */
tn_status tn_navmesh_build(tn_navmesh *m, const tn_map *map, tn_error *err);

/* After `map` changed at tile (x, y) only (since the last build or update):
 * bring the mesh up to date by re-triangulating the neighbourhood of the
 * tile (see LOCAL REBUILD above); falls back to tn_navmesh_build when the
 * neighbourhood touches the convex hull or exceeds the local limits.  The
 * result is a valid constrained triangulation of the same outlines, though
 * no longer exactly Delaunay across the re-triangulated patch. */
tn_status tn_navmesh_update_tile(tn_navmesh *m, const tn_map *map, int x, int y, tn_error *err);

/* Read-only view of the built mesh (valid until the next build). */
typedef struct tn_navmesh_view {
    int map_w, map_h;
    float tile_size;
    int npoints;            /* outline vertices */
    const int32_t *xy;      /* 2*npoints: integer tile-corner coordinates */
    int nsegments;          /* constraint segments (merged, split outline runs) */
    const int32_t *segs;    /* 2*nsegments point indices */
    int ntris;              /* all triangles of the convex hull, free and blocked */
    const int32_t *tri;     /* 3*ntris point indices, orient > 0 (see tn_cdt.h) */
    const int32_t *adj;     /* 3*ntris: triangle across edge i (tri[i]->tri[i+1]), -1 hull */
    const int32_t *region;  /* per triangle: region id of a free one, -1 inside a block */
    int nfree;              /* free triangles */
    int nregions;           /* connected free regions */
    double cdt_seconds;     /* time inside tn_cdt_build_i during the last build,
                               only when a clock was given (else 0) */
    bool last_local;        /* the last tn_navmesh_update_tile stayed local */
} tn_navmesh_view;
void tn_navmesh_get_view(const tn_navmesh *m, tn_navmesh_view *v);

/* Whether tile (x, y) was free in the last build (false outside the map):
 * lets a caller skip rebuilds after edits that leave free space as it is. */
bool tn_navmesh_tile_free(const tn_navmesh *m, int x, int y);

/* Optional monotonic clock (seconds) used to split the build time for the
 * benchmark; NULL (default) = not measured. */
void tn_navmesh_set_clock(tn_navmesh *m, double (*clock)(void));

/* The free triangle containing (x, y) (closed), or -1 when the point is in a
 * block or outside the map.  `hint`: a triangle near the point (e.g. the
 * previous answer for a moving agent), or -1 to start from the buckets. */
int tn_navmesh_locate(const tn_navmesh *m, float x, float y, int hint);
/* The region of a free point, -1 when not free. */
int tn_navmesh_region_at(const tn_navmesh *m, float x, float y);

/* True when the segment a-b lies in free space (see the header comment). */
bool tn_navmesh_los(const tn_navmesh *m, float ax, float ay, float bx, float by);

/* The nearest point to (x, y) of free tiles shrunk by `margin` (query units,
 * clamped to just under half a tile); (x, y) itself when that is already
 * such a point.  False when the map has no free tile. */
bool tn_navmesh_nearest_free(const tn_navmesh *m, float x, float y, float margin, float *ox,
                             float *oy);

/* ---- path queries ---------------------------------------------------- */

/* Scratch for A* and the funnel, sized for `m`'s capacity (valid across
 * rebuilds of m; must not outlive it). */
tn_navquery *tn_navquery_create(const tn_navmesh *m, const tn_allocator *a, tn_error *err);
void tn_navquery_destroy(tn_navquery *q);

/* Shortest path (in the A* corridor) from s to g for an agent of `radius`
 * (query units, >= 0).  Writes up to `cap` points (x, y pairs: 2*cap floats)
 * into xy, start and goal included, and their number into *count.
 *  TN_OK; FAILURE|INVALID_PARAM (bad arguments, start or goal not free);
 *  FAILURE|UNREACHABLE (no corridor wide enough);
 *  SUCCESS|PARTIAL_RESULT|BUFFER_TOO_SMALL when the path has more than cap
 *  points (the first cap are written). */
tn_status tn_navquery_find_path(tn_navquery *q, float sx, float sy, float gx, float gy,
                                float radius, float *xy, int cap, int *count);
/* The corridor of the last successful find_path: triangles from start to
 * goal. */
const int32_t *tn_navquery_corridor(const tn_navquery *q, int *n);
/* Search nodes expanded by the last query. */
int tn_navquery_expanded(const tn_navquery *q);
/* True when the last path is the exact shortest one (radius 0 and the
 * interval search finished within its node pool). */
bool tn_navquery_exact(const tn_navquery *q);

/* The funnel algorithm on its own: portals[4*i..4*i+3] = left x, y, right x,
 * y of portal i as seen walking from portal 0 to portal n-1 ("left" is the
 * side where orient > 0, see tn_cdt.h); portal 0 is the start (left = right)
 * and portal n-1 the goal.  Writes up to cap points; returns how many the
 * path has (may exceed cap). */
int tn_funnel(const double *portals, int n, double *out, int cap);

/* ---- debug draw (world pixels = query units * px_per_unit) ----------- */
enum {
    TN_NAVDRAW_TRIANGLES = 1u << 0, /* free triangles filled by region, edges */
    TN_NAVDRAW_BLOCKED = 1u << 1,   /* blocked triangles too */
    TN_NAVDRAW_OUTLINES = 1u << 2,  /* constraint segments */
};
void tn_navmesh_draw(const tn_navmesh *m, const tn_debug_draw *dd, float px_per_unit,
                     unsigned what);
void tn_navmesh_draw_corridor(const tn_navmesh *m, const int32_t *tris, int n,
                              const tn_debug_draw *dd, float px_per_unit, uint32_t rgba);
void tn_navmesh_draw_path(const float *xy, int n, const tn_debug_draw *dd, float px_per_unit,
                          uint32_t rgba);

#endif
