/* ui.c - fonts, glyph atlases, the geometry batch, the side panel, the HUD
 * and the help overlay.  See ui.h. */
#include "ui.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- fonts */

#ifndef TN_BAKED_FONTS
static const struct {
    const char *file;
    int size;
    int style;
} FONT_SPEC[TN_FONT_COUNT] = {
    [TN_FONT_UI] = {"DejaVuSans.ttf", 14, TTF_STYLE_NORMAL},
    [TN_FONT_TITLE] = {"DejaVuSans.ttf", 19, TTF_STYLE_BOLD},
    [TN_FONT_SMALL] = {"DejaVuSans.ttf", 11, TTF_STYLE_NORMAL},
    [TN_FONT_MONO] = {"DejaVuSansMono.ttf", 13, TTF_STYLE_NORMAL},
    [TN_FONT_TINY] = {"DejaVuSansMono.ttf", 10, TTF_STYLE_NORMAL},
};

static const char *const FONT_FILES[2] = {"DejaVuSans.ttf", "DejaVuSansMono.ttf"};

int tn_fonts_open(tn_fonts *fonts, const char *assets_dir, char *err, size_t cap)
{
    memset(fonts, 0, sizeof *fonts);
    size_t size[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", assets_dir ? assets_dir : "assets", FONT_FILES[i]);
        /* In memory, FreeType reads glyphs with memcpy instead of a seek and
         * a read per glyph (this made building the atlases 10x faster). */
        fonts->file[i] = SDL_LoadFile(path, &size[i]);
        if (!fonts->file[i]) {
            snprintf(err, cap, "cannot read font %s: %s", path, SDL_GetError());
            tn_fonts_close(fonts);
            return -1;
        }
    }
    for (int i = 0; i < TN_FONT_COUNT; i++) {
        int fi = strcmp(FONT_SPEC[i].file, FONT_FILES[0]) == 0 ? 0 : 1;
        SDL_RWops *rw = SDL_RWFromConstMem(fonts->file[fi], (int)size[fi]);
        fonts->f[i] = rw ? TTF_OpenFontRW(rw, 1, FONT_SPEC[i].size) : NULL;
        if (!fonts->f[i]) {
            snprintf(err, cap, "cannot open font %s/%s: %s", assets_dir ? assets_dir : "assets",
                     FONT_SPEC[i].file, TTF_GetError());
            tn_fonts_close(fonts);
            return -1;
        }
        TTF_SetFontStyle(fonts->f[i], FONT_SPEC[i].style);
        TTF_SetFontHinting(fonts->f[i], TTF_HINTING_LIGHT);
    }
    return 0;
}

void tn_fonts_close(tn_fonts *fonts)
{
    for (int i = 0; i < TN_FONT_COUNT; i++) {
        if (fonts->f[i]) TTF_CloseFont(fonts->f[i]);
        fonts->f[i] = NULL;
    }
    for (int i = 0; i < 2; i++) {
        SDL_free(fonts->file[i]);
        fonts->file[i] = NULL;
    }
}
#endif

/* ---------------------------------------------------------- glyph atlas */

/* Glyph slots: ASCII 32..126, Latin-1 160..255, then these. */
static const uint32_t EXTRA_CP[] = {
    0x2190, 0x2191, 0x2192, 0x2193, /* arrows */
    0x2022, 0x00b7, 0x2013, 0x2014, 0x2026, 0x2212, 0x2264, 0x2265, 0x2248, 0x221e,
    0x2713, 0x25b2, 0x25bc, 0x25cf, 0x25cb, 0x03bc, 0x0394, 0x03b1, 0x03b8, 0x2318,
};
#define NEXTRA ((int)(sizeof EXTRA_CP / sizeof EXTRA_CP[0]))
_Static_assert(95 + 96 + NEXTRA <= TN_GLYPHS, "glyph table too small");

#ifndef TN_BAKED_FONTS
static uint32_t slot_cp(int i)
{
    if (i < 95) return (uint32_t)(32 + i);
    if (i < 191) return (uint32_t)(160 + i - 95);
    if (i < 191 + NEXTRA) return EXTRA_CP[i - 191];
    return 0;
}
#endif

static int cp_slot(uint32_t cp)
{
    if (cp >= 32 && cp <= 126) return (int)cp - 32;
    if (cp >= 160 && cp <= 255) return 95 + (int)cp - 160;
    for (int i = 0; i < NEXTRA; i++)
        if (EXTRA_CP[i] == cp) return 191 + i;
    return '?' - 32;
}

/* Decode one UTF-8 sequence; malformed bytes decode as '?'. */
static uint32_t utf8_next(const char **ps)
{
    const unsigned char *s = (const unsigned char *)*ps;
    uint32_t c = s[0];
    int n = 0;
    if (c < 0x80) n = 0;
    else if ((c & 0xe0) == 0xc0) n = 1, c &= 0x1f;
    else if ((c & 0xf0) == 0xe0) n = 2, c &= 0x0f;
    else if ((c & 0xf8) == 0xf0) n = 3, c &= 0x07;
    else {
        *ps += 1;
        return '?';
    }
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            *ps += i;
            return '?';
        }
        c = (c << 6) | (s[i] & 0x3f);
    }
    *ps += n + 1;
    return c;
}

#define ATLAS_W 512
#define ATLAS_H 512

