/* The bots part: see tn_wbots.h. */
#include "tn_wbots.h"
#include "tn_world_impl.h"
#include "tn_wparts.h"

#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
/* Graph builds in the background (tn_world_build_graphs_in_background) run
 * on a C11 thread; where there are none (the browser build) every build is
 * made on the caller's thread, as in headless runs. */
#if !defined(__STDC_NO_THREADS__) && !defined(__EMSCRIPTEN__)
#include <threads.h>
#define BG_THREADS 1
#endif

#define T ((float)TN_TILE_PX)
#define RNG_STREAM 0x626f7473ULL /* "bots" */
#define SHARED_ABOVE (256 * 256) /* tiles: one finder for everyone above this */
#define TARGET_TRIES 4           /* searches for a new extra-bot target (the budget spreads them) */
#define WAIT_MIN 30              /* steps an extra bot rests after a trip */
#define WAIT_SPAN 60
/* The extra bots' planning budget: plans a step makes, at least one, more
 * on maps under this many tiles (a search there can take a frame's time:
 * at 1024x1024 the slowest reachable or out-of-reach goals take tens of
 * ms, `tilenav-bench surf`); the rest of the bots wait their turn
 * (tn_wbots_plan_budget). */
#define PLAN_TILES (256L * 256L)
/* On such maps (one plan a step) the extra bots plan in slices of this
 * many nodes (tn_bot_set_query), one bot at a time on a query object per
 * graph: a step's planning is one slice (1,000 nodes: at 1024x1024 a
 * median of about 0.3 ms, the slowest under about 2 ms, `tilenav-bench
 * surf`, docs/bench.md) where a whole plan can take tens of ms. */
#define SLICE_NODES 1000
/* States one search may expand, more than any reachable set of the
 * demo-sized maps (a plan cut short is a partial path).  Not ~5 ms: on a
 * 512x512 generated level (`tilenav-bench genmap --size 512 --seed 7`) 50
 * far gotos' searches took 1.8-2.0 ms median, 6.5-9.7 ms max headless by
 * the world's clock (the first, on fresh memory, 7.6 ms), and one that hit
 * the limit 55-210 ms in a loaded window under Xvfb (the first 680 ms): the
 * HUD's classic comparison is searched in the background there
 * (classic_compare); a classic plan (the classic planner selected) is not. */
#define SEARCH_LIMIT 65536
#define SEARCH_LIMIT_TEXT "65,536"
/* A classic trip whose search hit SEARCH_LIMIT searches again from the end
 * of the path it was given, at most this many times per goal. */
#define CONTINUE_MAX 16
/* Larger maps get no classic finder (8 bytes x 46 jump values per tile: 92
 * MB here): their bots plan with the graph only. */
#define MAX_FINDER_TILES (512L * 512L)
/* The graph planner: graphs cached per movement profile (the character and
 * the extra bots share them); larger maps have none (nor goto: they are
 * above MAX_FINDER_TILES too).  A graph takes about 240 bytes a tile on a
 * generated level (some 240 MB at 1024x1024: `tilenav-bench surf`). */
#define GRAPH_CACHE 3
#define GRAPH_MAX_TILES (1024L * 1024L)
#define GRAPH_SLOW_MS 50.0 /* a graph build this long is said in the status line */
/* An edit's repair of the graph in use runs in the background (with the
 * builds') on a map over BG_TILES tiles, unless the last one took less
 * than this by the clock: a median repair is 3-5 ms at 256x256, 9 ms at
 * 512x512, 20 ms at 1024x1024 (p90 40 ms: several frames).  Smaller maps
 * (the demo's: 1-2 ms) always repair in the edit, whatever the clock says
 * under load, so that what a window shows after an edit does not depend
 * on the machine's speed there. */
#define REPAIR_SLOW_MS 4.0
#define FAILED_MAX 4 /* failed background builds remembered (profiles) */

typedef struct tn_wbots {
    tn_path *pf;       /* the character's finder (NULL: map too large) */
    tn_path *pf_extra; /* the extra bots' finder (== pf when shared) */
    tn_bot *bot;
    tn_bot *ebot[TN_WBOTS_MAX];
    tn_bot *run_bot; /* runs the HUD's classic answer (classic_run; made by its first) */
    tn_body ebody[TN_WBOTS_MAX];
    int wait[TN_WBOTS_MAX];
    bool was_active[TN_WBOTS_MAX];
    /* the planning budget (tn_wbots_set_plan_budget; 0: from the map's
     * size, < 0: none); turn[i]: the step from which bot i waits its turn
     * to plan (-1: it does not), the oldest waits planning first; tries[i]:
     * searches for its next trip so far (new_target, spread over steps when
     * the budget runs out); step_plans: the extra bots' plans in the last
     * step */
    int budget;
    long turn[TN_WBOTS_MAX];
    int tries[TN_WBOTS_MAX];
    int step_plans;
    int used; /* plans made in this step, or frame (tn_world_plan_budget_per_frame) */
    /* sliced plans (tn_wbots_set_plan_slice: 0 by the map's size, < 0
     * whole, > 0 nodes); the query objects the extra bots plan on, one per
     * graph (qg[k]'s is qq[k]; made when a bot first needs it, destroyed
     * with its graph: surf_destroy); pending[i]: bot i's new trip is being
     * planned in slices (counted once its plan reaches the goal) */
    int slice;
    tn_surf *qg[GRAPH_CACHE + 1];
    tn_surf_query *qq[GRAPH_CACHE + 1];
    bool pending[TN_WBOTS_MAX];
    int n;
    /* serial[i]: bot i's spawn number (from 1; spawned: how many so far),
     * which tells a bot made again in the same slot from the one it
     * replaced (tn_wbots_serial: the inspect card's pin); 64-bit as the
     * enemies' ids: 32-bit ones wrapped after 2^32 bots, and a bot made
     * again in a pinned bot's slot could get its number */
    uint64_t serial[TN_WBOTS_MAX];
    uint64_t spawned;
    int trips, arrivals;
    tn_bot_state last_state;
    /* with one finder for everyone (above SHARED_ABOVE) the explored
     * overlay's copy of the character's last classic search, a count per
     * tile (capped at 255) inside ex_x0..ex_x1 x ex_y0..ex_y1 (ex_x0 > ex_x1:
     * none), taken right after it searched: an extra bot's search on the
     * shared finder would otherwise show in its place */
    uint8_t *ex;
    int ex_x0, ex_y0, ex_x1, ex_y1;
    int ex_plans; /* the bot's plan count when copied */
    /* searches again after a classic plan cut short by SEARCH_LIMIT (-1:
     * given up, said), and the tile the last of them started from */
    int cont, cont_x, cont_y;
    tn_rng rng;
    int planner;   /* 0 classic, 1 graph */
    int heuristic; /* the classic searches' (TN_PATH_OPTIMAL / FAST) */
    tn_surf *graph[GRAPH_CACHE];
    unsigned graph_used[GRAPH_CACHE], tick;
    /* when each cached graph was last repaired (repairs_seen): the frame
     * its count of local repairs last moved, or a background repair of it
     * was collected; the overlay's orange outlines count from there */
    const tn_surf *seen_g[GRAPH_CACHE];
    int seen_local[GRAPH_CACHE];
    long seen_frame[GRAPH_CACHE];
    bool graph_off_said;
    /* tn_world_hold_graph_builds: while held, a graph for a new profile is
     * not built when this map's last build took over GRAPH_SLOW_MS (a
     * slider drag in the window would otherwise build one per frame);
     * waiting: a build was put off (said once per hold) */
    bool hold, waiting, hold_said;
    double last_build_ms;
    double last_repair_ms; /* the last repair of an edit, by the clock (0: none timed) */
    int bg_repairs;        /* repairs started in the background (tn_wbots_repairs_started) */
    /* A graph built on another thread (tn_world_build_graphs_in_background):
     * on a copy of the map taken when it started (edits made meanwhile are
     * repaired by a sync when it is put in the cache); one at a time. */
    struct {
        bool running;     /* started and not yet joined */
        atomic_bool done; /* set by the thread as it ends */
        bool repair;      /* the slot's graph synced with the copy (edits), not built */
        uint32_t most;    /* a repair: the edits a sync surely repairs locally (sync_most) */
        int slot;         /* the cache slot it fills */
        tn_surf *g;       /* the slot's graph, rebuilt in place (NULL: made) */
        tn_map *map;      /* the copy it builds on (owned) */
        tn_surf_profile prof;
        uint32_t rev; /* the map's revision the copy was taken at */
        tn_status st;
        tn_error err;
        double ms; /* its build, by the clock */
        double (*clock)(void);
        const tn_allocator *alloc;
        int bw, bh; /* the body size, for the messages */
        /* per cache slot: a build for it is to stop (tn_surf_profile.cancel,
         * job_stopped; the graph keeps the pointer: a slot's flag is only
         * ever set while that slot's job runs) */
        atomic_bool stop[GRAPH_CACHE];
#ifdef BG_THREADS
        thrd_t thread;
#endif
    } job;
    /* Background builds that failed (any failure but a stop: out of
     * memory), one a profile, with the map revision each was built at and
     * its error: not started again, nor built on a click, while the map is
     * at that revision (the old code started one a step, each failing);
     * a slider or size change forgets them (tn_wbots_physics), a map
     * replacement makes a new part.  So each is tried again once per such
     * change.  The bots plan as after a build failed on this thread: with
     * the classic planner, where there is one. */
    struct {
        tn_surf_profile prof;
        uint32_t rev;
        char msg[TN_ERROR_MSG_MAX];
    } failed[FAILED_MAX];
    int nfailed;
    tn_surf *char_graph; /* the graph last given to the character's bot */
    /* a goto click made while the character's graph was built in the
     * background, made when it is built (the window does not wait) */
    bool defer;
    int defer_x, defer_y;
    int click_x, click_y; /* the tile of the character's last goto click (-1: none) */
    tn_tool defer_tool;
    bool prebuilt; /* the character's first graph was asked for ahead of a click */
    struct {
        bool valid;
        tn_status gs, cs; /* graph / classic answers for the last click (the
                           * graph's: the bot's own plan, graph_answer) */
        int gframes;      /* the graph's plan: frames */
        bool gnostart;    /* clicked in the air: the graph bot plans on landing */
        int ctiles;       /* the classic path: tiles (before filtering) */
        int cframes;      /* its run by a classic bot: frames, or a CRUN_ code */
        bool goff;        /* classic selected: the graph was not asked */
        double gus, cus;
        /* what the classic answer was searched under: a re-plan under
         * other physics, size or map searches it again (redone) */
        float jump;
        int bw, bh;
        uint32_t rev;
        bool redone;
        int plans; /* the bot's plan count last looked at */
        /* the classic search asked for: from (tx, ty) to (gx, gy); with
         * the graph selected in the window it runs in the background
         * (cmp) and the HUD says "searching" until it lands; dropped: why
         * its answer was thrown away (the map, jump or size changed) */
        int tx, ty, gx, gy;
        bool searching;
        const char *dropped;
    } last;
    /* The classic comparison search in the background
     * (tn_world_build_graphs_in_background, the graph selected): on a copy
     * of the map, with its own finder (one per thread, tn_path.h), made by
     * its first search on its thread and kept (the size of s->pf: 92 MB at
     * 512x512); one at a time, a newer click's search starts when it ends.
     * Its answer is kept only for the request it was made for, on the map,
     * jump height and size it was made under. */
    struct {
        bool running;           /* started and not yet joined */
        atomic_bool done;       /* set by the thread as it ends */
        tn_path *pf;            /* its finder (NULL: not made yet) */
        bool pf_failed;         /* making it failed: searches run on this thread */
        tn_phys_params pf_phys; /* what s->pf was made with */
        tn_map *map;            /* the copy it searches (owned) */
        tn_jump_model jm;
        tn_path_query q;
        const tn_allocator *alloc;
        double (*clock)(void);
        uint32_t rev;
        float jump;
        int bw, bh;
        tn_status cs;
        int ctiles;
        double cus;
        int cframes;
        tn_bot *bot;                /* the run's bot (made by its first run, kept) */
        tn_body body;               /* the character when the request was made */
        tn_phys_params phys;        /* and the physics */
        int sync, started, dropped; /* tn_wbots_compare_counts */
#ifdef BG_THREADS
        thrd_t thread;
#endif
    } cmp;
    /* the planner that made the current goal's first plan (the classic HUD's
     * "goto (x,y): N tiles, M states" are that plan's: none after a graph one) */
    bool first_graph;
    int first_seen; /* the bot's plan count last looked at */
    /* the character's graph search behind its last plan (a goal's first
     * or a re-plan), copied from tn_surf_expanded right after the bot made it */
    tn_wbots_search_node *sn;
    int sn_n, sn_cap;
    int sn_plans; /* the bot's plan count when it was copied (0: none yet) */
    /* what the character's last plan was made under: a bot at rest whose
     * last plan is for another jump height or size says so on the HUD */
    float plan_jump;
    int plan_bw, plan_bh;
    uint32_t plan_rev;
    /* A trip left out of reach (partial, or no path with no closer spot)
     * is tried again when the map, the jump height or the size changes
     * (retry_out_of_reach), while the character stays where it left it:
     * `may_retry` is set by a goto and cleared when the player takes the
     * controls; the world as last tried, so a goal tried once under it
     * (a search that did not run: no new plan noted) is not tried again */
    bool may_retry;
    /* the player took the controls since the last goto: a trip at rest is
     * history (the HUD says so beside "arrived") */
    bool taken_over;
    /* the status line said "planning when the character lands" for the
     * plan after plan count pend_plans: it says the plan when it is made */
    bool pend_said;
    int pend_plans;
    /* the bot's step count (tn_bot_info.steps) at the step its trip first
     * stood on the ground: 0 for a goto on the ground, -1 until the landing
     * for one in the air (it plans there), so "arrived ... in N frames"
     * counts from the landing as the plan's frames do */
    int land_steps;
    uint32_t retry_rev;
    float retry_jump;
    int retry_bw, retry_bh;
    int sn_seen; /* the bot's plan count last looked at */
    int sn_gx, sn_gy, sn_frames;
    int sn_replans;        /* the plan's re-plan number (0: the goal's first) */
    const char *sn_reason; /* tn_bot_info.plan_reason of the plan */
    bool sn_reached;
    bool sn_out_of_reach; /* the plan goes to the closest place of a goal out of reach */
    int sn_unkept;        /* expansions of the plan's searches not in sn (see tn_wbots.h) */
    const char *sn_why;   /* why sn_n is 0 */
    /* The surface overlay as last drawn from the character's graph where
     * edits are repaired in the background (repair_bg), in world pixels:
     * drawn fainter while that graph is away for a repair, so the overlay
     * does not blink out at each edit of a big level.  Made by the first
     * such draw (SNAP_MAX primitives, a draw cut short there) and kept;
     * `valid` while the overlay is on (a draw without it forgets it), for
     * the profile it was drawn for (a slider move leaves it). */
    struct snap_prim *snap;
    int snap_n;
    bool snap_valid;
    tn_surf_profile snap_prof;
    /* The surfaces the character's graph's last repair searched again
     * (tn_surf_last_repair), outlined in the surface overlay for
     * REPAIR_SHOW steps after the repair (seen_frame; a paused world keeps
     * them): what an edit cost, seen.  Not shown for a repair made long
     * before the overlay was turned on or the graph drawn became another
     * (a slider's).  Read when the graph's generation moves; the ids are
     * that generation's. */
    int *hl;
    int hl_n, hl_cap, hl_total;
    const tn_surf *hl_g;
    uint32_t hl_gen;
    long hl_frame;
    char hl_note[256];
} tn_wbots;

/* One primitive of the overlay's snapshot (a line: x0 y0 x1 y1; a circle:
 * cx cy r; a rect: x y w h). */
typedef struct snap_prim {
    float a, b, c, d;
    uint32_t rgba;
    uint8_t kind; /* SNAP_LINE, _CIRCLE, _RECT */
    bool filled;
} snap_prim;
enum { SNAP_LINE, SNAP_CIRCLE, SNAP_RECT };
/* steps the last repair's surfaces stay outlined: 2 s of world steps at
 * the physics' 60 a second (240 showed them 4 s: a reviewer timed it) */
#define REPAIR_SHOW 120
/* primitives kept at most (24 bytes each: 1.5 MB); the overlay of a
 * 1280x720 view of a 1024x1024 level is about 31,000, of all of it (no
 * view) about 59,000 */
#define SNAP_MAX 65536

/* "1 leg", "2 legs": the HUD and messages count in the singular too */
#define PLURAL(n) ((n) == 1 ? "" : "s")
/* The surface-graph overlay: edges drawn at most, and how far outside the
 * view (tiles) their take-off may be */
#define SURF_DRAW_EDGES 300
#define SURF_MARGIN 4.0f

static tn_wbots *of(const tn_world *w) { return (tn_wbots *)w->bots; }

/* A map small enough for a graph (GRAPH_MAX_TILES). */
static bool graph_fits(const tn_world *w) { return (long)w->map->w * w->map->h <= GRAPH_MAX_TILES; }

/* The bots plan with the graph: it is selected, or it is the only planner
 * (no classic finder on a map above MAX_FINDER_TILES). */
static bool graph_mode(const tn_world *w, const tn_wbots *s)
{
    return s && graph_fits(w) && (s->planner || !s->pf);
}

/* Goto works: a classic finder or a graph. */
static bool goto_on(const tn_world *w, const tn_wbots *s) { return s && (s->pf || graph_fits(w)); }

static void job_collect(tn_world *w, tn_wbots *s, bool wait);
static void job_stop(tn_wbots *s);
static void cmp_collect(tn_world *w, tn_wbots *s, bool wait);

/* The planner the character's goto really uses: "none" (goto is off: a
 * map above GRAPH_MAX_TILES), "graph" (selected, or the only one: a map
 * above MAX_FINDER_TILES), "classic". */
static const char *planner_in_effect(const tn_world *w, const tn_wbots *s)
{
    if (!goto_on(w, s)) return "none";
    return graph_mode(w, s) ? "graph" : "classic";
}

const char *tn_wbots_planner_in_effect(const tn_world *w) { return planner_in_effect(w, of(w)); }

const tn_bot *tn_wbots_character_bot(const tn_world *w)
{
    const tn_wbots *s = of(w);
    return goto_on(w, s) ? s->bot : NULL;
}

/* The cached graph for a bw x bh body under the world's physics, found as
 * graph_for finds it, without counting a use (which graph an edit repairs
 * must not depend on who looked); NULL when none is. */
static const tn_surf *cached_graph(const tn_world *w, const tn_wbots *s, int bw, int bh)
{
    tn_surf_profile prof = tn_surf_profile_make(bw, bh, &w->phys);
    for (int i = 0; i < GRAPH_CACHE; i++)
        if (s->graph[i] && tn_surf_same_profile(tn_surf_get_profile(s->graph[i]), &prof))
            return s->graph[i];
    return NULL;
}

const tn_surf *tn_wbots_character_graph(const tn_world *w)
{
    const tn_wbots *s = of(w);
    if (!graph_mode(w, s)) return NULL;
    return cached_graph(w, s, w->character.w, w->character.h);
}

