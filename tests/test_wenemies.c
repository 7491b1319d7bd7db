/* Tests for the sandbox's enemies part (src/sandbox/tn_wenemies.c) inside
 * a world: edit refusal rules, JSON, determinism, invariants.  The enemy
 * pool itself (src/nav/tn_enemy.c) is tested in test_enemy.c. */
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
#include "tn_wenemies.h"
#include "tn_world.h"
#include "tu_nav.h"

/* ---- the world subsystem ---- */

static tn_world *world_from(const char *text, uint64_t seed)
{
    tn_world_config c = tn_world_default_config();
    c.seed = seed;
    tn_world *w = NULL;
    tn_error e = {0};
    tn_status s = tn_world_create(tu_map_text(text), &c, NULL, &w, &e);
    if (tn_failed(s)) fprintf(stderr, "%s\n", e.msg);
    assert_true(tn_succeeded(s));
    return w;
}

static void expect_refused(tn_world *w, int x, int y, tn_edit kind, const char *what)
{
    int before = tn_world_refused_edits(w);
    tn_error e = {0};
    tn_status s = tn_world_edit(w, x, y, kind, &e);
    if (!tn_failed(s) || !strstr(e.msg, what))
        fprintf(stderr, "edit (%d,%d) kind %d: status %x, message '%s', want '%s'\n", x, y,
                (int)kind, s, e.msg, what);
    assert_true(tn_failed(s));
    assert_true(tn_status_detail(s, TN_REFUSED));
    assert_non_null(strstr(e.msg, what));
    assert_non_null(strstr(tn_world_message_text(w), what)); /* shown in the HUD */
    assert_int_equal(tn_world_refused_edits(w), before + 1);
}

static void expect_ok(tn_world *w, int x, int y, tn_edit kind)
{
    tn_error e = {0};
    tn_status s = tn_world_edit(w, x, y, kind, &e);
    if (tn_failed(s)) fprintf(stderr, "edit (%d,%d) kind %d refused: %s\n", x, y, (int)kind, e.msg);
    assert_true(tn_succeeded(s));
    assert_true(tn_succeeded(tn_world_check(w, &e)));
}

static const char RULES_BOARD[] = "tilenav-map 1\nsize 12 7\ntiles\n"
                                  "P...........\n"
                                  "............\n"
                                  "..S...#.....\n"
                                  "......#..D..\n"
                                  "......#.....\n"
                                  "#######.....\n"
                                  "............\n";

