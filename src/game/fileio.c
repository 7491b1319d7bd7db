#define _DEFAULT_SOURCE /* flock, realpath */
#define _POSIX_C_SOURCE 200809L
#include "fileio.h"
#include "tiled.h"
#include "tn_world.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* True when the file st describes is one this process was given open
 * (its standard input, a /dev/fd/N of the shell's process substitution):
 * another descriptor than fd refers to it. */
static bool own_descriptor(const struct stat *st, int fd)
{
    for (int i = 0; i < 1024; i++) {
        struct stat o;
        if (i != fd && fstat(i, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino)
            return true;
    }
    return false;
}

/* The most a map file may hold: Tiled's text (CSV) is larger than the
 * .map format's byte a tile (tiled.h, TN_TILED_FILE_MAX). */
static size_t map_file_max(const char *path)
{
    return tn_tiled_kind(path) ? TN_TILED_FILE_MAX : TN_MAP_FILE_MAX;
}

int tn_read_file(const char *path, size_t max, char **out, size_t *len, char *err, size_t cap)
{
    *out = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO no program writes to would wait forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, cap, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, cap, "%s: is a directory, not a file", path);
        close(fd);
        return -1;
    }
    /* A named FIFO or a device would wait for a writer (or a key) forever:
     * refused.  A pipe this process was given (--script /dev/stdin) is read. */
    if (!S_ISREG(st.st_mode) && !own_descriptor(&st, fd)) {
        snprintf(err, cap, "%s: is %s, not a regular file: not read", path,
                 S_ISFIFO(st.st_mode)                         ? "a FIFO (named pipe)"
                 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                 : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                              : "not a plain file");
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        snprintf(err, cap, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > (unsigned long long)max) {
        snprintf(err, cap, "%s: file is %lld bytes, larger than the %zu-byte limit", path,
                 (long long)st.st_size, max);
        close(fd);
        return -1;
    }
    /* a size of 0 may be a file whose size is not known (procfs, some FUSE
     * file systems): read on as from a pipe, never "empty" unread */
    size_t size = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size
                  : max < 4096                          ? max
                                                        : 4096,
           used = 0;
    char *buf = malloc(size + 1);
    if (!buf) {
        snprintf(err, cap, "%s: out of memory", path);
        close(fd);
        return -1;
    }
    for (;;) {
        if (used == size) { /* a pipe or a file that grew: read on, within the limit */
            if (size >= max) {
                /* exactly max bytes is within the limit: only a byte more
                 * is too large */
                char more;
                ssize_t k;
                do k = read(fd, &more, 1);
                while (k < 0 && errno == EINTR);
                if (k == 0) break;
                if (k < 0)
                    snprintf(err, cap, "%s: read error: %s", path, strerror(errno));
                else
                    snprintf(err, cap, "%s: larger than the %zu-byte limit", path, max);
                free(buf);
                close(fd);
                return -1;
            }
            size_t nsize = size * 2 > max ? max : size * 2;
            char *nb = realloc(buf, nsize + 1);
            if (!nb) {
                snprintf(err, cap, "%s: out of memory", path);
                free(buf);
                close(fd);
                return -1;
            }
            buf = nb;
            size = nsize;
        }
        ssize_t n = read(fd, buf + used, size - used);
        if (n < 0) {
            if (errno == EINTR) continue;
            snprintf(err, cap, "%s: read error: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (n == 0) break;
        used += (size_t)n;
    }
    close(fd);
    buf[used] = '\0';
    *out = buf;
    *len = used;
    return 0;
}

/* The text of the line starting at buf[*pos] (without "\n" or "\r\n") in
 * [*s, *s + *n); false at the end. */
static bool take_line(const char *buf, size_t len, size_t *pos, const char **s, size_t *n)
{
    if (*pos >= len) return false;
    const char *start = buf + *pos, *nl = memchr(start, '\n', len - *pos);
    size_t l = nl ? (size_t)(nl - start) : len - *pos;
    *pos += l + (nl ? 1 : 0);
    *s = start;
    *n = l > 0 && start[l - 1] == '\r' ? l - 1 : l;
    return true;
}

static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return false;
    return true;
}

/* ---- what each map file held when it was loaded ---------------------- */

/* A file's identity: its path with every symbolic link, "." and ".."
 * resolved (./x.map, /abs/x.map and a link to it are one file); NULL when
 * it does not exist (a new file has no record). */
static char *origin_key(const char *path) { return realpath(path, NULL); }

static tn_origin *origins;
static int norigins, corigins;

static uint64_t fnv1a(const char *buf, size_t len)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)buf[i];
        h *= 1099511628211ull;
    }
    return h;
}

static tn_origin *find_origin(const char *key)
{
    if (!key) return NULL;
    for (int i = 0; i < norigins; i++)
        if (strcmp(origins[i].key, key) == 0) return &origins[i];
    return NULL;
}

/* Which file each name (a path as given) named when a map was last loaded
 * or saved by it: a name that names another file now (a symbolic link
 * pointed elsewhere) is not a save over the file the map came from. */
typedef struct origin_name {
    char *name, *key;
} origin_name;
static origin_name *onames;
static int nonames, conames;

/* Room for one more of n elements of `size` bytes in *arr (capacity *cap,
 * doubled from 16 when full).  False, with *arr and *cap unchanged, when
 * there is no memory. */
static bool room_for_one(void **arr, int n, int *cap, size_t size)
{
    if (n < *cap) return true;
    int nc = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, (size_t)nc * size);
    if (!p) return false;
    *arr = p;
    *cap = nc;
    return true;
}

static origin_name *find_name(const char *name)
{
    for (int i = 0; name && i < nonames; i++)
        if (strcmp(onames[i].name, name) == 0) return &onames[i];
    return NULL;
}

static void note_name(const char *name, const char *key)
{
    if (!name || !key) return;
    origin_name *r = find_name(name);
    char *k = strdup(key);
    if (!k) return;
    if (r) {
        free(r->key);
        r->key = k;
        return;
    }
    void *arr = onames;
    bool room = room_for_one(&arr, nonames, &conames, sizeof *onames);
    onames = arr;
    if (!room) { /* no memory: that name is not checked */
        free(k);
        return;
    }
    char *nm = strdup(name);
    if (!nm) {
        free(k);
        return;
    }
    onames[nonames++] = (origin_name){nm, k};
}

bool tn_same_file(const char *a, const char *b)
{
    if (strcmp(a, b) == 0) return true;
    char *ka = origin_key(a), *kb = ka ? origin_key(b) : NULL;
    bool same = ka && kb && strcmp(ka, kb) == 0;
    free(ka);
    free(kb);
    return same;
}

void tn_origin_make(tn_origin *o, const char *path, const char *buf, size_t len)
{
    o->key = origin_key(path);
    o->name = strdup(path);
    o->hash = fnv1a(buf, len);
    o->len = len;
}

void tn_origin_free(tn_origin *o)
{
    free(o->key);
    free(o->name);
    o->key = o->name = NULL;
}

void tn_origin_keep(tn_origin *o)
{
    note_name(o->name, o->key);
    free(o->name);
    o->name = NULL;
    if (!o->key) return; /* no identity (or no memory for it): not checked */
    tn_origin *r = find_origin(o->key);
    if (r) {
        free(o->key);
    } else {
        void *arr = origins;
        bool room = room_for_one(&arr, norigins, &corigins, sizeof *origins);
        origins = arr;
        if (!room) { /* no record: that save is not checked */
            tn_origin_free(o);
            return;
        }
        r = &origins[norigins++];
        r->key = o->key;
    }
    r->hash = o->hash;
    r->len = o->len;
    o->key = NULL;
}

void tn_origin_note(const char *path, const char *buf, size_t len)
{
    tn_origin o;
    tn_origin_make(&o, path, buf, len);
    tn_origin_keep(&o);
}

void tn_origin_saved(const char *path, const char *buf, size_t len, bool own)
{
    tn_origin o;
    tn_origin_make(&o, path, buf, len);
    if (own || find_origin(o.key))
        tn_origin_keep(&o);
    else
        tn_origin_free(&o);
}

