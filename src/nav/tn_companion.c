/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_companion.h"

#include "internal/float_fields.h"

#include <math.h>

/* Slower than this (px/s) counts as idle. */
#define IDLE_SPEED 20.0f
/* Steps without progress along a path before planning again. */
#define STALL_STEPS 30
/* Path candidates examined for an item fetch. */
#define FETCH_CANDIDATES 4
/* Re-plans (stalled, or the path ended short of the item) before a fetch is
 * given up. */
#define FETCH_REPLANS 4
/* A given-up item is tried again once the character has moved this far (px)
 * from where it stood then. */
#define GIVE_UP_MOVE 16.0f

tn_companion_params tn_companion_default_params(void)
{
    tn_companion_params p;
    p.half = 5.0f;
    p.max_speed = 220.0f;
    p.max_accel = 2400.0f;
    p.follow_inner = 24.0f;
    p.follow_outer = 48.0f;
    p.hover = 20.0f;
    p.w_follow = 1.0f;
    p.w_align = 0.6f;
    p.char_clearance = 10.0f;
    p.w_character = 1.0f;
    p.separation_radius = 40.0f;
    p.w_separation = 1.0f;
    p.los_interval = 4;
    p.corner_reach = 6.0f;
    p.retry_steps = 30;
    p.idle_steps = 45;
    p.fetch_range = 256.0f;
    p.pickup_radius = 8.0f;
    p.path_radius = 0.0f;
    return p;
}

tn_status tn_companion_validate(const tn_companion_params *p, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    if (!p) return tn_error_set(err, bad, 0, 0, "companion: no parameters (p is NULL)");
    const float L = TN_COMPANION_LENGTH_MAX, W = TN_COMPANION_WEIGHT_MAX;
    /* every float field: finite, within lo..hi; open: above lo, not at it */
    const tn_float_field f[] = {
        {"half", "px", p->half, 0.0f, TN_COMPANION_HALF_MAX, true},
        {"path_radius", "px", p->path_radius, 0.0f, TN_COMPANION_HALF_MAX, false},
        {"max_speed", "px/s", p->max_speed, 0.0f, TN_COMPANION_SPEED_MAX, true},
        {"max_accel", "px/s^2", p->max_accel, 0.0f, TN_COMPANION_ACCEL_MAX, true},
        {"follow_inner", "px", p->follow_inner, 0.0f, L, false},
        {"follow_outer", "px", p->follow_outer, 0.0f, L, true},
        {"hover", "px", p->hover, 0.0f, L, false},
        {"w_follow", "", p->w_follow, 0.0f, W, false},
        {"w_align", "", p->w_align, 0.0f, W, false},
        {"char_clearance", "px", p->char_clearance, 0.0f, L, true},
        {"w_character", "", p->w_character, 0.0f, W, false},
        {"separation_radius", "px", p->separation_radius, 0.0f, L, true},
        {"w_separation", "", p->w_separation, 0.0f, W, false},
        {"corner_reach", "px", p->corner_reach, 0.0f, L, true},
        {"fetch_range", "px", p->fetch_range, 0.0f, L, false},
        {"pickup_radius", "px", p->pickup_radius, 0.0f, L, true},
    };
    tn_status st = tn_float_fields_check("companion", f, sizeof f / sizeof f[0], err);
    if (tn_failed(st)) return st;
    if (!(p->follow_inner < p->follow_outer))
        return tn_error_set(err, bad, 0, 0, "companion: need follow_inner (%g) < follow_outer (%g)",
                            (double)p->follow_inner, (double)p->follow_outer);
    const struct {
        const char *name;
        int v;
    } n[] = {{"los_interval", p->los_interval},
             {"retry_steps", p->retry_steps},
             {"idle_steps", p->idle_steps}};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        if (n[i].v < 1 || n[i].v > TN_COMPANION_STEPS_MAX)
            return tn_error_set(err, bad, 0, 0, "companion: %s %d is outside 1..%d steps",
                                n[i].name, n[i].v, TN_COMPANION_STEPS_MAX);
    return TN_OK;
}

