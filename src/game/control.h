/* control.h - the front end's session controls that are not drawing:
 * simulation speed, reset, undo/redo of edits, settings persistence and the
 * search playback's state.  No SDL here: the window (app.c), the headless
 * runner (main.c) and the tests share it.
 */
#ifndef TN_CONTROL_H
#define TN_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "tn_trace.h"
#include "tn_world.h"

enum {
    TN_INSPECT_NONE = 0,
    TN_INSPECT_CHARACTER,
    TN_INSPECT_BOT,
    TN_INSPECT_ENEMY,
    TN_INSPECT_COMPANION,
    TN_INSPECT_WANDERER
};

/* ---- the character's keys ----------------------------------------------
 * What the window's held keys say to the character (tn_world_set_input):
 * the arrows and Space always, the letters A D W S only with no Ctrl, Alt
 * or GUI held (Ctrl+S saves, it does not drop).  Nothing while the map
 * picker is open: its Up / Down (and W / S) move the list, and through the
 * held keys they also made the character jump and drop behind it, which
 * cancelled a goto trip as "you took over". */
typedef struct tn_held_keys {
    bool left, right, up, down, space; /* the arrows and Space */
    bool a, d, w, s;                   /* the letters */
    bool modifier;                     /* Ctrl, Alt or GUI */
    /* letters pressed with a modifier and not released since (tn_chord_keys):
     * out of the character's keys even once the modifier is let go, as a
     * hand releasing Ctrl a moment before S does */
    bool chord_a, chord_d, chord_w, chord_s;
} tn_held_keys;
tn_input tn_control_keys_input(const tn_held_keys *k, bool picker_open);
/* Which letters went down as part of a chord (Ctrl+S) and are still held:
 * call at each key press and release of A D W S (letter 'a', 'd', 'w',
 * 's'; other keys are ignored) with whether Ctrl, Alt or GUI was held.
 * A key's repeats (`repeat`) change nothing: D held to walk, then a tap of
 * Ctrl (Ctrl+Z), repeats D with Ctrl held, and D was no chord (counted as
 * one, the walk stopped for good after Ctrl's release, until D went up).
 * Ctrl let go before S made the S held alone for a few frames a Down:
 * saving cancelled the goto trip under way ("goto cancelled: you took the
 * controls") and dropped the character through the platform it stood on. */
typedef struct tn_chord_keys {
    bool a, d, w, s;
} tn_chord_keys;
void tn_chord_key_event(tn_chord_keys *c, char letter, bool down, bool repeat, bool modifier);

/* ---- simulation speed --------------------------------------------------
 * The fixed step stays 1/60 s; the speed only scales how much simulated
 * time the real time feeds into the step accumulator (1/8x: one step every
 * 8/60 s; 4x: four steps per 1/60 s). */
#define TN_SPEED_COUNT 6
#define TN_SPEED_NORMAL 3                                /* index of 1x */
extern const double tn_speeds[TN_SPEED_COUNT];           /* 0.125 .. 4 */
extern const char *const tn_speed_names[TN_SPEED_COUNT]; /* "1/8x" .. "4x" */
/* The index of a speed value (exact table values only), or -1. */
int tn_speed_index(double speed);
/* One step of the [ / ] keys: the index `speed` moved by `delta` and kept in
 * the table, and in msg (cap bytes) what the status line says: "simulation
 * speed 2x (120 steps per second)", or, when the step would pass an end,
 * "simulation speed already at its fastest, 4x (240 steps per second)". */
int tn_speed_step(int speed, int delta, char *msg, size_t cap);
/* One zoom step of the wheel over a table of n scales (levels, ascending):
 * the index `zoom` moved by `delta` and kept in the table, and in msg what
 * the status line says: "zoom 2x (O: whole map)", or "zoom already at its
 * closest, 4x" / "... at its widest, 0.25x" when the step would pass an end. */
/* A zoom level as the README writes it: "1/8x", "3/4x" below 1 (a fraction
 * of 2, 4, 8 or 16ths), else "2x", "1.5x"; returns buf. */
const char *tn_zoom_name(float z, char *buf, size_t cap);
int tn_zoom_step(int zoom, int delta, const float *levels, int n, char *msg, size_t cap);

