/* SPDX-License-Identifier: Zlib */
/* tn_bot.h - a bot that follows platformer A* paths by pressing keys.
 *
 * The bot never moves its body: each step it returns the tn_input a player
 * would produce (left, right, down, jump) and the caller feeds it to
 * tn_body_step, so a bot can do exactly what a player can, no more.
 *
 * PLANNING.  tn_bot_goto() snaps the requested tile to where the character
 * can stand (a goal in the air walks down to the first tile with ground
 * under the box, but with a graph a tile where the graph stands a box over
 * a ledge's edge is kept, see tn_bot_goto: the classic finder's boxes are
 * whole tiles, none stands there; a goal inside a block moves up onto it;
 * the box is shifted left so the goal tile is under it when a wall is in
 * the way) and plans
 * with tn_path (filtered path copied into the bot's own buffer, so any number
 * of bots share one finder).  The start is the body's tile; when the body
 * stands on a ledge edge that tile has no ground under the box, so the tile
 * one to the right, then one to the left, is tried.  A body in the air does
 * not plan: it keeps following its old path (or lets go) and plans on landing.
 * With a graph, so does a body whose ground an edit took away (its
 * on_ground, the last step's, still true over nothing: it is about to
 * fall), for a goal or a re-plan alike.
 *
 * UNITS.  Tiles come from the paths, pixels from the body; the bot converts
 * with the params' tile_px (tn_phys.h).  The pixel tolerances below are
 * quoted at 16 px per tile and are fractions of a tile (TN_PX16), so with
 * tile_px and every pixel parameter multiplied by a power of two the bot
 * presses exactly the same keys (tested at 8, 16 and 32 px).  The graph
 * planner (tn_bot_set_graph) follows tn_surf, whose tiles are 16 x 2^n px
 * (tn_surf.h UNITS): its bot replays edges exactly at those sizes.
 *
 * JUMPS.  For every height 1..M the bot simulates tn_body_step on a private
 * one-column map: the fewest steps of holding jump whose apex clears the
 * height by the bot's own hold margin (4 px at 16-px tiles; not the
 * physics' TN_JUMP_MARGIN of T/32, by which a full jump's apex clears
 * jump_height), or the full jump for M.  The table is
 * rebuilt whenever the physics parameters change (the jump-height slider).
 * At a take-off the height is the path's highest node before the next
 * standing node.
 *
 * FOLLOWING, per step (the classic grid-platformer follower):
 *  - previous, current and next node; the current node is reached on x when
 *    the body passed it relative to the previous node or is within half a
 *    walking step (4/3 px: a step is 8/3 px, so input alone can always get
 *    that close; that is the bot's "snap"), and on y likewise with one pixel;
 *    a standing node is not reached while airborne, nor at another height;
 *  - move toward the current node on x; when it is reached on x but not on y
 *    and is in the air (rising or falling toward it), move on toward the next
 *    node as soon as the tiles between the body and the next node's box are
 *    free of blocks; skip the current air node when the next one is already
 *    reached;
 *  - press Down on a one-way platform when the next node is straight below;
 *  - jump at a take-off whose next node is higher; hold it for the table's
 *    steps (releasing one step first when the key is still down);
 *  - landing somewhere the path did not say (a bumped head, a short jump)
 *    re-plans at once; an edit of the map or a change of the character's
 *    size or physics re-plans on the ground;
 *  - float drift: walking adds 8/3 px per step in float, so x can end a
 *    hair (~1/1000 px) past a tile edge, which the physics (1/1000 px
 *    collision slack) counts as touching the next column.  Before a jump,
 *    a drop or a walk-off that such a hair would stop (the physics is asked:
 *    tn_body_box_blocked along the rise, on_oneway_only), and while rising
 *    when tn_body_step on a copy says the head would meet a block, the bot
 *    takes one step away from the grazed column when that frees the move
 *    (with a walk step that divides no tile, e.g. 150 px/s at 16 px: 2.5 px,
 *    there is no lattice and a body stands up to a step past a tile edge:
 *    then within a step, as for a pushed body);
 *  - pushed off the walk lattice (knock-back, or anything else that moves
 *    the body but its inputs: walks keep the offset, so the box overlaps
 *    one column more than the plan's), or walking with no lattice (a step
 *    that divides no tile, as 150 px/s at 16 px): where the path goes down and the
 *    body, at the node within the snap, stands on a sliver of the column
 *    beside, it takes the one step after which it falls, or presses Down
 *    on one-way tiles, or steps onto them; a rise that meets a block from
 *    where it stands starts a step beside when that frees it (as for
 *    float drift); the column test in the air counts the column a step
 *    reaches into (for the one the box all but covers already, as for the
 *    aligned body at that tile edge), unless a block of it beside the box
 *    stops the step on the edge (a wall's contact); with no lattice, in
 *    the air over the column a path goes straight down or up, a part of
 *    a step off it, it takes the step toward it that a wall stops on its
 *    edge (into a shaft the box's width), or, falling past a block of the
 *    column it grazes, the step across when the column on the other side
 *    is free down to the node.  Where neither works
 *    (the way needs the plan's columns exactly: a hole or shaft the box's
 *    width), when stuck, and when a
 *    jump comes down on the tile it was pressed on or a landing off the
 *    path is on the tile of the last one (the same failure again, from a
 *    take-off off the lattice), it first
 *    walks into the nearer wall of its ground, up to 64 tiles away (a
 *    wall stops the box on a tile edge: on the lattice again), and plans
 *    there ("back on the lattice"); with no such wall it walks off an end
 *    of its ground and, in the air (after 0..8 frames of no key), back
 *    into the ledge's side, which stops the box on a tile edge too, then
 *    falls with no key and plans on landing; off an end with no side (a
 *    one-way platform's) pressing back, it lands off the lattice and walks
 *    into the nearer wall of the ground it lands on, then plans: only
 *    where the classic planner has a whole path from that landing or wall
 *    (the fewest frames of both ends and waits; at most 4 searches, with
 *    pf); with neither it goes on as before (it looks once a plan:
 *    tn_body_step on a copy, up to 2 x 384 steps, 18 flights of at most
 *    600 frames and from 2 landings 2 x 384 steps each; not again from
 *    the tile where the last walk that got there began, for a goal), and a walk held
 *    from its wall for stuck_steps frames more
 *    than it takes counts as stuck.  Only where the walking step divides a
 *    tile (the default 8/3 px of 16: a lattice), or, with no lattice, on
 *    a sliver beside a way down that no step leaves: there a wall, or a
 *    landing by a ledge's side, counts only a whole number of steps from
 *    the way down (a walk from a tile edge reaches no other x there), and
 *    a body on a tile edge does none of it; a body on the lattice
 *    never does any of this (measured in docs/surf.md, "The classic bot
 *    pushed").  A push into a block (a knock-back toward a wall, or into
 *    a ledge's corner in a fall) is undone by the physics' next step
 *    (tn_phys.h, Collisions), so the bot never plans from inside a block;
 *  - stuck: no movement for 20 steps re-plans toward the final goal; after 4
 *    such re-plans without reaching a node, or 48 re-plans for one goal, the
 *    bot stops in STUCK.  An unreachable goal (also after an edit) gives a
 *    partial path to the closest standing tile (PARTIAL), or NO_PATH when the
 *    bot is already there: a final state, never a loop.
 *
 * MEASURED (tilenav-bench arrival --levels 500 --goals 10, every character
 * size 1x1..3x3 and jump height 1..8, paths the finder completes): 100.00% of
 * 5,000 paths arrive with seeds 1, 2 and 3, median 126-128 steps (2.1 s) per
 * trip (docs/bench.md has the current run).  On edited maps (a fuzzer: demo,
 * generated and small random maps with random edits) the classic follower
 * misses about 15 landings a million found paths, mostly a sideways move in
 * a fall that a block's corner delays past the model's budget (it then plans
 * again, or ends PARTIAL); the graph bot replays exactly what was simulated
 * and missed none of 5.1 million.  On maps/demo.map, 32 extra bots on random
 * trips: 100% arrive.
 *
 * Cost: a step is O(1) plus the column test (a few tile reads); planning is
 * one tn_path_find (classic), one tn_surf_find (graph), or in slices one
 * tn_surf_query_step of the bot's budget a step (tn_bot_set_query).
 * Memory: sizeof(tn_bot) + 18 * path_cap bytes (6 for the path's nodes,
 * 12 for the graph planner's legs; path_cap = TN_BOT_PATH_CAP by default,
 * at most TN_BOT_PATH_CAP_MAX).  No allocation after tn_bot_create by the
 * bot itself; a query object it plans with
 * (tn_bot_set_query) grows once on the first plan after its graph grew
 * (tn_surf.h QUERY OBJECTS): call tn_surf_query_fit after editing or
 * syncing the graph to keep tn_bot_step free of allocations.
 *
 * Thread safety: a bot and its tn_path (or query object) belong to one
 * thread at a time; the map and the physics parameters are only read and
 * may be shared, and so is a graph the bots plan on with query objects of
 * their own (tn_bot_set_query), while nothing writes it (`make tsan`: four
 * bots on four threads, whole and sliced plans, end their trips as on one).
 */
