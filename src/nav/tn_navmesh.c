/* tn_navmesh.c - see tn_navmesh.h for the algorithms, units and costs. */
#include "tn_navmesh.h"

#include "tn_cdt.h"
#include "tn_trace.h"

#include <math.h>
#include <string.h>

/* Limits of a local rebuild (beyond them it rebuilds everything). */
#define LOCAL_PTS 2048
#define LOCAL_SEGS 4096
#define LOCAL_CAV 4096
#define LOCAL_HASH 16384

struct tn_navmesh {
    tn_allocator alloc;
    int cap_w, cap_h;          /* created size */
    int w, h;                  /* size of the last built map */
    float tile_size;
    int max_points, max_segs, max_tris;
    uint8_t *free;             /* cap_w*cap_h: 1 where the tile is free */
    uint64_t *bits;            /* (cap_h+2) rows of `stride` words: free tiles as bits,
                                  rows 0 and h+1 (the outside) all zero */
    int stride;                /* words per bit row: covers bits 0..cap_w */
    int32_t *pts;              /* 2*max_points tile-corner coordinates */
    uint8_t *vquad;            /* max_points: blocked quadrants around each vertex
                                  (bit 0 NW, 1 NE, 2 SW, 3 SE; outside = blocked) */
    int32_t *segs;             /* 2*max_segs point indices */
    int32_t *colprev;          /* cap_w+1: open vertical run per column */
    int npts, nsegs;
    tn_cdt *cdt;
    int ntris;                 /* 0 when not built */
    int32_t *tri, *adj;        /* 3*max_tris each: the triangulation (own copy) */
    /* local rebuild (tn_navmesh_update_tile) */
    int32_t *pts_alt, *segs_alt; /* the other outline buffers (old/new swap) */
    uint8_t *vquad_alt;
    int32_t *vmap;             /* max_points: old vertex -> new vertex, -1 when gone */
    int32_t *vsub;             /* max_points: new vertex -> point of the local CDT */
    uint32_t *vstamp;          /* max_points */
    uint32_t *tstamp;          /* max_tris: triangle in the cavity */
    uint32_t stamp;
    tn_cdt *sub;               /* local CDT */
    int32_t *cav;              /* cavity triangles */
    int ncav;
    int32_t *bnd;              /* 4 per cavity boundary edge: a, b, outside triangle, its edge */
    int nbnd;
    /* local labels (update_labels): scratch carved from one block */
    int32_t *lscr;
    int32_t *sub_lab;          /* 2*LOCAL_PTS: kept sub triangle -> free component, -1 blocked */
    int32_t *comp_reg;         /* 2*LOCAL_PTS: component -> region (-1 none yet) */
    int32_t *bnd_in;           /* 3*LOCAL_CAV: sub triangle inside each boundary edge */
    int32_t *bnd_oldfree;      /* 3*LOCAL_CAV: the old triangle inside was free */
    int32_t *req;              /* 6*LOCAL_CAV: (region, component) that must stay joined */
    int32_t *mv;               /* 2*LOCAL_CAV: (from, to) triangle moves of the commit */
    int nmv, ncomp, nfree_delta, nreg_new;
    bool regions_local;        /* the last local step also kept the regions */
    bool vmap_identity;        /* the local step kept every vertex id */
    int32_t *sub_xy, *sub_segs, *sub_vid, *sub_slot, *sub_queue;
    uint64_t *hkey;            /* edge hash for the local step */
    int32_t *hval;
    uint32_t *hstamp;
    bool last_local;
    int32_t *region;           /* max_tris */
    int32_t *vtri;             /* max_points: a triangle using each vertex */
    bool swept;                /* the last full build used the row sweep */
    int32_t *stack;            /* max_tris */
    int nfree, nregions;
    int32_t *bucket;           /* bw*bh: a triangle whose centroid lies in each bucket */
    int bw, bh;
    double (*clock)(void);
    double cdt_seconds;
};

/* ------------------------------------------------------------------------ */
/* Geometry helpers (tile units, doubles: exact for integer and half-integer
 * coordinates of the sizes used here). */

static inline double orient2(double ax, double ay, double bx, double by, double cx, double cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static inline double dist2d(double ax, double ay, double bx, double by)
{
    return sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
}

static inline double px_(const tn_navmesh *m, int v) { return (double)m->pts[2 * v]; }
static inline double py_(const tn_navmesh *m, int v) { return (double)m->pts[2 * v + 1]; }

static const int NEXT3[3] = {1, 2, 0};
static const int PREV3[3] = {2, 0, 1};

static inline int local_index(const tn_navmesh *m, int t, int v)
{
    const int32_t *tv = m->tri + 3 * t;
    return tv[0] == v ? 0 : tv[1] == v ? 1 : 2;
}

static inline bool tri_free(const tn_navmesh *m, int t) { return t >= 0 && m->region[t] >= 0; }

/* The edge of t shared with its neighbour n. */
static inline int edge_to(const tn_navmesh *m, int t, int n)
{
    const int32_t *a = m->adj + 3 * t;
    return a[0] == n ? 0 : a[1] == n ? 1 : 2;
}

/* ------------------------------------------------------------------------ */
/* Create / destroy */

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

tn_navmesh *tn_navmesh_create(int map_w, int map_h, const tn_navmesh_config *cfg,
                              const tn_allocator *a, tn_error *err)
{
    tn_navmesh_config c = cfg ? *cfg : tn_navmesh_default_config();
    if (map_w < 1 || map_h < 1 || map_w > TN_MAP_MAX_SIZE || map_h > TN_MAP_MAX_SIZE) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh size %dx%d is outside 1..%d", map_w, map_h, TN_MAP_MAX_SIZE);
        return NULL;
    }
    if (!(c.tile_size > 0.0f) || !isfinite(c.tile_size)) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh tile_size %g must be a positive number", (double)c.tile_size);
        return NULL;
    }
    int64_t worst_pts = (int64_t)(map_w + 1) * (map_h + 1);
    int64_t worst_segs = (int64_t)2 * map_w * map_h + map_w + map_h;
    if (c.max_points < 0 || c.max_segments < 0 || c.max_points > worst_pts ||
        c.max_segments > worst_segs) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh capacities %d points / %d segments are outside 0..%lld / 0..%lld",
                     c.max_points, c.max_segments, (long long)worst_pts, (long long)worst_segs);
        return NULL;
    }
    if (worst_pts * 2 > INT32_MAX / 4) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh size %dx%d is too large", map_w, map_h);
        return NULL;
    }
    tn_navmesh *m = tn_alloc(a, sizeof *m);
    if (!m) {
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "out of memory for the navmesh");
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
    const tn_allocator *al = &m->alloc;
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
        !m->vtri ||
        !m->stack || !m->bucket || !m->tri || !m->adj || !m->pts_alt || !m->segs_alt ||
        !m->vquad_alt || !m->vmap || !m->vsub || !m->vstamp || !m->tstamp || !m->cav ||
        !m->bnd || !m->lscr || !m->sub_xy || !m->sub_segs || !m->sub_vid || !m->sub_slot ||
        !m->sub_queue || !m->hkey || !m->hval || !m->hstamp) {
        tn_navmesh_destroy(m);
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                     "out of memory for a %dx%d navmesh", map_w, map_h);
        return NULL;
    }
    m->cdt = tn_cdt_create(m->max_points, m->max_segs, al, err);
    m->sub = m->cdt ? tn_cdt_create(LOCAL_PTS, LOCAL_SEGS, al, err) : NULL;
    if (!m->cdt || !m->sub) {
        tn_navmesh_destroy(m);
        return NULL;
    }
    return m;
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
            t ^= ONES;                          /* a block becomes 0, others 1 or 3 */
            uint64_t f = (t | t >> 1) & ONES;   /* 1 per free byte */
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
        const uint64_t *up = m->bits + (size_t)y * stride;      /* tile row y-1 */
        const uint64_t *dn = m->bits + (size_t)(y + 1) * stride; /* tile row y */
        int hprev = -1;
        uint64_t carry_up = 0, carry_dn = 0, carry_v = 0;
        for (int wi = 0; wi < nwords; wi++) {
            uint64_t u = up[wi], d = dn[wi];
            /* bit k: the tile left of corner 64*wi+k differs from the one right of it */
            uint64_t v = u ^ d;
            /* A vertex: a row changes across the corner (not a horizontal
             * wall or uniform) and a column changes (not a vertical wall). */
            uint64_t cand = ((u ^ (u << 1 | carry_up)) | (d ^ (d << 1 | carry_dn))) &
                            (v | (v << 1 | carry_v));
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
        if (m->bucket[i] < 0) m->bucket[i] = last;
        else last = m->bucket[i];
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


static inline bool tile_blocked(const tn_navmesh *m, int x, int y)
{
    return x < 0 || y < 0 || x >= m->w || y >= m->h || !m->free[(size_t)y * m->w + x];
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
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "navmesh build: no %s",
                            m ? "map" : "navmesh");
    m->ntris = 0;
    m->nfree = m->nregions = 0;
    m->npts = m->nsegs = 0;
    m->cdt_seconds = 0.0;
    m->last_local = false;
    if (map->w > m->cap_w || map->h > m->cap_h)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "map %dx%d is larger than the navmesh's %dx%d", map->w, map->h,
                            m->cap_w, m->cap_h);
    m->w = map->w;
    m->h = map->h;
    copy_free(m, map);
    if (!extract_outlines(m)) {
        m->npts = m->nsegs = 0;
        return tn_error_set(err, TN_FAILURE | TN_CAPACITY, 0, 0,
                            "navmesh capacity (%d points, %d segments) is too small for this map",
                            m->max_points, m->max_segs);
    }
    if (m->nsegs == 0) { /* no free tile: an empty mesh */
        m->npts = 0;
        return TN_OK;
    }
    double t0 = m->clock ? m->clock() : 0.0;
    m->swept = false;
    if (build_swept(m)) {
        if (m->clock) m->cdt_seconds = m->clock() - t0;
        label_triangles(m, -1);
        return TN_OK;
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
                            "navmesh: %d triangles exceed the capacity %d", cm.ntris,
                            m->max_tris);
    }
    memcpy(m->tri, cm.tri, sizeof(int32_t) * 3 * (size_t)cm.ntris);
    memcpy(m->adj, cm.adj, sizeof(int32_t) * 3 * (size_t)cm.ntris);
    m->ntris = cm.ntris;
    label_triangles(m, -1);
    return TN_OK;
}

bool tn_navmesh_tile_free(const tn_navmesh *m, int x, int y)
{
    return m && x >= 0 && y >= 0 && x < m->w && y < m->h && m->free[(size_t)y * m->w + x];
}

void tn_navmesh_get_view(const tn_navmesh *m, tn_navmesh_view *v)
{
    memset(v, 0, sizeof *v);
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

static bool tri_contains(const tn_navmesh *m, int t, double px, double py)
{
    const int32_t *v = m->tri + 3 * t;
    for (int i = 0; i < 3; i++) {
        int a = v[i], b = v[NEXT3[i]];
        if (orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), px, py) < 0) return false;
    }
    return true;
}

static int locate_any(const tn_navmesh *m, double px, double py, int hint)
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
static int free_containing(const tn_navmesh *m, int t, double px, double py)
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

static int locate_free(const tn_navmesh *m, double px, double py, int hint)
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
            outside = orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), x + (c & 1),
                              y + (c >> 1)) <= 0;
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
        if (pts[2 * mid + 1] < y) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int find_vertex(const int32_t *pts, int n, int x, int y)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int my = pts[2 * mid + 1], mx = pts[2 * mid];
        if (my < y || (my == y && mx < x)) lo = mid + 1;
        else hi = mid;
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
            if (creg[c] < 0) creg[c] = r;
            else if (creg[c] != r) return; /* two regions meet: merge */
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

/* The local step proper, on the old triangulation (m->pts = old outline).
 * Returns false (nothing in the mesh changed yet) when it gives up. */