/* The window's step clock, kept here (no SDL) so tests can drive it with
 * exact frame times.  One frame: acc = tn_sim_feed(acc, dt, ...), then at
 * most tn_sim_max_steps(speed) steps run while acc >= TN_STEP_S (each takes
 * TN_STEP_S off acc); when that cap is hit with acc still >= TN_STEP_S the
 * backlog is dropped (acc = TN_STEP_S / 2).  tn_sim_feed adds dt (clamped to
 * 0.25 s after a stall) times tn_speeds[speed]; while paused it adds nothing
 * and turns each pending step request (one per '.') into exactly one step.
 * tn_sim_frame does one whole frame of that and returns the steps due. */
#define TN_STEP_S (1.0 / 60.0)
#define TN_MAX_CATCHUP 5 /* steps a frame may run at 1x and below */
double tn_sim_feed(double acc, double dt, int speed, bool paused, int *step_requests);
int tn_sim_max_steps(int speed); /* TN_MAX_CATCHUP x max(1, speed factor) */
int tn_sim_frame(double *acc, double dt, int speed, bool paused, int *step_requests);
/* After one running step at `speed` (index into tn_speeds; -1: a single
 * step while paused): above 1x the step took 1/k of a 1x step's time, so
 * the world's message (its time counted in steps) loses only that much,
 * and a message lasts as long on screen at 2x and 4x as at 1x.  `credit`
 * (start at 0, one per window) carries the fraction between steps. */
void tn_control_pace_message(tn_world *w, int speed, double *credit);

/* ---- reset -------------------------------------------------------------
 * Reload the map from `map_path` and rebuild the world on it: the character
 * back at its start, every agent (bots, enemies, companion, wanderers)
 * cleared, the edit counters zeroed.  Parameters (sliders) keep their
 * values except the agent counts (bots, wanderers), which go to 0.  The
 * frame counter keeps counting (scripts key on it).  Unsaved edits are the
 * caller's business (the window writes MAP.autosave first).  0, or -1 with
 * a message; on failure the world is unchanged. */
int tn_control_reset(tn_world *w, const char *map_path, char *err, size_t cap);

/* A map whose start has no room for the character (a block above it, or
 * the map's edge, for its size): the world puts the character at the
 * nearest place it fits.  True, with "PATH:LINE:COL: the WxH-tile
 * character does not fit at its start, tile (X,Y) ...: it starts at tile
 * (X2,Y2) instead ..." in msg (LINE:COL of the 'P' or the `start` line;
 * only PATH when unknown), when the character does not stand on the map's
 * start now; false when it does or the map has none.  A `start X Y` line
 * on a block (a start kept under a block a save left there) says "PATH:
 * LINE:COL: the start, tile (X,Y), is inside a block: the WxH-tile
 * character starts at tile (X2,Y2) instead ...".  Called right after a
 * map is played (load, reset, the picker), before any step.  A reset
 * prints it on stderr and shows it in the status line itself. */
bool tn_control_start_moved(const tn_world *w, const char *map_path, char *msg, size_t cap);

/* ---- G, and the panel's Planner switch ----------------------------------
 * Set the planner (1 graph, 0 classic) and say in the status line which
 * one plans now (graph selected on a map too large for a graph: the
 * classic one, or goto off).  Nothing is said when the value is unchanged
 * or refused.  Returns the world's status. */
tn_status tn_control_set_planner(tn_world *w, double value);

/* ---- Z: knock-back --------------------------------------------------------
 * A hit's knock-back on the character (and each extra bot on the ground):
 * TN_CONTROL_KNOCK_PX px sideways, away from the mouse pointer (the hit
 * comes from the pointer's side: pointer at or right of the character's
 * centre pushes left, else right; pointer_wx is the pointer's world x).
 * The world says what happened in the status line (tn_world_knock: off
 * the walk's lattice and what the bot does about it, or "not knocked: the
 * character is in the air").  Returns the world's status. */
#define TN_CONTROL_KNOCK_PX 1.3f
tn_status tn_control_knock(tn_world *w, float pointer_wx);

