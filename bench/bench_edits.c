/* tilenav-bench edits: what a map edit costs the game on a big level, with
 * the graph planner in use: the edit's repair of the character's graph in
 * the edit (headless runs) and on another thread (the window's
 * tn_world_build_graphs_in_background).
 *
 *   tilenav-bench edits [--size N] [--seed S] [--edits K] [--frame-ms F]
 *
 * A generated platformer level of N x N tiles (default 1024, seed 7): the
 * character's graph is built (and waited for), then K block edits (default
 * 40) on random tiles within 40 x 30 tiles of the character, one per frame:
 * a world step and, with background repairs, F ms of sleep (default 8, a
 * frame of the window at 120 Hz; each frame calls tn_world_prepare, as the
 * window's do).  A third mode keeps two graphs up: 4 extra bots of the
 * 1x2 size roam, the character is 2x2.  Edits the world refuses (a block in the
 * character) are drawn again.  Printed per mode: the edit call's wall time
 * (median, p90, max) and the frame's (the edit, tn_world_prepare and
 * tn_world_step: median, and max over the edits' frames and those after
 * them until every graph has the edits), with background repairs how
 * many ran and how long after the last edit every graph had the edits
 * (tn_wbots_graphs_behind), and the character's graph's local repairs and
 * rebuilds (none expected: edits that pile up wait before they outgrow a
 * sync's tile-by-tile repairs), and whether the graph was then up to date
 * (a goto's sync with the world's map finds nothing left to repair).
 * Last, the extra bots' planning: 8 extra bots roam the level (headless,
 * repairs in the edit) for 1,800 steps after the graph is built, a
 * one-way tile toggled every 60 steps somewhere on the map, with whole
 * plans and in slices (tn_wbots_plan_slice): each step's thread CPU time
 * (median, p99, max, steps over 2 ms; the edits' own time is not in it)
 * and the trips made and arrived.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tn_bot.h"
#include "tn_levelgen.h"
#include "tn_surf.h"
#include "tn_wbots.h"
#include "tn_world.h"

static int usage(void)
{
    fprintf(stderr, "usage: tilenav-bench edits [--size N] [--seed S] [--edits K] "
                    "[--frame-ms F]\n");
    return 2;
}

static void sleep_ms(double ms)
{
    if (ms <= 0.0) return;
    struct timespec ts = {(time_t)(ms / 1000.0),
                          (long)((ms - 1000.0 * (double)(long)(ms / 1000.0)) * 1e6)};
    nanosleep(&ts, NULL);
}

/* Steps (1 ms apart) until the character's graph is in the cache; its wait
 * in seconds, or -1 after 120 s. */
static double wait_graph(tn_world *w)
{
    double t0 = bench_now();
    while (!tn_wbots_character_graph(w)) {
        if (bench_now() - t0 > 120.0) return -1.0;
        tn_world_prepare(w, 0); /* (as a window's frame: a job that ended is collected) */
        tn_world_step(w);
        sleep_ms(1.0);
    }
    return bench_now() - t0;
}

/* Whether every extra bot has its graph, in sync with the map (the
 * character's is tn_wbots_character_graph). */
static bool bots_have_graphs(const tn_world *w)
{
    for (int i = 0; i < tn_wbots_count(w); i++) {
        const tn_surf *g = tn_bot_graph(tn_wbots_bot(w, i));
        if (!g || !tn_surf_in_sync(g, tn_world_map(w))) return false;
    }
    return true;
}

/* One mode: a fresh world on the level, background repairs on or off;
 * with `bots`, that many extra bots of the 1x2 size and a 2x2 character
 * (two graphs kept up with the edits). */
