/* tn_navmesh.c - the navigation mesh: create, build (outlines, one row
 * sweep, labels), the local update after single-tile edits, point
 * location and debug drawing.  Queries (line of sight, nearest points,
 * paths) are in tn_navquery.c.  See tn_navmesh.h for the algorithms,
 * units and costs. */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/navmesh_impl.h"
#include "internal/memcount.h"

/* ------------------------------------------------------------------------ */
/* Create / destroy */

tn_navmesh_config tn_navmesh_config_for_map(const tn_map *map, float headroom)
{
    tn_navmesh_config c = tn_navmesh_default_config();
    if (!map || map->w < 1 || map->h < 1 || !(headroom >= 0.0f)) return c;
    const int w = map->w, h = map->h;
    int64_t np = 0;
#define NM_BLK(x, y) \
    ((x) < 0 || (y) < 0 || (x) >= w || (y) >= h || map->tile[(size_t)(y)*w + (x)] == TN_TILE_BLOCK)
    for (int y = 0; y <= h; y++) /* extract_outlines' vertex rule, plus the map's corners */
        for (int x = 0; x <= w; x++) {
            int a = NM_BLK(x - 1, y - 1), b = NM_BLK(x, y - 1), cc = NM_BLK(x - 1, y),
                d = NM_BLK(x, y);
            np += ((a != b || cc != d) && (a != cc || b != d)) ||
                  ((x == 0 || x == w) && (y == 0 || y == h));
        }
#undef NM_BLK
    int64_t worst_pts = (int64_t)(w + 1) * (h + 1);
    int64_t worst_segs = (int64_t)2 * w * h + w + h;
    double want = (double)np * (1.0 + (double)headroom) + 64.0;
    int64_t p = want < (double)worst_pts ? (int64_t)want : worst_pts;
    /* every vertex ends at most 4 segment halves (S <= 2P), plus the
     * border runs along blocked tiles (one per border vertex) */
    int64_t s = 2 * p + 2 * (int64_t)(w + h) + 8;
    c.max_points = (int)p;
    c.max_segments = (int)(s < worst_segs ? s : worst_segs);
    return c;
}

tn_navmesh_config tn_navmesh_default_config(void)
{
    tn_navmesh_config c;
    c.tile_size = 1.0f;
    c.max_points = 0;
    c.max_segments = 0;
    return c;
}

void tn_navmesh_destroy(tn_navmesh *m)
{
    if (!m) return;
    const tn_allocator *a = &m->alloc;
    tn_cdt_destroy(m->cdt);
    tn_cdt_destroy(m->sub);
    tn_free(a, m->tri);
    tn_free(a, m->adj);
    tn_free(a, m->pts_alt);
    tn_free(a, m->segs_alt);
    tn_free(a, m->vquad_alt);
    tn_free(a, m->vmap);
    tn_free(a, m->vsub);
    tn_free(a, m->vstamp);
    tn_free(a, m->tstamp);
    tn_free(a, m->cav);
    tn_free(a, m->bnd);
    tn_free(a, m->lscr);
    tn_free(a, m->sub_xy);
    tn_free(a, m->sub_segs);
    tn_free(a, m->sub_vid);
    tn_free(a, m->sub_slot);
    tn_free(a, m->sub_queue);
    tn_free(a, m->hkey);
    tn_free(a, m->hval);
    tn_free(a, m->hstamp);
    tn_free(a, m->free);
    tn_free(a, m->bits);
    tn_free(a, m->pts);
    tn_free(a, m->vquad);
    tn_free(a, m->segs);
    tn_free(a, m->colprev);
    tn_free(a, m->region);
    tn_free(a, m->vtri);
    tn_free(a, m->stack);
    tn_free(a, m->bucket);
    tn_allocator copy = m->alloc;
    tn_free(&copy, m);
}

static tn_navmesh *navmesh_new(int map_w, int map_h, const tn_navmesh_config *cfg,
                               const tn_allocator *a, tn_error *err)
{
    tn_navmesh_config c = cfg ? *cfg : tn_navmesh_default_config();
    if (map_w < 1 || map_h < 1 || map_w > TN_MAP_MAX_SIZE || map_h > TN_MAP_MAX_SIZE) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh: size %dx%d is outside 1..%d", map_w, map_h, TN_MAP_MAX_SIZE);
        return NULL;
    }
    if (isnan(c.tile_size)) { /* "%g" prints it "nan" or "-nan" */
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh: tile_size is not a number (NaN)");
        return NULL;
    }
    if (!(c.tile_size > 0.0f) || !isfinite(c.tile_size)) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh: tile_size %g must be a positive number", (double)c.tile_size);
        return NULL;
    }
    int64_t worst_pts = (int64_t)(map_w + 1) * (map_h + 1);
    int64_t worst_segs = (int64_t)2 * map_w * map_h + map_w + map_h;
    /* 0 = the worst case; else at least one free tile's square (4 / 4) */
    if (c.max_points < 0 || c.max_segments < 0 || c.max_points > worst_pts ||
        c.max_segments > worst_segs || (c.max_points > 0 && c.max_points < 4) ||
        (c.max_segments > 0 && c.max_segments < 4)) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh: capacities %d points / %d segments are outside 4..%lld / 4..%lld "
                     "(0 = the worst case)",
                     c.max_points, c.max_segments, (long long)worst_pts, (long long)worst_segs);
        return NULL;
    }
    if (worst_pts * 2 > INT32_MAX / 4) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "navmesh: size %dx%d is too large",
                     map_w, map_h);
        return NULL;
    }
    tn_memcount mc; /* (its own arrays' memory; the CDTs count theirs) */
    tn_allocator ca = tn_memcount_wrap(&mc, a);
    tn_navmesh *m = tn_alloc(&ca, sizeof *m);
    if (!m) {
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                     "navmesh: out of memory for the navmesh");
        return NULL;
    }
    if (a) m->alloc = *a;
    m->cap_w = map_w;
    m->cap_h = map_h;
    m->tile_size = c.tile_size;
    m->max_points = c.max_points ? c.max_points : (int)worst_pts;
    m->max_segs = c.max_segments ? c.max_segments : (int)worst_segs;
    /* A triangulation of n points has at most 2n - 5 triangles. */
    m->max_tris = tn_maxi(2 * m->max_points, 4);
    m->bw = (map_w + TN_NAVMESH_BUCKET - 1) / TN_NAVMESH_BUCKET;
    m->bh = (map_h + TN_NAVMESH_BUCKET - 1) / TN_NAVMESH_BUCKET;
    const tn_allocator *al = &ca;
    m->free = tn_alloc_array(al, (size_t)map_w * (size_t)map_h, 1);
    m->stride = (map_w + 1 + 63) / 64;
    m->bits = tn_alloc_array(al, (size_t)(map_h + 2) * (size_t)m->stride, sizeof(uint64_t));
    m->pts = tn_alloc_array(al, (size_t)m->max_points, 2 * sizeof(int32_t));
    m->vquad = tn_alloc_array(al, (size_t)m->max_points, 1);
    m->segs = tn_alloc_array(al, (size_t)m->max_segs, 2 * sizeof(int32_t));
    m->colprev = tn_alloc_array(al, (size_t)map_w + 1, sizeof(int32_t));
    m->region = tn_alloc_array(al, (size_t)m->max_tris, sizeof(int32_t));
    m->vtri = tn_alloc_array(al, (size_t)m->max_points, sizeof(int32_t));
    m->stack = tn_alloc_array(al, (size_t)m->max_tris, sizeof(int32_t));
    m->bucket = tn_alloc_array(al, (size_t)m->bw * (size_t)m->bh, sizeof(int32_t));
    size_t mp = (size_t)m->max_points, mt = (size_t)m->max_tris;
    m->tri = tn_alloc_array(al, mt, 3 * sizeof(int32_t));
    m->adj = tn_alloc_array(al, mt, 3 * sizeof(int32_t));
    m->pts_alt = tn_alloc_array(al, mp, 2 * sizeof(int32_t));
    m->segs_alt = tn_alloc_array(al, (size_t)m->max_segs, 2 * sizeof(int32_t));
    m->vquad_alt = tn_alloc_array(al, mp, 1);
    m->vmap = tn_alloc_array(al, mp, sizeof(int32_t));
    m->vsub = tn_alloc_array(al, mp, sizeof(int32_t));
    m->vstamp = tn_alloc_array(al, mp, sizeof(uint32_t));
    m->tstamp = tn_alloc_array(al, mt, sizeof(uint32_t));
    m->cav = tn_alloc_array(al, LOCAL_CAV, sizeof(int32_t));
    m->bnd = tn_alloc_array(al, LOCAL_CAV * 3, 4 * sizeof(int32_t));
    m->lscr = tn_alloc_array(al, 4 * LOCAL_PTS + 14 * LOCAL_CAV, sizeof(int32_t));
    if (m->lscr) {
        m->sub_lab = m->lscr;
        m->comp_reg = m->sub_lab + 2 * LOCAL_PTS;
        m->bnd_in = m->comp_reg + 2 * LOCAL_PTS;
        m->bnd_oldfree = m->bnd_in + 3 * LOCAL_CAV;
        m->req = m->bnd_oldfree + 3 * LOCAL_CAV;
        m->mv = m->req + 6 * LOCAL_CAV;
    }
    m->sub_xy = tn_alloc_array(al, LOCAL_PTS, 2 * sizeof(int32_t));
    m->sub_segs = tn_alloc_array(al, LOCAL_SEGS, 2 * sizeof(int32_t));
    m->sub_vid = tn_alloc_array(al, LOCAL_PTS, sizeof(int32_t));
    m->sub_slot = tn_alloc_array(al, 2 * LOCAL_PTS, sizeof(int32_t));
    m->sub_queue = tn_alloc_array(al, 2 * LOCAL_PTS, sizeof(int32_t));
    m->hkey = tn_alloc_array(al, LOCAL_HASH, sizeof(uint64_t));
    m->hval = tn_alloc_array(al, LOCAL_HASH, sizeof(int32_t));
    m->hstamp = tn_alloc_array(al, LOCAL_HASH, sizeof(uint32_t));
    if (!m->free || !m->bits || !m->pts || !m->vquad || !m->segs || !m->colprev || !m->region ||
        !m->vtri || !m->stack || !m->bucket || !m->tri || !m->adj || !m->pts_alt || !m->segs_alt ||
        !m->vquad_alt || !m->vmap || !m->vsub || !m->vstamp || !m->tstamp || !m->cav || !m->bnd ||
        !m->lscr || !m->sub_xy || !m->sub_segs || !m->sub_vid || !m->sub_slot || !m->sub_queue ||
        !m->hkey || !m->hval || !m->hstamp) {
        tn_navmesh_destroy(m);
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                     "navmesh: out of memory for a %dx%d navmesh", map_w, map_h);
        return NULL;
    }
    m->mem = mc.bytes;
    if (tn_succeeded(tn_cdt_create(m->max_points, m->max_segs, &m->alloc, &m->cdt, err)))
        tn_cdt_create(LOCAL_PTS, LOCAL_SEGS, &m->alloc, &m->sub, err);
    if (!m->cdt || !m->sub) {
        const int points = m->max_points;
        tn_navmesh_destroy(m);
        /* (tn_cdt_create's message was the triangulation's: the caller made a navmesh) */
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                     "navmesh: out of memory for the triangulation of a %dx%d navmesh (%d points)",
                     map_w, map_h, points);
        return NULL;
    }
    return m;
}

