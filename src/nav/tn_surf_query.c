/* SPDX-License-Identifier: Zlib */
/* tn_surf_query.c - the graph planner's query index (kept edges, take-off
 * chains, landmark tables, patched after each repair) and its queries
 * (tn_surf_find and friends). The graph, its build and repairs are in
 * tn_surf.c; the query shortcuts and hub labels in tn_surf_ch.c. */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/surf_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define T ((float)TN_TILE_PX)

/* ---- query --------------------------------------------------------------- */

/* The query index, made by query_index_build() after every build and
 * repair (once edge_first is set; the build and the repair call it, one
 * line each; free_graph_arrays frees it):
 *  - the kept edges (qedge, per take-off node: qefirst), without the
 *    dominated ones (prune_run / prune_recs);
 *  - qto[qfirst[s] .. qfirst[s+1]-1]: the take-off nodes of surface s
 *    (nodes with a kept edge), in order of j.  Walking is implicit: from a
 *    node the search only goes to the nearest take-off on each side (the
 *    take-off nodes of a surface form a chain), to the goal span, and
 *    along edges;
 *  - landmarks (ALT), by default on graphs of Q_LM_NODES+ nodes
 *    (tn_surf_set_landmarks): for nlm landmark nodes L, the exact plan
 *    costs d(L, n) and d(n, L) of every node n (lm, per node: nlm forward,
 *    then nlm backward), by one Dijkstra each way over the node graph.  By
 *    the triangle inequality d(L, goal) - d(L, n) and d(n, L) - d(goal, L)
 *    are admissible and consistent; an infinite one proves that n cannot
 *    reach the goal (such nodes are searched last, as by Dijkstra);
 *  - without landmarks, the surface graph of the detour bound (sa, by
 *    landing surface; heur_detour).
 * All of it is recomputed on every build and repair, so never stale; the
 * search state (qn, qh) is sized here too. */
typedef struct sarc { /* surface graph arc from -> (the list's surface) */
    int32_t from;
    int16_t wr, wl, w0, pad; /* least reduced frames: goal right / left / any */
} sarc;
typedef struct qnode {
    uint32_t stamp;
    int32_t g, f, parent, pedge, hpos;
} qnode;
typedef struct qheap {
    int32_t f, g, n;
} qheap;

void query_state_free_nodes(const tn_allocator *a, struct tn_surf_query *q)
{
    int32_t *arr[] = {q->gcost, q->parent, q->pedge, q->order, q->heap, q->hpos, q->tmp};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) tn_free(a, arr[i]);
    tn_free(a, q->stamp);
    q->gcost = q->parent = q->pedge = q->order = q->heap = q->hpos = q->tmp = NULL;
    q->stamp = NULL;
}

void query_state_free_surfs(const tn_allocator *a, struct tn_surf_query *q)
{
    int32_t *arr[] = {q->sd, q->sheap, q->shpos, q->squeue};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) tn_free(a, arr[i]);
    tn_free(a, q->sseen);
    tn_free(a, q->sdone);
    tn_free(a, q->sreach);
    q->sd = q->sheap = q->shpos = q->squeue = NULL;
    q->sseen = q->sdone = q->sreach = NULL;
}

void query_index_free(tn_surf *g)
{
    const tn_allocator *a = &g->alloc;
    g->index_rev++; /* (a sliced query under way ends) */
    ch_free(g);
    tn_free(a, g->qto);
    tn_free(a, g->qfirst);
    tn_free(a, g->qefirst);
    tn_free(a, g->qedge);
    tn_free(a, g->lm);
    tn_free(a, g->qs.qn);
    tn_free(a, g->qs.qh);
    tn_free(a, g->ifirst);
    tn_free(a, g->ifrom);
    tn_free(a, g->ifr);
    tn_free(a, g->sa_first);
    tn_free(a, g->sa);
    query_state_free_surfs(a, &g->qs);
    tn_free(a, g->sr_first);
    tn_free(a, g->sr_to);
    g->sr_first = g->sr_to = NULL;
    g->sa_first = NULL;
    g->sa = NULL;
    g->qto = g->qfirst = g->qefirst = g->lm = NULL;
    g->qedge = NULL;
    g->qs.qn = NULL;
    g->qs.qn_cap = 0;
    g->qs.qh = NULL;
    g->ifirst = g->ifrom = NULL;
    g->ifr = NULL;
    g->nlm = 0;
    g->lm_cap = 0;
    g->qindex = false;
}

/* A binary min-heap of ids keyed by key[id], each id's slot in pos[] (the
 * landmark tables' update and the detour search).  iheap_up: id, whose key
 * dropped, rises from slot i; iheap_root: id (the old last entry) takes
 * the root of a heap of n entries and sinks. */
static void iheap_up(int32_t *heap, int32_t *pos, const int32_t *key, int i, int id)
{
    while (i > 0) {
        int p = (i - 1) / 2;
        if (key[heap[p]] <= key[id]) break;
        heap[i] = heap[p];
        pos[heap[i]] = i;
        i = p;
    }
    heap[i] = id;
    pos[id] = i;
}

static void iheap_root(int32_t *heap, int32_t *pos, const int32_t *key, int n, int id)
{
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && key[heap[c + 1]] < key[heap[c]]) c++;
        if (key[heap[c]] >= key[id]) break;
        heap[i] = heap[c];
        pos[heap[i]] = i;
        i = c;
    }
    heap[i] = id;
    pos[id] = i;
}

/* The kept edges as arcs for the landmark searches (never the big edge
 * array): out of node n the records oq[ofirst[n] .. ofirst[n + 1] - 1]
 * (their landing node and frames); into node n ifirst[n] .. ifirst[n + 1]
 * - 1, each from ifrom[k] in ifr[k] frames. */
typedef struct karcs {
    const int32_t *ofirst;
    const qedge *oq;
    const int32_t *ifirst, *ifrom;
    const uint16_t *ifr;
} karcs;

/* Counting sort of the kept arcs by landing node (ifirst: nnodes + 2);
 * tails in increasing order. */
static void arcs_by_landing(int nn, const int32_t *ofirst, const qedge *oq, int32_t *ifirst,
                            int32_t *ifrom, uint16_t *ifr)
{
    memset(ifirst, 0, ((size_t)nn + 2) * sizeof *ifirst);
    for (int i = 0; i < ofirst[nn]; i++) ifirst[oq[i].to + 2]++;
    for (int n = 0; n < nn; n++) ifirst[n + 2] += ifirst[n + 1];
    for (int n = 0; n < nn; n++)
        for (int i = ofirst[n]; i < ofirst[n + 1]; i++) {
            int k = ifirst[oq[i].to + 1]++;
            ifrom[k] = n;
            ifr[k] = oq[i].frames;
        }
}

/* Buckets of lm_dijkstra's queue: one per cost modulo LM_NB.  An arc
 * costs at most 65535 frames (uint16), so the open nodes' costs lie within
 * LM_NB of the least one and each bucket holds one cost. */
#define LM_NB 65537

/* Dijkstra over the node graph from node src into dist (Q_INF where
 * unreached): walks of one step (cost 1) and the kept edges, forward
 * or backward (back: the arcs into each node).  The queue is a bucket
 * queue (Dial's): costs are integers, so the least open cost is found by
 * moving a cursor up the costs, each bucket a doubly linked list of
 * nodes (next, prev: nnodes entries of scratch; prev -2: not reached, -1:
 * done, -3: first in its bucket).  head: LM_NB buckets, all empty (-1)
 * before and after. */
static void lm_dijkstra(const tn_surf *g, bool back, const karcs *A, int src, int32_t *dist,
                        int32_t *next, int32_t *prev, int32_t *head)
{
    const int32_t *first = back ? A->ifirst : A->ofirst;
    int nn = g->nnodes;
    for (int n = 0; n < nn; n++) dist[n] = Q_INF, prev[n] = -2;
    dist[src] = 0;
    next[src] = -1, prev[src] = -3, head[0] = src;
    int open = 1;
    for (int32_t cur = 0; open > 0;) {
        while (head[cur % LM_NB] < 0) cur++;
        const int n = head[cur % LM_NB];
        head[cur % LM_NB] = next[n];
        if (next[n] >= 0) prev[next[n]] = -3;
        prev[n] = -1;
        open--;
        const tn_surf_surface *S = &g->surf[g->node_surf[n]];
        int k0 = first[n], k1 = first[n + 1];
        for (int k = k0 - 2; k < k1; k++) {
            int t, nd;
            if (k == k0 - 2) {
                if (n == S->node0) continue;
                t = n - 1, nd = dist[n] + 1;
            } else if (k == k0 - 1) {
                if (n == S->node0 + (S->j1 - S->j0)) continue;
                t = n + 1, nd = dist[n] + 1;
            } else {
                t = back ? A->ifrom[k] : A->oq[k].to;
                nd = dist[n] + (back ? A->ifr[k] : A->oq[k].frames);
            }
            if (prev[t] == -1 || nd >= dist[t]) continue;
            if (prev[t] == -2) { /* reached first */
                open++;
            } else { /* out of its bucket */
                if (prev[t] == -3)
                    head[dist[t] % LM_NB] = next[t];
                else
                    next[prev[t]] = next[t];
                if (next[t] >= 0) prev[next[t]] = prev[t];
            }
            dist[t] = nd;
            const int b = nd % LM_NB;
            next[t] = head[b], prev[t] = -3;
            if (head[b] >= 0) prev[head[b]] = t;
            head[b] = t;
        }
    }
}

/* How many landmarks the graph gets (lm_want: 0 default, -1 none, k; no
 * more than it has nodes: the landmarks are distinct, see lm_build). */
int lm_count(const tn_surf *g)
{
    if (g->nnodes == 0) return 0;
    if (g->lm_want > 0) {
        const int k = g->lm_want < Q_LM ? g->lm_want : Q_LM;
        return k < g->nnodes ? k : g->nnodes;
    }
    return g->lm_want == 0 && g->nnodes >= Q_LM_NODES ? Q_LM_AUTO : 0;
}

bool lm_saved_count(const tn_surf *g, int k)
{
    if (k == lm_count(g)) return true;
    /* (before the cap: the setting's count however few the nodes) */
    return g->nnodes > 0 && k > g->nnodes && g->lm_want > 0 &&
           k == (g->lm_want < Q_LM ? g->lm_want : Q_LM);
}

/* One of lm_build's searches: its scratch and its direction. */
typedef struct lm_job {
    const tn_surf *g;
    const karcs *A;
    bool back;
    int src;
    int32_t *dist, *next, *prev, *head;
} lm_job;

static int lm_job_run(void *arg)
{
    const lm_job *j = arg;
    lm_dijkstra(j->g, j->back, j->A, j->src, j->dist, j->next, j->prev, j->head);
    return 0;
}

/* Landmarks that cover the graph's one-way parts.  A landmark L bounds a
 * query (s, goal) only when L reaches s (d(L, goal) - d(L, s)) or the
 * goal reaches L (d(s, L) - d(goal, L)).  A platformer's graph is far from
 * strongly connected: ledges high up only fall, pits only collect.  Chosen
 * farthest-first, all 8 landmarks of a 512x512 level lay in its big middle
 * part and 28% of random reachable pairs had none that bounds them (3x the
 * expansions of the others).  lmcov counts, over the surface graph
 * (sr_first / sr_to; a surface's nodes reach one another by walking), the
 * nodes a candidate would cover: those it reaches that no landmark
 * reaches, and those reaching it that reach no landmark.  docs/perf.md,
 * "Landmarks that cover the one-way parts". */
typedef struct lmcov {
    int32_t *rfirst, *rto; /* the surface graph reversed */
    uint8_t *covf, *covb;  /* per surface: a landmark reaches it; it reaches one */
    int32_t *queue;
    uint32_t *seen, stamp;
} lmcov;

static bool lmcov_init(const tn_surf *g, lmcov *c)
{
    const tn_allocator *a = &g->alloc;
    const int ns = g->nsurf, na = g->sr_first ? g->sr_first[ns] : 0;
    memset(c, 0, sizeof *c);
    if (!g->sr_first) return false;
    c->rfirst = tn_alloc_array(a, (size_t)ns + 2, sizeof(int32_t));
    c->rto = alloc_unzeroed(a, (size_t)na + 1, sizeof(int32_t));
    c->covf = tn_alloc_array(a, (size_t)ns + 1, 1);
    c->covb = tn_alloc_array(a, (size_t)ns + 1, 1);
    c->queue = alloc_unzeroed(a, (size_t)ns + 1, sizeof(int32_t));
    c->seen = tn_alloc_array(a, (size_t)ns + 1, sizeof(uint32_t));
    if (!c->rfirst || !c->rto || !c->covf || !c->covb || !c->queue || !c->seen) return false;
    for (int i = 0; i < na; i++) c->rfirst[g->sr_to[i] + 2]++;
    for (int t = 0; t < ns; t++) c->rfirst[t + 2] += c->rfirst[t + 1];
    for (int s = 0; s < ns; s++)
        for (int i = g->sr_first[s]; i < g->sr_first[s + 1]; i++)
            c->rto[c->rfirst[g->sr_to[i] + 1]++] = s;
    return true;
}

static void lmcov_free(const tn_surf *g, lmcov *c)
{
    const tn_allocator *a = &g->alloc;
    tn_free(a, c->rfirst);
    tn_free(a, c->rto);
    tn_free(a, c->covf);
    tn_free(a, c->covb);
    tn_free(a, c->queue);
    tn_free(a, c->seen);
}

/* The nodes surface s0 would cover as a landmark (see lmcov). */
static long lmcov_gain(const tn_surf *g, lmcov *c, int s0)
{
    long gain = 0;
    for (int back = 0; back < 2; back++) {
        const int32_t *first = back ? c->rfirst : g->sr_first, *to = back ? c->rto : g->sr_to;
        const uint8_t *cov = back ? c->covb : c->covf;
        int k = 0;
        c->stamp++;
        c->seen[s0] = c->stamp;
        c->queue[k++] = s0;
        for (int h = 0; h < k; h++) {
            const int s = c->queue[h];
            const tn_surf_surface *S = &g->surf[s];
            if (!cov[s]) gain += S->j1 - S->j0 + 1;
            for (int i = first[s]; i < first[s + 1]; i++)
                if (c->seen[to[i]] != c->stamp) c->seen[to[i]] = c->stamp, c->queue[k++] = to[i];
        }
    }
    return gain;
}

#define LM_CANDS 8 /* candidates of each kind a pick weighs (4-16 alike) */

/* Whether node n is one of landmarks 0 .. k. */
static bool lm_chosen(const tn_surf *g, int k, int n)
{
    for (int i = 0; i <= k; i++)
        if (g->lmnode[i] == n) return true;
    return false;
}

/* The next landmark: the candidate that covers the most nodes, of the
 * farthest node `far` and the highest surfaces no landmark reaches and
 * the lowest that reach none (falling reaches much of what is below). */
static int lmcov_pick(const tn_surf *g, lmcov *c, int far)
{
    int cand[2 * LM_CANDS], nc[2] = {0, 0};
    for (int s = 0; s < g->nsurf; s++)
        for (int kind = 0; kind < 2; kind++) {
            if (kind ? c->covb[s] : c->covf[s]) continue;
            int *C = cand + kind * LM_CANDS, n = nc[kind];
            const int row = g->surf[s].row;
            /* kind 0: the least rows first; kind 1: the greatest */
            int i = n < LM_CANDS ? n++ : LM_CANDS;
            while (i > 0 && (kind ? row > g->surf[C[i - 1]].row : row < g->surf[C[i - 1]].row)) {
                if (i < LM_CANDS) C[i] = C[i - 1];
                i--;
            }
            if (i < LM_CANDS) C[i] = s;
            nc[kind] = n;
        }
    int best = far;
    long bg = lmcov_gain(g, c, g->node_surf[far]);
    for (int kind = 0; kind < 2; kind++)
        for (int i = 0; i < nc[kind]; i++) {
            const int s = cand[kind * LM_CANDS + i];
            const long gn = lmcov_gain(g, c, s);
            if (gn > bg) bg = gn, best = g->surf[s].node0 + (g->surf[s].j1 - g->surf[s].j0) / 2;
        }
    return best;
}

/* The landmark tables over the kept edges (A); false on OOM (then none).
 * With profile.threads > 1 the two directions of each landmark are
 * searched at once (surf_both), each with scratch of its own: the choice
 * of the next landmark needs both, so that is all the parallelism there
 * is (at 1024x1024 the tables were 276 ms of a 4.3 s build).  Each
 * round's two columns are written in one pass (a node's row of the table
 * is one cache line), the next landmark chosen in the same pass. */
