/* tn_companion: following a walking character, never overlapping it or a
 * block, keeping clear of enemies, regaining sight after the character goes
 * behind a wall (hand-made maps), fetching reachable items only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents_testnav.h"
#include "testutil.h"
#include "tn_companion.h"
#include "tn_phys.h"
#include "tn_rng.h"

#define DT (1.0f / 60.0f)
#define T ((float)TN_TILE_PX)

static tn_map *load(const char *path) { return tu_load_map(path); }

/* Both navigation back ends: the reference tile queries, then the navmesh. */
typedef struct navs {
    tn_agent_nav nav[2];
    tnav_mesh *mesh;
    int n;
    const char *name[2];
} navs;

static navs navs_for(const tn_map *m)
{
    navs v;
    v.nav[0] = tnav_make(m);
    v.name[0] = "tile reference";
    v.n = 1;
    v.mesh = tnav_mesh_create(m);
    if (v.mesh) {
        v.nav[1] = tnav_mesh_nav(v.mesh);
        v.name[1] = "navmesh";
        v.n = 2;
    } else {
        print_message("(navmesh not available: tile reference queries only)\n");
    }
    return v;
}

/* ---- following a walking character (real physics) ---------------------------- */

typedef struct follow_stats {
    long steps, within, overlaps, blocked;
    float worst_gap;
} follow_stats;

static float box_gap(float cx, float cy, float half, const tn_body *b)
{
    float bx = b->x + 0.5f * (float)b->w * T, by = b->y + 0.5f * (float)b->h * T;
    float ox = fabsf(cx - bx) - 0.5f * (float)b->w * T - half;
    float oy = fabsf(cy - by) - 0.5f * (float)b->h * T - half;
    return ox > oy ? ox : oy; /* < 0: overlapping */
}

static follow_stats walk_and_follow(const tn_map *m, const tn_agent_nav *nav, uint64_t seed,
                                    int steps, const tn_grid *enemies)
{
    tn_phys_params phys = tn_phys_default(4);
    tn_body body;
    tn_body_place(&body, &phys, 1, 2, 5, m->h - 1);
    tn_companion_params p = tn_companion_default_params();
    tn_companion c;
    tn_companion_init(&c, body.x - 20, body.y, 0);
    tn_rng r;
    tn_rng_seed(&r, seed, 1);
    tn_input in = {0};
    int left = 0, dir = 1;
    follow_stats st = {0};
    st.worst_gap = 1e9f;
    for (int k = 0; k < steps; k++) {
        if (left-- <= 0) {
            /* A new stretch: walk or stand, now and then a jump. */
            left = 30 + (int)tn_rng_below(&r, 120);
            int what = (int)tn_rng_below(&r, 5);
            if (body.x < 6 * T) dir = 1;
            if (body.x > (float)(m->w - 7) * T) dir = -1;
            in.left = what >= 1 && dir < 0;
            in.right = what >= 1 && dir > 0;
            if (tn_rng_below(&r, 4) == 0) dir = -dir;
        }
        in.jump = tn_rng_below(&r, 90) == 0 ? true : (in.jump && tn_rng_below(&r, 20) != 0);
        float px = body.x, py = body.y;
        tn_body_step(&body, m, &phys, in);
        tn_companion_env e = {0};
        e.map = m;
        e.nav = nav;
        e.char_x = body.x + 0.5f * T;
        e.char_y = body.y + T;
        e.char_vx = (body.x - px) / DT;
        e.char_vy = (body.y - py) / DT;
        e.char_hw = 0.5f * T;
        e.char_hh = T;
        e.neighbours = enemies;
        e.self_id = -1;
        e.dt = DT;
        tn_companion_step(&c, &p, &e);
        st.steps++;
        float ax, ay;
        tn_companion_anchor(&p, &e, &ax, &ay);
        if (tn_len(c.x - ax, c.y - ay) <= p.follow_outer) st.within++;
        float gap = box_gap(c.x, c.y, p.half, &body);
        if (gap < st.worst_gap) st.worst_gap = gap;
        if (gap < -1e-3f) st.overlaps++;
        if (!tn_steer_box_free(m, c.x, c.y, p.half)) st.blocked++;
    }
    return st;
}

static tn_map *open_floor_map(void)
{
    /* 80 x 20, nothing but the floor (the map's outside) and the walls. */
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(80, 20, NULL, &m, NULL)));
    return m;
}

