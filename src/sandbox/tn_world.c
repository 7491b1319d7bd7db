#include "tn_world.h"
#include "tn_world_impl.h"
#include "tn_wagents.h"
#include "tn_wbots.h"
#include "tn_wenemies.h"
#include "tn_wnav.h"
#include "tn_wparts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MESSAGE_STEPS 240

static tn_status set_jump_height(tn_world *w, double v, tn_error *err);
static tn_status set_char_width(tn_world *w, double v, tn_error *err);
static tn_status set_char_height(tn_world *w, double v, tn_error *err);
static bool get_jump_height(const tn_world *w, double *v);
static bool get_char_width(const tn_world *w, double *v);
static bool get_char_height(const tn_world *w, double *v);

/* Every parameter, in slider order: the core's own, then each part's as its
 * header declares it (name, range, default, unit, help, setter, getter).
 * tn_world_set checks the range, so setters receive valid values only. */
static const tn_param_info PARAMS[] = {
    {"jump_height", 1, 8, 4, false, "tiles", "apex of a full jump", set_jump_height,
     get_jump_height},
    {"char_width", 1, 3, 1, true, "tiles", "character width", set_char_width, get_char_width},
    {"char_height", 1, 9, 2, true, "tiles", "character height", set_char_height, get_char_height},
    TN_WENEMIES_PARAM_SPAWN_RATE,
    TN_WBOTS_PARAM_BOTS,
    TN_WAGENTS_PARAM_COMPANION_SPEED,
    TN_WAGENTS_PARAM_FOLLOW_DISTANCE,
    TN_WAGENTS_PARAM_WANDERERS,
    TN_WAGENTS_PARAM_BIAS,
    TN_WAGENTS_PARAM_SMOOTHNESS,
    TN_WNAV_PARAM_AGENT_RADIUS,
    TN_WBOTS_PARAM_PLANNER,
};
#define NPARAMS ((int)(sizeof PARAMS / sizeof PARAMS[0]))

static const char *const TOOL_NAMES[TN_TOOL_COUNT] = {"goto", "block", "oneway",  "spawn",
                                                      "dest", "item",  "navpath", "target"};

const char *tn_tool_name(tn_tool tool)
{
    return (unsigned)tool < TN_TOOL_COUNT ? TOOL_NAMES[tool] : "?";
}

tn_world_config tn_world_default_config(void)
{
    tn_world_config c;
    c.seed = 1;
    c.jump_height = 4.0f;
    c.char_w = 1;
    c.char_h = 2;
    c.graph_threads = 1;
    c.clock = NULL;
    return c;
}

void tn_world_message(tn_world *w, const char *fmt, ...)
{
    char raw[4 * sizeof w->message], shown[4 * sizeof w->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    tn_text_shown(shown, sizeof shown, raw);
    size_t n = strlen(shown);
    if (n >= sizeof w->message) { /* cut where a character starts, and said so */
        n = sizeof w->message - 4;
        while (n > 0 && ((unsigned char)shown[n] & 0xc0) == 0x80) n--;
        memcpy(shown + n, "...", 4);
    }
    memcpy(w->message, shown, strlen(shown) + 1);
    w->message_ttl = MESSAGE_STEPS;
    w->message_serial++;
    w->message_refusal = false;
}

bool tn_world_body_overlaps_tile(const tn_body *b, int x, int y)
{
    const float T = (float)TN_TILE_PX, e = 1e-3f;
    float x0 = (float)x * T, y0 = (float)y * T;
    return b->x < x0 + T - e && b->x + (float)b->w * T > x0 + e && b->y < y0 + T - e &&
           b->y + (float)b->h * T > y0 + e;
}

bool tn_world_item_here(const tn_world *w, int x, int y)
{
    return tn_map_mark(w->map, x, y) == TN_MARK_ITEM && !w->taken[y * w->map->w + x];
}

bool tn_world_take_item(tn_world *w, int x, int y)
{
    if (!tn_world_item_here(w, x, y)) return false;
    w->taken[y * w->map->w + x] = 1;
    return true;
}

void tn_world_character_center(const tn_world *w, float *x, float *y)
{
    *x = w->character.x + 0.5f * (float)w->character.w * TN_TILE_PX;
    *y = w->character.y + 0.5f * (float)w->character.h * TN_TILE_PX;
}

/* The free spot for a w x h body nearest (tx, ty): the bottom-left tile
 * (x, y) of a box inside the map with no block, least in (Chebyshev
 * distance, then standing first, then y, then x) - the order of a
 * ring-by-ring scan that takes a box standing on ground (a block or a
 * one-way platform under one of its columns, or the map's bottom edge)
 * before an equally near one in the air (which put the character a tile
 * up, falling, where the message said it starts), found in one pass over
 * the map: run[x] counts the non-block tiles of column x ending at row y,
 * and the box fits where run >= h in its w columns.  O(W*H*w) time, O(W)
 * stack memory, no allocation; deterministic. */
static bool find_fit(const tn_map *m, int w, int h, int tx, int ty, int *ox, int *oy)
{
    uint16_t run[TN_MAP_MAX_SIZE];
    long best_r = -1;
    bool best_stands = false;
    int best_x = 0, best_y = 0;
    for (int x = 0; x < m->w; x++) run[x] = 0;
    for (int y = 0; y < m->h; y++) {
        const uint8_t *row = m->tile + (size_t)y * (size_t)m->w;
        for (int x = 0; x < m->w; x++)
            run[x] = row[x] == TN_TILE_BLOCK ? 0 : (uint16_t)(run[x] + 1);
        if (y - h + 1 < 0) continue;
        int ady = y > ty ? y - ty : ty - y;
        if (best_r >= 0 && ady > best_r) continue; /* farther than the best */
        int free_cols = 0;                         /* columns x-w+1..x all have run >= h */
        for (int x = 0; x < m->w; x++) {
            free_cols = run[x] >= h ? free_cols + 1 : 0;
            if (free_cols < w) continue;
            int bx = x - w + 1, adx = bx > tx ? bx - tx : tx - bx;
            long r = ady > adx ? ady : adx;
            /* rows come in increasing y and columns in increasing x: a
             * candidate at the same distance found later is better only
             * when it stands and the best does not */
            if (best_r >= 0 && (r > best_r || (r == best_r && best_stands))) continue;
            bool stands = false;
            for (int c = bx; c <= x && !stands; c++)
                stands = tn_map_tile(m, c, y + 1) != TN_TILE_EMPTY;
            if (best_r < 0 || r < best_r || stands) {
                best_r = r;
                best_stands = stands;
                best_x = bx;
                best_y = y;
            }
        }
    }
    if (best_r < 0) return false;
    *ox = best_x;
    *oy = best_y;
    return true;
}

/* A map whose start is under a block or one-way platform (a saved
 * 'start X Y'): the world keeps it as covered, as after a toggle, so the
 * map itself holds no start on a non-empty tile. */
static void take_start(tn_world *w)
{
    tn_map *m = w->map;
    w->covered_start_x = w->covered_start_y = -1;
    if (m->start_x >= 0 && tn_map_tile(m, m->start_x, m->start_y) != TN_TILE_EMPTY) {
        w->covered_start_x = m->start_x;
        w->covered_start_y = m->start_y;
        m->start_x = m->start_y = -1;
    }
}

/* False (and the world's message set) when no spot fits the body. */
static bool place_character(tn_world *w, int cw, int ch)
{
    const tn_map *m = w->map;
    /* the start, or the nearest fit to a covered one */
    int sx = m->start_x >= 0 ? m->start_x : w->covered_start_x >= 0 ? w->covered_start_x : 0;
    int sy = m->start_y >= 0 ? m->start_y : w->covered_start_y >= 0 ? w->covered_start_y : 0;
    int fx = sx, fy = sy;
    if (!find_fit(m, cw, ch, sx, sy, &fx, &fy)) return false;
    tn_body_place(&w->character, &w->phys, cw, ch, fx, fy);
    tn_body_settle(&w->character, m, &w->phys); /* (a jump on frame 0 jumps) */
    return true;
}

/* (the world names no flag or slider: the game's command line adds its
 * --char, a window has its sliders, a bench has neither) */
static tn_status no_fit(const tn_map *m, int cw, int ch, tn_error *err)
{
    bool small = m->w < cw || m->h < ch;
    return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                        "the %dx%d-tile character fits nowhere on this %dx%d map (%s); try a "
                        "smaller character",
                        cw, ch, m->w, m->h,
                        small ? "it is smaller than the character"
                              : "every box of that size holds a block");
}

