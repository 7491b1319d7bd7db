/* SPDX-License-Identifier: Zlib */
/* examples/graph_sliced_bots.c - bots that plan in slices, one at a time.
 *
 * One idea: a crowd of bots on a big level must not make a frame slow
 * when several want a far plan at once.  They share one query object
 * (tn_surf_query_create: about 56 B a graph node, so one per crowd, not one per
 * bot) and plan in slices (tn_bot_set_query with a node budget): a bot
 * whose plan is under way expands at most that many nodes a frame and
 * stands meanwhile.  The owner lets one bot plan at a time and holds the
 * others (tn_bot_hold_plans), as Detour's path queue does: a frame's
 * planning is at most one slice, whatever the crowd does.  The same run
 * with whole plans (budget 0) shows the frame it saves.
 *
 * Build:  cc graph_sliced_bots.c $(pkg-config --cflags --libs tilenav) -o graph_sliced_bots
 */
#include <stdio.h>
#include <time.h>

#include <tilenav.h>

enum { BOTS = 8, FRAMES = 3000, BUDGET = 300 };

typedef struct crowd_run {
    int trips, arrived, plans;
    int unreachable; /* goal out of reach: stopped at the closest spot (or stood there) */
    int other;       /* stuck; the rest were under way at the end */
    double worst_us; /* the slowest frame's planning and following, all bots */
} crowd_run;

/* A random tile some node of the graph stands on. */
static void random_goal(const tn_surf *g, tn_rng *rng, int *x, int *y)
{
    int row, j;
    tn_surf_node_pos(g, (int)tn_rng_below(rng, (uint32_t)tn_surf_node_count(g)), &row, &j);
    *x =
        (int)(tn_surf_lattice_x(g, j) / tn_surf_get_profile(g)->phys.tile_px); /* (any tile size) */
    *y = row - 1;
}

/* Count a trip that ended by how it ended. */
static void trip_ended(crowd_run *r, const tn_bot *bot)
{
    const tn_bot_state st = tn_bot_get_info(bot).state;
    if (st == TN_BOT_ARRIVED)
        r->arrived++;
    else if (st == TN_BOT_PARTIAL || st == TN_BOT_NO_PATH)
        r->unreachable++; /* (a random goal: many are out of reach) */
    else
        r->other++;
}

static crowd_run run_crowd(tn_map *map, tn_surf *graph, tn_surf_query *q, int budget)
{
    crowd_run r = {0, 0, 0, 0, 0, 0.0};
    const tn_phys_params phys = tn_surf_get_profile(graph)->phys;
    tn_rng rng;
    tn_rng_seed(&rng, 99, 2);
    tn_bot *bots[BOTS];
    tn_body bodies[BOTS];
    for (int i = 0; i < BOTS; i++) {
        tn_bot_create(NULL, NULL, &bots[i], NULL);
        tn_bot_set_graph(bots[i], graph);
        tn_bot_set_query(bots[i], q, budget); /* one object for the crowd */
        int x, y;
        random_goal(graph, &rng, &x, &y);
        tn_body_place(&bodies[i], &phys, 1, 2, x, y);
        tn_body_settle(&bodies[i], map, &phys); /* (on_ground before the first step) */
    }
    int turn = -1; /* the bot that may plan now; -1: none */
    for (int f = 0; f < FRAMES; f++) {
        clock_t t0 = clock();
        for (int i = 0; i < BOTS; i++) {
            tn_bot *bot = bots[i];
            if (!tn_bot_active(bot) && bodies[i].on_ground && turn < 0) {
                int x, y; /* a new trip: its plan begins now (goto is never held) */
                random_goal(graph, &rng, &x, &y);
                if (tn_succeeded(tn_bot_goto(bot, NULL, map, &bodies[i], &phys, x, y, NULL))) {
                    r.trips++;
                    if (!tn_bot_active(bot)) trip_ended(&r, bot); /* (there already) */
                }
                turn = tn_bot_planning(bot) ? i : -1;
            }
            tn_bot_hold_plans(bot, turn >= 0 && turn != i);
            const bool was_active = tn_bot_active(bot);
            tn_input in = tn_bot_step(bot, NULL, map, &bodies[i], &phys);
            if (turn == i && !tn_bot_planning(bot)) turn = -1; /* planned */
            if (turn < 0 && tn_bot_plan_held(bot)) turn = i;   /* its turn next */
            if (turn < 0 && tn_bot_planning(bot)) turn = i;    /* a re-plan began */
            if (was_active && !tn_bot_active(bot)) trip_ended(&r, bot);
            tn_body_step(&bodies[i], map, &phys, in);
        }
        double us = (double)(clock() - t0) * 1e6 / CLOCKS_PER_SEC;
        if (us > r.worst_us) r.worst_us = us;
    }
    for (int i = 0; i < BOTS; i++) {
        r.plans += tn_bot_get_info(bots[i]).plans;
        tn_bot_destroy(bots[i]);
    }
    return r;
}

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    tn_rng rng;
    tn_rng_seed(&rng, 7, 1);
    if (tn_failed(tn_map_create(256, 256, NULL, &map, &err)) ||
        tn_failed(tn_levelgen_platformer(map, &rng, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_phys_params phys = tn_phys_default(4.0f);
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &phys);
    tn_surf *graph = NULL;
    tn_surf_query *q = NULL;
    if (tn_failed(tn_surf_create(map, &prof, NULL, &graph, &err)) ||
        tn_failed(tn_surf_query_create(graph, NULL, &q, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("%d bots on a 256x256 level, %d frames, one query object (%.1f MB)\n", BOTS, FRAMES,
           (double)tn_surf_query_memory(q) / (1024.0 * 1024.0));
    const int budgets[2] = {0, BUDGET};
    crowd_run r[2];
    for (int k = 0; k < 2; k++) {
        r[k] = run_crowd(map, graph, q, budgets[k]);
        printf("  %-21s %3d trips: %3d arrived, %3d at the closest spot to a goal out of reach, "
               "%d stuck, %d under way; %3d plans; the slowest frame %6.0f us\n",
               k ? "slices of 300 nodes:" : "whole plans:", r[k].trips, r[k].arrived,
               r[k].unreachable, r[k].other,
               r[k].trips - r[k].arrived - r[k].unreachable - r[k].other, r[k].plans,
               r[k].worst_us);
    }
    tn_surf_query_destroy(q);
    tn_surf_destroy(graph);
    tn_map_destroy(map);
    return r[1].arrived > 0 ? 0 : 1;
}
