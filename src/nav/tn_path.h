/* SPDX-License-Identifier: Zlib */
/* tn_path.h - platformer A*: shortest paths for a character that walks,
 * jumps, falls and drops through one-way platforms on a tile map.
 *
 * STATE SPACE.  A state is (x, y, J): the tile of the character's bottom-left
 * cell and a jump value J.  The character is w x h tiles (1..3 x 1..9); a tile
 * is a node only where the whole box fits (no BLOCK in columns x..x+w-1, rows
 * y-h+1..y; one-way tiles are passable).  A node is GROUND when a block or a
 * one-way platform lies under any column of the box (row y+1).  Moves go to
 * the 4 neighbouring tiles.
 *
 * JUMP VALUES (the classic grid-platformer technique, with its physics
 * numbers derived from tn_phys instead of guessed).  M = max jump height in
 * tiles, F = 2M.  J = 0 on the ground; 0 < J < F while rising (J = 2k or 2k+1
 * at k tiles above the take-off; odd = "just moved sideways"); J >= F while
 * falling (J = F + 2d or F + 2d + 1 after d tiles of fall; d = 0 is the apex).
 *   ground            -> 0 (landing resets; so does rising through a one-way:
 *                        the character then falls back onto it)
 *   up                -> allowed when J < F; J+2 when J is even, J+1 when odd;
 *                        the first step up from the ground is 2, or 3 when the
 *                        physics cannot move a whole tile sideways before the
 *                        jump is two tiles high (then no sideways at level 1);
 *                        never above F.  Into a tile with a block right above
 *                        the box (a ceiling): straight to F (apex).
 *   sideways (air)    -> J+1; pruned when J is odd (no two sideways moves at
 *                        one height), when rising at a level where the physics
 *                        has not had the time to move one more tile (table
 *                        side_up), and while falling except at the depths the
 *                        physics allows (table side_fall, then one per P tiles).
 *   sideways (ground) -> 0 onto ground; walking off a ledge gives F+1: a fall
 *                        starts (the model makes no coyote jumps).
 *   down              -> falling: F + 2(d+1) (at least F+2); from the ground it
 *                        is a drop through a one-way platform.  Depths past
 *                        D+P-1 wrap back to D (the terminal-speed cycle).
 * Three rules beyond the classic ones, all from the physics: a rising
 * character cannot move sideways into a tile with a ceiling (it would be
 * moving up into the block); an airborne character can enter a tile that has
 * both a ceiling and a floor only while pressed against a ceiling of the same
 * height (head and feet fit with zero pixels to spare: no trajectory threads
 * that gap); and a falling character lands on a floor beside it only up to
 * one tile into a fall (a body lands where its feet meet a floor, so it must
 * be over the landing before reaching its level; later in a fall it moves too
 * little across per tile, so the path moves across one tile higher and lands
 * straight down).  With the ceiling and ground tests every turn of a path has
 * its 2x2 corner free, so a body that moves diagonally across the turn
 * touches nothing the path did not check.
 *
 * SIDEWAYS BUDGETS (tn_jump_model_init, by simulating tn_body_step): a walk
 * is 160 px/s = 2.67 px per 1/60 s step, 6 steps per tile.  Rising level k
 * allows a sideways move when the tiles the body can cover by the time it
 * reaches level k+1 (steps to get there x 2.67 px x SLACK / 16) exceed the
 * sideways moves already allowed below.  Falling from rest (gravity 1030
 * px/s^2) takes 11, 15, 19, 22, 24, 26, 28, 30 steps for 1..8 tiles: with
 * SLACK = 0.9 that is 1.65, 2.25, 2.85, 3.3, 3.6, 3.9, 4.2, 4.5 tiles of
 * sideways travel, so a fall may move sideways at depths 0 (the apex or the
 * ledge), 1, 2, 4 and 7.  Beyond D = 8 tiles the falling counter cycles with
 * period P = ceil(terminal / (walk x SLACK)) = ceil(900 / 144) = 7: one
 * sideways move per 7 tiles fallen, the terminal-speed ratio (900 px/s down
 * against 160 px/s across = 5.6 tiles down per tile across) with a margin;
 * below terminal speed the body is slower, so the ratio is conservative.  For
 * a jump of 4 tiles (steps to each level: 3, 7, 11, 20; apex at 22) the rise
 * allows sideways moves at levels 1 and 3, and the apex one more: 3 tiles
 * across on the way up where the body covers 3.7; for 8 tiles, 5 (at levels
 * 2, 5, 6, 7 and the apex: the body covers 5.0) where the classic rule would
 * allow 7.
 * SLACK = 0.9 leaves the follower time to react (it moves one step late,
 * waits for a clear column).  J takes NJ = F + 2(D + P) values: 46 for M = 8.
 *
 * REACHABILITY AND JUMP HEIGHT: NOT MONOTONIC.  The model knows one jump
 * per M, the full one, held to the top (only a ceiling cuts it short); the
 * physics can also jump lower and rise slower (jump released early, down
 * to jump_cut_speed), which J cannot express.  So the states of M + 1 are
 * not a superset of those of M, and a goal found at one jump height can be
 * missed at a higher one, for two reasons:
 *  - the sideways budgets are per M: a higher jump rises faster, so it may
 *    allow fewer sideways moves low in the rise (side_up: one at level 1
 *    for M = 4, none for M = 5), and a way that needs a step sideways one
 *    tile up is lost;
 *  - a rising character does not enter a tile with a ceiling sideways,
 *    one at its apex does: with M = 1 a hop peaks at level 1 and slips
 *    sideways under a ceiling there; with M = 2 that tile is on the way up.
 * These are misses, not model errors: in both cases the physics reaches
 * the goal at every height (tests/test_path.c,
 * test_reach_not_monotonic_in_jump: two 16x12 levels, found at M = 1 and
 * not 2, at 4 and not 5, checked against the brute-force physics oracle
 * tests/surf_oracle.h and the graph planner).  On 300 random 16x12
 * platformer levels (tn_levelgen_platformer, 1x2 body, M = 1..8) 1,542 of
 * 253,557 (start, goal) pairs of standing tiles (0.6%) were found at some
 * M and missed at a higher one.  A caller that needs every goal the
 * physics reaches uses the graph planner (tn_surf.h).
 *
 * TILE SIZE.  The model is in tiles: tn_jump_model_init simulates the
 * physics at the params' tile_px pixels per tile (the numbers above are the
 * 16-px defaults).  Multiplying tile_px and every pixel parameter by a power
 * of two gives a byte-identical model, hence identical paths (tested at 8,
 * 16 and 32 px: test_path's test_tile_size_same_paths).
 *
 * COSTS AND HEURISTIC.  A walk between two ground tiles costs 2, every other
 * move 3, a take-off 2 more and a drop through a one-way 1 more: paths keep to
 * the ground and jump only when it pays.  The heuristic 2|dx| + 3|dy| is
 * admissible and consistent (a sideways move costs >= 2, a vertical one >= 3),
 * so TN_PATH_OPTIMAL returns a cheapest path under the model (tested against
 * a plain Dijkstra).  TN_PATH_FAST weights the heuristic by 3, with the
 * "pathmax" rule (a key is never below its parent's); in the tests its paths
 * cost at most 3x the optimum; it expands fewer states when the goal is far
 * and reachable (the mean states expanded, optimal against fast, on the
 * demo map: docs/bench.md, `astar`), nothing is saved when the goal is
 * unreachable.
 *
 * DATA STRUCTURES.  W x H x NJ states of 8 bytes (16-bit generation, parent
 * jump value, move, cost), J-major (one W x H plane per jump value: walking
 * on the ground stays in one plane, neighbours 8 bytes apart),
 * allocated once by tn_path_create for any W x H and reused: the generation
 * counter marks what the current search touched (no clearing; a wrap clears
 * once per 65535 searches).  The open list is a bucket queue: integer keys
 * that never decrease (consistent heuristic, or pathmax) all lie within 14 of
 * the current one, so a ring of 32 LIFO buckets gives O(1) push and pop
 * (LIFO: among equal keys the deepest state first); an improved state is
 * pushed again and stale entries are skipped, so the big state array is only
 * touched by the relaxations; the entry pool holds 4 x limit + 4 entries.  A
 * per-tile byte (fits / ground / ceiling) for the queried character size, on
 * a grid with a one-tile border (no bounds checks), is rebuilt only when the
 * map revision or the size changes.  tn_path_find never allocates.
 *
 * SEARCH LIMIT AND PARTIAL PATHS.  A query expands at most max_expand states.
 * When the goal is unreachable (TN_UNREACHABLE) or the limit is hit
 * (TN_LIMIT_REACHED) the result is TN_SUCCESS | TN_PARTIAL_RESULT | that bit,
 * with the path to the closest expanded state (smallest Manhattan distance;
 * standing states first, so a follower ends on its feet).
 *
 * POST-FILTER.  The path is reduced to what a follower needs: start, goal,
 * take-offs (the last ground node before the air), landings, the highest node
 * of each jump (first and last of the apex), the air nodes where a sideways
 * move starts after a vertical one, turns whose 2x2 corner holds a block, and
 * nodes where the path crosses a one-way platform.  The result is copied into
 * the caller's buffer, so several followers can share one finder.
 *
 * COST.  About 200 instructions per expanded state (~60 M states/s on the
 * demo map, fewer on large maps whose state array misses the cache); an
 * unreachable goal explores the whole reachable set.  0 allocations per
 * query (tested).  Numbers: docs/bench.md (`make bench`); history:
 * docs/perf.md.
 * Memory: 8 bytes x W x H x NJ (NJ = 46 with the default physics) + 12 bytes
 * x (4 x limit + 4) + 6 bytes x limit + (W+2) x (H+2): 1.3 MB of states for
 * 80x45 (2.0 MB in all with the default limit), 92 MB for 512x512 (146 MB
 * in all; tn_path_memory).
 *
 * THREAD SAFETY.  A finder keeps its search state: one tn_path per thread.
 * Any number of finders may read one tn_map at once while no thread edits
 * it (tests/test_threads.c, under ThreadSanitizer).  The jump model is read
 * only and may be shared.
 */
