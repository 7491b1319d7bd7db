/* tests/tsan/surf_threads.c - `make tsan`: the graph planner's threaded
 * build and repair (tn_surf_profile.threads) under -fsanitize=thread.
 * Generated and tight levels are built on 4 threads and on 1; the graphs
 * must be the same edge for edge, input runs and their layout included,
 * then the same random edits are repaired on both (the threaded one on 3
 * threads) and compared again; then shortcuts and labels are built on
 * both (the labels' two directions at once on the threaded one) and
 * random queries compared.  Both graphs get landmark tables (the
 * threaded one searches each landmark's two directions at once): the
 * same landmarks and costs, after the edits too.  Last a 224x224 level,
 * big enough (16384+ nodes) that the threads' edges are gathered surface
 * by surface.  Query objects: four threads query one graph at once, each
 * with its own tn_surf_query (whole and sliced queries, with landmarks,
 * then with shortcuts and labels), and must get the answers tn_surf_find
 * gave on one thread.  Bots on threads: four threads each run a bot
 * (tn_bot) with a query object of its own on one graph, whole or sliced
 * plans (tn_bot_set_query), a few trips each, and must end every trip
 * where the same bot run on the main thread ends it.  ThreadSanitizer
 * reports any data race
 * (the run fails: halt_on_error=1).  The contract checked is the one
 * tn_surf.h states under THREAD SAFETY. */
#include "tn_bot.h"
#include "tn_levelgen.h"
#include "tn_map.h"
#include "tn_rng.h"
#include "tn_surf.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

static void check(int ok, const char *what, int level)
{
    if (!ok) {
        fprintf(stderr, "surf_threads: level %d: %s\n", level, what);
        fails++;
    }
}

/* The same graph: nodes, edges (fields and run offsets) and runs. */
static void same_graph(const tn_surf *a, const tn_surf *b, int level)
{
    check(tn_surf_node_count(a) == tn_surf_node_count(b), "node counts differ", level);
    check(tn_surf_edge_count(a) == tn_surf_edge_count(b), "edge counts differ", level);
    if (tn_surf_edge_count(a) != tn_surf_edge_count(b)) return;
    const tn_surf_edge *ea = tn_surf_edges(a), *eb = tn_surf_edges(b);
    for (int e = 0; e < tn_surf_edge_count(a); e++) {
        int same = ea[e].from == eb[e].from && ea[e].to == eb[e].to &&
                   ea[e].frames == eb[e].frames && ea[e].kind == eb[e].kind &&
                   ea[e].run0 == eb[e].run0 && ea[e].nruns == eb[e].nruns;
        for (int q = 0; same && q < ea[e].nruns; q++) {
            tn_input ia, ib;
            int na, nb;
            tn_surf_run(a, ea[e].run0 + (uint32_t)q, &ia, &na);
            tn_surf_run(b, eb[e].run0 + (uint32_t)q, &ib, &nb);
            same = na == nb && ia.left == ib.left && ia.right == ib.right && ia.jump == ib.jump &&
                   ia.down == ib.down;
        }
        if (!same) {
            check(0, "an edge differs", level);
            return;
        }
    }
}

/* The same landmarks, and the same cost from and to each of them. */
static void same_landmarks(const tn_surf *a, const tn_surf *b, int level)
{
    const int K = tn_surf_landmark_count(a);
    check(K > 0 && K == tn_surf_landmark_count(b), "landmark counts differ", level);
    if (K != tn_surf_landmark_count(b)) return;
    for (int k = 0; k < K; k++) {
        check(tn_surf_landmark_node(a, k) == tn_surf_landmark_node(b, k), "a landmark differs",
              level);
        for (int n = 0; n < tn_surf_node_count(a); n++)
            for (int back = 0; back < 2; back++)
                if (tn_surf_landmark_cost(a, k, n, back) != tn_surf_landmark_cost(b, k, n, back)) {
                    check(0, "a landmark cost differs", level);
                    return;
                }
    }
}

/* The query shortcuts and their labels, built on one thread (a) and on
 * two (b, profile.threads 4: one per direction): the same plan costs and
 * statuses on random queries. */