/* The four parts, in the order of tn_wparts.h: destroyed in reverse. */
static void subs_destroy(tn_world *w)
{
    tn_wbots_stop_build(w); /* (a background graph build winds down meanwhile) */
    tn_wagents_destroy(w);
    tn_wnav_destroy(w);
    tn_wenemies_destroy(w);
    tn_wbots_destroy(w);
}

static tn_status subs_create(tn_world *w, tn_error *err)
{
    tn_status s = tn_wbots_create(w, err);
    if (tn_succeeded(s)) s = tn_wenemies_create(w, err);
    if (tn_succeeded(s)) s = tn_wnav_create(w, err);
    if (tn_succeeded(s)) s = tn_wagents_create(w, err);
    return s;
}

tn_status tn_world_create(tn_map *map, const tn_world_config *cfg, const tn_allocator *a,
                          tn_world **out, tn_error *err)
{
    *out = NULL;
    if (!map) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "no map");
    tn_world_config c = cfg ? *cfg : tn_world_default_config();
    tn_phys_params phys = tn_phys_default(c.jump_height);
    tn_status s = tn_phys_validate(&phys, err);
    if (tn_failed(s)) {
        tn_map_destroy(map);
        return s;
    }
    if (c.char_w < 1 || c.char_w > TN_MAX_BODY_W || c.char_h < 1 || c.char_h > TN_MAX_BODY_H) {
        tn_map_destroy(map);
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "character size %dx%d is outside 1..3 x 1..9 tiles", c.char_w,
                            c.char_h);
    }
    if (c.graph_threads < 1 || c.graph_threads > 64) {
        tn_map_destroy(map);
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "graph_threads %d is outside 1..64", c.graph_threads);
    }
    tn_world *w = tn_alloc(a, sizeof *w);
    if (!w) {
        tn_map_destroy(map);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "out of memory");
    }
    if (a) w->alloc = *a;
    w->map = map;
    take_start(w);
    w->taken = tn_alloc_array(a, (size_t)map->w * (size_t)map->h, 1);
    if (!w->taken) {
        tn_world_destroy(w);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "out of memory");
    }
    w->phys = phys;
    w->seed = c.seed;
    w->graph_threads = c.graph_threads;
    w->clock = c.clock;
    tn_rng_seed(&w->rng, c.seed, 0x74696c656e6176ULL);
    if (!place_character(w, c.char_w, c.char_h)) {
        s = no_fit(map, c.char_w, c.char_h, err);
        tn_world_destroy(w);
        return s;
    }
    s = subs_create(w, err);
    if (tn_failed(s)) {
        tn_world_destroy(w);
        return s;
    }
    *out = w;
    return TN_OK;
}

void tn_world_destroy(tn_world *w)
{
    if (!w) return;
    subs_destroy(w);
    tn_map_destroy(w->map);
    tn_allocator a = w->alloc;
    tn_free(&a, w->taken);
    tn_free(&a, w);
}

/* Set the parameters read before a map change on the new parts (those that
 * differ from the new parts' defaults).  A value that cannot apply to the
 * new map (no bots on a map too large for them, no navmesh) is left out and
 * named in the world's message; a part's own message (fewer wanderers found
 * room) is kept. */
static void reapply_params(tn_world *w, const double *vals, const bool *have)
{
    char left[TN_ERROR_MSG_MAX] = "";
    size_t len = 0;
    for (int i = 0; i < NPARAMS; i++) {
        double now;
        if (!have[i]) continue;
        /* kept as it is; or at its default where the new map has no such
         * part (agent_radius without a navmesh): nothing was lost */
        if (PARAMS[i].get(w, &now) ? now == vals[i] : vals[i] == PARAMS[i].def) continue;
        tn_error e;
        if (tn_succeeded(PARAMS[i].set(w, vals[i], &e))) continue;
        int n = snprintf(left + len, sizeof left - len, "%s%s %g (%s)", len ? "; " : "",
                         PARAMS[i].name, vals[i], e.msg);
        if (n > 0) len = (size_t)n < sizeof left - len ? len + (size_t)n : sizeof left - 1;
    }
    if (left[0]) tn_world_message(w, "not kept on this map: %s", left);
}

