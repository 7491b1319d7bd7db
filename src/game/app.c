/* app.c - the interactive window: events, input, the fixed-step loop.
 *
 * Loop: the world advances in fixed 1/60 s steps from an accumulator fed
 * by the real frame time, so the simulation does not depend on the frame
 * rate.  At most TN_MAX_CATCHUP steps run per frame (after a stall the backlog
 * is dropped rather than replayed as a burst); the character is drawn
 * interpolated between its last two step positions by the fraction of a
 * step left in the accumulator.  The frame rate follows vsync when the
 * renderer has it, and is always capped at the display's refresh rate (120
 * Hz when the display does not say): some drivers report vsync and do not
 * wait, and a frame drawn faster than the display shows it is wasted CPU.
 * The HUD shows the measured rate and which limit applies.
 *
 * Time controls (issue 14, tn_sim_frame in control.c): the real time is scaled by the speed
 * (1/8x..4x) before it feeds the accumulator, so the step stays 1/60 s and
 * only the steps per second change (4x may run up to 4 x TN_MAX_CATCHUP steps
 * a frame); while paused nothing feeds it except one step per '.' press.
 * The rest of issue 14 (replay, camera, undo, picker, settings, inspect)
 * lives in its own functions below and in control.c; the loop calls
 * frame_extra() once per frame.
 */
#define _POSIX_C_SOURCE 200809L /* lstat */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "control.h"
#include "fileio.h"
#include "game.h"
#include "render.h"
#include "script.h"
#include "ui.h"
#include "tn_flow.h"
#include "tn_path.h"
#include "tn_wbots.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#define STEP_S TN_STEP_S /* control.h: the step clock (tn_sim_frame) */
#define DEFAULT_CAP_HZ 120

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
    int paint_button; /* SDL button, 0 = not painting */
    int paint_kind;   /* TN_TILE_BLOCK / TN_TILE_ONEWAY */
    bool paint_on;
    int paint_x, paint_y;
    /* the pointer left the map (or the window) while painting: the stroke
     * goes on from the tile where it comes back, with no line painted
     * across the tiles it never crossed */
    bool paint_lifted;
    int shot_counter;
    bool restore_offered; /* MAP.autosave existed at start: R restores it */
    /* R was pressed over unsaved edits: a second R with no edit between
     * (tn_world_edits still restore_armed_edits) replaces them */
    bool restore_armed;
    int restore_armed_edits;
    bool quit;
    /* Quitting (request_quit): the autosave failed and the next Esc or close
     * quits anyway (quit_armed); it did (quit_lost); the autosave is written. */
    bool quit_armed, quit_lost, autosaved;
    bool help_paused; /* the help paused the game: its close resumes it */
    /* The settings file was ignored (malformed): the first save moves it
     * to SETTINGS.bad rather than replacing the user's hand edits. */
    bool settings_ignored;
    /* MAP.autosave holds this session's edits (it wrote or restored them):
     * only then may a save remove it or an autosave replace it; an older one
     * is moved to MAP.autosave.N first (autosave_kept names it) */
    bool autosave_ours;
    char autosave_at[1024]; /* where (beside the map or in the data folder) */
    char autosave_kept[1100];
    /* The map as loaded from (or last saved to) the map file, and, after a
     * save refused because the file changed on disk, that map as it was
     * then (merge_base): R over the reloaded file applies only the tiles
     * the autosave changed from it, keeping the outside edits. */
    tn_map *base, *merge_base;
    /* issue 14: time, playback, camera drags, undo */
    int step_requests; /* single steps asked for while paused */
    double msg_credit; /* tn_control_pace_message's carry between steps */
    tn_playback pb;
    tn_path *pb_finder;
    tn_undo undo;
    /* Ctrl, Shift, ... as of the last key event handled: a click is read
     * with the modifiers pressed before it, in order (SDL_GetModState() is
     * already the state after every event SDL has read, so a Shift+click
     * whose Shift release came in the same batch read as a plain click) */
    Uint16 mods;
    tn_chord_keys chord; /* A D W S pressed with Ctrl / Alt / GUI, still held */
    int drag_mode;       /* 0 none, 1 ctrl+left pressed (pan or inspect), 2 panning */
    int drag_x0, drag_y0;
    float drag_cam_x, drag_cam_y;
    tn_flow8_cache flow8;   /* the 8-connected field the flow overlay can show */
    tn_game_opts opts_copy; /* opts with a map path the picker can change */
    char map_path[1024];
    char *pick[256]; /* the picker's paths (owned) */
    /* the view O fitted (zoom level, camera): a resize fits it again while
     * the view is still that one (no zoom, pan or follow since) */
    int fit_zoom;
    float fit_x, fit_y;
    int small_w, small_h; /* a size under the minimum the window was set back from */
    int back_w, back_h;   /* ... and the size it was set back to */
} app;

/* -------------------------------------------------------------- saving */

static int write_autosave(app *a, char *path, size_t cap, char *err, size_t errcap);

/* "; the older autosave is now MAP.autosave.N" when the last autosave
 * written moved one aside first (a->autosave_kept), else "". */
static const char *kept_note(const app *a, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (a->autosave_kept[0]) snprintf(buf, cap, "; the older autosave is now %s", a->autosave_kept);
    return buf;
}

/* The world's map is now the map file's (loaded, reloaded or saved). */
static void note_base(app *a)
{
    tn_map_destroy(a->base);
    a->base = NULL;
    tn_error e;
    if (tn_failed(tn_map_clone(tn_world_map(a->w), &a->base, &e))) a->base = NULL;
}

static void forget_merge(app *a)
{
    tn_map_destroy(a->merge_base);
    a->merge_base = NULL;
}

static int save_map(app *a, const char *path)
{
    char err[512];
    /* the map came from a->opts->map_path (a Tiled save patches that
     * document, whatever other maps were loaded since) */
    int rc = tn_save_world_map(a->w, path, a->opts->map_path, err, sizeof err);
    tn_drop_script_hint(err); /* "save under another name": the window has no save-as */
    if (rc == TN_SAVE_CHANGED && tn_world_dirty(a->w)) {
        /* The file was edited elsewhere (Tiled): it stays as it is, and the
         * edits go to the autosave, where Ctrl+R then R finds them. */
        char ap[1024], aerr[512], kn[1200];
        /* "PATH: not overwritten: it cannot be read to check ..." (too
         * large, EACCES): no reload can merge onto it; said as it is */
        bool unread = !strstr(err, " changed on disk since it was loaded") &&
                      !strstr(err, " now names another file");
        if (unread && write_autosave(a, ap, sizeof ap, aerr, sizeof aerr) == 0) {
            a->restore_offered = true;
            tn_world_message(a->w, "not saved: %s; your edits are safe in %s%s", err, ap,
                             kept_note(a, kn, sizeof kn));
        } else if (!unread && write_autosave(a, ap, sizeof ap, aerr, sizeof aerr) == 0) {
            a->restore_offered = true;
            if (a->base && !a->merge_base) { /* what the edits were made on */
                a->merge_base = a->base;
                a->base = NULL;
            }
            if (a->merge_base)
                tn_world_message(a->w,
                                 "not saved: %s changed on disk since it was loaded (edited in "
                                 "Tiled?); your edits are in %s: Ctrl+R reloads the file, R "
                                 "then puts the tiles you changed onto it%s",
                                 path, ap, kept_note(a, kn, sizeof kn));
            else {
                char keep[2200];
                tn_copy_aside_hint(path, keep, sizeof keep);
                tn_world_message(a->w,
                                 "not saved: %s changed on disk since it was loaded (edited in "
                                 "Tiled?); your edits are in %s: Ctrl+R then R brings back your "
                                 "map over the outside edits (to keep those, %s)%s",
                                 path, ap, keep, kept_note(a, kn, sizeof kn));
            }
        } else {
            tn_world_message(a->w, "save failed: %s (and no autosave: %s)", err, aerr);
        }
        tn_world_set_message_ttl(a->w, 60 * 10);
        /* stderr gets the status line: the reason and where the edits went */
        tn_print_shown(stderr, "tilenav: %s\n", tn_world_message_text(a->w));
        return -1;
    }
    if (rc == TN_SAVE_UNFIT && tn_world_dirty(a->w)) {
        /* The file's format cannot hold the edits (a Moving AI map has no
         * one-way platform): the window has no `save FILE`, so they go to
         * the autosave, in tilenav's format, and the message says where. */
        /* "PATH: is a Moving AI map, which cannot hold X: not saved (...)HINT"
         * -> "is a Moving AI map, which cannot hold X"; the hint is a script's */
        size_t n = strlen(err), h = strlen(TN_SAVE_UNFIT_HINT);
        if (n >= h && strcmp(err + n - h, TN_SAVE_UNFIT_HINT) == 0) err[n - h] = '\0';
        char why[512];
        const char *w0 = err, *cut = strstr(err, ": not saved");
        size_t pl = strlen(path);
        if (strncmp(w0, path, pl) == 0 && strncmp(w0 + pl, ": ", 2) == 0) w0 += pl + 2;
        snprintf(why, sizeof why, "%.*s", cut && cut > w0 ? (int)(cut - w0) : (int)strlen(w0), w0);
        char ap[1024], aerr[512], kn[1200];
        if (write_autosave(a, ap, sizeof ap, aerr, sizeof aerr) == 0) {
            tn_world_message(a->w,
                             "not saved: %s %s (the file is untouched); your edits are in %s, a "
                             "tilenav map: play that file, or take them out and Ctrl+S again%s",
                             path, why, ap, kept_note(a, kn, sizeof kn));
            tn_print_shown(stderr,
                           "tilenav: not saved: %s %s (the file is untouched); the edits are in "
                           "%s, a tilenav map: play that file, or take them out and save again\n",
                           path, why, ap);
        } else {
            tn_world_message(a->w, "save failed: %s (and no autosave: %s)", err, aerr);
            tn_print_shown(stderr, "tilenav: %s (and no autosave: %s)\n", err, aerr);
        }
        tn_world_set_message_ttl(a->w, 60 * 10);
        return -1;
    }
    if (rc != 0) {
        /* The window has no "save as": unsaved edits go to the autosave
         * (beside the map, or in the user's data directory when the map's
         * cannot be written), and the message says where they are. */
        char ap[1024], aerr[512], kn[1200];
        if (tn_world_dirty(a->w) && write_autosave(a, ap, sizeof ap, aerr, sizeof aerr) == 0) {
            tn_world_message(a->w, "save failed: %s; your edits are safe in %s%s", err, ap,
                             kept_note(a, kn, sizeof kn));
            tn_world_set_message_ttl(a->w, 60 * 10);
            tn_print_shown(stderr, "tilenav: %s; the edits are in %s\n", err, ap);
        } else if (tn_world_dirty(a->w)) {
            tn_world_message(a->w, "save failed: %s (and no autosave: %s)", err, aerr);
            tn_print_shown(stderr, "tilenav: %s (and no autosave: %s)\n", err, aerr);
        } else {
            tn_world_message(a->w, "save failed: %s", err);
            tn_print_shown(stderr, "tilenav: %s\n", err);
        }
        return -1;
    }
    tn_world_message(a->w, "saved %s", path);
    if (a->opts->map_path && tn_same_file(path, a->opts->map_path)) {
        note_base(a);
        forget_merge(a);
        tn_world_set_dirty(a->w, false);
        tn_undo_set_clean(&a->undo, a->w); /* undoing back to here: saved again */
        char autosave_path[1024], aerr[512];
        if (a->autosave_ours) {
            /* The map file now holds these edits: this session's autosave is stale. */
            remove(a->autosave_at);
            a->restore_offered = a->autosave_ours = false;
            /* older ones set aside beside it stay, and the next start names them */
            char older[1200];
            if (tn_autosave_older_note(a->autosave_at, older, sizeof older) > 0) {
                tn_world_message(a->w,
                                 "saved %s; older unsaved edits, never restored, are kept: %s",
                                 path, older);
                tn_world_set_message_ttl(a->w, 60 * 10);
            }
        } else if (a->restore_offered && tn_autosave_find(path, autosave_path, sizeof autosave_path,
                                                          aerr, sizeof aerr) == 0) {
            /* Older edits the user never restored are not in the map file. */
            tn_world_message(a->w,
                             "saved %s; %s (older edits, never restored) is kept: R restores it",
                             path, autosave_path);
            tn_world_set_message_ttl(a->w, 60 * 10);
        }
    }
#ifdef __EMSCRIPTEN__
    tn_web_saved(path); /* into the browser's storage, and offered as a download */
#endif
    return 0;
}

