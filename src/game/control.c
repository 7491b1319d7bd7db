/* control.c - speed table, reset, undo/redo, settings, search playback.
 * See control.h. */
#define _POSIX_C_SOURCE 200809L
#include "control.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "tn_bot.h"

#define PLURAL(n) ((n) == 1 ? "" : "s")
#include "tn_navmesh.h"
#include "tn_path.h"
#include "tn_wnav.h"
#include "tn_wbots.h"

/* ---------------------------------------------------------------- speed */

const double tn_speeds[TN_SPEED_COUNT] = {0.125, 0.25, 0.5, 1.0, 2.0, 4.0};
const char *const tn_speed_names[TN_SPEED_COUNT] = {"1/8x", "1/4x", "1/2x", "1x", "2x", "4x"};

int tn_speed_index(double speed)
{
    for (int i = 0; i < TN_SPEED_COUNT; i++)
        if (fabs(tn_speeds[i] - speed) < 1e-9) return i;
    return -1;
}

int tn_speed_step(int speed, int delta, char *msg, size_t cap)
{
    int cur = speed < 0 ? 0 : speed >= TN_SPEED_COUNT ? TN_SPEED_COUNT - 1 : speed;
    int want = cur + delta;
    int to = want < 0 ? 0 : want >= TN_SPEED_COUNT ? TN_SPEED_COUNT - 1 : want;
    const char *end = want == to ? NULL : delta > 0 ? "fastest" : "slowest";
    snprintf(msg, cap, "simulation speed %s%s%s%s (%g steps per second)",
             end ? "already at its " : "", end ? end : "", end ? ", " : "", tn_speed_names[to],
             60.0 * tn_speeds[to]);
    return to;
}

const char *tn_zoom_name(float z, char *buf, size_t cap)
{
    for (int d = 2; z > 0.0f && z < 1.0f && d <= 16; d *= 2) {
        float k = z * (float)d;
        if (k == floorf(k)) {
            snprintf(buf, cap, "%d/%dx", (int)k, d);
            return buf;
        }
    }
    snprintf(buf, cap, "%gx", (double)z);
    return buf;
}

int tn_zoom_step(int zoom, int delta, const float *levels, int n, char *msg, size_t cap)
{
    int cur = zoom < 0 ? 0 : zoom >= n ? n - 1 : zoom;
    int want = cur + delta;
    int to = want < 0 ? 0 : want >= n ? n - 1 : want;
    char z[16];
    tn_zoom_name(levels[to], z, sizeof z);
    if (want == to)
        snprintf(msg, cap, "zoom %s (O: whole map)", z);
    else
        snprintf(msg, cap, "zoom already at its %s, %s", delta > 0 ? "closest" : "widest", z);
    return to;
}

double tn_sim_feed(double acc, double dt, int speed, bool paused, int *step_requests)
{
    if (paused) { /* no backlog survives a pause: only requested steps */
        (void)acc;
        if (*step_requests > 0) {
            (*step_requests)--;
            return TN_STEP_S;
        }
        return 0;
    }
    speed = speed < 0 ? 0 : speed >= TN_SPEED_COUNT ? TN_SPEED_COUNT - 1 : speed;
    return acc + (dt > 0.25 ? 0.25 : dt < 0 ? 0 : dt) * tn_speeds[speed];
}

int tn_sim_max_steps(int speed)
{
    speed = speed < 0 ? 0 : speed >= TN_SPEED_COUNT ? TN_SPEED_COUNT - 1 : speed;
    double k = tn_speeds[speed];
    return k > 1 ? (int)(TN_MAX_CATCHUP * k) : TN_MAX_CATCHUP;
}

int tn_sim_frame(double *acc, double dt, int speed, bool paused, int *step_requests)
{
    double a = tn_sim_feed(*acc, dt, speed, paused, step_requests);
    int steps = 0, cap = tn_sim_max_steps(speed);
    while (a >= TN_STEP_S && steps < cap) {
        a -= TN_STEP_S;
        steps++;
    }
    if (steps >= cap && a > TN_STEP_S) a = TN_STEP_S * 0.5; /* drop the backlog */
    *acc = a;
    return steps;
}

void tn_control_pace_message(tn_world *w, int speed, double *credit)
{
    int ttl = tn_world_message_ttl(w);
    if (ttl <= 0 || speed < 0 || speed >= TN_SPEED_COUNT || tn_speeds[speed] <= 1.0) {
        *credit = 0;
        return;
    }
    *credit += 1.0 - 1.0 / tn_speeds[speed]; /* the step took 1/k of its 1x time */
    while (*credit >= 1.0) {
        ttl++;
        *credit -= 1.0;
    }
    tn_world_set_message_ttl(w, ttl);
}

/* ---------------------------------------------------------------- reset */

int tn_control_reset(tn_world *w, const char *map_path, char *err, size_t cap)
{
    if (!map_path) {
        snprintf(err, cap, "no map file to reload");
        return -1;
    }
    tn_map *m;
    tn_origin held; /* recorded only once the world plays the file's map */
    if (tn_load_map_held(map_path, &m, &held, err, cap) != 0) return -1;
    if (m->w != tn_world_map(w)->w || m->h != tn_world_map(w)->h) {
        /* allowed: the file may have been saved from another size */
    }
    /* the world keeps every slider across the rebuild; a reset clears the
     * agents, so their counts go to 0 first (none is made on the new map) */
    tn_error e;
    double bots = 0, wanderers = 0;
    tn_world_get(w, "bots", &bots);
    tn_world_get(w, "wanderers", &wanderers);
    tn_world_set(w, "bots", 0, &e);
    tn_world_set(w, "wanderers", 0, &e);
    if (tn_failed(tn_world_replace_map(w, m, &e))) {
        snprintf(err, cap, "%s: %s", map_path, e.msg);
        tn_world_set(w, "bots", bots, NULL); /* the old map plays on: its counts back */
        tn_world_set(w, "wanderers", wanderers, NULL);
        tn_origin_free(&held); /* a save still compares with what the old map came from */
        return -1;
    }
    tn_origin_keep(&held);
    tn_world_reset_edit_counts(w);
    tn_world_set_dirty(w, false);
    char moved[600];
    if (tn_control_start_moved(w, map_path, moved, sizeof moved)) {
        tn_print_shown(stderr, "tilenav: warning: %s\n", moved);
        tn_world_message(w, "reset: warning: %s", moved);
        tn_world_set_message_ttl(w, 60 * 10);
    } else if (tn_map_read_once(map_path)) {
        tn_world_message(w,
                         "reset: %s (a pipe, read once) restored as it was read, agents and "
                         "edit counts cleared",
                         map_path);
    } else {
        tn_world_message(w, "reset: %s reloaded, agents and edit counts cleared", map_path);
    }
    return 0;
}

bool tn_control_start_moved(const tn_world *w, const char *map_path, char *msg, size_t cap)
{
    const tn_map *m = tn_world_map(w);
    if (cap) msg[0] = '\0';
    /* a start under a block or one-way platform (a `start X Y` line on
     * one, kept as covered): the character cannot stand in a block */
    int sx = m->start_x, sy = m->start_y;
    bool covered =
        sx < 0 && tn_world_covered_start(w, &sx, &sy) && tn_map_tile(m, sx, sy) == TN_TILE_BLOCK;
    if (sx < 0) return false; /* no start */
    const tn_body *b = tn_world_character(w);
    const float T = tn_world_phys(w)->tile_px;
    /* tn_body_place: x at the tile's left, the body's bottom on the tile */
    int tx = (int)floorf(b->x / T + 0.5f), ty = (int)floorf(b->y / T + 0.5f) + b->h - 1;
    if (!covered && tx == sx && ty == sy) return false;
    int line = 0, col = 0;
    char rest[640]; /* after the map's name, which may be shortened (tn_name_fit): never this */
    int n = 0;
    if (map_path && tn_map_start_where(map_path, sx, sy, &line, &col) == 0)
        n = snprintf(rest, sizeof rest, ":%d:%d: ", line, col);
    else if (map_path)
        n = snprintf(rest, sizeof rest, ": ");
    else
        rest[0] = '\0';
    if (covered)
        snprintf(rest + n, sizeof rest - (size_t)n,
                 "the start, tile (%d,%d), is inside a block: the %dx%d-tile character starts "
                 "at tile (%d,%d) instead, the nearest place it fits (taking the block away "
                 "brings the start back)",
                 sx, sy, b->w, b->h, tx, ty);
    else
        snprintf(rest + n, sizeof rest - (size_t)n,
                 "the %dx%d-tile character does not fit at its start, tile (%d,%d) (a block or "
                 "the map's edge is in the way): it starts at tile (%d,%d) instead, the nearest "
                 "place it fits",
                 b->w, b->h, m->start_x, m->start_y, tx, ty);
    tn_name_fit(msg, cap, map_path ? map_path : "", rest);
    return true;
}

/* ------------------------------------------------------------- planner */

tn_status tn_control_set_planner(tn_world *w, double value)
{
    double v = 1.0;
    tn_world_get(w, "planner", &v);
    tn_error err;
    tn_status st = tn_world_set(w, "planner", value, &err);
    bool now = value > 0.5;
    if (!tn_succeeded(st) || now == (v > 0.5)) return st;
    const tn_map *m = tn_world_map(w);
    const char *eff = tn_wbots_planner_in_effect(w);
    if (strcmp(eff, "none") == 0)
        tn_world_message(w, "planner: %s selected; goto is off on this %dx%d map",
                         now ? "graph" : "classic", m->w, m->h);
    else if (!now && strcmp(eff, "graph") == 0)
        tn_world_message(w, /* no classic finder on a map this large: say which plans */
                         "planner: classic selected, but there is no classic path finder on this "
                         "%dx%d map (above 512x512): goto plans with the graph",
                         m->w, m->h);
    else if (!now)
        tn_world_message(w, "planner: classic (jump-value A*)");
    else
        tn_world_message(w, "planner: graph (physics surface graph)");
    return st;
}

