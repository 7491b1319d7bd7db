/* SPDX-License-Identifier: Zlib */
/* examples/graph_shortcuts.c - faster far queries on a big level that
 * does not change.
 *
 * One idea: a contraction hierarchy.  tn_surf_build_shortcuts removes the
 * graph's key nodes one by one, adding a shortcut wherever a removal would
 * lengthen a cheapest plan, and keeps the last, densest part as a table;
 * a query then only climbs the hierarchy from both ends.  Same plans (in
 * cost) as without, far fewer nodes searched.  tn_surf_build_labels then
 * stores each key's climb (its hub label), so a query reads two short
 * lists instead of searching, for about a kilobyte a key.  An edit drops
 * both; the graph answers as before until they are built again.
 *
 * Build:  cc graph_shortcuts.c $(pkg-config --cflags --libs tilenav) -o graph_shortcuts
 */
#include <stdio.h>
#include <time.h>

#include <tilenav.h>

enum { QUERIES = 300 };

/* The QUERIES pairs (start node, the tile of the goal node), answered;
 * returns the seconds they took and fills frames[] with each plan's cost
 * (-1 where no plan): its frames without the release frames, which the
 * search does not price, so of two plans as cheap either can have more. */
static double answer(tn_surf *g, const int *start, const int *goal, int *frames, int *settled)
{
    clock_t t0 = clock();
    *settled = 0;
    for (int i = 0; i < QUERIES; i++) {
        int row, j;
        tn_surf_node_pos(g, goal[i], &row, &j);
        tn_surf_stats st;
        tn_status s = tn_surf_find(g, start[i], j / 6, row - 1, NULL, 0, NULL, &st, NULL);
        frames[i] = tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT)
                        ? st.frames - st.releases
                        : -1;
        *settled += st.expanded;
    }
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    tn_rng rng;
    tn_rng_seed(&rng, 7, 1);
    if (tn_failed(tn_map_create(128, 128, NULL, &map, &err)) ||
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
    int n = tn_surf_node_count(graph);
    static int start[QUERIES], goal[QUERIES], f0[QUERIES], f1[QUERIES];
    for (int i = 0; i < QUERIES;) { /* pairs with a plan (an unreachable goal searches all) */
        start[i] = (int)tn_rng_below(&rng, (uint32_t)n);
        goal[i] = (int)tn_rng_below(&rng, (uint32_t)n);
        int row, j;
        tn_surf_node_pos(graph, goal[i], &row, &j);
        tn_status s = tn_surf_find(graph, start[i], j / 6, row - 1, NULL, 0, NULL, NULL, NULL);
        i += tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT);
    }
    int settled0, settled1;
    double t0 = answer(graph, start, goal, f0, &settled0);
    printf("128x128 level: %d nodes; %d queries in %.1f ms, %d nodes expanded\n", n, QUERIES,
           t0 * 1e3, settled0);

    /* the hierarchy: 0 = the default core (a sixteenth of the keys) */
    clock_t b0 = clock();
    if (tn_failed(tn_surf_build_shortcuts(graph, 0, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("shortcuts: %d added in %.0f ms, %.1f MB\n", tn_surf_shortcut_count(graph),
           (double)(clock() - b0) * 1e3 / CLOCKS_PER_SEC,
           (double)tn_surf_shortcuts_memory(graph) / 1048576.0);
    double t1 = answer(graph, start, goal, f1, &settled1);
    int same = 0;
    for (int i = 0; i < QUERIES; i++) same += f0[i] == f1[i];
    printf("with them: %d queries in %.1f ms, %d keys settled; %d of %d plans as long\n", QUERIES,
           t1 * 1e3, settled1, same, QUERIES);

    /* their hub labels: each key's search stored, so a query reads instead */
    b0 = clock();
    if (tn_failed(tn_surf_build_labels(graph, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("labels: built in %.0f ms, shortcuts and labels %.1f MB\n",
           (double)(clock() - b0) * 1e3 / CLOCKS_PER_SEC,
           (double)tn_surf_shortcuts_memory(graph) / 1048576.0);
    double t2 = answer(graph, start, goal, f1, &settled1);
    int same2 = 0;
    for (int i = 0; i < QUERIES; i++) same2 += f0[i] == f1[i];
    printf("with labels: %d queries in %.1f ms; %d of %d plans as long\n", QUERIES, t2 * 1e3, same2,
           QUERIES);

    /* an edit drops them: queries search as before */
    tn_map_set_tile(map, 64, 64, TN_TILE_BLOCK, NULL);
    if (tn_failed(tn_surf_sync(graph, map, &err))) return 1;
    printf("after an edit: shortcuts %s\n", tn_surf_has_shortcuts(graph) ? "kept" : "dropped");

    int ok = same == QUERIES && same2 == QUERIES && !tn_surf_has_shortcuts(graph);
    tn_surf_destroy(graph);
    tn_map_destroy(map);
    return ok ? 0 : 1;
}
