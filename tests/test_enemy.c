/* Tests for tn_enemy (spawner and enemies on a flow field).  The sandbox's
 * enemies part (edit refusal rules, JSON, determinism, invariants) is
 * tested in test_wenemies.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_enemy.h"
#include "tn_flow.h"
#include "tn_map.h"
#include "tu_nav.h"

#define PI 3.14159265358979323846

static tn_flow *flow_for(const tn_map *m)
{
    tn_flow *f = NULL;
    assert_true(tn_succeeded(tn_flow_create(m->w, m->h, 4, NULL, &f, NULL)));
    assert_true(tn_succeeded(tn_flow_rebuild(f, m, NULL)));
    return f;
}

/* A pool of `capacity` spawning `rate` a second with `spacing`, speeds
 * drawn from speed_min..speed_max and every enemy on its lane's centre
 * (offset 0); the other ranges are the defaults. */
static tn_enemies *lane_pool(int capacity, float rate, float spacing, float speed_min,
                             float speed_max)
{
    tn_enemies_config c = tn_enemies_default_config();
    c.capacity = capacity;
    c.spawn_rate = rate;
    c.spacing = spacing;
    c.speed_min = speed_min;
    c.speed_max = speed_max;
    c.offset_min = c.offset_max = 0.0f;
    tn_enemies *p = NULL;
    assert_true(tn_succeeded(tn_enemies_create(&c, NULL, &p, NULL)));
    return p;
}

/* One row of 40 tiles: a spawn at the west end, a destination at the east. */
#define ROW_40                          \
    "tilenav-map 1\nsize 40 1\ntiles\n" \
    "S......................................D\n"

/* Steps pool p on ROW_40's field f for 8 s at dt a step, spawning at its
 * west end; returns the least distance at a step's end between two
 * enemies (new_only: between one made in that step and any other) and
 * counts the enemies made in *made. */
static float least_gap(tn_enemies *p, const tn_flow *f, float dt, bool new_only, long *made)
{
    int32_t sp = 0;
    tn_rng r;
    tn_rng_seed(&r, 3, 3);
    float least = INFINITY;
    *made = 0;
    for (int i = 0; i < (int)(8.0f / dt); i++) {
        const int64_t before = p->spawned;
        assert_int_equal(tn_enemies_step(p, f, &sp, 1, &r, dt, NULL), TN_OK);
        *made += (long)(p->spawned - before);
        for (int a = 0; a < p->count; a++) {
            if (new_only && p->e[a].id <= (uint64_t)before) continue; /* made earlier */
            for (int b = new_only ? 0 : a + 1; b < p->count; b++)
                if (b != a)
                    least = fminf(least, hypotf(p->e[a].x - p->e[b].x, p->e[a].y - p->e[b].y));
        }
    }
    return least;
}

static bool smooth_state(int s, float offset)
{
    return s == TN_ENEMY_FORWARD || s == TN_ENEMY_TURN_RIGHT || s == TN_ENEMY_TURN_LEFT ||
           (s == TN_ENEMY_TURN_AROUND && fabsf(offset) >= 0.2f);
}

/* Fly one enemy from (sx, sy) until it is reclaimed; checks on the way:
 * inside its tile and never in a block; constant speed within 1% over
 * every step between C1-joined segments.  Returns the flight time and
 * fills the last position and the states seen (bit mask). */
static double fly(const tn_map *m, const tn_flow *f, tn_enemies *p, int sx, int sy, double dt,
                  float *lx, float *ly, unsigned *seen)
{
    tn_rng r;
    tn_rng_seed(&r, 5, 5);
    assert_true(tn_succeeded(tn_enemies_spawn_at(p, f, sx, sy, &r, NULL)));
    long reached0 = p->reached;
    double t = 0;
    *seen = 0;
    for (int k = 0; k < 2000000 && p->reached == reached0; k++) {
        tn_enemy before = p->e[0];
        tn_enemies_step(p, f, NULL, 0, NULL, (float)dt, NULL);
        t += dt;
        if (p->reached != reached0) break;
        const tn_enemy *e = &p->e[0];
        *seen |= 1u << e->state;
        assert_true(isfinite(e->x) && isfinite(e->y));
        assert_true(e->x >= (float)e->tx - 1e-4f && e->x <= (float)e->tx + 1 + 1e-4f);
        assert_true(e->y >= (float)e->ty - 1e-4f && e->y <= (float)e->ty + 1 + 1e-4f);
        assert_int_not_equal(tn_map_tile(m, (int)floorf(e->x), (int)floorf(e->y)), TN_TILE_BLOCK);
        if (smooth_state(before.state, e->offset) && smooth_state(e->state, e->offset)) {
            double v = hypot(e->x - before.x, e->y - before.y) / dt;
            if (fabs(v - e->speed) > 0.01 * e->speed)
                fprintf(stderr, "speed %.5f, want %.5f (states %d -> %d, offset %.2f)\n", v,
                        (double)e->speed, before.state, e->state, (double)e->offset);
            assert_true(fabs(v - e->speed) <= 0.01 * e->speed);
        }
        *lx = e->x;
        *ly = e->y;
    }
    assert_int_equal(p->reached, reached0 + 1);
    return t;
}

