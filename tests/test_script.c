/* The script parser, its errors, and applying commands to a world. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "fileio.h"
#include "script.h"
#include "tn_wbots.h"
#include "worldutil.h"

static void expect_error(const char *text, const char *want)
{
    char err[512] = "";
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_null(s);
    if (strcmp(err, want) != 0) fail_msg("message\n  got:  %s\n  want: %s", err, want);
}

/* Line ends as in map files: LF or CRLF (and a CR before CRLF); a script
 * whose lines end in CR alone (old Mac) is refused as such, not as "more
 * than 8 words"; UTF-16 (either byte order) is named, not "a NUL byte". */
static void test_text_forms(void **state)
{
    (void)state;
    expect_error("0 key right press\r5 toggle 5 1 block\r",
                 "t.txt:1: a carriage return (CR) with no line feed after it ends the line: the "
                 "file uses old Mac (CR-only) line endings; save it with LF (or CRLF) line "
                 "endings");
    expect_error("# ok\n0 key right press\r\n1 goto 2 2\r3 goto 4 4\n",
                 "t.txt:3: a carriage return (CR) with no line feed after it ends the line: the "
                 "file uses old Mac (CR-only) line endings; save it with LF (or CRLF) line "
                 "endings");
    char err[512] = "";
    static const char le[] = "\xff\xfe"
                             "0\0 \0r\0e\0s\0e\0t\0\n\0";
    assert_null(tn_script_parse(le, sizeof le - 1, "t.txt", err, sizeof err));
    assert_string_equal(err, "t.txt:1: looks like UTF-16 text (it starts with the bytes 0xff "
                             "0xfe, a UTF-16 byte-order mark): save it as UTF-8");
    static const char be[] = "\xfe\xff\0"
                             "0\0 \0r\0e\0s\0e\0t\0\n";
    assert_null(tn_script_parse(be, sizeof be - 1, "t.txt", err, sizeof err));
    assert_string_equal(err, "t.txt:1: looks like UTF-16 text (it starts with the bytes 0xfe "
                             "0xff, a UTF-16 byte-order mark): save it as UTF-8");
    const char *ok = "0 key right press\r\n5 toggle 5 1 block\r\r\n6 reset\r";
    tn_script *sc = tn_script_parse(ok, strlen(ok), "t.txt", err, sizeof err);
    assert_non_null(sc);
    assert_int_equal(sc->count, 3);
    tn_script_destroy(sc);
}

