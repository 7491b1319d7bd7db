/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_flow.h"
#include "internal/memcount.h"

#include <math.h>
#include <string.h>

const int8_t tn_dir_dx[10] = {0, 0, 1, -1, 1, -1, 1, -1, 0, 0};
const int8_t tn_dir_dy[10] = {-1, 1, 0, 0, -1, -1, 1, 1, 0, 0};

#define SQRT2 1.41421356237309504880

/* A block of 16x8 tiles of the 4-connected rebuild (see rebuild_bfs);
 * 128-bit masks as two uint64_t: rows 0-3, rows 4-7 (bit 16*row + col). */
#define LVL_PLANES 5
#define LVL_SPAN (1 << LVL_PLANES)

struct tn_flow_block { /* what a block's settling writes: 128 bytes */
    int32_t base;      /* level first reached; INT32_MAX before */
    int32_t unused[3];
    uint64_t lvl[LVL_PLANES][2]; /* plane p: bit p of (distance - base) */
    uint64_t dir[2][2];          /* bit 0 and bit 1 of the direction code */
};
struct tn_flow_bmap {          /* the map's bits, and the search's exceptions */
    uint64_t open[2], dest[2]; /* open tiles, destinations */
    uint64_t done[2];          /* tiles whose distance went straight to d[] */
};
/* What the search reads of a block and its neighbours. */
struct tn_flow_bfs {
    uint64_t free[2];     /* open tiles not reached yet */
    uint64_t front[2][2]; /* tiles reached at the last two levels, by parity */
    int32_t stamp;        /* the level whose candidate list holds the block */
    int32_t unused[3];    /* (64 bytes: cheap to index) */
};

#define WALLD (-1) /* d[] of a wall: never equal to any distance - 1 */

/* Directions, in TN_DIR_* order, as index offsets are f->off[]; the search
 * order per checkerboard parity (see the header). */
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
static inline double val(const tn_flow *f, int i) { return f->dv ? f->dv[i] : val2(f->d[i], 0); }
/* Bucket of a cell with a finite distance (>= 0, so truncation = floor). */
static inline int key_of(const tn_flow *f, int i) { return f->dv ? (int)f->dv[i] : f->d[i]; }
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
    if (p >= 0)
        f->bnext[p] = n;
    else
        f->bhead[k] = n;
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

size_t tn_flow_memory(const tn_flow *f) { return f ? f->mem : 0; }

tn_status tn_flow_create(int w, int h, int connectivity, const tn_allocator *a, tn_flow **out,
                         tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (out) *out = NULL;
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "flow: no output pointer");
    if (w < 1 || h < 1 || w > TN_MAP_MAX_SIZE || h > TN_MAP_MAX_SIZE)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: board size %dx%d is outside 1..%d", w, h, TN_MAP_MAX_SIZE);
    if (connectivity != 4 && connectivity != 8)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: connectivity %d is neither 4 nor 8", connectivity);
    tn_memcount mc; /* (the field's memory: what its create allocated) */
    tn_allocator ca = tn_memcount_wrap(&mc, a);
    tn_flow *f = tn_alloc(&ca, sizeof *f);
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
    f->kind = tn_alloc(&ca, n);
    f->dir = tn_alloc(&ca, n);
    f->d = tn_alloc_array(&ca, n, sizeof(int32_t));
    if (connectivity == 8) {
        f->dd = tn_alloc_array(&ca, n, sizeof(int32_t));
        f->dv = tn_alloc_array(&ca, n, sizeof(double));
    }
    for (int j = 0; j < 8; j++) f->off[j] = tn_dir_dy[j] * f->stride + tn_dir_dx[j];
    f->q = tn_alloc_array(&ca, n, sizeof(int32_t));
    f->list = tn_alloc_array(&ca, n, sizeof(int32_t));
    f->bnext = tn_alloc_array(&ca, n, sizeof(int32_t));
    f->bprev = tn_alloc_array(&ca, n, sizeof(int32_t));
    f->bhead = tn_alloc_array(&ca, (size_t)f->kcap, sizeof(int32_t));
    f->stamp = tn_alloc_array(&ca, n, sizeof(uint32_t));
    bool blocks_ok = true;
    if (connectivity == 4) {
        f->bstride = (w + 15) / 16 + 2;
        f->nblk = f->bstride * ((h + 7) / 8 + 2);
        const size_t nb = (size_t)f->nblk;
        /* One block of memory, cut at cache-line boundaries: a block's
         * search state is one line, its settled bits two. */
        const size_t per =
            sizeof(struct tn_flow_bfs) + sizeof(struct tn_flow_block) + sizeof(struct tn_flow_bmap);
        f->bmem = nb <= (SIZE_MAX - 64) / per ? tn_alloc(&ca, nb * per + 64) : NULL;
        if (f->bmem) {
            uintptr_t p = ((uintptr_t)f->bmem + 63) & ~(uintptr_t)63;
            f->bfs = (struct tn_flow_bfs *)p;
            f->blk = (struct tn_flow_block *)(p + nb * sizeof(struct tn_flow_bfs));
            f->bmap = (struct tn_flow_bmap *)((uintptr_t)(f->blk + nb));
        }
        f->blist = tn_alloc_array(&ca, 4 * nb, sizeof(int32_t));
        /* tn_alloc zeroes: padding blocks stay empty for good. */
        blocks_ok = f->bmem && f->blist;
    }
    if (!f->kind || !f->dir || !f->d || (connectivity == 8 && (!f->dd || !f->dv)) || !f->q ||
        !f->list || !f->bnext || !f->bprev || !f->bhead || !f->stamp || !blocks_ok) {
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
    f->mem = mc.bytes;
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
    tn_free(&a, f->bmem);
    tn_free(&a, f->blist);
    tn_free(&a, f);
}

static inline int kind_of(int tile, int mark)
{
    if (tile == TN_TILE_BLOCK) return TN_FLOW_WALL;
    if (tile == TN_TILE_EMPTY && mark == TN_MARK_DEST) return TN_FLOW_DEST;
    return TN_FLOW_OPEN;
}

