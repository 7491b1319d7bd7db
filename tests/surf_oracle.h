/* SPDX-License-Identifier: Zlib */
/* surf_oracle.h - a brute-force physics oracle: which standing tiles can a
 * w x h body reach from which, under tn_body_step itself.
 *
 * Independent of tn_surf: it only calls tn_body_step.  A breadth-first
 * search over the physics state space from every standing tile at once:
 * every step tries left/none/right x jump held/released (x Down when the
 * body stands on one-way platforms only).  States are deduplicated exactly
 * by the bit patterns of x, y, vy and the flags that influence the future
 * (rising, on_ground, on_oneway_only; jump_held and air_frames only where
 * they can still start a jump: on the ground or within coyote time; past it
 * every air_frames value behaves the same).  A standing state is stored as
 * its lattice position (x rounded to a multiple of 8/3 px, jump released):
 * the oracle checks that the rounding moves x by less than 1/64 px (float
 * drift, which the physics' 1/8 px overlap slack cannot see), and a standing
 * body with jump held reaches exactly what it reaches released (it can
 * release in place).  Then the strongly connected components of the state
 * graph (Tarjan) and, in reverse topological order, the set of standing
 * tiles each component reaches (bitsets).  reach[a * ntiles + b] = 1 when
 * standing tile index b is reachable from tile index a.
 *
 * Cost: O(states x 12 steps); ~10^5..10^6 states on a 24x16 level.
 * Header-only, used by tests/test_surf.c and tilenav-bench surf-oracle.
 */
#ifndef SURF_ORACLE_H
#define SURF_ORACLE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tn_phys.h"

typedef struct or_state {
    float x, y, vy;
    uint8_t flags; /* 1 on_ground, 2 oneway_only, 4 jump_held, 8 rising */
    uint8_t air;
    uint16_t pad;
} or_state;

typedef struct or_graph {
    or_state *st;
    int n, cap;
    uint32_t *hash; /* index + 1 */
    size_t hcap;
    int *succ_first; /* n + 1 after build */
    int *succ;
    int nsucc, succ_cap;
    int drift_bad; /* standing states more than 1/64 px off the lattice */
} or_graph;

typedef struct or_result {
    int ntiles; /* standing tiles (sources) */
    int *tile_x, *tile_y;
    uint8_t *reach; /* ntiles x ntiles */
    int states;
    int drift_bad;
} or_result;

static uint32_t or_hash(const or_state *s)
{
    uint32_t a, b, c;
    memcpy(&a, &s->x, 4);
    memcpy(&b, &s->y, 4);
    memcpy(&c, &s->vy, 4);
    uint32_t h = a * 0x9E3779B1u ^ (b * 0x85EBCA77u + 0x165667B1u);
    h = (h << 11 | h >> 21) ^ c * 0xC2B2AE3Du ^ ((uint32_t)s->flags << 8 | s->air) * 0x27D4EB2Fu;
    h ^= h >> 16;
    return h * 0x7FEB352Du;
}

static int or_same(const or_state *a, const or_state *b)
{
    return memcmp(&a->x, &b->x, 4) == 0 && memcmp(&a->y, &b->y, 4) == 0 &&
           memcmp(&a->vy, &b->vy, 4) == 0 && a->flags == b->flags && a->air == b->air;
}

static const float OR_T = (float)TN_TILE_PX;

/* Canonical state of a body after a step. */
static or_state or_canon(or_graph *G, const tn_body *b, const tn_phys_params *p)
{
    or_state s;
    memset(&s, 0, sizeof s);
    double step = (double)p->walk_speed * (double)p->dt;
    double j = floor((double)b->x / step + 0.5);
    float xs = (float)(j * step);
    if (fabsf(xs - b->x) > 1.0f / 64.0f) G->drift_bad++;
    s.x = xs;
    s.y = b->y;
    s.vy = b->vy;
    if (b->on_ground) {
        s.flags = 1 | (b->on_oneway_only ? 2 : 0);
        s.air = 0;
        return s;
    }
    int coyote = p->coyote_frames;
    bool may = b->air_frames > 0 && b->air_frames <= coyote;
    s.flags = (uint8_t)((b->rising ? 8 : 0) | (may && b->jump_held ? 4 : 0));
    s.air = (uint8_t)(b->air_frames <= coyote ? b->air_frames : coyote + 1);
    return s;
}

