/* tn_wander: the spline, and statistical properties of the biased walk with
 * fixed seeds (unbiased at bias 0, progress rising with the bias, bounded
 * turn rate, arrival, never inside a block, targets changed mid-walk). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents_testnav.h"
#include "tn_rng.h"
#include "tn_wander.h"

#define DT (1.0f / 60.0f)
#define PI_F 3.14159265358979f

/* ---- the spline ----------------------------------------------------------------- */

static void deriv(const tn_wander_seg *s, float u, float *dx, float *dy)
{
    *dx = s->cx[1] + u * (2 * s->cx[2] + 3 * u * s->cx[3]);
    *dy = s->cy[1] + u * (2 * s->cy[2] + 3 * u * s->cy[3]);
}

static void test_spline_interpolates_and_is_c1(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 11, 2);
    for (int t = 0; t < 2000; t++) {
        float p[10];
        for (int i = 0; i < 10; i++) p[i] = tn_rng_range(&r, 0, 200);
        tn_wander_seg a, b;
        tn_wander_seg_build(&a, p);
        tn_wander_seg_build(&b, p + 2);
        float x, y;
        tn_wander_seg_point(&a, 0, &x, &y);
        assert_true(fabsf(x - p[2]) < 1e-3f && fabsf(y - p[3]) < 1e-3f);
        tn_wander_seg_point(&a, 1, &x, &y);
        assert_true(fabsf(x - p[4]) < 1e-2f && fabsf(y - p[5]) < 1e-2f);
        /* The tangent leaving C on the next segment points the same way as
         * the one arriving there. */
        float ax, ay, bx, by;
        deriv(&a, 1, &ax, &ay);
        deriv(&b, 0, &bx, &by);
        float cross = ax * by - ay * bx, dot = ax * bx + ay * by;
        float la = tn_len(ax, ay), lb = tn_len(bx, by);
        if (la < 1 || lb < 1) continue; /* float noise dominates tiny tangents */
        assert_true(dot > 0);
        assert_true(fabsf(cross) / (la * lb) < 1e-3f);
    }
}

static void test_spline_constant_speed(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 12, 2);
    double worst = 0;
    for (int t = 0; t < 500; t++) {
        /* Waypoints as the walk draws them: 32..64 px apart, any turn. */
        float p[8] = {0, 0};
        float ang = 0;
        for (int i = 1; i < 4; i++) {
            ang += tn_rng_range(&r, -2.0f, 2.0f);
            float len = tn_rng_range(&r, 32, 64);
            p[2 * i] = p[2 * i - 2] + len * cosf(ang);
            p[2 * i + 1] = p[2 * i - 1] + len * sinf(ang);
        }
        tn_wander_seg s;
        tn_wander_seg_build(&s, p);
        float total = s.cum[TN_WANDER_TABLE], px, py;
        tn_wander_seg_point(&s, 0, &px, &py);
        const float ds = 1.0f;
        for (float l = ds; l < total; l += ds) {
            float x, y;
            tn_wander_seg_point(&s, tn_wander_seg_param(&s, l), &x, &y);
            double err = fabs(tn_len(x - px, y - py) - ds) / ds;
            if (err > worst) worst = err;
            px = x;
            py = y;
        }
    }
    print_message("constant speed: worst step length error %.2f%% (1 px steps)\n", 100 * worst);
    assert_true(worst < 0.01);
}

/* ---- walks ---------------------------------------------------------------------- */

static tn_wander_env env_for(const tn_map *m, const tn_agent_nav *nav)
{
    tn_wander_env e = {m, nav, DT};
    return e;
}

/* Mean progress per step toward a far target, one sample per walker: the
 * displacement projected on the direction from the start to the target
 * (at bias 0 the walk ignores the target, so by symmetry this has mean
 * zero; the distance itself grows on average for any unbiased walk). */
typedef struct drift {
    double mean, se; /* over walkers, px per step */
} drift;

static drift measure_drift(float bias, int walkers, int steps, uint64_t seed)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(256, 256, NULL, &m, NULL)));
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    p.bias = bias;
    const float cx = 2048, cy = 2048, tx = cx + 960, ty = cy;
    double sum = 0, sum2 = 0;
    tn_rng r;
    tn_rng_seed(&r, seed, 99);
    for (int w = 0; w < walkers; w++) {
        tn_wanderer a;
        tn_wanderer_init(&a, cx, cy, tn_rng_range(&r, -PI_F, PI_F), tx, ty, seed, (uint64_t)w);
        for (int k = 0; k < steps; k++) tn_wander_step(&a, 1, &p, &env);
        double mw = (a.x - cx) / steps;
        sum += mw;
        sum2 += mw * mw;
    }
    drift out;
    out.mean = sum / walkers;
    out.se = sqrt((sum2 / walkers - out.mean * out.mean) / (walkers - 1));
    tn_map_destroy(m);
    return out;
}

/* Share of first waypoints (independent draws, one per wanderer) that land
 * closer to the target than the start. */
