/* SPDX-License-Identifier: Zlib */
/* tn_wagents.h - the world's agents part: one
 * companion (tn_companion.h) and up to TN_WAGENTS_MAX_WANDERERS wanderers
 * (tn_wander.h), on the world's navigation mesh (tn_wnav.h).
 *
 * Companion: placed next to the character at creation (on a map with no
 * free tile at all there is none until an edit makes room); it follows the
 * character, keeps clear of every enemy (tn_wenemies' positions, bucketed
 * each step into a tn_grid over the map with cells of the separation
 * radius), searches by navmesh path when it loses sight and fetches items.
 * A picked item is hidden by the world (tn_world_take_item), its mark left
 * on the map (a save keeps it; an edit of its tile shows it again): a
 * pickup, not an edit: not counted in "edits", no on_edit broadcast, the
 * map's revision unchanged.  The item list is kept in step with the map by
 * on_edit (incrementally for one tile).
 *
 * Wanderers: parameter "wanderers" (0..64) adds or removes them; new ones
 * start at a random free spot in the same navmesh region as their target,
 * 6..20 tiles from it when the map allows, each with its own tn_rng stream
 * drawn from the world's seed and a serial number (deterministic).  Their
 * target is the character's centre, or the centre of the tile placed with
 * TN_TOOL_TARGET (the nearest free point when that tile is a block); a
 * click on the current target's tile gives the target back to the character.
 *
 * Edits are never refused by agents: a block placed over the companion or a
 * wanderer pushes it out to the nearest free spot (it is small: the player
 * should not have to chase it away to build), the companion then re-plans
 * and wanderers whose waypoints are near the edit start their walk again
 * (a wanderer with no free tile left anywhere is removed).
 *
 * Parameters (range-checked by the world core): companion_speed (px/s:
 * the companion's max_speed), follow_distance (tiles: follow_outer; the
 * inner radius is half of it; at every character size the companion keeps
 * char_clearance off the character's box, tn_companion.h), wanderers,
 * bias, smoothness.
 * JSON: ,"companion":{"state":"follow|search|fetch","x":PX,"y":PY,
 *        "sees_character":BOOL,"items":N},"wanderers":{"count":N,
 *        "mean_distance":X}  (X: mean distance to the target in tiles,
 *        two decimals; 0.00 with no wanderers).
 * Overlays: TN_OVERLAY_COMPANION (follow radii around its anchor,
 * separation radius, line of sight, last place seen, path), and
 * TN_OVERLAY_WANDERERS (waypoints, the spline being travelled and the next
 * one, the target).
 */
#ifndef TN_WAGENTS_H
#define TN_WAGENTS_H

#include "tn_companion.h"
#include "tn_wander.h"
#include "tn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_WAGENTS_MAX_WANDERERS 64

typedef struct tn_wagents {
    tn_companion_params cparams;
    tn_companion companion;
    bool has_companion; /* false while the map has no room for it */
    tn_wander_params wparams;
    tn_wanderer wanderers[TN_WAGENTS_MAX_WANDERERS];
    int nwanderers;
    /* wid[i]: wanderer i's spawn number (serial + 1 when made), moved
     * with it when a removal moves the last wanderer into its slot: the
     * inspect card's pin follows it by this (64-bit as serial: a 32-bit
     * one wrapped after 2^32 wanderers, and the pin followed another) */
    uint64_t wid[TN_WAGENTS_MAX_WANDERERS];
    uint64_t serial;          /* wanderers spawned so far (stream ids) */
    bool custom_target;       /* false: the target is the character */
    float target_x, target_y; /* the custom target, px */
    int target_tx, target_ty; /* its tile */
    float *items;             /* item centres, px */
    int nitems, items_cap;
    tn_grid *grid; /* enemies, rebuilt every step */
    float *enemy_xy;
    int enemy_cap;
    int neighbours; /* enemies inside the separation radius last step */
    tn_rng rng;     /* placement of new wanderers */
} tn_wagents;

/* The world's agents state (NULL before creation). */
const tn_wagents *tn_wagents_of(const tn_world *w);

/* The wanderers' target now (the character's centre or the placed one). */
void tn_wagents_target(const tn_world *w, float *x, float *y);

/* ---- this part's parameters (see tn_param_info) ---- */
tn_status tn_wagents_set_companion_speed(tn_world *w, double value, tn_error *err);
tn_status tn_wagents_set_follow_distance(tn_world *w, double value, tn_error *err);
tn_status tn_wagents_set_wanderers(tn_world *w, double value, tn_error *err);
tn_status tn_wagents_set_bias(tn_world *w, double value, tn_error *err);
tn_status tn_wagents_set_smoothness(tn_world *w, double value, tn_error *err);
bool tn_wagents_get_companion_speed(const tn_world *w, double *value);
bool tn_wagents_get_follow_distance(const tn_world *w, double *value);
bool tn_wagents_get_wanderers(const tn_world *w, double *value);
bool tn_wagents_get_bias(const tn_world *w, double *value);
bool tn_wagents_get_smoothness(const tn_world *w, double *value);
#define TN_WAGENTS_PARAM_COMPANION_SPEED                                           \
    {                                                                              \
        "companion_speed", 40, 480, 220, false, "px/s", "companion maximum speed", \
            tn_wagents_set_companion_speed, tn_wagents_get_companion_speed         \
    }
#define TN_WAGENTS_PARAM_FOLLOW_DISTANCE                                          \
    {                                                                             \
        "follow_distance", 1, 10, 3, false, "tiles", "companion follow distance", \
            tn_wagents_set_follow_distance, tn_wagents_get_follow_distance        \
    }
#define TN_WAGENTS_PARAM_WANDERERS                                                        \
    {                                                                                     \
        "wanderers", 0, 64, 0, true, "", "number of wanderers", tn_wagents_set_wanderers, \
            tn_wagents_get_wanderers                                                      \
    }
#define TN_WAGENTS_PARAM_BIAS                                                                    \
    {                                                                                            \
        "bias", 0, 1, 0.5, false, "", "wanderers' drift toward the target", tn_wagents_set_bias, \
            tn_wagents_get_bias                                                                  \
    }
#define TN_WAGENTS_PARAM_SMOOTHNESS                                       \
    {                                                                     \
        "smoothness", 0, 1, 0.5, false, "", "wanderers' turn smoothness", \
            tn_wagents_set_smoothness, tn_wagents_get_smoothness          \
    }

#ifdef __cplusplus
}
#endif

#endif
