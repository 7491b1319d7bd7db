/* Fixed-step platformer physics. */
#define _POSIX_C_SOURCE 200809L /* alarm */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal/phys_diff.h"
#include "tn_phys.h"
#include "tn_rng.h"

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

/* tn_body_settle finds the ground under a placed body as a step would,
 * without moving it: a jump or a Down on the very first step acts (a
 * script's jump pressed at frame 0 was a held key that never jumped); a
 * body placed in the air is left in the air. */
static void test_settle_after_place(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "..........", "..........", "..........", "..........", "..........",
        "...====...", "..........", "..........", "..........", "##########",
    };
    tn_map *m = mk(rows, 10);
    tn_phys_params p = tn_phys_default(4);
    const tn_input jump = {false, false, false, true}, down = {false, false, true, false};
    tn_body b;
    tn_body_place(&b, &p, 1, 2, 1, 8); /* on the floor */
    tn_body placed = b;
    tn_body_settle(&b, m, &p);
    assert_true(b.on_ground);
    assert_false(b.on_oneway_only);
    assert_float_equal(b.x, placed.x, 0.0);
    assert_float_equal(b.y, placed.y, 0.0);
    tn_body_step(&b, m, &p, jump);
    assert_true(b.jumped);
    assert_true(b.y < placed.y);
    tn_body_place(&b, &p, 1, 2, 4, 4); /* on the one-way platform */
    tn_body_settle(&b, m, &p);
    assert_true(b.on_ground && b.on_oneway_only);
    tn_body_step(&b, m, &p, down);
    run(&b, m, &p, NONE, 120);
    assert_float_equal(b.y + 2 * T, 9 * T, 1e-4); /* dropped through, on the floor */
    tn_body_place(&b, &p, 1, 2, 1, 3);            /* in the air */
    placed = b;
    tn_body_settle(&b, m, &p);
    assert_false(b.on_ground);
    assert_memory_equal(&b, &placed, sizeof b);
    tn_body_settle(NULL, m, &p); /* NULLs: nothing */
    tn_body_settle(&b, NULL, &p);
    tn_body_settle(&b, m, NULL);
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

/* A caller that moves a body itself (knock-back: tn_bot.h and docs/surf.md
 * have bots recover from it) can put the box a fraction of a pixel into a
 * block.  The collision sweep only tests the tiles a move enters, so such
 * a box walked through a one-tile wall, or fell past a ledge's corner into
 * its top row and stood inside the block (a game's bot then had no start:
 * NO_PATH).  A step first pushes it out by the shortest move that frees
 * it. */
static void test_pushed_into_block(void **state)
{
    (void)state;
    const char *rows[] = {
        "..........#.........", "..........#.........", "..........#.........",
        "..........#.........", "..........#.........", "..........#.........",
        "..........#.........", "####################",
    };
    tn_map *m = mk(rows, 8);
    tn_phys_params p = tn_phys_default(4);
    const tn_input right = {false, true, false, false}, left = {true, false, false, false};
    /* against the wall's left side, pushed 0.3 px into it, walks on right */
    tn_body b;
    tn_body_place(&b, &p, 1, 2, 8, 6);
    run(&b, m, &p, right, 12);
    assert_float_equal(b.x, 9 * T, 1e-4);
    b.x += 0.3f;
    assert_true(tn_body_box_blocked(m, &p, b.x, b.y, 1, 2));
    for (int i = 0; i < 12; i++) {
        tn_body_step(&b, m, &p, right);
        assert_false(tn_body_box_blocked(m, &p, b.x, b.y, 1, 2));
    }
    assert_float_equal(b.x, 9 * T, 1e-4); /* not through the wall (it was x = 176.3) */
    assert_true(b.hit_wall);
    /* the same from the right, pushed 1.3 px, walking left */
    tn_body_place(&b, &p, 1, 2, 12, 6);
    run(&b, m, &p, left, 12);
    assert_float_equal(b.x, 11 * T, 1e-4);
    b.x -= 1.3f;
    for (int i = 0; i < 12; i++) {
        tn_body_step(&b, m, &p, left);
        assert_false(tn_body_box_blocked(m, &p, b.x, b.y, 1, 2));
    }
    assert_float_equal(b.x, 11 * T, 1e-4);
    tn_map_destroy(m);

    /* falling past a ledge's corner, pushed 0.3 px back over it */
    const char *pit[] = {
        "........", "........", "........", "........", "###..###", "###..###", "###..###",
    };
    m = mk(pit, 7);
    tn_body_place(&b, &p, 1, 2, 1, 3);
    int f = 0;
    while (b.on_ground || f == 0) {
        tn_body_step(&b, m, &p, right);
        f++;
        assert_true(f < 60);
    }
    tn_body air = b;         /* feet 0.14 px below the ledge's top */
    run(&b, m, &p, NONE, 2); /* feet 0.86 px below it */
    b.x = 3 * T - 0.3f;      /* the box overlaps column 2, whose top row it is in */
    for (int i = 0; i < 120; i++) {
        tn_body_step(&b, m, &p, NONE);
        assert_false(tn_body_box_blocked(m, &p, b.x, b.y, 1, 2));
    }
    assert_true(b.on_ground);
    assert_float_equal(b.y, 7 * T - 2 * T, 1e-4); /* on the pit's floor (the map's bottom) */
    assert_float_equal(b.x, 3 * T, 1e-4);         /* moved out 0.3 px on x */
    /* pushed at once: 0.14 px up is the shorter way out, onto the ledge */
    b = air;
    assert_true(b.y + 2 * T > 4 * T + 0.1f && b.y + 2 * T < 4 * T + 0.2f);
    b.x = 3 * T - 0.3f;
    tn_body_step(&b, m, &p, NONE);
    assert_false(tn_body_box_blocked(m, &p, b.x, b.y, 1, 2));
    assert_true(b.on_ground);
    assert_float_equal(b.y, 4 * T - 2 * T, 1e-4);
    /* as deep into the corner on x as on y (0.5 px each): a tie goes to x
     * (the push is undone sideways; the body falls on past the ledge) */
    b = air;
    b.x = 3 * T - 0.5f;
    b.y = 4 * T + 0.5f - 2 * T;
    b.vy = 0.0f;
    tn_body_step(&b, m, &p, NONE);
    assert_false(tn_body_box_blocked(m, &p, b.x, b.y, 1, 2));
    assert_float_equal(b.x, 3 * T, 1e-4);
    assert_false(b.on_ground);

    /* random pushes of up to 3 px on random moves: never left inside */
    tn_rng rng;
    tn_rng_seed(&rng, 7, 1);
    const char *box[] = {
        "############", "#..........#", "#...##.....#", "#..........#",
        "#.====..#..#", "#.......#..#", "#..#.......#", "############",
    };
    tn_map_destroy(m);
    m = mk(box, 8);
    tn_body_place(&b, &p, 1, 2, 2, 6);
    tn_input ins[4] = {{true, false, false, true},
                       {false, true, true, false},
                       {false, true, false, true},
                       {true, false, true, false}};
    for (int i = 0; i < 20000; i++) {
        if (i % 5 == 0) {
            float px = b.x, py = b.y;
            b.x += (float)(tn_rng_below(&rng, 601)) / 100.0f - 3.0f;
            if (i % 15 == 0) b.y += (float)(tn_rng_below(&rng, 601)) / 100.0f - 3.0f;
            if (tn_body_box_blocked(m, &p, b.x, b.y, 1, 2) &&
                tn_body_box_blocked(m, &p, px, b.y, 1, 2) &&
                tn_body_box_blocked(m, &p, b.x, py, 1, 2)) {
                b.x = px; /* a push the shortest move along one axis */
                b.y = py; /* may not undo: not this test's */
            }
        }
        tn_body_step(&b, m, &p, ins[(i / 37) % 4]);
        assert_false(tn_body_box_blocked(m, &p, b.x, b.y, b.w, b.h));
    }
    tn_map_destroy(m);
}

