/* tn_steer: the uniform grid against brute force, per-axis tile collision. */
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
#include "tn_steer.h"

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void test_grid_matches_brute_force(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 7, 1);
    enum { NP = 3000, NQ = 2000 };
    float *xy = malloc(sizeof(float) * 2 * NP);
    int32_t got[NP], want[NP];
    tn_error e;
    tn_grid *g = NULL;
    assert_true(tn_succeeded(tn_grid_create(0, 0, 1024, 768, 40, NP, NULL, &g, &e)));
    assert_non_null(g);
    for (int round = 0; round < 3; round++) {
        int n = round == 0 ? NP : (int)tn_rng_below(&r, NP);
        for (int i = 0; i < n; i++) {
            /* Some points outside the grid's rectangle, some clustered. */
            xy[2 * i] = tn_rng_range(&r, -100, 1124);
            xy[2 * i + 1] = i % 7 == 0 ? 300.0f : tn_rng_range(&r, -100, 868);
        }
        assert_true(tn_succeeded(tn_grid_build(g, xy, n, NULL)));
        for (int q = 0; q < NQ; q++) {
            float x = tn_rng_range(&r, -150, 1174), y = tn_rng_range(&r, -150, 918);
            float rad = tn_rng_range(&r, 0, 120);
            int skip = (int)tn_rng_below(&r, (uint32_t)n + 1) - 1;
            int ng = tn_grid_query(g, x, y, rad, got, NP);
            int nw = 0;
            float bx = 0, by = 0;
            int nb = 0;
            for (int i = 0; i < n; i++) {
                float dx = x - xy[2 * i], dy = y - xy[2 * i + 1], d2 = dx * dx + dy * dy;
                if (d2 > rad * rad) continue;
                want[nw++] = i;
                if (i == skip) continue;
                nb++;
                if (d2 == 0) {
                    bx += 1;
                    continue;
                }
                float d = sqrtf(d2);
                bx += dx / d * (1 - d / rad);
                by += dy / d * (1 - d / rad);
            }
            assert_int_equal(ng, nw);
            qsort(got, (size_t)ng, sizeof got[0], cmp_i32);
            assert_memory_equal(got, want, sizeof(int32_t) * (size_t)nw);
            float sx, sy;
            int ns = tn_grid_separation(g, x, y, rad, skip, &sx, &sy);
            assert_int_equal(ns, nb);
            assert_true(fabsf(sx - bx) < 1e-3f * (1 + fabsf(bx)));
            assert_true(fabsf(sy - by) < 1e-3f * (1 + fabsf(by)));
        }
    }
    /* A separation radius that is no radius: nothing, (0, 0) */
    float zx = 1, zy = 1;
    assert_int_equal(tn_grid_separation(g, 50, 50, NAN, -1, &zx, &zy), 0);
    assert_true(zx == 0 && zy == 0);
    assert_int_equal(tn_grid_separation(g, 50, 50, 0, -1, &zx, &zy), 0);
    /* Over capacity: partial. */
    tn_grid *small = NULL;
    assert_true(tn_succeeded(tn_grid_create(0, 0, 100, 100, 10, 5, NULL, &small, &e)));
    tn_status s = tn_grid_build(small, xy, 6, &e);
    assert_true(tn_succeeded(s) && tn_status_detail(s, TN_PARTIAL_RESULT | TN_CAPACITY));
    assert_int_equal(small->n, 5);
    /* A partial success says what it left out; a full one clears it. */
    assert_int_equal(e.status, s);
    assert_non_null(strstr(e.msg, "6 points, the grid holds the first 5"));
    assert_int_equal(tn_grid_build(small, xy, 5, &e), TN_OK);
    assert_int_equal(e.msg[0], '\0');
    assert_true(tn_failed(tn_grid_build(small, xy, -1, &e)));
    assert_non_null(strstr(e.msg, "negative"));
    assert_int_equal(small->n, 5);
    tn_grid_destroy(small);
    tn_grid_destroy(g);
    free(xy);
}

