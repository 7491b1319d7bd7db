/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_enemy.h"

#include <math.h>
#include <string.h>

#define PI_F 3.14159265358979323846f
#define MIN_UTURN_RADIUS 0.2f
#define MAX_SEGMENTS_PER_STEP 64

tn_enemies_config tn_enemies_default_config(void)
{
    tn_enemies_config c;
    c.capacity = 4096;
    c.spawn_rate = 1.0f;
    c.scale_min = 0.5f;
    c.scale_max = 2.0f;
    c.speed_min = 0.2f;
    c.speed_max = 5.0f;
    c.offset_min = -0.4f;
    c.offset_max = 0.4f;
    c.spacing = 0.0f;
    return c;
}

static bool range_ok(float lo, float hi, float min, float max)
{
    return isfinite(lo) && isfinite(hi) && lo <= hi && lo >= min && hi <= max;
}

tn_status tn_enemies_validate(const tn_enemies_config *c, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (!c) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "enemy: no config");
    if (c->capacity < 1 || c->capacity > (1 << 20))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: capacity %d is outside 1..%d", c->capacity, 1 << 20);
    /* a NaN first, by name: "%g" prints it "nan" or "-nan" */
    const struct {
        const char *name;
        float v;
    } num[8] = {{"spawn_rate", c->spawn_rate}, {"scale_min", c->scale_min},
                {"scale_max", c->scale_max},   {"speed_min", c->speed_min},
                {"speed_max", c->speed_max},   {"offset_min", c->offset_min},
                {"offset_max", c->offset_max}, {"spacing", c->spacing}};
    for (int i = 0; i < 8; i++)
        if (isnan(num[i].v))
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "enemy: %s is not a number (NaN)", num[i].name);
    if (!(c->spawn_rate >= 0.0f && c->spawn_rate <= 1000.0f))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: spawn rate %g is outside 0..1000 per second",
                            (double)c->spawn_rate);
    if (!range_ok(c->scale_min, c->scale_max, 1e-3f, 100.0f))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: scale range %g..%g must be ordered within 0.001..100",
                            (double)c->scale_min, (double)c->scale_max);
    if (!range_ok(c->speed_min, c->speed_max, 1e-3f, 100.0f))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: speed range %g..%g tiles/s must be ordered within 0.001..100",
                            (double)c->speed_min, (double)c->speed_max);
    if (!(c->spacing >= 0.0f && c->spacing <= 2.0f))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: spacing %g must be within 0..2 tiles", (double)c->spacing);
    if (!range_ok(c->offset_min, c->offset_max, -0.45f, 0.45f))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: lane offset range %g..%g must be ordered within -0.45..0.45",
                            (double)c->offset_min, (double)c->offset_max);
    return TN_OK;
}

tn_status tn_enemies_create(const tn_enemies_config *cfg, const tn_allocator *a, tn_enemies **out,
                            tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (out) *out = NULL;
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "enemy: no output pointer");
    tn_enemies_config c = cfg ? *cfg : tn_enemies_default_config();
    tn_status s = tn_enemies_validate(&c, err);
    if (tn_failed(s)) return s;
    tn_enemies *p = tn_alloc(a, sizeof *p);
    tn_enemy *e = p ? tn_alloc_array(a, (size_t)c.capacity, sizeof *e) : NULL;
    if (!e) {
        tn_free(a, p);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "enemy: out of memory for %d enemies", c.capacity);
    }
    if (a) p->alloc = *a;
    p->e = e;
    p->cfg = c;
    *out = p;
    return TN_OK;
}

size_t tn_enemies_memory(const tn_enemies *s)
{
    return s ? sizeof *s + (size_t)s->cfg.capacity * sizeof *s->e : 0;
}

void tn_enemies_destroy(tn_enemies *s)
{
    if (!s) return;
    tn_allocator a = s->alloc;
    tn_free(&a, s->e);
    tn_free(&a, s);
}

tn_status tn_enemies_configure(tn_enemies *s, const tn_enemies_config *cfg, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (!s || !cfg)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "enemy: no %s (%s is NULL)",
                            !s ? "pool" : "config", !s ? "s" : "cfg");
    tn_enemies_config c = *cfg;
    if (c.capacity != s->cfg.capacity && c.capacity != 0)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: capacity %d differs from the pool's %d, which is fixed at "
                            "creation (0 keeps it; a new capacity needs a new pool)",
                            c.capacity, s->cfg.capacity);
    c.capacity = s->cfg.capacity;
    tn_status st = tn_enemies_validate(&c, err);
    if (tn_failed(st)) return st;
    s->cfg = c;
    return TN_OK;
}

