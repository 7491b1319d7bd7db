/* gfx.c - the drawing layer: fonts, glyph atlases and the geometry batch
 * (tn_fonts_*, tn_gfx_*): rectangles, frames, lines, circles, rings and
 * text in one batched draw.  No widgets here: ui.c draws the panel, HUD,
 * bar, help, inspect card and picker with these calls.  See ui.h. */
#define _POSIX_C_SOURCE 200809L /* getcwd */
#include "ui.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

/* ---------------------------------------------------------------- fonts */

#ifndef TN_BAKED_FONTS
static const struct {
    const char *file;
    int size;
    int style;
} FONT_SPEC[TN_FONT_COUNT] = {
    [TN_FONT_UI] = {"DejaVuSans.ttf", 14, TTF_STYLE_NORMAL},
    [TN_FONT_TITLE] = {"DejaVuSans.ttf", 19, TTF_STYLE_BOLD},
    [TN_FONT_SMALL] = {"DejaVuSans.ttf", 12, TTF_STYLE_NORMAL},
    [TN_FONT_MONO] = {"DejaVuSansMono.ttf", 13, TTF_STYLE_NORMAL},
    [TN_FONT_TINY] = {"DejaVuSansMono.ttf", 12, TTF_STYLE_NORMAL},
};

static const char *const FONT_FILES[2] = {"DejaVuSans.ttf", "DejaVuSansMono.ttf"};

/* A font file larger than this is not one of the game's (DejaVuSans.ttf
 * is 0.7 MB): refused before it is read, never a read of gigabytes (SDL's
 * SDL_LoadFile crashed when such a read ran out of memory). */
#define FONT_FILE_MAX ((size_t)64 << 20)

/* The font file at `path` into *out (free()d by the caller): 0, or -1
 * with why in err.  A missing file says where a relative path was looked
 * for and which option points to the fonts; any other problem (a FIFO or
 * a directory, refused at once and never waited on; a file too large)
 * names the file. */