static double first_draw_closer(float bias, int n, float dist)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(128, 128, NULL, &m, NULL)));
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    p.bias = bias;
    int closer = 0;
    for (int i = 0; i < n; i++) {
        tn_wanderer a;
        tn_wanderer_init(&a, 1024, 1024, 0, 1024 + dist, 1024, 77, (uint64_t)i);
        tn_wander_step(&a, 1, &p, &env);
        closer += tn_len(a.tx - a.wp[4], a.ty - a.wp[5]) < dist;
    }
    tn_map_destroy(m);
    return (double)closer / n;
}

static void test_bias_zero_is_unbiased(void **state)
{
    (void)state;
    drift d = measure_drift(0.0f, 400, 600, 5);
    print_message("bias 0: mean progress %.4f px/step (se %.4f)\n", d.mean, d.se);
    assert_true(fabs(d.mean) < 3 * d.se);
    assert_true(fabs(d.mean) < 0.05 * 64 * DT);
    /* A single draw is as likely to get closer as farther (up to the
     * geometric L/(2 pi d) = 0.008 at this distance). */
    int n = 20000;
    double c = first_draw_closer(0.0f, n, 960);
    print_message("bias 0: %.4f of %d first draws closer\n", c, n);
    assert_true(fabs(c - (0.5 - 0.008)) < 3 * sqrt(0.25 / n));
    /* ...and at bias 1 nearly all of them. */
    assert_true(first_draw_closer(1.0f, 2000, 960) > 0.99);
}

static void test_progress_rises_with_bias(void **state)
{
    (void)state;
    const float biases[] = {0, 0.25f, 0.5f, 0.75f, 1};
    double prev = -1;
    for (int i = 0; i < 5; i++) {
        drift d = measure_drift(biases[i], 100, 600, 6);
        print_message("bias %.2f: progress %.4f px/step (se %.4f)\n", (double)biases[i], d.mean,
                      d.se);
        assert_true(d.mean > prev + 2 * d.se);
        prev = d.mean;
    }
    /* bias 1 is nearly straight: most of the speed goes toward the target
     * (less the turn on the spot at the start, from a random heading). */
    assert_true(prev > 0.8 * 64 * DT);
}

/* A map of pillars and walls for walks with obstacles. */
static tn_map *obstacle_map(uint64_t seed)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(64, 48, NULL, &m, NULL)));
    tn_rng r;
    tn_rng_seed(&r, seed, 5);
    for (int i = 0; i < 60; i++) {
        int x = 2 + (int)tn_rng_below(&r, 58), y = 2 + (int)tn_rng_below(&r, 42);
        int w = 1 + (int)tn_rng_below(&r, 3), h = 1 + (int)tn_rng_below(&r, 3);
        for (int yy = y; yy < y + h; yy++)
            for (int xx = x; xx < x + w; xx++) tn_map_set_tile(m, xx, yy, TN_TILE_BLOCK, NULL);
    }
    return m;
}

static void free_point(const tn_map *m, tn_rng *r, float half, float *x, float *y)
{
    do {
        *x = tn_rng_range(r, 0, (float)m->w * TN_TILE_PX);
        *y = tn_rng_range(r, 0, (float)m->h * TN_TILE_PX);
    } while (!tn_steer_box_free(m, *x, *y, half + 2));
}

/* Walk `n` wanderers with targets re-drawn every `retarget` steps (0 =
 * never) and check every step: never in a block, heading change within the
 * bound, no jump in position.  Returns how many arrived. */
static int walk_checked(const tn_map *m, const tn_agent_nav *nav, float bias, float smooth, int n,
                        int steps, int retarget, uint64_t seed, double *worst_turn_ratio)
{
    tn_wander_env env = env_for(m, nav);
    tn_wander_params p = tn_wander_default_params();
    p.bias = bias;
    p.smoothness = smooth;
    float lim = tn_wander_turn_rate(&p) * DT;
    tn_rng r;
    tn_rng_seed(&r, seed, 77);
    tn_wanderer *a = calloc((size_t)n, sizeof *a);
    float tx, ty;
    free_point(m, &r, p.half, &tx, &ty);
    for (int i = 0; i < n; i++) {
        float x, y;
        free_point(m, &r, p.half, &x, &y);
        tn_wanderer_init(&a[i], x, y, tn_rng_range(&r, -PI_F, PI_F), tx, ty, seed, (uint64_t)i);
    }
    double worst = 0;
    for (int k = 0; k < steps; k++) {
        if (retarget && k % retarget == retarget - 1) {
            free_point(m, &r, p.half, &tx, &ty);
            for (int i = 0; i < n; i++) tn_wanderer_set_target(&a[i], tx, ty);
        }
        for (int i = 0; i < n; i++) {
            float ox = a[i].x, oy = a[i].y, oh = a[i].heading;
            tn_wander_step(&a[i], 1, &p, &env);
            assert_true(tn_steer_box_free(m, a[i].x, a[i].y, p.half));
            float moved = tn_len(a[i].x - ox, a[i].y - oy);
            assert_true(moved <= p.speed * DT * 1.002f + 0.6f * (a[i].mode == TN_WANDER_STOPPED));
            double turn = fabs(tn_wrap_angle(a[i].heading - oh));
            if (turn / lim > worst) worst = turn / lim;
        }
    }
    int arrived = 0;
    for (int i = 0; i < n; i++)
        arrived += a[i].mode == TN_WANDER_STOPPED && a[i].x == a[i].tx && a[i].y == a[i].ty;
    free(a);
    if (worst_turn_ratio) *worst_turn_ratio = worst;
    return arrived;
}

