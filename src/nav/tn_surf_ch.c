/* SPDX-License-Identifier: Zlib */
/* tn_surf_ch.c - the graph planner's query shortcuts: a contraction
 * hierarchy (Geisberger et al. 2008) over the query index's key nodes, with
 * a distance table over its core.  tn_surf.h (QUERY SHORTCUTS) states the
 * contract; this file the method.
 *
 * KEYS AND ARCS.  The keys are the nodes the fast search stops at: every
 * take-off of a kept edge and every landing.  Arcs: each kept edge (its
 * frames), and walks between neighbouring keys of a surface, both ways
 * (their lattice distance, a frame per step); of parallel arcs the cheapest.
 * A plan between two nodes is a walk to a key, arcs, and a walk from a key,
 * so the costs are the fast search's.
 *
 * CONTRACTION.  Keys are removed one by one, least important first
 * (priority 4 x (shortcuts added - arcs removed) + 2 x neighbours removed
 * + a level that spreads the removals; lazy updates: a key popped is priced
 * again and goes back when it is no longer the least).  Removing v adds a
 * shortcut u -> w of cost c(u,v) + c(v,w) for each pair of its arcs unless
 * a witness search from u (Dijkstra over the keys left, without v, at most
 * WITNESS_SETTLE keys settled; WITNESS_SIM when only pricing) finds u -> w
 * as cheap; a cut-off search only adds shortcuts that are not needed, never
 * loses a cost.  Two walks make a walk (nothing to unpack).  The arcs of v
 * to the keys left become v's upward (out) and downward (in) arcs.
 *
 * CORE.  The contraction stops when `core` keys are left (by default a
 * sixteenth of the keys, CORE_MIN .. CORE_DEFAULT_MAX).  Contraction keeps
 * every plan cost between the keys left, so a Dijkstra from each over the
 * arcs left gives the core's table: the cost of every pair and the first
 * arc of its plan (core^2 x 6 bytes).  The last, densest levels of a
 * hierarchy are the costliest to contract and to search; the table
 * replaces them.
 *
 * QUERY.  Dijkstra forward from the start's keys (the key it stands on, or
 * the nearest on each side) over upward arcs and backward from the goal
 * span's keys (those in it, and the nearest outside it on each side) over
 * downward arcs, the smaller queue first, with stall-on-demand (a key that
 * a higher key reaches more cheaply is not expanded), until neither queue
 * holds a key cheaper than the best meeting mu.  Core keys are reached but
 * never expanded: they are the access keys.  Each side's access keys,
 * sorted by cost, are thinned (one that a kept one reaches through the
 * core as cheaply is dropped: the triangle inequality keeps its plans),
 * then every pair (a, b) is priced d(s, a) + table(a, b) + d(b, goal).
 * Correct by the usual argument: the highest key of a cheapest plan is
 * either below the core (both searches reach it: a meeting) or in it (the
 * plan enters the core at an access key of each side).  The plan: the
 * forward arcs, the core's arcs by the table's first arcs, the backward
 * arcs, each shortcut unpacked into its halves down to edges and walks.
 *
 * CORE ARCS THINNED.  Of a key's arcs into the core (out of it, for the
 * downward ones) an arc to y is dropped when another kept one to x
 * reaches y through the core as cheaply: c(v, x) + table(x, y) <=
 * c(v, y): the query reaches and prices fewer access keys (docs/perf.md).
 *
 * LAYOUT.  A query is bound by memory latency, not by instructions: its
 * keys' states, arcs and table cells are scattered over hundreds of
 * megabytes.  So a key's rank (the index of its arrays) is not its place
 * in the contraction (that only decides which arcs go up) but its tile's
 * place on a Hilbert curve, below the core and in the core separately:
 * the keys a query touches lie near its start and goal, and share cache
 * lines and pages.  A key's forward and backward states sit side by side.
 *
 * HUB LABELS (optional, tn_surf_build_labels).  The query's one-sided
 * search from each key alone, stored (see "hub labels" below): a query
 * reads a few kilobytes in order instead of settling a couple of hundred
 * keys scattered over the arc lists. */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/surf_impl.h"

#include <stdlib.h>
#include <string.h>

#define WITNESS_SETTLE 60     /* keys a witness search settles at most */
#define WITNESS_SIM 10        /* the same, pricing a key */
#define CORE_MAX 16384        /* core keys at most (a table of 16384^2 x 6 bytes: 1.6 GB) */
#define CORE_MIN 256          /* by default a sixteenth of the keys, at least ... */
#define CORE_DEFAULT_MAX 4096 /* ... and at most this (a 100 MB table) */
#define CH_INF 0x3fffffff

/* An arc seen from one end: the other end (a key in the contraction's
 * lists, a rank in the search's), the cost, the arc's id. */
typedef struct ch_link {
    int32_t k, cost, id;
} ch_link;

typedef struct kst {
    uint32_t seen;        /* == gen: reached by this query */
    int32_t d, par, hpos; /* cost, arc (-1: a seed), slot in the queue (-1: none) */
} kst;

typedef struct hent {
    int32_t d, v;
} hent;

typedef struct ch_arc {
    int32_t from, to, cost;
    int32_t a, b; /* a shortcut's halves (arc ids); an original arc: a = -1,
                   * b = its edge id, or -1 for a walk */
} ch_arc;

/* A label query's record of a key reached forward (stamped with the
 * query's generation): its cost and source (label entry << 1 | seed). */
struct hl_fwd {
    uint32_t seen;
    int32_t d, src;
};
/* ... and of a core key reached backward: cost, label entry and seed. */
struct hl_bwd {
    uint32_t seen;
    int32_t d, src, seed;
};

/* A query's scratch over the shortcuts and labels: the shortcuts' own
 * (tn_surf_ch.qs, for the graph's queries; the build's searches use it
 * too) or a query object's (ch_scratch_fit).  st: per key its state
 * forward (st[2k]) and backward (st[2k + 1]), side by side; per direction
 * (0 forward, 1 backward) the queue and the core keys the search reached;
 * the labels' records: per rank the forward cost and its source, per core
 * key the backward's (each key's fields side by side, one cache miss where
 * they were three). */
struct ch_scratch {
    kst *st;
    hent *hq[2];
    int32_t *acc[2];
    int32_t *stack;
    uint32_t gen;
    struct hl_fwd *lf; /* NULL without labels */
    struct hl_bwd *lb;
    uint32_t lgen;
    int nk, nc; /* the keys and core keys it was made for (ch_scratch_fits) */
};

struct tn_surf_ch {
    int nk;
    int32_t *node;   /* key -> graph node, in node order */
    int32_t *kfirst; /* per surface s: its keys kfirst[s] .. kfirst[s+1]-1 */
    ch_arc *arc;
    /* key -> its rank, and back; the rank's graph node.  The ranks index the
     * search's arrays: the keys below the core, then the core's, each in
     * Hilbert order of their tiles (hilbert_ranks); which arcs go up is
     * the contraction's order, kept in the lists below */
    int32_t *rank, *byrank, *rnode;
    /* the search's arcs, by rank r: upward from r (up[upf[r] ..]) and
     * downward into r (dn[dnf[r] ..]), the other end as a rank */
    int32_t *upf, *dnf;
    struct ch_link *up, *dn;
    /* the core: ranks nk - nc .. nk - 1 (core id = rank - (nk - nc)); per
     * core pair (a, b) the plan cost dist[a * nc + b] (CH_INF: none) and
     * the first arc of that plan, hop[a * nc + b], an index in a's core
     * arcs carc[cfirst[a] ..] (arc ids) */
    int nc;
    int32_t *dist, *cfirst, *carc;
    uint16_t *hop;
    struct ch_scratch qs; /* the graph's queries' scratch (lf, lb: with labels) */
    size_t narc, norig, mem;
    /* hub labels (tn_surf_build_labels; NULL without): per direction d and
     * rank r, the hubs lab[d][lo[d][2r] ..] (r's upward search space in
     * settling order) and the access keys lab[d][lo[d][2r + 1] ..
     * lo[d][2r + 2]] (the core keys it reaches, thinned, by cost) */
    struct hlab *lab[2];
    uint32_t *lo[2];
    size_t lmem;
};

/* A label entry: a key's rank, and cost << 12 | parent, where parent is
 * 1 + the index among the label's hubs of the key it was reached from
 * (0: the label's own key). */
typedef struct hlab {
    int32_t k;
    uint32_t cp;
} hlab;
#define HL_PAR_BITS 12
#define HL_MAX_COST ((1 << (32 - HL_PAR_BITS)) - 1)
#define HL_MAX_HUBS ((1 << HL_PAR_BITS) - 2)
#define HL_FALLBACK -2 /* hl_find: answer with the search instead */
#define HL_COST(e) ((int32_t)((e).cp >> HL_PAR_BITS))
#define HL_PAR(e) ((int)((e).cp & ((1u << HL_PAR_BITS) - 1)))

/* ---- an indexed binary min-heap of keys ----------------------------------- */

typedef struct kheap {
    int32_t *h, *pos;
    const int32_t *key;
    int n;
} kheap;

static void kh_up(kheap *H, int i, int v)
{
    while (i > 0) {
        int p = (i - 1) / 2;
        if (H->key[H->h[p]] <= H->key[v]) break;
        H->h[i] = H->h[p];
        H->pos[H->h[i]] = i;
        i = p;
    }
    H->h[i] = v;
    H->pos[v] = i;
}

