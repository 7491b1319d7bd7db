/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_wander.h"

#include "internal/float_fields.h"

#include <math.h>

#define PI_F 3.14159265358979f
#define N TN_WANDER_TABLE
/* Share of the turn-rate bound a segment may use at full speed (the rest
 * covers the discrete curvature estimate's error). */
#define TURN_MARGIN 0.8f
/* Slower than this share of full speed, a candidate counts as a dead end. */
#define MIN_SCALE 0.2f
/* Half-width of the fan ahead tried when the cone has nothing. */
#define FAN (PI_F / 3.0f)
/* Steps between start attempts when nothing around is free. */
#define WAIT_STEPS 15
/* A wanderer this close to a stop point has arrived, px. */
#define ARRIVE_EPS 0.5f
#define T_PX ((float)TN_TILE_PX)

tn_wander_params tn_wander_default_params(void)
{
    tn_wander_params p;
    p.half = 4.0f;
    p.speed = 64.0f;
    p.bias = 0.5f;
    p.smoothness = 0.5f;
    p.turn_fast = 3.0f * PI_F;
    p.turn_slow = PI_F / 3.0f;
    p.step_min = 32.0f;
    p.step_max = 64.0f;
    p.near_dist = 64.0f;
    p.cone_near = 0.1f;
    p.cone_far = 0.6f;
    p.cone_ref = 320.0f;
    p.resume_dist = 24.0f;
    p.tries = 12;
    p.guide = true;
    p.arrive_radius = 0.0f;
    p.arrive_speed = 0.5f;
    return p;
}

tn_status tn_wander_validate(const tn_wander_params *p, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    if (!p) return tn_error_set(err, bad, 0, 0, "wander: no parameters (p is NULL)");
    const float L = TN_WANDER_LENGTH_MAX;
    /* every float field: finite, within lo..hi; open: above lo, not at it */
    const tn_float_field f[] = {
        {"half", "px", p->half, 0.0f, TN_WANDER_HALF_MAX, true},
        {"speed", "px/s", p->speed, 0.0f, TN_WANDER_SPEED_MAX, true},
        {"bias", "", p->bias, 0.0f, 1.0f, false},
        {"smoothness", "", p->smoothness, 0.0f, 1.0f, false},
        {"turn_fast", "rad/s", p->turn_fast, 0.0f, TN_WANDER_TURN_MAX, true},
        {"turn_slow", "rad/s", p->turn_slow, 0.0f, TN_WANDER_TURN_MAX, true},
        {"step_min", "px", p->step_min, TN_WANDER_STEP_MIN, L, false},
        {"step_max", "px", p->step_max, TN_WANDER_STEP_MIN, L, false},
        {"near_dist", "px", p->near_dist, TN_WANDER_STEP_MIN, L, false},
        {"cone_near", "rad", p->cone_near, 0.0f, PI_F, true},
        {"cone_far", "rad", p->cone_far, 0.0f, PI_F, true},
        {"cone_ref", "px", p->cone_ref, 0.0f, L, true},
        {"resume_dist", "px", p->resume_dist, 0.0f, L, false},
        {"arrive_radius", "px", p->arrive_radius, 0.0f, L, false},
        {"arrive_speed", "", p->arrive_speed, 0.0f, 1.0f, true},
    };
    tn_status st = tn_float_fields_check("wander", f, sizeof f / sizeof f[0], err);
    if (tn_failed(st)) return st;
    if (!(p->step_min <= p->step_max && p->step_max <= p->near_dist))
        return tn_error_set(err, bad, 0, 0,
                            "wander: need step_min (%g) <= step_max (%g) <= near_dist (%g)",
                            (double)p->step_min, (double)p->step_max, (double)p->near_dist);
    if (!(p->cone_near <= p->cone_far))
        return tn_error_set(err, bad, 0, 0, "wander: need cone_near (%g) <= cone_far (%g)",
                            (double)p->cone_near, (double)p->cone_far);
    if (p->tries < 1 || p->tries > TN_WANDER_MAX_TRIES)
        return tn_error_set(err, bad, 0, 0, "wander: tries %d is outside 1..%d", p->tries,
                            TN_WANDER_MAX_TRIES);
    return TN_OK;
}

float tn_wander_turn_rate(const tn_wander_params *p)
{
    if (!p) return 0.0f;
    return expf((1.0f - p->smoothness) * logf(p->turn_fast) + p->smoothness * logf(p->turn_slow));
}

float tn_wander_cone(const tn_wander_params *p, float d)
{
    if (!p) return 0.0f;
    float w = p->cone_near + (p->cone_far - p->cone_near) * tn_minf(1.0f, d / p->cone_ref);
    return (1.0f - p->bias) * PI_F + p->bias * w;
}

/* ---- the spline ------------------------------------------------------------------ */

void tn_wander_seg_point(const tn_wander_seg *s, float u, float *x, float *y)
{
    if (!x || !y) return;
    if (!s) {
        *x = *y = 0.0f;
        return;
    }
    *x = s->cx[0] + u * (s->cx[1] + u * (s->cx[2] + u * s->cx[3]));
    *y = s->cy[0] + u * (s->cy[1] + u * (s->cy[2] + u * s->cy[3]));
}

static float knot(float ax, float ay, float bx, float by)
{
    /* |b - a|^(1/2): the centripetal parameterisation. */
    return tn_maxf(sqrtf(tn_len(bx - ax, by - ay)), 1e-3f);
}

