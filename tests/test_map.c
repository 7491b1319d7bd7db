/* Map parsing, formatting and every parser error (file loading and
 * saving, src/game's fileio.c: test_fileio.c). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "tn_map.h"
#include "tn_rng.h"

static tn_map *parse_ok(const char *text)
{
    tn_map *m = NULL;
    tn_error e;
    tn_status s = tn_map_parse(text, strlen(text), "t.map", NULL, &m, &e);
    if (tn_failed(s)) fail_msg("unexpected error: %s", e.msg);
    return m;
}

static void expect_error(const char *text, size_t len, const char *want)
{
    tn_map *m = NULL;
    tn_error e;
    memset(&e, 0, sizeof e);
    tn_status s = tn_map_parse(text, len, "t.map", NULL, &m, &e);
    assert_true(tn_failed(s));
    assert_null(m);
    if (strcmp(e.msg, want) != 0) fail_msg("message\n  got:  %s\n  want: %s", e.msg, want);
}
#define EXPECT(text, want) expect_error(text, strlen(text), want)

static void test_parse_basic(void **state)
{
    (void)state;
    tn_map *m = parse_ok("# c\ntilenav-map 1\n# c2\nsize 4 3\ntiles\n#=.P\nSD*.\n....\n# tail\n\n");
    assert_int_equal(m->w, 4);
    assert_int_equal(m->h, 3);
    assert_int_equal(tn_map_tile(m, 0, 0), TN_TILE_BLOCK);
    assert_int_equal(tn_map_tile(m, 1, 0), TN_TILE_ONEWAY);
    assert_int_equal(tn_map_tile(m, 2, 0), TN_TILE_EMPTY);
    assert_int_equal(m->start_x, 3);
    assert_int_equal(m->start_y, 0);
    assert_int_equal(tn_map_mark(m, 0, 1), TN_MARK_SPAWN);
    assert_int_equal(tn_map_mark(m, 1, 1), TN_MARK_DEST);
    assert_int_equal(tn_map_mark(m, 2, 1), TN_MARK_ITEM);
    assert_int_equal(tn_map_tile(m, -1, 0), TN_TILE_BLOCK); /* outside is solid */
    assert_int_equal(tn_map_tile(m, 4, 0), TN_TILE_BLOCK);
    assert_int_equal(tn_map_tile(m, 0, 3), TN_TILE_BLOCK);
    tn_map_destroy(m);
    /* CRLF line ends are fine. */
    m = parse_ok("tilenav-map 1\r\nsize 2 1\r\ntiles\r\n.#\r\n");
    assert_int_equal(tn_map_tile(m, 1, 0), TN_TILE_BLOCK);
    tn_map_destroy(m);
}

