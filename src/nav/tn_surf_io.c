/* SPDX-License-Identifier: Zlib */
/* tn_surf_io.c - a built graph as bytes (tn_surf_save) and back
 * (tn_surf_load): what the searches made (edges, input runs, footprints,
 * explored boxes) and the landmark tables, checked field by field on the
 * way in.  Everything else (surfaces, node arrays, terrain sums, the rest of
 * the query index) is made from the map as a build makes it (tn_surf.c
 * build_graph, which decodes the bytes here instead of searching; the
 * tables are proved to be the graph's shortest costs in one pass over its
 * arcs instead of 2 x landmarks Dijkstra searches: tn_surf_query.c
 * lm_take).
 *
 * Format 2, every integer little-endian, floats as their IEEE-754 bits:
 *   "TNSURF" u16 format
 *   u32 map w, h; u64 FNV-1a of the map's tiles (row-major bytes)
 *   i32 box w, h, coyote; u8 reference_build, keep_all_landings,
 *     verify_edges, custom step function (1: profile.step or step_user_fn is set)
 *   f32 dt, gravity, max_fall, walk_speed, jump_height, jump_cut_speed;
 *     i32 coyote_frames; f32 tile_px
 *   u32 surfaces, nodes, edges, input runs, footprints; u64 footprint words
 *   per surface: i16 x4 explored box (x0, y0, x1, y1): the union of its
 *     footprints' boxes (32000, 32000, -32000, -32000 when it has none)
 *   per edge: i32 from, to; u16 runs, frames; u8 kind   (run0 implied)
 *   per input run: u16
 *   per footprint, in (surface, search) order: i32 surface; i16 x0, y0,
 *     x1, y1; u8 search (bits implied)
 *   per footprint word: u64
 *   i32 landmark setting (tn_surf_set_landmarks: 0 the default, -1 none,
 *     1..16); u32 landmarks K (0: none saved, else as many as the setting
 *     gives the graph; saves from before 2026-12-07 may hold the setting's
 *     count on a graph of fewer nodes, which the load takes and chooses
 *     again); per landmark: i32 node; per surface: u32 x 2K
 *     (its first node's row of the tables: K costs from the landmarks, K
 *     to them; Q_INF unreached); per node: ceil(K / 2) bytes, 2 bits per
 *     column (column f at bits 2f): its cost less the previous node's of
 *     the surface, 0: same, 1: +1, 2: -1 (0 for a surface's first node).
 *     Neighbours on a surface walk to each other in a frame, so their
 *     costs differ by at most 1: 2.2 MB at 1024x1024 against 25 MB whole.
 *   u64 checksum of every byte before it: FNV-1a over its little-endian
 *     64-bit words, then over the bytes after the last whole word */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/phys_diff.h"
#include "internal/surf_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAGIC "TNSURF"
#define FORMAT 2
#define HEAD_BYTES (6 + 2 + 16 + 16 + 32 + 28)
#define EDGE_BYTES 13
#define FOOT_BYTES 13

#define FNV0 14695981039346656037ull
#define FNV_PRIME 1099511628211ull

/* FNV-1a, byte by byte: the terrain's hash */
uint64_t tn_surfi_terrain_hash(const uint8_t *tiles, size_t n)
{
    uint64_t h = FNV0;
    for (size_t i = 0; i < n; i++) h = (h ^ tiles[i]) * FNV_PRIME;
    return h;
}

/* ---- little-endian writer and reader ------------------------------------ */

typedef struct wr {
    uint8_t *p; /* NULL: count only */
    size_t n;
} wr;

static void put(wr *w, uint64_t v, int bytes)
{
    if (w->p)
        for (int i = 0; i < bytes; i++) w->p[w->n + (size_t)i] = (uint8_t)(v >> (8 * i));
    w->n += (size_t)bytes;
}
static void put_f32(wr *w, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put(w, u, 4);
}

static uint64_t get(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, (size_t)bytes); /* the host's order is the format's: one load */
#else
    for (int i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
#endif
    return v;
}