#ifndef TN_BOT_H
#define TN_BOT_H

#include "tn_path.h"
#include "tn_phys.h"
#include "tn_surf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_BOT_PATH_CAP 512
#define TN_BOT_PATH_CAP_MAX (1 << 20) /* 18 MB of path and legs */
#define TN_BOT_STUCK_STEPS 20
#define TN_BOT_RUNS_MAX 256 /* input runs of one graph edge the bot can replay */

typedef enum tn_bot_state {
    TN_BOT_IDLE = 0, /* no goal */
    TN_BOT_MOVING,   /* following a full path */
    TN_BOT_ARRIVED,  /* standing at the goal */
    TN_BOT_NO_PATH,  /* no plan to follow: the goal is unreachable and no
                        closer tile exists, or the classic search stopped
                        at its limit with no tile closer than the start
                        found (the plan status then has TN_LIMIT_REACHED,
                        not TN_UNREACHABLE: the goal may be reachable, and
                        tn_path's message says the search stopped at its
                        limit), or no plan could be made (a
                        graph out of sync with the map, physics the jump
                        model refuses, a finder that does not fit or none:
                        tn_bot_plan_error says which; tn_bot_goto again) */
    TN_BOT_PARTIAL,  /* going to (or standing at) the closest tile to an unreachable goal */
    TN_BOT_STUCK,    /* gave up after repeated re-plans without progress */
} tn_bot_state;