#ifndef TN_PATH_H
#define TN_PATH_H

#include "tn_common.h"
#include "tn_map.h"
#include "tn_phys.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_PATH_MAX_JUMP 8  /* M limit (tiles) */
#define TN_PATH_FALL_MAX 32 /* D + P limit */

/* The jump model derived from the physics (see the header comment). */
typedef struct tn_jump_model {
    int max_jump;                          /* M, tiles */
    int fall;                              /* F = 2M: the first falling value */
    int depth_table;                       /* D: depths 0..D-1 use side_fall[] */
    int period;                            /* P: depths D..D+P-1 cycle; sideways at the last one */
    int njump;                             /* J values used: F + 2(D + P) */
    uint8_t side_up[TN_PATH_MAX_JUMP + 1]; /* [k]: sideways at rising level k (1..M-1) */
    uint8_t side_fall[TN_PATH_FALL_MAX];   /* [d]: sideways at fall depth d (0..D-1) */
} tn_jump_model;

/* M = floor(jump_height + 1/32): the physics clears jump_height tiles plus
 * half a pixel, so a non-integer height is rounded down (4.9 -> 4).  Fills
 * the tables by simulating tn_body_step.  INVALID_PARAM for bad physics,
 * or jm or p NULL (with a message), and for physics tn_phys_validate takes
 * but the fall cycle cannot hold: P = ceil(max_fall / (walk_speed x 0.9))
 * above TN_PATH_FALL_MAX - 8 = 24, i.e. a terminal speed over 21.6 x the
 * walk speed (the graph planner tn_surf has no such limit). */