/* The data's checksum: FNV-1a over little-endian 64-bit words (the bytes
 * after the last whole word one by one), eight times faster than byte by
 * byte; it catches data cut short or changed, not an attacker. */
static uint64_t checksum(const uint8_t *p, size_t n)
{
    uint64_t h = FNV0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) h = (h ^ get(p + i, 8)) * FNV_PRIME;
    for (; i < n; i++) h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

static int32_t get_i32(const uint8_t *p) { return (int32_t)(uint32_t)get(p, 4); }
static int16_t get_i16(const uint8_t *p) { return (int16_t)(uint16_t)get(p, 2); }
static float get_f32(const uint8_t *p)
{
    uint32_t u = (uint32_t)get(p, 4);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- save ------------------------------------------------------------------ */

/* The header and arrays into w (w->p NULL: their size only). */
/* The footprints in (surface, search) order, the order a build makes
 * them in (a counting sort by surface; a surface has a few searches): a
 * repair keeps the records of the searches it did not run again and puts
 * the new ones after them, so storage order would save other bytes for a
 * repaired graph than for a fresh build of its map.  NULL on out of
 * memory (then storage order, and the graph's own explored boxes). */
static int32_t *foot_order_of(const tn_surf *g)
{
    const tn_allocator *a = &g->alloc;
    int32_t *first = tn_alloc_array(a, (size_t)g->nsurf + 1, sizeof *first);
    int32_t *ord = tn_alloc_array(a, (size_t)g->nfoot + 1, sizeof *ord);
    if (!first || !ord) {
        tn_free(a, first);
        tn_free(a, ord);
        return NULL;
    }
    for (int f = 0; f < g->nfoot; f++) first[g->foot[f].surf + 1]++;
    for (int s = 0; s < g->nsurf; s++) first[s + 1] += first[s];
    for (int f = 0; f < g->nfoot; f++) ord[first[g->foot[f].surf]++] = f;
    /* (first[s] is now where surface s's records end) */
    for (int s = 0, i0 = 0; s < g->nsurf; i0 = first[s++])
        for (int i = i0 + 1; i < first[s]; i++)
            for (int k = i; k > i0 && g->foot[ord[k - 1]].search > g->foot[ord[k]].search; k--) {
                const int32_t t = ord[k];
                ord[k] = ord[k - 1], ord[k - 1] = t;
            }
    tn_free(a, first);
    return ord;
}

static void write_graph(const tn_surf *g, wr *w, const int32_t *ord)
{
    const tn_surf_profile *pr = &g->uprof; /* the caller's, as loads compare */
    for (int i = 0; i < 6; i++) put(w, (uint8_t)MAGIC[i], 1);
    put(w, FORMAT, 2);
    put(w, (uint32_t)g->mw, 4);
    put(w, (uint32_t)g->mh, 4);
    put(w, tn_surfi_terrain_hash(g->tiles, (size_t)g->mw * (size_t)g->mh), 8);
    put(w, (uint32_t)pr->w, 4);
    put(w, (uint32_t)pr->h, 4);
    put(w, (uint32_t)pr->coyote, 4);
    put(w, pr->reference_build, 1);
    put(w, pr->keep_all_landings, 1);
    put(w, pr->verify_edges, 1);
    put(w, (pr->step != NULL && pr->step != tn_body_step) || pr->step_user_fn != NULL, 1);
    put_f32(w, pr->phys.dt);
    put_f32(w, pr->phys.gravity);
    put_f32(w, pr->phys.max_fall);
    put_f32(w, pr->phys.walk_speed);
    put_f32(w, pr->phys.jump_height);
    put_f32(w, pr->phys.jump_cut_speed);
    put(w, (uint32_t)pr->phys.coyote_frames, 4);
    put_f32(w, pr->phys.tile_px);
    uint32_t nruns = 0;
    for (int e = 0; e < g->nedges; e++) nruns += g->edge[e].nruns;
    uint64_t nwords = 0;
    for (int f = 0; f < g->nfoot; f++) nwords += tn_surfi_foot_words(&g->foot[f]);
    put(w, (uint32_t)g->nsurf, 4);
    put(w, (uint32_t)g->nnodes, 4);
    put(w, (uint32_t)g->nedges, 4);
    put(w, nruns, 4);
    put(w, (uint32_t)g->nfoot, 4);
    put(w, nwords, 8);
    /* explored boxes: the union of each surface's footprints (ord groups
     * them), the same for a fresh build and a repaired graph (which keeps
     * a partly kept surface's old box as a bound) */
    for (int s = 0, i = 0; s < g->nsurf; s++) {
        int b[4];
        for (int k = 0; k < 4; k++) b[k] = ord ? (k < 2 ? 32000 : -32000) : g->sbox[4 * s + k];
        for (; ord && i < g->nfoot && g->foot[ord[i]].surf == s; i++) {
            const tn_surf_foot *F = &g->foot[ord[i]];
            b[0] = F->x0 < b[0] ? F->x0 : b[0];
            b[1] = F->y0 < b[1] ? F->y0 : b[1];
            b[2] = F->x1 > b[2] ? F->x1 : b[2];
            b[3] = F->y1 > b[3] ? F->y1 : b[3];
        }
        for (int k = 0; k < 4; k++) put(w, (uint16_t)(int16_t)b[k], 2);
    }
    for (int e = 0; e < g->nedges; e++) {
        const tn_surf_edge *E = &g->edge[e];
        put(w, (uint32_t)E->from, 4);
        put(w, (uint32_t)E->to, 4);
        put(w, E->nruns, 2);
        put(w, E->frames, 2);
        put(w, E->kind, 1);
    }
    /* runs in edge order, without the dead ones a repair leaves */
    for (int e = 0; e < g->nedges; e++)
        for (int k = 0; k < g->edge[e].nruns; k++)
            put(w, g->runs[g->edge[e].run0 + (uint32_t)k], 2);
    for (int i = 0; i < g->nfoot; i++) {
        const tn_surf_foot *F = &g->foot[ord ? ord[i] : i];
        put(w, (uint32_t)F->surf, 4);
        put(w, (uint16_t)F->x0, 2);
        put(w, (uint16_t)F->y0, 2);
        put(w, (uint16_t)F->x1, 2);
        put(w, (uint16_t)F->y1, 2);
        put(w, F->search, 1);
    }
    for (int i = 0; i < g->nfoot; i++) {
        const tn_surf_foot *F = &g->foot[ord ? ord[i] : i];
        const size_t nw = tn_surfi_foot_words(F);
        for (size_t k = 0; k < nw; k++) put(w, g->fbits[F->bits + k], 8);
    }
    /* the landmark tables (none when the query index could not be made) */
    const int K = g->qindex && g->lm ? g->nlm : 0, K2 = 2 * K;
    put(w, (uint32_t)g->lm_want, 4);
    put(w, (uint32_t)K, 4);
    for (int k = 0; k < K; k++) put(w, (uint32_t)g->lmnode[k], 4);
    for (int s = 0; s < g->nsurf && K; s++)
        for (int f = 0; f < K2; f++) put(w, (uint32_t)g->lm[(size_t)g->surf[s].node0 * K2 + f], 4);
    for (int n = 0; n < g->nnodes && K; n++) {
        uint64_t code = 0;
        if (n != g->surf[g->node_surf[n]].node0)
            for (int f = 0; f < K2; f++) {
                const int32_t d = g->lm[(size_t)n * K2 + f] - g->lm[(size_t)(n - 1) * K2 + f];
                code |= (uint64_t)(d == 0 ? 0 : d == 1 ? 1 : d == -1 ? 2 : 3) << (2 * f);
            }
        put(w, code, (K + 1) / 2); /* (3, which no table has, would be refused) */
    }
}

tn_status tn_surf_save(const tn_surf *g, void *buf, size_t cap, size_t *size, tn_error *err)
{
    tn_error_clear(err);
    if (size) *size = 0;
    if (!g || !size)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: cannot save: %s is NULL", !g ? "the graph" : "size");
    if (!g->row_first || !g->tiles)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "surf: cannot save: the graph has no data (its last build or "
                            "repair failed)");
    wr w = {NULL, 0};
    write_graph(g, &w, NULL); /* (the size: the same in any order) */
    const size_t need = w.n + 8;
    *size = need;
    if (!buf) return TN_OK;
    if (cap < need)
        return tn_error_set(err, TN_FAILURE | TN_BUFFER_TOO_SMALL, 0, 0,
                            "surf: cannot save: %zu bytes needed, the buffer has %zu", need, cap);
    int32_t *ord = foot_order_of(g);
    w = (wr){buf, 0};
    write_graph(g, &w, ord);
    put(&w, checksum(buf, w.n), 8);
    tn_free(&g->alloc, ord);
    return TN_OK;
}

