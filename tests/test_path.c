/* Tests for tn_path: the jump model, the hand-made maps' exact expectations,
 * partial paths, the post-filter, and the A* against a naive Dijkstra over
 * the same state graph on random small maps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testutil.h"
#include "tu_nav.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_levelgen.h"
#include "tn_path.h"
#include "tn_rng.h"
#include "tn_surf.h"
#include "tn_trace.h"
#include "surf_oracle.h"

/* ---- helpers ------------------------------------------------------------ */

static tn_jump_model model(int height)
{
    tn_phys_params p = tn_phys_default((float)height);
    tn_jump_model jm;
    tn_error err;
    assert_true(tn_succeeded(tn_jump_model_init(&jm, &p, &err)));
    return jm;
}

typedef struct result {
    tn_status status;
    int n;
    tn_path_node node[512];
    tn_path_stats stats;
} result;

static result find(const tn_map *m, int sx, int sy, int gx, int gy, int w, int h, int jump,
                   bool raw)
{
    result r;
    tn_path *pf = NULL;
    tn_error err;
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, NULL, 0, NULL, &pf, &err)));
    tn_jump_model jm = model(jump);
    tn_path_query q = tn_path_query_make(sx, sy, gx, gy, w, h, &jm);
    q.raw = raw;
    r.status = tn_path_find(pf, m, &q, r.node, 512, &r.n, &r.stats, &err);
    tn_path_destroy(pf);
    return r;
}

static result find_marks(const tn_map *m, int w, int h, int jump, bool raw)
{
    int gx = -1, gy = -1;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++)
            if (tn_map_mark(m, x, y) == TN_MARK_DEST) gx = x, gy = y;
    assert_true(gx >= 0 && m->start_x >= 0);
    return find(m, m->start_x, m->start_y, gx, gy, w, h, jump, raw);
}

static bool reached(const result *r) { return r->status == TN_SUCCESS; }

/* Every raw step moves one tile and the box fits everywhere. */
static void check_raw_path(const tn_map *m, const result *r, int w, int h)
{
    for (int i = 0; i < r->n; i++) {
        assert_true(tn_path_box_fits(m, r->node[i].x, r->node[i].y, w, h));
        if (i > 0) {
            int d = abs(r->node[i].x - r->node[i - 1].x) + abs(r->node[i].y - r->node[i - 1].y);
            assert_int_equal(d, 1);
        }
    }
}

/* An exploration (goal TN_PATH_EXPLORE) the limit cuts short says so: SUCCESS |
 * PARTIAL_RESULT | LIMIT_REACHED and a message (it said TN_OK, an
 * incomplete explored set looking whole); without the limit, TN_OK, and
 * it reaches more.  The demo map's reachable set at jump 8 is more than
 * the default limit of 4 states per tile (tn_path.h). */
static void test_explore_limit_said(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("maps/demo.map");
    tn_phys_params p = tn_phys_default(8.0f);
    tn_jump_model jm;
    assert_true(tn_succeeded(tn_jump_model_init(&jm, &p, NULL)));
    tn_path *cut = NULL, *whole = NULL;
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, &p, 0, NULL, &cut, NULL)));
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, &p, INT_MAX, NULL, &whole, NULL)));
    tn_path_query q =
        tn_path_query_make(m->start_x, m->start_y, TN_PATH_EXPLORE, TN_PATH_EXPLORE, 1, 2, &jm);
    tn_path_stats a, b;
    tn_error e;
    tn_status s = tn_path_find(cut, m, &q, NULL, 0, NULL, &a, &e);
    assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_LIMIT_REACHED);
    assert_int_equal(e.status, s);
    assert_non_null(strstr(e.msg, "exploration stopped at its limit of 14400 states"));
    /* the advice names the limit that stopped it: the finder's (a query's
     * larger max_expand is lowered to it), or the query's own */
    assert_non_null(strstr(e.msg, "(raise the finder's limit, tn_path_create's max_expand)"));
    tn_path_query big = q;
    big.max_expand = INT_MAX;
    assert_int_equal(tn_path_find(cut, m, &big, NULL, 0, NULL, NULL, &e), s);
    assert_non_null(strstr(e.msg, "(raise the finder's limit, tn_path_create's max_expand)"));
    big.max_expand = 500;
    assert_int_equal(tn_path_find(cut, m, &big, NULL, 0, NULL, NULL, &e), s);
    assert_non_null(strstr(e.msg, "limit of 500 states"));
    assert_non_null(strstr(e.msg, "(raise the query's max_expand)"));
    assert_int_equal(tn_path_find(whole, m, &q, NULL, 0, NULL, &b, &e), TN_OK);
    assert_string_equal(e.msg, "");
    /* a missing argument is named (it said "path: missing argument") */
    assert_int_equal(tn_path_find(NULL, m, &q, NULL, 0, NULL, NULL, &e),
                     TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "path: no finder (pf) (NULL)");
    tn_path_query nj = q;
    nj.jump = NULL;
    assert_int_equal(tn_path_find(whole, m, &nj, NULL, 0, NULL, NULL, &e),
                     TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "path: no jump model (q->jump) (NULL)");
    /* nodes written with no count to say how many: refused */
    tn_path_node nodes[8];
    assert_int_equal(tn_path_find(whole, m, &q, nodes, 8, NULL, NULL, &e),
                     TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(e.msg, "count is NULL but out is not"));
    print_message("demo map, 1x2, jump 8: %d states reachable (%.2f a tile), the default limit "
                  "%d\n",
                  b.expanded, (double)b.expanded / (m->w * m->h), a.expanded);
    assert_true(b.expanded > a.expanded && a.expanded == 14400);
    tn_path_destroy(cut);
    tn_path_destroy(whole);
    tn_map_destroy(m);
}

/* ---- the jump model ------------------------------------------------------ */

static void test_model_tables(void **state)
{
    (void)state;
    for (int hgt = 1; hgt <= 8; hgt++) {
        tn_jump_model jm = model(hgt);
        assert_int_equal(jm.max_jump, hgt);
        assert_int_equal(jm.fall, 2 * hgt);
        assert_int_equal(jm.njump, jm.fall + 2 * (jm.depth_table + jm.period));
        /* terminal 900 px/s against 160 px/s with the 0.9 slack: 7 tiles */
        assert_int_equal(jm.period, 7);
        assert_true(jm.side_fall[0]);
        /* odd values never move sideways; falling stays below one per tile */
        for (int j = 1; j < jm.njump; j += 2) assert_false(tn_jump_model_side_ok(&jm, j));
        /* no model, or a value before the table (it read side_up[-1]): no
         * (a library user; ASan) */
        assert_false(tn_jump_model_side_ok(NULL, 0));
        assert_false(tn_jump_model_side_ok(NULL, 2));
        assert_false(tn_jump_model_side_ok(&jm, -2));
    }
    /* a non-integer height rounds down: the physics clears 4.9 tiles, not 5 */
    tn_phys_params p = tn_phys_default(4.9f);
    tn_jump_model jm;
    assert_true(tn_succeeded(tn_jump_model_init(&jm, &p, NULL)));
    assert_int_equal(jm.max_jump, 4);
    p.jump_height = 9.0f;
    tn_error err;
    assert_true(tn_failed(tn_jump_model_init(&jm, &p, &err)));
    /* the fall cycle's limit, said as it is: P = ceil(max_fall / (0.9 walk))
     * at most 24; physics tn_phys_validate takes (a reviewer's walk of 41
     * px/s read "more than 24 x the walk speed 41", but 24 x 41 > 900) */
    p = tn_phys_default(8.0f);
    p.walk_speed = 41.0f; /* ceil(900 / 36.9) = 25 */
    assert_true(tn_succeeded(tn_phys_validate(&p, NULL)));
    assert_true(tn_failed(tn_jump_model_init(&jm, &p, &err)));
    if (!strstr(err.msg, "more than 21.6 x the walk speed 41 px/s (885.6 px/s)"))
        fail_msg("%s", err.msg);
    p.walk_speed = 42.0f; /* ceil(900 / 37.8) = 24: fits */
    assert_true(tn_succeeded(tn_jump_model_init(&jm, &p, &err)));
}

