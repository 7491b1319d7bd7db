/* The agents part: see tn_wagents.h. */
#include "tn_wagents.h"
#include "tn_world_impl.h"
#include "tn_wparts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tn_wenemies.h"
#include "tn_wnav.h"

#define T ((float)TN_TILE_PX)
#define RNG_STREAM 0x6167656e7473ULL    /* "agents" */
#define WANDER_STREAM 0x77616e646572ULL /* "wander" */

static tn_wagents *agents_of(tn_world *w) { return (tn_wagents *)w->agents; }

void tn_wagents_target(const tn_world *w, float *x, float *y)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (s && s->custom_target) {
        *x = s->target_x;
        *y = s->target_y;
    } else {
        tn_world_character_center(w, x, y);
    }
}

/* ---- items ---------------------------------------------------------------------- */

static bool items_reserve(tn_world *w, tn_wagents *s, int n)
{
    if (n <= s->items_cap) return true;
    int cap = s->items_cap ? s->items_cap : 16;
    while (cap < n) cap *= 2;
    float *a = tn_alloc_array(&w->alloc, 2 * (size_t)cap, sizeof *a);
    if (!a) return false;
    if (s->nitems) memcpy(a, s->items, sizeof *a * 2 * (size_t)s->nitems);
    tn_free(&w->alloc, s->items);
    s->items = a;
    s->items_cap = cap;
    return true;
}

static int item_index(const tn_wagents *s, int x, int y)
{
    float cx = ((float)x + 0.5f) * T, cy = ((float)y + 0.5f) * T;
    for (int i = 0; i < s->nitems; i++)
        if (s->items[2 * i] == cx && s->items[2 * i + 1] == cy) return i;
    return -1;
}

static void item_remove(tn_wagents *s, int i)
{
    s->nitems--;
    s->items[2 * i] = s->items[2 * s->nitems];
    s->items[2 * i + 1] = s->items[2 * s->nitems + 1];
}

/* Tile (x, y) changed: add or drop its item. */
static void items_update(tn_world *w, tn_wagents *s, int x, int y)
{
    int i = item_index(s, x, y);
    bool item = tn_world_item_here(w, x, y);
    if (item && i < 0 && items_reserve(w, s, s->nitems + 1)) {
        s->items[2 * s->nitems] = ((float)x + 0.5f) * T;
        s->items[2 * s->nitems + 1] = ((float)y + 0.5f) * T;
        s->nitems++;
    } else if (!item && i >= 0) {
        item_remove(s, i);
    }
}

static bool items_scan(tn_world *w, tn_wagents *s)
{
    const tn_map *m = w->map;
    s->nitems = 0;
    if (!items_reserve(w, s, tn_map_count_marks(m, TN_MARK_ITEM))) return false;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++)
            if (tn_world_item_here(w, x, y)) {
                s->items[2 * s->nitems] = ((float)x + 0.5f) * T;
                s->items[2 * s->nitems + 1] = ((float)y + 0.5f) * T;
                s->nitems++;
            }
    return true;
}

/* ---- placement -------------------------------------------------------------------- */

static void place_companion(tn_world *w, tn_wagents *s)
{
    float cx, cy;
    tn_world_character_center(w, &cx, &cy);
    float half = s->cparams.half;
    /* Beside the character's head, either side, else wherever is nearest. */
    const float try_xy[3][2] = {{-20.0f, -20.0f}, {20.0f, -20.0f}, {0.0f, 0.0f}};
    float x = cx, y = cy;
    for (int i = 0; i < 3; i++) {
        x = cx + try_xy[i][0];
        y = cy + try_xy[i][1];
        if (tn_steer_box_free(w->map, x, y, half) && tn_wnav_los(w, x, y, cx, cy)) break;
    }
    s->has_companion = tn_steer_unstick(w->map, half, &x, &y, tn_maxi(w->map->w, w->map->h));
    int items = s->companion.items;
    tn_companion_init(&s->companion, x, y, 0);
    s->companion.items = items;
    /* what it sees until its first step looks (the HUD, JSON and inspect card
     * of a world made or reset while paused said "lost sight" beside the
     * character); the step still tests first (look_now), so play is unchanged */
    s->companion.sees = tn_wnav_los(w, x, y, cx, cy);
}

/* One of the region's free tile centres within R tiles of the target (and,
 * when ring, 6..R tiles from it, as wanderer_spot's tries), drawn uniformly
 * (a bounded pass on any map: count, then find the drawn one). */