tn_status tn_navmesh_create(int map_w, int map_h, const tn_navmesh_config *cfg,
                            const tn_allocator *a, tn_navmesh **out, tn_error *err)
{
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: no output pointer (out NULL)");
    tn_error local;
    tn_error *e = err ? err : &local;
    *out = navmesh_new(map_w, map_h, cfg, a, e);
    return *out ? nm_ok(err) : e->status;
}

size_t tn_navmesh_memory(const tn_navmesh *m)
{
    return m ? m->mem + tn_cdt_memory(m->cdt) + tn_cdt_memory(m->sub) : 0;
}

void tn_navmesh_set_clock(tn_navmesh *m, double (*clock)(void))
{
    if (m) m->clock = clock;
}

/* ------------------------------------------------------------------------ */
/* Build */

/* Free tiles of the map as bytes (m->free) and bits (m->bits), 8 at a time:
 * a tile is free unless it is TN_TILE_BLOCK (1); tiles are 0..2. */
static void copy_free(tn_navmesh *m, const tn_map *map)
{
    const int w = m->w, h = m->h, stride = m->stride;
    const uint64_t ONES = 0x0101010101010101ull, GATHER = 0x0102040810204080ull;
    memset(m->bits, 0, sizeof(uint64_t) * (size_t)(h + 2) * (size_t)stride);
    for (int y = 0; y < h; y++) {
        const uint8_t *src = map->tile + (size_t)y * w;
        uint8_t *dst = m->free + (size_t)y * w;
        uint64_t *row = m->bits + (size_t)(y + 1) * stride;
        int x = 0;
        for (; x + 8 <= w; x += 8) {
            uint64_t t;
            memcpy(&t, src + x, 8);
            t ^= ONES;                        /* a block becomes 0, others 1 or 3 */
            uint64_t f = (t | t >> 1) & ONES; /* 1 per free byte */
            memcpy(dst + x, &f, 8);
            row[x >> 6] |= ((f * GATHER) >> 56) << (x & 63);
        }
        for (; x < w; x++) {
            uint8_t f = src[x] != TN_TILE_BLOCK;
            dst[x] = f;
            row[x >> 6] |= (uint64_t)f << (x & 63);
        }
    }
}

static inline unsigned bit_at(const uint64_t *row, int x)
{
    return x < 0 ? 0u : (unsigned)(row[x >> 6] >> (x & 63)) & 1u;
}

/* Outline extraction: see the header.  With a, b the tiles above-left and
 * above-right of a corner and c, d those below (1 = free), the corner is a
 * vertex unless all four agree or they form a straight wall: some row
 * changes across it (a != b or c != d) and some column does (a != c or
 * b != d).  Both tests run on 64 corners at a time; vquad gets the blocked
 * quadrants.  Returns false when a capacity is hit. */