static void test_follows_walking_character(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    navs v = navs_for(m);
    for (int i = 0; i < v.n; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            follow_stats st = walk_and_follow(m, &v.nav[i], seed, 6000, NULL);
            print_message("%s, seed %d: within the follow radius %.1f%% of %ld steps, "
                          "closest box gap %.2f px\n",
                          v.name[i], (int)seed, 100.0 * st.within / st.steps, st.steps,
                          (double)st.worst_gap);
            assert_true(st.within >= 0.95 * st.steps);
            assert_int_equal(st.overlaps, 0);
            assert_int_equal(st.blocked, 0);
        }
    /* With enemies hovering all along the way (one every 3 tiles at head
     * height): pushed around, still close. */
    tn_error e;
    tn_grid *g = NULL;
    assert_true(tn_succeeded(tn_grid_create(0, 0, 80 * T, 20 * T, 40, 64, NULL, &g, &e)));
    float en[2 * 26];
    for (int i = 0; i < 26; i++) {
        en[2 * i] = (3.0f * (float)i + 1.5f) * T;
        en[2 * i + 1] = (i % 2 ? 16.5f : 14.5f) * T;
    }
    tn_grid_build(g, en, 26, NULL);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        follow_stats st = walk_and_follow(m, &v.nav[0], seed, 6000, g);
        print_message("among enemies, seed %d: within the follow radius %.1f%%\n", (int)seed,
                      100.0 * st.within / st.steps);
        assert_true(st.within >= 0.95 * st.steps);
        assert_int_equal(st.overlaps, 0);
        assert_int_equal(st.blocked, 0);
    }
    tn_grid_destroy(g);
    tnav_mesh_destroy(v.mesh);
    tn_map_destroy(m);
}

static void test_keeps_clear_of_enemies(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    tn_agent_nav nav = tnav_make(m);
    tn_error e;
    /* A standing character with enemies hovering right where the companion
     * would like to be. */
    tn_grid *g = NULL;
    assert_true(tn_succeeded(tn_grid_create(0, 0, 80 * T, 20 * T, 40, 16, NULL, &g, &e)));
    float cx = 40 * T, cy = 18 * T;
    float en[8] = {cx - 28, cy - 10, cx + 28, cy - 10, cx, cy - 36, cx - 20, cy - 30};
    tn_grid_build(g, en, 4, NULL);
    float mind[2];
    for (int pass = 0; pass < 2; pass++) {
        tn_companion_params p = tn_companion_default_params();
        if (pass == 1) p.w_separation = 0;
        tn_companion c;
        tn_companion_init(&c, cx - 60, cy - 40, 0);
        mind[pass] = 1e9f;
        for (int k = 0; k < 600; k++) {
            tn_companion_env env = {m, &nav, cx, cy, 0, 0, 0.5f * T, T, g, -1, NULL, 0, DT};
            tn_companion_step(&c, &p, &env);
            if (k < 300) continue; /* settled */
            float ax, ay;
            tn_companion_anchor(&p, &env, &ax, &ay);
            for (int i = 0; i < 4; i++) {
                float d = tn_len(c.x - en[2 * i], c.y - en[2 * i + 1]);
                if (d < mind[pass]) mind[pass] = d;
            }
            assert_true(tn_len(c.x - ax, c.y - ay) <= p.follow_outer);
        }
    }
    print_message("closest enemy: %.1f px with separation, %.1f px without\n", (double)mind[0],
                  (double)mind[1]);
    assert_true(mind[0] > mind[1] + 4);
    tn_grid_destroy(g);
    tn_map_destroy(m);
}

/* ---- losing and regaining sight on hand-made maps ------------------------------ */

typedef struct route_stats {
    int longest_blind; /* steps */
    int blind_episodes;
    bool sees_at_end;
    tn_companion_state end_state;
    float end_dist;
    long searched; /* steps in SEARCH */
} route_stats;

/* The character's centre walks the route (tile coordinates of its centre)
 * at walk speed, then stands for `hold` steps. */
static route_stats run_route(const tn_map *m, const tn_agent_nav *nav, const float *route, int npts,
                             int hold, float comp_tx, float comp_ty)
{
    tn_companion_params p = tn_companion_default_params();
    tn_companion c;
    tn_companion_init(&c, comp_tx * T, comp_ty * T, 0);
    float x = route[0] * T, y = route[1] * T;
    int seg = 1, blind = 0;
    route_stats st = {0};
    const float speed = 160.0f;
    for (int k = 0;; k++) {
        float px = x, py = y;
        if (seg < npts) {
            float left = speed * DT;
            while (left > 0 && seg < npts) {
                float tx = route[2 * seg] * T, ty = route[2 * seg + 1] * T;
                float d = tn_len(tx - x, ty - y);
                if (d <= left) {
                    x = tx;
                    y = ty;
                    left -= d;
                    seg++;
                } else {
                    x += (tx - x) / d * left;
                    y += (ty - y) / d * left;
                    left = 0;
                }
            }
        } else if (hold-- <= 0) {
            break;
        }
        /* The route keeps the character's 1x2 box in free space. */
        assert_true(tn_steer_box_free(m, x, y, 0) && tn_steer_box_free(m, x, y - T + 0.5f, 0));
        tn_companion_env e = {m,  nav,  x, y, (x - px) / DT, (y - py) / DT, 0.5f * T, T, NULL,
                              -1, NULL, 0, DT};
        tn_companion_step(&c, &p, &e);
        assert_true(tn_steer_box_free(m, c.x, c.y, p.half));
        if (!c.sees) {
            blind++;
            if (blind == 1) st.blind_episodes++;
            if (blind > st.longest_blind) st.longest_blind = blind;
        } else {
            blind = 0;
        }
        st.searched += c.state == TN_COMPANION_SEARCH;
        st.sees_at_end = c.sees;
        st.end_state = c.state;
        float ax, ay;
        tn_companion_anchor(&p, &e, &ax, &ay);
        st.end_dist = tn_len(c.x - ax, c.y - ay);
    }
    return st;
}