int tn_flow_kind(const tn_map *m, int x, int y)
{
    if (!m) return TN_FLOW_WALL; /* as outside the map */
    return kind_of(tn_map_tile(m, x, y), tn_map_mark(m, x, y));
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

/* ---- full rebuild: helpers ---- */

/* Eight bytes at a time. */

/* Byte j of the result is p[j], whatever the machine's byte order. */
static inline uint64_t load8(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}
static inline void store8(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}

#define BYTES_1 0x0101010101010101ull
#define BYTES_7F 0x7f7f7f7f7f7f7f7full

/* 1 in each byte of v equal to c, else 0. */
static inline uint64_t bytes_eq(uint64_t v, unsigned c)
{
    const uint64_t x = v ^ (BYTES_1 * c);
    return ~(((x & BYTES_7F) + BYTES_7F) | x) >> 7 & BYTES_1;
}

/* Kinds of 8 map tiles: WALL 0, OPEN 1, DEST 2 per byte. */
static inline uint64_t kinds8(uint64_t tile8, uint64_t mark8)
{
    const uint64_t wall = bytes_eq(tile8, TN_TILE_BLOCK);
    const uint64_t dest = bytes_eq(tile8, TN_TILE_EMPTY) & bytes_eq(mark8, TN_MARK_DEST);
    return BYTES_1 - wall + dest;
}

/* Kinds of one map row. */
static void kind_row(uint8_t *restrict kind, const uint8_t *restrict tile,
                     const uint8_t *restrict mark, int w)
{
    int x = 0;
    for (; x + 8 <= w; x += 8) store8(kind + x, kinds8(load8(tile + x), load8(mark + x)));
    for (; x < w; x++) kind[x] = (uint8_t)kind_of(tile[x], mark[x]);
}

static inline int ctz64(uint64_t v)
{
#if defined(__GNUC__)
    return __builtin_ctzll(v);
#else
    int n = 0;
    while (!(v & 1)) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}

static inline int popcount64(uint64_t v)
{
    v -= v >> 1 & 0x5555555555555555ull;
    v = (v & 0x3333333333333333ull) + (v >> 2 & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((v * BYTES_1) >> 56);
}

/* ---- full rebuild, 4-connected ----
 *
 * A level-synchronous breadth-first search on bits.  The board is cut into
 * blocks of 16x8 tiles, 128 bits each (bit 16*row + col), so one level moves
 * a block's whole frontier with a few shifts: inside the block, and across
 * its edges into the four neighbour blocks.  A level visits only its
 * candidate blocks (a list: the blocks that gained tiles at the previous
 * level, and the neighbours those tiles spill into); a candidate pulls its
 * new tiles from the previous frontier of itself and its four neighbours.
 * On the 1024x1024 benchmark board a block gains 5 tiles per visit on
 * average (8x8 blocks: 3.8; the wavefront, a diamond, crosses blocks
 * diagonally).  Each visit costs ~200 instructions whatever it gains, so
 * where the front stays thin (THIN_*: mazes, corridors) the search hands
 * over to a tile queue.
 *
 * The direction comes from the same bits: a new tile's neighbours one level
 * closer are exactly its neighbours in the previous frontier, so four masks
 * (the tile to the N, S, E, W is in it) give every tile's candidates, and
 * the checkerboard order picks one for all 128 tiles at once.  Codes N 0,
 * S 1, E 2, W 3 = bit0 | bit1 << 1; on tiles with x+y even (order N,S,E,W)
 * bit0 = !N & (S | !E) and bit1 = !N & !S, on odd ones (W,E,S,N) bit0 =
 * W | (!E & S) and bit1 = W | E.  A block's top-left tile has even x and y,
 * so its even tiles are the fixed pattern EVEN_TILES.
 *
 * Nothing is written per tile during the search (a scatter costs a cache
 * miss and a mispredicted loop exit per block and level): a block keeps its
 * distances as bit planes of (distance - base), base = the level it was
 * first reached at, and its directions as two bit planes, and one streaming
 * pass then writes d[] and dir[] row by row.  A tile reached LVL_SPAN or
 * more levels after its block's base (winding corridors) gets its distance
 * written at once and a bit in `done`.
 *
 * Blocks are 128-bit values: one SSE2 register where there is SSE2 (every
 * x86-64), two uint64_t elsewhere (rows 0-3, rows 4-7); in memory always
 * two uint64_t.  TN_FLOW_NO_SIMD forces the portable version (for tests). */

#if defined(__SSE2__) && !defined(TN_FLOW_NO_SIMD)
#include <emmintrin.h>
typedef __m128i v128;
static inline v128 v_load(const uint64_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
static inline void v_store(uint64_t *p, v128 v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
static inline v128 v_zero(void) { return _mm_setzero_si128(); }
static inline v128 v_or(v128 a, v128 b) { return _mm_or_si128(a, b); }
static inline v128 v_and(v128 a, v128 b) { return _mm_and_si128(a, b); }
static inline v128 v_andnot(v128 a, v128 b) { return _mm_andnot_si128(b, a); } /* a & ~b */
static inline v128 v_xor(v128 a, v128 b) { return _mm_xor_si128(a, b); }
static inline v128 v_down(v128 v) { return _mm_slli_si128(v, 2); }  /* row r -> r + 1 */
static inline v128 v_up(v128 v) { return _mm_srli_si128(v, 2); }    /* row r -> r - 1 */
static inline v128 v_right(v128 v) { return _mm_slli_epi16(v, 1); } /* col c -> c + 1 */
static inline v128 v_left(v128 v) { return _mm_srli_epi16(v, 1); }  /* col c -> c - 1 */
static inline v128 v_row0_to7(v128 v) { return _mm_slli_si128(v, 14); }
static inline v128 v_row7_to0(v128 v) { return _mm_srli_si128(v, 14); }
static inline v128 v_col0_to15(v128 v) { return _mm_slli_epi16(v, 15); }
static inline v128 v_col15_to0(v128 v) { return _mm_srli_epi16(v, 15); }
static inline bool v_any(v128 v)
{
    return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) != 0xffff;
}
#else
typedef struct v128 {
    uint64_t lo, hi;
} v128;
static inline v128 v_make(uint64_t lo, uint64_t hi)
{
    v128 v = {lo, hi};
    return v;
}
static inline v128 v_load(const uint64_t *p) { return v_make(p[0], p[1]); }
static inline void v_store(uint64_t *p, v128 v) { p[0] = v.lo, p[1] = v.hi; }
static inline v128 v_zero(void) { return v_make(0, 0); }
static inline v128 v_or(v128 a, v128 b) { return v_make(a.lo | b.lo, a.hi | b.hi); }
static inline v128 v_and(v128 a, v128 b) { return v_make(a.lo & b.lo, a.hi & b.hi); }
static inline v128 v_andnot(v128 a, v128 b) { return v_make(a.lo & ~b.lo, a.hi & ~b.hi); }
static inline v128 v_xor(v128 a, v128 b) { return v_make(a.lo ^ b.lo, a.hi ^ b.hi); }
static inline v128 v_down(v128 v) { return v_make(v.lo << 16, v.hi << 16 | v.lo >> 48); }
static inline v128 v_up(v128 v) { return v_make(v.lo >> 16 | v.hi << 48, v.hi >> 16); }
#define NOT_COL0 0xfffefffefffefffeull
#define NOT_COL15 0x7fff7fff7fff7fffull
#define COL0_BITS 0x0001000100010001ull
static inline v128 v_right(v128 v) { return v_make(v.lo << 1 & NOT_COL0, v.hi << 1 & NOT_COL0); }
static inline v128 v_left(v128 v) { return v_make(v.lo >> 1 & NOT_COL15, v.hi >> 1 & NOT_COL15); }
static inline v128 v_row0_to7(v128 v) { return v_make(0, v.lo << 48); }
static inline v128 v_row7_to0(v128 v) { return v_make(v.hi >> 48, 0); }
static inline v128 v_col0_to15(v128 v)
{
    return v_make((v.lo & COL0_BITS) << 15, (v.hi & COL0_BITS) << 15);
}
static inline v128 v_col15_to0(v128 v)
{
    return v_make(v.lo >> 15 & COL0_BITS, v.hi >> 15 & COL0_BITS);
}
static inline bool v_any(v128 v) { return (v.lo | v.hi) != 0; }
#endif

#define EVEN_TILES 0xaaaa5555aaaa5555ull /* (row + col) even, both halves */

/* Row r (0..7, 16 bits) of a block stored as two uint64_t. */
static inline unsigned row16(const uint64_t *v, int r)
{
    return (unsigned)(v[r >> 2] >> (16 * (r & 3)) & 0xffff);
}

/* PLANE_MASK[off][p]: all ones in both halves when bit p of off is set. */
#define PM1(o, p)                                                  \
    {                                                              \
        0 - (uint64_t)((o) >> (p)&1), 0 - (uint64_t)((o) >> (p)&1) \
    }
#define PM(o)                                                                           \
    {                                                                                   \
        PM1(o, 0), PM1(o, 1), PM1(o, 2), PM1(o, 3), PM1(o, 4), {0, 0}, {0, 0}, { 0, 0 } \
    }
#define PM4(o) PM(o), PM((o) + 1), PM((o) + 2), PM((o) + 3)
static const uint64_t PLANE_MASK[1 << LVL_PLANES][8][2] = {
    /* rows of 128 bytes */
    PM4(0), PM4(4), PM4(8), PM4(12), PM4(16), PM4(20), PM4(24), PM4(28),
};

/* Put block b (at c) on the next level's candidate list (once: stamp) if
 * `spill` reaches one of its free tiles.  Branch-free: on a random board
 * either outcome is a coin flip. */
static inline int enlist(struct tn_flow_bfs *c, long b, int32_t *restrict next, int nn, v128 spill,
                         int32_t level)
{
    const int32_t s = c->stamp;
    const int add = (int)v_any(v_and(spill, v_load(c->free))) & (int)(s != level);
    c->stamp = add ? level : s;
    next[nn] = (int32_t)b;
    return nn + add;
}

/* Tiles of block b reached LVL_SPAN or more levels after its base. */
static void settle_far(tn_flow *f, long b, v128 N, int32_t level)
{
    const int bx = (int)(b % f->bstride) - 1, by = (int)(b / f->bstride) - 1;
    uint64_t bits[2];
    v_store(bits, N);
    for (int h = 0; h < 2; h++)
        for (uint64_t m = bits[h]; m; m &= m - 1) {
            const int t = 64 * h + ctz64(m);
            f->d[tn_flow_index(f, 16 * bx + (t & 15), 8 * by + (t >> 4))] = level;
        }
    f->bmap[b].done[0] |= bits[0];
    f->bmap[b].done[1] |= bits[1];
}

/* Thin fronts: a level that visits few blocks, each gaining under 3 tiles,
 * costs more in bits (~200 instructions a block) than tile by tile (~90 a
 * tile).  After THIN_LEVELS such levels in a row (a winding corridor, a
 * maze) the search hands its frontier over to the queue of bfs_run. */
#define THIN_BLOCKS 8
#define THIN_LEVELS 64

/* The search, from the level-0 frontier (the destinations) with the first
 * candidates in blist[0..ncand) stamped 1.  Each level runs in two loops
 * (fewer live values each): settle the candidates, then list the next
 * level's from the blocks settled.  Returns 0 when done, or the level whose
 * frontier it hands over: its blocks are blist[2 * nblk ..][0..*nfront). */
static int32_t bfs_blocks(tn_flow *f, int ncand, int *nfront)
{
    const long BS = f->bstride;
    struct tn_flow_bfs *restrict bfs = f->bfs;
    struct tn_flow_block *restrict blk = f->blk;
    int32_t *cand = f->blist, *next = f->blist + f->nblk, *settled = f->blist + 2 * (size_t)f->nblk;
    int32_t *stale = f->blist + 3 * (size_t)f->nblk;
    const v128 even = v_load((const uint64_t[2]){EVEN_TILES, EVEN_TILES});
    const v128 ones = v_load((const uint64_t[2]){~0ull, ~0ull});
    int thin = 0;
    for (int32_t level = 1; ncand > 0; level++) {
        const int pp = (level - 1) & 1, pn = level & 1; /* front[] of the last level, this one */
        int ns = 0, nstale = 0;
        for (int k = 0; k < ncand; k++) {
            const long b = cand[k];
            struct tn_flow_bfs *c = bfs + b;
            const v128 P = v_load(c->front[pp]);
            const v128 fromn = v_or(v_down(P), v_row7_to0(v_load(c[-BS].front[pp])));
            const v128 froms = v_or(v_up(P), v_row0_to7(v_load(c[BS].front[pp])));
            const v128 frome = v_or(v_left(P), v_col0_to15(v_load(c[1].front[pp])));
            const v128 fromw = v_or(v_right(P), v_col15_to0(v_load(c[-1].front[pp])));
            const v128 free = v_load(c->free);
            const v128 N = v_and(v_or(v_or(fromn, froms), v_or(frome, fromw)), free);
            if (!v_any(N)) { /* the front has left this block: its last one goes */
                stale[nstale++] = (int32_t)b;
                continue;
            }
            v_store(c->free, v_andnot(free, N));
            v_store(c->front[pn], N);
            settled[ns++] = (int32_t)b;
            /* Directions: both rules, then each tile takes its parity's. */
            struct tn_flow_block *B = &blk[b];
            const v128 bit0_even = v_xor(v_or(fromn, v_andnot(frome, froms)), ones);
            const v128 bit0_odd = v_or(fromw, v_andnot(froms, frome));
            const v128 bit1_even = v_xor(v_or(fromn, froms), ones);
            const v128 bit1_odd = v_or(fromw, frome);
            const v128 bit0 = v_xor(bit0_odd, v_and(v_xor(bit0_even, bit0_odd), even));
            const v128 bit1 = v_xor(bit1_odd, v_and(v_xor(bit1_even, bit1_odd), even));
            v_store(B->dir[0], v_or(v_load(B->dir[0]), v_and(N, bit0)));
            v_store(B->dir[1], v_or(v_load(B->dir[1]), v_and(N, bit1)));
            /* Distance: bit planes of level - base. */
            if (B->base > level) B->base = level;
            const uint32_t off = (uint32_t)(level - B->base);
            if (off < LVL_SPAN) {
                const uint64_t(*pm)[2] = PLANE_MASK[off];
                v_store(B->lvl[0], v_or(v_load(B->lvl[0]), v_and(N, v_load(pm[0]))));
                v_store(B->lvl[1], v_or(v_load(B->lvl[1]), v_and(N, v_load(pm[1]))));
                v_store(B->lvl[2], v_or(v_load(B->lvl[2]), v_and(N, v_load(pm[2]))));
                v_store(B->lvl[3], v_or(v_load(B->lvl[3]), v_and(N, v_load(pm[3]))));
                v_store(B->lvl[4], v_or(v_load(B->lvl[4]), v_and(N, v_load(pm[4]))));
            } else {
                settle_far(f, b, N, level);
            }
        }
        /* Every block with a frontier at level - 1 was a candidate: the
         * settled ones clear it below, the others now. */
        for (int k = 0; k < nstale; k++) v_store(bfs[stale[k]].front[pp], v_zero());
        if (ns <= THIN_BLOCKS) {
            int tiles = 0;
            for (int k = 0; k < ns; k++) {
                const uint64_t *N = bfs[settled[k]].front[pn];
                tiles += popcount64(N[0]) + popcount64(N[1]);
            }
            thin = ns > 0 && tiles < 3 * ns ? thin + 1 : 0;
            if (thin >= THIN_LEVELS) {
                *nfront = ns;
                return level;
            }
        } else {
            thin = 0;
        }
        /* The next level's candidates: each block settled (always, so that
         * its frontier gets cleared) and the neighbours it spills into. */
        const int32_t nl = level + 1;
        int nn = 0;
        for (int k = 0; k < ns; k++) {
            const long b = settled[k];
            struct tn_flow_bfs *c = bfs + b;
            const v128 N = v_load(c->front[pn]);
            v_store(c->front[pp], v_zero());
            const int32_t s = c->stamp;
            c->stamp = nl;
            next[nn] = (int32_t)b;
            nn += s != nl;
            nn = enlist(c - BS, b - BS, next, nn, v_row0_to7(N), nl);
            nn = enlist(c + BS, b + BS, next, nn, v_row7_to0(N), nl);
            nn = enlist(c + 1, b + 1, next, nn, v_col15_to0(N), nl);
            nn = enlist(c - 1, b - 1, next, nn, v_col0_to15(N), nl);
        }
        int32_t *t = cand;
        cand = next;
        next = t;
        ncand = nn;
    }
    return 0;
}

/* The queue search, for thin frontiers: the direction of each tile is
 * fixed when it is popped (every tile one step closer is known by then):
 * the first neighbour, in the tile's checkerboard order, at distance - 1,
 * looked up from the 4-bit mask of such neighbours.  Discovery is written
 * branch-free (conditional moves).  Expects d[] complete for every tile
 * reached so far (FAR elsewhere) and the frontier in q[0..ntail). */
static const uint8_t FIRST_BACK[2][16] = {
    /* mask bits: 1 = N, 2 = S, 4 = E, 8 = W */
    {TN_DIR_NONE, TN_DIR_N, TN_DIR_S, TN_DIR_N, TN_DIR_E, TN_DIR_N, TN_DIR_S, TN_DIR_N, TN_DIR_W,
     TN_DIR_N, TN_DIR_S, TN_DIR_N, TN_DIR_E, TN_DIR_N, TN_DIR_S, TN_DIR_N},
    {TN_DIR_NONE, TN_DIR_N, TN_DIR_S, TN_DIR_S, TN_DIR_E, TN_DIR_E, TN_DIR_E, TN_DIR_E, TN_DIR_W,
     TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W, TN_DIR_W},
};

/* Returns the number of tiles it reached. */
static long bfs_run(tn_flow *f, long ntail)
{
    const long S = f->stride;
    int32_t *restrict d = f->d, *restrict q = f->q;
    uint8_t *restrict dir = f->dir;
    long head = 0, tail = ntail;
    while (head < tail) {
        const long c = q[head++];
        const int32_t dc = d[c], dn = dc + 1, dp = dc - 1;
        unsigned back = 0;
        /* A seen neighbour holds at most dc + 1 (or -1, a wall), an unseen
         * one FAR: min(v, dn) writes dn exactly into the unseen ones. */
#define TN_VISIT(o, bit)                      \
    do {                                      \
        const long nb = c + (o);              \
        const int32_t v = d[nb];              \
        d[nb] = v < dn ? v : dn;              \
        q[tail] = (int32_t)nb;                \
        tail += v > dn;                       \
        back |= (unsigned)(v == dp) << (bit); \
    } while (0)
        TN_VISIT(-S, 0);
        TN_VISIT(S, 1);
        TN_VISIT(1, 2);
        TN_VISIT(-1, 3);
#undef TN_VISIT
        dir[c] = dc == 0 ? (uint8_t)TN_DIR_HERE : FIRST_BACK[c & 1][back];
    }
    return tail - ntail;
}

/* ---- map pass and output pass ---- */

/* Open and destination bits (16 each) of row y's tiles [16 bx, 16 bx + 16)
 * into block (bx, y / 8), which the block's first tile row resets.  Lists
 * the destinations' blocks. */
static inline void block_row(tn_flow *f, int y, int bx, unsigned open, unsigned dest,
                             int32_t *dests, int *nd)
{
    const long b = (long)(y / 8 + 1) * f->bstride + bx + 1;
    const int r = y & 7, sh = 16 * (r & 3);
    struct tn_flow_bmap *M = &f->bmap[b];
    if (r == 0) {
        memset(M, 0, sizeof *M);
        memset(&f->blk[b], 0, sizeof f->blk[b]);
        f->blk[b].base = INT32_MAX;
        memset(&f->bfs[b], 0, sizeof f->bfs[b]);
    }
    M->open[r >> 2] |= (uint64_t)open << sh;
    if (dest) {
        dests[*nd] = (int32_t)b;
        *nd += (M->dest[0] | M->dest[1]) == 0;
        M->dest[r >> 2] |= (uint64_t)dest << sh;
        f->blk[b].base = 0;
    }
}

/* Kinds (written when `m` is given, else read) of row y's tiles
 * [x0, x0 + n), n <= 16, and their open / destination bits. */
static void kinds_slow(tn_flow *f, const tn_map *m, int y, int x0, int n, unsigned *open,
                       unsigned *dest)
{
    uint8_t *kind = f->kind + tn_flow_index(f, x0, y);
    *open = *dest = 0;
    for (int j = 0; j < n; j++) {
        if (m) {
            const size_t i = (size_t)y * (size_t)m->w + (size_t)(x0 + j);
            kind[j] = (uint8_t)kind_of(m->tile[i], m->mark[i]);
        }
        *open |= (unsigned)(kind[j] != TN_FLOW_WALL) << j;
        *dest |= (unsigned)(kind[j] == TN_FLOW_DEST) << j;
    }
}

#if defined(__SSE2__) && !defined(TN_FLOW_NO_SIMD)
/* The same for 16 tiles at once. */
static inline void kinds16(uint8_t *kind, const uint8_t *tile, const uint8_t *mark, unsigned *open,
                           unsigned *dest)
{
    __m128i k;
    if (tile) {
        const __m128i t = _mm_loadu_si128((const __m128i *)(const void *)tile);
        const __m128i mk = _mm_loadu_si128((const __m128i *)(const void *)mark);
        const __m128i wall = _mm_cmpeq_epi8(t, _mm_set1_epi8(TN_TILE_BLOCK));
        const __m128i dst = _mm_and_si128(_mm_cmpeq_epi8(t, _mm_set1_epi8(TN_TILE_EMPTY)),
                                          _mm_cmpeq_epi8(mk, _mm_set1_epi8(TN_MARK_DEST)));
        /* 1 - wall + dest with wall, dest = 0 or -1 */
        k = _mm_sub_epi8(_mm_add_epi8(_mm_set1_epi8(1), wall), dst);
        _mm_storeu_si128((__m128i *)(void *)kind, k);
    } else {
        k = _mm_loadu_si128((const __m128i *)(const void *)kind);
    }
    *open = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(k, _mm_setzero_si128())) ^ 0xffffu;
    *dest = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(k, _mm_set1_epi8(TN_FLOW_DEST)));
}

/* 8x8 bit transposes in both 64-bit halves: byte j bit i <-> byte i bit j. */
static inline __m128i transpose8x8(__m128i x)
{
    __m128i t;
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 7)),
                      _mm_set1_epi64x(0x00aa00aa00aa00aall));
    x = _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 7)));
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 14)),
                      _mm_set1_epi64x(0x0000cccc0000ccccll));
    x = _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 14)));
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 28)),
                      _mm_set1_epi64x(0x00000000f0f0f0f0ll));
    return _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 28)));
}

