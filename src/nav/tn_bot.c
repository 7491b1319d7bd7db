/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_bot.h"
#include "internal/memcount.h"
#include "internal/phys_diff.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Pixel lengths scale with the tile (T = phys.tile_px), written as their
 * value at 16-px tiles (TN_PX16: bit-identical at 16, exact for any
 * power-of-two tile size, so the follower is scale-invariant like tn_phys). */
#define Y_TOL(T) TN_PX16(T, 1.0f)
#define JUMP_MARGIN(T) TN_PX16(T, 4.0f)
#define STUCK_MOVE(T) TN_PX16(T, 0.01f)
#define STUCK_REPLANS 4
#define WHOLE_JUMP (1 << 20) /* jump frames meaning: hold jump for the whole jump */
#define SIM_ROWS 40
/* Positions closer than this to a tile edge count as on it: walking adds
 * 8/3 px per step in float, which drifts by ~1/1000 px per 50 tiles. */
#define ALIGN(T) TN_PX16(T, 1.0f / 16.0f)
/* Overlaps of a neighbouring column thinner than this are float drift. */
#define GRAZE(T) TN_PX16(T, 0.25f)

enum { JUMP_NONE = 0, JUMP_WANT, JUMP_HOLD };

struct tn_bot {
    tn_allocator alloc;
    size_t mem; /* bytes its create allocated (tn_bot_memory) */
    tn_bot_config cfg;
    tn_path_node *path;
    int n, cur;
    tn_bot_state state;
    bool partial; /* the path ends short of the goal */
    int goal_x, goal_y;
    bool want_plan;
    int plan_w, plan_h;
    const tn_map *plan_map;
    uint32_t plan_rev;
    /* physics-derived tables */
    tn_phys_params phys;
    bool phys_valid;
    tn_jump_model jm;
    int jump_frames[TN_PATH_MAX_JUMP + 1];
    /* jump state */
    int jump_phase, jump_left, jump_tiles;
    bool nudged;   /* stepped off a grazed column: x may be a step off */
    int wall_dir;  /* -1 / +1: pushed off the lattice, walking into a wall */
    int wall_left; /* frames the wall walk may still take (its simulated steps + stuck_steps) */
    /* no wall on its ground: the wall walk goes off a ledge's end instead
     * (ledge 1), and in the air back into the ledge's side after ledge_wait
     * frames, which stops the box on a tile edge; then it falls with no key
     * (ledge 2) and plans on landing (ledge_side) */
    int ledge, ledge_wait;
    bool no_wall; /* wall_side found none from (no_wall_x, no_wall_y) since the plan */
    float no_wall_x, no_wall_y;
    float wall_cx;   /* the x of the way down they walk for (start_wall_walk) */
    long look_steps; /* classic: steps simulated on copies since the goal (tn_bot_info) */
    bool took_off;
    int jump_tx, jump_ty; /* the tile where the last jump was pressed */
    int off_tx, off_ty;   /* the tile of the last landing off the path */
    bool ground_off;      /* off the lattice in the last step it stood (its take-off) */
    /* the tile where the walk back onto the lattice under way began
     * (from_tx), and where the last one that got there began (walk_tx) */
    int from_tx, from_ty, walk_tx, walk_ty;
    bool airborne; /* left the ground since the last landing */
    /* stuck */
    float last_x, last_y;
    int still, since_node;
    int stuck_replans;
    int replans, plans, steps;
    bool first_plan; /* the goal has not been planned for yet */
    /* last search */
    tn_path_stats stats;
    double search_us;
    double (*clock)(void);
    /* graph planner (tn_surf): legs, the edge being replayed (its runs are
     * copied, so a rebuilt graph does not pull them away) */
    tn_surf *graph;
    tn_surf_leg *legs;
    int nlegs, leg;
    int gphase; /* GP_WALK, GP_REPLAY, GP_LANDING */
    uint16_t runs[TN_BOT_RUNS_MAX];
    int nruns, run_i, run_left;
    int expect_row, expect_j;
    int aligned_leg; /* the leg whose take-off off the lattice was checked */
    int align_dir;   /* -1 / +1: walking into a wall to get back on the lattice */
    int no_landing;  /* edge (of graph generation no_landing_gen) that realign
                        found no take-off for, with no wall to get back on the
                        lattice: a second time in a row, the bot is STUCK */
    uint32_t no_landing_gen;
    bool detour; /* replaying an edge realign chose to get onto a surface
                    with a wall (or onto the lattice): on landing, walk
                    into the wall there and plan again */
    /* pre_dir (-1 / +1, 0 none): leg pre_leg's edge is replayed after
     * pre_n frames of walking that way, off the sliver of a ledge the body
     * stands on (realign); detour_chain: detours in a row onto surfaces with no
     * wall (DETOUR_CHAIN at most, for a goal) */
    int pre_leg, pre_dir, pre_n, detour_chain;
    /* the edge being replayed has not left the ground yet (replay_ground);
     * the body's offset from the lattice when it began (replay_d, px): a
     * push before it leaves the ground changes it and stops the replay,
     * once a leg (stopped_leg; gstep) */
    bool replay_ground;
    float replay_d;
    int stopped_leg;
    /* in the air: the body as the edge's inputs move it (shadow, stepped
     * with the graph's physics by the bot's last input while shadow_ok);
     * one that differs was pushed, and the rest of the flight is steered
     * (steer: steer_left frames of walking toward steer_dir, 0 none, in
     * place of the inputs' left and right), once a leg (steered_leg) */
    tn_body shadow;
    bool shadow_ok;
    int steer_dir, steer_left, steered_leg;
    /* no steering lands there (lost): the first ground the body meets,
     * before the inputs end, ends the edge and plans from there */
    bool lost;
    long align_frames; /* realign's replays' frames left (REALIGN_FRAMES) */
    /* realign found no take-off that lands and no wall: the detour, which
     * asks the graph, waits for a step without a search of the bot's own
     * and without the hold (tn_bot_hold_plans) */
    bool detour_wait;
    int searched_step; /* b->steps when the bot last planned (or sliced) */
    uint32_t graph_gen;
    tn_surf_profile gprof; /* the profile of the graph the last graph plan used */
    tn_surf_stats gstats;
    bool gpartial;
    /* for inspection: why the next / the last plan, the input of the last step */
    const char *why, *last_why;
    tn_error perr;       /* the last plan's status and message (tn_bot_plan_error) */
    tn_path_query lastq; /* the last classic search's query (tn_bot_last_query) */
    bool lastq_valid;
    tn_input last_in;
    int first_raw, first_expanded; /* the goal's first plan */
    /* tn_bot_hold_plans: no search in tn_bot_step; held: the last step
     * put a due plan off */
    bool hold, held;
    /* tn_bot_set_query: graph plans on a query object, in slices of
     * slice_nodes nodes a step when > 0; planning: a sliced plan under way
     * from node gstart (its slices and steps so far in plan_slices) */
    tn_surf_query *query;
    int slice_nodes;
    bool planning;
    int gstart, plan_slices;
    uint32_t serial; /* tn_surf_query_serial after the bot's begin */
};

enum { GP_WALK = 0, GP_REPLAY, GP_LANDING };

const char *tn_bot_state_name(tn_bot_state s)
{
    switch (s) {
    case TN_BOT_IDLE: return "idle";
    case TN_BOT_MOVING: return "moving";
    case TN_BOT_ARRIVED: return "arrived";
    case TN_BOT_NO_PATH: return "no_path";
    case TN_BOT_PARTIAL: return "partial";
    case TN_BOT_STUCK: return "stuck";
    }
    return "?";
}

tn_status tn_bot_create(const tn_bot_config *cfg, const tn_allocator *a, tn_bot **out,
                        tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "bot: no output pointer");
    *out = NULL;
    tn_bot_config c;
    memset(&c, 0, sizeof c);
    if (cfg) c = *cfg;
    const struct {
        const char *name;
        int v;
    } sizes[4] = {{"path_cap", c.path_cap},
                  {"max_expand", c.max_expand},
                  {"stuck_steps", c.stuck_steps},
                  {"max_replans", c.max_replans}};
    for (int i = 0; i < 4; i++)
        if (sizes[i].v < 0)
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "bot: config %s %d is negative (0 = the default)", sizes[i].name,
                                sizes[i].v);
    if (c.heuristic != TN_PATH_OPTIMAL && c.heuristic != TN_PATH_FAST)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "bot: config heuristic %d is not TN_PATH_OPTIMAL (%d) or "
                            "TN_PATH_FAST (%d)",
                            c.heuristic, TN_PATH_OPTIMAL, TN_PATH_FAST);
    if (!c.path_cap) c.path_cap = TN_BOT_PATH_CAP;
    if (c.path_cap < 2 || c.path_cap > TN_BOT_PATH_CAP_MAX)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "bot: config path_cap %d is outside 2..%d", c.path_cap,
                            TN_BOT_PATH_CAP_MAX);
    if (!c.stuck_steps) c.stuck_steps = TN_BOT_STUCK_STEPS;
    if (!c.max_replans) c.max_replans = 48;
    tn_memcount mc; /* (the bot's memory: what its create allocated) */
    tn_allocator ca = tn_memcount_wrap(&mc, a);
    tn_bot *b = tn_alloc(&ca, sizeof *b);
    if (!b) return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "bot: out of memory");
    if (a) b->alloc = *a;
    b->cfg = c;
    b->path = tn_alloc_array(&ca, (size_t)c.path_cap, sizeof *b->path);
    b->legs = tn_alloc_array(&ca, (size_t)c.path_cap, sizeof *b->legs);
    if (!b->path || !b->legs) {
        tn_bot_destroy(b);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "bot: out of memory for its path of %d nodes", c.path_cap);
    }
    b->mem = mc.bytes;
    b->goal_x = b->goal_y = -1;
    b->no_landing = -1;
    b->search_us = -1.0;
    tn_error_clear(&b->perr);
    *out = b;
    return TN_OK;
}

size_t tn_bot_memory(const tn_bot *b) { return b ? b->mem : 0; }

void tn_bot_destroy(tn_bot *b)
{
    if (!b) return;
    tn_allocator a = b->alloc;
    tn_free(&a, b->path);
    tn_free(&a, b->legs);
    tn_free(&a, b);
}

void tn_bot_set_clock(tn_bot *b, double (*clock)(void))
{
    if (b) b->clock = clock;
}

/* ---- physics tables --------------------------------------------------- */

/* Apex (px above the take-off) of a jump holding the key for `hold` steps. */
static float sim_apex(const tn_phys_params *p, int hold)
{
    uint8_t tile[SIM_ROWS] = {0}, mark[SIM_ROWS] = {0};
    tn_map m;
    memset(&m, 0, sizeof m);
    m.w = 1;
    m.h = SIM_ROWS;
    m.tile = tile;
    m.mark = mark;
    m.start_x = m.start_y = -1;
    tn_body body;
    tn_body_place(&body, p, 1, 1, 0, SIM_ROWS - 1);
    const tn_input none = {false, false, false, false};
    const tn_input jump = {false, false, false, true};
    tn_body_step(&body, &m, p, none);
    float y0 = body.y, top = 0.0f;
    for (int f = 1; f <= TN_PHYS_RISE_STEPS_MAX + 2; f++) { /* (validated) */
        tn_body_step(&body, &m, p, f <= hold ? jump : none);
        if (y0 - body.y > top) top = y0 - body.y;
        if (body.vy >= 0.0f) break;
    }
    return top;
}

static bool same_phys(const tn_phys_params *a, const tn_phys_params *b)
{
    return a->dt == b->dt && a->gravity == b->gravity && a->max_fall == b->max_fall &&
           a->walk_speed == b->walk_speed && a->jump_height == b->jump_height &&
           a->jump_cut_speed == b->jump_cut_speed && a->coyote_frames == b->coyote_frames &&
           a->tile_px == b->tile_px;
}

/* Rebuild the model and the jump table when the physics changed; true when
 * it did (a path planned under the old physics must be re-planned). */
static bool update_physics(tn_bot *b, const tn_phys_params *p)
{
    if (b->phys_valid && same_phys(&b->phys, p)) return false;
    b->phys = *p;
    b->phys_valid = tn_succeeded(tn_jump_model_init(&b->jm, p, NULL));
    if (!b->phys_valid) return true;
    const int M = b->jm.max_jump;
    float full = sim_apex(p, 1 << 20);
    int hold = 1;
    for (int k = 1; k <= M; k++) {
        float need = p->tile_px * (float)k + JUMP_MARGIN(p->tile_px);
        if (need > full || k == M) {
            b->jump_frames[k] = WHOLE_JUMP;
            continue;
        }
        while (hold <= TN_PHYS_RISE_STEPS_MAX + 2 && sim_apex(p, hold) < need) hold++;
        b->jump_frames[k] = hold;
    }
    return true;
}

int tn_bot_jump_frames(const tn_bot *b, int tiles)
{
    if (!b || !b->phys_valid || tiles < 1) return 0;
    if (tiles > b->jm.max_jump) tiles = b->jm.max_jump;
    return b->jump_frames[tiles];
}

/* ---- goals and planning --------------------------------------------------- */

bool tn_bot_snap_goal(const tn_map *m, int w, int h, int x, int y, int *gx, int *gy)
{
    if (!m || !tn_map_inside(m, x, y) || w < 1 || w > TN_MAX_BODY_W || h < 1 || h > TN_MAX_BODY_H)
        return false;
    while (y > 0 && tn_map_tile(m, x, y) == TN_TILE_BLOCK) y--;
    int bx = -1, by = y;
    for (int dy = 0; dy < h && bx < 0; dy++)
        for (int dx = 0; dx < w && bx < 0; dx++)
            if (x - dx >= 0 && tn_path_box_fits(m, x - dx, y + dy, w, h)) bx = x - dx, by = y + dy;
    if (bx < 0) return false;
    while (!tn_path_box_ground(m, bx, by, w) && tn_path_box_fits(m, bx, by + 1, w, h)) by++;
    if (gx) *gx = bx;
    if (gy) *gy = by;
    return true;
}

static void set_path_empty(tn_bot *b)
{
    b->n = 0;
    b->cur = 0;
    b->jump_phase = JUMP_NONE;
    b->wall_dir = 0;
    b->ledge = 0;
}

/* A goal refused before any search: no plan, and no numbers of the last
 * goal's search left to read as this one's. */
static void refuse_goal(tn_bot *b)
{
    b->state = TN_BOT_NO_PATH;
    set_path_empty(b);
    b->nlegs = b->leg = 0;
    b->want_plan = false;
    b->planning = false;
    memset(&b->stats, 0, sizeof b->stats);
    b->stats.cost = -1;
    memset(&b->gstats, 0, sizeof b->gstats);
    b->search_us = -1.0;
    b->first_raw = b->first_expanded = 0;
    b->lastq_valid = false;
}

/* The classic planner without a finder (pf NULL: a graph-only game that
 * went back to classic): NO_PATH, with the reason in perr. */
static void no_finder(tn_bot *b)
{
    refuse_goal(b);
    tn_error_set(&b->perr, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                 "bot: the classic planner needs a finder, but pf is NULL (create one with "
                 "tn_path_create, or set a graph with tn_bot_set_graph)");
}