/* ---- tile size: physics is scale-invariant ------------------------------- */

/* The 16-px parameters with every pixel quantity multiplied by k (tile_px,
 * gravity, max_fall, walk_speed, jump_cut_speed); dt, jump_height and
 * coyote_frames are unitless or in tiles and stay. */
static tn_phys_params scaled(float jump, float k)
{
    tn_phys_params p = tn_phys_default(jump);
    return tn_phys_scaled(&p, k);
}

/* A room with a ledge (coyote jumps off its edge), a low ceiling (its side
 * is a wall in the air), a wall stub, a one-way platform exactly 3 tiles
 * above the floor (landing on it, dropping through it). */
static const char *const SCALE_ROOM[] = {
    "########################", /* 0 */
    "#......................#", /* 1 */
    "#......................#", /* 2 */
    "#......................#", /* 3 */
    "#......................#", /* 4 */
    "#......................#", /* 5 */
    "#.........###..........#", /* 6: a ceiling */
    "#......................#", /* 7 */
    "######...........====..#", /* 8: ledge x 1..5, one-way x 17..20 */
    "#..........#...........#", /* 9: wall stub at x 11 */
    "#..........#...........#", /* 10 */
    "########################", /* 11 */
};

typedef struct script_seg {
    tn_input in;
    int steps;
} script_seg;

#define IN(l, r, d, j)                         \
    {                                          \
        (l) != 0, (r) != 0, (d) != 0, (j) != 0 \
    }
/* Scripted for a 1x2 body placed at tile (2, 7), jump height 3 (traced at
 * 16 px): walk off the ledge and jump 2 steps late (coyote), hit the
 * ceiling's side in the air, land against the wall stub, jump into the
 * ceiling (holding jump on landing does not jump again), jump over the stub
 * onto the floor under the one-way platform, jump straight up through it and
 * land on it, drop through it, a jump released after 6 steps (the cut), then
 * walk left into the stub. */
static const script_seg SCRIPT[] = {
    {IN(0, 0, 0, 0), 2},  {IN(0, 1, 0, 0), 24}, {IN(0, 1, 0, 0), 1},  {IN(0, 1, 0, 1), 1},
    {IN(0, 1, 0, 0), 80}, {IN(0, 0, 0, 1), 30}, {IN(0, 0, 0, 0), 30}, {IN(0, 1, 0, 1), 60},
    {IN(0, 0, 0, 0), 10}, {IN(0, 0, 0, 1), 50}, {IN(0, 0, 0, 0), 10}, {IN(0, 0, 1, 0), 1},
    {IN(0, 0, 0, 0), 60}, {IN(0, 0, 0, 1), 6},  {IN(0, 0, 0, 0), 60}, {IN(1, 0, 0, 0), 200},
};

