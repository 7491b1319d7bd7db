/* SPDX-License-Identifier: Zlib */
/* tn_steer.h - building blocks shared by the steering agents (the companion in
 * tn_companion.h, the wanderers in tn_wander.h): the navigation queries an
 * agent asks for, a uniform grid for neighbour queries, and per-axis tile
 * collision for a small flying box.
 *
 * NAVIGATION QUERIES (tn_agent_nav).  The agents never look at a navigation
 * representation themselves: they ask for line of sight and for a path
 * through a small table of callbacks, so the same agent code runs on the
 * navigation mesh (tn_navmesh.h; the world's agents subsystem plugs it in),
 * on a grid, or on anything a game already has.  Units are world pixels.
 *
 * UNIFORM GRID (tn_grid).  Points (enemies, other agents) are bucketed by a
 * counting sort into square cells over a fixed rectangle (the map), so a
 * radius query visits the few cells the query disc overlaps instead of every
 * point.  Build: O(n + cells), two passes, no allocation.  Points outside the
 * rectangle go to the nearest border cell (still found, exactly filtered).
 * The cell size is at least the requested one and is enlarged when the map
 * would need more than max(4096, 4 * capacity) cells, so clearing the cell
 * table never dominates on huge sparse maps.  Memory: 4 bytes per cell plus
 * 16 bytes per point of capacity.
 *
 * COLLISION.  An agent is an axis-aligned square of half-size `half` px
 * centred on its position (flyers: only BLOCK tiles and the outside of the
 * map stop it; one-way platforms are free).  Boxes are open sets: a box
 * touching a block's side is free, one that overlaps it by any amount is not.
 * tn_steer_move() moves x then y, each in sub-moves of at most half a tile;
 * a component that would enter a block stops flush against it (1/64 px
 * away) and cancels that velocity component, so the agent slides along walls
 * and a box that starts free is never inside a block afterwards.
 *
 * COST (tilenav-bench agents, -O2, this 2-core shared machine):
 * MEASURED: a grid of 2,000 points over a 128x128-tile map with 40 px
 *   cells (2,704 cells): a build under 10 us; a separation query of radius
 *   40 px about 20 ns (both medians of 51 repetitions; the query in a hot
 *   loop; docs/bench.md, `grid`, has the current run).
 *   tn_steer_box_free for a box under a tile: ~95 instructions (callgrind).
 *
 * Thread safety: the vector helpers and tn_steer_* are pure (the map is only
 * read); a tn_grid is read by tn_grid_query/_separation from any number of
 * threads between builds, and tn_grid_build needs exclusive access.
 */
#ifndef TN_STEER_H
#define TN_STEER_H

#include "tn_common.h"
#include "tn_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- navigation queries ------------------------------------------------ */

typedef struct tn_agent_nav {
    void *user;
    /* True when the straight segment a-b (pixels) lies in free space. */
    bool (*los)(void *user, float ax, float ay, float bx, float by);
    /* A path from a to b for an agent of `radius` px: writes the points after
     * a (its corners, then b itself) into xy (x, y pairs, at most cap points)
     * and returns how many it wrote; 0 when b cannot be reached.  A path
     * longer than cap points may be cut to its first cap points (the agent
     * plans again from there; a count above cap is taken as cap).  When b
     * cannot be reached, a callback may instead give the path to the place
     * closest to b that can (tn_navquery_find_path's partial answer): its
     * points written the same way, the last that place, and their count
     * negated (-n).  The companion's search follows such a path (it goes as
     * close to a character out of reach as it can); everything else takes
     * a negative count as 0.  May be NULL: agents then never plan paths. */
    int (*path)(void *user, float ax, float ay, float bx, float by, float radius, float *xy,
                int cap);
} tn_agent_nav;

/* ---- small vector helpers ---------------------------------------------- */

static inline float tn_len2(float x, float y) { return x * x + y * y; }
float tn_len(float x, float y);
/* Scale (x, y) down to length <= max (unchanged when already shorter);
 * max <= 0 or NaN gives (0, 0), never a flipped vector.  Never NaN: a NaN
 * component gives (0, 0); an infinite one gives length max along the
 * infinite components ((inf, 3) -> (max, 0), (-inf, inf) -> max/sqrt(2) x
 * (-1, 1)), finite for a finite max; a huge finite vector is scaled
 * without overflow. */
void tn_clamp_len(float *x, float *y, float max);
/* Wrap an angle to (-pi, pi], in constant time; a non-finite angle gives 0. */
float tn_wrap_angle(float a);

/* ---- uniform grid -------------------------------------------------------- */

typedef struct tn_grid {
    float x0, y0; /* pixel origin of cell (0, 0) */
    float cell;   /* cell side, px (>= the requested size) */
    float inv_cell;
    int cols, rows;
    int cap;         /* maximum number of points */
    int n;           /* points in the last build */
    int32_t *start;  /* cols*rows + 1: first sorted point of each cell */
    int32_t *id;     /* cap: caller's index of each sorted point */
    float *xy;       /* 2*cap: sorted positions */
    int32_t *cellof; /* cap: scratch (cell of each input point) */
    tn_allocator alloc;
} tn_grid;

/* Most points a grid holds: 2^24, about 16.8 million (such a grid takes
 * 512 MB: 16 B per point and 4 cells of 4 B per point).  A larger capacity
 * is refused rather than allocated: the allocation is zeroed, so on a system
 * that overcommits memory a huge one would be killed by the kernel instead
 * of reported as OUT_OF_MEMORY. */
