/* SPDX-License-Identifier: Zlib */
/* tiled.h - maps made in the Tiled editor: .tmx (XML, read with libxml2) and
 * .tmj / .json (JSON, read with cJSON), loaded into a tn_map and saved back.
 *
 * Supported: orthogonal maps; tile layers as CSV or base64 (uncompressed,
 * zlib or gzip; zstd, and the old <tile> element encoding, are refused
 * with a message); finite maps and infinite maps (chunks: the map is the
 * bounding box of every tile layer's chunks); group layers; embedded
 * tilesets and external ones (.tsx, or .tsj/.json) by `source`, relative to
 * the file that names them (for a symbolic link: the file it points to).
 *
 * Terrain.  Every non-empty cell of every tile layer counts.  A gid's top
 * four bits are Tiled's flip flags (ignored; 0 with flags is empty); the
 * rest must be a tile of the tileset with the largest firstgid not above
 * it (below firstgid + tilecount, or its largest tile id): a gid of no
 * tileset is refused, naming the layer, the cell and the gid.  In this
 * order:
 *  1. the tile's `kind` property in its tileset: "block", "oneway", or
 *     "none" (decoration: ignored);
 *  2. without one, a cell of a layer named "oneway" is a one-way platform,
 *     any other cell a block.
 * Where layers overlap, block beats one-way beats empty.
 *
 * Game objects: objects of any object layer whose class (`type` before
 * Tiled 1.9) is "spawn", "dest", "item" or "start": point objects, tile
 * objects or rectangles, snapped to the tile under their centre (a point's
 * position; a tile object's as its tileset's objectalignment places it,
 * bottomleft when unspecified; a polygon's the middle of its points'
 * bounds), where Tiled draws it: moved by the offsetx/offsety of its
 * object layer and the group layers around it.  A turned (rotation) game
 * object other than a point is refused.  Every other object is not the
 * game's and is left alone.  Two
 * game objects on one tile, a spawn, dest or item on a block, one outside
 * the map or two starts are errors (a start on a block is the start under
 * it, as the game saves a covered start).
 *
 * Templates: an object with `template` (a .tx, XML, or .tj, JSON, file;
 * either in either map format; relative to the map file as tilesets are)
 * takes its template object's class, gid, size, rotation and shape where
 * it does not give its own (Tiled's rule).  The template's gid counts in
 * its own <tileset firstgid source>; it is mapped to the map's tileset of
 * the same file (realpath).  Each template file is read once per load
 * and kept parsed until the load ends; at most 4096 template files per
 * map, 1 MiB each, regular files only (never a device or a FIFO).  A
 * template that is missing, unreadable, malformed, not a template, holds
 * no or two objects, is nested (its object has a template) or names a
 * tileset the map lacks is an error at the object, unless the object has
 * a class of its own that is not the game's (then its template is not
 * read: the object is left alone).
 *
 * Offset tile layers: a layer whose offset (its groups' added) is a whole
 * number of tiles has its cells drawn that many tiles over (infinite maps:
 * the bounding box is of the chunks as drawn); a terrain cell drawn
 * outside a finite map is an error (dropping it would lose a wall Tiled
 * shows).  Any other offset is an error for a layer holding terrain
 * (decoration, kind "none", may have any offset).
 *
 * Saving over the file the map came from is refused (TN_SAVE_CHANGED, see
 * tn_origin_check in fileio.h) when that file changed on disk since it was
 * loaded or last saved: an edit made in Tiled meanwhile is never lost.
 * Saving (tn_tiled_save) re-reads the Tiled file the map came from (the
 * caller names it: `source`, the path the map was loaded from, never
 * process-wide state, so loading other maps does not change what a save
 * writes), changes in that document only
 *  - the cells whose terrain changed (in each layer, its cell drawn on
 *    that tile, its whole-tile offset applied): every terrain cell there
 *    is cleared (decoration stays), then a block goes into the terrain
 *    layer (the tile layer not named "oneway", and not offset by part of a
 *    tile, holding the most blocks; the first of them on a tie; an error
 *    when it has no cell drawn there) with a tile whose kind is block (or, in an image
 *    collection only among the tiles it lists,
 *    one without kind), a one-way platform there with a tile whose kind is
 *    oneway or, lacking one, into the layer named "oneway";
 *  - the game's objects: those that still match a mark are kept as they
 *    are, the others removed, new marks added as point objects to the
 *    first object layer holding game objects (or a new layer "tilenav"),
 *    their class in `type` (which every Tiled reads) unless the map's first
 *    game object uses `class`;
 * and writes it back with the same encoding and compression per layer
 * (only the chunks holding a changed cell are encoded anew: the others keep
 * their text, whatever compression level or gzip header made it), in
 * the same format, with the same line breaks (LF, CRLF or CR alone: the
 * kind the file has most of, its first break's on a tie) and UTF-8 BOM,
 * atomically (tn_write_file_atomic).  Everything else
 * (layers, tilesets, properties, other objects) is kept: TMX as libxml2
 * prints it (for files laid out like Tiled's, byte for byte outside the
 * edited nodes; always declared UTF-8), TMJ equal as JSON (cJSON's layout; a
 * number the save does not change keeps its text, but an edited tile layer's
 * data array is written anew: its cells as plain integers).  When the document is saved
 * into another directory (the directory of the file written: a symbolic
 * link's target), relative tileset, image and object template paths are
 * rewritten.
 * Without an origin of the same format and size (a map loaded from a
 * tilenav or Moving AI file, or from a Tiled file of the other format), a
 * new document is written
 * with an embedded tileset "tilenav" (kinds block and oneway, image
 * tilenav.png next to the map).  Every save is re-read in memory and must
 * load equal to the map before it is written.
 *
 * Errors, -1 with a message that says where: .tmx "FILE:LINE: problem"
 * (the offending element's line, xmlGetLineNo; a CSV cell's own line; in
 * an external .tsx the map's <tileset> line, and the .tsx line after its
 * name), .tmj "FILE: $.JSON.PATH: problem" (cJSON keeps no positions;
 * "FILE: problem" for the map as a whole); syntax errors "FILE:LINE: XML
 * error: ..." and "FILE:LINE:COL: not valid JSON" (also for text after the
 * document and a raw control character in a string); a NUL byte is
 * "FILE:LINE:COL: binary data (a NUL byte)" (not in UTF-16/32 XML); a key
 * twice in one JSON object is "FILE: PATH: the key ... is given twice".
 * Lines end at LF, CRLF or a lone CR (an old Mac file: libxml2 counts LFs
 * only, so such a .tmx is parsed with its lone CRs as LFs, as XML reads
 * them anyway).
 * Limits, all checked before anything is
 * decoded or inflated: map files up to TN_TILED_FILE_MAX bytes (a larger
 * one is refused naming the limit, suggesting base64+zlib; a save that
 * would write a larger one is refused too), tilesets up to TN_MAP_FILE_MAX; a
 * layer or the chunks' bounding box up to TN_MAP_MAX_SIZE each way; at most
 * 2^28 tiles in all layers and chunks together; inflated data is bounded by
 * its layer's own size (a longer stream is an error, so a decompression
 * bomb costs one 64 KiB piece).  libxml2 parses without network access or
 * entity substitution (its amplification guard refuses entity bombs).
 *
 * Memory: loading holds the file, the parsed document (libxml2 tree; cJSON
 * tree plus a copy of the text), the parsed templates it names (each at
 * most 1 MiB of text) and the map (2 bytes a cell); decoding
 * streams in 64 KiB pieces.  Saving also holds 5 bytes a cell per tile
 * layer (gids and chunk coverage).
 * Keeps no state between calls.
 * CSV .tmj: long "data" arrays of plain numbers (valid JSON: one comma
 * between numbers, none trailing, no leading zeros; anything else is left
 * to cJSON, which refuses it with its position) are read from the text by
 * the CSV decoder instead of as one cJSON node each (see blank_arrays in
 * tiled.c); cJSON still parses and validates the whole document.
 * Cost: a 512x512 .tmj (CSV or base64+zlib) loads in about 5 ms of CPU,
 * 12-17 ms wall on the loaded 2-core test machine (`tilenav-bench tiled`);
 * tilenav's own format takes about 1.2 ms.
 */