int tn_origin_check(const char *path, char *err, size_t cap)
{
    char *key = origin_key(path);
    const origin_name *was = find_name(path);
    /* the name now names another file: compared with what the name's
     * file held, not with the record (if any) of the file it names now */
    bool moved = key && was && strcmp(was->key, key) != 0;
    const tn_origin *o = find_origin(moved ? was->key : key);
    if (!o && !moved) {
        free(key);
        return 0;
    }
    char *buf, rerr[512];
    size_t len;
    if (tn_read_file(path, map_file_max(path), &buf, &len, rerr, sizeof rerr) != 0) {
        /* A file that is there but cannot be read (too large, EACCES, EIO)
         * may hold anything now: it counts as changed, never replaced
         * unseen.  (A file that is gone has no key: passed above.) */
        const char *why = rerr;
        size_t pl = strlen(path);
        if (strncmp(why, path, pl) == 0 && why[pl] == ':') why += pl + 1;
        while (*why == ' ') why++;
        snprintf(err, cap,
                 "%s: not overwritten: it cannot be read to check that it still holds what was "
                 "loaded (%s), so another program may have replaced it; save under another "
                 "name (script: save OTHER), or see what the file is now",
                 path, why);
        free(key);
        return TN_SAVE_CHANGED;
    }
    bool same = o && len == o->len && fnv1a(buf, len) == o->hash;
    free(buf);
    if (same) {
        free(key);
        return 0;
    }
    if (moved)
        snprintf(err, cap,
                 "%s now names another file (%s) than when it was loaded (%s), with other "
                 "contents: not overwritten; save under another name (script: save OTHER) or "
                 "reload it (Ctrl+R)",
                 path, key, was->key);
    else
        snprintf(err, cap,
                 "%s changed on disk since it was loaded (edited in Tiled or another editor?): "
                 "not overwritten; save under another name (script: save OTHER) or reload it "
                 "(Ctrl+R)",
                 path);
    free(key);
    return TN_SAVE_CHANGED;
}

/* What maps read from a pipe held (a pipe gives its bytes once: a reset
 * or a second load of /dev/stdin would read nothing), by the name given. */
typedef struct pipe_copy {
    char *path, *buf;
    size_t len;
} pipe_copy;
static pipe_copy pipe_copies[8];

static pipe_copy *find_pipe_copy(const char *path)
{
    for (size_t i = 0; i < sizeof pipe_copies / sizeof pipe_copies[0]; i++)
        if (pipe_copies[i].path && strcmp(pipe_copies[i].path, path) == 0) return &pipe_copies[i];
    return NULL;
}

/* True when `path` names no regular file or directory: a pipe, a device. */
static bool is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static void keep_pipe_copy(const char *path, const char *buf, size_t len)
{
    pipe_copy *pc = find_pipe_copy(path);
    if (!pc)
        for (size_t i = 0; i < sizeof pipe_copies / sizeof pipe_copies[0] && !pc; i++)
            if (!pipe_copies[i].path) pc = &pipe_copies[i];
    if (!pc) return; /* (eight pipes: the ninth is read again, as before) */
    char *p = strdup(path), *b = malloc(len + 1);
    if (!p || !b) {
        free(p);
        free(b);
        return;
    }
    memcpy(b, buf, len);
    b[len] = '\0';
    free(pc->path);
    free(pc->buf);
    *pc = (pipe_copy){p, b, len};
}

bool tn_map_read_once(const char *path) { return is_special(path) && find_pipe_copy(path); }

/* The text of map `path` as the game reads it: the copy kept of a pipe,
 * else the file (tn_read_file). */
static int read_map_text(const char *path, char **buf, size_t *len, char *err, size_t cap)
{
    const pipe_copy *pc = is_special(path) ? find_pipe_copy(path) : NULL;
    if (!pc) return tn_read_file(path, map_file_max(path), buf, len, err, cap);
    *buf = malloc(pc->len + 1);
    if (!*buf) {
        snprintf(err, cap, "%s: out of memory", path);
        return -1;
    }
    memcpy(*buf, pc->buf, pc->len + 1);
    *len = pc->len;
    return 0;
}

int tn_text_check(const char *buf, size_t len, int *line, int *col, char *what, size_t cap)
{
    *line = *col = 1;
    const unsigned char b0 = len >= 2 ? (unsigned char)buf[0] : 0,
                        b1 = len >= 2 ? (unsigned char)buf[1] : 0;
    if ((b0 == 0xff && b1 == 0xfe) || (b0 == 0xfe && b1 == 0xff)) { /* either byte order */
        snprintf(what, cap,
                 "looks like UTF-16 text (it starts with the bytes 0x%02x 0x%02x, a "
                 "UTF-16 byte-order mark): save it as UTF-8",
                 b0, b1);
        return 1;
    }
    size_t bol = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n') {
            ++*line;
            bol = i + 1;
        } else if (buf[i] == '\r' && i + 1 < len && buf[i + 1] != '\n' && buf[i + 1] != '\r') {
            *col = (int)(i - bol) + 1;
            snprintf(what, cap,
                     "a carriage return (CR) with no line feed after it ends the line: the file "
                     "uses old Mac (CR-only) line endings; save it with LF (or CRLF) line "
                     "endings");
            return 1;
        }
    }
    *line = *col = 0;
    return 0;
}

/* A map text that failed to parse with `msg`: a clearer message into err
 * when the text is UTF-16 or has CR-only line ends, a hint appended when
 * it looks like a Tiled map (read by its extension); else msg. */
static void map_parse_message(const char *path, const char *buf, size_t len, const char *msg,
                              char *err, size_t cap)
{
    int line, col;
    char what[256];
    if (tn_text_check(buf, len, &line, &col, what, sizeof what)) {
        snprintf(err, cap, "%s:%d:%d: %s", path, line, col, what);
        return;
    }
    size_t i = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n')) i++;
    const char *kind = NULL;
    if (len - i >= 5 && (memcmp(buf + i, "<?xml", 5) == 0 || memcmp(buf + i, "<map ", 5) == 0))
        kind = "XML: a .tmx file";
    else if (i < len && buf[i] == '{')
        kind = "JSON: a .tmj or .json file";
    if (kind && strstr(msg, "missing header line"))
        snprintf(err, cap,
                 "%s; it looks like a Tiled map (%s): Tiled maps are read by their file name's "
                 "extension, so give it as NAME.tmx, NAME.tmj or NAME.json",
                 msg, kind);
    else
        snprintf(err, cap, "%s", msg);
}

static int load_map_held(const char *path, tn_map **out, tn_origin *held, char *err, size_t cap)
{
    held->key = held->name = NULL;
    if (tn_tiled_kind(path)) /* .tmx .tmj .json */
        return tn_tiled_load_held(path, out, held, err, cap);
    char *buf;
    size_t len;
    *out = NULL;
    if (read_map_text(path, &buf, &len, err, cap) != 0) return -1;
    tn_error e;
    /* parsed without a name, which is put before the message here: the
     * library's message (TN_ERROR_MSG_MAX bytes) then always has room for
     * the line, column and problem */
    tn_status s = tn_map_parse(buf, len, "", NULL, out, &e);
    if (tn_failed(s)) {
        char *msg = malloc(strlen(path) + sizeof e.msg + 2);
        if (msg) sprintf(msg, "%s%s%s", path, e.msg[0] == ':' ? "" : ": ", e.msg);
        map_parse_message(path, buf, len, msg ? msg : e.msg, err, cap);
        free(msg);
        free(buf);
        return -1;
    }
    if (is_special(path)) keep_pipe_copy(path, buf, len); /* for a reset: read once */
    tn_origin_make(held, path, buf, len);
    free(buf);
    return 0;
}

/* Every message of a failed load is made whole (the path in full) and
 * then fitted into cap bytes: a path too long for it is shortened to its
 * last components after "..." (tn_name_fit), so that the line, column
 * and problem after it are never cut. */
