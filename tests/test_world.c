/* The world core: edits and their refusals, clicks, parameters, JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "worldutil.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_wbots.h"
#include "tn_wnav.h"
#include "tn_wparts.h"
#include "tn_world.h"

/* Names (a map's, a save's, a Tiled object's) go into messages as the
 * user typed them or a file carried them: shown, their control characters
 * are \xNN, never raw (an ESC sequence recoloured or retitled the
 * terminal, a newline faked a line of its own); printable UTF-8 stays. */
static void test_text_shown(void **state)
{
    (void)state;
    char out[128];
    const struct {
        const char *in, *want;
    } cases[] = {
        {"maps/demo.map", "maps/demo.map"},
        {"a\033[31mred\nb.map", "a\\x1b[31mred\\x0ab.map"},
        {"bad\033]0;pwned\a.map", "bad\\x1b]0;pwned\\x07.map"},
        {"tab\there\x7f", "tab\\x09here\\x7f"},
        {"caf\xc3\xa9 \xe5\x9c\xb0\xe5\x9b\xb3.map", "caf\xc3\xa9 \xe5\x9c\xb0\xe5\x9b\xb3.map"},
        {"c1 \xc2\x9b"
         "2J",
         "c1 \\xc2\\x9b2J"},                                         /* U+009B, the 8-bit CSI */
        {"bidi \xe2\x80\xaetxt.exe", "bidi \\xe2\\x80\\xaetxt.exe"}, /* U+202E */
        {"latin1 \xe9t\xe9", "latin1 \\xe9t\\xe9"},                  /* not UTF-8 */
        {"cut \xe5\x9c", "cut \\xe5\\x9c"},                          /* a character cut short */
        {"overlong \xc0\xaf \xe0\x80\xaf", "overlong \\xc0\\xaf \\xe0\\x80\\xaf"},
        {"", ""},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tn_text_shown(out, sizeof out, cases[k].in);
        if (strcmp(out, cases[k].want) != 0) fail_msg("case %zu: %s", k, out);
    }
    /* cut to fit, never inside an escape or a character */
    char small[8];
    assert_string_equal(tn_text_shown(small, sizeof small, "ab\033cdef"), "ab\\x1bc");
    assert_string_equal(tn_text_shown(small, 6, "ab\033cdef"), "ab");
    assert_string_equal(tn_text_shown(small, 6, "abc\xc3\xa9\xc3\xa9"), "abc\xc3\xa9");
    assert_string_equal(tn_text_shown(small, sizeof small, NULL), "");

    /* the HUD message: what tn_world_message says is shown so */
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_world_message(w, "saved %s", "a\033[31mred\nb.map");
    assert_string_equal(tn_world_message_text(w), "saved a\\x1b[31mred\\x0ab.map");
    /* a long one whole (a playtest's 300-byte navmesh and replay message
     * was cut at 255 bytes mid-word); one past the room ends in "...",
     * cut where a character starts */
    char longer[3000];
    memset(longer, 'x', 300);
    longer[300] = '\0';
    tn_world_message(w, "%s", longer);
    assert_string_equal(tn_world_message_text(w), longer);
    memset(longer, 'x', sizeof longer); /* (the last byte before the NUL: valgrind) */
    for (int i = 0; i + 2 < (int)sizeof longer - 1; i += 2) memcpy(longer + i, "\xc3\xa9", 2);
    longer[sizeof longer - 1] = '\0';
    tn_world_message(w, "a%s", longer); /* (odd: a cut inside a character moves back) */
    const char *t = tn_world_message_text(w);
    const size_t n = strlen(t);
    assert_true(n < TN_WORLD_MSG_MAX && n > TN_WORLD_MSG_MAX - 8);
    assert_string_equal(t + n - 3, "...");
    assert_true(((unsigned char)t[n - 4] & 0xc0) == 0x80); /* a whole "é" before it */
    assert_true((unsigned char)t[n - 5] == 0xc3);
    tn_world_destroy(w);
}

static void test_start_and_ground(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    for (int i = 0; i < 10; i++) tn_world_step(w);
    int tx, ty;
    tn_body_tile(tn_world_character(w), tn_world_phys(w), &tx, &ty);
    assert_int_equal(tx, 1);
    assert_int_equal(ty, 6);
    assert_true(tn_world_character(w)->on_ground);
    assert_int_equal(tn_world_frame(w), 10);
    tn_world_destroy(w);
}

/* tn_world_restart_frames: the window's picker (Tab) counts another map's
 * frames from 0 (they went on from the old map's); the steps go on from
 * there, and a map replaced without it keeps counting (a reset, a
 * script's frames). */
static void test_restart_frames(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    for (int i = 0; i < 10; i++) tn_world_step(w);
    tn_error e;
    assert_true(tn_succeeded(tn_world_replace_map(w, tu_load_map("tests/data/small.map"), &e)));
    assert_int_equal(tn_world_frame(w), 10);
    tn_world_restart_frames(w);
    assert_int_equal(tn_world_frame(w), 0);
    tn_world_step(w);
    assert_int_equal(tn_world_frame(w), 1);
    tn_world_destroy(w);
}

static void test_edits(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_error e;
    /* toggling a block on and off */
    assert_true(tn_succeeded(tn_world_edit(w, 4, 2, TN_EDIT_BLOCK, &e)));
    assert_int_equal(tn_map_tile(tn_world_map(w), 4, 2), TN_TILE_BLOCK);
    assert_true(tn_succeeded(tn_world_edit(w, 4, 2, TN_EDIT_BLOCK, &e)));
    assert_int_equal(tn_map_tile(tn_world_map(w), 4, 2), TN_TILE_EMPTY);
    assert_int_equal(tn_world_edits(w), 2);
    assert_true(tn_world_dirty(w));
    /* a block inside the character is refused, counted and shown */
    assert_true(tn_failed(tn_world_edit(w, 1, 5, TN_EDIT_BLOCK, &e)));
    assert_string_equal(e.msg, "tile (1,5) is inside the character: a block there would trap it");
    assert_string_equal(tn_world_message_text(w), e.msg);
    assert_int_equal(tn_world_refused_edits(w), 1);
    /* a one-way inside the character is fine (it cannot trap) */
    assert_true(tn_succeeded(tn_world_edit(w, 1, 5, TN_EDIT_ONEWAY, &e)));
    assert_true(tn_succeeded(tn_world_edit(w, 1, 5, TN_EDIT_EMPTY, &e)));
    /* outside the map */
    assert_true(tn_failed(tn_world_edit(w, -1, 5, TN_EDIT_BLOCK, &e)));
    assert_string_equal(e.msg, "tile (-1,5) is outside the 12x8 map");
    /* marks only on empty tiles; a block clears a mark */
    assert_true(tn_failed(tn_world_edit(w, 0, 0, TN_EDIT_ITEM, &e)));
    assert_string_equal(e.msg, "tile (0,0) is not empty: items go on empty tiles only");
    assert_true(tn_succeeded(tn_world_edit(w, 5, 5, TN_EDIT_ITEM, &e)));
    assert_int_equal(tn_map_mark(tn_world_map(w), 5, 5), TN_MARK_ITEM);
    assert_true(tn_succeeded(tn_world_edit(w, 5, 5, TN_EDIT_BLOCK, &e)));
    assert_int_equal(tn_map_mark(tn_world_map(w), 5, 5), TN_MARK_NONE);
    tn_world_destroy(w);
}

