/* Tests for tn_flow: distances, directions, incremental updates, what-if,
 * and the 8-connected mode against every Moving AI scenario optimum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_flow.h"
#include "tn_map.h"
#include "tn_rng.h"
#include "tn_scen.h"
#include "tu_nav.h"

#define MAI_DIR "../shared/data/movingai/"

static tn_flow *flow_for(const tn_map *m, int conn)
{
    tn_flow *f = NULL;
    tn_error e = {0};
    assert_true(tn_succeeded(tn_flow_create(m->w, m->h, conn, NULL, &f, &e)));
    assert_true(tn_succeeded(tn_flow_rebuild(f, m, NULL)));
    return f;
}

/* ---- naive reference: Bellman-Ford over (straight, diagonal) pairs ---- */

typedef struct ref {
    int w, h;
    int *s, *g; /* -1 = no path / wall */
    int *dir;
} ref;

static bool ref_open(const tn_map *m, int x, int y)
{
    return tn_map_tile(m, x, y) != TN_TILE_BLOCK;
}

static bool ref_edge(const tn_map *m, int x, int y, int j)
{
    int nx = x + tn_dir_dx[j], ny = y + tn_dir_dy[j];
    if (!ref_open(m, nx, ny)) return false;
    return j < 4 || (ref_open(m, nx, y) && ref_open(m, x, ny));
}

static double rv(int s, int g) { return s < 0 ? INFINITY : s + g * 1.41421356237309504880; }

static void ref_build(ref *r, const tn_map *m, int conn)
{
    r->w = m->w;
    r->h = m->h;
    int n = m->w * m->h;
    r->s = malloc(sizeof(int) * (size_t)n);
    r->g = malloc(sizeof(int) * (size_t)n);
    r->dir = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        bool dest = m->tile[i] == TN_TILE_EMPTY && m->mark[i] == TN_MARK_DEST;
        r->s[i] = dest ? 0 : -1;
        r->g[i] = 0;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int y = 0; y < m->h; y++)
            for (int x = 0; x < m->w; x++) {
                int i = y * m->w + x;
                if (!ref_open(m, x, y)) continue;
                for (int j = 0; j < conn; j++) {
                    if (!ref_edge(m, x, y, j)) continue;
                    int k = (y + tn_dir_dy[j]) * m->w + x + tn_dir_dx[j];
                    if (r->s[k] < 0) continue;
                    int cs = r->s[k] + (j < 4), cg = r->g[k] + (j >= 4);
                    if (rv(cs, cg) < rv(r->s[i], r->g[i])) {
                        r->s[i] = cs;
                        r->g[i] = cg;
                        changed = true;
                    }
                }
            }
    }
    /* Directions: the header's rule, written out independently. */
    static const int even[8] = {TN_DIR_N,  TN_DIR_S,  TN_DIR_E,  TN_DIR_W,
                                TN_DIR_NE, TN_DIR_NW, TN_DIR_SE, TN_DIR_SW};
    static const int odd[8] = {TN_DIR_W,  TN_DIR_E,  TN_DIR_S,  TN_DIR_N,
                               TN_DIR_SW, TN_DIR_SE, TN_DIR_NW, TN_DIR_NE};
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            int i = y * m->w + x;
            if (!ref_open(m, x, y) || r->s[i] < 0) {
                r->dir[i] = TN_DIR_NONE;
                continue;
            }
            if (m->tile[i] == TN_TILE_EMPTY && m->mark[i] == TN_MARK_DEST) {
                r->dir[i] = TN_DIR_HERE;
                continue;
            }
            /* argmin of (neighbour distance + step), ties in order; exact:
             * the minimum is the tile's own (straight, diagonal) pair. */
            const int *ord = (x + y) & 1 ? odd : even;
            int bj = TN_DIR_NONE;
            for (int k = 0; k < conn && bj == TN_DIR_NONE; k++) {
                int j = ord[k];
                if (!ref_edge(m, x, y, j)) continue;
                int q = (y + tn_dir_dy[j]) * m->w + x + tn_dir_dx[j];
                if (r->s[q] >= 0 && r->s[q] + (j < 4) == r->s[i] && r->g[q] + (j >= 4) == r->g[i])
                    bj = j;
            }
            r->dir[i] = bj;
        }
}

static void ref_free(ref *r)
{
    free(r->s);
    free(r->g);
    free(r->dir);
}

/* The flow field equals the naive reference, tile for tile. */
static void expect_equal_ref(const tn_flow *f, const tn_map *m)
{
    ref r;
    ref_build(&r, m, f->connectivity);
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            int i = y * m->w + x, s = -1, g = -1;
            bool has = tn_flow_steps(f, x, y, &s, &g);
            if (has != (r.s[i] >= 0) || (has && (s != r.s[i] || g != r.g[i])) ||
                tn_flow_dir(f, x, y) != r.dir[i]) {
                fprintf(stderr, "tile (%d,%d): flow %d (%d,%d) dir %d, reference (%d,%d) dir %d\n",
                        x, y, has, s, g, tn_flow_dir(f, x, y), r.s[i], r.g[i], r.dir[i]);
                fail();
            }
        }
    ref_free(&r);
}