int tn_wbots_count(const tn_world *w) { return of(w) ? of(w)->n : 0; }

uint64_t tn_wbots_serial(const tn_world *w, int i)
{
    const tn_wbots *s = of(w);
    return s && i >= 0 && i < s->n ? s->serial[i] : 0;
}

uint64_t tn_wbots_spawned(const tn_world *w) { return of(w) ? of(w)->spawned : 0; }

void tn_wbots_set_spawned(tn_world *w, uint64_t n)
{
    if (of(w)) of(w)->spawned = n;
}

const tn_body *tn_wbots_body(const tn_world *w, int i)
{
    const tn_wbots *s = of(w);
    return s && i >= 0 && i < s->n ? &s->ebody[i] : NULL;
}

int tn_wbots_knock(tn_world *w, float dx, int *on_ground)
{
    tn_wbots *s = of(w);
    int moved = 0, ground = 0;
    for (int i = 0; s && i < s->n; i++) {
        ground += s->ebody[i].on_ground;
        moved += tn_world_knock_body(w, &s->ebody[i], dx, NULL) != 0.0f;
    }
    if (on_ground) *on_ground = ground;
    return moved;
}

const tn_bot *tn_wbots_bot(const tn_world *w, int i)
{
    const tn_wbots *s = of(w);
    return s && i >= 0 && i < s->n ? s->ebot[i] : NULL;
}

void tn_wbots_set_heuristic(tn_world *w, int heuristic)
{
    tn_wbots *s = of(w);
    if (!s) return;
    if (heuristic == TN_PATH_OPTIMAL || heuristic == TN_PATH_FAST) s->heuristic = heuristic;
    tn_bot_set_heuristic(s->bot, heuristic);
    for (int i = 0; i < TN_WBOTS_MAX; i++) tn_bot_set_heuristic(s->ebot[i], heuristic);
}

/* ---- create / destroy --------------------------------------------------- */

/* Destroy graph g and the extra bots' query object for it. */
static void surf_destroy(tn_wbots *s, tn_surf *g)
{
    for (int k = 0; g && k <= GRAPH_CACHE; k++)
        if (s->qg[k] == g) {
            tn_surf_query_destroy(s->qq[k]);
            s->qg[k] = NULL;
            s->qq[k] = NULL;
        }
    tn_surf_destroy(g);
}

void tn_wbots_destroy(tn_world *w)
{
    tn_wbots *s = of(w);
    if (!s) return;
    job_stop(s); /* first: it winds down while the rest is freed */
    if (s->pf_extra != s->pf) tn_path_destroy(s->pf_extra);
    tn_path_destroy(s->pf);
    tn_bot_destroy(s->bot);
    for (int i = 0; i < TN_WBOTS_MAX; i++) tn_bot_destroy(s->ebot[i]);
    job_collect(w, s, true);   /* (told to stop: one poll away) */
    s->last.searching = false; /* (nothing starts after it) */
    cmp_collect(w, s, true);   /* (one classic search: milliseconds) */
    tn_path_destroy(s->cmp.pf);
    tn_bot_destroy(s->cmp.bot);
    tn_bot_destroy(s->run_bot);
    for (int i = 0; i < GRAPH_CACHE; i++) surf_destroy(s, s->graph[i]);
    for (int k = 0; k <= GRAPH_CACHE; k++) tn_surf_query_destroy(s->qq[k]); /* (none left) */
    tn_free(&w->alloc, s->sn);
    tn_free(&w->alloc, s->ex);
    tn_free(&w->alloc, s->snap);
    tn_free(&w->alloc, s->hl);
    tn_free(&w->alloc, s);
    w->bots = NULL;
}

tn_status tn_wbots_create(tn_world *w, tn_error *err)
{
    tn_wbots *s = tn_alloc(&w->alloc, sizeof *s);
    if (!s) return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "out of memory (bots)");
    w->bots = (struct tn_wbots *)s;
    tn_rng_seed(&s->rng, w->seed, RNG_STREAM);
    s->planner = 1;
    s->click_x = s->click_y = -1;
    for (int i = 0; i < TN_WBOTS_MAX; i++) s->turn[i] = -1;
    tn_status st = tn_bot_create(NULL, &w->alloc, &s->bot, err);
    for (int i = 0; i < TN_WBOTS_MAX && tn_succeeded(st); i++)
        st = tn_bot_create(NULL, &w->alloc, &s->ebot[i], err);
    if (tn_failed(st)) {
        tn_wbots_destroy(w);
        return st;
    }
    /* The finders: a huge map degrades to "graph only", then to "no goto",
     * rather than no world. */
    tn_error e;
    if (!graph_fits(w)) {
        tn_world_message(w,
                         "goto is off: a %dx%d map is above the graph planner's 1024x1024 "
                         "tiles (and the classic one's 512x512)",
                         w->map->w, w->map->h);
    } else if ((long)w->map->w * w->map->h > MAX_FINDER_TILES) {
        tn_world_message(w,
                         "classic planner off on this %dx%d map (its path finder would take "
                         "%ld MB): the bots plan with the graph",
                         w->map->w, w->map->h, (long)w->map->w * w->map->h * 46 * 8 >> 20);
    } else if (tn_failed(tn_path_create(w->map->w, w->map->h, &w->phys, SEARCH_LIMIT, &w->alloc,
                                        &s->pf, &e))) {
        s->pf = NULL;
        tn_world_message(w, "the %dx%d map is too large for the platformer path finder (%s)",
                         w->map->w, w->map->h, e.msg);
    } else if ((long)w->map->w * w->map->h > SHARED_ABOVE ||
               tn_failed(tn_path_create(w->map->w, w->map->h, &w->phys, SEARCH_LIMIT, &w->alloc,
                                        &s->pf_extra, &e))) {
        s->pf_extra = s->pf;
        s->ex = tn_alloc_array(&w->alloc, (size_t)w->map->w * (size_t)w->map->h, 1);
        if (s->ex) memset(s->ex, 0, (size_t)w->map->w * (size_t)w->map->h);
    }
    s->ex_x0 = 0;
    s->ex_x1 = -1;
    s->cmp.pf_phys = w->phys; /* (the comparison's own finder is made alike) */
    return TN_OK;
}

/* ---- graphs per movement profile ----------------------------------------- */

/* What graph_for may do: only look in the cache; build (or start building
 * in the background) a graph that is missing; or build it now, waiting for
 * a background build first (a click's plan is made at once). */
enum { LOOK, BUILD, BUILD_NOW };

/* A classic click brings the character's graph up to the map's edits to
 * ask it for the HUD's comparison on maps of up to CMP_SYNC_TILES tiles,
 * when it is at most CMP_SYNC_EDITS changes behind (a local repair: a 256x256
 * level took 39 ms for 40 edits, and a rebuild, 281 ms, for 400). */
#define CMP_SYNC_TILES (256L * 256L)
#define CMP_SYNC_EDITS 16u

/* Maps this large (tiles) build in the background before any build was
 * timed (the first on a map); later, builds the last of which took over
 * GRAPH_SLOW_MS. */
#define BG_TILES (128L * 128L)

static void said_built(tn_world *w, int bw, int bh, float jump, double ms, const char *how)
{
    if (ms > GRAPH_SLOW_MS)
        tn_world_message(w, "graph for a %dx%d body, jump %.1f built in %.0f ms%s", bw, bh,
                         (double)jump, ms, how);
}

#ifdef BG_THREADS
/* The background build's cancel callback (tn_surf.h CANCEL): its slot's
 * flag, set by job_stop on this thread, read on the build's. */
static bool job_stopped(void *flag) { return atomic_load((atomic_bool *)flag); }

static int job_run(void *arg)
{
    tn_wbots *s = arg;
    double t0 = s->job.clock ? s->job.clock() : 0.0;
    s->job.st =
        s->job.repair ? tn_surf_sync(s->job.g, s->job.map, &s->job.err)
        : s->job.g    ? tn_surf_rebuild(s->job.g, s->job.map, &s->job.prof, &s->job.err)
                   : tn_surf_create(s->job.map, &s->job.prof, s->job.alloc, &s->job.g, &s->job.err);
    s->job.ms = s->job.clock ? (s->job.clock() - t0) * 1e3 : 0.0;
    /* the first edit's repair as cheap as the next ones (tn_surf.h): its
     * blocks made here, off the game's thread; out of memory, or a stop
     * (it polls job_stopped too: a quit does not wait for its writing),
     * only leaves that repair dearer */
    if (tn_succeeded(s->job.st) && !s->job.repair) tn_surf_prepare_repairs(s->job.g, NULL);
    atomic_store(&s->job.done, true);
    return 0;
}
#endif

/* Start building the graph for `prof` in cache slot `slot` on another
 * thread (false: not started; the caller builds it). */
static bool job_start(tn_world *w, tn_wbots *s, const tn_surf_profile *prof, int slot,
                      const tn_body *b)
{
#ifdef BG_THREADS
    if (!w->graph_bg || s->job.running) return false;
    const bool slow = s->last_build_ms > GRAPH_SLOW_MS ||
                      (s->last_build_ms <= 0.0 && (long)w->map->w * w->map->h > BG_TILES);
    if (!slow || tn_failed(tn_map_clone(w->map, &s->job.map, NULL))) return false;
    /* the slot's graph leaves the cache while its thread rebuilds it: no
     * look finds it, no bot steps with it (their graph is set before each
     * step, from the cache) */
    if (s->graph[slot] == s->char_graph) s->char_graph = NULL;
    s->job.g = s->graph[slot];
    s->graph[slot] = NULL;
    s->job.slot = slot;
    s->job.rev = w->map->revision;
    s->job.repair = false;
    s->job.prof = *prof;
    atomic_store(&s->job.stop[slot], false);
    s->job.prof.cancel = job_stopped;
    s->job.prof.cancel_user = &s->job.stop[slot];
    s->job.clock = w->clock;
    s->job.alloc = &w->alloc;
    s->job.bw = b->w, s->job.bh = b->h;
    atomic_store(&s->job.done, false);
    if (thrd_create(&s->job.thread, job_run, s) != thrd_success) {
        s->graph[slot] = s->job.g;
        tn_map_destroy(s->job.map);
        s->job.map = NULL;
        return false;
    }
    s->job.running = true;
    w->graph_bg_builds++;
    tn_world_message(w,
                     "graph planner: building the graph for a %dx%d body, jump %.1f in the "
                     "background; the bots wait for it",
                     b->w, b->h, (double)w->phys.jump_height);
    return true;
#else
    (void)w, (void)s, (void)prof, (void)slot, (void)b;
    return false;
#endif
}

#ifdef BG_THREADS
/* The changed tiles a sync of g surely repairs locally (tn_surf.h EDITS:
 * max(2, surfaces / 16), at most 32); more, and it may rebuild the graph
 * (when the repair's searches would be more than half the graph's). */
static int sync_most(const tn_surf *g)
{
    int most = tn_surf_surface_count(g) / 16;
    return most < 2 ? 2 : most > 32 ? 32 : most;
}
#endif

/* Whether edits' repairs run in the background: in a window (graph_bg)
 * on a map over BG_TILES tiles, unless the last repair was fast
 * (REPAIR_SLOW_MS). */
static bool repair_bg(const tn_world *w, const tn_wbots *s)
{
#ifdef BG_THREADS
    return w->graph_bg && (long)w->map->w * w->map->h > BG_TILES &&
           (s->last_repair_ms <= 0.0 || s->last_repair_ms > REPAIR_SLOW_MS);
#else
    (void)w, (void)s;
    return false;
#endif
}

/* Whether a body has the profile: the physics the world has (every body
 * steps under w->phys) and the size of the character or of an extra bot
 * (they keep the size they were made with). */
static bool profile_wanted(const tn_world *w, const tn_wbots *s, const tn_surf_profile *prof)
{
    if (memcmp(&prof->phys, &w->phys, sizeof w->phys) != 0) return false;
    if (prof->w == w->character.w && prof->h == w->character.h) return true;
    for (int i = 0; i < s->n; i++)
        if (prof->w == s->ebody[i].w && prof->h == s->ebody[i].h) return true;
    return false;
}

/* Whether graph g misses edits made to the map since it was built or
 * repaired (not: repaired on a copy of the map as it is, which a sync
 * adopts with one pass over the tiles). */
static bool behind(const tn_world *w, const tn_surf *g)
{
    return tn_surf_map_revision(g) != w->map->revision;
}

/* The cached graph of a body's profile furthest behind the map's edits
 * (-1: none is behind), the next a background repair takes: each graph
 * in turn, the one waiting longest first, so a drag of the block tool
 * with bots of two sizes about keeps up both. */
static int stale_slot(const tn_world *w, const tn_wbots *s)
{
    int k = -1;
    for (int i = 0; i < GRAPH_CACHE; i++) {
        const tn_surf *g = s->graph[i];
        if (!g || !behind(w, g) || !profile_wanted(w, s, tn_surf_get_profile(g))) continue;
        if (k < 0 || w->map->revision - tn_surf_map_revision(g) >
                         w->map->revision - tn_surf_map_revision(s->graph[k]))
            k = i;
    }
    return k;
}

/* Repair the graph in cache slot `slot` for the edits made to the map on
 * another thread, when repairs run there (repair_bg) and no job runs
 * (false: not started; the caller repairs it).  Meanwhile the graph is out
 * of the cache, as during a build: the bots that need it stand by, a jump
 * under way goes on (tn_bot_coast). */
static bool repair_start(tn_world *w, tn_wbots *s, int slot)
{
#ifdef BG_THREADS
    if (s->job.running || !repair_bg(w, s)) return false;
    if (tn_failed(tn_map_clone(w->map, &s->job.map, NULL))) return false;
    tn_surf *g = s->graph[slot];
    if (g == s->char_graph) s->char_graph = NULL;
    s->job.g = g;
    s->graph[slot] = NULL;
    s->job.slot = slot;
    s->job.rev = w->map->revision;
    s->job.prof = *tn_surf_get_profile(g); /* (its own stop flag: see job.stop) */
    s->job.repair = true;
    s->job.most = (uint32_t)sync_most(g);
    s->job.clock = w->clock;
    s->job.alloc = &w->alloc;
    s->job.bw = s->job.prof.w, s->job.bh = s->job.prof.h;
    atomic_store(&s->job.stop[slot], false);
    atomic_store(&s->job.done, false);
    if (thrd_create(&s->job.thread, job_run, s) != thrd_success) {
        s->graph[slot] = g;
        s->job.g = NULL;
        s->job.repair = false;
        tn_map_destroy(s->job.map);
        s->job.map = NULL;
        return false;
    }
    s->job.running = true;
    s->bg_repairs++;
    return true;
#else
    (void)w, (void)s, (void)slot;
    return false;
#endif
}

#ifdef BG_THREADS
/* Whether more tiles changed between the job's copy and the map than a
 * sync surely repairs locally (tn_surf.h EDITS: max(2, surfaces / 16), at
 * most 32): the sync might then rebuild the graph on this thread. */
static bool job_outrun(const tn_world *w, const tn_wbots *s)
{
    const tn_map *c = s->job.map, *m = w->map;
    if (!s->job.g || c->w != m->w || c->h != m->h) return false;
    const int most = sync_most(s->job.g);
    const size_t n = (size_t)m->w * (size_t)m->h;
    int changed = 0;
    for (size_t i = 0; i < n && changed <= most; i++) changed += c->tile[i] != m->tile[i];
    return changed > most;
}
#endif

/* A library message without its module's prefix ("surf: ", "bot: ",
 * "path: ", "phys: "; tn_common.h), for the messages here that say who
 * speaks themselves ("graph planner: ...", "graph build failed (...)"). */
static const char *unprefixed(const char *m)
{
    static const char *const prefix[] = {"surf: ", "bot: ", "path: ", "phys: "};
    for (int k = 0; k < 4; k++)
        if (!strncmp(m, prefix[k], strlen(prefix[k]))) return m + strlen(prefix[k]);
    return m;
}

/* Why the build of `prof` (in the background or on this thread) failed on
 * the map as it is now (tn_wbots.failed), NULL when it did not. */
static const char *build_failed(const tn_world *w, const tn_wbots *s, const tn_surf_profile *prof)
{
    for (int k = 0; k < s->nfailed; k++)
        if (s->failed[k].rev == w->map->revision && tn_surf_same_profile(&s->failed[k].prof, prof))
            return s->failed[k].msg;
    return NULL;
}

/* The same for the character's graph, where the bots plan with the graph. */
static const char *char_build_failed(const tn_world *w, const tn_wbots *s)
{
    if (!graph_mode(w, s)) return NULL;
    tn_surf_profile prof = tn_surf_profile_make(w->character.w, w->character.h, &w->phys);
    return build_failed(w, s, &prof);
}

/* A build of `prof` at map revision `rev` failed with `msg`: remembered
 * (the entries of an older revision are dropped: the map changed since;
 * the oldest goes when FAILED_MAX are kept). */
static void note_failed(tn_wbots *s, const tn_surf_profile *prof, uint32_t rev, const char *msg)
{
    int n = 0;
    for (int k = 0; k < s->nfailed; k++)
        if (s->failed[k].rev == rev && !tn_surf_same_profile(&s->failed[k].prof, prof))
            s->failed[n++] = s->failed[k];
    if (n == FAILED_MAX) {
        memmove(s->failed, s->failed + 1, (FAILED_MAX - 1) * sizeof s->failed[0]);
        n--;
    }
    s->failed[n].prof = *prof;
    s->failed[n].rev = rev;
    snprintf(s->failed[n].msg, sizeof s->failed[n].msg, "%s", unprefixed(msg));
    s->nfailed = n + 1;
}

/* A build on this thread failed (or the sync of a cached graph): said,
 * remembered (not built again for this map and profile: each plan of each
 * bot would), and the graph dropped. */
static void failed_here(tn_world *w, tn_wbots *s, int slot, const tn_surf_profile *prof,
                        const char *msg)
{
    note_failed(s, prof, w->map->revision, msg);
    tn_world_message(w, "graph planner: %s (tried again after a map edit or a slider change)",
                     unprefixed(msg));
    if (s->char_graph == s->graph[slot]) s->char_graph = NULL;
    surf_destroy(s, s->graph[slot]);
    s->graph[slot] = NULL;
}

static void fit_query(const tn_wbots *s, const tn_surf *g);

/* Note the frame of each cached graph's repairs (seen_frame): called
 * where repairs are made and each step.  A graph new in its slot (a
 * build, a rebuild, a background copy) counts as not repaired; a
 * background repair's collection notes itself (repair_collect). */
static void repairs_seen(const tn_world *w, tn_wbots *s)
{
    for (int i = 0; i < GRAPH_CACHE; i++) {
        const tn_surf *g = s->graph[i];
        if (!g) continue;
        int local, full;
        tn_surf_repair_counts(g, &local, &full);
        if (s->seen_g[i] != g) {
            s->seen_g[i] = g;
            s->seen_frame[i] = w->frame - REPAIR_SHOW;
        } else if (local != s->seen_local[i]) {
            s->seen_frame[i] = w->frame;
        }
        s->seen_local[i] = local;
    }
}

