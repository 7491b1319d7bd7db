/* SPDX-License-Identifier: Zlib */
/* tn_navmesh.h - navigation mesh of a tile map's free space for flyers: a
 * constrained Delaunay triangulation (tn_cdt) of the block outlines, with
 * point location, shortest paths (exact any-angle search or A* over
 * triangles, then the funnel), an agent radius, line of sight, the nearest
 * free point and a local rebuild after single-tile edits.
 *
 * FREE SPACE.  Empty tiles and one-way platforms are free; blocks and the
 * outside of the map are obstacles.  Free space is the union of the closed
 * free tiles, except that two free tiles touching only at a corner (the other
 * two tiles around that corner blocked: a "pinch") are NOT connected there,
 * exactly like an 8-connected grid that forbids corner cutting.
 *
 * UNITS.  The mesh lives in tile units: vertex (x, y) is the top-left corner
 * of tile (x, y), integers, y down.  Every query takes and returns "query
 * units" = tile units * config.tile_size (1: tiles; TN_TILE_PX: the world's
 * pixels).  Triangles follow tn_cdt.h: orient(v0, v1, v2) > 0.
 *
 * BUILD (tn_navmesh_build, O(W*H/64 + n log n) for n outline vertices):
 *  1. Outlines.  Free tiles are kept as bytes and as bit rows.  A tile corner
 *     is a vertex unless its four tiles all agree or form a straight wall;
 *     the test runs on 64 corners per word.  The map's four corners are
 *     always vertices (the mesh covers the whole map rectangle), except on
 *     a map with no free tile, whose mesh is empty (no points, no
 *     triangles; a query then says the map has no free tile).  Unit edges between a free and a
 *     blocked tile are merged along each grid line into maximal runs and each
 *     run is split at every vertex on it, so an outline touching another one
 *     ends there (no T-junctions).  The map border is an outline like any
 *     other.  Vertices come out in row-major order.
 *  2. The CDT of the map rectangle with the outline segments as
 *     constraints, blocked parts included, so point-location walks never
 *     get stuck and line of sight can rotate around any vertex.  Built by
 *     ONE run of tn_cdt's rectilinear ROW SWEEP (tn_cdt.h, ALGORITHM A)
 *     with TN_CDT_RECT_DOMAIN: the outline segments plus the border runs
 *     along blocked tiles (so every side of the rectangle is a
 *     constraint); the sweep keeps free and blocked faces alike and visits
 *     each outline vertex once.  If it fails (it cannot on tile outlines)
 *     the general builder (ALGORITHM B) triangulates the outline alone
 *     (view.swept tells which ran).
 *  3. Labels.  No triangle crosses an outline, so the tile under its
 *     centroid (exact: 3 * centroid is an integer) says whether all of it is
 *     free or inside a block: blocked triangles get region -1, free ones are
 *     flood-filled into regions (= the 4-connected components of free tiles).
 *  4. Location buckets: per TN_NAVMESH_BUCKET^2 tiles, a triangle whose
 *     centroid lies there (empty buckets copy the previous one).
 *
 * LOCAL REBUILD (tn_navmesh_update_tile): after one tile changed, the
 *  outline is extracted again (cheap, step 1) and old vertex ids are mapped
 *  to new ones by merging the two row-major lists.  The cavity = the
 *  triangles meeting the tile, those whose closure holds one of its four
 *  corners, and those along an old outline segment touching the tile.  Its
 *  boundary edges, its vertices, the new corner vertices and the outline
 *  segments among them go to a small second CDT; its triangles inside the
 *  cavity (flood from the inner side of each boundary edge) replace the
 *  cavity, checked by exact area equality, and are stitched to the
 *  neighbours.  Vertex ids change only on the tile's two corner rows
 *  (above: the same ids; below: shifted by a constant).  Labels stay
 *  local too: the free components of the new triangles each join the one
 *  region across the cavity border; when regions may merge, split or
 *  vanish (and only then) every triangle is labelled again (step 3-4).
 *  Falls back to a full build when a vertex on the convex hull would
 *  change (edits at the map's corners and borders mostly), when the cavity
 *  exceeds 4096 triangles / 2048 points, or when any check fails.  Paths
 *  stay exact; the
 *  patch is a valid constrained triangulation, though not necessarily
 *  Delaunay across its border.
 *
 * QUERIES (the mesh is read-only; path scratch lives in a tn_navquery, so
 * several users share one mesh; nothing allocates):
 *  - locate: a remembering stochastic visibility walk (Devillers, Pion and
 *    Teillaud 2002) over the whole hull triangulation from the caller's hint
 *    triangle, or from the bucket under the point without one (a step limit
 *    falls back to a scan).  A point on an edge or vertex shared by a free
 *    and a blocked triangle is reported in the free one.
 *  - path, radius 0: exact any-angle shortest path.  An A* whose nodes are
 *    intervals of triangle edges seen from a root (the start or a vertex
 *    where the path turns), Polyanya-style (Cui, Harabor and Grastien 2017):
 *    f = g(root) + the shortest root -> interval -> goal length (reflecting
 *    the goal when it is on the root's side); successors are the parts of
 *    the far edges in sight of the root, and the parts out of sight with the
 *    interval's end vertex as the new root.  Pruning: roots reached again
 *    no cheaper, turns at a vertex whose blocked quadrants are not on the
 *    inner side of the turn, dead-end triangles.  The triangles it crossed
 *    form the corridor; the funnel ("simple stupid funnel", Mononen 2010)
 *    turns it into the path.  A query that needs more search nodes than the
 *    query reserved (one per triangle of capacity) falls back to the
 *    triangle A* below (tn_navquery_exact() tells).
 *  - path, radius r > 0 (CLEARANCE): the shortest path of a disc of radius
 *    r, i.e. of its centre among the blocked tiles and the outside grown by
 *    r (rounded squares).  Such a path consists of segments tangent to the
 *    circles of radius r around CONVEX corners (vertices with exactly one
 *    blocked tile among their four: vquad) and arcs of those circles, and
 *    it only touches a circle on its quarter facing away from the blocked
 *    tile.  The search is an A* whose labels are tangent points: (corner,
 *    side it is passed on, arrival point, length so far); h = straight
 *    distance to the goal (consistent).  Expanding a label offers the
 *    tangents from its circle (leaving after the arrival point, turning
 *    the same way, at most the quarter) to both sides of every candidate
 *    corner, and the tangent to the goal.  Candidates: the vertices a
 *    segment from the corner (or the start) can reach through free
 *    triangles, touching walls allowed: the triangular expansion (cones
 *    through triangle edges, as in Bungiu et al. 2014) with a 1e-9 angular
 *    slack, a SUPERSET (a clear tangent implies the corner-to-corner segment
 *    only grazes walls), computed once per vertex per query.  Offers go on
 *    the heap unchecked (lazy); when one is popped its arc and tangent are
 *    checked EXACTLY against the tile grid (segment / arc to square
 *    distances >= r - 1e-7, tiles within r visited column by column; arcs
 *    need no check for r <= 1/2), then it is dropped if a closed label of
 *    the same corner and side arrives no later on the arc and is no longer
 *    there.  The first goal popped is optimal.  Exact: which corners the
 *    path wraps, its topology and its length (doubles; tests/
 *    test_navclear.c: within 4e-9 of a brute-force tangent-graph oracle).
 *    Approximated: only the output of arcs, as the polygon of tangent lines
 *    around the circle (its corners at most TN_NAVQUERY_ARC_EPS = 0.005
 *    tiles outside the circle, never inside it, refined where that would
 *    come closer than r to another tile); tn_navquery_length() is the exact
 *    length.  Every point keeps r from every blocked tile and the map edge
 *    (float output: within 1e-5), so corridors narrower than 2r are never
 *    used.  Start and goal must keep r themselves (else INVALID_PARAM; see
 *    tn_navmesh_nearest_clear).  One mesh serves every radius: nothing
 *    radius-specific is built.  Cost grows with the corners in sight along
 *    the way; a query that outgrows the query's pools (labels, heap)
 *    drops offers and tn_navquery_exact() says false.
 *  - line of sight: walks the triangles along the segment and fails at the
 *    first blocked one; where the segment passes exactly through a vertex it
 *    rotates around it: grazing a block (touching a corner, running along a
 *    wall) is visible, passing through a pinch is not.
 *  - nearest free point: ring search over the tile grid kept with the mesh
 *    (exact, O(d^2) tiles for distance d), optionally `margin` inside tiles.
 *
 * LIMITS.  Capacity (P points, S segments) is fixed at create.  The
 * default is the worst case for the size (a checkerboard: P = (W+1)*(H+1),
 * S = 2*W*H + W + H), so any map of that size builds and no edit can
 * overflow it; tn_navmesh_config_for_map sizes P and S to a map's content
 * (its outline vertices + headroom), and an edit that outgrows them fails
 * with CAPACITY.  Bigger maps than the created size are refused.
 *
 * MEMORY (bytes; counting allocator, 64-bit): mesh ~ 300 * P + 16 * S +
 * W * H + 1.2 MB (106 * P of its own arrays, 2 triangles of 36 bytes per
 * point, tn_cdt's 183-192 * P, fixed scratch of the local update and its
 * 2048-point CDT); a tn_navquery exactly 690 * P + 95,646 bytes for an
 * odd P, 34 more for an even one (arrays of P / 2 round down) (94 KB
 * of fixed pools: 1 KB per point at 16x16, 718 B for P = 3,467):
 * the triangle A* and interval search, per triangle of capacity (2 per
 * point), and the radius search: per point 2 heap offers and 1/2 label of
 * 72 bytes, 4 cached candidates, state and stamp arrays).
 * Measured at 256x256: worst case mesh 22.1 MB + query 43.6 MB;
 * tn_navmesh_config_for_map(map, 0.25) on 700 / 2000 random blocks
 * (P = 3,035 / 5,950): 2.3 + 2.1 MB / 3.2 + 4.0 MB.  Builds, updates and
 * queries never allocate.
 *
 * THREADS.  A built mesh is read-only for every query function (locate,
 * region_at, los, nearest_free, clearance, nearest_clear, get_view, draw
 * and tn_navquery_*): several threads may query one mesh at once, each
 * with its OWN tn_navquery (a query object is not shareable).  Build and
 * update_tile write the mesh: no query may run meanwhile.  No globals.
 * `make tsan`: four threads on one mesh under ThreadSanitizer.
 *
 * COST.  256x256 map of 700 random blocks (2,377 vertices, 4,700
 * triangles): a full build about 0.45 ms, the local update after a one-tile
 * edit about 0.04 ms, a point's path about 45 us and a radius path about
 * 0.35 ms median, line of sight well under 1 us (docs/bench.md of
 * 2026-12-07).  `tilenav-bench navmesh`
 * prints the current numbers (docs/bench.md); docs/perf.md keeps the
 * figures measured as the module grew.  Long radius paths across dense
 * maps cost far more (the corners in sight grow with the way): corner to
 * corner through 10% random blocks, radius 0.3 tiles (config_for_map,
 * headroom 0.1), measured from an installed copy: 128x128 15 ms, 256x256
 * 0.1 s, 512x512 1 s (pools outgrown: tn_navquery_exact false), 2048x2048
 * about 100 s, against 0.6, 6, 27 ms for the point's path at the first
 * three sizes.  Plan such paths off the frame or to nearer goals.
 * TESTED.  Radius paths against a brute-force tangent-graph oracle
 * (tests/clear_oracle.h; tests/test_navclear.c and the bench, random block
 * maps, arena, den312d): every reachability verdict agrees, exact length
 * within 4e-9, polyline within 0.2%, clearance never below r - 1e-5.  Every
 * one of the 2,150 Moving AI scenario queries of arena, den312d and
 * random512-10-0 gives a valid path no longer than the 8-connected optimum
 * (tests/test_navmesh.c); on arena and den312d all 480 equal the
 * visibility-graph any-angle optimum.
 */