static void test_errors(void **state)
{
    (void)state;
    EXPECT("", "t.map:1:1: empty file (expected 'tilenav-map 1')");
    EXPECT("\n  \n", "t.map:1:1: empty file (expected 'tilenav-map 1')");
    /* comments alone, and tile rows with no header: a row of walls starts
     * with '#', a comment before 'tiles' (both said "empty file") */
    EXPECT("# a level\n\n", "t.map:1:1: only comments and blank lines (expected 'tilenav-map 1')");
    EXPECT("########  \n#.S..D.# \n#P.....#\n",
           "t.map:1:1: no header line: this line reads as a comment ('#' starts one before "
           "'tiles'); a map starts 'tilenav-map 1', then 'size W H' and 'tiles' above its rows");
    EXPECT("# my level\n##########\n#P.......#\n##########\n",
           "t.map:2:1: no header line: this line reads as a comment ('#' starts one before "
           "'tiles'); a map starts 'tilenav-map 1', then 'size W H' and 'tiles' above its rows");
    /* old Mac (CR-only) line endings: the file is one line, a comment
     * when it starts with '#' (it said "only comments and blank lines") */
    EXPECT("# my level\rtilenav-map 1\rsize 2 1\rtiles\r.#\r",
           "t.map:1:11: a carriage return (CR) with no line feed after it ends the line: the "
           "file uses old Mac (CR-only) line endings; save it with LF (or CRLF) line endings");
    EXPECT("\n##\r#P\r",
           "t.map:2:3: a carriage return (CR) with no line feed after it ends the line: the "
           "file uses old Mac (CR-only) line endings; save it with LF (or CRLF) line endings");
    EXPECT("size 2 2\n", "t.map:1:1: missing header line 'tilenav-map 1' (or 'type octile')");
    EXPECT("tilenav-map 2\n", "t.map:1:13: unsupported format version (expected 'tilenav-map 1')");
    EXPECT("tilenav-map 1\ntilenav-map 1\n", "t.map:2:1: repeated header line 'tilenav-map'");
    EXPECT("tilenav-map 1\nsize 2 2\nsize 2 2\n", "t.map:3:1: repeated header line 'size'");
    EXPECT("tilenav-map 1\ntiles\n", "t.map:2:1: missing 'size' line before 'tiles'");
    EXPECT("tilenav-map 1\nsize 2\ntiles\n",
           "t.map:2:6: 'size' needs two whole numbers: size WIDTH HEIGHT (only one given)");
    /* the column of the word at fault (a review: 'size 80 4x' pointed at 80) */
    EXPECT("tilenav-map 1\nsize 2 x\ntiles\n",
           "t.map:2:8: 'size' needs two whole numbers: size WIDTH HEIGHT ('x' is not a whole "
           "number)");
    EXPECT("tilenav-map 1\nsize 80 4x\ntiles\n",
           "t.map:2:9: 'size' needs two whole numbers: size WIDTH HEIGHT ('4x' is not a whole "
           "number)");
    EXPECT("tilenav-map 1\nsize 80 45 9\ntiles\n",
           "t.map:2:12: 'size' needs two whole numbers: size WIDTH HEIGHT ('9' is one too many)");
    EXPECT("tilenav-map 1\nsize \ntiles\n",
           "t.map:2:5: 'size' needs two whole numbers: size WIDTH HEIGHT (none given)");
    EXPECT("tilenav-map 1\nsize 0 5\ntiles\n", "t.map:2:6: map size 0x5 is outside 1..4096");
    /* Moving AI: at the 'width' or 'height' line, not at the 'map' line */
    EXPECT("type octile\nheight 2\nwidth 0\nmap\n", "t.map:3:7: map width 0 is outside 1..4096");
    EXPECT("type octile\nheight 5000\nwidth 3\nmap\n",
           "t.map:2:8: map height 5000 is outside 1..4096");
    EXPECT("type octile\nwidth 3\nheight 99999999999\nmap\n",
           "t.map:3:8: map height (more than 10^9) is outside 1..4096");
    EXPECT("tilenav-map 1\nsize 100000 100000\ntiles\n",
           "t.map:2:6: map size 100000x100000 is outside 1..4096");
    EXPECT("tilenav-map 1\nsize 99999999999999999999 2\ntiles\n",
           "t.map:2:6: map size (more than 10^9)x2 is outside 1..4096");
    EXPECT("tilenav-map 1\nsize 2 2\nwidth 3\n",
           "t.map:3:1: unknown header line (expected 'size W H', 'start X Y' or 'tiles')");
    EXPECT("tilenav-map 1\nsize 2 2\n", "t.map:3:1: file ends before the 'tiles' line");
    EXPECT("tilenav-map 1\nsize 2 2\ntiles\n..\n", "t.map:5:1: file ends after 1 of 2 tile rows");
    EXPECT("tilenav-map 1\nsize 2 2\ntiles\n..\n.\n",
           "t.map:5:2: row 2 has 1 characters, expected 2");
    EXPECT("tilenav-map 1\nsize 2 2\ntiles\n..\n...\n",
           "t.map:5:3: row 2 has 3 characters, expected 2");
    EXPECT("tilenav-map 1\nsize 2 2\ntiles\n..\n.x\n",
           "t.map:5:2: unknown tile character 'x' (expected one of . # = P S D *)");
    EXPECT("tilenav-map 1\nsize 2 2\ntiles\nP.\n.P\n",
           "t.map:5:2: second character start 'P' (the first is at tile 0,0)");
    EXPECT("tilenav-map 1\nsize 2 1\ntiles\n..\nab\n",
           "t.map:5:1: unexpected text after the last of the 1 tile rows");
    /* a NUL (or other control) byte there is named, at its column */
    static const char nul1[] = "tilenav-map 1\nsize 2 1\ntiles\n..\nab\0c\n";
    static const char nul2[] = "tilenav-map 1\nsize 2 1\ntiles\n..\n\0\n";
    expect_error(nul1, sizeof nul1 - 1,
                 "t.map:5:3: unexpected NUL byte (0x00) after the last of the 1 tile rows");
    expect_error(nul2, sizeof nul2 - 1,
                 "t.map:5:1: unexpected NUL byte (0x00) after the last of the 1 tile rows");
    EXPECT("tilenav-map 1\nsize 2 1\ntiles\n..\nx\x01\n",
           "t.map:5:2: unexpected byte 0x01 after the last of the 1 tile rows");
    EXPECT("tilenav-map 1\nsize 2 1\ntiles\n..\ncaf\xc3\xa9\n", /* UTF-8 is text */
           "t.map:5:1: unexpected text after the last of the 1 tile rows");
    /* rows past the height: counted, even those that start with '#' */
    EXPECT("tilenav-map 1\nsize 2 1\ntiles\n..\n..\n",
           "t.map:5:1: 2 tile rows but size says 1 (this row is extra: fix the 'size' line or "
           "remove it)");
    EXPECT("tilenav-map 1\nsize 3 1\ntiles\n.P.\n# a comment\n#.#\n\n###\n",
           "t.map:6:1: 3 tile rows but size says 1 (the 2 rows from this line on are extra: fix "
           "the 'size' line or remove them)");
    EXPECT("type octile\nheight 2\nwidth 2\nmap\n.@\n.X\n",
           "t.map:6:2: unknown tile character 'X' (expected one of . G S @ O T W)");
    EXPECT("type octile\nwidth 2\nmap\n", "t.map:3:1: missing 'height' line before 'map'");
    EXPECT("type hex\n", "t.map:1:6: unsupported Moving AI map type (expected 'octile')");
    static const char junk[] = "tilenav-map 1\nsi\0e 2 2\n";
    expect_error(junk, sizeof junk - 1,
                 "t.map:2:3: unexpected byte 0x00 in a header line (is this a map file?)");
    static const char junk2[] = "tilenav-map 1\nsize 2 1\ntiles\n.\x01\n";
    expect_error(junk2, sizeof junk2 - 1,
                 "t.map:4:2: unknown tile character byte 0x01 (expected one of . # = P S D *)");
}

