/* ui.h - the front end's drawing layer (tn_gfx, gfx.c) and its widgets (ui.c).
 *
 * tn_gfx wraps one SDL_Renderer (the window's, or a software renderer over
 * a surface for screenshots) with:
 *  - glyph atlases built once per renderer from the SDL2_ttf fonts (every
 *    printable Latin-1 character plus a few symbols), so text is textured
 *    quads in the triangle batch (its colour in the vertices), not a TTF
 *    render or a texture copy per glyph: one draw call for a whole HUD;
 *  - two batches: axis-aligned rectangles of one colour go to
 *    SDL_RenderFillRectsF together (opaque ones with blending off, which the
 *    software renderer turns into plain memory fills); triangles, circles
 *    and thick lines become coloured vertices for SDL_RenderGeometry.  A
 *    batch is flushed when the other kind, a new rectangle colour, another
 *    texture or a clip change comes, and at the end of a frame.
 *  - opaque shapes are drawn with blending off: SDL's software renderer
 *    rasterizes a blended triangle through a temporary surface of its
 *    bounding box (an allocation and a clear per triangle), an opaque one
 *    directly.  For the same reason thin lines on the software renderer
 *    are SDL lines rather than quads.  Drawing tiles in
 *    passes of one colour each keeps a whole frame to a few dozen calls.
 * Colours are 0xRRGGBBAA like the library's debug-draw interface.
 *
 * tn_view is everything a frame shows besides the world itself: overlays,
 * zoom, the interpolated character position, help, HUD figures and the
 * state of the side panel's widgets.  The window and offscreen screenshots
 * draw the same tn_view through the same code (render.c).
 *
 * Layout (logical 1280x720): the map view on the left, a 260 px panel on
 * the right with the tools, one slider per world parameter and the overlay
 * toggles.  The HUD sits in the map view's top-left corner, world messages
 * at its bottom, the F1 help over everything.
 */
#ifndef TN_UI_H
#define TN_UI_H

#include <SDL.h>
#ifndef TN_BAKED_FONTS
#include <SDL_ttf.h>
#endif

#include "control.h"
#include "game.h"
#include "tn_world.h"

/* Palette (0xRRGGBBAA); tests compare screenshot pixels against these. */
#define TN_COL_VOID 0x0d1017ffu        /* the view outside the map */
#define TN_COL_EMPTY 0x1a1f2cffu       /* an empty tile */
#define TN_COL_GRID 0x232a3affu        /* grid lines between tiles */
#define TN_COL_BLOCK 0x5a6a8cffu       /* a block */
#define TN_COL_BLOCK_SEAM 0x536283ffu  /* seams between blocks */
#define TN_COL_BLOCK_TOP 0x8a9cc2ffu   /* the walkable top of a block */
#define TN_COL_BLOCK_SHADE 0x44516dffu /* the underside of a block */
#define TN_COL_ONEWAY 0xe2a84cffu      /* a one-way platform's slab */
#define TN_COL_ONEWAY_EDGE 0x96672affu
#define TN_COL_SPAWN 0xe0566bffu /* an enemy spawn point */
#define TN_COL_SPAWN_EDGE 0x8e2b3cffu
#define TN_COL_DEST 0x45c08affu /* a destination */
#define TN_COL_DEST_EDGE 0x1f6e4cffu
#define TN_COL_ITEM 0xffd447ffu /* an item */
#define TN_COL_ITEM_EDGE 0xa47e12ffu
#define TN_COL_CHAR 0x4cc9f0ffu /* the character */
#define TN_COL_CHAR_EDGE 0x1b6a8cffu
#define TN_COL_START 0x4cc9f066u /* the character's start tile marker */
#define TN_COL_PANEL 0x141823ffu
#define TN_COL_PANEL_EDGE 0x2b3346ffu
#define TN_COL_TEXT 0xdfe5f0ffu
#define TN_COL_TEXT_DIM 0x8891a6ffu
#define TN_COL_TEXT_OFF 0x4f576affu
#define TN_COL_ACCENT 0x4cc9f0ffu
#define TN_COL_WARN 0xffc65cffu
/* Text boxes over the map (captions, the mouse-tile readout, the inspect
 * card) are opaque: at alpha 0xd0 / 0xe8 the flow field's arrows and the
 * graph's arcs ran through their letters. */
#define TN_COL_HUD_BG 0x090c13ffu
#define TN_COL_CARD 0x0b0f18ffu

