/* render.c - camera, tiles, character, debug-draw callbacks, whole frames,
 * offscreen screenshots.  See render.h. */
#include "fileio.h"
#include "render.h"

#include "control.h"
#include "tn_flow.h"
#include "tn_wbots.h"
#include "tn_wnav.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const float tn_zoom_levels[TN_ZOOM_LEVELS] = {0.125f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f,
                                              1.5f,   2.0f,  2.5f, 3.0f,  4.0f};
#define ZOOM_ONE 4
#define ZOOM_HALF 2
#define ZOOM_AUTO_MAX 9

int tn_zoom_fit(const tn_map *m)
{
    for (int i = ZOOM_AUTO_MAX; i >= ZOOM_HALF; i--) {
        float z = tn_zoom_levels[i] * TN_TILE_PX;
        if ((float)m->w * z <= TN_VIEW_W && (float)m->h * z <= TN_VIEW_H) return i;
    }
    return ZOOM_ONE;
}

static bool zoom_shows_all(const tn_map *m, int i, int view_h)
{
    float z = tn_zoom_levels[i] * TN_TILE_PX;
    return (float)m->w * z <= TN_VIEW_W && (float)m->h * z <= (float)view_h;
}

int tn_zoom_fit_all_in(const tn_map *m, int view_h)
{
    for (int i = ZOOM_AUTO_MAX; i > 0; i--)
        if (zoom_shows_all(m, i, view_h)) return i;
    return 0;
}

int tn_zoom_fit_all(const tn_map *m) { return tn_zoom_fit_all_in(m, TN_VIEW_H); }

bool tn_zoom_fit_say(const tn_map *m, int *level, char *msg, size_t cap)
{
    return tn_zoom_fit_say_in(m, TN_VIEW_H, level, msg, cap);
}

bool tn_zoom_fit_say_in(const tn_map *m, int view_h, int *level, char *msg, size_t cap)
{
    *level = tn_zoom_fit_all_in(m, view_h);
    bool all = zoom_shows_all(m, *level, view_h);
    char z[16];
    tn_zoom_name(tn_zoom_levels[*level], z, sizeof z);
    if (all)
        snprintf(msg, cap, "whole map at %s (press U to follow the character again)", z);
    else
        snprintf(msg, cap,
                 "the %dx%d map is larger than the view at the smallest zoom (%s): showing the "
                 "part around the character; pan with I J K L or Ctrl+drag",
                 m->w, m->h, z);
    return all;
}

/* One axis: place a small map at `fit` (offset from view0), follow `focus`
 * (screen px from the map's origin) on a large one. */
static int camera_axis(int view0, int view_len, int map_len_px, float focus, int fit)
{
    if (map_len_px <= view_len) return view0 + fit;
    float o = (float)view0 + (float)view_len * 0.5f - focus;
    float lo = (float)(view0 + view_len - map_len_px), hi = (float)view0;
    o = o < lo ? lo : o > hi ? hi : o;
    return (int)floorf(o + 0.5f);
}

tn_camera tn_camera_make(const tn_world *w, const tn_view *v)
{
    tn_camera c;
    c.view.x = 0;
    c.view.y = tn_view_y(v);
    c.view.w = TN_VIEW_W;
    c.view.h = tn_view_h(v);
    int zi = v->zoom >= 0 && v->zoom < TN_ZOOM_LEVELS ? v->zoom : tn_zoom_fit(tn_world_map(w));
    c.scale = tn_zoom_levels[zi];
    c.ts = (int)(c.scale * TN_TILE_PX + 0.5f);
    float fx = (v->char_x + 0.5f * (float)tn_world_character(w)->w * TN_TILE_PX) * c.scale;
    float fy = (v->char_y + 0.5f * (float)tn_world_character(w)->h * TN_TILE_PX) * c.scale;
    if (!v->follow) { /* a camera the user moved */
        fx = v->cam_x * c.scale;
        fy = v->cam_y * c.scale;
    }
    /* A map that fits is centred across and sits at the bottom with the
     * same margin as at its sides, which leaves the HUD room above it;
     * with the HUD collapsed (H) it is centred up and down too. */
    int mw = tn_world_map(w)->w * c.ts, mh = tn_world_map(w)->h * c.ts;
    int side = mw <= c.view.w ? (c.view.w - mw) / 2 : 0, spare = c.view.h - mh;
    c.ox = camera_axis(c.view.x, c.view.w, mw, fx, side);
    c.oy = camera_axis(c.view.y, c.view.h, mh, fy,
                       v->hud_hidden ? spare / 2 : spare - tn_mini(side, spare / 2));
    return c;
}

static int floordiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

bool tn_camera_tile_at(const tn_camera *c, const tn_map *m, int sx, int sy, int *tx, int *ty)
{
    if (sx < c->view.x || sy < c->view.y || sx >= c->view.x + c->view.w ||
        sy >= c->view.y + c->view.h)
        return false;
    *tx = floordiv(sx - c->ox, c->ts);
    *ty = floordiv(sy - c->oy, c->ts);
    return tn_map_inside(m, *tx, *ty);
}

/* ---------------------------------------------------------------- tiles */

/* Tile predicates for the drawing passes. */
enum { P_BLOCK, P_BLOCK_TOP, P_BLOCK_BOTTOM, P_ONEWAY };

static bool tile_pred(const tn_map *m, int x, int y, int pred)
{
    int t = m->tile[y * m->w + x];
    switch (pred) {
    case P_BLOCK: return t == TN_TILE_BLOCK;
    case P_BLOCK_TOP: return t == TN_TILE_BLOCK && tn_map_tile(m, x, y - 1) != TN_TILE_BLOCK;
    case P_BLOCK_BOTTOM: return t == TN_TILE_BLOCK && tn_map_tile(m, x, y + 1) != TN_TILE_BLOCK;
    default: return t == TN_TILE_ONEWAY;
    }
}

typedef struct tile_range {
    int x0, y0, x1, y1; /* visible tiles, inclusive */
} tile_range;

/* One pass: a strip of height h at offset yoff inside every tile matching
 * `pred`, horizontal runs merged into one rectangle. */
static void strip_pass(tn_gfx *g, const tn_map *m, const tn_camera *c, const tile_range *r,
                       int pred, float yoff, float h, uint32_t rgba)
{
    if (h <= 0) return;
    for (int y = r->y0; y <= r->y1; y++) {
        float sy = (float)(c->oy + y * c->ts) + yoff;
        for (int x = r->x0; x <= r->x1; x++) {
            if (!tile_pred(m, x, y, pred)) continue;
            int x0 = x;
            while (x + 1 <= r->x1 && tile_pred(m, x + 1, y, pred)) x++;
            tn_gfx_rect(g, (float)(c->ox + x0 * c->ts), sy, (float)((x - x0 + 1) * c->ts), h, rgba);
        }
    }
}

static void draw_marks(tn_gfx *g, const tn_world *w, const tn_camera *c, const tile_range *r);
static tile_range view_tiles(const tn_map *m, const tn_camera *c);

/* Tiles in passes of one colour each (see ui.h: that keeps the batches
 * long); tiles never overlap, so the order of passes only matters inside
 * a tile.  Everything in c->view; marks (spawns, destinations, items)
 * too unless `marks` is false (the cached layer: picking an item up does
 * not change the map). */
