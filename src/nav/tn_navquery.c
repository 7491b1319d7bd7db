/* tn_navquery.c - queries on a built tn_navmesh: line of sight, nearest
 * free / clear points, and the path searches of a tn_navquery (exact
 * interval search, triangle A*, funnel, clearance paths for a radius).
 * The mesh is only read.  See tn_navmesh.h. */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/navmesh_impl.h"
#include "internal/memcount.h"

#include "tn_trace.h"

#include <stdio.h>

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
            if (fr)
                target = u;
            else
                target_blocked = true;
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

/* The triangle after t along the segment from a (direction d): across the
 * edge the segment leaves t by, or, when it leaves through a vertex (the
 * one farthest along d), the free triangle past it (pivot).  -1 when it
 * leaves through nothing ahead or the vertex is pinched; the triangle
 * across an edge may be blocked (tri_free tells). */
static int next_along(const tn_navmesh *m, int t, double ax, double ay, double dx, double dy)
{
    const int32_t *tv = m->tri + 3 * t;
    double s[3];
    for (int i = 0; i < 3; i++) s[i] = dx * (py_(m, tv[i]) - ay) - dy * (px_(m, tv[i]) - ax);
    int exit_edge = -1;
    for (int i = 0; i < 3; i++)
        if (s[i] < 0 && s[NEXT3[i]] > 0) exit_edge = i;
    if (exit_edge >= 0) return m->adj[3 * t + exit_edge];
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
    if (best < 0 || bestp <= 0) return -1;
    return pivot(m, t, tv[best], dx, dy, false);
}

