#include "tn_flow.h"

#include <math.h>
#include <string.h>

#define SQRT2 1.41421356237309504880

/* Software prefetch (a hint; nothing on compilers without it). */
#if defined(__GNUC__)
#define TN_PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define TN_PREFETCH_W(p) ((void)(p))
#endif
#define BFS_PREFETCH_AHEAD 32
#define WALLD (-1) /* d[] of a wall: never equal to any distance - 1 */

/* Directions, in TN_DIR_* order, as index offsets are f->off[]; the search
 * order per checkerboard colour (see the header). */
static const uint8_t ORDER[2][8] = {
    {TN_DIR_N, TN_DIR_S, TN_DIR_E, TN_DIR_W, TN_DIR_NE, TN_DIR_NW, TN_DIR_SE, TN_DIR_SW},
    {TN_DIR_W, TN_DIR_E, TN_DIR_S, TN_DIR_N, TN_DIR_SW, TN_DIR_SE, TN_DIR_NW, TN_DIR_NE},
};
/* For a diagonal, the two straight directions it passes between. */
static const uint8_t DIAG_A[8] = {0, 0, 0, 0, TN_DIR_N, TN_DIR_N, TN_DIR_S, TN_DIR_S};
static const uint8_t DIAG_B[8] = {0, 0, 0, 0, TN_DIR_E, TN_DIR_W, TN_DIR_E, TN_DIR_W};

static inline int off(const tn_flow *f, int dir) { return f->off[dir]; }

static inline bool open_at(const tn_flow *f, int i) { return f->kind[i] != TN_FLOW_WALL; }

/* May a flyer step from open cell i in direction j? */
static inline bool edge_ok(const tn_flow *f, int i, int j)
{
    if (!open_at(f, i + off(f, j))) return false;
    return j < 4 || (open_at(f, i + off(f, DIAG_A[j])) && open_at(f, i + off(f, DIAG_B[j])));
}

/* The value of a (straight, diagonal) pair; FAR = infinity. */
static inline double val2(int32_t s, int32_t g)
{
    return s == TN_FLOW_FAR ? INFINITY : (double)s + (double)g * SQRT2;
}
static inline double val(const tn_flow *f, int i)
{
    return f->dv ? f->dv[i] : val2(f->d[i], 0);
}
/* Bucket of a cell with a finite distance (>= 0, so truncation = floor). */
static inline int key_of(const tn_flow *f, int i)
{
    return f->dv ? (int)f->dv[i] : f->d[i];
}
/* Set a cell's distance (s = FAR: no path, WALLD: a wall). */
static inline void set_d(tn_flow *f, int i, int32_t s, int32_t g)
{
    f->d[i] = s;
    if (f->dd) {
        f->dd[i] = g;
        f->dv[i] = s == TN_FLOW_FAR ? INFINITY : s < 0 ? -1.0 : (double)s + (double)g * SQRT2;
    }
}

/* ---- Dial's bucket queue: doubly linked lists, keys 0..kcap-1 ---- */

static inline void b_insert(tn_flow *f, int i, int k)
{
    int h = f->bhead[k];
    f->bnext[i] = h;
    f->bprev[i] = -1;
    if (h >= 0) f->bprev[h] = i;
    f->bhead[k] = i;
    if (k < f->kmin) f->kmin = k;
    if (k > f->kmax) f->kmax = k;
}
static inline bool b_member(const tn_flow *f, int i) { return f->bprev[i] != -2; }
static inline void b_remove(tn_flow *f, int i, int k)
{
    int p = f->bprev[i], n = f->bnext[i];
    if (p >= 0) f->bnext[p] = n;
    else f->bhead[k] = n;
    if (n >= 0) f->bprev[n] = p;
    f->bprev[i] = -2;
}
static void b_reset_range(tn_flow *f)
{
    f->kmin = f->kcap;
    f->kmax = -1;
}

/* Lower cell v to (s, g) if that is shorter; keeps the queue consistent. */
static inline void relax(tn_flow *f, int v, int32_t s, int32_t g)
{
    if (f->dd) {
        if (!(val2(s, g) < f->dv[v])) return;
        if (b_member(f, v)) b_remove(f, v, key_of(f, v));
        set_d(f, v, s, g);
    } else {
        if (s >= f->d[v]) return;
        if (b_member(f, v)) b_remove(f, v, f->d[v]);
        f->d[v] = s;
    }
    b_insert(f, v, key_of(f, v));
}

