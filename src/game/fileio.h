/* fileio.h - whole-file reads with a size limit, and atomic saves.
 * POSIX (open/fstat/fsync/rename); used by the front ends only. */
#ifndef TN_FILEIO_H
#define TN_FILEIO_H

#include <stddef.h>

#include "tn_map.h"

/* Largest map file accepted: a 4096x4096 map plus a generous header. */
#define TN_MAP_FILE_MAX ((size_t)4096 * 4097 + 65536)

/* Read all of `path` (at most `max` bytes: a larger file is refused before
 * reading).  *out is NUL-terminated and must be free()d.  0, or -1 with
 * "PATH: problem" in err. */
int tn_read_file(const char *path, size_t max, char **out, size_t *len, char *err, size_t cap);

/* Load a map file (tilenav or Moving AI format; Tiled .tmx/.tmj/.json by
 * extension, see tiled.h). */
int tn_load_map(const char *path, tn_map **out, char *err, size_t cap);

/* Write `len` bytes to `path` atomically: PATH.tmp, write, fsync, rename.
 * A crash at any point leaves either the old or the new file. */
int tn_write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t cap);

/* Format and atomically save a map (Tiled by extension, see tiled.h). */
int tn_save_map(const tn_map *m, const char *path, char *err, size_t cap);

/* "PATH.autosave" into out. */
void tn_autosave_path(const char *map_path, char *out, size_t cap);

#endif