/* The read-outs that are not inner loops take a NULL map (a review found
 * tn_map_equal and tn_map_count_marks crashing on one). */
static void test_null_maps(void **state)
{
    (void)state;
    assert_true(tn_map_equal(NULL, NULL));
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(3, 2, NULL, &m, NULL)));
    assert_false(tn_map_equal(m, NULL));
    assert_false(tn_map_equal(NULL, m));
    assert_true(tn_map_equal(m, m));
    assert_int_equal(tn_map_count_marks(NULL, TN_MARK_ITEM), 0);
    tn_error e;
    assert_int_equal(tn_map_parse("x", 1, "a.map", NULL, NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "map: no output pointer (out NULL)");
    tn_map_destroy(m);
}

static void test_random_junk_never_crashes(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 7, 1);
    char buf[256];
    const char *prefix = "tilenav-map 1\nsize 5 3\ntiles\n";
    for (int iter = 0; iter < 20000; iter++) {
        size_t len = tn_rng_below(&r, sizeof buf);
        size_t p = 0;
        if (iter % 2) {
            p = strlen(prefix);
            if (p > len) p = len;
            memcpy(buf, prefix, p);
        }
        for (size_t i = p; i < len; i++) {
            static const char alphabet[] = ".#=PSD*\n\n\n \r\x00x9";
            buf[i] =
                (iter % 3) ? alphabet[tn_rng_below(&r, sizeof alphabet - 1)] : (char)tn_rng_u32(&r);
        }
        tn_map *m = NULL;
        tn_error e;
        e.msg[0] = 0;
        tn_status s = tn_map_parse(buf, len, "j.map", NULL, &m, &e);
        if (tn_failed(s)) {
            assert_null(m);
            assert_true(strncmp(e.msg, "j.map:", 6) == 0);
        } else {
            tn_map_destroy(m);
        }
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    tn_rng r;
    tn_rng_seed(&r, 3, 3);
    for (int iter = 0; iter < 200; iter++) {
        int w = 1 + (int)tn_rng_below(&r, 40), h = 1 + (int)tn_rng_below(&r, 30);
        tn_map *m = NULL;
        assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint32_t k = tn_rng_below(&r, 7);
                if (k < 3)
                    tn_map_set_tile(m, x, y, (int)k, NULL);
                else if (k < 6)
                    tn_map_set_mark(m, x, y, (int)k - 2, NULL);
            }
        if (tn_rng_below(&r, 2)) {
            int sx = (int)tn_rng_below(&r, (uint32_t)w), sy = (int)tn_rng_below(&r, (uint32_t)h);
            tn_map_set_tile(m, sx, sy, TN_TILE_EMPTY, NULL);
            tn_map_set_mark(m, sx, sy, TN_MARK_NONE, NULL);
            m->start_x = sx;
            m->start_y = sy;
        }
        size_t cap = tn_map_format_size(m), len;
        char *buf = malloc(cap);
        assert_true(tn_succeeded(tn_map_format(m, buf, cap, &len)));
        assert_int_equal(strlen(buf), len);
        assert_true(tn_failed(tn_map_format(m, buf, cap - 1, &len)));
        tn_map *back = NULL;
        tn_error e;
        tn_status s = tn_map_parse(buf, len, "rt", NULL, &back, &e);
        if (tn_failed(s)) fail_msg("%s", e.msg);
        assert_true(tn_map_equal(m, back));
        free(buf);
        tn_map_destroy(m);
        tn_map_destroy(back);
    }
}