#ifndef TN_BAKED_FONTS
SDL_Surface *tn_atlas_sheet(tn_atlas *a, TTF_Font *font, char *err, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->height = TTF_FontHeight(font);
    SDL_Surface *sheet = SDL_CreateRGBSurfaceWithFormat(0, ATLAS_W, ATLAS_H, 32,
                                                        SDL_PIXELFORMAT_ARGB8888);
    if (!sheet) {
        snprintf(err, cap, "glyph atlas: %s", SDL_GetError());
        return NULL;
    }
    SDL_FillRect(sheet, NULL, 0);
    const SDL_Color white = {255, 255, 255, 255};
    int pen_x = 0, pen_y = 0, row_h = 0;
    for (int i = 0; i < TN_GLYPHS; i++) {
        uint32_t cp = slot_cp(i);
        tn_glyph *g = &a->g[i];
        if (!cp || !TTF_GlyphIsProvided32(font, cp)) {
            *g = a->g['?' - 32];
            continue;
        }
        int minx, maxx, miny, maxy, adv;
        if (TTF_GlyphMetrics32(font, cp, &minx, &maxx, &miny, &maxy, &adv) != 0) continue;
        g->adv = adv;
        g->xoff = minx < 0 ? minx : 0;
        if (cp == ' ' || cp == 0xa0) continue;
        SDL_Surface *gs = TTF_RenderGlyph32_Blended(font, cp, white);
        if (!gs) continue;
        if (pen_x + gs->w > ATLAS_W) {
            pen_x = 0;
            pen_y += row_h + 1;
            row_h = 0;
        }
        if (pen_y + gs->h > ATLAS_H) {
            SDL_FreeSurface(gs);
            SDL_FreeSurface(sheet);
            snprintf(err, cap, "glyph atlas: font too large for %dx%d", ATLAS_W, ATLAS_H);
            return NULL;
        }
        SDL_Rect dst = {pen_x, pen_y, gs->w, gs->h};
        SDL_SetSurfaceBlendMode(gs, SDL_BLENDMODE_NONE);
        SDL_BlitSurface(gs, NULL, sheet, &dst);
        g->src = dst;
        pen_x += gs->w + 1;
        if (gs->h > row_h) row_h = gs->h;
        SDL_FreeSurface(gs);
    }
    return sheet;
}

static int atlas_build(tn_atlas *a, SDL_Renderer *r, const tn_fonts *fonts, int i, char *err,
                       size_t cap)
{
    SDL_Surface *sheet = tn_atlas_sheet(a, fonts->f[i], err, cap);
    if (!sheet) return -1;
    a->tex = SDL_CreateTextureFromSurface(r, sheet);
    SDL_FreeSurface(sheet);
    if (!a->tex) {
        snprintf(err, cap, "glyph atlas texture: %s", SDL_GetError());
        return -1;
    }
    SDL_SetTextureBlendMode(a->tex, SDL_BLENDMODE_BLEND);
    return 0;
}

#else /* TN_BAKED_FONTS: the atlases tilenav-bake-fonts wrote (see ui.h) */

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define BAKED_HEAD 8
#define BAKED_FONT_HEAD (4 * (3 + 6 * TN_GLYPHS))

/* Where font i's record starts, or 0 when the file is too short for it. */
static size_t baked_font_at(const tn_fonts *fonts, int i)
{
    size_t at = BAKED_HEAD;
    for (int k = 0;; k++) {
        if (fonts->size - at < BAKED_FONT_HEAD) return 0;
        const unsigned char *p = fonts->data + at;
        uint64_t pixels = (uint64_t)rd32(p + 4) * rd32(p + 8);
        if ((uint64_t)(fonts->size - at - BAKED_FONT_HEAD) < pixels) return 0;
        if (k == i) return at;
        at += BAKED_FONT_HEAD + (size_t)pixels;
    }
}

int tn_fonts_open(tn_fonts *fonts, const char *assets_dir, char *err, size_t cap)
{
    memset(fonts, 0, sizeof *fonts);
    snprintf(fonts->path, sizeof fonts->path, "%s/%s", assets_dir ? assets_dir : "assets",
             TN_BAKED_FONTS_FILE);
    fonts->data = SDL_LoadFile(fonts->path, &fonts->size);
    if (!fonts->data) {
        snprintf(err, cap, "cannot read fonts %s: %s", fonts->path, SDL_GetError());
        return -1;
    }
    const char *why = NULL;
    if (fonts->size < BAKED_HEAD || memcmp(fonts->data, TN_BAKED_FONTS_MAGIC, BAKED_HEAD) != 0)
        why = "not a tilenav font atlas (bad magic)";
    for (int i = 0; !why && i < TN_FONT_COUNT; i++) {
        size_t at = baked_font_at(fonts, i);
        const unsigned char *p = fonts->data + at;
        if (!at) {
            why = "truncated";
            break;
        }
        int w = (int)rd32(p + 4), h = (int)rd32(p + 8);
        int line_h = (int)rd32(p);
        if (w != ATLAS_W || h < 1 || h > ATLAS_H) why = "bad sheet size";
        else if (line_h < 1 || line_h > 256) why = "bad line height";
        for (int k = 0; !why && k < TN_GLYPHS; k++) {
            const unsigned char *q = p + 12 + 24 * k;
            int x = (int)rd32(q), y = (int)rd32(q + 4), gw = (int)rd32(q + 8), gh = (int)rd32(q + 12);
            int xoff = (int)rd32(q + 16), adv = (int)rd32(q + 20);
            if (x < 0 || y < 0 || gw < 0 || gh < 0 || x > w || y > h || gw > w - x || gh > h - y)
                why = "glyph outside its sheet";
            else if (xoff < -256 || xoff > 256 || adv < 0 || adv > 256)
                why = "bad glyph metrics";
        }
    }
    if (why) {
        snprintf(err, cap, "%s: %s", fonts->path, why);
        tn_fonts_close(fonts);
        return -1;
    }
    return 0;
}