#ifdef BG_THREADS
/* The job begun again on a new copy of the map (edits outran it); false
 * when that failed (no memory or no thread): it is then put in the cache
 * as it is, and graph_for's sync catches it up. */
static bool job_again(tn_world *w, tn_wbots *s)
{
    tn_map *again = NULL;
    if (tn_failed(tn_map_clone(w->map, &again, NULL))) return false;
    tn_map_destroy(s->job.map);
    s->job.map = again;
    s->job.rev = w->map->revision;
    atomic_store(&s->job.done, false);
    if (thrd_create(&s->job.thread, job_run, s) == thrd_success) return true;
    atomic_store(&s->job.done, true);
    return false;
}

/* A background repair that ended (job_collect): the graph goes back in
 * its slot, and the next graph behind the map's edits (stale_slot: edits
 * made meanwhile, or another body size's graph) is repaired by another on
 * a new copy (unless `wait`: a click or the end of the world takes the
 * graphs as they are, and graph_for syncs them).  One that failed or was
 * told to stop leaves the cache (built again when needed), as after a
 * failed repair on this thread (tn_wbots_on_edit). */
static void repair_collect(tn_world *w, tn_wbots *s, bool wait, bool stopped, bool cancelled)
{
    s->job.running = false;
    s->job.repair = false;
    tn_map_destroy(s->job.map);
    s->job.map = NULL;
    if (cancelled || tn_failed(s->job.st)) {
        if (!cancelled) tn_world_message(w, "graph planner: %s", unprefixed(s->job.err.msg));
        surf_destroy(s, s->job.g);
    } else {
        s->last_repair_ms = s->job.ms;
        s->graph[s->job.slot] = s->job.g;
        s->graph_used[s->job.slot] = ++s->tick;
        fit_query(s, s->job.g);
        repairs_seen(w, s);
        s->seen_frame[s->job.slot] = w->frame; /* (a new copy, repaired) */
    }
    s->job.g = NULL;
    if (!wait && !stopped && !cancelled && tn_succeeded(s->job.st)) {
        const int next = stale_slot(w, s);
        if (next >= 0) repair_start(w, s, next);
    }
}
#endif

/* A background build that ended (or with `wait`, one still running, once
 * it ends) put in its cache slot; it is synced with the map (edits made
 * meanwhile) when graph_for next finds it, or built again when they are
 * too many for that (job_outrun). */
static void job_collect(tn_world *w, tn_wbots *s, bool wait)
{
#ifdef BG_THREADS
    if (!s->job.running || (!wait && !atomic_load(&s->job.done))) return;
    thrd_join(s->job.thread, NULL);
    /* (a stop that came after the build's last poll: it ended all the
     * same, and is kept; its graph must not read the flag set later on) */
    const bool stopped = atomic_exchange(&s->job.stop[s->job.slot], false);
    const bool cancelled = tn_status_detail(s->job.st, TN_CANCELLED);
    if (s->job.repair) {
        repair_collect(w, s, wait, stopped, cancelled);
        return;
    }
    /* edits made meanwhile too many for a local repair: built again, in
     * the background, on a new copy (the bots wait on), not by the sync on
     * this thread (a freeze as long as the build); a click or the end of
     * the world takes the graph as it is (their wait is one build) */
    if (!wait && !stopped && w->graph_bg && tn_succeeded(s->job.st) && job_outrun(w, s) &&
        job_again(w, s)) {
        w->graph_bg_builds++;
        return;
    }
    s->job.running = false;
    tn_map_destroy(s->job.map);
    s->job.map = NULL;
    if (cancelled) { /* (no message: it was told to stop; its time says nothing) */
        w->graph_cancels++;
        surf_destroy(s, s->job.g); /* (0 nodes) */
    } else if (tn_failed(s->job.st)) {
        /* not started again for this map and profile (build_failed) */
        w->graph_bg_failures++;
        /* (its time is kept out of last_build_ms: a build that failed at
         * its first allocation says nothing of how long one takes, and the
         * next, for a slider's new value, would be made on this thread) */
        note_failed(s, &s->job.prof, s->job.rev, s->job.err.msg);
        tn_world_message(w,
                         "graph planner: %s (the graph for a %dx%d body, jump %.1f; tried again "
                         "after a map edit or a slider change)",
                         unprefixed(s->job.err.msg), s->job.bw, s->job.bh,
                         (double)s->job.prof.phys.jump_height);
        surf_destroy(s, s->job.g); /* (a failed rebuild leaves 0 nodes) */
    } else {
        s->last_build_ms = s->job.ms;
        s->graph[s->job.slot] = s->job.g;
        s->graph_used[s->job.slot] = ++s->tick;
        fit_query(s, s->job.g);
        /* (the job's jump: the slider may have moved on meanwhile) */
        said_built(w, s->job.bw, s->job.bh, s->job.prof.phys.jump_height, s->job.ms,
                   " in the background");
    }
    s->job.g = NULL;
#else
    (void)w, (void)s, (void)wait;
#endif
}

/* A background build under way told to stop (tn_surf.h CANCEL): it ends
 * at its next poll (a few ms while it searches, at most about 100 ms on a
 * 256x256 level; the repairs' preparation after it polls every MB) and
 * job_collect then drops it.  For one nobody will use:
 * the world is destroyed, its map replaced, or its profile is no body's
 * (job_wanted: a jump or size the slider moved on from). */
static void job_stop(tn_wbots *s)
{
#ifdef BG_THREADS
    if (s->job.running) atomic_store(&s->job.stop[s->job.slot], true);
#else
    (void)s;
#endif
}

void tn_wbots_stop_build(tn_world *w)
{
    if (of(w)) job_stop(of(w));
}

int tn_wbots_builds_cancelled(const tn_world *w) { return w->graph_cancels; }
int tn_wbots_repairs_started(const tn_world *w) { return of(w) ? of(w)->bg_repairs : 0; }
int tn_wbots_builds_started(const tn_world *w) { return w->graph_bg_builds; }
int tn_wbots_builds_failed(const tn_world *w) { return w->graph_bg_failures; }

/* The character's graph is repaired in the background (away from the
 * cache), or waits behind the map's edits for a repair under way (another
 * size's graph's) to end. */
static bool char_waits_repair(const tn_world *w, const tn_wbots *s)
{
    if (!s || !s->job.running || !s->job.repair) return false;
    const tn_surf *g = tn_wbots_character_graph(w);
    return !g || behind(w, g);
}

int tn_wbots_graphs_behind(const tn_world *w)
{
    const tn_wbots *s = of(w);
    if (!s) return 0;
    int n = s->job.running; /* (a build or repair under way) */
    for (int i = 0; i < GRAPH_CACHE; i++)
        n += s->graph[i] && behind(w, s->graph[i]) &&
             profile_wanted(w, s, tn_surf_get_profile(s->graph[i]));
    return n;
}

void tn_wbots_compare_counts(const tn_world *w, int *here, int *background, int *dropped)
{
    const tn_wbots *s = of(w);
    if (here) *here = s ? s->cmp.sync : 0;
    if (background) *background = s ? s->cmp.started : 0;
    if (dropped) *dropped = s ? s->cmp.dropped : 0;
}

/* Whether the background build under way is for a profile a body has
 * (profile_wanted): not, after a jump or size slider moved on from its
 * value. */
static bool job_wanted(const tn_world *w, const tn_wbots *s)
{
    return profile_wanted(w, s, &s->job.prof);
}

/* The cached graph for a body's profile (made or rebuilt when the profile
 * is new or the map changed); NULL when the map is too large or the
 * profile is out of range (the classic planner is used then), and while
 * it is built in the background or a hold puts its build off (then
 * s->waiting). */
static tn_surf *graph_for(tn_world *w, tn_wbots *s, const tn_body *b, int mode)
{
    const bool build = mode != LOOK;
    if (!graph_fits(w)) {
        if (!s->graph_off_said && build) {
            tn_world_message(w, "graph planner off on a %dx%d map (above 1024x1024 tiles)",
                             w->map->w, w->map->h);
            s->graph_off_said = true;
        }
        return NULL;
    }
    if (build) {
        job_collect(w, s, false);
        s->waiting = false;
        /* a build nobody waits for stops: the graph wanted now waits its
         * turn behind it (the next step puts it away and starts that one) */
        if (s->job.running && !job_wanted(w, s)) job_stop(s);
    }
    tn_surf_profile prof = tn_surf_profile_make(b->w, b->h, &w->phys);
    prof.threads = w->graph_threads;
    int slot = -1, lru = 0;
    for (int i = 0; i < GRAPH_CACHE; i++) {
        if (s->graph[i] && tn_surf_same_profile(tn_surf_get_profile(s->graph[i]), &prof)) slot = i;
        if (s->graph_used[i] < s->graph_used[lru]) lru = i;
    }
    tn_error e;
    /* a graph behind the map's edits (another size's, while a background
     * repair took the last one used) is repaired in the background too,
     * when repairs run there: the bots wait for it as for a build (the
     * repair under way first); a click's plan is made at once */
    if (slot >= 0 && build && mode != BUILD_NOW && behind(w, s->graph[slot]) && repair_bg(w, s) &&
        (s->job.running || repair_start(w, s, slot))) {
        s->waiting = true;
        return NULL;
    }
    if (slot >= 0) {
        if (build && tn_failed(tn_surf_sync(s->graph[slot], w->map, &e))) {
            failed_here(w, s, slot, &prof, e.msg);
            return NULL;
        }
        if (build) fit_query(s, s->graph[slot]);
        if (build) repairs_seen(w, s);
        if (build) s->graph_used[slot] = ++s->tick; /* (a look, as drawing's, is no use) */
        return s->graph[slot];
    }
    if (!build) return NULL;
    /* its build failed on the map as it is: not started again (nor built
     * here for a click: a freeze as long as the build, to fail as it did;
     * nor waited for: a build under way is another's) */
    if (build_failed(w, s, &prof)) return NULL;
    /* a click's plan is made at once: it waits for a build under way only
     * when its graph is not in the cache (that build may be it); a build
     * for another profile (an extra bot's, a value left) goes on */
    if (mode == BUILD_NOW && s->job.running) {
        job_collect(w, s, true);
        return graph_for(w, s, b, mode); /* (once: no build runs now) */
    }
    if (s->hold && s->last_build_ms > GRAPH_SLOW_MS) {
        if (!s->hold_said)
            tn_world_message(w,
                             "graph planner: the graph for the new value is built when the "
                             "slider is let go (the last build took %.0f ms)",
                             s->last_build_ms);
        s->hold_said = true;
        s->waiting = true;
        return NULL;
    }
    /* one background build at a time: another profile's waits its turn */
    if (s->job.running || (mode == BUILD && job_start(w, s, &prof, lru, b))) {
        s->waiting = true;
        return NULL;
    }
    /* the least recently used graph is built again in place (a slider
     * move): its scratch is kept, so the build does not fault in fresh
     * pages (tn_surf_rebuild) */
    if (s->graph[lru] == s->char_graph) s->char_graph = NULL;
    double t0 = w->clock ? w->clock() : 0.0;
    tn_status st = s->graph[lru] ? tn_surf_rebuild(s->graph[lru], w->map, &prof, &e)
                                 : tn_surf_create(w->map, &prof, &w->alloc, &s->graph[lru], &e);
    /* a long build is said once (the window freezes meanwhile); only with a
     * clock (the window's): headless runs say nothing that depends on time */
    double ms = w->clock ? (w->clock() - t0) * 1e3 : 0.0;
    s->last_build_ms = ms;
    if (tn_succeeded(st)) said_built(w, b->w, b->h, w->phys.jump_height, ms, "");
    if (tn_failed(st)) {
        failed_here(w, s, lru, &prof, e.msg);
        return NULL;
    }
    s->graph_used[lru] = ++s->tick;
    fit_query(s, s->graph[lru]); /* (rebuilt in place: its object stays) */
    return s->graph[lru];
}

/* A build put off by a hold (graph_for said so): the bot keeps what it has
 * and does not step (its plan is for the old profile). */
static bool held_back(const tn_world *w, const tn_wbots *s, const tn_surf *g)
{
    return !g && graph_mode(w, s) && s->waiting;
}

/* The extra bots' query object for graph g, NULL when there is none. */
static tn_surf_query *query_of(const tn_wbots *s, const tn_surf *g)
{
    for (int k = 0; g && k <= GRAPH_CACHE; k++)
        if (s->qg[k] == g) return s->qq[k];
    return NULL;
}

/* The extra bots' query object for graph g (made now if none; NULL when
 * that fails: they then plan whole on the graph's own state). */
static tn_surf_query *query_for(tn_world *w, tn_wbots *s, tn_surf *g)
{
    tn_surf_query *q = query_of(s, g);
    if (q) return q;
    for (int k = 0; k <= GRAPH_CACHE; k++)
        if (!s->qg[k]) {
            if (tn_failed(tn_surf_query_create(g, &w->alloc, &s->qq[k], NULL))) return NULL;
            s->qg[k] = g;
            return s->qq[k];
        }
    return NULL;
}

/* After g changed (an edit's repair, a sync, a rebuild): the extra bots'
 * query object for it grows now, if it must, so that their plans in the
 * frames after never allocate (tn_surf_query_fit).  A failure is left for
 * their next plan, which says it. */
static void fit_query(const tn_wbots *s, const tn_surf *g)
{
    tn_surf_query *q = query_of(s, g);
    tn_error e;
    if (q) (void)tn_surf_query_fit(q, &e);
}

/* The extra bot making its plan in slices (one at a time), -1 none. */
static int planning_bot(const tn_wbots *s)
{
    for (int i = 0; i < s->n; i++)
        if (tn_bot_planning(s->ebot[i])) return i;
    return -1;
}

static tn_surf *use_planner(tn_world *w, tn_wbots *s, tn_bot *bot, const tn_body *b, int mode)
{
    tn_surf *g = graph_mode(w, s) ? graph_for(w, s, b, mode) : NULL;
    if (held_back(w, s, g)) return NULL;
    tn_bot_set_graph(bot, g);
    if (bot == s->bot) {
        s->char_graph = g;
    } else { /* an extra bot: in slices on the graph's shared object (or whole) */
        const int n = tn_wbots_plan_slice(w);
        tn_bot_set_query(bot, g && n > 0 ? query_for(w, s, g) : NULL, n);
    }
    return g;
}

/* The classic bot's start tile: the body's, or beside it when the body
 * stands on a ledge edge (as tn_bot plans). */
static void classic_start(const tn_map *m, const tn_body *b, const tn_phys_params *p, int *x,
                          int *y)
{
    int tx, ty;
    tn_body_tile(b, p, &tx, &ty);
    *x = tx;
    *y = ty;
    static const int DX[3] = {0, 1, -1};
    for (int i = 0; i < 3; i++)
        if (tn_path_box_fits(m, tx + DX[i], ty, b->w, b->h) &&
            (!b->on_ground || tn_path_box_ground(m, tx + DX[i], ty, b->w))) {
            *x = tx + DX[i];
            return;
        }
}

static void classic_compare(tn_world *w, tn_wbots *s, int gx, int gy);

/* Both planners' answers for a click (the HUD compares them). */
/* With the classic planner selected, the graph's answer for the click's
 * goal, searched the way the graph bot would plan it, when the character's
 * graph is in the cache and has every edit of the map (built while the
 * graph planner was selected: a build for a classic click would cost far
 * more than the answer; the HUD then says "graph (not selected)"). */
static void graph_compare(tn_world *w, tn_wbots *s, tn_surf *g, int gx, int gy)
{
    const tn_body *b = &w->character;
    if (!g || !tn_surf_in_sync(g, w->map)) return;
    s->last.goff = false;
    if (!b->on_ground) { /* the graph bot plans on landing: not searched */
        s->last.gnostart = true;
        return;
    }
    int start = tn_surf_node_of_body(g, b);
    if (start < 0) { /* over a ledge's edge: the node beside it, as tn_bot plans */
        int row = (int)lroundf((b->y + (float)b->h * T) / T), j = tn_surf_lattice_j(g, b->x);
        start = tn_surf_node_at(g, row, j + 1);
        if (start < 0) start = tn_surf_node_at(g, row, j - 1);
    }
    if (start < 0) return;
    tn_surf_stats st;
    int n;
    double t0 = w->clock ? w->clock() : 0.0;
    tn_status r = tn_surf_find(g, start, gx, gy, NULL, 0, &n, &st, NULL);
    s->last.gus = w->clock ? (w->clock() - t0) * 1e6 : -1.0;
    /* a plan of no move (the closest place is where it stands) is no path,
     * as the bot reads it */
    if (tn_failed(r) || (tn_status_detail(r, TN_UNREACHABLE) && st.frames == 0)) return;
    s->last.gs = r;
    s->last.gframes = st.frames;
}

static void compare_planners(tn_world *w, tn_wbots *s, int x, int y)
{
    s->last.valid = false;
    const tn_body *b = &w->character;
    /* graph: only when it is the selected planner (a build on the click of
     * a classic run would cost far more than the answer shown) */
    tn_surf *g = graph_mode(w, s) ? graph_for(w, s, b, BUILD_NOW) : NULL;
    /* the goal the bot takes (tn_bot_goto): the clicked tile itself where
     * the graph stands there (a box over a ledge's edge), else the snapped
     * one; both planners are asked for that same goal (the classic one was
     * asked for the snapped goal: "found" on the floor below a ledge the
     * graph bot had no path to) */
    int gx = x, gy = y;
    if (!(g && tn_surf_node_of_tile(g, x, y) >= 0) &&
        !tn_bot_snap_goal(w->map, b->w, b->h, x, y, &gx, &gy))
        return;
    s->last.valid = true;
    s->last.goff = !graph_mode(w, s);
    s->last.gs = TN_FAILURE;
    s->last.gframes = -1;
    s->last.gnostart = false;
    s->last.gus = -1.0;
    /* the graph's answer is the bot's own plan, read once tn_bot_goto made
     * it (graph_answer): one search of the graph per click, not two */
    classic_compare(w, s, gx, gy);
    if (!graph_mode(w, s)) {
        /* the classic planner: the graph's answer from the character's
         * graph when one is built (while the graph planner was selected),
         * brought up to the map's edits when few and the map small (a local
         * repair, CMP_SYNC_TILES); none is built for a classic click */
        tn_surf *cg = graph_for(w, s, b, LOOK);
        if (cg && !tn_surf_in_sync(cg, w->map) && (long)w->map->w * w->map->h <= CMP_SYNC_TILES &&
            w->map->revision - tn_surf_map_revision(cg) <= CMP_SYNC_EDITS)
            cg = graph_for(w, s, b, BUILD_NOW);
        graph_compare(w, s, cg, gx, gy);
    }
}

/* The graph's answer for the click: the plan tn_bot_goto just made with
 * it (plans_before: the bot's count before).  A click in the air plans on
 * landing: not searched.  A plan of no move (the closest spot is where the
 * character stands) is no path, as the bot reads it. */