void tn_enemies_clear(tn_enemies *s)
{
    if (!s) return;
    s->count = 0;
    s->accum = 0.0;
    s->id_base += (uint64_t)s->spawned; /* ids go on: a kept one never names another */
    s->spawned = s->reached = s->skipped = s->crushed = 0;
}

/* ---- geometry ---- */

static inline float dvx(int dir) { return (float)tn_dir_dx[dir]; }
static inline float dvy(int dir) { return (float)tn_dir_dy[dir]; }
/* Right of a direction with y down: (x, y) -> (-y, x). */
static inline int right_of(int dir)
{
    static const uint8_t R[4] = {TN_DIR_E, TN_DIR_W, TN_DIR_S, TN_DIR_N};
    return R[dir];
}
static inline int left_of(int dir)
{
    static const uint8_t L[4] = {TN_DIR_W, TN_DIR_E, TN_DIR_N, TN_DIR_S};
    return L[dir];
}
static inline float angle_of(int dir)
{
    static const float A[4] = {-PI_F / 2, PI_F / 2, 0.0f, PI_F};
    return A[dir];
}

/* The position and heading at the current progress. */
static void place(tn_enemy *e)
{
    float t = e->progress;
    if (e->span == 0.0f) {
        e->x = e->px + (e->ax - e->px) * t;
        e->y = e->py + (e->ay - e->py) * t;
    } else {
        float c = cosf(t * e->span), s = sinf(t * e->span);
        e->x = e->px + e->ax * c + e->bx * s;
        e->y = e->py + e->ay * c + e->by * s;
    }
    e->heading = e->h0 + e->dh * t;
}

/* A straight segment from the current position to (x, y). */
static void straight_to(tn_enemy *e, float x, float y, float heading_if_still)
{
    e->px = e->x;
    e->py = e->y;
    e->ax = x;
    e->ay = y;
    e->span = 0.0f;
    float dx = x - e->x, dy = y - e->y, len = sqrtf(dx * dx + dy * dy);
    e->h0 = len > 1e-6f ? atan2f(dy, dx) : heading_if_still;
    e->dh = 0.0f;
    e->factor = len > 1e-6f ? e->speed / len : 1e6f;
}

/* An arc around (cx, cy) from r0 to ... (see tn_enemy.b), `len_radius`
 * being the radius that sets its duration. */
static void arc(tn_enemy *e, float cx, float cy, float r0x, float r0y, float r1x, float r1y,
                float span, float len_radius, float h0, float dh)
{
    e->px = cx;
    e->py = cy;
    e->ax = r0x;
    e->ay = r0y;
    e->bx = r1x;
    e->by = r1y;
    e->span = span;
    e->h0 = h0;
    e->dh = dh;
    e->factor = e->speed / (span * len_radius);
}

/* Re-plan from the current position inside tile (tx, ty): toward its exit
 * (INTRO), its centre (OUTRO on a destination, WAIT without a path). */
static void replan(tn_enemy *e, const tn_flow *f)
{
    int d = tn_flow_dir(f, e->tx, e->ty);
    float cx = (float)e->tx + 0.5f, cy = (float)e->ty + 0.5f;
    e->progress = 0.0f;
    if (d == TN_DIR_HERE || d >= TN_DIR_NE) {
        e->state = d == TN_DIR_HERE ? TN_ENEMY_OUTRO : TN_ENEMY_WAIT;
        straight_to(e, cx, cy, e->heading);
        return;
    }
    int r = right_of(d);
    e->state = TN_ENEMY_INTRO;
    e->dir = (uint8_t)d;
    e->nx = e->tx + tn_dir_dx[d];
    e->ny = e->ty + tn_dir_dy[d];
    straight_to(e, cx + 0.5f * dvx(d) + e->offset * dvx(r), cy + 0.5f * dvy(d) + e->offset * dvy(r),
                angle_of(d));
}

/* The enemy reached the exit edge of its tile: enter the next tile and set
 * up the segment across it. */
