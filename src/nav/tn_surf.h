/* SPDX-License-Identifier: Zlib */
/* tn_surf.h - the "graph" planner: a surface graph whose jump, fall and drop
 * edges are made by running the game's own physics step function, so an
 * edge that exists is an edge the bot can execute (it replays the inputs).
 * The classic planner (tn_path) approximates the physics with jump values;
 * this one crosses every gap a player can.  docs/surf.md has the design in
 * full (why each shortcut is exact, how it is tested); docs/perf.md what
 * each part costs and what was tried.
 *
 * AT A GLANCE (each in full below):
 *  - limits: tiles of 16 px times a power of two (4, 8, 16, 32, 64, 128 or
 *    256 px: UNITS); a box of 1..3 x 1..9 tiles;
 *    jump height 1..8; a walk step that divides a tile into 1..64 equal
 *    lattice steps; edges of at most TN_SURF_MAX_AIR frames (PROFILE, UNITS);
 *  - memory: tn_surf_memory (the graph, as builds and repairs grow it)
 *    and tn_surf_query_memory per query object; queries never allocate;
 *    running out is said and never leaves a broken graph (OUT OF MEMORY);
 *  - threads: one writer; query objects read a graph from many threads at
 *    once (THREAD SAFETY);
 *  - cost: a demo-map build is about 10 ms of CPU; every other number,
 *    demo and big levels, is in docs/bench.md (COST).
 *
 * PROFILE.  A graph belongs to one movement profile: box w x h tiles
 * (1..3 x 1..9), physics parameters (tn_phys_validate; jump height 1..8),
 * a step function (shape of tn_body_step; NULL = tn_body_step, so a game
 * with its own deterministic physics gets exact edges too; see STEP
 * FUNCTION) and a coyote setting.  Tiles are phys.tile_px px, 16 times a
 * power of two (see UNITS).  Anything else: INVALID_PARAM with a message.
 * So is a NULL graph, map, profile or output pointer given to a call that
 * returns a tn_status.  A game whose characters come in two sizes (or jump
 * heights) builds a graph for each profile and syncs each after an edit;
 * the bots of one profile share its graph (tn_bot_goto and a bot's
 * re-plans refuse a graph of another profile than the body's, with a
 * message).  The counts
 * (nodes, surfaces, edges, repairs, shortcuts, landmarks and their
 * updates), tn_surf_generation, _map_revision, _memory,
 * _shortcuts_memory, _in_sync, _has_query_index, _has_shortcuts,
 * _has_labels, _expanded and every lookup (surfaces, edges, profile,
 * node, lattice, edge, run and landmark read-outs) take a NULL graph as an
 * empty one (0, false, NULL, -1: none), tn_surf_set_landmarks does nothing
 * with it.
 *
 * STEP FUNCTION (profile.step, or profile.step_user_fn with
 * profile.step_user; not both).  It must move x like tn_body_step does, so
 * that every x stays on the lattice (see UNITS):
 *  - standing and walking from rest: exactly walk_speed * dt px in the first
 *    frame (no acceleration), and no motion the frame after letting go (no
 *    sliding);
 *  - in the air (jumping or falling) with left or right held: exactly
 *    walk_speed * dt px each frame, the same speed as on the ground (no air
 *    control factor, no other air speed), and no horizontal motion without
 *    left or right (no momentum);
 *  - walls stop it on a tile edge, as tn_body_step's do;
 *  - no drift: after a move x is the float nearest j * step (tn_body_step
 *    sets it so; a sum of float steps drifts off the lattice by up to 0.8
 *    px at 1,000 tiles from the left edge, and there edges that hold on
 *    the lattice need not replay);
 *  - deterministic: the same body, map and input give the same result.
 * Vertical motion is free (its own gravity, jump, one-way platforms, within
 * tn_body's fields), with two limits the probe cannot see:
 *  - it must not depend on the body's x (a low-gravity zone, a jump pad
 *    read from the map at the body's column): the search keeps one state
 *    per vertical state and every x of a surface at once, and a step whose
 *    vertical motion varies with x splits those states; a 16x8 map with a
 *    low-gravity half took 3.5 s and 129 MB, a 24x12 one minutes and GBs
 *    (found by a library review), where tn_body_step takes 10 ms;
 *  - it must not depend on what the body did before the edge's first frame
 *    other than through its vertical state (a running jump that reads the
 *    previous frame's b->vx): every edge is simulated from a body at rest
 *    on the take-off x, while a plan walks into it, so such a step makes
 *    edges tn_surf_edge_valid confirms and a bot misses (152 of 276 trips
 *    re-planned in that review's test).
 * The build probes the first two on a private floor
 * (one frame walking each way, one of no input; a jump with right, then
 * left, held for up to 24 frames, one frame let go in the middle; a fall
 * from rest likewise) and refuses a step function that fails any of it
 * with INVALID_PARAM and a message saying what it did and in which frame.
 * The probe does not prove the rest (say, a speed that changes only near
 * walls): verify_edges (or tn_surf_edge_valid) replays every edge.
 * Threads: the step function is called on the caller's thread during
 * tn_surf_create, _rebuild, _load, _sync, _edit, tn_surf_edge_valid,
 * tn_surf_edge_box, tn_surf_edge_replay_body, tn_surf_step_body,
 * tn_surf_debug_draw and _draw_edges_in (so also in tn_bot_step of a
 * graph bot: once for each frame of an edge it replays, on the copy of
 * the body that sees a push in the air, and a pushed bot's replays; bots
 * stepped on several threads call it at once, see tn_bot.h), and with
 * profile.threads > 1 during builds and repairs also on the library's
 * worker threads, at the same time, every thread with the same step_user
 * pointer (the function cannot tell the threads apart by it; nor by
 * thread-local storage the caller set up: the workers are the library's,
 * made and joined within the call); never after the call returns, and
 * never by tn_surf_find.  It must not modify the map it is given, and
 * what it writes through step_user (a call counter, a cache) needs its
 * own locking or atomics once threads > 1.
 * It is called about once per search state (see COST).
 *
 * UNITS.  Pixels, y down, frames of phys.dt.  Tiles of phys.tile_px = 16 x
 * 2^n px (4..256): the graph is built with the profile's physics scaled to
 * 16-px tiles (tn_phys_scaled by 16 / tile_px), which moves a body exactly
 * 16 / tile_px times as far every frame (tn_phys.h), so its nodes, edges,
 * frames and inputs are those of the 16-px profile bit for bit and the bot
 * replays them under the caller's physics exactly (tests: test_tile_sizes,
 * test_tile_size_graph_bot).  Other tile sizes agree with 16 px only up to
 * float rounding, where an edge need not replay: INVALID_PARAM.  Every
 * pixel the API takes or gives (tn_surf_lattice_x and _j, a body's node,
 * the debug draw's coordinates and rectangles) is the caller's; a custom
 * step function is called with the scaled physics and bodies (it must read
 * its lengths from its params, as tn_body_step does, to be exact).  Every
 * x a body can have is on
 * the lattice x_j = j * walk_speed * dt (8/3 px by default: instant start
 * and stop, placement and wall contact on tile edges); a walk step that does
 * not divide a tile into whole steps is refused.  A node is a standing
 * lattice position (row r = the tile row under the feet, j); node ids run
 * in (row, j) order.  A surface is a maximal run of nodes on one row that
 * walking connects: walls, low ceilings, gaps and the map's side edges end
 * it; the map's bottom edge counts as ground.
 *
 * EDGES.  From one take-off node to one landing node on another surface,
 * with the input sequence (run-length encoded, tn_surf_run) and the frames
 * it takes: JUMP (jump pressed, held 1 .. every meaningful number of frames,
 * any left/none/right each frame), DROP (Down on a one-way-only node) and
 * WALKOFF (off a surface's end, with coyote jumps per profile.coyote).
 * Every standing position is a take-off, so no landing the physics allows
 * is missed.  Per take-off surface and kind, a landing a neighbouring one
 * beats by the walk between them is dropped (profile.keep_all_landings
 * keeps them).  Frames past TN_SURF_MAX_AIR end a branch.
 *
 * BUILD.  Per surface and kind one breadth-first search over (frame,
 * vertical state) with a bitset of lattice x per state, from every take-off
 * at once; each landing keeps its earliest arrival and one input sequence
 * for it.  With tn_body_step a step is word operations on per-row lattice
 * masks, exact by construction (a -DTN_SURF_DEBUG build checks every
 * decision against tn_body_step); other step functions step near-terrain
 * positions one by one and replay every edge.  profile.reference_build is
 * the naive builder the tests compare with.
 *
 * QUERY (tn_surf_find).  A* in frames over the start, take-off, landing and
 * goal nodes (walks are implicit); edges that another edge plus walks
 * dominates are skipped (TN_SURF_EDGE_DOMINATED).  Admissible, consistent
 * heuristics: lattice distance, rise or fall at top speed, and a detour
 * bound over the surface graph or (graphs of 65536+ nodes by default)
 * landmarks, tn_surf_set_landmarks.  The plan is the cheapest in the
 * graph, which keeps one take-off per landing and kind (the farthest from
 * the landing), so it can be longer than the physics' fastest: by about
 * 5% on random levels against a brute-force search over physics states
 * (`tilenav-bench surf --optimality`, docs/bench.md), never shorter.  The goal is a standing tile (any
 * node whose box has it as bottom-left tile); no state limit; an
 * unreachable goal gives the plan to the closest reachable node (Manhattan
 * distance in tiles, then cost) with TN_SUCCESS | TN_PARTIAL_RESULT |
 * TN_UNREACHABLE, and err says where the plan ends.  Once the heuristic
 * proves the goal unreachable (always without landmarks; with them, when
 * a landmark reaches one side and not the other), or past max(1024,
 * surfaces / 2) expanded nodes no goal surface is among those the start
 * reaches, the search stops: a breadth-first pass over the surfaces the
 * start reaches picks the closest tiles, and one ordinary search with all
 * of them as its goal finds the cheapest (the same plan cost and closeness
 * as searching everything reachable; `tilenav-bench surf` prints what
 * unreachable goals cost).  Zero allocations per
 * query (out of memory for the query index, the reference search answers:
 * see OUT OF MEMORY).
 * tn_surf_find_begin / _step / _end run the same search in slices of a
 * budget of nodes (a far query spread over frames); query objects
 * (tn_surf_query_*, QUERY OBJECTS) run any of them with a search state of
 * their own, for threads and for several sliced queries at once.
 * Expanded nodes are kept in order (tn_surf_expanded).  For big
 * levels edited rarely, tn_surf_build_shortcuts and tn_surf_build_labels
 * (below) answer the same plans without searching.
 *
 * EDITS (tn_surf_sync, tn_surf_edit).  One changed tile is repaired
 * locally: the surfaces of the rows it decides are made again and only the
 * searches whose footprint (a bitmap of the tiles they read) holds the tile
 * run again; the landmark tables are updated, not recomputed.  Several
 * changed tiles found by one sync: one such repair for them all (a search
 * that reads several runs once, the passes over the graph are made once:
 * edits left to pile up, then synced, cost less than syncing each;
 * 1024x1024, a row of 10 tiles: about 7x less), surely for up to max(2,
 * surfaces / 16) tiles (at most 32), and for up to 256 unless the searches
 * to run again are more than half the graph's; else a rebuild.  The result
 * equals a fresh build edge for edge; node and edge ids change
 * (tn_surf_generation tells, once a repair).
 *
 * THREAD SAFETY.  tn_surf_find, tn_surf_find_reference and the sliced
 * tn_surf_find_* write the graph's own query state, and edits, repairs,
 * rebuilds and loads write the graph: one thread at a time.  Query objects
 * (tn_surf_query, see QUERY OBJECTS) only read the graph: several threads
 * may query one graph at once, each with its own object, while nothing
 * writes it (`make tsan`: four threads, whole and sliced queries, with
 * landmarks, shortcuts and labels).  Different graphs are independent; no
 * global state.
 * profile.threads > 1 runs a build's or repair's searches on that many C11
 * threads, joined before return (the step function and allocator must then
 * be thread-safe; the step function gets its context through step_user,
 * see STEP FUNCTION); the graph is the same on any number of threads, and so
 * are tn_surf_save's bytes (footprints in surface order, tested).  Where
 * C11 threads are missing (the browser build) the caller's thread does it.
 * ThreadSanitizer does not follow C11 thrd_create (it crashes in a build
 * with threads > 1): build the library with -DTN_SURF_PTHREADS
 * -DTN_SURF_POOL_MIN=64 (POSIX threads, the same graph; as `make tsan`) to
 * run such a build under TSan.
 *
 * CANCEL (profile.cancel, with profile.cancel_user).  A full build - by
 * tn_surf_create, tn_surf_rebuild, or the rebuild of a tn_surf_sync or
 * tn_surf_edit (the profile the graph keeps) - calls cancel(cancel_user)
 * before each surface's searches and between its other phases (the row
 * masks, the sort, the query index's passes, each landmark table); once it
 * returns true the build stops at that poll: FAILURE | TN_CANCELLED, message
 * "surf: graph build cancelled", nothing leaked.  tn_surf_create then makes
 * nothing; a cancelled rebuild or sync leaves a graph with 0 nodes, out of
 * sync with every map, as one out of memory does: safe to destroy, rebuild
 * or sync (which builds again).  A cancelled tn_surf_rebuild keeps the
 * profile it was given (tn_surf_get_profile), its cancel and cancel_user
 * included: a later sync builds that profile and polls that callback, so
 * clear the flag first (with it still set, the sync is cancelled too).  A load and a local repair (one tile, or
 * the few of a sync: EDITS) do not poll; they cost a fraction of a build.
 * tn_surf_prepare_repairs polls the graph's callback too, before each
 * block it makes and between each MB of it that it touches: true stops
 * it with FAILURE | TN_CANCELLED, the graph and its pool as they were
 * (a world quitting after a background build does not wait for all
 * of the call's writing).
 * How soon: on a 1024x1024 generated level (tilenav-bench genmap --kind
 * platformer --size 1024 --seed 7; 1x2, jump 4, 8 landmarks; 11,159 polls)
 * the worst gap between two polls was 136 ms of thread CPU time, in the
 * passes after the searches (the sort, the query index; the setup before
 * them: 76 ms); during the searches polls come about every 0.5 ms.  A
 * cancel set from another thread 1.5 s into the build returned in 10 ms on
 * 1 thread, 15 ms on 2 (a loaded 2-core machine, where the whole build
 * took 6.3 s of CPU).  Cost: one call and a branch per surface (demo map:
 * 56; 1024x1024: about 11,000) and some 100 more: not measurable
 * (tilenav-bench surf, the demo build's median).
 * Threads: cancel is called on the building thread and, with
 * profile.threads > 1, on the library's worker threads too, but never two
 * calls at once (the workers call it under their lock); it is meant to
 * read a flag another thread sets (an atomic, or one behind a mutex) and
 * must not call back into the graph.  No global state: two builds with two
 * callbacks are independent.
 *
 * OUT OF MEMORY.  A build (tn_surf_create, _rebuild, _load, a sync's
 * rebuild) that runs out fails with OUT_OF_MEMORY (create and load make
 * nothing; a rebuild or sync leaves a graph with 0 nodes); a local repair
 * that runs out falls back to a rebuild.  When only the query index gets
 * no memory the graph itself is whole: the call returns TN_SUCCESS |
 * TN_PARTIAL_RESULT | TN_OUT_OF_MEMORY with a message, queries answer by
 * the reference search (the same plans, slower), the edges'
 * TN_SURF_EDGE_DOMINATED flags and the landmark tables are not up to date
 * and tn_surf_has_query_index is false, until a build or repair with
 * memory.
 *
 * MEMORY (tn_surf_memory: exactly the bytes the graph holds from the
 * caller's allocator at the time, itself included).  28 B x surfaces + 60 B x nodes
 * (node arrays, the searches' landing records) + 20 B x edges + 2 B x input
 * runs + 9 B x map tiles (terrain copy, summed-area table) + 20 B x searches
 * + 1 bit x the tiles of each search's bounding box (the footprints) + 32 B
 * x (map rows + 3) x (lattice width / 64 + 6) (row masks), arrays with room
 * for about 1/16 more; the query index 30 B x kept edges + 40 B x nodes +
 * 8 B x take-off nodes + 8 B x landmarks x nodes + 12 B x surfaces; per building thread the
 * scratch of its largest search, kept for repairs (demo map about 0.4 MB);
 * between operations, the big blocks the last repair freed (a pool the next
 * repair reuses); after tn_surf_prepare_repairs until the next repair or
 * build, instead, one block the size of each array of 256 KB or more a
 * repair makes anew (the node arrays, the query index's edge records and
 * arcs) and 8 more the size of a node array (at most 64; about what the
 * pool holds after any repair: 29-30% of the graph on 512x512 and
 * 1024x1024 levels, until that repair returns what it did not take).  All through the caller's
 * allocator, 16 B more a block; blocks of 256 KB or more rounded up to one
 * of 8 sizes per power of two.
 *
 * COST.  Demo map (80x45, 1x2 box, jump 4): a build costs about 10 ms of
 * CPU; a one-tile repair, a query, saving, loading, shortcuts and
 * labels: `tilenav-bench surf` prints the current numbers for the demo map
 * and big levels (docs/bench.md, `surf`).  Build and repair grow with the
 * search states (about 820 per surface there).  A custom step function
 * (profile.step or step_user_fn, even one that only calls tn_body_step)
 * makes builds and repairs far dearer: the builder cannot model it, so
 * instead of the bitset path (word operations on row masks, many
 * positions at once) it calls the function once per near-terrain state
 * and lattice position and replays every edge: about 22x on the demo map
 * (`tilenav-bench surf --custom-step` measures it).  Queries cost the same
 * (they never call it).
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

/* A step function (see PROFILE and STEP FUNCTION): one frame of the game's
 * physics, the shape of tn_body_step; tn_step_user_fn also gets the
 * profile's step_user pointer (the game's world, say). */