/* Two fields are identical where it matters (distances and directions). */
static void expect_same(const tn_flow *a, const tn_flow *b)
{
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            int sa = -1, ga = -1, sb = -1, gb = -1;
            bool ha = tn_flow_steps(a, x, y, &sa, &ga), hb = tn_flow_steps(b, x, y, &sb, &gb);
            if (ha != hb || (ha && (sa != sb || ga != gb)) ||
                tn_flow_dir(a, x, y) != tn_flow_dir(b, x, y)) {
                fprintf(stderr,
                        "tile (%d,%d): incremental %d (%d,%d) dir %d, rebuild %d (%d,%d) dir %d\n",
                        x, y, ha, sa, ga, tn_flow_dir(a, x, y), hb, sb, gb, tn_flow_dir(b, x, y));
                fail();
            }
        }
}

/* ---- tests ---- */

static void test_hand_board(void **state)
{
    (void)state;
    tn_map *m = tu_map_file("tests/data/flow_basic.map");
    tn_flow *f = flow_for(m, 4);
    static const struct {
        int x, y;
        double d;
    } E[] = {
        {0, 7, 0},   {0, 6, 1},
        {1, 7, 1},   {1, 1, 7},
        {0, 0, 7},   {6, 0, 13},
        {6, 2, 11},  {6, 3, 12},
        {6, 4, 13},  {5, 4, 14} /* one-way: crossed */,
        {3, 4, 16},  {3, 5, 17},
        {3, 7, 19},  {4, 6, 17},
        {11, 7, 25}, {11, 3, 17},
        {9, 1, 21},  {2, 3, -1} /* wall */,
    };
    for (size_t k = 0; k < sizeof E / sizeof E[0]; k++) {
        if (tn_flow_dist(f, E[k].x, E[k].y) != E[k].d)
            fprintf(stderr, "(%d,%d): %g, expected %g\n", E[k].x, E[k].y,
                    tn_flow_dist(f, E[k].x, E[k].y), E[k].d);
        assert_true(tn_flow_dist(f, E[k].x, E[k].y) == E[k].d);
    }
    assert_int_equal(tn_flow_dir(f, 0, 7), TN_DIR_HERE);
    assert_int_equal(tn_flow_dir(f, 2, 3), TN_DIR_NONE);
    assert_int_equal(tn_flow_dir(f, -1, 0), TN_DIR_NONE);
    assert_true(tn_flow_dist(f, 12, 0) == -1.0);
    /* (5,4) leaves east (its only way), (6,4) north. */
    assert_int_equal(tn_flow_dir(f, 5, 4), TN_DIR_E);
    assert_int_equal(tn_flow_dir(f, 6, 4), TN_DIR_N);
    float ex, ey;
    assert_true(tn_flow_exit(f, 6, 4, &ex, &ey));
    assert_true(ex == 6.5f && ey == 4.0f);
    assert_false(tn_flow_exit(f, 0, 7, &ex, &ey));
    assert_true(ex == 0.5f && ey == 7.5f);
    /* Following the field from every open tile reaches D in dist steps. */
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            double d = tn_flow_dist(f, x, y);
            if (d < 0) continue;
            int cx = x, cy = y, steps = 0;
            while (tn_flow_dir(f, cx, cy) != TN_DIR_HERE) {
                int j = tn_flow_dir(f, cx, cy);
                assert_true(j < 4);
                cx += tn_dir_dx[j];
                cy += tn_dir_dy[j];
                assert_true(tn_map_tile(m, cx, cy) != TN_TILE_BLOCK);
                steps++;
                assert_true(steps <= 1000);
            }
            assert_int_equal(steps, (int)d);
        }
    expect_equal_ref(f, m);
    tn_flow_destroy(f);
    f = flow_for(m, 8);
    expect_equal_ref(f, m);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

static void test_no_destination_and_cutoff(void **state)
{
    (void)state;
    tn_map *m = tu_map_file("tests/data/flow_cutoff.map");
    tn_flow *f = flow_for(m, 4);
    assert_true(tn_flow_dist(f, 7, 2) == -1.0); /* the closed room */
    assert_int_equal(tn_flow_dir(f, 7, 2), TN_DIR_NONE);
    assert_true(tn_flow_dist(f, 1, 1) == 5.0);
    /* Two destinations: the nearer one wins. */
    assert_true(tn_flow_dist(f, 9, 4) == 1.0);
    assert_true(tn_flow_dist(f, 4, 5) == 4.0);
    expect_equal_ref(f, m);
    tn_flow_destroy(f);
    /* No destination: every tile has no path. */
    tn_map *e = tu_map_text("tilenav-map 1\nsize 4 3\ntiles\n....\n.#..\n....\n");
    f = flow_for(e, 4);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) assert_true(tn_flow_dist(f, x, y) == -1.0);
    tn_flow_destroy(f);
    tn_map_destroy(e);
    tn_map_destroy(m);
}

