/* tilenav-bench render: the game's frame drawing time per zoom level and
 * overlay, on SDL's software renderer at 1280x720 (what screenshots use;
 * the window's renderer is usually faster, never slower in what it is
 * asked to draw).
 *
 *   tilenav-bench render --map FILE [--frames N] [--steps N]
 *                        [--overlays none,path,...] [--zooms 0,1,...] [--pan PX]
 *                        [--bare] [--edit] [--assets DIR]
 *
 * Unless --bare, the map gets a destination near its centre and four spawn
 * points around it, 8 bots, 16 wanderers and 10 enemies a second, so every
 * overlay has something to draw.
 * The world is stepped --steps frames (default 120) with every overlay's
 * data being recorded, then for each overlay (default: none and each
 * overlay alone but surf, whose graph takes minutes to build on large
 * maps) and each zoom level (default all, 0 = 1/8x .. 10 = 4x) the whole
 * frame (tn_render_scene + SDL_RenderFlush) is drawn --frames times
 * (default 15) after one untimed frame, each timed in this thread's CPU
 * time (the machine's other work does not count; the window's present
 * and vsync are not in it).  One line per case: map size,
 * zoom, overlay, median and worst frame in ms.  The camera follows the
 * character, as in the game (with TN_BENCH_SHOTS=DIR set, each case's last
 * frame is saved as DIR/WxH-zZ-OVERLAY.bmp); with --pan PX it moves PX world pixels a
 * frame from a quarter of the map's width at mid-height to the right, and
 * PX/2 up or down (turning every 20 frames), as
 * when it follows a running character (4: 240 px/s), so caches that
 * follow the view are measured too.  --edit toggles a tile (untimed)
 * before each frame, as when painting blocks: what a cache costs when it
 * must be redrawn every frame.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "tn_world.h"

#if defined(__has_include)
#if __has_include(<SDL.h>) && __has_include(<SDL_ttf.h>)
#define BENCH_RENDER 1
#include "render.h"
#endif
#endif

#ifdef BENCH_RENDER
static int run(const char *path, int frames, int steps, float pan, bool populate, bool edit,
               const unsigned *ovl, const char **names, int novl, const int *zooms, int nzoom,
               const char *assets)
{
    char err[512];
    tn_map *map;
    if (tn_load_map(path, &map, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav-bench render: %s\n", err);
        return 1;
    }
    tn_world_config cfg = tn_world_default_config();
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(map, &cfg, NULL, &w, &e))) {
        tn_print_shown(stderr, "tilenav-bench render: %s: %s\n", path, e.msg);
        return 1;
    }
    if (populate) { /* something for every overlay: bots, wanderers, enemies */
        const tn_map *mm = tn_world_map(w);
        int placed = 0;
        for (int k = 0; k < 5 && placed < 5; k++) { /* a destination, then 4 spawns */
            int cx = mm->w / 2 + (k % 2 ? 1 : -1) * (k > 0) * mm->w / 8;
            int cy = mm->h / 2 + (k > 2 ? 1 : -1) * (k > 0) * mm->h / 8;
            for (int r = 0; r < 40; r++) { /* the nearest empty tile over a solid one */
                bool done = false;
                for (int dy = -r; dy <= r && !done; dy++)
                    for (int dx = -r; dx <= r && !done; dx++) {
                        int x = cx + dx, y = cy + dy;
                        if (!tn_map_inside(mm, x, y) || tn_map_tile(mm, x, y) != TN_TILE_EMPTY)
                            continue;
                        done = tn_succeeded(
                            tn_world_edit(w, x, y, k == 0 ? TN_EDIT_DEST : TN_EDIT_SPAWN, &e));
                    }
                if (done) {
                    placed++;
                    break;
                }
            }
        }
        tn_world_set(w, "bots", 8, &e);
        tn_world_set(w, "wanderers", 16, &e);
        tn_world_set(w, "spawn_rate", 10, &e);
    }
    unsigned all = 0;
    for (int i = 0; i < novl; i++) all |= ovl[i];
    tn_world_prepare(w, all);
    for (int k = 0; k < steps; k++) tn_world_step(w);

    if (SDL_Init(0) != 0 || TTF_Init() != 0) {
        fprintf(stderr, "tilenav-bench render: SDL: %s\n", SDL_GetError());
        return 1;
    }
    tn_fonts fonts;
    if (tn_fonts_open(&fonts, assets, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav-bench render: %s\n", err);
        return 1;
    }
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H, 32,
                                                       SDL_PIXELFORMAT_RGB888);
    SDL_Renderer *ren = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    tn_gfx g;
    if (!ren || tn_gfx_init(&g, ren, &fonts, err, sizeof err) != 0) {
        fprintf(stderr, "tilenav-bench render: software renderer: %s\n",
                ren ? err : SDL_GetError());
        return 1;
    }
    double *t = bench_alloc(sizeof(double) * (size_t)frames);
    const tn_map *m = tn_world_map(w);
    for (int o = 0; o < novl; o++)
        for (int z = 0; z < nzoom; z++) {
            tn_view v;
            tn_view_init(&v, w, ovl[o]);
            v.zoom = zooms[z];
            if (pan > 0) { /* the camera moves as when following a running character */
                v.follow = false;
                v.cam_x = 0.25f * (float)(m->w * TN_TILE_PX); /* from left of the centre */
                v.cam_y = 0.5f * (float)(m->h * TN_TILE_PX);
            }
            tn_world_prepare(w, ovl[o]);
            tn_render_scene(&g, w, &v); /* warm up */
            SDL_RenderFlush(ren);
            long full0 = g.layer.full, scr0 = g.layer.scrolls;
            double worst = 0;
            for (int k = 0; k < frames; k++) {
                if (pan > 0) { /* to the right, and up and down every 20 frames */
                    v.cam_x += pan;
                    v.cam_y += (k / 20) % 2 ? pan * 0.5f : -pan * 0.5f;
                }
                if (edit) { /* a tile toggled a frame, as when painting: caches redraw */
                    const tn_map *mm = tn_world_map(w);
                    int ex = mm->w / 2 + (k % 7), ey = mm->h / 3;
                    int tile = tn_map_tile(mm, ex, ey);
                    if (tile == TN_TILE_EMPTY || tile == TN_TILE_BLOCK)
                        tn_world_edit(w, ex, ey,
                                      tile == TN_TILE_BLOCK ? TN_EDIT_EMPTY : TN_EDIT_BLOCK, &e);
                }
                double t0 = bench_cpu_now();
                tn_world_prepare(w, ovl[o]);
                tn_render_scene(&g, w, &v);
                SDL_RenderFlush(ren);
                t[k] = bench_cpu_now() - t0;
                if (t[k] > worst) worst = t[k];
            }
            printf("render %4dx%-4d zoom %5.3fx  %-10s median %8.2f ms  worst %8.2f ms  (layer "
                   "redrawn %ld, scrolled %ld)\n",
                   m->w, m->h, (double)tn_zoom_levels[zooms[z]], names[o],
                   bench_median(t, frames) * 1e3, worst * 1e3, g.layer.full - full0,
                   g.layer.scrolls - scr0);
            fflush(stdout);
            if (getenv("TN_BENCH_SHOTS")) { /* the last frame of each case, to look at */
                char f[600];
                snprintf(f, sizeof f, "%s/%dx%d-z%d-%s.bmp", getenv("TN_BENCH_SHOTS"), m->w, m->h,
                         zooms[z], names[o]);
                SDL_SaveBMP(surf, f);
            }
        }
    free(t);
    tn_gfx_free(&g);
    SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    tn_fonts_close(&fonts);
    TTF_Quit();
    SDL_Quit();
    tn_world_destroy(w);
    return 0;
}
#endif