/* ------------------------------------------------------- B/M count keys */

tn_status tn_control_knock(tn_world *w, float pointer_wx)
{
    float cx, cy;
    tn_world_character_center(w, &cx, &cy);
    return tn_world_knock(w, pointer_wx >= cx ? -TN_CONTROL_KNOCK_PX : TN_CONTROL_KNOCK_PX, NULL);
}

int tn_control_count_key(tn_world *w, const char *param, int delta)
{
    bool bots = strcmp(param, "bots") == 0;
    const char *one = bots ? "extra bot" : "wanderer", *key = bots ? "B" : "M";
    double n;
    const tn_param_info *pi = tn_world_param_find(param);
    if (!pi || !tn_world_get(w, param, &n)) {
        tn_world_message(w, "%ss are not available on this map", one);
        return 0;
    }
    int have = (int)n, want = have + delta;
    if (want < (int)pi->min) {
        tn_world_message(w, "no %s to remove (%s adds one)", one, key);
        return have;
    }
    if (want > (int)pi->max) {
        tn_world_message(w, "%d %ss is the most (Shift+%s removes one)", have, one, key);
        return have;
    }
    /* say what the key did (a world message of the set's own, "only 2 of 3
     * wanderers found room", stays): the status line kept "no extra bot to
     * remove (B adds one)" from a Shift+B before under the bot B added */
    char before[TN_WORLD_MSG_MAX];
    snprintf(before, sizeof before, "%s", tn_world_message_text(w));
    tn_error err;
    tn_world_set(w, param, want, &err); /* refusals show in the HUD */
    const int now = tn_world_get(w, param, &n) ? (int)n : have;
    /* (a refusal before, "jump_height 9 is outside 1..8", is taken off the
     * line by the set's success: empty is no message of the set's own) */
    const char *said = tn_world_message_text(w);
    if (now != have && (said[0] == '\0' || strcmp(before, said) == 0))
        tn_world_message(w, "%d %s%s now (%s adds one, Shift+%s removes one)", now, one,
                         now == 1 ? "" : "s", key, key);
    return now;
}

/* ---------------------------------------------------------------- undo */

void tn_undo_clear(tn_undo *u) { memset(u, 0, sizeof *u); }

void tn_undo_set_clean(tn_undo *u, const tn_world *w)
{
    u->clean = u->pos;
    u->clean_known = true;
    u->edits_seen = tn_world_edits(w);
}

/* Before a change: an edit the history did not make forgets the clean
 * point (the map may differ from the file at every place in it). */
static void check_foreign(tn_undo *u, const tn_world *w)
{
    if (tn_world_edits(w) != u->edits_seen) u->clean_known = false;
}

/* The edits since the clean point put every tile they touched back as it
 * was there (an item placed and taken away, a block toggled twice): the
 * map is its file's again.  Each tile's state at the clean point is the
 * "before" of the first entry that touched it (at most TN_UNDO_MAX
 * entries: quadratic, but only over the history's own length). */
static bool back_to_clean(const tn_undo *u, const tn_world *w)
{
    long k = u->pos - u->clean;
    if (k <= 0 || k > u->count) return false;
    const tn_map *m = tn_world_map(w);
    for (long q = 0; q < k; q++) {
        const tn_undo_entry *e = &u->e[(u->head - k + q + TN_UNDO_MAX) % TN_UNDO_MAX];
        bool seen = false;
        for (long r = 0; r < q && !seen; r++) {
            const tn_undo_entry *f = &u->e[(u->head - k + r + TN_UNDO_MAX) % TN_UNDO_MAX];
            seen = f->x == e->x && f->y == e->y;
        }
        if (seen) continue;
        if (!tn_map_inside(m, e->x, e->y) || tn_map_tile(m, e->x, e->y) != e->tile0 ||
            tn_map_mark(m, e->x, e->y) != e->mark0)
            return false;
    }
    return true;
}

/* After a change: the dirty flag says whether the history is off its
 * clean point (and the map not back to it by other edits). */
static void settle(tn_undo *u, tn_world *w)
{
    u->edits_seen = tn_world_edits(w);
    if (u->clean_known) tn_world_set_dirty(w, u->pos != u->clean && !back_to_clean(u, w));
}

static void record(tn_undo *u, tn_world *w, int x, int y, int t0, int m0)
{
    const tn_map *m = tn_world_map(w);
    int t1 = tn_map_tile(m, x, y), m1 = tn_map_mark(m, x, y);
    if (t0 == t1 && m0 == m1) {
        settle(u, w);
        return;
    }
    if (u->clean_known && u->clean > u->pos) u->clean_known = false; /* redo side dropped */
    u->pos++;
    tn_undo_entry *e = &u->e[u->head];
    e->x = (int16_t)x;
    e->y = (int16_t)y;
    e->tile0 = (uint8_t)t0;
    e->mark0 = (uint8_t)m0;
    e->tile1 = (uint8_t)t1;
    e->mark1 = (uint8_t)m1;
    e->joined = u->join && u->count > 0;
    u->head = (u->head + 1) % TN_UNDO_MAX;
    if (u->count < TN_UNDO_MAX) u->count++;
    u->redo = 0;
    settle(u, w);
}

tn_status tn_undo_edit(tn_undo *u, tn_world *w, int x, int y, tn_edit kind, tn_error *err)
{
    bool in = tn_map_inside(tn_world_map(w), x, y);
    int t0 = in ? tn_map_tile(tn_world_map(w), x, y) : 0,
        m0 = in ? tn_map_mark(tn_world_map(w), x, y) : 0;
    check_foreign(u, w);
    tn_status s = tn_world_edit(w, x, y, kind, err);
    if (!tn_failed(s) && in) record(u, w, x, y, t0, m0);
    return s;
}

tn_status tn_undo_click(tn_undo *u, tn_world *w, int x, int y, tn_button b, bool shift,
                        tn_error *err)
{
    bool in = tn_map_inside(tn_world_map(w), x, y);
    int t0 = in ? tn_map_tile(tn_world_map(w), x, y) : 0,
        m0 = in ? tn_map_mark(tn_world_map(w), x, y) : 0;
    check_foreign(u, w);
    tn_status s = tn_world_click(w, x, y, b, shift, err);
    if (!tn_failed(s) && in) record(u, w, x, y, t0, m0);
    return s;
}

/* Bring tile (x, y) to (tile, mark) through the world's edit rules, in one
 * change: all of it or nothing (a block over a spawn point does not come
 * back as the bare tile when the spawn point is refused). */
static bool set_state(tn_world *w, int x, int y, int tile, int mark)
{
    tn_error e;
    return !tn_failed(tn_world_edit_to(w, x, y, tile, mark, &e));
}

void tn_undo_join(tn_undo *u, bool on) { u->join = on; }

/* What a tile is, as an undo or redo names it: its mark (marks are only
 * on empty tiles), else its kind. */
static const char *state_name(int tile, int mark)
{
    static const char *const tiles[] = {"empty", "block", "one-way"};
    static const char *const marks[] = {"", "spawn point", "destination", "item"};
    if (mark > TN_MARK_NONE && mark <= TN_MARK_ITEM) return marks[mark];
    return tile >= 0 && tile <= TN_TILE_ONEWAY ? tiles[tile] : "?";
}

/* Undo the last entry; false when the world refused it. */
static bool undo_one(tn_undo *u, tn_world *w, tn_undo_entry *out)
{
    int i = (u->head + TN_UNDO_MAX - 1) % TN_UNDO_MAX;
    const tn_undo_entry *e = &u->e[i];
    check_foreign(u, w);
    if (!tn_map_inside(tn_world_map(w), e->x, e->y) ||
        !set_state(w, e->x, e->y, e->tile0, e->mark0))
        return false; /* the world's message says why */
    *out = *e;
    u->head = i;
    u->count--;
    u->redo++;
    u->pos--;
    settle(u, w);
    return true;
}

/* Redo the next entry; false when the world refused it. */
static bool redo_one(tn_undo *u, tn_world *w, tn_undo_entry *out)
{
    const tn_undo_entry *e = &u->e[u->head];
    check_foreign(u, w);
    if (!tn_map_inside(tn_world_map(w), e->x, e->y) ||
        !set_state(w, e->x, e->y, e->tile1, e->mark1))
        return false;
    *out = *e;
    u->head = (u->head + 1) % TN_UNDO_MAX;
    u->count++;
    u->redo--;
    u->pos++;
    settle(u, w);
    return true;
}

/* The Ctrl+Z presses left: the entries that begin a stroke (or stand
 * alone), plus one for a stroke whose first entry the ring dropped. */
static int undo_steps(const tn_undo *u)
{
    int n = 0;
    for (int k = 1; k <= u->count; k++) {
        const tn_undo_entry *e = &u->e[(u->head + TN_UNDO_MAX - k) % TN_UNDO_MAX];
        if (!e->joined || k == u->count) n++;
    }
    return n;
}

/* The Ctrl+Y presses left: each redo takes the entry at head and the ones
 * joined to it. */
static int redo_steps(const tn_undo *u)
{
    int n = 0;
    for (int k = 0; k < u->redo; k++)
        if (k == 0 || !u->e[(u->head + k) % TN_UNDO_MAX].joined) n++;
    return n;
}

bool tn_undo_undo(tn_undo *u, tn_world *w)
{
    if (u->count == 0) {
        tn_world_message(w, "nothing to undo");
        return false;
    }
    tn_undo_entry e = {0};
    int n = 0;
    /* a stroke back to its first entry (the one not joined) */
    while (u->count > 0 && undo_one(u, w, &e)) {
        n++;
        if (!e.joined) break;
    }
    if (n == 0) return false;
    if (e.joined && u->count > 0) return true; /* refused part-way: the world said why */
    if (n == 1)
        tn_world_message(w, "undo: tile (%d,%d) %s -> %s (%d more to undo, %d to redo)", e.x, e.y,
                         state_name(e.tile1, e.mark1), state_name(e.tile0, e.mark0), undo_steps(u),
                         redo_steps(u));
    else
        tn_world_message(w, "undo: %d tiles from (%d,%d) (%d more to undo, %d to redo)", n, e.x,
                         e.y, undo_steps(u), redo_steps(u));
    return true;
}