static tn_body or_body(const or_state *s, int w, int h, const tn_phys_params *p)
{
    tn_body b;
    memset(&b, 0, sizeof b);
    b.w = w;
    b.h = h;
    b.x = s->x;
    b.y = s->y;
    b.vy = s->vy;
    b.on_ground = (s->flags & 1) != 0;
    b.on_oneway_only = (s->flags & 2) != 0;
    b.jump_held = (s->flags & 4) != 0;
    b.rising = (s->flags & 8) != 0;
    b.air_frames = s->air <= p->coyote_frames ? s->air : 1000000;
    return b;
}

/* ---- the search ------------------------------------------------------- */

typedef struct or_ent {
    or_state v; /* x unused */
    int lo, words;
    size_t bits;
} or_ent;

typedef struct or_ctx {
    const tn_map *m;
    int w, h;
    const tn_phys_params *p;
    double step; /* px per lattice step */
    int jmax;
    int *pos_run; /* (mh + 1) x (jmax + 1): run of a standing position, -1 unknown, -2 none */
    int *run_row, *run_a, *run_b, nrun, run_cap;
    int *redge_from, *redge_to, nredge, redge_cap;
    or_ent *ent;
    int nent, ent_cap;
    uint64_t *bits;
    size_t nbits, bits_cap;
    uint32_t *hash;
    size_t hcap;
    int drift_bad, bulk_bad;
    long steps;
} or_ctx;

static float or_lx(const or_ctx *C, int j) { return (float)((double)j * C->step); }

static int or_lj(const or_ctx *C, float x, int *bad)
{
    double j = floor((double)x / C->step + 0.5);
    if (fabsf((float)(j * C->step) - x) > 1.0f / 64.0f) (*bad)++;
    return (int)j;
}

/* One physics step of a canonical state at lattice j. */
static or_state or_step(or_ctx *C, const or_state *v, int j, tn_input in, int *jn)
{
    tn_body b = or_body(v, C->w, C->h, C->p);
    b.x = or_lx(C, j);
    tn_body_step(&b, C->m, C->p, in);
    C->steps++;
    or_graph G;
    memset(&G, 0, sizeof G);
    or_state s = or_canon(&G, &b, C->p);
    C->drift_bad += G.drift_bad;
    *jn = or_lj(C, b.x, &C->drift_bad);
    s.x = 0.0f;
    return s;
}

static int or_get(or_ctx *C, const or_state *v, int lo, int words, int layer0)
{
    if ((size_t)(C->nent - layer0 + 1) * 2 > C->hcap) {
        free(C->hash);
        C->hcap = C->hcap ? C->hcap * 2 : 1024;
        C->hash = calloc(C->hcap, sizeof *C->hash);
        for (int i = layer0; i < C->nent; i++) {
            size_t h = or_hash(&C->ent[i].v) & (C->hcap - 1);
            while (C->hash[h]) h = (h + 1) & (C->hcap - 1);
            C->hash[h] = (uint32_t)i + 1;
        }
    }
    size_t h = or_hash(v) & (C->hcap - 1);
    while (C->hash[h]) {
        int i = (int)C->hash[h] - 1;
        if (i >= layer0 && or_same(&C->ent[i].v, v)) return i;
        h = (h + 1) & (C->hcap - 1);
    }
    if (C->nent == C->ent_cap) {
        C->ent_cap = C->ent_cap ? C->ent_cap * 2 : 1024;
        C->ent = realloc(C->ent, sizeof *C->ent * (size_t)C->ent_cap);
    }
    if (C->nbits + (size_t)words > C->bits_cap) {
        while (C->nbits + (size_t)words > C->bits_cap)
            C->bits_cap = C->bits_cap ? C->bits_cap * 2 : 4096;
        C->bits = realloc(C->bits, sizeof *C->bits * C->bits_cap);
    }
    or_ent *e = &C->ent[C->nent];
    e->v = *v;
    e->lo = lo;
    e->words = words;
    e->bits = C->nbits;
    memset(C->bits + C->nbits, 0, (size_t)words * 8);
    C->nbits += (size_t)words;
    C->hash[h] = (uint32_t)C->nent + 1;
    return C->nent++;
}

static void or_set(or_ctx *C, int e, int j)
{
    int k = j - C->ent[e].lo;
    C->bits[C->ent[e].bits + (size_t)(k >> 6)] |= 1ull << (k & 63);
}

