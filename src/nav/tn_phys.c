/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_phys.h"
#include "internal/phys_diff.h"

#include <math.h>
#include <string.h>

/* Every pixel length here is a multiple of the tile size T = p->tile_px,
 * written as its value at 16 px times T/16 (TN_PX16): the factor v/16 is
 * exact in float, so at T = 16 each constant is bit-identical to the old
 * absolute one, and for any power-of-two T the whole simulation scales
 * exactly (tests/test_phys.c, test_scale_invariance).
 * Overlaps thinner than EPS (1/8 px at 16) do not count: walking adds 8/3 px
 * a step, whose float rounding drifts a box a few thousandths of a pixel
 * past a tile edge after tens of tiles; without this margin such a box
 * "touches" the next column and cannot enter a shaft exactly its width. */
#define EPS(T) TN_PX16(T, 1.0f / 8.0f)
#define SUBSTEP(T) TN_PX16(T, 8.0f)
#define DROP_PX(T) TN_PX16(T, 1.0f)
#define AIR_AFTER_JUMP 1000000

tn_phys_params tn_phys_default(float jump_height_tiles)
{
    tn_phys_params p;
    p.dt = 1.0f / 60.0f;
    p.gravity = 1030.0f;
    p.max_fall = 900.0f;
    p.walk_speed = 160.0f;
    p.jump_height = jump_height_tiles;
    p.jump_cut_speed = 120.0f;
    p.coyote_frames = 4;
    p.tile_px = (float)TN_TILE_PX;
    return p;
}

tn_phys_params tn_phys_scaled(const tn_phys_params *p, float k)
{
    tn_phys_params q = p ? *p : tn_phys_default(4.0f);
    q.tile_px *= k;
    q.gravity *= k;
    q.max_fall *= k;
    q.walk_speed *= k;
    q.jump_cut_speed *= k;
    return q;
}

tn_status tn_phys_validate(const tn_phys_params *p, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    if (!p) return tn_error_set(err, bad, 0, 0, "phys: no parameters (p is NULL)");
    /* a NaN first, by name: "%g" prints it "nan" or "-nan" */
    const struct {
        const char *name;
        float v;
    } num[7] = {{"dt", p->dt},
                {"gravity", p->gravity},
                {"max_fall", p->max_fall},
                {"walk_speed", p->walk_speed},
                {"jump_height", p->jump_height},
                {"jump_cut_speed", p->jump_cut_speed},
                {"tile_px", p->tile_px}};
    for (int i = 0; i < 7; i++)
        if (isnan(num[i].v))
            return tn_error_set(err, bad, 0, 0, "phys: %s is not a number (NaN)", num[i].name);
    if (!(p->dt > 0.0f && p->dt <= 0.1f))
        return tn_error_set(err, bad, 0, 0, "phys: step dt=%g s is outside (0, 0.1]", p->dt);
    const struct {
        const char *name, *unit;
        float v;
    } pos[3] = {{"gravity", "px/s^2", p->gravity},
                {"max_fall", "px/s", p->max_fall},
                {"walk_speed", "px/s", p->walk_speed}};
    for (int i = 0; i < 3; i++)
        if (!(pos[i].v > 0.0f)) /* NaN too */
            return tn_error_set(err, bad, 0, 0, "phys: %s %g %s must be positive", pos[i].name,
                                (double)pos[i].v, pos[i].unit);
    if (!(p->tile_px >= TN_PHYS_TILE_PX_MIN && p->tile_px <= TN_PHYS_TILE_PX_MAX))
        return tn_error_set(err, bad, 0, 0, "phys: tile_px %g is outside %d..%d pixels per tile",
                            p->tile_px, TN_PHYS_TILE_PX_MIN, TN_PHYS_TILE_PX_MAX);
    /* bounded in tiles, so that a step moves a body by a bounded number of
     * 8-px sub-moves (an infinite gravity or fall speed never ends one) */
    const float tile = p->tile_px;
    if (!(p->gravity <= TN_PHYS_GRAVITY_MAX * tile))
        return tn_error_set(err, bad, 0, 0,
                            "phys: gravity %g px/s^2 is above %d tiles/s^2 (%g px/s^2)", p->gravity,
                            TN_PHYS_GRAVITY_MAX, TN_PHYS_GRAVITY_MAX * tile);
    const struct {
        const char *name;
        float v;
    } speed[3] = {{"max_fall", p->max_fall},
                  {"walk_speed", p->walk_speed},
                  {"jump_cut_speed", p->jump_cut_speed}};
    for (int i = 0; i < 3; i++)
        if (!(speed[i].v <= TN_PHYS_SPEED_MAX * tile)) /* NaN too */
            return tn_error_set(err, bad, 0, 0,
                                "phys: %s %g px/s is not at most %d tiles/s (%g px/s)",
                                speed[i].name, (double)speed[i].v, TN_PHYS_SPEED_MAX,
                                (double)(TN_PHYS_SPEED_MAX * tile));
    if (!(p->walk_speed * p->dt >= 1.0f / 64.0f))
        return tn_error_set(err, bad, 0, 0,
                            "phys: walk_speed %g px/s moves less than 1/64 px a step (dt %g s)",
                            p->walk_speed, p->dt);
    if (!(p->jump_height >= 1.0f && p->jump_height <= 8.0f))
        return tn_error_set(err, bad, 0, 0, "phys: jump_height %g is outside 1..8 tiles",
                            p->jump_height);
    if (!(p->jump_cut_speed >= 0.0f))
        return tn_error_set(err, bad, 0, 0, "phys: jump_cut_speed %g px/s must be >= 0",
                            (double)p->jump_cut_speed);
    if (p->coyote_frames < 0 || p->coyote_frames > 60)
        return tn_error_set(err, bad, 0, 0, "phys: coyote_frames %d is outside 0..60",
                            p->coyote_frames);
    const double rise = (double)tn_phys_jump_speed(p) / ((double)p->gravity * (double)p->dt);
    if (!(rise <= TN_PHYS_RISE_STEPS_MAX))
        return tn_error_set(err, bad, 0, 0,
                            "phys: a full jump rises for %.4g steps (jump speed %g px/s, gravity "
                            "%g px/s^2, dt %g s), more than the %d the planners simulate: raise "
                            "gravity or dt",
                            rise, (double)tn_phys_jump_speed(p), (double)p->gravity, (double)p->dt,
                            TN_PHYS_RISE_STEPS_MAX);
    return TN_OK;
}