typedef void (*tn_step_fn)(tn_body *b, const tn_map *m, const tn_phys_params *p, tn_input in);
typedef void (*tn_step_user_fn)(tn_body *b, const tn_map *m, const tn_phys_params *p, tn_input in,
                                void *user);
/* A build's cancel callback (see CANCEL): true stops the build. */
typedef bool (*tn_surf_cancel_fn)(void *user);

typedef struct tn_surf_profile {
    int w, h;                     /* box size in tiles: 1..3 x 1..9 */
    tn_phys_params phys;          /* validated with tn_phys_validate */
    tn_step_fn step;              /* NULL = tn_body_step; a custom one walks one
                             * walk step per frame, on the ground and in the
                             * air, instant start and stop (see STEP
                             * FUNCTION) */
    tn_step_user_fn step_user_fn; /* or NULL; else the step function, called
                                   * with step_user (step must then be NULL) */
    void *step_user;              /* passed to step_user_fn as it is; not part
                                   * of the profile's identity
                                   * (tn_surf_same_profile).  The graph keeps
                                   * the one it was built with and passes it
                                   * to every later repair, sync, rebuild
                                   * with the same pointer, tn_surf_edge_valid
                                   * and debug draw: it must outlive the
                                   * graph (or rebuild with the new one) */
    int coyote;                   /* coyote jumps in walk-off edges: TN_SURF_COYOTE_FULL
                             * (the default), _LAST, _ALL or _NONE (see EDGES) */
    bool reference_build;         /* true: no free-step shortcut, every state is stepped
                           * on the map: the naive builder the tests compare
                           * the fast one with (the same landings, frames
                           * and kinds; which of equally fast take-offs an
                           * edge records can differ) */
    bool keep_all_landings;       /* true: an edge to every landing node (no
                             * thinning, see EDGES); false (default) */
    bool verify_edges;            /* true: the fast build replays every edge with the
                             * step function too (the naive one always does) */
    int threads;                  /* 0 or 1: builds and repairs run on the caller's
                             * thread; 2..64: the surfaces' searches run on up
                             * to that many threads (the caller's and C11
                             * threads it starts and joins), see THREAD
                             * SAFETY; the graph is the same either way.  Not
                             * part of the profile's identity
                             * (tn_surf_same_profile) */
    tn_surf_cancel_fn cancel;     /* NULL (the default): a build runs to its
                                   * end; else polled during full builds,
                                   * true stops them: see CANCEL */
    void *cancel_user;            /* passed to cancel as it is.  Neither is
                                   * part of the profile's identity
                                   * (tn_surf_same_profile); the graph keeps
                                   * both, like step_user, for the full
                                   * rebuilds of its later syncs and edits:
                                   * cancel_user must outlive the graph */
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

/* A w x h profile with physics *p (NULL: tn_phys_default(4)), the default
 * step function and TN_SURF_COYOTE_FULL, every other field zero. */
tn_surf_profile tn_surf_profile_make(int w, int h, const tn_phys_params *p);

enum { TN_SURF_JUMP = 0, TN_SURF_DROP = 1, TN_SURF_WALKOFF = 2 };

/* Input bits of a run. */
enum { TN_SURF_IN_LEFT = 1, TN_SURF_IN_RIGHT = 2, TN_SURF_IN_DOWN = 4, TN_SURF_IN_JUMP = 8 };

typedef struct tn_surf_surface {
    int32_t row;    /* tile row under the feet (feet at y = row * tile_px) */
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
    int expanded; /* nodes expanded (an unreachable goal: by all its searches) */
    int frames;   /* frames the plan takes, -1 if none: its cost in the
                   * search plus `releases` */
    int end_node; /* last node of the plan */
    int legs;     /* legs of the plan (before truncation) */
    int releases; /* frames of jump let go between an edge that lands with
                   * jump held and a jump from its landing node (with no
                   * walk between); the search does not price them, so of
                   * two plans of equal cost either can have more: compare
                   * plans (search, shortcuts, labels) by frames - releases,
                   * which is equal; frames can differ by these */
} tn_surf_stats;

typedef struct tn_surf tn_surf;
typedef struct tn_surf_query tn_surf_query; /* a query object (QUERY OBJECTS) */

/* Build the graph of `prof` on map `m`.  INVALID_PARAM (with a message) for
 * an out-of-range profile; OUT_OF_MEMORY, or a partial success when only
 * the query index got no memory (see OUT OF MEMORY); CANCELLED when
 * profile.cancel stopped it (see CANCEL).  A map with no standing place
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
 * does (a partial success for the query index alone: OUT OF MEMORY); so
 * does CANCELLED (profile.cancel, see CANCEL). */
tn_status tn_surf_rebuild(tn_surf *g, const tn_map *m, const tn_surf_profile *prof, tn_error *err);
void tn_surf_destroy(tn_surf *g);
/* SAVE AND LOAD: bake a big level's graph once and load it in a fraction of
 * its build.  tn_surf_save writes g (as of its last build or repair; a
 * repaired graph saves the edges, runs and footprints a fresh build of its
 * map saves, in the same bytes, and the landmark tables of the landmarks
 * it kept: a fresh build may choose others, see docs/surf.md) into
 * buf: with buf NULL only *size (the bytes needed) is set; BUFFER_TOO_SMALL
 * when cap < *size.  The bytes (a versioned little-endian format with a
 * checksum, see tn_surf_io.c) hold what the searches made: edges, input
 * runs, footprints; and the landmark setting and tables, which a load
 * proves exact in one pass over the arcs instead of searching them again
 * (the landmarks' nodes are taken as saved; a node saved twice, as builds
 * before 2026-12-07 could, makes the load choose them again; so do their
 * saves of a graph of fewer nodes than its landmark setting, which held
 * the setting's count of tables: they load, tested).
 * tn_surf_load makes the graph again from them and map m
 * (surfaces, node arrays, the query index, as a build makes them): the same
 * graph as tn_surf_create on that map, edge for edge, ready for queries and
 * edits.  m must have the terrain the graph was saved with and prof the
 * same identity (tn_surf_same_profile; a custom step function must be the
 * same function: only whether there is one is stored); else, or for data
 * cut short, changed (a 64-bit FNV-1a checksum over the data: it finds
 * accidents, not a deliberate change with the checksum made again) or out
 * of range, PARSE_ERROR with a message that
 * starts with `name` (the file's, say; NULL: "surf", as in "surf: surface
 * graph data: the checksum does not match ...") and names the
 * problem, and nothing is made.  Every index is checked; the edges' inputs
 * are not replayed (tn_surf_edge_valid does that per edge).  Query
 * shortcuts and labels are not saved (build them again).  The caller owns
 * buf and data.  Cost: see `tilenav-bench surf` ("saved"). */
tn_status tn_surf_save(const tn_surf *g, void *buf, size_t cap, size_t *size, tn_error *err);
tn_status tn_surf_load(const tn_map *m, const tn_surf_profile *prof, const void *data, size_t size,
                       const char *name, const tn_allocator *a, tn_surf **out, tn_error *err);
/* Rebuild when the map's revision (or address) changed since the build
 * (one changed tile: a local repair, see EDITS).  The tiles are compared
 * with the graph's own copy, so m may also be another map of the same size
 * (the graph built on a copy of m, on another thread say, the copy
 * destroyed since: only its address is kept): a few changed tiles are then
 * repaired locally too, none changed costs one pass over the tiles; a map
 * of another size is built in full (counted in tn_surf_repair_counts'
 * full).  The graph then belongs to m (tn_surf_in_sync).  Out of memory:
 * see OUT OF MEMORY (a failure, or a partial success for the query index
 * alone). */
tn_status tn_surf_sync(tn_surf *g, const tn_map *m, tn_error *err);
/* Whether g is in sync with m: built or last synced for this map (its
 * address and size) at its current revision (tn_map.revision, which every
 * tn_map_set_tile / _set_mark bumps).  False: plans may cross removed
 * ground or miss new paths; call tn_surf_sync(g, m).  tn_surf_find takes
 * no map and cannot tell; tn_bot_goto and the bot's re-plans refuse a graph
 * out of sync (INVALID_PARAM, tn_bot_plan_error).  A direct write to
 * m->tile that did not bump the revision is not seen (tn_surf_edit).  The
 * graph keeps a pointer to its map: after destroying that map, a new map
 * that happens to get the same address and revision (a fresh map starts at
 * revision 0) looks in sync; bring a graph to another map with
 * tn_surf_sync or tn_surf_edit (they compare every tile when the map's
 * address differs) or tn_surf_rebuild.  A build that
 * failed (out of memory) leaves g out of sync with every map, so the next
 * sync builds again.
 * tn_surf_map_revision: the revision g was built or synced for.  O(1). */
bool tn_surf_in_sync(const tn_surf *g, const tn_map *m);
uint32_t tn_surf_map_revision(const tn_surf *g);
/* The map tile (x, y) changed: like tn_surf_sync, but the tiles are compared
 * with the graph's copy even when m's revision did not move (a direct write
 * to m->tile), so every changed tile is found, (x, y) or not.
 * INVALID_PARAM (g unchanged) for (x, y) outside m; out of memory as
 * tn_surf_sync. */
tn_status tn_surf_edit(tn_surf *g, const tn_map *m, int x, int y, tn_error *err);
/* Make the next local repair cost what later ones do.  A repair makes its
 * query index (and a few other arrays) anew and keeps the big blocks it
 * frees for the next repair (MEMORY); after a build there are none, so the
 * first repair's new arrays are fresh pages, and their page faults made it
 * several times dearer than the next (512x512 and 1024x1024 generated
 * levels: 4-6x).  This call makes what a repair takes from the pool: one
 * block the size of each array of 256 KB or more a repair makes anew while
 * it holds the old one (node arrays, the query index's edge records and
 * arcs) and 8 more the size of a node array for its scratch (largest
 * first, at most 64; blocks the pool already holds count), and touches
 * every page, so the first repair finds them as later ones find the last
 * repair's (the arrays a repair keeps, edges, runs, footprints, landmark
 * tables, get none).  Call it after a build, on the
 * thread that built (a background thread, say; any thread, the graph not
 * in use elsewhere: THREAD SAFETY) before edits come; the graph itself is not changed (plans, ids, tn_surf_save's bytes).  The
 * blocks are counted in tn_surf_memory until the next repair (which
 * returns those it did not take, as any repair does) or build (which
 * returns them all): about what the pool holds after a repair anyway
 * (1024x1024, as measured in docs/perf.md: 226 MB -> 292 MB, then 294 MB
 * after the repair, 295 MB without the call).  Cost: writing those bytes (1024x1024: about 0.2 s of CPU on
 * a loaded machine; the first repair then costs about what later ones do,
 * see docs/perf.md).  INVALID_PARAM for NULL;
 * OUT_OF_MEMORY when the caller's allocator refuses, CANCELLED when the
 * profile's cancel callback says stop (polled before each block and
 * between each MB touched, see CANCEL): g unchanged, nothing kept. */
tn_status tn_surf_prepare_repairs(tn_surf *g, tn_error *err);
/* Edits since creation repaired locally / by a full rebuild. */
void tn_surf_repair_counts(const tn_surf *g, int *local, int *full);
/* The surfaces (ids, ascending) whose searches the last local repair ran
 * again: those whose footprints hold a changed tile, and new or changed
 * ones and those standing next to one (EDITS); up to cap written to out
 * (NULL: none), the count returned (0 before any repair and after a build,
 * rebuild or load), and in *tiles (NULL: not asked) the changed tiles it
 * repaired (0 likewise).  What an edit cost is about their searches plus
 * one pass over the graph; a debug view can show them.  O(count). */
int tn_surf_last_repair(const tn_surf *g, int *out, int cap, int *tiles);
/* The profile as the caller gave it (its tile_px, not the 16-px one built). */
const tn_surf_profile *tn_surf_get_profile(const tn_surf *g);
/* Whether profiles a and b make the same graph: box, physics (bitwise),
 * step function (step and step_user_fn, by address), coyote setting,
 * reference_build, keep_all_landings and verify_edges.  Not threads nor
 * step_user: the same step function with another user pointer (another
 * world object of the same game) is taken to make the same graph.  A or b
 * NULL (tn_surf_get_profile of a NULL graph, say): false. */
bool tn_surf_same_profile(const tn_surf_profile *a, const tn_surf_profile *b);

/* Incremented by every (re)build: node and edge ids of older builds are void. */
uint32_t tn_surf_generation(const tn_surf *g);
int tn_surf_node_count(const tn_surf *g);
int tn_surf_surface_count(const tn_surf *g);
int tn_surf_edge_count(const tn_surf *g);
const tn_surf_surface *tn_surf_surfaces(const tn_surf *g);
/* The edges, in take-off node order (a node's edges are consecutive, the
 * nodes in id order), as every build, repair and load leaves them. */
const tn_surf_edge *tn_surf_edges(const tn_surf *g);
size_t tn_surf_memory(const tn_surf *g);
/* Node -> surface, row, lattice j, x in px.  A node id out of range (for
 * one of an older build: see tn_surf_generation) gives surface -1, row and
 * j -1.  row or j may be NULL (not asked). */
int tn_surf_node_surface(const tn_surf *g, int node);
void tn_surf_node_pos(const tn_surf *g, int node, int *row, int *j);
float tn_surf_lattice_x(const tn_surf *g, int j);
/* Lattice index of a pixel x (nearest), clamped to -2^30 .. 2^30 (NaN:
 * -2^30), where tn_surf_node_at finds no node. */
int tn_surf_lattice_j(const tn_surf *g, float x);
/* Node at (row, j) or -1. */
int tn_surf_node_at(const tn_surf *g, int row, int j);
/* Node of a standing body (its x rounded to the lattice), or -1 (also for
 * a body outside the map or at a non-finite position).  The body's size is
 * not checked against the profile's box: one of another size gets the node
 * under its left edge and feet, which its own box may not fit (tn_bot_goto
 * refuses such a body). */
int tn_surf_node_of_body(const tn_surf *g, const tn_body *b);
/* First node whose box has bottom-left tile (tx, ty), or -1 (also outside
 * the map). */
int tn_surf_node_of_tile(const tn_surf *g, int tx, int ty);

/* Input run r of the graph: *in and its count (0, no input, for an r out
 * of range). */
void tn_surf_run(const tn_surf *g, uint32_t r, tn_input *in, int *count);
/* Replay edge e from its take-off with the graph's step function on map m:
 * true when it lands on its landing node after exactly its frames. */
bool tn_surf_edge_valid(const tn_surf *g, const tn_map *m, int e);
/* Edge e's inputs replayed from body *b as it is (px; any x, not only its
 * take-off's lattice x: a body pushed off the lattice, see tn_bot) with the
 * graph's step function on map m, as a bot replays them: every input, then
 * none until it stands (at most TN_SURF_MAX_AIR frames more); *b is left
 * there.  The frames until then, or -1 when it does not stand (or e is out
 * of range); *left_ground (may be NULL) the frame after which it was first
 * in the air (1 for a jump), -1 never.  The caller compares where (tn_bot
 * takes off when it leaves the ground as the edge does, give or take a
 * frame, and ends on the edge's landing surface).  O(the frames), no
 * allocation. */
int tn_surf_edge_replay_body(const tn_surf *g, const tn_map *m, int e, tn_body *b,
                             int *left_ground);
/* One frame of the graph's physics on body *b (px, the caller's): its step
 * function with its profile's physics, as tn_surf_edge_replay_body runs
 * them, with input `in`.  What a bot walks before it replays an edge (a
 * step off a ledge's sliver, see tn_bot) is then checked with the same
 * physics.  Nothing for a NULL argument.  O(1), no allocation. */
void tn_surf_step_body(const tn_surf *g, const tn_map *m, tn_body *b, tn_input in);
/* The tiles edge e's trajectory touches (the box's tiles over every frame,
 * take-off and landing included: columns x0..x1, rows y0..y1), by replaying
 * it on map m, O(its frames); false when e is out of range or no longer
 * lands where it did (tn_surf_edge_valid).  The graph does not store them:
 * nothing in a build or a query needs them. */
bool tn_surf_edge_box(const tn_surf *g, const tn_map *m, int e, int *x0, int *y0, int *x1, int *y1);

/* Plan from node `start` to the standing tile (gx, gy) (already snapped to a
 * standing tile).  Legs go to `out` (cap entries; PARTIAL_RESULT |
 * BUFFER_TOO_SMALL when more were needed, with a message).  out NULL asks
 * for the stats only: no legs, *count 0 and no BUFFER_TOO_SMALL whatever
 * cap is (as tn_path_find);
 * count and stats may be NULL.  Status as in the header comment; FAILURE|INVALID_PARAM
 * with a message for a bad start, a goal outside the map or where no node
 * of this profile stands, or cap < 0 with out non-NULL; every failure
 * writes *count 0 and stats as no plan (frames and end_node -1). */
tn_status tn_surf_find(tn_surf *g, int start, int gx, int gy, tn_surf_leg *out, int cap, int *count,
                       tn_surf_stats *stats, tn_error *err);
/* The same query by the reference search (tests): A* node by node, every
 * walk step an arc, the geometric heuristic only; same status and plan cost
 * as tn_surf_find, which is checked against it (tests/test_surf). */
tn_status tn_surf_find_reference(tn_surf *g, int start, int gx, int gy, tn_surf_leg *out, int cap,
                                 int *count, tn_surf_stats *stats, tn_error *err);
/* The same query in slices, to spread a far query on a big level over
 * frames (as Detour's sliced find): tn_surf_find_begin checks the request
 * as tn_surf_find does and starts the search (TN_IN_PROGRESS; TN_SUCCESS
 * when it is already over: shortcuts or labels answered, or no query
 * index); each tn_surf_find_step expands at most max_nodes (>= 1) nodes
 * (*done_nodes: how many; done_nodes may be NULL) and returns
 * TN_IN_PROGRESS until the search is over, then TN_SUCCESS;
 * tn_surf_find_end searches what is left, if anything, and gives the
 * legs, count, stats, status and message tn_surf_find gives for the same
 * start and goal (the same plan: tested; an unreachable goal's
 * closest-place search is sliced too).  One sliced query per graph at a
 * time (one per query object with tn_surf_query_begin .. _end); the
 * search state is the graph's query scratch, so any other
 * query on the graph, or an edit, repair, rebuild, landmarks, shortcuts
 * or labels, ends it: the next
 * step or end fails with FAILURE | INVALID_PARAM and a message (begin
 * again), as do a step or end with none under way.  Zero allocations.
 * Cost: a step of k nodes about k x 0.3-1.5 us on a 1024x1024 level (the
 * search's cost per node; `tilenav-bench surf` prints the steps' times). */
tn_status tn_surf_find_begin(tn_surf *g, int start, int gx, int gy, tn_error *err);
tn_status tn_surf_find_step(tn_surf *g, int max_nodes, int *done_nodes, tn_error *err);
tn_status tn_surf_find_end(tn_surf *g, tn_surf_leg *out, int cap, int *count, tn_surf_stats *stats,
                           tn_error *err);
/* QUERY OBJECTS (as Detour's dtNavMeshQuery): a query's search state apart
 * from the graph.  tn_surf_find and tn_surf_find_begin .. _end use the
 * graph's own and so write the graph; a tn_surf_query made for graph g
 * holds its own search state and only reads g, so several threads may
 * query one graph at once, each with its own object (an object is not
 * shared between threads), and each object can have a sliced query
 * under way while others run.  The answers are tn_surf_find's (the same
 * status, legs, stats and messages, shortcuts and labels included:
 * tested).  Edits, repairs, rebuilds, loads, tn_surf_set_landmarks and
 * building shortcuts or labels write g: no query on it may run meanwhile.
 *  - tn_surf_query_create: an object for g, with allocator a (NULL:
 *    malloc); queries on it need g alive (tn_surf_query_destroy does not
 *    read g: it may come after tn_surf_destroy).  INVALID_PARAM for NULL
 *    g or out; OUT_OF_MEMORY.
 *  - tn_surf_query_find: as tn_surf_find.  Zero allocations while the
 *    graph is no bigger than when the object last grew: after an edit
 *    leaves the graph with more nodes or surfaces than the object holds
 *    (it keeps 1/16 more), after shortcuts or labels are built (unless
 *    its scratch fits them: made for as many keys and core keys, and
 *    with the labels' arrays when there are labels; so a refused build
 *    or the same shortcuts built again grow nothing; tested), or once
 *    the graph is left without its query index (OUT OF MEMORY: the
 *    reference search's state), the next query grows it once (FAILURE |
 *    OUT_OF_MEMORY with a message when it cannot; nothing else changes:
 *    the object keeps the arrays it had, its tn_surf_query_memory too,
 *    and answers again once the graph fits them (an edit undone) or a
 *    later grow succeeds; tested).
 *  - tn_surf_query_fit: that growth now, for the graph as it is (TN_OK
 *    and no allocation when the object fits): a caller that edits, syncs
 *    or rebuilds the graph off the frame calls it there, so that queries
 *    in the frame (a bot's plan, tn_bot_set_query) never allocate.  Ends
 *    nothing a graph change did not end already.
 *  - tn_surf_query_begin / _step / _end: the sliced query, as
 *    tn_surf_find_begin / _step / _end, one per object; an edit, repair,
 *    rebuild, landmarks, shortcuts or labels since begin end it with a message,
 *    as does another query on the same object (not one on another
 *    object or on the graph's own state).
 *  - tn_surf_query_expanded: the nodes its last query expanded, as
 *    tn_surf_expanded (count may be NULL).
 *  - tn_surf_query_serial: a number that changes with every
 *    tn_surf_query_find and _begin on q (0 for NULL): callers that share
 *    an object tell by it whether the sliced query under way is still the
 *    one they began (a begin by another caller replaces it, and its steps
 *    would go on with the other's search).
 * MEMORY (tn_surf_query_memory: the bytes it holds, itself included):
 * about 2.1 KB for the object, + 52 B x (nodes + 1) + 28 B x (surfaces +
 * 1), both with 1/16 more, + 16 B
 * x nodes more when the graph has no query index (the reference search's
 * state); with shortcuts 56 B x keys + 8 B x core keys (labels:
 * 12 B x keys + 16 B x core keys more).  1024x1024 generated level: about
 * 21 MB (`tilenav-bench surf` prints it).  Cost: a query costs what
 * tn_surf_find costs. */
tn_status tn_surf_query_create(const tn_surf *g, const tn_allocator *a, tn_surf_query **out,
                               tn_error *err);
void tn_surf_query_destroy(tn_surf_query *q);
size_t tn_surf_query_memory(const tn_surf_query *q);
tn_status tn_surf_query_fit(tn_surf_query *q, tn_error *err);
const tn_surf *tn_surf_query_graph(const tn_surf_query *q);
tn_status tn_surf_query_find(tn_surf_query *q, int start, int gx, int gy, tn_surf_leg *out, int cap,
                             int *count, tn_surf_stats *stats, tn_error *err);
tn_status tn_surf_query_begin(tn_surf_query *q, int start, int gx, int gy, tn_error *err);
tn_status tn_surf_query_step(tn_surf_query *q, int max_nodes, int *done_nodes, tn_error *err);
tn_status tn_surf_query_end(tn_surf_query *q, tn_surf_leg *out, int cap, int *count,
                            tn_surf_stats *stats, tn_error *err);
const int32_t *tn_surf_query_expanded(const tn_surf_query *q, int *count);
uint32_t tn_surf_query_serial(const tn_surf_query *q);
/* Landmarks of the query heuristic (see QUERY): k = 1..16, 0 none, -1 the
 * default (8 on graphs of 65536+ nodes, else none); the next builds keep
 * the choice.  Costs k Dijkstra searches each way now and on every
 * (re)build; answers do not change, only the search effort (tests, tuning).
 * Any k < 0 counts as -1 (the default), k > 16 as 16
 * (tn_surf_landmark_count tells what the graph has).  The landmarks are
 * distinct nodes, so a graph of fewer nodes than k gets one per node
 * (the count, the tables and tn_surf_memory are for those; the heuristic
 * stays admissible: each table holds its landmark's exact costs).  On a
 * graph whose parts do not reach one another, every other landmark goes
 * where it covers the most nodes not yet covered, so parts get them by
 * size; with fewer landmarks than about twice the parts one can get none
 * (four equal closed rooms, 4 or 5 landmarks: one room none, another two;
 * answers stay exact, queries in that room expand about 3x the nodes;
 * from 6 every room has one).  The query index is made again: out of memory
 * leaves the graph without it (tn_surf_has_query_index false, 0
 * landmarks; queries answer by the reference search, see OUT OF MEMORY)
 * until the next build or repair with memory. */
void tn_surf_set_landmarks(tn_surf *g, int k);
/* Whether the graph has its query index (false only after it ran out of
 * memory for it: see OUT OF MEMORY). */
bool tn_surf_has_query_index(const tn_surf *g);
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
 * counted in tn_surf_memory).  Cost: the contraction is far dearer than
 * a build (one to two minutes at 1024x1024); `tilenav-bench surf` prints it,
 * the memory and the same queries with and without.  Not thread-safe with
 * queries on the same graph; zero allocations per query.
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
 * label entry (about 250 entries a key on a 1024x1024 level) + 28 B a key,
 * in tn_surf_shortcuts_memory.  Build: one search per key each way,
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
/* Nodes the last query expanded, in order (their number in *count; count
 * may be NULL).  The array is the graph's: valid until the next query,
 * edit, rebuild or load of g (copy it to keep it).
 * For an unreachable goal: those of the search that ended the plan (to the
 * closest tile, see QUERY), after the nodes expanded until the goal was
 * proven unreachable were dropped. */