static void test_clicks(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_error e;
    assert_true(tn_succeeded(tn_world_click(w, 6, 3, TN_CLICK_RIGHT, false, &e)));
    assert_int_equal(tn_map_tile(tn_world_map(w), 6, 3), TN_TILE_BLOCK);
    assert_true(tn_succeeded(tn_world_click(w, 7, 3, TN_CLICK_MIDDLE, false, &e)));
    assert_int_equal(tn_map_tile(tn_world_map(w), 7, 3), TN_TILE_ONEWAY);
    assert_true(tn_succeeded(tn_world_click(w, 8, 3, TN_CLICK_RIGHT, true, &e)));
    assert_int_equal(tn_map_tile(tn_world_map(w), 8, 3), TN_TILE_ONEWAY);
    tn_world_set_tool(w, TN_TOOL_ITEM);
    assert_true(tn_succeeded(tn_world_click(w, 8, 2, TN_CLICK_LEFT, false, &e)));
    assert_int_equal(tn_map_mark(tn_world_map(w), 8, 2), TN_MARK_ITEM);
    assert_true(tn_failed(tn_world_click(w, 80, 2, TN_CLICK_LEFT, false, &e)));
    assert_string_equal(e.msg, "tile (80,2) is outside the 12x8 map");
    assert_true(tn_failed(tn_world_set_tool(w, TN_TOOL_COUNT)));
    tn_world_destroy(w);
}

static void test_params(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_error e;
    double v;
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 6, &e)));
    assert_true(tn_world_get(w, "jump_height", &v));
    assert_true(v == 6.0);
    assert_true(tn_failed(tn_world_set(w, "jump_height", 0.5, &e)));
    assert_string_equal(e.msg, "jump_height 0.5 is outside 1..8");
    assert_true(tn_failed(tn_world_set(w, "char_width", 2.5, &e)));
    assert_string_equal(e.msg, "char_width 2.5 is outside 1..3 (whole numbers)");
    assert_true(tn_failed(tn_world_set(w, "warp", 1, &e)));
    assert_string_equal(e.msg, "unknown parameter 'warp' (parameters: jump_height, char_width, "
                               "char_height, spawn_rate, bots, companion_speed, follow_distance, "
                               "wanderers, bias, smoothness, agent_radius, planner)");
    assert_false(tn_world_get(w, "warp", &v));
    /* growing the character: keeps its feet; refused where there is no room */
    for (int i = 0; i < 5; i++) tn_world_step(w);
    float bottom = tn_world_character(w)->y + 2 * 16.0f;
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 3, &e)));
    assert_float_equal(tn_world_character(w)->y + 3 * 16.0f, bottom, 1e-4);
    assert_true(tn_failed(tn_world_set(w, "char_height", 9, &e)));
    assert_string_equal(
        e.msg, "no room for a 1x9 character here (it stays 1x3): move to open space first");
    assert_int_equal(tn_world_character(w)->h, 3);
    assert_non_null(strstr(tn_world_message_text(w), "(it stays 1x3)"));
    /* a setting that then succeeds (the slider dragged back to a height that
     * fits) takes that refusal off the status line: it no longer says 1x3
     * beside a 1x4 character (a bad value's message is a refusal too) */
    assert_true(tn_succeeded(tn_world_set(w, "char_height", 4, &e)));
    assert_int_equal(tn_world_character(w)->h, 4);
    assert_string_equal(tn_world_message_text(w), "");
    assert_true(tn_failed(tn_world_set(w, "jump_height", 9, &e)));
    assert_non_null(strstr(tn_world_message_text(w), "jump_height 9 is outside 1..8"));
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 5, &e)));
    assert_string_equal(tn_world_message_text(w), "");
    tn_world_message(w, "saved x.map"); /* a message not of a refusal stays */
    assert_true(tn_succeeded(tn_world_set(w, "jump_height", 6, &e)));
    assert_string_equal(tn_world_message_text(w), "saved x.map");
    /* a rule's refusal counts like a refused edit; a bad value or name does not */
    assert_int_equal(tn_world_refused_edits(w), 1);
    int n;
    const tn_param_info *p = tn_world_params(&n);
    assert_true(n >= 4);
    assert_string_equal(p[0].name, "jump_height");
    tn_world_destroy(w);
}

/* tn_world_goto does what a left click with the goto tool does, whatever
 * the current tool, and leaves the tool alone. */
static void test_goto(void **state)
{
    (void)state;
    tn_world *a = tu_load_world("tests/data/small.map", 3);
    tn_world *b = tu_load_world("tests/data/small.map", 3);
    tn_error e;
    tn_world_set_tool(a, TN_TOOL_BLOCK);
    assert_true(tn_succeeded(tn_world_goto(a, 9, 6, &e)));
    assert_int_equal(tn_world_tool(a), TN_TOOL_BLOCK);
    assert_int_equal(tn_map_tile(tn_world_map(a), 9, 6), TN_TILE_EMPTY); /* no block placed */
    tn_world_set_tool(b, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(b, 9, 6, TN_CLICK_LEFT, false, &e)));
    for (int i = 0; i < 400; i++) {
        tn_world_step(a);
        tn_world_step(b);
    }
    char ja[4096], jb[4096];
    tn_world_json(a, ja, sizeof ja);
    tn_world_json(b, jb, sizeof jb);
    assert_string_equal(ja, jb);
    int tx, ty;
    tn_body_tile(tn_world_character(a), tn_world_phys(a), &tx, &ty);
    assert_int_equal(tx, 9); /* it got there */
    assert_true(tn_failed(tn_world_goto(a, 12, 1, &e)));
    assert_string_equal(e.msg, "tile (12,1) is outside the 12x8 map");
    assert_string_equal(tn_world_message_text(a), "tile (12,1) is outside the 12x8 map");
    tn_world_destroy(a);
    tn_world_destroy(b);
}

/* The accessors that front ends write through; every parameter's getter
 * reads back its table default on a fresh world. */