static void graph_answer(tn_wbots *s, int plans_before)
{
    const tn_bot_info i = tn_bot_get_info(s->bot);
    if (!s->last.valid || s->last.goff || i.planner != 1) return;
    if (i.pending_reason[0]) {
        s->last.gnostart = true;
        return;
    }
    if (i.plans == plans_before) return; /* refused before any search: none */
    s->last.gus = i.search_us;
    if (i.state == TN_BOT_NO_PATH || i.plan_frames < 0) return;
    s->last.gs =
        i.state == TN_BOT_PARTIAL ? TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE : TN_SUCCESS;
    s->last.gframes = i.plan_frames;
}

/* The classic answer in frames, as the graph's is its plan's simulated
 * frames: a classic bot of its own follows the classic plan from the
 * character's body under the real physics (tn_body_step); the frames it
 * moves until it arrives (or stands at the end of a partial plan), counted
 * as a graph plan's are: from the landing when the click was in the air
 * (both plan on landing), and without the last step, in which a bot only
 * sees that it is there.  Else one of: */
#define CRUN_NONE (-1)  /* not run (no bot: out of memory) */
#define CRUN_STUCK (-2) /* it stopped without getting there (stuck, no path) */
#define CRUN_LONG (-3)  /* still under way after CRUN_MAX frames */
#define CRUN_MAX 30000  /* (8 minutes at 60 steps a second) */

static int classic_run(tn_bot **bot, const tn_allocator *a, tn_path *pf, const tn_map *m,
                       tn_body body, const tn_phys_params *p, int heuristic, int gx, int gy)
{
    if (!*bot && tn_failed(tn_bot_create(NULL, a, bot, NULL))) {
        *bot = NULL;
        return CRUN_NONE;
    }
    tn_bot_set_heuristic(*bot, heuristic);
    int f = CRUN_STUCK;
    if (tn_succeeded(tn_bot_goto(*bot, pf, m, &body, p, gx, gy, NULL))) {
        int steps = 0;
        bool landed = body.on_ground;
        for (f = 0; steps < CRUN_MAX && tn_bot_active(*bot); steps++) {
            tn_body_step(&body, m, p, tn_bot_step(*bot, pf, m, &body, p));
            f += landed;
            landed = landed || body.on_ground;
        }
        const tn_bot_state st = tn_bot_get_info(*bot).state;
        if (tn_bot_active(*bot))
            f = CRUN_LONG;
        else if (st != TN_BOT_ARRIVED && st != TN_BOT_PARTIAL)
            f = CRUN_STUCK;
        else if (f > 0)
            f--; /* (the step that only saw it there) */
    }
    tn_bot_stop(*bot);
    return f;
}

/* A classic run's frames for the HUD, after a comma ("" when not run). */
static const char *run_text(int frames, char *buf, size_t cap)
{
    if (frames >= 0)
        snprintf(buf, cap, ", %d frame%s", frames, PLURAL(frames));
    else if (frames == CRUN_STUCK)
        snprintf(buf, cap, ", its run stuck");
    else if (frames == CRUN_LONG)
        snprintf(buf, cap, ", run > %d frames", CRUN_MAX);
    else
        snprintf(buf, cap, "%s", "");
    return buf;
}

#ifdef BG_THREADS
static int cmp_run(void *arg)
{
    tn_wbots *s = arg;
    tn_error e;
    if (!s->cmp.pf && tn_failed(tn_path_create(s->cmp.map->w, s->cmp.map->h, &s->cmp.pf_phys,
                                               SEARCH_LIMIT, s->cmp.alloc, &s->cmp.pf, &e))) {
        s->cmp.pf = NULL;
        s->cmp.pf_failed = true;
    } else {
        tn_path_stats st;
        double t0 = s->cmp.clock ? s->cmp.clock() : 0.0;
        s->cmp.cs = tn_path_find(s->cmp.pf, s->cmp.map, &s->cmp.q, NULL, 0, NULL, &st, NULL);
        s->cmp.cus = s->cmp.clock ? (s->cmp.clock() - t0) * 1e6 : -1.0;
        s->cmp.ctiles = tn_succeeded(s->cmp.cs) ? st.raw_nodes : -1;
        if (tn_succeeded(s->cmp.cs))
            s->cmp.cframes =
                classic_run(&s->cmp.bot, s->cmp.alloc, s->cmp.pf, s->cmp.map, s->cmp.body,
                            &s->cmp.phys, s->cmp.q.heuristic, s->cmp.q.goal_x, s->cmp.q.goal_y);
    }
    atomic_store(&s->cmp.done, true);
    return 0;
}
#endif

/* Start the classic search s->last asks for in the background (false:
 * not started; the caller searches on its own thread). */
static bool cmp_start(tn_world *w, tn_wbots *s)
{
#ifdef BG_THREADS
    if (s->cmp.running || s->cmp.pf_failed) return false;
    if (tn_failed(tn_jump_model_init(&s->cmp.jm, &w->phys, NULL)) ||
        tn_failed(tn_map_clone(w->map, &s->cmp.map, NULL)))
        return false;
    const tn_body *b = &w->character;
    s->cmp.q =
        tn_path_query_make(s->last.tx, s->last.ty, s->last.gx, s->last.gy, b->w, b->h, &s->cmp.jm);
    s->cmp.q.heuristic = s->heuristic;
    s->cmp.alloc = &w->alloc;
    s->cmp.clock = w->clock;
    s->cmp.rev = w->map->revision;
    s->cmp.jump = w->phys.jump_height;
    s->cmp.bw = b->w, s->cmp.bh = b->h;
    s->cmp.cs = TN_FAILURE;
    s->cmp.ctiles = -1;
    s->cmp.cus = -1.0;
    s->cmp.cframes = CRUN_NONE;
    s->cmp.body = *b;
    s->cmp.phys = w->phys;
    atomic_store(&s->cmp.done, false);
    if (thrd_create(&s->cmp.thread, cmp_run, s) != thrd_success) {
        tn_map_destroy(s->cmp.map);
        s->cmp.map = NULL;
        return false;
    }
    s->cmp.running = true;
    s->cmp.started++;
    return true;
#else
    (void)w, (void)s;
    return false;
#endif
}

static void classic_search_here(tn_world *w, tn_wbots *s);

/* A background classic search that ended (with `wait`, once it ends): its
 * answer shown when it is the one the HUD waits for (the same start, goal,
 * map revision, jump height and size as the request and the world now),
 * else dropped; a newer request waiting for it is started then. */
static void cmp_collect(tn_world *w, tn_wbots *s, bool wait)
{
#ifdef BG_THREADS
    if (!s->cmp.running || (!wait && !atomic_load(&s->cmp.done))) return;
    thrd_join(s->cmp.thread, NULL);
    s->cmp.running = false;
    tn_map_destroy(s->cmp.map);
    s->cmp.map = NULL;
    if (!s->last.searching) return; /* (nothing waits for it: a new map or planner) */
    const tn_body *b = &w->character;
    const bool now = w->map->revision == s->cmp.rev && w->phys.jump_height == s->cmp.jump &&
                     b->w == s->cmp.bw && b->h == s->cmp.bh;
    const bool asked = s->last.rev == s->cmp.rev && s->last.jump == s->cmp.jump &&
                       s->last.bw == s->cmp.bw && s->last.bh == s->cmp.bh &&
                       s->last.tx == s->cmp.q.start_x && s->last.ty == s->cmp.q.start_y &&
                       s->last.gx == s->cmp.q.goal_x && s->last.gy == s->cmp.q.goal_y;
    if (s->cmp.pf_failed) { /* (no second finder: as before, on this thread) */
        classic_search_here(w, s);
    } else if (now && asked) {
        s->last.cs = s->cmp.cs;
        s->last.ctiles = s->cmp.ctiles;
        s->last.cframes = s->cmp.cframes;
        s->last.cus = s->cmp.cus;
        s->last.searching = false;
    } else {
        s->cmp.dropped++;
        /* a newer click (or re-plan) on the map as it is: its search now */
        if (!(s->last.rev == w->map->revision && s->last.jump == w->phys.jump_height &&
              s->last.bw == b->w && s->last.bh == b->h && cmp_start(w, s))) {
            s->last.searching = false;
            s->last.dropped = w->map->revision != s->last.rev ? "the map changed meanwhile"
                              : w->phys.jump_height != s->last.jump
                                  ? "the jump height changed meanwhile"
                                  : "the size changed meanwhile";
        }
    }
#else
    (void)w, (void)s, (void)wait;
#endif
}

/* The classic search s->last asks for, on this thread. */
static void classic_search_here(tn_world *w, tn_wbots *s)
{
    const tn_body *b = &w->character;
    s->last.searching = false;
    tn_jump_model jm;
    if (s->pf && tn_succeeded(tn_jump_model_init(&jm, &w->phys, NULL))) {
        tn_path_query q =
            tn_path_query_make(s->last.tx, s->last.ty, s->last.gx, s->last.gy, b->w, b->h, &jm);
        q.heuristic = s->heuristic;
        tn_path_stats st;
        double t0 = w->clock ? w->clock() : 0.0;
        s->cmp.sync++;
        s->last.cs = tn_path_find(s->pf, w->map, &q, NULL, 0, NULL, &st, NULL);
        if (w->clock) s->last.cus = (w->clock() - t0) * 1e6;
        if (tn_succeeded(s->last.cs)) {
            s->last.ctiles = st.raw_nodes;
            s->last.cframes = classic_run(&s->run_bot, &w->alloc, s->pf, w->map, *b, &w->phys,
                                          s->heuristic, s->last.gx, s->last.gy);
        }
    }
}

/* The classic answer, from where the character is to the snapped goal
 * (gx, gy): the search the classic bot makes (its start tile, its
 * heuristic); the path itself is not kept, only its length.  With the
 * graph selected and background builds on (the window) it is searched in
 * the background (cmp: up to 210 ms, the first 680 ms, measured on a
 * 512x512 level in a loaded window, for an answer only the HUD shows);
 * headless runs and the classic planner selected (its search is the
 * bot's plan) search here. */
static void classic_compare(tn_world *w, tn_wbots *s, int gx, int gy)
{
    const tn_body *b = &w->character;
    s->last.cs = TN_FAILURE;
    s->last.ctiles = -1;
    s->last.cframes = CRUN_NONE;
    s->last.cus = -1.0;
    s->last.jump = w->phys.jump_height;
    s->last.bw = b->w;
    s->last.bh = b->h;
    s->last.rev = w->map->revision;
    s->last.redone = false;
    s->last.dropped = NULL;
    s->last.searching = false;
    if (!s->pf) return;
    classic_start(w->map, b, &w->phys, &s->last.tx, &s->last.ty);
    s->last.gx = gx, s->last.gy = gy;
    if (w->graph_bg && graph_mode(w, s) && !s->cmp.pf_failed) {
        s->last.searching = true; /* (after the search under way, when one is) */
        if (s->cmp.running || cmp_start(w, s)) return;
    }
    classic_search_here(w, s);
}

/* After the character's bot may have planned: a graph re-plan made under
 * other physics, another body size or an edited map than the click's
 * classic answer gets the classic answer for the same change (from where
 * the bot re-planned, to its goal), so the HUD never sets the old answer
 * beside the new plan.  (The graph's own answer is the plan itself.) */
static void refresh_compare(tn_world *w, tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    if (i.plans == s->last.plans) return;
    s->last.plans = i.plans;
    if (!s->last.valid || !i.planner || i.replans == 0 || i.goal_x < 0) return;
    const tn_body *b = &w->character;
    if (s->last.jump == w->phys.jump_height && s->last.bw == b->w && s->last.bh == b->h &&
        s->last.rev == w->map->revision)
        return;
    classic_compare(w, s, i.goal_x, i.goal_y);
    s->last.redone = true;
}

/* After the character's bot may have planned: a new plan that is not a
 * re-plan is the goal's first; note which planner made it. */
static void note_first(tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    if (i.plans == s->first_seen) return;
    s->first_seen = i.plans;
    if (i.replans == 0) s->first_graph = i.planner != 0;
}

/* ---- the character's trips ------------------------------------------------- */

/* After the character's bot may have planned: when it made a plan with the
 * graph (a goal's first or a re-plan), copy that search's expansion order
 * (tn_surf_expanded of the graph it searched, before any other search runs
 * on it) for the replay and the explored overlay: the search behind the
 * plan the bot follows now.  A classic plan empties it. */
static void note_search(tn_world *w, tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    if (i.plans == s->sn_seen) return;
    s->sn_seen = i.plans;
    s->plan_jump = w->phys.jump_height;
    s->plan_bw = w->character.w, s->plan_bh = w->character.h;
    s->plan_rev = w->map->revision;
    /* a plan (a re-plan mid-trip too) tried the goal under this world: a
     * slider put back to the goto's value is a change from it */
    s->retry_rev = s->plan_rev, s->retry_jump = s->plan_jump;
    s->retry_bw = s->plan_bw, s->retry_bh = s->plan_bh;
    s->sn_plans = i.plans;
    s->sn_replans = i.replans;
    s->sn_reason = i.plan_reason;
    s->sn_n = 0;
    s->sn_gx = i.goal_x;
    s->sn_gy = i.goal_y;
    s->sn_frames = i.plan_frames;
    s->sn_reached = i.state == TN_BOT_MOVING || i.state == TN_BOT_ARRIVED;
    s->sn_out_of_reach = i.state == TN_BOT_PARTIAL;
    s->sn_unkept = 0;
    if (!i.planner) {
        s->sn_why = "the classic planner made this plan";
        return;
    }
    const tn_surf *g = graph_for(w, s, &w->character, LOOK);
    int n = 0;
    const int32_t *ex = g ? tn_surf_expanded(g, &n) : NULL;
    /* a goal out of reach: the expansion order kept is the closest place's
     * search's, the one that proved the goal out of reach is counted in
     * i.expanded only (it was taken for "no search ran") */
    const bool closest = s->sn_out_of_reach && g && n > 0 && n <= i.expanded;
    if (!g || (n != i.expanded && !closest)) { /* no search ran (no standing node) */
        s->sn_why = "the bot made no search (it stands on no surface)";
        return;
    }
    if (n > s->sn_cap) {
        tn_wbots_search_node *t = tn_alloc_array(&w->alloc, (size_t)n, sizeof *t);
        if (!t) {
            s->sn_why = "out of memory";
            return;
        }
        tn_free(&w->alloc, s->sn);
        s->sn = t;
        s->sn_cap = n;
    }
    for (int k = 0; k < n; k++) {
        int row, j;
        tn_surf_node_pos(g, ex[k], &row, &j);
        s->sn[k].node = ex[k];
        s->sn[k].x = (int32_t)floorf(tn_surf_lattice_x(g, j) / T + 1e-3f);
        s->sn[k].y = row - 1;
    }
    s->sn_n = n;
    s->sn_unkept = i.expanded - n;
    s->sn_why = NULL;
}

int tn_wbots_graph_search(const tn_world *w, tn_wbots_search *out)
{
    const tn_wbots *s = of(w);
    memset(out, 0, sizeof *out);
    out->goal_x = out->goal_y = -1;
    out->frames = -1;
    if (!goto_on(w, s)) {
        out->why = "goto is off on this map";
        return 0;
    }
    if (!s->sn_plans) {
        out->why = "no goto yet";
        return 0;
    }
    out->nodes = s->sn;
    out->count = s->sn_n;
    out->plans = s->sn_plans;
    out->goal_x = s->sn_gx;
    out->goal_y = s->sn_gy;
    out->frames = s->sn_frames;
    out->reached = s->sn_reached;
    out->out_of_reach = s->sn_out_of_reach;
    out->unkept = s->sn_unkept;
    out->replans = s->sn_replans;
    out->reason = s->sn_reason ? s->sn_reason : "";
    out->why = s->sn_why ? s->sn_why : "";
    return s->sn_n;
}

/* After the character's bot may have searched: with the finder shared, a
 * new classic plan's explored tiles are copied (see tn_wbots.ex). */
static void note_explored(tn_world *w, tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    if (!s->ex || i.plans == s->ex_plans) return;
    s->ex_plans = i.plans;
    const int mw = w->map->w;
    for (int y = s->ex_y0; y <= s->ex_y1; y++)
        memset(s->ex + (size_t)y * (size_t)mw + (size_t)s->ex_x0, 0,
               (size_t)(s->ex_x1 - s->ex_x0 + 1));
    s->ex_x0 = 0;
    s->ex_x1 = -1;
    if (i.planner || !tn_path_explored_bounds(s->pf, &s->ex_x0, &s->ex_y0, &s->ex_x1, &s->ex_y1)) {
        s->ex_x0 = 0;
        s->ex_x1 = -1;
        return;
    }
    for (int y = s->ex_y0; y <= s->ex_y1; y++)
        for (int x = s->ex_x0; x <= s->ex_x1; x++) {
            int e = tn_path_explored_at(s->pf, x, y);
            s->ex[(size_t)y * (size_t)mw + (size_t)x] = (uint8_t)(e > 255 ? 255 : e);
        }
}

/* The character's last plan was a classic search cut short by its state
 * limit (SEARCH_LIMIT): the goal may well be reachable, the search only
 * stopped looking (not "out of reach"). */
static bool limit_hit(const tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    return !i.planner && tn_status_detail(tn_bot_plan_error(s->bot)->status, TN_LIMIT_REACHED) &&
           !tn_status_detail(tn_bot_plan_error(s->bot)->status, TN_UNREACHABLE);
}

/* Whose reach a goal is out of: the graph planner's is the physics'
 * (the player's); the classic planner's is its model's, which crosses
 * less (the graph may reach the goal, and says so when it was asked). */
static const char *reach_of(const tn_world *w, const tn_wbots *s, const tn_bot_info *i)
{
    if (i->planner) return "reach";
    /* the graph's answer is the click's: not for a re-plan under another
     * jump height, size or map (a review saw "finds a way" at jump 1) */
    const bool same = s->last.jump == w->phys.jump_height && s->last.bw == w->character.w &&
                      s->last.bh == w->character.h && s->last.rev == w->map->revision;
    if (s->last.valid && same && !s->last.goff && tn_succeeded(s->last.gs) &&
        !tn_status_detail(s->last.gs, TN_UNREACHABLE) && s->last.gframes > 0)
        return "the classic planner's reach (the graph planner finds a way: G)";
    return "the classic planner's reach";
}

/* Why the character's last plan was refused before any search (a goal it
 * cannot stand on at its size now, say), without the module's prefix; NULL
 * when it was not refused or says nothing. */
static const char *refusal(const tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    if (i.active || i.state != TN_BOT_NO_PATH || i.expanded != 0 || i.path_nodes != 0) return NULL;
    const char *m = unprefixed(tn_bot_plan_error(s->bot)->msg);
    return m[0] ? m : NULL;
}

/* The goal as messages name it: "(gx,gy)", and the tile clicked for it
 * when that is neither in the goal's box nor the ground under it (the
 * click snapped: to the ground below a click in the air, a tall box
 * lowered until it fits), so a goal far from the click is not a mystery. */