tn_status tn_jump_model_init(tn_jump_model *jm, const tn_phys_params *p, tn_error *err);
/* Whether a sideways move is allowed from jump value j (the pruning rule);
 * false for jm NULL or j < 0. */
bool tn_jump_model_side_ok(const tn_jump_model *jm, int j);

/* Path nodes. */
enum {
    TN_NODE_GROUND = 1u << 0,  /* standing here (block or one-way under the box) */
    TN_NODE_TAKEOFF = 1u << 1, /* last ground node before leaving the ground */
    TN_NODE_LANDING = 1u << 2, /* first ground node after the air */
    TN_NODE_APEX = 1u << 3,    /* highest node of a jump */
    TN_NODE_ONEWAY = 1u << 4,  /* a one-way platform under or around this node */
    TN_NODE_TURN = 1u << 5,    /* a turn whose corner is blocked */
};

typedef struct tn_path_node {
    int16_t x, y;  /* bottom-left tile of the box */
    uint8_t jump;  /* J */
    uint8_t flags; /* TN_NODE_* */
} tn_path_node;

enum { TN_PATH_OPTIMAL = 0, TN_PATH_FAST = 1 };

/* A goal of (TN_PATH_EXPLORE, TN_PATH_EXPLORE) asks for no path: the search
 * explores everything reachable from the start (tn_path_query.goal_x). */