static bool extract_outlines(tn_navmesh *m)
{
    const int w = m->w, h = m->h, stride = m->stride;
    int32_t *pts = m->pts, *segs = m->segs, *colprev = m->colprev;
    int np = 0, ns = 0;
    const int maxp = m->max_points, maxs = m->max_segs;
    const int nwords = w / 64 + 1; /* words covering corners 0..w */
    for (int y = 0; y <= h; y++) {
        const uint64_t *up = m->bits + (size_t)y * stride;       /* tile row y-1 */
        const uint64_t *dn = m->bits + (size_t)(y + 1) * stride; /* tile row y */
        int hprev = -1;
        uint64_t carry_up = 0, carry_dn = 0, carry_v = 0;
        for (int wi = 0; wi < nwords; wi++) {
            uint64_t u = up[wi], d = dn[wi];
            /* bit k: the tile left of corner 64*wi+k differs from the one right of it */
            uint64_t v = u ^ d;
            /* A vertex: a row changes across the corner (not a horizontal
             * wall or uniform) and a column changes (not a vertical wall). */
            uint64_t cand =
                ((u ^ (u << 1 | carry_up)) | (d ^ (d << 1 | carry_dn))) & (v | (v << 1 | carry_v));
            carry_up = u >> 63;
            carry_dn = d >> 63;
            carry_v = v >> 63;
            if (y == 0 || y == h) { /* the map's corners are always vertices */
                if (wi == 0) cand |= 1ull;
                if (wi == (w >> 6)) cand |= 1ull << (w & 63);
            }
            if (wi == nwords - 1 && ((w + 1) & 63)) cand &= (1ull << ((w + 1) & 63)) - 1;
            while (cand) {
                int x = wi * 64 + __builtin_ctzll(cand);
                cand &= cand - 1;
                unsigned a = bit_at(up, x - 1), b = bit_at(up, x);
                unsigned c = bit_at(dn, x - 1), dd = bit_at(dn, x);
                if (np == maxp) return false;
                int id = np++;
                pts[2 * id] = x;
                pts[2 * id + 1] = y;
                m->vquad[id] = (uint8_t)(~(a | b << 1 | c << 2 | dd << 3) & 15u);
                if (a != c) { /* horizontal outline arriving from the left */
                    if (ns == maxs) return false;
                    segs[2 * ns] = hprev;
                    segs[2 * ns + 1] = id;
                    ns++;
                }
                if (a != b) { /* vertical outline arriving from above */
                    if (ns == maxs) return false;
                    segs[2 * ns] = colprev[x];
                    segs[2 * ns + 1] = id;
                    ns++;
                }
                if (b != dd) hprev = id;
                if (c != dd) colprev[x] = id;
            }
        }
    }
    m->npts = np;
    m->nsegs = ns;
    return true;
}

/* Free/blocked label of every triangle by its centroid's tile, the location
 * buckets (a triangle whose centroid lies in the bucket; empty buckets take
 * the previous one in scan order), and regions by flood fill. */
static void label_triangles(tn_navmesh *m, int nfree_first)
{
    const int w = m->w, B3 = 3 * TN_NAVMESH_BUCKET, bw = m->bw;
    const int32_t *tri = m->tri, *pts = m->pts;
    int nb = bw * m->bh;
    for (int i = 0; i < nb; i++) m->bucket[i] = -1;
    int nfree = 0;
    for (int t = 0; t < m->ntris; t++) {
        const int32_t *v = tri + 3 * t;
        m->vtri[v[0]] = m->vtri[v[1]] = m->vtri[v[2]] = t;
        /* The centroid never lies on an outline, so its tile decides (the
         * row sweeps put the nfree_first free triangles first). */
        int sx = pts[2 * v[0]] + pts[2 * v[1]] + pts[2 * v[2]];
        int sy = pts[2 * v[0] + 1] + pts[2 * v[1] + 1] + pts[2 * v[2] + 1];
        bool f;
        if (nfree_first >= 0) {
            f = t < nfree_first;
        } else {
            int tx = sx / 3, ty = sy / 3;
            f = tx < m->w && ty < m->h && m->free[(size_t)ty * w + tx];
        }
        m->region[t] = f ? -2 : -1;
        nfree += f;
        m->bucket[(sy / B3) * bw + sx / B3] = t;
    }
    int last = 0;
    for (int i = 0; i < nb; i++) {
        if (m->bucket[i] < 0)
            m->bucket[i] = last;
        else
            last = m->bucket[i];
    }
    m->nfree = nfree;
    /* Regions: flood fill across edges between free triangles. */
    int nreg = 0;
    int32_t *stack = m->stack;
    const int32_t *adj = m->adj;
    for (int t = 0; t < m->ntris; t++) {
        if (m->region[t] != -2) continue;
        int sp = 0;
        stack[sp++] = t;
        m->region[t] = nreg;
        while (sp > 0) {
            int u = stack[--sp];
            for (int i = 0; i < 3; i++) {
                int n = adj[3 * u + i];
                if (n >= 0 && m->region[n] == -2) {
                    m->region[n] = nreg;
                    stack[sp++] = n;
                }
            }
        }
        nreg++;
    }
    m->nregions = nreg;
}

/* The whole map rectangle triangulated by ONE row sweep (tn_cdt,
 * ALGORITHM A with TN_CDT_RECT_DOMAIN): the outline segments plus the
 * border runs along blocked tiles (so the rectangle's sides are all
 * constraints), free and blocked faces alike.  False when the border runs
 * do not fit the segment capacity or the CDT failed; the caller then uses
 * the general builder. */
static bool build_swept(tn_navmesh *m)
{
    const int w = m->w, h = m->h;
    m->ntris = 0;
    /* border runs next to blocked tiles, between consecutive border
     * vertices, after the outline's segments in m->segs (capacity
     * permitting).  One pass: row-major order is increasing x along the
     * top and bottom and increasing y along the left and right. */
    int nb = 0;
    int32_t *bs = m->segs + 2 * m->nsegs;
    int room = m->max_segs - m->nsegs;
    int prev[4] = {-1, -1, -1, -1};
    for (int v = 0; v < m->npts; v++) {
        int x = m->pts[2 * v], y = m->pts[2 * v + 1];
        if (y != 0 && y != h && x != 0 && x != w) {
            /* skip the row's inner points: next is its last one */
            int nv = v;
            while (nv + 1 < m->npts && m->pts[2 * (nv + 1) + 1] == y) nv++;
            v = m->pts[2 * nv] == w && nv > v ? nv - 1 : nv;
            continue;
        }
        for (int side = 0; side < 4; side++) {
            bool on = side == 0 ? y == 0 : side == 1 ? y == h : side == 2 ? x == 0 : x == w;
            if (!on) continue;
            int p = prev[side];
            prev[side] = v;
            if (p < 0) continue;
            int px = m->pts[2 * p], py = m->pts[2 * p + 1];
            int tx = side == 3 ? w - 1 : px, ty = side == 1 ? h - 1 : py;
            if (!tile_blocked(m, tx, ty)) continue;
            if (nb == room) return false;
            bs[2 * nb] = p;
            bs[2 * nb + 1] = v;
            nb++;
        }
    }
    if (tn_failed(tn_cdt_build_i(m->cdt, m->pts, m->npts, m->segs, m->nsegs + nb,
                                 TN_CDT_RECT_DOMAIN, NULL)))
        return false;
    tn_cdt_stats st;
    tn_cdt_get_stats(m->cdt, &st);
    tn_cdt_mesh cm;
    tn_cdt_get_mesh(m->cdt, &cm);
    if (cm.ntris > m->max_tris) return false;
    memcpy(m->tri, cm.tri, sizeof(int32_t) * 3 * (size_t)cm.ntris);
    memcpy(m->adj, cm.adj, sizeof(int32_t) * 3 * (size_t)cm.ntris);
    m->ntris = cm.ntris;
    m->swept = st.rectilinear;
    return true;
}

