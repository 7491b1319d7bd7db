/* fileio.h - whole-file reads with a size limit, and atomic saves.
 * POSIX (open/fstat/fsync/rename, flock); used by the front ends only. */
#ifndef TN_FILEIO_H
#define TN_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tn_map.h"

/* Largest map file accepted: a 4096x4096 map plus a generous header. */
#define TN_MAP_FILE_MAX ((size_t)4096 * 4097 + 65536)

/* Read all of `path` (at most `max` bytes: a larger file is refused before
 * reading).  *out is NUL-terminated and must be free()d.  0, or -1 with
 * "PATH: problem" in err.  Never waits for a writer: a directory, a FIFO
 * (named pipe), a device or a socket is refused unless it is a file this
 * process already has open (its standard input as /dev/stdin, /dev/fd/N). */
int tn_read_file(const char *path, size_t max, char **out, size_t *len, char *err, size_t cap);

/* What a map file held when it was read: its identity (the path with
 * every link resolved, NULL when unknown), length and a 64-bit FNV-1a hash
 * of its bytes, and the path as it was given (`name`, NULL when unknown). */
typedef struct tn_origin {
    char *key;
    char *name;
    uint64_t hash;
    size_t len;
} tn_origin;

/* Load a map file (tilenav, Moving AI or Tiled format).  What the file
 * held is remembered for it (tn_origin_keep), so a save over it can tell
 * whether it changed on disk since. */
int tn_load_map(const char *path, tn_map **out, char *err, size_t cap);

/* tn_load_map, remembering nothing yet: what the file held is in *held
 * (also on failure: nothing to free then).  The caller passes it to
 * tn_origin_keep once the map is in use (the world took it), else to
 * tn_origin_free: a map the world refused leaves the record as it was. */
int tn_load_map_held(const char *path, tn_map **out, tn_origin *held, char *err, size_t cap);

/* The process table of what each map file held when it was last loaded or
 * saved, by file identity (./x.map, /abs/x.map and a link to it are one
 * file; a file that does not exist has no record).  Not thread-safe;
 * tn_load_map, tn_tiled_load and the saves keep it.  tn_origin_make
 * describes `buf` as read from `path`; tn_origin_keep records it (and
 * takes its key); tn_origin_free drops it; tn_origin_note is make + keep. */
void tn_origin_make(tn_origin *o, const char *path, const char *buf, size_t len);
void tn_origin_keep(tn_origin *o);
void tn_origin_free(tn_origin *o);
void tn_origin_note(const char *path, const char *buf, size_t len);

/* After `buf` was written to `path`: recorded when `own` (a save over the
 * file the map came from) or when the file has a record (whatever name it
 * was saved under), so the next save over it is checked against it. */
void tn_origin_saved(const char *path, const char *buf, size_t len, bool own);

/* True when `a` and `b` name one file (the same path, or the same file
 * once links, "." and ".." are resolved). */
bool tn_same_file(const char *a, const char *b);

/* Returned by the saves (instead of -1) when the file a map came from
 * changed on disk since it was loaded: nothing was written. */
#define TN_SAVE_CHANGED (-2)

/* Returned by the saves (instead of -1) when the file's format cannot hold
 * the map (a Moving AI map with one-way platforms, marks or a start):
 * nothing was written, and err is "PATH: is a Moving AI map, which cannot
 * hold one-way platforms: not saved (the old file is untouched)" followed
 * by TN_SAVE_UNFIT_HINT (advice for scripts; the window, which has no
 * `save FILE`, puts the edits into the autosave instead and says so). */
#define TN_SAVE_UNFIT (-3)
#define TN_SAVE_UNFIT_HINT "; use `save FILE` in a script to write a tilenav map under another name"

/* 0 when a save may replace `path`: it was never loaded (no record), it is
 * gone (the save itself then decides), or it holds exactly what was loaded
 * or last saved there.  Else TN_SAVE_CHANGED with "PATH changed on disk
 * since it was loaded (...): not overwritten; ..." in err, or, when it
 * is there but cannot be read (larger than the read limit, EACCES, EIO:
 * it may hold anything), "PATH: not overwritten: it cannot be read to
 * check that it still holds what was loaded (WHY), ...".
 * The name `path` is checked too: one that now names another file than
 * when it was loaded or saved by it (a symbolic link pointed elsewhere)
 * with other bytes than it had is refused the same way ("PATH now names
 * another file ..."), so a save never goes through a re-pointed link into
 * another map; the same bytes behind a new link (the file moved and linked
 * to) pass. */