static bool spot_near_target(tn_world *w, tn_wagents *s, float tx, float ty, int region, int R,
                             bool ring, float *ox, float *oy)
{
    const tn_map *m = w->map;
    const tn_navmesh *mesh = tn_wnav_mesh(w);
    float half = s->wparams.half + 1.0f;
    const int cx = (int)floorf(tx / T), cy = (int)floorf(ty / T);
    const int x0 = tn_maxi(0, cx - R), x1 = tn_mini(m->w - 1, cx + R);
    const int y0 = tn_maxi(0, cy - R), y1 = tn_mini(m->h - 1, cy + R);
    for (int pass = 0, count = 0, pick = -1; pass < 2; pass++) {
        if (pass == 1) {
            if (count == 0) return false;
            pick = (int)tn_rng_below(&s->rng, (uint32_t)count);
            count = 0;
        }
        for (int j = y0; j <= y1; j++)
            for (int i = x0; i <= x1; i++) {
                float x = ((float)i + 0.5f) * T, y = ((float)j + 0.5f) * T;
                if (!tn_steer_box_free(m, x, y, half)) continue;
                if (region >= 0 && tn_navmesh_region_at(mesh, x, y) != region) continue;
                const float d = tn_len(x - tx, y - ty) / T;
                if (ring && (d < 6.0f || d > (float)R)) continue;
                if (count++ == pick) {
                    *ox = x;
                    *oy = y;
                    return true;
                }
            }
    }
    return false;
}

/* A spot for a new wanderer: free, in the target's region, 6..20 tiles from
 * the target when the map allows. */
static bool wanderer_spot(tn_world *w, tn_wagents *s, float tx, float ty, float *ox, float *oy)
{
    const tn_map *m = w->map;
    const tn_navmesh *mesh = tn_wnav_mesh(w);
    int region = mesh ? tn_navmesh_region_at(mesh, tx, ty) : -1;
    float half = s->wparams.half + 1.0f;
    for (int k = 0; k < 400; k++) {
        float x = tn_rng_range(&s->rng, 0.0f, (float)m->w * T);
        float y = tn_rng_range(&s->rng, 0.0f, (float)m->h * T);
        if (!tn_steer_box_free(m, x, y, half)) continue;
        if (region >= 0 && tn_navmesh_region_at(mesh, x, y) != region) continue;
        float d = tn_len(x - tx, y - ty) / T;
        if (d < 6.0f || d > 20.0f) continue;
        *ox = x;
        *oy = y;
        return true;
    }
    /* 400 random tries over the whole map miss the tiles 6..20 from the
     * target of a big map (0.1% of a 1024x1024 one: wanderers were put
     * anywhere in its region, a mean of 686 tiles from the character, a
     * playtest found) and a small region (a walled-off room of 13x8 tiles
     * is 3% of the demo map; the world then said "only 0 of 1 wanderers
     * found room near their target" beside a room with space for several):
     * one of the region's free tile centres 6..20 tiles from the target,
     * then any within 64, and only then anywhere in the region */
    if (spot_near_target(w, s, tx, ty, region, 20, true, ox, oy)) return true;
    if (spot_near_target(w, s, tx, ty, region, 64, false, ox, oy)) return true;
    for (int k = 0; k < 200; k++) {
        float x = tn_rng_range(&s->rng, 0.0f, (float)m->w * T);
        float y = tn_rng_range(&s->rng, 0.0f, (float)m->h * T);
        if (!tn_steer_box_free(m, x, y, half)) continue;
        if (region >= 0 && tn_navmesh_region_at(mesh, x, y) != region) continue;
        *ox = x;
        *oy = y;
        return true;
    }
    return false;
}

static int set_wanderers(tn_world *w, tn_wagents *s, int n)
{
    if (n < s->nwanderers) s->nwanderers = n;
    float tx, ty;
    tn_wagents_target(w, &tx, &ty);
    while (s->nwanderers < n) {
        float x, y;
        if (!wanderer_spot(w, s, tx, ty, &x, &y)) break;
        float heading = tn_rng_range(&s->rng, -3.14159265f, 3.14159265f);
        s->wid[s->nwanderers] = s->serial + 1;
        tn_wanderer_init(&s->wanderers[s->nwanderers], x, y, heading, tx, ty, w->seed,
                         WANDER_STREAM + s->serial++);
        s->nwanderers++;
    }
    return s->nwanderers;
}

/* ---- hooks ------------------------------------------------------------------------ */

void tn_wagents_destroy(tn_world *w)
{
    tn_wagents *s = agents_of(w);
    if (!s) return;
    tn_grid_destroy(s->grid);
    tn_free(&w->alloc, s->enemy_xy);
    tn_free(&w->alloc, s->items);
    tn_free(&w->alloc, s);
    w->agents = NULL;
}