/* ---- load ------------------------------------------------------------------ */

/* PARSE_ERROR: "NAME: surface graph data: " and the message */
static tn_status bad(const surf_blob *L, tn_error *err, const char *fmt, ...)
{
    char msg[TN_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tn_error_set(err, TN_FAILURE | TN_PARSE_ERROR, 0, 0, "%s: surface graph data: %s",
                        L->name, msg);
}

static const char *coyote_name(int c)
{
    static const char *const names[] = {"LAST", "ALL", "NONE", "FULL"};
    return c >= 0 && c < 4 ? names[c] : "?";
}

/* The fields in which the saved profile a (custom: it had a custom step
 * function) differs from the given b, as "tile_px 32 / 16, gravity 2060 /
 * 1030" in buf, the tile size and the box first (a game that mixes 16- and
 * 32-px physics, or two sizes, reads why at once). */
static void profile_diff(const tn_surf_profile *a, bool custom, const tn_surf_profile *b,
                         bool b_custom, char *buf, size_t cap)
{
    const tn_phys_params *p = &a->phys, *r = &b->phys;
    size_t n = 0;
    buf[0] = '\0';
#define TN_DIFF(...) tn_commoni_appendf(buf, cap, &n, __VA_ARGS__)
    if (a->w != b->w || a->h != b->h) TN_DIFF("box %dx%d / %dx%d", a->w, a->h, b->w, b->h);
    tn_physi_diff(p, r, buf, cap, &n);
    if (a->coyote != b->coyote)
        TN_DIFF("coyote %s / %s", coyote_name(a->coyote), coyote_name(b->coyote));
    if (custom != b_custom)
        TN_DIFF("step function %s / %s", custom ? "custom" : "default",
                b_custom ? "custom" : "default");
    if (a->reference_build != b->reference_build) TN_DIFF("reference_build");
    if (a->keep_all_landings != b->keep_all_landings) TN_DIFF("keep_all_landings");
    if (a->verify_edges != b->verify_edges) TN_DIFF("verify_edges");
    /* bitwise only (a NaN field, -0 against 0): the same values printed */
    if (n == 0) TN_DIFF("the physics' bits (NaN or -0)");
#undef TN_DIFF
}

tn_status tn_surfi_blob_open(surf_blob *L, const void *data, size_t size, const char *name,
                             const tn_map *m, const tn_surf_profile *prof, tn_error *err)
{
    memset(L, 0, sizeof *L);
    /* NULL: the module's name, as tn_map_parse's "map" and tn_scen_parse's
     * "scen" (it was "(data)", which says nobody) */
    L->name = name ? name : "surf";
    const uint8_t *p = data;
    if (!p || size < HEAD_BYTES + 8 || memcmp(p, MAGIC, 6) != 0)
        return bad(L, err, "not a saved graph (%zu bytes, no TNSURF header)", size);
    if (get(p + 6, 2) != FORMAT)
        return bad(L, err, "format %d, this library reads format %d", (int)get(p + 6, 2), FORMAT);
    if (get(p + size - 8, 8) != checksum(p, size - 8))
        return bad(L, err, "the checksum does not match (%zu bytes: cut short or changed)", size);
    const uint8_t *h = p + 8;
    if ((int)get(h, 4) != m->w || (int)get(h + 4, 4) != m->h)
        return bad(L, err, "made for a %ux%u map, this one is %dx%d", (unsigned)get(h, 4),
                   (unsigned)get(h + 4, 4), m->w, m->h);
    if (get(h + 8, 8) != tn_surfi_terrain_hash(m->tile, (size_t)m->w * (size_t)m->h))
        return bad(L, err, "made for other terrain (the %dx%d map's tiles differ)", m->w, m->h);
    h += 16;
    tn_surf_profile q = *prof;
    q.w = get_i32(h);
    q.h = get_i32(h + 4);
    q.coyote = get_i32(h + 8);
    q.reference_build = h[12] != 0;
    q.keep_all_landings = h[13] != 0;
    q.verify_edges = h[14] != 0;
    const bool custom = h[15] != 0;
    h += 16;
    q.phys.dt = get_f32(h);
    q.phys.gravity = get_f32(h + 4);
    q.phys.max_fall = get_f32(h + 8);
    q.phys.walk_speed = get_f32(h + 12);
    q.phys.jump_height = get_f32(h + 16);
    q.phys.jump_cut_speed = get_f32(h + 20);
    q.phys.coyote_frames = get_i32(h + 24);
    q.phys.tile_px = get_f32(h + 28);
    h += 32;
    const bool prof_custom =
        (prof->step != NULL && prof->step != tn_body_step) || prof->step_user_fn != NULL;
    if (!tn_surf_same_profile(&q, prof) || custom != prof_custom) {
        char diff[160];
        profile_diff(&q, custom, prof, prof_custom, diff, sizeof diff);
        return bad(L, err,
                   "made for another profile (box %dx%d, jump height %g tiles, %s step "
                   "function; saved / given: %s)",
                   q.w, q.h, (double)q.phys.jump_height, custom ? "a custom" : "the default", diff);
    }
    L->nsurf = (int)get(h, 4);
    L->nnodes = (int)get(h + 4, 4);
    L->nedges = (int)get(h + 8, 4);
    L->nruns = (uint32_t)get(h + 12, 4);
    L->nfoot = (int)get(h + 16, 4);
    L->nfbits = get(h + 20, 8);
    h += 28;
    /* the sections' sizes, each bounded so that none overflows */
    const uint64_t body = size - 8 - HEAD_BYTES;
    if (L->nsurf < 0 || L->nnodes < 0 || L->nedges < 0 || L->nfoot < 0 ||
        (uint64_t)L->nsurf > body / 8 || (uint64_t)L->nedges > body / EDGE_BYTES ||
        (uint64_t)L->nruns > body / 2 || (uint64_t)L->nfoot > body / FOOT_BYTES ||
        L->nfbits > body / 8 || L->nfbits >= UINT32_MAX ||
        (uint64_t)L->nsurf * 8 + (uint64_t)L->nedges * EDGE_BYTES + (uint64_t)L->nruns * 2 +
                (uint64_t)L->nfoot * FOOT_BYTES + L->nfbits * 8 + 8 >
            body)
        return bad(L, err,
                   "the counts (%d surfaces, %d edges, %d footprints) do not fit the "
                   "data's size",
                   L->nsurf, L->nedges, L->nfoot);
    const uint64_t fixed = (uint64_t)L->nsurf * 8 + (uint64_t)L->nedges * EDGE_BYTES +
                           (uint64_t)L->nruns * 2 + (uint64_t)L->nfoot * FOOT_BYTES + L->nfbits * 8;
    const int32_t want = get_i32(h + fixed);
    const uint32_t K = (uint32_t)get(h + fixed + 4, 4);
    if (want < -1 || want > Q_LM)
        return bad(L, err, "landmark setting %d is outside -1..%d", (int)want, Q_LM);
    if (K > Q_LM || fixed + 8 + 4 * (uint64_t)K + 8 * (uint64_t)K * (uint64_t)L->nsurf +
                            (uint64_t)(K + 1) / 2 * (uint64_t)L->nnodes !=
                        body)
        return bad(L, err,
                   "%u landmark tables of %d nodes do not fit the data's size (at most %d "
                   "landmarks)",
                   K, L->nnodes, Q_LM);
    const uint8_t *lmn = h + fixed + 8;
    for (uint32_t k = 0; k < K; k++)
        if (get_i32(lmn + 4 * k) < 0 || get_i32(lmn + 4 * k) >= L->nnodes)
            return bad(L, err, "landmark %u is node %d, out of the graph's %d nodes", k,
                       (int)get_i32(lmn + 4 * k), L->nnodes);
    L->lm_want = (int)want;
    L->nlm = (int)K;
    L->sbox = h;
    L->edges = L->sbox + (size_t)L->nsurf * 8;
    L->runs = L->edges + (size_t)L->nedges * EDGE_BYTES;
    L->foots = L->runs + (size_t)L->nruns * 2;
    L->fbits = L->foots + (size_t)L->nfoot * FOOT_BYTES;
    L->lm = L->fbits + (size_t)L->nfbits * 8 + 8;
    return TN_OK;
}

bool tn_surfi_blob_landmarks(const surf_blob *L, const tn_surf *g, int32_t *lmnode, int32_t *lm)
{
    const int K = L->nlm, K2 = 2 * K, nb = (K + 1) / 2;
    for (int k = 0; k < K; k++) lmnode[k] = get_i32(L->lm + 4 * (size_t)k); /* (checked) */
    const uint8_t *first = L->lm + 4 * (size_t)K, *q = first + 4 * (size_t)K2 * (size_t)L->nsurf;
    uint32_t out = 0; /* a cost outside 0 .. Q_INF (Q_INF < 2^30) sets high bits */
    for (int s = 0; s < g->nsurf; s++) {
        const tn_surf_surface *S = &g->surf[s];
        int32_t *row = lm + (size_t)S->node0 * K2;
        for (int f = 0; f < K2; f++) {
            row[f] = get_i32(first + 4 * ((size_t)s * K2 + (size_t)f));
            out |= (uint32_t)row[f] > (uint32_t)Q_INF;
        }
        out |= get(q + (size_t)S->node0 * nb, nb) != 0; /* the first node's: 0 */
        /* (each row checked before the next is made from it: no overflow) */
        for (int n = S->node0 + 1; n <= S->node0 + (S->j1 - S->j0) && !out; n++, row += K2) {
            const uint64_t code = get(q + (size_t)n * nb, nb);
            out |= 2 * K2 < 64 && code >> (2 * K2) != 0; /* unused bits: 0 */
            for (int f = 0; f < K2; f++) {
                const uint32_t c = (uint32_t)(code >> (2 * f)) & 3u;
                row[K2 + f] = row[f] + (int32_t)(c & 1u) - (int32_t)(c >> 1);
                out |= (uint32_t)row[K2 + f] > (uint32_t)Q_INF || c == 3u;
            }
        }
        if (out) return false;
    }
    return true;
}

tn_status tn_surfi_blob_decode(const surf_blob *L, int mw, int mh, tn_surf_edge *edge,
                               uint16_t *runs, tn_surf_foot *foot, uint64_t *fbits, int16_t *sbox,
                               tn_error *err)
{
    for (int s = 0; s < 4 * L->nsurf; s++) sbox[s] = get_i16(L->sbox + 2 * (size_t)s);
    for (uint32_t r = 0; r < L->nruns; r++) runs[r] = (uint16_t)get(L->runs + 2 * (size_t)r, 2);
    uint32_t run0 = 0;
    /* a bound on any plan's cost: per take-off node its slowest edge, plus a
     * frame per node walked (1024x1024: 3.7 M + 0.4 M) */
    uint64_t bound = (uint64_t)L->nnodes, slowest = 0;
    for (int e = 0; e < L->nedges; e++) {
        const uint8_t *q = L->edges + (size_t)e * EDGE_BYTES;
        tn_surf_edge *E = &edge[e];
        memset(E, 0, sizeof *E); /* the padding too: equal graphs are equal bytes */
        E->from = get_i32(q);
        E->to = get_i32(q + 4);
        E->nruns = (uint16_t)get(q + 8, 2);
        E->frames = (uint16_t)get(q + 10, 2);
        E->kind = q[12];
        E->run0 = run0;
        if (E->from < 0 || E->from >= L->nnodes || E->to < 0 || E->to >= L->nnodes)
            return bad(L, err, "edge %d goes from node %d to node %d, out of the graph's %d nodes",
                       e, (int)E->from, (int)E->to, L->nnodes);
        if (E->kind > TN_SURF_WALKOFF || E->frames < 1 || E->frames > TN_SURF_MAX_AIR ||
            E->nruns < 1 || E->nruns > L->nruns - run0)
            return bad(L, err, "edge %d has kind %d, %d frames or %d input runs: out of range", e,
                       E->kind, E->frames, E->nruns);
        long frames = 0;
        for (int k = 0; k < E->nruns; k++) frames += (runs[run0 + (uint32_t)k] >> 4) + 1;
        if (frames != E->frames)
            return bad(L, err, "edge %d's inputs last %ld frames, the edge says %d", e, frames,
                       E->frames);
        if (e > 0) {
            const tn_surf_edge *P = &edge[e - 1];
            bool ordered = P->from != E->from       ? P->from < E->from
                           : P->to != E->to         ? P->to < E->to
                           : P->frames != E->frames ? P->frames < E->frames
                                                    : P->kind <= E->kind;
            if (!ordered)
                return bad(L, err, "edge %d is out of order (take-off node %d after %d)", e,
                           (int)E->from, (int)P->from);
        }
        run0 += E->nruns;
        if (e > 0 && edge[e - 1].from != E->from) bound += slowest, slowest = 0;
        if (E->frames > slowest) slowest = E->frames;
    }
    bound += slowest;
    if (bound > Q_INF / 4)
        return bad(L, err,
                   "the edges' frames add up past what a plan's cost can hold (%llu, at most "
                   "%d)",
                   (unsigned long long)bound, Q_INF / 4);
    if (run0 != L->nruns) return bad(L, err, "the edges use %u of %u input runs", run0, L->nruns);
    uint64_t bits = 0;
    for (int f = 0; f < L->nfoot; f++) {
        const uint8_t *q = L->foots + (size_t)f * FOOT_BYTES;
        tn_surf_foot *F = &foot[f];
        memset(F, 0, sizeof *F);
        F->surf = get_i32(q);
        F->x0 = get_i16(q + 4);
        F->y0 = get_i16(q + 6);
        F->x1 = get_i16(q + 8);
        F->y1 = get_i16(q + 10);
        F->search = q[12];
        if (F->surf < 0 || F->surf >= L->nsurf || F->x0 < 0 || F->x0 > F->x1 || F->x1 >= mw ||
            F->y0 < 0 || F->y0 > F->y1 || F->y1 >= mh || F->search == 0 || F->search > 15)
            return bad(L, err, "footprint %d (surface %d, search %d) is out of range", f,
                       (int)F->surf, F->search);
        size_t nw = tn_surfi_foot_words(F);
        if (nw > L->nfbits - bits)
            return bad(L, err, "footprint %d needs %zu words past the %llu stored", f, nw,
                       (unsigned long long)L->nfbits);
        F->bits = (uint32_t)bits;
        bits += nw;
    }
    if (bits != L->nfbits)
        return bad(L, err, "the footprints use %llu of %llu words", (unsigned long long)bits,
                   (unsigned long long)L->nfbits);
    for (uint64_t k = 0; k < L->nfbits; k++) fbits[k] = get(L->fbits + 8 * k, 8);
    return TN_OK;
}