static bool lm_build(tn_surf *g, const karcs *A)
{
    const tn_allocator *a = &g->alloc;
    int nn = g->nnodes, K = lm_count(g);
    if (K == 0) return true;
    const bool two = g->prof.threads > 1;
    lm_job J[2];
    bool ok = true;
    for (int b = 0; b < 2; b++) {
        J[b] = (lm_job){g, A, b == 1, 0, NULL, NULL, NULL, NULL};
        J[b].dist = tn_alloc_array(a, (size_t)nn, sizeof(int32_t));
        ok = ok && J[b].dist;
        if (b == 1 && !two) { /* one after the other: the queue's scratch shared */
            J[1].next = J[0].next, J[1].prev = J[0].prev, J[1].head = J[0].head;
            break;
        }
        J[b].next = tn_alloc_array(a, (size_t)nn, sizeof(int32_t));
        J[b].prev = tn_alloc_array(a, (size_t)nn, sizeof(int32_t));
        J[b].head = alloc_unzeroed(a, LM_NB, sizeof(int32_t));
        ok = ok && J[b].next && J[b].prev && J[b].head;
        for (int k = 0; J[b].head && k < LM_NB; k++) J[b].head[k] = -1;
    }
    int32_t *score = tn_alloc_array(a, (size_t)nn, sizeof(int32_t));
    g->lm_cap = (size_t)nn + (size_t)nn / 16 + 64; /* room for repairs (lm_update) */
    g->lm = tn_alloc_array(a, (size_t)2 * K * g->lm_cap, sizeof(int32_t));
    ok = ok && score && g->lm;
    lmcov cov;
    memset(&cov, 0, sizeof cov);
    const bool cov_ok = ok && lmcov_init(g, &cov);
    if (ok) {
        /* landmarks: the first the node farthest (there and back) from the
         * middle node, the next ones in turn the node that lmcov_pick
         * finds covers the most nodes (ties: the farthest) and the node
         * farthest from those chosen.  Only one or the other did worse:
         * farthest alone left pairs without a bounding landmark, covering
         * alone proved fewer goals unreachable (docs/perf.md).  The
         * farthest counts a node a landmark does not reach either way as
         * 0 from it: on a graph of parts that do not reach one another
         * (or small, 8-16 landmarks on 1,000 nodes) every node came to
         * score 0 and the landmark just chosen was chosen again, its
         * tables a copy.  So score[n] keeps both: its least cost over the
         * landmarks that reach it or that it reaches (tscore, Q_INF when
         * none does), negated (-1 - tscore) once a landmark does neither
         * (the farthest's score then 0, as it was).  When no node
         * scores above 0 the next is the node of greatest tscore below
         * Q_INF (the farthest within its part from the landmarks there),
         * else one no landmark touches (its part has none yet; lmcov_pick
         * weighs those parts too), else any node not chosen: the
         * landmarks are distinct (lm_count is at most the nodes) */
        int L = nn / 2;
        for (int n = 0; n < nn; n++) score[n] = Q_INF;
        for (int k = -1; k < K && ok; k++) {
            if (tn_surfi_cancelled(g)) { /* (a build told to stop: no tables) */
                ok = false;
                break;
            }
            if (k >= 0) g->lmnode[k] = L;
            J[0].src = J[1].src = L;
            if (two) {
                surf_both(lm_job_run, &J[0], lm_job_run, &J[1], true);
            } else {
                lm_job_run(&J[0]);
                lm_job_run(&J[1]);
            }
            const int32_t *d0 = J[0].dist, *d1 = J[1].dist;
            int32_t *row = g->lm + (k >= 0 ? k : 0);
            const size_t K2 = 2 * (size_t)K;
            int next = L, bs = 0, alt = -1, bt = 0, lone = -1;
            for (int n = 0; n < nn; n++, row += K2) {
                const int a0 = d0[n], a1 = d1[n];
                int v = (a0 < Q_INF ? a0 : 0) + (a1 < Q_INF ? a1 : 0);
                if (k >= 0) {
                    row[0] = a0, row[K] = a1;
                    bool apart = score[n] < 0;
                    int ts = apart ? -1 - score[n] : score[n];
                    if (a0 >= Q_INF && a1 >= Q_INF)
                        apart = true;
                    else if (v < ts)
                        ts = v;
                    score[n] = apart ? -1 - ts : ts;
                    v = apart ? 0 : ts;
                    if (ts >= Q_INF)
                        lone = lone < 0 ? n : lone;
                    else if (ts > bt)
                        bt = ts, alt = n;
                }
                if (v > bs) bs = v, next = n;
            }
            if (k >= 0 && k + 1 < K && bs == 0) /* (no node scores: see above) */
                next = alt >= 0 ? alt : lone >= 0 ? lone : L;
            if (k >= 0 && cov_ok) {
                for (int t = 0; t < g->nsurf; t++) {
                    const int n0 = g->surf[t].node0;
                    cov.covf[t] |= d0[n0] < Q_INF;
                    cov.covb[t] |= d1[n0] < Q_INF;
                }
                if (k % 2 == 0 && k + 1 < K) next = lmcov_pick(g, &cov, next);
            }
            if (k >= 0 && k + 1 < K && lm_chosen(g, k, next)) /* (all tscore 0; or lmcov_pick) */
                for (next = 0; next < nn - 1 && lm_chosen(g, k, next);) next++;
            L = next;
        }
    }
    lmcov_free(g, &cov);
    for (int b = 0; b < 2; b++) {
        tn_free(a, J[b].dist);
        if (b == 1 && !two) break;
        tn_free(a, J[b].next);
        tn_free(a, J[b].prev);
        tn_free(a, J[b].head);
    }
    tn_free(a, score);
    if (!ok) return false;
    g->nlm = K;
    g->lm_recomputes += 2 * K;
    return true;
}

/* The landmark tables of a saved graph (tn_surf_load), proved to be the
 * graph's before use, in one pass over its arcs instead of 2 x landmarks
 * Dijkstra searches.  Costs d (0 .. Q_INF, Q_INF: unreached) from a
 * landmark L are its exact plan costs D when
 *   (a) d(L) = 0 and d(n) > 0 elsewhere,
 *   (b) every arc u -> v of c frames has d(v) <= d(u) + c (d(u) finite),
 *   (c) every n with 0 < d(n) < Q_INF has a tight arc into it: d(u) + c
 *       = d(n).
 * (b) along a shortest path gives d <= D.  By (c) and (a) a finite d(n)
 * starts a chain of tight arcs backward whose costs fall (every arc costs
 * a frame or more) until they reach 0, which is L: a path of cost d(n), so
 * D <= d(n) and n is reached; and a node that L reaches has a finite d by
 * (b).  Costs to a landmark are the same on the reversed arcs.  The arcs
 * are the ones lm_build searches (walks and kept edges, A).  False: out of
 * memory (no tables), or the tables are not the graph's (g->lm_bad set to
 * 1 + the column, g->lm_bad_node to the node).  Exact tables with a
 * landmark twice (lm_build chose them so until 2026-12-07; also every save
 * of more tables than nodes, lm_saved_count) are dropped and the landmarks
 * chosen again (lm_build: lm_count of them). */
static bool lm_take(tn_surf *g, const karcs *A)
{
    const tn_allocator *a = &g->alloc;
    const surf_blob *L = g->blob;
    const int nn = g->nnodes, K = L->nlm, K2 = 2 * K;
    g->lm_cap = (size_t)nn + (size_t)nn / 16 + 64; /* room for repairs (lm_update) */
    g->lm = alloc_unzeroed(a, (size_t)K2 * g->lm_cap, sizeof(int32_t));
    uint32_t *tight = tn_alloc_array(a, (size_t)nn, sizeof(uint32_t)); /* bit: column */
    if (!g->lm || !tight) {
        tn_free(a, tight);
        return false;
    }
    int32_t *lm = g->lm;
    const size_t cells = (size_t)nn * (size_t)K2;
    memset(lm + cells, 0, ((size_t)K2 * g->lm_cap - cells) * sizeof *lm); /* the room, as built */
    int bad_col = -1, bad_node = 0;
    if (!tn_surfi_blob_landmarks(L, g, g->lmnode, lm)) {
        bad_col = 0, bad_node = -1;
        goto out;
    }
    for (int u = 0; u < nn && bad_col < 0; u++) {
        const tn_surf_surface *S = &g->surf[g->node_surf[u]];
        const int32_t *du = lm + (size_t)u * (size_t)K2;
        for (int k = A->ofirst[u] - 2; k < A->ofirst[u + 1]; k++) {
            int v, c;
            if (k == A->ofirst[u] - 2) { /* the walks */
                if (u == S->node0) continue;
                v = u - 1, c = 1;
            } else if (k == A->ofirst[u] - 1) {
                if (u == S->node0 + (S->j1 - S->j0)) continue;
                v = u + 1, c = 1;
            } else {
                v = A->oq[k].to, c = A->oq[k].frames;
                if (k + 16 < A->ofirst[nn]) /* (the landing rows are far apart) */
                    __builtin_prefetch(lm + (size_t)A->oq[k + 16].to * (size_t)K2);
            }
            /* (an unreached end costs Q_INF: its sum passes Q_INF, which no
             * cost does, so it neither fails nor makes a tight arc) */
            const int32_t *dv = lm + (size_t)v * (size_t)K2;
            uint32_t over = 0, tv = 0, tu = 0;
            for (int f = 0; f < K; f++) { /* from the landmarks: into v */
                over |= (uint32_t)(dv[f] > du[f] + c) << f;
                tv |= (uint32_t)(dv[f] == du[f] + c) << f;
            }
            for (int f = K; f < K2; f++) { /* to them: out of u */
                over |= (uint32_t)(du[f] > dv[f] + c) << f;
                tu |= (uint32_t)(du[f] == dv[f] + c) << f;
            }
            tight[v] |= tv, tight[u] |= tu;
            if (over) {
                bad_col = __builtin_ctz(over), bad_node = bad_col < K ? v : u;
                break;
            }
        }
    }
    for (int n = 0; n < nn && bad_col < 0; n++) {
        const int32_t *dn = lm + (size_t)n * (size_t)K2;
        for (int f = 0; f < K2; f++) {
            const bool at_l = n == g->lmnode[f % K];
            if (at_l ? dn[f] != 0 : dn[f] == 0 || (dn[f] < Q_INF && !(tight[n] >> f & 1u))) {
                bad_col = f, bad_node = n;
                break;
            }
        }
    }
out:
    tn_free(a, tight);
    if (bad_col >= 0) {
        g->lm_bad = 1 + bad_col, g->lm_bad_node = bad_node;
        return false;
    }
    for (int k = 1; k < K; k++)
        if (lm_chosen(g, k - 1, g->lmnode[k])) { /* a landmark twice (saved before */
            tn_free(a, g->lm);                   /* 2026-12-07): chosen again */
            g->lm = NULL;
            return lm_build(g, A);
        }
    g->nlm = K;
    return true;
}

/* ---- the landmark tables after a local repair ---------------------------
 * Recomputing them takes 2 x landmarks Dijkstra searches over the whole
 * graph, most of a repair on big levels; an edit changes a few arcs, so the
 * tables are updated from the old ones instead: per table (one landmark,
 * one direction) a dynamic shortest-path update in the manner of Ramalingam
 * and Reps.
 *  1. Which nodes' costs may rise.  In increasing old cost, from the heads
 *     of the tight arcs lost (a kept edge gone or now dominated; later an
 *     arc out of a node found affected): a node whose cost an arc from a
 *     node not affected still gives ("supported") keeps it; otherwise it
 *     is affected (cost unknown) and its tight successors are checked in
 *     turn.  New nodes (of new or changed surfaces) start affected.
 *  2. A Dijkstra from the affected nodes (each seeded by its best arc from
 *     the rest) and from the heads of new edges that lower a cost.
 * Every cost is positive, so a node's tight predecessors are decided before
 * it.  The arcs are the walks and the kept edges (karcs), those of the
 * full build (a dominated edge never gives a lower cost), and the changes
 * are the kept edges listed gone, lost (now dominated) and new (made, or
 * no longer dominated).  A table whose affected nodes pass a quarter of
 * the nodes is recomputed whole (lm_dijkstra).  tests/test_surf checks
 * every table after random edits against a Dijkstra of its own. */

typedef struct lmctx {
    const tn_surf *g;
    const karcs *A; /* the arcs */
    int32_t *lm;    /* the new tables */
    int K2, col;
} lmctx;

#define LM_CAND 1 /* step 1: queued for the support check */
#define LM_OK 2   /* step 1: supported, keeps its cost */
#define LM_AFF 3  /* affected: cost unknown, then searched again */

static inline int32_t *lm_cost(const lmctx *c, int n) { return &c->lm[(size_t)n * c->K2 + c->col]; }

/* Arc i of node n, i = -2, -1 (the walks left and right, if n has that
 * neighbour on its surface), then 0 .. lm_narcs - 1 (the edges): its other
 * end, and its cost in *w.  out: the edges leaving n, else those landing
 * on n.  False for a missing walk. */
static inline int lm_narcs(const lmctx *c, int n, bool out)
{
    const int32_t *first = out ? c->A->ofirst : c->A->ifirst;
    return first[n + 1] - first[n];
}

static inline bool lm_arc(const lmctx *c, int n, bool out, int i, int *other, int *w)
{
    const tn_surf *g = c->g;
    if (i < 0) {
        const tn_surf_surface *S = &g->surf[g->node_surf[n]];
        *other = n + (i == -2 ? -1 : 1);
        *w = 1;
        return i == -2 ? n > S->node0 : n < S->node0 + (S->j1 - S->j0);
    }
    const karcs *A = c->A;
    const int k = (out ? A->ofirst[n] : A->ifirst[n]) + i;
    *other = out ? A->oq[k].to : A->ifrom[k];
    *w = out ? A->oq[k].frames : A->ifr[k];
    return true;
}

typedef struct lmscratch {
    int32_t *heap, *hpos, *key, *affl;
    uint32_t *ep; /* a node's st / hpos are valid when ep == the current epoch */
    uint8_t *st;
    uint32_t epoch;
} lmscratch;

static void lm_push(lmscratch *s, int *hn, int n, int32_t key)
{
    s->key[n] = key;
    iheap_up(s->heap, s->hpos, s->key, (*hn)++, n);
}

static int lm_pop(lmscratch *s, int *hn)
{
    int n = s->heap[0];
    s->hpos[n] = -1;
    int last = s->heap[--*hn];
    if (*hn > 0) iheap_root(s->heap, s->hpos, s->key, *hn, last);
    return n;
}

/* One table (c->col) updated; false when over a quarter of the nodes are
 * affected, on graphs of Q_LM_NODES+ nodes over a sixteenth (the caller
 * recomputes it).  Per affected node the update costs a few times a
 * Dijkstra's step, and it finds out only as it goes: at 1024x1024 an edit
 * next to a landmark, whose tables change nearly everywhere, cost 63-68
 * ms with the quarter, 49-50 with a sixteenth (random edits: the same;
 * docs/perf.md).  Small graphs keep the quarter: both are cheap there,
 * and their tests exercise the update. */
