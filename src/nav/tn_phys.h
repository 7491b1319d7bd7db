/* SPDX-License-Identifier: Zlib */
/* tn_phys.h - fixed-step platformer physics for an axis-aligned box.
 *
 * Units: pixels and seconds; a tile is TN_TILE_PX = 16 px; +y is DOWN.
 * One call of tn_body_step() advances one fixed step of params.dt seconds
 * (1/60 s by default).  The game runs it from an accumulator so the
 * simulation is independent of the frame rate; bots call it with the very
 * same tn_input a player produces, so a bot can do exactly what a player can.
 *
 * Tuning (the classic tile-platformer values): gravity 1030 px/s^2, terminal
 * fall speed 900 px/s, walk speed 160 px/s with instant start and stop and the
 * same control in the air.
 *
 * Jump: the take-off speed is derived from the jump height H (tiles):
 *        v0 = sqrt(2 * g * (H * 16 + TN_JUMP_MARGIN_PX))
 * and the vertical motion uses the exact constant-acceleration update
 *        y += vy*dt + g*dt^2/2;  vy += g*dt
 * so the sampled apex of a full jump is within g*dt^2/8 = 0.04 px of the
 * continuous apex H*16 + 0.5 px: the feet clear a ledge exactly H tiles up by
 * half a pixel.  Releasing jump while rising cuts the upward speed to
 * jump_cut_speed (variable jump height).  A jump is started by pressing jump
 * (an edge: holding it down does not bunny-hop) while on the ground or within
 * coyote_frames (4) steps after walking off a ledge.
 *
 * Collisions: x then y, each split into sub-moves of at most 8 px, so nothing
 * tunnels even at terminal speed (15 px/step).  Blocks are solid from every
 * side and so is the outside of the map.  One-way platforms only stop a body
 * that is moving down and whose feet were at or above the platform top at the
 * start of the step; holding Down while standing only on one-way platforms
 * drops through (the body is moved 1 px down, below the platform top).
 *
 * Cost: O(w*h tiles touched) per step, ~50 ns for a 1x2 body.  No allocation.
 */
#ifndef TN_PHYS_H
#define TN_PHYS_H

#include "tn_map.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_JUMP_MARGIN_PX 0.5f
#define TN_MAX_BODY_W 3
#define TN_MAX_BODY_H 9

typedef struct tn_input {
    bool left, right, down, jump;
} tn_input;

typedef struct tn_phys_params {
    float dt;             /* seconds per step; 1/60 */
    float gravity;        /* px/s^2; 1030 */
    float max_fall;       /* px/s; 900 */
    float walk_speed;     /* px/s; 160 */
    float jump_height;    /* tiles, 1..8: apex of a full jump */
    float jump_cut_speed; /* px/s: upward speed left when jump is released; 120 */
    int coyote_frames;    /* steps after leaving a ledge a jump still counts; 4 */
} tn_phys_params;

typedef struct tn_body {
    float x, y;          /* pixels: top-left corner of the box */
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

/* The defaults listed above, with the given jump height. */
tn_phys_params tn_phys_default(float jump_height_tiles);
/* INVALID_PARAM (with a message) for values out of range:
 * dt in (0, 0.1], gravity/max_fall/walk_speed > 0, jump_height 1..8. */
tn_status tn_phys_validate(const tn_phys_params *p, tn_error *err);
/* Take-off speed in px/s (positive) for params->jump_height. */
float tn_phys_jump_speed(const tn_phys_params *p);

/* Place a w x h body standing with its bottom-left tile at (tx, ty). */
void tn_body_place(tn_body *b, int w, int h, int tx, int ty);
/* Advance one step. */
void tn_body_step(tn_body *b, const tn_map *m, const tn_phys_params *p, tn_input in);

/* True when the box at pixel (x, y) of w x h tiles overlaps a block
 * (or the outside of the map). */
bool tn_body_box_blocked(const tn_map *m, float x, float y, int w, int h);
/* The tile of the body's bottom-left cell: column of its left edge, row of
 * the pixel just above its feet. */
void tn_body_tile(const tn_body *b, int *tx, int *ty);

#ifdef __cplusplus
}
#endif

#endif