static void seg_deriv(const tn_wander_seg *s, float u, float *dx, float *dy, float *ddx, float *ddy)
{
    *dx = s->cx[1] + u * (2.0f * s->cx[2] + 3.0f * u * s->cx[3]);
    *dy = s->cy[1] + u * (2.0f * s->cy[2] + 3.0f * u * s->cy[3]);
    *ddx = 2.0f * s->cx[2] + 6.0f * u * s->cx[3];
    *ddy = 2.0f * s->cy[2] + 6.0f * u * s->cy[3];
}

/* Speed |p'(u)| and curvature |p' x p''| / |p'|^3 at u. */
static float seg_speed_curv(const tn_wander_seg *s, float u, float *curv)
{
    float dx, dy, ddx, ddy;
    seg_deriv(s, u, &dx, &dy, &ddx, &ddy);
    float sp = tn_len(dx, dy);
    *curv = sp > 1e-6f ? fabsf(dx * ddy - dy * ddx) / (sp * sp * sp) : INFINITY;
    return sp;
}

/* The cubic of the segment B-C, its largest curvature (at 2 * N + 1
 * points; only at the N + 1 table points when those already exceed kcap)
 * and largest speed |p'(u)| (for sampling it). */
static void seg_shape(tn_wander_seg *s, const float *p, float kcap, float *maxspeed)
{
    float ax = p[0], ay = p[1], bx = p[2], by = p[3], cx = p[4], cy = p[5], dx = p[6], dy = p[7];
    float t01 = knot(ax, ay, bx, by), t12 = knot(bx, by, cx, cy), t23 = knot(cx, cy, dx, dy);
    /* Tangents at B and C of the non-uniform Catmull-Rom spline, scaled to
     * the segment's parameter interval [0, 1]. */
    float m1x = (cx - bx) + t12 * ((bx - ax) / t01 - (cx - ax) / (t01 + t12));
    float m1y = (cy - by) + t12 * ((by - ay) / t01 - (cy - ay) / (t01 + t12));
    float m2x = (cx - bx) + t12 * ((dx - cx) / t23 - (dx - bx) / (t12 + t23));
    float m2y = (cy - by) + t12 * ((dy - cy) / t23 - (dy - by) / (t12 + t23));
    s->cx[0] = bx;
    s->cx[1] = m1x;
    s->cx[2] = -3.0f * bx + 3.0f * cx - 2.0f * m1x - m2x;
    s->cx[3] = 2.0f * bx - 2.0f * cx + m1x + m2x;
    s->cy[0] = by;
    s->cy[1] = m1y;
    s->cy[2] = -3.0f * by + 3.0f * cy - 2.0f * m1y - m2y;
    s->cy[3] = 2.0f * by - 2.0f * cy + m1y + m2y;
    /* kappa^2 = cross^2 / |p'|^6: no square root per sample.  The table
     * points first; when those already break `kcap` the middles cannot help
     * (kmax only grows) and are skipped. */
    float k2max = 0.0f, sp2max = 0.0f;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = pass; i <= 2 * N; i += 2) {
            float vx, vy, ddx, ddy;
            seg_deriv(s, (float)i / (2 * N), &vx, &vy, &ddx, &ddy);
            float sp2 = vx * vx + vy * vy, cr = vx * ddy - vy * ddx;
            float k2 = sp2 > 1e-12f ? cr * cr / (sp2 * sp2 * sp2) : INFINITY;
            k2max = tn_maxf(k2max, k2);
            sp2max = tn_maxf(sp2max, sp2);
        }
        if (k2max > kcap * kcap) break;
    }
    s->kmax = sqrtf(k2max);
    *maxspeed = sqrtf(sp2max);
}

/* Arc length by Simpson's rule on each table interval (speed at both ends
 * and the middle). */
static void seg_table(tn_wander_seg *s)
{
    float k;
    s->speed[0] = seg_speed_curv(s, 0.0f, &k);
    s->cum[0] = 0.0f;
    for (int i = 0; i < N; i++) {
        float mid = seg_speed_curv(s, ((float)i + 0.5f) / N, &k);
        s->speed[i + 1] = seg_speed_curv(s, (float)(i + 1) / N, &k);
        s->cum[i + 1] = s->cum[i] + (s->speed[i] + 4.0f * mid + s->speed[i + 1]) / (6.0f * N);
    }
}

void tn_wander_seg_build(tn_wander_seg *s, const float *p)
{
    if (!s || !p) return;
    float maxspeed;
    seg_shape(s, p, INFINITY, &maxspeed);
    seg_table(s);
}

static float seg_len(const tn_wander_seg *s) { return s->cum[N]; }

/* u at arc length `len`, starting the table search at *cursor.  Inside a
 * table interval u(s) is the cubic Hermite interpolant with the exact slopes
 * du/ds = 1/|p'(u)| at both ends (limited to keep it monotone, after
 * Fritsch and Carlson 1980). */
static float seg_param_from(const tn_wander_seg *s, float len, int *cursor)
{
    int k = *cursor;
    if (!(len > 0.0f)) { /* NaN too: the start, not a NaN parameter */
        *cursor = 0;
        return 0.0f;
    }
    if (len >= s->cum[N]) {
        *cursor = N - 1;
        return 1.0f;
    }
    while (k > 0 && s->cum[k] > len) k--;
    while (k < N - 1 && s->cum[k + 1] <= len) k++;
    *cursor = k;
    float h = s->cum[k + 1] - s->cum[k];
    if (!(h > 0.0f)) return (float)k / N;
    float t = (len - s->cum[k]) / h;
    /* Slopes in units of the interval: du/dt / (1/N). */
    float g0 = s->speed[k] > 0.0f ? tn_minf(3.0f, h * N / s->speed[k]) : 3.0f;
    float g1 = s->speed[k + 1] > 0.0f ? tn_minf(3.0f, h * N / s->speed[k + 1]) : 3.0f;
    float t2 = t * t, t3 = t2 * t;
    float f = (t3 - 2.0f * t2 + t) * g0 + (-2.0f * t3 + 3.0f * t2) + (t3 - t2) * g1;
    return ((float)k + tn_clampf(f, 0.0f, 1.0f)) / N;
}

