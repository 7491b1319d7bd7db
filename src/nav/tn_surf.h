/* SPDX-License-Identifier: Zlib */
/* tn_surf.h - the "graph" planner: a surface graph whose jump, fall and drop
 * edges are made by running the game's own physics step function.
 *
 * The classic planner (tn_path) approximates the physics with jump values and
 * crosses about half the gaps a player can.  This module asks the physics
 * itself: every edge is a scripted input sequence that was simulated with the
 * step function from an exact take-off position, and the bot replays exactly
 * those inputs, so an edge that exists is an edge the bot can execute.
 *
 * PROFILE.  A graph belongs to one movement profile: box size w x h tiles
 * (1..3 x 1..9), the physics parameters (tn_phys_validate; jump height 1..8)
 * and the step function (same shape as tn_body_step; NULL = tn_body_step),
 * so a game with its own deterministic physics gets exact edges too.  Tiles
 * are TN_TILE_PX (16) px: a profile with another phys.tile_px is refused
 * (INVALID_PARAM with a message); scale the game's units to 16-px tiles.
 *
 * THE X LATTICE (why sampling take-offs on it finds every landing).  With the
 * default physics a body moves by vx*dt = 160/60 = 8/3 px per step, -8/3, 0
 * or +8/3 px (instant start and stop, the same in the air), a body is placed
 * at a tile edge (a multiple of 16 px = 6 lattice steps) and wall contact
 * snaps x to a tile edge (c*16 or c*16 - W, again multiples of 16).  So every
 * x a body can ever have is x_j = j * 8/3 px for an integer j (the "lattice"),
 * up to float drift from repeated additions (measured below 1/1000 px over a
 * map; the physics ignores overlaps thinner than 1/8 px, so drift never
 * changes a collision).  Standing positions are therefore the finite set of
 * (row, j); the graph samples EVERY one of them as a take-off, so no landing
 * the physics allows from a standing body is missed; the oracle test proves
 * it.  The bot reaches an exact take-off j by walking: one lattice step per
 * frame, instant stop.  The step per frame is computed from the parameters
 * (walk_speed * dt); other walk speeds give another lattice, and the build
 * refuses parameters whose step does not divide a tile into an integer number
 * of steps (INVALID_PARAM).
 *
 * NODES AND SURFACES.  A node is a standing lattice position (row r = the
 * tile row under the feet, j): the box at (x_j, r*16 - h*16) is not inside a
 * block, a block or one-way top lies under one of its columns, and one step
 * of no input leaves it standing at the same x (the step function decides).
 * A surface is a maximal run of nodes on one row where a step of walking
 * right from j stands at j+1 and walking left from j+1 stands at j.  So a
 * wall (a block in the box's rows) ends a surface where the box would enter
 * it; a ceiling lower than the box ends it the same way; a gap ends it where
 * no column under the box has support; the map edge (solid outside) ends it
 * at x = 0 and x = W*16 - w*16.  The map's bottom edge counts as ground.  With
 * tn_body_step both tests follow from the tiles (a free box over a block or
 * one-way top stands, on a one-way only when no block is under it; a walk
 * between two standing positions of a row stands), so the build steps neither:
 * a -DTN_SURF_DEBUG build checks each against the step function, and
 * test_fast_equals_naive compares the surfaces with the naive build's, which
 * steps them.
 *
 * EDGES, per surface (each from one exact take-off node to one landing node
 * on ANOTHER surface; a landing on the same surface is never useful: walking
 * is as fast as air control):
 *  - JUMP: jump pressed on the take-off frame, held for d frames, d = 1 ..
 *    Dmax+1 (Dmax = the frames after which a release no longer cuts the
 *    rise: every meaningful hold), with any left/none/right input on every
 *    frame (the air control pattern);
 *  - DROP: Down on a one-way-only node, then any air control;
 *  - WALKOFF: walking off an end of the surface, then any air control, or a
 *    coyote jump pressed on the last of the coyote_frames steps after
 *    leaving and held to the top of the rise (profile.coyote =
 *    TN_SURF_COYOTE_FULL, the default: the farthest and highest reach, so
 *    the widest gap crossed is the player's); _LAST: every hold d of that
 *    press; _ALL: every hold pressed on any coyote frame; _NONE: never.
 *    Each hold is a fan of release arcs, so coyote settings decide much of
 *    the search: on the demo map _FULL makes 48,090 search states, _LAST
 *    101,463 (build about 1.6x), _ALL about 3x, _NONE a little fewer than
 *    _FULL.  The oracle test finds 100% of the reachable pairs with _ALL,
 *    99.84% with _FULL and _LAST (the same pairs) and 99.79% with _NONE
 *    (tests/test_surf prints them); tilenav-bench surf prints what _FULL
 *    costs the plans against _LAST (demo map: +0.35% frames over 1,000
 *    pairs, no pair lost).  Other values: INVALID_PARAM.
 * Per surface one breadth-first search per kind (the jumps; the walk-off at
 * each end; the drops, per run of one-way-only nodes) runs over the physics
 * states (time layers, states deduplicated by the bit patterns of y, vy and
 * the flags, each with a bitset of lattice x) from ALL take-off nodes of the
 * surface at once; every hold and air-control input is a branch.  Every
 * landing keeps its earliest arrival and one take-off and input sequence
 * that produced it (which one, among equally fast ones, depends on the
 * order of the search).  The input sequence is stored run-length encoded
 * (16 bits a run: 4 input bits, 12 bits count).  Frames past
 * TN_SURF_MAX_AIR stop a branch.
 * LANDINGS KEPT.  Per (surface, kind) group a landing node n is dropped when
 * a neighbouring landing m is faster by at least the walk between them
 * (f(m) + 1 <= f(n)); of the rest (plateaus of equal frames) the ends and
 * the tile-aligned nodes stay.  Every landing surface keeps its fastest
 * landing, so no connection is lost; plans get at most a few frames longer
 * (tilenav-bench surf prints the difference against keep_all_landings:
 * +0.03% of the frames, at most +4, on the demo map), and the graph has a
 * quarter of the edges.
 * THE SEARCH STEP.  With the default step function (tn_body_step) no
 * position is stepped one by one after the take-off frame: every position
 * of a state shares y, vy and the flags, so a step of one jump input makes
 * the same vertical decisions for all of them except where a tile stops the
 * box, and which positions a tile stops is a lattice bitset per map row
 * (the box at j overlaps a block / a one-way in that row; the column a walk
 * step enters is a block), made per row on first use.  A step of a state:
 * the three walk directions move the bitset (walls stop a walk: a stopped
 * body stays) and are merged, since they share the vertical part; then the
 * rows the vertical sub-moves enter (in order: positions whose box meets a
 * block, or a one-way from above, land or hit the ceiling there) and the
 * ground test split the merged set into groups, each of which ends in one
 * state (or lands); a step over empty tiles (a summed-area table of the
 * map says so in O(1)) only dilates the bitset.  Free flight: while a
 * state has one jump input and its steps stay over empty tiles, no state
 * is kept for the frames between (their tiles still go to the repair
 * index, and so do the tiles that decide where a flight starts and stops:
 * which states are kept decides which of equally fast take-offs a
 * backtrack finds, and a repaired graph must equal a fresh one); one
 * state k frames on holds the set dilated k times, and the
 * backtrack walks the k frames toward the landing's position (long falls
 * are mostly such frames: 45% of the states at 1024x1024).  A
 * -DTN_SURF_DEBUG build
 * checks every (position, walk) against tn_body_step: 423 M on the demo
 * map and 128x128 and 256x256 levels, 0 differ.  Because of that the fast
 * build does not replay its edges again (profile.verify_edges does; the
 * tests replay every edge).  Other step
 * functions: positions far from any non-empty tile move as one bitset (one
 * step, checked by a second), the rest are stepped one by one, and every
 * edge is replayed.
 * profile.reference_build turns the shortcuts off: the naive builder, which
 * tests/test_surf compares with the fast one: the same surfaces, nodes and
 * landings (per take-off surface, kind and landing node the same frames),
 * with and without thinning (random platformer levels, and tight maps with
 * one-way platforms, ceilings one tile over a floor and the map edges as
 * walls; boxes 1x1..3x3 and 4..6 tall, jump heights 1..8, every coyote
 * setting).
 * QUERY.  A* over the nodes where something happens: the start, the
 * take-off nodes (nodes with an edge), landing nodes and the goal span;
 * cost = frames (a walk step is 1 frame, an edge its simulated frames).
 * Walking is implicit: from a node the search goes to the nearest take-off
 * on each side of its surface (the take-offs of a surface form a chain, so
 * walks are never relaxed pairwise) and, on a goal surface, straight to
 * the goal span.  The query's edge list drops edges no cheapest plan needs:
 * E is dominated by F (same take-off and landing surface, or same landing
 * node and take-off surface) when F's frames plus the walks between their
 * ends are at most E's (ties: the lower id stays); about half the edges
 * of generated levels, and never a plan's cost.  Heuristic, the largest of:
 * the lattice distance to the goal span; ceil(rise px / the jump speed per
 * frame) or ceil(fall px / the fastest fall per frame); and either
 *  - landmarks (ALT; by default 8 on graphs of 65536+ nodes, see
 *    tn_surf_set_landmarks): per landmark node L the exact plan costs
 *    d(L, n) and d(n, L) of every node (one Dijkstra each way over the
 *    kept edges; each landmark the node farthest there and back from those
 *    before), giving d(L, goal) - d(L, n) and d(n, L) - d(goal, L); or
 *  - without landmarks, the detour bound: (lattice distance to the goal
 *    span) + the least "reduced" frames (frames minus the progress they make
 *    toward the goal column, >= 0) from the node's surface to a goal
 *    surface over the surface graph (walks 0, an arc the least reduced
 *    frames of its edges), by a backward Dijkstra from the goal surfaces
 *    that runs only as far as the search asks.
 * All are admissible and consistent, so the plan's cost is the same as a
 * node-by-node A*'s; a landmark or the detour search that proves a node
 * cannot reach the goal sends it to the back of the queue.  The landmark
 * tables are recomputed on every build and repair, never stale.  The plan
 * found is the cheapest in the graph; the graph keeps one take-off per
 * landing and kind, so a plan can be a few frames longer than the physics'
 * best.  The goal is a tile: any node whose box has that bottom-left tile
 * (j in 6gx..6gx+5 on row gy+1).  No state limit: the search ends when the
 * goal is expanded or every reachable node is; an unreachable goal gives the
 * plan to the closest reachable node (Manhattan distance in tiles from the
 * box's bottom-left tile; then the lowest cost) with
 * TN_SUCCESS|TN_PARTIAL_RESULT|TN_UNREACHABLE: every node of a reached
 * surface is reachable by walking, so per reached surface its closest span
 * is costed exactly from the expanded nodes.  The expanded nodes (start,
 * take-off, landing and goal nodes) are recorded in order
 * (tn_surf_expanded) for a search-playback overlay.  Zero allocations per
 * query (all scratch is sized at build).  tn_surf_find_reference is the
 * old node-by-node A* (every walk step an arc, the distance and vertical
 * bound only); tests/test_surf (test_find_equals_reference) checks on
 * random levels, with and without landmarks and after edits, that both
 * give the same status and plan cost, that plans chain, and that partial
 * answers are as close.  Out of memory for the query index: the reference
 * search answers.
 *
 * EDITS.  tn_surf_sync() compares the map revision; on a change it finds the
 * changed tiles against its own copy of the terrain.  One changed tile is
 * repaired locally: the surfaces of the rows whose standing it decides are
 * recomputed (nodes renumbered, kept edges remapped by position), and
 * only the searches that read the tile run again.  The index: per search
 * of a surface (its jumps, its drops, its walk-off at each end) a
 * footprint, a bitmap over its bounding box that
 * holds, per map row, the span of the columns its steps can read there
 * (per DP entry: the columns a walk step and the box reach from its first
 * to its last position, the rows the state reaches in one step; per frame
 * of a free flight, the rectangle its free test read; the test that stops
 * a flight is its next entry's; a span per row costs a few operations a
 * read where the exact union of rectangles cost a fifth of the build, and
 * makes 0.6% more searches run again).  All
 * searches of new or changed surfaces and of
 * those standing next to the tile run again; every other search keeps its
 * edges and input runs (an edge's search is its kind, and for a walk-off
 * the side its first input walks).  The edge list is rewritten in one
 * pass, in place: the blocks of surfaces whose searches did not run move
 * to their places, renumbered, and the others' kept and new edges are
 * merged into theirs (kept input runs stay where they are).  Dominated
 * edges (QUERY) are found again only for the take-off surfaces whose
 * searches ran again or whose kept edges land
 * on a changed surface (both tests group one take-off surface's edges;
 * the others keep TN_SURF_EDGE_DOMINATED, and their query records and
 * arcs into nodes are the old ones renumbered: one pass over the records,
 * none over the edge array).  The landmark tables are
 * updated, not recomputed: per table a dynamic shortest-path update over
 * the kept edges from those gone, those now dominated and those new or no
 * longer dominated (the nodes whose cost may rise are found in order of
 * cost and searched again with the ones a new edge lowers), or a Dijkstra
 * when more than a quarter of the nodes are affected
 * (tn_surf_landmark_counts); tests/test_surf checks every table after
 * random edits against costs computed afresh.
 * Several changed tiles: a rebuild.  Either way tn_surf_generation()
 * changes.  Tested: after random edits (six profiles, tight maps with
 * one-way edits among them) the graph equals a fresh build edge for edge,
 * input runs and dominance flags included.  "Standing next to the tile":
 * on its row to h + 1 rows below and within two columns of the surface
 * (which nodes are one-way-only, so the drops, can change while the
 * surface keeps its extent); farther surfaces on those rows keep the
 * searches their footprints do not name.  A search's states spread over
 * many tiles (a fall from a ledge covers a cone of them), so a repair
 * still runs searches of about 7 of the demo map's 53 surfaces (median;
 * 13 of 3,010 at 512x512, 25 of 11,104 at 1024x1024).
 * THREAD SAFETY.  A graph is not shared between threads while it is built or
 * queried (the query scratch lives in it); different graphs are independent.
 * The library has no global state.  With profile.threads > 1 a build or a
 * repair runs the surfaces' searches on that many threads (each with its
 * own scratch; the step function and the allocator are then called from
 * them: both must be thread-safe, as tn_body_step and malloc are), joined
 * before it returns; where C11 threads are missing (__STDC_NO_THREADS__,
 * the browser build) or a thread does not start, the caller's thread does
 * the work.  The result does not depend on the thread count: edges are
 * sorted and input runs laid out in edge order (a big graph's, 16384+
 * nodes, gathered surface by surface, each surface's sorted as made;
 * tests/tsan checks a build on 4 threads against one on 1, edge for edge,
 * and the landmark tables, whose two directions per landmark a build on
 * threads searches at once).
 *
 * MEMORY.  sizeof(tn_surf) + 16 B x surfaces (+ 12 B: explored box, largest
 * landing node) + 40 B x nodes (node, CSR and query arrays) + 20 B x edges
 * + 2 B x input runs (a repair leaves the runs of the edges it removes where
 * they are until they are a fifth of all, then moves the live ones down over
 * them in place; room for 1/16 to 2x more, a quarter after a build, 1/16 to
 * 1/2 after a one-thread build of 16384+ nodes, which keeps the pool it
 * reserved) + 20 B x
 * searches (footprints) + 1 bit x tiles of each search's bounding box (these
 * two and the edges with room for about 1/16 more, the bitmaps for 1/4: a
 * repair compacts and adds to them in place, leaving the bitmaps of the
 * searches it runs again where they are until they are an eighth of all; a
 * run compaction borrows 3 bits x runs) + 1 B x map tiles (terrain
 * copy) + 8 B x map tiles (its non-empty tiles summed per column and per
 * rectangle) + 20 B x nodes (the searches' landing records, room for 1/16
 * more; these two are kept so that a repair updates instead of making them)
 * + 4 B x (map rows + 2) + the searches' row masks, 32 B x (map rows + 3) x
 * (lattice width / 64 + 6), kept for repairs; tn_surf_memory() returns it
 * (demo map: about 0.5 MB).  The build scratch (DP entries and bitsets of one
 * search, the free-flight entries waiting for their frame, hash, the memo of
 * its backtracks: 40 B x 2 x their distinct steps), per building thread, is
 * kept with the graph at the size of its largest search, so that repairs
 * and tn_surf_rebuild do not grow it again (demo map: about 0.4 MB, a
 * 1024x1024 level about 4 MB).  The
 * query index adds 20 B x kept edges (about half the edges) + 36 B x nodes
 * (search state and heap) + 8 B x take-off nodes + 8 B x landmarks x nodes (8
 * landmarks: 64 B x nodes, room for 1/16 more) and the kept edges into each
 * node (4 B x nodes + 6 B x kept edges) or, without landmarks, 24 B x surfaces
 * + 12 B x surface-graph arcs (distinct surface pairs with an edge); its build
 * scratch (4 B x nodes; for a build's dominance test 16 B x edges + 4 B x
 * nodes; for a repair the old records and arcs until the new ones are made,
 * 12 B x arcs out of the surfaces made again, and for its landmark update 29 B
 * x nodes) is freed after it.  The graph allocates through a pool of its
 * own (the caller's allocator below it): the blocks of 256 KB or more that a
 * repair frees are kept for the next repair, so that a repair's new index
 * arrays are not fresh memory whatever the system allocator does with big
 * blocks; between operations it holds what the last repair freed (about
 * the query index: 65 MB at 1024x1024, 2.5 MB at 128x128, little on the
 * demo map), counted by tn_surf_memory(); a build returns it all.  Every
 * allocation is 16 B more (a header with its size).
 *
 * COST (tilenav-bench surf prints the current numbers; README "Graph
 * planner" quotes them, docs/perf.md says where the time goes): the build
 * is one BFS per surface and kind over (frame, vertical state), each hold
 * a fan of release arcs alive until they land: about 820 states per
 * surface on the demo map, each about 2,400 instructions all told (a state
 * holds about 40 positions in one to three 64-bit words: its plan, hash,
 * footprint and bookkeeping cost more than the word operations), and one
 * backtrack per edge kept (sharing the way back with the search's earlier
 * ones).  The demo map (80x45, 1x2, jump 4) takes about 8-12 ms of CPU
 * (0.11 G instructions), still about 4x the 2 ms the issue asks; a
 * 512x512 level about 0.95-1.4 s, 1024x1024 about 3.9-4.5 s (there free
 * flight saves 14%: long falls); where page faults are dear, as on the
 * machine measured, a process that gives freed memory back to the kernel
 * (glibc's default) pays about a sixth more (the game keeps it: mallopt
 * in src/game/main.c; a caller's allocator can pool it too), less in a
 * graph's repairs and in tn_surf_rebuild, which reuse the scratch the graph
 * keeps (a demo rebuild about 10 ms against 12 for a new graph).  On T
 * threads (profile.threads) the searches divide among them (demo map on
 * 2: x1.2-1.7 in wall time, as the two CPUs of the machine measured were
 * busy; 1024x1024 on 2: about 2.6-3.0 s, of which about 0.9 s is serial:
 * the masks, the query index, the landmark tables' rounds).  A repair
 * runs the searches that read the tile
 * again (demo map: about 7 of 53 surfaces, about 1.1-2 ms, nearly all
 * searching; 1024x1024: about 25 of 11,104 surfaces, median about 16-19
 * ms and mean 23-25 ms; of a median one the searches are about a quarter,
 * the passes over the edges and the query records, which a repair
 * renumbers, about 9 ms; docs/perf.md).
 * A query on the demo map expands about 180 nodes (the node-by-node
 * reference: about 300): ~20 us median.  The query index is O(edges)
 * (the dominance test, the surface graph: about 1 ms on the demo map)
 * plus, with landmarks, 2 x (landmarks + 1) Dijkstra searches over nodes
 * and kept edges on every build (a bucket queue: costs are whole frames;
 * a repair updates the tables instead); the default keeps landmarks to
 * graphs of 65536+ nodes (not the game's maps, up to 256x256).  On
 * generated levels (1x2, jump 4, default profile), 1000 reachable pairs,
 * thread CPU time: 512x512 median 0.12 ms, p99 1.3 ms, 1024x1024 median
 * 0.44 ms, p99 8 ms (landmarks); the index takes about 0.06 s and 0.3 s
 * of those builds.  The
 * search is bound by relaxations (about 15 kept edges per take-off, 60% of
 * the nodes are take-offs) times the nodes whose bound is below the plan's
 * cost (about 3/4 of those expanded), so the 50 us / 1 ms at
 * 1024x1024 need the query shortcuts and their labels (below).
 */