/* A negative radius finds nothing, whatever its size (r = -1 found the
 * points within 1 px, as r*r = 1; r = -50 none), as a NaN one. */
static void test_grid_query_negative_radius(void **state)
{
    (void)state;
    tn_grid *g = NULL;
    assert_true(tn_succeeded(tn_grid_create(0, 0, 256, 256, 16, 8, NULL, &g, NULL)));
    const float xy[6] = {10, 10, 12, 10, 100, 100};
    assert_true(tn_succeeded(tn_grid_build(g, xy, 3, NULL)));
    int32_t ids[4] = {-1, -1, -1, -1};
    const float bad[] = {-1.0f, -0.5f, -2.0f, -50.0f, -INFINITY, NAN};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_int_equal(tn_grid_query(g, 10, 10, bad[k], ids, 4), 0);
        assert_int_equal(ids[0], -1);
    }
    assert_int_equal(tn_grid_query(g, 10, 10, 0, ids, 4), 1); /* closed: the point itself */
    assert_int_equal(ids[0], 0);
    assert_int_equal(tn_grid_query(g, 10, 10, 2, NULL, 0), 2);
    assert_int_equal(tn_grid_query(g, 10, 10, INFINITY, NULL, 0), 3);
    tn_grid_destroy(g);
}

static void test_grid_cells_bounded(void **state)
{
    (void)state;
    tn_error e;
    /* A 4096-tile square map with tiny cells: the table stays small. */
    tn_grid *g = NULL;
    assert_true(tn_succeeded(tn_grid_create(0, 0, 65536, 65536, 8, 100, NULL, &g, &e)));
    assert_non_null(g);
    assert_true(g->cols * g->rows <= 4096);
    assert_true(g->cell >= 8);
    tn_grid_destroy(g);
    tn_grid *bad = (tn_grid *)&e;
    assert_true(tn_failed(tn_grid_create(0, 0, 0, 10, 8, 10, NULL, &bad, &e)));
    assert_null(bad);
    assert_true(tn_status_detail(e.status, TN_INVALID_PARAM));
    /* each message names the bad argument alone (one sentence listing every
     * rule said "size 0x10", which reads as hex sixteen) */
    assert_string_equal(e.msg, "steer: grid width 0 and height 10 px must be positive and finite");
    assert_true(tn_failed(tn_grid_create(0, 0, 10, 10, NAN, 10, NULL, &bad, &e)));
    assert_null(bad);
    assert_string_equal(e.msg, "steer: grid cell size is not a number (NaN)");
    /* a NaN said "nan" or "-nan" (0.0f / 0.0f is -nan on x86) */
    assert_true(tn_failed(tn_grid_create(0, 0, 10, -NAN, 8, 10, NULL, &bad, &e)));
    assert_string_equal(e.msg, "steer: grid height is not a number (NaN)");
    assert_true(tn_failed(tn_grid_create(INFINITY, 0, 10, 10, 8, 10, NULL, &bad, &e)));
    assert_null(bad);
    assert_string_equal(e.msg, "steer: grid origin (inf, 0) is not finite");
    /* a capacity past the limit is refused, not allocated (1 << 30 points
     * asked for 32 GB, zeroed: the kernel killed the process) */
    assert_true(tn_failed(tn_grid_create(0, 0, 10, 10, 8, TN_GRID_MAX_CAP + 1, NULL, &bad, &e)));
    assert_null(bad);
    assert_true(tn_status_detail(e.status, TN_INVALID_PARAM));
    assert_string_equal(e.msg, "steer: grid capacity 16777217 is outside 0..16777216");
    assert_true(tn_failed(tn_grid_create(0, 0, 10, 10, 8, 1 << 30, NULL, &bad, &e)));
    assert_null(bad);
}