static int autosave_writer(void *ctx, const char *path, char *err, size_t cap)
{
    app *a = ctx;
    return tn_save_world_map(a->w, path, a->opts->map_path, err, cap);
}

/* The unsaved edits into MAP.autosave ("tilenav.map.autosave" without a map
 * file), or, when that cannot be written (a full disk, a map from a pipe),
 * into the data folder (tn_autosave_write): 0 with its name in path (and
 * in a->autosave_at), or -1 with the reason in err.  An autosave this
 * session did not write or restore is never overwritten: it is moved to
 * NAME.N first, named in a->autosave_kept (else ""). */
static int write_autosave(app *a, char *path, size_t cap, char *err, size_t errcap)
{
    /* beside the map, else (it could not be written there) the data folder */
    if (tn_autosave_write(a->opts->map_path ? a->opts->map_path : "tilenav.map",
                          a->autosave_ours ? a->autosave_at : NULL, autosave_writer, a, path, cap,
                          a->autosave_kept, sizeof a->autosave_kept, err, errcap) != 0)
        return -1;
    if (err[0])
        tn_print_shown(stderr,
                       "tilenav: the autosave could not be written beside the map (%s): it is %s\n",
                       err, path);
    /* this session's older autosave elsewhere is stale now */
    if (a->autosave_ours && strcmp(a->autosave_at, path) != 0) remove(a->autosave_at);
    snprintf(a->autosave_at, sizeof a->autosave_at, "%s", path);
    a->autosave_ours = true;
    return 0;
}

/* Esc or the window's close button (SDL_QUIT).  Unsaved edits go to
 * MAP.autosave first (finish() says so); when they cannot be written the
 * game does not quit: the status line (and stderr) says why and how to go
 * on, Ctrl+S to save them, or Esc (or close) again, with no other key or
 * click between, to quit and lose them. */
static void request_quit(app *a)
{
    if (!tn_world_dirty(a->w)) {
        a->quit = true;
        return;
    }
    if (a->quit_armed) {
        a->quit = a->quit_lost = true;
        return;
    }
    char path[1024], err[512];
    if (write_autosave(a, path, sizeof path, err, sizeof err) == 0) {
        a->quit = a->autosaved = true;
        return;
    }
    a->quit_armed = true;
    /* what to do first: a long path may not fit on the status line */
    tn_world_message(a->w,
                     "not quitting: Ctrl+S saves the unsaved edits, Esc again quits and loses "
                     "them (no autosave: %s)",
                     err);
    tn_world_set_message_ttl(a->w, 60 * 60);
    /* a map read from a pipe or a device (/dev/fd/63) cannot be saved to */
    struct stat st;
    const char *map = a->opts->map_path;
    bool saveable = map && (stat(map, &st) != 0 || S_ISREG(st.st_mode));
    tn_print_shown(stderr,
                   "tilenav: not quitting: the unsaved edits cannot be autosaved (%s); %s%s%s, "
                   "Esc (or closing the window) again quits and loses them\n",
                   err, saveable ? "Ctrl+S saves them to " : "Ctrl+S cannot save them (",
                   map ? map : "there is no map file", saveable ? "" : " is not a regular file)");
}

/* Starting a map whose autosave exists offers to restore it (R). */
static void offer_restore(app *a)
{
    if (!a->opts->map_path) return;
    a->autosave_ours = false; /* whatever is there, this session did not write it */
    char msg[TN_WORLD_MSG_MAX];
    const int offer = tn_autosave_offer(a->opts->map_path, msg, sizeof msg);
    if (offer == 0) return;
    a->restore_offered = offer == 1;
    tn_world_message(a->w, "%s", msg);
    tn_world_set_message_ttl(a->w, 60 * 20);
}

static void reapply_view(app *a);

static void restore(app *a)
{
    char path[1024], err[512];
    if (tn_autosave_find(a->opts->map_path, path, sizeof path, err, sizeof err) != 0) {
        tn_world_message(a->w, "cannot restore: %s", err);
        return;
    }
    if (tn_world_dirty(a->w) &&
        !(a->restore_armed && a->restore_armed_edits == tn_world_edits(a->w))) {
        /* the edits made since the start would be gone: ask again first */
        a->restore_armed = true;
        a->restore_armed_edits = tn_world_edits(a->w);
        tn_world_message(a->w,
                         "R again replaces your unsaved edits with %s's (Ctrl+S first keeps "
                         "them in %s)",
                         path, a->opts->map_path);
        tn_world_set_message_ttl(a->w, 60 * 10);
        return;
    }
    a->restore_armed = false;
    tn_map *m;
    tn_error e;
    if (tn_load_map(path, &m, err, sizeof err) != 0) {
        tn_world_message(a->w, "cannot restore: %s", err);
        return;
    }
    /* After a save refused because the file changed on disk, and the
     * reload (no edits since): only the tiles the user changed go onto the
     * file's new map, whose outside edits stay. */
    int merged = -1, both = 0;
    if (a->merge_base && !tn_world_dirty(a->w)) {
        tn_map *c;
        if (tn_failed(tn_map_clone(tn_world_map(a->w), &c, &e))) {
            tn_map_destroy(m);
            tn_world_message(a->w, "cannot restore: %s", e.msg);
            return;
        }
        merged = tn_map_merge_edits(c, a->merge_base, m, &both);
        if (merged < 0) {
            tn_map_destroy(c); /* another size now: the whole autosave, said below */
        } else {
            tn_map_destroy(m);
            m = c;
        }
    }
    bool sized = a->merge_base && merged < 0;
    if (tn_failed(tn_world_replace_map(a->w, m, &e))) {
        tn_world_message(a->w, "cannot restore: %s", e.msg);
        return;
    }
    char note[TN_WORLD_MSG_MAX + 2] = ""; /* kept parameters that could not apply */
    if (tn_world_message_ttl(a->w) > 0)
        snprintf(note, sizeof note, "; %s", tn_world_message_text(a->w));
    tn_world_set_dirty(a->w, true); /* restored edits are not in the map file until Ctrl+S */
    a->restore_offered = false;
    a->autosave_ours = true; /* they are this session's edits now */
    snprintf(a->autosave_at, sizeof a->autosave_at, "%s", path);
    a->prev_x = tn_world_character(a->w)->x;
    a->prev_y = tn_world_character(a->w)->y;
    /* the history's tiles were the replaced map's: Ctrl+Z must not replay them here */
    tn_undo_clear(&a->undo);
    tn_playback_forget(&a->pb);             /* a new map: the bot's search was on the old one */
    reapply_view(a);                        /* the new bots plan with Shift+G's heuristic too */
    a->view.inspect_kind = TN_INSPECT_NONE; /* its agents are new ones */
    if (merged >= 0) {
        forget_merge(a);
        char both_s[96] = "";
        if (both)
            snprintf(both_s, sizeof both_s, " (%d of them changed there too: yours kept)", both);
        tn_world_message(a->w,
                         "merged the %d tile%s you changed (from %s) onto the reloaded %s%s; its "
                         "other outside edits are kept: Ctrl+S saves%s",
                         merged, merged == 1 ? "" : "s", path, a->opts->map_path, both_s, note);
    } else if (sized) {
        forget_merge(a);
        char keep[2200];
        tn_copy_aside_hint(a->opts->map_path, keep, sizeof keep);
        tn_world_message(a->w,
                         "restored %s whole: %s changed size on disk, so its outside edits "
                         "are NOT in it (Ctrl+S would replace them; to keep both, %s)%s",
                         path, a->opts->map_path, keep, note);
    } else {
        tn_world_message(a->w, "restored %s (undo starts afresh): Ctrl+S writes it to %s%s", path,
                         a->opts->map_path, note);
    }
}

static void screenshot(app *a)
{
    char path[64], err[512];
    /* the first name nothing has: lstat, not fopen, which waits forever on
     * a FIFO and passes over a link to a missing file (the save would then
     * create the file the link names, anywhere) */
    struct stat st;
    do snprintf(path, sizeof path, "tilenav-%03d.bmp", ++a->shot_counter);
    while (lstat(path, &st) == 0);
    tn_view v = a->view;
    v.mouse_in = false; /* no hover frame in the picture */
    if (tn_render_offscreen(a->w, &a->fonts, &v, path, err, sizeof err) != 0) {
        tn_world_message(a->w, "screenshot failed: %s", err);
        return;
    }
#ifdef __EMSCRIPTEN__
    /* the page's file system is in memory: the file goes to the user */
    tn_web_offer(path, "image/bmp");
    remove(path);
    tn_world_message(a->w, "screenshot %s: offered as a download", path);
#else
    tn_world_message(a->w, "screenshot written: %s", path);
#endif
}

/* script host */
static int host_save(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    app *a = user;
    int rc = tn_script_save_map(w, path, a->opts->map_path, err, cap);
    if (rc == 0 && !tn_world_dirty(w)) tn_undo_set_clean(&a->undo, w); /* saved to its file */
    return rc;
}