const int32_t *tn_surf_expanded(const tn_surf *g, int *count);

/* Debug drawing: surfaces (lines at the feet), edges as trajectories (every
 * `edge_stride`-th edge, 0 = none), and a plan (legs) from `start`.  g or
 * dd NULL: nothing drawn; m NULL: no trajectories (they are replayed on
 * m), the rest drawn. */
enum { TN_SURF_DRAW_SURFACES = 1, TN_SURF_DRAW_EDGES = 2, TN_SURF_DRAW_PLAN = 4 };
void tn_surf_debug_draw(const tn_surf *g, const tn_map *m, const tn_debug_draw *dd, int what,
                        int edge_stride, int start, const tn_surf_leg *legs, int nlegs);
/* The edges that take off inside the rectangle x0..x1, y0..y1 (world
 * pixels, bounds included: a game's view, with a margin for arcs that
 * enter it), drawn as tn_surf_debug_draw draws edges: min(count,
 * max_edges) of them, spread evenly (in edge order, those of ranks
 * floor(k count / min(count, max_edges)), k = 0, 1, ...): a view on a
 * large graph shows its own edges, where a stride over the whole graph
 * leaves a few there.  An edge takes off where the feet of its standing
 * box are centred: (tn_surf_lattice_x(j) + box width / 2, row x tile_px).
 * Returns how many edges take off inside (count), also when nothing is
 * drawn: dd NULL or max_edges <= 0.  An inverted (x0 > x1 or y0 > y1) or
 * NaN rectangle holds none; g or m NULL: 0, nothing drawn.  m is the map
 * the graph was built or synced for (the arcs are replayed on it).
 * Memory: none; it only reads g (and calls a custom step function, see
 * STEP FUNCTION; threads: tn_debug.h).  Cost: a pass over the map's rows,
 * two binary searches per surface on a row inside (the edges inside are
 * runs of consecutive ids), then one replay of the physics per edge drawn
 * (a line per frame): independent of the edge count, though not of the
 * map's width (every surface on the view's rows is searched, also those
 * left or right of it); at 1024x1024, 2.25 M edges, it used to pass over
 * all of them twice a call. */
int tn_surf_debug_draw_edges_in(const tn_surf *g, const tn_map *m, const tn_debug_draw *dd,
                                float x0, float y0, float x1, float y1, int max_edges);
/* The surfaces whose feet line meets the rectangle x0..x1, y0..y1 (world
 * pixels, bounds included), drawn as tn_surf_debug_draw draws surfaces;
 * returns how many (dd NULL: counted only).  An inverted or NaN rectangle
 * or g NULL: 0; infinite bounds are fine (-inf..inf: every surface).  A
 * graph left with 0 nodes (a cancelled or failed rebuild) has none.
 * Memory: none; it only reads g and never calls the step function
 * (threads: tn_debug.h).  Cost: a pass over the map's rows and the
 * surfaces of the rows inside. */
int tn_surf_debug_draw_surfaces_in(const tn_surf *g, const tn_debug_draw *dd, float x0, float y0,
                                   float x1, float y1);

#ifdef __cplusplus
}
#endif

#endif
