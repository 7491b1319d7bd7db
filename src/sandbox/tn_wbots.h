/* SPDX-License-Identifier: Zlib */
/* tn_wbots.h - the world's bots part: platformer A* and
 * the bots that follow its paths by pressing keys (tn_path, tn_bot).
 *
 *  - The GOTO tool (left click, script `goto TX TY`) sends the character:
 *    its own tn_bot drives it through the `drive` hook with the same input
 *    a player produces; any key the player presses cancels the trip.
 *  - Parameter "bots" (0..32): extra bots, drawn in their own colours, that
 *    walk to random reachable standing tiles, wait a moment, and go again.
 *    They share one path finder (their paths are copied into their own
 *    buffers), are ghosts to each other and to the character, and a block
 *    placed inside one of them is refused.
 *  - JSON: ,"bot":{"state":"idle|moving|arrived|no_path|partial|stuck",
 *    "goal_x":X,"goal_y":Y,"arrived":BOOL,"path_nodes":N,"replans":N,
 *    "expanded":N,"extra_bots":N,"extra_trips":N,"extra_arrivals":N,
 *    "planner":"graph|classic|none","plan_frames":N[,"off":true]}  (goal -1,-1 when
 *    none; planner is the one in effect: graph above 512x512 tiles (no classic
 *    path finder there) whatever the "planner" parameter says, none with
 *    "off":true where goto is off (no graph above 1024x1024 tiles); plan_frames -1 without a graph plan; with the graph
 *    planner path_nodes counts the plan's legs and plan_frames its frames, 0 and -1
 *    while there is no plan: none yet, or a re-plan waiting for the bot to land).
 *  - A goto refused because goto is off names the map's tiles and the limit.
 *  - A graph build that failed (in the background, see
 *    tn_world_build_graphs_in_background, or on the caller's thread) is not
 *    started again until a map edit or a jump height or size set: the
 *    classic planner plans meanwhile (a goto kept for it says so: "graph
 *    build failed (WHY), classic planner: ..."), and above 512x512 tiles a
 *    kept goto is dropped ("goto (X,Y) dropped: graph build failed: WHY"),
 *    a goto refused, and the HUD says "graph build failed (WHY)".
 *  - Planning budget: the extra bots make at most tn_wbots_plan_budget
 *    searches (plans and re-plans, either planner) a step; a bot whose plan
 *    falls due past it stands and waits its turn, the longest wait first.
 *    The character's own plans are never held nor counted.  From 256x256
 *    up their graph plans are made in slices, one bot at a time
 *    (tn_wbots_plan_slice).
 *  - HUD: the character's path length, states expanded and search time
 *    (microseconds from w->clock, "n/a" without one); a bot at rest whose
 *    last plan is for a jump height or size the sliders left names the
 *    change instead of that plan's numbers; "N waiting to plan" after the
 *    extra bots' trips while some wait their turn.
 *  - Draw: the extra bots always; TN_OVERLAY_PATH the paths (nodes, lines,
 *    take-offs as triangles, apexes as rings); TN_OVERLAY_EXPLORED the
 *    character's last search: with the classic planner the states it
 *    expanded (tile shade = jump values), with the graph planner the nodes
 *    its bot's graph search expanded (tn_wbots_graph_search, the replay's
 *    nodes; one shade a node on the tile it stands on), never the classic
 *    comparison search the HUD makes beside a graph plan.
 *
 * Memory: two finders (character, extra bots) made at create for the map's
 * size (one shared finder when the map is larger than 256x256; none, and a
 * message, above 512x512 tiles or when even that does not fit in memory:
 * the bots then plan with the graph only), up to 3 graphs (about 230
 * bytes a tile each on a generated level), 33 bots, and a copy
 * of the character's graph search (12 bytes an expanded node, grown only
 * when a search expands more than any before).  A step
 * costs the extra bots' tn_bot_step + tn_body_step and at most
 * tn_wbots_plan_budget searches for them (a new target takes up to 4, for
 * at most one bot per step), plus the character's own.
 */
#ifndef TN_WBOTS_H
#define TN_WBOTS_H

#include "tn_bot.h"
#include "tn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_WBOTS_MAX 32

/* The character's bot (NULL when the part has no finder). */
const tn_bot *tn_wbots_character_bot(const tn_world *w);
/* The character's trip waits for a plan (true): the plan it had was made
 * before the map's last edit, a slider change, a new goal or G; *why says
 * which ("map edited", "physics changed", ...), *when when the plan comes
 * ("at the next step", "on landing", ...).  Its last search is the old
 * plan's meanwhile: the overlays leave it out and the replay says so. */
bool tn_wbots_plan_waits(const tn_world *w, const char **why, const char **when);
/* The graph of the character's movement profile as the world keeps it
 * (NULL when none is built: the classic planner, or no plan asked for it
 * yet); the graph planner's graph follows every map edit at once (or, out
 * of the cache meanwhile, in the background: tn_wbots_repairs_started). */
