/* Tests for the sandbox's navmesh part (src/sandbox/tn_wnav.c) inside a
 * world: the mesh follows edits, queries in pixels, the navpath tool, the
 * agents' navigation interface.  The navmesh itself: test_navmesh.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tu_nav.h"
#include "worldutil.h"

#include <math.h>
#include "tn_navmesh.h"
#include "tn_wnav.h"
#include "tn_world.h"

/* Debug draw: counts what is drawn */
typedef struct counter {
    int lines, tris, circles;
} counter;
static void c_line(void *u, float a, float b, float c, float d, uint32_t k)
{
    (void)a, (void)b, (void)c, (void)d, (void)k;
    ((counter *)u)->lines++;
}
static void c_tri(void *u, float a, float b, float c, float d, float e, float f, uint32_t k)
{
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)k;
    ((counter *)u)->tris++;
}

/* ---------------------------------------------------------------------- */
/* The world's navmesh subsystem */

static void test_world_subsystem(void **state)
{
    (void)state;
    tn_world *w = NULL;
    tn_error err;
    assert_int_equal(tn_world_create(tu_load_map("tests/data/nav_gap.map"), NULL, NULL, &w, &err),
                     TN_OK);
    char json[4096];
    tn_world_json(w, json, sizeof json);
    const char *sec = strstr(json, ",\"navmesh\":{\"triangles\":");
    assert_non_null(sec);
    assert_non_null(strstr(sec, "\"regions\":1,\"build_ms\":null}"));
    const tn_navmesh *nm = tn_wnav_mesh(w);
    assert_non_null(nm);
    tn_navmesh_view v;
    tn_navmesh_get_view(nm, &v);
    assert_true(v.tile_size == TN_TILE_PX);
    int tris = v.nfree;
    uint32_t rev = tn_wnav_revision(w);

    /* queries through the world, in pixels: around the wall's top */
    assert_true(tn_wnav_los(w, 8, 8, 168, 8));
    assert_false(tn_wnav_los(w, 40, 136, 136, 136));
    float xy[64];
    int n = tn_wnav_path(w, 40, 136, 136, 136, 0, xy, 32);
    assert_int_equal(n, 3); /* the points after the start */
    assert_true(xy[0] == 80 && xy[1] == 64 && xy[2] == 96 && xy[3] == 64);
    assert_true(xy[4] == 136 && xy[5] == 136);
    tn_agent_nav an = tn_wnav_agent_nav(w);
    assert_true(an.los(an.user, 8, 8, 168, 8));
    assert_int_equal(an.path(an.user, 40, 136, 136, 136, 0, xy, 2), 2); /* cut to cap */
    /* a goal inside a block goes to its nearest free point */
    n = tn_wnav_path(w, 40, 136, 88, 120, 0, xy, 32);
    assert_true(n >= 1);
    assert_true(xy[2 * n - 2] == 80 || xy[2 * n - 2] == 96);

    /* the navpath tool */
    assert_int_equal(tn_world_set_tool(w, TN_TOOL_NAVPATH), TN_OK);
    assert_int_equal(tn_world_click(w, 9, 8, TN_CLICK_LEFT, false, &err), TN_OK);
    char hud[1024];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "navmesh: "));
    /* the path is a " | " piece, so a narrow HUD strip wraps it rather
     * than cutting it ("; path 22 points, 75.7 tile" at 900x500) */
    if (!strstr(hud, " | path ") || strstr(hud, "; path")) fail_msg("HUD: %s", hud);
    counter c = {0, 0, 0};
    tn_debug_draw dd = {.user = &c, .line = c_line, .tri = c_tri};
    tn_world_draw(w, &dd, TN_OVERLAY_NAVMESH);
    assert_true(c.tris > tris); /* triangles and the corridor */
    assert_true(c.lines > 0);

    /* a one-way platform leaves flyers' free space alone: no rebuild */
    assert_int_equal(tn_world_edit(w, 8, 2, TN_EDIT_ONEWAY, &err), TN_OK);
    assert_int_equal(tn_wnav_revision(w), rev);
    /* a block does: the wall grows to the top, the tool's path is replanned */
    for (int y = 0; y < 4; y++)
        assert_int_equal(tn_world_edit(w, 5, y, TN_EDIT_BLOCK, &err), TN_OK);
    assert_true(tn_wnav_revision(w) > rev);
    tn_navmesh_get_view(tn_wnav_mesh(w), &v);
    assert_int_equal(v.nregions, 2);
    assert_false(tn_wnav_los(w, 8, 8, 168, 8));
    /* out of reach: the path to the closest place, its count negated (the
     * companion's search goes there; it was 0, the companion hovered) */
    n = tn_wnav_path(w, 40, 136, 136, 136, 0, xy, 32);
    if (n >= 0) fail_msg("%d points", n);
    assert_int_equal(n, -1); /* straight to the wall's face, level with the goal */
    assert_true(xy[0] == 80 && xy[1] == 136);
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    /* a click into the other region: the path to the closest place, said
     * (the navmesh's partial answer, as the planners give one; it was
     * refused) */
    tn_status s = tn_world_click(w, 9, 8, TN_CLICK_LEFT, false, &err);
    assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
    assert_non_null(strstr(err.msg, "unreachable (it is in another region): it ends at the "
                                    "closest place reached"));
    assert_string_equal(tn_world_message_text(w), err.msg);
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "(partial: goal unreachable)"));
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    /* reopen and replace the map: everything rebuilt */
    assert_int_equal(tn_world_edit(w, 5, 2, TN_EDIT_BLOCK, &err), TN_OK);
    assert_int_equal(tn_world_click(w, 9, 8, TN_CLICK_LEFT, false, &err), TN_OK);
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    assert_int_equal(tn_world_replace_map(w, tu_load_map("tests/data/nav_rooms.map"), &err), TN_OK);
    tn_navmesh_get_view(tn_wnav_mesh(w), &v);
    assert_int_equal(v.nregions, 2);
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, " triangles, 2 regions"));
    tn_world_destroy(w);
    /* one region is "1 region" (the HUD said "1 regions") */
    assert_int_equal(tn_world_create(tu_load_map("maps/demo.map"), NULL, NULL, &w, &err), TN_OK);
    tn_navmesh_get_view(tn_wnav_mesh(w), &v);
    assert_int_equal(v.nregions, 1);
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, " triangles, 1 region\n"));
    assert_null(strstr(hud, "1 regions"));
    tn_world_destroy(w);
}