static const char *goal_name(const tn_world *w, const tn_wbots *s, int gx, int gy, char *buf,
                             size_t cap)
{
    const int bw = w->character.w, bh = w->character.h;
    const int cx = s->click_x, cy = s->click_y;
    if (cx < 0 || (cx >= gx && cx < gx + bw && cy >= gy - bh + 1 && cy <= gy + 1))
        snprintf(buf, cap, "(%d,%d)", gx, gy);
    else
        snprintf(buf, cap, "(%d,%d) (clicked (%d,%d))", gx, gy, cx, cy);
    return buf;
}

static void say_state(tn_world *w, tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    if (i.state == s->last_state) return;
    s->last_state = i.state;
    char g[64];
    goal_name(w, s, i.goal_x, i.goal_y, g, sizeof g);
    switch (i.state) {
    case TN_BOT_ARRIVED: { /* in frames: what the two planners' trips compare by,
                              * the steps it moved (not the last, which only saw
                              * it there), as plans count them */
        const int from = s->land_steps > 0 ? s->land_steps : 0;
        const int f = i.steps - from > 0 ? i.steps - from - 1 : 0;
        tn_world_message(w, "arrived at %s in %d frame%s (%.1f s)", g, f, PLURAL(f),
                         (double)f * (double)w->phys.dt);
        break;
    }
    case TN_BOT_NO_PATH:
        if (refusal(s))
            tn_world_message(w, "no path to %s: %s", g, refusal(s));
        else if (limit_hit(s)) /* (the goal may be reachable: the search stopped looking) */
            tn_world_message(w,
                             "goto (%d,%d): search limit (%s states) reached with no tile closer "
                             "than the character's: no path",
                             i.goal_x, i.goal_y, SEARCH_LIMIT_TEXT);
        else
            tn_world_message(w, "no path to %s for a %dx%d character with jump height %g", g,
                             w->character.w, w->character.h, (double)w->phys.jump_height);
        break;
    case TN_BOT_PARTIAL:
        if (limit_hit(s))
            tn_world_message(w,
                             "goto (%d,%d): search limit (%s states) reached: going as close as "
                             "found, re-planning on the way",
                             i.goal_x, i.goal_y, SEARCH_LIMIT_TEXT);
        else
            tn_world_message(w, "%s is out of %s: %s", g, reach_of(w, s, &i),
                             i.active ? "going as close as possible"
                                      : "stopped at the closest spot");
        break;
    case TN_BOT_STUCK:
        tn_world_message(w, "stuck on the way to (%d,%d): gave up", i.goal_x, i.goal_y);
        break;
    default: break;
    }
}

/* The character's goto to (x, y) and what the HUD, the replay and the
 * explored overlay keep of it; with `compare`, both planners' answers for
 * the goal too (the goto tool's click, a retried trip). */
static tn_status goto_noted(tn_world *w, tn_wbots *s, int x, int y, bool compare, tn_error *err)
{
    if (compare) compare_planners(w, s, x, y);
    const int plans_before = tn_bot_get_info(s->bot).plans;
    tn_status st = tn_bot_goto(s->bot, s->pf, w->map, &w->character, &w->phys, x, y, err);
    if (tn_bot_get_info(s->bot).steps == 0) /* (a new trip: not a goal refused mid-trip) */
        s->land_steps = w->character.on_ground ? 0 : -1;
    if (compare) graph_answer(s, plans_before);
    note_search(w, s);
    note_explored(w, s);
    note_first(s);
    s->last.plans = tn_bot_get_info(s->bot).plans; /* the answer is for this plan */
    return st;
}

/* What changed since the character's last plan ("" when nothing did). */
static const char *changed_since_plan(const tn_world *w, const tn_wbots *s)
{
    if (s->plan_bw != w->character.w || s->plan_bh != w->character.h) return "size changed";
    if (s->plan_jump != w->phys.jump_height) return "jump height changed";
    if (s->plan_rev != w->map->revision) return "map edited";
    return "";
}

/* A trip at rest that retry_out_of_reach tries again. */
static bool retries(const tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    return s->may_retry && !i.active && !limit_hit(s) &&
           (i.state == TN_BOT_PARTIAL || i.state == TN_BOT_NO_PATH);
}

/* A trip that stopped out of reach (partial at the closest spot, or no
 * path with no closer spot; not a classic search cut short by its limit,
 * which continue_search takes) is tried again, toward the same goal, when
 * an edit or a slider may have put the goal in reach: once per change,
 * not while a slider is held (each value would plan), on the ground, and
 * only while the character stands where the trip left it (the player did
 * not take the controls since).  True when it goes on. */
static bool retry_out_of_reach(tn_world *w, tn_wbots *s)
{
    if (!retries(s) || s->hold || !w->character.on_ground) return false;
    tn_bot_info i = tn_bot_get_info(s->bot);
    const char *why = changed_since_plan(w, s);
    if (!why[0] || (s->retry_rev == w->map->revision && s->retry_jump == w->phys.jump_height &&
                    s->retry_bw == w->character.w && s->retry_bh == w->character.h))
        return false;
    s->retry_rev = w->map->revision;
    s->retry_jump = w->phys.jump_height;
    s->retry_bw = w->character.w, s->retry_bh = w->character.h;
    /* the graph for the profile as it is now: built in the background on a
     * big map (tried again at a later step, when it is there) */
    if (graph_mode(w, s) && !use_planner(w, s, s->bot, &w->character, BUILD)) {
        s->retry_rev = 0, s->retry_jump = -1.0f; /* (not tried: again when built) */
        return false;
    }
    const tn_bot_state before = i.state;
    /* as a click: both planners' answers for the goal, under the change */
    tn_status st = goto_noted(w, s, i.goal_x, i.goal_y, true, NULL);
    i = tn_bot_get_info(s->bot);
    if (tn_failed(st)) return false;
    if (i.state == TN_BOT_MOVING) {
        s->last_state = TN_BOT_MOVING;
        tn_world_message(w, "(%d,%d) is in reach now (%s): going there", i.goal_x, i.goal_y, why);
    } else if (i.state == before && i.active) {
        tn_world_message(w, "(%d,%d) is still out of reach (%s): going to a closer spot", i.goal_x,
                         i.goal_y, why);
    } else if (i.state != before) {
        say_state(w, s);
    }
    return i.active;
}

/* The plan the status line said would be made on landing, made: said too,
 * so the line does not go on promising it (a moving plan; an out-of-reach
 * one is said by say_state as its state). */
static void say_landed_plan(tn_world *w, tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    if (!s->pend_said || i.plans <= s->pend_plans || i.pending_reason[0]) return;
    s->pend_said = false;
    if (i.state != TN_BOT_MOVING || i.path_nodes == 0) return;
    char g[64]; /* as the click's "planning when the character lands" named it */
    goal_name(w, s, i.goal_x, i.goal_y, g, sizeof g);
    if (i.planner)
        tn_world_message(w, "goto %s: planned on landing, a graph plan of %d frames", g,
                         i.plan_frames);
    else
        tn_world_message(w, "goto %s: planned on landing, %d tile%s", g, i.raw_nodes,
                         PLURAL(i.raw_nodes));
}

/* A classic trip that stopped at the end of a path its search cut short
 * (limit_hit) searches again from there, toward the same goal, while each
 * search gets it somewhere new (CONTINUE_MAX at most); true when it goes on. */
static bool continue_search(tn_world *w, tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    if (i.state != TN_BOT_PARTIAL || !limit_hit(s) || !w->character.on_ground || s->cont < 0)
        return false;
    int tx, ty;
    tn_body_tile(&w->character, &w->phys, &tx, &ty);
    if (s->cont >= CONTINUE_MAX || (tx == s->cont_x && ty == s->cont_y)) {
        tn_world_message(w,
                         "goto (%d,%d): stopped at the closest spot found (%d search%s of up to "
                         "%s states)",
                         i.goal_x, i.goal_y, s->cont + 1, s->cont ? "es" : "", SEARCH_LIMIT_TEXT);
        s->cont = -1; /* said once */
        return false;
    }
    s->cont++;
    s->cont_x = tx;
    s->cont_y = ty;
    tn_status st =
        tn_bot_goto(s->bot, s->pf, w->map, &w->character, &w->phys, i.goal_x, i.goal_y, NULL);
    s->land_steps = 0; /* (on the ground) */
    note_search(w, s);
    note_explored(w, s);
    note_first(s);
    if (tn_failed(st)) return false;
    i = tn_bot_get_info(s->bot);
    s->last_state = i.state;
    tn_world_message(w, "goto (%d,%d): searching again from (%d,%d): %s", i.goal_x, i.goal_y, tx,
                     ty,
                     i.state == TN_BOT_MOVING    ? "found"
                     : limit_hit(s)              ? "the search limit reached again"
                     : i.state == TN_BOT_PARTIAL ? "out of reach, going as close as possible"
                                                 : "no closer spot");
    return tn_bot_active(s->bot);
}

bool tn_wbots_drive(tn_world *w, tn_input *in, bool player_active)
{
    tn_wbots *s = of(w);
    if (!goto_on(w, s)) return false;
    tn_bot_set_clock(s->bot, w->clock);
    if (player_active && s->defer) {
        s->defer = false;
        tn_world_message(w, "goto cancelled: you took the controls");
    }
    if (s->defer && !player_active) {
        /* the click kept while the graph was built: made once it is (or at
         * once if the planner in effect no longer needs it).  When that
         * build failed it is made all the same, as a click whose build
         * failed on this thread is: with the classic planner (the click
         * says so); dropped where there is none (above 512x512 tiles) */
        if (graph_mode(w, s) && !graph_for(w, s, &w->character, BUILD)) {
            const char *why = char_build_failed(w, s);
            if (!why) return false; /* still building, or held */
            if (!s->pf) {
                s->defer = false;
                tn_world_message(w, "goto (%d,%d) dropped: graph build failed: %s", s->defer_x,
                                 s->defer_y, why);
                return false;
            }
        }
        s->defer = false;
        tn_error e;
        if (tn_failed(tn_wbots_click(w, s->defer_x, s->defer_y, s->defer_tool, &e)))
            tn_world_message(w, "goto (%d,%d) refused: %s", s->defer_x, s->defer_y, e.msg);
    }
    if (player_active) {
        s->cont = -1; /* no search again for a trip the player took over */
        s->may_retry = false;
        /* (a first goal clicked in the air, its plan waiting for the
         * landing, is a trip taken over too: the HUD says so, not idle) */
        s->taken_over = tn_bot_get_info(s->bot).plans > 0 || tn_bot_active(s->bot);
        if (tn_bot_active(s->bot)) {
            tn_bot_stop(s->bot);
            s->last_state = TN_BOT_IDLE;
            tn_world_message(w, "goto cancelled: you took the controls");
        }
        return false;
    }
    if (!tn_bot_active(s->bot) && !continue_search(w, s) && !retry_out_of_reach(w, s)) return false;
    tn_surf *g = use_planner(w, s, s->bot, &w->character, BUILD);
    if (held_back(w, s, g)) {
        *in = tn_bot_coast(s->bot); /* its graph away: a jump under way goes on */
        return false;
    }
    /* a trip whose graph failed to build, with no classic planner to take
     * it over (above 512x512 tiles): dropped, saying why (not "no path") */
    const char *why = !g && !s->pf ? char_build_failed(w, s) : NULL;
    if (why) {
        tn_bot_info i = tn_bot_get_info(s->bot);
        tn_bot_stop(s->bot);
        s->last_state = TN_BOT_IDLE;
        tn_world_message(w, "goto (%d,%d) dropped: graph build failed: %s", i.goal_x, i.goal_y,
                         why);
        return false;
    }
    if (s->land_steps < 0 && w->character.on_ground) /* landed: the trip counts from here */
        s->land_steps = tn_bot_get_info(s->bot).steps;
    *in = tn_bot_step(s->bot, s->pf, w->map, &w->character, &w->phys);
    note_search(w, s);
    note_explored(w, s);
    note_first(s);
    refresh_compare(w, s);
    say_state(w, s);
    say_landed_plan(w, s);
    return true;
}

/* A click on a one-way platform means standing on it, as a click on a
 * block means its top (tn_bot_snap_goal takes a one-way tile for air and
 * walks down through it); a click in the air still means the ground below. */
static int click_row(const tn_map *m, int x, int y)
{
    return y > 0 && tn_map_tile(m, x, y) == TN_TILE_ONEWAY ? y - 1 : y;
}

static tn_status click_goal(tn_world *w, int x, int y, tn_tool tool, tn_error *err);

/* A goal refused says why without the library's "bot: " (the status line
 * and a script's warning already say it is the goto's). */
tn_status tn_wbots_click(tn_world *w, int x, int y, tn_tool tool, tn_error *err)
{
    tn_status st = click_goal(w, x, y, tool, err);
    if (tn_failed(st) && err) {
        const char *m = unprefixed(err->msg);
        memmove(err->msg, m, strlen(m) + 1);
    }
    return st;
}

static tn_status click_goal(tn_world *w, int x, int y, tn_tool tool, tn_error *err)
{
    tn_wbots *s = of(w);
    if (!s) /* (a map switch that ran out of memory) */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "goto is off: the bots could not be made (out of memory)");
    if (!goto_on(w, s))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "goto is off: the %dx%d map has %ld tiles, more than the graph "
                            "planner's %ld (1024x1024)",
                            w->map->w, w->map->h, (long)w->map->w * w->map->h, GRAPH_MAX_TILES);
    tn_bot_set_clock(s->bot, w->clock);
    s->last_state = TN_BOT_IDLE;
    s->defer = false;
    /* the character's graph still building in the background (a big map's
     * first, seconds at 1024x1024): the click is kept and made when it is
     * built (tn_wbots_drive), rather than the window waiting for it.  A
     * graph not yet asked for (a slider moved while the character stood:
     * nothing re-plans, so nothing builds) starts building there now when
     * it is a slow one, rather than in this click (8 s at 1024x1024).  A
     * repair under way is waited for (tens of ms at 1024x1024): the click's
     * plan is made at once */
    job_collect(w, s, s->job.running && s->job.repair);
    /* (not when its background build failed on the map as it is: it is
     * not built again, so nothing is waited for, see below) */
    char gfail[TN_ERROR_MSG_MAX] = "";
    const char *why = char_build_failed(w, s);
    if (why) snprintf(gfail, sizeof gfail, "%s", why);
    if (!gfail[0] && graph_mode(w, s) && !graph_for(w, s, &w->character, LOOK) &&
        (s->job.running ||
         (w->graph_bg && !graph_for(w, s, &w->character, BUILD) && s->job.running))) {
        tn_bot_stop(s->bot);
        s->defer = true;
        s->defer_x = x, s->defer_y = y, s->defer_tool = tool;
        tn_world_message(w,
                         "goto (%d,%d): planned when the graph is built (building it in the "
                         "background)",
                         x, y);
        return TN_OK;
    }
    /* the character's graph failed to build in the background on the map
     * as it is, and no classic planner takes the goto (above 512x512) */
    if (gfail[0] && !s->pf && !graph_for(w, s, &w->character, LOOK))
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                            "goto (%d,%d) refused: graph build failed: %s (tried again after a "
                            "map edit or a slider change)",
                            x, y, gfail);
    const int cx = x, cy = y; /* the tile clicked */
    if (tool == TN_TOOL_GOTO) y = click_row(w->map, x, y);
    const bool instead = !use_planner(w, s, s->bot, &w->character, BUILD_NOW) && gfail[0];
    /* a goal refused where it is (no room on a block's top, say) changes
     * nothing: the trip under way, its plan, overlays and the last click's
     * comparison stay (a misclick stopped the character half way) */
    int gx, gy;
    tn_status gst = tn_bot_check_goal(s->bot, w->map, &w->character, x, y, &gx, &gy, err);
    if (tn_failed(gst)) return gst;
    /* a click on a one-way platform means its top, as one on a block: no
     * room there is a refusal, not a goal under the platform (a playtest
     * clicked one with a 1x9 character and was sent 3 rows down); a box
     * standing in the platform's own tile (on ground right under it) is
     * the tile clicked */
    if (y != cy && gy > cy)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "no room for a %dx%d character on top of the one-way platform at "
                            "(%d,%d)",
                            w->character.w, w->character.h, cx, cy);
    s->click_x = tool == TN_TOOL_GOTO ? cx : -1;
    s->click_y = cy;
    s->cont = 0;
    s->may_retry = true;
    s->taken_over = false;
    s->retry_rev = w->map->revision, s->retry_jump = w->phys.jump_height;
    s->retry_bw = w->character.w, s->retry_bh = w->character.h;
    tn_body_tile(&w->character, &w->phys, &s->cont_x, &s->cont_y);
    tn_status st = goto_noted(w, s, x, y, tool == TN_TOOL_GOTO, err);
    if (tn_failed(st)) {
        /* no search for this goal: the explored overlay drops the last one */
        s->sn_n = 0;
        s->sn_why = "the goal was refused: no search";
        return st;
    }
    tn_error_clear(err); /* a partial plan is said below, as the bot's state */
    tn_bot_info i = tn_bot_get_info(s->bot);
    char g[64];
    goal_name(w, s, i.goal_x, i.goal_y, g, sizeof g);
    s->pend_said = false;
    if (instead) w->message[0] = '\0';                     /* (what this click says, below) */
    if (i.state == TN_BOT_MOVING && i.pending_reason[0]) { /* clicked mid-air */
        s->last_state = TN_BOT_MOVING;
        tn_world_message(w, "goto %s: planning when the character lands", g);
        s->pend_said = true, s->pend_plans = i.plans;
    } else if (i.state == TN_BOT_MOVING && i.path_nodes > 0) {
        s->last_state = TN_BOT_MOVING;
        if (i.planner ? i.plan_frames == 0 : i.raw_nodes <= 1) { /* a plan of no move */
            s->last_state = TN_BOT_ARRIVED; /* (not "arrived ... in 1 frame" next) */
            tn_world_message(w, "goto %s: the character stands there already", g);
        } else if (i.planner)
            tn_world_message(w, "goto %s: graph plan of %d frames, %d node%s searched", g,
                             i.plan_frames, i.expanded, PLURAL(i.expanded));
        else
            tn_world_message(w, "goto %s: %d tile%s, %d state%s searched", g, i.raw_nodes,
                             PLURAL(i.raw_nodes), i.expanded, PLURAL(i.expanded));
    } else {
        say_state(w, s);
    }
    /* planned by the classic planner because the graph's build failed */
    if (instead) {
        char said[sizeof w->message];
        if (w->message[0])
            snprintf(said, sizeof said, "%s", w->message);
        else
            snprintf(said, sizeof said, "goto (%d,%d)", i.goal_x, i.goal_y);
        tn_world_message(w, "graph build failed (%s), classic planner: %s", gfail, said);
    }
    return TN_OK;
}

/* ---- extra bots ----------------------------------------------------------- */

static bool standing(const tn_map *m, int x, int y, int w, int h)
{
    return tn_path_box_fits(m, x, y, w, h) && tn_path_box_ground(m, x, y, w);
}

static bool random_standing(const tn_map *m, tn_rng *r, int w, int h, int *x, int *y)
{
    for (int t = 0; t < 64; t++) {
        int tx = (int)tn_rng_below(r, (uint32_t)m->w), ty = (int)tn_rng_below(r, (uint32_t)m->h);
        if (standing(m, tx, ty, w, h)) {
            *x = tx;
            *y = ty;
            return true;
        }
    }
    return false;
}

