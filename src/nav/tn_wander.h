/* SPDX-License-Identifier: Zlib */
/* tn_wander.h - wanderers: agents that drift toward a target on a biased
 * random walk, moving smoothly along a centripetal Catmull-Rom spline at
 * constant speed, with a bounded turn rate.
 *
 * THE WALK.  A wanderer keeps four waypoints A, B, C, D and moves along the
 * spline segment from B to C.  When it reaches C the waypoints shift (B, C,
 * D become A, B, C) and a new D is drawn from C:
 *  - near the target (|target - C| <= near_dist) with line of sight to it,
 *    D is the target itself: the walk goes straight in and stops there; and
 *    no waypoint is ever drawn farther from C than the target is, so it
 *    never overshoots;
 *  - otherwise D = C + L * (cos a, sin a), L uniform in [step_min, step_max]
 *    and a uniform in a cone of half-width
 *        h = (1 - bias) * pi + bias * w(d),
 *        w(d) = cone_near + (cone_far - cone_near) * min(1, d / cone_ref)
 *    around the direction to the target (d = its distance), or, when C has
 *    no line of sight to the target and `guide` is on, around the direction
 *    to the first corner of a path to it, or to the farthest of the path's
 *    next two points in sight from C (the corners before it are passed),
 *    so walls between the walk and the target do not trap it.  The path
 *    (tn_agent_nav.path) is planned again only when the target has moved a
 *    tile or the point aimed at is out of sight.  It is a point's path
 *    (radius 0) when the box is narrower than a tile (2 half < TN_TILE_PX):
 *    every opening of a tile map is a tile wide, so such a box passes
 *    wherever a point does, and on the navigation mesh a point's path is
 *    several times cheaper than a disc's; a wider box asks for a path of
 *    radius `half`.  bias 0 gives a
 *    uniform direction (an unbiased walk: a step is as likely to get closer
 *    as farther); bias 1 a cone of half-width 34 degrees far away down to 6
 *    next to the target (nearly straight).  The mean progress per draw,
 *    E[L] * sin(h) / h, rises monotonically with the bias (measured in
 *    test_wander: 0.00, 0.27, 0.57, 0.78, 0.95 px per step at bias 0,
 *    1/4, 1/2, 3/4, 1, for 1.07 px of travel per step).
 * A candidate D is accepted when its box is free, there is line of sight
 * (tn_agent_nav.los) from C, the box stays free along the whole new segment
 * B-C (which D shapes; checked every SWEEP_PX = 2 px of arc, each two
 * neighbouring points' boxes together with the rectangle between them, so
 * a box cutting a wall's corner between two points is seen; every position
 * it then steps to is checked again), and the segment's sharpest turn keeps
 * within the turn-rate bound.  Up to `tries` draws from the cone, then up
 * to `tries` draws in a +-60 degree fan ahead (keeping the one that points
 * most toward the target), then the least sharp free candidate (travelled
 * more slowly, see below); with none at all, the wanderer stops at C, turns
 * on the spot and starts again from there, drawing from the full circle if
 * it must (a dead end, a pocket).
 * NARROW OPENINGS.  A point path's corners are the walls' own corners, and
 * random waypoints rarely shape a curve through a one-tile door (the
 * default box, 8 px in a 16-px gap, has 4 px a side).  So before the cone,
 * when the guide has a corner G (bias > 0, the target out of sight, C not a
 * standing start): its pass point P is G moved off the wall (with one of
 * the four tiles at G blocked, diagonally away by half + 2 px; with two,
 * straight away to the middle of the free stretch; else the nearest free
 * box).  The opening is narrow when, across the path's way on, half a box
 * past G, the box has less than two tiles to spare.  At a narrow opening
 * seen from more than 15 degrees off the line P -> N (N the path's next
 * point), the walk heads first for the approach point P - step_min (N - P)
 * / |N - P| (or half that), lined up with it; from behind (a turn of more
 * than 90 degrees there) it only aims a step further back.  The cone
 * points at the point headed for, and with it within a step (2 half ..
 * step_max) D is that point itself with probability `bias`; from the
 * approach point D is P, and from P the next one is drawn toward N in the
 * cone of bias 1.
 * At a narrow opening these waypoints are taken even when the curve must
 * slow down for them (to 0.2 of the speed at least: the turn-rate bound
 * holds).  Bias 0 never does any of this.  Measured (test_wander's
 * test_door_width: 100 wanderers, 5 seeds x 20 starts, default params, two
 * rooms joined by a door of 1 / 2 / 3 tiles, 8 tiles to walk, paths on the
 * navmesh, the shortest walk through 2.5 s): at bias 1 all pass, after
 * 5.4 / 5.1 / 3.6 s on average (medians 3.1 and 2.8 s for one and three
 * tiles, 90th percentiles 10.3 and 4.8 s); at bias 0.5
 * 97 / 100 / 100 of 100 pass within 120 s, after 24 / 19 / 22 s; at bias 0
 * 30 / 92 / 99, as before (35 / 94 / 99).  docs/perf.md has the numbers
 * before these pass points (2026-12-04).
 *
 * THE CURVE.  Centripetal Catmull-Rom (alpha = 1/2: no cusps or
 * self-intersections inside a segment; Yuksel, Schaefer and Keyser 2011)
 * through A, B, C, D, evaluated as the equivalent cubic Hermite segment
 * B-C.  It is C1 at every waypoint, so the heading never jumps.  Arc length
 * is tabulated at TN_WANDER_TABLE + 1 points per segment (Simpson's rule on
 * each interval); the wanderer advances `speed * dt` of arc length per step
 * and inverts the table with a monotone cubic Hermite interpolant of u(s)
 * whose end slopes are the exact 1/|p'(u)|, so it moves at constant speed
 * along the curve (step lengths within 0.7% of speed * dt, measured).
 *
 * SMOOTHNESS bounds the turn rate:
 *     omega = turn_fast^(1 - smoothness) * turn_slow^smoothness   (rad/s)
 * (defaults 3 pi and pi/3 rad/s: at 60 steps/s, 9 down to 1 degree per
 * step).  The curvature kappa = |p' x p''| / |p'|^3 is sampled at 2 *
 * TN_WANDER_TABLE + 1 points per segment.  Where kappa * speed > 0.8 *
 * omega (which the waypoint sampling avoids whenever it can) the wanderer
 * slows down there (looking at kappa where the step starts and ends, and
 * across a waypoint, where the spline is C1 but not C2) so the heading
 * still turns by at most omega * dt per step.  From rest it first turns on
 * the spot at omega toward the curve, which then leaves straight toward C.
 *
 * ARRIVAL.  With arrive_radius > 0 the walk never ends on the target: it
 * drifts in as above (the "straight in" rule is off) and, once a waypoint
 * lies within the radius, keeps drawing unbiased waypoints that stay
 * inside it, at arrive_speed (a group of wanderers stays spread around the
 * target instead of collapsing onto one point).
 *
 * TARGETS.  tn_wanderer_set_target() may be called on any step: the segment
 * being travelled and the next waypoint are already fixed (changing them
 * would make the agent jump), so the walk bends toward the new target from
 * the next waypoint on.  At the target the wanderer stops; it walks again
 * when the target moves more than resume_dist away.
 *
 * UNITS pixels, seconds, radians (angles measured with y down, atan2(dy,dx)).
 * RANDOMNESS: each wanderer owns a tn_rng stream (seed, stream), so a run is
 * a pure function of the seeds and the calls.  MEMORY: the struct (432
 * bytes); nothing is allocated.
 *
 * COST: about 300 ns a wanderer-step with the path guide on the navigation
 * mesh (1,000 wanderers among 12% blocks on a 128x128-tile map: ~22
 * waypoint draws, ~140 line-of-sight queries and ~8 guide paths a step),
 * against a target of 0.5 ms for the 1,000; `tilenav-bench agents` prints
 * the current numbers (docs/bench.md).
 *
 * THREAD SAFETY: a tn_wanderer belongs to one thread at a time; params and
 * the environment are only read and may be shared.
 */
