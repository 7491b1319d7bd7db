/* app.c - the interactive window: events, input, the fixed-step loop.
 *
 * Loop: the world advances in fixed 1/60 s steps from an accumulator fed
 * by the real frame time, so the simulation does not depend on the frame
 * rate.  At most MAX_CATCHUP steps run per frame (after a stall the backlog
 * is dropped rather than replayed as a burst); the character is drawn
 * interpolated between its last two step positions by the fraction of a
 * step left in the accumulator.  The frame rate follows vsync when the
 * renderer has it, and is capped at 240 Hz otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "game.h"
#include "render.h"
#include "script.h"
#include "ui.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#define STEP_S (1.0 / 60.0)
#define MAX_CATCHUP 5
#define MIN_FRAME_S (1.0 / 240.0)

static double now_s(void)
{
    return (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency();
}

typedef struct app {
    tn_world *w;
    const tn_game_opts *opts;
    SDL_Window *win;
    SDL_Renderer *ren;
    tn_fonts fonts;
    tn_gfx gfx;
    tn_view view;
    float prev_x, prev_y; /* character before the last step */
    /* painting with a held button: which terrain and whether it is being
     * added (true) or removed; last tile painted */
    int paint_button;     /* SDL button, 0 = not painting */
    int paint_kind;       /* TN_TILE_BLOCK / TN_TILE_ONEWAY */
    bool paint_on;
    int paint_x, paint_y;
    int shot_counter;
    bool restore_offered; /* MAP.autosave existed at start: R restores it */
    bool quit;
} app;

/* -------------------------------------------------------------- saving */

static int save_map(app *a, const char *path)
{
    char err[512];
    if (tn_save_map(a->w->map, path, err, sizeof err) != 0) {
        tn_world_message(a->w, "save failed: %s", err);
        fprintf(stderr, "tilenav: %s\n", err);
        return -1;
    }
    if (a->opts->map_path && strcmp(path, a->opts->map_path) == 0) {
        a->w->dirty = false;
        /* The map file now holds these edits: an older autosave is stale. */
        char autosave_path[1024];
        tn_autosave_path(path, autosave_path, sizeof autosave_path);
        remove(autosave_path);
        a->restore_offered = false;
    }
#ifdef __EMSCRIPTEN__
    tn_web_saved(path); /* into the browser's storage, and offered as a download */
#endif
    return 0;
}

/* Starting a map whose autosave exists offers to restore it (R). */
static void offer_restore(app *a)
{
    if (!a->opts->map_path) return;
    char path[1024];
    tn_autosave_path(a->opts->map_path, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) return;
    fclose(f);
    a->restore_offered = true;
    tn_world_message(a->w, "%s holds edits that were never saved: press R to restore them", path);
    a->w->message_ttl = 60 * 20;
}

static void restore(app *a)
{
    char path[1024], err[512];
    tn_autosave_path(a->opts->map_path, path, sizeof path);
    tn_map *m;
    tn_error e;
    if (tn_load_map(path, &m, err, sizeof err) != 0) {
        tn_world_message(a->w, "cannot restore: %s", err);
        return;
    }
    if (tn_failed(tn_world_replace_map(a->w, m, &e))) {
        tn_world_message(a->w, "cannot restore: %s", e.msg);
        return;
    }
    a->w->dirty = true; /* restored edits are not in the map file until Ctrl+S */
    a->restore_offered = false;
    a->prev_x = a->w->character.x;
    a->prev_y = a->w->character.y;
    tn_world_message(a->w, "restored %s: Ctrl+S writes it to %s", path, a->opts->map_path);
}

static void screenshot(app *a)
{
    char path[64], err[512];
    for (;;) {
        snprintf(path, sizeof path, "tilenav-%03d.bmp", ++a->shot_counter);
        FILE *f = fopen(path, "rb");
        if (!f) break;
        fclose(f);
    }
    tn_view v = a->view;
    v.mouse_in = false; /* no hover frame in the picture */
    if (tn_render_offscreen(a->w, &a->fonts, &v, path, err, sizeof err) != 0)
        tn_world_message(a->w, "screenshot failed: %s", err);
    else
        tn_world_message(a->w, "screenshot written: %s", path);
}

/* script host */
static int host_save(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    app *a = user;
    if (tn_save_map(w->map, path, err, cap) != 0) return -1;
    if (a->opts->map_path && strcmp(path, a->opts->map_path) == 0) w->dirty = false;
    return 0;
}