/* The alternating neighbour order turns a diagonal route into an even
 * staircase: on an open board every step alternates N and W. */
static void test_staircase(void **state)
{
    (void)state;
    char text[512] = "tilenav-map 1\nsize 9 9\ntiles\n";
    for (int y = 0; y < 9; y++) strcat(text, y == 0 ? "D........\n" : ".........\n");
    tn_map *m = tu_map_text(text);
    tn_flow *f = flow_for(m, 4);
    int x = 8, y = 8, prev = -1, steps = 0;
    while (tn_flow_dir(f, x, y) != TN_DIR_HERE) {
        int j = tn_flow_dir(f, x, y);
        assert_true(j == TN_DIR_N || j == TN_DIR_W);
        if (prev >= 0) assert_int_not_equal(j, prev); /* never two alike */
        prev = j;
        x += tn_dir_dx[j];
        y += tn_dir_dy[j];
        steps++;
    }
    assert_int_equal(steps, 16);
    /* And from a tile off the diagonal: alternate until aligned, then straight. */
    x = 8;
    y = 2;
    int runs = 0;
    prev = -1;
    while (tn_flow_dir(f, x, y) != TN_DIR_HERE) {
        int j = tn_flow_dir(f, x, y);
        if (j != prev) runs++;
        prev = j;
        x += tn_dir_dx[j];
        y += tn_dir_dy[j];
    }
    assert_int_equal(runs, 4); /* N W N, then one straight W run */
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

/* A random board: blocks with probability pb, a few destinations. */
static tn_map *random_board(tn_rng *r, int w, int h, float pb, int ndest)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    for (int i = 0; i < w * h; i++) {
        float u = tn_rng_float(r);
        m->tile[i] = u < pb ? TN_TILE_BLOCK : (u < pb + 0.05f ? TN_TILE_ONEWAY : TN_TILE_EMPTY);
    }
    for (int k = 0; k < ndest; k++) {
        int i = (int)tn_rng_below(r, (uint32_t)(w * h));
        m->tile[i] = TN_TILE_EMPTY;
        m->mark[i] = TN_MARK_DEST;
    }
    return m;
}

/* One random single-tile edit on map m: a block toggle, a destination
 * toggle, or a one-way toggle. */
static void random_edit(tn_rng *r, tn_map *m, int *ex, int *ey)
{
    int x = (int)tn_rng_below(r, (uint32_t)m->w), y = (int)tn_rng_below(r, (uint32_t)m->h);
    int i = y * m->w + x;
    switch (tn_rng_below(r, 3)) {
    case 0:
        tn_map_set_tile(m, x, y, m->tile[i] == TN_TILE_BLOCK ? TN_TILE_EMPTY : TN_TILE_BLOCK, NULL);
        break;
    case 1:
        if (m->tile[i] != TN_TILE_EMPTY) tn_map_set_tile(m, x, y, TN_TILE_EMPTY, NULL);
        m->mark[i] = m->mark[i] == TN_MARK_DEST ? TN_MARK_NONE : TN_MARK_DEST;
        break;
    default:
        tn_map_set_tile(m, x, y, m->tile[i] == TN_TILE_ONEWAY ? TN_TILE_EMPTY : TN_TILE_ONEWAY,
                        NULL);
        break;
    }
    *ex = x;
    *ey = y;
}

static void run_random_edits(int conn, int w, int h, float pb, int ndest, int nedits, uint64_t seed,
                             bool check_ref)
{
    tn_rng r;
    tn_rng_seed(&r, seed, 7);
    tn_map *m = random_board(&r, w, h, pb, ndest);
    tn_flow *inc = flow_for(m, conn), *full = flow_for(m, conn);
    int partial = 0;
    for (int e = 0; e < nedits; e++) {
        int x, y;
        random_edit(&r, m, &x, &y);
        assert_true(tn_succeeded(tn_flow_update(inc, m, x, y, NULL)));
        if (!inc->last_full) partial++;
        if (e % 5 == 0) { /* a point query between edits leaves the field's queue clean */
            double d;
            tn_flow_distance(inc, x, y, (int)tn_rng_below(&r, (uint32_t)w),
                             (int)tn_rng_below(&r, (uint32_t)h), &d, NULL);
        }
        assert_true(tn_succeeded(tn_flow_rebuild(full, m, NULL)));
        expect_same(inc, full);
        if (check_ref && e % 7 == 0) expect_equal_ref(inc, m);
    }
    /* Most single edits stay local (no fallback to a full rebuild). */
    assert_true(partial > nedits / 2);
    tn_flow_destroy(inc);
    tn_flow_destroy(full);
    tn_map_destroy(m);
}

