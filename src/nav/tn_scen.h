/* SPDX-License-Identifier: Zlib */
/* tn_scen.h - reader for Moving AI benchmark scenario files (.scen).
 *
 * Format (N. Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012):
 *     version 1            (or "version 1.0")
 *     BUCKET MAP W H SX SY GX GY OPTIMAL      one query per line
 * fields separated by spaces or tabs; MAP is a path whose basename is kept;
 * coordinates are x = column, y = row from the top, both from 0; OPTIMAL is
 * the 8-connected optimal length (straight 1, diagonal sqrt(2), no corner
 * cutting) printed with about 6 significant digits, so compare against it
 * with a tolerance of max(1e-4, 5e-6 * length).
 *
 * Accepted: a leading UTF-8 byte-order mark (skipped, as tn_map_parse
 * does), trailing '\r', blank lines (skipped).  Refused, with
 * "NAME:LINE: what is wrong" in the tn_error (line also in err->line): a
 * missing or unknown version line, a wrong number of fields, a non-numeric
 * or out-of-range number (W/H outside 1..TN_MAP_MAX_SIZE, a start or goal
 * outside W x H, a negative, non-finite or unparsable length), a map name
 * of 128 bytes or more, NUL or other control bytes.
 *
 * Safety: the parser never reads outside [buf, buf+len) (the buffer need
 * not be NUL-terminated), and counts the queries before it allocates one
 * array of exactly that many (size overflow checked).
 * Memory: sizeof(tn_scen) + max(count, 1) * sizeof(tn_scen_query) (168
 * bytes each; a file of no queries still gets one, so q is never NULL).
 * Cost: O(len); the 1670-query random512 file (109 KB) parses in ~0.3 ms.
 *
 * Thread safety: parsing touches only its arguments; a parsed tn_scen is
 * read-only and may be shared.
 */
#ifndef TN_SCEN_H
#define TN_SCEN_H

#include "tn_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_SCEN_NAME_MAX 128

typedef struct tn_scen_query {
    int bucket;
    char map[TN_SCEN_NAME_MAX]; /* basename of the map path, NUL-terminated */
    int map_w, map_h;
    int sx, sy, gx, gy;
    double optimal;
} tn_scen_query;

typedef struct tn_scen {
    int count;
    tn_scen_query *q;
    tn_allocator alloc;
} tn_scen;

/* Parse `len` bytes of scenario text; `name` is used in messages only
 * (NULL: "scen", as in "scen:2: expected 9 fields ..."; "": ":2: ...", as
 * tn_map_parse).
 * On success *out owns a new tn_scen (count may be 0); on failure *out is
 * NULL and err says why. */
tn_status tn_scen_parse(const char *buf, size_t len, const char *name, const tn_allocator *a,
                        tn_scen **out, tn_error *err);
void tn_scen_destroy(tn_scen *s);

#ifdef __cplusplus
}
#endif

#endif
