/* tilenav-bench genmap: random test maps, and the outline extraction the CDT
 * benchmarks share.
 *
 *   tilenav-bench genmap --kind blocks --size N [--blocks B] [--seed S] [-o FILE]
 *
 * KIND blocks: an N x N map (1..4096), all tiles empty, then B (default 700)
 * square blocks, one after another: side s uniform in 1..8, top-left corner
 * (x, y) uniform over the map, tiles [x, x+s) x [y, y+s) set to BLOCK and
 * clipped at the map edge (blocks may overlap and merge).  Random numbers:
 * tn_rng seeded with (S, stream 1), drawn in the order s, x, y per block, so
 * a (size, blocks, seed) triple is the same map on every platform.  No start
 * tile and no content.  The map is written in the tilenav-map format to FILE
 * (or standard output): atomically, FILE must end in .map, and an existing
 * FILE is replaced only with --force; a summary line goes to standard error with the
 * outline's vertex and constraint-segment counts (see below).  With size 256,
 * 700 blocks give about 17,000 constraint segments (bench/run.sh uses seed 1).
 *
 *   tilenav-bench genmap --kind platformer --size W [--height H] [--seed S] [-o FILE]
 *
 * KIND platformer: a W x H (default H = W) side-view level from
 * tn_levelgen_platformer (terraced floor, pits, platforms of every height,
 * one-way platforms, walls; see tn_levelgen.h), seeded with tn_rng(S, stream
 * 1), with a start tile P.  At least 16 x 12.
 *
 * OUTLINE EXTRACTION (bench_outline, used by `cdt --map` and `--dump-input`),
 * the rule of tn_navmesh.h: free = empty or one-way, blocked = block or
 * outside the map.  A tile corner is a vertex unless its four tiles are all
 * alike or form a straight wall (two blocked on one side of a grid line, two
 * free on the other).  Unit edges between a free and a blocked tile are
 * merged along each grid line into maximal runs, and every run is split at
 * each vertex on it (no T-junctions, no point inside a segment).  Points are
 * integer corner coordinates in tile units (x right, y down), numbered in
 * row-major corner order; segments: horizontal lines top to bottom, then
 * vertical lines left to right.  UNIT variant (`cdt --unit`): every corner
 * on the outline is a point and every unit edge a segment - the heaviest CDT
 * input a tile map can give (what "constraint edges" counts in the issue).
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include "fileio.h"
#include "tn_levelgen.h"
#include "tn_map.h"
#include "tn_rng.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Shared with bench_cdt.c (bench.h belongs to the lead; declared there too). */
int bench_outline(const tn_map *m, int unit, int32_t **xy, int *npoints, int32_t **segs,
                  int *nsegs);
tn_map *bench_blocks_map(int size, int blocks, uint64_t seed);

static int blocked(const tn_map *m, int x, int y) { return tn_map_tile(m, x, y) == TN_TILE_BLOCK; }

/* Some unit outline edge ends at corner (cx, cy). */
static int on_outline(const tn_map *m, int cx, int cy)
{
    int a = blocked(m, cx - 1, cy - 1), b = blocked(m, cx, cy - 1);
    int c = blocked(m, cx - 1, cy), d = blocked(m, cx, cy);
    return !(a == b && b == c && c == d);
}

static int is_vertex(const tn_map *m, int cx, int cy)
{
    int a = blocked(m, cx - 1, cy - 1), b = blocked(m, cx, cy - 1);
    int c = blocked(m, cx - 1, cy), d = blocked(m, cx, cy);
    if (a == b && b == c && c == d) return 0;
    if (a == b && c == d) return 0; /* horizontal wall */
    if (a == c && b == d) return 0; /* vertical wall */
    return 1;
}