static void test_incremental_equals_rebuild_4(void **state)
{
    (void)state;
    run_random_edits(4, 23, 17, 0.25f, 2, 600, 1, true);
    run_random_edits(4, 64, 48, 0.30f, 4, 400, 2, false);
    run_random_edits(4, 40, 40, 0.05f, 1, 300, 3, true);
    run_random_edits(4, 1, 30, 0.10f, 1, 200, 4, true);
}

/* The 4-connected rebuild works on 8x8 blocks of bits: boards whose sides
 * are not multiples of 8, dense boards whose fronts wind (a block reached
 * over many levels), and a serpentine corridor whose blocks are crossed
 * again hundreds of levels later, all against the naive reference; then a
 * second rebuild of the same field on another board gives the same. */
static void test_rebuild_blocks(void **state)
{
    (void)state;
    static const struct {
        int w, h;
        float pb;
        int ndest;
    } B[] = {
        {1, 1, 0.0f, 1},  {7, 9, 0.2f, 1},     {9, 7, 0.2f, 2},      {17, 33, 0.3f, 3},
        {64, 8, 0.1f, 1}, {130, 70, 0.38f, 3}, {100, 101, 0.42f, 5}, {31, 200, 0.25f, 0},
    };
    tn_rng r;
    tn_rng_seed(&r, 5, 5);
    for (size_t k = 0; k < sizeof B / sizeof B[0]; k++) {
        tn_map *m = random_board(&r, B[k].w, B[k].h, B[k].pb, B[k].ndest);
        tn_flow *f = flow_for(m, 4);
        expect_equal_ref(f, m);
        /* The same object rebuilt for another board, then this one again. */
        tn_map *o = random_board(&r, B[k].w, B[k].h, 0.1f, 2);
        assert_true(tn_succeeded(tn_flow_rebuild(f, o, NULL)));
        expect_equal_ref(f, o);
        assert_true(tn_succeeded(tn_flow_rebuild(f, m, NULL)));
        expect_equal_ref(f, m);
        tn_flow_destroy(f);
        tn_map_destroy(o);
        tn_map_destroy(m);
    }
    /* A serpentine: rows of wall with a gap at alternating ends; the one
     * destination at the top left. */
    const int w = 45, h = 61;
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    for (int y = 1; y < h; y += 2)
        for (int x = 0; x < w; x++)
            if (x != ((y / 2) % 2 ? 0 : w - 1)) m->tile[y * w + x] = TN_TILE_BLOCK;
    m->mark[0] = TN_MARK_DEST;
    tn_flow *f = flow_for(m, 4);
    expect_equal_ref(f, m);
    assert_true(tn_flow_dist(f, 0, h - 1) == (double)((w - 1) * ((h - 1) / 2) + h - 1));
    tn_flow_destroy(f);
    tn_map_destroy(m);
    /* Open rooms joined by a serpentine, a second destination inside it:
     * the search goes on tile by tile once the front has been thin for a
     * while, also through the second room. */
    const int W = 90, H = 50;
    assert_true(tn_succeeded(tn_map_create(W, H, NULL, &m, NULL)));
    for (int y = 0; y < H; y++)
        for (int x = 30; x < 60; x++)
            if (y % 2 == 1 && x != ((y / 2) % 2 ? 30 : 59)) m->tile[y * W + x] = TN_TILE_BLOCK;
    for (int y = 0; y < H; y++) {
        if (y != 0) m->tile[y * W + 29] = TN_TILE_BLOCK;
        if (y != H - 1) m->tile[y * W + 60] = TN_TILE_BLOCK;
    }
    for (int i = 0; i < W * H; i++)
        if (m->tile[i] == TN_TILE_EMPTY && (i * 7919) % 13 == 0 && (i % W < 29 || i % W > 60))
            m->tile[i] = TN_TILE_BLOCK;
    m->tile[5 * W + 5] = TN_TILE_EMPTY;
    m->mark[5 * W + 5] = TN_MARK_DEST;
    m->mark[20 * W + 44] = TN_MARK_DEST;
    f = flow_for(m, 4);
    expect_equal_ref(f, m);
    double far = 0; /* the second room is reached through the serpentine */
    for (int i = 0; i < W * H; i++)
        if (i % W > 60) far = fmax(far, tn_flow_dist(f, i % W, i / W));
    assert_true(far > 300.0);
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

static void test_incremental_equals_rebuild_8(void **state)
{
    (void)state;
    run_random_edits(8, 23, 17, 0.25f, 2, 600, 11, true);
    run_random_edits(8, 64, 48, 0.30f, 4, 400, 12, false);
    run_random_edits(8, 40, 40, 0.05f, 1, 300, 13, true);
}

/* what-if == apply the edit and look. */
static void test_whatif(void **state)
{
    (void)state;
    for (int conn = 4; conn <= 8; conn += 4) {
        tn_rng r;
        tn_rng_seed(&r, 99 + (uint64_t)conn, 1);
        tn_map *m = random_board(&r, 30, 20, 0.35f, 2);
        tn_flow *f = flow_for(m, conn);
        int n = m->w * m->h;
        int32_t *all = malloc(sizeof(int32_t) * (size_t)n);
        for (int i = 0; i < n; i++) all[i] = i;
        for (int e = 0; e < 400; e++) {
            int x = (int)tn_rng_below(&r, (uint32_t)m->w),
                y = (int)tn_rng_below(&r, (uint32_t)m->h);
            int kind = (int)tn_rng_below(&r, 3);
            int first = -7;
            int lost = -1;
            assert_true(tn_succeeded(tn_flow_whatif(f, x, y, kind, all, n, &lost, &first, NULL)));
            assert_true(lost >= 0);
            /* Apply it to a copy and count. */
            tn_flow *g = NULL;
            assert_true(tn_succeeded(tn_flow_create(m->w, m->h, conn, NULL, &g, NULL)));
            assert_true(tn_succeeded(tn_flow_rebuild(g, m, NULL)));
            assert_true(tn_succeeded(tn_flow_set_kind(g, x, y, kind, NULL)));
            int expect = 0, efirst = -1;
            for (int i = 0; i < n; i++) {
                int tx = i % m->w, ty = i / m->w;
                if (tx == x && ty == y) continue;
                if (tn_flow_dist(f, tx, ty) >= 0 && tn_flow_dist(g, tx, ty) < 0) {
                    if (expect == 0) efirst = i;
                    expect++;
                }
            }
            assert_int_equal(lost, expect);
            assert_int_equal(first, efirst);
            tn_flow_destroy(g);
            /* The field itself is unchanged by a what-if. */
            if (e % 50 == 0) expect_equal_ref(f, m);
            /* Sometimes really apply a (harmless) edit to vary the board. */
            if (lost == 0 && e % 3 == 0) {
                int i = y * m->w + x;
                if (kind == TN_FLOW_WALL)
                    tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
                else {
                    tn_map_set_tile(m, x, y, TN_TILE_EMPTY, NULL);
                    m->mark[i] = kind == TN_FLOW_DEST ? TN_MARK_DEST : TN_MARK_NONE;
                }
                assert_true(tn_succeeded(tn_flow_update(f, m, x, y, NULL)));
            }
        }
        free(all);
        tn_flow_destroy(f);
        tn_map_destroy(m);
    }
}

/* tn_flow_distance against an independent answer: the distance field of a
 * copy of the board whose only destination is the goal; both connectivities,
 * random boards, unreachable pairs included. */
static void test_point_distance(void **state)
{
    (void)state;
    for (int conn = 4; conn <= 8; conn += 4) {
        tn_rng r;
        tn_rng_seed(&r, 11, (uint64_t)conn);
        for (int b = 0; b < 6; b++) {
            int w = 5 + (int)tn_rng_below(&r, 30), h = 3 + (int)tn_rng_below(&r, 20);
            tn_map *m = random_board(&r, w, h, 0.3f, 2);
            tn_flow *f = flow_for(m, conn);
            tn_map *one = NULL;
            assert_true(tn_succeeded(tn_map_clone(m, &one, NULL)));
            memset(one->mark, TN_MARK_NONE, (size_t)w * (size_t)h);
            tn_flow *ref = flow_for(one, conn);
            int reached = 0, cut = 0;
            for (int q = 0; q < 40; q++) {
                int sx = (int)tn_rng_below(&r, (uint32_t)w),
                    sy = (int)tn_rng_below(&r, (uint32_t)h);
                int gx = (int)tn_rng_below(&r, (uint32_t)w),
                    gy = (int)tn_rng_below(&r, (uint32_t)h);
                tn_error e = {.msg = "stale"};
                double d = 0;
                tn_status s = tn_flow_distance(f, sx, sy, gx, gy, &d, &e);
                if (m->tile[sy * w + sx] == TN_TILE_BLOCK ||
                    m->tile[gy * w + gx] == TN_TILE_BLOCK) {
                    assert_true(tn_failed(s) && tn_status_detail(s, TN_INVALID_PARAM));
                    assert_non_null(strstr(e.msg, "is a wall"));
                    continue;
                }
                assert_true(tn_succeeded(tn_flow_set_kind(ref, gx, gy, TN_FLOW_DEST, NULL)));
                double want = tn_flow_dist(ref, sx, sy);
                assert_true(tn_succeeded(tn_flow_set_kind(ref, gx, gy, TN_FLOW_OPEN, NULL)));
                if (want < 0) {
                    assert_true(tn_failed(s) && tn_status_detail(s, TN_UNREACHABLE));
                    assert_non_null(strstr(e.msg, "no path"));
                    cut++;
                } else {
                    assert_true(tn_succeeded(s));
                    assert_string_equal(e.msg, "");
                    assert_true(fabs(d - want) < 1e-9);
                    reached++;
                }
            }
            assert_true(reached > 0);
            (void)cut;
            /* The field itself is untouched by the queries. */
            tn_flow *fresh = flow_for(m, conn);
            expect_same(f, fresh);
            tn_flow_destroy(fresh);
            tn_flow_destroy(ref);
            tn_flow_destroy(f);
            tn_map_destroy(one);
            tn_map_destroy(m);
        }
    }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    tn_flow *f = NULL;
    tn_error e = {0};
    assert_true(tn_failed(tn_flow_create(0, 5, 4, NULL, &f, &e)));
    assert_null(f);
    assert_non_null(strstr(e.msg, "outside"));
    assert_true(tn_failed(tn_flow_create(5, 5, 6, NULL, &f, &e)));
    assert_non_null(strstr(e.msg, "connectivity"));
    assert_true(tn_succeeded(tn_flow_create(5, 5, 4, NULL, &f, &e)));
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(6, 5, NULL, &m, NULL)));
    assert_true(tn_failed(tn_flow_rebuild(f, m, &e))); /* wrong size */
    assert_string_equal(e.msg, "flow: the map is 6x5 but the field was made for 5x5");
    assert_true(tn_failed(tn_flow_set_kind(f, 5, 0, TN_FLOW_OPEN, &e)));
    assert_string_equal(e.msg, "flow: tile (5,0) is outside the 5x5 board");
    assert_true(tn_failed(tn_flow_set_kind(f, 0, 0, 7, &e)));
    assert_non_null(strstr(e.msg, "unknown kind 7"));
    assert_true(tn_succeeded(tn_flow_set_kind(f, 0, 0, TN_FLOW_OPEN, &e)));
    assert_int_equal(e.msg[0], '\0'); /* a success clears the stale message */
    assert_int_equal(e.status, TN_OK);
    int lost = 0;
    assert_true(tn_failed(tn_flow_whatif(f, -1, 0, TN_FLOW_WALL, NULL, 0, &lost, NULL, &e)));
    assert_non_null(strstr(e.msg, "(-1,0) is outside"));
    assert_true(tn_failed(tn_flow_whatif(f, 0, 0, TN_FLOW_WALL, NULL, 3, &lost, NULL, &e)));
    const int32_t listed[3] = {1, 25, 2}; /* (25: past the 5x5 board) */
    assert_true(tn_failed(tn_flow_whatif(f, 0, 0, TN_FLOW_WALL, listed, 3, &lost, NULL, &e)));
    assert_string_equal(e.msg, "flow: what-if tile 1 of the list is 25, outside 0..24 (y*w+x)");
    const int32_t below[1] = {-1};
    assert_true(tn_failed(tn_flow_whatif(f, 0, 0, TN_FLOW_WALL, below, 1, &lost, NULL, &e)));
    double d = 0;
    assert_true(tn_failed(tn_flow_distance(f, 0, 0, 9, 0, &d, &e)));
    assert_string_equal(e.msg, "flow: goal (9,0) is outside the 5x5 board");
    assert_true(tn_failed(tn_flow_distance(f, 0, 0, 1, 1, &d, &e))); /* (1,1) is a wall */
    assert_string_equal(e.msg, "flow: the distance's goal (1,1) is a wall");
    assert_true(d == -1.0);
    tn_map_destroy(m);
    tn_flow_destroy(f);
    tn_flow_destroy(NULL);
}