void tn_fonts_close(tn_fonts *fonts)
{
    SDL_free(fonts->data);
    fonts->data = NULL;
    fonts->size = 0;
}

static int atlas_build(tn_atlas *a, SDL_Renderer *r, const tn_fonts *fonts, int i, char *err,
                       size_t cap)
{
    memset(a, 0, sizeof *a);
    const unsigned char *p = fonts->data + baked_font_at(fonts, i); /* checked by tn_fonts_open */
    int w = (int)rd32(p + 4), h = (int)rd32(p + 8);
    a->height = (int)rd32(p);
    for (int k = 0; k < TN_GLYPHS; k++) {
        const unsigned char *q = p + 12 + 24 * k;
        a->g[k].src.x = (int)rd32(q);
        a->g[k].src.y = (int)rd32(q + 4);
        a->g[k].src.w = (int)rd32(q + 8);
        a->g[k].src.h = (int)rd32(q + 12);
        a->g[k].xoff = (int)rd32(q + 16);
        a->g[k].adv = (int)rd32(q + 20);
    }
    /* The whole ATLAS_W x ATLAS_H sheet, as tn_gfx_text's coordinates expect. */
    SDL_Surface *sheet = SDL_CreateRGBSurfaceWithFormat(0, ATLAS_W, ATLAS_H, 32,
                                                        SDL_PIXELFORMAT_ARGB8888);
    if (!sheet) {
        snprintf(err, cap, "glyph atlas: %s", SDL_GetError());
        return -1;
    }
    SDL_FillRect(sheet, NULL, 0);
    const unsigned char *alpha = p + BAKED_FONT_HEAD;
    for (int y = 0; y < h; y++) {
        Uint32 *row = (Uint32 *)((Uint8 *)sheet->pixels + y * sheet->pitch);
        for (int x = 0; x < w; x++) {
            Uint32 al = alpha[y * w + x];
            row[x] = al ? al << 24 | 0xffffffu : 0; /* white glyphs, as TTF renders them */
        }
    }
    a->tex = SDL_CreateTextureFromSurface(r, sheet);
    SDL_FreeSurface(sheet);
    if (!a->tex) {
        snprintf(err, cap, "glyph atlas texture: %s", SDL_GetError());
        return -1;
    }
    SDL_SetTextureBlendMode(a->tex, SDL_BLENDMODE_BLEND);
    return 0;
}
#endif

/* ------------------------------------------------------------- tn_gfx */

#define BATCH_VERTS (3 * 4096)
#define BATCH_RECTS 4096