/* Pop everything in increasing key and relax its neighbours.  With `track`,
 * every popped cell is appended (once) to f->list[*nlist] and stamped
 * gen+1.  Stops early (draining the queue) when more than `budget` cells
 * were popped: returns false then. */
static bool propagate(tn_flow *f, bool track, int *nlist, long budget)
{
    const int nd = f->connectivity;
    long popped = 0;
    bool ok = true;
    for (int k = f->kmin; k <= f->kmax; k++) {
        int u;
        while ((u = f->bhead[k]) >= 0) {
            b_remove(f, u, k);
            if (!ok) continue;
            if (++popped > budget) {
                ok = false;
                continue;
            }
            if (track && f->stamp[u] != f->gen + 1) {
                f->stamp[u] = f->gen + 1;
                f->list[(*nlist)++] = u;
            }
            int32_t s = f->d[u], g = f->dd ? f->dd[u] : 0;
            for (int j = 0; j < nd; j++) {
                if (!edge_ok(f, u, j)) continue;
                relax(f, u + off(f, j), s + (j < 4), g + (j >= 4));
            }
        }
    }
    b_reset_range(f);
    f->last_touched += popped;
    return ok;
}

/* The next-tile direction of cell i from its neighbours' distances. */
static int compute_dir(const tn_flow *f, int i)
{
    if (f->kind[i] == TN_FLOW_WALL) return TN_DIR_NONE;
    if (f->kind[i] == TN_FLOW_DEST) return TN_DIR_HERE;
    if (f->d[i] == TN_FLOW_FAR) return TN_DIR_NONE;
    const uint8_t *ord = ORDER[i & 1];
    int best = TN_DIR_NONE;
    if (!f->dd) {
        int32_t bd = TN_FLOW_FAR;
        for (int k = 0; k < 4; k++) {
            int j = ord[k], n = i + off(f, j);
            if (f->kind[n] == TN_FLOW_WALL) continue;
            if (f->d[n] < bd) {
                bd = f->d[n];
                best = j;
            }
        }
        return best;
    }
    /* The first neighbour in order one exact step closer. */
    const int32_t s = f->d[i], g = f->dd[i];
    for (int k = 0; k < 8; k++) {
        int j = ord[k];
        if (!edge_ok(f, i, j)) continue;
        int n = i + off(f, j);
        if (f->d[n] == s - (j < 4) && f->dd[n] == g - (j >= 4)) return j;
    }
    return best;
}

/* ---- creation ---- */

tn_status tn_flow_create(int w, int h, int connectivity, const tn_allocator *a,
                         tn_flow **out, tn_error *err)
{
    if (out) *out = NULL;
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "flow: no output pointer");
    if (w < 1 || h < 1 || w > TN_MAP_MAX_SIZE || h > TN_MAP_MAX_SIZE)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: board size %dx%d is outside 1..%d", w, h, TN_MAP_MAX_SIZE);
    if (connectivity != 4 && connectivity != 8)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: connectivity %d is neither 4 nor 8", connectivity);
    tn_flow *f = tn_alloc(a, sizeof *f);
    if (!f) goto oom;
    if (a) f->alloc = *a;
    f->w = w;
    f->h = h;
    f->connectivity = connectivity;
    f->stride = (w + 2) | 1;
    f->npad = f->stride * (h + 2);
    size_t n = (size_t)f->npad;
    /* The largest key: every open cell on a path, each step <= sqrt(2). */
    f->kcap = (int)((double)n * (connectivity == 8 ? SQRT2 : 1.0)) + 2;
    f->kind = tn_alloc(a, n);
    f->dir = tn_alloc(a, n);
    f->d = tn_alloc_array(a, n, sizeof(int32_t));
    if (connectivity == 8) {
        f->dd = tn_alloc_array(a, n, sizeof(int32_t));
        f->dv = tn_alloc_array(a, n, sizeof(double));
    }
    for (int j = 0; j < 8; j++) f->off[j] = tn_dir_dy[j] * f->stride + tn_dir_dx[j];
    f->q = tn_alloc_array(a, n, sizeof(int32_t));
    f->list = tn_alloc_array(a, n, sizeof(int32_t));
    f->bnext = tn_alloc_array(a, n, sizeof(int32_t));
    f->bprev = tn_alloc_array(a, n, sizeof(int32_t));
    f->bhead = tn_alloc_array(a, (size_t)f->kcap, sizeof(int32_t));
    f->stamp = tn_alloc_array(a, n, sizeof(uint32_t));
    if (!f->kind || !f->dir || !f->d || (connectivity == 8 && (!f->dd || !f->dv)) || !f->q || !f->list ||
        !f->bnext || !f->bprev || !f->bhead || !f->stamp) {
        tn_flow_destroy(f);
        goto oom;
    }
    /* kind[] is zero = WALL everywhere. */
    memset(f->dir, TN_DIR_NONE, n);
    for (size_t i = 0; i < n; i++) {
        set_d(f, (int)i, WALLD, 0);
        f->bprev[i] = -2;
    }
    for (int k = 0; k < f->kcap; k++) f->bhead[k] = -1;
    b_reset_range(f);
    *out = f;
    return TN_OK;