static int host_screenshot(void *user, tn_world *w, const char *path, char *err, size_t cap)
{
    app *a = user;
    if (tn_screenshot_target_check(path, err, cap) != 0) return -1; /* a map stays a map */
    tn_view v = a->view;
    v.mouse_in = false;
    return tn_render_offscreen(w, &a->fonts, &v, path, err, cap);
}

/* ------------------------------------ time, playback, camera, undo (#14) */

static void set_paused(app *a, bool paused)
{
    a->view.paused = paused;
    a->step_requests = 0;
    tn_world_message(a->w, paused ? "paused: '.' steps once, T resumes" : "running at %s",
                     tn_speed_names[a->view.speed]);
    tn_world_set_message_ttl(a->w, 60 * 4);
}

/* The help over the map pauses the game while it is read (a review: 700
 * frames went by behind it) and resumes it when it closes, unless it was
 * paused already; quietly, the status line keeps what it said. */
static void show_help(app *a, bool on)
{
    if (on == a->view.show_help) return;
    a->view.show_help = on;
    if (on) {
        /* a drag under way ends: the pointer moved on over the help and
         * painted tiles, dragged a slider or the bar's speed, or panned
         * behind it, out of sight (as held I J K L did, camera_keys) */
        a->paint_button = 0;
        a->drag_mode = 0;
        a->view.drag_bar = -1;
        if (a->view.drag_slider >= 0) {
            a->view.drag_slider = -1;
            tn_world_hold_graph_builds(a->w, false); /* the value it stopped at is built */
        }
        a->help_paused = !a->view.paused;
        a->view.paused = true;
    } else if (a->help_paused) {
        a->help_paused = false;
        a->view.paused = false;
    }
    a->step_requests = 0;
}

static void set_speed(app *a, int i)
{
    char msg[96];
    a->view.speed = tn_speed_step(a->view.speed, i - a->view.speed, msg, sizeof msg);
    tn_world_message(a->w, "%s", msg);
}

/* The window's choices the world keeps in its parts, given again to a
 * world whose parts were made anew (a reset or another map): the bots'
 * heuristic (Shift+G), which a new bot would otherwise reset to optimal
 * while the HUD still said fast. */
static void reapply_view(app *a)
{
    tn_wbots_set_heuristic(a->w, a->view.fast_heuristic ? TN_PATH_FAST : TN_PATH_OPTIMAL);
}

static void reset_world(app *a)
{
    char err[512];
    if (!a->opts->map_path) {
        tn_world_message(a->w, "reset: no map file to reload");
        return;
    }
    bool kept = false;
    char path[1024] = "";
    if (tn_world_dirty(a->w)) { /* the autosave keeps unsaved edits */
        if (write_autosave(a, path, sizeof path, err, sizeof err) != 0) {
            tn_world_message(a->w, "reset refused: could not keep the unsaved edits: %s", err);
            return;
        }
        kept = true;
    }
    if (tn_control_reset(a->w, a->opts->map_path, err, sizeof err) != 0) {
        tn_world_message(a->w, "reset failed: %s", err);
        return;
    }
    note_base(a); /* a merge_base stays: R then merges onto this map */
    a->prev_x = a->view.char_x = tn_world_character(a->w)->x;
    a->prev_y = a->view.char_y = tn_world_character(a->w)->y;
    reapply_view(a);
    tn_undo_clear(&a->undo);
    tn_undo_set_clean(&a->undo, a->w); /* the file's map */
    tn_playback_forget(&a->pb);        /* a new world: its bot has made no plan */
    a->view.inspect_kind = TN_INSPECT_NONE;
    a->step_requests = 0;
    if (kept) {
        /* the autosave now holds edits the world does not: a Ctrl+S of
         * later edits keeps it (it removed it, the reset's edits lost) */
        a->restore_offered = true;
        a->autosave_ours = false;
        tn_world_message(
            a->w, "reset: %s reloaded; your unsaved edits are in %s (R restores them)%s%s",
            a->opts->map_path, path, a->autosave_kept[0] ? "; the older autosave is now " : "",
            a->autosave_kept);
    }
}

/* After the frame's steps: record the search behind the character's
 * current plan, a new goal's or a re-plan's (tn_playback_watch). */
static void watch_goto(app *a) { tn_playback_watch(&a->pb, &a->pb_finder, a->w, a->view.overlays); }

static void playback_action(app *a, tn_ui_action act, int arg)
{
    switch (act) {
    case TN_ACT_REPLAY: tn_playback_control(&a->pb, a->w, &a->view.overlays, TN_PB_REPLAY); break;
    case TN_ACT_PB_PAUSE: tn_playback_control(&a->pb, a->w, &a->view.overlays, TN_PB_HOLD); break;
    case TN_ACT_PB_STEP: tn_playback_control(&a->pb, a->w, &a->view.overlays, TN_PB_NEXT); break;
    case TN_ACT_PB_SPEED: tn_playback_set_speed(&a->pb, a->w, arg); break;
    default: break;
    }
}

/* The world pixel at the centre of the map view. */
static void camera_centre(app *a, float *x, float *y)
{
    tn_camera c = tn_camera_make(a->w, &a->view);
    *x = ((float)c.view.x + 0.5f * (float)c.view.w - (float)c.ox) / c.scale;
    *y = ((float)c.view.y + 0.5f * (float)c.view.h - (float)c.oy) / c.scale;
}

/* Stop following; keep the picture where it is (clamped to the map). */
static void camera_free(app *a)
{
    float x, y;
    camera_centre(a, &x, &y);
    a->view.follow = false;
    a->view.cam_x = x;
    a->view.cam_y = y;
}

static void camera_move(app *a, float dx, float dy)
{
    if (a->view.follow) camera_free(a);
    a->view.cam_x += dx;
    a->view.cam_y += dy;
    float x, y; /* clamp: the camera never leaves the map */
    camera_centre(a, &x, &y);
    a->view.cam_x = x;
    a->view.cam_y = y;
}

static int zoom_index(const app *a)
{
    return a->view.zoom >= 0 ? a->view.zoom : tn_zoom_fit(tn_world_map(a->w));
}

/* Zoom one level in (dz > 0) or out, keeping the world point under screen
 * pixel (sx, sy) where it is. */
static void zoom_at(app *a, int sx, int sy, int dz)
{
    tn_camera c = tn_camera_make(a->w, &a->view);
    if (sx < c.view.x || sy < c.view.y || sx >= c.view.x + c.view.w || sy >= c.view.y + c.view.h) {
        sx = c.view.x + c.view.w / 2;
        sy = c.view.y + c.view.h / 2;
    }
    char msg[96];
    int z0 = zoom_index(a),
        z = tn_zoom_step(z0, dz, tn_zoom_levels, TN_ZOOM_LEVELS, msg, sizeof msg);
    tn_world_message(a->w, "%s", msg); /* also replaces a stale "whole map at ..." */
    if (z == z0) return;
    float wx = ((float)sx - (float)c.ox) / c.scale, wy = ((float)sy - (float)c.oy) / c.scale;
    float s1 = tn_zoom_levels[z];
    a->view.zoom = z;
    a->view.follow = false;
    a->view.cam_x = wx - ((float)sx - (float)c.view.x - 0.5f * (float)c.view.w) / s1;
    a->view.cam_y = wy - ((float)sy - (float)c.view.y - 0.5f * (float)c.view.h) / s1;
    camera_move(a, 0, 0);
}

static void camera_fit(app *a, bool say)
{
    const tn_map *m = tn_world_map(a->w);
    char msg[192];
    bool all = tn_zoom_fit_say_in(m, tn_view_h(&a->view), &a->view.zoom, msg, sizeof msg);
    a->view.follow = false;
    if (all) { /* the map's centre */
        a->view.cam_x = 0.5f * (float)m->w * TN_TILE_PX;
        a->view.cam_y = 0.5f * (float)m->h * TN_TILE_PX;
    } else { /* only a part shows: the character's (the camera clamps to the map) */
        const tn_body *b = tn_world_character(a->w);
        a->view.cam_x = b->x + 0.5f * (float)b->w * TN_TILE_PX;
        a->view.cam_y = b->y + 0.5f * (float)b->h * TN_TILE_PX;
    }
    a->fit_zoom = a->view.zoom;
    a->fit_x = a->view.cam_x;
    a->fit_y = a->view.cam_y;
    if (say) tn_world_message(a->w, "%s", msg);
}

/* The view is still the one O fitted. */
static bool view_fitted(const app *a)
{
    return a->fit_zoom >= 0 && !a->view.follow && a->view.zoom == a->fit_zoom &&
           a->view.cam_x == a->fit_x && a->view.cam_y == a->fit_y;
}

/* H (or the bar's HUD button): the HUD's strip goes to the map or back; a
 * view O fitted is fitted again to the view's new height (and says so when
 * that changes the zoom). */
static void toggle_hud(app *a)
{
    const bool fitted = view_fitted(a);
    a->view.hud_hidden = !a->view.hud_hidden;
    if (fitted)
        camera_fit(a, a->view.zoom != tn_zoom_fit_all_in(tn_world_map(a->w), tn_view_h(&a->view)));
}

/* Held I J K L pan the camera (the arrow keys walk). */
static void camera_keys(app *a, double dt)
{
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    if (a->view.show_help) return; /* keys wait while the help shows (key_down) */
    if (SDL_GetModState() & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)) return;
    int dx = (k[SDL_SCANCODE_L] ? 1 : 0) - (k[SDL_SCANCODE_J] ? 1 : 0);
    int dy = (k[SDL_SCANCODE_K] ? 1 : 0) - (k[SDL_SCANCODE_I] ? 1 : 0);
    if (!dx && !dy) return;
    float v = 600.0f / tn_zoom_levels[zoom_index(a)]; /* screen px per second */
    camera_move(a, (float)dx * v * (float)dt, (float)dy * v * (float)dt);
}

static void unpin_removed(app *a);

/* Ctrl+left released without a drag: pin the card of the agent there. */
static void inspect_at(app *a, int sx, int sy)
{
    tn_camera c = tn_camera_make(a->w, &a->view);
    float wx = ((float)sx - (float)c.ox) / c.scale, wy = ((float)sy - (float)c.oy) / c.scale;
    int kind; /* the status line says what was pinned, or that nothing was */
    int64_t index;
    tn_inspect_click(a->w, wx, wy, 10.0f / c.scale + 4.0f, &kind, &index);
    a->view.inspect_kind = kind;
    a->view.inspect_index = index;
    a->view.inspect_serial = tn_inspect_serial(a->w, kind, index);
    a->view.inspect_seen = (tn_inspect_seen){-1, -1, 0, 0};
    unpin_removed(a); /* notes where a pinned enemy is now (it is there) */
}