/* What a run exercised (at the base scale). */
typedef struct events {
    int coyote, walls, ceilings, oneway_landings, drops, cuts, jumps;
} events;

/* Step bodies a (params pa) and b (params pb = pa scaled by k) side by side
 * with the same inputs; every position and speed of b is exactly k times a's
 * and every flag is equal, at every step. */
static void lockstep(const tn_map *m, const tn_phys_params *pa, const tn_phys_params *pb, float k,
                     tn_body *a, tn_body *b, tn_input in, events *ev)
{
    const int air_before = a->air_frames;
    const bool oneway_before = a->on_ground && a->on_oneway_only;
    const bool ground_before = a->on_ground;
    const float vy_before = a->vy;
    tn_body_step(a, m, pa, in);
    tn_body_step(b, m, pb, in);
    assert_true(b->x == k * a->x && b->y == k * a->y);
    assert_true(b->vx == k * a->vx && b->vy == k * a->vy);
    assert_int_equal(b->on_ground, a->on_ground);
    assert_int_equal(b->on_oneway_only, a->on_oneway_only);
    assert_int_equal(b->jump_held, a->jump_held);
    assert_int_equal(b->rising, a->rising);
    assert_int_equal(b->hit_ceiling, a->hit_ceiling);
    assert_int_equal(b->hit_wall, a->hit_wall);
    assert_int_equal(b->jumped, a->jumped);
    assert_int_equal(b->air_frames, a->air_frames);
    int ax, ay, bx, by;
    tn_body_tile(a, pa, &ax, &ay);
    tn_body_tile(b, pb, &bx, &by);
    assert_int_equal(ax, bx);
    assert_int_equal(ay, by);
    /* the box test agrees one pixel off the body, on both sides */
    assert_int_equal(tn_body_box_blocked(m, pa, a->x + 1.0f, a->y - 1.0f, a->w, a->h),
                     tn_body_box_blocked(m, pb, k * (a->x + 1.0f), k * (a->y - 1.0f), b->w, b->h));
    if (!ev) return;
    if (a->jumped && !ground_before && air_before >= 1 && air_before <= pa->coyote_frames)
        ev->coyote++;
    ev->jumps += a->jumped;
    ev->walls += a->hit_wall;
    ev->ceilings += a->hit_ceiling;
    ev->oneway_landings += a->on_ground && a->on_oneway_only && !ground_before;
    ev->drops += oneway_before && in.down && !a->on_ground;
    ev->cuts += a->rising && !in.jump && vy_before < -pa->jump_cut_speed &&
                a->vy > vy_before + pa->gravity * pa->dt;
}

static void test_scale_invariance_script(void **state)
{
    (void)state;
    tn_map *m = mk(SCALE_ROOM, 12);
    const float ks[] = {0.25f, 0.5f, 2.0f, 4.0f, 8.0f, 16.0f}; /* 4 .. 256 px tiles */
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        const float k = ks[ki];
        tn_phys_params pa = tn_phys_default(3), pb = scaled(3, k);
        assert_true(tn_succeeded(tn_phys_validate(&pb, NULL)));
        assert_true(tn_phys_jump_speed(&pb) == k * tn_phys_jump_speed(&pa));
        tn_body a, b;
        tn_body_place(&a, &pa, 1, 2, 2, 7);
        tn_body_place(&b, &pb, 1, 2, 2, 7);
        assert_true(b.x == k * a.x && b.y == k * a.y);
        events ev = {0};
        for (size_t i = 0; i < sizeof SCRIPT / sizeof SCRIPT[0]; i++)
            for (int s = 0; s < SCRIPT[i].steps; s++)
                lockstep(m, &pa, &pb, k, &a, &b, SCRIPT[i].in, &ev);
        /* the script did what it says */
        assert_true(ev.coyote >= 1);
        assert_true(ev.walls >= 2);
        assert_true(ev.ceilings >= 1);
        assert_true(ev.oneway_landings >= 1);
        assert_true(ev.drops >= 1);
        assert_true(ev.cuts >= 1);
        assert_true(ev.jumps >= 4);
    }
    tn_map_destroy(m);
}

/* The same with random inputs, every body size and jump height: 16 px
 * against 8 and 32. */
/* The fields two physics differ in, as the messages of tn_bot (graph vs
 * character) and tn_surf_load (saved vs given) say them, one helper for
 * both; cut short in a small buffer, never past it. */
static void test_phys_diff_text(void **state)
{
    (void)state;
    const tn_phys_params a = tn_phys_default(4.0f), b = tn_phys_scaled(&a, 2.0f);
    char buf[256];
    size_t n = 0;
    buf[0] = '\0';
    tn_physi_diff(&a, &a, buf, sizeof buf, &n);
    assert_int_equal(n, 0);
    assert_string_equal(buf, "");
    tn_commoni_appendf(buf, sizeof buf, &n, "box %dx%d / %dx%d", 1, 2, 2, 3);
    tn_physi_diff(&a, &b, buf, sizeof buf, &n);
    assert_string_equal(buf, "box 1x2 / 2x3, tile_px 16 / 32, gravity 1030 / 2060, max_fall 900 / "
                             "1800, walk_speed 160 / 320, jump_cut_speed 120 / 240");
    assert_int_equal(n, strlen(buf));
    char small[12];
    n = 0;
    small[0] = '\0';
    tn_physi_diff(&a, &b, small, sizeof small, &n);
    assert_string_equal(small, "tile_px 16 "); /* (what fits) */
    assert_true(n <= sizeof small);
}