const char *tn_companion_state_name(tn_companion_state s)
{
    switch (s) {
    case TN_COMPANION_FOLLOW: return "follow";
    case TN_COMPANION_SEARCH: return "search";
    case TN_COMPANION_FETCH: return "fetch";
    }
    return "?";
}

void tn_companion_init(tn_companion *c, float x, float y, unsigned phase)
{
    if (!c) return;
    *c = (tn_companion){0};
    c->x = x;
    c->y = y;
    c->seen_x = x;
    c->seen_y = y;
    c->item = -1;
    c->phase = phase;
    c->look_now = true;
}

void tn_companion_reset(tn_companion *c)
{
    if (!c) return;
    c->state = TN_COMPANION_FOLLOW;
    c->path_n = c->path_i = 0;
    c->item = -1;
    c->idle = 0;
    c->stall = 0;
    c->skip = false;
    c->look_now = true;
}

/* ---- paths ------------------------------------------------------------------ */

static float path_radius(const tn_companion_params *p)
{
    return p->path_radius > 0.0f ? p->path_radius : p->half;
}

/* Plan to (gx, gy); false when unreachable (or no path query).  With
 * `closest`, a goal out of reach gives the path to the closest place the
 * callback offers (a negative count, tn_agent_nav), unless the companion is
 * already within a tile of that place (then false: it waits there). */
static bool plan(tn_companion *c, const tn_companion_params *p, const tn_companion_env *e, float gx,
                 float gy, bool closest)
{
    c->path_n = c->path_i = 0;
    c->stall = 0;
    if (!e->nav || !e->nav->path) return false;
    c->paths_planned++;
    int n = e->nav->path(e->nav->user, c->x, c->y, gx, gy, path_radius(p), c->path,
                         TN_COMPANION_PATH_MAX);
    if (n < 0 && closest) {
        n = -n < TN_COMPANION_PATH_MAX ? -n : TN_COMPANION_PATH_MAX;
        const float ex = c->path[2 * n - 2] - c->x, ey = c->path[2 * n - 1] - c->y;
        if (tn_len2(ex, ey) < (float)(TN_TILE_PX * TN_TILE_PX)) n = 0; /* there already */
    }
    if (n <= 0) return false;
    /* a callback that reports the whole path's length keeps its first cap */
    c->path_n = n < TN_COMPANION_PATH_MAX ? n : TN_COMPANION_PATH_MAX;
    c->goal_x = gx;
    c->goal_y = gy;
    return true;
}

/* Does the segment (ax, ay)-(bx, by) enter the open box centred on (ox, oy)
 * with half extents hx, hy?  (Liang-Barsky clipping; touching is not.) */
static bool segment_enters_box(float ax, float ay, float bx, float by, float ox, float oy, float hx,
                               float hy)
{
    float t0 = 0.0f, t1 = 1.0f;
    const float a[2] = {ax - ox, ay - oy}, d[2] = {bx - ax, by - ay}, h[2] = {hx, hy};
    for (int k = 0; k < 2; k++) {
        if (fabsf(d[k]) < 1e-6f) {
            if (fabsf(a[k]) >= h[k]) return false;
            continue;
        }
        float te = (-h[k] - a[k]) / d[k], tx = (h[k] - a[k]) / d[k];
        if (te > tx) {
            float t = te;
            te = tx;
            tx = t;
        }
        t0 = tn_maxf(t0, te);
        t1 = tn_minf(t1, tx);
        if (t0 >= t1) return false;
    }
    return true;
}

/* The navmesh paths know nothing of the character, so a path may run
 * through it: the companion would fly into its box, be held off by the
 * separation and stop there for good, with the corner straight behind the
 * character (a local minimum of the steering sum).  When the straight line
 * to the corner (tx, ty) enters the character's box grown by the
 * companion's half-size, it heads instead for a corner of that box grown by
 * char_clearance + 1 more: the free one, reachable in a straight line,
 * with the shortest way on to (tx, ty) round the box (at most two box
 * corners).  False (no detour) when the line is clear or no corner works. */
