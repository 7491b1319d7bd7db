/* tilenav: the game.  See `tilenav --help` and README.md. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "control.h"
#include "fileio.h"
#include "game.h"
#include "script.h"
#include "tiled.h"
#include "tn_version.h"
#include "tn_world.h"

static const char USAGE[] =
    "usage: tilenav [--map FILE] [options] [MAP...]\n"
    "  --map FILE          map to play: tilenav or Moving AI .map, Tiled .tmx/.tmj/.json;\n"
    "                      default: the first MAP, else maps/demo.map\n"
    "  --headless          no window: run --frames steps as fast as possible, print one JSON line\n"
    "  --frames N          stop after N fixed 1/60 s steps (required with --headless; in a\n"
    "                      window 0, the default, is no limit)\n"
    "  --script FILE       apply the commands of a script file (see README)\n"
    "  --seed S            seed of every random choice (default 1)\n"
    "  --screenshot OUT    render offscreen after --frames steps and write OUT, a BMP (the name\n"
    "                      must end in .bmp); no display needed\n"
    "  --assets DIR        where DejaVuSans.ttf is (default: assets, then the installed share "
    "dir)\n"
    "  --jump-height H     jump height in tiles, 1..8 (default 4)\n"
    "  --char W H          character size in tiles, 1..3 x 1..9 (default 1 2)\n"
    "  --overlays LIST     comma list: %s\n"
    "  MAP...              maps for the window's map picker (Tab), at most 64; without --map\n"
    "                      the first one is played\n"
    "  --help, -h, --version\n";

typedef struct options {
    const char *map, *script, *screenshot, *assets;
    long frames;
    bool headless;
    unsigned long long seed;
    double jump_height;
    int char_w, char_h;
    unsigned overlays;
    const char *extra[64]; /* positional maps for the picker (the first is played
                              when there is no --map) */
    int nextra;
} options;

static int usage_error(const char *fmt, const char *arg)
{
    char msg[2048];
    snprintf(msg, sizeof msg, fmt, arg);
    tn_print_shown(stderr, "tilenav: %s (see tilenav --help)\n", msg); /* arg as shown */
    return 2;
}

/* Where `make install` puts the maps and fonts: the Makefile passes
 * -DTN_DATADIR="$(PREFIX)/share/tilenav" (without DESTDIR, which is only
 * where the files are staged); a build without it looks in /usr/local. */
#ifndef TN_DATADIR
#define TN_DATADIR "/usr/local/share/tilenav"
#endif

/* The default map: maps/demo.map here, else the installed copy (TN_DATADIR,
 * then /usr/local and /usr). */
static const char *default_map(char *where, size_t cap)
{
    static const char *const paths[] = {"maps/demo.map", TN_DATADIR "/maps/demo.map",
                                        "/usr/local/share/tilenav/maps/demo.map",
                                        "/usr/share/tilenav/maps/demo.map"};
    enum { N = sizeof paths / sizeof paths[0] };
    /* access(), never a probe with fopen: that waits forever on a FIFO,
     * which the loader then refuses with its name */
    for (size_t i = 0; i < N; i++)
        if (access(paths[i], R_OK) == 0) return paths[i];
    /* none: where it looked (each directory once: TN_DATADIR may be one of
     * the others), for parse_args' message */
    size_t n = 0;
    where[0] = '\0';
    for (size_t i = 0; i < N && n < cap; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++) seen |= strcmp(paths[i], paths[j]) == 0;
        if (!seen)
            n += (size_t)snprintf(where + n, cap - n, "%s%.*s", n ? ", " : "",
                                  (int)(strlen(paths[i]) - strlen("/demo.map")), paths[i]);
    }
    return NULL;
}

/* The value(s) of the option at argv[i] for a message: 'A', or 'W H' for
 * --char; "no value" when it has none. */