bool tn_undo_undo_key(tn_undo *u, tn_world *w, bool restore_offered)
{
    if (u->count == 0 && restore_offered) {
        tn_world_message(w, "nothing to undo since the map was loaded or reset: R restores the "
                            "autosaved edits");
        return false;
    }
    return tn_undo_undo(u, w);
}

bool tn_undo_redo(tn_undo *u, tn_world *w)
{
    if (u->redo == 0) {
        tn_world_message(w, "nothing to redo");
        return false;
    }
    tn_undo_entry e = {0}, first = {0};
    int n = 0;
    /* the stroke's first entry, then the ones joined to it */
    while (u->redo > 0 && (n == 0 || u->e[u->head].joined) && redo_one(u, w, &e)) {
        if (n++ == 0) first = e;
    }
    if (n == 0) return false;
    if (u->redo > 0 && u->e[u->head].joined) return true; /* refused part-way */
    if (n == 1)
        tn_world_message(w, "redo: tile (%d,%d) %s -> %s (%d more to redo, %d to undo)", e.x, e.y,
                         state_name(e.tile0, e.mark0), state_name(e.tile1, e.mark1), redo_steps(u),
                         undo_steps(u));
    else
        tn_world_message(w, "redo: %d tiles from (%d,%d) (%d more to redo, %d to undo)", n, first.x,
                         first.y, redo_steps(u), undo_steps(u));
    return true;
}

/* ------------------------------------------------------------- settings */

bool tn_settings_path(char *out, size_t cap)
{
    const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
    int n = -1;
    if (x && x[0] == '/')
        n = snprintf(out, cap, "%s/tilenav/settings", x);
    else if (h && h[0])
        n = snprintf(out, cap, "%s/.config/tilenav/settings", h);
    /* a cut path would name another file (".../tilenav/sett"): none */
    if (n < 0 || (size_t)n >= cap) {
        if (cap) out[0] = '\0';
        return false;
    }
    return true;
}

void tn_settings_put(tn_settings *s, const char *name, double value)
{
    for (int i = 0; i < s->count; i++)
        if (strcmp(s->name[i], name) == 0) {
            s->value[i] = value;
            return;
        }
    if (s->count == TN_SETTINGS_MAX) return;
    snprintf(s->name[s->count], sizeof s->name[0], "%s", name);
    s->line[s->count] = 0;
    s->value[s->count++] = value;
}

bool tn_settings_read_at_start(const char *name)
{
    return strcmp(name, "jump_height") != 0 && strcmp(name, "char_width") != 0 &&
           strcmp(name, "char_height") != 0;
}

void tn_settings_from_world(tn_settings *s, const tn_world *w)
{
    int n;
    const tn_param_info *pi = tn_world_params(&n);
    for (int i = 0; i < n; i++) {
        double v;
        if (tn_settings_read_at_start(pi[i].name) && tn_world_get(w, pi[i].name, &v))
            tn_settings_put(s, pi[i].name, v);
    }
}

bool tn_settings_get(const tn_settings *s, const char *name, double *value)
{
    for (int i = 0; i < s->count; i++)
        if (strcmp(s->name[i], name) == 0) {
            *value = s->value[i];
            return true;
        }
    return false;
}

bool tn_settings_get_int(const tn_settings *s, const char *name, int lo, int hi, int *value)
{
    double v;
    /* compared as a double first: (int) of 1e300 or NaN is undefined */
    if (!tn_settings_get(s, name, &v) || !(v >= lo && v <= hi) || v != floor(v)) return false;
    *value = (int)v;
    return true;
}

int tn_settings_load(tn_settings *s, const char *path, char *err, size_t cap)
{
    memset(s, 0, sizeof *s);
    /* No file: the defaults.  Anything else goes to tn_read_file, which
     * never waits (a FIFO is refused, where fopen would block until a
     * writer came) and says why a file cannot be read. */
    struct stat st;
    if (stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) return 0;
    char *buf;
    size_t len;
    if (tn_read_file(path, 64 * 1024, &buf, &len, err, cap) != 0) return -1;
    int tl, tc;
    char tw[256];
    if (tn_text_check(buf, len, &tl, &tc, tw, sizeof tw)) { /* UTF-16, CR-only line ends */
        snprintf(err, cap, "%s:%d: %s", path, tl, tw);      /* (read as one bad line before) */
        free(buf);
        memset(s, 0, sizeof *s);
        return -1;
    }
    int lineno = 0;
    char *p = buf;
    int rc = 1;
    /* a UTF-8 byte-order mark (an editor's) is no part of the first name,
     * as in maps and scripts: it made 'speed 3' an unknown setting */
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) p += 3;
    while (p < buf + len) {
        char *e = memchr(p, '\n', (size_t)(buf + len - p));
        if (e) *e = '\0';
        lineno++;
        if (strlen(p) != (size_t)((e ? e : buf + len) - p)) { /* not text: never half-read */
            snprintf(err, cap, "%s:%d: binary data (a NUL byte)", path, lineno);
            rc = -1;
            break;
        }
        char *hash = strchr(p, '#');
        if (hash) *hash = '\0';
        char name[64], extra[8];
        double v;
        int k = sscanf(p, "%63s %lf %7s", name, &v, extra);
        char word[8];
        if (k == 2 && isfinite(v) && strlen(name) < sizeof s->name[0]) {
            if (s->count == TN_SETTINGS_MAX) {
                snprintf(err, cap, "%s:%d: more than %d settings", path, lineno, TN_SETTINGS_MAX);
                rc = -1;
                break;
            }
            tn_settings_put(s, name, v);
            for (int i = 0; i < s->count; i++)
                if (strcmp(s->name[i], name) == 0) s->line[i] = lineno;
        } else if (sscanf(p, "%7s", word) == 1) {
            snprintf(err, cap, "%s:%d: expected 'NAME NUMBER'", path, lineno);
            rc = -1;
            break;
        }
        if (!e) break;
        p = e + 1;
    }
    free(buf);
    if (rc < 0) memset(s, 0, sizeof *s);
    return rc;
}

void tn_window_frame(int ow, int oh, int *lw, int *lh, int *uw, int *uh)
{
    *lw = *uw = 1280, *lh = *uh = 720; /* TN_GAME_LOGICAL_W x _H (game.h) */
    if (ow >= 1280 && oh >= 720) return;
    *lw = ow, *lh = oh;
    *uw = ow < TN_WINDOW_MIN_W ? TN_WINDOW_MIN_W : ow;
    *uh = oh < TN_WINDOW_MIN_H ? TN_WINDOW_MIN_H : oh;
}

int tn_settings_check(const tn_settings *s, const char *path, char *out, size_t cap)
{
    /* the window's own keys (app.c, current_settings) and what it takes */
    static const struct {
        const char *name;
        double lo, hi;
        bool whole;
    } own[] = {
        {"overlays", 0, (double)((1u << TN_OVERLAY_COUNT) - 1), true},
        {"speed", 0, TN_SPEED_COUNT - 1, true},
        {"search_speed", 0, TN_PB_RATES - 1, true},
        {"hud_hidden", -DBL_MAX, DBL_MAX, false}, /* any number: 0 is off */
        {"fast_heuristic", -DBL_MAX, DBL_MAX, false},
        {"flow8", -DBL_MAX, DBL_MAX, false},
        {"window_w", TN_WINDOW_MIN_W, 8192, false}, /* the window's minimum (app.c) */
        {"window_h", TN_WINDOW_MIN_H, 8192, false},
    };
    int np, bad = 0;
    const tn_param_info *pi = tn_world_params(&np);
    size_t used = 0;
    if (cap) out[0] = '\0';
    /* in the file's order (the settings are kept by name), as a reader
     * goes down it: an insertion sort of the indices by line */
    int order[TN_SETTINGS_MAX];
    for (int i = 0; i < s->count; i++) {
        int k = i;
        for (; k > 0 && s->line[order[k - 1]] > s->line[i]; k--) order[k] = order[k - 1];
        order[k] = i;
    }
    for (int oi = 0; oi < s->count; oi++) {
        const int i = order[oi];
        const char *name = s->name[i];
        double v = s->value[i], lo = 0, hi = 0;
        bool known = false, whole = false;
        for (int k = 0; k < np && !known; k++)
            if (strcmp(pi[k].name, name) == 0) { /* an integer one is rounded down: any */
                known = true;
                lo = pi[k].min;
                hi = pi[k].max;
            }
        for (size_t k = 0; k < sizeof own / sizeof own[0] && !known; k++)
            if (strcmp(own[k].name, name) == 0) {
                known = true;
                lo = own[k].lo;
                hi = own[k].hi;
                whole = own[k].whole;
            }
        char why[160];
        if (!known)
            snprintf(why, sizeof why, "unknown setting '%s' (ignored)", name);
        else if (!(v >= lo && v <= hi))
            snprintf(why, sizeof why, "%s %g is out of range %g..%g (ignored)", name, v, lo, hi);
        else if (whole && v != floor(v))
            snprintf(why, sizeof why, "%s %g is not a whole number (ignored)", name, v);
        else
            continue;
        bad++;
        int n = snprintf(out + used, cap > used ? cap - used : 0, "%s%s:%d: %s", used ? "\n" : "",
                         path, s->line[i], why);
        if (n > 0 && used + (size_t)n < cap)
            used += (size_t)n;
        else if (cap > used)
            out[used] = '\0'; /* no room for the whole line: none of it */
    }
    return bad;
}