static void test_accessors_and_param_table(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_error e;
    assert_false(tn_world_dirty(w));
    assert_true(tn_succeeded(tn_world_edit(w, 6, 3, TN_EDIT_BLOCK, &e)));
    assert_true(tn_world_dirty(w));
    assert_int_equal(tn_world_edits(w), 1);
    tn_world_set_dirty(w, false);
    assert_false(tn_world_dirty(w));
    tn_world_reset_edit_counts(w);
    assert_int_equal(tn_world_edits(w), 0);
    tn_world_message(w, "hello %d", 7);
    assert_string_equal(tn_world_message_text(w), "hello 7");
    assert_true(tn_world_message_ttl(w) > 0);
    tn_world_set_message_ttl(w, 1);
    tn_world_step(w);
    assert_int_equal(tn_world_message_ttl(w), 0);
    assert_string_equal(tn_world_message_text(w), "");
    assert_null(tn_world_clock(w));
    assert_int_equal(tn_world_frame(w), 1);
    int n;
    const tn_param_info *p = tn_world_params(&n);
    assert_int_equal(n, 12);
    for (int i = 0; i < n; i++) {
        double v = -1;
        assert_non_null(p[i].set);
        assert_true(p[i].def >= p[i].min && p[i].def <= p[i].max);
        if (!tn_world_get(w, p[i].name, &v)) fail_msg("%s: no value", p[i].name);
        if (v != p[i].def) fail_msg("%s: %g, table default %g", p[i].name, v, p[i].def);
        assert_true(tn_world_param_find(p[i].name) == &p[i]);
    }
    tn_world_destroy(w);
}

static void test_json_and_determinism(void **state)
{
    (void)state;
    char a[8192], b[8192];
    for (int run = 0; run < 2; run++) {
        tn_world *w = tu_load_world("maps/demo.map", 1);
        tn_input in = {false, true, false, false};
        for (int i = 0; i < 300; i++) {
            in.jump = (i % 40) < 20;
            tn_world_set_input(w, in);
            tn_world_step(w);
        }
        int n = tn_world_json(w, run ? b : a, sizeof a);
        assert_true(n > 0 && n < (int)sizeof a);
        /* snprintf-like: asking with no room returns the same length */
        assert_int_equal(tn_world_json(w, NULL, 0), n);
        tn_world_destroy(w);
    }
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "{\"frames\":300,"));
    assert_non_null(strstr(a, "\"map\":{\"width\":80,\"height\":45}"));
    assert_non_null(strstr(a, "\"character\":{\"x\":"));
    assert_non_null(strstr(a, "\"refused_edits\":0"));
}

static void test_replace_map(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(5, 5, NULL, &m, NULL)));
    tn_error e;
    assert_true(tn_succeeded(tn_world_replace_map(w, m, &e)));
    assert_int_equal(tn_world_map(w)->w, 5);
    assert_false(tn_body_box_blocked(tn_world_map(w), tn_world_phys(w), tn_world_character(w)->x,
                                     tn_world_character(w)->y, tn_world_character(w)->w,
                                     tn_world_character(w)->h));
    tn_world_destroy(w);
}

/* A map change (the Tab picker, R, Ctrl+R) keeps every parameter the user
 * set, the parts' as well as the core's (the parts were made again with
 * their defaults: the reviewer's planner went back to graph, spawn rate to
 * 1/s, agent radius to 0.31); values a new map cannot take are named. */
static void test_replace_map_keeps_params(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double v;
    } SET[] = {{"planner", 0},         {"spawn_rate", 5},   {"agent_radius", 0},
               {"jump_height", 2},     {"char_width", 2},   {"char_height", 3},
               {"bias", 0.8},          {"smoothness", 0.1}, {"companion_speed", 100},
               {"follow_distance", 6}, {"bots", 2},         {"wanderers", 3}};
    const int n = (int)(sizeof SET / sizeof SET[0]);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_error e;
    for (int i = 0; i < n; i++)
        assert_true(tn_succeeded(tn_world_set(w, SET[i].name, SET[i].v, &e)));
    int np;
    tn_world_params(&np);
    assert_int_equal(np, n); /* every parameter is in SET */
    assert_true(tn_succeeded(tn_world_replace_map(w, tu_load_map("maps/demo.map"), &e)));
    for (int i = 0; i < n; i++) {
        double v;
        assert_true(tn_world_get(w, SET[i].name, &v));
        if (fabs(v - SET[i].v) > 1e-6)
            fail_msg("%s is %g after the switch, set %g", SET[i].name, v, SET[i].v);
    }
    assert_string_equal(tn_world_message_text(w), ""); /* all kept: nothing to say */
    char json[4096];
    tn_world_json(w, json, sizeof json);
    assert_non_null(strstr(json, "\"planner\":\"classic\""));
    assert_non_null(strstr(json, "\"extra_bots\":2,"));
    /* a map too large for the classic finder and the navmesh: the navmesh's
     * parameter is named, the rest kept (the bots plan with the graph there) */
    tn_map *big = tu_no_navmesh_map();
    assert_true(tn_succeeded(tn_world_replace_map(w, big, &e)));
    const char *msg = tn_world_message_text(w);
    printf("  on the large map: %s\n", msg);
    assert_non_null(strstr(msg, "not kept on this map: "));
    assert_null(strstr(msg, "bots 2 ("));
    assert_non_null(strstr(msg, "agent_radius 0 ("));
    tn_world_json(w, json, sizeof json);
    assert_non_null(strstr(json, "\"extra_bots\":2,"));
    assert_non_null(strstr(json, "\"planner\":\"graph\"")); /* the only one here */
    assert_null(strstr(msg, "spawn_rate"));
    double v;
    assert_true(tn_world_get(w, "spawn_rate", &v) && v == 5);
    assert_true(tn_world_get(w, "bias", &v) && fabs(v - 0.8) < 1e-6);
    tn_world_destroy(w);
}

/* What the world says about tu_no_navmesh_map (the MB follow) */
#define NO_MESH_SAID "the navmesh is off: this 600x480 map's outlines would need about "

/* A switch to a map too large for the navmesh says so, as a world made on
 * it does (the parts' own messages are not cleared with the old map's). */
static void test_replace_map_says_what_is_off(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_world_message(w, "a message about the small map");
    tn_error e;
    assert_true(tn_succeeded(tn_world_replace_map(w, tu_no_navmesh_map(), &e)));
    const char *msg = tn_world_message_text(w);
    if (strncmp(msg, NO_MESH_SAID, strlen(NO_MESH_SAID)) != 0) fail_msg("message: '%s'", msg);
    assert_true(tn_world_message_ttl(w) > 0);
    tn_world_destroy(w);
}

/* An allocator that fails its fail_at-th allocation (counted from 1 after
 * arming; 0: none fails). */
typedef struct fail_alloc {
    long n, fail_at;
    bool after; /* every allocation from the fail_at-th on fails */
} fail_alloc;
static void *fail_alloc_fn(void *user, size_t size)
{
    fail_alloc *f = user;
    if (f->fail_at && (++f->n == f->fail_at || (f->after && f->n > f->fail_at))) return NULL;
    return malloc(size);
}
static void fail_free_fn(void *user, void *p)
{
    (void)user;
    free(p);
}