/* The walk-connected run containing standing position (row, j): created
 * (and queued) on first sight.  -1 when (row, j) is not a standing place. */
static int or_run_of(or_ctx *C, int row, int j)
{
    if (row < 0 || row > C->m->h || j < 0 || j > C->jmax) return -1;
    int *pr = &C->pos_run[row * (C->jmax + 1) + j];
    if (*pr != -1) return *pr;
    /* extend by walk steps that work both ways */
    int a = j, b = j;
    for (int dir = -1; dir <= 1; dir += 2) {
        int k = j;
        for (;;) {
            tn_body s;
            memset(&s, 0, sizeof s);
            s.w = C->w;
            s.h = C->h;
            s.x = or_lx(C, k);
            s.y = (float)row * OR_T - (float)C->h * OR_T;
            s.on_ground = true;
            tn_body s2 = s;
            tn_input go = {dir<0, dir> 0, false, false}, back = {dir > 0, dir < 0, false, false};
            tn_body_step(&s2, C->m, C->p, go);
            int bad = 0;
            if (!s2.on_ground || s2.y != s.y || or_lj(C, s2.x, &bad) != k + dir) break;
            tn_body s3 = s2;
            s3.x = or_lx(C, k + dir);
            tn_body_step(&s3, C->m, C->p, back);
            if (!s3.on_ground || s3.y != s.y || or_lj(C, s3.x, &bad) != k) break;
            k += dir;
        }
        if (dir < 0)
            a = k;
        else
            b = k;
    }
    if (C->nrun == C->run_cap) {
        C->run_cap = C->run_cap ? C->run_cap * 2 : 64;
        C->run_row = realloc(C->run_row, sizeof(int) * (size_t)C->run_cap);
        C->run_a = realloc(C->run_a, sizeof(int) * (size_t)C->run_cap);
        C->run_b = realloc(C->run_b, sizeof(int) * (size_t)C->run_cap);
    }
    int r = C->nrun++;
    C->run_row[r] = row;
    C->run_a[r] = a;
    C->run_b[r] = b;
    for (int k = a; k <= b; k++) C->pos_run[row * (C->jmax + 1) + k] = r;
    return r;
}

static void or_edge(or_ctx *C, int from, int to)
{
    if (from == to) return;
    if (C->nredge == C->redge_cap) {
        C->redge_cap = C->redge_cap ? C->redge_cap * 2 : 256;
        C->redge_from = realloc(C->redge_from, sizeof(int) * (size_t)C->redge_cap);
        C->redge_to = realloc(C->redge_to, sizeof(int) * (size_t)C->redge_cap);
    }
    C->redge_from[C->nredge] = from;
    C->redge_to[C->nredge++] = to;
}

static void or_landing(or_ctx *C, int run, const or_state *s, int jn)
{
    int row = (int)lroundf((s->y + (float)C->h * OR_T) / OR_T);
    int r = or_run_of(C, row, jn);
    if (r >= 0) or_edge(C, run, r);
}