/* d[] of 4 tiles: base + off, or on no path (none = all ones) -1 when off
 * is 0 (a wall) and FAR when it is 31 (unreached): (base + off | -1) ^
 * (off << 31). */
static inline void put_d4(int32_t *d, __m128i off, __m128i none, __m128i base)
{
    const __m128i v = _mm_or_si128(_mm_add_epi32(off, base), none);
    _mm_storeu_si128((__m128i *)(void *)d,
                     _mm_xor_si128(v, _mm_and_si128(_mm_slli_epi32(off, 31), none)));
}

/* d[] and dir[] of a whole 16-wide block, nrows rows, rows with bits in
 * `done` skipped (the caller writes those).  Per tile one attribute byte:
 * bits 0-4 = distance - base, 5-6 = direction code, 7 = no path (a wall,
 * or unreached: then the offset is 31, told apart by its bit 0).  The 8
 * planes (5 + 2 + 1) are turned into these bytes by a 16-bit 8x8 transpose
 * (planes x rows -> rows x planes) and an 8x8 bit transpose per 8 tiles. */
static void put_block_sse(tn_flow *f, long b, int x0, int y0, int nrows)
{
    const struct tn_flow_block *B = &f->blk[b];
    const struct tn_flow_bmap *M = &f->bmap[b];
    const __m128i ones = _mm_set1_epi8(-1), z = _mm_setzero_si128();
    const __m128i unr = v_load(f->bfs[b].free);
    /* planes x rows -> rows x planes (16-bit elements), written out for the
     * compiler: P = planes, t, u = steps, R[r] = row r of the 8 planes */
    const __m128i p0 = _mm_or_si128(v_load(B->lvl[0]), unr),
                  p1 = _mm_or_si128(v_load(B->lvl[1]), unr);
    const __m128i p2 = _mm_or_si128(v_load(B->lvl[2]), unr),
                  p3 = _mm_or_si128(v_load(B->lvl[3]), unr);
    const __m128i p4 = _mm_or_si128(v_load(B->lvl[4]), unr), p5 = v_load(B->dir[0]);
    const __m128i p6 = v_load(B->dir[1]),
                  p7 = _mm_or_si128(_mm_xor_si128(v_load(M->open), ones), unr);
    const __m128i t0 = _mm_unpacklo_epi16(p0, p1), t1 = _mm_unpackhi_epi16(p0, p1);
    const __m128i t2 = _mm_unpacklo_epi16(p2, p3), t3 = _mm_unpackhi_epi16(p2, p3);
    const __m128i t4 = _mm_unpacklo_epi16(p4, p5), t5 = _mm_unpackhi_epi16(p4, p5);
    const __m128i t6 = _mm_unpacklo_epi16(p6, p7), t7 = _mm_unpackhi_epi16(p6, p7);
    const __m128i u0 = _mm_unpacklo_epi32(t0, t2), u1 = _mm_unpackhi_epi32(t0, t2);
    const __m128i u2 = _mm_unpacklo_epi32(t1, t3), u3 = _mm_unpackhi_epi32(t1, t3);
    const __m128i u4 = _mm_unpacklo_epi32(t4, t6), u5 = _mm_unpackhi_epi32(t4, t6);
    const __m128i u6 = _mm_unpacklo_epi32(t5, t7), u7 = _mm_unpackhi_epi32(t5, t7);
    const __m128i R[8] = {_mm_unpacklo_epi64(u0, u4), _mm_unpackhi_epi64(u0, u4),
                          _mm_unpacklo_epi64(u1, u5), _mm_unpackhi_epi64(u1, u5),
                          _mm_unpacklo_epi64(u2, u6), _mm_unpackhi_epi64(u2, u6),
                          _mm_unpacklo_epi64(u3, u7), _mm_unpackhi_epi64(u3, u7)};
    const __m128i base = _mm_set1_epi32(B->base);
    const __m128i dest_ok = B->base == 0 ? ones : z;
    const bool any_done = (M->done[0] | M->done[1]) != 0;
    const int S = f->stride;
    int32_t *d = f->d + tn_flow_index(f, x0, y0);
    uint8_t *dir = f->dir + tn_flow_index(f, x0, y0);
    for (int r = 0; r < nrows; r++, d += S, dir += S) {
        const __m128i lo = _mm_and_si128(R[r], _mm_set1_epi16(0xff));
        const __m128i a = transpose8x8(_mm_packus_epi16(lo, _mm_srli_epi16(R[r], 8)));
        const __m128i none = _mm_cmplt_epi8(a, z); /* bit 7 */
        const __m128i dest = _mm_and_si128(_mm_cmpeq_epi8(a, z), dest_ok);
        const __m128i code = _mm_and_si128(_mm_srli_epi16(a, 5), _mm_set1_epi8(3));
        const __m128i dir16 =
            _mm_or_si128(code, _mm_or_si128(_mm_and_si128(dest, _mm_set1_epi8(TN_DIR_HERE)),
                                            _mm_and_si128(none, _mm_set1_epi8(TN_DIR_NONE))));
        _mm_storeu_si128((__m128i *)(void *)dir, dir16);
        if (any_done && row16(M->done, r)) continue;
        const __m128i off = _mm_and_si128(a, _mm_set1_epi8(0x1f));
        const __m128i olo = _mm_unpacklo_epi8(off, z), ohi = _mm_unpackhi_epi8(off, z);
        const __m128i nlo = _mm_unpacklo_epi8(none, none), nhi = _mm_unpackhi_epi8(none, none);
        put_d4(d, _mm_unpacklo_epi16(olo, z), _mm_unpacklo_epi16(nlo, nlo), base);
        put_d4(d + 4, _mm_unpackhi_epi16(olo, z), _mm_unpackhi_epi16(nlo, nlo), base);
        put_d4(d + 8, _mm_unpacklo_epi16(ohi, z), _mm_unpacklo_epi16(nhi, nhi), base);
        put_d4(d + 12, _mm_unpackhi_epi16(ohi, z), _mm_unpackhi_epi16(nhi, nhi), base);
    }
}
#endif