/* The spawn numbers given so far (bots, enemies, wanderers): parts made
 * again for the same map go on from them (numbers_keep), so an inspect
 * card kept pinned never meets another agent under its agent's number. */
typedef struct spawn_numbers {
    uint64_t bots, enemies, wanderers;
} spawn_numbers;

static spawn_numbers numbers_of(const tn_world *w)
{
    const tn_wenemies *e = tn_wenemies_of(w);
    const tn_wagents *ag = tn_wagents_of(w);
    spawn_numbers n = {tn_wbots_spawned(w), 0, ag ? ag->serial : 0};
    if (e && e->pool) n.enemies = e->pool->id_base + (uint64_t)e->pool->spawned;
    return n;
}

/* Before any agent is made (the parts just created). */
static void numbers_keep(tn_world *w, spawn_numbers n)
{
    tn_wenemies *e = tn_wenemies_of(w);
    tn_wagents *ag = w->agents;
    tn_wbots_set_spawned(w, n.bots);
    if (e && e->pool && n.enemies > e->pool->id_base) e->pool->id_base = n.enemies;
    if (ag && n.wanderers > ag->serial) ag->serial = n.wanderers;
}

tn_status tn_world_replace_map(tn_world *w, tn_map *map, tn_error *err)
{
    int fx, fy;
    if (!find_fit(map, w->character.w, w->character.h, 0, 0, &fx, &fy)) {
        tn_status s = no_fit(map, w->character.w, w->character.h, err);
        tn_map_destroy(map); /* the world keeps its map */
        return s;
    }
    uint8_t *taken = tn_alloc_array(&w->alloc, (size_t)map->w * (size_t)map->h, 1);
    if (!taken) {
        tn_map_destroy(map);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "out of memory");
    }
    /* the parts are made again with their defaults: every parameter the
     * user set (planner, spawn rate, agent radius, counts, ...) is read now
     * and set again on the new parts (the core's own - jump height and
     * character size - live in the world and stay as they are) */
    double vals[NPARAMS];
    bool have[NPARAMS];
    for (int i = 0; i < NPARAMS; i++) have[i] = PARAMS[i].get(w, &vals[i]);
    /* what plays on when the new map's parts cannot be made (out of
     * memory): the old map, its character and its parts made again */
    tn_map *old_map = w->map;
    uint8_t *old_taken = w->taken;
    tn_body old_char = w->character;
    int old_cx = w->covered_start_x, old_cy = w->covered_start_y;
    bool old_dirty = w->dirty;
    char old_msg[sizeof w->message];
    memcpy(old_msg, w->message, sizeof old_msg);
    int old_ttl = w->message_ttl;
    const spawn_numbers numbers = numbers_of(w);
    subs_destroy(w);
    w->taken = taken;
    w->map = map;
    take_start(w);
    w->message[0] = '\0'; /* the old map's message is not about this one (the */
    w->message_ttl = 0;   /* new parts' own, "goto is off ...", are kept) */
    place_character(w, w->character.w, w->character.h); /* fits: checked above */
    tn_status s = subs_create(w, err);
    if (tn_failed(s)) {
        subs_destroy(w);
        tn_map_destroy(map);
        tn_free(&w->alloc, taken);
        w->map = old_map;
        w->taken = old_taken;
        w->character = old_char;
        w->covered_start_x = old_cx;
        w->covered_start_y = old_cy;
        w->dirty = old_dirty;
        memcpy(w->message, old_msg, sizeof old_msg);
        w->message_ttl = old_ttl;
        /* (the old map's parts fitted before: when they do not now either,
         * the world runs without them, each part's entries answer "off") */
        tn_error e;
        if (tn_failed(subs_create(w, &e))) {
            subs_destroy(w);
        } else {
            /* the old map's agents made again are new ones: their numbers
             * go on (from 1 again, a card the app keeps pinned, to enemy
             * #2 or bot 1, showed another) */
            numbers_keep(w, numbers);
            reapply_params(w, vals, have);
        }
        return s;
    }
    tn_map_destroy(old_map);
    tn_free(&w->alloc, old_taken);
    w->map_serial++;
    w->dirty = false;
    w->bot_keys = (tn_input){0}; /* its bot was cleared */
    reapply_params(w, vals, have);
    return TN_OK;
}

void tn_world_set_input(tn_world *w, tn_input in) { w->input = in; }

void tn_world_step(tn_world *w)
{
    tn_input in = w->input;
    bool player = in.left || in.right || in.down || in.jump;
    tn_wbots_drive(w, &in, player); /* the only part that drives */
    w->bot_keys = player ? (tn_input){0} : in;
    tn_body_step(&w->character, w->map, &w->phys, in);
    tn_wbots_step(w);
    tn_wenemies_step(w);
    tn_wagents_step(w); /* reads this step's enemy positions */
    if (w->message_ttl > 0 && --w->message_ttl == 0) w->message[0] = '\0';
    w->frame++;
}

/* Record a refusal: count it, show it, hand it back. */
static tn_status refuse(tn_world *w, tn_status s, tn_error *err, const char *msg)
{
    w->refused_edits++;
    tn_world_message(w, "%s", msg);
    if (err && err->msg != msg) tn_error_set(err, s, 0, 0, "%s", msg);
    return s;
}

static tn_status change(tn_world *w, int x, int y, int tile, int mark, bool history, tn_error *err);

/* An edit of a tile outside the map, refused. */
static tn_status refuse_outside(tn_world *w, int x, int y, tn_error *err)
{
    char msg[128];
    snprintf(msg, sizeof msg, "tile (%d,%d) is outside the %dx%d map", x, y, w->map->w, w->map->h);
    return refuse(w, TN_FAILURE | TN_INVALID_PARAM, err, msg);
}

