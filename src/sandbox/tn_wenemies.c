/* The enemies part: see tn_wenemies.h. */
#include "tn_wenemies.h"
#include "tn_world_impl.h"
#include "tn_wparts.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define RNG_STREAM 0x656e656d696573ULL /* "enemies" */

/* ---- spawn list ---- */

static int spawn_find(const tn_wenemies *s, int32_t t)
{
    int lo = 0, hi = s->nspawns;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->spawns[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool spawn_has(const tn_wenemies *s, int32_t t)
{
    int i = spawn_find(s, t);
    return i < s->nspawns && s->spawns[i] == t;
}

static bool spawn_add(tn_world *w, tn_wenemies *s, int32_t t)
{
    int i = spawn_find(s, t);
    if (i < s->nspawns && s->spawns[i] == t) return true;
    if (s->nspawns == s->spawn_cap) {
        int cap = s->spawn_cap * 2;
        int32_t *n = tn_alloc_array(&w->alloc, (size_t)cap, sizeof *n);
        if (!n) return false;
        memcpy(n, s->spawns, sizeof *n * (size_t)s->nspawns);
        tn_free(&w->alloc, s->spawns);
        s->spawns = n;
        s->spawn_cap = cap;
    }
    memmove(s->spawns + i + 1, s->spawns + i, sizeof *s->spawns * (size_t)(s->nspawns - i));
    s->spawns[i] = t;
    s->nspawns++;
    return true;
}

static void spawn_remove(tn_wenemies *s, int32_t t)
{
    int i = spawn_find(s, t);
    if (i >= s->nspawns || s->spawns[i] != t) return;
    memmove(s->spawns + i, s->spawns + i + 1, sizeof *s->spawns * (size_t)(s->nspawns - i - 1));
    s->nspawns--;
}

/* Spawn list and destination count from the whole map. */
static tn_status scan_marks(tn_world *w, tn_wenemies *s)
{
    const tn_map *m = w->map;
    int n = m->w * m->h, ns = tn_map_count_marks(m, TN_MARK_SPAWN);
    int cap = ns * 2 > 64 ? ns * 2 : 64;
    if (cap > s->spawn_cap) {
        int32_t *a = tn_alloc_array(&w->alloc, (size_t)cap, sizeof *a);
        if (!a) return TN_FAILURE | TN_OUT_OF_MEMORY;
        tn_free(&w->alloc, s->spawns);
        s->spawns = a;
        s->spawn_cap = cap;
    }
    s->nspawns = 0;
    s->ndests = 0;
    for (int i = 0; i < n; i++) {
        if (m->tile[i] != TN_TILE_EMPTY) continue;
        if (m->mark[i] == TN_MARK_SPAWN)
            s->spawns[s->nspawns++] = i;
        else if (m->mark[i] == TN_MARK_DEST)
            s->ndests++;
    }
    return TN_OK;
}

/* ---- hooks ---- */

void tn_wenemies_destroy(tn_world *w)
{
    tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return;
    tn_flow_destroy(s->flow);
    tn_enemies_destroy(s->pool);
    tn_free(&w->alloc, s->spawns);
    tn_free(&w->alloc, s);
    w->enemies = NULL;
}

tn_status tn_wenemies_create(tn_world *w, tn_error *err)
{
    tn_wenemies *s = tn_alloc(&w->alloc, sizeof *s);
    if (!s) return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "enemies: out of memory");
    w->enemies = s;
    tn_status st = tn_flow_create(w->map->w, w->map->h, 4, &w->alloc, &s->flow, err);
    if (tn_failed(st)) goto fail;
    tn_enemies_config c = tn_enemies_default_config();
    c.capacity = TN_WENEMIES_CAPACITY;
    c.spawn_rate = (float)((tn_param_info)TN_WENEMIES_PARAM_SPAWN_RATE).def;
    st = tn_enemies_create(&c, &w->alloc, &s->pool, err);
    if (tn_failed(st)) goto fail;
    st = scan_marks(w, s);
    if (tn_failed(st)) {
        tn_error_set(err, st, 0, 0, "enemies: out of memory for the spawn list");
        goto fail;
    }
    tn_flow_rebuild(s->flow, w->map, NULL);
    tn_rng_seed(&s->rng, w->seed, RNG_STREAM);
    return TN_OK;
fail:
    tn_wenemies_destroy(w);
    return st;
}

void tn_wenemies_step(tn_world *w)
{
    tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return;
    tn_enemies_step(s->pool, s->flow, s->spawns, s->nspawns, &s->rng, w->phys.dt, NULL);
}

static int kind_of(int tile, int mark)
{
    if (tile == TN_TILE_BLOCK) return TN_FLOW_WALL;
    return tile == TN_TILE_EMPTY && mark == TN_MARK_DEST ? TN_FLOW_DEST : TN_FLOW_OPEN;
}

/* Would tile (x, y) have a path once it is new_kind (OPEN or DEST)?  A
 * destination that becomes an open tile (a spawn point toggled onto it)
 * has one when a neighbour with a path now keeps it without this
 * destination (tn_flow_whatif on the neighbours; taking a destination
 * away opens no new way). */
static bool path_after(tn_wenemies *s, const tn_map *m, int x, int y, int old_kind, int new_kind)
{
    if (new_kind == TN_FLOW_DEST) return true;
    if (old_kind == new_kind) return tn_flow_dir(s->flow, x, y) != TN_DIR_NONE;
    int32_t nb[4];
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int nx = x + tn_dir_dx[d], ny = y + tn_dir_dy[d];
        if (tn_map_inside(m, nx, ny) && tn_flow_dir(s->flow, nx, ny) != TN_DIR_NONE)
            nb[n++] = ny * m->w + nx;
    }
    int lost = 0;
    if (n > 0 && tn_failed(tn_flow_whatif(s->flow, x, y, new_kind, nb, n, &lost, NULL, NULL)))
        return false;
    return n - lost > 0;
}

