/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_path.h"
#include "tn_trace.h"

#include <stdio.h>
#include <string.h>

/* ---- the jump model ---------------------------------------------------- */

#define SLACK 0.9f   /* fraction of the physical sideways reach the model uses */
#define FALL_TABLE 8 /* D */
#define SIM_ROWS 64

/* Moves, as stored in a state's flags. */
enum { MV_LEFT = 0, MV_RIGHT = 1, MV_UP = 2, MV_DOWN = 3 };
enum { ST_CLOSED = 1u << 2, ST_PARENT = 1u << 3 };
/* Per-tile cache bits. */
enum { C_FITS = 1u << 0, C_GROUND = 1u << 1, C_CEIL = 1u << 2 };

#define COST_WALK 2
#define COST_AIR 3
#define COST_TAKEOFF 2
#define COST_DROP 1
#define H_X 2 /* every sideways move costs >= 2 */
#define H_Y 3 /* every vertical move costs >= 3 */
#define FAST_WEIGHT 3

/* A 1-column map on the stack: the physics reads only tiles, so a jump or a
 * fall can be measured without allocating. */
typedef struct sim_map {
    tn_map m;
    uint8_t tile[SIM_ROWS], mark[SIM_ROWS];
} sim_map;

static void sim_init(sim_map *s)
{
    memset(s, 0, sizeof *s);
    s->m.w = 1;
    s->m.h = SIM_ROWS;
    s->m.tile = s->tile;
    s->m.mark = s->mark;
    s->m.start_x = s->m.start_y = -1;
}

tn_status tn_jump_model_init(tn_jump_model *jm, const tn_phys_params *p, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (!jm || !p)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "path: no %s for tn_jump_model_init (NULL)",
                            !jm ? "model to fill" : "physics");
    tn_status st = tn_phys_validate(p, err);
    if (tn_failed(st)) return st;
    memset(jm, 0, sizeof *jm);
    int M = (int)(p->jump_height + 1.0f / 32.0f);
    if (M < 1) M = 1;
    if (M > TN_PATH_MAX_JUMP) M = TN_PATH_MAX_JUMP; /* validate() keeps it <= 8 */
    const float T = p->tile_px; /* pixels per tile: everything below is in tiles */
    const float tol = TN_PX16(T, 1e-3f);
    const float step_px = p->walk_speed * p->dt * SLACK;
    const float terminal_ratio = p->max_fall / (p->walk_speed * SLACK);
    int P = (int)terminal_ratio;
    if ((float)P < terminal_ratio) P++;
    if (P < 1) P = 1;
    if (FALL_TABLE + P > TN_PATH_FALL_MAX)
        return tn_error_set(
            err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
            "path: terminal speed %g px/s is more than %g x the walk speed %g px/s (%g "
            "px/s): the classic planner's fall model has no room for that ratio (the graph "
            "planner has)",
            p->max_fall, (double)((float)(TN_PATH_FALL_MAX - FALL_TABLE) * SLACK), p->walk_speed,
            (double)((float)(TN_PATH_FALL_MAX - FALL_TABLE) * SLACK * p->walk_speed));
    sim_map sm;
    sim_init(&sm);
    const tn_input none = {false, false, false, false};
    const tn_input jump = {false, false, false, true};

    /* Rise: steps until the feet are k tiles up, holding jump. */
    int rise[TN_PATH_MAX_JUMP + 2] = {0};
    tn_body b;
    tn_body_place(&b, p, 1, 1, 0, SIM_ROWS - 1);
    tn_body_step(&b, &sm.m, p, none); /* settle: on_ground */
    float y0 = b.y;
    int lvl = 1;
    for (int f = 1; f <= TN_PHYS_RISE_STEPS_MAX + 2 && lvl <= M; f++) { /* (validated) */
        tn_body_step(&b, &sm.m, p, jump);
        while (lvl <= M && y0 - b.y >= T * (float)lvl - tol) rise[lvl++] = f;
        if (b.vy >= 0.0f) break;
    }
    /* A coarse step can sample the apex below the continuous one: M is the
     * highest level the simulated body really clears. */
    M = lvl - 1;
    if (M < 1)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "path: a full jump does not clear one tile with these physics");
    jm->max_jump = M;
    jm->fall = 2 * M;
    jm->depth_table = FALL_TABLE;
    jm->period = P;
    jm->njump = 2 * M + 2 * (FALL_TABLE + P);
    int allowed = 0;
    for (int k = 1; k < M; k++) {
        int budget = (int)((float)rise[k + 1] * step_px / T);
        if (budget > allowed) {
            jm->side_up[k] = 1;
            allowed++;
        }
    }

    /* Fall from rest: steps until the feet are d tiles down. */
    int fall[FALL_TABLE + 1] = {0};
    tn_body_place(&b, p, 1, 1, 0, 0);
    y0 = b.y;
    int d = 1;
    for (int f = 1; f <= 6000 && d <= FALL_TABLE; f++) {
        tn_body_step(&b, &sm.m, p, none);
        while (d <= FALL_TABLE && b.y - y0 >= T * (float)d - tol) fall[d++] = f;
    }
    jm->side_fall[0] = 1; /* the apex, or the ledge walked off */
    allowed = 0;
    for (d = 1; d < FALL_TABLE; d++) {
        int budget = (int)((float)fall[d] * step_px / T);
        if (budget > allowed) {
            jm->side_fall[d] = 1;
            allowed++;
        }
    }
    return TN_OK;
}