static bool lm_update_table(const lmctx *c, lmscratch *s, const lm_delta *d, int src, bool back,
                            const int32_t *fresh, int nfresh)
{
    const tn_surf *g = c->g;
    const int K2 = c->K2, col = c->col;
    /* search direction: a forward table's arcs are the graph's, a backward
     * table's are reversed */
    const bool outs = !back, ins = back;
    const int most = g->nnodes >= Q_LM_NODES ? g->nnodes / 16 : g->nnodes / 4;
    int hn = 0, naff = 0;
    const uint32_t e1 = ++s->epoch;
    for (int i = 0; i < nfresh; i++) {
        s->ep[fresh[i]] = e1;
        s->st[fresh[i]] = LM_AFF;
        s->affl[naff++] = fresh[i];
    }
    /* 1. the heads of lost tight arcs: every successor of a new node (a
     * kept edge may land on a surface that changed, now a new node, and
     * new nodes have no old cost to tell tight arcs by), ... */
    for (int i = 0; i < nfresh; i++) {
        int m, w;
        for (int a = -2, k = lm_narcs(c, fresh[i], outs); a < k; a++) {
            if (!lm_arc(c, fresh[i], outs, a, &m, &w) || s->ep[m] == e1 || *lm_cost(c, m) >= Q_INF)
                continue;
            s->ep[m] = e1;
            s->st[m] = LM_CAND;
            lm_push(s, &hn, m, *lm_cost(c, m));
        }
    }
    /* ... and the heads of edges gone */
    for (size_t i = 0; i < d->nrem; i++) {
        const int32_t *r = d->rem + 3 * i;
        const int32_t *rc = d->remc + i * 2 * (size_t)K2; /* old rows of from, to */
        int head = back ? r[0] : r[1];
        int32_t dt = back ? rc[K2 + col] : rc[col], dh = back ? rc[col] : rc[K2 + col];
        int h = renum_of(d->new_of_old, head);
        if (dt >= Q_INF || dt + r[2] != dh || h < 0 || s->ep[h] == e1) continue;
        s->ep[h] = e1;
        s->st[h] = LM_CAND;
        lm_push(s, &hn, h, *lm_cost(c, h));
    }
    /* ... and of kept edges now dominated (new numbering; rare, so their
     * heads are checked whether the arc was tight or not) */
    for (size_t i = 0; i < d->nlost; i++) {
        const int32_t *r = d->lost + 3 * i;
        int h = back ? r[0] : r[1];
        int32_t dh = *lm_cost(c, h);
        if (dh >= Q_INF || s->ep[h] == e1) continue;
        s->ep[h] = e1;
        s->st[h] = LM_CAND;
        lm_push(s, &hn, h, dh);
    }
    while (hn > 0) {
        int n = lm_pop(s, &hn), m, w;
        int32_t dn = *lm_cost(c, n);
        bool held = n == src; /* the landmark: cost 0 */
        for (int i = -2, k = lm_narcs(c, n, ins); i < k && !held; i++) {
            if (!lm_arc(c, n, ins, i, &m, &w) || (s->ep[m] == e1 && s->st[m] == LM_AFF)) continue;
            int32_t dm = *lm_cost(c, m);
            held = dm < Q_INF && dm + w == dn;
        }
        if (held) {
            s->st[n] = LM_OK;
            continue;
        }
        s->st[n] = LM_AFF;
        s->affl[naff++] = n;
        if (naff > most) return false;
        for (int i = -2, k = lm_narcs(c, n, outs); i < k; i++) {
            if (!lm_arc(c, n, outs, i, &m, &w) || s->ep[m] == e1) continue;
            if (*lm_cost(c, m) != dn + w) continue;
            s->ep[m] = e1;
            s->st[m] = LM_CAND;
            lm_push(s, &hn, m, *lm_cost(c, m));
        }
        *lm_cost(c, n) = Q_INF;
    }
    /* 2. seeds: each affected node's best arc from the others, new edges */
    const uint32_t e2 = ++s->epoch;
    for (int i = 0; i < naff; i++) {
        int n = s->affl[i], m, w;
        int32_t best = Q_INF;
        for (int a = -2, k = lm_narcs(c, n, ins); a < k; a++) {
            if (!lm_arc(c, n, ins, a, &m, &w)) continue;
            int32_t dm = *lm_cost(c, m);
            if (dm < Q_INF && dm + w < best) best = dm + w;
        }
        if (best < Q_INF) {
            *lm_cost(c, n) = best;
            s->ep[n] = e2;
            lm_push(s, &hn, n, best);
        }
    }
    for (size_t i = 0; i < d->nadd; i++) {
        const int32_t *r = d->add + 3 * i;
        int tail = back ? r[1] : r[0], head = back ? r[0] : r[1];
        int32_t dt = *lm_cost(c, tail), nd = dt + r[2];
        if (dt >= Q_INF || nd >= *lm_cost(c, head)) continue;
        *lm_cost(c, head) = nd;
        if (s->ep[head] == e2 && s->hpos[head] >= 0) {
            s->key[head] = nd;
            iheap_up(s->heap, s->hpos, s->key, s->hpos[head], head);
        } else {
            s->ep[head] = e2;
            lm_push(s, &hn, head, nd);
        }
    }
    while (hn > 0) {
        int n = lm_pop(s, &hn), t, w;
        int32_t dn = *lm_cost(c, n);
        for (int i = -2, k = lm_narcs(c, n, outs); i < k; i++) {
            if (!lm_arc(c, n, outs, i, &t, &w) || dn + w >= *lm_cost(c, t)) continue;
            *lm_cost(c, t) = dn + w;
            if (s->ep[t] == e2 && s->hpos[t] >= 0) {
                s->key[t] = dn + w;
                iheap_up(s->heap, s->hpos, s->key, s->hpos[t], t);
            } else {
                s->ep[t] = e2;
                lm_push(s, &hn, t, dn + w);
            }
        }
    }
    return true;
}

/* The landmark tables of a repaired graph from the old ones (d); the same
 * landmarks, renumbered.  False (nothing set) when a landmark's node is
 * gone, the count changed, the change lists are not complete or memory
 * ran out: the caller recomputes all.  A: the kept edges. */
static bool lm_update(tn_surf *g, lm_delta *d, const karcs *A)
{
    const tn_allocator *a = &g->alloc;
    const int nn = g->nnodes, K = lm_count(g), K2 = 2 * K;
    if (K == 0 || K != d->old_nlm || !d->old_lm || !d->lists) return false;
    int32_t L[Q_LM];
    for (int k = 0; k < K; k++) {
        int o = g->lmnode[k]; /* still the old numbering */
        L[k] = o >= 0 && o < d->old_nn ? renum_of(d->new_of_old, o) : -1;
        if (L[k] < 0) return false;
    }
    lmctx c = {g, NULL, NULL, K2, 0};
    lmscratch s = {0};
    /* (not zeroed: written before they are read; hpos is read only for a
     * node pushed in the epoch) */
    int32_t *fresh = alloc_unzeroed(a, (size_t)nn + 1, sizeof(int32_t));
    int32_t *dist = alloc_unzeroed(a, (size_t)nn + 1, sizeof(int32_t));
    /* the tables in place when the old array has room (rows move in node
     * order), else a new array with room for nn / 16 more nodes; every row
     * set before it is read */
    const bool inplace = d->old_cap >= (size_t)nn;
    const size_t cap = inplace ? d->old_cap : (size_t)nn + (size_t)nn / 16 + 64;
    c.lm = inplace ? d->old_lm : alloc_unzeroed(a, (size_t)K2 * cap, sizeof(int32_t));
    d->remc = alloc_unzeroed(a, d->nrem * 2 * (size_t)K2 + 1, sizeof(int32_t));
    s.heap = alloc_unzeroed(a, (size_t)nn + 1, sizeof(int32_t));
    s.hpos = alloc_unzeroed(a, (size_t)nn + 1, sizeof(int32_t));
    s.key = alloc_unzeroed(a, (size_t)nn + 1, sizeof(int32_t));
    s.affl = alloc_unzeroed(a, (size_t)nn + 1, sizeof(int32_t));
    s.ep = tn_alloc_array(a, (size_t)nn + 1, sizeof(uint32_t));
    s.st = tn_alloc(a, (size_t)nn + 1);
    int32_t *head = alloc_unzeroed(a, LM_NB, sizeof(int32_t)); /* (set when first used) */
    bool ok = fresh && dist && c.lm && d->remc && s.heap && s.hpos && s.key && s.affl && s.ep &&
              s.st && head;
    int nfresh = 0, recomputed = 0;
    if (ok) {
        c.A = A;
        /* the old rows of the edges gone's ends, then the old rows
         * renumbered (in place: the renumbering keeps the nodes' order, so
         * rows moving down go in increasing order, rows moving up in
         * decreasing order, and none overwrites a row still to move); new
         * nodes unknown */
        const size_t rb = (size_t)K2 * sizeof(int32_t);
        for (size_t i = 0; i < d->nrem; i++)
            for (int k = 0; k < 2; k++)
                memcpy(d->remc + (2 * i + (size_t)k) * (size_t)K2,
                       d->old_lm + (size_t)d->rem[3 * i + (size_t)k] * K2, rb);
        /* the renumbering in three parts: the nodes before the edited rows
         * keep their ids, those after them move by delta (one block), those
         * of the edited rows one by one (mid) */
        const renum *R = d->new_of_old;
        const int ra = R->a, rbn = R->b, del = R->delta, ntail = d->old_nn - rbn;
        if (!inplace) memcpy(c.lm, d->old_lm, (size_t)ra * rb);
        memset(s.st, 1, (size_t)ra);
        /* a block moving up goes first (it leaves the room the edited rows'
         * new nodes take), one moving down last (onto theirs) */
        if (ntail > 0 && (del > 0 || !inplace))
            memmove(c.lm + (size_t)(rbn + del) * K2, d->old_lm + (size_t)rbn * K2,
                    (size_t)ntail * rb);
        for (int o = ra; o < rbn; o++) {
            int n = R->mid[o - ra];
            if (n < 0 || (inplace && n > o)) continue;
            if (!inplace || n != o) memmove(c.lm + (size_t)n * K2, d->old_lm + (size_t)o * K2, rb);
            s.st[n] = 1;
        }
        for (int o = rbn - 1; o >= ra && inplace; o--) {
            int n = R->mid[o - ra];
            if (n <= o) continue;
            memmove(c.lm + (size_t)n * K2, d->old_lm + (size_t)o * K2, rb);
            s.st[n] = 1;
        }
        if (ntail > 0 && del < 0 && inplace)
            memmove(c.lm + (size_t)(rbn + del) * K2, d->old_lm + (size_t)rbn * K2,
                    (size_t)ntail * rb);
        if (ntail > 0) memset(s.st + rbn + del, 1, (size_t)ntail);
        for (int n = 0; n < nn; n++) {
            if (s.st[n]) continue;
            fresh[nfresh++] = n;
            for (int k = 0; k < K2; k++) c.lm[(size_t)n * K2 + k] = Q_INF;
        }
        for (int col = 0; col < K2; col++) {
            bool back = col >= K;
            c.col = col;
            if (lm_update_table(&c, &s, d, L[col % K], back, fresh, nfresh)) continue;
            for (int b = 0; b < LM_NB && !recomputed; b++) head[b] = -1;
            lm_dijkstra(g, back, A, L[col % K], dist, s.heap, s.hpos, head); /* (as next, prev) */
            for (int n = 0; n < nn; n++) c.lm[(size_t)n * K2 + col] = dist[n];
            s.epoch = 0; /* hpos / ep were overwritten */
            memset(s.ep, 0, (size_t)nn * sizeof *s.ep);
            recomputed++;
        }
    }
    tn_free(a, fresh);
    tn_free(a, dist);
    tn_free(a, s.heap);
    tn_free(a, s.hpos);
    tn_free(a, s.key);
    tn_free(a, s.affl);
    tn_free(a, s.ep);
    tn_free(a, s.st);
    tn_free(a, head);
    tn_free(a, d->remc);
    d->remc = NULL;
    if (!ok) { /* (nothing was moved: every allocation comes first) */
        if (!inplace) tn_free(a, c.lm);
        return false;
    }
    if (inplace) d->old_lm = NULL; /* now g->lm */
    g->lm = c.lm;
    g->lm_cap = cap;
    g->nlm = K;
    memcpy(g->lmnode, L, (size_t)K * sizeof *L);
    g->lm_updates += K2 - recomputed;
    g->lm_recomputes += recomputed;
    return true;
}

/* Mark the dominated edges of one run list[i0..i1) (edge ids of one
 * take-off landing on one surface, in increasing id; pos = the landing
 * node): F dominates E when F's frames plus the walk between their
 * landings is below E's frames, or equal and F comes first (then every
 * dominated edge has an undominated dominator, and a path through E costs
 * no less through it).  Two sweeps. */
static void prune_run(tn_surf_edge *edge, int i0, int i1)
{
    int64_t best = (int64_t)1 << 40; /* 64 bits on every target (wasm32 too) */
    for (int i = i0; i < i1; i++) {  /* earlier F: frames - pos + pos(E) <= frames(E) */
        tn_surf_edge *E = &edge[i];
        int64_t p = E->to;
        if (best + p <= E->frames) E->flags |= TN_SURF_EDGE_DOMINATED;
        if (E->frames - p < best) best = E->frames - p;
    }
    best = (int64_t)1 << 40;
    for (int i = i1 - 1; i >= i0; i--) { /* later F: frames + pos - pos(E) < frames(E) */
        tn_surf_edge *E = &edge[i];
        int64_t p = E->to;
        if (best - p < E->frames) E->flags |= TN_SURF_EDGE_DOMINATED;
        if (E->frames + p < best) best = E->frames + p;
    }
}

/* The same over records (pos = the take-off node, frames, eid) of the
 * edges into one landing node from one surface, in increasing eid. */
typedef struct prec {
    int32_t pos, frames, eid, surf;
} prec;

static void prune_recs(const prec *r, int i0, int i1, tn_surf_edge *edge)
{
    int64_t best = (int64_t)1 << 40; /* 64 bits on every target (wasm32 too) */
    for (int i = i0; i < i1; i++) {
        if (best + r[i].pos <= r[i].frames) edge[r[i].eid].flags |= TN_SURF_EDGE_DOMINATED;
        if (r[i].frames - r[i].pos < best) best = r[i].frames - r[i].pos;
    }
    best = (int64_t)1 << 40;
    for (int i = i1 - 1; i >= i0; i--) {
        if (best - r[i].pos < r[i].frames) edge[r[i].eid].flags |= TN_SURF_EDGE_DOMINATED;
        if (r[i].frames + r[i].pos < best) best = r[i].frames + r[i].pos;
    }
}

/* The surface graph for the detour bound (see heur_detour): per landing
 * surface t, one arc from each surface s with a kept edge s -> t, holding
 * the least reduced frames of those edges: frames - (j_to - j_from) (the
 * goal right of both surfaces), frames + (j_to - j_from) (left of both)
 * and frames - |j_to - j_from| (anywhere); all >= 0 (|dj| <= frames).
 * mark/tmp: scratch of nsurf + 1 entries. */
static bool sarcs_build(tn_surf *g, int nkept, int32_t *mark, int32_t *cnt)
{
    const tn_allocator *a = &g->alloc;
    int ns = g->nsurf;
    (void)nkept;
    /* 1. count distinct (s, t) pairs per t; arcs by source surface first */
    for (int t = 0; t <= ns; t++) mark[t] = -1, cnt[t] = 0;
    size_t np = 0;
    for (int s = 0; s < ns; s++)
        for (int i = g->qfirst[s]; i < g->qfirst[s + 1]; i++)
            for (int e = g->qefirst[i]; e < g->qefirst[i + 1]; e++) {
                int t = g->qedge[e].surf;
                if (mark[t] != s) mark[t] = s, cnt[t]++, np++;
            }
    g->sa_first = tn_alloc_array(a, (size_t)ns + 2, sizeof(int32_t));
    g->sa = tn_alloc_array(a, np + 1, sizeof(sarc));
    g->qs.sd = tn_alloc_array(a, (size_t)ns + 1, sizeof(int32_t));
    g->qs.sheap = tn_alloc_array(a, (size_t)ns + 1, sizeof(int32_t));
    g->qs.shpos = tn_alloc_array(a, (size_t)ns + 1, sizeof(int32_t));
    g->qs.sseen = tn_alloc_array(a, (size_t)ns + 1, sizeof(uint32_t));
    g->qs.sdone = tn_alloc_array(a, (size_t)ns + 1, sizeof(uint32_t));
    if (!g->sa_first || !g->sa || !g->qs.sd || !g->qs.sheap || !g->qs.shpos || !g->qs.sseen ||
        !g->qs.sdone)
        return false;
    g->nsa = np;
    g->sa_first[0] = 0;
    for (int t = 0; t < ns; t++) g->sa_first[t + 1] = g->sa_first[t] + cnt[t];
    /* 2. fill: slot of (s, t) remembered in mark[t] while s is scanned */
    for (int t = 0; t < ns; t++) cnt[t] = g->sa_first[t], mark[t] = -1;
    for (int s = 0; s < ns; s++) {
        for (int i = g->qfirst[s]; i < g->qfirst[s + 1]; i++) {
            int ja = g->surf[s].j0 + (g->qto[i] - g->surf[s].node0);
            for (int e = g->qefirst[i]; e < g->qefirst[i + 1]; e++) {
                const qedge *E = &g->qedge[e];
                int t = E->surf, dj = E->j - ja;
                int wr = E->frames - dj, wl = E->frames + dj, w0 = E->frames - abs(dj);
                if (wr < 0) wr = 0; /* (cannot happen: |dj| <= frames) */
                if (wl < 0) wl = 0;
                if (w0 < 0) w0 = 0;
                sarc *A;
                if (mark[t] < 0 || g->sa[mark[t]].from != s) {
                    mark[t] = cnt[t]++;
                    A = &g->sa[mark[t]];
                    A->from = s;
                    A->wr = (int16_t)wr, A->wl = (int16_t)wl, A->w0 = (int16_t)w0;
                    continue;
                }
                A = &g->sa[mark[t]];
                if (wr < A->wr) A->wr = (int16_t)wr;
                if (wl < A->wl) A->wl = (int16_t)wl;
                if (w0 < A->w0) A->w0 = (int16_t)w0;
            }
        }
    }
    return true;
}