const char *tn_bot_state_name(tn_bot_state s); /* "idle", "moving", ... */

typedef struct tn_bot_config {
    int path_cap;    /* filtered nodes kept; 0 = TN_BOT_PATH_CAP */
    int heuristic;   /* TN_PATH_OPTIMAL or TN_PATH_FAST */
    int max_expand;  /* search limit per plan; 0 = the finder's */
    int stuck_steps; /* 0 = TN_BOT_STUCK_STEPS */
    int max_replans; /* per goal before STUCK; 0 = 48 */
} tn_bot_config;

typedef struct tn_bot tn_bot;
/* A NULL bot is taken by every function below: the read-outs answer as
 * for a bot with no goal and no plan (IDLE, goal -1, NULL paths, count 0,
 * false; tn_bot_plan_error: INVALID_PARAM, "bot: no bot (NULL)"), the
 * setters and tn_bot_stop do nothing, tn_bot_step gives no input (so does
 * a NULL map, body or p), tn_bot_goto fails with a message. */

/* cfg may be NULL (defaults); out NULL: INVALID_PARAM with a message. */
tn_status tn_bot_create(const tn_bot_config *cfg, const tn_allocator *a, tn_bot **out,
                        tn_error *err);
void tn_bot_destroy(tn_bot *b);
/* The bytes tn_bot_create allocated for b (all it ever will: the
 * formula under the header's first comment); 0 for NULL. */
size_t tn_bot_memory(const tn_bot *b);