static int host_screenshot(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    app *a = user;
    tn_view v = a->view;
    v.mouse_in = false;
    return tn_render_offscreen(w, &a->fonts, &v, path, err, cap);
}

/* -------------------------------------------------------------- input */

static tn_input keyboard_input(void)
{
    tn_input in = {false, false, false, false};
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    SDL_Keymod mod = SDL_GetModState();
    bool letters = !(mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI));
    in.left = k[SDL_SCANCODE_LEFT] || (letters && k[SDL_SCANCODE_A]);
    in.right = k[SDL_SCANCODE_RIGHT] || (letters && k[SDL_SCANCODE_D]);
    in.jump = k[SDL_SCANCODE_UP] || k[SDL_SCANCODE_SPACE] || (letters && k[SDL_SCANCODE_W]);
    in.down = k[SDL_SCANCODE_DOWN] || (letters && k[SDL_SCANCODE_S]);
    return in;
}

static void change_count(app *a, const char *param, int delta)
{
    double n;
    if (!tn_world_get(a->w, param, &n)) {
        tn_world_message(a->w, "%s are not available yet", param);
        return;
    }
    tn_error err;
    tn_world_set(a->w, param, n + delta, &err); /* refusals show in the HUD */
}

static const struct {
    SDL_Keycode key;
    unsigned bit;
    const char *name;
} OVERLAY_KEYS[] = {
    {SDLK_p, TN_OVERLAY_PATH, "path"},         {SDLK_x, TN_OVERLAY_EXPLORED, "explored states"},
    {SDLK_f, TN_OVERLAY_FLOW, "flow field"},   {SDLK_n, TN_OVERLAY_NAVMESH, "navmesh"},
    {SDLK_c, TN_OVERLAY_COMPANION, "companion"}, {SDLK_v, TN_OVERLAY_WANDERERS, "wanderers"},
};

static void key_down(app *a, const SDL_KeyboardEvent *k)
{
    SDL_Keycode sym = k->keysym.sym;
    Uint16 mod = k->keysym.mod;
    bool ctrl = mod & KMOD_CTRL, shift = mod & KMOD_SHIFT;
    if (sym == SDLK_ESCAPE) {
        if (a->view.show_help) a->view.show_help = false;
        else a->quit = true;
        return;
    }
    if (k->repeat) return;
    if (ctrl) {
        if (sym == SDLK_s) {
            if (!a->opts->map_path) {
                tn_world_message(a->w, "no map file to save to");
            } else if (save_map(a, a->opts->map_path) == 0) {
                tn_world_message(a->w, "saved %s", a->opts->map_path);
            }
        }
        return;
    }
    if (sym == SDLK_F1) {
        a->view.show_help = !a->view.show_help;
        return;
    }
    if (sym == SDLK_F12) {
        screenshot(a);
        return;
    }
    if (sym >= SDLK_1 && sym <= SDLK_8) {
        tn_world_set_tool(a->w, (tn_tool)(sym - SDLK_1));
        return;
    }
    for (size_t i = 0; i < sizeof OVERLAY_KEYS / sizeof OVERLAY_KEYS[0]; i++) {
        if (sym != OVERLAY_KEYS[i].key) continue;
        a->view.overlays ^= OVERLAY_KEYS[i].bit;
        tn_world_message(a->w, "overlay %s: %s", OVERLAY_KEYS[i].name,
                         a->view.overlays & OVERLAY_KEYS[i].bit ? "on" : "off");
        return;
    }
    if (sym == SDLK_r && a->restore_offered) restore(a);
    else if (sym == SDLK_b) change_count(a, "bots", shift ? -1 : 1);
    else if (sym == SDLK_m) change_count(a, "wanderers", shift ? -1 : 1);
}

static bool mouse_tile(app *a, int x, int y, int *tx, int *ty)
{
    tn_camera c = tn_camera_make(a->w, &a->view);
    return tn_camera_tile_at(&c, a->w->map, x, y, tx, ty);
}