int tn_settings_set_aside(const char *path, char *bad, size_t badcap, char *err, size_t cap)
{
    /* an earlier SETTINGS.bad is kept: the next is SETTINGS.bad.1, ... */
    return tn_move_aside(path, ".bad", 0, "it", bad, badcap, err, cap);
}

int tn_settings_save(const tn_settings *s, const char *path, char *err, size_t cap)
{
    /* the directory first (one level: $XDG_CONFIG_HOME/tilenav) */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        char cmd_dir[1024];
        snprintf(cmd_dir, sizeof cmd_dir, "%s", dir);
        char *up = strrchr(cmd_dir, '/');
        if (up && up != cmd_dir) { /* ~/.config may not exist either */
            *up = '\0';
            mkdir(cmd_dir, 0755);
        }
        mkdir(dir, 0755);
    }
    char text[TN_SETTINGS_MAX * 64 + 128];
    int n = snprintf(text, sizeof text,
                     "# tilenav settings, written on exit (no jump height or character size:\n"
                     "# each run takes those from its command line, --jump-height and --char)\n");
    for (int i = 0; i < s->count && n < (int)sizeof text; i++) {
        /* the fewest digits that read back as the value (a float's value,
         * the sliders', as that float: "0.1", not "0.10000000149011612") */
        const double v = s->value[i];
        const bool is_float = isfinite(v) && fabs(v) <= FLT_MAX && (double)(float)v == v;
        char num[40];
        /* (from %g's 6: "220", not "2.2e+02") */
        for (int digits = 6; digits <= 17; digits++) {
            snprintf(num, sizeof num, "%.*g", digits, v);
            const double back = strtod(num, NULL);
            if (back == v || (is_float && (float)back == (float)v)) break;
        }
        n += snprintf(text + n, sizeof text - (size_t)n, "%s %s\n", s->name[i], num);
    }
    if (n >= (int)sizeof text) n = (int)sizeof text - 1;
    return tn_write_file_atomic(path, text, (size_t)n, err, cap);
}

/* ------------------------------------------------------------- playback */

const int tn_playback_rates[TN_PB_RATES] = {10, 30, 100, 300, 1000, 3000, 10000};

int tn_playback_init(tn_playback *p)
{
    memset(p, 0, sizeof *p);
    p->buf = malloc(sizeof *p->buf * TN_PLAYBACK_EVENTS);
    if (!p->buf) return -1;
    tn_trace_init(&p->trace, p->buf, TN_PLAYBACK_EVENTS);
    p->speed = 3;
    return 0;
}

void tn_playback_free(tn_playback *p)
{
    free(p->buf);
    free(p->scratch);
    p->buf = NULL;
    p->scratch = NULL;
}

uint8_t *tn_playback_scratch(tn_playback *p, size_t n)
{
    if (n > p->scratch_cap) {
        uint8_t *s = realloc(p->scratch, n);
        if (!s) return NULL;
        p->scratch = s;
        p->scratch_cap = n;
    }
    return p->scratch;
}

void tn_playback_start(tn_playback *p)
{
    p->active = p->trace.count > 0;
    p->paused = false;
    p->shown = 0;
}

double tn_playback_rate(const tn_playback *p)
{
    if (!p) return tn_playback_rates[3];
    const double set = tn_playback_rates[p->speed];
    double slow = (double)p->trace.count / TN_PB_MIN_SECONDS;
    if (slow < tn_playback_rates[0]) slow = tn_playback_rates[0];
    return slow < set ? slow : set;
}

void tn_playback_advance(tn_playback *p, double dt)
{
    if (!p->active || p->paused) return;
    p->shown += dt * tn_playback_rate(p);
    if (p->shown > p->trace.count) p->shown = p->trace.count;
}

void tn_playback_frame(tn_playback *p, double dt, unsigned overlays, bool covered)
{
    if (!covered && tn_playback_visible(p, overlays)) tn_playback_advance(p, dt);
}

int tn_playback_set_speed(tn_playback *p, tn_world *w, int speed)
{
    const int to = speed < 0 ? 0 : speed >= TN_PB_RATES ? TN_PB_RATES - 1 : speed;
    const char *end = to == speed ? ""
                      : to > 0    ? "already at its fastest, "
                                  : "already at its slowest, ";
    p->speed = to;
    const int set = tn_playback_rates[to];
    if (p->trace.count == 0) {
        if (p->none) /* a search was made but could not be recorded: why */
            tn_world_message(w, "replay speed %s%d/s; no search to replay: %s", end, set, p->label);
        else
            tn_world_message(w,
                             "replay speed %s%d/s; no search to replay yet: click with the goto "
                             "tool (1) or the navmesh tool (7)",
                             end, set);
        return to;
    }
    const int plays = (int)lround(tn_playback_rate(p));
    if (plays < set)
        tn_world_message(w, "replay speed %s%d/s (this short search plays at %d/s)", end, set,
                         plays);
    else
        tn_world_message(w, "replay speed %s%d/s", end, set);
    return to;
}

void tn_playback_step(tn_playback *p)
{
    if (!p->active) return;
    int n = (int)p->shown, c = p->trace.count;
    while (n < c && p->trace.ev[n].kind == TN_TRACE_OPEN) n++; /* to the next close */
    if (n < c) n++;                                            /* take it */
    while (n < c && p->trace.ev[n].kind == TN_TRACE_OPEN) n++; /* and the opens it made */
    p->shown = n;
}

int tn_playback_record_goto(tn_playback *p, struct tn_path **finder, const tn_world *w)
{
    tn_error e;
    tn_trace_reset(&p->trace);
    p->navmesh = p->graph = p->fast = false;
    p->active = false;
    p->expanded = 0;
    p->none = NULL;
    const tn_bot *b = tn_wbots_character_bot(w);
    tn_path_query q;
    if (!b || !tn_bot_last_query(b, &q)) {
        snprintf(p->label, sizeof p->label, "A*: %s",
                 b ? "the bot's last plan made no classic search" : "goto is off on this map");
        return 0;
    }
    if (*finder && (p->finder_w != tn_world_map(w)->w || p->finder_h != tn_world_map(w)->h)) {
        tn_path_destroy(*finder);
        *finder = NULL;
    }
    if (!*finder) {
        /* its own finder (the bot's holds the explored overlay's search):
         * 8 x 46 bytes a tile, so not on the largest maps */
        long tiles = (long)tn_world_map(w)->w * tn_world_map(w)->h;
        if (tiles > 256L * 256L) {
            snprintf(p->label, sizeof p->label,
                     "the classic search is not replayed on maps above 256x256 (a second path "
                     "finder would take %ld MB more here); X shows what it explored",
                     tiles * 46 * 8 >> 20);
            p->none = "none above 256x256";
            return 0;
        }
        if (tn_failed(tn_path_create(tn_world_map(w)->w, tn_world_map(w)->h, tn_world_phys(w),
                                     65536, NULL, finder, &e))) {
            snprintf(p->label, sizeof p->label, "A*: %.80s", e.msg);
            return 0;
        }
        p->finder_w = tn_world_map(w)->w;
        p->finder_h = tn_world_map(w)->h;
    }
    /* the bot's own query (its start moved onto ground beside a ledge, its
     * snapped goal, heuristic and limit): the same search again */
    tn_path_set_trace(*finder, &p->trace);
    tn_path_stats st;
    int n = 0;
    tn_status r = tn_path_find(*finder, tn_world_map(w), &q, NULL, 0, &n, &st, NULL);
    tn_path_set_trace(*finder, NULL);
    /* a goal out of reach: the search that proved it, every state the
     * start reaches (its closest place is the best of them) */
    snprintf(
        p->label, sizeof p->label, "A* (%s) from (%d,%d) to (%d,%d)%s: %d state%s expanded",
        q.heuristic == TN_PATH_FAST ? "fast" : "optimal", q.start_x, q.start_y, q.goal_x, q.goal_y,
        tn_status_detail(r, TN_UNREACHABLE) ? ", out of reach (the search that proved it)" : "",
        st.expanded, PLURAL(st.expanded));
    p->expanded = st.expanded;
    p->fast = q.heuristic == TN_PATH_FAST;
    p->goal_x = q.goal_x;
    p->goal_y = q.goal_y;
    tn_playback_start(p);
    return p->trace.count;
}

int tn_playback_record_graph(tn_playback *p, const tn_world *w)
{
    tn_trace_reset(&p->trace);
    p->navmesh = false;
    p->graph = true;
    p->fast = false;
    p->active = false;
    p->expanded = 0;
    p->none = NULL;
    tn_wbots_search s;
    int n = tn_wbots_graph_search(w, &s);
    if (n == 0) {
        snprintf(p->label, sizeof p->label, "graph search: %s", s.why);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        tn_trace_event ev;
        ev.x = (float)s.nodes[i].x;
        ev.y = (float)s.nodes[i].y;
        ev.g = ev.f = 0;
        ev.id = s.nodes[i].node;
        ev.kind = i == n - 1 && s.reached ? TN_TRACE_GOAL : TN_TRACE_CLOSE;
        if (p->trace.count < p->trace.cap)
            p->trace.ev[p->trace.count++] = ev;
        else
            p->trace.dropped++;
    }
    if (!s.out_of_reach)
        snprintf(p->label, sizeof p->label,
                 "graph A* from (%d,%d) to (%d,%d): %d node%s expanded, %d frames", s.nodes[0].x,
                 s.nodes[0].y, s.goal_x, s.goal_y, n, PLURAL(n), s.frames);
    else { /* what the replay shows of a goal out of reach, and what it cannot */
        char proof[96];
        if (s.unkept > 0)
            snprintf(proof, sizeof proof, "expanded %d node%s more, not kept", s.unkept,
                     PLURAL(s.unkept));
        else
            snprintf(proof, sizeof proof, "expanded no node: its bounds ruled the goal out");
        snprintf(p->label, sizeof p->label,
                 "graph A* from (%d,%d) to (%d,%d), out of reach: the search to the closest "
                 "place, %d node%s expanded%s (the search that proved the goal out of reach %s)",
                 s.nodes[0].x, s.nodes[0].y, s.goal_x, s.goal_y, n, PLURAL(n),
                 n == 1 ? " (only the start: the closest place is a walk on its surface)" : "",
                 proof);
    }
    p->expanded = n;
    tn_playback_start(p);
    return p->trace.count;
}