/* The logical frame: 1280x720 (TN_GAME_LOGICAL_W/H), scaled up to a larger
 * window; a window smaller than that in either direction gets a frame of
 * its own size, drawn 1:1 (so text keeps its pixel size: 12 px and more)
 * with the panel's rows and the top bar laid out for it.  Set by the window
 * (tn_ui_set_size); screenshots always draw 1280x720. */
extern int tn_ui_w, tn_ui_h;
#define TN_FRAME_W tn_ui_w
#define TN_FRAME_H tn_ui_h
void tn_ui_set_size(int w, int h);
#define TN_UI_COMPACT (TN_FRAME_W < 1200)

#define TN_PANEL_W 260
#define TN_BAR_H 32    /* the top bar: time and search playback */
#define TN_STATUS_H 24 /* the status line: the world's message */
#define TN_HUD_H 88    /* the HUD strip under the top bar (H collapses it) */
#define TN_VIEW_W (TN_FRAME_W - TN_PANEL_W)
/* The map view with the HUD shown (the default; the default zoom uses it) ... */
#define TN_VIEW_Y (TN_BAR_H + TN_HUD_H)
#define TN_VIEW_H (TN_FRAME_H - TN_VIEW_Y - TN_STATUS_H)
/* ... and as it is: with the HUD collapsed the map gets its strip too. */
#define tn_view_y(v) (TN_BAR_H + ((v)->hud_hidden ? 0 : TN_HUD_H))
#define tn_view_h(v) (TN_FRAME_H - tn_view_y(v) - TN_STATUS_H)

typedef enum tn_font_id {
    TN_FONT_UI = 0, /* DejaVu Sans 14: labels */
    TN_FONT_TITLE,  /* DejaVu Sans bold 19: headings */
    TN_FONT_SMALL,  /* DejaVu Sans 12: section titles, hints */
    TN_FONT_MONO,   /* DejaVu Sans Mono 13: HUD */
    TN_FONT_TINY,   /* DejaVu Sans Mono 12: debug-draw labels in the world */
    TN_FONT_COUNT
} tn_font_id;

#define TN_BAKED_FONTS_FILE "tilenav-fonts.atlas"
#define TN_BAKED_FONTS_MAGIC "TNFONTS1"
#ifndef TN_BAKED_FONTS
typedef struct tn_fonts {
    TTF_Font *f[TN_FONT_COUNT];
    void *file[2]; /* the two TTF files, read once: glyphs load from memory */
} tn_fonts;
#else
/* The browser build (-DTN_BAKED_FONTS) has no FreeType: the native tool
 * tilenav-bake-fonts (web/bake_fonts.c) writes the atlases tn_atlas_sheet()
 * makes to one file, TN_BAKED_FONTS_FILE in the assets directory:
 * TN_BAKED_FONTS_MAGIC (8 bytes), then per font in tn_font_id order the
 * line height, sheet width W (512) and used height H (<= 512), TN_GLYPHS x
 * {x, y, w, h, xoff, adv}, all int32 little-endian, then W x H alpha bytes
 * (the glyphs are white).  tn_fonts_open() reads and checks it; TTF_Init and TTF_Quit are
 * no-ops. */
typedef struct tn_fonts {
    unsigned char *data;
    size_t size;
    char path[1024];
} tn_fonts;
#define TTF_Init() 0
#define TTF_Quit() ((void)0)
#define TTF_GetError() SDL_GetError()
#endif

/* Open the fonts from assets_dir (DejaVuSans.ttf, DejaVuSansMono.ttf).
 * TTF_Init() must have been called.  0, or -1 with a message. */
int tn_fonts_open(tn_fonts *fonts, const char *assets_dir, char *err, size_t cap);
void tn_fonts_close(tn_fonts *fonts);

#define TN_GLYPHS 232 /* 95 ASCII + 96 Latin-1 + extras, see gfx.c */

typedef struct tn_glyph {
    SDL_Rect src; /* in the atlas; w == 0 for a blank glyph */
    int xoff;     /* added to the pen position */
    int adv;      /* pen advance */
} tn_glyph;

typedef struct tn_atlas {
    SDL_Texture *tex;
    tn_glyph g[TN_GLYPHS];
    int height; /* line height */
} tn_atlas;

#ifndef TN_BAKED_FONTS
/* Fill a's glyph table for font and return its sheet: the glyphs in white on
 * a transparent 512x512 ARGB8888 surface (the caller frees it); NULL with a
 * message.  The window's atlases and the browser build's baked ones
 * (tilenav-bake-fonts) both come from here. */