float tn_wander_seg_param(const tn_wander_seg *s, float len)
{
    if (!s) return 0.0f;
    int cursor = 0;
    return seg_param_from(s, len, &cursor);
}

/* The box is free along the segment: at points at most SWEEP_PX apart
 * (equal steps in u, as many as the largest speed |p'(u)| needs), the
 * rectangle around each two neighbours' boxes is free (it holds every box
 * on the straight line between them, so a box cutting a wall's corner
 * between two points is seen; the curve strays from that line by less than
 * 0.1 px at the curvatures allowed).  The agent only ever stands on points
 * ~speed*dt apart, and each of those is checked again when it gets there. */
#define SWEEP_PX 2.0f
static bool pair_free(const tn_map *m, float ax, float ay, float bx, float by, float half)
{
    return tn_steer_rect_free(m, tn_minf(ax, bx) - half, tn_minf(ay, by) - half,
                              tn_maxf(ax, bx) + half, tn_maxf(ay, by) + half);
}

static bool seg_free(const tn_wander_seg *s, float maxspeed, const tn_map *m, float half)
{
    int n = (int)(maxspeed / SWEEP_PX) + 1;
    float du = 1.0f / (float)n, px = s->cx[0], py = s->cy[0];
    for (int k = 1; k <= n; k++) {
        float x, y;
        tn_wander_seg_point(s, (float)k * du, &x, &y);
        if (!pair_free(m, px, py, x, y, half)) return false;
        px = x;
        py = y;
    }
    return true;
}

/* The same for the straight line a-b. */
static bool line_free(const tn_map *m, float ax, float ay, float bx, float by, float half)
{
    int n = (int)(tn_len(bx - ax, by - ay) / SWEEP_PX) + 1;
    float px = ax, py = ay;
    for (int k = 1; k <= n; k++) {
        float t = (float)k / (float)n;
        float x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
        if (!pair_free(m, px, py, x, y, half)) return false;
        px = x;
        py = y;
    }
    return true;
}

/* ---- drawing waypoints ------------------------------------------------------------- */

typedef struct ctx {
    const tn_wander_params *p;
    const tn_wander_env *e;
    float omega; /* rad/s */
    float kfull; /* the sharpest curvature allowed at full speed, 1/px */
} ctx;

/* Speed factor for a segment of sharpest curvature k. */
static float speed_scale(const ctx *c, float k) { return k <= c->kfull ? 1.0f : c->kfull / k; }

typedef struct cand {
    float x, y;
    tn_wander_seg seg;
    float score; /* lower is better */
    bool ok;
} cand;

/* Check candidate D = (x, y) drawn from C = wp[4..5]: its box, (when
 * check_curve) the segment B-C it shapes, else the straight line C-D, then
 * line of sight.  A segment sharper than the bound is only worth checking
 * when it is less sharp than `kcap` (the best fallback so far).  On success
 * *seg has the segment's shape; its arc-length table is left to the caller
 * (seg_table), for the one candidate it keeps. */
static bool feasible(const ctx *c, const float *wp, float x, float y, bool check_curve,
                     tn_wander_seg *seg, float kcap)
{
    const tn_map *m = c->e->map;
    float half = c->p->half;
    if (!tn_steer_box_free(m, x, y, half)) return false;
    if (check_curve) {
        float q[8] = {wp[0], wp[1], wp[2], wp[3], wp[4], wp[5], x, y}, maxspeed;
        /* Worth it while sharper than kfull only below kcap. */
        seg_shape(seg, q, tn_maxf(c->kfull, kcap), &maxspeed);
        if (seg->kmax > c->kfull && seg->kmax >= kcap) return false;
        if (!seg_free(seg, maxspeed, m, half)) return false;
    } else if (!line_free(m, wp[4], wp[5], x, y, half)) {
        return false;
    }
    const tn_agent_nav *nav = c->e->nav;
    return !nav || !nav->los || nav->los(nav->user, wp[4], wp[5], x, y);
}

/* Where the cone points from (cx, cy) when the target is out of sight: the
 * first corner of a path to it.  A later point of that path in sight from
 * here is taken instead (the corners before it are passed; otherwise the
 * walk would keep turning back to a corner it can see but not reach).  The
 * path is planned again when the target has moved a tile since, or the
 * corner is out of sight from here.  It is a point's path when the box is
 * narrower than a tile (see the header, THE WALK).  False when the target
 * is in sight, or cannot be reached: the cone then points at the target
 * itself. */
