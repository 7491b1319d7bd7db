/* SPDX-License-Identifier: Zlib */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/surf_impl.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
/* profile.threads > 1 runs searches on C11 threads; TN_SURF_PTHREADS (the
 * ThreadSanitizer build of tests/tsan, which does not follow C11 threads)
 * on POSIX threads instead, the same code otherwise. */
#if defined(TN_SURF_PTHREADS)
#include <pthread.h>
#define TN_SURF_THREADS 1
typedef pthread_t tn_thread;
typedef pthread_mutex_t tn_mutex;
static bool mutex_init(tn_mutex *m) { return pthread_mutex_init(m, NULL) == 0; }
static void mutex_lock(tn_mutex *m) { pthread_mutex_lock(m); }
static void mutex_unlock(tn_mutex *m) { pthread_mutex_unlock(m); }
static void mutex_destroy(tn_mutex *m) { pthread_mutex_destroy(m); }
static int search_thread(void *arg);
static void *search_thread_posix(void *arg)
{
    search_thread(arg);
    return NULL;
}
static bool thread_start(tn_thread *t, void *arg)
{
    return pthread_create(t, NULL, search_thread_posix, arg) == 0;
}
static void thread_join(tn_thread t) { pthread_join(t, NULL); }
#elif !defined(__STDC_NO_THREADS__) && !defined(__EMSCRIPTEN__)
#include <threads.h>
#define TN_SURF_THREADS 1
typedef thrd_t tn_thread;
typedef mtx_t tn_mutex;
static bool mutex_init(tn_mutex *m) { return mtx_init(m, mtx_plain) == thrd_success; }
static void mutex_lock(tn_mutex *m) { mtx_lock(m); }
static void mutex_unlock(tn_mutex *m) { mtx_unlock(m); }
static void mutex_destroy(tn_mutex *m) { mtx_destroy(m); }
static int search_thread(void *arg);
static bool thread_start(tn_thread *t, void *arg)
{
    return thrd_create(t, search_thread, arg) == thrd_success;
}
static void thread_join(tn_thread t) { thrd_join(t, NULL); }
#endif
#ifdef TN_SURF_DEBUG
#include <stdio.h>
#endif

#define T ((float)TN_TILE_PX)
#define EPS (1.0f / 8.0f)
#define SNAP_MAX_PX 0.1f

/* ---- big blocks kept between repairs ------------------------------------ */

/* A repair makes its query index in new arrays and frees the old ones (at
 * 1024x1024 some 27 blocks of 256 KB or more, 65 MB, 18 of them node
 * arrays).  Whether such blocks cost page faults every time was the system
 * allocator's choice: glibc's adaptive mmap threshold happens to serve them
 * again from its heap, other allocators (or glibc with a fixed threshold)
 * map them anew, and then the faults were most of a big level's repair
 * (docs/perf.md).  So the graph allocates through a pool: the blocks of
 * 256 KB or more that a repair frees are kept (at most POOL_SLOTS, each a
 * header and the caller's allocation), and an allocation takes the
 * smallest kept block that fits (at most twice its size) before it asks
 * the caller's allocator.  At the end of each repair the blocks it did not
 * take back are returned, so between operations the pool holds what the
 * last repair freed (counted in tn_surf_memory); a build returns them all.
 * Big requests are rounded up to one of 8 sizes per power of two (at most
 * 1/8 more), so that a few more nodes after an edit still fit a kept
 * block.  Worker threads may allocate at once: the pool's list is behind a
 * spin lock, taken only for big blocks.
 * After a build the pool is empty, so the first repair's new arrays were
 * all fresh pages (1024x1024: 239 ms against 40 ms for the next one, most
 * of it page faults in the query index's new arrays).  So
 * tn_surf_prepare_repairs makes one block the size of each big array a
 * repair makes anew while it holds the old one, and PREP_SCRATCH more the
 * size of the node arrays for its scratch (repair_sizes; largest first, at
 * most POOL_PREP, those the pool already holds counted), touches every
 * page, and leaves them in the pool as if the last repair had freed them:
 * the first repair takes what it needs and returns the rest at its end, as
 * any repair does.  (It used to make one block the size of every big block
 * in use, about three quarters of them arrays a repair keeps: 1024x1024,
 * 225 MB more instead of 66.)  POOL_SLOTS leaves room for POOL_PREP such
 * blocks and everything a repair frees besides. */
#ifndef TN_SURF_POOL_MIN /* (make tsan sets it low: every block through the lock) */
#define TN_SURF_POOL_MIN (1 << 18)
#endif
#define POOL_MIN ((size_t)TN_SURF_POOL_MIN)
#define POOL_SLOTS 128
#define POOL_PREP 64   /* blocks tn_surf_prepare_repairs keeps at most */
#define PREP_SCRATCH 8 /* node-sized scratch blocks it makes (repair_sizes) */

typedef struct pool_hdr {
    size_t size; /* bytes after the header */
    size_t pad;  /* (keeps the block 16-byte aligned) */
} pool_hdr;

struct surf_pool {
    tn_allocator user; /* the caller's */
    atomic_flag lock;
    struct {
        pool_hdr *h;
        uint32_t gen;
    } b[POOL_SLOTS];
    int n;
    size_t bytes;
    atomic_size_t held; /* from the caller's allocator now, headers and kept blocks too */
    uint32_t gen;       /* operations ended */
    bool on;            /* keeping what is freed: during a repair */
};

static void pool_lock(struct surf_pool *P)
{
    while (atomic_flag_test_and_set_explicit(&P->lock, memory_order_acquire)) {}
}
static void pool_unlock(struct surf_pool *P)
{
    atomic_flag_clear_explicit(&P->lock, memory_order_release);
}

static void *pool_alloc(void *user, size_t size)
{
    struct surf_pool *P = user;
    if (size >= POOL_MIN) {
        pool_lock(P);
        int best = -1;
        for (int i = 0; i < P->n; i++) {
            const size_t s = P->b[i].h->size;
            if (s >= size && s / 2 <= size && (best < 0 || s < P->b[best].h->size)) best = i;
        }
        pool_hdr *h = NULL;
        if (best >= 0) {
            h = P->b[best].h;
            P->bytes -= h->size;
            P->b[best] = P->b[--P->n];
        }
        pool_unlock(P);
        if (h) return h + 1;
        /* up to the next of 8 sizes per power of two */
        int k = 63 - __builtin_clzll((unsigned long long)size);
        size_t step = (size_t)1 << (k - 3);
        if (size <= SIZE_MAX - step) size = (size + step - 1) & ~(step - 1);
    }
    if (size > SIZE_MAX - sizeof(pool_hdr)) return NULL;
    pool_hdr *h =
        P->user.alloc ? P->user.alloc(P->user.user, sizeof *h + size) : malloc(sizeof *h + size);
    if (!h) return NULL;
    h->size = size;
    h->pad = 0;
    atomic_fetch_add_explicit(&P->held, sizeof *h + size, memory_order_relaxed);
    return h + 1;
}

static void pool_free(void *user, void *ptr)
{
    struct surf_pool *P = user;
    if (!ptr) return;
    pool_hdr *h = (pool_hdr *)ptr - 1;
    if (h->size >= POOL_MIN) {
        pool_lock(P);
        const bool keep = P->on && P->n < POOL_SLOTS;
        if (keep) {
            P->b[P->n].h = h;
            P->b[P->n++].gen = P->gen;
            P->bytes += h->size;
        }
        pool_unlock(P);
        if (keep) return;
    }
    atomic_fetch_sub_explicit(&P->held, sizeof *h + h->size, memory_order_relaxed);
    tn_free(&P->user, h);
}

/* An operation ended: the blocks kept before it that it did not take are
 * returned (all of them: all = true). */
static void pool_trim(struct surf_pool *P, bool all)
{
    pool_lock(P);
    for (int i = 0; i < P->n;) {
        if (all || P->b[i].gen != P->gen) {
            P->bytes -= P->b[i].h->size;
            atomic_fetch_sub_explicit(&P->held, sizeof(pool_hdr) + P->b[i].h->size,
                                      memory_order_relaxed);
            tn_free(&P->user, P->b[i].h);
            P->b[i] = P->b[--P->n];
        } else {
            i++;
        }
    }
    P->gen++;
    pool_unlock(P);
}

/* ---- growable arrays (build time only) ----------------------------------- */

/* Like tn_alloc_array without zeroing: a vec never reads past its n, and
 * zeroing the capacity of the big ones (a repair copies every kept edge
 * and input run) was a few percent of a repair.  A new edge is zeroed
 * where it is made (emit_group), padding too: the edge array is public,
 * and equal graphs are equal byte for byte. */
void *alloc_unzeroed(const tn_allocator *a, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    if (bytes == 0) bytes = 1;
    return a && a->alloc ? a->alloc(a->user, bytes) : malloc(bytes);
}

/* A graph block resized where the graph's pool sits on malloc (the caller
 * passed no allocator): with C realloc, which resizes a big block where
 * it is (glibc remaps its pages) instead of copying it into fresh ones.
 * At 1024x1024 the build's edge array, reserved by doubling (117 MB for
 * 63 MB of edges), was copied to its final size: 170 ms of a 4.6 s build,
 * most of it the new pages' faults.  NULL when not done (another
 * allocator, a small block, or realloc failed: p is then unchanged). */
static void *pool_resize(const tn_allocator *a, void *p, size_t bytes)
{
    if (!p || a->alloc != pool_alloc) return NULL;
    struct surf_pool *P = a->user;
    pool_hdr *h = (pool_hdr *)p - 1;
    if (P->user.alloc || h->size < POOL_MIN || bytes < POOL_MIN || bytes > SIZE_MAX - sizeof *h)
        return NULL;
    const size_t old = h->size;
    pool_hdr *nh = realloc(h, sizeof *h + bytes);
    if (!nh) return NULL;
    nh->size = bytes;
    atomic_fetch_add_explicit(&P->held, bytes, memory_order_relaxed);
    atomic_fetch_sub_explicit(&P->held, old, memory_order_relaxed);
    return nh + 1;
}

/* v's elements moved to a new array of cap (>= n) elements. */
static bool vec_realloc(vec *v, const tn_allocator *a, size_t cap)
{
    if (v->elem && cap <= SIZE_MAX / v->elem) {
        void *r = pool_resize(a, v->p, cap * v->elem);
        if (r) {
            v->p = r;
            v->cap = cap;
            return true;
        }
    }
    void *q = alloc_unzeroed(a, cap, v->elem);
    if (!q) return false;
    if (v->n) memcpy(q, v->p, v->n * v->elem);
    tn_free(a, v->p);
    v->p = q;
    v->cap = cap;
    return true;
}

static bool vec_reserve(vec *v, const tn_allocator *a, size_t need)
{
    if (need <= v->cap) return true;
    size_t cap = v->cap ? v->cap : 64;
    while (cap < need) cap *= 2;
    return vec_realloc(v, a, cap);
}

/* A graph's edges and runs keep room for about n / 16 more (a repair adds
 * to them in place): with less than n / 32 or more than n / 8, one exact
 * reallocation to n / 16. */
static bool vec_slack(vec *v, const tn_allocator *a)
{
    if (v->cap >= v->n + v->n / 32 + 64 && v->cap <= v->n + v->n / 8 + 64) return true;
    return vec_realloc(v, a, v->n + v->n / 16 + 64);
}

/* The run pool's room after a repair: at least n / 16 more (a repair's
 * searches append to it; past its room the pool doubles), at most 2n; out
 * of that, one reallocation to a quarter more.  Dead runs are compacted in
 * place (runs_compact), so the pool is rarely allocated again. */
static bool runs_room(vec *v, const tn_allocator *a)
{
    if (v->cap >= v->n + v->n / 16 + 64 && v->cap <= 3 * v->n + 64) return true;
    return vec_realloc(v, a, v->n + v->n / 4 + 64);
}

void *vec_push(vec *v, const tn_allocator *a)
{
    if (!vec_reserve(v, a, v->n + 1)) return NULL;
    return (char *)v->p + v->elem * v->n++;
}

void vec_free(vec *v, const tn_allocator *a)
{
    tn_free(a, v->p);
    memset(v, 0, sizeof *v);
}

/* ---- the graph ----------------------------------------------------------- */

typedef struct dp_entry {
    tn_body v;  /* vertical state; x unused */
    int32_t t;  /* frames since the take-off */
    int32_t lo; /* lattice j of bit 0 */
    int32_t words;
    uint32_t bits;   /* offset in the bit pool */
    int32_t pred;    /* head of the predecessor list, -1 */
    int32_t plan[2]; /* its step's plan per jump bit in B->plans: -2 not made
                      * yet, -1 does not apply */
} dp_entry;

typedef struct dp_pred {
    int32_t from; /* entry of the previous layer (FFWD: k layers back) */
    int32_t next;
    uint8_t in;
    uint16_t k; /* FFWD: the free steps it stands for */
} dp_pred;

/* A surface's searches, as bits: a repair runs only those that read the
 * edited tile (their footprints hold it). */
enum {
    SEARCH_JUMP = 1,
    SEARCH_DROP = 2,
    SEARCH_OFF_LEFT = 4,
    SEARCH_OFF_RIGHT = 8,
    SEARCH_ALL = 15
};

typedef struct best_rec {
    uint32_t stamp;
    int32_t frames;
    int32_t entry, j; /* state before the landing step */
    uint8_t in;       /* input of the landing step */
} best_rec;

tn_surf_profile tn_surf_profile_make(int w, int h, const tn_phys_params *p)
{
    tn_surf_profile pr;
    memset(&pr, 0, sizeof pr);
    pr.w = w;
    pr.h = h;
    pr.phys = p ? *p : tn_phys_default(4.0f);
    pr.step = NULL;
    pr.coyote = TN_SURF_COYOTE_FULL;
    return pr;
}

bool tn_surf_same_profile(const tn_surf_profile *a, const tn_surf_profile *b)
{
    /* step_user and threads are not part of the identity: the same physics
     * with another world pointer or thread count makes the same graph; a
     * NULL profile (tn_surf_get_profile of a NULL graph) is no profile */
    if (!a || !b) return false;
    return a->w == b->w && a->h == b->h && a->step == b->step &&
           a->step_user_fn == b->step_user_fn && a->coyote == b->coyote &&
           a->reference_build == b->reference_build &&
           a->keep_all_landings == b->keep_all_landings && a->verify_edges == b->verify_edges &&
           memcmp(&a->phys, &b->phys, sizeof a->phys) == 0;
}

/* One frame of the profile's step function: step_user_fn with its user
 * pointer, step, or tn_body_step. */
static void run_step(const tn_surf_profile *pr, tn_body *b, const tn_map *m, tn_input in)
{
    if (pr->step_user_fn)
        pr->step_user_fn(b, m, &pr->phys, in, pr->step_user);
    else if (pr->step)
        pr->step(b, m, &pr->phys, in);
    else
        tn_body_step(b, m, &pr->phys, in);
}

/* The built-in step function (the bitset builder's exact model of it). */
static bool builtin_step(const tn_surf_profile *pr)
{
    return !pr->step_user_fn && (!pr->step || pr->step == tn_body_step);
}

/* Whether the build under way is to stop (tn_surf.h CANCEL): profile.cancel
 * asked, during a full build only (do_build sets g->polling), once per
 * surface claimed and between the build's phases; the answer true sticks
 * for the rest of the build.  With threads > 1 the workers call it under
 * the jobs' lock (search_jobs), so never two at once. */
bool tn_surfi_cancelled(tn_surf *g)
{
    if (!g->polling || !g->prof.cancel) return false;
    if (!g->cancelled && g->prof.cancel(g->prof.cancel_user)) g->cancelled = true;
    return g->cancelled;
}

int lat_j(const tn_surf *g, float x)
{
    /* clamped before the cast (NaN as the low end), as tn_steer's boxes are:
     * far outside any lattice, no undefined conversion */
    const float big = 1073741824.0f, v = floorf(x * g->inv_step + 0.5f);
    if (!(v > -big)) return -(int)big;
    return v < big ? (int)v : (int)big;
}

/* The caller's px are graph px times pxk, a power of two: both ways exact. */
float tn_surf_lattice_x(const tn_surf *g, int j) { return g ? lat_x(g, j) * g->pxk : 0.0f; }
int tn_surf_lattice_j(const tn_surf *g, float x) { return g ? lat_j(g, x / g->pxk) : 0; }

bool tn_surf_has_query_index(const tn_surf *g) { return g && g->qindex; }

int tn_surf_node_count(const tn_surf *g) { return g ? g->nnodes : 0; }
uint32_t tn_surf_generation(const tn_surf *g) { return g ? g->generation : 0; }
int tn_surf_surface_count(const tn_surf *g) { return g ? g->nsurf : 0; }
int tn_surf_edge_count(const tn_surf *g) { return g ? g->nedges : 0; }
const tn_surf_surface *tn_surf_surfaces(const tn_surf *g) { return g ? g->surf : NULL; }
const tn_surf_edge *tn_surf_edges(const tn_surf *g) { return g ? g->edge : NULL; }
const tn_surf_profile *tn_surf_get_profile(const tn_surf *g) { return g ? &g->uprof : NULL; }
int tn_surf_node_surface(const tn_surf *g, int node)
{
    return g && node >= 0 && node < g->nnodes ? g->node_surf[node] : -1;
}

int tn_surf_last_repair(const tn_surf *g, int *out, int cap, int *tiles)
{
    if (tiles) *tiles = g ? g->nrep_tiles : 0;
    if (!g) return 0;
    for (int i = 0; out && i < cap && i < g->nrep_surf; i++) out[i] = g->rep_surf[i];
    return g->nrep_surf;
}

void tn_surf_repair_counts(const tn_surf *g, int *local, int *full)
{
    if (local) *local = g ? g->repairs_local : 0;
    if (full) *full = g ? g->repairs_full : 0;
}

void tn_surf_node_pos(const tn_surf *g, int node, int *row, int *j)
{
    if (!g || node < 0 || node >= g->nnodes) {
        if (row) *row = -1;
        if (j) *j = -1;
        return;
    }
    const tn_surf_surface *s = &g->surf[g->node_surf[node]];
    if (row) *row = s->row;
    if (j) *j = s->j0 + (node - s->node0);
}

int tn_surf_node_at(const tn_surf *g, int row, int j)
{
    if (!g || row < 0 || row > g->mh || !g->row_first) return -1;
    int lo = g->row_first[row], hi = g->row_first[row + 1] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const tn_surf_surface *s = &g->surf[mid];
        if (j < s->j0)
            hi = mid - 1;
        else if (j > s->j1)
            lo = mid + 1;
        else
            return s->node0 + (j - s->j0);
    }
    return -1;
}

int tn_surf_node_of_body(const tn_surf *g, const tn_body *b)
{
    if (!g || !b || !b->on_ground) return -1;
    const float k = g->pxk, x = b->x / k, y = b->y / k; /* graph px (exact) */
    const float feet = (y + (float)b->h * T) / T;
    if (!(feet > -1.0f && feet < (float)g->mh + 1.0f)) return -1; /* also NaN */
    return tn_surf_node_at(g, (int)lroundf(feet), lat_j(g, x));
}

int tn_surf_node_of_tile(const tn_surf *g, int tx, int ty)
{
    if (!g || tx < 0 || ty < 0 || tx >= g->mw || ty >= g->mh) return -1;
    for (int k = 0; k < g->per_tile; k++) {
        int n = tn_surf_node_at(g, ty + 1, tx * g->per_tile + k);
        if (n >= 0) return n;
    }
    return -1;
}

void tn_surf_run(const tn_surf *g, uint32_t r, tn_input *in, int *count)
{
    if (!in || !count) return;
    if (!g || r >= g->nruns) {
        in->left = in->right = in->down = in->jump = false;
        *count = 0;
        return;
    }
    uint16_t v = g->runs[r];
    in->left = (v & TN_SURF_IN_LEFT) != 0;
    in->right = (v & TN_SURF_IN_RIGHT) != 0;
    in->down = (v & TN_SURF_IN_DOWN) != 0;
    in->jump = (v & TN_SURF_IN_JUMP) != 0;
    *count = (v >> 4) + 1;
}

static tn_input input_of(int bits)
{
    tn_input in;
    in.left = (bits & TN_SURF_IN_LEFT) != 0;
    in.right = (bits & TN_SURF_IN_RIGHT) != 0;
    in.down = (bits & TN_SURF_IN_DOWN) != 0;
    in.jump = (bits & TN_SURF_IN_JUMP) != 0;
    return in;
}

/* A body standing at lattice j on row `row`. */
static tn_body stand_body(const tn_surf *g, int row, int j)
{
    tn_body b;
    memset(&b, 0, sizeof b);
    b.w = g->prof.w;
    b.h = g->prof.h;
    b.x = lat_x(g, j);
    b.y = (float)row * T - (float)g->prof.h * T;
    b.on_ground = true;
    return b;
}

static int body_row(const tn_body *b) { return (int)lroundf((b->y + (float)b->h * T) / T); }

/* ---- build --------------------------------------------------------------- */

/* Where a threaded build left one surface's edges and runs (gather). */
typedef struct sblock {
    uint32_t e0, ne, r0, nr;
    int who; /* the build (thread slot) that ran it */
} sblock;

typedef struct build {
    tn_surf *g;
    const tn_map *m;
    const tn_allocator *a;
    vec surf, edges, runs, foots, fbits; /* output */
    sblock *blk; /* per surface, when a threaded build gathers (run_searches) */
    int slot;    /* this build's thread slot (0: the caller's) */
    /* the group running: per row -1 .. mh + 1 (lmw words) the positions
     * landed on (landed_row: cleared on first use, lstamp = its bstamp) */
    uint64_t *ldone;
    uint32_t *lstamp;
    int32_t *fspan;      /* the search running: per map row the columns it read (lo, hi) */
    int frlo, frhi;      /* and the rows with a span */
    int flast[5];        /* foot_rect's last rectangle recorded (surface, cx0, ry0, cx1,
                          * ry1; surface -1: none), inside the spans and the sbox */
    vec ent, pred, bits; /* dp_entry, dp_pred, uint64_t */
    vec js_free;         /* uint64 scratch: masks K and F */
    vec js_block;        /* int32 scratch */
    uint32_t *hash;      /* entry index + 1 */
    uint32_t *hstamp;
    size_t hcap;
    uint32_t hgen;
    best_rec *best; /* per node */
    uint32_t bstamp;
    vec touched;          /* int32 landing nodes of the group */
    vec seq;              /* uint16: the input sequences of emit_group's edges */
    vec bpath;            /* bt_step: the backtrack running (scratch) */
    struct bt_memo *memo; /* emit_group's backtracks, by (entry, j) */
    size_t mcap, mn;
    uint32_t mgen;
    vec mmask;       /* uint64 per entry: bit j % 64 set when (entry, j) may be in memo */
    int32_t *colpre; /* (mh + 1) x mw: non-empty tiles above row r, per column */
    int32_t *sat;    /* (mh + 1) x (mw + 1): non-empty tiles in rows < r, columns < c */
    uint8_t *colbad; /* scratch per column */
    bool oom;
    /* the free-step shortcut (tn_body_step only): a step of the entry's
     * state on an empty map (vmap) stands for every position whose tiles
     * that step reads are all empty (see free_window) */
    bool fast;
    tn_map *vmap;
    long nshort;
    int cur_search; /* SEARCH_ bit of the search running (its footprint) */
    int bias;       /* backtracks: -1 toward the leftmost take-off, +1 the rightmost */
    int bad_replays, bulk_mismatch;
    long nsteps, nentries, nfree, nblock, kent[3], ksteps[3];
    /* mask stepping (tn_body_step only, see lean_step): per map row r =
     * -1 .. mh + 1 lattice bitsets (bit j + LM_OFF = lattice j) */
    bool masks;
    uint64_t *lm;      /* LM_KINDS x (mh + 3) rows x lmw words, made on first use */
    uint8_t *lm_ready; /* per row */
    bool rows_all;     /* every row's masks are made: make_vplan need not ask */
    vec plans;         /* vplan: the plans of the search's entries */
    vec pend, pbits;   /* ff_pend, uint64_t: fast-forwarded entries to come */
    int32_t *phead;    /* per layer: first ff_pend for it, valid when */
    uint32_t *pstamp;  /* pstamp[t] == pgen */
    uint32_t pgen;
    size_t npend;  /* ff_pend not yet made entries */
    int last_land; /* surface of the last landing (landed_at), or -1 */
    int lmw;
    vec mwork;          /* uint64 scratch of lean_step */
    int32_t *kjl, *kjh; /* per column c (+ KCOL_OFF): lattice range near it */
    long nmask, nmask_fallback, nmask_checked, nmask_bad, nback_steps, nceil, nowland;
    long nfree_steps;
    int keep_slot; /* g->keep slot the scratch goes back to, or -1 */
} build;

/* A build's scratch between builds and repairs (tn_surf.keep): the vectors
 * with their room, the hash and memo tables with their generations (their
 * stamps stay valid), so the next search does not grow them again from
 * nothing.  Fresh pages cost a fault each where memory was given back. */
typedef struct surf_keep {
    vec ent, pred, bits, plans, pend, pbits, js_free, js_block, touched, seq, bpath, mmask, mwork;
    struct bt_memo *memo;
    size_t mcap;
    uint32_t mgen;
    uint32_t *hash, *hstamp;
    size_t hcap;
    uint32_t hgen;
    int32_t *phead;
    uint32_t *pstamp;
    uint32_t pgen;
} surf_keep;

#define KEEP_VECS 13
static void keep_vecs(surf_keep *k, vec *v[KEEP_VECS])
{
    vec *all[KEEP_VECS] = {&k->ent,   &k->pred,    &k->bits,     &k->plans,   &k->pend,
                           &k->pbits, &k->js_free, &k->js_block, &k->touched, &k->seq,
                           &k->bpath, &k->mmask,   &k->mwork};
    memcpy(v, all, sizeof all);
}

static void surf_keep_free(surf_keep *k, const tn_allocator *a)
{
    vec *v[KEEP_VECS];
    keep_vecs(k, v);
    for (int i = 0; i < KEEP_VECS; i++) vec_free(v[i], a);
    tn_free(a, k->memo);
    tn_free(a, k->hash);
    tn_free(a, k->hstamp);
    tn_free(a, k->phead);
    tn_free(a, k->pstamp);
    k->memo = NULL, k->hash = k->hstamp = NULL, k->phead = NULL, k->pstamp = NULL;
    k->mcap = k->hcap = 0;
}

static void keep_release(tn_surf *g)
{
    for (int i = 0; i < g->nkeep; i++) surf_keep_free(&g->keep[i], &g->alloc);
    tn_free(&g->alloc, g->keep);
    g->keep = NULL;
    g->nkeep = 0;
}

/* One slot per thread that builds (profile.threads, at least 1).  Out of
 * memory: none (each build and repair then frees its scratch after use). */
static void keep_init(tn_surf *g)
{
    const int n = g->prof.threads > 1 ? g->prof.threads : 1;
    if (g->keep && g->nkeep == n) return;
    keep_release(g);
    g->keep = tn_alloc_array(&g->alloc, (size_t)n, sizeof *g->keep);
    g->nkeep = g->keep ? n : 0;
}

#define KCOL_OFF 4

/* Per column c = -KCOL_OFF .. mw + KCOL_OFF: the lattice positions within
 * a step (+2 px) of it, the near-terrain set K of run_dp. */
static bool kranges_init(build *B)
{
    const tn_surf *g = B->g;
    const float W = (float)g->prof.w * T;
    size_t n = (size_t)g->mw + 2 * KCOL_OFF + 1;
    B->kjl = tn_alloc_array(B->a, n, sizeof(int32_t));
    B->kjh = tn_alloc_array(B->a, n, sizeof(int32_t));
    if (!B->kjl || !B->kjh) return false;
    for (int c = -KCOL_OFF; c <= g->mw + KCOL_OFF; c++) {
        float c16 = (float)c * T;
        B->kjl[c + KCOL_OFF] = (int)floorf((c16 - W - g->step_px - 2.0f) / g->step_px);
        B->kjh[c + KCOL_OFF] = (int)ceilf((c16 + T + g->step_px + 2.0f) / g->step_px);
    }
    return true;
}

/* The summed-area table of non-empty tiles (lean_step's free test). */
static bool sat_build(build *B)
{
    const tn_map *m = B->m;
    const size_t w1 = (size_t)m->w + 1;
    B->sat = alloc_unzeroed(B->a, ((size_t)m->h + 1) * w1, sizeof(int32_t));
    if (!B->sat) return false;
    memset(B->sat, 0, w1 * sizeof *B->sat); /* row 0; column 0 below */
    for (int r = 0; r < m->h; r++) {
        int32_t run = 0;
        const int32_t *up = B->sat + (size_t)r * w1;
        int32_t *row = B->sat + (size_t)(r + 1) * w1;
        row[0] = 0;
        for (int c = 0; c < m->w; c++) {
            run += m->tile[(size_t)r * (size_t)m->w + (size_t)c] != TN_TILE_EMPTY;
            row[c + 1] = up[c + 1] + run;
        }
    }
    return true;
}

/* Column prefix sums of the map's non-empty tiles (B->colpre: (rows + 1)
 * x columns, row r + 1 counting rows 0..r) and the scratch row colbad. */
static bool colpre_build(build *B)
{
    const tn_map *m = B->m;
    const size_t w = (size_t)m->w;
    B->colpre = alloc_unzeroed(B->a, ((size_t)m->h + 1) * w, sizeof(int32_t));
    B->colbad = tn_alloc(B->a, w + 16);
    if (!B->colpre || !B->colbad) return false;
    memset(B->colpre, 0, w * sizeof *B->colpre);
    for (size_t r = 0; r < (size_t)m->h; r++)
        for (size_t c = 0; c < w; c++)
            B->colpre[(r + 1) * w + c] =
                B->colpre[r * w + c] + (m->tile[r * w + c] != TN_TILE_EMPTY);
    return true;
}