static void draw_tiles(tn_gfx *g, const tn_world *w, const tn_camera *c, bool marks)
{
    const tn_map *m = tn_world_map(w);
    const int ts = c->ts;
    tile_range r = view_tiles(m, c);
    if (r.x0 > r.x1 || r.y0 > r.y1) return;
    float mx = (float)(c->ox + r.x0 * ts), my = (float)(c->oy + r.y0 * ts);
    float mw = (float)((r.x1 - r.x0 + 1) * ts), mh = (float)((r.y1 - r.y0 + 1) * ts);
    const float fts = (float)ts;
    tn_gfx_rect(g, mx, my, mw, mh, TN_COL_EMPTY);
    if (ts >= 8) { /* grid: one line per tile boundary */
        for (int x = r.x0 + 1; x <= r.x1; x++)
            tn_gfx_rect(g, (float)(c->ox + x * ts), my, 1, mh, TN_COL_GRID);
        for (int y = r.y0 + 1; y <= r.y1; y++)
            tn_gfx_rect(g, mx, (float)(c->oy + y * ts), mw, 1, TN_COL_GRID);
    }
    /* blocks: body, seams, lit top, shaded underside */
    const float top = ts >= 4 ? (float)tn_maxi(1, ts / 6) : 0;
    strip_pass(g, m, c, &r, P_BLOCK, 0, fts, TN_COL_BLOCK);
    if (ts >= 8) { /* faint seams keep single tiles readable in a mass */
        strip_pass(g, m, c, &r, P_BLOCK, fts - 1, 1, TN_COL_BLOCK_SEAM);
        for (int y = r.y0; y <= r.y1; y++)
            for (int x = r.x0; x <= r.x1; x++)
                if (m->tile[y * m->w + x] == TN_TILE_BLOCK)
                    tn_gfx_rect(g, (float)(c->ox + x * ts + ts - 1), (float)(c->oy + y * ts), 1,
                                fts - 1, TN_COL_BLOCK_SEAM);
    }
    strip_pass(g, m, c, &r, P_BLOCK_TOP, 0, top, TN_COL_BLOCK_TOP);
    strip_pass(g, m, c, &r, P_BLOCK_BOTTOM, fts - top, top, TN_COL_BLOCK_SHADE);
    /* one-way platforms: a slab on the tile's top */
    const float slab = (float)tn_maxi(2, ts / 4);
    strip_pass(g, m, c, &r, P_ONEWAY, 0, slab, TN_COL_ONEWAY);
    if (ts >= 12)
        strip_pass(g, m, c, &r, P_ONEWAY, slab, (float)tn_maxi(1, ts / 12), TN_COL_ONEWAY_EDGE);
    /* the character's start */
    if (ts >= 8 && m->start_x >= r.x0 && m->start_x <= r.x1 && m->start_y >= r.y0 &&
        m->start_y <= r.y1)
        tn_gfx_frame(g, (float)(c->ox + m->start_x * ts) + 1, (float)(c->oy + m->start_y * ts) + 1,
                     fts - 1, fts - 1, 1, TN_COL_START);
    if (marks) draw_marks(g, w, c, &r);
}

static tile_range view_tiles(const tn_map *m, const tn_camera *c)
{
    const int ts = c->ts;
    tile_range r = {tn_maxi(0, floordiv(c->view.x - c->ox, ts)),
                    tn_maxi(0, floordiv(c->view.y - c->oy, ts)),
                    tn_mini(m->w - 1, floordiv(c->view.x + c->view.w - 1 - c->ox, ts)),
                    tn_mini(m->h - 1, floordiv(c->view.y + c->view.h - 1 - c->oy, ts))};
    return r;
}

/* Content: spawn points (squares), destinations (discs), items (diamonds)
 * in the tiles r, centred on their tile and at least MARK_MIN_PX wide
 * (zoomed out, tiles of 1-2 px made them dots). */
#define MARK_MIN_PX 8
static void draw_marks(tn_gfx *g, const tn_world *w, const tn_camera *c, const tile_range *rr)
{
    const tn_map *m = tn_world_map(w);
    const int ts = c->ts, ms = tn_maxi(ts, MARK_MIN_PX); /* the symbol's size */
    const float fts = (float)ms;
    tile_range r = *rr;
    const float in = (float)tn_maxi(1, ms / 6), b = (float)tn_maxi(1, ms / 12);
    for (int y = r.y0; y <= r.y1; y++) {
        float cy = (float)(c->oy + y * ts) + (float)ts * 0.5f, sy = cy - fts * 0.5f;
        for (int x = r.x0; x <= r.x1; x++) {
            int mk = m->mark[y * m->w + x];
            if (mk == TN_MARK_NONE || m->tile[y * m->w + x] != TN_TILE_EMPTY) continue;
            if (mk == TN_MARK_ITEM && !tn_world_item_here(w, x, y)) continue; /* picked up */
            float cx = (float)(c->ox + x * ts) + (float)ts * 0.5f, sx = cx - fts * 0.5f;
            if (mk == TN_MARK_SPAWN) {
                tn_gfx_rect(g, sx + in, sy + in, fts - 2 * in, fts - 2 * in, TN_COL_SPAWN_EDGE);
                tn_gfx_rect(g, sx + in + b, sy + in + b, fts - 2 * (in + b), fts - 2 * (in + b),
                            TN_COL_SPAWN);
            } else if (mk == TN_MARK_DEST) {
                float rad = fts * 0.5f - in * 0.5f;
                tn_gfx_circle(g, cx, cy, rad, TN_COL_DEST);
                tn_gfx_ring(g, cx, cy, rad - b * 0.5f, b, TN_COL_DEST_EDGE);
            } else if (mk == TN_MARK_ITEM) {
                float rad = fts * 0.5f - in * 0.5f, ri = rad - b * 1.4f;
                tn_gfx_tri(g, cx, cy - rad, cx + rad, cy, cx, cy + rad, TN_COL_ITEM_EDGE);
                tn_gfx_tri(g, cx, cy - rad, cx, cy + rad, cx - rad, cy, TN_COL_ITEM_EDGE);
                tn_gfx_tri(g, cx, cy - ri, cx + ri, cy, cx, cy + ri, TN_COL_ITEM);
                tn_gfx_tri(g, cx, cy - ri, cx, cy + ri, cx - ri, cy, TN_COL_ITEM);
            }
        }
    }
}

/* Spawn points and destinations again, over the enemies that gather on
 * them (the tile pass drew them first; a dark edge makes them read on top
 * of a crowd). */
static void draw_marks_on_top(tn_gfx *g, const tn_world *w, const tn_camera *c)
{
    const tn_map *m = tn_world_map(w);
    const int ts = c->ts;
    int x0 = tn_maxi(0, floordiv(c->view.x - c->ox, ts)),
        y0 = tn_maxi(0, floordiv(c->view.y - c->oy, ts));
    int x1 = tn_mini(m->w - 1, floordiv(c->view.x + c->view.w - 1 - c->ox, ts));
    int y1 = tn_mini(m->h - 1, floordiv(c->view.y + c->view.h - 1 - c->oy, ts));
    const int ms = tn_maxi(ts, MARK_MIN_PX);
    const float fts = (float)ms, in = (float)tn_maxi(1, ms / 6), b = (float)tn_maxi(1, ms / 12);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            const int mk = m->mark[y * m->w + x];
            if ((mk != TN_MARK_DEST && mk != TN_MARK_SPAWN) ||
                m->tile[y * m->w + x] != TN_TILE_EMPTY)
                continue;
            float cx = (float)(c->ox + x * ts) + (float)ts * 0.5f,
                  cy = (float)(c->oy + y * ts) + (float)ts * 0.5f;
            if (mk == TN_MARK_SPAWN) {
                const float h = fts * 0.5f - in;
                tn_gfx_rect(g, cx - h - b, cy - h - b, 2 * (h + b), 2 * (h + b), 0x1a0a08ffu);
                tn_gfx_rect(g, cx - h, cy - h, 2 * h, 2 * h, TN_COL_SPAWN_EDGE);
                tn_gfx_rect(g, cx - h + b, cy - h + b, 2 * (h - b), 2 * (h - b), TN_COL_SPAWN);
                continue;
            }
            float rad = fts * 0.5f - in * 0.5f;
            tn_gfx_ring(g, cx, cy, rad + b, 2.0f * b + 1.0f, 0x0b1a12ffu);
            tn_gfx_circle(g, cx, cy, rad, TN_COL_DEST);
            tn_gfx_ring(g, cx, cy, rad - b * 0.5f, b, TN_COL_DEST_EDGE);
        }
}