static void same_answers(tn_surf *a, tn_surf *b, tn_rng *r, int level)
{
    if (tn_failed(tn_surf_build_shortcuts(a, 8, NULL)) ||
        tn_failed(tn_surf_build_shortcuts(b, 8, NULL)) ||
        tn_failed(tn_surf_build_labels(a, NULL)) || tn_failed(tn_surf_build_labels(b, NULL))) {
        check(0, "shortcuts or labels not built", level);
        return;
    }
    int n = tn_surf_node_count(a);
    for (int q = 0; q < 200 && n > 0; q++) {
        int s = (int)tn_rng_below(r, (uint32_t)n), t = (int)tn_rng_below(r, (uint32_t)n), row, j;
        tn_surf_node_pos(a, t, &row, &j);
        tn_surf_stats sa, sb;
        tn_status ra = tn_surf_find(a, s, j / 6, row - 1, NULL, 0, NULL, &sa, NULL);
        tn_status rb = tn_surf_find(b, s, j / 6, row - 1, NULL, 0, NULL, &sb, NULL);
        if (ra != rb || (tn_succeeded(ra) && sa.frames != sb.frames)) {
            check(0, "a query with labels differs", level);
            return;
        }
    }
}

/* Queries on one graph from NT threads at once, one query object each. */
#define NQ 120
#define NT 4
typedef struct answer {
    tn_status st;
    int frames, legs, end, expanded;
} answer;
typedef struct qjob {
    const tn_surf *g;
    const int (*req)[3];
    const answer *want;
    int wrong;
} qjob;

static void *query_worker(void *arg)
{
    qjob *J = arg;
    tn_surf_query *q = NULL;
    if (tn_failed(tn_surf_query_create(J->g, NULL, &q, NULL))) {
        J->wrong = -1;
        return NULL;
    }
    for (int i = 0; i < NQ; i++) {
        const int *r = J->req[i];
        tn_surf_stats st;
        tn_status s;
        if (i % 2) { /* sliced, 50 nodes a step */
            s = tn_surf_query_begin(q, r[0], r[1], r[2], NULL);
            while (s == TN_IN_PROGRESS) s = tn_surf_query_step(q, 50, NULL, NULL);
            if (tn_succeeded(s)) s = tn_surf_query_end(q, NULL, 0, NULL, &st, NULL);
        } else {
            s = tn_surf_query_find(q, r[0], r[1], r[2], NULL, 0, NULL, &st, NULL);
        }
        const answer *w = &J->want[i];
        if (s != w->st ||
            (tn_succeeded(s) && (st.frames != w->frames || st.legs != w->legs ||
                                 st.end_node != w->end || st.expanded != w->expanded)))
            J->wrong++;
    }
    tn_surf_query_destroy(q);
    return NULL;
}

static void shared_queries(tn_surf *g, tn_rng *r, int level)
{
    static int req[NQ][3];
    static answer want[NQ];
    const int n = tn_surf_node_count(g);
    for (int i = 0; i < NQ && n > 0; i++) {
        int row, j;
        tn_surf_node_pos(g, (int)tn_rng_below(r, (uint32_t)n), &row, &j);
        req[i][0] = (int)tn_rng_below(r, (uint32_t)n), req[i][1] = j / 6, req[i][2] = row - 1;
        tn_surf_stats st;
        want[i].st = tn_surf_find(g, req[i][0], req[i][1], req[i][2], NULL, 0, NULL, &st, NULL);
        want[i].frames = st.frames, want[i].legs = st.legs, want[i].end = st.end_node;
        want[i].expanded = st.expanded;
    }
    pthread_t t[NT];
    qjob J[NT];
    for (int k = 0; k < NT; k++) {
        J[k] = (qjob){g, (const int(*)[3])req, want, 0};
        if (pthread_create(&t[k], NULL, query_worker, &J[k])) J[k].wrong = -2;
    }
    for (int k = 0; k < NT; k++) {
        if (J[k].wrong != -2) pthread_join(t[k], NULL);
        check(J[k].wrong == 0, "a query object's answer differs from tn_surf_find's", level);
    }
}