/* True when rows r0..r1 x columns c0..c1 are inside the map and empty. */
static bool sat_empty(const build *B, int r0, int r1, int c0, int c1)
{
    const tn_map *m = B->m;
    if (r0 < 0 || c0 < 0 || r1 >= m->h || c1 >= m->w) return false;
    const size_t w1 = (size_t)m->w + 1;
    const int32_t *a = B->sat + (size_t)r0 * w1, *b = B->sat + (size_t)(r1 + 1) * w1;
    return b[c1 + 1] - b[c0] - a[c1 + 1] + a[c0] == 0;
}

/* A repair's tile (x, y) turned non-empty (delta 1) or empty (-1): the
 * graph's column sums and summed-area table (kept from the build) follow,
 * O(rows) and O(tiles below and right of it) additions instead of two
 * passes over the map. */
static void sums_update(tn_surf *g, int x, int y, int delta)
{
    const size_t w = (size_t)g->mw, w1 = w + 1;
    for (size_t r = (size_t)y + 1; r <= (size_t)g->mh; r++) {
        g->colpre[r * w + (size_t)x] += delta;
        if (g->sat) {
            int32_t *row = g->sat + r * w1;
            for (size_t c = (size_t)x + 1; c <= w; c++) row[c] += delta;
        }
    }
}

/* The surfaces' tests by the tiles alone (the fast build, tn_body_step):
 * a free box over a block or one-way top under one of its columns stands
 * (tn_body_step from rest falls a fraction of a pixel onto that top), on a
 * one-way only when no block is among them, and a walk step between two
 * standing positions of a row stands (the box sweeps only through the two
 * free boxes, and lands on the second's support).  A -DTN_SURF_DEBUG
 * build checks every call against the step function; test_fast_equals_naive
 * compares the surfaces with the naive build's, which steps. */
static bool stands_by_tiles(const tn_surf *g)
{
    return builtin_step(&g->prof) && !g->prof.reference_build;
}

static bool stands(const tn_surf *g, const tn_map *m, int row, int j, bool *oneway_only)
{
    const int w = g->prof.w, h = g->prof.h;
    float x = lat_x(g, j);
    float W = (float)w * T;
    int c0 = (int)floorf((x + EPS) / T), c1 = (int)ceilf((x + W - EPS) / T) - 1;
    bool sup = false, blk = false;
    for (int c = c0; c <= c1; c++) {
        int t = tn_map_tile(m, c, row);
        sup = sup || t == TN_TILE_BLOCK || t == TN_TILE_ONEWAY;
        blk = blk || t == TN_TILE_BLOCK;
    }
    if (!sup) return false;
    float y = (float)row * T - (float)h * T;
    if (tn_body_box_blocked(m, &g->prof.phys, x, y, w, h)) return false;
#ifndef TN_SURF_DEBUG
    if (stands_by_tiles(g)) {
        *oneway_only = !blk;
        return true;
    }
#endif
    tn_body b = stand_body(g, row, j);
    tn_input none = {false, false, false, false};
    run_step(&g->prof, &b, m, none);
    const bool st = b.on_ground && fabsf(b.x - x) <= SNAP_MAX_PX && fabsf(b.y - y) <= SNAP_MAX_PX;
#ifdef TN_SURF_DEBUG
    if (stands_by_tiles(g) && (!st || b.on_oneway_only != !blk)) {
        fprintf(stderr, "stands_by_tiles: (%d, %d) stands %d one-way only %d, by tiles 1 %d\n", row,
                j, st, b.on_oneway_only, !blk);
        abort();
    }
#endif
    if (!st) return false;
    *oneway_only = b.on_oneway_only;
    return true;
}

/* A walk step from (row, j) in direction dir lands standing at j + dir. */
static bool walks(const tn_surf *g, const tn_map *m, int row, int j, int dir)
{
    tn_body b = stand_body(g, row, j);
    tn_input in = {dir<0, dir> 0, false, false};
    run_step(&g->prof, &b, m, in);
    return b.on_ground && body_row(&b) == row && lat_j(g, b.x) == j + dir &&
           fabsf(b.x - lat_x(g, j + dir)) <= SNAP_MAX_PX;
}

/* The surfaces of one row, appended to `out`. */
static bool row_surfaces(const tn_surf *g, const tn_map *m, int row, vec *out,
                         const tn_allocator *a)
{
    int run_start = -1, near_c = INT32_MIN;
    bool prev_ok = false, near = false;
    for (int j = 0; j <= g->jmax + 1; j++) {
        /* stands' first test, support under the box, needs a block or
         * one-way top in the columns near j's: tested once per column */
        const int c = j / g->per_tile;
        if (c != near_c) {
            near_c = c;
            near = false;
            for (int q = c - 1; q <= c + g->prof.w + 1 && !near; q++) {
                int t = tn_map_tile(m, q, row);
                near = t == TN_TILE_BLOCK || t == TN_TILE_ONEWAY;
            }
        }
        bool ow = false;
        bool ok = j <= g->jmax && near && stands(g, m, row, j, &ow);
        bool joined =
            ok && prev_ok &&
            (stands_by_tiles(g) || (walks(g, m, row, j - 1, 1) && walks(g, m, row, j, -1)));
#ifdef TN_SURF_DEBUG
        if (ok && prev_ok && stands_by_tiles(g) &&
            !(walks(g, m, row, j - 1, 1) && walks(g, m, row, j, -1))) {
            fprintf(stderr, "stands_by_tiles: a walk between (%d, %d) and j + 1 fails\n", row,
                    j - 1);
            abort();
        }
#endif
        if (run_start >= 0 && !joined) {
            tn_surf_surface *s = vec_push(out, a);
            if (!s) return false;
            s->row = row;
            s->j0 = run_start;
            s->j1 = j - 1;
            s->node0 = 0;
            run_start = -1;
        }
        if (ok && run_start < 0) run_start = j;
        prev_ok = ok;
    }
    return true;
}

static bool find_surfaces(build *B)
{
    for (int row = B->g->prof.h; row <= B->g->mh; row++)
        if (!row_surfaces(B->g, B->m, row, &B->surf, B->a)) return false;
    return true;
}

static uint32_t hash_key(const tn_body *b)
{
    uint32_t y, vy;
    memcpy(&y, &b->y, 4);
    memcpy(&vy, &b->vy, 4);
    uint32_t h = y * 0x85EBCA77u;
    h = (h << 13) | (h >> 19);
    h ^= vy * 0xC2B2AE3Du;
    h ^= (uint32_t)(b->rising | (b->jump_held << 1) | (b->on_ground << 2) |
                    (b->on_oneway_only << 3)) *
         0x27D4EB2Fu;
    h ^= (uint32_t)tn_mini(b->air_frames, 255) * 0x165667B1u;
    h ^= h >> 15;
    return h * 0x9E3779B1u;
}

static bool same_v(const tn_body *a, const tn_body *b)
{
    return memcmp(&a->y, &b->y, 4) == 0 && memcmp(&a->vy, &b->vy, 4) == 0 &&
           a->rising == b->rising && a->jump_held == b->jump_held && a->on_ground == b->on_ground &&
           a->on_oneway_only == b->on_oneway_only && a->air_frames == b->air_frames;
}

/* Fields that cannot change the future are set to one value: air_frames
 * past coyote time all behave alike, and jump_held only matters where a
 * jump can still start (the ground, coyote time) or be cut (rising). */
static void canon(const tn_surf *g, tn_body *b)
{
    int coyote = g->prof.phys.coyote_frames;
    if (b->air_frames > coyote) b->air_frames = coyote + 1;
    if (!b->on_ground && !b->rising && b->air_frames > coyote) b->jump_held = false;
    b->hit_ceiling = b->hit_wall = b->jumped = false;
    b->vx = 0.0f;
}

static bool hash_init(build *B, size_t n)
{
    size_t cap = 1024;
    while (cap < n * 2) cap *= 2;
    if (cap <= B->hcap) {
        if (++B->hgen == 0) {
            memset(B->hstamp, 0, B->hcap * sizeof *B->hstamp);
            B->hgen = 1;
        }
        return true;
    }
    tn_free(B->a, B->hash);
    tn_free(B->a, B->hstamp);
    B->hash = tn_alloc_array(B->a, cap, sizeof *B->hash);
    B->hstamp = tn_alloc_array(B->a, cap, sizeof *B->hstamp);
    B->hcap = B->hash && B->hstamp ? cap : 0;
    B->hgen = 1;
    return B->hcap != 0;
}

static dp_entry *ent(build *B, int32_t i) { return (dp_entry *)B->ent.p + i; }

/* The next layer's entry for state v (created empty), or -1 on OOM. */
static int32_t get_entry(build *B, const tn_body *v, int t, int lo, int words, size_t layer0)
{
    if ((B->ent.n - layer0 + 1) * 2 > B->hcap) {
        /* grow: re-insert the layer's entries */
        size_t cap = B->hcap * 2;
        tn_free(B->a, B->hash);
        tn_free(B->a, B->hstamp);
        B->hash = tn_alloc_array(B->a, cap, sizeof *B->hash);
        B->hstamp = tn_alloc_array(B->a, cap, sizeof *B->hstamp);
        B->hcap = B->hash && B->hstamp ? cap : 0;
        if (!B->hcap) return -1;
        B->hgen = 1;
        for (size_t i = layer0; i < B->ent.n; i++) {
            size_t h = hash_key(&ent(B, (int32_t)i)->v) & (cap - 1);
            while (B->hstamp[h] == B->hgen) h = (h + 1) & (cap - 1);
            B->hstamp[h] = B->hgen;
            B->hash[h] = (uint32_t)i + 1;
        }
    }
    size_t mask = B->hcap - 1, h = hash_key(v) & mask;
    while (B->hstamp[h] == B->hgen) {
        int32_t i = (int32_t)B->hash[h] - 1;
        if (same_v(&ent(B, i)->v, v)) return i;
        h = (h + 1) & mask;
    }
    dp_entry *e = vec_push(&B->ent, B->a);
    if (!e || !vec_reserve(&B->bits, B->a, B->bits.n + (size_t)words)) return -1;
    e->v = *v;
    e->t = t;
    e->lo = lo;
    e->words = words;
    e->bits = (uint32_t)B->bits.n;
    e->pred = -1;
    e->plan[0] = e->plan[1] = -2;
    memset((uint64_t *)B->bits.p + B->bits.n, 0, (size_t)words * 8);
    B->bits.n += (size_t)words;
    B->hstamp[h] = B->hgen;
    B->hash[h] = (uint32_t)B->ent.n;
    return (int32_t)B->ent.n - 1;
}

static bool add_pred(build *B, int32_t to, int32_t from, int in)
{
    dp_entry *e = ent(B, to);
    if (e->pred >= 0) {
        const dp_pred *p = (const dp_pred *)B->pred.p + e->pred;
        if (p->from == from && p->in == in) return true;
    }
    dp_pred *p = vec_push(&B->pred, B->a);
    if (!p) return false;
    e = ent(B, to);
    p->from = from;
    p->in = (uint8_t)in;
    p->k = 0;
    p->next = e->pred;
    e->pred = (int32_t)B->pred.n - 1;
    return true;
}

static void set_bit(build *B, int32_t i, int j)
{
    dp_entry *e = ent(B, i);
    int k = j - e->lo;
    ((uint64_t *)B->bits.p)[e->bits + (uint32_t)(k >> 6)] |= 1ull << (k & 63);
}

static bool get_bit(build *B, int32_t i, int j)
{
    dp_entry *e = ent(B, i);
    int k = j - e->lo;
    if (k < 0 || k >= e->words * 64) return false;
    return (((uint64_t *)B->bits.p)[e->bits + (uint32_t)(k >> 6)] >> (k & 63)) & 1;
}

/* The leftmost (dir < 0) or rightmost set position of entry i in [a, b],
 * word by word; INT32_MIN when none. */
static int far_bit(build *B, int32_t i, int a, int b, int dir)
{
    const dp_entry *e = ent(B, i);
    const uint64_t *w = (const uint64_t *)B->bits.p + e->bits;
    const int ka = tn_maxi(a - e->lo, 0), kb = tn_mini(b - e->lo, e->words * 64 - 1);
    if (ka > kb) return INT32_MIN;
    const int wa = ka >> 6, wb = kb >> 6, step = dir < 0 ? 1 : -1;
    for (int q = dir < 0 ? wa : wb; q >= wa && q <= wb; q += step) {
        uint64_t x = w[q];
        if (q == wa) x &= ~0ull << (ka & 63);
        if (q == wb && (kb & 63) != 63) x &= (1ull << ((kb & 63) + 1)) - 1;
        if (x) return e->lo + 64 * q + (dir < 0 ? __builtin_ctzll(x) : 63 - __builtin_clzll(x));
    }
    return INT32_MIN;
}

static void landed_at(build *B, int surf_id, int32_t e, int j, int in, int row, int jn, int frames);

static void landed(build *B, int surf_id, int32_t e, int j, int in, const tn_body *b, int frames)
{
    landed_at(B, surf_id, e, j, in, body_row(b), lat_j(B->g, b->x), frames);
}

/* A landing on (row, jn) from position j of entry e with input `in`. */
static void landed_at(build *B, int surf_id, int32_t e, int j, int in, int row, int jn, int frames)
{
    tn_surf *g = B->g;
    /* landings come in runs along a row: the last surface found first */
    int node;
    const tn_surf_surface *L =
        B->last_land >= 0 && B->last_land < g->nsurf ? &g->surf[B->last_land] : NULL;
    if (L && L->row == row && jn >= L->j0 && jn <= L->j1) {
        node = L->node0 + (jn - L->j0);
    } else {
        node = tn_surf_node_at(g, row, jn);
        if (node < 0) return;
        B->last_land = g->node_surf[node];
    }
    if (g->node_surf[node] == surf_id) return;
    best_rec *r = &B->best[node];
    if (r->stamp == B->bstamp && r->frames <= frames) return;
    if (r->stamp != B->bstamp) {
        int32_t *t = vec_push(&B->touched, B->a);
        if (!t) {
            B->oom = true;
            return;
        }
        *t = node;
    }
    r->stamp = B->bstamp;
    r->frames = frames;
    r->entry = e;
    r->j = j;
    r->in = (uint8_t)in;
}

/* Inputs allowed from state v at frame t (t = 0: the group's first inputs). */
static int inputs_for(const tn_surf *g, const tn_body *v, int t, int kind, int dir, int *out)
{
    int n = 0;
    if (t == 0) {
        if (kind == TN_SURF_WALKOFF) {
            out[n++] = dir < 0 ? TN_SURF_IN_LEFT : TN_SURF_IN_RIGHT;
            return n;
        }
        int extra = kind == TN_SURF_JUMP ? TN_SURF_IN_JUMP : TN_SURF_IN_DOWN;
        out[n++] = TN_SURF_IN_LEFT | extra;
        out[n++] = extra;
        out[n++] = TN_SURF_IN_RIGHT | extra;
        return n;
    }
    const tn_phys_params *p = &g->prof.phys;
    const int cy = g->prof.coyote;
    const bool cuttable = v->rising && v->vy < -p->jump_cut_speed;
    bool jump_matters =
        cuttable || (cy != TN_SURF_COYOTE_NONE && !v->on_ground &&
                     v->air_frames >= (cy == TN_SURF_COYOTE_ALL ? 1 : p->coyote_frames) &&
                     v->air_frames <= p->coyote_frames);
    /* _FULL: a walk-off's only rise is its coyote jump, held to the top */
    const int jp0 = cy == TN_SURF_COYOTE_FULL && kind == TN_SURF_WALKOFF && cuttable ? 1 : 0;
    for (int jp = jp0; jp < (jump_matters ? 2 : 1); jp++) {
        int jb = jp ? TN_SURF_IN_JUMP : 0;
        out[n++] = TN_SURF_IN_LEFT | jb;
        out[n++] = jb;
        out[n++] = TN_SURF_IN_RIGHT | jb;
    }
    return n;
}

/* Columns (relative to cbase) within reach of a step from state v are
 * marked in B->colbad when any tile there (rows the box can touch in one
 * step, plus the row under it) is not empty or outside the map. */
static void mark_columns(build *B, const tn_body *v, int cbase, int k0, int k1)
{
    tn_surf *g = B->g;
    /* a step moves y by at most max(|vy|, |vy| + g dt) dt (capped by the
     * fastest vertical speed); 1.5 px more covers rounding and the ground
     * test just under the feet */
    const tn_phys_params *p = &g->prof.phys;
    float sp = tn_minf(fabsf(v->vy) + p->gravity * p->dt, g->vmax / p->dt);
    float H = (float)g->prof.h * T, reach = sp * p->dt + 1.5f;
    int r0 = (int)floorf((v->y - reach) / T), r1 = (int)floorf((v->y + H + reach) / T);
    bool rows_out = r0 < 0 || r1 >= g->mh;
    int rr0 = tn_clampi(r0, 0, g->mh), rr1 = tn_clampi(r1 + 1, 0, g->mh);
    for (int k = k0; k <= k1; k++) {
        int c = cbase + k;
        B->colbad[k] = (uint8_t)(rows_out || c < 0 || c >= g->mw ||
                                 B->colpre[rr1 * g->mw + c] - B->colpre[rr0 * g->mw + c] > 0);
    }
}

static tn_body at_x(const tn_surf *g, const tn_body *v, int j)
{
    tn_body b = *v;
    b.x = lat_x(g, j);
    return b;
}

/* One step of input `in` from state v at lattice j; false when the result
 * is off the lattice (not this physics). */
static bool step_at(build *B, const tn_body *v, int j, int in, tn_body *out, int *jn)
{
    tn_surf *g = B->g;
    *out = at_x(g, v, j);
    B->nsteps++;
    run_step(&g->prof, out, B->m, input_of(in));
    *jn = lat_j(g, out->x);
    if (fabsf(lat_x(g, *jn) - out->x) > SNAP_MAX_PX) return false;
    canon(g, out);
    return true;
}

/* Bits a..b (inclusive) of bitmap w set. */
void set_bit_range(uint64_t *w, size_t a, size_t b)
{
    size_t wa = a >> 6, wb = b >> 6;
    uint64_t ma = ~(uint64_t)0 << (a & 63), mb = ~(uint64_t)0 >> (63 - (b & 63));
    if (wa == wb) {
        w[wa] |= ma & mb;
        return;
    }
    w[wa] |= ma;
    for (size_t k = wa + 1; k < wb; k++) w[k] = ~(uint64_t)0;
    w[wb] |= mb;
}

/* The footprint of the search just run (its row spans, then cleared): its
 * bounding box and a bitmap of the tiles, appended to the pool. */
static bool foot_flush(build *B, int surf, int search)
{
    B->flast[0] = -1; /* (foot_rect) */
    if (!B->fspan || B->frlo > B->frhi) return true;
    int32_t *sp = B->fspan;
    const int y0 = B->frlo, y1 = B->frhi;
    int x0 = INT32_MAX, x1 = -1;
    for (int y = y0; y <= y1; y++)
        if (sp[2 * y + 1] >= 0) x0 = tn_mini(x0, sp[2 * y]), x1 = tn_maxi(x1, sp[2 * y + 1]);
    const size_t w = (size_t)(x1 - x0 + 1), words = (w * (size_t)(y1 - y0 + 1) + 63) / 64;
    const size_t off = B->fbits.n;
    tn_surf_foot *f = vec_push(&B->foots, B->a);
    if (!f || off + words > UINT32_MAX || !vec_reserve(&B->fbits, B->a, off + words)) return false;
    uint64_t *bw = (uint64_t *)B->fbits.p + off;
    memset(bw, 0, words * sizeof *bw);
    B->fbits.n += words;
    for (int y = y0; y <= y1; y++) {
        if (sp[2 * y + 1] >= 0) {
            size_t row = (size_t)(y - y0) * w;
            set_bit_range(bw, row + (size_t)(sp[2 * y] - x0), row + (size_t)(sp[2 * y + 1] - x0));
        }
        sp[2 * y] = INT32_MAX, sp[2 * y + 1] = -1;
    }
    B->frlo = INT32_MAX, B->frhi = -1;
    f->surf = surf;
    f->x0 = (int16_t)x0, f->y0 = (int16_t)y0, f->x1 = (int16_t)x1, f->y1 = (int16_t)y1;
    f->bits = (uint32_t)off;
    f->search = (uint8_t)search;
    return true;
}

size_t foot_words(const tn_surf_foot *f)
{
    return ((size_t)(f->x1 - f->x0 + 1) * (size_t)(f->y1 - f->y0 + 1) + 63) / 64;
}

/* The footprints' bitmaps laid out again in record order, without the
 * dead ones (a repair leaves those where they are), and with room for a
 * quarter more.  In place when the records' bitmaps are in pool order, as
 * builds and repairs leave them (each moves down only), else in a new
 * array; false on OOM. */
static bool fbits_relayout(vec *fbits, tn_surf_foot *f, size_t nf, const tn_allocator *a)
{
    size_t live = 0;
    bool inorder = true;
    for (size_t i = 0; i < nf; i++) {
        inorder = inorder && (i == 0 || f[i].bits >= f[i - 1].bits + foot_words(&f[i - 1]));
        live += foot_words(&f[i]);
    }
    const size_t room = live + live / 4 + 64;
    uint64_t *nb = inorder ? fbits->p : alloc_unzeroed(a, room, sizeof *nb);
    if (!nb) return false;
    const uint64_t *ob = fbits->p;
    size_t k = 0;
    for (size_t i = 0; i < nf; i++) {
        const size_t w = foot_words(&f[i]);
        if (nb + k != ob + f[i].bits) memmove(nb + k, ob + f[i].bits, w * sizeof *nb);
        f[i].bits = (uint32_t)k;
        k += w;
    }
    if (!inorder) {
        tn_free(a, fbits->p);
        fbits->p = nb, fbits->cap = room;
    }
    fbits->n = k;
    /* room for a quarter more, not much above it */
    if (fbits->cap < k + k / 8 + 64 || fbits->cap > 2 * room) return vec_realloc(fbits, a, room);
    return true;
}

/* Whether footprint f holds tile (x, y). */
static bool foot_has(const uint64_t *fbits, const tn_surf_foot *f, int x, int y)
{
    if (x < f->x0 || x > f->x1 || y < f->y0 || y > f->y1) return false;
    size_t i = (size_t)(y - f->y0) * (size_t)(f->x1 - f->x0 + 1) + (size_t)(x - f->x0);
    return fbits[f->bits + i / 64] >> (i % 64) & 1;
}

/* The virtual step: state v stepped with input `in` on an empty map as
 * tall as the real one, far from its side edges.  *dj = the lattice move.
 * False when it cannot stand for free positions (off the lattice, landed,
 * or stopped by the map's top or bottom). */
typedef struct vstep {
    bool ok;
    int dj;
    tn_body r;    /* canonical result */
    int ra, rb;   /* rows its vertical move and ground test read */
    int rh0, rh1; /* rows its horizontal move reads */
} vstep;

/* floorf / ceilf for |x| < 2^31, without the library calls */
static inline int ifloor(float x)
{
    int i = (int)x;
    return i - (x < (float)i);
}
static inline int iceil(float x)
{
    int i = (int)x;
    return i + (x > (float)i);
}
/* the physics' span(): tiles covered by the open interval (a, a + len) */
static int span_lo(float a) { return ifloor((a + EPS) / T); }
static int span_hi(float a, float len) { return iceil((a + len - EPS) / T) - 1; }

static void virtual_step(build *B, const tn_body *v, int in, vstep *o)
{
    tn_surf *g = B->g;
    memset(o, 0, sizeof *o);
    if (!B->fast) return;
    int jv = 4 * g->per_tile;
    tn_body b = at_x(g, v, jv);
    B->nsteps++;
    tn_body_step(&b, B->vmap, &g->prof.phys, input_of(in));
    int jn = lat_j(g, b.x);
    if (fabsf(lat_x(g, jn) - b.x) > SNAP_MAX_PX) return;
    if (b.on_ground || b.hit_wall || b.hit_ceiling) return;
    const float H = (float)g->prof.h * T;
    /* a vertical stop by the map's bottom without landing cannot happen
     * (a stop down lands); a top stop sets hit_ceiling */
    float y0 = v->y, y1 = b.y;
    o->rh0 = span_lo(y0);
    o->rh1 = span_hi(y0 + 1.0f, H); /* +1: the drop-through */
    o->ra = tn_mini(span_lo(y1), o->rh0);
    o->rb = tn_maxi(span_hi(y1, H), o->rh1);
    /* the ground test reads the row under the feet when they are within
     * EPS of a tile top */
    float bottom = y1 + H, rf = roundf(bottom / T);
    if (fabsf(bottom - rf * T) <= 2.0f * EPS) o->rb = tn_maxi(o->rb, (int)rf);
    if (o->ra < 0 || o->rb >= g->mh) return; /* the map edge is in reach */
    canon(g, &b);
    o->r = b;
    o->dj = jn - jv;
    o->ok = true;
}

/* True when every tile the virtual step would read, moved to lattice j,
 * is empty on the real map: then the real step reads the same tiles with
 * the same values, so it makes the same decisions and ends in the same
 * state, dj lattice steps away.  The tiles: the columns entered by the
 * horizontal move (rows rh0..rh1), and the box's columns after it (rows
 * ra..rb: the vertical move, the box itself and the ground test). */
static bool free_window(const build *B, const vstep *o, int j)
{
    const tn_surf *g = B->g;
    /* the box's columns at lattice j: x = 16c + 16p/per_tile (p < per_tile)
     * spans columns c .. c+w-1, and one more when p > 0 (the physics'
     * 1/8 px margins make this exact) */
    const int pt = g->per_tile, w = g->prof.w;
    int jn = j + o->dj;
    if (j < 0 || jn < 0) return false;
    int c0 = j / pt, c1 = c0 + w - (j % pt == 0), n0 = jn / pt, n1 = n0 + w - (jn % pt == 0);
    int lo = tn_mini(c0, n0), hi = tn_maxi(c1, n1);
    if (hi >= g->mw) return false;
    const int32_t *cp = B->colpre;
    const int mw = g->mw;
    for (int c = lo; c <= hi; c++) {
        bool box = c >= n0 && c <= n1;
        int r0 = box ? tn_mini(o->ra, o->rh0) : o->rh0, r1 = box ? tn_maxi(o->rb, o->rh1) : o->rh1;
        if (cp[(r1 + 1) * mw + c] - cp[r0 * mw + c] > 0) return false;
    }
    return true;
}

/* ---- mask stepping --------------------------------------------------------
 * With tn_body_step every position of a DP entry shares the vertical state,
 * so a step of input `in` makes the same vertical decisions for all of them
 * except where a tile stops the box, and which positions a tile stops is a
 * lattice bitset per map row r (-1 .. mh + 1; outside the map is block),
 * precomputed (bit j + LM_OFF = lattice j, pt = lattice steps per tile):
 *  LM_BLK  the box at j overlaps a block in row r (its columns are j/pt ..
 *          j/pt + w - (j%pt == 0), exact with the physics' 1/8 px margins);
 *  LM_OW   the same for one-way tiles;
 *  LM_ER   j%pt == 0 and column j/pt + w (entered by a step right) is a block;
 *  LM_EL   j%pt == 0 and column j/pt - 1 (entered by a step left) is a block.
 * A walk step moves at most 16/pt <= 8 px: one sub-move entering at most one
 * column, so it is blocked where LM_ER (LM_EL) of the box's rows is set, and
 * a blocked body stays at j (x is tile-aligned there).  The vertical
 * sub-moves enter the same rows for every position (the y is shared), in
 * order; at each, the positions whose box (at its new j) overlaps a block, or
 * a one-way going down from above it, land or hit the ceiling, the rest go
 * on; a ceiling hit has its own ground test, the rest the shared one.  Every
 * group ends in one state, and the groups are handed to the DP in the order
 * stepping the positions one by one would create them, so entries, bits,
 * predecessors and landings are exactly those of the per-position code. */
enum { LM_BLK, LM_OW, LM_ER, LM_EL, LM_KINDS };
#define LM_OFF 64
#define MAX_EV 4
#define MAX_GROUPS (2 * MAX_EV + 2)

static int floordiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static uint64_t *lm_row(const build *B, int kind, int r)
{
    return B->lm + ((size_t)kind * (size_t)(B->g->mh + 3) + (size_t)(r + 1)) * (size_t)B->lmw;
}

static void mask_row(build *B, int r)
{
    const tn_surf *g = B->g;
    const int pt = g->per_tile, w = g->prof.w, nbits = B->lmw * 64;
    uint64_t *rk[LM_KINDS];
    for (int k = 0; k < LM_KINDS; k++) {
        rk[k] = lm_row(B, k, r);
        memset(rk[k], 0, (size_t)B->lmw * 8);
    }
    /* per tile column c, its pt lattice positions j = c pt + p: the box
     * covers columns c .. c + w - 1 when p = 0, c .. c + w otherwise */
    const int cf = floordiv(-LM_OFF, pt), cl = floordiv(nbits - 1 - LM_OFF, pt);
    for (int c = cf; c <= cl; c++) {
        bool blk = false, ow = false;
        for (int q = c; q < c + w; q++) {
            int tl = tn_map_tile(B->m, q, r);
            blk |= tl == TN_TILE_BLOCK;
            ow |= tl == TN_TILE_ONEWAY;
        }
        const int te = tn_map_tile(B->m, c + w, r);
        const bool blk1 = blk || te == TN_TILE_BLOCK, ow1 = ow || te == TN_TILE_ONEWAY;
        const bool er = te == TN_TILE_BLOCK, el = tn_map_tile(B->m, c - 1, r) == TN_TILE_BLOCK;
        for (int p = 0; p < pt; p++) {
            const int i = c * pt + p + LM_OFF;
            if (i < 0 || i >= nbits) continue;
            const uint64_t bit = 1ull << (i & 63);
            if (p ? blk1 : blk) rk[LM_BLK][i >> 6] |= bit;
            if (p ? ow1 : ow) rk[LM_OW][i >> 6] |= bit;
            if (p == 0 && er) rk[LM_ER][i >> 6] |= bit;
            if (p == 0 && el) rk[LM_EL][i >> 6] |= bit;
        }
    }
}