tn_status tn_wenemies_check_edit(tn_world *w, int x, int y, int tile, int mark, bool history,
                                 tn_error *err)
{
    tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return TN_OK;
    const tn_map *m = w->map;
    int old_mark = tn_map_mark(m, x, y);
    const tn_status no = TN_FAILURE | TN_REFUSED;
    /* The last one of a kind stays, but an undo or redo may take it away:
     * the history only goes back to states the map had, and a map loaded
     * with none of them (arena.map, a genmap level) is built up from none
     * (the first spawn point placed there could not be undone). */
    const bool last_dest = old_mark == TN_MARK_DEST && mark != TN_MARK_DEST && s->ndests == 1;
    if (last_dest && !history)
        return tn_error_set(err, no, 0, 0,
                            "the last destination cannot be removed: place another one first");
    if (old_mark == TN_MARK_SPAWN && mark != TN_MARK_SPAWN && s->nspawns == 1 && !history)
        return tn_error_set(err, no, 0, 0,
                            "the last spawn point cannot be removed: place another one first");
    int old_kind = s->flow->kind[tn_flow_index(s->flow, x, y)];
    int new_kind = kind_of(tile, mark);
    /* with no destination left every spawn point idles, as in a map loaded
     * without one: no path lost to refuse */
    if (new_kind != old_kind && !last_dest) {
        int first = -1;
        int lost = 0;
        tn_flow_whatif(s->flow, x, y, new_kind, s->spawns, s->nspawns, &lost, &first, NULL);
        if (lost > 0) {
            int sx = s->spawns[first] % m->w, sy = s->spawns[first] / m->w;
            if (new_kind == TN_FLOW_WALL)
                return tn_error_set(err, no, 0, 0,
                                    "a block at (%d,%d) would cut spawn point (%d,%d) off from "
                                    "every destination",
                                    x, y, sx, sy);
            return tn_error_set(err, no, 0, 0,
                                "removing the destination at (%d,%d) would leave spawn point "
                                "(%d,%d) without a path",
                                x, y, sx, sy);
        }
    }
    if (mark == TN_MARK_SPAWN && old_mark != TN_MARK_SPAWN && s->ndests > 0 &&
        !path_after(s, m, x, y, old_kind, new_kind))
        return tn_error_set(err, no, 0, 0,
                            "spawn point (%d,%d) would have no path to a destination", x, y);
    return TN_OK;
}

void tn_wenemies_on_edit(tn_world *w, int x, int y)
{
    tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return;
    const tn_map *m = w->map;
    if (x < 0) {
        if (tn_failed(scan_marks(w, s)))
            tn_world_message(w, "enemies: out of memory for the spawn list");
        tn_flow_rebuild(s->flow, m, NULL);
        tn_enemies_clear(s->pool);
        return;
    }
    int32_t t = y * m->w + x;
    bool spawn_now = tn_map_mark(m, x, y) == TN_MARK_SPAWN;
    if (spawn_now && !spawn_has(s, t) && !spawn_add(w, s, t))
        tn_world_message(w, "enemies: out of memory: spawn point (%d,%d) is not used", x, y);
    if (!spawn_now) spawn_remove(s, t);
    int old_kind = s->flow->kind[tn_flow_index(s->flow, x, y)];
    tn_flow_update(s->flow, m, x, y, NULL);
    int new_kind = s->flow->kind[tn_flow_index(s->flow, x, y)];
    s->ndests += (new_kind == TN_FLOW_DEST) - (old_kind == TN_FLOW_DEST);
    tn_enemies_on_edit(s->pool, s->flow, x, y, NULL);
}