static void test_parse_ok(void **state)
{
    (void)state;
    const char *text = "# comment\n\n0 key left press   # trailing comment\n"
                       "5 click 3 4 right shift\n5 toggle 1 2 oneway\n6 set jump_height 6.5\n"
                       "7 goto 10 3\n8 tool spawn\n9 save /tmp/x.map\n10 screenshot a.BMP\n"
                       "11 wanderers 3\n";
    char err[512];
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_non_null(s);
    assert_int_equal(s->count, 9);
    assert_int_equal(s->cmds[0].op, TN_SC_KEY);
    assert_int_equal(s->cmds[0].line, 3);
    assert_int_equal(s->cmds[1].op, TN_SC_CLICK);
    assert_int_equal(s->cmds[1].x, 3);
    assert_int_equal(s->cmds[1].arg, TN_CLICK_RIGHT);
    assert_int_equal(s->cmds[1].flag, 1);
    assert_int_equal(s->cmds[2].arg, TN_EDIT_ONEWAY);
    assert_string_equal(s->cmds[3].name, "jump_height");
    assert_true(s->cmds[3].value == 6.5);
    assert_int_equal(s->cmds[5].arg, TN_TOOL_SPAWN);
    assert_string_equal(s->cmds[6].path, "/tmp/x.map");
    assert_string_equal(s->cmds[8].name, "wanderers");
    tn_script_destroy(s);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("x key left press\n", "t.txt:1: 'x' is not a frame number (a whole number "
                                       "0..1000000000; expected FRAME COMMAND ARGS)");
    /* the range is stated; bytes outside printable ASCII are shown in hex */
    expect_error("99999999999 goto 5 5\n", "t.txt:1: frame 99999999999 is outside 0..1000000000");
    expect_error("-1 goto 5 5\n", "t.txt:1: frame -1 is outside 0..1000000000");
    expect_error("\x83 goto 5 5\n", "t.txt:1: byte 0x83 is not a frame number (a whole number "
                                    "0..1000000000; expected FRAME COMMAND ARGS)");
    expect_error("1 g\x83o\x1b 5 5\n",
                 "t.txt:1: unknown command 'g\\x83o\\x1b' (expected key, click, toggle, set, "
                 "goto, knock, tool, save, screenshot, wanderers, reset, pause or "
                 "playback)");
    expect_error("1 set \xc3\xa9 1\n",
                 "t.txt:1: unknown parameter '\\xc3\\xa9' (parameters: jump_height, char_width, "
                 "char_height, spawn_rate, bots, companion_speed, follow_distance, wanderers, "
                 "bias, smoothness, agent_radius, planner)");
    expect_error("1 key \x7f press\n",
                 "t.txt:1: unknown key byte 0x7f (expected left, right, down or jump)");
    expect_error("5\n", "t.txt:1: missing command after the frame number");
    expect_error("5 jump\n", "t.txt:1: unknown command 'jump' (expected key, click, toggle, set, "
                             "goto, knock, tool, save, screenshot, wanderers, reset, pause or "
                             "playback)");
    /* knock DX: a signed plain decimal, 0 < |DX| <= 16 px */
    expect_error("5 knock\n", "t.txt:1: usage: FRAME knock DX (a push in px, at most 16; "
                              "negative: to the left, e.g. knock 1.3 or knock -1.3)");
    expect_error("5 knock 1 2\n", "t.txt:1: usage: FRAME knock DX (a push in px, at most 16; "
                                  "negative: to the left, e.g. knock 1.3 or knock -1.3)");
    expect_error("5 knock nan\n",
                 "t.txt:1: knock needs a push in px (a plain decimal, '-' for left), got 'nan'");
    expect_error("5 knock -inf\n",
                 "t.txt:1: knock needs a push in px (a plain decimal, '-' for left), got '-inf'");
    expect_error("5 knock 1e1\n",
                 "t.txt:1: knock needs a push in px (a plain decimal, '-' for left), got '1e1'");
    expect_error("5 knock --1\n",
                 "t.txt:1: knock needs a push in px (a plain decimal, '-' for left), got '--1'");
    expect_error("5 knock 100\n",
                 "t.txt:1: knock 100 is outside -16..16 px (a knock-back is at most a tile)");
    expect_error("5 knock -99999999999999999999\n",
                 "t.txt:1: knock -99999999999999999999 is outside -16..16 px (a knock-back is "
                 "at most a tile)");
    expect_error("5 knock -0.0\n", "t.txt:1: knock -0.0 moves nothing: give 0 < |DX| <= 16 px");
    /* a push below the smallest float (it is 0 px in the world's float) */
    expect_error("5 knock 0.0000000000000000000000000000000000000000000001\n",
                 "t.txt:1: knock 0.0000000000000000000000000000000000000000000001 moves "
                 "nothing: give 0 < |DX| <= 16 px");
    expect_error("5 key up press\n",
                 "t.txt:1: unknown key 'up' (expected left, right, down or jump)");
    expect_error("5 key left hold\n", "t.txt:1: expected press or release, got 'hold'");
    expect_error("5 key left\n", "t.txt:1: usage: FRAME key left|right|down|jump press|release");
    expect_error("\n\n5 click 1 x left\n",
                 "t.txt:3: click needs whole-number tile coordinates: 'x' is not one");
    expect_error("5 click 1 2 side\n",
                 "t.txt:1: unknown button 'side' (expected left, right or middle)");
    expect_error(
        "5 toggle 1 2 lava\n",
        "t.txt:1: unknown tile kind 'lava' (expected block, oneway, empty, spawn, dest or item)");
    expect_error("5 set gravity 3\n",
                 "t.txt:1: unknown parameter 'gravity' (parameters: jump_height, char_width, "
                 "char_height, spawn_rate, bots, companion_speed, follow_distance, wanderers, "
                 "bias, smoothness, agent_radius, planner)");
    /* a typo: the name meant */
    expect_error("5 set jump_hight 3\n",
                 "t.txt:1: unknown parameter 'jump_hight' (did you mean jump_height?)");
    expect_error("5 set jump_height 12\n", "t.txt:1: jump_height 12 is outside 1..8");
    expect_error("5 set jump_height nan\n", "t.txt:1: 'nan' is not a plain decimal number");
    /* numbers are plain decimals, as on the command line (tn_parse_number) */
    expect_error("5 set companion_speed 1e2\n", "t.txt:1: '1e2' is not a plain decimal number");
    expect_error("5 set bias +0.5\n", "t.txt:1: '+0.5' is not a plain decimal number");
    expect_error("5 set bias 0x1\n", "t.txt:1: '0x1' is not a plain decimal number");
    expect_error("5 set speed 2e0\n", "t.txt:1: speed '2e0' is not one of 1/8, 1/4, 1/2, 1, 2, 4");
    expect_error("1e1 goto 5 5\n", "t.txt:1: '1e1' is not a frame number (a whole number "
                                   "0..1000000000; expected FRAME COMMAND ARGS)");
    expect_error("+7 goto 5 5\n", "t.txt:1: '+7' is not a frame number (a whole number "
                                  "0..1000000000; expected FRAME COMMAND ARGS)");
    expect_error("5 goto 1e1 5\n",
                 "t.txt:1: goto needs whole-number tile coordinates: '1e1' is not one");
    /* a '#' with no blank before it is part of the word, not a comment */
    expect_error("0 goto 1 1#c\n", "t.txt:1: goto needs whole-number tile coordinates: '1#c' is "
                                   "not one (a comment starts at a '#' after a space or tab: "
                                   "write '1 #c')");
    expect_error("5 goto -1 5\n",
                 "t.txt:1: goto: tile coordinate -1 is negative (tiles count from 0)");
    /* too large: out of range, not "not a whole number" */
    expect_error("5 click 1000001 5 left\n",
                 "t.txt:1: click: tile coordinate 1000001 is out of range 0..1000000");
    expect_error("5 toggle 3 99999999999999999999 block\n",
                 "t.txt:1: toggle: tile coordinate 99999999999999999999 is out of range "
                 "0..1000000");
    expect_error("5 goto 1000000 1.5\n",
                 "t.txt:1: goto needs whole-number tile coordinates: '1.5' is not one");
    expect_error("5 playback 1e3\n",
                 "t.txt:1: playback needs a number of events or 'all', got '1e3'");
    expect_error("5 set char_width 1.5\n", "t.txt:1: char_width takes whole numbers");
    expect_error("5 goto 1\n", "t.txt:1: usage: FRAME goto TX TY");
    expect_error("5 tool hammer\n", "t.txt:1: unknown tool 'hammer'");
    expect_error("5 save\n", "t.txt:1: usage: FRAME save FILE");
    /* the limits, named: one word per path, 255 bytes a word, 8 words */
    expect_error("5 save my level.map\n", "t.txt:1: save takes one FILE without spaces, got 2 "
                                          "words after 'save' (a path cannot contain spaces)");
    expect_error("5 screenshot a b c.bmp\n",
                 "t.txt:1: screenshot takes one FILE without spaces, got 3 words after "
                 "'screenshot' (a path cannot contain spaces)");
    char longw[400];
    snprintf(longw, sizeof longw, "5 save /tmp/%0300d.map\n", 0);
    expect_error(longw, "t.txt:1: word 3 is 309 bytes, at most 255");
    expect_error("5 click 1 2 left shift a b c\n",
                 "t.txt:1: more than 8 words (FRAME, COMMAND and at most 6 arguments; paths "
                 "cannot contain spaces)");
    /* screenshots are BMP images: another name would mislabel the file */
    expect_error("5 screenshot shot.png\n",
                 "t.txt:1: screenshot writes a BMP image: give a name ending in .bmp, got "
                 "'shot.png'");
    expect_error("5 screenshot dir/.bmp\n",
                 "t.txt:1: screenshot writes a BMP image: give a name ending in .bmp, got "
                 "'dir/.bmp'");
    expect_error("9 key left press\n3 key left release\n",
                 "t.txt:2: frame 3 comes after frame 9: frames must not decrease");
    static const char nul[] = "1 key left\0press\n";
    char err[256];
    assert_null(tn_script_parse(nul, sizeof nul - 1, "t.txt", err, sizeof err));
    assert_string_equal(err, "t.txt:1: binary data (a NUL byte) in a script line");
}