oom:
    return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                        "flow: out of memory for a %dx%d board", w, h);
}

void tn_flow_destroy(tn_flow *f)
{
    if (!f) return;
    tn_allocator a = f->alloc;
    tn_free(&a, f->kind);
    tn_free(&a, f->dir);
    tn_free(&a, f->d);
    tn_free(&a, f->dd);
    tn_free(&a, f->dv);
    tn_free(&a, f->q);
    tn_free(&a, f->list);
    tn_free(&a, f->bnext);
    tn_free(&a, f->bprev);
    tn_free(&a, f->bhead);
    tn_free(&a, f->stamp);
    tn_free(&a, f);
}

int tn_flow_kind(const tn_map *m, int x, int y)
{
    int t = tn_map_tile(m, x, y);
    if (t == TN_TILE_BLOCK) return TN_FLOW_WALL;
    if (t == TN_TILE_EMPTY && tn_map_mark(m, x, y) == TN_MARK_DEST) return TN_FLOW_DEST;
    return TN_FLOW_OPEN;
}

/* A fresh generation of stamps: values gen+1..gen+3 are this operation's. */
static void next_gen(tn_flow *f)
{
    if (f->gen > UINT32_MAX - 8) {
        memset(f->stamp, 0, (size_t)f->npad * sizeof(uint32_t));
        f->gen = 0;
    }
    f->gen += 4;
}

/* ---- full rebuild ---- */

/* 4-connected: breadth-first search with a FIFO; the direction of each cell
 * is fixed when it is popped (every cell one step closer is known by then):
 * the first neighbour, in the cell's checkerboard order, at distance - 1,
 * looked up from the 4-bit mask of such neighbours.  Discovery is written
 * branch-free (conditional moves): on a random board "already seen?" is a
 * coin flip, and a misprediction per neighbour would cost more than the
 * whole visit.  Expects d[] initialised (WALLD / 0 / FAR) and the
 * destinations in q[0..tail). */
static const uint8_t FIRST_BACK[2][16] = {
    /* mask bits: 1 = N, 2 = S, 4 = E, 8 = W */
    {TN_DIR_NONE, TN_DIR_N, TN_DIR_S, TN_DIR_N, TN_DIR_E, TN_DIR_N, TN_DIR_S, TN_DIR_N,
     TN_DIR_W, TN_DIR_N, TN_DIR_S, TN_DIR_N, TN_DIR_E, TN_DIR_N, TN_DIR_S, TN_DIR_N},
    {TN_DIR_NONE, TN_DIR_N, TN_DIR_S, TN_DIR_S, TN_DIR_E, TN_DIR_E, TN_DIR_E, TN_DIR_E,
     TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W},
};