tn_status tn_navmesh_build(tn_navmesh *m, const tn_map *map, tn_error *err)
{
    if (!m || !map)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: build without a %s (NULL)", m ? "map" : "navmesh");
    /* refused before anything is touched: the mesh stays as it was */
    if (map->w > m->cap_w || map->h > m->cap_h)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: map %dx%d is larger than the navmesh's %dx%d (the mesh is "
                            "unchanged)",
                            map->w, map->h, m->cap_w, m->cap_h);
    m->ntris = 0;
    m->nfree = m->nregions = 0;
    m->npts = m->nsegs = 0;
    m->no_free = false;
    m->cdt_seconds = 0.0;
    m->last_local = false;
    m->w = map->w;
    m->h = map->h;
    copy_free(m, map);
    if (!extract_outlines(m)) {
        m->npts = m->nsegs = 0;
        /* what this map needs, so a caller can size a new mesh (a count
         * over the tiles, on this failure only) */
        tn_navmesh_config need = tn_navmesh_config_for_map(map, 0.0f);
        return tn_error_set(err, TN_FAILURE | TN_CAPACITY, 0, 0,
                            "navmesh: capacity (%d points, %d segments) is too small for this map "
                            "(tn_navmesh_config_for_map with no headroom: %d points, %d segments)",
                            m->max_points, m->max_segs, need.max_points, need.max_segments);
    }
    if (m->nsegs == 0) { /* no free tile: an empty mesh */
        m->npts = 0;
        m->no_free = true;
        return nm_ok(err);
    }
    double t0 = m->clock ? m->clock() : 0.0;
    m->swept = false;
    if (build_swept(m)) {
        if (m->clock) m->cdt_seconds = m->clock() - t0;
        label_triangles(m, -1);
        return nm_ok(err);
    }
    m->ntris = 0;
    tn_status s = tn_cdt_build_i(m->cdt, m->pts, m->npts, m->segs, m->nsegs, 0, err);
    if (m->clock) m->cdt_seconds = m->clock() - t0;
    if (tn_failed(s)) {
        m->npts = m->nsegs = 0;
        return s;
    }
    tn_cdt_mesh cm;
    tn_cdt_get_mesh(m->cdt, &cm);
    if (cm.ntris > m->max_tris) {
        return tn_error_set(err, TN_FAILURE | TN_CAPACITY, 0, 0,
                            "navmesh: %d triangles exceed the capacity %d", cm.ntris, m->max_tris);
    }
    memcpy(m->tri, cm.tri, sizeof(int32_t) * 3 * (size_t)cm.ntris);
    memcpy(m->adj, cm.adj, sizeof(int32_t) * 3 * (size_t)cm.ntris);
    m->ntris = cm.ntris;
    label_triangles(m, -1);
    return nm_ok(err);
}

bool tn_navmesh_tile_free(const tn_navmesh *m, int x, int y)
{
    return m && x >= 0 && y >= 0 && x < m->w && y < m->h && m->free[(size_t)y * m->w + x];
}

void tn_navmesh_get_view(const tn_navmesh *m, tn_navmesh_view *v)
{
    if (!v) return;
    memset(v, 0, sizeof *v);
    if (!m) return; /* an empty view */
    v->map_w = m->w;
    v->map_h = m->h;
    v->tile_size = m->tile_size;
    v->npoints = m->npts;
    v->xy = m->pts;
    v->nsegments = m->nsegs;
    v->segs = m->segs;
    v->ntris = m->ntris;
    v->tri = m->ntris ? m->tri : NULL;
    v->adj = m->ntris ? m->adj : NULL;
    v->region = m->region;
    v->nfree = m->nfree;
    v->nregions = m->nregions;
    v->cdt_seconds = m->cdt_seconds;
    v->last_local = m->last_local;
    v->swept = m->swept;
}

/* ------------------------------------------------------------------------ */
/* Point location */

/* Stochastic visibility walk over the whole hull triangulation: the first
 * edge (in a rotating order) that has p strictly outside is crossed.  Returns
 * the triangle containing p (closed), -1 when p is outside the hull, -2 when
 * the step limit is hit (a cycle is possible in a non-Delaunay mesh only with
 * astronomically small probability; the caller then scans). */
static int walk(const tn_navmesh *m, int t, double px, double py)
{
    const int32_t *tri = m->tri, *adj = m->adj;
    uint32_t rs = 0x9e3779b9u ^ (uint32_t)t;
    int limit = m->ntris + 16;
    int from = -1;
    for (int steps = 0; steps < limit; steps++) {
        const int32_t *v = tri + 3 * t;
        rs ^= rs << 13;
        rs ^= rs >> 17;
        rs ^= rs << 5;
        int s = (int)(rs % 3u), next = -2;
        for (int k = 0; k < 3; k++) {
            int i = s;
            s = NEXT3[s];
            int n = adj[3 * t + i];
            if (n == from && n >= 0) continue; /* remembering walk: p is not behind us */
            int a = v[i], b = v[NEXT3[i]];
            if (orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), px, py) < 0) {
                next = n;
                break;
            }
        }
        if (next == -2) return t;
        if (next < 0) return -1;
        from = t;
        t = next;
    }
    return -2;
}

bool tri_contains(const tn_navmesh *m, int t, double px, double py)
{
    const int32_t *v = m->tri + 3 * t;
    for (int i = 0; i < 3; i++) {
        int a = v[i], b = v[NEXT3[i]];
        if (orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), px, py) < 0) return false;
    }
    return true;
}

int locate_any(const tn_navmesh *m, double px, double py, int hint)
{
    if (m->ntris == 0) return -1;
    if (!(px >= 0.0 && py >= 0.0 && px <= m->w && py <= m->h)) return -1;
    if (hint < 0 || hint >= m->ntris) {
        int bx = tn_clampi((int)(px / TN_NAVMESH_BUCKET), 0, m->bw - 1);
        int by = tn_clampi((int)(py / TN_NAVMESH_BUCKET), 0, m->bh - 1);
        hint = m->bucket[by * m->bw + bx];
    }
    int t = walk(m, hint, px, py);
    if (t == -2) {
        t = -1;
        for (int u = 0; u < m->ntris; u++)
            if (tri_contains(m, u, px, py)) {
                t = u;
                break;
            }
    }
    return t;
}

/* A free triangle containing p, given any triangle t containing it. */
int free_containing(const tn_navmesh *m, int t, double px, double py)
{
    if (t < 0 || tri_free(m, t)) return t;
    const int32_t *v = m->tri + 3 * t;
    for (int i = 0; i < 3; i++) {
        if (px_(m, v[i]) == px && py_(m, v[i]) == py) {
            /* p is a vertex: any free triangle around it. */
            int vi = v[i], u = t;
            for (int k = 0; k < m->ntris; k++) {
                if (tri_free(m, u)) return u;
                u = m->adj[3 * u + PREV3[local_index(m, u, vi)]];
                if (u < 0 || u == t) break;
            }
            u = t;
            for (int k = 0; k < m->ntris; k++) {
                u = m->adj[3 * u + local_index(m, u, vi)];
                if (u < 0 || u == t) break;
                if (tri_free(m, u)) return u;
            }
            return -1;
        }
    }
    for (int i = 0; i < 3; i++) {
        int a = v[i], b = v[NEXT3[i]];
        if (orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), px, py) == 0) {
            int n = m->adj[3 * t + i];
            if (tri_free(m, n)) return n;
        }
    }
    return -1;
}

int locate_free(const tn_navmesh *m, double px, double py, int hint)
{
    return free_containing(m, locate_any(m, px, py, hint), px, py);
}

int tn_navmesh_locate(const tn_navmesh *m, float x, float y, int hint)
{
    if (!m || !isfinite(x) || !isfinite(y)) return -1;
    double inv = 1.0 / m->tile_size;
    return locate_free(m, (double)x * inv, (double)y * inv, hint);
}

int tn_navmesh_region_at(const tn_navmesh *m, float x, float y)
{
    int t = tn_navmesh_locate(m, x, y, -1);
    return t < 0 ? -1 : m->region[t];
}

/* ------------------------------------------------------------------------ */
/* Local rebuild after a single-tile edit */

static void local_next_stamp(tn_navmesh *m)
{
    if (++m->stamp == 0) {
        memset(m->tstamp, 0, sizeof(uint32_t) * (size_t)m->max_tris);
        memset(m->vstamp, 0, sizeof(uint32_t) * (size_t)m->max_points);
        memset(m->hstamp, 0, sizeof(uint32_t) * LOCAL_HASH);
        m->stamp = 1;
    }
}

