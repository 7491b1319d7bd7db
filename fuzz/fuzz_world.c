/* fuzz_world.c - libFuzzer harness: any script, run on a small world.
 *
 * The script parser's harness (fuzz_script.c) checks that bad text is
 * refused; this one checks that whatever a script that PARSES asks of the
 * world (edits anywhere, clicks with every tool, any parameter in range, in
 * any order, on crowded or tiny maps) never crashes it and never breaks an
 * invariant.
 *
 * Input: byte 0 picks one of the maps below; the rest is script text.
 * The script runs for up to MAX_STEPS steps (commands due later all run
 * after the last step), and after every step:
 *  - tn_world_check() must succeed (every subsystem's own invariants);
 *  - the JSON report and the HUD are produced (their lengths agree with
 *    what was asked for) and every debug-draw coordinate is finite.
 * Saves and screenshots go to a stub host that formats the map in memory
 * and writes nothing.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"
#include "tn_world.h"

#include "fuzz_util.h"
#define MAX_STEPS 48

static const char *const MAPS[] = {
    /* the test map: walls, a one-way platform, spawn, destination, item */
    "tilenav-map 1\nsize 12 8\ntiles\n"
    "############\n#..........#\n#.S......D.#\n#..........#\n"
    "#....===...#\n#.*........#\n#P.....#...#\n############\n",
    /* a tiny room the character barely fits */
    "tilenav-map 1\nsize 3 4\ntiles\n...\n...\nP..\n###\n",
    /* open sky, no start, marks everywhere, no floor */
    "tilenav-map 1\nsize 16 6\ntiles\n"
    "S..............D\n....====........\n..*.....##....S.\n"
    "................\n.D....=.....*...\n................\n",
    /* a Moving AI map */
    "type octile\nheight 6\nwidth 10\nmap\n"
    "@@@@@@@@@@\n@........@\n@..TT....@\n@.....W..@\n@........@\n@@@@@@@@@@\n",
};
#define NMAPS (sizeof MAPS / sizeof MAPS[0])

static int stub_save(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    (void)user;
    (void)path;
    (void)err;
    (void)cap;
    size_t need = tn_map_format_size(tn_world_map(w)), len = 0;
    char *buf = malloc(need);
    CHECK(buf != NULL);
    CHECK(!tn_failed(tn_map_format(tn_world_map(w), buf, need, &len)));
    tn_map *m = NULL;
    tn_error e;
    CHECK(!tn_failed(tn_map_parse(buf, len, "saved", NULL, &m, &e)));
    CHECK(tn_map_equal(m, tn_world_map(w)));
    tn_map_destroy(m);
    free(buf);
    tn_world_set_dirty(w, false);
    return 0;
}

static int stub_screenshot(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    (void)user;
    (void)w;
    (void)path;
    (void)err;
    (void)cap;
    return 0;
}

/* A refused `set`: named by the script's file and line; nothing printed. */
static void stub_warn(void *user, const char *msg)
{
    (void)user;
    CHECK(strncmp(msg, "fuzz.script:", 12) == 0);
}

static void fin(float v) { CHECK(isfinite(v)); }
static void dd_line(void *u, float x0, float y0, float x1, float y1, uint32_t c)
{
    (void)u, (void)c;
    fin(x0), fin(y0), fin(x1), fin(y1);
}
static void dd_rect(void *u, float x, float y, float w, float h, uint32_t c, bool f)
{
    (void)u, (void)c, (void)f;
    fin(x), fin(y), fin(w), fin(h);
}
static void dd_circle(void *u, float x, float y, float r, uint32_t c, bool f)
{
    (void)u, (void)c, (void)f;
    fin(x), fin(y), fin(r);
}
static void dd_tri(void *u, float x0, float y0, float x1, float y1, float x2, float y2, uint32_t c)
{
    (void)u, (void)c;
    fin(x0), fin(y0), fin(x1), fin(y1), fin(x2), fin(y2);
}
static void dd_text(void *u, float x, float y, const char *s, uint32_t c)
{
    (void)u, (void)c;
    fin(x), fin(y);
    CHECK(s != NULL);
}

static void report(tn_world *w, unsigned overlays)
{
    static char buf[1 << 16];
    int n = tn_world_json(w, NULL, 0);
    CHECK(n > 0);
    if ((size_t)n < sizeof buf) {
        CHECK(tn_world_json(w, buf, sizeof buf) == n && strlen(buf) == (size_t)n);
    }
    n = tn_world_hud(w, NULL, 0);
    CHECK(n >= 0);
    if ((size_t)n < sizeof buf) {
        CHECK(tn_world_hud(w, buf, sizeof buf) == n && strlen(buf) == (size_t)n);
    }
    const tn_debug_draw dd = {NULL, dd_line, dd_rect, dd_circle, dd_tri, dd_text};
    tn_world_draw(w, &dd, overlays);
}

/* After every step: the world's invariants hold, and it reports and draws. */
static void checked(tn_world *w, void *overlays)
{
    tn_error e;
    if (tn_failed(tn_world_check(w, &e))) __builtin_trap();
    report(w, *(unsigned *)overlays);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *mt = MAPS[data[0] % NMAPS];
    unsigned overlays = data[0] >> 2;
    char err[512];
    tn_script *s =
        tn_script_parse((const char *)data + 1, size - 1, "fuzz.script", err, sizeof err);
    if (!s) return 0;

    tn_error e;
    tn_map *map = NULL;
    CHECK(!tn_failed(tn_map_parse(mt, strlen(mt), "fuzz.map", NULL, &map, &e)));
    tn_world_config cfg = tn_world_default_config();
    cfg.seed = size;
    tn_world *w = NULL;
    if (tn_failed(tn_world_create(map, &cfg, NULL, &w, &e))) {
        CHECK(e.msg[0] != '\0');
        tn_script_destroy(s);
        return 0;
    }
    tn_script_host host = {NULL, stub_save, stub_screenshot, NULL, stub_warn};
    bool ok = tn_script_run(s, w, MAX_STEPS, &host, checked, &overlays, err, sizeof err) == 0;
    /* every command left, however late it is scheduled */
    if (ok && tn_script_apply(s, w, 2000000000L, &host, err, sizeof err) == 0) {
        tn_world_step(w);
        checked(w, &overlays);
    }
    if (!ok) CHECK(strncmp(err, "fuzz.script:", 12) == 0);
    tn_world_destroy(w);
    tn_script_destroy(s);
    return 0;
}