static void test_world_refusal_rules(void **state)
{
    (void)state;
    tn_world *w = world_from(RULES_BOARD, 1);
    tn_wenemies *s = tn_wenemies_of(w);
    assert_int_equal(s->nspawns, 1);
    assert_int_equal(s->ndests, 1);
    /* The last destination: toggled off, or covered by anything. */
    expect_refused(w, 9, 3, TN_EDIT_DEST, "last destination");
    expect_refused(w, 9, 3, TN_EDIT_BLOCK, "last destination");
    expect_refused(w, 9, 3, TN_EDIT_ONEWAY, "last destination");
    expect_refused(w, 9, 3, TN_EDIT_EMPTY, "last destination");
    /* The last spawn point. */
    expect_refused(w, 2, 2, TN_EDIT_SPAWN, "last spawn point");
    expect_refused(w, 2, 2, TN_EDIT_BLOCK, "last spawn point");
    expect_refused(w, 2, 2, TN_EDIT_ONEWAY, "last spawn point");
    /* S reaches D only over the top of the wall at x=6: (6,0) or (6,1). */
    expect_ok(w, 6, 1, TN_EDIT_BLOCK);
    expect_refused(w, 6, 0, TN_EDIT_BLOCK, "a block at (6,0) would cut spawn point (2,2) off");
    /* Flyers cross one-way platforms: allowed. */
    expect_ok(w, 6, 0, TN_EDIT_ONEWAY);
    expect_ok(w, 6, 0, TN_EDIT_ONEWAY);
    /* Through a click too (right button = block). */
    int before = tn_world_refused_edits(w);
    assert_true(tn_failed(tn_world_click(w, 6, 0, TN_CLICK_RIGHT, false, NULL)));
    assert_int_equal(tn_world_refused_edits(w), before + 1);
    /* the refusal is said until a later click succeeds (a review read it as
     * the result of the clicks after it): a block's click says nothing, a
     * mark's click says what it did */
    assert_non_null(strstr(tn_world_message_text(w), "would cut spawn point"));
    assert_true(tn_succeeded(tn_world_click(w, 11, 6, TN_CLICK_RIGHT, false, NULL)));
    assert_string_equal(tn_world_message_text(w), "");
    assert_true(tn_succeeded(tn_world_click(w, 11, 6, TN_CLICK_RIGHT, false, NULL))); /* off */
    tn_world_set_tool(w, TN_TOOL_SPAWN);
    assert_true(tn_succeeded(tn_world_click(w, 10, 6, TN_CLICK_LEFT, false, NULL)));
    assert_string_equal(tn_world_message_text(w), "spawn point placed at (10,6): 2 on the map");
    assert_true(tn_succeeded(tn_world_click(w, 10, 6, TN_CLICK_LEFT, false, NULL))); /* off */
    assert_string_equal(tn_world_message_text(w), "spawn point removed at (10,6): 1 on the map");
    tn_world_message(w, "saved x.map"); /* a message not of a refusal stays */
    assert_true(tn_succeeded(tn_world_click(w, 11, 6, TN_CLICK_RIGHT, false, NULL)));
    assert_string_equal(tn_world_message_text(w), "saved x.map");
    assert_true(tn_succeeded(tn_world_click(w, 11, 6, TN_CLICK_RIGHT, false, NULL)));
    /* A second destination in S's pocket: now the gap may close. */
    expect_ok(w, 4, 4, TN_EDIT_DEST);
    assert_int_equal(s->ndests, 2);
    expect_ok(w, 6, 0, TN_EDIT_BLOCK);
    /* The pocket's destination cannot go (S would have no path)... */
    expect_refused(
        w, 4, 4, TN_EDIT_DEST,
        "removing the destination at (4,4) would leave spawn point (2,2) without a path");
    expect_refused(w, 4, 4, TN_EDIT_BLOCK, "spawn point (2,2)");
    /* ...the other one can; then the pocket's one is the last. */
    expect_ok(w, 9, 3, TN_EDIT_DEST);
    expect_refused(w, 4, 4, TN_EDIT_DEST, "last destination");
    /* A new spawn point needs a path: none on the right any more. */
    expect_refused(w, 10, 3, TN_EDIT_SPAWN, "spawn point (10,3) would have no path");
    /* With the tool and a left click, in the pocket: fine. */
    tn_world_set_tool(w, TN_TOOL_SPAWN);
    assert_true(tn_succeeded(tn_world_click(w, 3, 1, TN_CLICK_LEFT, false, NULL)));
    assert_int_equal(s->nspawns, 2);
    /* Now S (2,2) is not the last: a block on it is fine. */
    expect_ok(w, 2, 2, TN_EDIT_BLOCK);
    assert_int_equal(s->nspawns, 1);
    assert_int_equal(s->spawns[0], 1 * 12 + 3);
    /* The field followed every accepted edit. */
    tn_flow *ref = NULL;
    assert_true(tn_succeeded(tn_flow_create(12, 7, 4, NULL, &ref, NULL)));
    tn_flow_rebuild(ref, tn_world_map(w), NULL);
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 12; x++) {
            assert_true(tn_flow_dist(ref, x, y) == tn_flow_dist(s->flow, x, y));
            assert_int_equal(tn_flow_dir(ref, x, y), tn_flow_dir(s->flow, x, y));
        }
    tn_flow_destroy(ref);
    tn_world_destroy(w);
}

/* A spawn point toggled straight onto a destination (the mark replaced)
 * needs a path once that destination is gone, as one on an empty tile
 * does: one in a closed room whose only way out was its own destination
 * was accepted, a spawn point that never had a path. */