/* A small open-addressing hash of edges (u, v) -> value, cleared by stamp. */
static int32_t *hash_slot(tn_navmesh *m, uint32_t u, uint32_t v, bool insert)
{
    uint64_t key = (uint64_t)u << 32 | v;
    uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 50) & (LOCAL_HASH - 1);
    for (int probe = 0; probe < LOCAL_HASH; probe++, h = (h + 1) & (LOCAL_HASH - 1)) {
        if (m->hstamp[h] != m->stamp) {
            if (!insert) return NULL;
            m->hstamp[h] = m->stamp;
            m->hkey[h] = key;
            m->hval[h] = -1;
            return &m->hval[h];
        }
        if (m->hkey[h] == key) return &m->hval[h];
    }
    return NULL;
}

static bool cav_add(tn_navmesh *m, int t)
{
    if (m->tstamp[t] == m->stamp) return true;
    if (m->ncav == LOCAL_CAV) return false;
    m->tstamp[t] = m->stamp;
    m->cav[m->ncav++] = t;
    return true;
}

/* Every triangle around vertex v, from t (which uses v); false at the hull. */
static bool cav_add_fan(tn_navmesh *m, int t, int v)
{
    int u = t;
    for (int k = 0; k <= m->ntris; k++) {
        if (!cav_add(m, u)) return false;
        u = m->adj[3 * u + PREV3[local_index(m, u, v)]];
        if (u < 0) return false;
        if (u == t) return true;
    }
    return false;
}

/* Every triangle whose closure holds the grid point (x, y). */
static bool cav_add_point(tn_navmesh *m, int x, int y)
{
    int t = locate_any(m, x, y, -1);
    if (t < 0) return false;
    const int32_t *v = m->tri + 3 * t;
    for (int i = 0; i < 3; i++)
        if (m->pts[2 * v[i]] == x && m->pts[2 * v[i] + 1] == y) return cav_add_fan(m, t, v[i]);
    if (!cav_add(m, t)) return false;
    for (int i = 0; i < 3; i++) {
        int a = v[i], b = v[NEXT3[i]];
        if (orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), x, y) == 0) {
            int n = m->adj[3 * t + i];
            if (n < 0 || !cav_add(m, n)) return false;
        }
    }
    return true;
}

/* Both triangles along the edge a-b (old vertex ids). */
static bool cav_add_edge(tn_navmesh *m, int a, int b)
{
    int t = locate_any(m, px_(m, a), py_(m, a), -1);
    if (t < 0) return false;
    int u = t;
    for (int k = 0; k <= m->ntris; k++) {
        int i = local_index(m, u, a);
        if (m->tri[3 * u + NEXT3[i]] == b) {
            int n = m->adj[3 * u + i];
            return cav_add(m, u) && (n < 0 || cav_add(m, n));
        }
        u = m->adj[3 * u + PREV3[i]];
        if (u < 0 || u == t) return false;
    }
    return false;
}

/* Does triangle t meet the open square of tile (x, y)? (separating axes) */
static bool tri_meets_tile(const tn_navmesh *m, int t, int x, int y)
{
    const int32_t *v = m->tri + 3 * t;
    int x0 = m->pts[2 * v[0]], y0 = m->pts[2 * v[0] + 1];
    int minx = x0, maxx = x0, miny = y0, maxy = y0;
    for (int i = 1; i < 3; i++) {
        int px = m->pts[2 * v[i]], py = m->pts[2 * v[i] + 1];
        minx = px < minx ? px : minx;
        maxx = px > maxx ? px : maxx;
        miny = py < miny ? py : miny;
        maxy = py > maxy ? py : maxy;
    }
    if (maxx <= x || minx >= x + 1 || maxy <= y || miny >= y + 1) return false;
    for (int i = 0; i < 3; i++) {
        int a = v[i], b = v[NEXT3[i]];
        bool outside = true;
        for (int c = 0; c < 4 && outside; c++)
            outside =
                orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), x + (c & 1), y + (c >> 1)) <= 0;
        if (outside) return false;
    }
    return true;
}

static bool seg_touches_tile(const int32_t *pts, int a, int b, int x, int y)
{
    int ax = pts[2 * a], ay = pts[2 * a + 1], bx = pts[2 * b], by = pts[2 * b + 1];
    if (ay == by)
        return (ay == y || ay == y + 1) && tn_maxi(ax, bx) >= x && tn_mini(ax, bx) <= x + 1;
    return (ax == x || ax == x + 1) && tn_maxi(ay, by) >= y && tn_mini(ay, by) <= y + 1;
}

/* The new id of grid point (x, y), -1 when it is no vertex (binary search:
 * vertices are in row-major order). */
/* The first vertex of the row-major list on row y or below. */
static int row_start(const int32_t *pts, int n, int y)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (pts[2 * mid + 1] < y)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int find_vertex(const int32_t *pts, int n, int x, int y)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int my = pts[2 * mid + 1], mx = pts[2 * mid];
        if (my < y || (my == y && mx < x))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && pts[2 * lo] == x && pts[2 * lo + 1] == y ? lo : -1;
}

/* Regions after a local step, decided before its commit: free components of
 * the kept sub triangles (sub_queue[0..nq)), each joined to the one region
 * of the free triangles outside it; an old region whose outside parts were
 * joined through the cavity must meet a single component (else it may have
 * split).  regions_local stays false (the caller floods everything again)
 * when regions may merge, split or vanish. */
static void local_regions(tn_navmesh *m, const tn_cdt_mesh *sm, int nq)
{
    const uint32_t DIR = 1u << 31;
    const int w = m->w;
    const int32_t *p = m->sub_xy;
    int32_t *lab = m->sub_lab, *creg = m->comp_reg, *stack = m->req;
    m->regions_local = false;
    int nfree_new = 0, nfree_old = 0;
    for (int i = 0; i < m->ncav; i++) nfree_old += m->region[m->cav[i]] >= 0;
    for (int i = 0; i < nq; i++) {
        int st = m->sub_queue[i];
        const int32_t *v = sm->tri + 3 * st;
        int sx = p[2 * v[0]] + p[2 * v[1]] + p[2 * v[2]];
        int sy = p[2 * v[0] + 1] + p[2 * v[1] + 1] + p[2 * v[2] + 1];
        int tx = sx / 3, ty = sy / 3;
        bool f = tx < m->w && ty < m->h && m->free[(size_t)ty * w + tx];
        lab[st] = f ? -2 : -1;
        nfree_new += f;
    }
    int nc = 0;
    for (int i = 0; i < nq; i++) {
        int st = m->sub_queue[i];
        if (lab[st] != -2) continue;
        int sp = 0;
        stack[sp++] = st;
        lab[st] = nc;
        while (sp > 0) {
            int u = stack[--sp];
            for (int k = 0; k < 3; k++) {
                int n = sm->adj[3 * u + k];
                if (n >= 0 && m->sub_slot[n] >= 0 && lab[n] == -2) {
                    lab[n] = nc;
                    stack[sp++] = n;
                }
            }
        }
        creg[nc++] = -1;
    }
    int nreq = 0;
    int32_t *req = m->req;
    for (int i = 0; i < m->nbnd; i++) {
        int X = m->bnd[4 * i + 2];
        if (X < 0 || m->region[X] < 0) continue;
        int a = m->vsub[m->bnd[4 * i]], b = m->vsub[m->bnd[4 * i + 1]];
        int32_t *h = hash_slot(m, DIR | (uint32_t)a, (uint32_t)b, false);
        if (!h) return;
        int r = m->region[X], c = lab[*h];
        if (c >= 0) {
            if (creg[c] < 0)
                creg[c] = r;
            else if (creg[c] != r)
                return; /* two regions meet: merge */
        }
        if (!m->bnd_oldfree[i]) continue;
        if (c < 0) return; /* a connection through the cavity is cut */
        int j = 0;
        while (j < nreq && req[2 * j] != r) j++;
        if (j == nreq) {
            req[2 * nreq] = r;
            req[2 * nreq + 1] = c;
            nreq++;
        } else if (req[2 * j + 1] != c) {
            return; /* may have split */
        }
    }
    for (int i = 0; i < m->ncav; i++) { /* a region inside the cavity only */
        int r = m->region[m->cav[i]];
        if (r < 0) continue;
        int j = 0;
        while (j < nreq && req[2 * j] != r) j++;
        if (j == nreq) return;
    }
    int nnew = 0;
    for (int c = 0; c < nc; c++)
        if (creg[c] < 0) creg[c] = m->nregions + nnew++;
    m->ncomp = nc;
    m->nreg_new = nnew;
    m->nfree_delta = nfree_new - nfree_old;
    m->regions_local = true;
}

