/* The front end's offscreen renderer: tn_game_screenshot() draws the frame
 * the window would show with SDL's software renderer (no display) and the
 * pixels at known tiles have the palette's colours. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "worldutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "game.h"
#include "render.h"
#include "control.h"
#include "tn_path.h"
#include "tn_enemy.h"
#include "tn_wenemies.h"
#include "tn_navmesh.h"
#include "tn_wnav.h"
#include "tn_wagents.h"
#include "tn_wparts.h"
#include "tu_nav.h"

static char SHOT_PATH[64], SHOT2_PATH[72];
#define SHOT SHOT_PATH

/* Screenshot `w` and load it back as XRGB8888. */
static SDL_Surface *shoot(tn_world *w, unsigned overlays, const char *path)
{
    char err[512];
    if (tn_game_screenshot(w, "assets", path, overlays, err, sizeof err) != 0)
        fail_msg("screenshot: %s", err);
    SDL_Surface *raw = SDL_LoadBMP(path);
    if (!raw) fail_msg("cannot load %s: %s", path, SDL_GetError());
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_RGB888, 0);
    SDL_FreeSurface(raw);
    assert_non_null(s);
    assert_int_equal(s->w, TN_GAME_LOGICAL_W);
    assert_int_equal(s->h, TN_GAME_LOGICAL_H);
    return s;
}

static uint32_t pixel(const SDL_Surface *s, int x, int y)
{
    assert_true(x >= 0 && y >= 0 && x < s->w && y < s->h);
    const uint32_t *row =
        (const uint32_t *)((const uint8_t *)s->pixels + (size_t)y * (size_t)s->pitch);
    return row[x] & 0xffffffu;
}

/* Compare one pixel with a palette colour (0xRRGGBBAA, alpha ignored). */
#define assert_colour(s, x, y, rgba)                                                    \
    do {                                                                                \
        uint32_t got_ = pixel((s), (x), (y)), want_ = (uint32_t)(rgba) >> 8;            \
        if (got_ != want_)                                                              \
            fail_msg("pixel (%d,%d) is #%06x, expected #%06x (%s)", (int)(x), (int)(y), \
                     (unsigned)got_, (unsigned)want_, #rgba);                           \
    } while (0)

/* Screen pixel of the point (fx, fy) inside tile (tx, ty), fractions of a tile. */
static void tile_px(const tn_camera *c, int tx, int ty, float fx, float fy, int *x, int *y)
{
    *x = c->ox + tx * c->ts + (int)(fx * (float)c->ts);
    *y = c->oy + ty * c->ts + (int)(fy * (float)c->ts);
}

/* F1's legend explains the surface-graph overlay (Shift+P): surfaces,
 * the three edge kinds, the plan and the last repair's outline; and the
 * pinned inspect card's frame. */
static void test_legend_has_graph_overlay(void **state)
{
    (void)state;
    static const char *const want[] = {
        "graph (Shift+P): standing surface",         "graph edge: jump",
        "graph edge: walk off a ledge, coyote jump", "graph edge: drop through a one-way",
        "graph: the chosen plan (yellow)",           "graph: surfaces an edit searched again",
        "agent of the pinned card (Ctrl+click)"};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        bool found = false;
        for (int i = 0; tn_ui_legend_entry(i); i++)
            if (strcmp(tn_ui_legend_entry(i), want[k]) == 0) found = true;
        if (!found) fail_msg("no legend entry \"%s\"", want[k]);
    }
}

/* The dim cyan frame render.c draws on the map's start tile has its
 * legend entry (the reviewer found it unexplained). */
static void test_legend_has_start_tile(void **state)
{
    (void)state;
    bool found = false;
    for (int i = 0; tn_ui_legend_entry(i); i++)
        if (strcmp(tn_ui_legend_entry(i), "start tile (P in the map file)") == 0) found = true;
    assert_true(found);
}

static int eight_px(void *u, const char *s)
{
    (void)u;
    return 8 * (int)strlen(s);
}

static int font_px(void *u, tn_font_id f, const char *s)
{
    (void)u;
    return (f == TN_FONT_UI ? 8 : 7) * (int)strlen(s);
}

/* A long status message is never cut at the line's end (the map switch's
 * "...; the older autosave is now maps/" lost the file's name): the small
 * font, then lines cut at blanks, the speed and frame kept in sight (the
 * 900x500 flow-field message took their place, wrapped into the map and
 * was clipped at the window's bottom); text past TN_STATUS_LINES lines
 * ends in "...". */
static void test_status_fits(void **state)
{
    (void)state;
    /* 150 px of speed and frame, the line ending at 1012 */
    tn_status_fit f = tn_ui_status_fit("saved maps/demo.map", 150, 1012, font_px, NULL);
    assert_int_equal(f.font, TN_FONT_UI);
    assert_int_equal(f.x, 176);
    assert_int_equal(f.lines, 1);
    assert_string_equal(f.line[0], "saved maps/demo.map");
    char msg[400];
    memset(msg, 'a', 110); /* 880 px in the UI font, 770 small */
    msg[110] = '\0';
    f = tn_ui_status_fit(msg, 150, 1012, font_px, NULL);
    assert_int_equal(f.font, TN_FONT_SMALL);
    assert_int_equal(f.x, 176);
    assert_int_equal(f.lines, 1);
    /* the reviewer's messages in a 900x500 window (the line ends at 632):
     * every line after the speed and frame, cut at a blank, all the text */
    const char *ms[] = {
        "playing maps/td_maze.map (80x45); the unsaved edits are in "
        "maps/demo.map.autosave; the older autosave is now maps/demo.map.autosave.3",
        "flow field overlay: 8-connected - display only: enemies keep the 4-connected field "
        "(tn_enemy flies edge to edge, no diagonal steps)"};
    for (int k = 0; k < 2; k++) {
        const char *m = ms[k];
        f = tn_ui_status_fit(m, 150, 632, font_px, NULL);
        assert_int_equal(f.x, 176);
        assert_int_equal(f.font, TN_FONT_SMALL);
        assert_true(f.lines >= 2 && f.lines <= TN_STATUS_LINES);
        char joined[400] = "";
        for (int i = 0; i < f.lines; i++) {
            assert_true(176 + font_px(NULL, TN_FONT_SMALL, f.line[i]) <= 632);
            assert_true(f.line[i][0] != ' ' && f.line[i][strlen(f.line[i]) - 1] != ' ');
            if (i) strcat(joined, " ");
            strcat(joined, f.line[i]);
        }
        assert_string_equal(joined, m); /* nothing lost: the file's name is there */
    }
    /* more than TN_STATUS_LINES lines of text: the last ends in "..." */
    for (int i = 0; i < 60; i++) memcpy(msg + 5 * i, "word ", 5);
    msg[299] = '\0';
    f = tn_ui_status_fit(msg, 150, 632, font_px, NULL);
    assert_int_equal(f.lines, TN_STATUS_LINES);
    const char *last = f.line[TN_STATUS_LINES - 1];
    assert_string_equal(last + strlen(last) - 3, "...");
    assert_true(176 + font_px(NULL, TN_FONT_SMALL, last) <= 632);
    /* one word wider than the line: cut inside it */
    memset(msg, 'b', 120);
    msg[120] = '\0';
    f = tn_ui_status_fit(msg, 150, 632, font_px, NULL);
    assert_int_equal(f.lines, 2);
    assert_int_equal((int)(strlen(f.line[0]) + strlen(f.line[1])), 120);
}

/* A message on two lines in a screenshot: its first line rises above the
 * status line on a band of the panel's colour, and the status line's top
 * edge (a 1 px line of TN_COL_PANEL_EDGE at y0) no longer runs through
 * it: the band covers the edge where the text is (the edge struck the
 * first line through, "no search to replay: ..." on a 512x512 map). */
static void test_status_two_lines_not_struck(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_world_message(w, "no search to replay: the classic search is not replayed on maps above "
                        "256x256 (a second path finder would take 92 MB more here); X shows "
                        "what it explored");
    SDL_Surface *s = shoot(w, 0, SHOT);
    int y0 = TN_FRAME_H - TN_STATUS_H, edge = 0, from = 300;
    for (int x = from; x < TN_VIEW_W - 8; x++) edge += pixel(s, x, y0) == TN_COL_PANEL_EDGE >> 8;
    /* the row just above the band is the map's; the band's own top edge
     * is there, so the message did rise */
    int lh = 15, top_edge = 0;
    for (int y = y0 - 3 * lh; y < y0 - 4; y++)
        top_edge += pixel(s, TN_VIEW_W - 20, y) == TN_COL_PANEL_EDGE >> 8;
    SDL_FreeSurface(s);
    unlink(SHOT);
    tn_world_destroy(w);
    if (top_edge != 1) fail_msg("no band above the status line (%d edge pixels)", top_edge);
    if (edge > 0)
        fail_msg("the status line's edge runs through the message's first line: %d of %d px "
                 "of row %d",
                 edge, TN_VIEW_W - 8 - from, y0);
}

/* The HUD's first line has no " | " to wrap at: in a narrow window
 * (900x500: a 640 px map view, 620 px of text) it drops the pacing and the
 * renderer, then the times, so the frame and the unsaved marker stay in
 * sight (the full line cut them: "frame 44", no marker). */
static void test_hud_top_fits(void **state)
{
    (void)state;
    tn_view v;
    memset(&v, 0, sizeof v);
    v.live = true;
    v.fps = 120.0;
    v.step_ms = 0.011;
    v.frame_ms = 2.2;
    v.other_ms = 0.4;
    v.renderer = "software";
    snprintf(v.pacing, sizeof v.pacing, "vsync, cap 120 Hz");
    char top[192];
    const int marker = 8 * 19; /* "  * unsaved (Ctrl+S)" */
    tn_ui_hud_top(&v, 5555, marker, 1000, eight_px, NULL, top, sizeof top);
    assert_string_equal(top, "120 fps (vsync, cap 120 Hz)   step 0.011 ms   draw 2.2 ms "
                             "(software)   other 0.4 ms   frame 5555");
    /* a slow frame (a graph build: the reviewer's window froze 248 ms and
     * the times said nothing) is named; the averages hide it */
    v.worst_ms = 248.0;
    tn_ui_hud_top(&v, 5555, marker, 1200, eight_px, NULL, top, sizeof top);
    assert_string_equal(top, "120 fps (vsync, cap 120 Hz)   step 0.011 ms   draw 2.2 ms "
                             "(software)   other 0.4 ms   slowest 248 ms   frame 5555");
    tn_ui_hud_top(&v, 5555, marker, 900, eight_px, NULL, top, sizeof top);
    assert_string_equal(top, "120 fps   step 0.011 ms   draw 2.2 ms   other 0.4 ms   slowest "
                             "248 ms   frame 5555");
    v.worst_ms = 0;
    tn_ui_hud_top(&v, 5555, marker, 620, eight_px, NULL, top, sizeof top);
    assert_string_equal(top, "120 fps   step 0.011 ms   draw 2.2 ms   frame 5555");
    assert_true(8 * (int)strlen(top) + marker <= 620);
    tn_ui_hud_top(&v, 5555, 0, 8 * 30, eight_px, NULL, top, sizeof top);
    assert_string_equal(top, "120 fps   frame 5555");
    v.live = false;
    tn_ui_hud_top(&v, 7, 0, 100, eight_px, NULL, top, sizeof top);
    assert_string_equal(top, "offscreen render   frame 7");
}

/* HUD lines too wide for the strip wrap at " | " (nothing is cut): the
 * reviewer's line with two bots and the last click's comparison. */
static void test_hud_wraps(void **state)
{
    (void)state;
    char out[4][192];
    const char *line = "bot [graph]: moving | found: 123 frames, 4 legs | 20 nodes | search 43 us"
                       " | classic: found, 26 tiles, 526 us | 2 bots: 2/3 trips done";
    int n = tn_ui_wrap(line, 8 * 110, eight_px, NULL, out, 4);
    assert_int_equal(n, 2);
    assert_string_equal(out[0], "bot [graph]: moving | found: 123 frames, 4 legs | 20 nodes | "
                                "search 43 us | classic: found, 26 tiles, 526 us");
    assert_string_equal(out[1], "  2 bots: 2/3 trips done");
    assert_int_equal(tn_ui_wrap(line, 8 * 200, eight_px, NULL, out, 4), 1);
    assert_string_equal(out[0], line);
    /* a piece wider than the strip on its own stays whole on its line */
    assert_int_equal(tn_ui_wrap("abcdefgh | ij", 8 * 4, eight_px, NULL, out, 4), 2);
    assert_string_equal(out[0], "abcdefgh");
    assert_string_equal(out[1], "  ij");
    /* a world's HUD with bots and a click, wrapped for the real strip
     * (monospace, about 8 px a character): every piece is kept */
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_world_set(w, "bots", 2, NULL);
    tn_world_step(w);
    tn_world_set_tool(w, TN_TOOL_GOTO);
    tn_world_click(w, 20, 39, TN_CLICK_LEFT, false, NULL);
    char hud[1024];
    tn_world_hud(w, hud, sizeof hud);
    *strchr(hud, '\n') = '\0';
    n = tn_ui_wrap(hud, TN_VIEW_W - 20, eight_px, NULL, out, 4);
    assert_true(n >= 1 && n <= 2);
    assert_non_null(strstr(out[n - 1], "2 bots: 0/"));
    assert_non_null(strstr(out[n - 1], " trips done"));
    tn_world_destroy(w);
}

static void test_tile_colours(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/render_tiles.map", 1);
    SDL_Surface *s = shoot(w, 0, SHOT);
    tn_view v;
    tn_view_init(&v, w, 0);
    tn_camera c = tn_camera_make(w, &v);
    /* 20x12 tiles fit the 1020x576 map view (between the HUD strip and the
     * status line) at 3x: 48 px tiles, centred across, at the bottom with
     * the margin of the sides (at most half the spare height) */
    assert_int_equal(c.ts, 48);
    assert_int_equal(c.ox, (TN_VIEW_W - 20 * 48) / 2);
    assert_int_equal(c.oy,
                     TN_VIEW_Y + TN_VIEW_H - 12 * 48 - tn_mini(c.ox, (TN_VIEW_H - 12 * 48) / 2));
    int x, y;
    tile_px(&c, 15, 8, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_EMPTY);
    assert_colour(s, c.ox + 16 * c.ts, y, TN_COL_GRID); /* the line between two tiles */
    tile_px(&c, 5, 5, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_BLOCK);
    tile_px(&c, 5, 5, 0.5f, 0.04f, &x, &y);
    assert_colour(s, x, y, TN_COL_BLOCK_TOP); /* a lone block is lit from above */
    tile_px(&c, 10, 5, 0.5f, 0.1f, &x, &y);
    assert_colour(s, x, y, TN_COL_ONEWAY); /* the slab on top ... */
    tile_px(&c, 10, 5, 0.5f, 0.6f, &x, &y);
    assert_colour(s, x, y, TN_COL_EMPTY); /* ... and open space below it */
    tile_px(&c, 14, 5, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_SPAWN);
    tile_px(&c, 5, 7, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_DEST);
    tile_px(&c, 10, 7, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_ITEM);
    tile_px(&c, 3, 11, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_BLOCK);
    /* the character, 1x2 tiles standing on the start tile (2,10) */
    tile_px(&c, 2, 10, 0.5f, 0.2f, &x, &y);
    assert_colour(s, x, y, TN_COL_CHAR);
    tile_px(&c, 2, 9, 0.5f, 0.9f, &x, &y);
    assert_colour(s, x, y, TN_COL_CHAR);
    tile_px(&c, 2, 8, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_EMPTY); /* nothing above its head */
    /* around the map: the void, and the panel */
    assert_colour(s, 4, TN_VIEW_Y + TN_VIEW_H - 4, TN_COL_VOID);
    assert_colour(s, TN_GAME_LOGICAL_W - 3, 4, TN_COL_PANEL);
    SDL_FreeSurface(s);
    remove(SHOT);
    tn_world_destroy(w);
}