bool tn_playback_visible(const tn_playback *p, unsigned overlays)
{
    return p && p->active && (overlays & TN_OVERLAY_EXPLORED);
}

/* What Q expanded, for the status line: the current node (the last event
 * shown that is not a push), which expansion it is, its costs and the
 * pushes it made (a playtest: Q moved the white frame and said nothing,
 * and the recorded g and f were never on screen). */
static void step_said(const tn_playback *p, char *out, size_t cap)
{
    const tn_trace_event *ev = p->trace.ev;
    const int shown = (int)p->shown < p->trace.count ? (int)p->shown : p->trace.count;
    int cur = -1, k = 0, pushed = 0;
    for (int i = 0; i < shown; i++)
        if (ev[i].kind != TN_TRACE_OPEN) cur = i, k++;
    if (cur < 0) {
        snprintf(out, cap, "replay: no expansion yet");
        return;
    }
    for (int i = cur + 1; i < shown && ev[i].kind == TN_TRACE_OPEN; i++) pushed++;
    const tn_trace_event *e = &ev[cur];
    const long total = p->expanded > 0 ? p->expanded : k;
    char what[96];
    if (p->graph)
        snprintf(what, sizeof what, "graph node %d, standing at (%d,%d)", (int)e->id, (int)e->x,
                 (int)e->y);
    else if (p->navmesh && e->id < 0)
        snprintf(what, sizeof what, "tangent point (%.1f,%.1f)", (double)e->x, (double)e->y);
    else if (p->navmesh)
        snprintf(what, sizeof what, "triangle %d (centre %.1f,%.1f)", (int)e->id, (double)e->x,
                 (double)e->y);
    else
        snprintf(what, sizeof what, "tile (%d,%d) jump value %d", (int)e->x, (int)e->y, (int)e->id);
    char costs[192] = "";
    if (p->navmesh) /* floats: tiles of path */
        snprintf(costs, sizeof costs,
                 ", g %.1f + h %.1f = f %.1f (cost so far + estimate to the goal)", (double)e->g,
                 (double)(e->f - e->g), (double)e->f);
    else if (!p->graph) { /* the graph planner's record has no costs */
        /* h is tn_path.h's heuristic 2|dx| + 3|dy| (x3 when fast), not f - g:
         * a key is never below its parent's ("pathmax"), which the fast
         * search's x3 meets at nearly every step toward the goal */
        const int wt = p->goal_x < 0 ? 0 : p->fast ? 3 : 1;
        const double h =
            (double)wt * (2.0 * abs(p->goal_x - (int)e->x) + 3.0 * abs(p->goal_y - (int)e->y));
        const char *est = p->fast ? "3x the estimate to the goal: fast A*" : "estimate to the goal";
        if ((double)e->f > (double)e->g + h) /* pathmax */
            snprintf(costs, sizeof costs, ", g %g + h %g = %g, f %g as its parent's (h: %s)",
                     (double)e->g, h, (double)e->g + h, (double)e->f,
                     p->fast ? "3x the estimate, fast A*" : "the estimate");
        else
            snprintf(costs, sizeof costs, ", g %g + h %g = f %g (cost so far + %s)", (double)e->g,
                     h, (double)e->f, est);
    }
    /* the goal: its cost is the path's (h is 0 there), said short */
    if (e->kind == TN_TRACE_GOAL && p->navmesh) /* not an expansion there */
        snprintf(out, cap,
                 "replay: the goal's %s popped after %d of %ld expansions, g %.1f: the "
                 "search stops",
                 what, k - 1, total, (double)e->g);
    else if (e->kind == TN_TRACE_GOAL && !p->graph)
        snprintf(out, cap, "replay: expansion %d of %ld: %s, g %g: the goal, the search stops", k,
                 total, what, (double)e->g);
    else if (e->kind == TN_TRACE_GOAL)
        snprintf(out, cap, "replay: expansion %d of %ld: %s: the goal, the search stops", k, total,
                 what);
    else if (p->graph) /* it records expansions only, not pushes */
        snprintf(out, cap, "replay: expansion %d of %ld: %s", k, total, what);
    else
        snprintf(out, cap, "replay: expansion %d of %ld: %s%s, %d pushed", k, total, what, costs,
                 pushed);
    /* a search larger than the buffer: Q at the kept end said its last
     * expansion again and again, as if the search went on from there (and
     * that expansion's pushes may be cut) */
    if (shown >= p->trace.count && p->trace.dropped > 0) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len,
                 " | the replay ends here: the search's last %ld events are not kept",
                 (long)p->trace.dropped);
    }
}

bool tn_playback_control(tn_playback *p, tn_world *w, unsigned *overlays, int what)
{
    if (p->trace.count == 0) {
        if (p->none) /* a search was made but could not be recorded: why */
            tn_world_message(w, "no search to replay: %s", p->label);
        else
            tn_world_message(
                w, "no search to replay: click with the goto tool (1) or the navmesh tool (7)");
        return false;
    }
    /* Shift+E on no replay starts one, as E does: it says which search it
     * plays too (it said nothing, and only E named the search) */
    bool starts = what == TN_PB_REPLAY || (what == TN_PB_HOLD && !p->active);
    switch (what) {
    case TN_PB_HOLD:
        if (!p->active) {
            tn_playback_start(p);
            break;
        }
        if (!(*overlays & TN_OVERLAY_EXPLORED)) break; /* waiting for X: shown as it was */
        p->paused = !p->paused;
        if (!p->paused && (int)p->shown >= p->trace.count) p->shown = 0;
        break;
    case TN_PB_NEXT:
        if (!p->active) tn_playback_start(p);
        p->paused = true;
        tn_playback_step(p);
        break;
    default: tn_playback_start(p); break;
    }
    /* a search larger than the buffer: its end is not there to be seen
     * (a classic search stopped by the limit on 256x256 made 133,933
     * events, and the replay ended at 131,072 as if that were all) */
    char cut[TN_WORLD_MSG_MAX] = "";
    if (what == TN_PB_NEXT) step_said(p, cut, sizeof cut);
    /* E says which search it plays: planner, start, goal (it said nothing,
     * and a replay of an old plan's or the navpath tool's search looked
     * like the current goto's) */
    if (starts) snprintf(cut, sizeof cut, "replay: %s", p->label);
    if (starts && p->trace.dropped > 0) {
        size_t len = strlen(cut);
        snprintf(cut + len, sizeof cut - len,
                 " | the first %d of the search's %ld events (the last %ld are not kept)",
                 p->trace.count, (long)p->trace.count + p->trace.dropped, p->trace.dropped);
    }
    /* the character's plan waits (an edit or a slider while paused): the
     * search kept is the old plan's, which the explored overlay no longer
     * shows; the replay plays it, and says whose it is (E replayed it as
     * if it were the plan's, on the edited map) */
    const char *why, *when;
    if (!p->navmesh && tn_wbots_plan_waits(w, &why, &when)) {
        size_t len = strlen(cut);
        snprintf(cut + len, sizeof cut - len,
                 "%sreplay: the search from before the bot's plan was dropped (%s); it plans "
                 "again %s and the replay restarts on that search",
                 len ? " | " : "", why, when);
    }
    if (!(*overlays & TN_OVERLAY_EXPLORED)) {
        *overlays |= TN_OVERLAY_EXPLORED;
        tn_world_message(w, "%s%soverlay explored: on (the replay draws on it; X hides both)", cut,
                         cut[0] ? " | " : "");
    } else if (cut[0]) {
        tn_world_message(w, "%s", cut);
    }
    return true;
}

/* " (N events: pushes and expansions)", the search's N: with the first
 * kept said when it made more than the buffer holds. */
static void events_said(const tn_playback *p, char *ev, size_t cap)
{
    if (p->trace.dropped > 0)
        snprintf(ev, cap, " (%ld events: pushes and expansions; the first %d kept)",
                 (long)p->trace.count + p->trace.dropped, p->trace.count);
    else
        snprintf(ev, cap, " (%d events: pushes and expansions)", p->trace.count);
}

/* The navpath tool's search recorded again (after a rebuild or a re-plan):
 * the events, -1 when there is no tool path. */
static int record_tool_path(tn_playback *p, tn_world *w, const char *why)
{
    int tx, ty;
    tn_trace_reset(&p->trace);
    p->none = NULL;
    int n = tn_wnav_trace_tool_path(w, &p->trace, &tx, &ty);
    p->nav_rev = tn_wnav_revision(w);
    p->nav_plans = tn_wnav_tool_plans(w);
    if (n < 0) {
        tn_trace_reset(&p->trace);
        p->none = NULL;
        p->expanded = 0;
        return -1;
    }
    p->navmesh = true;
    p->graph = p->fast = false;
    p->nav_tool = true;
    p->expanded = n;
    snprintf(p->label, sizeof p->label,
             "navmesh search (the navpath tool's path) to (%d,%d)%s%s: %d node%s expanded", tx, ty,
             why ? " re-planned: " : "", why ? why : "", n, PLURAL(n));
    return p->trace.count;
}

/* A navmesh replay whose mesh was rebuilt or whose tool path was planned
 * again: recorded again from the tool path, or dropped (see control.h). */