static const char RIGHT_BOARD[] = "tilenav-map 1\nsize 6 5\ntiles\n"
                                  "######\n#S...#\n####.#\n#D...#\n######\n";
static const char LEFT_BOARD[] = "tilenav-map 1\nsize 6 5\ntiles\n"
                                 "######\n#D...#\n####.#\n#S...#\n######\n";

/* Intro, 2 forward, turn, forward, turn, 2 forward, outro: the flight time
 * is the path length over the speed, turns included (constant speed). */
static void s_edit_outside(tn_enemies *p, const tn_flow *f)
{
    tn_error e = {0};
    const int xy[4][2] = {{99, 0}, {-1, 0}, {0, -1}, {0, 99}};
    for (int k = 0; k < 4; k++) {
        tn_status s = tn_enemies_on_edit(p, f, xy[k][0], xy[k][1], &e);
        assert_true(tn_failed(s) && tn_status_detail(s, TN_INVALID_PARAM));
        assert_non_null(strstr(e.msg, "is outside the 5x3 board"));
    }
}

/* tn_enemies_create takes a NULL config as the defaults (as tn_bot_create
 * does), which its header did not say; tn_enemies_validate refuses NULL. */
static void test_create_null_config(void **state)
{
    (void)state;
    tn_error e;
    tn_enemies *s = NULL;
    assert_true(tn_succeeded(tn_enemies_create(NULL, NULL, &s, &e)));
    assert_non_null(s);
    tn_enemies_config d = tn_enemies_default_config();
    assert_int_equal(s->cfg.capacity, 4096);
    assert_int_equal(s->cfg.capacity, d.capacity);
    assert_true(s->cfg.spawn_rate == 1.0f && d.spawn_rate == 1.0f);
    assert_memory_equal(&s->cfg, &d, sizeof d);
    tn_enemies_destroy(s);
    assert_true(tn_failed(tn_enemies_validate(NULL, &e)));
    assert_string_equal(e.msg, "enemy: no config");
}

static void test_constant_speed_through_turns(void **state)
{
    (void)state;
    static const float SPEEDS[] = {0.2f, 1.0f, 5.0f};
    static const float OFFSETS[] = {-0.4f, -0.1f, 0.0f, 0.25f, 0.4f};
    for (int board = 0; board < 2; board++) {
        tn_map *m = tu_map_text(board == 0 ? RIGHT_BOARD : LEFT_BOARD);
        tn_flow *f = flow_for(m);
        int sy = board == 0 ? 1 : 3;
        for (size_t a = 0; a < 3; a++)
            for (size_t b = 0; b < 5; b++) {
                float v = SPEEDS[a], off = OFFSETS[b];
                tn_enemies *p = tu_pool_fixed(v, off, 4);
                float lx = 0, ly = 0;
                unsigned seen = 0;
                double dt = 1.0 / 2000.0;
                double t = fly(m, f, p, 1, sy, dt, &lx, &ly, &seen);
                double radius = board == 0 ? 0.5 - off : 0.5 + off;
                double len = 2 * sqrt(0.25 + (double)off * off) + 5 + PI * radius;
                double want = len / v;
                if (fabs(t - want) > 0.01 * want + dt)
                    fprintf(stderr, "board %d speed %g offset %g: %.4f s, want %.4f s\n", board,
                            (double)v, (double)off, t, want);
                assert_true(fabs(t - want) <= 0.01 * want + dt);
                unsigned turn = 1u << (board == 0 ? TN_ENEMY_TURN_RIGHT : TN_ENEMY_TURN_LEFT);
                assert_true(seen & turn);
                assert_true(seen & (1u << TN_ENEMY_FORWARD));
                assert_true(seen & (1u << TN_ENEMY_OUTRO));
                /* It ends at the destination's centre. */
                assert_true(hypot(lx - 1.5, ly - (board == 0 ? 3.5 : 1.5)) <= v * dt * 1.01 + 1e-4);
                tn_enemies_destroy(p);
            }
        tn_flow_destroy(f);
        tn_map_destroy(m);
    }
}

/* A destination added behind an enemy: at the next edge it turns around
 * (a half circle inside the tile) and flies to the new destination. */