bool tn_navmesh_los(const tn_navmesh *m, float fax, float fay, float fbx, float fby)
{
    if (!m || m->ntris == 0 || !isfinite(fax) || !isfinite(fay) || !isfinite(fbx) || !isfinite(fby))
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
        t = next_along(m, t, ax, ay, dx, dy);
        if (!tri_free(m, t)) return false;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Nearest free point */

static bool pt_clear(const tn_navmesh *m, double px, double py, double r);

/* The nearest point to (px, py) (tile units) in a free tile, at least mg
 * inside the tile's sides and, when r >= 0, with clearance r (pt_clear) as
 * the caller will see it: after rounding to float query units and back, the
 * way tn_navquery_find_path reads it.  Square rings of tiles around (tx, ty),
 * nearest first; a ring k+1 tile is at least k away, so the search stops
 * once the best is that close. */
static bool ring_nearest(const tn_navmesh *m, double px, double py, int tx, int ty, double mg,
                         double r, float *ox, float *oy)
{
    int rmax = tn_maxi(tn_maxi(tx + 1, m->w - tx), tn_maxi(ty + 1, m->h - ty));
    const double u = m->tile_size, inv = 1.0 / u;
    double best = INFINITY;
    float bx = 0, by = 0;
    for (int k = 0; k <= rmax; k++) {
        for (int yy = ty - k; yy <= ty + k; yy++) {
            if (yy < 0 || yy >= m->h) continue;
            int step = (yy == ty - k || yy == ty + k) ? 1 : tn_maxi(2 * k, 1);
            for (int xx = tx - k; xx <= tx + k; xx += step) {
                if (xx < 0 || xx >= m->w || !m->free[(size_t)yy * m->w + xx]) continue;
                double qx = fmin(fmax(px, xx + mg), xx + 1 - mg);
                double qy = fmin(fmax(py, yy + mg), yy + 1 - mg);
                double d = (qx - px) * (qx - px) + (qy - py) * (qy - py);
                if (d >= best) continue;
                const float fx = (float)(qx * u), fy = (float)(qy * u);
                if (r >= 0 && !pt_clear(m, fx * inv, fy * inv, r)) continue;
                best = d;
                bx = fx;
                by = fy;
            }
        }
        if (best <= (double)k * k) break;
    }
    if (best == INFINITY) return false;
    *ox = bx;
    *oy = by;
    return true;
}

bool tn_navmesh_nearest_free(const tn_navmesh *m, float x, float y, float margin, float *ox,
                             float *oy)
{
    if (!m || !ox || !oy || !isfinite(x) || !isfinite(y) || m->nfree == 0) return false;
    if (!(margin >= 0.0f && margin < 0.5f * m->tile_size)) return false;
    const double inv = 1.0 / m->tile_size;
    double px = x * inv, py = y * inv;
    /* Start from the tile under the point, clamped to the map. */
    int tx = (int)tn_clampf((float)floor(px), -1.0f, (float)m->w);
    int ty = (int)tn_clampf((float)floor(py), -1.0f, (float)m->h);
    return ring_nearest(m, px, py, tx, ty, margin * inv, -1.0, ox, oy);
}

/* ------------------------------------------------------------------------ */
/* Path queries */

/* Triangle A* (radius > 0): one state per triangle. */
typedef struct qnode {
    double g, f, x, y; /* cost so far, + heuristic, entry point */
    int32_t parent;
    int32_t heap;   /* position in the heap, -1 when not in it */
    uint32_t stamp; /* generation of the query that touched it */
    int8_t edge;    /* entry edge in this triangle (-1 for the start) */
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
    double g;       /* path length to the arrival point */
    double tx, ty;  /* arrival point (tangent point; the start for label 0) */
    double ox, oy;  /* departure point on the parent's circle */
    double f;       /* heap key */
    int32_t state;  /* 2*vertex + (s > 0); -1 start, -2 goal */
    int32_t parent; /* label of the circle before, -1 for the start */
    int32_t next;   /* next closed label of the same state */
} clabel;

typedef struct vitem {
    double rx, ry, lx, ly; /* cone: right and left directions from the apex */
    int32_t t;
    int8_t e; /* entry edge of t */
} vitem;

struct tn_navquery {
    tn_allocator alloc;
    size_t mem; /* bytes its create allocated (tn_navquery_memory) */
    const tn_navmesh *m;
    int cap; /* triangles */
    uint32_t gen;
    qnode *node;   /* per triangle */
    int32_t *heap; /* triangle A* (cap) */
    pent *pheap;   /* interval search (pcap) */
    int nheap;
    pnode *pool; /* interval search nodes */
    int pcap, npool;
    double *root_g; /* per vertex: best g as a root in this query */
    uint32_t *root_stamp;
    int32_t *corr; /* corridor, start to goal */
    int ncorr;
    double *portals; /* 4*(cap+2) */
    double *pts;     /* 2*(cap+2) */
    int expanded;
    bool exact;
    /* clearance search (radius > 0) */
    struct clabel *cheap, *lab; /* heap of offered tangents; closed labels */
    int ncheap, ccap, nlab, lcap;
    double cbest;
    bool cinexact;
    int32_t *state_head; /* 2*max_points: closed labels per corner and side */
    uint32_t *state_stamp, sgen;
    uint32_t *vis_stamp, vgen; /* max_points: candidate set of one expansion */
    int32_t *cand;
    int ncand;
    struct vitem *vstack;
    int nvis, vcap;
    int32_t *lchain;    /* lcap */
    int32_t *vc_off;    /* max_points: cached candidates of a vertex in vc_pool */
    int32_t *vc_n;      /* max_points: their number, -1 - n with the goal in sight */
    uint32_t *vc_stamp; /* max_points: query (sgen) of the cache entry */
    int32_t *vc_pool;
    int vc_used, vc_cap;
    double *out; /* path points (2 * outcap) */
    int nout, outcap;
    double clen;     /* exact length of the last radius path (tiles) */
    tn_trace *trace; /* optional search record (tn_trace.h) */
};

void tn_navquery_set_trace(tn_navquery *q, tn_trace *trace)
{
    if (q) q->trace = trace;
}

/* Record a search event at triangle t's centroid (out of line: the search
 * loops keep only a test). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void
trace_tri(tn_navquery *q, tn_trace_kind k, int t, double g, double f)
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
static void
trace_pt(tn_navquery *q, tn_trace_kind k, double x, double y, double g, double f)
{
    tn_trace_record(q->trace, k, (float)x, (float)y, -1, (float)g, (float)f);
}

static tn_navquery *navquery_new(const tn_navmesh *m, const tn_allocator *a, tn_error *err)
{
    if (!m) {
        tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                     "navmesh: a query needs a navmesh (m is NULL)");
        return NULL;
    }
    tn_navquery *q = tn_alloc(a, sizeof *q);
    if (!q) {
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                     "navmesh: out of memory for a query (tn_navquery)");
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
        tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                     "navmesh: out of memory for a query (tn_navquery)");
        return NULL;
    }
    return q;
}

tn_status tn_navquery_create(const tn_navmesh *m, const tn_allocator *a, tn_navquery **out,
                             tn_error *err)
{
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: no output pointer for the query (out NULL)");
    tn_error local;
    tn_error *e = err ? err : &local;
    tn_memcount mc; /* (its memory: what this create allocates) */
    tn_allocator ca = tn_memcount_wrap(&mc, a);
    *out = navquery_new(m, &ca, e);
    if (!*out) return e->status;
    /* it keeps the caller's allocator, not this create's counter */
    if (a)
        (*out)->alloc = *a;
    else
        memset(&(*out)->alloc, 0, sizeof(*out)->alloc);
    (*out)->mem = mc.bytes;
    return nm_ok(err);
}

