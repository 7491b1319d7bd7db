/* fuzz_surf.c - libFuzzer harness for tn_surf_load (a saved surface graph).
 *
 * The input is saved bytes without their last 8 (the checksum): the harness
 * appends the right checksum, so that mutations get past it to the checks
 * of the header and of every field.  The seed (fuzz/corpus/surf/) is the
 * graph of the harness's own level, written by this file built with
 * -DFUZZ_SURF_SEED (it then has a main: `fuzz_surf_seed OUT [LANDMARKS]`;
 * seed-20x12-lm4 holds 4 landmark tables, which a load proves exact).
 *
 * Checks, beyond "no crash, no out-of-bounds read, no leak, no UB":
 *  - a refusal: PARSE_ERROR or OUT_OF_MEMORY, a message starting with the
 *    name, no graph, nothing left allocated;
 *  - an accepted graph saves to the very bytes it was loaded from (but for
 *    landmark tables the load made where the data had none, and data whose
 *    footprints or explored boxes were not as a build saves them: that
 *    canonical form must then load and save to itself), answers queries
 *    (with query shortcuts and labels, or without), and repairs an edit of
 *    one or two tiles locally (whatever edges, input runs and footprints
 *    the data held, as long as every check passed), then frees everything.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_levelgen.h"
#include "tn_map.h"
#include "tn_rng.h"
#include "tn_surf.h"

#include "fuzz_util.h"

/* The level (a 20x12 generated one) and profile every input is loaded on. */
static tn_map *level(tn_surf_profile *prof)
{
    static tn_map *m;
    static tn_surf_profile p;
    if (!m) {
        tn_rng r;
        tn_rng_seed(&r, 8, 1);
        if (tn_failed(tn_map_create(20, 12, NULL, &m, NULL))) abort();
        tn_levelgen_platformer(m, &r, NULL);
        tn_phys_params ph = tn_phys_default(3.0f);
        p = tn_surf_profile_make(1, 2, &ph);
    }
    *prof = p;
    return m;
}

#ifndef FUZZ_SURF_SEED
/* The format's checksum (tn_surf_io.c): FNV-1a over little-endian 64-bit
 * words, then the bytes after the last whole word. */
