/* SPDX-License-Identifier: Zlib */
/* internal/navmesh_impl.h - private to tn_navmesh.c (build, local update,
 * point location, drawing) and tn_navquery.c (line of sight, nearest
 * points, paths): the mesh's state and shared geometry helpers.  Not
 * installed. */
#ifndef TN_NAVMESH_IMPL_H
#define TN_NAVMESH_IMPL_H

#include "tn_navmesh.h"

#include "tn_cdt.h"

#include <math.h>
#include <string.h>

/* Everything declared below is library-internal: hidden from the shared
 * library's exports (GCC/Clang; tests/pkg/exports.sh checks). */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* Library-internal names (external linkage, tn_ prefix) */
#define tri_contains tn_navmeshi_tri_contains
#define locate_any tn_navmeshi_locate_any
#define free_containing tn_navmeshi_free_containing
#define locate_free tn_navmeshi_locate_free

/* Limits of a local rebuild (beyond them it rebuilds everything). */
#define LOCAL_PTS 2048
#define LOCAL_SEGS 4096
#define LOCAL_CAV 4096
#define LOCAL_HASH 16384

struct tn_navmesh {
    tn_allocator alloc;
    size_t mem;       /* bytes its create allocated, its CDTs' apart (tn_navmesh_memory) */
    int cap_w, cap_h; /* created size */
    int w, h;         /* size of the last built map */
    float tile_size;
    int max_points, max_segs, max_tris;
    uint8_t *free;    /* cap_w*cap_h: 1 where the tile is free */
    uint64_t *bits;   /* (cap_h+2) rows of `stride` words: free tiles as bits,
                                  rows 0 and h+1 (the outside) all zero */
    int stride;       /* words per bit row: covers bits 0..cap_w */
    int32_t *pts;     /* 2*max_points tile-corner coordinates */
    uint8_t *vquad;   /* max_points: blocked quadrants around each vertex
                                  (bit 0 NW, 1 NE, 2 SW, 3 SE; outside = blocked) */
    int32_t *segs;    /* 2*max_segs point indices */
    int32_t *colprev; /* cap_w+1: open vertical run per column */
    int npts, nsegs;
    tn_cdt *cdt;
    int ntris;          /* 0 when not built */
    int32_t *tri, *adj; /* 3*max_tris each: the triangulation (own copy) */
    /* local rebuild (tn_navmesh_update_tile) */
    int32_t *pts_alt, *segs_alt; /* the other outline buffers (old/new swap) */
    uint8_t *vquad_alt;
    int32_t *vmap;    /* max_points: old vertex -> new vertex, -1 when gone */
    int32_t *vsub;    /* max_points: new vertex -> point of the local CDT */
    uint32_t *vstamp; /* max_points */
    uint32_t *tstamp; /* max_tris: triangle in the cavity */
    uint32_t stamp;
    tn_cdt *sub;  /* local CDT */
    int32_t *cav; /* cavity triangles */
    int ncav;
    int32_t *bnd; /* 4 per cavity boundary edge: a, b, outside triangle, its edge */
    int nbnd;
    /* local labels (update_labels): scratch carved from one block */
    int32_t *lscr;
    int32_t *sub_lab;     /* 2*LOCAL_PTS: kept sub triangle -> free component, -1 blocked */
    int32_t *comp_reg;    /* 2*LOCAL_PTS: component -> region (-1 none yet) */
    int32_t *bnd_in;      /* 3*LOCAL_CAV: sub triangle inside each boundary edge */
    int32_t *bnd_oldfree; /* 3*LOCAL_CAV: the old triangle inside was free */
    int32_t *req;         /* 6*LOCAL_CAV: (region, component) that must stay joined */
    int32_t *mv;          /* 2*LOCAL_CAV: (from, to) triangle moves of the commit */
    int nmv, ncomp, nfree_delta, nreg_new;
    bool regions_local; /* the last local step also kept the regions */
    bool vmap_identity; /* the local step kept every vertex id */
    int32_t *sub_xy, *sub_segs, *sub_vid, *sub_slot, *sub_queue;
    uint64_t *hkey; /* edge hash for the local step */
    int32_t *hval;
    uint32_t *hstamp;
    bool last_local;
    int32_t *region; /* max_tris */
    int32_t *vtri;   /* max_points: a triangle using each vertex */
    bool swept;      /* the last full build used the row sweep */
    bool no_free;    /* the last full build found no free tile (an empty mesh) */
    int32_t *stack;  /* max_tris */
    int nfree, nregions;
    int32_t *bucket; /* bw*bh: a triangle whose centroid lies in each bucket */
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

static inline bool tile_blocked(const tn_navmesh *m, int x, int y)
{
    return x < 0 || y < 0 || x >= m->w || y >= m->h || !m->free[(size_t)y * m->w + x];
}

/* Point location (tn_navmesh.c).  tri_contains: p in the closed triangle
 * t.  locate_any: the triangle (free or blocked) containing p, -1 outside
 * the hull.  free_containing: a free triangle containing p among those
 * around t (p on an edge or vertex), or -1.  locate_free: the free
 * triangle containing p, or -1. */
bool tri_contains(const tn_navmesh *m, int t, double px, double py);
int locate_any(const tn_navmesh *m, double px, double py, int hint);
int free_containing(const tn_navmesh *m, int t, double px, double py);
int locate_free(const tn_navmesh *m, double px, double py, int hint);

/* Success: clear a caller's error record (a stale message must not
 * survive a later success). */
static inline tn_status nm_ok(tn_error *err)
{
    tn_error_clear(err);
    return TN_OK;
}

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