static void test_world_spawn_over_destination(void **state)
{
    (void)state;
    tn_world *w = world_from("tilenav-map 1\nsize 12 8\ntiles\n"
                             "############\n"
                             "#..........#\n"
                             "#.S.....####\n"
                             "#.......#D.#\n"
                             "#.....D.####\n"
                             "#P.........#\n"
                             "#..........#\n"
                             "############\n",
                             1);
    tn_wenemies *s = tn_wenemies_of(w);
    assert_int_equal(s->ndests, 2);
    /* the room's destination (9,3): no other way to one from there */
    expect_refused(w, 9, 3, TN_EDIT_SPAWN, "spawn point (9,3) would have no path");
    assert_int_equal(tn_map_mark(tn_world_map(w), 9, 3), TN_MARK_DEST);
    assert_int_equal(s->ndests, 2);
    assert_int_equal(s->nspawns, 1);
    /* two steps give the same answer */
    expect_ok(w, 9, 3, TN_EDIT_DEST);
    expect_refused(w, 9, 3, TN_EDIT_SPAWN, "spawn point (9,3) would have no path");
    expect_ok(w, 9, 3, TN_EDIT_DEST);
    /* the big room's (6,4): S (2,2) would lose its path first; with a
     * third destination in that room a spawn point there is fine */
    expect_refused(w, 6, 4, TN_EDIT_SPAWN, "would leave spawn point (2,2) without a path");
    expect_ok(w, 1, 1, TN_EDIT_DEST);
    expect_ok(w, 6, 4, TN_EDIT_SPAWN);
    assert_int_equal(s->nspawns, 2);
    assert_int_equal(s->ndests, 2);
    tn_world_destroy(w);
}

/* A mark placed with its tool over another mark says which one it took
 * the place of, and how many of those are left: "destination placed at
 * (60,8): 2 on the map" was all a destination dropped on one of the demo
 * map's items said, the item gone without a word (a playtest). */
static void test_mark_over_mark_says_so(void **state)
{
    (void)state;
    tn_world *w = world_from("tilenav-map 1\nsize 12 6\ntiles\n"
                             "############\n"
                             "#..........#\n"
                             "#.S..*.*..D#\n"
                             "#..........#\n"
                             "#P.........#\n"
                             "############\n",
                             1);
    tn_world_set_tool(w, TN_TOOL_DEST);
    assert_true(tn_succeeded(tn_world_click(w, 5, 2, TN_CLICK_LEFT, false, NULL)));
    assert_string_equal(tn_world_message_text(w),
                        "destination placed at (5,2) over an item: 2 on the map, 1 item left");
    tn_world_set_tool(w, TN_TOOL_SPAWN);
    assert_true(tn_succeeded(tn_world_click(w, 5, 2, TN_CLICK_LEFT, false, NULL)));
    assert_string_equal(
        tn_world_message_text(w),
        "spawn point placed at (5,2) over a destination: 2 on the map, 1 destination left");
    tn_world_set_tool(w, TN_TOOL_ITEM);
    assert_true(tn_succeeded(tn_world_click(w, 2, 2, TN_CLICK_LEFT, false, NULL)));
    assert_string_equal(
        tn_world_message_text(w),
        "item placed at (2,2) over a spawn point: 2 on the map, 1 spawn point left");
    assert_true(tn_succeeded(tn_world_click(w, 7, 2, TN_CLICK_LEFT, false, NULL))); /* off */
    assert_string_equal(tn_world_message_text(w), "item removed at (7,2): 1 on the map");
    assert_true(tn_succeeded(tn_world_click(w, 7, 2, TN_CLICK_LEFT, false, NULL))); /* on */
    assert_string_equal(tn_world_message_text(w), "item placed at (7,2): 2 on the map");
    tn_world_destroy(w);
}

/* A block or one-way platform put on a marked tile takes the mark away
 * (marks go on empty tiles only): the status line says so, with how many
 * of that kind are left; a middle click on one of the demo map's items
 * made it a one-way platform without a word. */