/* A start under a block or one-way platform (a block toggled onto it):
 * "start X Y" in the header, written by tn_map_format and read back; its
 * errors name the line. */
static void test_start_under_block(void **state)
{
    (void)state;
    tn_map *m = parse_ok("tilenav-map 1\nsize 3 2\nstart 1 0\ntiles\n.#.\n=..\n");
    assert_int_equal(m->start_x, 1);
    assert_int_equal(m->start_y, 0);
    assert_int_equal(tn_map_tile(m, 1, 0), TN_TILE_BLOCK);
    for (int k = 0; k < 2; k++) { /* under a block, then under a one-way platform */
        if (k) {
            m->start_x = 0;
            m->start_y = 1;
        }
        size_t cap = tn_map_format_size(m), len;
        char *buf = malloc(cap);
        assert_true(tn_succeeded(tn_map_format(m, buf, cap, &len)));
        assert_int_equal(strlen(buf), len);
        assert_non_null(strstr(buf, k ? "start 0 1\ntiles\n" : "start 1 0\ntiles\n"));
        tn_map *back = parse_ok(buf);
        assert_true(tn_map_equal(m, back));
        tn_map_destroy(back);
        free(buf);
    }
    tn_map_destroy(m);
    m = parse_ok("tilenav-map 1\nstart 0 0\nsize 2 1\ntiles\n..\n"); /* on an empty tile: a P */
    assert_int_equal(m->start_x, 0);
    tn_map_destroy(m);
    EXPECT("tilenav-map 1\nsize 2 1\nstart 2 0\ntiles\n..\n",
           "t.map:3:7: start 2 0 is outside the 2x1 map");
    EXPECT("tilenav-map 1\nsize 2 1\nstart 1\ntiles\n..\n",
           "t.map:3:7: 'start' needs two whole numbers: start X Y (only one given)");
    EXPECT("tilenav-map 1\nsize 2 1\nstart 1 0\nstart 1 0\ntiles\n..\n",
           "t.map:4:1: repeated header line 'start'");
    EXPECT("tilenav-map 1\nsize 2 1\nstart 1 0\ntiles\nP#\n",
           "t.map:3:7: start 1 0: the map also has a 'P'");
    EXPECT("tilenav-map 1\nsize 2 1\nstart 1 0\ntiles\n.S\n",
           "t.map:3:7: start 1 0: that tile holds a spawn point, destination or item");
}

static void test_movingai(void **state)
{
    (void)state;
    tn_map *m;
    FILE *f = fopen("../shared/data/movingai/arena.map", "rb");
    if (!f) {
        fprintf(stderr, "SKIP test_movingai: ../shared/data/movingai/arena.map is missing\n");
        skip();
    }
    fclose(f);
    m = tu_load_map("../shared/data/movingai/arena.map");
    assert_int_equal(m->w, 49);
    assert_int_equal(m->h, 49);
    assert_int_equal(m->start_x, -1);
    tn_map_destroy(m);
}

/* The spawn list tn_enemies_step takes, without a loop of the caller's
 * (examples/tower_defense.c and a game of a library review wrote one). */
static void test_list_marks(void **state)
{
    (void)state;
    static const char txt[] = "tilenav-map 1\nsize 4 3\ntiles\nS..D\n.#S.\nS.*D\n";
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_parse(txt, sizeof txt - 1, "t", NULL, &m, NULL)));
    int32_t out[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    assert_int_equal(tn_map_list_marks(m, TN_MARK_SPAWN, out, 8), 3);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 1 * 4 + 2);
    assert_int_equal(out[2], 2 * 4 + 0);
    assert_int_equal(out[3], -1);
    /* cut at cap, the count whole; counting alone with out NULL or cap <= 0 */
    out[1] = -1;
    assert_int_equal(tn_map_list_marks(m, TN_MARK_DEST, out, 1), 2);
    assert_int_equal(out[0], 3);
    assert_int_equal(out[1], -1);
    assert_int_equal(tn_map_list_marks(m, TN_MARK_ITEM, NULL, 8), 1);
    assert_int_equal(tn_map_list_marks(m, TN_MARK_ITEM, out, -3), 1);
    assert_int_equal(out[0], 3);
    assert_int_equal(tn_map_list_marks(m, 99, out, 8), 0);
    assert_int_equal(tn_map_list_marks(NULL, TN_MARK_SPAWN, out, 8), 0);
    assert_int_equal(tn_map_list_marks(m, TN_MARK_SPAWN, NULL, 0),
                     tn_map_count_marks(m, TN_MARK_SPAWN));
    tn_map_destroy(m);
}

