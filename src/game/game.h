/* game.h - the SDL2 front end's entry points, called from main.c.
 *
 * The front end draws the world and sends it commands; it holds no AI logic.
 * Everything a subsystem has to show comes through tn_world_draw() and the
 * debug-draw interface (tn_debug.h); the front end draws tiles, the
 * character, the UI (sliders, HUD, help) and implements the callbacks.
 */
#ifndef TN_GAME_H
#define TN_GAME_H

#include "tn_world.h"

struct tn_script;

typedef struct tn_game_opts {
    const char *map_path;          /* file the world was loaded from: Ctrl+S saves here,
                                  quitting with unsaved edits writes MAP.autosave */
    const char *assets_dir;        /* holds DejaVuSans.ttf */
    long frames;                   /* stop after this many steps; 0 = run until quit */
    struct tn_script *script;      /* optional: commands applied at their frames */
    unsigned overlays;             /* initial TN_OVERLAY_* bits */
    const char *const *extra_maps; /* more maps for the picker (Tab), e.g. Moving AI */
    int nextra;
} tn_game_opts;

#define TN_GAME_LOGICAL_W 1280
#define TN_GAME_LOGICAL_H 720

/* Open the resizable window and play until Esc / close / opts->frames.
 * Returns the process exit code (0 = fine).  In a browser (__EMSCRIPTEN__)
 * it returns 0 at once and the page's animation frames run the loop, so w
 * and opts must live as long as the page; the end calls tn_web_stopped(). */
int tn_game_run(tn_world *w, const tn_game_opts *opts);

#ifdef __EMSCRIPTEN__
/* The browser build's hooks (web/web_main.c). */
void tn_web_saved(const char *path); /* after a save: keep it, offer a download */
void tn_web_stopped(int rc);         /* the game ended (Esc) with this exit code */
void tn_web_sync(void);              /* flush /save (autosave, settings) to IndexedDB */
/* Offer the file as a download (type: its MIME type). */
void tn_web_offer(const char *path, const char *type);
#endif

/* Render the current world offscreen with SDL's software renderer (no
 * display needed) at 1280x720 and write a BMP to `path`.  Returns 0, or -1
 * with a message in err. */
int tn_game_screenshot(tn_world *w, const char *assets_dir, const char *path, unsigned overlays,
                       char *err, size_t errcap);

/* Open and close the fonts tn_game_screenshot will need: 0, or -1 with
 * its message (a missing font named), so a --screenshot run can be
 * refused before its steps rather than after them. */
int tn_game_fonts_check(const char *assets_dir, char *err, size_t errcap);

#endif