/* Plan from where the body is.  Returns false when it could not. */
static void plan(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body)
{
    b->want_plan = false;
    b->since_node = 0;
    b->nudged = false;
    b->wall_dir = 0;
    b->ledge = 0;
    b->no_wall = false;
    b->jump_phase = JUMP_NONE;
    b->airborne = !body->on_ground;
    b->still = 0;
    tn_error_clear(&b->perr);
    b->lastq_valid = false;
    if (!b->phys_valid) {
        set_path_empty(b);
        b->state = TN_BOT_NO_PATH;
        return;
    }
    int tx, ty;
    tn_body_tile(body, &b->phys, &tx, &ty);
    const int w = body->w, h = body->h;
    int sx = tx, sy = ty;
    bool ok =
        tn_path_box_fits(m, sx, sy, w, h) && (!body->on_ground || tn_path_box_ground(m, sx, sy, w));
    const int cand[2] = {1, -1};
    for (int i = 0; i < 2 && !ok; i++) {
        int x = tx + cand[i];
        if (tn_path_box_fits(m, x, ty, w, h) &&
            (!body->on_ground || tn_path_box_ground(m, x, ty, w)))
            sx = x, ok = true;
    }
    if (!ok && tn_path_box_fits(m, tx, ty, w, h)) ok = true; /* in the air, or standing oddly */
    b->plan_w = w;
    b->plan_h = h;
    b->plan_map = m;
    b->plan_rev = m->revision;
    b->plans++;
    if (!ok) {
        set_path_empty(b);
        b->state = TN_BOT_NO_PATH;
        return;
    }
    if (!pf) { /* a graph-only game switched back to classic without a finder */
        no_finder(b);
        return;
    }
    tn_path_query q = tn_path_query_make(sx, sy, b->goal_x, b->goal_y, w, h, &b->jm);
    q.heuristic = b->cfg.heuristic;
    q.max_expand = b->cfg.max_expand;
    if (q.max_expand > tn_path_max_expand(pf)) q.max_expand = 0;
    b->lastq = q;
    b->lastq_valid = true;
    double t0 = b->clock ? b->clock() : 0.0;
    int n = 0;
    tn_status s = tn_path_find(pf, m, &q, b->path, b->cfg.path_cap, &n, &b->stats, &b->perr);
    b->search_us = b->clock ? (b->clock() - t0) * 1e6 : -1.0;
    b->cur = 0;
    b->n = n;
    if (tn_failed(s) || n == 0) {
        set_path_empty(b);
        b->state = TN_BOT_NO_PATH;
        return;
    }
    bool unreachable = tn_status_detail(s, TN_UNREACHABLE) || tn_status_detail(s, TN_LIMIT_REACHED);
    b->partial = tn_status_detail(s, TN_PARTIAL_RESULT);
    if (unreachable && n <= 1) {
        b->state = TN_BOT_NO_PATH;
        return;
    }
    b->state = unreachable ? TN_BOT_PARTIAL : TN_BOT_MOVING;
}

/* Every plan for a goal after its first is a re-plan, capped. */
static void replan(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body)
{
    bool first = b->first_plan;
    if (b->first_plan) {
        b->first_plan = false;
    } else if (++b->replans > b->cfg.max_replans) {
        set_path_empty(b);
        b->want_plan = false;
        b->state = TN_BOT_STUCK;
        return;
    }
    b->last_why = b->why ? b->why : "re-plan";
    b->why = NULL;
    plan(b, pf, m, body);
    if (first) {
        b->first_raw = b->stats.raw_nodes;
        b->first_expanded = b->stats.expanded;
    }
}

/* On the ground, or just placed there (tn_body_place leaves on_ground false
 * until the first step): at rest with the feet on a tile top over ground. */
static bool standing(const tn_bot *b, const tn_map *m, const tn_body *body)
{
    if (body->on_ground) return true;
    if (body->vy != 0.0f) return false;
    const float T = b->phys.tile_px;
    float feet = body->y + (float)body->h * T;
    if (feet != floorf(feet / T) * T) return false;
    int tx, ty;
    tn_body_tile(body, &b->phys, &tx, &ty);
    return tn_path_box_ground(m, tx, ty, body->w);
}

/* Standing on map m as it is now: body->on_ground is the last step's, and
 * an edit since (a ledge removed under the body, the graph synced) leaves
 * it true over nothing until the next step.  A graph plan from there has
 * no start node; the body is about to fall, and plans on landing. */
static bool grounded(const tn_bot *b, const tn_map *m, const tn_body *body)
{
    if (!body->on_ground) return false;
    tn_body t = *body;
    tn_body_settle(&t, m, &b->phys);
    return t.on_ground;
}

/* A plan falls due in tn_bot_step while the owner holds the bot's searches
 * (tn_bot_hold_plans): it waits (tn_bot_info.pending_reason: b->why, set
 * by the caller), and the bot stands without counting the wait as being
 * stuck.  True when it is held (the step returns no input). */
static bool hold_plan(tn_bot *b)
{
    if (!b->hold) return false;
    b->want_plan = true;
    b->held = true;
    b->still = 0;
    b->since_node = 0;
    return true;
}

void tn_bot_hold_plans(tn_bot *b, bool hold)
{
    if (b) b->hold = hold;
}

bool tn_bot_plan_held(const tn_bot *b) { return b && b->held; }

void tn_bot_set_query(tn_bot *b, tn_surf_query *q, int max_nodes)
{
    if (!b) return;
    if (max_nodes < 0 || !q) max_nodes = 0;
    if (q == b->query && max_nodes == b->slice_nodes) return; /* (no change: the plan goes on) */
    if (b->planning) { /* the slices under way were the old object's or budget's */
        b->planning = false;
        b->want_plan = true;
        if (!b->why) b->why = "query object changed";
    }
    b->query = q;
    b->slice_nodes = q && max_nodes > 0 ? max_nodes : 0;
}

bool tn_bot_planning(const tn_bot *b) { return b && b->planning; }

/* ---- the graph planner's follower ----------------------------------------- */

/* Why a graph of profile `p` (rebuilt, or given in place of the last plan's)
 * needs a new plan. */
static const char *profile_reason(const tn_bot *b, const tn_surf_profile *p)
{
    if (p->w != b->gprof.w || p->h != b->gprof.h) return "size changed";
    if (!tn_surf_same_profile(p, &b->gprof)) return "physics changed";
    return NULL;
}

void tn_bot_set_graph(tn_bot *b, tn_surf *g)
{
    if (!b || b->graph == g) return;
    bool had = b->graph != NULL;
    b->graph = g;
    b->planning = false;
    b->nlegs = b->leg = 0;
    b->n = b->cur = 0; /* either planner's path is no plan for the other */
    b->gphase = GP_WALK;
    b->jump_phase = JUMP_NONE; /* the classic follower's jump, if one was under way */
    if (b->state != TN_BOT_MOVING && b->state != TN_BOT_PARTIAL) return;
    b->want_plan = true;
    /* the first reason since the last plan names the re-plan; b->why is
     * NULL only after a plan, and then `had` says a graph made it */
    if (!b->first_plan && !b->why) {
        const char *r = had && g ? profile_reason(b, tn_surf_get_profile(g)) : NULL;
        b->why = !had || !g ? "planner switched" : r ? r : "graph switched";
    }
}

void tn_bot_replan(tn_bot *b, const char *reason)
{
    if (!b || (b->state != TN_BOT_MOVING && b->state != TN_BOT_PARTIAL)) return;
    b->planning = false;
    b->nlegs = b->leg = 0;
    b->n = b->cur = 0;
    b->gphase = GP_WALK;
    b->jump_phase = JUMP_NONE;
    b->want_plan = true;
    if (!b->first_plan && !b->why) b->why = reason ? reason : "re-plan";
}

/* (a NULL bot reads as one with no graph and no plan, as tn_bot_replan
 * and tn_bot_set_heuristic take it: tn_bot_graph(NULL) dereferenced it) */
uint32_t tn_bot_plan_generation(const tn_bot *b) { return b ? b->graph_gen : 0; }
const tn_surf *tn_bot_graph(const tn_bot *b) { return b ? b->graph : NULL; }
uint32_t tn_bot_plan_revision(const tn_bot *b) { return b ? b->plan_rev : 0; }

const tn_surf_leg *tn_bot_legs(const tn_bot *b, int *count, int *leg)
{
    if (count) *count = b && b->graph ? b->nlegs : 0;
    if (leg) *leg = b ? b->leg : 0;
    return b ? b->legs : NULL;
}

/* A graph not synced with m since the map's last edit: its plans may cross
 * removed ground or miss new paths (and tn_surf_find cannot tell).  Sets e
 * (INVALID_PARAM, naming both revisions) and returns true. */
static bool graph_stale(const tn_surf *g, const tn_map *m, tn_error *e)
{
    if (tn_surf_in_sync(g, m)) return false;
    uint32_t built = tn_surf_map_revision(g);
    if (built != m->revision) /* (an edit, or another map: the revision cannot tell) */
        tn_error_set(e, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "bot: the graph is out of sync with the map (built at map revision %lu, "
                     "the map is at %lu: edited since, or another map): call "
                     "tn_surf_sync(graph, map)",
                     (unsigned long)built, (unsigned long)m->revision);
    else
        tn_error_set(e, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "bot: the graph was built for another map (another address or size, at "
                     "the same revision %lu): call tn_surf_sync(graph, map)",
                     (unsigned long)built);
    return true;
}

static void gplan_done(tn_bot *b, tn_status s, int n);
static bool profile_diff(const tn_surf_profile *pr, const tn_body *body, const tn_phys_params *p,
                         char *buf, size_t cap);

/* A graph of another profile than the body's size and physics p: sets e
 * (INVALID_PARAM, what differs, as tn_bot_goto says it) and returns true. */
static bool graph_of_another_profile(const tn_surf *g, const tn_body *body, const tn_phys_params *p,
                                     tn_error *e)
{
    char diff[160];
    if (!profile_diff(tn_surf_get_profile(g), body, p, diff, sizeof diff)) return false;
    tn_error_set(e, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                 "bot: the graph is for another profile than this character "
                 "(graph vs character: %s): build the graph for its profile "
                 "(tn_surf_rebuild)",
                 diff);
    return true;
}

/* The node a plan starts from for the body: its own (tn_surf_node_of_body)
 * or, standing off the lattice, the first of its row at j + 1, j - 1,
 * j + 2, j - 2 (a body pushed off the lattice can stand up to two steps
 * past a surface's end node: on a sliver the lattice does not reach); -1
 * when none. */
static int start_node(const tn_bot *b, const tn_body *body)
{
    const tn_surf *g = b->graph;
    int start = tn_surf_node_of_body(g, body);
    if (start < 0 && body->on_ground) {
        const float T = b->phys.tile_px;
        int row = (int)lroundf((body->y + (float)body->h * T) / T);
        int j = tn_surf_lattice_j(g, body->x);
        for (int d = 1; d <= 2 && start < 0; d++) {
            start = tn_surf_node_at(g, row, j + d);
            if (start < 0) start = tn_surf_node_at(g, row, j - d);
        }
    }
    return start;
}

/* Every plan for a goal after its first is a re-plan, capped (as replan()). */
static void gplan(tn_bot *b, const tn_map *m, const tn_body *body)
{
    tn_surf *g = b->graph;
    b->planning = false;    /* (a sliced plan under way is dropped) */
    b->lastq_valid = false; /* no classic search behind this plan */
    /* no plan on a stale graph, nor on one of another profile (rebuilt
     * for other physics, or the body resized, since the goal): say why */
    if (graph_stale(g, m, &b->perr) || graph_of_another_profile(g, body, &b->phys, &b->perr)) {
        b->state = TN_BOT_NO_PATH;
        b->nlegs = b->n = b->leg = b->cur = 0;
        b->want_plan = false;
        return;
    }
    tn_error_clear(&b->perr);
    if (b->first_plan) {
        b->first_plan = false;
    } else if (++b->replans > b->cfg.max_replans) {
        b->state = TN_BOT_STUCK;
        b->nlegs = b->n = b->leg = b->cur = 0;
        b->want_plan = false;
        return;
    }
    b->gprof = *tn_surf_get_profile(g);
    b->want_plan = false;
    b->still = 0;
    b->gphase = GP_WALK;
    b->nlegs = b->leg = 0;
    b->n = b->cur = 0;
    b->plan_map = m;
    b->plan_rev = m->revision;
    b->plan_w = body->w;
    b->plan_h = body->h;
    b->aligned_leg = -1;
    b->align_dir = 0;
    b->pre_leg = -1;
    b->pre_dir = 0;
    b->stopped_leg = -1;
    b->steered_leg = -1;
    b->shadow_ok = false;
    b->steer_left = 0;
    b->lost = false;
    b->detour = false;
    b->detour_wait = false;
    b->searched_step = b->steps;
    b->graph_gen = tn_surf_generation(g);
    b->plans++;
    b->last_why = b->why ? b->why : "re-plan";
    b->why = NULL;
    const tn_surf_profile *pr = tn_surf_get_profile(g);
    int start = start_node(b, body);
    if (start < 0 || pr->w != body->w || pr->h != body->h) { /* (say why: NO_PATH alone did not) */
        if (pr->w != body->w || pr->h != body->h)
            tn_error_set(&b->perr, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                         "bot: the graph is for a %dx%d box, the body is %dx%d: set a graph of "
                         "its size",
                         pr->w, pr->h, body->w, body->h);
        else
            tn_error_set(&b->perr, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                         "bot: the body stands on no node of the graph (x %.2f px, feet at y "
                         "%.2f px): nowhere to plan from",
                         (double)body->x, (double)(body->y + (float)body->h * b->phys.tile_px));
        b->state = TN_BOT_NO_PATH;
        return;
    }
    tn_surf_query *q = b->query;
    if (q && tn_surf_query_graph(q) != g) { /* (not a plan on another graph's object) */
        tn_error_set(&b->perr, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "bot: the query object (tn_bot_set_query) is for another graph than the "
                     "bot's (tn_bot_set_graph): make one for this graph");
        b->state = TN_BOT_NO_PATH;
        return;
    }
    double t0 = b->clock ? b->clock() : 0.0;
    int n = 0;
    tn_status s;
    b->gstart = start;
    b->plan_slices = 0;
    if (q && b->slice_nodes > 0) {
        s = tn_surf_query_begin(q, start, b->goal_x, b->goal_y, &b->perr);
        b->serial = tn_surf_query_serial(q);
        b->search_us = b->clock ? (b->clock() - t0) * 1e6 : -1.0;
        if (s == TN_IN_PROGRESS) { /* the slices run in the next steps (gslice) */
            b->planning = true;
            b->state = TN_BOT_MOVING;
            return;
        }
        if (tn_succeeded(s)) /* answered at once (labels), or begin refused it */
            s = tn_surf_query_end(q, b->legs, b->cfg.path_cap, &n, &b->gstats, &b->perr);
    } else if (q) {
        s = tn_surf_query_find(q, start, b->goal_x, b->goal_y, b->legs, b->cfg.path_cap, &n,
                               &b->gstats, &b->perr);
    } else {
        s = tn_surf_find(g, start, b->goal_x, b->goal_y, b->legs, b->cfg.path_cap, &n, &b->gstats,
                         &b->perr);
    }
    b->search_us = b->clock ? (b->clock() - t0) * 1e6 : -1.0;
    gplan_done(b, s, n);
}

/* A whole graph plan ends at the goal tile's node the search reached
 * first, anywhere in the tile: coming from the right, its last lattice
 * step, the body then mostly over the next tile (5/6 of a tile at 16 px).
 * The final walk goes on to the node where the body's left edge is the
 * tile's, as the classic bot stops and as the goal tile reads, when that
 * node is on the same surface (a few frames more, counted in the plan). */
static void settle_on_goal(tn_bot *b)
{
    tn_surf *g = b->graph;
    tn_surf_leg *L = &b->legs[b->nlegs - 1];
    if (L->edge >= 0) return;
    int row, j;
    tn_surf_node_pos(g, L->node, &row, &j);
    const int aj = tn_surf_lattice_j(g, (float)b->goal_x * b->phys.tile_px);
    const int an = tn_surf_node_at(g, row, aj);
    if (an < 0 || an == L->node || tn_surf_node_surface(g, an) != tn_surf_node_surface(g, L->node))
        return;
    b->gstats.frames += abs(j - aj); /* (a lattice step a frame) */
    b->gstats.end_node = an;
    L->walk_to_j = aj;
    L->node = an;
}

/* A graph plan's answer (s, n legs in b->legs, stats in b->gstats) made
 * the bot's plan from node b->gstart. */
static void gplan_done(tn_bot *b, tn_status s, int n)
{
    tn_surf *g = b->graph;
    const int start = b->gstart;
    b->planning = false;
    b->stats.expanded = b->gstats.expanded;
    if (tn_failed(s) || n == 0) {
        b->state = TN_BOT_NO_PATH;
        b->nlegs = b->n = 0;
        return;
    }
    b->nlegs = n;
    b->n = n;
    b->gpartial = tn_status_detail(s, TN_PARTIAL_RESULT);
    b->partial = b->gpartial;
    int row, j;
    tn_surf_node_pos(g, start, &row, &j);
    if (b->gpartial && n == 1 && b->legs[0].walk_to_j == j) {
        b->state = TN_BOT_NO_PATH;
        b->nlegs = b->n = 0;
        return;
    }
    b->state = b->gpartial ? TN_BOT_PARTIAL : TN_BOT_MOVING;
    if (s == TN_OK) settle_on_goal(b);
}