static int kh_pop(kheap *H)
{
    int top = H->h[0], v = H->h[--H->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= H->n) break;
        if (c + 1 < H->n && H->key[H->h[c + 1]] < H->key[H->h[c]]) c++;
        if (H->key[H->h[c]] >= H->key[v]) break;
        H->h[i] = H->h[c];
        H->pos[H->h[i]] = i;
        i = c;
    }
    if (H->n > 0) {
        H->h[i] = v;
        H->pos[v] = i;
    }
    H->pos[top] = -1;
    return top;
}

/* ---- contraction ---------------------------------------------------------- */

typedef struct adj {
    int32_t off, n, cap; /* a list of links (other end, cost, arc) in the pool */
} adj;

typedef struct cctx {
    const tn_allocator *a;
    int nk;
    ch_arc *arc;
    size_t narc, arccap, norig;
    ch_link *pool;
    size_t pn, pcap;
    adj *out, *in;
    /* per key v, when contracted: its upward then downward arcs at seq[voff[v]] */
    int32_t *seq, *voff, *vnup, *vndn, *rank;
    int nranked, ncore;
    size_t sn, scap;
    int32_t *deleted, *level;
    uint8_t *dirty; /* per key: a neighbour was removed since it was priced */
    /* witness search */
    int32_t *wd, *wh, *whpos;
    uint32_t *wseen, *wtarget, wgen;
} cctx;

static bool grow(const tn_allocator *a, void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = tn_alloc_array(a, c, elem);
    if (!q) return false;
    if (*cap) memcpy(q, *p, *cap * elem);
    tn_free(a, *p);
    *p = q;
    *cap = c;
    return true;
}

static bool adj_add(cctx *C, adj *L, ch_link e)
{
    if (L->n == L->cap) {
        int cap = L->cap ? L->cap * 2 : 4;
        if (!grow(C->a, (void **)&C->pool, &C->pcap, C->pn + (size_t)cap, sizeof(ch_link)))
            return false;
        memcpy(C->pool + C->pn, C->pool + L->off, (size_t)L->n * sizeof(ch_link));
        L->off = (int32_t)C->pn;
        L->cap = cap;
        C->pn += (size_t)cap;
    }
    C->pool[L->off + L->n++] = e;
    return true;
}

static void adj_del(cctx *C, adj *L, int32_t id)
{
    ch_link *p = C->pool + L->off;
    for (int i = 0; i < L->n; i++)
        if (p[i].id == id) {
            p[i] = p[--L->n];
            return;
        }
}

/* Arc id's links into the lists of its ends. */
static bool arc_link(cctx *C, int32_t id)
{
    const ch_arc *A = &C->arc[id];
    ch_link o = {A->to, A->cost, id}, i = {A->from, A->cost, id};
    return adj_add(C, &C->out[A->from], o) && adj_add(C, &C->in[A->to], i);
}

static int32_t arc_new(cctx *C, int from, int to, int cost, int a, int b)
{
    if (!grow(C->a, (void **)&C->arc, &C->arccap, C->narc + 1, sizeof(ch_arc))) return -1;
    C->arc[C->narc] = (ch_arc){from, to, cost, a, b};
    int32_t id = (int32_t)C->narc++;
    return arc_link(C, id) ? id : -1;
}

/* Dijkstra from u over the keys left, without v, until settle_max keys
 * are settled, the queue's least cost exceeds limit or every out-neighbour
 * of v is settled; C->wd holds the costs found (upper bounds of the true
 * ones). */
static void witness(cctx *C, int u, int v, int limit, int settle_max)
{
    if (++C->wgen == 0) {
        memset(C->wseen, 0, (size_t)C->nk * sizeof *C->wseen);
        memset(C->wtarget, 0, (size_t)C->nk * sizeof *C->wtarget);
        C->wgen = 1;
    }
    int targets = 0;
    for (int k = 0; k < C->out[v].n; k++) {
        int w = C->pool[C->out[v].off + k].k;
        if (w != u && C->wtarget[w] != C->wgen) C->wtarget[w] = C->wgen, targets++;
    }
    kheap H = {C->wh, C->whpos, C->wd, 0};
    C->wseen[u] = C->wgen;
    C->wd[u] = 0;
    kh_up(&H, H.n++, u);
    for (int settled = 0; H.n > 0 && settled < settle_max; settled++) {
        int x = kh_pop(&H);
        if (C->wd[x] > limit) break;
        if (C->wtarget[x] == C->wgen && --targets == 0) break;
        const ch_link *L = C->pool + C->out[x].off;
        for (int i = 0; i < C->out[x].n; i++) {
            int y = L[i].k, nd = C->wd[x] + L[i].cost;
            if (y == v) continue;
            if (C->wseen[y] != C->wgen) {
                C->wseen[y] = C->wgen;
                C->wd[y] = nd;
                kh_up(&H, H.n++, y);
            } else if (nd < C->wd[y] && C->whpos[y] >= 0) {
                C->wd[y] = nd;
                kh_up(&H, C->whpos[y], y);
            }
        }
    }
    for (int i = 0; i < H.n; i++) C->whpos[H.h[i]] = -1; /* every pos back to -1 */
}

static inline int wcost(const cctx *C, int y) { return C->wseen[y] == C->wgen ? C->wd[y] : CH_INF; }

/* The shortcuts removing v needs: counted (doit false) or added.  -1: out
 * of memory. */
static int contract(cctx *C, int v, bool doit)
{
    int added = 0;
    for (int i = 0; i < C->in[v].n; i++) {
        ch_link in = C->pool[C->in[v].off + i];
        int32_t ia = in.id;
        int u = in.k, cu = in.cost, limit = 0;
        for (int k = 0; k < C->out[v].n; k++) {
            const ch_link *B = &C->pool[C->out[v].off + k];
            if (B->k != u && cu + B->cost > limit) limit = cu + B->cost;
        }
        if (limit == 0) continue;
        witness(C, u, v, limit, doit ? WITNESS_SETTLE : WITNESS_SIM);
        for (int k = 0; k < C->out[v].n; k++) {
            ch_link out = C->pool[C->out[v].off + k];
            int32_t ib = out.id;
            int w = out.k, c = cu + out.cost;
            if (w == u || wcost(C, w) <= c) continue;
            added++;
            if (!doit) continue;
            /* an arc u -> w dearer than c is replaced */
            const ch_link *L = C->pool + C->out[u].off;
            for (int q = 0; q < C->out[u].n; q++)
                if (L[q].k == w) {
                    int32_t old = L[q].id;
                    adj_del(C, &C->out[u], old);
                    adj_del(C, &C->in[w], old);
                    break;
                }
            /* two walks make a walk (nothing to unpack: walks merge) */
            const ch_arc *A = &C->arc[ia], *B = &C->arc[ib];
            bool walk = A->a < 0 && A->b < 0 && B->a < 0 && B->b < 0;
            if (arc_new(C, u, w, c, walk ? -1 : ia, walk ? -1 : ib) < 0) return -1;
            /* the pool may have moved: nothing above holds a pointer */
        }
    }
    return added;
}

static int priority(cctx *C, int v)
{
    int s = contract(C, v, false);
    return 4 * (s - C->in[v].n - C->out[v].n) + 2 * C->deleted[v] + C->level[v];
}

static int cmp_arc(const void *pa, const void *pb)
{
    const ch_arc *a = pa, *b = pb;
    if (a->from != b->from) return a->from < b->from ? -1 : 1;
    if (a->to != b->to) return a->to < b->to ? -1 : 1;
    if (a->cost != b->cost) return a->cost < b->cost ? -1 : 1;
    return a->b < b->b ? -1 : (a->b > b->b);
}

/* Keys and original arcs of the query index. */
static bool ch_keys(const tn_surf *g, struct tn_surf_ch *H, cctx *C)
{
    const tn_allocator *a = &g->alloc;
    int nn = g->nnodes, ns = g->nsurf, nto = g->qfirst[ns], nkept = g->qefirst[nto];
    int32_t *key = tn_alloc_array(a, (size_t)nn + 1, sizeof(int32_t));
    H->kfirst = tn_alloc_array(a, (size_t)ns + 1, sizeof(int32_t));
    if (!key || !H->kfirst) {
        tn_free(a, key);
        return false;
    }
    for (int n = 0; n < nn; n++) key[n] = -1;
    for (int k = 0; k < nto; k++) key[g->qto[k]] = 0;
    for (int i = 0; i < nkept; i++) key[g->qedge[i].to] = 0;
    int nk = 0;
    for (int s = 0; s < ns; s++) {
        const tn_surf_surface *S = &g->surf[s];
        H->kfirst[s] = nk;
        for (int n = S->node0; n <= S->node0 + (S->j1 - S->j0); n++)
            if (key[n] == 0) key[n] = nk++;
    }
    H->kfirst[ns] = nk;
    H->nk = C->nk = nk;
    H->node = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    size_t na = (size_t)nkept + 2 * (size_t)nk;
    bool ok = H->node && grow(a, (void **)&C->arc, &C->arccap, na + 1, sizeof(ch_arc));
    for (int n = 0; ok && n < nn; n++)
        if (key[n] >= 0) H->node[key[n]] = n;
    for (int s = 0; ok && s < ns; s++)
        for (int k = H->kfirst[s]; k + 1 < H->kfirst[s + 1]; k++) {
            int c = H->node[k + 1] - H->node[k];
            C->arc[C->narc++] = (ch_arc){k, k + 1, c, -1, -1};
            C->arc[C->narc++] = (ch_arc){k + 1, k, c, -1, -1};
        }
    for (int t = 0; ok && t < nto; t++)
        for (int i = g->qefirst[t]; i < g->qefirst[t + 1]; i++) {
            const qedge *E = &g->qedge[i];
            C->arc[C->narc++] = (ch_arc){key[g->qto[t]], key[E->to], E->frames, -1, E->eid};
        }
    tn_free(a, key);
    if (!ok) return false;
    /* one arc per pair of keys, the cheapest */
    qsort(C->arc, C->narc, sizeof(ch_arc), cmp_arc);
    size_t m = 0;
    for (size_t i = 0; i < C->narc; i++)
        if (m == 0 || C->arc[m - 1].from != C->arc[i].from || C->arc[m - 1].to != C->arc[i].to)
            C->arc[m++] = C->arc[i];
    C->narc = C->norig = m;
    return true;
}