/* Turns mask stepping on when it applies; false on out of memory. */
static bool masks_init(build *B)
{
    tn_surf *g = B->g;
    B->mwork.elem = sizeof(uint64_t);
    if (!B->fast || g->per_tile < 2) return true;
    B->lmw = (g->jmax + LM_OFF + 192) / 64 + 2;
    if (!g->masks) { /* the graph keeps them (a row depends on that row's tiles only) */
        size_t n = (size_t)LM_KINDS * (size_t)(g->mh + 3) * (size_t)B->lmw;
        g->masks = tn_alloc_array(B->a, n, sizeof(uint64_t));
        g->masks_ready = tn_alloc(B->a, (size_t)g->mh + 3);
        if (!g->masks || !g->masks_ready) return false;
    }
    B->lm = g->masks;
    B->lm_ready = g->masks_ready;
    B->masks = true;
    return true;
}

/* 64 bits of a mask row from lattice j (j >= -LM_OFF). */
static inline uint64_t rword(const uint64_t *row, int j)
{
    int i = j + LM_OFF, w = i >> 6, o = i & 63;
    return o ? (row[w] >> o) | (row[w + 1] << (64 - o)) : row[w];
}

/* row |= 64 bits from lattice j on (j >= -LM_OFF). */
static inline void row_or(uint64_t *row, int j, uint64_t bits)
{
    int i = j + LM_OFF, w = i >> 6, o = i & 63;
    row[w] |= bits << o;
    if (o) row[w + 1] |= bits >> (64 - o);
}

/* The positions of row r landed on in the current group (B->ldone), or
 * NULL (B->oom). */
static uint64_t *landed_row(build *B, int r)
{
    const size_t rows = (size_t)B->g->mh + 3, w = (size_t)B->lmw;
    if (!B->ldone) {
        B->ldone = alloc_unzeroed(B->a, rows * w, sizeof(uint64_t));
        B->lstamp = tn_alloc_array(B->a, rows, sizeof(uint32_t));
        if (!B->ldone || !B->lstamp) {
            B->oom = true;
            return NULL;
        }
    }
    uint64_t *row = B->ldone + (size_t)(r + 1) * w;
    if (B->lstamp[r + 1] != B->bstamp) {
        memset(row, 0, w * sizeof *row);
        B->lstamp[r + 1] = B->bstamp;
    }
    return row;
}

/* D |= S moved by `shift` bits, bits past maxbit (or below 0) dropped. */
static void or_shifted(uint64_t *D, int dwords, const uint64_t *S, int swords, int shift,
                       int maxbit)
{
    if (maxbit >= 0) {
        /* whole words, then the bits past maxbit cleared (a bitset never
         * holds bits past its maxbit, so no earlier bit is lost) */
        int dw = floordiv(shift, 64), off = shift - dw * 64;
        int w0 = tn_maxi(0, -dw - 1), w1 = tn_mini(swords - 1, dwords - dw);
        for (int w = w0; w <= w1; w++) {
            uint64_t x = S[w];
            int d = w + dw;
            if (d >= 0 && d < dwords) D[d] |= x << off;
            if (off && d + 1 >= 0 && d + 1 < dwords) D[d + 1] |= x >> (64 - off);
        }
        int lw = maxbit / 64;
        if (lw < dwords) {
            int nb = maxbit - lw * 64 + 1;
            if (nb < 64) D[lw] &= (1ull << nb) - 1;
            for (int d = lw + 1; d < dwords; d++) D[d] = 0;
        }
        return;
    }
    for (int w = 0; w < swords; w++) {
        if (!S[w]) continue;
        int bit = w * 64 + shift, dw = floordiv(bit, 64), off = bit - dw * 64;
        uint64_t parts[2] = {S[w] << off, off ? S[w] >> (64 - off) : 0};
        for (int k = 0; k < 2; k++) {
            int d = dw + k;
            if (d < 0 || d >= dwords || !parts[k]) continue;
            int nb = maxbit - d * 64 + 1;
            uint64_t lim = nb >= 64 ? ~0ull : nb <= 0 ? 0 : (1ull << nb) - 1;
            D[d] |= parts[k] & lim;
        }
    }
}

/* The walk step of a bitset of W words (bit 0 = lattice lo) into W words of
 * the same lattice: D = L moved left one step | S | R moved right one step
 * (D is overwritten).  The sets leave bit 0 and the last bit clear, so no
 * step falls outside. */
static void dilate(uint64_t *D, const uint64_t *L, const uint64_t *S, const uint64_t *R, int W)
{
    uint64_t rprev = 0;
    for (int w = 0; w < W; w++) {
        uint64_t lnext = w + 1 < W ? L[w + 1] : 0;
        D[w] = S[w] | (L[w] >> 1) | (lnext << 63) | (R[w] << 1) | (rprev >> 63);
        rprev = R[w];
    }
}

typedef struct mgroup {
    uint64_t *m;
    int land_row; /* landing row, or -1: in the air in state s */
    tn_body s;
    int fpass, fj; /* first position (pass, j) whose move stays in range */
} mgroup;

/* The position-independent part of a tn_body_step of state v with input
 * `in`: the walk direction, the box's rows during the horizontal move, the
 * rows the vertical sub-moves enter (in order), the state of a body nothing
 * stops and its ground test.  False when it does not apply. */
typedef struct vplan {
    int dir, hr0, hr1, nev, rf;
    bool gtest;
    struct {
        int r;
        bool up, ow;
    } ev[MAX_EV];
    tn_body b;  /* after the step's start (y not moved); air_frames updated */
    tn_body fr; /* canonical state of a body nothing stops */
} vplan;

/* The masks of row r (-1 .. mh + 1), made on first use: a repair reads
 * only the rows near the surfaces it searches. */
static void ensure_row(build *B, int r)
{
    if (!B->lm_ready[r + 1]) {
        mask_row(B, r);
        B->lm_ready[r + 1] = 1;
    }
}

static bool make_vplan(build *B, const tn_body *v, int in, vplan *P)
{
    const tn_surf *g = B->g;
    const tn_phys_params *p = &g->prof.phys;
    const int h = g->prof.h;
    const float H = (float)h * T;
    const bool jump = (in & TN_SURF_IN_JUMP) != 0, pressed = jump && !v->jump_held;
    /* on the ground only a jump (the take-off of the jumps): walks and
     * drops there are stepped one by one */
    if (!B->masks || (v->on_ground && !pressed)) return false;
    P->dir = ((in & TN_SURF_IN_RIGHT) ? 1 : 0) - ((in & TN_SURF_IN_LEFT) ? 1 : 0);
    /* tn_body_step up to the moves (no drop-through: a jump comes first);
     * on a local copy, written to the plan once at the end (a plan's
     * states copied from fields just stored stalled on store forwarding) */
    tn_body bl = *v, *b = &bl;
    if (pressed && (b->on_ground || (b->air_frames > 0 && b->air_frames <= p->coyote_frames))) {
        b->vy = -tn_phys_jump_speed(p);
        b->rising = true;
        b->on_ground = false;
        b->air_frames = 1000000;
    }
    b->jump_held = jump;
    if (b->rising && !jump && b->vy < -p->jump_cut_speed) b->vy = -p->jump_cut_speed;
    const float prev_bottom = b->y + H;
    const float vy0 = b->vy;
    float vy1 = tn_minf(vy0 + p->gravity * p->dt, p->max_fall);
    if (vy0 > p->max_fall) vy1 = p->max_fall;
    b->vy = vy1;
    if (b->vy >= 0.0f) b->rising = false;
    float dy = 0.5f * (vy0 + vy1) * p->dt;
    P->hr0 = span_lo(b->y);
    P->hr1 = span_hi(b->y, H);
    P->nev = 0;
    /* the sub-moves of at most 8 px, all one way: the rows the box's
     * leading edge enters, in order.  The span after a sub-move is the
     * next one's before and grows with y, so the rows entered over all
     * sub-moves are those between the first span and the last: y is moved
     * as the physics moves it, and one span is computed at the end. */
    float y = b->y;
    if (dy > 0.0f) {
        while (dy != 0.0f) {
            const float d = tn_minf(dy, 8.0f);
            dy -= d;
            y += d;
        }
        const int n1 = span_hi(y, H);
        if (n1 - P->hr1 > MAX_EV) return false;
        for (int r = P->hr1 + 1; r <= n1; r++) {
            P->ev[P->nev].r = r;
            P->ev[P->nev].up = false;
            P->ev[P->nev++].ow = prev_bottom <= (float)r * T + EPS;
        }
    } else {
        while (dy != 0.0f) {
            const float d = tn_maxf(dy, -8.0f);
            dy -= d;
            y += d;
        }
        const int n0 = span_lo(y);
        if (P->hr0 - n0 > MAX_EV) return false;
        for (int r = P->hr0 - 1; r >= n0; r--) {
            P->ev[P->nev].r = r;
            P->ev[P->nev].up = true;
            P->ev[P->nev++].ow = false;
        }
    }
    /* the end of the step for a body nothing stops */
    if (b->air_frames < 1000000) b->air_frames++;
    b->on_ground = b->on_oneway_only = false;
    P->b = bl;
    tn_body fr = bl;
    fr.y = y;
    canon(g, &fr);
    P->fr = fr;
    /* the nearest row line (a half-way bottom is 8 px from both: no ground
     * test either way, so how it rounds does not matter) */
    const float bottom = y + H;
    P->rf = ifloor(bottom / T + 0.5f);
    P->gtest = !(vy1 < 0.0f) && fabsf(bottom - (float)P->rf * T) <= EPS;
    /* every row read must have masks */
    const int rlo = -1, rhi = g->mh + 1;
    if (P->hr0 < rlo || P->hr1 > rhi || (P->gtest && (P->rf < rlo || P->rf > rhi))) return false;
    for (int e = 0; e < P->nev; e++)
        if (P->ev[e].r < rlo || P->ev[e].r > rhi || (P->ev[e].up && P->ev[e].r + 1 + h > rhi))
            return false;
    if (B->rows_all) return true;
    for (int r = P->hr0; r <= P->hr1; r++) ensure_row(B, r);
    for (int e = 0; e < P->nev; e++) {
        ensure_row(B, P->ev[e].r);
        if (P->ev[e].up) ensure_row(B, P->ev[e].r + 1 + h);
    }
    if (P->gtest) ensure_row(B, P->rf);
    return true;
}

/* The plan of entry e's step with jump bit jb (0/1), made once per search
 * and kept with the entry: lean_step and backtrack share it.  The pointer
 * is valid until the next plan is made.  NULL: no plan (or out of memory:
 * B->oom). */
static const vplan *entry_plan(build *B, int32_t e, int jb)
{
    int32_t k = ent(B, e)->plan[jb];
    if (k == -2) {
        vplan *P = vec_push(&B->plans, B->a);
        if (!P) {
            B->oom = true;
            return NULL;
        }
        bool ok = make_vplan(B, &ent(B, e)->v, jb ? TN_SURF_IN_JUMP : 0, P);
        if (!ok) B->plans.n--;
        k = ok ? (int32_t)B->plans.n - 1 : -1;
        ent(B, e)->plan[jb] = k;
    }
    return k >= 0 ? (const vplan *)B->plans.p + k : NULL;
}

/* The plan of the step from entry e with input `in` (its jump bit). */
static const vplan *backtrack_plan(build *B, int32_t e, int in)
{
    return entry_plan(B, e, (in & TN_SURF_IN_JUMP) ? 1 : 0);
}

/* The state after a ceiling hit in row r. */
static tn_body ceiling_state(const build *B, const vplan *P, int r)
{
    tn_body cs = P->b;
    cs.y = (float)(r + 1) * T;
    cs.vy = 0.0f;
    cs.rising = false;
    canon(B->g, &cs);
    return cs;
}

static inline bool lm_bit(const build *B, int kind, int r, int j)
{
    int i = j + LM_OFF;
    return (lm_row(B, kind, r)[i >> 6] >> (i & 63)) & 1;
}

/* One position j of a plan: *jn, and the landing row (>= 0) or -1 with
 * *out the state in the air.  The same decisions as lean_step. */
static int plan_one(const build *B, const vplan *P, int dir, int j, int *jn, tn_body *out)
{
    bool blocked = false;
    if (dir)
        for (int r = P->hr0; r <= P->hr1 && !blocked; r++)
            blocked = lm_bit(B, dir > 0 ? LM_ER : LM_EL, r, j);
    int n = blocked ? j : j + dir;
    *jn = n;
    for (int e = 0; e < P->nev; e++) {
        int r = P->ev[e].r;
        if (!lm_bit(B, LM_BLK, r, n) && !(P->ev[e].ow && lm_bit(B, LM_OW, r, n))) continue;
        if (!P->ev[e].up) return r;
        int rc = r + 1 + P->b.h;
        if (lm_bit(B, LM_BLK, rc, n) || lm_bit(B, LM_OW, rc, n)) return rc;
        *out = ceiling_state(B, P, r);
        return -1;
    }
    if (P->gtest && (lm_bit(B, LM_BLK, P->rf, n) || lm_bit(B, LM_OW, P->rf, n))) return P->rf;
    *out = P->fr;
    return -1;
}

/* A predecessor recorded by lean_step: the step's walk direction is any of
 * left / none / right (backtrack finds which). */
#define ANYDIR 0x10
/* A predecessor k free steps back (fast_forward): its walk directions are
 * any (backtrack finds them), its jump bit the one in `in`. */
#define FFWD 0x20

/* Tiles cx0..cx1 x ry0..ry1, read by a search of surface surf_id: to its
 * footprint (the repair index) and its explored box.  The footprint keeps
 * per map row the span of the columns read there (clipped to the map: its
 * edge is never edited): a few more tiles than those read, where a row's
 * reads have a gap, and a few operations a call. */
static bool foot_rect(build *B, int surf_id, int cx0, int ry0, int cx1, int ry1)
{
    /* a rectangle inside the last one recorded changes nothing (the spans
     * and the box only grow): consecutive entries of a layer mostly read
     * the same columns and rows */
    int *L = B->flast;
    if (L[0] == surf_id && cx0 >= L[1] && ry0 >= L[2] && cx1 <= L[3] && ry1 <= L[4]) return true;
    int16_t *bx = &B->g->sbox[4 * surf_id];
    if (cx0 < bx[0]) bx[0] = (int16_t)tn_maxi(cx0, -2);
    if (ry0 < bx[1]) bx[1] = (int16_t)tn_maxi(ry0, -2);
    if (cx1 > bx[2]) bx[2] = (int16_t)tn_mini(cx1, 32000);
    if (ry1 > bx[3]) bx[3] = (int16_t)tn_mini(ry1, 32000);
    const int x0 = tn_maxi(cx0, 0), y0 = tn_maxi(ry0, 0);
    const int x1 = tn_mini(cx1, B->m->w - 1), y1 = tn_mini(ry1, B->m->h - 1);
    if (x0 > x1 || y0 > y1) return true;
    if (!B->fspan) { /* (once per build or worker) */
        B->fspan = alloc_unzeroed(B->a, 2 * (size_t)B->m->h, sizeof(int32_t));
        if (!B->fspan) return false;
        for (int y = 0; y < B->m->h; y++) B->fspan[2 * y] = INT32_MAX, B->fspan[2 * y + 1] = -1;
        B->frlo = INT32_MAX, B->frhi = -1;
    }
    int32_t *sp = B->fspan;
    for (int y = y0; y <= y1; y++) {
        if (x0 < sp[2 * y]) sp[2 * y] = x0;
        if (x1 > sp[2 * y + 1]) sp[2 * y + 1] = x1;
    }
    if (y0 < B->frlo) B->frlo = y0;
    if (y1 > B->frhi) B->frhi = y1;
    L[0] = surf_id, L[1] = cx0, L[2] = ry0, L[3] = cx1, L[4] = ry1;
    return true;
}

/* The columns a step from positions jf..jl can read: the box's for j - 1
 * .. j + 1, x - step .. x + W + step, with 2 px to spare.  The footprint
 * and the free test share them (see plan_free). */
static int step_col0(const tn_surf *g, int j)
{
    return ifloor((lat_x(g, j) - g->step_px - 2.0f) / T);
}

static int step_col1(const tn_surf *g, int j)
{
    return ifloor((lat_x(g, j) + (float)g->prof.w * T + g->step_px + 2.0f) / T);
}

/* (g->scol: both for j = -2 .. jmax + 2, made with lx) */
static void step_cols(const tn_surf *g, int jf, int jl, int *c0, int *c1)
{
    const unsigned n = (unsigned)g->jmax + 5;
    *c0 = (unsigned)(jf + 2) < n ? g->scol[2 * (jf + 2)] : step_col0(g, jf);
    *c1 = (unsigned)(jl + 2) < n ? g->scol[2 * (jl + 2) + 1] : step_col1(g, jl);
}

/* The tiles a step of state v from positions jf..jl can read: step_cols,
 * and the rows y - vmax .. y + H + vmax (2 px slack: the ground test under
 * the feet). */
static bool foot_run(build *B, int surf_id, const tn_body *v, int jf, int jl)
{
    tn_surf *g = B->g;
    int ry0 = ifloor((v->y - g->vmax - 2.0f) / T);
    int ry1 = ifloor((v->y + (float)g->prof.h * T + g->vmax + 2.0f) / T);
    int cx0, cx1;
    step_cols(g, jf, jl, &cx0, &cx1);
    return foot_rect(B, surf_id, cx0, ry0, cx1, ry1);
}

/* The tiles plan P's step from positions jf..jl can read: the rows of the
 * walk, the vertical sub-moves, the ceiling landings and the ground test;
 * the columns step_cols (those of foot_run).  Free when all are inside the
 * map and empty: no mask has a bit there, so the whole moved set goes on
 * in the air.  Where free flight is decided, its outcome shapes the search
 * (which states are kept, so which of equally fast take-offs a backtrack
 * finds), and a repair must run the search again when a tile that decides
 * it changes, so that a repaired graph stays a fresh one: an entry's test
 * is inside its footprint (foot_run: the same columns, rows within a
 * step's reach), a state free flight skips has none, so its rectangle
 * goes to the footprint (rec; out of memory: B->oom). */
static bool plan_free(build *B, const vplan *P, int jf, int jl, int surf_id, bool rec)
{
    const tn_surf *g = B->g;
    const int h = g->prof.h;
    int r0 = P->hr0, r1 = P->hr1;
    for (int e = 0; e < P->nev; e++) {
        r0 = tn_mini(r0, P->ev[e].r);
        r1 = tn_maxi(r1, P->ev[e].up ? P->ev[e].r + 1 + h : P->ev[e].r);
    }
    if (P->gtest) r0 = tn_mini(r0, P->rf), r1 = tn_maxi(r1, P->rf);
    int c0, c1;
    step_cols(g, jf, jl, &c0, &c1);
    const bool free = sat_empty(B, r0, r1, c0, c1);
    if (rec && free && !foot_rect(B, surf_id, c0, r0, c1, r1)) B->oom = true;
    return free;
}

/* Entries made k > 1 layers ahead by fast_forward, until their layer. */
typedef struct ff_pend {
    tn_body v;
    int32_t from, lo, words, next, k;
    uint32_t boff; /* bits in B->pbits */
    uint8_t in;
    int32_t plan; /* the plan of its step (the one that stopped the flight) in B->plans, or -1 */
} ff_pend;

/* Bitset w of n words grown by one position on each side, k times. */
static void smear(uint64_t *w, int n, int k)
{
    for (int s = 0; s < k; s++) {
        uint64_t prev = 0;
        for (int i = 0; i < n; i++) {
            uint64_t x = w[i], next = i + 1 < n ? w[i + 1] : 0;
            w[i] = x | x << 1 | x >> 1 | prev >> 63 | next << 63;
            prev = x;
        }
    }
}

/* FREE FLIGHT.  Entry ei (layer t, positions Sc: W words from lattice lo,
 * set from jf to jl) has one jump input jb, and its step (plan pl) is free.
 * While the next states also have the one input jb and free steps (their
 * positions being jf - s .. jl + s after s steps: each free step only
 * grows the set by one on each side), no entry is made for them: their
 * reads go to the footprint, and one entry is made k layers ahead with the
 * set grown k times, reached by an FFWD predecessor.  The same states,
 * positions and landings as stepping them one by one (a free step has
 * nothing to decide); long falls on big levels are mostly such steps.
 * 1: done (k > 1); 0: only one free step (the caller makes it); -1: out of
 * memory. */
static int fast_forward(build *B, int surf_id, int kind, int32_t ei, int t, int jb, const vplan *pl,
                        const uint64_t *Sc, int W, int lo, int jf, int jl)
{
    const tn_surf *g = B->g;
    tn_body v = pl->fr; /* at t + k */
    int k = 1;
    vplan P;
    bool stop_plan = false; /* P is the plan of the state that stops the flight */
    for (; t + k < TN_SURF_MAX_AIR; k++) {
        int ins[6];
        if (inputs_for(g, &v, t + k, kind, 0, ins) != 3 || (ins[0] & TN_SURF_IN_JUMP) != jb) break;
        if (!make_vplan(B, &v, jb, &P)) break;
        /* a skipped state's reads; the state that stops the flight is made
         * an entry, whose footprint holds the rectangle */
        const bool free = plan_free(B, &P, jf - k, jl + k, surf_id, true);
        if (B->oom) return -1;
        if (!free) {
            stop_plan = true;
            break;
        }
        v = P.fr;
    }
    if (k < 2) return 0;
    /* the stopping state's plan kept for its entry (entry_plan would make
     * it again: one plan per flight, 3% of a 1024x1024 build) */
    int32_t plan = -1;
    if (stop_plan) {
        vplan *kp = vec_push(&B->plans, B->a);
        if (!kp) return -1;
        *kp = P;
        plan = (int32_t)B->plans.n - 1;
    }
    if (!B->phead) { /* the per-layer lists, once per build */
        int32_t *head = tn_alloc_array(B->a, TN_SURF_MAX_AIR + 2, sizeof *head);
        uint32_t *stamp = tn_alloc_array(B->a, TN_SURF_MAX_AIR + 2, sizeof *stamp);
        if (!head || !stamp) {
            tn_free(B->a, head);
            tn_free(B->a, stamp);
            return -1;
        }
        B->phead = head;
        B->pstamp = stamp;
    }
    const int plo = jf - k, pw = (jl - jf + 2 * k) / 64 + 1, at = t + k;
    ff_pend *Q = vec_push(&B->pend, B->a);
    if (!Q || !vec_reserve(&B->pbits, B->a, B->pbits.n + (size_t)pw)) return -1;
    uint64_t *pb = (uint64_t *)B->pbits.p + B->pbits.n;
    memset(pb, 0, (size_t)pw * 8);
    or_shifted(pb, pw, Sc, W, lo - plo, pw * 64 - 1);
    smear(pb, pw, k);
    *Q = (ff_pend){v, ei, plo, pw, -1, k, (uint32_t)B->pbits.n, (uint8_t)(jb | FFWD), plan};
    B->pbits.n += (size_t)pw;
    if (B->pstamp[at] == B->pgen) Q->next = B->phead[at];
    B->pstamp[at] = B->pgen;
    B->phead[at] = (int32_t)B->pend.n - 1;
    B->npend++;
    return 1;
}

/* The entries fast_forward made for layer t (window nlo..nhi, nwords). */
static bool ff_arrive(build *B, int t, int nlo, int nhi, int nwords, size_t next0)
{
    if (!B->npend || B->pstamp[t] != B->pgen) return true;
    for (int32_t q = B->phead[t]; q >= 0;) {
        const ff_pend P = ((const ff_pend *)B->pend.p)[q];
        int32_t ne = get_entry(B, &P.v, t, nlo, nwords, next0);
        if (ne < 0 || !add_pred(B, ne, P.from, P.in)) return false;
        dp_pred *pr = (dp_pred *)B->pred.p + ent(B, ne)->pred;
        pr->k = (uint16_t)P.k;
        const int jbit = (P.in & TN_SURF_IN_JUMP) ? 1 : 0;
        if (P.plan >= 0 && ent(B, ne)->plan[jbit] == -2) ent(B, ne)->plan[jbit] = P.plan;
        const dp_entry *N = ent(B, ne);
        or_shifted((uint64_t *)B->bits.p + N->bits, N->words, (const uint64_t *)B->pbits.p + P.boff,
                   P.words, P.lo - N->lo, nhi - N->lo);
        B->npend--;
        q = P.next;
    }
    return true;
}

/* The lean step (mask stepping, t > 0): the three walk directions of one
 * jump input share the step's vertical plan, so they are merged right after
 * the horizontal move and the vertical part (the rows the sub-moves enter,
 * the ground test) is done once on the union U of the new positions.  The
 * states and positions it makes, and every landing with its frames, are
 * those of stepping each (position, input) alone; only which of
 * several equally fast inputs a landing records may differ.  1: done;
 * 0: a plan does not apply (the caller steps the entry the old way);
 * -1: out of memory. */