static int cmp_prec_to(const void *a, const void *b)
{
    const prec *x = a, *y = b; /* surf holds the landing node here */
    if (x->surf != y->surf) return x->surf < y->surf ? -1 : 1;
    return x->eid < y->eid ? -1 : (x->eid > y->eid);
}

/* The landing-node test for the take-off surfaces marked in redo (NULL:
 * all of them, a build): each one's edges (consecutive) as records sorted
 * by landing node, then edge id, the groups in the order of a pass over
 * the whole graph's edges by landing node.  A build did that pass (a
 * counting sort of every edge by landing node, 36 MB of records written
 * at random at 1024x1024); surface by surface the records stay in cache. */
static bool prune_by_landing_local(tn_surf *g, const uint8_t *redo)
{
    size_t cap = 0;
    prec *r = NULL;
    bool ok = true;
    for (int s = 0; s < g->nsurf && ok; s++) {
        if (redo && !redo[s]) continue;
        if (!(s & 255) && tn_surfi_cancelled(g)) break; /* (the caller checks) */
        const tn_surf_surface *S = &g->surf[s];
        int e0 = g->edge_first[S->node0], e1 = g->edge_first[S->node0 + (S->j1 - S->j0) + 1];
        size_t n = (size_t)(e1 - e0);
        if (n == 0) continue;
        if (n > cap) {
            tn_free(&g->alloc, r);
            cap = n * 2;
            r = tn_alloc_array(&g->alloc, cap, sizeof *r);
            ok = r != NULL;
            if (!ok) break;
        }
        for (int e = e0; e < e1; e++) {
            const tn_surf_edge *E = &g->edge[e];
            r[e - e0] = (prec){E->from, E->frames, e, E->to};
        }
        qsort(r, n, sizeof *r, cmp_prec_to);
        for (size_t i0 = 0; i0 < n;) {
            size_t i1 = i0 + 1;
            while (i1 < n && r[i1].surf == r[i0].surf) i1++;
            prune_recs(r, (int)i0, (int)i1, g->edge);
            i0 = i1;
        }
    }
    tn_free(&g->alloc, r);
    return ok;
}

/* After a build or a repair: the kept edges, the take-off chains and the
 * landmark tables.  Out of memory leaves no index: tn_surf_find then runs
 * the reference search (same answers, slower). */
/* The query record of edge e (kept). */
static qedge qedge_of(const tn_surf *g, int e)
{
    const tn_surf_edge *E = &g->edge[e];
    const int s = g->node_surf[E->to];
    const tn_surf_surface *S = &g->surf[s];
    qedge Q;
    Q.to = E->to;
    Q.eid = e;
    Q.frames = E->frames;
    Q.row = (int16_t)S->row;
    Q.j = S->j0 + (E->to - S->node0);
    Q.surf = s;
    return Q;
}

/* The query records (qto, qefirst, qfirst, qedge: see query_index_build)
 * being made, and their counts. */
typedef struct qrec {
    int32_t *qto, *qefirst, *qfirst;
    qedge *qe;
    int nto, nkept;
} qrec;

/* The records of surface s from the edge array: per node the kept edges,
 * in edge order.  count: only count them. */
static void qrec_surface(const tn_surf *g, int s, qrec *q, bool count)
{
    const tn_surf_surface *S = &g->surf[s];
    for (int n = S->node0; n <= S->node0 + (S->j1 - S->j0); n++) {
        const int had = q->nkept;
        for (int e = g->edge_first[n]; e < g->edge_first[n + 1]; e++) {
            if (g->edge[e].flags & TN_SURF_EDGE_DOMINATED) continue;
            if (!count) q->qe[q->nkept] = qedge_of(g, e);
            q->nkept++;
        }
        if (q->nkept == had) continue;
        if (!count) q->qefirst[q->nto] = had, q->qto[q->nto] = n;
        q->nto++;
    }
}

/* The records after a repair, from the old ones (o): a surface not in
 * d->redo has the same edges and flags as before, so its records are the
 * old ones renumbered (take-off and landing node, edge id, landing
 * surface); the others' are made from the edge array.  One pass over the
 * old records instead of one over the (much bigger) edge array.  count:
 * only count them. */
static void qrec_patch(const tn_surf *g, const lm_delta *d, const int32_t *old_of, const qrec *o,
                       qrec *q, bool count)
{
    for (int s = 0; s < g->nsurf; s++) {
        if (!count) q->qfirst[s] = q->nto;
        const int os = old_of[s];
        if (os < 0 || d->redo[s]) {
            qrec_surface(g, s, q, count);
            continue;
        }
        const int k0 = o->qfirst[os], k1 = o->qfirst[os + 1];
        const int i0 = o->qefirst[k0], i1 = o->qefirst[k1];
        if (count) {
            q->nto += k1 - k0;
            q->nkept += i1 - i0;
            continue;
        }
        const int node0 = g->surf[s].node0, onode0 = d->old_surf[os].node0;
        const int nshift = node0 - onode0, eshift = g->edge_first[node0] - d->old_efirst[onode0];
        const int ishift = q->nkept - i0;
        /* (through locals: a store through q->qe could alias q's counts
         * and d's maps, which were read again on every record) */
        int32_t *qto = q->qto + q->nto, *qef = q->qefirst + q->nto;
        for (int k = k0; k < k1; k++) {
            qto[k - k0] = o->qto[k] + nshift;
            qef[k - k0] = o->qefirst[k] + ishift;
        }
        q->nto += k1 - k0;
        const renum *rn = d->new_of_old;
        const int32_t *surf_of_old = d->surf_of_old;
        qedge *qe = q->qe + q->nkept;
        for (int i = i0; i < i1; i++) {
            qedge Q = o->qe[i];
            Q.to = renum_of(rn, Q.to);
            Q.eid += eshift;
            Q.surf = surf_of_old[Q.surf];
            qe[i - i0] = Q;
        }
        q->nkept += i1 - i0;
    }
    if (!count) q->qfirst[g->nsurf] = q->nto, q->qefirst[q->nto] = q->nkept;
}

/* One kept arc into a node: sorted by (head, tail). */
typedef struct inarc {
    int32_t head, tail;
    uint16_t frames;
} inarc;

static int cmp_inarc(const void *a, const void *b)
{
    const inarc *x = a, *y = b;
    if (x->head != y->head) return x->head < y->head ? -1 : 1;
    return (x->tail > y->tail) - (x->tail < y->tail);
}

/* n arcs (tails, frames) copied, the tails renumbered by rn (a branch for
 * the edited rows' only); true when every tail's bit in keep is set.  A
 * function of its own, so that its loop runs in registers. */
static bool arcs_copy(const int32_t *tail, const uint16_t *fr, int n, const uint64_t *keep,
                      const renum *rn, int32_t *dtail, uint16_t *dfr)
{
    const int ra = rn->a, rb = rn->b, delta = rn->delta;
    const unsigned span = (unsigned)(rb - ra);
    uint64_t gone = 0;
    for (int u = 0; u < n; u++) {
        const int t = tail[u];
        gone |= ~keep[t >> 6] >> (t & 63);
        int nt = t + (t >= rb ? delta : 0);
        if ((unsigned)(t - ra) < span) nt = rn->mid[t - ra];
        dtail[u] = nt;
        dfr[u] = fr[u];
    }
    return !(gone & 1);
}

/* The arcs into each node after a repair (q: the new records), from the
 * old lists (oif, oifrom, oifr): an old arc whose tail's surface kept its
 * records stays, renumbered; the arcs out of the surfaces in d->redo are
 * merged in (sorted by head, then tail).  The same lists as
 * arcs_by_landing makes; false on OOM or when the counts disagree (the
 * caller makes them afresh).  ngone: the old arcs out of surfaces not kept
 * (a bound on those dropped). */
static bool arcs_patch(const tn_surf *g, const lm_delta *d, const qrec *q, const int32_t *oif,
                       const int32_t *oifrom, const uint16_t *oifr, size_t ngone, int32_t *ifirst,
                       int32_t *ifrom, uint16_t *ifr)
{
    const tn_allocator *a = &g->alloc;
    const renum *rn = d->new_of_old;
    const int nn = g->nnodes, ra = rn->a, rb = rn->b, delta = rn->delta, re = rb + delta;
    /* the old nodes whose arcs stay (a bit each), the edited rows' new
     * nodes' old ids, the arcs out of the surfaces made again, the old
     * arcs dropped in a block (their positions) */
    uint64_t *keep = tn_alloc_array(a, (size_t)d->old_nn / 64 + 1, sizeof(uint64_t));
    int32_t *inv = alloc_unzeroed(a, (size_t)tn_maxi(re - ra, 0) + 1, sizeof(int32_t));
    size_t nna = 0;
    for (int s = 0; s < g->nsurf; s++)
        if (d->redo[s]) nna += (size_t)(q->qefirst[q->qfirst[s + 1]] - q->qefirst[q->qfirst[s]]);
    inarc *na = alloc_unzeroed(a, nna + 1, sizeof(inarc));
    int32_t *drop = alloc_unzeroed(a, ngone + 1, sizeof(int32_t));
    bool ok = keep && inv && na && drop;
    if (ok) {
        for (int os = 0; os < d->old_ns; os++) {
            const int t = d->surf_of_old[os];
            if (t < 0 || d->redo[t]) continue;
            const tn_surf_surface *S = &d->old_surf[os];
            set_bit_range(keep, (size_t)S->node0, (size_t)(S->node0 + (S->j1 - S->j0)));
        }
        for (int i = 0; i < re - ra; i++) inv[i] = -1;
        for (int o = ra; o < rb; o++)
            if (rn->mid[o - ra] >= 0) inv[rn->mid[o - ra] - ra] = o;
        size_t k = 0;
        for (int s = 0; s < g->nsurf; s++) {
            if (!d->redo[s]) continue;
            for (int t = q->qfirst[s]; t < q->qfirst[s + 1]; t++)
                for (int i = q->qefirst[t]; i < q->qefirst[t + 1]; i++)
                    na[k++] = (inarc){q->qe[i].to, q->qto[t], q->qe[i].frames};
        }
        qsort(na, nna, sizeof *na, cmp_inarc);
        /* head by head (the renumbering keeps the order of tails): the
         * heads between the edited rows and those with new arcs in blocks,
         * whose old arcs are contiguous and are filtered without a branch
         * (the arrays have room for one more; p > nkept fails) */
        size_t ia = 0;
        int p = 0;
        for (int h = 0; h < nn && ok;) {
            const bool edited = h >= ra && h < re, fresh = ia < nna && na[ia].head == h;
            if (!edited && !fresh) {
                const int sh = h >= re ? delta : 0;
                int h1 = ia < nna ? na[ia].head : nn;
                if (h < ra) h1 = tn_mini(h1, ra);
                const int u0 = oif[h - sh], u1 = oif[h1 - sh], p0 = p;
                /* first as if every arc stays (the common case: the arcs
                 * dropped are mostly those into fresh heads), each
                 * renumbered without a branch but the edited rows' */
                if (u1 - u0 <= q->nkept - p) {
                    if (arcs_copy(oifrom + u0, oifr + u0, u1 - u0, keep, rn, ifrom + p0,
                                  ifr + p0)) {
                        for (; h < h1; h++) ifirst[h] = p0 + (oif[h - sh] - u0);
                        p = p0 + (u1 - u0);
                        continue;
                    }
                }
                size_t nd = 0;
                for (int u = u0; u < u1 && p <= q->nkept && nd <= ngone; u++) {
                    const int t = oifrom[u];
                    const int kt = (int)((keep[t >> 6] >> (t & 63)) & 1);
                    ifrom[p] = t < ra ? t : t >= rb ? t + delta : rn->mid[t - ra];
                    ifr[p] = oifr[u];
                    p += kt;
                    drop[nd] = u;
                    nd += (size_t)(1 - kt);
                }
                if (p > q->nkept || nd > ngone) {
                    ok = false;
                    break;
                }
                for (size_t j = 0; h < h1; h++) {
                    const int ub = oif[h - sh];
                    while (j < nd && drop[j] < ub) j++;
                    ifirst[h] = p0 + (ub - u0) - (int)j;
                }
                continue;
            }
            ifirst[h] = p;
            const int o = edited ? inv[h - ra] : h >= re ? h - delta : h;
            int u = o >= 0 ? oif[o] : 0;
            const int ue = o >= 0 ? oif[o + 1] : 0;
            for (;;) {
                while (u < ue && !((keep[oifrom[u] >> 6] >> (oifrom[u] & 63)) & 1)) u++;
                const bool hn = ia < nna && na[ia].head == h;
                if (u >= ue && !hn) break;
                if (p >= q->nkept) {
                    ok = false;
                    break;
                }
                const int ot = u < ue ? renum_of(rn, oifrom[u]) : INT32_MAX;
                if (hn && na[ia].tail < ot) {
                    ifrom[p] = na[ia].tail, ifr[p++] = na[ia].frames;
                    ia++;
                } else {
                    ifrom[p] = ot, ifr[p++] = oifr[u++];
                }
            }
            h++;
        }
        ifirst[nn] = ifirst[nn + 1] = p;
        ok = ok && p == q->nkept && ia == nna;
    }
    tn_free(a, keep);
    tn_free(a, inv);
    tn_free(a, na);
    tn_free(a, drop);
    return ok;
}

/* The surface graph of reach_surfaces: per surface s, the surfaces its
 * kept edges land on, each once, in the order of its first edge there
 * (sr_to[sr_first[s] .. sr_first[s + 1] - 1]).  A repair (d, with the old
 * lists osf / ost and old_of: new surface -> old, -1) copies the list of
 * each surface not in d->redo, its landing surfaces renumbered (its kept
 * edges are those of before, and land on unchanged surfaces: an edge onto
 * a changed surface puts its take-off surface in redo); the others' lists
 * are made from their records.  The result is the list a build makes. */
static void sr_build(tn_surf *g, const lm_delta *d, const int32_t *old_of, const int32_t *osf,
                     const int32_t *ost)
{
    const int ns = g->nsurf;
    int32_t *last = g->qs.squeue; /* (scratch: the last source that listed t) */
    for (int t = 0; t < ns; t++) last[t] = -1;
    size_t k = 0;
    for (int s = 0; s < ns; s++) {
        g->sr_first[s] = (int32_t)k;
        const int os = d && !d->redo[s] ? old_of[s] : -1;
        if (os >= 0) {
            size_t i = (size_t)osf[os];
            for (; i < (size_t)osf[os + 1]; i++) {
                const int t = d->surf_of_old[ost[i]];
                if (t < 0) break; /* (cannot happen: see above) */
                g->sr_to[k++] = t;
            }
            if (i == (size_t)osf[os + 1]) continue;
            k = (size_t)g->sr_first[s]; /* made from the records, then */
        }
        const int e0 = g->qefirst[g->qfirst[s]], e1 = g->qefirst[g->qfirst[s + 1]];
        for (int e = e0; e < e1; e++) {
            const int t = g->qedge[e].surf;
            if (last[t] != s) last[t] = s, g->sr_to[k++] = t; /* (k <= kept edges) */
        }
    }
    g->sr_first[ns] = (int32_t)k;
}

