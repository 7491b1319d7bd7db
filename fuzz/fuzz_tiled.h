/* fuzz_tiled.h - the body shared by fuzz_tmx.c and fuzz_tmj.c: one Tiled
 * loader on arbitrary bytes.
 *
 * Checks, beyond "no crash, no out-of-bounds read, no leak, no UB":
 *  - a refusal returns -1, no map, and a message naming the input;
 *  - an accepted map has a size in 1..TN_MAP_MAX_SIZE, tiles and marks in
 *    range, marks only on empty tiles, a start on an unmarked tile (empty,
 *    or a block or one-way platform over it);
 *  - (maps up to 65536 cells) saving it into the same document, and then
 *    an edited copy (terrain changed in three cells, a mark added, the start
 *    moved: refused only when the document has no tile for the terrain), (tn_tiled_format with the input as
 *    the template) succeeds, and the result loads as the same map (the
 *    saver re-reads what it wrote and compares).
 * The input is named tests/data/tiled/fuzz.EXT, so external tilesets
 * named like the fixtures' (fixture.tsx, fixture.tsj) are found. */
#ifndef TN_FUZZ_TILED_H
#define TN_FUZZ_TILED_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tiled.h"

#include "fuzz_util.h"

static int fuzz_tiled(const uint8_t *data, size_t size, int fmt, const char *name)
{
    char *buf = fuzz_copy(data, size);
    if (!buf) return 0;
    tn_map *m = (tn_map *)0x1;
    char err[512];
    err[0] = '\0';
    if (tn_tiled_load_buffer(buf, size, name, fmt, &m, err, sizeof err) != 0) {
        CHECK(m == NULL);
        CHECK(strncmp(err, name, strlen(name)) == 0);
        CHECK(memchr(err, '\0', sizeof err) != NULL);
        free(buf);
        return 0;
    }
    CHECK(m != NULL);
    CHECK(m->w >= 1 && m->h >= 1 && m->w <= TN_MAP_MAX_SIZE && m->h <= TN_MAP_MAX_SIZE);
    size_t cells = (size_t)m->w * (size_t)m->h;
    for (size_t i = 0; i < cells; i++) {
        CHECK(m->tile[i] <= TN_TILE_ONEWAY);
        CHECK(m->mark[i] <= TN_MARK_ITEM);
        if (m->mark[i] != TN_MARK_NONE) CHECK(m->tile[i] == TN_TILE_EMPTY);
    }
    if (m->start_x >= 0) {
        CHECK(tn_map_inside(m, m->start_x, m->start_y)); /* may be under a block */
        CHECK(tn_map_mark(m, m->start_x, m->start_y) == TN_MARK_NONE);
    } else {
        CHECK(m->start_x == -1 && m->start_y == -1);
    }
    /* Save into the same document; the saver itself checks that the
     * result reads back as m.  (Only for maps up to 256x256 cells: a
     * sparse infinite map can span 4096x4096, and saving that many cells
     * under ASan would slow the fuzzer to a crawl.) */
    if (cells > 65536) {
        tn_map_destroy(m);
        free(buf);
        return 0;
    }
    char *out = NULL;
    size_t len = 0;
    int rc = tn_tiled_format(m, buf, size, name, name, fmt, &out, &len, err, sizeof err);
    CHECK(rc == 0);
    CHECK(out != NULL && out[len] == '\0');
    free(out);
    /* Edits at places picked from the input. */
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 16777619u;
    for (int k = 0; k < 3; k++) {
        size_t i = (h >> (k * 8)) % cells;
        tn_map_set_tile(m, (int)(i % (size_t)m->w), (int)(i / (size_t)m->w),
                        (m->tile[i] + 1 + k) % 3, NULL);
    }
    size_t i = (h >> 5) % cells;
    if (m->tile[i] == TN_TILE_EMPTY && (int)i != m->start_y * m->w + m->start_x)
        m->mark[i] = TN_MARK_ITEM;
    i = (h >> 13) % cells;
    if (m->tile[i] == TN_TILE_EMPTY && m->mark[i] == TN_MARK_NONE) {
        m->start_x = (int)(i % (size_t)m->w);
        m->start_y = (int)(i / (size_t)m->w);
    } else if (m->start_x >= 0 && (m->tile[m->start_y * m->w + m->start_x] != TN_TILE_EMPTY ||
                                   m->mark[m->start_y * m->w + m->start_x] != TN_MARK_NONE)) {
        m->start_x = m->start_y = -1; /* an edit covered it */
    }
    rc = tn_tiled_format(m, buf, size, name, name, fmt, &out, &len, err, sizeof err);
    CHECK(rc == 0 || strstr(err, ": cannot save a ") != NULL);
    free(out);
    tn_map_destroy(m);
    free(buf);
    return 0;
}

#endif