#ifndef TN_SURF_H
#define TN_SURF_H

#include "tn_common.h"
#include "tn_debug.h"
#include "tn_map.h"
#include "tn_phys.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_SURF_MAX_AIR 1200 /* frames an edge may take at most (20 s) */

typedef void (*tn_step_fn)(tn_body *b, const tn_map *m, const tn_phys_params *p, tn_input in);

typedef struct tn_surf_profile {
    int w, h;               /* box size in tiles: 1..3 x 1..9 */
    tn_phys_params phys;    /* validated with tn_phys_validate */
    tn_step_fn step;        /* NULL = tn_body_step */
    int coyote;             /* coyote jumps in walk-off edges: TN_SURF_COYOTE_FULL
                             * (the default), _LAST, _ALL or _NONE (see EDGES) */
    bool reference_build;   /* true: no free-step shortcut, every state is stepped
                           * on the map: the naive builder the tests compare
                           * the fast one with, edge for edge */
    bool keep_all_landings; /* true: an edge to every landing node (no
                             * thinning, see EDGES); false (default) */
    bool verify_edges;      /* true: the fast build replays every edge with the
                             * step function too (the naive one always does) */
    int threads;            /* 0 or 1: builds and repairs run on the caller's
                             * thread; 2..64: the surfaces' searches run on up
                             * to that many threads (the caller's and C11
                             * threads it starts and joins), see THREAD
                             * SAFETY; the graph is the same either way.  Not
                             * part of the profile's identity
                             * (tn_surf_same_profile) */
} tn_surf_profile;

