/* SPDX-License-Identifier: Zlib */
/* examples/navmesh_cdt.c - any-angle paths on a navigation mesh, and the
 * triangulation underneath it.
 *
 * Two ideas that build on each other:
 *  1. tn_cdt: a constrained Delaunay triangulation of any polygon with
 *     holes (here a square room with a square pillar), given as points and
 *     the segments that must stay edges.
 *  2. tn_navmesh: the same triangulation of a tile map's free space, made
 *     for you, with shortest paths (string-pulled through the triangles) for
 *     an agent of a given radius.
 *
 * Build:  cc navmesh_cdt.c $(pkg-config --cflags --libs tilenav) -o navmesh_cdt
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <tilenav.h>

static const char ROOMS[] = "tilenav-map 1\n"
                            "size 16 8\n"
                            "tiles\n"
                            "################\n"
                            "#......#.......#\n"
                            "#......#..##...#\n"
                            "#......#..##...#\n"
                            "#..............#\n"
                            "#...##.#.......#\n"
                            "#......#.......#\n"
                            "################\n";

int main(void)
{
    tn_error err;

    /* --- 1. A polygon with a hole, triangulated by tn_cdt ---------------- */
    /* Outer square 0..10 (counter-clockwise), hole 4..6 (clockwise). */
    static const int32_t xy[] = {0, 0, 10, 0, 10, 10, 0, 10, /* outer: points 0-3 */
                                 4, 4, 4,  6, 6,  6,  6, 4}; /* hole:  points 4-7 */
    static const int32_t segs[] = {0, 1, 1, 2, 2, 3, 3, 0,   /* outer edges */
                                   4, 5, 5, 6, 6, 7, 7, 4};  /* hole edges */
    tn_cdt *cdt = NULL;
    if (tn_failed(tn_cdt_create(8, 8, NULL, &cdt, &err)) ||
        tn_failed(tn_cdt_build_i(cdt, xy, 8, segs, 8, TN_CDT_REMOVE_OUTSIDE, &err))) {
        fprintf(stderr, "%s\n", err.msg); /* "cdt: ...": messages name their module */
        return 1;
    }
    /* REMOVE_OUTSIDE dropped the triangles in the hole (even-odd rule), so
     * the triangles' areas add up to 10*10 - 2*2 = 96. */
    tn_cdt_mesh mesh;
    tn_cdt_get_mesh(cdt, &mesh);
    double area = 0;
    for (int t = 0; t < mesh.ntris; t++) {
        const int32_t *a = &xy[2 * mesh.tri[3 * t]], *b = &xy[2 * mesh.tri[3 * t + 1]],
                      *c = &xy[2 * mesh.tri[3 * t + 2]];
        area += 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
        printf("  triangle %d: (%d,%d) (%d,%d) (%d,%d)\n", t, a[0], a[1], b[0], b[1], c[0], c[1]);
    }
    printf("square with a hole: %d triangles, area %.1f (expected 96)\n", mesh.ntris, area);
    tn_cdt_destroy(cdt);

    /* --- 2. A navmesh of a tile map, and a path across it ---------------- */
    tn_map *map = NULL;
    if (tn_failed(tn_map_parse(ROOMS, strlen(ROOMS), "rooms", NULL, &map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* Coordinates in tile units (tile_size 1); 16 would make them pixels. */
    tn_navmesh_config cfg = tn_navmesh_default_config();
    tn_navmesh *nav = NULL;
    if (tn_failed(tn_navmesh_create(map->w, map->h, &cfg, NULL, &nav, &err)) ||
        tn_failed(tn_navmesh_build(nav, map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_navmesh_view view;
    tn_navmesh_get_view(nav, &view);
    printf("\nnavmesh: %d free triangles in %d region(s)\n", view.nfree, view.nregions);

    /* A query object holds the search's memory: one per thread. */
    tn_navquery *query = NULL;
    if (tn_failed(tn_navquery_create(nav, NULL, &query, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* From the left room's top-left corner to the right room's bottom-right,
     * for an agent of radius 0.3 tiles: only the corners it must turn
     * around are left (string pulling). */
    float path[2 * 32];
    int n = 0;
    tn_status s = tn_navquery_find_path(query, 1.5f, 1.5f, 14.5f, 6.5f, 0.3f, path, 32, &n, &err);
    if (tn_failed(s)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    double length = 0;
    for (int i = 0; i < n; i++) {
        printf("  (%.2f, %.2f)\n", path[2 * i], path[2 * i + 1]);
        if (i > 0)
            length += hypot(path[2 * i] - path[2 * i - 2], path[2 * i + 1] - path[2 * i - 1]);
    }
    printf("path: %d points, %.2f tiles long; line of sight start-goal: %s\n", n, length,
           tn_navmesh_los(nav, 1.5f, 1.5f, 14.5f, 6.5f) ? "yes" : "no");

    int ok = fabs(area - 96.0) < 1e-9 && n >= 3;
    tn_navquery_destroy(query);
    tn_navmesh_destroy(nav);
    tn_map_destroy(map);
    return ok ? 0 : 1;
}