static tn_world *small_world(void)
{
    char err[512];
    tn_map *m;
    if (tn_load_map("tests/data/small.map", &m, err, sizeof err) != 0) fail_msg("%s", err);
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    return w;
}

static void test_apply(void **state)
{
    (void)state;
    tn_world *w = small_world();
    const char *text = "0 key right press\n30 key right release\n31 toggle 5 1 block\n"
                       "31 toggle 99 1 block\n";
    char err[512];
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_non_null(s);
    float x0 = tn_world_character(w)->x;
    int rc = 0;
    for (long f = 0; f < 31 && rc == 0; f++) {
        rc = tn_script_apply(s, w, tn_world_frame(w), NULL, err, sizeof err);
        tn_world_step(w);
    }
    assert_int_equal(rc, 0);
    assert_true(tn_world_character(w)->x > x0 + 50.0f); /* walked right for 30 steps */
    /* Frame 31: the first toggle works, the second names its line. */
    rc = tn_script_apply(s, w, tn_world_frame(w), NULL, err, sizeof err);
    assert_int_equal(rc, -1);
    assert_string_equal(err, "t.txt:4: tile (99,1) is outside the 12x8 map");
    assert_int_equal(tn_map_tile(tn_world_map(w), 5, 1), TN_TILE_BLOCK);
    assert_true(tn_world_dirty(w));
    tn_script_destroy(s);
    tn_world_destroy(w);
}