/* Octile distance: a lower bound of every 8-connected path length. */
static double octile(int ax, int ay, int bx, int by)
{
    int dx = abs(ax - bx), dy = abs(ay - by);
    return (dx > dy ? dx : dy) + (1.41421356237309504880 - 1.0) * (dx < dy ? dx : dy);
}

static int by_length(const void *a, const void *b)
{
    const tn_scen_query *p = *(const tn_scen_query *const *)a,
                        *q = *(const tn_scen_query *const *)b;
    return (p->optimal > q->optimal) - (p->optimal < q->optimal);
}

/* The 8-connected field reproduces the optimal length of every query of
 * the three Moving AI scenario files.  To keep the test quick, queries are
 * checked in batches sharing one field whose destinations are all the
 * batch's goals: a query joins a batch only when every other goal g of the
 * batch is provably farther from its start than its own optimum
 * (octile(start, g) > optimal + tolerance) and vice versa, so the field's
 * distance at each start must be exactly that query's optimum. */
static void test_movingai(void **state)
{
    (void)state;
    static const char *const NAMES[] = {"arena.map", "den312d.map", "random512-10-0.map"};
    for (int k = 0; k < 3; k++) {
        char path[256];
        snprintf(path, sizeof path, MAI_DIR "%s", NAMES[k]);
        tn_map *m = tu_map_file(path);
        if (!m) {
            fprintf(stderr, "SKIP test_movingai: %s is missing\n", path);
            skip();
        }
        snprintf(path, sizeof path, MAI_DIR "%s.scen", NAMES[k]);
        size_t len = 0;
        char *buf = tu_slurp(path, &len);
        assert_non_null(buf);
        tn_scen *sc = NULL;
        tn_error e = {0};
        assert_true(tn_succeeded(tn_scen_parse(buf, len, path, NULL, &sc, &e)));
        free(buf);
        tn_flow *f = NULL;
        assert_true(tn_succeeded(tn_flow_create(m->w, m->h, 8, NULL, &f, &e)));
        int n = sc->count;
        const tn_scen_query **order = malloc(sizeof *order * (size_t)n);
        const tn_scen_query **batch = malloc(sizeof *batch * (size_t)n);
        bool *done = calloc((size_t)n, 1);
        for (int q = 0; q < n; q++) {
            const tn_scen_query *Q = &sc->q[q];
            assert_string_equal(Q->map, NAMES[k]);
            assert_int_equal(Q->map_w, m->w);
            assert_int_equal(Q->map_h, m->h);
            order[q] = Q;
        }
        qsort(order, (size_t)n, sizeof *order, by_length);
        double worst = 0;
        int checked = 0, fields = 0;
        while (checked < n) {
            int nb = 0;
            for (int q = 0; q < n; q++) {
                if (done[q]) continue;
                const tn_scen_query *A = order[q];
                bool fits = true;
                for (int b = 0; b < nb && fits; b++) {
                    const tn_scen_query *B = batch[b];
                    fits = !(A->gx == B->gx && A->gy == B->gy) &&
                           octile(A->sx, A->sy, B->gx, B->gy) > A->optimal + 1e-3 &&
                           octile(B->sx, B->sy, A->gx, A->gy) > B->optimal + 1e-3;
                }
                if (!fits) continue;
                batch[nb++] = A;
                done[q] = true;
            }
            for (int b = 0; b < nb; b++)
                assert_true(tn_succeeded(
                    tn_map_set_mark(m, batch[b]->gx, batch[b]->gy, TN_MARK_DEST, NULL)));
            assert_true(tn_succeeded(tn_flow_rebuild(f, m, NULL)));
            fields++;
            for (int b = 0; b < nb; b++) {
                const tn_scen_query *Q = batch[b];
                tn_map_set_mark(m, Q->gx, Q->gy, TN_MARK_NONE, NULL);
                double d = tn_flow_dist(f, Q->sx, Q->sy);
                double tol = fmax(1e-4, 5e-6 * Q->optimal);
                if (!(fabs(d - Q->optimal) <= tol))
                    fprintf(stderr, "%s: (%d,%d)->(%d,%d) flow %.6f, optimal %.6f\n", NAMES[k],
                            Q->sx, Q->sy, Q->gx, Q->gy, d, Q->optimal);
                assert_true(fabs(d - Q->optimal) <= tol);
                worst = fmax(worst, fabs(d - Q->optimal));
            }
            checked += nb;
        }
        fprintf(stderr, "  %s: all %d queries exact (largest difference %.2g) with %d fields\n",
                NAMES[k], n, worst, fields);
        free(order);
        free(batch);
        free(done);
        tn_scen_destroy(sc);
        tn_flow_destroy(f);
        tn_map_destroy(m);
    }
}