tn_status tn_wagents_create(tn_world *w, tn_error *err)
{
    tn_wagents *s = tn_alloc(&w->alloc, sizeof *s);
    if (!s) return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "agents: out of memory");
    w->agents = (struct tn_wagents *)s;
    s->cparams = tn_companion_default_params();
    s->wparams = tn_wander_default_params();
    /* The world's parameter defaults (tn_world.c's table). */
    s->cparams.max_speed = (float)((tn_param_info)TN_WAGENTS_PARAM_COMPANION_SPEED).def;
    s->cparams.follow_outer = (float)((tn_param_info)TN_WAGENTS_PARAM_FOLLOW_DISTANCE).def * T;
    s->cparams.follow_inner = 0.5f * s->cparams.follow_outer;
    s->wparams.bias = (float)((tn_param_info)TN_WAGENTS_PARAM_BIAS).def;
    s->wparams.smoothness = (float)((tn_param_info)TN_WAGENTS_PARAM_SMOOTHNESS).def;
    /* the world's wanderers roam around their target instead of piling onto
     * it (three tiles: they stay readable, each on its own) */
    s->wparams.arrive_radius = 3.0f * T;
    tn_rng_seed(&s->rng, w->seed, RNG_STREAM);
    s->enemy_cap = tn_wenemies_capacity(w);
    s->enemy_xy = tn_alloc_array(&w->alloc, 2 * (size_t)s->enemy_cap, sizeof *s->enemy_xy);
    tn_grid_create(0.0f, 0.0f, (float)w->map->w * T, (float)w->map->h * T,
                   s->cparams.separation_radius, s->enemy_cap, &w->alloc, &s->grid, err);
    if (!s->enemy_xy || !s->grid || !items_scan(w, s)) {
        tn_wagents_destroy(w);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "agents: out of memory");
    }
    place_companion(w, s);
    set_wanderers(w, s, (int)((tn_param_info)TN_WAGENTS_PARAM_WANDERERS).def);
    return TN_OK;
}

void tn_wagents_step(tn_world *w)
{
    tn_wagents *s = agents_of(w);
    if (!s) return;
    tn_agent_nav nav = tn_wnav_agent_nav(w);
    float dt = w->phys.dt;

    /* Enemies into the grid. */
    int ne = tn_wenemies_positions(w, s->enemy_xy, s->enemy_cap);
    tn_grid_build(s->grid, s->enemy_xy, ne, NULL); /* ne <= enemy_cap = the grid's cap */

    /* The companion. */
    tn_companion_env e;
    e.map = w->map;
    e.nav = &nav;
    tn_world_character_center(w, &e.char_x, &e.char_y);
    e.char_vx = w->character.vx;
    e.char_vy = w->character.vy;
    e.char_hw = 0.5f * (float)w->character.w * T;
    e.char_hh = 0.5f * (float)w->character.h * T;
    e.neighbours = ne > 0 ? s->grid : NULL;
    e.self_id = -1;
    e.items = s->items;
    e.nitems = s->nitems;
    e.dt = dt;
    s->cparams.path_radius = tn_wnav_agent_radius(w);
    int got = s->has_companion ? tn_companion_step(&s->companion, &s->cparams, &e) : -1;
    if (got >= 0) {
        int tx = (int)floorf(s->items[2 * got] / T), ty = (int)floorf(s->items[2 * got + 1] / T);
        tn_world_take_item(w, tx, ty);
        item_remove(s, got);
    }
    s->neighbours = 0;
    if (ne > 0 && s->has_companion) {
        float sx, sy;
        s->neighbours = tn_grid_separation(s->grid, s->companion.x, s->companion.y,
                                           s->cparams.separation_radius, -1, &sx, &sy);
    }

    /* The wanderers. */
    if (s->nwanderers > 0) {
        float tx, ty;
        tn_wagents_target(w, &tx, &ty);
        for (int i = 0; i < s->nwanderers; i++) tn_wanderer_set_target(&s->wanderers[i], tx, ty);
        tn_wander_env we_ = {w->map, &nav, dt};
        tn_wander_step(s->wanderers, s->nwanderers, &s->wparams, &we_);
    }
}

/* Near tile (x, y): within reach of any of its waypoints' segments. */
static bool wanderer_near(const tn_wanderer *a, int x, int y)
{
    float lo_x = a->x, hi_x = a->x, lo_y = a->y, hi_y = a->y;
    for (int i = 0; i < 4; i++) {
        lo_x = tn_minf(lo_x, a->wp[2 * i]);
        hi_x = tn_maxf(hi_x, a->wp[2 * i]);
        lo_y = tn_minf(lo_y, a->wp[2 * i + 1]);
        hi_y = tn_maxf(hi_y, a->wp[2 * i + 1]);
    }
    /* The spline stays near the waypoints' box; a tile of margin. */
    return (float)(x + 1) * T >= lo_x - 2 * T && (float)x * T <= hi_x + 2 * T &&
           (float)(y + 1) * T >= lo_y - 2 * T && (float)y * T <= hi_y + 2 * T;
}