/* Sideways allowed from jump value j (air); j = 0 is the ground: always. */
static inline bool side_ok(const tn_jump_model *jm, int j)
{
    if (j == 0) return true;
    if (j & 1) return false;
    if (j < jm->fall) return jm->side_up[j >> 1] != 0;
    int d = (j - jm->fall) >> 1;
    if (d < jm->depth_table) return jm->side_fall[d] != 0;
    return d == jm->depth_table + jm->period - 1;
}

bool tn_jump_model_side_ok(const tn_jump_model *jm, int j)
{
    return jm && j >= 0 && side_ok(jm, j); /* (j < 0 read before the table) */
}

/* ---- model helpers on the raw map ---------------------------------------- */

bool tn_path_box_fits(const tn_map *m, int x, int y, int w, int h)
{
    if (!m || w < 1 || h < 1) return false; /* an empty box fits nowhere, not everywhere */
    for (int r = y - h + 1; r <= y; r++)
        for (int c = x; c < x + w; c++)
            if (tn_map_tile(m, c, r) == TN_TILE_BLOCK) return false;
    return true;
}

bool tn_path_box_ground(const tn_map *m, int x, int y, int w)
{
    if (!m) return false;
    for (int c = x; c < x + w; c++)
        if (tn_map_tile(m, c, y + 1) != TN_TILE_EMPTY) return true;
    return false;
}

/* ---- the finder ----------------------------------------------------------- */

typedef struct pstate {
    uint16_t gen;
    uint8_t pj; /* parent's jump value */
    uint8_t fl; /* move from the parent (2 bits), ST_CLOSED, ST_PARENT */
    uint32_t g; /* best cost found so far */
} pstate;

typedef struct hentry {
    uint32_t f, g;
    uint32_t xyj; /* x | y << 12 | j << 24 */
} hentry;

struct tn_path {
    tn_allocator alloc;
    int w, h, nj;
    int limit;
    pstate *s;
    uint16_t gen;
    hentry *heap; /* the bucket queue's entry pool */
    int hn, hcap;
    uint32_t bhead[32]; /* bucket heads (entry index), by key mod 32 */
    uint32_t bcur, bcount;
    tn_path_node *raw;
    int rawcap;
    uint8_t *cell;
    /* cache key of `cell` */
    const tn_map *cmap;
    const uint8_t *ctile;
    uint32_t crev;
    int cw, ch;
    bool cvalid;
    /* last search */
    int last_nj;
    int bx0, by0, bx1, by1;
    int expanded;
    tn_trace *trace; /* optional record of the searches (tn_trace.h) */
};

static inline uint32_t pack(int x, int y, int j)
{
    return (uint32_t)x | ((uint32_t)y << 12) | ((uint32_t)j << 24);
}

/* The largest search limit: 4L + 4 queue entries must fit an int. */
#define MAX_LIMIT ((size_t)(INT32_MAX - 4) / 4)

/* The sizes a finder for map_w x map_h reserves (see tn_path_memory). */
typedef struct path_sizes {
    int nj;
    size_t states, lim, hcap, bytes;
} path_sizes;

static tn_status path_sizes_of(int map_w, int map_h, const tn_phys_params *phys, int max_expand,
                               path_sizes *z, tn_error *err)
{
    if (map_w < 1 || map_h < 1 || map_w > TN_MAP_MAX_SIZE || map_h > TN_MAP_MAX_SIZE)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "path: map size %dx%d is outside 1..%d", map_w, map_h, TN_MAP_MAX_SIZE);
    if (max_expand < 0)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "path: max_expand %d is negative", max_expand);
    tn_phys_params pp = phys ? *phys : tn_phys_default(4.0f);
    pp.jump_height = (float)TN_PATH_MAX_JUMP;
    tn_jump_model jm;
    tn_status st = tn_jump_model_init(&jm, &pp, err);
    if (tn_failed(st)) return st;
    const size_t tiles = (size_t)map_w * (size_t)map_h;
    z->nj = jm.njump;
    z->states = tiles * (size_t)jm.njump;
    if (z->states > 0xffffffffu)
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "path: %dx%d map: too many states for one finder", map_w, map_h);
    /* Default limit: TN_PATH_DEFAULT_PER_TILE states a tile (at least 4096,
     * at most 1<<20), enough to exhaust the reachable set of a level. */
    size_t lim = (size_t)max_expand;
    if (!max_expand) {
        lim = TN_PATH_DEFAULT_PER_TILE * tiles;
        if (lim < 4096) lim = 4096;
        if (lim > (1u << 20)) lim = 1u << 20;
    }
    if (lim > z->states) lim = z->states;
    /* the entry pool's index is an int (and 0xffffffff its end mark): a
     * limit such as INT_MAX ("no limit") on a map of more than 2^29 states
     * overflowed 4L + 4 */
    if (lim > MAX_LIMIT) lim = MAX_LIMIT;
    z->lim = lim;
    z->hcap = 4 * lim + 4; /* pushes <= 1 + 4 x expansions */
    z->bytes = sizeof(struct tn_path) + z->states * sizeof(pstate) + z->hcap * sizeof(hentry) +
               (lim + 1) * sizeof(tn_path_node) + (size_t)(map_w + 2) * (size_t)(map_h + 2);
    return TN_OK;
}

