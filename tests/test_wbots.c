/* Tests for the world's bots subsystem (tn_wbots.c) through the world API:
 * the goto tool on every hand-made map under the real physics, the JSON
 * section, the HUD line, cancelling by a key, extra bots, edit refusal,
 * drawing and map replacement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testutil.h"

#include <stdatomic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(__STDC_NO_THREADS__)
#include <threads.h>
#endif

#include "tn_levelgen.h"
#include "tn_wbots.h"
#include "tn_wparts.h"

static tn_world *world(const char *map)
{
    tn_world *w = NULL;
    tn_error err;
    tn_world_config c = tn_world_default_config();
    if (tn_failed(tn_world_create(tu_load_map(map), &c, NULL, &w, &err))) fail_msg("%s", err.msg);
    return w;
}

/* A world on `map` (one step in, so the body stands) whose character was
 * sent to (x, y) with the goto tool. */
static tn_world *sent_to(const char *map, int x, int y)
{
    tn_world *w = world(map);
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, x, y, TN_CLICK_LEFT, false, NULL)));
    return w;
}

static void dest_of(const tn_world *w, int *x, int *y)
{
    *x = *y = -1;
    for (int ty = 0; ty < tn_world_map(w)->h; ty++)
        for (int tx = 0; tx < tn_world_map(w)->w; tx++)
            if (tn_map_mark(tn_world_map(w), tx, ty) == TN_MARK_DEST) *x = tx, *y = ty;
}

static const char *json(const tn_world *w)
{
    static char buf[4096];
    int n = tn_world_json(w, buf, sizeof buf);
    assert_true(n > 0 && (size_t)n < sizeof buf);
    return buf;
}

/* Click the destination with the goto tool and step until the bot stops. */
static tn_bot_info go(tn_world *w, int max_steps)
{
    int dx, dy;
    dest_of(w, &dx, &dy);
    assert_true(tn_succeeded(tn_world_set_tool(w, TN_TOOL_GOTO)));
    tn_error err;
    assert_true(tn_succeeded(tn_world_click(w, dx, dy, TN_CLICK_LEFT, false, &err)));
    const tn_bot *bot = tn_wbots_character_bot(w);
    assert_non_null(bot);
    for (int f = 0; f < max_steps && tn_bot_active(bot); f++) tn_world_step(w);
    return tn_bot_get_info(bot);
}

static void arrive(const char *map)
{
    tn_world *w = world(map);
    tn_bot_info i = go(w, 1500);
    if (i.state != TN_BOT_ARRIVED) fail_msg("%s: %s", map, tn_bot_state_name(i.state));
    int tx, ty;
    tn_body_tile(tn_world_character(w), tn_world_phys(w), &tx, &ty);
    /* within half a step of the goal column (float walking), on its row */
    float dx = tn_world_character(w)->x - (float)(i.goal_x * TN_TILE_PX);
    assert_true(dx > -1.34f && dx < 1.34f);
    assert_int_equal(ty, i.goal_y);
    assert_true(tn_world_character(w)->on_ground);
    char want[128];
    snprintf(want, sizeof want,
             "\"bot\":{\"state\":\"arrived\",\"goal_x\":%d,\"goal_y\":%d,\"arrived\":true,",
             i.goal_x, i.goal_y);
    assert_non_null(strstr(json(w), want));
    tn_world_destroy(w);
}

static void test_goto_arrives_on_hand_made_maps(void **state)
{
    (void)state;
    arrive("tests/data/path_ledge4.map");
    arrive("tests/data/path_gap.map");
    arrive("tests/data/path_oneway_up.map");
    arrive("tests/data/path_oneway_drop.map");
    arrive("tests/data/path_ceiling.map");
    /* the 5-tile ledge with the slider at 5 */
    tn_world *w = world("tests/data/path_ledge5.map");
    tn_bot_info i = go(w, 600);
    assert_int_equal(i.state, TN_BOT_PARTIAL);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5, NULL)));
    i = go(w, 1500);
    assert_int_equal(i.state, TN_BOT_ARRIVED);
    tn_world_destroy(w);
}

static void test_partial_json(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_partial.map");
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
    tn_bot_info i = go(w, 1000);
    assert_int_equal(i.state, TN_BOT_PARTIAL);
    assert_non_null(strstr(json(w), "\"bot\":{\"state\":\"partial\",\"goal_x\":13,\"goal_y\":8,"
                                    "\"arrived\":false,\"path_nodes\":"));
    int tx, ty;
    tn_body_tile(tn_world_character(w), tn_world_phys(w), &tx, &ty);
    assert_true(tx >= 9 && tx <= 10);
    assert_int_equal(ty, 8);
    tn_world_destroy(w);
}

static void test_idle_json_and_hud(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_gap.map");
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
    assert_non_null(strstr(json(w), ",\"bot\":{\"state\":\"idle\",\"goal_x\":-1,\"goal_y\":-1,"
                                    "\"arrived\":false,\"path_nodes\":0,\"replans\":0,"
                                    "\"expanded\":0,\"extra_bots\":0"));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    /* the line names the planner before any goto too, and follows G and
     * Shift+G at once */
    assert_non_null(strstr(hud, "bot [classic]: idle (goto tool: left-click a tile)"));
    tn_wbots_set_heuristic(w, TN_PATH_FAST);
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [classic, fast A*]: idle"));
    tn_wbots_set_heuristic(w, TN_PATH_OPTIMAL);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 1, NULL))); /* graph */
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [graph]: idle"));
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    tn_bot_info first = go(w, 5);
    tn_world_hud(w, hud, sizeof hud);
    char want[96];
    snprintf(want, sizeof want, "goto (%d,%d): %d tiles, ", first.goal_x, first.goal_y,
             first.raw_nodes);
    assert_non_null(strstr(hud, want));
    snprintf(want, sizeof want, " frames, %d states | search n/a", first.expanded);
    assert_non_null(strstr(hud, want));
    /* an edit under the plan: the HUD labels the re-plan with its count and
     * reason and keeps the click's own numbers */
    tn_error err;
    assert_true(tn_succeeded(tn_world_edit(w, 17, 2, TN_EDIT_ONEWAY, &err)));
    for (int i = 0; i < 3; i++) tn_world_step(w);
    tn_bot_info again = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(again.replans, 1);
    assert_string_equal(again.plan_reason, "map edited");
    tn_world_hud(w, hud, sizeof hud);
    snprintf(want, sizeof want, " frames, %d states | re-plan 1 (map edited): ", first.expanded);
    assert_non_null(strstr(hud, want));
    tn_world_destroy(w);
}

/* The frames of the HUD's classic answer (a classic bot's run of the plan
 * under the physics, beside the graph's simulated plan frames) are the
 * frames the character's own classic trip then takes, step for step. */
static void test_classic_answer_frames_are_the_trip(void **state)
{
    (void)state;
    const char *maps[] = {"tests/data/path_gap.map", "tests/data/path_ledge4.map", "maps/demo.map"};
    for (int k = 0; k < 3; k++) {
        tn_world *w = world(maps[k]);
        assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
        tn_world_step(w);
        int dx, dy;
        dest_of(w, &dx, &dy);
        if (k == 2) dx = 70, dy = 10; /* demo: a far ledge up right */
        assert_true(tn_succeeded(tn_world_set_tool(w, TN_TOOL_GOTO)));
        assert_true(tn_succeeded(tn_world_click(w, dx, dy, TN_CLICK_LEFT, false, NULL)));
        char hud[512];
        tn_world_hud(w, hud, sizeof hud);
        const char *g = strstr(hud, "goto (");
        assert_non_null(g);
        int gx, gy, tiles, frames = -1;
        char word[16] = ""; /* (a literal after the last conversion is not counted) */
        if (sscanf(g, "goto (%d,%d): %d tiles, %d %15[a-z]", &gx, &gy, &tiles, &frames, word) !=
                5 ||
            strcmp(word, "frames"))
            fail_msg("%s: HUD: %s", maps[k], hud);
        const tn_bot *bot = tn_wbots_character_bot(w);
        int steps = 0;
        while (tn_bot_active(bot) && steps < 100000) {
            tn_world_step(w);
            steps++;
        }
        /* (the last step only sees the bot there: plans do not count it) */
        if (tn_bot_get_info(bot).state != TN_BOT_ARRIVED || steps - 1 != frames)
            fail_msg("%s: goto (%d,%d): the HUD said %d frames, the trip took %d steps (%s)",
                     maps[k], gx, gy, frames, steps, tn_bot_state_name(tn_bot_get_info(bot).state));
        char said[96];
        snprintf(said, sizeof said, ") in %d frames (", frames); /* (the goal, maybe the click) */
        if (strncmp(tn_world_message_text(w), "arrived at (", 12) ||
            !strstr(tn_world_message_text(w), said))
            fail_msg("%s: %s", maps[k], tn_world_message_text(w));
        tn_world_destroy(w);
    }
}

static double fake_now;
static double fake_clock(void)
{
    fake_now += 25e-6; /* every reading 25 us later */
    return fake_now;
}

/* A world on the demo map whose character, mid-jump, was sent to (22,34)
 * by a goto click, with planner p (0 classic, 1 graph). */
static tn_world *clicked_in_a_jump(int p)
{
    tn_world *w = world("maps/demo.map");
    assert_true(tn_succeeded(tn_world_set(w, "planner", p, NULL)));
    tn_world_step(w);
    tn_world_set_input(w, (tn_input){.jump = true});
    for (int f = 0; f < 8; f++) tn_world_step(w);
    tn_world_set_input(w, (tn_input){0});
    tn_world_step(w);
    assert_false(tn_world_character(w)->on_ground);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 22, 34, TN_CLICK_LEFT, false, NULL)));
    return w;
}

/* A click in the air: the HUD's classic frames count from the landing, as
 * the graph's plan (made on landing) does; they were counted from the
 * click, the rest of the fall in them (a playtest: 196 against 114, the
 * gap 24 frames too wide).  The classic trip of the same click, from its
 * landing on, takes those frames. */
static void test_classic_frames_from_landing(void **state)
{
    (void)state;
    tn_world *w = clicked_in_a_jump(1);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    const char *c = strstr(hud, " | classic: found, ");
    int tiles, frames = -1;
    char word[16] = "";
    if (!c || sscanf(c, " | classic: found, %d tiles, %d %15[a-z]", &tiles, &frames, word) != 3 ||
        strcmp(word, "frames"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
    w = clicked_in_a_jump(0); /* the classic bot makes that trip */
    const tn_bot *bot = tn_wbots_character_bot(w);
    int steps = 0, landed_at = -1;
    while (steps < 5000 && tn_bot_active(bot)) {
        tn_world_step(w);
        steps++;
        if (landed_at < 0 && tn_world_character(w)->on_ground) landed_at = steps;
    }
    assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_ARRIVED);
    /* the frames after the landing step, less the last (it only saw it there) */
    if (frames != steps - landed_at - 1)
        fail_msg("HUD %d frames; landed at step %d, arrived at step %d", frames, landed_at, steps);
    tn_world_destroy(w);
}

/* A click in the air: "arrived at ... in N frames" counts from the
 * landing, as the plan made there does ("planned on landing, a graph plan
 * of N frames") and as the README says; it counted from the click, the
 * fall before the plan in it (a playtest: planned 102, arrived in 114).
 * Both planners: the frames after the landing step, less the last. */
static void test_arrival_frames_from_landing(void **state)
{
    (void)state;
    for (int p = 0; p <= 1; p++) {
        tn_world *w = clicked_in_a_jump(p);
        const tn_bot *bot = tn_wbots_character_bot(w);
        int steps = 0, landed_at = -1, planned = -1;
        while (steps < 5000 && tn_bot_active(bot)) {
            tn_world_step(w);
            steps++;
            if (landed_at < 0 && tn_world_character(w)->on_ground) landed_at = steps;
            if (p && planned < 0)
                sscanf(tn_world_message_text(w),
                       "goto (22,34): planned on landing, a graph plan of %d frames", &planned);
        }
        assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_ARRIVED);
        int said = -1;
        if (sscanf(tn_world_message_text(w), "arrived at (22,34) in %d frames", &said) != 1 ||
            said != steps - landed_at - 1)
            fail_msg("planner %d: landed at step %d, arrived at step %d: %s", p, landed_at, steps,
                     tn_world_message_text(w));
        if (p && said != planned)
            fail_msg("graph: planned %d frames on landing: %s", planned, tn_world_message_text(w));
        tn_world_destroy(w);
    }
}

static void test_hud_times_searches_with_a_clock(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_gap.map");
    tn_world_set_clock(w, fake_clock);
    go(w, 5);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "search 25 us"));
    /* the JSON stays free of timings (deterministic) */
    char bot[512];
    const char *j = strstr(json(w), "\"bot\":{");
    assert_non_null(j);
    snprintf(bot, sizeof bot, "%.*s", (int)(strchr(j, '}') - j), j);
    assert_null(strstr(bot, "us\""));
    assert_null(strstr(bot, "time"));
    tn_world_destroy(w);
}

/* The HUD's last-click comparison: the classic planner's answer is the
 * real search's (a 2-tile walk is found, 3 tiles long, not "partial"), and
 * with the classic planner the graph's line is there too. */
static void test_hud_compares_planners(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_ledge4.map");
    tn_world_set_clock(w, fake_clock);
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 5, 10, TN_CLICK_LEFT, false, NULL)));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [graph]"));
    /* its frames: a classic bot's run of the plan (test_classic_answer_frames_are_the_trip) */
    if (!strstr(hud, " | classic: found, 3 tiles, ") || !strstr(hud, " frames, 25 us"))
        fail_msg("HUD: %s", hud);
    assert_null(strstr(hud, "partial"));
    /* a walk on the floor: one leg, in the singular */
    if (!strstr(hud, " frames, 1 leg | 2 nodes | search ")) fail_msg("HUD: %s", hud);
    for (int f = 0; f < 200; f++) tn_world_step(w);
    assert_int_equal(tn_bot_get_info(tn_wbots_character_bot(w)).state, TN_BOT_ARRIVED);
    /* an unreachable goal: both say partial */
    assert_true(tn_succeeded(tn_world_click(w, 20, 0, TN_CLICK_LEFT, false, NULL)));
    assert_true(tn_succeeded(tn_world_edit(w, 15, 10, TN_EDIT_BLOCK, NULL)));
    assert_true(tn_succeeded(tn_world_edit(w, 15, 9, TN_EDIT_BLOCK, NULL)));
    assert_true(tn_succeeded(tn_world_edit(w, 15, 8, TN_EDIT_BLOCK, NULL)));
    assert_true(tn_succeeded(tn_world_edit(w, 15, 7, TN_EDIT_BLOCK, NULL)));
    assert_true(tn_succeeded(tn_world_edit(w, 15, 6, TN_EDIT_BLOCK, NULL)));
    assert_true(tn_succeeded(tn_world_click(w, 20, 6, TN_CLICK_LEFT, false, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, " | classic: partial, "));
    /* the plan is named by the bot's state (it said "found:" for partial plans) */
    assert_non_null(strstr(hud, "bot [graph]: partial | to the closest spot: "));
    /* the classic planner: its own numbers, and the graph's answer while its
     * graph (built for the graph planner) has every edit: a review saw only
     * "graph (not selected)" on the classic side of the comparison */
    const tn_surf *g = tn_wbots_character_graph(w); /* (NULL once classic) */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    assert_true(tn_succeeded(tn_world_click(w, 3, 10, TN_CLICK_LEFT, false, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [classic]: moving | goto (3,10): 3 tiles, ") ||
        !strstr(hud, " frames, 3 states | search 25 us | graph: found, 7 frames, 25 us"))
        fail_msg("HUD: %s", hud);
    /* an edit made with the classic planner: the edit leaves that graph
     * alone, the next classic click repairs it and asks it (it said
     * "graph (not selected)" from the first edit on) */
    int local0, full0, local, full;
    tn_surf_repair_counts(g, &local0, &full0);
    assert_true(tn_succeeded(tn_world_edit(w, 10, 3, TN_EDIT_BLOCK, NULL)));
    tn_surf_repair_counts(g, &local, &full);
    assert_int_equal(local, local0);
    assert_true(tn_succeeded(tn_world_click(w, 5, 10, TN_CLICK_LEFT, false, NULL)));
    tn_surf_repair_counts(g, &local, &full);
    assert_int_equal(local, local0 + 1);
    assert_true(tn_surf_in_sync(g, tn_world_map(w)));
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [classic]"));
    if (!strstr(hud, " | graph: found, ")) fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* The HUD counts in the singular too: on td_maze the far side is out of
 * reach, and the graph's answer is the floor it stands on (one node
 * searched, one leg), not "1 legs | 1 nodes". */
static void test_hud_singular(void **state)
{
    (void)state;
    tn_world *w = world("maps/td_maze.map");
    for (int f = 0; f < 600 && !tn_world_character(w)->on_ground; f++) tn_world_step(w);
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 76, 43, TN_CLICK_LEFT, false, NULL)));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: partial | to the closest spot: ") ||
        !strstr(hud, " frames, 1 leg | 1 node |"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
    /* the classic answer of a 3x9 character that cannot leave its tile on
     * the demo map: "partial, 1 tile" (it said "1 tiles") */
    w = world("maps/demo.map");
    assert_true(tn_succeeded(tn_world_set(w, "char_width", 3, NULL)));
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 9, NULL)));
    for (int f = 0; f < 600 && !tn_world_character(w)->on_ground; f++) tn_world_step(w);
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_click(w, 55, 35, TN_CLICK_LEFT, false, NULL);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, " | classic: no path (no closer tile), ")) fail_msg("HUD: %s", hud);
    /* the classic planner's own line */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    tn_world_click(w, 55, 35, TN_CLICK_LEFT, false, NULL);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "goto (55,35): no path (no closer tile), ") || strstr(hud, " 1 tiles") ||
        strstr(hud, " 1 states") || strstr(hud, "its run stuck"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A goal out of reach with no tile closer than the start: the graph bot
 * says "no path", and so does the comparison with the classic planner,
 * whose search gives a 1-tile partial path (the start alone), which the
 * classic bot itself takes for no path too.  The comparison said
 * "classic: partial, 1 tile" beside the graph's "no path" (seen in the
 * window; 56 of 6,912 clicks on arena.map, 2,710 of 10,800 on td_maze). */
static void test_hud_compare_no_closer_tile(void **state)
{
    (void)state;
    tn_world *w = world("maps/arena.map");
    tn_world_place_character(w, 21 * 16, 33 * 16); /* on the floor at tile x 21 */
    for (int f = 0; f < 600 && !tn_world_character(w)->on_ground; f++) tn_world_step(w);
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_click(w, 21, 13, TN_CLICK_LEFT, false, NULL);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (tn_bot_get_info(tn_wbots_character_bot(w)).state != TN_BOT_NO_PATH)
        fail_msg("at (%g,%g): HUD: %s", (double)tn_world_character(w)->x,
                 (double)tn_world_character(w)->y, hud);
    if (!strstr(hud, "bot [graph]: no path | ") ||
        !strstr(hud, " | classic: no path (no closer tile), ") || strstr(hud, "partial"))
        fail_msg("HUD: %s", hud);
    /* the classic planner's bot, same click: no path too */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    tn_world_click(w, 21, 13, TN_CLICK_LEFT, false, NULL);
    tn_world_hud(w, hud, sizeof hud);
    if (tn_bot_get_info(tn_wbots_character_bot(w)).state != TN_BOT_NO_PATH)
        fail_msg("HUD: %s", hud);
    /* and its line says so: nothing ran (it said "1 tile, its run stuck") */
    if (!strstr(hud, "bot [classic]: no path | goto (21,") ||
        !strstr(hud, "): no path (no closer tile), ") || strstr(hud, "its run stuck"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
    /* the same goal for both: on td_maze a click in the air beside a
     * wall's top is, for the graph bot, a spot on the wall's edge (out of
     * reach); the classic comparison was asked for the floor below it,
     * where the character stands: "classic: found, 1 tile" */
    w = world("maps/td_maze.map");
    tn_world_place_character(w, 12 * 16, 42 * 16);
    for (int f = 0; f < 600 && !tn_world_character(w)->on_ground; f++) tn_world_step(w);
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_click(w, 12, 4, TN_CLICK_LEFT, false, NULL);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: no path | ") || strstr(hud, "classic: found"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* Graph re-plans are counted and named like the classic ones: edits under
 * the plan (the reviewer's script: a wall built across the way). */
static void test_graph_replans_counted(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    for (int f = 0; f < 10; f++) tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 70, 28, TN_CLICK_LEFT, false, NULL)));
    for (int f = 10; f < 120; f++) tn_world_step(w);
    assert_non_null(strstr(json(w), "\"replans\":0,"));
    for (int y = 28; y <= 40; y++) tn_world_edit(w, 48, y, TN_EDIT_BLOCK, NULL);
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_non_null(strstr(json(w), "\"replans\":1,"));
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.replans, 1);
    assert_string_equal(i.plan_reason, "map edited");
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [graph]: moving | found: "));
    assert_non_null(strstr(hud, " | re-plan 1 (map edited) | "));
    /* a new goal starts the count again */
    assert_true(tn_succeeded(tn_world_click(w, 60, 8, TN_CLICK_LEFT, false, NULL)));
    assert_non_null(strstr(json(w), "\"replans\":0,"));
    tn_world_destroy(w);
}

/* A tile on a remaining edge of `bot`'s graph plan (g) whose block breaks
 * that edge, made a block behind the map's back (no revision: as a bug
 * that changed the map without telling would): true, the tile in *tx, *ty
 * (set back to empty by the caller). */
static bool break_plan_edge(tn_world *w, const tn_bot *bot, const tn_surf *g, const tn_body *b,
                            int *tx, int *ty)
{
    tn_map *m = (tn_map *)tn_world_map(w);
    int nl, leg;
    const tn_surf_leg *legs = tn_bot_legs(bot, &nl, &leg);
    for (int k = leg; k < nl; k++) {
        int x0, y0, x1, y1;
        if (legs[k].edge < 0 || !tn_surf_edge_box(g, m, legs[k].edge, &x0, &y0, &x1, &y1)) continue;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                const int bx = (int)(b->x / 16.0f), by = (int)(b->y / 16.0f);
                if (tn_map_tile(m, x, y) != TN_TILE_EMPTY ||
                    (x >= bx - 1 && x <= bx + b->w && y >= by - 1 && y <= by + b->h))
                    continue;
                m->tile[y * m->w + x] = TN_TILE_BLOCK;
                if (!tn_surf_edge_valid(g, m, legs[k].edge)) {
                    *tx = x, *ty = y;
                    return true;
                }
                m->tile[y * m->w + x] = TN_TILE_EMPTY;
            }
    }
    return false;
}

/* tn_world_check replays the remaining edges of every graph plan, the
 * character's and the extra bots' (it checked the character's alone, and
 * no test saw it fail): a map changed without a revision fails it, naming
 * whose plan and which edge. */
static void test_check_replays_every_plan(void **state)
{
    (void)state;
    tn_world *w = sent_to("maps/demo.map", 60, 8);
    for (int f = 0; f < 5; f++) tn_world_step(w);
    tn_error e;
    assert_true(tn_succeeded(tn_world_check(w, &e)));
    const tn_surf *g = tn_wbots_character_graph(w);
    int tx, ty;
    assert_true(break_plan_edge(w, tn_wbots_character_bot(w), g, tn_world_character(w), &tx, &ty));
    assert_true(tn_failed(tn_world_check(w, &e)));
    if (!strstr(e.msg, "character's graph plan edge ")) fail_msg("%s", e.msg);
    tn_map *m = (tn_map *)tn_world_map(w);
    m->tile[ty * m->w + tx] = TN_TILE_EMPTY;
    assert_true(tn_succeeded(tn_world_check(w, &e)));
    /* an extra bot's plan: the character idle, bot 1 walking */
    tn_world_destroy(w);
    w = world("maps/demo.map");
    assert_true(tn_succeeded(tn_world_set(w, "bots", 1.0, NULL)));
    bool broke = false;
    for (int f = 0; f < 600 && !broke; f++) {
        tn_world_step(w);
        assert_true(tn_succeeded(tn_world_check(w, &e)));
        const tn_bot *bot = tn_wbots_bot(w, 0);
        if (tn_bot_graph(bot) && tn_bot_get_info(bot).state == TN_BOT_MOVING)
            broke = break_plan_edge(w, bot, tn_bot_graph(bot), tn_wbots_body(w, 0), &tx, &ty);
    }
    assert_true(broke);
    assert_true(tn_failed(tn_world_check(w, &e)));
    if (!strstr(e.msg, "bot 1's graph plan edge ")) fail_msg("%s", e.msg);
    m = (tn_map *)tn_world_map(w);
    m->tile[ty * m->w + tx] = TN_TILE_EMPTY;
    assert_true(tn_succeeded(tn_world_check(w, &e)));
    tn_world_destroy(w);
}

/* The graph in use is repaired at each edit, not when the next plan asks
 * for it: edits made while the bot stands idle do not pile up into one
 * long frame at the next goto (a 256x256 level paid 243 ms for 20 edits
 * then a goto: a rebuild). */
static void test_graph_follows_each_edit(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    for (int f = 0; f < 10; f++) tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 70, 28, TN_CLICK_LEFT, false, NULL)));
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_non_null(g);
    int local0, full0, local, full;
    tn_surf_repair_counts(g, &local0, &full0);
    int made = 0;
    for (int x = 60; x < 70; x++) {
        if (tn_map_tile(tn_world_map(w), x, 5) != TN_TILE_EMPTY) continue;
        assert_true(tn_succeeded(tn_world_edit(w, x, 5, TN_EDIT_BLOCK, NULL)));
        made++;
        tn_surf_repair_counts(g, &local, &full); /* no step between */
        assert_int_equal(local - local0, made);
        assert_int_equal(full - full0, 0);
    }
    assert_true(made >= 3);
    assert_true(tn_succeeded(tn_world_check(w, NULL)));
    /* the classic planner: its graph is left alone (synced when used again) */
    assert_true(tn_succeeded(tn_wbots_set_planner(w, 0, NULL)));
    assert_true(tn_succeeded(tn_world_edit(w, 60, 6, TN_EDIT_BLOCK, NULL)));
    int local2, full2;
    tn_surf_repair_counts(g, &local2, &full2);
    assert_int_equal(local2, local);
    tn_world_destroy(w);
}

/* A click on a one-way platform means its top, as one on a block does: a
 * 1x9 character with no room over the platform at (60,9) of the demo map
 * is refused with the reason (a playtest was sent to (60,12), under the
 * platform, with "(60,12) is out of reach" as the only word); a 1x2 one
 * stands on it. */
static void test_oneway_click_means_its_top(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    tn_world_step(w);
    assert_int_equal(tn_map_tile(tn_world_map(w), 60, 9), TN_TILE_ONEWAY);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 60, 9, TN_CLICK_LEFT, false, NULL)));
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.goal_x, 60);
    assert_int_equal(i.goal_y, 8);
    tn_bot_stop((tn_bot *)tn_wbots_character_bot(w));
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 9, NULL)));
    for (int f = 0; f < 30; f++) tn_world_step(w);
    tn_error err;
    tn_status st = tn_world_click(w, 60, 9, TN_CLICK_LEFT, false, &err);
    assert_true(tn_failed(st));
    if (!strstr(err.msg, "no room for a 1x9 character on top of the one-way platform at (60,9)"))
        fail_msg("%s", err.msg);
    assert_int_not_equal(tn_bot_get_info(tn_wbots_character_bot(w)).goal_y, 12);
    tn_world_destroy(w);
}