/* The model never promises more sideways travel than the physics gives:
 * falling from rest, the sideways moves allowed by depth d stay within the
 * distance a body walking at full speed covers while falling d tiles. */
static void test_model_is_conservative(void **state)
{
    (void)state;
    tn_phys_params p = tn_phys_default(4.0f);
    tn_jump_model jm = model(4);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(2, 200, NULL, &m, NULL)));
    tn_body b;
    tn_body_place(&b, &p, 1, 1, 0, 0);
    float y0 = b.y;
    int allowed = 0, d = 1;
    const tn_input none = {0};
    for (int f = 1; f < 400 && d < 150; f++) {
        tn_body_step(&b, m, &p, none);
        while (d < 150 && b.y - y0 >= 16.0f * (float)d) {
            /* depth d in the model's counter (cycling past D+P) */
            int dd = d;
            while (dd >= jm.depth_table + jm.period) dd -= jm.period;
            if (tn_jump_model_side_ok(&jm, jm.fall + 2 * dd)) allowed++;
            float across = (float)f * p.walk_speed * p.dt / 16.0f;
            assert_true((float)allowed <= across);
            d++;
        }
    }
    tn_map_destroy(m);
}

/* ---- hand-made maps -------------------------------------------------------- */

static void test_ledge_exactly_m(void **state)
{
    (void)state;
    tn_map *m4 = tu_load_map("tests/data/path_ledge4.map");
    tn_map *m5 = tu_load_map("tests/data/path_ledge5.map");
    result r = find_marks(m4, 1, 2, 4, true);
    assert_true(reached(&r));
    check_raw_path(m4, &r, 1, 2);
    /* the jump rises exactly 4 tiles */
    int top = 99;
    for (int i = 0; i < r.n; i++) top = r.node[i].y < top ? r.node[i].y : top;
    assert_int_equal(top, 6);
    r = find_marks(m5, 1, 2, 4, false);
    assert_int_equal(r.status, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
    r = find_marks(m5, 1, 2, 5, false);
    assert_true(reached(&r));
    /* and for every height: a ledge M up is reachable, M+1 is not */
    for (int hgt = 1; hgt <= 8; hgt++) {
        for (int up = hgt; up <= hgt + 1; up++) {
            tn_map *m = NULL;
            assert_true(tn_succeeded(tn_map_create(16, 14, NULL, &m, NULL)));
            for (int x = 0; x < 16; x++) tn_map_set_tile(m, x, 13, TN_TILE_BLOCK, NULL);
            for (int y = 13 - up; y < 13; y++)
                for (int x = 8; x < 16; x++) tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
            for (int w = 1; w <= 3; w++) {
                r = find(m, 2, 12, 9, 12 - up, w, 1, hgt, false);
                if (up == hgt)
                    assert_true(reached(&r));
                else
                    assert_true(tn_status_detail(r.status, TN_UNREACHABLE));
            }
            tn_map_destroy(m);
        }
    }
    tn_map_destroy(m4);
    tn_map_destroy(m5);
}

static void test_gap_width(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_gap.map");
    result r = find_marks(m, 1, 2, 4, true);
    assert_true(reached(&r));
    check_raw_path(m, &r, 1, 2);
    /* the path goes down the hole at x = 9 */
    bool through = false;
    for (int i = 0; i < r.n; i++) through |= r.node[i].x == 9 && r.node[i].y == 5;
    assert_true(through);
    r = find_marks(m, 2, 2, 4, false);
    assert_true(tn_status_detail(r.status, TN_UNREACHABLE));
    r = find_marks(m, 2, 1, 8, false);
    assert_true(tn_status_detail(r.status, TN_UNREACHABLE));
    tn_map_destroy(m);
}

static void test_oneway_up(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_oneway_up.map");
    result r = find_marks(m, 1, 2, 4, true);
    assert_true(reached(&r));
    check_raw_path(m, &r, 1, 2);
    /* the character passes through row 8 going up, then stands on it */
    bool stood = false;
    for (int i = 1; i < r.n; i++) {
        assert_true(r.node[i].y <= r.node[i - 1].y || r.node[i].y == r.node[i - 1].y);
        if (r.node[i].y == 7 && r.node[i].jump == 0) stood = true;
    }
    assert_true(stood);
    /* with jump height 2 the platform (3 up) is out of reach */
    r = find_marks(m, 1, 2, 2, false);
    assert_true(tn_status_detail(r.status, TN_UNREACHABLE));
    /* and as solid blocks it is a wall */
    for (int x = 1; x < 15; x++) tn_map_set_tile(m, x, 8, TN_TILE_BLOCK, NULL);
    r = find_marks(m, 1, 2, 4, false);
    assert_true(tn_status_detail(r.status, TN_UNREACHABLE));
    tn_map_destroy(m);
}

static void test_oneway_drop(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_oneway_drop.map");
    result r = find_marks(m, 1, 2, 4, true);
    assert_true(reached(&r));
    check_raw_path(m, &r, 1, 2);
    /* one step down from a standing node onto the platform row */
    int drops = 0;
    for (int i = 1; i < r.n; i++)
        if (r.node[i - 1].jump == 0 && r.node[i].y == r.node[i - 1].y + 1 && r.node[i - 1].y == 7)
            drops++;
    assert_int_equal(drops, 1);
    /* the filtered path marks the drop as a one-way take-off */
    r = find_marks(m, 1, 2, 4, false);
    bool marked = false;
    for (int i = 0; i < r.n; i++)
        marked |= (r.node[i].flags & TN_NODE_TAKEOFF) && (r.node[i].flags & TN_NODE_ONEWAY);
    assert_true(marked);
    for (int x = 1; x < 15; x++) tn_map_set_tile(m, x, 8, TN_TILE_BLOCK, NULL);
    r = find_marks(m, 1, 2, 4, false);
    assert_true(tn_status_detail(r.status, TN_UNREACHABLE));
    tn_map_destroy(m);
}

static void test_ceiling_cuts_jump(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_ceiling.map");
    tn_jump_model jm = model(4);
    result r = find_marks(m, 1, 2, 4, true);
    assert_true(reached(&r));
    check_raw_path(m, &r, 1, 2);
    /* the jump peaks under the ceiling (row 7) and the ceiling node is
     * already falling: J = F */
    bool at_ceiling = false;
    for (int i = 0; i < r.n; i++) {
        assert_true(r.node[i].y >= 7);
        if (r.node[i].y == 7) {
            assert_true(r.node[i].jump >= jm.fall);
            at_ceiling = true;
        }
    }
    assert_true(at_ceiling);
    /* a 3-wide pit is too wide under the ceiling ... */
    for (int y = 9; y < 20; y++)
        for (int x = 9; x <= 10; x++) tn_map_set_tile(m, x, y, TN_TILE_EMPTY, NULL);
    r = find_marks(m, 1, 2, 4, false);
    assert_true(tn_status_detail(r.status, TN_UNREACHABLE));
    /* ... but not for a full jump once the ceiling is gone */
    for (int x = 0; x < 20; x++) tn_map_set_tile(m, x, 5, TN_TILE_EMPTY, NULL);
    r = find_marks(m, 1, 2, 4, true);
    assert_true(reached(&r));
    int top = 99;
    for (int i = 0; i < r.n; i++) top = r.node[i].y < top ? r.node[i].y : top;
    assert_true(top < 7);
    tn_map_destroy(m);
}

static void test_partial_path(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_partial.map");
    result r = find_marks(m, 1, 2, 4, false);
    assert_int_equal(r.status, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
    assert_true(r.n >= 2);
    /* ends standing beside the box's left wall, level with the destination */
    assert_int_equal(r.stats.end_x, 10);
    assert_int_equal(r.stats.end_y, 8);
    assert_int_equal(r.node[r.n - 1].x, 10);
    assert_int_equal(r.node[r.n - 1].y, 8);
    assert_true(r.node[r.n - 1].flags & TN_NODE_GROUND);

    /* the search limit: a partial path and LIMIT_REACHED */
    tn_path *pf;
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, NULL, 0, NULL, &pf, NULL)));
    tn_jump_model jm = model(4);
    tn_path_query q = tn_path_query_make(3, 8, 18, 8, 1, 2, &jm);
    q.max_expand = 5;
    tn_path_node out[64];
    int n;
    tn_path_stats st;
    tn_error e;
    tn_status s = tn_path_find(pf, m, &q, out, 64, &n, &st, &e);
    assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_LIMIT_REACHED);
    assert_int_equal(e.status, s); /* a partial success says what it left out */
    assert_non_null(strstr(e.msg, "limit of 5 states before goal (18,8)"));
    assert_int_equal(st.expanded, 5);
    assert_true(n >= 1);
    assert_int_equal(out[0].x, 3);
    /* a buffer too small keeps the first nodes and says so */
    q.max_expand = 0;
    q.raw = true;
    s = tn_path_find(pf, m, &q, out, 3, &n, &st, &e);
    assert_true(tn_status_detail(s, TN_BUFFER_TOO_SMALL));
    assert_int_equal(n, 3);
    assert_non_null(strstr(e.msg, "the buffer holds the first 3"));
    /* unreachable: where the path ends */
    tn_path_query u = tn_path_query_make(3, 8, 13, 8, 1, 2, &jm);
    s = tn_path_find(pf, m, &u, out, 64, &n, &st, &e);
    assert_true(tn_status_detail(s, TN_UNREACHABLE));
    assert_non_null(strstr(e.msg, "goal (13,8) is unreachable; the path ends at (10,8)"));
    /* a full success clears the message */
    q.raw = false;
    assert_int_equal(tn_path_find(pf, m, &q, out, 64, &n, &st, &e), TN_SUCCESS);
    assert_int_equal(e.msg[0], '\0');
    assert_true(st.raw_nodes > 3);
    /* no buffer asks for the search alone: a success, not BUFFER_TOO_SMALL
     * (as tn_surf_find; a review found the two disagreeing) */
    n = 9;
    assert_int_equal(tn_path_find(pf, m, &q, NULL, 0, &n, &st, &e), TN_SUCCESS);
    assert_int_equal(n, 0);
    assert_true(st.raw_nodes > 3);
    n = 9; /* whatever the capacity (a second review: cap 64 was refused) */
    assert_int_equal(tn_path_find(pf, m, &q, NULL, 64, &n, &st, &e), TN_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(tn_path_find(pf, m, &q, out, -1, &n, &st, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "path: buffer capacity -1 is negative");
    s = tn_path_find(pf, m, &u, NULL, 0, &n, &st, &e); /* and a partial one stays partial */
    assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE);
    tn_path_destroy(pf);
    tn_map_destroy(m);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_gap.map");
    tn_path *pf;
    tn_error err;
    assert_true(tn_failed(tn_path_create(0, 5, NULL, 0, NULL, &pf, &err)));
    assert_string_equal(err.msg, "path: map size 0x5 is outside 1..4096");
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, NULL, 0, NULL, &pf, &err)));
    tn_jump_model jm = model(4);
    tn_path_node out[8];
    int n;
    tn_path_query q = tn_path_query_make(-1, 3, 14, 10, 1, 2, &jm);
    assert_true(tn_failed(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err)));
    assert_non_null(strstr(err.msg, "outside"));
    /* a goal off the map's left is refused, not taken for an exploration
     * (only the pair TN_PATH_EXPLORE explores): it said TN_OK, no path */
    q = tn_path_query_make(3, 3, -1, 3, 1, 2, &jm);
    assert_int_equal(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err),
                     TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(err.msg, "path: goal (-1,3) is outside the 20x12 map");
    q = tn_path_query_make(3, 3, -3, -1, 1, 2, &jm);
    assert_int_equal(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err),
                     TN_FAILURE | TN_INVALID_PARAM);
    q = tn_path_query_make(0, 4, 14, 10, 1, 2, &jm); /* inside the floor */
    assert_true(tn_failed(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err)));
    assert_non_null(strstr(err.msg, "does not fit"));
    q = tn_path_query_make(3, 3, 14, 10, 4, 2, &jm);
    assert_true(tn_failed(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err)));
    q = tn_path_query_make(3, 3, 14, 10, 1, 2, &jm);
    q.max_expand = -1; /* (above the finder's limit: lowered to it) */
    assert_true(tn_failed(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err)));
    q = tn_path_query_make(3, 3, 14, 10, 1, 2, &jm);
    q.heuristic = 9;
    assert_true(tn_failed(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err)));
    assert_string_equal(err.msg,
                        "path: heuristic 9 is neither TN_PATH_OPTIMAL (0) nor TN_PATH_FAST (1)");
    tn_map *other = NULL;
    assert_true(tn_succeeded(tn_map_create(7, 7, NULL, &other, NULL)));
    q = tn_path_query_make(3, 3, 4, 4, 1, 2, &jm);
    assert_true(tn_failed(tn_path_find(pf, other, &q, out, 8, &n, NULL, &err)));
    assert_non_null(strstr(err.msg, "finder was made"));
    /* a goal inside a block is an error with a message, not a partial path */
    q = tn_path_query_make(3, 3, 0, 4, 1, 2, &jm);
    assert_int_equal(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err),
                     TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(err.msg, "goal (0,4) is blocked"));
    /* a later success clears the stale message; a partial one reads as such */
    q = tn_path_query_make(3, 3, 3, 3, 1, 2, &jm);
    assert_int_equal(tn_path_find(pf, m, &q, out, 8, &n, NULL, &err), TN_SUCCESS);
    assert_string_equal(err.msg, "");
    assert_string_equal(tn_status_str(TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE),
                        "partial result: the nearest reachable point");
    assert_string_equal(tn_status_str(TN_FAILURE | TN_UNREACHABLE), "target unreachable");
    assert_string_equal(tn_status_str(TN_SUCCESS | TN_PARTIAL_RESULT | TN_LIMIT_REACHED),
                        "partial result: search limit reached");
    tn_map_destroy(other);
    tn_path_destroy(pf);
    tn_map_destroy(m);
}

