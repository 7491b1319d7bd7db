/* Fixed-step platformer physics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "tn_phys.h"

#define T 16.0f

/* Build a map from rows (top first). */
static tn_map *mk(const char *const *rows, int h)
{
    int w = (int)strlen(rows[0]);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            tn_map_set_tile(m, x, y,
                            rows[y][x] == '#'   ? TN_TILE_BLOCK
                            : rows[y][x] == '=' ? TN_TILE_ONEWAY
                                                : TN_TILE_EMPTY,
                            NULL);
    return m;
}

static const tn_input NONE = {false, false, false, false};

static void run(tn_body *b, const tn_map *m, const tn_phys_params *p, tn_input in, int steps)
{
    for (int i = 0; i < steps; i++) tn_body_step(b, m, p, in);
}

static tn_map *open_floor(int w, int h)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    for (int x = 0; x < w; x++) tn_map_set_tile(m, x, h - 1, TN_TILE_BLOCK, NULL);
    return m;
}

static void test_fall_lands_flush(void **state)
{
    (void)state;
    tn_map *m = open_floor(8, 30);
    tn_phys_params p = tn_phys_default(4);
    tn_body b;
    tn_body_place(&b, &p, 1, 2, 3, 2);
    b.y += 3.3f; /* an odd starting height */
    run(&b, m, &p, NONE, 200);
    assert_true(b.on_ground);
    assert_float_equal(b.y + 2 * T, 29 * T, 1e-4);
    assert_float_equal(b.vy, 0.0f, 1e-6);
    int tx, ty;
    tn_body_tile(&b, &p, &tx, &ty);
    assert_int_equal(tx, 3);
    assert_int_equal(ty, 28);
    tn_map_destroy(m);
}

/* Highest point of the feet above the ground over a full jump, in pixels. */
static float apex(const tn_map *m, const tn_phys_params *p, int hold_frames, int *frames_up)
{
    tn_body b;
    tn_body_place(&b, p, 1, 2, 3, m->h - 2);
    run(&b, m, p, NONE, 2);
    float ground = b.y, best = 0;
    tn_input jump = {false, false, false, true};
    int up = 0;
    for (int i = 0; i < 240; i++) {
        tn_body_step(&b, m, p, i < hold_frames ? jump : NONE);
        if (ground - b.y > best) {
            best = ground - b.y;
            up = i + 1;
        }
        if (b.on_ground && i > 2) break;
    }
    if (frames_up) *frames_up = up;
    return best;
}

static void test_jump_apex_matches_height(void **state)
{
    (void)state;
    tn_map *m = open_floor(8, 40);
    for (int h = 1; h <= 8; h++) {
        tn_phys_params p = tn_phys_default((float)h);
        float a = apex(m, &p, 1000, NULL);
        /* Within a pixel of H tiles, and above it (the feet clear the ledge). */
        assert_true(fabsf(a - (float)h * T) <= 1.0f);
        assert_true(a > (float)h * T);
    }
    tn_map_destroy(m);
}

static void test_jump_cut(void **state)
{
    (void)state;
    tn_map *m = open_floor(8, 40);
    tn_phys_params p = tn_phys_default(6);
    float full = apex(m, &p, 1000, NULL);
    float tap = apex(m, &p, 1, NULL);
    float mid = apex(m, &p, 12, NULL);
    assert_true(tap < full * 0.25f);
    assert_true(tap < mid && mid < full);
    /* Holding jump on landing does not jump again (jump is an edge). */
    tn_body b;
    tn_body_place(&b, &p, 1, 2, 3, m->h - 2);
    tn_input jump = {false, false, false, true};
    run(&b, m, &p, jump, 200);
    assert_true(b.on_ground);
    tn_map_destroy(m);
}

static void test_late_jump(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "............", "............", "............", "............",
        "............", "............", "####........",
    };
    tn_map *m = mk(rows, 7);
    tn_phys_params p = tn_phys_default(3);
    tn_input right = {false, true, false, false}, rj = {false, true, false, true};
    for (int late = 1; late <= 6; late++) {
        tn_body b;
        tn_body_place(&b, &p, 1, 2, 2, 5);
        run(&b, m, &p, NONE, 2);
        /* walk right until the feet leave the ledge */
        int guard = 0;
        while (b.on_ground && guard++ < 100) tn_body_step(&b, m, &p, right);
        /* airborne for 1 step now; wait `late`-1 more, then press jump */
        run(&b, m, &p, right, late - 1);
        tn_body_step(&b, m, &p, rj);
        bool jumped = b.vy < 0.0f;
        if (late <= 4)
            assert_true(jumped);
        else
            assert_false(jumped);
    }
    tn_map_destroy(m);
}