/* The world while agents are out (extra bots, wanderers, a goto under
 * way) and a smaller map comes in whose parts cannot all be made (each
 * allocation of the switch failed in turn): the switch fails and the old
 * map plays on with its parts, as tn_control_reset tells the user.  (The
 * world was left holding the new map without the parts that failed: the
 * next goto click dereferenced the missing bots part.) */
static void test_replace_map_out_of_memory(void **state)
{
    (void)state;
    int failed = 0, k;
    for (k = 1; k < 2000; k++) {
        fail_alloc fa = {0, 0, false};
        tn_allocator a = {fail_alloc_fn, fail_free_fn, &fa};
        tn_world_config cfg = tn_world_default_config();
        tn_world *w = NULL;
        tn_error e;
        if (tn_failed(tn_world_create(tu_load_map("maps/demo.map"), &cfg, &a, &w, &e)))
            fail_msg("%s", e.msg);
        assert_true(tn_succeeded(tn_world_set(w, "bots", 3, &e)));
        assert_true(tn_succeeded(tn_world_set(w, "wanderers", 4, &e)));
        assert_true(tn_succeeded(tn_world_goto(w, 30, 40, &e)));
        for (int i = 0; i < 5; i++) tn_world_step(w);
        fa.n = 0;
        fa.fail_at = k;
        tn_status st = tn_world_replace_map(w, tu_load_map("tests/data/small.map"), &e);
        bool hit = fa.n >= k; /* the k-th allocation was made (and failed) */
        fa.fail_at = 0;
        if (tn_failed(st)) {
            failed++;
            /* the old map, whole: its size, its parts, the checks */
            assert_int_equal(tn_world_map(w)->w, 80);
            assert_int_equal(tn_world_map(w)->h, 45);
            double v;
            assert_true(tn_world_get(w, "bots", &v) && v == 3);
            assert_true(tn_world_get(w, "wanderers", &v) && v == 4);
        } else {
            assert_int_equal(tn_world_map(w)->w, 12);
        }
        if (tn_failed(tn_world_check(w, &e))) fail_msg("allocation %d: %s", k, e.msg);
        /* every tool and a few steps on whichever map plays */
        const tn_map *m = tn_world_map(w);
        tn_world_goto(w, m->w - 2, m->h - 2, &e);
        for (int t = 0; t < TN_TOOL_COUNT; t++) {
            tn_world_set_tool(w, (tn_tool)t);
            tn_world_click(w, m->w / 2, 1, TN_CLICK_LEFT, false, &e);
        }
        for (int i = 0; i < 5; i++) tn_world_step(w);
        char json[4096];
        assert_true(tn_world_json(w, json, sizeof json) < (int)sizeof json);
        if (tn_failed(tn_world_check(w, &e))) fail_msg("allocation %d: %s", k, e.msg);
        tn_world_destroy(w);
        if (!hit) break; /* the switch made fewer than k allocations: all tried */
    }
    printf("  %d allocations in the switch, %d of them failing it\n", k - 1, failed);
    assert_true(failed > 0);
    /* no memory at all from some point on: the old map's parts cannot be
     * made again either; the world runs on without them, nothing crashes */
    for (int from = 1; from < k; from += 7) {
        fail_alloc fa = {0, 0, true};
        tn_allocator a = {fail_alloc_fn, fail_free_fn, &fa};
        tn_world *w = NULL;
        tn_error e;
        if (tn_failed(tn_world_create(tu_load_map("maps/demo.map"), NULL, &a, &w, &e)))
            fail_msg("%s", e.msg);
        assert_true(tn_succeeded(tn_world_set(w, "wanderers", 2, &e)));
        fa.fail_at = from;
        assert_true(tn_failed(tn_world_replace_map(w, tu_load_map("tests/data/small.map"), &e)));
        assert_int_equal(tn_world_map(w)->w, 80);
        for (int t = 0; t < TN_TOOL_COUNT; t++) {
            tn_world_set_tool(w, (tn_tool)t);
            tn_world_click(w, 40, 30, TN_CLICK_LEFT, false, &e);
        }
        tn_world_goto(w, 40, 30, &e);
        tn_world_edit(w, 40, 30, TN_EDIT_BLOCK, &e);
        for (int i = 0; i < 3; i++) tn_world_step(w);
        char buf[4096];
        tn_world_json(w, buf, sizeof buf);
        tn_world_hud(w, buf, sizeof buf);
        tn_world_set(w, "bots", 2, &e);
        if (tn_failed(tn_world_check(w, &e))) fail_msg("from allocation %d: %s", from, e.msg);
        tn_world_destroy(w);
    }
}

/* Does the segment a-b (tiles) pass through the inside of tile (x, y)? The
 * slab test, independent of the walk tn_wnav_los makes. */
static bool seg_hits_tile(double ax, double ay, double bx, double by, int x, int y)
{
    double t0 = 0, t1 = 1;
    const double o[2] = {ax, ay}, d[2] = {bx - ax, by - ay}, lo[2] = {x, y}, hi[2] = {x + 1, y + 1};
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0) {
            if (o[k] <= lo[k] || o[k] >= hi[k]) return false;
            continue;
        }
        double u = (lo[k] - o[k]) / d[k], v = (hi[k] - o[k]) / d[k];
        if (u > v) {
            double t = u;
            u = v;
            v = t;
        }
        t0 = u > t0 ? u : t0;
        t1 = v < t1 ? v : t1;
    }
    return t0 < t1;
}

/* A map whose navmesh would need hundreds of MB has none: the world still
 * runs, says so, and refuses its tools clearly.  (The 600x480 map is over
 * the classic planner's 512x512 too.) */
