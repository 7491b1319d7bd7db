/* SPDX-License-Identifier: Zlib */
/* examples/agents.c - a companion and a flock of wanderers on a navmesh.
 *
 * One idea: the steering agents (tn_companion, tn_wander) never look at a
 * navigation representation; they ask a small table of callbacks
 * (tn_agent_nav) for line of sight and paths, in pixels.  Here the table is
 * tn_navquery_agent_nav's: a navigation mesh built with tile_size =
 * TN_TILE_PX (so it answers in the same pixels) and one of its query
 * objects.  It gives the agents the points AFTER the start (find_path
 * returns the start too), moves a start or goal that does not keep the
 * radius from a wall out first, and gives the way to the closest place of
 * an unreachable goal as a negated count.  A game with another navigation
 * (a grid, waypoints) writes the two callbacks itself: see tn_steer.h.
 *
 * Build:  cc agents.c $(pkg-config --cflags --libs tilenav) -o agents
 */
#include <stdio.h>
#include <string.h>

#include <tilenav.h>

/* Two rooms joined by a door two tiles high, a pillar, and '*' items. */
static const char LEVEL[] = "tilenav-map 1\n"
                            "size 24 12\n"
                            "tiles\n"
                            "########################\n"
                            "#..........#...........#\n"
                            "#..........#......*....#\n"
                            "#..........#...........#\n"
                            "#..P............##.....#\n"
                            "#...............##.....#\n"
                            "#..........#...........#\n"
                            "#..........#...........#\n"
                            "#..........#.......*...#\n"
                            "#..........#...........#\n"
                            "#..........#...........#\n"
                            "########################\n";

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    if (tn_failed(tn_map_parse(LEVEL, strlen(LEVEL), "level", NULL, &map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }

    /* 1. A navmesh in pixels, and one query object (its scratch memory). */
    tn_navmesh *mesh = NULL;
    tn_navquery *query = NULL;
    tn_navmesh_config cfg = tn_navmesh_default_config();
    cfg.tile_size = TN_TILE_PX;
    if (tn_failed(tn_navmesh_create(map->w, map->h, &cfg, NULL, &mesh, &err)) ||
        tn_failed(tn_navmesh_build(mesh, map, &err)) ||
        tn_failed(tn_navquery_create(mesh, NULL, &query, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    float scratch[2 * 64]; /* find_path's points, the start included */
    tn_navquery_agent adapter = {query, scratch, 64};
    tn_agent_nav agent_nav = tn_navquery_agent_nav(&adapter);

    /* 2. The items (tile centres of the '*' marks, in pixels). */
    float items[2 * 8];
    int nitems = 0;
    for (int y = 0; y < map->h; y++)
        for (int x = 0; x < map->w; x++)
            if (tn_map_mark(map, x, y) == TN_MARK_ITEM && nitems < 8) {
                items[2 * nitems] = ((float)x + 0.5f) * TN_TILE_PX;
                items[2 * nitems + 1] = ((float)y + 0.5f) * TN_TILE_PX;
                nitems++;
            }

    /* 3. The agents: a companion next to the character (the 'P' tile), and
     *    six wanderers drifting from the left room to the right one. */
    tn_companion_params cp = tn_companion_default_params();
    tn_wander_params wp = tn_wander_default_params();
    if (tn_failed(tn_companion_validate(&cp, &err)) || tn_failed(tn_wander_validate(&wp, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    const float px = TN_TILE_PX;
    float cx = ((float)map->start_x + 0.5f) * px, cy = ((float)map->start_y + 0.5f) * px;
    tn_companion comp;
    tn_companion_init(&comp, cx - px, cy - px, 0);
    tn_wanderer flock[6];
    for (int i = 0; i < 6; i++)
        tn_wanderer_init(&flock[i], 2.5f * px, (1.5f + 1.5f * (float)i) * px, 0.0f, 20.5f * px,
                         5.5f * px, 42, (uint64_t)i);

    /* 4. 40 seconds at 60 steps a second.  After 3 s the character walks
     *    through the door into the far room and stops there; the companion
     *    follows it (planning paths when the wall hides it) and, once the
     *    character stands still, fetches the items it sees.  The wanderers
     *    drift toward the far room (a biased random walk: some take longer
     *    than others to find the door). */
    tn_companion_env env;
    memset(&env, 0, sizeof env);
    env.map = map;
    env.nav = &agent_nav;
    env.char_hw = 0.5f * px;
    env.char_hh = px;
    env.self_id = -1;
    env.items = items;
    env.nitems = nitems;
    env.dt = 1.0f / 60.0f;
    tn_wander_env wenv = {map, &agent_nav, 1.0f / 60.0f};
    int picked = 0;
    for (int step = 0; step < 40 * 60; step++) {
        env.char_vx = step >= 180 && cx < 19.5f * px ? 60.0f : 0.0f;
        cx += env.char_vx * env.dt;
        env.char_x = cx;
        env.char_y = cy;
        int item = tn_companion_step(&comp, &cp, &env);
        if (item >= 0) { /* the game removes a picked item: the last takes its place */
            picked++;
            items[2 * item] = items[2 * (nitems - 1)];
            items[2 * item + 1] = items[2 * (nitems - 1) + 1];
            env.nitems = --nitems;
        }
        tn_wander_step(flock, 6, &wp, &wenv);
    }

    /* 5. Where everyone ended: inside free space, never in a wall. */
    int bad = !tn_steer_box_free(map, comp.x, comp.y, cp.half);
    printf("character at (%.0f, %.0f) px; companion %s at (%.0f, %.0f), %d item(s) picked, "
           "%ld path(s) planned\n",
           (double)cx, (double)cy, tn_companion_state_name(comp.state), (double)comp.x,
           (double)comp.y, picked, comp.paths_planned);
    int through = 0;
    for (int i = 0; i < 6; i++) {
        bad += !tn_steer_box_free(map, flock[i].x, flock[i].y, wp.half);
        through += flock[i].x > 12.0f * px;
        printf("wanderer %d at tile (%d, %d), %ld waypoints, %ld guide paths\n", i,
               (int)(flock[i].x / px), (int)(flock[i].y / px), flock[i].waypoints, flock[i].paths);
    }
    printf("%d of 6 wanderers in the far room\n", through);
    tn_navquery_destroy(query);
    tn_navmesh_destroy(mesh);
    tn_map_destroy(map);
    return bad == 0 ? 0 : 1;
}