size_t tn_path_memory(int map_w, int map_h, const tn_phys_params *phys, int max_expand)
{
    path_sizes z = {0}; /* set on success only: gcc -O3 cannot tell */
    return tn_failed(path_sizes_of(map_w, map_h, phys, max_expand, &z, NULL)) ? 0 : z.bytes;
}

tn_status tn_path_create(int map_w, int map_h, const tn_phys_params *phys, int max_expand,
                         const tn_allocator *a, tn_path **out, tn_error *err)
{
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "path: no output pointer");
    *out = NULL;
    path_sizes z = {0};
    tn_status st = path_sizes_of(map_w, map_h, phys, max_expand, &z, err);
    if (tn_failed(st)) return st;
    const size_t states = z.states, lim = z.lim, hcap = z.hcap;

    tn_path *pf = tn_alloc(a, sizeof *pf);
    if (!pf) return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "path: out of memory");
    if (a) pf->alloc = *a;
    pf->trace = NULL;
    pf->w = map_w;
    pf->h = map_h;
    pf->nj = z.nj;
    pf->limit = (int)lim;
    pf->hcap = (int)hcap;
    pf->rawcap = (int)lim + 1;
    pf->s = tn_alloc_array(a, states, sizeof *pf->s);
    pf->heap = tn_alloc_array(a, hcap, sizeof *pf->heap);
    pf->raw = tn_alloc_array(a, (size_t)pf->rawcap, sizeof *pf->raw);
    pf->cell = tn_alloc_array(a, (size_t)(map_w + 2) * (size_t)(map_h + 2), 1);
    if (!pf->s || !pf->heap || !pf->raw || !pf->cell) {
        tn_path_destroy(pf);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "path: out of memory for a %dx%d path finder (%zu states)", map_w,
                            map_h, states);
    }
    pf->bx0 = 1;
    pf->bx1 = 0;
    *out = pf;
    tn_error_clear(err);
    return TN_OK;
}

void tn_path_destroy(tn_path *pf)
{
    if (!pf) return;
    tn_allocator a = pf->alloc;
    tn_free(&a, pf->s);
    tn_free(&a, pf->heap);
    tn_free(&a, pf->raw);
    tn_free(&a, pf->cell);
    tn_free(&a, pf);
}

int tn_path_max_expand(const tn_path *pf) { return pf ? pf->limit : 0; }

void tn_path_set_trace(tn_path *pf, tn_trace *trace)
{
    if (pf) pf->trace = trace;
}

/* Out of line: the search loop keeps only a test and a call, so a finder
 * without a trace runs the same code as before traces existed. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void
trace_event(tn_trace *t, tn_trace_kind k, int x, int y, int j, uint32_t g, uint32_t f)
{
    tn_trace_record(t, k, (float)x, (float)y, j, (float)g, (float)f);
}

void tn_path_invalidate(tn_path *pf)
{
    if (pf) pf->cvalid = false;
}

tn_path_query tn_path_query_make(int sx, int sy, int gx, int gy, int w, int h,
                                 const tn_jump_model *jm)
{
    tn_path_query q;
    memset(&q, 0, sizeof q);
    q.start_x = sx;
    q.start_y = sy;
    q.start_jump = -1;
    q.goal_x = gx;
    q.goal_y = gy;
    q.char_w = w;
    q.char_h = h;
    q.jump = jm;
    q.heuristic = TN_PATH_OPTIMAL;
    return q;
}

/* Index of tile (x, y) in the per-tile bits: the grid has a border of one
 * tile (never FITS) so the search reads neighbours without bounds checks. */
static inline size_t cidx(const tn_path *pf, int x, int y)
{
    return (size_t)(y + 1) * (size_t)(pf->w + 2) + (size_t)(x + 1);
}

/* Rebuild the per-tile bits for a w x h box: FITS when no block in the box,
 * GROUND when a block or one-way lies under one of its columns, CEIL when a
 * block lies right above it (the box cannot move up).  O(W*H*w): per row,
 * whether columns x..x+w-1 are block-free and whether one of them is solid;
 * then per column a run of h block-free rows gives FITS, the solid bit of
 * the row below GROUND (the map's edges are solid) and the row above CEIL. */
static void build_cells(tn_path *pf, const tn_map *m, int cw, int ch)
{
    const int W = pf->w, H = pf->h;
    uint8_t *c = pf->cell;
    memset(c, 0, (size_t)(W + 2) * (size_t)(H + 2));
    for (int y = 0; y < H; y++) {
        const uint8_t *row = m->tile + (size_t)y * W;
        uint8_t *out = c + cidx(pf, 0, y);
        for (int x = 0; x < W; x++) {
            unsigned free = 1, solid = 0;
            if (x + cw > W) free = 0, solid = 1;
            for (int k = 0; k < cw && x + k < W; k++) {
                if (row[x + k] == TN_TILE_BLOCK) free = 0;
                if (row[x + k] != TN_TILE_EMPTY) solid = 1;
            }
            out[x] = (uint8_t)(free | (solid << 1));
        }
    }
    const size_t P = (size_t)W + 2;
    for (int x = 0; x < W; x++) {
        int run = 0;
        for (int y = 0; y < H; y++) { /* row y+1 still holds its row bits */
            uint8_t *p = &c[cidx(pf, x, y)];
            run = (*p & 1u) ? run + 1 : 0;
            bool below = y + 1 >= H || (p[P] & 2u);
            *p = (uint8_t)((run >= ch ? C_FITS : 0u) | (below ? C_GROUND : 0u));
        }
        for (int y = 0; y < H; y++) {
            uint8_t *p = &c[cidx(pf, x, y)];
            if ((*p & C_FITS) && (y == 0 || !(p[-(ptrdiff_t)P] & C_FITS))) *p |= C_CEIL;
        }
    }
}