/* A caption in the map view's top-left corner (row k of them): why an
 * overlay shows what it shows, or nothing.  note_rect: its box. */
static SDL_FRect note_rect(const tn_gfx *g, const tn_camera *c, int k, const char *note)
{
    int lh = tn_gfx_line_height(g, TN_FONT_SMALL) + 6;
    int nw = tn_gfx_text_width(g, TN_FONT_SMALL, note) + 12;
    SDL_FRect r = {(float)c->view.x + 8, (float)c->view.y + 8 + (float)(k * (lh + 4)), (float)nw,
                   (float)lh};
    return r;
}

static void draw_note(tn_gfx *g, const tn_camera *c, int k, const char *note)
{
    SDL_FRect r = note_rect(g, c, k, note);
    tn_gfx_rect(g, r.x, r.y, r.w, r.h, TN_COL_HUD_BG);
    tn_gfx_text(g, TN_FONT_SMALL, r.x + 6, r.y + 3, note, TN_COL_TEXT);
}

#define FLOW8_NOTE \
    "8-connected field: display only (enemies fly the 4-connected one; Y switches back)"
#define NO_DEST_NOTE "flow field: no destination yet, so no tile has a path (tool 5 places one)"
#define FLOW8_OFF_NOTE "8-connected field: none above 512x512 tiles (the 4-connected one shown)"

/* Screen rectangle r as world pixels {x0, y0, x1, y1} under camera c. */
static void world_rect(const tn_camera *c, SDL_Rect r, float out[4])
{
    out[0] = ((float)r.x - (float)c->ox) / c->scale;
    out[1] = ((float)r.y - (float)c->oy) / c->scale;
    out[2] = ((float)(r.x + r.w) - (float)c->ox) / c->scale;
    out[3] = ((float)(r.y + r.h) - (float)c->oy) / c->scale;
}

/* Flow arrows are drawn only while a tile is at least FLOW_MIN_TILE_PX
 * frame pixels across (2-4 px arrows over every tile said nothing: a
 * playtest at 1/4x on a 512x512 map, under the tile cutoff) and at most
 * TN_WORLD_FLOW_ARROWS_MAX tiles are in view (tn_world_flow_tiles, which
 * gives those tiles in r); else the field is not drawn and a caption says
 * so. */
#define FLOW_MIN_TILE_PX 6.0f
static float tile_px_of(const tn_camera *c) { return c->scale * (float)TN_TILE_PX; }
static bool flow_arrows_shown(const tn_flow *f, const tn_camera *c, const float view[4], int r[4])
{
    const bool few = tn_world_flow_tiles(f, view, r);
    const bool any = r[0] <= r[2] && r[1] <= r[3];
    return few && (!any || tile_px_of(c) >= FLOW_MIN_TILE_PX);
}

/* The map view's captions, top down (at most 2); buf holds a made one. */
static int view_notes(const tn_world *w, const tn_view *v, const tn_camera *c, const char *note[2],
                      char *buf, size_t cap)
{
    int n = 0;
    unsigned overlays = v->overlays;
    const tn_flow *f = v->flow8_field ? v->flow8_field : tn_world_flow(w);
    int r[4];
    if ((overlays & TN_OVERLAY_FLOW) && f) {
        float view[4];
        world_rect(c, c->view, view);
        if (tn_world_destinations(w) == 0) {
            note[n++] = NO_DEST_NOTE;
        } else if (!tn_world_flow_tiles(f, view, r)) {
            snprintf(buf, cap, "flow arrows hidden: %dx%d tiles in view, drawn up to %ld: zoom in",
                     r[2] - r[0] + 1, r[3] - r[1] + 1, TN_WORLD_FLOW_ARROWS_MAX);
            note[n++] = buf;
        } else if (!flow_arrows_shown(f, c, view, r)) {
            snprintf(buf, cap, "flow arrows hidden: tiles %g px wide, drawn from %g px: zoom in",
                     (double)tile_px_of(c), (double)FLOW_MIN_TILE_PX);
            note[n++] = buf;
        } else if (v->flow8_field) {
            note[n++] = FLOW8_NOTE;
        } else if (v->flow8) {
            note[n++] = FLOW8_OFF_NOTE;
        }
    }
    const char *surf = tn_wbots_overlay_note(w, overlays);
    if (surf) note[n++] = surf;
    return n;
}

int tn_render_card_avoid(const tn_gfx *g, const tn_world *w, const tn_view *v, const tn_camera *c,
                         SDL_FRect out[3])
{
    const char *note[2];
    char made[128];
    int n = view_notes(w, v, c, note, made, sizeof made);
    for (int k = 0; k < n; k++) out[k] = note_rect(g, c, k, note[k]);
    float b[4];
    if (v->inspect_kind && tn_inspect_box(w, v->inspect_kind, v->inspect_index, b)) {
        if (v->inspect_kind == TN_INSPECT_CHARACTER) { /* where it is drawn (interpolated) */
            b[2] += v->char_x - b[0], b[3] += v->char_y - b[1];
            b[0] = v->char_x, b[1] = v->char_y;
        }
        const float m = 6.0f; /* room around it */
        out[n++] = (SDL_FRect){tn_camera_sx(c, b[0]) - m, tn_camera_sy(c, b[1]) - m,
                               (b[2] - b[0]) * c->scale + 2 * m, (b[3] - b[1]) * c->scale + 2 * m};
    }
    return n;
}

/* The agent of the pinned inspect card, framed, with a thin line to the
 * card: among dozens of like enemies the card alone did not say which one
 * it reads (a playtest's finding). */
static void draw_pinned(tn_gfx *g, const tn_world *w, const tn_view *v, const tn_camera *c,
                        const SDL_FRect *card)
{
    float b[4];
    if (!v->inspect_kind || !tn_inspect_box(w, v->inspect_kind, v->inspect_index, b)) return;
    if (v->inspect_kind == TN_INSPECT_CHARACTER) { /* where it is drawn (interpolated) */
        b[2] += v->char_x - b[0], b[3] += v->char_y - b[1];
        b[0] = v->char_x, b[1] = v->char_y;
    }
    const float cx = tn_camera_sx(c, (b[0] + b[2]) * 0.5f),
                cy = tn_camera_sy(c, (b[1] + b[3]) * 0.5f);
    const float hw = fmaxf((b[2] - b[0]) * c->scale * 0.5f + 4.0f, 8.0f);
    const float hh = fmaxf((b[3] - b[1]) * c->scale * 0.5f + 4.0f, 8.0f);
    if (card) { /* from the card's nearest point to the frame's */
        const float px = fminf(fmaxf(cx, card->x), card->x + card->w);
        const float py = fminf(fmaxf(cy, card->y), card->y + card->h);
        const float ex = fminf(fmaxf(px, cx - hw), cx + hw),
                    ey = fminf(fmaxf(py, cy - hh), cy + hh);
        tn_gfx_line(g, px, py, ex, ey, 1.5f, 0x8fd8ffd0u); /* the card's edge colour */
    }
    tn_gfx_frame(g, cx - hw - 1, cy - hh - 1, 2 * hw + 2, 2 * hh + 2, 1.0f, 0x000000c0u);
    tn_gfx_frame(g, cx - hw, cy - hh, 2 * hw, 2 * hh, 2.0f, 0xffffffe0u);
}