static void test_large_map_degrades(void **state)
{
    (void)state;
    tn_map *m = tu_no_navmesh_map();
    tn_world *w;
    tn_error e;
    assert_true(tn_succeeded(tn_world_create(m, NULL, NULL, &w, &e)));
    for (int i = 0; i < 5; i++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_check(w, &e)));
    char json[4096];
    tn_world_json(w, json, sizeof json);
    assert_non_null(
        strstr(json, "\"navmesh\":{\"triangles\":0,\"regions\":0,\"build_ms\":null,\"off\":true}"));
    tn_world_set_tool(w, TN_TOOL_NAVPATH);
    assert_true(tn_failed(tn_world_click(w, 10, 10, TN_CLICK_LEFT, false, &e)));
    if (strncmp(e.msg, NO_MESH_SAID, strlen(NO_MESH_SAID)) || !strstr(e.msg, " MB (limit 160 MB)"))
        fail_msg("%s", e.msg);
    char hud[1024];
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "navmesh: off (would need about "));
    /* the companion beside the character sees it: without a mesh the tiles
     * answer line of sight (a reviewer's companion said "lost sight" at the
     * character's side on a 1024x1024 map) */
    assert_non_null(strstr(json, "\"sees_character\":true"));
    /* that answer against the slab test, on random segments among blocks */
    tn_rng r;
    tn_rng_seed(&r, 5, 1);
    for (int y = 0; y < 41; y++) /* free first: the checkerboard covers it */
        for (int x = 0; x < 41; x++) tn_map_set_tile(m, x, y, TN_TILE_EMPTY, NULL);
    for (int k = 0; k < 120; k++) {
        int x = 1 + (int)tn_rng_below(&r, 38), y = 1 + (int)tn_rng_below(&r, 38);
        tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
    }
    /* written straight into the world's map: the tile walk reads it */
    int seen = 0;
    for (int k = 0; k < 3000; k++) {
        double c[4];
        for (int q = 0; q < 4; q++) c[q] = 40.0 * tn_rng_float(&r);
        bool want = true;
        for (int y = 0; y < 40 && want; y++)
            for (int x = 0; x < 40 && want; x++)
                if (tn_map_tile(m, x, y) == TN_TILE_BLOCK &&
                    seg_hits_tile(c[0], c[1], c[2], c[3], x, y))
                    want = false;
        const float T = (float)TN_TILE_PX;
        bool got =
            tn_wnav_los(w, (float)c[0] * T, (float)c[1] * T, (float)c[2] * T, (float)c[3] * T);
        if (got != want)
            fail_msg("segment (%g,%g)-(%g,%g): %d, want %d", c[0], c[1], c[2], c[3], got, want);
        seen += want;
    }
    printf("  tile line of sight: 3000 random segments, %d clear, all as the slab test\n", seen);
    tn_world_destroy(w);
}

/* A big map of little content has a navmesh: its memory follows the
 * outlines, not the size (a reviewer's companion on a 1024x1024 level
 * searched by a path that never came, for good: the mesh was off above
 * 512x512 whatever the map held).  The navpath tool finds its way round a
 * wall; the JSON counts triangles. */
static void test_big_sparse_map_has_navmesh(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(1024, 1024, NULL, &m, NULL)));
    for (int x = 0; x < 1024; x++) tn_map_set_tile(m, x, 1023, TN_TILE_BLOCK, NULL);
    for (int y = 900; y < 1023; y++) tn_map_set_tile(m, 600, y, TN_TILE_BLOCK, NULL);
    m->start_x = 10;
    m->start_y = 1022;
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    char json[4096];
    tn_world_json(w, json, sizeof json);
    assert_null(strstr(json, "\"off\":true}"));
    tn_world_set_tool(w, TN_TOOL_NAVPATH);
    if (tn_failed(tn_world_click(w, 900, 1020, TN_CLICK_LEFT, false, &e))) fail_msg("%s", e.msg);
    const char *msg = tn_world_message_text(w);
    printf("  %s\n", msg);
    assert_non_null(strstr(msg, "navmesh path: "));
    tn_world_destroy(w);
}

/* An edit whose outlines outgrow the navmesh's memory limit turns it off
 * like a map over the limit (a robustness review found an empty mesh left
 * in place: the companion beside the character lost sight of it, the HUD
 * said "0 triangles"); edits that take the outlines away turn it on again.
 * The map is written straight into the world's map, then one edit tells it
 * (70,000 clicks would take a minute). */
static void test_navmesh_off_and_on_by_edits(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(600, 480, NULL, &m, NULL)));
    for (int x = 0; x < 600; x++) tn_map_set_tile(m, x, 479, TN_TILE_BLOCK, NULL);
    for (int y = 0; y < 200; y++) /* ~60,000 outline points: on */
        for (int x = (y & 1); x < 600; x += 2) tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
    m->start_x = 10;
    m->start_y = 478;
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    char hud[1024], json[4096];
    tn_world_hud(w, hud, sizeof hud);
    assert_null(strstr(hud, "navmesh: off"));
    for (int y = 200; y < 420; y++) /* to ~130,000 points: past 160 MB */
        for (int x = (y & 1); x < 600; x += 2) tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
    tn_map_set_tile(m, 0, 200, TN_TILE_EMPTY, NULL);
    assert_true(tn_succeeded(tn_world_edit(w, 0, 200, TN_EDIT_BLOCK, &e)));
    printf("  %s\n", tn_world_message_text(w));
    assert_non_null(strstr(tn_world_message_text(w), "navmesh: the map's outlines now need about"));
    tn_world_hud(w, hud, sizeof hud);
    assert_non_null(strstr(hud, "navmesh: off (would need about "));
    for (int i = 0; i < 3; i++) tn_world_step(w);
    tn_world_json(w, json, sizeof json);
    assert_non_null(strstr(json, "\"off\":true}"));
    assert_non_null(strstr(json, "\"sees_character\":true"));   /* by the tiles */
    if (tn_failed(tn_wnav_check(w, &e))) fail_msg("%s", e.msg); /* (the map was written) */
    tn_world_message(w, "-");
    assert_true(tn_succeeded(tn_world_edit(w, 0, 200, TN_EDIT_BLOCK, &e))); /* still off */
    assert_string_equal(tn_world_message_text(w), "-");                     /* (said once) */
    for (int y = 100; y < 420; y++) /* most of it away: on again */
        for (int x = 0; x < 600; x++) tn_map_set_tile(m, x, y, TN_TILE_EMPTY, NULL);
    tn_map_set_tile(m, 5, 100, TN_TILE_BLOCK, NULL);
    assert_true(tn_succeeded(tn_world_edit(w, 5, 100, TN_EDIT_BLOCK, &e)));
    printf("  %s\n", tn_world_message_text(w));
    assert_non_null(strstr(tn_world_message_text(w), "navmesh: on again"));
    tn_world_hud(w, hud, sizeof hud);
    assert_null(strstr(hud, "navmesh: off"));
    tn_world_json(w, json, sizeof json);
    assert_null(strstr(json, "\"off\":true}"));
    tn_world_set_tool(w, TN_TOOL_NAVPATH);
    if (tn_failed(tn_world_click(w, 300, 470, TN_CLICK_LEFT, false, &e))) fail_msg("%s", e.msg);
    if (tn_failed(tn_wnav_check(w, &e))) fail_msg("%s", e.msg); /* (the map was written) */
    tn_world_destroy(w);
}

/* The reference: the ring-by-ring scan the world used before (cubic on a
 * map where nothing fits), kept here to check the one-pass search. */
static bool ref_box_fits(const tn_map *m, int tx, int ty, int w, int h)
{
    for (int y = ty - h + 1; y <= ty; y++)
        for (int x = tx; x < tx + w; x++)
            if (tn_map_tile(m, x, y) == TN_TILE_BLOCK) return false;
    return true;
}
/* (a box standing: a block or one-way platform, or the map's bottom edge,
 * under one of its columns) */