/* A click on the tile the character stands on says so; the arrival a
 * step later does not replace it with "arrived ... in 1 frame" (a
 * playtest's finding), with either planner. */
static void test_goto_where_it_stands(void **state)
{
    (void)state;
    for (int planner = 0; planner <= 1; planner++) {
        tn_world *w = world("maps/demo.map");
        assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
        tn_world_step(w);
        int tx, ty;
        tn_body_tile(tn_world_character(w), tn_world_phys(w), &tx, &ty);
        tn_world_set_tool(w, TN_TOOL_GOTO);
        assert_true(tn_succeeded(tn_world_click(w, tx, ty, TN_CLICK_LEFT, false, NULL)));
        char want[80];
        snprintf(want, sizeof want, "goto (%d,%d): the character stands there already", tx, ty);
        if (strcmp(tn_world_message_text(w), want))
            fail_msg("planner %d: %s", planner, tn_world_message_text(w));
        for (int f = 0; f < 5; f++) tn_world_step(w);
        assert_int_equal(tn_bot_get_info(tn_wbots_character_bot(w)).state, TN_BOT_ARRIVED);
        assert_string_equal(tn_world_message_text(w), want);
        tn_world_destroy(w);
    }
}

/* A goal away from the tile clicked (the ground below a click in the air)
 * is named with the click, so the status line's tile is no mystery; a
 * click in the character's box or on the ground under it is not. */
static void test_goal_message_names_the_click(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    /* the README's example: a click at (30,33) on the demo map goes to
     * (30,36), on the one-way platform below (the README said (30,40)) */
    assert_true(tn_succeeded(tn_world_click(w, 30, 33, TN_CLICK_LEFT, false, NULL)));
    if (strncmp(tn_world_message_text(w),
                "goto (30,36) (clicked (30,33)): graph plan of 199 frames", 56) != 0)
        fail_msg("%s", tn_world_message_text(w));
    const tn_map *m = tn_world_map(w);
    /* a free tile with at least 4 free tiles under it, then ground */
    int ax = -1, ay = -1, fy = -1;
    for (int x = 2; x < m->w - 2 && ax < 0; x++)
        for (int y = 2; y + 6 < m->h && ax < 0; y++) {
            int k = 0;
            while (y + k < m->h && tn_map_tile(m, x, y + k) == TN_TILE_EMPTY) k++;
            if (k >= 5 && y + k < m->h && tn_map_tile(m, x, y + k) == TN_TILE_BLOCK &&
                tn_map_tile(m, x + 1, y + k) == TN_TILE_BLOCK)
                ax = x, ay = y, fy = y + k - 1;
        }
    assert_true(ax >= 0);
    assert_true(tn_succeeded(tn_world_click(w, ax, ay, TN_CLICK_LEFT, false, NULL)));
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.goal_y, fy);
    char want[64];
    snprintf(want, sizeof want, "goto (%d,%d) (clicked (%d,%d)): ", i.goal_x, i.goal_y, ax, ay);
    if (!strstr(tn_world_message_text(w), want)) fail_msg("%s", tn_world_message_text(w));
    /* the goal's own tile, its head's and the ground under it: no note */
    const int rows[3] = {fy, fy - 1, fy + 1};
    for (int k = 0; k < 3; k++) {
        assert_true(tn_succeeded(tn_world_click(w, ax, rows[k], TN_CLICK_LEFT, false, NULL)));
        if (strstr(tn_world_message_text(w), "clicked"))
            fail_msg("row %d: %s", rows[k], tn_world_message_text(w));
    }
    tn_world_destroy(w);
}

/* A goto clicked while the bot is in the air: the old goal's plan is not
 * reported as the new goal's (no legs, -1 frames; the reviewer saw "found:
 * 249 frames" of the old goal); the goal's first plan is made on landing
 * and is not a re-plan. */
static void test_graph_goto_in_air(void **state)
{
    (void)state;
    tn_world *w = sent_to("maps/demo.map", 70, 28);
    int f = 0;
    while (f++ < 600 && tn_world_character(w)->on_ground) tn_world_step(w);
    assert_false(tn_world_character(w)->on_ground);
    assert_true(tn_succeeded(tn_world_click(w, 60, 8, TN_CLICK_LEFT, false, NULL)));
    assert_string_equal(tn_world_message_text(w), "goto (60,8): planning when the character lands");
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.state, TN_BOT_MOVING);
    assert_string_equal(i.pending_reason, "new goal");
    assert_non_null(strstr(json(w), "\"goal_x\":60,\"goal_y\":8,"));
    assert_non_null(strstr(json(w), "\"path_nodes\":0,"));
    assert_non_null(strstr(json(w), "\"plan_frames\":-1}"));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [graph]: moving | planning (new goal) on landing"));
    while (f++ < 900 && !tn_world_character(w)->on_ground) tn_world_step(w);
    tn_world_step(w);
    i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.replans, 0);
    assert_string_equal(i.plan_reason, "new goal");
    assert_string_equal(i.pending_reason, "");
    assert_true(i.plan_frames > 0);
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [graph]: moving | found: "));
    tn_world_destroy(w);
}

/* A slider moved mid-jump: the graph plan is dropped until the body lands.
 * The HUD says so (never "found: -1 frames"), the JSON agrees (no legs, -1
 * frames), and the plan made on landing is labelled by the bot's state. */
static void test_graph_replan_after_slider(void **state)
{
    (void)state;
    tn_world *w = sent_to("tests/data/path_ledge4.map", 20, 6);
    int f = 0;
    while (f++ < 300 && tn_world_character(w)->on_ground) tn_world_step(w);
    assert_false(tn_world_character(w)->on_ground);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 2, NULL)));
    tn_world_step(w);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_null(strstr(hud, "-1 frames"));
    assert_non_null(strstr(hud, "re-planning (physics changed) on landing"));
    assert_non_null(strstr(json(w), "\"path_nodes\":0,"));
    assert_non_null(strstr(json(w), "\"plan_frames\":-1}"));
    while (f++ < 600 && !tn_world_character(w)->on_ground) tn_world_step(w);
    tn_world_step(w);
    tn_world_hud(w, hud, sizeof hud);
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_null(strstr(hud, "-1 frames"));
    assert_non_null(strstr(hud, " | re-plan 1 (physics changed)"));
    /* 2 tiles cannot climb the 4-tile ledge: where the body came down
     * decides whether a closer spot is left to walk to (partial) or it
     * stands at the closest already (no plan); the HUD and the JSON say the
     * same either way */
    printf("  after landing: %s\n", hud);
    if (i.state == TN_BOT_NO_PATH) {
        assert_non_null(strstr(hud, "bot [graph]: no path | no plan | "));
        assert_non_null(strstr(json(w), "\"path_nodes\":0,"));
        assert_non_null(strstr(json(w), "\"plan_frames\":-1}"));
    } else {
        assert_int_equal(i.state, TN_BOT_PARTIAL);
        assert_non_null(strstr(hud, "bot [graph]: partial | to the closest spot: "));
        assert_true(i.plan_frames > 0);
        assert_null(strstr(json(w), "\"plan_frames\":-1}"));
    }
    tn_world_destroy(w);
}

/* A 256x256 generated level (bench genmap --kind platformer --size 256
 * --seed 7) whose far corner the classic planner's search cannot reach
 * within the game's 65,536 states: the reviewer's goto said "(243,221) is
 * out of reach" and the HUD's comparison "classic: partial", though the
 * goal is reachable (the graph planner finds it).  The limit is named, and
 * the trip searches again from where the cut-short path ends. */
/* A generated level of mw x mh tiles, the world's allocations through a
 * (NULL: the default one). */
static tn_world *world_gen_with(int mw, int mh, uint64_t seed, const tn_allocator *a)
{
    tn_map *m = NULL;
    tn_error e;
    assert_true(tn_succeeded(tn_map_create(mw, mh, NULL, &m, &e)));
    tn_rng rng;
    tn_rng_seed(&rng, seed, 1);
    assert_true(tn_succeeded(tn_levelgen_platformer(m, &rng, &e)));
    tn_world *w = NULL;
    tn_world_config c = tn_world_default_config();
    if (tn_failed(tn_world_create(m, &c, a, &w, &e))) fail_msg("%s", e.msg);
    return w;
}

/* A generated level of mw x mh tiles. */
static tn_world *world_gen_wh(int mw, int mh, uint64_t seed)
{
    return world_gen_with(mw, mh, seed, NULL);
}

static tn_world *world_gen(int size, uint64_t seed) { return world_gen_wh(size, size, seed); }

static tn_world *world_gen256(void) { return world_gen(256, 7); }

static void test_classic_limit_is_not_out_of_reach(void **state)
{
    (void)state;
    tn_world *w = world_gen256();
    tn_world_step(w);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 243, 221, TN_CLICK_LEFT, false, NULL)));
    const char *msg = tn_world_message_text(w);
    printf("  classic: %s\n", msg);
    assert_null(strstr(msg, "out of reach"));
    assert_non_null(strstr(msg, "search limit (65,536 states) reached"));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    printf("  %s\n", hud);
    assert_non_null(strstr(hud, "bot [classic]: partial (search limit) | "));
    /* the trip goes on: each search from where the last path ended */
    const tn_bot *bot = tn_wbots_character_bot(w);
    int f = 0;
    while (f++ < 20000 && tn_bot_get_info(bot).state != TN_BOT_ARRIVED &&
           (tn_bot_active(bot) || tn_bot_get_info(bot).state == TN_BOT_PARTIAL) &&
           !strstr(tn_world_message_text(w), "stopped at"))
        tn_world_step(w);
    printf("  after %d steps: %s | %s\n", f, tn_bot_state_name(tn_bot_get_info(bot).state),
           tn_world_message_text(w));
    assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_ARRIVED);
    tn_world_destroy(w);
    /* the graph planner (selected) finds the goal; its comparison names
     * the classic answer's limit */
    w = world_gen256();
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 243, 221, TN_CLICK_LEFT, false, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    printf("  %s\n", hud);
    assert_non_null(strstr(hud, "bot [graph]: moving | found: "));
    assert_non_null(strstr(hud, " | classic: limit reached, "));
    tn_world_destroy(w);
}

/* A classic search cut short by its limit whose best tile so far is the
 * start (a goal beside the character behind a wall from the floor to the
 * top, a tall field of one-way platforms on this side: more states than
 * the limit) ends NO_PATH with a path of the start alone; its HUD line
 * said "no path (no closer tile)" and the status line "no path to ... for
 * a 1x2 character with jump height 4", which the search never showed: it
 * only stopped looking. */
static void test_classic_limit_at_the_start_is_no_closer_tile(void **state)
{
    (void)state;
    tn_map *m = NULL;
    tn_error e;
    const int W = 256, H = 200;
    assert_true(tn_succeeded(tn_map_create(W, H, NULL, &m, &e)));
    for (int x = 0; x < W; x++) tn_map_set_tile(m, x, H - 1, TN_TILE_BLOCK, NULL);
    for (int y = H - 5; y > 2; y -= 4)
        for (int x = 1; x < W - 6; x++) tn_map_set_tile(m, x, y, TN_TILE_ONEWAY, NULL);
    for (int y = 0; y < H - 1; y++) tn_map_set_tile(m, W - 4, y, TN_TILE_BLOCK, NULL);
    m->start_x = W - 5;
    m->start_y = H - 2;
    tn_world *w = NULL;
    tn_world_config c = tn_world_default_config();
    if (tn_failed(tn_world_create(m, &c, NULL, &w, &e))) fail_msg("%s", e.msg);
    tn_world_step(w);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_click(w, W - 2, H - 2, TN_CLICK_LEFT, false, NULL);
    const tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    printf("  %s: %s\n", tn_bot_state_name(i.state), tn_world_message_text(w));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    printf("  %s\n", hud);
    assert_int_equal(i.state, TN_BOT_NO_PATH);
    assert_int_equal(i.first_raw_nodes, 1);
    assert_non_null(strstr(hud, "): no path (search limit reached, no closer tile found), "));
    assert_string_equal(tn_world_message_text(w),
                        "goto (254,198): search limit (65,536 states) reached with no tile closer "
                        "than the character's: no path");
    /* the graph planner selected: its comparison with the classic answer
     * (the same search) says no path too; it read "classic: limit
     * reached, 1 tile, its run stuck", as if a path had been found */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 1, NULL)));
    tn_world_click(w, W - 2, H - 2, TN_CLICK_LEFT, false, NULL);
    tn_world_hud(w, hud, sizeof hud);
    printf("  %s\n", hud);
    if (!strstr(hud, " | classic: no path (search limit reached, no closer tile found), ") ||
        strstr(hud, "1 tile") || strstr(hud, "its run stuck"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A trip cut short by the classic search limit goes on with searches from
 * where each path ended (test_classic_limit_is_not_out_of_reach), unless
 * the player took the controls: a key pressed during the cut-short path
 * ends the whole trip, and no search again takes the character back once
 * the key is let go. */
static void test_classic_continuation_not_after_takeover(void **state)
{
    (void)state;
    for (int press = 0; press < 2; press++) {
        tn_world *w = world_gen256();
        tn_world_step(w);
        assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
        tn_world_set_tool(w, TN_TOOL_GOTO);
        assert_true(tn_succeeded(tn_world_click(w, 243, 221, TN_CLICK_LEFT, false, NULL)));
        const tn_bot *bot = tn_wbots_character_bot(w);
        for (int f = 0; f < 100; f++) tn_world_step(w);
        assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_PARTIAL); /* the cut-short path */
        assert_int_equal(tn_bot_get_info(bot).plans, 1);
        if (press) {
            tn_input key = {0};
            key.left = true;
            tn_world_set_input(w, key);
            tn_world_step(w);
            tn_input none = {0};
            tn_world_set_input(w, none);
        }
        for (int f = 0; f < 1500; f++) tn_world_step(w); /* (the path's end: ~850) */
        tn_bot_info i = tn_bot_get_info(bot);
        printf("  %s: %s, %d plans | %s\n", press ? "key pressed" : "no key",
               tn_bot_state_name(i.state), i.plans, tn_world_message_text(w));
        if (press) {
            assert_false(tn_bot_active(bot));
            assert_int_equal(i.state, TN_BOT_IDLE);
            assert_int_equal(i.plans, 1);
        } else {
            assert_true(i.plans > 1); /* searched again from the path's end */
        }
        tn_world_destroy(w);
    }
}

/* A slider moved on the ground (while paused: no step follows): the HUD
 * drops the old plan at once.  The reviewer's paused HUD kept "found: 355
 * frames, 7 legs | 101 nodes" until a single step. */
static void test_hud_slider_without_a_step(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    tn_world_step(w);
    assert_true(tn_world_character(w)->on_ground);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [graph]: moving | found: "));
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 2, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: moving | re-planning (physics changed) at the next step") ||
        strstr(hud, "found: "))
        fail_msg("HUD: %s", hud);
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 3, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "re-planning (physics changed) at the next step")) fail_msg("HUD: %s", hud);
    tn_world_step(w);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "| re-plan 1 (physics changed)") || strstr(hud, "at the next step"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A trip left out of reach is tried again when a slider or an edit puts
 * its goal in reach (it stood at the closest spot until the next goto):
 * once per change, not while the slider is held, not after the player
 * took the controls.  The goal: the top of a wall 3 tiles high, out of
 * reach of a jump of 2 tiles, in reach of 4 or of a step built below. */
static const char RETRY_MAP[] = "tilenav-map 1\n"
                                "size 18 10\n"
                                "tiles\n"
                                "##################\n"
                                "#................#\n"
                                "#................#\n"
                                "#................#\n"
                                "#................#\n"
                                "#................#\n"
                                "#..........#######\n"
                                "#..P.......#######\n"
                                "#..........#######\n"
                                "##################\n";

static tn_world *retry_world(int planner, float jump)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_parse(RETRY_MAP, strlen(RETRY_MAP), "retry", NULL, &m, NULL)));
    tn_world *w = NULL;
    tn_error err;
    tn_world_config c = tn_world_default_config();
    if (tn_failed(tn_world_create(m, &c, NULL, &w, &err))) fail_msg("%s", err.msg);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", jump, NULL)));
    assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
    for (int f = 0; f < 60; f++) tn_world_step(w); /* (landed) */
    assert_true(tn_succeeded(tn_world_goto(w, 14, 5, NULL)));
    /* whose reach: the classic planner's model crosses less than the
     * physics allows (it said "out of reach" where the player reaches) */
    const char *said = tn_world_message_text(w);
    if (!strstr(said, planner ? "(14,5) is out of reach: "
                              : "(14,5) is out of the classic planner's reach"))
        fail_msg("planner %d: %s", planner, said);
    const tn_bot *bot = tn_wbots_character_bot(w);
    for (int f = 0; f < 600 && tn_bot_active(bot); f++) tn_world_step(w);
    const tn_bot_state st = tn_bot_get_info(bot).state;
    if (st != TN_BOT_PARTIAL && st != TN_BOT_NO_PATH) fail_msg("%s", tn_bot_state_name(st));
    return w;
}

static tn_bot_state run_trip(tn_world *w, int steps)
{
    const tn_bot *bot = tn_wbots_character_bot(w);
    tn_world_step(w); /* (the step that tries again) */
    for (int f = 0; f < steps && tn_bot_active(bot); f++) tn_world_step(w);
    return tn_bot_get_info(bot).state;
}

static void test_out_of_reach_retried_on_change(void **state)
{
    (void)state;
    for (int planner = 0; planner <= 1; planner++) {
        /* a slider: tried again once it is let go, then arrives */
        tn_world *w = retry_world(planner, 2.0f);
        const tn_bot *bot = tn_wbots_character_bot(w);
        const int plans = tn_bot_get_info(bot).plans;
        tn_world_hold_graph_builds(w, true);
        assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4.0, NULL)));
        for (int f = 0; f < 5; f++) tn_world_step(w);
        char hud[512];
        tn_world_hud(w, hud, sizeof hud);
        if (!strstr(hud, "jump height changed since its last plan: the goal is tried again when "
                         "the slider is let go"))
            fail_msg("HUD: %s", hud);
        assert_int_equal(tn_bot_get_info(bot).plans, plans);
        tn_world_hold_graph_builds(w, false);
        tn_world_step(w);
        if (!strstr(tn_world_message_text(w), "(14,5) is in reach now (jump height changed)"))
            fail_msg("planner %d: %s", planner, tn_world_message_text(w));
        assert_int_equal(run_trip(w, 900), TN_BOT_ARRIVED);
        /* nothing changed since: no search again */
        const int after = tn_bot_get_info(bot).plans;
        for (int f = 0; f < 30; f++) tn_world_step(w);
        assert_int_equal(tn_bot_get_info(bot).plans, after);
        tn_world_destroy(w);

        /* a slider moved mid-trip and put back: the re-plan under the moved
         * value left the goal out of reach; the value put back is a change
         * from that plan, though it is the goto's (a review found the trip
         * left at rest for good, the HUD promising a try) */
        {
            tn_map *m = NULL;
            assert_true(
                tn_succeeded(tn_map_parse(RETRY_MAP, strlen(RETRY_MAP), "retry", NULL, &m, NULL)));
            tn_world_config c = tn_world_default_config();
            tn_error e;
            if (tn_failed(tn_world_create(m, &c, NULL, &w, &e))) fail_msg("%s", e.msg);
            assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
            for (int f = 0; f < 60; f++) tn_world_step(w);
            assert_true(tn_succeeded(tn_world_goto(w, 14, 5, NULL)));
            bot = tn_wbots_character_bot(w);
            assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_MOVING);
            for (int f = 0; f < 4; f++) tn_world_step(w);
            assert_true(tn_succeeded(tn_world_set(w, "jump_height", 2.0, NULL)));
            for (int f = 0; f < 600 && tn_bot_active(bot); f++) tn_world_step(w);
            tn_bot_info i = tn_bot_get_info(bot);
            if (i.state != TN_BOT_PARTIAL && i.state != TN_BOT_NO_PATH)
                fail_msg("planner %d: %s at jump 2", planner, tn_bot_state_name(i.state));
            assert_true(i.replans >= 1);
            assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4.0, NULL)));
            tn_world_step(w);
            if (!strstr(tn_world_message_text(w), "(14,5) is in reach now (jump height changed)"))
                fail_msg("planner %d: %s", planner, tn_world_message_text(w));
            assert_int_equal(run_trip(w, 900), TN_BOT_ARRIVED);
            tn_world_destroy(w);
        }

        /* edits: stairs up to the wall, in reach */
        w = retry_world(planner, 2.0f);
        bot = tn_wbots_character_bot(w);
        int cx, cy;
        tn_body_tile(tn_world_character(w), tn_world_phys(w), &cx, &cy);
        assert_true(cx >= 10);
        tn_error err;
        if (tn_failed(tn_world_edit(w, 8, 8, TN_EDIT_BLOCK, &err))) fail_msg("%s", err.msg);
        tn_world_step(w);
        if (tn_failed(tn_world_edit(w, 9, 8, TN_EDIT_BLOCK, &err))) fail_msg("%s", err.msg);
        if (tn_failed(tn_world_edit(w, 9, 7, TN_EDIT_BLOCK, &err))) fail_msg("%s", err.msg);
        assert_int_equal(run_trip(w, 900), TN_BOT_ARRIVED);
        tn_world_destroy(w);

        /* the player took the controls: the change does not take them back */
        w = retry_world(planner, 2.0f);
        bot = tn_wbots_character_bot(w);
        tn_world_set_input(w, (tn_input){.left = true});
        for (int f = 0; f < 10; f++) tn_world_step(w);
        tn_world_set_input(w, (tn_input){0});
        for (int f = 0; f < 30; f++) tn_world_step(w);
        const int p0 = tn_bot_get_info(bot).plans;
        assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4.0, NULL)));
        for (int f = 0; f < 30; f++) tn_world_step(w);
        assert_int_equal(tn_bot_get_info(bot).plans, p0);
        assert_false(tn_bot_active(bot));
        tn_world_destroy(w);

        /* still out of reach after the change: tried once, not every step */
        w = retry_world(planner, 2.0f);
        bot = tn_wbots_character_bot(w);
        const int q0 = tn_bot_get_info(bot).plans;
        assert_true(tn_succeeded(tn_world_set(w, "jump_height", 2.5, NULL)));
        for (int f = 0; f < 60; f++) tn_world_step(w);
        const tn_bot_info q = tn_bot_get_info(bot);
        assert_true(q.plans == q0 + 1);
        assert_true(q.state == TN_BOT_PARTIAL || q.state == TN_BOT_NO_PATH);
        tn_world_destroy(w);
    }
}

/* The classic bot re-planned under a moved slider: the graph's answer of
 * the click was for the old jump height, so neither the message nor the
 * HUD sets it beside the new plan (a review saw "the graph planner finds a
 * way" where, at jump 1, it does not). */
static void test_classic_replan_drops_the_clicks_graph_answer(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    for (int f = 0; f < 30; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL))); /* (the graph is built) */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "| graph: found, ")) fail_msg("HUD: %s", hud);
    for (int f = 0; f < 4; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 1.0, NULL)));
    const tn_bot *bot = tn_wbots_character_bot(w);
    bool said = false;
    for (int f = 0; f < 600 && !said; f++) {
        tn_world_step(w);
        said = strstr(tn_world_message_text(w), "out of the classic planner's reach") != NULL;
    }
    if (!said) fail_msg("%s", tn_world_message_text(w));
    if (strstr(tn_world_message_text(w), "finds a way")) fail_msg("%s", tn_world_message_text(w));
    assert_true(tn_bot_get_info(bot).replans >= 1);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "| graph: n/a (asked before the change)")) fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A re-plan whose goal the character can no longer stand on (the height
 * slider at 9 under a one-way) says why, on the message line and the HUD,
 * and the classic answer shows no "none, -1 tiles" (a review's finding);
 * a trip at rest the player walked away from says so beside "arrived". */
static void test_hud_says_why_and_since(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    for (int f = 0; f < 10; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 60, 8, NULL)));
    for (int f = 0; f < 60; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 9, NULL)));
    for (int f = 0; f < 80; f++) tn_world_step(w);
    const tn_bot *bot = tn_wbots_character_bot(w);
    assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_NO_PATH);
    if (!strstr(tn_world_message_text(w),
                "no path to (60,8): a 1x9 box cannot stand at tile (60,8)"))
        fail_msg("%s", tn_world_message_text(w));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "goal refused: a 1x9 box cannot stand at tile (60,8)") ||
        !strstr(hud, "classic (re-plan): refused, no search") || strstr(hud, "-1"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
    /* the classic planner says its reason on the HUD too */
    w = world("maps/demo.map");
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    for (int f = 0; f < 10; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 60, 8, NULL)));
    for (int f = 0; f < 60; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 9, NULL)));
    for (int f = 0; f < 80; f++) tn_world_step(w);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "goto (60,8): goal refused: goal (60,8) is blocked: a 1x9 character does "
                     "not fit there"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);

    w = world("maps/demo.map");
    for (int f = 0; f < 10; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 60, 8, NULL)));
    bot = tn_wbots_character_bot(w);
    int frames = 0;
    while (frames < 900 && tn_bot_active(bot)) tn_world_step(w), frames++;
    assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_ARRIVED);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: arrived |")) fail_msg("HUD: %s", hud);
    /* the trip's frames, what the two planners compare by */
    int said = -1;
    if (sscanf(tn_world_message_text(w), "arrived at (60,8) in %d frames", &said) != 1 ||
        abs(said - frames) > 2)
        fail_msg("%d frames stepped: %s", frames, tn_world_message_text(w));
    tn_world_set_input(w, (tn_input){.left = true});
    for (int f = 0; f < 20; f++) tn_world_step(w);
    tn_world_set_input(w, (tn_input){0});
    tn_world_step(w);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: arrived (you took over since) |")) fail_msg("HUD: %s", hud);
    /* the next goto is a trip of its own again */
    assert_true(tn_succeeded(tn_world_goto(w, 60, 8, NULL)));
    for (int f = 0; f < 900 && tn_bot_active(bot); f++) tn_world_step(w);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: arrived |")) fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A click in the air snapped down to the ground under it names the tile
 * clicked beside the goal when the plan waits for the landing ("goto
 * (60,8) (clicked (60,5)): planning when the character lands"), and again
 * when that plan is made: the landing message said only "goto (60,8):
 * planned on landing", the click gone from the status line (a playtest
 * clicked inside the floor mid-jump and read of a goal 3 rows up). */