/* d[] and dir[] of tiles [c0, c1) of row r of block b, one by one. */
static void put_tiles_slow(tn_flow *f, long b, int x0, int y0, int r, int c0, int c1)
{
    const struct tn_flow_block *B = &f->blk[b];
    const struct tn_flow_bmap *M = &f->bmap[b];
    const unsigned open = row16(M->open, r), unr = row16(f->bfs[b].free, r);
    const unsigned dest = row16(M->dest, r), done = row16(M->done, r);
    const unsigned c0bits = row16(B->dir[0], r), c1bits = row16(B->dir[1], r);
    unsigned lvl[LVL_PLANES];
    for (int p = 0; p < LVL_PLANES; p++) lvl[p] = row16(B->lvl[p], r);
    const int i0 = tn_flow_index(f, x0, y0 + r);
    for (int c = c0; c < c1; c++) {
        int32_t off = 0;
        for (int p = 0; p < LVL_PLANES; p++) off |= (int32_t)(lvl[p] >> c & 1) << p;
        const bool wall = !(open >> c & 1), none = wall || (unr >> c & 1);
        f->dir[i0 + c] = (uint8_t)(none            ? TN_DIR_NONE
                                   : dest >> c & 1 ? TN_DIR_HERE
                                                   : (c0bits >> c & 1) | (c1bits >> c & 1) << 1);
        if (done >> c & 1) continue; /* written by the search */
        f->d[i0 + c] = wall ? WALLD : none ? TN_FLOW_FAR : B->base + off;
    }
}