/* Send the bot to tile (x, y) (see PLANNING).  A goal outside the map, or
 * where no w x h box can stand at or below the tile, fails
 * (INVALID_PARAM, a message) and changes nothing: the trip under way goes
 * on (a misclick does not stop the bot).  Physics the jump model refuses
 * (e.g. tile_px outside 4..256, with that message) fails and leaves the
 * bot NO_PATH; so does a NULL bot, map, body or `p` (a message naming it)
 * and a body outside the map (a NaN x or y named so: "bot: the body's x
 * is not a number (NaN)").  With a graph (tn_bot_set_graph) a tile the graph
 * stands on (tn_surf_node_of_tile: also a box over a ledge's edge, whose
 * bottom-left tile has no ground under it) is the goal as it is, the rest
 * are snapped; a graph of another profile than the body's size and `p`
 * fails with a message, and so does a graph out of sync with the map
 * (tn_surf_in_sync: the map edited since the graph's last build or
 * tn_surf_sync; INVALID_PARAM, the message names both revisions, also in
 * tn_bot_plan_error).  `pf` must match the map's size and physics
 * (tn_path_create with `p`): a classic plan made here with a finder that
 * does not fit fails with the finder's message (INVALID_PARAM; one made
 * later, on landing, leaves the bot NO_PATH).  `pf` may be NULL only with
 * a graph set (the graph planner needs no finder); in classic mode a NULL
 * `pf` fails (INVALID_PARAM, a message naming pf).  Use the same `p`
 * for the body's tn_body_place / tn_body_step and the bot.
 * A goal accepted on the ground is planned here, and the plan's own status
 * is returned, with its message in err (and tn_bot_plan_error): TN_OK for
 * a whole plan; an unreachable goal gives TN_SUCCESS | TN_PARTIAL_RESULT |
 * TN_UNREACHABLE and says where the plan ends (the bot goes there: PARTIAL,
 * or NO_PATH when that is where it stands); a plan cut at the bot's
 * path_cap, or the classic search's limit, is a partial result too; a
 * search that fails is a failure (NO_PATH).  A goal given in the air, or
 * planned in slices (tn_bot_set_query with a slice size), returns TN_OK:
 * its answer comes with the steps that plan it (tn_bot_get_info,
 * tn_bot_plan_error). */
tn_status tn_bot_goto(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body,
                      const tn_phys_params *p, int x, int y, tn_error *err);
/* The goal rule of tn_bot_goto alone, changing nothing: TN_OK and the
 * tile the bot would go to in *gx, *gy (either may be NULL: the clicked
 * tile where b's graph stands there, else tn_bot_snap_goal's), or
 * INVALID_PARAM with goto's message (a body size outside 1..3 x 1..9,
 * outside the map, no room on top of a block, nowhere to stand at or
 * below), *gx and *gy then not written (as tn_bot_snap_goal: keep the
 * status, not the tiles, to tell).  b may be NULL (no graph). */
tn_status tn_bot_check_goal(const tn_bot *b, const tn_map *m, const tn_body *body, int x, int y,
                            int *gx, int *gy, tn_error *err);
/* Forget the goal (IDLE). */
void tn_bot_stop(tn_bot *b);
/* The input for this step.  A body outside the map (NaN, or more than a
 * tile beyond its edges: none the physics moved) gets no input, the bot's
 * state unchanged; tn_bot_goto refuses it (INVALID_PARAM).  A classic plan
 * needed with `pf` NULL (e.g. after tn_bot_set_graph(b, NULL) in a game that
 * passes no finder) stops the bot in NO_PATH, the reason in
 * tn_bot_plan_error. */
tn_input tn_bot_step(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body,
                     const tn_phys_params *p);

/* The next input of the graph edge the bot is replaying (a jump or fall
 * under way; with its steering after a push in the air, also on the frames
 * of the fall after the edge's inputs: GRAPH PLANNER), without reading its
 * graph, map or finder: for an owner whose
 * graph is away for a while (rebuilt or repaired on another thread), so
 * that the body does not drop out of its arc meanwhile.  No input when the
 * bot replays nothing (it then waits, as a held plan does: tn_bot_step
 * takes up from where the replay got to, and plans again if the graph
 * changed).  The stuck count does not run.  NULL bot: no input.  O(1). */
tn_input tn_bot_coast(tn_bot *b);

