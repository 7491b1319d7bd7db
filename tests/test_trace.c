/* Tests for tn_trace.h and the searches that record into it (tn_path,
 * tn_navquery): the record is checked against the searches' own statistics
 * and against the rules every A* obeys (a node is expanded only after it
 * was opened with the same cost, never twice; with a consistent key the
 * expansion keys never decrease), and recording never changes a result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_navmesh.h"
#include "tn_path.h"
#include "tn_rng.h"
#include "tn_trace.h"

#define CAP 200000

static tn_trace_event *buf;

static int setup(void **state)
{
    (void)state;
    buf = malloc(sizeof *buf * CAP);
    return buf ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(buf);
    return 0;
}

static void test_record_basics(void **state)
{
    (void)state;
    tn_trace_event ev[3];
    tn_trace t;
    tn_trace_init(&t, ev, 3);
    for (int i = 0; i < 5; i++) tn_trace_record(&t, TN_TRACE_OPEN, (float)i, 2, i, 1, 2);
    assert_int_equal(t.count, 3);
    assert_int_equal(t.dropped, 2);
    assert_true(ev[2].x == 2.0f && ev[2].id == 2 && ev[2].kind == TN_TRACE_OPEN);
    tn_trace_reset(&t);
    assert_int_equal(t.count, 0);
    assert_int_equal(t.dropped, 0);
    tn_trace_init(&t, NULL, 10); /* no buffer: everything is dropped, nothing written */
    tn_trace_record(&t, TN_TRACE_CLOSE, 0, 0, 0, 0, 0);
    assert_int_equal(t.count, 0);
    assert_int_equal(t.dropped, 1);
}

/* Standing tiles of a 1x2 character. */
static bool standing(const tn_map *m, int x, int y)
{
    return tn_path_box_fits(m, x, y, 1, 2) && tn_path_box_ground(m, x, y, 1);
}

/* Index of state (x, y, j) in a W x H x 64 table. */
static size_t sidx(const tn_map *m, int x, int y, int j)
{
    return ((size_t)j * (size_t)m->h + (size_t)y) * (size_t)m->w + (size_t)x;
}

static void check_path_trace(const tn_path *pf, const tn_map *m, const tn_trace *t,
                             const tn_path_stats *st, tn_status s, bool consistent, int sx, int sy)
{
    assert_int_equal(t->dropped, 0);
    assert_true(t->count > 0);
    assert_int_equal(t->ev[0].kind, TN_TRACE_OPEN);
    assert_true(t->ev[0].x == (float)sx && t->ev[0].y == (float)sy && t->ev[0].g == 0.0f);
    size_t n = (size_t)m->w * m->h * 64;
    float *open_g = malloc(n * sizeof *open_g);
    uint8_t *closed = calloc(n, 1);
    int *per_tile = calloc((size_t)m->w * m->h, sizeof *per_tile);
    assert_non_null(open_g);
    for (size_t i = 0; i < n; i++) open_g[i] = -1;
    int closes = 0, goals = 0;
    float last_f = -1;
    for (int i = 0; i < t->count; i++) {
        const tn_trace_event *e = &t->ev[i];
        int x = (int)e->x, y = (int)e->y;
        assert_true(tn_map_inside(m, x, y) && e->id >= 0 && e->id < 64);
        size_t k = sidx(m, x, y, e->id);
        if (e->kind == TN_TRACE_OPEN) {
            assert_false(closed[k]); /* a closed state is never opened again */
            open_g[k] = e->g;
            continue;
        }
        assert_false(goals); /* nothing after the goal */
        /* expanded with the cost it was last opened with, and only once */
        assert_true(open_g[k] == e->g);
        assert_false(closed[k]);
        closed[k] = 1;
        per_tile[y * m->w + x]++;
        if (consistent) assert_true(e->f >= last_f);
        last_f = e->f;
        if (e->kind == TN_TRACE_CLOSE)
            closes++;
        else
            goals++;
    }
    assert_int_equal(closes + goals, st->expanded); /* the goal counts as expanded */
    assert_int_equal(goals, s == TN_SUCCESS ? 1 : 0);
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++)
            assert_int_equal(per_tile[y * m->w + x], tn_path_explored_at(pf, x, y));
    free(open_g);
    free(closed);
    free(per_tile);
}