int tn_load_map_held(const char *path, tn_map **out, tn_origin *held, char *err, size_t cap)
{
    size_t pl = strlen(path), bigcap = 2 * pl + 4096;
    char *big = malloc(bigcap);
    if (!big) return load_map_held(path, out, held, err, cap);
    big[0] = '\0';
    int rc = load_map_held(path, out, held, big, bigcap);
    if (rc != 0 && cap > 0) {
        if (strncmp(big, path, pl) == 0)
            tn_name_fit(err, cap, path, big + pl);
        else
            snprintf(err, cap, "%s", big);
    }
    free(big);
    return rc;
}

int tn_load_map(const char *path, tn_map **out, char *err, size_t cap)
{
    tn_origin held;
    int rc = tn_load_map_held(path, out, &held, err, cap);
    if (rc == 0) tn_origin_keep(&held);
    return rc;
}

/* ---- saving ------------------------------------------------------------ */

/* The folder `dir` as the user knows it: absolute when it can be told,
 * also when the working folder was removed while the game ran (getcwd
 * fails then; /proc/self/cwd still names it, " (deleted)" after). */
static void dir_shown(const char *dir, char *out, size_t cap)
{
    char cwd[PATH_MAX];
    if (dir[0] == '/') {
        snprintf(out, cap, "%s", dir);
        return;
    }
    if (!getcwd(cwd, sizeof cwd)) {
        ssize_t n = readlink("/proc/self/cwd", cwd, sizeof cwd - 1);
        if (n <= 0 || cwd[0] != '/') {
            snprintf(out, cap, "%s", dir);
            return;
        }
        cwd[n] = '\0';
        const char *del = " (deleted)";
        size_t dl = strlen(del);
        if ((size_t)n > dl && strcmp(cwd + n - dl, del) == 0) cwd[n - dl] = '\0';
    }
    int n = strcmp(dir, ".") == 0
                ? snprintf(out, cap, "%s", cwd)
                : snprintf(out, cap, "%s%s%s", cwd, strcmp(cwd, "/") == 0 ? "" : "/",
                           strncmp(dir, "./", 2) == 0 ? dir + 2 : dir);
    if (n < 0 || (size_t)n >= cap) snprintf(out, cap, "%s", dir); /* too long: as given */
}

/* True when the file system holding `path` is mounted read-only. */
static bool on_readonly_fs(const char *path)
{
    struct statvfs v;
    return statvfs(path, &v) == 0 && (v.f_flag & ST_RDONLY);
}

/* Where the read-only file system holding `real` (an absolute path) is
 * mounted: the highest folder above it on the same device that is still
 * read-only (a read-only bind mount of one folder stops there). */
static void readonly_top(const char *real, char *out, size_t cap)
{
    struct stat st, up;
    char cur[PATH_MAX], parent[PATH_MAX];
    snprintf(out, cap, "%s", real);
    if (real[0] != '/' || stat(real, &st) != 0 || strlen(real) >= sizeof cur) return;
    snprintf(cur, sizeof cur, "%s", real);
    while (strcmp(cur, "/") != 0) {
        const char *slash = strrchr(cur, '/');
        snprintf(parent, sizeof parent, "%.*s", slash == cur ? 1 : (int)(slash - cur), cur);
        if (stat(parent, &up) != 0 || up.st_dev != st.st_dev || !on_readonly_fs(parent)) break;
        snprintf(cur, sizeof cur, "%s", parent);
    }
    snprintf(out, cap, "%s", cur);
}

/* Where a save of `path` really goes: `path` itself when it does not exist,
 * else the file it names with every symbolic link resolved (a map opened
 * through a link is saved into the file the link points to, and the link
 * stays).  *st is that file's stat when *exists. */
static int save_target(const char *path, char **real, struct stat *st, bool *exists, char *err,
                       size_t cap)
{
    struct stat lst;
    *exists = false;
    *real = NULL;
    size_t pl = strlen(path);
    if (pl == 0 || path[pl - 1] == '/') { /* "new.map/": a directory's name, no file's */
        snprintf(err, cap, "%s: %s: not saved", path,
                 pl ? "the path ends with '/': a file name is needed after it"
                    : "the file name is empty");
        return -1;
    }
    if (lstat(path, &lst) != 0) {
        if (errno != ENOENT) {
            snprintf(err, cap, "%s: cannot stat: %s (not saved)", path, strerror(errno));
            return -1;
        }
        *real = strdup(path);
    } else {
        if (S_ISLNK(lst.st_mode) && stat(path, st) != 0) {
            snprintf(err, cap, "%s: is a symbolic link to a missing file: not saved", path);
            return -1;
        }
        /* /dev/stdin, /dev/fd/N: a link to a pipe that has no path of its
         * own (realpath cannot resolve "pipe:[123]"): said as what it is */
        if (S_ISLNK(lst.st_mode) && !S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode)) {
            char *r = realpath(path, NULL);
            bool named = r != NULL;
            free(r);
            if (!named) {
                snprintf(err, cap, "%s: is not a regular file (%s): not saved", path,
                         S_ISFIFO(st->st_mode)                          ? "a pipe"
                         : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
                         : S_ISSOCK(st->st_mode)                        ? "a socket"
                                                                        : "not a plain file");
                return -1;
            }
        }
        *real = realpath(path, NULL);
        if (!*real) {
            snprintf(err, cap, "%s: cannot resolve the path: %s (not saved)", path,
                     strerror(errno));
            return -1;
        }
        if (stat(*real, st) != 0) {
            snprintf(err, cap, "%s: cannot stat: %s (not saved)", path, strerror(errno));
            free(*real);
            *real = NULL;
            return -1;
        }
        *exists = true;
    }
    if (!*real) {
        snprintf(err, cap, "%s: out of memory", path);
        return -1;
    }
    if (*exists && S_ISDIR(st->st_mode)) {
        snprintf(err, cap, "%s: is a directory: not saved", path);
    } else if (*exists && !S_ISREG(st->st_mode)) {
        snprintf(err, cap, "%s: is not a regular file (%s): not replaced", path,
                 S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
                 : S_ISFIFO(st->st_mode)                      ? "a FIFO"
                 : S_ISSOCK(st->st_mode)                      ? "a socket"
                                                              : "not a plain file");
    } else if (*exists && on_readonly_fs(*real)) { /* mode 0644 is no help there */
        char top[PATH_MAX];
        readonly_top(*real, top, sizeof top);
        snprintf(err, cap, "%s: is on a read-only file system (mounted at %s): not replaced", path,
                 top);
    } else if (*exists && (!(st->st_mode & S_IWUSR) || access(*real, W_OK) != 0)) {
        char whose[64] = ""; /* a mode like 0644 is read-only for all but its owner */
        if (st->st_uid != geteuid())
            snprintf(whose, sizeof whose, ", owner uid %u, you %u", (unsigned)st->st_uid,
                     (unsigned)geteuid());
        snprintf(err, cap,
                 "%s: is read-only (mode %04o%s): not replaced; save under another name (script: "
                 "save OTHER)",
                 path, (unsigned)(st->st_mode & 07777), whose);
    } else {
        return 0;
    }
    free(*real);
    *real = NULL;
    return -1;
}

/* Temporary files are BASE.tmp-PID-N: unique, made with O_EXCL, so no
 * other save (nor a planted file or link) is ever opened or truncated.
 * BASE is the file's name cut to TMP_BASE_MAX bytes, so that the
 * temporary's name fits in a directory entry (255 bytes) whenever the
 * file's does: a map named with 250 bytes could not be saved at all. */
#define TMP_TAG ".tmp-"
#define TMP_BASE_MAX 200

static size_t tmp_base_len(const char *base)
{
    size_t n = strlen(base);
    return n < TMP_BASE_MAX ? n : TMP_BASE_MAX;
}

/* Under the directory lock no other save is running: remove temporaries
 * of BASE left by saves that were killed (their process is gone). */
static void remove_stale_tmps(int dirfd, const char *base)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    size_t bl = tmp_base_len(base), tl = strlen(TMP_TAG);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (strncmp(n, base, bl) != 0 || strncmp(n + bl, TMP_TAG, tl) != 0) continue;
        const char *p = n + bl + tl;
        char *endp;
        errno = 0;
        long pid = strtol(p, &endp, 10);
        if (errno || endp == p || *endp != '-' || pid <= 0 || *p < '1' || *p > '9') continue;
        /* exactly the name a save makes (TMP_TAG "%ld-%08x"): a user's
         * BASE.tmp-123-notes.txt is not a temporary */
        const char *hex = endp + 1;
        if (strlen(hex) != 8 || strspn(hex, "0123456789abcdef") != 8) continue;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        struct stat st;
        if (fstatat(dirfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        unlinkat(dirfd, n, 0);
    }
    closedir(d);
}