/* ---- B / Shift+B, M / Shift+M ------------------------------------------
 * One more (delta 1) or one fewer (-1) extra bot ("bots") or wanderer
 * ("wanderers").  At either end of the range the status line says so in
 * words ("no extra bot to remove (B adds one)", "32 bots is the most")
 * rather than the slider's range check ("bots -1 is outside 0..32").
 * Returns the count after the key. */
int tn_control_count_key(tn_world *w, const char *param, int delta);

/* ---- undo / redo --------------------------------------------------------
 * Every accepted edit is recorded as (tile, mark) before and after; undo
 * and redo replay the opposite change through tn_world_edit_to (the
 * normal edit path and its rules, the tile and its mark as one change: all
 * or nothing), so the flow field, the navmesh and the plans follow exactly
 * as for a click.  Refused edits never enter the history.  A ring of
 * TN_UNDO_MAX entries (the oldest drops out); a new edit clears the redo
 * side.  Memory: TN_UNDO_MAX x 8 bytes.
 * The clean point: the place in the history where the map is its file's
 * (tn_undo_set_clean, on a load, reset or save).  An edit, undo or redo
 * that lands on it clears the world's dirty flag (tn_world_set_dirty), one
 * that leaves it sets it.  A new edit that drops a clean point on the redo
 * side, an edit made past the history (tn_world_edits moved on without
 * it) and tn_undo_clear forget it: the flag is then left to the edits. */
#define TN_UNDO_MAX 1024
typedef struct tn_undo_entry {
    int16_t x, y;
    uint8_t tile0, mark0, tile1, mark1;
    bool joined; /* one stroke with the entry before: undone and redone together */
} tn_undo_entry;
typedef struct tn_undo {
    tn_undo_entry e[TN_UNDO_MAX];
    int head;  /* next slot */
    int count; /* entries that can be undone */
    int redo;  /* entries after head that can be redone */
    bool replaying;
    bool join;        /* tn_undo_join: new entries join the one before */
    long pos, clean;  /* edits from the start of the history: now, the clean point */
    bool clean_known; /* false: no clean point in the history */
    int edits_seen;   /* tn_world_edits after the history's last change */
} tn_undo;
void tn_undo_clear(tn_undo *u);
/* The map is its file's now (loaded, reset or saved to it). */
void tn_undo_set_clean(tn_undo *u, const tn_world *w);
/* Edit through the world and record it when accepted (and it changed the
 * tile).  Same status as tn_world_edit / tn_world_click. */
tn_status tn_undo_edit(tn_undo *u, tn_world *w, int x, int y, tn_edit kind, tn_error *err);
tn_status tn_undo_click(tn_undo *u, tn_world *w, int x, int y, tn_button b, bool shift,
                        tn_error *err);
/* A stroke: while on, each edit recorded joins the one before it, so that
 * one Ctrl+Z undoes (and Ctrl+Y redoes) a whole drag of painted blocks, as
 * editors do, not one tile of it (a drag across 6 tiles took 6). */
void tn_undo_join(tn_undo *u, bool on);
/* Undo / redo one edit, or one stroke of joined edits.  false when there
 * is nothing to undo / redo, or when the world refused the replay (e.g.
 * the character now stands there: the history is then kept as it was from
 * that edit on, and the world's message says why). */
bool tn_undo_undo(tn_undo *u, tn_world *w);
bool tn_undo_redo(tn_undo *u, tn_world *w);
/* Ctrl+Z: tn_undo_undo; with nothing to undo while autosaved edits are
 * offered (R), which is so right after Ctrl+R (a reset starts the history
 * afresh and puts the edits in MAP.autosave), the status line points at R
 * rather than a bare "nothing to undo" (a Ctrl+Z to take a reset back). */
bool tn_undo_undo_key(tn_undo *u, tn_world *w, bool restore_offered);

/* ---- settings ----------------------------------------------------------
 * $XDG_CONFIG_HOME/tilenav/settings (or ~/.config/tilenav/settings): lines
 * "name value"; parameters by their world names plus the front end's own
 * keys.  Written atomically (tmp + fsync + rename).  A malformed file is
 * ignored as a whole with a message naming file, line and problem. */
#define TN_SETTINGS_MAX 40
/* The window's smallest size (app.c: SDL_SetWindowMinimumSize; the UI's
 * packed 1:1 layout is made for it), so also window_w's and window_h's. */