static bool character_detour(const tn_companion *c, const tn_companion_params *p,
                             const tn_companion_env *e, float tx, float ty, float *dx, float *dy)
{
    const float eps = 1.0f / 64.0f;
    float hx = e->char_hw + p->half - eps, hy = e->char_hh + p->half - eps;
    if (!segment_enters_box(c->x, c->y, tx, ty, e->char_x, e->char_y, hx, hy)) return false;
    float gx = e->char_hw + p->half + p->char_clearance + 1.0f;
    float gy = e->char_hh + p->half + p->char_clearance + 1.0f;
    float px[4], py[4], on[4]; /* corners in order round the box; cost on to the target */
    bool ok[4];
    for (int k = 0; k < 4; k++) {
        px[k] = e->char_x + ((k == 1 || k == 2) ? gx : -gx);
        py[k] = e->char_y + (k >= 2 ? gy : -gy);
        ok[k] = tn_steer_box_free(e->map, px[k], py[k], p->half);
        on[k] = segment_enters_box(px[k], py[k], tx, ty, e->char_x, e->char_y, hx, hy)
                    ? INFINITY
                    : tn_len(tx - px[k], ty - py[k]);
    }
    float best = INFINITY;
    int best_k = -1;
    for (int k = 0; k < 4; k++) {
        if (!ok[k] || tn_len(px[k] - c->x, py[k] - c->y) <= p->corner_reach ||
            segment_enters_box(c->x, c->y, px[k], py[k], e->char_x, e->char_y, hx, hy))
            continue;
        float rest = on[k];
        for (int s = 1; s <= 3; s += 2) { /* or on round a neighbouring corner */
            int n = (k + s) % 4;
            if (ok[n]) rest = tn_minf(rest, tn_len(px[n] - px[k], py[n] - py[k]) + on[n]);
        }
        float cost = tn_len(px[k] - c->x, py[k] - c->y) + rest;
        if (cost < best) {
            best = cost;
            best_k = k;
        }
    }
    if (best_k < 0) return false;
    *dx = px[best_k];
    *dy = py[best_k];
    return true;
}

/* Seek velocity along the path (round the character, see character_detour);
 * false when the path is done. */
static bool path_velocity(tn_companion *c, const tn_companion_params *p, const tn_companion_env *e,
                          float *dvx, float *dvy)
{
    while (c->path_i < c->path_n) {
        float cx = c->path[2 * c->path_i], cy = c->path[2 * c->path_i + 1];
        float dx = cx - c->x, dy = cy - c->y, d = tn_len(dx, dy);
        bool last = c->path_i == c->path_n - 1;
        if (d <= p->corner_reach) {
            c->path_i++;
            continue;
        }
        if (character_detour(c, p, e, cx, cy, &cx, &cy)) {
            dx = cx - c->x;
            dy = cy - c->y;
            d = tn_len(dx, dy);
            last = false;
            if (d <= 0.0f) return false;
        }
        /* Full speed to inner corners; slow down into the last one. */
        float speed = p->max_speed;
        if (last) speed = tn_minf(speed, 4.0f * d + 20.0f);
        *dvx = dx / d * speed;
        *dvy = dy / d * speed;
        return true;
    }
    return false;
}

/* ---- items ---------------------------------------------------------------------- */

static float path_length(float x, float y, const float *xy, int n)
{
    float len = 0.0f;
    for (int i = 0; i < n; i++) {
        len += tn_len(xy[2 * i] - x, xy[2 * i + 1] - y);
        x = xy[2 * i];
        y = xy[2 * i + 1];
    }
    return len;
}

static bool item_crowded(float ix, float iy, const tn_companion_params *p,
                         const tn_companion_env *e);

/* The reachable item with the shortest path among the nearest few; starts a
 * fetch when there is one. */