static void test_tile_over_mark_says_so(void **state)
{
    (void)state;
    tn_world *w = world_from("tilenav-map 1\nsize 12 6\ntiles\n"
                             "############\n"
                             "#..........#\n"
                             "#.S..*.*.SD#\n"
                             "#..........#\n"
                             "#P.........#\n"
                             "############\n",
                             1);
    assert_true(tn_succeeded(tn_world_click(w, 5, 2, TN_CLICK_MIDDLE, false, NULL)));
    assert_string_equal(tn_world_message_text(w),
                        "one-way platform placed at (5,2) over an item: 1 item left");
    assert_int_equal(tn_map_tile(tn_world_map(w), 5, 2), TN_TILE_ONEWAY);
    assert_true(tn_succeeded(tn_world_click(w, 2, 2, TN_CLICK_RIGHT, false, NULL)));
    assert_string_equal(tn_world_message_text(w),
                        "block placed at (2,2) over a spawn point: 1 spawn point left");
    /* the same through an edit (a drag's painted tiles, a script's toggle) */
    assert_true(tn_succeeded(tn_world_edit(w, 7, 2, TN_EDIT_BLOCK, NULL)));
    assert_string_equal(tn_world_message_text(w),
                        "block placed at (7,2) over an item: 0 items left");
    /* a tile with no mark under it still says nothing */
    tn_world_message(w, "kept");
    assert_true(tn_succeeded(tn_world_click(w, 4, 3, TN_CLICK_RIGHT, false, NULL)));
    assert_string_equal(tn_world_message_text(w), "kept");
    tn_world_destroy(w);
}

/* Maps without spawn points or destinations: an idle spawner; a board can
 * be built up in any order. */
static void test_world_idle_and_cutoff(void **state)
{
    (void)state;
    tn_world *w = world_from("tilenav-map 1\nsize 10 6\ntiles\n..........\n..........\n"
                             "..........\n..........\n..........\n..........\n",
                             4);
    tn_wenemies *s = tn_wenemies_of(w);
    for (int k = 0; k < 120; k++) tn_world_step(w);
    assert_int_equal(s->pool->spawned, 0);
    expect_ok(w, 8, 1, TN_EDIT_SPAWN); /* no destination yet: allowed */
    for (int k = 0; k < 120; k++) tn_world_step(w);
    assert_int_equal(s->pool->spawned, 0); /* idle: nowhere to go */
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "idle: no destination"));
    expect_ok(w, 2, 4, TN_EDIT_DEST);
    for (int k = 0; k < 120; k++) tn_world_step(w);
    assert_int_equal(s->pool->spawned, 2); /* 1/s by default */
    tn_world_destroy(w);

    /* A loaded map whose spawn point in a closed room has no path: it never
     * spawns, and it does not make every other edit refused. */
    size_t len = 0;
    FILE *fp = fopen("tests/data/flow_cutoff.map", "rb");
    assert_non_null(fp);
    char buf[1024];
    len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = '\0';
    w = world_from(buf, 5);
    s = tn_wenemies_of(w);
    assert_int_equal(s->nspawns, 2);
    expect_ok(w, 4, 3, TN_EDIT_BLOCK);
    expect_ok(w, 0, 5, TN_EDIT_DEST); /* the other destination still serves (1,1) */
    assert_true(tn_world_set(w, "spawn_rate", 10, NULL) == TN_OK);
    assert_true(s->pool->cfg.spacing > 0.0f); /* high rates keep enemies apart */
    for (int k = 0; k < 600; k++) {
        tn_world_step(w);
        /* a spawn waits for room: never two enemies near a spawn centre */
        for (int p = 0; p < s->nspawns; p++) {
            float cx = (float)(s->spawns[p] % tn_world_map(w)->w) + 0.5f;
            float cy = (float)(s->spawns[p] / tn_world_map(w)->w) + 0.5f;
            int near = 0;
            for (int i = 0; i < s->pool->count; i++) {
                float dx = s->pool->e[i].x - cx, dy = s->pool->e[i].y - cy;
                near += dx * dx + dy * dy < s->pool->cfg.spacing * s->pool->cfg.spacing;
            }
            assert_true(near <= 1);
        }
    }
    for (int i = 0; i < s->pool->count; i++)
        assert_false(s->pool->e[i].tx >= 6 && s->pool->e[i].tx <= 8 && s->pool->e[i].ty >= 1 &&
                     s->pool->e[i].ty <= 3);
    /* 10/s for 10 s, fewer when the spacing held some back (about 40: a
     * held spawn goes once the enemy before it, at 0.2..5 tiles/s, is 0.3
     * tiles on, and is caught up by one step at most) */
    assert_true(s->pool->spawned >= 30 && s->pool->spawned <= 100);
    assert_true(tn_world_set(w, "spawn_rate", 2, NULL) == TN_OK);
    assert_true(s->pool->cfg.spacing == 0.0f); /* low rates: exactly the rate */
    tn_world_destroy(w);
}