static void spawn(tn_world *w, tn_wbots *s, int i)
{
    int cw = w->character.w, ch = w->character.h, x, y;
    if (!random_standing(w->map, &s->rng, cw, ch, &x, &y))
        tn_body_tile(&w->character, &w->phys, &x, &y);
    tn_body_place(&s->ebody[i], &w->phys, cw, ch, x, y);
    tn_bot_stop(s->ebot[i]);
    tn_bot_hold_plans(s->ebot[i], false);
    s->wait[i] = 10 + 7 * i;
    s->was_active[i] = false;
    s->turn[i] = -1;
    s->tries[i] = 0;
    s->serial[i] = ++s->spawned;
}

/* The searches bot i made since `before` (its tn_bot_info.plans then). */
static int plans_since(const tn_wbots *s, int i, int before)
{
    return tn_bot_get_info(s->ebot[i]).plans - before;
}

/* A new trip to a random standing tile the finder reaches in full: up to
 * TARGET_TRIES searches, at most *left of them now (the step's budget, less
 * what they use); the tries not made yet are made at a later step (wait[i]
 * stays 0). */
static void new_target(tn_world *w, tn_wbots *s, int i, int *left)
{
    const tn_body *b = &s->ebody[i];
    for (; s->tries[i] < TARGET_TRIES; s->tries[i]++) {
        if (*left <= 0) return; /* the budget is spent: the next try waits */
        int x, y;
        if (!random_standing(w->map, &s->rng, b->w, b->h, &x, &y)) break;
        if (held_back(w, s, use_planner(w, s, s->ebot[i], b, BUILD))) {
            s->tries[i] = 0;
            return; /* waits (wait[i] = 0) */
        }
        int before = tn_bot_get_info(s->ebot[i]).plans;
        s->pending[i] = false;
        tn_status st = tn_bot_goto(s->ebot[i], s->pf_extra, w->map, b, &w->phys, x, y, NULL);
        *left -= plans_since(s, i, before);
        if (tn_succeeded(st) && tn_bot_planning(s->ebot[i])) {
            s->pending[i] = true; /* (a trip once the slices reach the goal: trip_planned) */
            return;
        }
        if (tn_succeeded(st) && tn_bot_get_info(s->ebot[i]).state == TN_BOT_MOVING) {
            s->trips++;
            s->tries[i] = 0;
            return;
        }
        /* (no trip to the closest spot of a goal out of reach while the
         * next try waits for its step) */
        tn_bot_stop(s->ebot[i]);
    }
    s->tries[i] = 0;
    tn_bot_stop(s->ebot[i]);
    s->wait[i] = WAIT_MIN;
}

/* Bot i's new trip planned in slices is ready (tn_bot_planning ended): a
 * trip when the plan reaches the goal; else (the goal out of reach) no trip
 * to its closest spot, as new_target's whole plans: the bot stops, and
 * tries another target after its rest. */
static void trip_planned(tn_wbots *s, int i)
{
    s->pending[i] = false;
    if (tn_bot_get_info(s->ebot[i]).state == TN_BOT_MOVING)
        s->trips++;
    else
        tn_bot_stop(s->ebot[i]);
}

int tn_wbots_plan_slice(const tn_world *w)
{
    const tn_wbots *s = of(w);
    if (!s || s->slice < 0) return 0;
    if (s->slice > 0) return s->slice;
    return (long)w->map->w * w->map->h >= PLAN_TILES ? SLICE_NODES : 0;
}

void tn_wbots_set_plan_slice(tn_world *w, int nodes)
{
    if (of(w)) of(w)->slice = nodes < 0 ? -1 : nodes;
}

bool tn_wbots_planning(const tn_world *w, int i)
{
    const tn_wbots *s = of(w);
    return s && i >= 0 && i < s->n && tn_bot_planning(s->ebot[i]);
}

int tn_wbots_plan_budget(const tn_world *w)
{
    const tn_wbots *s = of(w);
    if (!s || s->budget < 0) return 0;
    if (s->budget > 0) return s->budget;
    long k = PLAN_TILES / ((long)w->map->w * w->map->h);
    return k < 1 ? 1 : k > INT_MAX ? INT_MAX : (int)k;
}

void tn_wbots_set_plan_budget(tn_world *w, int plans)
{
    if (of(w)) of(w)->budget = plans < 0 ? -1 : plans;
}

int tn_wbots_step_plans(const tn_world *w) { return of(w) ? of(w)->step_plans : 0; }

bool tn_wbots_waiting(const tn_world *w, int i)
{
    const tn_wbots *s = of(w);
    return s && i >= 0 && i < s->n && s->turn[i] >= 0;
}

/* The bots waiting their turn to plan (tn_wbots_waiting). */
static int waiting_count(const tn_wbots *s)
{
    int k = 0;
    for (int i = 0; i < s->n; i++) k += s->turn[i] >= 0;
    return k;
}

/* The extra bots plan at most tn_wbots_plan_budget searches a step (a
 * new trip's, a re-plan): a bot whose plan falls due past it stands and
 * waits its turn (tn_bot_hold_plans), and the bots that waited longest
 * (then the lowest numbers) plan first at the next steps, so none waits
 * for ever; the plan is then the one it would have made standing there.
 * Counted in searches, not time: the same steps, on any machine. */
void tn_wbots_step(tn_world *w)
{
    tn_wbots *s = of(w);
    if (!goto_on(w, s)) return;
    cmp_collect(w, s, false);
    repairs_seen(w, s);
    if (!w->plan_frames) s->used = 0; /* (per frame: tn_wbots_prepare) */
    int budget = tn_wbots_plan_budget(w) > 0 ? tn_wbots_plan_budget(w) - s->used : INT_MAX;
    /* sliced plans: one bot at a time (its slices share the graph's query
     * object), a slice or a plan a step; the bot planning goes first */
    int slicer = -1;
    if (tn_wbots_plan_slice(w) > 0) {
        if (budget > 1) budget = 1;
        slicer = planning_bot(s);
    }
    /* the turns of this step: the `budget` longest waits */
    bool turn[TN_WBOTS_MAX] = {false};
    int reserved = slicer >= 0; /* turns given to bots not yet stepped */
    while (reserved < budget) {
        int k = -1;
        for (int i = 0; i < s->n; i++)
            if (s->turn[i] >= 0 && !turn[i] && (k < 0 || s->turn[i] < s->turn[k])) k = i;
        if (k < 0) break;
        turn[k] = true;
        reserved++;
    }
    int planned = 0;
    bool searched = false;
    for (int i = 0; i < s->n; i++) {
        tn_bot *bot = s->ebot[i];
        tn_body *b = &s->ebody[i];
        if (turn[i] || i == slicer) reserved--;
        const int before = tn_bot_get_info(bot).plans;
        const bool slicing = tn_bot_planning(bot);
        /* what this bot may search: the budget less the plans made and the
         * turns of the bots stepped after it */
        int left = budget - planned - reserved;
        if (!tn_bot_active(bot)) {
            if (s->was_active[i]) {
                if (tn_bot_get_info(bot).state == TN_BOT_ARRIVED) s->arrivals++;
                s->wait[i] = WAIT_MIN + (int)tn_rng_below(&s->rng, WAIT_SPAN);
            }
            if (s->wait[i] > 0)
                s->wait[i]--;
            else if (!searched && b->on_ground && left > 0) {
                new_target(w, s, i, &left);
                searched = true;
            }
        }
        s->was_active[i] = tn_bot_active(bot);
        tn_input in = {0};
        /* (a sliced plan new_target began now takes its first slice now) */
        tn_bot_hold_plans(bot, left <= 0 && !(s->pending[i] && plans_since(s, i, before) > 0));
        if (!tn_bot_active(bot) || !held_back(w, s, use_planner(w, s, bot, b, BUILD))) {
            in = tn_bot_step(bot, s->pf_extra, w->map, b, &w->phys);
            if (!tn_bot_plan_held(bot))
                s->turn[i] = -1;
            else if (s->turn[i] < 0)
                s->turn[i] = w->frame;
        } else {
            in = tn_bot_coast(bot); /* its graph away: a jump under way goes on */
        }
        /* a slice counts as a plan (a re-plan begun in it already does) */
        const int made = plans_since(s, i, before);
        planned += made > 0 ? made : slicing && !tn_bot_plan_held(bot);
        if (s->pending[i] && !tn_bot_planning(bot)) trip_planned(s, i);
        tn_body_step(b, w->map, &w->phys, in);
    }
    s->step_plans = planned;
    s->used += planned;
}

tn_status tn_wbots_check_edit(tn_world *w, int x, int y, int tile, int mark, tn_error *err)
{
    const tn_wbots *s = of(w);
    (void)mark;
    if (!s || tile != TN_TILE_BLOCK) return TN_OK;
    for (int i = 0; i < s->n; i++)
        if (tn_world_body_overlaps_tile(&s->ebody[i], x, y))
            return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                                "tile (%d,%d) is inside bot %d: a block there would trap it", x, y,
                                i + 1);
    return TN_OK;
}

void tn_wbots_on_edit(tn_world *w, int x, int y)
{
    tn_wbots *s = of(w);
    if (!graph_mode(w, s)) return;
    repairs_seen(w, s); /* (graphs built since the last step: not repaired) */
    /* a repair under way in the background takes this edit too, by another
     * when it ends (repair_collect); edits piling up behind it (a drag of
     * the block tool: a frame each) are waited for before they outgrow what
     * the next sync of a graph repairs locally (it would rebuild the
     * graph: 4-8 s at 1024x1024), then repaired by a new one */
    if (s->job.running && s->job.repair) {
        uint32_t oldest = s->job.rev;
        const int k = stale_slot(w, s);
        if (k >= 0 &&
            w->map->revision - tn_surf_map_revision(s->graph[k]) > w->map->revision - oldest)
            oldest = tn_surf_map_revision(s->graph[k]);
        job_collect(w, s, w->map->revision - oldest + 1 >= s->job.most);
        if (s->job.running) return;
    }
    /* the graph last used follows each edit at once (a one-tile repair):
     * edits made while no bot plans would otherwise pile up, and the next
     * goto would pay for all of them in one frame (up to a rebuild); so do
     * the other graphs of a body's size while repairs here are fast (they
     * caught up only when used: bots of another size that stood idle kept
     * theirs behind for good).  Slow repairs (a big map) run in the
     * background, as a build does, so the window runs on: there every
     * graph of a body's size is repaired, in turn (stale_slot). */
    int mru = -1;
    for (int i = 0; i < GRAPH_CACHE; i++)
        if (s->graph[i] && (mru < 0 || s->graph_used[i] > s->graph_used[mru])) mru = i;
    if (mru < 0) return;
    if (repair_bg(w, s)) {
        const int k = stale_slot(w, s);
        if (k < 0 || repair_start(w, s, k)) return; /* (k < 0: no body has mru's size) */
        mru = k;
    }
    for (int n = 0; n < GRAPH_CACHE; n++) {
        tn_error e;
        const double t0 = w->clock ? w->clock() : 0.0;
        /* (another graph may be behind by several edits: synced whole) */
        tn_status st = x < 0 || n > 0 ? tn_surf_sync(s->graph[mru], w->map, &e)
                                      : tn_surf_edit(s->graph[mru], w->map, x, y, &e);
        if (w->clock && tn_succeeded(st)) s->last_repair_ms = (w->clock() - t0) * 1e3;
        if (tn_succeeded(st)) fit_query(s, s->graph[mru]);
        repairs_seen(w, s);
        if (tn_failed(st)) {
            tn_world_message(w, "graph planner: %s", unprefixed(e.msg));
            if (s->char_graph == s->graph[mru]) s->char_graph = NULL;
            surf_destroy(s, s->graph[mru]);
            s->graph[mru] = NULL;
            return;
        }
        /* the next graph of a body's size behind, while repairs are fast */
        if (repair_bg(w, s) || (w->clock && s->last_repair_ms > REPAIR_SLOW_MS)) return;
        if ((mru = stale_slot(w, s)) < 0) return;
    }
}

tn_status tn_wbots_set_planner(tn_world *w, double value, tn_error *err)
{
    tn_wbots *s = of(w);
    if (!s) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "bots: not created");
    s->planner = value > 0.5 ? 1 : 0;
    /* a trip under way switches now (and re-plans at its next step) */
    if (goto_on(w, s) && tn_bot_active(s->bot)) use_planner(w, s, s->bot, &w->character, BUILD);
    return TN_OK;
}

bool tn_wbots_get_planner(const tn_world *w, double *value)
{
    *value = of(w) ? of(w)->planner : 1;
    return true;
}

void tn_wbots_physics(tn_world *w)
{
    tn_wbots *s = of(w);
    /* failed background builds are tried again (once) for the new value */
    if (s) s->nfailed = 0;
    /* the trip's plan is dropped now (re-planned at the next step), not at
     * the next step: while paused the HUD and the path say so at once.  A
     * graph for the new profile is not built here (a slider drag passes
     * several values a frame, each a build of up to 280 ms on 256x256):
     * a cached one is set, else the bot waits for the next step's
     * use_planner, which builds one graph for the value it stopped at */
    if (!goto_on(w, s) || !tn_bot_active(s->bot)) return;
    tn_surf *g = graph_mode(w, s) ? graph_for(w, s, &w->character, LOOK) : NULL;
    if (g || !graph_mode(w, s)) {
        tn_bot_set_graph(s->bot, g);
        return;
    }
    const tn_surf_profile *old = s->char_graph ? tn_surf_get_profile(s->char_graph) : NULL;
    tn_bot_replan(s->bot, old && (old->w != w->character.w || old->h != w->character.h)
                              ? "size changed"
                              : "physics changed");
}

void tn_wbots_hold(tn_world *w, bool hold)
{
    tn_wbots *s = of(w);
    if (!s) return;
    s->hold = hold;
    s->waiting = s->hold_said = false;
}

tn_status tn_wbots_set_bots(tn_world *w, double value, tn_error *err)
{
    tn_wbots *s = of(w);
    if (!s) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "bots: not created");
    int n = (int)value;
    if (n > 0 && !goto_on(w, s))
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                            "no bots on this %dx%d map: it is above the graph planner's "
                            "1024x1024 tiles",
                            w->map->w, w->map->h);
    for (int i = s->n; i < n; i++) spawn(w, s, i);
    for (int i = n; i < s->n; i++) {
        tn_bot_stop(s->ebot[i]);
        s->turn[i] = -1;
    }
    s->n = n;
    return TN_OK;
}

bool tn_wbots_get_bots(const tn_world *w, double *value)
{
    *value = tn_wbots_count(w);
    return true;
}

/* ---- reports ----------------------------------------------------------------- */

/* The graph plan's legs (0: none, or a re-plan waiting for a landing). */
static int legs_of(const tn_bot *bot)
{
    int nl, leg;
    tn_bot_legs(bot, &nl, &leg);
    return nl;
}

int tn_wbots_json(const tn_world *w, char *buf, size_t cap)
{
    const tn_wbots *s = of(w);
    tn_bot_info i;
    memset(&i, 0, sizeof i);
    i.goal_x = i.goal_y = -1;
    i.plan_frames = -1; /* no plan */
    bool off = !goto_on(w, s);
    if (!off) {
        i = tn_bot_get_info(s->bot);
        if (i.planner) i.path_nodes = legs_of(s->bot); /* as plan_frames: 0 and -1 together */
    }
    /* the planner named is the one in effect; goto off (no path finder on
     * this map) says "off":true, as the navmesh's JSON does */
    return snprintf(buf, cap,
                    ",\"bot\":{\"state\":\"%s\",\"goal_x\":%d,\"goal_y\":%d,\"arrived\":%s,"
                    "\"path_nodes\":%d,\"replans\":%d,\"expanded\":%d,\"extra_bots\":%d,"
                    "\"extra_trips\":%d,\"extra_arrivals\":%d,\"planner\":\"%s\","
                    "\"plan_frames\":%d%s}",
                    tn_bot_state_name(i.state), i.goal_x, i.goal_y,
                    i.state == TN_BOT_ARRIVED ? "true" : "false", i.path_nodes, i.replans,
                    i.expanded, s ? s->n : 0, s ? s->trips : 0, s ? s->arrivals : 0,
                    planner_in_effect(w, s), i.plan_frames, off ? ",\"off\":true" : "");
}

/* The last goto was refused before any search (tn_bot_goto cleared its
 * numbers): no plan and no search to show. */
static bool goal_refused(const tn_bot_info *i)
{
    return !i->active && i->state == TN_BOT_NO_PATH && i->expanded == 0 && i->path_nodes == 0;
}

/* The state in words for the HUD (the JSON keeps tn_bot_state_name's "no_path"). */
static const char *hud_state(tn_bot_state st)
{
    return st == TN_BOT_NO_PATH ? "no path" : tn_bot_state_name(st);
}

/* The character's trip in words: one at rest that the player walked away
 * from says so ("arrived" alone read as where it stands now). */
static const char *trip_state(const tn_wbots *s, const tn_bot_info *i)
{
    if (!s->taken_over || i->active) return hud_state(i->state);
    switch (i->state) {
    case TN_BOT_ARRIVED: return "arrived (you took over since)";
    case TN_BOT_PARTIAL: return "partial (you took over since)";
    case TN_BOT_NO_PATH: return "no path (you took over since)";
    case TN_BOT_STUCK: return "stuck (you took over since)";
    case TN_BOT_IDLE: return i->plans > 0 ? "cancelled (you took over)" : "idle";
    default: return hud_state(i->state);
    }
}

/* Why the character's trip waits for a plan ("" when it does not): the
 * bot's own reason (a new goal, G or a slider mid-jump), or a plan made
 * before the map's last edit (re-planned at the next step or landing:
 * said now, not that plan's numbers), or for a slider moved under a
 * classic trip (the graph bot's plan is dropped at once,
 * tn_wbots_physics; the classic bot sees the new value at its next step):
 * not the old value's tiles, frames, states.  The HUD says it, and the
 * path and explored overlays and the replay leave the old plan's search
 * out meanwhile, in both planners alike. */
static const char *waits_why(const tn_world *w, const tn_wbots *s, const tn_bot_info *i)
{
    if (!i->active || i->pending_reason[0]) return i->pending_reason;
    if (s->sn_seen != i->plans) return "";
    if (s->plan_rev != w->map->revision) return "map edited";
    if (s->plan_bw != w->character.w || s->plan_bh != w->character.h) return "size changed";
    if (s->plan_jump != w->phys.jump_height) return "physics changed";
    return "";
}

/* When a waiting plan is made: in the air on landing; on the ground at the
 * next step (a slider moved while paused); after a slider's release when
 * a hold put its graph build off. */
static const char *when_pending(const tn_world *w)
{
    if (char_waits_repair(w, of(w))) return "when its graph is repaired";
    if (!tn_wbots_character_graph(w)) {
        if (of(w)->job.running) return "when its graph is built";
        if (of(w)->waiting) return "when the slider is let go";
    }
    return w->character.on_ground ? "at the next step" : "on landing";
}