/* A point at a NaN position (an agent whose motion blew up) is within no
 * distance of anything: tn_grid_query skipped it but tn_grid_separation
 * counted it and returned a NaN push, which then spread to every agent
 * near the grid's first cell. */
static void test_grid_separation_skips_nan_points(void **state)
{
    (void)state;
    tn_grid *g = NULL;
    assert_true(tn_succeeded(tn_grid_create(0, 0, 100, 100, 10, 4, NULL, &g, NULL)));
    const float xy[8] = {5, 5, 8, 5, NAN, 5, 5, NAN};
    assert_int_equal(tn_grid_build(g, xy, 4, NULL), TN_OK);
    int32_t ids[4];
    assert_int_equal(tn_grid_query(g, 6, 5, 10, ids, 4), 2);
    float sx = 0, sy = 0;
    assert_int_equal(tn_grid_separation(g, 6, 5, 10, -1, &sx, &sy), 2);
    assert_true(isfinite(sx) && isfinite(sy));
    /* (6,5) between (5,5) and (8,5): pushed by 1 - 1/10 and -(1 - 2/10) */
    assert_true(fabsf(sx - (0.9f - 0.8f)) < 1e-6f);
    assert_true(sy == 0.0f);
    tn_grid_destroy(g);
}

/* Against a wall (no corner) tn_steer_corner_shift says false for any
 * max_shift: the float loop d += 0.5 never passed 2^23, so a max_shift of
 * 2^23 px or more (or infinity) hung. */
static void test_corner_shift_any_max(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(4, 3, NULL, &m, NULL)));
    for (int y = 0; y < 3; y++) tn_map_set_tile(m, 2, y, TN_TILE_BLOCK, NULL);
    const float maxes[5] = {10.0f, 1e6f, 8388608.0f, 1e30f, INFINITY};
    float shift = 0;
    for (int i = 0; i < 5; i++) /* a 8x8 box flush against the wall, moving right */
        assert_false(tn_steer_corner_shift(m, 4, 28, 24, 0, 1, maxes[i], &shift));
    assert_false(tn_steer_corner_shift(m, 4, 28, 24, 0, 1, NAN, &shift));
    /* a corner is still found: the wall's top tile open */
    tn_map_set_tile(m, 2, 0, TN_TILE_EMPTY, NULL);
    assert_true(tn_steer_corner_shift(m, 4, 28, 20, 0, 1, INFINITY, &shift));
    assert_true(shift == -8.0f); /* box y 16..24 up to 8..16, above the wall */
    /* no axis but 0 and 1, no direction 0 or NaN (axis 2 was taken as y,
     * dir 0 as negative) */
    const int axes[] = {-1, 2, 7};
    for (int i = 0; i < 3; i++)
        assert_false(tn_steer_corner_shift(m, 4, 28, 20, axes[i], 1, INFINITY, &shift));
    assert_false(tn_steer_corner_shift(m, 4, 28, 20, 0, 0.0f, INFINITY, &shift));
    assert_false(tn_steer_corner_shift(m, 4, 28, 20, 0, NAN, INFINITY, &shift));
    tn_map_destroy(m);
}

static const char *const ROOM[] = {
    "############", "#..........#", "#...##.....#", "#...##.....#",
    "#......#...#", "#..........#", "############",
};