static bool local_retriangulate(tn_navmesh *m, int x, int y, const int32_t *npts, int nnp,
                                const int32_t *nsegs, int nns, const int32_t *osegs, int ons)
{
    local_next_stamp(m);
    m->ncav = 0;
    m->nmv = 0;
    m->regions_local = false;
    /* 1. The cavity: triangles meeting the tile, holding one of its
     *    corners, or along an outline segment touching it. */
    int t0 = locate_any(m, x + 0.5, y + 0.5, -1);
    if (t0 < 0 || !cav_add(m, t0)) return false;
    for (int i = 0; i < m->ncav; i++) {
        int u = m->cav[i];
        for (int k = 0; k < 3; k++) {
            int n = m->adj[3 * u + k];
            if (n >= 0 && m->tstamp[n] != m->stamp && tri_meets_tile(m, n, x, y) &&
                !cav_add(m, n))
                return false;
        }
    }
    for (int c = 0; c < 4; c++)
        if (!cav_add_point(m, x + (c & 1), y + (c >> 1))) return false;
    for (int s = 0; s < ons; s++)
        if (seg_touches_tile(m->pts, osegs[2 * s], osegs[2 * s + 1], x, y) &&
            !cav_add_edge(m, osegs[2 * s], osegs[2 * s + 1]))
            return false;
    /* 2. Its boundary edges (some may be hull edges) and points (new vertex
     *    ids).  The hull itself never changes here: a vertex on it has an
     *    open fan (cav_add_fan gives up) and a new vertex outside it or on a
     *    hull edge is not located inside the cavity's closure. */
    int nsub = 0, nsseg = 0;
    m->nbnd = 0;
    int64_t area_old = 0;
    for (int i = 0; i < m->ncav; i++) {
        int t = m->cav[i];
        const int32_t *v = m->tri + 3 * t;
        area_old += (int64_t)(m->pts[2 * v[1]] - m->pts[2 * v[0]]) *
                        (m->pts[2 * v[2] + 1] - m->pts[2 * v[0] + 1]) -
                    (int64_t)(m->pts[2 * v[1] + 1] - m->pts[2 * v[0] + 1]) *
                        (m->pts[2 * v[2]] - m->pts[2 * v[0]]);
        for (int k = 0; k < 3; k++) {
            int n = m->adj[3 * t + k];
            int nv = m->vmap[v[k]];
            if (nv >= 0 && m->vstamp[nv] != m->stamp) {
                if (nsub == LOCAL_PTS) return false;
                m->vstamp[nv] = m->stamp;
                m->vsub[nv] = nsub;
                m->sub_vid[nsub] = nv;
                m->sub_xy[2 * nsub] = npts[2 * nv];
                m->sub_xy[2 * nsub + 1] = npts[2 * nv + 1];
                nsub++;
            }
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
        int nv = find_vertex(npts, nnp, x + (c & 1), y + (c >> 1));
        if (nv < 0 || m->vstamp[nv] == m->stamp) continue;
        if (nsub == LOCAL_PTS) return false;
        m->vstamp[nv] = m->stamp;
        m->vsub[nv] = nsub;
        m->sub_vid[nsub] = nv;
        m->sub_xy[2 * nsub] = npts[2 * nv];
        m->sub_xy[2 * nsub + 1] = npts[2 * nv + 1];
        nsub++;
    }
    /* 3. Constraints: the boundary, and every new outline segment between
     *    two of the points (inside the cavity, or harmlessly outside it). */
    for (int i = 0; i < m->nbnd; i++) {
        int a = m->vsub[m->bnd[4 * i]], b = m->vsub[m->bnd[4 * i + 1]];
        int32_t *h = hash_slot(m, (uint32_t)tn_mini(a, b), (uint32_t)tn_maxi(a, b), true);
        if (!h || nsseg == LOCAL_SEGS) return false;
        *h = i;
        m->sub_segs[2 * nsseg] = a;
        m->sub_segs[2 * nsseg + 1] = b;
        nsseg++;
    }
    for (int s = 0; s < nns; s++) {
        int a = nsegs[2 * s], b = nsegs[2 * s + 1];
        if (m->vstamp[a] != m->stamp || m->vstamp[b] != m->stamp) continue;
        int sa = m->vsub[a], sb = m->vsub[b];
        if (hash_slot(m, (uint32_t)tn_mini(sa, sb), (uint32_t)tn_maxi(sa, sb), false)) continue;
        if (nsseg == LOCAL_SEGS) return false;
        m->sub_segs[2 * nsseg] = sa;
        m->sub_segs[2 * nsseg + 1] = sb;
        nsseg++;
    }
    /* 4. Triangulate and keep what lies inside the cavity: flood from the
     *    inner side of each boundary edge without crossing the boundary. */
    if (nsub < 3 || tn_failed(tn_cdt_build_i(m->sub, m->sub_xy, nsub, m->sub_segs, nsseg, 0, NULL)))
        return false;
    tn_cdt_mesh sm;
    tn_cdt_get_mesh(m->sub, &sm);
    if (sm.ntris > 2 * LOCAL_PTS) return false;
    const uint32_t DIR = 1u << 31; /* directed-edge keys, apart from the boundary keys */
    for (int t = 0; t < sm.ntris; t++) {
        m->sub_slot[t] = -1;
        for (int k = 0; k < 3; k++) {
            int32_t *h = hash_slot(m, DIR | (uint32_t)sm.tri[3 * t + k],
                                   (uint32_t)sm.tri[3 * t + NEXT3[k]], true);
            if (!h) return false;
            *h = t;
        }
    }
    int nq = 0;
    for (int i = 0; i < m->nbnd; i++) {
        int a = m->vsub[m->bnd[4 * i]], b = m->vsub[m->bnd[4 * i + 1]];
        int32_t *h = hash_slot(m, DIR | (uint32_t)a, (uint32_t)b, false);
        if (!h || *h < 0) return false;
        if (m->sub_slot[*h] < 0) {
            m->sub_slot[*h] = 0;
            m->sub_queue[nq++] = *h;
        }
    }
    for (int i = 0; i < nq; i++) {
        int t = m->sub_queue[i];
        for (int k = 0; k < 3; k++) {
            int n = sm.adj[3 * t + k];
            if (n < 0 || m->sub_slot[n] >= 0) continue;
            int a = sm.tri[3 * t + k], b = sm.tri[3 * t + NEXT3[k]];
            if (hash_slot(m, (uint32_t)tn_mini(a, b), (uint32_t)tn_maxi(a, b), false)) continue;
            m->sub_slot[n] = 0;
            m->sub_queue[nq++] = n;
        }
    }
    /* The kept triangles must cover the cavity exactly (a safety net). */
    int64_t area_new = 0;
    for (int i = 0; i < nq; i++) {
        const int32_t *v = sm.tri + 3 * m->sub_queue[i];
        const int32_t *p = m->sub_xy;
        area_new += (int64_t)(p[2 * v[1]] - p[2 * v[0]]) * (p[2 * v[2] + 1] - p[2 * v[0] + 1]) -
                    (int64_t)(p[2 * v[1] + 1] - p[2 * v[0] + 1]) * (p[2 * v[2]] - p[2 * v[0]]);
    }
    int nnew = nq, ntris_after = m->ntris - m->ncav + nnew;
    if (area_new != area_old || ntris_after > m->max_tris) return false;
    /* Every edge of a kept triangle is inner or on the boundary. */
    for (int i = 0; i < nq; i++) {
        int t = m->sub_queue[i];
        for (int k = 0; k < 3; k++) {
            int n = sm.adj[3 * t + k];
            if (n >= 0 && m->sub_slot[n] >= 0) continue;
            int a = sm.tri[3 * t + k], b = sm.tri[3 * t + NEXT3[k]];
            if (!hash_slot(m, (uint32_t)tn_mini(a, b), (uint32_t)tn_maxi(a, b), false))
                return false;
        }
    }

    local_regions(m, &sm, nq);
    /* 5. Commit.  Old triangles outside the cavity get the new vertex ids
     *    (their vertices all survive: a vanished vertex's fan is in the
     *    cavity); kept triangles take the cavity's slots, then new ones. */
    for (int t = 0; t < m->ntris && !m->vmap_identity; t++) {
        if (m->tstamp[t] == m->stamp) continue;
        int32_t *v = m->tri + 3 * t;
        v[0] = m->vmap[v[0]];
        v[1] = m->vmap[v[1]];
        v[2] = m->vmap[v[2]];
    }
    for (int i = 0; i < nq; i++)
        m->sub_slot[m->sub_queue[i]] = i < m->ncav ? m->cav[i] : m->ntris + (i - m->ncav);
    for (int i = 0; i < nq; i++) {
        int st = m->sub_queue[i], slot = m->sub_slot[st];
        for (int k = 0; k < 3; k++) {
            int a = sm.tri[3 * st + k], b = sm.tri[3 * st + NEXT3[k]];
            m->tri[3 * slot + k] = m->sub_vid[a];
            int n = sm.adj[3 * st + k];
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
    int ntris = m->ntris > ntris_after ? m->ntris : ntris_after;
    /* Fewer triangles than before: move the last ones into the holes. */
    for (int i = nq; i < m->ncav; i++) {
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
    return true;
}

tn_status tn_navmesh_update_tile(tn_navmesh *m, const tn_map *map, int x, int y, tn_error *err)
{
    if (!m || !map)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "navmesh update: no %s",
                            m ? "map" : "navmesh");
    m->last_local = false;
    if (!tn_map_inside(map, x, y))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh update: tile (%d,%d) is outside the %dx%d map", x, y,
                            map->w, map->h);
    if (map->w != m->w || map->h != m->h || m->ntris == 0) return tn_navmesh_build(m, map, err);
    size_t i = (size_t)y * m->w + x;
    uint8_t f = map->tile[i] != TN_TILE_BLOCK;
    if (f == m->free[i]) {
        m->last_local = true;
        return TN_OK;
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
    return TN_OK;
}

/* ------------------------------------------------------------------------ */
/* Line of sight */

/* The segment (direction d) passes through vertex v, arriving in triangle t
 * (which uses v).  Sides of the line through v: L where cross(d, p-v) > 0,
 * R where < 0.  The passage is blocked when blocked triangles touch v on both
 * sides (a pinch) unless at_start, or when the triangle the segment leaves
 * into is blocked.  Returns the free triangle to continue in, or -1. */
static int pivot(const tn_navmesh *m, int t, int v, double dx, double dy, bool at_start)
{
    const double vx = px_(m, v), vy = py_(m, v);
    bool lobs = false, robs = false, lhas = false, rhas = false, complete = false;
    int target = -1, along = -1;
    bool target_blocked = false;
    int u = t, guard = m->ntris + 1;
    int dir = 0; /* 0: CCW from t, 1: CW from t */
    for (;;) {
        /* visit u */
        int k = local_index(m, u, v);
        const int32_t *tv = m->tri + 3 * u;
        int p1 = tv[NEXT3[k]], p2 = tv[PREV3[k]];
        double s1 = dx * (py_(m, p1) - vy) - dy * (px_(m, p1) - vx);
        double s2 = dx * (py_(m, p2) - vy) - dy * (px_(m, p2) - vx);
        bool fr = tri_free(m, u);
        if (s1 >= 0 && s2 >= 0) {
            lhas = true;
            if (!fr) lobs = true;
        } else if (s1 <= 0 && s2 <= 0) {
            rhas = true;
            if (!fr) robs = true;
        } else if (s1 < 0 && s2 > 0) {
            if (fr) target = u;
            else target_blocked = true;
        }
        if (fr && along < 0) {
            /* +d along one of u's edges from v */
            if ((s1 == 0 && dx * (px_(m, p1) - vx) + dy * (py_(m, p1) - vy) > 0) ||
                (s2 == 0 && dx * (px_(m, p2) - vx) + dy * (py_(m, p2) - vy) > 0))
                along = u;
        }
        /* next triangle around v */
        int n;
        if (dir == 0) {
            n = m->adj[3 * u + PREV3[k]]; /* across the edge (p2, v): CCW */
            if (n == t) {
                complete = true;
                break;
            }
            if (n < 0) {
                dir = 1;
                n = m->adj[3 * t + local_index(m, t, v)];
                if (n < 0) break;
            }
        } else {
            n = m->adj[3 * u + k]; /* across the edge (v, p1): CW */
            if (n < 0) break;
        }
        if (--guard <= 0) return -1;
        u = n;
    }
    if (!complete) {
        /* v is on the hull: a side without triangles is outside the map. */
        if (!lhas) lobs = true;
        if (!rhas) robs = true;
    }
    if (!at_start && lobs && robs) return -1;
    if (target_blocked) return -1;
    if (target >= 0) return target;
    return along;
}

bool tn_navmesh_los(const tn_navmesh *m, float fax, float fay, float fbx, float fby)
{
    if (!m || m->ntris == 0 || !isfinite(fax) || !isfinite(fay) || !isfinite(fbx) ||
        !isfinite(fby))
        return false;
    const double inv = 1.0 / m->tile_size;
    const double ax = fax * inv, ay = fay * inv, bx = fbx * inv, by = fby * inv;
    int t = locate_free(m, ax, ay, -1);
    if (t < 0) return false;
    const double dx = bx - ax, dy = by - ay;
    if (dx == 0 && dy == 0) return true;
    for (int i = 0; i < 3; i++) {
        int v = m->tri[3 * t + i];
        if (px_(m, v) == ax && py_(m, v) == ay) {
            t = pivot(m, t, v, dx, dy, true);
            if (t < 0) return false;
            break;
        }
    }
    for (int steps = 0; steps <= m->ntris + 4; steps++) {
        if (tri_contains(m, t, bx, by)) return true;
        const int32_t *tv = m->tri + 3 * t;
        double s[3];
        for (int i = 0; i < 3; i++)
            s[i] = dx * (py_(m, tv[i]) - ay) - dy * (px_(m, tv[i]) - ax);
        int exit_edge = -1;
        for (int i = 0; i < 3; i++)
            if (s[i] < 0 && s[NEXT3[i]] > 0) exit_edge = i;
        if (exit_edge >= 0) {
            int n = m->adj[3 * t + exit_edge];
            if (!tri_free(m, n)) return false;
            t = n;
            continue;
        }
        /* The line leaves through a vertex: the one farthest along d. */
        int best = -1;
        double bestp = 0.0;
        for (int i = 0; i < 3; i++) {
            if (s[i] != 0) continue;
            double p = dx * (px_(m, tv[i]) - ax) + dy * (py_(m, tv[i]) - ay);
            if (best < 0 || p > bestp) {
                best = i;
                bestp = p;
            }
        }
        if (best < 0 || bestp <= 0) return false;
        t = pivot(m, t, tv[best], dx, dy, false);
        if (t < 0) return false;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Nearest free point */

bool tn_navmesh_nearest_free(const tn_navmesh *m, float x, float y, float margin, float *ox,
                             float *oy)
{
    if (!m || !ox || !oy || !isfinite(x) || !isfinite(y) || m->nfree == 0) return false;
    if (!(margin >= 0.0f && margin < 0.5f * m->tile_size)) return false;
    const double inv = 1.0 / m->tile_size;
    double px = x * inv, py = y * inv;
    double mg = margin * inv;
    /* Start from the tile under the point, clamped to the map. */
    double fx = floor(px), fy = floor(py);
    int tx = (int)tn_clampf((float)fx, -1.0f, (float)m->w);
    int ty = (int)tn_clampf((float)fy, -1.0f, (float)m->h);
    int rmax = tn_maxi(tn_maxi(tx + 1, m->w - tx), tn_maxi(ty + 1, m->h - ty));
    double best = INFINITY, bx = px, by = py;
    for (int r = 0; r <= rmax; r++) {
        for (int yy = ty - r; yy <= ty + r; yy++) {
            if (yy < 0 || yy >= m->h) continue;
            bool edge_row = yy == ty - r || yy == ty + r;
            int step = edge_row ? 1 : 2 * r;
            for (int xx = tx - r; xx <= tx + r; xx += step > 0 ? step : 1) {
                if (xx < 0 || xx >= m->w || !m->free[(size_t)yy * m->w + xx]) continue;
                double qx = px < xx + mg ? xx + mg : px > xx + 1 - mg ? xx + 1 - mg : px;
                double qy = py < yy + mg ? yy + mg : py > yy + 1 - mg ? yy + 1 - mg : py;
                double d = (qx - px) * (qx - px) + (qy - py) * (qy - py);
                if (d < best) {
                    best = d;
                    bx = qx;
                    by = qy;
                }
            }
        }
        /* Tiles of ring r+1 are at least r away (the point is within one
         * tile of (tx, ty) after clamping, or farther for outside points). */
        if (best <= (double)r * r) break;
    }
    if (best == INFINITY) return false;
    *ox = (float)(bx * m->tile_size);
    *oy = (float)(by * m->tile_size);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Path queries */

/* Triangle A* (radius > 0): one state per triangle. */
typedef struct qnode {
    double g, f, x, y; /* cost so far, + heuristic, entry point */
    int32_t parent;
    int32_t heap;      /* position in the heap, -1 when not in it */
    uint32_t stamp;    /* generation of the query that touched it */
    int8_t edge;       /* entry edge in this triangle (-1 for the start) */
} qnode;

/* Interval search (radius 0): a node is an interval [left, right] on the
 * entry edge of `tri`, seen from `root` (the start or a vertex) reached with
 * path length g.  left/right as seen from the root looking into tri; in
 * tri's own order the edge runs from its left vertex (tri[edge]) to its right
 * vertex (tri[edge+1]); lv/rv say the interval reaches that vertex. */
typedef struct pnode {
    double lx, ly, rx, ry;
    double g, f;
    int32_t root;   /* vertex, -1 = the start */
    int32_t parent; /* node, -1 for the first ones */
    int32_t tri;
    int8_t edge;
    uint8_t lv, rv;
} pnode;

typedef struct pent {
    double f, g;
    int32_t node;
} pent;

typedef struct clabel {
    double g;        /* path length to the arrival point */
    double tx, ty;   /* arrival point (tangent point; the start for label 0) */
    double ox, oy;   /* departure point on the parent's circle */
    double f;        /* heap key */
    int32_t state;   /* 2*vertex + (s > 0); -1 start, -2 goal */
    int32_t parent;  /* label of the circle before, -1 for the start */
    int32_t next;    /* next closed label of the same state */
} clabel;

typedef struct vitem {
    double rx, ry, lx, ly; /* cone: right and left directions from the apex */
    int32_t t;
    int8_t e;              /* entry edge of t */
} vitem;

struct tn_navquery {
    tn_allocator alloc;
    const tn_navmesh *m;
    int cap;             /* triangles */
    uint32_t gen;
    qnode *node;         /* per triangle */
    int32_t *heap;       /* triangle A* (cap) */
    pent *pheap;         /* interval search (pcap) */
    int nheap;
    pnode *pool;         /* interval search nodes */
    int pcap, npool;
    double *root_g;      /* per vertex: best g as a root in this query */
    uint32_t *root_stamp;
    int32_t *corr;       /* corridor, start to goal */
    int ncorr;
    double *portals;     /* 4*(cap+2) */
    double *pts;         /* 2*(cap+2) */
    int expanded;
    bool exact;
    /* clearance search (radius > 0) */
    struct clabel *cheap, *lab; /* heap of offered tangents; closed labels */
    int ncheap, ccap, nlab, lcap;
    double cbest;
    bool cinexact;
    int32_t *state_head;        /* 2*max_points: closed labels per corner and side */
    uint32_t *state_stamp, sgen;
    uint32_t *vis_stamp, vgen;  /* max_points: candidate set of one expansion */
    int32_t *cand;
    int ncand;
    struct vitem *vstack;
    int nvis, vcap;
    int32_t *lchain;            /* lcap */
    int32_t *vc_off;            /* max_points: cached candidates of a vertex in vc_pool */
    int32_t *vc_n;              /* max_points: their number, -1 - n with the goal in sight */
    uint32_t *vc_stamp;         /* max_points: query (sgen) of the cache entry */
    int32_t *vc_pool;
    int vc_used, vc_cap;
    double *out;                /* path points (2 * outcap) */
    int nout, outcap;
    double clen;                /* exact length of the last radius path (tiles) */
    tn_trace *trace;     /* optional search record (tn_trace.h) */
};

void tn_navquery_set_trace(tn_navquery *q, tn_trace *trace) { q->trace = trace; }

/* Record a search event at triangle t's centroid (out of line: the search
 * loops keep only a test). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void trace_tri(tn_navquery *q, tn_trace_kind k, int t, double g, double f)
{
    const tn_navmesh *m = q->m;
    const int32_t *v = m->tri + 3 * t;
    float x = (float)((px_(m, v[0]) + px_(m, v[1]) + px_(m, v[2])) / 3.0);
    float y = (float)((py_(m, v[0]) + py_(m, v[1]) + py_(m, v[2])) / 3.0);
    tn_trace_record(q->trace, k, x, y, t, (float)g, (float)f);
}

/* Record an event of the radius search: a tangent point, in the same units
 * as trace_tri's centroids; id -1. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void trace_pt(tn_navquery *q, tn_trace_kind k, double x, double y, double g, double f)
{
    tn_trace_record(q->trace, k, (float)x, (float)y, -1, (float)g, (float)f);
}

tn_navquery *tn_navquery_create(const tn_navmesh *m, const tn_allocator *a, tn_error *err)
{
    if (!m) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "navquery: no navmesh");
        return NULL;
    }
    tn_navquery *q = tn_alloc(a, sizeof *q);
    if (!q) {
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "out of memory for a navquery");
        return NULL;
    }
    if (a) q->alloc = *a;
    q->trace = NULL;
    q->m = m;
    q->cap = m->max_tris;
    q->pcap = TN_NAVQUERY_NODES_PER_TRI * m->max_tris + 64;
    size_t n = (size_t)q->cap;
    q->node = tn_alloc_array(a, n, sizeof *q->node);
    q->heap = tn_alloc_array(a, n, sizeof *q->heap);
    q->pheap = tn_alloc_array(a, (size_t)q->pcap, sizeof *q->pheap);
    q->pool = tn_alloc_array(a, (size_t)q->pcap, sizeof *q->pool);
    q->root_g = tn_alloc_array(a, (size_t)m->max_points, sizeof *q->root_g);
    q->root_stamp = tn_alloc_array(a, (size_t)m->max_points, sizeof *q->root_stamp);
    q->corr = tn_alloc_array(a, n, sizeof *q->corr);
    q->portals = tn_alloc_array(a, n + 2, 4 * sizeof(double));
    q->pts = tn_alloc_array(a, n + 2, 2 * sizeof(double));
    size_t mp = (size_t)m->max_points;
    q->lcap = (int)(mp / 2 + 256);
    q->ccap = (int)(2 * mp + 1024);
    q->vcap = (int)n + 64;
    q->outcap = (int)n + 2;
    q->cheap = tn_alloc_array(a, (size_t)q->ccap, sizeof(clabel));
    q->lab = tn_alloc_array(a, (size_t)q->lcap, sizeof(clabel));
    q->state_head = tn_alloc_array(a, 2 * mp, sizeof(int32_t));
    q->state_stamp = tn_alloc_array(a, 2 * mp, sizeof(uint32_t));
    q->vis_stamp = tn_alloc_array(a, mp, sizeof(uint32_t));
    q->cand = tn_alloc_array(a, mp, sizeof(int32_t));
    q->vstack = tn_alloc_array(a, (size_t)q->vcap, sizeof(vitem));
    q->lchain = tn_alloc_array(a, (size_t)q->lcap, sizeof(int32_t));
    q->vc_cap = (int)(4 * mp + 1024);
    q->vc_off = tn_alloc_array(a, mp, sizeof(int32_t));
    q->vc_n = tn_alloc_array(a, mp, sizeof(int32_t));
    q->vc_stamp = tn_alloc_array(a, mp, sizeof(uint32_t));
    q->vc_pool = tn_alloc_array(a, (size_t)q->vc_cap, sizeof(int32_t));
    q->out = q->pts;
    if (!q->node || !q->heap || !q->pheap || !q->pool || !q->root_g || !q->root_stamp || !q->corr ||
        !q->portals || !q->pts || !q->cheap || !q->lab || !q->state_head || !q->state_stamp ||
        !q->vis_stamp || !q->cand || !q->vstack || !q->lchain || !q->vc_off || !q->vc_n ||
        !q->vc_stamp || !q->vc_pool) {
        tn_navquery_destroy(q);
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "out of memory for a navquery");
        return NULL;
    }
    return q;
}

void tn_navquery_destroy(tn_navquery *q)
{
    if (!q) return;
    tn_allocator a = q->alloc;
    tn_free(&a, q->node);
    tn_free(&a, q->heap);
    tn_free(&a, q->pheap);
    tn_free(&a, q->pool);
    tn_free(&a, q->root_g);
    tn_free(&a, q->root_stamp);
    tn_free(&a, q->corr);
    tn_free(&a, q->portals);
    tn_free(&a, q->pts);
    tn_free(&a, q->cheap);
    tn_free(&a, q->lab);
    tn_free(&a, q->state_head);
    tn_free(&a, q->state_stamp);
    tn_free(&a, q->vis_stamp);
    tn_free(&a, q->cand);
    tn_free(&a, q->vstack);
    tn_free(&a, q->lchain);
    tn_free(&a, q->vc_off);
    tn_free(&a, q->vc_n);
    tn_free(&a, q->vc_stamp);
    tn_free(&a, q->vc_pool);
    tn_free(&a, q);
}

const int32_t *tn_navquery_corridor(const tn_navquery *q, int *n)
{
    if (n) *n = q ? q->ncorr : 0;
    return q ? q->corr : NULL;
}

int tn_navquery_expanded(const tn_navquery *q) { return q ? q->expanded : 0; }
bool tn_navquery_exact(const tn_navquery *q) { return q && q->exact; }
double tn_navquery_length(const tn_navquery *q) { return q ? q->clen * q->m->tile_size : 0; }

/* ---- triangle A* heap (decrease-key) ---- */

static inline bool heap_less(const tn_navquery *q, int a, int b)
{
    const qnode *na = &q->node[a], *nb = &q->node[b];
    return na->f < nb->f || (na->f == nb->f && a < b);
}

static void heap_up(tn_navquery *q, int i)
{
    int32_t *h = q->heap;
    int x = h[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!heap_less(q, x, h[p])) break;
        h[i] = h[p];
        q->node[h[i]].heap = i;
        i = p;
    }
    h[i] = x;
    q->node[x].heap = i;
}

static void heap_down(tn_navquery *q, int i)
{
    int32_t *h = q->heap;
    int n = q->nheap, x = h[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && heap_less(q, h[c + 1], h[c])) c++;
        if (!heap_less(q, h[c], x)) break;
        h[i] = h[c];
        q->node[h[i]].heap = i;
        i = c;
    }
    h[i] = x;
    q->node[x].heap = i;
}

static void heap_push(tn_navquery *q, int t)
{
    q->heap[q->nheap] = t;
    heap_up(q, q->nheap++);
}

static int heap_pop(tn_navquery *q)
{
    int t = q->heap[0];
    q->node[t].heap = -1;
    if (--q->nheap > 0) {
        q->heap[0] = q->heap[q->nheap];
        heap_down(q, 0);
    }
    return t;
}

/* The point of segment [a, b] minimising |p - q| + |q - g| (straight line
 * where it crosses, else reflect g across the line, then clamp). */
static void portal_point(double ax, double ay, double bx, double by, double px, double py,
                         double gx, double gy, double *qx, double *qy)
{
    double ex = bx - ax, ey = by - ay, l2 = ex * ex + ey * ey;
    if (l2 == 0) {
        *qx = ax;
        *qy = ay;
        return;
    }
    double sp = ex * (py - ay) - ey * (px - ax);
    double sg = ex * (gy - ay) - ey * (gx - ax);
    if (sp * sg > 0) { /* same side: reflect g */
        double k = 2.0 * sg / l2;
        gx += k * ey;
        gy -= k * ex;
        sg = -sg;
    }
    double u;
    if (sp == sg) { /* both on the line */
        u = ((px - ax) * ex + (py - ay) * ey) / l2;
    } else {
        double s = sp / (sp - sg);
        double ix = px + (gx - px) * s, iy = py + (gy - py) * s;
        u = ((ix - ax) * ex + (iy - ay) * ey) / l2;
    }
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    *qx = ax + u * ex;
    *qy = ay + u * ey;
}

static double seg_point_dist(double ax, double ay, double bx, double by, double px, double py)
{
    double ex = bx - ax, ey = by - ay, l2 = ex * ex + ey * ey;
    double u = l2 > 0 ? ((px - ax) * ex + (py - ay) * ey) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double dx = ax + u * ex - px, dy = ay + u * ey - py;
    return sqrt(dx * dx + dy * dy);
}

static double edge_len(const tn_navmesh *m, int t, int i)
{
    int a = m->tri[3 * t + i], b = m->tri[3 * t + NEXT3[i]];
    double dx = px_(m, b) - px_(m, a), dy = py_(m, b) - py_(m, a);
    return sqrt(dx * dx + dy * dy);
}

/* Width of the passage through triangle t from edge ein to edge eout (see
 * the header): the shorter edge, and the distance from their shared vertex
 * to the third edge when that is an outline. */
static double passage_width(const tn_navmesh *m, int t, int ein, int eout)
{
    double w = fmin(edge_len(m, t, ein), edge_len(m, t, eout));
    int third = 3 - ein - eout;
    if (!tri_free(m, m->adj[3 * t + third])) {
        int c = m->tri[3 * t + PREV3[third]]; /* the vertex opposite the third edge */
        int a = m->tri[3 * t + third], b = m->tri[3 * t + NEXT3[third]];
        w = fmin(w, seg_point_dist(px_(m, a), py_(m, a), px_(m, b), py_(m, b), px_(m, c),
                                   py_(m, c)));
    }
    return w;
}

/* The portal crossing edge i of triangle t, seen from t: left = tri[i+1],
 * right = tri[i], each end pulled in by r. */
static void portal_of(const tn_navmesh *m, int t, int i, double r, double *lx, double *ly,
                      double *rx, double *ry)
{
    int a = m->tri[3 * t + i], b = m->tri[3 * t + NEXT3[i]];
    double ax = px_(m, a), ay = py_(m, a), bx = px_(m, b), by = py_(m, b);
    if (r > 0) {
        double ex = bx - ax, ey = by - ay, l = sqrt(ex * ex + ey * ey);
        double k = r / l;
        ax += ex * k;
        ay += ey * k;
        bx -= ex * k;
        by -= ey * k;
    }
    *lx = bx;
    *ly = by;
    *rx = ax;
    *ry = ay;
}


static void next_generation(tn_navquery *q)
{
    if (++q->gen == 0) { /* wrapped: forget every stamp */
        for (int i = 0; i < q->cap; i++) q->node[i].stamp = 0;
        for (int i = 0; i < q->m->max_points; i++) q->root_stamp[i] = 0;
        q->gen = 1;
    }
}

/* Triangle A* with the agent-radius tests; fills the corridor. */
static bool corridor_astar(tn_navquery *q, int ts, int tg, double sx, double sy, double gx,
                           double gy, double r)
{
    const tn_navmesh *m = q->m;
    next_generation(q);
    const uint32_t gen = q->gen;
    qnode *node = q->node;
    q->nheap = 0;
    qnode *s = &node[ts];
    s->stamp = gen;
    s->g = 0;
    s->x = sx;
    s->y = sy;
    s->f = dist2d(sx, sy, gx, gy);
    s->parent = -1;
    s->edge = -1;
    heap_push(q, ts);
    if (q->trace) trace_tri(q, TN_TRACE_OPEN, ts, 0.0, s->f);
    bool found = false;
    while (q->nheap > 0) {
        int t = heap_pop(q);
        if (q->trace) trace_tri(q, t == tg ? TN_TRACE_GOAL : TN_TRACE_CLOSE, t, node[t].g, node[t].f);
        if (t == tg) {
            found = true;
            break;
        }
        q->expanded++;
        const qnode *cur = &node[t];
        for (int i = 0; i < 3; i++) {
            int n = m->adj[3 * t + i];
            if (!tri_free(m, n) || n == cur->parent) continue;
            if (r > 0) {
                if (edge_len(m, t, i) < 2 * r) continue;
                if (cur->edge >= 0 && passage_width(m, t, cur->edge, i) < 2 * r) continue;
            }
            double lx, ly, rx, ry, qx, qy;
            portal_of(m, t, i, r, &lx, &ly, &rx, &ry);
            portal_point(rx, ry, lx, ly, cur->x, cur->y, gx, gy, &qx, &qy);
            double ng = cur->g + dist2d(cur->x, cur->y, qx, qy);
            double nf = ng + dist2d(qx, qy, gx, gy);
            qnode *nn = &node[n];
            bool fresh = nn->stamp != gen;
            if (!fresh && nf >= nn->f) continue;
            if (fresh) {
                nn->stamp = gen;
                nn->heap = -1;
            }
            nn->g = ng;
            nn->f = nf;
            nn->x = qx;
            nn->y = qy;
            nn->parent = t;
            nn->edge = (int8_t)edge_to(m, n, t);
            if (nn->heap >= 0) heap_up(q, nn->heap);
            else heap_push(q, n);
            if (q->trace) trace_tri(q, TN_TRACE_OPEN, n, ng, nf);
        }
    }
    if (!found) return false;
    int nc = 0;
    for (int t = tg; t >= 0; t = node[t].parent) q->corr[nc++] = t;
    for (int i = 0; i < nc / 2; i++) {
        int32_t tmp = q->corr[i];
        q->corr[i] = q->corr[nc - 1 - i];
        q->corr[nc - 1 - i] = tmp;
    }
    q->ncorr = nc;
    return true;
}

/* ---- interval search (radius 0, exact) ---- */

/* Heap entries carry their keys, so sifting never touches the node pool. */
static inline bool pless(const pent *a, const pent *b)
{
    if (a->f != b->f) return a->f < b->f;
    if (a->g != b->g) return a->g > b->g; /* ties: deeper first */
    return a->node < b->node;
}

static void pheap_push(tn_navquery *q, int ni)
{
    pent *h = q->pheap, x = {q->pool[ni].f, q->pool[ni].g, ni};
    int i = q->nheap++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!pless(&x, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static int pheap_pop(tn_navquery *q)
{
    pent *h = q->pheap;
    int top = h[0].node, n = --q->nheap;
    if (n > 0) {
        pent x = h[n];
        int i = 0;
        for (;;) {
            int c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && pless(&h[c + 1], &h[c])) c++;
            if (!pless(&h[c], &x)) break;
            h[i] = h[c];
            i = c;
        }
        h[i] = x;
    }
    return top;
}

typedef struct pctx {
    tn_navquery *q;
    const tn_navmesh *m;
    double sx, sy, gx, gy;
    int tg;            /* a triangle holding the goal */
    int ngoal;         /* triangles holding the goal (on an edge or a vertex: more) */
    int32_t goal_tris[8];
    bool goal_many;    /* more than 8: test points */
    bool overflow;
} pctx;

static inline bool holds_goal(const pctx *c, int t)
{
    if (c->goal_many) return tri_contains(c->m, t, c->gx, c->gy);
    for (int i = 0; i < c->ngoal; i++)
        if (c->goal_tris[i] == t) return true;
    return false;
}

/* Every triangle whose closure holds the goal: tg, its neighbour when the
 * goal is on an edge, the fan when it is a vertex. */
static void find_goal_tris(pctx *c)
{
    const tn_navmesh *m = c->m;
    int tg = c->tg;
    c->ngoal = 0;
    c->goal_many = false;
    c->goal_tris[c->ngoal++] = tg;
    const int32_t *v = m->tri + 3 * tg;
    for (int i = 0; i < 3; i++) {
        if (px_(m, v[i]) == c->gx && py_(m, v[i]) == c->gy) {
            c->goal_many = true; /* fans vary in size: test points */
            return;
        }
    }
    for (int i = 0; i < 3; i++) {
        int a = v[i], b = v[NEXT3[i]];
        if (orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), c->gx, c->gy) == 0 &&
            m->adj[3 * tg + i] >= 0)
            c->goal_tris[c->ngoal++] = m->adj[3 * tg + i];
    }
}

/* Can a path arriving at vertex v along (dx, dy) turn there around an
 * obstacle on its right (orient < 0) side, or left side?  Only if a blocked
 * quadrant of v reaches into that side of the line. */
static bool turn_taut(const tn_navmesh *m, int v, double dx, double dy, bool right)
{
    static const int8_t U[4][4] = {{-1, 0, 0, -1}, {1, 0, 0, -1}, {-1, 0, 0, 1}, {1, 0, 0, 1}};
    unsigned qm = m->vquad[v];
    for (int k = 0; k < 4; k++) {
        if (!(qm >> k & 1)) continue;
        double c1 = dx * U[k][1] - dy * U[k][0], c2 = dx * U[k][3] - dy * U[k][2];
        if (right ? (c1 < 0 || c2 < 0) : (c1 > 0 || c2 > 0)) return true;
    }
    return false;
}

static inline void root_xy(const pctx *c, int root, double *x, double *y)
{
    if (root < 0) {
        *x = c->sx;
        *y = c->sy;
    } else {
        *x = px_(c->m, root);
        *y = py_(c->m, root);
    }
}

/* Push the interval [right .. left] on edge `e` of triangle t (points given
 * in t's frame: right nearer tri[e], left nearer tri[e+1]) as a node of the
 * neighbour across it. */
static void push_interval(pctx *c, int parent, int t, int e, double rx, double ry, bool rv,
                          double lx, double ly, bool lv, int root, double g)
{
    const tn_navmesh *m = c->m;
    tn_navquery *q = c->q;
    if ((lx - rx) * (lx - rx) + (ly - ry) * (ly - ry) < 1e-18) return; /* empty */
    int n = m->adj[3 * t + e];
    if (!tri_free(m, n)) return;
    const int32_t *na = m->adj + 3 * n;
    if (tri_free(m, na[0]) + tri_free(m, na[1]) + tri_free(m, na[2]) == 1 && !holds_goal(c, n))
        return; /* a dead end */
    if (q->npool == q->pcap) {
        c->overflow = true;
        return;
    }
    pnode *p = &q->pool[q->npool];
    /* In n the shared edge runs from t's tri[e+1] (left) to tri[e] (right). */
    p->lx = lx;
    p->ly = ly;
    p->rx = rx;
    p->ry = ry;
    p->lv = lv;
    p->rv = rv;
    p->root = root;
    p->parent = parent;
    p->tri = n;
    p->edge = (int8_t)edge_to(m, n, t);
    p->g = g;
    double ox, oy, qx, qy;
    root_xy(c, root, &ox, &oy);
    portal_point(rx, ry, lx, ly, ox, oy, c->gx, c->gy, &qx, &qy);
    p->f = g + dist2d(ox, oy, qx, qy) + dist2d(qx, qy, c->gx, c->gy);
    if (q->trace) trace_tri(q, TN_TRACE_OPEN, n, g, p->f);
    pheap_push(q, q->npool++);
}

/* Root-level pruning: true when vertex v is already a root with g <= g. */
static bool root_pruned(tn_navquery *q, int v, double g)
{
    if (q->root_stamp[v] == q->gen && q->root_g[v] <= g + 1e-9) return true;
    q->root_stamp[v] = q->gen;
    q->root_g[v] = g;
    return false;
}

static inline double lerp_pt(double a, double b, double s) { return a + (b - a) * s; }

/* Where the ray from o through x leaves triangle t over its far side
 * (far side parameter u: 0 at P1, 1 at C, 2 at P0). */
static double far_hit(const tn_navmesh *m, double ox, double oy, double xx, double xy, int P1,
                      int C, int P0)
{
    double oc = orient2(ox, oy, xx, xy, px_(m, C), py_(m, C));
    int a, b;
    double base;
    if (oc > 0) { /* C is left of the ray: the ray hits P1-C */
        a = P1;
        b = C;
        base = 0;
    } else if (oc < 0) {
        a = C;
        b = P0;
        base = 1;
    } else {
        return 1.0;
    }
    double oa = orient2(ox, oy, xx, xy, px_(m, a), py_(m, a));
    double ob = orient2(ox, oy, xx, xy, px_(m, b), py_(m, b));
    double s = oa == ob ? 0.0 : oa / (oa - ob);
    if (s < 1e-12) s = 0;
    if (s > 1 - 1e-12) s = 1;
    return base + s;
}

static void far_point(const tn_navmesh *m, double u, int P1, int C, int P0, double *x, double *y)
{
    if (u <= 1) {
        *x = lerp_pt(px_(m, P1), px_(m, C), u);
        *y = lerp_pt(py_(m, P1), py_(m, C), u);
    } else {
        *x = lerp_pt(px_(m, C), px_(m, P0), u - 1);
        *y = lerp_pt(py_(m, C), py_(m, P0), u - 1);
    }
}

/* Push the far-side range [u0, u1] of triangle t (entered by edge e) as up
 * to two intervals with the given root. */
static void push_far_range(pctx *c, int parent, int t, int e, double u0, double u1, int root,
                           double g)
{
    const tn_navmesh *m = c->m;
    const int32_t *tv = m->tri + 3 * t;
    int P0 = tv[e], P1 = tv[NEXT3[e]], C = tv[PREV3[e]];
    int e1 = NEXT3[e], e2 = PREV3[e]; /* P1->C and C->P0 */
    if (u0 > u1) return;
    if (u0 < 1) { /* on P1-C: right end at u0, left at min(u1, 1) */
        double ue = u1 < 1 ? u1 : 1, rx, ry, lx, ly;
        far_point(m, u0, P1, C, P0, &rx, &ry);
        far_point(m, ue, P1, C, P0, &lx, &ly);
        push_interval(c, parent, t, e1, rx, ry, u0 == 0, lx, ly, ue == 1, root, g);
    }
    if (u1 > 1) { /* on C-P0 */
        double ub = u0 > 1 ? u0 : 1, rx, ry, lx, ly;
        far_point(m, ub, P1, C, P0, &rx, &ry);
        far_point(m, u1, P1, C, P0, &lx, &ly);
        push_interval(c, parent, t, e2, rx, ry, ub == 1, lx, ly, u1 == 2, root, g);
    }
}

static void expand_interval(pctx *c, int ni)
{
    const tn_navmesh *m = c->m;
    tn_navquery *q = c->q;
    const pnode nd = q->pool[ni]; /* copy: pushes may not move it, but be plain */
    const int t = nd.tri, e = nd.edge;
    const int32_t *tv = m->tri + 3 * t;
    int P0 = tv[e], P1 = tv[NEXT3[e]], C = tv[PREV3[e]];
    double ox, oy;
    root_xy(c, nd.root, &ox, &oy);
    if (orient2(px_(m, P0), py_(m, P0), px_(m, P1), py_(m, P1), ox, oy) >= 0) {
        /* The root is on the entry edge: all of t is in sight. */
        push_far_range(c, ni, t, e, 0, 2, nd.root, nd.g);
        return;
    }
    double ur = far_hit(m, ox, oy, nd.rx, nd.ry, P1, C, P0);
    double ul = far_hit(m, ox, oy, nd.lx, nd.ly, P1, C, P0);
    if (nd.rv) ur = far_hit(m, ox, oy, px_(m, P1), py_(m, P1), P1, C, P0);
    if (nd.lv) ul = far_hit(m, ox, oy, px_(m, P0), py_(m, P0), P1, C, P0);
    if (ur > ul) ur = ul = 0.5 * (ur + ul);
    /* Observable: in sight of the same root. */
    push_far_range(c, ni, t, e, ur, ul, nd.root, nd.g);
    /* Turning at the interval's ends when they are vertices (every vertex
     * is on an outline, so each is a corner a path may wrap around). */
    if (nd.rv && ur > 0 &&
        turn_taut(m, P1, px_(m, P1) - ox, py_(m, P1) - oy, true)) {
        double g = nd.g + dist2d(ox, oy, px_(m, P1), py_(m, P1));
        if (!root_pruned(q, P1, g)) push_far_range(c, ni, t, e, 0, ur, P1, g);
    }
    if (nd.lv && ul < 2 &&
        turn_taut(m, P0, px_(m, P0) - ox, py_(m, P0) - oy, false)) {
        double g = nd.g + dist2d(ox, oy, px_(m, P0), py_(m, P0));
        if (!root_pruned(q, P0, g)) push_far_range(c, ni, t, e, ul, 2, P0, g);
    }
}

/* Exact any-angle search; fills the corridor.  Returns 1 found, 0 no path,
 * -1 the node pool overflowed. */
static int corridor_intervals(tn_navquery *q, int ts, int tg, double sx, double sy, double gx,
                              double gy)
{
    const tn_navmesh *m = q->m;
    next_generation(q);
    pctx c;
    memset(&c, 0, sizeof c);
    c.q = q;
    c.m = m;
    c.sx = sx;
    c.sy = sy;
    c.gx = gx;
    c.gy = gy;
    c.tg = tg;
    find_goal_tris(&c);
    q->npool = 0;
    q->nheap = 0;
    /* The start sees all of its triangle: its edges, from its own frame. */
    for (int i = 0; i < 3; i++) {
        int a = m->tri[3 * ts + i], b = m->tri[3 * ts + NEXT3[i]];
        /* In ts, edge i runs tri[i] -> tri[i+1]; seen from inside, looking
         * out, tri[i] is on the right (see portal_of). */
        push_interval(&c, -1, ts, i, px_(m, a), py_(m, a), true, px_(m, b), py_(m, b), true, -1,
                      0.0);
    }
    int final = -1;
    while (q->nheap > 0) {
        int ni = pheap_pop(q);
        const pnode *nd = &q->pool[ni];
        if (nd->root >= 0 && q->root_stamp[nd->root] == q->gen &&
            q->root_g[nd->root] < nd->g - 1e-9)
            continue; /* its root was reached more cheaply since */
        if (q->trace)
            trace_tri(q, holds_goal(&c, nd->tri) ? TN_TRACE_GOAL : TN_TRACE_CLOSE, nd->tri, nd->g,
                      nd->f);
        if (holds_goal(&c, nd->tri)) {
            final = ni;
            break;
        }
        q->expanded++;
        expand_interval(&c, ni);
        if (c.overflow) return -1;
    }
    if (final < 0) return 0;
    int nc = 0;
    for (int ni = final; ni >= 0; ni = q->pool[ni].parent) q->corr[nc++] = q->pool[ni].tri;
    q->corr[nc++] = ts;
    for (int i = 0; i < nc / 2; i++) {
        int32_t tmp = q->corr[i];
        q->corr[i] = q->corr[nc - 1 - i];
        q->corr[nc - 1 - i] = tmp;
    }
    q->ncorr = nc;
    return 1;
}

int tn_funnel(const double *P, int n, double *out, int cap)
{
    if (n <= 0) return 0;
    int cnt = 0;
    double lastx = 0, lasty = 0;
#define EMIT(X, Y)                                                                          \
    do {                                                                                    \
        double ex_ = (X), ey_ = (Y);                                                        \
        if (cnt == 0 || ex_ != lastx || ey_ != lasty) {                                     \
            if (cnt < cap) {                                                                \
                out[2 * cnt] = ex_;                                                         \
                out[2 * cnt + 1] = ey_;                                                     \
            }                                                                               \
            cnt++;                                                                          \
            lastx = ex_;                                                                    \
            lasty = ey_;                                                                    \
        }                                                                                   \
    } while (0)
    double ax = P[0], ay = P[1];
    double lx = ax, ly = ay, rx = ax, ry = ay;
    int li = 0, ri = 0;
    EMIT(ax, ay);
    for (int i = 1; i < n; i++) {
        double nlx = P[4 * i], nly = P[4 * i + 1], nrx = P[4 * i + 2], nry = P[4 * i + 3];
        /* Right side. */
        if (orient2(ax, ay, rx, ry, nrx, nry) >= 0) {
            if ((ax == rx && ay == ry) || orient2(ax, ay, lx, ly, nrx, nry) < 0) {
                rx = nrx;
                ry = nry;
                ri = i;
            } else { /* crosses the left side: the left point is a corner */
                ax = lx;
                ay = ly;
                EMIT(ax, ay);
                rx = lx = ax;
                ry = ly = ay;
                ri = li;
                i = li;
                continue;
            }
        }
        /* Left side. */
        if (orient2(ax, ay, lx, ly, nlx, nly) <= 0) {
            if ((ax == lx && ay == ly) || orient2(ax, ay, rx, ry, nlx, nly) > 0) {
                lx = nlx;
                ly = nly;
                li = i;
            } else {
                ax = rx;
                ay = ry;
                EMIT(ax, ay);
                lx = rx = ax;
                ly = ry = ay;
                li = ri;
                i = ri;
                continue;
            }
        }
    }
    EMIT(P[4 * (n - 1)], P[4 * (n - 1) + 1]);
#undef EMIT
    return cnt;
}

/* ------------------------------------------------------------------------ */
/* Clearance paths (radius > 0): see CLEARANCE in the header. */

/* Slack of the exact clearance tests (tiles): tangent points are computed in
 * doubles, so a segment that should touch a corner circle exactly may come
 * 1e-12 closer. */
#define CLEAR_TOL 1e-7
/* Angular slack of the candidate search's cones (relative cross product). */
#define VIS_TOL 1e-9
#define CL_PI 3.14159265358979323846


/* Squared distance from point p to the square [x, x+1] x [y, y+1]. */
static inline double pt_square_d2(double px, double py, int x, int y)
{
    double dx = px < x ? x - px : px > x + 1 ? px - (x + 1) : 0;
    double dy = py < y ? y - py : py > y + 1 ? py - (y + 1) : 0;
    return dx * dx + dy * dy;
}

static inline double pt_seg_d2(double ax, double ay, double bx, double by, double px, double py)
{
    double ex = bx - ax, ey = by - ay, l2 = ex * ex + ey * ey;
    double u = l2 > 0 ? ((px - ax) * ex + (py - ay) * ey) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double dx = ax + u * ex - px, dy = ay + u * ey - py;
    return dx * dx + dy * dy;
}

/* Squared distance from segment a-b to the square of tile (x, y): 0 when
 * they meet (Liang-Barsky clip), else the least of the end points to the
 * square and the square's corners to the segment. */
static double seg_square_d2(double ax, double ay, double bx, double by, int x, int y)
{
    double t0 = 0, t1 = 1, dx = bx - ax, dy = by - ay;
    const double p[4] = {-dx, dx, -dy, dy};
    const double qq[4] = {ax - x, x + 1 - ax, ay - y, y + 1 - ay};
    bool hit = true;
    for (int i = 0; i < 4 && hit; i++) {
        if (p[i] == 0) {
            if (qq[i] < 0) hit = false;
        } else {
            double t = qq[i] / p[i];
            if (p[i] < 0) {
                if (t > t1) hit = false;
                else if (t > t0) t0 = t;
            } else {
                if (t < t0) hit = false;
                else if (t < t1) t1 = t;
            }
        }
    }
    if (hit) return 0;
    double d = fmin(pt_square_d2(ax, ay, x, y), pt_square_d2(bx, by, x, y));
    for (int k = 0; k < 4; k++)
        d = fmin(d, pt_seg_d2(ax, ay, bx, by, x + (k & 1), y + (k >> 1)));
    return d;
}

/* Does segment a-b keep r (minus CLEAR_TOL) from every blocked tile and the
 * outside?  Visits, column by column, the tiles within r of the segment. */
static bool seg_clear(const tn_navmesh *m, double ax, double ay, double bx, double by, double r)
{
    const double lim = (r - CLEAR_TOL) * (r - CLEAR_TOL);
    double x0 = fmin(ax, bx), x1 = fmax(ax, bx);
    int cx0 = (int)floor(x0 - r), cx1 = (int)floor(x1 + r);
    cx0 = tn_maxi(cx0, -1);
    cx1 = tn_mini(cx1, m->w);
    double dx = bx - ax, dy = by - ay;
    for (int x = cx0; x <= cx1; x++) {
        /* the segment's y range over the columns x - r .. x + 1 + r */
        double lo = fmax(x0, x - r), hi = fmin(x1, x + 1 + r);
        if (lo > hi) continue;
        double ya, yb;
        if (dx == 0) {
            ya = ay;
            yb = by;
        } else {
            ya = ay + (lo - ax) / dx * dy;
            yb = ay + (hi - ax) / dx * dy;
        }
        int ry0 = tn_maxi((int)floor(fmin(ya, yb) - r), -1);
        int ry1 = tn_mini((int)floor(fmax(ya, yb) + r), m->h);
        for (int y = ry0; y <= ry1; y++)
            if (tile_blocked(m, x, y) && seg_square_d2(ax, ay, bx, by, x, y) < lim) return false;
    }
    return true;
}

/* Clearance of a point: is it at least r from every blocked tile? */
static bool pt_clear(const tn_navmesh *m, double px, double py, double r)
{
    return seg_clear(m, px, py, px, py, r);
}

/* Is direction (dx, dy) (from the centre) inside the arc that starts at
 * angle-vector (ux, uy) and sweeps `sw` radians in direction s? */
static bool in_arc(double ux, double uy, double sw, int s, double dx, double dy)
{
    double a = atan2(ux * dy - uy * dx, ux * dx + uy * dy) * s; /* (-pi, pi] */
    if (a < -1e-12) a += 2 * CL_PI;
    return a <= sw + 1e-12;
}

/* Squared-free test: distance from the arc (centre c, radius r, from unit
 * vector u sweeping sw >= 0 in direction s) to tile (x, y) >= lim. */
static bool arc_square_clear(double cx, double cy, double r, double ux, double uy, double sw,
                             int s, int x, int y, double lim)
{
    double lim2 = lim * lim;
    /* end points */
    double ca = cos(sw * s), sa = sin(sw * s);
    double ex = ux * ca - uy * sa, ey = ux * sa + uy * ca;
    if (pt_square_d2(cx + r * ux, cy + r * uy, x, y) < lim2) return false;
    if (pt_square_d2(cx + r * ex, cy + r * ey, x, y) < lim2) return false;
    /* the square's corners (radial distance) */
    for (int k = 0; k < 4; k++) {
        double qx = x + (k & 1) - cx, qy = y + (k >> 1) - cy, d = sqrt(qx * qx + qy * qy);
        if (d > 1e-12 && in_arc(ux, uy, sw, s, qx, qy) && fabs(d - r) < lim) return false;
    }
    /* the square's edges: crossings of the circle, and the foot of the
     * perpendicular from the centre */
    for (int k = 0; k < 4; k++) {
        bool vert = k < 2;
        double c = vert ? x + k : y + (k - 2); /* the edge's line: X = c or Y = c */
        double lo = vert ? y : x, hi = lo + 1;
        double off = vert ? c - cx : c - cy;  /* signed distance centre -> line */
        double along0 = vert ? cy : cx;
        double fx = vert ? off : 0, fy = vert ? 0 : off;
        if (along0 >= lo && along0 <= hi && fabs(off) > 1e-12 &&
            in_arc(ux, uy, sw, s, fx, fy) && fabs(fabs(off) - r) < lim)
            return false;
        if (fabs(off) <= r) {
            double h = sqrt(r * r - off * off);
            for (int sg = -1; sg <= 1; sg += 2) {
                double al = along0 + sg * h;
                if (al < lo || al > hi) continue;
                double px = vert ? off : al - cx, py = vert ? al - cy : off;
                if (in_arc(ux, uy, sw, s, px, py)) return false;
            }
        }
    }
    return true;
}

/* Does the arc keep r - CLEAR_TOL from every blocked tile? */
static bool arc_clear(const tn_navmesh *m, double cx, double cy, double r, double ux, double uy,
                      double sw, int s)
{
    if (sw <= 1e-12) return true;
    int x0 = tn_maxi((int)floor(cx - 2 * r), -1), x1 = tn_mini((int)floor(cx + 2 * r), m->w);
    int y0 = tn_maxi((int)floor(cy - 2 * r), -1), y1 = tn_mini((int)floor(cy + 2 * r), m->h);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (tile_blocked(m, x, y) &&
                !arc_square_clear(cx, cy, r, ux, uy, sw, s, x, y, r - CLEAR_TOL))
                return false;
    return true;
}

/* Blocked quadrant direction of a convex corner (exactly one blocked
 * quadrant, not on... any vertex), or 0 when v is not one: *qx, *qy = +-1. */
static bool convex_corner(const tn_navmesh *m, int v, int *qx, int *qy)
{
    unsigned qm = m->vquad[v];
    if (qm == 0 || (qm & (qm - 1))) return false;
    int k = __builtin_ctz(qm); /* 0 NW, 1 NE, 2 SW, 3 SE */
    *qx = (k & 1) ? 1 : -1;
    *qy = (k & 2) ? 1 : -1;
    return true;
}

/* Is the point at offset (dx, dy) from corner v's centre on its valid arc
 * (the quadrant of directions opposite the blocked tile)? */
static inline bool on_valid_arc(int qx, int qy, double dx, double dy, double r)
{
    return dx * qx <= 1e-9 * r && dy * qy <= 1e-9 * r;
}

/* Tangent from "circle" 1 (centre p1, side s1; s = 0: a point) to circle 2:
 * s = +1 when the centre is on the orient > 0 side of the motion.  Returns
 * false when the circles are too close for it. */
static bool tangent(double p1x, double p1y, int s1, double p2x, double p2y, int s2, double r,
                    double *t1x, double *t1y, double *t2x, double *t2y)
{
    double dx = p2x - p1x, dy = p2y - p1y, d2 = dx * dx + dy * dy;
    double k = (s2 - s1) * r;
    double l2 = d2 - k * k;
    if (d2 <= 0 || l2 < -1e-12 * (d2 + 1)) return false;
    double lam = l2 > 0 ? sqrt(l2) : 0;
    double ux = (lam * dx + k * dy) / d2, uy = (lam * dy - k * dx) / d2;
    /* perp(u) = (-uy, ux); T = C - s r perp(u) */
    *t1x = p1x + s1 * r * uy;
    *t1y = p1y - s1 * r * ux;
    *t2x = p2x + s2 * r * uy;
    *t2y = p2y - s2 * r * ux;
    return true;
}

/* Signed sweep (radians) from direction a to direction b around a circle
 * travelled in direction s, in (-pi, pi]. */
static inline double sweep(double ax, double ay, double bx, double by, int s)
{
    return s * atan2(ax * by - ay * bx, ax * bx + ay * by);
}


static inline bool cless(const clabel *a, const clabel *b)
{
    return a->f < b->f || (a->f == b->f && a->g > b->g);
}

static void cheap_push(tn_navquery *q, const clabel *e)
{
    if (q->ncheap == q->ccap) {
        q->cinexact = true;
        return;
    }
    if (q->trace) trace_pt(q, TN_TRACE_OPEN, e->tx, e->ty, e->g, e->f);
    int i = q->ncheap++;
    clabel *h = q->cheap;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!cless(e, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = *e;
}

static clabel cheap_pop(tn_navquery *q)
{
    clabel *h = q->cheap, top = h[0], x = h[--q->ncheap];
    int n = q->ncheap, i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && cless(&h[c + 1], &h[c])) c++;
        if (!cless(&h[c], &x)) break;
        h[i] = h[c];
        i = c;
    }
    if (n > 0) h[i] = x;
    return top;
}


static inline bool in_cone(double rx, double ry, double lx, double ly, double dx, double dy)
{
    double nd = fabs(dx) + fabs(dy);
    return rx * dy - ry * dx >= -VIS_TOL * (fabs(rx) + fabs(ry)) * nd &&
           dx * ly - dy * lx >= -VIS_TOL * (fabs(lx) + fabs(ly)) * nd;
}

static void vis_add(tn_navquery *q, int v)
{
    if (q->vis_stamp[v] == q->vgen) return;
    q->vis_stamp[v] = q->vgen;
    q->cand[q->ncand++] = v;
}

/* Push the cone through edge e of triangle t (seen from apex o) into the
 * neighbour, when that is free, o is strictly on t's side, and the cone
 * narrowed to the edge is not empty (with VIS_TOL). */
static void vis_push(tn_navquery *q, int t, int e, double ox, double oy, double rx, double ry,
                     double lx, double ly, bool narrow)
{
    const tn_navmesh *m = q->m;
    int n = m->adj[3 * t + e];
    if (!tri_free(m, n)) return;
    int a = m->tri[3 * t + e], b = m->tri[3 * t + NEXT3[e]];
    double axx = px_(m, a) - ox, ayy = py_(m, a) - oy, bxx = px_(m, b) - ox, byy = py_(m, b) - oy;
    if (axx * byy - ayy * bxx <= 0) return; /* o is on the edge's line or beyond */
    if (narrow) {
        if (rx * ayy - ry * axx > 0) { /* a is counter-clockwise of the right ray */
            rx = axx;
            ry = ayy;
        }
        if (lx * byy - ly * bxx < 0) { /* b is clockwise of the left ray */
            lx = bxx;
            ly = byy;
        }
        double nr = fabs(rx) + fabs(ry), nl = fabs(lx) + fabs(ly);
        if (rx * ly - ry * lx < -VIS_TOL * nr * nl) return;
    } else {
        rx = axx;
        ry = ayy;
        lx = bxx;
        ly = byy;
    }
    if (q->nvis == q->vcap) {
        q->cinexact = true;
        return;
    }
    vitem *it = &q->vstack[q->nvis++];
    it->rx = rx;
    it->ry = ry;
    it->lx = lx;
    it->ly = ly;
    it->t = n;
    it->e = (int8_t)edge_to(m, n, t);
}

/* Candidate corners for a tangent from apex o (a vertex v, or a free point
 * in triangle t0 when v < 0): every vertex that a segment from o can reach
 * through free triangles, touching walls allowed, found by the triangular
 * expansion (cones through triangle edges) with a small angular slack.  A
 * superset of the corners whose tangent is clear: those are checked exactly
 * later.  Sets *goal when the goal's triangle is reached with the goal in
 * the cone. */
static void vis_candidates(tn_navquery *q, double ox, double oy, int v, int t0, int tg,
                           double gx, double gy, bool *goal)
{
    const tn_navmesh *m = q->m;
    if (++q->vgen == 0) {
        memset(q->vis_stamp, 0, sizeof *q->vis_stamp * (size_t)m->max_points);
        q->vgen = 1;
    }
    q->ncand = 0;
    q->nvis = 0;
    *goal = false;
    if (v >= 0) {
        /* the fan around v: counter-clockwise from vtri[v], then clockwise
         * when the fan is open (v on the hull) */
        int t = m->vtri[v], u = t, guard = 4 * m->ntris + 8;
        bool full = false;
        for (int dir = 0; dir < 2 && !full; dir++) {
            if (dir == 1) u = m->adj[3 * t + local_index(m, t, v)];
            while (u >= 0 && guard-- > 0) {
                int k = local_index(m, u, v);
                if (tri_free(m, u)) {
                    const int32_t *tv = m->tri + 3 * u;
                    vis_add(q, tv[NEXT3[k]]);
                    vis_add(q, tv[PREV3[k]]);
                    if (u == tg) *goal = true;
                    vis_push(q, u, NEXT3[k], ox, oy, 0, 0, 0, 0, false);
                }
                int n = dir == 0 ? m->adj[3 * u + PREV3[k]] : m->adj[3 * u + k];
                if (dir == 0 && n == t) {
                    full = true;
                    break;
                }
                u = n;
            }
        }
    } else {
        /* the triangle holding o, and its neighbours when o is on an edge */
        int starts[4], ns = 0;
        starts[ns++] = t0;
        for (int i = 0; i < 3; i++) {
            int a = m->tri[3 * t0 + i], b = m->tri[3 * t0 + NEXT3[i]];
            int n = m->adj[3 * t0 + i];
            if (orient2(px_(m, a), py_(m, a), px_(m, b), py_(m, b), ox, oy) == 0 && tri_free(m, n))
                starts[ns++] = n;
        }
        for (int k = 0; k < ns; k++) {
            int u = starts[k];
            for (int i = 0; i < 3; i++) vis_add(q, m->tri[3 * u + i]);
            if (u == tg) *goal = true;
            for (int i = 0; i < 3; i++) {
                int n = m->adj[3 * u + i];
                bool in_start = false;
                for (int j = 0; j < ns; j++) in_start |= starts[j] == n;
                if (!in_start) vis_push(q, u, i, ox, oy, 0, 0, 0, 0, false);
            }
        }
    }
    int steps = 4 * m->ntris + 64;
    while (q->nvis > 0) {
        if (--steps < 0) {
            q->cinexact = true;
            break;
        }
        vitem it = q->vstack[--q->nvis];
        int t = it.t, e = it.e;
        int x = m->tri[3 * t + PREV3[e]];
        double xx = px_(m, x) - ox, xy = py_(m, x) - oy;
        if (in_cone(it.rx, it.ry, it.lx, it.ly, xx, xy)) vis_add(q, x);
        if (t == tg && in_cone(it.rx, it.ry, it.lx, it.ly, gx - ox, gy - oy)) *goal = true;
        vis_push(q, t, NEXT3[e], ox, oy, it.rx, it.ry, it.lx, it.ly, true);
        vis_push(q, t, PREV3[e], ox, oy, it.rx, it.ry, it.lx, it.ly, true);
    }
}

/* Offer the tangent from label `from` (its circle, or the start point) to
 * the circle of vertex w on side s2 (or to the goal when w < 0). */
static void offer(tn_navquery *q, int from, const clabel *L, int w, int s2, double gx, double gy,
                  double r)
{
    const tn_navmesh *m = q->m;
    double p1x, p1y;
    int s1 = 0, qx1 = 0, qy1 = 0;
    if (L->state >= 0) {
        int v = L->state >> 1;
        s1 = (L->state & 1) ? 1 : -1;
        p1x = px_(m, v);
        p1y = py_(m, v);
        convex_corner(m, v, &qx1, &qy1);
    } else {
        p1x = L->tx;
        p1y = L->ty;
    }
    double p2x, p2y;
    int qx2 = 0, qy2 = 0;
    if (w >= 0) {
        p2x = px_(m, w);
        p2y = py_(m, w);
        convex_corner(m, w, &qx2, &qy2);
    } else {
        p2x = gx;
        p2y = gy;
        s2 = 0;
    }
    double t1x, t1y, t2x, t2y;
    if (!tangent(p1x, p1y, s1, p2x, p2y, s2, r, &t1x, &t1y, &t2x, &t2y)) return;
    double g = L->g;
    if (s2 && !on_valid_arc(qx2, qy2, t2x - p2x, t2y - p2y, r)) return;
    if (s1) {
        if (!on_valid_arc(qx1, qy1, t1x - p1x, t1y - p1y, r)) return;
        /* the arc from the arrival point turns the right way (both points
         * are on the same quarter, so the sweep is within 90 degrees) */
        double ax = L->tx - p1x, ay = L->ty - p1y, bx = t1x - p1x, by = t1y - p1y;
        if (s1 * (ax * by - ay * bx) < -1e-9 * r * r) return;
        double sw = sweep(ax, ay, bx, by, s1);
        if (sw < -1e-9 || sw > CL_PI / 2 + 1e-9) return;
        g += r * fmax(sw, 0);
    }
    g += dist2d(t1x, t1y, t2x, t2y);
    double f = g + dist2d(t2x, t2y, gx, gy);
    if (f >= q->cbest) return;
    clabel e;
    e.g = g;
    e.f = f;
    e.tx = t2x;
    e.ty = t2y;
    e.ox = t1x;
    e.oy = t1y;
    e.state = w >= 0 ? 2 * w + (s2 > 0) : -2;
    e.parent = from;
    e.next = -1;
    cheap_push(q, &e);
}

/* Arc of label L's circle from its arrival point to (ox, oy): clear? */
static bool label_arc_clear(const tn_navmesh *m, const clabel *L, double ox, double oy, double r)
{
    /* Arc points are within r of the corner; a blocked tile other than the
     * corner's own is at least 1 from it (its three other tiles are free),
     * so for r <= 1/2 it is at least r away. */
    if (L->state < 0 || r <= 0.5) return true;
    int v = L->state >> 1, s = (L->state & 1) ? 1 : -1;
    double cx = px_(m, v), cy = py_(m, v);
    double ux = (L->tx - cx) / r, uy = (L->ty - cy) / r;
    double sw = sweep(ux, uy, ox - cx, oy - cy, s);
    return arc_clear(m, cx, cy, r, ux, uy, fmax(sw, 0), s);
}

/* The search (see CLEARANCE in the header).  Returns the goal label, -1
 * when the goal cannot be reached. */
static int clear_search(tn_navquery *q, int ts, int tg, double sx, double sy, double gx,
                        double gy, double r)
{
    const tn_navmesh *m = q->m;
    q->ncheap = 0;
    q->nlab = 0;
    q->cbest = INFINITY;
    if (++q->sgen == 0) {
        memset(q->state_stamp, 0, sizeof *q->state_stamp * 2 * (size_t)m->max_points);
        memset(q->vc_stamp, 0, sizeof *q->vc_stamp * (size_t)m->max_points);
        q->sgen = 1;
    }
    q->vc_used = 0;
    clabel s0;
    memset(&s0, 0, sizeof s0);
    s0.tx = sx;
    s0.ty = sy;
    s0.state = -1;
    s0.parent = -1;
    s0.f = dist2d(sx, sy, gx, gy);
    cheap_push(q, &s0);
    while (q->ncheap > 0) {
        clabel e = cheap_pop(q);
        if (e.f >= q->cbest) break;
        /* lazy check of the arc before the tangent and of the tangent */
        if (e.parent >= 0) {
            const clabel *P = &q->lab[e.parent];
            if (!label_arc_clear(m, P, e.ox, e.oy, r)) continue;
            if (!seg_clear(m, e.ox, e.oy, e.tx, e.ty, r)) continue;
        }
        if (e.state == -2) {
            if (q->nlab == q->lcap) return -1;
            if (q->trace) trace_pt(q, TN_TRACE_GOAL, e.tx, e.ty, e.g, e.f);
            q->lab[q->nlab] = e;
            return q->nlab++;
        }
        /* dominance: a closed label of the same circle and side that
         * arrives no later along the arc and is no longer up to here */
        if (e.state >= 0) {
            int st = e.state, v = st >> 1, s = (st & 1) ? 1 : -1;
            double cx = px_(m, v), cy = py_(m, v);
            bool dominated = false;
            if (q->state_stamp[st] == q->sgen) {
                for (int j = q->state_head[st]; j >= 0 && !dominated; j = q->lab[j].next) {
                    const clabel *o = &q->lab[j];
                    double sw = sweep(o->tx - cx, o->ty - cy, e.tx - cx, e.ty - cy, s);
                    if (sw < -1e-12) continue;
                    if (o->g + r * sw <= e.g + 1e-12 && label_arc_clear(m, o, e.tx, e.ty, r))
                        dominated = true;
                }
            } else {
                q->state_stamp[st] = q->sgen;
                q->state_head[st] = -1;
            }
            if (dominated) continue;
        }
        if (q->nlab == q->lcap) {
            q->cinexact = true;
            continue;
        }
        int li = q->nlab++;
        q->lab[li] = e;
        if (e.state >= 0) {
            q->lab[li].next = q->state_head[e.state];
            q->state_head[e.state] = li;
        }
        if (q->trace) trace_pt(q, TN_TRACE_CLOSE, e.tx, e.ty, e.g, e.f);
        q->expanded++;
        /* successors */
        bool goal;
        const int32_t *cand = q->cand;
        int ncand;
        if (e.state >= 0) {
            /* candidates of a vertex: computed once per query */
            int v = e.state >> 1;
            if (q->vc_stamp[v] == q->sgen) {
                cand = q->vc_pool + q->vc_off[v];
                ncand = q->vc_n[v] >= 0 ? q->vc_n[v] : -1 - q->vc_n[v];
                goal = q->vc_n[v] < 0;
            } else {
                vis_candidates(q, px_(m, v), py_(m, v), v, -1, tg, gx, gy, &goal);
                ncand = q->ncand;
                if (q->vc_used + ncand <= q->vc_cap) {
                    q->vc_stamp[v] = q->sgen;
                    q->vc_off[v] = q->vc_used;
                    q->vc_n[v] = goal ? -1 - ncand : ncand;
                    memcpy(q->vc_pool + q->vc_used, q->cand, sizeof *q->cand * (size_t)ncand);
                    q->vc_used += ncand;
                }
            }
        } else {
            vis_candidates(q, sx, sy, -1, ts, tg, gx, gy, &goal);
            ncand = q->ncand;
            goal = true; /* the straight line is checked like any tangent */
        }
        const clabel *L = &q->lab[li];
        if (goal) offer(q, li, L, -1, 0, gx, gy, r);
        for (int i = 0; i < ncand; i++) {
            int w = cand[i], qx, qy;
            if (e.state >= 0 && w == (e.state >> 1)) continue;
            if (!convex_corner(m, w, &qx, &qy)) continue;
            offer(q, li, L, w, 1, gx, gy, r);
            offer(q, li, L, w, -1, gx, gy, r);
        }
    }
    return -1;
}

/* Emit point (x, y) to the path (counted beyond cap). */
static inline void emit(tn_navquery *q, double x, double y)
{
    if (q->nout > 0 && q->nout <= q->outcap && fabs(q->out[2 * q->nout - 2] - x) < 1e-9 &&
        fabs(q->out[2 * q->nout - 1] - y) < 1e-9)
        return; /* the same point again (an arc ending on the goal) */
    if (q->nout < q->outcap) {
        q->out[2 * q->nout] = x;
        q->out[2 * q->nout + 1] = y;
    }
    q->nout++;
}

/* The arc from angle-vector u (unit) sweeping sw in direction s, as the
 * tangent lines' polygon: its corners lie outside the circle by at most
 * TN_NAVQUERY_ARC_EPS (or less where that would come closer than r to
 * another tile); the end points are the exact tangent points, not emitted. */
static void emit_arc(tn_navquery *q, double cx, double cy, double r, double ux, double uy,
                     double sw, int s)
{
    if (sw <= 1e-9) return;
    const tn_navmesh *m = q->m;
    const double eps = TN_NAVQUERY_ARC_EPS; /* tiles */
    /* half-step h with r / cos(h) - r <= eps */
    double h = acos(r / (r + eps));
    for (int level = 0; level < 12; level++, h *= 0.5) {
        int k = (int)ceil(sw / (2 * h));
        if (k < 1) k = 1;
        double step = sw / k, rr = r / cos(step / 2);
        /* check the polygon against the other tiles */
        bool ok = true;
        double px = cx + r * ux, py = cy + r * uy;
        for (int i = 0; i <= k && ok; i++) {
            double nx, ny;
            if (i < k) {
                double a = s * (i + 0.5) * step;
                nx = cx + rr * (ux * cos(a) - uy * sin(a));
                ny = cy + rr * (ux * sin(a) + uy * cos(a));
            } else {
                double a = s * sw;
                nx = cx + r * (ux * cos(a) - uy * sin(a));
                ny = cy + r * (ux * sin(a) + uy * cos(a));
            }
            ok = seg_clear(m, px, py, nx, ny, r);
            px = nx;
            py = ny;
        }
        if (!ok && level < 11) continue;
        for (int i = 0; i < k; i++) {
            double a = s * (i + 0.5) * step;
            emit(q, cx + rr * (ux * cos(a) - uy * sin(a)), cy + rr * (ux * sin(a) + uy * cos(a)));
        }
        return;
    }
}

/* Points of the path ending with goal label gi. */
static void clear_output(tn_navquery *q, int gi, double r)
{
    const tn_navmesh *m = q->m;
    /* reverse the parent chain into q->corr (label indices) */
    int n = 0;
    for (int i = gi; i >= 0; i = q->lab[i].parent) q->lchain[n++] = i;
    q->nout = 0;
    q->clen = 0;
    for (int k = n - 1; k >= 0; k--) {
        const clabel *L = &q->lab[q->lchain[k]];
        if (k == n - 1) { /* the start */
            emit(q, L->tx, L->ty);
            continue;
        }
        const clabel *P = &q->lab[q->lchain[k + 1]];
        if (P->state >= 0) {
            int v = P->state >> 1, s = (P->state & 1) ? 1 : -1;
            double cx = px_(m, v), cy = py_(m, v);
            double ux = (P->tx - cx) / r, uy = (P->ty - cy) / r;
            double sw = fmax(sweep(ux, uy, L->ox - cx, L->oy - cy, s), 0);
            emit_arc(q, cx, cy, r, ux, uy, sw, s);
            q->clen += r * sw;
            if (sw > 1e-9) emit(q, L->ox, L->oy);
        }
        q->clen += dist2d(L->ox, L->oy, L->tx, L->ty);
        emit(q, L->tx, L->ty);
    }
}


/* find_path for radius r > 0 (tile units). */
static tn_status clear_path(tn_navquery *q, int ts, int tg, double sx, double sy, double gx,
                            double gy, double r, float *xy, int cap, int *count)
{
    const tn_navmesh *m = q->m;
    q->cinexact = false;
    q->clen = 0;
    if (!pt_clear(m, sx, sy, r) || !pt_clear(m, gx, gy, r)) return TN_FAILURE | TN_INVALID_PARAM;
    int gi = clear_search(q, ts, tg, sx, sy, gx, gy, r);
    if (gi < 0) return TN_FAILURE | TN_UNREACHABLE;
    clear_output(q, gi, r);
    q->exact = !q->cinexact;
    /* the corridor: the triangles under the path's points */
    int nc = 0, hint = ts, np = q->nout < q->outcap ? q->nout : q->outcap;
    for (int i = 0; i < np && nc < q->cap; i++) {
        int t = locate_free(m, q->out[2 * i], q->out[2 * i + 1], hint);
        if (t >= 0 && (nc == 0 || q->corr[nc - 1] != t)) q->corr[nc++] = t;
        if (t >= 0) hint = t;
    }
    q->ncorr = nc;
    if (q->nout == 1) emit(q, gx, gy);
    int w = q->nout < cap ? q->nout : cap;
    if (w > q->outcap) w = q->outcap;
    for (int k = 0; k < w; k++) {
        xy[2 * k] = (float)(q->out[2 * k] * m->tile_size);
        xy[2 * k + 1] = (float)(q->out[2 * k + 1] * m->tile_size);
    }
    *count = w;
    if (q->nout > w) return TN_SUCCESS | TN_PARTIAL_RESULT | TN_BUFFER_TOO_SMALL;
    return TN_OK;
}


/* ---- clearance helpers (public) ---- */

float tn_navmesh_clearance(const tn_navmesh *m, float x, float y, float limit)
{
    if (!m || !isfinite(x) || !isfinite(y) || !(limit >= 0.0f) || m->w == 0) return 0.0f;
    const double inv = 1.0 / m->tile_size, px = x * inv, py = y * inv, lim = limit * inv;
    if (px < 0 || py < 0 || px > m->w || py > m->h) return 0.0f;
    int x0 = tn_maxi((int)floor(px - lim), -1), x1 = tn_mini((int)floor(px + lim), m->w);
    int y0 = tn_maxi((int)floor(py - lim), -1), y1 = tn_mini((int)floor(py + lim), m->h);
    double best = lim * lim;
    for (int ty = y0; ty <= y1; ty++)
        for (int tx = x0; tx <= x1; tx++)
            if (tile_blocked(m, tx, ty)) best = fmin(best, pt_square_d2(px, py, tx, ty));
    return (float)(sqrt(best) * m->tile_size);
}

bool tn_navmesh_nearest_clear(const tn_navmesh *m, float x, float y, float radius, float *ox,
                              float *oy)
{
    if (!m || !ox || !oy || !isfinite(x) || !isfinite(y) || !(radius >= 0.0f) ||
        !isfinite(radius) || m->nfree == 0)
        return false;
    const double inv = 1.0 / m->tile_size, px = x * inv, py = y * inv, r = radius * inv;
    if (px >= 0 && py >= 0 && px <= m->w && py <= m->h && pt_clear(m, px, py, r)) {
        *ox = x;
        *oy = y;
        return true;
    }
    const double mg = r < 0.5 ? r + 1e-6 : 0.5;
    int tx = (int)floor(fmin(fmax(px, 0), m->w - 1)), ty = (int)floor(fmin(fmax(py, 0), m->h - 1));
    int rmax = tn_maxi(tn_maxi(tx + 1, m->w - tx), tn_maxi(ty + 1, m->h - ty));
    double best = INFINITY, bx = 0, by = 0;
    for (int k = 0; k <= rmax; k++) {
        for (int yy = ty - k; yy <= ty + k; yy++) {
            if (yy < 0 || yy >= m->h) continue;
            int step = (yy == ty - k || yy == ty + k) ? 1 : tn_maxi(2 * k, 1);
            for (int xx = tx - k; xx <= tx + k; xx += step) {
                if (xx < 0 || xx >= m->w || !m->free[(size_t)yy * m->w + xx]) continue;
                double qx = fmin(fmax(px, xx + mg), xx + 1 - mg);
                double qy = fmin(fmax(py, yy + mg), yy + 1 - mg);
                double d = (qx - px) * (qx - px) + (qy - py) * (qy - py);
                if (d < best && pt_clear(m, qx, qy, r)) {
                    best = d;
                    bx = qx;
                    by = qy;
                }
            }
        }
        if (best <= (double)k * k) break;
    }
    if (best == INFINITY) return false;
    *ox = (float)(bx * m->tile_size);
    *oy = (float)(by * m->tile_size);
    return true;
}

void tn_navmesh_draw_clearance(const tn_navmesh *m, const tn_debug_draw *dd, float px_per_unit,
                               float radius, uint32_t rgba)
{
    if (!m || !dd || !(radius > 0.0f)) return;
    const float k = m->tile_size * px_per_unit;
    for (int v = 0; v < m->npts; v++) {
        int qx, qy;
        if (!convex_corner(m, v, &qx, &qy)) continue;
        tn_dd_circle(dd, (float)px_(m, v) * k, (float)py_(m, v) * k, radius * px_per_unit, rgba,
                     false);
    }
}

/* Is p on the closed edge shared by triangles t and n? */
static bool on_edge_between(const tn_navmesh *m, int t, int n, double x, double y)
{
    int i = edge_to(m, t, n);
    int a = m->tri[3 * t + i], b = m->tri[3 * t + NEXT3[i]];
    double ax = px_(m, a), ay = py_(m, a), bx = px_(m, b), by = py_(m, b);
    return orient2(ax, ay, bx, by, x, y) == 0 && x >= fmin(ax, bx) && x <= fmax(ax, bx) &&
           y >= fmin(ay, by) && y <= fmax(ay, by);
}

tn_status tn_navquery_find_path(tn_navquery *q, float fsx, float fsy, float fgx, float fgy,
                                float radius, float *xy, int cap, int *count)
{
    if (count) *count = 0;
    if (!q || !xy || cap < 2 || !count || !isfinite(fsx) || !isfinite(fsy) ||
        !isfinite(fgx) || !isfinite(fgy) || !(radius >= 0.0f) || !isfinite(radius))
        return TN_FAILURE | TN_INVALID_PARAM;
    const tn_navmesh *m = q->m;
    q->ncorr = 0;
    q->expanded = 0;
    q->exact = false;
    const double inv = 1.0 / m->tile_size;
    const double sx = fsx * inv, sy = fsy * inv, gx = fgx * inv, gy = fgy * inv;
    const double r = radius * inv;
    int ts = locate_free(m, sx, sy, -1), tg = locate_free(m, gx, gy, -1);
    if (ts < 0 || tg < 0) return TN_FAILURE | TN_INVALID_PARAM;
    if (m->region[ts] != m->region[tg]) return TN_FAILURE | TN_UNREACHABLE;
    if (r > 0) return clear_path(q, ts, tg, sx, sy, gx, gy, r, xy, cap, count);
    bool found;
    if (tri_contains(m, ts, gx, gy)) { /* same triangle: a straight line */
        q->corr[0] = ts;
        q->ncorr = 1;
        found = true;
        q->exact = true;
    } else if (r == 0) {
        int res = corridor_intervals(q, ts, tg, sx, sy, gx, gy);
        q->exact = res == 1;
        found = res == 1 || (res < 0 && corridor_astar(q, ts, tg, sx, sy, gx, gy, 0));
    } else {
        found = corridor_astar(q, ts, tg, sx, sy, gx, gy, r);
    }
    if (!found) return TN_FAILURE | TN_UNREACHABLE;

    /* A start (goal) lying on the first (last) portal is also inside the
     * next (previous) triangle: trim such portals, which would give the
     * funnel a flat 180-degree wedge. */
    int skip = 0;
    while (q->ncorr - skip > 1 && on_edge_between(m, q->corr[skip], q->corr[skip + 1], sx, sy))
        skip++;
    if (skip) {
        memmove(q->corr, q->corr + skip, sizeof *q->corr * (size_t)(q->ncorr - skip));
        q->ncorr -= skip;
    }
    while (q->ncorr > 1 &&
           on_edge_between(m, q->corr[q->ncorr - 2], q->corr[q->ncorr - 1], gx, gy))
        q->ncorr--;
    /* Portals: start point, each crossed edge, goal point. */
    int nc = q->ncorr;
    double *P = q->portals;
    P[0] = P[2] = sx;
    P[1] = P[3] = sy;
    for (int k = 1; k < nc; k++) {
        int t = q->corr[k - 1];
        portal_of(m, t, edge_to(m, t, q->corr[k]), r, &P[4 * k], &P[4 * k + 1], &P[4 * k + 2],
                  &P[4 * k + 3]);
    }
    P[4 * nc] = P[4 * nc + 2] = gx;
    P[4 * nc + 1] = P[4 * nc + 3] = gy;
    int np = tn_funnel(P, nc + 1, q->pts, q->cap + 2);
    if (np == 1) { /* start == goal: still a two-point path */
        q->pts[2] = q->pts[0];
        q->pts[3] = q->pts[1];
        np = 2;
    }
    int w = np < cap ? np : cap;
    for (int k = 0; k < w; k++) {
        xy[2 * k] = (float)(q->pts[2 * k] * m->tile_size);
        xy[2 * k + 1] = (float)(q->pts[2 * k + 1] * m->tile_size);
    }
    *count = w;
    if (np > cap) return TN_SUCCESS | TN_PARTIAL_RESULT | TN_BUFFER_TOO_SMALL;
    return TN_OK;
}

/* ------------------------------------------------------------------------ */
/* Debug draw */

static uint32_t region_colour(int r)
{
    static const uint32_t PAL[8] = {0x4aa3df40, 0x5fd38d40, 0xf5b04140, 0xd9667a40,
                                    0xa57fe040, 0x4fd1c540, 0xe0d35a40, 0x9aa5b140};
    return PAL[(unsigned)r % 8u];
}

void tn_navmesh_draw(const tn_navmesh *m, const tn_debug_draw *dd, float px_per_unit,
                     unsigned what)
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
                  fr ? region_colour(m->region[t]) : 0x40404060u);
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