int bench_outline(const tn_map *m, int unit, int32_t **xy_out, int *npoints, int32_t **segs_out,
                  int *nsegs)
{
    int W = m->w, H = m->h;
    size_t nc = (size_t)(W + 1) * (size_t)(H + 1);
    int32_t *id = bench_alloc(nc * sizeof *id);
    int32_t *xy = bench_alloc(2 * nc * sizeof *xy);
    int32_t *segs = bench_alloc(4 * nc * sizeof *segs); /* each corner starts <= 2 segments */
    if (!id || !xy || !segs) {
        free(id);
        free(xy);
        free(segs);
        return -1;
    }
    int n = 0, ns = 0;
    for (int y = 0; y <= H; y++)
        for (int x = 0; x <= W; x++) {
            int v = (unit ? on_outline(m, x, y) : is_vertex(m, x, y)) ? n++ : -1;
            id[(size_t)y * (W + 1) + x] = v;
            if (v >= 0) xy[2 * v] = x, xy[2 * v + 1] = y;
        }
#define ID(x, y) id[(size_t)(y) * (W + 1) + (x)]
    for (int y = 0; y <= H; y++) { /* horizontal runs on grid line y */
        int start = -1;
        for (int x = 0; x <= W; x++) {
            if (start >= 0 && ID(x, y) >= 0) { /* a vertex (unit: any corner) ends the open run */
                segs[2 * ns] = ID(start, y), segs[2 * ns + 1] = ID(x, y), ns++;
                start = -1;
            }
            if (x < W && blocked(m, x, y - 1) != blocked(m, x, y) && start < 0) start = x;
        }
    }
    for (int x = 0; x <= W; x++) { /* vertical runs on grid line x */
        int start = -1;
        for (int y = 0; y <= H; y++) {
            if (start >= 0 && ID(x, y) >= 0) {
                segs[2 * ns] = ID(x, start), segs[2 * ns + 1] = ID(x, y), ns++;
                start = -1;
            }
            if (y < H && blocked(m, x - 1, y) != blocked(m, x, y) && start < 0) start = y;
        }
    }
#undef ID
    free(id);
    *xy_out = xy;
    *segs_out = segs;
    *npoints = n;
    *nsegs = ns;
    return 0;
}

tn_map *bench_blocks_map(int size, int blocks, uint64_t seed)
{
    tn_error err;
    tn_map *m = NULL;
    tn_map_create(size, size, NULL, &m, &err);
    if (!m) return NULL;
    tn_rng r;
    tn_rng_seed(&r, seed, 1);
    for (int b = 0; b < blocks; b++) {
        int s = 1 + (int)tn_rng_below(&r, 8);
        int x0 = (int)tn_rng_below(&r, (uint32_t)size), y0 = (int)tn_rng_below(&r, (uint32_t)size);
        for (int y = y0; y < y0 + s && y < size; y++)
            for (int x = x0; x < x0 + s && x < size; x++)
                tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
    }
    return m;
}

/* True when `name` ends in `ext` (any case). */
static int ends_with(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    return n >= e && strncasecmp(name + n - e, ext, e) == 0;
}

/* 0 when genmap may write the map to `out`: a name ending in .map (genmap
 * writes the tilenav format only: a .tmx or .tmj of tilenav text would
 * mislead Tiled and the game) where nothing is, or anything at all with
 * `force`.  Else a message naming the file and 2 (a usage error).  The
 * check is made before the map is generated; the write itself is atomic
 * (tn_write_file_atomic), so a full disk or a kill never leaves a
 * fragment, and a symbolic link that --force replaces through stays a
 * link to the new map. */