static bool ref_box_stands(const tn_map *m, int tx, int ty, int w)
{
    for (int x = tx; x < tx + w; x++)
        if (tn_map_tile(m, x, ty + 1) != TN_TILE_EMPTY) return true;
    return false;
}
/* (in a ring, the first box that stands, else the first that fits) */
static bool ref_find_fit(const tn_map *m, int w, int h, int tx, int ty, int *ox, int *oy)
{
    int rmax = m->w > m->h ? m->w : m->h;
    rmax += 2 * TN_MAX_BODY_H;
    for (int r = 0; r <= rmax; r++) {
        bool found = false;
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) {
                if ((abs(dx) > abs(dy) ? abs(dx) : abs(dy)) != r) continue;
                if (!ref_box_fits(m, tx + dx, ty + dy, w, h)) continue;
                if (ref_box_stands(m, tx + dx, ty + dy, w)) {
                    *ox = tx + dx;
                    *oy = ty + dy;
                    return true;
                }
                if (!found) *ox = tx + dx, *oy = ty + dy;
                found = true;
            }
        if (found) return true;
    }
    return false;
}

/* Placement at start-up: the same spot as the reference scan on 400
 * random maps and character sizes; refused (never inside blocks) when
 * nothing fits. */
static void test_placement_matches_ring_scan(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    int refused = 0, placed = 0;
    for (int k = 0; k < 400; k++) {
        seed = seed * 1664525u + 1013904223u;
        int mw = 1 + (int)(seed >> 8) % 20, mh = 1 + (int)(seed >> 16) % 14;
        int density = (int)(seed >> 24) % 100;
        tn_map *m = NULL;
        assert_true(tn_succeeded(tn_map_create(mw, mh, NULL, &m, NULL)));
        for (int i = 0; i < mw * mh; i++) {
            seed = seed * 1664525u + 1013904223u;
            if ((int)(seed >> 16) % 100 < density) m->tile[i] = TN_TILE_BLOCK;
        }
        seed = seed * 1664525u + 1013904223u;
        if ((seed >> 30) != 0) {
            m->start_x = (int)(seed >> 4) % mw;
            m->start_y = (int)(seed >> 12) % mh;
        }
        tn_world_config cfg = tn_world_default_config();
        cfg.char_w = 1 + (int)(seed >> 20) % 3;
        cfg.char_h = 1 + (int)(seed >> 24) % 4;
        int sx = m->start_x >= 0 ? m->start_x : 0, sy = m->start_y >= 0 ? m->start_y : 0;
        int ex = -1, ey = -1;
        bool fits = ref_find_fit(m, cfg.char_w, cfg.char_h, sx, sy, &ex, &ey);
        tn_world *w = NULL;
        tn_error e;
        tn_status st = tn_world_create(m, &cfg, NULL, &w, &e);
        if (!fits) {
            assert_true(tn_failed(st));
            assert_true(st & TN_REFUSED);
            assert_non_null(strstr(e.msg, "fits nowhere"));
            refused++;
            continue;
        }
        assert_true(tn_succeeded(st));
        tn_body want;
        tn_body_place(&want, tn_world_phys(w), cfg.char_w, cfg.char_h, ex, ey);
        assert_true(tn_world_character(w)->x == want.x && tn_world_character(w)->y == want.y);
        assert_false(tn_body_box_blocked(tn_world_map(w), tn_world_phys(w),
                                         tn_world_character(w)->x, tn_world_character(w)->y,
                                         tn_world_character(w)->w, tn_world_character(w)->h));
        placed++;
        tn_world_destroy(w);
    }
    assert_true(refused > 20 && placed > 100); /* both kinds were tried */
}

/* A covered start: among the places as near as any, the character starts
 * on one where it stands, not one tile up in the air (it was placed at
 * (1,3) over the gap, said so, and fell to (1,4): the message named a
 * tile it did not stay on).  Then the order of the ring scan. */
static void test_covered_start_stands(void **state)
{
    (void)state;
    const char *text = "tilenav-map 1\nsize 6 6\ntiles\n......\n......\n......\n..#...\n..P..."
                       "\n######\n";
    tn_map *m = NULL;
    tn_error e;
    if (tn_failed(tn_map_parse(text, strlen(text), "inline", NULL, &m, &e))) fail_msg("%s", e.msg);
    tn_world *w = NULL;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    const tn_body *b = tn_world_character(w);
    const float T = tn_world_phys(w)->tile_px;
    assert_true(b->x == 1.0f * T && b->y == 3.0f * T); /* bottom-left (1,4): rows 3-4 */
    assert_true(b->on_ground);
    const float y0 = b->y;
    for (int f = 0; f < 30; f++) tn_world_step(w);
    assert_true(b->y == y0 && b->x == 1.0f * T); /* it did not fall */
    tn_world_destroy(w);
}

/* A map (or --char size) with room nowhere is refused with a message,
 * also when R restores such a map: the world keeps the one it has. */
static void test_no_room_refused(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(4096, 1, NULL, &m, NULL)));
    tn_world *w = NULL;
    tn_error e;
    assert_true(tn_failed(tn_world_create(m, NULL, NULL, &w, &e)));
    assert_null(w);
    assert_string_equal(e.msg, "the 1x2-tile character fits nowhere on this 4096x1 map (it is "
                               "smaller than the character); try a smaller character");
    w = tu_load_world("tests/data/small.map", 1);
    int old_w = tn_world_map(w)->w;
    tn_map *tiny = NULL;
    assert_true(tn_succeeded(tn_map_create(1, 1, NULL, &tiny, NULL)));
    assert_true(tn_failed(tn_world_replace_map(w, tiny, &e)));
    assert_int_equal(tn_world_map(w)->w, old_w);
    assert_true(tn_succeeded(tn_world_check(w, &e)));
    tn_world_destroy(w);
}

/* A block toggled onto the start tile and off again keeps the start. */
static void test_start_survives_block_toggle(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_error e;
    /* walk away from the start first so a block may go there */
    tn_world_place_character(w, tn_world_character(w)->x + 5 * TN_TILE_PX,
                             tn_world_character(w)->y);
    assert_true(tn_succeeded(tn_world_edit(w, 1, 6, TN_EDIT_BLOCK, &e)));
    assert_int_equal(tn_world_map(w)->start_x, -1);
    assert_true(tn_succeeded(tn_world_edit(w, 1, 6, TN_EDIT_BLOCK, &e)));
    assert_int_equal(tn_world_map(w)->start_x, 1);
    assert_int_equal(tn_world_map(w)->start_y, 6);
    /* through a one-way platform too */
    assert_true(tn_succeeded(tn_world_edit(w, 1, 6, TN_EDIT_ONEWAY, &e)));
    assert_true(tn_succeeded(tn_world_edit(w, 1, 6, TN_EDIT_EMPTY, &e)));
    assert_int_equal(tn_world_map(w)->start_x, 1);
    tn_world_destroy(w);
}

/* tn_world_config.graph_threads: outside 1..64 refused with a message. */
/* The overlays a settings file holds: every overlay's bit restores, the
 * surface graph's (Shift+P, 64) too; anything else is refused. */