/* Labels after a local step whose regions stayed local: vertex fans of the
 * new vertex ids, the cavity's slots, the buckets of moved triangles. */
static void local_labels(tn_navmesh *m, int onp, int ntris_old)
{
    int32_t *tmp = m->vsub;
    if (!m->vmap_identity) {
        for (int v = 0; v < onp; v++)
            if (m->vmap[v] >= 0) tmp[m->vmap[v]] = m->vtri[v];
        memcpy(m->vtri, tmp, sizeof *tmp * (size_t)m->npts);
    }
    for (int i = 0; i < m->ncav; i++) {
        int t = m->cav[i];
        if (t >= m->ntris) continue;
        const int32_t *v = m->tri + 3 * t;
        m->vtri[v[0]] = m->vtri[v[1]] = m->vtri[v[2]] = t;
    }
    for (int t = ntris_old; t < m->ntris; t++) {
        const int32_t *v = m->tri + 3 * t;
        m->vtri[v[0]] = m->vtri[v[1]] = m->vtri[v[2]] = t;
    }
    int nb = m->bw * m->bh;
    for (int i = 0; i < nb; i++) {
        int t = m->bucket[i];
        if (t < m->ntris) continue;
        for (int k = m->nmv - 1; k >= 0; k--) /* the latest move of t */
            if (m->mv[2 * k] == t) {
                t = m->mv[2 * k + 1];
                break;
            }
        m->bucket[i] = t < m->ntris ? t : 0;
    }
    m->nfree += m->nfree_delta;
    m->nregions += m->nreg_new;
}

/* State of one local step, passed between its phases. */
typedef struct lstep {
    const int32_t *npts, *nsegs; /* the new outline */
    int nnp, nns;
    int nsub, nsseg;  /* points and constraints of the local CDT */
    int64_t area_old; /* twice the cavity's area */
    tn_cdt_mesh sm;   /* the local CDT */
    int nq;           /* its triangles kept (m->sub_queue) */
    int ntris_after;  /* the mesh's triangle count after the commit */
} lstep;

/* New vertex nv becomes the next point of the local CDT. */
static bool sub_point(tn_navmesh *m, lstep *L, int nv)
{
    if (L->nsub == LOCAL_PTS) return false;
    m->vstamp[nv] = m->stamp;
    m->vsub[nv] = L->nsub;
    m->sub_vid[L->nsub] = nv;
    m->sub_xy[2 * L->nsub] = L->npts[2 * nv];
    m->sub_xy[2 * L->nsub + 1] = L->npts[2 * nv + 1];
    L->nsub++;
    return true;
}

/* The cavity: triangles meeting the tile, holding one of its
 * corners, or along an outline segment touching it. */
static bool cavity_collect(tn_navmesh *m, int x, int y, const int32_t *osegs, int ons)
{
    int t0 = locate_any(m, x + 0.5, y + 0.5, -1);
    if (t0 < 0 || !cav_add(m, t0)) return false;
    for (int i = 0; i < m->ncav; i++) {
        int u = m->cav[i];
        for (int k = 0; k < 3; k++) {
            int n = m->adj[3 * u + k];
            if (n >= 0 && m->tstamp[n] != m->stamp && tri_meets_tile(m, n, x, y) && !cav_add(m, n))
                return false;
        }
    }
    for (int c = 0; c < 4; c++)
        if (!cav_add_point(m, x + (c & 1), y + (c >> 1))) return false;
    for (int s = 0; s < ons; s++)
        if (seg_touches_tile(m->pts, osegs[2 * s], osegs[2 * s + 1], x, y) &&
            !cav_add_edge(m, osegs[2 * s], osegs[2 * s + 1]))
            return false;
    return true;
}

/* Its boundary edges (some may be hull edges) and points (new vertex
 * ids).  The hull itself never changes here: a vertex on it has an
 * open fan (cav_add_fan gives up) and a new vertex outside it or on a
 * hull edge is not located inside the cavity's closure. */
static bool cavity_boundary(tn_navmesh *m, int x, int y, lstep *L)
{
    L->nsub = 0;
    L->area_old = 0;
    m->nbnd = 0;
    m->nbnd = 0;
    for (int i = 0; i < m->ncav; i++) {
        int t = m->cav[i];
        const int32_t *v = m->tri + 3 * t;
        L->area_old += (int64_t)(m->pts[2 * v[1]] - m->pts[2 * v[0]]) *
                           (m->pts[2 * v[2] + 1] - m->pts[2 * v[0] + 1]) -
                       (int64_t)(m->pts[2 * v[1] + 1] - m->pts[2 * v[0] + 1]) *
                           (m->pts[2 * v[2]] - m->pts[2 * v[0]]);
        for (int k = 0; k < 3; k++) {
            int n = m->adj[3 * t + k];
            int nv = m->vmap[v[k]];
            if (nv >= 0 && m->vstamp[nv] != m->stamp && !sub_point(m, L, nv)) return false;
            if (n >= 0 && m->tstamp[n] == m->stamp) continue;
            int a = m->vmap[v[k]], b = m->vmap[v[NEXT3[k]]];
            if (a < 0 || b < 0 || m->nbnd == 3 * LOCAL_CAV) return false;
            int32_t *e = m->bnd + 4 * m->nbnd;
            e[0] = a;
            e[1] = b;
            e[2] = n;
            e[3] = n >= 0 ? edge_to(m, n, t) : -1;
            m->bnd_oldfree[m->nbnd] = m->region[t] >= 0;
            m->nbnd++;
        }
    }
    for (int c = 0; c < 4; c++) { /* corners that became vertices */
        int nv = find_vertex(L->npts, L->nnp, x + (c & 1), y + (c >> 1));
        if (nv < 0 || m->vstamp[nv] == m->stamp) continue;
        if (!sub_point(m, L, nv)) return false;
    }
    return true;
}

/* Constraints: the boundary, and every new outline segment between
 * two of the points (inside the cavity, or harmlessly outside it). */