/* How long a save waits for another save into the same folder (ms). */
static int lock_wait_ms = 10000;

void tn_save_set_lock_wait(int ms) { lock_wait_ms = ms < 0 ? 0 : ms; }

/* The folder whose lock a save last waited for in vain, and when: a save
 * into it within that wait again (the autosave after a refused save) tries
 * once and does not wait a second time. */
static struct {
    bool set;
    dev_t dev;
    ino_t ino;
    struct timespec at;
} busy_dir;

static double since_s(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* flock the directory, trying for up to lock_wait_ms: never hangs on a
 * stuck saver.  *waited: the ms waited in vain, lock_wait_ms (0: it was
 * just found busy). */
static int lock_dir(int dirfd, int *waited)
{
    struct stat ds;
    bool known = fstat(dirfd, &ds) == 0;
    bool again = known && busy_dir.set && busy_dir.dev == ds.st_dev && busy_dir.ino == ds.st_ino &&
                 since_s(&busy_dir.at) < (double)lock_wait_ms / 1000.0 + 1.0;
    /* by the clock, not by sleeps counted: a loaded machine oversleeps */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *waited = 0;
    for (;;) {
        if (flock(dirfd, LOCK_EX | LOCK_NB) == 0) {
            if (again) busy_dir.set = false;
            return 0;
        }
        if (errno != EWOULDBLOCK && errno != EINTR) return -1;
        const double ms = since_s(&t0) * 1000.0;
        if (again || ms >= (double)lock_wait_ms) break;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (!again) *waited = lock_wait_ms; /* (at least that long, by the clock) */
    if (known && !again) {
        busy_dir.set = true;
        busy_dir.dev = ds.st_dev;
        busy_dir.ino = ds.st_ino;
        clock_gettime(CLOCK_MONOTONIC, &busy_dir.at);
    }
    errno = EWOULDBLOCK;
    return -1;
}

int tn_write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t cap)
{
    char *real;
    struct stat st;
    bool exists;
    if (save_target(path, &real, &st, &exists, err, cap) != 0) return -1;
    char *slash = strrchr(real, '/');
    const char *base = slash ? slash + 1 : real;
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == real)
        snprintf(dir, sizeof dir, "/");
    else if (snprintf(dir, sizeof dir, "%.*s", (int)(slash - real), real) >= (int)sizeof dir) {
        snprintf(err, cap, "%s: path too long", path);
        free(real);
        return -1;
    }
    const char *untouched = exists ? " (the old file is untouched)" : "";
    int rc = -1, fd = -1;
    char tmp[512] = "", shown[PATH_MAX]; /* the folder, absolute: one name in every message */
    dir_shown(dir, shown, sizeof shown);
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) {
        if (errno == ENOENT)
            snprintf(err, cap, "%s: not saved: the folder %s does not exist", path, shown);
        else
            snprintf(err, cap, "%s: cannot open the directory %s: %s", path, shown,
                     strerror(errno));
        free(real);
        return -1;
    }
    int waited;
    if (lock_dir(dirfd, &waited) != 0) {
        char why[96];
        if (errno != EWOULDBLOCK)
            snprintf(why, sizeof why, "%s", strerror(errno));
        else if (waited)
            snprintf(why, sizeof why,
                     "another program holds it (a save there did not finish "
                     "within %.1f s)",
                     waited / 1000.0);
        else
            snprintf(why, sizeof why, "another program still holds it (not waited for again)");
        snprintf(err, cap, "%s: cannot lock the directory %s: %s%s", path, shown, why, untouched);
        goto out;
    }
    remove_stale_tmps(dirfd, base);
    static unsigned counter;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        unsigned r = ++counter * 2654435761u ^ (unsigned)now.tv_nsec;
        if (snprintf(tmp, sizeof tmp, "%.*s" TMP_TAG "%ld-%08x", (int)tmp_base_len(base), base,
                     (long)getpid(), r) >= (int)sizeof tmp) {
            snprintf(err, cap, "%s: file name too long", path);
            goto out;
        }
        fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    exists ? 0600 : 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        struct stat ds; /* removed while the game ran (a working folder that is gone) */
        if (errno == ENOENT && (fstat(dirfd, &ds) != 0 || ds.st_nlink == 0))
            snprintf(err, cap, "%s: not saved: the folder %s no longer exists%s", path, shown,
                     untouched);
        else
            snprintf(err, cap, "%s: cannot create a temporary file in %s: %s%s", path, shown,
                     strerror(errno), untouched);
        goto out;
    }
    if (exists) { /* the map keeps its mode (and, where allowed, its owner) */
        if (fchown(fd, st.st_uid, st.st_gid) != 0) { /* not ours to give away: keep ours */
        }
        if (fchmod(fd, st.st_mode & 07777) != 0) {
            snprintf(err, cap, "%s: cannot set the file mode: %s%s", path, strerror(errno),
                     untouched);
            goto out_unlink;
        }
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            snprintf(err, cap, "%s: write error: %s%s", path, strerror(errno), untouched);
            goto out_unlink;
        }
        done += (size_t)n;
    }
    if (fsync(fd) != 0) {
        snprintf(err, cap, "%s: cannot flush: %s%s", path, strerror(errno), untouched);
        goto out_unlink;
    }
    int cfd = fd;
    fd = -1;
    if (close(cfd) != 0) {
        snprintf(err, cap, "%s: cannot flush: %s%s", path, strerror(errno), untouched);
        goto out_unlink;
    }
    if (renameat(dirfd, tmp, dirfd, base) != 0) {
        if (errno == ENOENT)
            snprintf(err, cap,
                     "%s: the temporary file %s/%s vanished before it replaced the map "
                     "(another program removed it): not saved",
                     path, shown, tmp);
        else
            snprintf(err, cap, "%s: cannot replace: %s%s", path, strerror(errno), untouched);
        goto out_unlink;
    }
    if (fsync(dirfd) != 0 && errno != EINVAL) {
        snprintf(err, cap,
                 "%s: written, but the directory %s could not be flushed: %s "
                 "(a crash now could lose the new file)",
                 path, shown, strerror(errno));
        goto out;
    }
    rc = 0;
    goto out;
out_unlink:
    if (fd >= 0) close(fd);
    fd = -1;
    unlinkat(dirfd, tmp, 0);
out:
    if (fd >= 0) close(fd);
    close(dirfd); /* releases the lock */
    free(real);
    return rc;
}

/* What a save keeps of the file it replaces: tilenav maps keep their
 * comment (and blank) lines: the leading ones, those among the header
 * lines (each after the header line it followed) and those after the last
 * row; a Moving AI map stays a Moving AI map with its own header and,
 * where a tile did not change between passable and blocked, its own
 * letter (G S T W ...). */
typedef struct save_template {
    bool movingai;
    const char *head; /* kept verbatim: tilenav comments, or the MAI header */
    size_t head_len;
    /* tilenav, when the old file still parses: its header lines from the
     * first through `tiles` (the comments among them are kept, the header
     * lines themselves written anew), the comment lines in them, and what
     * followed its last row */
    const char *hdr, *tail;
    size_t hdr_len, tail_len;
    int hdr_comments;
    const char *rows; /* Moving AI only: the first row, W chars + newline each */
    char *own;        /* malloc()ed head (a Moving AI header for another size), or NULL */
    char small[80];   /* that header when out of memory */
} save_template;

/* The Moving AI header head[0..len) with its height and width lines set to
 * m's size (every other line, and each line's ending, kept): malloc()ed,
 * NULL when out of memory. */