static void check_route(const char *map, const float *route, int npts, float ctx, float cty,
                        int bound, bool must_lose_sight)
{
    tn_map *m = load(map);
    navs v = navs_for(m);
    for (int i = 0; i < v.n; i++) {
        route_stats st = run_route(m, &v.nav[i], route, npts, 400, ctx, cty);
        print_message("%s (%s): %d blind episodes, longest %d steps, %ld steps searching, "
                      "ends %s at %.1f px\n",
                      map, v.name[i], st.blind_episodes, st.longest_blind, st.searched,
                      tn_companion_state_name(st.end_state), (double)st.end_dist);
        if (must_lose_sight) assert_true(st.blind_episodes >= 1);
        assert_true(st.longest_blind <= bound);
        assert_true(st.sees_at_end);
        assert_int_equal(st.end_state, TN_COMPANION_FOLLOW);
        assert_true(st.end_dist <= tn_companion_default_params().follow_outer);
    }
    tnav_mesh_destroy(v.mesh);
    tn_map_destroy(m);
}

/* Every character size of the world (1..3 x 1..9 tiles): the anchor of a
 * big one lies inside its box, and following pulled the companion into its
 * clearance (by a 3-tile-wide one it rested 5.6 px from the box, a 2-wide
 * one 7.9 px, not char_clearance's 10; under a character it rested 2 px
 * below it).  Now it settles char_clearance from the box: beside a standing
 * character, and round from under a floating one. */
static void test_keeps_clearance_of_any_character_size(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    tn_agent_nav nav = tnav_make(m);
    const tn_companion_params p = tn_companion_default_params();
    for (int under = 0; under < 2; under++)
        for (int w = 1; w <= 3; w++)
            for (int h = 1; h <= 9; h++) {
                const float hw = 0.5f * (float)w * T, hh = 0.5f * (float)h * T;
                /* standing on the floor, or floating over the middle */
                const float cx = 40 * T, cy = under ? 8 * T : 20 * T - hh;
                tn_companion c;
                if (under)
                    tn_companion_init(&c, cx, cy + hh + p.half + 4.0f, 0); /* straight under */
                else
                    tn_companion_init(&c, cx - hw - 40.0f, cy - 20.0f, 0);
                float lo = INFINITY, hi = -INFINITY, to_anchor = 0;
                for (int k = 0; k < 600; k++) {
                    tn_companion_env e = {m, &nav, cx, cy, 0, 0, hw, hh, NULL, -1, NULL, 0, DT};
                    tn_companion_step(&c, &p, &e);
                    if (k < 300) continue; /* settled */
                    float ax, ay;
                    tn_companion_anchor(&p, &e, &ax, &ay);
                    to_anchor = tn_maxf(to_anchor, tn_len(c.x - ax, c.y - ay));
                    float ox = fabsf(c.x - cx) - hw - p.half, oy = fabsf(c.y - cy) - hh - p.half;
                    float gap = ox > 0 && oy > 0 ? tn_len(ox, oy) : tn_maxf(ox, oy);
                    lo = tn_minf(lo, gap);
                    hi = tn_maxf(hi, gap);
                }
                /* at char_clearance, or farther where following is content
                 * (within follow_inner of the anchor: a small character) */
                if (!(lo >= p.char_clearance - 0.05f &&
                      (hi <= p.char_clearance + 1.0f || to_anchor <= p.follow_inner + 0.5f)))
                    fail_msg("%dx%d character%s: box gap %.2f..%.2f px after settling, "
                             "%.1f px from its anchor; want char_clearance %.0f",
                             w, h, under ? ", from under it" : "", (double)lo, (double)hi,
                             (double)to_anchor, (double)p.char_clearance);
            }
    tn_map_destroy(m);
}

static void test_regains_sight_behind_door_wall(void **state)
{
    (void)state;
    /* Through the door under the wall, then up behind it. */
    const float route[] = {2.5f, 11, 17, 11, 23, 11, 26, 8, 26, 3, 22, 3};
    check_route("tests/data/agents_door.map", route, 6, 2, 3, 240, false);
    /* The companion starts far off in the other half, the character stands
     * behind the wall: it must come round through the door. */
    const float hide[] = {26, 5, 26, 5.01f};
    check_route("tests/data/agents_door.map", hide, 2, 3, 2, 300, true);
}

static void test_paths_over_a_narrow_gap(void **state)
{
    (void)state;
    /* The way round is over the wall through a one-tile gap: navmesh paths
     * turn right at the wall's top corners (corner correction needed). */
    const float hide[] = {26, 5, 26, 5.01f};
    check_route("tests/data/agents_gap.map", hide, 2, 3, 2, 300, true);
}

static void test_regains_sight_round_ubend(void **state)
{
    (void)state;
    /* Along the bottom, up through the opening, back along the top. */
    const float route[] = {2.5f, 10, 36, 10, 36, 3, 4, 3};
    check_route("tests/data/agents_ubend.map", route, 4, 2, 8, 240, false);
    /* Starts on top while the character is deep in the bottom corridor. */
    const float hide[] = {4, 10, 4, 10.01f};
    check_route("tests/data/agents_ubend.map", hide, 2, 4, 2, 400, true);
}

