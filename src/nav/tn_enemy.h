/* SPDX-License-Identifier: Zlib */
/* tn_enemy.h - a tower-defense spawner and enemies that fly a 4-connected
 * flow field (tn_flow) smoothly from spawn points to destinations.
 *
 * Units: positions in tile units (tile (x, y) covers [x, x+1) x [y, y+1),
 * y down), speeds in tiles per second, time in seconds, headings in radians
 * (0 = east, +pi/2 = south: y is down).
 *
 * Spawner: an accumulator gains spawn_rate * dt per step; each whole unit
 * spawns one enemy at a spawn point drawn with the caller's tn_rng among the
 * spawn points that have a path (none: the spawner idles and the
 * accumulator is emptied).  The enemy is advanced by the time elapsed since
 * its exact spawn moment inside the step, so spacing is even whatever dt is
 * (with cfg.spacing on, by at most the time since there was room: no enemy
 * flying at its speed was closer than the spacing to the spawn tile's
 * centre at that moment, and none is closer than the spacing to where the
 * spawn, flying at its own speed, lands, so a spawn never lands closer
 * than the spacing behind the enemy ahead, a slower one too; at 10 steps
 * a second it landed up to a step's travel closer).
 * Each enemy draws scale, speed and lane offset uniformly from the
 * configured ranges.  The pool has a fixed capacity: when it is full the
 * spawn is skipped and counted.
 *
 * Movement (after Catlike Coding's tower-defense tutorial): each segment
 * runs from the edge where the enemy entered a tile to the edge it leaves
 * by, with the enemy held `offset` tiles to the right of the lane centre:
 *   INTRO        spawn centre -> exit edge (straight; also used to re-plan)
 *   FORWARD      entry edge -> opposite edge (straight, 1 tile)
 *   TURN_RIGHT   quarter circle around the tile corner shared by the entry
 *   TURN_LEFT    and exit edges, radius 0.5 -/+ offset (right/left)
 *   TURN_AROUND  half circle around the entry edge midpoint, radius |offset|
 *   OUTRO        entry edge -> destination centre; then the enemy is
 *                reclaimed and counted as reached
 *   WAIT         to the tile centre, then hover there (no path: see below)
 * Each segment's progress runs 0..1 at speed / length per second; progress
 * left over at a state change is converted back to seconds and rescaled by
 * the next segment's factor, so the speed along the path is constant
 * (except a U-turn with |offset| < 0.2, which takes the time of a 0.2-tile
 * radius: the enemy visibly pivots instead of flipping round instantly).
 * The next tile is read from the field at every edge, so an edit redirects
 * enemies already flying.  Lanes and turns keep an enemy inside its tile.
 *
 * Edits (tn_enemies_on_edit, after the field was updated for tile (x, y)):
 *  - an enemy whose tile, or the tile it is about to enter, was edited
 *    re-plans at once from where it is (a straight INTRO segment to its
 *    tile's new exit, or an OUTRO if its tile became a destination);
 *  - an enemy whose tile became a block is pushed to the centre of the
 *    nearest open neighbouring tile (normally the one it came from) and
 *    re-plans from there; with no open neighbour it is removed and counted
 *    as crushed.  No enemy is ever inside a block;
 *  - an enemy whose tile has no path (walled into a pocket without a
 *    destination) flies to the tile centre and hovers (WAIT); it resumes as
 *    soon as the field gives its tile a next tile again.
 *
 * Memory: sizeof(tn_enemies) + capacity * sizeof(tn_enemy) bytes, allocated
 * at creation; alive enemies are kept dense (a reclaimed one is replaced by the
 * last), so a step walks only the alive ones.  No allocation after create.
 * Determinism: a pure function of the caller's tn_rng, the field and dt.
 * Cost (tilenav-bench enemies, demo map, -O2): tn_enemies_step takes about
 * 20-25 ns per enemy (about 0.2 ms for 10,000 enemies; docs/bench.md has
 * the current run).
 *
 * Thread safety: a pool belongs to one thread at a time; the flow field it
 * reads may be shared read-only with other threads.
 */
#ifndef TN_ENEMY_H
#define TN_ENEMY_H

#include "tn_common.h"
#include "tn_flow.h"
#include "tn_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tn_enemy_state {
    TN_ENEMY_INTRO = 0,
    TN_ENEMY_FORWARD,
    TN_ENEMY_TURN_RIGHT,
    TN_ENEMY_TURN_LEFT,
    TN_ENEMY_TURN_AROUND,
    TN_ENEMY_OUTRO,
    TN_ENEMY_WAIT,
} tn_enemy_state;