static int run_mode(int size, uint64_t seed, int edits, double frame_ms, bool bg, int bots)
{
    tn_map *m = NULL;
    tn_error e;
    if (tn_failed(tn_map_create(size, size, NULL, &m, &e))) {
        fprintf(stderr, "edits: %s\n", e.msg);
        return 1;
    }
    tn_rng r;
    tn_rng_seed(&r, seed, 1);
    if (tn_failed(tn_levelgen_platformer(m, &r, &e))) {
        fprintf(stderr, "edits: %s\n", e.msg);
        tn_map_destroy(m);
        return 1;
    }
    tn_world *w = NULL;
    tn_world_config cfg = tn_world_default_config();
    if (tn_failed(tn_world_create(m, &cfg, NULL, &w, &e))) {
        fprintf(stderr, "edits: %s\n", e.msg);
        return 1;
    }
    if (bg) {
        tn_world_set_clock(w, bench_now);
        tn_world_build_graphs_in_background(w, true);
    }
    if (bots > 0) {
        tn_world_set(w, "bots", (double)bots, NULL); /* (1x2: the character's size now) */
        tn_world_set(w, "char_width", 2.0, NULL);
    }
    tn_world_step(w);
    float cx, cy;
    tn_world_character_center(w, &cx, &cy);
    const int tx = (int)(cx / (float)TN_TILE_PX), ty = (int)(cy / (float)TN_TILE_PX);
    /* the character's graph: built in the goto (headless) or in the
     * background (then waited for) */
    double t0 = bench_now();
    tn_world_goto(w, tx, ty, NULL);
    tn_world_prepare(w, TN_OVERLAY_SURF);
    double built = wait_graph(w);
    if (built < 0.0) {
        fprintf(stderr, "edits: the character's graph was not built in 120 s\n");
        tn_world_destroy(w);
        return 1;
    }
    /* and the extra bots' graph */
    for (double b0 = bench_now(); bots > 0 && !bots_have_graphs(w);) {
        if (bench_now() - b0 > 120.0) {
            fprintf(stderr, "edits: the bots' graph was not built in 120 s\n");
            tn_world_destroy(w);
            return 1;
        }
        tn_world_prepare(w, 0);
        tn_world_step(w);
        sleep_ms(1.0);
    }
    built = bench_now() - t0;
    double *t = bench_alloc(sizeof(double) * 2 * (size_t)edits), *fr = t + edits, fmax = 0.0;
    if (!t) {
        tn_world_destroy(w);
        return 1;
    }
    tn_rng er;
    tn_rng_seed(&er, seed, 2);
    int k = 0, tries = 0;
    while (k < edits && tries++ < 100 * edits) {
        int x = tx - 40 + (int)tn_rng_below(&er, 80), y = ty - 30 + (int)tn_rng_below(&er, 60);
        if (x < 1 || y < 1 || x >= size - 1 || y >= size - 1) continue;
        double a = bench_now();
        tn_status st = tn_world_edit(w, x, y, TN_EDIT_BLOCK, NULL);
        double d = (bench_now() - a) * 1e3;
        if (tn_failed(st)) continue;
        t[k] = d;
        tn_world_prepare(w, 0);
        tn_world_step(w);
        fr[k] = (bench_now() - a) * 1e3;
        if (fr[k] > fmax) fmax = fr[k];
        k++;
        if (bg) sleep_ms(frame_ms);
    }
    /* frames on until every graph of a body's size has the edits (and the
     * character's is back in the cache): kept up in turn in the background */
    const double last = bench_now();
    while ((tn_wbots_graphs_behind(w) > 0 || !tn_wbots_character_graph(w)) &&
           bench_now() - last < 120.0) {
        double a = bench_now();
        tn_world_prepare(w, 0);
        tn_world_step(w);
        const double d = (bench_now() - a) * 1e3;
        if (d > fmax) fmax = d;
        sleep_ms(bg ? frame_ms : 1.0);
    }
    const double back = bench_now() - last;
    const tn_surf *g = tn_wbots_character_graph(w);
    int local = 0, full = 0, local2 = -1, full2 = -1;
    if (g) tn_surf_repair_counts(g, &local, &full);
    /* a goto syncs the graph with the world's map (a background repair's
     * is the copy it repaired on): nothing left to repair */
    tn_world_goto(w, tx, ty, NULL);
    g = tn_wbots_character_graph(w);
    if (g) tn_surf_repair_counts(g, &local2, &full2);
    const bool sync = g && tn_surf_in_sync(g, tn_world_map(w)) && local2 == local &&
                      full2 == full && tn_wbots_graphs_behind(w) == 0;
    const char *mode = !bg    ? "repairs in the edit"
                       : bots ? "background, two sizes"
                              : "background repairs";
    printf("  %-22s %s built in %5.2f s; %d edits: edit call median %7.2f ms, p90 %7.2f, max "
           "%7.2f; a frame (edit, prepare, step) median %7.2f ms, max %7.2f",
           mode, bots ? "graphs" : "graph", built, k, bench_median(t, k),
           bench_percentile(t, k, 90.0), bench_percentile(t, k, 100.0), bench_median(fr, k), fmax);
    if (bg)
        printf("; %d repairs in the background, every graph up to date %.0f ms after the last "
               "edit",
               tn_wbots_repairs_started(w), back * 1e3);
    printf("; %d local repairs, %d rebuilds; up to date: %s\n", local, full, sync ? "yes" : "NO");
    free(t);
    tn_world_destroy(w);
    return sync && full == 0 ? 0 : 1;
}

