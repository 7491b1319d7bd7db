/* SPDX-License-Identifier: Zlib */
/* examples/graph_bake.c - bake a big level's graph once, load it fast.
 *
 * One idea: the graph planner's searches are the costly part of a build,
 * and they depend only on the terrain and the profile.  tn_surf_save writes
 * what they made (edges, input runs, footprints) into the caller's buffer;
 * tn_surf_load makes the same graph again from those bytes and the map, in
 * a fraction of the build, ready for queries and edits.  A level editor
 * bakes; the game loads.  Data for another map, another profile, or cut
 * short is refused with a message.
 *
 * Build:  cc graph_bake.c $(pkg-config --cflags --libs tilenav) -o graph_bake
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <tilenav.h>

static double ms_since(clock_t t0) { return (double)(clock() - t0) * 1e3 / CLOCKS_PER_SEC; }

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    tn_rng rng;
    tn_rng_seed(&rng, 7, 1);
    if (tn_failed(tn_map_create(192, 192, NULL, &map, &err)) ||
        tn_failed(tn_levelgen_platformer(map, &rng, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_phys_params phys = tn_phys_default(4.0f);
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &phys);

    /* the level editor: build, then save (first ask for the size) */
    clock_t t0 = clock();
    tn_surf *graph = NULL;
    if (tn_failed(tn_surf_create(map, &prof, NULL, &graph, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    double build_ms = ms_since(t0);
    size_t size = 0;
    tn_surf_save(graph, NULL, 0, &size, NULL);
    unsigned char *bytes = malloc(size);
    FILE *f = tmpfile(); /* a game would name its level's file */
    if (!bytes || !f || tn_failed(tn_surf_save(graph, bytes, size, &size, &err)) ||
        fwrite(bytes, 1, size, f) != size) {
        fprintf(stderr, "save: %s\n", bytes && f ? err.msg : "out of memory or no file");
        return 1;
    }
    printf("192x192 level: %d nodes, %d edges; built in %.0f ms, saved: %zu bytes\n",
           tn_surf_node_count(graph), tn_surf_edge_count(graph), build_ms, size);

    /* the game: read the bytes, load the graph on the same map */
    rewind(f);
    if (fread(bytes, 1, size, f) != size) {
        fprintf(stderr, "read back: short\n");
        return 1;
    }
    fclose(f);
    t0 = clock();
    tn_surf *loaded = NULL;
    if (tn_failed(tn_surf_load(map, &prof, bytes, size, "level.tnsurf", NULL, &loaded, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("loaded in %.0f ms: %d nodes, %d edges\n", ms_since(t0), tn_surf_node_count(loaded),
           tn_surf_edge_count(loaded));

    /* the same plans: one far query on both */
    int start = 0, goal = tn_surf_node_count(graph) - 1, row, j;
    tn_surf_node_pos(graph, goal, &row, &j);
    tn_surf_stats a, b;
    tn_surf_find(graph, start, j / 6, row - 1, NULL, 0, NULL, &a, NULL);
    tn_surf_find(loaded, start, j / 6, row - 1, NULL, 0, NULL, &b, NULL);
    printf("node %d to node %d: %d frames built, %d frames loaded\n", start, goal, a.frames,
           b.frames);

    /* the level changed since the bake: the data is refused */
    tn_map_set_tile(map, 5, 5,
                    tn_map_tile(map, 5, 5) == TN_TILE_EMPTY ? TN_TILE_BLOCK : TN_TILE_EMPTY, NULL);
    tn_surf *stale = NULL;
    tn_status s = tn_surf_load(map, &prof, bytes, size, "level.tnsurf", NULL, &stale, &err);
    printf("after an edit: %s\n", tn_failed(s) ? err.msg : "loaded (unexpected)");

    free(bytes);
    tn_surf_destroy(loaded);
    tn_surf_destroy(graph);
    tn_map_destroy(map);
    return a.frames == b.frames && tn_failed(s) ? 0 : 1;
}