void query_index_build(tn_surf *g, lm_delta *d)
{
    const tn_allocator *a = &g->alloc;
    g->index_rev++;                   /* (a sliced query under way ends) */
    if (d && d->old_lm) g->lm = NULL; /* the old tables: d->old_lm, freed below */
    g->flags_ok = false;              /* until the dominance pass is done */
    /* the old records and arcs into nodes: a repair patches them */
    const bool had = g->qindex;
    qrec o = {g->qto, g->qefirst, g->qfirst, g->qedge, 0, 0};
    int32_t *oif = g->ifirst, *oifrom = g->ifrom;
    uint16_t *oifr = g->ifr;
    g->qto = g->qefirst = g->qfirst = NULL;
    g->qedge = NULL;
    g->ifirst = g->ifrom = NULL;
    g->ifr = NULL;
    /* a repair keeps the search states when they have room: their stamps
     * are older than any query's to come (g->qs.gen goes on), so they need
     * no clearing */
    qnode *oqn = had && d ? g->qs.qn : NULL;
    const size_t oqcap = g->qs.qn_cap;
    if (oqn) g->qs.qn = NULL;
    /* the old surface graph: a repair copies the lists of the surfaces it
     * did not touch */
    int32_t *osr_first = g->sr_first, *osr_to = g->sr_to;
    g->sr_first = g->sr_to = NULL;
    query_index_free(g);
    const int nn = g->nnodes, ns = g->nsurf;
    const bool patch = had && d && d->redo && d->old_surf && o.qe;
    int32_t *ofirst = alloc_unzeroed(a, (size_t)nn + 1, sizeof(int32_t));
    int32_t *old_of = patch ? alloc_unzeroed(a, (size_t)ns + 1, sizeof(int32_t)) : NULL;
    vec lost = {0}, add = {0}; /* see lm_delta */
    lost.elem = add.elem = 3 * sizeof(int32_t);
    bool lists = true;
    bool ok = ofirst && (old_of || !patch);
    qrec q = {0};
    if (ok) {
        /* 1. dominated edges (their flags): both tests group the edges of
         * one take-off surface, so after a repair only the surfaces in
         * d->redo are tested again; the others keep their flags */
        const uint8_t *redo = d ? d->redo : NULL;
        for (int s = 0; s < ns; s++) {
            if (redo && !redo[s]) continue;
            if (!(s & 255) && tn_surfi_cancelled(g)) break; /* (checked below) */
            const tn_surf_surface *S = &g->surf[s];
            const int e0 = g->edge_first[S->node0];
            const int e1 = g->edge_first[S->node0 + (S->j1 - S->j0) + 1];
            for (int e = e0; e < e1; e++) { /* after a repair: new, or kept before */
                const uint8_t f = g->edge[e].flags;
                g->edge[e].flags = !redo                          ? 0
                                   : (f & EF_NEW)                 ? EF_NEW
                                   : (f & TN_SURF_EDGE_DOMINATED) ? 0
                                                                  : EF_WAS;
            }
            /* same take-off, landing on one surface ... */
            for (int i0 = e0; i0 < e1;) {
                int i1 = i0 + 1, from = g->edge[i0].from, t = g->node_surf[g->edge[i0].to];
                while (i1 < e1 && g->edge[i1].from == from && g->node_surf[g->edge[i1].to] == t)
                    i1++;
                prune_run(g->edge, i0, i1);
                i0 = i1;
            }
        }
        /* ... and same landing node, taking off from one surface */
        if (redo) {
            ok = prune_by_landing_local(g, redo);
            /* what changed for the landmark tables: kept edges now
             * dominated (lost), kept edges new or no longer dominated */
            vec *L[2] = {&lost, &add};
            for (int s = 0; s < ns; s++) {
                if (!redo[s]) continue;
                const tn_surf_surface *S = &g->surf[s];
                const int e0 = g->edge_first[S->node0];
                const int e1 = g->edge_first[S->node0 + (S->j1 - S->j0) + 1];
                for (int e = e0; e < e1; e++) {
                    tn_surf_edge *E = &g->edge[e];
                    const uint8_t f = E->flags;
                    const bool kept = !(f & TN_SURF_EDGE_DOMINATED), was = (f & EF_WAS) != 0;
                    E->flags = f & TN_SURF_EDGE_DOMINATED;
                    if (!d->old_lm || kept == was || !lists) continue;
                    int32_t *r = vec_push(L[kept], a);
                    lists = r != NULL;
                    if (lists) r[0] = E->from, r[1] = E->to, r[2] = E->frames;
                }
            }
        } else { /* all of them */
            ok = prune_by_landing_local(g, NULL);
        }
        g->flags_ok = ok;
    }
    ok = ok && !tn_surfi_cancelled(g);
    if (ok) {
        /* 2. the query records: per surface (qfirst) its take-off nodes
         * with kept edges (qto; first record qefirst), per take-off node
         * its kept edges' records (qedge) in edge order: counted, then
         * made (a repair: patched from the old ones) */
        if (patch) {
            for (int s = 0; s < ns; s++) old_of[s] = -1;
            for (int os = 0; os < d->old_ns; os++)
                if (d->surf_of_old[os] >= 0) old_of[d->surf_of_old[os]] = os;
            qrec_patch(g, d, old_of, &o, &q, true);
        } else {
            for (int s = 0; s < ns; s++) qrec_surface(g, s, &q, true);
        }
        q.qto = alloc_unzeroed(a, (size_t)q.nto + 1, sizeof(int32_t));
        q.qefirst = alloc_unzeroed(a, (size_t)q.nto + 1, sizeof(int32_t));
        q.qfirst = alloc_unzeroed(a, (size_t)ns + 1, sizeof(int32_t));
        q.qe = alloc_unzeroed(a, (size_t)q.nkept + 1, sizeof(qedge));
        ok = q.qto && q.qefirst && q.qfirst && q.qe && !tn_surfi_cancelled(g);
        const int nto = q.nto, nkept = q.nkept;
        q.nto = q.nkept = 0;
        if (ok && patch) {
            qrec_patch(g, d, old_of, &o, &q, false);
        } else if (ok) {
            for (int s = 0; s < ns; s++) {
                q.qfirst[s] = q.nto;
                qrec_surface(g, s, &q, false);
            }
            q.qfirst[ns] = q.nto;
            q.qefirst[q.nto] = q.nkept;
        }
        ok = ok && q.nto == nto && q.nkept == nkept;
        g->qto = q.qto, g->qefirst = q.qefirst, g->qfirst = q.qfirst, g->qedge = q.qe;
    }
    /* the old arcs out of the surfaces not kept (see arcs_patch); the old
     * records go before the arcs are made: their memory is reused */
    size_t ngone = 0;
    for (int os = 0; patch && os < d->old_ns; os++) {
        const int t = d->surf_of_old[os];
        if (t < 0 || d->redo[t])
            ngone += (size_t)(o.qefirst[o.qfirst[os + 1]] - o.qefirst[o.qfirst[os]]);
    }
    tn_free(a, o.qto);
    tn_free(a, o.qefirst);
    tn_free(a, o.qfirst);
    tn_free(a, o.qe);
    ok = ok && !tn_surfi_cancelled(g);
    if (ok) {
        /* 3. the kept edges out of each node (ofirst, into the records)
         * and into each node (with landmark tables; a repair patches them) */
        {
            /* each take-off's first record, and the next one's for the
             * nodes up to it (a fill per take-off, through locals) */
            const int32_t *qto = g->qto, *qef = g->qefirst;
            const int nto = q.nto;
            int n = 0;
            for (int k = 0; k < nto; k++) {
                const int to = qto[k], v = qef[k];
                while (n <= to) ofirst[n++] = v;
            }
            while (n <= nn) ofirst[n++] = qef[nto];
        }
        if (lm_count(g) > 0) {
            g->ifirst = alloc_unzeroed(a, (size_t)nn + 2, sizeof(int32_t));
            g->ifrom = alloc_unzeroed(a, (size_t)q.nkept + 1, sizeof(int32_t));
            g->ifr = alloc_unzeroed(a, (size_t)q.nkept + 1, sizeof(uint16_t));
            ok = g->ifirst && g->ifrom && g->ifr;
            if (ok &&
                !(patch && oif &&
                  arcs_patch(g, d, &q, oif, oifrom, oifr, ngone, g->ifirst, g->ifrom, g->ifr)))
                arcs_by_landing(nn, ofirst, g->qedge, g->ifirst, g->ifrom, g->ifr);
#ifdef TN_SURF_DEBUG
            if (ok) { /* the patched lists against lists made afresh */
                int32_t *f = malloc(((size_t)nn + 2) * 4), *t = malloc(((size_t)q.nkept + 1) * 4);
                uint16_t *fr = malloc(((size_t)q.nkept + 1) * 2);
                if (f && t && fr) {
                    arcs_by_landing(nn, ofirst, g->qedge, f, t, fr);
                    if (memcmp(f, g->ifirst, ((size_t)nn + 1) * 4) ||
                        memcmp(t, g->ifrom, (size_t)q.nkept * 4) ||
                        memcmp(fr, g->ifr, (size_t)q.nkept * 2))
                        abort();
                }
                free(f), free(t), free(fr);
            }
#endif
        }
        if (oqn && oqcap >= (size_t)nn + 1) {
            g->qs.qn = oqn, g->qs.qn_cap = oqcap;
            oqn = NULL;
        } else {
            g->qs.qn_cap = (size_t)nn + 1 + ((size_t)nn + 1) / 16;
            g->qs.qn = tn_alloc_array(a, g->qs.qn_cap, sizeof(qnode));
        }
        g->qs.qh = alloc_unzeroed(a, (size_t)nn + 1, sizeof(qheap)); /* (written when pushed) */
        g->qs.sreach = tn_alloc_array(a, (size_t)ns + 1, sizeof(uint32_t)); /* stamps: zeroed */
        g->qs.squeue = alloc_unzeroed(a, (size_t)ns + 1, sizeof(int32_t));
        g->sr_first = alloc_unzeroed(a, (size_t)ns + 1, sizeof(int32_t));
        g->sr_to = alloc_unzeroed(a, (size_t)q.nkept + 1, sizeof(int32_t));
        ok = ok && g->qs.qn && g->qs.qh && g->qs.sreach && g->qs.squeue && g->sr_first && g->sr_to;
        if (ok) sr_build(g, patch && osr_first ? d : NULL, old_of, osr_first, osr_to);
#ifdef TN_SURF_DEBUG
        if (ok && patch && osr_first) { /* the copied lists against lists made afresh */
            int32_t *f = malloc(((size_t)ns + 1) * 4), *t = malloc(((size_t)q.nkept + 1) * 4);
            if (f && t) {
                int32_t *pf = g->sr_first, *pt = g->sr_to;
                g->sr_first = f, g->sr_to = t;
                sr_build(g, NULL, NULL, NULL, NULL);
                g->sr_first = pf, g->sr_to = pt;
                if (memcmp(f, pf, ((size_t)ns + 1) * 4) || memcmp(t, pt, (size_t)f[ns] * 4))
                    abort();
            }
            free(f), free(t);
        }
#endif
    }
    ok = ok && !tn_surfi_cancelled(g);
    if (ok) {
        /* 4. landmark tables: updated after a repair, else computed */
        const karcs A = {ofirst, g->qedge, g->ifirst, g->ifrom, g->ifr};
        if (d) {
            d->lost = lost.p, d->nlost = lost.n;
            d->add = add.p, d->nadd = add.n;
            d->lists = lists && d->redo; /* (without redo, none were made) */
        }
        if (lm_count(g) > 0 && !(d && lm_update(g, d, &A)))
            ok =
                !d && g->blob && lm_saved_count(g, g->blob->nlm) ? lm_take(g, &A) : lm_build(g, &A);
    }
    ok = ok && !tn_surfi_cancelled(g);
    if (ok && !g->nlm) { /* without landmarks: the surface graph (scratch: ofirst) */
        int32_t *cnt = alloc_unzeroed(a, (size_t)ns + 1, sizeof(int32_t));
        ok = cnt && ofirst && nn >= ns && sarcs_build(g, q.nkept, ofirst, cnt);
        tn_free(a, cnt);
    }
    if (ok) {
        g->qindex = true;
    }
    tn_free(a, oqn); /* (not kept) */
    tn_free(a, osr_first);
    tn_free(a, osr_to);
    tn_free(a, ofirst);
    tn_free(a, old_of);
    tn_free(a, oif);
    tn_free(a, oifrom);
    tn_free(a, oifr);
    vec_free(&lost, a);
    vec_free(&add, a);
    if (d) tn_free(a, d->old_lm);
    if (!ok) query_index_free(g);
}

static int heur(const tn_surf *g, int node, const goal *G)
{
    int row, j;
    tn_surf_node_pos(g, node, &row, &j);
    int dj = j < G->ja ? G->ja - j : (j > G->jb ? j - G->jb : 0);
    float dy = (float)(row > G->row1 ? row - G->row1 : (row < G->row ? G->row - row : 0)) * T;
    int hv = (int)ceilf(dy / g->vmax);
    return dj > hv ? dj : hv;
}

/* The landmark bound of node n: over the landmarks, the largest of
 * min d(L, goal) - d(L, n) and d(n, L) - max d(goal, L); Q_DEAD when a
 * landmark proves n reaches no goal node. */
static int heur_alt(const tn_surf *g, int n, const goal *G)
{
    const int32_t *f = g->lm + (size_t)n * 2 * g->nlm, *b = f + g->nlm;
    int h = 0;
    for (int k = 0; k < g->nlm; k++) {
        if (f[k] < Q_INF) {
            if (G->lf[k] >= Q_INF) return Q_DEAD; /* L reaches n, no goal node */
            if (G->lf[k] - f[k] > h) h = G->lf[k] - f[k];
        }
        if (G->lb[k] < Q_INF) {
            if (b[k] >= Q_INF) return Q_DEAD; /* every goal node reaches L, n not */
            if (b[k] - G->lb[k] > h) h = b[k] - G->lb[k];
        }
    }
    return h;
}

/* The landmark terms of the goal (its nodes on every goal surface). */
static void goal_landmarks(const tn_surf *g, goal *G)
{
    for (int k = 0; k < g->nlm; k++) {
        G->lf[k] = Q_INF;
        G->lb[k] = 0;
    }
    for (int i = 0; i < G->ngs; i++) {
        const tn_surf_surface *S = &g->surf[G->gs[i]];
        for (int j = G->ga[i]; j <= G->gb[i]; j++) {
            int n = S->node0 + (j - S->j0);
            for (int k = 0; k < g->nlm; k++) {
                const int32_t *L = g->lm + (size_t)n * 2 * g->nlm;
                int f = L[k], b = L[g->nlm + k];
                if (f < G->lf[k]) G->lf[k] = f;
                if (b > G->lb[k]) G->lb[k] = b;
            }
        }
    }
}

/* Distance for "the closest reachable point": tiles across plus rows, from
 * the box's bottom-left tile (Manhattan, like the classic planner's
 * partial paths); ties go to the cheaper node. */
static int closeness(const tn_surf *g, int node, const goal *G)
{
    int row, j;
    tn_surf_node_pos(g, node, &row, &j);
    int tx = j / g->per_tile, gx = G->ja / g->per_tile; /* the box's bottom-left tile */
    return abs(tx - gx) + abs(row - G->row);
}

static bool key_less(tn_surf_query *q, int a, int b, const int32_t *f)
{
    if (f[a] != f[b]) return f[a] < f[b];
    return q->gcost[a] > q->gcost[b];
}

static void heap_up(tn_surf_query *q, int i, const int32_t *f)
{
    int32_t *H = q->heap;
    int n = H[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!key_less(q, n, H[p], f)) break;
        H[i] = H[p];
        q->hpos[H[i]] = i;
        i = p;
    }
    H[i] = n;
    q->hpos[n] = i;
}

static void heap_down(tn_surf_query *q, int i, int size, const int32_t *f)
{
    int32_t *H = q->heap;
    int n = H[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= size) break;
        if (c + 1 < size && key_less(q, H[c + 1], H[c], f)) c++;
        if (!key_less(q, H[c], n, f)) break;
        H[i] = H[c];
        q->hpos[H[i]] = i;
        i = c;
    }
    H[i] = n;
    q->hpos[n] = i;
}

static int heap_pop(tn_surf_query *q, int *hsize, const int32_t *f)
{
    int n = q->heap[0];
    q->heap[0] = q->heap[--*hsize];
    q->hpos[q->heap[0]] = 0;
    if (*hsize > 0) heap_down(q, 0, *hsize, f);
    q->hpos[n] = -1; /* closed */
    return n;
}

/* Reach `to` from `n` at cost c by edge eid (-1: a walk); h(to) is computed
 * by the caller's heuristic only when `to` is new (hto). */
static inline void relax(tn_surf_query *q, int n, int to, int c, int eid, int hto, int *hsize)
{
    int32_t *f = q->tmp;
    int ng = q->gcost[n] + c;
    if (q->stamp[to] == q->gen) {
        if (q->hpos[to] < 0 || ng >= q->gcost[to]) return;
        f[to] += ng - q->gcost[to];
        q->gcost[to] = ng;
        q->parent[to] = n;
        q->pedge[to] = eid;
        heap_up(q, q->hpos[to], f);
    } else {
        q->stamp[to] = q->gen;
        q->gcost[to] = ng;
        q->parent[to] = n;
        q->pedge[to] = eid;
        f[to] = ng + hto;
        q->heap[*hsize] = to;
        heap_up(q, *hsize, f);
        ++*hsize;
    }
}

const int32_t *tn_surf_expanded(const tn_surf *g, int *count)
{
    if (count) *count = g ? g->qs.nexpanded : 0;
    return g ? g->qs.order : NULL;
}