bool tn_wbots_plan_waits(const tn_world *w, const char **why, const char **when)
{
    const tn_wbots *s = of(w);
    if (!s || !s->bot || !goto_on(w, s)) return false;
    tn_bot_info i = tn_bot_get_info(s->bot);
    const char *r = waits_why(w, s, &i);
    if (!i.active || !r[0]) return false;
    if (why) *why = r;
    if (when) *when = when_pending(w);
    return true;
}

int tn_wbots_hud(const tn_world *w, char *buf, size_t cap)
{
    const tn_wbots *s = of(w);
    if (!goto_on(w, s))
        return snprintf(buf, cap, "bot: goto off (map above %ld tiles, 1024x1024)",
                        GRAPH_MAX_TILES);
    tn_bot_info i = tn_bot_get_info(s->bot);
    const bool edited = i.active && !i.pending_reason[0] && s->sn_seen == i.plans &&
                        s->plan_rev != w->map->revision;
    i.pending_reason = waits_why(w, s, &i);
    char extra[256] = "";
    const int waits = waiting_count(s);
    const int slicing = planning_bot(s);
    char planning[48] = "";
    if (slicing >= 0) {
        const int k = tn_bot_get_info(s->ebot[slicing]).plan_slices;
        snprintf(planning, sizeof planning, ", bot %d planning (%d slice%s so far)", slicing + 1, k,
                 k == 1 ? "" : "s");
    }
    /* the bots wait for their graph while it builds in the background:
     * said, or "2 bots: 0/0 trips done" read as idle.  Their graph, for the
     * size each was made with (not the character's when it was resized
     * since: they go on with their own then) */
    bool bots_wait = false;
    if (s->job.running && !s->job.repair && graph_mode(w, s))
        for (int k = 0; k < s->n && !bots_wait; k++)
            bots_wait = !cached_graph(w, s, s->ebody[k].w, s->ebody[k].h);
    const char *build = bots_wait ? ", waiting for their graph (building in the background)" : "";
    if (s->n && waits)
        snprintf(extra, sizeof extra, " | %d bot%s: %d/%d trips done%s, %d waiting to plan%s", s->n,
                 PLURAL(s->n), s->arrivals, s->trips, planning, waits, build);
    else if (s->n)
        snprintf(extra, sizeof extra, " | %d bot%s: %d/%d trips done%s%s", s->n, PLURAL(s->n),
                 s->arrivals, s->trips, planning, build);
    if (s->defer)
        return snprintf(buf, cap,
                        "bot [graph]: waiting | goto (%d,%d): planned when its graph is "
                        "built%s",
                        s->defer_x, s->defer_y, extra);
    /* the character's graph failed to build in the background (on the map
     * as it is): goto is off without a classic planner, else the classic
     * planner plans in its place (its plan is not "switched" to) */
    const char *gfail = tn_wbots_character_graph(w) ? NULL : char_build_failed(w, s);
    if (gfail && !s->pf && !i.active)
        return snprintf(buf, cap,
                        "bot [graph]: %s | graph build failed (%s): goto off until a map edit "
                        "or a slider change%s",
                        i.plans ? trip_state(s, &i) : "idle", gfail, extra);
    if (i.plans == 0 && !i.active && s->taken_over) /* a first goal clicked mid-air */
        return snprintf(buf, cap,
                        "bot [%s]: cancelled (you took over) | goto (%d,%d): dropped before "
                        "its plan (on landing) was made%s",
                        planner_in_effect(w, s), i.goal_x, i.goal_y, extra);
    /* the selected planner names the line at once (G), before any goto
     * too; a bot at rest keeps the other planner's last plan until the
     * next click */
    const char *sel = planner_in_effect(w, s);
    if (i.plans == 0 && !i.active) /* (a first goto clicked mid-air waits: said below) */
        return snprintf(buf, cap, "bot [%s]: idle (goto tool: left-click a tile)%s",
                        sel[0] == 'c' && s->heuristic == TN_PATH_FAST ? "classic, fast A*" : sel,
                        extra);
    int want = sel[0] == 'g';
    if (i.planner != want && gfail)
        return snprintf(
            buf, cap, "bot [graph]: %s | graph build failed (%s): %s%s", trip_state(s, &i), gfail,
            i.active ? "the classic planner's plan" : "the classic planner plans", extra);
    if (i.planner != want)
        return snprintf(buf, cap, "bot [%s]: %s | planner switched: the next goto plans with it%s",
                        sel, trip_state(s, &i), extra);
    /* a bot at rest keeps its last plan, made for a jump height or size the
     * sliders have left since (nothing re-plans it): its frames, legs and
     * nodes are not the new value's */
    if (!i.active && s->sn_seen == i.plans &&
        (s->plan_jump != w->phys.jump_height || s->plan_bw != w->character.w ||
         s->plan_bh != w->character.h))
        return snprintf(
            buf, cap, "bot [%s]: %s | %s changed since its last plan: %s%s", sel, trip_state(s, &i),
            s->plan_jump == w->phys.jump_height                            ? "size"
            : s->plan_bw != w->character.w || s->plan_bh != w->character.h ? "jump height and size"
                                                                           : "jump height",
            !retries(s) ? "the next goto plans for it"
            : s->hold   ? "the goal is tried again when the slider is let go"
                        : "the goal is tried again at the next step",
            extra);
    char t[32];
    if (i.search_us >= 0.0)
        snprintf(t, sizeof t, "%.0f us", i.search_us);
    else
        snprintf(t, sizeof t, "n/a");
    /* the other planner's answer for the last click, short enough that the
     * line fits the HUD strip (about 120 characters): with the graph
     * planner the plan is its own answer */
    char cmp[112] = "";
    if (s->last.valid) {
        char gt[24], ct[24], cf[32];
        if (s->last.gus >= 0.0)
            snprintf(gt, sizeof gt, "%.0f us", s->last.gus);
        else
            snprintf(gt, sizeof gt, "n/a");
        if (s->last.cus >= 0.0)
            snprintf(ct, sizeof ct, "%.0f us", s->last.cus);
        else
            snprintf(ct, sizeof ct, "n/a");
/* found / partial as the bots read a search: partial when the goal was
 * unreachable, "limit reached" when the search stopped at its state limit
 * (the goal may be reachable: it was not looked for further) */
#define ANSWER(st)                                              \
    (tn_failed(st)                            ? "none"          \
     : tn_status_detail(st, TN_UNREACHABLE)   ? "partial"       \
     : tn_status_detail(st, TN_LIMIT_REACHED) ? "limit reached" \
                                              : "found")
        if (i.planner && !s->pf) /* no classic finder this large */
            snprintf(cmp, sizeof cmp, " | classic off above 512x512");
        else if (i.planner && s->last.searching) /* in the background (the window) */
            snprintf(cmp, sizeof cmp, " | classic%s%s: searching ...",
                     s->heuristic == TN_PATH_FAST ? " fast" : "",
                     s->last.redone ? " (re-plan)" : "");
        else if (i.planner && s->last.dropped) /* its answer was for another map */
            snprintf(cmp, sizeof cmp, " | classic: n/a (%s)", s->last.dropped);
        /* a partial path of the start alone is no path: the classic bot
         * itself stops in "no path" on it, as the graph bot does */
        else if (i.planner && tn_failed(s->last.cs)) /* not searched: no "none, -1 tiles" */
            snprintf(cmp, sizeof cmp, " | classic%s: refused, no search",
                     s->last.redone ? " (re-plan)" : "");
        else if (i.planner && tn_status_detail(s->last.cs, TN_UNREACHABLE) && s->last.ctiles <= 1)
            snprintf(cmp, sizeof cmp, " | classic%s%s: no path (no closer tile), %s",
                     s->heuristic == TN_PATH_FAST ? " fast" : "",
                     s->last.redone ? " (re-plan)" : "", ct);
        /* cut by its limit with the start alone: no path either, as the
         * classic bot's own line says (it read "limit reached, 1 tile, its
         * run stuck", as if a path had been found and failed) */
        else if (i.planner && tn_status_detail(s->last.cs, TN_LIMIT_REACHED) && s->last.ctiles <= 1)
            snprintf(cmp, sizeof cmp,
                     " | classic%s%s: no path (search limit reached, no closer tile found), %s",
                     s->heuristic == TN_PATH_FAST ? " fast" : "",
                     s->last.redone ? " (re-plan)" : "", ct);
        else if (i.planner)
            snprintf(cmp, sizeof cmp, " | classic%s%s: %s, %d tile%s%s, %s",
                     s->heuristic == TN_PATH_FAST ? " fast" : "",
                     s->last.redone ? " (re-plan)" : "", ANSWER(s->last.cs), s->last.ctiles,
                     PLURAL(s->last.ctiles), run_text(s->last.cframes, cf, sizeof cf), ct);
        else if (s->last.goff)
            snprintf(cmp, sizeof cmp, " | graph (not selected)");
        else if (s->last.jump != w->phys.jump_height || s->last.bw != w->character.w ||
                 s->last.bh != w->character.h || s->last.rev != w->map->revision)
            /* the classic bot re-planned under a change: the click's graph
             * answer is not this world's (not searched again: the graph of
             * the new profile is built only for the graph planner) */
            snprintf(cmp, sizeof cmp, " | graph: n/a (asked before the change)");
        else if (!graph_fits(w)) /* no graph this large (nor goto: not reached) */
            snprintf(cmp, sizeof cmp, " | graph off above 1024x1024");
        else if (s->last.gnostart) /* not searched: no "none, -1 frames" */
            snprintf(cmp, sizeof cmp, " | graph: n/a (in the air at the click)");
        else if (s->last.gframes < 0)
            snprintf(cmp, sizeof cmp, " | graph: %s, %s", ANSWER(s->last.gs), gt);
        else
            snprintf(cmp, sizeof cmp, " | graph: %s, %d frames, %s", ANSWER(s->last.gs),
                     s->last.gframes, gt);
#undef ANSWER
    }
    if (i.planner) {
        /* the plan being followed, named by the bot's own state; none while
         * a re-plan waits for the body to land (a slider moved mid-jump) */
        int nl = edited ? 0 : legs_of(s->bot);
        char plan[96], re[64] = "";
        if (nl > 0)
            snprintf(plan, sizeof plan, "%s %d frames, %d leg%s",
                     i.state == TN_BOT_PARTIAL ? "to the closest spot:" : "found:", i.plan_frames,
                     nl, PLURAL(nl));
        else if (i.active)
            snprintf(plan, sizeof plan, "%s (%s) %s",
                     i.replans || strcmp(i.pending_reason, "new goal") ? "re-planning" : "planning",
                     i.pending_reason[0] ? i.pending_reason : "re-plan", when_pending(w));
        else if (s->taken_over && i.state == TN_BOT_IDLE)
            snprintf(plan, sizeof plan, "goto (%d,%d): its plan dropped", i.goal_x, i.goal_y);
        else
            snprintf(plan, sizeof plan, "no plan");
        if (i.replans > 0) snprintf(re, sizeof re, " | re-plan %d (%s)", i.replans, i.plan_reason);
        /* while a plan waits, the bot's last search (nodes, time) is another
         * goal's or another planner's: none is shown */
        if ((nl == 0 && i.active) || goal_refused(&i)) {
            char why[96];
            if (goal_refused(&i))
                snprintf(why, sizeof why, "goal refused: %s", refusal(s) ? refusal(s) : "no plan");
            return snprintf(buf, cap, "bot [graph]: %s | %s%s%s%s", trip_state(s, &i),
                            goal_refused(&i) ? why : plan, re, cmp, extra);
        }
        return snprintf(buf, cap, "bot [graph]: %s | %s%s | %d node%s | search %s%s%s",
                        trip_state(s, &i), plan, re, i.expanded, PLURAL(i.expanded), t, cmp, extra);
    }
    /* Shift+G's weighted search is named: its paths are not the shortest */
    const char *cl = s->heuristic == TN_PATH_FAST ? "classic, fast A*" : "classic";
    /* a plan cut short by the search limit is no "out of reach" */
    const char *cst =
        i.state == TN_BOT_PARTIAL && limit_hit(s) ? "partial (search limit)" : trip_state(s, &i);
    /* the goal's first plan (what the click said), then the latest re-plan
     * with its count and reason, so the two never seem to disagree */
    char re[96] = "";
    if (i.replans > 0)
        snprintf(re, sizeof re, " | re-plan %d (%s): %d tile%s, %d state%s", i.replans,
                 i.plan_reason, i.raw_nodes, PLURAL(i.raw_nodes), i.expanded, PLURAL(i.expanded));
    /* a plan that waits for the landing (G or a slider mid-jump): no numbers
     * yet, the last search was another plan's */
    if (i.active && i.pending_reason[0])
        return snprintf(
            buf, cap, "bot [%s]: %s | goto (%d,%d): %s (%s) %s%s%s", cl, cst, i.goal_x, i.goal_y,
            i.replans || strcmp(i.pending_reason, "new goal") ? "re-planning" : "planning",
            i.pending_reason, when_pending(w), cmp, extra);
    if (goal_refused(&i))
        return snprintf(buf, cap, "bot [%s]: %s | goto (%d,%d): goal refused: %s%s%s", cl, cst,
                        i.goal_x, i.goal_y, refusal(s) ? refusal(s) : "no search", cmp, extra);
    /* a goal first planned by the graph (G pressed mid-trip) has no classic
     * numbers of its own: say so rather than "0 tiles, 0 states" */
    if (s->first_graph && i.replans > 0)
        return snprintf(buf, cap,
                        "bot [%s]: %s | goto (%d,%d): first plan by graph%s | search %s%s%s", cl,
                        cst, i.goal_x, i.goal_y, re, t, cmp, extra);
    /* the goal's first plan run in frames: the click's classic answer is
     * that same search (classic_compare), and its run the bot's trip */
    char cf[32] = "";
    if (s->last.valid && s->last.gx == i.goal_x && s->last.gy == i.goal_y &&
        s->last.ctiles == i.first_raw_nodes)
        run_text(s->last.cframes, cf, sizeof cf);
    /* a path of the start alone to a goal out of reach is no path: nothing
     * ran, so no "1 tile, its run stuck" (the comparison's words); a search
     * cut short by its limit only found no closer tile before it stopped */
    if (i.state == TN_BOT_NO_PATH && i.first_raw_nodes <= 1)
        return snprintf(
            buf, cap, "bot [%s]: %s | goto (%d,%d): no path (%s), %d state%s%s | search %s%s%s", cl,
            cst, i.goal_x, i.goal_y,
            limit_hit(s) ? "search limit reached, no closer tile found" : "no closer tile",
            i.first_expanded, PLURAL(i.first_expanded), re, t, cmp, extra);
    return snprintf(buf, cap,
                    "bot [%s]: %s | goto (%d,%d): %d tile%s%s, %d state%s%s | search %s%s%s", cl,
                    cst, i.goal_x, i.goal_y, i.first_raw_nodes, PLURAL(i.first_raw_nodes), cf,
                    i.first_expanded, PLURAL(i.first_expanded), re, t, cmp, extra);
}

/* Extra bots' colours: none yellow (the character's path, 0xfff26b) or
 * light blue (the character and the companion) */
static const uint32_t PALETTE[8] = {0xff8c42ffu, 0x9d7bffffu, 0x3ddc97ffu, 0xff5c8affu,
                                    0xc98b5effu, 0xc0c0c8ffu, 0xc2f970ffu, 0xf28fe0ffu};

static void node_center(const tn_path_node *n, int bw, int bh, float *x, float *y)
{
    *x = ((float)n->x + 0.5f * (float)bw) * T;
    *y = ((float)n->y + 1.0f - 0.5f * (float)bh) * T;
}

static void draw_path(const tn_debug_draw *dd, const tn_bot *bot, int bw, int bh, uint32_t col,
                      bool main)
{
    int n;
    const tn_path_node *p = tn_bot_path(bot, &n);
    tn_bot_info info = tn_bot_get_info(bot);
    if (!info.active || n == 0) return;
    uint32_t line = main ? col : (col & 0xffffff00u) | 0x90u;
    float px = 0, py = 0;
    for (int k = 0; k < n; k++) {
        float x, y;
        node_center(&p[k], bw, bh, &x, &y);
        if (k > 0) tn_dd_line(dd, px, py, x, y, line);
        px = x;
        py = y;
    }
    if (!main) return;
    for (int k = 0; k < n; k++) {
        float x, y;
        node_center(&p[k], bw, bh, &x, &y);
        uint32_t c = k < info.node ? 0x808080c0u : col;
        if ((p[k].flags & TN_NODE_TAKEOFF) && k + 1 < n && p[k + 1].y < p[k].y)
            tn_dd_tri(dd, x - 5, y + 4, x + 5, y + 4, x, y - 6, c); /* a jump */
        else if (p[k].flags & TN_NODE_APEX)
            tn_dd_circle(dd, x, y, 5, c, false);
        else
            tn_dd_circle(dd, x, y, 2.5f, c, true);
        if (p[k].flags & TN_NODE_ONEWAY) tn_dd_line(dd, x - 6, y + 7, x + 6, y + 7, 0x58b8ffffu);
    }
    float gx = ((float)info.goal_x + 0.5f * (float)bw) * T, gy = ((float)info.goal_y + 1.0f) * T;
    tn_dd_line(dd, gx - 6, gy - 12, gx + 6, gy, col);
    tn_dd_line(dd, gx + 6, gy - 12, gx - 6, gy, col);
}

/* An extra bot's graph plan in its own colour: a debug draw that passes
 * tn_surf_debug_draw's lines and circles on in one colour. */
typedef struct tint_dd {
    const tn_debug_draw *dd;
    uint32_t col;
} tint_dd;

static void tint_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    (void)c;
    const tint_dd *t = u;
    tn_dd_line(t->dd, x0, y0, x1, y1, t->col);
}

static void tint_circle(void *u, float cx, float cy, float r, uint32_t c, bool filled)
{
    (void)c;
    const tint_dd *t = u;
    tn_dd_circle(t->dd, cx, cy, r, t->col, filled);
}

/* The overlay's snapshot: a debug draw that passes each primitive on and
 * keeps it (snap_prim), up to SNAP_MAX. */
typedef struct snap_dd {
    const tn_debug_draw *dd;
    tn_wbots *s;
} snap_dd;

static void snap_put(tn_wbots *s, int kind, float a, float b, float c, float d, uint32_t rgba,
                     bool filled)
{
    if (s->snap_n == SNAP_MAX) return;
    s->snap[s->snap_n++] = (snap_prim){a, b, c, d, rgba, (uint8_t)kind, filled};
}

static void snap_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    const snap_dd *t = u;
    tn_dd_line(t->dd, x0, y0, x1, y1, c);
    snap_put(t->s, SNAP_LINE, x0, y0, x1, y1, c, false);
}

static void snap_circle(void *u, float cx, float cy, float r, uint32_t c, bool filled)
{
    const snap_dd *t = u;
    tn_dd_circle(t->dd, cx, cy, r, c, filled);
    snap_put(t->s, SNAP_CIRCLE, cx, cy, r, 0.0f, c, filled);
}

