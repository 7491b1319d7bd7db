/* SPDX-License-Identifier: Zlib */
/* tn_map.h - the side-view tile map: terrain, tile content, text formats.
 *
 * Coordinates: x = column from the left, y = row from the TOP, both from 0,
 * everywhere in the library, the files, scripts, JSON and displays.  Tile (x, y)
 * covers pixels [x*T, (x+1)*T) x [y*T, (y+1)*T) with T the tile size in
 * pixels (tn_phys_params.tile_px for the platformer modules, TN_TILE_PX = 16
 * by default and elsewhere; see tn_common.h); pixel y grows downward, so
 * "up" is -y.
 *
 * Terrain (tn_map.tile): EMPTY, BLOCK (solid from every side) or ONEWAY (a
 * platform whose top can be stood on and which is passed from below and by
 * dropping through).  Content (tn_map.mark) lives on EMPTY tiles only:
 * enemy SPAWN points, DESTinations and ITEMs.  The map's outside is solid:
 * tn_map_tile() answers BLOCK there.
 *
 * Formats read by tn_map_parse():
 *  - tilenav-map 1:  '#' comment lines, then the header lines
 *        tilenav-map 1
 *        size W H          (1..TN_MAP_MAX_SIZE each)
 *        start X Y         (optional: a character start under a block or
 *                          one-way platform, which a row cannot show; not
 *                          with a P, not on S D *)
 *        tiles
 *    and H rows of exactly W characters:
 *        . empty  # block  = one-way  P character start (empty)
 *        S spawn (empty)   D destination (empty)   * item (empty)
 *    At most one P.  Trailing '\r' is accepted (and trailing blanks on
 *    header lines); anything after the last row
 *    other than blank or comment lines is an error, and so is a line of
 *    exactly W tile characters there (a row past the height: "45 tile rows
 *    but size says 30", though it starts with '#' like a comment).
 *  - Moving AI octile maps: "type octile", "height H", "width W", "map", then
 *    H rows of W characters; . G S passable, @ O T W blocked.
 * A leading UTF-8 byte-order mark is skipped.
 * Every malformed input is refused with a tn_error naming LINE:COL and the
 * problem; sizes are checked before any allocation; the parser never reads
 * outside [buf, buf+len) and accepts any bytes (NULs included).
 *
 * tn_map_save() writes the tilenav format with a message on failure
 * (tn_map_format() is the same without one); parse(save(m)) == m, and a
 * map that would not read back the same (fields set by hand) is refused
 * with "NAME:LINE:COL: tile (X,Y) has ..." for its first bad tile.
 * Memory: one block of 2*W*H bytes plus the struct.  Parse and save are
 * O(len) and O(W*H).
 *
 * Thread safety: reading functions (tn_map_tile, tn_map_mark, tn_map_equal,
 *   tn_map_save, tn_map_format) may run on one map from any number of threads while no
 *   thread edits it; edits (set_tile, set_mark) need exclusive access.
 */
#ifndef TN_MAP_H
#define TN_MAP_H

#include "tn_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_TILE_PX 16 /* default pixels per tile (tn_phys_params.tile_px) */
#define TN_MAP_MAX_SIZE 4096

enum { TN_TILE_EMPTY = 0, TN_TILE_BLOCK = 1, TN_TILE_ONEWAY = 2 };
enum { TN_MARK_NONE = 0, TN_MARK_SPAWN = 1, TN_MARK_DEST = 2, TN_MARK_ITEM = 3 };

typedef struct tn_map {
    int w, h;
    uint8_t *tile;        /* w*h terrain, TN_TILE_*, row-major from the top */
    uint8_t *mark;        /* w*h content, TN_MARK_* (only on EMPTY tiles) */
    int start_x, start_y; /* the 'P' tile, or -1,-1 when the map has none; a
                             parsed 'start X Y' may be under a block or
                             one-way (tn_map_format writes it back so) */
    uint32_t revision;    /* incremented by every change (a set to what is
                             there already is none); caches compare it */
    tn_allocator alloc;   /* how this map was allocated */
} tn_map;

/* A new all-empty map in *out; INVALID_PARAM when w/h are out of 1..4096,
 * OUT_OF_MEMORY (err filled, *out NULL) when memory runs out.
 * Memory: sizeof(tn_map) + 2*w*h bytes. */