/* A bot's trips on graph g, planning on a query object of its own (budget
 * 0: whole plans): where each of TRIPS trips ends (x, y, state, plans). */
enum { TRIPS = 4 };
typedef struct botjob {
    const tn_surf *g;
    const tn_map *m;
    int seed, budget;
    float out[TRIPS][4];
    int bad;
} botjob;

/* A random node's tile whose lattice x is on a tile edge (a body placed
 * there stands on it). */
static void node_tile(const tn_surf *g, tn_rng *r, int *x, int *y)
{
    const int n = tn_surf_node_count(g);
    for (int k = 0; k < 1000; k++) {
        int row, j;
        tn_surf_node_pos(g, (int)tn_rng_below(r, (uint32_t)n), &row, &j);
        *x = j / 6, *y = row - 1;
        if (j % 6 == 0) return;
    }
}

static void *bot_worker(void *arg)
{
    botjob *J = arg;
    tn_bot *bot = NULL;
    tn_surf_query *q = NULL;
    if (tn_failed(tn_bot_create(NULL, NULL, &bot, NULL)) ||
        tn_failed(tn_surf_query_create(J->g, NULL, &q, NULL))) {
        J->bad = 1;
        tn_bot_destroy(bot);
        return NULL;
    }
    const tn_surf_profile *pr = tn_surf_get_profile(J->g);
    /* (tn_bot_set_graph takes the graph writable: a bot with a query
     * object only reads it, which this test checks) */
    tn_bot_set_graph(bot, (tn_surf *)J->g);
    tn_bot_set_query(bot, q, J->budget);
    tn_rng r;
    tn_rng_seed(&r, (uint64_t)J->seed, 9);
    for (int t = 0; t < TRIPS; t++) {
        int sx, sy, gx, gy;
        node_tile(J->g, &r, &sx, &sy);
        node_tile(J->g, &r, &gx, &gy);
        tn_body b;
        tn_body_place(&b, &pr->phys, pr->w, pr->h, sx, sy);
        const tn_input none = {0};
        tn_body_step(&b, J->m, &pr->phys, none);
        tn_bot_goto(bot, NULL, J->m, &b, &pr->phys, gx, gy, NULL);
        for (int f = 0; f < 1200 && tn_bot_active(bot); f++)
            tn_body_step(&b, J->m, &pr->phys, tn_bot_step(bot, NULL, J->m, &b, &pr->phys));
        const tn_bot_info i = tn_bot_get_info(bot);
        J->out[t][0] = b.x, J->out[t][1] = b.y, J->out[t][2] = (float)i.state;
        J->out[t][3] = (float)i.plans;
    }
    tn_bot_destroy(bot);
    tn_surf_query_destroy(q);
    return NULL;
}

/* NT bots on threads, then the same on this thread: the same ends. */
static int shared_bots(const tn_surf *g, const tn_map *m, int level)
{
    pthread_t t[NT];
    botjob J[NT], K[NT];
    int arrived = 0;
    for (int k = 0; k < NT; k++) {
        J[k] = (botjob){g, m, 1000 * level + k, k % 2 ? 30 : 0, {{0}}, 0};
        K[k] = J[k];
        if (pthread_create(&t[k], NULL, bot_worker, &J[k])) J[k].bad = 2;
    }
    for (int k = 0; k < NT; k++)
        if (J[k].bad != 2) pthread_join(t[k], NULL);
    for (int k = 0; k < NT; k++) {
        bot_worker(&K[k]);
        check(!J[k].bad && !K[k].bad, "a bot could not be made", level);
        check(memcmp(J[k].out, K[k].out, sizeof J[k].out) == 0,
              "a bot on a thread ended a trip elsewhere than on the main thread", level);
        for (int i = 0; i < TRIPS; i++) arrived += K[k].out[i][2] == (float)TN_BOT_ARRIVED;
    }
    return arrived;
}