float tn_phys_jump_speed(const tn_phys_params *p)
{
    if (!p) return 0.0f;
    const float T = p->tile_px;
    return sqrtf(2.0f * p->gravity * (p->jump_height * T + TN_JUMP_MARGIN(T)));
}

void tn_body_place(tn_body *b, const tn_phys_params *p, int w, int h, int tx, int ty)
{
    if (!b || !p) return;
    /* the sizes tn_body documents (and the planners take): a box of no
     * width had no tiles to collide with, a huge one loops over its rows */
    w = w < 1 ? 1 : (w > TN_MAX_BODY_W ? TN_MAX_BODY_W : w);
    h = h < 1 ? 1 : (h > TN_MAX_BODY_H ? TN_MAX_BODY_H : h);
    const float T = p->tile_px;
    memset(b, 0, sizeof *b);
    b->w = w;
    b->h = h;
    b->x = (float)tx * T;
    b->y = (float)(ty + 1 - h) * T;
    b->air_frames = AIR_AFTER_JUMP;
}

/* A tile index, clamped to +-2^30 (NaN: -2^30), far outside any map, so a
 * box at a huge or NaN position meets the outside instead of an undefined
 * conversion (as tn_steer's boxes do). */
static int tile_index(float v)
{
    const float big = 1073741824.0f;
    if (!(v > -big)) return -(int)big;
    return v < big ? (int)v : (int)big;
}

void tn_body_tile(const tn_body *b, const tn_phys_params *p, int *tx, int *ty)
{
    int x = -1, y = -1; /* no body: a tile outside every map */
    if (b && p) {
        const float T = p->tile_px;
        x = tile_index(floorf((b->x + EPS(T)) / T));
        y = tile_index(floorf((b->y + (float)b->h * T - EPS(T)) / T));
    }
    if (tx) *tx = x;
    if (ty) *ty = y;
}

/* Tile span [lo, hi] covered by the open interval (a, a + len). */
static void span(float T, float a, float len, int *lo, int *hi)
{
    *lo = tile_index(floorf((a + EPS(T)) / T));
    *hi = tile_index(ceilf((a + len - EPS(T)) / T)) - 1;
    if (*hi < *lo) *hi = *lo; /* clamped far away: still one tile, outside */
}