/* d[] and dir[] of block b, whose top-left tile is (x0, y0) and which has
 * ncols x nrows tiles on the board. */
static void put_block(tn_flow *f, long b, int x0, int y0, int ncols, int nrows)
{
#if defined(__SSE2__) && !defined(TN_FLOW_NO_SIMD)
    if (ncols == 16) {
        put_block_sse(f, b, x0, y0, nrows);
        if (f->bmap[b].done[0] | f->bmap[b].done[1])
            for (int r = 0; r < nrows; r++)
                if (row16(f->bmap[b].done, r)) put_tiles_slow(f, b, x0, y0, r, 0, 16);
        return;
    }
#endif
    for (int r = 0; r < nrows; r++) put_tiles_slow(f, b, x0, y0, r, 0, ncols);
}

/* The full 4-connected rebuild: kinds (from `m`, or those in place when m
 * is NULL), blocks, search, then d[] and dir[]. */
static void rebuild_bfs(tn_flow *f, const tn_map *m)
{
    const int w = f->w, h = f->h, BS = f->bstride, bw = BS - 2, nblk = f->nblk;
    int32_t *dests = f->blist + nblk; /* the search's second list, free till then */
    int nd = 0;
    for (int y = 0; y < h; y++) {
        int x = 0;
#if defined(__SSE2__) && !defined(TN_FLOW_NO_SIMD)
        uint8_t *kind = f->kind + tn_flow_index(f, 0, y);
        const uint8_t *tile = m ? m->tile + (size_t)y * (size_t)w : NULL;
        const uint8_t *mark = m ? m->mark + (size_t)y * (size_t)w : NULL;
        for (; x + 16 <= w; x += 16) {
            unsigned open, dest;
            kinds16(kind + x, tile ? tile + x : NULL, mark ? mark + x : NULL, &open, &dest);
            block_row(f, y, x / 16, open, dest, dests, &nd);
        }
#endif
        for (; x < w; x += 16) {
            unsigned open, dest;
            kinds_slow(f, m, y, x, w - x < 16 ? w - x : 16, &open, &dest);
            block_row(f, y, x / 16, open, dest, dests, &nd);
        }
    }
    /* The destinations are the level-0 frontier; their blocks and the
     * neighbours they spill into are the first candidates. */
    for (int b = 0; b < nblk; b++) {
        const struct tn_flow_bmap *M = &f->bmap[b];
        f->bfs[b].free[0] = M->open[0] & ~M->dest[0];
        f->bfs[b].free[1] = M->open[1] & ~M->dest[1];
    }
    int ncand = 0;
    for (int k = 0; k < nd; k++) {
        const long b = dests[k];
        const v128 D = v_load(f->bmap[b].dest);
        v_store(f->bfs[b].front[0], D);
        f->blist[ncand] = (int32_t)b;
        ncand += f->bfs[b].stamp != 1;
        f->bfs[b].stamp = 1;
        struct tn_flow_bfs *c = f->bfs + b;
        ncand = enlist(c - BS, b - BS, f->blist, ncand, v_row0_to7(D), 1);
        ncand = enlist(c + BS, b + BS, f->blist, ncand, v_row7_to0(D), 1);
        ncand = enlist(c + 1, b + 1, f->blist, ncand, v_col15_to0(D), 1);
        ncand = enlist(c - 1, b - 1, f->blist, ncand, v_col0_to15(D), 1);
    }
    int nfront = 0;
    const int32_t handover = bfs_blocks(f, ncand, &nfront);
    long reached = 0;
    for (int by = 0; 8 * by < h; by++)
        for (int bx = 0; bx < bw; bx++) {
            const long b = (long)(by + 1) * BS + bx + 1;
            put_block(f, b, 16 * bx, 8 * by, w - 16 * bx < 16 ? w - 16 * bx : 16,
                      h - 8 * by < 8 ? h - 8 * by : 8);
            reached += popcount64(f->bmap[b].open[0] & ~f->bfs[b].free[0]) +
                       popcount64(f->bmap[b].open[1] & ~f->bfs[b].free[1]);
        }
    if (handover) {
        /* d[] is complete up to the handover level: queue its frontier. */
        const int32_t *blocks = f->blist + 2 * (size_t)nblk;
        long nq = 0;
        for (int k = 0; k < nfront; k++) {
            const long b = blocks[k];
            const int bx = (int)(b % BS) - 1, by = (int)(b / BS) - 1;
            for (int half = 0; half < 2; half++)
                for (uint64_t bits = f->bfs[b].front[handover & 1][half]; bits; bits &= bits - 1) {
                    const int t = 64 * half + ctz64(bits);
                    f->q[nq++] = tn_flow_index(f, 16 * bx + (t & 15), 8 * by + (t >> 4));
                }
        }
        reached += bfs_run(f, nq);
    }
    f->last_touched = reached;
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
    if (f->dd)
        rebuild_dial(f);
    else
        rebuild_bfs(f, NULL);
    f->last_full = true;
}