static void test_save_needs_host(void **state)
{
    (void)state;
    tn_world *w = small_world();
    const char *text = "0 save /tmp/never.map\n";
    char err[512];
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_int_equal(tn_script_apply(s, w, 0, NULL, err, sizeof err), -1);
    assert_string_equal(err, "t.txt:1: save is not available in this mode");
    tn_script_destroy(s);
    tn_world_destroy(w);
}

/* `set speed` reaches the host as the speed value; the window turns it
 * into a tn_speeds index (app.c host_control), and at that index the step
 * clock runs k steps a 60 Hz frame (4 -> 4, 1/8 -> one every 8 frames). */
typedef struct speed_log {
    int n;
    int op[8];
    double v[8];
} speed_log;
static int log_control(void *user, tn_world *w, int op, double value, char *err, size_t cap)
{
    (void)w, (void)err, (void)cap;
    speed_log *l = user;
    l->op[l->n] = op;
    l->v[l->n++] = value;
    return 0;
}
/* `save FILE` elsewhere keeps the loaded map's leading comments, as a
 * save over the loaded file does; only the latter counts as saved. */
static void test_save_keeps_comments(void **state)
{
    (void)state;
    tn_world *w = small_world();
    char dir[] = "/tmp/tn_test_savec_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], err[512], line[128] = "";
    snprintf(path, sizeof path, "%s/copy.map", dir);
    tn_error e;
    assert_true(tn_succeeded(tn_world_edit(w, 5, 1, TN_EDIT_BLOCK, &e)));
    assert_int_equal(tn_script_save_map(w, path, "tests/data/small.map", err, sizeof err), 0);
    assert_true(tn_world_dirty(w));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "# a small test map: floor, a one-way platform, a wall, marks\n");
    tn_map *back;
    assert_int_equal(tn_load_map(path, &back, err, sizeof err), 0);
    assert_true(tn_map_equal(back, tn_world_map(w)));
    tn_map_destroy(back);
    remove(path);
    rmdir(dir);
    tn_world_destroy(w);
}

/* A Tiled map saved in Tiled's other format (.tmx -> .tmj) keeps only the
 * terrain and the game's objects: the save says so (a warning on stderr and
 * the status line); the same format says nothing. */
static int save_from_demo(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    (void)user;
    return tn_script_save_map(w, path, "maps/demo.tmx", err, cap);
}
static void test_save_other_format_warns(void **state)
{
    (void)state;
    char err[512], dir[] = "/tmp/tn_test_savef_XXXXXX";
    assert_non_null(mkdtemp(dir));
    tn_map *m;
    if (tn_load_map("maps/demo.tmx", &m, err, sizeof err) != 0) fail_msg("%s", err);
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    char text[600], tmj[256], tmx[256];
    snprintf(tmj, sizeof tmj, "%s/x.tmj", dir);
    snprintf(tmx, sizeof tmx, "%s/x.tmx", dir);
    assert_int_equal(tn_script_save_map(w, tmx, "maps/demo.tmx", err, sizeof err), 0);
    assert_string_equal(err, "");
    snprintf(text, sizeof text, "0 save %s\n", tmj);
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_non_null(s);
    tn_script_host host = {NULL, save_from_demo, NULL, NULL, NULL};
    assert_int_equal(tn_script_apply(s, w, 0, &host, err, sizeof err), 0);
    char want[1024];
    snprintf(want, sizeof want,
             "warning: %s is a new TMJ document without the layers, tilesets, properties and "
             "other objects of maps/demo.tmx (only its terrain and game objects; save as .tmx "
             "to keep them)",
             tmj);
    assert_string_equal(tn_world_message_text(w), want);
    tn_script_destroy(s);
    tn_world_destroy(w);
    remove(tmj);
    remove(tmx);
    rmdir(dir);
}