static void test_path_trace(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("maps/demo.map");
    tn_phys_params p = tn_phys_default(4.0f);
    tn_jump_model jm;
    tn_error err;
    assert_true(tn_succeeded(tn_jump_model_init(&jm, &p, &err)));
    tn_path *pf, *ref;
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, &p, 0, NULL, &pf, &err)));
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, &p, 0, NULL, &ref, &err)));
    tn_trace t;
    tn_trace_init(&t, buf, CAP);
    tn_rng r;
    tn_rng_seed(&r, 7, 1);
    int found = 0, partial = 0;
    for (int q = 0; q < 60; q++) {
        int sx, sy, gx, gy;
        do {
            sx = (int)tn_rng_below(&r, (uint32_t)m->w);
            sy = (int)tn_rng_below(&r, (uint32_t)m->h);
        } while (!standing(m, sx, sy));
        do {
            gx = (int)tn_rng_below(&r, (uint32_t)m->w);
            gy = (int)tn_rng_below(&r, (uint32_t)m->h);
        } while (!standing(m, gx, gy));
        for (int h = 0; h < 2; h++) {
            tn_path_query qu = tn_path_query_make(sx, sy, gx, gy, 1, 2, &jm);
            qu.heuristic = h ? TN_PATH_FAST : TN_PATH_OPTIMAL;
            tn_path_node a[256], b[256];
            int na = 0, nb = 0;
            tn_path_stats sa, sb;
            tn_trace_reset(&t);
            tn_path_set_trace(pf, &t);
            tn_status s1 = tn_path_find(pf, m, &qu, a, 256, &na, &sa, NULL);
            tn_path_set_trace(pf, NULL);
            tn_status s2 = tn_path_find(ref, m, &qu, b, 256, &nb, &sb, NULL);
            /* recording changes nothing */
            assert_int_equal(s1, s2);
            assert_int_equal(na, nb);
            assert_int_equal(sa.expanded, sb.expanded);
            assert_int_equal(sa.cost, sb.cost);
            assert_memory_equal(a, b, (size_t)na * sizeof a[0]);
            /* pathmax keeps the keys of both heuristics from decreasing */
            check_path_trace(pf, m, &t, &sa, s1, true, sx, sy);
            if (s1 == TN_SUCCESS)
                found++;
            else
                partial++;
            /* the finder keeps no trace after set_trace(NULL) */
            int before = t.count;
            tn_path_find(pf, m, &qu, a, 256, &na, &sa, NULL);
            assert_int_equal(t.count, before);
        }
    }
    assert_true(found > 40); /* both kinds of search were seen */
    (void)partial;
    /* a full buffer keeps the first events and counts the rest */
    tn_trace small;
    tn_trace_init(&small, buf, 100);
    int sx = 0, sy = 0;
    for (int y = m->h - 1; y >= 0 && !sx; y--)
        for (int x = 0; x < m->w && !sx; x++)
            if (standing(m, x, y)) sx = x, sy = y;
    int gx = m->w - 2, gy = 1;
    while (!tn_path_box_fits(m, gx, gy, 1, 2)) gy++; /* a goal the character fits in */
    tn_path_query qu = tn_path_query_make(sx, sy, gx, gy, 1, 2, &jm);
    tn_path_set_trace(pf, &small);
    tn_path_stats st;
    int n;
    tn_path_find(pf, m, &qu, NULL, 0, &n, &st, NULL);
    tn_path_set_trace(pf, NULL);
    assert_int_equal(small.count, 100);
    assert_true(small.dropped > 0);
    assert_true(small.count + small.dropped >= st.expanded);
    tn_path_destroy(pf);
    tn_path_destroy(ref);
    tn_map_destroy(m);
}