static void draw_character(tn_gfx *g, const tn_world *w, const tn_view *v, const tn_camera *c)
{
    float x = tn_camera_sx(c, v->char_x), y = tn_camera_sy(c, v->char_y);
    float bw = (float)tn_world_character(w)->w * (float)c->ts,
          bh = (float)tn_world_character(w)->h * (float)c->ts;
    if (fminf(bw, bh) < 6.0f) { /* zoomed out: at least 6 px across, about its centre */
        const float k = 6.0f / fminf(bw, bh);
        x -= bw * (k - 1.0f) * 0.5f, y -= bh * (k - 1.0f) * 0.5f;
        bw *= k, bh *= k;
    }
    x = floorf(x + 0.5f);
    y = floorf(y + 0.5f);
    float e = (float)tn_maxi(1, c->ts / 10);
    tn_gfx_rect(g, x, y, bw, bh, TN_COL_CHAR_EDGE);
    tn_gfx_rect(g, x + e, y + e, bw - 2 * e, bh - 2 * e, TN_COL_CHAR);
    if (c->ts < 6) return;
    /* eyes looking where it last walked */
    float es = (float)tn_maxi(2, c->ts / 5), ey = y + (float)c->ts * 0.3f;
    float mid = x + bw * 0.5f + (float)v->facing * bw * 0.14f;
    float gap = (float)tn_maxi(1, c->ts / 8);
    for (int i = 0; i < 2; i++) {
        float ex = i == 0 ? mid - gap * 0.5f - es : mid + gap * 0.5f;
        tn_gfx_rect(g, ex, ey, es, es, 0xffffffffu);
        float ps = floorf(es * 0.5f + 0.5f);
        tn_gfx_rect(g, v->facing > 0 ? ex + es - ps : ex, ey + es - ps, ps, ps, 0x10202cffu);
    }
}

/* ------------------------------------------------- debug-draw callbacks */

int tn_clip_poly_rect(float *x, float *y, int n, float *ox, float *oy, float x0, float y0, float x1,
                      float y1)
{
    /* Sutherland-Hodgman, one edge of the rectangle at a time, between the
     * caller's two arrays (each pass adds at most one vertex) */
    for (int e = 0; e < 4 && n > 0; e++) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            float vi = e == 0 ? x[i] - x0 : e == 1 ? x1 - x[i] : e == 2 ? y[i] - y0 : y1 - y[i];
            float vj = e == 0 ? x[j] - x0 : e == 1 ? x1 - x[j] : e == 2 ? y[j] - y0 : y1 - y[j];
            if (vi >= 0) {
                ox[k] = x[i];
                oy[k++] = y[i];
            }
            if ((vi >= 0) != (vj >= 0)) {
                float t = vi / (vi - vj);
                ox[k] = x[i] + t * (x[j] - x[i]);
                oy[k++] = y[i] + t * (y[j] - y[i]);
            }
        }
        n = k;
        for (int i = 0; i < n; i++) {
            x[i] = ox[i];
            y[i] = oy[i];
        }
    }
    return n;
}

/* Labels in the world (the companion's state) kept for the end of the map
 * view's drawing: over every overlay, the marks and the character. */
#define DD_LABELS_MAX 8
typedef struct dd_label {
    float x, y; /* top-left in the frame */
    uint32_t rgba;
    char s[40];
} dd_label;

typedef struct dd_ctx {
    tn_gfx *g;
    const tn_camera *c;
    float lw;   /* line width on screen */
    bool defer; /* keep labels for dd_labels_draw (else draw them at once) */
    int nlabels;
    dd_label label[DD_LABELS_MAX];
} dd_ctx;

/* min and max without fminf's NaN rules (a libm call each here) */
static inline float mn(float a, float b) { return a < b ? a : b; }
static inline float mx(float a, float b) { return a > b ? a : b; }

static bool visible(const dd_ctx *d, float x0, float y0, float x1, float y1)
{
    const SDL_Rect *v = &d->c->view;
    return x1 >= (float)v->x && y1 >= (float)v->y && x0 <= (float)(v->x + v->w) &&
           y0 <= (float)(v->y + v->h);
}

static void dd_line(void *u, float x0, float y0, float x1, float y1, uint32_t rgba)
{
    dd_ctx *d = u;
    float a = tn_camera_sx(d->c, x0), b = tn_camera_sy(d->c, y0);
    float e = tn_camera_sx(d->c, x1), f = tn_camera_sy(d->c, y1);
    if (!visible(d, mn(a, e) - d->lw, mn(b, f) - d->lw, mx(a, e) + d->lw, mx(b, f) + d->lw)) return;
    tn_gfx_line(d->g, a, b, e, f, d->lw, rgba);
}

static void dd_rect(void *u, float x, float y, float w, float h, uint32_t rgba, bool filled)
{
    dd_ctx *d = u;
    float sx = tn_camera_sx(d->c, x), sy = tn_camera_sy(d->c, y);
    float sw = w * d->c->scale, sh = h * d->c->scale;
    if (!visible(d, sx, sy, sx + sw, sy + sh)) return;
    if (filled)
        tn_gfx_rect(d->g, sx, sy, sw, sh, rgba);
    else
        tn_gfx_frame(d->g, sx, sy, sw, sh, mn(d->lw, 2.0f), rgba);
}

static void dd_circle(void *u, float cx, float cy, float r, uint32_t rgba, bool filled)
{
    dd_ctx *d = u;
    float sx = tn_camera_sx(d->c, cx), sy = tn_camera_sy(d->c, cy), sr = r * d->c->scale;
    if (!visible(d, sx - sr - d->lw, sy - sr - d->lw, sx + sr + d->lw, sy + sr + d->lw)) return;
    float dot = 2.0f * sr + (filled ? 0.0f : d->lw);
    if (dot < 3.0f) { /* a ring this small is a dot: one batched rectangle, not 10
                         quads (the navmesh's clearance circles at 1/8x on a large
                         map cost 800 ms a frame in the software renderer) */
        dot = mx(dot, 1.0f);
        tn_gfx_rect(d->g, sx - 0.5f * dot, sy - 0.5f * dot, dot, dot, rgba);
        return;
    }
    if (filled)
        tn_gfx_circle(d->g, sx, sy, sr, rgba);
    else
        tn_gfx_ring(d->g, sx, sy, sr, d->lw, rgba);
}

