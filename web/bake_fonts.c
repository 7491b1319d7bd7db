/* tilenav-bake-fonts: write the glyph atlases of the game's fonts to one
 * file for the browser build, which has no FreeType (format: ui.h,
 * TN_BAKED_FONTS).  The atlases come from the same code as the window's
 * (tn_atlas_sheet), so the page shows the same glyphs.
 *
 * usage: tilenav-bake-fonts ASSETS_DIR OUT_FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

static void put32(FILE *f, int v)
{
    unsigned u = (unsigned)v;
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                          (unsigned char)(u >> 24)};
    fwrite(b, 1, 4, f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: tilenav-bake-fonts ASSETS_DIR OUT_FILE\n");
        return 2;
    }
    char err[512], tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
    if (SDL_Init(0) != 0 || TTF_Init() != 0) {
        fprintf(stderr, "tilenav-bake-fonts: SDL: %s\n", SDL_GetError());
        return 1;
    }
    tn_fonts fonts;
    if (tn_fonts_open(&fonts, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "tilenav-bake-fonts: %s\n", err);
        return 1;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "tilenav-bake-fonts: cannot write %s\n", tmp);
        return 1;
    }
    fwrite(TN_BAKED_FONTS_MAGIC, 1, 8, f);
    int rc = 0;
    for (int i = 0; i < TN_FONT_COUNT && rc == 0; i++) {
        tn_atlas a;
        SDL_Surface *s = tn_atlas_sheet(&a, fonts.f[i], err, sizeof err);
        if (!s) {
            fprintf(stderr, "tilenav-bake-fonts: %s\n", err);
            rc = 1;
            break;
        }
        int h = 1; /* only the rows glyphs use */
        for (int k = 0; k < TN_GLYPHS; k++)
            if (a.g[k].src.y + a.g[k].src.h > h) h = a.g[k].src.y + a.g[k].src.h;
        put32(f, a.height);
        put32(f, s->w);
        put32(f, h);
        for (int k = 0; k < TN_GLYPHS; k++) {
            put32(f, a.g[k].src.x);
            put32(f, a.g[k].src.y);
            put32(f, a.g[k].src.w);
            put32(f, a.g[k].src.h);
            put32(f, a.g[k].xoff);
            put32(f, a.g[k].adv);
        }
        SDL_LockSurface(s);
        for (int y = 0; y < h; y++) {
            const Uint32 *row = (const Uint32 *)((const Uint8 *)s->pixels + y * s->pitch);
            for (int x = 0; x < s->w; x++) fputc((int)(row[x] >> 24), f); /* ARGB8888: alpha */
        }
        SDL_UnlockSurface(s);
        SDL_FreeSurface(s);
    }
    if (fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "tilenav-bake-fonts: cannot write %s\n", tmp);
        rc = 1;
    }
    if (rc == 0 && rename(tmp, argv[2]) != 0) {
        fprintf(stderr, "tilenav-bake-fonts: cannot rename %s to %s\n", tmp, argv[2]);
        rc = 1;
    }
    if (rc != 0) remove(tmp);
    tn_fonts_close(&fonts);
    TTF_Quit();
    SDL_Quit();
    return rc;
}