static bool start_fetch(tn_companion *c, const tn_companion_params *p, const tn_companion_env *e)
{
    int cand[FETCH_CANDIDATES];
    float cd[FETCH_CANDIDATES];
    int nc = 0;
    float range2 = p->fetch_range * p->fetch_range;
    for (int i = 0; i < e->nitems; i++) {
        float ix = e->items[2 * i], iy = e->items[2 * i + 1];
        if (tn_len2(ix - e->char_x, iy - e->char_y) > range2 || item_crowded(ix, iy, p, e))
            continue;
        if (c->skip && ix == c->skip_x && iy == c->skip_y) continue;
        float d = tn_len2(ix - c->x, iy - c->y);
        /* Insertion into the short sorted list. */
        int k = nc < FETCH_CANDIDATES ? nc++ : FETCH_CANDIDATES;
        if (k == FETCH_CANDIDATES && d >= cd[k - 1]) continue;
        if (k == FETCH_CANDIDATES) k--;
        while (k > 0 && cd[k - 1] > d) {
            cd[k] = cd[k - 1];
            cand[k] = cand[k - 1];
            k--;
        }
        cd[k] = d;
        cand[k] = i;
    }
    if (nc == 0 || !e->nav || !e->nav->path) return false;
    float best = INFINITY, tmp[2 * TN_COMPANION_PATH_MAX];
    int best_i = -1;
    for (int k = 0; k < nc; k++) {
        /* A straight distance beyond the best path cannot beat it. */
        if (sqrtf(cd[k]) >= best) break;
        int i = cand[k];
        c->paths_planned++;
        int n = e->nav->path(e->nav->user, c->x, c->y, e->items[2 * i], e->items[2 * i + 1],
                             path_radius(p), tmp, TN_COMPANION_PATH_MAX);
        if (n <= 0) continue;
        if (n > TN_COMPANION_PATH_MAX) n = TN_COMPANION_PATH_MAX; /* at most what tmp holds */
        float len = path_length(c->x, c->y, tmp, n);
        if (len < best) {
            best = len;
            best_i = i;
            for (int j = 0; j < 2 * n; j++) c->path[j] = tmp[j];
            c->path_n = n;
        }
    }
    if (best_i < 0) return false;
    c->path_i = 0;
    c->stall = 0;
    c->replans = 0;
    c->item = best_i;
    c->item_x = e->items[2 * best_i];
    c->item_y = e->items[2 * best_i + 1];
    c->goal_x = c->item_x;
    c->goal_y = c->item_y;
    c->state = TN_COMPANION_FETCH;
    return true;
}

/* Index of the fetched item in the current list, -1 when it is gone. */
static int find_item(const tn_companion *c, const tn_companion_env *e)
{
    int i = c->item;
    if (i >= 0 && i < e->nitems && e->items[2 * i] == c->item_x && e->items[2 * i + 1] == c->item_y)
        return i;
    for (i = 0; i < e->nitems; i++)
        if (e->items[2 * i] == c->item_x && e->items[2 * i + 1] == c->item_y) return i;
    return -1;
}

/* Give up the fetch: back to following, no new fetch for a while. */
static void give_up_fetch(tn_companion *c, const tn_companion_params *p)
{
    c->item = -1;
    c->path_n = c->path_i = 0;
    c->state = TN_COMPANION_FOLLOW;
    c->cooldown = 4 * p->idle_steps;
    c->look_now = true;
}

/* Plan the fetch again; gives it up after FETCH_REPLANS re-plans or when
 * the item is out of reach. */
static void replan_fetch(tn_companion *c, const tn_companion_params *p, const tn_companion_env *e)
{
    if (++c->replans > FETCH_REPLANS || !plan(c, p, e, c->item_x, c->item_y, false)) {
        c->gave_up++;
        c->skip = true;
        c->skip_x = c->item_x;
        c->skip_y = c->item_y;
        c->skip_cx = e->char_x;
        c->skip_cy = e->char_y;
        give_up_fetch(c, p);
    }
}

/* ---- steering --------------------------------------------------------------------- */

/* Gap between the companion's box and the character's box (negative when
 * they overlap), and the direction from the character's box to the
 * companion. */