static int read_font(const char *path, void **out, size_t *len, char *err, size_t cap)
{
    struct stat st;
    if (stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
        char cwd[512] = "";
        if (path[0] != '/' && !getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
        snprintf(err, cap,
                 "font %s does not exist%s%s%s; give --assets DIR, the directory that holds %s "
                 "and %s (assets/ in the source tree)",
                 path, cwd[0] ? " (relative to the current directory, " : "", cwd,
                 cwd[0] ? ")" : "", FONT_FILES[0], FONT_FILES[1]);
        return -1;
    }
    char *buf, rerr[768];
    if (tn_read_file(path, FONT_FILE_MAX, &buf, len, rerr, sizeof rerr) != 0) {
        snprintf(err, cap, "font %s", rerr); /* "font PATH: problem" */
        return -1;
    }
    *out = buf;
    return 0;
}

int tn_fonts_open(tn_fonts *fonts, const char *assets_dir, char *err, size_t cap)
{
    memset(fonts, 0, sizeof *fonts);
    size_t size[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", assets_dir ? assets_dir : "assets", FONT_FILES[i]);
        /* In memory, FreeType reads glyphs with memcpy instead of a seek and
         * a read per glyph (this made building the atlases 10x faster). */
        if (read_font(path, &fonts->file[i], &size[i], err, cap) != 0) {
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
        free(fonts->file[i]);
        fonts->file[i] = NULL;
    }
}
#endif

/* ---------------------------------------------------------- glyph atlas */

/* Glyph slots: ASCII 32..126, Latin-1 160..255, then these. */
static const uint32_t EXTRA_CP[] = {
    0x2190, 0x2191, 0x2192, 0x2193, /* arrows */
    0x2022, 0x00b7, 0x2013, 0x2014, 0x2026, 0x2212, 0x2264, 0x2265, 0x2248, 0x221e, 0x2713, 0x25b2,
    0x25bc, 0x25cf, 0x25cb, 0x03bc, 0x0394, 0x03b1, 0x03b8, 0x2318, 0x21e7, 0x25b6, 0x25a0, 0x25c6,
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
    if (c < 0x80)
        n = 0;
    else if ((c & 0xe0) == 0xc0)
        n = 1, c &= 0x1f;
    else if ((c & 0xf0) == 0xe0)
        n = 2, c &= 0x0f;
    else if ((c & 0xf8) == 0xf0)
        n = 3, c &= 0x07;
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
    SDL_Surface *sheet =
        SDL_CreateRGBSurfaceWithFormat(0, ATLAS_W, ATLAS_H, 32, SDL_PIXELFORMAT_ARGB8888);
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
        if (w != ATLAS_W || h < 1 || h > ATLAS_H)
            why = "bad sheet size";
        else if (line_h < 1 || line_h > 256)
            why = "bad line height";
        for (int k = 0; !why && k < TN_GLYPHS; k++) {
            const unsigned char *q = p + 12 + 24 * k;
            int x = (int)rd32(q), y = (int)rd32(q + 4), gw = (int)rd32(q + 8),
                gh = (int)rd32(q + 12);
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
    SDL_Surface *sheet =
        SDL_CreateRGBSurfaceWithFormat(0, ATLAS_W, ATLAS_H, 32, SDL_PIXELFORMAT_ARGB8888);
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
    for (int i = 0; i < 2; i++)
        if (g->layer.tex[i]) SDL_DestroyTexture(g->layer.tex[i]);
    for (int i = 0; i < TN_FONT_COUNT; i++)
        if (g->atlas[i].tex) SDL_DestroyTexture(g->atlas[i].tex);
    SDL_free(g->vert);
    SDL_free(g->rects);
    memset(g, 0, sizeof *g);
}

static void flush_tris(tn_gfx *g)
{
    if (g->nvert == 0) return;
    SDL_SetRenderDrawBlendMode(g->r,
                               g->tri_opaque && !g->tex ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
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
    g->verts++;
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

/* Output pixels per logical pixel (the window's logical-size scale; 1 on
 * a target texture). */
static void out_scale(tn_gfx *g, float *sx, float *sy)
{
    SDL_RenderGetScale(g->r, sx, sy);
    if (!(*sx > 0)) *sx = 1;
    if (!(*sy > 0)) *sy = 1;
}

/* Small blended triangles in the software renderer: SDL fills each one
 * through a surface of its own (an allocation, a clear and a blit: about
 * 1 us for 2 pixels), so one this small is cut into its rows of output
 * pixels here, batched rectangles that cover the pixels whose centres are
 * inside, as SDL's fill does.  False when the triangle is not small. */
#define SMALL_TRI_ROWS 8
#define SHORT_LINE_PX 12 /* tn_gfx_line draws shorter thin lines itself */
static bool small_tri(tn_gfx *g, float x0, float y0, float x1, float y1, float x2, float y2,
                      uint32_t rgba)
{
    float sx, sy;
    out_scale(g, &sx, &sy);
    /* whole output pixels, as SDL's software renderer takes them (it
       truncates the vertices, then fills the pixels whose centres are in) */
    float X[3] = {(float)(int)(x0 * sx), (float)(int)(x1 * sx), (float)(int)(x2 * sx)};
    float Y[3] = {(float)(int)(y0 * sy), (float)(int)(y1 * sy), (float)(int)(y2 * sy)};
    float ylo = fminf(Y[0], fminf(Y[1], Y[2])), yhi = fmaxf(Y[0], fmaxf(Y[1], Y[2]));
    float xlo = fminf(X[0], fminf(X[1], X[2])), xhi = fmaxf(X[0], fmaxf(X[1], X[2]));
    if (!(yhi - ylo <= SMALL_TRI_ROWS) || !(xhi - xlo <= 4 * SMALL_TRI_ROWS)) return false;
    for (int py = (int)floorf(ylo); (float)py < yhi; py++) {
        float yc = (float)py + 0.5f, xl = 1e30f, xr = -1e30f;
        for (int i = 0; i < 3; i++) {
            int j = (i + 1) % 3;
            if ((Y[i] <= yc) == (Y[j] <= yc)) continue; /* the edge does not cross the row */
            float x = X[i] + (yc - Y[i]) / (Y[j] - Y[i]) * (X[j] - X[i]);
            xl = fminf(xl, x);
            xr = fmaxf(xr, x);
        }
        int a = (int)ceilf(xl - 0.5f), b = (int)ceilf(xr - 0.5f); /* centres in [xl, xr) */
        if (b > a)
            tn_gfx_rect(g, (float)a / sx, (float)py / sy, (float)(b - a) / sx, 1.0f / sy, rgba);
    }
    return true;
}

void tn_gfx_tri(tn_gfx *g, float x0, float y0, float x1, float y1, float x2, float y2,
                uint32_t rgba)
{
    if ((rgba & 0xff) == 0) return;
    if (g->software && (rgba & 0xff) != 0xff && small_tri(g, x0, y0, x1, y1, x2, y2, rgba)) return;
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
    g->rects_drawn++;
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
        float sx, sy;
        out_scale(g, &sx, &sy);
        /* an axis-aligned one is a rectangle: batched, not a call of its own */
        if (x0 == x1 && width * sx < 1.5f) {
            float px = floorf(x0 * sx), a = floorf(fminf(y0, y1) * sy),
                  b = floorf(fmaxf(y0, y1) * sy) + 1;
            tn_gfx_rect(g, px / sx, a / sy, 1.0f / sx, (b - a) / sy, rgba);
            return;
        }
        if (y0 == y1 && width * sy < 1.5f) {
            float py = floorf(y0 * sy), a = floorf(fminf(x0, x1) * sx),
                  b = floorf(fmaxf(x0, x1) * sx) + 1;
            tn_gfx_rect(g, a / sx, py / sy, (b - a) / sx, 1.0f / sy, rgba);
            return;
        }
        /* a short one: its pixels as batched rectangles, one per run in a
           row (each line a call of its own cost ~1 us; a large mesh at a
           small zoom has 100,000s of edges a few pixels long) */
        int ax = (int)(x0 * sx), ay = (int)(y0 * sy); /* truncated, as SDL's */
        int bx = (int)(x1 * sx), by = (int)(y1 * sy);
        int n = abs(bx - ax) > abs(by - ay) ? abs(bx - ax) : abs(by - ay);
        if (n <= SHORT_LINE_PX) {
            int rx = ax, ry = ay, len = 0;
            for (int i = 0; i <= n; i++) {
                /* the nearest pixel, a tie toward the end (as SDL's line) */
                int ddx = (bx - ax) * i, ddy = (by - ay) * i;
                int px = n ? ax + (2 * ddx + (ddx < 0 ? -n : n)) / (2 * n) : ax;
                int py = n ? ay + (2 * ddy + (ddy < 0 ? -n : n)) / (2 * n) : ay;
                if (len > 0 && py == ry && px == rx + len) {
                    len++;
                    continue;
                }
                if (len > 0 && py == ry && px == rx - 1) { /* leftwards */
                    rx = px;
                    len++;
                    continue;
                }
                if (len > 0)
                    tn_gfx_rect(g, (float)rx / sx, (float)ry / sy, (float)len / sx, 1.0f / sy,
                                rgba);
                rx = px;
                ry = py;
                len = 1;
            }
            tn_gfx_rect(g, (float)rx / sx, (float)ry / sy, (float)len / sx, 1.0f / sy, rgba);
            return;
        }
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
    if (g->software && width <= 2.0f) { /* one polyline, as thin lines (tn_gfx_line): the
                                           software renderer fills each blended triangle
                                           of a ring's quads through a surface of its own */
        SDL_FPoint p[73];
        float step = 6.2831853f / (float)n, cs = cosf(step), sn = sinf(step), ux = 1, uy = 0;
        for (int i = 0; i < n; i++) {
            p[i].x = cx + r * ux;
            p[i].y = cy + r * uy;
            float vx = ux * cs - uy * sn, vy = ux * sn + uy * cs;
            ux = vx;
            uy = vy;
        }
        p[n] = p[0];
        tn_gfx_flush(g);
        SDL_SetRenderDrawBlendMode(g->r, (rgba & 0xff) == 0xff ? SDL_BLENDMODE_NONE
                                                               : SDL_BLENDMODE_BLEND);
        SDL_SetRenderDrawColor(g->r, (Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8),
                               (Uint8)rgba);
        SDL_RenderDrawLinesF(g->r, p, n + 1);
        return;
    }
    SDL_Color c = rgba_color(rgba);
    float ri = r - width * 0.5f, ro = r + width * 0.5f;
    if (ri < 0) ri = 0;
    float step = 6.2831853f / (float)n, cs = cosf(step), sn = sinf(step);
    float ux = 1, uy = 0;
    for (int i = 0; i < n; i++) {
        float vx = ux * cs - uy * sn, vy = ux * sn + uy * cs;
        if (i == n - 1) vx = 1, vy = 0;
        quad(g, cx + ri * ux, cy + ri * uy, cx + ro * ux, cy + ro * uy, cx + ro * vx, cy + ro * vy,
             cx + ri * vx, cy + ri * vy, c);
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
            float u1 = (float)(gl->src.x + gl->src.w) * ku,
                  v1 = (float)(gl->src.y + gl->src.h) * kv;
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