/* Checks shared by both searches; 0 when the query may run.  Fills G. */
/* The goal of a search: the nodes whose box has tile (gx, gy) as its
 * bottom-left tile (a tile a box stands on), with their landmark terms. */
static void goal_of_tile(const tn_surf *g, int gx, int gy, goal *G)
{
    memset(G, 0, sizeof *G);
    G->row = G->row1 = gy + 1;
    G->ja = gx * g->per_tile;
    G->jb = gx * g->per_tile + g->per_tile - 1;
    G->vup = tn_minf(g->vmax, tn_phys_jump_speed(&g->prof.phys) * g->prof.phys.dt + 0.01f);
    for (int s = g->row_first[G->row]; s < g->row_first[G->row + 1] && G->ngs < Q_GOAL_SURF; s++) {
        const tn_surf_surface *S = &g->surf[s];
        if (S->j1 < G->ja || S->j0 > G->jb) continue;
        G->gs[G->ngs] = s;
        G->ga[G->ngs] = S->j0 > G->ja ? S->j0 : G->ja;
        G->gb[G->ngs] = S->j1 < G->jb ? S->j1 : G->jb;
        G->ngs++;
    }
    if (g->nlm) goal_landmarks(g, G);
}

/* A new search: its stamp (every stamp cleared when the counter wraps). */
static void gen_next(const tn_surf *g, tn_surf_query *q)
{
    if (++q->gen == 0) {
        /* (a query object's arrays hold ncap and scap entries, the graph's
         * its node and surface counts + 1) */
        const size_t nn = q->g ? q->ncap : (size_t)g->nnodes + 1;
        const size_t ns = q->g ? q->scap : (size_t)g->nsurf + 1;
        if (q->stamp) memset(q->stamp, 0, nn * sizeof *q->stamp);
        for (size_t n = 0; q->qn && n < q->qn_cap; n++) q->qn[n].stamp = 0;
        for (size_t t = 0; q->sseen && t < ns; t++) q->sseen[t] = q->sdone[t] = 0;
        for (size_t t = 0; q->sreach && t < ns; t++) q->sreach[t] = 0;
        q->gen = 1;
    }
}

/* A query's outputs before it answers: no legs, no plan. */
static void answer_clear(int *count, tn_surf_stats *stats)
{
    if (count) *count = 0;
    if (stats) {
        stats->expanded = 0;
        stats->frames = -1;
        stats->end_node = -1;
        stats->legs = 0;
        stats->releases = 0;
    }
}

static tn_status query_begin(const tn_surf *g, tn_surf_query *q, int start, int gx, int gy,
                             int *count, tn_surf_stats *stats, goal *G, tn_error *err)
{
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    answer_clear(count, stats);
    q->nexpanded = 0;
    q->nexp_dropped = 0;
    if (g->nnodes == 0 && !g->map) /* do_build: a failed or cancelled build */
        return tn_error_set(err, bad, 0, 0,
                            "surf: the graph is empty: its last build %s (rebuild or "
                            "sync it)",
                            g->cancelled ? "was cancelled" : "failed");
    if (g->nnodes == 0)
        return tn_error_set(err, bad, 0, 0,
                            "surf: no place on this map where a %dx%d "
                            "box can stand",
                            g->prof.w, g->prof.h);
    if (start < 0 || start >= g->nnodes)
        return tn_error_set(err, bad, 0, 0,
                            "surf: start node %d is not one of the graph's %d nodes "
                            "(tn_surf_node_of_body gives -1 for a body that does not stand: "
                            "in the air, or placed and not yet settled, tn_body_settle)",
                            start, g->nnodes);
    if (gx < 0 || gy < 0 || gx >= g->mw || gy >= g->mh)
        return tn_error_set(err, bad, 0, 0, "surf: goal (%d,%d) is outside the %dx%d map", gx, gy,
                            g->mw, g->mh);
    if (tn_surf_node_of_tile(g, gx, gy) < 0)
        return tn_error_set(err, bad, 0, 0, "surf: a %dx%d box cannot stand at tile (%d,%d)",
                            g->prof.w, g->prof.h, gx, gy);
    goal_of_tile(g, gx, gy, G);
    gen_next(g, q);
    return TN_OK;
}

/* The legs from start to end (parents and edges of the search). */
static tn_status write_plan(const tn_surf *g, tn_surf_query *q, int start, int end, bool found,
                            tn_surf_leg *out, int cap, int *count, tn_surf_stats *stats, int *nlegs)
{
    /* the edges, and the frames of jump released between two of them: an
     * edge can land with jump held (a full-hold jump onto a ledge lands
     * while rising), and a jump from its landing node with no walk between
     * (a walk releases it) must first let go for a frame.  The search does
     * not price that frame (it would need the edge a node was reached by
     * in its state); the plan's frames count it. */
    int nedge = 0, releases = 0, later = -1;
    for (int n = end; n != start; n = q->parent[n]) {
        const int e = q->pedge[n];
        if (e < 0) continue;
        nedge++;
        if (later >= 0 && g->edge[later].from == g->edge[e].to &&
            (g->runs[g->edge[e].run0 + g->edge[e].nruns - 1] & TN_SURF_IN_JUMP) &&
            (g->runs[g->edge[later].run0] & TN_SURF_IN_JUMP))
            releases++;
        later = e;
    }
    int legs = nedge + 1;
    int written = 0;
    if (out && cap > 0) {
        int k = nedge;
        /* write from the back: index k is the final walk */
        for (int n = end;; n = q->parent[n]) {
            if (n == end) {
                if (k < cap) {
                    int row, j;
                    tn_surf_node_pos(g, end, &row, &j);
                    out[k].edge = -1;
                    out[k].walk_to_j = j;
                    out[k].node = end;
                }
                k--;
            }
            if (n == start) break;
            int e = q->pedge[n];
            if (e >= 0) {
                if (k < cap) {
                    int row, j;
                    tn_surf_node_pos(g, g->edge[e].from, &row, &j);
                    out[k].edge = e;
                    out[k].walk_to_j = j;
                    out[k].node = g->edge[e].from;
                }
                k--;
            }
        }
        written = legs < cap ? legs : cap;
    }
    if (count) *count = written;
    if (stats) {
        stats->expanded = q->nexp_dropped + q->nexpanded;
        stats->frames = q->gcost[end] + releases;
        stats->releases = releases;
        stats->end_node = end;
        stats->legs = legs;
    }
    *nlegs = legs;
    tn_status st = TN_OK;
    if (!found) st |= TN_PARTIAL_RESULT | TN_UNREACHABLE;
    if (out && legs > cap) st |= TN_PARTIAL_RESULT | TN_BUFFER_TOO_SMALL;
    return st;
}

/* The reference: A* node by node (every walk step an arc), the geometric
 * heuristic only.  tn_surf_find_reference (tests) and the fallback when the
 * query index is missing. */
static int find_reference(const tn_surf *g, tn_surf_query *q, int start, const goal *G)
{
    int32_t *f = q->tmp;
    int hsize = 0;
    q->stamp[start] = q->gen;
    q->gcost[start] = 0;
    q->parent[start] = -1;
    q->pedge[start] = -1;
    f[start] = heur(g, start, G);
    q->heap[hsize++] = start;
    q->hpos[start] = 0;
    int best = start, besth = closeness(g, start, G), bestg = 0;
    while (hsize > 0) {
        int n = heap_pop(q, &hsize, f);
        q->order[q->nexpanded++] = n;
        int hn = f[n] - q->gcost[n];
        if (hn == 0) {
            int row, j;
            tn_surf_node_pos(g, n, &row, &j);
            if (row == G->row && j >= G->ja && j <= G->jb) return n;
        }
        int dn = closeness(g, n, G);
        if (dn < besth || (dn == besth && q->gcost[n] < bestg)) {
            best = n;
            besth = dn;
            bestg = q->gcost[n];
        }
        const tn_surf_surface *S = &g->surf[g->node_surf[n]];
        int last = S->node0 + (S->j1 - S->j0);
        if (n > S->node0) relax(q, n, n - 1, 1, -1, heur(g, n - 1, G), &hsize);
        if (n < last) relax(q, n, n + 1, 1, -1, heur(g, n + 1, G), &hsize);
        for (int e = g->edge_first[n]; e < g->edge_first[n + 1]; e++) {
            int to = g->edge[e].to;
            relax(q, n, to, g->edge[e].frames, e, q->stamp[to] == q->gen ? 0 : heur(g, to, G),
                  &hsize);
        }
    }
    return -1 - best;
}

/* The geometric bound at (row, j). */
static inline int heur_rj(const tn_surf *g, int row, int j, const goal *G)
{
    int dj = j < G->ja ? G->ja - j : (j > G->jb ? j - G->jb : 0);
    int hv = row > G->row1 ? (int)ceilf((float)(row - G->row1) * T / G->vup)
                           : (int)ceilf((float)(row < G->row ? G->row - row : 0) * T / g->vmax);
    return dj > hv ? dj : hv;
}

/* The detour bound of surface s: the least reduced cost (frames minus
 * the progress they make toward the goal column, >= 0) from s to a goal
 * surface over the surface graph (walks count 0, each edge its arc's
 * least reduced frames), found by a backward Dijkstra from the goal
 * surfaces run on demand: it stops as soon as s is settled, and the next
 * call resumes it.  A node n on s then needs at least
 * (lattice distance to the goal span) + bound(s) frames: admissible, and
 * consistent (an edge's reduced frames are at least its arc's, a walk's
 * at least 0).  Q_DEAD when no goal surface is reachable from s. */
static int heur_detour(const tn_surf *g, tn_surf_query *q, int s, const goal *G)
{
    if (q->sdone[s] == q->gen) return q->sd[s];
    int32_t *H = q->sheap, *P = q->shpos, *D = q->sd;
    while (q->sh_n > 0) {
        int u = H[0], last = H[--q->sh_n];
        q->sdone[u] = q->gen;
        if (q->sh_n > 0) iheap_root(H, P, D, q->sh_n, last);
        const tn_surf_surface *U = &g->surf[u];
        bool ul = U->j1<G->ja, ur = U->j0> G->jb;
        for (int k = g->sa_first[u]; k < g->sa_first[u + 1]; k++) {
            const sarc *A = &g->sa[k];
            int v = A->from;
            if (q->sdone[v] == q->gen) continue;
            const tn_surf_surface *V = &g->surf[v];
            int w = ul && V->j1 < G->ja ? A->wr : (ur && V->j0 > G->jb ? A->wl : A->w0);
            int nd = D[u] + w, i;
            if (q->sseen[v] != q->gen) {
                q->sseen[v] = q->gen;
                i = q->sh_n++;
            } else {
                if (nd >= D[v]) continue;
                i = P[v];
            }
            D[v] = nd;
            iheap_up(H, P, D, i, v);
        }
        if (u == s) return D[s];
    }
    return Q_DEAD;
}

/* The backward search of heur_detour starts at the goal surfaces. */
static void detour_begin(tn_surf_query *q, const goal *G)
{
    q->sh_n = 0;
    for (int i = 0; i < G->ngs; i++) {
        int t = G->gs[i];
        if (q->sseen[t] == q->gen) continue;
        q->sseen[t] = q->gen;
        q->sd[t] = 0;
        q->sheap[q->sh_n] = t;
        q->shpos[t] = q->sh_n++;
    }
}

/* The fast search's heuristic at node n (surface s, row, j). */
static inline int heur_full(const tn_surf *g, tn_surf_query *q, int n, int s, int row, int j,
                            const goal *G)
{
    int h = heur_rj(g, row, j, G);
    if (g->nlm) { /* landmarks: sharper than the detour bound, which they replace */
        int ha = heur_alt(g, n, G);
        return ha > h ? ha : h;
    }
    int dj = j < G->ja ? G->ja - j : (j > G->jb ? j - G->jb : 0);
    int hd = heur_detour(g, q, s, G);
    if (hd >= Q_DEAD) return Q_DEAD;
    return dj + hd > h ? dj + hd : h;
}

/* The fast search's heap: entries (f, g, node), smaller f first, then
 * larger g (as the reference); qn[node].hpos follows. */
static inline bool qkey_less(const qheap *a, const qheap *b)
{
    return a->f != b->f ? a->f < b->f : a->g > b->g;
}

static void qheap_up(tn_surf_query *q, int i, qheap e)
{
    qheap *H = q->qh;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!qkey_less(&e, &H[p])) break;
        H[i] = H[p];
        q->qn[H[i].n].hpos = i;
        i = p;
    }
    H[i] = e;
    q->qn[e.n].hpos = i;
}

static void qheap_down(tn_surf_query *q, int i, int size, qheap e)
{
    qheap *H = q->qh;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= size) break;
        if (c + 1 < size && qkey_less(&H[c + 1], &H[c])) c++;
        if (!qkey_less(&H[c], &e)) break;
        H[i] = H[c];
        q->qn[H[i].n].hpos = i;
        i = c;
    }
    H[i] = e;
    q->qn[e.n].hpos = i;
}

/* Reach node `to` (at row, j) from n at cost c by edge eid (-1: a walk). */
static inline void qrelax(const tn_surf *g, tn_surf_query *q, int n, int to, int ts, int row, int j,
                          int c, int eid, int *hs, const goal *G)
{
    qnode *T0 = &q->qn[to];
    int ng = q->qn[n].g + c;
    if (T0->stamp == q->gen) {
        if (T0->hpos < 0 || ng >= T0->g) return;
        T0->f += ng - T0->g;
        T0->g = ng;
        T0->parent = n;
        T0->pedge = eid;
        qheap e = {T0->f, ng, to};
        qheap_up(q, T0->hpos, e);
        return;
    }
    int h = heur_full(g, q, to, ts, row, j, G);
    T0->stamp = q->gen;
    T0->g = ng;
    T0->f = ng + h;
    T0->parent = n;
    T0->pedge = eid;
    qheap e = {T0->f, ng, to};
    qheap_up(q, (*hs)++, e);
}

static int reach_surfaces(const tn_surf *g, tn_surf_query *q, int s0);
static int find_closest(const tn_surf *g, tn_surf_query *q, int start, const goal *G, int nr);

/* Whether the node at j on surface s is a goal node. */
static inline bool goal_node(const goal *G, int s, int j)
{
    for (int i = 0; i < G->ngs; i++)
        if (G->gs[i] == s && j >= G->ga[i] && j <= G->gb[i]) return true;
    return false;
}

/* Expanded nodes after which a search not yet proven hopeless checks that
 * its goal is reachable at all: reach_surfaces, a pass over the surfaces
 * the start reaches, costs about what expanding half as many nodes as
 * there are surfaces does (512x512 level: 3,010 surfaces, about 110 us). */
static inline int reach_check_at(const tn_surf *g)
{
    return g->nsurf / 2 > 1024 ? g->nsurf / 2 : 1024;
}

/* The fast search: A* over start, take-off, landing and goal nodes; walks
 * only between chain neighbours (see query_index_build).  Returns the goal
 * node reached, or -1 - (the closest reachable node).  The plan's nodes
 * get their parent, pedge and gcost (for write_plan).  Once every node
 * left in the queue is proven not to reach the goal (a landmark or the
 * detour bound says so), or after reach_check_at nodes no goal surface is
 * among those the start reaches, the goal is unreachable and find_closest
 * answers, unless `whole`: then the search goes on over every reachable
 * node. */
static int events_finish(const tn_surf *g, tn_surf_query *q, const goal *G, int found);

/* find_events in parts, so that a sliced query (tn_surf_find_begin) can
 * stop between nodes: events_init puts the start in the heap (*hs its
 * size); events_run expands up to `budget` nodes (a negative budget: no
 * limit) and returns false when it stopped for the budget, else true with
 * *res what find_events returns. */
static void events_init(const tn_surf *g, tn_surf_query *q, int start, const goal *G, int *hs)
{
    int row, j;
    tn_surf_node_pos(g, start, &row, &j);
    if (!g->nlm) detour_begin(q, G);
    int h = heur_full(g, q, start, g->node_surf[start], row, j, G);
    q->qn[start] = (qnode){q->gen, 0, h, -1, -1, 0};
    qheap e = {h, 0, start};
    *hs = 0;
    qheap_up(q, (*hs)++, e);
}

