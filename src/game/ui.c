/* ui.c - the widgets: the side panel, the HUD, the top bar, the status
 * line, the help overlay, the inspect card and the map picker, drawn with
 * the drawing layer in gfx.c (fonts, atlases, the geometry batch).  See
 * ui.h. */
#include "ui.h"

#include "control.h"
#include "tn_wbots.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- view */

void tn_view_init(tn_view *v, const tn_world *w, unsigned overlays)
{
    memset(v, 0, sizeof *v);
    v->overlays = overlays;
    v->zoom = -1;
    v->char_x = tn_world_character(w)->x;
    v->char_y = tn_world_character(w)->y;
    v->facing = 1;
    v->hot_slider = v->drag_slider = v->hot_tool = v->hot_overlay = -1;
    v->hot_bar = v->drag_bar = -1;
    v->speed = TN_SPEED_NORMAL;
    v->follow = true;
}

void tn_ui_param_label(const char *name, char *out, size_t cap)
{
    size_t i = 0;
    for (; name[i] && i + 1 < cap; i++) {
        char c = name[i] == '_' ? ' ' : name[i];
        if (i == 0 && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        out[i] = c;
    }
    if (cap) out[i < cap ? i : cap - 1] = '\0';
}

/* --------------------------------------------------------------- panel */

#define PANEL_X TN_VIEW_W
#define PAD 14
/* A frame under 700 px high (a small window, 1:1) packs the panel: no
 * subtitle, shorter tool and overlay rows, sliders with small labels. */
#define SHORT (TN_FRAME_H < 700)
#define TOOLS_Y (SHORT ? 52 : 80)
#define TOOL_H (SHORT ? 20 : 22)
#define TOOL_GAP (SHORT ? 2 : 4)
#define SLIDERS_TITLE_Y (SHORT ? 142 : 184)
#define SLIDERS_Y (SHORT ? 160 : 204)
/* rows below the tools follow the frame's height (382 px of sliders at 720) */
#define SLIDERS_SPACE (SHORT ? TN_FRAME_H - 110 - SLIDERS_Y : TN_FRAME_H - 359)
#define OVERLAYS_TITLE_Y (SHORT ? TN_FRAME_H - 108 : TN_FRAME_H - 147)
#define OVERLAYS_Y (SHORT ? TN_FRAME_H - 92 : TN_FRAME_H - 129)

int tn_ui_w = TN_GAME_LOGICAL_W, tn_ui_h = TN_GAME_LOGICAL_H;

void tn_ui_set_size(int w, int h)
{
    tn_ui_w = w;
    tn_ui_h = h;
}
#define OVERLAY_H (SHORT ? 15 : 21)

/* Index i is the bit 1u << i (TN_OVERLAY_*); the last one (the graph
 * planner's surface graph) spans both columns. */
#define NOVERLAYS TN_OVERLAY_COUNT

static SDL_Rect tool_rect(int i)
{
    int w = (TN_PANEL_W - 2 * PAD - TOOL_GAP) / 2;
    SDL_Rect r = {PANEL_X + PAD + (i % 2) * (w + TOOL_GAP), TOOLS_Y + (i / 2) * (TOOL_H + TOOL_GAP),
                  w, TOOL_H};
    return r;
}

static int slider_pitch(int n) { return n > 0 ? tn_mini(38, SLIDERS_SPACE / n) : 38; }

/* The label's column in a row too low for the track under its text: the
 * widest label in the 12 px font ("Companion speed", 108 px), and the
 * value's on the right ("10.0 tiles", "0.31 tiles": 56 px); the track
 * between, its ends 6 px from the label's column and 8 px from the value's
 * (a knob's 4 px and 4 more from the text). */
#define BESIDE_LABEL_W 110
#define BESIDE_VALUE_W 56

void tn_ui_slider_geom(int i, int n, tn_ui_slider_box *b)
{
    const int pitch = slider_pitch(n);
    SDL_Rect r = {PANEL_X + PAD, SLIDERS_Y + i * pitch, TN_PANEL_W - 2 * PAD, pitch - 2};
    memset(b, 0, sizeof *b);
    b->row = r;
    b->hit_x0 = r.x;
    b->hit_x1 = r.x + r.w;
    if (pitch >= 32) { /* 14 px text (17 px lines) over the track, a 7 px knob under them */
        b->font = TN_FONT_UI;
        b->label = (SDL_Rect){r.x, r.y, r.w, 17};
        b->x0 = r.x + 6;
        b->x1 = r.x + r.w - 6;
        b->y = r.y + tn_maxi(r.h - 10, 24); /* (in 32..35 px rows it covered the label) */
        b->knob_r = 7.0f;
        /* the track's band, under the label's line: a press on the label
         * (its descenders too) does nothing */
        b->hit_y0 = tn_maxi(b->y - 9, r.y + 17);
    } else if (pitch >= 25) {
        /* 12 px text (14 px lines) over the track, the 4 px knob between
         * them and the next row's */
        b->font = TN_FONT_SMALL;
        b->label = (SDL_Rect){r.x, r.y - 2, r.w, 14};
        b->x0 = r.x + 6;
        b->x1 = r.x + r.w - 6;
        b->y = r.y + (r.h + 16) / 2;
        b->knob_r = 4.0f;
        b->hit_y0 = b->y - 5;
    } else { /* one 12 px line: label, track, value (a 900x500 frame: 19 px rows) */
        const int ty = r.y + (r.h - 14) / 2;
        b->beside = true;
        b->font = TN_FONT_SMALL;
        b->label = (SDL_Rect){r.x, ty, BESIDE_LABEL_W, 14};
        b->value = (SDL_Rect){r.x + r.w - BESIDE_VALUE_W, ty, BESIDE_VALUE_W, 14};
        b->x0 = r.x + BESIDE_LABEL_W + 6;
        b->x1 = r.x + r.w - BESIDE_VALUE_W - 8;
        b->y = ty + 8; /* the middle of the small letters */
        b->knob_r = 4.0f;
        b->hit_x0 = b->x0 - 6; /* between the label and the value, not on them */
        b->hit_x1 = b->x1 + 6;
        b->hit_y0 = r.y;
    }
    if (!b->beside) b->value = b->label;
}

static tn_ui_slider_box slider_box(int i, int n)
{
    tn_ui_slider_box b;
    tn_ui_slider_geom(i, n, &b);
    return b;
}

static SDL_Rect overlay_rect(int i)
{
    int w = (TN_PANEL_W - 2 * PAD - TOOL_GAP) / 2;
    SDL_Rect r = {PANEL_X + PAD + (i % 2) * (w + TOOL_GAP), OVERLAYS_Y + (i / 2) * OVERLAY_H, w,
                  OVERLAY_H - 2};
    if (i == NOVERLAYS - 1 && i % 2 == 0) r.w = TN_PANEL_W - 2 * PAD; /* the odd last one */
    return r;
}

void tn_ui_overlay_center(int i, int *x, int *y)
{
    SDL_Rect r = overlay_rect(i);
    *x = r.x + r.w / 2;
    *y = r.y + r.h / 2;
}

static bool in_rect(const SDL_Rect *r, int x, int y)
{
    return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

/* Slider resolution: whole numbers, hundredths on [0,1]-like ranges, tenths
 * on ranges up to 20, whole units above. */
static double param_step(const tn_param_info *p)
{
    double span = p->max - p->min;
    if (p->integer) return 1;
    if (span <= 1.0001) return 0.01;
    if (span <= 20) return 0.1;
    return 1;
}

void tn_ui_param_value(const tn_param_info *p, double v, char *out, size_t cap)
{
    if (strcmp(p->name, "planner") == 0) { /* a named toggle, not a number */
        snprintf(out, cap, "%s", v > 0.5 ? "graph" : "classic");
        return;
    }
    double st = param_step(p);
    int dec = st >= 1 ? 0 : st >= 0.1 ? 1 : 2;
    const char *unit = p->unit ? p->unit : "";
    int ulen = (int)strlen(unit);
    /* "1 tile", "2 tiles", "1.0 tiles" (a decimal is plural: it read
     * "1.00 tile" at the agent radius's right end) */
    if (v == 1 && dec == 0 && ulen > 1 && unit[ulen - 1] == 's' && unit[ulen - 2] != '/') ulen--;
    snprintf(out, cap, "%.*f%s%.*s", dec, v, ulen ? " " : "", ulen, unit);
}

/* Slider i set to v (snapped to its step, kept in its range). */
static void slider_set(tn_world *w, int i, double v)
{
    int n;
    const tn_param_info *p = &tn_world_params(&n)[i];
    double st = param_step(p);
    v = p->min + floor((v - p->min) / st + 0.5) * st;
    if (v > p->max) v = p->max;
    if (v < p->min) v = p->min;
    if (p->integer) v = floor(v + 0.5);
    double cur;
    const bool known = tn_world_get(w, p->name, &cur);
    if (known && fabs(cur - v) < st * 0.5) return;
    tn_error err;
    if (strcmp(p->name, "planner") == 0) {
        tn_control_set_planner(w, v); /* says which planner plans now, as G does */
        return;
    }
    tn_status s = tn_world_set(w, p->name, v, &err); /* a refusal becomes the world's message */
    if (!known || !p->integer || !tn_failed(s) || !tn_status_detail(s, TN_REFUSED)) return;
    /* A fast drag jumps over the values between: Char height dragged from 2
     * to the end in one motion went 2 -> 7 -> 9 (refused) and stayed at 7
     * where 8 had room.  Refused, it goes there one step at a time, as a
     * slow drag does, up to the first value refused (whose message then
     * says the size it stays at). */
    const double dir = v > cur ? 1 : -1;
    for (double u = cur + dir; dir > 0 ? u <= v : u >= v; u += dir)
        if (tn_failed(tn_world_set(w, p->name, u, &err))) break;
}

/* Slider i set to where x lies on its track. */
static void slider_apply(tn_world *w, int i, int x)
{
    int n;
    const tn_param_info *p = &tn_world_params(&n)[i];
    const tn_ui_slider_box b = slider_box(i, n);
    double t = (double)(x - b.x0) / (double)(b.x1 - b.x0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    slider_set(w, i, p->min + t * (p->max - p->min));
}

bool tn_ui_panel_mouse(tn_view *v, tn_world *w, const SDL_Event *ev, int x, int y)
{
    int n;
    const tn_param_info *params = tn_world_params(&n);
    bool inside = x >= PANEL_X;
    if (ev->type == SDL_MOUSEMOTION) {
        v->hot_slider = v->hot_tool = v->hot_overlay = -1;
        if (v->drag_slider >= 0 && !(ev->motion.state & SDL_BUTTON_LMASK)) {
            /* the release was not seen (let go outside the window) */
            v->drag_slider = -1;
            tn_world_hold_graph_builds(w, false);
        }
        if (v->drag_slider >= 0) {
            slider_apply(w, v->drag_slider, x);
            v->hot_slider = v->drag_slider;
            return true;
        }
        if (!inside) return false;
        for (int i = 0; i < TN_TOOL_COUNT; i++) {
            SDL_Rect r = tool_rect(i);
            if (in_rect(&r, x, y)) v->hot_tool = i;
        }
        for (int i = 0; i < n; i++) {
            const tn_ui_slider_box b = slider_box(i, n);
            double dummy;
            if (in_rect(&b.row, x, y) && tn_world_get(w, params[i].name, &dummy)) v->hot_slider = i;
        }
        for (int i = 0; i < NOVERLAYS; i++) {
            SDL_Rect r = overlay_rect(i);
            if (in_rect(&r, x, y)) v->hot_overlay = i;
        }
        return true;
    }
    if (ev->type == SDL_MOUSEBUTTONUP) {
        if (v->drag_slider >= 0 && ev->button.button == SDL_BUTTON_LEFT) {
            v->drag_slider = -1;
            tn_world_hold_graph_builds(w, false); /* the value it stopped at is built */
            return true;
        }
        return inside;
    }
    if (ev->type == SDL_MOUSEBUTTONDOWN) {
        if (!inside) return false;
        if (ev->button.button != SDL_BUTTON_LEFT) return true;
        for (int i = 0; i < TN_TOOL_COUNT; i++) {
            SDL_Rect r = tool_rect(i);
            if (in_rect(&r, x, y)) tn_world_set_tool(w, (tn_tool)i);
        }
        for (int i = 0; i < n; i++) {
            const tn_ui_slider_box b = slider_box(i, n);
            double dummy;
            /* the track's band only: a click on the label line above it set
             * the value to where the label was clicked (a review's finding);
             * beside the label, the part of the row between it and the value */
            if (in_rect(&b.row, x, y) && y >= b.hit_y0 && x >= b.hit_x0 && x < b.hit_x1 &&
                tn_world_get(w, params[i].name, &dummy)) {
                v->drag_slider = i;
                /* one graph build for the value the drag stops at, not one
                 * a frame (on maps where a build is slow) */
                tn_world_hold_graph_builds(w, true);
                slider_apply(w, i, x);
            }
        }
        for (int i = 0; i < NOVERLAYS; i++) {
            SDL_Rect r = overlay_rect(i);
            if (in_rect(&r, x, y)) tn_view_toggle_overlay(v, w, i);
        }
        return true;
    }
    if (ev->type == SDL_MOUSEWHEEL) {
        /* over a slider's row: one step of its value a notch (a 52 px
         * track at 900x500 moves the companion's speed 8 px/s a pixel) */
        int dy = ev->wheel.y;
        if (ev->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) dy = -dy;
        for (int i = 0; inside && dy && v->drag_slider < 0 && i < n; i++) {
            const tn_ui_slider_box b = slider_box(i, n);
            double cur;
            if (!in_rect(&b.row, x, y) || !tn_world_get(w, params[i].name, &cur)) continue;
            slider_set(w, i, cur + dy * param_step(&params[i]));
        }
        return inside;
    }
    return false;
}

void tn_view_toggle_overlay(tn_view *v, tn_world *w, int i)
{
    const tn_overlay_info *o = &tn_overlays[i];
    v->overlays ^= o->bit;
    const bool on = v->overlays & o->bit;
    /* (the HUD's navmesh line says why there is none) */
    const bool none = on && o->bit == TN_OVERLAY_NAVMESH && tn_world_navmesh_layer_key(w) == 0;
    tn_world_message(w, "overlay %s: %s%s", o->label, on ? "on" : "off",
                     none ? " (this map has no navmesh: see the HUD's navmesh line)" : "");
}

static void section_title(tn_gfx *g, int y, const char *title, const char *hint)
{
    int tw = tn_gfx_text(g, TN_FONT_SMALL, PANEL_X + PAD, (float)y, title, TN_COL_ACCENT);
    if (hint)
        tn_gfx_text(g, TN_FONT_SMALL, (float)(PANEL_X + PAD + tw + 8), (float)y, hint,
                    TN_COL_TEXT_DIM);
}

static void bar_progress(tn_gfx *g, const tn_bar_labels *lb);

/* The classic planner is chosen but the graph plans (a map over 512x512:
 * no classic path finder). */
static bool classic_off(const tn_world *w)
{
    double val;
    return w && tn_world_get(w, "planner", &val) && val <= 0.5 &&
           strcmp(tn_wbots_planner_in_effect(w), "graph") == 0;
}

void tn_ui_panel_draw(tn_gfx *g, const tn_world *w, const tn_view *v)
{
    tn_gfx_rect(g, PANEL_X, 0, TN_PANEL_W, TN_FRAME_H, TN_COL_PANEL);
    tn_gfx_rect(g, PANEL_X, 0, 1, TN_FRAME_H, TN_COL_PANEL_EDGE);

    tn_gfx_text(g, TN_FONT_TITLE, PANEL_X + PAD, 12, "tilenav", TN_COL_TEXT);
    if (TN_UI_COMPACT) { /* the replay's progress when the bar had no room for it */
        tn_bar_labels lb;
        tn_ui_bar_labels(g, v, &lb);
        if (lb.in_panel) bar_progress(g, &lb);
    }
    if (!SHORT)
        tn_gfx_text(g, TN_FONT_SMALL, PANEL_X + PAD, 38, "2D game-AI navigation sandbox",
                    TN_COL_TEXT_DIM);

    /* tools */
    section_title(g, TOOLS_Y - 18, "TOOLS", "keys 1-8, left-click uses it");
    for (int i = 0; i < TN_TOOL_COUNT; i++) {
        SDL_Rect r = tool_rect(i);
        bool cur = (int)tn_world_tool(w) == i, hot = v->hot_tool == i;
        uint32_t bg = cur ? 0x2a5f78ffu : hot ? 0x252c3cffu : 0x1c2130ffu;
        tn_gfx_rect(g, (float)r.x, (float)r.y, (float)r.w, (float)r.h, bg);
        if (cur) tn_gfx_frame(g, (float)r.x, (float)r.y, (float)r.w, (float)r.h, 1, TN_COL_ACCENT);
        char key[2] = {(char)('1' + i), '\0'};
        tn_gfx_text(g, TN_FONT_MONO, (float)(r.x + 7), (float)(r.y + 3), key,
                    cur ? TN_COL_TEXT : TN_COL_TEXT_DIM);
        tn_gfx_text(g, TN_FONT_UI, (float)(r.x + 24), (float)(r.y + 2), tn_tool_name((tn_tool)i),
                    cur ? 0xffffffffu : TN_COL_TEXT);
    }

    /* sliders */
    int n;
    const tn_param_info *params = tn_world_params(&n);
    section_title(g, SLIDERS_TITLE_Y, "PARAMETERS", "drag, or wheel");
    for (int i = 0; i < n; i++) {
        const tn_param_info *p = &params[i];
        const tn_ui_slider_box b = slider_box(i, n);
        double val = 0;
        bool on = tn_world_get(w, p->name, &val);
        bool hot = v->hot_slider == i || v->drag_slider == i;
        char label[64], value[48];
        tn_ui_param_label(p->name, label, sizeof label);
        if (on) tn_ui_param_value(p, val, value, sizeof value);
        if (on && strcmp(p->name, "planner") == 0 && classic_off(w))
            snprintf(value, sizeof value, "%s", b.beside ? "(graph)" : "classic (off here: graph)");
        else if (!on)
            snprintf(value, sizeof value, "not available");
        uint32_t tc = on ? (hot ? 0xffffffffu : TN_COL_TEXT) : TN_COL_TEXT_OFF;
        const bool big = b.font == TN_FONT_UI; /* 14 px text over the track */
        tn_gfx_text(g, b.font, (float)b.label.x, (float)b.label.y, label, tc);
        tn_font_id vf = on && big ? TN_FONT_MONO : TN_FONT_SMALL;
        int vw = tn_gfx_text_width(g, vf, value);
        tn_gfx_text(g, vf, (float)(b.value.x + b.value.w - vw),
                    (float)(b.value.y + (!big ? 0
                                         : on ? 1
                                              : 3)),
                    value, on ? TN_COL_ACCENT : TN_COL_TEXT_OFF);
        if (!on && b.beside) continue; /* "not available" reaches over the track */
        const int x0 = b.x0, x1 = b.x1, ty = b.y;
        tn_gfx_rect(g, (float)x0, (float)ty - 2, (float)(x1 - x0), 4,
                    on ? 0x2c3446ffu : 0x1f2430ffu);
        if (!on) continue;
        if (strcmp(p->name, "planner") == 0) { /* two halves: classic | graph */
            float xm = (float)(x0 + x1) / 2;
            bool graph = val > 0.5;
            tn_gfx_rect(g, graph ? xm + 1 : (float)x0, (float)ty - (big ? 3 : 2),
                        xm - (float)x0 - 1, big ? 6 : 4, hot ? 0x5fb6dcffu : 0x3b8fb3ffu);
            continue;
        }
        double t = (val - p->min) / (p->max - p->min);
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        float hx = (float)x0 + (float)t * (float)(x1 - x0);
        tn_gfx_rect(g, (float)x0, (float)ty - 2, hx - (float)x0, 4, 0x3b8fb3ffu);
        float kr = hot ? b.knob_r : b.knob_r - (big ? 1.0f : 0.5f);
        tn_gfx_circle(g, hx, (float)ty, kr, hot ? 0xffffffffu : 0xcfd8e8ffu);
        tn_gfx_ring(g, hx, (float)ty, kr, 1.5f, 0x3b8fb3ffu);
    }

    /* overlays */
    section_title(g, OVERLAYS_TITLE_Y, "OVERLAYS", "toggle with the key");
    for (int i = 0; i < NOVERLAYS; i++) {
        SDL_Rect r = overlay_rect(i);
        bool on = (v->overlays >> i) & 1u, hot = v->hot_overlay == i;
        if (hot) tn_gfx_rect(g, (float)r.x, (float)r.y, (float)r.w, (float)r.h, 0x222838ffu);
        float bx = (float)r.x + 3, by = (float)r.y + (SHORT ? 1 : 4);
        tn_gfx_frame(g, bx, by, 11, 11, 1, on ? TN_COL_ACCENT : TN_COL_TEXT_DIM);
        if (on) tn_gfx_rect(g, bx + 3, by + 3, 5, 5, TN_COL_ACCENT);
        char label[64];
        const tn_overlay_info *o = &tn_overlays[i];
        snprintf(label, sizeof label, "%s%c %s", o->shift ? "Shift+" : "", o->key - 'a' + 'A',
                 o->label);
        tn_gfx_text(g, SHORT ? TN_FONT_SMALL : TN_FONT_UI, (float)r.x + 20,
                    (float)r.y + (SHORT ? 0 : 1), label, on ? TN_COL_TEXT : TN_COL_TEXT_DIM);
    }

    /* footer: the hovered slider's help, or the main keys; a help wider
     * than the panel takes two lines, the rule moves up for them */
    char foot[2][TN_UI_FOOT_MAX];
    int nf = tn_ui_panel_footer(g, w, v, foot);
    int lh = tn_gfx_line_height(g, TN_FONT_SMALL);
    /* two lines: the first a line higher (a short frame: lower, close to
     * the edge, under its last overlay row, which ends 32 px above it) */
    float fy = (float)(nf == 1 ? TN_FRAME_H - 22
                       : SHORT ? TN_FRAME_H - 2 - 2 * lh
                               : TN_FRAME_H - 22 - lh);
    if (nf == 1 || !SHORT) /* a short frame's overlays reach down to the rule */
        tn_gfx_rect(g, PANEL_X + PAD, fy - 8, TN_PANEL_W - 2 * PAD, 1, TN_COL_PANEL_EDGE);
    for (int i = 0; i < nf; i++)
        tn_gfx_text(g, TN_FONT_SMALL, PANEL_X + PAD, fy + (float)(i * lh), foot[i],
                    TN_COL_TEXT_DIM);
}

int tn_ui_panel_footer(const tn_gfx *g, const tn_world *w, const tn_view *v,
                       char out[2][TN_UI_FOOT_MAX])
{
    int n;
    const tn_param_info *params = tn_world_params(&n);
    char text[TN_UI_FOOT_MAX];
    snprintf(text, sizeof text, "F1 help  Ctrl+S save  F12 shot  Esc quit");
    int hs = v->drag_slider >= 0 ? v->drag_slider : v->hot_slider;
    if (hs >= 0 && hs < n && strcmp(params[hs].name, "planner") == 0 && classic_off(w))
        /* (the value says "(graph)" at 900x500, and nothing said why) */
        snprintf(text, sizeof text, "classic is off above 512x512 tiles: the graph plans (%g..%g)",
                 params[hs].min, params[hs].max);
    else if (hs >= 0 && hs < n)
        snprintf(text, sizeof text, "%s (%g..%g)", params[hs].help, params[hs].min, params[hs].max);
    const int maxw = TN_PANEL_W - 2 * PAD;
    snprintf(out[0], TN_UI_FOOT_MAX, "%s", text);
    out[1][0] = '\0';
    if (tn_gfx_text_width(g, TN_FONT_SMALL, text) <= maxw) return 1;
    /* the longest first line that fits, cut at a blank; the keys' line
     * ("F1 help  Ctrl+S save ...") only between its pairs (two blanks) */
    size_t cut = 0, gap = strstr(text, "  ") ? 2 : 1;
    for (size_t i = 1; text[i]; i++) {
        if (text[i] != ' ' || (gap == 2 && text[i + 1] != ' ')) continue;
        snprintf(out[0], TN_UI_FOOT_MAX, "%.*s", (int)i, text);
        if (tn_gfx_text_width(g, TN_FONT_SMALL, out[0]) > maxw) break;
        cut = i;
    }
    if (cut == 0) { /* one word wider than the panel: kept whole */
        snprintf(out[0], TN_UI_FOOT_MAX, "%s", text);
        return 1;
    }
    snprintf(out[0], TN_UI_FOOT_MAX, "%.*s", (int)cut, text);
    snprintf(out[1], TN_UI_FOOT_MAX, "%s", text + cut + gap);
    return 2;
}

/* ----------------------------------------------------------------- HUD */

static const char *const TOOL_HINT[TN_TOOL_COUNT] = {
    "left-click a tile: the character finds its way there",
    "left-click toggles a block",
    "left-click toggles a one-way platform",
    "left-click toggles an enemy spawn point",
    "left-click toggles a destination",
    "left-click toggles an item",
    "left-click: navmesh path from the character",
    "left-click places the wanderers' target",
};

#define HUD_MAX_LINES 16
#define HUD_LINE 192

/* Append n bytes of src to dst (cut to cap). */
static void put(char *dst, size_t cap, size_t *len, const char *src, size_t n)
{
    if (*len + n >= cap) n = cap - 1 - *len;
    memcpy(dst + *len, src, n);
    *len += n;
    dst[*len] = '\0';
}

int tn_ui_wrap(const char *line, int maxw, int (*width)(void *u, const char *s), void *u,
               char out[][HUD_LINE], int max_out)
{
    int n = 0;
    char cur[HUD_LINE] = "";
    const char *p = line;
    while (*p && n < max_out) {
        const char *sep = strstr(p, " | ");
        size_t len = sep ? (size_t)(sep - p) : strlen(p);
        char next[HUD_LINE];
        size_t nlen = 0;
        next[0] = '\0';
        if (!cur[0]) { /* a line's first piece; continuation lines are indented */
            if (n) put(next, sizeof next, &nlen, "  ", 2);
        } else {
            put(next, sizeof next, &nlen, cur, strlen(cur));
            put(next, sizeof next, &nlen, " | ", 3);
        }
        put(next, sizeof next, &nlen, p, len);
        if (cur[0] && width(u, next) > maxw) { /* the piece starts the next line */
            snprintf(out[n++], HUD_LINE, "%s", cur);
            cur[0] = '\0';
            continue;
        }
        memcpy(cur, next, nlen + 1);
        p += len + (sep ? 3 : 0);
    }
    if (cur[0] && n < max_out) snprintf(out[n++], HUD_LINE, "%s", cur);
    return n;
}

typedef struct hud_font {
    tn_gfx *g;
    int font;
} hud_font;

static int hud_width(void *u, const char *s)
{
    const hud_font *f = u;
    return tn_gfx_text_width(f->g, f->font, s);
}

#define TN_UI_SLOW_FRAME_MS 50.0

void tn_ui_hud_top(const tn_view *v, long frame, int marker_w, int maxw,
                   int (*width)(void *u, const char *s), void *u, char *out, size_t cap)
{
    if (!v->live) {
        snprintf(out, cap, "offscreen render   frame %ld", frame);
        return;
    }
    /* the longest frame's work when a frame was slow (a graph build in a
     * step, a slider's work): the averages hide a single one */
    char slow[40] = "";
    if (v->worst_ms > TN_UI_SLOW_FRAME_MS)
        snprintf(slow, sizeof slow, "   slowest %.0f ms", v->worst_ms);
    snprintf(out, cap,
             "%3.0f fps (%s)   step %.3f ms   draw %.1f ms (%s)   other %.1f ms%s   frame %ld",
             v->fps, v->pacing, v->step_ms, v->frame_ms, v->renderer ? v->renderer : "?",
             v->other_ms, slow, frame);
    if (width(u, out) + marker_w <= maxw) return;
    snprintf(out, cap, "%3.0f fps   step %.3f ms   draw %.1f ms   other %.1f ms%s   frame %ld",
             v->fps, v->step_ms, v->frame_ms, v->other_ms, slow, frame);
    if (width(u, out) + marker_w <= maxw) return;
    snprintf(out, cap, "%3.0f fps   step %.3f ms   draw %.1f ms   frame %ld", v->fps, v->step_ms,
             v->frame_ms, frame);
    if (width(u, out) + marker_w <= maxw) return;
    snprintf(out, cap, "%3.0f fps   frame %ld", v->fps, frame);
}

void tn_ui_hud_draw(tn_gfx *g, const tn_world *w, const tn_view *v, const char *hover)
{
    if (v->hud_hidden) return;
    (void)hover; /* drawn next to the mouse (render.c) */
    char top[HUD_LINE];
    char hud[1024];
    tn_world_hud(w, hud, sizeof hud);
    /* lines too wide for the strip wrap at their " | " separators; when
     * that needs more lines than the strip holds, the smaller font */
    const char *unsaved = "  \xe2\x97\x8f unsaved (Ctrl+S)";
    char lines[HUD_MAX_LINES][HUD_LINE];
    int nl = 0, lh = 0, pad = 5;
    hud_font f = {g, TN_FONT_MONO};
    for (int pass = 0; pass < 2; pass++) {
        /* the smaller font also packs its lines closer: six fit */
        f.font = pass ? TN_FONT_SMALL : TN_FONT_MONO;
        lh = tn_gfx_line_height(g, f.font) - (pass ? 2 : 0);
        pad = pass ? 3 : 5;
        const int maxw = TN_VIEW_W - 20;
        tn_ui_hud_top(v, tn_world_frame(w), tn_world_dirty(w) ? hud_width(&f, unsaved) : 0, maxw,
                      hud_width, &f, top, sizeof top);
        snprintf(lines[0], HUD_LINE, "%s", top);
        nl = 1;
        for (char *s = hud; *s && nl < HUD_MAX_LINES;) {
            char *e = strchr(s, '\n');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            char one[HUD_LINE * 2];
            snprintf(one, sizeof one, "%.*s", (int)len, s);
            if (len > 0) nl += tn_ui_wrap(one, maxw, hud_width, &f, lines + nl, HUD_MAX_LINES - nl);
            s += len + (e ? 1 : 0);
        }
        if (nl * lh + pad <= TN_HUD_H) break;
    }
    /* a strip of its own between the top bar and the map view */
    float x = 0, y = TN_BAR_H - 1;
    tn_gfx_rect(g, 0, TN_BAR_H, TN_VIEW_W, TN_HUD_H, TN_COL_PANEL);
    tn_gfx_rect(g, 0, TN_BAR_H + TN_HUD_H - 1, TN_VIEW_W, 1, TN_COL_PANEL_EDGE);
    SDL_Rect hclip = {0, TN_BAR_H, TN_VIEW_W - 4, TN_HUD_H};
    tn_gfx_clip(g, &hclip);
    for (int i = 0; i < nl; i++) {
        int tw = tn_gfx_text(g, f.font, x + 8, y + (float)(pad + i * lh), lines[i], TN_COL_TEXT);
        if (i == 0 && tn_world_dirty(w))
            tn_gfx_text(g, f.font, x + 8 + (float)tw, y + (float)pad, unsaved, TN_COL_WARN);
    }
    tn_gfx_clip(g, NULL);
}

/* ---------------------------------------------------------------- help */

static const char *const HELP_KEYS[][2] = {
    {"A D  \xe2\x86\x90 \xe2\x86\x92", "walk"},
    {"W  \xe2\x86\x91  Space", "jump (hold: higher)"},
    {"S  \xe2\x86\x93", "drop through a one-way platform"},
    {"1 - 8", "tool: goto block oneway spawn dest item navpath tgt"},
    {"P  X  F", "overlays: path, explored states, flow field"},
    {"N  C  V", "overlays: navmesh, companion, wanderers"},
    {"Shift+P", "overlay: graph planner's surfaces and edges"},
    {"G", "bot planner: graph / classic"},
    {"T", "pause / run the simulation"},
    {".", "one fixed step (pauses first)"},
    {"[  ]", "simulation speed 1/8x .. 4x"},
    {"Ctrl+R", "reset: reload the map, clear agents and counters"},
    {"E", "replay the last search (current plan or navmesh path)"},
    {"Shift+E", "hold / resume the replay"},
    {"Q", "replay: next expansion, said with g + h = f"},
    {"-  =", "replay speed 10 .. 10,000 events/s"},
    {"Shift+G", "classic A* heuristic: optimal / fast"},
    {"Y", "flow overlay: 4- / 8-connected (8: display only)"},
    {"I J K L", "pan the camera (the arrows walk)"},
    {"O", "fit the whole map"},
    {"U", "follow the character on / off"},
    {"H", "collapse / show the HUD"},
    {"Tab", "map picker"},
    {"B  M  (+Shift)", "add a bot, a wanderer (Shift: remove one)"},
    {"Z", "knock-back: push the character 1.3 px from the mouse"},
    {"Ctrl+Z  Ctrl+Y", "undo / redo an edit (a drag: all of it)"},
    {"Ctrl+S", "save the map"},
    {"R", "restore MAP.autosave (when offered)"},
#ifdef __EMSCRIPTEN__
    {"F12", "screenshot (a download)"},
#else
    {"F12", "screenshot (tilenav-NNN.bmp)"},
#endif
    {"F1", "this help"},
    {"Esc", "quit (unsaved edits go to MAP.autosave)"},
};

static const char *const HELP_MOUSE[][2] = {
    {"left click", "the current tool"},
    {"right click / drag", "toggle / paint blocks"},
    {"middle, Shift+right", "toggle / paint one-way platforms"},
    {"wheel", "zoom toward the cursor; on a slider, a step"},
    {"Ctrl+left drag", "pan"},
    {"Ctrl+left click", "pin an agent's inspect card"},
    {"top bar", "time and replay controls"},
    {"side panel", "tools, sliders, overlays"},
};

/* Legend glyphs: what the world draws, with the same colours. */
enum {
    LG_EMPTY,
    LG_BLOCK,
    LG_ONEWAY,
    LG_SPAWN,
    LG_DEST,
    LG_ITEM,
    LG_CHAR,
    LG_START,
    LG_BOT,
    LG_PATH,
    LG_JUMP,
    LG_APEX,
    LG_OWMARK,
    LG_GOAL,
    LG_FARGOAL,
    LG_SURFACE,
    LG_ARC_JUMP,
    LG_ARC_WALKOFF,
    LG_ARC_DROP,
    LG_PLAN,
    LG_REPAIR,
    LG_EXPLORED,
    LG_OPEN,
    LG_CURRENT,
    LG_TANGENT_OPEN,
    LG_TANGENT_CLOSED,
    LG_ENEMY,
    LG_ENEMY_WAIT,
    LG_FLOW,
    LG_NOPATH,
    LG_NAVMESH,
    LG_CLEARANCE,
    LG_CORRIDOR,
    LG_NAVPATH,
    LG_COMPANION,
    LG_RADII,
    LG_SIGHT,
    LG_LOST,
    LG_SEEN,
    LG_ROUTE,
    LG_WANDERER,
    LG_SPLINE,
    LG_TARGET,
    LG_HOVER,
    LG_PINNED,
    LG_COUNT
};

static const char *const LEGEND_TEXT[LG_COUNT] = {
    "empty tile",
    "block",
    "one-way platform",
    "enemy spawn point (S)",
    "destination (D)",
    "item (*)",
    "the character (P)",
    "start tile (P in the map file)",
    "extra bot",
    "bot path (yellow: yours)",
    "take-off of a jump",
    "apex of a jump",
    "crosses a one-way platform",
    "path goal",
    "goal out of reach: path to closest spot",
    "graph (Shift+P): standing surface",
    "graph edge: jump",
    "graph edge: walk off a ledge, coyote jump",
    "graph edge: drop through a one-way",
    "graph: the chosen plan (yellow)",
    "graph: surfaces an edit searched again",
    "explored A* states, closed set of a replay",
    "replay: open set (tile or triangle edges)",
    "replay: current node",
    "replay, radius > 0: tangent point offered",
    "replay, radius > 0: tangent point expanded",
    "enemy (size = its scale)",
    "enemy waiting (no path)",
    "flow arrow: next tile",
    "flow: no path from here",
    "navmesh triangle (region colour)",
    "navmesh: agent radius around a corner",
    "navmesh corridor",
    "navmesh path",
    "companion (rim: state)",
    "follow radii / separation",
    "line of sight: sees you",
    "line of sight: lost you",
    "where it last saw you",
    "its route: searching (gold) / fetching",
    "wanderer",
    "waypoints and spline",
    "wanderers' target",
    "tile under the mouse",
    "agent of the pinned card (Ctrl+click)",
};

/* A graph edge's trajectory: up and over (rise -1), off a ledge (0) or
 * straight down through a platform (1). */
static void legend_arc(tn_gfx *g, float x, float y, float s, int rise, uint32_t c)
{
    if (rise > 0) { /* through the platform: straight down */
        tn_gfx_line(g, x + s / 2, y + 1, x + s / 2, y + s - 1, 2, c);
        return;
    }
    float px = x + 1, py = rise < 0 ? y + s - 2 : y + 3;
    for (int k = 1; k <= 6; k++) {
        float t = (float)k / 6.0f;
        float nx = x + 1 + t * (s - 2);
        float ny = rise < 0 ? y + s - 2 - 4.0f * t * (1.0f - t) * (s - 4) : y + 3 + t * t * (s - 5);
        tn_gfx_line(g, px, py, nx, ny, 2, c);
        px = nx;
        py = ny;
    }
}

const char *tn_ui_legend_entry(int i) { return i >= 0 && i < LG_COUNT ? LEGEND_TEXT[i] : NULL; }

static void legend_glyph(tn_gfx *g, float x, float y, int id)
{
    const float s = 16, cx = x + s / 2, cy = y + s / 2;
    switch (id) {
    case LG_EMPTY:
        tn_gfx_rect(g, x, y, s, s, TN_COL_EMPTY);
        tn_gfx_frame(g, x, y, s, s, 1, TN_COL_GRID);
        break;
    case LG_BLOCK:
        tn_gfx_rect(g, x, y, s, s, TN_COL_BLOCK);
        tn_gfx_rect(g, x, y, s, 3, TN_COL_BLOCK_TOP);
        break;
    case LG_ONEWAY:
        tn_gfx_rect(g, x, y, s, s, TN_COL_EMPTY);
        tn_gfx_rect(g, x, y, s, 4, TN_COL_ONEWAY);
        tn_gfx_rect(g, x, y + 4, s, 1, TN_COL_ONEWAY_EDGE);
        break;
    case LG_SPAWN:
        tn_gfx_rect(g, x + 3, y + 3, s - 6, s - 6, TN_COL_SPAWN_EDGE);
        tn_gfx_rect(g, x + 4, y + 4, s - 8, s - 8, TN_COL_SPAWN);
        break;
    case LG_DEST:
        tn_gfx_circle(g, cx, cy, 6, TN_COL_DEST);
        tn_gfx_ring(g, cx, cy, 6, 1.5f, TN_COL_DEST_EDGE);
        break;
    case LG_ITEM:
        tn_gfx_tri(g, cx, y + 2, x + s - 3, cy, cx, y + s - 2, TN_COL_ITEM);
        tn_gfx_tri(g, cx, y + 2, cx, y + s - 2, x + 3, cy, TN_COL_ITEM);
        break;
    case LG_CHAR:
        tn_gfx_rect(g, x + 4, y - 4, 8, 20, TN_COL_CHAR_EDGE);
        tn_gfx_rect(g, x + 5, y - 3, 6, 18, TN_COL_CHAR);
        break;
    case LG_START: /* as render.c frames the map's start tile */
        tn_gfx_rect(g, x, y, s, s, TN_COL_EMPTY);
        tn_gfx_frame(g, x + 1, y + 1, s - 2, s - 2, 1, TN_COL_START);
        break;
    case LG_BOT:
        tn_gfx_rect(g, x + 4, y - 4, 8, 20, 0x101018ffu);
        tn_gfx_rect(g, x + 5, y - 3, 6, 18, 0xff8c42ffu);
        break;
    case LG_PATH:
        tn_gfx_line(g, x, cy + 3, x + s, cy - 3, 2, 0xfff26bffu);
        tn_gfx_circle(g, cx, cy, 2.5f, 0xfff26bffu);
        break;
    case LG_SURFACE: /* tn_surf_debug_draw's colours */
        tn_gfx_line(g, x + 1, cy + 3, x + s - 1, cy + 3, 1.5f, 0x40e0ffffu);
        tn_gfx_line(g, x + 1, cy, x + 1, cy + 4, 1.5f, 0x40e0ffffu);
        tn_gfx_line(g, x + s - 1, cy, x + s - 1, cy + 4, 1.5f, 0x40e0ffffu);
        break;
    case LG_ARC_JUMP: legend_arc(g, x, y, s, -1, 0xffc04060u); break;
    case LG_ARC_WALKOFF: legend_arc(g, x, y, s, 0, 0xc0c0ff60u); break;
    case LG_ARC_DROP: legend_arc(g, x, y, s, 1, 0x60ff6060u); break;
    case LG_PLAN: legend_arc(g, x, y, s, -1, 0xffff40ffu); break;
    case LG_JUMP: tn_gfx_tri(g, cx - 5, cy + 4, cx + 5, cy + 4, cx, cy - 6, 0xfff26bffu); break;
    case LG_APEX: tn_gfx_ring(g, cx, cy, 5, 1.5f, 0xfff26bffu); break;
    case LG_OWMARK:
        tn_gfx_circle(g, cx, cy - 2, 2.5f, 0xfff26bffu);
        tn_gfx_line(g, cx - 6, cy + 5, cx + 6, cy + 5, 2, 0x58b8ffffu);
        break;
    case LG_GOAL:
        tn_gfx_line(g, cx - 6, cy - 6, cx + 6, cy + 6, 2, 0xfff26bffu);
        tn_gfx_line(g, cx + 6, cy - 6, cx - 6, cy + 6, 2, 0xfff26bffu);
        break;
    case LG_FARGOAL:
        tn_gfx_frame(g, x + 1, y + 1, s - 2, s - 2, 1.5f, 0xff4050ffu);
        tn_gfx_frame(g, x + 3, y + 3, s - 6, s - 6, 1, 0xff405090u);
        break;
    case LG_EXPLORED: tn_gfx_rect(g, x, y, s, s, 0xff9a3cb0u); break;
    case LG_OPEN: tn_gfx_frame(g, x + 1, y + 1, s - 2, s - 2, 2, 0x58d0ffffu); break;
    case LG_CURRENT:
        tn_gfx_rect(g, x + 2, y + 2, s - 4, s - 4, 0xff9a3cb0u);
        tn_gfx_frame(g, x, y, s, s, 2, 0xffffffffu);
        break;
    case LG_ENEMY:
    case LG_ENEMY_WAIT:
        tn_gfx_tri(g, x + s, cy, x, y, x, y + s, 0x1a0a08ffu);
        tn_gfx_tri(g, x + s - 3, cy, x + 2, y + 3, x + 2, y + s - 3,
                   id == LG_ENEMY ? 0xe8553affu : 0x9a9a9affu);
        break;
    case LG_FLOW:
        tn_gfx_line(g, x + 2, cy, cx + 1, cy, 1.5f, 0xffffff90u);
        tn_gfx_tri(g, x + s - 2, cy, cx, cy - 4, cx, cy + 4, 0xffffffb0u);
        break;
    case LG_NOPATH: tn_gfx_rect(g, x, y, s, s, 0xd0303050u); break;
    case LG_NAVMESH:
        tn_gfx_tri(g, x, y + s, x + s, y + s, cx, y, 0x4a7ab080u);
        tn_gfx_line(g, x, y + s, cx, y, 1, 0xffffff50u);
        break;
    case LG_CLEARANCE: tn_gfx_ring(g, cx, cy, 5, 1.5f, 0x40c0ffa0u); break;
    case LG_TANGENT_OPEN: tn_gfx_frame(g, cx - 4, cy - 4, 8, 8, 2, 0x58d0ffffu); break;
    case LG_TANGENT_CLOSED:
        tn_gfx_rect(g, cx - 4, cy - 4, 8, 8, 0x101418ffu);
        tn_gfx_rect(g, cx - 3, cy - 3, 6, 6, 0xff9a3cffu);
        break;
    case LG_CORRIDOR: tn_gfx_tri(g, x, y + s, x + s, y + s, cx, y, 0xffe04050u); break;
    case LG_NAVPATH: tn_gfx_line(g, x, y + s - 2, x + s, y + 2, 2, 0xfff040ffu); break;
    case LG_COMPANION:
        tn_gfx_circle(g, cx, cy, 6.5f, 0xf4fbffffu);
        tn_gfx_circle(g, cx, cy, 5, 0x4fd8ffffu);
        break;
    case LG_RADII:
        tn_gfx_ring(g, cx, cy, 7, 1.5f, 0x4fd8ffb0u);
        tn_gfx_ring(g, cx, cy, 4, 1.5f, 0xe8553a90u);
        break;
    case LG_SIGHT: tn_gfx_line(g, x, cy, x + s, cy, 2, 0x60ff60c0u); break;
    case LG_LOST: tn_gfx_line(g, x, cy, x + s, cy, 2, 0xff4040c0u); break;
    case LG_SEEN:
        tn_gfx_line(g, cx - 4, cy - 4, cx + 4, cy + 4, 1.5f, 0xffd040ffu);
        tn_gfx_line(g, cx - 4, cy + 4, cx + 4, cy - 4, 1.5f, 0xffd040ffu);
        break;
    case LG_ROUTE: /* the companion's path corners, as tn_wagents.c draws them */
        tn_gfx_line(g, x, cy - 3, cx, cy - 3, 1.5f, 0xffd040ffu);
        tn_gfx_circle(g, cx, cy - 3, 2, 0xffd040ffu);
        tn_gfx_line(g, cx, cy + 3, x + s, cy + 3, 1.5f, 0xc090ffffu);
        tn_gfx_circle(g, x + s, cy + 3, 2, 0xc090ffffu);
        break;
    case LG_WANDERER:
        tn_gfx_circle(g, cx, cy, 5.5f, 0x1c3212ffu);
        tn_gfx_circle(g, cx, cy, 4.5f, 0x9be15dffu);
        break;
    case LG_SPLINE:
        tn_gfx_line(g, x, y + s - 3, cx, y + 4, 1.5f, 0x9be15dffu);
        tn_gfx_line(g, cx, y + 4, x + s, cy, 1.5f, 0x9be15dffu);
        tn_gfx_circle(g, cx, y + 4, 2.5f, 0xc8ff90c0u);
        break;
    case LG_TARGET:
        tn_gfx_ring(g, cx, cy, 5, 1.5f, 0x9be15dffu);
        tn_gfx_line(g, x, cy, x + s, cy, 1.5f, 0x9be15dffu);
        tn_gfx_line(g, cx, y, cx, y + s, 1.5f, 0x9be15dffu);
        break;
    case LG_HOVER:
        tn_gfx_rect(g, x, y, s, s, TN_COL_EMPTY);
        tn_gfx_frame(g, x, y, s, s, 2, 0xffffffa0u);
        break;
    case LG_REPAIR: /* tn_wbots.c's hl_draw */
        tn_gfx_rect(g, x, cy - 4, s, 8, 0xffa03c50u);
        tn_gfx_frame(g, x, cy - 4, s, 8, 1, 0xffa03cffu);
        break;
    case LG_PINNED: /* render.c's draw_pinned, round an agent */
        tn_gfx_rect(g, x + 6, y + 4, 4, 8, 0xff8c42c0u);
        tn_gfx_frame(g, x + 1, y, s - 2, s, 2, 0xffffffe0u);
        break;
    default: break;
    }
}

/* The help box's height in the current frame. */
static float help_box_h(void) { return TN_FRAME_W < 1250 ? 980 : 720; }

/* A frame too low for the box keeps this row at its bottom for the
 * "more below" hint: the help scrolls above it, so the hint never covers
 * a line (a playtest at 900x500: it hid two legend lines). */
#define HELP_HINT_ROW 42

/* The help's rows in the frame: all of it, or above the hint's row. */
static int help_view_h(void)
{
    return help_box_h() > (float)TN_FRAME_H ? TN_FRAME_H - HELP_HINT_ROW : TN_FRAME_H;
}

int tn_ui_help_scroll_max(void) { return tn_maxi(0, (int)help_box_h() - help_view_h()); }

const char *tn_ui_help_hint(int scroll)
{
    int over = tn_ui_help_scroll_max(); /* px that do not fit */
    if (over <= 0) return NULL;
    int at = tn_clampi(scroll, 0, over);
    if (at == 0) return "more below: wheel or Down";
    if (at >= over) return "more above: wheel or Up";
    return "more above and below: wheel or Up / Down";
}

void tn_ui_help_draw(tn_gfx *g, int scroll)
{
    tn_gfx_rect(g, 0, 0, (float)TN_FRAME_W, (float)TN_FRAME_H, 0x05070cd8u);
    /* a frame narrower than the box: the legend in one column, scrolled */
    const bool narrow = TN_FRAME_W < 1250;
    const float bw = narrow ? (float)TN_FRAME_W : 1250, bh = help_box_h();
    float bx = ((float)TN_FRAME_W - bw) / 2, by = ((float)TN_FRAME_H - bh) / 2;
    if (bx < 0) bx = 0; /* a small window: the left part, scrolled up and down */
    if (by < 0) by = -(float)tn_clampi(scroll, 0, tn_ui_help_scroll_max());
    /* the hint's row is not drawn over (it is drawn below, after) */
    const SDL_Rect view = {0, 0, TN_FRAME_W, help_view_h()};
    tn_gfx_clip(g, &view);
    tn_gfx_rect(g, bx, by, bw, bh, 0x151a26ffu);
    tn_gfx_frame(g, bx, by, bw, bh, 1, TN_COL_PANEL_EDGE);
    tn_gfx_rect(g, bx, by, bw, 3, TN_COL_ACCENT);
    tn_gfx_text(g, TN_FONT_TITLE, bx + 20, by + 12, "tilenav: keys, mouse and legend", TN_COL_TEXT);
    /* a narrow frame: the hint under the title, the mouse under the keys,
     * the legend in the right column (they ran past the frame's edge) */
    tn_gfx_text(
        g, TN_FONT_UI, narrow ? bx + 20 : bx + 380, by + (narrow ? 42 : 16),
        "F1, Esc or a click closes this help (the game waits).  Scripts, --headless: see README.",
        TN_COL_TEXT_DIM);
    const float top = by + (narrow ? 72 : 46);
    /* keys */
    float x = bx + 20, y = top;
    const int lh = 20;
    tn_gfx_text(g, TN_FONT_UI, x, y, "KEYS", TN_COL_ACCENT);
    y += 22;
    for (size_t i = 0; i < sizeof HELP_KEYS / sizeof HELP_KEYS[0]; i++) {
        tn_gfx_text(g, TN_FONT_MONO, x, y + 1, HELP_KEYS[i][0], TN_COL_ACCENT);
        tn_gfx_text(g, TN_FONT_UI, x + 128, y, HELP_KEYS[i][1], TN_COL_TEXT);
        y += (float)lh;
    }
    /* mouse */
    x = narrow ? bx + 20 : bx + 560;
    y = narrow ? y + 14 : top;
    tn_gfx_text(g, TN_FONT_UI, x, y, "MOUSE", TN_COL_ACCENT);
    y += 22;
    for (size_t i = 0; i < sizeof HELP_MOUSE / sizeof HELP_MOUSE[0]; i++) {
        tn_gfx_text(g, TN_FONT_MONO, x, y + 1, HELP_MOUSE[i][0], TN_COL_ACCENT);
        tn_gfx_text(g, TN_FONT_UI, x + 168, y, HELP_MOUSE[i][1], TN_COL_TEXT);
        y += (float)lh;
    }
    y += 2;
    tn_gfx_text(g, TN_FONT_UI, x, y, "Tiles are 16 px; x from the left, y from the top, from 0.",
                TN_COL_TEXT_DIM);
    y += (float)lh - 2;
    tn_gfx_text(
        g, TN_FONT_UI, x, y,
        "Bot colours: each extra bot has its own; its path thinner, its graph plan fainter.",
        TN_COL_TEXT_DIM);
    y += (float)lh - 2;
    tn_gfx_text(g, TN_FONT_UI, x, y,
                "Settings: $XDG_CONFIG_HOME/tilenav/settings (else ~/.config/tilenav/settings).",
                TN_COL_TEXT_DIM);
    /* legend: two columns of glyphs (one, right of the keys, when narrow) */
    float ly0 = narrow ? top + 22 : y + 40;
    tn_gfx_text(g, TN_FONT_UI, bx + 560, ly0 - 20, "LEGEND", TN_COL_ACCENT);
    int per = narrow ? LG_COUNT : (LG_COUNT + 1) / 2; /* rows 18 px apart: 23 fit the box */
    for (int i = 0; i < LG_COUNT; i++) {
        float gx = bx + 560 + (float)(i / per) * 340, gy = ly0 + (float)(i % per) * 18;
        legend_glyph(g, gx, gy, i);
        tn_gfx_text(g, TN_FONT_UI, gx + 26, gy, LEGEND_TEXT[i], TN_COL_TEXT);
    }
    tn_gfx_clip(g, NULL);
    /* a frame too low for the box: say that it scrolls, and which way, in
     * the row kept for it under the help */
    const char *hint = tn_ui_help_hint(scroll);
    if (hint) {
        const float row = (float)help_view_h();
        tn_gfx_rect(g, 0, row, (float)TN_FRAME_W, (float)TN_FRAME_H - row, 0x151a26ffu);
        tn_gfx_rect(g, 0, row, (float)TN_FRAME_W, 1, TN_COL_PANEL_EDGE);
        float hw = (float)tn_gfx_text_width(g, TN_FONT_UI, hint) + 20;
        float hh = (float)tn_gfx_line_height(g, TN_FONT_UI) + 10;
        float hx = (float)TN_FRAME_W - hw - 12;
        float hy = row + floorf(((float)TN_FRAME_H - row - hh) / 2);
        tn_gfx_rect(g, hx, hy, hw, hh, 0x2a5f78ffu);
        tn_gfx_frame(g, hx, hy, hw, hh, 1, TN_COL_ACCENT);
        tn_gfx_text(g, TN_FONT_UI, hx + 10, hy + 5, hint, TN_COL_TEXT);
    }
}

/* ------------------------------------------------------------- top bar */

/* Widgets of the top bar, left to right. */
enum {
    BAR_PAUSE,
    BAR_STEP,
    BAR_RESET,
    BAR_SPEED,
    BAR_REPLAY,
    BAR_PB_PAUSE,
    BAR_PB_STEP,
    BAR_PB_SPEED,
    BAR_HUD,
    BAR_COUNT
};

static SDL_Rect bar_rect(int i)
{
    static const int X[BAR_COUNT] = {6, 88, 156, 260, 444, 548, 642, 722, 956};
    static const int W[BAR_COUNT] = {78, 64, 98, 150, 100, 90, 76, 130, 58};
    /* a narrow frame: no key hints, shorter sliders, no progress text */
    static const int XC[BAR_COUNT] = {4, 62, 112, 168, 278, 340, 394, 444, 552};
    static const int WC[BAR_COUNT] = {56, 48, 54, 104, 60, 52, 48, 104, 44};
    bool c = TN_UI_COMPACT;
    SDL_Rect r = {c ? XC[i] : X[i], 4, c ? WC[i] : W[i], TN_BAR_H - 8};
    return r;
}

/* A slider in the bar: a track with `n` stops; the stop under x. */
static void bar_track(int i, int *x0, int *x1)
{
    SDL_Rect r = bar_rect(i);
    *x0 = r.x + 8;
    *x1 = r.x + r.w - 52;
}

static int bar_stop(int i, int n, int x)
{
    int x0, x1;
    bar_track(i, &x0, &x1);
    double t = (double)(x - x0) / (double)(x1 - x0);
    int s = (int)floor(t * (n - 1) + 0.5);
    return s < 0 ? 0 : s > n - 1 ? n - 1 : s;
}

bool tn_ui_bar_mouse(tn_view *v, const SDL_Event *ev, int x, int y, tn_ui_action *act, int *arg)
{
    *act = TN_ACT_NONE;
    bool inside = y < TN_BAR_H && x < TN_VIEW_W;
    if (ev->type == SDL_MOUSEMOTION) {
        v->hot_bar = -1;
        if (v->drag_bar == BAR_SPEED) {
            int to = bar_stop(BAR_SPEED, TN_SPEED_COUNT, x);
            if (to != v->speed) { /* said once a stop, not once a motion */
                *act = TN_ACT_SPEED;
                *arg = to;
            }
            return true;
        }
        if (v->drag_bar == BAR_PB_SPEED) {
            *act = TN_ACT_PB_SPEED;
            *arg = bar_stop(BAR_PB_SPEED, TN_PB_RATES, x);
            return true;
        }
        if (!inside) return false;
        for (int i = 0; i < BAR_COUNT; i++) {
            SDL_Rect r = bar_rect(i);
            if (in_rect(&r, x, y)) v->hot_bar = i;
        }
        return true;
    }
    if (ev->type == SDL_MOUSEBUTTONUP) {
        if (v->drag_bar >= 0) {
            v->drag_bar = -1;
            return true;
        }
        return inside;
    }
    if (ev->type == SDL_MOUSEBUTTONDOWN) {
        if (!inside) return false;
        if (ev->button.button != SDL_BUTTON_LEFT) return true;
        int hit = -1;
        for (int i = 0; i < BAR_COUNT; i++) {
            SDL_Rect r = bar_rect(i);
            if (in_rect(&r, x, y)) hit = i;
        }
        switch (hit) {
        case BAR_PAUSE: *act = TN_ACT_PAUSE; break;
        case BAR_STEP: *act = TN_ACT_STEP; break;
        case BAR_RESET: *act = TN_ACT_RESET; break;
        case BAR_REPLAY: *act = TN_ACT_REPLAY; break;
        case BAR_PB_PAUSE: *act = TN_ACT_PB_PAUSE; break;
        case BAR_PB_STEP: *act = TN_ACT_PB_STEP; break;
        case BAR_HUD: *act = TN_ACT_HUD; break;
        case BAR_SPEED:
            v->drag_bar = BAR_SPEED;
            *act = TN_ACT_SPEED;
            *arg = bar_stop(BAR_SPEED, TN_SPEED_COUNT, x);
            break;
        case BAR_PB_SPEED:
            v->drag_bar = BAR_PB_SPEED;
            *act = TN_ACT_PB_SPEED;
            *arg = bar_stop(BAR_PB_SPEED, TN_PB_RATES, x);
            break;
        default: break;
        }
        return true;
    }
    if (ev->type == SDL_MOUSEWHEEL) return inside;
    return false;
}

static void bar_button(tn_gfx *g, const tn_view *v, int i, const char *label, const char *key,
                       bool on, bool enabled)
{
    SDL_Rect r = bar_rect(i);
    bool hot = v->hot_bar == i && enabled;
    uint32_t bg = on ? 0x2a5f78ffu : hot ? 0x2c3446ffu : 0x1c2130ffu;
    tn_gfx_rect(g, (float)r.x, (float)r.y, (float)r.w, (float)r.h, bg);
    if (on) tn_gfx_frame(g, (float)r.x, (float)r.y, (float)r.w, (float)r.h, 1, TN_COL_ACCENT);
    uint32_t tc = enabled ? TN_COL_TEXT : TN_COL_TEXT_OFF;
    int tw = tn_gfx_text(g, TN_FONT_UI, (float)(r.x + (TN_UI_COMPACT ? 5 : 8)), (float)(r.y + 3),
                         label, tc);
    if (key && !TN_UI_COMPACT)
        tn_gfx_text(g, TN_FONT_SMALL, (float)(r.x + 8 + tw + 6), (float)(r.y + 6), key,
                    enabled ? TN_COL_TEXT_DIM : TN_COL_TEXT_OFF);
}

static void bar_slider(tn_gfx *g, const tn_view *v, int i, int n, int at, const char *value,
                       bool enabled)
{
    int x0, x1;
    bar_track(i, &x0, &x1);
    SDL_Rect r = bar_rect(i);
    float ty = (float)(r.y + r.h / 2);
    bool hot = (v->hot_bar == i || v->drag_bar == i) && enabled;
    tn_gfx_rect(g, (float)x0, ty - 2, (float)(x1 - x0), 4, 0x2c3446ffu);
    for (int k = 0; k < n; k++) {
        float sx = (float)x0 + (float)k * (float)(x1 - x0) / (float)(n - 1);
        tn_gfx_rect(g, sx - 1, ty - 5, 2, 10, 0x3a4358ffu);
    }
    float hx = (float)x0 + (float)at * (float)(x1 - x0) / (float)(n - 1);
    tn_gfx_rect(g, (float)x0, ty - 2, hx - (float)x0, 4, enabled ? 0x3b8fb3ffu : 0x2c3446ffu);
    tn_gfx_circle(g, hx, ty, hot ? 7.0f : 6.0f,
                  enabled ? (hot ? 0xffffffffu : 0xcfd8e8ffu) : TN_COL_TEXT_OFF);
    tn_gfx_text(g, TN_FONT_MONO, (float)(x1 + 10), ty - 8, value,
                enabled ? TN_COL_ACCENT : TN_COL_TEXT_OFF);
}

/* Where bar_slider writes its value: after the track, in the mono font. */
static SDL_Rect bar_value_box(const tn_gfx *g, int i, const char *value)
{
    int x0, x1;
    bar_track(i, &x0, &x1);
    SDL_Rect r = bar_rect(i);
    SDL_Rect b = {x1 + 10, r.y + r.h / 2 - 8, tn_gfx_text_width(g, TN_FONT_MONO, value),
                  tn_gfx_line_height(g, TN_FONT_MONO)};
    return b;
}

void tn_ui_bar_labels(const tn_gfx *g, const tn_view *v, tn_bar_labels *out)
{
    const tn_playback *pb = v->pb;
    bool have = pb && pb->trace.count > 0;
    /* the rate it plays at: a short search's is slowed (tn_playback_rate) */
    const int rate =
        have ? (int)lround(tn_playback_rate(pb)) : tn_playback_rates[pb ? pb->speed : 3];
    snprintf(out->rate, sizeof out->rate, "%d/s", rate);
    out->rate_box = bar_value_box(g, BAR_PB_SPEED, out->rate);
    out->hud_box = bar_rect(BAR_HUD);
    if (out->rate_box.x + out->rate_box.w > out->hud_box.x - 2 && rate >= 1000) {
        /* a compact bar: "10k/s" (10000/s ran under the HUD button) */
        snprintf(out->rate, sizeof out->rate, "%dk/s", rate / 1000);
        out->rate_box = bar_value_box(g, BAR_PB_SPEED, out->rate);
    }
    /* the hold button: what Shift+E does; a replay that X hides waits
     * for X, and the button (Shift+E) shows it again as it was */
    bool waits = have && pb->active && !tn_playback_visible(pb, v->overlays);
    snprintf(out->hold, sizeof out->hold, "%s",
             waits                              ? "X off"
             : have && pb->active && pb->paused ? "Play"
                                                : "Hold");
    snprintf(out->hold_key, sizeof out->hold_key, "%s",
             waits ? "X"
                   : "\xe2\x87\xa7"
                     "E");
    /* a search recorded but not replayed (X was off when it was made, or
     * the replay was dropped for a newer one): it waits for E; it never
     * played, so not "done" */
    /* a search larger than the buffer keeps its first events: the count
     * is the search's, so the replay is seen to stop short of its end */
    const long total = have ? (long)pb->trace.count + pb->trace.dropped : 0;
    if (have && pb->active)
        snprintf(out->prog, sizeof out->prog, "%d/%ld", (int)pb->shown, total);
    else
        snprintf(out->prog, sizeof out->prog, "%s",
                 have             ? "ready (E)"
                 : pb && pb->none ? pb->none
                                  : "no search");
    /* at 860 as before, or after the label when it is wider (10000/s); a
     * compact bar has no room there: after the HUD button, up to the
     * view's edge */
    int x = tn_maxi(860, out->rate_box.x + out->rate_box.w + 10), right = out->hud_box.x - 6;
    if (TN_UI_COMPACT) {
        x = out->hud_box.x + out->hud_box.w + 10;
        right = TN_VIEW_W - 6;
    }
    int w = tn_gfx_text_width(g, TN_FONT_SMALL, out->prog);
    out->prog2[0] = '\0';
    if (x + w > right && have && pb->active) { /* a huge search: its share */
        snprintf(out->prog, sizeof out->prog, "%d%%",
                 (int)((double)pb->shown * 100.0 / (double)total));
        w = tn_gfx_text_width(g, TN_FONT_SMALL, out->prog);
    }
    int lh = tn_gfx_line_height(g, TN_FONT_SMALL);
    out->in_panel = false;
    /* a frame with no room after the HUD button for "ready (E)" (900 px)
     * puts it, and every other state, in the panel (not moving between the
     * two as the text grows) */
    const bool narrow =
        TN_UI_COMPACT && right - x < tn_gfx_text_width(g, TN_FONT_SMALL, "ready (E)");
    if (narrow || (TN_UI_COMPACT && x + w > right)) {
        /* no room after the HUD button (a 900 px frame): the panel's title
         * row, right-aligned, after "tilenav"; the whole count there */
        if (have && pb->active)
            snprintf(out->prog, sizeof out->prog, "%d/%ld", (int)pb->shown, total);
        const int left = PANEL_X + PAD + tn_gfx_text_width(g, TN_FONT_TITLE, "tilenav") + 12;
        right = TN_FRAME_W - PAD;
        w = tn_gfx_text_width(g, TN_FONT_SMALL, out->prog);
        if (w > right - left && have && pb->active) {
            snprintf(out->prog, sizeof out->prog, "%d%%",
                     (int)((double)pb->shown * 100.0 / (double)total));
            w = tn_gfx_text_width(g, TN_FONT_SMALL, out->prog);
        }
        x = tn_maxi(left, right - w);
        out->in_panel = true;
    }
    const char *cut = !have && pb && pb->none && x + w > right ? strrchr(out->prog, ' ') : NULL;
    if (cut) { /* why nothing is replayed, too wide for one line: two */
        snprintf(out->prog2, sizeof out->prog2, "%s", cut + 1);
        out->prog[cut - out->prog] = '\0';
        w = tn_maxi(tn_gfx_text_width(g, TN_FONT_SMALL, out->prog),
                    tn_gfx_text_width(g, TN_FONT_SMALL, out->prog2));
        if (out->in_panel) x = tn_maxi(x, right - w);
        out->prog_box = (SDL_Rect){x, TN_BAR_H / 2 - lh, w, 2 * lh};
    } else {
        out->prog_box = (SDL_Rect){x, 10, w, lh};
    }
    out->show_prog = x + w <= right;
}

static void bar_progress(tn_gfx *g, const tn_bar_labels *lb)
{
    if (!lb->show_prog) return;
    tn_gfx_text(g, TN_FONT_SMALL, (float)lb->prog_box.x, (float)lb->prog_box.y, lb->prog,
                TN_COL_TEXT_DIM);
    if (lb->prog2[0])
        tn_gfx_text(g, TN_FONT_SMALL, (float)lb->prog_box.x,
                    (float)(lb->prog_box.y + lb->prog_box.h / 2), lb->prog2, TN_COL_TEXT_DIM);
}

void tn_ui_bar_draw(tn_gfx *g, const tn_world *w, const tn_view *v)
{
    (void)w;
    tn_gfx_rect(g, 0, 0, TN_VIEW_W, TN_BAR_H, TN_COL_PANEL);
    tn_gfx_rect(g, 0, TN_BAR_H - 1, TN_VIEW_W, 1, TN_COL_PANEL_EDGE);
    bool live = v->live;
    bar_button(g, v, BAR_PAUSE, v->paused ? "Run" : "Pause", "T", v->paused, live);
    bar_button(g, v, BAR_STEP, "Step", ".", false, live); /* running: pauses, as '.' */
    bar_button(g, v, BAR_RESET, "Reset", "Ctrl+R", false, live);
    bar_slider(g, v, BAR_SPEED, TN_SPEED_COUNT, v->speed, tn_speed_names[v->speed], live);
    tn_gfx_rect(g, (float)(bar_rect(BAR_REPLAY).x - 6), 6, 1, TN_BAR_H - 12, TN_COL_PANEL_EDGE);
    const tn_playback *pb = v->pb;
    bool have = pb && pb->trace.count > 0;
    tn_bar_labels lb;
    tn_ui_bar_labels(g, v, &lb);
    bool shown = tn_playback_visible(pb, v->overlays); /* X off: it waits */
    bar_button(g, v, BAR_REPLAY, "Replay", "E",
               shown && !pb->paused && (int)pb->shown < pb->trace.count, have);
    bar_button(g, v, BAR_PB_PAUSE, lb.hold, lb.hold_key, shown && pb->paused, have && pb->active);
    bar_button(g, v, BAR_PB_STEP, "Next", "Q", false, have && pb->active);
    bar_slider(g, v, BAR_PB_SPEED, TN_PB_RATES, pb ? pb->speed : 3, lb.rate, have);
    if (!lb.in_panel) bar_progress(g, &lb);
    bar_button(g, v, BAR_HUD, "HUD", "H", !v->hud_hidden, true);
}

/* ---------------------------------------------------------- status line */

/* The next line of `msg` from byte `at` for `avail` px: the longest run
 * that fits, cut after a blank (else, one long word, inside it, never
 * inside a UTF-8 sequence); returns where the line ends (the blank
 * excluded) and sets *next to where the following one starts. */
static size_t status_line(const char *msg, size_t at, int avail,
                          int (*width)(void *u, tn_font_id f, const char *s), void *u, size_t *next)
{
    char buf[256];
    size_t best = 0, bestc = 0, len = strlen(msg + at);
    for (size_t i = 1; i <= len && i < sizeof buf; i++) {
        bool end = i == len || msg[at + i] == ' ';
        bool glyph = i == len || ((unsigned char)msg[at + i] & 0xc0) != 0x80;
        if (!end && !glyph) continue;
        snprintf(buf, sizeof buf, "%.*s", (int)i, msg + at);
        if (width(u, TN_FONT_SMALL, buf) > avail) break;
        if (end) best = i;
        bestc = i;
    }
    if (best == 0) best = bestc ? bestc : 1; /* a word wider than the line: cut it */
    size_t n = at + best;
    *next = n;
    while (msg[*next] == ' ') (*next)++;
    return n;
}

tn_status_fit tn_ui_status_fit(const char *msg, int left_end, int right,
                               int (*width)(void *u, tn_font_id f, const char *s), void *u)
{
    tn_status_fit f;
    memset(&f, 0, sizeof f);
    f.font = TN_FONT_UI;
    f.x = left_end + 26;
    f.lines = 1;
    snprintf(f.line[0], sizeof f.line[0], "%s", msg);
    if (f.x + width(u, TN_FONT_UI, msg) <= right) return f;
    f.font = TN_FONT_SMALL;
    if (f.x + width(u, TN_FONT_SMALL, msg) <= right) return f;
    /* lines in the small font after the speed and frame, cut at blanks;
     * the last one that can be shown ends in "..." when text is left */
    int avail = right - f.x;
    size_t at = 0;
    f.lines = 0;
    while (msg[at] && f.lines < TN_STATUS_LINES) {
        char *out = f.line[f.lines++];
        size_t next, end = status_line(msg, at, avail, width, u, &next);
        snprintf(out, sizeof f.line[0], "%.*s", (int)(end - at), msg + at);
        if (!msg[next] || f.lines < TN_STATUS_LINES) {
            at = next;
            continue;
        }
        /* text left: elide this last line (cut inside it if need be) */
        char buf[sizeof f.line[0] + 4];
        size_t n = tn_mini((int)strlen(out), (int)sizeof f.line[0] - 4);
        for (;;) {
            snprintf(buf, sizeof buf, "%.*s...", (int)n, out);
            if (n == 0 || width(u, TN_FONT_SMALL, buf) <= avail) break;
            do n--;
            while (n > 0 && ((unsigned char)out[n] & 0xc0) == 0x80);
        }
        memcpy(out, buf, strlen(buf) + 1); /* n + 3 bytes: fits */
        break;
    }
    return f;
}

static int status_width(void *u, tn_font_id f, const char *s)
{
    return tn_gfx_text_width((tn_gfx *)u, f, s);
}

SDL_FRect tn_ui_status_band(const tn_gfx *g, const tn_world *w, const tn_view *v)
{
    const float y0 = (float)(TN_FRAME_H - TN_STATUS_H);
    SDL_FRect band = {0, y0, 0, 0};
    if (!(tn_world_message_ttl(w) > 0 && tn_world_message_text(w)[0])) return band;
    char left[160];
    if (v->paused)
        snprintf(left, sizeof left, "PAUSED  frame %ld", tn_world_frame(w));
    else
        snprintf(left, sizeof left, "%s  frame %ld", tn_speed_names[v->speed], tn_world_frame(w));
    const int lw = tn_gfx_text_width(g, TN_FONT_MONO, left);
    static tn_status_fit fit; /* 1 KB: off the stack */
    fit = tn_ui_status_fit(tn_world_message_text(w), lw, TN_VIEW_W - 8, status_width, (void *)g);
    if (fit.lines < 2) return band;
    const float h = (float)((fit.lines - 1) * tn_gfx_line_height(g, TN_FONT_SMALL) + 6);
    band = (SDL_FRect){(float)(fit.x - 14), y0 - h, (float)(TN_VIEW_W - fit.x + 14), h};
    return band;
}

void tn_ui_status_draw(tn_gfx *g, const tn_world *w, const tn_view *v)
{
    float y0 = (float)(TN_FRAME_H - TN_STATUS_H);
    tn_gfx_rect(g, 0, y0, TN_VIEW_W, TN_STATUS_H, TN_COL_PANEL);
    tn_gfx_rect(g, 0, y0, TN_VIEW_W, 1, TN_COL_PANEL_EDGE);
    char left[160];
    if (v->paused)
        snprintf(left, sizeof left, "PAUSED  frame %ld", tn_world_frame(w));
    else
        snprintf(left, sizeof left, "%s  frame %ld", tn_speed_names[v->speed], tn_world_frame(w));
    int lw = tn_gfx_text_width(g, TN_FONT_MONO, left);
    bool msg = tn_world_message_ttl(w) > 0 && tn_world_message_text(w)[0];
    static tn_status_fit fit; /* 1 KB: off the stack */
    if (msg) fit = tn_ui_status_fit(tn_world_message_text(w), lw, TN_VIEW_W - 8, status_width, g);
    /* a message on several lines: the ones before its last rise above the
     * status line, over the map's bottom edge, on the panel's colour */
    int lh = tn_gfx_line_height(g, TN_FONT_SMALL);
    float band = msg && fit.lines > 1 ? (float)((fit.lines - 1) * lh + 6) : 0;
    if (band > 0) { /* over the status line's edge too: it would strike the text through */
        tn_gfx_rect(g, (float)(fit.x - 13), y0 - band, (float)(TN_VIEW_W - fit.x + 13), band + 1,
                    TN_COL_PANEL);
        tn_gfx_rect(g, (float)(fit.x - 14), y0 - band, (float)(TN_VIEW_W - fit.x + 14), 1,
                    TN_COL_PANEL_EDGE);
        tn_gfx_rect(g, (float)(fit.x - 14), y0 - band, 1, band, TN_COL_PANEL_EDGE);
    }
    SDL_Rect clip = {0, (int)(y0 - band), TN_VIEW_W - 8, TN_STATUS_H + (int)band};
    tn_gfx_clip(g, &clip);
    tn_gfx_text(g, TN_FONT_MONO, 8, y0 + 5, left, v->paused ? TN_COL_WARN : TN_COL_TEXT_DIM);
    if (!msg) { /* no message: what the left click does (and R, while it restores) */
        char hint[200];
        snprintf(hint, sizeof hint, "%stool %d %s: %s",
                 v->restore_offered ? "R restores the unsaved edits  |  " : "",
                 (int)tn_world_tool(w) + 1, tn_tool_name(tn_world_tool(w)),
                 TOOL_HINT[(unsigned)tn_world_tool(w) < TN_TOOL_COUNT ? tn_world_tool(w) : 0]);
        tn_gfx_text(g, TN_FONT_UI, (float)(lw + 26), y0 + 3, hint, TN_COL_TEXT_DIM);
    } else {
        int a = tn_world_message_ttl(w) >= 30 ? 255 : tn_world_message_ttl(w) * 255 / 30;
        uint32_t col = (TN_COL_WARN & 0xffffff00u) | (uint32_t)a;
        tn_gfx_rect(g, (float)(fit.x - 8), y0 + 5 - band + (band > 0 ? 3 : 0), 3,
                    (float)TN_STATUS_H - 9 + band - (band > 0 ? 3 : 0), col);
        float ly = y0 + (fit.font == TN_FONT_UI ? 3 : 5) - (float)((fit.lines - 1) * lh);
        for (int i = 0; i < fit.lines; i++, ly += (float)lh)
            tn_gfx_text(g, fit.font, (float)fit.x, ly, fit.line[i], col);
    }
    tn_gfx_clip(g, NULL);
}

/* --------------------------------------------------------- inspect card */

/* The card's lines and box; false when there is no card. */
static bool frect_overlap(const SDL_FRect *a, const SDL_FRect *b);

static bool inspect_layout(const tn_gfx *g, const tn_world *w, const tn_view *v,
                           const SDL_FRect *avoid, int navoid, char lines[16][128], int *nlines,
                           SDL_FRect *box)
{
    char text[1024];
    if (!v->inspect_kind ||
        !tn_inspect_text(w, v->inspect_kind, v->inspect_index, text, sizeof text))
        return false;
    int nl = 0, wmax = 0;
    for (char *s = text; *s && nl < 16;) {
        char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        snprintf(lines[nl], sizeof lines[nl], "%.*s", (int)len, s);
        wmax = tn_maxi(wmax, tn_gfx_text_width(g, nl ? TN_FONT_MONO : TN_FONT_UI, lines[nl]));
        nl++;
        s += len + (e ? 1 : 0);
    }
    int lh = tn_gfx_line_height(g, TN_FONT_MONO);
    box->w = (float)wmax + 20;
    box->h = (float)(nl * lh + 14);
    /* top right, bottom right, top left, bottom left: the first off the
     * agent and the captions (a card over the character it inspects hid
     * what it describes) */
    const float xs[2] = {(float)TN_VIEW_W - box->w - 8, 8.0f};
    const float ys[2] = {(float)tn_view_y(v) + 8,
                         (float)(tn_view_y(v) + tn_view_h(v)) - box->h - 8};
    /* a message of two lines rises over the map's bottom edge: a bottom
     * card beside it keeps above it (it covered the card's last lines) */
    const SDL_FRect band = tn_ui_status_band(g, w, v);
    for (int k = 0; k < 4; k++) {
        box->x = xs[k >> 1];
        box->y = ys[k & 1];
        if ((k & 1) && band.h > 0 && box->x < band.x + band.w && band.x < box->x + box->w)
            box->y = tn_maxf((float)tn_view_y(v) + 8, tn_minf(box->y, band.y - box->h - 8));
        bool clear = true;
        for (int i = 0; i < navoid && clear; i++) clear = !frect_overlap(box, &avoid[i]);
        if (clear) break;
        if (k == 3) box->x = xs[0], box->y = ys[0];
    }
    *nlines = nl;
    return true;
}

bool tn_ui_inspect_rect(const tn_gfx *g, const tn_world *w, const tn_view *v,
                        const SDL_FRect *avoid, int navoid, SDL_FRect *box)
{
    char lines[16][128];
    int nl;
    return inspect_layout(g, w, v, avoid, navoid, lines, &nl, box);
}

static bool frect_overlap(const SDL_FRect *a, const SDL_FRect *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

SDL_FRect tn_ui_tooltip_place(int mx, int my, int w, int h, SDL_Rect view, const SDL_FRect *avoid,
                              int navoid)
{
    const float fw = (float)w, fh = (float)h;
    const float right = (float)(view.x + view.w), bottom = (float)(view.y + view.h);
    const float xs[2] = {(float)mx + 16, (float)mx - 8 - fw};
    const float ys[2] = {(float)my + 18, (float)my - 8 - fh};
    SDL_FRect first = {0, 0, fw, fh};
    bool have_first = false;
    /* beside the mouse: below right, below left, above right, above left */
    for (int k = 0; k < 4; k++) {
        SDL_FRect r = {xs[k & 1], ys[k >> 1], fw, fh};
        if (r.x < (float)view.x || r.x + fw > right || r.y < (float)view.y || r.y + fh > bottom)
            continue;
        if (!have_first) {
            first = r;
            have_first = true;
        }
        bool clear = true;
        for (int i = 0; i < navoid && clear; i++) clear = !frect_overlap(&r, &avoid[i]);
        if (clear) return r;
    }
    if (!have_first) { /* a view smaller than the readout: its old flip rule */
        first.x = xs[0] + fw > right ? xs[1] : xs[0];
        first.y = ys[0] + fh > bottom ? ys[1] : ys[0];
    }
    if (navoid < 1 || !frect_overlap(&first, avoid)) return first;
    /* the mouse is on or beside the card: left of it, else under it */
    SDL_FRect r = first;
    r.x = avoid->x - 8 - fw;
    if (r.x >= (float)view.x) {
        r.y = tn_maxf((float)view.y, tn_minf(r.y, bottom - fh));
        return r;
    }
    r.x = tn_maxf((float)view.x, tn_minf(first.x, right - fw));
    r.y = avoid->y + avoid->h + 8;
    return r;
}

void tn_ui_inspect_draw(tn_gfx *g, const tn_world *w, const tn_view *v, const SDL_FRect *avoid,
                        int navoid)
{
    char lines[16][128];
    int nl;
    SDL_FRect box;
    if (!inspect_layout(g, w, v, avoid, navoid, lines, &nl, &box)) return;
    int lh = tn_gfx_line_height(g, TN_FONT_MONO);
    float bw = box.w, bh = box.h, x = box.x, y = box.y;
    tn_gfx_rect(g, x, y, bw, bh, TN_COL_CARD); /* opaque: no map through its text */
    tn_gfx_frame(g, x, y, bw, bh, 1, TN_COL_ACCENT);
    for (int i = 0; i < nl; i++)
        tn_gfx_text(g, i ? TN_FONT_MONO : TN_FONT_UI, x + 10, y + 6 + (float)(i * lh), lines[i],
                    i ? TN_COL_TEXT : TN_COL_ACCENT);
}

/* ----------------------------------------------------------- map picker */

#define PICK_W 620
#define PICK_ROW 24
#define PICK_HINT 22 /* the "more below" line under the rows, when the list goes on */

/* The rows the picker shows: up to TN_PICKER_ROWS, as many as fit in the
 * map view (with the HUD shown) under the title and over the hint line, at
 * least one.  A 900x500 window's view is 356 px high: 11 rows, where 20
 * made a box 566 px high that ran over the top bar and the status line. */
int tn_ui_picker_rows(int n)
{
    if (n <= 0) return 0;
    const int room = TN_VIEW_H - 64;
    int rows = tn_mini(tn_mini(n, TN_PICKER_ROWS), room / PICK_ROW);
    if (n > rows) /* the list goes on: the hint needs its line */
        rows = tn_mini(rows, (room - PICK_HINT) / PICK_ROW);
    return tn_maxi(1, rows);
}

/* The first row shown: v->picker_top, moved so that no row is left empty
 * (a window made larger). */
static int picker_first(const tn_view *v, int rows)
{
    return tn_clampi(v->picker_top, 0, tn_maxi(0, v->picker_count - rows));
}

void tn_ui_picker_scroll(tn_view *v)
{
    const int rows = tn_ui_picker_rows(v->picker_count);
    int top = v->picker_top;
    if (v->picker_sel >= 0 && v->picker_sel < v->picker_count)
        top = tn_clampi(top, v->picker_sel - rows + 1, v->picker_sel);
    v->picker_top = top;
    v->picker_top = picker_first(v, rows);
}

/* The list's box, centred in the map view as it is (taller with the HUD
 * collapsed: H). */
static void picker_box(const tn_view *v, float *x, float *y, float *h)
{
    const int n = v->picker_count, rows = tn_ui_picker_rows(n);
    *h = (float)(rows * PICK_ROW + 64 + (n > rows ? PICK_HINT : 0));
    *x = (float)(TN_VIEW_W - PICK_W) / 2;
    *y = (float)tn_view_y(v) + ((float)tn_view_h(v) - *h) / 2;
}

int tn_ui_picker_row_y(const tn_view *v, int r)
{
    float bx, by, bh;
    picker_box(v, &bx, &by, &bh);
    return (int)(by + 48) + r * PICK_ROW;
}

const char *tn_ui_picker_hint(const tn_view *v)
{
    static char hint[96];
    const int n = v->picker_count, rows = tn_ui_picker_rows(n);
    if (n <= rows) return NULL;
    const int above = picker_first(v, rows), below = n - rows - above;
    if (above == 0)
        snprintf(hint, sizeof hint, "%d more below: Down", below);
    else if (below == 0)
        snprintf(hint, sizeof hint, "%d more above: Up", above);
    else
        snprintf(hint, sizeof hint, "%d more above, %d below: Up / Down", above, below);
    return hint;
}

int tn_ui_picker_hit(const tn_view *v, int x, int y)
{
    if (v->picker_count <= 0) return -1;
    float bx, by, bh;
    picker_box(v, &bx, &by, &bh);
    if ((float)x < bx || (float)x >= bx + PICK_W) return -1;
    const int rows = tn_ui_picker_rows(v->picker_count);
    int r = (int)floorf(((float)y - by - 48) / PICK_ROW);
    if (r < 0 || r >= rows) return -1;
    int i = picker_first(v, rows) + r;
    return i < v->picker_count ? i : -1;
}

void tn_ui_picker_draw(tn_gfx *g, const tn_view *v)
{
    if (v->picker_count <= 0) return;
    float bx, by, bh;
    picker_box(v, &bx, &by, &bh);
    /* the whole map view dimmed (with the HUD collapsed it starts under the
     * top bar: a band of the map above the HUD's place stayed bright) */
    tn_gfx_rect(g, 0, (float)tn_view_y(v), TN_VIEW_W, (float)tn_view_h(v), 0x05070ca0u);
    tn_gfx_rect(g, bx, by, PICK_W, bh, 0x151a26ffu);
    tn_gfx_frame(g, bx, by, PICK_W, bh, 1, TN_COL_PANEL_EDGE);
    tn_gfx_rect(g, bx, by, PICK_W, 3, TN_COL_ACCENT);
    tn_gfx_text(g, TN_FONT_TITLE, bx + 16, by + 12, "Open a map", TN_COL_TEXT);
    tn_gfx_text(g, TN_FONT_UI, bx + 150, by + 16,
                "\xe2\x86\x91 \xe2\x86\x93 Enter or a click; Tab or Esc closes", TN_COL_TEXT_DIM);
    const int rows = tn_ui_picker_rows(v->picker_count), first = picker_first(v, rows);
    for (int r = 0; r < rows && first + r < v->picker_count; r++) {
        int i = first + r;
        float y = by + 48 + (float)(r * PICK_ROW);
        bool sel = i == v->picker_sel;
        if (sel) tn_gfx_rect(g, bx + 8, y, PICK_W - 16, PICK_ROW - 2, 0x2a5f78ffu);
        bool cur = i == v->picker_current;
        if (cur && !sel) tn_gfx_rect(g, bx + 8, y, 4, PICK_ROW - 2, TN_COL_ACCENT);
        char row[1100];
        char name[sizeof row];
        snprintf(row, sizeof row, "%s%s", tn_text_shown(name, sizeof name, v->picker_items[i]),
                 cur ? "   (playing)" : "");
        tn_gfx_text(g, TN_FONT_MONO, bx + 16, y + 4, row,
                    sel   ? 0xffffffffu
                    : cur ? TN_COL_ACCENT
                          : TN_COL_TEXT);
    }
    /* a list longer than the rows: say it goes on, and which way (as the
     * help does), on a line of its own under the rows */
    const char *hint = tn_ui_picker_hint(v);
    if (hint) {
        const float y = by + 48 + (float)(rows * PICK_ROW) + 4;
        const float hw = (float)tn_gfx_text_width(g, TN_FONT_UI, hint);
        tn_gfx_text(g, TN_FONT_UI, bx + PICK_W - 16 - hw, y, hint, TN_COL_TEXT_DIM);
    }
}