static void bfs_run(tn_flow *f, int ntail)
{
    const long S = f->stride;
    int32_t *restrict d = f->d, *restrict q = f->q;
    uint8_t *restrict dir = f->dir;
    long head = 0, tail = ntail;
    while (head < tail) {
        /* The queue says which rows come next: fetch them early (on a
         * 1024x1024 board the wavefront's rows do not stay in L2). */
        if (head + BFS_PREFETCH_AHEAD < tail) {
            const long a = q[head + BFS_PREFETCH_AHEAD];
            TN_PREFETCH_W(&d[a - S]);
            TN_PREFETCH_W(&d[a + S]);
        }
        const long c = q[head++];
        const int32_t dc = d[c], dn = dc + 1, dp = dc - 1;
        unsigned back = 0;
        /* A seen neighbour holds at most dc + 1 (or -1, a wall), an unseen
         * one FAR: min(v, dn) writes dn exactly into the unseen ones. */
#define TN_VISIT(o, bit)                              \
        do {                                          \
            const long nb = c + (o);                  \
            const int32_t v = d[nb];                  \
            d[nb] = v < dn ? v : dn;                  \
            q[tail] = (int32_t)nb;                    \
            tail += v > dn;                           \
            back |= (unsigned)(v == dp) << (bit);     \
        } while (0)
        TN_VISIT(-S, 0);
        TN_VISIT(S, 1);
        TN_VISIT(1, 2);
        TN_VISIT(-1, 3);
#undef TN_VISIT
        dir[c] = dc == 0 ? (uint8_t)TN_DIR_HERE : FIRST_BACK[c & 1][back];
    }
    f->last_touched = tail;
}

/* d[], dir[] and the seed queue from kind[] alone. */
static void rebuild_bfs(tn_flow *f)
{
    const int n = f->npad;
    int tail = 0;
    for (int i = 0; i < n; i++) {
        int k = f->kind[i];
        f->d[i] = k == TN_FLOW_WALL ? WALLD : k == TN_FLOW_DEST ? 0 : TN_FLOW_FAR;
        f->dir[i] = TN_DIR_NONE;
        if (k == TN_FLOW_DEST) f->q[tail++] = i;
    }
    bfs_run(f, tail);
}

/* 8-connected: Dial's algorithm from every destination.  A popped cell is
 * final (every neighbour one step closer was popped before: steps cost >= 1
 * = the bucket width), so its direction is fixed right then, by exact pair
 * equality, and the 8 neighbours' openness is read once per cell. */
static void rebuild_dial(tn_flow *f)
{
    const int n = f->npad;
    const uint8_t *restrict kind = f->kind;
    uint8_t *restrict dir = f->dir;
    int32_t *restrict d = f->d, *restrict dd = f->dd;
    double *restrict dv = f->dv;
    int o[8];
    for (int j = 0; j < 8; j++) o[j] = f->off[j];
    b_reset_range(f);
    for (int i = 0; i < n; i++) {
        int k = kind[i];
        set_d(f, i, k == TN_FLOW_WALL ? WALLD : k == TN_FLOW_DEST ? 0 : TN_FLOW_FAR, 0);
        dir[i] = k == TN_FLOW_DEST ? TN_DIR_HERE : TN_DIR_NONE;
        if (k == TN_FLOW_DEST) b_insert(f, i, 0);
    }
    long popped = 0;
    for (int k = f->kmin; k <= f->kmax; k++) {
        int u;
        while ((u = f->bhead[k]) >= 0) {
            b_remove(f, u, k);
            popped++;
            const int32_t s = d[u], g = dd[u];
            /* Straight neighbours are open unless walls (d = -1); a diagonal
             * also needs both straight neighbours it passes between open.
             * Walls never relax (dv = -1) nor match a distance (d = -1). */
            unsigned ok = 0x0f;
            const bool on = d[u + o[TN_DIR_N]] >= 0, os = d[u + o[TN_DIR_S]] >= 0;
            const bool oe = d[u + o[TN_DIR_E]] >= 0, ow = d[u + o[TN_DIR_W]] >= 0;
            ok |= (unsigned)(on && oe) << TN_DIR_NE | (unsigned)(on && ow) << TN_DIR_NW |
                  (unsigned)(os && oe) << TN_DIR_SE | (unsigned)(os && ow) << TN_DIR_SW;
            if (kind[u] != TN_FLOW_DEST) {
                const uint8_t *ord = ORDER[u & 1];
                for (int k2 = 0; k2 < 8; k2++) {
                    const int j = ord[k2], nb = u + o[j];
                    if ((ok >> j & 1u) && d[nb] == s - (j < 4) && dd[nb] == g - (j >= 4)) {
                        dir[u] = (uint8_t)j;
                        break;
                    }
                }
            }
            /* Canonical values: a function of the (straight, diagonal) pair. */
            const double vs = (double)(s + 1) + (double)g * SQRT2;
            const double vg = (double)s + (double)(g + 1) * SQRT2;
            for (int j = 0; j < 8; j++) {
                const int nb = u + o[j];
                const double cand = j < 4 ? vs : vg;
                if (!(cand < dv[nb]) || !(ok >> j & 1u)) continue;
                if (b_member(f, nb)) b_remove(f, nb, (int)dv[nb]);
                d[nb] = s + (j < 4);
                dd[nb] = g + (j >= 4);
                dv[nb] = cand;
                b_insert(f, nb, (int)cand);
            }
        }
    }
    b_reset_range(f);
    f->last_touched = popped;
}