static void enter_next(tn_enemy *e, const tn_flow *f)
{
    const int old = e->dir;
    if (e->nx < 0 || e->ny < 0 || e->nx >= f->w || e->ny >= f->h ||
        f->kind[tn_flow_index(f, e->nx, e->ny)] == TN_FLOW_WALL) {
        /* Never fly into a block (on_edit normally re-plans before). */
        replan(e, f);
        return;
    }
    e->tx = e->nx;
    e->ty = e->ny;
    e->progress = 0.0f;
    const int d = tn_flow_dir(f, e->tx, e->ty);
    if (d == TN_DIR_HERE || d == TN_DIR_NONE || d >= TN_DIR_NE) {
        replan(e, f); /* OUTRO to the destination centre, or WAIT */
        return;
    }
    /* Entry point: middle of the edge just crossed. */
    const float ex = (float)e->tx + 0.5f - 0.5f * dvx(old);
    const float ey = (float)e->ty + 0.5f - 0.5f * dvy(old);
    const float off = e->offset;
    const int ro = right_of(old);
    e->dir = (uint8_t)d;
    e->nx = e->tx + tn_dir_dx[d];
    e->ny = e->ty + tn_dir_dy[d];
    if (d == old) {
        e->state = TN_ENEMY_FORWARD;
        e->x = ex + off * dvx(ro);
        e->y = ey + off * dvy(ro);
        straight_to(e, e->x + dvx(old), e->y + dvy(old), angle_of(old));
    } else if (d == ro) {
        /* Around the corner on the right: radius 0.5 - offset. */
        e->state = TN_ENEMY_TURN_RIGHT;
        float r = 0.5f - off;
        arc(e, ex + 0.5f * dvx(d), ey + 0.5f * dvy(d), -r * dvx(d), -r * dvy(d), r * dvx(old),
            r * dvy(old), PI_F / 2, r, angle_of(old), PI_F / 2);
    } else if (d == left_of(old)) {
        e->state = TN_ENEMY_TURN_LEFT;
        float r = 0.5f + off;
        arc(e, ex + 0.5f * dvx(d), ey + 0.5f * dvy(d), -r * dvx(d), -r * dvy(d), r * dvx(old),
            r * dvy(old), PI_F / 2, r, angle_of(old), -PI_F / 2);
    } else {
        /* Half circle around the entry point, bulging into this tile. */
        e->state = TN_ENEMY_TURN_AROUND;
        float r = fabsf(off);
        arc(e, ex, ey, off * dvx(ro), off * dvy(ro), r * dvx(old), r * dvy(old), PI_F,
            fmaxf(r, MIN_UTURN_RADIUS), angle_of(old), off > 0.0f ? -PI_F : PI_F);
    }
}

/* Advance one enemy by t seconds; true when it reached its destination. */
static bool advance(tn_enemy *e, const tn_flow *f, float t)
{
    if (e->state == TN_ENEMY_WAIT && tn_flow_dir(f, e->tx, e->ty) != TN_DIR_NONE) replan(e, f);
    e->progress += t * e->factor;
    for (int guard = 0; e->progress >= 1.0f && guard < MAX_SEGMENTS_PER_STEP; guard++) {
        if (e->state == TN_ENEMY_OUTRO) return true;
        if (e->state == TN_ENEMY_WAIT) {
            e->progress = 1.0f;
            break;
        }
        float left = (e->progress - 1.0f) / e->factor; /* seconds past the segment end */
        e->progress = 1.0f;
        place(e); /* exactly at the segment end */
        enter_next(e, f);
        e->progress = left * e->factor;
    }
    if (e->progress > 1.0f) e->progress = 1.0f;
    place(e);
    return false;
}

/* ---- spawning ---- */

static void init_enemy(tn_enemies *s, tn_enemy *e, const tn_flow *f, int x, int y, tn_rng *rng)
{
    const tn_enemies_config *c = &s->cfg;
    memset(e, 0, sizeof *e);
    e->scale =
        c->scale_min < c->scale_max ? tn_rng_range(rng, c->scale_min, c->scale_max) : c->scale_min;
    e->speed =
        c->speed_min < c->speed_max ? tn_rng_range(rng, c->speed_min, c->speed_max) : c->speed_min;
    e->offset = c->offset_min < c->offset_max ? tn_rng_range(rng, c->offset_min, c->offset_max)
                                              : c->offset_min;
    e->tx = x;
    e->ty = y;
    e->x = (float)x + 0.5f;
    e->y = (float)y + 0.5f;
    e->id = s->id_base + (uint64_t)s->spawned + 1;
    replan(e, f);
    place(e);
}

/* Why (s, f) cannot be stepped, or TN_OK. */
static tn_status check_field(const tn_enemies *s, const tn_flow *f, tn_error *err)
{
    if (!s || !f)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "enemy: no %s (%s is NULL)",
                            !s ? "pool" : "flow field", !s ? "s" : "f");
    if (f->connectivity != 4)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: the flow field is %d-connected; enemies walk a "
                            "4-connected one",
                            f->connectivity);
    return TN_OK;
}

