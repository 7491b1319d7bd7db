/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_steer.h"

#include <math.h>
#include <string.h>

#define T ((float)TN_TILE_PX)
/* How far from a block side a stopped box is left, px. */
#define FLUSH_GAP (1.0f / 64.0f) /* > half an ulp at 65536 px (4096 tiles) */

float tn_len(float x, float y) { return sqrtf(x * x + y * y); }

void tn_clamp_len(float *x, float *y, float max)
{
    if (!(max > 0.0f)) { /* a negative max squared would pass and flip the vector */
        *x = *y = 0.0f;
        return;
    }
    const float vx = *x, vy = *y;
    if (isnan(vx) || isnan(vy)) { /* no direction */
        *x = *y = 0.0f;
        return;
    }
    if (isinf(vx) || isinf(vy)) { /* length max along the infinite components */
        const float ux = isinf(vx) ? copysignf(1.0f, vx) : 0.0f;
        const float uy = isinf(vy) ? copysignf(1.0f, vy) : 0.0f;
        const float s = ux != 0.0f && uy != 0.0f ? max * 0.70710678f : max;
        *x = ux != 0.0f ? ux * s : 0.0f;
        *y = uy != 0.0f ? uy * s : 0.0f;
        return;
    }
    float l2 = vx * vx + vy * vy;
    if (isinf(l2)) { /* finite but past FLT_MAX squared: the length in double */
        const double s = (double)max / sqrt((double)vx * vx + (double)vy * vy);
        if (s < 1.0) *x = (float)(vx * s), *y = (float)(vy * s);
        return;
    }
    if (l2 > max * max && l2 > 0.0f) {
        float s = max / sqrtf(l2);
        *x *= s;
        *y *= s;
    }
}

float tn_wrap_angle(float a)
{
    /* one remainder, not a loop: a huge angle must not take forever (an
     * infinite or NaN one has no direction: 0) */
    const float pi = 3.14159265358979f;
    if (!isfinite(a)) return 0.0f;
    if (a > pi || a <= -pi) a = remainderf(a, 2.0f * pi);
    if (a > pi) a -= 2.0f * pi;
    if (a <= -pi) a += 2.0f * pi;
    return a;
}

/* ---- uniform grid ---------------------------------------------------------- */

tn_status tn_grid_create(float x0, float y0, float w, float h, float cell, int cap,
                         const tn_allocator *a, tn_grid **out, tn_error *err)
{
    if (out) *out = NULL;
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "steer: no output pointer for the grid");
    /* One message per argument, naming the bad one (the former single
     * sentence listed every rule and read a size of 0 by 10 as "0x10"). */
    const struct {
        const char *name;
        float v;
    } num[5] = {
        {"origin x0", x0}, {"origin y0", y0}, {"width", w}, {"height", h}, {"cell size", cell}};
    for (int i = 0; i < 5; i++)
        if (isnan(num[i].v)) /* "%g" prints it "nan" or "-nan" */
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "steer: grid %s is not a number (NaN)", num[i].name);
    if (!isfinite(x0) || !isfinite(y0))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "steer: grid origin (%g, %g) is not finite", (double)x0, (double)y0);
    if (!(w > 0.0f && h > 0.0f) || !isfinite(w) || !isfinite(h))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "steer: grid width %g and height %g px must be positive and finite",
                            (double)w, (double)h);
    if (!(cell > 0.0f) || !isfinite(cell))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "steer: grid cell size %g px must be positive and finite",
                            (double)cell);
    if (cap < 0 || cap > TN_GRID_MAX_CAP)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "steer: grid capacity %d is outside 0..%d", cap, TN_GRID_MAX_CAP);
    /* Enlarge the cell until the table stays small next to the points. */
    double max_cells = cap * 4.0 > 4096.0 ? cap * 4.0 : 4096.0;
    double c = cell;
    while (ceil(w / c) * ceil(h / c) > max_cells) c *= 1.25;
    int cols = (int)ceil(w / c), rows = (int)ceil(h / c);
    tn_grid *g = tn_alloc(a, sizeof *g);
    if (!g) goto oom;
    if (a) g->alloc = *a;
    g->x0 = x0;
    g->y0 = y0;
    g->cell = (float)c;
    g->inv_cell = (float)(1.0 / c);
    g->cols = cols;
    g->rows = rows;
    g->cap = cap;
    g->start = tn_alloc_array(a, (size_t)cols * rows + 1, sizeof *g->start);
    g->id = tn_alloc_array(a, (size_t)cap + 1, sizeof *g->id);
    g->xy = tn_alloc_array(a, 2 * (size_t)cap + 2, sizeof *g->xy);
    g->cellof = tn_alloc_array(a, (size_t)cap + 1, sizeof *g->cellof);
    if (!g->start || !g->id || !g->xy || !g->cellof) {
        tn_grid_destroy(g);
        goto oom;
    }
    *out = g;
    tn_error_clear(err);
    return TN_OK;