static float point_gap(float x, float y, const tn_companion_params *p, const tn_companion_env *e,
                       float *nx, float *ny)
{
    float dx = x - e->char_x, dy = y - e->char_y;
    float ox = fabsf(dx) - e->char_hw - p->half; /* > 0: separated along x */
    float oy = fabsf(dy) - e->char_hh - p->half;
    if (ox > 0.0f && oy > 0.0f) { /* diagonal: corner to corner */
        float d = tn_len(ox, oy);
        *nx = (dx < 0.0f ? -ox : ox) / d;
        *ny = (dy < 0.0f ? -oy : oy) / d;
        return d;
    }
    /* Facing sides (or overlapping): push along the axis of the larger gap,
     * i.e. the one of least penetration. */
    if (ox >= oy) {
        *nx = dx < 0.0f ? -1.0f : 1.0f;
        *ny = 0.0f;
        return ox;
    }
    *nx = 0.0f;
    *ny = dy < 0.0f ? -1.0f : 1.0f;
    return oy;
}

static float char_gap(const tn_companion *c, const tn_companion_params *p,
                      const tn_companion_env *e, float *nx, float *ny)
{
    return point_gap(c->x, c->y, p, e, nx, ny);
}

/* An item under the character: the companion's box centred on it would
 * overlap the character's box, out of which move() always pushes it, and
 * the separation is at full strength there, so it never gets within
 * pickup_radius (it would fetch, stall and plan again forever).  Such items
 * are left alone.  (Sweep of item spots around a standing character: every
 * item picked before is still picked; all those no longer fetched were
 * never picked up.) */
static bool item_crowded(float ix, float iy, const tn_companion_params *p,
                         const tn_companion_env *e)
{
    float nx, ny;
    return point_gap(ix, iy, p, e, &nx, &ny) < 0.0f;
}

void tn_companion_anchor(const tn_companion_params *p, const tn_companion_env *e, float *x,
                         float *y)
{
    if (!x || !y) return;
    if (!p || !e) {
        *x = *y = 0.0f;
        return;
    }
    *x = e->char_x;
    *y = e->char_y - p->hover;
    /* Under a low ceiling: the character's centre itself. */
    if (!tn_steer_box_free(e->map, *x, *y, p->half)) *y = e->char_y;
}

/* The follow pull (fx, fy) of a companion within char_clearance of the
 * character's box, on the side with outward normal (nx, ny).  The anchor of
 * a big character lies inside its box (hover px above its centre: 72 px
 * under the top of a 9-tile one), so the follow radii end inside the box
 * and the pull drew the companion into the character's clearance, held off
 * there only by the separation (by a 3-tile-wide character it rested 5.6 px
 * from the box, not char_clearance).  So the pull keeps only its part along
 * the box, none toward it: the companion rests at char_clearance and still
 * slides round toward the anchor.  On the side away from the anchor (under
 * the character) that part leads back under the middle, where it would
 * rest: there it goes round instead, at full pull, along the box toward the
 * anchor's side, or (straight under it) the nearer way round that no block
 * closes, else the other; with both closed the pull stays as it was. */
static void follow_off_character(const tn_companion *c, const tn_companion_params *p,
                                 const tn_companion_env *e, float ax, float ay, float nx, float ny,
                                 float *fx, float *fy)
{
    const float into = *fx * nx + *fy * ny;
    if (into >= 0.0f) return;
    const float rx = ax - e->char_x, ry = ay - e->char_y; /* the anchor from the centre */
    if (rx * nx + ry * ny >= 0.0f) {
        *fx -= into * nx;
        *fy -= into * ny;
        return;
    }
    const float pull = tn_len(*fx, *fy);
    float k = rx * ny - ry * nx; /* > 0: the anchor's side is along (ny, -nx) */
    if (fabsf(k) < 1e-3f * tn_len(rx, ry)) {
        /* Straight across: the way round along the box's side to its far
         * edge (grown by half + char_clearance + 1), unless a block closes
         * it.  The sides are axis-aligned here (a corner's normal gives
         * k != 0). */
        const float s = (c->x - e->char_x) * ny - (c->y - e->char_y) * nx;
        const float gx = e->char_hw + p->half + p->char_clearance + 1.0f;
        const float gy = e->char_hh + p->half + p->char_clearance + 1.0f;
        k = 0.0f;
        for (int pass = 0; pass < 2 && k == 0.0f; pass++) {
            const float dir = (s >= 0.0f) == (pass == 0) ? 1.0f : -1.0f; /* along (ny, -nx) */
            const float ex = ny != 0.0f ? e->char_x + dir * ny * gx : c->x;
            const float ey = nx != 0.0f ? e->char_y - dir * nx * gy : c->y;
            if (tn_steer_rect_free(e->map, tn_minf(c->x, ex) - p->half, tn_minf(c->y, ey) - p->half,
                                   tn_maxf(c->x, ex) + p->half, tn_maxf(c->y, ey) + p->half))
                k = dir;
        }
        if (k == 0.0f) return; /* both ways closed */
    }
    *fx = (k > 0.0f ? ny : -ny) * pull;
    *fy = (k > 0.0f ? -nx : nx) * pull;
}