static void cctx_free(cctx *C)
{
    const tn_allocator *a = C->a;
    tn_free(a, C->pool);
    tn_free(a, C->out);
    tn_free(a, C->in);
    tn_free(a, C->seq);
    tn_free(a, C->voff);
    tn_free(a, C->vnup);
    tn_free(a, C->vndn);
    tn_free(a, C->rank);
    tn_free(a, C->deleted);
    tn_free(a, C->level);
    tn_free(a, C->dirty);
    tn_free(a, C->wd);
    tn_free(a, C->wh);
    tn_free(a, C->whpos);
    tn_free(a, C->wseen);
    tn_free(a, C->wtarget);
}

static void hl_free(const tn_allocator *a, struct tn_surf_ch *H);

void ch_free(tn_surf *g)
{
    struct tn_surf_ch *H = g->ch;
    if (!H) return;
    const tn_allocator *a = &g->alloc;
    hl_free(a, H);
    tn_free(a, H->node);
    tn_free(a, H->kfirst);
    tn_free(a, H->arc);
    tn_free(a, H->rank);
    tn_free(a, H->byrank);
    tn_free(a, H->rnode);
    tn_free(a, H->dist);
    tn_free(a, H->cfirst);
    tn_free(a, H->carc);
    tn_free(a, H->hop);
    tn_free(a, H->qs.acc[0]);
    tn_free(a, H->qs.acc[1]);
    tn_free(a, H->upf);
    tn_free(a, H->up);
    tn_free(a, H->dnf);
    tn_free(a, H->dn);
    tn_free(a, H->qs.st);
    for (int k = 0; k < 2; k++) tn_free(a, H->qs.hq[k]);
    tn_free(a, H->qs.stack);
    tn_free(a, H);
    g->ch = NULL;
}

static bool ch_contract(cctx *C)
{
    const tn_allocator *a = C->a;
    int nk = C->nk;
    C->out = tn_alloc_array(a, (size_t)nk + 1, sizeof(adj));
    C->in = tn_alloc_array(a, (size_t)nk + 1, sizeof(adj));
    C->voff = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->vnup = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->vndn = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->rank = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->deleted = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->level = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->dirty = tn_alloc(a, (size_t)nk + 1);
    C->wd = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->wh = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->whpos = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    C->wseen = tn_alloc_array(a, (size_t)nk + 1, sizeof(uint32_t));
    C->wtarget = tn_alloc_array(a, (size_t)nk + 1, sizeof(uint32_t));
    /* the order: a heap of keys by priority */
    int32_t *pri = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    int32_t *qh = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    int32_t *qp = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    kheap Q = {qh, qp, pri, 0};
    bool ok = C->out && C->in && C->dirty && C->deleted && C->level && C->wd && C->wh && C->whpos &&
              C->wseen && C->wtarget && pri && qh && qp && C->voff && C->vnup && C->vndn && C->rank;
    if (ok) {
        memset(C->out, 0, ((size_t)nk + 1) * sizeof(adj));
        memset(C->in, 0, ((size_t)nk + 1) * sizeof(adj));
        memset(C->deleted, 0, ((size_t)nk + 1) * sizeof(int32_t));
        memset(C->level, 0, ((size_t)nk + 1) * sizeof(int32_t));
        memset(C->wseen, 0, ((size_t)nk + 1) * sizeof(uint32_t));
        for (int v = 0; v <= nk; v++) C->whpos[v] = -1;
        C->wgen = 0;
        size_t n0 = C->narc;
        for (size_t i = 0; i < n0 && ok; i++) ok = arc_link(C, (int32_t)i);
    }
    for (int v = 0; v < nk && ok; v++) {
        pri[v] = priority(C, v);
        kh_up(&Q, Q.n++, v);
    }
    while (ok && Q.n > C->ncore) {
        int v = kh_pop(&Q);
        if (C->dirty[v]) { /* priced again; back if no longer the least */
            int p = priority(C, v);
            C->dirty[v] = 0;
            if (Q.n > 0 && p > pri[Q.h[0]]) {
                pri[v] = p;
                kh_up(&Q, Q.n++, v);
                continue;
            }
        }
        if (contract(C, v, true) < 0) {
            ok = false;
            break;
        }
        /* v's arcs: upward (out) and downward (in), gone from the rest */
        C->rank[v] = C->nranked++;
        C->voff[v] = (int32_t)C->sn;
        C->vnup[v] = C->out[v].n;
        C->vndn[v] = C->in[v].n;
        if (!grow(a, (void **)&C->seq, &C->scap, C->sn + (size_t)(C->out[v].n + C->in[v].n),
                  sizeof(int32_t))) {
            ok = false;
            break;
        }
        for (int i = 0; i < C->out[v].n; i++) C->seq[C->sn++] = C->pool[C->out[v].off + i].id;
        for (int i = 0; i < C->in[v].n; i++) C->seq[C->sn++] = C->pool[C->in[v].off + i].id;
        for (int i = 0; i < C->out[v].n; i++) {
            int32_t id = C->pool[C->out[v].off + i].id;
            int w = C->pool[C->out[v].off + i].k;
            adj_del(C, &C->in[w], id);
            C->deleted[w]++;
            C->dirty[w] = 1;
            if (C->level[w] < C->level[v] + 1) C->level[w] = C->level[v] + 1;
        }
        for (int i = 0; i < C->in[v].n; i++) {
            int32_t id = C->pool[C->in[v].off + i].id;
            int u = C->pool[C->in[v].off + i].k;
            adj_del(C, &C->out[u], id);
            C->deleted[u]++;
            C->dirty[u] = 1;
            if (C->level[u] < C->level[v] + 1) C->level[u] = C->level[v] + 1;
        }
    }
    /* the keys left are the core, ranked last */
    for (int i = 0; ok && i < Q.n; i++) {
        int v = Q.h[i];
        C->voff[v] = C->vnup[v] = C->vndn[v] = 0;
        C->rank[v] = C->nranked++;
    }
    tn_free(a, pri);
    tn_free(a, qh);
    tn_free(a, qp);
    return ok;
}

/* The core's arcs (the arcs left among the keys never contracted) and
 * its all-pairs table: a Dijkstra from each core key over them.  The
 * contraction keeps every plan cost between the keys left, so the table
 * holds the graph's costs. */
static bool core_table(const tn_surf *g, struct tn_surf_ch *H, cctx *C)
{
    const tn_allocator *a = &g->alloc;
    int nk = H->nk, nc = C->ncore < nk ? C->ncore : nk;
    H->nc = nc;
    int base = nk - nc;
    size_t ncarc = 0;
    for (int r = base; r < nk; r++) ncarc += (size_t)C->out[H->byrank[r]].n;
    H->cfirst = tn_alloc_array(a, (size_t)nc + 1, sizeof(int32_t));
    H->carc = tn_alloc_array(a, ncarc + 1, sizeof(int32_t));
    H->dist = tn_alloc_array(a, (size_t)nc * (size_t)nc + 1, sizeof(int32_t));
    H->hop = tn_alloc_array(a, (size_t)nc * (size_t)nc + 1, sizeof(uint16_t));
    H->qs.acc[0] = tn_alloc_array(a, (size_t)nc + 1, sizeof(int32_t));
    H->qs.acc[1] = tn_alloc_array(a, (size_t)nc + 1, sizeof(int32_t));
    int32_t *hh = tn_alloc_array(a, (size_t)nc + 1, sizeof(int32_t));
    int32_t *hp = tn_alloc_array(a, (size_t)nc + 1, sizeof(int32_t));
    bool ok = H->cfirst && H->carc && H->dist && H->hop && H->qs.acc[0] && H->qs.acc[1] && hh && hp;
    if (ok) {
        size_t k = 0;
        for (int c = 0; c < nc; c++) {
            int v = H->byrank[base + c];
            H->cfirst[c] = (int32_t)k;
            for (int i = 0; i < C->out[v].n; i++) H->carc[k++] = C->pool[C->out[v].off + i].id;
        }
        H->cfirst[nc] = (int32_t)k;
        for (int c = 0; c < nc; c++) hp[c] = -1;
    }
    for (int src = 0; ok && src < nc; src++) {
        int32_t *D = H->dist + (size_t)src * nc;
        uint16_t *F = H->hop + (size_t)src * nc;
        for (int c = 0; c < nc; c++) D[c] = CH_INF;
        kheap Q = {hh, hp, D, 0};
        D[src] = 0;
        F[src] = 0;
        kh_up(&Q, Q.n++, src);
        while (Q.n > 0) {
            int u = kh_pop(&Q);
            for (int i = H->cfirst[u]; i < H->cfirst[u + 1]; i++) {
                const ch_arc *A = &C->arc[H->carc[i]];
                int w = H->rank[A->to] - base, nd = D[u] + A->cost;
                if (nd >= D[w]) continue;
                bool queued = D[w] < CH_INF;
                D[w] = nd;
                F[w] = u == src ? (uint16_t)(i - H->cfirst[u]) : F[u];
                if (!queued)
                    kh_up(&Q, Q.n++, w);
                else if (hp[w] >= 0)
                    kh_up(&Q, hp[w], w);
            }
        }
    }
    tn_free(a, hh);
    tn_free(a, hp);
    return ok;
}