#define TN_WINDOW_MIN_W 900
#define TN_WINDOW_MIN_H 500
/* The frame for a window whose renderer output is ow x oh px: *lw x *lh,
 * the logical size the output shows (scaled up from 1280x720 in a larger
 * window, else the output's own pixels 1:1), and *uw x *uh, the UI's
 * layout, the same but never under TN_WINDOW_MIN_W x _H: a window below
 * that (a window manager that ignores the minimum, or none) shows the
 * minimum's layout 1:1 cut at its right and bottom edges, never shrunk
 * (text under 12 px). */
void tn_window_frame(int ow, int oh, int *lw, int *lh, int *uw, int *uh);
typedef struct tn_settings {
    int count;
    char name[TN_SETTINGS_MAX][32];
    double value[TN_SETTINGS_MAX];
    int line[TN_SETTINGS_MAX]; /* where tn_settings_load read it (0: put) */
} tn_settings;
/* The settings path into out; false when neither XDG_CONFIG_HOME nor HOME
 * is set, or when the path would not fit in cap bytes (never a cut name). */
bool tn_settings_path(char *out, size_t cap);
/* Load: 1 when read, 0 when there is no file, -1 when malformed or not
 * readable (a directory, a FIFO: refused at once, never waited on; a NUL
 * byte; message "PATH[:LINE]: problem" in err, s left empty). */
int tn_settings_load(tn_settings *s, const char *path, char *err, size_t cap);
/* Save: "name value" lines, each value in the fewest digits that read back
 * as it (as a float for a float's value: "0.1", not 0.10000000149011612). */
int tn_settings_save(const tn_settings *s, const char *path, char *err, size_t cap);
/* The settings the game does not use, read from `path`: an unknown name,
 * or a value outside what its key takes (a world parameter's range, the
 * window's own keys': speed 0..5, window_w 900..8192, window_h
 * 500..8192, ...), each ignored.  One line "PATH:LINE: problem (ignored)" for each, "\n" between, into
 * out (cut to cap); returns how many. */
int tn_settings_check(const tn_settings *s, const char *path, char *out, size_t cap);

/* Move an ignored (malformed) settings file aside rather than replace the
 * user's hand edits: to SETTINGS.bad, or, when that is taken (an earlier
 * one, kept), the first free SETTINGS.bad.N (N = 1..999).  0 with the new
 * name in bad ("" when nothing was there), or -1 with "PATH: problem" in
 * err (nothing moved). */
int tn_settings_set_aside(const char *path, char *bad, size_t badcap, char *err, size_t cap);
void tn_settings_put(tn_settings *s, const char *name, double value);
/* Whether the game reads world parameter `name` from the settings file at
 * start: every one but the jump height and the character's width and
 * height, which each run takes from its command line (--jump-height,
 * --char) so a map never opens with a character left from another run. */
bool tn_settings_read_at_start(const char *name);
/* Put into s the world's parameters the game reads back at start (the
 * ones above: a file holds no value it never reads). */
void tn_settings_from_world(tn_settings *s, const tn_world *w);
bool tn_settings_get(const tn_settings *s, const char *name, double *value);
/* A whole-number setting lo..hi; false (value untouched) when missing or
 * anything else (1e300, -1, 2.5: a hand-edited file's value is ignored). */
bool tn_settings_get_int(const tn_settings *s, const char *name, int lo, int hi, int *value);

/* ---- search playback ------------------------------------------------------
 * A recorded search (tn_trace events) replayed event by event.  `shown` is
 * how many events are on screen; the overlay draws the events [0, shown):
 * closed cells filled, open cells as a frontier outline, the last closed
 * event as the current node. */