void tn_wagents_on_edit(tn_world *w, int x, int y)
{
    tn_wagents *s = agents_of(w);
    if (!s) return;
    const tn_map *m = w->map;
    int far = tn_maxi(m->w, m->h);
    if (x < 0)
        items_scan(w, s);
    else
        items_update(w, s, x, y);
    bool whole = x < 0, block = !whole && tn_map_tile(m, x, y) == TN_TILE_BLOCK;

    /* The companion: out of the block, and paths planned again. */
    tn_companion *c = &s->companion;
    if (!s->has_companion) {
        place_companion(w, s); /* the map had no room for it before */
    } else if (!tn_steer_box_free(m, c->x, c->y, s->cparams.half)) {
        s->has_companion = tn_steer_unstick(m, s->cparams.half, &c->x, &c->y, far);
        c->vx = c->vy = 0.0f;
    }
    if (c->state != TN_COMPANION_FOLLOW) tn_companion_reset(c);

    /* Wanderers: out of the block (or gone, when the map has no room left);
     * walks near the edit start again. */
    for (int i = 0; i < s->nwanderers; i++) {
        tn_wanderer *a = &s->wanderers[i];
        bool stuck = !tn_steer_box_free(m, a->x, a->y, s->wparams.half);
        if (stuck && !tn_steer_unstick(m, s->wparams.half, &a->x, &a->y, far)) {
            s->nwanderers--;
            s->wid[i] = s->wid[s->nwanderers];
            s->wanderers[i--] = s->wanderers[s->nwanderers];
            continue;
        }
        if (stuck || whole || (block && wanderer_near(a, x, y))) tn_wanderer_restart(a);
    }

    /* A placed target that a block now covers moves to the nearest free point. */
    if (s->custom_target && !tn_steer_box_free(m, s->target_x, s->target_y, s->wparams.half))
        tn_steer_unstick(m, s->wparams.half, &s->target_x, &s->target_y, far);
}

/* ---- parameters ---- */

#define AGENTS_OF_OR_FAIL(s, w, err) \
    tn_wagents *s = agents_of(w);    \
    if (!s) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "agents: not created")

/* The world's table checks its ranges before calling these; a direct call
 * is checked here the same way (and the parameters the value makes by the
 * modules' own rules), so nothing out of range reaches a step. */
static tn_status param_range(const char *name, double value, double lo, double hi, bool integer,
                             tn_error *err)
{
    if (value >= lo && value <= hi && (!integer || value == floor(value))) return TN_OK;
    return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "%s %g is outside %g..%g%s", name,
                        value, lo, hi, integer ? " (whole numbers)" : "");
}

#define PARAM_RANGE(info, value, err)                                                     \
    do {                                                                                  \
        tn_param_info pi_ = info;                                                         \
        tn_status st_ = param_range(pi_.name, value, pi_.min, pi_.max, pi_.integer, err); \
        if (tn_failed(st_)) return st_;                                                   \
    } while (0)

tn_status tn_wagents_set_companion_speed(tn_world *w, double value, tn_error *err)
{
    AGENTS_OF_OR_FAIL(s, w, err);
    PARAM_RANGE((tn_param_info)TN_WAGENTS_PARAM_COMPANION_SPEED, value, err);
    tn_companion_params p = s->cparams;
    p.max_speed = (float)value;
    tn_status st = tn_companion_validate(&p, err);
    if (tn_succeeded(st)) s->cparams = p;
    return st;
}

tn_status tn_wagents_set_follow_distance(tn_world *w, double value, tn_error *err)
{
    AGENTS_OF_OR_FAIL(s, w, err);
    PARAM_RANGE((tn_param_info)TN_WAGENTS_PARAM_FOLLOW_DISTANCE, value, err);
    tn_companion_params p = s->cparams;
    p.follow_outer = (float)value * T;
    p.follow_inner = 0.5f * p.follow_outer;
    tn_status st = tn_companion_validate(&p, err);
    if (tn_succeeded(st)) s->cparams = p;
    return st;
}

tn_status tn_wagents_set_bias(tn_world *w, double value, tn_error *err)
{
    AGENTS_OF_OR_FAIL(s, w, err);
    PARAM_RANGE((tn_param_info)TN_WAGENTS_PARAM_BIAS, value, err);
    tn_wander_params p = s->wparams;
    p.bias = (float)value;
    tn_status st = tn_wander_validate(&p, err);
    if (tn_succeeded(st)) s->wparams = p;
    return st;
}

tn_status tn_wagents_set_smoothness(tn_world *w, double value, tn_error *err)
{
    AGENTS_OF_OR_FAIL(s, w, err);
    PARAM_RANGE((tn_param_info)TN_WAGENTS_PARAM_SMOOTHNESS, value, err);
    tn_wander_params p = s->wparams;
    p.smoothness = (float)value;
    tn_status st = tn_wander_validate(&p, err);
    if (tn_succeeded(st)) s->wparams = p;
    return st;
}