static void test_landed_plan_names_the_click(void **state)
{
    (void)state;
    for (int planner = 0; planner <= 1; planner++) {
        tn_world *w = world("maps/demo.map");
        assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
        for (int f = 0; f < 30; f++) tn_world_step(w);
        tn_world_set_input(w, (tn_input){.jump = true});
        for (int f = 0; f < 4; f++) tn_world_step(w);
        tn_world_set_input(w, (tn_input){0});
        assert_false(tn_world_character(w)->on_ground);
        tn_world_set_tool(w, TN_TOOL_GOTO);
        assert_true(tn_succeeded(tn_world_click(w, 60, 5, TN_CLICK_LEFT, false, NULL)));
        if (!strstr(tn_world_message_text(w),
                    "goto (60,8) (clicked (60,5)): planning when the character lands"))
            fail_msg("planner %d: %s", planner, tn_world_message_text(w));
        for (int f = 0; f < 120 && !strstr(tn_world_message_text(w), "planned on landing"); f++)
            tn_world_step(w);
        if (!strstr(tn_world_message_text(w),
                    planner ? "goto (60,8) (clicked (60,5)): planned on landing, a graph plan of "
                            : "goto (60,8) (clicked (60,5)): planned on landing, "))
            fail_msg("planner %d: %s", planner, tn_world_message_text(w));
        tn_world_destroy(w);
    }
}

/* A goto clicked mid-air says it plans on landing, then says the plan
 * when it is made (the status line went on promising it); a trip the
 * player takes over mid-way reads "cancelled (you took over)", not "idle
 * | no plan" beside that plan's numbers (review findings). */
static void test_hud_landing_and_cancel(void **state)
{
    (void)state;
    for (int planner = 0; planner <= 1; planner++) {
        tn_world *w = world("maps/demo.map");
        assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
        for (int f = 0; f < 30; f++) tn_world_step(w);
        tn_world_set_input(w, (tn_input){.jump = true});
        for (int f = 0; f < 4; f++) tn_world_step(w);
        tn_world_set_input(w, (tn_input){0});
        assert_false(tn_world_character(w)->on_ground);
        assert_true(tn_succeeded(tn_world_goto(w, 60, 8, NULL)));
        if (!strstr(tn_world_message_text(w), "goto (60,8): planning when the character lands"))
            fail_msg("planner %d: %s", planner, tn_world_message_text(w));
        char hud[512];
        tn_world_hud(w, hud, sizeof hud); /* (the first goal: it said "idle") */
        if (!strstr(hud, "moving | ") || !strstr(hud, "planning (new goal) on landing"))
            fail_msg("planner %d: HUD: %s", planner, hud);
        const tn_bot *bot = tn_wbots_character_bot(w);
        for (int f = 0; f < 120 && !strstr(tn_world_message_text(w), "planned on landing"); f++)
            tn_world_step(w);
        if (!strstr(tn_world_message_text(w),
                    planner ? "goto (60,8): planned on landing, a graph plan of "
                            : "goto (60,8): planned on landing, "))
            fail_msg("planner %d: %s", planner, tn_world_message_text(w));
        assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_MOVING);
        for (int f = 0; f < 20; f++) tn_world_step(w);
        tn_world_set_input(w, (tn_input){.left = true});
        tn_world_step(w);
        tn_world_set_input(w, (tn_input){0});
        tn_world_step(w);
        tn_world_hud(w, hud, sizeof hud);
        if (!strstr(hud, planner ? "bot [graph]: cancelled (you took over) | goto (60,8): its "
                                   "plan dropped"
                                 : "bot [classic]: cancelled (you took over) | goto (60,8): "))
            fail_msg("planner %d: HUD: %s", planner, hud);
        tn_world_destroy(w);
        /* a first goal clicked mid-air, taken over before the landing
         * planned it: cancelled too (the HUD said "idle (goto tool: ...)"
         * beside "goto cancelled" on the status line, a playtest found) */
        w = world("maps/demo.map");
        assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
        for (int f = 0; f < 30; f++) tn_world_step(w);
        tn_world_set_input(w, (tn_input){.jump = true});
        for (int f = 0; f < 4; f++) tn_world_step(w);
        assert_true(tn_succeeded(tn_world_goto(w, 60, 8, NULL)));
        tn_world_step(w); /* (the jump still held) */
        tn_world_set_input(w, (tn_input){0});
        tn_world_step(w);
        assert_string_equal(tn_world_message_text(w), "goto cancelled: you took the controls");
        tn_world_hud(w, hud, sizeof hud);
        if (!strstr(hud, "cancelled (you took over) | goto (60,8): "))
            fail_msg("planner %d: HUD: %s", planner, hud);
        tn_world_destroy(w);
    }
}

/* The graph bot stops with the body on its goal tile, its left edge the
 * tile's, as the classic bot does: it stopped at the first node of the
 * tile its plan reached, from the right the tile's last lattice step, the
 * body 5/6 over the next tile (a review found 26 of 288 demo goals so, such
 * as these three).  The plan's frames count the few steps more. */
static void test_graph_bot_stops_on_the_tile(void **state)
{
    (void)state;
    const int goals[][2] = {{60, 8}, {14, 12}, {45, 40}};
    for (int k = 0; k < 3; k++) {
        tn_world *w = world("maps/demo.map");
        for (int f = 0; f < 30; f++) tn_world_step(w);
        assert_true(tn_succeeded(tn_world_goto(w, goals[k][0], goals[k][1], NULL)));
        const tn_bot *bot = tn_wbots_character_bot(w);
        const int frames = tn_bot_get_info(bot).plan_frames;
        int f = 0;
        while (f < 3000 && tn_bot_active(bot)) tn_world_step(w), f++;
        tn_bot_info i = tn_bot_get_info(bot);
        assert_int_equal(i.state, TN_BOT_ARRIVED);
        const float x = tn_world_character(w)->x;
        if (fabsf(x - (float)(i.goal_x * TN_TILE_PX)) > 1e-3f)
            fail_msg("goal (%d,%d): the body stopped at x %.2f px, not %d", goals[k][0],
                     goals[k][1], (double)x, i.goal_x * TN_TILE_PX);
        assert_int_equal(i.replans, 0);
        assert_true(f >= frames && f <= frames + 2); /* (the plan counts its frames) */
        tn_world_destroy(w);
    }
}

/* An edit while the trip is under way (a paused window) re-plans it at
 * the next step: the HUD says so at once rather than the stale plan's
 * numbers (the path overlay already hid that plan), for both planners. */
static void test_hud_edit_pending(void **state)
{
    (void)state;
    for (int planner = 0; planner <= 1; planner++) {
        tn_world *w = world("maps/demo.map");
        assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
        for (int f = 0; f < 30; f++) tn_world_step(w);
        assert_true(tn_succeeded(tn_world_goto(w, 60, 8, NULL)));
        const tn_bot *bot = tn_wbots_character_bot(w);
        int f = 0;
        do tn_world_step(w), f++;
        while (f < 200 && !tn_world_character(w)->on_ground);
        assert_true(tn_world_character(w)->on_ground && tn_bot_active(bot));
        char hud[512];
        tn_world_hud(w, hud, sizeof hud);
        if (strstr(hud, "re-planning")) fail_msg("HUD: %s", hud);
        assert_true(tn_succeeded(tn_world_edit(w, 70, 30, TN_EDIT_BLOCK, NULL)));
        tn_world_hud(w, hud, sizeof hud);
        if (!strstr(hud, "re-planning (map edited) at the next step") || strstr(hud, "found: "))
            fail_msg("planner %d: HUD: %s", planner, hud);
        tn_world_step(w);
        tn_world_hud(w, hud, sizeof hud);
        if (strstr(hud, "re-planning") || !strstr(hud, "| re-plan 1 ("))
            fail_msg("planner %d: HUD: %s", planner, hud);
        tn_world_destroy(w);
    }
}

/* A slider moved while the trip is under way (a paused window) re-plans
 * it at the next step: the HUD says so at once, as for an edit, with
 * either planner.  The classic planner's line kept the old plan's tiles,
 * frames and states (made for the jump height it left) until the window
 * stepped, while the graph planner's said "re-planning (physics changed)". */
static void test_hud_slider_pending(void **state)
{
    (void)state;
    const struct {
        const char *name;
        double value;
        const char *why;
    } moves[] = {{"jump_height", 6.0, "physics changed"}, {"char_height", 1.0, "size changed"}};
    for (int planner = 0; planner <= 1; planner++)
        for (int k = 0; k < 2; k++) {
            tn_world *w = world("maps/demo.map");
            assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
            for (int f = 0; f < 30; f++) tn_world_step(w);
            assert_true(tn_succeeded(tn_world_goto(w, 60, 8, NULL)));
            const tn_bot *bot = tn_wbots_character_bot(w);
            int f = 0;
            do tn_world_step(w), f++;
            while (f < 200 && !tn_world_character(w)->on_ground);
            assert_true(tn_world_character(w)->on_ground && tn_bot_active(bot));
            char hud[512], want[64];
            tn_world_hud(w, hud, sizeof hud);
            if (strstr(hud, "re-planning")) fail_msg("HUD: %s", hud);
            assert_true(tn_succeeded(tn_world_set(w, moves[k].name, moves[k].value, NULL)));
            tn_world_hud(w, hud, sizeof hud);
            snprintf(want, sizeof want, "re-planning (%s) at the next step", moves[k].why);
            if (!strstr(hud, want) || strstr(hud, "found: ") || strstr(hud, " states"))
                fail_msg("planner %d, %s: HUD: %s", planner, moves[k].name, hud);
            tn_world_step(w);
            tn_world_hud(w, hud, sizeof hud);
            snprintf(want, sizeof want, "| re-plan 1 (%s)", moves[k].why);
            if (strstr(hud, "re-planning") || !strstr(hud, want))
                fail_msg("planner %d, %s: after a step: HUD: %s", planner, moves[k].name, hud);
            tn_world_destroy(w);
        }
}

/* A bot at rest keeps its last plan; a slider moved since (nothing
 * re-plans a bot at rest) makes that plan another value's: the HUD says so
 * rather than showing its frames, legs and nodes as the new value's (the
 * old code kept "found: N frames" for the jump height it left). */
static void test_hud_idle_plan_for_another_value(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    for (int f = 0; f < 5; f++) tn_world_step(w);
    tn_bot_info i = go(w, 1500);
    assert_int_equal(i.state, TN_BOT_ARRIVED);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: arrived | found: ")) fail_msg("HUD: %s", hud);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 2.5, NULL)));
    for (int f = 0; f < 3; f++) tn_world_step(w);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: arrived | jump height changed since its last plan: the next "
                     "goto plans for it") ||
        strstr(hud, "found: "))
        fail_msg("HUD: %s", hud);
    /* back to the plan's value: its numbers are right again */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4.0, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: arrived | found: ")) fail_msg("HUD: %s", hud);
    assert_true(tn_succeeded(tn_world_set(w, "char_width", 2, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "| size changed since its last plan")) fail_msg("HUD: %s", hud);
    /* both: both named (it named the jump height alone) */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 3.0, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "| jump height and size changed since its last plan"))
        fail_msg("HUD: %s", hud);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4.0, NULL)));
    /* the classic planner the same */
    assert_true(tn_succeeded(tn_world_set(w, "char_width", 1, NULL)));
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    i = go(w, 1500);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [classic]: ")) fail_msg("HUD: %s", hud);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 3.0, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [classic]: ") || !strstr(hud, "jump height changed since its last plan"))
        fail_msg("HUD: %s", hud);
    /* the next goto plans for the new value: its numbers again */
    i = go(w, 1500);
    tn_world_hud(w, hud, sizeof hud);
    if (strstr(hud, "changed since")) fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A jump-height drag passes many values: the reviewer's window froze
 * 200-280 ms for each on 256x256 (a graph built in the setter).  The
 * setter builds nothing (the HUD still says the re-plan at once); the next
 * step builds the one graph for the value the drag stopped at, and a long
 * build is said once in the status line (with a clock only). */
static double slow_now;
static double slow_clock(void)
{
    slow_now += 0.06; /* every reading 60 ms later: any build is "long" */
    return slow_now;
}

static void test_slider_drag_builds_at_the_step(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    tn_world_step(w);
    assert_non_null(tn_wbots_character_graph(w));
    static const double drag[] = {4.5, 5.5, 6.0, 5.0};
    for (int k = 0; k < 4; k++) {
        assert_true(tn_succeeded(tn_world_set(w, "jump_height", drag[k], NULL)));
        assert_null(tn_wbots_character_graph(w)); /* not built in the setter */
    }
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "re-planning (physics changed) at the next step")) fail_msg("HUD: %s", hud);
    tn_world_set_clock(w, slow_clock);
    tn_world_step(w);
    assert_non_null(tn_wbots_character_graph(w));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "| re-plan 1 (physics changed)")) fail_msg("HUD: %s", hud);
    const char *msg = tn_world_message_text(w);
    printf("  %s\n", msg);
    assert_non_null(strstr(msg, "jump 5.0 built in "));
    tn_world_destroy(w);
}

/* The classic comparison follows a re-plan made for a physics change: the
 * reviewer's HUD kept "classic: found, 124 tiles" (the click's answer under
 * the old jump) beside "bot [graph]: partial" after the jump slider went
 * down.  Under a 1-tile jump the 4-tile ledge is out of reach for both. */
/* A drag on a map where a build is slow (the window holds builds from the
 * press on a slider to its release): the step builds nothing while held,
 * the bot stands by, and the release builds the one graph for the value
 * the drag stopped at.  The reviewer's 256x256 drag built a graph every
 * frame (200-500 ms each). */
static void test_held_slider_builds_once_on_release(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    tn_world_set_clock(w, slow_clock); /* every build takes "60 ms" or more */
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    tn_world_step(w);
    const tn_surf *first = tn_wbots_character_graph(w);
    assert_non_null(first);
    for (int f = 0; f < 20; f++) tn_world_step(w); /* under way, on the ground */
    tn_world_hold_graph_builds(w, true);
    static const double drag[] = {4.5, 5.5, 6.0, 5.0};
    float x0 = tn_world_character(w)->x;
    for (int k = 0; k < 4; k++) {
        assert_true(tn_succeeded(tn_world_set(w, "jump_height", drag[k], NULL)));
        for (int f = 0; f < 3; f++) tn_world_step(w);
        assert_null(tn_wbots_character_graph(w)); /* none built while held */
    }
    assert_non_null(strstr(tn_world_message_text(w), "built when the slider is let go"));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "re-planning (physics changed) when the slider is let go"))
        fail_msg("HUD: %s", hud);
    if (tn_world_character(w)->on_ground) assert_true(tn_world_character(w)->x == x0);
    tn_world_hold_graph_builds(w, false);
    tn_world_step(w);
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_non_null(g);
    assert_true(tn_surf_get_profile(g)->phys.jump_height == 5.0f);
    assert_non_null(strstr(tn_world_message_text(w), "jump 5.0 built in "));
    for (int f = 0; f < 120; f++) { /* (a re-plan in the air waits for the landing) */
        tn_world_hud(w, hud, sizeof hud);
        if (strstr(hud, "| re-plan 1 (physics changed)")) break;
        tn_world_step(w);
    }
    if (!strstr(hud, "| re-plan 1 (physics changed)")) fail_msg("HUD: %s", hud);
    assert_true(tn_wbots_character_graph(w) == g); /* no other build */
    /* a fast build (no clock: 0 ms) is never held back */
    tn_world_set_clock(w, NULL);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    tn_world_step(w);
    tn_world_hold_graph_builds(w, true);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4.0, NULL)));
    tn_world_step(w);
    assert_non_null(tn_wbots_character_graph(w));
    tn_world_hold_graph_builds(w, false);
    tn_world_destroy(w);
}

#if !defined(__STDC_NO_THREADS__)
/* slow_clock for two threads: a background build reads it on its own */
static atomic_long bg_ticks;
static double bg_clock(void) { return 0.06 * (double)atomic_fetch_add(&bg_ticks, 1); }

/* g saves to the same bytes as a fresh build of m for its profile. */
static void assert_fresh_build(const tn_surf *g, const tn_map *m)
{
    tn_surf *fresh = NULL;
    assert_true(tn_succeeded(tn_surf_create(m, tn_surf_get_profile(g), NULL, &fresh, NULL)));
    size_t n1 = 0, n2 = 0;
    assert_true(tn_succeeded(tn_surf_save(g, NULL, 0, &n1, NULL)));
    assert_true(tn_succeeded(tn_surf_save(fresh, NULL, 0, &n2, NULL)));
    assert_int_equal(n1, n2);
    unsigned char *b1 = malloc(n1), *b2 = malloc(n2);
    assert_true(b1 && b2);
    assert_true(tn_succeeded(tn_surf_save(g, b1, n1, &n1, NULL)));
    assert_true(tn_succeeded(tn_surf_save(fresh, b2, n2, &n2, NULL)));
    assert_memory_equal(b1, b2, n1);
    free(b1);
    free(b2);
    tn_surf_destroy(fresh);
}

/* Steps (1 ms apart) until the character's graph is back; false after 30 s
 * of waiting (a build of the demo map takes about 10 ms). */
static bool step_until_graph(tn_world *w, int *steps)
{
    for (*steps = 0; *steps < 30000; (*steps)++) {
        if (tn_wbots_character_graph(w)) return true;
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    return tn_wbots_character_graph(w) != NULL;
}

/* An edit: a block on the first empty tile of the map's row 2 under an
 * empty row 1.  Returns its column. */
static int edit_top_row(tn_world *w)
{
    const tn_map *m = tn_world_map(w);
    int ex = -1;
    for (int x = 1; x < m->w - 1 && ex < 0; x++)
        if (tn_map_tile(m, x, 1) == TN_TILE_EMPTY && tn_map_tile(m, x, 2) == TN_TILE_EMPTY) ex = x;
    assert_true(ex >= 0);
    assert_true(tn_succeeded(tn_world_edit(w, ex, 2, TN_EDIT_BLOCK, NULL)));
    return ex;
}

/* With background builds on (the window's), a slow build for a new jump
 * height runs on another thread: the step that needs it returns at once
 * with the bot standing by and the HUD saying so, an edit made meanwhile is
 * repaired when the graph is put in the cache (it equals a fresh build of
 * the edited map), the bot then re-plans and goes on; a click waits for a
 * build under way and plans at once. */
static void test_background_build(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    tn_world_set_clock(w, bg_clock); /* every build "takes" 60 ms or more */
    tn_world_build_graphs_in_background(w, true);
    for (int f = 0; f < 5; f++) tn_world_step(w);
    /* the first build on a small map, none timed yet: at once */
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    assert_non_null(tn_wbots_character_graph(w));
    for (int f = 0; f < 20; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5.0, NULL)));
    tn_world_step(w);
    char hud[512];
    /* (a build that ended is put in the cache by the next step, not this one) */
    assert_null(tn_wbots_character_graph(w));
    assert_non_null(strstr(tn_world_message_text(w), "in the background"));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "re-planning (physics changed) when its graph is built"))
        fail_msg("HUD: %s", hud);
    assert_non_null(strstr(tn_wbots_overlay_note(w, TN_OVERLAY_SURF), "in the background"));
    /* an edit while it builds: a block on an empty tile of the top row */
    edit_top_row(w);
    const tn_map *m = tn_world_map(w);
    int steps;
    assert_true(step_until_graph(w, &steps));
    printf("  the graph came back %d steps later\n", steps);
    tn_surf *g = (tn_surf *)tn_wbots_character_graph(w);
    assert_true(tn_surf_get_profile(g)->phys.jump_height == 5.0f);
    assert_true(tn_surf_in_sync(g, m));
    assert_fresh_build(g, m);
    int local, full;
    tn_surf_repair_counts(g, &local, &full);
    assert_int_equal(full, 0);      /* the edit was a local repair */
    for (int f = 0; f < 120; f++) { /* (a re-plan in the air waits for the landing) */
        tn_world_hud(w, hud, sizeof hud);
        if (strstr(hud, "| re-plan 1 (physics changed)")) break;
        tn_world_step(w);
    }
    if (!strstr(hud, "| re-plan 1 (physics changed)")) fail_msg("HUD: %s", hud);
    /* a click while its build is under way is made once the graph is built
     * (at once when the build has ended by then: the click's own wait is
     * test_click_kept_while_its_graph_builds) */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 6.0, NULL)));
    tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    for (int f = 0; f < 5000 && !tn_bot_active(tn_wbots_character_bot(w)); f++) {
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    g = (tn_surf *)tn_wbots_character_graph(w);
    assert_non_null(g);
    assert_true(tn_surf_get_profile(g)->phys.jump_height == 6.0f);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: moving | found: ")) fail_msg("HUD: %s", hud);
    /* a build under way when the world goes is told to stop */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 3.0, NULL)));
    tn_world_step(w);
    tn_world_destroy(w);
}

/* Extra bots wait for their graph while it builds in the background; the
 * HUD says so (it read "2 bots: 0/0 trips done", as if idle, for the 8 s
 * of a 1024x1024 build, a playtest found), and no more once it is built. */
static void test_background_build_bots_hud(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    tn_world_set_clock(w, bg_clock); /* every build "takes" 60 ms or more */
    tn_world_build_graphs_in_background(w, true);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL))); /* the first: at once */
    assert_non_null(tn_wbots_character_graph(w));
    assert_true(tn_succeeded(tn_world_set(w, "bots", 2, NULL)));
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5.0, NULL)));
    tn_world_step(w);
    char hud[1024];
    assert_null(tn_wbots_character_graph(w)); /* building */
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "2 bots: 0/0 trips done, waiting for their graph (building in the "
                     "background)"))
        fail_msg("HUD: %s", hud);
    int steps;
    assert_true(step_until_graph(w, &steps));
    tn_world_hud(w, hud, sizeof hud);
    if (strstr(hud, "waiting for their graph")) fail_msg("HUD: %s", hud);
    /* the bots keep the size they were made with: a build for the
     * character's new size is not theirs, and they go on with their own
     * graph (the HUD said they waited for the character's) */
    assert_true(tn_succeeded(tn_world_set(w, "char_width", 2, NULL)));
    assert_true(tn_succeeded(tn_world_goto(w, 12, 12, NULL)));
    tn_world_step(w);
    assert_null(tn_wbots_character_graph(w)); /* building */
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "2 bots: ") || strstr(hud, "waiting for their graph"))
        fail_msg("HUD: %s", hud);
    assert_true(step_until_graph(w, &steps));
    tn_world_destroy(w);
}

/* An allocator whose gate, while closed, holds every allocation made off
 * the main thread (a background build's) until it opens, or for 2 s at
 * most (then gate_timed_out): a build kept under way for as long as a test
 * needs. */
static atomic_bool gate_closed, gate_timed_out, gate_open_on_free;
static atomic_int gate_held;
/* gate_freed: gate_free opened the gate; gate_after_free counts the
 * allocations made off the main thread since */
static atomic_bool gate_freed;
static atomic_int gate_after_free;
/* gate_fail: every allocation off the main thread, once past the gate,
 * fails (a background build runs out of memory); gate_failed counts them */
static atomic_bool gate_fail;
static atomic_int gate_failed;
static thrd_t gate_main;
static void *gate_alloc(void *user, size_t size)
{
    (void)user;
    if (atomic_load(&gate_freed) && !thrd_equal(thrd_current(), gate_main))
        atomic_fetch_add(&gate_after_free, 1);
    if (atomic_load(&gate_closed) && !thrd_equal(thrd_current(), gate_main)) {
        atomic_fetch_add(&gate_held, 1);
        for (int ms = 0; atomic_load(&gate_closed); ms++) {
            if (ms >= 2000) {
                atomic_store(&gate_timed_out, true);
                atomic_store(&gate_closed, false);
                break;
            }
            thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
        }
        atomic_fetch_sub(&gate_held, 1);
    }
    if (atomic_load(&gate_fail) && !thrd_equal(thrd_current(), gate_main)) {
        atomic_fetch_add(&gate_failed, 1);
        return NULL;
    }
    return malloc(size);
}
/* Armed (gate_open_on_free), the main thread's first free opens the gate:
 * a world destroyed or replaced frees its parts after it told its build to
 * stop, so the build goes on from the gate knowing it. */
static void gate_free(void *user, void *p)
{
    (void)user;
    if (p && atomic_load(&gate_open_on_free) && thrd_equal(thrd_current(), gate_main)) {
        atomic_store(&gate_open_on_free, false);
        atomic_store(&gate_freed, true);
        atomic_store(&gate_closed, false);
    }
    free(p);
}
static const tn_allocator gate_allocator = {gate_alloc, gate_free, NULL};

/* The gate open, its counts and flags cleared, this thread the main one. */
static void gate_reset(void)
{
    gate_main = thrd_current();
    atomic_store(&gate_closed, false);
    atomic_store(&gate_timed_out, false);
    atomic_store(&gate_open_on_free, false);
    atomic_store(&gate_freed, false);
    atomic_store(&gate_held, 0);
    atomic_store(&gate_after_free, 0);
    atomic_store(&gate_fail, false);
    atomic_store(&gate_failed, 0);
}

/* Steps (1 ms apart) until the HUD no longer says the classic answer is
 * "searching ..." (false after 5 s); the HUD line in hud. */