int tn_origin_check(const char *path, char *err, size_t cap);

/* Write `len` bytes to `path` atomically.  A crash at any point leaves
 * either the old or the new file; concurrent writers never see each other.
 *  - a symbolic link is resolved: the file it points to is replaced (the
 *    link stays), its directory holds the temporary;
 *  - refused (-1, the old file untouched): a target that exists and is not
 *    a regular file (device, FIFO, socket, directory), a read-only file;
 *  - saves in one directory take turns: flock on the directory, at most
 *    10 s of waiting (tn_save_set_lock_wait), and none when the last wait
 *    for that directory, just before, was in vain; temporaries of killed saves (exactly
 *    BASE.tmp-PID-XXXXXXXX, 8 lowercase hex digits, whose process is gone)
 *    are removed;
 *  - the temporary BASE.tmp-PID-N (BASE: the file's name, cut to 200 bytes
 *    so that the temporary's fits wherever the file's does) is created
 *    with O_CREAT|O_EXCL|O_NOFOLLOW
 *    (never an existing file or a planted link), gets the old file's mode
 *    (and owner where allowed), is written, fsynced, renamed over the
 *    target, and the directory is fsynced.
 * 0, or -1 with "PATH: problem" in err ("the old file is untouched" only
 * when that is so).  Not thread-safe with itself (one counter). */
int tn_write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t cap);

/* How long a save waits for another save into its directory, in ms
 * (10000 by default; the window, which freezes while it waits, 1500). */
void tn_save_set_lock_wait(int ms);

/* Format and atomically save a map.  The file it replaces decides the
 * format: a Moving AI map stays one (its header kept, and its letter on
 * every tile whose passable/blocked class did not change; one-way tiles,
 * marks or a start are refused, TN_SAVE_UNFIT); a
 * tilenav map keeps its comment and blank lines (leading, among the header
 * lines in place, after the last row; the rest when it no longer parses:
 * the leading ones).  A new file is
 * written in the tilenav format.  Tiled maps (.tmx .tmj .json) go to
 * tn_tiled_save (see tiled.h), with `path` as the file the map came from
 * (a save over its own file).  A save over the file the map came from
 * that changed on disk since it was loaded (edited in Tiled or another
 * editor) is refused: TN_SAVE_CHANGED, see tn_origin_check. */
int tn_save_map(const tn_map *m, const char *path, char *err, size_t cap);

/* tn_save_map, for a map loaded from `source` (NULL: unknown): written in
 * the tilenav format to another file than `source`, it keeps the leading
 * comment lines of `source` (a tilenav map) rather than the target's, so
 * `save FILE` and the autosave carry them as a save over `source` does.
 * The target still decides the format (a Moving AI file stays one).  A
 * Tiled target is patched into `source`'s document when that is a Tiled
 * file of the same format (NULL: `path`'s own). */
int tn_save_map_as(const tn_map *m, const char *path, const char *source, char *err, size_t cap);

/* 0 when a save chosen by name (a script's `save FILE`) may replace
 * `path`: nothing is there, an empty file, something other than a regular
 * file (the save itself refuses those), or a map the game reads (tilenav,
 * Moving AI, Tiled: loaded in memory, nothing recorded).  Else -1 with
 * "PATH: not replaced: it is not a map the game reads (LOADER'S MESSAGE);
 * ..." in err: a typo must not turn the script being run, notes.txt or a
 * package.json into a map. */
int tn_save_target_check(const char *path, char *err, size_t cap);

/* Apply to `dst` the tiles `edited` changed from `base` (terrain, content
 * and the start, each tile whole): the user's edits onto a map reloaded
 * after it was edited outside.  All three must have one size: else -1,
 * nothing changed.  Returns the number of tiles applied; *conflicts (when
 * not NULL) gets how many of them `dst` had changed too (outside edits
 * replaced by the user's). */