/* Which coyote jumps walk-off edges include: pressed on the last coyote
 * frame with every hold (_LAST) or held to the top (_FULL, the default:
 * the farthest reach), pressed on any coyote frame with every hold (_ALL),
 * or none. */
enum {
    TN_SURF_COYOTE_LAST = 0,
    TN_SURF_COYOTE_ALL = 1,
    TN_SURF_COYOTE_NONE = 2,
    TN_SURF_COYOTE_FULL = 3
};

tn_surf_profile tn_surf_profile_make(int w, int h, const tn_phys_params *p);

enum { TN_SURF_JUMP = 0, TN_SURF_DROP = 1, TN_SURF_WALKOFF = 2 };

/* Input bits of a run. */
enum { TN_SURF_IN_LEFT = 1, TN_SURF_IN_RIGHT = 2, TN_SURF_IN_DOWN = 4, TN_SURF_IN_JUMP = 8 };

typedef struct tn_surf_surface {
    int32_t row;    /* tile row under the feet (feet at y = row*16) */
    int32_t j0, j1; /* lattice range, inclusive */
    int32_t node0;  /* node id of j0 */
} tn_surf_surface;

typedef struct tn_surf_edge {
    int32_t from, to; /* take-off node, landing node */
    uint32_t run0;    /* first input run */
    uint16_t nruns;
    uint16_t frames; /* simulated frames from take-off to landing */
    uint8_t kind;    /* TN_SURF_JUMP / DROP / WALKOFF */
    uint8_t flags;   /* TN_SURF_EDGE_DOMINATED: the query drops it (QUERY) */
} tn_surf_edge;