static void test_turn_rate_bounded(void **state)
{
    (void)state;
    tn_map *m = obstacle_map(1);
    tn_agent_nav nav = tnav_make(m);
    const float smooth[] = {0, 0.5f, 1};
    for (int i = 0; i < 3; i++) {
        double worst;
        walk_checked(m, &nav, 0.5f, smooth[i], 40, 3000, 600, 21 + i, &worst);
        print_message("smoothness %.1f: largest heading change per step = %.3f of the bound\n",
                      (double)smooth[i], worst);
        assert_true(worst <= 1.0 + 1e-3);
    }
    tn_map_destroy(m);
}

static void test_wanderers_reach_target(void **state)
{
    (void)state;
    tn_map *m = obstacle_map(2);
    tn_agent_nav nav = tnav_make(m);
    int n = 30;
    int arrived = walk_checked(m, &nav, 0.7f, 0.5f, n, 6000, 0, 31, NULL);
    print_message("bias 0.7 among pillars: %d of %d arrived within 6000 steps\n", arrived, n);
    assert_int_equal(arrived, n);
    tn_map_destroy(m);
}

static void test_retargeting_keeps_motion_smooth(void **state)
{
    (void)state;
    tn_map *m = obstacle_map(3);
    tn_agent_nav nav = tnav_make(m);
    double worst;
    /* New target every 37 steps: bends, never jumps (checked per step). */
    walk_checked(m, &nav, 0.8f, 0.3f, 30, 3000, 37, 41, &worst);
    assert_true(worst <= 1.0 + 1e-3);
    tn_map_destroy(m);
}

static void test_guide_round_a_wall(void **state)
{
    (void)state;
    /* A long wall between the walk and the target, open at its far end. */
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(40, 20, NULL, &m, NULL)));
    for (int x = 0; x < 34; x++) tn_map_set_tile(m, x, 10, TN_TILE_BLOCK, NULL);
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    int arrived[2] = {0, 0};
    for (int guide = 0; guide < 2; guide++) {
        tn_wander_params p = tn_wander_default_params();
        p.bias = 1;
        p.guide = guide != 0;
        for (int i = 0; i < 10; i++) {
            tn_wanderer a;
            tn_wanderer_init(&a, 10.5f * 16, 15.5f * 16, -PI_F / 2, 10.5f * 16, 5.5f * 16, 3,
                             (uint64_t)i);
            for (int k = 0; k < 3000 && a.mode != TN_WANDER_STOPPED; k++) {
                tn_wander_step(&a, 1, &p, &env);
                assert_true(tn_steer_box_free(m, a.x, a.y, p.half));
            }
            arrived[guide] += a.mode == TN_WANDER_STOPPED;
        }
    }
    print_message("round a wall at bias 1: %d of 10 arrive without the guide, %d with it\n",
                  arrived[0], arrived[1]);
    assert_int_equal(arrived[1], 10);
    assert_true(arrived[0] < arrived[1]);
    tn_map_destroy(m);
}

/* A box next to a block's corner, its bottom edge 1.1 px below the block's
 * top, the target up and to the left: a curve leaving that way cuts the
 * corner between two of the sweep's points 2 px apart (the box at 1 px is
 * inside the block, at 2 px clear of it).  The sweep sees it (the
 * rectangle between two points' boxes); before, every start drew such a
 * curve, its first step was refused, and the wanderer started again on the
 * spot, 200 times in 10 s. */
static void test_sweep_sees_cut_corners(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(20, 20, NULL, &m, NULL)));
    tn_map_set_tile(m, 10, 10, TN_TILE_BLOCK, NULL); /* [160, 176) px square */
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    p.bias = 1;
    for (int i = 0; i < 20; i++) {
        tn_wanderer a;
        tn_wanderer_init(&a, 180.1f, 157.1f, -2.36f, 100, 80, 7, (uint64_t)i);
        int k = 0;
        for (; k < 600 && a.mode != TN_WANDER_STOPPED; k++) {
            tn_wander_step(&a, 1, &p, &env);
            assert_true(tn_steer_box_free(m, a.x, a.y, p.half));
        }
        assert_int_equal(a.mode, TN_WANDER_STOPPED);
        assert_true(a.restarts <= 3);
    }
    tn_map_destroy(m);
}