int bench_render(int argc, char **argv)
{
    const char *path = NULL, *olist = "none,path,explored,flow,navmesh,companion,wanderers";
    const char *zlist = NULL, *assets = "assets"; /* where the game's fonts are */
    int frames = 15, steps = 120;
    float pan = 0;
    bool populate = true, edit = false;
    int bad = 0;
    for (int i = 1; i < argc && !bad; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        if (strcmp(a, "--edit") == 0)
            edit = true;
        else if (strcmp(a, "--bare") == 0)
            populate = false;
        else if (strcmp(a, "--frames") == 0)
            bad = bench_arg_int("render", a, v, 1, 1000000, &frames), i++;
        else if (strcmp(a, "--steps") == 0)
            bad = bench_arg_int("render", a, v, 0, 100000000, &steps), i++;
        else if (strcmp(a, "--pan") == 0) {
            bad = bench_arg_double("render", a, v, -1e6, 1e6, &d), i++;
            pan = (float)d;
        } else if (!v && (strcmp(a, "--map") == 0 || strcmp(a, "--overlays") == 0 ||
                          strcmp(a, "--zooms") == 0 || strcmp(a, "--assets") == 0))
            bad = bench_arg_missing("render", a);
        else if (strcmp(a, "--map") == 0)
            path = v, i++;
        else if (strcmp(a, "--overlays") == 0)
            olist = v, i++;
        else if (strcmp(a, "--zooms") == 0)
            zlist = v, i++;
        else if (strcmp(a, "--assets") == 0)
            assets = v, i++;
        else
            bad = bench_arg_unknown("render", a);
    }
    if (bad) return 2;
    if (!path) {
        fprintf(stderr, "usage: tilenav-bench render --map FILE [--frames N] [--steps N] "
                        "[--overlays none,path,...] [--zooms 0,1,...] [--pan PX] [--bare] [--edit] "
                        "[--assets DIR]\n");
        return 2;
    }
    if (frames < 1) frames = 1;
#ifdef BENCH_RENDER
    unsigned ovl[TN_OVERLAY_COUNT + 1];
    const char *names[TN_OVERLAY_COUNT + 1];
    /* read whole, as bench_arg_list reads --zooms: strtok skipped empty
     * items (--overlays '' drew nothing and exited 0) and a cut copy or
     * a cap dropped the rest of a long list without a word */
    static char namebuf[TN_OVERLAY_COUNT + 1][32];
    int novl = 0;
    for (const char *s = olist;;) {
        size_t len = strcspn(s, ",");
        if (len == 0) {
            tn_print_shown(stderr,
                           "render: --overlays: '%s' has an empty item (a list like "
                           "none,path)\n",
                           olist);
            return 2;
        }
        if (novl == TN_OVERLAY_COUNT + 1) {
            tn_print_shown(stderr, "render: --overlays: '%s' has more than %d items\n", olist,
                           TN_OVERLAY_COUNT + 1);
            return 2;
        }
        unsigned bits = 0;
        bool known = len < sizeof namebuf[0];
        if (known) {
            snprintf(namebuf[novl], sizeof namebuf[0], "%.*s", (int)len, s);
            known = strcmp(namebuf[novl], "none") == 0 || tn_overlays_parse(namebuf[novl], &bits);
        }
        if (!known) {
            tn_print_shown(stderr, "tilenav-bench render: unknown overlay %.*s\n", (int)len, s);
            return 2;
        }
        ovl[novl] = bits;
        names[novl] = namebuf[novl];
        novl++;
        s += len;
        if (!*s) break;
        s++;
    }
    int zooms[TN_ZOOM_LEVELS], nzoom = TN_ZOOM_LEVELS;
    for (int i = 0; i < TN_ZOOM_LEVELS; i++) zooms[i] = i;
    if (zlist) {
        nzoom = bench_arg_list("render", "--zooms", zlist, 0, TN_ZOOM_LEVELS - 1, zooms,
                               TN_ZOOM_LEVELS);
        if (nzoom < 1) return 2;
    }
    return run(path, frames, steps, pan, populate, edit, ovl, names, novl, zooms, nzoom, assets);
#else
    (void)steps;
    (void)pan;
    (void)populate;
    (void)edit;
    printf("render: not measured (bench objects compiled without SDL's include flags)\n");
    return 0;
#endif
}
