/* tilenav-bench enemies: world step time with N enemies alive, and the
 * offscreen render of such a world.
 *
 *   tilenav-bench enemies [--map FILE] [--steps N] [--frames N] [--assets DIR]
 *
 * The world (default maps/demo.map) is filled with N enemies (1,000 and
 * 10,000) at random tiles that have a path, with the default ranges
 * (speed 0.2-5 tiles/s, lanes -0.4..0.4).  Each step is timed alone; after
 * it, enemies that arrived are replaced (untimed) so exactly N fly in every
 * timed step.  Reported: the median, p90 and max of tn_world_step and of the
 * enemies' own step inside it (tn_enemies_step), per enemy too.
 * Target: 10,000 enemies under 2 ms per world step (median).
 *
 * Rendering (when bench objects are compiled with SDL's include flags): the
 * game's tn_render_scene() on SDL's software renderer at 1280x720, median
 * frame time and frames per second with 0 and 10,000 enemies (and the flow
 * overlay on).
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "tn_wenemies.h"
#include "tn_world.h"

#if defined(__has_include)
#if __has_include(<SDL.h>) && __has_include(<SDL_ttf.h>)
#define BENCH_RENDER 1
#include "render.h"
#endif
#endif

static int fill(tn_world *w, int n, tn_rng *r)
{
    tn_wenemies *s = tn_wenemies_of(w);
    int tries = 0;
    while (s->pool->count < n && tries < 100 * n) {
        tries++;
        int x = (int)tn_rng_below(r, (uint32_t)tn_world_map(w)->w),
            y = (int)tn_rng_below(r, (uint32_t)tn_world_map(w)->h);
        if (tn_flow_dir(s->flow, x, y) >= TN_DIR_HERE) continue; /* no path, or a destination */
        tn_enemies_spawn_at(s->pool, s->flow, x, y, r, NULL);
    }
    return s->pool->count;
}