#define TN_PATH_EXPLORE (-1)

typedef struct tn_path_query {
    int start_x, start_y; /* bottom-left tile of the box at the start */
    int start_jump;       /* -1: 0 when standing, F (apex, about to fall) in the air */
    int goal_x, goal_y;   /* goal tile (any J); both TN_PATH_EXPLORE: explore
                             everything reachable (TN_OK, no path: count 0; read the
                             search with tn_path_explored_at / _state_cost;
                             stopped by the limit: TN_SUCCESS |
                             TN_PARTIAL_RESULT | TN_LIMIT_REACHED, the
                             explored set incomplete); any other tile
                             outside the map (-3, 5 say, from a click off
                             the map's left) is INVALID_PARAM */
    int char_w, char_h;   /* 1..3 x 1..9 */
    const tn_jump_model *jump;
    int heuristic;  /* TN_PATH_OPTIMAL or TN_PATH_FAST */
    int max_expand; /* states to expand at most; 0 = the finder's limit, and
                       one above it (INT_MAX: no limit) is lowered to it */
    bool raw;       /* true: every node of the path, no post-filter */
} tn_path_query;

/* A query with the defaults (start_jump -1, optimal, finder's limit). */
tn_path_query tn_path_query_make(int sx, int sy, int gx, int gy, int w, int h,
                                 const tn_jump_model *jm);

typedef struct tn_path_stats {
    int expanded;     /* states expanded */
    int raw_nodes;    /* nodes before the post-filter */
    int cost;         /* cost of the returned path (model units), -1 if none */
    int end_x, end_y; /* the last node: the goal, or the closest state reached */
} tn_path_stats;

typedef struct tn_path tn_path;

/* The default search limit, in states per map tile (see tn_path_create). */
#define TN_PATH_DEFAULT_PER_TILE 4

/* A finder for maps of map_w x map_h tiles.  `phys` (NULL = defaults) fixes
 * how many jump values NJ to reserve (enough for jump heights up to 8 with
 * that gravity, walk speed and terminal speed: NJ = 46 by default).
 * `max_expand` is the largest search limit a query may use; 0 = sized to
 * the map: 4 states per tile (TN_PATH_DEFAULT_PER_TILE; at least 4096, at
 * most 1<<20, at most W*H*NJ).  That is less than a whole reachable set:
 * a 1x2 body's on the shipped maps is up to 5.0 states per tile at jump 4
 * and 7.1 (demo) to 9.1 (arena) at jump 8, so a search that must exhaust
 * it (an unreachable goal, an exploration) can stop at the default limit:
 * it then returns a partial path (TN_LIMIT_REACHED, not TN_UNREACHABLE).
 * Pass INT_MAX for answers that are always complete.  A larger max_expand
 * than W*H*NJ or 2^29 - 2 (so that the queue's 4L + 4 entries fit an int)
 * is lowered to that: INT_MAX is "no limit".
 * Memory, exactly (tn_path_memory returns it), with L the limit:
 *     8*W*H*NJ + 12*(4L + 4) + 6*(L + 1) + (W+2)*(H+2) + sizeof(tn_path)
 * e.g. 256x256 with the defaults: 23.0 MB of states + 12.0 MB of queue
 * + 1.6 MB = 36.6 MB (MB = 1024 x 1024 bytes, tn_common.h; the former
 * default limit 1<<20 made it 77.1 MB). */