/* lean_step_w is inlined into lean_step twice, once with W = 1 */
#if defined(__GNUC__)
#define SURF_INLINE static inline __attribute__((always_inline))
#else
#define SURF_INLINE static inline
#endif
SURF_INLINE int lean_step_w(build *B, int surf_id, int kind, int32_t ei, int t, int nlo, int nhi,
                            int nwords, size_t next0, const int W, const int jf, const int jl)
{
    tn_surf *g = B->g;
    /* the entry's fields read one by one: run_dp has just narrowed it, and
     * a whole-struct copy of fields just stored stalls on store forwarding */
    const dp_entry *Ep = ent(B, ei);
    const tn_body Ev = Ep->v;
    const int Elo = Ep->lo, Ewords = Ep->words;
    const uint32_t Ebits = Ep->bits;
    const int h = g->prof.h;
    int ins[6];
    const int njb = inputs_for(g, &Ev, t, kind, 0, ins) / 3;
    for (int k = 0; k < njb; k++)
        if (!entry_plan(B, ei, (ins[3 * k] & TN_SURF_IN_JUMP) ? 1 : 0)) return B->oom ? -1 : 0;
    const uint64_t *Eb = (const uint64_t *)B->bits.p + Ebits;
    const int lo = jf - 1, U = W;
    if (!vec_reserve(&B->mwork, B->a, (size_t)W * 3 + (size_t)U * (4 + MAX_GROUPS))) return -1;
    uint64_t *wk = B->mwork.p;
    uint64_t *Sc = wk, *BKL = wk + W, *BKR = wk + 2 * W, *Um = wk + 3 * W, *REM = Um + U,
             *GM = REM + U, *TM = GM + U, *gm = TM + U;
    const int sh = lo - Elo, ws = floordiv(sh, 64), bs = sh - 64 * ws; /* sh >= -1 */
    for (int w = 0; w < W; w++) {
        const int a = ws + w, b = a + 1;
        const uint64_t x = a >= 0 && a < Ewords ? Eb[a] : 0, y = b < Ewords ? Eb[b] : 0;
        Sc[w] = bs ? (x >> bs) | (y << (64 - bs)) : x;
    }
    for (int k = 0; k < njb; k++) {
        const int jb = ins[3 * k] & TN_SURF_IN_JUMP;
        const vplan *pl = entry_plan(B, ei, jb ? 1 : 0);
        /* free (plan_free): the whole moved set goes on in the air (its
         * rectangle is in E's footprint) */
        const bool free_step = plan_free(B, pl, jf, jl, surf_id, false);
        if (B->oom) return -1;
        mgroup G[MAX_GROUPS];
        int ng = 0;
        if (free_step) {
            memset(BKL, 0, (size_t)W * 16); /* no walls */
            dilate(gm, Sc, Sc, Sc, W);
            G[0].m = gm;
            G[0].land_row = -1;
            G[0].s = pl->fr;
            ng = 1;
            B->nfree_steps++;
        } else {
            /* the horizontal move: walls stop a step where LM_ER / LM_EL is set
         * in one of the box's rows; a stopped body stays */
            /* the mask rows' words from lo on (rword for lo + 64 w):
             * word w0 + w shifted right by o, the next one's low bits in
             * (two shifts: none when o = 0; a row has words to spare) */
            const int o = (lo + LM_OFF) & 63, w0 = (lo + LM_OFF) >> 6;
#define RW(p, w) (((p)[w] >> o) | (((p)[(w) + 1] << 1) << (63 - o)))
            {
                /* the box's rows word by word (a kind's rows are lmw words
                 * apart): each word of BKL, BKR, GM and TM written once */
                const uint64_t *rl = lm_row(B, LM_EL, pl->hr0) + w0;
                const uint64_t *rr = lm_row(B, LM_ER, pl->hr0) + w0;
                const size_t rs = (size_t)B->lmw;
                const int nr = pl->hr1 - pl->hr0 + 1;
                for (int w = 0; w < W; w++) {
                    uint64_t l = 0, rt = 0;
                    for (int k = 0; k < nr; k++) {
                        l |= RW(rl + (size_t)k * rs, w);
                        rt |= RW(rr + (size_t)k * rs, w);
                    }
                    BKL[w] = l & Sc[w];
                    BKR[w] = rt & Sc[w];
                    GM[w] = Sc[w] & ~BKL[w];
                    TM[w] = Sc[w] & ~BKR[w];
                }
            }
            dilate(Um, GM, Sc, TM, W);
            /* (stopped positions stay: already in Um from the no-walk move) */
            memcpy(REM, Um, (size_t)U * 8);
#define MROWP(kind, r) (lm_row(B, (kind), (r)) + w0)
#define NEW_GROUP(expr, row, st)                              \
    do {                                                      \
        uint64_t any_ = 0, *m_ = gm + (size_t)ng * (size_t)U; \
        for (int w = 0; w < U; w++) any_ |= m_[w] = (expr);   \
        if (any_) {                                           \
            G[ng].m = m_;                                     \
            G[ng].land_row = (row);                           \
            G[ng].s = (st);                                   \
            ng++;                                             \
        }                                                     \
    } while (0)
            for (int e = 0; e < pl->nev; e++) {
                int r = pl->ev[e].r;
                const uint64_t *rb = MROWP(LM_BLK, r);
                if (pl->ev[e].ow) {
                    const uint64_t *ro = MROWP(LM_OW, r);
                    for (int w = 0; w < U; w++) {
                        GM[w] = (RW(rb, w) | RW(ro, w)) & REM[w];
                        REM[w] &= ~GM[w];
                    }
                } else {
                    for (int w = 0; w < U; w++) {
                        GM[w] = RW(rb, w) & REM[w];
                        REM[w] &= ~GM[w];
                    }
                }
                if (!pl->ev[e].up) {
                    NEW_GROUP(GM[w], r, pl->fr);
                    continue;
                }
                tn_body cs = ceiling_state(B, pl, r);
                int rc = r + 1 + h;
                const uint64_t *cb = MROWP(LM_BLK, rc), *co = MROWP(LM_OW, rc);
                for (int w = 0; w < U; w++) TM[w] = RW(cb, w) | RW(co, w);
                NEW_GROUP(GM[w] & TM[w], rc, cs);
                NEW_GROUP(GM[w] & ~TM[w], -1, cs);
            }
            if (pl->gtest) {
                const uint64_t *gb = MROWP(LM_BLK, pl->rf), *go = MROWP(LM_OW, pl->rf);
                for (int w = 0; w < U; w++) TM[w] = RW(gb, w) | RW(go, w);
                NEW_GROUP(REM[w] & TM[w], pl->rf, pl->fr);
                NEW_GROUP(REM[w] & ~TM[w], -1, pl->fr);
            } else {
                NEW_GROUP(REM[w], -1, pl->fr);
            }
#undef NEW_GROUP
#undef MROWP
#undef RW
            B->nmask++;
        }
#ifdef TN_SURF_DEBUG
        /* self-check: every (position, walk) against tn_body_step */
        for (int w = 0; w < W; w++)
            for (uint64_t bits = Sc[w]; bits; bits &= bits - 1) {
                int q0 = __builtin_ctzll(bits), j = lo + 64 * w + q0;
                for (int d = -1; d <= 1; d++) {
                    bool stop = d && (((d < 0 ? BKL : BKR)[w] >> q0) & 1);
                    int n = stop ? j : j + d, i = n - lo, k = 0;
                    while (k < ng && !((G[k].m[i >> 6] >> (i & 63)) & 1)) k++;
                    tn_body r;
                    int jr;
                    int in = jb | (d < 0 ? TN_SURF_IN_LEFT : d > 0 ? TN_SURF_IN_RIGHT : 0);
                    bool ok = step_at(B, &Ev, j, in, &r, &jr);
                    B->nsteps--;
                    bool good = ok && k < ng && jr == n &&
                                (G[k].land_row >= 0 ? r.on_ground && body_row(&r) == G[k].land_row
                                                    : !r.on_ground && same_v(&r, &G[k].s));
                    B->nmask_checked++;
                    if (!good) B->nmask_bad++;
                }
            }
#endif
        for (int q = 0; q < ng; q++) {
            const mgroup *gr = &G[q];
            if (gr->land_row >= 0) {
                /* each landing position n not landed on before in the group
                 * (an earlier landing there is as fast or faster: the first
                 * wins): a source j and walk that reach it */
                uint64_t *done = landed_row(B, gr->land_row);
                if (!done) return -1;
                for (int w = 0; w < U; w++) {
                    uint64_t bits = gr->m[w] & ~rword(done, lo + 64 * w);
                    row_or(done, lo + 64 * w, bits);
                    for (; bits; bits &= bits - 1) {
                        int n = lo + 64 * w + __builtin_ctzll(bits), i = n - lo, j = n, in = jb;
#define HAS(M, i) ((i) >= 0 && (i) < 64 * W && (((M)[(i) >> 6] >> ((i)&63)) & 1))
                        if (HAS(Sc, i)) {
                        } else if (HAS(Sc, i - 1) && !HAS(BKR, i - 1)) {
                            j = n - 1, in |= TN_SURF_IN_RIGHT;
                        } else if (HAS(Sc, i + 1) && !HAS(BKL, i + 1)) {
                            j = n + 1, in |= TN_SURF_IN_LEFT;
                        }
#undef HAS
                        landed_at(B, surf_id, ei, j, in, gr->land_row, n, t + 1);
                        if (B->oom) return -1;
                    }
                }
                continue;
            }
            if (free_step && njb == 1) {
                int rc = fast_forward(B, surf_id, kind, ei, t, jb, pl, Sc, W, lo, jf, jl);
                if (rc < 0) return -1;
                if (rc > 0) continue;
            }
            int32_t ne = get_entry(B, &gr->s, t + 1, nlo, nwords, next0);
            if (ne < 0 || !add_pred(B, ne, ei, jb | ANYDIR)) return -1;
            const dp_entry *N = ent(B, ne);
            or_shifted((uint64_t *)B->bits.p + N->bits, N->words, gr->m, U, lo - N->lo,
                       nhi - N->lo);
        }
    }
    return 1;
}

/* One step of entry ei's positions by its plans (lean_step_w), with the
 * width of one word a constant where it fits: most states' positions span
 * fewer than 63 lattice steps. */
static int lean_step(build *B, int surf_id, int kind, int32_t ei, int t, int nlo, int nhi,
                     int nwords, size_t next0, int jf, int jl)
{
    if (jf == INT32_MAX) return 1; /* no position (cannot happen) */
    /* the step works on a copy Sc aligned to the positions: bit 0 is lattice
     * lo = jf - 1, and W words leave a clear bit on both sides, so the
     * moved set (one step either way) fits the same W words */
    const int W = (jl - jf + 2) / 64 + 1;
    if (W == 1) return lean_step_w(B, surf_id, kind, ei, t, nlo, nhi, nwords, next0, 1, jf, jl);
    return lean_step_w(B, surf_id, kind, ei, t, nlo, nhi, nwords, next0, W, jf, jl);
}

/* The first bit index >= from that is set (set) or clear (!set) in a
 * bitset of `words` words; words * 64 when there is none. */
static int next_bit(const uint64_t *bw, int words, int from, bool set)
{
    int w = from >> 6;
    if (w >= words) return words * 64;
    uint64_t x = (set ? bw[w] : ~bw[w]) & (~0ull << (from & 63));
    while (!x) {
        if (++w >= words) return words * 64;
        x = set ? bw[w] : ~bw[w];
    }
    return w * 64 + __builtin_ctzll(x);
}

/* Breadth-first search over (frame, vertical state) with a bitset of
 * lattice x per state: from the take-off nodes [n0, n1] of surface s. */
static bool run_dp(build *B, int surf_id, int kind, int n0, int n1, int dir)
{
    tn_surf *g = B->g;
    const tn_surf_surface *S = &g->surf[surf_id];
    const float W = (float)g->prof.w * T;
    B->ent.n = B->pred.n = B->bits.n = B->plans.n = 0;
    B->pend.n = B->pbits.n = B->npend = 0;
    B->flast[0] = -1;     /* (foot_rect: the sbox may be another array) */
    if (++B->pgen == 0) { /* (never in practice) */
        if (B->pstamp) memset(B->pstamp, 0, (TN_SURF_MAX_AIR + 2) * sizeof *B->pstamp);
        B->pgen = 1;
    }
    if (!hash_init(B, 256)) return false;
    /* layer 0: the standing state */
    tn_body v0 = stand_body(g, S->row, S->j0 + (n0 - S->node0));
    {
        tn_input none = {false, false, false, false};
        run_step(&g->prof, &v0, B->m, none);
        canon(g, &v0);
    }
    int lo = S->j0 + (n0 - S->node0), hi = S->j0 + (n1 - S->node0);
    int32_t e0 = get_entry(B, &v0, 0, lo, (hi - lo) / 64 + 1, 0);
    if (e0 < 0) return false;
    for (int j = lo; j <= hi; j++) set_bit(B, e0, j);
    size_t layer_lo = 0;
    for (int t = 0; (layer_lo < B->ent.n || B->npend) && t < TN_SURF_MAX_AIR; t++) {
        size_t layer_hi = B->ent.n;
        int nlo = tn_maxi(0, lo - 1), nhi = tn_mini(g->jmax, hi + 1);
        int nwords = (nhi - nlo) / 64 + 1;
        if (!hash_init(B, 256)) return false;
        size_t next0 = B->ent.n;
        if (!ff_arrive(B, t + 1, nlo, nhi, nwords, next0)) return false;
        int cbase = ifloor((lat_x(g, lo) - g->step_px - 2.0f) / T);
        int ncols = ifloor((lat_x(g, hi) + W + g->step_px + 2.0f) / T) - cbase + 1;
        for (size_t ei = layer_lo; ei < layer_hi; ei++) {
            /* the tiles its step can read, for the repair index: the
             * columns around its positions, the rows its state reaches in a
             * step (the footprint keeps a span per row: one call covers
             * every run of positions) */
            int jf = INT32_MAX, jl = INT32_MIN; /* the positions' range */
            {
                const dp_entry *E = ent(B, (int32_t)ei);
                const uint64_t *bw = (const uint64_t *)B->bits.p + E->bits;
                const int first = next_bit(bw, E->words, 0, true);
                int last = first;
                for (int w = E->words - 1; w >= 0 && first < E->words * 64; w--)
                    if (bw[w]) {
                        last = 64 * w + 63 - __builtin_clzll(bw[w]);
                        break;
                    }
                if (first < E->words * 64 &&
                    !foot_run(B, surf_id, &E->v, E->lo + first, E->lo + last))
                    return false;
                /* the entry narrowed to the words that hold positions (it
                 * was made as wide as its layer): the step and the
                 * backtrack read it through lo, bits and words */
                if (first < E->words * 64) {
                    jf = E->lo + first, jl = E->lo + last;
                    dp_entry *Em = ent(B, (int32_t)ei);
                    const int w0 = first >> 6;
                    Em->lo += 64 * w0;
                    Em->bits += (uint32_t)w0;
                    Em->words = (last >> 6) - w0 + 1;
                }
            }
            if (B->masks && (t > 0 || kind == TN_SURF_JUMP)) { /* (t = 0: the take-off) */
                int rc =
                    lean_step(B, surf_id, kind, (int32_t)ei, t, nlo, nhi, nwords, next0, jf, jl);
                if (rc < 0) return false;
                if (rc > 0) {
                    B->nentries++;
                    B->kent[kind]++;
                    continue;
                }
            }
            tn_body v = ent(B, (int32_t)ei)->v;
            dp_entry E = *ent(B, (int32_t)ei);
            /* the words holding positions (wf..wl); only columns that can
             * mark a position there are looked at: column c marks lattice
             * kjl[c]..kjh[c], inside j/pt - 3 .. j/pt + w + 3 */
            int wf = 0, wl = -1;
            {
                const uint64_t *Bw0 = (const uint64_t *)B->bits.p + E.bits;
                for (int w = 0; w < E.words; w++)
                    if (Bw0[w]) {
                        if (wl < 0) wf = w;
                        wl = w;
                    }
            }
            if (wl < 0) wf = wl = 0;
            int k0 = tn_maxi(0, floordiv(E.lo + 64 * wf, g->per_tile) - 3 - cbase);
            int k1 = tn_mini(ncols - 1,
                             floordiv(E.lo + 64 * wl + 63, g->per_tile) + g->prof.w + 3 - cbase);
            mark_columns(B, &v, cbase, k0, k1);
            /* near-terrain positions (K) are stepped one by one; the free
             * ones (F) all move alike: one representative step (checked
             * against a second) moves the whole bitset */
            if (!vec_reserve(&B->js_free, B->a, (size_t)E.words * 2 + 2)) return false;
            uint64_t *K = B->js_free.p, *F = K + E.words;
            memset(K, 0, (size_t)E.words * 8);
            int span = E.words * 64;
            for (int k = k0; k <= k1; k++) {
                if (!B->colbad[k]) continue;
                int jl = B->kjl[cbase + k + KCOL_OFF] - E.lo;
                int jh = B->kjh[cbase + k + KCOL_OFF] - E.lo;
                jl = tn_maxi(jl, 0);
                jh = tn_mini(jh, span - 1);
                for (int q = jl; q <= jh;) {
                    int e = tn_mini(jh, (q | 63)), n = e - q + 1; /* bits q..e of one word */
                    K[q >> 6] |= (n == 64 ? ~0ull : ((1ull << n) - 1)) << (q & 63);
                    q = e + 1;
                }
            }
            const uint64_t *Bw = (const uint64_t *)B->bits.p + E.bits;
            int ffirst = -1, flast = -1;
            B->js_block.n = 0;
            for (int w = 0; w < E.words; w++) {
                F[w] = Bw[w] & ~K[w];
                if (F[w]) {
                    if (ffirst < 0) ffirst = E.lo + w * 64 + __builtin_ctzll(F[w]);
                    flast = E.lo + w * 64 + 63 - __builtin_clzll(F[w]);
                }
                uint64_t word = B->masks && t > 0 ? 0 : Bw[w] & K[w]; /* masks: below */
                while (word) {
                    int k = __builtin_ctzll(word);
                    word &= word - 1;
                    int32_t *q = vec_push(&B->js_block, B->a);
                    if (!q) return false;
                    *q = E.lo + w * 64 + k;
                    K = B->js_free.p;
                    F = K + E.words;
                }
            }
            B->nentries++;
            B->kent[kind]++;
            long steps_before = B->nsteps;
            int ins[6];
            int nin = inputs_for(g, &v, t, kind, dir, ins);
            for (int ii = 0; ii < nin; ii++) {
                int in = ins[ii];
                if (B->masks && t > 0) {
                    /* lean_step found no plan for this state: its
                     * near-terrain positions (K) are stepped one by one */
                    const uint64_t *Kw = B->js_free.p;
                    B->nmask_fallback++;
                    B->js_block.n = 0;
                    const uint64_t *Bw2 = (const uint64_t *)B->bits.p + E.bits;
                    for (int w = 0; w < E.words; w++)
                        for (uint64_t word = Bw2[w] & Kw[w]; word; word &= word - 1) {
                            int32_t *q = vec_push(&B->js_block, B->a);
                            if (!q) return false;
                            *q = E.lo + w * 64 + __builtin_ctzll(word);
                        }
                }
                bool bulk = false;
                vstep vs;
                virtual_step(B, &v, in, &vs);
                if (ffirst >= 0) {
                    tn_body r1, r2;
                    int j1, j2;
                    bool ok1, ok2;
                    if (vs.ok && free_window(B, &vs, ffirst) && free_window(B, &vs, flast)) {
                        /* what stepping both would give */
                        r1 = r2 = vs.r;
                        j1 = ffirst + vs.dj;
                        j2 = flast + vs.dj;
                        ok1 = ok2 = true;
                        B->nshort += 2;
                    } else {
                        ok1 = step_at(B, &v, ffirst, in, &r1, &j1);
                        ok2 = step_at(B, &v, flast, in, &r2, &j2);
                    }
                    if (ok1 && ok2 && !r1.on_ground && !r2.on_ground && same_v(&r1, &r2) &&
                        j1 - ffirst == j2 - flast) {
                        bulk = true;
                        int32_t ne = get_entry(B, &r1, t + 1, nlo, nwords, next0);
                        if (ne < 0 || !add_pred(B, ne, (int32_t)ei, in)) return false;
                        /* dst bit = src bit + shift (src bit 0 = E.lo) */
                        const dp_entry *N = ent(B, ne);
                        int shift = E.lo + (j1 - ffirst) - N->lo;
                        uint64_t *D = (uint64_t *)B->bits.p + N->bits;
                        const uint64_t *Fs = (const uint64_t *)B->js_free.p + E.words;
                        for (int w = 0; w < E.words; w++) {
                            if (!Fs[w]) continue;
                            int bit = w * 64 + shift; /* where src word w's bit 0 lands */
                            int dw = bit >= 0 ? bit / 64 : -((-bit + 63) / 64);
                            int off = bit - dw * 64;
                            uint64_t lo_part = Fs[w] << off;
                            uint64_t hi_part = off ? Fs[w] >> (64 - off) : 0;
                            if (dw >= 0 && dw < N->words) D[dw] |= lo_part;
                            if (dw + 1 >= 0 && dw + 1 < N->words) D[dw + 1] |= hi_part;
                        }
                    } else if (ffirst != flast) {
                        B->bulk_mismatch++;
                    }
                }
                /* pass 0: the free positions one by one (no bulk step);
                 * pass 1: the near-terrain ones */
                for (int pass = bulk ? 1 : 0; pass < 2; pass++) {
                    size_t nj = pass ? B->js_block.n : (size_t)E.words * 64;
                    for (size_t k = 0; k < nj; k++) {
                        int jj;
                        if (pass) {
                            jj = ((const int32_t *)B->js_block.p)[k];
                        } else {
                            const uint64_t *Fs = (const uint64_t *)B->js_free.p + E.words;
                            if (!((Fs[k >> 6] >> (k & 63)) & 1)) continue;
                            jj = E.lo + (int)k;
                        }
                        tn_body r;
                        int jn;
                        if (vs.ok && free_window(B, &vs, jj)) {
                            r = vs.r;
                            jn = jj + vs.dj;
                            B->nshort++;
                        } else if (!step_at(B, &v, jj, in, &r, &jn)) {
                            continue;
                        }
                        if (r.on_ground) {
                            if (t == 0 && kind == TN_SURF_WALKOFF) continue;
                            landed(B, surf_id, (int32_t)ei, jj, in, &r, t + 1);
                            if (B->oom) return false;
                            continue;
                        }
                        if (jn < nlo || jn > nhi) continue;
                        int32_t ne = get_entry(B, &r, t + 1, nlo, nwords, next0);
                        if (ne < 0 || !add_pred(B, ne, (int32_t)ei, in)) return false;
                        set_bit(B, ne, jn);
                    }
                }
            }
            B->ksteps[kind] += B->nsteps - steps_before;
        }
        layer_lo = layer_hi;
        lo = nlo;
        hi = nhi;
    }
    return !B->oom;
}

/* The backtracks of one search share their way back: 57% of the steps on
 * the demo map, 70% at 256x256 reach a (DP entry, position) an earlier
 * backtrack of the search went through, and the way back from there is
 * the same (it depends on the entry and position alone).  So every
 * (entry, j) a backtrack passes is remembered with what is left from it:
 * its inputs (in B->seq, where the earlier edge's sequence lies) and the
 * take-off j; a later backtrack that reaches it copies them and stops.
 * The edges are the same, byte for byte. */
typedef struct bt_step {
    int32_t e, j;
    uint32_t s; /* inputs in seq when it was reached */
} bt_step;

/* The order in which a backtrack tries the sources j + d of position j:
 * the one farther the bias's way first (B->bias -1: left).  Taking the
 * leftmost source of the three at every step back ends at the leftmost
 * take-off of all that reach the landing through this way in: a way back
 * to one further left would have to pass left of the greedy position at
 * some step, where that position's own sources (one step either side)
 * include its own; walls and entries with several predecessors can make
 * it less than the leftmost. */
static const int bt_order[2][3] = {{-1, 0, 1}, {1, 0, -1}};

typedef struct bt_memo {
    uint64_t key; /* memo_key: the bias (bit 62), entry << 32, j */
    uint32_t stamp;
    uint32_t off, cnt; /* the rest's inputs: B->seq[off .. off + cnt) */
    int32_t j0;        /* take-off */
} bt_memo;

/* (entry, j) and the bias: the way back differs with it (entries < 2^30) */
static uint64_t memo_key(const build *B, int32_t e, int j)
{
    return (uint64_t)(B->bias > 0) << 62 | (uint64_t)(uint32_t)e << 32 | (uint32_t)j;
}

static size_t memo_slot(const build *B, uint64_t key)
{
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (B->mcap - 1);
    while (B->memo[h].stamp == B->mgen && B->memo[h].key != key) h = (h + 1) & (B->mcap - 1);
    return h;
}

static const bt_memo *memo_find(const build *B, int32_t e, int j)
{
    /* most steps of a backtrack are not remembered: a bit per entry and
     * j % 64 answers those without probing the table */
    if (!B->mcap || !((((const uint64_t *)B->mmask.p)[e] >> (j & 63)) & 1)) return NULL;
    const bt_memo *M = &B->memo[memo_slot(B, memo_key(B, e, j))];
    return M->stamp == B->mgen ? M : NULL;
}

/* Remember m (its key set); false on out of memory (then it is not
 * remembered, which only costs time). */
static bool memo_put(build *B, const bt_memo *m)
{
    if (2 * (B->mn + 1) > B->mcap) { /* grow: this search's entries moved */
        size_t cap = B->mcap ? 2 * B->mcap : 4096;
        bt_memo *t = tn_alloc_array(B->a, cap, sizeof *t), *old = B->memo;
        if (!t) return false;
        size_t ocap = B->mcap;
        B->memo = t;
        B->mcap = cap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i].stamp == B->mgen) B->memo[memo_slot(B, old[i].key)] = old[i];
        tn_free(B->a, old);
    }
    size_t h = memo_slot(B, m->key);
    if (B->memo[h].stamp != B->mgen) B->mn++;
    ((uint64_t *)B->mmask.p)[(m->key >> 32) & 0x3fffffff] |= 1ull << (m->key & 63);
    B->memo[h] = *m;
    B->memo[h].stamp = B->mgen;
    return true;
}

/* A new search's backtracks begin: nothing remembered, no sequences. */
static bool memo_clear(build *B)
{
    B->seq.n = 0;
    B->mn = 0;
    if (!vec_reserve(&B->mmask, B->a, B->ent.n + 1)) {
        B->oom = true;
        return false;
    }
    memset(B->mmask.p, 0, (B->ent.n + 1) * sizeof(uint64_t));
    if (++B->mgen == 0) {
        if (B->mcap) memset(B->memo, 0, B->mcap * sizeof *B->memo);
        B->mgen = 1;
    }
    return true;
}

/* Exact: every byte g holds from the caller's allocator (the pool counts
 * what it asks and gives back), g itself and its pool too. */
size_t tn_surf_memory(const tn_surf *g)
{
    if (!g) return 0;
    return sizeof *g + sizeof *g->pool + atomic_load_explicit(&g->pool->held, memory_order_relaxed);
}

/* The inputs from the take-off to the landing recorded in r, as runs in
 * B->runs' tail; *src = the take-off node.  False when not found. */
static bool backtrack(build *B, int surf_id, const best_rec *r, int32_t *src, uint32_t *run0,
                      uint16_t *nruns)
{
    tn_surf *g = B->g;
    /* one input per frame: the landing's, then one per entry back to the
     * take-off (layer 0) */
    const size_t base = B->seq.n, tl = (size_t)ent(B, r->entry)->t;
    if (!vec_reserve(&B->seq, B->a, base + tl + 2) || !vec_reserve(&B->bpath, B->a, tl + 1)) {
        B->oom = true; /* (else the landing would be dropped as a bad replay) */
        return false;
    }
    uint16_t *seq = (uint16_t *)B->seq.p + base;
    bt_step *path = B->bpath.p;
    size_t ns = 0, np = 0;
    seq[ns++] = r->in;
    int32_t e = r->entry;
    int j = r->j;
    bt_memo rest = {0, 0, 0, 0, 0}; /* a remembered rest */
    const int *order =
        bt_order[B->bias > 0]; /* (B->bias read once: a store to path may alias it) */
    while (ent(B, e)->t > 0) {
        const dp_entry *Ep = ent(B, e);
        const bt_memo *M = memo_find(B, e, j);
        if (M) { /* the rest as an earlier backtrack found it */
            rest = *M;
            memcpy(seq + ns, (const uint16_t *)B->seq.p + rest.off, rest.cnt * sizeof *seq);
            ns += rest.cnt;
            j = rest.j0;
            break;
        }
        path[np++] = (bt_step){e, j, (uint32_t)ns};
        /* one predecessor, an "any direction" step of one jump input: every
         * position of E came from it and ended in E's state, so a source
         * that is there and whose walk is not stopped is the answer: j with
         * no walk, else j - 1 walking right, else j + 1 walking left */
        const dp_pred *P1 = Ep->pred >= 0 ? (const dp_pred *)B->pred.p + Ep->pred : NULL;
        if (P1 && P1->next < 0 && (P1->in & ANYDIR) && B->masks) {
            const int jb = P1->in & TN_SURF_IN_JUMP;
            const vplan *PL = NULL;
            int jp = 0, in = -1;
            for (int c = 0; c < 3 && in < 0; c++) {
                const int d = order[c]; /* the source: j + d, walking -d */
                if (!get_bit(B, P1->from, j + d)) continue;
                /* a walk a wall stops ends where it began; only a
                 * tile-aligned source can be stopped (LM_ER / LM_EL) */
                if (d != 0 && (j + d) % g->per_tile == 0) {
                    if (!PL && !(PL = backtrack_plan(B, P1->from, P1->in))) return false;
                    bool stop = false;
                    for (int r = PL->hr0; r <= PL->hr1 && !stop; r++)
                        stop = lm_bit(B, d < 0 ? LM_ER : LM_EL, r, j + d);
                    if (stop) continue;
                }
                jp = j + d;
                in = jb | (d < 0 ? TN_SURF_IN_RIGHT : d > 0 ? TN_SURF_IN_LEFT : 0);
            }
            if (in < 0) return false; /* cannot happen */
            seq[ns++] = (uint16_t)in;
            e = P1->from;
            j = jp;
            continue;
        }
        const dp_entry E = *Ep;
        bool found = false;
        for (int32_t pi = E.pred; pi >= 0 && !found; pi = ((dp_pred *)B->pred.p)[pi].next) {
            const dp_pred P = ((dp_pred *)B->pred.p)[pi];
            const int jb = P.in & TN_SURF_IN_JUMP;
            if (P.in & FFWD) {
                /* k free steps: from any position within k of j, the
                 * farthest the bias's way first, walking toward j first
                 * (free steps meet no wall) */
                const int src = far_bit(B, P.from, j - P.k, j + P.k, B->bias);
                if (src == INT32_MIN) continue;
                const int d = j - src; /* (below: the source is j - d) */
                const int ad = d < 0 ? -d : d, walk = d > 0 ? TN_SURF_IN_RIGHT : TN_SURF_IN_LEFT;
                for (int f = P.k - 1; f >= 0; f--) seq[ns++] = (uint16_t)(jb | (f < ad ? walk : 0));
                e = P.from;
                j -= d;
                found = true;
                continue;
            }
            /* (no plan for a step on the ground but a jump: see make_vplan) */
            const vplan *PL = B->masks ? backtrack_plan(B, P.from, P.in) : NULL;
            /* the (j, walk) a step can come from: an "any direction" step
             * (lean_step) from j - dir for dir = 0, +1, -1 (a wall-stopped
             * walk ends as the walk 0 does); an input's own step from j or
             * j - dir */
            int cj[3], cin[3], nc = 0;
            const int pdir =
                ((P.in & TN_SURF_IN_RIGHT) ? 1 : 0) - ((P.in & TN_SURF_IN_LEFT) ? 1 : 0);
            for (int c = 0; c < 3; c++) {
                const int d = order[c], jp = j + d;
                if (P.in & ANYDIR)
                    cj[nc] = jp, cin[nc++] = jb | (d < 0   ? TN_SURF_IN_RIGHT
                                                   : d > 0 ? TN_SURF_IN_LEFT
                                                           : 0);
                else if (!PL || jp == j || jp == j - pdir)
                    cj[nc] = jp, cin[nc++] = P.in;
            }
            for (int c = 0; c < nc && !found; c++) {
                int jp = cj[c], in = cin[c], jn;
                int pdir = ((in & TN_SURF_IN_RIGHT) ? 1 : 0) - ((in & TN_SURF_IN_LEFT) ? 1 : 0);
                if (!get_bit(B, P.from, jp)) continue;
                tn_body out;
                if (PL) {
                    if (plan_one(B, PL, pdir, jp, &jn, &out) >= 0) continue;
                } else {
                    tn_body v = ent(B, P.from)->v;
                    if (!step_at(B, &v, jp, in, &out, &jn) || out.on_ground) continue;
                }
                if (jn != j || !same_v(&out, &E.v)) continue;
                seq[ns++] = (uint16_t)in;
                e = P.from;
                j = jp;
                found = true;
            }
        }
        if (!found) return false;
    }
    const tn_surf_surface *S = &g->surf[surf_id];
    *src = tn_surf_node_at(g, S->row, j);
    if (*src < 0) return false;
    /* every (entry, j) passed, with its rest: the inputs after it in seq */
    B->seq.n = base + ns;
    for (size_t i = np; i-- > 0;) {
        rest.key = memo_key(B, path[i].e, path[i].j);
        rest.off = (uint32_t)(base + path[i].s);
        rest.cnt = (uint32_t)(ns - path[i].s);
        rest.j0 = j;
        if (!memo_put(B, &rest)) break;
    }
    /* run-length: the inputs from the take-off (the end of seq) on */
    if (!vec_reserve(&B->runs, B->a, B->runs.n + ns)) {
        B->oom = true;
        return false;
    }
    uint16_t *runs = B->runs.p;
    const size_t r0 = B->runs.n;
    size_t nr = r0;
    unsigned cur = seq[ns - 1], more = 0; /* the run being counted */
    for (ptrdiff_t i = (ptrdiff_t)ns - 2; i >= 0;) {
        /* four inputs at once while they go on with the run (runs are long:
         * a hold, a fall with one air control) */
        uint64_t q;
        if (i >= 3 && more + 4 <= 4095) {
            memcpy(&q, seq + i - 3, sizeof q);
            if (q == (uint64_t)cur * 0x0001000100010001ull) {
                more += 4;
                i -= 4;
                continue;
            }
        }
        if (seq[i] == cur && more < 4095) {
            more++;
        } else {
            runs[nr++] = (uint16_t)(cur | more << 4);
            cur = seq[i];
            more = 0;
        }
        i--;
    }
    runs[nr++] = (uint16_t)(cur | more << 4);
    *run0 = (uint32_t)r0;
    *nruns = (uint16_t)(nr - r0);
    B->runs.n = nr;
    return true;
}