static char *resize_header(const char *head, size_t len, const tn_map *m, size_t *out_len)
{
    char *out = malloc(len + 64);
    if (!out) return NULL;
    size_t pos = 0, o = 0, n;
    const char *l;
    while (take_line(head, len, &pos, &l, &n)) {
        const char *end = head + pos; /* after this line's ending */
        const char *key = n >= 6 && memcmp(l, "height", 6) == 0  ? "height"
                          : n >= 5 && memcmp(l, "width", 5) == 0 ? "width"
                                                                 : NULL;
        size_t kl = key ? strlen(key) : 0;
        if (key && n > kl && l[kl] != ' ' && l[kl] != '\t') key = NULL;
        if (!key) {
            memcpy(out + o, l, (size_t)(end - l));
            o += (size_t)(end - l);
            continue;
        }
        o += (size_t)snprintf(out + o, 32, "%s %d", key, key[0] == 'h' ? m->h : m->w);
        const char *eol = l + n; /* "\r\n", "\n" or nothing */
        memcpy(out + o, eol, (size_t)(end - eol));
        o += (size_t)(end - eol);
    }
    *out_len = o;
    return out;
}

static void read_template(const char *path, const tn_map *m, char **buf, save_template *t)
{
    size_t len;
    char err[256];
    memset(t, 0, sizeof *t);
    *buf = NULL;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return; /* a new file */
    if (tn_read_file(path, TN_MAP_FILE_MAX, buf, &len, err, sizeof err) != 0) return;
    const char *b = *buf;
    size_t off = 0;
    if (len >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0) off = 3; /* a UTF-8 BOM */
    size_t pos = off, n = 0;
    const char *l = "";
    /* tilenav: the leading '#' and blank lines */
    size_t head_end = off;
    bool content = false;
    while (take_line(b, len, &pos, &l, &n)) {
        if (!is_blank(l, n) && l[0] != '#') {
            content = true;
            break;
        }
        head_end = pos;
    }
    if (!content) return; /* not a map: nothing to keep */
    tn_map *old = NULL;
    tn_error e;
    bool mai = n >= 4 && memcmp(l, "type", 4) == 0;
    if (!mai) {
        t->head = b + off;
        t->head_len = head_end - off;
        /* the header's comments and the trailing ones: only from a file
         * that still parses (its rows are where its size says) */
        if (tn_failed(tn_map_parse(b, len, path, NULL, &old, &e))) return;
        const int rows = old->h;
        tn_map_destroy(old);
        pos = head_end;
        int comments = 0;
        bool tiles = false;
        while (!tiles && take_line(b, len, &pos, &l, &n)) {
            size_t k = n;
            while (k > 0 && (l[k - 1] == ' ' || l[k - 1] == '\t')) k--;
            tiles = k == 5 && memcmp(l, "tiles", 5) == 0;
            comments += is_blank(l, n) || l[0] == '#';
        }
        if (!tiles) return;
        t->hdr = b + head_end;
        t->hdr_len = pos - head_end;
        t->hdr_comments = comments;
        for (int r = 0; r < rows && take_line(b, len, &pos, &l, &n);) r++;
        t->tail = b + pos;
        t->tail_len = len - pos;
        return;
    }
    /* Moving AI: the old file must parse, at the same size */
    if (tn_failed(tn_map_parse(b, len, path, NULL, &old, &e))) return;
    bool same = old->w == m->w && old->h == m->h;
    tn_map_destroy(old);
    t->movingai = true;
    pos = off;
    while (take_line(b, len, &pos, &l, &n)) {
        size_t k = n;
        while (k > 0 && (l[k - 1] == ' ' || l[k - 1] == '\t')) k--;
        if (k == 3 && memcmp(l, "map", 3) == 0) break;
    }
    t->head = b + off;
    t->head_len = pos - off;
    t->rows = same ? b + pos : NULL;
    if (!same) { /* the old header's height and width would not match the rows */
        t->own = resize_header(t->head, t->head_len, m, &t->head_len);
        if (!t->own)
            t->head_len = (size_t)snprintf(t->small, sizeof t->small,
                                           "type octile\nheight %d\nwidth %d\nmap\n", m->h, m->w);
        t->head = t->own ? t->own : t->small;
    }
}

/* Moving AI text for m, or -1 with a message when m holds what the format
 * cannot: one-way platforms, spawn points, destinations, items, a start. */
static int format_movingai(const tn_map *m, const save_template *t, const char *path, char **out,
                           size_t *out_len, char *err, size_t cap)
{
    size_t cells = (size_t)m->w * (size_t)m->h;
    int oneway = 0, marks = 0;
    for (size_t i = 0; i < cells; i++) {
        oneway += m->tile[i] == TN_TILE_ONEWAY;
        marks += m->mark[i] != TN_MARK_NONE;
    }
    if (oneway || marks || m->start_x >= 0) {
        snprintf(
            err, cap,
            "%s: is a Moving AI map, which cannot hold %s: not saved (the old file is untouched)%s",
            path,
            oneway  ? "one-way platforms"
            : marks ? "spawn points, destinations or items"
                    : "a character start",
            TN_SAVE_UNFIT_HINT);
        return TN_SAVE_UNFIT;
    }
    size_t need = t->head_len + cells + (size_t)m->h + 1;
    char *buf = malloc(need);
    if (!buf) {
        snprintf(err, cap, "%s: out of memory", path);
        return -1;
    }
    memcpy(buf, t->head, t->head_len);
    char *p = buf + t->head_len;
    if (t->head_len && p[-1] != '\n') *p++ = '\n';
    const char *row = t->rows;
    for (int y = 0; y < m->h; y++) {
        for (int x = 0; x < m->w; x++) {
            bool block = m->tile[(size_t)y * (size_t)m->w + (size_t)x] == TN_TILE_BLOCK;
            char c = block ? '@' : '.';
            if (row) { /* keep the old letter when the tile kept its class */
                char o = row[x];
                bool oblock = o == '@' || o == 'O' || o == 'T' || o == 'W';
                if (oblock == block) c = o;
            }
            *p++ = c;
        }
        *p++ = '\n';
        if (row) {
            const char *nl = memchr(row, '\n', (size_t)m->w + 2);
            row = nl ? nl + 1 : NULL;
        }
    }
    *out = buf;
    *out_len = (size_t)(p - buf);
    return 0;
}

/* The first word of line l[0..n). */
static size_t first_word(const char *l, size_t n)
{
    size_t k = 0;
    while (k < n && l[k] != ' ' && l[k] != '\t') k++;
    return k;
}

/* The header lines `fresh` (tn_map_save's, through `tiles`) written with
 * the comment lines of the old header `hdr` where they were: each old
 * header line is replaced by the fresh lines up to the one of its keyword
 * (none when the fresh header has no such line, an old `start`); fresh
 * lines left (a new `start`) go before `tiles`.  Returns the bytes written
 * to out (at most hdr_len + fresh_len). */
static size_t merge_header(const char *hdr, size_t hdr_len, const char *fresh, size_t fresh_len,
                           char *out)
{
    size_t o = 0, fp = 0, pos = 0, n;
    const char *l;
    while (take_line(hdr, hdr_len, &pos, &l, &n)) {
        if (is_blank(l, n) || l[0] == '#') {
            memcpy(out + o, l, (size_t)(hdr + pos - l));
            o += (size_t)(hdr + pos - l);
            continue;
        }
        const size_t kw = first_word(l, n);
        size_t q = fp, fn;
        const char *f;
        while (take_line(fresh, fresh_len, &q, &f, &fn))
            if (first_word(f, fn) == kw && memcmp(f, l, kw) == 0) {
                memcpy(out + o, fresh + fp, q - fp); /* through that line */
                o += q - fp;
                fp = q;
                break;
            }
    }
    memcpy(out + o, fresh + fp, fresh_len - fp);
    return o + fresh_len - fp;
}

int tn_save_map(const tn_map *m, const char *path, char *err, size_t cap)
{
    return tn_save_map_as(m, path, path, err, cap);
}