static bool guide_point(tn_wanderer *a, const ctx *c, float cx, float cy, float *gx, float *gy)
{
    const tn_agent_nav *nav = c->e->nav;
    if (!nav || !nav->los || !nav->path || nav->los(nav->user, cx, cy, a->tx, a->ty)) return false;
    bool same = a->has_guide && tn_len2(a->guide_tx - a->tx, a->guide_ty - a->ty) < T_PX * T_PX;
    /* the farthest later point in sight, if any */
    for (int k = a->guide_nnext; same && k > 0; k--) {
        float nx = a->guide_next[2 * k - 2], ny = a->guide_next[2 * k - 1];
        if (!nav->los(nav->user, cx, cy, nx, ny)) continue;
        a->guide_x = nx;
        a->guide_y = ny;
        for (int i = 0; i + k < a->guide_nnext; i++) {
            a->guide_next[2 * i] = a->guide_next[2 * (i + k)];
            a->guide_next[2 * i + 1] = a->guide_next[2 * (i + k) + 1];
        }
        a->guide_nnext -= k;
        break;
    }
    bool fresh = same && tn_len2(a->guide_x - cx, a->guide_y - cy) > 4.0f &&
                 nav->los(nav->user, cx, cy, a->guide_x, a->guide_y);
    if (!fresh) {
        float xy[6];
        a->paths++;
        const float radius = 2.0f * c->p->half < T_PX ? 0.0f : c->p->half;
        int n = nav->path(nav->user, cx, cy, a->tx, a->ty, radius, xy, 3);
        a->has_guide = n > 0;
        if (!a->has_guide) return false;
        if (n > 3) n = 3;
        a->guide_x = xy[0];
        a->guide_y = xy[1];
        a->guide_nnext = n - 1;
        for (int i = 0; i < 2 * (n - 1); i++) a->guide_next[i] = xy[2 + i];
        a->guide_tx = a->tx;
        a->guide_ty = a->ty;
    }
    *gx = a->guide_x;
    *gy = a->guide_y;
    return true;
}

/* ---- narrow openings (tn_wander.h, NARROW OPENINGS) ------------------------------- */

/* Free stretch for the box from (ox, oy) + t (ux, uy), t = half, half + 1,
 * ... up to `reach`: the first and last free t of the first free run
 * (first < 0: none). */
static void free_run(const tn_map *m, float ox, float oy, float ux, float uy, float half,
                     float reach, float *first, float *last)
{
    *first = *last = -1.0f;
    for (float t = half; t <= reach; t += 1.0f) {
        bool free = tn_steer_box_free(m, ox + ux * t, oy + uy * t, half);
        if (free && *first < 0.0f) *first = t;
        if (free) *last = t;
        if (!free && *first >= 0.0f) break;
    }
}

typedef struct pass {
    float ax, ay; /* where to head now: the approach point, or P */
    float px, py; /* pass point P */
    float nx, ny; /* the path's point after the corner, N */
    bool at_pass; /* (ax, ay) is P */
    bool narrow;  /* the box has less than NARROW_PX to spare across */
    bool aim;     /* only aim at (ax, ay): too sharp a turn to go there now */
} pass;

#define PASS_GAP 2.0f
#define NARROW_PX (2.0f * T_PX)
#define LINE_UP (PI_F / 12.0f)
/* Where to pass the guide's corner G = (gx, gy), seen from C = (cx, cy);
 * false when no pass point is free (see the header, NARROW OPENINGS). */
static bool pass_point(const tn_wanderer *a, const ctx *c, float cx, float cy, float gx, float gy,
                       pass *o)
{
    const tn_map *m = c->e->map;
    const float half = c->p->half;
    float nx = a->guide_nnext > 0 ? a->guide_next[0] : a->tx;
    float ny = a->guide_nnext > 0 ? a->guide_next[1] : a->ty;
    /* The blocked tiles around G. */
    int nb = 0;
    float bx = 0.0f, by = 0.0f;
    for (int q = 0; q < 4; q++) {
        float qx = (q & 1) ? 1.0f : -1.0f, qy = (q & 2) ? 1.0f : -1.0f;
        if (!tn_steer_box_free(m, gx + 0.5f * qx, gy + 0.5f * qy, 0.25f)) {
            nb++;
            bx += qx;
            by += qy;
        }
    }
    float sx = 0.0f, sy = 0.0f;
    if (nb == 1 || nb == 2) {
        sx = bx > 0.0f ? -1.0f : (bx < 0.0f ? 1.0f : 0.0f);
        sy = by > 0.0f ? -1.0f : (by < 0.0f ? 1.0f : 0.0f);
    }
    float px = gx, py = gy, first, last;
    if (sx == 0.0f && sy == 0.0f && !tn_steer_box_free(m, gx, gy, half)) {
        /* No tile corner (a path for a disc, another navigation): the
         * nearest free box in one of 8 directions, PASS_GAP px further. */
        static const float D = 0.70710678f, dir[8][2] = {{1, 0},  {D, D},   {0, 1},  {-D, D},
                                                         {-1, 0}, {-D, -D}, {0, -1}, {D, -D}};
        bool found = false;
        for (float t = 1.0f; t <= 2.0f * half + PASS_GAP && !found; t += 1.0f)
            for (int k = 0; k < 8 && !found; k++) {
                float ux = dir[k][0], uy = dir[k][1];
                if (tn_steer_box_free(m, gx + ux * t, gy + uy * t, half)) {
                    px = gx + ux * (t + PASS_GAP);
                    py = gy + uy * (t + PASS_GAP);
                    found = true;
                }
            }
        if (!found) return false;
    } else if (sx != 0.0f && sy != 0.0f) {
        px = gx + sx * (half + PASS_GAP);
        py = gy + sy * (half + PASS_GAP);
    } else if (sx != 0.0f || sy != 0.0f) {
        free_run(m, gx, gy, sx, sy, half, half + T_PX, &first, &last);
        if (first < 0.0f) return false;
        px = gx + sx * 0.5f * (first + last);
        py = gy + sy * 0.5f * (first + last);
    }
    if (!tn_steer_box_free(m, px, py, half)) return false;
    o->ax = o->px = px;
    o->ay = o->py = py;
    o->nx = nx;
    o->ny = ny;
    o->at_pass = true;
    o->narrow = false;
    o->aim = false;
    /* How narrow is the opening?  Across the way on (w = G -> N), half a
     * box past G, from G out to the first block on P's side. */
    float dx = nx - px, dy = ny - py, dl = tn_len(dx, dy), wl = tn_len(nx - gx, ny - gy);
    if (wl < 1e-3f || dl < 1e-3f) return true;
    float wx = (nx - gx) / wl, wy = (ny - gy) / wl, qx = -wy, qy = wx;
    if (qx * (px - gx) + qy * (py - gy) < 0.0f) {
        qx = -qx;
        qy = -qy;
    }
    free_run(m, gx + wx * half, gy + wy * half, qx, qy, half, half + NARROW_PX + 1.0f, &first,
             &last);
    o->narrow = first >= 0.0f && last < half + NARROW_PX;
    /* Lined up with P -> N already (or a wide opening)? */
    float ex = px - cx, ey = py - cy, el = tn_len(ex, ey);
    if (!o->narrow || el < 1e-3f || dx * ex + dy * ey >= cosf(LINE_UP) * dl * el) return true;
    dx /= dl;
    dy /= dl;
    const tn_agent_nav *nav = c->e->nav;
    for (int i = 0; i < 2; i++) {
        float L = c->p->step_min * (i ? 0.5f : 1.0f);
        float qx_ = px - L * dx, qy_ = py - L * dy;
        if (!tn_steer_box_free(m, qx_, qy_, half) || !nav->los(nav->user, cx, cy, qx_, qy_) ||
            !line_free(m, qx_, qy_, px, py, half))
            continue;
        o->ax = qx_;
        o->ay = qy_;
        o->at_pass = false;
        /* Seen from behind (a turn of more than 90 degrees there): only aim
         * at a point a step further back, to come round to it. */
        if ((qx_ - cx) * dx + (qy_ - cy) * dy < 0.0f) {
            float rx = qx_ - c->p->step_min * dx, ry = qy_ - c->p->step_min * dy;
            if (tn_steer_box_free(m, rx, ry, half) && nav->los(nav->user, cx, cy, rx, ry)) {
                o->ax = rx;
                o->ay = ry;
            }
            o->aim = true;
        }
        return true;
    }
    return true;
}

