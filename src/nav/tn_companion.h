/* SPDX-License-Identifier: Zlib */
/* tn_companion.h - a flying companion that keeps the character company,
 * steered by boids rules the way action games use them (Reynolds 1987,
 * "Flocks, herds and schools"; Reynolds 1999, "Steering behaviors for
 * autonomous characters").
 *
 * EACH STEP (follow state) the desired velocity is the weighted sum of
 *  - following (cohesion): toward its anchor, `hover` px above the
 *    character's centre (it flies at head height); zero inside
 *    follow_inner (no hugging), rising linearly to max_speed at
 *    follow_outer, and max_speed beyond it (hurry).  The character's size
 *    (env char_hw, char_hh) bounds it: within char_clearance of the box
 *    the pull keeps only its part along the box, none toward it, so the
 *    companion rests char_clearance from the box of a character of any
 *    size, even one whose box holds the anchor or reaches past
 *    follow_outer (a 3x9-tile one: 72 px above and below its centre); on
 *    the box's side away from the anchor (under the character) it goes
 *    round at full pull toward the anchor's side, straight under it the
 *    nearer way no block closes (test_companion: every size of 1..3 x
 *    1..9 tiles settles 10 px off; the 3-tile-wide ones rested 5.6 px off,
 *    the separation alone holding them out of the box);
 *  - alignment: w_align times the character's velocity, so it keeps pace
 *    instead of trailing behind;
 *  - separation from the character: away from its box when the gap between
 *    the two boxes is under char_clearance, (1 - gap/clearance) * max_speed;
 *  - separation from every neighbour (enemies, other agents) within
 *    separation_radius, found through a tn_grid (never all pairs), each
 *    pushing (1 - d/r) * max_speed away;
 * clamped to max_speed.  The velocity moves toward it by at most max_accel*dt
 * (no jitter), the box moves with per-axis tile collision (tn_steer_move:
 * it slides along walls, never enters a block) and is then pushed out of the
 * character's box if the character walked into it (along the axis of least
 * penetration, or the other one when a block is in the way; pinned between
 * blocks and the character, e.g. landed on in a corner, it goes round to
 * the character's far side).  When a wall
 * stops the axis it mostly wants to move along and a sidestep of up to
 * half + 2 px clears the block's corner (tn_steer_corner_shift), it takes
 * it: paths that pass close to corners do not snag.
 *
 * PATHS AND THE CHARACTER.  The paths it asks for (tn_agent_nav.path) know
 * nothing of the character, so one may run through it; the steering would
 * then stop at the character's side, the corner pulling it on and the
 * separation holding it off.  While following a path, whenever the straight
 * line to the next corner enters the character's box grown by `half`, it
 * heads instead for a corner of that box grown by char_clearance + 1 px
 * more: a free one, reachable in a straight line, with the shortest way on
 * round the box (at most two box corners; 4 box tests, no extra path
 * query).  When no corner is free it keeps to the path.
 *
 * LOSING THE CHARACTER.  Every los_interval steps it tests line of sight
 * from its centre to the character's centre.  When the character is out of
 * sight it switches to SEARCH: it asks for a path (tn_agent_nav.path, with
 * its half-size as the radius) to the place it last saw the character and
 * follows it corner by corner, testing line of sight as it goes; the moment
 * it sees the character again it is back to FOLLOW.  When the path ends and
 * the character is still hidden it plans to the character's current centre
 * (no dead stop).  A character out of reach (walled in, or in a gap too
 * narrow for it): it follows the path to the closest place the query
 * offers (a negative count, tn_agent_nav) and waits there, within a tile
 * of it, retrying every retry_steps; with no path at all it hovers and
 * retries so.  After 30 steps without progress along a path it plans again.
 * (test_companion: on hand-made maps where the character hides behind a
 * wall or round a U-bend it sees it again within 87-147 steps.)
 *
 * ITEMS.  After idle_steps steps in FOLLOW, seeing the character, within
 * follow_outer of its anchor (or char_clearance + 1 px of its box: as
 * close as it comes to a big character) and slower than 20 px/s, it
 * considers the items within
 * fetch_range of the character: the up-to-4 nearest in a straight line get a
 * path each and it FETCHes the one with the shortest path.  Within
 * pickup_radius of the item it picks it up (tn_companion_step returns the
 * item's index; the caller removes it) and goes back to following.  A fetch
 * is abandoned when the item disappears or the character gets farther than
 * fetch_range + follow_outer away.  An item under the character (the
 * companion's box centred on it would overlap the character's box, out of
 * which the companion is always pushed) is left alone, and a fetch is
 * abandoned when the character steps onto its item.  An item behind the
 * character is reached round it (PATHS AND THE CHARACTER); on an open map
 * with a standing character every item spot it does not leave alone is
 * picked up (2,337 spots swept: 1,812 picked, 525 left alone, none
 * fetched for good).  A fetch is given up (back to FOLLOW, gave_up counts
 * it, no fetch for 4 * idle_steps) after 4 re-plans (stalled 30 steps, or
 * the path ended short of the item) or when the item becomes unreachable,
 * e.g. the character fills the corridor to it; that item is not fetched
 * again until the character has moved 16 px from where it stood.
 *
 * UNITS pixels, seconds.  MEMORY: the struct (392 bytes, a path of up to
 * TN_COMPANION_PATH_MAX corners inline); nothing is allocated.
 * DETERMINISM: no randomness at all.
 *
 * COST (tilenav-bench agents, -O2, this 2-core shared machine): 1,000
 * companions, each following its own walking character, among 1,000
 * enemies on a 128x128-tile map with 12% blocks, line of sight and paths on
 * the navmesh (250 line-of-sight tests and ~0.5 path queries per step):
 *
 * MEASURED: about 0.3 ms per step for all 1,000 (median of 5 runs' medians
 *   of 600 steps), i.e. about 300 ns per companion-step, bucketing 2,000
 *   points into the grid included; docs/bench.md has the current run.
 *   Target: under 1 ms.
 *
 * THREAD SAFETY: a tn_companion belongs to one thread at a time; params and
 * the environment (map, grid) are only read and may be shared.
 */