static bool rect_has(const tn_map *m, int c0, int c1, int r0, int r1, int tile)
{
    for (int r = r0; r <= r1; r++)
        for (int c = c0; c <= c1; c++)
            if (tn_map_tile(m, c, r) == tile) return true;
    return false;
}

static bool box_blocked(const tn_map *m, float T, float x, float y, int w, int h)
{
    int c0, c1, r0, r1;
    span(T, x, (float)w * T, &c0, &c1);
    span(T, y, (float)h * T, &r0, &r1);
    return rect_has(m, c0, c1, r0, r1, TN_TILE_BLOCK);
}

bool tn_body_box_blocked(const tn_map *m, const tn_phys_params *p, float x, float y, int w, int h)
{
    if (!m || !p) return true; /* no map: all outside */
    return box_blocked(m, p->tile_px, x, y, w, h);
}

/* x put back on the walk lattice after a move.  Where walk_speed * dt
 * divides a tile into n whole steps, every x a walk reaches from a tile
 * edge (placement, wall contact) is c*T + k*T/n, but float sums of the
 * step drift off it: walking right from x = 0 is 0.19 px off at x = 8,000
 * px and 0.8 px at 16,000 (the ulp grows with x), past EPS, so far from
 * the map's left edge a box its width no longer entered a shaft and the
 * graph planner's edges (tn_surf: every x on the lattice) did not replay.
 * An x within EPS of a lattice point is set to it, computed as tn_surf's
 * lattice (one rounding from the exact value, whatever the path); an x
 * further off (a caller's placement) is left as it is. */
static float on_lattice(float x, float T, float step)
{
    const float n = T / step, nn = roundf(n);
    if (!(nn >= 1.0f && fabsf(n - nn) <= 1e-3f)) return x;
    const double per = (double)nn, q = (double)x * per / (double)T, k = nearbyint(q);
    if (!(fabs(q - k) * (double)T / per <= (double)EPS(T))) return x; /* (NaN too) */
    return (float)(k * (double)T / per);
}

/* r0..r1: the rows the box spans, c0..c1 its columns at b->x (the
 * caller's spans, computed once a step); a sub-move's new span is the next
 * one's (the same float x). */
static void move_x(tn_body *b, const tn_map *m, float T, float dx, int r0, int r1, int c0, int c1)
{
    const float W = (float)b->w * T;
    while (dx != 0.0f) {
        float d = tn_clampf(dx, -SUBSTEP(T), SUBSTEP(T));
        dx -= d;
        int n0, n1;
        span(T, b->x + d, W, &n0, &n1);
        if (d > 0.0f) {
            for (int c = c1 + 1; c <= n1; c++)
                if (rect_has(m, c, c, r0, r1, TN_TILE_BLOCK)) {
                    b->x = (float)c * T - W;
                    b->vx = 0.0f;
                    b->hit_wall = true;
                    return;
                }
        } else {
            for (int c = c0 - 1; c >= n0; c--)
                if (rect_has(m, c, c, r0, r1, TN_TILE_BLOCK)) {
                    b->x = (float)(c + 1) * T;
                    b->vx = 0.0f;
                    b->hit_wall = true;
                    return;
                }
        }
        b->x += d;
        c0 = n0;
        c1 = n1;
    }
}

/* r0..r1: the rows the box spans at b->y (as move_x). */
static void move_y(tn_body *b, const tn_map *m, float T, float dy, float prev_bottom, int r0,
                   int r1)
{
    const float W = (float)b->w * T, H = (float)b->h * T;
    int c0, c1;
    span(T, b->x, W, &c0, &c1);
    while (dy != 0.0f) {
        float d = tn_clampf(dy, -SUBSTEP(T), SUBSTEP(T));
        dy -= d;
        int n0, n1;
        span(T, b->y + d, H, &n0, &n1);
        if (d > 0.0f) {
            for (int r = r1 + 1; r <= n1; r++) {
                float top = (float)r * T;
                bool land =
                    rect_has(m, c0, c1, r, r, TN_TILE_BLOCK) ||
                    (prev_bottom <= top + EPS(T) && rect_has(m, c0, c1, r, r, TN_TILE_ONEWAY));
                if (land) {
                    b->y = top - H;
                    b->vy = 0.0f;
                    return;
                }
            }
        } else {
            for (int r = r0 - 1; r >= n0; r--)
                if (rect_has(m, c0, c1, r, r, TN_TILE_BLOCK)) {
                    b->y = (float)(r + 1) * T;
                    b->vy = 0.0f;
                    b->hit_ceiling = true;
                    b->rising = false;
                    return;
                }
        }
        b->y += d;
        r0 = n0;
        r1 = n1;
    }
}