static void dd_tri(void *u, float x0, float y0, float x1, float y1, float x2, float y2,
                   uint32_t rgba)
{
    dd_ctx *d = u;
    float a = tn_camera_sx(d->c, x0), b = tn_camera_sy(d->c, y0);
    float e = tn_camera_sx(d->c, x1), f = tn_camera_sy(d->c, y1);
    float p = tn_camera_sx(d->c, x2), q = tn_camera_sy(d->c, y2);
    float x0_ = mn(a, mn(e, p)), y0_ = mn(b, mn(f, q));
    float x1_ = mx(a, mx(e, p)), y1_ = mx(b, mx(f, q));
    if (!visible(d, x0_, y0_, x1_, y1_)) return;
    const SDL_Rect *v = &d->c->view;
    if (x0_ >= (float)v->x && y0_ >= (float)v->y && x1_ <= (float)(v->x + v->w) &&
        y1_ <= (float)(v->y + v->h)) {
        tn_gfx_tri(d->g, a, b, e, f, p, q, rgba);
        return;
    }
    /* Partly outside the view: cut to it and fill the polygon as a fan.
     * SDL's software renderer fills a blended triangle through a surface of
     * its bounding box, so one of a large mesh's triangles at 4x could cost
     * megabytes a frame; off-screen parts are not drawn anyway. */
    float px[9] = {a, e, p}, py[9] = {b, f, q}, qx[9], qy[9];
    int n = tn_clip_poly_rect(px, py, 3, qx, qy, (float)v->x, (float)v->y, (float)(v->x + v->w),
                              (float)(v->y + v->h));
    for (int i = 1; i + 1 < n; i++)
        tn_gfx_tri(d->g, qx[0], qy[0], qx[i], qy[i], qx[i + 1], qy[i + 1], rgba);
}

/* Labels in the world (the companion's state) are text of the font's
 * pixel size at every zoom: drawn only while a tile is at least
 * LABEL_MIN_TILE_PX frame pixels across, as flow arrows are from
 * FLOW_MIN_TILE_PX (a playtest at 1/8x: "follow", 6 characters of 12 px
 * text over 2 px tiles, covered a fifth of the demo map).  The HUD's
 * companion line still says the state. */
#define LABEL_MIN_TILE_PX 8.0f

/* A label on a plate of the HUD's background, a pixel and two wider than
 * the text: readable over anything (the flow overlay's arrows, grey like
 * its letters, showed between and through them: "follow" was hard to
 * read over the field). */
static void label_draw(tn_gfx *g, float sx, float sy, const char *s, uint32_t rgba)
{
    const float w = (float)tn_gfx_text_width(g, TN_FONT_TINY, s);
    const float h = (float)tn_gfx_line_height(g, TN_FONT_TINY);
    tn_gfx_rect(g, sx - 2.0f, sy, w + 4.0f, h, TN_COL_HUD_BG);
    tn_gfx_text(g, TN_FONT_TINY, sx, sy, s, rgba);
}

static void dd_text(void *u, float x, float y, const char *s, uint32_t rgba)
{
    dd_ctx *d = u;
    if (tile_px_of(d->c) < LABEL_MIN_TILE_PX) return;
    float sx = tn_camera_sx(d->c, x), sy = tn_camera_sy(d->c, y);
    if (!visible(d, sx - 400, sy - 20, sx + 400, sy + 20)) return;
    if (d->defer && d->nlabels < DD_LABELS_MAX && strlen(s) < sizeof d->label[0].s) {
        dd_label *l = &d->label[d->nlabels++];
        l->x = sx, l->y = sy, l->rgba = rgba;
        memcpy(l->s, s, strlen(s) + 1);
        return;
    }
    label_draw(d->g, sx, sy, s, rgba);
}

/* The labels dd_text kept, in the order given. */
static void dd_labels_draw(dd_ctx *d)
{
    for (int i = 0; i < d->nlabels; i++)
        label_draw(d->g, d->label[i].x, d->label[i].y, d->label[i].s, d->label[i].rgba);
    d->nlabels = 0;
}

static float dd_width(const tn_camera *c) { return tn_clampf((float)c->ts / 10.0f, 1.25f, 3.0f); }

/* ------------------------------------------- the navmesh overlay's layer */

/* The layer's texture reaches this far (logical pixels) past each side of
 * the map view, so a moving camera shifts the picture for many frames
 * before a strip has to be drawn. */
#define LAYER_MARGIN 64
/* What the layer holds over the tiles (tn_gfx_layer.what) */
#define LAYER_NAVMESH 1u /* the navmesh overlay's mesh */
#define LAYER_FLOW 2u    /* the flow overlay's (4-connected) field */

/* The void, the tiles (no marks) and the mesh layer in `strip` (texture
 * coordinates, logical pixels) of the current render target, for the
 * camera (ox, oy) of the layer (see layer_draw).  The strip is filled
 * opaque first, so painting it again never blends twice. */
static void layer_paint(tn_gfx *g, const tn_world *w, const tn_camera *c, unsigned what, int ox,
                        int oy, SDL_Rect strip)
{
    tn_camera cc = *c;
    cc.ox = ox - c->view.x + LAYER_MARGIN;
    cc.oy = oy - c->view.y + LAYER_MARGIN;
    cc.view = strip;
    tn_gfx_clip(g, &strip);
    tn_gfx_rect(g, (float)strip.x, (float)strip.y, (float)strip.w, (float)strip.h, TN_COL_VOID);
    draw_tiles(g, w, &cc, false);
    dd_ctx ctx = {.g = g, .c = &cc, .lw = dd_width(c)};
    tn_debug_draw dd = {&ctx, dd_line, dd_rect, dd_circle, dd_tri, dd_text};
    if (what & LAYER_FLOW) { /* under the mesh, as drawn; the strip's world pixels */
        float sv[4];
        world_rect(&cc, strip, sv);
        tn_world_draw_flow_layer(w, &dd, sv);
    }
    if (what & LAYER_NAVMESH) tn_world_draw_navmesh_layer(w, &dd);
    tn_gfx_flush(g);
}

static void layer_drop(tn_gfx_layer *L)
{
    for (int i = 0; i < 2; i++)
        if (L->tex[i]) SDL_DestroyTexture(L->tex[i]);
    L->tex[0] = L->tex[1] = NULL;
    L->ok = false;
}

static bool layer_target(tn_gfx *g, int i, float sx, float sy)
{
    if (SDL_SetRenderTarget(g->r, g->layer.tex[i]) != 0) {
        layer_drop(&g->layer);
        g->layer.failed = true;
        return false;
    }
    SDL_RenderSetScale(g->r, sx, sy);
    return true;
}

/* Copy the map view's tiles and mesh layer from the cache to the screen,
 * bringing the cache up to date first (see tn_gfx_layer).  The texture
 * holds the view and LAYER_MARGIN around it for the camera (L->ox, L->oy);
 * a camera that moved less than the margin is a shifted copy.  Once it has
 * moved more than half the margin along an axis the picture is shifted
 * into the other texture and the uncovered strip drawn (one axis a frame:
 * one pass over the mesh); past the margin, or with anything else changed,
 * it is drawn whole.  False when the caller is to draw directly: the
 * renderer has no render targets, or what the layer shows changed in this
 * frame and the last one too (while blocks are painted a picture would be
 * drawn every frame and copied: slower than drawing; the first frame with
 * nothing changed draws it again). */