/* tn_surf_edge.flags: another edge plus walks is at least as fast (the
 * query index's dominance test, see QUERY); set by every build and repair. */
#define TN_SURF_EDGE_DOMINATED 1

/* One leg of a plan: walk on the current surface to lattice `walk_to_j`,
 * then (edge >= 0) replay the edge's inputs; edge < 0 ends the plan. */
typedef struct tn_surf_leg {
    int32_t edge;
    int32_t walk_to_j;
    int32_t node; /* the node at walk_to_j */
} tn_surf_leg;

typedef struct tn_surf_stats {
    int expanded; /* nodes expanded */
    int frames;   /* cost of the returned plan, -1 if none */
    int end_node; /* last node of the plan */
    int legs;     /* legs of the plan (before truncation) */
} tn_surf_stats;

typedef struct tn_surf tn_surf;

/* Build the graph of `prof` on map `m`.  INVALID_PARAM (with a message) for
 * an out-of-range profile; OUT_OF_MEMORY.  A map with no standing place
 * gives a graph with 0 nodes (queries then fail with a message). */
tn_status tn_surf_create(const tn_map *m, const tn_surf_profile *prof, const tn_allocator *a,
                         tn_surf **out, tn_error *err);
/* Build g again for profile `prof` on map `m`, in place: what a jump-height
 * slider needs.  The same graph as tn_surf_create would make (tested edge for
 * edge), but the searches' scratch g keeps (MEMORY) is not grown again from
 * nothing, which saves the page faults of fresh memory (demo map: see
 * tilenav-bench surf, "rebuilt in place").  Node and edge ids and plans of
 * the old graph are void (tn_surf_generation changes) and its query
 * shortcuts are dropped, as by any build; tn_surf_set_landmarks' setting
 * stays.  INVALID_PARAM (g unchanged) for an out-of-range profile;
 * OUT_OF_MEMORY leaves a graph with 0 nodes, as a failed tn_surf_sync
 * does. */