static void test_edits(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(3, 3, NULL, &m, NULL)));
    assert_true(tn_failed(tn_map_set_tile(m, 3, 0, TN_TILE_BLOCK, NULL)));
    assert_true(tn_failed(tn_map_set_tile(m, 0, 0, 7, NULL)));
    assert_true(tn_succeeded(tn_map_set_mark(m, 1, 1, TN_MARK_SPAWN, NULL)));
    assert_int_equal(tn_map_count_marks(m, TN_MARK_SPAWN), 1);
    tn_map_set_tile(m, 1, 1, TN_TILE_BLOCK, NULL); /* clears the mark */
    assert_int_equal(tn_map_mark(m, 1, 1), TN_MARK_NONE);
    assert_true(tn_failed(tn_map_set_mark(m, 1, 1, TN_MARK_DEST, NULL)));
    tn_error e;
    assert_true(tn_failed(tn_map_set_mark(m, 1, 1, TN_MARK_DEST, &e)));
    assert_string_equal(e.msg, "map: tile (1,1) is a block; spawns, destinations and items go on "
                               "empty tiles");
    assert_true(tn_failed(tn_map_set_tile(m, -1, 0, TN_TILE_BLOCK, &e)));
    assert_string_equal(e.msg, "map: tile (-1,0) is outside the 3x3 map");
    assert_true(tn_succeeded(tn_map_set_tile(m, 1, 1, TN_TILE_EMPTY, &e)));
    assert_string_equal(e.msg, "");
    tn_map *bad = m; /* must be reset to NULL */
    assert_true(tn_failed(tn_map_create(0, 3, NULL, &bad, NULL)));
    assert_null(bad);
    assert_true(tn_failed(tn_map_create(4097, 3, NULL, &bad, &e)));
    assert_null(bad);
    assert_non_null(strstr(e.msg, "4097x3"));
    tn_map_destroy(m);
}

/* A UTF-8 byte-order mark is skipped; trailing blanks on header lines are
 * accepted ("tilenav-map 1 " once said "unsupported format version"). */
static void test_bom_and_trailing_blanks(void **state)
{
    (void)state;
    tn_map *m = parse_ok("\xEF\xBB\xBFtilenav-map 1 \nsize 2 1\t\ntiles  \n.P\n");
    assert_int_equal(m->w, 2);
    assert_int_equal(m->start_x, 1);
    tn_map_destroy(m);
    m = parse_ok("\xEF\xBB\xBF# comment\ntilenav-map 1\nsize 1 1\ntiles\n.\n");
    tn_map_destroy(m);
    m = parse_ok("\xEF\xBB\xBFtype octile \nheight 1 \nwidth 2\nmap \nT.\n");
    assert_int_equal(tn_map_tile(m, 0, 0), TN_TILE_BLOCK);
    tn_map_destroy(m);
    /* only one mark is skipped, and only at the very start */
    EXPECT("\xEF\xBB\xBF\xEF\xBB\xBFtilenav-map 1\n",
           "t.map:1:1: unexpected byte 0xef in a header line (is this a map file?)");
    EXPECT("tilenav-map 2 \n", "t.map:1:13: unsupported format version (expected 'tilenav-map 1')");
}

/* A NULL name: messages start with "map", the module (tn_common.h), as
 * tn_map_save's do (parse said "<map>:4:1: ...", and tn_map.h said save's
 * NULL name was "map" as in tn_map_parse).  An empty name keeps the bare
 * ":4:1: ..." a caller puts its own (long) path before: the game does. */
