/* SPDX-License-Identifier: Zlib */
/* examples/graph_tiles32.c - the graph planner in a game with 32-px tiles.
 *
 * One idea: a game keeps its own pixels.  Its physics at 32 px per tile is
 * the default physics scaled by 2 (tn_phys_scaled: tile_px, gravity, speeds),
 * which moves a body exactly twice as far every frame, so the surface graph
 * (built at 16 px inside) has the same edges and the bot replays them under
 * the game's 32-px physics exactly.  Every pixel the graph takes or gives
 * (lattice x, a body's node, debug drawing) is the game's.  Tiles of 16 px
 * times a power of two are taken (4..256); 24 px is refused with a message.
 *
 * Build:  cc graph_tiles32.c $(pkg-config --cflags --libs tilenav) -o graph_tiles32
 */
#include <stdio.h>
#include <string.h>

#include <tilenav.h>

/* '#' block, 'P' the character: a 6-tile gap over a pit */
static const char LEVEL[] = "tilenav-map 1\n"
                            "size 24 10\n"
                            "tiles\n"
                            "........................\n"
                            "........................\n"
                            "........................\n"
                            "........................\n"
                            "..P.....................\n"
                            "#########......#########\n"
                            "#########......#########\n"
                            "#########......#########\n"
                            "#########......#########\n"
                            "#########......#########\n";

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    if (tn_failed(tn_map_parse(LEVEL, strlen(LEVEL), "level", NULL, &map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    const tn_phys_params d16 = tn_phys_default(4.0f);
    const tn_phys_params phys = tn_phys_scaled(&d16, 2.0f); /* the game's: 32 px a tile */
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &phys);
    tn_surf *graph = NULL;
    if (tn_failed(tn_surf_create(map, &prof, NULL, &graph, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("32-px tiles: %d nodes, %d edges; a walk step (lattice x 1): %.2f px\n",
           tn_surf_node_count(graph), tn_surf_edge_count(graph), tn_surf_lattice_x(graph, 1));

    /* the bot crosses the gap with the game's own physics and pixels */
    tn_body body;
    tn_body_place(&body, &phys, 1, 2, map->start_x, map->start_y);
    tn_body_settle(&body, map, &phys); /* on the ground: a goal is planned at once */
    tn_path *finder = NULL;
    tn_bot *bot = NULL;
    if (tn_failed(tn_path_create(map->w, map->h, &phys, 0, NULL, &finder, &err)) ||
        tn_failed(tn_bot_create(NULL, NULL, &bot, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_bot_set_graph(bot, graph);
    if (tn_failed(tn_bot_goto(bot, finder, map, &body, &phys, 20, 4, &err))) {
        fprintf(stderr, "goto: %s\n", err.msg);
        return 1;
    }
    int step;
    for (step = 0; step < 600 && tn_bot_active(bot); step++)
        tn_body_step(&body, map, &phys, tn_bot_step(bot, finder, map, &body, &phys));
    tn_bot_info info = tn_bot_get_info(bot);
    printf("bot: %s at x = %.1f px, feet at y = %.1f px after %d steps\n",
           tn_bot_state_name(info.state), body.x, body.y + 2 * phys.tile_px, step);

    /* 24 px is not 16 times a power of two: the scaled physics would agree
     * with 16 px only up to rounding, so the graph refuses it */
    tn_phys_params p24 = tn_phys_scaled(&d16, 1.5f);
    tn_surf_profile prof24 = tn_surf_profile_make(1, 2, &p24);
    tn_surf *g24 = NULL;
    tn_status st = tn_surf_create(map, &prof24, NULL, &g24, &err);
    printf("24-px tiles: %s\n", tn_failed(st) ? err.msg : "built (unexpected)");

    tn_bot_destroy(bot);
    tn_path_destroy(finder);
    tn_surf_destroy(graph);
    tn_map_destroy(map);
    return info.state == TN_BOT_ARRIVED && tn_failed(st) ? 0 : 1;
}