tn_status tn_surf_rebuild(tn_surf *g, const tn_map *m, const tn_surf_profile *prof, tn_error *err);
void tn_surf_destroy(tn_surf *g);
/* Rebuild when the map's revision (or address) changed since the build. */
tn_status tn_surf_sync(tn_surf *g, const tn_map *m, tn_error *err);
/* The map tile (x, y) changed: same as tn_surf_sync (which finds it). */
tn_status tn_surf_edit(tn_surf *g, const tn_map *m, int x, int y, tn_error *err);
/* Edits since creation repaired locally / by a full rebuild. */
void tn_surf_repair_counts(const tn_surf *g, int *local, int *full);
const tn_surf_profile *tn_surf_get_profile(const tn_surf *g);
bool tn_surf_same_profile(const tn_surf_profile *a, const tn_surf_profile *b);

/* Incremented by every (re)build: node and edge ids of older builds are void. */
uint32_t tn_surf_generation(const tn_surf *g);
int tn_surf_node_count(const tn_surf *g);
int tn_surf_surface_count(const tn_surf *g);
int tn_surf_edge_count(const tn_surf *g);
const tn_surf_surface *tn_surf_surfaces(const tn_surf *g);
const tn_surf_edge *tn_surf_edges(const tn_surf *g);
size_t tn_surf_memory(const tn_surf *g);
/* Node -> surface, row, lattice j, x in px. */
int tn_surf_node_surface(const tn_surf *g, int node);
void tn_surf_node_pos(const tn_surf *g, int node, int *row, int *j);
float tn_surf_lattice_x(const tn_surf *g, int j);
/* Lattice index of a pixel x (nearest). */
int tn_surf_lattice_j(const tn_surf *g, float x);
/* Node at (row, j) or -1. */
int tn_surf_node_at(const tn_surf *g, int row, int j);
/* Node of a standing body (its x rounded to the lattice), or -1. */
int tn_surf_node_of_body(const tn_surf *g, const tn_body *b);
/* First node whose box has bottom-left tile (tx, ty), or -1. */
int tn_surf_node_of_tile(const tn_surf *g, int tx, int ty);