static void test_edit_shows(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/render_tiles.map", 1);
    tn_error e;
    assert_true(tn_succeeded(tn_world_click(w, 15, 8, TN_CLICK_RIGHT, false, &e)));
    assert_true(tn_succeeded(tn_world_click(w, 16, 8, TN_CLICK_MIDDLE, false, &e)));
    assert_true(tn_succeeded(tn_world_edit(w, 12, 8, TN_EDIT_SPAWN, &e))); /* a second spawn */
    SDL_Surface *s = shoot(w, 0, SHOT);
    tn_view v;
    tn_view_init(&v, w, 0);
    tn_camera c = tn_camera_make(w, &v);
    int x, y;
    tile_px(&c, 15, 8, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_BLOCK);
    tile_px(&c, 16, 8, 0.5f, 0.1f, &x, &y);
    assert_colour(s, x, y, TN_COL_ONEWAY);
    tile_px(&c, 12, 8, 0.5f, 0.5f, &x, &y);
    assert_colour(s, x, y, TN_COL_SPAWN);
    SDL_FreeSurface(s);
    remove(SHOT);
    tn_world_destroy(w);
}

/* The character drawn where it is after it walked (no interpolation left
 * over in an offscreen render). */
static void test_character_moves(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/render_tiles.map", 1);
    tn_input right = {false, true, false, false};
    for (int i = 0; i < 60; i++) { /* 160 px/s for 1 s: 10 tiles */
        tn_world_set_input(w, right);
        tn_world_step(w);
    }
    int tx, ty;
    tn_body_tile(tn_world_character(w), tn_world_phys(w), &tx, &ty);
    assert_int_equal(ty, 10);
    assert_true(tx >= 11);
    SDL_Surface *s = shoot(w, 0, SHOT);
    tn_view v;
    tn_view_init(&v, w, 0);
    tn_camera c = tn_camera_make(w, &v);
    int x = (int)tn_camera_sx(&c, tn_world_character(w)->x + 8),
        y = (int)tn_camera_sy(&c, tn_world_character(w)->y + 24);
    assert_colour(s, x, y, TN_COL_CHAR);
    int x0, y0;
    tile_px(&c, 2, 10, 0.5f, 0.5f, &x0, &y0);
    assert_colour(s, x0, y0, TN_COL_EMPTY); /* gone from the start */
    SDL_FreeSurface(s);
    remove(SHOT);
    tn_world_destroy(w);
}

/* O on a map the view cannot hold even at 1/8x: the reviewer's 300x300
 * and 512x512 maps said "whole map at 0.125x" and showed a part.  The
 * message says the truth; a 100x60 map still fits whole. */
static void test_zoom_fit_says_the_truth(void **state)
{
    (void)state;
    const int size[3][2] = {{300, 300}, {512, 512}, {100, 60}};
    for (int k = 0; k < 3; k++) {
        tn_error e;
        tn_map *m = NULL;
        assert_true(tn_succeeded(tn_map_create(size[k][0], size[k][1], NULL, &m, &e)));
        int level = -1;
        char msg[192];
        bool all = tn_zoom_fit_say(m, &level, msg, sizeof msg);
        printf("  %dx%d: %s\n", size[k][0], size[k][1], msg);
        assert_int_equal(level, tn_zoom_fit_all(m));
        if (k < 2) {
            assert_false(all);
            assert_int_equal(level, 0);
            assert_null(strstr(msg, "whole map"));
            assert_non_null(strstr(msg, "larger than the view at the smallest zoom (1/8x)"));
            assert_non_null(strstr(msg, "pan with I J K L or Ctrl+drag"));
        } else {
            assert_true(all);
            assert_non_null(strstr(msg, "whole map at "));
        }
        tn_map_destroy(m);
    }
}

/* O fits the view as it is: in a 900x500 window the demo map (80x45) is
 * 4 px too tall for 1/2x in the HUD's view (356 px), so O showed it at
 * 1/4x, a quarter of the view, also with the HUD collapsed (H), whose 444
 * px hold 1/2x.  With the HUD collapsed O now fits 1/2x; with the HUD
 * shown, still 1/4x; at 1280x720 0.75x either way. */
static void test_zoom_fit_hud_collapsed(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("maps/demo.map");
    tn_view v;
    memset(&v, 0, sizeof v);
    tn_ui_set_size(900, 500);
    int level = -1;
    char msg[192];
    v.hud_hidden = false;
    assert_true(tn_zoom_fit_say_in(m, tn_view_h(&v), &level, msg, sizeof msg));
    assert_true(tn_zoom_levels[level] == 0.25f);
    assert_int_equal(level, tn_zoom_fit_all(m));
    v.hud_hidden = true;
    assert_true(tn_zoom_fit_say_in(m, tn_view_h(&v), &level, msg, sizeof msg));
    printf("  900x500, HUD collapsed: %s\n", msg);
    assert_true(tn_zoom_levels[level] == 0.5f);
    assert_int_equal(level, tn_zoom_fit_all_in(m, tn_view_h(&v)));
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    for (int h = 0; h < 2; h++) {
        v.hud_hidden = h;
        assert_true(tn_zoom_levels[tn_zoom_fit_all_in(m, tn_view_h(&v))] == 0.75f);
    }
    tn_map_destroy(m);
}

/* A map larger than the view: 1x zoom, the camera follows the character
 * and stops at the map's edges. */
static void test_camera_follows(void **state)
{
    (void)state;
    tn_error e;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(300, 120, NULL, &m, &e)));
    assert_non_null(m);
    for (int x = 0; x < 300; x++) tn_map_set_tile(m, x, 119, TN_TILE_BLOCK, NULL);
    m->start_x = 150;
    m->start_y = 118;
    tn_world *w;
    assert_true(tn_succeeded(tn_world_create(m, NULL, NULL, &w, &e)));
    tn_view v;
    tn_view_init(&v, w, 0);
    tn_camera c = tn_camera_make(w, &v);
    assert_int_equal(c.ts, TN_TILE_PX);
    /* x: centred on the character; y: clamped to the bottom edge */
    float cx, cy;
    tn_world_character_center(w, &cx, &cy);
    assert_true(abs((int)tn_camera_sx(&c, cx) - TN_VIEW_W / 2) <= 1);
    assert_int_equal(c.oy + 120 * TN_TILE_PX, TN_VIEW_Y + TN_VIEW_H);
    SDL_Surface *s = shoot(w, 0, SHOT);
    assert_colour(s, (int)tn_camera_sx(&c, cx), (int)tn_camera_sy(&c, cy), TN_COL_CHAR);
    assert_colour(s, 100, TN_VIEW_Y + TN_VIEW_H - 8, TN_COL_BLOCK); /* the floor along the bottom */
    SDL_FreeSurface(s);
    remove(SHOT);
    /* at the left edge, the camera stops at the map's edge */
    tn_map *m2 = NULL;
    assert_true(tn_succeeded(tn_map_create(300, 120, NULL, &m2, &e)));
    m2->start_x = 1;
    m2->start_y = 118;
    assert_true(tn_succeeded(tn_world_replace_map(w, m2, &e)));
    tn_view_init(&v, w, 0);
    c = tn_camera_make(w, &v);
    assert_int_equal(c.ox, 0);
    tn_world_destroy(w);
}

/* Same world, same picture: byte-identical files. */
static void test_deterministic(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/render_tiles.map", 1);
    char err[512];
    assert_int_equal(tn_game_screenshot(w, "assets", SHOT, TN_OVERLAY_PATH, err, sizeof err), 0);
    assert_int_equal(tn_game_screenshot(w, "assets", SHOT2_PATH, TN_OVERLAY_PATH, err, sizeof err),
                     0);
    char *a, *b;
    size_t la, lb;
    assert_int_equal(tn_read_file(SHOT, 1u << 24, &a, &la, err, sizeof err), 0);
    assert_int_equal(tn_read_file(SHOT2_PATH, 1u << 24, &b, &lb, err, sizeof err), 0);
    assert_int_equal(la, lb);
    assert_int_equal(la, 54 + 1280 * 720 * 3); /* a 24-bit BMP */
    assert_memory_equal(a, b, la);
    free(a);
    free(b);
    remove(SHOT);
    remove(SHOT2_PATH);
    tn_world_destroy(w);
}

static void test_errors(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("tests/data/render_tiles.map", 1);
    char err[512] = "";
    assert_int_equal(tn_game_screenshot(w, "no/such/dir", SHOT, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "no/such/dir/DejaVuSans.ttf"));
    assert_int_equal(tn_game_screenshot(w, "assets", "no/such/dir/x.bmp", 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "no/such/dir/x.bmp"));
    tn_world_destroy(w);
}

static int count_colour(const SDL_Surface *s, uint32_t rgb)
{
    int n = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) n += pixel(s, x, y) == rgb;
    return n;
}

/* Render the world with view v offscreen and load it back. */
static SDL_Surface *shoot_view(tn_world *w, const tn_view *v)
{
    char err[512];
    assert_int_equal(TTF_Init(), 0);
    tn_fonts fonts;
    if (tn_fonts_open(&fonts, "assets", err, sizeof err) != 0) fail_msg("%s", err);
    if (tn_render_offscreen(w, &fonts, v, SHOT, err, sizeof err) != 0) fail_msg("%s", err);
    tn_fonts_close(&fonts);
    TTF_Quit();
    SDL_Surface *raw = SDL_LoadBMP(SHOT);
    assert_non_null(raw);
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_RGB888, 0);
    SDL_FreeSurface(raw);
    remove(SHOT);
    return s;
}

/* The search replay: nothing before a search; half-way through a goto's
 * search the frontier colour is on screen and the current node (the last
 * expansion shown) is framed in white; a navmesh search's frontier too.
 * It draws on the explored overlay: with X off neither is drawn. */
static void test_playback_draws(void **state)
{
    (void)state;
    const uint32_t FRONTIER = 0x58d0ffu, WHITE = 0xffffffu;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    static tn_playback p;
    assert_int_equal(tn_playback_init(&p), 0);
    v.pb = &p;
    SDL_Surface *s = shoot_view(w, &v);
    assert_int_equal(count_colour(s, FRONTIER), 0);
    SDL_FreeSurface(s);
    tn_path *finder = NULL;
    tn_error e;
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, &e)));
    tn_world_set_tool(w, TN_TOOL_GOTO);
    assert_true(tn_succeeded(tn_world_click(w, 47, 20, TN_CLICK_LEFT, false, &e)));
    int n = tn_playback_record_goto(&p, &finder, w);
    assert_true(n > 1000);
    p.paused = true;
    p.shown = n / 2;
    int cur = -1;
    for (int i = (int)p.shown - 1; i >= 0 && cur < 0; i--)
        if (p.trace.ev[i].kind != TN_TRACE_OPEN) cur = i;
    assert_true(cur >= 0);
    tn_camera c = tn_camera_make(w, &v);
    int fx = c.ox + (int)p.trace.ev[cur].x * c.ts - 2,
        fy = c.oy + (int)p.trace.ev[cur].y * c.ts - 2;
    /* the replay draws on the explored overlay: with X off, none of it */
    assert_false(v.overlays & TN_OVERLAY_EXPLORED);
    s = shoot_view(w, &v);
    assert_int_equal(count_colour(s, FRONTIER), 0);
    assert_int_not_equal(pixel(s, fx, fy + c.ts / 2), WHITE);
    SDL_FreeSurface(s);
    v.overlays |= TN_OVERLAY_EXPLORED;
    s = shoot_view(w, &v);
    assert_true(count_colour(s, FRONTIER) > 100);
    assert_int_equal(pixel(s, fx, fy + c.ts / 2), WHITE); /* the current node's frame */
    SDL_FreeSurface(s);
    assert_true(tn_playback_record_navpath(&p, w, 70, 10) > 10);
    p.paused = true;
    p.shown = p.trace.count;
    s = shoot_view(w, &v);
    assert_true(count_colour(s, FRONTIER) > 20);
    SDL_FreeSurface(s);
    v.overlays &= ~(unsigned)TN_OVERLAY_EXPLORED; /* the navmesh replay hides too */
    s = shoot_view(w, &v);
    assert_int_equal(count_colour(s, FRONTIER), 0);
    SDL_FreeSurface(s);
    tn_path_destroy(finder);
    tn_playback_free(&p);
    tn_world_destroy(w);
}

/* At the default agent radius the navmesh replay is seen: its expanded
 * tangent points are orange squares on top of the navmesh overlay's
 * clearance circles (they were 3.5 px translucent dots under the circles,
 * the open ones 4 px rings in nearly the circles' blue), and the triangles
 * under its points fill in as the closed set, as at radius 0.  F1's legend
 * names the circles and the marks. */
static void test_playback_radius_visible(void **state)
{
    (void)state;
    const uint32_t ORANGE = 0xff9a3cu;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    static tn_playback p;
    assert_int_equal(tn_playback_init(&p), 0);
    v.pb = &p;
    tn_error e;
    double r;
    assert_true(tn_world_get(w, "agent_radius", &r) && r > 0.3);
    tn_world_set_tool(w, TN_TOOL_NAVPATH);
    assert_true(tn_succeeded(tn_world_click(w, 70, 10, TN_CLICK_LEFT, false, &e)));
    assert_true(tn_playback_record_navpath(&p, w, 70, 10) > 10);
    p.paused = true;
    p.shown = p.trace.count;
    v.overlays |= TN_OVERLAY_NAVMESH;
    SDL_Surface *hidden = shoot_view(w, &v);
    v.overlays |= TN_OVERLAY_EXPLORED;
    SDL_Surface *s = shoot_view(w, &v);
    tn_camera c = tn_camera_make(w, &v);
    int closed = 0, on_top = 0;
    for (int i = 0; i < p.trace.count; i++) {
        const tn_trace_event *ev = &p.trace.ev[i];
        if (ev->id != -1 || ev->kind != TN_TRACE_CLOSE) continue;
        int x = (int)lroundf(tn_camera_sx(&c, ev->x * TN_TILE_PX)),
            y = (int)lroundf(tn_camera_sy(&c, ev->y * TN_TILE_PX));
        if (x < c.view.x || y < c.view.y || x >= c.view.x + c.view.w || y >= c.view.y + c.view.h)
            continue;
        closed++;
        on_top += pixel(s, x, y) == ORANGE;
    }
    if (closed < 3)
        fail_msg("%d expanded tangent points in sight of %d events, view %d %d %d %d", closed,
                 p.trace.count, c.view.x, c.view.y, c.view.w, c.view.h);
    if (on_top < closed - 1) fail_msg("%d of %d expanded tangent points drawn", on_top, closed);
    int changed = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) changed += pixel(s, x, y) != pixel(hidden, x, y);
    if (changed < 20 * closed * 64) fail_msg("the replay changes only %d pixels", changed);
    SDL_FreeSurface(s);
    SDL_FreeSurface(hidden);
    static const char *const want[] = {"navmesh: agent radius around a corner",
                                       "replay, radius > 0: tangent point offered",
                                       "replay, radius > 0: tangent point expanded"};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        bool found = false;
        for (int i = 0; tn_ui_legend_entry(i); i++)
            if (strcmp(tn_ui_legend_entry(i), want[k]) == 0) found = true;
        if (!found) fail_msg("no legend entry \"%s\"", want[k]);
    }
    tn_playback_free(&p);
    tn_world_destroy(w);
}

/* A tn_gfx with the real fonts on a software renderer: text is measured
 * as the window measures it. */
typedef struct gfx_rig {
    SDL_Surface *surf;
    SDL_Renderer *r;
    tn_fonts fonts;
    tn_gfx g;
} gfx_rig;