static void test_parse_null_name(void **state)
{
    (void)state;
    static const char text[] = "tilenav-map 1\nsize 1 1\ntiles\nx\n";
    tn_map *m = NULL;
    tn_error e = {0};
    assert_true(tn_failed(tn_map_parse(text, sizeof text - 1, NULL, NULL, &m, &e)));
    assert_string_equal(e.msg,
                        "map:4:1: unknown tile character 'x' (expected one of . # = P S D *)");
    assert_true(tn_failed(tn_map_parse(text, sizeof text - 1, "", NULL, &m, &e)));
    assert_string_equal(e.msg, ":4:1: unknown tile character 'x' (expected one of . # = P S D *)");
    tn_map *ok = NULL;
    assert_true(tn_succeeded(tn_map_create(1, 1, NULL, &ok, NULL)));
    char buf[4];
    assert_true(tn_failed(tn_map_save(ok, NULL, buf, sizeof buf, NULL, &e)));
    assert_true(strncmp(e.msg, "map: ", 5) == 0);
    tn_map_destroy(ok);
}

/* tn_map_format with no map: INVALID_PARAM (it dereferenced it). */
static void test_format_null_map(void **state)
{
    (void)state;
    char buf[8];
    assert_int_equal(tn_map_format(NULL, buf, sizeof buf, NULL), TN_FAILURE | TN_INVALID_PARAM);
    assert_int_equal(tn_map_format(NULL, NULL, 0, NULL), TN_FAILURE | TN_INVALID_PARAM);
    /* the size a NULL map needs: 0, as its format call refuses it (it
     * dereferenced NULL) */
    assert_int_equal(tn_map_format_size(NULL), 0);
}

/* tn_map_save: tn_map_format's text with the library's error contract:
 * every refusal names the map, the problem and, for a tile, LINE:COL of
 * its character in the text.  A map whose fields were set by hand to what
 * the text cannot hold is refused instead of written as another map
 * (tn_map_format wrote terrain 7 as '.', a mark on a block as '#').  An
 * unknown code is called one ("has terrain (terrain 7" said nothing). */