tn_status tn_enemies_spawn_at(tn_enemies *s, const tn_flow *f, int x, int y, tn_rng *rng,
                              tn_error *err)
{
    tn_status st = check_field(s, f, err);
    if (tn_failed(st)) return st;
    if (!rng) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "enemy: no rng");
    if (x < 0 || y < 0 || x >= f->w || y >= f->h)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: spawn tile (%d,%d) is outside the %dx%d board", x, y, f->w,
                            f->h);
    int d = tn_flow_dir(f, x, y);
    if (d == TN_DIR_NONE)
        return tn_error_set(
            err, TN_FAILURE | TN_REFUSED, 0, 0, "enemy: spawn tile (%d,%d) is %s", x, y,
            f->kind[tn_flow_index(f, x, y)] == TN_FLOW_WALL ? "a wall"
                                                            : "cut off from every destination");
    if (s->count >= s->cfg.capacity) {
        s->skipped++;
        return tn_error_set(err, TN_FAILURE | TN_CAPACITY, 0, 0, "enemy: the pool of %d is full",
                            s->cfg.capacity);
    }
    init_enemy(s, &s->e[s->count++], f, x, y, rng);
    s->spawned++;
    tn_error_clear(err);
    return TN_OK;
}

/* Remove enemy i (the last one takes its place). */
static inline void reclaim(tn_enemies *s, int i) { s->e[i] = s->e[--s->count]; }

/* Is an enemy closer than d tiles to (x, y)? */
static bool crowded(const tn_enemies *s, float x, float y, float d)
{
    for (int i = 0; i < s->count; i++) {
        float dx = s->e[i].x - x, dy = s->e[i].y - y;
        if (dx * dx + dy * dy < d * d) return true;
    }
    return false;
}

/* The catch-up of a spawn at (x, y) (the newest enemy, e[count - 1]) cut
 * to the time there has been room: an enemy at distance dist now, flying
 * at most its speed, was at least dist - speed * ago away `ago` seconds
 * before, so with ago <= (dist - d) / speed none was closer than the
 * spacing d at the spawn moment (crowded() found none closer now); and
 * the spawn, flying at most its own speed, ends at least dist - its
 * speed * ago from each: the larger of the two speeds bounds both (with
 * the other's alone a fast spawn behind a slow enemy landed inside the
 * spacing). */
static float room_since(const tn_enemies *s, float x, float y, float d, float ago)
{
    const float own = s->e[s->count - 1].speed;
    for (int i = 0; i + 1 < s->count && ago > 0.0f; i++) {
        const tn_enemy *o = &s->e[i];
        float dx = o->x - x, dy = o->y - y, dist = sqrtf(dx * dx + dy * dy);
        float v = tn_maxf(o->speed, own);
        if (dist - v * ago < d) ago = tn_maxf(0.0f, (dist - d) / v);
    }
    return ago;
}