static bool step_until_compared(tn_world *w, char *hud, size_t cap)
{
    for (int ms = 0; ms < 5000; ms++) {
        tn_world_hud(w, hud, cap);
        if (!strstr(hud, ": searching ...")) return true;
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    return false;
}

/* The demo map with background builds on, every build "60 ms", through the
 * gate allocator (open): the character sent to (10, 12) with its graph
 * (jump 4) built at once (the first build on a small map), and that
 * click's classic comparison landed: it runs on another thread and makes
 * its path finder there, through the gate, so a thread that started late
 * (a loaded machine) was held at a gate a test closed after this and
 * counted as a build (test_click_after_idle_slider_builds_in_background
 * failed so in CI: "nothing builds yet").  Waited for by frames without
 * steps (tn_world_prepare collects it), so the character is where five
 * steps took it however long the thread took. */
static tn_world *gated_world(void)
{
    gate_reset();
    tn_world *w = NULL;
    tn_error err;
    tn_world_config c = tn_world_default_config();
    if (tn_failed(tn_world_create(tu_load_map("maps/demo.map"), &c, &gate_allocator, &w, &err)))
        fail_msg("%s", err.msg);
    tn_world_set_clock(w, bg_clock);
    tn_world_build_graphs_in_background(w, true);
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    assert_non_null(tn_wbots_character_graph(w));
    for (int f = 0; f < 5; f++) tn_world_step(w);
    char hud[512];
    bool landed = false;
    for (int ms = 0; ms < 5000 && !landed; ms++) {
        tn_world_prepare(w, 0);
        tn_world_hud(w, hud, sizeof hud);
        landed = !strstr(hud, ": searching ...");
        if (!landed) thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    if (!landed) fail_msg("the click's classic comparison did not land in 5 s: %s", hud);
    return w;
}

/* Steps until a background build holds at the gate (false after 2 s). */
static bool build_held(tn_world *w)
{
    for (int ms = 0; ms < 2000; ms++) {
        if (atomic_load(&gate_held) > 0) return true;
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    return false;
}

/* gated_world with the gate closed and the graph for jump `jump` under way,
 * held at the gate. */
static tn_world *gated_world_building(double jump)
{
    tn_world *w = gated_world();
    atomic_store(&gate_closed, true);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", jump, NULL)));
    assert_true(build_held(w));
    return w;
}

/* With background builds on (the window's) and the graph selected, a goto
 * click's classic comparison (only the HUD shows it) runs on another
 * thread: the click makes no classic search itself (the old code did, up
 * to 140 ms on a 512x512 level: a frozen window), the HUD says "classic:
 * searching ..." until it lands, then the answer; one whose map was edited
 * meanwhile is dropped, never shown beside the new plan.  Headless (no
 * background builds) it is searched in the click, as before. */
static void test_classic_compare_in_background(void **state)
{
    (void)state;
    tn_world *w = gated_world();
    char hud[512];
    assert_true(step_until_compared(w, hud, sizeof hud)); /* (its click's) */
    int here0, bg0, dropped0, here, bg, dropped;
    tn_wbots_compare_counts(w, &here0, &bg0, &dropped0);
    assert_int_equal(here0, 0);
    assert_true(bg0 >= 1);
    int dx, dy;
    dest_of(w, &dx, &dy);
    assert_true(dx >= 0);
    assert_true(tn_succeeded(tn_world_goto(w, dx, dy, NULL)));
    tn_wbots_compare_counts(w, &here, &bg, &dropped);
    assert_int_equal(here, here0); /* no classic search on this thread */
    assert_int_equal(bg, bg0 + 1);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: moving") || !strstr(hud, "| classic: searching ..."))
        fail_msg("HUD: %s", hud);
    /* it lands without a step (a paused window draws on: tn_world_prepare) */
    const long frame = tn_world_frame(w);
    for (int ms = 0; ms < 5000 && strstr(hud, ": searching ..."); ms++) {
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
        tn_world_prepare(w, 0);
        tn_world_hud(w, hud, sizeof hud);
    }
    assert_int_equal(tn_world_frame(w), frame);
    if (!strstr(hud, "| classic: found, ") && !strstr(hud, "| classic: limit reached, ") &&
        !strstr(hud, "| classic: partial, "))
        fail_msg("HUD: %s", hud);
    tn_wbots_compare_counts(w, &here, &bg, &dropped);
    assert_int_equal(here, here0);
    assert_int_equal(dropped, dropped0);
    /* a map edit before the answer lands: it is dropped */
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "| classic: searching ...")) fail_msg("HUD: %s", hud);
    edit_top_row(w);
    assert_true(step_until_compared(w, hud, sizeof hud));
    tn_wbots_compare_counts(w, &here, &bg, &dropped);
    assert_int_equal(here, here0);
    assert_true(dropped >= dropped0 + 1);
    /* what the HUD shows is not the answer for the map before the edit:
     * it says so, or is a re-plan's own search on the edited map */
    if (!strstr(hud, "| classic: n/a (the map changed meanwhile)") &&
        !strstr(hud, "| classic (re-plan): "))
        fail_msg("HUD: %s", hud);
    printf("  after the edit: %s\n", strstr(hud, "| classic"));
    tn_world_destroy(w);

    /* headless (no background builds): the click searches, as before */
    w = sent_to("maps/demo.map", 10, 12);
    tn_wbots_compare_counts(w, &here, &bg, NULL);
    assert_int_equal(here, 1);
    assert_int_equal(bg, 0);
    tn_world_hud(w, hud, sizeof hud);
    if (strstr(hud, "searching") || !strstr(hud, "| classic: ")) fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A click whose graph is in the cache plans at once, without waiting for a
 * background build of another graph (the old code joined every build under
 * way first: the window froze for up to 1.4 s on a 256x256 map, the very
 * freeze the background build is there to avoid). */
static void test_click_does_not_wait_for_another_build(void **state)
{
    (void)state;
    tn_world *w = gated_world_building(5.0); /* the graph for jump 5, under way */
    assert_null(tn_wbots_character_graph(w));
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4.0, NULL)));
    assert_non_null(tn_wbots_character_graph(w)); /* (jump 4's is still cached) */
    assert_true(tn_succeeded(tn_world_goto(w, 20, 12, NULL)));
    assert_false(atomic_load(&gate_timed_out)); /* the click did not wait */
    assert_true(atomic_load(&gate_held) > 0);   /* the build still holds at the gate */
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: moving | found: ")) fail_msg("HUD: %s", hud);
    atomic_store(&gate_closed, false);
    tn_world_destroy(w); /* (waits for the build) */
    assert_false(atomic_load(&gate_timed_out));
}

/* A goto click while the character's own graph is built in the background
 * does not wait for it (the window froze for the whole build: 4-30 s on a
 * 1024x1024 level): the click is kept, the HUD says so, and it is made
 * once the graph is built; the player's keys cancel it. */
static void test_click_kept_while_its_graph_builds(void **state)
{
    (void)state;
    tn_world *w = gated_world_building(5.0); /* the graph for jump 5, under way */
    assert_null(tn_wbots_character_graph(w));
    assert_true(tn_succeeded(tn_world_goto(w, 20, 12, NULL)));
    assert_false(atomic_load(&gate_timed_out)); /* the click did not wait */
    assert_true(atomic_load(&gate_held) > 0);
    assert_non_null(
        strstr(tn_world_message_text(w), "goto (20,12): planned when the graph is built"));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: waiting | goto (20,12): planned when its graph is built"))
        fail_msg("HUD: %s", hud);
    for (int f = 0; f < 10; f++) tn_world_step(w); /* the bot stands by meanwhile */
    assert_false(tn_bot_active(tn_wbots_character_bot(w)));
    atomic_store(&gate_closed, false);
    for (int f = 0; f < 5000 && !tn_bot_active(tn_wbots_character_bot(w)); f++) {
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.planner, 1);
    assert_int_equal(i.goal_x, 20);
    assert_true(tn_bot_active(tn_wbots_character_bot(w)));
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_non_null(g);
    assert_true(tn_surf_get_profile(g)->phys.jump_height == 5.0f);
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: moving | found: ")) fail_msg("HUD: %s", hud);
    /* kept again, then the player takes the controls: cancelled */
    atomic_store(&gate_closed, true);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 6.0, NULL)));
    assert_true(build_held(w));
    assert_true(tn_succeeded(tn_world_goto(w, 30, 12, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "waiting | goto (30,12)"));
    tn_world_set_input(w, (tn_input){false, true, false, false});
    tn_world_step(w);
    tn_world_set_input(w, (tn_input){false, false, false, false});
    assert_string_equal(tn_world_message_text(w), "goto cancelled: you took the controls");
    tn_world_hud(w, hud, sizeof hud);
    assert_null(strstr(hud, "waiting"));
    atomic_store(&gate_closed, false);
    tn_world_destroy(w);
    assert_false(atomic_load(&gate_timed_out));
}

/* A slider moved while the character stands builds nothing (no plan
 * follows it); the next goto's graph is then missing.  The click starts its
 * slow build in the background and is kept, rather than building it on the
 * window's thread (the old code: an 8 s freeze on a 1024x1024 level). */
static void test_click_after_idle_slider_builds_in_background(void **state)
{
    (void)state;
    tn_world *w = gated_world();
    /* the player takes the controls: the character stands, its bot idle */
    tn_world_set_input(w, (tn_input){false, true, false, false});
    tn_world_step(w);
    tn_world_set_input(w, (tn_input){false, false, false, false});
    for (int f = 0; f < 60; f++) tn_world_step(w);
    assert_false(tn_bot_active(tn_wbots_character_bot(w)));
    atomic_store(&gate_closed, true);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5.0, NULL)));
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_int_equal(atomic_load(&gate_held), 0); /* nothing builds yet */
    assert_true(tn_succeeded(tn_world_goto(w, 20, 12, NULL)));
    assert_null(tn_wbots_character_graph(w));
    assert_true(build_held(w)); /* built on another thread */
    assert_non_null(
        strstr(tn_world_message_text(w), "goto (20,12): planned when the graph is built"));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: waiting | goto (20,12): planned when its graph is built"))
        fail_msg("HUD: %s", hud);
    atomic_store(&gate_closed, false);
    for (int f = 0; f < 5000 && !tn_bot_active(tn_wbots_character_bot(w)); f++) {
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    assert_true(tn_bot_active(tn_wbots_character_bot(w)));
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_non_null(g);
    assert_true(tn_surf_get_profile(g)->phys.jump_height == 5.0f);
    assert_int_equal(tn_bot_get_info(tn_wbots_character_bot(w)).goal_x, 20);
    tn_world_destroy(w);
    assert_false(atomic_load(&gate_timed_out));
}

/* The "built in the background" message names the jump height the graph
 * was built for, not the slider's value when the build ended (the old code
 * said the value the slider had moved on to). */
static void test_background_message_names_its_jump(void **state)
{
    (void)state;
    tn_world *w = gated_world_building(5.0);
    /* (no step: a step now would stop the build, the value having moved on,
     * see test_background_build_value_moved_on) */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 6.0, NULL)));
    atomic_store(&gate_closed, false);
    const char *msg = tn_world_message_text(w);
    for (int ms = 0; ms < 5000 && !strstr(msg, " built in "); ms++) {
        tn_world_prepare(w, 0); /* puts a build that ended in the cache */
        msg = tn_world_message_text(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    if (!strstr(msg, "graph for a 1x2 body, jump 5.0 built in ")) fail_msg("message: %s", msg);
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* Edits made during a background build, more than a sync repairs tile by
 * tile (the demo map's 56 surfaces: 3), have the graph built again in the
 * background on a new copy: the graph that comes back equals a fresh build
 * of the edited map, with no rebuild on the caller's thread (the old code
 * put it in the cache, and the next sync rebuilt it there: the window froze
 * for a whole build after a drag of blocks during one). */
static void test_background_build_outrun_by_edits(void **state)
{
    (void)state;
    tn_world *w = gated_world_building(5.0);
    const tn_map *m = tn_world_map(w);
    int made = 0;
    for (int x = 1; x < m->w - 1 && made < 6; x++)
        if (tn_map_tile(m, x, 1) == TN_TILE_EMPTY && tn_map_tile(m, x, 2) == TN_TILE_EMPTY &&
            tn_succeeded(tn_world_edit(w, x, 2, TN_EDIT_BLOCK, NULL)))
            made++;
    assert_int_equal(made, 6);
    atomic_store(&gate_closed, false);
    int steps;
    assert_true(step_until_graph(w, &steps));
    tn_surf *g = (tn_surf *)tn_wbots_character_graph(w);
    assert_true(tn_surf_get_profile(g)->phys.jump_height == 5.0f);
    assert_true(tn_surf_in_sync(g, m));
    int local, full;
    tn_surf_repair_counts(g, &local, &full);
    assert_int_equal(full, 0); /* no rebuild by a sync on this thread */
    assert_fresh_build(g, m);
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* step_until_graph with a tn_world_prepare before each step, as a window's
 * frame makes it (it collects a background job that ended also when no
 * bot plans). */
static bool frames_until_graph(tn_world *w, int *steps)
{
    for (*steps = 0; *steps < 30000; (*steps)++) {
        if (tn_wbots_character_graph(w)) return true;
        tn_world_prepare(w, 0);
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    return tn_wbots_character_graph(w) != NULL;
}

/* Whether the characters of two worlds are at the same place. */
static bool same_place(const tn_world *a, const tn_world *b)
{
    const tn_body *p = tn_world_character(a), *q = tn_world_character(b);
    return p->x == q->x && p->y == q->y && p->on_ground == q->on_ground;
}

/* With background builds on (the window's), an edit's repair on a map over
 * 128x128 tiles runs on another thread too (a 1024x1024 level's is a median
 * 20 ms, up to 160 ms: frames dropped at every edit): the graph is out of
 * the cache meanwhile, the overlay says so, edits made meanwhile are
 * repaired by the next one when it ends, and the graph comes back equal to
 * a fresh build (its saved bytes).  A jump or fall under way goes on as it would have
 * (tn_bot_coast: a twin world without background builds, whose repairs
 * are made in the edit, flies the same arc, frame for frame); a click
 * waits for the repair and plans at once.  On the demo map (up to 128x128)
 * repairs stay in the edit. */
static void test_background_repair(void **state)
{
    (void)state;
    gate_reset();
    tn_world *w = world_gen_with(256, 256, 7, &gate_allocator);
    tn_world *h = world_gen_with(256, 256, 7, NULL);
    tn_world_set_clock(w, bg_clock);
    tn_world_build_graphs_in_background(w, true);
    tn_world_step(w);
    tn_world_step(h);
    tn_world_prepare(w, TN_OVERLAY_SURF); /* its first graph: in the background */
    int steps;
    assert_true(frames_until_graph(w, &steps));
    assert_true(same_place(w, h));
    /* a trip, the same in both (the twin builds its graph in the goto),
     * on to its first jump or fall */
    float cx, cy;
    tn_world_character_center(w, &cx, &cy);
    const int gx = (int)(cx / (float)TN_TILE_PX) + 40, gy = (int)(cy / (float)TN_TILE_PX) - 10;
    assert_true(tn_succeeded(tn_world_goto(w, gx, gy, NULL)));
    assert_true(tn_succeeded(tn_world_goto(h, gx, gy, NULL)));
    assert_true(tn_bot_active(tn_wbots_character_bot(w)));
    int f = 0;
    for (; f < 600 && tn_world_character(w)->on_ground; f++) {
        tn_world_step(w);
        tn_world_step(h);
        assert_true(same_place(w, h));
    }
    assert_false(tn_world_character(w)->on_ground);
    /* an edit in the air: its repair runs on another thread, held there */
    assert_int_equal(tn_wbots_repairs_started(w), 0);
    atomic_store(&gate_closed, true);
    int ex = edit_top_row(w);
    assert_true(tn_succeeded(tn_world_edit(h, ex, 2, TN_EDIT_BLOCK, NULL)));
    assert_int_equal(tn_wbots_repairs_started(w), 1);
    assert_int_equal(tn_wbots_repairs_started(h), 0);
    assert_null(tn_wbots_character_graph(w));
    for (int ms = 0; ms < 2000 && atomic_load(&gate_held) == 0; ms++)
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    assert_true(atomic_load(&gate_held) > 0);
    assert_non_null(strstr(tn_wbots_overlay_note(w, TN_OVERLAY_SURF), "repairing the graph"));
    /* the rest of the arc: the same as the twin's */
    int flown = 0;
    for (; f < 600 && !tn_world_character(h)->on_ground; f++, flown++) {
        tn_world_step(w);
        tn_world_step(h);
        assert_true(same_place(w, h));
    }
    printf("  %d frames flown while the graph was away\n", flown);
    assert_true(flown > 0);
    assert_null(tn_wbots_character_graph(w)); /* (still held) */
    /* an edit meanwhile: taken by the next repair, when this one ends */
    edit_top_row(w);
    assert_int_equal(tn_wbots_repairs_started(w), 1);
    atomic_store(&gate_closed, false);
    assert_true(frames_until_graph(w, &steps));
    printf("  the graph came back %d steps later\n", steps);
    assert_int_equal(tn_wbots_repairs_started(w), 2);
    const tn_map *m = tn_world_map(w);
    tn_surf *g = (tn_surf *)tn_wbots_character_graph(w);
    assert_true(tn_surf_in_sync(g, m));
    assert_fresh_build(g, m);
    int local, full;
    tn_surf_repair_counts(g, &local, &full);
    assert_int_equal(full, 0);
    /* a drag of the block tool (an edit a step): the graph is never
     * rebuilt (edits that would pile up past a sync's tile-by-tile repairs
     * wait for the repair under way) */
    for (int k = 0; k < 40; k++) {
        edit_top_row(w);
        tn_world_step(w);
    }
    assert_true(frames_until_graph(w, &steps));
    g = (tn_surf *)tn_wbots_character_graph(w);
    assert_true(tn_surf_in_sync(g, m));
    assert_fresh_build(g, m);
    tn_surf_repair_counts(g, &local, &full);
    assert_int_equal(full, 0);
    /* a click while a repair is under way waits for it: planned at once */
    const int before = tn_wbots_repairs_started(w);
    edit_top_row(w);
    assert_int_equal(tn_wbots_repairs_started(w), before + 1);
    assert_true(tn_succeeded(tn_world_goto(w, gx, gy, NULL)));
    assert_true(tn_bot_active(tn_wbots_character_bot(w)));
    assert_null(strstr(tn_world_message_text(w), "when the graph is built"));
    g = (tn_surf *)tn_wbots_character_graph(w);
    assert_non_null(g);
    assert_true(tn_surf_in_sync(g, m));
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(h);
    tn_world_destroy(w);
    /* the demo map (up to 128x128 tiles): in the edit, however slow */
    w = gated_world();
    edit_top_row(w);
    edit_top_row(w);
    assert_int_equal(tn_wbots_repairs_started(w), 0);
    assert_non_null(tn_wbots_character_graph(w));
    tn_world_destroy(w);
}

/* Background repairs under a random stream of what a window's user does
 * (a 256x256 level; edits of every kind near the character, gotos, jump
 * height and bot count changes, an edit a few frames), every frame
 * prepared as the window's are and checked (tn_world_check: every plan
 * edge still replays on the map); at the end the character's graph is up
 * to date and equal to a fresh build (its saved bytes). */
static void test_background_repair_soak(void **state)
{
    (void)state;
    tn_world *w = world_gen_with(256, 256, 11, NULL);
    tn_world_set_clock(w, bg_clock);
    tn_world_build_graphs_in_background(w, true);
    tn_rng r;
    tn_rng_seed(&r, 5, 5);
    tn_error err;
    int steps;
    tn_world_prepare(w, TN_OVERLAY_SURF);
    assert_true(frames_until_graph(w, &steps));
    for (int f = 0; f < 1500; f++) {
        float cx, cy;
        tn_world_character_center(w, &cx, &cy);
        const int tx = (int)(cx / (float)TN_TILE_PX), ty = (int)(cy / (float)TN_TILE_PX);
        const uint32_t a = tn_rng_below(&r, 100);
        const int x = tx - 20 + (int)tn_rng_below(&r, 40), y = ty - 15 + (int)tn_rng_below(&r, 30);
        if (a < 25)
            tn_world_edit(w, x, y, (tn_edit)tn_rng_below(&r, TN_EDIT_EMPTY + 1), NULL);
        else if (a < 28)
            tn_world_goto(w, x, y, NULL);
        else if (a == 28)
            tn_world_set(w, "jump_height", 3.0 + (double)tn_rng_below(&r, 3), NULL);
        else if (a == 29)
            tn_world_set(w, "bots", (double)tn_rng_below(&r, 4), NULL);
        tn_world_prepare(w, 0);
        tn_world_step(w);
        if (tn_failed(tn_world_check(w, &err))) fail_msg("frame %d: %s", f, err.msg);
        if (f % 4 == 0) thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    printf("  %d repairs in the background, %d builds\n", tn_wbots_repairs_started(w),
           tn_wbots_builds_started(w));
    assert_true(tn_wbots_repairs_started(w) > 10);
    /* the graph up to date: a goto syncs it with the map (the background's
     * was synced with a copy), and nothing is left to repair */
    assert_true(tn_succeeded(tn_world_set(w, "bots", 0.0, NULL)));
    float cx, cy;
    tn_world_character_center(w, &cx, &cy);
    const int tx = (int)(cx / (float)TN_TILE_PX), ty = (int)(cy / (float)TN_TILE_PX);
    for (int k = 0; k < 30000 && !tn_wbots_character_graph(w); k++) {
        tn_world_goto(w, tx, ty, NULL); /* (waits for a repair, then kept for a build) */
        tn_world_prepare(w, 0);
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    tn_world_goto(w, tx, ty, NULL);
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_non_null(g);
    assert_true(tn_surf_in_sync(g, tn_world_map(w)));
    assert_fresh_build(g, tn_world_map(w));
    tn_world_destroy(w);
}

/* Whether every graph of a body's size has the map's edits: the
 * character's is cached, and each extra bot holds its graph. */
static bool graphs_up(const tn_world *w)
{
    const uint32_t rev = tn_world_map(w)->revision;
    const tn_surf *g = tn_wbots_character_graph(w);
    if (tn_wbots_graphs_behind(w) > 0 || !g || tn_surf_map_revision(g) != rev) return false;
    for (int i = 0; i < tn_wbots_count(w); i++) {
        g = tn_bot_graph(tn_wbots_bot(w, i));
        if (!g || tn_surf_map_revision(g) != rev) return false;
    }
    return true;
}

/* Frames (1 ms apart) until graphs_up; false after 30,000. */
static bool frames_until_graphs_up(tn_world *w, int *frames)
{
    for (*frames = 0; *frames < 30000 && !graphs_up(w); (*frames)++) {
        tn_world_prepare(w, 0);
        tn_world_step(w);
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    return graphs_up(w);
}

/* Bots of two sizes (the extra bots made at 1x2, the character then
 * 2x2) on a map whose repairs run in the background: each edit's repair
 * reaches both graphs, in turn, with the character standing idle and no
 * click (until 2026-12-05 only the graph last used was repaired; the
 * other waited for its next use, then synced on the game's thread: a
 * rebuild there once more than 32 tiles had changed, 4-8 s at
 * 1024x1024).  Each then equals a fresh build of the map. */
static void test_background_repair_two_sizes(void **state)
{
    (void)state;
    tn_world *w = world_gen_with(256, 256, 7, NULL);
    tn_world_set_clock(w, bg_clock); /* (every repair "takes" 60 ms: slow) */
    tn_world_build_graphs_in_background(w, true);
    assert_true(tn_succeeded(tn_world_set(w, "bots", 3, NULL)));
    assert_true(tn_succeeded(tn_world_set(w, "char_width", 2, NULL)));
    tn_world_prepare(w, TN_OVERLAY_SURF);
    int frames;
    assert_true(frames_until_graphs_up(w, &frames));
    const tn_surf *gc = tn_wbots_character_graph(w);
    const tn_surf *gb = tn_bot_graph(tn_wbots_bot(w, 0));
    assert_true(gc != gb);
    assert_int_equal(tn_surf_get_profile(gc)->w, 2);
    assert_int_equal(tn_surf_get_profile(gb)->w, 1);
    /* edits near the character, one a frame */
    float cx, cy;
    tn_world_character_center(w, &cx, &cy);
    const int tx = (int)(cx / (float)TN_TILE_PX), ty = (int)(cy / (float)TN_TILE_PX);
    const int before = tn_wbots_repairs_started(w);
    int made = 0;
    for (int k = 0; k < 24; k++) {
        made += tn_succeeded(tn_world_edit(w, tx - 12 + k, ty - 3 - k % 3, TN_EDIT_BLOCK, NULL));
        tn_world_prepare(w, 0);
        tn_world_step(w);
    }
    assert_true(made > 10);
    assert_true(frames_until_graphs_up(w, &frames));
    printf("  %d edits, %d repairs in the background, every graph up %d frames later\n", made,
           tn_wbots_repairs_started(w) - before, frames);
    assert_true(tn_wbots_repairs_started(w) - before >= 2);
    const tn_map *m = tn_world_map(w);
    gc = tn_wbots_character_graph(w);
    gb = tn_bot_graph(tn_wbots_bot(w, 0));
    assert_fresh_build(gc, m);
    assert_fresh_build(gb, m);
    int local, full;
    tn_surf_repair_counts(gc, &local, &full);
    assert_int_equal(full, 0);
    assert_true(local > 0);
    tn_surf_repair_counts(gb, &local, &full);
    assert_int_equal(full, 0);
    assert_true(local > 0);
    tn_world_destroy(w);
}

/* A generated level of mw x mh tiles through the gate allocator,
 * background builds on, its first graph under way and held at the gate. */
static tn_world *gated_gen_world_wh(int mw, int mh)
{
    gate_reset();
    tn_world *w = world_gen_with(mw, mh, 7, &gate_allocator);
    tn_world_set_clock(w, bg_clock);
    tn_world_build_graphs_in_background(w, true);
    atomic_store(&gate_closed, true);
    tn_world_prepare(w, TN_OVERLAY_SURF); /* starts the build (a map over 128x128) */
    for (int ms = 0; ms < 2000 && atomic_load(&gate_held) == 0; ms++)
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    assert_true(atomic_load(&gate_held) > 0);
    assert_null(tn_wbots_character_graph(w));
    assert_int_equal(tn_wbots_builds_cancelled(w), 0);
    return w;
}

/* The same on a 256x256 level (world_gen). */
static tn_world *gated_gen_world(void) { return gated_gen_world_wh(256, 256); }

/* A map replaced or the world destroyed while a slow background build runs
 * tells it to stop, then waits one poll of it, not the build (the old code
 * waited for the whole build: a 256x256 level's 1.4 s, 4-5 s at 1024x1024
 * in the library, with the window frozen).  The build goes on from the
 * gate once the world frees its parts, sees the stop and ends cancelled. */
static void test_background_build_cancelled(void **state)
{
    (void)state;
    /* map replaced */
    tn_world *w = gated_gen_world();
    atomic_store(&gate_open_on_free, true);
    tn_error e;
    if (tn_failed(tn_world_replace_map(w, tu_load_map("maps/demo.map"), &e))) fail_msg("%s", e.msg);
    assert_int_equal(tn_wbots_builds_cancelled(w), 1);
    assert_false(atomic_load(&gate_timed_out));
    /* the new map's graph is built as ever (the old build's stop is not its) */
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_non_null(g);
    assert_true(tn_surf_node_count(g) > 0);
    tn_world_destroy(w);
    /* the world destroyed: what tn_world_destroy does first (its bots
     * part, which holds the build), then the rest */
    w = gated_gen_world();
    atomic_store(&gate_open_on_free, true);
    tn_wbots_destroy(w);
    assert_int_equal(tn_wbots_builds_cancelled(w), 1);
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
    /* and through tn_world_destroy itself (ASan and valgrind: nothing left) */
    w = gated_gen_world();
    atomic_store(&gate_open_on_free, true);
    tn_world_destroy(w);
    assert_false(atomic_load(&gate_timed_out));
}

/* The background build's clock, closing the gate the second time the
 * build's thread reads it: at the build's end, so the job holds at its next
 * allocation, tn_surf_prepare_repairs' first block. */
static atomic_int prep_reads;
static double prep_clock(void)
{
    if (!thrd_equal(thrd_current(), gate_main) && atomic_fetch_add(&prep_reads, 1) == 1)
        atomic_store(&gate_closed, true);
    return bg_clock();
}

/* Sleeps 1 ms at a time until *v >= want (true), or until `seconds` have
 * passed by the clock (false): a bound by the clock, not by sleeps
 * counted, which a loaded machine oversleeps. */
static bool wait_for_at_least(atomic_int *v, int want, double seconds)
{
    struct timespec t0, t;
    timespec_get(&t0, TIME_UTC);
    for (;;) {
        if (atomic_load(v) >= want) return true;
        timespec_get(&t, TIME_UTC);
        if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 > seconds)
            return atomic_load(v) >= want;
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
}

/* The world destroyed while its background job prepares the graph's
 * repairs (after the build, tn_surf_prepare_repairs writes the blocks a
 * repair takes) stops that too: the job asks for no block after the stop
 * (the old code made them all, 21 more on this 512x512 level, and the
 * quit waited for them: 1.1-3.7 s at 1024x1024 on a loaded machine while
 * the call wrote 230 MB). */
static void test_destroy_during_prepare_repairs(void **state)
{
    (void)state;
    gate_reset();
    atomic_store(&prep_reads, 0);
    tn_world *w = world_gen_with(512, 512, 7, &gate_allocator);
    tn_world_set_clock(w, prep_clock);
    tn_world_build_graphs_in_background(w, true);
    tn_world_prepare(w, TN_OVERLAY_SURF); /* starts the build (a map over 128x128) */
    /* the build's end (its thread's second clock reading closes the gate),
     * however long the build takes: it waited 30,000 sleeps of 1 ms, and an
     * ASan build sharing its CPU with busy programs used 25,200-27,500 of
     * them (53-59 s) */
    assert_true(wait_for_at_least(&prep_reads, 2, 600.0));
    /* then its next allocation, at once: prepare_repairs' first block */
    assert_true(wait_for_at_least(&gate_held, 1, 30.0));
    assert_int_equal(atomic_load(&gate_held), 1); /* built, its first block held */
    assert_int_equal(atomic_load(&prep_reads), 2);
    assert_null(tn_wbots_character_graph(w)); /* (still the job's) */
    atomic_store(&gate_open_on_free, true);
    tn_world_destroy(w); /* (ASan and valgrind: nothing left) */
    assert_false(atomic_load(&gate_timed_out));
    assert_true(atomic_load(&gate_freed));
    assert_int_equal(atomic_load(&gate_after_free), 0);
    atomic_store(&gate_freed, false);
}

/* A build for a jump height the slider moved on from (nobody steps under
 * those physics) stops at the next step; the graph for the new value is
 * built next, in the background, and the stopped one is not cached (the
 * old code finished it first: the new value's graph came a whole build
 * later). */
static void test_background_build_value_moved_on(void **state)
{
    (void)state;
    tn_world *w = gated_world_building(5.0); /* the graph for jump 5, under way */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 6.0, NULL)));
    tn_world_step(w); /* the bot wants jump 6's graph: jump 5's is told to stop */
    atomic_store(&gate_closed, false);
    int steps;
    assert_true(step_until_graph(w, &steps));
    assert_int_equal(tn_wbots_builds_cancelled(w), 1);
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_true(tn_surf_get_profile(g)->phys.jump_height == 6.0f);
    assert_fresh_build(g, tn_world_map(w));
    char hud[512];
    for (int f = 0; f < 120; f++) {
        tn_world_hud(w, hud, sizeof hud);
        if (strstr(hud, "| re-plan 1 (physics changed)")) break;
        tn_world_step(w);
    }
    if (!strstr(hud, "| re-plan 1 (physics changed)")) fail_msg("HUD: %s", hud);
    /* jump 5's graph was dropped, not cached */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5.0, NULL)));
    assert_null(tn_wbots_character_graph(w));
    /* a build for the world's own physics is not stopped by a step */
    tn_world_step(w); /* (starts jump 5's again) */
    assert_int_equal(tn_wbots_builds_cancelled(w), 1);
    assert_true(step_until_graph(w, &steps));
    assert_int_equal(tn_wbots_builds_cancelled(w), 1);
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* The same for a size: a build for a character height the slider moved on
 * from, that no extra bot has, stops; one an extra bot has goes on (it
 * waits for it).  The old code stopped only for another jump height: the
 * graph for the new size came a whole build later (5-10 s at 1024x1024). */
static void test_background_build_size_moved_on(void **state)
{
    (void)state;
    tn_world *w = gated_world();
    atomic_store(&gate_closed, true);
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 3.0, NULL)));
    assert_true(build_held(w)); /* the graph for 1x3, under way */
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 1.0, NULL)));
    tn_world_step(w); /* the bot wants 1x1's graph: 1x3's is told to stop */
    atomic_store(&gate_closed, false);
    int steps;
    assert_true(step_until_graph(w, &steps));
    assert_int_equal(tn_wbots_builds_cancelled(w), 1);
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_int_equal(tn_surf_get_profile(g)->h, 1);
    assert_fresh_build(g, tn_world_map(w));
    /* an extra bot 1x1 tall, the character 1x3 again: 1x3's build is
     * wanted by the character; then the character back to 1x1 (cached):
     * the build goes on, no body is 1x3... */
    atomic_store(&gate_closed, true);
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 3.0, NULL)));
    assert_true(build_held(w));
    assert_true(tn_succeeded(tn_world_set(w, "bots", 1.0, NULL))); /* made 1x3 */
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 1.0, NULL)));
    for (int f = 0; f < 5; f++) tn_world_step(w);
    atomic_store(&gate_closed, false);
    /* ...but the extra bot is: its build was not stopped */
    for (int ms = 0; ms < 5000; ms++) {
        tn_world_step(w);
        const tn_surf *eg = tn_bot_graph(tn_wbots_bot(w, 0));
        if (eg && tn_surf_get_profile(eg)->h == 3) break;
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    assert_int_equal(tn_wbots_builds_cancelled(w), 1);
    const tn_surf *eg = tn_bot_graph(tn_wbots_bot(w, 0));
    assert_non_null(eg);
    assert_int_equal(tn_surf_get_profile(eg)->h, 3);
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* A frame of the window with the surface overlay on (it asks for the
 * character's graph at every frame, whether a bot plans or not), then 1 ms. */
static void frame(tn_world *w)
{
    tn_world_prepare(w, TN_OVERLAY_SURF);
    tn_world_step(w);
    thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
}

/* Frames until `count` of the world's background builds have failed;
 * false after 2 s. */
static bool step_until_failed(tn_world *w, int count)
{
    for (int ms = 0; ms < 2000 && tn_wbots_builds_failed(w) < count; ms++) frame(w);
    return tn_wbots_builds_failed(w) >= count;
}

/* n frames (time for a build started again to run and end). */
static void step_ms(tn_world *w, int n)
{
    for (int f = 0; f < n; f++) frame(w);
}

/* A background build that runs out of memory is not started again for the
 * same map and profile (the old code started it again at every step: a
 * thread a frame, each failing, the bot "waiting" for ever): the failure
 * is said, the bot plans with the classic planner (as after a failed build
 * on this thread), and the build is tried again once after a map edit, and
 * once after a slider change. */
static void test_background_build_failure_not_restarted(void **state)
{
    (void)state;
    tn_world *w = gated_world(); /* the trip under way, jump 4's graph cached */
    assert_int_equal(tn_wbots_builds_started(w), 0);
    atomic_store(&gate_fail, true);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5.0, NULL)));
    assert_true(step_until_failed(w, 1));
    const char *msg = tn_world_message_text(w);
    if (!strstr(msg, "graph planner: ") || !strstr(msg, "out of memory"))
        fail_msg("message: %s", msg);
    step_ms(w, 200);
    int fails = atomic_load(&gate_failed);
    printf("  %d failed allocations, %d build(s) started\n", fails, tn_wbots_builds_started(w));
    assert_int_equal(tn_wbots_builds_started(w), 1);
    assert_int_equal(tn_wbots_builds_failed(w), 1);
    step_ms(w, 50);
    assert_int_equal(atomic_load(&gate_failed), fails); /* nothing allocates off-thread */
    assert_null(tn_wbots_character_graph(w));
    /* the bot goes on with the classic planner, and says why */
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.planner, 0);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    printf("  %s\n", hud);
    if (strstr(hud, "when its graph is built") || !strstr(hud, "graph build failed"))
        fail_msg("HUD: %s", hud);
    const char *note = tn_wbots_overlay_note(w, TN_OVERLAY_SURF);
    if (!note || !strstr(note, "build failed")) fail_msg("note: %s", note ? note : "(none)");
    /* a goto plans at once with the classic planner, and builds nothing */
    assert_true(tn_succeeded(tn_world_goto(w, 20, 12, NULL)));
    msg = tn_world_message_text(w);
    printf("  %s\n", msg);
    if (!strstr(msg, "graph build failed (") || !strstr(msg, "classic planner: goto (20,"))
        fail_msg("message: %s", msg);
    assert_int_equal(tn_bot_get_info(tn_wbots_character_bot(w)).planner, 0);
    step_ms(w, 20);
    assert_int_equal(tn_wbots_builds_started(w), 1);
    /* an edit (a block on an empty tile of the top row): tried once again */
    const int ex = edit_top_row(w);
    assert_true(step_until_failed(w, 2));
    step_ms(w, 100);
    assert_int_equal(tn_wbots_builds_started(w), 2);
    assert_int_equal(tn_wbots_builds_failed(w), 2);
    /* a slider change: once for the new value, once for the old one back */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 6.0, NULL)));
    assert_true(step_until_failed(w, 3));
    step_ms(w, 100);
    assert_int_equal(tn_wbots_builds_started(w), 3);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5.0, NULL)));
    assert_true(step_until_failed(w, 4));
    step_ms(w, 100);
    assert_int_equal(tn_wbots_builds_started(w), 4);
    /* memory back, then an edit: the graph is built */
    atomic_store(&gate_fail, false);
    assert_true(tn_succeeded(tn_world_edit(w, ex, 2, TN_EDIT_EMPTY, NULL)));
    for (int ms = 0; ms < 2000 && !tn_wbots_character_graph(w); ms++) frame(w);
    assert_int_equal(tn_wbots_builds_started(w), 5);
    assert_int_equal(tn_wbots_builds_failed(w), 4);
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_true(tn_surf_get_profile(g)->phys.jump_height == 5.0f);
    assert_fresh_build(g, tn_world_map(w));
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* A clock 60 ms a reading on the main thread, 1 ms on another: a
 * background build that fails at once "takes" 1 ms. */