/* tn_flow_memory is what the create allocated (a counting allocator), for
 * both connectivities and thin, odd and square boards. */
static void test_memory_counted(void **state)
{
    (void)state;
    const int sz[4][2] = {{16, 8}, {4096, 1}, {100, 37}, {256, 256}};
    for (int k = 0; k < 4; k++)
        for (int conn = 4; conn <= 8; conn += 4) {
            tu_counting c = {0};
            tn_allocator a = tu_counting_allocator(&c);
            tn_flow *f = NULL;
            assert_true(tn_succeeded(tn_flow_create(sz[k][0], sz[k][1], conn, &a, &f, NULL)));
            assert_int_equal(tn_flow_memory(f), c.bytes);
            tn_flow_destroy(f);
            assert_int_equal(c.allocs, c.frees);
        }
    assert_int_equal(tn_flow_memory(NULL), 0);
}

/* The figures tn_flow.h gives for small and thin boards (it said "about
 * 3 KB are fixed (the struct)": the struct is 256 bytes, and the fixed
 * part is the 4-connected rebuild's ring of empty bit blocks). */
static void test_memory_small_boards(void **state)
{
    (void)state;
    const struct {
        int w, h, conn;
        size_t lo, hi; /* bytes */
    } C[] = {
        {1, 1, 4, 2800, 3000},                /* "1x1 2.9 KB" */
        {1, 1, 8, 600, 750},                  /* "8-connected 0.7 KB" */
        {16, 8, 4, 64 * 128, 66 * 128},       /* "16x8 65 B a tile" */
        {4096, 1, 4, 138 * 4096, 140 * 4096}, /* "4096x1 139 B" */
        {1, 4096, 4, 186 * 4096, 188 * 4096}, /* "1x4096 187 B" */
    };
    assert_int_equal(sizeof(tn_flow), 256);
    for (size_t k = 0; k < sizeof C / sizeof C[0]; k++) {
        tn_flow *f = NULL;
        assert_true(tn_succeeded(tn_flow_create(C[k].w, C[k].h, C[k].conn, NULL, &f, NULL)));
        const size_t b = tn_flow_memory(f);
        if (b < C[k].lo || b > C[k].hi)
            fprintf(stderr, "%dx%d %d-connected: %zu bytes\n", C[k].w, C[k].h, C[k].conn, b);
        assert_true(b >= C[k].lo && b <= C[k].hi);
        tn_flow_destroy(f);
    }
}

