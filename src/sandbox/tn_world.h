/* SPDX-License-Identifier: Zlib */
/* tn_world.h - one tile map and everything that lives on it, as a single
 * deterministic simulation that a front end (the SDL game, the headless
 * runner, a test, a benchmark) drives with commands and reads back.
 *
 * The world owns: the map, the physics parameters, the character's body and
 * the player's keys, the PRNG (seeded by the caller: same seed, same map,
 * same commands -> same state), and four fixed parts, always called in
 * this order (created in it, destroyed in reverse; see tn_wparts.h):
 *
 *     bots      platformer A* and the bots that follow paths   (tn_wbots.c)
 *     enemies   flow field, spawner and enemies                 (tn_wenemies.c)
 *     navmesh   constrained Delaunay navmesh and its queries    (tn_wnav.c)
 *     agents    the companion and the wanderers                 (tn_wagents.c)
 *
 * A step: the bots may drive the character, the character moves, then bots,
 * enemies and agents step (the agents see this step's enemies, through
 * tn_wenemies_positions).  The world calls each part by name (no table of
 * function pointers); each part declares its own parameters in its header.
 * The world core checks every command's arguments (ranges, coordinates,
 * known names) and writes a readable message for every refusal, so parts
 * may assume valid input (Lua's split between the API layer and the core).
 * tn_world is opaque: front ends use the accessors below.
 *
 * Commands never abort: a refused edit or a bad parameter returns a failed
 * tn_status, fills the tn_error and also becomes the world's HUD message.
 *
 * Step cost: the character's physics (tn_phys.h: `tilenav-bench astar`,
 * docs/bench.md) plus each part's step.
 * The world allocates only in tn_world_create and in edits that rebuild a
 * part (never in tn_world_step).
 */
#ifndef TN_WORLD_H
#define TN_WORLD_H

#include "tn_common.h"
#include "tn_debug.h"
#include "tn_flow.h"
#include "tn_map.h"
#include "tn_phys.h"
#include "tn_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the overlays show (the game toggles these; see tn_world_draw). */
enum {
    TN_OVERLAY_PATH = 1u << 0,      /* bot paths: nodes, lines, jump nodes */
    TN_OVERLAY_EXPLORED = 1u << 1,  /* states the last A* search expanded */
    TN_OVERLAY_FLOW = 1u << 2,      /* flow-field arrows / distances */
    TN_OVERLAY_NAVMESH = 1u << 3,   /* triangles, corridor and path */
    TN_OVERLAY_COMPANION = 1u << 4, /* companion radii and line of sight */
    TN_OVERLAY_WANDERERS = 1u << 5, /* wanderer waypoints and splines */
    TN_OVERLAY_SURF = 1u << 6,      /* graph planner: surfaces, edge arcs, the plan */
};
#define TN_OVERLAY_COUNT 7
/* Not an overlay: with TN_OVERLAY_NAVMESH, tn_world_draw_view leaves out
 * the navmesh overlay's mesh layer (tn_world_draw_navmesh_layer: a
 * renderer that caches it draws it itself) and draws its corridor and
 * path only. */
#define TN_DRAW_NAVMESH_LAYER_CACHED (1u << 30)
/* Not an overlay either: with TN_OVERLAY_FLOW, tn_world_draw_view leaves
 * out the flow field's arrows (tn_world_draw_flow_layer, cached by the
 * renderer: the field changes only with the map's revision) and draws the
 * enemies only. */
#define TN_DRAW_FLOW_LAYER_CACHED (1u << 29)

/* The one table of overlays, in bit order (entry i is bit 1u << i): the
 * name the command line and scripts use, the label the panel and the HUD
 * show, and the key that toggles it (a lower-case letter, with Shift or
 * not). */
typedef struct tn_overlay_info {
    unsigned bit;
    const char *id;    /* "flow" */
    const char *label; /* "flow field" */
    char key;          /* 'f' */
    bool shift;
} tn_overlay_info;
extern const tn_overlay_info tn_overlays[TN_OVERLAY_COUNT];
/* The bits of a comma-separated list of ids (any length; empty names are
 * skipped); false on an unknown name. */