static void test_overlays_from_number(void **state)
{
    (void)state;
    unsigned b = 99;
    assert_true(tn_overlays_from_number(64, &b));
    assert_int_equal(b, TN_OVERLAY_SURF);
    assert_true(tn_overlays_from_number(0, &b));
    assert_int_equal(b, 0);
    unsigned all = 0;
    for (int i = 0; i < TN_OVERLAY_COUNT; i++) all |= tn_overlays[i].bit;
    assert_true(tn_overlays_from_number((double)all, &b));
    assert_int_equal(b, all);
    b = 7;
    assert_false(tn_overlays_from_number((double)all + 1, &b));
    assert_false(tn_overlays_from_number(-1, &b));
    assert_false(tn_overlays_from_number(2.5, &b));
    assert_int_equal(b, 7);
}

static void test_graph_threads_config(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        tn_map *m = NULL;
        assert_true(tn_succeeded(tn_map_create(8, 8, NULL, &m, NULL)));
        tn_world_config cfg = tn_world_default_config();
        cfg.graph_threads = k ? 65 : 0;
        tn_world *w = NULL;
        tn_error e;
        assert_true(tn_failed(tn_world_create(m, &cfg, NULL, &w, &e))); /* takes m */
        assert_null(w);
        assert_non_null(strstr(e.msg, k ? "graph_threads 65 is outside 1..64"
                                        : "graph_threads 0 is outside 1..64"));
    }
}

/* The knock's line accounts for every extra bot it did not push: "extra
 * bots: 1 of 3 knocked (1 in the air)" left the third unsaid, a bot on
 * the ground against a wall on the push's side (it said only the ones in
 * the air, which it did not push then; now it does, and says how many). */
static void test_knock_says_bots_at_walls(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_error e;
    assert_true(tn_succeeded(tn_world_set(w, "bots", 3, &e)));
    tn_world_step(w);
    const float y = tn_world_character(w)->y;
    tn_world_place_character(w, 16.0f * 4, y);
    /* (test only: the bodies put where the test needs them, on the floor) */
    const float bx[3] = {16.0f * 3, 16.0f, 16.0f * 5};
    for (int i = 0; i < 3; i++) {
        tn_body *b = (tn_body *)tn_wbots_body(w, i);
        b->x = bx[i], b->y = y, b->vx = b->vy = 0.0f, b->on_ground = true;
    }
    /* bot 1 stands against the left wall, bot 2 in the air */
    ((tn_body *)tn_wbots_body(w, 2))->on_ground = false;
    ((tn_body *)tn_wbots_body(w, 2))->y = y - 40.0f;
    const float air_x = tn_wbots_body(w, 2)->x;
    assert_true(tn_succeeded(tn_world_knock(w, -1.0f, &e)));
    if (!strstr(tn_world_message_text(w),
                "; extra bots: 2 of 3 knocked (1 in the air, 1 against a wall)"))
        fail_msg("%s", tn_world_message_text(w));
    assert_float_equal(tn_wbots_body(w, 1)->x, 16.0f, 0.0f);
    assert_float_equal(tn_wbots_body(w, 2)->x, air_x - 1.0f, 1e-4f);
    /* all on the ground, one at the wall */
    ((tn_body *)tn_wbots_body(w, 2))->y = y;
    ((tn_body *)tn_wbots_body(w, 2))->on_ground = true;
    assert_true(tn_succeeded(tn_world_knock(w, -1.0f, &e)));
    if (!strstr(tn_world_message_text(w), "; extra bots: 2 of 3 knocked (1 against a wall)"))
        fail_msg("%s", tn_world_message_text(w));
    tn_world_destroy(w);
}

/* Knock-back (tn_world_knock): a goto on the demo map, the character
 * knocked 1.3 px right or 0.9 px left on the ground mid-trip (off the
 * walk's lattice of 8/3 px), still arrives, with either planner; bad
 * pushes and a wall right there are refused and said; a body in the air
 * and extra bots are pushed too. */
