/* fuzz_map.c - libFuzzer harness for tn_map_parse (tilenav-map 1 and Moving
 * AI octile formats).
 *
 * Checks, beyond "no crash, no out-of-bounds read, no leak, no UB":
 *  - a refusal fills err with a failed status and a message naming the input;
 *  - an accepted map has a size in 1..TN_MAP_MAX_SIZE, tiles and marks in
 *    range, marks only on empty tiles, at most one start on an unmarked tile
 *    (empty, or a block or one-way over it: "start X Y");
 *  - parse(format(map)) == map (the saver and the loader agree);
 *  - the parser never asks for more than the map's own 2*W*H bytes plus the
 *    struct (so a huge header cannot make it allocate before it reads rows).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tn_map.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    counter cnt = {0, 0, 0};
    tn_allocator a = {count_alloc, count_free, &cnt};
    char *buf = fuzz_copy(data, size);
    if (!buf) return 0;

    tn_map *m = (tn_map *)0x1;
    tn_error err;
    memset(&err, 0, sizeof err);
    tn_status s = tn_map_parse(buf, size, "fuzz.map", &a, &m, &err);
    if (tn_failed(s)) {
        CHECK(m == NULL);
        check_refusal(&err, "fuzz.map", &cnt);
        free(buf);
        return 0;
    }
    CHECK(m != NULL);
    CHECK(m->w >= 1 && m->h >= 1 && m->w <= TN_MAP_MAX_SIZE && m->h <= TN_MAP_MAX_SIZE);
    size_t cells = (size_t)m->w * (size_t)m->h;
    /* Rows must have been present in the input: W*H <= len. */
    CHECK(cells <= size);
    CHECK(cnt.peak <= 2 * cells + sizeof(tn_map) + 64);
    int starts = 0;
    for (size_t i = 0; i < cells; i++) {
        CHECK(m->tile[i] <= TN_TILE_ONEWAY);
        CHECK(m->mark[i] <= TN_MARK_ITEM);
        if (m->mark[i] != TN_MARK_NONE) CHECK(m->tile[i] == TN_TILE_EMPTY);
    }
    if (m->start_x >= 0) {
        starts++;
        CHECK(tn_map_inside(m, m->start_x, m->start_y)); /* may be under a block */
        CHECK(tn_map_mark(m, m->start_x, m->start_y) == TN_MARK_NONE);
    } else {
        CHECK(m->start_x == -1 && m->start_y == -1);
    }

    /* Round trip through the saver. */
    size_t need = tn_map_format_size(m), wrote = 0;
    char *text = malloc(need);
    CHECK(text != NULL);
    CHECK(!tn_failed(tn_map_format(m, text, need, &wrote)));
    CHECK(wrote + 1 == need && text[wrote] == '\0');
    CHECK(tn_failed(tn_map_format(m, text, need - 1, NULL)));
    tn_map *m2 = NULL;
    s = tn_map_parse(text, wrote, "roundtrip", &a, &m2, &err);
    CHECK(!tn_failed(s));
    CHECK(tn_map_equal(m, m2));
    tn_map_destroy(m2);
    free(text);
    tn_map_destroy(m);
    CHECK(cnt.live == 0);
    free(buf);
    return 0;
}