static void follow_velocity(const tn_companion *c, const tn_companion_params *p,
                            const tn_companion_env *e, float *vx, float *vy)
{
    float ax, ay;
    tn_companion_anchor(p, e, &ax, &ay);
    float dx = ax - c->x, dy = ay - c->y, d = tn_len(dx, dy);
    float speed = 0.0f;
    if (d >= p->follow_outer)
        speed = p->max_speed;
    else if (d > p->follow_inner)
        speed = p->max_speed * (d - p->follow_inner) / (p->follow_outer - p->follow_inner);
    if (d > 0.0f) {
        float fx = p->w_follow * speed * dx / d, fy = p->w_follow * speed * dy / d;
        float nx, ny;
        if (char_gap(c, p, e, &nx, &ny) < p->char_clearance)
            follow_off_character(c, p, e, ax, ay, nx, ny, &fx, &fy);
        *vx += fx;
        *vy += fy;
    }
    *vx += p->w_align * e->char_vx;
    *vy += p->w_align * e->char_vy;
}

static void separation_velocity(const tn_companion *c, const tn_companion_params *p,
                                const tn_companion_env *e, float *vx, float *vy)
{
    float nx, ny, gap = char_gap(c, p, e, &nx, &ny);
    if (gap < p->char_clearance) {
        float s = p->w_character * p->max_speed * (1.0f - tn_maxf(gap, 0.0f) / p->char_clearance);
        *vx += nx * s;
        *vy += ny * s;
    }
    if (e->neighbours) {
        float sx, sy;
        if (tn_grid_separation(e->neighbours, c->x, c->y, p->separation_radius, e->self_id, &sx,
                               &sy) > 0) {
            *vx += p->w_separation * p->max_speed * sx;
            *vy += p->w_separation * p->max_speed * sy;
        }
    }
}

/* Move with tile collision; past block corners it only grazes; then out of
 * the character's box. */
