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

/* A 600x480 map (over 262,144 tiles: no classic planner) whose top 400
 * rows are a checkerboard of blocks: its outlines would need far more than
 * the world's navmesh memory limit, so the world has no navmesh.  Rows
 * 400..478 are free over a floor. */
static inline tn_map *tu_no_navmesh_map(void)
{
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(600, 480, NULL, &m, NULL)));
    for (int y = 0; y < 400; y++)
        for (int x = (y & 1); x < 600; x += 2) tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
    for (int x = 0; x < 600; x++) tn_map_set_tile(m, x, 479, TN_TILE_BLOCK, NULL);
    return m;
}

#endif