static uint64_t checksum(const uint8_t *p, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int k = 0; k < 8; k++) w |= (uint64_t)p[i + (size_t)k] << (8 * k);
        h = (h ^ w) * 1099511628211ull;
    }
    for (; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* The query from node s to tile (gx, gy) in slices of `budget` nodes, on
 * the graph and on query object q, and whole on q, answers as
 * tn_surf_find: status, legs, stats. */
static bool object_as_find(tn_surf_query *q, int s, int gx, int gy, int budget,
                           const tn_surf_leg *la, int ca, const tn_surf_stats *sa, tn_status ra)
{
    tn_surf_leg lb[64];
    memset(lb, 0, sizeof lb);
    int cb = 0;
    tn_surf_stats sb;
    tn_status rb = tn_surf_query_find(q, s, gx, gy, lb, 64, &cb, &sb, NULL);
    if (rb != ra) return false;
    if (tn_failed(ra)) return tn_surf_query_begin(q, s, gx, gy, NULL) == ra;
    if (cb != ca || memcmp(la, lb, sizeof lb) != 0 || memcmp(sa, &sb, sizeof sb) != 0) return false;
    memset(lb, 0, sizeof lb);
    rb = tn_surf_query_begin(q, s, gx, gy, NULL);
    for (int steps = 0; rb == TN_IN_PROGRESS; steps++) {
        if (steps > 10000000) return false;
        rb = tn_surf_query_step(q, budget, NULL, NULL);
    }
    if (rb != TN_OK) return false;
    rb = tn_surf_query_end(q, lb, 64, &cb, &sb, NULL);
    return rb == ra && cb == ca && memcmp(la, lb, sizeof lb) == 0 &&
           memcmp(sa, &sb, sizeof sb) == 0;
}

static bool sliced_as_find(tn_surf *g, tn_surf_query *q, int s, int gx, int gy, int budget)
{
    tn_surf_leg la[64], lb[64];
    memset(la, 0, sizeof la);
    memset(lb, 0, sizeof lb);
    int ca = 0, cb = 0;
    tn_surf_stats sa, sb;
    const tn_status ra = tn_surf_find(g, s, gx, gy, la, 64, &ca, &sa, NULL);
    if (q && !object_as_find(q, s, gx, gy, budget, la, ca, &sa, ra)) return false;
    tn_status rb = tn_surf_find_begin(g, s, gx, gy, NULL);
    if (tn_failed(ra)) return rb == ra;
    for (int steps = 0; rb == TN_IN_PROGRESS; steps++) {
        if (steps > 10000000) return false; /* (a step that expands nothing) */
        rb = tn_surf_find_step(g, budget, NULL, NULL);
    }
    if (rb != TN_OK) return false;
    rb = tn_surf_find_end(g, lb, 64, &cb, &sb, NULL);
    return rb == ra && cb == ca && memcmp(la, lb, sizeof la) == 0 &&
           memcmp(&sa, &sb, sizeof sa) == 0;
}

/* Saved bytes b (n of them) load on m and save to the same bytes. */
static bool saves_to_itself(const tn_map *m, const tn_surf_profile *prof, const uint8_t *b,
                            size_t n)
{
    tn_surf *g = NULL;
    if (tn_failed(tn_surf_load(m, prof, b, n, "again.tnsurf", NULL, &g, NULL))) return false;
    size_t n2 = 0;
    uint8_t *c = tn_succeeded(tn_surf_save(g, NULL, 0, &n2, NULL)) ? malloc(n2) : NULL;
    const bool ok =
        c && n2 == n && tn_succeeded(tn_surf_save(g, c, n2, &n2, NULL)) && memcmp(c, b, n) == 0;
    free(c);
    tn_surf_destroy(g);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tn_surf_profile prof;
    tn_map *m = level(&prof);
    uint8_t *buf = malloc(size + 8);
    if (!buf) return 0;
    memcpy(buf, data, size);
    uint64_t h = checksum(buf, size);
    for (int k = 0; k < 8; k++) buf[size + (size_t)k] = (uint8_t)(h >> (8 * k));
    counter cnt = {0, 0, 0};
    tn_allocator a = {count_alloc, count_free, &cnt};
    tn_surf *g = (tn_surf *)buf; /* set to NULL by the call */
    tn_error err;
    memset(&err, 0, sizeof err);
    tn_status s = tn_surf_load(m, &prof, buf, size + 8, "fuzz.tnsurf", &a, &g, &err);
    if (tn_failed(s)) {
        CHECK(g == NULL);
        CHECK(s == (TN_FAILURE | TN_PARSE_ERROR) || s == (TN_FAILURE | TN_OUT_OF_MEMORY));
        check_refusal(&err, "fuzz.tnsurf", &cnt);
        free(buf);
        return 0;
    }
    CHECK(g != NULL);
    /* saved again: the same bytes; or, from data without landmark tables
     * (K, the last field, 0) where the setting gives some, which the load
     * then made, the same bytes up to K; or, from data whose footprints
     * were out of (surface, search) order or whose explored boxes were not
     * their footprints' union, the form a build saves (tn_surf_io.c), which
     * must load and save to itself */
    size_t n = 0;
    CHECK(tn_succeeded(tn_surf_save(g, NULL, 0, &n, NULL)));
    uint8_t *again = malloc(n);
    CHECK(again != NULL);
    CHECK(tn_succeeded(tn_surf_save(g, again, n, &n, NULL)));
    static const uint8_t none[4];
    const bool same = n == size + 8
                          ? memcmp(again, buf, n) == 0
                          : size >= 4 && memcmp(buf + size - 4, none, 4) == 0 && n > size + 8 &&
                                tn_surf_landmark_count(g) > 0 && memcmp(again, buf, size - 4) == 0;
    if (!same) CHECK(saves_to_itself(m, &prof, again, n));
    free(again);
    /* queries, then a one-tile edit of the map itself (a local repair,
     * which reads the data's footprints), then queries; the tile is put
     * back after */
    tn_surf_leg legs[64];
    int cnt_legs;
    tn_surf_stats st;
    const int nn = tn_surf_node_count(g);
    /* a query object made now grows with the shortcuts and the edit below */
    tn_surf_query *q = NULL;
    if (tn_failed(tn_surf_query_create(g, &a, &q, NULL))) q = NULL; /* (out of memory) */
    /* three inputs in four (by the checksum's low bits) query with the
     * shortcuts, half of those with their labels too */
    if (h & 3) CHECK(tn_succeeded(tn_surf_build_shortcuts(g, 0, NULL)));
    if ((h & 3) == 3) CHECK(tn_succeeded(tn_surf_build_labels(g, NULL)));
    for (int k = 0; k < 4 && nn > 0; k++)
        tn_surf_find(g, (int)(data[k % (size ? size : 1)] % (unsigned)nn), k * 5 % m->w,
                     k * 3 % m->h, legs, 64, &cnt_legs, &st, NULL);
    const int x = size ? data[size - 1] % m->w : 0, y = size > 1 ? data[size - 2] % m->h : 0;
    const int old = tn_map_tile(m, x, y);
    /* one input in two (the checksum's bit 2) changes a second tile too:
     * both repaired by one local repair */
    const int x2 = size > 2 ? data[size - 3] % m->w : 0, y2 = size > 3 ? data[size - 4] % m->h : 0;
    const bool two = (h & 4) && (x2 != x || y2 != y);
    const int old2 = tn_map_tile(m, x2, y2);
    if (two)
        tn_map_set_tile(m, x2, y2, old2 == TN_TILE_EMPTY ? TN_TILE_ONEWAY : TN_TILE_EMPTY, NULL);
    tn_map_set_tile(m, x, y, old == TN_TILE_EMPTY ? TN_TILE_BLOCK : TN_TILE_EMPTY, NULL);
    tn_surf_edit(g, m, x, y, NULL);
    for (int k = 0; k < 4 && tn_surf_node_count(g) > 0; k++)
        tn_surf_find(g, k % tn_surf_node_count(g), k * 7 % m->w, k * 2 % m->h, legs, 64, &cnt_legs,
                     &st, NULL);
    /* and sliced, in steps of 1 .. 8 nodes */
    for (int k = 0; k < 2 && tn_surf_node_count(g) > 0; k++)
        CHECK(sliced_as_find(g, q, (int)((h >> (8 * k + 8)) % (unsigned)tn_surf_node_count(g)),
                             k * 11 % m->w, k * 5 % m->h, 1 + (int)((h >> (8 * k + 3)) % 8)));
    tn_surf_query_destroy(q);
    tn_surf_destroy(g);
    tn_map_set_tile(m, x, y, old, NULL);
    if (two) tn_map_set_tile(m, x2, y2, old2, NULL);
    CHECK(cnt.live == 0);
    free(buf);
    return 0;
}
#else
/* The seed: the level's graph saved (with LANDMARKS landmark tables, if
 * given), without its checksum. */
int main(int argc, char **argv)
{
    tn_surf_profile prof;
    const tn_map *m = level(&prof);
    tn_surf *g = NULL;
    size_t n = 0;
    if (argc < 2 || argc > 3 || tn_failed(tn_surf_create(m, &prof, NULL, &g, NULL))) return 1;
    if (argc == 3) tn_surf_set_landmarks(g, atoi(argv[2]));
    if (tn_failed(tn_surf_save(g, NULL, 0, &n, NULL))) return 1;
    uint8_t *buf = malloc(n);
    FILE *f = fopen(argv[1], "wb");
    if (!buf || !f || tn_failed(tn_surf_save(g, buf, n, &n, NULL)) ||
        fwrite(buf, 1, n - 8, f) != n - 8 || fclose(f) != 0)
        return 1;
    printf("%s: %zu bytes (%d nodes, %d edges, %d landmarks)\n", argv[1], n - 8,
           tn_surf_node_count(g), tn_surf_edge_count(g), tn_surf_landmark_count(g));
    free(buf);
    tn_surf_destroy(g);
    return 0;
}
#endif