/* A search cut by its limit whose closest state is the start (a goal under
 * the shelf the character stands on: every state it expands is farther)
 * is the partial result the header promises: TN_SUCCESS |
 * TN_PARTIAL_RESULT | TN_LIMIT_REACHED (not UNREACHABLE: the goal may be
 * reachable), the path of the start alone, and a message saying the
 * search stopped at its limit where it began.  (A bot takes this for
 * TN_BOT_NO_PATH, tn_bot.h; the world says the limit was hit.) */
static void test_limit_at_the_start(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(20, 10, NULL, &m, NULL)));
    for (int x = 0; x < 20; x++) tn_map_set_tile(m, x, 9, TN_TILE_BLOCK, NULL);
    for (int x = 0; x < 16; x++) tn_map_set_tile(m, x, 5, TN_TILE_BLOCK, NULL);
    tn_phys_params p = tn_phys_default(3.0f);
    tn_jump_model jm;
    assert_true(tn_succeeded(tn_jump_model_init(&jm, &p, NULL)));
    tn_path *pf = NULL;
    assert_true(tn_succeeded(tn_path_create(20, 10, &p, 0, NULL, &pf, NULL)));
    for (int lim = 1; lim <= 30; lim += 7) {
        tn_path_query q = tn_path_query_make(2, 4, 2, 8, 1, 1, &jm);
        q.max_expand = lim;
        tn_path_node out[8];
        int n = -1;
        tn_path_stats st;
        tn_error err;
        tn_status s = tn_path_find(pf, m, &q, out, 8, &n, &st, &err);
        assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_LIMIT_REACHED);
        assert_int_equal(err.status, s);
        assert_int_equal(n, 1);
        assert_int_equal(st.raw_nodes, 1);
        assert_int_equal(out[0].x, 2);
        assert_int_equal(out[0].y, 4);
        assert_int_equal(st.end_x, 2);
        assert_int_equal(st.end_y, 4);
        char want[160];
        snprintf(want, sizeof want,
                 "path: the search stopped at its limit of %d states before goal (2,8); the path "
                 "ends at (2,4), the closest place expanded",
                 lim);
        assert_string_equal(err.msg, want);
    }
    tn_path_destroy(pf);
    tn_map_destroy(m);
}