#ifndef TN_COMPANION_H
#define TN_COMPANION_H

#include "tn_map.h"
#include "tn_steer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_COMPANION_PATH_MAX 32

typedef enum tn_companion_state {
    TN_COMPANION_FOLLOW = 0,
    TN_COMPANION_SEARCH,
    TN_COMPANION_FETCH,
} tn_companion_state;

typedef struct tn_companion_params {
    float half;              /* half-size of its square box, px; 5 */
    float max_speed;         /* px/s; 220 */
    float max_accel;         /* px/s^2; 2400 (0 -> 220 px/s in 6 steps) */
    float follow_inner;      /* px from its anchor (see hover); 24 */
    float follow_outer;      /* px; 48 (the follow radius; the character's box
                                bounds both: see EACH STEP) */
    float hover;             /* px: it follows the point this far above the
                                character's centre (its anchor); 20 */
    float w_follow;          /* weight of following; 1 */
    float w_align;           /* weight of the character's velocity; 0.6 */
    float char_clearance;    /* px between the boxes; 10 */
    float w_character;       /* weight of separation from the character; 1 */
    float separation_radius; /* px; 40 */
    float w_separation;      /* weight of separation from neighbours; 1 */
    int los_interval;        /* steps between line-of-sight tests; 4 */
    float corner_reach;      /* px: a path corner counts as reached; 6 */
    int retry_steps;         /* steps between tries when nothing is reachable; 30 */
    int idle_steps;          /* idle steps before fetching an item; 45 */
    float fetch_range;       /* px from the character; 256 */
    float pickup_radius;     /* px; 8 */
    float path_radius;       /* px: radius of its navmesh paths (a disc that keeps
                                this far from every wall); 0 (default) = half */
} tn_companion_params;

typedef struct tn_companion {
    float x, y;   /* centre, px */
    float vx, vy; /* px/s */
    tn_companion_state state;
    bool sees;            /* result of the last line-of-sight test */
    float seen_x, seen_y; /* the character's centre when it was last seen */
    int path_n, path_i;   /* corners in path, index of the next one */
    float path[2 * TN_COMPANION_PATH_MAX];
    float goal_x, goal_y; /* where the path leads */
    int item;             /* index of the item being fetched, -1 */
    float item_x, item_y;
    int items;    /* items picked up so far */
    int idle;     /* consecutive idle steps */
    int cooldown; /* steps before the next fetch or path retry */
    int stall;    /* steps without progress along a path */
    int replans;  /* re-plans in the current fetch */
    int gave_up;  /* fetches given up so far (too many re-plans) */
    bool skip;    /* skip_x, skip_y: the item last given up, not fetched again
                       until the character moves 16 px from skip_cx, skip_cy */
    float skip_x, skip_y, skip_cx, skip_cy;
    unsigned phase; /* offsets the line-of-sight tests of many companions */
    bool look_now;  /* test line of sight in the next step */
    long steps;
    long los_tests, paths_planned; /* counters for displays and benchmarks */
} tn_companion;

