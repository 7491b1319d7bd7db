/* SPDX-License-Identifier: Zlib */
/* internal/surf_impl.h - private to tn_surf.c, tn_surf_query.c and
 * tn_surf_ch.c (not installed): the tn_surf state, what they share, the
 * query index's edge records and the goal of a query. */
#ifndef TN_SURF_IMPL_H
#define TN_SURF_IMPL_H

#include "tn_surf.h"

#include <stdint.h>

/* Everything declared below is library-internal: hidden from the shared
 * library's exports (GCC/Clang; tests/pkg/exports.sh checks). */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* The tiles one search of a surface read (its footprint): a bitmap over
 * its bounding box, row by row, in the graph's bit pool. */
typedef struct tn_surf_foot {
    int32_t surf;
    int16_t x0, y0, x1, y1; /* the bounding box, tiles inclusive, in the map */
    uint32_t bits;          /* first 64-bit word in fbits */
    uint8_t search;         /* which of the surface's searches (SEARCH_*) */
} tn_surf_foot;

/* A hint that *p is read soon (GCC and Clang; elsewhere nothing). */
#if defined(__GNUC__) || defined(__clang__)
#define TN_PREFETCH(p) __builtin_prefetch(p)
#else
#define TN_PREFETCH(p) ((void)(p))
#endif

#define Q_INF 0x3fffffff  /* "no path" in the landmark tables */
#define Q_DEAD 0x10000000 /* heuristic of a node proven not to reach the goal */
#define Q_LM 16           /* landmarks at most (tn_surf_set_landmarks) */
#define Q_LM_AUTO 8       /* landmarks by default on graphs of Q_LM_NODES+ nodes */
#define Q_LM_NODES 65536
#define Q_GOAL_SURF 64 /* >= lattice steps per tile (at most 64) */

typedef struct qedge {
    int32_t to, eid;
    uint16_t frames;
    int16_t row; /* the landing node's row, j and surface */
    int32_t j, surf;
} qedge;

typedef struct goal {
    /* the goal nodes' rows row .. row1 and lattice columns ja .. jb (one
     * tile: row1 == row; the closest tiles to an unreachable goal: their
     * hull, for the heuristic) */
    int row, row1, ja, jb;
    int ngs; /* surfaces holding goal nodes (at most one per j of the span) */
    int gs[Q_GOAL_SURF], ga[Q_GOAL_SURF], gb[Q_GOAL_SURF]; /* ids, their clipped spans */
    /* per landmark: the smallest d(L, goal node), the largest d(goal node, L) */
    int32_t lf[Q_LM], lb[Q_LM];
    float vup; /* fastest rise, px per frame: the jump speed */
} goal;

/* Where a sliced query (tn_surf_find_begin) is: none; searching; searched
 * (its result kept).  The graph's generation and index_rev tell whether
 * the graph or its query index changed under it (its next step or end
 * fails). */
enum { SLICE_NONE = 0, SLICE_SEARCHING, SLICE_SEARCHED };

struct tn_surf_ch; /* the query shortcuts (tn_surf_ch.c) */
struct ch_scratch; /* a query's scratch for the shortcuts and labels (tn_surf_ch.c) */

/* A query's scratch (tn_surf_query.c): the graph's own (tn_surf.qs, which
 * tn_surf_find uses; its arrays made with the graph's and its query
 * index) or a query object's (tn_surf_query_create: its own arrays, sized
 * for its graph by query_fit).  The queries only read the graph and write
 * this. */