const tn_surf *tn_wbots_character_graph(const tn_world *w);
/* Background graph builds (tn_world_build_graphs_in_background) told to
 * stop and stopped since the world was made: by a map replacement, by
 * tn_world_destroy (tn_wbots_destroy), or because the physics or the
 * character's size moved on from the value they were built for (a size an
 * extra bot still has is built on).  Kept across map replacements. */
int tn_wbots_builds_cancelled(const tn_world *w);
/* Background graph builds started since the world was made (each thread
 * started: one begun again on a new copy of the map, edits having outrun
 * it, counts again), and those of them that failed (out of memory: any
 * failure but a stop).  Kept across map replacements. */
int tn_wbots_builds_started(const tn_world *w);
int tn_wbots_builds_failed(const tn_world *w);
/* Edits' graph repairs started in the background since the bots part was
 * made (tn_world_build_graphs_in_background: on maps over 128x128 tiles,
 * unless the last repair took under 4 ms by the clock; one begun
 * again for the edits made while it ran counts again). */
int tn_wbots_repairs_started(const tn_world *w);
/* The graphs of a body's size (the character's, an extra bot's) that do
 * not yet have every edit made to the map: cached ones behind it (they
 * catch up when used, or in the background) and one being built or
 * repaired on another thread.  0: every body plans on the map as it is. */
int tn_wbots_graphs_behind(const tn_world *w);
/* The classic comparison searches behind the HUD's "| classic: ..." (a goto
 * click's, or a graph re-plan's under another map, jump or size) since the
 * bots part was made (a map replacement starts again at 0): `here` made on
 * the caller's thread (headless runs, background builds off, or the
 * classic planner selected), `background` started on another thread (the
 * graph selected with tn_world_build_graphs_in_background: the HUD says
 * "classic: searching ..." until it ends), `dropped` of those whose answer
 * was thrown away (a newer click's search, or the map, the jump height or
 * the size changed meanwhile: the HUD then says "classic: n/a (...)").
 * Any pointer may be NULL. */
void tn_wbots_compare_counts(const tn_world *w, int *here, int *background, int *dropped);
/* The character's graph search, exactly as its bot made it: for its last
 * plan (a goal's first or a re-plan) with the graph planner, the nodes
 * tn_surf_find expanded, in order (tn_surf_expanded of the graph the bot
 * searched, copied right after its search), each at the tile it stands on
 * (x, y: the node's bottom-left tile); `count` equals the bot's
 * tn_bot_info.expanded for that plan (the HUD's "N nodes").  `plans` is the
 * bot's plan count (tn_bot_info.plans) of that search, 0 before the first
 * goto; `replans` and `reason` its tn_bot_info.replans and plan_reason
 * (0 and "new goal" for a goal's first plan); `reached`: the plan reaches
 * the goal (not partial).  count is 0 for a classic plan or when the bot
 * could not search (`why` says).  Valid until the next tn_world call.
 * Returns count. */
typedef struct tn_wbots_search_node {
    int32_t node; /* the graph node (tn_surf node index) */
    int32_t x, y; /* the tile it stands on */
} tn_wbots_search_node;
typedef struct tn_wbots_search {
    const tn_wbots_search_node *nodes;
    int count;
    int plans;
    int goal_x, goal_y; /* the bot's goal (-1 when none) */
    int frames;         /* the plan's frames (-1 when none) */
    bool reached;
    /* a goal out of reach: the plan goes to the closest place reached, and
     * nodes are the closest place's search (one node, the start, when that
     * place is on the surface the bot stands on: a walk); the search that
     * proved the goal out of reach expanded `unkept` nodes more, counted in
     * the HUD's N but not kept (0: proved before any expansion) */
    bool out_of_reach;
    int unkept;
    int replans;        /* 0: the goal's first plan; N: its re-plan N */
    const char *reason; /* why the bot made this plan (tn_bot_info.plan_reason) */
    const char *why;    /* when count is 0: why ("" otherwise) */
} tn_wbots_search;
int tn_wbots_graph_search(const tn_world *w, tn_wbots_search *out);
/* Extra bots: how many, and the body of bot i. */
int tn_wbots_count(const tn_world *w);
/* Extra bot i's spawn number (from 1), 0 for no such bot: a bot removed
 * and another made in its slot (bots 2, then 1, then 2) has another. */
uint64_t tn_wbots_serial(const tn_world *w, int i);
/* The spawn numbers given so far; set: the next bot made is n + 1 (a test
 * starts near 2^32 with it). */
uint64_t tn_wbots_spawned(const tn_world *w);
void tn_wbots_set_spawned(tn_world *w, uint64_t n);
const tn_body *tn_wbots_body(const tn_world *w, int i);
const tn_bot *tn_wbots_bot(const tn_world *w, int i);
/* Knock every extra bot dx px sideways, on the ground or in the air
 * (tn_world_knock_body; tn_world_knock calls it).  Returns how many moved;
 * *on_ground (may be NULL): how many stood on the ground. */