static void test_box_free_and_flush(void **state)
{
    (void)state;
    tn_map *m = tnav_map_rows(ROOM, 7);
    const float T = TN_TILE_PX;
    assert_true(tn_steer_box_free(m, 1.5f * T, 1.5f * T, 5));
    /* Touching a wall is free, overlapping it by any amount is not. */
    assert_true(tn_steer_box_free(m, T + 5, 1.5f * T, 5));
    assert_false(tn_steer_box_free(m, T + 4.99f, 1.5f * T, 5));
    assert_false(tn_steer_box_free(m, -20, 20, 5)); /* outside the map */
    /* Moving right into the pillar at column 4: stops flush, vx cancelled. */
    float x = 2.5f * T, y = 2.5f * T, vx = 300, vy = 0;
    unsigned hit = tn_steer_move(m, 5, &x, &y, 40, 0, &vx, &vy);
    assert_int_equal(hit, 1u);
    assert_true(vx == 0);
    assert_true(x < 4 * T - 5 && x > 4 * T - 5 - 0.05f);
    assert_true(tn_steer_box_free(m, x, y, 5));
    /* Diagonal into it: slides along y. */
    vx = 100;
    vy = 100;
    hit = tn_steer_move(m, 5, &x, &y, 10, 10, &vx, &vy);
    assert_int_equal(hit, 1u);
    assert_true(vx == 0 && vy == 100);
    assert_true(fabsf(y - (2.5f * T + 10)) < 1e-4f);
    tn_map_destroy(m);
}

static void test_rect_free_bad_rects(void **state)
{
    (void)state;
    tn_map *m = tnav_map_rows(ROOM, 7);
    const float T = TN_TILE_PX;
    /* The pillar (columns 4-5, rows 2-3) and the free tile (1, 1). */
    assert_false(tn_steer_rect_free(m, 4 * T + 1, 2 * T + 1, 6 * T - 1, 4 * T - 1));
    assert_true(tn_steer_rect_free(m, T, T, 2 * T, 2 * T));
    /* Corners given in the wrong order (an inverted rectangle) are not
     * free, wherever they are: inside the pillar, across the border
     * walls, or with a corner far off the map (no float-to-int overflow). */
    assert_false(tn_steer_rect_free(m, 6 * T - 1, 2 * T + 1, 4 * T + 1, 4 * T - 1));
    assert_false(tn_steer_rect_free(m, 4 * T + 1, 4 * T - 1, 6 * T - 1, 2 * T + 1));
    assert_false(tn_steer_rect_free(m, 11 * T, 6 * T, 0, 0));
    assert_false(tn_steer_rect_free(m, 3e38f, T, 2 * T, 2 * T));
    assert_false(tn_steer_rect_free(m, T, 3e38f, 2 * T, 2 * T));
    /* A box of negative half-size is an inverted rectangle too. */
    assert_false(tn_steer_box_free(m, 5 * T, 3 * T, -4));
    /* Not finite, or no map: not free. */
    assert_false(tn_steer_rect_free(m, NAN, T, 2 * T, 2 * T));
    assert_false(tn_steer_rect_free(m, T, T, 2 * T, NAN));
    assert_false(tn_steer_rect_free(m, -INFINITY, -INFINITY, INFINITY, INFINITY));
    assert_false(tn_steer_rect_free(NULL, T, T, 2 * T, 2 * T));
    assert_false(tn_steer_box_free(NULL, 1.5f * T, 1.5f * T, 5));
    tn_map_destroy(m);
}

static void test_move_never_enters_blocks(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 3, 9);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(40, 30, NULL, &m, NULL)));
    for (int i = 0; i < 300; i++)
        tn_map_set_tile(m, (int)tn_rng_below(&r, 40), (int)tn_rng_below(&r, 30), TN_TILE_BLOCK,
                        NULL);
    const float halves[] = {2, 5, 7.9f, 12};
    for (int h = 0; h < 4; h++) {
        float half = halves[h], x, y;
        do {
            x = tn_rng_range(&r, 0, 40 * 16);
            y = tn_rng_range(&r, 0, 30 * 16);
        } while (!tn_steer_box_free(m, x, y, half));
        for (int i = 0; i < 50000; i++) {
            float dx = tn_rng_range(&r, -30, 30), dy = tn_rng_range(&r, -30, 30);
            float ox = x, oy = y;
            unsigned hit = tn_steer_move(m, half, &x, &y, dx, dy, NULL, NULL);
            assert_true(tn_steer_box_free(m, x, y, half));
            /* An axis that was not stopped moved by exactly the request. */
            if (!(hit & 1u)) assert_true(fabsf(x - (ox + dx)) < 1e-3f);
            if (!(hit & 2u)) assert_true(fabsf(y - (oy + dy)) < 1e-3f);
            /* A stopped axis never moved against the request. */
            if (hit & 1u) assert_true((x - ox) * dx >= -1e-4f);
            if (hit & 2u) assert_true((y - oy) * dy >= -1e-4f);
        }
    }
    tn_map_destroy(m);
}