struct tn_surf_query {
    /* the reference search's per node (gcost, parent and pedge hold the
     * plan of every search; heap, hpos, tmp and stamp only the
     * reference's), the nodes expanded in order */
    int32_t *gcost, *parent, *pedge, *heap, *hpos, *order, *tmp;
    uint32_t *stamp;
    uint32_t gen;
    int nexpanded;
    int nexp_dropped; /* nodes expanded by the searches of a query not in order[] */
    struct qnode *qn; /* the fast search's states: qn_cap of them (the graph's
                       * own: a repair keeps them when they have room) */
    size_t qn_cap;
    struct qheap *qh;
    /* the detour bound's backward search over the surfaces (heur_detour) */
    int32_t *sd, *sheap, *shpos;
    uint32_t *sseen, *sdone;
    int sh_n;
    /* the surfaces a query reached (reach_surfaces): a stamp per surface
     * (gen) and the breadth-first queue */
    uint32_t *sreach;
    int32_t *squeue;
    /* a sliced query (tn_surf_find_begin .. _end): its goal, start and goal
     * tile, the heap's size, where it is (SLICE_*), its result once
     * searched (as find_events returns), and the graph's generation and
     * query index revision and the search stamp it went on under (another
     * query or an edit ends it) */
    goal sl_goal;
    int sl_start, sl_gx, sl_gy, sl_hs, sl_state, sl_res;
    /* its goal proved unreachable: the closest place's search under way
     * (tn_surf_query.c CL_WHOLE: for sl_goal, CL_GOAL: for sl_close; 0:
     * not yet) */
    int sl_cl;
    goal sl_close;
    uint32_t sl_generation, sl_index, sl_gen;
    bool sl_other;   /* a query that never searched (refused) ran since the begin: it
                      ends the slice as one that searched does */
    uint32_t serial; /* queries made or begun on an object (tn_surf_query_serial) */
    /* a query object's own (NULL in the graph's, whose shortcut scratch
     * is the shortcuts'): its graph, allocator, the counts its arrays
     * hold (nodes + 1, surfaces + 1; whether the reference search's are
     * made), the bytes they take, its shortcut scratch (made for the
     * graph's query index revision chs_rev) and its bytes */
    const struct tn_surf *g;
    tn_allocator alloc;
    size_t ncap, scap;
    bool ref;
    size_t mem;
    struct ch_scratch *chs;
    size_t chs_mem;
    uint32_t chs_rev;
    bool chs_made;
};

struct surf_pool; /* big blocks kept between repairs (tn_surf.c) */