#define TN_GRID_MAX_CAP (1 << 24)
/* A grid over the rectangle [x0, x0+w) x [y0, y0+h) px with cells of at
 * least `cell` px, for up to `cap` points, in *out.  INVALID_PARAM (err
 * filled) on bad arguments (x0, y0 not finite; w, h, cell not positive and
 * finite; cap outside 0..TN_GRID_MAX_CAP), OUT_OF_MEMORY.  The cell grows until cols*rows <=
 * max(4096, 4*cap).
 * Memory: about 4*(cols*rows) + 16*cap bytes plus the struct. */
tn_status tn_grid_create(float x0, float y0, float w, float h, float cell, int cap,
                         const tn_allocator *a, tn_grid **out, tn_error *err);
void tn_grid_destroy(tn_grid *g);
/* Bucket n points (xy: x, y pairs).  Point i keeps id i.  More than cap
 * points: the first cap are bucketed, TN_SUCCESS | TN_PARTIAL_RESULT |
 * TN_CAPACITY with a message; n < 0: FAILURE | INVALID_PARAM (the grid
 * unchanged). */
tn_status tn_grid_build(tn_grid *g, const float *xy, int n, tn_error *err);
/* Ids of the points within distance r (closed) of (x, y), at most cap of
 * them written to out; returns how many there are (may exceed cap).  out
 * NULL: counted only; g NULL, r negative or NaN: 0. */
int tn_grid_query(const tn_grid *g, float x, float y, float r, int32_t *out, int cap);
/* Boids separation: the sum over points q within r of (x, y) (except id
 * `skip`; -1 = none) of (p - q)/|p - q| * (1 - |p - q|/r), written to
 * (*sx, *sy); returns how many points contributed.  A point exactly on p
 * pushes along +x.  r not positive and finite, (x, y) not finite, or g
 * NULL: 0, (0, 0).  sx or sy NULL: not written (the count alone). */
int tn_grid_separation(const tn_grid *g, float x, float y, float r, int32_t skip, float *sx,
                       float *sy);

/* ---- collision ------------------------------------------------------------ */

/* True when the square of half-size `half` centred on (x, y) overlaps no
 * BLOCK tile (the outside of the map counts as block); as
 * tn_steer_rect_free (a negative half is an inverted rectangle: false).
 * Mind the order: the centre, then half (tn_steer_move, _corner_shift and
 * _unstick take half first; a swap compiles and answers wrongly). */
bool tn_steer_box_free(const tn_map *m, float x, float y, float half);
/* True when the open rectangle (x0, x1) x (y0, y1) (px) overlaps no BLOCK
 * tile (the outside of the map counts as block): the box of
 * tn_steer_box_free is (x - half, x + half) x (y - half, y + half).  A
 * rectangle of zero width or height is tested as the tiles its edge lies
 * in (none on a tile border).  False for m NULL, a coordinate that is not
 * finite, and an inverted rectangle (x0 > x1 or y0 > y1: the corners given
 * in the wrong order).  Cost: one read per tile the rectangle overlaps, up
 * to the first block (the whole map's tiles at most).  Pure; no memory. */
bool tn_steer_rect_free(const tn_map *m, float x0, float y0, float x1, float y1);
/* Move the box by (dx, dy) with per-axis collision (see the header comment).
 * vx, vy (may be NULL) are zeroed on the axis that hit a block.  Returns
 * bit 1 when x was stopped, bit 2 when y was (x or y NULL: 0, nothing
 * moves).  The box must start free (a
 * box that starts inside a block is moved without collision: free it first
 * with tn_steer_unstick).  A non-finite dx or dy moves nothing on its axis. */
unsigned tn_steer_move(const tn_map *m, float half, float *x, float *y, float dx, float dy,
                       float *vx, float *vy);
/* Corner correction: a box stopped on `axis` (0 = x, 1 = y) moving in the
 * direction of the sign of `dir` could go on if it were shifted
 * perpendicular to that axis by *shift px (|*shift| <= max_shift, the
 * smallest such shift, in 1/2 px steps) with the shifted box free.  False
 * when no such shift exists (a wall, not a corner), m or shift is NULL,
 * max_shift is NaN or below 1/2 px, axis is neither 0 nor 1, or dir is 0
 * or NaN.  Any max_shift is fine: shifts beyond the map's extent are
 * not tried (they leave the map), so it costs at most 8 box tests per px
 * of that extent. */
bool tn_steer_corner_shift(const tn_map *m, float half, float x, float y, int axis, float dir,
                           float max_shift, float *shift);
/* Move a box that overlaps a block to the nearest tile centre (rings of
 * growing Chebyshev radius up to `max_tiles`, nearest by distance within the
 * first ring that has one) where it is free.  True when the box is free
 * afterwards (also when it already was; it is then not moved); false, not
 * moved, when no tile centre within max_tiles frees it, the position or
 * half is not finite, or m, x or y is NULL.  Cost: rings that miss the
 * map are skipped, so at most min(max_tiles, the map's extent from the
 * box)^2 box tests (a full 10x10 map with max_tiles 1e6: 100 tests, not
 * 4e12). */
bool tn_steer_unstick(const tn_map *m, float half, float *x, float *y, int max_tiles);
/* How far (tiles) the companion and the wanderers look for a free place
 * when a step finds their box inside a block (tn_companion_step,
 * tn_wander_step). */
#define TN_STEER_UNSTICK_TILES 16

#ifdef __cplusplus
}
#endif

#endif