static void ensure_cells(tn_path *pf, const tn_map *m, int cw, int ch)
{
    if (pf->cvalid && pf->cmap == m && pf->ctile == m->tile && pf->crev == m->revision &&
        pf->cw == cw && pf->ch == ch)
        return;
    build_cells(pf, m, cw, ch);
    pf->cmap = m;
    pf->ctile = m->tile;
    pf->crev = m->revision;
    pf->cw = cw;
    pf->ch = ch;
    pf->cvalid = true;
}

/* ---- the open list: a bucket queue ----------------------------------------
 * Costs and heuristic are small integers and the key of a state is never
 * below its parent's (the optimal heuristic is consistent; the fast one has
 * its keys raised to the parent's, the "pathmax" rule), so every open key
 * lies within [current, current + 14]: a ring of 32 buckets, each a LIFO
 * list (among equal keys the newest, deepest state goes first), gives O(1)
 * push and pop.  An improved state is pushed again (no decrease-key: the
 * large state array is touched only by the relaxation itself) and stale
 * entries are skipped when popped; pushes <= 1 + 4 x expansions bounds the
 * entry pool. */

static inline uint32_t sidx(const tn_path *pf, uint32_t xyj)
{
    uint32_t x = xyj & 0xfff, y = (xyj >> 12) & 0xfff, j = xyj >> 24;
    return j * (uint32_t)pf->w * (uint32_t)pf->h + (uint32_t)y * (uint32_t)pf->w + x;
}

#define NB 32u
#define NONE 0xffffffffu

static inline void bq_push(tn_path *pf, uint32_t f, uint32_t g, uint32_t xyj)
{
    uint32_t i = (uint32_t)pf->hn++, b = f & (NB - 1);
    hentry *e = &pf->heap[i];
    e->f = pf->bhead[b]; /* the link to the next entry of the bucket */
    e->g = g;
    e->xyj = xyj;
    pf->bhead[b] = i;
    pf->bcount++;
}

static inline hentry bq_pop(tn_path *pf)
{
    while (pf->bhead[pf->bcur & (NB - 1)] == NONE) pf->bcur++;
    uint32_t b = pf->bcur & (NB - 1), i = pf->bhead[b];
    hentry e = pf->heap[i];
    pf->bhead[b] = e.f;
    pf->bcount--;
    e.f = pf->bcur;
    return e;
}

/* ---- search ----------------------------------------------------------- */

static inline int iabs(int v) { return v < 0 ? -v : v; }

/* The states a query may expand: its max_expand, with 0 and anything
 * above the finder's limit (INT_MAX: "no limit", as tn_path_create takes
 * it) the finder's limit, which its queue and buffers are sized for. */
static inline int query_limit(const tn_path *pf, const tn_path_query *q)
{
    return q->max_expand > 0 && q->max_expand < pf->limit ? q->max_expand : pf->limit;
}

static int filter_path(const tn_path *pf, const tn_map *m, const tn_path_node *raw, int n,
                       tn_path_node *out, int cap, int *wanted);

/* The checking layer: INVALID_PARAM with a message for every bad argument,
 * a start or goal outside the map, a start or a goal the character does not
 * fit in.  Fills the per-tile bits for the character's size. */