static void option_value(int argc, char **argv, int i, char *out, size_t cap)
{
    int n = strcmp(argv[i], "--char") == 0 ? 2 : 1;
    if (i + n >= argc) {
        snprintf(out, cap, "no value");
        return;
    }
    if (n == 2)
        snprintf(out, cap, "'%.250s %.250s'", argv[i + 1], argv[i + 2]);
    else
        snprintf(out, cap, "'%.500s'", argv[i + 1]);
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->map = NULL; /* once the arguments are read: the first MAP, else default_map() */
    o->seed = 1;
    o->jump_height = 4;
    o->char_w = 1;
    o->char_h = 2;
    /* Options that take a value may be given once: with two, one of the two
     * values would be dropped without a word.  first[k]: where option k was. */
    static const char *const VALUED[] = {"--map",         "--script", "--screenshot",
                                         "--assets",      "--frames", "--seed",
                                         "--jump-height", "--char",   "--overlays"};
    enum { NVALUED = sizeof VALUED / sizeof VALUED[0] };
    int first[NVALUED] = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        double v;
        for (int k = 0; k < NVALUED; k++) {
            if (strcmp(a, VALUED[k]) != 0) continue;
            if (first[k]) {
                char msg[1200], v1[520], v2[520];
                option_value(argc, argv, first[k], v1, sizeof v1);
                option_value(argc, argv, i, v2, sizeof v2);
                snprintf(msg, sizeof msg, "option '%s' is given twice (%s, then %s): give it once",
                         a, v1, v2);
                return usage_error("%s", msg);
            }
            first[k] = i;
        }
#define NEED_ARG()                                                 \
    if (!next) return usage_error("option '%s' needs a value", a); \
    i++
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            char ids[256];
            tn_overlays_list(ids, sizeof ids, ",");
            printf(USAGE, ids);
            return -1;
        } else if (strcmp(a, "--version") == 0) {
            puts("tilenav " TN_VERSION_STRING);
            return -1;
        } else if (strcmp(a, "--headless") == 0) {
            o->headless = true;
        } else if (strcmp(a, "--map") == 0) {
            NEED_ARG();
            if (!*next) return usage_error("%s", "--map needs a file name, got an empty one");
            o->map = next;
        } else if (strcmp(a, "--script") == 0) {
            NEED_ARG();
            if (!*next) return usage_error("%s", "--script needs a file name, got an empty one");
            o->script = next;
        } else if (strcmp(a, "--screenshot") == 0) {
            NEED_ARG();
            if (!tn_is_bmp_name(next))
                return usage_error("--screenshot writes a BMP image: give a name ending in .bmp, "
                                   "got '%s'",
                                   next);
            o->screenshot = next;
        } else if (strcmp(a, "--assets") == 0) {
            NEED_ARG();
            if (!*next)
                return usage_error("%s", "--assets needs a directory (the one holding "
                                         "DejaVuSans.ttf), got an empty name");
            o->assets = next;
        } else if (strcmp(a, "--frames") == 0) {
            NEED_ARG();
            if (!tn_parse_number(next, 0, 1e9, &v) || v != (long)v)
                return usage_error("--frames needs a whole number 0..1000000000, got '%s'", next);
            o->frames = (long)v;
        } else if (strcmp(a, "--seed") == 0) {
            NEED_ARG();
            char *end;
            errno = 0;
            o->seed = strtoull(next, &end, 10);
            if (!*next || *end || errno || strspn(next, "0123456789") != strlen(next))
                return usage_error("--seed needs a whole number 0..18446744073709551615, got '%s'",
                                   next);
        } else if (strcmp(a, "--jump-height") == 0) {
            NEED_ARG();
            if (!tn_parse_number(next, 1, 8, &o->jump_height))
                return usage_error("--jump-height needs a number 1..8, got '%s'", next);
        } else if (strcmp(a, "--char") == 0) {
            if (i + 2 >= argc) return usage_error("option '%s' needs two values: --char W H", a);
            double cw, ch;
            if (!tn_parse_number(argv[i + 1], 1, 3, &cw) || cw != (int)cw)
                return usage_error("--char width must be 1, 2 or 3, got '%s'", argv[i + 1]);
            if (!tn_parse_number(argv[i + 2], 1, 9, &ch) || ch != (int)ch)
                return usage_error("--char height must be a whole number 1..9, got '%s'",
                                   argv[i + 2]);
            o->char_w = (int)cw;
            o->char_h = (int)ch;
            i += 2;
        } else if (strcmp(a, "--overlays") == 0) {
            NEED_ARG();
            char ids[256];
            tn_overlays_list(ids, sizeof ids, ", ");
            if (!*next) {
                char msg[400];
                snprintf(msg, sizeof msg, "--overlays needs one or more names (%s), got ''", ids);
                return usage_error("%s", msg);
            }
            if (next[0] == ',' || next[strlen(next) - 1] == ',' || strstr(next, ",,")) {
                char fmt[400];
                snprintf(fmt, sizeof fmt,
                         "--overlays: an empty name in '%%s' (a comma with no name beside it; "
                         "names: %s)",
                         ids);
                return usage_error(fmt, next);
            }
            if (!tn_overlays_parse(next, &o->overlays)) {
                /* name the one that is not known (the first) */
                char word[64] = "";
                for (const char *p = next; *p;) {
                    size_t n = strcspn(p, ",");
                    snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), p);
                    unsigned one = 0;
                    if (!tn_overlays_parse(word, &one)) break;
                    p += n + (p[n] == ',');
                }
                char msg[2048]; /* (not a format: the words are the user's) */
                snprintf(msg, sizeof msg, "--overlays: unknown overlay '%s' in '%s' (names: %s)",
                         word, next, ids);
                return usage_error("%s", msg);
            }
        } else if (a[0] != '-' && o->nextra == 64) {
            return usage_error("more than 64 MAP arguments: '%s' is the 65th (the map picker "
                               "takes at most 64)",
                               a);
        } else if (a[0] != '-' && !a[0]) {
            return usage_error("%s", "a MAP argument is empty: give a file name");
        } else if (a[0] != '-') {
            o->extra[o->nextra++] = a; /* a map for the picker */
        } else {
            return usage_error("unknown option '%s'", a);
        }