bool tn_overlays_parse(const char *list, unsigned *bits);
/* The bits a settings file's number holds (an integer whose bits are all
 * overlays, every overlay of the table included); false for anything else. */
bool tn_overlays_from_number(double v, unsigned *bits);
/* The ids in table order, joined by sep, into buf (cut to cap). */
void tn_overlays_list(char *buf, size_t cap, const char *sep);

/* What a left-click does. */
typedef enum tn_tool {
    TN_TOOL_GOTO = 0, /* send the character there (platformer A*) */
    TN_TOOL_BLOCK,    /* toggle a block */
    TN_TOOL_ONEWAY,   /* toggle a one-way platform */
    TN_TOOL_SPAWN,    /* toggle an enemy spawn point */
    TN_TOOL_DEST,     /* toggle an enemy destination */
    TN_TOOL_ITEM,     /* toggle an item */
    TN_TOOL_NAVPATH,  /* show a navmesh path from the character */
    TN_TOOL_TARGET,   /* place the wanderers' target */
    TN_TOOL_COUNT
} tn_tool;

typedef enum tn_button { TN_CLICK_LEFT = 0, TN_CLICK_RIGHT, TN_CLICK_MIDDLE } tn_button;

/* Edits: toggle a kind on a tile (EMPTY sets the tile empty). */
typedef enum tn_edit {
    TN_EDIT_BLOCK = 0,
    TN_EDIT_ONEWAY,
    TN_EDIT_EMPTY,
    TN_EDIT_SPAWN,
    TN_EDIT_DEST,
    TN_EDIT_ITEM
} tn_edit;

typedef struct tn_world tn_world;

/* A parameter settable by `set NAME VALUE` and the sliders.  Each part
 * declares its own in its header (TN_WBOTS_PARAM_BOTS, ...); the world lists
 * them, in slider order, in one table (tn_world_params). */
typedef struct tn_param_info {
    const char *name;
    double min, max, def;
    bool integer;
    const char *unit; /* for labels: "tiles", "/s", "" */
    const char *help;
    /* Apply a value (tn_world_set has checked the range) / read it back
     * (false when the part that owns it is not running). */
    tn_status (*set)(tn_world *w, double value, tn_error *err);
    bool (*get)(const tn_world *w, double *value);
} tn_param_info;

typedef struct tn_world_config {
    uint64_t seed;
    float jump_height;  /* tiles, 1..8; default 4 */
    int char_w, char_h; /* tiles; default 1 x 2 */
    int graph_threads;  /* threads of a surface-graph build or repair
                         * (tn_surf_profile.threads): 1..64, default 1; the
                         * graphs are the same on any number; above 1 the
                         * allocator given to tn_world_create must be
                         * thread-safe (NULL, malloc, is) */
    /* seconds, for the timings the HUD shows from the start (the navmesh's
     * first build: "built in N ms"); NULL (the default) times nothing until
     * tn_world_set_clock, so headless runs stay deterministic */
    double (*clock)(void);
} tn_world_config;

tn_world_config tn_world_default_config(void);
/* Takes ownership of `map` (also on failure).  REFUSED when the character
 * (cfg->char_w x char_h) fits nowhere on the map; else the character stands
 * at the free spot nearest the map's start (found in O(W*H) time). */
tn_status tn_world_create(tn_map *map, const tn_world_config *cfg, const tn_allocator *a,
                          tn_world **out, tn_error *err);
void tn_world_destroy(tn_world *w);

void tn_world_set_input(tn_world *w, tn_input in);
void tn_world_step(tn_world *w);

/* Toggle `kind` on tile (x, y).  Refused (and counted) when outside the map,
 * when a block would trap the character, or when a part's rule says no
 * (e.g. a spawn point would lose its path). */
tn_status tn_world_edit(tn_world *w, int x, int y, tn_edit kind, tn_error *err);
/* Bring tile (x, y) to (tile: TN_TILE_*, mark: TN_MARK_*, marks on empty
 * tiles only) in one edit, checked as a whole by the same rules as
 * tn_world_edit: either all of it is done (counted as one edit) or nothing
 * is (refused and counted).  Undo and redo use it: a block put over a
 * spawn point comes back as the empty tile AND its spawn point, never the
 * tile alone when the spawn point is refused.  Unlike a click it may take
 * the last spawn point or destination away (the history only goes back to
 * states the map had: one loaded without any).  TN_OK when already so. */