tn_status tn_world_edit(tn_world *w, int x, int y, tn_edit kind, tn_error *err)
{
    tn_error local;
    if (!err) err = &local;
    tn_map *m = w->map;
    if (!tn_map_inside(m, x, y)) return refuse_outside(w, x, y, err);
    if ((unsigned)kind > TN_EDIT_ITEM) {
        return refuse(w, TN_FAILURE | TN_INVALID_PARAM, err, "unknown edit kind");
    }
    int old_tile = tn_map_tile(m, x, y), old_mark = tn_map_mark(m, x, y);
    int tile = old_tile, mark = old_mark;
    switch (kind) {
    case TN_EDIT_BLOCK: tile = old_tile == TN_TILE_BLOCK ? TN_TILE_EMPTY : TN_TILE_BLOCK; break;
    case TN_EDIT_ONEWAY: tile = old_tile == TN_TILE_ONEWAY ? TN_TILE_EMPTY : TN_TILE_ONEWAY; break;
    case TN_EDIT_EMPTY:
        tile = TN_TILE_EMPTY;
        mark = TN_MARK_NONE;
        break;
    case TN_EDIT_SPAWN:
    case TN_EDIT_DEST:
    case TN_EDIT_ITEM: {
        int want = kind == TN_EDIT_SPAWN  ? TN_MARK_SPAWN
                   : kind == TN_EDIT_DEST ? TN_MARK_DEST
                                          : TN_MARK_ITEM;
        if (old_tile != TN_TILE_EMPTY) {
            char msg[128];
            snprintf(msg, sizeof msg, "tile (%d,%d) is not empty: %s go on empty tiles only", x, y,
                     kind == TN_EDIT_SPAWN  ? "spawn points"
                     : kind == TN_EDIT_DEST ? "destinations"
                                            : "items");
            return refuse(w, TN_FAILURE | TN_REFUSED, err, msg);
        }
        if (x == m->start_x && y == m->start_y)
            return refuse(w, TN_FAILURE | TN_REFUSED, err,
                          "that tile is the character's start; pick another");
        mark = old_mark == want ? TN_MARK_NONE : want;
        break;
    }
    }
    if (tile != TN_TILE_EMPTY) mark = TN_MARK_NONE;
    const unsigned serial = w->message_serial;
    tn_status s = change(w, x, y, tile, mark, false, err);
    /* a block or one-way platform put on a marked tile took its mark away
     * (a middle click on an item made it a platform without a word): said,
     * unless the edit said something itself (the navpath tool's re-plan
     * note is no more than the HUD's numbers: it goes) */
    const bool quiet = w->message_serial == serial ||
                       (w->message_serial == serial + 1 && tn_wnav_replan_said(w) == serial + 1);
    if (tn_succeeded(s) && quiet && tile != TN_TILE_EMPTY && old_mark > TN_MARK_NONE &&
        old_mark <= TN_MARK_ITEM && tn_map_mark(m, x, y) == 0) {
        static const char *const a_mark[] = {"", "a spawn point", "a destination", "an item"};
        static const char *const marks[] = {"", "spawn point", "destination", "item"};
        const int left = tn_map_count_marks(m, old_mark);
        tn_world_message(w, "%s placed at (%d,%d) over %s: %d %s%s left",
                         tile == TN_TILE_BLOCK ? "block" : "one-way platform", x, y,
                         a_mark[old_mark], left, marks[old_mark], left == 1 ? "" : "s");
    }
    return s;
}

tn_status tn_world_edit_to(tn_world *w, int x, int y, int tile, int mark, tn_error *err)
{
    tn_error local;
    if (!err) err = &local;
    tn_map *m = w->map;
    if (!tn_map_inside(m, x, y)) return refuse_outside(w, x, y, err);
    if (tile < TN_TILE_EMPTY || tile > TN_TILE_ONEWAY || mark < TN_MARK_NONE ||
        mark > TN_MARK_ITEM || (tile != TN_TILE_EMPTY && mark != TN_MARK_NONE))
        return refuse(w, TN_FAILURE | TN_INVALID_PARAM, err,
                      "unknown tile state (marks go on empty tiles only)");
    bool start = (x == m->start_x && y == m->start_y) ||
                 (x == w->covered_start_x && y == w->covered_start_y);
    if (mark != TN_MARK_NONE && mark != tn_map_mark(m, x, y) && start)
        return refuse(w, TN_FAILURE | TN_REFUSED, err,
                      "that tile is the character's start; pick another");
    return change(w, x, y, tile, mark, true, err);
}

/* Bring (x, y), inside the map, to (tile, mark) when every rule allows the
 * new state as a whole; history: an undo or redo (tn_world_edit_to), which
 * may take the last spawn point or destination away. */
static tn_status change(tn_world *w, int x, int y, int tile, int mark, bool history, tn_error *err)
{
    tn_map *m = w->map;
    int old_tile = tn_map_tile(m, x, y), old_mark = tn_map_mark(m, x, y);
    if (tile == old_tile && mark == old_mark) return TN_OK;
    if (tile == TN_TILE_BLOCK && tn_world_body_overlaps_tile(&w->character, x, y)) {
        char msg[128];
        snprintf(msg, sizeof msg,
                 "tile (%d,%d) is inside the character: a block there would trap it", x, y);
        return refuse(w, TN_FAILURE | TN_REFUSED, err, msg);
    }
    tn_status s = tn_wbots_check_edit(w, x, y, tile, mark, err);
    if (tn_succeeded(s)) s = tn_wenemies_check_edit(w, x, y, tile, mark, history, err);
    if (tn_failed(s)) return refuse(w, s, err, err->msg);
    if (tile != old_tile) {
        bool was_start = x == m->start_x && y == m->start_y;
        tn_map_set_tile(m, x, y, tile, NULL);
        if (was_start && m->start_x < 0) { /* covered: remembered, not lost */
            w->covered_start_x = x;
            w->covered_start_y = y;
        } else if (tile == TN_TILE_EMPTY && x == w->covered_start_x && y == w->covered_start_y) {
            if (m->start_x < 0) {
                m->start_x = x;
                m->start_y = y;
            }
            w->covered_start_x = w->covered_start_y = -1;
        }
    }
    if (mark != tn_map_mark(m, x, y)) {
        m->mark[y * m->w + x] = (uint8_t)mark;
        m->revision++;
    }
    w->taken[y * m->w + x] = 0;
    w->dirty = true;
    w->edits++;
    tn_wbots_on_edit(w, x, y);
    tn_wenemies_on_edit(w, x, y);
    tn_wnav_on_edit(w, x, y);
    tn_wagents_on_edit(w, x, y);
    return TN_OK;
}