/* Snap a requested tile to a standing tile for a w x h box (see PLANNING):
 * true and it in *gx, *gy (either may be NULL); false for a NULL map, a
 * box outside the sizes 1..TN_MAX_BODY_W x 1..TN_MAX_BODY_H, a tile
 * outside the map or nowhere to stand. */
bool tn_bot_snap_goal(const tn_map *m, int w, int h, int x, int y, int *gx, int *gy);

/* Optional monotonic clock (seconds) to time the searches. */
void tn_bot_set_clock(tn_bot *b, double (*clock)(void));

typedef struct tn_bot_info {
    tn_bot_state state;
    bool active;                /* still has something to do (MOVING or PARTIAL en route) */
    int goal_x, goal_y;         /* the snapped goal (-1 when none) */
    int path_nodes, node;       /* filtered path length and the node being followed */
    int replans;                /* re-plans for the current goal */
    int plans;                  /* searches since creation */
    int expanded;               /* states expanded by the last search */
    int path_cost;              /* cost of the last path (model units) */
    int raw_nodes;              /* tiles on the last path before filtering */
    double search_us;           /* last search time; < 0 when there is no clock */
    int steps;                  /* steps since the goal was set */
    int planner;                /* 0 classic (tn_path), 1 graph (tn_surf) */
    int plan_frames;            /* graph: frames of the last plan; -1 classic / none */
    const char *plan_reason;    /* why the last plan was made: "new goal", "map edited",
                                "size changed", "physics changed", "landed off the
                                path", "stuck", "back on the lattice" (classic:
                                after a push, see FOLLOWING); with a graph also
                                "graph rebuilt",
                                "left the path", "back on the lattice" (after a
                                push, see GRAPH PLANNER), "planner switched" (tn_bot_set_graph
                                between a graph and NULL), "graph switched" (another
                                graph of the same profile) ("" before the first) */
    const char *pending_reason; /* why a plan waits to be made (on landing), one of
                                   the above; "" when none waits */
    tn_input input;             /* the keys the last tn_bot_step pressed */
    int jump_left;              /* steps of holding jump left after this one (0 when
                                   not holding; classic: -1 when holding to the top of
                                   the jump; graph: in the edge being replayed) */
    int first_raw_nodes, first_expanded; /* the current goal's first plan (the
                                            goal's numbers) */
    bool planning;   /* a graph plan is being made in slices (tn_bot_set_query) */
    int plan_slices; /* slices (steps) the last or current sliced plan took; 0 whole */
    long look_steps; /* classic: physics steps (tn_body_step on copies of the body) the
                        follower simulated since the goal was set to choose its inputs
                        (a head about to bump, a way down off a sliver, a wall to walk
                        into: FOLLOWING), its cost beside the searches'; a few a jump
                        on the lattice.  A graph bot: 0 (its replays run the graph's
                        step function, which a caller can count: tn_surf.h) */
} tn_bot_info;

tn_bot_info tn_bot_get_info(const tn_bot *b);
/* Switch the heuristic of the next searches (TN_PATH_OPTIMAL / TN_PATH_FAST;
 * anything else is ignored). */
void tn_bot_set_heuristic(tn_bot *b, int heuristic);
/* MOVING or PARTIAL with path left to follow (or a plan pending). */
bool tn_bot_active(const tn_bot *b);
/* The classic path being followed (valid until the next plan; count 0 with
 * a graph set: see tn_bot_legs). */
const tn_path_node *tn_bot_path(const tn_bot *b, int *count);
/* The query of the bot's last classic search (tn_path_find), as it was
 * made: the start after the bot moved it onto ground beside a ledge, the
 * snapped goal, heuristic and limit.  Searching it again on the same map
 * gives the same search (a replay of what the bot did).  q->jump points
 * into the bot (valid until its physics change).  False when the last plan
 * made no classic search (a graph plan, no plan yet, nowhere to start). */