/* The next slice of a sliced plan (b->planning): true while it goes on
 * (the bot stands).  A slice lost to another query on the same object
 * (bots sharing one that plan at once: another's query ended it, or its
 * begin replaced it, which the object's serial tells) finishes the plan
 * whole here, so that two bots cannot keep ending each other's slices. */
static bool gslice(tn_bot *b)
{
    tn_surf_query *q = b->query;
    double t0 = b->clock ? b->clock() : 0.0;
    int n = 0;
    const tn_status lost = TN_FAILURE | TN_INVALID_PARAM;
    tn_status s = tn_surf_query_serial(q) != b->serial
                      ? lost
                      : tn_surf_query_step(q, b->slice_nodes, NULL, NULL);
    b->plan_slices++;
    b->searched_step = b->steps;
    if (s == TN_IN_PROGRESS) {
        if (b->clock) b->search_us += (b->clock() - t0) * 1e6;
        return true;
    }
    if (tn_failed(s))
        s = tn_surf_query_find(q, b->gstart, b->goal_x, b->goal_y, b->legs, b->cfg.path_cap, &n,
                               &b->gstats, &b->perr);
    else
        s = tn_surf_query_end(q, b->legs, b->cfg.path_cap, &n, &b->gstats, &b->perr);
    if (b->clock) b->search_us += (b->clock() - t0) * 1e6;
    gplan_done(b, s, n);
    return false;
}

static void gfinish(tn_bot *b)
{
    b->leg = b->cur = b->nlegs;
    b->n = b->nlegs;
    if (b->state == TN_BOT_MOVING) b->state = TN_BOT_ARRIVED;
}

static tn_input gstep_replay_first(tn_bot *b)
{
    b->run_left = (b->runs[0] >> 4) + 1;
    b->run_i = 1;
    int v = b->runs[0] & 15;
    b->run_left--;
    if (b->run_left == 0 && b->run_i == b->nruns) b->gphase = GP_LANDING;
    tn_input in = {(v & TN_SURF_IN_LEFT) != 0, (v & TN_SURF_IN_RIGHT) != 0,
                   (v & TN_SURF_IN_DOWN) != 0, (v & TN_SURF_IN_JUMP) != 0};
    return in;
}

/* The next input of the edge being replayed (true), from the bot's copy
 * of its runs; false when none is left (the phase is then GP_LANDING) or
 * no edge is being replayed. */
static bool replay_next(tn_bot *b, tn_input *in)
{
    if (b->gphase != GP_REPLAY) return false;
    while (b->run_left == 0 && b->run_i < b->nruns) {
        b->run_left = (b->runs[b->run_i] >> 4) + 1;
        b->run_i++;
    }
    if (b->run_left == 0) {
        b->gphase = GP_LANDING;
        return false;
    }
    int v = b->runs[b->run_i - 1] & 15;
    b->run_left--;
    if (b->run_left == 0 && b->run_i == b->nruns) b->gphase = GP_LANDING;
    *in = (tn_input){(v & TN_SURF_IN_LEFT) != 0, (v & TN_SURF_IN_RIGHT) != 0,
                     (v & TN_SURF_IN_DOWN) != 0, (v & TN_SURF_IN_JUMP) != 0};
    if (b->steer_left > 0) { /* (steered after a push in the air: steer) */
        b->steer_left--;
        in->left = b->steer_dir < 0;
        in->right = b->steer_dir > 0;
    }
    return true;
}

/* The steps of holding jump left in the edge being replayed after this
 * one (the run being replayed and the runs that hold jump after it), as the
 * classic bot's jump_left; 0 when it does not hold jump now (the inspect
 * card read "jump left 0 frames" for every graph jump). */
static int graph_jump_left(const tn_bot *b)
{
    if (b->gphase == GP_WALK || b->run_i == 0 || !(b->last_in.jump)) return 0;
    if (!(b->runs[b->run_i - 1] & TN_SURF_IN_JUMP)) return 0;
    int n = b->run_left;
    for (int k = b->run_i; k < b->nruns && (b->runs[k] & TN_SURF_IN_JUMP); k++)
        n += (b->runs[k] >> 4) + 1;
    return n;
}

/* Left for dir < 0, right for dir > 0. */
static tn_input walk_toward(int dir)
{
    tn_input in = {false, false, false, false};
    in.left = dir < 0;
    in.right = dir > 0;
    return in;
}

/* The surface of graph g under a body on row `row` at lattice j, or -1. */
static int surface_at(const tn_surf *g, int row, int j)
{
    return tn_surf_node_surface(g, tn_surf_node_at(g, row, j));
}

/* Frames a body walks off a ledge's end before an edge (pre_of) at most:
 * one from the lattice, two from a sliver of the end tile. */
#define PRE_MAX 2

/* Frames realign's replays (take_off_lands) may run in all, a check (once
 * a leg, twice after a push before take-off; one replay may end past it):
 * a replay runs its edge, then falls until it stands (up to
 * TN_SURF_MAX_AIR x 2 frames), and 66 edges are tried, four replays each. */
#define REALIGN_FRAMES 16384

/* A replay of edge e that ran fr frames (-1: it did not stand, -2: the
 * walk off a ledge did not leave the ground, replay_pre) paid from the
 * bot's realign budget (REALIGN_FRAMES). */
static void align_pay(tn_bot *b, int e, int fr)
{
    b->align_frames -= fr >= 0    ? fr
                       : fr == -2 ? PRE_MAX
                                  : (long)tn_surf_edges(b->graph)[e].frames + TN_SURF_MAX_AIR;
}

/* The frame after which edge e, replayed from its own take-off, leaves
 * the ground (1: every edge leaves it at once), -1 when it does not replay
 * (a body `like` of its size and speed standing there) or realign's frames
 * are spent. */
static int edge_off_frame(tn_bot *b, const tn_map *m, const tn_body *like, int e)
{
    const tn_surf *g = b->graph;
    int row, j, off;
    if (b->align_frames <= 0) return -1;
    tn_surf_node_pos(g, tn_surf_edges(g)[e].from, &row, &j);
    tn_body c = *like;
    c.x = tn_surf_lattice_x(g, j);
    c.jump_held = false;
    const int fr = tn_surf_edge_replay_body(g, m, e, &c, &off);
    align_pay(b, e, fr);
    return fr < 0 ? -1 : off;
}

/* The direction (-1 / +1) edge e's first input walks, 0 none. */
static int first_dir(const tn_surf *g, int e)
{
    tn_input in;
    int cnt;
    tn_surf_run(g, tn_surf_edges(g)[e].run0, &in, &cnt);
    return in.left ? -1 : in.right ? 1 : 0;
}

/* A take-off `at` of row `row` at the end of its surface toward edge e's
 * first input (a step that way leaves it): the direction, else 0.  From
 * there a body off the lattice may stand on a sliver of the ledge where
 * the edge's first frame left it (a jump from the sliver can meet a low
 * ceiling the lattice take-off had left behind); one or two frames of
 * walking off first (pre, replay_pre) put it in the air, and the edge's
 * inputs follow. */
static int pre_of(const tn_surf *g, int row, int at, int e)
{
    if (tn_surf_edges(g)[e].nruns + 1 > TN_BOT_RUNS_MAX) return 0; /* (no room for the walk) */
    const int d = first_dir(g, e);
    return d != 0 && tn_surf_node_at(g, row, at + d) < 0 ? d : 0;
}

/* Body c (where the bot would start edge e; jump released first): walked
 * toward pre (0: not) with the graph's physics until it is in the air (at
 * most PRE_MAX frames: their count in *npre), then edge e's replay
 * (tn_surf_edge_replay_body): its frames, or -1 when it does not stand
 * after it, -2 when the walk did not leave the ground; *off the frame
 * after which it left it. */
static int replay_pre(const tn_surf *g, const tn_map *m, tn_body *c, int pre, int e, int *off,
                      int *npre)
{
    c->jump_held = false;
    *npre = 0;
    if (pre == 0) return tn_surf_edge_replay_body(g, m, e, c, off);
    while (*npre < PRE_MAX && c->on_ground) {
        tn_surf_step_body(g, m, c, walk_toward(pre));
        ++*npre;
    }
    *off = *npre;
    if (c->on_ground) return -2;
    const int fr = tn_surf_edge_replay_body(g, m, e, c, NULL);
    return fr < 0 ? -1 : fr + *npre;
}

/* Edge e replayed from the body at x + dx, jump released first (as the
 * bot does before a jump), walked off first toward pre (0: not; pre_of,
 * replay_pre): true when it leaves the ground when the edge does (off0,
 * edge_off_frame; give or take a frame: not after standing on a sliver of
 * a ledge; with pre, in the walk's frames) and ends on the edge's landing
 * surface.  False too once realign's frames are spent. */
static bool lands_from(tn_bot *b, const tn_map *m, const tn_body *body, float dx, int e, int off0,
                       int pre)
{
    const tn_surf *g = b->graph;
    int off1, npre;
    tn_body c = *body;
    c.x += dx;
    if (off0 < 0 || b->align_frames <= 0) return false;
    const int fr = replay_pre(g, m, &c, pre, e, &off1, &npre);
    align_pay(b, e, fr);
    if (fr < 0 || off1 < 0 || (pre == 0 && abs(off1 - off0) > 1)) return false;
    const float T = b->phys.tile_px;
    const int at =
        surface_at(g, (int)lroundf((c.y + (float)c.h * T) / T), tn_surf_lattice_j(g, c.x));
    if (at < 0 || at != tn_surf_node_surface(g, tn_surf_edges(g)[e].to)) return false;
    b->pre_n = npre; /* (for the leg, when it takes this) */
    return true;
}

/* The first of graph g's edges whose take-off node is n or after (the
 * edges are in take-off node order, tn_surf.h). */