/* tn_wander.h NARROW OPENINGS: two rooms joined by a door of 1, 2 or 3
 * tiles, 100 wanderers (5 seeds x 20 starts) with the default params from
 * the left room to the right one, paths on the navmesh.  The numbers the
 * header quotes are the ones printed here.  `ideal`: the mean time of the
 * shortest walk to the far side of the door at full speed. */
static void door_walks(int door, float bias, int *through, double *mean_s, double *ideal_s)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(24, 12, NULL, &m, NULL)));
    for (int x = 0; x < 24; x++) {
        tn_map_set_tile(m, x, 0, TN_TILE_BLOCK, NULL);
        tn_map_set_tile(m, x, 11, TN_TILE_BLOCK, NULL);
    }
    for (int y = 0; y < 12; y++) {
        tn_map_set_tile(m, 0, y, TN_TILE_BLOCK, NULL);
        tn_map_set_tile(m, 23, y, TN_TILE_BLOCK, NULL);
        if (y < 5 || y >= 5 + door) tn_map_set_tile(m, 11, y, TN_TILE_BLOCK, NULL);
    }
    tnav_mesh *mesh = tnav_mesh_create(m);
    assert_non_null(mesh);
    tn_agent_nav nav = tnav_mesh_nav(mesh);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    p.bias = bias;
    const float T = TN_TILE_PX;
    long steps = 0;
    double ideal = 0;
    *through = 0;
    for (int i = 0; i < 100; i++) {
        float x0 = 2.5f * T, y0 = (1.5f + (float)(i % 20 % 9)) * T;
        tn_wanderer a;
        tn_wanderer_init(&a, x0, y0, 0, 20.5f * T, 5.5f * T, 42 + 1000 * (uint64_t)(i / 20),
                         (uint64_t)(i % 20));
        int k = 0;
        for (; k < 120 * 60 && a.x < 12 * T; k++) tn_wander_step(&a, 1, &p, &env);
        if (a.x >= 12 * T) {
            (*through)++;
            steps += k;
        }
        /* the shortest walk: a point's path to the door's far side */
        float xy[16], px = x0, py = y0, len = 0;
        int n = nav.path(nav.user, x0, y0, 12 * T, (5.0f + 0.5f * (float)door) * T, 0, xy, 8);
        assert_true(n > 0);
        for (int j = 0; j < n; j++) {
            len += tn_len(xy[2 * j] - px, xy[2 * j + 1] - py);
            px = xy[2 * j];
            py = xy[2 * j + 1];
        }
        ideal += len / p.speed;
    }
    *mean_s = *through ? (double)steps / *through * (double)DT : 0.0;
    *ideal_s = ideal / 100;
    tnav_mesh_destroy(mesh);
    tn_map_destroy(m);
}

static void test_door_width(void **state)
{
    (void)state;
    const float bias[3] = {0.0f, 0.5f, 1.0f};
    int through[3][3];
    double mean[3][3], ideal[3];
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 3; d++) {
            door_walks(d + 1, bias[b], &through[b][d], &mean[b][d], &ideal[d]);
            print_message("door of %d tile(s), bias %.1f: %d of 100 through within 120 s, "
                          "mean %.1f s (shortest walk %.1f s)\n",
                          d + 1, (double)bias[b], through[b][d], mean[b][d], ideal[d]);
        }
    /* Bias 1: every one passes, a one-tile door within 2.5 times the
     * shortest walk and 2 times a three-tile door's mean (before the pass
     * points: 21.5 s, 8.6 and 6.3 times). */
    for (int d = 0; d < 3; d++) assert_int_equal(through[2][d], 100);
    assert_true(mean[2][0] < 2.5 * ideal[0]);
    assert_true(mean[2][0] < 2.0 * mean[2][2]);
    /* Bias 0.5: nearly all pass a one-tile door (before: 45 of 100), about
     * as fast as a wide one. */
    assert_true(through[1][0] >= 95 && through[1][1] >= 95 && through[1][2] >= 95);
    assert_true(mean[1][0] < 1.5 * mean[1][2]);
    /* Bias 0 does not look for the door: few pass one tile (35 of 100
     * before the pass points), fewer than at bias 0.5 by far. */
    assert_true(through[0][0] <= 45);
    assert_true(through[0][0] < through[0][2]);
}

/* The guide on the navigation mesh, through a serpentine of one-tile
 * corridors.  A box narrower than a tile asks for a point's path (every
 * opening of a tile map is a tile wide, so the same places are reachable,
 * and a point's path is several times cheaper on the mesh than a disc's);
 * a box a tile wide or more asks for its half-size.  Against a guide forced
 * to the box's half-size, the point guide must arrive every time too. */
typedef struct radius_spy {
    tnav_mesh *mesh;
    bool force; /* ask for `half` whatever the wanderer asked */
    float half;
    float asked_min, asked_max;
    long paths;
} radius_spy;

static int spy_path(void *user, float ax, float ay, float bx, float by, float radius, float *xy,
                    int cap)
{
    radius_spy *s = user;
    s->asked_min = fminf(s->asked_min, radius);
    s->asked_max = fmaxf(s->asked_max, radius);
    s->paths++;
    return tnav_mesh_path(s->mesh, ax, ay, bx, by, s->force ? s->half : radius, xy, cap);
}