/* Why a map does not fit a flow field, or NULL when it does. */
static tn_status check_map(const tn_flow *f, const tn_map *m, tn_error *err)
{
    if (!f || !m) /* say which: a caller with both may not know */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "flow: no %s (%s is NULL)",
                            !f ? "flow field" : "map", !f ? "f" : "m");
    if (m->w != f->w || m->h != f->h)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: the map is %dx%d but the field was made for %dx%d", m->w, m->h,
                            f->w, f->h);
    return TN_OK;
}

/* Why tile (x, y) is not a tile of the field, or TN_OK. */
static tn_status check_tile(const tn_flow *f, int x, int y, const char *what, tn_error *err)
{
    if (x < 0 || y < 0 || x >= f->w || y >= f->h)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: %s (%d,%d) is outside the %dx%d board", what, x, y, f->w, f->h);
    return TN_OK;
}

tn_status tn_flow_rebuild(tn_flow *f, const tn_map *m, tn_error *err)
{
    tn_status st = check_map(f, m, err);
    if (tn_failed(st)) return st;
    tn_error_clear(err);
    f->last_full = true;
    if (!f->dd) {
        rebuild_bfs(f, m);
        return TN_OK;
    }
    /* 8-connected: the kinds, then Dial's search. */
    for (int y = 0; y < f->h; y++)
        kind_row(f->kind + tn_flow_index(f, 0, y), m->tile + (size_t)y * (size_t)m->w,
                 m->mark + (size_t)y * (size_t)m->w, f->w);
    rebuild_dial(f);
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

tn_status tn_flow_set_kind(tn_flow *f, int x, int y, int kind, tn_error *err)
{
    if (!f)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: no flow field (f is NULL)");
    tn_status st = check_tile(f, x, y, "tile", err);
    if (tn_failed(st)) return st;
    if (kind < TN_FLOW_WALL || kind > TN_FLOW_DEST)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "flow: unknown kind %d",
                            kind);
    tn_error_clear(err);
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

tn_status tn_flow_update(tn_flow *f, const tn_map *m, int x, int y, tn_error *err)
{
    tn_status st = check_map(f, m, err);
    if (tn_failed(st)) return st;
    return tn_flow_set_kind(f, x, y, tn_flow_kind(m, x, y), err);
}

/* ---- what-if ---- */

tn_status tn_flow_whatif(tn_flow *f, int x, int y, int kind, const int32_t *tiles, int n,
                         int *lost_out, int *first, tn_error *err)
{
    if (first) *first = -1;
    if (lost_out) *lost_out = 0;
    if (!f || !lost_out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: what-if without %s (%s is NULL)",
                            !f ? "a field" : "an output for the count", !f ? "f" : "lost");
    tn_status st = check_tile(f, x, y, "what-if tile", err);
    if (tn_failed(st)) return st;
    if (kind < TN_FLOW_WALL || kind > TN_FLOW_DEST)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "flow: unknown kind %d",
                            kind);
    if (n < 0 || (n > 0 && !tiles))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: %d what-if tiles listed%s", n,
                            n < 0 ? ": a negative count" : ", but the list is NULL");
    for (int t = 0; t < n; t++)
        if (tiles[t] < 0 || tiles[t] >= f->w * f->h)
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "flow: what-if tile %d of the list is %d, outside 0..%d (y*w+x)", t,
                                (int)tiles[t], f->w * f->h - 1);
    tn_error_clear(err);
    const int c = tn_flow_index(f, x, y);
    const int old = f->kind[c];
    if (old == kind || old == TN_FLOW_WALL || kind == TN_FLOW_DEST) return TN_OK; /* only shorter */
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
        int tx = ti % f->w, ty = ti / f->w;
        if (tx == x && ty == y) continue;
        if (f->stamp[tn_flow_index(f, tx, ty)] == f->gen + 2) {
            if (lost == 0 && first) *first = t;
            lost++;
        }
    }
    *lost_out = lost;
    return TN_OK;
}