SDL_Surface *tn_atlas_sheet(tn_atlas *a, TTF_Font *font, char *err, size_t cap);
#endif

/* The map view's tiles with the navmesh overlay's mesh and the flow
 * overlay's field over them, kept between frames (render.c uses it when
 * one of these overlays is on): drawing a large mesh or field costs tens
 * of ms, a copy of the view about 1 ms.  Redrawn
 * whole when the map, the mesh, the zoom or the view changes; when only
 * the camera moved, the old picture is copied shifted into the other
 * texture and only the uncovered strips are drawn; while it changes
 * every frame it is not used. */
typedef struct tn_gfx_layer {
    SDL_Texture *tex[2]; /* the view at output pixels; tex[cur] is current */
    int cur, pw, ph;
    bool ok, failed; /* ok: the picture matches the key below; failed: no render
                            targets here: draw directly */
    bool keyed;      /* the key below was set */
    int changes;     /* frames in a row in which the key changed */
    unsigned what;   /* which overlays' parts it holds (render.c) */
    const void *world, *map;
    uint32_t map_rev;
    uint32_t serial; /* tn_world_map_serial: another map in the same memory */
    int start_x, start_y;
    uint64_t mesh;       /* tn_world_navmesh_layer_key */
    float scale, sx, sy; /* zoom; output pixels per logical pixel */
    int ox, oy;          /* the camera the picture was drawn for */
    SDL_Rect view;
    long full, scrolls, direct; /* whole redraws, shifted copies, frames drawn without it
                                   (tests count them) */
} tn_gfx_layer;

typedef struct tn_gfx {
    SDL_Renderer *r;
    tn_atlas atlas[TN_FONT_COUNT];
    SDL_Vertex *vert; /* triangle batch, textured with tex (or not: NULL) */
    int nvert, cap;
    SDL_Texture *tex;
    bool tri_opaque;  /* untextured batch of opaque colours: drawn without blending */
    bool software;    /* SDL's software renderer (see tn_gfx_line) */
    SDL_FRect *rects; /* rectangle batch, all of colour rect_rgba */
    int nrects, rect_cap;
    uint32_t rect_rgba;
    long verts, rects_drawn; /* triangle vertices and rectangles queued since tn_gfx_init
                                (what a frame costs: tests count them) */
    tn_gfx_layer layer;
} tn_gfx;

/* Build the atlases for renderer r.  0, or -1 with a message. */
int tn_gfx_init(tn_gfx *g, SDL_Renderer *r, const tn_fonts *fonts, char *err, size_t cap);
void tn_gfx_free(tn_gfx *g);
/* Send the batched geometry to the renderer. */
void tn_gfx_flush(tn_gfx *g);
void tn_gfx_clip(tn_gfx *g, const SDL_Rect *rect); /* NULL: no clip */

/* In SDL's software renderer a translucent triangle under 8 output pixels
 * high is drawn as batched rectangles, one per row of the pixels whose
 * centres it covers (SDL would fill it through a surface of its own:
 * about 1 us even for 2 pixels). */
void tn_gfx_tri(tn_gfx *g, float x0, float y0, float x1, float y1, float x2, float y2,
                uint32_t rgba);
void tn_gfx_rect(tn_gfx *g, float x, float y, float w, float h, uint32_t rgba);
/* Outline of thickness t drawn inside the rectangle. */
void tn_gfx_frame(tn_gfx *g, float x, float y, float w, float h, float t, uint32_t rgba);
/* In SDL's software renderer a line up to 2 px wide is 1 output pixel wide
 * (SDL's line); an axis-aligned one, or one up to 12 output pixels long,
 * is drawn as batched rectangles rather than a call of its own. */
void tn_gfx_line(tn_gfx *g, float x0, float y0, float x1, float y1, float width, uint32_t rgba);
void tn_gfx_circle(tn_gfx *g, float cx, float cy, float r, uint32_t rgba);
void tn_gfx_ring(tn_gfx *g, float cx, float cy, float r, float width, uint32_t rgba);

/* Draw UTF-8 text with its top-left corner at (x, y); returns its width.
 * Characters outside the atlas show as '?'. */
int tn_gfx_text(tn_gfx *g, tn_font_id f, float x, float y, const char *s, uint32_t rgba);
int tn_gfx_text_width(const tn_gfx *g, tn_font_id f, const char *s);
int tn_gfx_line_height(const tn_gfx *g, tn_font_id f);