/* Every input sequence from every position of run `run`, until landing. */
static void or_excursion(or_ctx *C, int run)
{
    const float W = (float)C->w * OR_T, st = (float)C->step;
    int row = C->run_row[run], lo = C->run_a[run], hi = C->run_b[run];
    C->nent = 0;
    C->nbits = 0;
    int layer0 = 0;
    memset(C->hash, 0, C->hcap * sizeof *C->hash);
    for (int j = lo; j <= hi; j++) {
        tn_body b;
        memset(&b, 0, sizeof b);
        b.w = C->w;
        b.h = C->h;
        b.x = or_lx(C, j);
        b.y = (float)row * OR_T - (float)C->h * OR_T;
        b.on_ground = true;
        tn_input none = {false, false, false, false};
        tn_body_step(&b, C->m, C->p, none);
        or_graph G;
        memset(&G, 0, sizeof G);
        or_state s = or_canon(&G, &b, C->p);
        s.x = 0.0f;
        int e = or_get(C, &s, lo, (hi - lo) / 64 + 1, 0);
        or_set(C, e, j);
    }
    uint8_t *colbad = malloc((size_t)C->m->w + 8);
    for (int t = 0; layer0 < C->nent && t < 2000; t++) {
        int layer1 = C->nent;
        int nlo = lo > 0 ? lo - 1 : 0, nhi = hi < C->jmax ? hi + 1 : C->jmax;
        int nwords = (nhi - nlo) / 64 + 1;
        memset(C->hash, 0, C->hcap * sizeof *C->hash);
        for (int ei = layer0; ei < layer1; ei++) {
            or_ent E = C->ent[ei];
            /* tiles one step can reach: any non-empty one makes the column bad */
            float vy = fabsf(E.v.vy) + C->p->gravity * C->p->dt;
            if (vy > C->p->max_fall && vy > tn_phys_jump_speed(C->p))
                vy = fmaxf(C->p->max_fall, tn_phys_jump_speed(C->p));
            float reach = vy * C->p->dt + 2.0f;
            int r0 = (int)floorf((E.v.y - reach) / OR_T);
            int r1 = (int)floorf((E.v.y + (float)C->h * OR_T + reach) / OR_T);
            for (int c = 0; c < C->m->w; c++) {
                int bad = r0 < 0 || r1 >= C->m->h;
                for (int r = r0 < 0 ? 0 : r0; r <= r1 && r < C->m->h && !bad; r++)
                    bad = tn_map_tile(C->m, c, r) != TN_TILE_EMPTY;
                colbad[c] = (uint8_t)bad;
            }
            int ground = (E.v.flags & 1) != 0;
            int ndown = (E.v.flags & 3) == 3 ? 2 : 1;
            int nj = E.words * 64;
            /* free positions, their first and last */
            int ff = -1, fl = -1;
            char *isfree = malloc((size_t)nj);
            for (int k = 0; k < nj; k++) {
                isfree[k] = 0;
                if (!((C->bits[E.bits + (size_t)(k >> 6)] >> (k & 63)) & 1)) continue;
                float x = or_lx(C, E.lo + k);
                int c0 = (int)floorf((x - st - 2.0f) / OR_T),
                    c1 = (int)floorf((x + W + st + 2.0f) / OR_T);
                int bad = c0 < 0 || c1 >= C->m->w;
                for (int c = c0 < 0 ? 0 : c0; c <= c1 && c < C->m->w && !bad; c++) bad = colbad[c];
                if (!bad && !ground) {
                    isfree[k] = 1;
                    if (ff < 0) ff = k;
                    fl = k;
                }
            }
            for (int hx = 0; hx < 3; hx++)
                for (int jp = 0; jp < 2; jp++)
                    for (int dn = 0; dn < ndown; dn++) {
                        tn_input in = {hx == 0, hx == 2, dn == 1, jp == 1};
                        int bulk = 0, bulk_e = -1, dj = 0;
                        if (ff >= 0) {
                            int j1, j2;
                            or_state a = or_step(C, &E.v, E.lo + ff, in, &j1);
                            or_state b = or_step(C, &E.v, E.lo + fl, in, &j2);
                            if (!(a.flags & 1) && or_same(&a, &b) && j1 - ff == j2 - fl) {
                                bulk = 1;
                                dj = j1 - (E.lo + ff);
                                bulk_e = or_get(C, &a, nlo, nwords, layer1);
                            } else {
                                C->bulk_bad++;
                            }
                        }
                        for (int k = 0; k < nj; k++) {
                            if (!((C->bits[C->ent[ei].bits + (size_t)(k >> 6)] >> (k & 63)) & 1))
                                continue;
                            if (bulk && isfree[k]) {
                                or_set(C, bulk_e, E.lo + k + dj);
                                continue;
                            }
                            int jn;
                            or_state s = or_step(C, &E.v, E.lo + k, in, &jn);
                            if (s.flags & 1) {
                                or_landing(C, run, &s, jn);
                                continue;
                            }
                            if (jn < nlo || jn > nhi) continue;
                            int e2 = or_get(C, &s, nlo, nwords, layer1);
                            or_set(C, e2, jn);
                        }
                    }
            free(isfree);
        }
        layer0 = layer1;
        lo = nlo;
        hi = nhi;
    }
    free(colbad);
}