tn_status tn_world_edit_to(tn_world *w, int x, int y, int tile, int mark, tn_error *err);
/* Exactly what a mouse click on tile (x, y) does: left uses the current tool,
 * right toggles a block, middle (or shift+right) a one-way platform.
 * SUCCESS | PARTIAL_RESULT, what changed in err, when the tool did it
 * elsewhere than clicked (the navpath tool's goal moved for the radius).
 * A refused click says why in the message (tn_world_message_text); a later
 * click that succeeds without a message of its own clears it, so the
 * status line never shows a refusal as a later click's result. */
tn_status tn_world_click(tn_world *w, int x, int y, tn_button b, bool shift, tn_error *err);
tn_status tn_world_set_tool(tn_world *w, tn_tool tool);
const char *tn_tool_name(tn_tool tool);

/* The parameter table (all parts). */
const tn_param_info *tn_world_params(int *count);
const tn_param_info *tn_world_param_find(const char *name);
/* For a name that is no parameter: "did you mean NAME?" when one is at most
 * two edits away (a typo), else "parameters: a, b, ..." (cut to cap). */
void tn_world_param_hint(const char *name, char *out, size_t cap);
/* Set a parameter.  INVALID_PARAM for an unknown name or a value outside
 * its range; REFUSED (and counted in tn_world_refused_edits) when a rule
 * says no, e.g. no room for a taller character where it stands.  Each
 * failure says why in the message; a later set (or click) that succeeds
 * without a message of its own clears it, as tn_world_click does. */
tn_status tn_world_set(tn_world *w, const char *name, double value, tn_error *err);
bool tn_world_get(const tn_world *w, const char *name, double *value);

/* Set the HUD message (shown for 4 s of steps).  What it says goes through
 * tn_text_shown: a map, save or object name with control characters in it
 * shows them as \xNN. */
void tn_world_message(tn_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The one-line JSON report (see README).  Returns the length it wanted. */
int tn_world_json(const tn_world *w, char *buf, size_t cap);
/* HUD lines from every part, '\n'-separated. */
int tn_world_hud(const tn_world *w, char *buf, size_t cap);
/* Before drawing with these overlays: make what they show that nothing has
 * made yet (the surface-graph overlay, with the graph planner selected:
 * the graph of the character's movement profile, built or repaired now
 * rather than at the next click).  Cheap when nothing changed. */
void tn_world_prepare(tn_world *w, unsigned overlays);
/* Draw every part's agents and the selected overlays. */
void tn_world_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays);
/* The same for a view of the map: view = {x0, y0, x1, y1} in world pixels
 * (NULL: the whole map), drawn at `scale` screen pixels per world pixel (0:
 * unknown).  The surface-graph overlay draws the edges that take off in
 * (and near) the view, up to 300, rather than 300 spread over the whole
 * graph, most of them off screen on a large map; enemies are drawn at least
 * 6 screen pixels from centre to tip, the companion and wanderers at least 3
 * in radius (zoomed out they were dots). */
void tn_world_draw_view(const tn_world *w, const tn_debug_draw *dd, unsigned overlays,
                        const float *view, float scale);
/* The navmesh overlay's mesh layer alone: free triangles by region, their
 * edges, the outlines and the clearance circles of the agent radius.  It
 * changes only when tn_world_navmesh_layer_key does (a rebuild or a new
 * agent radius), so a renderer may keep it between frames.  Nothing
 * without a mesh (maps over the navmesh's size limit). */
void tn_world_draw_navmesh_layer(const tn_world *w, const tn_debug_draw *dd);
/* The flow overlay's field alone (arrows, unreachable tiles, destinations)
 * in view = {x0, y0, x1, y1} (world pixels; NULL: the whole map), however
 * many tiles that is: a renderer that caches it decides by its own view
 * (tn_world_flow_tiles).  It changes only with the map (its revision). */