static char *json_of(const tn_world *w)
{
    int n = tn_world_json(w, NULL, 0);
    char *b = malloc((size_t)n + 1);
    tn_world_json(w, b, (size_t)n + 1);
    return b;
}

/* Runs a world for a while with edits; returns its JSON. */
static char *scripted_run(uint64_t seed, tn_enemies *copy_out)
{
    size_t len = 0;
    FILE *fp = fopen("maps/demo.map", "rb");
    if (!fp) return NULL;
    static char buf[1 << 16];
    len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = '\0';
    tn_world *w = world_from(buf, seed);
    assert_true(tn_world_set(w, "spawn_rate", 10, NULL) == TN_OK);
    for (int k = 0; k < 1800; k++) {
        if (k == 300) tn_world_edit(w, 60, 30, TN_EDIT_BLOCK, NULL);
        if (k == 400) tn_world_edit(w, 70, 20, TN_EDIT_DEST, NULL);
        if (k == 900) tn_world_edit(w, 70, 20, TN_EDIT_DEST, NULL);
        tn_world_step(w);
    }
    tn_error e = {0};
    assert_true(tn_succeeded(tn_world_check(w, &e)));
    char *j = json_of(w);
    if (copy_out) {
        tn_wenemies *s = tn_wenemies_of(w);
        copy_out->count = s->pool->count;
        memcpy(copy_out->e, s->pool->e, sizeof(tn_enemy) * (size_t)s->pool->count);
    }
    tn_world_destroy(w);
    return j;
}

static void test_world_json_and_determinism(void **state)
{
    (void)state;
    tn_enemies *a = tu_pool_fixed(1, 0, TN_WENEMIES_CAPACITY),
               *b = tu_pool_fixed(1, 0, TN_WENEMIES_CAPACITY);
    char *j1 = scripted_run(11, a);
    if (!j1) {
        fprintf(stderr, "maps/demo.map is missing: skipped\n");
        tn_enemies_destroy(a);
        tn_enemies_destroy(b);
        skip();
    }
    char *j2 = scripted_run(11, b);
    assert_string_equal(j1, j2);
    assert_int_equal(a->count, b->count);
    assert_true(a->count > 0);
    assert_memory_equal(a->e, b->e, sizeof(tn_enemy) * (size_t)a->count);
    char *j3 = scripted_run(12, NULL);
    assert_string_not_equal(j1, j3);
    const char *sec = strstr(j1, ",\"enemies\":{\"alive\":");
    assert_non_null(sec);
    int alive = -1;
    long spawned = -1, reached = -1, skipped = -1;
    assert_int_equal(sscanf(sec,
                            ",\"enemies\":{\"alive\":%d,\"spawned\":%ld,\"reached\":%ld,"
                            "\"skipped\":%ld}",
                            &alive, &spawned, &reached, &skipped),
                     4);
    /* 10/s for 30 s; at this rate a spawn waits for room (spacing) */
    assert_true(spawned >= 200 && spawned <= 300);
    assert_true(reached > 0);
    assert_int_equal(skipped, 0);
    assert_true(alive + reached <= spawned);
    assert_non_null(strstr(j1, "\"refused_edits\":"));
    free(j1);
    free(j2);
    free(j3);
    tn_enemies_destroy(a);
    tn_enemies_destroy(b);
}

/* Random edits of every kind with enemies flying: the world's invariants
 * (no enemy in a block or outside its tile, field == BFS certificate, lists
 * match the map) hold after every step. */
