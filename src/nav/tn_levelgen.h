/* SPDX-License-Identifier: Zlib */
/* tn_levelgen.h - random side-view platformer levels (the arrival harness's
 * test ground; `tilenav-bench genmap --kind platformer`).
 *
 * A level is built in layers, every choice drawn from the caller's tn_rng
 * (same seed, same level, on every platform):
 *  1. Terrain: a floor whose surface height walks in terraces: runs of 3-10
 *     columns, each 0-3 rows higher or lower than the last (kept within the
 *     bottom quarter of the map: 3 to H/4 + 1 rows thick).
 *  2. Pits: about one per 14 columns, 1-4 tiles wide, cut through the floor
 *     down to the bottom edge (the map's outside is solid, so a pit is a
 *     hole as deep as the floor is thick, 3 to H/4 + 1 tiles: 3-4 on a
 *     12-row map, 3-9 on 32 rows, far more on tall maps; often too deep
 *     to jump out of).
 *  3. Platforms: about one per 50 tiles of area, 2-9 tiles long, 1 or (20%)
 *     2 rows thick, 40% of them one-way, floating 1-8 rows above the local
 *     floor or anywhere in the upper part of the level: stairs, ledges of
 *     every height, low ceilings and tunnels the character must crouch
 *     under come out of this.
 *  4. Walls: about one per 12 columns, 1-2 tiles wide, 2-7 tall, standing on
 *     the floor or hanging from the top, so some are climbed, some jumped
 *     over and some walked under.
 *  5. A P (start) mark on a random standing tile for a 1x1 character.
 * Nothing is checked for reachability: the harness keeps only start/goal
 * pairs the path finder connects.
 *
 * Cost: O(W*H).  No allocation (fills a map the caller created).
 *
 * Thread safety: writes only the map and the rng it is given.
 * Memory: none (fills the caller's map).
 */
#ifndef TN_LEVELGEN_H
#define TN_LEVELGEN_H

#include "tn_map.h"
#include "tn_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Overwrite every tile of `m` with a new level.  INVALID_PARAM (message)
 * when the map is smaller than 16 x 12, or is not one tn_map_create could
 * make (fields set by hand: larger than TN_MAP_MAX_SIZE, or no tile or
 * mark array). */
tn_status tn_levelgen_platformer(tn_map *m, tn_rng *rng, tn_error *err);

#ifdef __cplusplus
}
#endif

#endif