struct tn_surf {
    tn_allocator alloc;     /* the graph's allocations: through its pool */
    struct surf_pool *pool; /* with the caller's allocator */
    tn_surf_profile prof;   /* in 16-px units: the caller's (uprof) scaled by 16 / tile_px */
    const tn_map *map;
    uint32_t rev;
    int mw, mh;
    int per_tile; /* lattice steps per tile */
    float step_px, inv_step;
    float *lx;     /* x of lattice j, j = -2 .. jmax + 2 (offset 2) */
    int32_t *scol; /* per lattice j as lx: the columns a step reads (step_cols) */
    int jmax;      /* largest lattice j of a box inside the map */
    float vmax;    /* fastest vertical px per frame (heuristic) */
    int nsurf, nnodes, nedges;
    uint32_t nruns, runs_dead; /* runs in the pool; of them, of edges a repair removed */
    tn_surf_surface *surf;
    int32_t *row_first; /* mh + 2 entries */
    int32_t *node_surf;
    int32_t *edge_first; /* nnodes + 1 */
    tn_surf_edge *edge;
    uint16_t *runs;
    size_t edge_cap, runs_cap; /* entries allocated: a repair reuses both arrays */
    /* the searches' row masks (tn_surf.c mask_row), made on first use and
     * kept: a repair makes the edited row's again */
    uint64_t *masks;
    uint8_t *masks_ready;
    /* the graph's own query scratch (tn_surf_find) */
    struct tn_surf_query qs;
    int repairs_local, repairs_full;
    int32_t *rep_surf; /* the last local repair's surfaces searched again (tn_surf_last_repair) */
    int nrep_surf, nrep_tiles;
    uint32_t generation;
    int16_t *sbox;      /* per surface: tiles its searches explored (x0,y0,x1,y1) */
    int32_t *smaxto;    /* per surface: the largest landing node of its edges, -1 */
    tn_surf_foot *foot; /* the same, exact: the tiles of each search */
    int nfoot;
    size_t foot_cap, fbits_cap; /* entries allocated: a repair compacts both in place */
    uint64_t *fbits;            /* the footprints' bitmaps */
    size_t nfbits, fbits_dead;  /* words; of them, of footprints a repair removed */
    uint8_t *tiles;             /* the map's terrain at the last build / repair */
    /* its non-empty tiles summed (tn_surf.c colpre_build, sat_build): kept
     * for repairs, which update them for the edited tile */
    int32_t *colpre, *sat;
    /* the searches' landing records per node (tn_surf.c best_rec), kept
     * so that a repair need not allocate and clear them: valid where
     * their stamp is the group's, and bstamp only grows */
    struct best_rec *best;
    size_t best_cap;
    uint32_t bstamp;
    /* query index (tn_surf_query.c) */
    int32_t *qto, *qfirst, *qefirst, *lm;
    struct qedge *qedge;
    /* with landmark tables: the kept edges into each node n, ifirst[n] ..
     * ifirst[n + 1] - 1, each from node ifrom[k] in ifr[k] frames (tails
     * in increasing order); a repair patches them with the records */
    int32_t *ifirst, *ifrom;
    uint16_t *ifr;
    int32_t *sa_first; /* the detour bound's surface graph (tn_surf_query.c sarcs_build) */
    struct sarc *sa;
    /* the surface graph for reach_surfaces (query_index_build, sr_build):
     * per surface s, the surfaces its kept edges land on, sr_to[sr_first[s]
     * .. sr_first[s + 1] - 1], each once */
    int32_t *sr_first, *sr_to;
    int nlm, lm_want;
    size_t lm_cap;        /* nodes the landmark tables have room for (a repair updates in place) */
    int32_t lmnode[Q_LM]; /* the landmarks' nodes */
    int lm_updates, lm_recomputes; /* tables updated / recomputed by repairs */
    int lm_bad, lm_bad_node;       /* tn_surf_load: 1 + the column of a table found wrong, where */
    bool flags_ok;                 /* every edge's TN_SURF_EDGE_DOMINATED is up to date */
    size_t nsa;
    bool qindex;
    struct tn_surf_ch *ch; /* the query shortcuts, NULL without (tn_surf_ch.c) */
    /* tn_surf_load: the saved graph the build decodes instead of searching
     * (NULL otherwise) */
    const struct surf_blob *blob;
    /* bumped whenever the query index or the shortcuts are made or freed
     * (a sliced query under way then ends) */
    uint32_t index_rev;
    /* the searches' scratch kept between builds and repairs (tn_surf.c
     * surf_keep): slot 0 the caller's thread, 1 .. nkeep - 1 the workers' */
    struct surf_keep *keep;
    int nkeep;
    /* a full build under way polls prof.cancel (tn_surf.c tn_surfi_cancelled);
     * cancelled: it said so once in this build (every later poll stops) */
    bool polling, cancelled;
    /* (after the fields a build reads often: uprof is 100-odd bytes) */
    tn_surf_profile uprof; /* the caller's (tn_surf_get_profile, saved graphs) */
    float pxk;             /* the caller's px per graph px: tile_px / 16, a power of two */
};

/* ---- shared by tn_surf.c (the graph, its build and repairs) and
 * tn_surf_query.c (the query index and the queries) ------------------------ */

/* A growable array (build and repair time only; tn_surf.c) */
typedef struct vec {
    void *p;
    size_t n, cap, elem;
} vec;
#define alloc_unzeroed tn_surfi_alloc_unzeroed
#define vec_push tn_surfi_vec_push
#define vec_free tn_surfi_vec_free
#define set_bit_range tn_surfi_set_bit_range
/* Like tn_alloc_array without zeroing (n * size bytes, NULL on overflow or
 * out of memory). */
void *alloc_unzeroed(const tn_allocator *a, size_t n, size_t size);
/* A new element at v's end (not zeroed), NULL on out of memory. */
void *vec_push(vec *v, const tn_allocator *a);
void vec_free(vec *v, const tn_allocator *a);
/* Bits a .. b (inclusive) of bitmap w set. */
void set_bit_range(uint64_t *w, size_t a, size_t b);