size_t tn_navquery_memory(const tn_navquery *q) { return q ? q->mem : 0; }

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
        w = fmin(w,
                 seg_point_dist(px_(m, a), py_(m, a), px_(m, b), py_(m, b), px_(m, c), py_(m, c)));
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
        if (q->trace)
            trace_tri(q, t == tg ? TN_TRACE_GOAL : TN_TRACE_CLOSE, t, node[t].g, node[t].f);
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
            if (nn->heap >= 0)
                heap_up(q, nn->heap);
            else
                heap_push(q, n);
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
    int tg;    /* a triangle holding the goal */
    int ngoal; /* triangles holding the goal (on an edge or a vertex: more) */
    int32_t goal_tris[8];
    bool goal_many; /* more than 8: test points */
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
    if (nd.rv && ur > 0 && turn_taut(m, P1, px_(m, P1) - ox, py_(m, P1) - oy, true)) {
        double g = nd.g + dist2d(ox, oy, px_(m, P1), py_(m, P1));
        if (!root_pruned(q, P1, g)) push_far_range(c, ni, t, e, 0, ur, P1, g);
    }
    if (nd.lv && ul < 2 && turn_taut(m, P0, px_(m, P0) - ox, py_(m, P0) - oy, false)) {
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
    if (n <= 0 || !P) return 0;
    if (!out || cap < 0) cap = 0; /* count only */
    int cnt = 0;
    double lastx = 0, lasty = 0, prevx = 0, prevy = 0; /* the last point and the one before */
    /* A corner straight on from the two before it (corners on one line, as
     * along a wall the path follows) is not a turn: the new point takes
     * its place. */
#define EMIT(X, Y)                                                                       \
    do {                                                                                 \
        double ex_ = (X), ey_ = (Y);                                                     \
        if (cnt == 0 || ex_ != lastx || ey_ != lasty) {                                  \
            if (cnt >= 2 && orient2(prevx, prevy, lastx, lasty, ex_, ey_) == 0 &&        \
                (lastx - prevx) * (ex_ - lastx) + (lasty - prevy) * (ey_ - lasty) > 0) { \
                cnt--;                                                                   \
            } else {                                                                     \
                prevx = lastx;                                                           \
                prevy = lasty;                                                           \
            }                                                                            \
            if (cnt < cap) {                                                             \
                out[2 * cnt] = ex_;                                                      \
                out[2 * cnt + 1] = ey_;                                                  \
            }                                                                            \
            cnt++;                                                                       \
            lastx = ex_;                                                                 \
            lasty = ey_;                                                                 \
        }                                                                                \
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
                if (t > t1)
                    hit = false;
                else if (t > t0)
                    t0 = t;
            } else {
                if (t < t0)
                    hit = false;
                else if (t < t1)
                    t1 = t;
            }
        }
    }
    if (hit) return 0;
    double d = fmin(pt_square_d2(ax, ay, x, y), pt_square_d2(bx, by, x, y));
    for (int k = 0; k < 4; k++) d = fmin(d, pt_seg_d2(ax, ay, bx, by, x + (k & 1), y + (k >> 1)));
    return d;
}

/* Does segment a-b keep r (minus CLEAR_TOL) from every blocked tile and the
 * outside?  Visits, column by column, the tiles within r of the segment. */
