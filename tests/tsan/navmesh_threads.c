/* tests/tsan/navmesh_threads.c - `make tsan`: one tn_navmesh shared by
 * four threads, each with its own tn_navquery, built with
 * -fsanitize=thread.  Every thread runs the same queries (radius 0 and
 * 0.4 paths, line of sight, locate, nearest clear point) and must get
 * exactly the answers one thread got alone; ThreadSanitizer reports any
 * data race (the run fails: halt_on_error=1).  The contract checked is the
 * one tn_navmesh.h states: the mesh is read-only during queries, all
 * scratch is in the query object. */
#define _POSIX_C_SOURCE 200809L
#include "tn_map.h"
#include "tn_navmesh.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 40
#define H 30
#define NQ 60
#define NT 4

typedef struct answer {
    tn_status s0, s1;
    int n0, n1;
    float len0; /* sum of the radius-0 path's coordinates: a cheap fingerprint */
    double len1;
    int los, tri;
    float cx, cy;
} answer;

static const tn_navmesh *g_mesh;
static float g_pts[NQ][4];
static answer g_ref[NQ];

static void run(tn_navquery *q, answer *out)
{
    float xy[2 * 512];
    for (int i = 0; i < NQ; i++) {
        const float *p = g_pts[i];
        answer a;
        memset(&a, 0, sizeof a);
        tn_error err;
        a.s0 = tn_navquery_find_path(q, p[0], p[1], p[2], p[3], 0, xy, 512, &a.n0, &err);
        for (int k = 0; k < 2 * a.n0; k++) a.len0 += xy[k];
        a.s1 = tn_navquery_find_path(q, p[0], p[1], p[2], p[3], 0.4f, xy, 512, &a.n1, &err);
        a.len1 = tn_succeeded(a.s1) ? tn_navquery_length(q) : -1;
        a.los = tn_navmesh_los(g_mesh, p[0], p[1], p[2], p[3]);
        a.tri = tn_navmesh_locate(g_mesh, p[0], p[1], -1);
        if (!tn_navmesh_nearest_clear(g_mesh, p[2], p[3], 0.4f, &a.cx, &a.cy)) a.cx = a.cy = -1;
        out[i] = a;
    }
}

static void *worker(void *arg)
{
    answer *mine = arg;
    tn_navquery *q = NULL;
    tn_error err;
    if (tn_failed(tn_navquery_create(g_mesh, NULL, &q, &err))) return NULL;
    run(q, mine);
    tn_navquery_destroy(q);
    return mine;
}

int main(void)
{
    /* a map of scattered blocks, as text */
    static char text[64 + H * (W + 1)];
    int len = snprintf(text, sizeof text, "tilenav-map 1\nsize %d %d\ntiles\n", W, H);
    unsigned r = 12345;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            r = r * 1103515245u + 12345u;
            text[len++] = ((r >> 16) % 100) < 22 ? '#' : '.';
        }
        text[len++] = '\n';
    }
    tn_error err;
    tn_map *map = NULL;
    tn_navmesh *mesh = NULL;
    if (tn_failed(tn_map_parse(text, (size_t)len, "tsan", NULL, &map, &err)) ||
        tn_failed(tn_navmesh_create(W, H, NULL, NULL, &mesh, &err)) ||
        tn_failed(tn_navmesh_build(mesh, map, &err))) {
        fprintf(stderr, "tsan: %s\n", err.msg);
        return 1;
    }
    g_mesh = mesh;
    for (int i = 0; i < NQ; i++)
        for (int k = 0; k < 4; k++) {
            r = r * 1103515245u + 12345u;
            g_pts[i][k] = (float)((r >> 8) % (unsigned)((k % 2 ? H : W) * 8)) / 8.0f + 1.0f / 16;
        }
    tn_navquery *q = NULL;
    if (tn_failed(tn_navquery_create(mesh, NULL, &q, &err))) return 1;
    run(q, g_ref);
    tn_navquery_destroy(q);
    int found = 0;
    for (int i = 0; i < NQ; i++) found += tn_succeeded(g_ref[i].s0) + tn_succeeded(g_ref[i].s1);

    static answer got[NT][NQ];
    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        if (pthread_create(&th[t], NULL, worker, got[t]) != 0) return 1;
    int bad = 0;
    for (int t = 0; t < NT; t++) {
        void *res = NULL;
        pthread_join(th[t], &res);
        if (!res)
            bad++;
        else if (memcmp(got[t], g_ref, sizeof g_ref) != 0)
            bad++;
    }
    printf("tsan: %d threads x %d queries on one navmesh (%d paths found): %s\n", NT, NQ, found,
           bad ? "DIFFERENT answers" : "same answers as one thread");
    tn_navmesh_destroy(mesh);
    tn_map_destroy(map);
    return bad != 0 || found < NQ / 2;
}
