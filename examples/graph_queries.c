/* SPDX-License-Identifier: Zlib */
/* examples/graph_queries.c - many bots' plans on several threads at once.
 *
 * One idea: a query writes its search state somewhere.  tn_surf_find
 * writes the graph's own, so one graph answers one query at a time.  A
 * query object (tn_surf_query_create, as Detour's dtNavMeshQuery) holds a
 * search state of its own and only reads the graph: give each worker
 * thread of a job system its own object and they plan on one graph at
 * once (while no thread edits it), each answer the one tn_surf_find
 * gives.  Objects also let several sliced queries be under way on one
 * graph (tn_surf_query_begin / _step / _end, one per object).  An object
 * holds about 56 bytes per node (tn_surf_query_memory).
 *
 * Build:  cc graph_queries.c $(pkg-config --cflags --libs tilenav) -o graph_queries
 */
#include <stdio.h>
#include <threads.h>
#include <time.h>

#include <tilenav.h>

#define THREADS 2
#define QUERIES 400

typedef struct request {
    int start, gx, gy;
} request;

typedef struct job {
    const tn_surf *graph; /* shared, read-only while the workers run */
    const request *req;   /* this worker's share */
    int n;
    int *frames; /* out: each plan's frames (-1: no plan) */
    size_t memory;
} job;

static int worker(void *arg)
{
    job *J = arg;
    tn_surf_query *q = NULL;
    tn_error err;
    if (tn_failed(tn_surf_query_create(J->graph, NULL, &q, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    J->memory = tn_surf_query_memory(q);
    for (int i = 0; i < J->n; i++) {
        tn_surf_stats st;
        tn_status s = tn_surf_query_find(q, J->req[i].start, J->req[i].gx, J->req[i].gy, NULL, 0,
                                         NULL, &st, NULL);
        J->frames[i] = tn_succeeded(s) ? st.frames : -1;
    }
    tn_surf_query_destroy(q);
    return 0;
}

static double seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void)
{
    tn_error err;
    tn_map *map = NULL;
    tn_rng rng;
    tn_rng_seed(&rng, 5, 1);
    if (tn_failed(tn_map_create(256, 256, NULL, &map, &err)) ||
        tn_failed(tn_levelgen_platformer(map, &rng, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tn_phys_params phys = tn_phys_default(4.0f);
    tn_surf_profile prof = tn_surf_profile_make(1, 2, &phys);
    tn_surf *graph = NULL;
    if (tn_failed(tn_surf_create(map, &prof, NULL, &graph, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }

    /* bots asking for random standing tiles */
    static request req[QUERIES];
    static int one[QUERIES], many[QUERIES];
    const int nodes = tn_surf_node_count(graph);
    for (int i = 0; i < QUERIES; i++) {
        int row, j;
        tn_surf_node_pos(graph, (int)tn_rng_below(&rng, (uint32_t)nodes), &row, &j);
        req[i].start = (int)tn_rng_below(&rng, (uint32_t)nodes);
        req[i].gx = (int)(tn_surf_lattice_x(graph, j) / tn_surf_get_profile(graph)->phys.tile_px);
        req[i].gy = row - 1;
    }

    /* one thread, the graph's own search state */
    double t0 = seconds();
    for (int i = 0; i < QUERIES; i++) {
        tn_surf_stats st;
        tn_status s =
            tn_surf_find(graph, req[i].start, req[i].gx, req[i].gy, NULL, 0, NULL, &st, NULL);
        one[i] = tn_succeeded(s) ? st.frames : -1;
    }
    double t1 = seconds();

    /* THREADS workers, a query object each, the requests split between them */
    thrd_t th[THREADS];
    job jobs[THREADS];
    const int share = QUERIES / THREADS;
    for (int k = 0; k < THREADS; k++) {
        jobs[k] = (job){graph, req + k * share, share, many + k * share, 0};
        if (thrd_create(&th[k], worker, &jobs[k]) != thrd_success) {
            fprintf(stderr, "no thread\n");
            return 1;
        }
    }
    int failed = 0;
    for (int k = 0; k < THREADS; k++) {
        int rc = 0;
        thrd_join(th[k], &rc);
        failed |= rc;
    }
    double t2 = seconds();
    if (failed) return 1;

    int same = 0;
    for (int i = 0; i < QUERIES; i++) same += one[i] == many[i];
    printf("256x256 level, %d nodes: %d queries on 1 thread in %.1f ms, on %d threads with a "
           "query object each in %.1f ms (wall); %d of %d plans the same length; %zu KB per "
           "query object\n",
           nodes, QUERIES, (t1 - t0) * 1e3, THREADS, (t2 - t1) * 1e3, same, QUERIES,
           jobs[0].memory / 1024);

    tn_surf_destroy(graph);
    tn_map_destroy(map);
    return same == QUERIES ? 0 : 1;
}