static bool seg_clear(const tn_navmesh *m, double ax, double ay, double bx, double by, double r)
{
    const double lim = (r - CLEAR_TOL) * (r - CLEAR_TOL);
    double x0 = fmin(ax, bx), x1 = fmax(ax, bx);
    /* clamp in doubles: a huge r (1e10 tiles) must not overflow the int */
    int cx0 = (int)fmax(floor(x0 - r), -1.0), cx1 = (int)fmin(floor(x1 + r), (double)m->w);
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
        int ry0 = (int)fmax(floor(fmin(ya, yb) - r), -1.0);
        int ry1 = (int)fmin(floor(fmax(ya, yb) + r), (double)m->h);
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
static bool arc_square_clear(double cx, double cy, double r, double ux, double uy, double sw, int s,
                             int x, int y, double lim)
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
        double off = vert ? c - cx : c - cy; /* signed distance centre -> line */
        double along0 = vert ? cy : cx;
        double fx = vert ? off : 0, fy = vert ? 0 : off;
        if (along0 >= lo && along0 <= hi && fabs(off) > 1e-12 && in_arc(ux, uy, sw, s, fx, fy) &&
            fabs(fabs(off) - r) < lim)
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
static void vis_candidates(tn_navquery *q, double ox, double oy, int v, int t0, int tg, double gx,
                           double gy, bool *goal)
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
 * when the goal cannot be reached; *near is then the closed label nearest
 * the goal (the start's, 0, when none is nearer): every closed label is a
 * place the disc reaches, the end of an unreachable goal's partial path. */
static int clear_search(tn_navquery *q, int ts, int tg, double sx, double sy, double gx, double gy,
                        double r, int *near)
{
    double near_d2 = INFINITY;
    *near = 0;
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
        /* dominance: a closed label of the same circle and side that
         * arrives no later along the arc and is no longer up to here */
        if (e.state >= 0) {
            int st = e.state, v = st >> 1, s = (st & 1) ? 1 : -1;
            double cx = px_(m, v), cy = py_(m, v);
            bool dominated = false;
            if (q->state_stamp[st] == q->sgen) {
                for (int j = q->state_head[st]; j >= 0 && !dominated; j = q->lab[j].next) {
                    const clabel *o = &q->lab[j];
                    /* sw >= -1e-12 below, so this cannot dominate: skip the atan2 */
                    if (o->g > e.g + 1e-12 + r * 1e-12) continue;
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
        /* lazy check of the arc before the tangent and of the tangent
         * (after the dominance test, which does not depend on it: a
         * dominated label is dropped either way, without the check) */
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
        if (q->nlab == q->lcap) {
            q->cinexact = true;
            continue;
        }
        int li = q->nlab++;
        q->lab[li] = e;
        const double d2 = (e.tx - gx) * (e.tx - gx) + (e.ty - gy) * (e.ty - gy);
        if (d2 < near_d2) near_d2 = d2, *near = li;
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

/* Append triangle t to the corridor (not twice in a row; the rest of a
 * corridor longer than the query's capacity is dropped). */
static void corr_push(tn_navquery *q, int t)
{
    if (q->ncorr > 0 && q->corr[q->ncorr - 1] == t) return;
    if (q->ncorr < q->cap) q->corr[q->ncorr++] = t;
}

/* Walk the segment a -> b from free triangle t (which holds a) through the
 * triangles it crosses, appending each to the corridor; returns the
 * triangle holding b.  A radius path keeps r from every wall, so it crosses
 * edges, not vertices (every vertex is a corner of a blocked tile or of the
 * map); a segment that does meet one continues in the triangle past it
 * (pivot), and one that would leave free space (rounding) is located
 * again at b. */
static int walk_segment(tn_navquery *q, int t, double ax, double ay, double bx, double by)
{
    const tn_navmesh *m = q->m;
    const double dx = bx - ax, dy = by - ay;
    corr_push(q, t);
    if (dx == 0 && dy == 0) return t;
    for (int steps = 0; steps <= m->ntris + 4; steps++) {
        if (tri_contains(m, t, bx, by)) return t;
        const int n = next_along(m, t, ax, ay, dx, dy);
        if (!tri_free(m, n)) break;
        t = n;
        corr_push(q, t);
    }
    int e = locate_free(m, bx, by, t);
    if (e >= 0) corr_push(q, e);
    return e >= 0 ? e : t;
}

/* The corridor of a radius path (q->out, starting in triangle ts): the
 * triangles its segments cross, start to goal, each sharing an edge with
 * the next. */
static void clear_corridor(tn_navquery *q, int ts)
{
    const int np = q->nout < q->outcap ? q->nout : q->outcap;
    q->ncorr = 0;
    int t = ts;
    corr_push(q, t);
    for (int i = 0; i + 1 < np; i++)
        t = walk_segment(q, t, q->out[2 * i], q->out[2 * i + 1], q->out[2 * i + 2],
                         q->out[2 * i + 3]);
}

/* The last point again: a partial path of no length (start = end). */
static void emit_twice(tn_navquery *q)
{
    if (q->nout > 0 && q->nout < q->outcap) {
        q->out[2 * q->nout] = q->out[0];
        q->out[2 * q->nout + 1] = q->out[1];
    }
    q->nout++;
}

/* An unreachable goal's partial answer (as tn_surf_find and tn_path_find
 * give one): SUCCESS | PARTIAL_RESULT | UNREACHABLE (| BUFFER_TOO_SMALL),
 * saying why, where the path ends and how far from the goal (query
 * units). */
static tn_status partial_said(tn_error *err, bool cut, int np, int w, double gx, double gy,
                              double ex, double ey, const char *why, double r)
{
    tn_status st = TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE;
    if (cut) st |= TN_BUFFER_TOO_SMALL;
    char rs[48] = "";
    if (r >= 0) snprintf(rs, sizeof rs, " %g", r);
    char cs[96] = "";
    if (cut)
        snprintf(cs, sizeof cs, "; the path has %d points, the buffer holds the first %d", np, w);
    return tn_error_set(err, st, 0, 0,
                        "navmesh: the goal (%g, %g) is unreachable (%s%s); the path ends at the "
                        "closest place reached, (%g, %g), %g from it%s",
                        gx, gy, why, rs, ex, ey, hypot(ex - gx, ey - gy), cs);
}

static int zero_path(tn_navquery *q, int ts, int tg, double sx, double sy, double gx, double gy);

/* The point of free triangle t closest to (x, y) (on its boundary unless
 * inside it: the path is searched to it in t itself, never located), and
 * the squared distance. */
static double tri_closest(const tn_navmesh *m, int t, double x, double y, double *cx, double *cy)
{
    const int *v = &m->tri[3 * t];
    const double ax = px_(m, v[0]), ay = py_(m, v[0]), bx = px_(m, v[1]), by = py_(m, v[1]);
    const double qx = px_(m, v[2]), qy = py_(m, v[2]);
    double ex, ey;
    if (tri_contains(m, t, x, y)) {
        ex = x, ey = y;
    } else { /* the nearest of the three edges' nearest points */
        const double P[3][2] = {{ax, ay}, {bx, by}, {qx, qy}};
        double best = INFINITY;
        ex = ax, ey = ay;
        for (int i = 0; i < 3; i++) {
            const double *a = P[i], *b = P[(i + 1) % 3];
            const double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
            double k = l2 > 0 ? ((x - a[0]) * dx + (y - a[1]) * dy) / l2 : 0;
            k = k < 0 ? 0 : k > 1 ? 1 : k;
            const double px = a[0] + k * dx, py = a[1] + k * dy;
            const double d = (px - x) * (px - x) + (py - y) * (py - y);
            if (d < best) best = d, ex = px, ey = py;
        }
    }
    *cx = ex;
    *cy = ey;
    return (ex - x) * (ex - x) + (ey - y) * (ey - y);
}

/* find_path with radius 0 to a goal in another region than every start
 * triangle (cs, ns of them): the exact shortest path to the point of the
 * start's region closest to the goal, a partial answer.  O(triangles). */
/* The point of the regions of start triangles cs (ns of them) nearest
 * (gx, gy): its triangle (-1: none), the start triangle of its region in
 * *bs, the point in *ex, *ey.  O(triangles). */
static int region_nearest(const tn_navmesh *m, int ns, const int *cs, double gx, double gy,
                          int *bs_out, double *ex_out, double *ey_out)
{
    double best = INFINITY, ex = 0, ey = 0;
    int bt = -1, bs = cs[0];
    for (int t = 0; t < m->ntris; t++) {
        if (!tri_free(m, t)) continue;
        int k = 0;
        while (k < ns && m->region[cs[k]] != m->region[t]) k++;
        if (k == ns) continue;
        double cx, cy;
        const double d2 = tri_closest(m, t, gx, gy, &cx, &cy);
        /* ties (a goal as far from two places) go to the least (y, x): the
         * same point whatever the triangulation (a local update's mesh and
         * a fresh build's give the same answer) */
        const double tol = bt < 0 ? 0 : 1e-9 * (1 + best);
        if (bt < 0 || d2 < best - tol ||
            (d2 <= best + tol && (cy < ey - 1e-12 || (fabs(cy - ey) <= 1e-12 && cx < ex))))
            best = fmin(best, d2), bt = t, bs = cs[k], ex = cx, ey = cy;
    }
    *bs_out = bs, *ex_out = ex, *ey_out = ey;
    return bt;
}

static tn_status other_region(tn_navquery *q, int ns, const int *cs, double sx, double sy,
                              double gx, double gy, float *xy, int cap, int *count, tn_error *err)
{
    const tn_navmesh *m = q->m;
    const double u = m->tile_size;
    int bs;
    double ex, ey;
    const int bt = region_nearest(m, ns, cs, gx, gy, &bs, &ex, &ey);
    int np = bt >= 0 ? zero_path(q, bs, bt, sx, sy, ex, ey) : 0;
    if (!np)
        return tn_error_set(err, TN_FAILURE | TN_UNREACHABLE, 0, 0,
                            "navmesh: no path from (%g, %g) toward (%g, %g)", sx * u, sy * u,
                            gx * u, gy * u);
    int w = np < cap ? np : cap;
    for (int k = 0; k < w; k++) {
        xy[2 * k] = (float)(q->pts[2 * k] * u);
        xy[2 * k + 1] = (float)(q->pts[2 * k + 1] * u);
    }
    *count = w;
    return partial_said(err, xy && np > cap, np, w, gx * u, gy * u, ex * u, ey * u,
                        "it is in another region than the start", -1);
}

/* find_path for radius r > 0 (tile units). */
static tn_status clear_path(tn_navquery *q, int ts, int tg, double sx, double sy, double gx,
                            double gy, double r, bool other, float *xy, int cap, int *count,
                            tn_error *err)
{
    const tn_navmesh *m = q->m;
    const double u = m->tile_size;
    q->cinexact = false;
    q->clen = 0;
    /* the map's outside is a wall: a disc wider than the map's narrower
     * side keeps its radius nowhere (nearest_clear finds no point either) */
    if (2 * r > (double)tn_mini(m->w, m->h))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: radius %g is too large for the %dx%d map: a disc of that "
                            "radius (%g across) fits nowhere in it (%g x %g)",
                            r * u, m->w, m->h, 2 * r * u, m->w * u, m->h * u);
    bool sc = pt_clear(m, sx, sy, r);
    if (!sc || !pt_clear(m, gx, gy, r))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: the %s (%g, %g) is closer than the radius %g to a wall "
                            "(tn_navmesh_nearest_clear gives a point that is not)",
                            sc ? "goal" : "start", (sc ? gx : sx) * u, (sc ? gy : sy) * u, r * u);
    if (sx == gx && sy == gy) { /* already there: the point itself, length 0 */
        q->corr[0] = ts;
        q->ncorr = 1;
        q->exact = true;
        if (xy) { /* (NULL: a search alone, nothing written) */
            xy[0] = xy[2] = (float)(sx * u);
            xy[1] = xy[3] = (float)(sy * u);
            *count = 2;
        }
        return nm_ok(err);
    }
    int near;
    int gi = clear_search(q, ts, tg, sx, sy, gx, gy, r, &near);
    const bool partial = gi < 0;
    double ex = 0, ey = 0; /* a partial path's end */
    if (partial && q->nlab > 0) ex = q->lab[near].tx, ey = q->lab[near].ty;
    if (partial && other && q->nlab > 0) {
        /* in another region the place nearest the goal with room for the
         * disc is near the region's point nearest it: try a search there
         * (a corner touch can be farther: a box around the goal was left
         * 3.8 tiles away where 2.8 had room); the first search again when
         * that fails */
        int bs;
        double px, py;
        float fx, fy;
        if (region_nearest(m, 1, &ts, gx, gy, &bs, &px, &py) >= 0 &&
            tn_navmesh_nearest_clear(m, (float)(px * u), (float)(py * u), (float)(r * u), &fx,
                                     &fy)) {
            const double cx = fx / u, cy = fy / u;
            const int tc = locate_free(m, cx, cy, -1);
            if (tc >= 0 && m->region[tc] == m->region[ts] &&
                hypot(cx - gx, cy - gy) < hypot(ex - gx, ey - gy) - 1e-9) {
                int near2;
                const int gi2 = clear_search(q, ts, tc, sx, sy, cx, cy, r, &near2);
                if (gi2 >= 0)
                    gi = gi2, ex = cx, ey = cy;
                else
                    clear_search(q, ts, tg, sx, sy, gx, gy, r, &near);
            }
        }
    }
    if (partial && q->nlab == 0) /* (no label at all: a capacity of 0, cannot happen) */
        return tn_error_set(err, TN_FAILURE | TN_UNREACHABLE, 0, 0,
                            "navmesh: no way from (%g, %g) to (%g, %g) is wide enough for "
                            "radius %g",
                            sx * u, sy * u, gx * u, gy * u, r * u);
    const bool to_label = partial && gi < 0; /* (else gi: the goal or the disc's nearest place) */
    clear_output(q, to_label ? near : gi, r);
    q->exact = !q->cinexact;
    clear_corridor(q, ts);
    if (q->nout == 1) {
        if (partial) /* the closest place is the start: a path of no length */
            emit_twice(q);
        else
            emit(q, gx, gy);
    }
    int w = q->nout < cap ? q->nout : cap;
    if (w > q->outcap) w = q->outcap;
    for (int k = 0; k < w; k++) {
        xy[2 * k] = (float)(q->out[2 * k] * m->tile_size);
        xy[2 * k + 1] = (float)(q->out[2 * k + 1] * m->tile_size);
    }
    *count = w;
    if (partial) {
        return partial_said(err, xy && q->nout > w, q->nout, w, gx * u, gy * u, ex * u, ey * u,
                            other ? "it is in another region than the start, radius"
                                  : "no way to it is wide enough for radius",
                            r * u);
    }
    if (xy && q->nout > w)
        return tn_error_set(err, TN_SUCCESS | TN_PARTIAL_RESULT | TN_BUFFER_TOO_SMALL, 0, 0,
                            "navmesh: the path has %d points, the buffer holds the first %d",
                            q->nout, w);
    return nm_ok(err);
}

/* ---- clearance helpers (public) ---- */

float tn_navmesh_clearance(const tn_navmesh *m, float x, float y, float limit)
{
    if (!m || !isfinite(x) || !isfinite(y) || !(limit >= 0.0f) || m->w == 0) return 0.0f;
    /* the outside of the map is never farther than w + h tiles: a larger
     * (or infinite) limit changes nothing */
    const double inv = 1.0 / m->tile_size, px = x * inv, py = y * inv;
    const double lim = fmin(limit * inv, (double)m->w + m->h);
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
    /* Candidates lie eps (about two float steps at the map's far edge)
     * inside the tile shrunk by r, so rounding to float keeps r from the
     * tile's sides; ring_nearest tests the rounded point.  A tile centre
     * (r >= 1/2 - eps) is exact: a centre with clearance exactly r = 1/2,
     * beside a wall, is an answer (it was passed over for a farther tile
     * with r + eps, in another region). */
    const double eps = 1e-6 + (double)tn_maxi(m->w, m->h) * 0x1p-22;
    int tx = (int)floor(fmin(fmax(px, 0), m->w - 1)), ty = (int)floor(fmin(fmax(py, 0), m->h - 1));
    const double mg = r + eps < 0.5 ? r + eps : 0.5;
    return ring_nearest(m, px, py, tx, ty, mg, r, ox, oy);
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

/* find_path for radius 0 from triangle ts to tg (both containing their
 * point): the corridor, then the funnel into q->pts.  Returns the number of
 * points, 0 when there is no path. */
static int zero_path(tn_navquery *q, int ts, int tg, double sx, double sy, double gx, double gy)
{
    const tn_navmesh *m = q->m;
    const double r = 0;
    q->ncorr = 0;
    q->expanded = 0;
    q->exact = false;
    bool found;
    if (tri_contains(m, ts, gx, gy)) { /* same triangle: a straight line */
        q->corr[0] = ts;
        q->ncorr = 1;
        found = true;
        q->exact = true;
    } else {
        int res = corridor_intervals(q, ts, tg, sx, sy, gx, gy);
        q->exact = res == 1;
        found = res == 1 || (res < 0 && corridor_astar(q, ts, tg, sx, sy, gx, gy, 0));
    }
    if (!found) return 0;

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
    while (q->ncorr > 1 && on_edge_between(m, q->corr[q->ncorr - 2], q->corr[q->ncorr - 1], gx, gy))
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
    return np;
}

/* A point on a tile corner where two diagonal free tiles meet (the other
 * two blocked: a pinch) lies in two free triangles that share no edge, one
 * in each tile; locate_free finds one.  Writes both (the triangles around
 * the corner on each side) and returns 2, else returns 0. */
static int pinch_triangles(const tn_navmesh *m, double px, double py, int out[2])
{
    if (px != floor(px) || py != floor(py)) return 0;
    const int cx = (int)px, cy = (int)py;
    const bool nw = !tile_blocked(m, cx - 1, cy - 1), ne = !tile_blocked(m, cx, cy - 1);
    const bool sw = !tile_blocked(m, cx - 1, cy), se = !tile_blocked(m, cx, cy);
    /* a point 1e-7 tiles into a free tile lies in a triangle incident to
     * the corner: mesh vertices are tile corners, and an edge between tile
     * corners that misses this one passes at least 1/8192 tiles away */
    const double d = 1e-7;
    if (nw && se && !ne && !sw) {
        out[0] = locate_free(m, px - d, py - d, -1);
        out[1] = locate_free(m, px + d, py + d, -1);
    } else if (ne && sw && !nw && !se) {
        out[0] = locate_free(m, px + d, py - d, -1);
        out[1] = locate_free(m, px - d, py + d, -1);
    } else {
        return 0;
    }
    return out[0] >= 0 && out[1] >= 0 ? 2 : 0;
}

static double polyline_length(const double *p, int n)
{
    double len = 0;
    for (int k = 1; k < n; k++) len += hypot(p[2 * k] - p[2 * k - 2], p[2 * k + 1] - p[2 * k - 1]);
    return len;
}

tn_status tn_navquery_find_path(tn_navquery *q, float fsx, float fsy, float fgx, float fgy,
                                float radius, float *xy, int cap, int *count, tn_error *err)
{
    if (count) *count = 0;
    if (q) {         /* this query's results, even when it fails at once below: no
              * earlier query's corridor, count or exactness shows through */
        q->clen = 0; /* tn_navquery_length: 0 unless this is a radius path */
        q->ncorr = 0;
        q->expanded = 0;
        q->exact = false;
    }
    /* one message per argument: the caller learns which one is wrong */
    if (!q)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: a path needs a query object (q is NULL)");
    if (xy && !count) /* the points written would not be told */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: count is NULL but xy is not (NULL for both: search alone)");
    int unused;
    if (!xy) { /* a search alone (as tn_path_find and tn_surf_find with no output) */
        cap = 0;
        if (!count) count = &unused;
    } else if (cap < 2)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: a path's output buffer of %d points is too small (at least "
                            "2: the start and the goal)",
                            cap);
    if (!isfinite(fsx) || !isfinite(fsy) || !isfinite(fgx) || !isfinite(fgy)) {
        const bool bs = !isfinite(fsx) || !isfinite(fsy);
        const float px = bs ? fsx : fgx, py = bs ? fsy : fgy;
        if (isnan(px) || isnan(py)) /* "%g" prints it "nan" or "-nan" */
            return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                                "navmesh: the %s of a path has %s not a number (NaN)",
                                bs ? "start" : "goal", isnan(px) ? "x" : "y");
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: the %s (%g, %g) of a path is not a finite point",
                            bs ? "start" : "goal", (double)(bs ? fsx : fgx),
                            (double)(bs ? fsy : fgy));
    }
    if (isnan(radius)) /* "%g" prints it "nan" or "-nan" */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: a path's radius is not a number (NaN)");
    if (!(radius >= 0.0f) || !isfinite(radius))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: a path's radius %g is not a finite number >= 0",
                            (double)radius);
    const tn_navmesh *m = q->m;
    const double inv = 1.0 / m->tile_size;
    const double sx = fsx * inv, sy = fsy * inv, gx = fgx * inv, gy = fgy * inv;
    const double r = radius * inv;
    if (m->ntris == 0 && m->no_free) /* built: the map is all blocks */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: the %s (%g, %g) is not in free space: the %dx%d map has "
                            "no free tile",
                            "start", (double)fsx, (double)fsy, m->w, m->h);
    if (m->ntris == 0) /* else every point reads as "not in free space" */
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: the mesh is empty: it was never built, or its last "
                            "build or update failed (see that call's status)");
    int ts = locate_free(m, sx, sy, -1), tg = locate_free(m, gx, gy, -1);
    if (ts < 0 || tg < 0)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "navmesh: the %s (%g, %g) is not in free space (a block, or outside "
                            "the map)",
                            ts < 0 ? "start" : "goal", (double)(ts < 0 ? fsx : fgx),
                            (double)(ts < 0 ? fsy : fgy));
    /* A start or goal on a pinch corner belongs to both of its tiles: try
     * each side (at most 2 x 2 searches) and keep the shortest. */
    int cs[2] = {ts, -1}, cg[2] = {tg, -1};
    const int ns = r == 0 && pinch_triangles(m, sx, sy, cs) ? 2 : 1;
    const int ng = r == 0 && pinch_triangles(m, gx, gy, cg) ? 2 : 1;
    int bs = -1, bg = -1;
    for (int i = 0; i < ns && bs < 0; i++)
        for (int j = 0; j < ng && bs < 0; j++)
            if (m->region[cs[i]] == m->region[cg[j]]) bs = cs[i], bg = cg[j];
    /* a disc's search finds out itself that it cannot reach another region
     * (its closest place then ends the path) */
    if (r > 0)
        return clear_path(q, bs >= 0 ? bs : ts, bs >= 0 ? bg : tg, sx, sy, gx, gy, r, bs < 0, xy,
                          cap, count, err);
    if (bs < 0) return other_region(q, ns, cs, sx, sy, gx, gy, xy, cap, count, err);
    int np = 0;
    if (ns * ng > 1) {
        double best = INFINITY;
        tn_trace *trace = q->trace; /* only the chosen search is recorded */
        q->trace = NULL;
        for (int i = 0; i < ns; i++)
            for (int j = 0; j < ng; j++) {
                if (m->region[cs[i]] != m->region[cg[j]]) continue;
                int n = zero_path(q, cs[i], cg[j], sx, sy, gx, gy);
                double len = n ? polyline_length(q->pts, tn_mini(n, q->cap + 2)) : INFINITY;
                if (len < best) best = len, bs = cs[i], bg = cg[j];
            }
        q->trace = trace;
    }
    np = zero_path(q, bs, bg, sx, sy, gx, gy); /* again for the best pair's state */
    if (!np)
        return tn_error_set(err, TN_FAILURE | TN_UNREACHABLE, 0, 0,
                            "navmesh: no path from (%g, %g) to (%g, %g)", (double)fsx, (double)fsy,
                            (double)fgx, (double)fgy);
    int w = np < cap ? np : cap;
    for (int k = 0; k < w; k++) {
        xy[2 * k] = (float)(q->pts[2 * k] * m->tile_size);
        xy[2 * k + 1] = (float)(q->pts[2 * k + 1] * m->tile_size);
    }
    *count = w;
    if (xy && np > cap)
        return tn_error_set(err, TN_SUCCESS | TN_PARTIAL_RESULT | TN_BUFFER_TOO_SMALL, 0, 0,
                            "navmesh: the path has %d points, the buffer holds the first %d", np,
                            w);
    return nm_ok(err);
}