/* A repair's node renumbering: only the edited rows' surfaces change and
 * the others keep their order, so old nodes below a (the rows above the
 * edit) keep their ids, those from b on (the rows below) move by delta,
 * and only the edited rows' nodes a .. b - 1 need a table (mid: new id or
 * -1, gone). */
typedef struct renum {
    int a, b, delta;
    const int32_t *mid;
} renum;

static inline int renum_of(const renum *r, int o)
{
    return o < r->a ? o : o >= r->b ? o + r->delta : r->mid[o - r->a];
}

/* What a local repair changed, for the query index: the take-off surfaces
 * whose dominated edges are found again (redo: the others keep their
 * TN_SURF_EDGE_DOMINATED flags and their query records, renumbered) and
 * the landmark tables' update (lm_update, when old_lm). */
typedef struct lm_delta {
    const uint8_t *redo; /* per surface */
    /* the old numbering, to patch the query records (old_surf NULL: made
     * afresh): the old surfaces and edge_first, old surface -> new (-1:
     * gone or changed) */
    const tn_surf_surface *old_surf;
    int old_ns;
    const int32_t *old_efirst, *surf_of_old;
    int32_t *old_lm; /* the old tables (old node numbering), taken over */
    size_t old_cap;  /* nodes old_lm has room for */
    int old_nlm;
    const renum *new_of_old; /* old node -> new node, -1: gone */
    int old_nn;
    /* the changes to the kept edges (the landmark searches' arcs) as
     * (from, to, frames): gone (old numbering: kept edges removed), lost
     * (kept edges now dominated) and new (kept edges made, or no longer
     * dominated), both in the new numbering (query_index_build) */
    const int32_t *rem;
    size_t nrem;
    const int32_t *lost, *add;
    size_t nlost, nadd;
    bool lists;    /* lost and add are complete */
    int32_t *remc; /* lm_update: per edge gone its ends' old table rows */
} lm_delta;

/* Edge flags of a repair, internal (query_index_build clears them): made
 * by this repair; kept (not dominated) before it. */
#define EF_NEW 0x80
#define EF_WAS 0x40

/* Bits of a footprint's bitmap, in 64-bit words. */
#define foot_words tn_surfi_foot_words

/* x (graph px: 16-px tiles) of lattice j, and the lattice j nearest a graph
 * px x; tn_surf_lattice_x and _j are these in the caller's px (pxk). */
static inline float lat_x_exact(const tn_surf *g, int j)
{
    return (float)((double)j * (double)TN_TILE_PX / (double)g->per_tile);
}
static inline float lat_x(const tn_surf *g, int j)
{
    if (g->lx && j >= -2 && j <= g->jmax + 2) return g->lx[j + 2];
    return lat_x_exact(g, j);
}
#define lat_j tn_surfi_lat_j
int lat_j(const tn_surf *g, float x);
size_t foot_words(const tn_surf_foot *f);

/* A saved graph being loaded (tn_surf_io.c): its counts and where each
 * section's bytes are; tn_surf.c's build decodes them instead of
 * searching. */
typedef struct surf_blob {
    const char *name; /* for messages */
    int nsurf, nnodes, nedges, nfoot, nlm, lm_want;
    uint32_t nruns;
    uint64_t nfbits;
    const uint8_t *sbox, *edges, *runs, *foots, *fbits, *lm;
} surf_blob;
/* The header checked against map m and profile prof (dimensions, terrain,
 * profile, format, checksum, section sizes): L set, or PARSE_ERROR. */
tn_status tn_surfi_blob_open(surf_blob *L, const void *data, size_t size, const char *name,
                             const tn_map *m, const tn_surf_profile *prof, tn_error *err);
/* The sections decoded into arrays of L's counts, every field checked
 * (ranges, order, inputs against frames): PARSE_ERROR at the first bad
 * one. */
