/* SPDX-License-Identifier: Zlib */
/* examples/graph_bot_knockback.c - a graph bot hit by an enemy on its way.
 *
 * One idea: the game, not only the bot's keys, may move the body.  An
 * enemy's hit pushes it a fraction of a pixel (knock-back), which leaves
 * the body off the walk lattice the graph's edges were simulated on; the
 * bot (tn_bot) checks each jump from where the body really stands and
 * still arrives.  A push toward a wall that would put the box inside it
 * is undone by the next tn_body_step (tn_phys.h, Collisions).  Then the
 * platform the plan climbs is removed: the game syncs the graph
 * (tn_surf_sync) and the bot plans again by itself.
 *
 * Build:  cc graph_bot_knockback.c $(pkg-config --cflags --libs tilenav) -o graph_bot_knockback
 */
#include <stdio.h>
#include <string.h>

#include <tilenav.h>

/* '#' block, '=' one-way platform, 'P' the character. */
static const char LEVEL[] = "tilenav-map 1\n"
                            "size 32 12\n"
                            "tiles\n"
                            "................................\n"
                            "................................\n"
                            "........................######..\n"
                            "................................\n"
                            "................................\n"
                            "...................=====........\n"
                            "....####......................##\n"
                            "................................\n"
                            ".P..............................\n"
                            "############....################\n"
                            "############....################\n"
                            "############....################\n";

/* Run the bot for at most `frames` steps; push the body by `push_px` at
 * frame `push_at` (an enemy's hit) and remove the platform at frame `edit_at`
 * (-1: never); `say`: print what happens.  Returns the bot's final state. */
static tn_bot_state trip(tn_map *map, tn_surf *graph, const tn_phys_params *phys, int goal_x,
                         int goal_y, int push_at, float push_px, int edit_at, int frames, bool say)
{
    tn_error err;
    tn_body body;
    tn_body_place(&body, phys, 1, 2, map->start_x, map->start_y);
    tn_body_settle(&body, map, phys); /* on the ground: the goal is planned at once */
    tn_bot *bot = NULL;
    if (tn_failed(tn_bot_create(NULL, NULL, &bot, &err))) return TN_BOT_NO_PATH;
    tn_bot_set_graph(bot, graph); /* the graph planner: no finder (pf NULL) */
    if (tn_failed(tn_bot_goto(bot, NULL, map, &body, phys, goal_x, goal_y, &err))) {
        fprintf(stderr, "goto: %s\n", err.msg);
        tn_bot_destroy(bot);
        return TN_BOT_NO_PATH;
    }
    int step;
    for (step = 0; step < frames && tn_bot_active(bot); step++) {
        if (step == push_at) {
            body.x += push_px; /* knock-back: the bot is not told */
            if (say)
                printf("  frame %3d: hit %s, pushed %+.1f px to x = %.2f px\n", step,
                       body.on_ground ? "on the ground" : "in the air", push_px, body.x);
        }
        if (step == edit_at) {
            /* the one-way platform the plan climbs goes; the graph is synced
             * before the bot's next step (a bot stepped on a graph out of
             * sync stops NO_PATH), which plans the way by the right wall */
            for (int x = 19; x <= 23; x++) tn_map_set_tile(map, x, 5, TN_TILE_EMPTY, NULL);
            if (tn_failed(tn_surf_sync(graph, map, &err))) fprintf(stderr, "%s\n", err.msg);
            if (say) printf("  frame %3d: platform removed, graph synced\n", step);
        }
        tn_body_step(&body, map, phys, tn_bot_step(bot, NULL, map, &body, phys));
    }
    tn_bot_info info = tn_bot_get_info(bot);
    int tx, ty;
    tn_body_tile(&body, phys, &tx, &ty);
    if (say)
        printf("  %s at tile (%d,%d) after %d frames, %d re-plans (last: \"%s\")\n",
               tn_bot_state_name(info.state), tx, ty, step, info.replans, info.plan_reason);
    tn_bot_destroy(bot);
    return info.state;
}

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    if (tn_failed(tn_map_parse(LEVEL, strlen(LEVEL), "level", NULL, &map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_phys_params phys = tn_phys_default(4.0f); /* 16-px tiles, jump 4 tiles */
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &phys);
    tn_surf *graph = NULL;
    if (tn_failed(tn_surf_create(map, &prof, NULL, &graph, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    const int goal_x = 27, goal_y = 1; /* on the high ledge, top right */

    printf("no hit:\n");
    tn_bot_state st = trip(map, graph, &phys, goal_x, goal_y, -1, 0.0f, -1, 900, true);
    int arrived = st == TN_BOT_ARRIVED, trips = 1;

    /* hits of a few sizes, at every 10th frame of the trip: on the ground,
     * at a take-off, in the air */
    const float pushes[] = {0.4f, -0.9f, 1.3f, -2.5f};
    for (int i = 0; i < 4; i++) {
        int ok = 0, n = 0;
        for (int at = 0; at < 180; at += 10, n++)
            ok += trip(map, graph, &phys, goal_x, goal_y, at, pushes[i], -1, 900, false) ==
                  TN_BOT_ARRIVED;
        printf("hit %+.1f px at frame 0, 10, .., 170: %d of %d arrived\n", pushes[i], ok, n);
        arrived += ok;
        trips += n;
    }
    printf("hit at frame 20, the platform removed at frame 40:\n");
    st = trip(map, graph, &phys, goal_x, goal_y, 20, 0.4f, 40, 900, true);
    arrived += st == TN_BOT_ARRIVED;
    trips++;

    tn_surf_destroy(graph);
    tn_map_destroy(map);
    printf("%d of %d trips arrived\n", arrived, trips);
    return arrived == trips ? 0 : 1;
}