static void rebuild_from_kinds(tn_flow *f)
{
    if (f->dd) rebuild_dial(f);
    else rebuild_bfs(f);
    f->last_full = true;
}

tn_status tn_flow_rebuild(tn_flow *f, const tn_map *m)
{
    if (!f || !m || m->w != f->w || m->h != f->h) return TN_FAILURE | TN_INVALID_PARAM;
    /* One pass over the map sets the kinds and, for the 4-connected search,
     * the initial distances and the seed queue too. */
    int tail = 0;
    const int w = f->w;
    for (int y = 0; y < f->h; y++) {
        int base = tn_flow_index(f, 0, y);
        uint8_t *restrict row = f->kind + base, *restrict drow = f->dir + base;
        int32_t *restrict d = f->d + base;
        const uint8_t *restrict t = m->tile + (size_t)y * (size_t)m->w;
        const uint8_t *restrict mk = m->mark + (size_t)y * (size_t)m->w;
        /* Arithmetic only, so the compiler can vectorise it... */
        for (int x = 0; x < w; x++) {
            const uint32_t wall = t[x] == TN_TILE_BLOCK;
            const uint32_t dest = (uint32_t)(t[x] == TN_TILE_EMPTY) & (uint32_t)(mk[x] == TN_MARK_DEST);
            row[x] = (uint8_t)((1u - wall) + dest); /* WALL 0, OPEN 1, DEST 2 */
            /* wall -> -1 (all ones), open -> FAR (0x7fffffff), dest -> 0 */
            d[x] = (int32_t)((0u - (1u - dest)) & (0x7fffffffu | wall << 31));
            drow[x] = TN_DIR_NONE;
        }
        /* ...and the (few) destinations found apart. */
        if (memchr(row, TN_FLOW_DEST, (size_t)w))
            for (int x = 0; x < w; x++)
                if (row[x] == TN_FLOW_DEST) f->q[tail++] = base + x;
    }
    f->last_full = true;
    if (f->dd) rebuild_dial(f);
    else bfs_run(f, tail);
    return TN_OK;
}

/* ---- incremental update ---- */

/* Is cell v (open, finite) still supported by a neighbour that is not
 * invalidated (stamp gen+2) through an edge of the current graph? */
static bool supported(const tn_flow *f, int v)
{
    if (f->kind[v] == TN_FLOW_DEST) return true;
    int32_t s = f->d[v], g = f->dd ? f->dd[v] : 0;
    for (int j = 0; j < f->connectivity; j++) {
        if (!edge_ok(f, v, j)) continue;
        int u = v + off(f, j);
        if (f->stamp[u] == f->gen + 2 || f->d[u] == TN_FLOW_FAR) continue;
        if (f->d[u] == s - (j < 4) && (!f->dd || f->dd[u] == g - (j >= 4))) return true;
    }
    return false;
}

/* Invalidation after a change that can only lengthen distances, with the
 * new kinds already in place around cell c.  Visits cells in increasing old
 * distance from the 3x3 block around c; a cell without support is stamped
 * gen+2 and appended to f->list.  Distances are left untouched.  Returns the
 * number invalidated, or -1 when it passed `budget`. */