static int first_edge_from(const tn_surf *g, int n)
{
    const tn_surf_edge *E = tn_surf_edges(g);
    int lo = 0, hi = tn_surf_edge_count(g);
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (E[mid].from < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Edges realign tries besides the leg's own (each one or two replays). */
#define REALIGN_TRIES 64
/* Edges a detour tries (each one or two replays), and the surfaces it asks
 * the graph about (each one query, stats only). */
#define DETOUR_TRIES 256
#define DETOUR_PLANS 8
/* Detours in a row onto surfaces with no wall, for one goal (each lands
 * off the lattice again, where realign tries that surface's take-offs). */
#define DETOUR_CHAIN 4
/* Frames a detour's replays may run in all (a replay runs an edge's
 * frames, then falls until it stands: up to TN_SURF_MAX_AIR x 2; on a
 * tall level 256 edges replayed 600,000 frames in one step).  The most of
 * any detour of tilenav-bench arrival --push was 9,068. */
#define DETOUR_FRAMES 16384

/* Lattice step of graph g (px). */
static float lattice_step(const tn_surf *g)
{
    return tn_surf_lattice_x(g, 1) - tn_surf_lattice_x(g, 0);
}

/* The direction (-1 / +1) of the nearer wall surface S ends at for a body
 * like `body` standing at lattice j on it (a step past the end node is
 * blocked: walking into it stops the body on a tile edge, on the
 * lattice); 0 when neither end is a wall (drops). */
static int wall_dir(const tn_bot *b, const tn_map *m, const tn_body *body, const tn_surf_surface *S,
                    int j)
{
    const tn_surf *g = b->graph;
    const float s = lattice_step(g);
    int best_end = INT_MAX, best = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        const int end = dir < 0 ? S->j0 : S->j1;
        const float wx = tn_surf_lattice_x(g, end) + (float)dir * s; /* a step past it */
        if (abs(end - j) < best_end &&
            tn_body_box_blocked(m, &b->phys, wx, body->y, body->w, body->h))
            best = dir, best_end = abs(end - j);
    }
    return best;
}

/* Whether the graph has a whole plan from `node` to the bot's goal, or
 * for a partial plan (an unreachable goal: PARTIAL) to the place where it
 * ends, the goal's closest (a query for its stats only: no legs; on the
 * bot's query object when it has one). */
static bool goal_reachable(tn_bot *b, int node)
{
    int gx = b->goal_x, gy = b->goal_y;
    if (b->gpartial && b->nlegs > 0) { /* (the last leg's node: its box's bottom-left tile) */
        int row, j;
        tn_surf_node_pos(b->graph, b->legs[b->nlegs - 1].node, &row, &j);
        gx = (int)floorf(tn_surf_lattice_x(b->graph, j) / b->phys.tile_px + 1e-3f);
        gy = row - 1;
    }
    tn_status s = b->query ? tn_surf_query_find(b->query, node, gx, gy, NULL, 0, NULL, NULL, NULL)
                           : tn_surf_find(b->graph, node, gx, gy, NULL, 0, NULL, NULL, NULL);
    return s == TN_OK;
}

/* A detour's choice: edge e from take-off `at` (pre: walked off first),
 * landing on node n2 of surface s2. */
typedef struct detour_pick {
    int e, at, pre, npre, n2, s2;
} detour_pick;

/* Make pick p the leg's edge and take-off (the detour). */
static void detour_take(tn_bot *b, int row, const detour_pick *p)
{
    tn_surf_leg *L = &b->legs[b->leg];
    L->edge = p->e;
    L->walk_to_j = p->at;
    L->node = tn_surf_node_at(b->graph, row, p->at);
    b->pre_leg = p->pre != 0 ? b->leg : -1;
    b->pre_dir = p->pre;
    b->pre_n = p->npre;
    b->detour = true;
}

/* No take-off of the body's surface S (on row `row`, the body at lattice
 * j, off the lattice by less than a step toward -side) lands on the leg's
 * landing surface, and S ends at no wall.  The edges of S to any surface,
 * take-offs nearest first (at most DETOUR_TRIES, from both places by each
 * take-off and, at an end of S, walked off it first (pre_of), replayed
 * from the body as it stands; it may stand a while on a sliver of a ledge
 * before it leaves the ground, which the stuck count lets it do), for the
 * first that ends on the lattice (a wall met in the air) or on a surface
 * that ends at a wall, from which the graph has a whole plan to the goal
 * (asked for at most DETOUR_PLANS surfaces, each once): it becomes the
 * leg's edge and take-off, and the bot, landed, walks into that wall and
 * plans again (b->detour).  When none does, the first edges that end on
 * another surface with no wall (off the lattice still, but where other
 * take-offs may land: realign again there), at most DETOUR_PLANS of them,
 * and at most DETOUR_CHAIN such detours in a row for a goal.  False when
 * none does. */
static bool detour(tn_bot *b, const tn_map *m, const tn_body *body, int row, int j,
                   const tn_surf_surface *S, int side)
{
    const tn_surf *g = b->graph;
    const tn_surf_edge *E = tn_surf_edges(g);
    const float s = lattice_step(g), T = b->phys.tile_px;
    const int ne = tn_surf_edge_count(g),
              here = tn_surf_node_surface(g, tn_surf_node_at(g, row, j));
    int tries = 0, plans = 0, asked[DETOUR_PLANS]; /* (the surfaces asked about: no way) */
    detour_pick other[DETOUR_PLANS];               /* onto surfaces with no wall */
    int nother = 0;
    long frames = 0;
    bool full = false; /* out of frames or questions */
    for (int k = 1; k <= 2 * (S->j1 - S->j0) + 1 && tries < DETOUR_TRIES && !full; k++) {
        const int jf = j + (k % 2 ? -(k / 2) : k / 2);
        if (jf < S->j0 || jf > S->j1) continue;
        const int from = S->node0 + (jf - S->j0);
        for (int e = first_edge_from(g, from); e < ne && E[e].from == from && !full; e++) {
            if (++tries > DETOUR_TRIES) break;
            for (int q = 0; q < 3 && !full; q++) { /* at jf, a step aside, walked off first */
                const int at = jf + (q == 1 ? side : 0), pre = q == 2 ? pre_of(g, row, jf, e) : 0;
                if (tn_surf_node_at(g, row, at) < 0 || (q == 2 && pre == 0)) continue;
                if (frames >= DETOUR_FRAMES) {
                    full = true;
                    break;
                }
                tn_body c = *body;
                c.x += (float)(at - j) * s;
                int off, npre;
                const int fr = replay_pre(g, m, &c, pre, e, &off, &npre);
                frames += fr >= 0 ? fr : fr == -2 ? PRE_MAX : (long)E[e].frames + TN_SURF_MAX_AIR;
                if (fr < 0 || off < 0) continue;
                const int r2 = (int)lroundf((c.y + (float)c.h * T) / T);
                const int j2 = tn_surf_lattice_j(g, c.x), n2 = tn_surf_node_at(g, r2, j2);
                const int s2 = tn_surf_node_surface(g, n2);
                if (s2 < 0) continue;
                const detour_pick p = {e, at, pre, npre, n2, s2};
                const bool on = fabsf(c.x - tn_surf_lattice_x(g, j2)) < s * 1e-3f;
                if (!on && (s2 == here || !wall_dir(b, m, &c, &tn_surf_surfaces(g)[s2], j2))) {
                    int a = 0;
                    while (a < nother && other[a].s2 != s2) a++;
                    if (s2 != here && a == nother && nother < DETOUR_PLANS) other[nother++] = p;
                    continue;
                }
                int a = 0;
                while (a < plans && asked[a] != s2) a++;
                if (a < plans) continue;
                if (plans >= DETOUR_PLANS) {
                    full = true;
                    break;
                }
                asked[plans++] = s2;
                if (!goal_reachable(b, n2)) continue;
                detour_take(b, row, &p);
                return true;
            }
        }
    }
    if (b->detour_chain >= DETOUR_CHAIN) return false;
    for (int a = 0; a < nother; a++) {
        int k = 0;
        while (k < plans && asked[k] != other[a].s2) k++;
        if (k < plans || !goal_reachable(b, other[a].n2)) continue;
        detour_take(b, row, &other[a]);
        b->detour_chain++;
        return true;
    }
    return false;
}

/* Surfaces a join_wall crosses, each way. */
#define JOIN_MAX 8

/* A body off the lattice (by d = body->x - lattice x of j, row `row`) on
 * surface S, which ends at no wall (wall_dir).  An end of S a step short
 * of another surface of the same row (one lattice node missing between
 * them: a gap exactly the box's width, through which a box on the lattice
 * falls) does not stop it: off the lattice the box stands on one side or
 * the other of that gap at every x, and walks across (the graph's physics
 * says so: three steps across, each on the ground at the same height, no
 * wall met).  Past at most JOIN_MAX such joins, the first end each way
 * that is a wall (a step past it is blocked) stops the walk on the
 * lattice there; the nearer of the two from whose node the graph has a
 * plan to the goal (goal_reachable: at most two queries): its direction,
 * 0 when none. */
static int join_wall(tn_bot *b, const tn_map *m, const tn_body *body, int row, int j,
                     const tn_surf_surface *S)
{
    const tn_surf *g = b->graph;
    const float s = lattice_step(g), d = body->x - tn_surf_lattice_x(g, j);
    int dist[2] = {INT_MAX, INT_MAX}, node[2] = {-1, -1};
    for (int dir = -1; dir <= 1; dir += 2) {
        const tn_surf_surface *C = S;
        for (int k = 0; k <= JOIN_MAX; k++) {
            const int end = dir < 0 ? C->j0 : C->j1;
            if (k > 0 &&
                tn_body_box_blocked(m, &b->phys, tn_surf_lattice_x(g, end) + (float)dir * s,
                                    body->y, body->w, body->h)) {
                dist[dir > 0] = abs(end - j);
                node[dir > 0] = tn_surf_node_at(g, row, end);
                break;
            }
            const int n2 = tn_surf_node_at(g, row, end + 2 * dir);
            if (k == JOIN_MAX || tn_surf_node_at(g, row, end + dir) >= 0 || n2 < 0) break;
            tn_body c = *body;
            c.x = tn_surf_lattice_x(g, end) + d;
            c.jump_held = false;
            int f = 0;
            for (; f < 3; f++) {
                tn_surf_step_body(g, m, &c, walk_toward(dir));
                if (!c.on_ground || c.y != body->y || c.hit_wall) break;
            }
            if (f < 3) break;
            C = &tn_surf_surfaces(g)[tn_surf_node_surface(g, n2)];
        }
    }
    for (int a = 0; a < 2; a++) {
        const int k = dist[0] <= dist[1] ? a : 1 - a; /* (the nearer first) */
        if (node[k] >= 0 && goal_reachable(b, node[k])) return k ? 1 : -1;
    }
    return 0;
}

/* realign's take-offs (the body at lattice j of row `row`, off it by less
 * than a step toward -side): 1 when one lands (the leg changed), 0 when
 * the leg's own does or there is nothing to try, -1 when none lands. */
static int take_off_lands(tn_bot *b, const tn_map *m, const tn_body *body, int row, int j, int side)
{
    const tn_surf *g = b->graph;
    tn_surf_leg *L = &b->legs[b->leg];
    const float s = tn_surf_lattice_x(g, 1) - tn_surf_lattice_x(g, 0);
    b->align_frames = REALIGN_FRAMES;
    const int off0 = edge_off_frame(b, m, body, L->edge);
    if (lands_from(b, m, body, 0.0f, L->edge, off0, 0)) return 0;
    if (tn_surf_node_at(g, row, j + side) >= 0 &&
        lands_from(b, m, body, (float)side * s, L->edge, off0, 0)) {
        L->walk_to_j = j + side;
        L->node = tn_surf_node_at(g, row, j + side);
        return 1;
    }
    const int pre0 = pre_of(g, row, j, L->edge);
    if (pre0 != 0 && lands_from(b, m, body, 0.0f, L->edge, off0, pre0)) {
        b->pre_leg = b->leg, b->pre_dir = pre0;
        return 1;
    }
    const tn_surf_edge *E = tn_surf_edges(g);
    const int here = tn_surf_node_at(g, row, j), ne = tn_surf_edge_count(g);
    const int to_surf = tn_surf_node_surface(g, E[L->edge].to);
    if (here < 0 || to_surf < 0) return 0;
    const tn_surf_surface *S = &tn_surf_surfaces(g)[tn_surf_node_surface(g, here)];
    int tries = 0;
    /* take-off nodes outward from j: j, j-1, j+1, j-2, ... */
    for (int k = 1; k <= 2 * (S->j1 - S->j0) + 1 && tries < REALIGN_TRIES; k++) {
        const int jf = j + (k % 2 ? -(k / 2) : k / 2);
        if (jf < S->j0 || jf > S->j1) continue;
        const int from = S->node0 + (jf - S->j0);
        for (int e = first_edge_from(g, from); e < ne && E[e].from == from; e++) {
            if (e == L->edge || tn_surf_node_surface(g, E[e].to) != to_surf) continue;
            if (++tries > REALIGN_TRIES) break;
            const int o = edge_off_frame(b, m, body, e);
            for (int q = 0; q < 3; q++) { /* at jf, a step aside, at jf walked off first */
                const int at = jf + (q == 1 ? side : 0), pre = q == 2 ? pre_of(g, row, jf, e) : 0;
                if (tn_surf_node_at(g, row, at) < 0 || (q == 2 && pre == 0) ||
                    !lands_from(b, m, body, (float)(at - j) * s, e, o, pre))
                    continue;
                L->edge = e;
                L->walk_to_j = at;
                L->node = tn_surf_node_at(g, row, at);
                if (pre != 0) b->pre_leg = b->leg, b->pre_dir = pre;
                return 1;
            }
        }
    }
    return -1;
}

/* A body on the take-off's node j of row `row`, but off the lattice (moved
 * by something other than its inputs: a push) keeps the offset while it
 * walks, so an edge's inputs replay shifted, and may land elsewhere.  Once
 * a leg, the leg's edge is replayed (tn_surf_edge_replay_body) from where
 * the body stands; if it does not end on the landing's surface, from the
 * nearest place on the other side of the take-off; then the other edges of
 * the same surface onto the landing's surface, take-offs nearest first, at
 * most REALIGN_TRIES of them, from both places by each take-off.  The first
 * that ends there becomes the leg's edge and take-off (true: the leg
 * changed).  None: the walls stop a body on a tile edge, on the lattice,
 * so it walks into the nearer wall its surface ends at (align_dir) and
 * plans again there; with no wall, an edge to a surface with one (detour,
 * true: the leg changed); with neither the leg is replayed as it is (its
 * landing re-plans), and a second such leg on the same edge in a row
 * leaves the bot STUCK.  The detour asks the graph: not in a step in
 * which the bot searched already (a plan, or a slice of one: the graph's
 * expanded list is the plan's after the step, one search a step), nor
 * while plans are held (tn_bot_hold_plans: no search; it says it is held):
 * it then waits (detour_wait, true: the bot stands) and is made at the
 * first step that may search. */
static bool realign(tn_bot *b, const tn_map *m, const tn_body *body, int row, int j)
{
    const tn_surf *g = b->graph;
    const float s = tn_surf_lattice_x(g, 1) - tn_surf_lattice_x(g, 0);
    const float d = body->x - tn_surf_lattice_x(g, j);
    const int side = d > 0 ? -1 : 1; /* the other side of a take-off */
    const int here = tn_surf_node_at(g, row, j);
    if (fabsf(d) < s * 1e-3f || here < 0) {            /* (a waiting detour: moved meanwhile) */
        if (fabsf(d) < s * 1e-3f) b->detour_chain = 0; /* (on the lattice again) */
        b->detour_wait = false;
        return false;
    }
    const tn_surf_surface *S = &tn_surf_surfaces(g)[tn_surf_node_surface(g, here)];
    if (!b->detour_wait) {
        if (b->aligned_leg == b->leg) return false;
        b->aligned_leg = b->leg;
        const int r = take_off_lands(b, m, body, row, j, side);
        if (r >= 0) return r > 0;
        b->align_dir = wall_dir(b, m, body, S, j);
        if (b->align_dir != 0) return false;
    }
    if (b->hold || b->searched_step == b->steps) { /* (the detour's searches wait) */
        b->detour_wait = true;
        if (b->hold) b->held = true;
        b->still = 0;
        b->since_node = 0;
        return true;
    }
    b->detour_wait = false;
    if (detour(b, m, body, row, j, S, side)) return true;
    /* no detour: a wall past a gap the box bridges (join_wall) */
    b->align_dir = join_wall(b, m, body, row, j, S);
    if (b->align_dir != 0) return false;
    /* no way to a wall: replayed as it is; twice in a row, given up */
    tn_surf_leg *L = &b->legs[b->leg];
    const uint32_t gen = tn_surf_generation(g);
    if (b->no_landing == L->edge && b->no_landing_gen == gen) {
        b->state = TN_BOT_STUCK;
        b->nlegs = b->n = b->leg = b->cur = 0;
    }
    b->no_landing = L->edge, b->no_landing_gen = gen;
    return false;
}

/* Steering after a push in the air: the first STEER_MAX frames of the rest
 * of the flight it may change, and the frames its replays may run in all
 * (each one runs the rest of the edge's inputs, then falls until it
 * stands: up to TN_SURF_MAX_AIR x 2). */
#define STEER_MAX 24
#define STEER_FRAMES 16384

/* The body `body` flown by the rest of the edge's inputs rest[0..n) (input
 * bits, as runs hold them), the first k frames walking toward dir instead
 * of their left and right (0: neither), then none until it stands: true
 * when it stands on surface `target`.  Its frames added to *frames. */
static bool flies_to(const tn_bot *b, const tn_map *m, const tn_body *body, const uint8_t *rest,
                     int n, int k, int dir, int target, long *frames)
{
    const tn_surf *g = b->graph;
    const float T = b->phys.tile_px;
    tn_body c = *body;
    int i = 0;
    for (; i < n + TN_SURF_MAX_AIR && (i < n || !c.on_ground); i++) {
        const int v = i < n ? rest[i] : 0;
        tn_input in = {(v & TN_SURF_IN_LEFT) != 0, (v & TN_SURF_IN_RIGHT) != 0,
                       (v & TN_SURF_IN_DOWN) != 0, (v & TN_SURF_IN_JUMP) != 0};
        if (i < k) { /* (steered) */
            in.left = dir < 0;
            in.right = dir > 0;
        }
        tn_surf_step_body(g, m, &c, in);
    }
    *frames += i;
    if (!c.on_ground) return false;
    return surface_at(g, (int)lroundf((c.y + (float)c.h * T) / T), tn_surf_lattice_j(g, c.x)) ==
           target;
}

/* Landings steer_elsewhere asks the graph about (each one query, stats
 * only). */
#define STEER_PLANS 8

/* The node where the body, flown as flies_to flies it (the first k frames
 * walking toward dir), first stands, as a lost flight ends (before the
 * inputs end if it meets ground early): start_node there, or -1.  Its
 * frames added to *frames. */
static int lost_landing(const tn_bot *b, const tn_map *m, const tn_body *body, const uint8_t *rest,
                        int n, int k, int dir, long *frames)
{
    tn_body c = *body;
    int i = 0;
    for (; i < n + TN_SURF_MAX_AIR && (i == 0 || !c.on_ground); i++) {
        const int v = i < n ? rest[i] : 0;
        tn_input in = {(v & TN_SURF_IN_LEFT) != 0, (v & TN_SURF_IN_RIGHT) != 0,
                       (v & TN_SURF_IN_DOWN) != 0, (v & TN_SURF_IN_JUMP) != 0};
        if (i < k) {
            in.left = dir < 0;
            in.right = dir > 0;
        }
        tn_surf_step_body(b->graph, m, &c, in);
    }
    *frames += i;
    return c.on_ground ? start_node(b, &c) : -1;
}

/* No steering lands on the edge's landing surface (lost).  When the graph
 * has no whole plan to the goal from where the flight, unsteered, first
 * stands (a pit, say), the first steering (the order steer tries them)
 * whose first landing has one takes the place of those frames' left and
 * right; the landing plans again as a lost flight's does.  At most
 * STEER_PLANS surfaces asked (goal_reachable, each once) and STEER_FRAMES
 * frames of replays; not in a step that searched already, nor while plans
 * are held or a sliced plan is under way (no question: lost as it is). */
static void steer_elsewhere(tn_bot *b, const tn_map *m, const tn_body *body, const uint8_t *rest,
                            int n, const int dirs[3])
{
    if (b->hold || b->planning || b->searched_step == b->steps) return;
    const tn_surf *g = b->graph;
    int asked[STEER_PLANS], nasked = 0;
    long frames = 0;
    for (int k = 0; k <= STEER_MAX && frames < STEER_FRAMES; k++)
        for (int d = 0; d < (k ? 3 : 1) && frames < STEER_FRAMES; d++) {
            const long f0 = frames;
            const int node = lost_landing(b, m, body, rest, n, k, dirs[d], &frames);
            const int s = tn_surf_node_surface(g, node);
            if (s < 0) continue;
            int a = 0;
            while (a < nasked && asked[a] != s) a++;
            if (a < nasked) continue;
            if (nasked == STEER_PLANS) return;
            asked[nasked++] = s;
            if (!goal_reachable(b, node)) continue;
            if (k > 0) {
                b->steer_dir = dirs[d];
                b->steer_left = frames - f0 < k ? (int)(frames - f0) : k;
            }
            return;
        }
}

/* The body was pushed in the air during an edge (it is not where the
 * edge's inputs put it: the shadow).  When the rest of the inputs no longer
 * land on the edge's landing surface, the first steering that does (the
 * first 1..STEER_MAX frames walking against the push, then with no key,
 * then with it, the fewest frames first; at most STEER_FRAMES frames of
 * replays) takes the place of those frames' left and right (steer_dir,
 * steer_left).  None (lost): the flight goes on as it is, and its first
 * landing plans again, before the inputs end if it meets ground early
 * (level 432 of tilenav-bench arrival, pushed in the frame of a jump,
 * landed on a sliver of a block the edge passes, walked the rest of its
 * inputs off it and fell where the goal cannot be reached). */
static void steer(tn_bot *b, const tn_map *m, const tn_body *body)
{
    const tn_surf *g = b->graph;
    uint8_t rest[TN_SURF_MAX_AIR + PRE_MAX + 1];
    int n = 0;
    if (b->gphase == GP_REPLAY) { /* (the rest of the runs from where replay_next is) */
        for (int c = 0; c < b->run_left && b->run_i > 0 && n < (int)sizeof rest; c++)
            rest[n++] = (uint8_t)(b->runs[b->run_i - 1] & 15);
        for (int r = b->run_i; r < b->nruns; r++)
            for (int c = (b->runs[r] >> 4) + 1; c > 0 && n < (int)sizeof rest; c--)
                rest[n++] = (uint8_t)(b->runs[r] & 15);
    }
    const int target = surface_at(g, b->expect_row, b->expect_j);
    long frames = 0;
    if (target < 0 || flies_to(b, m, body, rest, n, 0, 0, target, &frames)) return;
    const int away = body->x > b->shadow.x ? -1 : 1; /* against the push */
    const int dirs[3] = {away, 0, -away};
    for (int k = 1; k <= STEER_MAX && frames < STEER_FRAMES; k++)
        for (int d = 0; d < 3 && frames < STEER_FRAMES; d++) {
            const long f0 = frames;
            if (flies_to(b, m, body, rest, n, k, dirs[d], target, &frames)) {
                b->steer_dir = dirs[d];
                /* (no more than the flight's frames: tn_bot_coast, which
                 * cannot see the body land, steers the fall as long) */
                b->steer_left = frames - f0 < k ? (int)(frames - f0) : k;
                return;
            }
        }
    b->lost = true;
    steer_elsewhere(b, m, body, rest, n, dirs);
}

tn_input tn_bot_coast(tn_bot *b)
{
    tn_input in = {false, false, false, false};
    if (!b) return in;
    if (b->graph && (b->state == TN_BOT_MOVING || b->state == TN_BOT_PARTIAL) &&
        !replay_next(b, &in) && b->gphase == GP_LANDING && b->steer_left > 0) {
        /* (replay_next writes in only when there is an input; after the
         * inputs, the steering's frames of the fall, as gstep gives them) */
        b->steer_left--;
        in = walk_toward(b->steer_dir);
    }
    b->last_in = in;
    b->shadow_ok = false; /* (a step without the map: the shadow cannot follow) */
    return in;
}

static tn_input gstep(tn_bot *b, const tn_map *m, const tn_body *body)
{
    tn_input none = {false, false, false, false};
    tn_surf *g = b->graph;
    b->steps++;
    if (b->state != TN_BOT_MOVING && b->state != TN_BOT_PARTIAL) return none;
    if (!b->want_plan && !b->planning && b->leg >= b->nlegs) return none;
    /* stuck: no movement for stuck_steps steps re-plans; repeated -> STUCK
     * (standing while a plan is made in slices is no sign of it, nor
     * standing on a sliver of a ledge during a detour's edge, realign) */
    const float T = b->phys.tile_px;
    if (b->planning || (b->detour && b->gphase == GP_REPLAY)) {
        b->still = 0;
    } else if (fabsf(body->x - b->last_x) < STUCK_MOVE(T) &&
               fabsf(body->y - b->last_y) < STUCK_MOVE(T)) {
        if (++b->still > b->cfg.stuck_steps) {
            b->still = 0;
            if (++b->stuck_replans > STUCK_REPLANS) {
                b->state = TN_BOT_STUCK;
                b->nlegs = b->n = b->leg = b->cur = 0;
                return none;
            }
            b->want_plan = true;
            b->why = "stuck";
            b->gphase = GP_WALK;
        }
    } else {
        b->still = 0;
    }
    b->last_x = body->x;
    b->last_y = body->y;
    /* the map or graph changed under a bot in the air: it flies the edge it
     * copied to its end and plans on landing, for that reason (it said
     * "left the path" on landing, and its old legs were reported meanwhile) */
    const bool on_ground = grounded(b, m, body);
    if (!on_ground && !b->want_plan && b->nlegs > 0 &&
        (tn_surf_generation(g) != b->graph_gen || m != b->plan_map || m->revision != b->plan_rev)) {
        const char *r = profile_reason(b, tn_surf_get_profile(g));
        b->why = m != b->plan_map || m->revision != b->plan_rev ? "map edited"
                 : r                                            ? r
                                                                : "graph rebuilt";
        b->want_plan = true;
        b->nlegs = b->leg = b->n = b->cur = 0;
    }
    if ((b->gphase == GP_REPLAY || b->gphase == GP_LANDING) && b->shadow_ok) {
        /* the shadow follows the bot's last input; a body not where it is
         * was pushed (the same physics, so bit for bit otherwise) */
        tn_surf_step_body(g, m, &b->shadow, b->last_in);
        const float e = lattice_step(g) * 0.02f;
        if (!on_ground && !b->want_plan && b->nlegs > 0 && b->steered_leg != b->leg &&
            (fabsf(b->shadow.x - body->x) > e || fabsf(b->shadow.y - body->y) > e ||
             fabsf(b->shadow.vy - body->vy) > e)) {
            b->steered_leg = b->leg;
            b->shadow_ok = false;
            steer(b, m, body);
        }
    }
    if (b->gphase == GP_REPLAY && b->replay_ground) {
        /* pushed before the edge left the ground: its inputs would fly
         * from elsewhere; back to its take-off, checked again (realign).
         * (A walk off the lattice keeps its offset up to float sums:
         * under 0.004 px a step at 2,048 tiles; a fiftieth of a step is
         * no push to miss.  Once a leg: a body pushed every frame, on a
         * conveyor say, would walk back and forth for ever.) */
        const float s = lattice_step(g);
        float dd = body->x - tn_surf_lattice_x(g, tn_surf_lattice_j(g, body->x)) - b->replay_d;
        dd -= s * roundf(dd / s); /* (modulo a step: half a step off rounds either way) */
        b->replay_ground = on_ground;
        if (on_ground && fabsf(dd) > s * 0.02f && b->stopped_leg != b->leg) {
            b->stopped_leg = b->leg;
            b->gphase = GP_WALK;
            b->aligned_leg = -1;
            b->pre_leg = -1;
            b->replay_ground = false;
        }
    }
    if (b->gphase == GP_REPLAY && b->lost && on_ground) { /* (landed early: steer) */
        b->gphase = GP_LANDING;
        b->run_i = b->nruns;
        b->run_left = 0;
    }
    tn_input in;
    if (replay_next(b, &in)) return in;
    if (!on_ground && b->gphase == GP_LANDING && b->steer_left > 0) { /* (steer) */
        b->steer_left--;
        return walk_toward(b->steer_dir);
    }
    if (!on_ground) {
        /* falling where the plan did not say (an edit, a push): plan on
         * landing; still in the air after an edge's inputs (a body off the
         * lattice can land a frame or two late): the landing decides */
        if (b->planning) b->planning = false, b->why = NULL;
        if (b->gphase == GP_WALK) {
            if (!b->want_plan) b->why = "left the path";
            b->want_plan = true;
        }
        return none;
    }
    int row = (int)lroundf((body->y + (float)body->h * T) / T);
    /* (a body half a step off the lattice rounds up, whatever its float
     * noise: as it walks, its lattice j moves a step a step, and so the
     * take-off it walks to is the one realign and detour replayed from) */
    int j = tn_surf_lattice_j(g, body->x + lattice_step(g) * 0.01f);
    bool stale =
        tn_surf_generation(g) != b->graph_gen || m != b->plan_map || m->revision != b->plan_rev;
    if (b->gphase == GP_LANDING && b->detour) {
        /* landed from a detour (realign): into the wall here, then a plan
         * from the lattice; the replay said where, but if it did not
         * (no wall here after all), a plan from where it landed */
        b->gphase = GP_WALK;
        b->detour = false;
        if (!stale && !b->want_plan) { /* (not when a new goal or an edit plans anyway) */
            const int at = surface_at(g, row, j);
            const bool on = fabsf(body->x - tn_surf_lattice_x(g, j)) < lattice_step(g) * 1e-3f;
            b->align_dir = at >= 0 && !on ? wall_dir(b, m, body, &tn_surf_surfaces(g)[at], j) : 0;
            if (b->align_dir == 0) {
                b->want_plan = true;
                b->why = on ? "back on the lattice" : "landed off the path";
            }
        }
    }
    if (b->gphase == GP_LANDING) {
        b->gphase = GP_WALK;
        /* (on its surface: a body off the lattice lands a step off, or
         * early or late; the next leg walks from there) */
        const int at = surface_at(g, row, j);
        if (at >= 0 && at == surface_at(g, b->expect_row, b->expect_j) && !stale) {
            b->leg++;
            b->cur = b->leg;
            b->stuck_replans = 0;
            b->no_landing = -1;
        } else if (!stale) {
            b->want_plan = true;
            b->why = "landed off the path";
        }
    }
    if (b->align_dir != 0 && !b->want_plan && !stale) { /* walking into a wall (realign) */
        const float d = body->x - tn_surf_lattice_x(g, j);
        const float s = tn_surf_lattice_x(g, 1) - tn_surf_lattice_x(g, 0);
        if (fabsf(d) >= s * 1e-3f && !body->hit_wall) return walk_toward(b->align_dir);
        b->align_dir = 0;
        b->want_plan = true;
        b->why = "back on the lattice";
    }
    if (stale && !b->want_plan) { /* the plan's graph or map changed under it */
        const char *r = profile_reason(b, tn_surf_get_profile(g));
        b->why = m != b->plan_map || m->revision != b->plan_rev ? "map edited"
                 : r                                            ? r
                                                                : "graph rebuilt";
    }
    if (b->want_plan || stale) {
        if (hold_plan(b)) return none;
        gplan(b, m, body);
        if (b->state != TN_BOT_MOVING && b->state != TN_BOT_PARTIAL) return none;
    } else if (b->planning && b->hold) { /* a sliced plan waits its turn too */
        b->held = true;
        return none;
    }
    if (b->planning && gslice(b)) return none;
    if (b->state != TN_BOT_MOVING && b->state != TN_BOT_PARTIAL) return none;
    if (b->leg >= b->nlegs) return none;
    const tn_surf_leg *L = &b->legs[b->leg];
    /* still on the leg's surface? */
    int lrow, lj;
    tn_surf_node_pos(g, L->node, &lrow, &lj);
    if (lrow != row) {
        b->want_plan = true;
        b->why = "left the path";
        return none;
    }
    if (j < L->walk_to_j) return (tn_input){false, true, false, false};
    if (j > L->walk_to_j) return (tn_input){true, false, false, false};
    if (L->edge < 0) {
        /* a body off the lattice (pushed) can stand a step short of the
         * goal tile, or past it: one more step onto it, or into the wall
         * there (which stops it on the tile's edge) */
        const float x0 = (float)b->goal_x * T;
        const float s = tn_surf_lattice_x(g, 1) - tn_surf_lattice_x(g, 0);
        const int dir = body->x < x0 - 1e-3f ? 1 : body->x >= x0 + T ? -1 : 0;
        if (b->state == TN_BOT_MOVING && b->leg == b->nlegs - 1 && dir != 0) {
            if (surface_at(g, row, j + dir) == surface_at(g, row, j)) {
                b->legs[b->leg].walk_to_j = j + dir;
                return walk_toward(dir);
            }
            /* (into the wall: it stops the body on the tile's edge, at j) */
            if (tn_body_box_blocked(m, &b->phys, body->x + (float)dir * s, body->y, body->w,
                                    body->h))
                return walk_toward(dir);
        }
        gfinish(b);
        return none;
    }
    /* a body off the lattice (pushed): the take-off its edge, or another
     * onto the same surface, lands from (realign) */
    if (realign(b, m, body, row, j)) {
        if (b->detour_wait) return none; /* (a detour waits for a step that may search) */
        if (L->walk_to_j != j) return walk_toward(L->walk_to_j - j);
    }
    if (b->state != TN_BOT_MOVING && b->state != TN_BOT_PARTIAL) return none; /* (given up) */
    if (b->align_dir != 0) return walk_toward(b->align_dir);
    /* at the take-off: copy the edge and replay it */
    const tn_surf_edge *E = &tn_surf_edges(g)[L->edge];
    const int pre = b->pre_leg == b->leg ? b->pre_dir : 0; /* (off a sliver first: realign) */
    if (E->nruns + (pre != 0) > TN_BOT_RUNS_MAX) {
        b->state = TN_BOT_NO_PATH;
        return none;
    }
    b->nruns = E->nruns + (pre != 0);
    if (pre != 0) /* (walked off for pre_n frames) */
        b->runs[0] =
            (uint16_t)(((b->pre_n - 1) << 4) | (pre < 0 ? TN_SURF_IN_LEFT : TN_SURF_IN_RIGHT));
    for (int r = 0; r < E->nruns; r++) {
        tn_input in;
        int cnt;
        tn_surf_run(g, E->run0 + (uint32_t)r, &in, &cnt);
        b->runs[r + (pre != 0)] =
            (uint16_t)(((cnt - 1) << 4) | (in.left ? TN_SURF_IN_LEFT : 0) |
                       (in.right ? TN_SURF_IN_RIGHT : 0) | (in.down ? TN_SURF_IN_DOWN : 0) |
                       (in.jump ? TN_SURF_IN_JUMP : 0));
    }
    tn_surf_node_pos(g, E->to, &b->expect_row, &b->expect_j);
    b->run_i = 0;
    b->run_left = 0;
    if (body->jump_held && (b->runs[0] & TN_SURF_IN_JUMP)) return none; /* release first */
    b->gphase = GP_REPLAY;
    b->shadow = *body;
    b->shadow_ok = true;
    b->steer_left = 0;
    b->lost = false;
    b->replay_ground = true;
    b->replay_d = body->x - tn_surf_lattice_x(g, j);
    return gstep_replay_first(b);
}

/* A body the physics could have moved: finite and within a tile of the map
 * (its outside is solid).  Anything else (NaN, a caller's bug) would reach
 * float-to-int casts of tile indices that are undefined out of range. */
static bool body_in_map(const tn_body *body, const tn_map *m, float T)
{
    return body->x >= -T && body->y >= -T && body->x <= (float)(m->w + 1) * T &&
           body->y <= (float)(m->h + 1) * T; /* false for NaN */
}

/* The fields in which graph profile pr differs from the body's size and
 * physics p, as "box 1x2 / 1x1, dt 0.0166667 / 0.00833333 s" in buf;
 * false when none does. */
static bool profile_diff(const tn_surf_profile *pr, const tn_body *body, const tn_phys_params *p,
                         char *buf, size_t cap)
{
    const tn_phys_params *q = &pr->phys;
    size_t n = 0;
    buf[0] = '\0';
    if (pr->w != body->w || pr->h != body->h)
        tn_commoni_appendf(buf, cap, &n, "box %dx%d / %dx%d", pr->w, pr->h, body->w, body->h);
    tn_physi_diff(q, p, buf, cap, &n);
    return n > 0;
}

/* The body sizes the planners take (tn_bot_goto and tn_bot_check_goal
 * refuse others alike). */
static bool body_size_ok(const tn_body *body)
{
    return body->w >= 1 && body->w <= TN_MAX_BODY_W && body->h >= 1 && body->h <= TN_MAX_BODY_H;
}

static tn_status body_size_error(const tn_body *body, tn_error *err)
{
    return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                        "bot: a %dx%d body is outside the sizes 1..%d x 1..%d", body->w, body->h,
                        TN_MAX_BODY_W, TN_MAX_BODY_H);
}

