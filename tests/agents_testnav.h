/* agents_testnav.h - navigation queries for the agent tests, independent of
 * the navigation mesh: line of sight by sampling the segment every 1/2 px
 * against the tile grid, and paths by 8-connected BFS over free tiles (no
 * corner cutting) pulled taut with that line of sight.  Slow and simple on
 * purpose: a reference the agents must work with.  Also a navmesh-backed
 * tn_agent_nav, so the same tests run on the real queries.
 * Included by tests/test_steer.c, test_companion.c and test_wander.c only. */
#ifndef AGENTS_TESTNAV_H
#define AGENTS_TESTNAV_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tn_map.h"
#include "tn_navmesh.h"
#include "tn_steer.h"

static inline bool tnav_free_px(const tn_map *m, float x, float y)
{
    int tx = (int)floorf(x / TN_TILE_PX), ty = (int)floorf(y / TN_TILE_PX);
    return tn_map_tile(m, tx, ty) != TN_TILE_BLOCK;
}

static inline bool tnav_los(void *user, float ax, float ay, float bx, float by)
{
    const tn_map *m = user;
    float len = sqrtf((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
    int n = (int)(len * 2.0f) + 1;
    for (int i = 0; i <= n; i++) {
        float t = (float)i / (float)n;
        if (!tnav_free_px(m, ax + (bx - ax) * t, ay + (by - ay) * t)) return false;
    }
    return true;
}

/* BFS from the goal tile; then walk down the distances from the start tile,
 * keeping only the corners where line of sight from the last kept point
 * breaks. */
static inline int tnav_path(void *user, float ax, float ay, float bx, float by, float radius,
                            float *xy, int cap)
{
    (void)radius;
    const tn_map *m = user;
    int W = m->w, H = m->h;
    int sx = (int)floorf(ax / TN_TILE_PX), sy = (int)floorf(ay / TN_TILE_PX);
    int gx = (int)floorf(bx / TN_TILE_PX), gy = (int)floorf(by / TN_TILE_PX);
    if (!tn_map_inside(m, sx, sy) || !tn_map_inside(m, gx, gy) ||
        tn_map_tile(m, gx, gy) == TN_TILE_BLOCK || tn_map_tile(m, sx, sy) == TN_TILE_BLOCK)
        return 0;
    int *dist = malloc(sizeof(int) * (size_t)W * H), *queue = malloc(sizeof(int) * (size_t)W * H);
    for (int i = 0; i < W * H; i++) dist[i] = -1;
    int qh = 0, qt = 0;
    dist[gy * W + gx] = 0;
    queue[qt++] = gy * W + gx;
    while (qh < qt) {
        int c = queue[qh++], cx = c % W, cy = c / W;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = cx + dx, ny = cy + dy;
                if ((!dx && !dy) || !tn_map_inside(m, nx, ny)) continue;
                if (tn_map_tile(m, nx, ny) == TN_TILE_BLOCK) continue;
                if (dx && dy &&
                    (tn_map_tile(m, cx + dx, cy) == TN_TILE_BLOCK ||
                     tn_map_tile(m, cx, cy + dy) == TN_TILE_BLOCK))
                    continue;
                if (dist[ny * W + nx] >= 0) continue;
                dist[ny * W + nx] = dist[c] + 1;
                queue[qt++] = ny * W + nx;
            }
    }
    int n = 0;
    if (dist[sy * W + sx] >= 0) {
        float lx = ax, ly = ay, px = ax, py = ay;
        int c = sy * W + sx;
        while (dist[c] > 0 && n < cap) {
            int cx = c % W, cy = c / W, next = c;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = cx + dx, ny = cy + dy;
                    if (!tn_map_inside(m, nx, ny) || dist[ny * W + nx] != dist[c] - 1) continue;
                    if (dx && dy &&
                        (tn_map_tile(m, cx + dx, cy) == TN_TILE_BLOCK ||
                         tn_map_tile(m, cx, cy + dy) == TN_TILE_BLOCK))
                        continue;
                    next = ny * W + nx;
                }
            c = next;
            float cxp = ((float)(c % W) + 0.5f) * TN_TILE_PX,
                  cyp = ((float)(c / W) + 0.5f) * TN_TILE_PX;
            if (dist[c] == 0) {
                cxp = bx;
                cyp = by;
            }
            if (!tnav_los(user, lx, ly, cxp, cyp)) {
                xy[2 * n] = px;
                xy[2 * n + 1] = py;
                n++;
                lx = px;
                ly = py;
            }
            px = cxp;
            py = cyp;
        }
        if (n < cap) {
            xy[2 * n] = bx;
            xy[2 * n + 1] = by;
            n++;
        }
    }
    free(dist);
    free(queue);
    return n;
}