/* From the pass point, on through the opening: toward the path's next point
 * in the cone of bias 1.  1 with a waypoint at full speed; else 0 (the
 * sharpest usable candidate is kept in *best). */
static int draw_exit(tn_wanderer *a, const ctx *c, const float *wp, bool check_curve, float d,
                     float *ox, float *oy, tn_wander_seg *seg, cand *best)
{
    const tn_wander_params *p = c->p;
    float cx = wp[4], cy = wp[5];
    float ex = a->exit_x - cx, ey = a->exit_y - cy, el = tn_len(ex, ey);
    if (el <= 1.0f) return 0;
    tn_wander_params one = *p;
    one.bias = 1.0f;
    float h1 = tn_wander_cone(&one, d), dir = atan2f(ey, ex);
    for (int k = 0; k < p->tries; k++) {
        float ang = dir + tn_rng_range(&a->rng, -h1, h1);
        float len = tn_minf(tn_rng_range(&a->rng, p->step_min, p->step_max), el);
        float x = cx + len * cosf(ang), y = cy + len * sinf(ang);
        if (!feasible(c, wp, x, y, check_curve, seg, best->score)) continue;
        float k_ = check_curve ? seg->kmax : 0.0f;
        if (k_ <= c->kfull) {
            *ox = x;
            *oy = y;
            return 1;
        }
        if (k_ < best->score) *best = (cand){x, y, *seg, k_, true};
    }
    return 0;
}

/* Draw the waypoint after C = wp[4..5] (B = wp[2..3], A = wp[0..1]) toward
 * the target.  check_curve: also check (and build into *seg) the segment
 * B-C.  Returns 2 for a target waypoint, 1 for a walk waypoint, 0 for none. */