void tn_world_draw_flow_layer(const tn_world *w, const tn_debug_draw *dd, const float *view);
/* A flow field's arrows drawn so (tn_world_draw_flow_layer's drawing, for
 * any field: the window's 8-connected one in light blue).  Nothing when
 * more than TN_WORLD_FLOW_ARROWS_MAX tiles are in the view: arrows a pixel
 * or two wide say nothing, and a pass over a 1024x1024 field costs tens of
 * ms; tn_world_flow_tiles says so (false) and gives the tiles in view as
 * {x0, y0, x1, y1}. */
#define TN_WORLD_FLOW_ARROWS_MAX (256L * 256L)
void tn_world_draw_flow_field(const tn_flow *f, const tn_debug_draw *dd, const float *view);
bool tn_world_flow_tiles(const tn_flow *f, const float *view, int r[4]);
/* The enemies' (4-connected) flow field; NULL without one. */
const tn_flow *tn_world_flow(const tn_world *w);
/* The destinations on the map (0: the field leads nowhere, all red). */
int tn_world_destinations(const tn_world *w);
/* Changes whenever tn_world_draw_navmesh_layer would draw differently
 * (mesh revision and agent radius), and differs between any two meshes the
 * process made (a new world in a freed one's memory, with the same map
 * serial and revision, is told apart by it); 0 without a mesh. */
uint64_t tn_world_navmesh_layer_key(const tn_world *w);

/* Check the core's and every part's invariants (see tn_wparts.h, check). */
tn_status tn_world_check(const tn_world *w, tn_error *err);

/* Replace the map (e.g. after loading); the world resets the character to the
 * map's start and rebuilds every part.  Every parameter is kept (jump
 * height, character size, and each part's: planner, spawn rate, agent
 * radius, bots, wanderers, ...); one that cannot apply to the new map (bots
 * on a map too large for the path finder) is left at its default and named
 * in the world's message, which is cleared otherwise.  Takes ownership of
 * `map`.  A map where the character fits nowhere is REFUSED (and freed): the
 * world keeps its map.  So does a map whose parts cannot be made (out of
 * memory, the failure returned): the old map plays on, its character where
 * it was, its parts made again (trips, agents and enemies start afresh,
 * the parameters kept). */
tn_status tn_world_replace_map(tn_world *w, tn_map *map, tn_error *err);

/* Is there an item on tile (x, y) that nobody has picked up? */
bool tn_world_item_here(const tn_world *w, int x, int y);
/* Pick up the item on (x, y); false when there is none. */
bool tn_world_take_item(tn_world *w, int x, int y);

/* Helpers for parts: does the character's box overlap tile (x, y)? */
bool tn_world_body_overlaps_tile(const tn_body *b, int x, int y);
/* Knock body b (the character or an extra bot) dx px sideways, as a hit's
 * knock-back (tn_world_knock), on the ground or in the air; a wall in the
 * way stops it on its tile edge, as a walk into it does.  Its vx is set
 * to 0 and, on the ground, its ground found again (tn_body_settle: a push
 * off a ledge falls at the next step).  Returns the px it moved (0: a wall
 * right there); *wall (may be NULL): a wall stopped it. */
float tn_world_knock_body(const tn_world *w, tn_body *b, float dx, bool *wall);
/* The character's pixel centre. */
void tn_world_character_center(const tn_world *w, float *x, float *y);

/* ---- accessors: tn_world is opaque (its fields: tn_world_impl.h, for the
 * sandbox's own files only).  Each is O(1). */
const tn_map *tn_world_map(const tn_world *w);
/* The character's start while a block or one-way platform covers it (the
 * map then has no start; removing the cover brings it back, and saves keep
 * it as 'start X Y'): true with the tile, else false. */
bool tn_world_covered_start(const tn_world *w, int *x, int *y);
const tn_body *tn_world_character(const tn_world *w);
const tn_phys_params *tn_world_phys(const tn_world *w);
/* The player's keys as last set (tn_world_set_input). */
tn_input tn_world_input(const tn_world *w);
/* The keys the character presses now: the player's when any is held, else
 * those its goto bot pressed in the last step (none while it stands). */
tn_input tn_world_character_keys(const tn_world *w);
long tn_world_frame(const tn_world *w); /* steps taken */
/* The step counter back to 0: another map opened in the window (Tab's
 * picker) is counted from its own first step (the HUD and the status line
 * went on from the old map's, "frame 4858" on a map just opened).  A reset
 * (Ctrl+R, a script's reset) keeps counting, so a script's frames are the
 * run's; but a window run's --script and --frames, which read this counter,
 * count on from 0 after a Tab switch (a command at frame 600 given at frame
 * 300 of the old map runs at the new map's frame 600). */
