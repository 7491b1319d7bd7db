/* render.h - drawing the world: camera, tiles, the character, the debug-draw
 * callbacks every subsystem draws through, and whole frames.
 *
 * One function, tn_render_scene(), draws a complete 1280x720 logical frame
 * (map view, world, panel, HUD, help).  The window calls it every frame;
 * screenshots call it on a software renderer over a surface, so a
 * screenshot is exactly what the window shows.
 *
 * Camera: the map view is the screen's left TN_VIEW_W x TN_VIEW_H pixels,
 * from TN_VIEW_Y down: the top bar and the HUD strip above it, the status
 * line below (with the HUD collapsed, H, the view takes its strip too;
 * tn_view_y/tn_view_h).
 * The camera follows the character (tn_view.follow) or stays where the user
 * panned or zoomed it (tn_view.cam_x/cam_y: the world pixel at the centre).
 * Zoom comes in levels that keep a tile a whole number of pixels (2..64 px).
 * The default level is the largest one (at most 3x) that shows the whole map;
 * when even 0.5x cannot, the default is 1x.  Along each axis where the map
 * is larger than the view the camera centres on the (interpolated)
 * character, clamped to the map's edges.  A map narrower than the view is
 * centred across it; a map shorter than the view sits at its bottom with
 * the same margin as at its sides (at most half the spare height), so the
 * HUD in the top-left corner does not cover it.
 */
#ifndef TN_RENDER_H
#define TN_RENDER_H

#include "ui.h"

#define TN_ZOOM_LEVELS 11
extern const float tn_zoom_levels[TN_ZOOM_LEVELS];

/* The default zoom level for a map (see above). */
int tn_zoom_fit(const tn_map *m);
/* The largest level (down to 1/8x) that shows the whole map (the fit key). */
int tn_zoom_fit_all(const tn_map *m);
/* The fit key (O): tn_zoom_fit_all's level in *level and the status line
 * in msg; false when even that level shows only part of the map (wider or
 * taller than the view at 1/8x: the message says so, not "whole map"). */
bool tn_zoom_fit_say(const tn_map *m, int *level, char *msg, size_t cap);
/* The same for a map view view_h pixels high (tn_view_h: the HUD's strip
 * collapsed with H gives the map 88 px more; in a 900x500 window that is
 * the room 1/2x needs for the demo map, where the HUD's view fits 1/4x). */
int tn_zoom_fit_all_in(const tn_map *m, int view_h);
bool tn_zoom_fit_say_in(const tn_map *m, int view_h, int *level, char *msg, size_t cap);

typedef struct tn_camera {
    SDL_Rect view; /* the map view on screen (logical pixels) */
    float scale;   /* screen pixels per world pixel */
    int ts;        /* screen pixels per tile */
    int ox, oy;    /* screen position of world pixel (0, 0) */
} tn_camera;

tn_camera tn_camera_make(const tn_world *w, const tn_view *v);

static inline float tn_camera_sx(const tn_camera *c, float wx)
{
    return (float)c->ox + wx * c->scale;
}
static inline float tn_camera_sy(const tn_camera *c, float wy)
{
    return (float)c->oy + wy * c->scale;
}

/* The tile under screen pixel (sx, sy): false when it is outside the map
 * view or the map. */
bool tn_camera_tile_at(const tn_camera *c, const tn_map *m, int sx, int sy, int *tx, int *ty);

/* Clip the convex polygon (x, y) of n vertices (n <= 3; both arrays and
 * (ox, oy) hold 9) to the rectangle [x0, x1] x [y0, y1]: its vertices
 * end in (x, y) and (ox, oy), their count is returned (0: nothing inside).
 * The debug-draw triangles of a view use it (render.c). */
int tn_clip_poly_rect(float *x, float *y, int n, float *ox, float *oy, float x0, float y0, float x1,
                      float y1);

/* What the pinned inspect card keeps off (tn_ui_inspect_rect): the map
 * view's captions and the inspected agent's box on screen, with 6 px of
 * room; returns how many of out's 3 it filled. */
int tn_render_card_avoid(const tn_gfx *g, const tn_world *w, const tn_view *v, const tn_camera *c,
                         SDL_FRect out[3]);

/* The character's goal marker on screen (the path overlay's end circle, a
 * goal out of reach's red frame: the goal tile with half a tile, at least
 * 4 px, around it), which the tile readout keeps off; false while its bot
 * has no goal to go to (idle, arrived). */
bool tn_render_goal_rect(const tn_world *w, const tn_camera *c, SDL_FRect *r);

/* Draw one whole frame. */
void tn_render_scene(tn_gfx *g, const tn_world *w, const tn_view *v);

/* Draw the frame offscreen (software renderer, no display) and save a BMP. */
int tn_render_offscreen(const tn_world *w, const tn_fonts *fonts, const tn_view *v,
                        const char *path, char *err, size_t cap);

#endif