/* The accessors take a NULL field as an empty one (tn_flow_dist crashed). */
static void test_null_field(void **state)
{
    (void)state;
    assert_true(tn_flow_dist(NULL, 0, 0) == -1.0);
    assert_int_equal(tn_flow_dir(NULL, 0, 0), TN_DIR_NONE);
    int a = 7, b = 7;
    assert_false(tn_flow_steps(NULL, 0, 0, &a, &b));
    assert_true(a == 7 && b == 7);
    float x, y;
    assert_false(tn_flow_exit(NULL, 0, 0, &x, &y));
}

/* tn_flow_kind with no map (tn_flow_memory takes NULL too) dereferenced
 * it: now a WALL, as a tile outside the map. */
static void test_kind_null_map(void **state)
{
    (void)state;
    assert_int_equal(tn_flow_kind(NULL, 0, 0), TN_FLOW_WALL);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(3, 2, NULL, &m, NULL)));
    tn_map_set_tile(m, 1, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_flow_kind(m, 0, 0), TN_FLOW_OPEN);
    assert_int_equal(tn_flow_kind(m, 1, 0), TN_FLOW_WALL);
    assert_int_equal(tn_flow_kind(m, -1, 0), TN_FLOW_WALL);
    tn_map_destroy(m);
}

/* A NULL argument is named in the message ("flow: no map (m is NULL)"),
 * not "no field or map": a caller passing both learns which one it is
 * (found by a library user's program). */