static tn_status check_query(tn_path *pf, const tn_map *m, const tn_path_query *q,
                             const tn_path_node *out, int cap, tn_error *err)
{
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    if (!pf || !m || !q || !q->jump)
        return tn_error_set(err, bad, 0, 0, "path: no %s (NULL)",
                            !pf  ? "finder (pf)"
                            : !m ? "map"
                            : !q ? "query"
                                 : "jump model (q->jump)");
    if (m->w != pf->w || m->h != pf->h)
        return tn_error_set(err, bad, 0, 0, "path: map is %dx%d but the finder was made for %dx%d",
                            m->w, m->h, pf->w, pf->h);
    if (q->char_w < 1 || q->char_w > TN_MAX_BODY_W || q->char_h < 1 || q->char_h > TN_MAX_BODY_H)
        return tn_error_set(err, bad, 0, 0, "path: character size %dx%d is outside 1..%d x 1..%d",
                            q->char_w, q->char_h, TN_MAX_BODY_W, TN_MAX_BODY_H);
    const tn_jump_model *jm = q->jump;
    if (jm->max_jump < 1 || jm->max_jump > TN_PATH_MAX_JUMP || jm->fall != 2 * jm->max_jump ||
        jm->njump != jm->fall + 2 * (jm->depth_table + jm->period))
        return tn_error_set(err, bad, 0, 0,
                            "path: jump model not initialised (tn_jump_model_init)");
    if (jm->njump > pf->nj)
        return tn_error_set(
            err, bad, 0, 0,
            "path: jump model needs %d jump values, the finder has %d (other physics?)", jm->njump,
            pf->nj);
    if (!tn_map_inside(m, q->start_x, q->start_y))
        return tn_error_set(err, bad, 0, 0, "path: start (%d,%d) is outside the %dx%d map",
                            q->start_x, q->start_y, m->w, m->h);
    /* (only the pair explores: a goal computed off the map's left, -1 or
     * -3, once explored everything and said TN_OK with no path) */
    const bool explore = q->goal_x == TN_PATH_EXPLORE && q->goal_y == TN_PATH_EXPLORE;
    if (!explore && !tn_map_inside(m, q->goal_x, q->goal_y))
        return tn_error_set(err, bad, 0, 0, "path: goal (%d,%d) is outside the %dx%d map",
                            q->goal_x, q->goal_y, m->w, m->h);
    if (q->max_expand < 0) /* (above the finder's limit: lowered to it, query_limit) */
        return tn_error_set(err, bad, 0, 0, "path: max_expand %d is negative", q->max_expand);
    (void)out; /* NULL asks for the search alone, whatever cap is (as tn_surf_find) */
    if (cap < 0) return tn_error_set(err, bad, 0, 0, "path: buffer capacity %d is negative", cap);
    if (q->heuristic != TN_PATH_OPTIMAL && q->heuristic != TN_PATH_FAST)
        return tn_error_set(
            err, bad, 0, 0,
            "path: heuristic %d is neither TN_PATH_OPTIMAL (0) nor TN_PATH_FAST (1)", q->heuristic);
    if (q->start_jump < -1 || q->start_jump >= jm->njump)
        return tn_error_set(err, bad, 0, 0, "path: start jump value %d is outside -1..%d",
                            q->start_jump, jm->njump - 1);
    ensure_cells(pf, m, q->char_w, q->char_h);
    if (!(pf->cell[cidx(pf, q->start_x, q->start_y)] & C_FITS))
        return tn_error_set(err, bad, 0, 0, "path: a %dx%d character does not fit at (%d,%d)",
                            q->char_w, q->char_h, q->start_x, q->start_y);
    if (!explore && !(pf->cell[cidx(pf, q->goal_x, q->goal_y)] & C_FITS))
        return tn_error_set(err, bad, 0, 0,
                            "path: goal (%d,%d) is blocked: a %dx%d character does not fit there",
                            q->goal_x, q->goal_y, q->char_w, q->char_h);
    return TN_OK;
}

/* The jump model's transition tables: sideways allowed, the value after a
 * move up into plain air, after a move down into plain air. */
static void jump_tables(const tn_jump_model *jm, uint8_t *side_tab, uint8_t *up_tab,
                        uint8_t *down_tab)
{
    const int F = jm->fall;
    const int dwrap = jm->depth_table + jm->period; /* depths cycle D..D+P-1 */
    const int first_up = jm->side_up[1] || F <= 2 ? 2 : 3;
    for (int j = 0; j < jm->njump; j++) {
        side_tab[j] = (uint8_t)(j > 0 && side_ok(jm, j));
        int u = j == 0 ? first_up : ((j & 1) ? j + 1 : j + 2);
        up_tab[j] = (uint8_t)(u > F ? F : u);
        int d = j < F ? 1 : ((j - F) >> 1) + 1;
        if (d >= dwrap) d = jm->depth_table;
        down_tab[j] = (uint8_t)(F + 2 * d);
    }
}

/* The outcome of the core search. */
typedef struct search_result {
    bool found;
    uint32_t end;     /* the goal state, or the best partial one */
    tn_status detail; /* 0, TN_UNREACHABLE or TN_LIMIT_REACHED */
} search_result;

/* The core: A* (or exploration, goal TN_PATH_EXPLORE) over the (x, y, J) states
 * with the bucket queue; the query has been checked. */
/* A new search generation (states of older ones read as unvisited), the
 * explored box emptied, and the start state alone in the open list with
 * heuristic weight hw.  Returns the start state. */
static uint32_t begin_search(tn_path *pf, const tn_path_query *q, uint32_t hw)
{
    const tn_jump_model *jm = q->jump;
    const uint32_t sc = pf->cell[cidx(pf, q->start_x, q->start_y)];
    if (++pf->gen == 0) {
        for (size_t i = 0, n = (size_t)pf->w * pf->h * pf->nj; i < n; i++) pf->s[i].gen = 0;
        pf->gen = 1;
    }
    pf->last_nj = jm->njump;
    pf->bx0 = pf->w;
    pf->by0 = pf->h;
    pf->bx1 = pf->by1 = -1;

    int sj = q->start_jump >= 0 ? q->start_jump : ((sc & C_GROUND) ? 0 : jm->fall);
    if (sc & C_GROUND) sj = 0;
    const uint32_t sxyj = pack(q->start_x, q->start_y, sj);
    pstate *s0 = &pf->s[sidx(pf, sxyj)];
    s0->gen = pf->gen;
    s0->fl = 0;
    s0->pj = 0;
    s0->g = 0;
    pf->hn = 0;
    const uint32_t h0 =
        q->goal_x < 0
            ? 0
            : (uint32_t)(H_X * iabs(q->goal_x - q->start_x) + H_Y * iabs(q->goal_y - q->start_y));
    for (unsigned b = 0; b < NB; b++) pf->bhead[b] = NONE;
    pf->bcount = 0;
    pf->bcur = h0 * hw;
    bq_push(pf, h0 * hw, 0, sxyj);
    if (pf->trace) trace_event(pf->trace, TN_TRACE_OPEN, q->start_x, q->start_y, sj, 0, h0 * hw);
    return sxyj;
}