#define SPACING_FROM_RATE 3.0 /* enemies per second */
#define SPACING_TILES 0.3f

tn_status tn_wenemies_set_spawn_rate(tn_world *w, double value, tn_error *err)
{
    tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "enemies: not created");
    tn_enemies_config c = s->pool->cfg;
    c.spawn_rate = (float)value;
    /* High rates: a spawn waits until the last enemy has left a little room
     * (they would otherwise pile into one blob on the spawn point). */
    c.spacing = value >= SPACING_FROM_RATE ? SPACING_TILES : 0.0f;
    return tn_enemies_configure(s->pool, &c, err);
}

bool tn_wenemies_get_spawn_rate(const tn_world *w, double *value)
{
    const tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return false;
    *value = s->pool->cfg.spawn_rate;
    return true;
}

int tn_wenemies_json(const tn_world *w, char *buf, size_t cap)
{
    const tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return 0;
    const tn_enemies *p = s->pool;
    return snprintf(buf, cap,
                    ",\"enemies\":{\"alive\":%d,\"spawned\":%" PRId64 ",\"reached\":%" PRId64
                    ",\"skipped\":%" PRId64 "}",
                    p->count, p->spawned, p->reached, p->skipped);
}

int tn_wenemies_hud(const tn_world *w, char *buf, size_t cap)
{
    const tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return 0;
    const tn_enemies *p = s->pool;
    char extra[96] = "";
    if (p->skipped || p->crushed)
        snprintf(extra, sizeof extra, ", %" PRId64 " skipped (pool full), %" PRId64 " crushed",
                 p->skipped, p->crushed);
    const char *idle = s->nspawns == 0  ? " (idle: no spawn point)"
                       : s->ndests == 0 ? " (idle: no destination)"
                                        : "";
    return snprintf(buf, cap,
                    "enemies: %d alive, %" PRId64 " spawned, %" PRId64 " reached%s, %.1f/s%s",
                    p->count, p->spawned, p->reached, extra, (double)p->cfg.spawn_rate, idle);
}

/* ---- drawing ---- */

bool tn_world_flow_tiles(const tn_flow *f, const float *view, int r[4])
{
    const float T = (float)TN_TILE_PX;
    r[0] = 0, r[1] = 0, r[2] = f->w - 1, r[3] = f->h - 1;
    if (view) { /* clamped as floats first: a huge, infinite or NaN view has no int */
        const float lo[2] = {-1.0f, -1.0f}, hi[2] = {(float)f->w, (float)f->h};
        int t[4];
        for (int k = 0; k < 4; k++) {
            const float v = fminf(fmaxf(floorf(view[k] / T), lo[k & 1]), hi[k & 1]);
            t[k] = (int)v; /* (fmaxf of NaN is the other: -1) */
        }
        r[0] = tn_maxi(r[0], t[0]), r[1] = tn_maxi(r[1], t[1]);
        r[2] = tn_mini(r[2], t[2]), r[3] = tn_mini(r[3], t[3]);
    }
    if (r[0] > r[2] || r[1] > r[3]) return true; /* nothing in view: nothing to hide */
    return (long)(r[2] - r[0] + 1) * (r[3] - r[1] + 1) <= TN_WORLD_FLOW_ARROWS_MAX;
}

