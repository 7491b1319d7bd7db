/* testutil.h - helpers shared by the cmocka suites.  Include after
 * <cmocka.h>; every helper fails the running test with the loader's own
 * message when a file does not load. */
#ifndef TN_TESTUTIL_H
#define TN_TESTUTIL_H

#include "fileio.h"
#include "tn_world.h"

/* A map file, relative to the repository root (tests run from there). */
static inline tn_map *tu_load_map(const char *path)
{
    char err[512];
    tn_map *m = NULL;
    if (tn_load_map(path, &m, err, sizeof err) != 0)
        fail_msg("%s (tests run from the repository root)", err);
    return m;
}

/* A world on a map file, with the default configuration and `seed`. */
static inline tn_world *tu_load_world(const char *path, uint64_t seed)
{
    tn_world_config cfg = tn_world_default_config();
    cfg.seed = seed;
    tn_world *w = NULL;
    tn_error e;
    if (tn_failed(tn_world_create(tu_load_map(path), &cfg, NULL, &w, &e))) fail_msg("%s", e.msg);
    return w;
}

#endif
