/* SPDX-License-Identifier: Zlib */
/* tn_phys.h - fixed-step platformer physics for an axis-aligned box.
 *
 * Units: pixels and seconds; +y is DOWN.  A tile is params.tile_px pixels
 * (T below; TN_TILE_PX = 16 by default, 4..256 accepted): every function that
 * converts between tiles and pixels takes the params and reads tile_px from
 * them, so a game with 32-px tiles states tile_px = 32 and its own pixel
 * speeds and never converts.  The default values below are for T = 16.
 * One call of tn_body_step() advances one fixed step of params.dt seconds
 * (1/60 s by default).  The game runs it from an accumulator so the
 * simulation is independent of the frame rate; bots call it with the very
 * same tn_input a player produces, so a bot can do exactly what a player can.
 *
 * Tuning (the classic tile-platformer values at 16 px): gravity 1030 px/s^2,
 * terminal fall speed 900 px/s, walk speed 160 px/s with instant start and
 * stop and the same control in the air.
 *
 * Scale invariance: the internal pixel margins are fixed fractions of a tile
 * (overlap slack T/128, collision sub-move T/2, jump margin T/32, drop-through
 * T/16: 1/8, 8, 0.5 and 1 px at 16), computed as TN_PX16(T, value at 16),
 * which is bit-identical to the plain value at T = 16.  Multiplying tile_px,
 * gravity, max_fall, walk_speed and jump_cut_speed by a power of two (dt,
 * jump_height, coyote_frames unchanged) multiplies every position and speed
 * by exactly that factor at every step and leaves every flag unchanged
 * (float rounding commutes with power-of-two scaling); other factors agree
 * up to float rounding.
 *
 * Jump: the take-off speed is derived from the jump height H (tiles):
 *        v0 = sqrt(2 * g * (H * T + T/32))
 * and the vertical motion uses the exact constant-acceleration update
 *        y += vy*dt + g*dt^2/2;  vy += g*dt
 * so the sampled apex of a full jump is within g*dt^2/8 = 0.04 px of the
 * continuous apex H*T + T/32 (at 16 px): the feet clear a ledge exactly H
 * tiles up by half a pixel.  Releasing jump while rising cuts the upward
 * speed to jump_cut_speed (variable jump height).  A jump is started by
 * pressing jump (an edge: holding it down does not bunny-hop) while on the
 * ground or within coyote_frames (4) steps after walking off a ledge.
 *
 * Collisions: x then y, each split into sub-moves of at most T/2 (8 px), so
 * nothing tunnels even at terminal speed (15 px/step).  Blocks are solid from
 * every side and so is the outside of the map, which includes any NaN,
 * infinite or huge (2^30 tiles and more) position: such a box is blocked
 * and a step of such a body returns at once.  One-way platforms only stop a
 * body that is moving down and whose feet were at or above the platform top
 * at the start of the step; holding Down while standing only on one-way
 * platforms drops through (the body is moved T/16 = 1 px down, below the
 * platform top).
 * A box the caller moved into a block (knock-back written to b->x or b->y,
 * a placement; overlapping it by more than the T/128 slack, which the
 * physics itself never does) is first moved out, at the start of the next
 * step, by the shortest move that frees it: to the nearer tile edge on x or
 * on y (each less than a tile), else on both, the smallest |dx| + |dy|.
 * The moves test only the tiles they enter, so before that such a box
 * walked through a one-tile wall, or, pushed into a ledge's corner as it
 * fell past, sank into the block's top row and stood inside it.  A box
 * more than a tile deep is left where it is.  A game that stops its
 * pushes at walls itself (tn_body_box_blocked) keeps them as it made them.
 * Walking (and moving in the air) steps x by walk_speed * dt; where that
 * divides a tile into n whole steps (8/3 px: 6 at the defaults; 3 at
 * tile_px 8 and 12 at 32 with the same speeds), an x within T/128 (the
 * overlap slack: 1/8 px at 16, 1/4 px at 32) of the walk lattice k * T/n
 * after a move is set to the float nearest k * T/n, so x does not drift
 * however far a body walks (float sums of the step drifted 0.19 px by x =
 * 8,000 px, 0.8 px by 16,000: far from the map's left edge a box could
 * not stop over a hole its width).  "Divides" allows T / step to miss n by
 * 1/1000 (the float rounding of walk_speed * dt), so a walk_speed that
 * close to such a speed walks at it: 160.01 px/s moves 8/3 px a step, as
 * 160 does (not 0.01 px/s faster); 150 (2.5 px, 6.4 a tile) is not
 * snapped.  An x placed further off the lattice (say 1.3 px) is not
 * snapped: it walks off the lattice, with float sums' drift, until a wall
 * or a placement puts it on a tile edge.  Only a move with vx != 0 snaps.
 *
 * Memory: none beyond the caller's tn_body (36 bytes on x86-64).
 * Thread safety: pure functions of their arguments; bodies are the caller's.
 * Cost: O(w*h tiles touched) per step; no allocation.  The time of a 1x2
 * body's step on the demo map is measured by `tilenav-bench astar` (its
 * "physics step" line, random held input); docs/bench.md has the current
 * run.
 */