static void test_knock(void **state)
{
    (void)state;
    static const int goals[][2] = {{70, 40}, {44, 38}, {60, 28}, {20, 17}, {75, 24}, {11, 35}};
    static const float pushes[] = {1.3f, -0.9f};
    int trips = 0, replanned = 0;
    for (int planner = 0; planner < 2; planner++)
        for (size_t g = 0; g < sizeof goals / sizeof goals[0]; g++)
            for (int pi = 0; pi < 2; pi++) {
                tn_world *w = tu_load_world("maps/demo.map", 1);
                tn_error e;
                assert_true(tn_succeeded(tn_world_set(w, "planner", planner, &e)));
                assert_true(tn_succeeded(tn_world_goto(w, goals[g][0], goals[g][1], &e)));
                bool done = false;
                for (int f = 0; f < 3000; f++) {
                    tn_world_step(w);
                    tn_bot_info bi = tn_bot_get_info(tn_wbots_character_bot(w));
                    if (!done && f >= 30 && tn_world_character(w)->on_ground && bi.active) {
                        float x0 = tn_world_character(w)->x;
                        assert_true(tn_succeeded(tn_world_knock(w, pushes[pi], &e)));
                        assert_float_equal(tn_world_character(w)->x, x0 + pushes[pi], 1e-3f);
                        const char *m = tn_world_message_text(w);
                        assert_non_null(strstr(m, "off the walk's 2.67 px lattice, the bot "));
                        assert_non_null(strstr(m, pushes[pi] > 0 ? "knocked 1.3 px right"
                                                                 : "knocked 0.9 px left"));
                        done = true;
                    }
                    if (bi.state == TN_BOT_ARRIVED) break;
                }
                assert_true(done);
                trips++;
                tn_bot_info bi = tn_bot_get_info(tn_wbots_character_bot(w));
                if (bi.state != TN_BOT_ARRIVED)
                    fail_msg("planner %d goal (%d,%d) knocked %g px: state %d, reason '%s'",
                             planner, goals[g][0], goals[g][1], (double)pushes[pi], (int)bi.state,
                             bi.plan_reason);
                replanned += bi.replans > 0;
                /* at the goal (snapped to ground): the graph bot's box
                 * with its left edge on the goal tile, the classic one
                 * within its snap of half a walk step (a body knocked 0.9
                 * px left may stand that far before the tile) */
                int tx, ty;
                const tn_body *c = tn_world_character(w);
                tn_body_tile(c, tn_world_phys(w), &tx, &ty);
                if (tx != bi.goal_x && !(fabsf(c->x - (float)bi.goal_x * 16.0f) < 1.34f))
                    fail_msg("planner %d goal (%d,%d) knocked %g px: stands at x %g", planner,
                             goals[g][0], goals[g][1], (double)pushes[pi], (double)c->x);
                assert_int_equal(ty, bi.goal_y);
                tn_world_destroy(w);
            }
    printf("  knock-back: %d trips knocked mid-trip, all arrived (%d re-planned)\n", trips,
           replanned);

    /* refusals: bad pushes, a wall right there */
    tn_world *w = tu_load_world("tests/data/small.map", 1);
    tn_error e;
    const float bad[] = {0.0f, NAN, INFINITY, 16.5f, -1e30f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tn_status r = tn_world_knock(w, bad[i], &e);
        assert_true(tn_failed(r) && tn_status_detail(r, TN_INVALID_PARAM));
        assert_non_null(strstr(e.msg, "give 0 < |DX| <= 16 px"));
    }
    assert_float_equal(tn_world_character(w)->x, 16.0f, 0.0f); /* against the left wall */
    tn_status r = tn_world_knock(w, -1.3f, &e);
    assert_true(tn_failed(r) && tn_status_detail(r, TN_REFUSED));
    assert_string_equal(e.msg, "the character stands against a wall on its left");
    assert_float_equal(tn_world_character(w)->x, 16.0f, 0.0f);
    /* a push into a wall stops on its tile edge, on the lattice: 16 px
     * right from x 81 meets the block at tile 7 */
    tn_world_place_character(w, 16.0f * 5 + 1.0f, tn_world_character(w)->y);
    assert_true(tn_succeeded(tn_world_knock(w, 16.0f, &e)));
    assert_float_equal(tn_world_character(w)->x, 16.0f * 6, 1e-4f);
    assert_non_null(strstr(tn_world_message_text(w), "knocked 15.0 px right (of 16.0: a wall "
                                                     "stopped it)"));
    assert_string_equal(tn_world_message_text(w), "knocked 15.0 px right (of 16.0: a wall stopped "
                                                  "it): on the walk's 2.67 px lattice");
    assert_int_equal(tn_world_check(w, &e), TN_OK);
    /* extra bots on the ground go too */
    assert_true(tn_succeeded(tn_world_set(w, "bots", 2, &e)));
    tn_world_step(w);
    float bx[2];
    for (int i = 0; i < 2; i++) bx[i] = tn_wbots_body(w, i)->x;
    bool ground[2] = {tn_wbots_body(w, 0)->on_ground, tn_wbots_body(w, 1)->on_ground};
    tn_world_knock(w, -1.0f, &e);
    for (int i = 0; i < 2; i++)
        if (ground[i]) assert_true(tn_wbots_body(w, i)->x < bx[i]);
    assert_non_null(strstr(tn_world_message_text(w), "; extra bots: "));
    assert_non_null(strstr(tn_world_message_text(w), " of 2 knocked"));
    tn_input jump = {0};
    jump.jump = true;
    tn_world_set_input(w, jump);
    for (int i = 0; i < 4; i++) tn_world_step(w);
    assert_false(tn_world_character(w)->on_ground);
    /* in the air too: it flies on from there (no ground found for it) */
    float x0 = tn_world_character(w)->x, y0 = tn_world_character(w)->y;
    r = tn_world_knock(w, 1.3f, &e);
    assert_int_equal(r, TN_OK);
    assert_float_equal(tn_world_character(w)->x, x0 + 1.3f, 1e-4f);
    assert_float_equal(tn_world_character(w)->y, y0, 0.0f);
    assert_false(tn_world_character(w)->on_ground);
    assert_non_null(strstr(tn_world_message_text(w), "knocked 1.3 px right in the air"));
    assert_int_equal(tn_world_refused_edits(w), 0); /* not an edit */
    tn_world_destroy(w);
}

/* A knock in the air said "the bot steers its jump back onto its
 * landing" for any active graph bot, but a bot whose plan waits for the
 * landing (a goto given in the air, an edit mid-flight, a walk off the
 * path) follows no edge to steer back onto: it plans where it lands, and
 * the message now says so.  A bot replaying its edge still reads
 * "steers". */
static void test_knock_air_message(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_error e;
    assert_true(tn_succeeded(tn_world_set(w, "planner", 1, &e)));
    tn_input jump = {0};
    jump.jump = true;
    tn_world_set_input(w, jump); /* (the player jumps: no trip) */
    for (int i = 0; i < 4; i++) tn_world_step(w);
    tn_world_set_input(w, (tn_input){0});
    assert_false(tn_world_character(w)->on_ground);
    assert_true(tn_succeeded(tn_world_goto(w, 44, 38, &e))); /* in the air: planned on landing */
    tn_bot_info bi = tn_bot_get_info(tn_wbots_character_bot(w));
    assert_true(bi.active);
    assert_string_equal(bi.pending_reason, "new goal");
    assert_true(tn_succeeded(tn_world_knock(w, 1.3f, &e)));
    const char *m = tn_world_message_text(w);
    if (strstr(m, "steers") || !strstr(m, "knocked 1.3 px right in the air: the bot plans on "
                                          "landing"))
        fail_msg("a bot with no edge to fly: '%s'", m);
    tn_world_destroy(w);
    /* mid-jump on its trip's edge: it steers */
    w = tu_load_world("maps/demo.map", 1);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 1, &e)));
    assert_true(tn_succeeded(tn_world_goto(w, 47, 20, &e)));
    bool knocked = false;
    for (int f = 0; f < 400 && !knocked; f++) {
        tn_world_step(w);
        bi = tn_bot_get_info(tn_wbots_character_bot(w));
        if (f >= 30 && !tn_world_character(w)->on_ground && bi.active && !bi.pending_reason[0] &&
            tn_succeeded(tn_world_knock(w, -1.3f, &e))) {
            assert_non_null(strstr(tn_world_message_text(w), "knocked 1.3 px left in the air: "
                                                             "the bot steers its jump back onto "
                                                             "its landing"));
            knocked = true;
        }
    }
    assert_true(knocked);
    tn_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_and_ground),
        cmocka_unit_test(test_restart_frames),
        cmocka_unit_test(test_overlays_from_number),
        cmocka_unit_test(test_graph_threads_config),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_clicks),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_json_and_determinism),
        cmocka_unit_test(test_replace_map),
        cmocka_unit_test(test_replace_map_keeps_params),
        cmocka_unit_test(test_replace_map_out_of_memory),
        cmocka_unit_test(test_replace_map_says_what_is_off),
        cmocka_unit_test(test_large_map_degrades),
        cmocka_unit_test(test_big_sparse_map_has_navmesh),
        cmocka_unit_test(test_navmesh_off_and_on_by_edits),
        cmocka_unit_test(test_placement_matches_ring_scan),
        cmocka_unit_test(test_covered_start_stands),
        cmocka_unit_test(test_no_room_refused),
        cmocka_unit_test(test_start_survives_block_toggle),
        cmocka_unit_test(test_goto),
        cmocka_unit_test(test_knock),
        cmocka_unit_test(test_knock_says_bots_at_walls),
        cmocka_unit_test(test_knock_air_message),
        cmocka_unit_test(test_text_shown),
        cmocka_unit_test(test_accessors_and_param_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