/* Replay an input sequence from a node; returns the landing node (or -1)
 * and, when bb is not NULL, the tiles the body's box touched (x0, y0, x1,
 * y1), the take-off's standing box included. */
static int replay(const tn_surf *g, const tn_map *m, int from, const uint16_t *runs, int nruns,
                  int frames, int *bb)
{
    int row, j;
    tn_surf_node_pos(g, from, &row, &j);
    tn_body b = stand_body(g, row, j);
    tn_input none = {false, false, false, false};
    run_step(&g->prof, &b, m, none);
    b.x = lat_x(g, j);
    int x0 = (int)floorf(b.x / T), x1 = (int)floorf((b.x + (float)b.w * T) / T);
    int y0 = (int)floorf(b.y / T), y1 = (int)floorf((b.y + (float)b.h * T) / T);
    int f = 0;
    for (int r = 0; r < nruns; r++) {
        int cnt = (runs[r] >> 4) + 1;
        tn_input in = input_of(runs[r] & 15);
        for (int k = 0; k < cnt; k++) {
            run_step(&g->prof, &b, m, in);
            f++;
            int c0 = (int)floorf(b.x / T), c1 = (int)floorf((b.x + (float)b.w * T) / T);
            int r0 = (int)floorf(b.y / T), r1 = (int)floorf((b.y + (float)b.h * T) / T);
            x0 = tn_mini(x0, c0);
            x1 = tn_maxi(x1, c1);
            y0 = tn_mini(y0, r0);
            y1 = tn_maxi(y1, r1);
            if (b.on_ground && (r + 1 < nruns || k + 1 < cnt)) return -1;
        }
    }
    if (bb) bb[0] = x0, bb[1] = y0, bb[2] = x1, bb[3] = y1;
    if (f != frames || !b.on_ground) return -1;
    return tn_surf_node_at(g, body_row(&b), lat_j(g, b.x));
}

/* Landings kept as edges: a thinning decided by the landing nodes and
 * their frames alone (so every builder keeps the same ones).  In a group, a
 * landing n is dropped when a neighbouring landing m is faster by at least
 * the walk between them (f(m) + 1 <= f(n): land at m and walk); the others
 * form plateaus of equal frames, of which the ends and the tile-aligned
 * nodes (j a multiple of per_tile) are kept.  So a dropped landing has a
 * kept one that is as fast counting the walk, or as fast within per_tile/2
 * steps: a plan through it is at most a few frames of walking longer, and
 * every landing surface keeps an edge (its fastest landing).
 * profile.keep_all_landings keeps every landing. */
static bool landing_kept(const build *B, int32_t n)
{
    const tn_surf *g = B->g;
    if (g->prof.keep_all_landings) return true;
    const tn_surf_surface *S = &g->surf[g->node_surf[n]];
    const int last = S->node0 + (S->j1 - S->j0), f = B->best[n].frames;
    int fn[2];
    for (int k = 0; k < 2; k++) {
        int m = n + (k ? 1 : -1);
        bool in = m >= S->node0 && m <= last && B->best[m].stamp == B->bstamp;
        fn[k] = in ? B->best[m].frames : INT32_MAX;
        if (in && fn[k] + 1 <= f) return false; /* dominated */
    }
    int j = S->j0 + (n - S->node0);
    return j % g->per_tile == 0 || fn[0] != f || fn[1] != f;
}

static bool emit_group(build *B, int surf_id, int kind)
{
    tn_surf *g = B->g;
    const int32_t *t = B->touched.p;
    if (!memo_clear(B)) return false; /* the entries are this search's */
    for (size_t i = 0; i < B->touched.n; i++) {
        const best_rec *r = &B->best[t[i]];
        if (!landing_kept(B, t[i])) continue;
        /* the take-off farthest from the landing among those the backtrack
         * can reach: a bot coming from that side jumps as soon as it can.  A
         * walk-off has one take-off: one bias for all its landings, whose
         * ways back then share the memo more */
        int lr, lj;
        tn_surf_node_pos(g, t[i], &lr, &lj);
        const tn_surf_surface *S = &g->surf[surf_id];
        B->bias = kind == TN_SURF_WALKOFF ? 1 : 2 * lj > S->j0 + S->j1 ? -1 : 1;
        int32_t src;
        uint32_t run0;
        uint16_t nruns;
        size_t mark = B->runs.n;
        long st0 = B->nsteps;
        bool bt = backtrack(B, surf_id, r, &src, &run0, &nruns);
        B->nback_steps += B->nsteps - st0;
        if (!bt) {
            if (B->oom) return false;
            B->runs.n = mark;
            B->bad_replays++;
            continue;
        }
        /* the search is the simulation (mask stepping is tn_body_step's
         * decisions for whole bitsets; the naive builder steps every
         * position): replaying each edge again is optional */
        bool check = g->prof.reference_build || g->prof.verify_edges || !B->masks;
        int land =
            check ? replay(g, B->m, src, (const uint16_t *)B->runs.p + run0, nruns, r->frames, NULL)
                  : t[i];
        if (land != t[i]) {
            B->runs.n = mark;
            B->bad_replays++;
            continue;
        }
        tn_surf_edge *e = vec_push(&B->edges, B->a);
        if (!e) return false;
        memset(e, 0, sizeof *e); /* the padding too */
        e->from = src;
        e->to = t[i];
        e->run0 = run0;
        e->nruns = nruns;
        e->frames = (uint16_t)r->frames;
        e->kind = (uint8_t)kind;
        e->flags = 0;
    }
    return true;
}

static void group_begin(build *B)
{
    B->bstamp++;
    B->touched.n = 0;
}

static int cmp_edge_from(const void *a, const void *b);

/* Nodes from which a graph counts as big: its build reserves its output,
 * and each surface's edges are sorted as they are made (a small graph's
 * whole sort costs less than a sort per surface). */
#define BIG_GRAPH 16384

/* The edges a surface's searches made (edges e0.., runs r0.. of B, each
 * edge's runs contiguous, in the order made) put in cmp_edge_from order,
 * their runs laid out in that order: a build's edges then come out sorted
 * with their runs in edge order, and build_graph has nothing to sort or
 * lay out (at 1024x1024 that was a counting sort and a copy of the runs
 * into two fresh arrays, 63 MB and 15 MB).  B->seq is the scratch: the
 * backtracks are done.  False on out of memory. */
static bool surface_edges_in_order(build *B, size_t e0, size_t r0)
{
    tn_surf_edge *e = (tn_surf_edge *)B->edges.p + e0;
    const size_t n = B->edges.n - e0, nr = B->runs.n - r0;
    size_t i = 1;
    while (i < n && cmp_edge_from(&e[i - 1], &e[i]) < 0) i++;
    if (i >= n) return true;
    qsort(e, n, sizeof *e, cmp_edge_from);
    if (!vec_reserve(&B->seq, B->a, nr)) return false;
    uint16_t *runs = (uint16_t *)B->runs.p, *old = B->seq.p;
    memcpy(old, runs + r0, nr * sizeof *runs);
    size_t k = r0;
    for (i = 0; i < n; i++) {
        memcpy(runs + k, old + (e[i].run0 - r0), e[i].nruns * sizeof *runs);
        e[i].run0 = (uint32_t)k;
        k += e[i].nruns;
    }
    return true;
}

/* The searches of surface s that `which` (SEARCH_ bits) names. */
static bool surface_edges(build *B, int s, int which)
{
    tn_surf *g = B->g;
    const tn_surf_surface S = g->surf[s];
    const size_t e0 = B->edges.n, r0 = B->runs.n;
    int n0 = S.node0, n1 = S.node0 + (S.j1 - S.j0);
    /* jumps: every hold and air control is a branch of one search */
    group_begin(B);
    B->cur_search = SEARCH_JUMP;
    if ((which & SEARCH_JUMP) &&
        (!run_dp(B, s, TN_SURF_JUMP, n0, n1, 0) || !emit_group(B, s, TN_SURF_JUMP) ||
         !foot_flush(B, s, SEARCH_JUMP)))
        return false;
    /* drops: the one-way-only nodes, in runs */
    group_begin(B);
    B->cur_search = SEARCH_DROP;
    for (int n = n0; n <= n1 && (which & SEARCH_DROP);) {
        bool ow = false;
        int row = S.row;
        stands(g, B->m, row, S.j0 + (n - n0), &ow);
        if (!ow) {
            n++;
            continue;
        }
        int e = n;
        while (e + 1 <= n1) {
            bool ow2 = false;
            stands(g, B->m, row, S.j0 + (e + 1 - n0), &ow2);
            if (!ow2) break;
            e++;
        }
        /* one search per run of one-way-only nodes, emitted before the next
         * (the entries it backtracks through are reused) */
        group_begin(B);
        if (!run_dp(B, s, TN_SURF_DROP, n, e, 0) || !emit_group(B, s, TN_SURF_DROP)) return false;
        n = e + 1;
    }
    if (!foot_flush(B, s, SEARCH_DROP)) return false;
    /* walk-offs at both ends, then any air control or a coyote jump */
    for (int side = 0; side < 2; side++) {
        B->cur_search = side ? SEARCH_OFF_RIGHT : SEARCH_OFF_LEFT;
        if (!(which & B->cur_search)) continue;
        group_begin(B);
        int n = side ? n1 : n0, dir = side ? 1 : -1;
        if (!run_dp(B, s, TN_SURF_WALKOFF, n, n, dir) || !emit_group(B, s, TN_SURF_WALKOFF) ||
            !foot_flush(B, s, B->cur_search))
            return false;
    }
    if (g->nnodes >= BIG_GRAPH && !surface_edges_in_order(B, e0, r0)) return false;
    if (B->blk)
        B->blk[s] = (sblock){(uint32_t)e0, (uint32_t)(B->edges.n - e0), (uint32_t)r0,
                             (uint32_t)(B->runs.n - r0), B->slot};
    return true;
}

/* ---- running the searches, on one thread or several ---------------------
 * run_searches() runs surface_edges for n surfaces (list[i], or i when list
 * is NULL) and their searches (which[i], or all).  With profile.threads > 1
 * each extra thread gets a build of its own (its scratch, landing records
 * and output) sharing the read-only parts of B (terrain sums, row masks,
 * all made before), the threads take surfaces one by one, and their edges,
 * runs and footprints are appended to B's after the join.  Edges are then
 * sorted and runs laid out in edge order (runs_in_edge_order), so the
 * graph does not depend on which thread ran what. */

static void build_setup(build *B, tn_surf *g, const tn_map *m, int slot);
static void build_release(build *B);

#ifdef TN_SURF_THREADS
typedef struct search_jobs {
    const int32_t *list;
    const uint8_t *which;
    int n, next;
    bool failed;
    tn_mutex lock;
} search_jobs;

typedef struct search_worker {
    search_jobs *J;
    build *W;
} search_worker;

static bool claim_surface(search_jobs *J, tn_surf *g, int *i)
{
    mutex_lock(&J->lock);
    bool ok = !J->failed && J->next < J->n;
    if (ok && tn_surfi_cancelled(g)) ok = false, J->failed = true;
    if (ok) *i = J->next++;
    mutex_unlock(&J->lock);
    return ok;
}

static int search_thread(void *arg)
{
    search_worker *w = arg;
    search_jobs *J = w->J;
    int i;
    while (claim_surface(J, w->W->g, &i)) {
        int s = J->list ? J->list[i] : i;
        if (!surface_edges(w->W, s, J->which ? J->which[i] : SEARCH_ALL)) {
            mutex_lock(&J->lock);
            J->failed = true;
            mutex_unlock(&J->lock);
        }
    }
    return 0;
}

/* A thread's build: its own scratch, B's read-only parts. */
static bool worker_setup(build *W, const build *base, const build *B)
{
    build_setup(W, B->g, B->m, (int)(W - base));
    W->fast = B->fast;
    W->vmap = B->vmap;
    W->masks = B->masks;
    W->lm = B->lm;
    W->lm_ready = B->lm_ready;
    W->lmw = B->lmw;
    W->rows_all = B->rows_all;
    W->kjl = B->kjl;
    W->kjh = B->kjh;
    W->colpre = B->colpre;
    W->sat = B->sat;
    W->mwork.elem = sizeof(uint64_t);
    W->colbad = tn_alloc(W->a, (size_t)B->m->w + 16);
    W->best = tn_alloc_array(W->a, (size_t)B->g->nnodes + 1, sizeof(best_rec));
    return W->colbad && W->best;
}

static void worker_release(build *W)
{
    W->vmap = NULL; /* B's */
    W->lm = NULL;
    W->lm_ready = NULL;
    W->kjl = W->kjh = NULL;
    W->colpre = W->sat = NULL;
    build_release(W);
}

/* W's edges and runs (unless gathered: gather_edges) and footprints
 * appended to B's (offsets moved). */
static bool absorb(build *B, const build *W, bool edges)
{
    const size_t e0 = B->edges.n, r0 = B->runs.n, f0 = B->foots.n, b0 = B->fbits.n;
    const size_t wne = edges ? W->edges.n : 0, wnr = edges ? W->runs.n : 0;
    if (!vec_reserve(&B->edges, B->a, e0 + wne) || !vec_reserve(&B->runs, B->a, r0 + wnr) ||
        !vec_reserve(&B->foots, B->a, f0 + W->foots.n) ||
        !vec_reserve(&B->fbits, B->a, b0 + W->fbits.n) || r0 + wnr > UINT32_MAX ||
        b0 + W->fbits.n > UINT32_MAX)
        return false;
    tn_surf_edge *e = (tn_surf_edge *)B->edges.p + e0;
    tn_surf_foot *f = (tn_surf_foot *)B->foots.p + f0;
    if (wne) memcpy(e, W->edges.p, wne * sizeof *e);
    if (wnr) memcpy((uint16_t *)B->runs.p + r0, W->runs.p, wnr * sizeof(uint16_t));
    if (W->foots.n) memcpy(f, W->foots.p, W->foots.n * sizeof *f);
    if (W->fbits.n) memcpy((uint64_t *)B->fbits.p + b0, W->fbits.p, W->fbits.n * sizeof(uint64_t));
    for (size_t i = 0; i < wne; i++) e[i].run0 += (uint32_t)r0;
    for (size_t i = 0; i < W->foots.n; i++) f[i].bits += (uint32_t)b0;
    B->edges.n += wne, B->runs.n += wnr;
    B->foots.n += W->foots.n, B->fbits.n += W->fbits.n;
    return true;
}
#endif

/* fa(a) on the caller's thread and fb(b) on another when `two` (and threads
 * exist and one starts), else one after the other (tn_surf_ch.c's label
 * build: one direction each). */
#ifdef TN_SURF_THREADS
typedef struct pair_job {
    int (*fn)(void *);
    void *arg;
} pair_job;
static int pair_thread(void *arg)
{
    pair_job *j = arg;
    return j->fn(j->arg);
}
#if defined(TN_SURF_PTHREADS)
static void *pair_thread_posix(void *arg)
{
    pair_thread(arg);
    return NULL;
}
#endif
#endif

void tn_surfi_both(int (*fa)(void *), void *a, int (*fb)(void *), void *b, bool two)
{
#ifdef TN_SURF_THREADS
    if (two) {
        pair_job j = {fb, b};
        tn_thread t;
#if defined(TN_SURF_PTHREADS)
        bool started = pthread_create(&t, NULL, pair_thread_posix, &j) == 0;
#else
        bool started = thrd_create(&t, pair_thread, &j) == thrd_success;
#endif
        fa(a);
        if (started) {
            thread_join(t);
            return;
        }
        fb(b);
        return;
    }
#endif
    (void)two;
    fa(a);
    fb(b);
}

#ifdef TN_SURF_THREADS
/* A threaded build of a big graph: the threads' edges and runs gathered
 * surface by surface (blk) into arrays of the graph's final room (a
 * sixteenth more edges, a quarter more runs), already in edge order
 * (each surface's were sorted as made), where they were appended
 * thread by thread, sorted by take-off and the runs laid out again: at
 * 1024x1024 on 2 threads that was 290-570 ms of a 3.4 s build.  The copy
 * is split in two halves done at once: its time is mostly the new
 * pages' faults, which two threads take in parallel.  W[0] is B.  False
 * when the arrays cannot be had (nothing changed: the caller appends and
 * sorts as before). */
typedef struct gather_job {
    const sblock *blk;
    build *const *W;
    int s0, s1;
    size_t e, r; /* where surface s0's edges and runs go */
    tn_surf_edge *oe;
    uint16_t *orun;
} gather_job;

static int gather_run(void *arg)
{
    const gather_job *j = arg;
    size_t e = j->e, r = j->r;
    for (int s = j->s0; s < j->s1; s++) {
        const sblock *b = &j->blk[s];
        const build *src = j->W[b->who];
        const tn_surf_edge *se = (const tn_surf_edge *)src->edges.p + b->e0;
        for (uint32_t i = 0; i < b->ne; i++) {
            j->oe[e + i] = se[i];
            j->oe[e + i].run0 = se[i].run0 - b->r0 + (uint32_t)r;
        }
        memcpy(j->orun + r, (const uint16_t *)src->runs.p + b->r0, b->nr * sizeof *j->orun);
        e += b->ne, r += b->nr;
    }
    return 0;
}

static bool gather_edges(build *B, build *const *W, int nw, int nsurf)
{
    size_t ne = 0, nr = 0;
    for (int k = 0; k < nw; k++) ne += W[k]->edges.n, nr += W[k]->runs.n;
    if (nr > UINT32_MAX) return false;
    vec e = {NULL, 0, 0, sizeof(tn_surf_edge)}, r = {NULL, 0, 0, sizeof(uint16_t)};
    if (!vec_realloc(&e, B->a, ne + ne / 16 + 64) || !vec_realloc(&r, B->a, nr + nr / 4 + 64)) {
        vec_free(&e, B->a);
        vec_free(&r, B->a);
        return false;
    }
    /* the halves: split where half the edges are written */
    gather_job J[2] = {{B->blk, W, 0, nsurf, 0, 0, e.p, r.p},
                       {B->blk, W, nsurf, nsurf, 0, 0, e.p, r.p}};
    size_t ea = 0, ra = 0;
    for (int s = 0; s < nsurf; s++) {
        if (ea >= ne / 2 && J[0].s1 == nsurf) J[0].s1 = J[1].s0 = s, J[1].e = ea, J[1].r = ra;
        ea += B->blk[s].ne, ra += B->blk[s].nr;
    }
    surf_both(gather_run, &J[0], gather_run, &J[1], true);
    e.n = ne, r.n = nr;
    vec_free(&B->edges, B->a);
    vec_free(&B->runs, B->a);
    B->edges = e, B->runs = r;
    return true;
}
#endif

#ifdef TN_SURF_THREADS
static int cmp_foot(const void *pa, const void *pb)
{
    const tn_surf_foot *a = pa, *b = pb;
    if (a->surf != b->surf) return a->surf < b->surf ? -1 : 1;
    return (a->search > b->search) - (a->search < b->search);
}

/* The footprints threads made (records [f0, n), their bitmaps the pool
 * from b0 on, in the same order: thread-completion order) put in (surface,
 * search) order, the order one thread makes them in, bitmaps too, so the
 * graph and its saved bytes do not depend on the thread count or timing.
 * False on out of memory. */
static bool foot_order(build *B, size_t f0, size_t b0)
{
    tn_surf_foot *f = (tn_surf_foot *)B->foots.p + f0;
    const size_t nf = B->foots.n - f0, nw = B->fbits.n - b0;
    bool sorted = true;
    for (size_t i = 1; i < nf && sorted; i++) sorted = cmp_foot(&f[i - 1], &f[i]) < 0;
    if (sorted) return true;
    qsort(f, nf, sizeof *f, cmp_foot);
    uint64_t *tmp = alloc_unzeroed(B->a, nw, sizeof *tmp), *pool = B->fbits.p;
    if (!tmp) return false;
    size_t k = 0;
    for (size_t i = 0; i < nf; i++) {
        const size_t w = foot_words(&f[i]);
        memcpy(tmp + k, pool + f[i].bits, w * sizeof *tmp);
        f[i].bits = (uint32_t)(b0 + k);
        k += w;
    }
    memcpy(pool + b0, tmp, k * sizeof *tmp);
    tn_free(B->a, tmp);
    return true;
}
#endif

static bool run_searches(build *B, const int32_t *list, const uint8_t *which, int n)
{
#ifdef TN_SURF_THREADS
    int nt = tn_mini(B->g->prof.threads, n);
    if (nt > 1) {
        const size_t f0 = B->foots.n, b0 = B->fbits.n;
        /* the threads read the row masks: all made now */
        for (int r = -1; B->masks && r <= B->g->mh + 1; r++) ensure_row(B, r);
        B->rows_all = B->masks;
        search_jobs J;
        memset(&J, 0, sizeof J);
        J.list = list, J.which = which, J.n = n;
        build W[64];
        search_worker w[64];
        tn_thread th[64];
        bool started[64] = {false};
        if (!mutex_init(&J.lock)) nt = 1;
        for (int k = 0; k < nt; k++) w[k].J = &J, w[k].W = k ? &W[k] : B;
        int ready = 1; /* workers set up: thread 0 is the caller, on B */
        for (; ready < nt && worker_setup(&W[ready], W, B); ready++) {}
        if (ready < nt) worker_release(&W[ready]); /* the one that failed */
        /* a build of a big graph gathers the edges by surface (gather_edges) */
        sblock *blk = !list && B->g->nnodes >= BIG_GRAPH
                          ? alloc_unzeroed(B->a, (size_t)n + 1, sizeof *blk)
                          : NULL;
        B->blk = blk;
        for (int k = 1; k < ready; k++) W[k].blk = blk, W[k].slot = k;
        for (int k = 1; k < ready; k++) started[k] = thread_start(&th[k], &w[k]);
        if (nt > 1) search_thread(&w[0]);
        bool ok = true;
        for (int k = 1; k < ready; k++)
            if (started[k]) thread_join(th[k]);
        build *all[64];
        for (int k = 0; k < ready; k++) all[k] = k ? &W[k] : B;
        if (tn_surfi_cancelled(B->g)) J.failed = true; /* (nothing gathered: the build stops) */
        const bool gathered = blk && !J.failed && gather_edges(B, all, ready, n);
        for (int k = 1; k < ready; k++) {
            ok = ok && !J.failed && absorb(B, &W[k], !gathered);
            worker_release(&W[k]);
        }
        B->blk = NULL;
        tn_free(B->a, blk);
        ok = ok && !J.failed && !tn_surfi_cancelled(B->g) && foot_order(B, f0, b0);
        if (nt > 1) {
            mutex_destroy(&J.lock);
            return ok;
        }
    }
#endif
    for (int i = 0; i < n; i++)
        if (tn_surfi_cancelled(B->g) ||
            !surface_edges(B, list ? list[i] : i, which ? which[i] : SEARCH_ALL))
            return false;
    return true;
}

/* The runs of edges e[0..ne) laid out in edge order (a graph's runs do not
 * depend on the order its searches ran in) in a new array, without the
 * runs no edge names (dead: of edges a repair removed); false on out of
 * memory. */
static bool runs_in_edge_order(tn_surf_edge *e, size_t ne, vec *runs, const tn_allocator *a)
{
    size_t live = 0;
    for (size_t i = 0; i < ne; i++) live += e[i].nruns;
    const size_t cap = live + live / 4 + 64; /* room for repairs (runs_room) */
    uint16_t *r = alloc_unzeroed(a, cap, sizeof *r);
    if (!r) return false;
    const uint16_t *old = runs->p;
    uint32_t k = 0;
    for (size_t i = 0; i < ne; i++) {
        memcpy(r + k, old + e[i].run0, e[i].nruns * sizeof *r);
        e[i].run0 = k;
        k += e[i].nruns;
    }
    tn_free(a, runs->p);
    runs->p = r;
    runs->n = k;
    runs->cap = cap;
    return true;
}

/* The runs edges name moved down over the dead ones, in place and in their
 * order, the edges' run0 renumbered (a repair's relayout: no new pool, so
 * no fresh pages, which cost a 1024x1024 repair 60-100 ms a time).  A
 * bitmap of the live runs (n / 8 bytes) and its word ranks: O(runs +
 * edges).  False on out of memory. */
static bool runs_compact(tn_surf_edge *e, size_t ne, vec *runs, const tn_allocator *a)
{
    const size_t n = runs->n, nw = n / 64 + 1;
    uint64_t *live = tn_alloc_array(a, nw, sizeof *live);
    uint32_t *rank = alloc_unzeroed(a, nw, sizeof *rank);
    if (!live || !rank) {
        tn_free(a, live);
        tn_free(a, rank);
        return false;
    }
    for (size_t i = 0; i < ne; i++)
        if (e[i].nruns) set_bit_range(live, e[i].run0, (size_t)e[i].run0 + e[i].nruns - 1);
    uint32_t k = 0;
    for (size_t w = 0; w < nw; w++) {
        rank[w] = k;
        k += (uint32_t)__builtin_popcountll(live[w]);
    }
    /* the spans of live runs, in order, each moved once (spans that
     * continue into the next word are joined first) */
    uint16_t *r = runs->p;
    size_t d = 0, ps = 0, pl = 0; /* the pending span: [ps, ps + pl) */
    for (size_t w = 0; w < nw; w++) {
        for (uint64_t x = live[w]; x;) {
            const int b0 = __builtin_ctzll(x);
            const uint64_t y = ~x & (~0ull << b0);
            const int b1 = y ? __builtin_ctzll(y) : 64;
            const size_t s0 = 64 * w + (size_t)b0, len = (size_t)(b1 - b0);
            if (pl && ps + pl == s0) {
                pl += len;
            } else {
                if (pl && d != ps) memmove(r + d, r + ps, pl * sizeof *r);
                d += pl;
                ps = s0, pl = len;
            }
            x = b1 == 64 ? 0 : x & (~0ull << b1);
        }
    }
    if (pl && d != ps) memmove(r + d, r + ps, pl * sizeof *r);
    d += pl;
    for (size_t i = 0; i < ne; i++) {
        const uint32_t q = e[i].run0, w = q >> 6;
        e[i].run0 = rank[w] + (uint32_t)__builtin_popcountll(live[w] & ((1ull << (q & 63)) - 1));
    }
    runs->n = d;
    tn_free(a, live);
    tn_free(a, rank);
    return true;
}

/* A repair's new runs in edge order: the kept edges' runs stay where they
 * are (the runs of removed edges stay too, dead, until the pool is laid
 * out again: see repair_local); the new edges' runs, appended from r0 on
 * in the order the searches ran, are put in the order of the new edges,
 * which the repair placed at pos[0 .. nn), increasing.  False on out
 * of memory. */
static bool runs_append_in_edge_order(tn_surf_edge *e, const size_t *pos, size_t nn, vec *runs,
                                      uint32_t r0, const tn_allocator *a)
{
    uint16_t *r = runs->p;
    const uint32_t nt = (uint32_t)runs->n - r0;
    if (nn == 0) return true;
    uint16_t *t = alloc_unzeroed(a, (size_t)nt + 1, sizeof *t);
    if (!t) return false;
    memcpy(t, r + r0, nt * sizeof *t);
    uint32_t d = r0;
    for (size_t k = 0; k < nn; k++) {
        tn_surf_edge *E = &e[pos[k]];
        memcpy(r + d, t + (E->run0 - r0), E->nruns * sizeof *r);
        E->run0 = d;
        d += E->nruns;
    }
    tn_free(a, t);
    return true;
}