static void test_unstick(void **state)
{
    (void)state;
    tn_map *m = tnav_map_rows(ROOM, 7);
    const float T = TN_TILE_PX;
    float x = 4.2f * T, y = 2.3f * T; /* inside the pillar (columns 4-5, rows 2-3) */
    assert_true(tn_steer_unstick(m, 5, &x, &y, 8));
    assert_true(tn_steer_box_free(m, x, y, 5));
    assert_true(fabsf(x - 3.5f * T) < 1e-4f && fabsf(y - 2.5f * T) < 1e-4f);
    tn_map *full = NULL;
    assert_true(tn_succeeded(tn_map_create(3, 3, NULL, &full, NULL)));
    for (int i = 0; i < 9; i++) tn_map_set_tile(full, i % 3, i / 3, TN_TILE_BLOCK, NULL);
    x = y = 24;
    assert_false(tn_steer_unstick(full, 5, &x, &y, 8));
    /* rings beyond the map are not searched: a huge max_tiles returns at
     * once (it walked 2^30 rings before) */
    assert_false(tn_steer_unstick(full, 5, &x, &y, 1 << 30));
    assert_true(x == 24 && y == 24);
    /* not finite: false, not moved (it was undefined behaviour) */
    x = NAN;
    assert_false(tn_steer_unstick(m, 5, &x, &y, 8));
    assert_true(isnan(x) && y == 24);
    /* far outside the map: the nearest free tile centre inside it */
    x = 1e9f;
    y = 2.5f * T;
    assert_true(tn_steer_unstick(m, 5, &x, &y, 1 << 30));
    assert_true(tn_steer_box_free(m, x, y, 5));
    assert_true(x < (float)m->w * T);
    /* a move by a non-finite amount moves nothing on that axis */
    x = 1.5f * T;
    y = 1.5f * T;
    float vx = 1, vy = 1;
    tn_steer_move(m, 5, &x, &y, NAN, INFINITY, &vx, &vy);
    assert_true(x == 1.5f * T && y == 1.5f * T);
    tn_map_destroy(full);
    tn_map_destroy(m);
}

static void test_reference_los(void **state)
{
    (void)state;
    /* The test helper itself: sanity on the ROOM map. */
    tn_map *m = tnav_map_rows(ROOM, 7);
    const float T = TN_TILE_PX;
    assert_true(tnav_los(m, 1.5f * T, 1.5f * T, 10.5f * T, 1.5f * T));
    assert_false(tnav_los(m, 2.5f * T, 2.5f * T, 7.5f * T, 2.5f * T));
    float xy[64];
    int n = tnav_path(m, 2.5f * T, 2.5f * T, 7.5f * T, 2.5f * T, 5, xy, 32);
    assert_true(n >= 2);
    assert_true(xy[2 * n - 2] == 7.5f * T && xy[2 * n - 1] == 2.5f * T);
    tn_map_destroy(m);
}

/* tn_wrap_angle in constant time for any angle (it looped forever on 1e30
 * and on infinity, reached from tn_wander_step with a huge heading). */