static int invalidate(tn_flow *f, int c, long budget)
{
    const int S = f->stride, nd = f->connectivity;
    int n = 0;
    b_reset_range(f);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int v = c + dy * S + dx;
            if (!open_at(f, v) || f->d[v] == TN_FLOW_FAR || f->d[v] < 0) continue;
            if (f->stamp[v] == f->gen + 1) continue;
            f->stamp[v] = f->gen + 1; /* queued */
            b_insert(f, v, key_of(f, v));
        }
    bool over = false;
    for (int k = f->kmin; k <= f->kmax; k++) {
        int v;
        while ((v = f->bhead[k]) >= 0) {
            b_remove(f, v, k);
            if (over || supported(f, v)) continue;
            if (n >= budget) {
                over = true;
                continue;
            }
            f->stamp[v] = f->gen + 2; /* invalid */
            f->list[n++] = v;
            int32_t s = f->d[v], g = f->dd ? f->dd[v] : 0;
            for (int j = 0; j < nd; j++) {
                if (!edge_ok(f, v, j)) continue;
                int w = v + off(f, j);
                if (f->stamp[w] == f->gen + 1 || f->stamp[w] == f->gen + 2) continue;
                if (f->kind[w] == TN_FLOW_DEST || f->d[w] == TN_FLOW_FAR) continue;
                if (f->d[w] == s + (j < 4) && (!f->dd || f->dd[w] == g + (j >= 4))) {
                    f->stamp[w] = f->gen + 1;
                    b_insert(f, w, key_of(f, w));
                }
            }
        }
    }
    b_reset_range(f);
    return over ? -1 : n;
}

/* Recompute the directions of the listed cells and their neighbours. */
static void fix_dirs(tn_flow *f, int n)
{
    const int S = f->stride;
    for (int t = 0; t < n; t++) {
        int c = f->list[t];
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int v = c + dy * S + dx;
                f->dir[v] = (uint8_t)compute_dir(f, v);
            }
    }
}

/* The affected region past which a full rebuild is cheaper. */
static long update_budget(const tn_flow *f) { return f->npad / 8 + 64; }

tn_status tn_flow_set_kind(tn_flow *f, int x, int y, int kind)
{
    if (!f || x < 0 || y < 0 || x >= f->w || y >= f->h || kind < TN_FLOW_WALL ||
        kind > TN_FLOW_DEST)
        return TN_FAILURE | TN_INVALID_PARAM;
    const int c = tn_flow_index(f, x, y), S = f->stride;
    const int old = f->kind[c];
    f->last_touched = 0;
    f->last_full = false;
    if (old == kind) return TN_OK;
    f->kind[c] = (uint8_t)kind;
    next_gen(f);
    /* WALL->OPEN, WALL->DEST and OPEN->DEST only shorten distances (edges or
     * a source are added); the reverse ones only lengthen them. */
    bool shorter = old == TN_FLOW_WALL || kind == TN_FLOW_DEST;
    int nlist = 0;
    if (shorter) {
        if (old == TN_FLOW_WALL) set_d(f, c, TN_FLOW_FAR, 0);
        b_reset_range(f);
        if (kind == TN_FLOW_DEST) relax(f, c, 0, 0);
        /* Every changed edge has both ends in the 3x3 block: re-relax it. */
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int u = c + dy * S + dx;
                if (!open_at(f, u) || f->d[u] == TN_FLOW_FAR) continue;
                int32_t s = f->d[u], g = f->dd ? f->dd[u] : 0;
                for (int j = 0; j < f->connectivity; j++)
                    if (edge_ok(f, u, j)) relax(f, u + off(f, j), s + (j < 4), g + (j >= 4));
            }
        if (!propagate(f, true, &nlist, update_budget(f))) {
            rebuild_from_kinds(f);
            return TN_OK;
        }
    } else {
        if (kind == TN_FLOW_WALL) set_d(f, c, WALLD, 0);
        int ni = invalidate(f, c, update_budget(f));
        if (ni < 0) {
            rebuild_from_kinds(f);
            return TN_OK;
        }
        /* Re-seed every invalidated cell from its valid neighbours. */
        for (int t = 0; t < ni; t++) {
            set_d(f, f->list[t], TN_FLOW_FAR, 0);
        }
        b_reset_range(f);
        for (int t = 0; t < ni; t++) {
            int v = f->list[t];
            for (int j = 0; j < f->connectivity; j++) {
                if (!edge_ok(f, v, j)) continue;
                int u = v + off(f, j);
                if (f->stamp[u] == f->gen + 2 || f->d[u] == TN_FLOW_FAR) continue;
                relax(f, v, f->d[u] + (j < 4), (f->dd ? f->dd[u] : 0) + (j >= 4));
            }
        }
        nlist = ni;
        f->last_touched = ni;
        /* Only invalidated cells can improve (valid ones are optimal). */
        int dummy = 0;
        propagate(f, false, &dummy, (long)f->npad + 1);
        f->last_touched = ni;
    }
    f->list[nlist++] = c;
    fix_dirs(f, nlist);
    return TN_OK;
}