oom:
    return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                        "steer: out of memory for a grid");
}

void tn_grid_destroy(tn_grid *g)
{
    if (!g) return;
    tn_allocator a = g->alloc;
    tn_free(&a, g->start);
    tn_free(&a, g->id);
    tn_free(&a, g->xy);
    tn_free(&a, g->cellof);
    tn_free(&a, g);
}

static inline int grid_col(const tn_grid *g, float x)
{
    float f = (x - g->x0) * g->inv_cell;
    if (!(f >= 0.0f)) return 0; /* also NaN */
    if (f >= (float)g->cols) return g->cols - 1;
    return (int)f;
}

static inline int grid_row(const tn_grid *g, float y)
{
    float f = (y - g->y0) * g->inv_cell;
    if (!(f >= 0.0f)) return 0;
    if (f >= (float)g->rows) return g->rows - 1;
    return (int)f;
}

tn_status tn_grid_build(tn_grid *g, const float *xy, int n, tn_error *err)
{
    tn_error_clear(err);
    if (!g || n < 0 || (n > 0 && !xy))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "steer: %s",
                            !g      ? "no grid"
                            : n < 0 ? "negative point count"
                                    : "no points");
    tn_status s = TN_OK;
    if (n > g->cap) {
        s = tn_error_set(err, TN_SUCCESS | TN_PARTIAL_RESULT | TN_CAPACITY, 0, 0,
                         "steer: %d points, the grid holds the first %d (its cap)", n, g->cap);
        n = g->cap;
    }
    int ncells = g->cols * g->rows;
    memset(g->start, 0, ((size_t)ncells + 1) * sizeof *g->start);
    for (int i = 0; i < n; i++) {
        int c = grid_row(g, xy[2 * i + 1]) * g->cols + grid_col(g, xy[2 * i]);
        g->cellof[i] = c;
        g->start[c + 1]++;
    }
    for (int c = 0; c < ncells; c++) g->start[c + 1] += g->start[c];
    /* Scatter with start[c] as the running cursor, then shift back. */
    for (int i = 0; i < n; i++) {
        int k = g->start[g->cellof[i]]++;
        g->id[k] = i;
        g->xy[2 * k] = xy[2 * i];
        g->xy[2 * k + 1] = xy[2 * i + 1];
    }
    for (int c = ncells; c > 0; c--) g->start[c] = g->start[c - 1];
    g->start[0] = 0;
    g->n = n;
    return s;
}

int tn_grid_query(const tn_grid *g, float x, float y, float r, int32_t *out, int cap)
{
    /* no point is within a negative (or NaN) distance: r = -1 squared
     * counted the points within 1 px, r = -50 none (the cells ran backward) */
    if (!g || !(r >= 0.0f)) return 0;
    if (!out) cap = 0; /* count only */
    int c0 = grid_col(g, x - r), c1 = grid_col(g, x + r);
    int r0 = grid_row(g, y - r), r1 = grid_row(g, y + r);
    float r2 = r * r;
    int found = 0;
    for (int row = r0; row <= r1; row++) {
        const int32_t *st = g->start + row * g->cols;
        for (int k = st[c0]; k < st[c1 + 1]; k++) {
            float dx = g->xy[2 * k] - x, dy = g->xy[2 * k + 1] - y;
            if (dx * dx + dy * dy <= r2) {
                if (found < cap) out[found] = g->id[k];
                found++;
            }
        }
    }
    return found;
}

int tn_grid_separation(const tn_grid *g, float x, float y, float r, int32_t skip, float *sx,
                       float *sy)
{
    float nsx, nsy; /* sx or sy NULL: the count alone */
    if (!sx) sx = &nsx;
    if (!sy) sy = &nsy;
    *sx = *sy = 0.0f;
    if (!g || !(r > 0.0f) || !isfinite(r) || !isfinite(x) || !isfinite(y)) return 0;
    int c0 = grid_col(g, x - r), c1 = grid_col(g, x + r);
    int r0 = grid_row(g, y - r), r1 = grid_row(g, y + r);
    float r2 = r * r, inv_r = 1.0f / r, ax = 0.0f, ay = 0.0f;
    int found = 0;
    for (int row = r0; row <= r1; row++) {
        /* The cells c0..c1 of one row are contiguous in the sorted order. */
        const int32_t *st = g->start + row * g->cols;
        for (int k = st[c0]; k < st[c1 + 1]; k++) {
            float dx = x - g->xy[2 * k], dy = y - g->xy[2 * k + 1];
            float d2 = dx * dx + dy * dy;
            if (!(d2 <= r2) || g->id[k] == skip) continue; /* NaN: no distance, skipped */
            found++;
            if (d2 == 0.0f) {
                ax += 1.0f;
                continue;
            }
            float d = sqrtf(d2), w = (1.0f - d * inv_r) / d;
            ax += dx * w;
            ay += dy * w;
        }
    }
    *sx = ax;
    *sy = ay;
    return found;
}