static bool layer_draw(tn_gfx *g, const tn_world *w, const tn_camera *c, unsigned what)
{
    tn_gfx_layer *L = &g->layer;
    SDL_Renderer *r = g->r;
    if (L->failed || SDL_GetRenderTarget(r) || !SDL_RenderTargetSupported(r)) return false;
    const tn_map *m = tn_world_map(w);
    float sx, sy;
    SDL_RenderGetScale(r, &sx, &sy);
    const int M = LAYER_MARGIN, tw = c->view.w + 2 * M, th = c->view.h + 2 * M;
    int pw = (int)ceilf((float)tw * sx), ph = (int)ceilf((float)th * sy);
    if (pw < 1 || ph < 1) return false;
    if (L->tex[0] && (L->pw != pw || L->ph != ph)) layer_drop(L);
    if (!L->tex[0]) {
        for (int i = 0; i < 2; i++) {
            L->tex[i] =
                SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, pw, ph);
            if (L->tex[i]) {
                SDL_SetTextureBlendMode(L->tex[i], SDL_BLENDMODE_NONE);
                SDL_SetTextureScaleMode(L->tex[i], SDL_ScaleModeNearest);
            }
        }
        if (!L->tex[0] || !L->tex[1]) {
            layer_drop(L);
            L->failed = true;
            return false;
        }
        L->pw = pw;
        L->ph = ph;
    }
    uint64_t mesh = tn_world_navmesh_layer_key(w); /* also tells a new world apart */
    bool same = L->keyed && L->what == what && L->world == (const void *)w &&
                L->map == (const void *)m && L->map_rev == m->revision &&
                L->serial == tn_world_map_serial(w) && L->start_x == m->start_x &&
                L->start_y == m->start_y && L->mesh == mesh && L->scale == c->scale &&
                L->sx == sx && L->sy == sy && L->view.x == c->view.x && L->view.y == c->view.y &&
                L->view.w == c->view.w && L->view.h == c->view.h;
    if (!same) {
        L->keyed = true;
        L->what = what;
        L->world = w;
        L->map = m;
        L->map_rev = m->revision;
        L->serial = tn_world_map_serial(w);
        L->start_x = m->start_x;
        L->start_y = m->start_y;
        L->mesh = mesh;
        L->scale = c->scale;
        L->sx = sx;
        L->sy = sy;
        L->view = c->view;
    }
    L->changes = same ? 0 : L->changes + 1;
    if (L->changes >= 2) { /* changed again (painting blocks, dragging the radius): a */
        L->ok = false;     /* picture kept for one frame is not worth its copies */
        L->direct++;
        return false;
    }
    int dx = c->ox - L->ox, dy = c->oy - L->oy;
    /* shifts of whole output pixels only (a fractional one would resample) */
    bool whole =
        (float)dx * sx == floorf((float)dx * sx) && (float)dy * sy == floorf((float)dy * sy);
    tn_gfx_flush(g);
    if (!same || !L->ok || !whole || abs(dx) > M || abs(dy) > M) {
        if (!layer_target(g, L->cur, sx, sy)) return false;
        layer_paint(g, w, c, what, c->ox, c->oy, (SDL_Rect){0, 0, tw, th});
        L->ox = c->ox;
        L->oy = c->oy;
        L->full++;
    } else if (abs(dx) > M / 2 || abs(dy) > M / 2) {
        bool in_x = abs(dx) >= abs(dy); /* the axis further off */
        int sx_ = in_x ? dx : 0, sy_ = in_x ? 0 : dy, nxt = 1 - L->cur;
        if (!layer_target(g, nxt, sx, sy)) return false;
        SDL_Rect to = {sx_, sy_, tw, th};
        SDL_RenderCopy(r, L->tex[L->cur], NULL, &to);
        int nox = L->ox + sx_, noy = L->oy + sy_;
        if (in_x) /* the columns the shift uncovered, whole height */
            layer_paint(g, w, c, what, nox, noy,
                        (SDL_Rect){sx_ > 0 ? 0 : tw + sx_, 0, abs(sx_), th});
        else /* the rows, whole width */
            layer_paint(g, w, c, what, nox, noy,
                        (SDL_Rect){0, sy_ > 0 ? 0 : th + sy_, tw, abs(sy_)});
        L->ox = nox;
        L->oy = noy;
        L->cur = nxt;
        L->scrolls++;
    }
    SDL_SetRenderTarget(r, NULL); /* back to the window: its scale, viewport and clip */
    L->ok = true;
    tn_gfx_clip(g, NULL);
    /* screen pixel p shows what the layer's camera put at p - (dx, dy) */
    dx = c->ox - L->ox;
    dy = c->oy - L->oy;
    SDL_Rect src = {(int)((float)(M - dx) * sx), (int)((float)(M - dy) * sy),
                    (int)((float)c->view.w * sx), (int)((float)c->view.h * sy)};
    SDL_RenderCopy(r, L->tex[L->cur], &src, &c->view);
    return true;
}

/* ------------------------------------------------------ search playback */

#define PB_OPEN_COL 0x58d0ffffu   /* the frontier (open set) */
#define PB_CLOSED_COL 0xff9a3c00u /* the closed set, alpha by depth */
#define PB_CURRENT_COL 0xffffffffu
/* A radius search's tangent points: squares, unlike the navmesh overlay's
 * clearance circles (rings around the same corners) */
#define PB_TANGENT_OPEN_COL PB_OPEN_COL
#define PB_TANGENT_CLOSED_COL 0xff9a3cffu
#define PB_TANGENT_EDGE_COL 0x101418ffu

/* The events shown and the last one that is not an OPEN (the current
 * node), -1 when none. */
static int pb_shown(const tn_playback *pb, int *cur)
{
    int shown = (int)pb->shown;
    if (shown > pb->trace.count) shown = pb->trace.count;
    *cur = -1;
    for (int i = shown - 1; i >= 0; i--)
        if (pb->trace.ev[i].kind != TN_TRACE_OPEN) {
            *cur = i;
            break;
        }
    return shown;
}

/* A navmesh replay's mesh, NULL when its triangle ids are not the current
 * mesh's (rebuilt since it was recorded: tn_playback_watch records it
 * again or drops it; never drawn on another mesh). */
static const tn_navmesh *pb_mesh(const tn_world *w, const tn_playback *pb)
{
    const tn_navmesh *nm = tn_wnav_mesh(w);
    return nm && pb->nav_rev == tn_wnav_revision(w) ? nm : NULL;
}

/* On top of the overlays (the navmesh overlay's clearance circles sit at
 * the same corners): a radius search's tangent points, open ones as blue
 * square outlines, expanded ones as orange squares edged dark, and a
 * navmesh search's current node ringed. */
static void draw_playback_marks(tn_gfx *g, const tn_world *w, tn_playback *pb, const tn_camera *c)
{
    if (!pb->navmesh) return;
    const tn_navmesh *nm = pb_mesh(w, pb);
    if (!nm) return;
    tn_navmesh_view mv;
    tn_navmesh_get_view(nm, &mv);
    int cur;
    int shown = pb_shown(pb, &cur);
    const tn_trace_event *ev = pb->trace.ev;
    for (int i = 0; i < shown; i++) {
        if (ev[i].id != -1) continue;
        float sx = tn_camera_sx(c, ev[i].x * mv.tile_size);
        float sy = tn_camera_sy(c, ev[i].y * mv.tile_size);
        if (ev[i].kind == TN_TRACE_OPEN) {
            tn_gfx_frame(g, sx - 4, sy - 4, 8, 8, 2, PB_TANGENT_OPEN_COL);
        } else {
            tn_gfx_rect(g, sx - 4, sy - 4, 8, 8, PB_TANGENT_EDGE_COL);
            tn_gfx_rect(g, sx - 3, sy - 3, 6, 6, PB_TANGENT_CLOSED_COL);
        }
    }
    if (cur >= 0) {
        float sx = tn_camera_sx(c, ev[cur].x * mv.tile_size);
        float sy = tn_camera_sy(c, ev[cur].y * mv.tile_size);
        tn_gfx_ring(g, sx, sy, 7, 2, PB_CURRENT_COL);
    }
}

/* The recorded search up to pb->shown: closed cells filled (more jump
 * values closed: more opaque), open cells outlined, the current node
 * ringed.  Tile searches draw tiles, navmesh searches triangles. */