/* The arrows of the tiles r = {x0, y0, x1, y1}. */
static void draw_arrows(const tn_flow *f, const tn_debug_draw *dd, const int r[4])
{
    const float T = (float)TN_TILE_PX;
    const bool eight = f->connectivity == 8; /* light blue: display only (the Y toggle) */
    const uint32_t shaft = eight ? 0xa0e0ffa0u : 0xffffff90u,
                   head = eight ? 0xa0e0ffc0u : 0xffffffb0u;
    for (int y = r[1]; y <= r[3]; y++)
        for (int x = r[0]; x <= r[2]; x++) {
            int i = tn_flow_index(f, x, y), d = f->dir[i];
            float cx = ((float)x + 0.5f) * T, cy = ((float)y + 0.5f) * T;
            if (f->kind[i] == TN_FLOW_WALL) continue;
            if (d == TN_DIR_NONE) {
                tn_dd_rect(dd, (float)x * T, (float)y * T, T, T, 0xd0303050u, true);
                continue;
            }
            if (d == TN_DIR_HERE) {
                tn_dd_circle(dd, cx, cy, 0.3f * T, 0xffffffa0u, false);
                continue;
            }
            /* An arrow through the centre toward the next tile (diagonals
             * as long as the others). */
            float ux = (float)tn_dir_dx[d], uy = (float)tn_dir_dy[d];
            const float k = (ux != 0 && uy != 0) ? 0.7071f : 1.0f;
            ux *= k;
            uy *= k;
            float bx = cx + 0.05f * T * ux, by = cy + 0.05f * T * uy; /* head base */
            tn_dd_line(dd, cx - 0.32f * T * ux, cy - 0.32f * T * uy, bx, by, shaft);
            tn_dd_tri(dd, cx + 0.4f * T * ux, cy + 0.4f * T * uy, bx - 0.2f * T * uy,
                      by + 0.2f * T * ux, bx + 0.2f * T * uy, by - 0.2f * T * ux, head);
        }
}

void tn_world_draw_flow_field(const tn_flow *f, const tn_debug_draw *dd, const float *view)
{
    int r[4];
    if (f && tn_world_flow_tiles(f, view, r)) draw_arrows(f, dd, r);
}

void tn_wenemies_draw_flow(const tn_world *w, const tn_debug_draw *dd, const float *view)
{
    const tn_wenemies *s = tn_wenemies_of(w);
    int r[4];
    if (!s) return;
    tn_world_flow_tiles(s->flow, view, r); /* (the caller decided by its view) */
    if (r[0] <= r[2] && r[1] <= r[3]) draw_arrows(s->flow, dd, r);
}

const tn_flow *tn_world_flow(const tn_world *w)
{
    const tn_wenemies *s = tn_wenemies_of(w);
    return s ? s->flow : NULL;
}

int tn_world_destinations(const tn_world *w)
{
    const tn_wenemies *s = tn_wenemies_of(w);
    return s ? s->ndests : 0;
}

/* Enemies are drawn at least this large on screen (centre to tip, px) */
#define ENEMY_MIN_PX 6.0f

void tn_wenemies_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays,
                      const float *view, float scale)
{
    const tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return;
    if ((overlays & TN_OVERLAY_FLOW) && !(overlays & TN_DRAW_FLOW_LAYER_CACHED))
        tn_world_draw_flow_field(s->flow, dd, view);
    const float T = (float)TN_TILE_PX;
    /* at least ENEMY_MIN_PX screen pixels from centre to tip, zoomed out */
    const float rmin = scale > 0.0f ? ENEMY_MIN_PX / 1.5f / scale : 0.0f;
    const tn_enemies *p = s->pool;
    for (int i = 0; i < p->count; i++) {
        const tn_enemy *e = &p->e[i];
        /* A dart pointing along the heading (tip 1.5 r ahead, base 0.8 r
         * behind, 0.65 r to each side: the heading reads at a glance),
         * size from the scale (0.3..0.5 tile), on a dark outline so it
         * reads on any tile. */
        float r = fmaxf((0.23f + 0.135f * e->scale) * T, rmin);
        float fx = cosf(e->heading), fy = sinf(e->heading);
        float cx = e->x * T, cy = e->y * T;
        uint32_t col = e->state == TN_ENEMY_WAIT ? 0x9a9a9affu : 0xe8553affu;
        for (int pass = 0; pass < 2; pass++) {
            float k = pass == 0 ? r + fmaxf(0.09f * T, rmin * 0.3f) : r;
            float tipx = cx + fx * k * 1.5f, tipy = cy + fy * k * 1.5f;
            float bx = cx - fx * k * 0.8f, by = cy - fy * k * 0.8f;
            tn_dd_tri(dd, tipx, tipy, bx - fy * k * 0.65f, by + fx * k * 0.65f, bx + fy * k * 0.65f,
                      by - fx * k * 0.65f, pass == 0 ? 0x1a0a08ffu : col);
        }
    }
}

/* ---- invariants ---- */