/* ---- collision ----------------------------------------------------------------- */

/* floor and ceil to int without a library call; values beyond +-2^30 (and
 * NaN, as -2^30) are clamped there, far outside any map, so a box at an
 * infinite or NaN position meets "outside" instead of undefined behaviour. */
#define IBIG 1073741824.0f
static inline int ifloor(float v)
{
    if (!(v > -IBIG)) return -(int)IBIG;
    if (v > IBIG) return (int)IBIG;
    int i = (int)v;
    return i - (v < (float)i);
}

static inline int iceil(float v)
{
    if (!(v > -IBIG)) return -(int)IBIG;
    if (v > IBIG) return (int)IBIG;
    int i = (int)v;
    return i + (v > (float)i);
}

/* Tiles a box edge interval (lo, hi) (open) overlaps: [*a, *b]. */
static inline void tile_span(float lo, float hi, int *a, int *b)
{
    const float inv = 1.0f / T; /* a power of two: exact */
    *a = ifloor(lo * inv);
    *b = iceil(hi * inv) - 1;
}

static inline bool rect_has_block(const tn_map *m, int c0, int c1, int r0, int r1)
{
    if (c0 < 0 || r0 < 0 || c1 >= m->w || r1 >= m->h) return true;
    for (int y = r0; y <= r1; y++) {
        const uint8_t *row = m->tile + (size_t)y * m->w;
        for (int x = c0; x <= c1; x++)
            if (row[x] == TN_TILE_BLOCK) return true;
    }
    return false;
}

bool tn_steer_box_free(const tn_map *m, float x, float y, float half)
{
    return tn_steer_rect_free(m, x - half, y - half, x + half, y + half);
}

bool tn_steer_rect_free(const tn_map *m, float x0, float y0, float x1, float y1)
{
    /* No map, far outside, not finite or inverted (x0 > x1 or y0 > y1: an
     * inverted span would read no tile and pass for free): not free, and
     * with x0 <= x1 < 1e8 no int overflow below. */
    if (!m || !(x0 > -1e6f && x1 < 1e8f && y0 > -1e6f && y1 < 1e8f && x0 <= x1 && y0 <= y1))
        return false;
    int c0, c1, r0, r1;
    tile_span(x0, x1, &c0, &c1);
    tile_span(y0, y1, &r0, &r1);
    return !rect_has_block(m, c0, c1, r0, r1);
}

/* One axis: move coordinate *p (the other coordinate q fixed) by d, in
 * sub-moves of at most half a tile; true when stopped. */
static bool move_axis(const tn_map *m, float half, float *p, float q, float d, bool xaxis)
{
    int q0, q1;
    tile_span(q - half, q + half, &q0, &q1);
    while (d != 0.0f) {
        float step = d > 0.5f * T ? 0.5f * T : (d < -0.5f * T ? -0.5f * T : d);
        float np = *p + step;
        int a, b;
        tile_span(np - half, np + half, &a, &b);
        /* Only the leading column/row can be new: sub-moves are < 1 tile. */
        int lead = step > 0.0f ? b : a;
        bool hit =
            xaxis ? rect_has_block(m, lead, lead, q0, q1) : rect_has_block(m, q0, q1, lead, lead);
        if (hit) {
            float flush = step > 0.0f ? (float)lead * T - half - FLUSH_GAP
                                      : (float)(lead + 1) * T + half + FLUSH_GAP;
            /* Never move backwards (a box already flush stays put). */
            if ((step > 0.0f && flush > *p) || (step < 0.0f && flush < *p)) *p = flush;
            return true;
        }
        *p = np;
        d -= step;
    }
    return false;
}