int tn_map_merge_edits(tn_map *dst, const tn_map *base, const tn_map *edited, int *conflicts);

/* "PATH.autosave" into out: 0, or -1 when it does not fit in cap bytes
 * (out is then "", and err says so, the reason before the path: a cut
 * name could be the map itself).  A map whose file name is too long for
 * NAME.autosave and the names an older autosave is set aside to
 * (NAME.autosave.999) in its directory (NAME_MAX, 255 bytes on Linux: a
 * name of 243 bytes or more) gets DIR/PREFIX~HHHHHHHHHHHHHHHH.autosave:
 * its name's first bytes (cut at a UTF-8 character boundary, so that the
 * whole name takes NAME_MAX - 4 bytes) and the 64-bit FNV-1a hash of the
 * whole name in hex.  Two long names alike in their first 225 bytes thus
 * get two autosaves; the one map whose own autosave could have that name
 * is a map named PREFIX~HHHHHHHHHHHHHHHH, whose name holds the hash of a
 * longer name.  Such names got no autosave at all ("File name too
 * long"). */
int tn_autosave_path(const char *map_path, char *out, size_t cap, char *err, size_t errcap);
/* Where the game keeps a map's autosave: tn_autosave_path beside the map
 * when the map is a regular file (or none yet) whose directory can be
 * written by this user and the name fits, else (a map in a system or
 * read-only directory, a pipe or a device such as /dev/fd/63, a path too
 * long: so that unsaved edits are never lost for want of a place)
 * tn_autosave_data_path.  0, or -1 with the reason in err. */
int tn_autosave_path_for(const char *map_path, bool make_dirs, char *out, size_t cap, char *err,
                         size_t errcap);
/* The autosave in the user's data folder:
 * DATA/tilenav/autosave/NAME~HHHHHHHHHHHHHHHH.autosave, DATA being
 * $XDG_DATA_HOME or ~/.local/share, NAME the map's file name (its first
 * 100 bytes, cut at a UTF-8 boundary) and H the FNV-1a hash of its
 * absolute path, so two maps of one name in two directories get two; for
 * a map read from a pipe or a device (tn_map_read_once), the hash of the
 * bytes read, so maps piped through one path (/dev/fd/63) get one each,
 * and the same map piped again finds its own.
 * The directories are made (0755) when `make_dirs`.  0, or -1 with the
 * reason in err (no DATA: neither variable is set). */
int tn_autosave_data_path(const char *map_path, bool make_dirs, char *out, size_t cap, char *err,
                          size_t errcap);
/* The autosave of `map_path` that is there: tn_autosave_path_for's, or the
 * data folder's (written when the write beside the map failed); both
 * there: the newer.  0 with its path in out, else -1 (err says why). */
int tn_autosave_find(const char *map_path, char *out, size_t cap, char *err, size_t errcap);
/* The older autosaves set aside beside `path` (PATH.1, PATH.2, ...: the
 * edits of earlier sessions never restored): how many of PATH.1 .. .999
 * exist, the highest of them in *last (0: none). */
int tn_autosave_older(const char *path, int *last);
/* The older autosaves beside `path` in words, into msg: "PATH.1", or
 * "3 files, PATH.N (the newest PATH.7)"; "" for none.  Returns how many. */
int tn_autosave_older_note(const char *path, char *msg, size_t cap);
/* What the game says of a map's autosaves when it starts it (into msg):
 * 1, an autosave R restores ("PATH holds edits that were never saved:
 * press R to restore them", with the older ones set aside beside it); 2,
 * none, but older ones set aside by earlier sessions that R does not
 * restore (how to get them back); 0, none of either (msg ""). */
int tn_autosave_offer(const char *map_path, char *msg, size_t cap);
/* Writes the autosave to `path`: 0, or -1 with "PATH: problem" in err. */
typedef int (*tn_autosave_writer)(void *ctx, const char *path, char *err, size_t cap);
/* Write the autosave of `map_path` with `write`: at tn_autosave_path_for,
 * and when that write fails (a full disk beside the map, a name there
 * that is no file), in the data folder (tn_autosave_data_path) before
 * giving up.  An autosave already at the place written that is not `ours`
 * (the one this session wrote; NULL: none) is set aside first
 * (tn_autosave_set_aside), its new name in kept (else "").  0 with the
 * path written in out and in err "" or, when it went to the data folder
 * after all, why not beside the map; -1 with the reasons in err. */