/* ---- the agents' navigation queries (tn_navquery_agent_nav) ----------- */

static bool agent_los(void *user, float ax, float ay, float bx, float by)
{
    const tn_navquery_agent *c = user;
    return c && c->query && tn_navmesh_los(c->query->m, ax, ay, bx, by);
}

/* A point off the free space, or closer than radius to a wall, moved to the
 * nearest one that is not (false when there is none). */
static bool agent_snap(const tn_navmesh *m, float *x, float *y, float radius)
{
    if (radius > 0.0f) return tn_navmesh_nearest_clear(m, *x, *y, radius, x, y);
    if (tn_navmesh_locate(m, *x, *y, -1) >= 0) return true;
    return tn_navmesh_nearest_free(m, *x, *y, 0.0f, x, y);
}

static int agent_path(void *user, float ax, float ay, float bx, float by, float radius, float *xy,
                      int cap)
{
    const tn_navquery_agent *c = user;
    if (!c || !c->query || !c->scratch || c->cap < 2 || !xy || cap <= 0 || !(radius >= 0.0f))
        return 0;
    const tn_navmesh *m = c->query->m;
    const float gx = bx, gy = by;
    if (!agent_snap(m, &ax, &ay, radius) || !agent_snap(m, &bx, &by, radius)) return 0;
    /* a goal moved farther than the radius (the disc no longer covers it:
     * a far side too narrow for it, a point deep in a block) is not
     * reached by a path to where it was moved: partial */
    const float dx = bx - gx, dy = by - gy;
    const bool moved = dx * dx + dy * dy > radius * radius + 1e-6f;
    int n = 0;
    tn_status st =
        tn_navquery_find_path(c->query, ax, ay, bx, by, radius, c->scratch, c->cap, &n, NULL);
    if (tn_failed(st) || n < 2) return 0;
    int k = n - 1 < cap ? n - 1 : cap;
    memcpy(xy, c->scratch + 2, sizeof(float) * 2 * (size_t)k);
    return tn_status_detail(st, TN_UNREACHABLE) || moved ? -k : k;
}

tn_agent_nav tn_navquery_agent_nav(tn_navquery_agent *ctx)
{
    tn_agent_nav nav = {ctx, agent_los, agent_path};
    return nav;
}