static void expect_msg(tn_status s, const tn_error *e, const char *want)
{
    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
    if (strcmp(e->msg, want) != 0) fail_msg("got \"%s\", want \"%s\"", e->msg, want);
}

static void test_null_argument_named(void **state)
{
    (void)state;
    tn_map *m = NULL;
    tn_flow *f = NULL;
    assert_true(tn_succeeded(tn_map_create(4, 3, NULL, &m, NULL)));
    assert_true(tn_succeeded(tn_flow_create(4, 3, 4, NULL, &f, NULL)));
    tn_error e;
    int lost = 0;
    double d = 0;
    expect_msg(tn_flow_rebuild(NULL, m, &e), &e, "flow: no flow field (f is NULL)");
    expect_msg(tn_flow_rebuild(f, NULL, &e), &e, "flow: no map (m is NULL)");
    expect_msg(tn_flow_update(f, NULL, 1, 1, &e), &e, "flow: no map (m is NULL)");
    /* tn_flow_set_kind said "flow: no field", unlike rebuild and update */
    expect_msg(tn_flow_set_kind(NULL, 1, 1, TN_FLOW_WALL, &e), &e,
               "flow: no flow field (f is NULL)");
    expect_msg(tn_flow_whatif(NULL, 1, 1, TN_FLOW_WALL, NULL, 0, &lost, NULL, &e), &e,
               "flow: what-if without a field (f is NULL)");
    expect_msg(tn_flow_whatif(f, 1, 1, TN_FLOW_WALL, NULL, 0, NULL, NULL, &e), &e,
               "flow: what-if without an output for the count (lost is NULL)");
    expect_msg(tn_flow_distance(NULL, 1, 1, 2, 1, &d, &e), &e,
               "flow: distance without a field (f is NULL)");
    expect_msg(tn_flow_distance(f, 1, 1, 2, 1, NULL, &e), &e,
               "flow: distance without an output (dist is NULL)");
    tn_flow_destroy(f);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_board),
        cmocka_unit_test(test_null_field),
        cmocka_unit_test(test_memory_small_boards),
        cmocka_unit_test(test_no_destination_and_cutoff),
        cmocka_unit_test(test_staircase),
        cmocka_unit_test(test_rebuild_blocks),
        cmocka_unit_test(test_incremental_equals_rebuild_4),
        cmocka_unit_test(test_incremental_equals_rebuild_8),
        cmocka_unit_test(test_whatif),
        cmocka_unit_test(test_point_distance),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_movingai),
        cmocka_unit_test(test_memory_counted),
        cmocka_unit_test(test_kind_null_map),
        cmocka_unit_test(test_null_argument_named),
    };
    return cmocka_run_group_tests_name("flow", tests, NULL, NULL);
}