static bool events_run(const tn_surf *g, tn_surf_query *q, int start, const goal *G, bool whole,
                       int *hsp, long budget, int *res, int *defer)
{
    qnode *Q = q->qn;
    int hs = *hsp, found = -1;
    for (; hs > 0; budget--) {
        if (budget == 0) {
            *hsp = hs;
            return false;
        }
        int n = q->qh[0].n;
        int nr = -2; /* (-2: the goal not proved unreachable) */
        if (!whole && q->qh[0].f >= Q_DEAD) nr = -1;
        if (nr == -2 && !whole && q->nexpanded == reach_check_at(g)) {
            const int r = reach_surfaces(g, q, g->node_surf[start]);
            bool reached = false;
            for (int i = 0; i < G->ngs; i++) reached |= q->sreach[G->gs[i]] == q->gen;
            if (!reached) nr = r;
        }
        if (nr != -2) { /* unreachable: the closest place, now or by the caller */
            if (defer)
                *defer = nr;
            else
                *res = find_closest(g, q, start, G, nr);
            return true;
        }
        if (--hs > 0) qheap_down(q, 0, hs, q->qh[hs]);
        Q[n].hpos = -1; /* closed */
        q->order[q->nexpanded++] = n;
        int s = g->node_surf[n];
        const tn_surf_surface *S = &g->surf[s];
        int j = S->j0 + (n - S->node0);
        if (Q[n].f == Q[n].g && goal_node(G, s, j)) {
            found = n;
            break;
        }
        /* the take-off chain: binary search of n among the surface's take-offs */
        int lo = g->qfirst[s], hi = g->qfirst[s + 1];
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (g->qto[mid] < n)
                lo = mid + 1;
            else
                hi = mid;
        }
        int left = lo - 1, right = lo;
        if (lo < g->qfirst[s + 1] && g->qto[lo] == n) {
            right = lo + 1;
            /* the landing nodes' search states and landmark rows are far
             * apart in big graphs: ask for them all before the first is
             * read, so that their cache misses overlap */
            for (int i = g->qefirst[lo]; i < g->qefirst[lo + 1]; i++) {
                const int to = g->qedge[i].to;
                TN_PREFETCH(&q->qn[to]);
                if (g->nlm) TN_PREFETCH(g->lm + (size_t)to * 2 * (size_t)g->nlm);
            }
            for (int i = g->qefirst[lo]; i < g->qefirst[lo + 1]; i++) {
                const qedge *E = &g->qedge[i];
                qrelax(g, q, n, E->to, E->surf, E->row, E->j, E->frames, E->eid, &hs, G);
            }
        }
        if (left >= g->qfirst[s]) {
            int to = g->qto[left];
            qrelax(g, q, n, to, s, S->row, j - (n - to), n - to, -1, &hs, G);
        }
        if (right < g->qfirst[s + 1]) {
            int to = g->qto[right];
            qrelax(g, q, n, to, s, S->row, j + (to - n), to - n, -1, &hs, G);
        }
        for (int i = 0; i < G->ngs; i++) /* the goal span, if on this surface */
            if (G->gs[i] == s) {
                int p = j < G->ga[i] ? G->ga[i] : (j > G->gb[i] ? G->gb[i] : j);
                if (p != j) qrelax(g, q, n, n + (p - j), s, S->row, p, abs(p - j), -1, &hs, G);
            }
    }
    *hsp = hs;
    *res = events_finish(g, q, G, found);
    return true;
}

static int find_events(const tn_surf *g, tn_surf_query *q, int start, const goal *G, bool whole)
{
    int hs, res;
    events_init(g, q, start, G, &hs);
    events_run(g, q, start, G, whole, &hs, -1, &res, NULL);
    return res;
}

/* The end of find_events: the goal node `found`, or (-1) the closest
 * place reached; the plan's nodes into parent / pedge / gcost. */
static int events_finish(const tn_surf *g, tn_surf_query *q, const goal *G, int found)
{
    const qnode *Q = q->qn;
    int end = found, bk = found, bestg = 0;
    if (found < 0) {
        /* unreachable: every reachable surface was reached at its landing
         * nodes (and the start), all expanded with their exact costs;
         * walking reaches the rest.  Per surface the closest nodes form one
         * span R (the tiles nearest the goal column); the cheapest node of
         * R from an expanded node k is k's j clamped to R. */
        int gx = G->ja / g->per_tile, pt = g->per_tile, besth = Q_INF;
        bestg = Q_INF;
        for (int i = 0; i < q->nexpanded; i++) {
            int k = q->order[i], s = g->node_surf[k];
            const tn_surf_surface *S = &g->surf[s];
            int t0 = S->j0 / pt, t1 = S->j1 / pt, ra, rb;
            if (gx < t0)
                ra = S->j0, rb = t0 * pt + pt - 1;
            else if (gx > t1)
                ra = t1 * pt, rb = S->j1;
            else
                ra = gx * pt, rb = gx * pt + pt - 1;
            if (ra < S->j0) ra = S->j0;
            if (rb > S->j1) rb = S->j1;
            int j = S->j0 + (k - S->node0);
            int p = j < ra ? ra : (j > rb ? rb : j);
            int d = abs(p / pt - gx) + abs(S->row - G->row), c = Q[k].g + abs(p - j);
            if (d < besth || (d == besth && c < bestg)) {
                besth = d;
                bestg = c;
                end = k + (p - j);
                bk = k;
            }
        }
    }
    /* the plan's nodes into parent / pedge / gcost */
    for (int x = bk; x >= 0; x = Q[x].parent) {
        q->parent[x] = Q[x].parent;
        q->pedge[x] = Q[x].pedge;
        q->gcost[x] = Q[x].g;
    }
    if (end != bk) { /* the last walk, from bk (never one of its ancestors) */
        q->parent[end] = bk;
        q->pedge[end] = -1;
        q->gcost[end] = bestg;
    }
    return found >= 0 ? found : -1 - end;
}

/* The surfaces reachable from surface s0 (every node of a surface reaches
 * every other by walking, so reaching a surface is reaching all of it):
 * breadth-first over the surface graph of sr_build (each surface's kept
 * edges' landing surfaces; a dominated edge has a kept one between the
 * same surfaces).  Into q->squeue; returns how many; q->sreach[s] ==
 * q->gen marks them. */
static int reach_surfaces(const tn_surf *g, tn_surf_query *q, int s0)
{
    int32_t *Qs = q->squeue;
    int k = 0;
    q->sreach[s0] = q->gen;
    Qs[k++] = s0;
    for (int head = 0; head < k; head++) {
        const int s = Qs[head];
        for (int i = g->sr_first[s]; i < g->sr_first[s + 1]; i++) {
            const int t = g->sr_to[i];
            if (q->sreach[t] != q->gen) q->sreach[t] = q->gen, Qs[k++] = t;
        }
    }
    return k;
}

/* An unreachable goal (find_events proved it): the plan to the closest
 * place reached, as the whole search over the reachable nodes would give
 * it, without that search.  The surfaces reachable from the start's are
 * found first (reach_surfaces: far fewer than the nodes); on each, the
 * nodes closest to the goal (Manhattan distance in tiles from the box's
 * bottom-left tile) are those of one tile, the one nearest the goal
 * column; the closest of these tiles (all at the least distance D, at most
 * Q_CLOSEST of them) are together the goal of one ordinary search, which
 * reaches the cheapest of them (each lies on a reachable surface): its
 * heuristic is the bound to their hull (columns and rows) and the landmark
 * terms over all their nodes, both admissible and consistent for the set
 * (one tile on the start's own surface: a walk, no search).
 * (Until 2026-12-05 one search a tile, at most 8, and the cheapest's
 * again: docs/perf.md.)  More tiles at D: the whole search.  The expanded
 * nodes left are that search's.  nr: the surfaces reach_surfaces found in
 * this query, or -1 (not yet).  Returns -1 - (the plan's last node). */
/* Another search in the same query: new stamps; the nodes the last one
 * expanded count in the stats (nexp_dropped), its order is dropped. */
static void search_anew(const tn_surf *g, tn_surf_query *q)
{
    gen_next(g, q);
    q->nexp_dropped += q->nexpanded;
    q->nexpanded = 0;
}

#ifndef Q_CLOSEST /* (a test build can make it smaller) */
#define Q_CLOSEST Q_GOAL_SURF
#endif

/* What find_closest searches (after search_anew): CL_DONE, the answer in
 * *res (a walk on the start's surface); CL_WHOLE, the whole search for
 * G; CL_GOAL, the search for *C (the closest tiles), whose node r gives
 * -1 - r. */
enum { CL_DONE, CL_WHOLE, CL_GOAL };
static int closest_plan(const tn_surf *g, tn_surf_query *q, int start, const goal *G, int nr,
                        goal *Cp, int *res);
static int closest_end(const tn_surf *g, tn_surf_query *q, int start, const goal *G, int r);

static int find_closest(const tn_surf *g, tn_surf_query *q, int start, const goal *G, int nr)
{
    goal C;
    int res = -1;
    switch (closest_plan(g, q, start, G, nr, &C, &res)) {
    case CL_DONE: return res;
    case CL_WHOLE: return find_events(g, q, start, G, true);
    default: return closest_end(g, q, start, G, find_events(g, q, start, &C, true));
    }
}

/* The end of find_closest's search for the closest tiles (its result r):
 * the plan to them, -1 - its last node. */
static int closest_end(const tn_surf *g, tn_surf_query *q, int start, const goal *G, int r)
{
    if (r >= 0) return -1 - r;
    search_anew(g, q); /* (cannot happen: every tile lies on a reached surface) */
    return find_events(g, q, start, G, true);
}

static int closest_plan(const tn_surf *g, tn_surf_query *q, int start, const goal *G, int nr,
                        goal *Cp, int *res)
{
    if (nr < 0) nr = reach_surfaces(g, q, g->node_surf[start]);
    const int pt = g->per_tile, gx = G->ja / pt;
    int D = INT32_MAX;
    goal C;
    memset(&C, 0, sizeof C);
    C.vup = G->vup;
    for (int i = 0; i < nr; i++) {
        const int s = q->squeue[i];
        const tn_surf_surface *S = &g->surf[s];
        const int t0 = S->j0 / pt, t1 = S->j1 / pt;
        const int t = gx < t0 ? t0 : (gx > t1 ? t1 : gx);
        const int d = abs(t - gx) + abs(S->row - G->row);
        if (d > D) continue;
        if (d < D) D = d, C.ngs = 0;
        if (C.ngs == Q_CLOSEST) C.ngs = Q_CLOSEST + 1; /* too many: the whole search */
        if (C.ngs > Q_CLOSEST) continue;
        const int a = t * pt > S->j0 ? t * pt : S->j0;
        const int b = t * pt + pt - 1 < S->j1 ? t * pt + pt - 1 : S->j1;
        if (C.ngs == 0 || S->row < C.row) C.row = S->row;
        if (C.ngs == 0 || S->row > C.row1) C.row1 = S->row;
        if (C.ngs == 0 || a < C.ja) C.ja = a;
        if (C.ngs == 0 || b > C.jb) C.jb = b;
        C.gs[C.ngs] = s, C.ga[C.ngs] = a, C.gb[C.ngs++] = b;
    }
    search_anew(g, q);
    if (C.ngs == 0 || C.ngs > Q_CLOSEST) return CL_WHOLE;
    if (C.ngs == 1 && C.gs[0] == g->node_surf[start]) { /* a walk: nothing is faster */
        const int j = g->surf[C.gs[0]].j0 + (start - g->surf[C.gs[0]].node0);
        const int p = j < C.ga[0] ? C.ga[0] : (j > C.gb[0] ? C.gb[0] : j), end = start + (p - j);
        q->order[q->nexpanded++] = start;
        q->parent[start] = q->pedge[start] = -1;
        q->gcost[start] = 0;
        if (end != start) q->parent[end] = start, q->pedge[end] = -1, q->gcost[end] = abs(p - j);
        *res = -1 - end;
        return CL_DONE;
    }
    if (g->nlm) goal_landmarks(g, &C);
    *Cp = C;
    return CL_GOAL;
}

static tn_status plan_answer(const tn_surf *g, tn_surf_query *q, int start, int gx, int gy, int r,
                             tn_surf_leg *out, int cap, int *count, tn_surf_stats *stats,
                             tn_error *err);
static bool answer_first(const tn_surf *g, tn_surf_query *q, int start, const goal *G,
                         bool reference, int *r);

static tn_status find_common(const tn_surf *g, tn_surf_query *q, int start, int gx, int gy,
                             tn_surf_leg *out, int cap, int *count, tn_surf_stats *stats,
                             tn_error *err, bool reference)
{
    goal G;
    tn_error_clear(err);
    answer_clear(count, stats); /* every failure says no plan: frames, end_node -1 */
    if (!g) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "surf: no graph (NULL)");
    /* any other query ends a sliced one, also one refused before it
     * searches (its serial changed, and the slice went on) */
    q->sl_other = q->sl_state != SLICE_NONE;
    if (out && cap < 0)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: a leg buffer with a negative capacity (%d)", cap);
    tn_status st = query_begin(g, q, start, gx, gy, count, stats, &G, err);
    if (st != TN_OK) return st;
    int r;
    if (!answer_first(g, q, start, &G, reference, &r)) r = find_events(g, q, start, &G, false);
    return plan_answer(g, q, start, gx, gy, r, out, cap, count, stats, err);
}

/* The answer of a query that needs no event search (true, *r as
 * find_events gives it): the shortcuts' when they find the goal, the
 * reference search's (tests, or no query index).  False: find_events. */
static bool answer_first(const tn_surf *g, tn_surf_query *q, int start, const goal *G,
                         bool reference, int *r)
{
    if (!reference && g->ch) {
        *r = ch_find(g, q, start, G);
        if (*r >= 0) return true;
        q->nexpanded = 0; /* unreachable: the full search finds the closest point */
    }
    if (!reference && g->qindex) return false;
    *r = find_reference(g, q, start, G);
    return true;
}

/* A query's answer from its search's result r (as find_events returns):
 * the legs, the stats, and the message of a partial plan. */
static tn_status plan_answer(const tn_surf *g, tn_surf_query *q, int start, int gx, int gy, int r,
                             tn_surf_leg *out, int cap, int *count, tn_surf_stats *stats,
                             tn_error *err)
{
    const int end = r >= 0 ? r : -1 - r;
    int legs = 0;
    tn_status st = write_plan(g, q, start, end, r >= 0, out, cap, count, stats, &legs);
    if (st != TN_OK && err) {
        /* a partial answer says what it left out (the status stays a success) */
        int row, j;
        tn_surf_node_pos(g, end, &row, &j);
        char buf[80] = "";
        if (tn_status_detail(st, TN_BUFFER_TOO_SMALL))
            snprintf(buf, sizeof buf, "%sthe plan has %d leg%s, the buffer holds the first %d",
                     r < 0 ? "; " : "", legs, legs == 1 ? "" : "s", cap);
        if (r < 0)
            tn_error_set(err, st, 0, 0,
                         "surf: goal (%d,%d) is unreachable; the plan ends at (%d,%d) "
                         "(node %d), the closest place reached%s",
                         gx, gy, (int)(lat_x(g, j) / TN_TILE_PX), row - 1, end, buf);
        else
            tn_error_set(err, st, 0, 0, "surf: %s", buf);
    }
    return st;
}

tn_status tn_surf_find(tn_surf *g, int start, int gx, int gy, tn_surf_leg *out, int cap, int *count,
                       tn_surf_stats *stats, tn_error *err)
{
    if (!g) return find_common(NULL, NULL, start, gx, gy, out, cap, count, stats, err, false);
    return find_common(g, &g->qs, start, gx, gy, out, cap, count, stats, err, false);
}

/* ---- the sliced query ---------------------------------------------------- */

/* The names a sliced query's messages use: the graph's (tn_surf_find_*) or
 * a query object's (tn_surf_query_*). */
typedef struct slice_names {
    const char *begin, *step, *end, *other;
} slice_names;
static const slice_names SL_GRAPH = {"find_begin", "find_step", "find_end",
                                     "another query used the graph"};
static const slice_names SL_QUERY = {"query_begin", "query_step", "query_end",
                                     "another query used this query object"};

static tn_status slice_begin(const tn_surf *g, tn_surf_query *q, int start, int gx, int gy,
                             tn_error *err)
{
    q->sl_state = SLICE_NONE;
    q->sl_other = false;
    tn_status st = query_begin(g, q, start, gx, gy, NULL, NULL, &q->sl_goal, err);
    if (st != TN_OK) return st;
    q->sl_start = start, q->sl_gx = gx, q->sl_gy = gy;
    q->sl_generation = g->generation;
    q->sl_index = g->index_rev;
    int r;
    if (answer_first(g, q, start, &q->sl_goal, false, &r)) {
        q->sl_res = r;
        q->sl_state = SLICE_SEARCHED;
        q->sl_gen = q->gen;
        return TN_OK;
    }
    events_init(g, q, start, &q->sl_goal, &q->sl_hs);
    q->sl_state = SLICE_SEARCHING;
    q->sl_cl = 0;
    q->sl_gen = q->gen;
    if (err) err->status = TN_IN_PROGRESS; /* (cleared above: no message) */
    return TN_IN_PROGRESS;
}