#ifndef TN_WANDER_H
#define TN_WANDER_H

#include "tn_map.h"
#include "tn_rng.h"
#include "tn_steer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_WANDER_TABLE 24
/* Most candidate draws per stage (tn_wander_params.tries): a waypoint costs
 * up to 4 * tries line-of-sight and sweep tests when every draw fails, so an
 * unbounded count would stall a step. */
#define TN_WANDER_MAX_TRIES 1024
/* Limits of the other fields (tn_wander_validate). */
#define TN_WANDER_HALF_MAX 128.0f     /* px: half (8 tiles of 16 px) */
#define TN_WANDER_SPEED_MAX 16000.0f  /* px/s: speed (1,000 tiles/s) */
#define TN_WANDER_TURN_MAX 1000.0f    /* rad/s: turn_fast, turn_slow */
#define TN_WANDER_STEP_MIN 1.0f       /* px: least step_min, step_max, near_dist */
#define TN_WANDER_LENGTH_MAX 65536.0f /* px: distances (4,096 tiles) */

typedef struct tn_wander_params {
    float half;          /* half-size of the agent's square box, px; 4 */
    float speed;         /* px/s along the curve; 64 */
    float bias;          /* 0..1; 0.5 */
    float smoothness;    /* 0..1; 0.5 */
    float turn_fast;     /* rad/s at smoothness 0; 3 pi */
    float turn_slow;     /* rad/s at smoothness 1; pi / 3 */
    float step_min;      /* px between waypoints; 32 */
    float step_max;      /* px; 64 */
    float near_dist;     /* px: closer than this, straight to the target; 64 */
    float cone_near;     /* rad: cone half-width at bias 1 next to the target; 0.1 */
    float cone_far;      /* rad: ... at cone_ref and beyond; 0.6 */
    float cone_ref;      /* px; 320 */
    float resume_dist;   /* px: a stopped wanderer walks again beyond this; 24 */
    int tries;           /* candidate draws per stage; 12 */
    bool guide;          /* out of sight of the target, aim the cone at the
                          first corner of a path to it; true */
    float arrive_radius; /* px; 0 (default): walk straight onto the target and
                          stop.  > 0: never aim at the target itself; from a
                          waypoint within this radius of it, the next one is
                          drawn uniformly around (unbiased) but inside the
                          radius, and the walk runs at arrive_speed: the
                          wanderer keeps wandering around its target */
    float arrive_speed;  /* 0..1: speed factor inside arrive_radius; 0.5 */
} tn_wander_params;