/* The filtered path is a subsequence of the raw one that keeps the start,
 * the goal, every take-off, every landing and the apex of each jump. */
static void test_post_filter(void **state)
{
    (void)state;
    const char *maps[] = {"tests/data/path_ledge4.map", "tests/data/path_gap.map",
                          "tests/data/path_oneway_up.map", "tests/data/path_oneway_drop.map",
                          "tests/data/path_ceiling.map"};
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        tn_map *m = tu_load_map(maps[k]);
        result raw = find_marks(m, 1, 2, 4, true);
        result fil = find_marks(m, 1, 2, 4, false);
        assert_true(reached(&raw) && reached(&fil));
        assert_true(fil.n >= 2 && fil.n <= raw.n);
        assert_int_equal(fil.stats.raw_nodes, raw.n);
        int j = 0;
        for (int i = 0; i < raw.n && j < fil.n; i++)
            if (raw.node[i].x == fil.node[j].x && raw.node[i].y == fil.node[j].y &&
                raw.node[i].jump == fil.node[j].jump)
                j++;
        assert_int_equal(j, fil.n);
        assert_int_equal(fil.node[0].x, raw.node[0].x);
        assert_int_equal(fil.node[fil.n - 1].x, raw.node[raw.n - 1].x);
        assert_int_equal(fil.node[fil.n - 1].y, raw.node[raw.n - 1].y);
        for (int i = 1; i + 1 < raw.n; i++) {
            bool g = raw.node[i].jump == 0, gp = raw.node[i - 1].jump == 0,
                 gn = raw.node[i + 1].jump == 0;
            if (!(g && (!gp || !gn))) continue;
            bool kept = false;
            for (int t = 0; t < fil.n; t++)
                kept |= fil.node[t].x == raw.node[i].x && fil.node[t].y == raw.node[i].y;
            assert_true(kept);
        }
        tn_map_destroy(m);
    }
}

/* ---- the naive reference: Dijkstra over the same state graph ------------ */

typedef struct ref {
    const tn_map *m;
    int w, h;
    const tn_jump_model *jm;
    int nj;
    int *cost; /* per state, -1 = unreached */
} ref;

static bool rfits(const ref *r, int x, int y)
{
    for (int yy = y - r->h + 1; yy <= y; yy++)
        for (int xx = x; xx < x + r->w; xx++)
            if (tn_map_tile(r->m, xx, yy) == TN_TILE_BLOCK) return false;
    return true;
}

static bool rground(const ref *r, int x, int y)
{
    for (int xx = x; xx < x + r->w; xx++)
        if (tn_map_tile(r->m, xx, y + 1) != TN_TILE_EMPTY) return true;
    return false;
}

/* The documented rules, written out plainly. */
static int ref_moves(const ref *r, int x, int y, int j, int *nx, int *ny, int *nj, int *cost)
{
    const tn_jump_model *jm = r->jm;
    const int F = jm->fall;
    int k = 0;
    bool g = rground(r, x, y);
    bool ceil_here = !rfits(r, x, y - 1);
    for (int dx = -1; dx <= 1; dx += 2) {
        int X = x + dx;
        if (!rfits(r, X, y)) continue;
        bool ng = rground(r, X, y), nceil = !rfits(r, X, y - 1);
        if (g) {
            nx[k] = X, ny[k] = y, nj[k] = ng ? 0 : F + 1, cost[k] = ng ? 2 : 3, k++;
            continue;
        }
        if (j % 2 == 1) continue;
        bool ok;
        if (j < F) {
            ok = jm->side_up[j / 2];
        } else {
            int d = (j - F) / 2;
            ok = d < jm->depth_table ? jm->side_fall[d] : d == jm->depth_table + jm->period - 1;
        }
        if (!ok) continue;
        if (ng && j >= F + 4) continue;
        if (nceil && j < F) continue;
        if (nceil && ng && !ceil_here) continue;
        nx[k] = X, ny[k] = y, nj[k] = ng ? 0 : j + 1, cost[k] = 3, k++;
    }
    if (j < F && rfits(r, x, y - 1)) {
        int v;
        if (rground(r, x, y - 1))
            v = 0;
        else {
            if (j == 0)
                v = (jm->side_up[1] || F <= 2) ? 2 : 3;
            else
                v = j % 2 ? j + 1 : j + 2;
            if (v > F) v = F;
            if (!rfits(r, x, y - 2)) v = F;
        }
        nx[k] = x, ny[k] = y - 1, nj[k] = v, cost[k] = 3 + (g ? 2 : 0), k++;
    }
    if (rfits(r, x, y + 1)) {
        int v;
        if (rground(r, x, y + 1))
            v = 0;
        else if (j < F)
            v = F + 2;
        else {
            int d = (j - F) / 2 + 1;
            if (d >= jm->depth_table + jm->period) d = jm->depth_table;
            v = F + 2 * d;
        }
        nx[k] = x, ny[k] = y + 1, nj[k] = v, cost[k] = 3 + (g ? 1 : 0), k++;
    }
    return k;
}