void tn_world_restart_frames(tn_world *w);
/* Changes each time tn_world_replace_map puts another map in (0 for the
 * first): something made from the map outside the world is stale when
 * this or the map's revision (its edits) differs from when it was made.
 * The map's address is no such key: a new map may get a freed one's. */
uint32_t tn_world_map_serial(const tn_world *w);
tn_tool tn_world_tool(const tn_world *w);
int tn_world_edits(const tn_world *w);         /* edits applied */
int tn_world_refused_edits(const tn_world *w); /* edits and settings refused */
void tn_world_reset_edit_counts(tn_world *w);  /* both counts to 0 */
/* Edits since the last save: set by every edit; the front end clears it
 * when it saves (false) and sets it when it restores unsaved edits. */
bool tn_world_dirty(const tn_world *w);
void tn_world_set_dirty(tn_world *w, bool dirty);
/* `in` made safe to show (the HUD, the status line, a window title, a
 * terminal) into out: every byte that is not printable text is written as
 * \xNN, so a name typed by the user or carried by a file cannot move the
 * cursor, recolour or retitle a terminal, or start a line of its own:
 * ASCII control characters (0x00-0x1f, 0x7f: ESC, newline, tab...), the
 * C1 controls U+0080..U+009F, the line and paragraph separators and the
 * bidirectional embeddings, overrides and isolates (U+2028..U+202E,
 * U+2066..U+2069), and bytes that are not UTF-8.  Printable UTF-8 ("é",
 * "地図") is kept as it is.  Cut to fit cap bytes (NUL included), never
 * inside an escape or a character.  Returns out. */
char *tn_text_shown(char *out, size_t cap, const char *in);

/* The last HUD message and how many steps it is still shown (0: none).
 * At most TN_WORLD_MSG_MAX bytes, its NUL included: a longer one is cut
 * where a character starts and ends in "...". */
#define TN_WORLD_MSG_MAX 1024
const char *tn_world_message_text(const tn_world *w);
int tn_world_message_ttl(const tn_world *w);
void tn_world_set_message_ttl(tn_world *w, int steps);
/* Monotonic clock in seconds, set by an interactive front end so parts can
 * time their queries for the HUD.  NULL (the default, and in headless runs)
 * keeps every output deterministic: timings are then null in the JSON. */
typedef double (*tn_world_clock_fn)(void);
void tn_world_set_clock(tn_world *w, tn_world_clock_fn clock);
tn_world_clock_fn tn_world_clock(const tn_world *w);
/* Hold graph builds while a slider is dragged (the window sets it from the
 * button press on a slider to its release).  While held, a graph the bots
 * or the surface overlay need for a new profile (jump height, size) is not
 * built when this map's last graph build took over 50 ms by the clock: the
 * bots wait, standing by, and the status line says so once; the first step
 * after the release builds the one graph for the value the drag stopped
 * at.  Without a clock (headless runs) nothing is held back: every build
 * is timed 0 ms. */
