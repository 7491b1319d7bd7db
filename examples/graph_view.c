/* SPDX-License-Identifier: Zlib */
/* examples/graph_view.c - draw only the part of a big graph the camera sees.
 *
 * One idea: a debug overlay of a surface graph on a large level must not
 * draw (or even visit) every edge each frame.  tn_surf_debug_draw_surfaces_in
 * and tn_surf_debug_draw_edges_in take the camera's rectangle in world
 * pixels and draw what meets it - at most N edges, spread evenly over the
 * view - at a cost that does not grow with the graph.  A camera pans across
 * a 512x64 level; each frame counts the lines the game would draw.
 *
 * Build:  cc graph_view.c $(pkg-config --cflags --libs tilenav) -o graph_view
 */
#include <stdio.h>

#include <tilenav.h>

/* The game's renderer: here it only counts the lines (a real one would
 * offset them by the camera and draw them with SDL, say). */
typedef struct frame {
    int lines;
} frame;

static void count_line(void *user, float x0, float y0, float x1, float y1, uint32_t rgba)
{
    (void)x0, (void)y0, (void)x1, (void)y1, (void)rgba;
    ((frame *)user)->lines++;
}

int main(void)
{
    enum { W = 512, H = 64, VIEW_W = 640, VIEW_H = 360, MAX_EDGES = 200 };
    tn_error err;
    tn_map *m = NULL;
    if (tn_failed(tn_map_create(W, H, NULL, &m, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* a floor and rows of short ledges, each a few tiles higher than the last */
    for (int x = 0; x < W; x++) tn_map_set_tile(m, x, H - 1, TN_TILE_BLOCK, NULL);
    for (int x = 4; x + 4 < W; x += 9)
        for (int k = 0; k < 4; k++) {
            int y = H - 4 - (x / 9 % 5) * 3;
            tn_map_set_tile(m, x + k, y, x / 9 % 3 ? TN_TILE_BLOCK : TN_TILE_ONEWAY, NULL);
        }

    tn_phys_params p = tn_phys_default(4.0f);
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &p);
    tn_surf *g = NULL;
    if (tn_failed(tn_surf_create(m, &prof, NULL, &g, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        tn_map_destroy(m);
        return 1;
    }
    printf("level %dx%d: %d nodes, %d edges\n", W, H, tn_surf_node_count(g), tn_surf_edge_count(g));

    frame f = {0};
    tn_debug_draw dd = {0};
    dd.user = &f;
    dd.line = count_line;
    const float margin = 4.0f * TN_TILE_PX; /* arcs that take off just outside still show */
    const float top = (float)(H * TN_TILE_PX - VIEW_H);
    for (float cam = 0.0f; cam + VIEW_W <= (float)(W * TN_TILE_PX); cam += 2000.0f) {
        f.lines = 0;
        int surfs = tn_surf_debug_draw_surfaces_in(g, &dd, cam, top, cam + VIEW_W, top + VIEW_H);
        int edges =
            tn_surf_debug_draw_edges_in(g, m, &dd, cam - margin, top - margin,
                                        cam + VIEW_W + margin, top + VIEW_H + margin, MAX_EDGES);
        printf("camera x %5.0f: %3d surfaces, %4d edges take off in view, %d drawn: %5d lines\n",
               (double)cam, surfs, edges, edges < MAX_EDGES ? edges : MAX_EDGES, f.lines);
    }
    /* a view off the level, an inverted or a NaN one: nothing, no error */
    printf("off the level: %d edges; inverted: %d surfaces\n",
           tn_surf_debug_draw_edges_in(g, m, &dd, -5000.0f, -5000.0f, -4000.0f, -4000.0f, 10),
           tn_surf_debug_draw_surfaces_in(g, &dd, 100.0f, 0.0f, 0.0f, 100.0f));
    /* dd NULL: only count (a HUD's "edges in view") */
    printf("whole level, counted only: %d edges\n",
           tn_surf_debug_draw_edges_in(g, m, NULL, 0.0f, 0.0f, (float)(W * TN_TILE_PX),
                                       (float)(H * TN_TILE_PX), 0));
    tn_surf_destroy(g);
    tn_map_destroy(m);
    return 0;
}