static int follow_navmesh(tn_playback *p, tn_world *w, unsigned overlays)
{
    if (!p->navmesh) return 0;
    uint32_t rev = tn_wnav_revision(w);
    bool mesh = rev != p->nav_rev;
    if (!mesh && (!p->nav_tool || tn_wnav_tool_plans(w) == p->nav_plans)) return 0;
    bool on_screen = p->active && (overlays & TN_OVERLAY_EXPLORED), held = p->paused;
    char why[48];
    if (mesh)
        snprintf(why, sizeof why, "the navmesh changed");
    else
        snprintf(why, sizeof why, "agent radius %.2f", tn_wnav_agent_radius(w) / TN_TILE_PX);
    int n = p->nav_tool ? record_tool_path(p, w, why) : -1;
    if (n < 0) { /* no path to follow: its triangle ids are gone with the mesh */
        tn_trace_reset(&p->trace);
        p->none = NULL;
        p->navmesh = p->nav_tool = p->active = p->paused = false;
        p->shown = 0;
        p->expanded = 0;
        snprintf(p->label, sizeof p->label, "navmesh search: dropped (%s)", why);
        if (on_screen)
            tn_world_message(
                w, "replay: dropped: %s and the navmesh search it showed has no path now", why);
        return 1;
    }
    p->active = on_screen && n > 0;
    p->paused = on_screen && held;
    p->shown = 0;
    char ev[96] = "";
    if (on_screen && p->trace.count + p->trace.dropped != p->expanded)
        events_said(p, ev, sizeof ev);
    if (on_screen) {
        /* after what the re-plan said of the path (an end the new radius
         * moved off a wall), not instead of it */
        char said[TN_WORLD_MSG_MAX] = "";
        if (!mesh && strncmp(tn_world_message_text(w), "navmesh path re-planned", 23) == 0)
            snprintf(said, sizeof said, "%s | ", tn_world_message_text(w));
        tn_world_message(w,
                         "%sreplay: now the re-planned navmesh path's search (%s): %d node%s%s%s",
                         said, why, p->expanded, PLURAL(p->expanded), ev,
                         held ? ", held at its start (Shift+E plays)" : "");
    }
    return 1;
}

int tn_playback_watch(tn_playback *p, struct tn_path **finder, tn_world *w, unsigned overlays)
{
    int followed = follow_navmesh(p, w, overlays);
    const tn_bot *b = tn_wbots_character_bot(w);
    if (!b) return followed;
    /* a goto replay on screen whose plan now waits (an edit or a slider
     * while paused): it goes on showing the old search, and says so once
     * (an edit that was made says nothing itself) */
    const char *why, *when;
    const bool waits = !p->navmesh && tn_wbots_plan_waits(w, &why, &when);
    const bool shown = tn_playback_visible(p, overlays);
    if (waits && !p->waits_said && shown)
        tn_world_message(w,
                         "replay: the search from before the bot's plan was dropped (%s); it "
                         "plans again %s and the replay restarts on that search",
                         why, when);
    /* said only once it was on screen to say it of (hidden at the edit,
     * shown later while the plan still waits: said then) */
    p->waits_said = waits && (p->waits_said || shown);
    tn_bot_info i = tn_bot_get_info(b);
    if (i.plans == p->plans_seen) return followed;
    p->plans_seen = i.plans;
    if (i.goal_x < 0) return followed;
    int goal = i.plans - i.replans; /* the goal's first plan, counted */
    bool replan = i.replans > 0 && goal == p->goal_first;
    p->goal_first = goal;
    if (replan && p->navmesh) return followed; /* the navmesh search asked for stays */
    bool x_on = (overlays & TN_OVERLAY_EXPLORED) != 0;
    bool on_screen = p->active && x_on, held = p->paused;
    int n = i.planner ? tn_playback_record_graph(p, w) : tn_playback_record_goto(p, finder, w);
    if (i.replans > 0) {
        size_t len = strlen(p->label);
        snprintf(p->label + len, sizeof p->label - len, " (re-plan %d: %s)", i.replans,
                 i.plan_reason);
    }
    if (!replan) {
        p->active = n > 0 && x_on;
        return 1;
    }
    p->active = on_screen && n > 0;
    p->paused = on_screen && held;
    /* the bar counts events: the classic search's pushes too (a reviewer
     * saw "771 states" beside "0/1723") */
    char ev[96] = "";
    if (on_screen && n > 0 && p->trace.count + p->trace.dropped != p->expanded)
        events_said(p, ev, sizeof ev);
    if (on_screen && n > 0)
        tn_world_message(w, "replay: now re-plan %d (%s): %d %s%s%s%s", i.replans, i.plan_reason,
                         p->expanded, i.planner ? "node" : "state", PLURAL(p->expanded), ev,
                         held ? ", held at its start (Shift+E plays)" : "");
    else if (on_screen)
        tn_world_message(w, "replay: re-plan %d (%s) made no search to replay", i.replans,
                         i.plan_reason);
    return 1;
}

void tn_playback_forget(tn_playback *p)
{
    tn_trace_reset(&p->trace);
    p->none = NULL;
    p->active = p->paused = p->navmesh = p->graph = p->fast = p->nav_tool = p->waits_said = false;
    p->shown = 0;
    p->expanded = 0;
    p->plans_seen = p->goal_first = 0;
}

int tn_playback_record_navpath(tn_playback *p, tn_world *w, int tx, int ty)
{
    tn_navquery *q = tn_wnav_query(w);
    const tn_navmesh *m = tn_wnav_mesh(w);
    if (!q || !m) return 0;
    int ctx, cty;
    if (tn_wnav_tool_goal(w, &ctx, &cty) && ctx == tx && cty == ty) {
        /* the tool's path to this tile: its search, followed on re-plans */
        int n = record_tool_path(p, w, NULL);
        tn_playback_start(p);
        return n > 0 ? n : 0;
    }
    float sx, sy, gx = ((float)tx + 0.5f) * TN_TILE_PX, gy = ((float)ty + 0.5f) * TN_TILE_PX;
    tn_world_character_center(w, &sx, &sy);
    /* the same query as the navpath tool: the agent's radius, start and
     * goal moved to where that disc fits */
    float r = tn_wnav_agent_radius(w);
    if (r > 0.0f) {
        if (!tn_navmesh_nearest_clear(m, sx, sy, r, &sx, &sy) ||
            !tn_navmesh_nearest_clear(m, gx, gy, r, &gx, &gy))
            return 0;
    } else if (tn_map_tile(tn_world_map(w), tx, ty) == TN_TILE_BLOCK) {
        tn_navmesh_nearest_free(m, gx, gy, 0.0f, &gx, &gy);
    }
    float xy[2 * 256];
    int n = 0;
    tn_trace_reset(&p->trace);
    p->none = NULL;
    tn_navquery_set_trace(q, &p->trace);
    tn_navquery_find_path(q, sx, sy, gx, gy, r, xy, 256, &n, NULL);
    tn_navquery_set_trace(q, NULL);
    p->navmesh = true;
    p->graph = p->fast = false;
    p->nav_tool = false;
    p->nav_rev = tn_wnav_revision(w);
    p->nav_plans = tn_wnav_tool_plans(w);
    snprintf(p->label, sizeof p->label,
             "navmesh search from (%d,%d) to (%d,%d): %d node%s expanded",
             (int)floorf(sx / TN_TILE_PX), (int)floorf(sy / TN_TILE_PX), tx, ty,
             tn_navquery_expanded(q), PLURAL(tn_navquery_expanded(q)));
    p->expanded = tn_navquery_expanded(q);
    tn_playback_start(p);
    return p->trace.count;
}

/* -------------------------------------------------------------- inspect */

#include "tn_bot.h"
#include "tn_enemy.h"
#include "tn_flow.h"
#include "tn_wagents.h"
#include "tn_wbots.h"
#include "tn_wenemies.h"

static float d2(float ax, float ay, float bx, float by)
{
    return (ax - bx) * (ax - bx) + (ay - by) * (ay - by);
}

bool tn_inspect_pick(const tn_world *w, float x, float y, float r, int *kind, int64_t *index)
{
    const float T = (float)TN_TILE_PX;
    float best = r * r;
    bool found = false;
#define TRY(DX, DY, K, I)                \
    do {                                 \
        float d_ = d2(x, y, (DX), (DY)); \
        if (d_ <= best) {                \
            best = d_;                   \
            *kind = (K);                 \
            *index = (I);                \
            found = true;                \
        }                                \
    } while (0)
    const tn_body *c = tn_world_character(w);
    if (x >= c->x && y >= c->y && x <= c->x + (float)c->w * T && y <= c->y + (float)c->h * T)
        TRY(x, y, TN_INSPECT_CHARACTER, 0);
    for (int i = 0; i < tn_wbots_count(w); i++) {
        const tn_body *b = tn_wbots_body(w, i);
        float cx = b->x + 0.5f * (float)b->w * T, cy = b->y + 0.5f * (float)b->h * T;
        if (fabsf(x - cx) <= 0.5f * (float)b->w * T && fabsf(y - cy) <= 0.5f * (float)b->h * T)
            TRY(x, y, TN_INSPECT_BOT, i);
        else
            TRY(cx, cy, TN_INSPECT_BOT, i);
    }
    const tn_wenemies *we = tn_wenemies_of(w);
    if (we && we->pool)
        for (int i = 0; i < we->pool->count; i++) {
            const tn_enemy *e = &we->pool->e[i];
            TRY(e->x * T, e->y * T, TN_INSPECT_ENEMY, (int64_t)e->id);
        }
    const tn_wagents *ag = tn_wagents_of(w);
    if (ag) {
        if (ag->has_companion) TRY(ag->companion.x, ag->companion.y, TN_INSPECT_COMPANION, 0);
        for (int i = 0; i < ag->nwanderers; i++)
            TRY(ag->wanderers[i].x, ag->wanderers[i].y, TN_INSPECT_WANDERER, i);
    }
#undef TRY
    return found;
}