#define TN_PLAYBACK_EVENTS 131072
typedef struct tn_playback {
    tn_trace trace;
    tn_trace_event *buf; /* TN_PLAYBACK_EVENTS events (owned) */
    bool navmesh;        /* the trace is a navmesh search (points, not tiles) */
    bool graph;          /* the trace is the graph planner's (expansions only, no costs) */
    bool fast;           /* ... a classic search with the fast (x3 weighted) heuristic */
    int goal_x, goal_y;  /* ... its goal (-1: none), for Q's h (tn_path.h's 2|dx| + 3|dy|) */
    bool active;         /* the overlay shows the playback */
    bool paused;
    int speed;              /* events per second index, see tn_playback_rates */
    double shown;           /* events shown (fractional while playing) */
    char label[320];        /* what was searched (or why nothing was recorded) */
    const char *none;       /* the last search could not be recorded: the replay
                               bar's word for why (NULL: "no search") */
    int finder_w, finder_h; /* size of the map the goto finder was made for */
    int expanded;           /* the recorded search's expansions (the HUD's N) */
    int plans_seen;         /* the character bot's plan count last watched */
    int goal_first;         /* plans - replans of the goal whose searches it holds */
    uint32_t nav_rev;       /* navmesh search: the mesh revision its triangle ids are of */
    uint32_t nav_plans;     /* ... and the navpath tool's plan it is the search of */
    bool nav_tool;          /* ... which it follows (else it is dropped on a rebuild) */
    bool waits_said;        /* the plan it shows waits to be made again: said once */
    uint8_t *scratch;       /* per tile / triangle state while drawing (owned) */
    size_t scratch_cap;
} tn_playback;
/* The drawing scratch for n cells (grown, never per frame once sized);
 * NULL when out of memory. */
uint8_t *tn_playback_scratch(tn_playback *p, size_t n);
#define TN_PB_RATES 7
extern const int tn_playback_rates[TN_PB_RATES]; /* events per second */
int tn_playback_init(tn_playback *p);
void tn_playback_free(tn_playback *p);
/* Start (or restart) playing the recorded trace from its first event. */
void tn_playback_start(tn_playback *p);
/* The events per second a replay plays at: the speed slider's
 * (tn_playback_rates[speed]), slowed so that a short search lasts at
 * least TN_PB_MIN_SECONDS (79 nodes at 300/s were over in a quarter of a
 * second, before the eye saw them), never below the slider's lowest rate;
 * the bar shows this rate. */
#define TN_PB_MIN_SECONDS 2.0
double tn_playback_rate(const tn_playback *p);
/* Advance by dt seconds of real time (nothing while paused), at
 * tn_playback_rate. */
void tn_playback_advance(tn_playback *p, double dt);
/* One frame of the window's loop: advance by dt only while the replay is
 * drawn (tn_playback_visible with these overlays) and not covered (the F1
 * help over the map: covered true), so a replay that X or the help hides
 * waits and shows again where it was. */
void tn_playback_frame(tn_playback *p, double dt, unsigned overlays, bool covered);
/* One step while paused: the next closed node (and the opens it made). */
void tn_playback_step(tn_playback *p);
/* The replay speed (- / = and the bar's slider) set to index `speed`, kept
 * in 0..TN_PB_RATES-1 (returned), and said on the world's status line:
 * "replay speed 100/s", "(this short search plays at 40/s)" when it plays
 * slower (tn_playback_rate), "already at its fastest, " past an end; with no search
 * recorded "replay speed 100/s; no search to replay yet: ..." (the line
 * went on saying only "no search to replay" while the bar's rate moved). */
int tn_playback_set_speed(tn_playback *p, tn_world *w, int speed);

/* Record the classic planner's search behind the character's plan: the
 * query of its bot's last classic search (tn_bot_last_query: the start the
 * bot used, moved onto ground beside a ledge edge, the snapped goal, the
 * heuristic and limit) searched again on the same map, so the replay is
 * the bot's search: its closes are the HUD's "N states".  On a separate
 * finder (created on first use and kept in *finder; the world's own plans
 * are untouched).  Returns the events; 0 when the bot's last plan made no
 * classic search, or on maps above 256x256 tiles (a second finder there
 * would cost 8 x 46 bytes a tile); p->label says why. */