static void rig_open(gfx_rig *k)
{
    char err[512];
    assert_int_equal(TTF_Init(), 0);
    k->surf = SDL_CreateRGBSurfaceWithFormat(0, TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H, 32,
                                             SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(k->surf);
    k->r = SDL_CreateSoftwareRenderer(k->surf);
    assert_non_null(k->r);
    if (tn_fonts_open(&k->fonts, "assets", err, sizeof err) != 0) fail_msg("%s", err);
    if (tn_gfx_init(&k->g, k->r, &k->fonts, err, sizeof err) != 0) fail_msg("%s", err);
}

static void rig_close(gfx_rig *k)
{
    tn_gfx_free(&k->g);
    tn_fonts_close(&k->fonts);
    SDL_DestroyRenderer(k->r);
    SDL_FreeSurface(k->surf);
    TTF_Quit();
}

/* Whether the disc (cx, cy, r) and the rectangle b overlap (touching does
 * not count). */
static bool disc_hits(float cx, float cy, float r, const SDL_Rect *b)
{
    const float nx = cx < (float)b->x            ? (float)b->x
                     : cx > (float)(b->x + b->w) ? (float)(b->x + b->w)
                                                 : cx;
    const float ny = cy < (float)b->y            ? (float)b->y
                     : cy > (float)(b->y + b->h) ? (float)(b->y + b->h)
                                                 : cy;
    return b->w > 0 && b->h > 0 && (cx - nx) * (cx - nx) + (cy - ny) * (cy - ny) < r * r;
}

/* A press (or a move, with the button held when drag) at (x, y) in the panel. */
static void panel_mouse(tn_view *v, tn_world *w, Uint32 type, int x, int y)
{
    SDL_Event e = {0};
    e.type = type;
    if (type == SDL_MOUSEMOTION) {
        e.motion.x = x, e.motion.y = y;
    } else {
        e.button.button = SDL_BUTTON_LEFT;
        e.button.x = x, e.button.y = y;
    }
    tn_ui_panel_mouse(v, w, &e, x, y);
}

/* The panel's sliders in every frame the window has (1:1 from 900x500 up to
 * 1280x720, and taller ones in a narrow window): no knob, at either end of
 * its track and the larger one under the mouse, covers any row's text (its
 * label's and value's boxes, the real fonts' text inside them), and each
 * track lies in the panel.  At 900x500 (19 px rows, the track under a 12 px
 * label) a knob at either end covered the next row's label ("Char height",
 * "Companion speed").  The hit areas are where the drawing is: a press on a
 * knob at either end drags that slider, one on a label does not, and
 * hovering a knob shows its help in the footer. */
static void test_sliders_clear_text(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    int n;
    const tn_param_info *pi = tn_world_params(&n);
    int checked = 0;
    for (int h = 500; h <= 1100; h++) {
        const int fw = h == 720 ? 1280 : 900;
        tn_ui_set_size(fw, h);
        for (int i = 0; i < n; i++) {
            tn_ui_slider_box b;
            tn_ui_slider_geom(i, n, &b);
            const float r = b.knob_r;
            if ((float)b.x0 - r < (float)(TN_VIEW_W + 1) || (float)b.x1 + r > (float)TN_FRAME_W ||
                b.x1 - b.x0 < 40 || (float)b.y - r < (float)(b.row.y - 2) ||
                (float)b.y + r > (float)(b.row.y + b.row.h + 2))
                fail_msg("%dx%d slider %d: track %d..%d at y %d (knob %.1f) is not in its row "
                         "(%d,%d %dx%d) in the panel (x %d..%d)",
                         fw, h, i, b.x0, b.x1, b.y, (double)r, b.row.x, b.row.y, b.row.w, b.row.h,
                         TN_VIEW_W + 1, TN_FRAME_W);
            /* the text fits the boxes the knobs keep out of */
            char label[64], lo[48], hi[48];
            tn_ui_param_label(pi[i].name, label, sizeof label);
            tn_ui_param_value(&pi[i], pi[i].min, lo, sizeof lo);
            tn_ui_param_value(&pi[i], pi[i].max, hi, sizeof hi);
            const tn_font_id vf = b.font == TN_FONT_UI ? TN_FONT_MONO : TN_FONT_SMALL;
            const int lw = tn_gfx_text_width(&k.g, b.font, label);
            const int vw =
                tn_maxi(tn_gfx_text_width(&k.g, vf, lo), tn_gfx_text_width(&k.g, vf, hi));
            if (tn_gfx_line_height(&k.g, b.font) > b.label.h ||
                tn_gfx_line_height(&k.g, vf) > b.value.h ||
                (b.beside ? lw > b.label.w || vw > b.value.w : lw + 8 + vw > b.label.w))
                fail_msg("%dx%d slider %d: \"%s\" (%d px) or \"%s\" (%d px) is wider than its box",
                         fw, h, i, label, lw, hi, vw);
            for (int end = 0; end < 2; end++) {
                const float x = (float)(end ? b.x1 : b.x0), y = (float)b.y;
                for (int j = 0; j < n; j++) {
                    tn_ui_slider_box o;
                    tn_ui_slider_geom(j, n, &o);
                    if (disc_hits(x, y, r, &o.label) || disc_hits(x, y, r, &o.value))
                        fail_msg("%dx%d slider %d: its knob at the %s end (%.0f,%.0f r %.1f) "
                                 "covers slider %d's text (label %d,%d %dx%d, value %d,%d %dx%d)",
                                 fw, h, i, end ? "right" : "left", (double)x, (double)y, (double)r,
                                 j, o.label.x, o.label.y, o.label.w, o.label.h, o.value.x,
                                 o.value.y, o.value.w, o.value.h);
                }
                checked++;
            }
        }
        if (h != 500 && h != 720 && h % 50 != 0) continue;
        /* the hit areas, with the mouse */
        for (int i = 0; i < n; i++) {
            tn_ui_slider_box b;
            tn_ui_slider_geom(i, n, &b);
            double val;
            if (!tn_world_get(w, pi[i].name, &val)) continue;
            for (int end = 0; end < 2; end++) {
                tn_view v;
                tn_view_init(&v, w, 0);
                const int x = end ? b.x1 : b.x0;
                panel_mouse(&v, w, SDL_MOUSEMOTION, x, b.y);
                char foot[2][TN_UI_FOOT_MAX];
                tn_ui_panel_footer(&k.g, w, &v, foot);
                char want[TN_UI_FOOT_MAX];
                snprintf(want, sizeof want, "%s (%g..%g)", pi[i].help, pi[i].min, pi[i].max);
                if (v.hot_slider != i || strncmp(foot[0], want, strlen(foot[0])) != 0)
                    fail_msg("%dx%d slider %d: hovering its knob at (%d,%d): hot %d, footer "
                             "\"%s\"",
                             fw, h, i, x, b.y, v.hot_slider, foot[0]);
                panel_mouse(&v, w, SDL_MOUSEBUTTONDOWN, x, b.y);
                const int dragged = v.drag_slider;
                panel_mouse(&v, w, SDL_MOUSEBUTTONUP, x, b.y);
                if (dragged != i)
                    fail_msg("%dx%d slider %d: a press on its knob at (%d,%d) drags %d", fw, h, i,
                             x, b.y, dragged);
            }
            tn_error err;
            tn_world_set(w, pi[i].name, val, &err); /* as it was */
            tn_view v;
            tn_view_init(&v, w, 0);
            /* on its label, in the middle of the line and its last row of
             * pixels (descenders: the band began 2 px above it in 32 px rows) */
            for (int q = 0; q < 2; q++) {
                const int lx = b.label.x + 4,
                          ly = q ? b.label.y + b.label.h - 1 : b.label.y + b.label.h / 2;
                panel_mouse(&v, w, SDL_MOUSEBUTTONDOWN, lx, ly);
                if (v.drag_slider >= 0)
                    fail_msg("%dx%d slider %d: a press on its label at (%d,%d) drags %d", fw, h, i,
                             lx, ly, v.drag_slider);
            }
        }
        tn_world_hold_graph_builds(w, false);
    }
    printf("  %d knob ends clear of every slider's text, frames 900x500 to 900x1100 and "
           "1280x720\n",
           checked);
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    tn_world_destroy(w);
    rig_close(&k);
}

/* The wheel over a slider's row moves its value one step a notch (a
 * 52 px track at 900x500 moved the companion's speed 8 px/s a pixel, and
 * the wheel zoomed nothing there), up to its range's end; below the sliders it
 * changes nothing. */
static void test_slider_wheel_steps(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    int n;
    const tn_param_info *pi = tn_world_params(&n);
    const int sizes[][2] = {{900, 500}, {1280, 720}};
    for (int z = 0; z < 2; z++) {
        tn_ui_set_size(sizes[z][0], sizes[z][1]);
        for (int i = 0; i < n; i++) {
            double before, got;
            if (!tn_world_get(w, pi[i].name, &before)) continue;
            tn_ui_slider_box b;
            tn_ui_slider_geom(i, n, &b);
            tn_view v;
            tn_view_init(&v, w, 0);
            SDL_Event e = {0};
            e.type = SDL_MOUSEWHEEL;
            const int x = b.label.x + 4, y = b.row.y + b.row.h / 2;
            /* from the range's low end: two notches up, one down */
            tn_error err;
            tn_world_set(w, pi[i].name, pi[i].min, &err);
            double lo;
            assert_true(tn_world_get(w, pi[i].name, &lo));
            const int notches[] = {1, 1, -1};
            got = lo;
            for (int k = 0; k < 3; k++) {
                const double prev = got;
                e.wheel.y = notches[k];
                assert_true(tn_ui_panel_mouse(&v, w, &e, x, y));
                assert_true(tn_world_get(w, pi[i].name, &got));
                if (notches[k] > 0 ? !(got > prev || got == pi[i].max) : !(got < prev))
                    fail_msg("%dx%d %s: a wheel notch %+d at (%d,%d) moved %g to %g", sizes[z][0],
                             sizes[z][1], pi[i].name, notches[k], x, y, prev, got);
            }
            /* one notch is one step: up and down again lands where it was */
            e.wheel.y = -5;
            for (int k = 0; k < 4; k++) tn_ui_panel_mouse(&v, w, &e, x, y);
            assert_true(tn_world_get(w, pi[i].name, &got));
            if (got != lo) fail_msg("%s: the wheel down stops at %g, not %g", pi[i].name, got, lo);
            /* between the sliders and the overlays: nothing */
            tn_ui_slider_box last;
            tn_ui_slider_geom(n - 1, n, &last);
            e.wheel.y = 1;
            tn_ui_panel_mouse(&v, w, &e, x, last.row.y + last.row.h + 40);
            assert_true(tn_world_get(w, pi[i].name, &got));
            assert_true(got == lo);
            tn_world_set(w, pi[i].name, before, &err);
        }
    }
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    tn_world_destroy(w);
}

/* The map picker says when its list goes on past the rows it shows, and
 * which way, as the help does (a folder of 30 maps showed 20 rows and
 * nothing more); a list that fits says nothing.  The hint is drawn under
 * the rows, inside the picker's box. */
static void test_picker_more_hint(void **state)
{
    (void)state;
    static const char *items[30];
    for (int i = 0; i < 30; i++) items[i] = "maps/demo.map";
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    v.picker_items = items;
    v.picker_count = 30;
    v.picker_top = 0;
    assert_string_equal(tn_ui_picker_hint(&v), "10 more below: Down");
    v.picker_top = 4;
    assert_string_equal(tn_ui_picker_hint(&v), "4 more above, 6 below: Up / Down");
    v.picker_top = 10;
    assert_string_equal(tn_ui_picker_hint(&v), "10 more above: Up");
    v.picker_count = 21, v.picker_top = 1;
    assert_string_equal(tn_ui_picker_hint(&v), "1 more above: Up");
    v.picker_count = 20, v.picker_top = 0;
    assert_null(tn_ui_picker_hint(&v));
    v.picker_count = 0;
    assert_null(tn_ui_picker_hint(&v));
    /* drawn: the hint's text under the last row, inside the box; the last
     * row still picks its item, the hint's line none */
    v.picker_count = 30, v.picker_top = 0, v.picker_sel = 0;
    SDL_Surface *s = shoot_view(w, &v);
    const int last_y = tn_ui_picker_row_y(&v, TN_PICKER_ROWS - 1);
    int hint_px = 0;
    for (int y = last_y + 24; y < last_y + 46; y++)
        for (int x = 0; x < TN_VIEW_W; x++) hint_px += pixel(s, x, y) == (TN_COL_TEXT_DIM >> 8);
    SDL_FreeSurface(s);
    printf("  picker hint: %d px of text under the last row\n", hint_px);
    assert_true(hint_px > 20);
    assert_int_equal(tn_ui_picker_hit(&v, TN_VIEW_W / 2, last_y + 10), TN_PICKER_ROWS - 1);
    assert_int_equal(tn_ui_picker_hit(&v, TN_VIEW_W / 2, last_y + 34), -1);
    tn_world_destroy(w);
}

/* A slider's value names its unit in the singular for a whole 1 alone:
 * "1 tile", but "1.0 tiles" and "1.00 tiles" (the agent radius's right end
 * read "1.00 tile"), and a rate keeps its "/s". */
static void test_param_value_units(void **state)
{
    (void)state;
    const struct {
        const char *name;
        double v;
        const char *want;
    } cases[] = {{"char_width", 1, "1 tile"},       {"char_width", 2, "2 tiles"},
                 {"jump_height", 1, "1.0 tiles"},   {"jump_height", 4, "4.0 tiles"},
                 {"agent_radius", 1, "1.00 tiles"}, {"agent_radius", 0.31, "0.31 tiles"},
                 {"spawn_rate", 1, "1.0 /s"},       {"planner", 1, "graph"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const tn_param_info *p = tn_world_param_find(cases[c].name);
        assert_non_null(p);
        char out[64];
        tn_ui_param_value(p, cases[c].v, out, sizeof out);
        if (strcmp(out, cases[c].want) != 0)
            fail_msg("%s = %g: \"%s\", not \"%s\"", cases[c].name, cases[c].v, out, cases[c].want);
    }
}

/* A fast drag of a slider whose top values are refused stops at the last
 * value that has room, as a slow drag does: Char height dragged from 2 to
 * the track's end in one motion (2 -> 7 -> 9, 9 refused) stayed at 7 under
 * a ceiling that left room for 8. */
static void test_slider_fast_drag_stops_at_room(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    const tn_body *b = tn_world_character(w);
    const int cx = (int)(b->x / 16), bottom = (int)((b->y + (float)b->h * 16) / 16) - 1;
    /* a ceiling 8 tiles over the floor the character stands on */
    assert_true(tn_succeeded(tn_world_edit(w, cx, bottom - 8, TN_EDIT_BLOCK, NULL)));
    tn_view v;
    tn_view_init(&v, w, 0);
    int n, k = -1;
    const tn_param_info *pi = tn_world_params(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(pi[i].name, "char_height") == 0) k = i;
    assert_true(k >= 0);
    tn_ui_slider_box sb;
    tn_ui_slider_geom(k, n, &sb);
    const int x0 = sb.x0, x1 = sb.x1, ty = sb.y;
    const double lo = pi[k].min, hi = pi[k].max;
#define AT(val) (x0 + (int)(((val)-lo) / (hi - lo) * (x1 - x0) + 0.5))
    SDL_Event e = {0};
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = AT(2), e.button.y = ty;
    assert_true(tn_ui_panel_mouse(&v, w, &e, e.button.x, e.button.y));
    assert_int_equal(v.drag_slider, k);
    const double path[] = {7, hi};
    for (int i = 0; i < 2; i++) {
        e = (SDL_Event){0};
        e.type = SDL_MOUSEMOTION;
        e.motion.state = SDL_BUTTON_LMASK;
        e.motion.x = AT(path[i]), e.motion.y = ty;
        tn_ui_panel_mouse(&v, w, &e, e.motion.x, e.motion.y);
    }
#undef AT
    double h = 0;
    assert_true(tn_world_get(w, "char_height", &h));
    printf("  char height after a fast drag to %g: %g\n", hi, h);
    assert_int_equal((int)h, 8);
    assert_non_null(strstr(tn_world_message_text(w), "it stays 1x8"));
    tn_world_hold_graph_builds(w, false);
    tn_world_destroy(w);
}

/* A click on an overlay's checkbox in the panel says what it did, as its
 * key does ("overlay path: on"); it said nothing (a playtest). */
static void test_overlay_click_says_so(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    for (int i = 0; i < TN_OVERLAY_COUNT; i++) {
        SDL_Event e = {0};
        e.type = SDL_MOUSEBUTTONDOWN;
        e.button.button = SDL_BUTTON_LEFT;
        tn_ui_overlay_center(i, &e.button.x, &e.button.y);
        assert_true(tn_ui_panel_mouse(&v, w, &e, e.button.x, e.button.y));
        assert_true(v.overlays & tn_overlays[i].bit);
        char want[96];
        snprintf(want, sizeof want, "overlay %s: on", tn_overlays[i].label);
        if (strncmp(tn_world_message_text(w), want, strlen(want)) != 0)
            fail_msg("clicked %s: status '%s'", tn_overlays[i].label, tn_world_message_text(w));
        assert_true(tn_ui_panel_mouse(&v, w, &e, e.button.x, e.button.y));
        assert_false(v.overlays & tn_overlays[i].bit);
        snprintf(want, sizeof want, "overlay %s: off", tn_overlays[i].label);
        assert_string_equal(tn_world_message_text(w), want);
    }
    tn_world_destroy(w);
}

/* The map picker over the map view as it is: with the HUD collapsed (H)
 * the view starts under the top bar, and the picker dims all of it and is
 * centred in it (a playtest: a band of the map where the HUD would be
 * stayed bright above the dimmed rest, the box centred lower).  At
 * 1280x720 and at 900x500; its rows are hit where they are drawn. */
static void test_picker_hud_collapsed(void **state)
{
    (void)state;
    static const char *items[4] = {"a.map", "b.map", "c.map", "d.map"};
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    v.picker_items = items;
    v.picker_count = 4, v.picker_sel = 0, v.picker_top = 0, v.picker_current = -1;
    v.hud_hidden = true;
    gfx_rig k;
    rig_open(&k);
    const int sizes[][2] = {{TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H}, {900, 500}};
    for (int z = 0; z < 2; z++) {
        tn_ui_set_size(sizes[z][0], sizes[z][1]);
        SDL_SetRenderDrawColor(k.r, 0, 0, 0, 255);
        SDL_RenderClear(k.r);
        tn_ui_picker_draw(&k.g, &v);
        SDL_RenderPresent(k.r);
        const uint32_t *px = k.surf->pixels;
        const int pitch = k.surf->pitch / 4;
        long bright = 0, out = 0;
        const int y0 = tn_view_y(&v), y1 = y0 + tn_view_h(&v);
        assert_int_equal(y0, TN_BAR_H);
        for (int y = 0; y < TN_FRAME_H; y++)
            for (int x = 0; x < TN_FRAME_W; x++) {
                const bool in = x < TN_VIEW_W && y >= y0 && y < y1,
                           lit = (px[y * pitch + x] & 0xffffffu) != 0;
                out += !in && lit;
                bright += in && !lit; /* not dimmed */
            }
        if (bright || out)
            fail_msg("%dx%d, HUD collapsed: %ld px of the map view not dimmed, %ld px outside it",
                     sizes[z][0], sizes[z][1], bright, out);
        /* centred: the box's row 0 is hit where drawn, as far from the
         * view's top as its bottom is from the view's bottom */
        const int r0 = tn_ui_picker_row_y(&v, 0);
        assert_int_equal(tn_ui_picker_hit(&v, TN_VIEW_W / 2, r0 + 10), 0);
        const int box_h = 4 * 24 + 64, box_y = r0 - 48;
        printf("  %dx%d: view %d..%d, box %d..%d\n", sizes[z][0], sizes[z][1], y0, y1, box_y,
               box_y + box_h);
        assert_true(abs((box_y - y0) - (y1 - box_y - box_h)) <= 1);
    }
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    rig_close(&k);
    tn_world_destroy(w);
}

/* The map picker stays inside the map view in a small window's frame: at
 * 900x500 its 20 rows made a box 566 px high over a view of 356, running
 * over the HUD, the top bar and the status line, and its last rows and the
 * "more below" hint were drawn under them.  Now it shows the rows that fit
 * (11), scrolls by them, and draws nothing outside the view; 1280x720
 * keeps its 20. */
static void test_picker_fits_small_frame(void **state)
{
    (void)state;
    static const char *items[30];
    for (int i = 0; i < 30; i++) items[i] = "maps/demo.map";
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    v.picker_items = items;
    v.picker_count = 30, v.picker_sel = 0, v.picker_top = 0, v.picker_current = -1;
    assert_int_equal(tn_ui_picker_rows(30), TN_PICKER_ROWS);
    assert_int_equal(tn_ui_picker_rows(3), 3);
    gfx_rig k;
    rig_open(&k);
    tn_ui_set_size(900, 500);
    const int rows = tn_ui_picker_rows(30);
    printf("  900x500 picker: %d rows\n", rows);
    assert_int_equal(rows, 11);
    assert_int_equal(tn_ui_picker_rows(5), 5);
    assert_string_equal(tn_ui_picker_hint(&v), "19 more below: Down");
    for (int sel = 0; sel <= 29; sel += 29) {
        v.picker_sel = sel;
        tn_ui_picker_scroll(&v);
        assert_int_equal(v.picker_top, sel ? 30 - rows : 0);
        SDL_SetRenderDrawColor(k.r, 0, 0, 0, 255);
        SDL_RenderClear(k.r);
        tn_ui_picker_draw(&k.g, &v);
        SDL_RenderPresent(k.r);
        long out = 0;
        const uint32_t *px = k.surf->pixels;
        const int pitch = k.surf->pitch / 4;
        for (int y = 0; y < TN_GAME_LOGICAL_H; y++)
            for (int x = 0; x < TN_GAME_LOGICAL_W; x++) {
                bool in = x < TN_VIEW_W && y >= TN_VIEW_Y && y < TN_VIEW_Y + TN_VIEW_H;
                out += !in && (px[y * pitch + x] & 0xffffffu) != 0;
            }
        if (out) fail_msg("900x500 picker (selected %d): %ld px outside the map view", sel, out);
        /* the last row shown picks the last map shown; under it, nothing */
        const int last_y = tn_ui_picker_row_y(&v, rows - 1);
        assert_true(last_y + 24 + 22 <= TN_VIEW_Y + TN_VIEW_H);
        assert_int_equal(tn_ui_picker_hit(&v, TN_VIEW_W / 2, last_y + 10), v.picker_top + rows - 1);
        assert_int_equal(tn_ui_picker_hit(&v, TN_VIEW_W / 2, last_y + 34), -1);
    }
    assert_string_equal(tn_ui_picker_hint(&v), "19 more above: Up");
    /* a window made larger again: 20 rows, none left empty at the bottom */
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    assert_string_equal(tn_ui_picker_hint(&v), "10 more above: Up");
    assert_int_equal(tn_ui_picker_hit(&v, TN_VIEW_W / 2, tn_ui_picker_row_y(&v, 0) + 10), 10);
    rig_close(&k);
    tn_world_destroy(w);
}

/* F1's help in a small window's frame (1:1, 900x500 or 1024x600) draws
 * nothing right of the frame: the mouse column, the notes and the hint
 * beside the title ran past it ("pin an agent's inspect ca", "see READM").
 * Drawn into a 1280 px wide surface, every pixel right of the frame stays
 * black, at the top and scrolled to the bottom. */
/* The help says when it does not fit and scrolls, and which way (at
 * 900x500 the keys after O, the mouse and half the legend were cut off with
 * nothing saying so); in a frame it fits, nothing. */
static void test_help_scroll_hint(void **state)
{
    (void)state;
    tn_ui_set_size(900, 500);
    int max = tn_ui_help_scroll_max();
    assert_true(max > 0);
    assert_string_equal(tn_ui_help_hint(0), "more below: wheel or Down");
    assert_string_equal(tn_ui_help_hint(max / 2), "more above and below: wheel or Up / Down");
    assert_string_equal(tn_ui_help_hint(max), "more above: wheel or Up");
    assert_string_equal(tn_ui_help_hint(max + 300), "more above: wheel or Up");
    tn_ui_set_size(1024, 600);
    assert_non_null(tn_ui_help_hint(0));
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    assert_int_equal(tn_ui_help_scroll_max(), 0);
    assert_null(tn_ui_help_hint(0));
}

static void test_help_fits_small_frames(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    const int size[][2] = {{900, 500}, {1024, 600}};
    for (int f = 0; f < 2; f++) {
        tn_ui_set_size(size[f][0], size[f][1]);
        for (int scroll = 0; scroll <= 700; scroll += 700) {
            SDL_SetRenderDrawColor(k.r, 0, 0, 0, 255);
            SDL_RenderClear(k.r);
            tn_ui_help_draw(&k.g, scroll);
            SDL_RenderPresent(k.r);
            long lit = 0;
            const uint32_t *px = k.surf->pixels;
            int pitch = k.surf->pitch / 4;
            for (int y = 0; y < size[f][1]; y++)
                for (int x = size[f][0]; x < TN_GAME_LOGICAL_W; x++)
                    lit += (px[y * pitch + x] & 0xffffffu) != 0;
            if (lit)
                fail_msg("%dx%d help (scroll %d): %ld px drawn right of the frame", size[f][0],
                         size[f][1], scroll, lit);
        }
    }
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    rig_close(&k);
}

/* The help's "more below" hint never covers a line: in a frame too low
 * for the help, the rows beside the hint's box hold nothing but one
 * colour (the row kept for it), at the top, half way and at the bottom of
 * the scroll (a playtest at 900x500: the box hid two legend lines and the
 * key O's); the help's bottom edge, scrolled to the end, is above it. */
static void test_help_hint_own_row(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    const int size[][2] = {{900, 500}, {1024, 600}};
    const uint32_t HINT_BG = 0x2a5f78u, EDGE = TN_COL_PANEL_EDGE >> 8;
    for (int f = 0; f < 2; f++) {
        const int W = size[f][0], H = size[f][1];
        tn_ui_set_size(W, H);
        const int max = tn_ui_help_scroll_max();
        assert_true(max > 0);
        for (int scroll = 0; scroll <= max; scroll += max / 2) {
            SDL_SetRenderDrawColor(k.r, 0, 0, 0, 255);
            SDL_RenderClear(k.r);
            tn_ui_help_draw(&k.g, scroll);
            SDL_RenderPresent(k.r);
            const uint32_t *px = k.surf->pixels;
            const int pitch = k.surf->pitch / 4;
            /* the hint's box: its fill's rows and left end, on the frame's right */
            int y0 = -1, y1 = -1, x0 = W;
            for (int y = 0; y < H; y++)
                for (int x = W / 2; x < W; x++)
                    if ((px[y * pitch + x] & 0xffffffu) == HINT_BG) {
                        if (y0 < 0) y0 = y;
                        y1 = y;
                        if (x < x0) x0 = x;
                    }
            if (y0 < 0) fail_msg("%dx%d scroll %d: no hint box", W, H, scroll);
            x0 -= 2; /* its frame; and the help's left edge, x 0..1, left out */
            const uint32_t bg = px[y0 * pitch + 2] & 0xffffffu;
            for (int y = y0; y <= y1; y++)
                for (int x = 2; x < x0; x++)
                    if ((px[y * pitch + x] & 0xffffffu) != bg)
                        fail_msg("%dx%d scroll %d: pixel (%d,%d) #%06x beside the hint box "
                                 "(rows %d..%d): the help is drawn there",
                                 W, H, scroll, x, y, (unsigned)(px[y * pitch + x] & 0xffffffu), y0,
                                 y1);
            if (scroll == max) { /* the help's last row is above the hint's */
                int bottom = -1;
                for (int y = 0; y < H; y++)
                    if ((px[y * pitch + 300] & 0xffffffu) == EDGE &&
                        (px[y * pitch + 301] & 0xffffffu) == EDGE)
                        bottom = y; /* (the row's own top edge is the last) */
                assert_true(bottom >= 0);
                int box_bottom = -1;
                for (int y = 0; y < bottom; y++)
                    if ((px[y * pitch + 300] & 0xffffffu) == EDGE) box_bottom = y;
                printf("  %dx%d: scrolled to %d px, the help ends at y %d, the hint's row from "
                       "y %d, its box %d..%d\n",
                       W, H, max, box_bottom, bottom, y0, y1);
                assert_true(box_bottom >= 0 && box_bottom < y0);
            }
            if (max / 2 == 0) break;
        }
    }
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    rig_close(&k);
}

/* The top bar's replay labels never overlap: at every replay speed
 * (10,000/s ran into the progress, "10000/s305/305") and for every
 * progress text, the progress starts after the rate label and ends before
 * the HUD button. */
static void test_bar_labels_apart(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    static tn_playback p;
    assert_int_equal(tn_playback_init(&p), 0);
    v.pb = &p;
    static const int COUNTS[] = {0, 305, 4490, 99999, 1000000};
    for (int ri = 0; ri < TN_PB_RATES; ri++) {
        for (int c = 0; c < (int)(sizeof COUNTS / sizeof COUNTS[0]); c++) {
            for (int active = 0; active < 2; active++) {
                p.speed = ri;
                p.trace.count = COUNTS[c];
                p.shown = (double)COUNTS[c];
                p.active = active != 0;
                tn_bar_labels lb;
                tn_ui_bar_labels(&k.g, &v, &lb);
                assert_true(lb.show_prog);
                int rate_end = lb.rate_box.x + lb.rate_box.w;
                if (lb.prog_box.x < rate_end + 6 ||
                    lb.prog_box.x + lb.prog_box.w > lb.hud_box.x - 4)
                    fail_msg("rate \"%s\" ends at %d, progress \"%s\" spans %d..%d, HUD at %d",
                             lb.rate, rate_end, lb.prog, lb.prog_box.x,
                             lb.prog_box.x + lb.prog_box.w, lb.hud_box.x);
            }
        }
    }
    /* a compact bar (1:1 windows of 1000x700, 1024x600 and 900x500): the
     * rate label ends before the HUD button ("10000/" and the button over
     * the "s"); the progress shows after the button, inside the map view,
     * whenever it fits (always from 1000 px: the reviewer's 1000x700 bar
     * hid "305/305") */
    const int size[][2] = {{1000, 700}, {1024, 600}, {900, 500}};
    for (int f = 0; f < 3; f++) {
        tn_ui_set_size(size[f][0], size[f][1]);
        for (int ri = 0; ri < TN_PB_RATES; ri++)
            for (int c = 0; c < (int)(sizeof COUNTS / sizeof COUNTS[0]); c++)
                for (int active = 0; active < 2; active++) {
                    p.speed = ri;
                    p.trace.count = COUNTS[c];
                    p.shown = (double)COUNTS[c] / 2;
                    p.active = active != 0;
                    tn_bar_labels lb;
                    tn_ui_bar_labels(&k.g, &v, &lb);
                    if (lb.rate_box.x + lb.rate_box.w > lb.hud_box.x - 2)
                        fail_msg("%dx%d: rate \"%s\" ends at %d, HUD at %d", size[f][0], size[f][1],
                                 lb.rate, lb.rate_box.x + lb.rate_box.w, lb.hud_box.x);
                    /* shown at every size: at 900x500 "100%", "ready (E)" and "no
                     * search" had no room after the HUD button and were never
                     * drawn; they go to the panel's title row, after "tilenav" */
                    if (!lb.show_prog)
                        fail_msg("%dx%d: progress \"%s\" hidden", size[f][0], size[f][1], lb.prog);
                    const int title_end =
                        TN_VIEW_W + 14 + tn_gfx_text_width(&k.g, TN_FONT_TITLE, "tilenav");
                    if (lb.in_panel &&
                        (lb.prog_box.x < title_end + 8 ||
                         lb.prog_box.x + lb.prog_box.w > TN_FRAME_W - 4 || lb.prog_box.y < 1 ||
                         lb.prog_box.y + lb.prog_box.h > TN_BAR_H - 1))
                        fail_msg("%dx%d: progress \"%s\" in the panel spans %d..%d, y %d..%d, "
                                 "title ends at %d",
                                 size[f][0], size[f][1], lb.prog, lb.prog_box.x,
                                 lb.prog_box.x + lb.prog_box.w, lb.prog_box.y,
                                 lb.prog_box.y + lb.prog_box.h, title_end);
                    if (size[f][0] >= 1000 && lb.in_panel)
                        fail_msg("%dx%d: progress \"%s\" moved to the panel", size[f][0],
                                 size[f][1], lb.prog);
                    if (!lb.in_panel && (lb.prog_box.x < lb.hud_box.x + lb.hud_box.w + 6 ||
                                         lb.prog_box.x + lb.prog_box.w > TN_VIEW_W - 4))
                        fail_msg("%dx%d: progress \"%s\" spans %d..%d, HUD ends at %d, view "
                                 "at %d",
                                 size[f][0], size[f][1], lb.prog, lb.prog_box.x,
                                 lb.prog_box.x + lb.prog_box.w, lb.hud_box.x + lb.hud_box.w,
                                 TN_VIEW_W);
                }
    }
    tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    /* a classic search on a map above 256x256 is not recorded: the bar
     * says why, at every replay speed, between the rate and the HUD
     * button (its "none above 256x256" was wider than the room there and
     * was never drawn: the bar showed nothing at all) */
    p.trace.count = 0;
    p.shown = 0;
    p.active = false;
    p.none = "none above 256x256";
    for (int ri = 0; ri < TN_PB_RATES; ri++) {
        p.speed = ri;
        tn_bar_labels lb;
        tn_ui_bar_labels(&k.g, &v, &lb);
        char both[100];
        snprintf(both, sizeof both, "%s%s%s", lb.prog, lb.prog2[0] ? " " : "", lb.prog2);
        if (!lb.show_prog || strcmp(both, p.none) != 0)
            fail_msg("rate \"%s\": the reason \"%s\" is %s", lb.rate, both,
                     lb.show_prog ? "shown cut" : "not shown");
        if (lb.prog_box.y < 1 || lb.prog_box.y + lb.prog_box.h > TN_BAR_H - 1)
            fail_msg("\"%s\" spans y %d..%d of a %d px bar", both, lb.prog_box.y,
                     lb.prog_box.y + lb.prog_box.h, TN_BAR_H);
        int rate_end = lb.rate_box.x + lb.rate_box.w;
        if (lb.prog_box.x < rate_end + 6 || lb.prog_box.x + lb.prog_box.w > lb.hud_box.x - 4)
            fail_msg("rate \"%s\" ends at %d, \"%s\" spans %d..%d, HUD at %d", lb.rate, rate_end,
                     lb.prog, lb.prog_box.x, lb.prog_box.x + lb.prog_box.w, lb.hud_box.x);
    }
    p.none = NULL;
    /* the hold button: "Hold" / "Play" with X on; with X off the replay
     * waits for X and the button says so (it offered "Hold" as if playing) */
    p.trace.count = 305;
    p.shown = 120;
    p.active = true;
    static const struct {
        unsigned ov;
        bool paused;
        const char *hold, *key;
    } HOLD[] = {{TN_OVERLAY_EXPLORED, false, "Hold",
                 "\xe2\x87\xa7"
                 "E"},
                {TN_OVERLAY_EXPLORED, true, "Play",
                 "\xe2\x87\xa7"
                 "E"},
                {TN_OVERLAY_PATH, false, "X off", "X"},
                {TN_OVERLAY_PATH, true, "X off", "X"}};
    for (int i = 0; i < 4; i++) {
        v.overlays = HOLD[i].ov;
        p.paused = HOLD[i].paused;
        tn_bar_labels lb;
        tn_ui_bar_labels(&k.g, &v, &lb);
        assert_string_equal(lb.hold, HOLD[i].hold);
        assert_string_equal(lb.hold_key, HOLD[i].key);
    }
    p.trace.count = 0;
    p.shown = 0;
    p.active = false;
    p.paused = false;
    tn_playback_free(&p);
    tn_world_destroy(w);
    rig_close(&k);
}

/* A goto made with the explored overlay off records its search without
 * playing it: the bar said "done", as if a replay had run; it says the
 * search waits for E, and E plays it from 0. */
static void test_bar_unplayed_search(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    static tn_playback p;
    assert_int_equal(tn_playback_init(&p), 0);
    v.pb = &p;
    tn_bar_labels lb;
    tn_ui_bar_labels(&k.g, &v, &lb);
    assert_string_equal(lb.prog, "no search");
    for (int f = 0; f < 30; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 47, 20, NULL)));
    tn_world_step(w);
    tn_path *finder = NULL;
    v.overlays = TN_OVERLAY_PATH; /* X off */
    tn_playback_watch(&p, &finder, w, v.overlays);
    assert_true(p.trace.count > 0);
    assert_false(p.active);
    tn_ui_bar_labels(&k.g, &v, &lb);
    printf("  X off after the goto: \"%s\"\n", lb.prog);
    assert_string_equal(lb.prog, "ready (E)");
    assert_true(tn_playback_control(&p, w, &v.overlays, TN_PB_REPLAY));
    tn_ui_bar_labels(&k.g, &v, &lb);
    char want[32];
    snprintf(want, sizeof want, "0/%d", p.trace.count);
    assert_string_equal(lb.prog, want);
    tn_path_destroy(finder);
    tn_playback_free(&p);
    tn_world_destroy(w);
    rig_close(&k);
}