static void toggle_heuristic(app *a)
{
    a->view.fast_heuristic = !a->view.fast_heuristic;
    tn_wbots_set_heuristic(a->w, a->view.fast_heuristic ? TN_PATH_FAST : TN_PATH_OPTIMAL);
    double planner = 0;
    tn_world_get(a->w, "planner", &planner);
    tn_world_message(a->w, "A* heuristic: %s (%s)",
                     a->view.fast_heuristic ? "fast (weighted x3, not always shortest)"
                                            : "optimal (admissible: shortest paths)",
                     planner > 0.5 ? "the classic planner's: G switches to it"
                                   : "the next goto uses it");
}

static void toggle_flow8(app *a) { tn_flow8_toggle(a->w, &a->view.flow8, &a->view.overlays); }

/* The 8-connected field, rebuilt when the map changed (only while shown). */
static void update_flow8(app *a)
{
    a->view.flow8_field = NULL;
    if (!a->view.flow8 || !(a->view.overlays & TN_OVERLAY_FLOW)) return;
    a->view.flow8_field = tn_flow8_get(&a->flow8, a->w);
}

static void picker_close(app *a)
{
    for (int i = 0; i < a->view.picker_count; i++) free(a->pick[i]);
    a->view.picker_count = 0;
    a->view.picker_items = NULL;
}

static void picker_open(app *a)
{
    picker_close(a);
    int n = tn_map_list(a->opts->map_path, a->opts->extra_maps, a->opts->nextra, a->pick, 256);
    if (n == 0) {
        tn_world_message(a->w, "no maps found next to %s",
                         a->opts->map_path ? a->opts->map_path : "?");
        return;
    }
    a->view.picker_items = (const char *const *)a->pick;
    a->view.picker_count = n;
    a->view.picker_sel = 0;
    a->view.picker_current = -1;
    for (int i = 0; i < n; i++)
        if (a->opts->map_path && strcmp(a->pick[i], a->opts->map_path) == 0)
            a->view.picker_sel = a->view.picker_current = i;
    a->view.picker_top = 0;
    tn_ui_picker_scroll(&a->view);
}

/* The window's title names the map being played (saves and the autosave
 * go next to it). */
static void set_title(app *a)
{
    char title[1100], shown[1100];
    snprintf(title, sizeof title, "tilenav - %s",
             a->opts->map_path ? a->opts->map_path : "(no map file)");
    SDL_SetWindowTitle(a->win, tn_text_shown(shown, sizeof shown, title)); /* \xNN for controls */
}

/* Play another map: unsaved edits of this one go to its autosave first. */
static void picker_choose(app *a, int i)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s", a->pick[i]);
    picker_close(a);
    tn_map *m;
    tn_origin held; /* recorded only once the world plays it (it may be this map's file) */
    if (tn_load_map_held(path, &m, &held, err, sizeof err) != 0) {
        tn_world_message(a->w, "cannot open: %s", err);
        return;
    }
    char ap[1024] = ""; /* where this map's unsaved edits went, if any */
    if (tn_world_dirty(a->w) && a->opts->map_path) {
        if (write_autosave(a, ap, sizeof ap, err, sizeof err) != 0) {
            tn_map_destroy(m);
            tn_origin_free(&held);
            tn_world_message(a->w, "not switching: could not keep the unsaved edits: %s", err);
            return;
        }
    }
    tn_error e;
    if (tn_failed(tn_world_replace_map(a->w, m, &e))) {
        tn_origin_free(&held);
        tn_world_message(a->w, "cannot play %s: %s", path, e.msg);
        return;
    }
    tn_origin_keep(&held);
    note_base(a);
    forget_merge(a); /* another map */
    /* what of the kept parameters could not apply here (empty: all did) */
    char note[TN_WORLD_MSG_MAX + 2] = "";
    if (tn_world_message_ttl(a->w) > 0)
        snprintf(note, sizeof note, "; %s", tn_world_message_text(a->w));
    snprintf(a->map_path, sizeof a->map_path, "%s", path);
    a->opts_copy.map_path = a->map_path;
    reapply_view(a);
    set_title(a);
    tn_world_reset_edit_counts(a->w);
    a->prev_x = a->view.char_x = tn_world_character(a->w)->x;
    a->prev_y = a->view.char_y = tn_world_character(a->w)->y;
    a->view.zoom = -1;
    a->view.follow = true;
    a->view.inspect_kind = TN_INSPECT_NONE;
    tn_playback_forget(&a->pb);    /* a new world: its bot has made no plan */
    tn_world_restart_frames(a->w); /* the new map's frames, not the old one's */
    tn_undo_clear(&a->undo);
    tn_undo_set_clean(&a->undo, a->w); /* the file's map */
    a->restore_offered = false;
    char moved[600] = "", mv[620] = ""; /* a start with no room for the character */
    if (tn_control_start_moved(a->w, path, moved, sizeof moved)) {
        tn_print_shown(stderr, "tilenav: warning: %s\n", moved);
        snprintf(mv, sizeof mv, "; warning: %s", moved);
    }
    if (ap[0])
        tn_world_message(a->w, "playing %s (%dx%d); the unsaved edits are in %s%s%s%s%s", path,
                         m->w, m->h, ap, a->autosave_kept[0] ? "; the older autosave is now " : "",
                         a->autosave_kept, note, mv);
    else
        tn_world_message(a->w, "playing %s (%dx%d)%s%s", path, m->w, m->h, note, mv);
    if (mv[0]) tn_world_set_message_ttl(a->w, 60 * 10);
    offer_restore(a);
}

/* Keys while the picker is open; true when taken. */
static bool picker_key(app *a, SDL_Keycode sym)
{
    if (a->view.picker_count <= 0 || sym == SDLK_F12) return false;
    if (sym == SDLK_F1) { /* the help over the picker: it closes, the help opens */
        picker_close(a);
        return false;
    }
    tn_view *v = &a->view;
    if (sym == SDLK_ESCAPE || sym == SDLK_TAB)
        picker_close(a);
    else if (sym == SDLK_UP || sym == SDLK_w)
        v->picker_sel = tn_maxi(0, v->picker_sel - 1);
    else if (sym == SDLK_DOWN || sym == SDLK_s)
        v->picker_sel = tn_mini(v->picker_count - 1, v->picker_sel + 1);
    else if (sym == SDLK_RETURN || sym == SDLK_KP_ENTER)
        picker_choose(a, v->picker_sel);
    if (v->picker_count > 0) tn_ui_picker_scroll(v);
    return true;
}

/* Keys added by issue 14; true when the key was one of them. */
static bool key_extra(app *a, SDL_Keycode sym, bool ctrl, bool shift)
{
    if (ctrl) {
        if ((sym == SDLK_z || sym == SDLK_y) && a->paint_button)
            a->paint_button = 0; /* a stroke undone: painting on would join older edits */
        if (sym == SDLK_z && !shift)
            tn_undo_undo_key(&a->undo, a->w, a->restore_offered);
        else if (sym == SDLK_y || (sym == SDLK_z && shift))
            tn_undo_redo(&a->undo, a->w);
        else if (sym == SDLK_r)
            reset_world(a);
        else
            return false;
        return true;
    }
    switch (sym) {
    case SDLK_t: set_paused(a, !a->view.paused); return true;
    case SDLK_PERIOD:
        if (!a->view.paused)
            set_paused(a, true);
        else
            a->step_requests++;
        return true;
    case SDLK_LEFTBRACKET: set_speed(a, a->view.speed - 1); return true;
    case SDLK_RIGHTBRACKET: set_speed(a, a->view.speed + 1); return true;
    case SDLK_e: playback_action(a, shift ? TN_ACT_PB_PAUSE : TN_ACT_REPLAY, 0); return true;
    case SDLK_q: playback_action(a, TN_ACT_PB_STEP, 0); return true;
    case SDLK_MINUS: playback_action(a, TN_ACT_PB_SPEED, a->pb.speed - 1); return true;
    case SDLK_EQUALS: playback_action(a, TN_ACT_PB_SPEED, a->pb.speed + 1); return true;
    case SDLK_h: toggle_hud(a); return true;
    case SDLK_o: camera_fit(a, true); return true;
    case SDLK_u:
        if (a->view.follow)
            camera_free(a); /* keep the followed picture */
        else
            a->view.follow = true;
        tn_world_message(a->w, "camera: %s", a->view.follow ? "follows the character" : "stays");
        return true;
    case SDLK_g: /* G alone switches the planner (key_down) */
        if (!shift) return false;
        toggle_heuristic(a);
        return true;
    case SDLK_y: toggle_flow8(a); return true;
    case SDLK_TAB: picker_open(a); return true;
    default: return false;
    }
}

static void bar_action(app *a, tn_ui_action act, int arg)
{
    switch (act) {
    case TN_ACT_PAUSE: set_paused(a, !a->view.paused); break;
    case TN_ACT_STEP: /* as '.': running, it pauses; paused, it steps */
        if (!a->view.paused)
            set_paused(a, true);
        else
            a->step_requests++;
        break;
    case TN_ACT_RESET: reset_world(a); break;
    case TN_ACT_HUD: toggle_hud(a); break;
    case TN_ACT_SPEED: set_speed(a, arg); break; /* said as '[' and ']' say it */
    default: playback_action(a, act, arg); break;
    }
}

/* -------------------------------------------------------------- input */

static tn_input keyboard_input(const app *a)
{
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    const tn_held_keys held = {
        .left = k[SDL_SCANCODE_LEFT],
        .right = k[SDL_SCANCODE_RIGHT],
        .up = k[SDL_SCANCODE_UP],
        .down = k[SDL_SCANCODE_DOWN],
        .space = k[SDL_SCANCODE_SPACE],
        .a = k[SDL_SCANCODE_A],
        .d = k[SDL_SCANCODE_D],
        .w = k[SDL_SCANCODE_W],
        .s = k[SDL_SCANCODE_S],
        .modifier = (SDL_GetModState() & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)) != 0,
        .chord_a = a->chord.a,
        .chord_d = a->chord.d,
        .chord_w = a->chord.w,
        .chord_s = a->chord.s,
    };
    return tn_control_keys_input(&held, a->view.picker_count > 0);
}