/* The extra bots' steps with whole plans (slice < 0) or sliced (0: the
 * world's default for the map's size). */
static int run_bots(int size, uint64_t seed, int slice)
{
    enum { BOTS = 8, STEPS = 1800, WARM = 150 };
    tn_map *m = NULL;
    tn_error e;
    tn_rng r;
    tn_rng_seed(&r, seed, 1);
    if (tn_failed(tn_map_create(size, size, NULL, &m, &e)) ||
        tn_failed(tn_levelgen_platformer(m, &r, &e))) {
        fprintf(stderr, "edits: %s\n", e.msg);
        tn_map_destroy(m);
        return 1;
    }
    tn_world *w = NULL;
    tn_world_config cfg = tn_world_default_config();
    double *t = bench_alloc(sizeof(double) * STEPS);
    if (!t || tn_failed(tn_world_create(m, &cfg, NULL, &w, &e))) {
        fprintf(stderr, "edits: %s\n", t ? e.msg : "out of memory");
        free(t);
        return 1;
    }
    tn_wbots_set_plan_slice(w, slice);
    tn_world_step(w);
    tn_world_set(w, "bots", (double)BOTS, NULL);
    for (int f = 0; f < WARM; f++) tn_world_step(w); /* (their graph built in one of them) */
    int over = 0;
    for (int f = 0; f < STEPS; f++) {
        if (f % 60 == 59) {
            const int x = 100 + (f / 60) * 13 % (size - 200), y = 100 + (f / 60) * 7 % (size - 200);
            const int tile = tn_map_tile(tn_world_map(w), x, y);
            if (tile != TN_TILE_BLOCK)
                tn_world_edit(w, x, y, tile ? TN_EDIT_EMPTY : TN_EDIT_ONEWAY, NULL);
        }
        const double a = bench_cpu_now();
        tn_world_step(w);
        t[f] = (bench_cpu_now() - a) * 1e3;
        over += t[f] > 2.0;
    }
    static char json[1 << 16];
    tn_world_json(w, json, sizeof json);
    int trips = -1, arrived = -1;
    const char *j = strstr(json, "\"extra_trips\":");
    if (j) sscanf(j, "\"extra_trips\":%d,\"extra_arrivals\":%d", &trips, &arrived);
    printf("  %-22s step median %.3f ms, p99 %.2f, max %.2f; %d steps over 2 ms; %d trips, %d "
           "arrived\n",
           slice < 0 ? "bots, whole plans" : "bots, sliced plans", bench_median(t, STEPS),
           bench_percentile(t, STEPS, 99.0), bench_percentile(t, STEPS, 100.0), over, trips,
           arrived);
    free(t);
    tn_world_destroy(w);
    return 0;
}

int bench_edits(int argc, char **argv)
{
    int size = 1024, edits = 40;
    uint64_t seed = 7;
    double frame_ms = 8.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long s64;
        int bad = 0;
        if (strcmp(a, "--size") == 0)
            bad = bench_arg_int("edits", a, v, 64, 1024, &size);
        else if (strcmp(a, "--seed") == 0) {
            bad = bench_arg_seed("edits", a, v, &s64);
            if (!bad) seed = s64;
        } else if (strcmp(a, "--edits") == 0)
            bad = bench_arg_int("edits", a, v, 1, 100000, &edits);
        else if (strcmp(a, "--frame-ms") == 0)
            bad = bench_arg_double("edits", a, v, 0.0, 1000.0, &frame_ms);
        else
            return bench_arg_unknown("edits", a), usage();
        if (bad) return 2;
        i++;
    }
    printf("edits: %dx%d platformer level (seed %llu), 1x2 character, jump 4, graph planner; "
           "%d block edits near the character, one a frame (%.0f ms apart with background "
           "repairs); wall time of the edit call\n",
           size, size, (unsigned long long)seed, edits, frame_ms);
    int rc = run_mode(size, seed, edits, frame_ms, false, 0);
    rc |= run_mode(size, seed, edits, frame_ms, true, 0);
    rc |= run_mode(size, seed, edits, frame_ms, true, 4);
    printf("extra bots: the same level, 8 extra bots for 1,800 steps (a one-way tile toggled every "
           "60 steps), repairs in the edit; thread CPU time of a step, the edits not in it\n");
    rc |= run_bots(size, seed, -1);
    rc |= run_bots(size, seed, 0);
    return rc;
}