/* A search larger than the replay's buffer keeps its first events (a
 * classic search stopped by the 65,536-state limit on a 256x256 map made
 * 133,933, the buffer holds 131,072): the bar counted the kept ones only
 * ("131072/131072" at the end, as if the replay had shown all of it, the
 * HUD beside it saying 65536 states) and nothing said the end was cut.
 * The bar counts the search's events, and E says how many are kept.  A
 * buffer of 100 events stands for the real one here. */
static void test_bar_search_cut(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_world_set(w, "planner", 0, NULL); /* classic: pushes and expansions */
    tn_view v;
    tn_view_init(&v, w, 0);
    static tn_playback p;
    assert_int_equal(tn_playback_init(&p), 0);
    tn_trace_init(&p.trace, p.buf, 100);
    v.pb = &p;
    v.overlays = TN_OVERLAY_EXPLORED;
    for (int f = 0; f < 30; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 47, 20, NULL)));
    tn_world_step(w);
    tn_path *finder = NULL;
    tn_playback_watch(&p, &finder, w, v.overlays);
    assert_int_equal(p.trace.count, 100);
    assert_true(p.trace.dropped > 0);
    const long total = 100 + p.trace.dropped;
    p.shown = 100; /* played to the end of what is kept */
    tn_bar_labels lb;
    tn_ui_bar_labels(&k.g, &v, &lb);
    char want[80];
    snprintf(want, sizeof want, "100/%ld", total);
    printf("  the bar at the end of the kept events: \"%s\"\n", lb.prog);
    assert_string_equal(lb.prog, want);
    assert_true(tn_playback_control(&p, w, &v.overlays, TN_PB_REPLAY));
    const char *msg = tn_world_message_text(w);
    printf("  E: %s\n", msg);
    snprintf(want, sizeof want, "the first 100 of the search's %ld events", total);
    if (!strstr(msg, want)) fail_msg("E said: %s", msg);
    tn_path_destroy(finder);
    tn_trace_init(&p.trace, p.buf, TN_PLAYBACK_EVENTS);
    tn_playback_free(&p);
    tn_world_destroy(w);
    rig_close(&k);
}