static atomic_long split_ticks;
static double split_clock(void)
{
    return 0.001 *
           (double)atomic_fetch_add(&split_ticks, thrd_equal(thrd_current(), gate_main) ? 60 : 1);
}

/* A background build that failed at once (out of memory at its first
 * allocation) is not timed as a fast build: neither it nor the next one,
 * for a slider's new value, is then built on the window's thread (the old
 * code took the failure's 1 ms for the map's build time and built the
 * same graph again at once on the window's thread: a freeze of seconds on
 * a large map, likely to run out of memory as well). */
static void test_failed_build_time_not_taken_as_fast(void **state)
{
    (void)state;
    tn_world *w = gated_world();
    tn_world_set_clock(w, split_clock);
    atomic_store(&gate_fail, true);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5.0, NULL)));
    assert_true(step_until_failed(w, 1));
    step_ms(w, 20);
    assert_null(tn_wbots_character_graph(w)); /* not built on this thread */
    assert_int_equal(tn_wbots_builds_started(w), 1);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 6.0, NULL)));
    atomic_store(&gate_fail, false);
    tn_world_step(w);
    assert_null(tn_wbots_character_graph(w)); /* not built on this thread */
    assert_int_equal(tn_wbots_builds_started(w), 2);
    int steps;
    assert_true(step_until_graph(w, &steps));
    assert_true(tn_surf_get_profile(tn_wbots_character_graph(w))->phys.jump_height == 6.0f);
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* The build held at the gate fails (out of memory): the world's first and
 * only build, 100 ms of steps after it failed. */
static void fail_held_build(tn_world *w)
{
    atomic_store(&gate_fail, true);
    atomic_store(&gate_closed, false);
    assert_true(step_until_failed(w, 1));
    step_ms(w, 100);
    assert_int_equal(tn_wbots_builds_started(w), 1);
}

/* big_fail: once set, every allocation of 64 KB or more fails (counted in
 * big_failed): a graph build on the demo map runs out of memory, the
 * world's small ones do not. */
static bool big_fail;
static long big_failed;
static void *big_alloc(void *user, size_t size)
{
    (void)user;
    if (big_fail && size >= 65536) {
        big_failed++;
        return NULL;
    }
    return malloc(size);
}
static void big_free(void *user, void *p)
{
    (void)user;
    free(p);
}
static const tn_allocator big_allocator = {big_alloc, big_free, NULL};

/* Headless (graphs built on this thread), a graph build that fails is not
 * built again at every step and plan: as a background build's failure, it
 * is tried again after a map edit or a slider change, and the classic
 * planner plans the goto meanwhile.  (The old code built it again, and
 * said so, for each plan of the bot.) */
static void test_failed_build_here_not_retried(void **state)
{
    (void)state;
    big_fail = false;
    big_failed = 0;
    tn_world *w = NULL;
    tn_error err;
    tn_world_config c = tn_world_default_config();
    if (tn_failed(tn_world_create(tu_load_map("maps/demo.map"), &c, &big_allocator, &w, &err)))
        fail_msg("%s", err.msg);
    for (int f = 0; f < 5; f++) tn_world_step(w);
    big_fail = true;
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5.0, NULL)));
    assert_true(tn_succeeded(tn_world_goto(w, 70, 12, NULL)));
    const long first = big_failed;
    assert_true(first > 0); /* (the build ran out of memory) */
    for (int k = 0; k < 300; k++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 10, 12, NULL)));
    for (int k = 0; k < 300; k++) tn_world_step(w);
    printf("  allocations refused: %ld after the goto, %ld after 600 steps and another goto\n",
           first, big_failed);
    assert_int_equal(big_failed, first);
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.planner, 0); /* the classic planner planned it */
    /* a map edit tries again (and fails again, once) */
    const tn_map *m = tn_world_map(w);
    int ex = -1;
    for (int x = 1; x < m->w - 1 && ex < 0; x++)
        if (tn_map_tile(m, x, 1) == TN_TILE_EMPTY) ex = x;
    assert_true(ex >= 0);
    assert_true(tn_succeeded(tn_world_edit(w, ex, 1, TN_EDIT_BLOCK, NULL)));
    assert_true(tn_succeeded(tn_world_goto(w, 70, 12, NULL)));
    for (int k = 0; k < 100; k++) tn_world_step(w);
    printf("  after an edit: %ld\n", big_failed);
    assert_true(big_failed > first);
    big_fail = false;
    tn_world_destroy(w);
}

/* A goto kept while its graph builds in the background, whose build then
 * runs out of memory, is not kept waiting for ever (the old code started
 * the build again at every step, the HUD "waiting" for good): on a map with
 * a classic finder (up to 512x512) the classic planner plans it, as it
 * plans a click whose graph failed to build on this thread, and the
 * message says why. */
static void test_kept_goto_when_its_build_fails(void **state)
{
    (void)state;
    tn_world *w = gated_world_building(5.0); /* the graph for jump 5, under way */
    assert_true(tn_succeeded(tn_world_goto(w, 20, 12, NULL)));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "waiting | goto (20,12)")) fail_msg("HUD: %s", hud);
    fail_held_build(w);
    tn_world_hud(w, hud, sizeof hud);
    if (strstr(hud, "waiting")) fail_msg("HUD: %s", hud);
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.goal_x, 20);
    assert_int_equal(i.planner, 0);
    assert_true(i.state == TN_BOT_MOVING || i.state == TN_BOT_ARRIVED);
    const char *msg = tn_world_message_text(w);
    printf("  %s\n", msg);
    if (!strstr(msg, "graph build failed") || !strstr(msg, "classic planner"))
        fail_msg("message: %s", msg);
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* The same above 512x512 tiles, where there is no classic finder: the kept
 * goto is dropped, the message says why, the bot does not wait for ever,
 * and a goto before any change is refused with the same reason rather than
 * starting the build again; an edit tries it again. */
static void test_kept_goto_dropped_when_its_build_fails(void **state)
{
    (void)state;
    tn_world *w = gated_gen_world_wh(1040, 256); /* the first graph, under way */
    for (int k = 0; k < 600 && !tn_world_character(w)->on_ground; k++) tn_world_step(w);
    assert_true(tn_world_character(w)->on_ground);
    int cx, cy;
    tn_body_tile(tn_world_character(w), tn_world_phys(w), &cx, &cy);
    assert_true(tn_succeeded(tn_world_goto(w, cx, cy, NULL)));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "waiting | goto (")) fail_msg("HUD: %s", hud);
    fail_held_build(w);
    char want[128];
    snprintf(want, sizeof want, "goto (%d,%d) dropped: graph build failed: ", cx, cy);
    const char *msg = tn_world_message_text(w);
    printf("  %s\n", msg);
    if (!strstr(msg, want) || !strstr(msg, "out of memory")) fail_msg("message: %s", msg);
    tn_world_hud(w, hud, sizeof hud);
    printf("  %s\n", hud);
    if (strstr(hud, "waiting") || !strstr(hud, "graph build failed (")) fail_msg("HUD: %s", hud);
    assert_false(tn_bot_active(tn_wbots_character_bot(w)));
    /* the player plays on: the keys move the character */
    float x0 = tn_world_character(w)->x;
    tn_world_set_input(w, (tn_input){false, true, false, false});
    for (int f = 0; f < 10; f++) tn_world_step(w);
    tn_world_set_input(w, (tn_input){false, false, false, false});
    assert_true(tn_world_character(w)->x != x0);
    /* a goto now is refused, saying why, with no build started */
    tn_error e;
    assert_true(tn_failed(tn_world_goto(w, cx, cy, &e)));
    if (!strstr(e.msg, "graph build failed") || !strstr(e.msg, "out of memory"))
        fail_msg("error: %s", e.msg);
    step_ms(w, 20);
    assert_int_equal(tn_wbots_builds_started(w), 1);
    /* an edit: the build is tried once again (a goto is kept meanwhile) */
    edit_top_row(w);
    assert_true(tn_succeeded(tn_world_goto(w, cx, cy, NULL)));
    assert_true(step_until_failed(w, 2));
    step_ms(w, 100);
    assert_int_equal(tn_wbots_builds_started(w), 2);
    assert_false(tn_bot_active(tn_wbots_character_bot(w)));
    tn_world_hud(w, hud, sizeof hud);
    if (strstr(hud, "waiting")) fail_msg("HUD: %s", hud);
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* A bot of the world that stopped on a graph of another profile than its
 * body's (626071e: such a re-plan now stops NO_PATH): its plan error. */
static const char *another_profile(const tn_bot *bot)
{
    const tn_error *e = tn_bot_plan_error(bot);
    return e && strstr(e->msg, "another profile") ? e->msg : NULL;
}

/* Sliders moved mid-trip in every state the world meets them in: the
 * character in the air or on the ground, builds on this thread or in the
 * background (every build "slow"), extra bots of another size sharing
 * graphs per profile, the graph planner from the start or switched to
 * from classic after the move; the jump slider and the size sliders.
 * A re-plan in tn_bot_step on a graph of another profile stops NO_PATH
 * (626071e): the world sets each bot's graph for its profile before each
 * step, so no bot ever meets one, and the character arrives (both moves
 * keep the ledge in reach). */
static void test_sliders_mid_trip_never_another_profile(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double value;
    } moves[] = {{"jump_height", 5.0}, {"char_height", 1.0}};
    int cases = 0;
    for (int mv = 0; mv < 2; mv++)
        for (int bgw = 0; bgw < 4; bgw++)
            for (int air = 0; air < 2; air++)
                for (int classic_first = 0; classic_first < 2; classic_first++) {
                    tn_world *w = world("tests/data/path_ledge4.map");
                    const int wide = bgw >> 1, bg = bgw & 1; /* 2x2, extra bots 1x2 */
                    if (bg) {
                        tn_world_set_clock(w, bg_clock);
                        tn_world_build_graphs_in_background(w, true);
                    }
                    assert_true(tn_succeeded(tn_world_set(w, "bots", 3, NULL)));
                    if (wide) assert_true(tn_succeeded(tn_world_set(w, "char_width", 2, NULL)));
                    assert_true(
                        tn_succeeded(tn_world_set(w, "planner", classic_first ? 0 : 1, NULL)));
                    tn_world_step(w);
                    tn_world_set_tool(w, TN_TOOL_GOTO);
                    assert_true(tn_succeeded(tn_world_click(w, 20, 6, TN_CLICK_LEFT, false, NULL)));
                    int f = 0;
                    if (air)
                        while (f++ < 400 && tn_world_character(w)->on_ground) {
                            tn_world_prepare(w, 0);
                            tn_world_step(w);
                        }
                    else
                        for (; f < 3; f++) tn_world_step(w);
                    assert_true(tn_bot_active(tn_wbots_character_bot(w)));
                    assert_true(!air || !tn_world_character(w)->on_ground);
                    tn_error e;
                    if (tn_failed(tn_world_set(w, moves[mv].name, moves[mv].value, &e)))
                        fail_msg("%s=%g air %d: %s", moves[mv].name, moves[mv].value, air, e.msg);
                    if (classic_first)
                        assert_true(tn_succeeded(tn_world_set(w, "planner", 1, NULL)));
                    for (; f < 2400 && tn_bot_active(tn_wbots_character_bot(w)); f++) {
                        tn_world_prepare(w, 0);
                        tn_world_step(w);
                        if (bg) /* (the build runs on its thread meanwhile) */
                            thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
                        const char *m = another_profile(tn_wbots_character_bot(w));
                        for (int i = 0; !m && i < tn_wbots_count(w); i++)
                            m = another_profile(tn_wbots_bot(w, i));
                        if (m)
                            fail_msg("%s=%g bg %d wide %d air %d classic first %d, frame %d: %s",
                                     moves[mv].name, moves[mv].value, bg, wide, air, classic_first,
                                     f, m);
                    }
                    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
                    if (i.state != TN_BOT_ARRIVED) {
                        char hud[1024];
                        tn_world_hud(w, hud, sizeof hud);
                        fail_msg("%s=%g bg %d wide %d air %d classic first %d: state %d after %d "
                                 "frames; "
                                 "builds %d cancelled %d failed %d waiting %d HUD: %s",
                                 moves[mv].name, moves[mv].value, bg, wide, air, classic_first,
                                 (int)i.state, f, tn_wbots_builds_started(w),
                                 tn_wbots_builds_cancelled(w), tn_wbots_builds_failed(w),
                                 tn_wbots_waiting(w, 0), hud);
                    }
                    cases++;
                    tn_world_destroy(w);
                }
    printf("  %d cases: every trip arrived, no bot met a graph of another profile\n", cases);
}
#endif

#if !defined(__STDC_NO_THREADS__)
/* A map's first graph, built in the background (a map over 128x128, no
 * build timed yet): the overlay says it is this map's graph being built,
 * not one "for the new value" (no value changed). */
static void test_background_first_build_note(void **state)
{
    (void)state;
    tn_world *w = world_gen256();
    tn_world_set_clock(w, bg_clock);
    tn_world_build_graphs_in_background(w, true);
    tn_world_prepare(w, TN_OVERLAY_SURF); /* starts the build */
    assert_null(tn_wbots_character_graph(w));
    const char *note = tn_wbots_overlay_note(w, TN_OVERLAY_SURF);
    assert_non_null(note);
    if (!strstr(note, "building this map's graph in the background")) fail_msg("note: %s", note);
    tn_world_destroy(w); /* (waits for the build) */
}
#endif

static void test_hud_compare_follows_replan(void **state)
{
    (void)state;
    tn_world *w = sent_to("tests/data/path_ledge4.map", 20, 6);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, " | classic: found, "));
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 1, NULL)));
    int f = 0;
    tn_bot_info i;
    do {
        tn_world_step(w);
        i = tn_bot_get_info(tn_wbots_character_bot(w));
    } while (f++ < 600 && (i.replans == 0 || i.pending_reason[0]));
    assert_int_equal(i.replans, 1);
    assert_string_equal(i.plan_reason, "physics changed");
    tn_world_hud(w, hud, sizeof hud);
    printf("  after the re-plan: %s\n", hud);
    assert_null(strstr(hud, "classic: found"));
    assert_non_null(strstr(hud, " | classic (re-plan): partial, "));
    /* a re-plan for another reason (nothing changed under it) keeps the
     * click's answer: a new click is a fresh comparison */
    assert_true(tn_succeeded(tn_world_click(w, 3, 10, TN_CLICK_LEFT, false, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, " | classic: "));
    assert_null(strstr(hud, "(re-plan):"));
    tn_world_destroy(w);
}

/* A graph goto clicked in the air after a classic trip: the plan waits for
 * the landing, and the HUD shows no node count or search time meanwhile
 * (the reviewer saw "planning (new goal) on landing | 4490 nodes", the
 * classic search's states labelled as graph nodes). */
static void test_hud_pending_plan_shows_no_nodes(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    tn_world_set_clock(w, fake_clock);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 47, 20, NULL)));
    int f = 0;
    while (f++ < 600 && tn_world_character(w)->on_ground) tn_world_step(w);
    assert_false(tn_world_character(w)->on_ground);
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.planner, 0);
    assert_true(i.expanded > 0); /* the classic search's states */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 1, NULL)));
    assert_true(tn_succeeded(tn_world_goto(w, 75, 40, NULL)));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    printf("  pending: %s\n", hud);
    assert_non_null(strstr(hud, "bot [graph]: moving | planning (new goal) on landing"));
    assert_null(strstr(hud, " nodes"));
    assert_null(strstr(hud, "search "));
    while (f++ < 900 && !tn_world_character(w)->on_ground) tn_world_step(w);
    tn_world_step(w);
    tn_world_hud(w, hud, sizeof hud);
    i = tn_bot_get_info(tn_wbots_character_bot(w));
    char want[64];
    snprintf(want, sizeof want, " | %d nodes | search 25 us", i.expanded);
    assert_non_null(strstr(hud, want)); /* the graph's own search, once made */
    tn_world_destroy(w);
}

/* G switches the HUD's planner at once, even for a bot at rest. */
static void test_hud_follows_planner_switch(void **state)
{
    (void)state;
    tn_world *w = sent_to("tests/data/path_ledge4.map", 5, 10);
    for (int f = 0; f < 200; f++) tn_world_step(w);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [graph]: arrived"));
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [classic]: arrived | planner switched"));
    /* mid-trip: the bot switches now and re-plans with the classic planner */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 1, NULL)));
    tn_world_click(w, 20, 6, TN_CLICK_LEFT, false, NULL);
    /* the graph's answer for the click is the bot's own plan (one search) */
    const int frames = tn_bot_get_info(tn_wbots_character_bot(w)).plan_frames;
    assert_true(frames > 0);
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot [classic]: moving"));
    /* once it re-planned: the goal's first plan was the graph's (no classic
     * "0 tiles, 0 states"), and the graph's answer for the click is there
     * (this 25x12 map is far below the graph's 256x256 limit) */
    for (int f = 0; f < 60 && tn_bot_get_info(tn_wbots_character_bot(w)).replans == 0; f++)
        tn_world_step(w);
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.replans, 1);
    tn_world_hud(w, hud, sizeof hud);
    char want[64], answer[48];
    snprintf(want, sizeof want, "goto (%d,%d): first plan by graph | re-plan 1 (planner switched)",
             i.goal_x, i.goal_y);
    snprintf(answer, sizeof answer, " | graph: found, %d frames, ", frames);
    if (!strstr(hud, want) || strstr(hud, " 0 tiles, 0 states") || strstr(hud, "graph off") ||
        !strstr(hud, answer))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A key from the player cancels the trip and the player drives. */
static void test_key_cancels(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_ledge4.map");
    int dx, dy;
    dest_of(w, &dx, &dy);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_click(w, dx, dy, TN_CLICK_LEFT, false, NULL);
    for (int f = 0; f < 10; f++) tn_world_step(w);
    assert_true(tn_bot_active(tn_wbots_character_bot(w)));
    float x = tn_world_character(w)->x;
    tn_input left = {0};
    left.left = true;
    tn_world_set_input(w, left);
    tn_world_step(w);
    assert_false(tn_bot_active(tn_wbots_character_bot(w)));
    assert_int_equal(tn_bot_get_info(tn_wbots_character_bot(w)).state, TN_BOT_IDLE);
    assert_true(tn_world_character(w)->x < x); /* the player's key moved it */
    tn_input none = {0};
    tn_world_set_input(w, none);
    for (int f = 0; f < 30; f++) tn_world_step(w);
    assert_false(tn_bot_active(tn_wbots_character_bot(w)));
    tn_world_destroy(w);
}