void tn_world_hold_graph_builds(tn_world *w, bool hold);
/* Build slow graphs on another thread (the window turns it on; off by
 * default, and headless runs keep it off: their output must not depend on
 * timing).  A graph the bots or the surface overlay need for a new profile
 * or map is built on a copy of the map on a C11 thread when the map has
 * over 128x128 tiles and no build was timed yet, or this map's last build
 * took over 50 ms by the clock; meanwhile the window runs on, the bots that
 * need it stand by (HUD: "when its graph is built"), the overlay says so,
 * and edits go on; when it ends it is put in the cache and repaired for the
 * edits made meanwhile (tn_surf_sync from the copy: a local repair per
 * changed tile; more changed tiles than tn_surf.h EDITS repairs one by
 * one: it is built again in the background on a new copy).  One build at a
 * time.  A click whose graph is not in the cache waits for a build under
 * way (its plan is made at once; a build of another graph goes on).  A
 * build nobody will use is told to stop (tn_surf_profile.cancel) and ends
 * at its next poll instead of running to its end: on a map load
 * (tn_world_replace_map), tn_world_destroy, and when the world's physics
 * are no longer those it builds for (a slider moved on: the next step
 * stops it, then builds the graph for the new value; see
 * tn_wbots_builds_cancelled).  A build that fails (out of memory: any
 * failure but such a stop) is said in the status line and not started
 * again for the same map revision and profile (nor made on a click): a map
 * edit, a jump height or size set, or a map load tries it again, once per
 * such change.  Meanwhile the bots plan as after a build that failed on the
 * caller's thread: with the classic planner on maps up to 512x512 (a goto
 * kept for that graph is planned with it, the message says why); above,
 * a kept goto or a trip for that graph is dropped and a goto is refused,
 * naming the failure (see tn_wbots_builds_started, tn_wbots_builds_failed).
 * An edit's repair of the graph in use runs on such a thread too on a map
 * over 128x128 tiles, unless the last one took under 4 ms by the clock:
 * the graph is out of the cache until it ends (the bots that need it stand
 * by; a jump under way goes on, tn_bot_coast), edits made meanwhile are
 * repaired by the next one, and a click waits for it (tn_wbots_repairs_started).
 * With the graph planner selected, a goto click's classic comparison search
 * (the HUD's "| classic: ...", which no bot follows) is made in the
 * background too, on a copy of the map with a finder of its own (the size
 * of the classic one: 92 MB at 512x512, made on first use): the HUD says
 * "classic: searching ..." until it lands, and drops an answer whose map,
 * jump height or size changed meanwhile (tn_wbots_compare_counts).
 * The world's allocator must then be thread-safe (the default is).  Without
 * C11 threads (the browser build) every build is made at once. */
void tn_world_build_graphs_in_background(tn_world *w, bool on);
/* Count the extra bots' planning budget (tn_wbots_plan_budget) per drawn
 * frame instead of per step: the steps between two tn_world_prepare calls
 * share it.  For a window, which runs several steps in a frame to catch up
 * after a slow one (each of them planning would make the next frame slow
 * too).  Off by default: headless runs count per step, so their output does
 * not depend on how steps fall into frames; with it on, the front end must
 * call tn_world_prepare every frame (the bots wait for it to plan). */
void tn_world_plan_budget_per_frame(tn_world *w, bool on);
/* Move the character's body to top-left pixel (x, y), velocity kept (tests
 * and tools; no collision check: tn_world_check reports a body in a block). */
void tn_world_place_character(tn_world *w, float x, float y);

/* Send the character to tile (x, y) with the platformer planner: what a
 * left click with the goto tool does, whatever the current tool is (the tool
 * is not changed).  Fails, with a message, when no path leads there. */
tn_status tn_world_goto(tn_world *w, int x, int y, tn_error *err);

/* Knock the character dx px sideways (negative: left), as an enemy's hit
 * would, and each extra bot the same way: something other than their
 * inputs moves their bodies, so a body pushed by a part of a walk step
 * (8/3 px at the default physics) walks off the walk's lattice, and the
 * bots recover as tn_bot.h describes (GRAPH PLANNER and FOLLOWING: the
 * graph bot re-checks each edge from where it stands, the classic one
 * steps off slivers; both may walk into a wall to get back on the
 * lattice; their plan reason then reads "back on the lattice" and the
 * like); a body in the air is pushed too (the graph bot steers its jump
 * back onto its landing, tn_bot.h).  A wall in the way stops it on the
 * tile edge.  The message says what happened: "knocked 1.3 px right: off
 * the walk's 2.67 px lattice, the bot re-checks its jumps from where it
 * stands; extra bots: 2 of 3 knocked (1 in the air)", "knocked 1.3 px
 * left in the air: the bot steers its jump back onto its landing" (a
 * bot whose plan waits for the landing, a goto given in the air: "the bot
 * plans on landing").
 * INVALID_PARAM for dx 0, not finite or beyond a tile (16 px); REFUSED
 * (not counted as a refused edit) when the character is against a wall on
 * that side (extra bots are pushed all the same).  O(bots). */
tn_status tn_world_knock(tn_world *w, float dx, tn_error *err);

#ifdef __cplusplus
}
#endif

#endif