/* A navpath goal (or start) too narrow for the agent's radius moves to the
 * nearest point with room: the click says how far, on the status line and
 * in err with SUCCESS | PARTIAL_RESULT (the reviewer's radius 1.00 click
 * into the 2-tile pit at (62,43) said only "navmesh path: 23 points, 66.4
 * tiles, agent radius 1.00" while the path ended above the pit). */
static void test_navpath_goal_moved(void **state)
{
    (void)state;
    tn_world *w = NULL;
    tn_error err;
    assert_int_equal(tn_world_create(tu_load_map("maps/demo.map"), NULL, NULL, &w, &err), TN_OK);
    assert_int_equal(tn_world_set_tool(w, TN_TOOL_NAVPATH), TN_OK);
    assert_int_equal(tn_world_set(w, "agent_radius", 1.0, &err), TN_OK);
    tn_status s = tn_world_click(w, 62, 43, TN_CLICK_LEFT, false, &err);
    assert_true(tn_succeeded(s) && tn_status_detail(s, TN_PARTIAL_RESULT));
    const char *msg = tn_world_message_text(w);
    if (!strstr(msg, "navmesh path: ") || !strstr(msg, "goal moved ") ||
        !strstr(msg, " tiles to the nearest point with room for radius 1.00"))
        fail_msg("status: %s", msg);
    if (strncmp(err.msg, "goal moved ", 11) != 0 || !strstr(err.msg, "radius 1.00"))
        fail_msg("err: %s", err.msg);
    double d = atof(err.msg + 11);
    assert_true(d >= 1.0 && d <= 6.0);
    /* a goal with room: no word about moves */
    s = tn_world_click(w, 70, 10, TN_CLICK_LEFT, false, &err);
    assert_int_equal(s, TN_OK);
    assert_null(strstr(tn_world_message_text(w), "moved"));
    /* radius 0 moves nothing */
    assert_int_equal(tn_world_set(w, "agent_radius", 0.0, &err), TN_OK);
    assert_int_equal(tn_world_click(w, 62, 43, TN_CLICK_LEFT, false, &err), TN_OK);
    assert_null(strstr(tn_world_message_text(w), "moved"));
    /* the slider re-plans the path: a goal it moves is said too (a review:
     * the path quietly ended 4 tiles higher) */
    assert_int_equal(tn_world_set(w, "agent_radius", 1.0, &err), TN_OK);
    msg = tn_world_message_text(w);
    if (!strstr(msg, "navmesh path re-planned for radius 1.00: ") || !strstr(msg, "goal moved ") ||
        !strstr(msg, " tiles to the nearest point with room for radius 1.00"))
        fail_msg("status: %s", msg);
    tn_world_destroy(w);
}