static void key_down(app *a, const SDL_KeyboardEvent *k)
{
    SDL_Keycode sym = k->keysym.sym;
    Uint16 mod = k->keysym.mod;
    bool ctrl = mod & KMOD_CTRL, shift = mod & KMOD_SHIFT;
    if (picker_key(a, sym)) return;
    if (a->view.show_help && (sym == SDLK_DOWN || sym == SDLK_UP)) { /* small windows */
        a->view.help_scroll = tn_clampi(a->view.help_scroll + (sym == SDLK_DOWN ? 60 : -60), 0,
                                        tn_ui_help_scroll_max());
        return;
    }
    if (sym == SDLK_ESCAPE) {
        if (k->repeat) return; /* a held Esc is one request (never its confirmation) */
        if (a->view.show_help)
            show_help(a, false);
        else
            request_quit(a);
        return;
    }
    if (k->repeat) return;
    /* F1 and F12 whatever modifiers are held: Ctrl+F1 neither opened nor
     * closed the help (the Ctrl keys below took it), Shift+F1 and Alt+F1
     * did; likewise Ctrl+F12 took no picture */
    if (sym == SDLK_F1) {
        show_help(a, !a->view.show_help);
        return;
    }
    if (sym == SDLK_F12) {
        screenshot(a);
        return;
    }
    /* over the help only F1 (closes it) and F12 (a picture of it) act: the
     * game waits, as the help says; P, G, Ctrl+Z, Ctrl+R... changed it out
     * of sight (a click there only closes the help, as Esc does) */
    if (a->view.show_help) return;
    if (key_extra(a, sym, ctrl, shift)) return;
    if (ctrl) {
        if (sym == SDLK_s) {
            if (!a->opts->map_path) {
                tn_world_message(a->w, "no map file to save to");
            } else {
                save_map(a, a->opts->map_path); /* it says what it did */
            }
        }
        return;
    }
    if (sym >= SDLK_1 && sym <= SDLK_8) {
        tn_world_set_tool(a->w, (tn_tool)(sym - SDLK_1));
        return;
    }
    for (int i = 0; i < TN_OVERLAY_COUNT; i++) {
        const tn_overlay_info *o = &tn_overlays[i];
        if (sym != (SDL_Keycode)o->key || shift != o->shift) continue;
        tn_view_toggle_overlay(&a->view, a->w, i);
        return;
    }
    if (sym == SDLK_r && a->restore_offered)
        restore(a);
    else if (sym == SDLK_r) /* R is reset in many games: say what it does here */
        tn_world_message(a->w, "R restores autosaved edits when the game offers them (none "
                               "now): Ctrl+R resets the map");
    else if (sym == SDLK_b)
        tn_control_count_key(a->w, "bots", shift ? -1 : 1);
    else if (sym == SDLK_m)
        tn_control_count_key(a->w, "wanderers", shift ? -1 : 1);
    else if (sym == SDLK_z) { /* knock-back, away from the pointer */
        /* the pointer in the logical frame, as the mouse events give it
         * (SDL_GetMouseState is in window pixels: in a window scaled up
         * from 1280x720 it put the pointer on the wrong side) */
        tn_camera c = tn_camera_make(a->w, &a->view);
        tn_control_knock(a->w, ((float)a->view.mouse_x - (float)c.ox) / c.scale);
    } else if (sym == SDLK_g) {
        double v = 1.0;
        tn_world_get(a->w, "planner", &v);
        tn_control_set_planner(a->w, v > 0.5 ? 0.0 : 1.0);
    }
}

static bool mouse_tile(app *a, int x, int y, int *tx, int *ty)
{
    tn_camera c = tn_camera_make(a->w, &a->view);
    return tn_camera_tile_at(&c, tn_world_map(a->w), x, y, tx, ty);
}

/* One tile of a stroke, when it is not yet what the stroke paints. */
static void paint_tile(app *a, int x, int y)
{
    int t = tn_map_tile(tn_world_map(a->w), x, y);
    if (tn_map_inside(tn_world_map(a->w), x, y) && (t == a->paint_kind) != a->paint_on) {
        tn_error err;
        tn_undo_edit(&a->undo, a->w, x, y,
                     a->paint_kind == TN_TILE_BLOCK ? TN_EDIT_BLOCK : TN_EDIT_ONEWAY, &err);
    }
}

/* Paint along the tiles from the last painted one to (tx, ty); after the
 * pointer left the map, from (tx, ty) only (a drag out over the HUD and
 * back in 50 tiles on painted a 50-tile wall the pointer never crossed). */
static void paint_to(app *a, int tx, int ty)
{
    int x = a->paint_x, y = a->paint_y;
    int dx = abs(tx - x), dy = -abs(ty - y), sx = x < tx ? 1 : -1, sy = y < ty ? 1 : -1;
    int e = dx + dy;
    tn_undo_join(&a->undo, true); /* one stroke with the click that began it */
    if (a->paint_lifted) {
        a->paint_lifted = false;
        x = tx, y = ty;
        paint_tile(a, x, y);
    }
    while (x != tx || y != ty) {
        int e2 = 2 * e;
        if (e2 >= dy) {
            e += dy;
            x += sx;
        }
        if (e2 <= dx) {
            e += dx;
            y += sy;
        }
        paint_tile(a, x, y);
    }
    tn_undo_join(&a->undo, false);
    a->paint_x = tx;
    a->paint_y = ty;
}

static void mouse_down(app *a, const SDL_MouseButtonEvent *b)
{
    int tx, ty;
    if (b->button == SDL_BUTTON_LEFT && (a->mods & KMOD_CTRL)) {
        /* pan or inspect, from anywhere in the map view: the margin around
         * a map smaller than the view too (a drag pans, a click unpins) */
        tn_camera c = tn_camera_make(a->w, &a->view);
        if (b->x >= c.view.x && b->y >= c.view.y && b->x < c.view.x + c.view.w &&
            b->y < c.view.y + c.view.h) {
            a->drag_mode = 1;
            a->drag_x0 = b->x;
            a->drag_y0 = b->y;
        }
        return;
    }
    if (!mouse_tile(a, b->x, b->y, &tx, &ty)) {
        /* the margin around a map smaller than the view: say why nothing
         * happens instead of ignoring the click */
        tn_camera c = tn_camera_make(a->w, &a->view);
        const tn_map *m = tn_world_map(a->w);
        if (b->x >= c.view.x && b->y >= c.view.y && b->x < c.view.x + c.view.w &&
            b->y < c.view.y + c.view.h && b->button <= SDL_BUTTON_RIGHT)
            tn_world_message(a->w, "outside the %dx%d map: click a tile on it", m->w, m->h);
        return;
    }
    bool shift = a->mods & KMOD_SHIFT;
    tn_button btn;
    if (b->button == SDL_BUTTON_LEFT)
        btn = TN_CLICK_LEFT;
    else if (b->button == SDL_BUTTON_RIGHT)
        btn = TN_CLICK_RIGHT;
    else if (b->button == SDL_BUTTON_MIDDLE)
        btn = TN_CLICK_MIDDLE;
    else
        return;
    /* Which terrain this click toggles, for painting by dragging. */
    int kind = -1;
    if (btn == TN_CLICK_MIDDLE || (btn == TN_CLICK_RIGHT && shift))
        kind = TN_TILE_ONEWAY;
    else if (btn == TN_CLICK_RIGHT)
        kind = TN_TILE_BLOCK;
    else if (tn_world_tool(a->w) == TN_TOOL_BLOCK)
        kind = TN_TILE_BLOCK;
    else if (tn_world_tool(a->w) == TN_TOOL_ONEWAY)
        kind = TN_TILE_ONEWAY;
    tn_error err;
    tn_status s = tn_undo_click(&a->undo, a->w, tx, ty, btn, shift, &err);
    if (btn == TN_CLICK_LEFT && tn_world_tool(a->w) == TN_TOOL_NAVPATH && !tn_failed(s) &&
        tn_playback_record_navpath(&a->pb, a->w, tx, ty) > 0)
        a->pb.active = (a->view.overlays & TN_OVERLAY_EXPLORED) != 0;
    if (kind >= 0 && !tn_failed(s)) {
        a->paint_button = b->button;
        a->paint_kind = kind;
        a->paint_on = tn_map_tile(tn_world_map(a->w), tx, ty) == kind;
        a->paint_x = tx;
        a->paint_y = ty;
        a->paint_lifted = false;
    }
}

/* Ctrl+left held: a move of more than 4 px turns it into a pan. */
static bool drag_motion(app *a, int x, int y)
{
    if (!a->drag_mode) return false;
    if (a->drag_mode == 1 && abs(x - a->drag_x0) + abs(y - a->drag_y0) > 4) {
        if (a->view.follow) camera_free(a);
        a->drag_mode = 2;
        a->drag_cam_x = a->view.cam_x;
        a->drag_cam_y = a->view.cam_y;
    }
    if (a->drag_mode == 2) {
        float s = tn_zoom_levels[zoom_index(a)];
        a->view.cam_x = a->drag_cam_x - (float)(x - a->drag_x0) / s;
        a->view.cam_y = a->drag_cam_y - (float)(y - a->drag_y0) / s;
        camera_move(a, 0, 0);
    }
    return true;
}

static bool bar_mouse(app *a, const SDL_Event *ev, int x, int y)
{
    tn_ui_action act;
    int arg = 0;
    if (!tn_ui_bar_mouse(&a->view, ev, x, y, &act, &arg)) return false;
    if (act != TN_ACT_NONE) bar_action(a, act, arg);
    return true;
}

static void ui_resize(app *a);

/* A D W S pressed with Ctrl, Alt or GUI and not yet released (Ctrl+S). */
static void chord_key(app *a, const SDL_KeyboardEvent *k)
{
    const SDL_Scancode sc = k->keysym.scancode;
    const char letter = sc == SDL_SCANCODE_A   ? 'a'
                        : sc == SDL_SCANCODE_D ? 'd'
                        : sc == SDL_SCANCODE_W ? 'w'
                        : sc == SDL_SCANCODE_S ? 's'
                                               : 0;
    tn_chord_key_event(&a->chord, letter, k->type == SDL_KEYDOWN, k->repeat != 0,
                       (k->keysym.mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)) != 0);
}