/* A click in the air sends the character to the ground below it. */
static void test_click_in_air(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_ledge4.map");
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_set_input(w, (tn_input){.jump = true}); /* (clicked in a jump) */
    for (int f = 0; f < 3; f++) tn_world_step(w);
    tn_world_set_input(w, (tn_input){0});
    assert_false(tn_world_character(w)->on_ground);
    assert_true(tn_succeeded(tn_world_click(w, 19, 1, TN_CLICK_LEFT, false, NULL)));
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.goal_x, 19);
    assert_int_equal(i.goal_y, 6);
    /* G to classic on the way: the graph was not searched for this click
     * (the character was not standing): no "none, -1 frames" */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    for (int f = 0; f < 120 && tn_bot_get_info(tn_wbots_character_bot(w)).plans == 0; f++)
        tn_world_step(w);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [classic]: moving | goto (19,6): ") || strstr(hud, "-1 frames") ||
        !strstr(hud, " | graph: n/a (in the air at the click)"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A click on a one-way platform: standing on it (the tile above), with
 * either planner, as a click on a block means its top. */
static void test_click_on_oneway(void **state)
{
    (void)state;
    for (int planner = 0; planner < 2; planner++) {
        tn_world *w = world("maps/demo.map");
        assert_int_equal(tn_map_tile(tn_world_map(w), 60, 9), TN_TILE_ONEWAY);
        assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
        tn_world_step(w);
        tn_world_set_tool(w, TN_TOOL_GOTO);
        assert_true(tn_succeeded(tn_world_click(w, 60, 9, TN_CLICK_LEFT, false, NULL)));
        tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
        assert_int_equal(i.goal_x, 60);
        assert_int_equal(i.goal_y, 8);
        /* the air above it still means the platform */
        assert_true(tn_succeeded(tn_world_click(w, 60, 5, TN_CLICK_LEFT, false, NULL)));
        i = tn_bot_get_info(tn_wbots_character_bot(w));
        assert_int_equal(i.goal_y, 8);
        tn_world_destroy(w);
    }
}

static void test_extra_bots(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_oneway_up.map");
    tn_error err;
    assert_true(tn_succeeded(tn_world_set(w, "bots", 5, &err)));
    double v = 0;
    assert_true(tn_world_get(w, "bots", &v));
    assert_true(v == 5.0);
    assert_int_equal(tn_wbots_count(w), 5);
    for (int f = 0; f < 3000; f++) tn_world_step(w);
    const char *j = json(w);
    assert_non_null(strstr(j, "\"extra_bots\":5"));
    int trips = 0, arrivals = 0;
    const char *t = strstr(j, "\"extra_trips\":");
    assert_non_null(t);
    assert_int_equal(sscanf(t, "\"extra_trips\":%d,\"extra_arrivals\":%d", &trips, &arrivals), 2);
    assert_true(arrivals > 10);
    assert_true(arrivals >= trips - 5); /* at most the 5 trips in progress are missing */
    /* every extra bot stands or falls inside the room, never in a block */
    for (int i = 0; i < 5; i++) {
        const tn_body *b = tn_wbots_body(w, i);
        assert_false(
            tn_body_box_blocked(tn_world_map(w), tn_world_phys(w), b->x, b->y, b->w, b->h));
    }
    /* a block inside a bot is refused */
    const tn_body *b0 = tn_wbots_body(w, 0);
    int bx, by;
    tn_body_tile(b0, tn_world_phys(w), &bx, &by);
    if (!tn_world_body_overlaps_tile(tn_world_character(w), bx, by)) {
        int before = tn_world_refused_edits(w);
        tn_status s = tn_world_edit(w, bx, by, TN_EDIT_BLOCK, &err);
        assert_true(tn_failed(s));
        assert_true(tn_status_detail(s, TN_REFUSED));
        assert_non_null(strstr(err.msg, "inside bot"));
        assert_int_equal(tn_world_refused_edits(w), before + 1);
    }
    /* out of range is refused by the world */
    assert_true(tn_failed(tn_world_set(w, "bots", 33, &err)));
    assert_true(tn_succeeded(tn_world_set(w, "bots", 0, &err)));
    assert_int_equal(tn_wbots_count(w), 0);
    tn_world_destroy(w);
}

/* Same seed, same commands: same JSON (extra bots included). */
static void test_deterministic(void **state)
{
    (void)state;
    char a[4096], b[4096];
    for (int k = 0; k < 2; k++) {
        tn_world *w = world("tests/data/path_oneway_drop.map");
        tn_world_set(w, "bots", 4, NULL);
        tn_world_set_tool(w, TN_TOOL_GOTO);
        tn_world_click(w, 11, 10, TN_CLICK_LEFT, false, NULL);
        for (int f = 0; f < 1500; f++) tn_world_step(w);
        tn_world_json(w, k ? b : a, sizeof a);
        tn_world_destroy(w);
    }
    assert_string_equal(a, b);
}

/* ---- the extra bots' planning budget --------------------------------------- */

typedef struct plan_copy {
    int n, frames;
    tn_surf_leg legs[64];
} plan_copy;

static plan_copy plan_of_bot(const tn_bot *bot)
{
    plan_copy c;
    memset(&c, 0, sizeof c);
    const tn_surf_leg *l = tn_bot_legs(bot, &c.n, NULL);
    assert_true(c.n <= 64);
    memcpy(c.legs, l, (size_t)c.n * sizeof *l);
    c.frames = tn_bot_get_info(bot).plan_frames;
    return c;
}

static int plans_of(const tn_world *w, int i) { return tn_bot_get_info(tn_wbots_bot(w, i)).plans; }

/* N extra bots on their trips and an edit: without a budget every bot on
 * the ground re-plans in the next step (one frame paid for all of them:
 * 78-167 ms on a 1024x1024 level).  With a budget of K, two worlds made
 * alike: at most K plan in a step, the rest stand and wait their turn, all
 * have planned ceil(P/K) steps later, and each plan is the one the bot
 * made without the budget (it stood where it waited). */
static void test_plan_budget_spreads_replans(void **state)
{
    (void)state;
    enum { N = 8, K = 2 };
    tn_world *a = world("maps/demo.map"), *b = world("maps/demo.map");
    assert_int_equal(tn_wbots_plan_budget(a), 18); /* 65,536 / (80 x 45) */
    tn_wbots_set_plan_budget(a, -1);
    assert_int_equal(tn_wbots_plan_budget(a), 0);
    tn_wbots_set_plan_budget(b, -1);
    assert_true(tn_succeeded(tn_world_set(a, "bots", N, NULL)));
    assert_true(tn_succeeded(tn_world_set(b, "bots", N, NULL)));
    /* then on until every bot stands on the ground, under way or at rest
     * since fewer than 20 steps (a rest is at least WAIT_MIN = 30): in the
     * few steps below none lands (re-planning for the edit then) nor starts
     * its next trip, plans the count does not expect */
    bool all = false;
    int rest[N] = {0}; /* steps at rest so far */
    for (int f = 0; f < 400 || (!all && f < 8000); f++) {
        tn_world_step(a);
        tn_world_step(b);
        all = true;
        for (int i = 0; i < N; i++) {
            rest[i] = tn_bot_active(tn_wbots_bot(a, i)) ? 0 : rest[i] + 1;
            all = all && tn_wbots_body(a, i)->on_ground && rest[i] < 20;
        }
    }
    assert_true(all);
    for (int i = 0; i < N; i++) {
        assert_true(tn_wbots_body(a, i)->x == tn_wbots_body(b, i)->x);
        assert_true(tn_wbots_body(a, i)->y == tn_wbots_body(b, i)->y);
    }
    tn_wbots_set_plan_budget(b, K);
    assert_int_equal(tn_wbots_plan_budget(b), K);
    /* a one-way platform high in the air: every plan is stale, none cut */
    assert_true(tn_succeeded(tn_world_edit(a, 40, 1, TN_EDIT_ONEWAY, NULL)));
    assert_true(tn_succeeded(tn_world_edit(b, 40, 1, TN_EDIT_ONEWAY, NULL)));
    int before[N];
    for (int i = 0; i < N; i++) {
        assert_int_equal(plans_of(a, i), plans_of(b, i));
        before[i] = plans_of(a, i);
    }
    tn_world_step(a);
    bool due[N] = {false};
    plan_copy want[N];
    int p = 0;
    for (int i = 0; i < N; i++)
        if (plans_of(a, i) > before[i]) {
            assert_int_equal(plans_of(a, i), before[i] + 1);
            assert_string_equal(tn_bot_get_info(tn_wbots_bot(a, i)).plan_reason, "map edited");
            due[i] = true;
            want[i] = plan_of_bot(tn_wbots_bot(a, i));
            p++;
        }
    assert_int_equal(tn_wbots_step_plans(a), p);
    if (p <= K) fail_msg("only %d bots re-planned: the budget of %d is not tested", p, K);
    const int steps = (p + K - 1) / K;
    int planned = 0;
    for (int t = 1; t <= steps; t++) {
        int prev[N];
        for (int i = 0; i < N; i++) prev[i] = plans_of(b, i);
        tn_world_step(b);
        int made = 0, waiting = 0;
        for (int i = 0; i < N; i++) {
            made += plans_of(b, i) - prev[i];
            waiting += tn_wbots_waiting(b, i);
            if (plans_of(b, i) == prev[i]) continue;
            assert_true(due[i]); /* (no other bot needed one) */
            const plan_copy got = plan_of_bot(tn_wbots_bot(b, i));
            assert_int_equal(got.n, want[i].n);
            assert_int_equal(got.frames, want[i].frames);
            assert_memory_equal(got.legs, want[i].legs, (size_t)got.n * sizeof got.legs[0]);
            assert_string_equal(tn_bot_get_info(tn_wbots_bot(b, i)).plan_reason, "map edited");
        }
        assert_int_equal(made, tn_wbots_step_plans(b));
        assert_int_equal(made, t < steps ? K : p - K * (steps - 1));
        planned += made;
        assert_int_equal(waiting, p - planned);
        if (t == 1) {
            char hud[512];
            tn_world_hud(b, hud, sizeof hud);
            char want_hud[64];
            snprintf(want_hud, sizeof want_hud, "trips done, %d waiting to plan", p - K);
            if (!strstr(hud, want_hud)) fail_msg("HUD: %s", hud);
        }
    }
    for (int i = 0; i < N; i++) {
        assert_int_equal(plans_of(b, i), before[i] + due[i]);
        assert_false(tn_wbots_waiting(b, i));
    }
    tn_world_destroy(a);
    tn_world_destroy(b);
}

/* A window runs several steps in one frame to catch up after a slow one:
 * with tn_world_plan_budget_per_frame they share the frame's budget (each
 * step planning would make the next frame slow too); tn_world_prepare
 * starts the next frame's.  Off (headless), each step has its own. */
static void test_plan_budget_per_frame(void **state)
{
    (void)state;
    enum { N = 8, K = 2 };
    for (int per_frame = 0; per_frame < 2; per_frame++) {
        tn_world *w = world("maps/demo.map");
        tn_wbots_set_plan_budget(w, -1);
        assert_true(tn_succeeded(tn_world_set(w, "bots", N, NULL)));
        for (int f = 0; f < 400; f++) tn_world_step(w);
        tn_wbots_set_plan_budget(w, K);
        tn_world_plan_budget_per_frame(w, per_frame);
        tn_world_prepare(w, 0);
        assert_true(tn_succeeded(tn_world_edit(w, 40, 1, TN_EDIT_ONEWAY, NULL)));
        int before = 0;
        for (int i = 0; i < N; i++) before += plans_of(w, i);
        for (int f = 0; f < 5; f++) tn_world_step(w); /* one frame's catch-up */
        int made = -before, waiting = 0;
        for (int i = 0; i < N; i++) {
            made += plans_of(w, i);
            waiting += tn_wbots_waiting(w, i);
        }
        if (per_frame) {
            assert_int_equal(made, K); /* 4 re-plans due: 2 wait for the next frame */
            assert_true(waiting > 0);
            tn_world_prepare(w, 0);
            tn_world_step(w);
            made = -before;
            for (int i = 0; i < N; i++) made += plans_of(w, i);
            assert_true(made > K);
        } else {
            assert_true(made > K);
        }
        tn_world_destroy(w);
    }
}

/* At step f of a run on a generated level: every 150 steps (2.5 s) a
 * one-way platform toggled in the air, further right each time (every
 * plan under way is stale, none cut). */
static void air_platform_edit(tn_world *w, int f)
{
    if (f % 150 != 149) return;
    const int x = 20 + f / 150 * 20, y = 1;
    tn_world_edit(w, x, y, tn_map_tile(tn_world_map(w), x, y) ? TN_EDIT_EMPTY : TN_EDIT_ONEWAY,
                  NULL);
}

/* The default budget follows the map's size: one plan a step from 256x256
 * up, where one search can take a frame.  Eight bots on a 256x256 level
 * with edits under way: never two extra bots' plans in one step, some
 * bots waited, none waited longer than its turn, and the trips go on. */
static void test_plan_budget_default_big_map(void **state)
{
    (void)state;
    tn_world *w = world_gen256();
    assert_int_equal(tn_wbots_plan_budget(w), 1);
    assert_true(tn_succeeded(tn_world_set(w, "bots", 8, NULL)));
    int waited = 0, longest = 0, run[8] = {0};
    for (int f = 0; f < 1500; f++) {
        air_platform_edit(w, f);
        int prev[8];
        for (int i = 0; i < 8; i++) prev[i] = plans_of(w, i);
        tn_world_step(w);
        int made = 0;
        for (int i = 0; i < 8; i++) {
            made += plans_of(w, i) - prev[i];
            run[i] = tn_wbots_waiting(w, i) ? run[i] + 1 : 0;
            waited += run[i] == 1;
            if (run[i] > longest) longest = run[i];
        }
        if (made > 1) fail_msg("step %d: %d plans", f, made);
    }
    assert_true(waited > 0);
    assert_true(longest <= 8); /* ceil(8 / 1) */
    const char *j = json(w);
    int trips = 0;
    const char *t = strstr(j, "\"extra_trips\":");
    assert_non_null(t);
    assert_int_equal(sscanf(t, "\"extra_trips\":%d", &trips), 1);
    assert_true(trips >= 8);
    tn_world_destroy(w);
}

/* Sliced plans (tn_wbots_plan_slice): whole on the demo map, 1,000 nodes
 * from 256x256 up.  Eight bots on a 256x256 level with edits under way,
 * slices of 40 nodes (so that plans take several steps): never two bots
 * planning at once, nor more than one plan or slice in a step; a bot
 * planning stands (no key) and plans for several steps at times; the HUD
 * names it; trips go on and arrive.  Then whole plans again (< 0). */
static void test_sliced_plans_big_map(void **state)
{
    (void)state;
    tn_world *d = world("maps/demo.map");
    assert_int_equal(tn_wbots_plan_slice(d), 0);
    tn_world_destroy(d);
    tn_world *w = world_gen256();
    assert_int_equal(tn_wbots_plan_slice(w), 1000);
    tn_wbots_set_plan_slice(w, 40);
    assert_int_equal(tn_wbots_plan_slice(w), 40);
    assert_true(tn_succeeded(tn_world_set(w, "bots", 8, NULL)));
    int longest = 0, run[8] = {0}, sliced_steps = 0, hud_said = 0;
    for (int f = 0; f < 1500; f++) {
        air_platform_edit(w, f);
        bool was[8];
        float x0[8];
        for (int i = 0; i < 8; i++) {
            was[i] = tn_wbots_planning(w, i);
            x0[i] = tn_wbots_body(w, i)->x;
        }
        tn_world_step(w);
        int planning = 0;
        for (int i = 0; i < 8; i++) {
            const bool now = tn_wbots_planning(w, i);
            planning += now;
            if (now) {
                const tn_input in = tn_bot_get_info(tn_wbots_bot(w, i)).input;
                assert_false(in.left || in.right || in.jump || in.down);
                if (tn_wbots_body(w, i)->on_ground) assert_true(tn_wbots_body(w, i)->x == x0[i]);
            }
            if (now && was[i]) run[i]++;
            if (!now) run[i] = 0;
            if (run[i] > longest) longest = run[i];
        }
        if (planning > 1) fail_msg("step %d: %d bots planning at once", f, planning);
        if (tn_wbots_step_plans(w) > 1)
            fail_msg("step %d: %d plans or slices", f, tn_wbots_step_plans(w));
        sliced_steps += planning;
        if (planning) {
            char hud[512];
            tn_world_hud(w, hud, sizeof hud);
            hud_said += strstr(hud, " planning (") != NULL && strstr(hud, " so far)") != NULL;
        }
    }
    print_message("sliced plans: %d steps with a bot planning, the longest plan %d steps\n",
                  sliced_steps, longest + 1);
    assert_true(longest >= 2);
    assert_true(hud_said == sliced_steps && sliced_steps > 0);
    const char *j = json(w);
    int trips = 0, arrivals = 0;
    const char *t = strstr(j, "\"extra_trips\":");
    assert_non_null(t);
    assert_int_equal(sscanf(t, "\"extra_trips\":%d,\"extra_arrivals\":%d", &trips, &arrivals), 2);
    assert_true(trips >= 8 && arrivals > 0);
    /* whole plans again: nobody plans across steps */
    tn_wbots_set_plan_slice(w, -1);
    assert_int_equal(tn_wbots_plan_slice(w), 0);
    for (int f = 0; f < 300; f++) {
        tn_world_step(w);
        for (int i = 0; i < 8; i++) assert_false(tn_wbots_planning(w, i));
    }
    tn_world_destroy(w);
}

/* ---- drawing ---------------------------------------------------------------- */

typedef struct counts {
    int lines, rects, filled, circles, tris;
    int plan;      /* lines in the graph plan's yellow (tn_surf_debug_draw) */
    unsigned amax; /* the lines' highest alpha */
    int orange;    /* outlines in the last repair's orange */
} counts;

static void c_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    (void)x0, (void)y0, (void)x1, (void)y1;
    ((counts *)u)->lines++;
    if (c == 0xFFFF40FFu) ((counts *)u)->plan++;
    if ((c & 0xffu) > ((counts *)u)->amax) ((counts *)u)->amax = c & 0xffu;
}
static void c_rect(void *u, float x, float y, float w, float h, uint32_t c, bool filled)
{
    (void)x, (void)y, (void)w, (void)h;
    ((counts *)u)->rects++;
    if (filled) ((counts *)u)->filled++;
    if (!filled && c == 0xffa03cffu) ((counts *)u)->orange++;
}
static void c_circle(void *u, float x, float y, float r, uint32_t c, bool filled)
{
    (void)x, (void)y, (void)r, (void)c, (void)filled;
    ((counts *)u)->circles++;
}
static void c_tri(void *u, float a, float b, float c, float d, float e, float f, uint32_t col)
{
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)col;
    ((counts *)u)->tris++;
}

static counts draw(const tn_world *w, unsigned overlays)
{
    counts c = {0};
    tn_debug_draw dd = {&c, c_line, c_rect, c_circle, c_tri, NULL};
    tn_wbots_draw(w, &dd, overlays, NULL);
    return c;
}

/* An extra bot that makes its plan in slices is drawn with three dots
 * over it (8 bots on a 256x256 level, slices of 40 nodes): a body is two
 * rectangles and a circle, a planning one three circles more; with the
 * explored overlay its search so far shades a tile a node, more with each
 * slice (the character stands idle: no search of its own is drawn). */
static void test_planning_bot_drawn(void **state)
{
    (void)state;
    tn_world *w = world_gen(256, 7);
    tn_wbots_set_plan_slice(w, 40);
    assert_true(tn_succeeded(tn_world_set(w, "bots", 8, NULL)));
    int seen = 0, grew = 0, shaded = 0;
    for (int f = 0; f < 600; f++) {
        tn_world_step(w);
        int planning = 0;
        for (int i = 0; i < 8; i++) planning += tn_wbots_planning(w, i);
        const counts c = draw(w, 0);
        assert_int_equal(c.rects, 16);
        assert_int_equal(c.circles, 8 + 3 * planning);
        const counts x = draw(w, TN_OVERLAY_EXPLORED);
        const int nodes = x.filled - 8; /* (a body: one filled rectangle) */
        if (!planning) assert_int_equal(nodes, 0);
        if (planning && nodes > shaded) grew++;
        shaded = planning ? nodes : 0;
        seen += planning;
    }
    assert_true(seen > 10);
    assert_true(grew > 10);
    tn_world_destroy(w);
}

static void test_draw(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_ledge4.map");
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
    counts c = draw(w, TN_OVERLAY_PATH | TN_OVERLAY_EXPLORED);
    assert_int_equal(c.lines + c.rects + c.circles + c.tris, 0);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_click(w, 20, 6, TN_CLICK_LEFT, false, NULL);
    c = draw(w, TN_OVERLAY_PATH);
    assert_true(c.lines >= 4);   /* 5 nodes: 4 segments, plus the goal cross */
    assert_int_equal(c.tris, 1); /* one jump */
    assert_true(c.circles >= 3);
    assert_int_equal(c.rects, 0);
    c = draw(w, TN_OVERLAY_EXPLORED);
    assert_true(c.filled > 10); /* shaded explored tiles */
    assert_int_equal(c.lines, 0);
    tn_world_set(w, "bots", 3, NULL);
    c = draw(w, 0); /* extra bots: always */
    assert_int_equal(c.rects, 6);
    tn_world_destroy(w);
    /* the graph planner: the path overlay shows the plan's arcs, the
     * surface-graph overlay the surfaces and edges too */
    w = world("tests/data/path_ledge4.map");
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_click(w, 20, 6, TN_CLICK_LEFT, false, NULL);
    counts p = draw(w, TN_OVERLAY_PATH);
    assert_true(p.lines >= 10); /* a walk and the jump's arc, frame by frame */
    counts g = draw(w, TN_OVERLAY_SURF);
    assert_true(g.lines > p.lines);
    tn_world_destroy(w);
}

/* The surface overlay while the character's graph is away for a background
 * repair (a map over 128x128 tiles in the window): the graph as last drawn,
 * at half its alpha, beside the note (until 2026-12-05 nothing: the overlay
 * blinked out at each edit); forgotten once a frame is drawn without the
 * overlay; the repaired graph drawn in full when it is back. */
static void test_overlay_during_background_repair(void **state)
{
    (void)state;
    gate_reset();
    tn_world *w = world_gen_with(256, 256, 7, &gate_allocator);
    tn_world_set_clock(w, bg_clock);
    tn_world_build_graphs_in_background(w, true);
    tn_world_prepare(w, TN_OVERLAY_SURF);
    int steps;
    assert_true(frames_until_graph(w, &steps));
    const counts before = draw(w, TN_OVERLAY_SURF);
    assert_true(before.lines > 100);
    assert_true(before.amax > 0x80u);
    atomic_store(&gate_closed, true);
    edit_top_row(w);
    assert_int_equal(tn_wbots_repairs_started(w), 1);
    assert_null(tn_wbots_character_graph(w)); /* (away) */
    assert_non_null(strstr(tn_wbots_overlay_note(w, TN_OVERLAY_SURF), "repairing"));
    assert_non_null(strstr(tn_wbots_overlay_note(w, TN_OVERLAY_SURF), "faint"));
    counts c = draw(w, TN_OVERLAY_SURF);
    assert_int_equal(c.lines, before.lines);
    assert_int_equal(c.circles, before.circles);
    assert_int_equal(c.rects, before.rects);
    assert_int_equal(c.amax, before.amax / 2);
    c = draw(w, 0); /* a frame without the overlay: forgotten */
    c = draw(w, TN_OVERLAY_SURF);
    assert_int_equal(c.lines + c.circles + c.rects, 0);
    assert_null(strstr(tn_wbots_overlay_note(w, TN_OVERLAY_SURF), "faint"));
    /* two edits meanwhile: the next repair takes both, one repair */
    edit_top_row(w);
    edit_top_row(w);
    atomic_store(&gate_closed, false);
    assert_true(frames_until_graph(w, &steps));
    assert_int_equal(tn_wbots_repairs_started(w), 2);
    int tiles;
    const int n = tn_surf_last_repair(tn_wbots_character_graph(w), NULL, 0, &tiles);
    assert_int_equal(tiles, 2);
    printf("  the repair after the wait took both edits: %d surfaces searched again\n", n);
    c = draw(w, TN_OVERLAY_SURF);
    assert_true(c.lines > 100);
    assert_int_equal(c.amax, before.amax);
    assert_int_equal(c.orange, n);
    if (n > 0) assert_non_null(strstr(tn_wbots_overlay_note(w, TN_OVERLAY_SURF), "(2 tiles)"));
    assert_false(atomic_load(&gate_timed_out));
    tn_world_destroy(w);
}

/* The surface overlay outlines the surfaces the last edit's repair searched
 * again (tn_surf_last_repair), as many as it says, and the note says how
 * many of how many; for 120 steps after the repair (a paused world keeps
 * them), none after a slider's rebuild, nor for a repair made long before
 * the overlay or the graph drawn came back. */
static void test_overlay_shows_last_repair(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    tn_world_prepare(w, TN_OVERLAY_SURF);
    counts c = draw(w, TN_OVERLAY_SURF);
    assert_true(c.lines > 100);
    assert_int_equal(c.orange, 0); /* built: no repair yet */
    /* a block on a surface far from the character (its top changes) */
    const tn_map *m = tn_world_map(w);
    const tn_body *ch = tn_world_character(w);
    int ex = -1, ey = -1;
    for (int y = 4; y < m->h - 4 && ex < 0; y++)
        for (int x = 4; x < m->w - 4 && ex < 0; x++)
            if (tn_map_tile(m, x, y) == TN_TILE_EMPTY &&
                tn_map_tile(m, x, y - 1) == TN_TILE_EMPTY &&
                tn_map_tile(m, x, y + 1) == TN_TILE_BLOCK &&
                (x - (int)(ch->x / TN_TILE_PX) > 8 || (int)(ch->x / TN_TILE_PX) - x > 8))
                ex = x, ey = y;
    assert_true(ex >= 0);
    assert_true(tn_succeeded(tn_world_edit(w, ex, ey, TN_EDIT_BLOCK, NULL)));
    const tn_surf *g = tn_wbots_character_graph(w);
    const int n = tn_surf_last_repair(g, NULL, 0, NULL);
    assert_true(n > 0 && n < tn_surf_surface_count(g));
    c = draw(w, TN_OVERLAY_SURF);
    assert_int_equal(c.orange, n);
    char want[64];
    snprintf(want, sizeof want, "searched %d of %d surfaces", n, tn_surf_surface_count(g));
    assert_non_null(strstr(tn_wbots_overlay_note(w, TN_OVERLAY_SURF), want));
    for (int f = 0; f < 119; f++) tn_world_step(w); /* 2 s of 60 steps */
    assert_int_equal(draw(w, TN_OVERLAY_SURF).orange, n);
    tn_world_step(w);
    assert_int_equal(draw(w, TN_OVERLAY_SURF).orange, 0);
    assert_null(tn_wbots_overlay_note(w, TN_OVERLAY_SURF));
    /* the block taken away, then a slider: the rebuild's graph has no
     * repair */
    assert_true(tn_succeeded(tn_world_edit(w, ex, ey, TN_EDIT_EMPTY, NULL)));
    assert_true(draw(w, TN_OVERLAY_SURF).orange > 0);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5, NULL)));
    tn_world_prepare(w, TN_OVERLAY_SURF);
    assert_int_equal(draw(w, TN_OVERLAY_SURF).orange, 0);
    /* back to jump 4 after the outlines' 2 s: the cached graph's old repair
     * is not shown as if the slider had made it (a playtest's finding) */
    for (int f = 0; f < 130; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4, NULL)));
    tn_world_prepare(w, TN_OVERLAY_SURF);
    assert_int_equal(draw(w, TN_OVERLAY_SURF).orange, 0);
    assert_null(tn_wbots_overlay_note(w, TN_OVERLAY_SURF));
    tn_world_destroy(w);
    /* an edit made with the overlay off, the overlay turned on 10 s later:
     * nothing outlined (it counted its 2 s from the first drawing) */
    w = world("maps/demo.map");
    tn_world_prepare(w, TN_OVERLAY_SURF);
    (void)draw(w, TN_OVERLAY_SURF);
    assert_true(tn_succeeded(tn_world_edit(w, ex, ey, TN_EDIT_BLOCK, NULL)));
    for (int f = 0; f < 600; f++) tn_world_step(w);
    tn_world_prepare(w, TN_OVERLAY_SURF);
    assert_int_equal(draw(w, TN_OVERLAY_SURF).orange, 0);
    assert_null(tn_wbots_overlay_note(w, TN_OVERLAY_SURF));
    tn_world_destroy(w);
}

