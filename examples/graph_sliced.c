/* SPDX-License-Identifier: Zlib */
/* examples/graph_sliced.c - a far query spread over frames.
 *
 * One idea: on a big level a query from one end to the other can expand
 * thousands of nodes (a 1024x1024 level's slowest: `tilenav-bench surf` in
 * docs/bench.md).  A game that
 * must not miss a frame runs it in slices: tn_surf_find_begin starts it,
 * each frame tn_surf_find_step expands at most a budget of nodes, and
 * tn_surf_find_end gives the plan once the search is over: the same plan
 * tn_surf_find gives in one call.  An edit, or another query on the same
 * graph, ends a sliced query (the next call says so: begin again).
 *
 * Build:  cc graph_sliced.c $(pkg-config --cflags --libs tilenav) -o graph_sliced
 */
#include <stdio.h>
#include <time.h>

#include <tilenav.h>

static double us_since(clock_t t0) { return (double)(clock() - t0) * 1e6 / CLOCKS_PER_SEC; }

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    tn_rng rng;
    tn_rng_seed(&rng, 7, 1);
    if (tn_failed(tn_map_create(256, 256, NULL, &map, &err)) ||
        tn_failed(tn_levelgen_platformer(map, &rng, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_phys_params phys = tn_phys_default(4.0f);
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &phys);
    tn_surf *graph = NULL;
    if (tn_failed(tn_surf_create(map, &prof, NULL, &graph, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }

    /* the farthest pair of the first and last nodes the first node reaches:
     * try goals from the last node back until one is found whole */
    const int start = 0;
    int gx = -1, gy = -1;
    tn_surf_stats whole;
    for (int n = tn_surf_node_count(graph) - 1; n > 0 && gx < 0; n -= 97) {
        int row, j;
        tn_surf_node_pos(graph, n, &row, &j);
        int x = (int)(tn_surf_lattice_x(graph, j) / tn_surf_get_profile(graph)->phys.tile_px),
            y = row - 1;
        tn_status s = tn_surf_find(graph, start, x, y, NULL, 0, NULL, &whole, NULL);
        if (tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT)) gx = x, gy = y;
    }
    if (gx < 0) {
        fprintf(stderr, "no far goal found\n");
        return 1;
    }
    printf("one call: tile (%d,%d), %d frames, %d nodes expanded\n", gx, gy, whole.frames,
           whole.expanded);

    /* the same query, a budget of 200 nodes a frame */
    enum { BUDGET = 200 };
    tn_status s = tn_surf_find_begin(graph, start, gx, gy, &err);
    int frames = 0;
    double worst = 0.0;
    while (s == TN_IN_PROGRESS) {
        /* ... a frame of the game: move, draw; then this frame's slice ... */
        int done = 0;
        clock_t t0 = clock();
        s = tn_surf_find_step(graph, BUDGET, &done, &err);
        double us = us_since(t0);
        if (us > worst) worst = us;
        frames++;
    }
    tn_surf_leg legs[256];
    int count = 0;
    tn_surf_stats sliced;
    if (tn_failed(s) || tn_failed(s = tn_surf_find_end(graph, legs, 256, &count, &sliced, &err))) {
        fprintf(stderr, "sliced query: %s\n", err.msg);
        return 1;
    }
    printf("sliced: %d frames of at most %d nodes (the longest slice %.0f us), then %d legs, "
           "%d frames: %s\n",
           frames, BUDGET, worst, count, sliced.frames,
           sliced.frames == whole.frames ? "the same plan cost" : "A DIFFERENT PLAN COST");

    /* an edit ends a sliced query under way: begin again */
    if (tn_surf_find_begin(graph, start, gx, gy, NULL) == TN_IN_PROGRESS) {
        tn_map_set_tile(map, 128, 128, TN_TILE_BLOCK, NULL);
        tn_surf_sync(graph, map, NULL);
        if (tn_failed(tn_surf_find_step(graph, BUDGET, NULL, &err)))
            printf("after an edit: %s\n", err.msg);
    }
    tn_surf_destroy(graph);
    tn_map_destroy(map);
    return sliced.frames == whole.frames ? 0 : 1;
}