/* ---- items -------------------------------------------------------------------------- */

static int collect_items(const tn_map *m, float *xy)
{
    int n = 0;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++)
            if (tn_map_mark(m, x, y) == TN_MARK_ITEM) {
                xy[2 * n] = ((float)x + 0.5f) * T;
                xy[2 * n + 1] = ((float)y + 0.5f) * T;
                n++;
            }
    return n;
}

static void test_fetches_reachable_items(void **state)
{
    (void)state;
    tn_map *m = load("tests/data/agents_items.map");
    navs v = navs_for(m);
    for (int i = 0; i < v.n; i++) {
        float items[64];
        int n = collect_items(m, items);
        assert_int_equal(n, 4);
        tn_companion_params p = tn_companion_default_params();
        tn_companion c;
        float cx = 1.5f * T, cy = 12 * T;
        tn_companion_init(&c, cx + 20, cy - 20, 0);
        int picked_at[4] = {0};
        for (int k = 0; k < 4000; k++) {
            if (k == 2000) { /* the character walks over to the far item */
                cx = 26.5f * T;
                cy = 12 * T;
            }
            tn_companion_env e = {m, &v.nav[i], cx, cy, 0, 0, 0.5f * T, T, NULL, -1, items, n, DT};
            int got = tn_companion_step(&c, &p, &e);
            assert_true(tn_steer_box_free(m, c.x, c.y, p.half));
            if (got >= 0) {
                assert_true(got < n);
                /* Picked up within reach of the item. */
                assert_true(tn_len(c.x - items[2 * got], c.y - items[2 * got + 1]) <=
                            p.pickup_radius);
                picked_at[c.items - 1] = k;
                items[2 * got] = items[2 * n - 2];
                items[2 * got + 1] = items[2 * n - 1];
                n--;
            }
        }
        print_message("%s: picked %d items (steps %d %d %d), %d left\n", v.name[i], c.items,
                      picked_at[0], picked_at[1], picked_at[2], n);
        /* Two near the start, then the far one; the sealed one never. */
        assert_int_equal(c.items, 3);
        assert_true(picked_at[1] < 2000 && picked_at[2] > 2000);
        assert_int_equal(n, 1);
        assert_true(items[0] == 11.5f * T && items[1] == 9.5f * T);
    }
    tnav_mesh_destroy(v.mesh);
    tn_map_destroy(m);
}

/* Steps companion c beside a character standing at (cx, cy) (half sizes hw,
 * hh) with one item, until the item is picked or `steps` pass: returns what
 * tn_companion_step picked (-1: nothing), the steps run in *ran and those
 * spent in FETCH in *fetching.  With `outside`, asserts at every step that
 * the companion's box stays out of the character's. */
static int fetch_one(const tn_map *m, const tn_agent_nav *nav, const tn_companion_params *p,
                     tn_companion *c, float cx, float cy, float hw, float hh, float *items,
                     int steps, bool outside, int *ran, int *fetching)
{
    int picked = -1, k;
    *fetching = 0;
    for (k = 0; k < steps && picked < 0; k++) {
        tn_companion_env e = {m, nav, cx, cy, 0, 0, hw, hh, NULL, -1, items, 1, DT};
        picked = tn_companion_step(c, p, &e);
        *fetching += c->state == TN_COMPANION_FETCH;
        if (outside)
            assert_true(fabsf(c->x - cx) - hw - p->half >= -0.01f ||
                        fabsf(c->y - cy) - hh - p->half >= -0.01f);
    }
    *ran = k;
    return picked;
}

/* A character too big for the follow radii: a 3x9-tile one with follow
 * radii of 8 and 16 px (the world's follow_distance 1) has every spot
 * char_clearance off its box more than follow_outer from its anchor.  The
 * companion resting there counted as never idle and never fetched; resting
 * as close as the clearance lets it counts as at its place. */
static void test_fetches_beside_big_character(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    tn_agent_nav nav = tnav_make(m);
    tn_companion_params p = tn_companion_default_params();
    p.follow_inner = 8.0f;
    p.follow_outer = 16.0f;
    const float hw = 1.5f * T, hh = 4.5f * T, cx = 40 * T, cy = 20 * T - hh;
    float items[2] = {cx - 6 * T, 19.5f * T}; /* on the floor, 6 tiles to its left */
    tn_companion c;
    tn_companion_init(&c, cx - hw - 20.0f, cy - 20.0f, 0);
    int ran, fetching;
    int picked = fetch_one(m, &nav, &p, &c, cx, cy, hw, hh, items, 1200, true, &ran, &fetching);
    print_message("3x9 character, follow radii 8..16 px: picked %d after %d steps\n", picked, ran);
    assert_int_equal(picked, 0);
    tn_map_destroy(m);
}

/* An item under the character (the companion's box on it would overlap
 * the character's) cannot be picked up: the companion is pushed out of the
 * character's box.  It used to fetch it anyway and stay in FETCH for good,
 * stalling and planning the same path every 30 steps; it now leaves such
 * an item alone and keeps following, and an item beside the character is
 * still fetched. */