static void test_set_speed(void **state)
{
    (void)state;
    tn_world *w = small_world();
    const char *text = "0 set speed 4\n1 set speed 1/8\n2 set speed 0.5\n3 set speed 1\n";
    char err[512];
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_non_null(s);
    speed_log log = {0};
    tn_script_host host = {&log, NULL, NULL, log_control, NULL};
    for (long f = 0; f < 4; f++) {
        assert_int_equal(tn_script_apply(s, w, tn_world_frame(w), &host, err, sizeof err), 0);
        tn_world_step(w);
    }
    assert_int_equal(log.n, 4);
    const double want[4] = {4, 0.125, 0.5, 1};
    const int steps[4] = {4 * 240, 240 / 8, 240 / 2, 240};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(log.op[i], TN_SC_SPEED);
        assert_true(log.v[i] == want[i]);
        int k = tn_speed_index(log.v[i]), req = 0, total = 0;
        assert_true(k >= 0);
        double acc = 0;
        for (int f = 0; f < 240; f++) total += tn_sim_frame(&acc, 1.0 / 60.0, k, false, &req);
        assert_true(total >= steps[i] - 1 && total <= steps[i]);
    }
    tn_script_destroy(s);
    /* headless (no control hook): ignored, not an error */
    s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_int_equal(tn_script_apply(s, w, tn_world_frame(w), NULL, err, sizeof err), 0);
    tn_script_destroy(s);
    expect_error("0 set speed 3\n", "t.txt:1: speed '3' is not one of 1/8, 1/4, 1/2, 1, 2, 4");
    tn_world_destroy(w);
}

/* A `set` the world refuses by a rule (no room for a 1x9 character on the
 * 12x8 map) is not fatal: the host's warn gets FILE:LINE and the reason,
 * the world counts it as refused and the character keeps its size. */