/* Paint along the tiles from the last painted one to (tx, ty). */
static void paint_to(app *a, int tx, int ty)
{
    int x = a->paint_x, y = a->paint_y;
    int dx = abs(tx - x), dy = -abs(ty - y), sx = x < tx ? 1 : -1, sy = y < ty ? 1 : -1;
    int e = dx + dy;
    while (x != tx || y != ty) {
        int e2 = 2 * e;
        if (e2 >= dy) { e += dy; x += sx; }
        if (e2 <= dx) { e += dx; y += sy; }
        int t = tn_map_tile(a->w->map, x, y);
        if (tn_map_inside(a->w->map, x, y) && (t == a->paint_kind) != a->paint_on) {
            tn_error err;
            tn_world_edit(a->w, x, y, a->paint_kind == TN_TILE_BLOCK ? TN_EDIT_BLOCK : TN_EDIT_ONEWAY,
                          &err);
        }
    }
    a->paint_x = tx;
    a->paint_y = ty;
}

static void mouse_down(app *a, const SDL_MouseButtonEvent *b)
{
    int tx, ty;
    if (!mouse_tile(a, b->x, b->y, &tx, &ty)) return;
    bool shift = SDL_GetModState() & KMOD_SHIFT;
    tn_button btn;
    if (b->button == SDL_BUTTON_LEFT) btn = TN_CLICK_LEFT;
    else if (b->button == SDL_BUTTON_RIGHT) btn = TN_CLICK_RIGHT;
    else if (b->button == SDL_BUTTON_MIDDLE) btn = TN_CLICK_MIDDLE;
    else return;
    /* Which terrain this click toggles, for painting by dragging. */
    int kind = -1;
    if (btn == TN_CLICK_MIDDLE || (btn == TN_CLICK_RIGHT && shift)) kind = TN_TILE_ONEWAY;
    else if (btn == TN_CLICK_RIGHT) kind = TN_TILE_BLOCK;
    else if (a->w->tool == TN_TOOL_BLOCK) kind = TN_TILE_BLOCK;
    else if (a->w->tool == TN_TOOL_ONEWAY) kind = TN_TILE_ONEWAY;
    tn_error err;
    tn_status s = tn_world_click(a->w, tx, ty, btn, shift, &err);
    if (kind >= 0 && !tn_failed(s)) {
        a->paint_button = b->button;
        a->paint_kind = kind;
        a->paint_on = tn_map_tile(a->w->map, tx, ty) == kind;
        a->paint_x = tx;
        a->paint_y = ty;
    }
}

static void handle_event(app *a, const SDL_Event *ev)
{
    switch (ev->type) {
    case SDL_QUIT: a->quit = true; break;
    case SDL_KEYDOWN: key_down(a, &ev->key); break;
    case SDL_WINDOWEVENT:
        if (ev->window.event == SDL_WINDOWEVENT_LEAVE) a->view.mouse_in = false;
        if (ev->window.event == SDL_WINDOWEVENT_ENTER) a->view.mouse_in = true;
        break;
    case SDL_MOUSEMOTION:
        a->view.mouse_x = ev->motion.x;
        a->view.mouse_y = ev->motion.y;
        a->view.mouse_in = true;
        if (tn_ui_panel_mouse(&a->view, a->w, ev, ev->motion.x, ev->motion.y)) break;
        if (a->paint_button) {
            int tx, ty;
            if (mouse_tile(a, ev->motion.x, ev->motion.y, &tx, &ty)) paint_to(a, tx, ty);
        }
        break;
    case SDL_MOUSEBUTTONDOWN:
        a->view.mouse_x = ev->button.x;
        a->view.mouse_y = ev->button.y;
        if (a->view.show_help) { /* a click closes the help */
            a->view.show_help = false;
            break;
        }
        if (tn_ui_panel_mouse(&a->view, a->w, ev, ev->button.x, ev->button.y)) break;
        if (!a->paint_button) mouse_down(a, &ev->button);
        break;
    case SDL_MOUSEBUTTONUP:
        if (ev->button.button == a->paint_button) a->paint_button = 0;
        tn_ui_panel_mouse(&a->view, a->w, ev, ev->button.x, ev->button.y);
        break;
    case SDL_MOUSEWHEEL: {
        if (tn_ui_panel_mouse(&a->view, a->w, ev, a->view.mouse_x, a->view.mouse_y)) break;
        int z = a->view.zoom >= 0 ? a->view.zoom : tn_zoom_fit(a->w->map);
        int dy = ev->wheel.y;
        if (ev->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) dy = -dy;
        z = tn_clampi(z + (dy > 0 ? 1 : dy < 0 ? -1 : 0), 0, TN_ZOOM_LEVELS - 1);
        a->view.zoom = z;
        break;
    }
    default: break;
    }
}

/* ---------------------------------------------------------------- run */