static search_result search(tn_path *pf, const tn_path_query *q)
{
    const tn_jump_model *jm = q->jump;
    const bool explore = q->goal_x < 0;
    const int W = pf->w;
    const uint8_t *cell = pf->cell;
    const int F = jm->fall;
    const int gx = q->goal_x, gy = q->goal_y;
    const uint32_t hw = explore ? 0 : (uint32_t)(q->heuristic == TN_PATH_FAST ? FAST_WEIGHT : 1);
    const int limit = query_limit(pf, q);
    uint8_t side_tab[256], up_tab[256], down_tab[256];
    jump_tables(jm, side_tab, up_tab, down_tab);
    const size_t P = (size_t)W + 2;
    const uint32_t plane = (uint32_t)W * (uint32_t)pf->h; /* states are J-major */
    const uint32_t sxyj = begin_search(pf, q, hw);
    const uint16_t gen = pf->gen;

    int expanded = 0;
    search_result r = {false, sxyj, 0};
    /* best partial: (not standing, distance, cost) smallest */
    uint32_t best = sxyj, best_key_a = 2, best_key_b = 0xffffffffu, best_key_c = 0xffffffffu;

    while (pf->bcount > 0) {
        if (expanded >= limit) {
            r.detail = TN_LIMIT_REACHED;
            break;
        }
        hentry e = bq_pop(pf);
        pstate *sp = &pf->s[sidx(pf, e.xyj)];
        if ((sp->fl & ST_CLOSED) || e.g != sp->g) continue; /* stale entry */
        sp->fl |= ST_CLOSED;
        expanded++;
        const int x = (int)(e.xyj & 0xfff), y = (int)((e.xyj >> 12) & 0xfff);
        const int j = (int)(e.xyj >> 24);
        if (x < pf->bx0) pf->bx0 = x;
        if (x > pf->bx1) pf->bx1 = x;
        if (y < pf->by0) pf->by0 = y;
        if (y > pf->by1) pf->by1 = y;
        const size_t ci = cidx(pf, x, y);
        const uint32_t here = cell[ci];
        const bool ground = (here & C_GROUND) != 0;
        if (pf->trace)
            trace_event(pf->trace, !explore && x == gx && y == gy ? TN_TRACE_GOAL : TN_TRACE_CLOSE,
                        x, y, j, e.g, e.f);
        if (!explore) {
            if (x == gx && y == gy) {
                r.found = true;
                r.end = e.xyj;
                break;
            }
            uint32_t ka = ground ? 0u : 1u;
            uint32_t kb = (uint32_t)(iabs(gx - x) + iabs(gy - y));
            if (ka < best_key_a ||
                (ka == best_key_a && (kb < best_key_b || (kb == best_key_b && e.g < best_key_c)))) {
                best = e.xyj;
                best_key_a = ka;
                best_key_b = kb;
                best_key_c = e.g;
            }
        }
        const uint32_t base = (uint32_t)(y * W + x);

/* Relax the move to (NX, NY) with jump value NJV, cost COST, move MV. */
#define RELAX(NX, NY, NJV, COST, MV, DT)                                                     \
    do {                                                                                     \
        const uint32_t nj_ = (uint32_t)(NJV), ng_ = e.g + (COST);                            \
        pstate *np_ = &pf->s[(uint32_t)((int32_t)base + (DT)) + nj_ * plane];                \
        if (np_->gen == gen && ((np_->fl & ST_CLOSED) || ng_ >= np_->g)) break;              \
        np_->gen = gen;                                                                      \
        np_->pj = (uint8_t)j;                                                                \
        np_->fl = (uint8_t)((MV) | ST_PARENT);                                               \
        np_->g = ng_;                                                                        \
        uint32_t f_ = ng_ + (uint32_t)(H_X * iabs(gx - (NX)) + H_Y * iabs(gy - (NY))) * hw;  \
        if (f_ < e.f) f_ = e.f; /* pathmax: keys never decrease */                           \
        bq_push(pf, f_, ng_, pack((NX), (NY), (int)nj_));                                    \
        if (pf->trace) trace_event(pf->trace, TN_TRACE_OPEN, (NX), (NY), (int)nj_, ng_, f_); \
    } while (0)

        /* sideways */
        if (ground || side_tab[j]) {
            for (int d = -1; d <= 1; d += 2) {
                const uint32_t nc = cell[(size_t)((ptrdiff_t)ci + d)];
                if (!(nc & C_FITS)) continue;
                const bool ng = (nc & C_GROUND) != 0;
                int nj;
                uint32_t cost;
                if (ground) {
                    nj = ng ? 0 : F + 1; /* walking, or walking off a ledge */
                    cost = ng ? COST_WALK : COST_AIR;
                } else {
                    /* falling: the body lands where its feet meet a floor, so it
                     * must be over a landing before reaching its level; only in
                     * the first tile of a fall is it slow enough */
                    if (ng && j >= F + 4) continue;
                    if (nc & C_CEIL) {
                        if (j < F) continue;                  /* rising into a ceiling */
                        if (ng && !(here & C_CEIL)) continue; /* exact-fit gap from the air */
                    }
                    nj = ng ? 0 : j + 1;
                    cost = COST_AIR;
                }
                RELAX(x + d, y, nj, cost, d < 0 ? MV_LEFT : MV_RIGHT, d);
            }
        }
        /* up (not while falling, not into a ceiling) */
        if (j < F && !(here & C_CEIL)) {
            const uint32_t nc = cell[ci - P];
            const int nj = (nc & C_GROUND) ? 0 : (nc & C_CEIL) ? F : up_tab[j];
            RELAX(x, y - 1, nj, COST_AIR + (ground ? COST_TAKEOFF : 0), MV_UP, -W);
        }
        /* down (from the ground: a drop through a one-way platform) */
        {
            const uint32_t nc = cell[ci + P];
            if (nc & C_FITS) {
                const int nj = (nc & C_GROUND) ? 0 : down_tab[j];
                RELAX(x, y + 1, nj, COST_AIR + (ground ? COST_DROP : 0), MV_DOWN, W);
            }
        }
#undef RELAX
    }
    pf->expanded = expanded;
    if (!explore && !r.found) {
        r.end = best;
        if (!r.detail) r.detail = TN_UNREACHABLE;
    }
    return r;
}