tn_status tn_wenemies_check(const tn_world *w, tn_error *err)
{
    const tn_wenemies *s = tn_wenemies_of(w);
    if (!s) return TN_OK;
    const tn_map *m = w->map;
    const tn_flow *f = s->flow;
    const tn_enemies *p = s->pool;
    const tn_status bad = TN_FAILURE;
    if (f->w != m->w || f->h != m->h)
        return tn_error_set(err, bad, 0, 0, "enemies: flow field is %dx%d, map %dx%d", f->w, f->h,
                            m->w, m->h);
    if (p->count < 0 || p->count > p->cfg.capacity)
        return tn_error_set(err, bad, 0, 0, "enemies: %d alive in a pool of %d", p->count,
                            p->cfg.capacity);
    if (p->spawned != p->count + p->reached + p->crushed)
        return tn_error_set(err, bad, 0, 0,
                            "enemies: spawned %" PRId64 " != alive %d + reached %" PRId64
                            " + crushed %" PRId64,
                            p->spawned, p->count, p->reached, p->crushed);
    /* Marks and kinds match the map; the distances are a BFS certificate:
     * 0 on destinations, else 1 + the smallest open neighbour, and FAR
     * exactly where no open neighbour has a path. */
    int nspawn = 0, ndest = 0;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            int i = tn_flow_index(f, x, y), k = tn_flow_kind(m, x, y);
            if (f->kind[i] != k)
                return tn_error_set(err, bad, 0, 0, "enemies: flow kind %d at (%d,%d), map says %d",
                                    f->kind[i], x, y, k);
            nspawn += tn_map_mark(m, x, y) == TN_MARK_SPAWN;
            ndest += k == TN_FLOW_DEST;
            if (k == TN_FLOW_WALL) continue;
            int32_t best = TN_FLOW_FAR;
            for (int d = 0; d < 4; d++) {
                int n = i + tn_dir_dy[d] * f->stride + tn_dir_dx[d];
                if (f->kind[n] != TN_FLOW_WALL && f->d[n] < best) best = f->d[n];
            }
            int32_t want = k == TN_FLOW_DEST ? 0 : best == TN_FLOW_FAR ? TN_FLOW_FAR : best + 1;
            if (f->d[i] != want)
                return tn_error_set(err, bad, 0, 0,
                                    "enemies: flow distance %d at (%d,%d), neighbours say %d",
                                    f->d[i], x, y, want);
        }
    if (nspawn != s->nspawns || ndest != s->ndests)
        return tn_error_set(
            err, bad, 0, 0,
            "enemies: %d spawn points and %d destinations listed, map has %d and %d", s->nspawns,
            s->ndests, nspawn, ndest);
    for (int k = 0; k < s->nspawns; k++)
        if (m->mark[s->spawns[k]] != TN_MARK_SPAWN || (k > 0 && s->spawns[k] <= s->spawns[k - 1]))
            return tn_error_set(err, bad, 0, 0, "enemies: spawn list entry %d is wrong", k);
    for (int i = 0; i < p->count; i++) {
        const tn_enemy *e = &p->e[i];
        if (!isfinite(e->x) || !isfinite(e->y) || !isfinite(e->heading))
            return tn_error_set(err, bad, 0, 0, "enemy %" PRIu64 ": position is not finite", e->id);
        if (tn_map_tile(m, e->tx, e->ty) == TN_TILE_BLOCK)
            return tn_error_set(err, bad, 0, 0, "enemy %" PRIu64 ": its tile (%d,%d) is a block",
                                e->id, e->tx, e->ty);
        const float eps = 1e-3f;
        if (e->x < (float)e->tx - eps || e->x > (float)e->tx + 1 + eps ||
            e->y < (float)e->ty - eps || e->y > (float)e->ty + 1 + eps)
            return tn_error_set(err, bad, 0, 0,
                                "enemy %" PRIu64 " at (%.3f,%.3f) is outside its tile (%d,%d)",
                                e->id, (double)e->x, (double)e->y, e->tx, e->ty);
    }
    return TN_OK;
}

tn_wenemies *tn_wenemies_of(const tn_world *w) { return (tn_wenemies *)w->enemies; }

int tn_wenemies_capacity(const tn_world *w)
{
    (void)w;
    return TN_WENEMIES_CAPACITY;
}

int tn_wenemies_positions(const tn_world *w, float *xy, int cap)
{
    const tn_wenemies *we = tn_wenemies_of(w);
    if (!we || !we->pool || cap <= 0) return 0;
    const tn_enemies *pool = we->pool;
    int n = tn_mini(pool->count, cap);
    for (int i = 0; i < n; i++) {
        xy[2 * i] = pool->e[i].x * (float)TN_TILE_PX;
        xy[2 * i + 1] = pool->e[i].y * (float)TN_TILE_PX;
    }
    return n;
}