tn_status tn_bot_check_goal(const tn_bot *b, const tn_map *m, const tn_body *body, int x, int y,
                            int *gx, int *gy, tn_error *err)
{
    int sx = x, sy = y;
    if (!m || !body)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "bot: goal check without %s (NULL)", !m ? "a map" : "a body");
    if (!body_size_ok(body)) return body_size_error(body, err);
    if (!tn_map_inside(m, x, y))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "bot: tile (%d,%d) is outside the %dx%d map", x, y, m->w, m->h);
    if (b && b->graph && tn_surf_node_of_tile(b->graph, x, y) >= 0) {
        /* the graph stands there: a box over a ledge's edge too */
    } else if (!tn_bot_snap_goal(m, body->w, body->h, x, y, &sx, &sy)) {
        if (tn_map_tile(m, x, y) == TN_TILE_BLOCK) /* a click on a block means its top */
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "bot: no room for a %dx%d character on top of the block at "
                                "(%d,%d)",
                                body->w, body->h, x, y);
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "bot: a %dx%d character cannot stand at or below tile (%d,%d)", body->w,
                            body->h, x, y);
    }
    if (gx) *gx = sx;
    if (gy) *gy = sy;
    tn_error_clear(err);
    return TN_OK;
}

tn_status tn_bot_goto(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body,
                      const tn_phys_params *p, int x, int y, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (!b || !m || !body || !p) {
        if (b) {
            b->state = TN_BOT_NO_PATH;
            set_path_empty(b);
        }
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "bot: goto without %s (NULL)",
                            !b      ? "a bot"
                            : !m    ? "a map"
                            : !body ? "a body"
                                    : "physics (p)");
    }
    update_physics(b, p);
    int gx, gy;
    if (!b->graph && !pf) {
        no_finder(b);
        if (err) *err = b->perr;
        return b->perr.status;
    }
    if (!body_size_ok(body)) {
        refuse_goal(b); /* (it read as "outside the map": placed with such a size) */
        return body_size_error(body, err);
    }
    /* (before the body's place, which reads tile_px).  The jump model is
     * the classic planner's: the graph planner takes any physics
     * tn_phys_validate does (a walk of 30 px/s, 30x slower than falls) */
    if (!b->phys_valid && !(b->graph && tn_succeeded(tn_phys_validate(p, NULL)))) {
        refuse_goal(b);
        tn_jump_model jm; /* for the reason */
        tn_status st = tn_jump_model_init(&jm, p, err);
        return tn_failed(st) ? st
                             : tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                            "bot: invalid physics parameters");
    }
    if (isnan(body->x) || isnan(body->y)) { /* "%g" prints it "nan" or "-nan" */
        refuse_goal(b);
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "bot: the body's %s is not a number (NaN)", isnan(body->x) ? "x" : "y");
    }
    if (!body_in_map(body, m, p->tile_px)) {
        refuse_goal(b);
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "bot: the body at (%g, %g) px is outside the %dx%d map (%g px tiles)",
                            (double)body->x, (double)body->y, m->w, m->h, (double)p->tile_px);
    }
    if (b->graph && graph_of_another_profile(b->graph, body, p, err)) {
        refuse_goal(b); /* a graph answers for one profile only */
        return TN_FAILURE | TN_INVALID_PARAM;
    }
    if (b->graph && graph_stale(b->graph, m, err)) {
        refuse_goal(b);
        graph_stale(b->graph, m, &b->perr);
        return b->perr.status;
    }
    /* A goal refused by where it is (outside the map, nowhere to stand)
     * leaves the trip under way as it was: a misclick does not stop the
     * bot, as a unit told to go where it cannot keeps its last order.
     * (The refusals above are of the bot's own setup: it stops.) */
    tn_status gst = tn_bot_check_goal(b, m, body, x, y, &gx, &gy, err);
    if (tn_failed(gst)) return gst;
    b->held = false; /* (a goal's plan is the caller's: not held) */
    b->replans = 0;
    b->stuck_replans = 0;
    b->no_landing = -1;
    b->detour_chain = 0;
    b->steps = 0;
    b->look_steps = 0;
    b->jump_tx = b->off_tx = b->walk_tx = INT_MIN; /* (none of them yet) */
    b->still = 0;
    b->goal_x = gx;
    b->goal_y = gy;
    b->first_plan = true;
    b->why = "new goal";
    b->last_x = body->x;
    b->last_y = body->y;
    bool planned = true; /* (a plan made here, answered now) */
    if (b->graph && grounded(b, m, body)) {
        gplan(b, m, body);
        planned = !b->planning; /* a sliced plan answers in the steps to come */
    } else if (!b->graph && standing(b, m, body)) {
        replan(b, pf, m, body);
        /* a finder that does not fit the map or the physics: say so, not NO_PATH alone */
        if (tn_failed(b->perr.status) && tn_status_detail(b->perr.status, TN_INVALID_PARAM)) {
            if (err) *err = b->perr;
            return b->perr.status;
        }
    } else {
        /* mid-air: keep following the old path (or let go) and plan on landing;
         * a graph bot finishes the edge it is replaying (its inputs are
         * copied) but drops the old goal's legs, so nothing reports them */
        b->want_plan = true;
        b->planning = false;
        if (b->state != TN_BOT_MOVING && b->state != TN_BOT_PARTIAL) set_path_empty(b);
        if (b->graph) b->nlegs = b->leg = b->n = b->cur = 0;
        b->state = TN_BOT_MOVING;
        planned = false;
    }
    /* the plan's own answer, as tn_path_find or tn_surf_find gave it: an
     * unreachable goal's closest place, a plan cut short by path_cap, or a
     * search that failed (the bot is then NO_PATH) */
    if (planned && b->perr.status != TN_OK) {
        if (err) *err = b->perr;
        return b->perr.status;
    }
    return TN_OK;
}