int tn_autosave_write(const char *map_path, const char *ours, tn_autosave_writer write, void *ctx,
                      char *out, size_t cap, char *kept, size_t keptcap, char *err, size_t errcap);

/* Advice the window can give to keep a file it would replace (it has no
 * "save as"): "first copy PATH to PATH.outside", naming a free name
 * (PATH.outside-2, -3, ... when that is taken). */
void tn_copy_aside_hint(const char *path, char *out, size_t cap);

/* Cut a save's message for the window: "; save under another name
 * (script: save OTHER) ..." is a script's advice, which the window (no
 * "save as") cannot follow. */
void tn_drop_script_hint(char *err);

/* True when `path` ends in ".bmp" (any case): screenshots are BMP images
 * (SDL_SaveBMP; the game has no PNG writer), and a file named .png holding a
 * BMP would mislead every program that opens it. */
bool tn_is_bmp_name(const char *path);

/* printf-style to `f` (stderr, stdout), made safe for a terminal: the
 * text goes through tn_text_shown (tn_world.h), so a map, script or object
 * name with control characters prints them as \xNN instead of recolouring
 * or retitling the terminal or faking a line; one final newline of `fmt`
 * is kept.  At most 4 KB of text. */
void tn_print_shown(FILE *f, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* 0 when a screenshot may be written to `path`: nothing is there, an
 * empty file, or a BMP image (a regular file starting with "BM": an older
 * screenshot).  Else -1 with "PATH: not replaced: it is not a BMP image
 * ..." (naming the file a symbolic link points to) or, for a directory, a
 * pipe or a device, the save's message in err: a screenshot never turns a
 * map (through a link, or a typo) into a picture. */
int tn_screenshot_target_check(const char *path, char *err, size_t cap);

/* Text the game reads by lines (maps, scripts) in a form it does not
 * read: UTF-16 (a byte-order mark 0xff 0xfe or 0xfe 0xff) or old Mac
 * line ends (a carriage return followed by neither a line feed nor another
 * CR).  1 with the line and column (from 1) and what to do in `what`, else
 * 0.  Both the map loader and the script parser refuse such text. */
int tn_text_check(const char *buf, size_t len, int *line, int *col, char *what, size_t cap);

/* True when map `path` is a pipe (or device) the game read once and keeps
 * a copy of: tn_load_map and a reset of it read that copy, since the pipe
 * itself has nothing left to read (cat x.map | tilenav --map /dev/stdin). */
bool tn_map_read_once(const char *path);

/* Where the start (sx, sy) of the tilenav map `path` is written: its
 * `start X Y` line (the column of X) or the 'P' in its tile rows.  0 with
 * *line and *col (from 1), else -1 (a Tiled or Moving AI map, a file that
 * changed). */
int tn_map_start_where(const char *path, int sx, int sy, int *line, int *col);

/* True when `path` is a regular file (through symbolic links). */
bool tn_is_regular_file(const char *path);

/* Keep an autosave the running game did not write (older unsaved edits,
 * never restored) before the game writes its own at `path`: a regular file
 * or a symbolic link there is renamed to the first free PATH.N (N = 1..999;
 * never over an existing file).  0 with that name in `kept` ("" when
 * nothing was there or it is not a file: the write then fails with its own
 * message), or -1 with "PATH: problem" in err (nothing moved). */
int tn_autosave_set_aside(const char *path, char *kept, size_t keptcap, char *err, size_t cap);
/* Rename the file (or link) `path` to the first free name of PATH SUFFIX
 * (when first is 0), PATH SUFFIX.1 .. .999, never replacing a file there;
 * its new name in kept.  0 also when there is no such file (kept "");
 * -1 with a message naming `what` ("the older autosave").  Both
 * tn_autosave_set_aside (SUFFIX "", from .1) and the settings'
 * SETTINGS.bad use it. */
int tn_move_aside(const char *path, const char *suffix, int first, const char *what, char *kept,
                  size_t keptcap, char *err, size_t cap);

#endif