struct tn_path;
int tn_playback_record_goto(tn_playback *p, struct tn_path **finder, const tn_world *w);
/* Record the graph planner's search behind the character's goto: the very
 * search its bot made (tn_wbots_graph_search: the same graph, start, goal
 * and options, copied when the bot searched), so the replay has exactly the
 * HUD's "N nodes searched" events.  tn_surf records only the expansion
 * order (tn_surf_expanded), so the trace holds one CLOSE per expanded node
 * at the node's bottom-left tile (id = the node, g = 0) and no OPEN
 * events: the replay shows the closed set growing and the current node, no
 * frontier.  The last event is a GOAL when the plan reaches the goal.
 * Returns the events (the buffer keeps the first TN_PLAYBACK_EVENTS, the
 * rest are counted in trace.dropped); 0 when the goal's first plan was not
 * a graph search (p->label says why). */
int tn_playback_record_graph(tn_playback *p, const tn_world *w);
/* The replay draws on the explored overlay: it is on screen only while
 * that overlay is on (X off hides it, X on shows it again where it is; the
 * window's tn_playback_frame holds it while hidden). */
bool tn_playback_visible(const tn_playback *p, unsigned overlays);
/* The replay's keys and bar buttons: TN_PB_REPLAY (E: from the first
 * event), TN_PB_HOLD (Shift+E: hold / resume; starts it when it is not
 * on; a replay waiting for X, which hides it, is only shown again, held or
 * playing as it was: the bar's button says "X off" then), TN_PB_NEXT (Q: one expansion further,
 * held; the world's message says what it expanded: "replay: expansion 2 of 22: tile (14,85)
 * jump value 0, g 2 + h 34 = f 36 (cost so far + estimate to the goal), 3 pushed").  With the explored
 * overlay off in *overlays they switch it on (the replay draws on it) and
 * the world's message says so.  false, with a message saying how to make
 * one, when there is no search to replay. */
enum { TN_PB_REPLAY, TN_PB_HOLD, TN_PB_NEXT };
bool tn_playback_control(tn_playback *p, tn_world *w, unsigned *overlays, int what);
/* The character's searches, watched once a frame after the world's steps
 * (the window; tests call it as the window does): when its bot made a plan
 * since the last call, record the search behind the plan it follows now,
 * the graph planner's (tn_playback_record_graph) or the classic planner's
 * (tn_playback_record_goto), so the replay's count is the HUD's N.
 *  - A new goal's plan replaces any replay; it plays at once when
 *    `overlays` has the explored overlay (else E replays it).
 *  - A re-plan (tn_bot_info.replans > 0) replaces the goal's search too,
 *    and p->label names it ("... (re-plan N: reason)").  A replay on screen
 *    (active, explored overlay on) restarts on the new search, held if it
 *    was held, and the world's message says so: "replay: now re-plan N
 *    (reason): M nodes" (states for the classic planner), never a silent
 *    swap.  A navmesh replay (tool 7) stays: re-plans do not replace it.
 *  - A navmesh replay follows the navpath tool's path: when the mesh is
 *    rebuilt (an edit) or the path planned again (agent radius), its
 *    triangle ids are no longer the mesh's, so it is recorded again from
 *    the re-planned path's search (restarting if on screen, held if held:
 *    "replay: now the re-planned navmesh path's search (the navmesh
 *    changed): N nodes"), or dropped when there is no such path any more
 *    (cut by the edit, or a search that was not the tool path's), with a
 *    message when it was on screen.  Never drawn on another mesh.
 * Returns 1 when it recorded (or dropped) a search, else 0. */
int tn_playback_watch(tn_playback *p, struct tn_path **finder, tn_world *w, unsigned overlays);
/* Forget the recorded search and the plans watched: a new world (reset, map
 * switch), whose bot has made no plan yet. */
void tn_playback_forget(tn_playback *p);
/* Record the navmesh search the navpath tool makes to tile (tx, ty) (the
 * world's shared query, traced for this one call): the tool path's own
 * search when the tool's path goes to that tile (then the replay follows
 * it, see tn_playback_watch). */
int tn_playback_record_navpath(tn_playback *p, tn_world *w, int tx, int ty);

/* ---- map list -------------------------------------------------------------
 * The *.map files in the current map's directory and the current map
 * itself (of any kind, e.g. a .tmx) (sorted; regular files only: no FIFO,
 * directory or device named *.map), then `extra` (duplicates dropped): at
 * most cap malloc'd paths into out; returns the count (the caller frees
 * each).  A directory of more maps than fit gives its first ones by name:
 * the current map and every extra are always listed. */