static void test_scale_invariance_random(void **state)
{
    (void)state;
    /* p NULL: the defaults, scaled (it dereferenced NULL; a library user) */
    const tn_phys_params dn = tn_phys_scaled(NULL, 2.0f), dd = scaled(4.0f, 2.0f);
    assert_memory_equal(&dn, &dd, sizeof dn);
    tn_map *m = mk(SCALE_ROOM, 12);
    tn_rng r;
    tn_rng_seed(&r, 13, 2);
    events ev = {0};
    /* starts: on the ledge and on the one-way platform */
    const int start[2][2] = {{3, 7}, {18, 7}};
    for (int w = 1; w <= 2; w++)
        for (int h = 1; h <= 3; h++)
            for (int jump = 1; jump <= 8; jump += 3)
                for (int kk = 0; kk < 4; kk++) {
                    const float k = kk & 1 ? 2.0f : 0.5f;
                    const int sx = start[kk >> 1][0], sy = start[kk >> 1][1];
                    tn_phys_params pa = tn_phys_default((float)jump), pb = scaled((float)jump, k);
                    tn_body a, b;
                    tn_body_place(&a, &pa, w, h, sx, sy);
                    tn_body_place(&b, &pb, w, h, sx, sy);
                    for (int s = 0; s < 1000; s++) {
                        uint32_t u = tn_rng_u32(&r);
                        tn_input in = {(u & 3) == 1, (u & 3) == 2, ((u >> 2) & 7) == 0,
                                       ((u >> 5) & 3) != 0};
                        lockstep(m, &pa, &pb, k, &a, &b, in, &ev);
                    }
                }
    assert_true(ev.walls > 0 && ev.ceilings > 0 && ev.oneway_landings > 0 && ev.drops > 0);
    assert_true(ev.coyote > 0 && ev.cuts > 0);
    tn_map_destroy(m);
}

/* A standing body is at rest: whenever a step ends on the ground, vy is 0,
 * so what the body does next depends on its position only (the graph
 * planner's take-offs assume it).  Random inputs on random rooms of blocks
 * and one-way platforms, every size and jump height.  The physics used to
 * keep a small downward speed when the ground test, rather than the
 * vertical move, found the landing at the end of a step that was still
 * rising; a walk-off right after it fell faster than from rest, and the
 * bot missed 8 of 5,000 graph plans (tilenav-bench arrival). */
static void test_standing_is_at_rest(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 2026, 12);
    long standing = 0;
    for (int level = 0; level < 72; level++) {
        const int W = 24, H = 16;
        tn_map *m = NULL;
        assert_true(tn_succeeded(tn_map_create(W, H, NULL, &m, NULL)));
        for (int y = 3; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint32_t u = tn_rng_below(&r, 100);
                int t = y == H - 1 || u < 12 ? TN_TILE_BLOCK
                        : u < 24             ? TN_TILE_ONEWAY
                                             : TN_TILE_EMPTY;
                tn_map_set_tile(m, x, y, t, NULL);
            }
        int w = 1 + level % 3, h = 1 + (level / 3) % 3, jump = 1 + (level / 9) % 8;
        tn_phys_params p = tn_phys_default((float)jump);
        tn_body b;
        tn_body_place(&b, &p, w, h, 0, 0); /* in the open rows at the top */
        tn_input in = NONE;
        for (int s = 0; s < 3000; s++) {
            uint32_t u = tn_rng_u32(&r);
            /* runs of the same input, as a player or a bot presses keys */
            if ((u & 7) == 0)
                in = (tn_input){((u >> 3) & 3) == 1, ((u >> 3) & 3) == 2, ((u >> 5) & 7) == 0,
                                ((u >> 8) & 3) != 0};
            tn_body_step(&b, m, &p, in);
            if (b.on_ground) {
                standing++;
                assert_true(b.vy == 0.0f);
            }
        }
        tn_map_destroy(m);
    }
    assert_true(standing > 10000);
}

/* Tile sizes that are not a power-of-two multiple of 16 are not bit-exact
 * but keep the contracts: flush landings, and a full jump clears H tiles by
 * about T/32. */
static void test_other_tile_sizes(void **state)
{
    (void)state;
    const float sizes[] = {4, 8, 12, 16, 24, 32, 48, 100, 256};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const float T2 = sizes[i], k = T2 / 16.0f;
        tn_map *m = open_floor(8, 40);
        for (int hgt = 1; hgt <= 8; hgt++) {
            tn_phys_params p = scaled((float)hgt, k);
            assert_true(tn_succeeded(tn_phys_validate(&p, NULL)));
            float a = apex(m, &p, 1000, NULL);
            assert_true(a > (float)hgt * T2);
            assert_true(a <= (float)hgt * T2 + T2 / 16.0f);
        }
        tn_phys_params p = scaled(4, k);
        tn_body b;
        tn_body_place(&b, &p, 1, 2, 3, 2);
        b.y += 0.3f * T2;
        run(&b, m, &p, NONE, 200);
        assert_true(b.on_ground);
        assert_true(b.y + 2 * T2 == 39 * T2);
        int tx, ty;
        tn_body_tile(&b, &p, &tx, &ty);
        assert_int_equal(tx, 3);
        assert_int_equal(ty, 38);
        tn_map_destroy(m);
    }
}

