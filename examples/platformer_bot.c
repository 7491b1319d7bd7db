/* SPDX-License-Identifier: Zlib */
/* examples/platformer_bot.c - a bot that plays a platformer level.
 *
 * One idea: platformer A* (tn_path) plans a route of walks, jumps and drops
 * for a character; a bot (tn_bot) follows it by pressing the same keys a
 * player would, and fixed-step physics (tn_phys) moves the body.  Nothing
 * here cheats: the bot only produces a tn_input each step.
 *
 * Build:  cc platformer_bot.c $(pkg-config --cflags --libs tilenav) -o platformer_bot
 */
#include <stdio.h>
#include <string.h>

#include <tilenav.h>

/* The level, in the tilenav map format: '#' block, '=' one-way platform,
 * 'P' where the character starts.  Row 0 is the top. */
static const char LEVEL[] = "tilenav-map 1\n"
                            "size 24 10\n"
                            "tiles\n"
                            "########################\n"
                            "#......................#\n"
                            "#..................#...#\n"
                            "#.............=====#...#\n"
                            "#..................#...#\n"
                            "#.........####.....#...#\n"
                            "#.....###..........#...#\n"
                            "#..........#.......#...#\n"
                            "#P.........#...........#\n"
                            "########################\n";

int main(void)
{
    tn_error err;

    /* 1. Load the map from text (a file's bytes work the same way). */
    tn_map *map = NULL;
    if (tn_failed(tn_map_parse(LEVEL, strlen(LEVEL), "level", NULL, &map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }

    /* 2. Physics: a 1x2-tile character that jumps 4 tiles high, 60 steps/s,
     *    in a game whose tiles are 32 px: say so in tile_px and give the
     *    speeds in the game's own pixels (the defaults are for 16-px tiles).
     *    Physics, planner and bot read the tile size from here. */
    tn_phys_params phys = tn_phys_default(4.0f);
    phys.tile_px = 32.0f;         /* pixels per tile */
    phys.gravity = 2060.0f;       /* px/s^2 */
    phys.max_fall = 1800.0f;      /* px/s */
    phys.walk_speed = 320.0f;     /* px/s: 10 tiles a second */
    phys.jump_cut_speed = 240.0f; /* px/s */
    tn_body body;
    tn_body_place(&body, &phys, 1, 2, map->start_x, map->start_y);
    tn_body_settle(&body, map, &phys); /* on the ground: a goal is planned at once */

    /* 3. One path finder per map size (bots can share it) and one bot. */
    tn_path *finder = NULL;
    tn_bot *bot = NULL;
    if (tn_failed(tn_path_create(map->w, map->h, &phys, 0, NULL, &finder, &err)) ||
        tn_failed(tn_bot_create(NULL, NULL, &bot, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }

    /* 4. Send the bot onto the one-way platform, up on the right. */
    int goal_x = 15, goal_y = 2;
    if (tn_failed(tn_bot_goto(bot, finder, map, &body, &phys, goal_x, goal_y, &err))) {
        fprintf(stderr, "goto: %s\n", err.msg);
        return 1;
    }
    int count = 0;
    tn_bot_path(bot, &count);
    printf("planned %d path nodes from (%d,%d) to (%d,%d)\n", count, map->start_x, map->start_y,
           goal_x, goal_y);

    /* 5. The game loop: ask the bot for keys, step the physics. */
    int step, jumps = 0;
    for (step = 0; step < 60 * 20 && tn_bot_active(bot); step++) {
        tn_input keys = tn_bot_step(bot, finder, map, &body, &phys);
        tn_body_step(&body, map, &phys, keys);
        if (body.jumped) jumps++;
    }

    /* 6. Where did it end up? */
    int tx, ty;
    tn_body_tile(&body, &phys, &tx, &ty);
    tn_bot_info info = tn_bot_get_info(bot);
    printf("after %d steps (%.1f s): state %s, at tile (%d,%d) = pixel (%.1f,%.1f), %d jumps\n",
           step, step * phys.dt, tn_bot_state_name(info.state), tx, ty, body.x, body.y, jumps);

    int ok = info.state == TN_BOT_ARRIVED;
    tn_bot_destroy(bot);
    tn_path_destroy(finder);
    tn_map_destroy(map);
    return ok ? 0 : 1;
}