tn_status tn_world_set_tool(tn_world *w, tn_tool tool)
{
    if ((unsigned)tool >= TN_TOOL_COUNT) return TN_FAILURE | TN_INVALID_PARAM;
    w->tool = tool;
    return TN_OK;
}

static tn_status outside(tn_world *w, int x, int y, tn_error *err)
{
    char msg[128];
    snprintf(msg, sizeof msg, "tile (%d,%d) is outside the %dx%d map", x, y, w->map->w, w->map->h);
    tn_world_message(w, "%s", msg);
    return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "%s", msg);
}

/* A click of a mark's tool: the edit, and what it did said (a removed
 * spawn point changed nothing on the status line), unless the edit said
 * something itself. */
static tn_status mark_tool(tn_world *w, int x, int y, tn_edit edit, int mark, const char *name,
                           tn_error *err)
{
    /* the mark a new one takes the place of is said too, with how many of
     * its kind are left (an item under a new destination went unsaid) */
    static const char *const a_mark[] = {"", "a spawn point", "a destination", "an item"};
    static const char *const marks[] = {"", "spawn point", "destination", "item"};
    const int old = tn_map_mark(w->map, x, y);
    const bool had = old == mark;
    const unsigned serial = w->message_serial;
    tn_status s = tn_world_edit(w, x, y, edit, err);
    if (tn_succeeded(s) && w->message_serial == serial &&
        had != (tn_map_mark(w->map, x, y) == mark)) {
        const int n = tn_map_count_marks(w->map, mark);
        if (!had && old > TN_MARK_NONE && old <= TN_MARK_ITEM) {
            const int left = tn_map_count_marks(w->map, old);
            tn_world_message(w, "%s placed at (%d,%d) over %s: %d on the map, %d %s%s left", name,
                             x, y, a_mark[old], n, left, marks[old], left == 1 ? "" : "s");
        } else {
            tn_world_message(w, "%s %s (%d,%d): %d on the map", name,
                             had ? "removed at" : "placed at", x, y, n);
        }
    }
    return s;
}

/* What a left click with `tool` does on tile (x, y), inside the map. */
static tn_status use_tool(tn_world *w, int x, int y, tn_tool tool, tn_error *err)
{
    switch (tool) {
    case TN_TOOL_BLOCK: return tn_world_edit(w, x, y, TN_EDIT_BLOCK, err);
    case TN_TOOL_ONEWAY: return tn_world_edit(w, x, y, TN_EDIT_ONEWAY, err);
    case TN_TOOL_SPAWN: return mark_tool(w, x, y, TN_EDIT_SPAWN, TN_MARK_SPAWN, "spawn point", err);
    case TN_TOOL_DEST: return mark_tool(w, x, y, TN_EDIT_DEST, TN_MARK_DEST, "destination", err);
    case TN_TOOL_ITEM: return mark_tool(w, x, y, TN_EDIT_ITEM, TN_MARK_ITEM, "item", err);
    default: break;
    }
    tn_status s;
    switch (tool) {
    case TN_TOOL_GOTO: s = tn_wbots_click(w, x, y, tool, err); break;
    case TN_TOOL_NAVPATH: s = tn_wnav_click(w, x, y, tool, err); break;
    case TN_TOOL_TARGET: s = tn_wagents_click(w, x, y, tool, err); break;
    default:
        tn_world_message(w, "the %s tool is not available yet", tn_tool_name(tool));
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "the %s tool is not available yet", tn_tool_name(tool));
    }
    if (tn_failed(s)) tn_world_message(w, "%s", err->msg);
    return s;
}

static tn_status click(tn_world *w, int x, int y, tn_button b, bool shift, tn_error *err)
{
    if (!tn_map_inside(w->map, x, y)) return outside(w, x, y, err);
    if (b == TN_CLICK_MIDDLE || (b == TN_CLICK_RIGHT && shift))
        return tn_world_edit(w, x, y, TN_EDIT_ONEWAY, err);
    if (b == TN_CLICK_RIGHT) return tn_world_edit(w, x, y, TN_EDIT_BLOCK, err);
    return use_tool(w, x, y, w->tool, err);
}

/* A refusal's message goes when a later click or setting succeeds without
 * one of its own (a review saw "the last destination cannot be removed"
 * stay under two spawn points placed after it, read as their result; a
 * playtest saw "no room for a 3x9 character here (it stays 1x9)" stay after
 * the width slider went back to 2, which fitted: the character was 2x9). */
static tn_status track_refusal(tn_world *w, unsigned serial, tn_status s)
{
    if (tn_failed(s) && w->message_serial != serial)
        w->message_refusal = true;
    else if (tn_succeeded(s) && w->message_serial == serial && w->message_refusal) {
        w->message[0] = '\0';
        w->message_ttl = 0;
        w->message_refusal = false;
    }
    return s;
}

tn_status tn_world_click(tn_world *w, int x, int y, tn_button b, bool shift, tn_error *err)
{
    tn_error local;
    if (!err) err = &local;
    const unsigned serial = w->message_serial;
    return track_refusal(w, serial, click(w, x, y, b, shift, err));
}

tn_status tn_world_goto(tn_world *w, int x, int y, tn_error *err)
{
    tn_error local;
    if (!err) err = &local;
    if (!tn_map_inside(w->map, x, y)) return outside(w, x, y, err);
    return use_tool(w, x, y, TN_TOOL_GOTO, err);
}

/* ---- knock-back ---- */

/* How far x is from the walk's lattice (whole steps of walk_speed * dt
 * from a tile edge), in px; NAN where the step divides no tile (no lattice).
 * The bots' own test (tn_bot.c, off_lattice) counts 1/16 px as on it. */
static float lattice_offset(const tn_phys_params *p, float x)
{
    const float T = p->tile_px, step = p->walk_speed * p->dt;
    const float n = T / step;
    if (!(roundf(n) >= 1.0f && fabsf(n - roundf(n)) <= 1e-3f)) return NAN;
    const float off = x - floorf(x / T) * T;
    return off - roundf(off / step) * step;
}