/* Input run r of the graph: *in and its count. */
void tn_surf_run(const tn_surf *g, uint32_t r, tn_input *in, int *count);
/* Replay edge e from its take-off with the graph's step function on map m:
 * true when it lands on its landing node after exactly its frames. */
bool tn_surf_edge_valid(const tn_surf *g, const tn_map *m, int e);
/* The tiles edge e's trajectory touches (the box's tiles over every frame,
 * take-off and landing included: columns x0..x1, rows y0..y1), by replaying
 * it on map m, O(its frames); false when e is out of range or no longer
 * lands where it did (tn_surf_edge_valid).  The graph does not store them:
 * nothing in a build or a query needs them. */
bool tn_surf_edge_box(const tn_surf *g, const tn_map *m, int e, int *x0, int *y0, int *x1, int *y1);

/* Plan from node `start` to the standing tile (gx, gy) (already snapped to a
 * standing tile).  Legs go to `out` (cap entries; BUFFER_TOO_SMALL when
 * more were needed).  Status as in the header comment; FAILURE|INVALID_PARAM
 * with a message for a bad start, a goal outside the map or where no node
 * of this profile stands. */
tn_status tn_surf_find(tn_surf *g, int start, int gx, int gy, tn_surf_leg *out, int cap, int *count,
                       tn_surf_stats *stats, tn_error *err);