/* The slider's radius re-plans the navpath tool's path and the status line
 * says the new path and radius, with the numbers the HUD shows (a playtest:
 * after a drag to 0.50 it kept the click's "agent radius 0.31" while the
 * HUD's path had other points and length). */
static void test_radius_message_follows(void **state)
{
    (void)state;
    tn_world *w = NULL;
    tn_error err;
    assert_int_equal(tn_world_create(tu_load_map("maps/demo.map"), NULL, NULL, &w, &err), TN_OK);
    assert_int_equal(tn_world_set_tool(w, TN_TOOL_NAVPATH), TN_OK);
    assert_int_equal(tn_world_click(w, 55, 25, TN_CLICK_LEFT, false, &err), TN_OK);
    assert_non_null(strstr(tn_world_message_text(w), "agent radius 0.31"));
    const double radii[] = {0.5, 0.4, 0.0, 0.31};
    for (int i = 0; i < 4; i++) {
        assert_true(tn_succeeded(tn_world_set(w, "agent_radius", radii[i], &err)));
        char want[64], hud[1024], pts[64];
        snprintf(want, sizeof want, "navmesh path re-planned for radius %.2f: ", radii[i]);
        const char *msg = tn_world_message_text(w);
        printf("  radius %.2f: %s\n", radii[i], msg);
        if (strncmp(msg, want, strlen(want)) != 0) fail_msg("status: %s", msg);
        /* the HUD's " | path N points[ (arcs included)], L tiles" */
        tn_world_hud(w, hud, sizeof hud);
        const char *h = strstr(hud, " | path ");
        assert_non_null(h);
        int n = atoi(h + 8);
        const char *len = strstr(h, " tiles");
        assert_non_null(len);
        const char *comma = len;
        while (comma > h && *comma != ',') comma--;
        snprintf(pts, sizeof pts, "%d points, %.*s tiles", n, (int)(len - comma - 2), comma + 2);
        if (!strstr(msg, pts)) fail_msg("status \"%s\" does not say the HUD's \"%s\"", msg, pts);
        assert_int_equal(tn_world_message_ttl(w) > 0, 1);
    }
    tn_world_destroy(w);
}

/* The HUD's path numbers, "N points, L tiles" (its " | path N points[
 * (arcs included)], L tiles"), into out; false when it shows no path. */
static bool hud_path(tn_world *w, char *out, size_t cap)
{
    char hud[1024];
    tn_world_hud(w, hud, sizeof hud);
    const char *h = strstr(hud, " | path ");
    if (!h) return false;
    int n = atoi(h + 8);
    const char *len = strstr(h, " tiles");
    assert_non_null(len);
    const char *comma = len;
    while (comma > h && *comma != ',') comma--;
    snprintf(out, cap, "%d points, %.*s tiles", n, (int)(len - comma - 2), comma + 2);
    return true;
}

/* An edit that re-plans the navpath tool's path leaves no other numbers
 * on the status line than the HUD's (a playtest on arena.map: a wall
 * right-dragged down column 40 under the path to (60,5) made the HUD's
 * "path 12 points, 64.8 tiles" while the status line kept the click's
 * "navmesh path: 11 points, 63.8 tiles"): the status says the re-plan, as
 * the radius slider's does.  An edit that changes nothing of the path
 * says nothing; a message not about the path is not replaced; a block put
 * over an item says that (the edit's own message) rather than the path. */