/* Position of (x, y) on the Hilbert curve over a side x side square (side a
 * power of two): nearby points get nearby indices. */
static uint64_t hilbert(uint32_t side, uint32_t x, uint32_t y)
{
    uint64_t d = 0;
    for (uint32_t s = side / 2; s > 0; s /= 2) {
        uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
        d += (uint64_t)s * s * ((3 * rx) ^ ry);
        if (ry == 0) { /* rotate the quadrant */
            if (rx == 1) x = side - 1 - x, y = side - 1 - y;
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* Ranks lo .. hi-1 given to their keys in the order of the keys' tiles
 * along a Hilbert curve.  A rank is only where a key's search state,
 * arcs and table cells sit (the arcs' directions come from the
 * contraction): the keys a query touches lie near its start or its goal,
 * so nearby ranks share cache lines and pages. */
static bool hilbert_ranks(const tn_surf *g, struct tn_surf_ch *H, int lo, int hi)
{
    int n = hi - lo;
    if (n <= 1) return true;
    uint64_t *o = tn_alloc_array(&g->alloc, (size_t)n, sizeof(uint64_t));
    if (!o) return false;
    uint32_t side = 1;
    while (side < (uint32_t)g->mw || side < (uint32_t)g->mh + 1) side *= 2;
    for (int c = 0; c < n; c++) {
        int nd = H->node[H->byrank[lo + c]];
        const tn_surf_surface *S = &g->surf[g->node_surf[nd]];
        int tx = (S->j0 + (nd - S->node0)) / g->per_tile;
        /* side <= 8192 (TN_MAP_MAX_SIZE + 1 rows): the index fits 26 bits */
        o[c] = hilbert(side, (uint32_t)tx, (uint32_t)S->row) << 32 | (uint64_t)c;
    }
    qsort(o, (size_t)n, sizeof *o, cmp_u64);
    for (int c = 0; c < n; c++) o[c] = (uint64_t)H->byrank[lo + (int)(o[c] & 0xffffffffu)];
    for (int c = 0; c < n; c++) {
        int v = (int)o[c];
        H->rank[v] = lo + c;
        H->byrank[lo + c] = v;
    }
    tn_free(&g->alloc, o);
    return true;
}

/* A key's arcs L[0 .. n-1] (up: to higher keys; down: from them), less
 * the arcs to (from) a core key y that another kept core arc x reaches as
 * cheaply through the core: c(v, x) + table(x, y) <= c(v, y) (down:
 * table(y, x) + c(x, v) <= c(y, v)).  A query still prices every plan
 * through y by x (the table obeys the triangle inequality), so its costs
 * stay; it reaches and prices fewer access keys.  Returns the arcs kept,
 * the core ones last in increasing cost. */
static int core_arcs_thin(const struct tn_surf_ch *H, ch_link *L, int n, bool down)
{
    int base = H->nk - H->nc, m = 0;
    for (int i = 0; i < n; i++) /* below-core arcs first */
        if (L[i].k < base) {
            ch_link t = L[m];
            L[m++] = L[i];
            L[i] = t;
        }
    for (int i = m + 1; i < n; i++) { /* the core arcs by cost: a few dozen */
        ch_link e = L[i];
        int j = i;
        for (; j > m && L[j - 1].cost > e.cost; j--) L[j] = L[j - 1];
        L[j] = e;
    }
    int kept = m;
    for (int i = m; i < n; i++) {
        bool dominated = false;
        for (int q = m; q < kept && !dominated; q++) {
            size_t x = (size_t)(L[q].k - base), y = (size_t)(L[i].k - base);
            int32_t c = down ? H->dist[y * H->nc + x] : H->dist[x * H->nc + y];
            dominated = c < CH_INF && L[q].cost + c <= L[i].cost;
        }
        if (!dominated) L[kept++] = L[i];
    }
    return kept;
}

/* The contracted hierarchy into the query's arrays. */
/* Arc ids renumbered so that unpacking reads memory in order: each arc,
 * then its first half's arcs, then its second's (preorder, from the last
 * made: the highest shortcuts first).  A plan's shortcut then unpacks from
 * consecutive records, except where a half was placed under an earlier
 * one.  False: out of memory (nothing changed). */
static bool arcs_in_unpack_order(const tn_allocator *a, struct tn_surf_ch *H)
{
    const size_t n = H->narc;
    int32_t *nid = tn_alloc_array(a, n + 1, sizeof(int32_t));
    int32_t *stk = tn_alloc_array(a, n + 1, sizeof(int32_t));
    ch_arc *arc = tn_alloc_array(a, n + 1, sizeof(ch_arc));
    bool ok = nid && stk && arc;
    if (ok) {
        for (size_t i = 0; i < n; i++) nid[i] = -1;
        int32_t next = 0;
        for (size_t r = n; r-- > 0;) {
            size_t ns = 0;
            stk[ns++] = (int32_t)r;
            while (ns > 0) {
                int32_t x = stk[--ns];
                if (nid[x] >= 0) continue;
                nid[x] = next++;
                if (H->arc[x].a >= 0) stk[ns++] = H->arc[x].b, stk[ns++] = H->arc[x].a;
            }
        }
        for (size_t i = 0; i < n; i++) {
            ch_arc A = H->arc[i];
            if (A.a >= 0) A.a = nid[A.a], A.b = nid[A.b]; /* an original's b is its edge */
            arc[nid[i]] = A;
        }
        for (int32_t i = 0; i < H->upf[H->nk]; i++) H->up[i].id = nid[H->up[i].id];
        for (int32_t i = 0; i < H->dnf[H->nk]; i++) H->dn[i].id = nid[H->dn[i].id];
        for (int32_t i = 0; i < H->cfirst[H->nc]; i++) H->carc[i] = nid[H->carc[i]];
        tn_free(a, H->arc);
        H->arc = arc;
        arc = NULL;
    }
    tn_free(a, nid);
    tn_free(a, stk);
    tn_free(a, arc);
    return ok;
}

static bool ch_finish(const tn_surf *g, struct tn_surf_ch *H, cctx *C)
{
    const tn_allocator *a = &g->alloc;
    int nk = H->nk;
    size_t nup = 0, ndn = 0;
    for (int v = 0; v < nk; v++) nup += (size_t)C->vnup[v], ndn += (size_t)C->vndn[v];
    H->upf = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    H->dnf = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    H->up = tn_alloc_array(a, nup + 1, sizeof(ch_link));
    H->dn = tn_alloc_array(a, ndn + 1, sizeof(ch_link));
    H->byrank = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    H->rnode = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
    H->qs.stack = tn_alloc_array(a, 2 * (size_t)nk + 64, sizeof(int32_t));
    H->qs.st = tn_alloc_array(a, 2 * ((size_t)nk + 1), sizeof(kst));
    bool ok =
        H->upf && H->dnf && H->up && H->dn && H->qs.stack && H->byrank && H->rnode && H->qs.st;
    if (ok) memset(H->qs.st, 0, 2 * ((size_t)nk + 1) * sizeof(kst));
    for (int k = 0; k < 2 && ok; k++) {
        H->qs.hq[k] = tn_alloc_array(a, (size_t)nk + 1, sizeof(hent));
        ok = H->qs.hq[k];
    }
    if (!ok) return false;
    H->rank = C->rank; /* taken over */
    C->rank = NULL;
    for (int v = 0; v < nk; v++) H->byrank[H->rank[v]] = v;
    int nc = C->ncore < nk ? C->ncore : nk;
    if (!hilbert_ranks(g, H, 0, nk - nc) || !hilbert_ranks(g, H, nk - nc, nk) ||
        !core_table(g, H, C))
        return false;
    for (int r = 0; r < nk; r++) H->rnode[r] = H->node[H->byrank[r]];
    size_t iu = 0, id = 0;
    for (int r = 0; r < nk; r++) {
        int v = H->byrank[r];
        /* (no arcs at all: no sequence, and nothing below reads it) */
        const int32_t *s = C->seq ? C->seq + C->voff[v] : NULL;
        H->upf[r] = (int32_t)iu;
        H->dnf[r] = (int32_t)id;
        for (int i = 0; i < C->vnup[v]; i++) {
            const ch_arc *A = &C->arc[s[i]];
            H->up[iu++] = (ch_link){H->rank[A->to], A->cost, s[i]};
        }
        for (int i = 0; i < C->vndn[v]; i++) {
            const ch_arc *A = &C->arc[s[C->vnup[v] + i]];
            H->dn[id++] = (ch_link){H->rank[A->from], A->cost, s[C->vnup[v] + i]};
        }
        iu = H->upf[r] + (size_t)core_arcs_thin(H, H->up + H->upf[r], (int)(iu - H->upf[r]), false);
        id = H->dnf[r] + (size_t)core_arcs_thin(H, H->dn + H->dnf[r], (int)(id - H->dnf[r]), true);
    }
    H->upf[nk] = (int32_t)iu;
    H->dnf[nk] = (int32_t)id;
    H->arc = C->arc; /* taken over */
    H->narc = C->narc;
    H->norig = C->norig;
    C->arc = NULL;
    if (!arcs_in_unpack_order(a, H)) return false;
    H->qs.gen = 0;
    H->mem = sizeof *H + ((size_t)nk + 1) * 4 * 6 + ((size_t)g->nsurf + 1) * 4 +
             H->narc * sizeof(ch_arc) + (nup + ndn) * sizeof(ch_link) + (2 * (size_t)nk + 64) * 4 +
             2 * ((size_t)nk + 1) * (sizeof(kst) + sizeof(hent)) +
             (size_t)H->nc * (size_t)H->nc * 6 + ((size_t)H->nc + 1) * 12 +
             (size_t)H->cfirst[H->nc] * 4;
    return true;
}

tn_status tn_surf_build_shortcuts(tn_surf *g, int core_keys, tn_error *err)
{
    tn_error_clear(err);
    if (!g)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no graph to build shortcuts on (NULL)");
    g->index_rev++;                            /* (a sliced query under way ends) */
    if (core_keys < 0 || core_keys > CORE_MAX) /* refused: the shortcuts there are stay */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: %d core keys is outside 0..%d", core_keys, CORE_MAX);
    ch_free(g);
    if (!g->qindex)
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "surf: no query index to build shortcuts on "
                            "(it ran out of memory)");
    const tn_allocator *a = &g->alloc;
    struct tn_surf_ch *H = tn_alloc(a, sizeof *H);
    if (!H) return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "surf: out of memory");
    memset(H, 0, sizeof *H);
    g->ch = H;
    cctx C;
    memset(&C, 0, sizeof C);
    C.a = a;
    bool ok = ch_keys(g, H, &C);
    if (ok) { /* by default a sixteenth of the keys, CORE_MIN .. CORE_DEFAULT_MAX */
        int k = H->nk / 16;
        k = k < CORE_MIN ? CORE_MIN : (k > CORE_DEFAULT_MAX ? CORE_DEFAULT_MAX : k);
        C.ncore = core_keys > 0 ? core_keys : k;
    }
    ok = ok && ch_contract(&C) && ch_finish(g, H, &C);
    tn_free(a, C.arc);
    cctx_free(&C);
    if (!ok) {
        ch_free(g);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "surf: out of memory building the query shortcuts");
    }
    return TN_OK;
}