/* The oracle.  The caller frees the result with or_result_free. */
static void or_run(const tn_map *m, int w, int h, const tn_phys_params *p, or_result *R)
{
    or_ctx C;
    memset(&C, 0, sizeof C);
    memset(R, 0, sizeof *R);
    C.m = m;
    C.w = w;
    C.h = h;
    C.p = p;
    C.step = (double)p->walk_speed * (double)p->dt;
    C.jmax = (int)floor((double)((m->w - w) * TN_TILE_PX) / C.step + 1e-3);
    size_t np = (size_t)(m->h + 1) * (size_t)(C.jmax + 1);
    C.pos_run = malloc(sizeof(int) * np);
    for (size_t i = 0; i < np; i++) C.pos_run[i] = -1;
    C.hcap = 1024;
    C.hash = calloc(C.hcap, sizeof *C.hash);
    R->tile_x = malloc(sizeof(int) * (size_t)(m->w * m->h));
    R->tile_y = malloc(sizeof(int) * (size_t)(m->w * m->h));
    int *tile_run = malloc(sizeof(int) * (size_t)(m->w * m->h));
    for (int ty = 0; ty < m->h; ty++)
        for (int tx = 0; tx < m->w; tx++) {
            if (tx + w > m->w || ty - h + 1 < 0) continue;
            tn_body b;
            tn_body_place(&b, p, w, h, tx, ty);
            if (tn_body_box_blocked(m, p, b.x, b.y, w, h)) continue;
            tn_input none = {false, false, false, false};
            float x0 = b.x, y0 = b.y;
            tn_body_step(&b, m, p, none);
            if (!b.on_ground || b.x != x0 || b.y != y0) continue;
            int bad = 0;
            tile_run[R->ntiles] = or_run_of(&C, ty + 1, or_lj(&C, b.x, &bad));
            if (tile_run[R->ntiles] < 0) continue;
            R->tile_x[R->ntiles] = tx;
            R->tile_y[R->ntiles] = ty;
            R->ntiles++;
        }
    for (int r = 0; r < C.nrun; r++) or_excursion(&C, r); /* runs found on the way are appended */
    /* reachability between runs, then tiles */
    int nr = C.nrun;
    char *seen = malloc((size_t)nr + 1);
    int *queue = malloc(sizeof(int) * ((size_t)nr + 1));
    int *first = calloc((size_t)nr + 1, sizeof(int)),
        *adj = malloc(sizeof(int) * ((size_t)C.nredge + 1));
    for (int e = 0; e < C.nredge; e++) first[C.redge_from[e] + 1]++;
    for (int r = 0; r < nr; r++) first[r + 1] += first[r];
    int *fill = malloc(sizeof(int) * ((size_t)nr + 1));
    memcpy(fill, first, sizeof(int) * (size_t)nr);
    for (int e = 0; e < C.nredge; e++) adj[fill[C.redge_from[e]]++] = C.redge_to[e];
    R->reach = calloc((size_t)R->ntiles * (size_t)R->ntiles + 1, 1);
    int *tile_index = malloc(sizeof(int) * (size_t)(m->w * m->h));
    for (int i = 0; i < m->w * m->h; i++) tile_index[i] = -1;
    for (int t = 0; t < R->ntiles; t++) tile_index[R->tile_y[t] * m->w + R->tile_x[t]] = t;
    for (int a = 0; a < R->ntiles; a++) {
        memset(seen, 0, (size_t)nr);
        int qh = 0, qt = 0;
        queue[qt++] = tile_run[a];
        seen[tile_run[a]] = 1;
        while (qh < qt) {
            int r = queue[qh++];
            /* the tiles of the run's positions */
            for (int j = C.run_a[r]; j <= C.run_b[r]; j++) {
                float x = or_lx(&C, j);
                int tx = (int)floorf((x + 1.0f / 8.0f) / OR_T), ty = C.run_row[r] - 1;
                if (tx >= 0 && ty >= 0 && tx < m->w && ty < m->h) {
                    int ti = tile_index[ty * m->w + tx];
                    if (ti >= 0) R->reach[a * R->ntiles + ti] = 1;
                }
            }
            for (int e = first[r]; e < first[r + 1]; e++)
                if (!seen[adj[e]]) {
                    seen[adj[e]] = 1;
                    queue[qt++] = adj[e];
                }
        }
    }
    R->states = (int)C.steps;
    R->drift_bad = C.drift_bad;
    free(seen);
    free(queue);
    free(first);
    free(adj);
    free(fill);
    free(tile_index);
    free(tile_run);
    free(C.pos_run);
    free(C.run_row);
    free(C.run_a);
    free(C.run_b);
    free(C.redge_from);
    free(C.redge_to);
    free(C.ent);
    free(C.bits);
    free(C.hash);
}