static void test_turn_around(void **state)
{
    (void)state;
    static const float OFFSETS[] = {-0.4f, -0.2f, 0.0f, 0.3f};
    for (size_t b = 0; b < 4; b++) {
        tn_map *m = tu_map_text(
            "tilenav-map 1\nsize 12 3\ntiles\n############\n#D.......S.#\n############\n");
        tn_flow *f = flow_for(m);
        tn_enemies *p = tu_pool_fixed(2.0f, OFFSETS[b], 4);
        tn_rng r;
        tn_rng_seed(&r, 1, 1);
        assert_true(tn_succeeded(tn_enemies_spawn_at(p, f, 9, 1, &r, NULL)));
        const double dt = 1.0 / 1000.0;
        while (p->e[0].tx != 6) tn_enemies_step(p, f, NULL, 0, NULL, (float)dt, NULL);
        assert_int_equal(p->e[0].dir, TN_DIR_W);
        tn_map_set_mark(m, 8, 1, TN_MARK_DEST, NULL);
        tn_flow_update(f, m, 8, 1, NULL);
        tn_enemies_on_edit(p, f, 8, 1, NULL);
        assert_int_equal(tn_flow_dir(f, 5, 1), TN_DIR_E);
        bool turned = false;
        for (int k = 0; k < 100000 && p->reached == 0; k++) {
            tn_enemy before = p->e[0];
            tn_enemies_step(p, f, NULL, 0, NULL, (float)dt, NULL);
            if (p->reached) break;
            const tn_enemy *e = &p->e[0];
            if (e->state == TN_ENEMY_TURN_AROUND) {
                turned = true;
                assert_int_equal(e->tx, 5); /* inside the tile it entered */
                assert_true(e->x >= 5.0f - 1e-4f && e->x <= 6.0f + 1e-4f);
                assert_true(e->y >= 1.0f && e->y <= 2.0f);
            }
            if (smooth_state(before.state, e->offset) && smooth_state(e->state, e->offset)) {
                double v = hypot(e->x - before.x, e->y - before.y) / dt;
                assert_true(fabs(v - 2.0) <= 0.02);
            }
        }
        assert_true(turned);
        assert_int_equal(p->reached, 1);
        tn_enemies_destroy(p);
        tn_flow_destroy(f);
        tn_map_destroy(m);
    }
}

/* Many enemies with random lanes and speeds on a wiggly board: each stays
 * inside its tile, out of blocks, and all arrive. */