bool tn_surf_has_shortcuts(const tn_surf *g) { return g && g->ch != NULL; }

size_t tn_surf_shortcuts_memory(const tn_surf *g)
{
    return g && g->ch ? g->ch->mem + g->ch->lmem : 0;
}

int tn_surf_shortcut_count(const tn_surf *g)
{
    if (!g || !g->ch) return 0;
    return (int)(g->ch->narc - g->ch->norig);
}

/* ---- query ---------------------------------------------------------------- */

/* The keys of surface s nearest j: *l the last at or left of j, *r the first
 * at or right of j (-1 when none). */
static void keys_around(const struct tn_surf_ch *H, const tn_surf *g, int s, int n, int *l, int *r)
{
    int lo = H->kfirst[s], hi = H->kfirst[s + 1];
    while (lo < hi) { /* first key with node >= n */
        int mid = (lo + hi) >> 1;
        if (H->node[mid] < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    (void)g;
    *r = lo < H->kfirst[s + 1] ? lo : -1;
    *l = lo < H->kfirst[s + 1] && H->node[lo] == n ? lo : (lo > H->kfirst[s] ? lo - 1 : -1);
}

/* A key's state in one direction's view of the interleaved states. */
#define KS(S, k) ((S)[2 * (size_t)(k)])

/* The query's queues: (cost, key) entries, the key's slot in its kst. */
typedef struct qq {
    hent *h;
    kst *st;
    int n;
    uint32_t gen; /* a key is seen when its kst's seen is this */
} qq;

static inline void qq_up(qq *Q, int i, hent e)
{
    while (i > 0) {
        int p = (i - 1) / 2;
        if (Q->h[p].d <= e.d) break;
        Q->h[i] = Q->h[p];
        KS(Q->st, Q->h[i].v).hpos = i;
        i = p;
    }
    Q->h[i] = e;
    KS(Q->st, e.v).hpos = i;
}

static inline int qq_pop(qq *Q)
{
    int top = Q->h[0].v;
    hent e = Q->h[--Q->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= Q->n) break;
        if (c + 1 < Q->n && Q->h[c + 1].d < Q->h[c].d) c++;
        if (Q->h[c].d >= e.d) break;
        Q->h[i] = Q->h[c];
        KS(Q->st, Q->h[i].v).hpos = i;
        i = c;
    }
    if (Q->n > 0) {
        Q->h[i] = e;
        KS(Q->st, e.v).hpos = i;
    }
    KS(Q->st, top).hpos = -1;
    return top;
}

/* Key k (a rank) reached by queue Q's search at `cost` by arc `id` (-1: a
 * seed).  A core key is not queued: it is an access key of the table. */
static inline void reach(const struct tn_surf_ch *H, qq *Q, int32_t *acc, int *nacc, int k,
                         int cost, int32_t id)
{
    kst *K = &KS(Q->st, k);
    bool core = k >= H->nk - H->nc;
    if (K->seen != Q->gen) {
        K->seen = Q->gen;
        K->d = cost;
        K->par = id;
        K->hpos = -1;
        if (core)
            acc[(*nacc)++] = k;
        else
            qq_up(Q, Q->n++, (hent){cost, k});
    } else if (cost < K->d && (core || K->hpos >= 0)) {
        K->d = cost;
        K->par = id;
        if (!core) qq_up(Q, K->hpos, (hent){cost, k});
    }
}

/* The access keys acc[0 .. n-1] of one search (state S), sorted by cost
 * and thinned: a key is dropped when it costs mu or more, or when a kept
 * one reaches it (forward: x -> key) or is reached from it (back: key -> x)
 * through the core at no more than its cost.  Returns the keys kept. */
static int access_keep(const struct tn_surf_ch *H, const kst *S, int32_t *acc, int n, int mu,
                       bool back)
{
    for (int i = 1; i < n; i++) { /* insertion sort: a few dozen keys */
        int32_t k = acc[i];
        int j = i;
        for (; j > 0 && KS(S, acc[j - 1]).d > KS(S, k).d; j--) acc[j] = acc[j - 1];
        acc[j] = k;
    }
    int base = H->nk - H->nc, kept = 0;
    for (int i = 0; i < n; i++) {
        int k = acc[i], dk = KS(S, k).d;
        if (dk >= mu) break;
        bool dominated = false;
        for (int q = 0; q < kept && !dominated; q++) {
            int x = acc[q];
            int32_t c = back ? H->dist[(size_t)(k - base) * H->nc + (x - base)]
                             : H->dist[(size_t)(x - base) * H->nc + (k - base)];
            dominated = c < CH_INF && KS(S, x).d + c <= dk;
        }
        if (!dominated) acc[kept++] = k;
    }
    return kept;
}

/* The plan as it is unpacked: the nodes where it takes off and lands get
 * parent, pedge and gcost (walks between them are merged: write_plan walks
 * from a node to the next one on its surface). */
typedef struct planw {
    int last; /* the last node written */
    int cur;  /* where the plan is */
    int cost; /* frames to cur */
} planw;

static void plan_node(tn_surf_query *q, int n, int parent, int edge, int cost)
{
    q->parent[n] = parent;
    q->pedge[n] = edge;
    q->gcost[n] = cost;
}

static void plan_arc(tn_surf_query *q, const struct tn_surf_ch *H, const ch_arc *A, planw *P)
{
    int to = H->node[A->to];
    if (A->b >= 0) { /* an edge: the walk to its take-off, then the edge */
        if (P->cur != P->last) plan_node(q, P->cur, P->last, -1, P->cost);
        plan_node(q, to, P->cur, A->b, P->cost + A->cost);
        P->last = to;
    }
    P->cur = to;
    P->cost += A->cost;
}

/* Arc id, unpacked into its original arcs in order. */
static void unpack(tn_surf_query *q, const struct tn_surf_ch *H, struct ch_scratch *S, int32_t id,
                   planw *P)
{
    int32_t *st = S->stack;
    int n = 0;
    st[n++] = id;
    while (n > 0) {
        const ch_arc *A = &H->arc[st[--n]];
        if (A->a < 0) {
            plan_arc(q, H, A, P);
        } else {
            /* the second half is read once the first is unpacked, and
             * seldom lies beside it (preorder): its cache miss overlaps */
            TN_PREFETCH(&H->arc[A->b]);
            st[n++] = A->b; /* second half after the first */
            st[n++] = A->a;
        }
    }
}

/* The core's plan from core key ca to cb (ranks), arc by arc by the
 * table's first arcs, each unpacked. */
static void unpack_core(tn_surf_query *q, const struct tn_surf_ch *H, struct ch_scratch *S, int ca,
                        int cb, planw *P)
{
    const int base = H->nk - H->nc;
    for (int x = ca - base, y = cb - base; x != y;) {
        int32_t id = H->carc[H->cfirst[x] + H->hop[(size_t)x * H->nc + y]];
        unpack(q, H, S, id, P);
        x = H->rank[H->arc[id].to] - base;
    }
}

/* A query's seeds: the start's key, or the nearest on each side (fs, fc:
 * ranks and the walk to them, *nfs of 2), and the goal span's keys with
 * the nearest outside it on each side (bs, bc, returned: at most
 * GOAL_SEEDS, since a span holds at most per_tile <= Q_GOAL_SURF nodes);
 * *mu, *direct: the walk to the span when the start's surface holds it. */
#define GOAL_SEEDS (3 * Q_GOAL_SURF)
static int query_seeds(const struct tn_surf_ch *H, const tn_surf *g, int start, const goal *G,
                       int *fs, int *fc, int *nfs, int *bs, int *bc, int *mu, int *direct)
{
    const int32_t *rk = H->rank;
    int ss = g->node_surf[start], l, r, nbs = 0;
    keys_around(H, g, ss, start, &l, &r);
    *nfs = 0;
    if (l >= 0) fs[*nfs] = rk[l], fc[(*nfs)++] = start - H->node[l];
    if (r >= 0 && r != l) fs[*nfs] = rk[r], fc[(*nfs)++] = H->node[r] - start;
    *mu = CH_INF;
    *direct = -1;
    for (int i = 0; i < G->ngs; i++) {
        int s = G->gs[i], n0 = g->surf[s].node0, j0 = g->surf[s].j0;
        int na = n0 + (G->ga[i] - j0), nb = n0 + (G->gb[i] - j0);
        if (s == ss) {
            int p = start < na ? na : (start > nb ? nb : start);
            if (abs(p - start) < *mu) *mu = abs(p - start), *direct = p;
        }
        keys_around(H, g, s, na, &l, &r);
        if (l >= 0 && H->node[l] < na && nbs < GOAL_SEEDS)
            bs[nbs] = rk[l], bc[nbs++] = na - H->node[l];
        for (int k = r; k >= 0 && k < H->kfirst[s + 1] && nbs < GOAL_SEEDS; k++) {
            bool past = H->node[k] > nb;
            bs[nbs] = rk[k], bc[nbs++] = past ? H->node[k] - nb : 0;
            if (past) break;
        }
    }
    return nbs;
}

/* The plan's start; when the best is the walk on the start's surface
 * (neither a meeting nor a core pair) that walk too, and true. */
static bool plan_begin(tn_surf_query *q, int start, bool walk, int direct, int mu)
{
    q->parent[start] = -1;
    q->pedge[start] = -1;
    q->gcost[start] = 0;
    if (walk && direct != start) {
        q->parent[direct] = start;
        q->pedge[direct] = -1;
        q->gcost[direct] = mu;
    }
    return walk;
}

/* P.cur is a goal seed's node: the walk into the span ends the plan.
 * Returns the goal node. */
static int plan_end(const tn_surf *g, tn_surf_query *q, const goal *G, planw *P)
{
    int end = P->cur;
    for (int i = 0; i < G->ngs; i++)
        if (G->gs[i] == g->node_surf[end]) {
            const tn_surf_surface *S = &g->surf[G->gs[i]];
            int j = S->j0 + (end - S->node0);
            int p = j < G->ga[i] ? G->ga[i] : (j > G->gb[i] ? G->gb[i] : j);
            P->cost += abs(p - j);
            end += p - j;
            break;
        }
    if (end != P->last) plan_node(q, end, P->last, -1, P->cost);
    return end;
}

static int hl_find(const tn_surf *g, tn_surf_query *q, struct ch_scratch *Z, int start,
                   const goal *G);

int ch_find(const tn_surf *g, tn_surf_query *q, int start, const goal *G)
{
    const struct tn_surf_ch *H = g->ch;
    struct ch_scratch *Z = q->chs ? q->chs : &g->ch->qs;
    if (H->lab[0]) {
        int r = hl_find(g, q, Z, start, G);
        if (r != HL_FALLBACK) return r;
    }
    if (++Z->gen == 0) {
        memset(Z->st, 0, 2 * ((size_t)H->nk + 1) * sizeof(kst));
        Z->gen = 1;
    }
    const int32_t *rk = H->rank;
    const uint32_t gen = Z->gen;
    qq Q[2] = {{Z->hq[0], Z->st, 0, Z->gen}, {Z->hq[1], Z->st + 1, 0, Z->gen}};
    kst *F = Z->st, *B = Z->st + 1;
    int fs[2], fc[2], nfs, bs[GOAL_SEEDS], bc[GOAL_SEEDS], mu, direct, meet = -1;
    int nbs = query_seeds(H, g, start, G, fs, fc, &nfs, bs, bc, &mu, &direct);
    int nacc[2] = {0, 0};
    for (int i = 0; i < nfs; i++) reach(H, &Q[0], Z->acc[0], &nacc[0], fs[i], fc[i], -1);
    for (int i = 0; i < nbs; i++) reach(H, &Q[1], Z->acc[1], &nacc[1], bs[i], bc[i], -1);
    /* both searches (over ranks), the cheaper queue first, while one can
     * still beat mu */
    for (;;) {
        int t0 = Q[0].n ? Q[0].h[0].d : CH_INF, t1 = Q[1].n ? Q[1].h[0].d : CH_INF;
        if (t0 >= mu && t1 >= mu) break;
        int dir = t0 <= t1 ? 0 : 1;
        kst *S = Z->st + dir, *O = Z->st + 1 - dir;
        int v = qq_pop(&Q[dir]);
        int dv = KS(S, v).d;
        if (q->nexpanded < g->nnodes) q->order[q->nexpanded++] = H->rnode[v];
        if (KS(O, v).seen == gen && dv + KS(O, v).d < mu) {
            mu = dv + KS(O, v).d;
            meet = v;
        }
        /* stall-on-demand: a higher key reaches v more cheaply */
        const int32_t *sf = dir == 0 ? H->dnf : H->upf;
        const ch_link *sl = dir == 0 ? H->dn : H->up;
        bool stalled = false;
        for (int i = sf[v]; i < sf[v + 1] && !stalled; i++)
            stalled = KS(S, sl[i].k).seen == gen && KS(S, sl[i].k).d + sl[i].cost < dv;
        if (stalled) continue;
        const int32_t *rf = dir == 0 ? H->upf : H->dnf;
        const ch_link *rl = dir == 0 ? H->up : H->dn;
        for (int i = rf[v]; i < rf[v + 1]; i++) {
            int w = rl[i].k, nd = dv + rl[i].cost;
            if (KS(S, w).seen == gen && nd >= KS(S, w).d) continue;
            reach(H, &Q[dir], Z->acc[dir], &nacc[dir], w, nd, rl[i].id);
            if (KS(O, w).seen == gen && nd + KS(O, w).d < mu) {
                mu = nd + KS(O, w).d;
                meet = w;
            }
        }
    }
    /* through the core: the access keys each way, in increasing cost,
     * less those another one reaches as cheaply through the core (the
     * triangle inequality keeps their plans); then every pair by the table */
    int ca = -1, cb = -1, base = H->nk - H->nc, nc = H->nc;
    int na = access_keep(H, F, Z->acc[0], nacc[0], mu, false);
    int nb = access_keep(H, B, Z->acc[1], nacc[1], mu, true);
    for (int i = 0; i < na; i++) {
        int x = Z->acc[0][i], dx = KS(F, x).d;
        const int32_t *row = H->dist + (size_t)(x - base) * nc - base;
        for (int k = 0; k < nb; k++) {
            int y = Z->acc[1][k];
            if (row[y] >= CH_INF) continue;
            int c = dx + row[y] + KS(B, y).d;
            if (c < mu) mu = c, ca = x, cb = y, meet = -1;
        }
    }
    if (mu >= CH_INF) return -1;
    if (plan_begin(q, start, meet < 0 && ca < 0, direct, mu)) return direct;
    /* forward arcs, from the start's key to meet, on the stack's top end */
    int nf = 0, cap = 2 * H->nk + 64;
    int v = ca >= 0 ? ca : meet;
    for (; KS(F, v).par >= 0; v = rk[H->arc[KS(F, v).par].from])
        Z->stack[cap - 1 - nf++] = KS(F, v).par;
    planw P = {start, H->rnode[v], KS(F, v).d}; /* walked to the first key */
    /* unpack uses the stack's bottom; the forward ids sit at the top */
    for (int i = cap - nf; i < cap; i++) unpack(q, H, Z, Z->stack[i], &P);
    if (ca >= 0) {
        unpack_core(q, H, Z, ca, cb, &P);
        meet = cb;
    }
    for (v = meet; KS(B, v).par >= 0; v = rk[H->arc[KS(B, v).par].to])
        unpack(q, H, Z, KS(B, v).par, &P);
    return plan_end(g, q, G, &P);
}

/* ---- hub labels ------------------------------------------------------------
 * A label per key and direction: the keys its one-sided search settles
 * without being stalled (its hubs, with their costs and the hub each was
 * reached from) and the core keys it reaches, thinned as a query thins them
 * (its access keys).  The search is the query's, from that key alone and
 * with no bound (mu): so a query's searches are the union of its seeds'
 * labels, and a cheapest plan's highest key below the core is a hub of
 * both sides with its exact cost (a key on a cheapest upward path is never
 * stalled: that would need a cheaper path to it). */

static void hl_free(const tn_allocator *a, struct tn_surf_ch *H)
{
    for (int d = 0; d < 2; d++) {
        tn_free(a, H->lab[d]);
        tn_free(a, H->lo[d]);
        H->lab[d] = NULL;
        H->lo[d] = NULL;
    }
    tn_free(a, H->qs.lf);
    tn_free(a, H->qs.lb);
    H->qs.lf = NULL;
    H->qs.lb = NULL;
    H->lmem = 0;
}

/* One direction's label build: its search scratch (the graph's, or on a
 * second thread a kst array of its own with its own generation), its
 * output, and how it ended (0, HL_OOM, HL_BIG). */
enum { HL_OOM = 1, HL_BIG = 2 };
typedef struct hl_dir {
    const tn_allocator *a;
    struct tn_surf_ch *H;
    int dir;
    kst *st;       /* interleaved like H->qs.st: this direction's slot is used */
    uint32_t *gen; /* the generation of st's seen stamps */
    int32_t *lix;  /* per rank its index among the hubs of the label being made */
    hlab *lab;     /* the labels, exact size */
    uint32_t *lo;
    size_t n;
    int rc;
} hl_dir;

/* The label of rank r, appended to *lab (n entries of cap): 0, HL_OOM, or
 * HL_BIG (a label past the entry format: a cost or a hub count). */
static int hl_one(hl_dir *D, int r, hlab **lab, size_t *n, size_t *cap)
{
    struct tn_surf_ch *H = D->H;
    const int dir = D->dir;
    if (++*D->gen == 0) {
        memset(D->st, 0, 2 * ((size_t)H->nk + 1) * sizeof(kst));
        *D->gen = 1;
    }
    const uint32_t gen = *D->gen;
    kst *S = D->st + dir;
    qq Q = {H->qs.hq[dir], S, 0, gen};
    int nacc = 0, nh = 0;
    int32_t *lix = D->lix, *acc = H->qs.acc[dir];
    uint32_t *lo = D->lo;
    reach(H, &Q, acc, &nacc, r, 0, -1);
    lo[2 * (size_t)r] = (uint32_t)*n;
    const int32_t *sf = dir == 0 ? H->dnf : H->upf, *rf = dir == 0 ? H->upf : H->dnf;
    const ch_link *sl = dir == 0 ? H->dn : H->up, *rl = dir == 0 ? H->up : H->dn;
    while (Q.n > 0) {
        int v = qq_pop(&Q), dv = KS(S, v).d;
        bool stalled = false;
        for (int i = sf[v]; i < sf[v + 1] && !stalled; i++)
            stalled = KS(S, sl[i].k).seen == gen && KS(S, sl[i].k).d + sl[i].cost < dv;
        if (stalled) continue;
        if (dv > HL_MAX_COST || nh >= HL_MAX_HUBS) return HL_BIG;
        int32_t par = KS(S, v).par;
        int p = par < 0 ? 0 : 1 + lix[H->rank[dir == 0 ? H->arc[par].from : H->arc[par].to]];
        if (!grow(D->a, (void **)lab, cap, *n + 1, sizeof(hlab))) return HL_OOM;
        (*lab)[(*n)++] = (hlab){v, (uint32_t)dv << HL_PAR_BITS | (uint32_t)p};
        lix[v] = nh++;
        for (int i = rf[v]; i < rf[v + 1]; i++) {
            int w = rl[i].k, nd = dv + rl[i].cost;
            if (KS(S, w).seen == gen && nd >= KS(S, w).d) continue;
            reach(H, &Q, acc, &nacc, w, nd, rl[i].id);
        }
    }
    lo[2 * (size_t)r + 1] = (uint32_t)*n;
    int na = access_keep(H, S, acc, nacc, CH_INF, dir == 1);
    if (!grow(D->a, (void **)lab, cap, *n + (size_t)na, sizeof(hlab))) return HL_OOM;
    for (int i = 0; i < na; i++) {
        int k = acc[i], dk = KS(S, k).d;
        int32_t par = KS(S, k).par;
        if (dk > HL_MAX_COST) return HL_BIG;
        int p = par < 0 ? 0 : 1 + lix[H->rank[dir == 0 ? H->arc[par].from : H->arc[par].to]];
        (*lab)[(*n)++] = (hlab){k, (uint32_t)dk << HL_PAR_BITS | (uint32_t)p};
    }
    return 0;
}

/* All labels of one direction (D->lo allocated), then copied to their
 * exact size in D->lab. */
static int hl_dir_run(void *arg)
{
    hl_dir *D = arg;
    const int nk = D->H->nk;
    hlab *lab = NULL;
    size_t n = 0, cap = 0;
    for (int r = 0; r < nk && !D->rc; r++) {
        D->rc = hl_one(D, r, &lab, &n, &cap);
        if (!D->rc && n > UINT32_MAX / 2) D->rc = HL_BIG;
    }
    if (!D->rc) {
        D->lo[2 * (size_t)nk] = (uint32_t)n;
        D->lab = tn_alloc_array(D->a, n + 1, sizeof(hlab));
        if (D->lab) {
            if (n) memcpy(D->lab, lab, n * sizeof(hlab)); /* (no label: lab is NULL) */
        } else {
            D->rc = HL_OOM;
        }
        D->n = n;
    }
    tn_free(D->a, lab);
    return 0;
}

/* With profile.threads > 1 the two directions are built at once, the
 * second with a search state array of its own (the labels do not depend
 * on it: each is one key's search). */
tn_status tn_surf_build_labels(tn_surf *g, tn_error *err)
{
    tn_error_clear(err);
    if (!g)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no graph to build labels on (NULL)");
    g->index_rev++; /* (a sliced query under way ends) */
    struct tn_surf_ch *H = g->ch;
    if (!H)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: build the query shortcuts before their labels");
    const tn_allocator *a = &g->alloc;
    hl_free(a, H);
    const int nk = H->nk, nc = H->nc;
    const bool two = g->prof.threads > 1;
    uint32_t gen1 = 0;
    hl_dir D[2];
    memset(D, 0, sizeof D);
    for (int d = 0; d < 2; d++) {
        D[d].a = a, D[d].H = H, D[d].dir = d;
        D[d].st = H->qs.st, D[d].gen = &H->qs.gen;
        D[d].lix = tn_alloc_array(a, (size_t)nk + 1, sizeof(int32_t));
        D[d].lo = tn_alloc_array(a, 2 * (size_t)nk + 1, sizeof(uint32_t));
        if (!D[d].lix || !D[d].lo) D[0].rc = HL_OOM;
    }
    if (two && !D[0].rc) { /* the second direction's own search states */
        D[1].st = tn_alloc_array(a, 2 * ((size_t)nk + 1), sizeof(kst));
        D[1].gen = &gen1;
        if (!D[1].st) D[0].rc = HL_OOM;
    }
    if (!D[0].rc) surf_both(hl_dir_run, &D[0], hl_dir_run, &D[1], two);
    int rc = D[0].rc ? D[0].rc : D[1].rc;
    for (int d = 0; d < 2; d++) {
        H->lab[d] = D[d].lab;
        H->lo[d] = D[d].lo;
        H->lmem += (D[d].n + 1) * sizeof(hlab) + (2 * (size_t)nk + 1) * sizeof(uint32_t);
        tn_free(a, D[d].lix);
    }
    if (D[1].st != H->qs.st) tn_free(a, D[1].st);
    if (!rc) {
        H->qs.lf = tn_alloc_array(a, (size_t)nk + 1, sizeof *H->qs.lf);
        H->qs.lb = tn_alloc_array(a, (size_t)nc + 1, sizeof *H->qs.lb);
        rc = H->qs.lf && H->qs.lb ? 0 : HL_OOM;
        H->lmem += ((size_t)nk + 1) * 12 + ((size_t)nc + 1) * 16;
    }
    if (rc) {
        hl_free(a, H);
        if (rc == HL_BIG)
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "surf: a label past its format (a plan over %d frames "
                                "or over %d hubs); queries search as before",
                                HL_MAX_COST, HL_MAX_HUBS);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "surf: out of memory building the shortcuts' labels");
    }
    H->qs.lgen = 0;
    return TN_OK;
}