#undef NEED_ARG
    }
    char where[512];
    if (!o->map) o->map = o->nextra > 0 ? o->extra[0] : default_map(where, sizeof where);
    if (!o->map) {
        char msg[700];
        snprintf(msg, sizeof msg,
                 "no map given, and no demo.map in %s: give one (tilenav MAP), or start it from "
                 "the tilenav directory",
                 where);
        return usage_error("%s", msg);
    }
    if (o->headless && o->screenshot)
        return usage_error("%s", "--headless and --screenshot do not go together");
    if (o->headless && o->frames <= 0)
        return usage_error("%s", "--headless needs --frames N (N >= 1)");
    return 0;
}

static const char *find_assets(const char *given)
{
    if (given) return given;
    static const char *const dirs[] = {"assets", TN_DATADIR "/assets",
                                       "/usr/local/share/tilenav/assets",
                                       "/usr/share/tilenav/assets"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/DejaVuSans.ttf", dirs[i]);
        if (access(p, R_OK) == 0) return dirs[i]; /* (no fopen: a FIFO would hang it) */
    }
    return "assets";
}

typedef struct host_ctx {
    const char *assets;
    unsigned overlays;
    const char *map;
} host_ctx;

static int host_save(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    host_ctx *h = user;
    return tn_script_save_map(w, path, h->map, err, cap);
}

static int host_screenshot(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    host_ctx *h = user;
    if (tn_screenshot_target_check(path, err, cap) != 0) return -1; /* a map stays a map */
    return tn_game_screenshot(w, h->assets, path, h->overlays, err, cap);
}

/* Script `reset` (the display-only commands need no host here). */
static int host_control(void *user, tn_world *w, int op, double value, char *err, size_t cap)
{
    host_ctx *h = user;
    (void)value;
    if (op == TN_SC_RESET) return tn_control_reset(w, h->map, err, cap);
    return 0;
}