static void free_graph_arrays(tn_surf *g)
{
    const tn_allocator *a = &g->alloc;
    tn_free(a, g->surf);
    tn_free(a, g->row_first);
    tn_free(a, g->node_surf);
    tn_free(a, g->edge_first);
    tn_free(a, g->edge);
    tn_free(a, g->runs);
    query_state_free_nodes(a, &g->qs);
    tn_free(a, g->lx);
    tn_free(a, g->scol);
    tn_free(a, g->sbox);
    tn_free(a, g->smaxto);
    g->smaxto = NULL;
    tn_free(a, g->foot);
    tn_free(a, g->fbits);
    g->foot = NULL;
    g->fbits = NULL;
    g->nfoot = 0;
    g->nfbits = g->fbits_dead = 0;
    g->foot_cap = g->fbits_cap = 0;
    tn_free(a, g->tiles);
    g->tiles = NULL;
    tn_free(a, g->rep_surf);
    g->rep_surf = NULL;
    g->nrep_surf = g->nrep_tiles = 0;
    tn_free(a, g->colpre);
    tn_free(a, g->sat);
    g->colpre = g->sat = NULL;
    tn_free(a, g->best);
    g->best = NULL;
    g->best_cap = 0;
    tn_free(a, g->masks);
    tn_free(a, g->masks_ready);
    g->masks = NULL;
    g->masks_ready = NULL;
    query_index_free(g);
    g->sbox = NULL;
    g->lx = NULL;
    g->scol = NULL;
    g->surf = NULL;
    g->row_first = g->node_surf = g->edge_first = NULL;
    g->edge = NULL;
    g->runs = NULL;
    g->qs.gcost = g->qs.parent = g->qs.pedge = g->qs.heap = g->qs.hpos = g->qs.order = g->qs.tmp =
        NULL;
    g->qs.stamp = NULL;
    g->nsurf = g->nnodes = g->nedges = 0;
    g->nruns = g->runs_dead = 0;
    g->edge_cap = g->runs_cap = 0;
}

static int cmp_edge_from(const void *a, const void *b)
{
    const tn_surf_edge *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    if (x->frames != y->frames) return (int)x->frames - (int)y->frames;
    return (int)x->kind - (int)y->kind;
}

/* True when e[0..n) is in cmp_edge_from order by take-off node (then the
 * surfaces' own sorts give the whole order) and their runs lie in edge
 * order from run 0 on, with none between or after: what sort_edges and
 * runs_in_edge_order would make. */
static bool edges_in_order(const tn_surf_edge *e, size_t n, size_t nruns)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if ((i > 0 && e[i].from < e[i - 1].from) || e[i].run0 != k) return false;
        k += e[i].nruns;
    }
    return k == nruns;
}

/* v's edges in cmp_edge_from order: by take-off node (a counting sort:
 * they come grouped by take-off surface, a few per node), then each node's
 * few by insertion; the same order as qsort (no two edges compare equal),
 * which sorts them in place when the new array cannot be had.  The new
 * array has the graph's room for 1/16 more (vec_slack's), so neither a
 * copy back nor a reallocation follows (at 1024x1024 each touched 60 MB of
 * fresh pages).  False on OOM. */
static bool sort_edges(vec *v, int nn, const tn_allocator *a)
{
    tn_surf_edge *e = v->p;
    const size_t n = v->n, cap = n + n / 16 + 64;
    tn_surf_edge *t = alloc_unzeroed(a, cap, sizeof *t);
    size_t *first = tn_alloc_array(a, (size_t)nn + 2, sizeof *first);
    if (!t || !first) {
        tn_free(a, t);
        tn_free(a, first);
        qsort(e, n, sizeof *e, cmp_edge_from);
        return vec_slack(v, a);
    }
    for (size_t i = 0; i < n; i++) first[e[i].from + 2]++;
    for (int k = 0; k < nn; k++) first[k + 2] += first[k + 1];
    for (size_t i = 0; i < n; i++) t[first[e[i].from + 1]++] = e[i];
    for (int k = 0; k < nn; k++)
        for (size_t i = first[k] + 1; i < first[k + 1]; i++) {
            const tn_surf_edge x = t[i];
            size_t j = i;
            for (; j > first[k] && cmp_edge_from(&t[j - 1], &x) > 0; j--) t[j] = t[j - 1];
            t[j] = x;
        }
    tn_free(a, v->p);
    tn_free(a, first);
    v->p = t;
    v->cap = cap;
    return true;
}

static tn_status build_graph(tn_surf *g, const tn_map *m, tn_error *err);

/* A build or repair that made the graph but got no memory for its query
 * index (query_index_build): the graph is whole and queries answer by the
 * reference search, so a partial success that says so, not a silent OK. */
static tn_status index_said(const tn_surf *g, tn_status st, tn_error *err)
{
    if (st != TN_OK || g->qindex) return st;
    return tn_error_set(err, TN_SUCCESS | TN_PARTIAL_RESULT | TN_OUT_OF_MEMORY, 0, 0,
                        "surf: made, but out of memory for its query index: queries "
                        "answer by the slower reference search (the same plans), edge flags "
                        "(TN_SURF_EDGE_DOMINATED) and landmarks are not up to date until a "
                        "build or repair with memory");
}

/* A build, then the pool's blocks returned (a build's sizes are not a
 * repair's). */
static tn_status do_build(tn_surf *g, const tn_map *m, tn_error *err)
{
    g->polling = !g->blob; /* (a load searches nothing: it does not poll) */
    g->cancelled = false;
    tn_status st = build_graph(g, m, err);
    g->polling = false;
    if (tn_failed(st)) g->map = NULL; /* out of sync with every map: the next sync builds again */
    pool_trim(g->pool, true);
    return index_said(g, st, err);
}

static tn_status build_graph(tn_surf *g, const tn_map *m, tn_error *err)
{
    const tn_allocator *a = &g->alloc;
    free_graph_arrays(g);
    g->map = m;
    g->rev = m->revision;
    g->generation++;
    g->mw = m->w;
    g->mh = m->h;
    /* a box wider than the map stands nowhere: jmax -1, no lattice j (as a
     * box taller than the map finds no row); the arrays stay 4 wide */
    g->jmax = tn_maxi(-1, (m->w - g->prof.w) * g->per_tile);
    g->inv_step = (float)g->per_tile / T;
    g->lx = tn_alloc_array(a, (size_t)g->jmax + 5, sizeof(float));
    if (!g->lx)
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "surf: out of memory");
    for (int j = -2; j <= g->jmax + 2; j++) g->lx[j + 2] = lat_x_exact(g, j);
    g->scol = tn_alloc_array(a, 2 * ((size_t)g->jmax + 5), sizeof(int32_t));
    if (!g->scol)
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "surf: out of memory");
    for (int j = -2; j <= g->jmax + 2; j++)
        g->scol[2 * (j + 2)] = step_col0(g, j), g->scol[2 * (j + 2) + 1] = step_col1(g, j);
    build B;
    build_setup(&B, g, m, 0);
    tn_status st = TN_OK;
    if (tn_surfi_cancelled(g)) goto cancelled;
    if (!colpre_build(&B)) goto oom;
    if (builtin_step(&g->prof) && !g->prof.reference_build) {
        tn_map_create(g->prof.w + 8, m->h, a, &B.vmap, NULL);
        if (!B.vmap) goto oom;
        B.fast = true;
    }
    if (!masks_init(&B) || !kranges_init(&B)) goto oom;
    /* a build reads nearly every row: all made now, not asked for per step
     * (a load searches nothing: its repairs make the rows they read) */
    B.rows_all = B.masks && !g->blob;
    for (int r = -1; B.rows_all && r <= g->mh + 1; r++) {
        if (!(r & 127) && tn_surfi_cancelled(g)) goto cancelled;
        ensure_row(&B, r);
    }
    if (tn_surfi_cancelled(g)) goto cancelled;
    if (B.masks && !sat_build(&B)) goto oom;
    if (!find_surfaces(&B)) goto oom;
    if (tn_surfi_cancelled(g)) goto cancelled;
    g->nsurf = (int)B.surf.n;
    g->surf = B.surf.p;
    B.surf.p = NULL;
    {
        int nn = 0;
        for (int i = 0; i < g->nsurf; i++) {
            g->surf[i].node0 = nn;
            nn += g->surf[i].j1 - g->surf[i].j0 + 1;
        }
        g->nnodes = nn;
    }
    g->row_first = tn_alloc_array(a, (size_t)g->mh + 2, sizeof(int32_t));
    g->node_surf = tn_alloc_array(a, (size_t)g->nnodes + 1, sizeof(int32_t));
    g->sbox = tn_alloc_array(a, (size_t)g->nsurf * 4 + 4, sizeof(int16_t));
    if (!g->row_first || !g->node_surf || !g->sbox) goto oom;
    for (int i = 0; i < g->nsurf; i++) {
        g->sbox[4 * i] = g->sbox[4 * i + 1] = 32000;
        g->sbox[4 * i + 2] = g->sbox[4 * i + 3] = -32000;
    }
    {
        int k = 0;
        for (int r = 0; r <= g->mh + 1; r++) {
            while (k < g->nsurf && g->surf[k].row < r) k++;
            g->row_first[r] = k;
        }
        for (int i = 0; i < g->nsurf; i++)
            for (int n = 0; n <= g->surf[i].j1 - g->surf[i].j0; n++)
                g->node_surf[g->surf[i].node0 + n] = i;
    }
    g->best_cap = (size_t)g->nnodes + (size_t)g->nnodes / 16 + 1; /* room for repairs */
    B.best = tn_alloc_array(a, g->best_cap, sizeof(best_rec));
    if (!B.best) goto oom;
    /* a big graph's search output, reserved from the node count (3-6 edges
     * and 9-30 input runs a node on the levels measured) instead of grown by
     * doubling, which copied it again and again (117 MB of edge slots for
     * 2.26 M edges at 1024x1024); where the memory is not there, the
     * searches grow it as before.  (A small graph's doubling costs less than
     * the fresh pages of one reserve.) */
    if (g->blob) {
        /* tn_surf_load: what the searches made, decoded and checked */
        const surf_blob *L = g->blob;
        if (L->nsurf != g->nsurf || L->nnodes != g->nnodes) {
            st = tn_error_set(err, TN_FAILURE | TN_PARSE_ERROR, 0, 0,
                              "%s: surface graph data: %d surfaces and %d nodes, where the "
                              "map and profile give %d and %d",
                              L->name, L->nsurf, L->nnodes, g->nsurf, g->nnodes);
            goto fail;
        }
        /* tables saved: as many as the setting gives (none: a save without
         * the query index, which the load then makes; more than the nodes:
         * a save from before the cap, lm_saved_count) */
        if (L->nlm != 0 && !lm_saved_count(g, L->nlm)) {
            st = tn_error_set(err, TN_FAILURE | TN_PARSE_ERROR, 0, 0,
                              "%s: surface graph data: %d landmark tables, where the setting "
                              "%d gives this graph %d",
                              L->name, L->nlm, L->lm_want, lm_count(g));
            goto fail;
        }
        if (!vec_reserve(&B.edges, a, (size_t)L->nedges) ||
            !vec_reserve(&B.runs, a, (size_t)L->nruns) ||
            !vec_reserve(&B.foots, a, (size_t)L->nfoot) ||
            !vec_reserve(&B.fbits, a, (size_t)L->nfbits))
            goto oom;
        st = tn_surfi_blob_decode(L, g->mw, g->mh, B.edges.p, B.runs.p, B.foots.p, B.fbits.p,
                                  g->sbox, err);
        if (tn_failed(st)) goto fail;
        /* a build's edges land on another surface (landed_at): the query
         * shortcuts' contraction relies on it (a loop would shortcut itself) */
        for (int e = 0; e < L->nedges; e++) {
            const tn_surf_edge *E = (const tn_surf_edge *)B.edges.p + e;
            if (g->node_surf[E->from] == g->node_surf[E->to]) {
                st = tn_error_set(err, TN_FAILURE | TN_PARSE_ERROR, 0, 0,
                                  "%s: surface graph data: edge %d lands on its take-off's own "
                                  "surface (node %d to %d), which no build makes",
                                  L->name, e, (int)E->from, (int)E->to);
                goto fail;
            }
        }
        B.edges.n = (size_t)L->nedges;
        B.runs.n = L->nruns;
        B.foots.n = (size_t)L->nfoot;
        B.fbits.n = (size_t)L->nfbits;
    } else {
        if (g->nnodes >= BIG_GRAPH)
            (void)(vec_reserve(&B.edges, a, (size_t)g->nnodes * 6 + 64) &&
                   vec_reserve(&B.runs, a, (size_t)g->nnodes * 32 + 256));
        if (!run_searches(&B, NULL, NULL, g->nsurf)) goto searched;
    }
    if (tn_surfi_cancelled(g)) goto cancelled;
    /* edges: CSR by take-off node (a loaded graph's are in order: checked) */
    if (g->blob || (g->nnodes >= BIG_GRAPH && edges_in_order(B.edges.p, B.edges.n, B.runs.n))) {
        /* one thread, or threads that ran the surfaces in order: each
         * surface's edges were sorted with their runs (surface_edges) */
        const size_t nr = B.runs.n;
        if (!vec_slack(&B.edges, a) ||
            ((B.runs.cap < nr + nr / 16 + 64 || B.runs.cap > nr + nr / 2 + 64) &&
             !vec_realloc(&B.runs, a, nr + nr / 4 + 64)))
            goto oom;
    } else if (!sort_edges(&B.edges, g->nnodes, a) ||
               !runs_in_edge_order(B.edges.p, B.edges.n, &B.runs, a)) {
        goto oom;
    }
    g->nedges = (int)B.edges.n;
    g->edge = B.edges.p;
    g->edge_cap = B.edges.cap;
    B.edges.p = NULL;
    if (tn_surfi_cancelled(g)) goto cancelled;
    g->nruns = (uint32_t)B.runs.n;
    g->runs_dead = 0;
    g->runs = B.runs.p;
    g->runs_cap = B.runs.cap;
    B.runs.p = NULL;
    if (!vec_slack(&B.foots, a) || !vec_slack(&B.fbits, a)) goto oom;
    g->nfoot = (int)B.foots.n;
    g->foot = B.foots.p;
    g->foot_cap = B.foots.cap;
    g->nfbits = B.fbits.n;
    g->fbits = B.fbits.p;
    g->fbits_cap = B.fbits.cap;
    B.foots.p = B.fbits.p = NULL;
    /* (filled below, or query scratch read only where g->qs.stamp says it
     * was written: no need to clear them, as a repair does not) */
    g->edge_first = alloc_unzeroed(a, (size_t)g->nnodes + 1, sizeof(int32_t));
    {
        size_t nn = (size_t)g->nnodes + 1;
        g->qs.gcost = alloc_unzeroed(a, nn, sizeof(int32_t));
        g->qs.parent = alloc_unzeroed(a, nn, sizeof(int32_t));
        g->qs.pedge = alloc_unzeroed(a, nn, sizeof(int32_t));
        g->qs.heap = alloc_unzeroed(a, nn, sizeof(int32_t));
        g->qs.hpos = alloc_unzeroed(a, nn, sizeof(int32_t));
        g->qs.order = alloc_unzeroed(a, nn, sizeof(int32_t));
        g->qs.tmp = alloc_unzeroed(a, nn, sizeof(int32_t));
        g->qs.stamp = tn_alloc_array(a, nn, sizeof(uint32_t));
    }
    if (!g->edge_first || !g->qs.gcost || !g->qs.parent || !g->qs.pedge || !g->qs.heap ||
        !g->qs.hpos || !g->qs.order || !g->qs.tmp || !g->qs.stamp)
        goto oom;
    if (tn_surfi_cancelled(g)) goto cancelled;
    {
        int k = 0;
        for (int n = 0; n <= g->nnodes; n++) {
            while (k < g->nedges && g->edge[k].from < n) k++;
            g->edge_first[n] = k;
        }
    }
    g->smaxto = alloc_unzeroed(a, (size_t)g->nsurf + 1, sizeof(int32_t));
    if (!g->smaxto) goto oom;
    for (int s = 0; s < g->nsurf; s++) g->smaxto[s] = -1;
    for (int e = 0; e < g->nedges; e++) {
        int32_t *mx = &g->smaxto[g->node_surf[g->edge[e].from]];
        if (g->edge[e].to > *mx) *mx = g->edge[e].to;
    }
    if (tn_surfi_cancelled(g)) goto cancelled;
    query_index_build(g, NULL);
    if (tn_surfi_cancelled(g)) goto cancelled;
    if (g->lm_bad) { /* tn_surf_load: tables that are not the graph's (lm_take) */
        const int K = g->blob->nlm, col = g->lm_bad - 1;
        if (g->lm_bad_node < 0)
            st = tn_error_set(err, TN_FAILURE | TN_PARSE_ERROR, 0, 0,
                              "%s: surface graph data: a landmark node or cost is out of range",
                              g->blob->name);
        else
            st = tn_error_set(err, TN_FAILURE | TN_PARSE_ERROR, 0, 0,
                              "%s: surface graph data: landmark table %d (costs %s node %d) is "
                              "not the graph's shortest costs at node %d",
                              g->blob->name, col, col < K ? "from" : "to", (int)g->lmnode[col % K],
                              g->lm_bad_node);
        goto fail;
    }
    g->qs.gen = 0;
    g->tiles = tn_alloc(a, (size_t)m->w * (size_t)m->h);
    if (!g->tiles) goto oom;
    memcpy(g->tiles, m->tile, (size_t)m->w * (size_t)m->h);
    g->colpre = B.colpre; /* kept for repairs */
    g->sat = B.sat;
    g->best = B.best;
    g->bstamp = B.bstamp;
    B.colpre = B.sat = NULL;
    B.best = NULL;
#ifdef TN_SURF_DEBUG
    fprintf(stderr, "free steps %ld; ", B.nfree_steps);
    fprintf(stderr, "shortcut steps %ld; mask steps %ld (fallback %ld, checked %ld, bad %ld)\n",
            B.nshort, B.nmask, B.nmask_fallback, B.nmask_checked, B.nmask_bad);
    fprintf(stderr, "backtrack steps %ld; mask ceiling hits %ld, one-way landings %ld\n",
            B.nback_steps, B.nceil, B.nowland);
    fprintf(stderr, "surf build: steps %ld entries %ld free %ld block %ld bad %d mismatch %d\n",
            B.nsteps, B.nentries, B.nfree, B.nblock, B.bad_replays, B.bulk_mismatch);
    fprintf(stderr, "  jump: entries %ld steps %ld; drop: %ld %ld; walkoff: %ld %ld\n", B.kent[0],
            B.ksteps[0], B.kent[1], B.ksteps[1], B.kent[2], B.ksteps[2]);
#endif
    goto done;
searched: /* the searches stopped: cancelled, or out of memory */
    if (!g->cancelled) goto oom;
cancelled:
    st = tn_error_set(err, TN_FAILURE | TN_CANCELLED, 0, 0, "surf: graph build cancelled");
    goto fail;
oom:
    st = tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "surf: out of memory");
fail:
    free_graph_arrays(g);
done:
    build_release(&B);
    return st;
}

/* INVALID_PARAM (with a message) for a profile out of range; else its
 * lattice steps per tile and step in px. */
/* The lattice (docs/surf.md, "The x lattice") needs a walk that moves a
 * standing body exactly one walk step per frame from rest and stops at
 * once, and the same in the air: one walk step a frame with left or right
 * held, none without (no air control factor, no momentum), so that every
 * take-off, trajectory and landing stays on the lattice.  tn_body_step
 * does; a custom step function with acceleration or sliding gave a graph of
 * isolated nodes (no walks), one with another speed in the air lost most
 * edges (landings off the lattice), silently.  So the step function is
 * probed on a private floor: walk one frame each way from rest, then let go
 * one frame; jump with right (left) held, then let go in the air; fall from
 * rest with right (left) held.  Returns a message's status. */
enum { PROBE_AIR_FRAMES = 24 };

/* A body the step function left at a NaN x or y, named as one ("%g"
 * prints a move to it "nan" or "-nan"); TN_OK otherwise.  `what` says
 * when, as the probe's other messages do. */
static tn_status probe_nan(const tn_body *b, const char *what, const char *dir, tn_error *err)
{
    if (!isnan(b->x) && !isnan(b->y)) return TN_OK;
    return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                        "surf: the step function left the body's %s not a number (NaN) %s %s",
                        isnan(b->x) ? "x" : "y", what, dir);
}

static tn_status probe_air(const tn_surf_profile *prof, const tn_map *m, tn_body *b, int dir,
                           bool jump, float step_px, float k, const char *what, tn_error *err)
{
    const float tol = 1e-3f;
    const tn_input hold = {dir<0, dir> 0, false, jump};
    for (int f = 1; f <= PROBE_AIR_FRAMES; f++) {
        const float x0 = b->x;
        run_step(prof, b, m, hold);
        tn_status nan = probe_nan(b, jump ? "in a jump" : "in a fall",
                                  dir > 0 ? "with right held" : "with left held", err);
        if (tn_failed(nan)) return nan;
        const float moved = b->x - x0;
        if (!(fabsf(moved - (float)dir * step_px) <= tol))
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "surf: the step function moved an airborne body %g px "
                                "in frame %d of %s with %s held; the graph needs exactly one "
                                "walk step (walk_speed * dt = %g px) per frame in the air too "
                                "(no other air speed or air control)",
                                (double)(k * moved), f, what, dir > 0 ? "right" : "left",
                                (double)(k * (float)dir * step_px));
        if (b->on_ground) return TN_OK;  /* landed */
        if (f == PROBE_AIR_FRAMES / 2) { /* let go for a frame: no drift */
            const tn_input none = {false, false, false, jump};
            const float x1 = b->x;
            run_step(prof, b, m, none);
            nan = probe_nan(b, jump ? "in a jump," : "in a fall,", "letting go in the air", err);
            if (tn_failed(nan)) return nan;
            if (!(fabsf(b->x - x1) <= tol))
                return tn_error_set(
                    err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                    "surf: the step function moved an airborne body %g px in a frame "
                    "without left or right, after %d frames of %s with %s held; the graph "
                    "needs no horizontal motion in the air without input (no momentum)",
                    (double)(k * (b->x - x1)), f, what, dir > 0 ? "right" : "left");
            if (b->on_ground) return TN_OK;
        }
    }
    return TN_OK;
}

static tn_status probe_step(const tn_surf_profile *prof, float step_px, float k, tn_error *err)
{
    /* wide enough for 2 x 26 frames one way at up to a tile a frame, tall
     * enough for a 9-tile box jumping 8 tiles */
    enum { PW = 2 * (PROBE_AIR_FRAMES + 2) + TN_MAX_BODY_W + 4, PH = 2 * TN_MAX_BODY_H + 14 };
    uint8_t tile[PW * PH], mark[PW * PH];
    memset(tile, TN_TILE_EMPTY, sizeof tile);
    memset(mark, 0, sizeof mark);
    for (int x = 0; x < PW; x++) tile[(PH - 1) * PW + x] = TN_TILE_BLOCK;
    tn_map m;
    memset(&m, 0, sizeof m);
    m.w = PW, m.h = PH, m.tile = tile, m.mark = mark, m.start_x = m.start_y = -1;
    const tn_phys_params *p = &prof->phys;
    const tn_input none = {false, false, false, false};
    const float tol = 1e-3f;
    const int mid = (PW - prof->w) / 2;
    for (int dir = 1; dir >= -1; dir -= 2) {
        tn_body b;
        tn_body_place(&b, p, prof->w, prof->h, mid, PH - 2); /* feet on the floor */
        run_step(prof, &b, &m, none);                        /* settle on the floor */
        const float x0 = b.x;
        const tn_input walk = {dir<0, dir> 0, false, false};
        run_step(prof, &b, &m, walk);
        tn_status nan = probe_nan(&b, "in its first frame walking",
                                  dir > 0 ? "right from rest" : "left from rest", err);
        if (tn_failed(nan)) return nan;
        const float moved = b.x - x0;
        if (!(fabsf(moved - (float)dir * step_px) <= tol))
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "surf: the step function moved a standing body %g px "
                                "in its first frame walking %s from rest; the graph needs "
                                "exactly one walk step (walk_speed * dt = %g px) per frame "
                                "from rest and an instant stop (no acceleration)",
                                (double)(k * moved), dir > 0 ? "right" : "left",
                                (double)(k * (float)dir * step_px));
        const float x1 = b.x;
        run_step(prof, &b, &m, none);
        nan = probe_nan(&b, "on the frame after walking",
                        dir > 0 ? "right stopped" : "left stopped", err);
        if (tn_failed(nan)) return nan;
        if (!(fabsf(b.x - x1) <= tol))
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "surf: the step function moved a standing body %g px "
                                "on the frame after walking %s stopped; the graph needs an "
                                "instant stop (no sliding) and one walk step (%g px) per frame",
                                (double)(k * (b.x - x1)), dir > 0 ? "right" : "left",
                                (double)(k * step_px));
        /* a jump with the direction held (from rest: the frame after the stop) */
        tn_status st = probe_air(prof, &m, &b, dir, true, step_px, k, "a jump", err);
        if (tn_failed(st)) return st;
        /* a fall from rest (placed in the air) with the direction held */
        tn_body_place(&b, p, prof->w, prof->h, mid, prof->h); /* top row 1 */
        st = probe_air(prof, &m, &b, dir, false, step_px, k, "a fall", err);
        if (tn_failed(st)) return st;
    }
    return TN_OK;
}

static tn_status profile_check(const tn_surf_profile *prof, tn_surf_profile *norm,
                               int *per_tile_out, float *step_out, tn_error *err)
{
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    if (prof->w < 1 || prof->w > TN_MAX_BODY_W || prof->h < 1 || prof->h > TN_MAX_BODY_H)
        return tn_error_set(err, bad, 0, 0, "surf: box %dx%d is outside 1..%d x 1..%d", prof->w,
                            prof->h, TN_MAX_BODY_W, TN_MAX_BODY_H);
    if (prof->threads < 0 || prof->threads > 64)
        return tn_error_set(err, bad, 0, 0, "surf: %d threads is outside 0..64", prof->threads);
    if (prof->coyote < TN_SURF_COYOTE_LAST || prof->coyote > TN_SURF_COYOTE_FULL)
        return tn_error_set(err, bad, 0, 0,
                            "surf: coyote setting %d is not one of TN_SURF_COYOTE_LAST, "
                            "_ALL, _NONE or _FULL (0..3)",
                            prof->coyote);
    if (prof->step && prof->step_user_fn)
        return tn_error_set(err, bad, 0, 0,
                            "surf: the profile has both a step and a step_user_fn "
                            "(set one: step_user_fn takes step_user)");
    tn_status st = tn_phys_validate(&prof->phys, err);
    if (tn_failed(st)) return st;
    /* The graph is built in pixels of 16-px tiles: a tile of 16 x 2^n px
     * (4 .. 256) is the same physics scaled exactly (tn_phys.h: float
     * rounding commutes with power-of-two scaling), so its edges, frames and
     * inputs are those of the profile scaled to 16 px, bit for bit.  Other
     * sizes would agree only up to rounding, and an edge must replay
     * exactly. */
    const float tile = prof->phys.tile_px;
    int e2;
    if (frexpf(tile, &e2) != 0.5f)
        return tn_error_set(err, bad, 0, 0,
                            "surf: tiles of %g px are not supported (the graph takes "
                            "16 px times a power of two: 4, 8, 16, 32, 64, 128 or 256, where "
                            "the physics scales exactly; the classic planner takes any "
                            "tile_px)",
                            (double)tile);
    const float k = tile / (float)TN_TILE_PX;
    *norm = *prof;
    norm->phys = tn_phys_scaled(&prof->phys, (float)TN_TILE_PX / tile);
    float step_px = norm->phys.walk_speed * norm->phys.dt;
    double per = (double)TN_TILE_PX / (double)step_px;
    int per_tile = (int)lround(per);
    if (per_tile < 1 || per_tile > 64 || fabs(per - per_tile) > 1e-3)
        return tn_error_set(err, bad, 0, 0,
                            "surf: a walk step of %g px does not divide a %g px tile "
                            "into 1..64 equal steps",
                            (double)(k * step_px), (double)tile);
    st = probe_step(norm, step_px, k, err);
    if (tn_failed(st)) return st;
    *per_tile_out = per_tile;
    *step_out = step_px;
    return TN_OK;
}

/* g's profile: the caller's (user) and the same at 16 px (norm, from
 * profile_check), which the graph is built with. */
static void set_profile(tn_surf *g, const tn_surf_profile *user, const tn_surf_profile *norm,
                        int per_tile, float step_px)
{
    const tn_surf_profile *prof = norm;
    g->prof = *norm;
    g->uprof = *user;
    g->pxk = user->phys.tile_px / (float)TN_TILE_PX;
    g->per_tile = per_tile;
    g->step_px = step_px;
    g->vmax = tn_maxf(prof->phys.max_fall, tn_phys_jump_speed(&prof->phys)) * prof->phys.dt + 0.01f;
    keep_init(g);
}

/* The first of map, profile and output pointer that is NULL, named (the
 * output pointer when m and prof are not): "surf: no map (m is NULL)". */
static tn_status no_argument(const tn_map *m, const tn_surf_profile *prof, const char *what_for,
                             tn_error *err)
{
    const char *what = !m ? "map" : !prof ? "profile" : "output pointer";
    return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "surf: no %s%s (%s is NULL)",
                        what, what_for,
                        !m      ? "m"
                        : !prof ? "prof"
                                : "out");
}

/* tn_surf_create, or tn_surf_load with the saved graph L */
static tn_status create_graph(const tn_map *m, const tn_surf_profile *prof, const tn_allocator *a,
                              const surf_blob *L, tn_surf **out, tn_error *err)
{
    if (out) *out = NULL;
    if (!m || !prof || !out) return no_argument(m, prof, "", err);
    int per_tile;
    float step_px;
    tn_surf_profile norm;
    tn_status st = profile_check(prof, &norm, &per_tile, &step_px, err);
    if (tn_failed(st)) return st;
    tn_surf *g = tn_alloc(a, sizeof *g);
    struct surf_pool *P = tn_alloc(a, sizeof *P);
    if (!g || !P) {
        tn_free(a, g);
        tn_free(a, P);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "surf: out of memory");
    }
    if (a) P->user = *a;
    atomic_flag_clear(&P->lock);
    atomic_init(&P->held, 0);
    g->pool = P;
    g->alloc = (tn_allocator){pool_alloc, pool_free, P};
    set_profile(g, prof, &norm, per_tile, step_px);
    g->blob = L;
    if (L) g->lm_want = L->lm_want; /* the saved graph's setting */
    st = do_build(g, m, err);
    g->blob = NULL;
    if (tn_failed(st)) {
        tn_surf_destroy(g);
        return st;
    }
    *out = g;
    return st; /* TN_OK, or a partial success (index_said) */
}