#ifndef TN_TILED_H
#define TN_TILED_H

#include <stdbool.h>
#include <stddef.h>

#include "tn_map.h"

enum { TN_TILED_TMX = 1, TN_TILED_TMJ = 2 };

/* The largest Tiled map file read (and written: a save that would pass it
 * is refused, so a saved file always loads again).  Sized for the largest
 * map, 4096x4096, in CSV with the longest tile numbers Tiled writes (10
 * digits: a gid with flip flags) and a separator each (TMJ ", ", 12 bytes
 * a cell; TMX "," and a line break a row), plus 1 MiB for the XML or JSON
 * around the tiles (tilesets, objects, properties): 193 MiB.  Tilenav's
 * own .map format, one byte a tile, has the smaller TN_MAP_FILE_MAX. */
#define TN_TILED_FILE_MAX ((size_t)4096 * 4096 * 12 + (size_t)4096 * 2 + ((size_t)1 << 20))

/* TN_TILED_TMX for *.tmx, TN_TILED_TMJ for *.tmj and *.json, else 0. */
int tn_tiled_kind(const char *path);

/* A Tiled map file of `size` bytes: 0 when within TN_TILED_FILE_MAX, else
 * -1 with a message naming path, the size, the limit and the remedy
 * (base64+zlib in Tiled); `saving`: a document a save would write. */