static void test_save_messages(void **state)
{
    (void)state;
    tn_map *m = parse_ok("tilenav-map 1\nsize 3 2\ntiles\n.S.\n#=P\n");
    size_t cap = tn_map_format_size(m), len = 99;
    char *buf = malloc(cap), fmt[64];
    tn_error e;
    e.msg[0] = 'x';
    assert_int_equal(tn_map_save(m, "a.map", buf, cap, &len, &e), TN_OK);
    assert_string_equal(buf, "tilenav-map 1\nsize 3 2\ntiles\n.S.\n#=P\n");
    assert_int_equal(len, strlen(buf));
    assert_int_equal(e.status, TN_OK); /* cleared */
    assert_string_equal(e.msg, "");
    assert_int_equal(tn_map_format(m, fmt, sizeof fmt, NULL), TN_OK);
    assert_string_equal(fmt, buf);

    assert_int_equal(tn_map_save(m, "a.map", buf, cap - 1, &len, &e),
                     TN_FAILURE | TN_BUFFER_TOO_SMALL);
    assert_string_equal(e.msg, "a.map: the 3x2 map's text needs 38 bytes, the buffer has 37: not "
                               "written");
    assert_int_equal(tn_map_save(m, NULL, NULL, 0, NULL, &e), TN_FAILURE | TN_BUFFER_TOO_SMALL);
    assert_non_null(strstr(e.msg, "map: the 3x2 map's text needs 38 bytes, the buffer has 0"));
    assert_int_equal(tn_map_save(NULL, "a.map", buf, cap, NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "map: no map to write (m is NULL)");

    /* bad tiles: refused with the tile, LINE:COL and nothing in buf */
    struct {
        int x, y, tile, mark;
        const char *want;
    } bad[] = {
        {1, 0, 7, 0, "a.map:4:2: tile (1,0) has an unknown terrain code (terrain 7, content 0;"},
        {0, 0, 0, 9, "a.map:4:1: tile (0,0) has an unknown content code (terrain 0, content 9;"},
        {0, 1, 1, 2,
         "a.map:5:1: tile (0,1) has content on a block or one-way platform "
         "(terrain 1, content 2;"},
        {2, 1, 0, 3,
         "a.map:5:3: tile (2,1) has content on the character start (terrain 0, "
         "content 3;"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        tn_map *c = NULL;
        assert_true(tn_succeeded(tn_map_clone(m, &c, NULL)));
        size_t i = (size_t)bad[k].y * 3 + (size_t)bad[k].x;
        c->tile[i] = (uint8_t)bad[k].tile;
        c->mark[i] = (uint8_t)bad[k].mark;
        strcpy(buf, "kept");
        assert_int_equal(tn_map_save(c, "a.map", buf, cap, NULL, &e),
                         TN_FAILURE | TN_INVALID_PARAM);
        if (!strstr(e.msg, bad[k].want)) fail_msg("case %zu: %s", k, e.msg);
        assert_non_null(strstr(e.msg, "): not written"));
        assert_int_equal(e.line, bad[k].y + 4);
        assert_int_equal(e.col, bad[k].x + 1);
        assert_string_equal(buf, "kept"); /* not written */
        /* the old entry point refuses it too (it wrote another map) */
        assert_int_equal(tn_map_format(c, buf, cap, NULL), TN_FAILURE | TN_INVALID_PARAM);
        tn_map_destroy(c);
    }
    /* a start under a block: its line comes before "tiles", the rows one later */
    tn_map *c = NULL;
    assert_true(tn_succeeded(tn_map_clone(m, &c, NULL)));
    c->start_x = 0;
    c->start_y = 1; /* under the block */
    c->tile[1] = 5;
    assert_int_equal(tn_map_save(c, "a.map", buf, cap + 16, NULL, &e),
                     TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(e.msg, "a.map:5:2: tile (1,0) has an unknown terrain code"));
    c->tile[1] = TN_TILE_EMPTY;
    c->start_x = 3; /* outside, and not -1,-1 */
    assert_int_equal(tn_map_save(c, "a.map", buf, cap, NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "a.map: the character start (3,1) is outside the 3x2 map (-1,-1 is "
                               "none): not written");
    c->start_x = -1;
    c->w = 0;
    assert_int_equal(tn_map_save(c, "a.map", buf, cap, NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "a.map: size 0x2 is outside 1..4096: not written");
    c->w = 3;
    tn_map_destroy(c);
    free(buf);
    tn_map_destroy(m);
}

/* A failed parse leaves *out NULL (tn_common.h: "*out is NULL on failure"),
 * also when the arguments themselves are refused: a caller that destroys
 * *out after any failure must not free a stale pointer. */
/* A long name is shortened in a parse message (its last components after
 * "..."), never the line, column and problem after it. */
static void test_parse_long_name(void **state)
{
    (void)state;
    char name[400];
    size_t n = (size_t)snprintf(name, sizeof name, "/maps");
    while (n + 20 < sizeof name) n += (size_t)snprintf(name + n, sizeof name - n, "/level");
    snprintf(name + n, sizeof name - n, "/x.map");
    const char *text = "tilenav-map 1\nsize 3 3\ntiles\n...\n.P.\n##\n";
    tn_map *m = NULL;
    tn_error e;
    assert_true(tn_failed(tn_map_parse(text, strlen(text), name, NULL, &m, &e)));
    const char *want = "/level/x.map:6:3: row 3 has 2 characters, expected 3";
    size_t el = strlen(e.msg), wl = strlen(want);
    assert_true(el > wl);
    assert_string_equal(e.msg + el - wl, want);
    assert_memory_equal(e.msg, ".../level/", 10);
    assert_int_equal(e.line, 6);
    assert_int_equal(e.col, 3);
    /* a short name is kept whole */
    assert_true(tn_failed(tn_map_parse(text, strlen(text), "a/b.map", NULL, &m, &e)));
    assert_string_equal(e.msg, "a/b.map:6:3: row 3 has 2 characters, expected 3");
    /* tn_name_fit itself: one long component is cut at a UTF-8 boundary */
    char out[16];
    assert_int_equal(
        tn_name_fit(out, sizeof out, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", ":1:2: x"),
        strlen("...\xc3\xa9\xc3\xa9:1:2: x")); /* 5 bytes of room: 2 whole */
    assert_string_equal(out, "...\xc3\xa9\xc3\xa9:1:2: x");
    assert_int_equal(tn_name_fit(out, 8, "name", ":1:2: too long"), 7);
    assert_string_equal(out, "...:1:2");
}

static void test_parse_failure_clears_out(void **state)
{
    (void)state;
    tn_map *m = (tn_map *)(uintptr_t)0x1; /* a stale value */
    tn_error e = {0};
    assert_int_equal(tn_map_parse(NULL, 5, "t.map", NULL, &m, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_null(m);
    assert_true(e.msg[0] != '\0');
    m = (tn_map *)(uintptr_t)0x1;
    assert_true(tn_failed(tn_map_parse("junk\n", 5, "t.map", NULL, &m, &e)));
    assert_null(m);
    tn_map_destroy(m);
}

/* A set to what is there already is no change: the revision, which caches
 * compare (tn_path's tile bits, bots re-planning for "map edited"), stays;
 * every real change moves it (an adopter saw EMPTY -> EMPTY bump it). */
static void test_no_op_set_keeps_revision(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(4, 3, NULL, &m, NULL)));
    uint32_t r = m->revision;
    assert_true(tn_succeeded(tn_map_set_tile(m, 1, 1, TN_TILE_EMPTY, NULL)));
    assert_int_equal(m->revision, r);
    assert_true(tn_succeeded(tn_map_set_mark(m, 1, 1, TN_MARK_NONE, NULL)));
    assert_int_equal(m->revision, r);
    assert_true(tn_succeeded(tn_map_set_mark(m, 1, 1, TN_MARK_ITEM, NULL)));
    assert_int_equal(m->revision, r + 1);
    assert_true(tn_succeeded(tn_map_set_mark(m, 1, 1, TN_MARK_ITEM, NULL)));
    assert_int_equal(m->revision, r + 1);
    /* a block over the item clears it: a change though the mark went */
    assert_true(tn_succeeded(tn_map_set_tile(m, 1, 1, TN_TILE_BLOCK, NULL)));
    assert_int_equal(m->revision, r + 2);
    assert_int_equal(m->mark[1 * 4 + 1], TN_MARK_NONE);
    assert_true(tn_succeeded(tn_map_set_tile(m, 1, 1, TN_TILE_BLOCK, NULL)));
    assert_int_equal(m->revision, r + 2);
    assert_true(tn_succeeded(tn_map_set_tile(m, 1, 1, TN_TILE_ONEWAY, NULL)));
    assert_int_equal(m->revision, r + 3);
    tn_map_destroy(m);
}

/* tn_map_save with a long name keeps the tile's line, column and problem,
 * the name shortened as tn_map_parse shortens it (the message was the
 * name alone, cut at 255 bytes). */
static void test_save_long_name(void **state)
{
    (void)state;
    char name[400];
    size_t n = (size_t)snprintf(name, sizeof name, "/maps");
    while (n + 20 < sizeof name) n += (size_t)snprintf(name + n, sizeof name - n, "/level");
    snprintf(name + n, sizeof name - n, "/x.map");
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(3, 2, NULL, &m, NULL)));
    m->mark[4] = 9; /* tile (1,1): row 1 is line 5 of the text */
    char buf[64];
    tn_error e;
    assert_int_equal(tn_map_save(m, name, buf, sizeof buf, NULL, &e),
                     TN_FAILURE | TN_INVALID_PARAM);
    const char *want = "/level/x.map:5:2: tile (1,1) has an unknown content code";
    assert_memory_equal(e.msg, ".../level/", 10);
    assert_non_null(strstr(e.msg, want));
    assert_non_null(strstr(e.msg, ": not written"));
    assert_int_equal(e.line, 5);
    assert_int_equal(e.col, 2);
    m->mark[4] = 0;
    assert_true(tn_failed(tn_map_save(m, name, buf, 4, NULL, &e)));
    assert_memory_equal(e.msg, ".../level/", 10);
    assert_non_null(strstr(e.msg, "/x.map: the 3x2 map's text needs 38 bytes, the buffer has 4"));
    /* a short name is kept whole */
    assert_true(tn_failed(tn_map_save(m, "a/b.map", buf, 4, NULL, &e)));
    assert_string_equal(e.msg, "a/b.map: the 3x2 map's text needs 38 bytes, the buffer has 4: not "
                               "written");
    tn_map_destroy(m);
}

/* tn_map_clone names the NULL argument ("map: no map to clone (m is
 * NULL)"), as every module's messages do. */
static void test_clone_null_named(void **state)
{
    (void)state;
    tn_map *m = NULL, *c = NULL;
    assert_true(tn_succeeded(tn_map_create(3, 2, NULL, &m, NULL)));
    tn_error e;
    assert_int_equal(tn_map_clone(NULL, &c, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "map: no map to clone (m is NULL)");
    assert_null(c);
    assert_int_equal(tn_map_clone(m, NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "map: no output pointer to clone (out is NULL)");
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_basic),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_null_maps),
        cmocka_unit_test(test_random_junk_never_crashes),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_start_under_block),
        cmocka_unit_test(test_movingai),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_bom_and_trailing_blanks),
        cmocka_unit_test(test_parse_null_name),
        cmocka_unit_test(test_format_null_map),
        cmocka_unit_test(test_save_messages),
        cmocka_unit_test(test_parse_failure_clears_out),
        cmocka_unit_test(test_parse_long_name),
        cmocka_unit_test(test_save_long_name),
        cmocka_unit_test(test_no_op_set_keeps_revision),
        cmocka_unit_test(test_list_marks),
        cmocka_unit_test(test_clone_null_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