tn_status tn_surf_find_begin(tn_surf *g, int start, int gx, int gy, tn_error *err)
{
    tn_error_clear(err);
    if (!g) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "surf: no graph (NULL)");
    return slice_begin(g, &g->qs, start, gx, gy, err);
}

/* The sliced query's search for up to `budget` nodes (< 0: to its end);
 * true when it is over (its result in q->sl_res, as find_events gives
 * it).  An unreachable goal's closest-place search (find_closest) is
 * sliced as well: its goal is planned when the goal is proved unreachable
 * and the budget left goes on to it. */
static bool slice_run(const tn_surf *g, tn_surf_query *q, long budget)
{
    const int start = q->sl_start;
    for (;;) {
        const long n0 = (long)q->nexpanded + q->nexp_dropped;
        if (q->sl_cl == 0) {
            int defer = -2;
            if (!events_run(g, q, start, &q->sl_goal, false, &q->sl_hs, budget, &q->sl_res, &defer))
                return false;
            if (defer == -2) return true; /* found, or the heap empty */
            const int cl = closest_plan(g, q, start, &q->sl_goal, defer, &q->sl_close, &q->sl_res);
            if (cl == CL_DONE) return true;
            q->sl_cl = cl;
            events_init(g, q, start, cl == CL_WHOLE ? &q->sl_goal : &q->sl_close, &q->sl_hs);
        } else {
            const goal *G = q->sl_cl == CL_WHOLE ? &q->sl_goal : &q->sl_close;
            if (!events_run(g, q, start, G, true, &q->sl_hs, budget, &q->sl_res, NULL))
                return false;
            if (q->sl_cl == CL_GOAL) q->sl_res = closest_end(g, q, start, &q->sl_goal, q->sl_res);
            return true;
        }
        if (budget >= 0) { /* what the main search left of the budget */
            budget -= (long)q->nexpanded + q->nexp_dropped - n0;
            if (budget <= 0) return false;
        }
    }
}

/* Whether the sliced query can go on (else an error, and it is over). */
static tn_status slice_check(const tn_surf *g, tn_surf_query *q, const slice_names *N,
                             const char *what, tn_error *err)
{
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    if (q->sl_state == SLICE_NONE)
        return tn_error_set(
            err, bad, 0, 0,
            "surf: no sliced query under way for tn_surf_%s (tn_surf_%s begins one)", what,
            N->begin);
    if (q->sl_generation != g->generation || q->sl_index != g->index_rev) {
        q->sl_state = SLICE_NONE;
        return tn_error_set(
            err, bad, 0, 0,
            "surf: the graph or its query index changed (an edit, repair, "
            "rebuild, landmarks, shortcuts or labels) between tn_surf_%s and tn_surf_%s; begin "
            "again",
            N->begin, what);
    }
    if (q->sl_gen != q->gen || q->sl_other) {
        q->sl_state = SLICE_NONE;
        return tn_error_set(err, bad, 0, 0,
                            "surf: %s between tn_surf_%s and tn_surf_%s; begin again", N->other,
                            N->begin, what);
    }
    return TN_OK;
}

static tn_status slice_step(const tn_surf *g, tn_surf_query *q, const slice_names *N, int max_nodes,
                            int *done_nodes, tn_error *err)
{
    tn_status st = slice_check(g, q, N, N->step, err);
    if (st != TN_OK) return st;
    if (max_nodes < 1)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: tn_surf_%s with max_nodes %d < 1", N->step, max_nodes);
    tn_error_clear(err);
    if (q->sl_state == SLICE_SEARCHED) return TN_OK;
    const int n0 = q->nexpanded + q->nexp_dropped;
    const bool over = slice_run(g, q, max_nodes);
    if (done_nodes) *done_nodes = q->nexpanded + q->nexp_dropped - n0;
    q->sl_gen = q->gen; /* (an unreachable goal's closest-place search takes new stamps) */
    if (!over) {
        if (err) err->status = TN_IN_PROGRESS; /* (no message) */
        return TN_IN_PROGRESS;
    }
    q->sl_state = SLICE_SEARCHED;
    return TN_OK;
}

static tn_status slice_end(const tn_surf *g, tn_surf_query *q, const slice_names *N,
                           tn_surf_leg *out, int cap, int *count, tn_surf_stats *stats,
                           tn_error *err)
{
    tn_status st = slice_check(g, q, N, N->end, err);
    if (st != TN_OK) return st;
    if (out && cap < 0) {
        q->sl_state = SLICE_NONE;
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: tn_surf_%s with a leg buffer of negative capacity (%d)", N->end,
                            cap);
    }
    if (q->sl_state == SLICE_SEARCHING) slice_run(g, q, -1);
    q->sl_state = SLICE_NONE;
    return plan_answer(g, q, q->sl_start, q->sl_gx, q->sl_gy, q->sl_res, out, cap, count, stats,
                       err);
}

tn_status tn_surf_find_step(tn_surf *g, int max_nodes, int *done_nodes, tn_error *err)
{
    tn_error_clear(err);
    if (done_nodes) *done_nodes = 0;
    if (!g) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "surf: no graph (NULL)");
    return slice_step(g, &g->qs, &SL_GRAPH, max_nodes, done_nodes, err);
}

tn_status tn_surf_find_end(tn_surf *g, tn_surf_leg *out, int cap, int *count, tn_surf_stats *stats,
                           tn_error *err)
{
    tn_error_clear(err);
    answer_clear(count, stats);
    if (!g) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "surf: no graph (NULL)");
    return slice_end(g, &g->qs, &SL_GRAPH, out, cap, count, stats, err);
}

/* ---- query objects --------------------------------------------------------- */

static void qobj_free_nodes(tn_surf_query *q)
{
    const tn_allocator *a = &q->alloc;
    query_state_free_nodes(a, q);
    tn_free(a, q->qn);
    tn_free(a, q->qh);
    q->qn = NULL;
    q->qh = NULL;
    q->ncap = q->qn_cap = 0;
    q->ref = false;
}

static void qobj_free_surfs(tn_surf_query *q)
{
    query_state_free_surfs(&q->alloc, q);
    q->scap = 0;
}

/* Query object q's arrays made for its graph as it is now (the reference
 * search's too when `ref`): they grow only when the graph has more nodes
 * or surfaces than they hold (with room for 1/16 more), and the shortcut
 * scratch follows the query index's revision.  Nothing is allocated when
 * they fit.  All new arrays are made (in t) before any old one is freed:
 * out of memory frees what was made and leaves q as it was (its arrays,
 * capacities and tn_surf_query_memory), still fit for the graph it fitted
 * before (an edit undone, the queries go on without allocating). */
static tn_status query_fit(tn_surf_query *q, bool ref, const char *what, tn_error *err)
{
    const tn_surf *g = q->g;
    const tn_allocator *a = &q->alloc;
    const size_t nn = (size_t)g->nnodes + 1, ns = (size_t)g->nsurf + 1;
    const bool grow_n = nn > q->ncap || (ref && !q->ref), grow_s = ns > q->scap;
    /* (a new query index revision whose shortcuts the scratch still fits,
     * as after a refused build or the same shortcuts built again: kept) */
    if (q->chs_made && q->chs_rev != g->index_rev && ch_scratch_fits(q, g))
        q->chs_rev = g->index_rev;
    const bool new_ch = !q->chs_made || q->chs_rev != g->index_rev;
    tn_surf_query t; /* the new arrays, until all are made */
    memset(&t, 0, sizeof t);
    t.alloc = q->alloc;
    bool ok = true;
    const bool r = ref || q->ref;
    const size_t ncap = nn > q->ncap ? nn + nn / 16 : q->ncap, scap = ns + ns / 16;
    if (grow_n) {
        t.gcost = alloc_unzeroed(a, ncap, sizeof(int32_t));
        t.parent = alloc_unzeroed(a, ncap, sizeof(int32_t));
        t.pedge = alloc_unzeroed(a, ncap, sizeof(int32_t));
        t.order = alloc_unzeroed(a, ncap, sizeof(int32_t));
        t.qn = tn_alloc_array(a, ncap, sizeof(qnode)); /* stamps: zeroed */
        t.qh = alloc_unzeroed(a, ncap, sizeof(qheap));
        ok = t.gcost && t.parent && t.pedge && t.order && t.qn && t.qh;
        if (ok && r) {
            t.heap = alloc_unzeroed(a, ncap, sizeof(int32_t));
            t.hpos = alloc_unzeroed(a, ncap, sizeof(int32_t));
            t.tmp = alloc_unzeroed(a, ncap, sizeof(int32_t));
            t.stamp = tn_alloc_array(a, ncap, sizeof(uint32_t));
            ok = t.heap && t.hpos && t.tmp && t.stamp;
        }
    }
    if (ok && grow_s) {
        t.sd = alloc_unzeroed(a, scap, sizeof(int32_t));
        t.sheap = alloc_unzeroed(a, scap, sizeof(int32_t));
        t.shpos = alloc_unzeroed(a, scap, sizeof(int32_t));
        t.squeue = alloc_unzeroed(a, scap, sizeof(int32_t));
        t.sseen = tn_alloc_array(a, scap, sizeof(uint32_t)); /* stamps: zeroed */
        t.sdone = tn_alloc_array(a, scap, sizeof(uint32_t));
        t.sreach = tn_alloc_array(a, scap, sizeof(uint32_t));
        ok = t.sd && t.sheap && t.shpos && t.squeue && t.sseen && t.sdone && t.sreach;
    }
    if (ok && new_ch) ok = ch_scratch_fit(&t, g); /* (t.chs NULL: nothing to free) */
    if (!ok) {                                    /* q untouched */
        qobj_free_nodes(&t);
        qobj_free_surfs(&t);
        ch_scratch_free(&t);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "surf: out of memory for the query object's search state in "
                            "tn_surf_query_%s (a graph of "
                            "%d nodes, %d surfaces)",
                            what, g->nnodes, g->nsurf);
    }
    if (grow_n) {
        qobj_free_nodes(q);
        q->gcost = t.gcost, q->parent = t.parent, q->pedge = t.pedge, q->order = t.order;
        q->heap = t.heap, q->hpos = t.hpos, q->tmp = t.tmp, q->stamp = t.stamp;
        q->qn = t.qn, q->qh = t.qh;
        q->ncap = q->qn_cap = ncap, q->ref = r;
    }
    if (grow_s) {
        qobj_free_surfs(q);
        q->sd = t.sd, q->sheap = t.sheap, q->shpos = t.shpos, q->squeue = t.squeue;
        q->sseen = t.sseen, q->sdone = t.sdone, q->sreach = t.sreach;
        q->scap = scap;
    }
    if (new_ch) {
        ch_scratch_free(q);
        q->chs = t.chs, q->chs_mem = t.chs_mem;
        q->chs_made = true;
        q->chs_rev = g->index_rev;
    }
    q->mem = sizeof *q + q->chs_mem +
             q->ncap * (4 * sizeof(int32_t) + sizeof(qnode) + sizeof(qheap) +
                        (q->ref ? 3 * sizeof(int32_t) + sizeof(uint32_t) : 0)) +
             q->scap * (4 * sizeof(int32_t) + 3 * sizeof(uint32_t));
    return TN_OK;
}

tn_status tn_surf_query_create(const tn_surf *g, const tn_allocator *a, tn_surf_query **out,
                               tn_error *err)
{
    tn_error_clear(err);
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no output pointer for the query object (out NULL)");
    *out = NULL;
    if (!g)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: a query object needs a graph (g is NULL)");
    tn_allocator al = {0};
    if (a) al = *a;
    tn_surf_query *q = tn_alloc(&al, sizeof *q);
    if (!q)
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "surf: out of memory for a query object");
    q->g = g;
    q->alloc = al;
    tn_status st = query_fit(q, !g->qindex, "create", err);
    if (st != TN_OK) {
        tn_surf_query_destroy(q);
        return st;
    }
    *out = q;
    return TN_OK;
}

void tn_surf_query_destroy(tn_surf_query *q)
{
    if (!q) return;
    qobj_free_nodes(q);
    qobj_free_surfs(q);
    ch_scratch_free(q);
    tn_allocator a = q->alloc;
    tn_free(&a, q);
}

size_t tn_surf_query_memory(const tn_surf_query *q) { return q ? q->mem : 0; }

const tn_surf *tn_surf_query_graph(const tn_surf_query *q) { return q ? q->g : NULL; }

tn_status tn_surf_query_fit(tn_surf_query *q, tn_error *err)
{
    tn_error_clear(err);
    if (!q)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no query object (NULL)");
    return query_fit(q, !q->g->qindex, "fit", err);
}

tn_status tn_surf_query_find(tn_surf_query *q, int start, int gx, int gy, tn_surf_leg *out, int cap,
                             int *count, tn_surf_stats *stats, tn_error *err)
{
    tn_error_clear(err);
    answer_clear(count, stats);
    if (!q)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no query object (NULL)");
    q->serial++;
    q->sl_other = q->sl_state != SLICE_NONE; /* (refused by the fit too) */
    tn_status st = query_fit(q, !q->g->qindex, "find", err);
    if (st != TN_OK) {
        q->nexpanded = q->nexp_dropped = 0;
        return st;
    }
    return find_common(q->g, q, start, gx, gy, out, cap, count, stats, err, false);
}

tn_status tn_surf_query_begin(tn_surf_query *q, int start, int gx, int gy, tn_error *err)
{
    tn_error_clear(err);
    if (!q)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no query object (NULL)");
    q->serial++;
    q->sl_state = SLICE_NONE;
    tn_status st = query_fit(q, !q->g->qindex, "begin", err);
    if (st != TN_OK) {
        q->nexpanded = q->nexp_dropped = 0;
        return st;
    }
    return slice_begin(q->g, q, start, gx, gy, err);
}

tn_status tn_surf_query_step(tn_surf_query *q, int max_nodes, int *done_nodes, tn_error *err)
{
    tn_error_clear(err);
    if (done_nodes) *done_nodes = 0;
    if (!q)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no query object (NULL)");
    return slice_step(q->g, q, &SL_QUERY, max_nodes, done_nodes, err);
}

tn_status tn_surf_query_end(tn_surf_query *q, tn_surf_leg *out, int cap, int *count,
                            tn_surf_stats *stats, tn_error *err)
{
    tn_error_clear(err);
    answer_clear(count, stats);
    if (!q)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: no query object (NULL)");
    return slice_end(q->g, q, &SL_QUERY, out, cap, count, stats, err);
}

uint32_t tn_surf_query_serial(const tn_surf_query *q) { return q ? q->serial : 0; }

const int32_t *tn_surf_query_expanded(const tn_surf_query *q, int *count)
{
    if (count) *count = q ? q->nexpanded : 0;
    return q ? q->order : NULL;
}

void tn_surf_set_landmarks(tn_surf *g, int k)
{
    if (!g) return;
    g->lm_want = k < 0 ? 0 : (k == 0 ? -1 : (k < Q_LM ? k : Q_LM));
    query_index_build(g, NULL);
}

int tn_surf_landmark_count(const tn_surf *g) { return g && g->lm ? g->nlm : 0; }

int tn_surf_landmark_node(const tn_surf *g, int k)
{
    return g && g->lm && k >= 0 && k < g->nlm ? g->lmnode[k] : -1;
}

int tn_surf_landmark_cost(const tn_surf *g, int k, int node, bool back)
{
    if (!g || !g->lm || k < 0 || k >= g->nlm || node < 0 || node >= g->nnodes) return -1;
    int32_t c = g->lm[(size_t)node * 2 * g->nlm + (back ? g->nlm : 0) + k];
    return c >= Q_INF ? -1 : c;
}

void tn_surf_landmark_counts(const tn_surf *g, int *updated, int *recomputed)
{
    if (updated) *updated = g ? g->lm_updates : 0;
    if (recomputed) *recomputed = g ? g->lm_recomputes : 0;
}

tn_status tn_surf_find_reference(tn_surf *g, int start, int gx, int gy, tn_surf_leg *out, int cap,
                                 int *count, tn_surf_stats *stats, tn_error *err)
{
    if (!g) return find_common(NULL, NULL, start, gx, gy, out, cap, count, stats, err, true);
    return find_common(g, &g->qs, start, gx, gy, out, cap, count, stats, err, true);
}