tn_status tn_wagents_set_wanderers(tn_world *w, double value, tn_error *err)
{
    AGENTS_OF_OR_FAIL(s, w, err);
    /* at most the fixed array (a bigger count wrote past it) */
    PARAM_RANGE((tn_param_info)TN_WAGENTS_PARAM_WANDERERS, value, err);
    int want = (int)value, got = set_wanderers(w, s, want);
    if (got < want)
        tn_world_message(w, "only %d of %d wanderers found room near their target", got, want);
    tn_error_clear(err);
    return TN_OK;
}

bool tn_wagents_get_companion_speed(const tn_world *w, double *value)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (s) *value = s->cparams.max_speed;
    return s != NULL;
}

bool tn_wagents_get_follow_distance(const tn_world *w, double *value)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (s) *value = s->cparams.follow_outer / T;
    return s != NULL;
}

bool tn_wagents_get_bias(const tn_world *w, double *value)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (s) *value = s->wparams.bias;
    return s != NULL;
}

bool tn_wagents_get_smoothness(const tn_world *w, double *value)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (s) *value = s->wparams.smoothness;
    return s != NULL;
}

bool tn_wagents_get_wanderers(const tn_world *w, double *value)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (s) *value = s->nwanderers;
    return s != NULL;
}

tn_status tn_wagents_click(tn_world *w, int x, int y, tn_tool tool, tn_error *err)
{
    tn_wagents *s = agents_of(w);
    if (!s || tool != TN_TOOL_TARGET)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "agents: not my tool");
    if (s->custom_target && x == s->target_tx && y == s->target_ty) {
        s->custom_target = false;
        tn_world_message(w, "wanderers: the target is the character again");
        return TN_OK;
    }
    float tx = ((float)x + 0.5f) * T, ty = ((float)y + 0.5f) * T;
    if (!tn_steer_box_free(w->map, tx, ty, s->wparams.half) &&
        !tn_steer_unstick(w->map, s->wparams.half, &tx, &ty, tn_maxi(w->map->w, w->map->h)))
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                            "no free space on this map for the wanderers' target");
    s->custom_target = true;
    s->target_x = tx;
    s->target_y = ty;
    s->target_tx = x;
    s->target_ty = y;
    /* say what the click did: with no wanderer (the default) nothing else
     * shows it */
    int ax = (int)floorf(tx / T), ay = (int)floorf(ty / T);
    char at[48] = "";
    if (ax != x || ay != y) snprintf(at, sizeof at, " (moved off the block to (%d,%d))", ax, ay);
    /* wanderers in another navmesh region than the target (a walled-off
     * room) never get there: they go to the closest place their paths reach,
     * so "drift there" would not be true of them */
    const tn_navmesh *mesh = tn_wnav_mesh(w);
    int region = mesh ? tn_navmesh_region_at(mesh, tx, ty) : -1, cut = 0;
    for (int i = 0; region >= 0 && i < s->nwanderers; i++) {
        int r = tn_navmesh_region_at(mesh, s->wanderers[i].x, s->wanderers[i].y);
        if (r >= 0 && r != region) cut++;
    }
    const int n = s->nwanderers, in = n - cut;
    const double roam = (double)(s->wparams.arrive_radius / T);
    if (n == 0)
        tn_world_message(w, "wanderers' target: (%d,%d)%s; no wanderers yet: M adds one", x, y, at);
    else if (cut == 0)
        tn_world_message(w,
                         "wanderers' target: (%d,%d)%s: %d wanderer%s there and roam%s within "
                         "%.0f tiles (click it again: the character)",
                         x, y, at, n, n == 1 ? " drifts" : "s drift", n == 1 ? "s" : "", roam);
    else if (in == 0)
        tn_world_message(
            w,
            "wanderers' target: (%d,%d)%s is walled off from %s %d wanderer%s (another "
            "navmesh region): %s as close as %s can (click it again: the character)",
            x, y, at, n == 1 ? "the" : "all", n, n == 1 ? "" : "s", n == 1 ? "it goes" : "they go",
            n == 1 ? "it" : "they");
    else
        tn_world_message(w,
                         "wanderers' target: (%d,%d)%s: %d wanderer%s there and roam%s within "
                         "%.0f tiles; %d, walled off from it (another navmesh region), go%s as "
                         "close as %s can (click it again: the character)",
                         x, y, at, in, in == 1 ? " drifts" : "s drift", in == 1 ? "s" : "", roam,
                         cut, cut == 1 ? "es" : "", cut == 1 ? "it" : "they");
    return TN_OK;
}