static bool spy_los(void *user, float ax, float ay, float bx, float by)
{
    radius_spy *s = user;
    return tnav_mesh_los(s->mesh, ax, ay, bx, by);
}

static void test_guide_radius(void **state)
{
    (void)state;
    /* pillars, and two long walls with a two-tile opening at alternate ends */
    tn_map *m = obstacle_map(2);
    for (int x = 0; x < 64; x++) {
        if (x < 58 || x > 59) tn_map_set_tile(m, x, 16, TN_TILE_BLOCK, NULL);
        if (x < 4 || x > 5) tn_map_set_tile(m, x, 32, TN_TILE_BLOCK, NULL);
    }
    tnav_mesh *mesh = tnav_mesh_create(m);
    if (!mesh) {
        tn_map_destroy(m);
        skip();
    }
    const float T = TN_TILE_PX;
    for (int force = 0; force < 2; force++) {
        radius_spy spy = {mesh, force != 0, 0, INFINITY, -INFINITY, 0};
        tn_agent_nav nav = {&spy, spy_los, spy_path};
        tn_wander_env env = env_for(m, &nav);
        tn_wander_params p = tn_wander_default_params();
        p.bias = 1.0f;
        spy.half = p.half;
        tn_rng r;
        tn_rng_seed(&r, 5, 77);
        int arrived = 0, n = 30;
        long steps = 0;
        for (int i = 0; i < n; i++) {
            float x, y;
            do free_point(m, &r, p.half, &x, &y);
            while (y < 33 * T);
            tn_wanderer a;
            tn_wanderer_init(&a, x, y, 0, 30.5f * T, 4.5f * T, 9, (uint64_t)i);
            int k = 0;
            for (; k < 30000 && a.mode != TN_WANDER_STOPPED; k++) {
                tn_wander_step(&a, 1, &p, &env);
                assert_true(tn_steer_box_free(m, a.x, a.y, p.half));
            }
            arrived += a.mode == TN_WANDER_STOPPED;
            steps += k;
        }
        print_message("past two walls, guide for %s: %d of %d arrive, %.0f steps a walk, "
                      "%ld paths\n",
                      force ? "the box's half-size" : "a point", arrived, n, (double)steps / n,
                      spy.paths);
        assert_true(spy.paths > 0);
        if (!force) {
            assert_int_equal(arrived, n);
            assert_true(spy.asked_min == 0.0f && spy.asked_max == 0.0f);
        }
    }
    /* a box a tile wide asks for its half-size */
    radius_spy spy = {mesh, false, 0, INFINITY, -INFINITY, 0};
    tn_agent_nav nav = {&spy, spy_los, spy_path};
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    p.half = 0.5f * T;
    tn_wanderer a;
    tn_wanderer_init(&a, 40.5f * T, 40.5f * T, 0, 30.5f * T, 4.5f * T, 9, 1);
    for (int k = 0; k < 200; k++) tn_wander_step(&a, 1, &p, &env);
    assert_true(spy.paths > 0);
    assert_true(spy.asked_min == p.half && spy.asked_max == p.half);
    tnav_mesh_destroy(mesh);
    tn_map_destroy(m);
}

static void test_stops_exactly_at_target(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(40, 40, NULL, &m, NULL)));
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    p.bias = 1;
    tn_wanderer a;
    tn_wanderer_init(&a, 100, 100, 0, 500, 420, 1, 1);
    float best = 1e9f;
    int k;
    for (k = 0; k < 2000 && a.mode != TN_WANDER_STOPPED; k++) {
        tn_wander_step(&a, 1, &p, &env);
        float d = tn_len(a.tx - a.x, a.ty - a.y);
        /* Never past the target: the distance only grows again if it
         * stopped. */
        if (d < best) best = d;
    }
    assert_int_equal(a.mode, TN_WANDER_STOPPED);
    assert_true(a.x == 500 && a.y == 420);
    /* Stays while the target stays; walks again when it moves away. */
    for (int i = 0; i < 100; i++) tn_wander_step(&a, 1, &p, &env);
    assert_true(a.x == 500 && a.y == 420);
    tn_wanderer_set_target(&a, 520, 420); /* within resume_dist: stays */
    tn_wander_step(&a, 1, &p, &env);
    assert_int_equal(a.mode, TN_WANDER_STOPPED);
    tn_wanderer_set_target(&a, 200, 420);
    for (int i = 0; i < 2000 && !(a.mode == TN_WANDER_STOPPED && a.x == 200); i++)
        tn_wander_step(&a, 1, &p, &env);
    assert_true(a.x == 200 && a.y == 420);
    tn_map_destroy(m);
}