/* A box that overlaps a block (more than EPS) at the start of a step was
 * put there by the caller (knock-back, a placement): the moves below test
 * only the tiles they enter, so it walked through a one-tile wall or fell
 * into a block's top row and stood inside it.  Move it out first by the
 * shortest move that frees it: to the nearer tile edge on x or on y (each
 * less than a tile), else both, the smallest |dx| + |dy|, x before y on a
 * tie.  A box deeper in (or NaN, or far outside) is left as it is.  The
 * physics never leaves a box inside a block, so a body only its inputs
 * move never gets here (one box test a step).  The box's columns c0..c1
 * and rows r0..r1 where it is then, for the moves. */
static void push_out(tn_body *b, const tn_map *m, float T, int *c0, int *c1, int *r0, int *r1)
{
    const float W = (float)b->w * T, H = (float)b->h * T;
    span(T, b->x, W, c0, c1);
    span(T, b->y, H, r0, r1);
    if (!rect_has(m, *c0, *c1, *r0, *r1, TN_TILE_BLOCK)) return;
    if (!(fabsf(b->x) < 1e9f && fabsf(b->y) < 1e9f)) return;
    const float xs[3] = {b->x, (float)*c1 * T - W, (float)(*c0 + 1) * T};
    const float ys[3] = {b->y, (float)*r1 * T - H, (float)(*r0 + 1) * T};
    float best = INFINITY, bx = b->x, by = b->y;
    for (int j = 0; j < 3; j++) /* (y outer: the x-only moves first, a tie's winners) */
        for (int i = 0; i < 3; i++) {
            float dx = fabsf(xs[i] - b->x), dy = fabsf(ys[j] - b->y), d = dx + dy;
            if ((i == 0 && j == 0) || !(dx < T && dy < T) || !(d < best)) continue;
            if (box_blocked(m, T, xs[i], ys[j], b->w, b->h)) continue;
            best = d;
            bx = xs[i];
            by = ys[j];
        }
    b->x = bx;
    b->y = by;
    span(T, b->x, W, c0, c1);
    span(T, b->y, H, r0, r1);
}

/* Standing: feet exactly on a tile top with a block or one-way below. */
static void detect_ground(tn_body *b, const tn_map *m, float T)
{
    const float H = (float)b->h * T;
    float bottom = b->y + H;
    float row_f = roundf(bottom / T);
    b->on_ground = false;
    b->on_oneway_only = false;
    if (b->vy < 0.0f || fabsf(bottom - row_f * T) > EPS(T)) return;
    int row = tile_index(row_f), c0, c1;
    span(T, b->x, (float)b->w * T, &c0, &c1);
    bool block = rect_has(m, c0, c1, row, row, TN_TILE_BLOCK);
    bool oneway = rect_has(m, c0, c1, row, row, TN_TILE_ONEWAY);
    if (!block && !oneway) return;
    b->on_ground = true;
    b->on_oneway_only = !block;
    /* Standing means no vertical speed: a landing found here rather than
     * in move_y (feet within the margin of a top at the end of a step that
     * was still rising) kept up to g*dt px/s downward, and a walk-off on
     * the next step then fell faster than from rest. */
    b->vy = 0.0f;
    b->y = row_f * T - H;
}

/* A tile size the sub-moves can cross a tile in (the range
 * tn_phys_validate takes): at 0 or below a sub-move of T/2 px never used
 * up a move (tn_body_step looped for ever), a tiny one took ~forever, a
 * NaN one put the box nowhere. */
static inline bool tile_px_ok(float T)
{
    return T >= (float)TN_PHYS_TILE_PX_MIN && T <= (float)TN_PHYS_TILE_PX_MAX;
}