/* What a frame shows besides the world. */
typedef struct tn_view {
    unsigned overlays;    /* TN_OVERLAY_* */
    int zoom;             /* index into the zoom levels (render.h); -1 = fit the map */
    float char_x, char_y; /* the character's top-left, interpolated between steps */
    int facing;           /* -1 left, +1 right (for the eyes) */
    bool show_help;
    bool live;            /* a window (fps, hover) rather than an offscreen render */
    double fps, step_ms;  /* measured by the game loop */
    double frame_ms;      /* time to draw a frame (CPU side) */
    double other_ms;      /* a frame's time outside steps and drawing (events,
                             sliders, tn_world_prepare), averaged */
    double worst_ms;      /* the longest frame's work (events, steps, drawing) */
    const char *renderer; /* the SDL render driver's name */
    char pacing[32];      /* how the frame rate is limited: "vsync, cap 60 Hz" */
    int mouse_x, mouse_y; /* logical pixels */
    bool mouse_in;        /* the mouse is inside the window */
    /* panel widgets */
    int hot_slider, drag_slider; /* -1 = none */
    int hot_tool, hot_overlay;   /* -1 = none */
    /* time (run by app.c, shown in the top bar) */
    bool paused;
    int speed;              /* index into tn_speeds (control.h) */
    struct tn_playback *pb; /* the search playback, NULL = none (render.c uses its scratch) */
    int hot_bar, drag_bar;  /* top-bar widget under the mouse / dragged, -1 = none */
    bool hud_hidden;        /* H: the HUD box is collapsed */
    bool restore_offered;   /* R restores MAP.autosave: the idle status line says so */
    int help_scroll;        /* px the help is scrolled up (small windows) */
    /* camera: follow the character, or centre on (cam_x, cam_y) world px */
    bool follow;
    float cam_x, cam_y;
    /* the pinned inspect card: agent kind (TN_INSPECT_*), index and the
     * agent's spawn number (tn_inspect_serial: a bot or wanderer made
     * again in the same slot is another); an enemy's index is its spawn
     * number, 64-bit as tn_enemy's id; a pinned enemy's tile when last
     * seen, to say why it went */
    int inspect_kind;
    int64_t inspect_index;
    uint64_t inspect_serial;
    tn_inspect_seen inspect_seen;
    /* settings the front end keeps (shown in the panel / HUD) */
    bool fast_heuristic, flow8;
    const struct tn_flow *flow8_field; /* the 8-connected field to draw, or NULL */
    /* the map picker (Tab): open when picker_count > 0 */
    const char *const *picker_items;
    int picker_count, picker_sel, picker_top;
    int picker_current; /* the map being played (marked "playing"), -1 none */
} tn_view;

/* What a top-bar click asks the game to do. */
typedef enum tn_ui_action {
    TN_ACT_NONE = 0,
    TN_ACT_PAUSE,
    TN_ACT_STEP,
    TN_ACT_RESET,
    TN_ACT_REPLAY,
    TN_ACT_PB_PAUSE,
    TN_ACT_PB_STEP,
    TN_ACT_PB_SPEED,
    TN_ACT_HUD,
    TN_ACT_SPEED
} tn_ui_action;

/* The top bar over the map view. */
void tn_ui_bar_draw(tn_gfx *g, const tn_world *w, const tn_view *v);
/* A mouse event at (x, y): true when the bar takes it; *act (and *arg for
 * TN_ACT_PB_SPEED: the new rate index; TN_ACT_SPEED: the new simulation
 * speed index) says what to do.  The simulation speed slider leaves
 * v->speed to the game, which says the new speed as '[' and ']' do: a
 * press always, a drag when it reaches another stop. */
bool tn_ui_bar_mouse(tn_view *v, const SDL_Event *ev, int x, int y, tn_ui_action *act, int *arg);
/* The status line under the map view: the world's message. */
void tn_ui_status_draw(tn_gfx *g, const tn_world *w, const tn_view *v);

/* Overlay tn_overlays[i] on or off, by its key or its panel checkbox; the
 * status line says which ("overlay path: on"). */
void tn_view_toggle_overlay(tn_view *v, tn_world *w, int i);
/* Defaults: the given overlays, zoom to fit, character where it stands. */
void tn_view_init(tn_view *v, const tn_world *w, unsigned overlays);

/* The side panel. */
void tn_ui_panel_draw(tn_gfx *g, const tn_world *w, const tn_view *v);
/* A mouse event at logical (x, y); returns true when the panel takes it
 * (every event inside the panel, and drags that started on a slider). */