/* O(V^2) Dijkstra: no heap, no cleverness. */
static void ref_dijkstra(ref *r, int sx, int sy)
{
    const int W = r->m->w, H = r->m->h, NJ = r->nj;
    int n = W * H * NJ;
    bool *done = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++) r->cost[i] = -1;
    int sj = rground(r, sx, sy) ? 0 : r->jm->fall;
    r->cost[(sy * W + sx) * NJ + sj] = 0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && r->cost[i] >= 0 && (best < 0 || r->cost[i] < r->cost[best])) best = i;
        if (best < 0) break;
        done[best] = true;
        int j = best % NJ, t = best / NJ, x = t % W, y = t / W;
        int nx[4], ny[4], nj[4], c[4];
        int k = ref_moves(r, x, y, j, nx, ny, nj, c);
        for (int i = 0; i < k; i++) {
            int id = (ny[i] * W + nx[i]) * NJ + nj[i];
            int v = r->cost[best] + c[i];
            if (!done[id] && (r->cost[id] < 0 || v < r->cost[id])) r->cost[id] = v;
        }
    }
    free(done);
}

static tn_map *random_map(tn_rng *rng, int W, int H)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(W, H, NULL, &m, NULL)));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t v = tn_rng_below(rng, 100);
            /* more solid near the bottom, some floors */
            int t = v < 22 ? TN_TILE_BLOCK : v < 30 ? TN_TILE_ONEWAY : TN_TILE_EMPTY;
            if (y == H - 1 && v < 70) t = TN_TILE_BLOCK;
            tn_map_set_tile(m, x, y, t, NULL);
        }
    return m;
}

static void test_against_dijkstra(void **state)
{
    (void)state;
    tn_rng rng;
    tn_rng_seed(&rng, 20240607, 3);
    tn_path *pf = NULL;
    const int W = 13, H = 11;
    assert_true(tn_succeeded(tn_path_create(W, H, NULL, 0, NULL, &pf, NULL)));
    int compared = 0, queries = 0;
    for (int iter = 0; iter < 60; iter++) {
        tn_map *m = random_map(&rng, W, H);
        tn_path_invalidate(pf);
        tn_path_invalidate(NULL); /* nothing, no crash */
        int w = 1 + (int)tn_rng_below(&rng, 3), h = 1 + (int)tn_rng_below(&rng, 3);
        int hgt = 1 + (int)tn_rng_below(&rng, 8);
        tn_jump_model jm = model(hgt);
        /* a start where the box fits */
        int sx = -1, sy = -1;
        for (int tries = 0; tries < 500 && sx < 0; tries++) {
            int x = (int)tn_rng_below(&rng, W), y = (int)tn_rng_below(&rng, H);
            if (tn_path_box_fits(m, x, y, w, h)) sx = x, sy = y;
        }
        if (sx < 0) {
            tn_map_destroy(m);
            continue;
        }
        ref r = {m, w, h, &jm, jm.njump, malloc(sizeof(int) * (size_t)(W * H * jm.njump))};
        ref_dijkstra(&r, sx, sy);
        /* explore everything: same reachable set, same costs */
        tn_path_query q = tn_path_query_make(sx, sy, TN_PATH_EXPLORE, TN_PATH_EXPLORE, w, h, &jm);
        tn_path_stats st;
        assert_int_equal(tn_path_find(pf, m, &q, NULL, 0, NULL, &st, NULL), TN_OK);
        int reach = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int j = 0; j < jm.njump; j++) {
                    int c = -1, want = r.cost[(y * W + x) * jm.njump + j];
                    bool got = tn_path_state_cost(pf, x, y, j, &c);
                    assert_int_equal(got, want >= 0);
                    if (got) assert_int_equal(c, want), reach++;
                    compared++;
                }
        assert_int_equal(reach, st.expanded);
        /* A* to every tile: cheapest cost over the jump values, or unreachable */
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int want = -1;
                for (int j = 0; j < jm.njump; j++) {
                    int c = r.cost[(y * W + x) * jm.njump + j];
                    if (c >= 0 && (want < 0 || c < want)) want = c;
                }
                q = tn_path_query_make(sx, sy, x, y, w, h, &jm);
                q.raw = true;
                tn_path_node out[400];
                int n;
                tn_status s = tn_path_find(pf, m, &q, out, 400, &n, &st, NULL);
                queries++;
                if (!tn_path_box_fits(m, x, y, w, h)) { /* a blocked goal is an error */
                    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
                    assert_int_equal(want, -1);
                    continue;
                }
                if (want < 0) {
                    assert_true(tn_status_detail(s, TN_UNREACHABLE));
                    continue;
                }
                assert_int_equal(s, TN_SUCCESS);
                assert_int_equal(st.cost, want);
                assert_int_equal(out[n - 1].x, x);
                assert_int_equal(out[n - 1].y, y);
                /* the path's own steps add up to its cost */
                int sum = 0;
                for (int i = 1; i < n; i++) {
                    int nx[4], ny[4], nj[4], c[4], k;
                    k = ref_moves(&r, out[i - 1].x, out[i - 1].y, out[i - 1].jump, nx, ny, nj, c);
                    int step = -1;
                    for (int t = 0; t < k; t++)
                        if (nx[t] == out[i].x && ny[t] == out[i].y && nj[t] == out[i].jump)
                            step = c[t];
                    assert_true(step > 0);
                    sum += step;
                }
                assert_int_equal(sum, want);
                /* the fast heuristic finds a path whenever one exists */
                q.heuristic = TN_PATH_FAST;
                s = tn_path_find(pf, m, &q, out, 400, &n, &st, NULL);
                assert_int_equal(s, TN_SUCCESS);
                assert_true(st.cost >= want && st.cost <= 3 * want);
            }
        free(r.cost);
        tn_map_destroy(m);
    }
    tn_path_destroy(pf);
    print_message("compared %d states and %d queries with the reference\n", compared, queries);
    assert_true(queries > 1000);
}

/* ---- memory -------------------------------------------------------------- */

/* The memory the header states is what tn_path_create allocates, and the
 * default limit keeps a 256x256 finder under 40 MB. */
static void test_stated_memory(void **state)
{
    (void)state;
    static const int SIZES[4][3] = {{80, 45, 0}, {256, 256, 0}, {17, 3, 0}, {64, 64, 5000}};
    for (int k = 0; k < 4; k++) {
        tu_counting c = {0};
        tn_allocator a = tu_counting_allocator(&c);
        tn_path *pf = NULL;
        assert_true(tn_succeeded(
            tn_path_create(SIZES[k][0], SIZES[k][1], NULL, SIZES[k][2], &a, &pf, NULL)));
        assert_int_equal(c.bytes, tn_path_memory(SIZES[k][0], SIZES[k][1], NULL, SIZES[k][2]));
        tn_path_destroy(pf);
        assert_int_equal(c.frees, c.allocs);
    }
    size_t big = tn_path_memory(256, 256, NULL, 0);
    print_message("256x256 finder: %.1f MB\n", (double)big / 1e6);
    assert_true(big < 40u * 1000u * 1000u);
    /* 4 states a tile by default (at least 4096) */
    tn_path *pf = NULL;
    assert_true(tn_succeeded(tn_path_create(256, 256, NULL, 0, NULL, &pf, NULL)));
    assert_int_equal(tn_path_max_expand(pf), 4 * 256 * 256);
    tn_path_destroy(pf);
    assert_true(tn_succeeded(tn_path_create(10, 10, NULL, 0, NULL, &pf, NULL)));
    assert_int_equal(tn_path_max_expand(pf), 4096);
    tn_path_destroy(pf);
    /* INT_MAX as "no limit" on the largest map (771 million states): the
     * limit is lowered to 2^29 - 2 so that the queue's 4L + 4 entries fit
     * an int (it overflowed to a negative capacity); nothing allocated */
    const int lmax = (INT32_MAX - 4) / 4;
    assert_int_equal(tn_path_memory(4096, 4096, NULL, INT32_MAX),
                     tn_path_memory(4096, 4096, NULL, lmax));
    assert_true(tn_path_memory(4096, 4096, NULL, lmax) >
                tn_path_memory(4096, 4096, NULL, lmax - 1));
    assert_int_equal(tn_path_memory(0, 5, NULL, 0), 0);
}