static void move(tn_companion *c, const tn_companion_params *p, const tn_companion_env *e,
                 float dvx, float dvy)
{
    unsigned hit =
        tn_steer_move(e->map, p->half, &c->x, &c->y, c->vx * e->dt, c->vy * e->dt, &c->vx, &c->vy);
    /* Stopped on an axis it mainly wants to move along: when a sidestep of
     * up to CORNER_SHIFT px clears the corner, take it (at most max_speed*dt
     * per step).  Paths that hug corners need this. */
    float want = tn_len(dvx, dvy), step = p->max_speed * e->dt;
    for (int axis = 0; axis < 2; axis++) {
        float along = axis == 0 ? dvx : dvy;
        if (!(hit & (1u << axis)) || fabsf(along) < 0.5f * want || want <= 0.0f) continue;
        float shift;
        if (tn_steer_corner_shift(e->map, p->half, c->x, c->y, axis, along, p->half + 2.0f,
                                  &shift)) {
            shift = tn_clampf(shift, -step, step);
            tn_steer_move(e->map, p->half, &c->x, &c->y, axis == 0 ? 0.0f : shift,
                          axis == 0 ? shift : 0.0f, NULL, NULL);
        }
    }
    /* The character walked (or landed) into it: step out along the axis of
     * least penetration, or the other one when a block is in the way. */
    float dx = c->x - e->char_x, dy = c->y - e->char_y;
    float ox = fabsf(dx) - e->char_hw - p->half, oy = fabsf(dy) - e->char_hh - p->half;
    if (ox >= 0.0f || oy >= 0.0f) return;
    const float eps = 1.0f / 64.0f;
    /* Near sides first (least penetration first); pinned there between a
     * block and the character (e.g. it landed on the companion in a corner),
     * the far sides, across the character's box. */
    for (int k = 0; k < 4; k++) {
        bool xaxis = (ox >= oy) == (k % 2 == 0), far = k >= 2;
        float sx = (dx < 0.0f) != far ? -1.0f : 1.0f, sy = (dy < 0.0f) != far ? -1.0f : 1.0f;
        float dist_x = far ? 2.0f * (e->char_hw + p->half) + ox : -ox;
        float dist_y = far ? 2.0f * (e->char_hh + p->half) + oy : -oy;
        float px = xaxis ? sx * (dist_x + eps) : 0.0f;
        float py = xaxis ? 0.0f : sy * (dist_y + eps);
        float x = c->x, y = c->y;
        tn_steer_move(e->map, p->half, &x, &y, px, py, NULL, NULL);
        if (fabsf(x - e->char_x) - e->char_hw - p->half >= 0.0f ||
            fabsf(y - e->char_y) - e->char_hh - p->half >= 0.0f) {
            c->x = x;
            c->y = y;
            return;
        }
    }
}

/* ---- the step ----------------------------------------------------------------------- */

static void test_sight(tn_companion *c, const tn_companion_env *e)
{
    c->los_tests++;
    /* Without a line-of-sight query nothing can hide the character. */
    c->sees =
        !e->nav || !e->nav->los || e->nav->los(e->nav->user, c->x, c->y, e->char_x, e->char_y);
    if (c->sees) {
        c->seen_x = e->char_x;
        c->seen_y = e->char_y;
    }
    c->look_now = false;
}

static void enter_search(tn_companion *c, const tn_companion_params *p, const tn_companion_env *e)
{
    c->state = TN_COMPANION_SEARCH;
    c->item = -1;
    if (!plan(c, p, e, c->seen_x, c->seen_y, false) && !plan(c, p, e, e->char_x, e->char_y, true))
        c->cooldown = p->retry_steps;
}