static int check_out(const char *out, int force)
{
    if (!out) return 0;
    if (!*out) {
        fprintf(stderr, "genmap: -o needs a file name (it was empty)\n");
        return 2;
    }
    static const char *const tiled[] = {".tmx", ".tmj", ".json"};
    for (size_t i = 0; i < sizeof tiled / sizeof tiled[0]; i++)
        if (ends_with(out, tiled[i])) {
            tn_print_shown(stderr,
                           "genmap: -o %s: genmap writes the tilenav .map format, not Tiled "
                           "(%s); name the file NAME.map (the game loads it, and saves it as "
                           "%s with `save FILE` in a script)\n",
                           out, tiled[i], tiled[i]);
            return 2;
        }
    if (!ends_with(out, ".map")) {
        tn_print_shown(stderr,
                       "genmap: -o %s: the file name must end in .map (genmap writes the "
                       "tilenav .map format)\n",
                       out);
        return 2;
    }
    struct stat st, to_st;
    /* what --force could not replace either (tn_write_file_atomic refuses
     * it): said as it is, without advice to add --force */
    if (lstat(out, &st) == 0) {
        const bool there = stat(out, &to_st) == 0; /* (through a link) */
        const bool dir = S_ISDIR(st.st_mode) || (there && S_ISDIR(to_st.st_mode));
        if (!there) {
            char to[1024] = "";
            ssize_t n = S_ISLNK(st.st_mode) ? readlink(out, to, sizeof to - 1) : -1;
            if (n >= 0) to[n] = '\0';
            tn_print_shown(stderr,
                           "genmap: %s: is a symbolic link to a missing file (%s): not written "
                           "(remove the link, or name another file)\n",
                           out, n >= 0 ? to : "?");
            return 2;
        }
        if (dir || !S_ISREG(to_st.st_mode)) {
            tn_print_shown(stderr, "genmap: %s: is %s: not written (name a file)\n", out,
                           dir ? "a directory" : "not a regular file (a pipe, a device)");
            return 2;
        }
    }
    if (!force && lstat(out, &st) == 0) {
        char to[1024] = "";
        ssize_t n = S_ISLNK(st.st_mode) ? readlink(out, to, sizeof to - 1) : -1;
        if (n >= 0) to[n] = '\0';
        if (S_ISLNK(st.st_mode))
            tn_print_shown(stderr,
                           "genmap: %s: already exists (a symbolic link to %s): not replaced "
                           "(add --force to replace the file it points to)\n",
                           out, n >= 0 ? to : "?");
        else
            tn_print_shown(stderr,
                           "genmap: %s: already exists: not replaced (add --force to replace "
                           "it)\n",
                           out);
        return 2;
    }
    return 0;
}

static int write_map(const tn_map *m, const char *out)
{
    size_t cap = tn_map_format_size(m), len = 0;
    char *buf = bench_alloc(cap);
    int rc = 0;
    if (!buf || tn_failed(tn_map_format(m, buf, cap, &len))) {
        fprintf(stderr, "genmap: cannot format the map%s\n", buf ? "" : ": out of memory");
        rc = 1;
    } else if (out) {
        char err[1024];
        if (tn_write_file_atomic(out, buf, len, err, sizeof err) != 0) {
            tn_print_shown(stderr, "genmap: %s\n", err);
            rc = 1;
        }
    } else {
        errno = 0;
        if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "genmap: cannot write the map to standard output: %s\n",
                    errno ? strerror(errno) : "write error");
            rc = 1;
        }
    }
    free(buf);
    return rc;
}

static int write_platformer(int w, int h, unsigned long long seed, const char *out)
{
    tn_error e;
    tn_map *m = NULL;
    tn_map_create(w, h, NULL, &m, &e);
    if (!m) {
        fprintf(stderr, "genmap: %s\n", e.msg);
        return 2;
    }
    tn_rng rng;
    tn_rng_seed(&rng, seed, 1);
    if (tn_failed(tn_levelgen_platformer(m, &rng, &e))) {
        fprintf(stderr, "genmap: %s\n", e.msg);
        tn_map_destroy(m);
        return 2;
    }
    int rc = write_map(m, out);
    if (rc == 0) fprintf(stderr, "genmap: platformer %dx%d (seed %llu)\n", w, h, seed);
    tn_map_destroy(m);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tilenav-bench genmap --kind blocks --size N [--blocks B] [--seed S]\n"
            "                            [-o FILE.map [--force]]\n"
            "  blocks: N x N empty map (1..4096) with B (default 700) square blocks, side uniform\n"
            "          in 1..8, top-left uniform over the map, clipped at the edge, overlapping\n"
            "          freely; tn_rng(S, stream 1) draws side, x, y per block.  Writes the\n"
            "          tilenav-map to FILE (default: standard output) and prints the outline's\n"
            "          vertex and constraint-segment counts (bench/bench_gen.c documents the\n"
            "          extraction) to standard error.\n"
            "       tilenav-bench genmap --kind platformer --size W [--height H] [--seed S]\n"
            "                            [-o FILE.map [--force]]\n"
            "  platformer: a W x H (default H = W, at least 16 x 12) random side-view level from\n"
            "          tn_levelgen (floors, pits, platforms, one-way platforms, walls; see\n"
            "          src/nav/tn_levelgen.h) with a start tile, seeded with tn_rng(S, stream 1).\n"
            "  -o FILE.map: the map is written in the tilenav .map format (a name ending in\n"
            "          .tmx, .tmj or anything but .map is refused), atomically (a full disk or\n"
            "          a kill leaves the old file whole).  An existing FILE (or a symbolic link)\n"
            "          is not replaced unless --force is given; through a link, --force replaces\n"
            "          the file it points to.\n");
}