static void test_edit_message_follows(void **state)
{
    (void)state;
    tn_world *w = NULL;
    tn_error err;
    assert_int_equal(tn_world_create(tu_load_map("maps/arena.map"), NULL, NULL, &w, &err), TN_OK);
    const tn_map *m = tn_world_map(w);
    assert_int_equal(tn_world_set_tool(w, TN_TOOL_NAVPATH), TN_OK);
    assert_int_equal(tn_world_click(w, 60, 5, TN_CLICK_LEFT, false, &err), TN_OK);
    char pts[64], was[64];
    assert_true(hud_path(w, pts, sizeof pts));
    assert_non_null(strstr(tn_world_message_text(w), pts));
    int replans = 0;
    for (int y = 0; y < m->h; y++) {
        if (tn_map_tile(m, 40, y) != TN_TILE_EMPTY || tn_map_mark(m, 40, y)) continue;
        snprintf(was, sizeof was, "%s", pts);
        tn_status s = tn_world_click(w, 40, y, TN_CLICK_RIGHT, false, &err);
        if (tn_failed(s)) continue; /* (the character's tiles) */
        const char *msg = tn_world_message_text(w);
        if (!hud_path(w, pts, sizeof pts)) break; /* cut: said so */
        if (strcmp(pts, was) != 0) {
            char want[64];
            snprintf(want, sizeof want, "navmesh path re-planned after the edit at (40,%d): ", y);
            if (strncmp(msg, want, strlen(want)) != 0 || !strstr(msg, pts))
                fail_msg("edit (40,%d): HUD \"%s\", status \"%s\"", y, pts, msg);
            replans++;
        } else if (strncmp(msg, "navmesh path", 12) == 0 && !strstr(msg, pts)) {
            fail_msg("edit (40,%d): HUD \"%s\", status \"%s\"", y, pts, msg);
        }
    }
    assert_true(replans > 0);
    /* a message about something else stays */
    tn_world_message(w, "saved somewhere");
    int y = 0;
    while (y < m->h && tn_map_tile(m, 40, y) != TN_TILE_BLOCK) y++;
    assert_true(y < m->h);
    assert_int_equal(tn_world_click(w, 40, y, TN_CLICK_RIGHT, false, &err), TN_OK); /* erase */
    assert_string_equal(tn_world_message_text(w), "saved somewhere");
    tn_world_destroy(w);

    /* an item on the path, then the path clicked: a block over the item
     * says what it took */
    assert_int_equal(tn_world_create(tu_load_map("maps/arena.map"), NULL, NULL, &w, &err), TN_OK);
    m = tn_world_map(w);
    assert_int_equal(tn_world_set_tool(w, TN_TOOL_NAVPATH), TN_OK);
    float cx, cy, xy[2 * 256];
    tn_world_character_center(w, &cx, &cy);
    const float T = (float)TN_TILE_PX;
    int n = tn_wnav_path(w, cx, cy, 60.5f * T, 5.5f * T, tn_wnav_agent_radius(w), xy, 256);
    assert_true(n >= 3);
    int tx = (int)((xy[2] + xy[4]) / 2 / T), ty = (int)((xy[3] + xy[5]) / 2 / T);
    assert_int_equal(tn_map_tile(m, tx, ty), TN_TILE_EMPTY);
    assert_int_equal(tn_world_edit(w, tx, ty, TN_EDIT_ITEM, &err), TN_OK);
    assert_int_equal(tn_world_click(w, 60, 5, TN_CLICK_LEFT, false, &err), TN_OK);
    assert_true(hud_path(w, was, sizeof was));
    assert_int_equal(tn_world_click(w, tx, ty, TN_CLICK_RIGHT, false, &err), TN_OK);
    assert_true(hud_path(w, pts, sizeof pts));
    if (strcmp(pts, was) == 0) fail_msg("the block at (%d,%d) left the path as it was", tx, ty);
    char want[64];
    snprintf(want, sizeof want, "block placed at (%d,%d) over an item: ", tx, ty);
    if (strncmp(tn_world_message_text(w), want, strlen(want)) != 0)
        fail_msg("status: %s", tn_world_message_text(w));
    tn_world_destroy(w);
}

/* The mesh is sized to the map's content, not the worst case of its size:
 * edits that add far more outline than the headroom re-fit it, and the
 * re-fitted mesh answers like a worst-case mesh built from scratch. */