bool tn_bot_last_query(const tn_bot *b, tn_path_query *q);
/* The message of the last plan (or tn_bot_goto's pf and graph checks).
 * Classic: a failure when it could not search, a finder that does not fit
 * the map or physics, or none (pf NULL); otherwise the search's own (TN_OK
 * and empty, or a partial result's message).  Graph: INVALID_PARAM when
 * the graph is out of sync with the map (tn_surf_in_sync: edited and not
 * synced; the bot is then NO_PATH, not re-planning into STUCK) or of
 * another profile than the body's (goto's message; NO_PATH too), else the
 * search's own as tn_surf_find gives it (TN_OK and empty, or a partial
 * result's message: an unreachable goal's closest place).  TN_OK and empty
 * before any plan.  Valid until the next plan. */
const tn_error *tn_bot_plan_error(const tn_bot *b);
/* GRAPH PLANNER.  With a graph set (tn_bot_set_graph; NULL = the classic
 * tn_path planner) the bot plans with tn_surf_find from the node it stands
 * on (a body off the lattice, with no node at its rounded lattice j: the
 * node of its row at j + 1, j - 1, j + 2 or j - 2, the first there is)
 * and follows the legs: it walks to the take-off lattice x (one lattice
 * step of 8/3 px per frame, instant stop, so it reaches it exactly), then
 * replays the edge's recorded inputs frame by frame (copied into the bot,
 * releasing jump for one frame first when it is still held), and checks it
 * stands at the edge's landing position.  A whole plan's final walk goes
 * on, along the goal's surface, to where the body's left edge is the goal
 * tile's (as the classic bot stops; tn_surf_find ends at the first node of
 * the tile it reaches, up to 5/6 of a tile further right), its frames in
 * plan_frames and tn_bot_legs.  It re-plans (on the ground) when
 * it lands on another surface, leaves the leg's surface, the map was
 * edited or the graph rebuilt (tn_surf_generation); stuck detection is the
 * same as the classic follower's.  A body moved off the lattice by
 * something other than its inputs (knock-back: walks keep the offset, so
 * an edge replays shifted) is checked at the take-off, once a leg (twice
 * after a push before take-off, below), with
 * tn_surf_edge_replay_body: it takes off where it stands, or one step on
 * the other side of the take-off, or, at the end of its surface, after
 * walking off it first (one or two frames, until it is in the air: from a
 * sliver of the end tile a jump can meet a low ceiling the lattice
 * take-off left behind; tn_surf_step_body), or by another edge of its
 * surface onto the same landing surface, whichever leaves the ground when
 * the edge does and ends on that surface, the nearest first (at most 64
 * edges, their replays at most 16,384 frames in all and one replay past
 * it); when
 * none does, it walks into the nearer wall its surface ends at (a wall
 * stops a body on the lattice) and plans again there; with no such wall
 * it takes the nearest edge of its surface (to any surface; at most 256
 * tried, from the same places) that, replayed from where it stands, ends
 * on the lattice or on a
 * surface that ends at a wall and from where the graph has a whole plan
 * to the goal (a PARTIAL trip: to where its plan ends) (asked for at
 * most 8 such surfaces, stats only: tn_surf_find, or tn_surf_query_find
 * on its query object; no allocation but that object's growth, as for a
 * plan; these questions are searches: they wait, the bot standing, for a
 * step in which it made no plan nor slice of one, and for the hold to be
 * lifted, tn_bot_hold_plans), replays it (the stuck count rests
 * meanwhile: it may stand on a sliver of a ledge for a while before it
 * falls), walks into that wall on landing and plans again there; failing
 * that, the first such edge onto another surface with no wall from where
 * the graph has a whole plan (8 more questions at most), where it lands
 * off the lattice and checks that surface's take-offs again (at most 4
 * such detours in a row for a goal); failing that, it walks across any
 * gap exactly the box's width at an end of its surface (a box on the
 * lattice falls through, one off it bridges it: at most 8 such gaps each
 * way, each checked by 3 steps of the graph's physics) into the nearer
 * wall beyond from where the graph has a whole plan (2 questions more),
 * and plans again there; with
 * none of these it replays the leg as it is and, when the same edge fails
 * so twice in a row, stops STUCK.  A push while an edge's inputs are
 * replayed but before the body leaves the ground (the offset from the
 * lattice changed) stops the replay, once a leg: the bot walks back to the
 * take-off and checks it again, as above.  A push in the air is seen by
 * stepping a copy of the body by the bot's own inputs with the graph's
 * physics (tn_surf_step_body; so the owner must step the body by the
 * graph's step function, as replays need anyway, and tn_bot_coast stops
 * the copy for the leg): when the rest of the edge's inputs no longer land
 * on its landing surface, the first 1..24 frames of the rest walk against
 * the push, or with no key, or with it, the fewest that land there (at
 * most 16,384 frames of replays, once a leg); else the flight goes on and
 * its first landing re-plans, even before the inputs end (a sliver of a
 * ledge the edge flies past); when the graph has no whole plan to the goal
 * from that landing (a pit), the first steering, in the same order, whose
 * first landing has one (at most 8 such questions, stats only, as a
 * detour's, and 16,384 frames of replays more; none in a step with a plan
 * or slice of its own, nor while plans are held: then as before).
 * Its final walk
 * ends with the box's left edge on the goal tile (a step more, or into the
 * wall there).  Measured in
 * docs/surf.md ("A bot pushed off the lattice"); the check costs up to
 * four replays of an edge per edge tried, at most 66 edges and 16,384
 * frames (and one replay past it), once a leg (twice after a push before
 * take-off) and only for a body off the lattice; a way to a
 * wall, when needed, up to 768 replays of at most 16,384 frames in all,
 * 48 steps, and 18 plans more, in a step
 * that makes no plan (on the levels of tilenav-bench arrival --push 1.3:
 * 185 such searches, about 50 us each, the slowest 0.3 to 3 ms in two
 * runs on a loaded machine; the most frames 9,068; on a 240 x 1000 map
 * whose platform is 200 tiles wide and 1000 rows above a floor, 1.1 ms,
 * 55-180 ms before the frame limit).  Setting another graph (or NULL) while the bot has a
 * goal re-plans it too.  Every plan after a goal's first counts as a
 * re-plan, in either planner, named in tn_bot_info.plan_reason.  The owner
 * keeps the graph in sync with the map and the body's profile
 * (tn_surf_sync) before tn_bot_goto and tn_bot_step: a plan due on a graph
 * out of sync (tn_surf_in_sync), or on one of another profile than the
 * body's size and `p` (rebuilt for other physics, a resized body: goto's
 * message), is not made; the bot stops in NO_PATH with the reason in
 * tn_bot_plan_error (it re-planned on such a graph and replayed jumps its
 * physics cannot make).  The bot does not own the graph: it
 * must outlive its use (set NULL, or destroy the bot, before destroying
 * it).  A NULL bot: no effect. */
