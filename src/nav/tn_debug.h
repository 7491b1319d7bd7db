/* SPDX-License-Identifier: Zlib */
/* tn_debug.h - the debug-draw interface (after Recast's duDebugDraw).
 *
 * The library never renders.  Two modules draw through these callbacks:
 * tn_navmesh (tn_navmesh_draw, _draw_corridor, _draw_clearance, _draw_path:
 * triangles, outlines, corridors, clearance circles, paths) and tn_surf
 * (tn_surf_debug_draw, _draw_edges_in, _draw_surfaces_in: the surface
 * graph).  The other modules draw nothing themselves: their state is public (tn_flow_dir / tn_flow_exit for flow
 * arrows, tn_path_explored_at for A*'s explored states, positions of
 * enemies, wanderers and companions), and the demo's sandbox (src/sandbox,
 * not installed) draws it through this same interface with the tn_dd_*
 * helpers below, as a game can.  The SDL front end implements the
 * callbacks; a test can record them.  Coordinates are world pixels (x right,
 * y down); an RGBA value is 0xRRGGBBAA.  Any callback, or the whole
 * tn_debug_draw (NULL), may be NULL: that primitive is skipped.
 * Memory: none (the caller's struct).  Thread safety: the callbacks run on
 * the thread that called the draw function, before it returns; the draw
 * functions only read their object.  Cost: one call per primitive.
 */
#ifndef TN_DEBUG_H
#define TN_DEBUG_H

#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_debug_draw {
    void *user;
    void (*line)(void *user, float x0, float y0, float x1, float y1, uint32_t rgba);
    void (*rect)(void *user, float x, float y, float w, float h, uint32_t rgba, bool filled);
    void (*circle)(void *user, float cx, float cy, float r, uint32_t rgba, bool filled);
    void (*tri)(void *user, float x0, float y0, float x1, float y1, float x2, float y2,
                uint32_t rgba); /* filled */
    void (*text)(void *user, float x, float y, const char *s, uint32_t rgba);
} tn_debug_draw;

static inline void tn_dd_line(const tn_debug_draw *d, float x0, float y0, float x1, float y1,
                              uint32_t c)
{
    if (d && d->line) d->line(d->user, x0, y0, x1, y1, c);
}
static inline void tn_dd_rect(const tn_debug_draw *d, float x, float y, float w, float h,
                              uint32_t c, bool filled)
{
    if (d && d->rect) d->rect(d->user, x, y, w, h, c, filled);
}
static inline void tn_dd_circle(const tn_debug_draw *d, float cx, float cy, float r, uint32_t c,
                                bool filled)
{
    if (d && d->circle) d->circle(d->user, cx, cy, r, c, filled);
}
static inline void tn_dd_tri(const tn_debug_draw *d, float x0, float y0, float x1, float y1,
                             float x2, float y2, uint32_t c)
{
    if (d && d->tri) d->tri(d->user, x0, y0, x1, y1, x2, y2, c);
}
static inline void tn_dd_text(const tn_debug_draw *d, float x, float y, const char *s, uint32_t c)
{
    if (d && d->text) d->text(d->user, x, y, s, c);
}

#ifdef __cplusplus
}
#endif

#endif