/* One spline segment B-C as a cubic p(u) = c0 + c1 u + c2 u^2 + c3 u^3,
 * u in [0, 1], with its arc-length table. */
typedef struct tn_wander_seg {
    float cx[4], cy[4];
    float cum[TN_WANDER_TABLE + 1];   /* arc length at u = k / TN_WANDER_TABLE */
    float speed[TN_WANDER_TABLE + 1]; /* |p'(u)| there */
    float kmax;                       /* largest curvature sampled, 1/px */
} tn_wander_seg;

enum { TN_WANDER_WALK = 0, TN_WANDER_TURN, TN_WANDER_STOPPED, TN_WANDER_WAIT };

typedef struct tn_wanderer {
    float x, y;        /* centre, px */
    float heading;     /* radians */
    float tx, ty;      /* target, px */
    float wp[8];       /* waypoints A, B, C, D (x, y pairs) */
    tn_wander_seg seg; /* B -> C */
    float s;           /* arc length travelled on seg */
    int cursor;        /* table interval holding s */
    int mode;          /* TN_WANDER_* */
    bool c_is_target;  /* C is the target: stop there */
    bool d_is_target;
    bool stop_at_c; /* D is not a real waypoint: stop at C and start again */
    int wait;       /* steps before the next start attempt (mode WAIT) */
    tn_rng rng;
    long waypoints; /* waypoints drawn */
    long slowed;    /* segments travelled below full speed */
    long restarts;  /* stops and fresh starts (dead ends, edits) */
    long paths;     /* guide paths planned */
    bool has_guide; /* guide_x/y: first corner of a path to the target */
    float guide_x, guide_y, guide_tx, guide_ty; /* ... planned for this target */
    float guide_next[4];                        /* the path's next points after it (x, y pairs) */
    int guide_nnext;                            /* how many of them (0..2) */
    int pass_phase;         /* D is 1: the approach point, 2: the pass point (NARROW OPENINGS) */
    float pass_ax, pass_ay; /* the approach point */
    float pass_x, pass_y;   /* the pass point */
    float exit_x, exit_y;   /* the path's point after it */
} tn_wanderer;