/* The parent of state c (which has one): undo the recorded move. */
static inline uint32_t parent_state(uint32_t c, const pstate *p)
{
    int x = (int)(c & 0xfff), y = (int)((c >> 12) & 0xfff);
    switch (p->fl & 3) {
    case MV_LEFT: x++; break;
    case MV_RIGHT: x--; break;
    case MV_UP: y++; break;
    default: y--; break;
    }
    return pack(x, y, p->pj);
}

/* Follow the parents from `end` back to the start and write the path into
 * pf->raw, start first; returns the number of nodes. */
static int reconstruct(tn_path *pf, uint32_t end)
{
    int n = 1;
    for (uint32_t c = end; pf->s[sidx(pf, c)].fl & ST_PARENT; n++)
        c = parent_state(c, &pf->s[sidx(pf, c)]);
    int i = n;
    for (uint32_t c = end;; c = parent_state(c, &pf->s[sidx(pf, c)])) {
        const int x = (int)(c & 0xfff), y = (int)((c >> 12) & 0xfff);
        tn_path_node *o = &pf->raw[--i];
        o->x = (int16_t)x;
        o->y = (int16_t)y;
        o->jump = (uint8_t)(c >> 24);
        o->flags = (pf->cell[cidx(pf, x, y)] & C_GROUND) ? TN_NODE_GROUND : 0;
        if (i == 0) break;
    }
    return n;
}

/* What a partial answer left out, in err (the status stays a success). */
static void partial_message(tn_error *err, tn_status s, const tn_path_query *q, int limit,
                            uint32_t end, int got, int wanted)
{
    if (!err) return;
    const int ex = (int)(end & 0xfff), ey = (int)((end >> 12) & 0xfff);
    char buf[96] = "";
    if (tn_status_detail(s, TN_BUFFER_TOO_SMALL))
        snprintf(buf, sizeof buf, "%sthe path has %d nodes, the buffer holds the first %d",
                 tn_status_detail(s, TN_UNREACHABLE | TN_LIMIT_REACHED) ? "; " : "", wanted, got);
    if (tn_status_detail(s, TN_UNREACHABLE))
        tn_error_set(err, s, 0, 0,
                     "path: goal (%d,%d) is unreachable; the path ends at (%d,%d), the "
                     "closest place reached%s",
                     q->goal_x, q->goal_y, ex, ey, buf);
    else if (tn_status_detail(s, TN_LIMIT_REACHED))
        tn_error_set(err, s, 0, 0,
                     "path: the search stopped at its limit of %d states before goal (%d,%d); "
                     "the path ends at (%d,%d), the closest place expanded%s",
                     limit, q->goal_x, q->goal_y, ex, ey, buf);
    else
        tn_error_set(err, s, 0, 0, "path: %s", buf);
}

tn_status tn_path_find(tn_path *pf, const tn_map *m, const tn_path_query *q, tn_path_node *out,
                       int cap, int *count, tn_path_stats *stats, tn_error *err)
{
    if (count) *count = 0;
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->cost = -1;
    }
    tn_status st = check_query(pf, m, q, out, cap, err);
    if (tn_failed(st)) return st;
    if (out && cap > 0 && !count) /* the nodes written would not be told */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "path: count is NULL but out is not (NULL for both: search alone)");
    if (!out) cap = 0;
    tn_error_clear(err);
    const search_result r = search(pf, q);
    if (stats) stats->expanded = pf->expanded;
    if (q->goal_x < 0) { /* exploration: no path; cut short by the limit, it says so */
        if (!r.detail) return TN_OK;
        const tn_status s = TN_SUCCESS | TN_PARTIAL_RESULT | TN_LIMIT_REACHED;
        const int lim = query_limit(pf, q);
        return tn_error_set(err, s, 0, 0,
                            "path: the exploration stopped at its limit of %d states: the "
                            "explored set is incomplete (raise %s)",
                            lim,
                            lim == pf->limit ? "the finder's limit, tn_path_create's max_expand"
                                             : "the query's max_expand");
    }

    const int n = reconstruct(pf, r.end);
    if (stats) {
        stats->raw_nodes = n;
        stats->cost = (int)pf->s[sidx(pf, r.end)].g;
        stats->end_x = (int)(r.end & 0xfff);
        stats->end_y = (int)((r.end >> 12) & 0xfff);
    }
    int wanted = n, got;
    if (q->raw) {
        got = n < cap ? n : cap;
        if (got > 0) memcpy(out, pf->raw, (size_t)got * sizeof *out);
    } else {
        got = filter_path(pf, m, pf->raw, n, out, cap, &wanted);
    }
    if (count) *count = got;
    tn_status s = TN_SUCCESS;
    if (r.detail) s |= TN_PARTIAL_RESULT | r.detail;
    if (out && got < wanted) s |= TN_PARTIAL_RESULT | TN_BUFFER_TOO_SMALL;
    if (s != TN_SUCCESS) partial_message(err, s, q, query_limit(pf, q), r.end, got, wanted);
    return s;
}