void tn_bot_stop(tn_bot *b)
{
    if (!b) return;
    b->planning = false;
    b->nlegs = b->leg = 0;
    b->gphase = GP_WALK;
    b->state = TN_BOT_IDLE;
    b->want_plan = false;
    b->held = false;
    set_path_empty(b);
}

/* ---- following ---------------------------------------------------------- */

static inline float node_px(const tn_bot *b, int tx) { return (float)tx * b->phys.tile_px; }
static inline float node_feet(const tn_bot *b, int ty) { return (float)(ty + 1) * b->phys.tile_px; }

/* `next` may be NULL.  Coming straight down (or up) onto c, the body counts
 * as past it once it moved on toward the next node. */
static bool reached_x(const tn_bot *b, const tn_body *body, const tn_path_node *prev,
                      const tn_path_node *c, const tn_path_node *next)
{
    const float T = b->phys.tile_px;
    float cx = node_px(b, c->x), x = body->x;
    float step = b->phys.walk_speed * b->phys.dt;
    float tol = 0.5f * step + TN_PX16(T, 1e-3f);
    if (tol < TN_PX16(T, 1.0f)) tol = TN_PX16(T, 1.0f);
    if (b->nudged && !(c->flags & TN_NODE_GROUND)) tol += step;
    if (fabsf(x - cx) <= tol) return true;
    /* a standing node where the path stops, turns or leaves the ground
     * vertically must be met, not passed: walk back to it */
    if ((c->flags & TN_NODE_GROUND) &&
        (!next || next->x == c->x || (next->x > c->x) != (c->x > prev->x) || c->x == prev->x))
        return false;
    if (prev->x < c->x && x >= cx) return true;
    if (prev->x > c->x && x <= cx) return true;
    if (prev->x == c->x && next && next->x != c->x && fabsf(x - cx) < T &&
        (next->x > c->x) == (x > cx))
        return true;
    return false;
}

static bool reached_y(const tn_bot *b, const tn_body *body, const tn_path_node *prev,
                      const tn_path_node *c)
{
    const float T = b->phys.tile_px;
    float feet = body->y + (float)body->h * T, cy = node_feet(b, c->y);
    if (c->flags & TN_NODE_GROUND) return body->on_ground && fabsf(feet - cy) <= Y_TOL(T);
    if (fabsf(feet - cy) <= Y_TOL(T)) return true;
    if (prev->y < c->y && feet >= cy) return true;
    if (prev->y > c->y && feet <= cy) return true;
    return prev->y == c->y;
}

/* Off the walk lattice: x is no whole number of walking steps from a tile
 * edge (moved by something else than the inputs, e.g. knock-back: walks
 * keep the offset, only a wall's contact takes it away).  False when the
 * step does not divide a tile (no lattice; as tn_phys's on_lattice). */
static bool off_lattice(const tn_bot *b, const tn_body *body)
{
    const float T = b->phys.tile_px, step = b->phys.walk_speed * b->phys.dt;
    const float n = T / step;
    if (!(roundf(n) >= 1.0f && fabsf(n - roundf(n)) <= 1e-3f)) return false; /* no lattice */
    const float off = body->x - floorf(body->x / T) * T;
    const float r = off - roundf(off / step) * step;
    return fabsf(r) > ALIGN(T);
}

/* The walking step divides a tile (a walk lattice exists: 8/3 px of 16 by
 * default).  Without one (150 px/s: 2.5 px, 6.4 steps a tile) a body walks
 * onto a node up to a step past its tile edge, as a pushed one does. */
static bool has_lattice(const tn_bot *b)
{
    const float n = b->phys.tile_px / (b->phys.walk_speed * b->phys.dt);
    return roundf(n) >= 1.0f && fabsf(n - roundf(n)) <= 1e-3f;
}

/* Where the wall walks (wall_side, ledge_side) take a body: off the walk
 * lattice; with none, off a tile edge (the one lattice point a wall's
 * contact gives: a walk from there reaches only the x a whole number of
 * steps away, steps_to). */
static bool off_grid(const tn_bot *b, const tn_body *body)
{
    if (has_lattice(b)) return off_lattice(b, body);
    const float T = b->phys.tile_px;
    return fabsf(body->x - roundf(body->x / T) * T) > ALIGN(T);
}

/* A walk from x reaches cx (a whole number of steps away); false for a
 * NaN cx. */
static bool steps_to(const tn_bot *b, float x, float cx)
{
    const float step = b->phys.walk_speed * b->phys.dt, n = (cx - x) / step;
    return fabsf(n - roundf(n)) * step <= ALIGN(b->phys.tile_px);
}

/* The classic "column beside the body is clear" test: the column the body
 * is entering when it moves in `dir`, over the rows from the body's box to
 * `to`'s box (and the row above while rising). */
static bool stripe_clear(const tn_bot *b, const tn_map *m, const tn_body *body,
                         const tn_path_node *to, int dir)
{
    const float T = b->phys.tile_px;
    const float H = (float)body->h * T;
    const float e = ALIGN(T);
    /* the column being entered: partly covered already, or the next one */
    const int L = (int)floorf((body->x + e) / T);
    const bool aligned = body->x - (float)L * T < e;
    int col = dir > 0 ? L + body->w : (aligned ? L - 1 : L);
    /* a body off the walk lattice (pushed) is a part of a step from a tile
     * edge: its step can reach into the column after that one too, and
     * then that one is the column entered, as for the aligned body at
     * that edge (the box covers all but a part of a step of `col`
     * already, and a block there meets it whether it moves or not).
     * Counting `col` too held a body a part of a step short of the plan's
     * column while the rise in which it had to move on ran out, and it
     * jumped into the same ceiling again and again until STUCK (level 357
     * of tilenav-bench arrival, 1x3, jump 8, pushed -0.9 px).  So is a
     * body walking with no lattice (a step that does not divide a tile):
     * at 175 px/s it stopped on a take-off 0.665 px past the node, and the
     * step toward the next column, taken as within its own column, carried
     * it under the block its jump then met (maps/demo.map at (36,17):
     * stuck on 55 of 300 random trips) */
    if (!aligned && (off_lattice(b, body) || !has_lattice(b))) {
        int col2 = col;
        const float in_tile = body->x - (float)L * T, step = b->phys.walk_speed * b->phys.dt;
        if (dir < 0 && in_tile < step - e) col2 = L - 1;
        if (dir > 0 && in_tile > T - step + e) col2 = L + body->w + 1;
        /* unless a block of that column beside the box's rows stops the
         * step on its edge (a wall's contact: the box then fills `col` and
         * is back on the lattice, at the plan's column).  Level 406 of
         * tilenav-bench arrival (2x1, jump 6), pushed 1.3 px: at the apex
         * of a jump over a pit, a wall's block in that column kept the
         * body from the step that put it on its node, and it fell in */
        const int b0 = (int)floorf((body->y + e) / T), b1 = (int)ceilf((body->y + H - e) / T) - 1;
        for (int r = b0; r <= b1 && col2 != col; r++)
            if (tn_map_tile(m, col2, r) == TN_TILE_BLOCK) col2 = col;
        col = col2;
    }
    int r0 = (int)floorf((body->y + e) / T);
    int r0b = to->y - body->h + 1;
    /* rising: the apex overshoots the node a little (a row above its top),
     * unless a ceiling right above `to` stops it there (the path expects
     * that bump).  (The overshoot is the node's: taken off the body's top
     * as well, it kept the body out of a column whose block was two rows
     * above the node, and the body fell back onto the one-way platform it
     * had jumped through, again and again.) */
    if (body->vy < 0.0f && tn_path_box_fits(m, to->x, to->y - 1, body->w, body->h)) r0b--;
    if (r0b < r0) r0 = r0b;
    int r1 = (int)ceilf((body->y + H - e) / T) - 1;
    if (to->y > r1) r1 = to->y;
    for (int r = r0; r <= r1; r++)
        if (tn_map_tile(m, col, r) == TN_TILE_BLOCK) return false;
    /* in the air: a one-way platform in that column between the feet and
     * `to`'s bottom row would be landed on, now or after the apex (one the
     * body rises through from below is above its feet's row; one the path
     * stands on, below `to`, is not in that range) */
    if (!body->on_ground) {
        const float feet = body->y + H;
        for (int r = (int)ceilf((feet - e) / T); r <= to->y; r++)
            if (tn_map_tile(m, col, r) == TN_TILE_ONEWAY) return false;
    }
    return true;
}

/* The box at x along the rise, up to a tile above the apex, meets a block
 * (as the physics sees it). */
static bool rise_blocked(const tn_bot *b, const tn_map *m, const tn_body *body, float x)
{
    const float T = b->phys.tile_px;
    const float rise = (float)(b->jump_tiles + 1) * T;
    const float dy0 = TN_PX16(T, 1.0f), ddy = TN_PX16(T, 2.0f);
    for (float dy = dy0; dy <= rise; dy += ddy)
        if (tn_body_box_blocked(m, &b->phys, x, body->y - dy, body->w, body->h)) return true;
    return false;
}

/* Walking adds 8/3 px per step in float, so after a long walk x can sit a
 * hair (1/1000 px) past a tile edge, over a neighbouring column.  When that
 * column stops the vertical move about to start (up = a jump; else a drop
 * through a one-way platform, which needs one-way tiles only underfoot),
 * return the direction of one walking step away from it, provided the move
 * is free from there; else 0.  (The physics' 1/1000 px collision slack is
 * what makes the hair matter; see the report on tn_phys.) */
static int graze_escape(const tn_bot *b, const tn_map *m, const tn_body *body, bool up)
{
    const float T = b->phys.tile_px;
    const int li = (int)roundf(body->x / T);
    const float off = body->x - (float)li * T;
    /* a body pushed off the lattice, or walking with none, stands up to a
     * step beside the take-off */
    const float lim = up && (off_lattice(b, body) || !has_lattice(b))
                          ? b->phys.walk_speed * b->phys.dt
                          : GRAZE(T);
    if (off == 0.0f || fabsf(off) >= lim) return 0;
    const int dir = off < 0.0f ? 1 : -1; /* away from the grazed side */
    const int grazed = off > 0.0f ? li + body->w : li - 1;
    const int other = off > 0.0f ? li - 1 : li + body->w;
    const float nx = body->x + (float)dir * b->phys.walk_speed * b->phys.dt;
    if (up) /* the rise blocked here but free one step away */
        return rise_blocked(b, m, body, body->x) && !rise_blocked(b, m, body, nx) ? dir : 0;
    if (body->on_oneway_only) return 0;
    /* down: after the step no block may be left underfoot */
    const int row = (int)floorf((body->y + (float)body->h * T) / T + 0.5f);
    if (tn_map_tile(m, grazed, row) != TN_TILE_BLOCK) return 0;
    return tn_map_tile(m, other, row) == TN_TILE_BLOCK ? 0 : dir;
}

/* Standing where the path goes down (a walk-off's fall, a drop) within a
 * step of the node's x at cx: a body off the lattice can stand there on a
 * sliver of the column beside the way down.  The way down in *in: one
 * step (toward cx first; the other way too when `both`, the node reached)
 * after which it no longer stands; else Down where it stands on one-way
 * tiles only; else such a step after which it does.  False when none. */