static inline tn_agent_nav tnav_make(const tn_map *m)
{
    tn_agent_nav nav = {(void *)m, tnav_los, tnav_path};
    return nav;
}

/* ---- the same queries on the navigation mesh (pixel units) ---------------- */

typedef struct tnav_mesh {
    tn_navmesh *mesh;
    tn_navquery *q;
} tnav_mesh;

static inline bool tnav_mesh_los(void *user, float ax, float ay, float bx, float by)
{
    tnav_mesh *t = user;
    return tn_navmesh_los(t->mesh, ax, ay, bx, by);
}

static inline int tnav_mesh_path(void *user, float ax, float ay, float bx, float by, float radius,
                                 float *xy, int cap)
{
    tnav_mesh *t = user;
    float buf[2 * 65];
    int count = 0;
    int want = cap + 1 < 65 ? cap + 1 : 65;
    tn_status s = tn_navquery_find_path(t->q, ax, ay, bx, by, radius, buf, want, &count, NULL);
    /* to the target or none: a partial path (unreachable) is none here */
    if (tn_failed(s) || tn_status_detail(s, TN_UNREACHABLE) || count < 1) return 0;
    if (count > want) count = want;
    /* Drop the start point. */
    int n = count - 1;
    memcpy(xy, buf + 2, sizeof(float) * 2 * (size_t)n);
    if (n == 0) {
        xy[0] = bx;
        xy[1] = by;
        n = 1;
    }
    return n;
}

/* NULL when the mesh cannot be built (the test then skips). */
static inline tnav_mesh *tnav_mesh_create(const tn_map *m)
{
    tn_error e;
    tn_navmesh_config cfg = tn_navmesh_default_config();
    cfg.tile_size = TN_TILE_PX;
    tnav_mesh *t = calloc(1, sizeof *t);
    if (tn_failed(tn_navmesh_create(m->w, m->h, &cfg, NULL, &t->mesh, &e)) ||
        tn_failed(tn_navmesh_build(t->mesh, m, &e)) ||
        tn_failed(tn_navquery_create(t->mesh, NULL, &t->q, &e))) {
        if (t->mesh) tn_navmesh_destroy(t->mesh);
        free(t);
        return NULL;
    }
    return t;
}

static inline void tnav_mesh_destroy(tnav_mesh *t)
{
    if (!t) return;
    tn_navquery_destroy(t->q);
    tn_navmesh_destroy(t->mesh);
    free(t);
}

static inline tn_agent_nav tnav_mesh_nav(tnav_mesh *t)
{
    tn_agent_nav nav = {t, tnav_mesh_los, tnav_mesh_path};
    return nav;
}

/* A map from rows of text (the tilenav-map tile characters). */
static inline tn_map *tnav_map_rows(const char *const *rows, int h)
{
    int w = (int)strlen(rows[0]);
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(w, h, NULL, &m, NULL)));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char ch = rows[y][x];
            if (ch == '#')
                tn_map_set_tile(m, x, y, TN_TILE_BLOCK, NULL);
            else if (ch == '=')
                tn_map_set_tile(m, x, y, TN_TILE_ONEWAY, NULL);
            else if (ch == '*')
                tn_map_set_mark(m, x, y, TN_MARK_ITEM, NULL);
        }
    return m;
}

#endif