static void handle_event(app *a, const SDL_Event *ev)
{
    switch (ev->type) {
    case SDL_QUIT: request_quit(a); break;
    case SDL_KEYDOWN:
        a->mods = ev->key.keysym.mod;
        chord_key(a, &ev->key);
        /* anything but Esc between two quit requests takes the first back */
        if (ev->key.keysym.sym != SDLK_ESCAPE) a->quit_armed = false;
        key_down(a, &ev->key);
        break;
    case SDL_KEYUP:
        a->mods = ev->key.keysym.mod;
        chord_key(a, &ev->key);
        break;
    case SDL_RENDER_TARGETS_RESET: /* target textures lost their pictures (Direct3D) */
    case SDL_RENDER_DEVICE_RESET: a->gfx.layer.ok = false; break;
    case SDL_WINDOWEVENT:
        if (ev->window.event == SDL_WINDOWEVENT_LEAVE) {
            a->view.mouse_in = false;
            a->paint_lifted = true; /* it may come back anywhere */
        }
        if (ev->window.event == SDL_WINDOWEVENT_ENTER) a->view.mouse_in = true;
        if (ev->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) ui_resize(a);
        break;
    case SDL_MOUSEMOTION: {
        a->view.mouse_x = ev->motion.x;
        a->view.mouse_y = ev->motion.y;
        a->view.mouse_in = true;
        int tx = 0, ty = 0;
        const bool on_map = mouse_tile(a, ev->motion.x, ev->motion.y, &tx, &ty);
        if (a->paint_button && !on_map) a->paint_lifted = true; /* over the bar or panel too */
        if (drag_motion(a, ev->motion.x, ev->motion.y)) break;
        if (bar_mouse(a, ev, ev->motion.x, ev->motion.y)) break;
        if (tn_ui_panel_mouse(&a->view, a->w, ev, ev->motion.x, ev->motion.y)) break;
        if (a->paint_button && on_map) paint_to(a, tx, ty);
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        a->quit_armed = false;
        a->view.mouse_x = ev->button.x;
        a->view.mouse_y = ev->button.y;
        if (a->view.show_help) { /* a click closes the help */
            show_help(a, false);
            break;
        }
        if (a->view.picker_count > 0) { /* a click picks a map or closes the list */
            int i = tn_ui_picker_hit(&a->view, ev->button.x, ev->button.y);
            if (i >= 0)
                picker_choose(a, i);
            else
                picker_close(a);
            break;
        }
        if (bar_mouse(a, ev, ev->button.x, ev->button.y)) break;
        if (tn_ui_panel_mouse(&a->view, a->w, ev, ev->button.x, ev->button.y)) break;
        if (!a->paint_button) mouse_down(a, &ev->button);
        break;
    case SDL_MOUSEBUTTONUP:
        if (ev->button.button == SDL_BUTTON_LEFT && a->drag_mode) {
            if (a->drag_mode == 1) inspect_at(a, ev->button.x, ev->button.y);
            a->drag_mode = 0;
            break;
        }
        /* a stroke ends wherever its button comes up: over the top bar too
         * (which takes the release), else the pointer coming back onto the
         * map with no button held painted on */
        if (ev->button.button == a->paint_button) a->paint_button = 0;
        if (bar_mouse(a, ev, ev->button.x, ev->button.y)) break;
        tn_ui_panel_mouse(&a->view, a->w, ev, ev->button.x, ev->button.y);
        break;
    case SDL_MOUSEWHEEL: {
        int dy = ev->wheel.y;
        if (ev->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) dy = -dy;
        /* the wheel scrolls the help in a small window, wherever the
         * pointer is over it: the top bar and the panel under it took the
         * wheel first (the help's right part and top band did not scroll) */
        if (a->view.show_help) {
            a->view.help_scroll =
                tn_clampi(a->view.help_scroll - 40 * dy, 0, tn_ui_help_scroll_max());
            break;
        }
        /* the picker's list, wherever the pointer is, as its clicks: over
         * the panel the wheel stepped a slider behind the open list (or
         * did nothing), and the list did not move */
        if (a->view.picker_count > 0) {
            tn_view *v = &a->view;
            v->picker_sel = tn_clampi(v->picker_sel - dy, 0, v->picker_count - 1);
            tn_ui_picker_scroll(v);
            break;
        }
        if (bar_mouse(a, ev, a->view.mouse_x, a->view.mouse_y)) break;
        if (tn_ui_panel_mouse(&a->view, a->w, ev, a->view.mouse_x, a->view.mouse_y)) break;
        if (dy) zoom_at(a, a->view.mouse_x, a->view.mouse_y, dy > 0 ? 1 : -1);
        break;
    }
    default: break;
    }
}

/* A pinned bot's, wanderer's or enemy's card closes when its agent is
 * removed (a wanderer moved to another slot is followed; an enemy's
 * message says whether it reached a destination or was crushed). */
static void unpin_removed(app *a)
{
    if (tn_inspect_unpin_removed(a->w, a->view.inspect_kind, &a->view.inspect_index,
                                 a->view.inspect_serial, &a->view.inspect_seen))
        a->view.inspect_kind = TN_INSPECT_NONE;
}

/* Per frame, after the steps: what issue 14 adds to the loop. */
static void frame_extra(app *a, double dt)
{
    a->view.restore_offered = a->restore_offered;
    if (a->view.picker_count > 0) tn_ui_picker_scroll(&a->view); /* after a resize */
    unpin_removed(a);
    watch_goto(a);
    tn_playback_frame(&a->pb, dt, a->view.overlays, a->view.show_help); /* the help waits */
    camera_keys(a, dt > 0.1 ? 0.1 : dt);
    update_flow8(a);
}

/* Settings: sliders, overlays, toggles, speeds, window size. */
static void load_settings(app *a)
{
    char path[1024], err[512];
    tn_settings st;
    if (!tn_settings_path(path, sizeof path)) return;
    int r = tn_settings_load(&st, path, err, sizeof err);
    if (r < 0) {
        tn_print_shown(stderr, "tilenav: settings ignored: %s\n", err);
        tn_world_message(a->w, "settings ignored: %s", err);
        a->settings_ignored = true;
        return;
    }
    if (r == 0) return;
    char unused[2048]; /* unknown keys, values out of range: said once, here */
    if (tn_settings_check(&st, path, unused, sizeof unused) > 0)
        for (char *l = unused, *nl; l && *l; l = nl ? nl + 1 : NULL) {
            nl = strchr(l, '\n');
            if (nl) *nl = '\0';
            tn_print_shown(stderr, "tilenav: warning: %s\n", l);
        }
    double v;
    int n;
    const tn_param_info *pi = tn_world_params(&n);
    for (int i = 0; i < n; i++) {
        tn_error e;
        if (!tn_settings_read_at_start(pi[i].name)) continue; /* the command line's */
        if (tn_settings_get(&st, pi[i].name, &v) && v >= pi[i].min && v <= pi[i].max)
            tn_world_set(a->w, pi[i].name, pi[i].integer ? floor(v) : v, &e);
    }
    unsigned bits;
    if (tn_settings_get(&st, "overlays", &v) && tn_overlays_from_number(v, &bits) &&
        !a->opts->overlays)
        a->view.overlays = bits; /* Shift+P (64) included */
    int iv;
    if (tn_settings_get_int(&st, "speed", 0, TN_SPEED_COUNT - 1, &iv)) a->view.speed = iv;
    if (tn_settings_get_int(&st, "search_speed", 0, TN_PB_RATES - 1, &iv)) a->pb.speed = iv;
    if (tn_settings_get(&st, "hud_hidden", &v)) a->view.hud_hidden = v != 0;
    if (tn_settings_get(&st, "fast_heuristic", &v) && (v != 0) != a->view.fast_heuristic) {
        a->view.fast_heuristic = v != 0;
        tn_wbots_set_heuristic(a->w, a->view.fast_heuristic ? TN_PATH_FAST : TN_PATH_OPTIMAL);
    }
    if (tn_settings_get(&st, "flow8", &v)) a->view.flow8 = v != 0;
#ifndef __EMSCRIPTEN__ /* in a browser the window is the page's size */
    double ww, wh;
    if (tn_settings_get(&st, "window_w", &ww) && tn_settings_get(&st, "window_h", &wh) &&
        ww >= TN_WINDOW_MIN_W && wh >= TN_WINDOW_MIN_H && ww <= 8192 && wh <= 8192) {
        /* at most the display's usable size: a size saved on a larger
         * display (or written by hand) put the panel and the status line
         * off the screen, and at 8192x8192 nothing was shown at all */
        int w = (int)ww, h = (int)wh, d = SDL_GetWindowDisplayIndex(a->win);
        SDL_Rect ub;
        bool cut = false;
        if (d >= 0 && SDL_GetDisplayUsableBounds(d, &ub) == 0 && ub.w > 0 && ub.h > 0) {
            cut = w > ub.w || h > ub.h;
            w = w > ub.w ? ub.w : w;
            h = h > ub.h ? ub.h : h;
        }
        SDL_SetWindowSize(a->win, w, h);
        if (cut) {
            SDL_SetWindowPosition(a->win, SDL_WINDOWPOS_CENTERED_DISPLAY(d),
                                  SDL_WINDOWPOS_CENTERED_DISPLAY(d));
            tn_print_shown(stderr,
                           "tilenav: the settings' window size %dx%d is larger than the "
                           "display's %dx%d: the window is %dx%d\n",
                           (int)ww, (int)wh, ub.w, ub.h, w, h);
        }
    }
#endif
}

/* The settings to save, into st. */
static void current_settings(app *a, tn_settings *st)
{
    memset(st, 0, sizeof *st);
    tn_settings_from_world(st, a->w); /* (not the character's: never read back) */
    tn_settings_put(st, "overlays", a->view.overlays);
    tn_settings_put(st, "speed", a->view.speed);
    tn_settings_put(st, "search_speed", a->pb.speed);
    tn_settings_put(st, "hud_hidden", a->view.hud_hidden);
    tn_settings_put(st, "fast_heuristic", a->view.fast_heuristic);
    tn_settings_put(st, "flow8", a->view.flow8);
#ifndef __EMSCRIPTEN__ /* in a browser the window is the page's size */
    int ww, wh;
    SDL_GetWindowSize(a->win, &ww, &wh);
    /* a window kept under the minimum (a window manager that insists)
     * opens at the minimum: saved as it, not as a size the next run's
     * settings check says is out of range */
    tn_settings_put(st, "window_w", ww < TN_WINDOW_MIN_W ? TN_WINDOW_MIN_W : ww);
    tn_settings_put(st, "window_h", wh < TN_WINDOW_MIN_H ? TN_WINDOW_MIN_H : wh);
#endif
}

/* 0, or -1 (said on stderr) */
static int save_settings(app *a)
{
    char path[1024], err[512];
    if (!tn_settings_path(path, sizeof path)) return 0;
    tn_settings st;
    current_settings(a, &st);
    if (a->settings_ignored) { /* the user's file, maybe hand-edited: kept aside, not replaced */
        char bad[1100];        /* SETTINGS.bad, or SETTINGS.bad.N: an earlier one is kept */
        if (tn_settings_set_aside(path, bad, sizeof bad, err, sizeof err) != 0) {
            tn_print_shown(stderr, "tilenav: settings not saved: it was ignored, and %s\n", err);
            return -1;
        }
        a->settings_ignored = false;
        if (bad[0])
            tn_print_shown(stderr, "tilenav: the ignored settings file is kept as %s\n", bad);
    }
    if (tn_settings_save(&st, path, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav: settings not saved: %s\n", err);
        return -1;
    }
    return 0;
}

static void app_start(app *a)
{
    a->opts_copy = *a->opts;
    a->opts = &a->opts_copy;
    tn_undo_clear(&a->undo);
    if (!tn_world_dirty(a->w)) {
        tn_undo_set_clean(&a->undo, a->w); /* as loaded */
        note_base(a);
    }
    if (tn_playback_init(&a->pb) == 0) a->view.pb = &a->pb;
    watch_goto(a); /* only notes the plan count */
    load_settings(a);
}

static void app_end(app *a)
{
    picker_close(a);
    save_settings(a);
    tn_playback_free(&a->pb);
    tn_path_destroy(a->pb_finder);
    tn_flow8_free(&a->flow8);
    a->view.pb = NULL;
}

/* Script commands for the window: speed, reset, playback. */
static int host_control(void *user, tn_world *w, int op, double value, char *err, size_t cap)
{
    app *a = user;
    (void)w;
    (void)err;
    (void)cap;
    switch (op) {
    case TN_SC_SPEED: a->view.speed = tn_speed_index(value); break;
    case TN_SC_RESET: reset_world(a); break;
    case TN_SC_PAUSE: a->view.paused = value != 0; break;
    case TN_SC_PLAYBACK:
        watch_goto(a);
        if (!tn_playback_control(&a->pb, a->w, &a->view.overlays, TN_PB_REPLAY)) break;
        a->pb.paused = true;
        a->pb.shown = value < 0                   ? a->pb.trace.count
                      : value > a->pb.trace.count ? a->pb.trace.count
                                                  : value;
        break;
    default: break;
    }
    return 0;
}

/* The logical frame for the window's size: 1280x720 scaled when the window
 * is at least that large, else the window's own pixels 1:1 (ui.h).  A
 * window made smaller than the minimum (no window manager to keep it, as
 * under Xvfb: xdotool windowsize 700 400) is set back to it, once for that
 * size; one kept smaller shows the minimum's layout 1:1, cut at its right
 * and bottom edges (it was the 900x500 frame shrunk, text under 12 px). */
static void ui_resize(app *a)
{
#ifndef __EMSCRIPTEN__ /* in a browser the canvas is the page's size */
    int ww = 0, wh = 0;
    SDL_GetWindowSize(a->win, &ww, &wh);
    if (ww >= TN_WINDOW_MIN_W && wh >= TN_WINDOW_MIN_H) {
        /* the size it was set back to (SDL says so at once, before the
         * window manager answers) does not forget the small one: a window
         * manager that insists on it was answered with a set-back each
         * time, for ever (ten a second under a 0.1 s poll) */
        if (ww != a->back_w || wh != a->back_h) a->small_w = a->small_h = a->back_w = a->back_h = 0;
    } else if (ww > 0 && wh > 0 && (ww != a->small_w || wh != a->small_h)) {
        a->small_w = ww, a->small_h = wh;
        const int nw = ww < TN_WINDOW_MIN_W ? TN_WINDOW_MIN_W : ww;
        const int nh = wh < TN_WINDOW_MIN_H ? TN_WINDOW_MIN_H : wh;
        a->back_w = nw, a->back_h = nh;
        SDL_SetWindowSize(a->win, nw, nh);
        tn_world_message(a->w, "window %dx%d is under the minimum %dx%d: set back to %dx%d", ww, wh,
                         TN_WINDOW_MIN_W, TN_WINDOW_MIN_H, nw, nh);
    }
#endif
    int ow = 0, oh = 0;
    if (SDL_GetRendererOutputSize(a->ren, &ow, &oh) != 0 || ow <= 0 || oh <= 0) return;
    int lw, lh, uw, uh, cw = 0, ch = 0;
    tn_window_frame(ow, oh, &lw, &lh, &uw, &uh);
#ifdef __EMSCRIPTEN__ /* a page under the minimum: its frame scaled to fit (a cut one cannot scroll) */
    lw = uw, lh = uh;
#endif
    SDL_RenderGetLogicalSize(a->ren, &cw, &ch);
    if (lw != cw || lh != ch) SDL_RenderSetLogicalSize(a->ren, lw, lh);
    if (uw != tn_ui_w || uh != tn_ui_h) {
        const bool fitted = view_fitted(a);
        tn_ui_set_size(uw, uh);
        if (fitted)
            camera_fit(a,
                       a->view.zoom != tn_zoom_fit_all_in(tn_world_map(a->w), tn_view_h(&a->view)));
    }
    /* the pointer's logical place moved with the size: a motion where it
     * rests, so hover and the footer's help are of what is under it now (a
     * review saw a slider's help stay after a resize).  Also when the
     * frame keeps its size: scaled or letterboxed anew (1280x800 to
     * 1280x720), the hover, the readout and the wheel's zoom centre stayed
     * 40 px off until the mouse moved.  With the buttons held: a motion
     * saying none is held ended a slider's drag (tn_ui_panel_mouse takes
     * it for a release it did not see) */
    int mx, my;
    if (SDL_GetMouseFocus() == a->win) {
        const Uint32 buttons = SDL_GetMouseState(&mx, &my);
        SDL_Event m = {0};
        m.type = SDL_MOUSEMOTION;
        m.motion.windowID = SDL_GetWindowID(a->win);
        m.motion.state = buttons;
        m.motion.x = mx, m.motion.y = my;
        SDL_PushEvent(&m);
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
        snprintf(err, cap,
                 "cannot start SDL video: %s; without a display use --headless "
                 "--frames N (a run without a window) or --screenshot OUT.bmp",
                 SDL_GetError());
        return -1;
    }
    /* Without a display SDL falls back to a windowless driver, where the
     * game would run unseen forever: refuse it unless it was asked for. */
    const char *drv = SDL_GetCurrentVideoDriver(), *asked = SDL_getenv("SDL_VIDEODRIVER");
    if (drv && (strcmp(drv, "offscreen") == 0 || strcmp(drv, "dummy") == 0) &&
        !(asked && strstr(asked, drv))) {
        snprintf(err, cap,
                 "no display to open a window on (is DISPLAY set?); without one use "
                 "--headless --frames N (a run without a window) or --screenshot OUT.bmp");
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
    SDL_SetWindowMinimumSize(a->win, TN_WINDOW_MIN_W, TN_WINDOW_MIN_H);
    set_title(a);
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
    ui_resize(a);
    if (tn_fonts_open(&a->fonts, a->opts->assets_dir, err, cap) != 0) return -1;
    if (tn_gfx_init(&a->gfx, a->ren, &a->fonts, err, cap) != 0) return -1;
    return 0;
}

static void close_window(app *a)
{
    tn_map_destroy(a->base);
    a->base = NULL;
    forget_merge(a);
    tn_gfx_free(&a->gfx);
    tn_fonts_close(&a->fonts);
    if (a->ren) SDL_DestroyRenderer(a->ren);
    if (a->win) SDL_DestroyWindow(a->win);
    TTF_Quit();
    SDL_Quit();
}

/* Quitting with unsaved edits writes MAP.autosave (request_quit() may have
 * done so already) and says so; 1 when the edits are lost: after a second
 * Esc that confirmed it, or in a run that ended by itself (--frames, a
 * script error), which cannot wait for an answer. */
static int autosave(app *a)
{
    if (!tn_world_dirty(a->w)) return 0;
    char path[1024], err[512];
    if (a->autosaved) /* written there */
        snprintf(path, sizeof path, "%s", a->autosave_at);
    else if (write_autosave(a, path, sizeof path, err, sizeof err) != 0) {
        tn_print_shown(
            stderr, "tilenav: unsaved edits lost: %s, and the autosave could not be written: %s\n",
            a->quit_lost ? "quit again after the warning"
                         : "the run ended (--frames or a script error) with unsaved edits",
            err);
        return 1;
    }
    if (a->autosave_kept[0])
        tn_print_shown(stdout, "tilenav: an older autosave (edits never restored) is kept as %s\n",
                       a->autosave_kept);
    tn_print_shown(stdout, "tilenav: unsaved edits written to %s\n", path);
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
    /* the time outside the steps and the drawing (events, sliders, the
     * overlays' tn_world_prepare), and the longest frame's work, this half
     * second */
    double other_sum, worst;
    double worst_t;    /* when the slowest frame shown was measured */
    double next_frame; /* the next frame's deadline (pacing) */
    long drawn;        /* frames presented */
    int fps_frames, fps_steps, rc;
} loop_state;

static void run_frame(loop_state *L);
static int finish(loop_state *L);
#ifdef __EMSCRIPTEN__
static loop_state *web_loop; /* the page's game, for tn_web_state(); NULL once stopped */
static int web_rc = -1;      /* its exit code once stopped */

/* A reload or a closed tab runs no exit code: the browser build keeps the
 * unsaved edits (MAP.autosave, restored with R on the next visit) and the
 * settings in IndexedDB a second (keep_delay) after they change, and at
 * once when the page is left or hidden (tn_web_keep, web/web_main.c). */
static struct {
    double delay;        /* seconds after the last change */
    int edits;           /* tn_world_edits() and tn_world_dirty() when seen */
    bool dirty, pending; /* a change not kept yet */
    double changed;      /* its time (now_s) */
    double settings_t;   /* settings last compared (now_s) */
    bool settings_known; /* settings: what the store holds (as read or kept) */
    tn_settings settings;
} keep = {1.0, 0, false, false, 0, 0, false, {0}};

/* The unsaved edits into MAP.autosave, or, undone back to the map file's
 * state, this session's autosave removed: true when /save changed. */
static bool keep_edits(app *a)
{
    char path[1024], err[512];
    if (!a->opts->map_path) return false;
    if (tn_world_dirty(a->w)) {
        /* edits offered for R (from the last visit, or a reset) are moved
         * aside, not overwritten */
        if (a->restore_offered) a->autosave_ours = false;
        if (write_autosave(a, path, sizeof path, err, sizeof err) != 0) {
            tn_world_message(a->w, "unsaved edits not kept in the browser's storage: %s", err);
            tn_world_set_message_ttl(a->w, 60 * 10);
            return false;
        }
        if (a->autosave_kept[0]) {
            a->restore_offered = false;
            tn_world_message(a->w, "your edits are kept in %s; the older edits are now %s", path,
                             a->autosave_kept);
            tn_world_set_message_ttl(a->w, 60 * 10);
        }
        return true;
    }
    if (a->autosave_ours && !a->restore_offered && tn_is_regular_file(a->autosave_at)) {
        remove(a->autosave_at); /* no unsaved edits left: it would offer them again */
        a->autosave_ours = false;
        return true;
    }
    return false;
}

/* The settings, when they changed since the store last had them: true when
 * written. */
static bool keep_settings(app *a)
{
    tn_settings st;
    current_settings(a, &st);
    if (!keep.settings_known) { /* the first look: what load_settings() read, or defaults */
        keep.settings = st;
        keep.settings_known = true;
        return false;
    }
    if (memcmp(&st, &keep.settings, sizeof st) == 0) return false;
    keep.settings = st; /* tried once per change, not every second */
    return save_settings(a) == 0;
}

/* After each frame: what changed a keep_delay ago goes to the store. */
static void keep_frame(app *a)
{
    double t = now_s();
    int edits = tn_world_edits(a->w);
    bool dirty = tn_world_dirty(a->w), wrote = false;
    if (edits != keep.edits || dirty != keep.dirty) {
        keep.edits = edits;
        keep.dirty = dirty;
        keep.pending = true;
        keep.changed = t;
    }
    if (keep.pending && t - keep.changed >= keep.delay) {
        keep.pending = false;
        wrote = keep_edits(a);
    }
    if (t - keep.settings_t >= keep.delay) {
        keep.settings_t = t;
        wrote |= keep_settings(a);
    }
    if (wrote) tn_web_sync();
}

/* For the page (web/web_main.c: leaving or hiding it): keep now what
 * changed; 1 when the store changed (the sync it started may not finish). */
EMSCRIPTEN_KEEPALIVE int tn_web_keep(void)
{
    loop_state *L = web_loop;
    if (!L) return 0;
    bool wrote = false;
    if (keep.pending || tn_world_edits(L->w) != keep.edits || tn_world_dirty(L->w) != keep.dirty) {
        keep.edits = tn_world_edits(L->w);
        keep.dirty = tn_world_dirty(L->w);
        keep.pending = false;
        wrote = keep_edits(&L->a);
    }
    wrote |= keep_settings(&L->a);
    if (wrote) tn_web_sync();
    return wrote;
}

/* For the test: the delay after a change before it is kept (seconds). */
EMSCRIPTEN_KEEPALIVE void tn_web_keep_delay(double seconds) { keep.delay = seconds; }

/* For the test: tile (x, y) of the map being played (TN_* tile codes). */
EMSCRIPTEN_KEEPALIVE int tn_web_tile(int x, int y)
{
    return web_loop ? tn_map_tile(tn_world_map(web_loop->w), x, y) : -1;
}

static void web_frame(void *arg)
{
    loop_state *L = arg;
    run_frame(L);
    if (!L->a.quit) {
        keep_frame(&L->a);
        return;
    }
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
        snprintf(stopped, sizeof stopped, "{\"stopped\":%s,\"rc\":%d}",
                 web_rc >= 0 ? "true" : "false", web_rc);
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
    int n = snprintf(buf, cap,
                     "{\"fps\":%.2f,\"step_ms\":%.4f,\"frame_ms\":%.3f,\"renderer\":\"%s\","
                     "\"window\":[%d,%d],\"overlays\":%u,\"quit\":%s,\"world\":",
                     v->fps, v->step_ms, v->frame_ms, v->renderer ? v->renderer : "", ww, wh,
                     v->overlays, L->a.quit ? "true" : "false");
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
    if (!tn_camera_tile_at(&c, tn_world_map(L->w), lx, ly, &cx, &cy) || cx != tx || cy != ty)
        return "null";
    int wx, wy;
    SDL_RenderLogicalToWindow(L->a.ren, (float)lx, (float)ly, &wx, &wy);
    snprintf(buf, sizeof buf, "[%d,%d]", wx, wy);
    return buf;
}
#endif

int tn_game_run(tn_world *w, const tn_game_opts *opts)
{
    /* the window freezes while a save waits for another one's lock */
    tn_save_set_lock_wait(1500);
#ifdef __EMSCRIPTEN__
    static loop_state state; /* the browser calls web_frame() long after this returns */
#else
    loop_state state;
#endif
    /* The app lives in the loop state from the start: it holds pointers
     * into itself (opts_copy, the playback), so it is never copied. */
    loop_state *L = &state;
    memset(L, 0, sizeof *L);
    app *a = &L->a;
    a->w = w;
    a->opts = opts;
    a->fit_zoom = -1; /* O has not fitted the view (open_window lays out: ui_resize) */
    char err[512];
    if (open_window(a, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav: %s\n", err);
        close_window(a);
        return 1;
    }
    tn_view_init(&a->view, w, opts->overlays);
    a->view.live = true;
    app_start(a);
    offer_restore(a);
    /* Pacing: vsync where the renderer has it, and in any case a cap at the
     * display's refresh rate (DEFAULT_CAP_HZ when unknown). */
    SDL_RendererInfo info;
    SDL_DisplayMode mode;
    int hz = SDL_GetWindowDisplayMode(a->win, &mode) == 0 && mode.refresh_rate > 0
                 ? mode.refresh_rate
                 : DEFAULT_CAP_HZ;
    bool vsync = false;
    if (SDL_GetRendererInfo(a->ren, &info) == 0) {
        a->view.renderer = info.name;
        vsync = (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
    }
    snprintf(a->view.pacing, sizeof a->view.pacing, "%scap %d Hz", vsync ? "vsync, " : "", hz);
    a->prev_x = tn_world_character(w)->x;
    a->prev_y = tn_world_character(w)->y;
    L->old_clock = tn_world_clock(w);
    tn_world_set_clock(w, now_s);
    /* a slow graph build (a big map, a slider let go) must not freeze the
     * window: it is made on another thread while the bots wait */
    tn_world_build_graphs_in_background(w, true);
    /* the steps run in one frame share the bots' planning budget: catch-up
     * steps after a slow frame must not each plan (a slower frame again) */
    tn_world_plan_budget_per_frame(w, true);
    L->w = w;
    L->opts = opts;
    L->host = (tn_script_host){a, host_save, host_screenshot, host_control, NULL};
    L->min_frame = 1.0 / hz;
    L->last = L->fps_t0 = L->next_frame = now_s();
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
        double step_before = step_sum, o0 = t;

        SDL_Event ev;
        while (SDL_PollEvent(&ev)) handle_event(a, &ev);
        double other = now_s() - o0;
        if (a->quit) break;

        /* the steps due (tn_sim_frame: speed, pause, single steps, backlog) */
        int due = tn_sim_frame(&acc, dt, a->view.speed, a->view.paused, &a->step_requests);
        int steps = 0;
        while (steps < due && !a->quit) {
            if (opts->script &&
                tn_script_apply(opts->script, w, tn_world_frame(w), &host, err, sizeof err) != 0) {
                tn_print_shown(stderr, "tilenav: %s\n", err);
                rc = 1;
                a->quit = true;
                break;
            }
            /* the script's keys (if any) and the keyboard together */
            tn_input kb = keyboard_input(a), in = opts->script ? tn_world_input(w) : kb;
            if (opts->script) {
                in.left |= kb.left;
                in.right |= kb.right;
                in.down |= kb.down;
                in.jump |= kb.jump;
            }
            tn_world_set_input(w, in);
            a->prev_x = tn_world_character(w)->x;
            a->prev_y = tn_world_character(w)->y;
            double s0 = now_s();
            tn_world_step(w);
            /* a message lasts as long on screen at 2x and 4x as at 1x */
            tn_control_pace_message(w, a->view.paused ? -1 : a->view.speed, &a->msg_credit);
            step_sum += now_s() - s0;
            fps_steps++;
            if (tn_world_character(w)->vx > 1)
                a->view.facing = 1;
            else if (tn_world_character(w)->vx < -1)
                a->view.facing = -1;
            steps++;
            if (opts->frames > 0 && tn_world_frame(w) >= opts->frames) a->quit = true;
        }
        const double stepped = step_sum - step_before; /* (before the fps block resets it) */
        o0 = now_s();
        frame_extra(a, dt);
        tn_world_prepare(w, a->view.overlays);
        other += now_s() - o0;
        L->other_sum += other;

        float alpha = a->view.paused ? 1.0f : (float)(acc / STEP_S);
        alpha = alpha < 0 ? 0 : alpha > 1 ? 1 : alpha;
        a->view.char_x = a->prev_x + (tn_world_character(w)->x - a->prev_x) * alpha;
        a->view.char_y = a->prev_y + (tn_world_character(w)->y - a->prev_y) * alpha;

        fps_frames++;
        if (t - fps_t0 >= 0.5) {
            a->view.fps = fps_frames / (t - fps_t0);
            a->view.step_ms = fps_steps ? step_sum * 1000.0 / fps_steps : 0;
            a->view.frame_ms = draw_sum * 1000.0 / fps_frames;
            a->view.other_ms = L->other_sum * 1000.0 / fps_frames;
            /* a slow frame stays named 3 s (at 2 fps the next half second
             * would drop it before anyone reads it) */
            if (L->worst * 1000.0 >= a->view.worst_ms || t - L->worst_t > 3.0) {
                a->view.worst_ms = L->worst * 1000.0;
                L->worst_t = t;
            }
            L->other_sum = L->worst = 0;
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
        double drawn_s = now_s() - d0;
        draw_sum += drawn_s;
        double work = other + stepped + drawn_s; /* this frame's */
        if (work > L->worst) L->worst = work;
        SDL_RenderPresent(a->ren);
        L->drawn++;

        /* Frame deadlines one period apart (not "period after this frame
         * ended", which drifts above the cap by the drawing time's rounding);
         * a late frame restarts the schedule instead of bursting. */
        if (min_frame > 0) {
            L->next_frame += min_frame;
            double now = now_s();
            if (L->next_frame < now - min_frame)
                L->next_frame = now;
            else if (L->next_frame > now)
                SDL_Delay((Uint32)((L->next_frame - now) * 1000.0 + 0.5));
        }
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
    if (opts->frames > 0) /* a timed run says how its frames were paced */
        tn_print_shown(stderr, "tilenav: %ld steps, %ld frames drawn (%s)\n", tn_world_frame(w),
                       L->drawn, a->view.pacing);
    /* As in headless runs: commands due at the final frame (a last save or
     * screenshot) still run when --frames ends the game. */
    if (rc == 0 && opts->script && opts->frames > 0 && tn_world_frame(w) >= opts->frames &&
        tn_script_apply(opts->script, w, tn_world_frame(w), &host, err, sizeof err) != 0) {
        tn_print_shown(stderr, "tilenav: %s\n", err);
        rc = 1;
    }
    char warn[512];
    if (rc == 0 && opts->frames > 0 && tn_world_frame(w) >= opts->frames &&
        tn_script_unrun(opts->script, opts->frames, warn, sizeof warn))
        tn_print_shown(stderr, "tilenav: %s\n", warn);
#ifndef __EMSCRIPTEN__
    /* The window goes now: what follows (the autosave and the settings
     * written and synced, then the world's graphs freed, some 0.1-0.5 s
     * on a 1024x1024 level) is not the player's wait. */
    if (a->win) SDL_HideWindow(a->win); /* (X11: waits for the unmap) */
#endif
    if (autosave(a) != 0 && rc == 0) rc = 1;
    app_end(a);
    tn_world_build_graphs_in_background(w, false);
    tn_world_plan_budget_per_frame(w, false);
    tn_world_set_clock(w, L->old_clock);
    close_window(a);
    return rc;
}