int tn_save_map_as(const tn_map *m, const char *path, const char *source, char *err, size_t cap)
{
    if (tn_tiled_kind(path)) /* .tmx .tmj .json */
        return tn_tiled_save(m, path, source ? source : path, err, cap);
    struct stat pst; /* a pipe, a device, a directory: refused by name, never read */
    if (stat(path, &pst) == 0 && !S_ISREG(pst.st_mode)) {
        char *real;
        bool exists;
        if (save_target(path, &real, &pst, &exists, err, cap) != 0) return -1;
        free(real); /* (not reached: save_target refuses every non-regular file) */
        snprintf(err, cap, "%s: is not a regular file: not saved", path);
        return -1;
    }
    /* over the file it came from: only when that is still what was loaded */
    bool own = source && tn_same_file(source, path);
    if (own) { /* by the name the map was loaded by: the one it has a record of */
        int rc = tn_origin_check(source, err, cap);
        if (rc) return rc;
    }
    char *old, *src = NULL, *buf;
    save_template t;
    size_t len;
    read_template(path, m, &old, &t);
    if (!t.movingai && source && strcmp(source, path) != 0 && !tn_tiled_kind(source)) {
        /* Saved elsewhere: the leading comments of the file the map came from
         * go with it (when that is a tilenav map that can still be read). */
        save_template st;
        read_template(source, m, &src, &st);
        if (st.head && !st.movingai) {
            t.head = st.head;
            t.head_len = st.head_len;
            t.hdr = st.hdr, t.hdr_len = st.hdr_len, t.hdr_comments = st.hdr_comments;
            t.tail = st.tail, t.tail_len = st.tail_len;
        }
        free(st.own); /* NULL unless a Moving AI source, not used */
    }
    if (t.movingai) {
        int rc = format_movingai(m, &t, path, &buf, &len, err, cap);
        free(t.own);
        free(old);
        free(src); /* NULL: a Moving AI target takes nothing from the source */
        src = NULL;
        if (rc != 0) return rc; /* -1, or TN_SAVE_UNFIT */
    } else {
        const size_t plain = tn_map_format_size(m);
        size_t need = t.head_len + t.hdr_len + 2 * plain + t.tail_len + 1;
        buf = malloc(need);
        if (!buf) {
            free(old);
            free(src);
            snprintf(err, cap, "%s: out of memory", path);
            return -1;
        }
        if (t.head_len) memcpy(buf, t.head, t.head_len);
        /* the fresh text after the room for the merged one */
        char *fresh = buf + need - plain - 1;
        tn_error e;
        tn_status st = tn_map_save(m, path, fresh, plain + 1, &len, &e);
        if (tn_failed(st)) { /* a map the text cannot hold as it is */
            /* a tile's line in the file: after the kept comment lines */
            int head_lines = t.hdr_comments;
            for (size_t i = 0; i < t.head_len; i++) head_lines += buf[i] == '\n';
            char where[64];
            int wl = snprintf(where, sizeof where, ":%d:%d: ", e.line, e.col);
            size_t pl = strlen(path);
            const char *why = e.msg;
            if (e.line > 0 && strncmp(why, path, pl) == 0 &&
                strncmp(why + pl, where, (size_t)wl) == 0)
                snprintf(err, cap, "%s:%d:%d: %s (the old file is untouched)", path,
                         e.line + head_lines, e.col, why + pl + wl);
            else
                snprintf(err, cap, "%s (the old file is untouched)", why);
            free(old);
            free(src);
            free(buf);
            return -1;
        }
        char *o = buf + t.head_len;
        if (t.hdr) {       /* the header with the old one's comments, the rows, the tail */
            size_t fh = 0; /* the fresh header's length, through "tiles\n" */
            for (size_t i = 0; i + 7 <= len && !fh; i++)
                if (memcmp(fresh + i, "\ntiles\n", 7) == 0) fh = i + 7;
            o += merge_header(t.hdr, t.hdr_len, fresh, fh, o);
            memmove(o, fresh + fh, len - fh);
            o += len - fh;
            if (t.tail_len && o[-1] != '\n') *o++ = '\n';
            memcpy(o, t.tail, t.tail_len);
            o += t.tail_len;
        } else {
            memmove(o, fresh, len);
            o += len;
        }
        free(old);
        len = (size_t)(o - buf);
    }
    free(src);
    int rc = tn_write_file_atomic(path, buf, len, err, cap);
    if (rc == 0) tn_origin_saved(path, buf, len, own); /* what it holds now */
    free(buf);
    return rc;
}

int tn_save_target_check(const char *path, char *err, size_t cap)
{
    struct stat st;
    /* nothing there, or no regular file: the save decides (and refuses a
     * FIFO, a device or a directory itself) */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return 0;
    char *buf, why[512];
    size_t len;
    tn_map *m = NULL;
    int rc = tn_read_file(path, map_file_max(path), &buf, &len, why, sizeof why);
    if (rc == 0) {
        int kind = tn_tiled_kind(path);
        if (kind) {
            rc = tn_tiled_load_buffer(buf, len, path, kind, &m, why, sizeof why);
        } else {
            tn_error e;
            rc = tn_failed(tn_map_parse(buf, len, path, NULL, &m, &e)) ? -1 : 0;
            if (rc) snprintf(why, sizeof why, "%s", e.msg);
        }
        free(buf);
        tn_map_destroy(m);
    }
    if (rc == 0) return 0;
    /* the loader's message without its "PATH:" (said once, first) */
    const char *w = why;
    size_t pl = strlen(path);
    if (strncmp(w, path, pl) == 0 && w[pl] == ':') w += pl + 1;
    while (*w == ' ') w++;
    /* "2:1: problem" -> "line 2, column 1: problem"; "5: problem" -> "line 5: problem" */
    char where[64] = "";
    long ln = 0, col = 0;
    int n = 0;
    if (sscanf(w, "%ld:%ld:%n", &ln, &col, &n) == 2 && n > 0 && ln > 0 && col > 0)
        snprintf(where, sizeof where, "line %ld, column %ld:", ln, col);
    else if (n = 0, sscanf(w, "%ld:%n", &ln, &n) == 1 && n > 0 && ln > 0)
        snprintf(where, sizeof where, "line %ld:", ln);
    if (where[0]) w += n;
    snprintf(err, cap,
             "%s: not replaced: it is not a map the game reads (%s%s); save under another name, "
             "or remove it first",
             path, where, w);
    return -1;
}

int tn_map_merge_edits(tn_map *dst, const tn_map *base, const tn_map *edited, int *conflicts)
{
    if (conflicts) *conflicts = 0;
    if (dst->w != base->w || dst->h != base->h || edited->w != base->w || edited->h != base->h)
        return -1;
    int n = 0, both = 0;
    size_t cells = (size_t)base->w * (size_t)base->h;
    for (size_t i = 0; i < cells; i++) {
        if (edited->tile[i] == base->tile[i] && edited->mark[i] == base->mark[i]) continue;
        bool theirs = dst->tile[i] != base->tile[i] || dst->mark[i] != base->mark[i];
        bool same = dst->tile[i] == edited->tile[i] && dst->mark[i] == edited->mark[i];
        both += theirs && !same;
        dst->tile[i] = edited->tile[i];
        dst->mark[i] = edited->mark[i];
        n++;
    }
    if (edited->start_x != base->start_x || edited->start_y != base->start_y) {
        dst->start_x = edited->start_x;
        dst->start_y = edited->start_y;
    }
    dst->revision++;
    if (conflicts) *conflicts = both;
    return n;
}

/* The directory of `path` ("." for a bare name, "/" at the root). */
static void dir_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, cap, ".");
    else if (slash == path)
        snprintf(dir, cap, "/");
    else
        snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* The longest file name in the directory of `path` (pathconf; 255, Linux's
 * NAME_MAX, when it cannot say or says more). */
static size_t name_max_for(const char *path)
{
    char dir[1024];
    dir_of(path, dir, sizeof dir);
    long n = pathconf(dir, _PC_NAME_MAX);
    return n > 0 && n < 255 ? (size_t)n : 255;
}

