/* SPDX-License-Identifier: Zlib */
/* examples/graph_thread.c - build a graph on another thread, keep playing.
 *
 * One idea: a big level's graph takes a long time to build (a jump-height
 * slider, a level just loaded), far more than a frame.  Build it on a
 * worker thread, on a COPY of the map (tn_map_clone): the game goes on with
 * its frames and the player goes on editing the real map.  When the worker
 * is done, one tn_surf_sync brings the graph to the real map: the tiles
 * changed meanwhile are found by comparing with the graph's own copy of
 * the terrain and repaired one by one (a local repair each, up to
 * max(2, surfaces / 16) changed tiles and at most 32; more, or a map of
 * another size: one full build, see EDITS in tn_surf.h), so the graph
 * equals a fresh build of the edited map.  The copy may be destroyed before the sync: the graph keeps its own
 * terrain.  A graph is used by one thread at a time: the game thread does
 * not touch it until the worker has ended.  A build nobody wants any more
 * (the player quits, loads another level) is told to stop through
 * profile.cancel, a flag the worker's build polls: it ends within
 * milliseconds instead of running to its end (CANCEL in tn_surf.h).
 *
 * Build:  cc graph_thread.c $(pkg-config --cflags --libs tilenav) -o graph_thread
 */
#include <stdatomic.h>
#include <stdio.h>
#include <threads.h>

#include <tilenav.h>

typedef struct job {
    const tn_map *copy; /* the worker's own map: nobody edits it */
    tn_surf_profile prof;
    tn_surf *graph;
    tn_status status;
    tn_error err;
    atomic_bool done; /* the game thread polls it once a frame */
} job;

/* profile.cancel: the flag the game thread sets */
static bool stop_asked(void *flag) { return atomic_load((atomic_bool *)flag); }

static int worker(void *arg)
{
    job *j = arg;
    j->status = tn_surf_create(j->copy, &j->prof, NULL, &j->graph, &j->err);
    atomic_store(&j->done, true);
    return 0;
}

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    tn_rng rng;
    tn_rng_seed(&rng, 7, 1);
    if (tn_failed(tn_map_create(160, 120, NULL, &map, &err)) ||
        tn_failed(tn_levelgen_platformer(map, &rng, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_phys_params phys = tn_phys_default(5.0f);

    /* start the build on a copy */
    job j = {.prof = tn_surf_profile_make(1, 2, &phys)};
    tn_map *copy = NULL;
    if (tn_failed(tn_map_clone(map, &copy, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    j.copy = copy;
    atomic_init(&j.done, false);
    thrd_t t;
    if (thrd_create(&t, worker, &j) != thrd_success) {
        fprintf(stderr, "no thread\n");
        return 1;
    }

    /* the game's frames go on: the player toggles a few tiles meanwhile */
    int frames = 0, edits = 0;
    while (!atomic_load(&j.done)) {
        if (frames % 4 == 0 && edits < 3) {
            int x = 10 + 40 * edits, y = 30;
            tn_map_set_tile(map, x, y, tn_map_tile(map, x, y) ? TN_TILE_EMPTY : TN_TILE_BLOCK,
                            NULL);
            edits++;
        }
        frames++;
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL); /* a 1 ms "frame" */
    }
    thrd_join(t, NULL);
    tn_map_destroy(copy);
    if (tn_failed(j.status)) {
        fprintf(stderr, "%s\n", j.err.msg);
        return 1;
    }
    printf("built on a worker thread while the game ran %d frames; %d tiles edited meanwhile\n",
           frames, edits);

    /* the graph to the real map: the edits made meanwhile, one local repair each */
    printf("in sync with the map before the sync: %s\n",
           tn_surf_in_sync(j.graph, map) ? "yes" : "no");
    if (tn_failed(tn_surf_sync(j.graph, map, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    int local = 0, full = 0;
    tn_surf_repair_counts(j.graph, &local, &full);
    printf("synced: %d tiles repaired locally, %d full rebuilds; in sync: %s\n", local, full,
           tn_surf_in_sync(j.graph, map) ? "yes" : "no");

    /* the same graph as a build on the edited map */
    tn_surf *fresh = NULL;
    if (tn_failed(tn_surf_create(map, &j.prof, NULL, &fresh, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    int same = tn_surf_node_count(fresh) == tn_surf_node_count(j.graph) &&
               tn_surf_edge_count(fresh) == tn_surf_edge_count(j.graph);
    printf("a fresh build of the edited map: %d nodes, %d edges (%s)\n", tn_surf_node_count(fresh),
           tn_surf_edge_count(fresh), same ? "the same counts" : "DIFFERENT");
    tn_surf_destroy(fresh);
    tn_surf_destroy(j.graph);

    /* the player quits during another build: it is told to stop */
    atomic_bool stop;
    atomic_init(&stop, false);
    job q = {.copy = map, .prof = tn_surf_profile_make(1, 2, &phys)}; /* (nobody edits it now) */
    q.prof.cancel = stop_asked;
    q.prof.cancel_user = &stop;
    atomic_init(&q.done, false);
    if (thrd_create(&t, worker, &q) != thrd_success) return 1;
    atomic_store(&stop, true);
    thrd_join(t, NULL); /* (at its next poll: a few ms at most) */
    printf("a build told to stop: %s\n",
           tn_status_detail(q.status, TN_CANCELLED) ? q.err.msg : "it had ended already");
    tn_surf_destroy(q.graph); /* (NULL when cancelled) */
    tn_map_destroy(map);
    return same && full == 0 ? 0 : 1;
}