/* The same query by the reference search (tests): A* node by node, every
 * walk step an arc, the geometric heuristic only; same status and plan cost
 * as tn_surf_find, which is checked against it (tests/test_surf). */
tn_status tn_surf_find_reference(tn_surf *g, int start, int gx, int gy, tn_surf_leg *out, int cap,
                                 int *count, tn_surf_stats *stats, tn_error *err);
/* Landmarks of the query heuristic (see QUERY): k = 1..16, 0 none, -1 the
 * default (8 on graphs of 65536+ nodes, else none); the next builds keep
 * the choice.  Costs k Dijkstra searches each way now and on every
 * (re)build; answers do not change, only the search effort (tests, tuning). */
void tn_surf_set_landmarks(tn_surf *g, int k);
/* The landmark tables (tests, overlays): how many landmarks the graph has
 * now (0 without), landmark k's node, and the plan cost in frames from it
 * to `node` (back false) or from `node` to it (back true), -1 when there is
 * no plan.  A local repair updates the tables in place (see EDITS); updated
 * / recomputed count the tables (a landmark, one direction) done each way
 * since creation; a build recomputes them all. */
int tn_surf_landmark_count(const tn_surf *g);
int tn_surf_landmark_node(const tn_surf *g, int k);
int tn_surf_landmark_cost(const tn_surf *g, int k, int node, bool back);
void tn_surf_landmark_counts(const tn_surf *g, int *updated, int *recomputed);
/* QUERY SHORTCUTS (tn_surf_ch.c), for big levels that are edited rarely:
 * a contraction hierarchy over the query index's keys (take-offs and
 * landings; walks between neighbouring keys and the kept edges as arcs)
 * with a distance table over its core, the `core_keys` keys contracted last
 * (0: a sixteenth of the keys, 256 .. 4096; at most 16384).  With them
 * tn_surf_find runs a bidirectional Dijkstra over upward arcs below the
 * core, prices the pairs of core keys the two sides reach by the table,
 * and unpacks the shortcuts into the plan: same plan cost and status as
 * without (tests/test_surf test_shortcuts_equal_reference, cores of 1, 8,
 * 64 and the default); an unreachable goal falls back to the full search
 * for the closest point.  Any build, repair (tn_surf_edit / _sync) or
 * tn_surf_set_landmarks drops them: queries then search as before until
 * the caller builds them again (a repair does not: the contraction costs
 * far more than the repair).  Memory: some dozens of bytes per key and
 * arc, plus core^2 x 6 bytes for the table (tn_surf_shortcuts_memory;
 * counted in tn_surf_memory).  Cost: `tilenav-bench surf` prints the
 * build and the same queries with and without; at 1024x1024 (203,224
 * keys) about 20-30 s and 200 MB, for a query median about 5x and a p99
 * about 25x lower; the labels below then take it about 3-4x lower again
 * (docs/perf.md).  Not thread-safe with queries on the same graph; zero
 * allocations per query.
 * INVALID_PARAM for core_keys outside 0..16384 (nothing changes);
 * OUT_OF_MEMORY (no shortcuts kept, queries search as before). */