/* x after `steps` walking right from pixel x0 (feet on a floor), with p. */
static float walked(const tn_phys_params *p, float x0, int steps)
{
    tn_map *m = open_floor(600, 8);
    tn_body b;
    tn_body_place(&b, p, 1, 2, 0, 6);
    b.x = x0;
    run(&b, m, p, NONE, 2);
    run(&b, m, p, (tn_input){false, true, false, false}, steps);
    tn_map_destroy(m);
    return b.x;
}

/* The snap's bounds as tn_phys.h states them: the lattice is T/n for the
 * tile size in use (n = 3 at tile_px 8, 12 at 32 with the 16-px speeds);
 * the snap distance is T/128 (1/4 px at 32: 0.2 px off is snapped, 0.3
 * is not); a walk_speed within 1/1000 of a step of a dividing one walks
 * at it (160.01 px/s as 160); a step that divides no tile (150 px/s, 2.5
 * px) and an x placed further off are never snapped. */
static void test_walk_lattice_bounds(void **state)
{
    (void)state;
    const tn_phys_params d = tn_phys_default(4.0f);
    tn_phys_params p = d;
    const float third = (float)(16.0 / 6.0);
    p.tile_px = 8.0f; /* 8/3 px: 3 a tile */
    assert_true(walked(&p, 0.0f, 1500) == (float)(1500.0 * 8.0 / 3.0));
    p.tile_px = 32.0f; /* 12 a tile */
    assert_true(walked(&p, 0.0f, 3000) == (float)(3000.0 * 8.0 / 3.0));
    p = tn_phys_scaled(&d, 2.0f); /* 16/3 px; T/128 = 0.25 px */
    assert_true(walked(&p, 0.2f, 1500) == (float)(1500.0 * 16.0 / 3.0)); /* snapped at once */
    float off = walked(&p, 0.3f, 300) - (float)(300.0 * 16.0 / 3.0);
    printf("  0.3 px off at tile_px 32: %.4f px off after 300 steps\n", (double)off);
    assert_true(off > 0.25f && off < 0.35f); /* not snapped: 0.3 px off, plus drift */
    p = d;
    p.walk_speed = 160.01f; /* within 1/1000 of a step of 160: walks as 160 */
    assert_true(walked(&p, 0.0f, 3000) == (float)(3000.0 * 16.0 / 6.0));
    p.walk_speed = 150.0f; /* 2.5 px, 6.4 a tile: float sums, no snap */
    float x = walked(&p, 0.0f, 3000);
    assert_true(fabsf(x - 7500.0f) < 0.05f);
    p = d; /* placed 1.3 px off: it stays off (by 1.3 px, plus drift) */
    x = walked(&p, 1.3f, 600);
    off = x - 600.0f * third;
    assert_true(off > 1.2f && off < 1.4f);
}

/* Walking keeps x on the walk lattice (x = k * 8/3 px) however far it
 * goes: float sums of the step drifted 0.19 px off it by x = 8,000 px and
 * 0.8 px by 16,000, past the 1/8 px the collisions forgive, so far from
 * the map's left edge a box could no longer drop into a hole its width
 * (and the graph planner's edges, simulated on the lattice, did not
 * replay there). */
static void test_walk_stays_on_lattice(void **state)
{
    (void)state;
    tn_phys_params p = tn_phys_default(4.0f);
    const int W = 1100;
    tn_map *m = open_floor(W, 8);
    tn_body b;
    tn_body_place(&b, &p, 1, 2, 0, 6);
    run(&b, m, &p, NONE, 2);
    const double step = 16.0 / 6.0;
    double worst = 0.0;
    for (int i = 0; i < 6000; i++) {
        tn_body_step(&b, m, &p, (tn_input){false, true, false, false});
        double k = nearbyint((double)b.x / step), err = fabs((double)b.x - (float)(k * step));
        if (err > worst) worst = err;
        /* (nothing else moves it: instant start, no air) */
        if (!b.on_ground) fail_msg("step %d: x %g y %g in the air", i, (double)b.x, (double)b.y);
    }
    printf("  x = %.3f px after 6000 steps, at most %.6f px off the lattice\n", (double)b.x, worst);
    assert_true(worst == 0.0);
    tn_map_destroy(m);

    /* a one-tile hole 1,030 tiles from the left edge: a 1-wide box that
     * walks from tile 10 and stops above it (a running box passes over a
     * hole its width) drops in */
    m = open_floor(W, 8);
    tn_map_set_tile(m, 1030, 7, TN_TILE_EMPTY, NULL);
    tn_body_place(&b, &p, 1, 2, 10, 6);
    run(&b, m, &p, NONE, 2);
    while (b.x < 1030.0f * T - 1.0f) tn_body_step(&b, m, &p, (tn_input){false, true, false, false});
    run(&b, m, &p, NONE, 30);
    printf("  walked from tile 10: x = %.3f, y = %.3f\n", (double)b.x, (double)b.y);
    assert_true(b.x == 1030.0f * T);
    assert_true(b.y == 6.0f * T); /* down the hole (to the map's bottom), not over it */
    tn_map_destroy(m);
}