static void draw_playback(tn_gfx *g, const tn_world *w, tn_playback *pb, const tn_camera *c)
{
    int cur;
    int shown = pb_shown(pb, &cur);
    const tn_trace_event *ev = pb->trace.ev;
    const tn_map *m = tn_world_map(w);
    if (!pb->navmesh) {
        size_t n = (size_t)m->w * (size_t)m->h;
        uint8_t *st = tn_playback_scratch(pb, n);
        if (!st) return;
        memset(st, 0, n);
        /* low 4 bits: closed jump values (capped); bit 4: on the open list */
        for (int i = 0; i < shown; i++) {
            int x = (int)ev[i].x, y = (int)ev[i].y;
            if (!tn_map_inside(m, x, y)) continue;
            uint8_t *p = &st[(size_t)y * m->w + x];
            if (ev[i].kind == TN_TRACE_OPEN)
                *p |= 0x10;
            else if ((*p & 0x0f) < 12)
                *p = (uint8_t)(*p + 1);
        }
        float ts = (float)c->ts;
        for (int y = 0; y < m->h; y++)
            for (int x = 0; x < m->w; x++) {
                uint8_t p = st[(size_t)y * m->w + x];
                if (!p) continue;
                float sx = (float)(c->ox + x * c->ts), sy = (float)(c->oy + y * c->ts);
                if (sx > (float)(c->view.x + c->view.w) || sy > (float)(c->view.y + c->view.h) ||
                    sx + ts < (float)c->view.x || sy + ts < (float)c->view.y)
                    continue;
                int k = p & 0x0f;
                if (k)
                    tn_gfx_rect(g, sx, sy, ts, ts, PB_CLOSED_COL | (uint32_t)(70 + k * 12));
                else
                    tn_gfx_frame(g, sx + 1, sy + 1, ts - 2, ts - 2, ts >= 16 ? 2.0f : 1.0f,
                                 PB_OPEN_COL);
            }
        if (cur >= 0) {
            float sx = (float)(c->ox + (int)ev[cur].x * c->ts);
            float sy = (float)(c->oy + (int)ev[cur].y * c->ts);
            tn_gfx_frame(g, sx - 2, sy - 2, ts + 4, ts + 4, 2, PB_CURRENT_COL);
        }
    } else {
        const tn_navmesh *nm = pb_mesh(w, pb);
        if (!nm) return;
        tn_navmesh_view mv;
        tn_navmesh_get_view(nm, &mv);
        uint8_t *st = tn_playback_scratch(pb, (size_t)mv.ntris + 1);
        if (!st) return;
        memset(st, 0, (size_t)mv.ntris);
        /* a radius search records tangent points (id -1; their marks go on
         * top, draw_playback_marks): the triangles under them are the
         * frontier and the closed set, as a radius-0 search's triangles */
        int hint = -1;
        for (int i = 0; i < shown; i++) {
            int t = ev[i].id;
            if (t == -1) {
                t = tn_navmesh_locate(nm, ev[i].x * mv.tile_size, ev[i].y * mv.tile_size, hint);
                if (t >= 0) hint = t;
            }
            if (t < 0 || t >= mv.ntris) continue;
            if (ev[i].kind == TN_TRACE_OPEN)
                st[t] |= 1;
            else
                st[t] |= 2;
        }
        float k = mv.tile_size * c->scale;
        for (int t = 0; t < mv.ntris; t++) {
            if (!st[t]) continue;
            float x[3], y[3];
            for (int j = 0; j < 3; j++) {
                int pi = mv.tri[3 * t + j];
                x[j] = (float)c->ox + (float)mv.xy[2 * pi] * k;
                y[j] = (float)c->oy + (float)mv.xy[2 * pi + 1] * k;
            }
            if (st[t] & 2)
                tn_gfx_tri(g, x[0], y[0], x[1], y[1], x[2], y[2], PB_CLOSED_COL | 0x90u);
            else
                for (int j = 0; j < 3; j++)
                    tn_gfx_line(g, x[j], y[j], x[(j + 1) % 3], y[(j + 1) % 3], 2.0f, PB_OPEN_COL);
        }
    }
}

/* ---------------------------------------------------------------- frame */

static const char *const TILE_NAMES[] = {"empty", "block", "one-way"};
static const char *const MARK_NAMES[] = {"", "  spawn", "  destination", "  item"};

