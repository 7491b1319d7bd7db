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

#include "testutil.h"
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
    assert_non_null(strstr(hud, "path "));
    counter c = {0, 0, 0};
    tn_debug_draw dd = {.user = &c, .line = c_line, .tri = c_tri};
    tn_world_draw(w, &dd, TN_OVERLAY_NAVMESH);
    assert_true(c.tris > tris); /* triangles and the corridor */
    assert_true(c.lines > 0);

    /* a one-way platform leaves flyers' free space alone: no rebuild */
    assert_int_equal(tn_world_edit(w, 8, 2, TN_EDIT_ONEWAY, &err), TN_OK);
    assert_int_equal(tn_wnav_revision(w), rev);
    /* a block does: the wall grows to the top, the tool's path is replanned */
    for (int y = 0; y < 4; y++) assert_int_equal(tn_world_edit(w, 5, y, TN_EDIT_BLOCK, &err), TN_OK);
    assert_true(tn_wnav_revision(w) > rev);
    tn_navmesh_get_view(tn_wnav_mesh(w), &v);
    assert_int_equal(v.nregions, 2);
    assert_false(tn_wnav_los(w, 8, 8, 168, 8));
    assert_int_equal(tn_wnav_path(w, 40, 136, 136, 136, 0, xy, 32), 0);
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    /* a click into the other region is refused with a message */
    tn_status s = tn_world_click(w, 9, 8, TN_CLICK_LEFT, false, &err);
    assert_true(tn_failed(s) && tn_status_detail(s, TN_UNREACHABLE));
    assert_non_null(strstr(err.msg, "another region"));
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    /* reopen and replace the map: everything rebuilt */
    assert_int_equal(tn_world_edit(w, 5, 2, TN_EDIT_BLOCK, &err), TN_OK);
    assert_int_equal(tn_world_click(w, 9, 8, TN_CLICK_LEFT, false, &err), TN_OK);
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    assert_int_equal(tn_world_replace_map(w, tu_load_map("tests/data/nav_rooms.map"), &err), TN_OK);
    tn_navmesh_get_view(tn_wnav_mesh(w), &v);
    assert_int_equal(v.nregions, 2);
    assert_int_equal(tn_world_check(w, &err), TN_OK);
    tn_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_world_subsystem),
    };
    return cmocka_run_group_tests_name("wnav", tests, NULL, NULL);
}
