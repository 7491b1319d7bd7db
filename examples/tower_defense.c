/* SPDX-License-Identifier: Zlib */
/* examples/tower_defense.c - enemies flying a flow field to the base.
 *
 * One idea: a flow field (tn_flow) stores, for every tile, the way to the
 * nearest destination, so any number of enemies (tn_enemies) find their way
 * at the cost of one lookup each.  When the player builds a wall, the field
 * is updated for that one tile and enemies already in flight re-route.
 *
 * Build:  cc tower_defense.c $(pkg-config --cflags --libs tilenav) -o tower_defense
 */
#include <stdio.h>
#include <string.h>

#include <tilenav.h>

/* 'S' spawn points, 'D' the base (a destination), '#' walls with two gaps. */
static const char BOARD[] = "tilenav-map 1\n"
                            "size 20 9\n"
                            "tiles\n"
                            "####################\n"
                            "#S.......#.........#\n"
                            "#..................#\n"
                            "#........#.........#\n"
                            "#........#........D#\n"
                            "#........#.........#\n"
                            "#..................#\n"
                            "#S.......#.........#\n"
                            "####################\n";

/* Draw the board: each open tile's direction toward the base. */
static void print_field(const tn_map *map, const tn_flow *flow)
{
    static const char arrow[] = "^v><"
                                "????"
                                "D ";
    for (int y = 0; y < map->h; y++) {
        for (int x = 0; x < map->w; x++)
            putchar(tn_map_tile(map, x, y) == TN_TILE_BLOCK ? '#' : arrow[tn_flow_dir(flow, x, y)]);
        putchar('\n');
    }
}

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    if (tn_failed(tn_map_parse(BOARD, strlen(BOARD), "board", NULL, &map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }

    /* 1. A 4-connected flow field over the board: walls block, 'D' tiles are
     *    destinations (tn_flow_kind reads both from the map). */
    tn_flow *flow = NULL;
    if (tn_failed(tn_flow_create(map->w, map->h, 4, NULL, &flow, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    if (tn_failed(tn_flow_rebuild(flow, map, NULL))) {
        fprintf(stderr, "flow field: the board does not match\n");
        return 1;
    }
    printf("spawn (1,1) is %.0f steps from the base\n", tn_flow_dist(flow, 1, 1));
    print_field(map, flow);

    /* 2. The spawner: 4 enemies a second from the 'S' tiles (as y*w+x). */
    int32_t spawns[8];
    int nspawns = tn_mini(tn_map_list_marks(map, TN_MARK_SPAWN, spawns, 8), 8);
    tn_enemies_config cfg = tn_enemies_default_config();
    cfg.capacity = 256;
    cfg.spawn_rate = 4.0f;
    tn_enemies *enemies = NULL;
    if (tn_failed(tn_enemies_create(&cfg, NULL, &enemies, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_rng rng;
    tn_rng_seed(&rng, 42, 0); /* same seed, same wave, on every machine */

    /* 3. Play 30 seconds at 60 steps per second.  After 10 s the player
     *    closes the upper gap in the middle wall: one tile edited, the field
     *    updated for that tile, the enemies told (those flying re-route). */
    const float dt = 1.0f / 60.0f;
    for (int step = 0; step < 60 * 30; step++) {
        if (step == 60 * 10) {
            tn_map_set_tile(map, 9, 2, TN_TILE_BLOCK, NULL);
            tn_flow_update(flow, map, 9, 2, NULL);
            tn_enemies_on_edit(enemies, flow, 9, 2, NULL);
            printf("\ngap (9,2) closed: spawn (1,1) is now %.0f steps from the base\n",
                   tn_flow_dist(flow, 1, 1));
            print_field(map, flow);
        }
        tn_enemies_step(enemies, flow, spawns, nspawns, &rng, dt, NULL);
        if (step % (60 * 5) == 0)
            printf("t=%4.1f s: %3d flying, %3ld spawned, %3ld reached the base\n", step * dt,
                   enemies->count, enemies->spawned, enemies->reached);
    }

    int ok = enemies->reached > 0 && tn_flow_dist(flow, 1, 1) > 0;
    tn_enemies_destroy(enemies);
    tn_flow_destroy(flow);
    tn_map_destroy(map);
    return ok ? 0 : 1;
}