static void test_inside_tiles_random(void **state)
{
    (void)state;
    tn_map *m = tu_map_text("tilenav-map 1\nsize 14 9\ntiles\n"
                            "##############\n"
                            "#S..#....#...#\n"
                            "#.#.#.##.#.#.#\n"
                            "#.#...#....#.#\n"
                            "#.####.#####.#\n"
                            "#....#.....#.#\n"
                            "####.#####.#.#\n"
                            "#S.........#D#\n"
                            "##############\n");
    tn_flow *f = flow_for(m);
    tn_enemies_config c = tn_enemies_default_config();
    c.capacity = 256;
    c.spawn_rate = 8.0f;
    tn_enemies *p = NULL;
    assert_true(tn_succeeded(tn_enemies_create(&c, NULL, &p, NULL)));
    int32_t spawns[2] = {1 * 14 + 1, 7 * 14 + 1};
    tn_rng r;
    tn_rng_seed(&r, 3, 3);
    const float dt = 1.0f / 60.0f;
    for (int k = 0; k < 60 * 300; k++) {
        tn_enemies_step(p, f, spawns, k < 600 ? 2 : 0, &r, dt, NULL);
        for (int i = 0; i < p->count; i++) {
            const tn_enemy *e = &p->e[i];
            assert_true(e->x >= (float)e->tx - 1e-4f && e->x <= (float)e->tx + 1 + 1e-4f);
            assert_true(e->y >= (float)e->ty - 1e-4f && e->y <= (float)e->ty + 1 + 1e-4f);
            assert_int_not_equal(tn_map_tile(m, e->tx, e->ty), TN_TILE_BLOCK);
            assert_true(e->scale >= 0.5f && e->scale <= 2.0f);
            assert_true(e->speed >= 0.2f && e->speed <= 5.0f);
            assert_true(e->offset >= -0.4f && e->offset <= 0.4f);
        }
    }
    assert_int_equal(p->spawned, 80); /* 8/s for 10 s, exactly */
    assert_int_equal(p->count, 0);    /* all arrived (40 tiles at 0.2/s: 200 s) */
    assert_int_equal(p->reached, 80);
    tn_enemies_clear(NULL); /* nothing, no crash */
    tn_enemies_destroy(p);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

static void test_spawner_accumulator_and_pool(void **state)
{
    (void)state;
    tn_map *m = tu_map_text("tilenav-map 1\nsize 40 3\ntiles\n"
                            "........................................\n"
                            "S......................................D\n"
                            "........................................\n");
    tn_flow *f = flow_for(m);
    tn_enemies *p = lane_pool(5, 2.5f, 0.0f, 0.2f, 0.2f);
    int32_t sp = 40;
    tn_rng r;
    tn_rng_seed(&r, 9, 9);
    for (int k = 0; k < 240; k++) tn_enemies_step(p, f, &sp, 1, &r, 1.0f / 60.0f, NULL);
    /* 4 s at 2.5/s = 10 spawn attempts: 5 fit, 5 skipped (slow: none arrive). */
    assert_int_equal(p->spawned + p->skipped, 10);
    assert_int_equal(p->spawned, 5);
    assert_int_equal(p->skipped, 5);
    assert_int_equal(p->count, 5);
    /* Evenly spaced: each spawned 0.4 s after the previous at 0.2 tiles/s. */
    for (int i = 1; i < 5; i++) {
        double gap = hypot(p->e[i - 1].x - p->e[i].x, p->e[i - 1].y - p->e[i].y);
        if (p->e[i].state == TN_ENEMY_FORWARD && p->e[i - 1].state == TN_ENEMY_FORWARD)
            assert_true(fabs(gap - 0.08) < 1e-3);
    }
    /* No spawn point with a path: idle, nothing counted. */
    tn_enemies_clear(p);
    int32_t none = 0; /* (0,0) has a path... use a pocket instead */
    tn_map_set_tile(m, 1, 0, TN_TILE_BLOCK, NULL);
    tn_map_set_tile(m, 0, 1, TN_TILE_BLOCK, NULL);
    tn_flow_rebuild(f, m, NULL);
    for (int k = 0; k < 240; k++) tn_enemies_step(p, f, &none, 1, &r, 1.0f / 60.0f, NULL);
    assert_int_equal(p->spawned, 0);
    assert_int_equal(p->skipped, 0);
    assert_true(p->accum < 1.0);
    assert_int_equal(tn_enemies_spawn_at(p, f, 0, 0, &r, NULL), TN_FAILURE | TN_REFUSED);
    /* Bad configurations are refused with a message naming the field. */
    tn_error e = {0};
    tn_enemies_config bad = p->cfg;
    bad.offset_max = 0.6f;
    assert_true(tn_failed(tn_enemies_configure(p, &bad, &e)));
    assert_non_null(strstr(e.msg, "lane offset"));
    bad = p->cfg;
    bad.speed_min = 3.0f;
    bad.speed_max = 1.0f;
    assert_true(tn_failed(tn_enemies_configure(p, &bad, &e)));
    assert_non_null(strstr(e.msg, "speed"));
    bad = p->cfg;
    bad.spawn_rate = NAN;
    assert_true(tn_failed(tn_enemies_configure(p, &bad, &e)));
    assert_string_equal(e.msg, "enemy: spawn_rate is not a number (NaN)");
    bad = p->cfg;
    bad.offset_max = -NAN; /* said "lane offset range -0.4..-nan" */
    assert_true(tn_failed(tn_enemies_configure(p, &bad, &e)));
    assert_string_equal(e.msg, "enemy: offset_max is not a number (NaN)");
    /* the capacity is fixed at creation: another one is refused, 0 keeps it */
    bad = p->cfg;
    bad.capacity = p->cfg.capacity + 1;
    assert_true(tn_failed(tn_enemies_configure(p, &bad, &e)));
    assert_non_null(strstr(e.msg, "fixed at creation"));
    bad.capacity = 0;
    bad.spawn_rate = 2.0f;
    assert_int_equal(tn_enemies_configure(p, &bad, &e), TN_OK);
    assert_true(p->cfg.capacity > 0 && p->cfg.spawn_rate == 2.0f);
    bad = tn_enemies_default_config();
    bad.capacity = 0;
    tn_enemies *q = NULL;
    assert_true(tn_failed(tn_enemies_create(&bad, NULL, &q, &e)));
    assert_null(q);
    tn_enemies_destroy(p);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

/* A spawn held back for room (spacing) is caught up by at most the step it
 * finally spawns in: not by its accumulator over the rate (seconds of
 * flight for a slow rate), nor by infinity after the rate was set to 0
 * between waves (the enemy flew its whole path at once and was counted as
 * reached). */
static void test_held_spawn_catch_up(void **state)
{
    (void)state;
    tn_map *m = tu_map_text("tilenav-map 1\nsize 20 1\ntiles\n"
                            "S..................D\n");
    tn_flow *f = flow_for(m);
    tn_enemies *p = lane_pool(8, 2.0f, 2.0f, 1.0f, 1.0f);
    int32_t sp = 0;
    tn_rng r;
    tn_rng_seed(&r, 3, 3);
    /* A spawns; 0.75 s on the next spawn is due but held (A is 0.75
     * tiles from the spawn centre), with half a spawn more accumulated. */
    tn_enemies_step(p, f, &sp, 1, &r, 0.5f, NULL);
    assert_int_equal(p->count, 1);
    tn_enemies_step(p, f, &sp, 1, &r, 0.75f, NULL);
    assert_int_equal(p->count, 1);
    assert_true(p->accum > 1.0);
    /* Between waves: no more spawns, but the held one goes once there is
     * room. */
    tn_enemies_config z = p->cfg;
    z.spawn_rate = 0.0f;
    assert_int_equal(tn_enemies_configure(p, &z, NULL), TN_OK);
    tn_enemies_step(p, f, &sp, 1, &r, 0.25f, NULL);
    assert_int_equal(p->count, 1);                 /* still crowded: A at 1.5 */
    tn_enemies_step(p, f, &sp, 1, &r, 1.5f, NULL); /* A at 3: room */
    assert_int_equal(p->reached, 0);
    assert_int_equal(p->count, 2);
    const tn_enemy *b = &p->e[1];
    assert_true(isfinite(b->x) && isfinite(b->progress));
    assert_true(b->x <= 0.5f + 1.5f + 1e-4f); /* at most one step (1.5 s at 1 tile/s) on */
    assert_true(b->x < p->e[0].x);
    /* A slow rate: the held spawn waits several seconds; once it goes it
     * is not flown those seconds ahead. */
    tn_enemies_clear(p);
    z.spawn_rate = 0.25f;
    z.speed_min = z.speed_max = 0.1f;
    assert_int_equal(tn_enemies_configure(p, &z, NULL), TN_OK);
    tn_enemies_step(p, f, &sp, 1, &r, 4.0f, NULL); /* A spawns */
    assert_int_equal(p->count, 1);
    int k = 0;
    for (; k < 1000 && p->count == 1; k++) tn_enemies_step(p, f, &sp, 1, &r, 0.5f, NULL);
    assert_int_equal(p->count, 2);
    assert_true(k > 20); /* held for more than 10 s: A needed 2 tiles of room */
    b = &p->e[1];
    assert_true(b->x <= 0.5f + 0.1f * 0.5f + 1e-4f);
    tn_enemies_destroy(p);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

/* A block dropped on an enemy pushes it to the nearest open neighbour; an
 * enemy walled into a pocket hovers at its tile centre and resumes when the
 * pocket opens. */
/* Misuse is an error with a message, never a silent no-op; a success
 * clears a stale message. */
static void test_errors_have_messages(void **state)
{
    (void)state;
    tn_map *m = tu_map_text("tilenav-map 1\nsize 5 3\ntiles\n"
                            "S...D\n"
                            ".###.\n"
                            ".....\n");
    tn_flow *f8 = NULL;
    assert_true(tn_succeeded(tn_flow_create(m->w, m->h, 8, NULL, &f8, NULL)));
    assert_true(tn_succeeded(tn_flow_rebuild(f8, m, NULL)));
    tn_flow *f = flow_for(m);
    tn_enemies *p = tu_pool_fixed(1.0f, 0.0f, 1);
    tn_rng r;
    tn_rng_seed(&r, 1, 1);
    int32_t spawn = 0;
    tn_error e = {0};
    assert_true(tn_failed(tn_enemies_step(p, f8, &spawn, 1, &r, 1.0f, &e)));
    assert_non_null(strstr(e.msg, "8-connected"));
    assert_true(tn_failed(tn_enemies_spawn_at(p, f, 2, 1, &r, &e)));
    assert_string_equal(e.msg, "enemy: spawn tile (2,1) is a wall");
    assert_true(tn_failed(tn_enemies_spawn_at(p, f, 7, 1, &r, &e)));
    assert_non_null(strstr(e.msg, "outside"));
    /* an edit outside the board is refused as a spawn there is (it was
       answered OK) */
    s_edit_outside(p, f);
    assert_true(tn_succeeded(tn_enemies_spawn_at(p, f, 0, 0, &r, &e)));
    assert_string_equal(e.msg, "");
    tn_status s = tn_enemies_spawn_at(p, f, 0, 0, &r, &e);
    assert_true(tn_failed(s) && tn_status_detail(s, TN_CAPACITY));
    assert_non_null(strstr(e.msg, "full"));
    assert_true(tn_succeeded(tn_enemies_step(p, f, &spawn, 1, &r, 0.1f, &e)));
    assert_string_equal(e.msg, "");
    tn_enemies_destroy(p);
    tn_flow_destroy(f);
    tn_flow_destroy(f8);
    tn_map_destroy(m);
}

static void test_edits_under_enemies(void **state)
{
    (void)state;
    tn_map *m = tu_map_text("tilenav-map 1\nsize 12 6\ntiles\n"
                            "............\n"
                            "............\n"
                            "S..........D\n"
                            "............\n"
                            "............\n"
                            "............\n");
    tn_flow *f = flow_for(m);
    tn_enemies *p = tu_pool_fixed(1.0f, 0.2f, 8);
    tn_rng r;
    tn_rng_seed(&r, 2, 2);
    assert_true(tn_succeeded(tn_enemies_spawn_at(p, f, 0, 2, &r, NULL)));
    while (p->e[0].tx < 4) tn_enemies_step(p, f, NULL, 0, NULL, 1.0f / 60.0f, NULL);
    int bx = p->e[0].tx, by = p->e[0].ty;
    tn_map_set_tile(m, bx, by, TN_TILE_BLOCK, NULL);
    tn_flow_update(f, m, bx, by, NULL);
    tn_enemies_on_edit(p, f, bx, by, NULL);
    assert_int_equal(p->count, 1);
    const tn_enemy *e = &p->e[0];
    assert_int_equal(abs(e->tx - bx) + abs(e->ty - by), 1);
    assert_true(fabsf(e->x - ((float)e->tx + 0.5f)) < 1e-5f);
    assert_true(fabsf(e->y - ((float)e->ty + 0.5f)) < 1e-5f);
    assert_int_not_equal(tn_map_tile(m, e->tx, e->ty), TN_TILE_BLOCK);

    /* Wall its current tile in (its 4 neighbours). */
    int cx = e->tx, cy = e->ty;
    for (int d = 0; d < 4; d++) {
        int x = cx + tn_dir_dx[d], y = cy + tn_dir_dy[d];
        if (tn_map_tile(m, x, y) == TN_TILE_BLOCK) continue;
        tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
        tn_flow_update(f, m, x, y, NULL);
        tn_enemies_on_edit(p, f, x, y, NULL);
    }
    assert_int_equal(tn_flow_dir(f, cx, cy), TN_DIR_NONE);
    for (int k = 0; k < 120; k++) tn_enemies_step(p, f, NULL, 0, NULL, 1.0f / 60.0f, NULL);
    assert_int_equal(p->count, 1);
    assert_int_equal(p->e[0].state, TN_ENEMY_WAIT);
    assert_true(fabsf(p->e[0].x - ((float)cx + 0.5f)) < 1e-4f);
    assert_true(fabsf(p->e[0].y - ((float)cy + 0.5f)) < 1e-4f);
    /* Open the east side: it resumes and arrives. */
    tn_map_set_tile(m, cx + 1, cy, TN_TILE_EMPTY, NULL);
    tn_flow_update(f, m, cx + 1, cy, NULL);
    tn_enemies_on_edit(p, f, cx + 1, cy, NULL);
    for (int k = 0; k < 60 * 30 && p->count; k++)
        tn_enemies_step(p, f, NULL, 0, NULL, 1.0f / 60.0f, NULL);
    assert_int_equal(p->count, 0);
    assert_int_equal(p->reached, 1);

    /* A block on an enemy with no open neighbour: removed, counted. */
    tn_map *t = tu_map_text("tilenav-map 1\nsize 3 1\ntiles\nS.D\n");
    tn_flow *g = flow_for(t);
    tn_enemies *q = tu_pool_fixed(0.5f, 0.0f, 4);
    assert_true(tn_succeeded(tn_enemies_spawn_at(q, g, 0, 0, &r, NULL)));
    while (q->e[0].tx != 1) tn_enemies_step(q, g, NULL, 0, NULL, 1.0f / 60.0f, NULL);
    tn_map_set_tile(t, 0, 0, TN_TILE_BLOCK, NULL);
    tn_map_set_tile(t, 2, 0, TN_TILE_BLOCK, NULL);
    tn_map_set_tile(t, 1, 0, TN_TILE_BLOCK, NULL);
    tn_flow_rebuild(g, t, NULL);
    tn_enemies_on_edit(q, g, 1, 0, NULL);
    assert_int_equal(q->count, 0);
    assert_int_equal(q->crushed, 1);
    tn_enemies_destroy(q);
    tn_flow_destroy(g);
    tn_map_destroy(t);

    tn_enemies_destroy(p);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}
/* A step of any length ends: the reviewer's dt = 1e9 and infinity hung
 * (one loop turn per spawn due).  Infinity and NaN are refused; a huge
 * finite step spawns at most a pool's worth and counts the rest as
 * skipped at once. */
static void test_long_steps(void **state)
{
    (void)state;
    tn_map *m = tu_map_text("tilenav-map 1\nsize 8 3\ntiles\n"
                            "........\n"
                            "S......D\n"
                            "........\n");
    tn_flow *f = flow_for(m);
    tn_enemies *p = tu_pool_fixed(1.0f, 0.2f, 8);
    tn_rng r;
    tn_rng_seed(&r, 3, 3);
    int32_t spawn = 1 * 8 + 0;
    tn_error e;
    tn_status s = tn_enemies_step(p, f, &spawn, 1, &r, INFINITY, &e);
    assert_true(tn_failed(s) && tn_status_detail(s, TN_INVALID_PARAM));
    assert_non_null(strstr(e.msg, "must be finite"));
    assert_true(tn_failed(tn_enemies_step(p, f, &spawn, 1, &r, NAN, NULL)));
    /* a NaN step is named as one, never printed "nan" or "-nan" */
    s = tn_enemies_step(p, f, &spawn, 1, &r, -NAN, &e);
    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "enemy: step dt is not a number (NaN)");
    /* a spawn list with no tiles or no rng, or a negative count: refused
     * with a message, nothing moves (they returned TN_OK and never
     * spawned, so a game that forgot its rng waited for enemies silently) */
    const char *why[3] = {"the list is NULL", "no rng", "negative count"};
    for (int k = 0; k < 3; k++) {
        s = tn_enemies_step(p, f, k == 0 ? NULL : &spawn, k == 2 ? -1 : 1, k == 1 ? NULL : &r, 2.0f,
                            &e);
        assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
        assert_non_null(strstr(e.msg, why[k]));
        assert_int_equal(p->count, 0);
        assert_int_equal(p->spawned, 0);
    }
    /* no spawn list at all: only moves, nothing is wrong */
    assert_int_equal(tn_enemies_step(p, f, NULL, 0, NULL, 0.5f, &e), TN_OK);
    p->cfg.spacing = 0.0f; /* every due spawn fits in one step */
    assert_true(tn_succeeded(tn_enemies_step(p, f, &spawn, 1, &r, 1e9f, &e)));
    assert_true(p->count <= 8);
    assert_true(p->spawned <= 8);
    assert_true(p->skipped > 900000000L);
    assert_true(p->accum < 1.0);
    tn_enemies_destroy(p);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

/* tn_enemies_memory is what the create allocated (a counting allocator). */
static void test_memory_counted(void **state)
{
    (void)state;
    tu_counting c = {0};
    tn_allocator a = tu_counting_allocator(&c);
    tn_enemies_config cfg = tn_enemies_default_config();
    cfg.capacity = 777;
    tn_enemies *p = NULL;
    assert_true(tn_succeeded(tn_enemies_create(&cfg, &a, &p, NULL)));
    assert_int_equal(tn_enemies_memory(p), c.bytes);
    tn_enemies_destroy(p);
    assert_int_equal(c.allocs, c.frees);
    assert_int_equal(tn_enemies_memory(NULL), 0);
}

/* A NULL argument is named in the message ("enemy: no flow field (f is
 * NULL)"), not "no pool or field" (found by a library user's program). */
static void test_null_argument_named(void **state)
{
    (void)state;
    tn_enemies *s = NULL;
    tn_flow *f = NULL;
    assert_true(tn_succeeded(tn_enemies_create(NULL, NULL, &s, NULL)));
    assert_true(tn_succeeded(tn_flow_create(4, 3, 4, NULL, &f, NULL)));
    tn_enemies_config cfg = tn_enemies_default_config();
    tn_error e;
    const struct {
        int call;
        const char *want;
    } c[] = {
        {0, "enemy: no pool (s is NULL)"},       {1, "enemy: no flow field (f is NULL)"},
        {2, "enemy: no pool (s is NULL)"},       {3, "enemy: no config (cfg is NULL)"},
        {4, "enemy: no flow field (f is NULL)"}, {5, "enemy: no flow field (f is NULL)"},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        tn_status st = 0;
        switch (c[k].call) {
        case 0: st = tn_enemies_step(NULL, f, NULL, 0, NULL, 0.016f, &e); break;
        case 1: st = tn_enemies_step(s, NULL, NULL, 0, NULL, 0.016f, &e); break;
        case 2: st = tn_enemies_configure(NULL, &cfg, &e); break;
        case 3: st = tn_enemies_configure(s, NULL, &e); break;
        case 4: st = tn_enemies_on_edit(s, NULL, 1, 1, &e); break;
        default: st = tn_enemies_spawn_at(s, NULL, 1, 1, NULL, &e); break;
        }
        assert_int_equal(st, TN_FAILURE | TN_INVALID_PARAM);
        if (strcmp(e.msg, c[k].want) != 0) fail_msg("case %zu: %s", k, e.msg);
    }
    tn_flow_destroy(f);
    tn_enemies_destroy(s);
}

/* With spacing on, a spawn is never placed closer than the spacing behind
 * the enemy ahead: the catch-up that evens out spawns inside a step (up to
 * the whole step for one held back for room) moved it forward to where the
 * enemy ahead had been closer than the spacing to the spawn centre.  At
 * 0.1 s steps and 4 tiles/s, spacing 1: enemies 0.72 tiles apart. */
static void test_spacing_kept_after_catch_up(void **state)
{
    (void)state;
    tn_map *m = tu_map_text(ROW_40);
    tn_flow *f = flow_for(m);
    const float dts[] = {1.0f / 60.0f, 0.1f, 0.25f};
    for (int k = 0; k < 3; k++) {
        tn_enemies *p = lane_pool(64, 50.0f, 1.0f, 4.0f, 4.0f);
        long made;
        const float least = least_gap(p, f, dts[k], false, &made);
        print_message("dt %g: %ld spawned, least gap %g tiles\n", (double)dts[k], made,
                      (double)least);
        assert_true(made > 20);
        assert_true(least >= p->cfg.spacing - 1e-4f);
        /* and no slack beyond one step's travel */
        assert_true(least <= p->cfg.spacing + 4.0f * dts[k] + 1e-4f);
        tn_enemies_destroy(p);
    }
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

/* The same with speeds drawn from a range: a fast spawn behind a slow
 * enemy.  The catch-up was cut by the enemy ahead's speed only (where it
 * had been), so the spawn, flying faster, landed inside the spacing:
 * every enemy made in a step is at least the spacing from every other
 * one at the step's end. */
static void test_spacing_kept_fast_behind_slow(void **state)
{
    (void)state;
    tn_map *m = tu_map_text(ROW_40);
    tn_flow *f = flow_for(m);
    const float dts[] = {1.0f / 60.0f, 0.1f, 0.25f};
    for (int k = 0; k < 3; k++) {
        tn_enemies *p = lane_pool(64, 50.0f, 1.0f, 2.0f, 8.0f);
        long made;
        const float least = least_gap(p, f, dts[k], true, &made);
        print_message("dt %g: %ld spawned, least gap of a new one %g tiles\n", (double)dts[k], made,
                      (double)least);
        assert_true(made > 20);
        assert_true(least >= p->cfg.spacing - 1e-4f);
        tn_enemies_destroy(p);
    }
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

/* Spawn numbers go on past 2^32: a 32-bit id wrapped there (the next
 * enemy was #0, then #1 again beside an enemy #1 still flying), so a card
 * pinned by its number could show another enemy. */
static void test_ids_past_2_32(void **state)
{
    (void)state;
    tn_map *m = tu_map_text(ROW_40);
    tn_flow *f = flow_for(m);
    tn_enemies *p = lane_pool(8, 1.0f, 0.0f, 0.2f, 0.2f);
    tn_rng r;
    tn_rng_seed(&r, 4, 4);
    assert_int_equal(tn_enemies_spawn_at(p, f, 0, 0, &r, NULL), TN_OK);
    assert_true(p->e[0].id == 1);
    p->spawned = (int64_t)UINT32_MAX - 1; /* (the counters as after that many) */
    p->reached = p->spawned - 1;
    for (int k = 0; k < 3; k++) assert_int_equal(tn_enemies_spawn_at(p, f, 0, 0, &r, NULL), TN_OK);
    const uint64_t want[4] = {1, UINT32_MAX, (uint64_t)UINT32_MAX + 1, (uint64_t)UINT32_MAX + 2};
    assert_int_equal(p->count, 4);
    for (int i = 0; i < 4; i++)
        if (p->e[i].id != want[i])
            fail_msg("enemy %d: id %llu, not %llu", i, (unsigned long long)p->e[i].id,
                     (unsigned long long)want[i]);
    assert_true(p->spawned == (int64_t)UINT32_MAX + 2);
    tn_enemies_destroy(p);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

/* tn_enemies_clear zeroes the counters but not the ids: they went back to
 * 1, so a caller keeping enemy #2 (an inspect card) met a new #2. */
static void test_ids_go_on_after_clear(void **state)
{
    (void)state;
    tn_map *m = tu_map_text(ROW_40);
    tn_flow *f = flow_for(m);
    tn_enemies *p = lane_pool(8, 1.0f, 0.0f, 0.2f, 0.2f);
    tn_rng r;
    tn_rng_seed(&r, 4, 4);
    for (int k = 0; k < 3; k++) assert_int_equal(tn_enemies_spawn_at(p, f, 0, 0, &r, NULL), TN_OK);
    assert_true(p->e[2].id == 3);
    tn_enemies_clear(p);
    assert_int_equal(p->count, 0);
    assert_true(p->spawned == 0 && p->reached == 0 && p->skipped == 0 && p->crushed == 0);
    for (int k = 0; k < 2; k++) assert_int_equal(tn_enemies_spawn_at(p, f, 0, 0, &r, NULL), TN_OK);
    assert_true(p->spawned == 2);
    if (p->e[0].id != 4 || p->e[1].id != 5)
        fail_msg("ids after a clear: %llu, %llu (not 4, 5)", (unsigned long long)p->e[0].id,
                 (unsigned long long)p->e[1].id);
    tn_enemies_clear(p);
    assert_int_equal(tn_enemies_spawn_at(p, f, 0, 0, &r, NULL), TN_OK);
    assert_true(p->e[0].id == 6);
    tn_enemies_destroy(p);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_speed_through_turns),
        cmocka_unit_test(test_spacing_kept_after_catch_up),
        cmocka_unit_test(test_spacing_kept_fast_behind_slow),
        cmocka_unit_test(test_turn_around),
        cmocka_unit_test(test_inside_tiles_random),
        cmocka_unit_test(test_spawner_accumulator_and_pool),
        cmocka_unit_test(test_held_spawn_catch_up),
        cmocka_unit_test(test_errors_have_messages),
        cmocka_unit_test(test_edits_under_enemies),
        cmocka_unit_test(test_long_steps),
        cmocka_unit_test(test_memory_counted),
        cmocka_unit_test(test_create_null_config),
        cmocka_unit_test(test_null_argument_named),
        cmocka_unit_test(test_ids_past_2_32),
        cmocka_unit_test(test_ids_go_on_after_clear),
    };
    return cmocka_run_group_tests_name("enemy", tests, NULL, NULL);
}