/* Lines by colour: the extra bots' paths (their colour, alpha 0x90). */
typedef struct bycol {
    uint32_t col[8];
    int lines[8], plan, circles;
} bycol;
static void b_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    (void)x0, (void)y0, (void)x1, (void)y1;
    bycol *b = u;
    if (c == 0xFFFF40FFu) b->plan++;
    for (int k = 0; k < 8; k++)
        if (c == b->col[k]) b->lines[k]++;
}
static void b_circle(void *u, float x, float y, float r, uint32_t c, bool filled)
{
    (void)x, (void)y, (void)r, (void)c, (void)filled;
    ((bycol *)u)->circles++;
}

/* With the graph planner (the default) each extra bot's plan is drawn with
 * the path overlay, in the bot's colour and faint, as its classic path is
 * (the reviewer's `set bots 3`: no extra bot's path on the map); the
 * character's plan keeps its yellow. */
static void test_extra_bots_graph_plans_drawn(void **state)
{
    (void)state;
    static const uint32_t pal[3] = {0xff8c42ffu, 0x9d7bffffu, 0x3ddc97ffu}; /* tn_wbots' */
    tn_world *w = world("maps/demo.map");
    assert_true(tn_succeeded(tn_world_set(w, "bots", 3, NULL)));
    bycol b = {{0}, {0}, 0, 0};
    for (int k = 0; k < 3; k++) b.col[k] = (pal[k] & 0xffffff00u) | 0x90u;
    tn_debug_draw dd = {&b, b_line, NULL, b_circle, NULL, NULL};
    int seen[3] = {0};
    for (int f = 0; f < 400; f++) {
        tn_world_step(w);
        memset(b.lines, 0, sizeof b.lines);
        tn_wbots_draw(w, &dd, TN_OVERLAY_PATH, NULL);
        assert_int_equal(b.plan, 0); /* the character has no goal */
        for (int k = 0; k < 3; k++) {
            const tn_bot *bot = tn_wbots_bot(w, k);
            int nl, leg;
            tn_bot_legs(bot, &nl, &leg);
            if (tn_bot_active(bot) && nl > leg) {
                assert_true(b.lines[k] > 0); /* a walk or an arc */
                seen[k]++;
            }
        }
    }
    for (int k = 0; k < 3; k++) assert_true(seen[k] > 10);
    /* without the path overlay: nothing of the plans */
    memset(b.lines, 0, sizeof b.lines);
    tn_wbots_draw(w, &dd, 0, NULL);
    for (int k = 0; k < 3; k++) assert_int_equal(b.lines[k], 0);
    tn_world_destroy(w);
}

/* Draw calls in order: the last line of the surface graph (any line not in
 * the bot's colour nor the plan's yellow), and the first of the bot's body
 * and of its path / plan lines. */
typedef struct order {
    uint32_t rgb; /* the bot's colour, alpha dropped */
    int n, last_other, body, first_bot_line;
} order;
static void o_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    (void)x0, (void)y0, (void)x1, (void)y1;
    order *o = u;
    o->n++;
    if ((c & 0xffffff00u) == o->rgb) {
        if (!o->first_bot_line) o->first_bot_line = o->n;
    } else if (c != 0xFFFF40FFu) {
        o->last_other = o->n;
    }
}
static void o_rect(void *u, float x, float y, float w, float h, uint32_t c, bool filled)
{
    (void)x, (void)y, (void)w, (void)h;
    order *o = u;
    o->n++;
    if (filled && (c & 0xffffff00u) == o->rgb && (c & 0xffu) == 0xffu && !o->body) o->body = o->n;
}
static void o_circle(void *u, float x, float y, float r, uint32_t c, bool filled)
{
    (void)x, (void)y, (void)r, (void)c, (void)filled;
    ((order *)u)->n++;
}

/* With the surface graph overlay (Shift+P) on, an extra bot and its path
 * are drawn over the graph's arcs, as the character and its plan are (a
 * playtest: up to 300 arcs crossed the bots' bodies and buried their
 * paths, thin and faint, so only Shift+P off showed where a bot went). */
static void test_extra_bots_over_the_graph(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    assert_true(tn_succeeded(tn_world_set(w, "bots", 1, NULL)));
    const tn_bot *bot = NULL;
    int f = 0, nl = 0, leg = 0;
    for (; f < 600; f++) {
        tn_world_step(w);
        bot = tn_wbots_bot(w, 0);
        tn_bot_legs(bot, &nl, &leg);
        if (tn_bot_active(bot) && nl > leg + 1) break;
    }
    assert_true(f < 600);
    tn_world_prepare(w, TN_OVERLAY_SURF | TN_OVERLAY_PATH);
    order o = {0xff8c4200u, 0, 0, 0, 0}; /* tn_wbots' first colour */
    tn_debug_draw dd = {&o, o_line, o_rect, o_circle, NULL, NULL};
    tn_wbots_draw(w, &dd, TN_OVERLAY_SURF | TN_OVERLAY_PATH, NULL);
    printf("  graph lines end at call %d; the bot's body at %d, its path from %d\n", o.last_other,
           o.body, o.first_bot_line);
    assert_true(o.last_other > 0 && o.body > 0 && o.first_bot_line > 0);
    assert_true(o.body > o.last_other);
    assert_true(o.first_bot_line > o.last_other);
    tn_world_destroy(w);
}

/* Each cached graph counts its own builds from 1, so two graphs of two
 * jump heights are both at generation 1: an extra bot's plan made on the
 * jump-5 graph, with the slider back at 4 while paused (no step: the bot
 * has not re-planned), was drawn with the jump-4 graph's nodes and edges
 * (its edge ids are the other graph's).  Only the graph it planned on
 * draws it. */
static void test_extra_bot_plan_not_drawn_on_another_graph(void **state)
{
    (void)state;
    static const uint32_t pal0 = 0xff8c42ffu; /* tn_wbots' first colour */
    tn_world *w = world("maps/demo.map");
    tn_world_prepare(w, TN_OVERLAY_SURF); /* the jump-4 graph */
    const tn_surf *g4 = tn_wbots_character_graph(w);
    assert_non_null(g4);
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5, NULL)));
    assert_true(tn_succeeded(tn_world_set(w, "bots", 1, NULL)));
    bycol b = {{0}, {0}, 0, 0};
    b.col[0] = (pal0 & 0xffffff00u) | 0x90u;
    tn_debug_draw dd = {&b, b_line, NULL, b_circle, NULL, NULL};
    const tn_bot *bot = NULL;
    int nl = 0, leg = 0, f = 0;
    for (; f < 600; f++) {
        tn_world_step(w);
        bot = tn_wbots_bot(w, 0);
        tn_bot_legs(bot, &nl, &leg);
        if (tn_bot_active(bot) && nl > leg + 1) break;
    }
    assert_true(f < 600);
    memset(b.lines, 0, sizeof b.lines);
    tn_wbots_draw(w, &dd, TN_OVERLAY_PATH, NULL);
    assert_true(b.lines[0] > 0); /* on its own graph: drawn */
    /* paused: the slider back at 4, whose graph is cached */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 4, NULL)));
    assert_int_equal(tn_surf_generation(g4), tn_bot_plan_generation(bot)); /* coincide */
    memset(b.lines, 0, sizeof b.lines);
    tn_wbots_draw(w, &dd, TN_OVERLAY_PATH, NULL);
    assert_int_equal(b.lines[0], 0);
    /* the next step re-plans it on the jump-4 graph, which then draws it */
    for (f = 0; f < 600; f++) {
        tn_world_step(w);
        tn_bot_legs(bot, &nl, &leg);
        if (tn_bot_active(bot) && nl > leg + 1) break;
    }
    assert_true(f < 600);
    memset(b.lines, 0, sizeof b.lines);
    tn_wbots_draw(w, &dd, TN_OVERLAY_PATH, NULL);
    assert_true(b.lines[0] > 0);
    tn_world_destroy(w);
}

/* The explored overlay's tiles: every filled rect in its orange, by tile. */
typedef struct shade {
    int w, h, rects;
    uint8_t *tile; /* rects drawn on each tile */
} shade;
static void s_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    (void)u, (void)x0, (void)y0, (void)x1, (void)y1, (void)c;
}
static void s_rect(void *u, float x, float y, float w, float h, uint32_t c, bool filled)
{
    shade *s = u;
    const float T = (float)TN_TILE_PX;
    if (!filled || (c & 0xffffff00u) != 0xff9a3c00u || w != T || h != T) return;
    int tx = (int)(x / T), ty = (int)(y / T);
    assert_true(tx >= 0 && ty >= 0 && tx < s->w && ty < s->h);
    s->tile[ty * s->w + tx]++;
    s->rects++;
}
static void s_circle(void *u, float x, float y, float r, uint32_t c, bool filled)
{
    (void)u, (void)x, (void)y, (void)r, (void)c, (void)filled;
}
static void s_tri(void *u, float a, float b, float c, float d, float e, float f, uint32_t col)
{
    (void)u, (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)col;
}

/* Tiles the explored overlay shades. */
static int explored_shades(const tn_world *w)
{
    const tn_map *m = tn_world_map(w);
    shade sh = {m->w, m->h, 0, calloc((size_t)m->w * m->h, 1)};
    tn_debug_draw dd = {&sh, s_line, s_rect, s_circle, s_tri, NULL};
    tn_wbots_draw(w, &dd, TN_OVERLAY_EXPLORED, NULL);
    free(sh.tile);
    return sh.rects;
}

/* With the graph planner the explored overlay (X) shows the graph search
 * the bot made (the replay's nodes: tn_wbots_graph_search), not the classic
 * comparison search the HUD makes on every goto (the reviewer's demo.map
 * goto 47 20: "305 nodes" in the HUD, the map filled with the classic
 * search's 4,490 states); with the classic planner the classic search. */
static void test_explored_is_the_planners_search(void **state)
{
    (void)state;
    tn_world *w = sent_to("maps/demo.map", 47, 20);
    const tn_map *m = tn_world_map(w);
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.planner, 1);
    tn_wbots_search gs;
    int n = tn_wbots_graph_search(w, &gs);
    assert_true(n > 10);
    assert_int_equal(n, i.expanded);
    uint8_t *want = calloc((size_t)m->w * m->h, 1);
    for (int k = 0; k < n; k++) want[gs.nodes[k].y * m->w + gs.nodes[k].x]++;
    shade s = {m->w, m->h, 0, calloc((size_t)m->w * m->h, 1)};
    tn_debug_draw dd = {&s, s_line, s_rect, s_circle, s_tri, NULL};
    tn_wbots_draw(w, &dd, TN_OVERLAY_EXPLORED, NULL);
    assert_int_equal(s.rects, n); /* one shade a node, on the tile it stands on */
    assert_memory_equal(s.tile, want, (size_t)m->w * m->h);
    /* the classic planner: its own search, far more tiles than the graph's */
    int graph_tiles = 0;
    for (int k = 0; k < m->w * m->h; k++) graph_tiles += want[k] != 0;
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    for (int f = 0; f < 600 && tn_bot_active(tn_wbots_character_bot(w)); f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_click(w, 10, 30, TN_CLICK_LEFT, false, NULL)));
    memset(s.tile, 0, (size_t)m->w * m->h);
    s.rects = 0;
    tn_wbots_draw(w, &dd, TN_OVERLAY_EXPLORED, NULL);
    assert_true(s.rects > 2 * graph_tiles);
    free(want);
    free(s.tile);
    tn_world_destroy(w);
}

/* While a re-plan waits for the landing (an edit mid-jump), the explored
 * overlay draws no search: the last one is the dropped plan's, its nodes
 * under the new blocks (a playtest paused there to study it), as the
 * classic planner's already did; the re-plan's is drawn once made. */
static void test_explored_hidden_while_a_replan_waits(void **state)
{
    (void)state;
    tn_world *w = sent_to("maps/demo.map", 70, 40);
    const tn_map *m = tn_world_map(w);
    shade s = {m->w, m->h, 0, calloc((size_t)m->w * m->h, 1)};
    tn_debug_draw dd = {&s, s_line, s_rect, s_circle, s_tri, NULL};
    int f = 0;
    while (f++ < 600 && tn_world_character(w)->on_ground) tn_world_step(w);
    assert_false(tn_world_character(w)->on_ground);
    tn_wbots_draw(w, &dd, TN_OVERLAY_EXPLORED, NULL);
    assert_true(s.rects > 0); /* the plan being followed: its search */
    int ex = -1, ey = -1;     /* an empty tile away from the character */
    for (int y = 1; y < m->h - 1 && ex < 0; y++)
        for (int x = 1; x < 20 && ex < 0; x++)
            if (tn_map_tile(m, x, y) == TN_TILE_EMPTY) ex = x, ey = y;
    assert_true(tn_succeeded(tn_world_edit(w, ex, ey, TN_EDIT_BLOCK, NULL)));
    tn_world_step(w);
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    if (!i.pending_reason[0]) fail_msg("no re-plan waits (%s)", tn_bot_state_name(i.state));
    s.rects = 0;
    tn_wbots_draw(w, &dd, TN_OVERLAY_EXPLORED, NULL);
    assert_int_equal(s.rects, 0);
    while (f++ < 600 && tn_bot_get_info(tn_wbots_character_bot(w)).pending_reason[0])
        tn_world_step(w);
    tn_wbots_draw(w, &dd, TN_OVERLAY_EXPLORED, NULL);
    assert_true(s.rects > 0);
    free(s.tile);
    tn_world_destroy(w);
}

/* Lines and circles a draw makes (the path overlay's plan). */
typedef struct strokes {
    int n;
} strokes;
static void k_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    (void)x0, (void)y0, (void)x1, (void)y1, (void)c;
    ((strokes *)u)->n++;
}
static void k_circle(void *u, float x, float y, float r, uint32_t c, bool filled)
{
    (void)x, (void)y, (void)r, (void)c, (void)filled;
    ((strokes *)u)->n++;
}
static int path_strokes(const tn_world *w)
{
    strokes k = {0};
    tn_debug_draw dd = {&k, k_line, NULL, k_circle, NULL, NULL};
    tn_wbots_draw(w, &dd, TN_OVERLAY_PATH, NULL);
    return k.n;
}

/* An edit while paused (no step since): the trip's plan was made on the
 * map before it, and both planners leave it out alike until the bot plans
 * again, path and explored search, as the HUD's "re-planning (map
 * edited)" says (a playtest: the classic planner kept drawing its old
 * path and explored tiles until the next step; the graph planner hid its
 * legs only).  tn_wbots_plan_waits says so, for the replay's message. */
static void test_paused_edit_hides_the_old_plan(void **state)
{
    (void)state;
    for (int planner = 0; planner <= 1; planner++) {
        tn_world *w = world("maps/demo.map");
        assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
        tn_world_step(w);
        tn_world_set_tool(w, TN_TOOL_GOTO);
        assert_true(tn_succeeded(tn_world_click(w, 70, 10, TN_CLICK_LEFT, false, NULL)));
        for (int f = 0; f < 20; f++) tn_world_step(w);
        const char *why = NULL, *when = NULL;
        assert_false(tn_wbots_plan_waits(w, &why, &when));
        assert_true(explored_shades(w) > 0);
        assert_true(path_strokes(w) > 0);
        assert_true(tn_succeeded(tn_world_edit(w, 40, 30, TN_EDIT_BLOCK, NULL))); /* paused */
        assert_true(tn_wbots_plan_waits(w, &why, &when));
        assert_string_equal(why, "map edited");
        assert_non_null(when);
        char hud[1024];
        tn_world_hud(w, hud, sizeof hud);
        assert_non_null(strstr(hud, "re-planning (map edited)"));
        if (explored_shades(w) != 0 || path_strokes(w) != 0)
            fail_msg("planner %d: the old plan drawn after the edit: %d explored tiles, %d path "
                     "strokes",
                     planner, explored_shades(w), path_strokes(w));
        int f = 0;
        while (f++ < 120 && tn_wbots_plan_waits(w, NULL, NULL)) tn_world_step(w);
        assert_false(tn_wbots_plan_waits(w, NULL, NULL));
        assert_true(explored_shades(w) > 0); /* the re-plan's */
        assert_true(path_strokes(w) > 0);
        tn_world_destroy(w);
    }
}

/* The surface-graph overlay (Shift+P) in a view of a large map draws the
 * edges that take off there.  It drew every k-th edge of the whole graph,
 * 300 in all: on a 256x256 level a 64x36-tile view showed a handful of
 * arcs, the rest of its jumps missing. */
typedef struct chains {
    float vx0, vy0, vx1, vy1; /* where a take-off counts */
    float lx, ly;             /* the last edge segment's end */
    int edges;                /* chains of edge segments starting in the view */
} chains;
static void ch_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    chains *k = u;
    if (c != 0xFFC04060u && c != 0x60FF6060u && c != 0xC0C0FF60u) return; /* not an edge */
    bool cont = x0 == k->lx && y0 == k->ly;
    if (!cont && x0 >= k->vx0 && x0 <= k->vx1 && y0 >= k->vy0 && y0 <= k->vy1) k->edges++;
    k->lx = x1;
    k->ly = y1;
}

static void test_surf_overlay_draws_the_views_edges(void **state)
{
    (void)state;
    tn_world *w = world_gen(256, 9);
    tn_world_prepare(w, TN_OVERLAY_SURF); /* builds the character's graph */
    const tn_surf *g = tn_wbots_character_graph(w);
    assert_non_null(g);
    const float T = (float)TN_TILE_PX;
    int cx, cy;
    tn_body_tile(tn_world_character(w), tn_world_phys(w), &cx, &cy);
    float view[4] = {(float)(cx - 32) * T, (float)(cy - 18) * T, (float)(cx + 32) * T,
                     (float)(cy + 18) * T};
    /* the edges that take off in the view (feet at the take-off node) */
    int in = 0, n = tn_surf_edge_count(g);
    const tn_surf_edge *E = tn_surf_edges(g);
    float half = (float)tn_world_character(w)->w * T * 0.5f;
    for (int i = 0; i < n; i++) {
        int row, j;
        tn_surf_node_pos(g, E[i].from, &row, &j);
        float x = tn_surf_lattice_x(g, j) + half, y = (float)row * T;
        in += x >= view[0] && x <= view[2] && y >= view[1] && y <= view[3];
    }
    chains k = {view[0], view[1], view[2], view[3], -1e9f, -1e9f, 0};
    tn_debug_draw dd = {&k, ch_line, NULL, NULL, NULL, NULL};
    tn_world_draw_view(w, &dd, TN_OVERLAY_SURF, view, 1.0f);
    printf("  %d edges in the graph, %d take off in the view: %d drawn there\n", n, in, k.edges);
    assert_true(in > 300); /* a view with more than the overlay's 300 */
    if (k.edges < 250)
        fail_msg("the view shows %d of its %d edges (the overlay draws up to 300)", k.edges, in);
    tn_world_destroy(w);
}

/* Above 256x256 the extra bots search on the character's finder: the
 * reviewer's explored overlay (X) showed whichever search ran last, often
 * a bot's.  It shows the character's search, whatever the bots do. */
static void test_explored_shared_finder_is_the_characters(void **state)
{
    (void)state;
    tn_world *w = world_gen(300, 7);
    const tn_map *m = tn_world_map(w);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
    tn_world_step(w);
    int cx, cy;
    tn_body_tile(tn_world_character(w), tn_world_phys(w), &cx, &cy);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, cx + 6, cy, TN_CLICK_LEFT, false, NULL)));
    const tn_bot *bot = tn_wbots_character_bot(w);
    assert_int_equal(tn_bot_get_info(bot).planner, 0);
    for (int f = 0; f < 600 && tn_bot_active(bot); f++) tn_world_step(w);
    assert_false(tn_bot_active(bot));
    int plans = tn_bot_get_info(bot).plans;
    shade s = {m->w, m->h, 0, calloc((size_t)m->w * m->h, 1)};
    tn_debug_draw dd = {&s, s_line, s_rect, s_circle, s_tri, NULL};
    tn_wbots_draw(w, &dd, TN_OVERLAY_EXPLORED, NULL);
    int rects = s.rects;
    assert_true(rects > 0);
    uint8_t *want = malloc((size_t)m->w * m->h);
    memcpy(want, s.tile, (size_t)m->w * m->h);
    assert_true(tn_succeeded(tn_world_set(w, "bots", 4, NULL)));
    int searched = 0;
    for (int f = 0; f < 400 && !searched; f++) {
        tn_world_step(w);
        for (int k = 0; k < 4; k++) searched += tn_bot_get_info(tn_wbots_bot(w, k)).plans > 0;
    }
    assert_true(searched > 0);
    assert_int_equal(tn_bot_get_info(bot).plans, plans); /* the character made no search */
    memset(s.tile, 0, (size_t)m->w * m->h);
    s.rects = 0;
    tn_wbots_draw(w, &dd, TN_OVERLAY_EXPLORED, NULL);
    /* (the bots' bodies are drawn too: rects, not tiles, may grow) */
    assert_memory_equal(s.tile, want, (size_t)m->w * m->h);
    free(want);
    free(s.tile);
    tn_world_destroy(w);
}

/* An extra bot's body is opaque, as the character's is: drawn at alpha
 * 0xc0, a one-way platform in a tile the bot stood in showed through it
 * (the platform looked drawn over the bot, never over the character). */
typedef struct body_fill {
    uint32_t rgb;
    int opaque, see_through;
} body_fill;
static void bf_rect(void *u, float x, float y, float w, float h, uint32_t c, bool filled)
{
    (void)x, (void)y, (void)w, (void)h;
    body_fill *b = u;
    if (filled && (c & 0xffffff00u) == b->rgb) {
        if ((c & 0xffu) == 0xffu)
            b->opaque++;
        else
            b->see_through++;
    }
}
static void test_extra_bot_body_opaque(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    assert_true(tn_succeeded(tn_world_set(w, "bots", 1, NULL)));
    for (int f = 0; f < 30; f++) tn_world_step(w);
    body_fill b = {0xff8c4200u, 0, 0}; /* tn_wbots' first colour */
    tn_debug_draw dd = {&b, NULL, bf_rect, NULL, NULL, NULL};
    tn_wbots_draw(w, &dd, 0, NULL);
    assert_int_equal(b.opaque, 1);
    assert_int_equal(b.see_through, 0);
    tn_world_destroy(w);
}

/* G to classic mid-jump: the re-plan waits for the landing.  The reviewer's
 * HUD said "goto (47,20): 0 tiles, 0 states | search n/a" (as if the classic
 * planner had answered) until the body landed. */