static void snap_rect(void *u, float x, float y, float w, float h, uint32_t c, bool filled)
{
    const snap_dd *t = u;
    tn_dd_rect(t->dd, x, y, w, h, c, filled);
    snap_put(t->s, SNAP_RECT, x, y, w, h, c, filled);
}

/* Whether the overlay shows the snapshot: the character's graph is away
 * for a repair, and the snapshot is of its profile. */
static bool snap_shown(const tn_world *w, const tn_wbots *s)
{
    if (!s->snap_valid || tn_wbots_character_graph(w) || !char_waits_repair(w, s)) return false;
    tn_surf_profile now = tn_surf_profile_make(w->character.w, w->character.h, &w->phys);
    return tn_surf_same_profile(&now, &s->snap_prof);
}

/* The snapshot drawn at half its alpha (the graph before the edit). */
static void snap_draw(const tn_wbots *s, const tn_debug_draw *dd)
{
    for (int k = 0; k < s->snap_n; k++) {
        const snap_prim *p = &s->snap[k];
        const uint32_t c = (p->rgba & 0xffffff00u) | ((p->rgba & 0xffu) / 2u);
        if (p->kind == SNAP_LINE)
            tn_dd_line(dd, p->a, p->b, p->c, p->d, c);
        else if (p->kind == SNAP_CIRCLE)
            tn_dd_circle(dd, p->a, p->b, p->c, c, p->filled);
        else
            tn_dd_rect(dd, p->a, p->b, p->c, p->d, c, p->filled);
    }
}

/* The last repair's surfaces of g read again when its generation moved
 * (see tn_wbots.hl; drawing keeps that cache). */
static void hl_refresh(const tn_world *w, tn_wbots *s, const tn_surf *g)
{
    s->hl_frame = w->frame - REPAIR_SHOW; /* (a graph out of the cache: none) */
    for (int i = 0; i < GRAPH_CACHE; i++)
        if (s->seen_g[i] == g && s->graph[i] == g) s->hl_frame = s->seen_frame[i];
    if (g == s->hl_g && tn_surf_generation(g) == s->hl_gen &&
        tn_surf_surface_count(g) == s->hl_total)
        return;
    s->hl_g = g;
    s->hl_gen = tn_surf_generation(g);
    s->hl_total = tn_surf_surface_count(g);
    int tiles; /* (one edit, or those made while a background repair ran) */
    const int n = tn_surf_last_repair(g, NULL, 0, &tiles);
    if (n > s->hl_cap) { /* (only when a repair searched more surfaces than any before) */
        int *p = tn_alloc_array(&w->alloc, (size_t)n, sizeof *p);
        if (p) {
            tn_free(&w->alloc, s->hl);
            s->hl = p;
            s->hl_cap = n;
        }
    }
    s->hl_n = tn_surf_last_repair(g, s->hl, s->hl_cap, NULL);
    if (s->hl_n > s->hl_cap) s->hl_n = s->hl_cap;
    char took[32] = "";
    if (tiles > 1) snprintf(took, sizeof took, " (%d tiles)", tiles);
    snprintf(s->hl_note, sizeof s->hl_note,
             "graph overlay: the last repair%s searched %d of %d surfaces again (outlined orange: "
             "their searches read a changed tile, or they stand by one)",
             took, n, s->hl_total);
}

/* Whether the last repair's surfaces are shown now. */
static bool hl_shown(const tn_world *w, const tn_wbots *s)
{
    return s->hl_n > 0 && s->hl_g && w->frame - s->hl_frame < REPAIR_SHOW;
}

/* The last repair's surfaces outlined: a box over each one's span. */
static void hl_draw(const tn_wbots *s, const tn_surf *g, const tn_debug_draw *dd)
{
    const tn_surf_surface *sf = tn_surf_surfaces(g);
    const float W = (float)tn_surf_get_profile(g)->w * T;
    const int ns = tn_surf_surface_count(g);
    for (int k = 0; k < s->hl_n; k++) {
        if (s->hl[k] < 0 || s->hl[k] >= ns) continue; /* (see hl_refresh) */
        const tn_surf_surface *S = &sf[s->hl[k]];
        const float x0 = tn_surf_lattice_x(g, S->j0) - 2.0f;
        const float x1 = tn_surf_lattice_x(g, S->j1) + W + 2.0f, y = (float)S->row * T;
        tn_dd_rect(dd, x0, y - 7.0f, x1 - x0, 9.0f, 0xffa03c50u, true);
        tn_dd_rect(dd, x0, y - 7.0f, x1 - x0, 9.0f, 0xffa03cffu, false);
    }
}

/* The bot's plan is one made on g as it is now: its generation alone is
 * not enough (each cached graph counts its own builds from 1). */
static bool plan_of(const tn_bot *bot, const tn_surf *g)
{
    return g && tn_bot_graph(bot) == g && tn_surf_generation(g) == tn_bot_plan_generation(bot);
}

/* A bot's graph plan from the leg it is on: from where it stands, or, in
 * the air (a jump or a drop under way), from the leg's take-off, so the arc
 * being flown stays drawn.  The character's in the plan's yellow, an extra
 * bot's (col != 0) in its colour, fainter, as its classic path. */
static void draw_plan(const tn_world *w, const tn_bot *bot, const tn_body *b, const tn_surf *g,
                      const tn_debug_draw *dd, uint32_t col)
{
    int nl, leg;
    const tn_surf_leg *legs = tn_bot_legs(bot, &nl, &leg);
    if (!plan_of(bot, g) || nl <= leg) return;
    int start = tn_surf_node_of_body(g, b);
    if (start < 0) start = legs[leg].node;
    tint_dd t = {dd, (col & 0xffffff00u) | 0x90u};
    tn_debug_draw tinted = {&t, tint_line, NULL, tint_circle, NULL, NULL};
    tn_surf_debug_draw(g, w->map, col ? &tinted : dd, TN_SURF_DRAW_PLAN, 0, start, legs + leg,
                       nl - leg);
}

/* The surface-graph overlay shows the character's graph: made (or synced
 * with the map) here, so the overlay shows it before the first click. */
void tn_wbots_prepare(tn_world *w, unsigned overlays)
{
    tn_wbots *s = of(w);
    if (!s) return;
    job_collect(w, s, false); /* a background build shows as soon as it ends */
    cmp_collect(w, s, false); /* and a classic comparison (also while paused) */
    s->used = 0;              /* a new frame's planning budget */
    /* where graphs build in the background (the window), the character's
     * first is started as the map shows, so a first click seldom waits for
     * it (asked once, and only before any graph was made on this map: a
     * failed build is not tried again each frame) */
    bool ahead = w->graph_bg && !s->prebuilt && s->tick == 0 && !s->job.running;
    if (graph_mode(w, s) && ((overlays & TN_OVERLAY_SURF) || ahead)) {
        s->prebuilt = true;
        graph_for(w, s, &w->character, BUILD);
    }
}

const char *tn_wbots_overlay_note(const tn_world *w, unsigned overlays)
{
    const tn_wbots *s = of(w);
    if (!s || !(overlays & TN_OVERLAY_SURF)) return NULL;
    if (!graph_fits(w))
        return "graph overlay: no graph on a map above 1024x1024 tiles (goto is off)";
    if (!graph_mode(w, s))
        return "graph overlay: the planner is classic, nothing to show (G: graph)";
    if (char_waits_repair(w, s))
        return snap_shown(w, s) ? "graph overlay: repairing the graph for the edit in the "
                                  "background (faint: the graph before it)"
                                : "graph overlay: repairing the graph for the edit in the "
                                  "background";
    if (s->job.running && !tn_wbots_character_graph(w))
        return s->tick ? "graph overlay: building the graph for the new value in the background"
                       : "graph overlay: building this map's graph in the background";
    if (s->waiting && !tn_wbots_character_graph(w))
        return "graph overlay: the graph for the new value is built when the slider is let go";
    if (!tn_wbots_character_graph(w) && char_build_failed(w, s))
        return "graph overlay: the graph's build failed (see the message); a map edit or a "
               "slider change tries again";
    if (hl_shown(w, s) && s->hl_g == tn_wbots_character_graph(w) &&
        tn_surf_generation(s->hl_g) == s->hl_gen)
        return s->hl_note;
    return NULL;
}

/* The bot waits to plan (a new goal, an edit, G or a slider mid-jump), or
 * its goal was refused before any search: its last search (the classic
 * finder's, or the graph's nodes) is another plan's, drawn on a map that
 * may have changed since (an edit put blocks on the old nodes). */
static bool plan_pending(const tn_world *w, const tn_wbots *s)
{
    tn_bot_info i = tn_bot_get_info(s->bot);
    return (i.active && waits_why(w, s, &i)[0]) || goal_refused(&i);
}

/* The search of the extra bot making its plan in slices (one at a time),
 * as far as it has gone (its query object's expanded nodes): each node a tile shaded in the
 * bot's colour, those in the view (NULL: all), at most SLICE_DRAW. */
#define SLICE_DRAW 20000
static void draw_slicing(const tn_wbots *s, const tn_debug_draw *dd, const float *view)
{
    const int i = planning_bot(s);
    if (i < 0) return;
    const tn_surf *g = tn_bot_graph(s->ebot[i]);
    /* only a graph in the cache (one away is being built or repaired on
     * another thread), and only when not repaired since the plan began (its
     * node ids moved; the bot begins again at its next step) */
    bool cached = false;
    for (int k = 0; k < GRAPH_CACHE; k++) cached |= g && s->graph[k] == g;
    if (!cached || tn_surf_generation(g) != tn_bot_plan_generation(s->ebot[i])) return;
    const tn_surf_query *q = query_of(s, g);
    const int nn = tn_surf_node_count(g);
    int n = 0, drawn = 0;
    const int32_t *nodes = q ? tn_surf_query_expanded(q, &n) : NULL;
    const uint32_t c = (PALETTE[i % 8] & 0xffffff00u) | 0x60u;
    for (int k = 0; k < n && drawn < SLICE_DRAW; k++) {
        int row, j;
        if (nodes[k] < 0 || nodes[k] >= nn) continue;
        tn_surf_node_pos(g, nodes[k], &row, &j);
        const float x = floorf(tn_surf_lattice_x(g, j) / T) * T, y = (float)(row - 1) * T;
        if (view && (x + T < view[0] || y + T < view[1] || x > view[2] || y > view[3])) continue;
        tn_dd_rect(dd, x, y, T, T, c, true);
        drawn++;
    }
}

void tn_wbots_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays, const float *view)
{
    const tn_wbots *s = of(w);
    if (!s) return;
    if (!(overlays & TN_OVERLAY_SURF) || !graph_mode(w, s))
        ((tn_wbots *)s)->snap_valid = false; /* (see snap: drawing keeps that cache) */
    bool graph = strcmp(planner_in_effect(w, s), "graph") == 0;
    if ((overlays & TN_OVERLAY_EXPLORED) && graph && !plan_pending(w, s)) {
        /* the graph planner's own search (the replay's nodes), not the
         * classic comparison search the HUD made on s->pf: each expanded
         * node shades the tile it stands on (several nodes on a tile: deeper) */
        for (int k = 0; k < s->sn_n; k++)
            tn_dd_rect(dd, (float)s->sn[k].x * T, (float)s->sn[k].y * T, T, T, 0xff9a3c00u | 0x50u,
                       true);
    } else if ((overlays & TN_OVERLAY_EXPLORED) && s->pf && !plan_pending(w, s)) {
        /* a shared finder (above 256x256) holds whichever search ran last,
         * often an extra bot's: the character's copy is drawn instead */
        int x0 = s->ex_x0, y0 = s->ex_y0, x1 = s->ex_x1, y1 = s->ex_y1;
        bool shared = s->pf_extra == s->pf;
        if (shared ? x0 <= x1 : tn_path_explored_bounds(s->pf, &x0, &y0, &x1, &y1)) {
            for (int y = y0; y <= y1; y++)
                for (int x = x0; x <= x1; x++) {
                    int e = shared ? (s->ex ? s->ex[(size_t)y * (size_t)w->map->w + (size_t)x] : 0)
                                   : tn_path_explored_at(s->pf, x, y);
                    if (!e) continue;
                    uint32_t a = (uint32_t)(40 + (e > 12 ? 12 : e) * 12);
                    tn_dd_rect(dd, (float)x * T, (float)y * T, T, T, 0xff9a3c00u | a, true);
                }
        }
    }
    if ((overlays & TN_OVERLAY_EXPLORED) && graph) draw_slicing(s, dd, view);
    if ((overlays & TN_OVERLAY_SURF) && graph_mode(w, s)) {
        /* the graph's surfaces and edges, under the bots and their paths (up
         * to 300 arcs drawn over them crossed the extra bots' bodies and
         * buried their thin, faint paths and plans) */
        tn_surf *g = graph_for((tn_world *)w, (tn_wbots *)s, &w->character, LOOK);
        if (g && (overlays & TN_OVERLAY_SURF)) {
            /* the edges that take off in the view or within SURF_MARGIN
             * tiles of it (arcs from there cross it), at most 300 of them:
             * a stride over the whole graph of a 256x256 map left a few in
             * the view; kept as the snapshot where repairs run in the
             * background (drawing keeps that cache: hence the cast) */
            const float M = SURF_MARGIN * T;
            float full[4] = {0, 0, (float)w->map->w * T, (float)w->map->h * T};
            const float *v = view ? view : full;
            tn_wbots *ms = (tn_wbots *)s;
            snap_dd rec = {dd, ms};
            tn_debug_draw snap = {&rec, snap_line, snap_rect, snap_circle, NULL, NULL};
            const bool keep =
                repair_bg(w, s) &&
                (s->snap || (ms->snap = tn_alloc(&w->alloc, SNAP_MAX * sizeof *s->snap)));
            ms->snap_n = 0;
            ms->snap_valid = keep;
            ms->snap_prof = *tn_surf_get_profile(g);
            tn_surf_debug_draw_surfaces_in(g, keep ? &snap : dd, v[0] - M, v[1] - M, v[2] + M,
                                           v[3] + M);
            tn_surf_debug_draw_edges_in(g, w->map, keep ? &snap : dd, v[0] - M, v[1] - M, v[2] + M,
                                        v[3] + M, SURF_DRAW_EDGES);
            hl_refresh(w, ms, g);
            if (hl_shown(w, s)) hl_draw(s, g, dd);
        } else if (!g && (overlays & TN_OVERLAY_SURF) && snap_shown(w, s)) {
            snap_draw(s, dd); /* (the note says the graph is being repaired) */
        }
    }
    for (int i = 0; i < s->n; i++) {
        const tn_body *b = &s->ebody[i];
        uint32_t c = PALETTE[i % 8];
        float bw = (float)b->w * T, bh = (float)b->h * T;
        /* opaque, as the character, the companion, the wanderers and the
         * enemies are: at alpha 0xc0 a one-way platform the bot stood in
         * showed through its body, as if drawn over it */
        tn_dd_rect(dd, b->x + 1, b->y + 1, bw - 2, bh - 2, c, true);
        tn_dd_rect(dd, b->x, b->y, bw, bh, 0x101018ffu, false);
        tn_dd_circle(dd, b->x + 0.5f * bw, b->y + 5, 2.0f, 0x101018ffu, true); /* an eye line */
        if (tn_bot_planning(s->ebot[i])) /* making its plan in slices: three dots over it */
            for (int k = -1; k <= 1; k++)
                tn_dd_circle(dd, b->x + 0.5f * bw + (float)k * 5.0f, b->y - 6.0f, 1.5f, 0xf0f0f0ffu,
                             true);
        if (!(overlays & TN_OVERLAY_PATH)) continue;
        draw_path(dd, s->ebot[i], b->w, b->h, c, false); /* classic: the path */
        tn_surf *g = graph_mode(w, s) ? graph_for((tn_world *)w, (tn_wbots *)s, b, LOOK) : NULL;
        if (g) draw_plan(w, s->ebot[i], b, g, dd, c); /* graph: the plan */
    }
    if ((overlays & TN_OVERLAY_PATH) && goto_on(w, s)) {
        /* a plan made before an edit or a slider change is not drawn while
         * the bot waits to plan again (the graph plan's legs are not either:
         * plan_of), in both planners alike */
        if (!plan_pending(w, s))
            draw_path(dd, s->bot, w->character.w, w->character.h, 0xfff26bffu, true);
        /* a goal out of reach: the plan's end is the closest spot, so the
         * tile the trip wanted is framed in red (a review: nothing showed
         * where the goal had been) */
        tn_bot_info i = tn_bot_get_info(s->bot);
        if (i.goal_x >= 0 &&
            (i.state == TN_BOT_PARTIAL || (i.state == TN_BOT_NO_PATH && i.expanded > 0))) {
            const float gx = (float)i.goal_x * T, gy = (float)i.goal_y * T;
            tn_dd_rect(dd, gx + 1, gy + 1, T - 2, T - 2, 0xff4050ffu, false);
            tn_dd_rect(dd, gx + 3, gy + 3, T - 6, T - 6, 0xff405090u, false);
        }
    }
    if ((overlays & (TN_OVERLAY_SURF | TN_OVERLAY_PATH)) && graph_mode(w, s)) {
        tn_surf *g = graph_for((tn_world *)w, (tn_wbots *)s, &w->character, LOOK);
        if (g) draw_plan(w, s->bot, &w->character, g, dd, 0); /* the path overlay: the plan */
    }
}

/* Every remaining edge of a bot's graph plan still replays on the map
 * (when the plan belongs to its current graph and to the map as it is: a
 * plan older than an edit is not followed, the bot plans again at its next
 * step, or, in the air, at its landing).  who: "character" or "bot N". */
static tn_status check_plan(const tn_world *w, const tn_wbots *s, const tn_bot *bot,
                            const tn_body *b, const char *who, tn_error *err)
{
    tn_surf *g = graph_for((tn_world *)w, (tn_wbots *)s, b, LOOK);
    if (!plan_of(bot, g)) return TN_OK;
    if (tn_bot_plan_revision(bot) != w->map->revision) return TN_OK; /* re-plans first */
    int nl, leg;
    const tn_surf_leg *legs = tn_bot_legs(bot, &nl, &leg);
    for (int k = leg; k < nl; k++)
        if (legs[k].edge >= 0 && !tn_surf_edge_valid(g, w->map, legs[k].edge))
            return tn_error_set(err, TN_FAILURE, 0, 0,
                                "%s's graph plan edge %d (leg %d) no longer replays on the map",
                                who, legs[k].edge, k);
    return TN_OK;
}

/* The character's and every extra bot's graph plan (check_plan). */
tn_status tn_wbots_check(const tn_world *w, tn_error *err)
{
    const tn_wbots *s = of(w);
    if (!graph_mode(w, s)) return TN_OK;
    tn_status st = check_plan(w, s, s->bot, &w->character, "character", err);
    for (int i = 0; i < s->n && tn_succeeded(st); i++) {
        char who[32];
        snprintf(who, sizeof who, "bot %d", i + 1);
        st = check_plan(w, s, s->ebot[i], &s->ebody[i], who, err);
    }
    return st;
}