static void test_deterministic(void **state)
{
    (void)state;
    tn_map *m = obstacle_map(4);
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    tn_wanderer a[2][8];
    for (int run = 0; run < 2; run++) {
        tn_rng r;
        tn_rng_seed(&r, 9, 9);
        for (int i = 0; i < 8; i++) {
            float x, y;
            free_point(m, &r, p.half, &x, &y);
            tn_wanderer_init(&a[run][i], x, y, 0, 500, 300, 1234, (uint64_t)i);
        }
        for (int k = 0; k < 1000; k++) tn_wander_step(a[run], 8, &p, &env);
    }
    assert_memory_equal(a[0], a[1], sizeof a[0]);
    tn_map_destroy(m);
}

/* Every field has a range, named in the message with the field and its
 * value: absurd sizes, speeds, distances and NaN are refused (a speed of
 * 1e30 px/s, a box of 1e6 px, a step_min of 1e-30 px passed and left the
 * wanderer standing still or hopping through nothing); the limits pass. */
static void test_params_ranges(void **state)
{
    (void)state;
    const struct {
        size_t off;
        float v;
        const char *want; /* NULL: accepted */
    } cases[] = {
#define F(field) offsetof(tn_wander_params, field)
        {F(half), 1e6f, "wander: half 1e+06 px is outside (0, 128]"},
        {F(half), TN_WANDER_HALF_MAX, NULL},
        {F(half), -4.0f, "wander: half -4 px is outside (0, 128]"},
        {F(speed), 1e30f, "wander: speed 1e+30 px/s is outside (0, 16000]"},
        {F(speed), 0.0f, "wander: speed 0 px/s is outside (0, 16000]"},
        {F(speed), TN_WANDER_SPEED_MAX, NULL},
        {F(turn_fast), 1e9f, "wander: turn_fast 1e+09 rad/s is outside (0, 1000]"},
        {F(step_min), 1e-30f, "wander: step_min 1e-30 px is outside [1, 65536]"},
        {F(step_min), NAN, "wander: step_min is not a number (NaN); the range is [1, 65536] px"},
        /* -NaN said "-nan" (0.0f / 0.0f is -nan on x86) */
        {F(speed), -NAN, "wander: speed is not a number (NaN); the range is (0, 16000] px/s"},
        {F(near_dist), 1e20f, "wander: near_dist 1e+20 px is outside [1, 65536]"},
        {F(cone_ref), 0.0f, "wander: cone_ref 0 px is outside (0, 65536]"},
        {F(cone_far), 4.0f, "wander: cone_far 4 rad is outside (0, 3.14159]"},
        {F(arrive_radius), 1e9f, "wander: arrive_radius 1e+09 px is outside [0, 65536]"},
        {F(arrive_radius), TN_WANDER_LENGTH_MAX, NULL},
        {F(arrive_speed), 0.0f, "wander: arrive_speed 0 is outside (0, 1]"},
        {F(smoothness), NAN, "wander: smoothness is not a number (NaN); the range is [0, 1]"},
#undef F
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tn_wander_params p = tn_wander_default_params();
        memcpy((char *)&p + cases[k].off, &cases[k].v, sizeof(float));
        tn_error e;
        tn_status st = tn_wander_validate(&p, &e);
        if (!cases[k].want) {
            if (tn_failed(st)) fail_msg("case %zu refused: %s", k, e.msg);
            continue;
        }
        assert_int_equal(st, TN_FAILURE | TN_INVALID_PARAM);
        if (strcmp(e.msg, cases[k].want) != 0) fail_msg("case %zu: %s", k, e.msg);
    }
    tn_wander_params p = tn_wander_default_params();
    p.step_min = 100.0f; /* above step_max: the order is checked too */
    tn_error e;
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    assert_string_equal(e.msg, "wander: need step_min (100) <= step_max (64) <= near_dist (64)");
    assert_int_equal(tn_wander_validate(NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "wander: no parameters (p is NULL)");
}

static void test_params_checked(void **state)
{
    (void)state;
    tn_error e;
    tn_wander_params p = tn_wander_default_params();
    assert_true(tn_succeeded(tn_wander_validate(&p, &e)));
    p.bias = 1.5f;
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    assert_non_null(strstr(e.msg, "bias"));
    p = tn_wander_default_params();
    p.step_max = 100; /* beyond near_dist */
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    p = tn_wander_default_params();
    p.speed = NAN;
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    /* The message names the field, its value and its range (an infinite
     * one is outside every range). */
    p = tn_wander_default_params();
    p.speed = INFINITY;
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    assert_string_equal(e.msg, "wander: speed inf px/s is outside (0, 16000]");
    p = tn_wander_default_params();
    p.turn_slow = -2;
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    assert_string_equal(e.msg, "wander: turn_slow -2 rad/s is outside (0, 1000]");
    p = tn_wander_default_params();
    p.resume_dist = INFINITY;
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    assert_string_equal(e.msg, "wander: resume_dist inf px is outside [0, 65536]");
    /* tries: 1..TN_WANDER_MAX_TRIES (2^30 was taken: a waypoint could cost
     * billions of tests) */
    p = tn_wander_default_params();
    p.tries = TN_WANDER_MAX_TRIES;
    assert_true(tn_succeeded(tn_wander_validate(&p, &e)));
    p.tries = 1 << 30;
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    assert_string_equal(e.msg, "wander: tries 1073741824 is outside 1..1024");
    p.tries = 0;
    assert_true(tn_failed(tn_wander_validate(&p, &e)));
    /* The turn-rate bound spans turn_fast..turn_slow. */
    p = tn_wander_default_params();
    p.smoothness = 0;
    assert_true(fabsf(tn_wander_turn_rate(&p) - p.turn_fast) < 1e-4f);
    p.smoothness = 1;
    assert_true(fabsf(tn_wander_turn_rate(&p) - p.turn_slow) < 1e-4f);
    /* The cone: full circle at bias 0, narrower as the target nears. */
    p.bias = 0;
    assert_true(fabsf(tn_wander_cone(&p, 50) - PI_F) < 1e-5f);
    p.bias = 1;
    assert_true(tn_wander_cone(&p, 50) < tn_wander_cone(&p, 200));
    assert_true(tn_wander_cone(&p, 1000) <= p.cone_far + 1e-6f);
}

/* A NULL wanderer array, parameter block or environment is a no-op (the
 * environment was dereferenced, reviewer's p18b); a wanderer stepped
 * with one then steps on as if that call had not been made. */
static void test_step_null_arguments(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(64, 64, NULL, &m, NULL)));
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    tn_wanderer a, b;
    tn_wanderer_init(&a, 512, 512, 0, 800, 512, 3, 1);
    b = a;
    tn_wander_step(&a, 1, &p, NULL);
    tn_wander_step(&a, 1, NULL, &env);
    tn_wander_step(NULL, 1, &p, &env);
    assert_memory_equal(&a, &b, sizeof a);
    for (int k = 0; k < 50; k++) {
        tn_wander_step(&a, 1, &p, &env);
        tn_wander_step(&a, 1, &p, NULL);
        tn_wander_step(&b, 1, &p, &env);
    }
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(a.x != 512 || a.y != 512); /* it did walk */
    tn_map_destroy(m);
}

