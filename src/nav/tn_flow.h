/* SPDX-License-Identifier: Zlib */
/* tn_flow.h - a flow field: the way to the nearest destination from every
 * tile, kept up to date as single tiles are edited.
 *
 * Cells: a tile is a WALL (block), OPEN (empty or one-way: a flyer crosses
 * both) or a DESTination.  tn_flow_kind() maps a tn_map tile to its kind.
 *
 * Distances: one search seeded from all destinations at once.
 *  - 4-connected (the tower-defense field): breadth-first search, each step
 *    costs 1.  The full rebuild runs it on bits: blocks of 16x8 tiles, 128
 *    bits each (one SSE2 register; two uint64_t without SSE2), one level at
 *    a time, visiting only the blocks next to the last level's new tiles;
 *    the new tiles' directions fall out of the same shifts, and distances
 *    and directions stay bit planes per block until one pass writes d[] and
 *    dir[].  Where the front stays thin for 64 levels (mazes, corridors)
 *    the search goes on tile by tile with a queue.
 *  - 8-connected: straight steps cost 1, diagonal steps sqrt(2), and a
 *    diagonal needs both orthogonal neighbours open (no corner cutting),
 *    i.e. Moving AI's octile rules; it reproduces the optimal length of
 *    every query of the Moving AI scenario files (tested).  A distance is
 *    kept exactly as the pair (straight steps, diagonal steps), so
 *    equal-length routes compare equal bit for bit, and searched with Dial's
 *    bucket queue (bucket width 1 = the smallest step, so every cell of the
 *    current bucket is final).
 * Per tile the field holds the distance, the next tile (a direction,
 * TN_DIR_*) and so the exit point: the middle of the edge it leaves by (the
 * shared corner for a diagonal step), tn_flow_exit().  The next tile is the
 * neighbour that minimises (its distance + step cost), ties broken in a
 * checkerboard-alternating order: N,S,E,W on tiles with x+y even, W,E,S,N on
 * odd ones (8-connected: then the diagonals NE,NW,SE,SW / SW,SE,NW,NE), so a
 * diagonal route comes out as an even staircase instead of one long L.  The
 * direction is a pure function of the distances, so an incremental update
 * gives exactly what a full rebuild gives (tested on random edit sequences).
 *
 * Incremental update after a single-tile edit (tn_flow_update):
 *  - cheaper (a wall opened, a destination added): the tiles of the 3x3
 *    block whose edges changed are re-relaxed and the decrease spreads out
 *    through the bucket queue, touching only tiles that get closer;
 *  - dearer (a wall placed, a destination removed): tiles are visited in
 *    increasing old distance and a tile whose every shortest-path support is
 *    gone is invalidated (the tiles that depended on the edit, and nothing
 *    else), then re-seeded from their valid neighbours and repaired by the
 *    bucket queue (the dynamic-SSSP scheme of Ramalingam & Reps 1996).
 *  Only tiles whose distance changed, and their neighbours' directions, are
 *  touched; tn_flow.last_touched says how many.  An update whose affected
 *  region passes 1/8 of the board switches to a full rebuild (cheaper then).
 *
 * What-if (tn_flow_whatif): would setting one tile to a kind cut any of a
 * list of tiles off from every destination?  Runs the invalidation above in
 * scratch marks plus a flood through the invalidated region; changes
 * nothing, allocates nothing, costs O(affected tiles).
 *
 * Coordinates: x = column, y = row from the top.  Exit points are in tile
 * units: tile (x, y) covers [x, x+1) x [y, y+1), its centre is (x+.5, y+.5).
 *
 * Memory: all at creation, 32 bytes per tile 4-connected (32.2 MB for
 * 1024x1024; 2 of them the rebuild's bit blocks), 44 bytes 8-connected
 * (diagonal counts, a double per tile, more buckets).  Small and thin
 * boards pay more per tile: the struct (256 bytes) and the one-tile wall
 * ring are fixed, and 4-connected the rebuild's bit blocks round the board
 * up to whole 16x8 blocks inside a ring of empty ones, about 2.3 KB even
 * for one tile (measured with a counting allocator: 1x1 2.9 KB, 8-connected
 * 0.7 KB; 16x8 65 B a tile, 4096x1 139 B, 1x4096 187 B: a column wastes
 * 15 of each block's 16 columns).  Rebuilds, updates and what-ifs never
 * allocate.
 * Limits: w, h in 1..TN_MAP_MAX_SIZE.  No global state.
 *
 * Cost: a 4-connected full rebuild of 1024x1024 takes a few ms (48
 * instructions a tile), a single-tile edit a few microseconds; numbers in
 * docs/bench.md (`make bench`), history and dropped ideas in docs/perf.md.
 *
 * Thread safety: the accessors (tn_flow_dist, _dir, _steps, _exit; each
 * takes a NULL field as an empty one: -1, NONE, false) only read:
 *   any number of threads may call them on one field while none updates it
 *   (tests/test_threads.c, under ThreadSanitizer).  rebuild, update,
 *   set_kind, whatif and distance use the field's scratch: one thread at a
 *   time.  Distinct fields are independent.
 */