static void test_leaves_item_under_character(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    navs v = navs_for(m);
    for (int i = 0; i < v.n; i++) {
        tn_companion_params p = tn_companion_default_params();
        const float cx = 40 * T, cy = 12 * T, hw = 0.5f * T, hh = T;
        /* under the character's feet, then 12 px clear of its left side
         * (the companion comes from the left) */
        const float spots[2][2] = {{cx + 5, cy + 8}, {cx - hw - p.half - 12, cy + 8}};
        for (int s = 0; s < 2; s++) {
            float items[2] = {spots[s][0], spots[s][1]};
            tn_companion c;
            tn_companion_init(&c, cx - 60, cy - 40, 0);
            int ran, fetching;
            int picked = fetch_one(m, &v.nav[i], &p, &c, cx, cy, hw, hh, items, 1200, false, &ran,
                                   &fetching);
            print_message("%s: item %d: picked %d, %d steps fetching, %ld paths\n", v.name[i], s,
                          picked, fetching, c.paths_planned);
            if (s == 0) {
                assert_int_equal(picked, -1);
                assert_int_equal(fetching, 0);
                assert_int_equal(c.state, TN_COMPANION_FOLLOW);
            } else {
                assert_int_equal(picked, 0);
            }
        }
    }
    tnav_mesh_destroy(v.mesh);
    tn_map_destroy(m);
}

/* The navmesh paths ignore the character: a path to an item behind a
 * standing character runs through it.  The companion used to stop at the
 * character's side, its path pulling it on and the separation holding it
 * off, and stayed in FETCH for good (planning the same path every 30
 * steps).  It now goes round the character and picks the item up. */
static void test_fetches_item_behind_character(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    navs v = navs_for(m);
    for (int i = 0; i < v.n; i++) {
        tn_companion_params p = tn_companion_default_params();
        const float cx = 40 * T, cy = 12 * T, hw = 0.5f * T, hh = T;
        /* beyond the character's bottom-right corner, seen from the top-left
         * (sweep4's (154,120) for a character at (128,100)); touching its
         * right side (gap 0, inside char_clearance) */
        const float spots[2][2] = {{cx + 26, cy + 20}, {cx + hw + p.half, cy}};
        for (int s = 0; s < 2; s++) {
            float items[2] = {spots[s][0], spots[s][1]};
            tn_companion c;
            tn_companion_init(&c, cx - 88, cy - 60, 0);
            int k, fetching; /* never inside the character's box */
            int picked =
                fetch_one(m, &v.nav[i], &p, &c, cx, cy, hw, hh, items, 1200, true, &k, &fetching);
            print_message("%s: item %d: picked %d after %d steps, %d fetching, %ld paths\n",
                          v.name[i], s, picked, k, fetching, c.paths_planned);
            assert_int_equal(picked, 0);
            assert_true(fetching < 300);
            assert_int_equal(c.state, TN_COMPANION_FOLLOW);
        }
    }
    tnav_mesh_destroy(v.mesh);
    tn_map_destroy(m);
}

/* A corridor 2 tiles high that the standing character fills: the item
 * beyond it cannot be reached (the paths ignore the character, and no
 * corner round it is free).  The companion gives the fetch up after a few
 * re-plans and does not fetch that item again while the character stands
 * there; it used to stay in FETCH for good. */
static void test_gives_up_item_past_blocking_character(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    for (int x = 0; x < 80; x++) {
        assert_true(tn_succeeded(tn_map_set_tile(m, x, 9, TN_TILE_BLOCK, NULL)));
        assert_true(tn_succeeded(tn_map_set_tile(m, x, 12, TN_TILE_BLOCK, NULL)));
    }
    navs v = navs_for(m);
    for (int i = 0; i < v.n; i++) {
        tn_companion_params p = tn_companion_default_params();
        const float cx = 40 * T, cy = 11 * T, hw = 0.5f * T, hh = T;
        float items[2] = {cx + 60, cy};
        tn_companion c;
        tn_companion_init(&c, cx - 60, cy, 0);
        int ran, fetching;
        int picked =
            fetch_one(m, &v.nav[i], &p, &c, cx, cy, hw, hh, items, 3000, false, &ran, &fetching);
        print_message("%s: picked %d, %d of 3000 steps fetching, %d given up, %ld paths\n",
                      v.name[i], picked, fetching, c.gave_up, c.paths_planned);
        assert_int_equal(picked, -1);
        assert_int_equal(c.gave_up, 1);
        assert_true(fetching < 300);
        assert_int_equal(c.state, TN_COMPANION_FOLLOW);
    }
    tnav_mesh_destroy(v.mesh);
    tn_map_destroy(m);
}

static void test_deterministic_and_params(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    tn_agent_nav nav = tnav_make(m);
    follow_stats a = walk_and_follow(m, &nav, 9, 1500, NULL);
    follow_stats b = walk_and_follow(m, &nav, 9, 1500, NULL);
    /* field by field: the struct's padding is not part of the result */
    assert_true(a.steps == b.steps && a.within == b.within && a.overlaps == b.overlaps &&
                a.blocked == b.blocked && a.worst_gap == b.worst_gap);
    tn_map_destroy(m);
    tn_error e;
    tn_companion_params p = tn_companion_default_params();
    assert_true(tn_succeeded(tn_companion_validate(&p, &e)));
    p.follow_inner = p.follow_outer;
    assert_true(tn_failed(tn_companion_validate(&p, &e)));
    assert_non_null(strstr(e.msg, "follow_inner"));
    p = tn_companion_default_params();
    p.max_speed = -1;
    assert_true(tn_failed(tn_companion_validate(&p, &e)));
    p = tn_companion_default_params();
    p.los_interval = 0;
    assert_true(tn_failed(tn_companion_validate(&p, &e)));
}