tn_status tn_flow_update(tn_flow *f, const tn_map *m, int x, int y)
{
    if (!f || !m || m->w != f->w || m->h != f->h || !tn_map_inside(m, x, y))
        return TN_FAILURE | TN_INVALID_PARAM;
    return tn_flow_set_kind(f, x, y, tn_flow_kind(m, x, y));
}

/* ---- what-if ---- */

int tn_flow_whatif(tn_flow *f, int x, int y, int kind, const int32_t *tiles, int n, int *first)
{
    if (first) *first = -1;
    if (!f || x < 0 || y < 0 || x >= f->w || y >= f->h || kind < TN_FLOW_WALL ||
        kind > TN_FLOW_DEST || n < 0 || (n > 0 && !tiles))
        return -1;
    const int c = tn_flow_index(f, x, y);
    const int old = f->kind[c];
    if (old == kind || old == TN_FLOW_WALL || kind == TN_FLOW_DEST) return 0; /* only shorter */
    /* Try the change in place, undo it before returning. */
    const int32_t saved_s = f->d[c], saved_g = f->dd ? f->dd[c] : 0;
    f->kind[c] = (uint8_t)kind;
    if (kind == TN_FLOW_WALL) set_d(f, c, WALLD, 0);
    next_gen(f);
    int ni = invalidate(f, c, (long)f->npad + 1);
    /* Flood the invalidated region from its cells next to a valid one:
     * whatever it reaches still has a path (stamp gen+3). */
    int head = 0, tail = 0;
    for (int t = 0; t < ni; t++) {
        int v = f->list[t];
        for (int j = 0; j < f->connectivity; j++) {
            if (!edge_ok(f, v, j)) continue;
            int u = v + off(f, j);
            if (f->stamp[u] == f->gen + 2 || f->stamp[u] == f->gen + 3) continue;
            if (f->d[u] == TN_FLOW_FAR || f->d[u] < 0) continue;
            f->stamp[v] = f->gen + 3;
            f->q[tail++] = v;
            break;
        }
    }
    while (head < tail) {
        int v = f->q[head++];
        for (int j = 0; j < f->connectivity; j++) {
            if (!edge_ok(f, v, j)) continue;
            int u = v + off(f, j);
            if (f->stamp[u] != f->gen + 2) continue;
            f->stamp[u] = f->gen + 3;
            f->q[tail++] = u;
        }
    }
    f->kind[c] = (uint8_t)old;
    set_d(f, c, saved_s, saved_g);
    int lost = 0;
    for (int t = 0; t < n; t++) {
        int32_t ti = tiles[t];
        if (ti < 0 || ti >= f->w * f->h) continue;
        int tx = ti % f->w, ty = ti / f->w;
        if (tx == x && ty == y) continue;
        if (f->stamp[tn_flow_index(f, tx, ty)] == f->gen + 2) {
            if (lost == 0 && first) *first = t;
            lost++;
        }
    }
    return lost;
}

/* ---- queries ---- */

double tn_flow_dist(const tn_flow *f, int x, int y)
{
    if (x < 0 || y < 0 || x >= f->w || y >= f->h) return -1.0;
    int i = tn_flow_index(f, x, y);
    if (f->kind[i] == TN_FLOW_WALL || f->d[i] == TN_FLOW_FAR) return -1.0;
    return val(f, i);
}

bool tn_flow_steps(const tn_flow *f, int x, int y, int *straight, int *diagonal)
{
    if (x < 0 || y < 0 || x >= f->w || y >= f->h) return false;
    int i = tn_flow_index(f, x, y);
    if (f->kind[i] == TN_FLOW_WALL || f->d[i] == TN_FLOW_FAR) return false;
    if (straight) *straight = f->d[i];
    if (diagonal) *diagonal = f->dd ? f->dd[i] : 0;
    return true;
}

bool tn_flow_exit(const tn_flow *f, int x, int y, float *ex, float *ey)
{
    int dir = tn_flow_dir(f, x, y);
    float cx = (float)x + 0.5f, cy = (float)y + 0.5f;
    bool moves = dir < TN_DIR_HERE;
    if (moves) {
        cx += 0.5f * (float)tn_dir_dx[dir];
        cy += 0.5f * (float)tn_dir_dy[dir];
    }
    if (ex) *ex = cx;
    if (ey) *ey = cy;
    return moves;
}