static void test_world_random_edits(void **state)
{
    (void)state;
    tn_world *w = world_from("tilenav-map 1\nsize 24 14\ntiles\n"
                             "........................\n"
                             "..S..........#..........\n"
                             ".............#......D...\n"
                             ".....######..#..........\n"
                             ".............#####......\n"
                             "..........=.............\n"
                             "........................\n"
                             "...S.........#..........\n"
                             "......#......#.....S....\n"
                             "......#......#..........\n"
                             "......#.....D#..........\n"
                             "......########..........\n"
                             "........................\n"
                             "P.......................\n",
                             8);
    tn_world_set(w, "spawn_rate", 10, NULL);
    tn_rng r;
    tn_rng_seed(&r, 77, 1);
    tn_error e = {0};
    int accepted = 0, refused = 0;
    for (int k = 0; k < 6000; k++) {
        if (k % 3 == 0) {
            int x = (int)tn_rng_below(&r, 24), y = (int)tn_rng_below(&r, 14);
            tn_edit kind = (tn_edit)tn_rng_below(&r, TN_EDIT_ITEM + 1);
            if (tn_succeeded(tn_world_edit(w, x, y, kind, NULL)))
                accepted++;
            else
                refused++;
        }
        tn_world_step(w);
        tn_status st = tn_world_check(w, &e);
        if (tn_failed(st)) fprintf(stderr, "step %d: %s\n", k, e.msg);
        assert_true(tn_succeeded(st));
        tn_wenemies *s = tn_wenemies_of(w);
        assert_true(s->nspawns >= 1 && s->ndests >= 1);
    }
    assert_true(accepted > 500);
    assert_true(refused > 20);
    assert_true(tn_wenemies_of(w)->pool->reached > 50);
    tn_world_destroy(w);
}

/* ---- drawing ---- */

typedef struct rec_dd {
    long prims;           /* lines, rects, circles, triangles */
    float x0, y0, x1, y1; /* their extent (world px) */
    float tri_span;       /* the largest triangle's width or height */
    float disc;           /* the largest filled circle's radius */
} rec_dd;

static void rec_pt(rec_dd *r, float x, float y)
{
    r->x0 = fminf(r->x0, x), r->y0 = fminf(r->y0, y);
    r->x1 = fmaxf(r->x1, x), r->y1 = fmaxf(r->y1, y);
}
static void rec_line(void *u, float ax, float ay, float bx, float by, uint32_t c)
{
    (void)c;
    rec_dd *r = u;
    r->prims++;
    rec_pt(r, ax, ay), rec_pt(r, bx, by);
}
static void rec_rect(void *u, float x, float y, float w, float h, uint32_t c, bool fill)
{
    (void)c, (void)fill;
    rec_dd *r = u;
    r->prims++;
    rec_pt(r, x, y), rec_pt(r, x + w, y + h);
}
static void rec_circle(void *u, float x, float y, float rad, uint32_t c, bool fill)
{
    (void)c;
    rec_dd *r = u;
    r->prims++;
    rec_pt(r, x - rad, y - rad), rec_pt(r, x + rad, y + rad);
    if (fill) r->disc = fmaxf(r->disc, rad);
}
static void rec_tri(void *u, float ax, float ay, float bx, float by, float cx, float cy, uint32_t c)
{
    (void)c;
    rec_dd *r = u;
    r->prims++;
    rec_pt(r, ax, ay), rec_pt(r, bx, by), rec_pt(r, cx, cy);
    float w = fmaxf(fmaxf(ax, bx), cx) - fminf(fminf(ax, bx), cx);
    float h = fmaxf(fmaxf(ay, by), cy) - fminf(fminf(ay, by), cy);
    r->tri_span = fmaxf(r->tri_span, fmaxf(w, h));
}

static rec_dd rec_draw_flow(const tn_flow *f, const float *view)
{
    rec_dd r = {0, INFINITY, INFINITY, -INFINITY, -INFINITY, 0, 0};
    tn_debug_draw dd = {&r, rec_line, rec_rect, rec_circle, rec_tri, NULL};
    tn_world_draw_flow_field(f, &dd, view);
    return r;
}

/* The flow overlay draws the tiles in the view, however big the map (a
 * reviewer saw no arrows at all above 256x256 and no word why), and
 * nothing when more than TN_WORLD_FLOW_ARROWS_MAX tiles are in view
 * (tn_world_flow_tiles says so, for the window's caption). */