/* Every field has a range, named in the message with the field and its
 * value: absurd sizes, speeds, radii, weights, NaN and int-overflowing
 * intervals are refused (they passed: a 1e30 px/s companion raced off, an
 * idle_steps of INT_MAX overflowed 4 * idle_steps); the limits pass. */
static void test_params_ranges(void **state)
{
    (void)state;
    const struct {
        size_t off;
        float v;
        const char *want; /* NULL: accepted */
    } cases[] = {
#define F(field) offsetof(tn_companion_params, field)
        {F(half), -5.0f, "companion: half -5 px is outside (0, 128]"},
        {F(half), 1e6f, "companion: half 1e+06 px is outside (0, 128]"},
        {F(half), TN_COMPANION_HALF_MAX, NULL},
        {F(path_radius), NAN,
         "companion: path_radius is not a number (NaN); the range is [0, 128] px"},
        /* -NaN said "-nan" (0.0f / 0.0f is -nan on x86) */
        {F(half), -NAN, "companion: half is not a number (NaN); the range is (0, 128] px"},
        {F(w_align), -NAN, "companion: w_align is not a number (NaN); the range is [0, 100]"},
        {F(max_speed), 0.0f, "companion: max_speed 0 px/s is outside (0, 16000]"},
        {F(max_speed), 1e30f, "companion: max_speed 1e+30 px/s is outside (0, 16000]"},
        {F(max_speed), TN_COMPANION_SPEED_MAX, NULL},
        {F(max_accel), INFINITY, "companion: max_accel inf px/s^2 is outside (0, 160000]"},
        {F(follow_outer), 1e9f, "companion: follow_outer 1e+09 px is outside (0, 65536]"},
        {F(hover), -1.0f, "companion: hover -1 px is outside [0, 65536]"},
        {F(w_follow), 3e38f, "companion: w_follow 3e+38 is outside [0, 100]"},
        {F(w_separation), TN_COMPANION_WEIGHT_MAX, NULL},
        {F(separation_radius), 1e9f, "companion: separation_radius 1e+09 px is outside (0, 65536]"},
        {F(fetch_range), 1e20f, "companion: fetch_range 1e+20 px is outside [0, 65536]"},
        {F(fetch_range), TN_COMPANION_LENGTH_MAX, NULL},
        {F(pickup_radius), 0.0f, "companion: pickup_radius 0 px is outside (0, 65536]"},
#undef F
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tn_companion_params p = tn_companion_default_params();
        memcpy((char *)&p + cases[k].off, &cases[k].v, sizeof(float));
        tn_error e;
        tn_status st = tn_companion_validate(&p, &e);
        if (!cases[k].want) {
            if (tn_failed(st)) fail_msg("case %zu refused: %s", k, e.msg);
            continue;
        }
        assert_int_equal(st, TN_FAILURE | TN_INVALID_PARAM);
        if (strcmp(e.msg, cases[k].want) != 0) fail_msg("case %zu: %s", k, e.msg);
    }
    tn_error e;
    tn_companion_params p = tn_companion_default_params();
    p.idle_steps = INT_MAX;
    assert_int_equal(tn_companion_validate(&p, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "companion: idle_steps 2147483647 is outside 1..1048576 steps");
    p.idle_steps = TN_COMPANION_STEPS_MAX;
    assert_true(tn_succeeded(tn_companion_validate(&p, &e)));
    p.los_interval = -3;
    assert_string_equal((tn_companion_validate(&p, &e), e.msg),
                        "companion: los_interval -3 is outside 1..1048576 steps");
    p = tn_companion_default_params();
    p.follow_inner = 60.0f;
    assert_true(tn_failed(tn_companion_validate(&p, &e)));
    assert_string_equal(e.msg, "companion: need follow_inner (60) < follow_outer (48)");
    assert_int_equal(tn_companion_validate(NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "companion: no parameters (p is NULL)");
}

/* ---- a path callback that reports more points than it wrote ------------------ */

/* Writes cap points toward the goal, then returns the whole path's length
 * (as tn_funnel counts: more than cap), the mistake an adapter over a path
 * finder that "returns how many the path has" makes. */
static bool never_sees(void *user, float ax, float ay, float bx, float by)
{
    (void)user, (void)ax, (void)ay, (void)bx, (void)by;
    return false;
}
static bool always_sees(void *user, float ax, float ay, float bx, float by)
{
    (void)user, (void)ax, (void)ay, (void)bx, (void)by;
    return true;
}
/* An environment with a 1x2 character centred on (x, y) and `nav`. */
static tn_companion_env char_env(const tn_map *m, const tn_agent_nav *nav, float x, float y)
{
    tn_companion_env e = {0};
    e.map = m;
    e.nav = nav;
    e.char_x = x;
    e.char_y = y;
    e.char_hw = 8.0f;
    e.char_hh = 16.0f;
    e.self_id = -1;
    e.dt = DT;
    return e;
}

static int long_path(void *user, float ax, float ay, float bx, float by, float radius, float *xy,
                     int cap)
{
    (void)user, (void)radius;
    for (int i = 0; i < cap; i++) {
        float t = (float)(i + 1) / (float)cap;
        xy[2 * i] = ax + (bx - ax) * t;
        xy[2 * i + 1] = ay + (by - ay) * t;
    }
    return cap + 68;
}

/* The companion keeps at most TN_COMPANION_PATH_MAX corners of a path,
 * whatever count the callback returns (as the wanderer's guide does): it
 * neither walks past its path array nor copies a fetch path beyond it. */
static void test_path_count_beyond_cap(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(40, 20, NULL, &m, NULL)));
    tn_companion_params p = tn_companion_default_params();
    p.idle_steps = 1;
    /* padding after the companion: the old code wrote up to 2 x 100 floats
     * into its 64-float path array */
    struct {
        tn_companion c;
        float pad[512];
    } box;
    memset(&box, 0, sizeof box);
    /* hidden character: a search path */
    tn_agent_nav hidden = {NULL, never_sees, long_path};
    tn_companion_env e = char_env(m, &hidden, 300.0f, 160.0f);
    tn_companion_init(&box.c, 100.0f, 100.0f, 0);
    tn_companion_step(&box.c, &p, &e);
    assert_int_equal(box.c.state, TN_COMPANION_SEARCH);
    assert_true(box.c.path_n >= 1 && box.c.path_n <= TN_COMPANION_PATH_MAX);
    for (int k = 0; k < 200; k++) {
        tn_companion_step(&box.c, &p, &e);
        assert_true(box.c.path_n <= TN_COMPANION_PATH_MAX && box.c.path_i <= box.c.path_n);
    }
    /* character in sight, idle, an item: a fetch path */
    tn_agent_nav seen = {NULL, always_sees, long_path};
    e.nav = &seen;
    const float item[2] = {400.0f, 160.0f};
    e.items = item;
    e.nitems = 1;
    memset(&box, 0, sizeof box);
    tn_companion_init(&box.c, 300.0f, 140.0f, 0); /* at its anchor */
    int k = 0;
    for (; k < 10 && box.c.state != TN_COMPANION_FETCH; k++) tn_companion_step(&box.c, &p, &e);
    assert_int_equal(box.c.state, TN_COMPANION_FETCH);
    assert_true(box.c.path_n >= 1 && box.c.path_n <= TN_COMPANION_PATH_MAX);
    for (int i = 0; i < 512; i++) assert_true(box.pad[i] == 0.0f);
    tn_map_destroy(m);
}