static void or_result_free(or_result *R)
{
    free(R->tile_x);
    free(R->tile_y);
    free(R->reach);
    memset(R, 0, sizeof *R);
}

/* ---- the fewest frames ------------------------------------------------
 * or_fastest: the fewest frames from standing at rest at lattice position
 * (row, j) to standing on each tile, by breadth-first search over exact
 * physics states under tn_body_step, every input each frame (left / none /
 * right x jump held / released, x Down on a one-way platform).  The states
 * are or_canon's, with jump_held kept on the ground too: a body that lands
 * with jump held must release it for a frame before it can jump again, and
 * the reachability oracle above does not count frames.  frames[ty * w + tx]
 * gets the first frame the body stands (on_ground) with that bottom-left
 * tile, -1 where it never does within max_frames.  Returns the states
 * visited. */
static long or_fastest(const tn_map *m, int w, int h, const tn_phys_params *p, int row, int j,
                       int max_frames, int *frames)
{
    const int nt = m->w * m->h;
    for (int i = 0; i < nt; i++) frames[i] = -1;
    size_t hcap = 1 << 16, n = 0, cap = 1 << 14;
    or_state *seen = malloc(hcap * sizeof *seen), *cur = malloc(cap * sizeof *cur),
             *next = malloc(cap * sizeof *next);
    uint8_t *used = calloc(hcap, 1);
    size_t ncur = 0, nnext = 0;
    or_graph G;
    memset(&G, 0, sizeof G);
    tn_body b0;
    memset(&b0, 0, sizeof b0);
    b0.w = w;
    b0.h = h;
    b0.x = (float)((double)j * (double)p->walk_speed * (double)p->dt);
    b0.y = (float)row * OR_T - (float)h * OR_T;
    tn_input none = {false, false, false, false};
    tn_body_step(&b0, m, p, none); /* at rest: the step sets on_ground, on_oneway_only */
    cur[ncur++] = or_canon(&G, &b0, p);
    long visited = 0;
    for (int f = 1; f <= max_frames && ncur > 0; f++) {
        nnext = 0;
        for (size_t k = 0; k < ncur; k++) {
            const or_state s = cur[k];
            const bool down_too = (s.flags & 3) == 3;
            for (int in = 0; in < (down_too ? 12 : 6); in++) {
                tn_body b = or_body(&s, w, h, p);
                tn_input ip = {in % 3 == 0, in % 3 == 2, in >= 6, (in / 3) % 2 == 1};
                tn_body_step(&b, m, p, ip);
                or_state t = or_canon(&G, &b, p);
                if (b.on_ground && b.jump_held) t.flags |= 4;
                if (b.on_ground) {
                    int tx, ty;
                    tn_body_tile(&b, p, &tx, &ty);
                    if (tx >= 0 && ty >= 0 && tx < m->w && ty < m->h && frames[ty * m->w + tx] < 0)
                        frames[ty * m->w + tx] = f;
                }
                if (2 * (n + 1) > hcap) { /* grow the set */
                    size_t nc = hcap * 2;
                    or_state *ns = malloc(nc * sizeof *ns);
                    uint8_t *nu = calloc(nc, 1);
                    for (size_t q = 0; q < hcap; q++) {
                        if (!used[q]) continue;
                        size_t hh = or_hash(&seen[q]) & (nc - 1);
                        while (nu[hh]) hh = (hh + 1) & (nc - 1);
                        nu[hh] = 1;
                        ns[hh] = seen[q];
                    }
                    free(seen);
                    free(used);
                    seen = ns, used = nu, hcap = nc;
                }
                size_t hh = or_hash(&t) & (hcap - 1);
                while (used[hh] && !or_same(&seen[hh], &t)) hh = (hh + 1) & (hcap - 1);
                if (used[hh]) continue;
                used[hh] = 1;
                seen[hh] = t;
                n++;
                if (nnext == cap) {
                    cap *= 2;
                    cur = realloc(cur, cap * sizeof *cur);
                    next = realloc(next, cap * sizeof *next);
                }
                next[nnext++] = t;
            }
        }
        visited += (long)ncur;
        or_state *sw = cur;
        cur = next, next = sw;
        ncur = nnext;
    }
    free(seen);
    free(used);
    free(cur);
    free(next);
    return visited;
}

#endif
