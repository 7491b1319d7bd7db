/* SPDX-License-Identifier: Zlib */
/* examples/graph_bot.c - a bot that jumps a gap the classic planner cannot.
 *
 * One idea: the graph planner (tn_surf) builds its edges by running the
 * physics step itself on scripted inputs, so it knows every jump the player
 * can make.  Here a 7-tile gap over a pit: the classic jump-value A*
 * (tn_path) only reaches the near edge (a partial path), the surface graph
 * finds the jump, and a bot (tn_bot) replays its recorded inputs to cross.
 * Then a block is put on the far floor and the graph repairs itself, and
 * a higher jump rebuilds it in place (a slider move).
 *
 * Build:  cc graph_bot.c $(pkg-config --cflags --libs tilenav) -o graph_bot
 */
#include <stdio.h>
#include <string.h>

#include <tilenav.h>

/* '#' block, 'P' the character.  The gap (columns 11..17) is a pit. */
static const char LEVEL[] = "tilenav-map 1\n"
                            "size 30 14\n"
                            "tiles\n"
                            "..............................\n"
                            "..............................\n"
                            "..............................\n"
                            "..............................\n"
                            "..............................\n"
                            "..............................\n"
                            "..............................\n"
                            "..............................\n"
                            "..P...........................\n"
                            "###########.......############\n"
                            "###########.......############\n"
                            "###########.......############\n"
                            "###########.......############\n"
                            "###########.......############\n";

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    if (tn_failed(tn_map_parse(LEVEL, strlen(LEVEL), "level", NULL, &map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* 16-px tiles (TN_TILE_PX; 32 px and other powers of two: graph_tiles32.c),
     * jump 4 tiles high */
    tn_phys_params phys = tn_phys_default(4.0f);
    tn_body body;
    tn_body_place(&body, &phys, 1, 2, map->start_x, map->start_y);
    tn_body_settle(&body, map, &phys); /* on the ground: a goal is planned at once */
    const int goal_x = 26, goal_y = 8; /* on the far floor */

    /* 1. The classic planner: jump values, about half the physics' reach. */
    tn_path *finder = NULL;
    tn_jump_model jm;
    if (tn_failed(tn_path_create(map->w, map->h, &phys, 0, NULL, &finder, &err)) ||
        tn_failed(tn_jump_model_init(&jm, &phys, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_path_query q = tn_path_query_make(map->start_x, map->start_y, goal_x, goal_y, 1, 2, &jm);
    tn_path_node nodes[256];
    int n = 0;
    tn_status st = tn_path_find(finder, map, &q, nodes, 256, &n, NULL, &err);
    printf("classic planner: %s\n", tn_status_str(st));

    /* 2. The surface graph of this movement profile (size, physics); its
     * searches on 2 threads (the same graph as on one, sooner on big maps) */
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &phys);
    prof.threads = 2;
    tn_surf *graph = NULL;
    if (tn_failed(tn_surf_create(map, &prof, NULL, &graph, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("surface graph: %d surfaces, %d nodes, %d edges\n", tn_surf_surface_count(graph),
           tn_surf_node_count(graph), tn_surf_edge_count(graph));
    tn_surf_leg legs[32];
    tn_surf_stats stats;
    /* the start node: the character's tile (tn_surf_node_of_body takes a
     * body that has stepped and stands) */
    int start = tn_surf_node_of_tile(graph, map->start_x, map->start_y);
    st = tn_surf_find(graph, start, goal_x, goal_y, legs, 32, &n, &stats, &err);
    if (tn_failed(st)) {
        fprintf(stderr, "graph: %s\n", err.msg);
        return 1;
    }
    printf("graph planner: %s, %d frames, %d legs\n", tn_status_str(st), stats.frames, n);
    for (int i = 0; i < n && legs[i].edge >= 0; i++) {
        const tn_surf_edge *e = &tn_surf_edges(graph)[legs[i].edge];
        printf("  walk to x = %.1f px, then %s: %d frames of recorded input\n",
               tn_surf_lattice_x(graph, legs[i].walk_to_j),
               e->kind == TN_SURF_JUMP   ? "jump"
               : e->kind == TN_SURF_DROP ? "drop"
                                         : "walk off",
               e->frames);
    }

    /* 3. A bot follows the graph plan with the keys a player would press. */
    tn_bot *bot = NULL;
    if (tn_failed(tn_bot_create(NULL, NULL, &bot, &err))) return 1;
    tn_bot_set_graph(bot, graph);
    if (tn_failed(tn_bot_goto(bot, finder, map, &body, &phys, goal_x, goal_y, &err))) {
        fprintf(stderr, "goto: %s\n", err.msg);
        return 1;
    }
    int step;
    for (step = 0; step < 60 * 10 && tn_bot_active(bot); step++)
        tn_body_step(&body, map, &phys, tn_bot_step(bot, finder, map, &body, &phys));
    int tx, ty;
    tn_body_tile(&body, &phys, &tx, &ty);
    tn_bot_info info = tn_bot_get_info(bot);
    printf("bot: %s at tile (%d,%d) after %d steps\n", tn_bot_state_name(info.state), tx, ty, step);
    int ok = info.state == TN_BOT_ARRIVED;

    /* 4. An edit: the graph repairs only the searches that read the tile. */
    tn_map_set_tile(map, 22, 8, TN_TILE_BLOCK, NULL);
    if (tn_failed(tn_surf_sync(graph, map, &err))) return 1;
    int local, full;
    tn_surf_repair_counts(graph, &local, &full);
    printf("after a block at (22,8): %d edges (%d local repair, %d rebuild)\n",
           tn_surf_edge_count(graph), local, full);

    /* 5. A jump-height slider moved: the graph is built again in place for
     * the new profile, keeping its memory (what the sandbox does). */
    int edges4 = tn_surf_edge_count(graph);
    tn_phys_params high = tn_phys_default(6.0f);
    tn_surf_profile prof6 = tn_surf_profile_make(1, 2, &high);
    if (tn_failed(tn_surf_rebuild(graph, map, &prof6, &err))) {
        fprintf(stderr, "rebuild: %s\n", err.msg);
        return 1;
    }
    printf("jump height 6: %d edges (rebuilt in place; %d with jump 4)\n",
           tn_surf_edge_count(graph), edges4);

    tn_bot_destroy(bot);
    tn_surf_destroy(graph);
    tn_path_destroy(finder);
    tn_map_destroy(map);
    return ok && local == 1 ? 0 : 1;
}