/* Is the current OpenGL context (if any) a CPU rasterizer? */
static bool gl_is_software(void)
{
    if (!SDL_GL_GetCurrentContext()) return false;
    typedef const unsigned char *(*get_string_fn)(unsigned int);
    get_string_fn get_string;
    void *p = SDL_GL_GetProcAddress("glGetString");
    memcpy(&get_string, &p, sizeof get_string); /* object -> function pointer */
    const char *r = get_string ? (const char *)get_string(0x1F01 /* GL_RENDERER */) : NULL;
    return r && (strstr(r, "llvmpipe") || strstr(r, "softpipe") || strstr(r, "swrast") ||
                 strstr(r, "Software Rasterizer"));
}

static int open_window(app *a, char *err, size_t cap)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(err, cap, "cannot start SDL video: %s", SDL_GetError());
        return -1;
    }
    if (TTF_Init() != 0) {
        snprintf(err, cap, "SDL_ttf: %s", TTF_GetError());
        return -1;
    }
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear");
    /* A click that focuses the window also edits: SDL's X11 backend would
     * otherwise drop a click read in the same event batch as the focus
     * change (which made clicks vanish when a frame was slow). */
    SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1");
    a->win = SDL_CreateWindow("tilenav", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                              TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!a->win) {
        snprintf(err, cap, "cannot open a window: %s", SDL_GetError());
        return -1;
    }
    SDL_SetWindowMinimumSize(a->win, 640, 360);
    a->ren = SDL_CreateRenderer(a->win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (a->ren && !SDL_GetHint(SDL_HINT_RENDER_DRIVER) && gl_is_software()) {
        /* OpenGL emulated on the CPU (llvmpipe under Xvfb or in a VM) draws a
         * frame ~10x slower than SDL's own software renderer: use that. */
        SDL_DestroyRenderer(a->ren);
        a->ren = NULL;
    }
    if (!a->ren) a->ren = SDL_CreateRenderer(a->win, -1, SDL_RENDERER_SOFTWARE);
    if (!a->ren) {
        snprintf(err, cap, "cannot create a renderer: %s", SDL_GetError());
        return -1;
    }
    SDL_RenderSetLogicalSize(a->ren, TN_GAME_LOGICAL_W, TN_GAME_LOGICAL_H);
    if (tn_fonts_open(&a->fonts, a->opts->assets_dir, err, cap) != 0) return -1;
    if (tn_gfx_init(&a->gfx, a->ren, &a->fonts, err, cap) != 0) return -1;
    return 0;
}

static void close_window(app *a)
{
    tn_gfx_free(&a->gfx);
    tn_fonts_close(&a->fonts);
    if (a->ren) SDL_DestroyRenderer(a->ren);
    if (a->win) SDL_DestroyWindow(a->win);
    TTF_Quit();
    SDL_Quit();
}

/* Quitting with unsaved edits writes MAP.autosave and says so. */
static int autosave(app *a)
{
    if (!a->w->dirty) return 0;
    char path[1024], err[512];
    tn_autosave_path(a->opts->map_path ? a->opts->map_path : "tilenav.map", path, sizeof path);
    if (tn_save_map(a->w->map, path, err, sizeof err) != 0) {
        fprintf(stderr, "tilenav: unsaved edits lost: %s\n", err);
        return 1;
    }
    printf("tilenav: unsaved edits written to %s\n", path);
    fflush(stdout);
    return 0;
}

/* The loop's state between frames: tn_game_run()'s loop calls run_frame()
 * until quit; in a browser the animation frames call it (web_frame()). */
typedef struct loop_state {
    app a;
    tn_world *w;
    const tn_game_opts *opts;
    tn_script_host host;
    double (*old_clock)(void);
    double min_frame, last, acc, fps_t0, step_sum, draw_sum;
    int fps_frames, fps_steps, rc;
} loop_state;

static void run_frame(loop_state *L);
static int finish(loop_state *L);
#ifdef __EMSCRIPTEN__
static loop_state *web_loop; /* the page's game, for tn_web_state(); NULL once stopped */
static int web_rc = -1;      /* its exit code once stopped */

static void web_frame(void *arg)
{
    loop_state *L = arg;
    run_frame(L);
    if (!L->a.quit) return;
    emscripten_cancel_main_loop();
    web_loop = NULL; /* the window and renderer are gone */
    web_rc = finish(L);
    tn_web_stopped(web_rc);
}