static float mean_distance_tiles(const tn_wagents *s)
{
    if (s->nwanderers == 0) return 0.0f;
    double sum = 0.0;
    for (int i = 0; i < s->nwanderers; i++) {
        const tn_wanderer *a = &s->wanderers[i];
        sum += tn_len(a->tx - a->x, a->ty - a->y);
    }
    return (float)(sum / s->nwanderers / T);
}

int tn_wagents_json(const tn_world *w, char *buf, size_t cap)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (!s) return 0;
    const tn_companion *c = &s->companion;
    return snprintf(buf, cap,
                    ",\"companion\":{\"state\":\"%s\",\"x\":%.2f,\"y\":%.2f,"
                    "\"sees_character\":%s,\"items\":%d}"
                    ",\"wanderers\":{\"count\":%d,\"mean_distance\":%.2f}",
                    tn_companion_state_name(c->state), (double)c->x, (double)c->y,
                    c->sees ? "true" : "false", c->items, s->nwanderers,
                    (double)mean_distance_tiles(s));
}

int tn_wagents_hud(const tn_world *w, char *buf, size_t cap)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (!s) return 0;
    const tn_companion *c = &s->companion;
    int n = snprintf(buf, cap, "companion: %s, %s, items %d", tn_companion_state_name(c->state),
                     c->sees ? "sees the character" : "lost sight", c->items);
    if (s->nwanderers > 0) {
        char more[128];
        int k = snprintf(more, sizeof more, " | wanderers %d: mean %.1f tiles from %s",
                         s->nwanderers, (double)mean_distance_tiles(s),
                         s->custom_target ? "the target" : "the character");
        if (n >= 0 && (size_t)n < cap) snprintf(buf + n, cap - (size_t)n, "%s", more);
        n += k;
    }
    return n;
}

/* ---- drawing ---------------------------------------------------------------------- */

#define COL_COMPANION 0x4fd8ffffu
#define COL_COMPANION_EDGE 0xf4fbffffu
#define COL_SEARCH 0xffd040ffu
#define COL_FETCH 0xc090ffffu
#define COL_WANDERER 0x9be15dffu
#define COL_WANDERER_EDGE 0x1c3212ffu

static void draw_spline(const tn_debug_draw *dd, const tn_wander_seg *seg, uint32_t col)
{
    float px, py;
    tn_wander_seg_point(seg, 0.0f, &px, &py);
    for (int k = 1; k <= 16; k++) {
        float x, y;
        tn_wander_seg_point(seg, (float)k / 16.0f, &x, &y);
        tn_dd_line(dd, px, py, x, y, col);
        px = x;
        py = y;
    }
}

/* Where the companion's state label goes (its top-left, world pixels):
 * above right of the disc, else above left, else above the disc and the
 * character, else under the disc: the first place its text stays off the
 * character's box, on the map when one is (it covered the character
 * whenever the companion followed at its left, the usual place).  The label is the front end's
 * 12 px monospaced text at every zoom (DejaVu Sans Mono: 7.2 px a
 * character, 14 px a line; LABEL_ADVANCE and LABEL_HEIGHT round up), so
 * its size in world pixels is that over `scale` (0: unknown, taken as 1). */
#define LABEL_ADVANCE 7.5f
#define LABEL_HEIGHT 15.0f
static void label_place(const tn_world *w, const tn_companion *c, float half, const char *text,
                        float scale, float *lx, float *ly)
{
    const float sc = scale > 0.0f ? scale : 1.0f;
    const float tw = (float)strlen(text) * LABEL_ADVANCE / sc, th = LABEL_HEIGHT / sc;
    const float gap = 3.0f / sc;
    const tn_body *b = &w->character;
    const float bx0 = b->x, by0 = b->y, bx1 = b->x + (float)b->w * T, by1 = b->y + (float)b->h * T;
    const float top = c->y - half - 10.0f; /* the label's usual height, over the disc */
    /* the disc as drawn (draw_companion: 3 px at least, and its rim): a
     * label centred over or under it keeps off it (centred at the usual
     * height, the text's 15 px line covered the disc's top) */
    const float rd = fmaxf(half, 3.0f / sc), rim = rd + 1.5f + (rd - half) * 0.3f;
    const float above = fminf(c->y - rim - gap - th, by0 - th - gap);
    const float mw = (float)w->map->w * T, mh = (float)w->map->h * T;
    /* centred over or under the disc, moved along to stay on the map */
    const float mid = fmaxf(0.0f, fminf(c->x - 0.5f * tw, mw - tw));
    const float cand[4][2] = {
        {c->x + half + 3.0f, top},     /* above right (the usual place) */
        {c->x - half - gap - tw, top}, /* above left */
        {mid, above},                  /* above the disc and the character */
        {mid, c->y + rim + gap},       /* under the disc */
    };
    /* first on the map (by the map's left edge, above left went off it, over
     * the window's margin), then anywhere */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < 4; k++) {
            const float x0 = cand[k][0], y0 = cand[k][1];
            const bool on_map = x0 >= 0 && y0 >= 0 && x0 + tw <= mw && y0 + th <= mh;
            if ((on_map || pass) && (x0 + tw <= bx0 || x0 >= bx1 || y0 + th <= by0 || y0 >= by1)) {
                *lx = x0, *ly = y0;
                return;
            }
        }
    *lx = cand[0][0], *ly = cand[0][1]; /* (no place off it: the usual one) */
}