static void test_mesh_fits_content(void **state)
{
    (void)state;
    char text[64 * 40 + 64];
    int W = 60, H = 36, k = snprintf(text, sizeof text, "tilenav-map 1\nsize %d %d\ntiles\n", W, H);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            text[k++] = y == H - 1                   ? '#'
                        : (x == 1 && y == H - 3)     ? 'P'
                        : (x == W - 2 && y == H - 2) ? 'D'
                        : (x == W - 2 && y == 1)     ? 'S'
                                                     : '.';
        text[k++] = '\n';
    }
    text[k] = '\0';
    tn_world *w = NULL;
    tn_error err;
    assert_int_equal(tn_world_create(tu_map_text(text), NULL, NULL, &w, &err), TN_OK);
    assert_int_equal(tn_wnav_refits(w), 1);
    tn_navmesh_view v;
    tn_navmesh_get_view(tn_wnav_mesh(w), &v);
    int tris0 = v.nfree;
    /* isolated blocks, 4 outline points each: far past the headroom */
    int placed = 0;
    for (int y = 4; y < H - 6; y += 2)
        for (int x = 4; x < W - 4; x += 2)
            if (tn_succeeded(tn_world_edit(w, x, y, TN_EDIT_BLOCK, &err))) placed++;
    assert_true(placed > 300);
    assert_true(tn_wnav_refits(w) > 1);
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    tn_navmesh_get_view(tn_wnav_mesh(w), &v);
    assert_true(v.nfree > 4 * tris0);
    /* the same answers as a worst-case mesh built from scratch */
    tn_navmesh_config cfg = tn_navmesh_default_config();
    cfg.tile_size = (float)TN_TILE_PX;
    tn_navmesh *ref = NULL;
    tn_navquery *rq = NULL;
    const tn_map *m = tn_world_map(w);
    assert_true(tn_succeeded(tn_navmesh_create(m->w, m->h, &cfg, NULL, &ref, NULL)));
    assert_true(tn_succeeded(tn_navmesh_build(ref, m, NULL)));
    assert_true(tn_succeeded(tn_navquery_create(ref, NULL, &rq, NULL)));
    static float a[2 * 4096], b[2 * 4096];
    int found = 0;
    for (int i = 0; i < 40; i++) {
        float sx = (float)(8 + (i * 97) % ((W - 2) * 16)), sy = (float)(8 + (i * 53) % 40);
        float gx = (float)(8 + (i * 31) % ((W - 2) * 16)), gy = (float)(H * 16 - 40);
        int na = tn_wnav_path(w, sx, sy, gx, gy, 0, a, 4096);
        int nb = 0;
        tn_status st = tn_navquery_find_path(rq, sx, sy, gx, gy, 0, b, 4096, &nb, NULL);
        if (tn_failed(st))
            nb = 0;
        else
            nb -= 1; /* tn_wnav_path leaves out the start */
        assert_true((na > 0) == (nb > 0));
        found += na > 0;
        /* equal lengths (a grid of blocks has ties between equal paths) */
        double la = 0, lb = 0;
        for (int j = 0; j < na; j++)
            la += hypot(a[2 * j] - (j ? a[2 * j - 2] : sx), a[2 * j + 1] - (j ? a[2 * j - 1] : sy));
        for (int j = 0; j < nb; j++)
            lb += hypot(b[2 * j + 2] - b[2 * j], b[2 * j + 3] - b[2 * j + 1]);
        assert_true(fabs(la - lb) < 1e-3 * (1 + lb));
    }
    assert_true(found >= 30);
    tn_navquery_destroy(rq);
    tn_navmesh_destroy(ref);
    tn_world_destroy(w);
}

/* The mesh's revision goes on across a map switch: the new map's mesh is
 * a new part whose count started again at 1, the revision the old map's
 * first mesh had, so a cache keyed by the revision (a recorded search's
 * triangle ids) took the new mesh for the one it was made on. */
static void test_revision_goes_on_across_maps(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    uint32_t seen[4];
    seen[0] = tn_wnav_revision(w);
    tn_error err;
    const char *maps[3] = {"maps/arena.map", "maps/demo.map", "maps/demo.map"};
    for (int k = 0; k < 3; k++) {
        assert_true(tn_succeeded(tn_world_replace_map(w, tu_load_map(maps[k]), &err)));
        seen[k + 1] = tn_wnav_revision(w);
        for (int j = 0; j <= k; j++) assert_true(seen[k + 1] != seen[j]);
        assert_true(seen[k + 1] > seen[k]);
    }
    tn_world_destroy(w);
}

/* A world given a clock at creation (the window's) shows the navmesh's
 * first build time from the start: its HUD said "82 triangles, 1 region"
 * with no time until an edit (a playtest found); without one (headless)
 * nothing is timed. */
static double tick_s;
static double fake_clock(void) { return tick_s += 0.001; }
static void test_first_build_timed(void **state)
{
    (void)state;
    tn_world_config cfg = tn_world_default_config();
    assert_null(cfg.clock);
    cfg.clock = fake_clock;
    tn_world *w = NULL;
    tn_error e;
    if (tn_failed(tn_world_create(tu_load_map("maps/demo.map"), &cfg, NULL, &w, &e)))
        fail_msg("%s", e.msg);
    char hud[1024];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "navmesh: 82 triangles, 1 region, built in ")) fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
    w = tu_load_world("maps/demo.map", 1);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "navmesh: 82 triangles, 1 region\n")) fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_world_subsystem),
        cmocka_unit_test(test_navpath_goal_moved),
        cmocka_unit_test(test_first_build_timed),
        cmocka_unit_test(test_radius_message_follows),
        cmocka_unit_test(test_edit_message_follows),
        cmocka_unit_test(test_mesh_fits_content),
        cmocka_unit_test(test_revision_goes_on_across_maps),
    };
    return cmocka_run_group_tests_name("wnav", tests, NULL, NULL);
}