/* The navmesh overlay at the smallest zoom on a large map: its clearance
 * circles (one at each convex corner, 0.6 px across at 1/8x) were rings
 * of 10 quads, 60 vertices each, every one a blended triangle fill in
 * SDL's software renderer: about 800 ms of the 1 s frame of a 512x512
 * Moving AI map (4 fps in the window).  A circle under 1.5 px on screen
 * is now one dot (a batched rectangle), and a thin ring in the software
 * renderer one polyline (as thin lines are): the overlay queues the
 * mesh's fills and no triangles per corner. */
static void test_navmesh_overlay_small_zoom_cheap(void **state)
{
    (void)state;
    tn_map *m = NULL;
    tn_error e;
    assert_true(tn_succeeded(tn_map_create(256, 256, NULL, &m, &e)));
    int corners = 0;
    for (int y = 4; y < 256; y += 6) /* pillars of 2x2: 4 convex corners each */
        for (int x = 3 + (y / 6) % 3; x + 1 < 256; x += 6, corners += 4)
            for (int k = 0; k < 4; k++)
                assert_true(tn_succeeded(tn_map_set_tile(m, x + k % 2, y + k / 2, 1, &e)));
    tn_world_config cfg = tn_world_default_config();
    tn_world *w = NULL;
    if (tn_failed(tn_world_create(m, &cfg, NULL, &w, &e))) fail_msg("%s", e.msg);
    gfx_rig k;
    rig_open(&k);
    tn_navmesh_view mv;
    tn_navmesh_get_view(tn_wnav_mesh(w), &mv);
    long fills = 3L * mv.ntris;
    for (int zoom = 0; zoom < 2; zoom++) { /* 1/8x: dots; 1/4x: rings of 2.5 px */
        long verts[2], rects[2];
        for (int o = 0; o < 2; o++) {
            unsigned ov = o ? TN_OVERLAY_NAVMESH : 0;
            tn_view v;
            tn_view_init(&v, w, ov);
            v.zoom = zoom;
            tn_world_prepare(w, ov);
            long v0 = k.g.verts, r0 = k.g.rects_drawn;
            tn_render_scene(&k.g, w, &v);
            verts[o] = k.g.verts - v0;
            rects[o] = k.g.rects_drawn - r0;
        }
        long extra = verts[1] - verts[0], dots = rects[1] - rects[0];
        printf("  %gx, %d triangles: the overlay queued %ld vertices (fills %ld), %ld "
               "rectangles\n",
               (double)tn_zoom_levels[zoom], mv.ntris, extra, fills, dots);
        if (extra > fills + fills / 10)
            fail_msg("the navmesh overlay at %gx queued %ld vertices for %d triangles (%ld for "
                     "their fills): the clearance circles are drawn as rings of quads",
                     (double)tn_zoom_levels[zoom], extra, mv.ntris, fills);
        if (zoom == 0 && dots < corners) fail_msg("%ld dots for %d corners", dots, corners);
    }
    rig_close(&k);
    tn_world_destroy(w);
}

/* tn_clip_poly_rect against a naive test: on a grid of sample points, a
 * point is inside the clipped polygon exactly when it is inside both the
 * triangle and the rectangle (off-screen parts dropped, on-screen kept). */
static bool in_poly(const float *x, const float *y, int n, float px, float py)
{
    if (n < 3) return false;
    float area = 0;
    for (int i = 0; i < n; i++) area += x[i] * y[(i + 1) % n] - x[(i + 1) % n] * y[i];
    if (area * area < 1e-4f) return false; /* a point or a line covers nothing */
    bool pos = false, neg = false;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        float c = (x[j] - x[i]) * (py - y[i]) - (y[j] - y[i]) * (px - x[i]);
        pos |= c > 1e-3f;
        neg |= c < -1e-3f;
    }
    return !(pos && neg);
}

static void test_clip_poly_rect(void **state)
{
    (void)state;
    srand(7);
    const float X0 = 10, Y0 = 20, X1 = 110, Y1 = 80;
    for (int t = 0; t < 300; t++) {
        float x[9], y[9], ox[9], oy[9], tx[3], ty[3];
        for (int i = 0; i < 3; i++) {
            tx[i] = x[i] = (float)(rand() % 400) - 140.0f;
            ty[i] = y[i] = (float)(rand() % 300) - 100.0f;
        }
        int n = tn_clip_poly_rect(x, y, 3, ox, oy, X0, Y0, X1, Y1);
        assert_true(n == 0 || (n >= 3 && n <= 9));
        for (int i = 0; i < n; i++) { /* nothing off the rectangle */
            assert_true(x[i] >= X0 - 1e-3f && x[i] <= X1 + 1e-3f);
            assert_true(y[i] >= Y0 - 1e-3f && y[i] <= Y1 + 1e-3f);
        }
        for (float py = -100.5f; py < 200; py += 3)
            for (float px = -140.5f; px < 260; px += 3) {
                bool naive = px > X0 && px < X1 && py > Y0 && py < Y1 && in_poly(tx, ty, 3, px, py);
                bool near_edge = false; /* skip points on an edge (rounding) */
                for (int i = 0; i < 3; i++) {
                    int j = (i + 1) % 3;
                    float ex = tx[j] - tx[i], ey = ty[j] - ty[i];
                    float c = ex * (py - ty[i]) - ey * (px - tx[i]);
                    near_edge |= c * c < 0.25f * (ex * ex + ey * ey);
                }
                if (near_edge) continue;
                if (naive != in_poly(x, y, n, px, py))
                    fail_msg("triangle %d: point (%g,%g) %s the triangle's visible part", t,
                             (double)px, (double)py, naive ? "in" : "not in");
            }
    }
    float x[9] = {0, 5, 0}, y[9] = {0, 0, 5}, ox[9], oy[9]; /* wholly off: nothing */
    assert_int_equal(tn_clip_poly_rect(x, y, 3, ox, oy, X0, Y0, X1, Y1), 0);
    float a[9] = {20, 60, 30}, b[9] = {30, 40, 70}; /* wholly inside: itself */
    assert_int_equal(tn_clip_poly_rect(a, b, 3, ox, oy, X0, Y0, X1, Y1), 3);
    assert_true(a[0] == 20 && b[0] == 30 && a[1] == 60 && b[2] == 70);
}

/* Pixels of a 64x64 ARGB surface that are not black. */
static int lit(SDL_Surface *s, uint8_t *mask)
{
    int n = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint32_t p = ((uint32_t *)((char *)s->pixels + y * s->pitch))[x] & 0xffffffu;
            mask[y * 64 + x] = p != 0;
            n += p != 0;
        }
    return n;
}

/* Small translucent triangles and short thin lines in the software
 * renderer are drawn as batched rectangles (tn_gfx_tri, tn_gfx_line):
 * against SDL's own fill and line (the naive way, a surface or a call per
 * shape), the same pixels within one or two on the shape's edges, and no
 * vertices queued. */