/* The helpers take a NULL parameter set (tn_wander_turn_rate and
 * tn_wander_cone dereferenced it: a crash), and tn_wander_seg_param clamps
 * a NaN length as it clamps every other one (it returned NaN, so
 * tn_wander_seg_point gave a NaN position). */
static void test_helpers_null_and_nan(void **state)
{
    (void)state;
    assert_true(tn_wander_turn_rate(NULL) == 0.0f);
    assert_true(tn_wander_cone(NULL, 50.0f) == 0.0f);
    tn_wander_seg s;
    const float wp[8] = {0, 0, 10, 0, 20, 5, 30, 0};
    tn_wander_seg_build(&s, wp);
    assert_true(tn_wander_seg_param(&s, NAN) == 0.0f);
    assert_true(tn_wander_seg_param(&s, -5.0f) == 0.0f);
    assert_true(tn_wander_seg_param(&s, INFINITY) == 1.0f);
    assert_true(tn_wander_seg_param(NULL, 3.0f) == 0.0f);
    float x = -1, y = -1;
    tn_wander_seg_point(&s, tn_wander_seg_param(&s, NAN), &x, &y);
    assert_true(x == 10.0f && y == 0.0f); /* B, the segment's start */
    /* The other helpers take NULL too (they dereferenced it). */
    tn_wander_seg_point(NULL, 0.5f, &x, &y);
    assert_true(x == 0.0f && y == 0.0f);
    tn_wander_seg_point(&s, 0.5f, NULL, NULL);
    tn_wander_seg s2 = s;
    tn_wander_seg_build(&s2, NULL);
    assert_memory_equal(&s2, &s, sizeof s);
    tn_wander_seg_build(NULL, wp);
    tn_wanderer_init(NULL, 1, 2, 0, 3, 4, 1, 1);
    tn_wanderer_set_target(NULL, 1, 2);
    tn_wanderer_restart(NULL);
}

/* A wanderer whose box overlaps a block - placed there, or a block edited
 * onto it - moves out to the nearest free place when it starts: it drew
 * no free waypoint from there and waited for good, standing in the wall
 * (a library user's program placed one in a wall: after 600 steps it was
 * still there, in TN_WANDER_WAIT). */