static void test_flow_drawn_in_view(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(300, 300, NULL, &m, NULL)));
    tn_flow *f = NULL;
    assert_true(tn_succeeded(tn_flow_create(300, 300, 4, NULL, &f, NULL)));
    m->mark[150 * 300 + 150] = TN_MARK_DEST;
    tn_flow_rebuild(f, m, NULL);
    int r[4];
    assert_false(tn_world_flow_tiles(f, NULL, r)); /* 90,000 tiles */
    assert_int_equal(rec_draw_flow(f, NULL).prims, 0);
    const float T = (float)TN_TILE_PX;
    const float view[4] = {100 * T + 3, 40 * T, 120 * T, 50 * T - 1}; /* tiles 100..120 x 40..49 */
    assert_true(tn_world_flow_tiles(f, view, r));
    assert_int_equal(r[0], 100), assert_int_equal(r[1], 40);
    assert_int_equal(r[2], 120), assert_int_equal(r[3], 49);
    rec_dd d = rec_draw_flow(f, view);
    assert_int_equal(d.prims, 2 * 21 * 10); /* a shaft and a head a tile */
    assert_true(d.x0 >= 100 * T && d.x1 <= 121 * T && d.y0 >= 40 * T && d.y1 <= 50 * T);
    /* a view of exactly the limit is drawn, one tile more is not */
    const float big[4] = {0, 0, 256 * T - 1, 256 * T - 1},
                more[4] = {0, 0, 257 * T - 1, 256 * T - 1};
    assert_true(tn_world_flow_tiles(f, big, r));
    assert_false(tn_world_flow_tiles(f, more, r));
    /* views no int holds (a robustness review: the cast overflowed and said
       "nothing in view"): clamped to the field */
    const float huge[4] = {-1e30f, -INFINITY, 1e30f, INFINITY};
    assert_false(tn_world_flow_tiles(f, huge, r));
    assert_int_equal(r[0], 0), assert_int_equal(r[2], 299), assert_int_equal(r[3], 299);
    const float nan4[4] = {NAN, NAN, NAN, NAN};
    assert_true(tn_world_flow_tiles(f, nan4, r)); /* nothing in it */
    assert_int_equal(rec_draw_flow(f, nan4).prims, 0);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

/* Zoomed out, enemies stay at least 6 screen pixels from centre to tip
 * and the companion 3 in radius (the reviewers saw 1-2 px dots at
 * 0.125x); at 1x the sizes are their own. */
static void test_enemies_visible_zoomed_out(void **state)
{
    (void)state;
    tn_world *w = world_from("tilenav-map 1\nsize 12 6\ntiles\n"
                             "............\n"
                             ".S........D.\n"
                             "............\n"
                             "............\n"
                             "............\n"
                             "############\n",
                             3);
    for (int i = 0; i < 90; i++) tn_world_step(w);
    const float scales[3] = {1.0f, 0.125f, 0.0f};
    float span[3], disc[3];
    for (int k = 0; k < 3; k++) {
        rec_dd r = {0, INFINITY, INFINITY, -INFINITY, -INFINITY, 0, 0};
        tn_debug_draw dd = {&r, rec_line, rec_rect, rec_circle, rec_tri, NULL};
        tn_world_draw_view(w, &dd, 0, NULL, scales[k]);
        span[k] = r.tri_span;
        disc[k] = r.disc; /* the companion's */
    }
    assert_true(disc[0] > 0 && disc[0] == disc[2] && disc[1] * 0.125f >= 3.0f);
    printf("  largest enemy triangle: %.1f world px at 1x, %.1f at 0.125x\n", span[0], span[1]);
    assert_true(span[0] > 0 && span[0] == span[2]); /* its own size, as with no scale */
    assert_true(span[1] * 0.125f >= 6.0f);          /* on screen at 0.125x */
    tn_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_world_refusal_rules),
        cmocka_unit_test(test_world_spawn_over_destination),
        cmocka_unit_test(test_mark_over_mark_says_so),
        cmocka_unit_test(test_tile_over_mark_says_so),
        cmocka_unit_test(test_world_idle_and_cutoff),
        cmocka_unit_test(test_world_json_and_determinism),
        cmocka_unit_test(test_world_random_edits),
        cmocka_unit_test(test_flow_drawn_in_view),
        cmocka_unit_test(test_enemies_visible_zoomed_out),
    };
    return cmocka_run_group_tests_name("wenemies", tests, NULL, NULL);
}