void tn_bot_set_graph(tn_bot *b, tn_surf *g);
/* Drop the plan being followed and make a new one at the next step (on the
 * ground; in the air on landing), as tn_bot_set_graph does, without a graph
 * yet: for an owner that sets the graph for new physics at that step rather
 * than build it now.  `reason` (a static string) names the re-plan in
 * tn_bot_info (pending_reason, then plan_reason), unless one already waits.
 * No effect unless MOVING or PARTIAL. */
void tn_bot_replan(tn_bot *b, const char *reason);
/* Hold the bot's searches, for an owner that spreads many bots' plans over
 * several steps (a per-step planning budget): while `hold` is true,
 * tn_bot_step makes no search.  A plan that falls due in a step (a re-plan
 * for an edit, a graph or physics change, a landing off the path, being
 * stuck; a goal set in the air, on landing) waits instead, and so do a
 * pushed graph bot's questions for a detour (GRAPH PLANNER) and a pushed
 * classic bot's look off a ledge (FOLLOWING; no plan is pending then:
 * pending_reason stays ""):
 * tn_bot_info.pending_reason names it, tn_bot_plan_held is true after that
 * step, and the bot presses no key (it stands, as a bot waiting to land
 * lets go), a wait that does not count toward being stuck.  The first step
 * without the hold makes the plan, from where the body is then: the plan
 * an unheld bot standing there would make.  Steps that need no plan run as
 * without the hold.  tn_bot_goto is never held (it plans at once, the
 * owner's choice).  Off by default; a NULL bot: no effect.  O(1). */