#ifndef TN_FLOW_H
#define TN_FLOW_H

#include "tn_common.h"
#include "tn_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cell kinds. */
enum { TN_FLOW_WALL = 0, TN_FLOW_OPEN = 1, TN_FLOW_DEST = 2 };

/* Directions: the 4 straight ones first, then the diagonals; HERE on a
 * destination; NONE on a wall or a tile with no path. */
enum {
    TN_DIR_N = 0,
    TN_DIR_S,
    TN_DIR_E,
    TN_DIR_W,
    TN_DIR_NE,
    TN_DIR_NW,
    TN_DIR_SE,
    TN_DIR_SW,
    TN_DIR_HERE,
    TN_DIR_NONE
};
/* Tile offset of each direction above (indexed by TN_DIR_*; HERE and NONE
 * are 0, 0).  Defined once, in tn_flow.c (not a static copy per file). */
extern const int8_t tn_dir_dx[10];
extern const int8_t tn_dir_dy[10];

typedef struct tn_flow {
    /* Read-only for users (use the accessors below). */
    int w, h;
    int connectivity;  /* 4 or 8 */
    int stride;        /* padded row length (odd: parity of index = parity of x+y) */
    int npad;          /* stride * (h + 2) */
    uint8_t *kind;     /* [npad] TN_FLOW_*, padding = WALL */
    uint8_t *dir;      /* [npad] TN_DIR_* */
    int32_t *d;        /* [npad] straight steps (4-conn: the distance); FAR = no path */
    int32_t *dd;       /* [npad] diagonal steps (8-connected only, else NULL) */
    double *dv;        /* [npad] 8-connected: d + dd*sqrt(2), INFINITY = no path */
    long last_touched; /* tiles whose distance the last rebuild/update recomputed */
    bool last_full;    /* the last update fell back to a full rebuild */
    /* Scratch (private). */
    int32_t *q, *list, *bnext, *bprev, *bhead;
    uint32_t *stamp;
    uint32_t gen;
    int kcap, kmin, kmax;
    int off[8]; /* index offset of each direction */
    /* The 4-connected rebuild's board in blocks of 16x8 tiles, one bit per
     * tile, with a ring of empty padding blocks (private; see tn_flow.c). */
    int bstride, nblk;         /* blocks per padded row; blocks in all */
    void *bmem;                /* the allocation holding the three below */
    struct tn_flow_bfs *bfs;   /* [nblk] the search's state per block */
    struct tn_flow_block *blk; /* [nblk] the result, as bit planes */
    struct tn_flow_bmap *bmap; /* [nblk] the map, as bits */
    int32_t *blist; /* [4 * nblk] candidates of this level, of the next; settled; stale */
    tn_allocator alloc;
    size_t mem; /* bytes its create allocated (tn_flow_memory) */
} tn_flow;

