/* script.h - scripted runs: one command per line, "FRAME COMMAND ARGS".
 *
 *   # comment (also after blank space); blank lines are ignored
 *   0   key left|right|down|jump press|release
 *   10  click TX TY left|right|middle [shift]   exactly a mouse click on that tile
 *   12  toggle TX TY block|oneway|empty|spawn|dest|item
 *   20  set NAME VALUE                            any parameter (see --help)
 *   30  goto TX TY                                same as a left-click with the goto tool
 *   31  tool goto|block|oneway|spawn|dest|item|navpath|target
 *   35  knock DX                                  knock the character DX px sideways
 *                                                 (negative: left; 0 < |DX| <= 16), and
 *                                                 the extra bots: a hit's knock-back
 *                                                 (tn_world_knock; a body in the air
 *                                                 is not pushed)
 *   40  save FILE                                 atomic save of the map
 *   50  screenshot FILE.bmp                       offscreen render
 *   60  wanderers N                               same as set wanderers N
 *   70  set speed 1/8|1/4|1/2|1|2|4               simulation speed (window only; the
 *                                                 headless run ignores it: it has no clock)
 *   80  reset                                     reload the map, clear agents and counters
 *   90  pause on|off                              pause the window's clock (window only)
 *   95  playback N|all                            show the first N events of the last
 *                                                 recorded search, held (window only)
 *
 * FRAME is the step before which the command applies (0 = before the first
 * step); frames must not decrease.  Parse errors name FILE:LINE; a command
 * that cannot run (a tile outside the map) is reported the same way when
 * it is reached.  A refused click, toggle, goto, knock or `set` is not an error: the
 * world counts refused edits, and each refusal is reported through the
 * host's warn.  A click done elsewhere than asked (the navpath tool's goal
 * or start moved to where the agent's radius fits) is reported there too:
 * "... click X Y adjusted (frame F): goal moved N tiles to ...".
 */
#ifndef TN_SCRIPT_H
#define TN_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "tn_world.h"

#define TN_SCRIPT_MAX_BYTES (16u << 20) /* larger scripts are refused unread */
#define TN_SCRIPT_PATH_MAX 512
#define TN_SCRIPT_MAX_FRAME 1000000000L /* frames are 0..this */

typedef enum tn_script_op {
    TN_SC_KEY,
    TN_SC_CLICK,
    TN_SC_TOGGLE,
    TN_SC_SET,
    TN_SC_GOTO,
    TN_SC_TOOL,
    TN_SC_SAVE,
    TN_SC_SCREENSHOT,
    TN_SC_SPEED,
    TN_SC_RESET,
    TN_SC_PAUSE,
    TN_SC_PLAYBACK,
    TN_SC_KNOCK
} tn_script_op;

typedef struct tn_script_cmd {
    long frame;
    int line;
    tn_script_op op;
    int x, y;         /* tile, for click/toggle/goto */
    int arg;          /* key index / button / edit kind / tool; shift flag in `flag` */
    int flag;         /* key: 1 press 0 release; click: shift */
    double value;     /* set; knock: the push in px */
    const char *name; /* set: parameter name (static storage from the table) */
    char *path;       /* save/screenshot (owned) */
} tn_script_cmd;

typedef struct tn_script {
    tn_script_cmd *cmds;
    int count, next;
    char file[TN_SCRIPT_PATH_MAX];
    tn_input keys; /* key state built by key commands */
} tn_script;

/* What the script needs from its host (the game or the headless runner). */
typedef struct tn_script_host {
    void *user;
    /* Return 0 on success, or -1 with a message in err.  save: on success
     * err may hold a warning ("" when none), shown on stderr and the
     * status line. */
    int (*save)(void *user, tn_world *w, const char *path, char *err, size_t cap);
    int (*screenshot)(void *user, tn_world *w, const char *path, char *err, size_t cap);
    /* speed (value = the speed), reset, pause (value 0/1), playback (value =
     * events, -1 = all).  NULL: speed, pause and playback are ignored (a
     * headless run has no clock and draws nothing); reset is an error. */
    int (*control)(void *user, tn_world *w, int op, double value, char *err, size_t cap);
    /* A command the world refused (`set char_height 9` with no room, a
     * block inside the character): "FILE:LINE: COMMAND refused (frame F):
     * reason" in msg, or one it did elsewhere than asked: "... adjusted
     * (frame F): what moved"; the run goes on.  NULL: the message
     * goes to stderr as "tilenav: warning: FILE:LINE: ...". */
    void (*warn)(void *user, const char *msg);
} tn_script_host;

/* Save the world's map to `path` (tn_save_map_as, from `source`), with
 * its start also while a block covers it (written as 'start X Y'; a Tiled
 * start object stays): Ctrl+S, the autosave and `save` all go here. */
int tn_save_world_map(const tn_world *w, const char *path, const char *source, char *err,
                      size_t cap);

/* The `save` command for every host: write the world's map to `path`; the
 * map counts as saved (not dirty) only when `path` is the file it was
 * loaded from (`loaded_from`, may be NULL).  An existing file that is not
 * a map the game reads is not replaced (tn_save_target_check).  0, or -1
 * with a message.
 * On success err holds a warning (what the file could not keep: a Tiled
 * map saved in Tiled's other format, tn_tiled_save_drops) or "". */
int tn_script_save_map(tn_world *w, const char *path, const char *loaded_from, char *err,
                       size_t cap);

/* The one number rule of the command line and scripts: a plain decimal
 * (digits with at most one '.'; no sign, blanks, hex, exponent, inf or
 * nan) within lo..hi.  True with the value in *out. */
bool tn_parse_number(const char *s, double lo, double hi, double *out);

/* Parse; NULL with "FILE:LINE: problem" in err on any bad line. */
tn_script *tn_script_parse(const char *buf, size_t len, const char *name, char *err, size_t errcap);
void tn_script_destroy(tn_script *s);
/* Commands not run yet (scheduled after the run ended): their number, and
 * when there are any a warning naming the script, the first such line and
 * the last frame into msg. */
int tn_script_unrun(const tn_script *s, long last_frame, char *msg, size_t cap);

/* Apply every command due before step `frame`, then copy the key state into
 * the world's input.  Returns 0, or -1 with "FILE:LINE: problem" in err. */
int tn_script_apply(tn_script *s, tn_world *w, long frame, const tn_script_host *host, char *err,
                    size_t errcap);

/* A scripted run: `frames` world steps, each after the commands due at the
 * world's frame and followed by after(w, ctx) when not NULL; then the
 * commands due at the final frame (e.g. a last save).  s may be NULL (the
 * steps only).  Returns 0, or -1 with "FILE:LINE: problem" in err. */
int tn_script_run(tn_script *s, tn_world *w, long frames, const tn_script_host *host,
                  void (*after)(tn_world *w, void *ctx), void *ctx, char *err, size_t errcap);

#endif