void tn_render_scene(tn_gfx *g, const tn_world *w, const tn_view *v)
{
    const tn_map *m = tn_world_map(w);
    tn_camera c = tn_camera_make(w, v);
    tn_gfx_clip(g, NULL);
    tn_gfx_rect(g, 0, 0, (float)TN_FRAME_W, (float)TN_FRAME_H, TN_COL_VOID);

    unsigned overlays = v->overlays;
    /* The navmesh overlay's mesh, the flow overlay's field and the tiles
     * under them from the cache (tn_gfx_layer): both change only with the
     * map or the mesh, and cost up to tens of ms to draw on a large map. */
    unsigned what = 0;
    if ((overlays & TN_OVERLAY_NAVMESH) && tn_world_navmesh_layer_key(w) != 0)
        what |= LAYER_NAVMESH;
    float view[4]; /* the world pixels in the map view */
    world_rect(&c, c.view, view);
    int fr[4];
    const tn_flow *shown = v->flow8_field ? v->flow8_field : tn_world_flow(w);
    if ((overlays & TN_OVERLAY_FLOW) && shown && !flow_arrows_shown(shown, &c, view, fr))
        overlays &= ~(unsigned)TN_OVERLAY_FLOW; /* (the caption says so) */
    if ((overlays & TN_OVERLAY_FLOW) && !v->flow8_field && tn_world_flow(w)) what |= LAYER_FLOW;
    bool cached = what && layer_draw(g, w, &c, what);
    tn_gfx_clip(g, &c.view);
    if (cached) {
        tile_range tr = view_tiles(m, &c);
        if (tr.x0 <= tr.x1 && tr.y0 <= tr.y1) draw_marks(g, w, &c, &tr);
        if (what & LAYER_NAVMESH) overlays |= TN_DRAW_NAVMESH_LAYER_CACHED;
        if (what & LAYER_FLOW) overlays |= TN_DRAW_FLOW_LAYER_CACHED;
    } else {
        draw_tiles(g, w, &c, true);
    }
    /* a thin frame around the map where it meets the void */
    tn_gfx_frame(g, (float)c.ox - 1, (float)c.oy - 1, (float)(m->w * c.ts) + 2,
                 (float)(m->h * c.ts) + 2, 1, TN_COL_PANEL_EDGE);

    dd_ctx ctx = {.g = g, .c = &c, .lw = dd_width(&c), .defer = true};
    tn_debug_draw dd = {&ctx, dd_line, dd_rect, dd_circle, dd_tri, dd_text};
    if (tn_playback_visible(v->pb, overlays)) { /* the replay replaces the still picture */
        draw_playback(g, w, v->pb, &c);
        overlays &= ~(unsigned)TN_OVERLAY_EXPLORED;
    }
    bool flow8 = v->flow8_field && (overlays & TN_OVERLAY_FLOW);
    if (flow8) { /* the 8-connected field instead (light blue arrows to the next tile) */
        tn_world_draw_flow_field(v->flow8_field, &dd, view);
        overlays &= ~(unsigned)TN_OVERLAY_FLOW;
    }
    tn_world_draw_view(w, &dd, overlays, view, c.scale); /* the world pixels in the map view */
    if (tn_playback_visible(v->pb, v->overlays)) draw_playback_marks(g, w, v->pb, &c);
    draw_marks_on_top(g, w, &c);
    draw_character(g, w, v, &c);
    dd_labels_draw(&ctx); /* over the overlays, the marks and the character */
    /* (the 8-connected note: tn_enemy flies tile edge to tile edge, so
     * 4-connected steps only) */
    const char *note[2];
    char made[128];
    const int notes = view_notes(w, v, &c, note, made, sizeof made);
    for (int k = 0; k < notes; k++) draw_note(g, &c, k, note[k]);

    char hover[96] = "";
    int tx, ty;
    if (v->live && v->mouse_in && !v->show_help && v->drag_slider < 0 &&
        tn_camera_tile_at(&c, m, v->mouse_x, v->mouse_y, &tx, &ty)) {
        tn_gfx_frame(g, (float)(c.ox + tx * c.ts), (float)(c.oy + ty * c.ts), (float)c.ts,
                     (float)c.ts, c.ts >= 16 ? 2.0f : 1.0f, 0xffffffa0u);
        int t = m->tile[ty * m->w + tx], mk = m->mark[ty * m->w + tx];
        /* an item the companion picked up stays in the map (saved), hidden */
        const bool picked = (mk & 3) == TN_MARK_ITEM && !tn_world_item_here(w, tx, ty);
        snprintf(hover, sizeof hover, "tile %d,%d  %s%s%s%s", tx, ty, TILE_NAMES[t % 3],
                 MARK_NAMES[mk & 3], picked ? " (picked up)" : "",
                 tx == m->start_x && ty == m->start_y ? "  start" : "");
    }
    SDL_FRect avoid[3];
    const int navoid = v->inspect_kind ? tn_render_card_avoid(g, w, v, &c, avoid) : 0;
    if (v->inspect_kind) {
        SDL_FRect card;
        const bool has = tn_ui_inspect_rect(g, w, v, avoid, navoid, &card);
        draw_pinned(g, w, v, &c, has ? &card : NULL);
        tn_ui_inspect_draw(g, w, v, avoid, navoid);
    }
    if (hover[0]) { /* the readout follows the mouse, off the pinned card */
        int hw = tn_gfx_text_width(g, TN_FONT_MONO, hover) + 12;
        int hh = tn_gfx_line_height(g, TN_FONT_MONO) + 6;
        /* off the pinned card, and off the character's goal marker (the
         * path's end, the red frame of a goal out of reach): it covered
         * the goal just clicked, often the tile below right of the mouse */
        SDL_FRect keep[2];
        int nkeep = tn_ui_inspect_rect(g, w, v, avoid, navoid, &keep[0]) ? 1 : 0;
        if (tn_render_goal_rect(w, &c, &keep[nkeep])) nkeep++;
        SDL_FRect r = tn_ui_tooltip_place(v->mouse_x, v->mouse_y, hw, hh, c.view, keep, nkeep);
        tn_gfx_rect(g, r.x, r.y, r.w, r.h, TN_COL_HUD_BG);
        tn_gfx_text(g, TN_FONT_MONO, r.x + 6, r.y + 3, hover, TN_COL_TEXT);
    }
    tn_gfx_clip(g, NULL);

    tn_ui_hud_draw(g, w, v, hover);
    tn_ui_picker_draw(g, v);
    tn_ui_bar_draw(g, w, v);
    tn_ui_status_draw(g, w, v);
    tn_ui_panel_draw(g, w, v);
    if (v->show_help) tn_ui_help_draw(g, v->help_scroll);
    tn_gfx_flush(g);
}

bool tn_render_goal_rect(const tn_world *w, const tn_camera *c, SDL_FRect *r)
{
    const tn_bot *b = tn_wbots_character_bot(w);
    if (!b) return false;
    const tn_bot_info i = tn_bot_get_info(b);
    if (i.goal_x < 0 || i.state == TN_BOT_IDLE || i.state == TN_BOT_ARRIVED) return false;
    const float pad = tn_maxf(4.0f, c->ts * 0.5f); /* the path's end circle reaches past it */
    r->x = (float)c->ox + (float)(i.goal_x * c->ts) - pad;
    r->y = (float)c->oy + (float)(i.goal_y * c->ts) - pad;
    r->w = r->h = (float)c->ts + 2 * pad;
    return true;
}

int tn_render_offscreen(const tn_world *w, const tn_fonts *fonts, const tn_view *v,
                        const char *path, char *err, size_t cap)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H, 32,
                                                    SDL_PIXELFORMAT_RGB888);
    if (!s) {
        snprintf(err, cap, "screenshot surface: %s", SDL_GetError());
        return -1;
    }
    SDL_Renderer *r = SDL_CreateSoftwareRenderer(s);
    if (!r) {
        snprintf(err, cap, "software renderer: %s", SDL_GetError());
        SDL_FreeSurface(s);
        return -1;
    }
    tn_gfx g;
    int rc = tn_gfx_init(&g, r, fonts, err, cap);
    if (rc == 0) {
        int uw = tn_ui_w, uh = tn_ui_h; /* screenshots: always the 1280x720 frame */
        tn_ui_set_size(TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
        tn_render_scene(&g, w, v);
        tn_ui_set_size(uw, uh);
        SDL_RenderFlush(r);
        /* Encoded in memory, then written like a map (a temporary file
         * renamed over PATH): a failure leaves any old PATH as it was and
         * names the real cause (ENOSPC, EACCES, ...). */
        size_t bmp_cap = 54 + (size_t)s->h * (((size_t)s->w * 3 + 3) & ~(size_t)3) + 1024;
        char *bmp = malloc(bmp_cap);
        SDL_RWops *rw = bmp ? SDL_RWFromMem(bmp, (int)bmp_cap) : NULL;
        if (!rw) {
            snprintf(err, cap, "%s: cannot encode the screenshot: out of memory", path);
            rc = -1;
        } else if (SDL_SaveBMP_RW(s, rw, 0) != 0) {
            snprintf(err, cap, "%s: cannot encode the screenshot: %s", path, SDL_GetError());
            rc = -1;
        } else {
            Sint64 n = SDL_RWtell(rw);
            rc = tn_write_file_atomic(path, bmp, (size_t)(n > 0 ? n : 0), err, cap);
        }
        if (rw) SDL_RWclose(rw);
        free(bmp);
        tn_gfx_free(&g);
    }
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(s);
    return rc;
}

int tn_game_fonts_check(const char *assets_dir, char *err, size_t errcap)
{
    if (TTF_Init() != 0) {
        snprintf(err, errcap, "SDL_ttf: %s", TTF_GetError());
        return -1;
    }
    tn_fonts fonts;
    int rc = tn_fonts_open(&fonts, assets_dir, err, errcap);
    if (rc == 0) tn_fonts_close(&fonts);
    TTF_Quit();
    return rc;
}

int tn_game_screenshot(tn_world *w, const char *assets_dir, const char *path, unsigned overlays,
                       char *err, size_t errcap)
{
    if (TTF_Init() != 0) {
        snprintf(err, errcap, "SDL_ttf: %s", TTF_GetError());
        return -1;
    }
    tn_fonts fonts;
    int rc = tn_fonts_open(&fonts, assets_dir, err, errcap);
    if (rc == 0) {
        tn_view v;
        tn_view_init(&v, w, overlays);
        tn_world_prepare(w, overlays);
        rc = tn_render_offscreen(w, &fonts, &v, path, err, errcap);
        tn_fonts_close(&fonts);
    }
    TTF_Quit();
    return rc;
}