int tn_gfx_init(tn_gfx *g, SDL_Renderer *r, const tn_fonts *fonts, char *err, size_t cap)
{
    memset(g, 0, sizeof *g);
    g->r = r;
    g->cap = BATCH_VERTS;
    g->rect_cap = BATCH_RECTS;
    g->vert = SDL_malloc(sizeof *g->vert * (size_t)g->cap);
    g->rects = SDL_malloc(sizeof *g->rects * (size_t)g->rect_cap);
    if (!g->vert || !g->rects) {
        tn_gfx_free(g);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    for (int i = 0; i < TN_FONT_COUNT; i++) {
        if (atlas_build(&g->atlas[i], r, fonts, i, err, cap) != 0) {
            tn_gfx_free(g);
            return -1;
        }
    }
    SDL_RendererInfo info;
    g->software = SDL_GetRendererInfo(r, &info) == 0 && (info.flags & SDL_RENDERER_SOFTWARE);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    return 0;
}

void tn_gfx_free(tn_gfx *g)
{
    for (int i = 0; i < TN_FONT_COUNT; i++)
        if (g->atlas[i].tex) SDL_DestroyTexture(g->atlas[i].tex);
    SDL_free(g->vert);
    SDL_free(g->rects);
    memset(g, 0, sizeof *g);
}

static void flush_tris(tn_gfx *g)
{
    if (g->nvert == 0) return;
    SDL_SetRenderDrawBlendMode(g->r, g->tri_opaque && !g->tex ? SDL_BLENDMODE_NONE
                                                              : SDL_BLENDMODE_BLEND);
    SDL_RenderGeometry(g->r, g->tex, g->vert, g->nvert, NULL, 0);
    g->nvert = 0;
}

static void flush_rects(tn_gfx *g)
{
    if (g->nrects == 0) return;
    uint32_t c = g->rect_rgba;
    SDL_SetRenderDrawBlendMode(g->r, (c & 0xff) == 0xff ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(g->r, (Uint8)(c >> 24), (Uint8)(c >> 16), (Uint8)(c >> 8), (Uint8)c);
    SDL_RenderFillRectsF(g->r, g->rects, g->nrects);
    g->nrects = 0;
}

void tn_gfx_flush(tn_gfx *g)
{
    flush_rects(g);
    flush_tris(g);
}

void tn_gfx_clip(tn_gfx *g, const SDL_Rect *rect)
{
    tn_gfx_flush(g);
    SDL_RenderSetClipRect(g->r, rect);
}

static SDL_Color rgba_color(uint32_t c)
{
    SDL_Color k = {(Uint8)(c >> 24), (Uint8)(c >> 16), (Uint8)(c >> 8), (Uint8)c};
    return k;
}

static void put_uv(tn_gfx *g, float x, float y, SDL_Color c, float u, float v)
{
    SDL_Vertex *p = &g->vert[g->nvert++];
    p->position.x = x;
    p->position.y = y;
    p->color = c;
    p->tex_coord.x = u;
    p->tex_coord.y = v;
}

static void put(tn_gfx *g, float x, float y, SDL_Color c) { put_uv(g, x, y, c, 0, 0); }

/* Room for n vertices in a batch drawn with texture tex (NULL: coloured
 * only, opaque or not). */
static void reserve_tex(tn_gfx *g, int n, SDL_Texture *tex, bool opaque)
{
    flush_rects(g);
    if (g->nvert + n > g->cap || g->tex != tex || g->tri_opaque != opaque) flush_tris(g);
    g->tex = tex;
    g->tri_opaque = opaque;
}

static void reserve(tn_gfx *g, int n, SDL_Color c) { reserve_tex(g, n, NULL, c.a == 255); }

void tn_gfx_tri(tn_gfx *g, float x0, float y0, float x1, float y1, float x2, float y2,
                uint32_t rgba)
{
    if ((rgba & 0xff) == 0) return;
    SDL_Color c = rgba_color(rgba);
    reserve(g, 3, c);
    put(g, x0, y0, c);
    put(g, x1, y1, c);
    put(g, x2, y2, c);
}

static void quad(tn_gfx *g, float ax, float ay, float bx, float by, float cx, float cy, float dx,
                 float dy, SDL_Color c)
{
    reserve(g, 6, c);
    put(g, ax, ay, c);
    put(g, bx, by, c);
    put(g, cx, cy, c);
    put(g, ax, ay, c);
    put(g, cx, cy, c);
    put(g, dx, dy, c);
}

void tn_gfx_rect(tn_gfx *g, float x, float y, float w, float h, uint32_t rgba)
{
    if (w <= 0 || h <= 0 || (rgba & 0xff) == 0) return;
    flush_tris(g);
    if (g->nrects == g->rect_cap || (g->nrects > 0 && g->rect_rgba != rgba)) flush_rects(g);
    g->rect_rgba = rgba;
    SDL_FRect *r = &g->rects[g->nrects++];
    r->x = x;
    r->y = y;
    r->w = w;
    r->h = h;
}

void tn_gfx_frame(tn_gfx *g, float x, float y, float w, float h, float t, uint32_t rgba)
{
    if (t * 2 >= w || t * 2 >= h) {
        tn_gfx_rect(g, x, y, w, h, rgba);
        return;
    }
    tn_gfx_rect(g, x, y, w, t, rgba);
    tn_gfx_rect(g, x, y + h - t, w, t, rgba);
    tn_gfx_rect(g, x, y + t, t, h - 2 * t, rgba);
    tn_gfx_rect(g, x + w - t, y + t, t, h - 2 * t, rgba);
}

void tn_gfx_line(tn_gfx *g, float x0, float y0, float x1, float y1, float width, uint32_t rgba)
{
    if ((rgba & 0xff) == 0) return;
    if (g->software && width <= 2.0f) {
        tn_gfx_flush(g);
        SDL_SetRenderDrawBlendMode(g->r, (rgba & 0xff) == 0xff ? SDL_BLENDMODE_NONE
                                                               : SDL_BLENDMODE_BLEND);
        SDL_SetRenderDrawColor(g->r, (Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8),
                               (Uint8)rgba);
        SDL_RenderDrawLineF(g->r, x0, y0, x1, y1);
        return;
    }
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 1e-4f) {
        tn_gfx_rect(g, x0 - width * 0.5f, y0 - width * 0.5f, width, width, rgba);
        return;
    }
    float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
    quad(g, x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny,
         rgba_color(rgba));
}

/* Segments for a circle of screen radius r: about one per 3 px of outline. */
static int circle_segments(float r)
{
    int n = (int)(r * 2.1f);
    return n < 10 ? 10 : n > 72 ? 72 : n;
}

void tn_gfx_circle(tn_gfx *g, float cx, float cy, float r, uint32_t rgba)
{
    if (r <= 0 || (rgba & 0xff) == 0) return;
    int n = circle_segments(r);
    SDL_Color c = rgba_color(rgba);
    float step = 6.2831853f / (float)n, px = cx + r, py = cy;
    /* rotate with a recurrence: one sin/cos per circle */
    float cs = cosf(step), sn = sinf(step), ux = 1, uy = 0;
    for (int i = 0; i < n; i++) {
        float nx = ux * cs - uy * sn, ny = ux * sn + uy * cs;
        ux = nx;
        uy = ny;
        float qx = cx + r * ux, qy = cy + r * uy;
        if (i == n - 1) qx = cx + r, qy = cy;
        reserve(g, 3, c);
        put(g, cx, cy, c);
        put(g, px, py, c);
        put(g, qx, qy, c);
        px = qx;
        py = qy;
    }
}

void tn_gfx_ring(tn_gfx *g, float cx, float cy, float r, float width, uint32_t rgba)
{
    if (r <= 0 || (rgba & 0xff) == 0) return;
    int n = circle_segments(r);
    SDL_Color c = rgba_color(rgba);
    float ri = r - width * 0.5f, ro = r + width * 0.5f;
    if (ri < 0) ri = 0;
    float step = 6.2831853f / (float)n, cs = cosf(step), sn = sinf(step);
    float ux = 1, uy = 0;
    for (int i = 0; i < n; i++) {
        float vx = ux * cs - uy * sn, vy = ux * sn + uy * cs;
        if (i == n - 1) vx = 1, vy = 0;
        quad(g, cx + ri * ux, cy + ri * uy, cx + ro * ux, cy + ro * uy, cx + ro * vx,
             cy + ro * vy, cx + ri * vx, cy + ri * vy, c);
        ux = vx;
        uy = vy;
    }
}

int tn_gfx_text(tn_gfx *g, tn_font_id f, float x, float y, const char *s, uint32_t rgba)
{
    const tn_atlas *a = &g->atlas[f];
    if (!s || !a->tex) return 0;
    SDL_Color c = rgba_color(rgba);
    const float ku = 1.0f / ATLAS_W, kv = 1.0f / ATLAS_H;
    float px = floorf(x + 0.5f), py = floorf(y + 0.5f);
    int pen = 0;
    while (*s) {
        const tn_glyph *gl = &a->g[cp_slot(utf8_next(&s))];
        if (gl->src.w > 0 && (rgba & 0xff)) {
            float x0 = px + (float)(pen + gl->xoff), y0 = py;
            float x1 = x0 + (float)gl->src.w, y1 = y0 + (float)gl->src.h;
            float u0 = (float)gl->src.x * ku, v0 = (float)gl->src.y * kv;
            float u1 = (float)(gl->src.x + gl->src.w) * ku, v1 = (float)(gl->src.y + gl->src.h) * kv;
            reserve_tex(g, 6, a->tex, false);
            put_uv(g, x0, y0, c, u0, v0);
            put_uv(g, x1, y0, c, u1, v0);
            put_uv(g, x1, y1, c, u1, v1);
            put_uv(g, x0, y0, c, u0, v0);
            put_uv(g, x1, y1, c, u1, v1);
            put_uv(g, x0, y1, c, u0, v1);
        }
        pen += gl->adv;
    }
    return pen;
}

int tn_gfx_text_width(const tn_gfx *g, tn_font_id f, const char *s)
{
    const tn_atlas *a = &g->atlas[f];
    int pen = 0;
    while (s && *s) pen += a->g[cp_slot(utf8_next(&s))].adv;
    return pen;
}

int tn_gfx_line_height(const tn_gfx *g, tn_font_id f) { return g->atlas[f].height; }

/* ---------------------------------------------------------------- view */

void tn_view_init(tn_view *v, const tn_world *w, unsigned overlays)
{
    memset(v, 0, sizeof *v);
    v->overlays = overlays;
    v->zoom = -1;
    v->char_x = w->character.x;
    v->char_y = w->character.y;
    v->facing = 1;
    v->hot_slider = v->drag_slider = v->hot_tool = v->hot_overlay = -1;
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
#define TOOLS_Y 80
#define TOOL_H 22
#define TOOL_GAP 4
#define SLIDERS_TITLE_Y 184
#define SLIDERS_Y 204
#define SLIDERS_SPACE 382
#define OVERLAYS_TITLE_Y 594
#define OVERLAYS_Y 612
#define OVERLAY_H 21

static const char *const OVERLAY_NAMES[] = {"path", "explored", "flow field", "navmesh",
                                            "companion", "wanderers"};
static const char OVERLAY_KEYS[] = {'P', 'X', 'F', 'N', 'C', 'V'};
#define NOVERLAYS 6

static SDL_Rect tool_rect(int i)
{
    int w = (TN_PANEL_W - 2 * PAD - TOOL_GAP) / 2;
    SDL_Rect r = {PANEL_X + PAD + (i % 2) * (w + TOOL_GAP), TOOLS_Y + (i / 2) * (TOOL_H + TOOL_GAP),
                  w, TOOL_H};
    return r;
}

static int slider_pitch(int n) { return n > 0 ? tn_mini(38, SLIDERS_SPACE / n) : 38; }

static SDL_Rect slider_rect(int i, int n)
{
    int pitch = slider_pitch(n);
    SDL_Rect r = {PANEL_X + PAD, SLIDERS_Y + i * pitch, TN_PANEL_W - 2 * PAD, pitch - 2};
    return r;
}

/* The track's horizontal extent inside a slider row. */
static void slider_track(int i, int n, int *x0, int *x1, int *y)
{
    SDL_Rect r = slider_rect(i, n);
    *x0 = r.x + 6;
    *x1 = r.x + r.w - 6;
    *y = r.y + r.h - 10;
}

static SDL_Rect overlay_rect(int i)
{
    int w = (TN_PANEL_W - 2 * PAD - TOOL_GAP) / 2;
    SDL_Rect r = {PANEL_X + PAD + (i % 2) * (w + TOOL_GAP), OVERLAYS_Y + (i / 2) * OVERLAY_H, w,
                  OVERLAY_H - 2};
    return r;
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

static void format_value(const tn_param_info *p, double v, char *out, size_t cap)
{
    double st = param_step(p);
    int dec = st >= 1 ? 0 : st >= 0.1 ? 1 : 2;
    const char *unit = p->unit ? p->unit : "";
    int ulen = (int)strlen(unit);
    /* "1 tile", "2 tiles" */
    if (v == 1 && ulen > 1 && unit[ulen - 1] == 's' && unit[ulen - 2] != '/') ulen--;
    snprintf(out, cap, "%.*f%s%.*s", dec, v, ulen ? " " : "", ulen, unit);
}

static void slider_apply(tn_world *w, int i, int x)
{
    int n;
    const tn_param_info *p = &tn_world_params(&n)[i];
    int x0, x1, y;
    slider_track(i, n, &x0, &x1, &y);
    double t = (double)(x - x0) / (double)(x1 - x0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double st = param_step(p);
    double v = p->min + t * (p->max - p->min);
    v = p->min + floor((v - p->min) / st + 0.5) * st;
    if (v > p->max) v = p->max;
    if (v < p->min) v = p->min;
    if (p->integer) v = floor(v + 0.5);
    double cur;
    if (tn_world_get(w, p->name, &cur) && fabs(cur - v) < st * 0.5) return;
    tn_error err;
    tn_world_set(w, p->name, v, &err); /* a refusal becomes the world's message */
}

bool tn_ui_panel_mouse(tn_view *v, tn_world *w, const SDL_Event *ev, int x, int y)
{
    int n;
    const tn_param_info *params = tn_world_params(&n);
    bool inside = x >= PANEL_X;
    if (ev->type == SDL_MOUSEMOTION) {
        v->hot_slider = v->hot_tool = v->hot_overlay = -1;
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
            SDL_Rect r = slider_rect(i, n);
            double dummy;
            if (in_rect(&r, x, y) && tn_world_get(w, params[i].name, &dummy)) v->hot_slider = i;
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
            SDL_Rect r = slider_rect(i, n);
            double dummy;
            if (in_rect(&r, x, y) && tn_world_get(w, params[i].name, &dummy)) {
                v->drag_slider = i;
                slider_apply(w, i, x);
            }
        }
        for (int i = 0; i < NOVERLAYS; i++) {
            SDL_Rect r = overlay_rect(i);
            if (in_rect(&r, x, y)) v->overlays ^= 1u << i;
        }
        return true;
    }
    if (ev->type == SDL_MOUSEWHEEL) return inside;
    return false;
}

static void section_title(tn_gfx *g, int y, const char *title, const char *hint)
{
    int tw = tn_gfx_text(g, TN_FONT_SMALL, PANEL_X + PAD, (float)y, title, TN_COL_ACCENT);
    if (hint) tn_gfx_text(g, TN_FONT_SMALL, (float)(PANEL_X + PAD + tw + 8), (float)y, hint,
                          TN_COL_TEXT_DIM);
}

void tn_ui_panel_draw(tn_gfx *g, const tn_world *w, const tn_view *v)
{
    tn_gfx_rect(g, PANEL_X, 0, TN_PANEL_W, TN_VIEW_H, TN_COL_PANEL);
    tn_gfx_rect(g, PANEL_X, 0, 1, TN_VIEW_H, TN_COL_PANEL_EDGE);

    tn_gfx_text(g, TN_FONT_TITLE, PANEL_X + PAD, 12, "tilenav", TN_COL_TEXT);
    tn_gfx_text(g, TN_FONT_SMALL, PANEL_X + PAD, 38, "2D game-AI navigation sandbox",
                TN_COL_TEXT_DIM);

    /* tools */
    section_title(g, TOOLS_Y - 18, "TOOLS", "keys 1-8, left-click uses it");
    for (int i = 0; i < TN_TOOL_COUNT; i++) {
        SDL_Rect r = tool_rect(i);
        bool cur = (int)w->tool == i, hot = v->hot_tool == i;
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
    section_title(g, SLIDERS_TITLE_Y, "PARAMETERS", "drag a slider");
    for (int i = 0; i < n; i++) {
        const tn_param_info *p = &params[i];
        SDL_Rect r = slider_rect(i, n);
        double val = 0;
        bool on = tn_world_get(w, p->name, &val);
        bool hot = v->hot_slider == i || v->drag_slider == i;
        char label[64], value[48];
        tn_ui_param_label(p->name, label, sizeof label);
        if (on) format_value(p, val, value, sizeof value);
        else snprintf(value, sizeof value, "not available");
        uint32_t tc = on ? (hot ? 0xffffffffu : TN_COL_TEXT) : TN_COL_TEXT_OFF;
        tn_gfx_text(g, TN_FONT_UI, (float)r.x, (float)r.y, label, tc);
        int vw = tn_gfx_text_width(g, on ? TN_FONT_MONO : TN_FONT_SMALL, value);
        tn_gfx_text(g, on ? TN_FONT_MONO : TN_FONT_SMALL, (float)(r.x + r.w - vw),
                    (float)(r.y + (on ? 1 : 3)), value, on ? TN_COL_ACCENT : TN_COL_TEXT_OFF);
        int x0, x1, ty;
        slider_track(i, n, &x0, &x1, &ty);
        tn_gfx_rect(g, (float)x0, (float)ty - 2, (float)(x1 - x0), 4,
                    on ? 0x2c3446ffu : 0x1f2430ffu);
        if (!on) continue;
        double t = (val - p->min) / (p->max - p->min);
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        float hx = (float)x0 + (float)t * (float)(x1 - x0);
        tn_gfx_rect(g, (float)x0, (float)ty - 2, hx - (float)x0, 4, 0x3b8fb3ffu);
        tn_gfx_circle(g, hx, (float)ty, hot ? 7.0f : 6.0f, hot ? 0xffffffffu : 0xcfd8e8ffu);
        tn_gfx_ring(g, hx, (float)ty, hot ? 7.0f : 6.0f, 1.5f, 0x3b8fb3ffu);
    }

    /* overlays */
    section_title(g, OVERLAYS_TITLE_Y, "OVERLAYS", "toggle with the key");
    for (int i = 0; i < NOVERLAYS; i++) {
        SDL_Rect r = overlay_rect(i);
        bool on = (v->overlays >> i) & 1u, hot = v->hot_overlay == i;
        if (hot) tn_gfx_rect(g, (float)r.x, (float)r.y, (float)r.w, (float)r.h, 0x222838ffu);
        float bx = (float)r.x + 3, by = (float)r.y + 4;
        tn_gfx_frame(g, bx, by, 11, 11, 1, on ? TN_COL_ACCENT : TN_COL_TEXT_DIM);
        if (on) tn_gfx_rect(g, bx + 3, by + 3, 5, 5, TN_COL_ACCENT);
        char label[32];
        snprintf(label, sizeof label, "%c %s", OVERLAY_KEYS[i], OVERLAY_NAMES[i]);
        tn_gfx_text(g, TN_FONT_UI, (float)r.x + 20, (float)r.y + 1, label,
                    on ? TN_COL_TEXT : TN_COL_TEXT_DIM);
    }

    /* footer: the hovered slider's help, or the main keys */
    const char *foot = "F1 help   Ctrl+S save   F12 shot   Esc quit";
    char help[128];
    int hs = v->drag_slider >= 0 ? v->drag_slider : v->hot_slider;
    if (hs >= 0 && hs < n) {
        snprintf(help, sizeof help, "%s (%g..%g)", params[hs].help, params[hs].min, params[hs].max);
        foot = help;
    }
    tn_gfx_rect(g, PANEL_X + PAD, 690, TN_PANEL_W - 2 * PAD, 1, TN_COL_PANEL_EDGE);
    tn_gfx_text(g, TN_FONT_SMALL, PANEL_X + PAD, 698, foot, TN_COL_TEXT_DIM);
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

void tn_ui_hud_draw(tn_gfx *g, const tn_world *w, const tn_view *v, const char *hover)
{
    char lines[HUD_MAX_LINES][160];
    uint32_t colour[HUD_MAX_LINES];
    int nl = 0;
    if (v->live)
        snprintf(lines[nl], sizeof lines[nl], "%3.0f fps   step %.3f ms   draw %.1f ms (%s)   frame %ld",
                 v->fps, v->step_ms, v->frame_ms, v->renderer ? v->renderer : "?", w->frame);
    else
        snprintf(lines[nl], sizeof lines[nl], "offscreen render   frame %ld", w->frame);
    colour[nl++] = TN_COL_TEXT;
    snprintf(lines[nl], sizeof lines[nl], "tool %d %s: %s", (int)w->tool + 1,
             tn_tool_name(w->tool), TOOL_HINT[(unsigned)w->tool < TN_TOOL_COUNT ? w->tool : 0]);
    colour[nl++] = TN_COL_ACCENT;
    snprintf(lines[nl], sizeof lines[nl], "right: block  shift+right/middle: one-way  wheel: zoom");
    colour[nl++] = TN_COL_TEXT_DIM;
    if (hover && hover[0]) {
        snprintf(lines[nl], sizeof lines[nl], "%s", hover);
        colour[nl++] = TN_COL_TEXT_DIM;
    }
    char hud[1024];
    tn_world_hud(w, hud, sizeof hud);
    for (char *s = hud; *s && nl < HUD_MAX_LINES;) {
        char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len > 0) {
            snprintf(lines[nl], sizeof lines[nl], "%.*s", (int)len, s);
            colour[nl++] = TN_COL_TEXT;
        }
        s += len + (e ? 1 : 0);
    }

    int lh = tn_gfx_line_height(g, TN_FONT_MONO), wmax = 0;
    for (int i = 0; i < nl; i++) wmax = tn_maxi(wmax, tn_gfx_text_width(g, TN_FONT_MONO, lines[i]));
    const char *unsaved = "  \xe2\x97\x8f unsaved (Ctrl+S)";
    int uw = w->dirty ? tn_gfx_text_width(g, TN_FONT_MONO, unsaved) : 0;
    wmax = tn_maxi(wmax, tn_gfx_text_width(g, TN_FONT_MONO, lines[0]) + uw);
    float x = 8, y = 8;
    tn_gfx_rect(g, x, y, (float)(wmax + 16), (float)(nl * lh + 10), TN_COL_HUD_BG);
    for (int i = 0; i < nl; i++) {
        int tw = tn_gfx_text(g, TN_FONT_MONO, x + 8, y + 5 + (float)(i * lh), lines[i], colour[i]);
        if (i == 0 && w->dirty) tn_gfx_text(g, TN_FONT_MONO, x + 8 + (float)tw, y + 5, unsaved,
                                            TN_COL_WARN);
    }

    /* the world's message, fading out over its last half second */
    if (w->message_ttl > 0 && w->message[0]) {
        int a = w->message_ttl >= 30 ? 255 : w->message_ttl * 255 / 30;
        int mw = tn_gfx_text_width(g, TN_FONT_UI, w->message);
        int mh = tn_gfx_line_height(g, TN_FONT_UI);
        float mx = (float)(TN_VIEW_W - mw) * 0.5f, my = (float)(TN_VIEW_H - mh - 28);
        if (mx < 8) mx = 8;
        SDL_Rect clip = {0, 0, TN_VIEW_W, TN_VIEW_H}; /* a long message stays off the panel */
        tn_gfx_clip(g, &clip);
        uint32_t bg = (TN_COL_HUD_BG & 0xffffff00u) | (uint32_t)(a * 0xd0 / 255);
        tn_gfx_rect(g, mx - 12, my - 6, (float)mw + 24, (float)mh + 12, bg);
        tn_gfx_rect(g, mx - 12, my - 6, 3, (float)mh + 12, (TN_COL_WARN & 0xffffff00u) | (uint32_t)a);
        tn_gfx_text(g, TN_FONT_UI, mx, my, w->message, (TN_COL_WARN & 0xffffff00u) | (uint32_t)a);
        tn_gfx_clip(g, NULL);
    }
}

/* ---------------------------------------------------------------- help */

static const char *const HELP_CONTROLS[][2] = {
    {"A D  /  \xe2\x86\x90 \xe2\x86\x92", "walk"},
    {"W  \xe2\x86\x91  Space", "jump (hold for a higher jump)"},
    {"S  \xe2\x86\x93", "drop through a one-way platform"},
    {"left click", "use the current tool"},
    {"right click / drag", "toggle / paint blocks"},
    {"shift+right, middle", "toggle / paint one-way platforms"},
    {"mouse wheel", "zoom"},
    {"side panel", "drag a slider; click a tool or an overlay"},
    {"1 - 8", "tool: goto block oneway spawn dest item navpath target"},
    {"P  X  F", "overlays: path, explored states, flow field"},
    {"N  C  V", "overlays: navmesh, companion, wanderers"},
    {"B  /  shift+B", "add / remove a bot"},
    {"M  /  shift+M", "add / remove a wanderer"},
    {"Ctrl+S", "save the map"},
    {"R", "restore MAP.autosave (offered at start when one exists)"},
    {"F12", "screenshot (tilenav-NNN.bmp)"},
    {"F1", "this help"},
    {"Esc", "quit (unsaved edits go to MAP.autosave)"},
};

static void legend_tile(tn_gfx *g, float x, float y, int kind)
{
    const float s = 18;
    tn_gfx_rect(g, x, y, s, s, TN_COL_EMPTY);
    switch (kind) {
    case 0: tn_gfx_frame(g, x, y, s, s, 1, TN_COL_GRID); break;
    case 1:
        tn_gfx_rect(g, x, y, s, s, TN_COL_BLOCK);
        tn_gfx_rect(g, x, y, s, 3, TN_COL_BLOCK_TOP);
        break;
    case 2:
        tn_gfx_rect(g, x, y, s, 5, TN_COL_ONEWAY);
        tn_gfx_rect(g, x, y + 5, s, 1, TN_COL_ONEWAY_EDGE);
        break;
    case 3:
        tn_gfx_rect(g, x + 3, y + 3, s - 6, s - 6, TN_COL_SPAWN_EDGE);
        tn_gfx_rect(g, x + 4, y + 4, s - 8, s - 8, TN_COL_SPAWN);
        break;
    case 4:
        tn_gfx_circle(g, x + s / 2, y + s / 2, s / 2 - 2, TN_COL_DEST_EDGE);
        tn_gfx_circle(g, x + s / 2, y + s / 2, s / 2 - 3.5f, TN_COL_DEST);
        break;
    case 5:
        tn_gfx_tri(g, x + s / 2, y + 2, x + s - 3, y + s / 2, x + s / 2, y + s - 2, TN_COL_ITEM);
        tn_gfx_tri(g, x + s / 2, y + 2, x + s / 2, y + s - 2, x + 3, y + s / 2, TN_COL_ITEM);
        break;
    case 6:
        tn_gfx_rect(g, x + 4, y - 8, s - 8, s + 8, TN_COL_CHAR_EDGE);
        tn_gfx_rect(g, x + 5, y - 7, s - 10, s + 6, TN_COL_CHAR);
        break;
    }
}

void tn_ui_help_draw(tn_gfx *g)
{
    tn_gfx_rect(g, 0, 0, TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H, 0x05070cb8u);
    const float bw = 900, bh = 544;
    float bx = (TN_GAME_LOGICAL_W - bw) / 2, by = (TN_GAME_LOGICAL_H - bh) / 2;
    tn_gfx_rect(g, bx, by, bw, bh, 0x151a26ffu);
    tn_gfx_frame(g, bx, by, bw, bh, 1, TN_COL_PANEL_EDGE);
    tn_gfx_rect(g, bx, by, bw, 3, TN_COL_ACCENT);
    tn_gfx_text(g, TN_FONT_TITLE, bx + 24, by + 18, "tilenav controls", TN_COL_TEXT);
    tn_gfx_text(g, TN_FONT_SMALL, bx + 24, by + 44,
                "F1, Esc or a click closes this help. Scripts and --headless runs drive the "
                "same world: see README.",
                TN_COL_TEXT_DIM);
    float y = by + 74;
    int lh = 26;
    for (size_t i = 0; i < sizeof HELP_CONTROLS / sizeof HELP_CONTROLS[0]; i++) {
        tn_gfx_text(g, TN_FONT_MONO, bx + 24, y + 1, HELP_CONTROLS[i][0], TN_COL_ACCENT);
        tn_gfx_text(g, TN_FONT_UI, bx + 200, y, HELP_CONTROLS[i][1], TN_COL_TEXT);
        y += (float)lh;
    }
    /* legend */
    static const char *const LEGEND[] = {"empty", "block", "one-way platform", "enemy spawn (S)",
                                         "destination (D)", "item (*)", "character (P)"};
    float lx = bx + bw - 220, ly = by + 74;
    tn_gfx_text(g, TN_FONT_SMALL, lx, ly, "LEGEND", TN_COL_ACCENT);
    ly += 24;
    for (int i = 0; i < 7; i++) {
        legend_tile(g, lx, ly + (i == 6 ? 8 : 0), i);
        tn_gfx_text(g, TN_FONT_UI, lx + 30, ly + (i == 6 ? 4 : 0), LEGEND[i], TN_COL_TEXT);
        ly += i == 5 ? 40 : 30;
    }
    tn_gfx_text(g, TN_FONT_SMALL, lx, ly + 16, "Tiles are 16 px; x from the left,",
                TN_COL_TEXT_DIM);
    tn_gfx_text(g, TN_FONT_SMALL, lx, ly + 32, "y from the top, both from 0.", TN_COL_TEXT_DIM);
}