static bool cavity_constraints(tn_navmesh *m, lstep *L)
{
    L->nsseg = 0;
    for (int i = 0; i < m->nbnd; i++) {
        int a = m->vsub[m->bnd[4 * i]], b = m->vsub[m->bnd[4 * i + 1]];
        int32_t *h = hash_slot(m, (uint32_t)tn_mini(a, b), (uint32_t)tn_maxi(a, b), true);
        if (!h || L->nsseg == LOCAL_SEGS) return false;
        *h = i;
        m->sub_segs[2 * L->nsseg] = a;
        m->sub_segs[2 * L->nsseg + 1] = b;
        L->nsseg++;
    }
    for (int s = 0; s < L->nns; s++) {
        int a = L->nsegs[2 * s], b = L->nsegs[2 * s + 1];
        if (m->vstamp[a] != m->stamp || m->vstamp[b] != m->stamp) continue;
        int sa = m->vsub[a], sb = m->vsub[b];
        if (hash_slot(m, (uint32_t)tn_mini(sa, sb), (uint32_t)tn_maxi(sa, sb), false)) continue;
        if (L->nsseg == LOCAL_SEGS) return false;
        m->sub_segs[2 * L->nsseg] = sa;
        m->sub_segs[2 * L->nsseg + 1] = sb;
        L->nsseg++;
    }
    return true;
}

/* Triangulate and keep what lies inside the cavity: flood from the
 * inner side of each boundary edge without crossing the boundary. */
static bool cavity_fill(tn_navmesh *m, lstep *L)
{
    if (L->nsub < 3 ||
        tn_failed(tn_cdt_build_i(m->sub, m->sub_xy, L->nsub, m->sub_segs, L->nsseg, 0, NULL)))
        return false;
    tn_cdt_get_mesh(m->sub, &L->sm);
    if (L->sm.ntris > 2 * LOCAL_PTS) return false;
    const uint32_t DIR = 1u << 31; /* directed-edge keys, apart from the boundary keys */
    for (int t = 0; t < L->sm.ntris; t++) {
        m->sub_slot[t] = -1;
        for (int k = 0; k < 3; k++) {
            int32_t *h = hash_slot(m, DIR | (uint32_t)L->sm.tri[3 * t + k],
                                   (uint32_t)L->sm.tri[3 * t + NEXT3[k]], true);
            if (!h) return false;
            *h = t;
        }
    }
    L->nq = 0;
    for (int i = 0; i < m->nbnd; i++) {
        int a = m->vsub[m->bnd[4 * i]], b = m->vsub[m->bnd[4 * i + 1]];
        int32_t *h = hash_slot(m, DIR | (uint32_t)a, (uint32_t)b, false);
        if (!h || *h < 0) return false;
        if (m->sub_slot[*h] < 0) {
            m->sub_slot[*h] = 0;
            m->sub_queue[L->nq++] = *h;
        }
    }
    for (int i = 0; i < L->nq; i++) {
        int t = m->sub_queue[i];
        for (int k = 0; k < 3; k++) {
            int n = L->sm.adj[3 * t + k];
            if (n < 0 || m->sub_slot[n] >= 0) continue;
            int a = L->sm.tri[3 * t + k], b = L->sm.tri[3 * t + NEXT3[k]];
            if (hash_slot(m, (uint32_t)tn_mini(a, b), (uint32_t)tn_maxi(a, b), false)) continue;
            m->sub_slot[n] = 0;
            m->sub_queue[L->nq++] = n;
        }
    }
    /* The kept triangles must cover the cavity exactly (a safety net). */
    int64_t area_new = 0;
    for (int i = 0; i < L->nq; i++) {
        const int32_t *v = L->sm.tri + 3 * m->sub_queue[i];
        const int32_t *p = m->sub_xy;
        area_new += (int64_t)(p[2 * v[1]] - p[2 * v[0]]) * (p[2 * v[2] + 1] - p[2 * v[0] + 1]) -
                    (int64_t)(p[2 * v[1] + 1] - p[2 * v[0] + 1]) * (p[2 * v[2]] - p[2 * v[0]]);
    }
    L->ntris_after = m->ntris - m->ncav + L->nq;
    if (area_new != L->area_old || L->ntris_after > m->max_tris) return false;
    /* Every edge of a kept triangle is inner or on the boundary. */
    for (int i = 0; i < L->nq; i++) {
        int t = m->sub_queue[i];
        for (int k = 0; k < 3; k++) {
            int n = L->sm.adj[3 * t + k];
            if (n >= 0 && m->sub_slot[n] >= 0) continue;
            int a = L->sm.tri[3 * t + k], b = L->sm.tri[3 * t + NEXT3[k]];
            if (!hash_slot(m, (uint32_t)tn_mini(a, b), (uint32_t)tn_maxi(a, b), false))
                return false;
        }
    }
    return true;
}

/* Commit.  Old triangles outside the cavity get the new vertex ids
 * (their vertices all survive: a vanished vertex's fan is in the
 * cavity); kept triangles take the cavity's slots, then new ones. */
static void cavity_commit(tn_navmesh *m, const lstep *L)
{
    for (int t = 0; t < m->ntris && !m->vmap_identity; t++) {
        if (m->tstamp[t] == m->stamp) continue;
        int32_t *v = m->tri + 3 * t;
        v[0] = m->vmap[v[0]];
        v[1] = m->vmap[v[1]];
        v[2] = m->vmap[v[2]];
    }
    for (int i = 0; i < L->nq; i++)
        m->sub_slot[m->sub_queue[i]] = i < m->ncav ? m->cav[i] : m->ntris + (i - m->ncav);
    for (int i = 0; i < L->nq; i++) {
        int st = m->sub_queue[i], slot = m->sub_slot[st];
        for (int k = 0; k < 3; k++) {
            int a = L->sm.tri[3 * st + k], b = L->sm.tri[3 * st + NEXT3[k]];
            m->tri[3 * slot + k] = m->sub_vid[a];
            int n = L->sm.adj[3 * st + k];
            int32_t *h = hash_slot(m, (uint32_t)tn_mini(a, b), (uint32_t)tn_maxi(a, b), false);
            if (h) { /* on the cavity boundary: the outside triangle */
                const int32_t *e = m->bnd + 4 * *h;
                m->adj[3 * slot + k] = e[2];
                if (e[2] >= 0) m->adj[3 * e[2] + e[3]] = slot;
            } else {
                m->adj[3 * slot + k] = m->sub_slot[n];
            }
        }
        if (m->regions_local)
            m->region[slot] = m->sub_lab[st] < 0 ? -1 : m->comp_reg[m->sub_lab[st]];
        m->tstamp[slot] = 0; /* a live slot again */
    }
    int ntris = m->ntris > L->ntris_after ? m->ntris : L->ntris_after;
    /* Fewer triangles than before: move the last ones into the holes. */
    for (int i = L->nq; i < m->ncav; i++) {
        int hole = m->cav[i];
        while (ntris > 0 && m->tstamp[ntris - 1] == m->stamp) ntris--;
        if (hole >= ntris) continue;
        int last = ntris - 1;
        memcpy(m->tri + 3 * hole, m->tri + 3 * last, 3 * sizeof(int32_t));
        memcpy(m->adj + 3 * hole, m->adj + 3 * last, 3 * sizeof(int32_t));
        m->region[hole] = m->region[last];
        m->mv[2 * m->nmv] = last;
        m->mv[2 * m->nmv + 1] = hole;
        m->nmv++;
        for (int k = 0; k < 3; k++) {
            int n = m->adj[3 * hole + k];
            if (n >= 0) m->adj[3 * n + edge_to(m, n, last)] = hole;
        }
        m->tstamp[hole] = 0;
        m->tstamp[last] = m->stamp;
        ntris--;
    }
    while (ntris > 0 && m->tstamp[ntris - 1] == m->stamp) ntris--;
    m->ntris = ntris;
}

/* The local step proper, on the old triangulation (m->pts = old outline):
 * the cavity, its boundary and points, their constraints, the local CDT
 * cut to the cavity, the regions (local_regions), then the commit.
 * Returns false (nothing in the mesh changed yet) when it gives up. */
