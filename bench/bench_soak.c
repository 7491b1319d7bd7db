/* tilenav-bench soak: the full world (character, bots, enemies, navmesh,
 * companion, wanderers) under random edits, clicks, tools, parameter changes
 * and keys, with every invariant checked after every step (tn_world_check).
 *
 *   tilenav-bench soak --steps N --seed S [--map FILE] [--every K]
 *                      [--planner classic|graph]
 *
 * Every K steps (default 5) one random action: a tile edit (any kind, any
 * tile, sometimes outside the map), a click with a random button and tool,
 * a parameter set to a random value inside its range, or new player keys.
 * The actions come from their own PRNG stream seeded with S, so a violation
 * printed as "seed S step N" replays exactly with --steps N+1 --seed S.
 * The bot's planner stays as chosen (default classic: the graph planner
 * repairs its graph after every edit, about 70-100 ms on the demo map, too
 * slow for the long soak; a short graph soak runs in tests/e2e/soak.sh, and
 * tn_world_check then also replays every edge of the bots' plans).
 */
#include "bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "tn_world.h"

static int usage(void)
{
    fprintf(stderr, "usage: tilenav-bench soak --steps N --seed S [--map FILE] [--every K] "
                    "[--planner classic|graph]\n");
    return 2;
}

static void random_action(tn_world *w, tn_rng *r)
{
    tn_error e;
    int mw = tn_world_map(w)->w, mh = tn_world_map(w)->h;
    /* Mostly inside the map; 1 in 20 outside, to exercise the refusals. */
    int x = (int)tn_rng_below(r, (uint32_t)mw + 2) - 1;
    int y = (int)tn_rng_below(r, (uint32_t)mh + 2) - 1;
    if (tn_rng_below(r, 20) != 0) {
        x = (int)tn_rng_below(r, (uint32_t)mw);
        y = (int)tn_rng_below(r, (uint32_t)mh);
    }
    switch (tn_rng_below(r, 6)) {
    case 0:
    case 1: tn_world_edit(w, x, y, (tn_edit)tn_rng_below(r, TN_EDIT_ITEM + 1), &e); break;
    case 2:
        tn_world_set_tool(w, (tn_tool)tn_rng_below(r, TN_TOOL_COUNT));
        tn_world_click(w, x, y, (tn_button)tn_rng_below(r, 3), tn_rng_below(r, 2) != 0, &e);
        break;
    case 3: {
        int n;
        const tn_param_info *p = tn_world_params(&n);
        const tn_param_info *q = &p[tn_rng_below(r, (uint32_t)n)];
        double v = q->min + (q->max - q->min) * (double)tn_rng_float(r);
        if (q->integer) v = (double)(long)(v + 0.5);
        /* keep the crowd at a size the soak can step quickly */
        if (strcmp(q->name, "bots") == 0 && v > 8) v = 8;
        if (strcmp(q->name, "wanderers") == 0 && v > 16) v = 16;
        if (strcmp(q->name, "planner") == 0) break; /* stays as chosen, see the top */
        tn_world_set(w, q->name, v, &e);
        break;
    }
    default: {
        tn_input in = {tn_rng_below(r, 3) == 0, tn_rng_below(r, 3) == 0, tn_rng_below(r, 5) == 0,
                       tn_rng_below(r, 3) == 0};
        tn_world_set_input(w, in);
        break;
    }
    }
}

int bench_soak(int argc, char **argv)
{
    long steps = -1, every = 5;
    unsigned long long seed = 0;
    bool have_seed = false;
    const char *map_path = "maps/demo.map";
    int planner = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        int bad = 0;
        if (strcmp(a, "--steps") == 0) {
            bad = bench_arg_long("soak", a, v, 1, LONG_MAX, &n);
            if (!bad) steps = (long)n;
        } else if (strcmp(a, "--seed") == 0) {
            bad = bench_arg_seed("soak", a, v, &seed);
            have_seed = true;
        } else if (strcmp(a, "--every") == 0) {
            bad = bench_arg_long("soak", a, v, 1, LONG_MAX, &n);
            if (!bad) every = (long)n;
        } else if (!v && (strcmp(a, "--map") == 0 || strcmp(a, "--planner") == 0))
            return bench_arg_missing("soak", a), usage();
        else if (strcmp(a, "--map") == 0)
            map_path = v;
        else if (strcmp(a, "--planner") == 0) {
            if (strcmp(v, "classic") != 0 && strcmp(v, "graph") != 0) {
                tn_print_shown(stderr, "soak: --planner: '%s' is not classic or graph\n", v);
                return usage();
            }
            planner = strcmp(v, "graph") == 0;
        } else
            return bench_arg_unknown("soak", a), usage();
        if (bad) return 2;
        i++;
    }
    if (steps < 1 || !have_seed) {
        fprintf(stderr, "soak: %s is required\n", steps < 1 ? "--steps" : "--seed");
        return usage();
    }

    char err[512];
    tn_map *map;
    if (tn_load_map(map_path, &map, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav-bench soak: %s\n", err);
        return 1;
    }
    tn_world_config cfg = tn_world_default_config();
    cfg.seed = seed;
    tn_world *w;
    tn_error e;
    if (tn_failed(tn_world_create(map, &cfg, NULL, &w, &e))) {
        tn_print_shown(stderr, "tilenav-bench soak: %s: %s\n", map_path, e.msg);
        return 1;
    }
    tn_world_set(w, "planner", planner, NULL);
    tn_rng actions;
    tn_rng_seed(&actions, seed, 0x736f616bULL);

    printf("soak: %s, %ld steps, seed %llu, one random action every %ld steps\n", map_path, steps,
           seed, every);
    printf("%12s %10s %10s %10s %12s\n", "step", "edits", "refused", "violations", "steps/s");
    double t0 = bench_now(), last = t0;
    long report = steps >= 10 ? steps / 10 : 1;
    int rc = 0;
    for (long s = 0; s < steps; s++) {
        if (s % every == 0) random_action(w, &actions);
        tn_world_step(w);
        tn_status st = tn_world_check(w, &e);
        if (tn_failed(st)) {
            printf("VIOLATION at step %ld (seed %llu): %s\n", s, seed, e.msg);
            printf("replay: tilenav-bench soak --steps %ld --seed %llu --every %ld --map %s\n",
                   s + 1, seed, every, map_path);
            rc = 1;
            break;
        }
        if ((s + 1) % report == 0 || s + 1 == steps) {
            double now = bench_now();
            printf("%12ld %10d %10d %10d %12.0f\n", s + 1, tn_world_edits(w),
                   tn_world_refused_edits(w), 0,
                   (double)report / (now - last > 0 ? now - last : 1e-9));
            last = now;
        }
    }
    double total = bench_now() - t0;
    int need = tn_world_json(w, NULL, 0);
    char *json = bench_alloc((size_t)need + 1);
    if (json) {
        tn_world_json(w, json, (size_t)need + 1);
        printf("final state: %s\n", json);
        free(json);
    }
    printf("soak: %s after %ld steps in %.1f s (%.0f steps/s)\n", rc ? "FAILED" : "0 violations",
           tn_world_frame(w), total, (double)tn_world_frame(w) / (total > 0 ? total : 1e-9));
    tn_world_destroy(w);
    return rc;
}