#define TN_FLOW_FAR INT32_MAX

/* A flow field for a w x h board (connectivity 4 or 8), all walls until the
 * first rebuild. */
tn_status tn_flow_create(int w, int h, int connectivity, const tn_allocator *a, tn_flow **out,
                         tn_error *err);
void tn_flow_destroy(tn_flow *f);
/* The bytes tn_flow_create allocated for f (all it ever will: see Memory
 * above); 0 for NULL. */
size_t tn_flow_memory(const tn_flow *f);

/* The kind of map tile (x, y): WALL for a block (and outside, and for m
 * NULL), DEST for an empty tile marked D, else OPEN. */
int tn_flow_kind(const tn_map *m, int x, int y);

/* Full rebuild from a map of the same size (INVALID_PARAM with a message
 * for another size).  A map without destinations is valid: every tile then
 * has no path. */
tn_status tn_flow_rebuild(tn_flow *f, const tn_map *m, tn_error *err);
/* Tile (x, y) of `m` changed (it may not have): update incrementally.
 * INVALID_PARAM (message) for a tile outside the board or a map of another
 * size. */
tn_status tn_flow_update(tn_flow *f, const tn_map *m, int x, int y, tn_error *err);
/* The same with the new kind given directly. */
tn_status tn_flow_set_kind(tn_flow *f, int x, int y, int kind, tn_error *err);

/* If tile (x, y) became `kind`, how many of the `n` tiles listed (index
 * y*w+x each) that have a path now would have none?  *lost gets the count;
 * tile (x, y) itself is never counted.  *first (may be NULL) gets the first
 * such list index, or -1.  Changes nothing; no allocation.  INVALID_PARAM
 * (message) for a tile outside the board, a bad kind or list. */
tn_status tn_flow_whatif(tn_flow *f, int x, int y, int kind, const int32_t *tiles, int n, int *lost,
                         int *first, tn_error *err);

/* Point-to-point distance on the field's board as last rebuilt/updated,
 * for callers who keep no destination set: the length of a shortest route
 * from (sx, sy) to (gx, gy) under the field's connectivity (4: steps of 1;
 * 8: 1 and sqrt(2), no corner cutting), destinations counting as open.
 * INVALID_PARAM (message) when either end is outside the board or a wall,
 * UNREACHABLE (message) when no route exists.  Uses the field's scratch
 * (not the distances): no allocation, O(tiles within the distance), and the
 * field must not be used by another thread meanwhile. */
tn_status tn_flow_distance(tn_flow *f, int sx, int sy, int gx, int gy, double *dist, tn_error *err);

static inline int tn_flow_index(const tn_flow *f, int x, int y)
{
    return (y + 1) * f->stride + (x + 1);
}
/* Next step from tile (x, y): TN_DIR_*; NONE outside the board. */
static inline int tn_flow_dir(const tn_flow *f, int x, int y)
{
    if (!f || x < 0 || y < 0 || x >= f->w || y >= f->h) return TN_DIR_NONE;
    return f->dir[tn_flow_index(f, x, y)];
}
/* Distance to the nearest destination in tiles; -1 for walls, tiles with no
 * path and outside (an accessor: tn_flow_distance says why). */
double tn_flow_dist(const tn_flow *f, int x, int y);
/* The exact 8-connected distance as (straight, diagonal) step counts;
 * false when there is no path. */
bool tn_flow_steps(const tn_flow *f, int x, int y, int *straight, int *diagonal);
/* Exit point of tile (x, y) in tile units; false when the tile has no next
 * tile (a wall, no path, or a destination: then the tile centre). */
bool tn_flow_exit(const tn_flow *f, int x, int y, float *ex, float *ey);

#ifdef __cplusplus
}
#endif

#endif