tn_status tn_path_create(int map_w, int map_h, const tn_phys_params *phys, int max_expand,
                         const tn_allocator *a, tn_path **out, tn_error *err);
/* Bytes tn_path_create allocates for these arguments; 0 when they are
 * invalid. */
size_t tn_path_memory(int map_w, int map_h, const tn_phys_params *phys, int max_expand);
void tn_path_destroy(tn_path *pf);
/* The finder's search limit (max_expand as created, lowered as above); 0
 * for NULL. */
int tn_path_max_expand(const tn_path *pf);
/* Forget the cached per-tile bits (call when a map's tiles were changed
 * without tn_map_set_tile, or a map was replaced at the same address).
 * NULL: nothing. */
void tn_path_invalidate(tn_path *pf);

/* Find a path.  Writes up to `cap` nodes into `out` (may be NULL when cap is
 * 0) and their number into *count.  The path never has more nodes than
 * stats->raw_nodes (the unfiltered path), so after a BUFFER_TOO_SMALL a
 * buffer of that many holds it.  Status: TN_SUCCESS (goal reached);
 * TN_SUCCESS|TN_PARTIAL_RESULT|TN_UNREACHABLE or |TN_LIMIT_REACHED (path to
 * the closest state); |TN_BUFFER_TOO_SMALL added when `out` got only the
 * first cap nodes (out NULL asks for the search and stats alone: no nodes,
 * *count 0 and no BUFFER_TOO_SMALL, as tn_surf_find; count may then be
 * NULL too); TN_FAILURE|TN_INVALID_PARAM (bad sizes, start or goal
 * outside the map or blocked, i.e. the character does not fit there, map
 * size differs from the finder's, out without count, a negative
 * max_expand) with a message.  err is cleared on a
 * full success; a partial one fills it with what was left out ("path: goal
 * (40,3) is unreachable; the path ends at (38,9), ...", err->status the
 * same partial status).  Cost: O(states expanded) <= the limit. */
tn_status tn_path_find(tn_path *pf, const tn_map *m, const tn_path_query *q, tn_path_node *out,
                       int cap, int *count, tn_path_stats *stats, tn_error *err);

/* Record every later search into `trace` (tn_trace.h; NULL, the default,
 * records nothing).  The finder keeps the pointer, not the buffer.  Events:
 * OPEN at each push, CLOSE at each expansion, GOAL when the goal is popped
 * (the goal counts as expanded here: CLOSE + GOAL events = stats.expanded);
 * x, y = the node's bottom-left tile, id = its jump value, g and f in cost
 * units.  pf NULL: nothing. */
struct tn_trace;
void tn_path_set_trace(tn_path *pf, struct tn_trace *trace);

/* The last search (for overlays and tests); pf NULL: 0, false.  The
 * output pointers may be NULL (the answer alone). */
/* Jump values expanded at tile (x, y); 0 when none or outside. */
int tn_path_explored_at(const tn_path *pf, int x, int y);
/* Bounding box of the expanded tiles; false when nothing was expanded. */
bool tn_path_explored_bounds(const tn_path *pf, int *x0, int *y0, int *x1, int *y1);
/* Cost of state (x, y, j) if the last search expanded it. */
bool tn_path_state_cost(const tn_path *pf, int x, int y, int j, int *cost);

/* Model helpers shared with followers (cached bits for the last query's
 * size are not used: these read the map directly); m NULL: false.
 * tn_path_box_fits: whether a w x h box with bottom-left tile (x, y)
 * overlaps no block (outside the map counts as block); false for w or h
 * < 1.  tn_path_box_ground: whether a tile under its w columns is not
 * empty (false for w < 1). */
bool tn_path_box_fits(const tn_map *m, int x, int y, int w, int h);
bool tn_path_box_ground(const tn_map *m, int x, int y, int w);

#ifdef __cplusplus
}
#endif

#endif