tn_status tn_surf_build_shortcuts(tn_surf *g, int core_keys, tn_error *err);
bool tn_surf_has_shortcuts(const tn_surf *g);
size_t tn_surf_shortcuts_memory(const tn_surf *g);
int tn_surf_shortcut_count(const tn_surf *g); /* arcs added by the contraction */
/* HUB LABELS (tn_surf_build_labels, on top of the shortcuts): per key and
 * direction, the query's one-sided search from that key alone, stored:
 * the keys it settles unstalled (its hubs: their costs and the hub each was
 * reached from) and the core keys it reaches, thinned (its access keys, by
 * cost).  A query then reads its seeds' labels instead of searching: the
 * cheapest hub the two sides share, then the pairs of access keys by the
 * table in increasing cost while they can beat it; the plan follows the
 * labels' parents and unpacks the arcs as before.  Same plan cost and
 * status (tests/test_surf test_shortcuts_equal_reference); a goal
 * reached expands nothing (tn_surf_expanded is empty, stats.expanded 0),
 * an unreachable one falls back to the search for the closest point, as
 * with the shortcuts alone.  Memory: 8 B a
 * label entry (about 130 entries a key at 1024x1024, about 1 KB) + 28 B a
 * key, in tn_surf_shortcuts_memory.  Build: one search per key each way,
 * a small part of the contraction's time; with profile.threads > 1 the two
 * directions are built at once on two threads (the second with search
 * states of its own: + 32 B a key while it runs), the same labels.  `tilenav-bench surf` prints
 * the build, the memory and the same queries with them.  Dropped with the
 * shortcuts (a build, repair or tn_surf_set_landmarks, or building the
 * shortcuts again).  INVALID_PARAM without shortcuts, or when a label
 * passes its format (a cost over 1,048,575 frames, over 4,094 hubs):
 * nothing built; OUT_OF_MEMORY: no labels, the shortcuts stay.  Zero
 * allocations per query; not thread-safe with queries on the graph. */
tn_status tn_surf_build_labels(tn_surf *g, tn_error *err);
bool tn_surf_has_labels(const tn_surf *g);
/* Nodes the last query expanded, in order. */
const int32_t *tn_surf_expanded(const tn_surf *g, int *count);

/* Debug drawing: surfaces (lines at the feet), edges as trajectories (every
 * `edge_stride`-th edge, 0 = none), and a plan (legs) from `start`. */
enum { TN_SURF_DRAW_SURFACES = 1, TN_SURF_DRAW_EDGES = 2, TN_SURF_DRAW_PLAN = 4 };
void tn_surf_debug_draw(const tn_surf *g, const tn_map *m, const tn_debug_draw *dd, int what,
                        int edge_stride, int start, const tn_surf_leg *legs, int nlegs);

#ifdef __cplusplus
}
#endif

#endif