typedef struct tn_enemy {
    float x, y;    /* position, tile units */
    float heading; /* radians */
    float scale, speed, offset;
    float progress; /* 0..1 along the current segment */
    float factor;   /* progress per second = speed / segment length */
    /* Segment: straight  pos = p + (a - p) * t;
     *          arc       pos = p + a cos(t*span) + b sin(t*span). */
    float px, py, ax, ay, bx, by, span;
    float h0, dh;   /* heading at t = 0 and its change over the segment */
    int32_t tx, ty; /* the tile the enemy is in */
    int32_t nx, ny; /* the tile it enters next (when moving) */
    uint8_t state;  /* tn_enemy_state */
    uint8_t dir;    /* direction of travel, TN_DIR_N..W */
    uint64_t id;    /* spawn serial number, from 1 (64-bit: never wraps; a 32-bit one
                       wrapped after 2^32 spawns, giving two alive enemies one
                       number) */
} tn_enemy;

typedef struct tn_enemies_config {
    int capacity;                 /* pool size, 1..1<<20; default 4096 */
    float spawn_rate;             /* enemies per second, 0..1000; default 1 */
    float scale_min, scale_max;   /* 0.001..100, min <= max; default 0.5..2 */
    float speed_min, speed_max;   /* tiles/s, 0.001..100, min <= max; default 0.2..5 */
    float offset_min, offset_max; /* tiles, within -0.45..0.45; default -0.4..0.4 */
    float spacing;                /* tiles, 0..2; default 0 (off): a spawn waits while
                                       an enemy is closer than this to the spawn tile's
                                       centre (high rates then keep enemies apart
                                       instead of piling them on the spawn point; the
                                       accumulator holds at most one waiting spawn) */
} tn_enemies_config;

typedef struct tn_enemies {
    tn_enemy *e; /* e[0..count) alive */
    int count;
    tn_enemies_config cfg;
    double accum;                               /* spawn accumulator, in enemies */
    int64_t spawned, reached, skipped, crushed; /* (64-bit where long is 32) */
    /* ids given before the last tn_enemies_clear: the next enemy is
     * id_base + spawned + 1, so ids never start again at 1 (a caller
     * keeping one, an inspect card, never meets another enemy under it) */
    uint64_t id_base;
    tn_allocator alloc;
} tn_enemies;

/* The defaults given beside the fields above. */
tn_enemies_config tn_enemies_default_config(void);
/* Checks every field; a message names the bad one.  cfg NULL: INVALID_PARAM
 * ("enemy: no config"). */
tn_status tn_enemies_validate(const tn_enemies_config *cfg, tn_error *err);
/* A pool for cfg (validated as above; cfg NULL: tn_enemies_default_config(),
 * a pool of 4096) in *out; out NULL: INVALID_PARAM; OUT_OF_MEMORY.  Each
 * failure with a message and *out NULL. */
tn_status tn_enemies_create(const tn_enemies_config *cfg, const tn_allocator *a, tn_enemies **out,
                            tn_error *err);
void tn_enemies_destroy(tn_enemies *s);
/* sizeof(tn_enemies) + capacity * sizeof(tn_enemy): the bytes its create
 * allocated; 0 for NULL. */
size_t tn_enemies_memory(const tn_enemies *s);
/* New ranges / rate.  The capacity is fixed at creation: cfg->capacity must
 * be the pool's or 0 (keep), else INVALID_PARAM with a message. */
tn_status tn_enemies_configure(tn_enemies *s, const tn_enemies_config *cfg, tn_error *err);
/* Remove every enemy and zero the counters and the accumulator (NULL:
 * nothing); the ids go on from the last one given (id_base). */
void tn_enemies_clear(tn_enemies *s);

/* One step of dt seconds: move every enemy, reclaim those that arrived,
 * then spawn.  `spawns` lists spawn tiles as y*w+x (tiles outside the board
 * or without a path are skipped: no spawn point with a path is not an
 * error, the pool just idles); nspawns 0 (spawns and rng may then be NULL)
 * only moves the enemies.  INVALID_PARAM (message, nothing moves) for
 * an 8-connected field, a dt that is negative, NaN or infinite, a negative
 * nspawns, or nspawns > 0 with spawns or rng NULL.  A long
 * step (a game back from a pause) makes at most `capacity` spawns; the
 * rest of those due are counted as skipped at once.  The field
 * must be of the board the tiles refer to. */
tn_status tn_enemies_step(tn_enemies *s, const tn_flow *f, const int32_t *spawns, int nspawns,
                          tn_rng *rng, float dt, tn_error *err);
/* Spawn one enemy now at tile (x, y) (draws its ranges from rng).
 * INVALID_PARAM outside the board or on an 8-connected field, REFUSED when
 * the tile is a wall or has no path, CAPACITY (and counted as skipped) when
 * the pool is full; each with a message. */
tn_status tn_enemies_spawn_at(tn_enemies *s, const tn_flow *f, int x, int y, tn_rng *rng,
                              tn_error *err);
/* Tile (x, y) changed and the field was already updated: re-plan, push out
 * or remove the enemies concerned (see the header).  INVALID_PARAM on an
 * 8-connected field or a tile outside the board. */
tn_status tn_enemies_on_edit(tn_enemies *s, const tn_flow *f, int x, int y, tn_error *err);

#ifdef __cplusplus
}
#endif

#endif