static bool local_retriangulate(tn_navmesh *m, int x, int y, const int32_t *npts, int nnp,
                                const int32_t *nsegs, int nns, const int32_t *osegs, int ons)
{
    local_next_stamp(m);
    m->ncav = 0;
    m->nmv = 0;
    m->regions_local = false;
    lstep L;
    memset(&L, 0, sizeof L);
    L.npts = npts;
    L.nnp = nnp;
    L.nsegs = nsegs;
    L.nns = nns;
    if (!cavity_collect(m, x, y, osegs, ons) || !cavity_boundary(m, x, y, &L) ||
        !cavity_constraints(m, &L) || !cavity_fill(m, &L))
        return false;
    local_regions(m, &L.sm, L.nq);
    cavity_commit(m, &L);
    return true;
}

tn_status tn_navmesh_update_tile(tn_navmesh *m, const tn_map *map, int x, int y, tn_error *err)
{
    if (!m || !map)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: update without a %s (NULL)", m ? "map" : "navmesh");
    m->last_local = false;
    if (!tn_map_inside(map, x, y))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: updated tile (%d,%d) is outside the %dx%d map", x, y, map->w,
                            map->h);
    if (map->w != m->w || map->h != m->h || m->ntris == 0) return tn_navmesh_build(m, map, err);
    size_t i = (size_t)y * m->w + x;
    uint8_t f = map->tile[i] != TN_TILE_BLOCK;
    if (f == m->free[i]) {
        m->last_local = true;
        return nm_ok(err);
    }
    m->free[i] = f;
    uint64_t *row = m->bits + (size_t)(y + 1) * m->stride + (x >> 6);
    *row ^= 1ull << (x & 63);
    /* New outline into the spare buffers; the old one stays for the walk. */
    int32_t *opts = m->pts, *osegs = m->segs;
    uint8_t *oquad = m->vquad;
    int onp = m->npts, ons = m->nsegs;
    m->pts = m->pts_alt;
    m->segs = m->segs_alt;
    m->vquad = m->vquad_alt;
    bool ok = extract_outlines(m);
    int ntris_old = 0;
    int32_t *npts = m->pts, *nsegs = m->segs;
    uint8_t *nquad = m->vquad;
    int nnp = m->npts, nns = m->nsegs;
    m->pts_alt = opts;
    m->segs_alt = osegs;
    m->vquad_alt = oquad;
    if (ok && nnp >= 3) {
        /* Old -> new vertex ids: both lists are in row-major order and
         * differ only in rows y and y + 1 (the tile's corners): the same ids
         * above, shifted by a constant below, merged in between. */
        int olo = row_start(opts, onp, y), ohi = row_start(opts, onp, y + 2);
        int nlo = row_start(npts, nnp, y), nhi = row_start(npts, nnp, y + 2);
        bool same = olo == nlo && ohi == nhi;
        for (int a = 0; a < olo; a++) m->vmap[a] = a;
        for (int a = olo, b = nlo; a < ohi; a++) {
            int ax = opts[2 * a], ay = opts[2 * a + 1];
            while (b < nhi && (npts[2 * b + 1] < ay || (npts[2 * b + 1] == ay && npts[2 * b] < ax)))
                b++;
            m->vmap[a] = b < nhi && npts[2 * b] == ax && npts[2 * b + 1] == ay ? b : -1;
            same = same && m->vmap[a] == a;
        }
        for (int a = ohi, d = nhi - ohi; a < onp; a++) m->vmap[a] = a + d;
        m->vmap_identity = same;
        m->pts = opts; /* the walk needs the old geometry */
        m->npts = onp;
        ntris_old = m->ntris;
        ok = local_retriangulate(m, x, y, npts, nnp, nsegs, nns, osegs, ons);
    } else {
        ok = false;
    }
    m->pts = npts;
    m->segs = nsegs;
    m->vquad = nquad;
    m->npts = nnp;
    m->nsegs = nns;
    if (!ok) return tn_navmesh_build(m, map, err);
    if (m->regions_local)
        local_labels(m, onp, ntris_old);
    else
        label_triangles(m, -1);
    m->last_local = true;
    return nm_ok(err);
}

/* ------------------------------------------------------------------------ */
/* Debug draw */

static uint32_t region_rgba(int r)
{
    static const uint32_t PAL[8] = {0x4aa3df40, 0x5fd38d40, 0xf5b04140, 0xd9667a40,
                                    0xa57fe040, 0x4fd1c540, 0xe0d35a40, 0x9aa5b140};
    return PAL[(unsigned)r % 8u];
}

void tn_navmesh_draw(const tn_navmesh *m, const tn_debug_draw *dd, float px_per_unit, unsigned what)
{
    if (!m || !dd) return;
    const float k = m->tile_size * px_per_unit;
    for (int t = 0; t < m->ntris; t++) {
        bool fr = tri_free(m, t);
        if (!fr && !(what & TN_NAVDRAW_BLOCKED)) continue;
        if (fr && !(what & TN_NAVDRAW_TRIANGLES)) continue;
        const int32_t *v = m->tri + 3 * t;
        float x[3], y[3];
        for (int i = 0; i < 3; i++) {
            x[i] = (float)m->pts[2 * v[i]] * k;
            y[i] = (float)m->pts[2 * v[i] + 1] * k;
        }
        tn_dd_tri(dd, x[0], y[0], x[1], y[1], x[2], y[2],
                  fr ? region_rgba(m->region[t]) : 0x40404060u);
        for (int i = 0; i < 3; i++) {
            int n = m->adj[3 * t + i];
            if (n >= 0 && n < t && tri_free(m, n) == fr) continue; /* drawn once */
            tn_dd_line(dd, x[i], y[i], x[NEXT3[i]], y[NEXT3[i]], 0xffffff50u);
        }
    }
    if (what & TN_NAVDRAW_OUTLINES) {
        for (int s = 0; s < m->nsegs; s++) {
            int a = m->segs[2 * s], b = m->segs[2 * s + 1];
            tn_dd_line(dd, (float)m->pts[2 * a] * k, (float)m->pts[2 * a + 1] * k,
                       (float)m->pts[2 * b] * k, (float)m->pts[2 * b + 1] * k, 0xffd040e0u);
        }
    }
}

void tn_navmesh_draw_corridor(const tn_navmesh *m, const int32_t *tris, int n,
                              const tn_debug_draw *dd, float px_per_unit, uint32_t rgba)
{
    if (!m || !dd || !tris) return;
    const float k = m->tile_size * px_per_unit;
    for (int i = 0; i < n; i++) {
        int t = tris[i];
        if (t < 0 || t >= m->ntris) continue;
        const int32_t *v = m->tri + 3 * t;
        tn_dd_tri(dd, (float)m->pts[2 * v[0]] * k, (float)m->pts[2 * v[0] + 1] * k,
                  (float)m->pts[2 * v[1]] * k, (float)m->pts[2 * v[1] + 1] * k,
                  (float)m->pts[2 * v[2]] * k, (float)m->pts[2 * v[2] + 1] * k, rgba);
    }
}

void tn_navmesh_draw_path(const float *xy, int n, const tn_debug_draw *dd, float px_per_unit,
                          uint32_t rgba)
{
    if (!xy || !dd) return;
    for (int i = 0; i + 1 < n; i++)
        tn_dd_line(dd, xy[2 * i] * px_per_unit, xy[2 * i + 1] * px_per_unit,
                   xy[2 * i + 2] * px_per_unit, xy[2 * i + 3] * px_per_unit, rgba);
    for (int i = 0; i < n; i++)
        tn_dd_circle(dd, xy[2 * i] * px_per_unit, xy[2 * i + 1] * px_per_unit, 2.5f, rgba, true);
}