bool tn_ui_panel_mouse(tn_view *v, tn_world *w, const SDL_Event *ev, int x, int y);

/* The replay's rate label and progress text in the top bar, placed from
 * their measured widths: the progress starts after the label (at
 * 10,000/s too) and ends before the HUD button; a count too wide for that
 * room shows as a percentage.  A compact frame has that room after the
 * HUD button instead (to the map view's edge), and when it does not fit
 * there (a 900 px frame: "100%", "ready (E)", "no search" were never
 * drawn) in the panel's title row, right of "tilenav" and ending at the
 * frame's right margin (in_panel: tn_ui_panel_draw draws it then, over the
 * panel); show_prog is false only when it fits nowhere.  A reason
 * why there is nothing to replay ("none above 256x256") too wide for one
 * line takes two, cut at a blank: prog over prog2 (else prog2 is ""),
 * prog_box around both. */
typedef struct tn_bar_labels {
    char rate[24], prog[48], prog2[48];
    char hold[16], hold_key[8]; /* "Hold" / "Play" (Shift+E), "X off" (X) while X hides it */
    SDL_Rect rate_box, prog_box, hud_box; /* the rate label, the progress, the HUD button */
    bool show_prog, in_panel;
} tn_bar_labels;
void tn_ui_bar_labels(const tn_gfx *g, const tn_view *v, tn_bar_labels *out);

/* The panel's footer: the hovered (or dragged) slider's help with its
 * range (the planner's on a map where the classic one is off says so: w,
 * NULL for none), else the main keys, in lines no wider than the panel's
 * text (TN_PANEL_W less its margins) cut at blanks: 1 or 2 lines. */
#define TN_UI_FOOT_MAX 160
int tn_ui_panel_footer(const tn_gfx *g, const tn_world *w, const tn_view *v,
                       char out[2][TN_UI_FOOT_MAX]);

/* The pinned inspect card's box (false: no card): in the map view's
 * top-right corner, else the first of its bottom-right, top-left and
 * bottom-left corners that is off every one of the `navoid` rectangles
 * `avoid` (the agent it inspects, the captions: tn_render_card_avoid),
 * else top right. */
bool tn_ui_inspect_rect(const tn_gfx *g, const tn_world *w, const tn_view *v,
                        const SDL_FRect *avoid, int navoid, SDL_FRect *box);
/* Where the w x h mouse-tile readout goes for the mouse at (mx, my):
 * beside the mouse inside `view` (below right first, as before), off
 * every one of the `navoid` rectangles `avoid` (the inspect card, the
 * character's goal marker: it covered the goal just clicked, below right
 * of the mouse).  When every place beside the mouse is on one, off the
 * first (the card): left of it, else under it. */
SDL_FRect tn_ui_tooltip_place(int mx, int my, int w, int h, SDL_Rect view, const SDL_FRect *avoid,
                              int navoid);
/* The part of a message of several lines that rises above the status
 * line, over the map view's bottom edge (its h is 0 for a one-line
 * message or none): the pinned inspect card keeps above it (its bottom
 * lines were under a two-line message). */
SDL_FRect tn_ui_status_band(const tn_gfx *g, const tn_world *w, const tn_view *v);

/* HUD box, world message and (when v->show_help) the help overlay. */
/* The F1 legend's entry i (NULL past the last). */
const char *tn_ui_legend_entry(int i);
/* Split a HUD line at its " | " separators into lines no wider than maxw
 * (width(u, text) in pixels; a piece wider on its own stays whole;
 * continuation lines start with two blanks): the number of lines written,
 * at most max_out, each cut to 191 bytes. */
int tn_ui_wrap(const char *line, int maxw, int (*width)(void *u, const char *s), void *u,
               char out[][192], int max_out);
/* Slider i of n in the panel, for the frame size now (tn_ui_set_size).
 * Its row's height picks the layout: rows of 32 px and more have a 14 px
 * label and value over the track, rows of 25 px and more 12 px ones, and
 * lower rows (a 900x500 frame: 19 px) one 12 px line, the label in a
 * column on the left, the track beside it and the value on the right, so
 * no knob comes near another row's text.  Hit-testing and drawing use it. */