float tn_world_knock_body(const tn_world *w, tn_body *b, float dx, bool *wall)
{
    if (wall) *wall = false;
    if (!isfinite(dx) || dx == 0.0f) return 0.0f;
    const float T = w->phys.tile_px, x = b->x;
    float nx = x + dx;
    if (tn_body_box_blocked(w->map, &w->phys, nx, b->y, b->w, b->h)) {
        if (wall) *wall = true;
        /* a wall in the way stops the box on its tile edge, as a walk
         * into it does */
        const float W = (float)b->w * T;
        nx = dx > 0.0f ? floorf((x + dx + W) / T) * T - W : ceilf((x + dx) / T) * T;
        if (dx > 0.0f ? nx < x : nx > x) nx = x;
        if (tn_body_box_blocked(w->map, &w->phys, nx, b->y, b->w, b->h)) nx = x;
    }
    b->x = nx;
    b->vx = 0.0f;
    if (b->on_ground) tn_body_settle(b, w->map, &w->phys); /* (in the air: it flies on) */
    return nx - x;
}

tn_status tn_world_knock(tn_world *w, float dx, tn_error *err)
{
    tn_error local;
    if (!err) err = &local;
    const float T = w->phys.tile_px;
    if (!isfinite(dx) || dx == 0.0f || fabsf(dx) > T) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "knock: a push of %g px is not one: give 0 < |DX| <= %g px (a hit's "
                 "knock-back, at most a tile)",
                 (double)dx, (double)T);
        tn_world_message(w, "%s", msg);
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "%s", msg);
    }
    const char *side = dx > 0.0f ? "right" : "left";
    const bool standing = w->character.on_ground;
    bool wall;
    const float moved = tn_world_knock_body(w, &w->character, dx, &wall);
    int on_ground = 0;
    const int bots = tn_wbots_count(w), knocked = tn_wbots_knock(w, dx, &on_ground);
    /* every bot not pushed said (a wall right there on the push's side),
     * and how many were pushed in the air */
    char also[128] = "";
    const int air = bots - on_ground, walled = bots - knocked;
    if (bots > 0 && air > 0 && walled > 0)
        snprintf(also, sizeof also,
                 "; extra bots: %d of %d knocked (%d in the air, %d against a wall)", knocked, bots,
                 air, walled);
    else if (bots > 0 && (air > 0 || walled > 0))
        snprintf(also, sizeof also, "; extra bots: %d of %d knocked (%d %s)", knocked, bots,
                 air > 0 ? air : walled, air > 0 ? "in the air" : "against a wall");
    else if (bots > 0)
        snprintf(also, sizeof also, "; extra bots: %d of %d knocked", knocked, bots);
    const float step = w->phys.walk_speed * w->phys.dt;
    if (moved == 0.0f) {
        tn_world_message(w, "not knocked: the character %s against a wall on its %s%s",
                         standing ? "stands" : "flies", side, also);
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                            "the character %s against a wall on its %s",
                            standing ? "stands" : "flies", side);
    }
    char how[64] = "";
    if (wall) snprintf(how, sizeof how, " (of %.1f: a wall stopped it)", (double)fabsf(dx));
    const tn_bot *bot = tn_wbots_character_bot(w);
    const tn_bot_info bi = bot ? tn_bot_get_info(bot) : (tn_bot_info){0};
    const float off = lattice_offset(&w->phys, w->character.x);
    char then[128] = "";
    if (!standing) /* (in the air: what the bot does about the flight) */
        /* (a graph bot whose plan waits for the landing, a goto given in
         * the air or an edit mid-flight, has no edge to steer back onto) */
        snprintf(then, sizeof then, "%s",
                 !bot || !bi.active     ? ""
                 : bi.pending_reason[0] ? ": the bot plans on landing"
                 : bi.planner == 1      ? ": the bot steers its jump back onto its landing"
                                        : ": the bot steers from where it flies");
    else if (isnan(off)) /* (no lattice: the walk's step divides no tile) */
        ;
    else if (fabsf(off) <= T / 256.0f)
        snprintf(then, sizeof then, ": on the walk's %.2f px lattice", (double)step);
    else
        snprintf(then, sizeof then, ": off the walk's %.2f px lattice, %s", (double)step,
                 !bot || !bi.active ? "a goto from here starts off it"
                 : bi.planner == 1
                     ? "the bot re-checks its jumps from where it stands"
                     : "the bot steps off slivers, or walks into a wall or off a ledge and back");
    /* (a push under 0.05 px keeps its digits: "0.0 px" said nothing moved) */
    const double px = (double)fabsf(moved);
    tn_world_message(w, px >= 0.05 ? "knocked %.1f px %s%s%s%s%s" : "knocked %.2g px %s%s%s%s%s",
                     px, side, standing ? "" : " in the air", how, then, also);
    tn_error_clear(err);
    return TN_OK;
}

/* ---- accessors ---- */

const tn_map *tn_world_map(const tn_world *w) { return w->map; }
bool tn_world_covered_start(const tn_world *w, int *x, int *y)
{
    if (w->covered_start_x < 0) return false;
    *x = w->covered_start_x;
    *y = w->covered_start_y;
    return true;
}
const tn_body *tn_world_character(const tn_world *w) { return &w->character; }
const tn_phys_params *tn_world_phys(const tn_world *w) { return &w->phys; }
tn_input tn_world_input(const tn_world *w) { return w->input; }