static void test_wrap_angle_any(void **state)
{
    (void)state;
    const float pi = 3.14159265358979f;
    const float in[] = {0.0f, 1.0f, -1.0f, 3.5f, -3.5f, 100.0f, -1e6f, 1e30f, -1e30f, 3.4e38f};
    for (int i = 0; i < (int)(sizeof in / sizeof *in); i++) {
        float a = tn_wrap_angle(in[i]);
        assert_true(a > -pi - 1e-6f && a <= pi + 1e-6f);
        /* the same direction, where floats can still say so */
        if (fabsf(in[i]) < 1e5f) {
            assert_true(fabsf(cosf(a) - cosf(in[i])) < 1e-3f);
            assert_true(fabsf(sinf(a) - sinf(in[i])) < 1e-3f);
        }
    }
    assert_true(tn_wrap_angle(1.0f) == 1.0f); /* inside the range: unchanged */
    assert_true(tn_wrap_angle(INFINITY) == 0.0f);
    assert_true(tn_wrap_angle(NAN) == 0.0f);
}

/* tn_clamp_len keeps the direction and never lengthens: (3,4) to max 1 is
 * (0.6,0.8); a shorter vector is unchanged; a negative max (which gave
 * (-0.6,-0.8), the vector flipped) and NaN give (0,0). */
static void test_clamp_len_any_max(void **state)
{
    (void)state;
    float x = 3, y = 4;
    tn_clamp_len(&x, &y, 1.0f);
    assert_true(fabsf(x - 0.6f) < 1e-6f && fabsf(y - 0.8f) < 1e-6f);
    x = 3, y = 4;
    tn_clamp_len(&x, &y, 10.0f);
    assert_true(x == 3.0f && y == 4.0f);
    const float bad[] = {-1.0f, 0.0f, -INFINITY, NAN};
    for (int i = 0; i < 4; i++) {
        x = 3, y = 4;
        tn_clamp_len(&x, &y, bad[i]);
        assert_true(x == 0.0f && y == 0.0f);
    }
    x = 3, y = 4;
    tn_clamp_len(&x, &y, INFINITY);
    assert_true(x == 3.0f && y == 4.0f);
}

/* tn_clamp_len never returns NaN: an infinite vector gave NaN (inf x 0);
 * now length max along its infinite components.  A NaN component gives
 * (0, 0); a huge finite vector (its squared length overflows) is scaled,
 * not zeroed. */
static void test_clamp_len_any_vector(void **state)
{
    (void)state;
    float x = INFINITY, y = 3.0f;
    tn_clamp_len(&x, &y, 2.0f);
    assert_true(x == 2.0f && y == 0.0f);
    x = -INFINITY, y = INFINITY;
    tn_clamp_len(&x, &y, 2.0f);
    assert_true(fabsf(x + 1.41421356f) < 1e-5f && fabsf(y - 1.41421356f) < 1e-5f);
    x = 5.0f, y = -INFINITY;
    tn_clamp_len(&x, &y, 1.0f);
    assert_true(x == 0.0f && y == -1.0f);
    const float nan_in[2][2] = {{NAN, 1.0f}, {INFINITY, NAN}};
    for (int i = 0; i < 2; i++) {
        x = nan_in[i][0], y = nan_in[i][1];
        tn_clamp_len(&x, &y, 1.0f);
        assert_true(x == 0.0f && y == 0.0f);
    }
    x = 3e30f, y = -4e30f;
    tn_clamp_len(&x, &y, 10.0f);
    assert_true(fabsf(x - 6.0f) < 1e-4f && fabsf(y + 8.0f) < 1e-4f);
    x = 3e30f, y = 4e30f; /* shorter than an infinite max: unchanged */
    tn_clamp_len(&x, &y, INFINITY);
    assert_true(x == 3e30f && y == 4e30f);
}

/* NULL where the siblings take it (tn_steer_box_free, _rect_free, _move
 * with no map): tn_grid_query and _separation with no grid, a query with
 * no output buffer, tn_steer_unstick with no map were dereferenced. */