static void test_validate(void **state)
{
    (void)state;
    tn_error e;
    tn_phys_params p = tn_phys_default(9);
    assert_true(tn_failed(tn_phys_validate(&p, &e)));
    assert_string_equal(e.msg, "phys: jump_height 9 is outside 1..8 tiles");
    p = tn_phys_default(4);
    assert_true(tn_succeeded(tn_phys_validate(&p, &e)));
    p.dt = 0;
    assert_true(tn_failed(tn_phys_validate(&p, &e)));
    /* the tile size */
    p = tn_phys_default(4);
    assert_true(p.tile_px == (float)TN_TILE_PX);
    const float bad[] = {0.0f, 3.0f, 3.99f, 256.5f, 1024.0f, -16.0f, NAN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p.tile_px = bad[i];
        tn_status st = tn_phys_validate(&p, &e);
        assert_true(tn_failed(st) && tn_status_detail(st, TN_INVALID_PARAM));
        assert_non_null(
            strstr(e.msg, isnan(bad[i]) ? "tile_px is not a number" : "pixels per tile"));
    }
    p.tile_px = 3;
    tn_phys_validate(&p, &e);
    assert_string_equal(e.msg, "phys: tile_px 3 is outside 4..256 pixels per tile");
    p.tile_px = 4;
    assert_true(tn_succeeded(tn_phys_validate(&p, &e)));
    p.tile_px = 256;
    assert_true(tn_succeeded(tn_phys_validate(&p, &e)));
    /* unbounded values: a step would never end its sub-moves (a graph build
     * hung on an infinite gravity before) */
    const struct {
        int field;
        float v;
        const char *msg;
    } huge[] = {{0, INFINITY, "gravity inf px/s^2 is above 10000 tiles/s^2"},
                {0, 1e30f, "gravity 1e+30"},
                {0, 160001.0f, "above 10000 tiles/s^2 (160000 px/s^2)"},
                {1, INFINITY, "max_fall inf"},
                {2, 1e12f, "walk_speed 1e+12"},
                {3, INFINITY, "jump_cut_speed inf"},
                {2, 0.5f, "walk_speed 0.5 px/s moves less than 1/64 px a step"}};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        p = tn_phys_default(4);
        float *f[] = {&p.gravity, &p.max_fall, &p.walk_speed, &p.jump_cut_speed};
        *f[huge[i].field] = huge[i].v;
        tn_status st = tn_phys_validate(&p, &e);
        assert_true(tn_failed(st) && tn_status_detail(st, TN_INVALID_PARAM));
        if (!strstr(e.msg, huge[i].msg)) fail_msg("%zu: '%s' lacks '%s'", i, e.msg, huge[i].msg);
    }
    p = tn_phys_default(4);
    p.gravity = 160000.0f; /* the bound itself, and a fall of 1000 tiles/s */
    p.max_fall = 16000.0f;
    assert_true(tn_succeeded(tn_phys_validate(&p, &e)));
}

/* A body at a NaN, infinite or huge position (its motion blew up, or a
 * caller's bug) is outside the map: blocked, and a step returns.  The tile
 * spans were (int) casts of such floats (undefined: INT_MIN on x86), and a
 * step then walked about 2^32 tiles (measured: still running after 20 s). */
static void test_far_positions_are_outside(void **state)
{
    (void)state;
    static const char *const rows[] = {"........", "........", "........", "########"};
    tn_map *m = mk(rows, 4);
    tn_phys_params p = tn_phys_default(4.0f);
    const float far[6] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 1e12f};
    for (int i = 0; i < 6; i++) {
        assert_true(tn_body_box_blocked(m, &p, far[i], 16, 1, 2));
        assert_true(tn_body_box_blocked(m, &p, 16, far[i], 1, 2));
        tn_body b;
        tn_body_place(&b, &p, 1, 2, 2, 2);
        b.x = far[i];
        tn_body_step(&b, m, &p, (tn_input){.right = true});
        int tx, ty;
        tn_body_tile(&b, &p, &tx, &ty);
        assert_true(tx <= -(1 << 29) || tx >= 1 << 29);
        tn_body_place(&b, &p, 1, 2, 2, 2);
        b.y = far[i];
        tn_body_step(&b, m, &p, (tn_input){.jump = true});
        /* such a step changes nothing: it said a jump had started (jumped,
         * vy) and took the keys' speed, standing on the outside */
        tn_body_place(&b, &p, 1, 2, 2, 2);
        tn_body_settle(&b, m, &p);
        b.x = far[i];
        tn_body before = b;
        tn_body_step(&b, m, &p, (tn_input){.right = true, .jump = true});
        assert_false(b.jumped);
        assert_true(b.vx == 0.0f && b.vy == 0.0f && !b.jump_held);
        assert_true(b.on_ground == before.on_ground && b.air_frames == before.air_frames);
    }
    /* near the map nothing changes: a box in the open is free */
    assert_false(tn_body_box_blocked(m, &p, 16, 8, 1, 2));
    tn_map_destroy(m);
}