tn_status tn_surfi_blob_decode(const surf_blob *L, int mw, int mh, tn_surf_edge *edge,
                               uint16_t *runs, tn_surf_foot *foot, uint64_t *fbits, int16_t *sbox,
                               tn_error *err);
uint64_t tn_surfi_terrain_hash(const uint8_t *tiles, size_t n);
/* The landmark section decoded for graph g (its surfaces): L->nlm nodes
 * into lmnode and the costs (nnodes x 2 nlm) into lm; false when a node, a
 * cost or a code is out of range (whether the costs are the graph's:
 * tn_surf_query.c lm_take). */
bool tn_surfi_blob_landmarks(const surf_blob *L, const struct tn_surf *g, int32_t *lmnode,
                             int32_t *lm);

#define query_state_free_nodes tn_surfi_query_state_free_nodes
#define query_state_free_surfs tn_surfi_query_state_free_surfs
/* Query state q's arrays freed through a and set NULL: per node, the
 * reference search's and the plan's (the graph's own are made with its
 * node arrays; its fast-search states qn, qh go with the query index);
 * per surface, the detour bound's and the reachability pass's. */
void query_state_free_nodes(const tn_allocator *a, struct tn_surf_query *q);
void query_state_free_surfs(const tn_allocator *a, struct tn_surf_query *q);

#define query_index_build tn_surfi_query_index_build
#define query_index_free tn_surfi_query_index_free
/* The query index (tn_surf_query.c): made after every build and repair
 * (d: what a local repair changed, NULL after a build), freed with the
 * graph's arrays. */
void query_index_build(tn_surf *g, lm_delta *d);
void query_index_free(tn_surf *g);
/* How many landmark tables g gets (its setting lm_want, its node count). */
#define lm_count tn_surfi_lm_count
int lm_count(const tn_surf *g);
/* Whether k saved landmark tables are ones tn_surf_load takes (proves):
 * lm_count's, or the setting's count on a graph of fewer nodes (saved
 * before the count was capped at the nodes, 2026-12-07: a landmark is
 * there twice, so the load proves them and then chooses again). */
#define lm_saved_count tn_surfi_lm_saved_count
bool lm_saved_count(const tn_surf *g, int k);

/* Library-internal (tn_surf_ch.c) */
#define ch_free tn_surfi_ch_free
#define ch_find tn_surfi_ch_find
#define ch_scratch_fit tn_surfi_ch_scratch_fit
#define ch_scratch_free tn_surfi_ch_scratch_free
#define ch_scratch_fits tn_surfi_ch_scratch_fits
void ch_free(tn_surf *g);
/* The shortcut search of a query (g->ch current) in q's scratch (its own
 * shortcut scratch, else the shortcuts'): the plan's nodes get q's
 * parent, pedge and gcost; returns the goal node reached, or -1 when the
 * goal is unreachable (the caller then runs the full search for the
 * closest point).  Reads g only. */
int ch_find(const tn_surf *g, tn_surf_query *q, int start, const goal *G);
/* Query object q's shortcut scratch made for g's shortcuts (none without:
 * true), its old one freed; false when out of memory (none then). */
bool ch_scratch_fit(tn_surf_query *q, const tn_surf *g);
void ch_scratch_free(tn_surf_query *q);
/* Whether q's shortcut scratch serves g's shortcuts as they are: made for
 * as many keys and core keys, with the labels' arrays when g has labels
 * (its stamps go on across shortcuts built again); without shortcuts,
 * whether q has none. */
bool ch_scratch_fits(const tn_surf_query *q, const tn_surf *g);
/* Library-internal (tn_surf.c): fa(a) and fb(b), on two threads when `two`
 * and threads exist, else one after the other. */
#define surf_both tn_surfi_both
void tn_surfi_both(int (*fa)(void *), void *a, int (*fb)(void *), void *b, bool two);
/* Library-internal (tn_surf.c): whether a full build under way is to stop
 * (profile.cancel said so; tn_surf.h CANCEL).  False outside full builds. */
bool tn_surfi_cancelled(tn_surf *g);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