typedef struct tn_ui_slider_box {
    SDL_Rect row;               /* hovering it shows the slider's help in the footer */
    SDL_Rect label;             /* where the label is (over the track: the whole text line) */
    SDL_Rect value;             /* where the value is, right-aligned (over the track: in label) */
    tn_font_id font;            /* the label's */
    int x0, x1, y;              /* the track, from x0 to x1 on y */
    float knob_r;               /* the knob's radius under the mouse (the larger) */
    int hit_x0, hit_x1, hit_y0; /* a press in row, hit_x0 <= x < hit_x1, y >= hit_y0 drags */
    bool beside;                /* the track beside the label, not under it */
} tn_ui_slider_box;
void tn_ui_slider_geom(int i, int n, tn_ui_slider_box *b);
/* A slider's value as the panel shows it ("4.0 tiles", "1 tile", "graph"). */
void tn_ui_param_value(const tn_param_info *p, double v, char *out, size_t cap);
/* The centre of overlay tn_overlays[i]'s checkbox in the panel. */
void tn_ui_overlay_center(int i, int *x, int *y);
/* How the status line shows a message too long for it: in the UI font
 * after the speed and frame (left_end: where they end) when it fits the
 * line (right: its end), else in the small font there, else in the small
 * font there on up to TN_STATUS_LINES lines cut at blanks (the lines
 * before the last rise above the status line; the last ends in "..." when
 * text is left).  The speed and frame always stay in sight.
 * width(u, font, text) measures. */
#define TN_STATUS_LINES 3
typedef struct tn_status_fit {
    tn_font_id font;
    int x;     /* where the message starts */
    int lines; /* 1..TN_STATUS_LINES */
    char line[TN_STATUS_LINES][256];
} tn_status_fit;
tn_status_fit tn_ui_status_fit(const char *msg, int left_end, int right,
                               int (*width)(void *u, tn_font_id f, const char *s), void *u);
/* The HUD's first line (frames per second, pacing, step and draw times,
 * frame) for a strip maxw wide that also holds a marker of marker_w px
 * after it (the unsaved-edits one; 0: none): the full line when both fit,
 * else without the pacing and renderer, else frames per second and frame,
 * so a narrow window (900x500) keeps the frame and the marker in sight. */
void tn_ui_hud_top(const tn_view *v, long frame, int marker_w, int maxw,
                   int (*width)(void *u, const char *s), void *u, char *out, size_t cap);
void tn_ui_hud_draw(tn_gfx *g, const tn_world *w, const tn_view *v, const char *hover);
/* The help; `scroll` px moves it up in a frame too small for it (a small
 * window: Up/Down or the wheel scroll it). */
void tn_ui_help_draw(tn_gfx *g, int scroll);
/* The note the help shows in its frame's bottom-right corner when it does
 * not fit (it scrolls): "more below: wheel or Down" at the top, "more
 * above: wheel or Up" at the bottom, both between; NULL when it fits. */
const char *tn_ui_help_hint(int scroll);
/* How far the help scrolls in the current frame (0: it fits). */
int tn_ui_help_scroll_max(void);
/* The map picker: a list over the map view.  tn_ui_picker_hit gives the
 * item under (x, y), -1 for none. */
#define TN_PICKER_ROWS 20
void tn_ui_picker_draw(tn_gfx *g, const tn_view *v);
int tn_ui_picker_hit(const tn_view *v, int x, int y);
/* How many of a list of n maps the picker shows at a time in the current
 * frame: TN_PICKER_ROWS at 1280x720, fewer in a window whose map view is
 * too short for them (11 at 900x500), so the box stays inside the view. */
int tn_ui_picker_rows(int n);
/* Scroll the list (v->picker_top) so that the selected map is in the
 * shown rows: when the list opens, after a key or the wheel, and every
 * frame (a window made smaller shows fewer rows). */
void tn_ui_picker_scroll(tn_view *v);
/* The top (frame y) of the picker's row r (0..tn_ui_picker_rows()-1). */
int tn_ui_picker_row_y(const tn_view *v, int r);
/* The line the picker shows under its rows when the list has more maps
 * than it shows (tn_ui_picker_rows), as the help's hint: "10 more below: Down" at the
 * top, "10 more above: Up" at the bottom, "4 more above, 6 below: Up /
 * Down" between; NULL when the list fits. */
const char *tn_ui_picker_hint(const tn_view *v);
/* The pinned inspect card (v->inspect_kind, v->inspect_index). */
void tn_ui_inspect_draw(tn_gfx *g, const tn_world *w, const tn_view *v, const SDL_FRect *avoid,
                        int navoid);

/* "jump_height" -> "Jump height". */
void tn_ui_param_label(const char *name, char *out, size_t cap);

#endif