tn_status tn_enemies_step(tn_enemies *s, const tn_flow *f, const int32_t *spawns, int nspawns,
                          tn_rng *rng, float dt, tn_error *err)
{
    tn_status st = check_field(s, f, err);
    if (tn_failed(st)) return st;
    if (isnan(dt)) /* "%g" prints it "nan" or "-nan" */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: step dt is not a number (NaN)");
    if (!(dt >= 0.0f) || !isfinite(dt))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: step of %g s (must be finite and >= 0)", (double)dt);
    /* A spawn list without tiles or without an rng would spawn nothing
     * and say nothing: the game would wait for enemies that never come. */
    if (nspawns < 0)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: %d spawn tiles: a negative count", nspawns);
    if (nspawns > 0 && !spawns)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: %d spawn tiles listed, but the list is NULL", nspawns);
    if (nspawns > 0 && !rng)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: %d spawn tiles but no rng to draw the spawns from", nspawns);
    tn_error_clear(err);
    for (int i = 0; i < s->count;) {
        if (advance(&s->e[i], f, dt)) {
            s->reached++;
            reclaim(s, i);
        } else {
            i++;
        }
    }
    if (nspawns == 0) { /* only moving */
        s->accum = 0.0;
        return TN_OK;
    }
    s->accum += (double)s->cfg.spawn_rate * (double)dt;
    if (s->accum < 1.0) return TN_OK;
    /* Spawn points with a path. */
    int live = 0;
    for (int k = 0; k < nspawns; k++) {
        int32_t t = spawns[k];
        live += t >= 0 && t < f->w * f->h && tn_flow_dir(f, t % f->w, t / f->w) != TN_DIR_NONE;
    }
    if (live == 0) {
        s->accum = 0.0; /* idle: no burst when a path appears */
        return TN_OK;
    }
    int made = 0; /* at most a pool's worth per step, however long the step */
    while (s->accum >= 1.0) {
        if (s->count >= s->cfg.capacity || made >= s->cfg.capacity) { /* the rest: skipped */
            double due = floor(s->accum);
            s->skipped += due < 1e15 ? (int64_t)due : (int64_t)1e15;
            s->accum -= due;
            break;
        }
        s->accum -= 1.0;
        int pick = (int)tn_rng_below(rng, (uint32_t)live), k = 0;
        int32_t t = -1;
        for (; k < nspawns; k++) {
            t = spawns[k];
            if (t < 0 || t >= f->w * f->h || tn_flow_dir(f, t % f->w, t / f->w) == TN_DIR_NONE)
                continue;
            if (pick-- == 0) break;
        }
        if (s->cfg.spacing > 0.0f &&
            crowded(s, (float)(t % f->w) + 0.5f, (float)(t / f->w) + 0.5f, s->cfg.spacing)) {
            s->accum += 1.0; /* wait for room; at most one spawn held back */
            if (s->accum > 1.5) s->accum = 1.5;
            break;
        }
        tn_enemy *e = &s->e[s->count++];
        init_enemy(s, e, f, t % f->w, t / f->w, rng);
        s->spawned++;
        made++;
        /* It was due accum / rate seconds ago: catch up, by this step at
         * most.  A spawn held back for room (spacing) became due when the
         * room appeared, inside this step, however long it waited: its
         * accumulator (up to 1.5) must not turn into seconds of flight,
         * nor into infinity after a configure to spawn_rate 0. */
        double ago_d = s->cfg.spawn_rate > 0.0f ? s->accum / (double)s->cfg.spawn_rate : 0.0;
        float ago = (float)(ago_d < (double)dt ? ago_d : (double)dt);
        if (s->cfg.spacing > 0.0f)
            ago = room_since(s, (float)(t % f->w) + 0.5f, (float)(t / f->w) + 0.5f, s->cfg.spacing,
                             ago);
        if (ago > 0.0f && advance(e, f, ago)) {
            s->reached++;
            s->count--;
        }
    }
    return TN_OK;
}

/* ---- edits ---- */

tn_status tn_enemies_on_edit(tn_enemies *s, const tn_flow *f, int x, int y, tn_error *err)
{
    tn_status st = check_field(s, f, err);
    if (tn_failed(st)) return st;
    if (x < 0 || y < 0 || x >= f->w || y >= f->h) /* as spawn_at and tn_flow_update */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "enemy: edited tile (%d,%d) is outside the %dx%d board", x, y, f->w,
                            f->h);
    tn_error_clear(err);
    for (int i = 0; i < s->count;) {
        tn_enemy *e = &s->e[i];
        bool here = e->tx == x && e->ty == y;
        bool ahead =
            e->nx == x && e->ny == y && e->state != TN_ENEMY_OUTRO && e->state != TN_ENEMY_WAIT;
        if (!here && !ahead) {
            i++;
            continue;
        }
        if (here && f->kind[tn_flow_index(f, x, y)] == TN_FLOW_WALL) {
            /* Pushed out to the nearest open neighbour's centre. */
            int best = -1;
            float bd = INFINITY;
            for (int d = 0; d < 4; d++) {
                int nx = x + tn_dir_dx[d], ny = y + tn_dir_dy[d];
                if (nx < 0 || ny < 0 || nx >= f->w || ny >= f->h) continue;
                if (f->kind[tn_flow_index(f, nx, ny)] == TN_FLOW_WALL) continue;
                float ddx = (float)nx + 0.5f - e->x, ddy = (float)ny + 0.5f - e->y;
                float dist = ddx * ddx + ddy * ddy;
                if (dist < bd) {
                    bd = dist;
                    best = d;
                }
            }
            if (best < 0) {
                s->crushed++;
                reclaim(s, i);
                continue;
            }
            e->tx = x + tn_dir_dx[best];
            e->ty = y + tn_dir_dy[best];
            e->x = (float)e->tx + 0.5f;
            e->y = (float)e->ty + 0.5f;
        }
        replan(e, f);
        place(e);
        i++;
    }
    return TN_OK;
}