static const char *enemy_state(int s)
{
    static const char *const N[] = {"intro",       "forward", "turn right",    "turn left",
                                    "turn around", "outro",   "wait (no path)"};
    return (unsigned)s < 7 ? N[s] : "?";
}

/* A bot's card: its plan as its planner made it (graph: legs and frames;
 * classic: nodes, tiles and states) and its re-plans. */
static int bot_lines(const tn_bot *b, char *buf, size_t cap)
{
    tn_bot_info i = tn_bot_get_info(b);
    char plan[64], last[64];
    if (i.planner) {
        int nl, leg;
        tn_bot_legs(b, &nl, &leg);
        snprintf(plan, sizeof plan, "leg %d of %d (graph)", leg < nl ? leg + 1 : nl, nl);
        if (nl > 0)
            snprintf(last, sizeof last, "%d leg%s, %d frames, %d node%s", nl, nl == 1 ? "" : "s",
                     i.plan_frames, i.expanded, i.expanded == 1 ? "" : "s");
        else
            snprintf(last, sizeof last, "none (%d node%s searched)", i.expanded,
                     i.expanded == 1 ? "" : "s");
    } else {
        snprintf(plan, sizeof plan, "node %d of %d (classic)", i.node, i.path_nodes);
        snprintf(last, sizeof last, "%d tile%s, %d state%s", i.raw_nodes,
                 i.raw_nodes == 1 ? "" : "s", i.expanded, i.expanded == 1 ? "" : "s");
    }
    /* before its first goto: no goal, no plan (it read "(-1,-1)" and
     * "node 0 of 0 (classic)" with the graph planner selected) */
    char goal[32] = "none";
    if (i.goal_x >= 0) snprintf(goal, sizeof goal, "(%d,%d)", i.goal_x, i.goal_y);
    if (i.plans == 0) {
        snprintf(plan, sizeof plan, "none yet");
        snprintf(last, sizeof last, "none yet");
    }
    /* an extra bot whose re-plan waits for the step's planning budget
     * (tn_wbots_plan_budget) stands: say so rather than the old leg */
    if (tn_bot_plan_held(b))
        snprintf(plan, sizeof plan, "waiting its turn to plan (%s)",
                 i.pending_reason[0] ? i.pending_reason : "re-plan");
    else if (i.planning) /* (tn_wbots_plan_slice: big maps) */
        snprintf(plan, sizeof plan, "planning in slices: %d so far (%s)", i.plan_slices,
                 i.plan_reason[0] ? i.plan_reason : "new goal");
    char jump[32] = "to the top";
    if (i.jump_left >= 0) snprintf(jump, sizeof jump, "%d frames", i.jump_left);
    return snprintf(buf, cap,
                    "state      %s\ngoal       %s\nplan       %s\n"
                    "input      %s%s%s%s%s\njump left  %s\nre-plans   %d (last: %s)\n"
                    "last plan  %s",
                    i.state == TN_BOT_NO_PATH ? "no path" : tn_bot_state_name(i.state), goal, plan,
                    i.input.left ? "left " : "", i.input.right ? "right " : "",
                    i.input.jump ? "jump " : "", i.input.down ? "down " : "",
                    !(i.input.left || i.input.right || i.input.jump || i.input.down) ? "none" : "",
                    jump, i.replans, i.plan_reason[0] ? i.plan_reason : "-", last);
}

/* A bot's or wanderer's index as a slot number; -1 out of int's range. */
static int slot_of(int64_t index) { return index >= 0 && index <= INT_MAX ? (int)index : -1; }

bool tn_inspect_box(const tn_world *w, int kind, int64_t index, float box[4])
{
    const float T = (float)TN_TILE_PX;
    const int slot = slot_of(index);
    const tn_body *b = kind == TN_INSPECT_CHARACTER ? tn_world_character(w)
                       : kind == TN_INSPECT_BOT     ? tn_wbots_body(w, slot)
                                                    : NULL;
    float cx = 0, cy = 0, r = 0.5f * T;
    if (b) {
        box[0] = b->x, box[1] = b->y;
        box[2] = b->x + (float)b->w * T, box[3] = b->y + (float)b->h * T;
        return true;
    }
    const tn_wenemies *we = tn_wenemies_of(w);
    const tn_wagents *ag = tn_wagents_of(w);
    bool found = false;
    if (kind == TN_INSPECT_ENEMY)
        for (int i = 0; we && we->pool && i < we->pool->count; i++)
            if ((int64_t)we->pool->e[i].id == index) {
                cx = we->pool->e[i].x * T, cy = we->pool->e[i].y * T;
                found = true;
            }
    if (kind == TN_INSPECT_COMPANION && ag && ag->has_companion) {
        cx = ag->companion.x, cy = ag->companion.y;
        found = true;
    }
    if (kind == TN_INSPECT_WANDERER && ag && slot >= 0 && slot < ag->nwanderers) {
        cx = ag->wanderers[slot].x, cy = ag->wanderers[slot].y;
        found = true;
    }
    if (!found) return false;
    box[0] = cx - r, box[1] = cy - r, box[2] = cx + r, box[3] = cy + r;
    return true;
}

uint64_t tn_inspect_serial(const tn_world *w, int kind, int64_t index)
{
    const tn_wagents *ag = tn_wagents_of(w);
    const int slot = slot_of(index);
    if (kind == TN_INSPECT_BOT) return tn_wbots_serial(w, slot);
    if (kind == TN_INSPECT_WANDERER && ag && slot >= 0 && slot < ag->nwanderers)
        return ag->wid[slot];
    return 0;
}

/* Tile (x,y) and each of its neighbours on the board a wall: an enemy
 * there was crushed (tn_enemies_on_edit).  Its tile a wall alone is not
 * enough: with an open neighbour the enemy was pushed out there, and may
 * have reached a destination from it in the frame another was crushed. */
static bool walled_in(const tn_flow *f, int x, int y)
{
    if (!f || x < 0 || y < 0 || x >= f->w || y >= f->h) return false;
    for (int d = -1; d < 4; d++) {
        const int nx = d < 0 ? x : x + tn_dir_dx[d], ny = d < 0 ? y : y + tn_dir_dy[d];
        if (nx < 0 || ny < 0 || nx >= f->w || ny >= f->h) continue;
        if (f->kind[tn_flow_index(f, nx, ny)] != TN_FLOW_WALL) return false;
    }
    return true;
}

/* A pinned enemy: alive (seen updated), or gone, and then why. */
static bool enemy_removed(tn_world *w, int64_t id, tn_inspect_seen *seen)
{
    const tn_wenemies *we = tn_wenemies_of(w);
    const tn_enemies *p = we ? we->pool : NULL;
    for (int i = 0; p && i < p->count; i++)
        if ((int64_t)p->e[i].id == id) {
            if (seen) {
                seen->tx = p->e[i].tx, seen->ty = p->e[i].ty;
                seen->reached = p->reached, seen->crushed = p->crushed;
            }
            return false;
        }
    /* Gone: reclaimed at a destination or crushed (its tile walled in
     * with no open neighbour).  Arrivals and no crush since it was last
     * seen: it arrived; a crush and its last tile now a block: that was
     * it (counters gone back, the enemies cleared: not told apart). */
    const char *why = "is gone (it reached a destination or was crushed)";
    if (p && seen && seen->tx >= 0) {
        const tn_flow *f = we->flow;
        if (p->crushed == seen->crushed && p->reached > seen->reached)
            why = "reached a destination";
        else if (p->crushed > seen->crushed && walled_in(f, seen->tx, seen->ty))
            why = "was crushed (an edit walled its tile in)";
    }
    tn_world_message(w, "inspect: enemy #%" PRId64 " %s: its card is closed", id, why);
    return true;
}

bool tn_inspect_unpin_removed(tn_world *w, int kind, int64_t *index, uint64_t serial,
                              tn_inspect_seen *seen)
{
    if (kind == TN_INSPECT_ENEMY) return enemy_removed(w, *index, seen);
    if (kind != TN_INSPECT_BOT && kind != TN_INSPECT_WANDERER) return false;
    if (serial && tn_inspect_serial(w, kind, *index) == serial) return false;
    const tn_wagents *ag = tn_wagents_of(w);
    if (serial && kind == TN_INSPECT_WANDERER && ag)
        for (int i = 0; i < ag->nwanderers; i++)
            if (ag->wid[i] == serial) { /* moved to another slot: followed */
                *index = i;
                return false;
            }
    tn_world_message(w, "inspect: %s %d was removed: its card is closed",
                     kind == TN_INSPECT_BOT ? "bot" : "wanderer", slot_of(*index) + 1);
    return true;
}