/* ---- point to point ---- */

tn_status tn_flow_distance(tn_flow *f, int sx, int sy, int gx, int gy, double *dist, tn_error *err)
{
    if (dist) *dist = -1.0;
    if (!f || !dist)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: distance without %s (%s is NULL)", !f ? "a field" : "an output",
                            !f ? "f" : "dist");
    tn_status st = check_tile(f, sx, sy, "start", err);
    if (tn_failed(st)) return st;
    st = check_tile(f, gx, gy, "goal", err);
    if (tn_failed(st)) return st;
    const int s0 = tn_flow_index(f, sx, sy), g0 = tn_flow_index(f, gx, gy);
    if (f->kind[s0] == TN_FLOW_WALL)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: the distance's start (%d,%d) is a wall", sx, sy);
    if (f->kind[g0] == TN_FLOW_WALL)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "flow: the distance's goal (%d,%d) is a wall", gx, gy);
    /* Dial's search from the start over the field's cells (destinations are
     * open), exact (straight, diagonal) pairs in q[] and list[] (valid where
     * stamp == gen+1), ordered by the bucket queue; stops at the goal and
     * drains the queue so it is empty again for the field's own updates. */
    next_gen(f);
    const uint32_t seen = f->gen + 1;
    int32_t *ss = f->q, *gg = f->list;
    b_reset_range(f);
    f->stamp[s0] = seen;
    ss[s0] = gg[s0] = 0;
    b_insert(f, s0, 0);
    bool found = false;
    for (int k = f->kmin; k <= f->kmax; k++) {
        int u;
        while ((u = f->bhead[k]) >= 0) {
            b_remove(f, u, k);
            if (found) continue;
            if (u == g0) {
                found = true;
                continue;
            }
            for (int j = 0; j < f->connectivity; j++) {
                if (!edge_ok(f, u, j)) continue;
                const int v = u + off(f, j);
                const int32_t vs = ss[u] + (j < 4), vg = gg[u] + (j >= 4);
                const double nv = val2(vs, vg);
                if (f->stamp[v] == seen) {
                    if (!(nv < val2(ss[v], gg[v]))) continue;
                    if (b_member(f, v)) b_remove(f, v, (int)val2(ss[v], gg[v]));
                }
                f->stamp[v] = seen;
                ss[v] = vs;
                gg[v] = vg;
                b_insert(f, v, (int)nv);
            }
        }
    }
    b_reset_range(f);
    if (!found)
        return tn_error_set(err, TN_FAILURE | TN_UNREACHABLE, 0, 0,
                            "flow: no path from (%d,%d) to (%d,%d)", sx, sy, gx, gy);
    *dist = val2(ss[g0], gg[g0]);
    tn_error_clear(err);
    return TN_OK;
}

/* ---- queries ---- */

double tn_flow_dist(const tn_flow *f, int x, int y)
{
    if (!f || x < 0 || y < 0 || x >= f->w || y >= f->h) return -1.0;
    int i = tn_flow_index(f, x, y);
    if (f->kind[i] == TN_FLOW_WALL || f->d[i] == TN_FLOW_FAR) return -1.0;
    return val(f, i);
}

bool tn_flow_steps(const tn_flow *f, int x, int y, int *straight, int *diagonal)
{
    if (!f || x < 0 || y < 0 || x >= f->w || y >= f->h) return false;
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