static void test_frees_itself_from_a_block(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(24, 12, NULL, &m, NULL)));
    for (int y = 0; y < 12; y++)
        if (y != 6) tn_map_set_tile(m, 8, y, TN_TILE_BLOCK, NULL); /* a wall, a door at row 6 */
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    const float tx = 20.5f * 16, ty = 6.5f * 16;
    for (int k = 0; k < 2; k++) {
        tn_wanderer a;
        if (k == 0) {
            tn_wanderer_init(&a, 8.5f * 16, 2.5f * 16, 0, tx, ty, 5, 0); /* inside (8,2) */
        } else { /* walking, then a block edited onto it */
            tn_wanderer_init(&a, 3.5f * 16, 9.5f * 16, 0, tx, ty, 5, 1);
            for (int i = 0; i < 60; i++) tn_wander_step(&a, 1, &p, &env);
            tn_map_set_tile(m, (int)(a.x / 16), (int)(a.y / 16), TN_TILE_BLOCK, NULL);
            assert_false(tn_steer_box_free(m, a.x, a.y, p.half));
        }
        int inside = 0;
        for (int i = 0; i < 1200; i++) {
            tn_wander_step(&a, 1, &p, &env);
            if (!tn_steer_box_free(m, a.x, a.y, p.half)) inside++;
        }
        print_message("case %d: %d of 1200 steps inside a block, ends %.0f px from the target\n", k,
                      inside, (double)tn_len(a.x - tx, a.y - ty));
        /* out within the first wait (15 steps + the step that starts) */
        assert_true(inside <= 16);
        assert_true(tn_steer_box_free(m, a.x, a.y, p.half));
    }
    tn_map_destroy(m);
}

/* A wanderer stopped at its target when a block is edited onto it moves
 * out too: a stopped one within resume_dist of its target started no
 * walk, so it stood in the block until the target moved away. */
static void test_stopped_frees_itself_from_a_block(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(24, 12, NULL, &m, NULL)));
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    tn_wanderer a;
    tn_wanderer_init(&a, 3.5f * 16, 6.5f * 16, 0, 12.5f * 16, 6.5f * 16, 5, 0);
    for (int i = 0; i < 2000 && a.mode != TN_WANDER_STOPPED; i++) tn_wander_step(&a, 1, &p, &env);
    assert_int_equal(a.mode, TN_WANDER_STOPPED);
    tn_map_set_tile(m, (int)(a.x / 16), (int)(a.y / 16), TN_TILE_BLOCK, NULL);
    assert_false(tn_steer_box_free(m, a.x, a.y, p.half));
    for (int i = 0; i < 100; i++) tn_wander_step(&a, 1, &p, &env);
    if (!tn_steer_box_free(m, a.x, a.y, p.half))
        fail_msg("stopped at (%g, %g) in a block, mode %d", (double)a.x, (double)a.y, a.mode);
    tn_map_destroy(m);
}

/* A wanderer turning on the spot at the start of a walk (TN_WANDER_TURN)
 * when a block is edited onto it stops and moves out as a walking one
 * does: the turn tested no box, so it went on turning inside the block
 * (up to 180 steps for a U-turn at smoothness 1) before it noticed. */
static void test_turning_frees_itself_from_a_block(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(24, 12, NULL, &m, NULL)));
    tn_agent_nav nav = tnav_make(m);
    tn_wander_env env = env_for(m, &nav);
    tn_wander_params p = tn_wander_default_params();
    p.smoothness = 1.0f; /* pi/3 rad/s: a U-turn takes 3 s */
    assert_int_equal(tn_wander_validate(&p, NULL), TN_OK);
    tn_wanderer a;
    /* facing east, the target to the west: it starts with a U-turn */
    tn_wanderer_init(&a, 12.5f * 16, 6.5f * 16, 0, 2.5f * 16, 6.5f * 16, 5, 0);
    tn_wander_step(&a, 1, &p, &env);
    assert_int_equal(a.mode, TN_WANDER_TURN);
    tn_map_set_tile(m, 12, 6, TN_TILE_BLOCK, NULL);
    assert_false(tn_steer_box_free(m, a.x, a.y, p.half));
    int inside = 0;
    for (int i = 0; i < 600; i++) {
        tn_wander_step(&a, 1, &p, &env);
        if (!tn_steer_box_free(m, a.x, a.y, p.half)) inside++;
    }
    print_message("%d of 600 steps inside a block\n", inside);
    /* out within the first wait (15 steps + the step that starts), as a
     * walking wanderer is */
    assert_true(inside <= 16);
    assert_true(tn_steer_box_free(m, a.x, a.y, p.half));
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spline_interpolates_and_is_c1),
        cmocka_unit_test(test_spline_constant_speed),
        cmocka_unit_test(test_bias_zero_is_unbiased),
        cmocka_unit_test(test_progress_rises_with_bias),
        cmocka_unit_test(test_turn_rate_bounded),
        cmocka_unit_test(test_wanderers_reach_target),
        cmocka_unit_test(test_retargeting_keeps_motion_smooth),
        cmocka_unit_test(test_guide_round_a_wall),
        cmocka_unit_test(test_guide_radius),
        cmocka_unit_test(test_sweep_sees_cut_corners),
        cmocka_unit_test(test_door_width),
        cmocka_unit_test(test_stops_exactly_at_target),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_params_checked),
        cmocka_unit_test(test_params_ranges),
        cmocka_unit_test(test_step_null_arguments),
        cmocka_unit_test(test_helpers_null_and_nan),
        cmocka_unit_test(test_frees_itself_from_a_block),
        cmocka_unit_test(test_stopped_frees_itself_from_a_block),
        cmocka_unit_test(test_turning_frees_itself_from_a_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