tn_input tn_world_character_keys(const tn_world *w)
{
    const tn_input p = w->input;
    return p.left || p.right || p.jump || p.down ? p : w->bot_keys;
}
long tn_world_frame(const tn_world *w) { return w->frame; }
void tn_world_restart_frames(tn_world *w) { w->frame = 0; }
uint32_t tn_world_map_serial(const tn_world *w) { return w->map_serial; }
tn_tool tn_world_tool(const tn_world *w) { return w->tool; }
int tn_world_edits(const tn_world *w) { return w->edits; }
int tn_world_refused_edits(const tn_world *w) { return w->refused_edits; }
void tn_world_reset_edit_counts(tn_world *w) { w->edits = w->refused_edits = 0; }
bool tn_world_dirty(const tn_world *w) { return w->dirty; }
void tn_world_set_dirty(tn_world *w, bool dirty) { w->dirty = dirty; }
const char *tn_world_message_text(const tn_world *w) { return w->message; }
int tn_world_message_ttl(const tn_world *w) { return w->message_ttl; }
void tn_world_set_message_ttl(tn_world *w, int steps) { w->message_ttl = steps < 0 ? 0 : steps; }
void tn_world_set_clock(tn_world *w, tn_world_clock_fn clock) { w->clock = clock; }
tn_world_clock_fn tn_world_clock(const tn_world *w) { return w->clock; }
void tn_world_hold_graph_builds(tn_world *w, bool hold) { tn_wbots_hold(w, hold); }
void tn_world_build_graphs_in_background(tn_world *w, bool on) { w->graph_bg = on; }
void tn_world_plan_budget_per_frame(tn_world *w, bool on) { w->plan_frames = on; }

void tn_world_place_character(tn_world *w, float x, float y)
{
    w->character.x = x;
    w->character.y = y;
}

const tn_param_info *tn_world_params(int *count)
{
    if (count) *count = NPARAMS;
    return PARAMS;
}

static int param_index(const char *name)
{
    for (int i = 0; i < NPARAMS; i++)
        if (strcmp(PARAMS[i].name, name) == 0) return i;
    return -1;
}

const tn_param_info *tn_world_param_find(const char *name)
{
    int i = name ? param_index(name) : -1;
    return i < 0 ? NULL : &PARAMS[i];
}

/* The core's own parameters. */
static tn_status set_jump_height(tn_world *w, double v, tn_error *err)
{
    (void)err;
    w->phys.jump_height = (float)v;
    tn_wbots_physics(w);
    return TN_OK;
}

/* Keep the bottom-left corner; refuse when the new box would overlap a block. */
static tn_status resize_character(tn_world *w, int nw, int nh, tn_error *err)
{
    tn_body *b = &w->character;
    float bottom = b->y + (float)b->h * w->phys.tile_px;
    float ny = bottom - (float)nh * w->phys.tile_px;
    if (tn_body_box_blocked(w->map, &w->phys, b->x, ny, nw, nh))
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                            "no room for a %dx%d character here (it stays %dx%d): move to "
                            "open space first",
                            nw, nh, b->w, b->h);
    b->w = nw;
    b->h = nh;
    b->y = ny;
    tn_wbots_physics(w);
    return TN_OK;
}

static tn_status set_char_width(tn_world *w, double v, tn_error *err)
{
    return resize_character(w, (int)v, w->character.h, err);
}

static tn_status set_char_height(tn_world *w, double v, tn_error *err)
{
    return resize_character(w, w->character.w, (int)v, err);
}

static bool get_jump_height(const tn_world *w, double *v)
{
    *v = w->phys.jump_height;
    return true;
}

static bool get_char_width(const tn_world *w, double *v)
{
    *v = w->character.w;
    return true;
}

static bool get_char_height(const tn_world *w, double *v)
{
    *v = w->character.h;
    return true;
}

/* Edit distance between a and b (Levenshtein; names of up to 31 bytes,
 * longer ones are far from every name). */
static int name_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b), d[32];
    if (la > 31 || lb > 31) return 99;
    for (int j = 0; j <= lb; j++) d[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = d[0];
        d[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = d[j], c = diag + (a[i - 1] != b[j - 1]);
            if (d[j] + 1 < c) c = d[j] + 1;
            if (d[j - 1] + 1 < c) c = d[j - 1] + 1;
            d[j] = c;
            diag = up;
        }
    }
    return d[lb];
}

void tn_world_param_hint(const char *name, char *out, size_t cap)
{
    int best = -1, bd = 3;
    for (int i = 0; name && i < NPARAMS; i++) {
        int d = name_distance(name, PARAMS[i].name);
        if (d < bd) bd = d, best = i;
    }
    if (!cap) return;
    if (best >= 0) {
        snprintf(out, cap, "did you mean %s?", PARAMS[best].name);
        return;
    }
    size_t n = (size_t)snprintf(out, cap, "parameters:");
    for (int i = 0; i < NPARAMS && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s %s", i ? "," : "", PARAMS[i].name);
}

/* "unknown parameter 'X' (HINT)" */
static void unknown_param(const char *name, tn_error *err)
{
    char hint[200];
    tn_world_param_hint(name, hint, sizeof hint);
    tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "unknown parameter '%s' (%s)",
                 name ? name : "(null)", hint);
}

static tn_status set_param(tn_world *w, const char *name, double value, tn_error *err);

tn_status tn_world_set(tn_world *w, const char *name, double value, tn_error *err)
{
    tn_error local;
    if (!err) err = &local;
    const unsigned serial = w->message_serial;
    return track_refusal(w, serial, set_param(w, name, value, err));
}

static tn_status set_param(tn_world *w, const char *name, double value, tn_error *err)
{
    int i = name ? param_index(name) : -1;
    if (i < 0) {
        unknown_param(name, err);
        tn_world_message(w, "%s", err->msg);
        return err->status;
    }
    const tn_param_info *p = &PARAMS[i];
    if (!(value >= p->min && value <= p->max) || (p->integer && value != floor(value))) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "%s %g is outside %g..%g%s", p->name,
                     value, p->min, p->max, p->integer ? " (whole numbers)" : "");
        tn_world_message(w, "%s", err->msg);
        return err->status;
    }
    tn_status s;
    s = p->set(w, value, err);
    /* A rule's refusal (no room to grow) is counted like a refused edit. */
    if (tn_failed(s) && tn_status_detail(s, TN_REFUSED)) return refuse(w, s, err, err->msg);
    if (tn_failed(s)) tn_world_message(w, "%s", err->msg);
    return s;
}

bool tn_world_get(const tn_world *w, const char *name, double *value)
{
    int i = name ? param_index(name) : -1;
    return i >= 0 && PARAMS[i].get(w, value);
}

/* Add what one snprintf-like call wanted to the running length. */
static void append(int *len, int n)
{
    if (n > 0) *len += n;
}

static size_t room(size_t cap, int len) { return (size_t)len < cap ? cap - (size_t)len : 0; }
static char *at(char *buf, size_t cap, int len) { return (size_t)len < cap ? buf + len : NULL; }

