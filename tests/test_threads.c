/* Thread safety as the headers state it: one tn_map and one tn_flow shared
 * read-only by several threads, one tn_path per thread.  Every thread's
 * answers must equal the single-threaded ones.  Run in the normal suites
 * and, by `make tsan` (part of `make test`), under ThreadSanitizer, which
 * fails the run on any data race. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <string.h>

#include "tn_flow.h"
#include "tn_levelgen.h"
#include "tn_map.h"
#include "tn_path.h"
#include "tn_rng.h"

enum { NTHREADS = 4, NQ = 48 };

typedef struct shared {
    const tn_map *map;
    const tn_flow *flow;
    tn_jump_model jm;
    int q[NQ][4]; /* start x, y, goal x, y (standing tiles) */
} shared;

typedef struct answer {
    tn_status status[NQ];
    int cost[NQ], n[NQ];
    double flow_sum; /* sum of the field's distances and exits */
    long flow_dirs;
    int ok; /* creation worked */
} answer;

typedef struct job {
    const shared *sh;
    answer out;
} job;

static bool standing(const tn_map *m, int x, int y)
{
    return tn_path_box_fits(m, x, y, 1, 2) && tn_path_box_ground(m, x, y, 1);
}

/* What one thread computes: every query with its own finder, then a walk
 * over the whole shared field. */
static void work(const shared *sh, answer *a)
{
    memset(a, 0, sizeof *a);
    tn_path *pf = NULL;
    if (tn_failed(tn_path_create(sh->map->w, sh->map->h, NULL, 0, NULL, &pf, NULL))) return;
    for (int i = 0; i < NQ; i++) {
        tn_path_query q =
            tn_path_query_make(sh->q[i][0], sh->q[i][1], sh->q[i][2], sh->q[i][3], 1, 2, &sh->jm);
        tn_path_node out[256];
        tn_path_stats st;
        a->status[i] = tn_path_find(pf, sh->map, &q, out, 256, &a->n[i], &st, NULL);
        a->cost[i] = st.cost;
    }
    tn_path_destroy(pf);
    for (int y = 0; y < sh->flow->h; y++)
        for (int x = 0; x < sh->flow->w; x++) {
            float ex, ey;
            a->flow_sum += tn_flow_dist(sh->flow, x, y);
            if (tn_flow_exit(sh->flow, x, y, &ex, &ey)) a->flow_sum += ex + 0.5 * ey;
            a->flow_dirs += tn_flow_dir(sh->flow, x, y);
        }
    a->ok = 1;
}

static void *thread_main(void *arg)
{
    job *j = arg;
    work(j->sh, &j->out);
    return NULL;
}

static void test_shared_map_and_field(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(96, 48, NULL, &m, NULL)));
    tn_rng r;
    tn_rng_seed(&r, 2026, 13);
    tn_error e;
    assert_true(tn_succeeded(tn_levelgen_platformer(m, &r, &e)));
    /* a few destinations for the field */
    for (int k = 0, placed = 0; placed < 3 && k < 10000; k++) {
        int x = (int)tn_rng_below(&r, (uint32_t)m->w), y = (int)tn_rng_below(&r, (uint32_t)m->h);
        if (tn_succeeded(tn_map_set_mark(m, x, y, TN_MARK_DEST, NULL))) placed++;
    }
    tn_flow *f = NULL;
    assert_true(tn_succeeded(tn_flow_create(m->w, m->h, 4, NULL, &f, NULL)));
    assert_true(tn_succeeded(tn_flow_rebuild(f, m, NULL)));

    shared sh = {.map = m, .flow = f};
    tn_phys_params p = tn_phys_default(4.0f);
    assert_true(tn_succeeded(tn_jump_model_init(&sh.jm, &p, NULL)));
    int stand[96 * 48][2], ns = 0;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++)
            if (standing(m, x, y)) stand[ns][0] = x, stand[ns][1] = y, ns++;
    assert_true(ns > 10);
    for (int i = 0; i < NQ; i++) {
        int a = (int)tn_rng_below(&r, (uint32_t)ns), b = (int)tn_rng_below(&r, (uint32_t)ns);
        sh.q[i][0] = stand[a][0];
        sh.q[i][1] = stand[a][1];
        sh.q[i][2] = stand[b][0];
        sh.q[i][3] = stand[b][1];
    }

    answer ref;
    work(&sh, &ref);
    assert_true(ref.ok);
    int found = 0;
    for (int i = 0; i < NQ; i++) found += ref.status[i] == TN_SUCCESS;
    assert_true(found > 0);

    job jobs[NTHREADS];
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        jobs[t].sh = &sh;
        assert_int_equal(pthread_create(&th[t], NULL, thread_main, &jobs[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++) assert_int_equal(pthread_join(th[t], NULL), 0);
    for (int t = 0; t < NTHREADS; t++) {
        const answer *a = &jobs[t].out;
        assert_true(a->ok);
        assert_memory_equal(a->status, ref.status, sizeof ref.status);
        assert_memory_equal(a->cost, ref.cost, sizeof ref.cost);
        assert_memory_equal(a->n, ref.n, sizeof ref.n);
        assert_true(a->flow_sum == ref.flow_sum);
        assert_int_equal(a->flow_dirs, ref.flow_dirs);
    }
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_map_and_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