static void draw_companion(const tn_world *w, const tn_wagents *s, const tn_debug_draw *dd,
                           float rmin, float scale, unsigned overlays)
{
    const tn_companion *c = &s->companion;
    const tn_companion_params *p = &s->cparams;
    if (overlays & TN_OVERLAY_COMPANION) {
        float cx, cy, ax, ay;
        tn_world_character_center(w, &cx, &cy);
        tn_companion_env e = {0};
        e.map = w->map;
        e.char_x = cx;
        e.char_y = cy;
        tn_companion_anchor(p, &e, &ax, &ay);
        tn_dd_circle(dd, ax, ay, p->follow_inner, 0x4fd8ff60u, false);
        tn_dd_circle(dd, ax, ay, p->follow_outer, 0x4fd8ffb0u, false);
        tn_dd_circle(dd, c->x, c->y, p->separation_radius, 0xe8553a50u, false);
        tn_dd_line(dd, c->x, c->y, cx, cy, c->sees ? 0x60ff60c0u : 0xff4040c0u);
        float r = 3.0f;
        tn_dd_line(dd, c->seen_x - r, c->seen_y - r, c->seen_x + r, c->seen_y + r, COL_SEARCH);
        tn_dd_line(dd, c->seen_x - r, c->seen_y + r, c->seen_x + r, c->seen_y - r, COL_SEARCH);
        if (c->state != TN_COMPANION_FOLLOW) {
            uint32_t col = c->state == TN_COMPANION_FETCH ? COL_FETCH : COL_SEARCH;
            float px = c->x, py = c->y;
            for (int i = c->path_i; i < c->path_n; i++) {
                tn_dd_line(dd, px, py, c->path[2 * i], c->path[2 * i + 1], col);
                tn_dd_circle(dd, c->path[2 * i], c->path[2 * i + 1], 2.0f, col, true);
                px = c->path[2 * i];
                py = c->path[2 * i + 1];
            }
        }
        float lx, ly;
        label_place(w, c, p->half, tn_companion_state_name(c->state), scale, &lx, &ly);
        tn_dd_text(dd, lx, ly, tn_companion_state_name(c->state), COL_COMPANION);
    }
    /* A disc with a bright rim; the rim tells the state. */
    uint32_t rim = c->state == TN_COMPANION_SEARCH  ? COL_SEARCH
                   : c->state == TN_COMPANION_FETCH ? COL_FETCH
                                                    : COL_COMPANION_EDGE;
    const float r = fmaxf(p->half, rmin);
    tn_dd_circle(dd, c->x, c->y, r + 1.5f + (r - p->half) * 0.3f, rim, true);
    tn_dd_circle(dd, c->x, c->y, r, COL_COMPANION, true);
}