void tn_body_settle(tn_body *b, const tn_map *m, const tn_phys_params *p)
{
    if (!b || !m || !p || b->vy < 0.0f || !tile_px_ok(p->tile_px)) return;
    detect_ground(b, m, p->tile_px); /* (moves nothing unless the feet are on a top) */
    if (b->on_ground) b->air_frames = 0;
}

void tn_body_step(tn_body *b, const tn_map *m, const tn_phys_params *p, tn_input in)
{
    if (!b || !m || !p || !tile_px_ok(p->tile_px)) return;
    const float T = p->tile_px;
    /* NaN, infinite or 2^30 tiles away: outside every map, nothing to do
     * (no jump, no velocity: `jumped` said a jump had started) */
    const float far = 1073741824.0f * T;
    if (!(fabsf(b->x) < far) || !(fabsf(b->y) < far)) return;
    b->hit_ceiling = b->hit_wall = b->jumped = false;

    b->vx = ((in.right ? 1.0f : 0.0f) - (in.left ? 1.0f : 0.0f)) * p->walk_speed;

    bool pressed = in.jump && !b->jump_held;
    bool may_jump = b->on_ground || (b->air_frames > 0 && b->air_frames <= p->coyote_frames);
    if (pressed && may_jump) {
        b->vy = -tn_phys_jump_speed(p);
        b->rising = true;
        b->jumped = true;
        b->on_ground = false;
        b->air_frames = AIR_AFTER_JUMP;
    } else if (in.down && b->on_ground && b->on_oneway_only) {
        b->y += DROP_PX(T); /* below the platform top: the landing rule lets go */
        b->on_ground = false;
        b->air_frames = AIR_AFTER_JUMP;
    }
    b->jump_held = in.jump;

    if (b->rising && !in.jump && b->vy < -p->jump_cut_speed) b->vy = -p->jump_cut_speed;

    int c0, c1, r0, r1; /* the box's tiles, for the moves; out of a block */
    push_out(b, m, T, &c0, &c1, &r0, &r1);
    float prev_bottom = b->y + (float)b->h * T;
    float vy0 = b->vy;
    float vy1 = tn_minf(vy0 + p->gravity * p->dt, p->max_fall);
    if (vy0 > p->max_fall) vy1 = p->max_fall;
    b->vy = vy1;
    if (b->vy >= 0.0f) b->rising = false;

    move_x(b, m, T, b->vx * p->dt, r0, r1, c0, c1);
    if (b->vx != 0.0f) b->x = on_lattice(b->x, T, p->walk_speed * p->dt);
    move_y(b, m, T, 0.5f * (vy0 + vy1) * p->dt, prev_bottom, r0, r1);
    detect_ground(b, m, T);

    if (b->on_ground)
        b->air_frames = 0;
    else if (b->air_frames < AIR_AFTER_JUMP)
        b->air_frames++;
}

void tn_physi_diff(const tn_phys_params *a, const tn_phys_params *b, char *buf, size_t cap,
                   size_t *n)
{
    if (a->tile_px != b->tile_px)
        tn_commoni_appendf(buf, cap, n, "tile_px %g / %g", (double)a->tile_px, (double)b->tile_px);
    if (a->jump_height != b->jump_height)
        tn_commoni_appendf(buf, cap, n, "jump_height %g / %g", (double)a->jump_height,
                           (double)b->jump_height);
    if (a->dt != b->dt)
        tn_commoni_appendf(buf, cap, n, "dt %g / %g s", (double)a->dt, (double)b->dt);
    if (a->gravity != b->gravity)
        tn_commoni_appendf(buf, cap, n, "gravity %g / %g", (double)a->gravity, (double)b->gravity);
    if (a->max_fall != b->max_fall)
        tn_commoni_appendf(buf, cap, n, "max_fall %g / %g", (double)a->max_fall,
                           (double)b->max_fall);
    if (a->walk_speed != b->walk_speed)
        tn_commoni_appendf(buf, cap, n, "walk_speed %g / %g", (double)a->walk_speed,
                           (double)b->walk_speed);
    if (a->jump_cut_speed != b->jump_cut_speed)
        tn_commoni_appendf(buf, cap, n, "jump_cut_speed %g / %g", (double)a->jump_cut_speed,
                           (double)b->jump_cut_speed);
    if (a->coyote_frames != b->coyote_frames)
        tn_commoni_appendf(buf, cap, n, "coyote_frames %d / %d", a->coyote_frames,
                           b->coyote_frames);
}