int tn_companion_step(tn_companion *c, const tn_companion_params *p, const tn_companion_env *e)
{
    if (!c || !p || !e) return -1;
    int picked = -1;
    /* A box that overlaps a block (placed there, or a block edited onto
     * it) would fly on through the walls: tn_steer_move moves such a box
     * without collision.  Out first, to the nearest tile centre where it
     * is free, at rest and with its task forgotten (as after an edit);
     * with none within TN_STEER_UNSTICK_TILES it stays (a bounded search
     * each step, not the whole map's).  One box test a step. */
    if (e->map && !tn_steer_box_free(e->map, c->x, c->y, p->half) &&
        tn_steer_unstick(e->map, p->half, &c->x, &c->y, TN_STEER_UNSTICK_TILES)) {
        c->vx = c->vy = 0.0f;
        tn_companion_reset(c);
    }
    c->steps++;
    if (c->cooldown > 0) c->cooldown--;
    if (c->skip &&
        tn_len2(e->char_x - c->skip_cx, e->char_y - c->skip_cy) > GIVE_UP_MOVE * GIVE_UP_MOVE)
        c->skip = false;
    if (c->look_now || (c->steps + c->phase) % (unsigned long)p->los_interval == 0)
        test_sight(c, e);

    /* Transitions. */
    switch (c->state) {
    case TN_COMPANION_FOLLOW:
        if (!c->sees) enter_search(c, p, e);
        break;
    case TN_COMPANION_SEARCH:
        if (c->sees) {
            c->state = TN_COMPANION_FOLLOW;
            c->path_n = c->path_i = 0;
        } else if (c->path_i >= c->path_n && c->cooldown == 0) {
            /* Path done (or none) and still hidden: go where it is now. */
            if (!plan(c, p, e, e->char_x, e->char_y, true)) c->cooldown = p->retry_steps;
        }
        break;
    case TN_COMPANION_FETCH: {
        int i = find_item(c, e);
        float far = p->fetch_range + p->follow_outer;
        if (i < 0 || tn_len2(e->char_x - c->x, e->char_y - c->y) > far * far ||
            item_crowded(e->items[2 * i], e->items[2 * i + 1], p, e)) {
            c->item = -1;
            c->path_n = c->path_i = 0;
            c->state = TN_COMPANION_FOLLOW;
            c->cooldown = p->idle_steps;
            c->look_now = true;
        } else {
            c->item = i;
        }
        break;
    }
    }

    /* Desired velocity. */
    float dvx = 0.0f, dvy = 0.0f;
    if (c->state == TN_COMPANION_FOLLOW) {
        follow_velocity(c, p, e, &dvx, &dvy);
    } else if (!path_velocity(c, p, e, &dvx, &dvy)) {
        dvx = dvy = 0.0f;
        if (c->state == TN_COMPANION_FETCH &&
            tn_len2(c->item_x - c->x, c->item_y - c->y) > p->pickup_radius * p->pickup_radius) {
            /* The path ended short of the item (cut or pushed off): again,
             * a few times. */
            replan_fetch(c, p, e);
        }
    }
    separation_velocity(c, p, e, &dvx, &dvy);
    tn_clamp_len(&dvx, &dvy, p->max_speed);

    /* Bounded acceleration toward it. */
    float ax = dvx - c->vx, ay = dvy - c->vy;
    tn_clamp_len(&ax, &ay, p->max_accel * e->dt);
    c->vx += ax;
    c->vy += ay;
    float ox = c->x, oy = c->y;
    move(c, p, e, dvx, dvy);

    /* Progress along a path: replan when stuck. */
    if (c->state != TN_COMPANION_FOLLOW && c->path_i < c->path_n) {
        float moved = tn_len(c->x - ox, c->y - oy);
        c->stall = moved < 0.25f * p->max_speed * e->dt ? c->stall + 1 : 0;
        if (c->stall >= STALL_STEPS) {
            if (c->state == TN_COMPANION_FETCH)
                replan_fetch(c, p, e);
            else
                plan(c, p, e, c->goal_x, c->goal_y, true);
        }
    }

    /* Items. */
    if (c->state == TN_COMPANION_FETCH && c->item >= 0 &&
        tn_len2(c->item_x - c->x, c->item_y - c->y) <= p->pickup_radius * p->pickup_radius) {
        picked = c->item;
        c->items++;
        c->item = -1;
        c->path_n = c->path_i = 0;
        c->state = TN_COMPANION_FOLLOW;
        c->cooldown = p->idle_steps;
        c->look_now = true; /* look for the character right away */
    }
    if (c->state == TN_COMPANION_FOLLOW && c->sees) {
        float ax, ay, nx, ny;
        tn_companion_anchor(p, e, &ax, &ay);
        float d2 = tn_len2(ax - c->x, ay - c->y);
        /* at its place: within follow_outer of the anchor, or as close as
         * the clearance lets it come (the anchor of a big character, or of
         * any with a short follow_outer, is farther than that from every
         * spot char_clearance off the box) */
        bool near = d2 <= p->follow_outer * p->follow_outer ||
                    char_gap(c, p, e, &nx, &ny) <= p->char_clearance + 1.0f;
        bool idle = near && tn_len2(c->vx, c->vy) < IDLE_SPEED * IDLE_SPEED;
        c->idle = idle ? c->idle + 1 : 0;
        if (c->idle >= p->idle_steps && c->cooldown == 0 && e->nitems > 0) {
            c->idle = 0;
            if (!start_fetch(c, p, e)) c->cooldown = 4 * p->idle_steps;
        }
    } else {
        c->idle = 0;
    }
    return picked;
}
