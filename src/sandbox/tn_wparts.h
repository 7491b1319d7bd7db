/* SPDX-License-Identifier: Zlib */
/* tn_wparts.h - the contract between the world (tn_world.c) and its four
 * fixed parts, for the sandbox's own files.  No function-pointer table: the
 * world calls each part by name, always in this order (the order is part of
 * the contract, see tn_world.h):
 *
 *     bots (tn_wbots.c), enemies (tn_wenemies.c), navmesh (tn_wnav.c),
 *     agents (tn_wagents.c)
 *
 * create in that order, destroy in the reverse; drive (bots only), then the
 * character's physics, then step in that order; check_edit in that order
 * (the first refusal wins), on_edit, json, hud, draw and check in that
 * order.  Parameters: each part's header declares its entries
 * (TN_W*_PARAM_*: name, range, default, unit, help, setter, getter).  A part
 * reads another only through that part's named queries
 * (e.g. tn_wenemies_positions), never its state.
 *
 * Hooks (X = wbots, wenemies, wnav, wagents; a part lacks the ones it does
 * not need):
 *   create(w, err)            after the world's core; TN_OK or a failure
 *   destroy(w)                also after a failed create (NULL-safe)
 *   drive(w, in, player)      before the character moves: a bot may drive
 *                             it (writes *in, returns true); `player` is true
 *                             when the player pressed a key (let go)
 *   step(w)                   one fixed step, after the character moved
 *   physics(w)                the jump height or the character's size
 *                             changed (a slider): a trip under way takes
 *                             the new graph now, so a paused HUD says so
 *   check_edit(w,x,y,t,m,err) may refuse setting tile (x,y) to t with mark m
 *   on_edit(w, x, y)          after tile (x,y) changed (x = -1: whole map)
 *   click(w, x, y, tool, err) a left click with a tool this part owns
 *   json(w, buf, cap)         appends ,"section":{...}; returns what it wanted
 *   hud(w, buf, cap)          one HUD line (no newline); returns its length
 *   prepare(w, overlays)      before drawing: makes what the selected
 *                             overlays show and nothing has made yet
 *   draw(w, dd, overlays)     agents always, the selected overlays
 *   check(w, err)             invariants: no agent in a block, no NaN, counts
 *                             within pools, caches consistent with the map;
 *                             bots: every remaining edge of the character's
 *                             and each extra bot's graph plan replays
 */
#ifndef TN_WPARTS_H
#define TN_WPARTS_H

#include "tn_world.h"

tn_status tn_wbots_create(tn_world *w, tn_error *err);
void tn_wbots_destroy(tn_world *w);
/* Tell a background graph build under way to stop (tn_wbots_destroy then
 * waits one poll, not the whole build); nothing when none runs. */
void tn_wbots_stop_build(tn_world *w);
bool tn_wbots_drive(tn_world *w, tn_input *in, bool player_active);
void tn_wbots_step(tn_world *w);
void tn_wbots_physics(tn_world *w);
void tn_wbots_hold(tn_world *w, bool hold);
tn_status tn_wbots_check_edit(tn_world *w, int x, int y, int tile, int mark, tn_error *err);
void tn_wbots_on_edit(tn_world *w, int x, int y);
tn_status tn_wbots_click(tn_world *w, int x, int y, tn_tool tool, tn_error *err);
int tn_wbots_json(const tn_world *w, char *buf, size_t cap);
int tn_wbots_hud(const tn_world *w, char *buf, size_t cap);
void tn_wbots_prepare(tn_world *w, unsigned overlays);
/* view: {x0, y0, x1, y1} world px, or NULL (see tn_world_draw_view) */
void tn_wbots_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays,
                   const float *view);
tn_status tn_wbots_check(const tn_world *w, tn_error *err);

tn_status tn_wenemies_create(tn_world *w, tn_error *err);
void tn_wenemies_destroy(tn_world *w);
void tn_wenemies_step(tn_world *w);
/* history: an undo or redo, which may take the last spawn point or
 * destination away (back to a map built up from none) */
tn_status tn_wenemies_check_edit(tn_world *w, int x, int y, int tile, int mark, bool history,
                                 tn_error *err);
void tn_wenemies_on_edit(tn_world *w, int x, int y);
int tn_wenemies_json(const tn_world *w, char *buf, size_t cap);
int tn_wenemies_hud(const tn_world *w, char *buf, size_t cap);
void tn_wenemies_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays,
                      const float *view, float scale);
void tn_wenemies_draw_flow(const tn_world *w, const tn_debug_draw *dd, const float *view);
tn_status tn_wenemies_check(const tn_world *w, tn_error *err);

tn_status tn_wnav_create(tn_world *w, tn_error *err);
void tn_wnav_destroy(tn_world *w);
void tn_wnav_on_edit(tn_world *w, int x, int y);
/* The world's message serial (message_serial) when an edit's re-plan of
 * the navpath tool's path last said so (0: never): a note the edit's own
 * message (a block over a mark) goes over. */
unsigned tn_wnav_replan_said(const tn_world *w);
tn_status tn_wnav_click(tn_world *w, int x, int y, tn_tool tool, tn_error *err);
int tn_wnav_json(const tn_world *w, char *buf, size_t cap);
int tn_wnav_hud(const tn_world *w, char *buf, size_t cap);
void tn_wnav_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays);
void tn_wnav_draw_mesh(const tn_world *w, const tn_debug_draw *dd);
uint64_t tn_wnav_mesh_key(const tn_world *w);
tn_status tn_wnav_check(const tn_world *w, tn_error *err);

tn_status tn_wagents_create(tn_world *w, tn_error *err);
void tn_wagents_destroy(tn_world *w);
void tn_wagents_step(tn_world *w);
void tn_wagents_on_edit(tn_world *w, int x, int y);
tn_status tn_wagents_click(tn_world *w, int x, int y, tn_tool tool, tn_error *err);
int tn_wagents_json(const tn_world *w, char *buf, size_t cap);
int tn_wagents_hud(const tn_world *w, char *buf, size_t cap);
void tn_wagents_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays, float scale);
tn_status tn_wagents_check(const tn_world *w, tn_error *err);

#endif