typedef struct warn_log {
    int n;
    char last[1024];
} warn_log;
static void log_warn(void *user, const char *msg)
{
    warn_log *l = user;
    l->n++;
    snprintf(l->last, sizeof l->last, "%s", msg);
}
static void test_set_refused(void **state)
{
    (void)state;
    tn_world *w = small_world();
    const char *text = "0 set char_height 3\n2 set char_height 9\n";
    char err[512] = "";
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    warn_log log = {0, ""};
    tn_script_host host = {&log, NULL, NULL, NULL, log_warn};
    if (tn_script_run(s, w, 3, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1);
    assert_string_equal(log.last, "t.txt:2: set char_height 9 refused (frame 2): no room for a "
                                  "1x9 character here (it stays 1x3): move to open space first");
    assert_int_equal(tn_world_character(w)->h, 3);
    assert_int_equal(tn_world_refused_edits(w), 1);
    assert_int_equal(tn_world_edits(w), 0);
    tn_script_destroy(s);
    tn_world_destroy(w);
}

/* `knock DX` pushes the character on the ground or in the air and says
 * so; a wall on that side is refused through the host's warn (FILE:LINE,
 * the reason), and the run goes on. */
static void test_knock(void **state)
{
    (void)state;
    tn_world *w = small_world();
    const char *text = "0 knock -1.3\n0 knock 1.3\n2 key jump press\n6 knock 1\n";
    char err[512] = "";
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    if (!s) fail_msg("%s", err);
    warn_log log = {0, ""};
    tn_script_host host = {&log, NULL, NULL, NULL, log_warn};
    if (tn_script_apply(s, w, 0, &host, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1);
    assert_string_equal(log.last, "t.txt:1: knock -1.3 refused (frame 0): the character stands "
                                  "against a wall on its left");
    assert_float_equal(tn_world_character(w)->x, 17.3f, 1e-4f);
    assert_string_equal(tn_world_message_text(w),
                        "knocked 1.3 px right: off the walk's 2.67 px lattice, a goto from here "
                        "starts off it");
    const float x6 = tn_world_character(w)->x;
    if (tn_script_run(s, w, 8, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1); /* (a knock in the air is one too) */
    assert_false(tn_world_character(w)->on_ground);
    assert_non_null(strstr(tn_world_message_text(w), "knocked 1.0 px right in the air"));
    assert_true(tn_world_character(w)->x != x6);
    assert_int_equal(tn_world_refused_edits(w), 0); /* not an edit */
    tn_script_destroy(s);
    tn_world_destroy(w);
}

/* On a map with no navmesh (and no classic path finder) `set
 * agent_radius` is refused as `set bots` is, not fatal: a scripted run on
 * such a map stopped at the first agent_radius line with "navmesh is off
 * ('agent_radius')" and printed no JSON. */
static void test_set_refused_large_map(void **state)
{
    (void)state;
    tn_map *m = tu_no_navmesh_map();
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    const char *text = "0 set agent_radius 0.5\n1 set bots 1\n2 set bias 0.25\n";
    char err[512] = "";
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_non_null(s);
    warn_log log = {0, ""};
    tn_script_host host = {&log, NULL, NULL, NULL, log_warn};
    if (tn_script_run(s, w, 0, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1);
    const char *want = "t.txt:1: set agent_radius 0.5 refused (frame 0): the navmesh is off: "
                       "this 600x480 map's outlines would need about ";
    if (strncmp(log.last, want, strlen(want)) ||
        !strstr(log.last, " MB (limit 160 MB); no agent radius to set"))
        fail_msg("%s", log.last);
    if (tn_script_run(s, w, 2, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1); /* (bots plan with the graph on this map) */
    assert_int_equal(tn_world_refused_edits(w), 1);
    double v;
    assert_false(tn_world_get(w, "agent_radius", &v));
    assert_true(tn_world_get(w, "bias", &v) && fabs(v - 0.25) < 1e-6); /* the run went on */
    tn_script_destroy(s);
    tn_world_destroy(w);
}

/* `set planner classic` on a map above 512x512 tiles (no classic path
 * finder there: goto plans with the graph) is said like other refused
 * sets; on a small map, and `set planner graph`, nothing is said. */
static void test_set_planner_classic_large_map(void **state)
{
    (void)state;
    tn_map *m = tu_no_navmesh_map();
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    const char *text = "0 set planner classic\n1 set planner graph\n";
    char err[512] = "";
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_non_null(s);
    warn_log log = {0, ""};
    tn_script_host host = {&log, NULL, NULL, NULL, log_warn};
    if (tn_script_run(s, w, 2, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1);
    assert_string_equal(log.last,
                        "t.txt:1: set planner classic has no effect (frame 0): there is no "
                        "classic path finder on this 600x480 map (above 512x512): "
                        "goto plans with the graph");
    assert_string_equal(tn_wbots_planner_in_effect(w), "graph");
    tn_script_destroy(s);
    tn_world_destroy(w);
    w = small_world();
    s = tn_script_parse(text, 22, "t.txt", err, sizeof err); /* the classic line alone */
    assert_non_null(s);
    log.n = 0;
    if (tn_script_run(s, w, 1, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 0);
    assert_string_equal(tn_wbots_planner_in_effect(w), "classic");
    tn_script_destroy(s);
    tn_world_destroy(w);
    /* above 1024x1024 tiles goto is off: either choice is said to do nothing */
    assert_true(tn_succeeded(tn_map_create(1100, 1000, NULL, &m, NULL)));
    for (int x = 0; x < 1100; x++) tn_map_set_tile(m, x, 999, TN_TILE_BLOCK, NULL);
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    assert_string_equal(tn_wbots_planner_in_effect(w), "none");
    s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_non_null(s);
    log.n = 0;
    if (tn_script_run(s, w, 2, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 2);
    assert_string_equal(log.last,
                        "t.txt:2: set planner graph has no effect (frame 1): goto is off on "
                        "this 1100x1000 map (above the graph planner's 1024x1024 "
                        "tiles): neither planner plans");
    tn_script_destroy(s);
    tn_world_destroy(w);
}

/* Refused clicks and toggles are not fatal either: each one reaches the
 * host's warn with FILE:LINE, the command and the world's reason. */
static void test_edit_refused(void **state)
{
    (void)state;
    tn_world *w = small_world();
    const char *text = "0 toggle 1 6 block\n1 click 0 0 middle\n1 toggle 0 0 spawn\n"
                       "2 toggle 3 3 block\n";
    char err[512] = "";
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    warn_log log = {0, ""};
    tn_script_host host = {&log, NULL, NULL, NULL, log_warn};
    if (tn_script_run(s, w, 0, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1);
    assert_string_equal(log.last, "t.txt:1: toggle 1 6 refused (frame 0): tile (1,6) is inside "
                                  "the character: a block there would trap it");
    if (tn_script_run(s, w, 2, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 2); /* the middle click on a block makes a one-way: not refused */
    assert_string_equal(log.last, "t.txt:3: toggle 0 0 refused (frame 1): tile (0,0) is not "
                                  "empty: spawn points go on empty tiles only");
    assert_int_equal(tn_world_refused_edits(w), 2);
    assert_int_equal(tn_map_tile(tn_world_map(w), 3, 3), TN_TILE_BLOCK);
    tn_script_destroy(s);
    tn_world_destroy(w);
}

/* A navpath click whose goal moves to where the agent's radius fits is
 * done, and the host's warn says where it went (headless runs printed
 * nothing: the path ended 3.6 tiles above the clicked pit). */
static void test_click_adjusted(void **state)
{
    (void)state;
    char err[512] = "";
    tn_map *m;
    if (tn_load_map("maps/demo.map", &m, err, sizeof err) != 0) fail_msg("%s", err);
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    const char *text = "0 set agent_radius 1\n0 tool navpath\n1 click 62 43 left\n"
                       "2 click 70 10 left\n";
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    warn_log log = {0, ""};
    tn_script_host host = {&log, NULL, NULL, NULL, log_warn};
    if (tn_script_run(s, w, 1, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1);
    const char *want = "t.txt:3: click 62 43 adjusted (frame 1): goal moved ";
    if (strncmp(log.last, want, strlen(want)) != 0 ||
        !strstr(log.last, " tiles to the nearest point with room for radius 1.00"))
        fail_msg("warning: %s", log.last);
    assert_int_equal(tn_world_refused_edits(w), 0);
    /* a goal with room: nothing to say */
    if (tn_script_run(s, w, 3, &host, NULL, NULL, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(log.n, 1);
    tn_script_destroy(s);
    tn_world_destroy(w);
}

/* A UTF-8 byte-order mark is skipped; commands left when the run ends
 * are counted and named. */
static void test_bom_and_unrun(void **state)
{
    (void)state;
    const char *text = "\xEF\xBB\xBF"
                       "0 key left press\n5 key left release\n9 tool spawn\n";
    char err[512] = "", msg[512];
    tn_script *s = tn_script_parse(text, strlen(text), "t.txt", err, sizeof err);
    assert_non_null(s);
    assert_int_equal(s->count, 3);
    assert_int_equal(tn_script_unrun(s, 3, msg, sizeof msg), 3);
    s->next = 1; /* the first ran */
    assert_int_equal(tn_script_unrun(s, 3, msg, sizeof msg), 2);
    assert_string_equal(msg, "warning: t.txt: 2 commands not run: scheduled after the last frame "
                             "(3), the first at line 2 (frame 5); raise --frames to run them");
    s->next = 3;
    assert_int_equal(tn_script_unrun(s, 10, msg, sizeof msg), 0);
    assert_int_equal(tn_script_unrun(NULL, 10, msg, sizeof msg), 0);
    tn_script_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_ok),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_text_forms),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_save_needs_host),
        cmocka_unit_test(test_set_speed),
        cmocka_unit_test(test_bom_and_unrun),
        cmocka_unit_test(test_set_refused),
        cmocka_unit_test(test_knock),
        cmocka_unit_test(test_set_refused_large_map),
        cmocka_unit_test(test_set_planner_classic_large_map),
        cmocka_unit_test(test_edit_refused),
        cmocka_unit_test(test_click_adjusted),
        cmocka_unit_test(test_save_keeps_comments),
        cmocka_unit_test(test_save_other_format_warns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