int tn_wbots_knock(tn_world *w, float dx, int *on_ground);
/* Why the surface-graph overlay (TN_OVERLAY_SURF in `overlays`) shows
 * nothing, for a caption on the map: the classic planner is selected (the
 * graph is built only for the graph planner) or the map is too large for
 * graphs; NULL when it draws, or is off. */
const char *tn_wbots_overlay_note(const tn_world *w, unsigned overlays);
/* The planner the character's goto uses now: "graph" (selected, or the only
 * one: a map above 512x512, where no classic finder is made), "classic",
 * "none" (goto off: a map above 1024x1024 tiles). */
const char *tn_wbots_planner_in_effect(const tn_world *w);
/* The extra bots' planning budget: the searches (plans and re-plans, graph
 * or classic, a new trip's tries included) they make in one tn_world_step,
 * at most.  A bot whose plan falls due once they are made stands
 * (tn_bot_hold_plans) and waits its turn (tn_wbots_waiting); at each step
 * the bots that waited longest plan first (then the lowest numbers), so N
 * bots whose plans fall due in one step have all planned ceil(N/K) steps
 * later, each the plan it would have made standing where it waited.  A
 * count, not a time: the same script gives the same run on any machine
 * (a window counts it per drawn frame: tn_world_plan_budget_per_frame).
 * By default max(1, 65,536 / the map's tiles): 18 on the 80x45 demo map
 * (its searches take microseconds), 1 from 256x256 up, where one search can
 * take a frame's time (a goal out of reach no longer searches the whole
 * graph: the search stops once the goal is proven out of reach, then plans
 * to the closest place; at 1024x1024 a median of about 2 ms, the slowest
 * tens of ms: `tilenav-bench surf`, docs/bench.md).  The character's own
 * plans (a click, its re-plans) are neither held nor counted.  Returns 0
 * for no budget. */
int tn_wbots_plan_budget(const tn_world *w);
/* Set it: K >= 1 searches a step, 0 the default from the map's size, < 0
 * none (every plan made when due, as before the budget).  A new map
 * (tn_world_replace_map) starts again from the default. */
void tn_wbots_set_plan_budget(tn_world *w, int plans);
/* The extra bots' sliced plans: from 256x256 up (where the budget is one
 * plan a step) each extra bot's graph plan is made in slices of
 * tn_wbots_plan_slice nodes (tn_bot_set_query; 1,000 by default), on a
 * query object per graph the extra bots share, one bot at a time: while
 * one plans (tn_wbots_planning; it stands) the others whose plans fall due
 * wait their turn, and a step makes one slice or one plan (the budget is
 * then at most 1).  The plans are those made whole (tests/test_bot); a new
 * trip counts once its plan reaches the goal (a goal out of reach: the bot
 * rests and tries another).  0: whole plans (smaller maps, and the classic
 * planner).  Memory: an object per graph in use, 52 B a node (21 MB at
 * 1024x1024). */
int tn_wbots_plan_slice(const tn_world *w);
/* Set it: nodes >= 1 a slice, 0 the default from the map's size, < 0
 * whole plans.  A plan under way goes on with the new size at the next
 * step (begun again). */
void tn_wbots_set_plan_slice(tn_world *w, int nodes);
/* Extra bot i is making a plan in slices (it stands meanwhile). */
bool tn_wbots_planning(const tn_world *w, int i);
/* The searches the extra bots made in the last tn_world_step (slices of a
 * sliced plan count one a step). */
int tn_wbots_step_plans(const tn_world *w);
/* Extra bot i stands waiting its turn to plan (its plan fell due after the
 * step's budget was spent). */
bool tn_wbots_waiting(const tn_world *w, int i);
/* The heuristic every bot's next search uses: TN_PATH_OPTIMAL (default) or
 * TN_PATH_FAST (see tn_path.h).  Not part of the JSON. */
void tn_wbots_set_heuristic(tn_world *w, int heuristic);

/* ---- this part's parameters (see tn_param_info) ---- */
tn_status tn_wbots_set_bots(tn_world *w, double value, tn_error *err);
bool tn_wbots_get_bots(const tn_world *w, double *value);
tn_status tn_wbots_set_planner(tn_world *w, double value, tn_error *err);
bool tn_wbots_get_planner(const tn_world *w, double *value);
#define TN_WBOTS_PARAM_BOTS                                                                    \
    {                                                                                          \
        "bots", 0, 32, 0, true, "", "extra bots walking to random targets", tn_wbots_set_bots, \
            tn_wbots_get_bots                                                                  \
    }
#define TN_WBOTS_PARAM_PLANNER                                                                 \
    {                                                                                          \
        "planner", 0, 1, 1, true, "", "bot planner: 0 classic jump-value A*, 1 surface graph", \
            tn_wbots_set_planner, tn_wbots_get_planner                                         \
    }

#ifdef __cplusplus
}
#endif

#endif
