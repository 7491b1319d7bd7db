#define _POSIX_C_SOURCE 200809L
#include "fileio.h"
#include "tiled.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tn_read_file(const char *path, size_t max, char **out, size_t *len, char *err, size_t cap)
{
    *out = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY);
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
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > (unsigned long long)max) {
        snprintf(err, cap, "%s: file is %lld bytes, larger than the %zu-byte limit", path,
                 (long long)st.st_size, max);
        close(fd);
        return -1;
    }
    size_t size = S_ISREG(st.st_mode) ? (size_t)st.st_size : 4096, used = 0;
    char *buf = malloc(size + 1);
    if (!buf) {
        snprintf(err, cap, "%s: out of memory", path);
        close(fd);
        return -1;
    }
    for (;;) {
        if (used == size) { /* a pipe or a file that grew: read on, within the limit */
            if (size >= max) {
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

int tn_load_map(const char *path, tn_map **out, char *err, size_t cap)
{
    char *buf;
    size_t len;
    *out = NULL;
    if (tn_tiled_kind(path)) return tn_tiled_load(path, out, err, cap); /* .tmx .tmj .json */
    if (tn_read_file(path, TN_MAP_FILE_MAX, &buf, &len, err, cap) != 0) return -1;
    tn_error e;
    tn_status s = tn_map_parse(buf, len, path, NULL, out, &e);
    free(buf);
    if (tn_failed(s)) {
        snprintf(err, cap, "%s", e.msg);
        return -1;
    }
    return 0;
}

int tn_write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t cap)
{
    /* One fixed temporary name per file: a save killed half-way leaves at
     * most one stale PATH.tmp, which the next save simply overwrites. */
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        snprintf(err, cap, "%s: path too long", path);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        snprintf(err, cap, "%s: cannot create %s: %s", path, tmp, strerror(errno));
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            snprintf(err, cap, "%s: write error: %s (the old file is untouched)", path,
                     strerror(errno));
            close(fd);
            unlink(tmp);
            return -1;
        }
        done += (size_t)n;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        snprintf(err, cap, "%s: cannot flush: %s (the old file is untouched)", path,
                 strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, cap, "%s: cannot replace: %s (the old file is untouched)", path,
                 strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int tn_save_map(const tn_map *m, const char *path, char *err, size_t cap)
{
    if (tn_tiled_kind(path)) return tn_tiled_save(m, path, err, cap); /* .tmx .tmj .json */
    size_t need = tn_map_format_size(m), len;
    char *buf = malloc(need);
    if (!buf) {
        snprintf(err, cap, "%s: out of memory", path);
        return -1;
    }
    tn_map_format(m, buf, need, &len);
    int rc = tn_write_file_atomic(path, buf, len, err, cap);
    free(buf);
    return rc;
}

void tn_autosave_path(const char *map_path, char *out, size_t cap)
{
    snprintf(out, cap, "%s.autosave", map_path);
}