bool tn_surf_has_labels(const tn_surf *g) { return g && g->ch && g->ch->lab[0]; }

/* The arc v -> w (upward arcs of v) or w -> v (downward arcs into v) of
 * that cost: the one a label's search relaxed.  -1: none (cannot happen). */
static int32_t hl_arc(const int32_t *f, const ch_link *l, int v, int w, int cost)
{
    for (int i = f[v]; i < f[v + 1]; i++)
        if (l[i].k == w && l[i].cost == cost) return l[i].id;
    return -1;
}

/* ch_find with the labels: the seeds' labels in place of the searches.
 * Returns as ch_find, or HL_FALLBACK. */
static int hl_find(const tn_surf *g, tn_surf_query *q, struct ch_scratch *Z, int start,
                   const goal *G)
{
    const struct tn_surf_ch *H = g->ch;
    const int base = H->nk - H->nc, nc = H->nc;
    if (++Z->lgen == 0) {
        for (int k = 0; k <= H->nk; k++) Z->lf[k].seen = 0;
        for (int k = 0; k <= nc; k++) Z->lb[k].seen = 0;
        Z->lgen = 1;
    }
    const uint32_t gen = Z->lgen;
    int fs[2], fc[2], nfs, bs[GOAL_SEEDS], bc[GOAL_SEEDS], mu, direct;
    int nbs = query_seeds(H, g, start, G, fs, fc, &nfs, bs, bc, &mu, &direct);
    /* forward: the seeds' hubs and access keys, the cheapest per key */
    const hlab *LF = H->lab[0], *LB = H->lab[1];
    int naf = 0, nab = 0;
    int32_t *af = Z->acc[0], *ab = Z->acc[1];
    for (int i = 0; i < nfs; i++) {
        const uint32_t *o = H->lo[0] + 2 * (size_t)fs[i];
        for (uint32_t e = o[0]; e < o[2]; e++) {
            int k = LF[e].k, c = fc[i] + HL_COST(LF[e]);
            struct hl_fwd *F = &Z->lf[k];
            if (F->seen != gen) {
                F->seen = gen;
                if (e >= o[1]) af[naf++] = k;
            } else if (c >= F->d) {
                continue;
            }
            F->d = c;
            F->src = (int32_t)(e << 1 | (uint32_t)i);
        }
    }
    /* backward: meetings at hubs, and the access keys */
    int meet = -1, mj = -1;
    uint32_t me = 0;
    for (int j = 0; j < nbs; j++) {
        const uint32_t *o = H->lo[1] + 2 * (size_t)bs[j];
        for (uint32_t e = o[0]; e < o[1]; e++) {
            int k = LB[e].k, c = bc[j] + HL_COST(LB[e]);
            if (Z->lf[k].seen == gen && Z->lf[k].d + c < mu)
                mu = Z->lf[k].d + c, meet = k, mj = j, me = e;
        }
        for (uint32_t e = o[1]; e < o[2]; e++) {
            int k = LB[e].k - base, c = bc[j] + HL_COST(LB[e]);
            struct hl_bwd *B = &Z->lb[k];
            if (B->seen != gen) {
                B->seen = gen;
                ab[nab++] = k + base;
            } else if (c >= B->d) {
                continue;
            }
            B->d = c;
            B->src = (int32_t)e;
            B->seed = j;
        }
    }
    /* through the core: pairs in increasing cost each way, while they can
     * still beat mu (a table cost is never negative) */
    for (int i = 1; i < naf; i++) {
        int32_t k = af[i];
        int j = i;
        for (; j > 0 && Z->lf[af[j - 1]].d > Z->lf[k].d; j--) af[j] = af[j - 1];
        af[j] = k;
    }
    for (int i = 1; i < nab; i++) {
        int32_t k = ab[i];
        int j = i;
        for (; j > 0 && Z->lb[ab[j - 1] - base].d > Z->lb[k - base].d; j--) ab[j] = ab[j - 1];
        ab[j] = k;
    }
    int ca = -1, cb = -1;
    for (int i = 0; i < naf && nab > 0; i++) {
        int x = af[i], dx = Z->lf[x].d;
        if (dx + Z->lb[ab[0] - base].d >= mu) break;
        const int32_t *row = H->dist + (size_t)(x - base) * nc - base;
        for (int k = 0; k < nab; k++) {
            int y = ab[k], dy = Z->lb[y - base].d;
            if (dx + dy >= mu) break;
            if (row[y] >= CH_INF) continue;
            int c = dx + row[y] + dy;
            if (c < mu) mu = c, ca = x, cb = y, meet = -1;
        }
    }
    if (mu >= CH_INF) return -1;
    if (plan_begin(q, start, meet < 0 && ca < 0, direct, mu)) return direct;
    /* forward: from the label entry of meet (or ca) back to its seed, the
     * arcs onto the stack's top end */
    int x = ca >= 0 ? ca : meet, nf = 0, cap = 2 * H->nk + 64;
    int fi = Z->lf[x].src & 1;
    uint32_t fe = (uint32_t)Z->lf[x].src >> 1, f0 = H->lo[0][2 * (size_t)fs[fi]];
    for (uint32_t e = fe; HL_PAR(LF[e]);) {
        uint32_t p = f0 + (uint32_t)HL_PAR(LF[e]) - 1;
        int32_t id = hl_arc(H->upf, H->up, LF[p].k, LF[e].k, HL_COST(LF[e]) - HL_COST(LF[p]));
        if (id < 0) return HL_FALLBACK;
        Z->stack[cap - 1 - nf++] = id;
        e = p;
    }
    planw P = {start, H->rnode[fs[fi]], fc[fi]}; /* walked to the seed */
    for (int i = cap - nf; i < cap; i++) unpack(q, H, Z, Z->stack[i], &P);
    if (ca >= 0) { /* the core's plan, then cb's entry */
        unpack_core(q, H, Z, ca, cb, &P);
        mj = Z->lb[cb - base].seed;
        me = (uint32_t)Z->lb[cb - base].src;
    }
    /* backward: from that entry (meet's or cb's) in goal seed mj's label to
     * the seed */
    uint32_t b0 = H->lo[1][2 * (size_t)bs[mj]];
    for (uint32_t e = me; HL_PAR(LB[e]);) {
        uint32_t p = b0 + (uint32_t)HL_PAR(LB[e]) - 1;
        int32_t id = hl_arc(H->dnf, H->dn, LB[p].k, LB[e].k, HL_COST(LB[e]) - HL_COST(LB[p]));
        if (id < 0) return HL_FALLBACK;
        unpack(q, H, Z, id, &P);
        e = p;
    }
    return plan_end(g, q, G, &P);
}