/* For the page and its test (game.h): the HUD's figures and the world. */
EMSCRIPTEN_KEEPALIVE const char *tn_web_state(void)
{
    static char *buf;
    static size_t cap;
    loop_state *L = web_loop;
    if (!L) {
        static char stopped[48];
        snprintf(stopped, sizeof stopped, "{\"stopped\":%s,\"rc\":%d}", web_rc >= 0 ? "true" : "false",
                 web_rc);
        return stopped;
    }
    const tn_view *v = &L->a.view;
    size_t need = (size_t)tn_world_json(L->w, NULL, 0) + 256;
    if (need > cap) {
        char *nb = realloc(buf, need);
        if (!nb) return "{}";
        buf = nb;
        cap = need;
    }
    int ww = 0, wh = 0;
    SDL_GetWindowSize(L->a.win, &ww, &wh);
    int n = snprintf(buf, cap, "{\"fps\":%.2f,\"step_ms\":%.4f,\"frame_ms\":%.3f,\"renderer\":\"%s\","
                     "\"window\":[%d,%d],\"overlays\":%u,\"quit\":%s,\"world\":", v->fps, v->step_ms,
                     v->frame_ms, v->renderer ? v->renderer : "", ww, wh, v->overlays,
                     L->a.quit ? "true" : "false");
    n += tn_world_json(L->w, buf + n, cap - (size_t)n);
    snprintf(buf + n, cap - (size_t)n, "}");
    return buf;
}

/* Where the centre of tile (tx, ty) is in the page's canvas (CSS pixels):
 * "[x,y]", or "null" when the map view does not show it. */
EMSCRIPTEN_KEEPALIVE const char *tn_web_tile_xy(int tx, int ty)
{
    static char buf[64];
    loop_state *L = web_loop;
    if (!L) return "null";
    tn_camera c = tn_camera_make(L->w, &L->a.view);
    int lx = c.ox + tx * c.ts + c.ts / 2, ly = c.oy + ty * c.ts + c.ts / 2, cx, cy;
    if (!tn_camera_tile_at(&c, L->w->map, lx, ly, &cx, &cy) || cx != tx || cy != ty) return "null";
    int wx, wy;
    SDL_RenderLogicalToWindow(L->a.ren, (float)lx, (float)ly, &wx, &wy);
    snprintf(buf, sizeof buf, "[%d,%d]", wx, wy);
    return buf;
}
#endif

int tn_game_run(tn_world *w, const tn_game_opts *opts)
{
    app a;
    memset(&a, 0, sizeof a);
    a.w = w;
    a.opts = opts;
    char err[512];
    if (open_window(&a, err, sizeof err) != 0) {
        fprintf(stderr, "tilenav: %s\n", err);
        close_window(&a);
        return 1;
    }
    tn_view_init(&a.view, w, opts->overlays);
    a.view.live = true;
    offer_restore(&a);
    /* Without vsync, drawing faster than the display refreshes is wasted:
     * cap at its refresh rate (and at 240 Hz in any case). */
    SDL_RendererInfo info;
    double min_frame = MIN_FRAME_S;
    if (SDL_GetRendererInfo(a.ren, &info) == 0) {
        a.view.renderer = info.name;
        SDL_DisplayMode mode;
        if (!(info.flags & SDL_RENDERER_PRESENTVSYNC)) {
            int hz = SDL_GetWindowDisplayMode(a.win, &mode) == 0 && mode.refresh_rate > 0
                         ? mode.refresh_rate : 60;
            if (1.0 / hz > min_frame) min_frame = 1.0 / hz;
        }
    }
    a.prev_x = w->character.x;
    a.prev_y = w->character.y;
    double (*old_clock)(void) = w->clock;
    w->clock = now_s;

#ifdef __EMSCRIPTEN__
    static loop_state state; /* the browser calls web_frame() long after this returns */
#else
    loop_state state;
#endif
    loop_state *L = &state;
    memset(L, 0, sizeof *L);
    L->a = a; /* nothing holds &a: the copy is the app from here on */
    L->w = w;
    L->opts = opts;
    L->host = (tn_script_host){&L->a, host_save, host_screenshot};
    L->old_clock = old_clock;
    L->min_frame = min_frame;
    L->last = L->fps_t0 = now_s();
#ifdef __EMSCRIPTEN__
    L->min_frame = 0; /* the browser paces the frames */
    web_loop = L;
    emscripten_set_main_loop_arg(web_frame, L, 0, 0);
    return 0;
#else
    while (!L->a.quit) run_frame(L);
    return finish(L);
#endif
}