/* No allocation per query, and the generation counter survives its wrap. */
static void test_no_allocation_and_generation_wrap(void **state)
{
    (void)state;
    tu_counting c = {0};
    tn_allocator a = tu_counting_allocator(&c);
    tn_map *m = tu_load_map("tests/data/path_ledge4.map");
    tn_path *pf;
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, NULL, 0, &a, &pf, NULL)));
    long after_create = c.allocs;
    tn_jump_model jm = model(4);
    tn_path_query q = tn_path_query_make(3, 10, 20, 6, 1, 2, &jm);
    tn_path_node out[64];
    int n, cost0 = -1;
    tn_path_stats st;
    for (int i = 0; i < 70000; i++) {
        q.goal_x = i % 2 ? 20 : 5;
        q.goal_y = i % 2 ? 6 : 10;
        tn_status s = tn_path_find(pf, m, &q, out, 64, &n, &st, NULL);
        assert_int_equal(s, TN_SUCCESS);
        if (i % 2) {
            if (cost0 < 0) cost0 = st.cost;
            assert_int_equal(st.cost, cost0);
        }
    }
    assert_int_equal(c.allocs, after_create);
    tn_path_destroy(pf);
    assert_int_equal(c.frees, c.allocs);
    tn_map_destroy(m);
}

/* Explored-state accessors describe the last search. */
static void test_explored(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_gap.map");
    tn_path *pf;
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, NULL, 0, NULL, &pf, NULL)));
    tn_jump_model jm = model(4);
    tn_path_query q = tn_path_query_make(3, 3, 14, 10, 1, 2, &jm);
    tn_path_stats st;
    int n;
    tn_path_node out[64];
    assert_int_equal(tn_path_find(pf, m, &q, out, 64, &n, &st, NULL), TN_SUCCESS);
    int x0, y0, x1, y1, total = 0;
    assert_true(tn_path_explored_bounds(pf, &x0, &y0, &x1, &y1));
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            int e = tn_path_explored_at(pf, x, y);
            if (e) assert_true(x >= x0 && x <= x1 && y >= y0 && y <= y1);
            total += e;
        }
    assert_int_equal(total, st.expanded);
    assert_true(tn_path_explored_at(pf, 3, 3) > 0);
    assert_int_equal(tn_path_explored_at(pf, 0, 4), 0);
    /* NULL output pointers give the answer alone (they wrote through
     * them: a crash asking only whether a state was expanded or whether
     * anything was; a library user) */
    assert_true(tn_path_explored_bounds(pf, NULL, NULL, NULL, NULL));
    int y0b = -1, cost = -1;
    assert_true(tn_path_explored_bounds(pf, NULL, &y0b, NULL, NULL));
    assert_int_equal(y0b, y0);
    assert_true(tn_path_state_cost(pf, 3, 3, 0, &cost));
    assert_int_equal(cost, 0);
    assert_true(tn_path_state_cost(pf, 3, 3, 0, NULL));
    assert_false(tn_path_state_cost(pf, 0, 4, 0, NULL));
    tn_path_destroy(pf);
    tn_map_destroy(m);
}

/* NULL where tn_path_invalidate and tn_path_find take it: the last-search
 * accessors with no finder and the box helpers with no map were
 * dereferenced. */
static void test_null_arguments(void **state)
{
    (void)state;
    int x0 = 7, y0 = 7, x1 = 7, y1 = 7, cost = 7;
    assert_int_equal(tn_path_explored_at(NULL, 0, 0), 0);
    assert_false(tn_path_explored_bounds(NULL, &x0, &y0, &x1, &y1));
    assert_false(tn_path_state_cost(NULL, 0, 0, 0, &cost));
    assert_true(x0 == 7 && y0 == 7 && x1 == 7 && y1 == 7 && cost == 7);
    assert_false(tn_path_box_fits(NULL, 3, 3, 1, 2));
    assert_false(tn_path_box_ground(NULL, 3, 3, 1));
    /* with a map they answer from it */
    tn_map *m = tu_load_map("tests/data/path_gap.map");
    assert_true(tn_path_box_fits(m, 3, 3, 1, 2));
    assert_false(tn_path_box_fits(m, 0, 6, 1, 2)); /* the left wall */
    tn_map_destroy(m);
}

/* A box of no width or height "fitted" anywhere, a tile inside a block
 * too (reviewer's p19: w = 0 and w = -3 at a block): the loops over its
 * tiles ran zero times.  An empty box fits nowhere now. */
static void test_box_fits_empty_box(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_gap.map");
    assert_int_equal(tn_map_tile(m, 2, 4), TN_TILE_BLOCK);
    assert_false(tn_path_box_fits(m, 2, 4, 1, 1));
    const int bad[][2] = {{0, 2}, {-3, 2}, {1, 0}, {1, -1}, {0, 0}, {INT_MIN, 2}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_false(tn_path_box_fits(m, 2, 4, bad[k][0], bad[k][1])); /* in the floor */
        assert_false(tn_path_box_fits(m, 3, 3, bad[k][0], bad[k][1])); /* in the open */
    }
    assert_true(tn_path_box_fits(m, 3, 3, 1, 2));
    assert_true(tn_path_box_fits(m, 3, 3, 3, 3));
    assert_false(tn_path_box_ground(m, 3, 3, 0));
    assert_true(tn_path_box_ground(m, 3, 3, 1));
    tn_map_destroy(m);
}

/* A query's max_expand above the finder's limit failed ("max_expand
 * 2147483647 is outside 0..4096", reviewer's p15) though tn_path_create
 * takes INT_MAX as "no limit" and tn_bot lowers its own to the finder's.
 * It is lowered to the finder's limit now: the same answer as 0. */
static void test_max_expand_above_limit(void **state)
{
    (void)state;
    tn_map *m = tu_load_map("tests/data/path_gap.map");
    tn_jump_model jm = model(4);
    tn_path *pf;
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, NULL, 10, NULL, &pf, NULL)));
    assert_int_equal(tn_path_max_expand(pf), 10);
    tn_path_query q = tn_path_query_make(3, 3, 14, 10, 1, 2, &jm);
    const int asks[] = {0, 10, 11, 4096, INT_MAX}; /* the goal: 19 states */
    for (size_t k = 0; k < sizeof asks / sizeof asks[0]; k++) {
        q.max_expand = asks[k];
        tn_path_node out[64];
        int n = -1;
        tn_path_stats st;
        tn_error e;
        tn_status s = tn_path_find(pf, m, &q, out, 64, &n, &st, &e);
        assert_int_equal(s, TN_SUCCESS | TN_PARTIAL_RESULT | TN_LIMIT_REACHED);
        assert_int_equal(st.expanded, 10);
        assert_non_null(strstr(e.msg, "limit of 10 states"));
        assert_true(n >= 1);
    }
    q.max_expand = 5; /* below the finder's: the query's own */
    tn_path_stats st;
    int n;
    assert_int_equal(tn_path_find(pf, m, &q, NULL, 0, &n, &st, NULL),
                     TN_SUCCESS | TN_PARTIAL_RESULT | TN_LIMIT_REACHED);
    assert_int_equal(st.expanded, 5);
    tn_error e;
    q.max_expand = -1; /* negative: still refused */
    assert_int_equal(tn_path_find(pf, m, &q, NULL, 0, &n, &st, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(e.msg, "max_expand -1 is negative"));
    tn_path_destroy(pf);
    /* the default finder: INT_MAX finds the path 0 finds */
    assert_true(tn_succeeded(tn_path_create(m->w, m->h, NULL, 0, NULL, &pf, NULL)));
    tn_path_node a[64], b[64];
    int na, nb;
    q.max_expand = 0;
    assert_int_equal(tn_path_find(pf, m, &q, a, 64, &na, NULL, NULL), TN_SUCCESS);
    q.max_expand = INT_MAX;
    assert_int_equal(tn_path_find(pf, m, &q, b, 64, &nb, NULL, NULL), TN_SUCCESS);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, (size_t)na * sizeof a[0]);
    tn_path_destroy(pf);
    tn_map_destroy(m);
}