static int draw_shape(tn_wanderer *a, const ctx *c, const float *wp, bool check_curve, float *ox,
                      float *oy, tn_wander_seg *seg)
{
    const tn_wander_params *p = c->p;
    float cx = wp[4], cy = wp[5];
    float dx = a->tx - cx, dy = a->ty - cy, d = tn_len(dx, dy);
    /* Inside the arrival radius: unbiased waypoints that stay inside it. */
    const float R = p->arrive_radius;
    const bool roam = R > 0.0f && d <= R;
#define OUTSIDE(X, Y) (roam && tn_len(a->tx - (X), a->ty - (Y)) > R)
    /* Near the target: straight in. */
    if (R <= 0.0f && d <= p->near_dist && d > ARRIVE_EPS &&
        feasible(c, wp, a->tx, a->ty, check_curve, seg, INFINITY) &&
        (!check_curve || speed_scale(c, seg->kmax) >= MIN_SCALE)) {
        *ox = a->tx;
        *oy = a->ty;
        return 2;
    }
    float toward = d > 0.0f ? atan2f(dy, dx) : a->heading;
    float half = roam ? PI_F : tn_wander_cone(p, d);
    cand best = {.ok = false, .score = INFINITY};
    /* Stage 0, through an opening (NARROW OPENINGS in the header): from
     * the approach point to the pass point, from there on through; else,
     * with a guide corner in reach, to its approach or pass point (with
     * probability `bias`). */
    int phase = roam ? 0 : a->pass_phase;
    a->pass_phase = 0;
    pass ps = {.at_pass = true};
    bool snap = false;
    int next_phase = 0;
    if (phase == 1 && cx == a->pass_ax && cy == a->pass_ay) {
        ps = (pass){.ax = a->pass_x,
                    .ay = a->pass_y,
                    .px = a->pass_x,
                    .py = a->pass_y,
                    .nx = a->exit_x,
                    .ny = a->exit_y,
                    .at_pass = true,
                    .narrow = true};
        snap = true;
        next_phase = 2;
    } else if (phase == 2 && cx == a->pass_x && cy == a->pass_y) {
        if (draw_exit(a, c, wp, check_curve, d, ox, oy, seg, &best)) return 1;
    } else if (p->guide && p->bias > 0.0f && d > ARRIVE_EPS) {
        float gx, gy;
        if (guide_point(a, c, cx, cy, &gx, &gy)) {
            toward = atan2f(gy - cy, gx - cx);
            if (!roam && pass_point(a, c, cx, cy, gx, gy, &ps)) {
                float pl = tn_len(ps.ax - cx, ps.ay - cy);
                if (pl > 1.0f) toward = atan2f(ps.ay - cy, ps.ax - cx);
                snap = check_curve && !ps.aim && pl >= 2.0f * p->half && pl <= p->step_max &&
                       tn_rng_range(&a->rng, 0.0f, 1.0f) < p->bias;
                next_phase = ps.at_pass ? 2 : 1;
            }
        }
    }
    if (snap && feasible(c, wp, ps.ax, ps.ay, check_curve, seg, best.score)) {
        /* A narrow opening is worth a slower curve (the turn-rate bound
         * holds: the walk slows down there). */
        float k_ = check_curve ? seg->kmax : 0.0f;
        if (k_ <= c->kfull || (ps.narrow && speed_scale(c, k_) >= MIN_SCALE)) {
            *ox = ps.ax;
            *oy = ps.ay;
            a->pass_phase = next_phase;
            a->pass_ax = ps.ax;
            a->pass_ay = ps.ay;
            a->pass_x = ps.px;
            a->pass_y = ps.py;
            a->exit_x = ps.nx;
            a->exit_y = ps.ny;
            return 1;
        }
        best = (cand){ps.ax, ps.ay, *seg, k_, true};
    }
    /* Stage 1: the cone toward the target. */
    for (int k = 0; k < p->tries; k++) {
        float ang = toward + tn_rng_range(&a->rng, -half, half);
        float len = tn_rng_range(&a->rng, p->step_min, p->step_max);
        if (!roam && d > ARRIVE_EPS && len > d) len = d; /* never past the target */
        if (roam) len *= 0.5f;
        float x = cx + len * cosf(ang), y = cy + len * sinf(ang);
        if (OUTSIDE(x, y)) continue;
        if (!feasible(c, wp, x, y, check_curve, seg, best.score)) continue;
        float k_ = check_curve ? seg->kmax : 0.0f;
        if (k_ <= c->kfull) {
            *ox = x;
            *oy = y;
            return 1;
        }
        if (k_ < best.score) best = (cand){x, y, *seg, k_, true};
    }
    /* Stage 2: a fan ahead of the last leg (B to C); the candidate pointing
     * most toward the target wins (the first one when the walk is unbiased). */
    float ahead = atan2f(cy - wp[3], cx - wp[2]);
    cand fan = {.ok = false, .score = INFINITY};
    for (int k = 0; k < p->tries; k++) {
        float ang = ahead + tn_rng_range(&a->rng, -FAN, FAN);
        float len = tn_rng_range(&a->rng, p->step_min, p->step_max);
        if (!roam && d > ARRIVE_EPS && len > d) len = d;
        if (roam) len *= 0.5f;
        float x = cx + len * cosf(ang), y = cy + len * sinf(ang);
        if (OUTSIDE(x, y)) continue;
        if (!feasible(c, wp, x, y, check_curve, seg, best.score)) continue;
        float k_ = check_curve ? seg->kmax : 0.0f;
        if (k_ > c->kfull) {
            if (k_ < best.score) best = (cand){x, y, *seg, k_, true};
            continue;
        }
        float off = p->bias > 0.0f ? fabsf(tn_wrap_angle(ang - toward)) : 0.0f;
        if (off < fan.score) {
            fan = (cand){x, y, *seg, off, true};
            /* Unbiased, or already inside the cone: good enough. */
            if (p->bias <= 0.0f || off <= half) break;
        }
    }
    if (fan.ok) {
        *ox = fan.x;
        *oy = fan.y;
        *seg = fan.seg;
        return 1;
    }
    /* Stage 3: the least sharp free candidate, travelled more slowly. */
    if (best.ok && speed_scale(c, best.score) >= MIN_SCALE) {
        *ox = best.x;
        *oy = best.y;
        *seg = best.seg;
        return 1;
    }
    /* Stage 4, from a standing start only (it turns on the spot first, so
     * any direction will do): anywhere around, shorter steps too, to get
     * out of a pocket or a dead end. */
    if (!check_curve) {
        for (int k = 0; k < 2 * p->tries; k++) {
            float ang = tn_rng_range(&a->rng, -PI_F, PI_F);
            float len = tn_rng_range(&a->rng, 2.0f * p->half, p->step_max);
            float x = cx + len * cosf(ang), y = cy + len * sinf(ang);
            if (!OUTSIDE(x, y) && feasible(c, wp, x, y, false, seg, INFINITY)) {
                *ox = x;
                *oy = y;
                return 1;
            }
        }
    }
#undef OUTSIDE
    return 0;
}

