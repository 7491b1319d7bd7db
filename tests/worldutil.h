/* worldutil.h - helpers for the suites that run the sandbox's world
 * (src/sandbox).  Include after <cmocka.h>. */
#ifndef TN_WORLDUTIL_H
#define TN_WORLDUTIL_H

#include "testutil.h"
#include "tn_world.h"

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