void tn_bot_hold_plans(tn_bot *b, bool hold);
/* PLANS ON A QUERY OBJECT, IN SLICES (graph planner; as Detour's sliced
 * path finding).  With a query object q made for the bot's graph
 * (tn_surf_query_create), the bot's plans are q's (tn_surf_query_find):
 * they read the graph and write nothing of it, so bots on several threads
 * can share a graph (an object each; their steps call the graph's step
 * function, tn_surf.h STEP FUNCTION, at once: one with state in
 * step_user locks it).  With max_nodes > 0 they are made in
 * slices: where a plan falls due (tn_bot_goto, or a re-plan in
 * tn_bot_step) the bot begins it (tn_surf_query_begin), and each
 * tn_bot_step expands at most max_nodes nodes of it (tn_surf_query_step),
 * the step that finishes it also starting to follow it.  Meanwhile
 * tn_bot_planning is true, the bot stands (no key), the wait does not
 * count toward being stuck, and tn_bot_hold_plans pauses the slices.  The
 * plan is the one made whole (the same legs: tests/test_bot).  An edit or
 * rebuild of the graph, a push off the ground, a new goal or graph, or
 * tn_bot_stop drops the slices under way (a new plan begins as it would
 * have); a slice lost to another query on the same object finishes the
 * plan whole in that step.  Bots that share an object should therefore
 * plan one at a time (hold the others while one is planning), as an owner
 * with a per-step budget does (examples/graph_sliced_bots.c).  q NULL (the
 * default): plans with tn_surf_find on the graph's own query state, whole;
 * max_nodes <= 0: whole plans on q.  A q made for another graph than the
 * bot's: its plans fail (NO_PATH; tn_bot_plan_error says so).  The bot does
 * not own q (destroy it after the bot, or set NULL first).  Setting another
 * object or budget while a plan is being made begins it again (the same
 * ones again change nothing: an owner may set them every step).  A NULL bot:
 * no effect.  O(1); a slice costs about max_nodes x 0.3-1.5 us on a
 * 1024x1024 level (tn_surf_query_step; `tilenav-bench surf` prints a
 * crowd's steps whole and in slices). */
void tn_bot_set_query(tn_bot *b, tn_surf_query *q, int max_nodes);
/* A graph plan is under way in slices (false for a NULL bot).  O(1). */
bool tn_bot_planning(const tn_bot *b);
/* The last tn_bot_step put a due plan off because of tn_bot_hold_plans
 * (false after tn_bot_goto, tn_bot_stop, and for a NULL bot).  O(1). */
bool tn_bot_plan_held(const tn_bot *b);
/* The graph plan's legs and the leg being followed (count 0 in classic mode).
 * The array is the bot's, valid until its next step, goal or graph; count
 * and leg may be NULL.  These read-outs and tn_bot_graph take a NULL bot
 * as one with no graph and no plan: NULL, 0, count 0. */
const tn_surf_leg *tn_bot_legs(const tn_bot *b, int *count, int *leg);
/* The graph generation and map revision the current plan was made on.
 * A generation counts one graph's builds (each graph starts at 1): two
 * graphs can be at the same one, so a plan is of graph g only when
 * tn_bot_graph(b) == g too.  O(1). */
uint32_t tn_bot_plan_generation(const tn_bot *b);
/* The graph set by tn_bot_set_graph (NULL: the classic planner, also for a
 * NULL bot), as given: the caller's, not a copy.  O(1). */
const tn_surf *tn_bot_graph(const tn_bot *b);
uint32_t tn_bot_plan_revision(const tn_bot *b);

/* Steps to hold jump for a jump of `tiles` (1..M) under the last physics;
 * 1 << 20 (hold for the whole jump) for M and for heights only the full
 * jump clears; tiles above M as M.  0 for tiles < 1, a NULL bot, physics
 * the jump model refuses, and before the bot has seen physics (its first
 * tn_bot_goto or tn_bot_step: the table is made there, not at creation). */
int tn_bot_jump_frames(const tn_bot *b, int tiles);

#ifdef __cplusplus
}
#endif

#endif