/* A NULL parameter block is refused with a message (it was dereferenced). */
static void test_validate_null(void **state)
{
    (void)state;
    tn_error e;
    assert_int_equal(tn_phys_validate(NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(e.msg, "NULL"));
    assert_int_equal(tn_phys_validate(NULL, NULL), TN_FAILURE | TN_INVALID_PARAM);
}

/* A gravity so small that a full jump rises for more than the steps the
 * planners simulate was accepted (1 px/s^2: 681 steps; 1e-30), and the jump
 * model then came out lower than its formula or failed.  Now refused with
 * a message naming the limit; a rise just inside it is accepted. */
static void test_validate_rise_steps(void **state)
{
    (void)state;
    tn_error e;
    const float tiny[3] = {1.0f, 1e-30f, 1e-3f};
    for (int i = 0; i < 3; i++) {
        tn_phys_params p = tn_phys_default(4.0f);
        p.gravity = tiny[i];
        assert_int_equal(tn_phys_validate(&p, &e), TN_FAILURE | TN_INVALID_PARAM);
        assert_non_null(strstr(e.msg, "600"));
        assert_non_null(strstr(e.msg, "rises"));
    }
    /* rise = sqrt(2 (H T + margin) / g) / dt: 590 steps at jump 8 and 1 */
    for (int h = 1; h <= 8; h += 7) {
        tn_phys_params p = tn_phys_default((float)h);
        const double rise = 590.0 * (double)p.dt;
        p.gravity = (float)(2.0 * (h * 16.0 + 0.5) / (rise * rise));
        assert_int_equal(tn_phys_validate(&p, &e), TN_OK);
        p.gravity *= 0.9f; /* about 622 steps */
        assert_int_equal(tn_phys_validate(&p, &e), TN_FAILURE | TN_INVALID_PARAM);
    }
    /* the default physics at 1000 steps a second still pass (about 30 per
     * jump at 60 Hz: 500 at 1 kHz) */
    tn_phys_params p = tn_phys_default(8.0f);
    p.dt = 0.001f;
    assert_int_equal(tn_phys_validate(&p, &e), TN_OK);
}

/* Each refusal names its field and value: NaN max_fall / walk_speed said
 * "gravity, max_fall and walk_speed must be positive", a negative
 * jump_cut_speed "jump_cut_speed must be >= 0 and coyote_frames 0..60". */
static void test_validate_names_field(void **state)
{
    (void)state;
    tn_error e;
    const struct {
        int field;
        float v;
        const char *msg;
    } bad[] = {{0, NAN, "phys: gravity is not a number (NaN)"},
               {1, NAN, "phys: max_fall is not a number (NaN)"},
               {2, -NAN, "phys: walk_speed is not a number (NaN)"},
               {1, -3.0f, "max_fall -3 px/s must be positive"},
               {3, -1.0f, "jump_cut_speed -1 px/s must be >= 0"},
               {3, -NAN, "phys: jump_cut_speed is not a number (NaN)"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tn_phys_params p = tn_phys_default(4);
        float *f[] = {&p.gravity, &p.max_fall, &p.walk_speed, &p.jump_cut_speed};
        *f[bad[i].field] = bad[i].v;
        assert_int_equal(tn_phys_validate(&p, &e), TN_FAILURE | TN_INVALID_PARAM);
        if (!strstr(e.msg, bad[i].msg)) fail_msg("%zu: '%s' lacks '%s'", i, e.msg, bad[i].msg);
    }
    tn_phys_params p = tn_phys_default(4);
    /* a NaN is named as one, never printed "nan" or "-nan" (0.0f / 0.0f is
     * -nan on x86) */
    p.dt = -NAN;
    assert_int_equal(tn_phys_validate(&p, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "phys: dt is not a number (NaN)");
    p = tn_phys_default(4);
    p.jump_height = -NAN;
    assert_int_equal(tn_phys_validate(&p, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "phys: jump_height is not a number (NaN)");
    p = tn_phys_default(4);
    p.tile_px = NAN;
    assert_int_equal(tn_phys_validate(&p, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "phys: tile_px is not a number (NaN)");
    p = tn_phys_default(4);
    p.coyote_frames = 61;
    assert_int_equal(tn_phys_validate(&p, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(e.msg, "coyote_frames 61 is outside 0..60"));
    assert_null(strstr(e.msg, "jump_cut_speed"));
}

/* NULL where tn_body_settle and tn_phys_validate take it: tn_body_step,
 * _place, _tile, _box_blocked and tn_phys_jump_speed were dereferenced. */
static void test_null_arguments(void **state)
{
    (void)state;
    tn_map *m = open_floor(8, 6);
    tn_phys_params p = tn_phys_default(4);
    assert_true(tn_phys_jump_speed(NULL) == 0.0f);
    assert_true(tn_phys_jump_speed(&p) > 0.0f);
    tn_body_place(NULL, &p, 1, 2, 3, 4);
    tn_body_step(NULL, m, &p, (tn_input){.right = true, .jump = true});
    tn_body b;
    tn_body_place(&b, &p, 1, 2, 3, 4);
    const tn_body placed = b;
    tn_body_place(&b, NULL, 2, 3, 1, 1); /* no params: b unchanged */
    assert_memory_equal(&b, &placed, sizeof b);
    tn_body_step(&b, NULL, &p, (tn_input){.right = true});
    tn_body_step(&b, m, NULL, (tn_input){.right = true});
    assert_memory_equal(&b, &placed, sizeof b);
    int tx = 5, ty = 5;
    tn_body_tile(NULL, &p, &tx, &ty);
    assert_int_equal(tx, -1);
    assert_int_equal(ty, -1);
    tx = ty = 5;
    tn_body_tile(&b, NULL, &tx, &ty);
    assert_int_equal(tx, -1);
    assert_int_equal(ty, -1);
    tn_body_tile(&b, &p, NULL, &ty);
    assert_int_equal(ty, 4);
    tn_body_tile(&b, &p, &tx, NULL);
    assert_int_equal(tx, 3);
    assert_true(tn_body_box_blocked(NULL, &p, 3 * T, 3 * T, 1, 2));
    assert_true(tn_body_box_blocked(m, NULL, 3 * T, 3 * T, 1, 2));
    assert_false(tn_body_box_blocked(m, &p, 3 * T, 3 * T, 1, 2));
    /* the body still steps as before */
    run(&b, m, &p, NONE, 60);
    assert_true(b.on_ground);
    tn_map_destroy(m);
}

/* A size outside the documented 1..3 x 1..9 was placed as asked: 10x20
 * on a 10-row map stood with its head 11 rows above the map (reviewer:
 * y = -176 px, on_ground), 0 wide it had no columns to collide with.
 * tn_body_place clamps the size now, the feet where they were asked. */
static void test_place_clamps_size(void **state)
{
    (void)state;
    tn_map *m = open_floor(20, 10);
    tn_phys_params p = tn_phys_default(4);
    const int asks[][4] = {{10, 20, 3, 9}, {0, 0, 1, 1},  {-5, 2, 1, 2}, {2, -1, 2, 1},
                           {4, 9, 3, 9},   {3, 10, 3, 9}, {2, 3, 2, 3},  {INT_MIN, INT_MAX, 1, 9}};
    for (size_t k = 0; k < sizeof asks / sizeof asks[0]; k++) {
        tn_body b;
        tn_body_place(&b, &p, asks[k][0], asks[k][1], 5, 8);
        assert_int_equal(b.w, asks[k][2]);
        assert_int_equal(b.h, asks[k][3]);
        assert_true(b.x == 5 * T);
        assert_true(b.y + (float)b.h * T == 9 * T); /* feet on row 8's bottom */
        run(&b, m, &p, NONE, 5);
        assert_true(b.on_ground);
        assert_true(b.y >= 0.0f); /* inside the map */
        int tx, ty;
        tn_body_tile(&b, &p, &tx, &ty);
        assert_int_equal(tx, 5);
        assert_int_equal(ty, 8);
    }
    tn_map_destroy(m);
}

/* tn_body_step with tile_px 0 or negative looped for ever (each sub-move
 * is at most T/2 = 0 px, so the move never got used up); tiny or NaN
 * ones are no better.  A tile size outside 4..256 now makes the step (and
 * tn_body_settle) return at once, the body untouched.  alarm(): a
 * regression fails (SIGALRM) instead of hanging the suite. */
static void test_step_bad_tile_px_returns(void **state)
{
    (void)state;
    tn_map *m = open_floor(8, 6);
    const float bad[] = {0.0f, -0.0f, -16.0f, 1e-30f, 3.99f, 256.5f, NAN, INFINITY, -INFINITY};
    alarm(20);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        tn_phys_params good = tn_phys_default(4);
        tn_body b;
        tn_body_place(&b, &good, 1, 2, 3, 2); /* in the air, so a step would move it */
        b.vx = 5, b.vy = 7;
        const tn_body before = b;
        tn_phys_params p = good;
        p.tile_px = bad[k];
        for (int i = 0; i < 3; i++)
            tn_body_step(&b, m, &p, (tn_input){.right = true, .jump = true, .down = true});
        tn_body_settle(&b, m, &p);
        assert_memory_equal(&b, &before, sizeof b);
        /* the same body with the right tile size falls and lands */
        run(&b, m, &good, NONE, 120);
        assert_true(b.on_ground);
    }
    alarm(0);
    /* the bounds themselves still step */
    const float edge[2] = {4.0f, 256.0f};
    for (int k = 0; k < 2; k++) {
        const tn_phys_params def = tn_phys_default(4);
        const tn_phys_params p = tn_phys_scaled(&def, edge[k] / 16.0f);
        tn_body b;
        tn_body_place(&b, &p, 1, 2, 3, 2);
        run(&b, m, &p, NONE, 120);
        assert_true(b.on_ground);
        assert_true(b.y + 2 * edge[k] == 5 * edge[k]);
    }
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fall_lands_flush),
        cmocka_unit_test(test_jump_apex_matches_height),
        cmocka_unit_test(test_jump_cut),
        cmocka_unit_test(test_late_jump),
        cmocka_unit_test(test_oneway),
        cmocka_unit_test(test_settle_after_place),
        cmocka_unit_test(test_walls),
        cmocka_unit_test(test_no_tunnelling),
        cmocka_unit_test(test_pushed_into_block),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_walk_stays_on_lattice),
        cmocka_unit_test(test_walk_lattice_bounds),
        cmocka_unit_test(test_scale_invariance_script),
        cmocka_unit_test(test_scale_invariance_random),
        cmocka_unit_test(test_phys_diff_text),
        cmocka_unit_test(test_other_tile_sizes),
        cmocka_unit_test(test_standing_is_at_rest),
        cmocka_unit_test(test_far_positions_are_outside),
        cmocka_unit_test(test_validate_null),
        cmocka_unit_test(test_validate_rise_steps),
        cmocka_unit_test(test_validate_names_field),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_place_clamps_size),
        cmocka_unit_test(test_step_bad_tile_px_returns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