static void test_hud_classic_pending_after_switch(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    for (int f = 0; f < 5; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 47, 20, NULL)));
    int f = 0;
    while (f++ < 600 && tn_world_character(w)->on_ground) tn_world_step(w);
    assert_false(tn_world_character(w)->on_ground);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    tn_world_step(w);
    assert_false(tn_world_character(w)->on_ground);
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    printf("  pending: %s\n", hud);
    /* no classic path yet (the reviewer saw a stray node at tile (0,0)), and
     * no search shaded: the classic finder's last one was the HUD's
     * comparison, not a plan this bot follows */
    int n = -1;
    tn_bot_path(tn_wbots_character_bot(w), &n);
    assert_int_equal(n, 0);
    assert_int_equal(explored_shades(w), 0);
    if (!strstr(hud, "bot [classic]: moving | goto (47,20): re-planning (planner switched) on "
                     "landing") ||
        strstr(hud, "0 tiles") || strstr(hud, "search "))
        fail_msg("HUD: %s", hud);
    while (f++ < 900 && !tn_world_character(w)->on_ground) tn_world_step(w);
    tn_world_step(w);
    tn_world_hud(w, hud, sizeof hud);
    printf("  landed: %s\n", hud);
    if (!strstr(hud, "first plan by graph | re-plan 1 (planner switched)"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* A refused goto (nowhere to stand at or below the tile) changes nothing:
 * the trip under way goes on with its plan, HUD, overlays and goal (a
 * second review: a misclick on a block stopped the character half way and
 * threw its goal away), and the HUD never shows numbers for the refused
 * goal (the first review: "no_path | found: 346 frames" after one).  With
 * no trip, the bot stays as it was (idle), not "no path". */
static void test_refused_goto_keeps_the_trip(void **state)
{
    (void)state;
    for (int planner = 1; planner >= 0; planner--) {
        tn_world *w = world("maps/demo.map");
        assert_true(tn_succeeded(tn_world_set(w, "planner", planner, NULL)));
        for (int f = 0; f < 5; f++) tn_world_step(w);
        tn_error e;
        /* no trip yet: refused, idle */
        assert_true(tn_failed(tn_world_goto(w, 24, 5, &e)));
        assert_int_equal(tn_bot_get_info(tn_wbots_character_bot(w)).state, TN_BOT_IDLE);
        assert_true(tn_succeeded(tn_world_goto(w, 47, 20, NULL)));
        for (int f = 0; f < 100; f++) tn_world_step(w);
        char before[512], hud[512];
        tn_world_hud(w, before, sizeof before);
        const int shades = explored_shades(w);
        assert_true(tn_failed(tn_world_goto(w, 24, 5, &e)));
        /* a click on a block means its top: the message says that top is the problem */
        assert_string_equal(e.msg, "no room for a 1x2 character on top of the block at (24,5)");
        tn_world_hud(w, hud, sizeof hud);
        printf("  %s\n", hud);
        assert_string_equal(hud, before);
        assert_non_null(strstr(hud, "moving"));
        assert_null(strstr(hud, "refused"));
        assert_non_null(strstr(json(w), "\"bot\":{\"state\":\"moving\",\"goal_x\":47,"));
        assert_int_equal(explored_shades(w), shades);
        for (int f = 0; f < 1500 && !strstr(json(w), "\"state\":\"arrived\""); f++)
            tn_world_step(w);
        assert_non_null(
            strstr(json(w), "\"bot\":{\"state\":\"arrived\",\"goal_x\":47,\"goal_y\":20,"));
        tn_world_destroy(w);
    }
}

/* The graph plan stays drawn while the character is in the air (the jump
 * being flown and the legs after it), with the path overlay and with the
 * surface-graph overlay. */
static void test_plan_drawn_in_air(void **state)
{
    (void)state;
    tn_world *w = sent_to("tests/data/path_ledge4.map", 20, 6);
    int airborne = 0;
    for (int f = 0; f < 400 && tn_bot_active(tn_wbots_character_bot(w)); f++) {
        tn_world_step(w);
        if (tn_world_character(w)->on_ground) continue;
        airborne++;
        assert_true(draw(w, TN_OVERLAY_PATH).plan >= 10); /* the arc, frame by frame */
        tn_world_prepare(w, TN_OVERLAY_SURF);
        assert_true(draw(w, TN_OVERLAY_SURF).plan >= 10);
    }
    assert_true(airborne > 10); /* the jump onto the ledge */
    assert_int_equal(tn_bot_get_info(tn_wbots_character_bot(w)).state, TN_BOT_ARRIVED);
    tn_world_destroy(w);
}

/* tn_world_prepare: the surface-graph overlay shows the character's graph
 * before any click (built by prepare), and again after an edit (synced);
 * with the classic planner nothing is built. */
static void test_prepare_surface_overlay(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_ledge4.map");
    tn_world_step(w);
    assert_int_equal(draw(w, TN_OVERLAY_SURF).lines, 0); /* no click: no graph yet */
    tn_world_prepare(w, TN_OVERLAY_PATH);                /* another overlay: nothing */
    assert_int_equal(draw(w, TN_OVERLAY_SURF).lines, 0);
    tn_world_prepare(w, TN_OVERLAY_SURF);
    counts a = draw(w, TN_OVERLAY_SURF);
    assert_true(a.lines > 0); /* surfaces and arcs */
    /* a block on the floor: the graph follows the map at the next prepare */
    const tn_map *m = tn_world_map(w);
    int x = m->w / 2, y = m->h - 3;
    assert_true(tn_succeeded(tn_world_edit(w, x, y, TN_EDIT_BLOCK, NULL)));
    tn_world_prepare(w, TN_OVERLAY_SURF);
    assert_true(draw(w, TN_OVERLAY_SURF).lines > 0);
    assert_true(tn_succeeded(tn_world_check(w, NULL)));
    tn_world_destroy(w);
    w = world("tests/data/path_ledge4.map");
    assert_null(tn_wbots_overlay_note(w, TN_OVERLAY_SURF));         /* the graph planner draws */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic */
    tn_world_prepare(w, TN_OVERLAY_SURF);
    assert_int_equal(draw(w, TN_OVERLAY_SURF).lines, 0);
    /* nothing drawn: the map view's caption says why and which key helps */
    assert_string_equal(tn_wbots_overlay_note(w, TN_OVERLAY_SURF),
                        "graph overlay: the planner is classic, nothing to show (G: graph)");
    assert_null(tn_wbots_overlay_note(w, TN_OVERLAY_PATH)); /* the overlay is off */
    tn_world_destroy(w);
}

/* An open w x h map with a floor on its bottom row. */
static tn_world *open_world(int w, int h)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    for (int x = 0; x < w; x++) tn_map_set_tile(m, x, h - 1, TN_TILE_BLOCK, NULL);
    tn_world *wd = NULL;
    tn_error err;
    tn_world_config c = tn_world_default_config();
    if (tn_failed(tn_world_create(m, &c, NULL, &wd, &err))) fail_msg("%s", err.msg);
    return wd;
}

/* The planner the JSON and HUD name is the one in effect: above the graph
 * planner's 1024x1024 tiles goto is off ("planner":"none",
 * "plan_frames":-1, "off":true, and a refused goto says why); above the
 * classic finder's 512x512 bots plan with the graph, whatever the
 * "planner" parameter says (test_graph_only_above_512x512). */
static void test_json_names_planner_in_effect(void **state)
{
    (void)state;
    tn_world *w = open_world(1100, 1000);
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_error err;
    tn_status st = tn_world_click(w, 20, 998, TN_CLICK_LEFT, false, &err);
    assert_true(tn_failed(st));
    assert_string_equal(err.msg, "goto is off: the 1100x1000 map has 1100000 tiles, more than "
                                 "the graph planner's 1048576 (1024x1024)");
    assert_non_null(strstr(json(w), ",\"bot\":{\"state\":\"idle\",\"goal_x\":-1,\"goal_y\":-1,"
                                    "\"arrived\":false,\"path_nodes\":0,\"replans\":0,"
                                    "\"expanded\":0,\"extra_bots\":0,\"extra_trips\":0,"
                                    "\"extra_arrivals\":0,\"planner\":\"none\","
                                    "\"plan_frames\":-1,\"off\":true}"));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "bot: goto off (map above 1048576 tiles, 1024x1024)"));
    assert_true(tn_failed(tn_world_set(w, "bots", 2, &err)));
    assert_string_equal(err.msg, "no bots on this 1100x1000 map: it is above the graph planner's "
                                 "1024x1024 tiles");
    tn_world_destroy(w);

    w = open_world(300, 300); /* classic selected: the classic planner plans */
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL)));
    assert_non_null(strstr(json(w), "\"planner\":\"classic\",\"plan_frames\":-1}"));
    for (int k = 0; k < 600 && !tn_world_character(w)->on_ground; k++) tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 280, 298, TN_CLICK_LEFT, false, &err)));
    tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_int_equal(i.planner, 0);
    assert_int_equal(i.state, TN_BOT_MOVING);
    assert_non_null(strstr(json(w), "\"planner\":\"classic\",\"plan_frames\":-1}"));
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [classic]: moving | goto (") || strstr(hud, "planner switched") ||
        !strstr(hud, "graph (not selected)"))
        fail_msg("HUD: %s", hud);
    tn_world_destroy(w);
}

/* Above the classic finder's 512x512 tiles goto was off; the graph planner
 * plans there (up to 1024x1024), whatever G selects, and the bot arrives at
 * a goal hundreds of tiles away; the extra bots plan with it too. */
static void test_graph_only_above_512x512(void **state)
{
    (void)state;
    tn_world *w = world_gen_wh(1040, 256, 7); /* 266,240 tiles */
    const tn_map *m = tn_world_map(w);
    for (int k = 0; k < 600 && !tn_world_character(w)->on_ground; k++) tn_world_step(w);
    assert_true(tn_world_character(w)->on_ground);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* classic: none here */
    assert_string_equal(tn_wbots_planner_in_effect(w), "graph");
    assert_non_null(tn_wbots_character_bot(w));
    int cx, cy;
    tn_body_tile(tn_world_character(w), tn_world_phys(w), &cx, &cy);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_error err;
    /* a first click builds the graph; then a goal it reaches, the farthest
     * in x of a few hundred standing tiles */
    assert_true(tn_succeeded(tn_world_click(w, cx, cy, TN_CLICK_LEFT, false, &err)));
    tn_surf *g = (tn_surf *)tn_wbots_character_graph(w);
    assert_non_null(g);
    int start = tn_surf_node_of_body(g, tn_world_character(w));
    assert_true(start >= 0);
    tn_rng r;
    tn_rng_seed(&r, 3, 9);
    int gx = -1, gy = -1;
    for (int t = 0; t < 400; t++) {
        int x = (int)tn_rng_below(&r, (uint32_t)m->w), y = (int)tn_rng_below(&r, (uint32_t)m->h);
        if (tn_surf_node_of_tile(g, x, y) < 0 || abs(x - cx) <= abs(gx - cx)) continue;
        tn_status st = tn_surf_find(g, start, x, y, NULL, 0, NULL, NULL, NULL);
        if (tn_succeeded(st) && !tn_status_detail(st, TN_UNREACHABLE)) gx = x, gy = y;
    }
    printf("  from (%d,%d) to (%d,%d)\n", cx, cy, gx, gy);
    assert_true(abs(gx - cx) > 200);
    if (tn_failed(tn_world_click(w, gx, gy, TN_CLICK_LEFT, false, &err))) fail_msg("%s", err.msg);
    const tn_bot *bot = tn_wbots_character_bot(w);
    tn_bot_info i = tn_bot_get_info(bot);
    assert_int_equal(i.planner, 1);
    assert_int_equal(i.state, TN_BOT_MOVING);
    assert_non_null(strstr(json(w), "\"planner\":\"graph\",\"plan_frames\":"));
    char hud[512];
    tn_world_hud(w, hud, sizeof hud);
    if (!strstr(hud, "bot [graph]: moving | found: ") || !strstr(hud, "classic off above 512x512"))
        fail_msg("HUD: %s", hud);
    int f = 0;
    /* (before tn_body_step kept x on the walk lattice, the bot stopped
     * STUCK near x = 16,160 px: 0.1 px of drift, 49 landings off the path) */
    while (f++ < 40000 && tn_bot_active(bot)) tn_world_step(w);
    printf("  %s after %d steps, %d re-plans\n", tn_bot_state_name(tn_bot_get_info(bot).state), f,
           tn_bot_get_info(bot).replans);
    assert_int_equal(tn_bot_get_info(bot).state, TN_BOT_ARRIVED);
    /* the extra bots: planned with the graph, trips made */
    assert_true(tn_succeeded(tn_world_set(w, "bots", 2, &err)));
    for (int k = 0;
         k < 1500 && tn_wbots_bot(w, 0) && tn_bot_get_info(tn_wbots_bot(w, 0)).plans == 0; k++)
        tn_world_step(w);
    assert_true(tn_bot_get_info(tn_wbots_bot(w, 0)).plans > 0);
    assert_int_equal(tn_bot_get_info(tn_wbots_bot(w, 0)).planner, 1);
    tn_world_destroy(w);
}

/* Replacing the map (another size) rebuilds the finders. */
static void test_replace_map(void **state)
{
    (void)state;
    tn_world *w = world("tests/data/path_gap.map");
    tn_world_set(w, "bots", 2, NULL);
    tn_error err;
    tn_map *other = tu_load_map("tests/data/path_ceiling.map");
    assert_true(tn_succeeded(tn_world_replace_map(w, other, &err)));
    assert_int_equal(tn_wbots_count(w), 2); /* the slider is kept: new bots on the new map */
    assert_true(tn_succeeded(tn_world_check(w, &err)));
    tn_bot_info i = go(w, 1500);
    assert_int_equal(i.state, TN_BOT_ARRIVED);
    tn_world_destroy(w);
}

/* tn_wbots_set_heuristic: the character's next goto searches with that
 * heuristic; its expanded count equals a direct tn_path_find with it. */
static void test_heuristic_switch(void **state)
{
    (void)state;
    int seen[2];
    for (int h = 0; h < 2; h++) {
        tn_world *w = world("maps/demo.map");
        tn_error perr;
        assert_true(tn_succeeded(tn_world_set(w, "planner", 0.0, &perr))); /* classic */
        tn_wbots_set_heuristic(w, h ? TN_PATH_FAST : TN_PATH_OPTIMAL);
        int sx, sy;
        tn_body_tile(tn_world_character(w), tn_world_phys(w), &sx, &sy);
        tn_error err;
        assert_true(tn_succeeded(tn_world_set_tool(w, TN_TOOL_GOTO)));
        assert_true(tn_succeeded(tn_world_click(w, 47, 20, TN_CLICK_LEFT, false, &err)));
        tn_bot_info i = tn_bot_get_info(tn_wbots_character_bot(w));
        tn_jump_model jm;
        assert_true(tn_succeeded(tn_jump_model_init(&jm, tn_world_phys(w), &err)));
        tn_path *pf;
        assert_true(tn_succeeded(tn_path_create(tn_world_map(w)->w, tn_world_map(w)->h,
                                                tn_world_phys(w), 65536, NULL, &pf, &err)));
        tn_path_query q = tn_path_query_make(sx, sy, i.goal_x, i.goal_y, 1, 2, &jm);
        q.heuristic = h ? TN_PATH_FAST : TN_PATH_OPTIMAL;
        tn_path_stats st;
        int n;
        tn_path_node nodes[512];
        tn_path_find(pf, tn_world_map(w), &q, nodes, 512, &n, &st, NULL);
        assert_int_equal(i.expanded, st.expanded);
        seen[h] = i.expanded;
        /* the HUD names the weighted search (the reviewer saw zigzags and
         * nothing saying why) */
        char hud[512];
        tn_world_hud(w, hud, sizeof hud);
        assert_true((strstr(hud, "bot [classic, fast A*]: ") != NULL) == (h == 1));
        assert_true((strstr(hud, "bot [classic]: ") != NULL) == (h == 0));
        tn_path_destroy(pf);
        tn_world_destroy(w);
    }
    assert_int_not_equal(seen[0], seen[1]); /* the switch did change the search */
}

/* count_alloc: the allocations made on the main thread while count_on. */
static bool count_on;
static int count_allocs;
static thrd_t count_main;
static void *count_alloc(void *user, size_t size)
{
    (void)user;
    if (count_on && thrd_equal(thrd_current(), count_main)) count_allocs++;
    return malloc(size);
}
static void count_free(void *user, void *p)
{
    (void)user;
    free(p);
}
static const tn_allocator count_allocator = {count_alloc, count_free, NULL};

/* Extra bots planning in slices on their shared query object allocate
 * nothing in the frames after an edit that grew the graph past the object
 * (a row of one-way platforms in open air: new surfaces and nodes): the
 * world fits the object at the edit (tn_surf_query_fit), off the frame.
 * Without that the next sliced plan grew it inside tn_world_step. */
static void test_sliced_bots_fit_after_edit(void **state)
{
    (void)state;
    count_main = thrd_current();
    count_on = false;
    count_allocs = 0;
    tn_world *w = NULL;
    tn_error err;
    tn_world_config c = tn_world_default_config();
    if (tn_failed(tn_world_create(tu_load_map("maps/demo.map"), &c, &count_allocator, &w, &err)))
        fail_msg("%s", err.msg);
    tn_wbots_set_plan_slice(w, 300);
    assert_true(tn_succeeded(tn_world_set(w, "bots", 3, NULL)));
    for (int f = 0; f < 240; f++) tn_world_step(w);
    const tn_surf *g = tn_wbots_character_graph(w);
    if (!g) g = tn_bot_graph(tn_wbots_bot(w, 0));
    assert_non_null(g);
    const int n0 = tn_surf_node_count(g);
    /* one-way rows in the air, where the demo map is empty */
    const tn_map *m = tn_world_map(w);
    int made = 0;
    for (int y = 3; y < m->h - 3 && made < 120; y += 4)
        for (int x = 2; x < m->w - 2; x++)
            if (tn_map_tile(m, x, y) == TN_TILE_EMPTY &&
                tn_map_tile(m, x, y - 1) == TN_TILE_EMPTY &&
                tn_map_tile(m, x, y - 2) == TN_TILE_EMPTY &&
                tn_succeeded(tn_world_edit(w, x, y, TN_EDIT_ONEWAY, &err)))
                made++;
    g = tn_bot_graph(tn_wbots_bot(w, 0));
    assert_non_null(g);
    printf("  %d one-way tiles: graph %d -> %d nodes\n", made, n0, tn_surf_node_count(g));
    assert_true(tn_surf_node_count(g) > n0 + n0 / 8); /* past the object's 1/16 room */
    count_on = true;
    int planned = 0;
    for (int f = 0; f < 300; f++) {
        tn_world_step(w);
        for (int i = 0; i < 3; i++) planned += tn_wbots_planning(w, i);
    }
    count_on = false;
    printf("  %d allocations in 300 steps, %d bot-steps planning in slices\n", count_allocs,
           planned);
    assert_true(planned > 0);
    assert_int_equal(count_allocs, 0);
    tn_world_destroy(w);
}

/* A click in the air means the ground below, for both planners alike (the
 * goal rule is tn_bot_check_goal's, the world's click_row for a one-way
 * tile): the same goal over the floor, above a one-way platform and on it,
 * above a pit down to the map's bottom.  The one difference, by design: a
 * tile by a ledge's edge where the graph stands the box over the edge (its
 * lattice puts the box's left edge inside the tile, the box's right part
 * over the ledge).  The classic planner's boxes are whole tiles: none
 * stands there, so it takes the ground below; the graph takes the click.
 * Every tile of tests/data/goal_air.map, for 1x1 and 1x2 characters. */
static void test_air_click_same_goal(void **state)
{
    (void)state;
    /* click, classic goal, graph goal (a 1x1 character) */
    static const int named[][6] = {
        {2, 2, 2, 7, 2, 7},    /* over the floor */
        {5, 3, 5, 4, 5, 4},    /* above the one-way platform: on it */
        {5, 5, 5, 4, 5, 4},    /* on the platform: its top */
        {8, 6, 8, 9, 8, 9},    /* above the pit: its bottom, the map's */
        {18, 7, 18, 9, 18, 7}, /* above the 1-wide pit: the graph over its edge */
        {10, 2, 10, 7, 10, 2}, /* beside the ledge at x 11: the graph on its edge */
        {16, 4, 16, 7, 16, 4}, /* beside the block at x 17, as high as its top */
    };
    for (int h = 1; h <= 2; h++) {
        tn_world *wc = world("tests/data/goal_air.map"), *wg = world("tests/data/goal_air.map");
        tn_error e;
        for (int k = 0; k < 2; k++) {
            tn_world *w = k ? wg : wc;
            assert_true(tn_succeeded(tn_world_set(w, "planner", k, &e)));
            assert_true(tn_succeeded(tn_world_set(w, "char_height", h, &e)));
            tn_world_step(w);
            tn_world_set_tool(w, TN_TOOL_GOTO);
        }
        const tn_map *m = tn_world_map(wc);
        int differ = 0;
        for (int y = 0; y < m->h; y++)
            for (int x = 0; x < m->w; x++) {
                tn_status sc = tn_world_click(wc, x, y, TN_CLICK_LEFT, false, NULL);
                tn_status sg = tn_world_click(wg, x, y, TN_CLICK_LEFT, false, NULL);
                tn_bot_info c = tn_bot_get_info(tn_wbots_character_bot(wc));
                tn_bot_info g = tn_bot_get_info(tn_wbots_character_bot(wg));
                if (tn_failed(sc) != tn_failed(sg))
                    fail_msg("1x%d click (%d,%d): classic %s, graph %s", h, x, y,
                             tn_failed(sc) ? "refused" : "taken",
                             tn_failed(sg) ? "refused" : "taken");
                if (tn_failed(sc) || (c.goal_x == g.goal_x && c.goal_y == g.goal_y)) continue;
                /* a ledge's edge: the graph stands on the clicked tile */
                int sx = -1, sy = -1;
                assert_true(tn_bot_snap_goal(m, 1, h, x, y, &sx, &sy));
                const tn_surf *gr = tn_wbots_character_graph(wg);
                if (g.goal_x != x || g.goal_y != y || tn_surf_node_of_tile(gr, x, y) < 0 ||
                    tn_path_box_ground(m, x, y, 1) || c.goal_x != sx || c.goal_y != sy)
                    fail_msg("1x%d click (%d,%d): classic goal (%d,%d), graph (%d,%d)", h, x, y,
                             c.goal_x, c.goal_y, g.goal_x, g.goal_y);
                differ++;
            }
        if (h == 1) {
            assert_true(differ > 0); /* (the map has the ledge edges it tests) */
            for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
                const int *t = named[k];
                assert_true(
                    tn_succeeded(tn_world_click(wc, t[0], t[1], TN_CLICK_LEFT, false, NULL)));
                assert_true(
                    tn_succeeded(tn_world_click(wg, t[0], t[1], TN_CLICK_LEFT, false, NULL)));
                tn_bot_info c = tn_bot_get_info(tn_wbots_character_bot(wc));
                tn_bot_info g = tn_bot_get_info(tn_wbots_character_bot(wg));
                if (c.goal_x != t[2] || c.goal_y != t[3] || g.goal_x != t[4] || g.goal_y != t[5])
                    fail_msg("click (%d,%d): classic goal (%d,%d), graph (%d,%d)", t[0], t[1],
                             c.goal_x, c.goal_y, g.goal_x, g.goal_y);
            }
        }
        print_message("1x%d: %d of %d clicks differ (ledge edges)\n", h, differ, m->w * m->h);
        tn_world_destroy(wc);
        tn_world_destroy(wg);
    }
}

/* Bots of another size than the character standing idle keep their graph
 * up with each edit while repairs are fast, as the character's is: it was
 * repaired only when used, so the bench's "two sizes" row on a 128x128
 * level waited 120 s for it. */
static void test_idle_bots_graph_follows_edits(void **state)
{
    (void)state;
    tn_world *w = world("maps/demo.map");
    tn_error e;
    assert_true(tn_succeeded(tn_world_set(w, "bots", 2, &e)));
    assert_true(tn_succeeded(tn_world_set(w, "char_width", 2, &e))); /* 2x2: bots stay 1x2 */
    const tn_surf *bg = NULL;
    for (int f = 0; f < 600 && !bg; f++) {
        tn_world_step(w);
        bg = tn_bot_graph(tn_wbots_bot(w, 0));
    }
    assert_non_null(bg);
    assert_true(tn_succeeded(tn_world_goto(w, 20, 30, &e))); /* the character's graph: last used */
    const tn_surf *cg = tn_wbots_character_graph(w);
    assert_non_null(cg);
    assert_ptr_not_equal(cg, bg);
    int made = 0;
    for (int x = 30; x < 40 && made < 5; x++)
        made += tn_succeeded(tn_world_edit(w, x, 8, TN_EDIT_BLOCK, NULL));
    assert_int_equal(made, 5);
    assert_true(tn_surf_in_sync(cg, tn_world_map(w)));
    assert_true(tn_surf_in_sync(bg, tn_world_map(w))); /* was 5 edits behind */
    assert_int_equal(tn_wbots_graphs_behind(w), 0);
    tn_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_goto_arrives_on_hand_made_maps),
        cmocka_unit_test(test_partial_json),
        cmocka_unit_test(test_idle_json_and_hud),
        cmocka_unit_test(test_oneway_click_means_its_top),
        cmocka_unit_test(test_goal_message_names_the_click),
        cmocka_unit_test(test_goto_where_it_stands),
        cmocka_unit_test(test_classic_answer_frames_are_the_trip),
        cmocka_unit_test(test_classic_frames_from_landing),
        cmocka_unit_test(test_arrival_frames_from_landing),
        cmocka_unit_test(test_hud_times_searches_with_a_clock),
        cmocka_unit_test(test_held_slider_builds_once_on_release),
#if !defined(__STDC_NO_THREADS__)
        cmocka_unit_test(test_background_build),
        cmocka_unit_test(test_background_build_bots_hud),
        cmocka_unit_test(test_background_first_build_note),
        cmocka_unit_test(test_click_does_not_wait_for_another_build),
        cmocka_unit_test(test_classic_compare_in_background),
        cmocka_unit_test(test_click_kept_while_its_graph_builds),
        cmocka_unit_test(test_click_after_idle_slider_builds_in_background),
        cmocka_unit_test(test_background_message_names_its_jump),
        cmocka_unit_test(test_background_build_outrun_by_edits),
        cmocka_unit_test(test_background_repair),
        cmocka_unit_test(test_background_repair_soak),
        cmocka_unit_test(test_background_repair_two_sizes),
        cmocka_unit_test(test_overlay_during_background_repair),
        cmocka_unit_test(test_overlay_shows_last_repair),
        cmocka_unit_test(test_background_build_cancelled),
        cmocka_unit_test(test_destroy_during_prepare_repairs),
        cmocka_unit_test(test_background_build_value_moved_on),
        cmocka_unit_test(test_background_build_size_moved_on),
        cmocka_unit_test(test_sliders_mid_trip_never_another_profile),
        cmocka_unit_test(test_background_build_failure_not_restarted),
        cmocka_unit_test(test_failed_build_time_not_taken_as_fast),
        cmocka_unit_test(test_failed_build_here_not_retried),
        cmocka_unit_test(test_kept_goto_when_its_build_fails),
        cmocka_unit_test(test_kept_goto_dropped_when_its_build_fails),
#endif
        cmocka_unit_test(test_classic_continuation_not_after_takeover),
        cmocka_unit_test(test_hud_compares_planners),
        cmocka_unit_test(test_hud_singular),
        cmocka_unit_test(test_hud_compare_no_closer_tile),
        cmocka_unit_test(test_graph_replans_counted),
        cmocka_unit_test(test_graph_follows_each_edit),
        cmocka_unit_test(test_check_replays_every_plan),
        cmocka_unit_test(test_graph_goto_in_air),
        cmocka_unit_test(test_graph_replan_after_slider),
        cmocka_unit_test(test_hud_compare_follows_replan),
        cmocka_unit_test(test_hud_pending_plan_shows_no_nodes),
        cmocka_unit_test(test_hud_follows_planner_switch),
        cmocka_unit_test(test_hud_classic_pending_after_switch),
        cmocka_unit_test(test_refused_goto_keeps_the_trip),
        cmocka_unit_test(test_hud_slider_without_a_step),
        cmocka_unit_test(test_hud_idle_plan_for_another_value),
        cmocka_unit_test(test_out_of_reach_retried_on_change),
        cmocka_unit_test(test_hud_says_why_and_since),
        cmocka_unit_test(test_hud_landing_and_cancel),
        cmocka_unit_test(test_landed_plan_names_the_click),
        cmocka_unit_test(test_classic_replan_drops_the_clicks_graph_answer),
        cmocka_unit_test(test_hud_edit_pending),
        cmocka_unit_test(test_hud_slider_pending),
        cmocka_unit_test(test_graph_bot_stops_on_the_tile),
        cmocka_unit_test(test_slider_drag_builds_at_the_step),
        cmocka_unit_test(test_classic_limit_is_not_out_of_reach),
        cmocka_unit_test(test_classic_limit_at_the_start_is_no_closer_tile),
        cmocka_unit_test(test_key_cancels),
        cmocka_unit_test(test_click_in_air),
        cmocka_unit_test(test_click_on_oneway),
        cmocka_unit_test(test_extra_bots),
        cmocka_unit_test(test_plan_budget_spreads_replans),
        cmocka_unit_test(test_plan_budget_default_big_map),
        cmocka_unit_test(test_plan_budget_per_frame),
        cmocka_unit_test(test_sliced_plans_big_map),
        cmocka_unit_test(test_planning_bot_drawn),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_extra_bots_graph_plans_drawn),
        cmocka_unit_test(test_extra_bots_over_the_graph),
        cmocka_unit_test(test_extra_bot_plan_not_drawn_on_another_graph),
        cmocka_unit_test(test_explored_is_the_planners_search),
        cmocka_unit_test(test_explored_hidden_while_a_replan_waits),
        cmocka_unit_test(test_paused_edit_hides_the_old_plan),
        cmocka_unit_test(test_explored_shared_finder_is_the_characters),
        cmocka_unit_test(test_plan_drawn_in_air),
        cmocka_unit_test(test_prepare_surface_overlay),
        cmocka_unit_test(test_json_names_planner_in_effect),
        cmocka_unit_test(test_graph_only_above_512x512),
        cmocka_unit_test(test_replace_map),
        cmocka_unit_test(test_heuristic_switch),
        cmocka_unit_test(test_surf_overlay_draws_the_views_edges),
        cmocka_unit_test(test_air_click_same_goal),
        cmocka_unit_test(test_idle_bots_graph_follows_edits),
        cmocka_unit_test(test_sliced_bots_fit_after_edit),
        cmocka_unit_test(test_extra_bot_body_opaque),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