static void test_oneway(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "..........", "..........", "..........", "..........", "..........",
        "...====...", "..........", "..........", "..........", "##########",
    };
    tn_map *m = mk(rows, 10);
    tn_phys_params p = tn_phys_default(6);
    /* Landing from above. */
    tn_body b;
    tn_body_place(&b, &p, 1, 2, 4, 2);
    run(&b, m, &p, NONE, 120);
    assert_true(b.on_ground);
    assert_true(b.on_oneway_only);
    assert_float_equal(b.y + 2 * T, 5 * T, 1e-4);
    /* Dropping through with Down. */
    tn_input down = {false, false, true, false};
    tn_body_step(&b, m, &p, down);
    run(&b, m, &p, NONE, 120);
    assert_true(b.on_ground);
    assert_false(b.on_oneway_only);
    assert_float_equal(b.y + 2 * T, 9 * T, 1e-4);
    /* Jumping up through it from below, landing on top. */
    tn_input jump = {false, false, false, true};
    bool above = false;
    for (int i = 0; i < 200; i++) {
        tn_body_step(&b, m, &p, i < 60 ? jump : NONE);
        if (b.on_ground && b.y + 2 * T <= 5 * T + 1e-3f) above = true;
    }
    assert_true(above);
    assert_float_equal(b.y + 2 * T, 5 * T, 1e-4);
    /* Walking sideways is never stopped by a one-way platform. */
    tn_body_place(&b, &p, 1, 2, 1, 6);
    b.y += 8; /* body overlaps row 5 (the platform row) */
    tn_input right = {false, true, false, false};
    float x0 = b.x;
    run(&b, m, &p, right, 30);
    assert_true(b.x > x0 + 60);
    tn_map_destroy(m);
}

static void test_walls(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "..........", "..........", "......#...", "......#...", "##########",
    };
    tn_map *m = mk(rows, 5);
    tn_phys_params p = tn_phys_default(1);
    tn_body b;
    tn_body_place(&b, &p, 1, 2, 2, 3);
    tn_input right = {false, true, false, false}, left = {true, false, false, false};
    run(&b, m, &p, right, 120);
    assert_float_equal(b.x, 5 * T, 1e-4);
    assert_true(b.hit_wall);
    run(&b, m, &p, left, 200);
    assert_float_equal(b.x, 0.0f, 1e-4); /* the map edge is a wall */
    /* Ceiling: a jump under a block stops flush under it. */
    static const char *const low[] = {
        "....", "####", "....", "....", "....", "####",
    };
    tn_map *m2 = mk(low, 6);
    tn_phys_params p2 = tn_phys_default(6);
    tn_body c;
    tn_body_place(&c, &p2, 1, 2, 1, 4);
    run(&c, m2, &p2, NONE, 2); /* settle: a jump needs ground */
    tn_input jump = {false, false, false, true};
    float top = 1e9f;
    bool bumped = false;
    for (int i = 0; i < 60; i++) {
        tn_body_step(&c, m2, &p2, jump);
        top = fminf(top, c.y);
        bumped |= c.hit_ceiling;
    }
    assert_true(bumped);
    assert_float_equal(top, 2 * T, 1e-4);
    tn_map_destroy(m);
    tn_map_destroy(m2);
}

static void test_no_tunnelling(void **state)
{
    (void)state;
    /* A one-tile floor after a 200-tile fall at terminal speed. */
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(3, 260, NULL, &m, NULL)));
    tn_map_set_tile(m, 1, 250, TN_TILE_BLOCK, NULL);
    tn_map_set_tile(m, 0, 250, TN_TILE_ONEWAY, NULL);
    tn_map_set_tile(m, 2, 250, TN_TILE_ONEWAY, NULL);
    tn_phys_params p = tn_phys_default(4);
    for (int col = 0; col < 3; col++) {
        tn_body b;
        tn_body_place(&b, &p, 1, 1, col, 0);
        float maxv = 0;
        for (int i = 0; i < 600; i++) {
            tn_body_step(&b, m, &p, NONE);
            maxv = fmaxf(maxv, b.vy);
        }
        assert_float_equal(maxv, p.max_fall, 1e-3);
        assert_true(b.on_ground);
        assert_float_equal(b.y + T, 250 * T, 1e-3);
    }
    /* Never inside a block, whatever the inputs. */
    tn_body b;
    tn_body_place(&b, &p, 2, 3, 0, 100);
    tn_input ins[4] = {{true, false, false, true},
                       {false, true, true, false},
                       {false, true, false, true},
                       {true, false, true, false}};
    for (int i = 0; i < 3000; i++) {
        tn_body_step(&b, m, &p, ins[(i / 37) % 4]);
        assert_false(tn_body_box_blocked(m, &p, b.x, b.y, b.w, b.h));
    }
    tn_map_destroy(m);
}

static void test_validate(void **state)
{
    (void)state;
    tn_error e;
    tn_phys_params p = tn_phys_default(9);
    assert_true(tn_failed(tn_phys_validate(&p, &e)));
    assert_string_equal(e.msg, "jump_height 9 is outside 1..8 tiles");
    p = tn_phys_default(4);
    assert_true(tn_succeeded(tn_phys_validate(&p, &e)));
    p.dt = 0;
    assert_true(tn_failed(tn_phys_validate(&p, &e)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fall_lands_flush), cmocka_unit_test(test_jump_apex_matches_height),
        cmocka_unit_test(test_jump_cut),         cmocka_unit_test(test_late_jump),
        cmocka_unit_test(test_oneway),           cmocka_unit_test(test_walls),
        cmocka_unit_test(test_no_tunnelling),    cmocka_unit_test(test_validate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