int tn_map_list(const char *current, const char *const *extra, int nextra, char **out, int cap);

/* ---- inspect ------------------------------------------------------------
 * kind: TN_INSPECT_* (ui.h numbering: 1 character, 2 bot, 3 enemy, 4
 * companion, 5 wanderer); index: the bot / wanderer index, the enemy's id
 * (64-bit: tn_enemy's, which never wraps). */
/* The agent nearest world pixel (x, y) within r px. */
bool tn_inspect_pick(const tn_world *w, float x, float y, float r, int *kind, int64_t *index);
/* Its box in world pixels (x0, y0, x1, y1: the body, or a tile around an
 * enemy's, the companion's or a wanderer's centre), so that its card can
 * be put off it.  false: no such agent (removed, gone). */
bool tn_inspect_box(const tn_world *w, int kind, int64_t index, float box[4]);
/* Its card: a title line, then "field value" lines.  false: no such agent. */
bool tn_inspect_text(const tn_world *w, int kind, int64_t index, char *buf, size_t cap);
/* A Ctrl+click at world pixel (x, y): pins the card of the agent within r
 * px (*kind, *index; true) or unpins (*kind = TN_INSPECT_NONE; false).
 * Either way the world's message says which, so an older one (a failed
 * click's "no agent there") never stays beside a pinned card. */
bool tn_inspect_click(tn_world *w, float x, float y, float r, int *kind, int64_t *index);
/* The agent's spawn number, which a pin keeps beside its index (a bot's
 * or a wanderer's, from 1, 64-bit as an enemy's id, never wrapping; 0 for
 * no such agent and for the other kinds, whose index is already that
 * agent's for good: an enemy's is its id). */
uint64_t tn_inspect_serial(const tn_world *w, int kind, int64_t index);
/* What a pin last saw of its enemy, to say why the enemy went: its tile
 * and the enemies' reached and crushed counts then (tx -1: not seen). */
typedef struct tn_inspect_seen {
    int32_t tx, ty;
    int64_t reached, crushed;
} tn_inspect_seen;
/* Per frame (and once at the pin): true when the pinned bot's, wanderer's
 * or enemy's agent (`serial`: tn_inspect_serial's when it was pinned) is
 * gone (the world's message says its card is closed, and for an enemy
 * why: it reached a destination, or was crushed by an edit; the caller
 * unpins).  A slot of the same index holding another agent (bots or
 * wanderers lowered, then raised, before this ran) is not it: its card
 * would have shown the new one.  A wanderer moved to another slot (a
 * removal moves the last one into the removed one's) is followed: *index
 * is its slot now.  `seen` (NULL: the reason is not told apart) is kept up
 * to date while a pinned enemy lives; start it at tx -1. */
bool tn_inspect_unpin_removed(tn_world *w, int kind, int64_t *index, uint64_t serial,
                              tn_inspect_seen *seen);

/* ---- the flow overlay's 8-connected field -----------------------------------
 * Display only (the enemies keep the world's 4-connected field): made for
 * the world's map when first asked, again when the map was edited (its
 * revision) or replaced (tn_world_map_serial: a map loaded after another
 * was freed may sit at its address with the same revision, and was shown
 * the old map's arrows).  NULL above 512x512 tiles or out of memory. */
/* Above this many tiles there is no 8-connected field (NULL). */
#define TN_FLOW8_MAX_TILES (512L * 512L)
typedef struct tn_flow8_cache {
    struct tn_flow *field; /* owned */
    const tn_world *world; /* what it was made for: the world, */
    uint32_t serial;       /* its map serial */
    uint32_t rev;          /* and the map's revision */
} tn_flow8_cache;
const struct tn_flow *tn_flow8_get(tn_flow8_cache *c, const tn_world *w);
/* Y: the flow overlay's field 4- / 8-connected (*flow8 toggled), said on
 * the status line; the flow overlay (F) goes on when it is off, so the
 * field named is the one on screen (Y back to 4-connected with F off said
 * "4-connected" over no arrows), and the message says that too. */
void tn_flow8_toggle(tn_world *w, bool *flow8, unsigned *overlays);
void tn_flow8_free(tn_flow8_cache *c);

#endif