static double monotonic_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
    /* Keep freed memory in the process instead of giving it back to the
     * kernel after every graph build or repair: on the machine this was
     * measured on, page faults cost that much that a demo-map graph build
     * (a jump-slider move) took 11.4 ms with glibc's defaults and 9.5 ms
     * with these, a repair 1.3 -> 1.1 ms (docs/perf.md). */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;

    char err[1024];
    tn_map *map;
    if (tn_load_map(o.map, &map, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav: %s\n", err);
        return 1;
    }
    for (int i = 0; i < o.nextra; i++) {   /* the picker's maps must load too */
        if (o.extra[i] == o.map) continue; /* loaded above */
        tn_map *x;
        if (tn_load_map(o.extra[i], &x, err, sizeof err) != 0) {
            tn_print_shown(stderr, "tilenav: %s\n", err);
            tn_map_destroy(map);
            return 1;
        }
        tn_map_destroy(x);
    }
    tn_script *script = NULL;
    if (o.script) {
        char *buf;
        size_t len;
        if (tn_read_file(o.script, TN_SCRIPT_MAX_BYTES, &buf, &len, err, sizeof err) != 0) {
            tn_print_shown(stderr, "tilenav: %s\n", err);
            tn_map_destroy(map);
            return 1;
        }
        script = tn_script_parse(buf, len, o.script, err, sizeof err);
        free(buf);
        if (!script) {
            tn_print_shown(stderr, "tilenav: %s\n", err);
            tn_map_destroy(map);
            return 1;
        }
    }

    /* before the run: a screenshot that would replace a map is said at once */
    if (o.screenshot && tn_screenshot_target_check(o.screenshot, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav: %s\n", err);
        tn_map_destroy(map);
        tn_script_destroy(script);
        return 1;
    }

    tn_world_config cfg = tn_world_default_config();
    cfg.seed = o.seed;
    cfg.jump_height = (float)o.jump_height;
    cfg.char_w = o.char_w;
    cfg.char_h = o.char_h;
    /* graph builds on the machine's cores (the same graphs, sooner) */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cfg.graph_threads = cpus < 1 ? 1 : (cpus > 8 ? 8 : (int)cpus);
    /* the window times the navmesh's first build too (its HUD said "N
     * triangles" with no build time until an edit); headless runs and
     * screenshots time nothing, so their output stays the same */
    if (!o.headless && !o.screenshot) cfg.clock = monotonic_s;
    tn_world *w;
    tn_error e;
    tn_status st;
    if (tn_failed(st = tn_world_create(map, &cfg, NULL, &w, &e))) {
        /* REFUSED: the character fits nowhere; the command line's way to a
         * smaller one */
        tn_print_shown(stderr, "tilenav: %s: %s%s\n", o.map, e.msg,
                       tn_status_detail(st, TN_REFUSED) ? " (--char W H)" : "");
        tn_script_destroy(script);
        return 1;
    }

    char moved[600]; /* a start with no room for the character: said, not silent */
    if (tn_control_start_moved(w, o.map, moved, sizeof moved)) {
        tn_print_shown(stderr, "tilenav: warning: %s\n", moved);
        tn_world_message(w, "warning: %s", moved);
        tn_world_set_message_ttl(w, 60 * 10);
    }

    const char *assets = find_assets(o.assets);
    tn_tiled_set_assets(assets); /* a new Tiled document names its tileset image there */
    /* --screenshot's fonts before the run: a missing one is said now, not
     * after --frames steps (and whatever the script saved meanwhile) */
    if (o.screenshot && tn_game_fonts_check(assets, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav: %s\n", err);
        tn_world_destroy(w);
        tn_script_destroy(script);
        return 1;
    }
    host_ctx hc = {assets, o.overlays, o.map};
    tn_script_host host = {&hc, host_save, host_screenshot, host_control,
                           NULL}; /* warnings: stderr */
    rc = 0;
    if (o.headless || o.screenshot) {
        if (tn_script_run(script, w, o.frames, &host, NULL, NULL, err, sizeof err) != 0) {
            tn_print_shown(stderr, "tilenav: %s\n", err);
            rc = 1;
        }
        if (rc == 0 && o.screenshot &&
            host_screenshot(&hc, w, o.screenshot, err, sizeof err) != 0) {
            tn_print_shown(stderr, "tilenav: %s\n", err);
            rc = 1;
        }
        char warn[512];
        int unrun = rc == 0 ? tn_script_unrun(script, o.frames, warn, sizeof warn) : 0;
        if (unrun) tn_print_shown(stderr, "tilenav: %s\n", warn);
        if (rc == 0 && o.headless) {
            int need = tn_world_json(w, NULL, 0);
            char *json = malloc((size_t)need + 1);
            if (json) {
                tn_world_json(w, json, (size_t)need + 1);
                /* the script's part, last: "unrun_commands":N */
                char *end = strrchr(json, '}');
                if (end) *end = '\0';
                printf("%s,\"unrun_commands\":%d}\n", json, unrun);
                free(json);
            } else {
                rc = 1;
            }
        }
    } else {
        /* the picker's maps: the one played (--map, or the first MAP) stays
         * in the list after another is picked, then the other MAPs */
        const char *pick[65] = {o.map};
        int npick = 1;
        for (int i = 0; i < o.nextra; i++)
            if (strcmp(o.extra[i], o.map) != 0) pick[npick++] = o.extra[i];
        tn_game_opts go = {o.map, assets, o.frames, script, o.overlays, pick, npick};
        rc = tn_game_run(w, &go);
    }
    tn_world_destroy(w);
    tn_script_destroy(script);
    return rc;
}
