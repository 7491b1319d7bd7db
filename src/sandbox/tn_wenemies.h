/* SPDX-License-Identifier: Zlib */
/* tn_wenemies.h - the world's enemies part: a
 * 4-connected flow field over the world's map, the spawner and its enemies.
 *
 * Board content: spawn points (map mark S) and destinations (mark D) on
 * empty tiles; flyers cross empty and one-way tiles.  Every accepted edit
 * updates the field incrementally (tn_flow_update) and re-plans the enemies
 * it concerns (tn_enemies_on_edit).
 *
 * Edit rules (check_edit; a refusal's message goes to the HUD):
 *  - the last destination and the last spawn point cannot be removed,
 *    except by an undo or redo (the history goes back to a map built up
 *    from none);
 *  - an edit that would leave a spawn point that has a path now without a
 *    path to any destination is refused (tn_flow_whatif, no allocation);
 *  - a new spawn point needs a path (one toggled onto a destination: a path
 *    without that destination), unless the map has no destination at
 *    all (a map with no spawn point or no destination just has an idle
 *    spawner, so a board can be built up in any order);
 *  - spawn points that had no path already (e.g. a closed room in a loaded
 *    map) never block other edits.
 *
 * Parameters: spawn_rate (0.1..10 per second).  Steps at the world's fixed
 * dt.  JSON: ,"enemies":{"alive":N,"spawned":N,"reached":N,"skipped":N}.
 * Overlay TN_OVERLAY_FLOW: an arrow per tile toward its next tile, open
 * tiles without a path tinted red (maps up to 256x256 tiles).
 * Units here: tiles for the library state, pixels only when drawing.
 *
 * Measured (tilenav-bench enemies, demo map 80x45, -O2): a world step with
 * 10,000 enemies takes about 0.3 ms (median; target < 2 ms).  The current
 * run, 1,000 enemies and the cost of drawing them through the game's
 * software renderer: docs/bench.md (`enemies`).
 */
#ifndef TN_WENEMIES_H
#define TN_WENEMIES_H

#include "tn_enemy.h"
#include "tn_flow.h"
#include "tn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_WENEMIES_CAPACITY 16384

typedef struct tn_wenemies {
    tn_flow *flow; /* 4-connected, same size as the map */
    tn_enemies *pool;
    int32_t *spawns; /* spawn tiles as y*w+x, ascending */
    int nspawns, spawn_cap;
    int ndests;
    tn_rng rng; /* the spawner's own stream, seeded from the world seed */
} tn_wenemies;

/* The world's enemies state (NULL before creation): for this part's tests
 * and the benchmarks.  Other parts read enemies only through the queries
 * below. */
tn_wenemies *tn_wenemies_of(const tn_world *w);

/* ---- queries for the other parts ---- */

/* How many enemies can be alive at once (TN_WENEMIES_CAPACITY): a fixed
 * bound, known before this part is created. */
int tn_wenemies_capacity(const tn_world *w);
/* Copies the pixel positions of at most `cap` live enemies into xy
 * (x0, y0, x1, y1, ...) and returns how many it copied: 0 before this part
 * is created or when none is alive.  Within a world step, the positions
 * after this step's enemy moves (the enemies step before the agents, see
 * tn_world.h).  O(count). */
int tn_wenemies_positions(const tn_world *w, float *xy, int cap);

/* ---- this part's parameters (see tn_param_info) ---- */
tn_status tn_wenemies_set_spawn_rate(tn_world *w, double value, tn_error *err);
bool tn_wenemies_get_spawn_rate(const tn_world *w, double *value);
#define TN_WENEMIES_PARAM_SPAWN_RATE                                         \
    {                                                                        \
        "spawn_rate", 0.1, 10, 1, false, "/s", "enemies spawned per second", \
            tn_wenemies_set_spawn_rate, tn_wenemies_get_spawn_rate           \
    }

#ifdef __cplusplus
}
#endif

#endif