/* draw_shape, and the arc-length table of the segment it keeps. */
static int draw_next(tn_wanderer *a, const ctx *c, const float *wp, bool check_curve, float *ox,
                     float *oy, tn_wander_seg *seg)
{
    int kind = draw_shape(a, c, wp, check_curve, ox, oy, seg);
    if (kind != 0 && check_curve) seg_table(seg);
    return kind;
}

/* A point straight on from C (the direction of B to C), used as a D that is
 * never travelled: it only shapes the tangent at a stop point. */
static void straight_on(const float *wp, float len, float *x, float *y)
{
    float dx = wp[4] - wp[2], dy = wp[5] - wp[3], l = tn_len(dx, dy);
    if (l <= 0.0f) {
        dx = 1.0f;
        dy = 0.0f;
        l = 1.0f;
    }
    *x = wp[4] + dx / l * len;
    *y = wp[5] + dy / l * len;
}

static void set_segment(tn_wanderer *a, const ctx *c, const tn_wander_seg *seg)
{
    a->seg = *seg;
    a->s = 0.0f;
    a->cursor = 0;
    if (seg->kmax > c->kfull) a->slowed++;
}

/* Draw D after a shift or a start; with no usable waypoint, D goes straight
 * on and the walk stops at C (false when even that segment is blocked). */
static bool draw_d(tn_wanderer *a, const ctx *c, tn_wander_seg *seg)
{
    a->d_is_target = false;
    a->stop_at_c = false;
    float maxspeed;
    if (a->c_is_target) {
        straight_on(a->wp, c->p->step_min, &a->wp[6], &a->wp[7]);
        seg_shape(seg, a->wp, INFINITY, &maxspeed);
        seg_table(seg);
        return seg_free(seg, maxspeed, c->e->map, c->p->half);
    }
    int kind = draw_next(a, c, a->wp, true, &a->wp[6], &a->wp[7], seg);
    if (kind != 0) {
        a->waypoints++;
        a->d_is_target = kind == 2;
        return true;
    }
    straight_on(a->wp, c->p->step_min, &a->wp[6], &a->wp[7]);
    seg_shape(seg, a->wp, INFINITY, &maxspeed);
    seg_table(seg);
    a->stop_at_c = true;
    return speed_scale(c, seg->kmax) >= MIN_SCALE && seg_free(seg, maxspeed, c->e->map, c->p->half);
}

/* Start afresh from where it stands: B = here, C drawn, A straight behind B
 * (so the curve leaves B toward C), D drawn; then turn on the spot toward
 * the curve.  Mode WAIT when nothing around is usable. */
static void start(tn_wanderer *a, const ctx *c)
{
    if (tn_len(a->tx - a->x, a->ty - a->y) <= ARRIVE_EPS) {
        a->mode = TN_WANDER_STOPPED;
        return;
    }
    a->restarts++;
    float h = c->p->step_min;
    /* C is drawn from here, with the heading as the way ahead. */
    float first[6] = {a->x - h * cosf(a->heading), a->y - h * sinf(a->heading), 0, 0, a->x, a->y};
    first[2] = first[0];
    first[3] = first[1];
    float cxp, cyp;
    tn_wander_seg seg;
    int kind = draw_next(a, c, first, false, &cxp, &cyp, &seg);
    if (kind != 0) {
        a->wp[0] = 2.0f * a->x - cxp;
        a->wp[1] = 2.0f * a->y - cyp;
        a->wp[2] = a->x;
        a->wp[3] = a->y;
        a->wp[4] = cxp;
        a->wp[5] = cyp;
        a->c_is_target = kind == 2;
        if (draw_d(a, c, &seg)) {
            a->waypoints++;
            set_segment(a, c, &seg);
            a->mode = TN_WANDER_TURN;
            return;
        }
    }
    a->mode = TN_WANDER_WAIT;
    a->wait = WAIT_STEPS;
}

/* At C: shift the waypoints and draw the next one.  False when the walk
 * stops here instead (arrived, or a dead end to start again from). */
static bool shift(tn_wanderer *a, const ctx *c)
{
    if (a->c_is_target || a->stop_at_c) {
        bool moved = tn_len(a->tx - a->wp[4], a->ty - a->wp[5]) > ARRIVE_EPS;
        if (a->c_is_target && !moved) {
            a->mode = TN_WANDER_STOPPED;
            return false;
        }
        /* The target moved on while it came in: carry on through the D
         * straight beyond C when that is a usable waypoint; else (and at a
         * dead end) start again from here. */
        tn_wander_seg probe;
        if (a->stop_at_c || !feasible(c, a->wp, a->wp[6], a->wp[7], false, &probe, INFINITY)) {
            start(a, c);
            return false;
        }
    }
    for (int i = 0; i < 6; i++) a->wp[i] = a->wp[i + 2];
    a->c_is_target = a->d_is_target;
    tn_wander_seg seg;
    if (!draw_d(a, c, &seg)) {
        start(a, c);
        return false;
    }
    set_segment(a, c, &seg);
    return true;
}

/* ---- stepping ---------------------------------------------------------------------- */

void tn_wanderer_init(tn_wanderer *a, float x, float y, float heading, float tx, float ty,
                      uint64_t seed, uint64_t stream)
{
    if (!a) return;
    *a = (tn_wanderer){0};
    a->x = x;
    a->y = y;
    a->heading = heading;
    a->tx = tx;
    a->ty = ty;
    tn_rng_seed(&a->rng, seed, stream);
    a->mode = TN_WANDER_WAIT;
    a->wait = 0;
}