static void test_navmesh_trace(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("maps/demo.map");
    tn_error err;
    tn_navmesh *nm = NULL;
    tn_navmesh_create(m->w, m->h, NULL, NULL, &nm, &err);
    assert_non_null(nm);
    assert_true(tn_succeeded(tn_navmesh_build(nm, m, &err)));
    tn_navquery *q = NULL;
    tn_navquery_create(nm, NULL, &q, &err);
    tn_navquery *ref = NULL;
    tn_navquery_create(nm, NULL, &ref, &err);
    assert_non_null(q);
    assert_non_null(ref);
    tn_navmesh_view v;
    tn_navmesh_get_view(nm, &v);
    tn_trace t;
    tn_trace_init(&t, buf, CAP);
    tn_rng r;
    tn_rng_seed(&r, 11, 2);
    int searched = 0;
    uint8_t *opened = malloc((size_t)v.ntris);
    for (int k = 0; k < 80; k++) {
        float pts[4];
        for (int i = 0; i < 2; i++) {
            int x, y;
            do {
                x = (int)tn_rng_below(&r, (uint32_t)m->w);
                y = (int)tn_rng_below(&r, (uint32_t)m->h);
            } while (tn_map_tile(m, x, y) == TN_TILE_BLOCK);
            pts[2 * i] = (float)x + 0.5f;
            pts[2 * i + 1] = (float)y + 0.5f;
        }
        float radius = k % 2 ? 0.0f : 0.3f;
        float a[512], b[512];
        int na = 0, nb = 0;
        tn_trace_reset(&t);
        tn_navquery_set_trace(q, &t);
        tn_status s1 =
            tn_navquery_find_path(q, pts[0], pts[1], pts[2], pts[3], radius, a, 256, &na, NULL);
        tn_navquery_set_trace(q, NULL);
        tn_status s2 =
            tn_navquery_find_path(ref, pts[0], pts[1], pts[2], pts[3], radius, b, 256, &nb, NULL);
        assert_int_equal(s1, s2);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, (size_t)(2 * na) * sizeof a[0]);
        assert_int_equal(t.dropped, 0);
        int closes = 0, goals = 0;
        memset(opened, 0, (size_t)v.ntris);
        for (int i = 0; i < t.count; i++) {
            const tn_trace_event *e = &t.ev[i];
            if (radius > 0.0f) {
                /* the radius search records tangent points (id -1), each
                 * within the map; a close always follows some open */
                assert_int_equal(e->id, -1);
                assert_true(e->x >= 0.0f && e->x <= (float)v.map_w + 1e-3f);
                assert_true(e->y >= 0.0f && e->y <= (float)v.map_h + 1e-3f);
                if (e->kind == TN_TRACE_OPEN) {
                    opened[0] = 1;
                    continue;
                }
                assert_false(goals);
                assert_true(opened[0]);
                if (e->kind == TN_TRACE_CLOSE)
                    closes++;
                else
                    goals++;
                continue;
            }
            assert_true(e->id >= 0 && e->id < v.ntris);
            assert_true(v.region[e->id] >= 0); /* only free triangles are searched */
            if (e->kind == TN_TRACE_OPEN) {
                opened[e->id] = 1;
                continue;
            }
            assert_false(goals);
            assert_true(opened[e->id]); /* expanded only after being opened */
            if (e->kind == TN_TRACE_CLOSE)
                closes++;
            else
                goals++;
        }
        assert_int_equal(closes, tn_navquery_expanded(q));
        if (t.count) {
            searched++;
            /* the goal is popped exactly when a path was found */
            assert_int_equal(goals, tn_succeeded(s1) ? 1 : 0);
        }
    }
    assert_true(searched > 40);
    free(opened);
    tn_navquery_destroy(q);
    tn_navquery_destroy(ref);
    tn_navmesh_destroy(nm);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_basics),
        cmocka_unit_test(test_path_trace),
        cmocka_unit_test(test_navmesh_trace),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