tn_status tn_surf_create(const tn_map *m, const tn_surf_profile *prof, const tn_allocator *a,
                         tn_surf **out, tn_error *err)
{
    return create_graph(m, prof, a, NULL, out, err);
}

tn_status tn_surf_load(const tn_map *m, const tn_surf_profile *prof, const void *data, size_t size,
                       const char *name, const tn_allocator *a, tn_surf **out, tn_error *err)
{
    if (out) *out = NULL;
    if (!m || !prof || !out) return no_argument(m, prof, " to load with", err);
    if (!data && size)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no data to load (data is NULL, size %zu)", size);
    int per_tile;
    float step_px;
    tn_surf_profile norm;
    tn_status st = profile_check(prof, &norm, &per_tile, &step_px, err);
    if (tn_failed(st)) return st;
    surf_blob L;
    st = tn_surfi_blob_open(&L, data, size, name, m, prof, err);
    if (tn_failed(st)) return st;
    return create_graph(m, prof, a, &L, out, err);
}

tn_status tn_surf_rebuild(tn_surf *g, const tn_map *m, const tn_surf_profile *prof, tn_error *err)
{
    if (!g || !m || !prof)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "surf: no %s (%s is NULL)",
                            !g   ? "graph to rebuild"
                            : !m ? "map to rebuild for"
                                 : "profile to rebuild for",
                            !g   ? "g"
                            : !m ? "m"
                                 : "prof");
    int per_tile;
    float step_px;
    tn_surf_profile norm;
    tn_status st = profile_check(prof, &norm, &per_tile, &step_px, err);
    if (tn_failed(st)) return st;
    set_profile(g, prof, &norm, per_tile, step_px);
    return do_build(g, m, err);
}

void tn_surf_destroy(tn_surf *g)
{
    if (!g) return;
    struct surf_pool *P = g->pool;
    tn_allocator a = P->user;
    free_graph_arrays(g);
    keep_release(g);
    pool_trim(P, true);
    tn_free(&a, P);
    tn_free(&a, g);
}

static int size_desc(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The blocks a repair makes anew while it still holds the old ones
 * (repair_local's node arrays, the query index's records and arcs), the
 * sizes of g's: those of 256 KB or more into want (at most max).  The
 * arrays a repair keeps or grows in place (edges, runs, footprints, row
 * masks, terrain, landing records with room, landmark tables, search
 * states, the searches' scratch) and those the query index frees before
 * it makes them again (their blocks are taken back at once) are not
 * listed. */
static int repair_sizes(const tn_surf *g, size_t *want, int max)
{
    const void *arr[] = {g->surf,       g->row_first, g->node_surf, g->sbox,     g->smaxto,
                         g->edge_first, g->qs.gcost,  g->qs.parent, g->qs.pedge, g->qs.heap,
                         g->qs.hpos,    g->qs.order,  g->qs.tmp,    g->qs.stamp, g->qto,
                         g->qefirst,    g->qfirst,    g->qedge,     g->ifirst,   g->ifrom,
                         g->ifr};
    int n = 0;
    for (size_t i = 0; i < sizeof arr / sizeof *arr && n < max; i++) {
        if (!arr[i]) continue;
        const size_t size = ((const pool_hdr *)arr[i] - 1)->size;
        if (size >= POOL_MIN) want[n++] = size;
    }
    /* the repair's scratch of about one int32 per node (the query index's
     * arcs and landmark tables' update, alive with the new node arrays):
     * blocks the size of a node array.  Measured over 12 repairs at 512x512
     * and 1024x1024: with 8 the first repair asks the caller for 1-2 big
     * blocks (0.3-1.7 MB), without them 9 (4.3 MB at 512) */
    const size_t node = g->node_surf ? ((const pool_hdr *)g->node_surf - 1)->size : 0;
    for (int k = 0; k < PREP_SCRATCH && n < max && node >= POOL_MIN; k++) want[n++] = node;
    return n;
}

/* tn_surf_prepare_repairs touches a new block's pages this many bytes at a
 * time and asks profile.cancel between the pieces (well under a ms
 * each). */
#define PREP_PIECE ((size_t)1 << 20)

static bool prep_cancelled(const tn_surf *g)
{
    return g->prof.cancel && g->prof.cancel(g->prof.cancel_user);
}

/* tn_surf_prepare_repairs gave up: the blocks it made (the pool's last nm,
 * nothing else runs on the graph meanwhile) returned, the pool as it was. */
static void prep_undo(struct surf_pool *P, pool_hdr *const *made, int nm)
{
    for (int k = 0; k < nm; k++) {
        pool_lock(P);
        P->n--;
        P->bytes -= made[k]->size;
        pool_unlock(P);
        atomic_fetch_sub_explicit(&P->held, sizeof(pool_hdr) + made[k]->size, memory_order_relaxed);
        tn_free(&P->user, made[k]);
    }
}

tn_status tn_surf_prepare_repairs(tn_surf *g, tn_error *err)
{
    if (!g)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no graph to prepare repairs for (NULL)");
    struct surf_pool *P = g->pool;
    size_t want[POOL_PREP];
    const int nw = repair_sizes(g, want, POOL_PREP);
    qsort(want, (size_t)nw, sizeof *want, size_desc);
    /* each size, largest first: a kept block that fits it (as pool_alloc
     * would take it), else a new one, its pages touched */
    bool used[POOL_SLOTS] = {0};
    pool_hdr *made[POOL_PREP];
    int nm = 0, taken = 0;
    for (int i = 0; i < nw && taken < POOL_PREP; i++) {
        const size_t size = want[i];
        int best = -1;
        for (int k = 0; k < P->n; k++) {
            const size_t s = P->b[k].h->size;
            if (!used[k] && s >= size && s / 2 <= size && (best < 0 || s < P->b[best].h->size))
                best = k;
        }
        if (best >= 0) {
            used[best] = true;
            taken++;
            continue;
        }
        if (P->n >= POOL_SLOTS) break;
        if (prep_cancelled(g)) goto cancelled;
        pool_hdr *h = P->user.alloc ? P->user.alloc(P->user.user, sizeof *h + size)
                                    : malloc(sizeof *h + size);
        if (!h) {
            prep_undo(P, made, nm);
            return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                                "surf: out of memory preparing repairs (the graph "
                                "unchanged, the first repair as dear as before)");
        }
        h->size = size;
        h->pad = 0;
        /* the pages faulted in now, not in the repair; a stop asked between
         * two pieces is not kept waiting for the rest (the world's quit) */
        for (size_t off = 0; off < size; off += PREP_PIECE) {
            if (off && prep_cancelled(g)) {
                tn_free(&P->user, h);
                goto cancelled;
            }
            memset((unsigned char *)(h + 1) + off, 0,
                   size - off < PREP_PIECE ? size - off : PREP_PIECE);
        }
        atomic_fetch_add_explicit(&P->held, sizeof *h + size, memory_order_relaxed);
        pool_lock(P);
        used[P->n] = true;
        P->b[P->n].h = h;
        P->b[P->n++].gen = P->gen - 1u; /* as the last repair's: the next one's end returns it */
        P->bytes += size;
        pool_unlock(P);
        made[nm++] = h;
        taken++;
    }
    tn_error_clear(err);
    return TN_OK;
cancelled:
    prep_undo(P, made, nm);
    return tn_error_set(err, TN_FAILURE | TN_CANCELLED, 0, 0,
                        "surf: prepare repairs cancelled (the graph unchanged, the "
                        "first repair as dear as before)");
}

static bool repair_local(tn_surf *g, const tn_map *m, const size_t *at, int n, int sure, bool *oom);

/* The changed tiles at[0..n) (map indices) repaired by one local repair,
 * or by a rebuild when it cannot be local (see sync_local_max: beyond
 * `sure` tiles, when the repair would run again the searches of more than
 * half the surfaces). */
static tn_status edit_at(tn_surf *g, const tn_map *m, const size_t *at, int n, int sure,
                         tn_error *err)
{
    bool oom = false;
    g->pool->on = true;
    const bool local = repair_local(g, m, at, n, sure, &oom);
    g->pool->on = false;
    if (local) {
        pool_trim(g->pool, false);
        return index_said(g, TN_OK, err);
    }
    g->repairs_full++;
    return do_build(g, m, err);
}

/* How many changed tiles a sync surely repairs locally rather than by a
 * rebuild: surfaces / 16, at least 2, at most SYNC_LOCAL_MAX (the header's
 * EDITS).  A repair runs the searches of the surfaces whose footprints hold
 * a changed tile, a share of the graph that shrinks as levels grow:
 * measured break-even against a rebuild (1x2, jump 4) about 6 tiles on
 * the demo map (56 surfaces), 14 on a 128x128 level (255), 35 on a 256x256
 * one (828), when each tile was a repair of its own (until 2026-12-05).
 * One repair for them all costs less (docs/perf.md), so up to
 * SYNC_TILES_MAX changed tiles are repaired locally too when the searches
 * to run again are those of at most half the surfaces (more, and a
 * rebuild, which runs them all, costs about as much). */
#define SYNC_LOCAL_MAX 32
#define SYNC_TILES_MAX 256
static int sync_local_max(const tn_surf *g) { return tn_clampi(g->nsurf / 16, 2, SYNC_LOCAL_MAX); }

/* Repair g to m's tiles as they are (its revision not consulted).  The
 * graph's own copy of the terrain is compared, so m may be another map
 * object of the same size (a copy the graph was built on elsewhere, say on
 * another thread): a few changed tiles are still repaired locally. */
static tn_status sync_tiles(tn_surf *g, const tn_map *m, tn_error *err)
{
    if (g->map && g->mw == m->w && g->mh == m->h && g->tiles) {
        g->map = m; /* (a local repair's check: the copy is what it compares) */
        /* which tiles changed since the build: a few -> one local repair
         * (see SYNC_LOCAL_MAX) */
        size_t at[SYNC_TILES_MAX + 1];
        int changed = 0;
        const size_t n = (size_t)m->w * (size_t)m->h, chunk = 4096;
        for (size_t c = 0; c < n && changed <= SYNC_TILES_MAX; c += chunk) {
            const size_t e = c + chunk < n ? c + chunk : n;
            if (!memcmp(g->tiles + c, m->tile + c, e - c)) continue; /* skips the same */
            for (size_t i = c; i < e && changed <= SYNC_TILES_MAX; i++)
                if (g->tiles[i] != m->tile[i]) at[changed++] = i;
        }
        if (changed == 0) {
            g->rev = m->revision; /* content marks only: the graph is unchanged */
            return TN_OK;
        }
        if (changed <= SYNC_TILES_MAX) return edit_at(g, m, at, changed, sync_local_max(g), err);
    }
    g->repairs_full++;
    return do_build(g, m, err);
}

uint32_t tn_surf_map_revision(const tn_surf *g) { return g ? g->rev : 0; }

bool tn_surf_in_sync(const tn_surf *g, const tn_map *m)
{
    return g && m && g->map == m && g->rev == m->revision && g->mw == m->w && g->mh == m->h;
}

tn_status tn_surf_sync(tn_surf *g, const tn_map *m, tn_error *err)
{
    tn_error_clear(err);
    if (!g || !m)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no %s to sync (%s is NULL)", !g ? "graph" : "map",
                            !g ? "g" : "m");
    if (tn_surf_in_sync(g, m)) return TN_OK;
    return sync_tiles(g, m, err);
}

/* B's scratch and slot k's trade places (the vectors keep B's element
 * sizes and come back empty). */
static void keep_swap(build *B, surf_keep *k)
{
    vec *kv[KEEP_VECS];
    keep_vecs(k, kv);
    vec *bv[KEEP_VECS] = {&B->ent,   &B->pred,    &B->bits,     &B->plans,   &B->pend,
                          &B->pbits, &B->js_free, &B->js_block, &B->touched, &B->seq,
                          &B->bpath, &B->mmask,   &B->mwork};
    for (int i = 0; i < KEEP_VECS; i++) {
        vec t = *bv[i];
        bv[i]->p = kv[i]->p, bv[i]->cap = kv[i]->cap, bv[i]->n = 0;
        *kv[i] = t, kv[i]->n = 0;
    }
    surf_keep t = *k; /* the tables and their generations */
    k->memo = B->memo, k->mcap = B->mcap, k->mgen = B->mgen;
    k->hash = B->hash, k->hstamp = B->hstamp, k->hcap = B->hcap, k->hgen = B->hgen;
    k->phead = B->phead, k->pstamp = B->pstamp, k->pgen = B->pgen;
    B->memo = t.memo, B->mcap = t.mcap, B->mgen = t.mgen;
    B->hash = t.hash, B->hstamp = t.hstamp, B->hcap = t.hcap, B->hgen = t.hgen;
    B->phead = t.phead, B->pstamp = t.pstamp, B->pgen = t.pgen;
}

/* B takes slot `slot` of the graph's kept scratch (if it has one). */
static void keep_take(build *B, tn_surf *g, int slot)
{
    B->keep_slot = g->keep && slot < g->nkeep ? slot : -1;
    if (B->keep_slot >= 0) keep_swap(B, &g->keep[slot]);
}

/* B's scratch back to its slot (build_release then frees the rest). */
static void keep_give(build *B)
{
    if (B->keep_slot < 0 || !B->g->keep || B->keep_slot >= B->g->nkeep) return;
    surf_keep *k = &B->g->keep[B->keep_slot];
    surf_keep_free(k, B->a); /* (empty unless two builds shared the slot) */
    keep_swap(B, k);
}

static void build_setup(build *B, tn_surf *g, const tn_map *m, int slot)
{
    memset(B, 0, sizeof *B);
    B->g = g;
    B->m = m;
    B->a = &g->alloc;
    B->surf.elem = sizeof(tn_surf_surface);
    B->edges.elem = sizeof(tn_surf_edge);
    B->runs.elem = sizeof(uint16_t);
    B->ent.elem = sizeof(dp_entry);
    B->pred.elem = sizeof(dp_pred);
    B->plans.elem = sizeof(vplan);
    B->pend.elem = sizeof(ff_pend);
    B->pbits.elem = sizeof(uint64_t);
    B->last_land = -1;
    B->bits.elem = sizeof(uint64_t);
    B->js_free.elem = sizeof(uint64_t);
    B->js_block.elem = sizeof(int32_t);
    B->touched.elem = sizeof(int32_t);
    B->seq.elem = sizeof(uint16_t); /* (not bytes: a byte store may alias anything) */
    B->bpath.elem = sizeof(bt_step);
    B->mmask.elem = sizeof(uint64_t);
    B->foots.elem = sizeof(tn_surf_foot);
    B->fbits.elem = sizeof(uint64_t);
    B->mwork.elem = sizeof(uint64_t);
    keep_take(B, g, slot);
    B->flast[0] = -1;
}

static void build_release(build *B)
{
    const tn_allocator *a = B->a;
    keep_give(B);
    vec_free(&B->surf, a);
    vec_free(&B->edges, a);
    vec_free(&B->runs, a);
    vec_free(&B->ent, a);
    vec_free(&B->pred, a);
    vec_free(&B->plans, a);
    vec_free(&B->pend, a);
    vec_free(&B->pbits, a);
    tn_free(a, B->phead);
    tn_free(a, B->pstamp);
    vec_free(&B->bits, a);
    vec_free(&B->js_free, a);
    vec_free(&B->js_block, a);
    vec_free(&B->touched, a);
    vec_free(&B->seq, a);
    vec_free(&B->bpath, a);
    vec_free(&B->mmask, a);
    tn_free(a, B->memo);
    tn_free(a, B->fspan);
    tn_free(a, B->ldone);
    tn_free(a, B->lstamp);
    vec_free(&B->foots, a);
    vec_free(&B->fbits, a);
    tn_map_destroy(B->vmap);
    vec_free(&B->mwork, a);
    /* (B->lm and B->lm_ready are the graph's) */
    tn_free(a, B->kjl);
    tn_free(a, B->kjh);
    tn_free(a, B->colpre);
    tn_free(a, B->sat);
    tn_free(a, B->colbad);
    tn_free(a, B->hash);
    tn_free(a, B->hstamp);
    tn_free(a, B->best);
}

/* The search (SEARCH_ bit) that made edge e: its kind, and for a walk-off
 * its side (its first input walks off left or right). */
static int edge_search(const uint16_t *runs, const tn_surf_edge *e)
{
    if (e->kind == TN_SURF_JUMP) return SEARCH_JUMP;
    if (e->kind == TN_SURF_DROP) return SEARCH_DROP;
    return (runs[e->run0] & TN_SURF_IN_LEFT) ? SEARCH_OFF_LEFT : SEARCH_OFF_RIGHT;
}

/* Edges e[0..n) renumbered: from moved by shift, to by rn (*mx: the
 * largest to), up to the first whose landing node has no new id (its
 * index returned; n when none).  Through locals: a store to an edge
 * could alias rn, which was read again on every edge. */
static size_t edges_renumber(tn_surf_edge *e, size_t n, const renum *rn, int shift, int *mx)
{
    const int ra = rn->a, rb = rn->b, delta = rn->delta;
    const unsigned span = (unsigned)(rb - ra);
    const int32_t *mid = rn->mid;
    int m = *mx;
    size_t c = 0;
    for (; c < n; c++) {
        const int o = e[c].to;
        int to = o + (o >= rb ? delta : 0);
        if ((unsigned)(o - ra) < span && (to = mid[o - ra]) < 0) break;
        e[c].from += shift;
        e[c].to = to;
        m = to > m ? to : m;
    }
    *mx = m;
    return c;
}

/* Whether the standing of surface row `row` depends on a tile of row y
 * (the tile's row to h rows below; rows under h hold no surface). */
static bool row_decided(const tn_surf *g, int row, int y)
{
    return row >= tn_maxi(y, g->prof.h) && row <= tn_mini(y + g->prof.h, g->mh);
}

/* Local repair of the changed tiles at[0..nat) (map indices, distinct).
 * The surfaces of the rows whose standing a changed tile decides (its row
 * to h rows below) are recomputed; the others keep their nodes
 * (renumbered).  Regenerated: the searches of new or changed surfaces and
 * of those standing next to a changed tile (all of them), and the
 * searches whose footprints hold a changed tile; every other search keeps
 * its edges and input runs (landing nodes remapped by position).  The
 * passes over the graph (renumbering, the edge array, the query index)
 * are made once for all the tiles, and a search that reads several of
 * them runs once.  False (with *oom when memory ran out) when a full
 * rebuild is needed: also, past `sure` tiles, when the searches of more
 * than half the surfaces would run again. */