/* What one step sees of the world. */
typedef struct tn_companion_env {
    const tn_map *map;
    const tn_agent_nav *nav;   /* line of sight and paths; NULL (or a NULL
                                     los): always in sight, never searches */
    float char_x, char_y;      /* the character's centre, px */
    float char_vx, char_vy;    /* its velocity, px/s */
    float char_hw, char_hh;    /* half width and half height of its box, px */
    const tn_grid *neighbours; /* enemies and other agents; may be NULL */
    int32_t self_id;           /* this companion's id in `neighbours`, or -1 */
    const float *items;        /* item centres, px (x, y pairs) */
    int nitems;
    float dt; /* seconds per step */
} tn_companion_env;

/* Limits of tn_companion_params (tn_companion_validate). */
#define TN_COMPANION_HALF_MAX 128.0f     /* px: half and path_radius (8 tiles of 16 px) */
#define TN_COMPANION_SPEED_MAX 16000.0f  /* px/s: max_speed (1,000 tiles/s) */
#define TN_COMPANION_ACCEL_MAX 160000.0f /* px/s^2: max_accel (10,000 tiles/s^2) */
#define TN_COMPANION_LENGTH_MAX 65536.0f /* px: the other distances (4,096 tiles) */
#define TN_COMPANION_WEIGHT_MAX 100.0f   /* w_follow, w_align, w_character, w_separation */
#define TN_COMPANION_STEPS_MAX (1 << 20) /* los_interval, retry_steps, idle_steps */

/* The defaults documented in tn_companion_params. */
tn_companion_params tn_companion_default_params(void);
/* TN_OK (err cleared) when every field is in its range, else INVALID_PARAM
 * with a message naming the first bad field, its value and its range
 * ("companion: max_speed 0 px/s is outside (0, 16000]"; NaN and infinities
 * are outside every range, a NaN named so: "companion: half is not a
 * number (NaN); the range is (0, 128] px"):
 *   half                                (0, TN_COMPANION_HALF_MAX] px
 *   path_radius                         [0, TN_COMPANION_HALF_MAX] px
 *   max_speed                           (0, TN_COMPANION_SPEED_MAX] px/s
 *   max_accel                           (0, TN_COMPANION_ACCEL_MAX] px/s^2
 *   follow_outer, char_clearance, separation_radius, corner_reach,
 *   pickup_radius                       (0, TN_COMPANION_LENGTH_MAX] px
 *   follow_inner, hover, fetch_range    [0, TN_COMPANION_LENGTH_MAX] px
 *   w_follow, w_align, w_character,
 *   w_separation                        [0, TN_COMPANION_WEIGHT_MAX]
 *   los_interval, retry_steps,
 *   idle_steps                          1..TN_COMPANION_STEPS_MAX steps
 * and follow_inner < follow_outer.  The bounds keep a step's work and
 * arithmetic finite: a box over 16 tiles wide, a distance beyond the
 * largest map (TN_MAP_MAX_SIZE tiles), a weight that overflows the
 * steering sum or an interval whose multiples overflow an int is refused,
 * not run (it left the companion frozen or racing off silently). */
tn_status tn_companion_validate(const tn_companion_params *p, tn_error *err);

/* Place a companion at (x, y), following.  `phase` spreads the line-of-sight
 * tests of many companions over different steps (e.g. their index).  c NULL:
 * nothing. */
void tn_companion_init(tn_companion *c, float x, float y, unsigned phase);
/* Advance one step.  Returns the index (into env->items) of the item picked
 * up during this step, or -1.  The core of the module: `p` must have passed
 * tn_companion_validate, env->map must be set and env->dt > 0 (nothing
 * is re-checked per step).  c, p or env NULL: -1, nothing done.
 * A companion whose box overlaps a block when the step begins (placed
 * there, or a block edited onto it) is first moved to the nearest tile
 * centre where its box is free (tn_steer_unstick, up to
 * TN_STEER_UNSTICK_TILES tiles away), at rest, and reset
 * (tn_companion_reset); with none that near it stays where it is (free
 * it yourself, or remove it: tn_steer_move moves a box that starts
 * inside a block without collision, so it would fly on through walls).
 * Cost: one box test a step; while inside a block the search, every step
 * (at most (2 x 16 + 1)^2 box tests). */
int tn_companion_step(tn_companion *c, const tn_companion_params *p, const tn_companion_env *env);
/* The point it follows: `hover` px above the character's centre, or the
 * centre itself when the box would not fit there (a low ceiling).  p or e
 * NULL: (0, 0); x or y NULL: nothing written. */
void tn_companion_anchor(const tn_companion_params *p, const tn_companion_env *e, float *x,
                         float *y);
/* Forget the current path and task (e.g. after the map changed); the next
 * step tests line of sight and decides again.  c NULL: nothing. */
void tn_companion_reset(tn_companion *c);

const char *tn_companion_state_name(tn_companion_state s);

#ifdef __cplusplus
}
#endif

#endif