/* ---- tile size ------------------------------------------------------------ */

/* The 16-px defaults with every pixel quantity multiplied by k. */
static tn_phys_params scaled_phys(float jump, float k)
{
    tn_phys_params p = tn_phys_default(jump);
    return tn_phys_scaled(&p, k);
}

static bool random_standing(const tn_map *m, tn_rng *r, int w, int h, int *x, int *y)
{
    for (int i = 0; i < 4000; i++) {
        *x = (int)tn_rng_below(r, (uint32_t)m->w);
        *y = (int)tn_rng_below(r, (uint32_t)m->h);
        if (tn_path_box_fits(m, *x, *y, w, h) && tn_path_box_ground(m, *x, *y, w)) return true;
    }
    return false;
}

/* The jump model is in tiles: the same tables at 8, 16 and 32 px per tile
 * (the physics it simulates is exactly scale-invariant), and so the same
 * paths, on the hand-made maps and on generated levels. */
static void test_tile_size_same_paths(void **state)
{
    (void)state;
    const float ks[] = {0.5f, 2.0f};
    for (int hgt = 1; hgt <= 8; hgt++) {
        tn_jump_model a = model(hgt);
        for (int i = 0; i < 2; i++) {
            tn_phys_params p = scaled_phys((float)hgt, ks[i]);
            tn_jump_model b;
            memset(&b, 0xab, sizeof b);
            assert_true(tn_succeeded(tn_jump_model_init(&b, &p, NULL)));
            assert_memory_equal(&a, &b, sizeof a);
        }
    }
    const char *maps[] = {"tests/data/path_ledge4.map",      "tests/data/path_ledge5.map",
                          "tests/data/path_gap.map",         "tests/data/path_oneway_up.map",
                          "tests/data/path_oneway_drop.map", "tests/data/path_ceiling.map",
                          "tests/data/path_partial.map"};
    tn_map *gen = NULL;
    assert_true(tn_succeeded(tn_map_create(32, 20, NULL, &gen, NULL)));
    int compared = 0, found = 0;
    for (int mi = 0; mi < 7 + 12; mi++) {
        tn_map *m = mi < 7 ? tu_load_map(maps[mi]) : gen;
        tn_rng r;
        tn_rng_seed(&r, 1313, (uint64_t)mi);
        if (mi >= 7) tn_levelgen_platformer(gen, &r, NULL);
        const int jump = 2 + mi % 5, w = 1 + mi % 2, h = 1 + mi % 3;
        tn_phys_params p16 = tn_phys_default((float)jump), p32 = scaled_phys((float)jump, 2.0f);
        tn_path *f16, *f32;
        assert_true(tn_succeeded(tn_path_create(m->w, m->h, &p16, 0, NULL, &f16, NULL)));
        assert_true(tn_succeeded(tn_path_create(m->w, m->h, &p32, 0, NULL, &f32, NULL)));
        assert_int_equal(tn_path_memory(m->w, m->h, &p16, 0), tn_path_memory(m->w, m->h, &p32, 0));
        tn_jump_model j16, j32;
        assert_true(tn_succeeded(tn_jump_model_init(&j16, &p16, NULL)));
        assert_true(tn_succeeded(tn_jump_model_init(&j32, &p32, NULL)));
        for (int t = 0; t < 40; t++) {
            int sx, sy, gx, gy;
            if (!random_standing(m, &r, w, h, &sx, &sy) || !random_standing(m, &r, w, h, &gx, &gy))
                continue;
            static result a, b;
            tn_path_query q16 = tn_path_query_make(sx, sy, gx, gy, w, h, &j16);
            tn_path_query q32 = tn_path_query_make(sx, sy, gx, gy, w, h, &j32);
            q16.raw = q32.raw = (t & 1) != 0;
            a.status = tn_path_find(f16, m, &q16, a.node, 512, &a.n, &a.stats, NULL);
            b.status = tn_path_find(f32, m, &q32, b.node, 512, &b.n, &b.stats, NULL);
            assert_int_equal(a.status, b.status);
            assert_int_equal(a.n, b.n);
            assert_int_equal(a.stats.cost, b.stats.cost);
            assert_int_equal(a.stats.expanded, b.stats.expanded);
            assert_memory_equal(a.node, b.node, sizeof a.node[0] * (size_t)a.n);
            compared++;
            found += a.status == TN_SUCCESS && a.n > 1;
        }
        tn_path_destroy(f16);
        tn_path_destroy(f32);
        if (mi < 7) tn_map_destroy(m);
    }
    tn_map_destroy(gen);
    print_message("tile size: %d paths compared, %d found\n", compared, found);
    assert_true(compared >= 100);
    assert_true(found >= 30);
}

/* A tile size outside 4..256 is refused with a message by the model and the
 * finder. */
static void test_tile_size_refused(void **state)
{
    (void)state;
    tn_phys_params p = tn_phys_default(4.0f);
    p.tile_px = 2.0f;
    tn_jump_model jm;
    tn_error err;
    tn_status s = tn_jump_model_init(&jm, &p, &err);
    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(err.msg, "phys: tile_px 2 is outside 4..256 pixels per tile");
    tn_path *pf = NULL;
    p.tile_px = 300.0f;
    s = tn_path_create(10, 10, &p, 0, NULL, &pf, &err);
    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
    assert_null(pf);
    assert_string_equal(err.msg, "phys: tile_px 300 is outside 4..256 pixels per tile");
    assert_int_equal(tn_path_memory(10, 10, &p, 0), 0);
}

/* tn_levelgen_platformer refuses NULL with a message (it crashed), and
 * tn_rng_below(0) answers 0 instead of dividing by zero. */
static void test_levelgen_null(void **state)
{
    (void)state;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(32, 16, NULL, &m, NULL)));
    tn_rng r;
    tn_rng_seed(&r, 1, 1);
    tn_error e;
    tn_status s = tn_levelgen_platformer(NULL, &r, &e);
    assert_true(tn_failed(s) && tn_status_detail(s, TN_INVALID_PARAM));
    assert_string_equal(e.msg, "levelgen: no map (NULL)");
    s = tn_levelgen_platformer(m, NULL, &e);
    assert_string_equal(e.msg, "levelgen: no rng (NULL)");
    assert_true(tn_succeeded(tn_levelgen_platformer(m, &r, &e)));
    assert_int_equal(tn_rng_below(&r, 0), 0);
    tn_map_destroy(m);
}

/* tn_jump_model_init with no model or no physics: INVALID_PARAM with a
 * message (it dereferenced both). */