static void test_small_shapes_as_rects(void **state)
{
    (void)state;
    SDL_Surface *a = SDL_CreateRGBSurfaceWithFormat(0, 64, 64, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Surface *b = SDL_CreateRGBSurfaceWithFormat(0, 64, 64, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *ra = SDL_CreateSoftwareRenderer(a), *rb = SDL_CreateSoftwareRenderer(b);
    assert_non_null(ra);
    assert_non_null(rb);
    tn_gfx g;
    memset(&g, 0, sizeof g); /* no fonts needed: the batches only */
    g.r = ra;
    g.software = true;
    g.cap = 3 * 64;
    g.rect_cap = 64;
    g.vert = SDL_malloc(sizeof *g.vert * (size_t)g.cap);
    g.rects = SDL_malloc(sizeof *g.rects * (size_t)g.rect_cap);
    srand(11);
    uint8_t ma[64 * 64], mb[64 * 64];
    int worst = 0, shapes = 0;
    for (int t = 0; t < 400; t++) {
        bool line = t % 2;
        SDL_FillRect(a, NULL, 0);
        SDL_FillRect(b, NULL, 0);
        float x[3], y[3];
        for (int i = 0; i < 3; i++) { /* within 7 px of (30, 30): small */
            x[i] = 30.0f + (float)(rand() % 700) / 100.0f;
            y[i] = 30.0f + (float)(rand() % 700) / 100.0f;
        }
        if (t % 10 == 1) y[1] = y[0]; /* axis-aligned lines: one rectangle */
        if (t % 10 == 3) x[1] = x[0];
        if (t % 10 == 5) x[1] = x[0] + 40; /* a long one: SDL's line, as before */
        long v0 = g.verts;
        if (line)
            tn_gfx_line(&g, x[0], y[0], x[1], y[1], 1.5f, 0xffffff80u);
        else
            tn_gfx_tri(&g, x[0], y[0], x[1], y[1], x[2], y[2], 0xffffff80u);
        tn_gfx_flush(&g);
        SDL_RenderFlush(ra);
        assert_int_equal(g.verts, v0); /* rectangles, no triangles */
        SDL_SetRenderDrawBlendMode(rb, SDL_BLENDMODE_BLEND);
        if (line) {
            SDL_SetRenderDrawColor(rb, 255, 255, 255, 128);
            SDL_RenderDrawLineF(rb, x[0], y[0], x[1], y[1]);
        } else {
            SDL_Color c = {255, 255, 255, 128};
            SDL_Vertex vx[3];
            for (int i = 0; i < 3; i++) {
                vx[i].position.x = x[i];
                vx[i].position.y = y[i];
                vx[i].color = c;
                vx[i].tex_coord.x = vx[i].tex_coord.y = 0;
            }
            SDL_RenderGeometry(rb, NULL, vx, 3, NULL, 0);
        }
        SDL_RenderFlush(rb);
        int na = lit(a, ma), nb = lit(b, mb), diff = 0;
        for (int i = 0; i < 64 * 64; i++) diff += ma[i] != mb[i];
        if (nb > 0) shapes++;
        if (diff > worst) worst = diff;
        /* a pixel exactly on an edge may go either way */
        int allowed = 2;
        if (diff > allowed)
            fail_msg("%s %d: %d pixels differ (%d drawn, SDL %d)", line ? "line" : "triangle", t,
                     diff, na, nb);
    }
    printf("  %d shapes that SDL draws; at most %d pixels differ\n", shapes, worst);
    assert_true(shapes > 300);
    SDL_free(g.vert);
    SDL_free(g.rects);
    SDL_DestroyRenderer(ra);
    SDL_DestroyRenderer(rb);
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
}

/* Pixels of the map view that differ between two frames. */
static long view_diff(SDL_Surface *a, SDL_Surface *b)
{
    long n = 0;
    for (int y = TN_VIEW_Y; y < TN_VIEW_Y + TN_VIEW_H - 40; y++)
        for (int x = 0; x < TN_VIEW_W; x++) {
            uint32_t p = ((uint32_t *)((char *)a->pixels + y * a->pitch))[x];
            uint32_t q = ((uint32_t *)((char *)b->pixels + y * b->pitch))[x];
            n += p != q;
        }
    return n;
}

/* The navmesh overlay's layer (tiles and mesh) is kept between frames: a
 * frame with nothing changed copies it (not redrawn), a camera moved
 * shifts it (a strip drawn), an edit redraws it, an edit in the next frame
 * too is drawn directly (no picture kept while it changes every frame),
 * then the first frame without a change redraws it; each time the frame is
 * what a fresh renderer draws directly (a few pixels along triangle edges
 * cut at the view's border aside). */
static void test_navmesh_layer_cached(void **state)
{
    (void)state;
    tn_map *m = NULL;
    tn_error e;
    assert_true(tn_succeeded(tn_map_create(160, 120, NULL, &m, &e)));
    for (int y = 4; y < 120; y += 6)
        for (int x = 3 + (y / 6) % 3; x + 1 < 160; x += 7)
            for (int k = 0; k < 4; k++)
                assert_true(tn_succeeded(tn_map_set_tile(m, x + k % 2, y + k / 2, 1, &e)));
    tn_world_config cfg = tn_world_default_config();
    tn_world *w = NULL;
    if (tn_failed(tn_world_create(m, &cfg, NULL, &w, &e))) fail_msg("%s", e.msg);
    gfx_rig k, fresh;
    rig_open(&k);
    tn_view v;
    tn_view_init(&v, w, TN_OVERLAY_NAVMESH);
    tn_world_prepare(w, TN_OVERLAY_NAVMESH);
    v.zoom = 4; /* 1x: the 160x120 map is larger than the view */
    v.follow = false;
    v.cam_x = 60 * TN_TILE_PX;
    v.cam_y = 60 * TN_TILE_PX;
    tn_render_scene(&k.g, w, &v);
    assert_int_equal(k.g.layer.full, 1);
    long verts = k.g.verts;
    tn_render_scene(&k.g, w, &v); /* nothing changed: a copy */
    assert_int_equal(k.g.layer.full, 1);
    assert_int_equal(k.g.layer.scrolls, 0);
    long cached = k.g.verts - verts;
    v.overlays = 0;
    verts = k.g.verts;
    tn_render_scene(&k.g, w, &v); /* the same frame without the overlay: text, character */
    long bare = k.g.verts - verts;
    v.overlays = TN_OVERLAY_NAVMESH;
    printf("  a cached frame queued %ld vertices, one without the overlay %ld\n", cached, bare);
    assert_true(cached <= bare + 60); /* no mesh queued again (the overlay's HUD line aside) */
    for (int step = 0; step < 5; step++) {
        if (step == 0) { /* 40 px right and 10 up: a shifted copy and a strip */
            v.cam_x += 40;
            v.cam_y -= 10;
        } else if (step == 1 || step == 2) { /* an edit in the view: drawn whole; another in
                                                the next frame: drawn directly */
            int tx = 55 + step, ty = 58;
            int t = tn_map_tile(tn_world_map(w), tx, ty);
            assert_true(tn_succeeded(
                tn_world_edit(w, tx, ty, t == TN_TILE_BLOCK ? TN_EDIT_EMPTY : TN_EDIT_BLOCK, &e)));
            tn_world_prepare(w, TN_OVERLAY_NAVMESH);
        } else if (step == 4) { /* 20 px left: within half the margin, a copy only */
            v.cam_x -= 20;
        } /* step 3: nothing changed after the edits: drawn whole again */
        long full = k.g.layer.full, scrolls = k.g.layer.scrolls, direct = k.g.layer.direct;
        tn_render_scene(&k.g, w, &v);
        if (step == 0) {
            assert_int_equal(k.g.layer.scrolls, scrolls + 1);
            assert_int_equal(k.g.layer.full, full);
        } else if (step == 1 || step == 3) {
            assert_int_equal(k.g.layer.full, full + 1);
        } else if (step == 2) {
            assert_int_equal(k.g.layer.direct, direct + 1);
            assert_int_equal(k.g.layer.full, full);
        } else {
            assert_int_equal(k.g.layer.full, full);
            assert_int_equal(k.g.layer.scrolls, scrolls);
        }
        rig_open(&fresh);
        fresh.g.layer.failed = step == 2; /* drawn directly, as this frame was */
        tn_render_scene(&fresh.g, w, &v);
        long d = view_diff(k.surf, fresh.surf);
        printf("  step %d: %ld pixels differ from a fresh frame\n", step, d);
        if (d > 200) fail_msg("step %d: %ld pixels differ from a fresh frame", step, d);
        rig_close(&fresh);
    }
    rig_close(&k);
    tn_world_destroy(w);
}

/* The panel's footer shows each slider's whole help: the agent radius's
 * ran past the panel's edge ("radius of the companion's and the navpa");
 * now every help fits the panel's text width, in two lines at most,
 * nothing left out. */
static void test_panel_footer_fits(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    const int maxw = TN_PANEL_W - 2 * 14; /* ui.c's PAD each side */
    int n, two = 0;
    const tn_param_info *pi = tn_world_params(&n);
    for (int i = -1; i < n; i++) {
        v.hot_slider = i;
        v.drag_slider = -1;
        char foot[2][TN_UI_FOOT_MAX], want[TN_UI_FOOT_MAX], got[2 * TN_UI_FOOT_MAX + 4];
        int nl = tn_ui_panel_footer(&k.g, w, &v, foot);
        assert_true(nl == 1 || nl == 2);
        for (int l = 0; l < nl; l++)
            if (tn_gfx_text_width(&k.g, TN_FONT_SMALL, foot[l]) > maxw)
                fail_msg("footer line \"%s\" is %d px, the panel has %d", foot[l],
                         tn_gfx_text_width(&k.g, TN_FONT_SMALL, foot[l]), maxw);
        if (i >= 0)
            snprintf(want, sizeof want, "%s (%g..%g)", pi[i].help, pi[i].min, pi[i].max);
        else
            snprintf(want, sizeof want, "F1 help  Ctrl+S save  F12 shot  Esc quit");
        /* the keys' line breaks between its "key action" pairs (two
         * blanks), never inside one ("... F12 shot  Esc" / "quit") */
        const char *gap = i < 0 ? "  " : " ";
        snprintf(got, sizeof got, "%s%s%s", foot[0], nl == 2 ? gap : "", nl == 2 ? foot[1] : "");
        assert_string_equal(got, want);
        if (i < 0 && nl == 2 && strcmp(foot[1], "Esc quit") != 0)
            fail_msg("keys footer split inside a pair: \"%s\" / \"%s\"", foot[0], foot[1]);
        if (i >= 0 && strcmp(pi[i].name, "agent_radius") == 0) assert_int_equal(nl, 2);
        two += nl == 2;
    }
    printf("  %d of %d footers take two lines\n", two, n + 1);
    tn_world_destroy(w);
    /* on a map over 512x512 with the classic planner chosen, the graph
     * plans: the planner's footer says why (the value reads "(graph)" at
     * 900x500, nothing said why) */
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(520, 520, NULL, &m, NULL)));
    for (int x = 0; x < 520; x++) tn_map_set_tile(m, x, 519, TN_TILE_BLOCK, NULL);
    m->start_x = 5, m->start_y = 518;
    tn_world_config cfg = tn_world_default_config();
    tn_error e;
    if (tn_failed(tn_world_create(m, &cfg, NULL, &w, &e))) fail_msg("%s", e.msg);
    for (int i = 0; i < n; i++)
        if (strcmp(pi[i].name, "planner") == 0) v.hot_slider = i;
    for (int classic = 0; classic < 2; classic++) {
        assert_true(tn_succeeded(tn_world_set(w, "planner", classic ? 0 : 1, &e)));
        char foot[2][TN_UI_FOOT_MAX], got[2 * TN_UI_FOOT_MAX + 4];
        int nl = tn_ui_panel_footer(&k.g, w, &v, foot);
        for (int l = 0; l < nl; l++)
            assert_true(tn_gfx_text_width(&k.g, TN_FONT_SMALL, foot[l]) <= maxw);
        snprintf(got, sizeof got, "%s%s%s", foot[0], nl == 2 ? " " : "", nl == 2 ? foot[1] : "");
        if ((strstr(got, "classic is off above 512x512 tiles") != NULL) != classic)
            fail_msg("planner %d on 520x520: footer \"%s\"", !classic, got);
    }
    tn_world_destroy(w);
    rig_close(&k);
}

/* The map view's world pixels {x0, y0, x1, y1}, as render.c reads them. */
static void world_view(const tn_camera *c, float out[4])
{
    out[0] = ((float)c->view.x - (float)c->ox) / c->scale;
    out[1] = ((float)c->view.y - (float)c->oy) / c->scale;
    out[2] = ((float)(c->view.x + c->view.w) - (float)c->ox) / c->scale;
    out[3] = ((float)(c->view.y + c->view.h) - (float)c->oy) / c->scale;
}

/* The flow overlay says why it is all red when the map has no destination
 * (a playtest saw a red view and no word), and says nothing once there is
 * one; zoomed out on a big map the caption says the arrows are hidden. */