int tn_tiled_too_big(const char *path, unsigned long long size, bool saving, char *err, size_t cap);

/* Load a Tiled map file. */
int tn_tiled_load(const char *path, tn_map **out, char *err, size_t cap);
/* tn_tiled_load, with what the file held in *held for the caller to keep
 * or free (tn_load_map_held in fileio.h). */
struct tn_origin;
int tn_tiled_load_held(const char *path, tn_map **out, struct tn_origin *held, char *err,
                       size_t cap);

/* Load from memory.  `path` names the input in messages and is where
 * relative tileset paths start; `fmt` is TN_TILED_TMX or TN_TILED_TMJ. */
int tn_tiled_load_buffer(const char *buf, size_t len, const char *path, int fmt, tn_map **out,
                         char *err, size_t cap);

/* The Tiled document for `m` in memory: `tmpl` (len bytes, read from
 * tmpl_path; NULL for a new document) patched as described above, for a
 * file at out_path.  *out is malloc()ed (NUL-terminated). */
int tn_tiled_format(const tn_map *m, const char *tmpl, size_t tmpl_len, const char *tmpl_path,
                    const char *out_path, int fmt, char **out, size_t *out_len, char *err,
                    size_t cap);

/* The game's assets directory, for the tileset image a new document names
 * (relative to the saved file; "tilenav.png" until this is called). */
void tn_tiled_set_assets(const char *dir);

/* Save `m` as a Tiled map (format from the extension of path), loaded
 * from `source` (NULL: from `path` itself, a save over its own file).  The
 * template is `source` when it is a Tiled file of the same format (and
 * still has m's size), else a new document; `source` == `path` no longer
 * on disk writes a new document too. */
int tn_tiled_save(const tn_map *m, const char *path, const char *source, char *err, size_t cap);

/* True, with a warning in out, when saving to `path` from `source` writes a
 * new document although `source` is a Tiled map: one of the other format
 * (.tmx <-> .tmj), whose layers, tilesets, properties and other objects
 * the new document does not hold. */
bool tn_tiled_save_drops(const char *path, const char *source, char *out, size_t cap);

#endif