static bool sliver_way_down(tn_bot *b, const tn_map *m, const tn_body *body, float cx, bool both,
                            tn_input *in)
{
    if (!off_lattice(b, body) && has_lattice(b)) return false;
    const int first = cx < body->x ? -1 : 1;
    int oneway = 0;
    for (int i = 0; i < (both ? 2 : 1); i++) {
        const int d = i ? -first : first;
        tn_body t = *body;
        tn_body_step(&t, m, &b->phys, walk_toward(d));
        b->look_steps++;
        if (!t.on_ground) {
            *in = walk_toward(d);
            return true;
        }
        if (!oneway && t.on_oneway_only) oneway = d;
    }
    if (body->on_oneway_only) {
        in->down = true;
        return true;
    }
    if (oneway) *in = walk_toward(oneway); /* Down on the next step */
    return oneway != 0;
}

/* Nodes of the plan from a wall or landing that way_steps reads (the
 * check ends at the first narrow way, near the start). */
#define WAY_NODES 64

/* The classic plan from t (standing) to the goal: false when there is none
 * (with `whole`, when it is not a whole one).  With no walk lattice, also
 * false when a walk from t does not reach its first narrow way: a way
 * straight up or down from a ground node with a block on both sides of
 * the box's columns (a gap or shaft exactly the box's width: only the box
 * at the node's x passes) no whole number of steps from t.x (steps_to),
 * on the ground (and straight up or down) from t.  The check ends with
 * true where x leaves what the walk from t makes it: at a move sideways
 * through the air, or at a walk that ends against a block (its contact
 * puts the box on the node's edge).  Seed 4, level 350 of tilenav-bench
 * arrival (3x3, jump 7, 150 or 100 px/s, pushed 1.3 px): a wall walk for a
 * hole's sliver (the wall at x = 96, 64 steps from the hole's 256) led to
 * a plan up through a gap at x = 160 instead, 25.6 steps from the wall;
 * the bot stood 1 px under the gap's edge and jumped into it until STUCK. */
static bool way_steps(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *t, bool whole)
{
    int tx, ty;
    tn_body_tile(t, &b->phys, &tx, &ty);
    tn_path_query q = tn_path_query_make(tx, ty, b->goal_x, b->goal_y, t->w, t->h, &b->jm);
    q.heuristic = b->cfg.heuristic;
    q.max_expand = b->cfg.max_expand;
    if (q.max_expand > tn_path_max_expand(pf)) q.max_expand = 0;
    tn_path_stats st;
    tn_path_node way[WAY_NODES];
    int n = 0;
    const tn_status s = tn_path_find(pf, m, &q, way, WAY_NODES, &n, &st, NULL);
    if (tn_failed(s) || (whole && tn_status_detail(s, TN_UNREACHABLE | TN_LIMIT_REACHED)))
        return false;
    if (has_lattice(b)) return true;
    for (int i = 0; i + 1 < n; i++) {
        const tn_path_node *c = &way[i], *d = &way[i + 1];
        const bool ground = c->flags & TN_NODE_GROUND;
        if (d->x != c->x) {
            if (!ground || !(d->flags & TN_NODE_GROUND) || d->y != c->y) return true; /* (air) */
            const int beyond = d->x > c->x ? d->x + t->w : d->x - 1;
            for (int r = d->y - t->h + 1; r <= d->y; r++)
                if (tn_map_tile(m, beyond, r) == TN_TILE_BLOCK) return true; /* (a wall) */
            continue;
        }
        if (!ground || d->y == c->y) continue;
        const int r0 = (c->y < d->y ? c->y : d->y) - t->h + 1, r1 = c->y > d->y ? c->y : d->y;
        bool left = false, right = false;
        for (int r = r0; r <= r1; r++) {
            left = left || tn_map_tile(m, c->x - 1, r) == TN_TILE_BLOCK;
            right = right || tn_map_tile(m, c->x + t->w, r) == TN_TILE_BLOCK;
        }
        if (left && right) return steps_to(b, t->x, node_px(b, c->x));
    }
    return true;
}

/* The side of the nearer wall a body off the lattice can walk into on the
 * ground it stands on (a wall stops the box on a tile edge: back on the
 * lattice), at most WALL_TILES tiles away, asked of tn_body_step on a
 * copy; 0 when it would walk off its ground first (or none is near).  The
 * steps the walk takes in *steps.  Each way's walk, when it left the
 * ground, in off[0] (left) and off[1] (right), its steps in offk[] (0:
 * it did not).  With no walk lattice only a wall from which a walk
 * reaches cx (the node's x the way down needs) counts (steps_to; none
 * for a NaN cx): from any other the bot came back to a sliver again; and
 * only when the plan from it can be walked (way_steps; not asked with
 * pf NULL): the plan from there may take another narrow way. */
#define WALL_TILES 64
static int wall_side(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body, float cx,
                     int *steps, tn_body off[2], int offk[2])
{
    const float step = b->phys.walk_speed * b->phys.dt;
    const int limit = (int)ceilf((float)WALL_TILES * b->phys.tile_px / step);
    int best = 0, best_k = INT_MAX;
    for (int d = -1; d <= 1; d += 2) {
        tn_body t = *body;
        offk[d > 0] = 0;
        for (int k = 1; k <= limit && k < best_k; k++) {
            tn_body_step(&t, m, &b->phys, walk_toward(d));
            b->look_steps++;
            if (!t.on_ground) {
                off[d > 0] = t;
                offk[d > 0] = k;
                break;
            }
            if (has_lattice(b) ? t.hit_wall || !off_lattice(b, &t)
                               : t.hit_wall && steps_to(b, t.x, cx) &&
                                     (!pf || way_steps(b, pf, m, &t, false))) {
                best = d;
                best_k = k;
                break;
            }
            if (t.hit_wall) break; /* (no lattice: a wall that is no help) */
        }
    }
    *steps = best_k;
    return best;
}

/* Frames ledge_side waits in the air before it turns back (a turn on the
 * first frame off the ledge lands on its corner again, within the
 * physics' slack), and the frames of a fall it follows at most. */
#define LEDGE_WAITS 8
#define LEDGE_FALL 600
/* Searches a look asks at most (one per landing tile met). */
#define LEDGE_SEARCHES 4

/* A fall off a ledge that met no side (a one-way platform's end has
 * none) and landed off the lattice at t after *f frames: where its ground
 * has a wall (wall_side), t becomes the body walked into it (back on the
 * lattice) and *f counts the walk too; false when it has none.  Level 49
 * of tilenav-bench arrival (2x2, jump 6), pushed 1.3 or -2.5 px onto a
 * one-way platform whose way up is a gap exactly the box's width: no
 * wall on it and no side to its ends, it jumped into the gap's edge
 * until STUCK; off its end it lands on blocks beside a wall. */
static bool one_way_landing(tn_bot *b, tn_path *pf, const tn_map *m, tn_body *t, float cx, int *f)
{
    if (!off_grid(b, t)) return false;
    int steps = 0, offk[2];
    tn_body off[2];
    const int d = wall_side(b, pf, m, t, cx, &steps, off, offk);
    if (!d) return false;
    for (int k = 0; k < steps; k++, b->look_steps++) tn_body_step(t, m, &b->phys, walk_toward(d));
    *f += steps;
    return t->on_ground && !off_grid(b, t);
}

/* No wall on its ground (wall_side found none): the walk off an end of
 * it (wall_side's walks, off[] and offk[]), then, after `wait` frames of
 * no key, back toward the ledge until the box meets its side in the air
 * (a wall's contact: back on the lattice), then a fall with no key to the
 * ground; or, with no wait, back toward the ledge to the ground, where
 * it met no side (one_way_landing: a one-way platform's end), and into a
 * wall there.  Of both ends and every wait up to LEDGE_WAITS, the fewest
 * frames that land where the classic planner has a whole path to the goal
 * (asked of pf; a fall that loses the goal is not taken); the direction in
 * *dir, the wait in *wait and the frames to leave the ground plus the
 * flight (and the walk into a wall) in *steps; at most LEDGE_SEARCHES searches, the landings met
 * first.  False when none does (a ledge with no side under it, a fall onto
 * nothing that leads on).  Level 320 of tilenav-bench arrival (3x2, jump
 * 4), pushed 1.3 px on a platform whose one way down is a hole exactly the
 * box's width, with no wall on it: every hole position bridged it (STUCK
 * after 49 re-plans).  With no walk lattice only a landing a whole number
 * of steps from cx counts (as wall_side's walls: from any other the walk
 * came back to the sliver beside the way down), and whose plan's first
 * narrow way a walk from it reaches (way_steps). */
static bool ledge_side(tn_bot *b, tn_path *pf, const tn_map *m, float cx, const tn_body off[2],
                       const int offk[2], int *dir, int *wait, int *steps)
{
    if (!pf) return false;
    const tn_input none = {false, false, false, false};
    int best = INT_MAX, lx = INT_MIN, ly = INT_MIN, searches = 0;
    for (int d = -1; d <= 1; d += 2) {
        const int k = offk[d > 0];
        if (k == 0 || !off_grid(b, &off[d > 0])) continue; /* (no ledge near) */
        for (int w = 0; w <= LEDGE_WAITS && k + w < best; w++) {
            tn_body t = off[d > 0];
            int f = 0;
            for (; f < LEDGE_FALL && !t.on_ground && off_grid(b, &t); f++, b->look_steps++)
                tn_body_step(&t, m, &b->phys, f < w ? none : walk_toward(-d));
            /* (landed: no side met; with no wait, a wall where it landed) */
            if (t.on_ground && (w > 0 || !one_way_landing(b, pf, m, &t, cx, &f))) continue;
            if (!t.on_ground && off_grid(b, &t)) continue; /* (no side met) */
            for (; f < LEDGE_FALL && !t.on_ground; f++, b->look_steps++)
                tn_body_step(&t, m, &b->phys, none);
            if (!t.on_ground || k + f >= best) continue;
            if (!has_lattice(b) && !steps_to(b, t.x, cx)) continue; /* (no help) */
            int tx, ty;
            tn_body_tile(&t, &b->phys, &tx, &ty);
            if ((tx == lx && ty == ly) || searches == LEDGE_SEARCHES) continue; /* (asked) */
            lx = tx, ly = ty;
            searches++;
            if (!way_steps(b, pf, m, &t, true)) continue;
            best = k + f;
            *dir = d;
            *wait = w;
            *steps = k + f;
        }
    }
    return best != INT_MAX;
}

/* Off the lattice where it stands: start walking into the nearer wall
 * (then plan again there; bot_step), or with none on its ground off a
 * ledge and back into its side (ledge_side).  False when there is
 * neither.  The look (up to 2 x 384 simulated steps, and the flights off
 * the ledges with a search each) is made once a plan where it finds
 * none: a body standing there with no wall asked every frame until STUCK.
 * Not from the tile where the last walk that got back on the lattice began
 * (walk_tx, for the goal; a walk cut short by a plan does not count): it
 * mended nothing (pushed every frame, a wind put the box on the lattice
 * and off it again, and each walk re-planned, until STUCK).  With no walk
 * lattice, only on a sliver beside a way down at cx (NaN elsewhere: there
 * the walks are not tried), off a tile edge (off_grid). */
static bool start_wall_walk(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body, float cx)
{
    if (!off_grid(b, body) || (!has_lattice(b) && isnan(cx))) return false;
    if (b->no_wall && body->x == b->no_wall_x && body->y == b->no_wall_y) return false;
    int tx, ty;
    tn_body_tile(body, &b->phys, &tx, &ty);
    if (tx == b->walk_tx && ty == b->walk_ty) return false; /* (it mended nothing: again) */
    int steps = 0, wait = 0, offk[2];
    tn_body off[2];
    b->wall_cx = cx;
    b->wall_dir = wall_side(b, pf, m, body, cx, &steps, off, offk);
    b->ledge = 0;
    if (!b->wall_dir && (offk[0] || offk[1]) && b->hold) {
        /* (ledge_side searches: they wait for the hold to be lifted, the
         * bot standing, a wait that does not count toward being stuck) */
        b->held = true;
        b->still = 0;
        b->since_node = 0;
        return false;
    }
    if (!b->wall_dir && ledge_side(b, pf, m, cx, off, offk, &b->wall_dir, &wait, &steps)) {
        b->ledge = 1;
        b->ledge_wait = wait;
    }
    if (b->wall_dir) {
        b->from_tx = tx;
        b->from_ty = ty;
        b->jump_phase = JUMP_NONE;
        b->wall_left = steps + b->cfg.stuck_steps;
        return true;
    }
    b->no_wall = true;
    b->no_wall_x = body->x;
    b->no_wall_y = body->y;
    return false;
}

static bool bumps_head(tn_bot *b, const tn_map *m, const tn_phys_params *p, const tn_body *body,
                       tn_input in)
{
    tn_body t = *body;
    tn_body_step(&t, m, p, in);
    b->look_steps++;
    return t.hit_ceiling;
}

/* Height (tiles) of the jump that starts at take-off node t. */
static int jump_tiles(const tn_bot *b, int t)
{
    int top = b->path[t].y;
    for (int i = t + 1; i < b->n; i++) {
        if (b->path[i].y < top) top = b->path[i].y;
        if (b->path[i].flags & TN_NODE_GROUND) break;
    }
    return b->path[t].y - top;
}

/* Steps allowed to reach the current node: 3x the walk there, plus 2 s. */
static int node_patience(const tn_bot *b, const tn_body *body)
{
    const tn_path_node *c = &b->path[b->cur];
    const float T = b->phys.tile_px;
    float d = fabsf(body->x - node_px(b, c->x)) +
              fabsf(body->y + (float)body->h * T - node_feet(b, c->y));
    float per_px = 1.0f / (b->phys.walk_speed * b->phys.dt);
    return 120 + (int)(3.0f * d * per_px);
}

/* We reached node cur-1 and now head for cur: start a jump if it is higher. */
static void on_advance(tn_bot *b, const tn_body *body)
{
    const tn_path_node *p = &b->path[b->cur - 1], *c = &b->path[b->cur];
    if ((p->flags & TN_NODE_GROUND) && body->on_ground && c->y < p->y) {
        int tiles = jump_tiles(b, b->cur - 1);
        if (tiles < 1) tiles = 1;
        b->jump_tiles = tiles;
        b->jump_phase = JUMP_WANT;
    }
}

static void finish(tn_bot *b)
{
    b->state = b->partial ? (b->n > 1 ? TN_BOT_PARTIAL : TN_BOT_NO_PATH) : TN_BOT_ARRIVED;
    b->cur = b->n;
    b->jump_phase = JUMP_NONE;
}

bool tn_bot_active(const tn_bot *b)
{
    if (!b) return false;
    if (b->graph)
        return (b->state == TN_BOT_MOVING || b->state == TN_BOT_PARTIAL) &&
               (b->want_plan || b->planning || b->leg < b->nlegs);
    return (b->state == TN_BOT_MOVING || b->state == TN_BOT_PARTIAL) &&
           (b->want_plan || b->cur < b->n);
}

static tn_input bot_step(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body,
                         const tn_phys_params *p);

tn_input tn_bot_step(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body,
                     const tn_phys_params *p)
{
    const tn_input none = {false, false, false, false};
    if (!b || !m || !body || !p) return none;
    b->held = false;
    b->last_in = body_in_map(body, m, p->tile_px) ? bot_step(b, pf, m, body, p) : none;
    return b->last_in;
}