int tn_autosave_path(const char *map_path, char *out, size_t cap, char *err, size_t errcap)
{
    const char *slash = strrchr(map_path, '/');
    const char *base = slash ? slash + 1 : map_path;
    size_t dir_len = (size_t)(base - map_path), base_len = strlen(base);
    size_t name_max = name_max_for(map_path);
    /* BASE.autosave, when it and the names it is set aside to (".999")
     * fit; else BASE cut at a character boundary, "~" and the 16 hex
     * digits of BASE's hash: two long names alike in their first bytes
     * get two autosaves, never one (tn_autosave_path in fileio.h) */
    const size_t suffix = strlen(".autosave"), aside = strlen(".999"), hash = 17;
    size_t keep = base_len;
    bool cut = base_len + suffix + aside > name_max;
    if (cut) {
        keep = name_max > suffix + aside + hash ? name_max - suffix - aside - hash : 1;
        while (keep > 1 && ((unsigned char)base[keep] & 0xc0) == 0x80) keep--; /* inside a char */
    }
    size_t n = dir_len + keep + (cut ? hash : 0) + suffix;
    if (n + 1 > cap) { /* a cut path could be the map itself, or another file */
        if (cap) out[0] = '\0';
        snprintf(err, errcap, /* the reason first: the path may not fit in err */
                 "the autosave's path would be %zu bytes, at most %zu (use a map with a shorter "
                 "path): %s.autosave",
                 n, cap ? cap - 1 : 0, map_path);
        return -1;
    }
    if (cut)
        snprintf(out, cap, "%.*s~%016llx.autosave", (int)(dir_len + keep), map_path,
                 (unsigned long long)fnv1a(base, base_len));
    else
        snprintf(out, cap, "%s.autosave", map_path);
    return 0;
}

int tn_autosave_data_path(const char *map_path, bool make_dirs, char *out, size_t cap, char *err,
                          size_t errcap)
{
    const char *slash = strrchr(map_path, '/');
    const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
    char data[1024];
    if (x && x[0] == '/')
        snprintf(data, sizeof data, "%s", x);
    else if (h && h[0])
        snprintf(data, sizeof data, "%s/.local/share", h);
    else {
        if (cap) out[0] = '\0';
        snprintf(err, errcap,
                 "%s: no place for the autosave in the data folder: neither XDG_DATA_HOME nor "
                 "HOME is set",
                 map_path);
        return -1;
    }
    char *real = realpath(map_path, NULL);
    const char *full = real ? real : map_path;
    /* a map read from a pipe or a device (/dev/fd/63, /dev/stdin): what was
     * read names it, not the path every such map shares, so the same map
     * piped again finds its autosave and another map is not offered it */
    const pipe_copy *pc = is_special(map_path) ? find_pipe_copy(map_path) : NULL;
    const uint64_t hash = pc ? fnv1a(pc->buf, pc->len) : fnv1a(full, strlen(full));
    free(real);
    const char *base = slash ? slash + 1 : map_path;
    size_t keep = strlen(base);
    if (keep > 100) {
        keep = 100;
        while (keep > 1 && ((unsigned char)base[keep] & 0xc0) == 0x80) keep--;
    }
    int n = snprintf(out, cap, "%s/tilenav/autosave/%.*s~%016llx.autosave", data, (int)keep, base,
                     (unsigned long long)hash);
    if (n < 0 || (size_t)n >= cap) {
        if (cap) out[0] = '\0';
        snprintf(err, errcap, "the autosave's path under %s is too long", data);
        return -1;
    }
    if (make_dirs) { /* every missing folder of DATA/tilenav/autosave, as mkdir -p */
        char d[PATH_MAX];
        const int dn = snprintf(d, sizeof d, "%s/tilenav/autosave", data);
        for (char *c = d + 1; dn > 0 && (size_t)dn < sizeof d && *c; c++)
            if (*c == '/') {
                *c = '\0';
                mkdir(d, 0755);
                *c = '/';
            }
        if (dn > 0 && (size_t)dn < sizeof d) mkdir(d, 0755);
    }
    return 0;
}

int tn_autosave_path_for(const char *map_path, bool make_dirs, char *out, size_t cap, char *err,
                         size_t errcap)
{
    char dir[1024];
    dir_of(map_path, dir, sizeof dir);
    struct stat st; /* a pipe or a device (/dev/fd/63): nothing beside it is the user's */
    bool special = stat(map_path, &st) == 0 && !S_ISREG(st.st_mode);
    if (!special && access(dir, W_OK) == 0 &&
        tn_autosave_path(map_path, out, cap, err, errcap) == 0)
        return 0;
    return tn_autosave_data_path(map_path, make_dirs, out, cap, err, errcap);
}

int tn_autosave_older(const char *path, int *last)
{
    int n = 0;
    *last = 0;
    char cand[PATH_MAX + 16];
    struct stat st;
    for (int k = 1; k <= 999; k++) {
        snprintf(cand, sizeof cand, "%s.%d", path, k);
        /* edits only: a directory or a link to nothing there is no autosave
         * (named as one, the start told the user to rename it to restore) */
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) n++, *last = k;
    }
    return n;
}

int tn_autosave_older_note(const char *path, char *msg, size_t cap)
{
    int last, older = tn_autosave_older(path, &last);
    if (older == 1)
        snprintf(msg, cap, "%s.%d", path, last);
    else if (older > 1)
        snprintf(msg, cap, "%d files, %s.N (the newest %s.%d)", older, path, path, last);
    else if (cap)
        msg[0] = '\0';
    return older;
}

int tn_autosave_offer(const char *map_path, char *msg, size_t cap)
{
    char path[1024], err[512], older[1200];
    if (cap) msg[0] = '\0';
    if (!map_path) return 0;
    if (tn_autosave_find(map_path, path, sizeof path, err, sizeof err) == 0) {
        if (tn_autosave_older_note(path, older, sizeof older) > 0)
            snprintf(msg, cap,
                     "%s holds edits that were never saved: press R to restore them (older "
                     "unsaved edits: %s)",
                     path, older);
        else
            snprintf(msg, cap, "%s holds edits that were never saved: press R to restore them",
                     path);
        return 1;
    }
    /* none to restore, but older ones set aside by earlier sessions (a
     * Ctrl+S after R removed the autosave they were kept beside): R does
     * not restore them, so they are said, or forgotten with their edits */
    if (tn_autosave_path_for(map_path, false, path, sizeof path, err, sizeof err) != 0) return 0;
    int n = tn_autosave_older_note(path, older, sizeof older);
    /* and in the other place: ones set aside in the data folder while the
     * map's folder could not be written (or beside it while it could) */
    char data[1024];
    if (n == 0 && tn_autosave_data_path(map_path, false, data, sizeof data, err, sizeof err) == 0 &&
        strcmp(data, path) != 0) {
        n = tn_autosave_older_note(data, older, sizeof older);
        if (n > 0) snprintf(path, sizeof path, "%s", data);
    }
    if (n == 0) return 0;
    snprintf(msg, cap,
             "older unsaved edits, never restored: %s (R restores %s only: rename %s to it to "
             "restore %s)",
             older, path, n == 1 ? "that file" : "one", n == 1 ? "them" : "its edits");
    return 2;
}

int tn_autosave_find(const char *map_path, char *out, size_t cap, char *err, size_t errcap)
{
    char data[1024], derr[512];
    struct stat a, b;
    int rc = tn_autosave_path_for(map_path, false, out, cap, err, errcap);
    bool here = rc == 0 && stat(out, &a) == 0 && S_ISREG(a.st_mode);
    bool there =
        tn_autosave_data_path(map_path, false, data, sizeof data, derr, sizeof derr) == 0 &&
        (rc != 0 || strcmp(data, out) != 0) && stat(data, &b) == 0 && S_ISREG(b.st_mode);
    /* both: the newer (the data folder's was written when beside failed) */
    if (there &&
        (!here || b.st_mtim.tv_sec > a.st_mtim.tv_sec ||
         (b.st_mtim.tv_sec == a.st_mtim.tv_sec && b.st_mtim.tv_nsec > a.st_mtim.tv_nsec))) {
        snprintf(out, cap, "%s", data);
        return 0;
    }
    if (here) return 0;
    if (rc == 0) snprintf(err, errcap, "%s: no autosave there", out);
    return -1;
}

/* One place for the autosave: an autosave there that is not `ours` is set
 * aside first (its new name in kept), then `write` writes it. */