/* ---- a character out of reach ------------------------------------------------ */

/* The place closest to any goal: (200, 100), as a path query's partial
 * answer (tn_agent_nav: its count negated); items are out of reach too. */
static int closest_only(void *user, float ax, float ay, float bx, float by, float radius, float *xy,
                        int cap)
{
    int *calls = user;
    (void)ax, (void)ay, (void)bx, (void)by, (void)radius, (void)cap;
    ++*calls;
    xy[0] = 200.0f;
    xy[1] = 100.0f;
    return -1;
}

/* A character the companion cannot reach (walled in): it flies to the
 * closest place the path query gives and waits there, asking again every
 * retry_steps (it hovered where it lost sight); a partial path to an item
 * is no fetch. */
static void test_goes_as_close_as_it_can(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(40, 20, NULL, &m, NULL)));
    tn_companion_params p = tn_companion_default_params();
    int calls = 0;
    tn_agent_nav nav = {&calls, never_sees, closest_only};
    tn_companion_env e = char_env(m, &nav, 400.0f, 100.0f);
    tn_companion c;
    tn_companion_init(&c, 100.0f, 100.0f, 0);
    for (int k = 0; k < 300; k++) tn_companion_step(&c, &p, &e);
    assert_int_equal(c.state, TN_COMPANION_SEARCH);
    if (tn_len(c.x - 200.0f, c.y - 100.0f) > 8.0f)
        fail_msg("the companion is at (%.1f, %.1f), not at the closest place (200, 100)",
                 (double)c.x, (double)c.y);
    /* waiting there: a path query every retry_steps, not every step */
    const int before = calls;
    for (int k = 0; k < 300; k++) tn_companion_step(&c, &p, &e);
    assert_true(calls - before <= 300 / p.retry_steps + 1);
    assert_true(tn_len(c.x - 200.0f, c.y - 100.0f) <= 8.0f);
    /* in sight and idle beside an item the query cannot reach: no fetch */
    tn_agent_nav seen = {&calls, always_sees, closest_only};
    e.nav = &seen;
    e.char_x = 230.0f;
    const float item[2] = {260.0f, 100.0f};
    e.items = item;
    e.nitems = 1;
    for (int k = 0; k < 600; k++) {
        tn_companion_step(&c, &p, &e);
        assert_true(c.state != TN_COMPANION_FETCH);
    }
    tn_map_destroy(m);
}