static tn_input bot_step(tn_bot *b, tn_path *pf, const tn_map *m, const tn_body *body,
                         const tn_phys_params *p)
{
    if (b->graph) {
        update_physics(b, p);
        return gstep(b, m, body);
    }
    tn_input in = {false, false, false, false};
    if (update_physics(b, p) && (b->state == TN_BOT_MOVING || b->state == TN_BOT_PARTIAL)) {
        b->want_plan = true;
        b->why = "physics changed";
    }
    if (!tn_bot_active(b)) return in;
    b->steps++;
    const bool ground = body->on_ground;
    const float T = b->phys.tile_px;

    /* re-plan on the ground when something changed under the plan */
    if (b->plan_map != m || b->plan_rev != m->revision || b->plan_w != body->w ||
        b->plan_h != body->h) {
        if (!b->want_plan) b->why = b->plan_rev != m->revision ? "map edited" : "size changed";
        b->want_plan = true;
    }
    if (b->want_plan && ground) {
        if (hold_plan(b)) return in;
        replan(b, pf, m, body);
        if (!tn_bot_active(b)) return in;
    }
    if (b->n == 0) return in; /* waiting to land */

    /* landing somewhere the path did not expect (a jump stopped at once by a
     * ceiling counts: it left the ground for no time) */
    if (!ground) {
        b->airborne = true;
    } else if (b->airborne || body->jumped) {
        b->airborne = false;
        b->nudged = false;
        if (b->jump_phase == JUMP_HOLD) b->jump_phase = JUMP_NONE;
        if (b->wall_dir && b->ledge == 1) {
            /* off a ledge with no side (one-way), landed off the lattice
             * where ledge_side found a wall on the ground: walk into it */
            b->wall_dir = 0;
            b->ledge = 0;
            if (start_wall_walk(b, pf, m, body, b->wall_cx)) return walk_toward(b->wall_dir);
        }
        float feet = body->y + (float)body->h * T;
        int land = -1;
        for (int i = b->cur; i < b->n; i++)
            if (b->path[i].flags & TN_NODE_GROUND) {
                land = i;
                break;
            }
        bool fine = land >= 0 && fabsf(feet - node_feet(b, b->path[land].y)) <= Y_TOL(T) &&
                    fabsf(body->x - node_px(b, b->path[land].x)) <= 1.5f * T;
        if (land >= 0 && !(b->path[b->cur].flags & TN_NODE_GROUND) && fine) {
            b->cur = land; /* touched down a little early: walk the rest */
        } else if (!fine) {
            /* (after a fall off a ledge and back into its side: ledge_side) */
            b->why = b->wall_dir && b->ledge == 2 ? "back on the lattice" : "landed off the path";
            /* off the lattice, a jump that came down on the tile where it
             * was pressed (a head bumped a part of a step wide of the
             * plan's column, before the column test let it move), or a
             * landing off the path on the tile of the last one (a drop
             * onto a sliver of the column beside a shaft, and a jump back
             * up): the same plan fails the same way again, so back onto
             * the lattice first; not when it took off from the lattice
             * (pushed every frame, a wind: the walk back mends nothing,
             * and the same plan from there failed again until STUCK) */
            int tx, ty;
            tn_body_tile(body, &b->phys, &tx, &ty);
            const bool again = b->ground_off && ((tx == b->jump_tx && ty == b->jump_ty) ||
                                                 (tx == b->off_tx && ty == b->off_ty));
            b->off_tx = tx;
            b->off_ty = ty;
            if (again && start_wall_walk(b, pf, m, body, NAN)) return walk_toward(b->wall_dir);
            if (hold_plan(b)) return in;
            replan(b, pf, m, body);
            if (!tn_bot_active(b) || b->n == 0) return in;
        }
    }

    if (ground) b->ground_off = off_lattice(b, body);

    /* pushed off the lattice and walking into a wall (wall_side): back on
     * it, or off the ground, plan again from there.  Held from the wall
     * (on the ground, off the lattice, after the steps it simulated and
     * stuck_steps more): stuck */
    bool wall_held = false;
    if (b->wall_dir && b->ledge && !ground) { /* (off the ledge: ledge_side) */
        b->still = b->since_node = 0;
        b->last_x = body->x;
        b->last_y = body->y;
        if (b->ledge == 1 && off_grid(b, body) && --b->wall_left > 0) {
            if (b->ledge_wait > 0) {
                b->ledge_wait--;
                return in;
            }
            return walk_toward(-b->wall_dir); /* (back into the ledge's side) */
        }
        b->ledge = 2; /* on the lattice (or given up): fall, plan on landing */
        b->walk_tx = b->from_tx;
        b->walk_ty = b->from_ty;
        return in;
    }
    if (b->wall_dir && b->ledge == 2) { /* landed after the ledge */
        b->wall_dir = 0;
        b->ledge = 0;
        b->why = "back on the lattice";
        if (hold_plan(b)) return in;
        replan(b, pf, m, body);
        if (!tn_bot_active(b) || b->n == 0) return in;
    }
    if (b->wall_dir) {
        if (ground && !body->hit_wall && (off_grid(b, body) || !has_lattice(b))) {
            if (--b->wall_left > 0) {
                b->still = b->since_node = 0;
                b->last_x = body->x;
                b->last_y = body->y;
                return walk_toward(b->wall_dir);
            }
            wall_held = true;
        }
        b->wall_dir = 0;
        if (!wall_held) {
            b->why = "back on the lattice";
            b->walk_tx = b->from_tx;
            b->walk_ty = b->from_ty;
            if (!ground) {
                b->want_plan = true;
                return in;
            }
            if (hold_plan(b)) return in;
            replan(b, pf, m, body);
            if (!tn_bot_active(b) || b->n == 0) return in;
        }
    }

    /* stuck: no movement for stuck_steps while there is work to do */
    if (fabsf(body->x - b->last_x) < STUCK_MOVE(T) && fabsf(body->y - b->last_y) < STUCK_MOVE(T))
        b->still++;
    else
        b->still = 0;
    b->last_x = body->x;
    b->last_y = body->y;
    /* no node reached for much longer than the walk there takes: stuck too
     * (e.g. rocking between two positions) */
    if (b->cur < b->n && ++b->since_node > node_patience(b, body)) b->still = b->cfg.stuck_steps;
    if (wall_held) b->still = b->cfg.stuck_steps;
    if (b->still >= b->cfg.stuck_steps) {
        b->still = 0;
        b->since_node = 0;
        if (++b->stuck_replans > STUCK_REPLANS) {
            set_path_empty(b);
            b->state = TN_BOT_STUCK;
            return in;
        }
        b->why = "stuck";
        /* off the lattice, the same plan from here fails the same way:
         * first back onto it at a wall */
        if (ground && start_wall_walk(b, pf, m, body, NAN)) return walk_toward(b->wall_dir);
        if (ground) {
            if (hold_plan(b)) return in;
            replan(b, pf, m, body);
            if (!tn_bot_active(b) || b->n == 0) return in;
        } else {
            b->want_plan = true;
        }
    }

    /* advance over reached nodes (and air nodes whose successor is reached) */
    for (int guard = 0; guard < 8 && b->cur < b->n; guard++) {
        const tn_path_node *c = &b->path[b->cur];
        const tn_path_node *prev = b->cur > 0 ? &b->path[b->cur - 1] : c;
        const tn_path_node *nn = b->cur + 1 < b->n ? &b->path[b->cur + 1] : NULL;
        bool ok = reached_x(b, body, prev, c, nn) && reached_y(b, body, prev, c);
        if (!ok && !(c->flags & TN_NODE_GROUND) && nn) {
            const tn_path_node *n2 = b->cur + 2 < b->n ? &b->path[b->cur + 2] : NULL;
            ok = !(nn->flags & TN_NODE_GROUND) && reached_x(b, body, c, nn, n2) &&
                 reached_y(b, body, c, nn);
        }
        if (!ok) break;
        b->cur++;
        if (b->cur >= 2) b->stuck_replans = 0; /* progress: past a plan's first node */
        b->since_node = 0;
        if (b->cur >= b->n) {
            finish(b);
            return in;
        }
        on_advance(b, body);
    }

    const tn_path_node *c = &b->path[b->cur];
    const tn_path_node *prev = b->cur > 0 ? &b->path[b->cur - 1] : c;
    const tn_path_node *next = b->cur + 1 < b->n ? &b->path[b->cur + 1] : NULL;
    int dir = 0;
    /* in the air, or about to be: the horizontal move must not carry the
     * body under a block it is rising into (or onto one it falls past) */
    const bool air = !ground || b->jump_phase == JUMP_WANT;
    if (!reached_x(b, body, prev, c, next)) {
        int d = node_px(b, c->x) > body->x ? 1 : -1;
        if (!air || stripe_clear(b, m, body, c, d)) dir = d;
    } else if (air && !(c->flags & TN_NODE_GROUND) && !reached_y(b, body, prev, c) && next &&
               next->x != c->x) {
        /* on toward the next node's column, not past it (it flew on to a
         * wall and missed the landing) */
        int d = next->x > c->x ? 1 : -1;
        const float nx = node_px(b, next->x);
        if ((d > 0 ? body->x < nx : body->x > nx) && stripe_clear(b, m, body, next, d)) dir = d;
    }
    if (!dir && !ground && !has_lattice(b) && c->x == prev->x &&
        fabsf(body->x - node_px(b, c->x)) > ALIGN(T) &&
        fabsf(body->x - node_px(b, c->x)) < b->phys.walk_speed * b->phys.dt &&
        reached_x(b, body, prev, c, next)) {
        /* going straight up or down a column, within the snap of it but
         * not on it: with no walk lattice a body is up to a step off, over
         * a sliver of the next column (a shaft the box's width: it landed
         * on the sliver, again and again).  A step toward the column that
         * a wall stops on its edge puts it there: taken (a step that would
         * carry it past the edge, into the column beyond, is not). */
        const float cx = node_px(b, c->x);
        const int d = cx > body->x ? 1 : -1;
        tn_body t = *body;
        tn_body_step(&t, m, &b->phys, walk_toward(d));
        b->look_steps++;
        if (fabsf(t.x - cx) <= ALIGN(T) && !t.hit_ceiling) dir = d;
        /* falling past a block of the column it grazes, with the column
         * on the other side free down to the node: the step across */
        if (!dir && c->y > prev->y && body->vy >= 0.0f && !t.hit_ceiling) {
            const int grazed = d < 0 ? c->x + body->w : c->x - 1;
            const int other = d < 0 ? c->x - 1 : c->x + body->w;
            /* (a one-way tile above the feet is passed already) */
            const int r0 = (int)floorf((body->y + ALIGN(T)) / T);
            const int rf = (int)ceilf((body->y + (float)body->h * T - ALIGN(T)) / T);
            bool hit = false, free = true;
            for (int r = r0; r <= c->y; r++) {
                const int o = tn_map_tile(m, other, r);
                hit = hit || tn_map_tile(m, grazed, r) == TN_TILE_BLOCK;
                free = free && (o == TN_TILE_EMPTY || (o == TN_TILE_ONEWAY && r < rf));
            }
            if (hit && free) dir = d;
        }
    }
    in.right = dir > 0;
    in.left = dir < 0;

    /* going straight down while standing: a drop through a one-way platform,
     * or a walk-off still held by a hair of a ledge (float drift) */
    int e = 0;
    if (ground && c->x == prev->x && c->y > prev->y) {
        e = graze_escape(b, m, body, false);
        if (e) {
            in.left = e < 0;
            in.right = e > 0;
            b->nudged = true;
        } else if (body->on_oneway_only && (prev->flags & TN_NODE_GROUND)) {
            in.down = true;
        }
    }
    /* going down, at the node's x within the snap (or a step from it, the
     * step taken here), still standing: pushed off the lattice onto a
     * sliver of the column beside the way down */
    if (ground && !e && !in.down && c->y > prev->y && (!dir || b->nudged) &&
        fabsf(body->x - node_px(b, c->x)) < b->phys.walk_speed * b->phys.dt + ALIGN(T) &&
        (off_lattice(b, body) || !has_lattice(b))) {
        tn_input way = {false, false, false, false};
        if (sliver_way_down(b, m, body, node_px(b, c->x), dir == 0, &way)) {
            in.left = way.left;
            in.right = way.right;
            in.down = way.down;
            b->nudged = true;
        } else if (!dir && start_wall_walk(b, pf, m, body, node_px(b, c->x))) {
            return walk_toward(b->wall_dir); /* no step leaves: back onto the lattice */
        }
    }

    /* jump */
    if (b->jump_phase == JUMP_HOLD) {
        if (body->jumped || !ground) b->took_off = true;
        if (!b->took_off)
            b->jump_phase = JUMP_WANT; /* the press did not take */
        else if (ground)
            b->jump_phase = JUMP_NONE; /* landed */
    }
    if (b->jump_phase == JUMP_WANT) {
        if (!ground) {
            b->jump_phase = JUMP_NONE; /* walked off instead: the landing check re-plans */
        } else if (body->jump_held) {
            in.jump = false; /* release first: a jump starts on a press */
        } else {
            int e = graze_escape(b, m, body, true);
            if (e) { /* the step away happens before the rise in the same physics step */
                in.left = e < 0;
                in.right = e > 0;
                b->nudged = true;
            } else if (b->cur > 0 && off_lattice(b, body) && rise_blocked(b, m, body, body->x) &&
                       !rise_blocked(b, m, body, node_px(b, b->path[b->cur - 1].x)) &&
                       start_wall_walk(b, pf, m, body, NAN)) {
                /* pushed off the lattice, the rise meets a block it would
                 * not from the take-off node: back onto the lattice first */
                return walk_toward(b->wall_dir);
            }
            in.jump = true;
            b->jump_left = tn_bot_jump_frames(b, b->jump_tiles) - 1;
            tn_body_tile(body, &b->phys, &b->jump_tx, &b->jump_ty);
            b->took_off = false;
            b->jump_phase = JUMP_HOLD;
        }
    } else if (b->jump_phase == JUMP_HOLD && b->took_off) {
        if (b->jump_left > 0) {
            in.jump = true;
            b->jump_left--;
        } else {
            b->jump_phase = JUMP_NONE;
        }
    }

    /* rising a hair (float drift) over a block column: one step away
     * before the head meets it, as at the take-off */
    if (!in.left && !in.right && (body->vy < 0.0f || in.jump)) {
        float off = body->x - roundf(body->x / T) * T;
        float lim =
            off_lattice(b, body) || !has_lattice(b) ? b->phys.walk_speed * b->phys.dt : GRAZE(T);
        if (off != 0.0f && fabsf(off) < lim && bumps_head(b, m, p, body, in)) {
            tn_input away = in;
            away.left = off > 0.0f;
            away.right = off < 0.0f;
            if (!bumps_head(b, m, p, body, away)) {
                in = away;
                b->nudged = true;
            }
        }
    }
    return in;
}

/* ---- read-outs --------------------------------------------------------- */

const tn_error *tn_bot_plan_error(const tn_bot *b)
{
    static const tn_error no_bot = {TN_FAILURE | TN_INVALID_PARAM, 0, 0, "bot: no bot (NULL)"};
    return b ? &b->perr : &no_bot;
}

void tn_bot_set_heuristic(tn_bot *b, int heuristic)
{
    if (b && (heuristic == TN_PATH_OPTIMAL || heuristic == TN_PATH_FAST))
        b->cfg.heuristic = heuristic;
}

tn_bot_info tn_bot_get_info(const tn_bot *b)
{
    tn_bot_info i;
    memset(&i, 0, sizeof i);
    if (!b) { /* as a bot with no goal and no plan */
        i.goal_x = i.goal_y = -1;
        i.search_us = -1.0;
        i.plan_frames = -1;
        i.plan_reason = i.pending_reason = "";
        return i;
    }
    i.state = b->state;
    i.active = tn_bot_active(b);
    i.goal_x = b->goal_x;
    i.goal_y = b->goal_y;
    i.path_nodes = b->n;
    i.node = b->cur;
    i.replans = b->replans;
    i.plans = b->plans;
    i.expanded = b->stats.expanded;
    i.path_cost = b->stats.cost;
    i.raw_nodes = b->stats.raw_nodes;
    i.search_us = b->search_us;
    i.steps = b->steps;
    i.planner = b->graph ? 1 : 0;
    i.plan_frames = b->graph ? (b->nlegs ? b->gstats.frames : -1) : -1;
    i.plan_reason = b->last_why ? b->last_why : "";
    i.pending_reason = b->want_plan && b->why ? b->why : "";
    i.input = b->last_in;
    i.jump_left = b->graph                         ? graph_jump_left(b)
                  : b->jump_phase != JUMP_HOLD     ? 0
                  : b->jump_left >= WHOLE_JUMP / 2 ? -1 /* held to the top */
                                                   : b->jump_left;
    i.first_raw_nodes = b->first_raw;
    i.first_expanded = b->first_expanded;
    i.planning = b->planning;
    i.plan_slices = b->graph ? b->plan_slices : 0;
    i.look_steps = b->graph ? 0 : b->look_steps;
    return i;
}

const tn_path_node *tn_bot_path(const tn_bot *b, int *count)
{
    if (count) *count = b && !b->graph ? b->n : 0;
    return b ? b->path : NULL;
}

bool tn_bot_last_query(const tn_bot *b, tn_path_query *q)
{
    if (!b || !b->lastq_valid) return false;
    if (q) *q = b->lastq;
    return true;
}