static void draw_wanderers(const tn_world *w, const tn_wagents *s, const tn_debug_draw *dd,
                           float rmin, unsigned overlays)
{
    const float half = s->wparams.half;
    if (overlays & TN_OVERLAY_WANDERERS && s->nwanderers > 0) {
        for (int i = 0; i < s->nwanderers; i++) {
            const tn_wanderer *a = &s->wanderers[i];
            if (a->mode == TN_WANDER_STOPPED || a->mode == TN_WANDER_WAIT) continue;
            /* D is only a shaping point (never reached) when the walk stops at C. */
            bool real_d = !a->c_is_target && !a->stop_at_c;
            const float mw = (float)(w->map->w * TN_TILE_PX), mh = (float)(w->map->h * TN_TILE_PX);
            for (int k = 0; k < (real_d ? 4 : 3); k++) {
                /* A is the walk's mirror of C when it (re)starts, a shaping
                 * point that may lie outside the map: not drawn there */
                if (k == 0 &&
                    (a->wp[0] < 0.0f || a->wp[1] < 0.0f || a->wp[0] > mw || a->wp[1] > mh))
                    continue;
                tn_dd_circle(dd, a->wp[2 * k], a->wp[2 * k + 1], k == 1 || k == 2 ? 2.5f : 1.5f,
                             0xc8ff90c0u, true);
            }
            draw_spline(dd, &a->seg, COL_WANDERER);
            if (real_d) {
                /* The next segment as it stands (its end may still change). */
                float q[8] = {a->wp[2],
                              a->wp[3],
                              a->wp[4],
                              a->wp[5],
                              a->wp[6],
                              a->wp[7],
                              2.0f * a->wp[6] - a->wp[4],
                              2.0f * a->wp[7] - a->wp[5]};
                tn_wander_seg next;
                tn_wander_seg_build(&next, q);
                draw_spline(dd, &next, 0x9be15d60u);
            }
        }
        float tx, ty, r = 6.0f;
        tn_wagents_target(w, &tx, &ty);
        tn_dd_circle(dd, tx, ty, r, COL_WANDERER, false);
        tn_dd_line(dd, tx - 1.6f * r, ty, tx + 1.6f * r, ty, COL_WANDERER);
        tn_dd_line(dd, tx, ty - 1.6f * r, tx, ty + 1.6f * r, COL_WANDERER);
    } else if (s->custom_target) {
        float r = 4.0f;
        tn_dd_line(dd, s->target_x - r, s->target_y, s->target_x + r, s->target_y, COL_WANDERER);
        tn_dd_line(dd, s->target_x, s->target_y - r, s->target_x, s->target_y + r, COL_WANDERER);
    }
    for (int i = 0; i < s->nwanderers; i++) {
        const tn_wanderer *a = &s->wanderers[i];
        const float r = fmaxf(half, rmin);
        tn_dd_circle(dd, a->x, a->y, r + 1.0f + (r - half) * 0.25f, COL_WANDERER_EDGE, true);
        tn_dd_circle(dd, a->x, a->y, r, COL_WANDERER, true);
        /* The heading: a short tick. */
        float hx = cosf(a->heading), hy = sinf(a->heading);
        tn_dd_line(dd, a->x, a->y, a->x + hx * (half + 3.0f), a->y + hy * (half + 3.0f),
                   COL_WANDERER_EDGE);
    }
}

void tn_wagents_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays, float scale)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (!s) return;
    /* zoomed out, discs at least 3 screen pixels in radius (they were
       single pixels at 1/8x) */
    const float rmin = scale > 0.0f ? 3.0f / scale : 0.0f;
    draw_wanderers(w, s, dd, rmin, overlays);
    if (s->has_companion) draw_companion(w, s, dd, rmin, scale, overlays);
}

/* ---- invariants ------------------------------------------------------------------- */

tn_status tn_wagents_check(const tn_world *w, tn_error *err)
{
    const tn_wagents *s = tn_wagents_of(w);
    if (!s) return TN_OK;
    const tn_map *m = w->map;
    const tn_status bad = TN_FAILURE;
    const tn_companion *c = &s->companion;
    if (!isfinite(c->x) || !isfinite(c->y) || !isfinite(c->vx) || !isfinite(c->vy))
        return tn_error_set(err, bad, 0, 0, "agents: companion position is not finite");
    if (s->has_companion && !tn_steer_box_free(m, c->x, c->y, s->cparams.half))
        return tn_error_set(err, bad, 0, 0, "agents: companion at (%.2f,%.2f) overlaps a block",
                            (double)c->x, (double)c->y);
    if (c->path_n < 0 || c->path_n > TN_COMPANION_PATH_MAX || c->path_i < 0 ||
        c->path_i > c->path_n)
        return tn_error_set(err, bad, 0, 0, "agents: companion path index out of range");
    if (s->nwanderers < 0 || s->nwanderers > TN_WAGENTS_MAX_WANDERERS)
        return tn_error_set(err, bad, 0, 0, "agents: %d wanderers", s->nwanderers);
    for (int i = 0; i < s->nwanderers; i++) {
        const tn_wanderer *a = &s->wanderers[i];
        if (!isfinite(a->x) || !isfinite(a->y) || !isfinite(a->heading))
            return tn_error_set(err, bad, 0, 0, "agents: wanderer %d is not finite", i);
        if (!tn_steer_box_free(m, a->x, a->y, s->wparams.half))
            return tn_error_set(err, bad, 0, 0,
                                "agents: wanderer %d at (%.2f,%.2f) overlaps a block", i,
                                (double)a->x, (double)a->y);
    }
    int present = 0;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) present += tn_world_item_here(w, x, y);
    if (s->nitems != present)
        return tn_error_set(err, bad, 0, 0, "agents: %d items listed, the map has %d", s->nitems,
                            present);
    for (int i = 0; i < s->nitems; i++) {
        int x = (int)floorf(s->items[2 * i] / T), y = (int)floorf(s->items[2 * i + 1] / T);
        if (!tn_world_item_here(w, x, y))
            return tn_error_set(err, bad, 0, 0, "agents: listed item (%d,%d) is not on the map", x,
                                y);
    }
    return TN_OK;
}

const tn_wagents *tn_wagents_of(const tn_world *w) { return (const tn_wagents *)w->agents; }