static int load(const char *path, uint64_t seed, tn_world **out)
{
    char err[512];
    tn_map *map;
    if (tn_load_map(path, &map, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav-bench enemies: %s\n", err);
        return 1;
    }
    tn_world_config cfg = tn_world_default_config();
    cfg.seed = seed;
    tn_error e;
    if (tn_failed(tn_world_create(map, &cfg, NULL, out, &e))) {
        tn_print_shown(stderr, "tilenav-bench enemies: %s: %s\n", path, e.msg);
        return 1;
    }
    tn_world_set(*out, "spawn_rate", 0.1, NULL);
    return 0;
}

static int run_steps(const char *path, int n, int steps)
{
    tn_world *w;
    if (load(path, 1, &w)) return 1;
    tn_rng r;
    tn_rng_seed(&r, 1234, 5);
    if (fill(w, n, &r) < n) {
        fprintf(stderr, "tilenav-bench enemies: could not place %d enemies\n", n);
        tn_world_destroy(w);
        return 1;
    }
    tn_wenemies *s = tn_wenemies_of(w);
    double *tw = bench_alloc(sizeof(double) * (size_t)steps),
           *te = bench_alloc(sizeof(double) * (size_t)steps);
    for (int k = 0; k < 30; k++) { /* warm up */
        tn_world_step(w);
        fill(w, n, &r);
    }
    long arrived = 0;
    for (int k = 0; k < steps; k++) {
        long before = s->pool->reached;
        double t0 = bench_now();
        tn_world_step(w);
        tw[k] = bench_now() - t0;
        arrived += s->pool->reached - before;
        fill(w, n, &r);
    }
    /* The enemies' own step on the same population (nothing spawns). */
    for (int k = 0; k < steps; k++) {
        double t0 = bench_now();
        tn_enemies_step(s->pool, s->flow, NULL, 0, NULL, tn_world_phys(w)->dt, NULL);
        te[k] = bench_now() - t0;
        fill(w, n, &r);
    }
    double wmax = 0;
    for (int k = 0; k < steps; k++) wmax = tw[k] > wmax ? tw[k] : wmax;
    double w90 = bench_percentile(tw, steps, 90), wmed = bench_median(tw, steps);
    double emed = bench_median(te, steps);
    printf("%6d enemies  world step median %7.3f ms  p90 %7.3f  max %7.3f  | enemies step "
           "median %7.3f ms (%5.1f ns/enemy)  %ld arrived and replaced\n",
           n, wmed * 1e3, w90 * 1e3, wmax * 1e3, emed * 1e3, emed * 1e9 / n, arrived);
    free(tw);
    free(te);
    tn_world_destroy(w);
    return 0;
}

#ifdef BENCH_RENDER
static int run_render(const char *path, int frames, const char *assets)
{
    if (SDL_Init(0) != 0 || TTF_Init() != 0) {
        fprintf(stderr, "tilenav-bench enemies: SDL: %s\n", SDL_GetError());
        return 1;
    }
    tn_fonts fonts;
    char err[512];
    if (tn_fonts_open(&fonts, assets, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav-bench enemies: %s\n", err);
        TTF_Quit();
        return 1;
    }
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H, 32,
                                                       SDL_PIXELFORMAT_RGB888);
    SDL_Renderer *ren = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    tn_gfx g;
    if (!ren || tn_gfx_init(&g, ren, &fonts, err, sizeof err) != 0) {
        fprintf(stderr, "tilenav-bench enemies: software renderer: %s\n",
                ren ? err : SDL_GetError());
        if (ren) SDL_DestroyRenderer(ren);
        if (surf) SDL_FreeSurface(surf);
        tn_fonts_close(&fonts);
        TTF_Quit();
        return 1;
    }
    static const struct {
        int n;
        unsigned overlays;
        const char *what;
    } CASES[] = {{0, 0, "no enemies"},
                 {10000, 0, "10,000 enemies"},
                 {10000, TN_OVERLAY_FLOW, "10,000 enemies + flow overlay"}};
    double *t = bench_alloc(sizeof(double) * (size_t)frames);
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        tn_world *w;
        if (load(path, 1, &w)) break;
        tn_rng r;
        tn_rng_seed(&r, 99, 5);
        fill(w, CASES[c].n, &r);
        tn_view v;
        tn_view_init(&v, w, CASES[c].overlays);
        tn_render_scene(&g, w, &v); /* warm up */
        SDL_RenderFlush(ren);
        for (int k = 0; k < frames; k++) {
            double t0 = bench_now();
            tn_render_scene(&g, w, &v);
            SDL_RenderFlush(ren);
            t[k] = bench_now() - t0;
        }
        double med = bench_median(t, frames);
        printf("render 1280x720 (software), %-30s median %7.2f ms/frame = %6.1f frames/s\n",
               CASES[c].what, med * 1e3, 1.0 / med);
        tn_world_destroy(w);
    }
    free(t);
    tn_gfx_free(&g);
    SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    tn_fonts_close(&fonts);
    TTF_Quit();
    SDL_Quit();
    return 0;
}
#endif

int bench_enemies(int argc, char **argv)
{
    const char *path = "maps/demo.map", *assets = "assets"; /* the fonts of the render */
    int steps = 300, frames = 30;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (v && strcmp(a, "--map") == 0)
            path = v;
        else if (v && strcmp(a, "--assets") == 0)
            assets = v;
        else if (strcmp(a, "--steps") == 0)
            bad = bench_arg_int("enemies", a, v, 1, 10000000, &steps);
        else if (strcmp(a, "--frames") == 0)
            bad = bench_arg_int("enemies", a, v, 1, 10000000, &frames);
        else {
            if (!v && (strcmp(a, "--map") == 0 || strcmp(a, "--assets") == 0))
                bench_arg_missing("enemies", a);
            else
                bench_arg_unknown("enemies", a);
            fprintf(stderr, "usage: tilenav-bench enemies [--map FILE] [--steps N] [--frames N] "
                            "[--assets DIR]\n");
            return 2;
        }
        if (bad) return 2;
        i++;
    }
    printf("enemies on %s: %d timed steps of 1/60 s each, population topped up between steps\n",
           path, steps);
    if (run_steps(path, 1000, steps) || run_steps(path, 10000, steps)) return 1;
    printf("target: 10,000 enemies < 2 ms per world step (median)\n");
#ifdef BENCH_RENDER
    return run_render(path, frames, assets);
#else
    printf("render: not measured (bench objects compiled without SDL's include flags)\n");
    return 0;
#endif
}