/* ---- post-filter ----------------------------------------------------------- */

static bool oneway_in_row(const tn_map *m, int x, int row, int w)
{
    for (int c = x; c < x + w; c++)
        if (tn_map_tile(m, c, row) == TN_TILE_ONEWAY) return true;
    return false;
}

static int filter_path(const tn_path *pf, const tn_map *m, const tn_path_node *raw, int n,
                       tn_path_node *out, int cap, int *wanted)
{
    const int cw = pf->cw;
    int k = 0, want = 0;
    int top = 0x7fff; /* highest row of the current air stretch */
    for (int i = 0; i < n; i++) {
        tn_path_node nd = raw[i];
        bool g = (nd.flags & TN_NODE_GROUND) != 0;
        bool keep = i == 0 || i == n - 1;
        if (!g && (i == 0 || (raw[i - 1].flags & TN_NODE_GROUND))) {
            /* a new air stretch: find its highest row */
            top = nd.y;
            for (int t = i; t < n && !(raw[t].flags & TN_NODE_GROUND); t++)
                if (raw[t].y < top) top = raw[t].y;
        }
        if (i > 0 && i < n - 1) {
            const tn_path_node *a = &raw[i - 1], *b = &raw[i + 1];
            bool ga = (a->flags & TN_NODE_GROUND) != 0, gb = (b->flags & TN_NODE_GROUND) != 0;
            if (g && !gb) nd.flags |= TN_NODE_TAKEOFF, keep = true;
            if (g && !ga) nd.flags |= TN_NODE_LANDING, keep = true;
            int dxi = nd.x - a->x, dyi = nd.y - a->y, dxo = b->x - nd.x, dyo = b->y - nd.y;
            if (!g && nd.y == top && (dyi < 0 || dyo > 0)) nd.flags |= TN_NODE_APEX, keep = true;
            if (dxi != dxo || dyi != dyo) {
                int cx = a->x + b->x - nd.x, cy = a->y + b->y - nd.y;
                bool corner_open = (dxi + dxo != 0 || dyi + dyo != 0) && tn_map_inside(m, cx, cy) &&
                                   (pf->cell[cidx(pf, cx, cy)] & C_FITS) &&
                                   !(pf->cell[cidx(pf, cx, cy)] & C_GROUND);
                if (!corner_open) nd.flags |= TN_NODE_TURN, keep = true;
                /* in the air, where a sideways move starts after a vertical
                 * one: the follower's cue to start moving across */
                if (!g && dyi != 0 && dxo != 0) keep = true;
            }
            /* crossing a one-way platform vertically */
            if ((dyo > 0 && oneway_in_row(m, nd.x, nd.y + 1, cw)) ||
                (dyo < 0 && oneway_in_row(m, nd.x, nd.y, cw)) ||
                (g && oneway_in_row(m, nd.x, nd.y + 1, cw) && dyo != 0)) {
                nd.flags |= TN_NODE_ONEWAY;
                keep = true;
            }
        }
        if (!keep) continue;
        want++;
        if (k < cap) out[k++] = nd;
    }
    *wanted = want;
    return k;
}

/* ---- last-search accessors ------------------------------------------------ */

int tn_path_explored_at(const tn_path *pf, int x, int y)
{
    if (!pf || x < 0 || y < 0 || x >= pf->w || y >= pf->h || pf->bx1 < pf->bx0) return 0;
    const size_t plane = (size_t)pf->w * pf->h;
    const pstate *s = &pf->s[(size_t)y * pf->w + x];
    int n = 0;
    for (int j = 0; j < pf->last_nj; j++)
        if (s[j * plane].gen == pf->gen && (s[j * plane].fl & ST_CLOSED)) n++;
    return n;
}

bool tn_path_explored_bounds(const tn_path *pf, int *x0, int *y0, int *x1, int *y1)
{
    if (!pf || pf->bx1 < pf->bx0) return false;
    if (x0) *x0 = pf->bx0;
    if (y0) *y0 = pf->by0;
    if (x1) *x1 = pf->bx1;
    if (y1) *y1 = pf->by1;
    return true;
}

bool tn_path_state_cost(const tn_path *pf, int x, int y, int j, int *cost)
{
    if (!pf || x < 0 || y < 0 || x >= pf->w || y >= pf->h || j < 0 || j >= pf->nj) return false;
    const pstate *s = &pf->s[(size_t)j * pf->w * pf->h + (size_t)y * pf->w + x];
    if (s->gen != pf->gen || !(s->fl & ST_CLOSED)) return false;
    if (cost) *cost = (int)s->g;
    return true;
}