static void test_jump_model_null(void **state)
{
    (void)state;
    tn_error e;
    tn_jump_model jm;
    tn_phys_params p = tn_phys_default(4.0f);
    assert_int_equal(tn_jump_model_init(NULL, &p, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(e.msg, "no model"));
    assert_int_equal(tn_jump_model_init(&jm, NULL, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_non_null(strstr(e.msg, "no physics"));
    assert_int_equal(tn_jump_model_init(&jm, &p, &e), TN_OK);
}

/* tn_path_max_expand and tn_path_set_trace dereferenced a NULL finder
 * (a segfault), where their siblings (tn_path_invalidate, _explored_at,
 * tn_navquery_set_trace, tn_bot_set_clock) take NULL as nothing. */
static void test_finder_null_accessors(void **state)
{
    (void)state;
    assert_int_equal(tn_path_max_expand(NULL), 0);
    tn_trace t;
    tn_trace_event ev[4];
    tn_trace_init(&t, ev, 4);
    tn_path_set_trace(NULL, &t);
    tn_path_set_trace(NULL, NULL);
    assert_int_equal(t.count, 0);
}

/* The jump model's rise simulation stopped at 600 steps, so physics that
 * validate accepted (gravity 1 px/s^2) got an M below the documented
 * floor(jump_height + 1/32).  Such physics are refused now; a rise just
 * inside TN_PHYS_RISE_STEPS_MAX gets the documented M. */
static void test_jump_model_slow_rise(void **state)
{
    (void)state;
    tn_error e;
    tn_jump_model jm;
    for (int h = 1; h <= 8; h++) {
        tn_phys_params p = tn_phys_default((float)h);
        const double rise = (TN_PHYS_RISE_STEPS_MAX - 5) * (double)p.dt;
        p.gravity = (float)(2.0 * (h * 16.0 + 0.5) / (rise * rise));
        assert_int_equal(tn_jump_model_init(&jm, &p, &e), TN_OK);
        assert_int_equal(jm.max_jump, h);
        p.gravity = 0.1f; /* 1090 steps at jump 1 */
        assert_int_equal(tn_jump_model_init(&jm, &p, &e), TN_FAILURE | TN_INVALID_PARAM);
        assert_non_null(strstr(e.msg, "rises"));
    }
}

/* tn_path.h, REACHABILITY AND JUMP HEIGHT: the model's reach is not
 * monotonic in M.  Two 16x12 levels (tn_levelgen_platformer) where a 1x2
 * body's goal is found at a height and not at the next one up, while the
 * physics (the brute-force oracle, surf_oracle.h) and the graph planner
 * reach it at every height: the model knows only the full jump.
 * A: a hop's apex under a ceiling: with M = 1 the tile beside the apex is
 *    entered at the apex; with M = 2 it is on the way up, and a rising
 *    character does not enter a tile with a ceiling sideways.
 * B: the sideways budget low in the rise: M = 4 allows a sideways move at
 *    level 1, M = 5 (a faster rise) none (side_up[1]). */
static void test_reach_not_monotonic_in_jump(void **state)
{
    (void)state;
    (void)or_fastest; /* (surf_oracle.h's other entry, unused here) */
    static const struct {
        const char *tiles;
        int sx, sy, gx, gy;
        const char *found; /* classic planner, M = 1..8 */
    } lv[2] = {{"....#...........\n"
                "....#...........\n"
                "....#...........\n"
                "....#===........\n"
                "====#...#####...\n"
                "====#===...##...\n"
                "========...##...\n"
                "...........##...\n"
                "...........##...\n"
                "####.######..###\n"
                "####.######..###\n"
                "####.######..###\n",
                5, 2, 0, 8, "10111111"},
               {"................\n"
                "............##..\n"
                "........######..\n"
                "....##.####.##..\n"
                "....##.#######..\n"
                "....##......##..\n"
                ".===##===...##..\n"
                "....##......##..\n"
                "....##.......###\n"
                "######.##....###\n"
                "######.##....###\n"
                "######.##....###\n",
                7, 8, 8, 1, "00110111"}};
    for (int k = 0; k < 2; k++) {
        char text[512];
        snprintf(text, sizeof text, "tilenav-map 1\nsize 16 12\ntiles\n%s", lv[k].tiles);
        tn_map *m = tu_map_text(text);
        tn_path *pf = NULL;
        assert_true(tn_succeeded(tn_path_create(16, 12, NULL, INT_MAX, NULL, &pf, NULL)));
        for (int j = 1; j <= 8; j++) {
            tn_phys_params p = tn_phys_default((float)j);
            tn_jump_model jm;
            assert_true(tn_succeeded(tn_jump_model_init(&jm, &p, NULL)));
            tn_path_query q = tn_path_query_make(lv[k].sx, lv[k].sy, lv[k].gx, lv[k].gy, 1, 2, &jm);
            tn_status s = tn_path_find(pf, m, &q, NULL, 0, NULL, NULL, NULL);
            bool found = tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT);
            if (found != (lv[k].found[j - 1] == '1'))
                fail_msg("level %c, jump %d: classic planner %s", 'A' + k, j,
                         found ? "found" : "missed");
            if (found || j == 1 || lv[k].found[j - 2] == '0') continue;
            /* a miss after a find: the physics does reach it, and so does
             * the graph planner */
            or_result R;
            or_run(m, 1, 2, &p, &R);
            int a = -1, b = -1;
            for (int i = 0; i < R.ntiles; i++) {
                if (R.tile_x[i] == lv[k].sx && R.tile_y[i] == lv[k].sy) a = i;
                if (R.tile_x[i] == lv[k].gx && R.tile_y[i] == lv[k].gy) b = i;
            }
            assert_true(a >= 0 && b >= 0);
            if (!R.reach[a * R.ntiles + b]) fail_msg("level %c, jump %d: oracle", 'A' + k, j);
            or_result_free(&R);
            tn_surf_profile prof = tn_surf_profile_make(1, 2, &p);
            tn_surf *g = NULL;
            assert_true(tn_succeeded(tn_surf_create(m, &prof, NULL, &g, NULL)));
            int start = tn_surf_node_at(g, lv[k].sy + 1, lv[k].sx * 6);
            assert_true(start >= 0);
            s = tn_surf_find(g, start, lv[k].gx, lv[k].gy, NULL, 0, NULL, NULL, NULL);
            assert_true(tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT));
            tn_surf_destroy(g);
        }
        tn_path_destroy(pf);
        tn_map_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levelgen_null),
        cmocka_unit_test(test_model_tables),
        cmocka_unit_test(test_explore_limit_said),
        cmocka_unit_test(test_model_is_conservative),
        cmocka_unit_test(test_ledge_exactly_m),
        cmocka_unit_test(test_gap_width),
        cmocka_unit_test(test_oneway_up),
        cmocka_unit_test(test_oneway_drop),
        cmocka_unit_test(test_ceiling_cuts_jump),
        cmocka_unit_test(test_partial_path),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_limit_at_the_start),
        cmocka_unit_test(test_post_filter),
        cmocka_unit_test(test_against_dijkstra),
        cmocka_unit_test(test_no_allocation_and_generation_wrap),
        cmocka_unit_test(test_stated_memory),
        cmocka_unit_test(test_explored),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_box_fits_empty_box),
        cmocka_unit_test(test_max_expand_above_limit),
        cmocka_unit_test(test_tile_size_same_paths),
        cmocka_unit_test(test_tile_size_refused),
        cmocka_unit_test(test_jump_model_null),
        cmocka_unit_test(test_finder_null_accessors),
        cmocka_unit_test(test_jump_model_slow_rise),
        cmocka_unit_test(test_reach_not_monotonic_in_jump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