#ifndef TN_NAVMESH_H
#define TN_NAVMESH_H

#include "tn_common.h"
#include "tn_debug.h"
#include "tn_map.h"
#include "tn_steer.h" /* tn_agent_nav */

#ifdef __cplusplus
extern "C" {
#endif

/* Tiles per side of a point-location bucket. */
#define TN_NAVMESH_BUCKET 4
/* Interval-search nodes reserved per triangle of capacity by a tn_navquery;
 * a query that needs more falls back to the triangle A*. */
#define TN_NAVQUERY_NODES_PER_TRI 1
/* Radius paths: arcs are returned as the polygon of tangent lines around
 * the corner circle; its corners lie at most this far (tiles) outside the
 * circle, never inside it (see CLEARANCE). */
#define TN_NAVQUERY_ARC_EPS 0.005

typedef struct tn_navmesh tn_navmesh;
typedef struct tn_navquery tn_navquery;

typedef struct tn_navmesh_config {
    float tile_size;  /* query units per tile: 1 (default) = tile units, 16 = pixels */
    int max_points;   /* capacity, 4..(W+1)*(H+1); 0 (default) = that worst case */
    int max_segments; /* capacity, 4..2*W*H+W+H; 0 (default) = that worst case */
} tn_navmesh_config;

tn_navmesh_config tn_navmesh_default_config(void);
/* Capacities sized to `map`'s content: its outline vertices (O(W*H) count)
 * times 1 + headroom, plus 64, and segments for them (see MEMORY); the
 * default config (the worst case) when map is NULL or headroom is negative
 * or NaN.  Mesh and query memory then follow the
 * map's content instead of its size.  An edit that outgrows the capacity
 * makes tn_navmesh_update_tile / _build fail with CAPACITY (the mesh is
 * then empty): create a new mesh sized for the new map. */
tn_navmesh_config tn_navmesh_config_for_map(const tn_map *map, float headroom);

/* A mesh for maps of up to map_w x map_h tiles (1..TN_MAP_MAX_SIZE) into
 * *out; cfg NULL: tn_navmesh_default_config().  All memory is allocated
 * here (see MEMORY).  TN_OK, or
 * FAILURE|INVALID_PARAM / OUT_OF_MEMORY with *out = NULL and err filled. */
tn_status tn_navmesh_create(int map_w, int map_h, const tn_navmesh_config *cfg,
                            const tn_allocator *a, tn_navmesh **out, tn_error *err);
void tn_navmesh_destroy(tn_navmesh *m);
/* The bytes tn_navmesh_create allocated for m, its two CDTs' included (all
 * it ever will: see MEMORY); 0 for NULL. */
size_t tn_navmesh_memory(const tn_navmesh *m);

/* (Re)build from `map` (at most the created size: a larger one is refused,
 * INVALID_PARAM, with the mesh unchanged).  Fails with CAPACITY when the
 * outlines exceed configured capacities; the mesh is then empty (every
 * query answers "not free") until the next successful build. */
tn_status tn_navmesh_build(tn_navmesh *m, const tn_map *map, tn_error *err);

/* After `map` changed at tile (x, y) only (since the last build or update;
 * several changed tiles need one call each, in any order, or a build):
 * bring the mesh up to date by re-triangulating the neighbourhood of the
 * tile (see LOCAL REBUILD above), or by a full build when that is not
 * possible (also when the map's size differs from the last build).
 * INVALID_PARAM when (x, y) is outside the map. */
tn_status tn_navmesh_update_tile(tn_navmesh *m, const tn_map *map, int x, int y, tn_error *err);

/* Read-only view of the built mesh (valid until the next build or update). */
typedef struct tn_navmesh_view {
    int map_w, map_h;
    float tile_size;
    int npoints;           /* outline vertices */
    const int32_t *xy;     /* 2*npoints: integer tile-corner coordinates */
    int nsegments;         /* constraint segments (merged, split outline runs) */
    const int32_t *segs;   /* 2*nsegments point indices */
    int ntris;             /* all triangles of the convex hull, free and blocked */
    const int32_t *tri;    /* 3*ntris point indices, orient > 0 (see tn_cdt.h) */
    const int32_t *adj;    /* 3*ntris: triangle across edge i (tri[i]->tri[i+1]), -1 hull */
    const int32_t *region; /* per triangle: region id of a free one, -1 inside a block */
    int nfree;             /* free triangles */
    int nregions;          /* connected free regions */
    double cdt_seconds;    /* time inside tn_cdt_build_i during the last build,
                               only when a clock was given (else 0) */
    bool last_local;       /* the last tn_navmesh_update_tile stayed local */
    bool swept;            /* the last full build used the CDT's row sweep */
} tn_navmesh_view;
/* m NULL: an empty view (all zero); v NULL: nothing. */
void tn_navmesh_get_view(const tn_navmesh *m, tn_navmesh_view *v);

/* Whether tile (x, y) was free in the last build (false outside the map):
 * lets a caller skip rebuilds after edits that leave free space as it is.
 * After a build or update that failed (CAPACITY: the mesh is empty) it is
 * the map that build read, whose free space fails the same way again. */
bool tn_navmesh_tile_free(const tn_navmesh *m, int x, int y);

/* Optional monotonic clock (seconds) used to split the build time for the
 * benchmark; NULL (default) = not measured. */
void tn_navmesh_set_clock(tn_navmesh *m, double (*clock)(void));

/* The free triangle containing (x, y) (closed), or -1 when the point is in a
 * block or outside the map.  `hint`: a triangle near the point (e.g. the
 * previous answer for a moving agent), or -1 to start from the buckets. */
int tn_navmesh_locate(const tn_navmesh *m, float x, float y, int hint);
/* The region of a free point, -1 when not free.  A point on the edge of
 * several free triangles gets the region of the one tn_navmesh_locate finds:
 * at a pinch corner (two blocks touching diagonally, where two regions meet
 * at one vertex) that is either region, the same one on every call
 * (tn_navquery_find_path tries both sides of a pinch itself). */
int tn_navmesh_region_at(const tn_navmesh *m, float x, float y);

/* True when the segment a-b lies in free space (see the header comment). */
bool tn_navmesh_los(const tn_navmesh *m, float ax, float ay, float bx, float by);

/* The nearest point to (x, y) of the free tiles shrunk by `margin` (query
 * units, 0 <= margin < half a tile); (x, y) itself when it already is such a
 * point.  False when the map has no free tile or margin is out of range. */
bool tn_navmesh_nearest_free(const tn_navmesh *m, float x, float y, float margin, float *ox,
                             float *oy);

/* Distance (query units) from (x, y) to the nearest blocked tile or the
 * outside of the map, at most `limit` (exact; O(limit^2) tiles). */
float tn_navmesh_clearance(const tn_navmesh *m, float x, float y, float limit);
/* A point near (x, y) whose clearance is at least `radius` (query units):
 * (x, y) itself when it is one, else the nearest of one candidate per free
 * tile (the point clamped into the tile shrunk by the radius, the tile
 * centre for radii of half a tile or more) that is clear.  False when
 * there is none (a radius of half a tile or more: no tile centre is clear,
 * though a corner between them may be).  For callers whose start or goal
 * touches a wall.  Cost: rings of tiles around (x, y), each candidate
 * tested against the tiles within the radius, until the nearest is sure;
 * with no clear candidate, every free tile is tested: about 20 ms for a
 * 1-tile radius on a 512x512 map of 1-tile corridors, seconds for a
 * 256-tile radius on an open 512x512 map (measured), so a radius wider
 * than the map's free space costs a full scan on every call. */
bool tn_navmesh_nearest_clear(const tn_navmesh *m, float x, float y, float radius, float *ox,
                              float *oy);

/* ---- path queries ---------------------------------------------------- */

/* Scratch for A* and the funnel, sized for `m`'s capacity (valid across
 * rebuilds of m; must not outlive it). */
tn_status tn_navquery_create(const tn_navmesh *m, const tn_allocator *a, tn_navquery **out,
                             tn_error *err);
void tn_navquery_destroy(tn_navquery *q);
/* The bytes tn_navquery_create allocated for q (690 * P + 95,646, + 34
 * for an even P: see MEMORY); 0 for NULL. */
size_t tn_navquery_memory(const tn_navquery *q);

/* A path from s to g for an agent of `radius` (query units, >= 0): with
 * radius 0 the exact any-angle shortest one, with radius > 0 the shortest
 * path of a disc of that radius (see CLEARANCE; start and goal must keep
 * the radius from every wall).  Writes up to `cap` points (x, y pairs:
 * 2*cap floats) into xy, start and goal included (cap >= 2), and their
 * number into *count.  xy NULL searches alone (as tn_path_find and
 * tn_surf_find with no output): nothing written, cap not read, *count 0
 * (count may then be NULL), the same status and message as with a buffer
 * but never BUFFER_TOO_SMALL; the corridor, length and exactness below
 * are the search's.
 *  TN_OK; FAILURE|INVALID_PARAM (bad arguments, each named in its own
 *  message: q NULL, count NULL with xy not, cap < 2 with xy, a start or
 *  goal not finite, a radius negative or not finite; start or goal not
 *  free, or closer than radius to a wall; a radius over half the map's
 *  narrower side, which no point of the map keeps; or a mesh never built
 *  or whose last build or update failed: the message says which);
 *  SUCCESS|PARTIAL_RESULT|UNREACHABLE for a goal it cannot reach (another
 *  region, or no way wide enough), as tn_surf_find and tn_path_find answer
 *  one: the path to the closest place, with a message saying why, where it
 *  ends and how far from the goal.  Radius 0: the exact shortest path to
 *  the point of the start's region nearest the goal (ties: the least y,
 *  then x; O(triangles) to find it).  Radius > 0: to the place the
 *  search reached nearest the goal (the start, or a point where the disc
 *  touches a corner: not always the nearest point of all the disc can
 *  reach);
 *  | BUFFER_TOO_SMALL added when the path has more than cap points (the
 *  first cap are written).  A caller that wants the goal or nothing tests
 *  tn_status_detail(s, TN_UNREACHABLE). */
tn_status tn_navquery_find_path(tn_navquery *q, float sx, float sy, float gx, float gy,
                                float radius, float *xy, int cap, int *count, tn_error *err);
/* The corridor of the last find_path (none, *n = 0, after one that
 * failed): triangles from start to goal, each sharing an edge with the
 * next (radius > 0: the triangles the path's segments cross, in order; a
 * path that turns back into a triangle lists it again).
 * The array is the query's: valid until its next find_path or destroy; the
 * ids are the mesh's until its next build or update. */
const int32_t *tn_navquery_corridor(const tn_navquery *q, int *n);
/* Record later queries' searches into `trace` (tn_trace.h; NULL, the
 * default, records nothing): OPEN when a triangle (interval) is pushed,
 * CLOSE when one is expanded, GOAL when the goal's triangle is popped (not
 * counted as expanded: CLOSE events = tn_navquery_expanded).  x, y = the
 * triangle's centroid in query units, id = the triangle.  Queries whose
 * start and goal share a triangle search nothing and record nothing.
 * q NULL: nothing. */
struct tn_trace;
void tn_navquery_set_trace(tn_navquery *q, struct tn_trace *trace);
/* Search nodes expanded by the last query (0 after one refused at once). */
int tn_navquery_expanded(const tn_navquery *q);
/* True when the last path is the exact shortest one: start and goal in one
 * triangle, radius 0 and the interval search finished within its pool, or
 * radius > 0 and the search dropped no offer (its label and heap pools
 * sufficed: see CLEARANCE); false after a failed query. */
bool tn_navquery_exact(const tn_navquery *q);
/* Exact length (query units) of the last radius (> 0) path: tangent
 * segments plus true arc lengths (the returned polyline is a little longer,
 * see TN_NAVQUERY_ARC_EPS); 0 after a radius-0 query. */
double tn_navquery_length(const tn_navquery *q);

/* ---- the agents' navigation queries ---------------------------------- */

/* The companion's and the wanderers' tn_agent_nav (tn_steer.h) over a mesh
 * and one of its query objects, so a game need not write the glue:
 *  - los: tn_navmesh_los of the query's mesh;
 *  - path: tn_navquery_find_path from a to b, the points after a written
 *    (its corners, then b), a path of more than cap points cut to its first
 *    (the agent plans again from its end); a goal it cannot reach gives the
 *    path to the closest place as a negated count (-n), as tn_agent_nav
 *    says; 0 when there is no way at all.  A start or goal closer than the
 *    radius to a wall (radius 0: not in free space, e.g. a body's centre
 *    just inside a block's corner) is moved first to the nearest point that
 *    is not (tn_navmesh_nearest_clear / _nearest_free), as the demo does;
 *    a goal moved farther than the radius (the disc at the new place does
 *    not cover b: a room too small for it, a point deep in a block) is
 *    answered as partial (negated), the path to where it was moved.
 * Units: the mesh's query units are the agents' pixels, and the agents
 * (steering, wander, companion) measure in TN_TILE_PX-pixel tiles
 * (tn_common.h UNITS): build the mesh with tn_navmesh_config.tile_size =
 * TN_TILE_PX (16), whatever the game's own tile size.  A game with other
 * tiles scales positions at the agents' boundary (x 16 / its tile_px);
 * a mesh of another tile size would disagree with the agents' collision
 * (a blocked tile's centre free to tn_steer_box_free, blocked to the
 * mesh).  `scratch`
 * holds find_path's points, the start included: 2 * cap floats, cap >= 2
 * (paths of up to cap - 1 points after the start are whole).  ctx, its
 * query and scratch are the caller's and must outlive the returned struct,
 * which points at ctx; nothing is allocated; one thread at a time (the
 * query object's rule).  A NULL ctx or query: los false, path 0. */
typedef struct tn_navquery_agent {
    tn_navquery *query;
    float *scratch; /* 2 * cap floats */
    int cap;        /* >= 2 */
} tn_navquery_agent;
tn_agent_nav tn_navquery_agent_nav(tn_navquery_agent *ctx);

/* The funnel algorithm on its own: portals[4*i..4*i+3] = left x, y, right x,
 * y of portal i as seen walking from portal 0 to portal n-1 ("left" is the
 * side where orient > 0, see tn_cdt.h); portal 0 is the start (left = right)
 * and portal n-1 the goal.  Writes up to cap points; returns how many the
 * path has (may exceed cap).  No point lies straight on between its two
 * neighbours (corners on one line, as along a wall, give one segment).
 * 0 when portals is NULL or n < 1; out NULL (or cap < 0) writes nothing
 * and only counts. */
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
/* Circles of `radius` (query units) around every convex corner: the
 * obstacles a radius path turns around. */
void tn_navmesh_draw_clearance(const tn_navmesh *m, const tn_debug_draw *dd, float px_per_unit,
                               float radius, uint32_t rgba);
void tn_navmesh_draw_path(const float *xy, int n, const tn_debug_draw *dd, float px_per_unit,
                          uint32_t rgba);

#ifdef __cplusplus
}
#endif

#endif