int bench_genmap(int argc, char **argv)
{
    const char *kind = NULL, *out = NULL;
    int size = 0, blocks = 700, height = 0;
    unsigned long long seed = 1;
    int force = 0, blocks_given = 0; /* (an option given twice: main refuses it) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--force")) {
            force = 1;
            continue;
        }
        blocks_given |= !strcmp(a, "--blocks");
        int bad = 0;
        /* sizes: the map's limit here; each kind checks its own below */
        if (!strcmp(a, "--size"))
            bad = bench_arg_int("genmap", a, v, 1, TN_MAP_MAX_SIZE, &size);
        else if (!strcmp(a, "--height"))
            bad = bench_arg_int("genmap", a, v, 1, TN_MAP_MAX_SIZE, &height);
        else if (!strcmp(a, "--blocks"))
            bad = bench_arg_int("genmap", a, v, 0, 100000000, &blocks);
        else if (!strcmp(a, "--seed"))
            bad = bench_arg_seed("genmap", a, v, &seed);
        else if (strcmp(a, "--kind") != 0 && strcmp(a, "-o") != 0) {
            bench_arg_unknown("genmap", a);
            usage(stderr);
            return 2;
        } else if (!v) {
            bench_arg_missing("genmap", a);
            usage(stderr);
            return 2;
        } else if (!strcmp(a, "--kind"))
            kind = v;
        else
            out = v;
        if (bad) return 2;
        i++;
    }
    if (!kind) {
        fprintf(stderr, "genmap: --kind is required\n");
        usage(stderr);
        return 2;
    }
    int plat = !strcmp(kind, "platformer");
    if (!plat && strcmp(kind, "blocks") != 0) {
        tn_print_shown(stderr, "genmap: unknown kind '%s' (blocks, platformer)\n", kind);
        return 2;
    }
    if (!size) {
        fprintf(stderr, "genmap: --size is required (%d..%d)\n", plat ? 16 : 1, TN_MAP_MAX_SIZE);
        return 2;
    }
    if (plat && size < 16) { /* tn_levelgen_platformer: at least 16 x 12 */
        fprintf(stderr, "genmap: --size: %d is outside 16..%d (a platformer level)\n", size,
                TN_MAP_MAX_SIZE);
        return 2;
    }
    if (plat && height && height < 12) {
        fprintf(stderr, "genmap: --height: %d is outside 12..%d (a platformer level)\n", height,
                TN_MAP_MAX_SIZE);
        return 2;
    }
    if (plat && blocks_given) { /* (it was ignored without a word) */
        fprintf(stderr, "genmap: --blocks is for --kind blocks (platformer levels are made by "
                        "tn_levelgen)\n");
        return 2;
    }
    if (!plat && height) {
        fprintf(stderr, "genmap: --height is for --kind platformer (blocks maps are N x N)\n");
        return 2;
    }
    int rc = check_out(out, force);
    if (rc != 0) return rc;
    if (plat) return write_platformer(size, height ? height : size, seed, out);
    tn_map *m = bench_blocks_map(size, blocks, seed);
    if (!m) {
        fprintf(stderr, "genmap: out of memory\n");
        return 1;
    }
    if (write_map(m, out) != 0) {
        tn_map_destroy(m);
        return 1;
    }
    int nblocked = 0;
    for (int i = 0; i < m->w * m->h; i++) nblocked += m->tile[i] == TN_TILE_BLOCK;
    int32_t *xy = NULL, *segs = NULL;
    int n = 0, ns = 0;
    int32_t *uxy = NULL, *usegs = NULL;
    int un = 0, uns = 0;
    if (bench_outline(m, 0, &xy, &n, &segs, &ns) == 0 &&
        bench_outline(m, 1, &uxy, &un, &usegs, &uns) == 0)
        fprintf(stderr,
                "genmap: blocks %dx%d, %d blocks (seed %llu): %d blocked tiles; outline: %d "
                "vertices and "
                "%d constraint segments (merged runs), %d corners and %d unit edges\n",
                size, size, blocks, seed, nblocked, n, ns, un, uns);
    free(uxy);
    free(usegs);
    free(xy);
    free(segs);
    tn_map_destroy(m);
    return 0;
}