#ifndef TN_PHYS_H
#define TN_PHYS_H

#include "tn_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A pixel length given by its value v16 at 16-px tiles, for tiles of
 * tile_px pixels: exact (v16 / 16 is a power-of-two scaling), so
 * TN_PX16(16, v) == v bit for bit. */
#define TN_PX16(tile_px, v16) ((tile_px) * ((v16) / 16.0f))
/* How far a full jump's continuous apex clears jump_height tiles: T/32
 * (0.5 px at 16). */
#define TN_JUMP_MARGIN(tile_px) TN_PX16(tile_px, 0.5f)
#define TN_PHYS_TILE_PX_MIN 4
#define TN_PHYS_TILE_PX_MAX 256
#define TN_PHYS_GRAVITY_MAX 10000 /* tiles/s^2 (the default: about 64) */
#define TN_PHYS_SPEED_MAX 1000    /* tiles/s: max_fall, walk_speed, jump_cut_speed */
/* Steps a full jump may rise (jump speed / gravity / dt; the default
 * physics: 12..30): the jump model and the bot simulate that many. */
#define TN_PHYS_RISE_STEPS_MAX 600
#define TN_MAX_BODY_W 3
#define TN_MAX_BODY_H 9

typedef struct tn_input {
    bool left, right, down, jump;
} tn_input;

/* Defaults (tn_phys_default) in brackets; the pixel ones are for 16-px tiles
 * (scale them with tile_px). */
typedef struct tn_phys_params {
    float dt;             /* seconds per step [1/60] */
    float gravity;        /* px/s^2 [1030] */
    float max_fall;       /* px/s [900] */
    float walk_speed;     /* px/s [160] */
    float jump_height;    /* tiles, 1..8: apex of a full jump */
    float jump_cut_speed; /* px/s: upward speed left when jump is released [120] */
    int coyote_frames;    /* steps after leaving a ledge a jump still counts [4] */
    float tile_px;        /* pixels per tile, 4..256 [TN_TILE_PX = 16] */
} tn_phys_params;

typedef struct tn_body {
    float x, y;          /* pixels (params.tile_px per tile): top-left corner */
    float vx, vy;        /* px/s */
    int w, h;            /* size in tiles: 1..3 x 1..9 */
    bool on_ground;      /* standing on a block or a one-way top after the step */
    bool on_oneway_only; /* standing, and every support is a one-way platform */
    bool jump_held;      /* jump input of the previous step */
    bool rising;         /* in a jump's rising phase (the cut applies) */
    bool hit_ceiling;    /* bumped a ceiling during the last step */
    bool hit_wall;       /* stopped by a wall during the last step */
    bool jumped;         /* a jump started during the last step */
    int air_frames;      /* steps since last on the ground (large after a jump) */
} tn_body;