/* ---- a query object's scratch --------------------------------------------- */

void ch_scratch_free(tn_surf_query *q)
{
    struct ch_scratch *S = q->chs;
    if (!S) return;
    const tn_allocator *a = &q->alloc;
    tn_free(a, S->st);
    for (int d = 0; d < 2; d++) {
        tn_free(a, S->hq[d]);
        tn_free(a, S->acc[d]);
    }
    tn_free(a, S->stack);
    tn_free(a, S->lf);
    tn_free(a, S->lb);
    tn_free(a, S);
    q->chs = NULL;
    q->chs_mem = 0;
}

bool ch_scratch_fit(tn_surf_query *q, const tn_surf *g)
{
    ch_scratch_free(q);
    const struct tn_surf_ch *H = g->ch;
    if (!H) return true;
    const tn_allocator *a = &q->alloc;
    const size_t nk = (size_t)H->nk, nc = (size_t)H->nc;
    struct ch_scratch *S = tn_alloc(a, sizeof *S); /* (zeroed: gen 0, no arrays) */
    if (!S) return false;
    q->chs = S;
    S->st = tn_alloc_array(a, 2 * (nk + 1), sizeof(kst)); /* stamps: zeroed */
    bool ok = S->st;
    for (int d = 0; d < 2; d++) {
        S->hq[d] = alloc_unzeroed(a, nk + 1, sizeof(hent));
        S->acc[d] = alloc_unzeroed(a, nc + 1, sizeof(int32_t));
        ok = ok && S->hq[d] && S->acc[d];
    }
    S->stack = alloc_unzeroed(a, 2 * nk + 64, sizeof(int32_t));
    ok = ok && S->stack;
    size_t mem = sizeof *S + 2 * (nk + 1) * sizeof(kst) + 2 * (nk + 1) * sizeof(hent) +
                 2 * (nc + 1) * 4 + (2 * nk + 64) * 4;
    if (H->lab[0]) {
        S->lf = tn_alloc_array(a, nk + 1, sizeof *S->lf);
        S->lb = tn_alloc_array(a, nc + 1, sizeof *S->lb);
        ok = ok && S->lf && S->lb;
        mem += (nk + 1) * sizeof *S->lf + (nc + 1) * sizeof *S->lb;
    }
    if (!ok) {
        ch_scratch_free(q);
        return false;
    }
    S->nk = H->nk, S->nc = H->nc;
    q->chs_mem = mem;
    return true;
}

bool ch_scratch_fits(const tn_surf_query *q, const tn_surf *g)
{
    const struct tn_surf_ch *H = g->ch;
    const struct ch_scratch *S = q->chs;
    if (!H) return !S; /* (a scratch without shortcuts: freed) */
    /* (the same counts, not more: a stamp wrap clears the keys there are) */
    return S && S->nk == H->nk && S->nc == H->nc && (!H->lab[0] || S->lf);
}