static int autosave_try(const char *path, const char *ours, tn_autosave_writer write, void *ctx,
                        char *kept, size_t keptcap, char *err, size_t errcap)
{
    char k[PATH_MAX + 16] = "";
    if (!(ours && strcmp(ours, path) == 0) &&
        tn_autosave_set_aside(path, k, sizeof k, err, errcap) != 0)
        return -1;
    if (k[0]) snprintf(kept, keptcap, "%s", k);
    if (write(ctx, path, err, errcap) != 0) {
        if (k[0]) {
            size_t n = strlen(err);
            snprintf(err + n, errcap - n, " (the older autosave is now %s)", k);
        }
        return -1;
    }
    return 0;
}

int tn_autosave_write(const char *map_path, const char *ours, tn_autosave_writer write, void *ctx,
                      char *out, size_t cap, char *kept, size_t keptcap, char *err, size_t errcap)
{
    if (keptcap) kept[0] = '\0';
    if (tn_autosave_path_for(map_path, true, out, cap, err, errcap) != 0) return -1;
    if (autosave_try(out, ours, write, ctx, kept, keptcap, err, errcap) == 0) {
        if (errcap) err[0] = '\0';
        return 0;
    }
    /* beside the map failed (a full disk, MAP.autosave a directory): the
     * data folder, unless that is where it was */
    char first[1024], ferr[1024], data[1024], derr[1024];
    snprintf(first, sizeof first, "%s", out);
    snprintf(ferr, sizeof ferr, "%s", err);
    if (tn_autosave_data_path(map_path, true, data, sizeof data, derr, sizeof derr) != 0) {
        snprintf(err, errcap, "%s; and none in the data folder: %s", ferr, derr);
        return -1;
    }
    if (strcmp(data, first) == 0) return -1;
    if (autosave_try(data, ours, write, ctx, kept, keptcap, derr, sizeof derr) != 0) {
        snprintf(err, errcap, "%s; and in the data folder: %s", ferr, derr);
        return -1;
    }
    snprintf(out, cap, "%s", data);
    snprintf(err, errcap, "%s", ferr); /* why not beside the map */
    return 0;
}

void tn_copy_aside_hint(const char *path, char *out, size_t cap)
{
    char cand[PATH_MAX + 32];
    struct stat st;
    snprintf(cand, sizeof cand, "%s.outside", path);
    for (int n = 2; lstat(cand, &st) == 0 && n < 1000; n++)
        snprintf(cand, sizeof cand, "%s.outside-%d", path, n);
    snprintf(out, cap, "first copy %s to %s", path, cand);
}

void tn_drop_script_hint(char *err)
{
    char *hint = strstr(err, "; save under another name");
    if (hint) *hint = '\0';
}

bool tn_is_bmp_name(const char *path)
{
    size_t n = strlen(path);
    if (n < 5 || path[n - 5] == '/') return false; /* a name, not just ".bmp" */
    const char *e = path + n - 4;
    return e[0] == '.' && (e[1] == 'b' || e[1] == 'B') && (e[2] == 'm' || e[2] == 'M') &&
           (e[3] == 'p' || e[3] == 'P');
}

void tn_print_shown(FILE *f, const char *fmt, ...)
{
    char raw[4096], shown[4 * sizeof raw];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t len = strlen(raw);
    bool nl = len > 0 && raw[len - 1] == '\n';
    if (nl) raw[len - 1] = '\0';
    fputs(tn_text_shown(shown, sizeof shown, raw), f);
    if (nl) fputc('\n', f);
}

bool tn_is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int tn_move_aside(const char *path, const char *suffix, int first, const char *what, char *kept,
                  size_t keptcap, char *err, size_t cap)
{
    if (keptcap) kept[0] = '\0';
    struct stat st;
    if (lstat(path, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))) return 0;
    char cand[PATH_MAX + 32];
    for (int n = first; n <= 999; n++) {
        if (n)
            snprintf(cand, sizeof cand, "%s%s.%d", path, suffix, n);
        else
            snprintf(cand, sizeof cand, "%s%s", path, suffix);
        /* link() never replaces a file; where hard links are not possible,
         * rename() to a name that was free a moment ago */
        if (link(path, cand) == 0) {
            if (unlink(path) != 0) {
                int e = errno;
                unlink(cand);
                snprintf(err, cap, "%s: cannot move %s aside to %s: %s", path, what, cand,
                         strerror(e));
                return -1;
            }
        } else if (errno == EEXIST) {
            continue;
        } else {
            struct stat cs;
            if (lstat(cand, &cs) == 0) continue;
            if (rename(path, cand) != 0) {
                snprintf(err, cap, "%s: cannot move %s aside to %s: %s", path, what, cand,
                         strerror(errno));
                return -1;
            }
        }
        snprintf(kept, keptcap, "%s", cand);
        return 0;
    }
    if (first == 0)
        snprintf(err, cap, "%s: cannot move %s aside: %s%s and %s%s.1 to .999 all exist", path,
                 what, path, suffix, path, suffix);
    else
        snprintf(err, cap, "%s: cannot move %s aside: %s%s.1 to .999 all exist", path, what, path,
                 suffix);
    return -1;
}

int tn_autosave_set_aside(const char *path, char *kept, size_t keptcap, char *err, size_t cap)
{
    return tn_move_aside(path, "", 1, "the older autosave", kept, keptcap, err, cap);
}

int tn_screenshot_target_check(const char *path, char *err, size_t cap)
{
    struct stat st, lst;
    if (stat(path, &st) != 0) return 0; /* nothing there (a link to nothing: the write says) */
    if (!S_ISREG(st.st_mode)) {         /* a directory, a FIFO, a pipe: said as a save says */
        char *real;
        bool exists;
        if (save_target(path, &real, &st, &exists, err, cap) != 0) return -1;
        free(real);
        snprintf(err, cap, "%s: is not a regular file: not replaced", path);
        return -1;
    }
    if (st.st_size == 0) return 0; /* an empty file: nothing to lose */
    char head[2] = {0, 0};
    ssize_t n = -1;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        do n = read(fd, head, 2);
        while (n < 0 && errno == EINTR);
        close(fd);
    }
    if (n < 0) {
        snprintf(err, cap,
                 "%s: not replaced: it cannot be read to check that it is an older screenshot "
                 "(%s); write the screenshot under another name",
                 path, strerror(errno));
        return -1;
    }
    if (n == 2 && head[0] == 'B' && head[1] == 'M') return 0; /* an older BMP: replaced */
    char link[PATH_MAX + 64] = "";
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char *real = realpath(path, NULL);
        snprintf(link, sizeof link, ", and it is a symbolic link to %s",
                 real ? real : "another file");
        free(real);
    }
    snprintf(err, cap,
             "%s: not replaced: it is not a BMP image (it does not start with 'BM')%s; a "
             "screenshot replaces only an older screenshot: write it under another name, or "
             "remove that file first",
             path, link);
    return -1;
}

int tn_map_start_where(const char *path, int sx, int sy, int *line, int *col)
{
    *line = *col = 0;
    if (tn_tiled_kind(path)) return -1;
    char *buf, err[256];
    size_t len;
    if (read_map_text(path, &buf, &len, err, sizeof err) != 0) return -1;
    size_t pos = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0, n;
    const char *l;
    int ln = 0, tiles = 0;
    while (take_line(buf, len, &pos, &l, &n)) {
        ln++;
        if (!tiles) {
            if (n >= 6 && memcmp(l, "start", 5) == 0 && (l[5] == ' ' || l[5] == '\t')) {
                size_t k = 5;
                while (k < n && (l[k] == ' ' || l[k] == '\t')) k++;
                *line = ln;
                *col = (int)k + 1;
                break;
            }
            size_t k = n;
            while (k > 0 && (l[k - 1] == ' ' || l[k - 1] == '\t')) k--;
            if (k == 5 && memcmp(l, "tiles", 5) == 0) tiles = ln;
        } else if (ln - tiles - 1 == sy) {
            if ((size_t)sx < n && l[sx] == 'P') {
                *line = ln;
                *col = sx + 1;
            }
            break;
        }
    }
    free(buf);
    return *line ? 0 : -1;
}