static bool repair_local(tn_surf *g, const tn_map *m, const size_t *at, int nat, int sure,
                         bool *oom)
{
    const tn_allocator *a = &g->alloc;
    *oom = false;
    if (g->map != m || g->mw != m->w || g->mh != m->h || !g->sbox || nat < 1) return false;
    /* the changed tiles' rows and bounds: the rows they decide lie in
     * ylo..yhi (with unchanged rows between them when they are apart) */
    int ylo = g->mh + 1, yhi = -1, bx0 = m->w, bx1 = -1, by0 = m->h, by1 = -1;
    for (int i = 0; i < nat; i++) {
        const int x = (int)(at[i] % (size_t)m->w), y = (int)(at[i] / (size_t)m->w);
        ylo = tn_mini(ylo, tn_maxi(y, g->prof.h));
        yhi = tn_maxi(yhi, tn_mini(y + g->prof.h, g->mh));
        bx0 = tn_mini(bx0, x), bx1 = tn_maxi(bx1, x), by0 = tn_mini(by0, y), by1 = tn_maxi(by1, y);
    }
    /* 1. the new surface list */
    vec ns = {0};
    ns.elem = sizeof(tn_surf_surface);
    bool ok = true;
    for (int row = 0; row <= g->mh + 1 && ok; row++) {
        bool decided = false;
        for (int i = 0; i < nat && !decided && row >= ylo && row <= yhi; i++)
            decided = row_decided(g, row, (int)(at[i] / (size_t)m->w));
        if (decided) {
            ok = row_surfaces(g, m, row, &ns, a);
        } else if (row <= g->mh) {
            for (int k = g->row_first[row]; k < g->row_first[row + 1] && ok; k++) {
                tn_surf_surface *d = vec_push(&ns, a);
                ok = d != NULL;
                if (ok) *d = g->surf[k];
            }
        }
    }
    int nsurf = (int)ns.n;
    tn_surf_surface *nsf = ns.p;
    int nn = 0;
    for (int i = 0; i < nsurf && ok; i++) {
        nsf[i].node0 = nn;
        nn += nsf[i].j1 - nsf[i].j0 + 1;
    }
    /* 2. new arrays; old -> new surface map */
    size_t nn1 = (size_t)nn + 1;
    int32_t *row_first = tn_alloc_array(a, (size_t)g->mh + 2, sizeof(int32_t));
    int32_t *node_surf = tn_alloc_array(a, nn1, sizeof(int32_t));
    int16_t *sbox = tn_alloc_array(a, (size_t)nsurf * 4 + 4, sizeof(int16_t));
    int32_t *old_to_new = tn_alloc_array(a, (size_t)g->nsurf + 1, sizeof(int32_t));
    uint8_t *aff = tn_alloc(a, (size_t)nsurf + 1);
    uint8_t *redo = tn_alloc(a, (size_t)nsurf + 1); /* see lm_delta */
    int32_t *q[8];
    for (int k = 0; k < 8; k++) q[k] = alloc_unzeroed(a, nn1, sizeof(int32_t)); /* see stamp */
    uint32_t *stamp = tn_alloc_array(a, nn1, sizeof(uint32_t));
    ok = ok && row_first && node_surf && sbox && old_to_new && aff && redo && stamp;
    for (int k = 0; k < 8; k++) ok = ok && q[k];
    if (ok) {
        int k = 0;
        for (int r = 0; r <= g->mh + 1; r++) {
            while (k < nsurf && nsf[k].row < r) k++;
            row_first[r] = k;
        }
        for (int i = 0; i < nsurf; i++)
            for (int n = 0; n <= nsf[i].j1 - nsf[i].j0; n++) node_surf[nsf[i].node0 + n] = i;
        /* match old surfaces to new ones (same row and range) */
        int j = 0;
        for (int i = 0; i < g->nsurf; i++) {
            const tn_surf_surface *o = &g->surf[i];
            old_to_new[i] = -1;
            while (j < nsurf &&
                   (nsf[j].row < o->row || (nsf[j].row == o->row && nsf[j].j0 < o->j0)))
                j++;
            if (j < nsurf && nsf[j].row == o->row && nsf[j].j0 == o->j0 && nsf[j].j1 == o->j1)
                old_to_new[i] = j;
        }
        /* aff: the searches (SEARCH_ bits) to run again per new surface:
         * all of them for a new or changed surface or one standing next
         * to a changed tile, else those whose footprints hold one */
        for (int i = 0; i < nsurf; i++) {
            aff[i] = SEARCH_ALL; /* new or changed unless matched below */
            sbox[4 * i] = sbox[4 * i + 1] = 32000;
            sbox[4 * i + 2] = sbox[4 * i + 3] = -32000;
        }
        for (int i = 0; i < g->nsurf; i++) {
            int t = old_to_new[i];
            if (t < 0) continue;
            /* standing next to the tile: the tile is under a node's box,
             * in it or just over it (which nodes are one-way-only, so the
             * drops, can change with the surface's extent kept) */
            int row = nsf[t].row;
            int c0 = (int)floorf(lat_x(g, nsf[t].j0) / T) - 2;
            int c1 = (int)floorf((lat_x(g, nsf[t].j1) + (float)g->prof.w * T) / T) + 2;
            aff[t] = 0;
            for (int k = 0; k < nat && !aff[t] && row >= by0 && row <= by1 + g->prof.h + 1; k++) {
                const int x = (int)(at[k] % (size_t)m->w), y = (int)(at[k] / (size_t)m->w);
                if (row >= y && row <= y + g->prof.h + 1 && x >= c0 && x <= c1) aff[t] = SEARCH_ALL;
            }
            /* the explored box: a bound, kept while some search is kept */
            if (aff[t] != SEARCH_ALL) memcpy(&sbox[4 * t], &g->sbox[4 * i], 4 * sizeof(int16_t));
        }
    }
    /* past the tiles surely repaired locally: a rebuild when the searches
     * to run again are those of more than half the surfaces (counted as
     * they are found: a pile of scattered tiles stops early) */
    int nhit = 0; /* surfaces with searches to run again */
    for (int i = 0; i < nsurf && ok; i++) nhit += aff[i] != 0;
    bool dear = nat > sure && nhit > nsurf / 2;
    for (int k = 0; k < g->nfoot && ok && !dear; k++) {
        const tn_surf_foot *rc = &g->foot[k];
        int t = old_to_new[rc->surf];
        if (t < 0 || (aff[t] & rc->search) == rc->search || rc->x0 > bx1 || rc->x1 < bx0 ||
            rc->y0 > by1 || rc->y1 < by0)
            continue;
        for (int i = 0; i < nat; i++)
            if (foot_has(g->fbits, rc, (int)(at[i] % (size_t)m->w), (int)(at[i] / (size_t)m->w))) {
                nhit += !aff[t];
                aff[t] |= rc->search;
                dear = nat > sure && nhit > nsurf / 2;
                break;
            }
    }
    if (!ok || dear) {
        vec_free(&ns, a);
        tn_free(a, row_first);
        tn_free(a, node_surf);
        tn_free(a, sbox);
        tn_free(a, old_to_new);
        tn_free(a, aff);
        tn_free(a, redo);
        for (int k = 0; k < 8; k++) tn_free(a, q[k]);
        tn_free(a, stamp);
        *oom = !ok;
        return false;
    }
    /* 3. install the new node arrays, keep the old ones for the edges */
    tn_surf old = *g;
    g->surf = nsf;
    ns.p = NULL;
    g->nsurf = nsurf;
    g->nnodes = nn;
    g->row_first = row_first;
    g->node_surf = node_surf;
    g->sbox = sbox;
    g->edge_first = q[0];
    g->qs.gcost = q[1];
    g->qs.parent = q[2];
    g->qs.pedge = q[3];
    g->qs.heap = q[4];
    g->qs.hpos = q[5];
    g->qs.order = q[6];
    g->qs.tmp = q[7];
    g->qs.stamp = stamp; /* (g->qs.gen goes on: the kept search states' stamps stay old) */
    g->qs.nexpanded = 0;
    build B;
    build_setup(&B, g, m, 0);
    vec rem = {0}; /* kept edges gone, as (from, to, frames) */
    rem.elem = 3 * sizeof(int32_t);
    int32_t *mid = NULL;    /* see renum */
    int32_t *smaxto = NULL; /* the new g->smaxto */
    renum rn = {0, 0, 0, NULL};
    int32_t *rep_surf = NULL; /* the surfaces searched again (the new g->rep_surf) */
    int nrep = 0;
    bool took = false;             /* B took over the old edge, run and footprint arrays */
    uint32_t dead = old.runs_dead; /* runs of edges gone in the pool */
    size_t fdead = old.fbits_dead; /* footprint words of searches run again */
    /* the kept landing records when they have room (their stamps go on
     * from the graph's), else new ones */
    if (g->best && g->best_cap >= nn1 && g->bstamp < UINT32_MAX - (1u << 24)) {
        B.best = g->best;
        B.bstamp = g->bstamp;
    } else {
        B.best = tn_alloc_array(a, nn1 + nn1 / 16, sizeof(best_rec));
    }
    B.edges.elem = sizeof(tn_surf_edge);
    B.runs.elem = sizeof(uint16_t);
    /* the kept sums follow the tiles (the graph's: B borrows them) */
    for (int i = 0; i < nat && g->colpre; i++) {
        const int delta = (m->tile[at[i]] != TN_TILE_EMPTY) - (g->tiles[at[i]] != TN_TILE_EMPTY);
        if (delta) sums_update(g, (int)(at[i] % (size_t)m->w), (int)(at[i] / (size_t)m->w), delta);
    }
    B.colpre = g->colpre;
    B.colbad = B.colpre ? tn_alloc(a, (size_t)m->w + 16) : NULL;
    ok = B.best && (B.colpre ? B.colbad != NULL : colpre_build(&B));
    if (ok && builtin_step(&g->prof) && !g->prof.reference_build) {
        tn_map_create(g->prof.w + 8, m->h, a, &B.vmap, NULL);
        ok = B.vmap != NULL;
        B.fast = ok;
    }
    ok = ok && masks_init(&B) && kranges_init(&B);
    if (ok && B.masks) { /* the edited rows' masks again; the others are kept */
        for (int i = 0; i < nat; i++) B.lm_ready[at[i] / (size_t)m->w + 1] = 0;
        for (int i = 0; i < nat; i++) ensure_row(&B, (int)(at[i] / (size_t)m->w));
        B.rows_all = true;
        for (int r = -1; r <= g->mh + 1 && B.rows_all; r++) B.rows_all = B.lm_ready[r + 1] != 0;
    }
    B.sat = g->sat;
    ok = ok && (!B.masks || B.sat || sat_build(&B));
    if (ok) {
        /* 4. the renumbering; B takes over the old edge, run and footprint
         * arrays (the runs stay where they are, those of edges gone are
         * dead until the pool is laid out again) */
        const int os0 = old.row_first[ylo], os1 = old.row_first[yhi + 1];
        rn.a = os0 < old.nsurf ? old.surf[os0].node0 : old.nnodes;
        rn.b = os1 < old.nsurf ? old.surf[os1].node0 : old.nnodes;
        rn.delta = (row_first[yhi + 1] < nsurf ? nsf[row_first[yhi + 1]].node0 : nn) - rn.b;
        mid = tn_alloc_array(a, (size_t)(rn.b - rn.a) + 1, sizeof(int32_t));
        rn.mid = mid;
        ok = mid != NULL;
        for (int i = os0; i < os1 && ok; i++) { /* old node -> new node, -1 gone */
            const tn_surf_surface *o = &old.surf[i];
            int t = old_to_new[i];
            for (int n = 0; n <= o->j1 - o->j0; n++)
                mid[o->node0 + n - rn.a] = t < 0 ? -1 : nsf[t].node0 + n;
        }
        if (ok) { /* B's now (see the failure path) */
            B.edges.p = old.edge, B.edges.n = 0, B.edges.cap = old.edge_cap;
            B.runs.p = old.runs, B.runs.n = 0, B.runs.cap = old.runs_cap;
            B.foots.p = old.foot, B.foots.n = 0, B.foots.cap = old.foot_cap;
            B.fbits.p = old.fbits, B.fbits.n = 0, B.fbits.cap = old.fbits_cap;
            g->edge = NULL, g->runs = NULL, g->foot = NULL, g->fbits = NULL;
            took = true;
        }
        int32_t *ef = g->edge_first; /* edges per take-off node (at n + 1), then ranges */
        memset(ef, 0, nn1 * sizeof *ef);
        /* kept searches keep their footprints: the records compacted in
         * place, the bitmaps where they are (those of the searches run
         * again are dead until the pool is laid out again); the new ones
         * come after */
        B.fbits.n = old.nfbits;
        for (int k = 0; k < old.nfoot && ok; k++) {
            tn_surf_foot *fk = (tn_surf_foot *)B.foots.p + k, *d;
            const int t = old_to_new[fk->surf];
            if (t < 0 || (aff[t] & fk->search)) {
                fdead += foot_words(fk);
                continue;
            }
            d = (tn_surf_foot *)B.foots.p + B.foots.n++;
            *d = *fk;
            d->surf = t;
        }
        /* 5. regenerate the affected surfaces: their edges go after the old
         * ones, their runs after the old runs (the dead ones too) */
        const size_t ne_old = (size_t)old.nedges;
        B.edges.n = ne_old;
        B.runs.n = old.nruns;
        const uint32_t nkruns = (uint32_t)B.runs.n;
        int naff = 0;
        int32_t *list = q[1]; /* scratch (nnodes + 1 >= nsurf): the query arrays come later */
        uint8_t *which = (uint8_t *)q[2]; /* scratch too: which searches */
        for (int i = 0; i < nsurf; i++)
            if (aff[i]) which[naff] = aff[i], list[naff++] = i, redo[i] = 1;
        /* (kept for tn_surf_last_repair: list is scratch) */
        rep_surf = alloc_unzeroed(a, (size_t)naff + 1, sizeof *rep_surf);
        ok = ok && rep_surf;
        if (ok) memcpy(rep_surf, list, (size_t)naff * sizeof *rep_surf);
        nrep = naff;
        ok = ok && run_searches(&B, list, which, naff);
#ifdef TN_SURF_DEBUG
        fprintf(stderr, "repair of %d tiles: %d of %d surfaces searched\n", nat, naff, nsurf);
#endif
        /* 6. the edge list rewritten in one pass, in place.  Per new surface,
         * in order (so by take-off node): the old surface's edges when its
         * searches did not run, else its kept edges merged with its new
         * ones.  Those are copied out first (few); then the blocks of the
         * others move to their places, renumbered: those moving up from the
         * back, then the others from the front, so that none overwrites a
         * block still to move (the places keep the blocks' order); then the
         * merged ones are written. */
        /* (the searches may have moved the edge and run arrays) */
        const tn_surf_edge *oe = B.edges.p;
        const uint16_t *oruns = B.runs.p;
        const size_t nnew = ok ? B.edges.n - ne_old : 0;
        tn_surf_edge *nw = ok ? alloc_unzeroed(a, nnew + 1, sizeof *nw) : NULL;
        int32_t *old_of = ok ? alloc_unzeroed(a, (size_t)nsurf + 1, sizeof *old_of) : NULL;
        size_t *kr = ok ? tn_alloc_array(a, 2 * (size_t)nsurf + 2, sizeof *kr) : NULL;
        size_t *ostart = ok ? alloc_unzeroed(a, (size_t)nsurf + 1, sizeof *ostart) : NULL;
        size_t *pos = ok ? alloc_unzeroed(a, nnew + 1, sizeof *pos) : NULL;
        smaxto = ok ? alloc_unzeroed(a, (size_t)nsurf + 1, sizeof *smaxto) : NULL;
        vec kept = {0}; /* the kept edges of surfaces whose searches ran */
        kept.elem = sizeof(tn_surf_edge);
        ok = ok && nw && old_of && kr && ostart && pos && smaxto && old.smaxto;
        if (ok) {
            memcpy(nw, (tn_surf_edge *)B.edges.p + ne_old, nnew * sizeof *nw);
            for (size_t k = 0; k < nnew; k++) nw[k].flags = EF_NEW; /* (its surface is in redo) */
            qsort(nw, nnew, sizeof *nw, cmp_edge_from);
            B.edges.n = ne_old;
            for (int t = 0; t < nsurf; t++) old_of[t] = -1;
            for (int os = 0; os < old.nsurf; os++)
                if (old_to_new[os] >= 0) old_of[old_to_new[os]] = os;
        }
        /* 6a. kept edges of the surfaces whose searches ran, renumbered (kr:
         * per new surface its range in `kept`); edges gone listed for the
         * landmark tables */
        for (int os = 0; os < old.nsurf && ok; os++) {
            const tn_surf_surface *o = &old.surf[os];
            const int t = old_to_new[os], af = t < 0 ? SEARCH_ALL : aff[t];
            if (!af) continue;
            const int shift = t < 0 ? 0 : nsf[t].node0 - o->node0;
            if (t >= 0) kr[2 * t] = kept.n;
            const int e1 = old.edge_first[o->node0 + (o->j1 - o->j0) + 1];
            for (int e = old.edge_first[o->node0]; e < e1 && ok; e++) {
                const tn_surf_edge *E = &oe[e];
                bool gone = af == SEARCH_ALL || (af & edge_search(oruns, E));
                int to = gone ? -1 : renum_of(&rn, E->to);
                if (!gone && to < 0) { /* landing on a changed surface: the node there now */
                    const tn_surf_surface *ts = &old.surf[old.node_surf[E->to]];
                    to = tn_surf_node_at(g, ts->row, ts->j0 + (E->to - ts->node0));
                    gone = to < 0; /* cannot happen: its search would have been affected */
                }
                if (gone) {
                    dead += E->nruns;
                    if (old.nlm && !(E->flags & TN_SURF_EDGE_DOMINATED)) {
                        int32_t *r = vec_push(&rem, a);
                        ok = r != NULL;
                        if (ok) r[0] = E->from, r[1] = E->to, r[2] = E->frames;
                    }
                    continue;
                }
                tn_surf_edge *d = vec_push(&kept, a);
                ok = d != NULL;
                if (!ok) break;
                memcpy(d, E, sizeof *d); /* the padding too */
                d->from += shift;
                d->to = to;
                ef[d->from + 1]++;
            }
            if (t >= 0) kr[2 * t + 1] = kept.n;
        }
        /* 6b. the places: an untouched surface's edges are its old ones */
        size_t total = 0, k = 0;
        for (int t = 0; t < nsurf && ok; t++) {
            const tn_surf_surface *S = &nsf[t];
            const int last = S->node0 + (S->j1 - S->j0);
            ostart[t] = total;
            if (!aff[t]) {
                const tn_surf_surface *o = &old.surf[old_of[t]];
                total += (size_t)(old.edge_first[o->node0 + (o->j1 - o->j0) + 1] -
                                  old.edge_first[o->node0]);
                continue;
            }
            total += kr[2 * t + 1] - kr[2 * t];
            for (; k < nnew && nw[k].from <= last; k++) {
                ef[nw[k].from + 1]++;
                total++;
            }
        }
        ok = ok && k == nnew && vec_reserve(&B.edges, a, total + 1);
        tn_surf_edge *ke = B.edges.p;
        /* 6c. the untouched surfaces' blocks, moved and renumbered: up from
         * the back, then down from the front */
        for (int pass = 0; pass < 2 && ok; pass++)
            for (int i = 0; i < nsurf && ok; i++) {
                const int t = pass ? i : nsurf - 1 - i;
                if (aff[t]) continue;
                const tn_surf_surface *o = &old.surf[old_of[t]];
                const int n0 = o->node0, nl = o->j1 - o->j0, shift = nsf[t].node0 - n0;
                const size_t in0 = (size_t)old.edge_first[n0];
                const size_t len = (size_t)old.edge_first[n0 + nl + 1] - in0, out0 = ostart[t];
                if ((out0 > in0) != (pass == 0)) continue;
                for (int n = 0; n <= nl; n++)
                    ef[nsf[t].node0 + n + 1] = old.edge_first[n0 + n + 1] - old.edge_first[n0 + n];
                /* a block that stays where it is, landing only above the
                 * edited rows' nodes, is already right (most of those above
                 * the edit): not read at all */
                int32_t mx = old.smaxto[old_of[t]];
                if (out0 == in0 && shift == 0 && mx < rn.a) {
                    smaxto[t] = mx;
                    continue;
                }
                mx = -1;
                /* the block moved whole (memmove: it may overlap its old
                 * place), then renumbered where it is now */
                if (out0 != in0) memmove(&ke[out0], &ke[in0], len * sizeof *ke);
                for (size_t c = 0; ok;) {
                    c += edges_renumber(&ke[out0 + c], len - c, &rn, shift, &mx);
                    if (c == len) break;
                    /* landing on a changed surface: the node there now */
                    tn_surf_edge *d = &ke[out0 + c++];
                    const tn_surf_surface *ts = &old.surf[old.node_surf[d->to]];
                    const int to = tn_surf_node_at(g, ts->row, ts->j0 + (d->to - ts->node0));
                    redo[t] = 1;  /* its landing surface changed: group again */
                    ok = to >= 0; /* cannot happen: its search would have run */
                    d->from += shift;
                    d->to = to;
                    if (to > mx) mx = to;
                }
                smaxto[t] = mx;
            }
        /* 6d. the surfaces whose searches ran: kept and new edges merged */
        k = 0;
        size_t np = 0;
        for (int t = 0; t < nsurf && ok; t++) {
            if (!aff[t]) continue;
            const int last = nsf[t].node0 + (nsf[t].j1 - nsf[t].j0);
            const tn_surf_edge *ks = kept.p;
            size_t d = ostart[t], i = kr[2 * t];
            const size_t i1 = kr[2 * t + 1];
            int32_t mx = -1;
            for (;;) {
                const bool hn = k < nnew && nw[k].from <= last;
                if (i >= i1 && !hn) break;
                if (hn && (i >= i1 || cmp_edge_from(&nw[k], &ks[i]) < 0)) {
                    pos[np++] = d;
                    ke[d++] = nw[k++];
                } else {
                    ke[d++] = ks[i++];
                }
                if (ke[d - 1].to > mx) mx = ke[d - 1].to;
            }
            smaxto[t] = mx;
        }
        B.edges.n = total;
        ok = ok && runs_append_in_edge_order(B.edges.p, pos, nnew, &B.runs, nkruns, a);
        tn_free(a, nw);
        tn_free(a, old_of);
        tn_free(a, kr);
        tn_free(a, ostart);
        tn_free(a, pos);
        vec_free(&kept, a);
        /* the pool compacted in place when a fifth of it is dead, or when
         * its room runs low and a sixty-fourth is dead; it grows (by a
         * quarter, runs_room) only when the live runs need the room */
        const size_t rn_ = B.runs.n, low = rn_ + rn_ / 16 + 64;
        if (ok && ((uint64_t)dead * 5 > (uint64_t)rn_ ||
                   (B.runs.cap < low && (uint64_t)dead * 64 > (uint64_t)rn_))) {
            ok = runs_compact(B.edges.p, B.edges.n, &B.runs, a);
            dead = 0;
        }
        /* the footprints' at an eighth dead, or when the pool nears its
         * room (a relayout leaves room for a quarter more: a repair adds
         * about 1% at 1024x1024) */
        if (ok && (fdead * 8 > B.fbits.n || B.fbits.n + B.fbits.n / 32 + 64 > B.fbits.cap)) {
            ok = fbits_relayout(&B.fbits, B.foots.p, B.foots.n, a);
            fdead = 0;
        }
        ok = ok && vec_slack(&B.edges, a) && runs_room(&B.runs, a) && vec_slack(&B.foots, a);
    }
    if (ok) {
        g->smaxto = smaxto;
        smaxto = NULL;
        if (B.best != g->best) { /* new landing records: the graph's now */
            tn_free(a, g->best);
            g->best = B.best;
            g->best_cap = nn1 + nn1 / 16;
        }
        g->nedges = (int)B.edges.n;
        g->edge = B.edges.p;
        g->edge_cap = B.edges.cap;
        g->nruns = (uint32_t)B.runs.n;
        g->runs_dead = dead;
        g->runs = B.runs.p;
        g->runs_cap = B.runs.cap;
        B.edges.p = NULL;
        B.runs.p = NULL;
        g->nfoot = (int)B.foots.n;
        g->foot = B.foots.p;
        g->foot_cap = B.foots.cap;
        g->nfbits = B.fbits.n;
        g->fbits_dead = fdead;
        g->fbits = B.fbits.p;
        g->fbits_cap = B.fbits.cap;
        B.foots.p = B.fbits.p = NULL;
        for (int n = 0; n < g->nnodes; n++) g->edge_first[n + 1] += g->edge_first[n];
        lm_delta d = {0};
        d.redo = old.flags_ok ? redo : NULL; /* else all again */
        if (mid && old.flags_ok) {
            d.new_of_old = &rn;
            d.old_nn = old.nnodes;
            d.old_surf = old.surf;
            d.old_ns = old.nsurf;
            d.old_efirst = old.edge_first;
            d.surf_of_old = old_to_new;
        }
        if (old.nlm && mid && old.flags_ok) {
            d.old_lm = old.lm;
            d.old_cap = old.lm_cap;
            d.old_nlm = old.nlm;
            d.rem = rem.p, d.nrem = rem.n;
        }
        query_index_build(g, &d);
        g->rev = m->revision;
        g->generation++;
        g->repairs_local += nat;
        for (int i = 0; i < nat; i++) g->tiles[at[i]] = m->tile[at[i]];
        tn_free(a, g->rep_surf);
        g->rep_surf = rep_surf;
        g->nrep_surf = nrep;
        g->nrep_tiles = nat;
        rep_surf = NULL;
        /* the old arrays go */
        tn_free(a, old.surf);
        tn_free(a, old.row_first);
        tn_free(a, old.node_surf);
        tn_free(a, old.sbox);
        tn_free(a, old.smaxto);
        tn_free(a, old.edge_first);
        query_state_free_nodes(a, &old.qs); /* (old.edge, runs, foot and fbits were reused) */
    } else {
        /* put the old graph back whole; the caller rebuilds */
        tn_free(a, g->surf);
        tn_free(a, g->row_first);
        tn_free(a, g->node_surf);
        tn_free(a, g->sbox);
        tn_free(a, g->edge_first);
        query_state_free_nodes(a, &g->qs);
        uint64_t *masks = g->masks; /* the graph's, whichever made them */
        uint8_t *masks_ready = g->masks_ready;
        const uint32_t index_rev = g->index_rev;
        *g = old;
        g->index_rev = index_rev + 1; /* (a sliced query under way ends) */
        g->masks = masks, g->masks_ready = masks_ready;
        if (took) { /* compacted in place: B frees them */
            g->edge = NULL, g->runs = NULL, g->foot = NULL, g->fbits = NULL;
            g->nedges = 0, g->nruns = g->runs_dead = 0, g->nfoot = 0, g->nfbits = 0;
            g->fbits_dead = 0;
            g->edge_cap = g->runs_cap = g->foot_cap = g->fbits_cap = 0;
        }
        *oom = true;
    }
    tn_free(a, old_to_new);
    tn_free(a, aff);
    tn_free(a, redo);
    tn_free(a, mid);
    tn_free(a, smaxto); /* (unless installed) */
    tn_free(a, rep_surf);
    vec_free(&rem, a);
    if (B.colpre == g->colpre) B.colpre = NULL; /* the graph's */
    if (B.sat == g->sat) B.sat = NULL;
    if (B.best == g->best) { /* the graph's (or new and handed over), stamps gone on */
        g->bstamp = B.bstamp;
        B.best = NULL;
    }
    build_release(&B);
    return ok;
}

tn_status tn_surf_edit(tn_surf *g, const tn_map *m, int x, int y, tn_error *err)
{
    tn_error_clear(err);
    if (!g || !m)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no %s to edit (%s is NULL)", !g ? "graph" : "map",
                            !g ? "g" : "m");
    if (!tn_map_inside(m, x, y))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: tile (%d,%d) is outside the %dx%d map", x, y, m->w, m->h);
    return sync_tiles(g, m, err); /* compares every tile: finds the changed ones itself */
}

bool tn_surf_edge_valid(const tn_surf *g, const tn_map *m, int e)
{
    if (!g || !m || e < 0 || e >= g->nedges) return false;
    const tn_surf_edge *E = &g->edge[e];
    int row, j;
    tn_surf_node_pos(g, E->from, &row, &j);
    bool ow;
    if (!stands(g, m, row, j, &ow)) return false;
    return replay(g, m, E->from, g->runs + E->run0, E->nruns, E->frames, NULL) == E->to;
}

int tn_surf_edge_replay_body(const tn_surf *g, const tn_map *m, int e, tn_body *b, int *left_ground)
{
    if (left_ground) *left_ground = -1;
    if (!g || !m || !b || e < 0 || e >= g->nedges) return -1;
    const tn_surf_edge *E = &g->edge[e];
    const float k = g->pxk; /* the body in graph px (exact: k is a power of two) */
    b->x /= k, b->y /= k, b->vx /= k, b->vy /= k;
    int f = 0;
    for (int r = 0; r < E->nruns; r++) {
        const uint16_t run = g->runs[E->run0 + (uint32_t)r];
        const tn_input in = input_of(run & 15);
        for (int c = (run >> 4) + 1; c > 0; c--) {
            run_step(&g->prof, b, m, in);
            if (++f && left_ground && *left_ground < 0 && !b->on_ground) *left_ground = f;
        }
    }
    const tn_input none = {false, false, false, false};
    for (int c = 0; c < TN_SURF_MAX_AIR && !b->on_ground; c++) {
        run_step(&g->prof, b, m, none);
        if (++f && left_ground && *left_ground < 0 && !b->on_ground) *left_ground = f;
    }
    b->x *= k, b->y *= k, b->vx *= k, b->vy *= k;
    return b->on_ground ? f : -1;
}

void tn_surf_step_body(const tn_surf *g, const tn_map *m, tn_body *b, tn_input in)
{
    if (!g || !m || !b) return;
    const float k = g->pxk; /* the body in graph px (exact: k is a power of two) */
    b->x /= k, b->y /= k, b->vx /= k, b->vy /= k;
    run_step(&g->prof, b, m, in);
    b->x *= k, b->y *= k, b->vx *= k, b->vy *= k;
}

bool tn_surf_edge_box(const tn_surf *g, const tn_map *m, int e, int *x0, int *y0, int *x1, int *y1)
{
    if (!g || !m || e < 0 || e >= g->nedges) return false;
    const tn_surf_edge *E = &g->edge[e];
    int bb[4];
    if (replay(g, m, E->from, g->runs + E->run0, E->nruns, E->frames, bb) != E->to) return false;
    if (x0) *x0 = bb[0];
    if (y0) *y0 = bb[1];
    if (x1) *x1 = bb[2];
    if (y1) *y1 = bb[3];
    return true;
}

/* ---- debug draw ---------------------------------------------------------- */

/* The drawing below is in graph px (16-px tiles); a graph of another tile
 * size draws through this adapter, which scales every coordinate (and
 * radius) by pxk into the caller's px.  Only line and circle are used. */
typedef struct dd_scaled {
    const tn_debug_draw *dd;
    float k;
} dd_scaled;

static void dds_line(void *user, float x0, float y0, float x1, float y1, uint32_t rgba)
{
    const dd_scaled *s = user;
    s->dd->line(s->dd->user, x0 * s->k, y0 * s->k, x1 * s->k, y1 * s->k, rgba);
}

static void dds_circle(void *user, float cx, float cy, float r, uint32_t rgba, bool filled)
{
    const dd_scaled *s = user;
    s->dd->circle(s->dd->user, cx * s->k, cy * s->k, r * s->k, rgba, filled);
}

/* dd itself at 16-px tiles (or NULL), else *out scaling into it. */
static const tn_debug_draw *dd_for(const tn_surf *g, const tn_debug_draw *dd, dd_scaled *sc,
                                   tn_debug_draw *out)
{
    if (!dd || g->pxk == 1.0f) return dd;
    sc->dd = dd;
    sc->k = g->pxk;
    memset(out, 0, sizeof *out);
    out->user = sc;
    out->line = dd->line ? dds_line : NULL;
    out->circle = dd->circle ? dds_circle : NULL;
    return out;
}

static void draw_edge(const tn_surf *g, const tn_map *m, const tn_debug_draw *dd, int e,
                      uint32_t rgba)
{
    const tn_surf_edge *E = &g->edge[e];
    int row, j;
    tn_surf_node_pos(g, E->from, &row, &j);
    tn_body b = stand_body(g, row, j);
    float W = (float)b.w * T, H = (float)b.h * T;
    float px = b.x + W * 0.5f, py = b.y + H;
    for (uint32_t r = 0; r < E->nruns; r++) {
        tn_input in;
        int cnt;
        tn_surf_run(g, E->run0 + r, &in, &cnt);
        for (int k = 0; k < cnt; k++) {
            run_step(&g->prof, &b, m, in);
            float nx = b.x + W * 0.5f, ny = b.y + H;
            tn_dd_line(dd, px, py, nx, ny, rgba);
            px = nx;
            py = ny;
        }
    }
}

static uint32_t edge_rgba(const tn_surf_edge *E)
{
    return E->kind == TN_SURF_JUMP   ? 0xFFC04060u
           : E->kind == TN_SURF_DROP ? 0x60FF6060u
                                     : 0xC0C0FF60u;
}

/* Does edge e take off inside x0..x1, y0..y1 (the body's feet, px)? */
/* The nodes of surface `s` (on a row inside the rectangle) whose take-off
 * point, the feet centred at lat_x(j) + box width / 2, lies
 * in x0..x1: [*a, *b] (node ids); false when none.  The point's x grows
 * with j, so both ends are binary searches over the surface's run. */
static bool surf_nodes_in(const tn_surf *g, const tn_surf_surface *s, float x0, float x1, int *a,
                          int *b)
{
    const float half = (float)g->prof.w * T * 0.5f;
    int lo = s->j0, hi = s->j1 + 1; /* first j with x >= x0 */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (lat_x(g, mid) + half >= x0)
            hi = mid;
        else
            lo = mid + 1;
    }
    int first = lo;
    lo = s->j0 - 1, hi = s->j1; /* last j with x <= x1 */
    while (lo < hi) {
        int mid = hi - (hi - lo) / 2;
        if (lat_x(g, mid) + half <= x1)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (first > lo) return false;
    *a = s->node0 + (first - s->j0);
    *b = s->node0 + (lo - s->j0);
    return true;
}

/* Rows 0..mh whose feet line (row x 16) lies in y0..y1: [*r0, *r1]; false
 * when none (also for an inverted or NaN range). */
static bool rows_in(const tn_surf *g, float y0, float y1, int *r0, int *r1)
{
    *r0 = 0, *r1 = -1;
    if (!(y0 <= y1)) return false;
    for (int r = 0; r <= g->mh; r++) {
        const float y = (float)r * T;
        if (y < y0) continue;
        if (y > y1) break;
        if (*r1 < *r0) *r0 = r;
        *r1 = r;
    }
    return *r1 >= *r0;
}

/* The edges taking off inside the rectangle come as runs of consecutive
 * edge ids (a surface's nodes inside it, rows and surfaces in id order), so
 * in edge order: counted, then the ranks floor(k n / draw) drawn. */
int tn_surf_debug_draw_edges_in(const tn_surf *g, const tn_map *m, const tn_debug_draw *dd,
                                float x0, float y0, float x1, float y1, int max_edges)
{
    if (!g || !m || !g->row_first) return 0;
    x0 /= g->pxk, y0 /= g->pxk, x1 /= g->pxk, y1 /= g->pxk; /* to graph px (exact) */
    dd_scaled sc;
    tn_debug_draw sdd;
    dd = dd_for(g, dd, &sc, &sdd);
    int r0, r1;
    if (!(x0 <= x1) || !rows_in(g, y0, y1, &r0, &r1)) return 0;
    long long n = 0;
    for (int pass = 0; pass < 2; pass++) {
        /* pass 1: min(n, max_edges) of them, evenly: ranks floor(k n /
         * draw) (a stride of n / max_edges + 1 drew half of max_edges when
         * n was max_edges) */
        if (pass == 1 && (!dd || max_edges <= 0 || n == 0)) break;
        const long long draw = max_edges < n ? max_edges : n;
        long long i = 0, k = 0;
        for (int r = r0; r <= r1; r++)
            for (int si = g->row_first[r]; si < g->row_first[r + 1]; si++) {
                int a, b;
                if (!surf_nodes_in(g, &g->surf[si], x0, x1, &a, &b)) continue;
                const int e0 = g->edge_first[a], e1 = g->edge_first[b + 1];
                if (pass == 0) {
                    n += e1 - e0;
                    continue;
                }
                for (; k < draw && k * n / draw < i + (e1 - e0); k++) {
                    const int e = e0 + (int)(k * n / draw - i);
                    draw_edge(g, m, dd, e, edge_rgba(&g->edge[e]));
                }
                i += e1 - e0;
            }
    }
    return (int)n; /* (at most the edge count) */
}

static void draw_surface(const tn_surf *g, const tn_debug_draw *dd, const tn_surf_surface *s)
{
    const float W = (float)g->prof.w * T, y = (float)s->row * T - 1.0f;
    const float x0 = lat_x(g, s->j0), x1 = lat_x(g, s->j1) + W;
    tn_dd_line(dd, x0, y, x1, y, 0x40E0FFFFu);
    tn_dd_line(dd, x0, y - 3.0f, x0, y + 1.0f, 0x40E0FFFFu);
    tn_dd_line(dd, x1, y - 3.0f, x1, y + 1.0f, 0x40E0FFFFu);
}

int tn_surf_debug_draw_surfaces_in(const tn_surf *g, const tn_debug_draw *dd, float x0, float y0,
                                   float x1, float y1)
{
    if (!g || !g->row_first) return 0;
    x0 /= g->pxk, y0 /= g->pxk, x1 /= g->pxk, y1 /= g->pxk; /* to graph px (exact) */
    dd_scaled sc;
    tn_debug_draw sdd;
    dd = dd_for(g, dd, &sc, &sdd);
    int r0, r1, n = 0;
    if (!(x0 <= x1) || !rows_in(g, y0, y1, &r0, &r1)) return 0;
    const float W = (float)g->prof.w * T;
    for (int r = r0; r <= r1; r++)
        for (int si = g->row_first[r]; si < g->row_first[r + 1]; si++) {
            const tn_surf_surface *s = &g->surf[si];
            if (lat_x(g, s->j1) + W < x0 || lat_x(g, s->j0) > x1) continue;
            n++;
            if (dd) draw_surface(g, dd, s);
        }
    return n;
}

void tn_surf_debug_draw(const tn_surf *g, const tn_map *m, const tn_debug_draw *dd, int what,
                        int edge_stride, int start, const tn_surf_leg *legs, int nlegs)
{
    if (!g || !dd) return;
    dd_scaled sc;
    tn_debug_draw sdd;
    dd = dd_for(g, dd, &sc, &sdd);
    float W = (float)g->prof.w * T;
    if (what & TN_SURF_DRAW_SURFACES)
        for (int i = 0; i < g->nsurf; i++) draw_surface(g, dd, &g->surf[i]);
    if ((what & TN_SURF_DRAW_EDGES) && edge_stride > 0 && m) { /* (arcs replay on m) */
        for (int e = 0; e < g->nedges; e += edge_stride)
            draw_edge(g, m, dd, e, edge_rgba(&g->edge[e]));
    }
    if ((what & TN_SURF_DRAW_PLAN) && legs && start >= 0 && start < g->nnodes) {
        int row, j;
        tn_surf_node_pos(g, start, &row, &j);
        float px = lat_x(g, j) + W * 0.5f, py = (float)row * T;
        for (int i = 0; i < nlegs; i++) {
            float tx = lat_x(g, legs[i].walk_to_j) + W * 0.5f;
            tn_dd_line(dd, px, py - 2.0f, tx, py - 2.0f, 0xFFFF40FFu);
            px = tx;
            if (legs[i].edge >= 0 && legs[i].edge < g->nedges) {
                if (m) draw_edge(g, m, dd, legs[i].edge, 0xFFFF40FFu);
                tn_surf_node_pos(g, g->edge[legs[i].edge].to, &row, &j);
                px = lat_x(g, j) + W * 0.5f;
                py = (float)row * T;
            } else {
                tn_dd_circle(dd, px, py - 4.0f, 4.0f, 0xFFFF40FFu, false);
            }
        }
    }
}