void tn_wanderer_set_target(tn_wanderer *a, float tx, float ty)
{
    if (!a) return;
    a->tx = tx;
    a->ty = ty;
}

void tn_wanderer_restart(tn_wanderer *a)
{
    if (!a) return;
    a->mode = TN_WANDER_WAIT;
    a->wait = 0;
}

/* Curvature of the current segment at arc length s. */
static float curv_at(const tn_wanderer *a, float s)
{
    int cursor = a->cursor;
    float k;
    seg_speed_curv(&a->seg, seg_param_from(&a->seg, s, &cursor), &k);
    return k;
}

/* A wanderer about to start whose box overlaps a block (placed there, or a
 * block edited onto it: no waypoint is free from there, so it waited for
 * good) moves first to the nearest tile centre where it is free, up to
 * TN_STEER_UNSTICK_TILES away; with none it waits on.  One box test a
 * start, and a step while stopped. */
static void free_box(tn_wanderer *a, const ctx *c)
{
    const tn_map *m = c->e->map;
    if (m && !tn_steer_box_free(m, a->x, a->y, c->p->half))
        tn_steer_unstick(m, c->p->half, &a->x, &a->y, TN_STEER_UNSTICK_TILES);
}

static void step_one(tn_wanderer *a, const ctx *c)
{
    const tn_wander_params *p = c->p;
    float dt = c->e->dt;
    switch (a->mode) {
    case TN_WANDER_STOPPED:
        free_box(a, c); /* first: one stopped at its target may never start */
        if (tn_len(a->tx - a->x, a->ty - a->y) <= p->resume_dist) return;
        start(a, c);
        if (a->mode != TN_WANDER_TURN) return;
        break;
    case TN_WANDER_WAIT:
        if (a->wait > 0) {
            a->wait--;
            return;
        }
        free_box(a, c);
        start(a, c);
        if (a->mode != TN_WANDER_TURN) return;
        break;
    default: break;
    }
    /* Full speed, unless the curve here or one step ahead is sharper than
     * the bound allows: then slow down so the heading turns by at most
     * omega * dt (with TURN_MARGIN to spare). */
    float ds = p->speed * dt;
    if (p->arrive_radius > 0.0f && tn_len(a->tx - a->x, a->ty - a->y) <= p->arrive_radius)
        ds *= p->arrive_speed;
    if (a->seg.kmax > c->kfull) {
        float k = tn_maxf(curv_at(a, a->s), curv_at(a, a->s + ds));
        if (k > c->kfull) ds *= c->kfull / k;
    }
    if (a->mode == TN_WANDER_TURN) {
        /* A block edited onto it while it turns: the walk stops here, as
         * a walking one's does (it waits, then frees its box and starts
         * again); turning on inside the block took up to a U-turn's time. */
        if (!tn_steer_box_free(c->e->map, a->x, a->y, p->half)) {
            a->restarts++;
            a->mode = TN_WANDER_WAIT;
            a->wait = WAIT_STEPS;
            return;
        }
        /* Turn on the spot toward the first stretch of the curve. */
        float qx, qy;
        int cursor = 0;
        tn_wander_seg_point(&a->seg, seg_param_from(&a->seg, ds, &cursor), &qx, &qy);
        float want = atan2f(qy - a->y, qx - a->x);
        float diff = tn_wrap_angle(want - a->heading), lim = c->omega * dt;
        if (fabsf(diff) > lim) {
            a->heading = tn_wrap_angle(a->heading + (diff > 0.0f ? lim : -lim));
            return;
        }
        a->mode = TN_WANDER_WALK;
    }
    float s = a->s + ds, used = 0.0f;
    while (s >= seg_len(&a->seg)) {
        used += seg_len(&a->seg) - (used > 0.0f ? 0.0f : a->s);
        s -= seg_len(&a->seg);
        if (!shift(a, c)) {
            if (a->mode == TN_WANDER_STOPPED) {
                a->x = a->wp[4];
                a->y = a->wp[5];
            }
            return;
        }
        /* The curvature may jump at a waypoint (the spline is C1, not C2):
         * the whole step obeys the new segment's limit too. */
        if (a->seg.kmax > c->kfull) {
            float k = tn_maxf(curv_at(a, 0.0f), curv_at(a, s));
            if (k > c->kfull) s = tn_minf(s, tn_maxf(0.0f, p->speed * dt * c->kfull / k - used));
        }
    }
    a->s = s;
    float nx, ny;
    tn_wander_seg_point(&a->seg, seg_param_from(&a->seg, s, &a->cursor), &nx, &ny);
    if (!tn_steer_box_free(c->e->map, nx, ny, p->half)) {
        /* Between table samples the curve clipped a block: never go there;
         * stop and start again from here. */
        start(a, c);
        return;
    }
    if (tn_len2(nx - a->x, ny - a->y) > 1e-8f) a->heading = atan2f(ny - a->y, nx - a->x);
    a->x = nx;
    a->y = ny;
}

void tn_wander_step(tn_wanderer *a, int n, const tn_wander_params *p, const tn_wander_env *env)
{
    if (!a || !p || !env) return;
    ctx c;
    c.p = p;
    c.e = env;
    c.omega = tn_wander_turn_rate(p);
    c.kfull = TURN_MARGIN * c.omega / p->speed;
    for (int i = 0; i < n; i++) step_one(&a[i], &c);
}