/* A NULL companion, parameter block or environment is a no-op returning
 * -1 (the environment was dereferenced, reviewer's p18b); a companion
 * stepped with one then steps on as if that call had not been made. */
static void test_step_null_arguments(void **state)
{
    (void)state;
    tn_map *m = open_floor_map();
    tn_companion_params p = tn_companion_default_params();
    tn_companion_env e = {0};
    e.map = m;
    e.char_x = 20 * T;
    e.char_y = 10 * T;
    e.char_hw = 0.5f * T;
    e.char_hh = T;
    e.self_id = -1;
    e.dt = DT;
    tn_companion a, b;
    tn_companion_init(&a, 5 * T, 5 * T, 0);
    b = a;
    assert_int_equal(tn_companion_step(&a, &p, NULL), -1);
    assert_int_equal(tn_companion_step(&a, NULL, &e), -1);
    assert_int_equal(tn_companion_step(NULL, &p, &e), -1);
    assert_memory_equal(&a, &b, sizeof a);
    for (int k = 0; k < 60; k++) {
        assert_int_equal(tn_companion_step(&a, &p, &e), tn_companion_step(&b, &p, &e));
        assert_int_equal(tn_companion_step(&a, &p, NULL), -1);
    }
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(a.x != 5 * T || a.y != 5 * T); /* it did move */
    tn_map_destroy(m);
}

/* init, reset and anchor take NULL (they dereferenced it), as step does. */
static void test_helpers_null(void **state)
{
    (void)state;
    tn_companion_init(NULL, 1, 2, 0);
    tn_companion_reset(NULL);
    tn_companion_params p = tn_companion_default_params();
    tn_companion_env e;
    memset(&e, 0, sizeof e);
    float x = 7, y = 7;
    tn_companion_anchor(NULL, &e, &x, &y);
    assert_true(x == 0.0f && y == 0.0f);
    x = y = 7;
    tn_companion_anchor(&p, NULL, &x, &y);
    assert_true(x == 0.0f && y == 0.0f);
    tn_companion_anchor(&p, &e, NULL, NULL);
    tn_companion_anchor(&p, &e, &x, NULL);
    assert_true(x == 0.0f);
}

/* A companion whose box overlaps a block - placed there, or a block edited
 * onto it - first moves out to the nearest free place: tn_steer_move moves
 * a box that starts inside a block without collision, so it used to fly
 * on through the walls, inside them for good (a library user's program
 * placed one in a wall: after 600 steps it was still in one). */
static void test_frees_itself_from_a_block(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(12, 8, NULL, &m, NULL)));
    for (int y = 0; y < 8; y++)
        if (y != 4) tn_map_set_tile(m, 5, y, TN_TILE_BLOCK, NULL); /* a wall, a door at row 4 */
    tn_companion_params p = tn_companion_default_params();
    for (int k = 0; k < 2; k++) {
        tn_companion c;
        tn_companion_init(&c, 5.5f * 16, 2.5f * 16, 0); /* inside the wall's tile (5,2) */
        c.vx = 200;                                     /* and moving */
        tn_companion_env e = char_env(m, NULL, 60, 60);
        if (k == 1) { /* free at first, then a block edited onto it */
            tn_companion_init(&c, 8.5f * 16, 2.5f * 16, 0);
            e.char_x = 8.5f * 16 + 30;
            for (int i = 0; i < 30; i++) tn_companion_step(&c, &p, &e);
            assert_true(tn_steer_box_free(m, c.x, c.y, p.half));
            int tx = (int)(c.x / 16), ty = (int)(c.y / 16);
            tn_map_set_tile(m, tx, ty, TN_TILE_BLOCK, NULL);
            assert_false(tn_steer_box_free(m, c.x, c.y, p.half));
        }
        for (int i = 0; i < 600; i++) {
            tn_companion_step(&c, &p, &e);
            if (!tn_steer_box_free(m, c.x, c.y, p.half))
                fail_msg("case %d, step %d: box at (%g, %g) overlaps a block", k, i, (double)c.x,
                         (double)c.y);
        }
    }
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follows_walking_character),
        cmocka_unit_test(test_params_ranges),
        cmocka_unit_test(test_keeps_clear_of_enemies),
        cmocka_unit_test(test_keeps_clearance_of_any_character_size),
        cmocka_unit_test(test_regains_sight_behind_door_wall),
        cmocka_unit_test(test_regains_sight_round_ubend),
        cmocka_unit_test(test_paths_over_a_narrow_gap),
        cmocka_unit_test(test_fetches_reachable_items),
        cmocka_unit_test(test_fetches_beside_big_character),
        cmocka_unit_test(test_leaves_item_under_character),
        cmocka_unit_test(test_fetches_item_behind_character),
        cmocka_unit_test(test_gives_up_item_past_blocking_character),
        cmocka_unit_test(test_deterministic_and_params),
        cmocka_unit_test(test_path_count_beyond_cap),
        cmocka_unit_test(test_goes_as_close_as_it_can),
        cmocka_unit_test(test_step_null_arguments),
        cmocka_unit_test(test_helpers_null),
        cmocka_unit_test(test_frees_itself_from_a_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