tn_status tn_map_create(int w, int h, const tn_allocator *a, tn_map **out, tn_error *err);
void tn_map_destroy(tn_map *m);
/* A deep copy (same allocator) in *out. */
tn_status tn_map_clone(const tn_map *m, tn_map **out, tn_error *err);
/* True when both maps hold the same size, terrain, content and start (two
 * NULLs: true; one: false). */
bool tn_map_equal(const tn_map *a, const tn_map *b);

static inline bool tn_map_inside(const tn_map *m, int x, int y)
{
    return x >= 0 && y >= 0 && x < m->w && y < m->h;
}
/* Terrain at (x, y); BLOCK outside the map. */
static inline int tn_map_tile(const tn_map *m, int x, int y)
{
    if (!tn_map_inside(m, x, y)) return TN_TILE_BLOCK;
    return m->tile[y * m->w + x];
}
static inline int tn_map_mark(const tn_map *m, int x, int y)
{
    if (!tn_map_inside(m, x, y)) return TN_MARK_NONE;
    return m->mark[y * m->w + x];
}
/* Set terrain; a BLOCK or ONEWAY clears the tile's content.  Returns
 * INVALID_PARAM (with a message) outside the map or for an unknown tile
 * kind. */
tn_status tn_map_set_tile(tn_map *m, int x, int y, int tile, tn_error *err);
/* Set content; only on EMPTY tiles other than the start (else REFUSED with
 * a message naming the tile), INVALID_PARAM outside the map. */
tn_status tn_map_set_mark(tn_map *m, int x, int y, int mark, tn_error *err);
/* Count tiles carrying `mark` (0 for a NULL map).  The inline accessors
 * above (tn_map_inside, _tile, _mark) take a valid map: they are the
 * planners' inner loops. */
int tn_map_count_marks(const tn_map *m, int mark);
/* The tiles carrying `mark`, as plain indices y*w + x in increasing order
 * (the spawn list tn_enemies_step takes): the first `cap` are written to
 * out (out NULL or cap <= 0: none), and the number of such tiles is
 * returned, which may exceed cap (call again with that many; 0 for a NULL
 * map).  O(W*H); allocates nothing. */
int tn_map_list_marks(const tn_map *m, int mark, int32_t *out, int cap);

/* Parse `len` bytes.  `name` is used in messages only ("FILE:LINE:COL: ...";
 * NULL: "map", so a message still says who speaks: "map:3:7: ..."; "":
 * ":3:7: ...", for a caller who puts a long path before it itself, whole).
 * On success *out owns a new map. */
tn_status tn_map_parse(const char *buf, size_t len, const char *name, const tn_allocator *a,
                       tn_map **out, tn_error *err);
/* Bytes tn_map_save() and tn_map_format() need (including the NUL); 0 when
 * m is NULL. */
size_t tn_map_format_size(const tn_map *m);
/* Write the tilenav-map text of m into buf, NUL-terminated; *written (may
 * be NULL) gets its length without the NUL.  `name` is used in messages
 * only (NULL: "map"), as in tn_map_parse.  Errors (err filled, buf and
 * *written not written):
 *  - INVALID_PARAM: m NULL ("map: no map to write"), a size outside
 *    1..TN_MAP_MAX_SIZE, no tile arrays, a start outside the map other
 *    than -1,-1, or a tile the text cannot hold as it is: terrain above
 *    TN_TILE_ONEWAY, content above TN_MARK_ITEM ("has an unknown terrain
 *    code", "... content code"), content on a block, a one-way platform or
 *    the start.  Such a tile is named with LINE:COL
 *    of its character in the text (err->line, err->col): "a.map:5:3: tile
 *    (2,1) has content on a block or one-way platform (terrain 1, content
 *    2; ...): not written".  Maps made by tn_map_parse or _create and
 *    changed through tn_map_set_tile / _set_mark are always written.
 *  - BUFFER_TOO_SMALL: buf NULL or cap < tn_map_format_size(m); the message
 *    gives both sizes.
 * The map is checked before the buffer's size.  err is cleared on
 * success.  O(W*H) (two passes); allocates nothing. */
tn_status tn_map_save(const tn_map *m, const char *name, char *buf, size_t cap, size_t *written,
                      tn_error *err);
/* tn_map_save(m, NULL, buf, cap, written, NULL): the same text and status
 * codes, without the message (kept for the callers from before
 * tn_map_save). */
tn_status tn_map_format(const tn_map *m, char *buf, size_t cap, size_t *written);

#ifdef __cplusplus
}
#endif

#endif