static void test_null_arguments(void **state)
{
    (void)state;
    tn_grid *g = NULL;
    assert_true(tn_succeeded(tn_grid_create(0, 0, 100, 100, 10, 4, NULL, &g, NULL)));
    const float xy[8] = {1, 1, 50, 50, 52, 50, 90, 90};
    assert_int_equal(tn_grid_build(g, xy, 4, NULL), TN_OK);
    int32_t ids[4];
    /* out NULL counts, whatever cap is, as a buffer would */
    const int n = tn_grid_query(g, 50, 50, 10, ids, 4);
    assert_int_equal(n, 2);
    assert_int_equal(tn_grid_query(g, 50, 50, 10, NULL, 5), n);
    assert_int_equal(tn_grid_query(g, 50, 50, 10, NULL, 0), n);
    assert_int_equal(tn_grid_query(g, 0, 0, 200, NULL, 4), 4);
    assert_int_equal(tn_grid_query(NULL, 50, 50, 10, ids, 4), 0);
    float sx = 7, sy = 7;
    assert_int_equal(tn_grid_separation(NULL, 50, 50, 10, -1, &sx, &sy), 0);
    assert_true(sx == 0.0f && sy == 0.0f);
    /* sx or sy NULL: the count alone (it wrote through them) */
    const int ns = tn_grid_separation(g, 50, 50, 10, -1, &sx, &sy);
    assert_true(ns > 0);
    assert_int_equal(tn_grid_separation(g, 50, 50, 10, -1, NULL, NULL), ns);
    assert_int_equal(tn_grid_separation(g, 50, 50, 10, -1, &sx, NULL), ns);
    tn_grid_destroy(g);

    float x = 24, y = 24;
    assert_false(tn_steer_unstick(NULL, 4, &x, &y, 3));
    assert_true(x == 24 && y == 24);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(4, 4, NULL, &m, NULL)));
    assert_false(tn_steer_unstick(m, 4, NULL, &y, 3));
    assert_false(tn_steer_unstick(m, 4, &x, NULL, 3));
    assert_true(tn_steer_unstick(m, 4, &x, &y, 3)); /* free: not moved */
    assert_true(x == 24 && y == 24);
    tn_map_destroy(m);
}

/* tn_steer_move without a position and tn_steer_corner_shift without a map
 * or an output: nothing, as tn_steer_unstick and tn_steer_box_free answer
 * NULL (these two dereferenced it). */
static void test_move_and_shift_null(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(4, 4, NULL, &m, NULL)));
    tn_map_set_tile(m, 2, 1, TN_TILE_BLOCK, NULL);
    float x = 24, y = 8, vx = 5, vy = 5;
    assert_int_equal(tn_steer_move(m, 4, NULL, &y, 100, 0, &vx, &vy), 0);
    assert_int_equal(tn_steer_move(m, 4, &x, NULL, 100, 0, &vx, &vy), 0);
    assert_true(x == 24 && y == 8 && vx == 5 && vy == 5);
    /* a box at (27.9, 18) stopped moving right by the block at (2,1) can
     * slide up past its corner: true with the map, false without one */
    float sh = 0;
    assert_true(tn_steer_corner_shift(m, 4, 27.9f, 18, 0, 1, 8, &sh));
    assert_true(sh == -6.0f); /* its bottom edge up to the block's top */
    assert_false(tn_steer_corner_shift(NULL, 4, 27.9f, 18, 0, 1, 8, &sh));
    assert_false(tn_steer_corner_shift(m, 4, 27.9f, 18, 0, 1, 8, NULL));
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_matches_brute_force),
        cmocka_unit_test(test_grid_cells_bounded),
        cmocka_unit_test(test_grid_query_negative_radius),
        cmocka_unit_test(test_grid_separation_skips_nan_points),
        cmocka_unit_test(test_clamp_len_any_max),
        cmocka_unit_test(test_corner_shift_any_max),
        cmocka_unit_test(test_box_free_and_flush),
        cmocka_unit_test(test_rect_free_bad_rects),
        cmocka_unit_test(test_move_never_enters_blocks),
        cmocka_unit_test(test_unstick),
        cmocka_unit_test(test_reference_los),
        cmocka_unit_test(test_wrap_angle_any),
        cmocka_unit_test(test_clamp_len_any_vector),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_move_and_shift_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