bool tn_inspect_text(const tn_world *w, int kind, int64_t index, char *buf, size_t cap)
{
    const float T = (float)TN_TILE_PX;
    const int slot = slot_of(index);
    int n = 0;
    switch (kind) {
    case TN_INSPECT_CHARACTER: {
        int tx, ty;
        tn_body_tile(tn_world_character(w), tn_world_phys(w), &tx, &ty);
        /* the keys the character presses now, yours or its bot's (the
         * bot's lines below are its own: idle or done while you drive) */
        const tn_input k = tn_world_character_keys(w);
        n = snprintf(buf, cap,
                     "character (its goto bot)\ntile       %d,%d  %s\nkeys now   %s%s%s%s%s\n", tx,
                     ty, tn_world_character(w)->on_ground ? "on the ground" : "in the air",
                     k.left ? "left " : "", k.right ? "right " : "", k.jump ? "jump " : "",
                     k.down ? "down " : "", !(k.left || k.right || k.jump || k.down) ? "none" : "");
        const tn_bot *b = tn_wbots_character_bot(w);
        if (b && (size_t)n < cap) bot_lines(b, buf + n, cap - (size_t)n);
        return true;
    }
    case TN_INSPECT_BOT: {
        const tn_body *body = tn_wbots_body(w, slot);
        const tn_bot *b = tn_wbots_bot(w, slot);
        if (!body || !b) {
            snprintf(buf, cap, "bot %d\n(removed)", slot + 1);
            return true;
        }
        int tx, ty;
        tn_body_tile(body, tn_world_phys(w), &tx, &ty);
        n = snprintf(buf, cap, "bot %d\ntile       %d,%d\n", slot + 1, tx, ty);
        if ((size_t)n < cap) bot_lines(b, buf + n, cap - (size_t)n);
        return true;
    }
    case TN_INSPECT_ENEMY: {
        const tn_wenemies *we = tn_wenemies_of(w);
        const tn_enemy *e = NULL;
        for (int i = 0; we && we->pool && i < we->pool->count; i++)
            if ((int64_t)we->pool->e[i].id == index) e = &we->pool->e[i];
        if (!e) {
            snprintf(buf, cap,
                     "enemy #%" PRId64 "\n(gone: it reached a destination or was crushed)", index);
            return true;
        }
        snprintf(buf, cap,
                 "enemy #%" PRId64
                 "\nstate      %s\ntile       %d,%d -> %d,%d\nspeed      %.2f tiles/s\n"
                 "lane       %+.2f tiles\nscale      %.2fx (its drawn size)",
                 index, enemy_state(e->state), e->tx, e->ty, e->nx, e->ny, (double)e->speed,
                 (double)e->offset, (double)e->scale);
        return true;
    }
    case TN_INSPECT_COMPANION: {
        const tn_wagents *ag = tn_wagents_of(w);
        if (!ag || !ag->has_companion) return false;
        const tn_companion *c = &ag->companion;
        const tn_companion_params *p = &ag->cparams;
        snprintf(
            buf, cap,
            "companion\nstate      %s\nsight      %s\nat         %.1f,%.1f tiles\n"
            "speed      %.0f px/s (max %.0f)\nfollow     %.1f..%.1f tiles\n"
            "separation %.1f tiles\npath       %d corner%s\nitems      %d",
            tn_companion_state_name(c->state), c->sees ? "sees you" : "lost you",
            (double)(c->x / T), (double)(c->y / T), (double)sqrtf(c->vx * c->vx + c->vy * c->vy),
            (double)p->max_speed, (double)(p->follow_inner / T), (double)(p->follow_outer / T),
            (double)(p->separation_radius / T), c->path_n, c->path_n == 1 ? "" : "s", c->items);
        return true;
    }
    case TN_INSPECT_WANDERER: {
        const tn_wagents *ag = tn_wagents_of(w);
        if (!ag || slot < 0 || slot >= ag->nwanderers) {
            snprintf(buf, cap, "wanderer %d\n(removed)", slot + 1);
            return true;
        }
        const tn_wanderer *v = &ag->wanderers[slot];
        float dist = sqrtf(d2(v->x, v->y, v->tx, v->ty)) / T;
        char wp[48] = "none yet (its first step draws it)"; /* (new, the world paused) */
        if (v->waypoints > 0)
            snprintf(wp, sizeof wp, "%.1f,%.1f tiles", (double)(v->wp[4] / T),
                     (double)(v->wp[5] / T));
        snprintf(buf, cap,
                 "wanderer %d\nat         %.1f,%.1f tiles\nheading    %.0f deg\n"
                 "waypoint   %s\ntarget     %.1f,%.1f (%.1f tiles away)\n"
                 "bias       %.2f\nsmoothness %.2f\nwaypoints  %ld picked",
                 slot + 1, (double)(v->x / T), (double)(v->y / T), (double)(v->heading * 57.29578f),
                 wp, (double)(v->tx / T), (double)(v->ty / T), (double)dist,
                 (double)ag->wparams.bias, (double)ag->wparams.smoothness, v->waypoints);
        return true;
    }
    default: return false;
    }
}

/* ------------------------------------------------------------ map list */

#include <dirent.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int tn_map_list(const char *current, const char *const *extra, int nextra, char **out, int cap)
{
    int n = 0;
    /* the current map's directory (or maps/) */
    char dir[1024] = "maps";
    if (current) {
        snprintf(dir, sizeof dir, "%s", current);
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            snprintf(dir, sizeof dir, "/");
        else if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
    }
    /* A folder of more maps than the list holds (a benchmark set) never
     * pushes out the current map or the command line's: room is kept for
     * them, and the folder's maps are its first ones by name, not the
     * first readdir() happens to return. */
    int keep = cap - 1 - (nextra > 0 ? nextra : 0);
    if (keep < 0) keep = 0;
    char **all = NULL;
    int nall = 0, call = 0;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) && nall < 100000) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".map") != 0 || e->d_name[0] == '.')
                continue;
            char path[1400];
            if (strcmp(dir, ".") == 0)
                snprintf(path, sizeof path, "%s", e->d_name);
            else
                snprintf(path, sizeof path, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", e->d_name);
            struct stat st; /* a FIFO or a directory named *.map is no map */
            if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            if (nall == call) {
                int nc = call ? call * 2 : 64;
                char **na = realloc(all, (size_t)nc * sizeof *na);
                if (!na) break;
                all = na;
                call = nc;
            }
            if (!(all[nall] = malloc(strlen(path) + 1))) break;
            strcpy(all[nall++], path);
        }
        closedir(d);
    }
    if (nall) qsort(all, (size_t)nall, sizeof *all, cmp_str);
    for (int i = 0; i < nall; i++) {
        if (n < keep)
            out[n++] = all[i];
        else
            free(all[i]);
    }
    free(all);
    /* the current map itself, whatever its kind (a .tmx, a Moving AI map):
     * the picker can always go back to it */
    bool listed = !current || !current[0];
    for (int k = 0; k < n && !listed; k++) listed = strcmp(out[k], current) == 0;
    if (!listed && n < cap && (out[n] = malloc(strlen(current) + 1)) != NULL)
        strcpy(out[n++], current);
    qsort(out, (size_t)n, sizeof *out, cmp_str);
    for (int i = 0; i < nextra && n < cap; i++) {
        bool dup = false;
        for (int k = 0; k < n; k++) dup = dup || strcmp(out[k], extra[i]) == 0;
        if (dup) continue;
        out[n] = malloc(strlen(extra[i]) + 1);
        if (!out[n]) break;
        strcpy(out[n++], extra[i]);
    }
    return n;
}

bool tn_inspect_click(tn_world *w, float x, float y, float r, int *kind, int64_t *index)
{
    char card[1024];
    if (tn_inspect_pick(w, x, y, r, kind, index) &&
        tn_inspect_text(w, *kind, *index, card, sizeof card)) {
        card[strcspn(card, "\n")] = '\0'; /* its title */
        tn_world_message(w, "inspect: %s pinned (Ctrl+click an empty spot unpins it)", card);
        return true;
    }
    *kind = TN_INSPECT_NONE;
    *index = 0;
    tn_world_message(
        w, "inspect: no agent there, no card pinned (Ctrl+click the character, a bot, an enemy, "
           "the companion or a wanderer)");
    return false;
}

/* ------------------------------------------------------- flow8 overlay */

#include "tn_flow.h"

const tn_flow *tn_flow8_get(tn_flow8_cache *c, const tn_world *w)
{
    const tn_map *m = tn_world_map(w);
    if (c->field && (c->field->w != m->w || c->field->h != m->h)) tn_flow8_free(c);
    if (!c->field) {
        tn_error e;
        if ((long)m->w * m->h > TN_FLOW8_MAX_TILES ||
            tn_failed(tn_flow_create(m->w, m->h, 8, NULL, &c->field, &e))) {
            c->field = NULL;
            return NULL;
        }
        c->world = NULL; /* made, not built */
    }
    if (c->world != w || c->serial != tn_world_map_serial(w) || c->rev != m->revision) {
        tn_flow_rebuild(c->field, m, NULL);
        c->world = w;
        c->serial = tn_world_map_serial(w);
        c->rev = m->revision;
    }
    return c->field;
}

void tn_flow8_free(tn_flow8_cache *c)
{
    tn_flow_destroy(c->field);
    c->field = NULL;
    c->world = NULL;
}

tn_input tn_control_keys_input(const tn_held_keys *k, bool picker_open)
{
    tn_input in = {false, false, false, false};
    if (picker_open) return in; /* the picker has the keyboard */
    const bool letters = !k->modifier;
    in.left = k->left || (letters && k->a && !k->chord_a);
    in.right = k->right || (letters && k->d && !k->chord_d);
    in.jump = k->up || k->space || (letters && k->w && !k->chord_w);
    in.down = k->down || (letters && k->s && !k->chord_s);
    return in;
}

void tn_chord_key_event(tn_chord_keys *c, char letter, bool down, bool repeat, bool modifier)
{
    bool *held = letter == 'a'   ? &c->a
                 : letter == 'd' ? &c->d
                 : letter == 'w' ? &c->w
                 : letter == 's' ? &c->s
                                 : NULL;
    if (!held || (down && repeat)) return; /* (a repeat is no press) */
    if (!down)
        *held = false; /* released: the next press is a key of its own */
    else if (modifier)
        *held = true; /* (a press without one keeps what it was) */
}

void tn_flow8_toggle(tn_world *w, bool *flow8, unsigned *overlays)
{
    *flow8 = !*flow8;
    const tn_map *m = tn_world_map(w);
    const bool none = (long)m->w * m->h > TN_FLOW8_MAX_TILES;
    const bool was_off = !(*overlays & TN_OVERLAY_FLOW);
    *overlays |= TN_OVERLAY_FLOW;
    tn_world_message(w, "flow field overlay: %s-connected%s%s", *flow8 ? "8" : "4",
                     !*flow8 ? ""
                     : none  ? ": none above 512x512 tiles, the 4-connected one is shown"
                             : " - display only: enemies keep the 4-connected field "
                               "(tn_enemy flies edge to edge, no diagonal steps)",
                     was_off ? " (overlay on: F hides it)" : "");
}