typedef struct tn_wander_env {
    const tn_map *map;
    const tn_agent_nav *nav; /* line of sight; paths for the guide */
    float dt;                /* seconds per step */
} tn_wander_env;

tn_wander_params tn_wander_default_params(void);
/* TN_OK (err cleared) when every field is in its range, else INVALID_PARAM
 * with a message naming the first bad field, its value and its range
 * ("wander: speed 0 px/s is outside (0, 16000]"; NaN and infinities are
 * outside every range, a NaN named so: "wander: speed is not a number
 * (NaN); the range is (0, 16000] px/s"):
 *   half                          (0, TN_WANDER_HALF_MAX] px
 *   speed                         (0, TN_WANDER_SPEED_MAX] px/s
 *   turn_fast, turn_slow          (0, TN_WANDER_TURN_MAX] rad/s
 *   step_min, step_max, near_dist [TN_WANDER_STEP_MIN, TN_WANDER_LENGTH_MAX] px
 *   cone_ref                      (0, TN_WANDER_LENGTH_MAX] px
 *   resume_dist, arrive_radius    [0, TN_WANDER_LENGTH_MAX] px
 *   cone_near, cone_far           (0, pi] rad
 *   bias, smoothness              [0, 1];  arrive_speed (0, 1]
 *   tries                         1..TN_WANDER_MAX_TRIES
 * and step_min <= step_max <= near_dist, cone_near <= cone_far.  The
 * bounds keep a step's work and arithmetic finite (a distance beyond the
 * largest map, TN_MAP_MAX_SIZE tiles, means nothing); a wanderer given a
 * speed of 1e30 px/s or a box of 1e6 px used to stand still with no
 * message. */
tn_status tn_wander_validate(const tn_wander_params *p, tn_error *err);
/* The turn-rate bound omega, rad/s (0 for p NULL). */
float tn_wander_turn_rate(const tn_wander_params *p);
/* The cone half-width for a target at distance d, radians (0 for p NULL). */
float tn_wander_cone(const tn_wander_params *p, float d);

/* A wanderer at (x, y) (its box free: one that overlaps a block is moved
 * out when it starts, see tn_wander_step) facing `heading`, walking
 * toward (tx, ty); its random stream is (seed, stream).  It draws its first
 * waypoints on its first step.  Here and in the two below, a NULL
 * wanderer: nothing. */
void tn_wanderer_init(tn_wanderer *a, float x, float y, float heading, float tx, float ty,
                      uint64_t seed, uint64_t stream);
void tn_wanderer_set_target(tn_wanderer *a, float tx, float ty);
/* Forget the waypoints and start again from where it stands (after the map
 * changed under it; a box a block now covers is moved out when it starts,
 * as tn_wander_step says, or free it yourself with tn_steer_unstick). */
void tn_wanderer_restart(tn_wanderer *a);
/* Advance n wanderers one step.  `p` must have passed
 * tn_wander_validate, env->map must be set and env->dt > 0 (nothing is
 * re-checked per step).  a, p or env NULL: nothing.
 * A wanderer whose box overlaps a block when it starts a walk or stands
 * stopped at its target (placed there, or a block edited onto it: its
 * walk stops, also while it turns on the spot before walking, it waits
 * 15 steps and starts again) first moves to the nearest tile centre where its box is
 * free, up to TN_STEER_UNSTICK_TILES tiles away (tn_steer_unstick); with
 * none that near it waits on (free it yourself, or remove it).  Before,
 * it drew no free waypoint from there and stood in the wall for good. */
void tn_wander_step(tn_wanderer *a, int n, const tn_wander_params *p, const tn_wander_env *env);

/* The point of a segment at parameter u in [0, 1] (s NULL: (0, 0); x or y
 * NULL: nothing written). */
void tn_wander_seg_point(const tn_wander_seg *s, float u, float *x, float *y);
/* Build the centripetal Catmull-Rom segment B-C of waypoints A, B, C, D
 * (xy = A, B, C, D as x, y pairs; consecutive points distinct; s or xy
 * NULL: nothing). */
void tn_wander_seg_build(tn_wander_seg *s, const float *xy);
/* The parameter u at arc length `len` along the segment, clamped to
 * [0, 1] (a NaN len, or s NULL: 0). */
float tn_wander_seg_param(const tn_wander_seg *s, float len);

#ifdef __cplusplus
}
#endif

#endif