/* The defaults listed above (16-px tiles), with the given jump height. */
tn_phys_params tn_phys_default(float jump_height_tiles);
/* The same physics at k times the tile size: tile_px, gravity, max_fall,
 * walk_speed and jump_cut_speed multiplied by k (dt, jump_height and
 * coyote_frames are in steps or tiles and stay).  A body then moves exactly
 * k times as far each step when k is a power of two (tests/test_phys), e.g.
 * tn_phys_scaled(&defaults, 2) for a game with 32-px tiles.  p NULL: the
 * defaults (jump height 4), as tn_surf_profile_make takes it. */
tn_phys_params tn_phys_scaled(const tn_phys_params *p, float k);
/* INVALID_PARAM (with a message) for values out of range:
 * dt in (0, 0.1], gravity/max_fall/walk_speed > 0, jump_height 1..8,
 * tile_px 4..256, jump_cut_speed >= 0, coyote_frames 0..60; finite and
 * bounded: gravity <= TN_PHYS_GRAVITY_MAX tiles/s^2, the speeds <=
 * TN_PHYS_SPEED_MAX tiles/s, a walk step >= 1/64 px, a full jump's rise
 * (tn_phys_jump_speed / gravity / dt) at most TN_PHYS_RISE_STEPS_MAX
 * steps (so a tiny gravity is refused, not simulated short); p NULL too.  The functions
 * below assume valid params (tn_path and tn_bot validate them). */
tn_status tn_phys_validate(const tn_phys_params *p, tn_error *err);
/* Take-off speed in px/s (positive) for params->jump_height; 0 for NULL. */
float tn_phys_jump_speed(const tn_phys_params *p);

/* Every call that converts tiles and pixels takes the params (only tile_px
 * is read by the three below); a body does not store its tile size, so use
 * the same params for placing, stepping and reading one body. */

/* Place a w x h body at rest with its bottom-left tile at (tx, ty), its
 * feet on that tile's bottom edge.  w and h are clamped to the sizes a
 * body has, 1..TN_MAX_BODY_W and 1..TN_MAX_BODY_H (read b->w, b->h for
 * the size placed: a 10x20 request places a 3x9 body).  The body does
 * not see the map here, so on_ground is false until the first
 * tn_body_step sets it: call tn_body_settle (or step once with no input)
 * before reading on_ground (or tn_surf_node_of_body), or before a jump or
 * a Down on the first step.  NULL b or p: nothing. */
void tn_body_place(tn_body *b, const tn_phys_params *p, int w, int h, int tx, int ty);
/* The ground under a body at rest where it is, as tn_body_step finds it
 * (on_ground, on_oneway_only; air_frames 0 when standing), without moving
 * it: after tn_body_place, so that a jump or a Down on the very first step
 * acts as on any later one.  A body in the air, or moving up, is left as
 * it is.  NULL b, m or p, or tile_px outside 4..256: nothing.  O(its
 * width). */
void tn_body_settle(tn_body *b, const tn_map *m, const tn_phys_params *p);
/* Advance one step.  NULL b, m or p: nothing; nor for a body at a NaN,
 * infinite or huge position (2^30 tiles away: see Collisions), whose
 * fields are left as they are (no `jumped`, no velocity).  A tile_px outside
 * TN_PHYS_TILE_PX_MIN..MAX (0, negative, NaN: the sub-moves of T/2 px
 * never ended the step) returns at once: the body is not moved and
 * nothing in it changes. */
void tn_body_step(tn_body *b, const tn_map *m, const tn_phys_params *p, tn_input in);

/* True when the box at pixel (x, y) of w x h tiles overlaps a block
 * (or the outside of the map); true for NULL m or p. */
bool tn_body_box_blocked(const tn_map *m, const tn_phys_params *p, float x, float y, int w, int h);
/* The tile of the body's bottom-left cell: column of its left edge, row of
 * the pixel just above its feet.  tx, ty may be NULL; b or p NULL gives
 * (-1, -1), outside every map. */
void tn_body_tile(const tn_body *b, const tn_phys_params *p, int *tx, int *ty);

#ifdef __cplusplus
}
#endif

#endif