int tn_world_json(const tn_world *w, char *buf, size_t cap)
{
    int len = 0, tx, ty;
    tn_body_tile(&w->character, &w->phys, &tx, &ty);
    append(&len,
           snprintf(at(buf, cap, len), room(cap, len),
                    "{\"frames\":%ld,\"seed\":%llu,\"map\":{\"width\":%d,\"height\":%d},"
                    "\"character\":{\"x\":%.2f,\"y\":%.2f,\"tile_x\":%d,\"tile_y\":%d,"
                    "\"on_ground\":%s,\"width\":%d,\"height\":%d},"
                    "\"jump_height\":%.2f,\"edits\":%d,\"refused_edits\":%d,\"unsaved\":%s",
                    w->frame, (unsigned long long)w->seed, w->map->w, w->map->h, w->character.x,
                    w->character.y, tx, ty, w->character.on_ground ? "true" : "false",
                    w->character.w, w->character.h, w->phys.jump_height, w->edits, w->refused_edits,
                    w->dirty ? "true" : "false"));
    append(&len, tn_wbots_json(w, at(buf, cap, len), room(cap, len)));
    append(&len, tn_wenemies_json(w, at(buf, cap, len), room(cap, len)));
    append(&len, tn_wnav_json(w, at(buf, cap, len), room(cap, len)));
    append(&len, tn_wagents_json(w, at(buf, cap, len), room(cap, len)));
    append(&len, snprintf(at(buf, cap, len), room(cap, len), "}"));
    return len;
}

int tn_world_hud(const tn_world *w, char *buf, size_t cap)
{
    int len = 0;
    if (cap) buf[0] = '\0';
    for (int i = 0; i < 4; i++) {
        char *b = at(buf, cap, len);
        size_t r = room(cap, len);
        int n = i == 0   ? tn_wbots_hud(w, b, r)
                : i == 1 ? tn_wenemies_hud(w, b, r)
                : i == 2 ? tn_wnav_hud(w, b, r)
                         : tn_wagents_hud(w, b, r);
        if (n <= 0) continue;
        append(&len, n);
        append(&len, snprintf(at(buf, cap, len), room(cap, len), "\n"));
    }
    return len;
}

const tn_overlay_info tn_overlays[TN_OVERLAY_COUNT] = {
    {TN_OVERLAY_PATH, "path", "path", 'p', false},
    {TN_OVERLAY_EXPLORED, "explored", "explored", 'x', false},
    {TN_OVERLAY_FLOW, "flow", "flow field", 'f', false},
    {TN_OVERLAY_NAVMESH, "navmesh", "navmesh", 'n', false},
    {TN_OVERLAY_COMPANION, "companion", "companion", 'c', false},
    {TN_OVERLAY_WANDERERS, "wanderers", "wanderers", 'v', false},
    {TN_OVERLAY_SURF, "surf", "surface graph", 'p', true},
};

void tn_overlays_list(char *buf, size_t cap, const char *sep)
{
    size_t len = 0;
    if (cap) buf[0] = 0;
    for (int i = 0; i < TN_OVERLAY_COUNT && cap; i++) {
        int n = snprintf(buf + len, cap - len, "%s%s", i ? sep : "", tn_overlays[i].id);
        if (n < 0 || (size_t)n >= cap - len) break;
        len += (size_t)n;
    }
}

bool tn_overlays_from_number(double v, unsigned *bits)
{
    const double all = (double)(1u << TN_OVERLAY_COUNT);
    if (!(v >= 0.0 && v < all) || v != (double)(unsigned)v) return false;
    *bits = (unsigned)v;
    return true;
}

bool tn_overlays_parse(const char *list, unsigned *bits)
{
    unsigned b = 0;
    /* every comma-separated name, however long the list (no copy, no cut) */
    for (const char *tok = list; *tok;) {
        size_t n = strcspn(tok, ",");
        int found = -1;
        for (int i = 0; i < TN_OVERLAY_COUNT; i++)
            if (n > 0 && strlen(tn_overlays[i].id) == n && memcmp(tok, tn_overlays[i].id, n) == 0)
                found = i;
        if (n > 0 && found < 0) return false;
        if (found >= 0) b |= tn_overlays[found].bit;
        tok += n;
        if (*tok == ',') tok++;
    }
    *bits = b;
    return true;
}

void tn_world_prepare(tn_world *w, unsigned overlays) { tn_wbots_prepare(w, overlays); }

void tn_world_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays)
{
    tn_world_draw_view(w, dd, overlays, NULL, 0.0f);
}

void tn_world_draw_navmesh_layer(const tn_world *w, const tn_debug_draw *dd)
{
    tn_wnav_draw_mesh(w, dd);
}

uint64_t tn_world_navmesh_layer_key(const tn_world *w) { return tn_wnav_mesh_key(w); }

void tn_world_draw_flow_layer(const tn_world *w, const tn_debug_draw *dd, const float *view)
{
    tn_wenemies_draw_flow(w, dd, view);
}

void tn_world_draw_view(const tn_world *w, const tn_debug_draw *dd, unsigned overlays,
                        const float *view, float scale)
{
    tn_wbots_draw(w, dd, overlays, view);
    tn_wenemies_draw(w, dd, overlays, view, scale);
    tn_wnav_draw(w, dd, overlays);
    tn_wagents_draw(w, dd, overlays, scale);
}

tn_status tn_world_check(const tn_world *w, tn_error *err)
{
    const tn_body *b = &w->character;
    if (!isfinite(b->x) || !isfinite(b->y) || !isfinite(b->vx) || !isfinite(b->vy))
        return tn_error_set(err, TN_FAILURE, 0, 0, "character position or speed is not finite");
    if (tn_body_box_blocked(w->map, &w->phys, b->x, b->y, b->w, b->h))
        return tn_error_set(err, TN_FAILURE, 0, 0, "character at (%.2f,%.2f) overlaps a block",
                            b->x, b->y);
    tn_status s = tn_wbots_check(w, err);
    if (tn_succeeded(s)) s = tn_wenemies_check(w, err);
    if (tn_succeeded(s)) s = tn_wnav_check(w, err);
    if (tn_succeeded(s)) s = tn_wagents_check(w, err);
    return s;
}