/* One frame: events, the fixed steps due, drawing. */
static void run_frame(loop_state *L)
{
    app *a = &L->a;
    tn_world *w = L->w;
    const tn_game_opts *opts = L->opts;
    tn_script_host host = L->host;
    char err[512];
    double last = L->last, acc = L->acc, fps_t0 = L->fps_t0, step_sum = L->step_sum;
    double draw_sum = L->draw_sum, min_frame = L->min_frame;
    int fps_frames = L->fps_frames, fps_steps = L->fps_steps, rc = L->rc;
    do {
        double t = now_s(), dt = t - last;
        last = t;
        acc += dt > 0.25 ? 0.25 : dt;

        SDL_Event ev;
        while (SDL_PollEvent(&ev)) handle_event(a, &ev);
        if (a->quit) break;

        int steps = 0;
        while (acc >= STEP_S && steps < MAX_CATCHUP && !a->quit) {
            if (opts->script &&
                tn_script_apply(opts->script, w, w->frame, &host, err, sizeof err) != 0) {
                fprintf(stderr, "tilenav: %s\n", err);
                rc = 1;
                a->quit = true;
                break;
            }
            /* the script's keys (if any) and the keyboard together */
            tn_input kb = keyboard_input(), in = opts->script ? w->input : kb;
            if (opts->script) {
                in.left |= kb.left;
                in.right |= kb.right;
                in.down |= kb.down;
                in.jump |= kb.jump;
            }
            tn_world_set_input(w, in);
            a->prev_x = w->character.x;
            a->prev_y = w->character.y;
            double s0 = now_s();
            tn_world_step(w);
            step_sum += now_s() - s0;
            fps_steps++;
            if (w->character.vx > 1) a->view.facing = 1;
            else if (w->character.vx < -1) a->view.facing = -1;
            acc -= STEP_S;
            steps++;
            if (opts->frames > 0 && w->frame >= opts->frames) a->quit = true;
        }
        if (steps == MAX_CATCHUP && acc > STEP_S) acc = STEP_S * 0.5; /* drop the backlog */

        float alpha = (float)(acc / STEP_S);
        alpha = alpha < 0 ? 0 : alpha > 1 ? 1 : alpha;
        a->view.char_x = a->prev_x + (w->character.x - a->prev_x) * alpha;
        a->view.char_y = a->prev_y + (w->character.y - a->prev_y) * alpha;

        fps_frames++;
        if (t - fps_t0 >= 0.5) {
            a->view.fps = fps_frames / (t - fps_t0);
            a->view.step_ms = fps_steps ? step_sum * 1000.0 / fps_steps : 0;
            a->view.frame_ms = draw_sum * 1000.0 / fps_frames;
            draw_sum = 0;
            fps_t0 = t;
            fps_frames = fps_steps = 0;
            step_sum = 0;
        }

        double d0 = now_s();
        SDL_SetRenderDrawColor(a->ren, 0, 0, 0, 255);
        SDL_RenderClear(a->ren);
        tn_render_scene(&a->gfx, w, &a->view);
        SDL_RenderFlush(a->ren);
        draw_sum += now_s() - d0;
        SDL_RenderPresent(a->ren);

        double spent = now_s() - t;
        if (spent < min_frame) SDL_Delay((Uint32)((min_frame - spent) * 1000.0));
    } while (0);
    L->last = last;
    L->acc = acc;
    L->fps_t0 = fps_t0;
    L->step_sum = step_sum;
    L->draw_sum = draw_sum;
    L->fps_frames = fps_frames;
    L->fps_steps = fps_steps;
    L->rc = rc;
}

/* After the last frame: a final script frame, the autosave, closing. */
static int finish(loop_state *L)
{
    app *a = &L->a;
    tn_world *w = L->w;
    const tn_game_opts *opts = L->opts;
    tn_script_host host = L->host;
    char err[512];
    int rc = L->rc;
    /* As in headless runs: commands due at the final frame (a last save or
     * screenshot) still run when --frames ends the game. */
    if (rc == 0 && opts->script && opts->frames > 0 && w->frame >= opts->frames &&
        tn_script_apply(opts->script, w, w->frame, &host, err, sizeof err) != 0) {
        fprintf(stderr, "tilenav: %s\n", err);
        rc = 1;
    }
    if (autosave(a) != 0 && rc == 0) rc = 1;
    w->clock = L->old_clock;
    close_window(a);
    return rc;
}