int main(void)
{
    int bot_arrivals = 0;
    for (int level = 0; level < 6; level++) {
        tn_rng r;
        tn_rng_seed(&r, 300 + (uint64_t)level, 3);
        tn_map *m = NULL;
        if (tn_failed(tn_map_create(48 + 8 * level, 32, NULL, &m, NULL))) return 1;
        if (level % 2 == 0) {
            tn_levelgen_platformer(m, &r, NULL);
        } else { /* tight: short ledges, blocks and one-way platforms */
            for (int k = 0; k < m->w * m->h / 10; k++) {
                int x = (int)tn_rng_below(&r, (uint32_t)m->w),
                    y = (int)tn_rng_below(&r, (uint32_t)m->h);
                tn_map_set_tile(m, x, y, tn_rng_below(&r, 3) ? TN_TILE_BLOCK : TN_TILE_ONEWAY,
                                NULL);
            }
        }
        tn_phys_params p = tn_phys_default((float)(2 + level));
        tn_surf_profile one = tn_surf_profile_make(1 + level % 2, 2, &p), four = one;
        four.threads = 4;
        tn_surf *a = NULL, *b = NULL;
        if (tn_failed(tn_surf_create(m, &one, NULL, &a, NULL)) ||
            tn_failed(tn_surf_create(m, &four, NULL, &b, NULL)))
            return 1;
        same_graph(a, b, level);
        tn_surf_set_landmarks(a, 4);
        tn_surf_set_landmarks(b, 4);
        same_landmarks(a, b, level);
        for (int k = 0; k < 6; k++) { /* edits, repaired on both */
            int x = (int)tn_rng_below(&r, (uint32_t)m->w),
                y = (int)tn_rng_below(&r, (uint32_t)m->h);
            tn_map_set_tile(m, x, y,
                            tn_map_tile(m, x, y) == TN_TILE_EMPTY ? TN_TILE_BLOCK : TN_TILE_EMPTY,
                            NULL);
            if (tn_failed(tn_surf_edit(a, m, x, y, NULL)) ||
                tn_failed(tn_surf_edit(b, m, x, y, NULL)))
                return 1;
            same_graph(a, b, level);
        }
        int loc;
        tn_surf_repair_counts(b, &loc, NULL);
        check(loc > 0, "no repair was local", level);
        same_landmarks(a, b, level);
        shared_queries(a, &r, level);
        bot_arrivals += shared_bots(a, m, level);
        same_answers(a, b, &r, level);
        shared_queries(a, &r, level); /* with shortcuts and labels */
        tn_surf_destroy(a);
        tn_surf_destroy(b);
        tn_map_destroy(m);
    }
    { /* a big graph (16384+ nodes): the threads' edges gathered by surface */
        tn_rng r;
        tn_rng_seed(&r, 1, 77);
        tn_map *m = NULL;
        if (tn_failed(tn_map_create(224, 224, NULL, &m, NULL))) return 1;
        tn_levelgen_platformer(m, &r, NULL);
        tn_phys_params p = tn_phys_default(4.0f);
        tn_surf_profile one = tn_surf_profile_make(1, 2, &p), four = one;
        four.threads = 4;
        tn_surf *a = NULL, *b = NULL;
        if (tn_failed(tn_surf_create(m, &one, NULL, &a, NULL)) ||
            tn_failed(tn_surf_create(m, &four, NULL, &b, NULL)))
            return 1;
        check(tn_surf_node_count(a) >= 16384, "the big level is not big", 6);
        same_graph(a, b, 6);
        tn_surf_destroy(a);
        tn_surf_destroy(b);
        tn_map_destroy(m);
    }
    check(bot_arrivals > 0, "no bot trip arrived", 0);
    if (fails) return 1;
    printf("surf_threads: 6 levels built and repaired and a 224x224 one built on 4 and on 1 "
           "thread: the same graphs; "
           "landmark tables and labels built on 2 threads and on 1 alike, 1,200 queries; "
           "%d threads x %d queries by their own query objects on one graph, 12 times, "
           "as tn_surf_find; %d bots on threads, whole and sliced plans, %d trips each, 6 "
           "times, as on one thread (%d arrived)\n",
           NT, NQ, NT, TRIPS, bot_arrivals);
    return 0;
}