unsigned tn_steer_move(const tn_map *m, float half, float *x, float *y, float dx, float dy,
                       float *vx, float *vy)
{
    if (!x || !y) return 0;
    if (!isfinite(dx)) dx = 0.0f; /* no move on an axis asked to go nowhere real */
    if (!isfinite(dy)) dy = 0.0f;
    if (!tn_steer_box_free(m, *x, *y, half)) {
        *x += dx;
        *y += dy;
        return 0;
    }
    unsigned hit = 0;
    if (dx != 0.0f && move_axis(m, half, x, *y, dx, true)) {
        hit |= 1u;
        if (vx) *vx = 0.0f;
    }
    if (dy != 0.0f && move_axis(m, half, y, *x, dy, false)) {
        hit |= 2u;
        if (vy) *vy = 0.0f;
    }
    return hit;
}

bool tn_steer_corner_shift(const tn_map *m, float half, float x, float y, int axis, float dir,
                           float max_shift, float *shift)
{
    const float probe = 0.5f;
    if (!m || !shift || !(max_shift >= probe) || !isfinite(half) || (axis != 0 && axis != 1) ||
        dir == 0.0f || isnan(dir))
        return false; /* NaN max_shift too */
    float ax = axis == 0 ? (dir > 0.0f ? probe : -probe) : 0.0f;
    float ay = axis == 0 ? 0.0f : (dir > 0.0f ? probe : -probe);
    /* A box shifted farther than the map's extent across the axis is
     * outside it (blocked): no need to look beyond.  The steps are counted
     * in integers: a float d += 0.5 stops growing at 2^23 (it hung for a
     * max_shift of 2^23 px or more, or infinity, at a wall). */
    const float span = (float)(axis == 0 ? m->h : m->w) * T + 2.0f * fabsf(half) + 1.0f;
    const long nsteps = (long)(fminf(max_shift, span) / probe);
    for (long i = 1; i <= nsteps; i++) {
        const float d = (float)i * probe;
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            float sx = axis == 0 ? 0.0f : (float)sgn * d, sy = axis == 0 ? (float)sgn * d : 0.0f;
            if (tn_steer_box_free(m, x + sx, y + sy, half) &&
                tn_steer_box_free(m, x + sx + ax, y + sy + ay, half)) {
                *shift = (float)sgn * d;
                return true;
            }
        }
    }
    return false;
}

static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

bool tn_steer_unstick(const tn_map *m, float half, float *x, float *y, int max_tiles)
{
    if (!m || !x || !y) return false;
    if (!isfinite(*x) || !isfinite(*y) || !(half >= 0.0f) || !isfinite(half)) return false;
    if (tn_steer_box_free(m, *x, *y, half)) return true;
    const int tx = ifloor(*x / T), ty = ifloor(*y / T);
    /* Rings nearer than the map hold no tile of it, rings beyond its
     * farthest corner neither: search only rings that meet the map. */
    const int64_t ax = tx, ay = ty, w1 = m->w - 1, h1 = m->h - 1;
    const int64_t near = max64(max64(-ax, ax - w1), max64(max64(-ay, ay - h1), 0));
    const int64_t far = max64(max64(ax, w1 - ax), max64(ay, h1 - ay));
    float best = INFINITY, bx = 0.0f, by = 0.0f;
    int limit = (int)(far < max_tiles ? far : max_tiles);
    for (int r = (int)near; r <= limit; r++) {
        /* the ring's tiles inside the map: its top and bottom rows whole,
         * its two columns on the rows between */
        const int64_t y0 = max64(ay - r, 0), y1 = min64(ay + r, h1);
        for (int64_t ty2 = y0; ty2 <= y1; ty2++) {
            const bool whole = ty2 == ay - r || ty2 == ay + r;
            const int64_t x0 = whole ? max64(ax - r, 0) : ax - r,
                          x1 = whole ? min64(ax + r, w1) : ax + r;
            const int64_t step = whole || r == 0 ? 1 : 2 * (int64_t)r;
            for (int64_t tx2 = x0; tx2 <= x1; tx2 += step) {
                if (tx2 < 0 || tx2 > w1) continue;
                const int cxt = (int)tx2, cyt = (int)ty2;
                float cx = ((float)cxt + 0.5f) * T, cy = ((float)cyt + 0.5f) * T;
                if (tn_map_tile(m, cxt, cyt) == TN_TILE_BLOCK ||
                    !tn_steer_box_free(m, cx, cy, half))
                    continue;
                float d2 = tn_len2(cx - *x, cy - *y);
                if (d2 < best) {
                    best = d2;
                    bx = cx;
                    by = cy;
                }
            }
        }
        /* A nearer centre can only lie in rings up to sqrt(2) times further. */
        if (best < INFINITY && limit > (int)((float)r * 1.5f) + 3)
            limit = (int)((float)r * 1.5f) + 3;
    }
    if (best == INFINITY) return false;
    *x = bx;
    *y = by;
    return true;
}