static void test_flow_captions(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = NULL;
    tn_error e;
    if (tn_failed(tn_world_create(tu_map_text("tilenav-map 1\nsize 8 4\ntiles\n"
                                              "........\n"
                                              ".S......\n"
                                              "........\n"
                                              "########\n"),
                                  NULL, NULL, &w, &e)))
        fail_msg("%s", e.msg);
    tn_view v;
    tn_view_init(&v, w, 0);
    v.overlays = TN_OVERLAY_FLOW;
    SDL_FRect av[3];
    tn_camera c = tn_camera_make(w, &v);
    assert_int_equal(tn_render_card_avoid(&k.g, w, &v, &c, av), 1);
    assert_true(tn_succeeded(tn_world_edit(w, 6, 1, TN_EDIT_DEST, &e)));
    assert_int_equal(tn_render_card_avoid(&k.g, w, &v, &c, av), 0);
    v.overlays = 0;
    tn_world_destroy(w);

    tn_map *big = NULL; /* 600x300 tiles at the fit zoom: more than 65,536 in view */
    assert_true(tn_succeeded(tn_map_create(600, 300, NULL, &big, NULL)));
    for (int x = 0; x < 600; x++) tn_map_set_tile(big, x, 299, TN_TILE_BLOCK, NULL);
    big->mark[10 * 600 + 10] = TN_MARK_DEST;
    if (tn_failed(tn_world_create(big, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    tn_view_init(&v, w, 0);
    v.overlays = TN_OVERLAY_FLOW;
    v.zoom = tn_zoom_fit_all(tn_world_map(w)); /* O */
    c = tn_camera_make(w, &v);
    int r[4];
    float view[4];
    world_view(&c, view);
    const bool shown = tn_world_flow_tiles(tn_world_flow(w), view, r);
    printf("  600x300 map at zoom %.3f: %dx%d tiles in view, arrows %s\n", (double)c.scale,
           r[2] - r[0] + 1, r[3] - r[1] + 1, shown ? "drawn" : "hidden");
    assert_false(shown);
    assert_int_equal(tn_render_card_avoid(&k.g, w, &v, &c, av), 1);
    v.zoom = tn_zoom_fit(tn_world_map(w)); /* the default zoom: drawn, nothing to say */
    c = tn_camera_make(w, &v);
    world_view(&c, view);
    assert_true(tn_world_flow_tiles(tn_world_flow(w), view, r));
    assert_int_equal(tn_render_card_avoid(&k.g, w, &v, &c, av), 0);
    tn_world_destroy(w);
    rig_close(&k);
}

/* Pixels of the map view that differ between a and b, the captions' band
 * at its top left (40 px high) left out. */
static int map_view_diff(const SDL_Surface *a, const SDL_Surface *b, const tn_camera *c)
{
    int n = 0;
    for (int y = c->view.y; y < c->view.y + c->view.h; y++)
        for (int x = c->view.x; x < c->view.x + c->view.w; x++)
            if (y >= c->view.y + 40 || x >= c->view.x + 700) n += pixel(a, x, y) != pixel(b, x, y);
    return n;
}

/* Flow arrows of a tile under 6 frame pixels (2-4 px arrows over the
 * whole view, a playtest at 1/4x on a 512x512 map, where 255x140 tiles
 * were in view: under the 65,536-tile cutoff) are hidden, the view drawn
 * as without the overlay, and the caption says so; at 1/2x (8 px tiles)
 * they are drawn and nothing is said. */
static void test_flow_arrows_hidden_when_small(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(512, 512, NULL, &m, NULL)));
    for (int x = 0; x < 512; x++) tn_map_set_tile(m, x, 511, TN_TILE_BLOCK, NULL);
    m->mark[20 * 512 + 40] = TN_MARK_DEST;
    tn_world *w = NULL;
    tn_error e;
    if (tn_failed(tn_world_create(m, NULL, NULL, &w, &e))) fail_msg("%s", e.msg);
    tn_view v;
    tn_view_init(&v, w, 0);
    for (int zi = 1; zi <= 2; zi++) { /* 0.25x (4 px tiles), 0.5x (8 px) */
        v.zoom = zi;
        tn_camera c = tn_camera_make(w, &v);
        v.overlays = 0;
        SDL_Surface *off = shoot_view(w, &v);
        v.overlays = TN_OVERLAY_FLOW;
        SDL_Surface *on = shoot_view(w, &v);
        const int diff = map_view_diff(off, on, &c);
        SDL_FRect av[3];
        const int notes = tn_render_card_avoid(&k.g, w, &v, &c, av);
        printf("  zoom %gx, %d px tiles: %d pixels differ with the flow overlay, %d caption(s)\n",
               (double)c.scale, c.ts, diff, notes);
        if (zi == 1) {
            assert_int_equal(diff, 0);
            assert_int_equal(notes, 1);
        } else {
            assert_true(diff > 10000);
            assert_int_equal(notes, 0);
        }
        SDL_FreeSurface(off);
        SDL_FreeSurface(on);
    }
    tn_world_destroy(w);
    rig_close(&k);
}

/* Labels in the world keep the font's pixel size, so they are hidden
 * while tiles are small, as flow arrows are: the companion's "follow"
 * (a playtest at 1/8x: its 12 px text over 2 px tiles covered a fifth of
 * the demo map) is not drawn at 1/8x and 1/4x (2 and 4 px tiles) and is
 * at 1/2x (8 px) and 1x.  Counted: pixels the companion overlay changes
 * where the label goes, right of the companion's disc, with the companion
 * moved 20 tiles right of the character (its rings, round the character,
 * and its line of sight, to the left, are elsewhere), in the label's blue
 * (not the red ring of its separation radius). */
static bool blue(uint32_t rgb) { return (rgb & 0xffu) > ((rgb >> 16) & 0xffu) + 0x20u; }
static void test_agent_labels_hidden_when_small(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_wagents *ag = (tn_wagents *)tn_wagents_of(w);
    assert_true(ag && ag->has_companion);
    ag->companion.x += 20.0f * TN_TILE_PX;
    const float half = ag->cparams.half, cx = ag->companion.x, cy = ag->companion.y;
    tn_view v;
    tn_view_init(&v, w, 0);
    const int zooms[] = {0, 1, 2, 4}; /* 1/8x, 1/4x, 1/2x, 1x */
    for (int k = 0; k < 4; k++) {
        v.zoom = zooms[k];
        tn_camera c = tn_camera_make(w, &v);
        v.overlays = 0;
        SDL_Surface *off = shoot_view(w, &v);
        v.overlays = TN_OVERLAY_COMPANION;
        SDL_Surface *on = shoot_view(w, &v);
        /* the label's top-left (tn_wagents.c draw_companion), in the frame */
        const int lx = (int)tn_camera_sx(&c, cx + half + 3.0f);
        const int ly = (int)tn_camera_sy(&c, cy - half - 10.0f);
        const int disc = (int)tn_camera_sx(&c, cx + half) + 6;
        int n = 0;
        for (int y = ly; y < ly + 16; y++)
            for (int x = lx > disc ? lx : disc; x < lx + 44; x++)
                if (x >= c.view.x && y >= c.view.y && x < c.view.x + c.view.w &&
                    y < c.view.y + c.view.h)
                    n += pixel(on, x, y) != pixel(off, x, y) && blue(pixel(on, x, y));
        printf("  zoom %gx, %d px tiles: %d label pixels at (%d,%d)\n", (double)c.scale, c.ts, n,
               lx, ly);
        if (c.ts < 8)
            assert_int_equal(n, 0);
        else
            assert_true(n > 20);
        SDL_FreeSurface(off);
        SDL_FreeSurface(on);
    }
    tn_world_destroy(w);
}

/* The companion's state label stays off the character (a playtest: the
 * companion follows at the character's left, and its "follow", drawn up
 * right of the disc, covered the character).  For the companion beside
 * the character on either side, above it and below it, at 1/2x, 3/4x, 1x
 * and 2x: the label's box, as the real 12 px font measures it on screen,
 * does not meet the character's box, and stays on the map. */
typedef struct label_at {
    float x, y;
    char text[32];
} label_at;
static void la_text(void *u, float x, float y, const char *s, uint32_t rgba)
{
    (void)rgba;
    label_at *l = u;
    l->x = x, l->y = y;
    snprintf(l->text, sizeof l->text, "%s", s);
}
static void test_companion_label_off_character(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_wagents *ag = (tn_wagents *)tn_wagents_of(w);
    assert_true(ag && ag->has_companion);
    const tn_body *b = tn_world_character(w);
    const float T = (float)TN_TILE_PX, half = ag->cparams.half;
    const float bw = (float)b->w * T, bh = (float)b->h * T;
    const float places[][2] = {
        {b->x - half - 1.0f, b->y + bh - half},      /* at its left, on the floor (the playtest) */
        {b->x - half - 1.0f, b->y + half},           /* at its left, by its head */
        {b->x + bw + half + 1.0f, b->y + bh - half}, /* at its right */
        {b->x + 0.5f * bw, b->y - half - 1.0f},      /* over its head */
        {b->x + 0.5f * bw, b->y + bh + half + 1.0f}, /* under its feet */
        {b->x - half - 1.0f, b->y - 5.0f},           /* at its left, over its head */
    };
    tn_view v;
    tn_view_init(&v, w, 0);
    const int zooms[] = {2, 3, 4, 7}; /* 1/2x, 3/4x, 1x, 2x */
    const int lh = tn_gfx_line_height(&k.g, TN_FONT_TINY);
    for (int z = 0; z < 4; z++) {
        v.zoom = zooms[z];
        tn_camera c = tn_camera_make(w, &v);
        for (int i = 0; i < (int)(sizeof places / sizeof places[0]); i++) {
            ag->companion.x = places[i][0];
            ag->companion.y = places[i][1];
            label_at l = {0};
            tn_debug_draw dd = {&l, NULL, NULL, NULL, NULL, la_text};
            tn_wagents_draw(w, &dd, TN_OVERLAY_COMPANION, c.scale);
            assert_string_equal(l.text, "follow");
            const float lx0 = tn_camera_sx(&c, l.x), ly0 = tn_camera_sy(&c, l.y);
            const float lx1 = lx0 + (float)tn_gfx_text_width(&k.g, TN_FONT_TINY, l.text);
            const float ly1 = ly0 + (float)lh;
            const float cx0 = tn_camera_sx(&c, b->x), cy0 = tn_camera_sy(&c, b->y);
            const float cx1 = tn_camera_sx(&c, b->x + bw), cy1 = tn_camera_sy(&c, b->y + bh);
            if (lx1 > cx0 && lx0 < cx1 && ly1 > cy0 && ly0 < cy1)
                fail_msg("zoom %gx, place %d: the label [%g,%g)x[%g,%g) covers the character "
                         "[%g,%g)x[%g,%g)",
                         (double)c.scale, i, (double)lx0, (double)lx1, (double)ly0, (double)ly1,
                         (double)cx0, (double)cx1, (double)cy0, (double)cy1);
            /* nor the companion's own disc, rim included (a playtest: by the
             * left wall, "follow" went above the disc and the character at
             * the disc's usual label height, 10 px over it, and a 15 px
             * line of text covered the disc's top half) */
            const float rd = fmaxf(half, 3.0f / c.scale); /* as drawn: 3 px at least */
            const float rr = rd + 1.5f + (rd - half) * 0.3f;
            const float dx0 = tn_camera_sx(&c, ag->companion.x - rr);
            const float dx1 = tn_camera_sx(&c, ag->companion.x + rr);
            const float dy0 = tn_camera_sy(&c, ag->companion.y - rr);
            const float dy1 = tn_camera_sy(&c, ag->companion.y + rr);
            if (lx1 > dx0 && lx0 < dx1 && ly1 > dy0 && ly0 < dy1)
                fail_msg("zoom %gx, place %d: the label [%g,%g)x[%g,%g) covers the companion "
                         "[%g,%g)x[%g,%g)",
                         (double)c.scale, i, (double)lx0, (double)lx1, (double)ly0, (double)ly1,
                         (double)dx0, (double)dx1, (double)dy0, (double)dy1);
            /* and on the map (the character starts by its left wall: above
             * left of the companion went off it, over the window's margin) */
            const float mx0 = tn_camera_sx(&c, 0), my0 = tn_camera_sy(&c, 0);
            const float mx1 = tn_camera_sx(&c, (float)tn_world_map(w)->w * T);
            if (lx0 < mx0 || ly0 < my0 || lx1 > mx1)
                fail_msg("zoom %gx, place %d: the label [%g,%g)x[%g,%g) leaves the map (from "
                         "x %g, y %g, to x %g)",
                         (double)c.scale, i, (double)lx0, (double)lx1, (double)ly0, (double)ly1,
                         (double)mx0, (double)my0, (double)mx1);
        }
    }
    tn_world_destroy(w);
    rig_close(&k);
}

/* The companion's label stays readable over the flow overlay: the flow
 * field's grey arrows showed between and through the letters of its
 * "follow" (a playtest over the demo map's field).  The label is drawn
 * last in the map view, on a plate: at 1/2x, 1x and 2x, with the companion
 * settled by the character, not one pixel of the label's box changes when
 * the flow overlay is switched on, while the arrows do change the pixels
 * round it. */
static void test_companion_label_over_flow(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    for (int i = 0; i < 300; i++) tn_world_step(w);
    assert_non_null(tn_world_flow(w));
    tn_view v;
    tn_view_init(&v, w, 0);
    const int zooms[] = {2, 4, 7}; /* 1/2x, 1x, 2x */
    const int lh = tn_gfx_line_height(&k.g, TN_FONT_TINY);
    for (int z = 0; z < 3; z++) {
        v.zoom = zooms[z];
        tn_camera c = tn_camera_make(w, &v);
        label_at l = {0};
        tn_debug_draw dd = {&l, NULL, NULL, NULL, NULL, la_text};
        tn_wagents_draw(w, &dd, TN_OVERLAY_COMPANION, c.scale);
        assert_string_equal(l.text, "follow");
        const int x0 = (int)floorf(tn_camera_sx(&c, l.x)), y0 = (int)floorf(tn_camera_sy(&c, l.y));
        const int x1 = x0 + tn_gfx_text_width(&k.g, TN_FONT_TINY, l.text), y1 = y0 + lh;
        assert_true(x0 >= c.view.x && y0 >= c.view.y && x1 <= c.view.x + c.view.w &&
                    y1 <= c.view.y + c.view.h);
        v.overlays = TN_OVERLAY_COMPANION;
        SDL_Surface *off = shoot_view(w, &v);
        v.overlays = TN_OVERLAY_COMPANION | TN_OVERLAY_FLOW;
        SDL_Surface *on = shoot_view(w, &v);
        int in_box = 0, round = 0; /* changed pixels in the box, and up to 40 px round it */
        for (int y = y0 - 40; y < y1 + 40; y++)
            for (int x = x0 - 40; x < x1 + 40; x++) {
                if (x < c.view.x || y < c.view.y || x >= c.view.x + c.view.w ||
                    y >= c.view.y + c.view.h || pixel(on, x, y) == pixel(off, x, y))
                    continue;
                if (x >= x0 && x < x1 && y >= y0 && y < y1)
                    in_box++;
                else
                    round++;
            }
        printf("  zoom %gx: label [%d,%d)x[%d,%d): %d pixels changed by the flow overlay, %d "
               "round it\n",
               (double)c.scale, x0, x1, y0, y1, in_box, round);
        assert_int_equal(in_box, 0);
        assert_true(round > 100);
        SDL_FreeSurface(off);
        SDL_FreeSurface(on);
    }
    tn_world_destroy(w);
    rig_close(&k);
}

/* The mouse-tile readout never covers a pinned inspect card: for the
 * mouse anywhere in the map view (every 4 px), the readout stays inside
 * the view and off the card.  (The old rule, below right of the mouse
 * unless that left the view, covered the card for a mouse just left of or
 * on it.) */
static void test_tooltip_off_inspect_card(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    v.inspect_kind = TN_INSPECT_CHARACTER;
    v.inspect_index = 0;
    SDL_FRect card, av[3];
    tn_camera c = tn_camera_make(w, &v);
    const int na = tn_render_card_avoid(&k.g, w, &v, &c, av);
    assert_true(tn_ui_inspect_rect(&k.g, w, &v, av, na, &card));
    const int hw = tn_gfx_text_width(&k.g, TN_FONT_MONO, "tile 79,44  block  start") + 12;
    const int hh = tn_gfx_line_height(&k.g, TN_FONT_MONO) + 6;
    int old_covered = 0, n = 0;
    for (int my = c.view.y; my < c.view.y + c.view.h; my += 4)
        for (int mx = c.view.x; mx < c.view.x + c.view.w; mx += 4) {
            SDL_FRect r = tn_ui_tooltip_place(mx, my, hw, hh, c.view, &card, 1);
            n++;
            if (r.x < card.x + card.w && card.x < r.x + r.w && r.y < card.y + card.h &&
                card.y < r.y + r.h)
                fail_msg("mouse (%d,%d): readout at (%.0f,%.0f) %dx%d covers the card at "
                         "(%.0f,%.0f) %.0fx%.0f",
                         mx, my, (double)r.x, (double)r.y, hw, hh, (double)card.x, (double)card.y,
                         (double)card.w, (double)card.h);
            if (r.x < (float)c.view.x || r.y < (float)c.view.y ||
                r.x + r.w > (float)(c.view.x + c.view.w) ||
                r.y + r.h > (float)(c.view.y + c.view.h))
                fail_msg("mouse (%d,%d): readout outside the view", mx, my);
            /* the old rule */
            float ox = (float)mx + 16, oy = (float)my + 18;
            if (ox + (float)hw > (float)(c.view.x + c.view.w)) ox = (float)mx - 8 - (float)hw;
            if (oy + (float)hh > (float)(c.view.y + c.view.h)) oy = (float)my - 8 - (float)hh;
            old_covered += ox < card.x + card.w && card.x < ox + (float)hw &&
                           oy < card.y + card.h && card.y < oy + (float)hh;
        }
    printf("  %d mouse positions; the old rule covered the card at %d\n", n, old_covered);
    assert_true(old_covered > 100);
    /* no card: the readout is where it always was, below right */
    SDL_FRect r = tn_ui_tooltip_place(c.view.x + 50, c.view.y + 50, hw, hh, c.view, NULL, 0);
    assert_true(r.x == (float)(c.view.x + 66) && r.y == (float)(c.view.y + 68));
    tn_world_destroy(w);
    rig_close(&k);
}

/* The tile readout keeps off the character's goal marker: below right of
 * the mouse it covered the goal just clicked (a click in the air snaps the
 * goal down onto the floor, under the readout).  Every mouse position
 * around the goal of `goto 47 20` on the demo map: the readout is in the
 * view and off the marker, where the old rule (below right) covered it. */
static void test_tooltip_off_goal(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    for (int f = 0; f < 30; f++) tn_world_step(w);
    assert_true(tn_succeeded(tn_world_goto(w, 47, 20, NULL)));
    tn_world_step(w);
    tn_view v;
    tn_view_init(&v, w, TN_OVERLAY_PATH);
    tn_camera c = tn_camera_make(w, &v);
    SDL_FRect goal;
    assert_true(tn_render_goal_rect(w, &c, &goal));
    const int hw = tn_gfx_text_width(&k.g, TN_FONT_MONO, "tile 47,20  empty") + 12;
    const int hh = tn_gfx_line_height(&k.g, TN_FONT_MONO) + 6;
    int old_covered = 0, n = 0;
    for (int my = (int)goal.y - 60; my < (int)(goal.y + goal.h) + 10; my += 2)
        for (int mx = (int)goal.x - 180; mx < (int)(goal.x + goal.w) + 10; mx += 2) {
            n++;
            SDL_FRect r = tn_ui_tooltip_place(mx, my, hw, hh, c.view, &goal, 1);
            if (r.x < goal.x + goal.w && goal.x < r.x + r.w && r.y < goal.y + goal.h &&
                goal.y < r.y + r.h)
                fail_msg("mouse (%d,%d): readout at (%.0f,%.0f) covers the goal at (%.0f,%.0f)", mx,
                         my, (double)r.x, (double)r.y, (double)goal.x, (double)goal.y);
            const float ox = (float)mx + 16, oy = (float)my + 18;
            old_covered += ox < goal.x + goal.w && goal.x < ox + (float)hw &&
                           oy < goal.y + goal.h && goal.y < oy + (float)hh;
        }
    printf("  %d mouse positions; below right covered the goal at %d\n", n, old_covered);
    assert_true(old_covered > 100);
    /* arrived (or no goal): nothing to keep off */
    tn_world *idle = tu_load_world("maps/demo.map", 1);
    assert_false(tn_render_goal_rect(idle, &c, &goal));
    tn_world_destroy(idle);
    rig_close(&k);
    /* the frame drawn: the mouse up left of the goal, its readout (below
     * right of it before) leaves the goal's pixels as they are without it */
    SDL_Surface *bare = shoot_view(w, &v);
    v.live = v.mouse_in = true;
    v.mouse_x = (int)goal.x - 10;
    v.mouse_y = (int)goal.y - 14;
    SDL_Surface *hover = shoot_view(w, &v);
    int differ = 0, around = 0;
    for (int y = (int)goal.y; y < (int)(goal.y + goal.h); y++)
        for (int x = (int)goal.x; x < (int)(goal.x + goal.w); x++)
            differ += pixel(bare, x, y) != pixel(hover, x, y);
    for (int y = v.mouse_y; y < v.mouse_y + 80; y++) /* the readout is drawn somewhere near */
        for (int x = v.mouse_x - 200; x < v.mouse_x + 200; x++)
            around += pixel(bare, x, y) != pixel(hover, x, y);
    for (int y = v.mouse_y - 80; y < v.mouse_y; y++)
        for (int x = v.mouse_x - 200; x < v.mouse_x + 200; x++)
            around += pixel(bare, x, y) != pixel(hover, x, y);
    printf("  the goal's %dx%d px: %d differ with the readout drawn (%d near the mouse)\n",
           (int)goal.w, (int)goal.h, differ, around);
    assert_true(around > 500);
    assert_int_equal(differ, 0);
    SDL_FreeSurface(bare);
    SDL_FreeSurface(hover);
    tn_world_destroy(w);
}

/* A message of two lines rises over the map view's bottom edge: a card in
 * a bottom corner had its last lines under it.  The card (the top corners
 * taken, so it goes to the bottom right) keeps above the band. */
static void test_card_above_status_band(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    v.inspect_kind = TN_INSPECT_CHARACTER;
    v.inspect_index = 0;
    /* the top corners taken (as by the agent or the captions) */
    SDL_FRect av[2] = {{0, (float)tn_view_y(&v), (float)TN_VIEW_W, 200}, {0, 0, 0, 0}};
    SDL_FRect card;
    tn_world_message(w, "short");
    assert_true(tn_ui_inspect_rect(&k.g, w, &v, av, 1, &card));
    const float bottom = (float)(tn_view_y(&v) + tn_view_h(&v));
    assert_true(card.y + card.h == bottom - 8); /* one line: the corner as before */
    assert_true(tn_ui_status_band(&k.g, w, &v).h == 0);
    char msg[600];
    snprintf(msg, sizeof msg, "%s",
             "replay: graph A* from (3,40) to (22,15), out of reach: the search to the closest "
             "place, 1 node expanded (only the start: the closest place is a walk on its "
             "surface) (the search that proved the goal out of reach expanded no node: its "
             "bounds ruled the goal out)");
    tn_world_message(w, "%s", msg);
    const SDL_FRect band = tn_ui_status_band(&k.g, w, &v);
    printf("  band (%.0f,%.0f) %.0fx%.0f\n", (double)band.x, (double)band.y, (double)band.w,
           (double)band.h);
    assert_true(band.h > 0 && band.y < bottom);
    assert_true(tn_ui_inspect_rect(&k.g, w, &v, av, 1, &card));
    printf("  card (%.0f,%.0f) %.0fx%.0f\n", (double)card.x, (double)card.y, (double)card.w,
           (double)card.h);
    assert_true(card.x < band.x + band.w && band.x < card.x + card.w); /* beside it */
    if (card.y + card.h > band.y)
        fail_msg("the card ends at y %.0f, the message's band starts at %.0f",
                 (double)(card.y + card.h), (double)band.y);
    tn_world_destroy(w);
    rig_close(&k);
}

/* The pinned card keeps off what it describes and off the captions: for
 * the character placed all over the map view (every 2 tiles), with the
 * graph overlay's caption showing, the card covers neither the character
 * nor the caption, and sits in a corner of the view; where the top-right
 * corner is clear it stays there.  (It was always top right: over the
 * character standing there, and over a long caption.) */
static void test_inspect_card_off_its_agent(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    assert_true(tn_succeeded(tn_world_set(w, "planner", 0, NULL))); /* a caption: "classic" */
    tn_view v;
    tn_view_init(&v, w, TN_OVERLAY_SURF);
    v.inspect_kind = TN_INSPECT_CHARACTER;
    v.inspect_index = 0;
    const tn_map *m = tn_world_map(w);
    const float T = (float)TN_TILE_PX;
    int moved = 0, n = 0, top_right = 0;
    float tr_x = -1, tr_y = -1;
    for (int ty = 1; ty + 2 < m->h; ty += 2)
        for (int tx = 1; tx + 1 < m->w; tx += 2) {
            tn_world_place_character(w, (float)tx * T, (float)ty * T);
            v.char_x = (float)tx * T, v.char_y = (float)ty * T;
            tn_camera c = tn_camera_make(w, &v);
            SDL_FRect av[3], card;
            const int na = tn_render_card_avoid(&k.g, w, &v, &c, av);
            assert_int_equal(na, 2); /* the caption, the character */
            assert_true(tn_ui_inspect_rect(&k.g, w, &v, av, na, &card));
            n++;
            for (int i = 0; i < na; i++)
                if (card.x < av[i].x + av[i].w && av[i].x < card.x + card.w &&
                    card.y < av[i].y + av[i].h && av[i].y < card.y + card.h)
                    fail_msg("character at tile (%d,%d): the card (%.0f,%.0f %.0fx%.0f) covers "
                             "%s (%.0f,%.0f %.0fx%.0f)",
                             tx, ty, (double)card.x, (double)card.y, (double)card.w, (double)card.h,
                             i ? "the character" : "the caption", (double)av[i].x, (double)av[i].y,
                             (double)av[i].w, (double)av[i].h);
            const bool right = card.x + card.w + 8 == (float)TN_VIEW_W;
            const bool top = card.y == (float)(c.view.y + 8);
            assert_true(right || card.x == 8.0f);
            assert_true(top || card.y + card.h + 8 == (float)(c.view.y + c.view.h));
            if (right && top) {
                top_right++;
                tr_x = card.x, tr_y = card.y;
            } else {
                moved++;
            }
        }
    printf("  %d places of the character: the card moved off it at %d\n", n, moved);
    assert_true(moved > 0 && top_right > moved);
    /* no avoid list: top right, as before */
    tn_view_init(&v, w, 0);
    v.inspect_kind = TN_INSPECT_CHARACTER;
    SDL_FRect card;
    assert_true(tn_ui_inspect_rect(&k.g, w, &v, NULL, 0, &card));
    assert_true(card.x == tr_x && card.y == tr_y);
    tn_world_destroy(w);
    rig_close(&k);
}

/* The inspect card is opaque: its pixels are the same over a bare map
 * and over the busiest overlays (flow arrows, navmesh, surface graph),
 * so nothing of the map runs through its text.  (It was drawn at alpha
 * 0xe8: the flow field's arrows showed between its letters.) */
static void test_inspect_card_opaque(void **state)
{
    (void)state;
    gfx_rig k;
    rig_open(&k);
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    v.inspect_kind = TN_INSPECT_CHARACTER;
    v.inspect_index = 0;
    SDL_FRect card, av[3];
    tn_camera c = tn_camera_make(w, &v);
    const int na = tn_render_card_avoid(&k.g, w, &v, &c, av);
    assert_true(tn_ui_inspect_rect(&k.g, w, &v, av, na, &card));
    rig_close(&k);
    SDL_Surface *bare = shoot_view(w, &v);
    tn_view_init(&v, w, TN_OVERLAY_FLOW | TN_OVERLAY_NAVMESH | TN_OVERLAY_SURF);
    v.inspect_kind = TN_INSPECT_CHARACTER;
    v.inspect_index = 0;
    SDL_Surface *busy = shoot_view(w, &v);
    int differ = 0, n = 0;
    for (int y = (int)card.y; y < (int)(card.y + card.h); y++)
        for (int x = (int)card.x; x < (int)(card.x + card.w); x++, n++)
            differ += pixel(bare, x, y) != pixel(busy, x, y);
    /* the overlays do change the map beside the card */
    int beside = 0;
    for (int y = (int)(card.y + card.h) + 2; y < (int)(card.y + card.h) + 60; y++)
        for (int x = (int)card.x; x < (int)(card.x + card.w); x++)
            beside += pixel(bare, x, y) != pixel(busy, x, y);
    printf("  card %dx%d: %d of %d pixels differ with the overlays on (%d beside it)\n",
           (int)card.w, (int)card.h, differ, n, beside);
    assert_true(beside > 100);
    assert_int_equal(differ, 0);
    SDL_FreeSurface(bare);
    SDL_FreeSurface(busy);
    tn_world_destroy(w);
}

/* With the HUD collapsed (H) a map that fits is centred up and down (it
 * stayed low, under the HUD's empty room: 93 px above, 29 below, a
 * playtest measured); with the HUD it sits low, leaving the HUD room. */
static void test_hud_hidden_centres_map(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    const int mh = tn_world_map(w)->h;
    v.hud_hidden = true;
    tn_camera c = tn_camera_make(w, &v);
    int above = c.oy - c.view.y, below = c.view.y + c.view.h - (c.oy + mh * c.ts);
    printf("  HUD hidden: %d px above the map, %d below\n", above, below);
    assert_true(above >= 0 && below >= 0 && abs(above - below) <= 1);
    v.hud_hidden = false;
    c = tn_camera_make(w, &v);
    above = c.oy - c.view.y, below = c.view.y + c.view.h - (c.oy + mh * c.ts);
    assert_true(above >= below);
    tn_world_destroy(w);
}

/* The pinned card's agent is framed on the map (among dozens of like
 * enemies the card alone did not say which one it reads): a bright frame
 * 4 px around the character's box, there only with the card pinned. */
static void test_pinned_agent_framed(void **state)
{
    (void)state;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_view v;
    tn_view_init(&v, w, 0);
    SDL_Surface *plain = shoot_view(w, &v);
    v.inspect_kind = TN_INSPECT_CHARACTER;
    v.inspect_index = 0;
    SDL_Surface *pinned = shoot_view(w, &v);
    tn_camera c = tn_camera_make(w, &v);
    float b[4];
    assert_true(tn_inspect_box(w, TN_INSPECT_CHARACTER, 0, b));
    b[2] += v.char_x - b[0], b[3] += v.char_y - b[1];
    b[0] = v.char_x, b[1] = v.char_y;
    /* the frame's left and right edges, 4 px out from the box, over its height */
    const int x0 = (int)floorf(tn_camera_sx(&c, b[0])) - 5,
              x1 = (int)ceilf(tn_camera_sx(&c, b[2])) + 4;
    const int y0 = (int)tn_camera_sy(&c, b[1]), y1 = (int)tn_camera_sy(&c, b[3]);
    int bright = 0, before = 0, n = 0;
    for (int y = y0 + 2; y < y1 - 2; y++)
        for (int k = 0; k < 2; k++) {
            const int x = k ? x1 : x0;
            for (int d = 0; d <= 1; d++, n++) {
                const uint32_t p = pixel(pinned, x + (k ? -d : d), y),
                               q = pixel(plain, x + (k ? -d : d), y);
                bright += (p >> 16 & 255) > 200 && (p >> 8 & 255) > 200 && (p & 255) > 200;
                before += (q >> 16 & 255) > 200 && (q >> 8 & 255) > 200 && (q & 255) > 200;
            }
        }
    printf("  frame columns: %d of %d pixels bright pinned, %d without the card\n", bright, n,
           before);
    assert_true(bright >= n / 3);
    assert_int_equal(before, 0);
    SDL_FreeSurface(plain);
    SDL_FreeSurface(pinned);
    tn_world_destroy(w);
}

/* Agents read at a glance: an enemy on a destination tile is drawn under
 * the destination (its centre shows the destination's colour), while the
 * same enemy on an empty tile shows its fill there, inside a dark outline
 * wider than the fill. */
static void test_dest_over_enemy(void **state)
{
    (void)state;
    const uint32_t FILL = 0xe8553au, OUTLINE = 0x1a0a08u;
    tn_world *w = tu_load_world("maps/demo.map", 1);
    tn_wenemies *we = tn_wenemies_of(w);
    assert_non_null(we);
    for (int i = 0; i < 600 && we->pool->count == 0; i++) tn_world_step(w);
    assert_true(we->pool->count > 0);
    while (we->pool->count > 1) we->pool->count--; /* one enemy */
    int dx = -1, dy = -1;
    for (int i = 0; i < tn_world_map(w)->w * tn_world_map(w)->h && dx < 0; i++)
        if (tn_world_map(w)->mark[i] == TN_MARK_DEST && tn_world_map(w)->tile[i] == TN_TILE_EMPTY) {
            dx = i % tn_world_map(w)->w;
            dy = i / tn_world_map(w)->w;
        }
    assert_true(dx >= 0);
    tn_view v;
    tn_view_init(&v, w, 0);
    tn_camera c = tn_camera_make(w, &v);
    int ex = -1; /* an empty unmarked tile on the same row, not next to the destination */
    for (int k = 3; k < tn_world_map(w)->w && ex < 0; k++)
        for (int sgn = -1; sgn <= 1 && ex < 0; sgn += 2) {
            int x = dx + sgn * k;
            if (tn_map_inside(tn_world_map(w), x, dy) &&
                tn_map_tile(tn_world_map(w), x, dy) == TN_TILE_EMPTY &&
                tn_world_map(w)->mark[dy * tn_world_map(w)->w + x] == 0)
                ex = x;
        }
    assert_true(ex >= 0);
    tn_enemy *e = &we->pool->e[0];
    e->heading = 0;
    e->x = (float)ex + 0.5f;
    e->y = (float)dy + 0.5f;
    SDL_Surface *s = shoot_view(w, &v);
    int px, py;
    tile_px(&c, ex, dy, 0.5f, 0.5f, &px, &py);
    assert_int_equal(pixel(s, px, py), FILL);
    int fill = count_colour(s, FILL), outline = count_colour(s, OUTLINE);
    assert_true(fill >= 40);          /* large at the default zoom */
    assert_true(outline >= fill / 3); /* a ring around it */
    SDL_FreeSurface(s);
    e->x = (float)dx + 0.5f;
    s = shoot_view(w, &v);
    tile_px(&c, dx, dy, 0.5f, 0.5f, &px, &py);
    assert_colour(s, px, py, TN_COL_DEST);
    assert_true(count_colour(s, FILL) < fill); /* partly hidden under it */
    SDL_FreeSurface(s);
    tn_world_destroy(w);
}

int main(void)
{
    snprintf(SHOT_PATH, sizeof SHOT_PATH, "/tmp/tilenav-test-render-%ld.bmp", (long)getpid());
    snprintf(SHOT2_PATH, sizeof SHOT2_PATH, "%s.2", SHOT_PATH);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legend_has_graph_overlay),
        cmocka_unit_test(test_hud_wraps),
        cmocka_unit_test(test_hud_top_fits),
        cmocka_unit_test(test_zoom_fit_says_the_truth),
        cmocka_unit_test(test_zoom_fit_hud_collapsed),
        cmocka_unit_test(test_sliders_clear_text),
        cmocka_unit_test(test_param_value_units),
        cmocka_unit_test(test_slider_wheel_steps),
        cmocka_unit_test(test_status_fits),
        cmocka_unit_test(test_status_two_lines_not_struck),
        cmocka_unit_test(test_navmesh_overlay_small_zoom_cheap),
        cmocka_unit_test(test_clip_poly_rect),
        cmocka_unit_test(test_small_shapes_as_rects),
        cmocka_unit_test(test_navmesh_layer_cached),
        cmocka_unit_test(test_help_fits_small_frames),
        cmocka_unit_test(test_flow_captions),
        cmocka_unit_test(test_flow_arrows_hidden_when_small),
        cmocka_unit_test(test_agent_labels_hidden_when_small),
        cmocka_unit_test(test_companion_label_off_character),
        cmocka_unit_test(test_companion_label_over_flow),
        cmocka_unit_test(test_help_scroll_hint),
        cmocka_unit_test(test_help_hint_own_row),
        cmocka_unit_test(test_picker_more_hint),
        cmocka_unit_test(test_picker_fits_small_frame),
        cmocka_unit_test(test_picker_hud_collapsed),
        cmocka_unit_test(test_slider_fast_drag_stops_at_room),
        cmocka_unit_test(test_overlay_click_says_so),
        cmocka_unit_test(test_tile_colours),
        cmocka_unit_test(test_edit_shows),
        cmocka_unit_test(test_character_moves),
        cmocka_unit_test(test_camera_follows),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_playback_draws),
        cmocka_unit_test(test_playback_radius_visible),
        cmocka_unit_test(test_dest_over_enemy),
        cmocka_unit_test(test_bar_labels_apart),
        cmocka_unit_test(test_bar_unplayed_search),
        cmocka_unit_test(test_bar_search_cut),
        cmocka_unit_test(test_legend_has_start_tile),
        cmocka_unit_test(test_panel_footer_fits),
        cmocka_unit_test(test_tooltip_off_inspect_card),
        cmocka_unit_test(test_tooltip_off_goal),
        cmocka_unit_test(test_card_above_status_band),
        cmocka_unit_test(test_inspect_card_off_its_agent),
        cmocka_unit_test(test_inspect_card_opaque),
        cmocka_unit_test(test_pinned_agent_framed),
        cmocka_unit_test(test_hud_hidden_centres_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
