/* testutil.h - helpers shared by the cmocka suites.  Include after
 * <cmocka.h>; every helper fails the running test with the loader's own
 * message when a file does not load.  The library's suites use it with
 * src/nav alone (a map is read with stdio and tn_map_parse); a suite that
 * includes src/game's fileio.h first loads through tn_load_map instead
 * (Tiled maps too).  tu_load_world is in worldutil.h (the sandbox). */
#ifndef TN_TESTUTIL_H
#define TN_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "tn_map.h"

/* A map file, relative to the repository root (tests run from there). */
static inline tn_map *tu_load_map(const char *path)
{
    tn_map *m = NULL;
#ifdef TN_FILEIO_H
    char err[512];
    if (tn_load_map(path, &m, err, sizeof err) != 0)
        fail_msg("%s (tests run from the repository root)", err);
#else
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("%s: cannot open (tests run from the repository root)", path);
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    if (!buf) fail_msg("%s: out of memory", path);
    while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) fail_msg("%s: out of memory", path);
            buf = b;
        }
    }
    fclose(f);
    tn_error e;
    tn_status s = tn_map_parse(buf, len, path, NULL, &m, &e);
    free(buf);
    if (tn_failed(s)) fail_msg("%s", e.msg);
#endif
    return m;
}

#endif
