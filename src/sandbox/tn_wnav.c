/* The navmesh part: see tn_wnav.h. */
#include "tn_wnav.h"
#include "tn_world_impl.h"
#include "tn_wparts.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tn_wnav {
    tn_navmesh *mesh;   /* pixel units */
    tn_navquery *query; /* shared by every caller */
    uint32_t revision;  /* the world's count of builds at the last one */
    uint32_t uid;       /* unique among the process's meshes (tn_wnav_mesh_key) */
    double build_ms;    /* last build, < 0 when not timed */
    bool build_failed;
    int cap;        /* points of a path / triangles of a corridor */
    float *scratch; /* 2*cap: tn_wnav_path */
    /* the navpath tool's path */
    bool has_path;
    float sx, sy, gx, gy; /* as clicked (the goal maybe snapped) */
    int click_x, click_y; /* the tile clicked */
    uint32_t plans;       /* the tool path's plans: click, rebuild, radius */
    float *path;          /* 2*cap */
    int npath;
    double path_len; /* pixels */
    bool partial;    /* the goal is unreachable: the path ends at the closest place */
    double gap;      /* then its distance from the goal, pixels */
    int32_t *corr;   /* cap */
    int ncorr;
    float agent_radius; /* px: parameter agent_radius */
    int refits;         /* times the mesh was sized to the map (mesh_fit) */
    unsigned said;      /* the world's message serial of the last edit's re-plan note */
};

/* The navmesh part when it has a mesh; NULL when it is off (a map over the
 * limits, or an edit made its outlines outgrow them: then w->nav stays, with
 * its agent radius, and no mesh until edits take outlines away). */
static struct tn_wnav *nav_of(const tn_world *w) { return w->nav && w->nav->mesh ? w->nav : NULL; }

const tn_navmesh *tn_wnav_mesh(const tn_world *w) { return w && w->nav ? w->nav->mesh : NULL; }
tn_navquery *tn_wnav_query(tn_world *w) { return w && w->nav ? w->nav->query : NULL; }
uint32_t tn_wnav_revision(const tn_world *w) { return w && w->nav ? w->nav->revision : 0; }
uint32_t tn_wnav_tool_plans(const tn_world *w) { return w && w->nav ? w->nav->plans : 0; }
int tn_wnav_refits(const tn_world *w) { return w && w->nav ? w->nav->refits : 0; }

/* The tiles a segment (pixels) passes through, walked in order (Amanatides
 * and Woo): false at the first block or outside the map. */
static bool tile_los(const tn_map *map, float ax, float ay, float bx, float by)
{
    const double T = TN_TILE_PX;
    double x0 = ax / T, y0 = ay / T, x1 = bx / T, y1 = by / T;
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) return false;
    int tx = (int)floor(x0), ty = (int)floor(y0);
    const int ex = (int)floor(x1), ey = (int)floor(y1);
    const double dx = x1 - x0, dy = y1 - y0;
    const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    /* the segment's parameter at the next vertical / horizontal grid line */
    double nx = dx != 0 ? ((dx > 0 ? tx + 1 : tx) - x0) / dx : INFINITY;
    double ny = dy != 0 ? ((dy > 0 ? ty + 1 : ty) - y0) / dy : INFINITY;
    const double stx = dx != 0 ? 1.0 / fabs(dx) : INFINITY,
                 sty = dy != 0 ? 1.0 / fabs(dy) : INFINITY;
    const long steps = labs((long)ex - tx) + labs((long)ey - ty); /* tiles after the first */
    for (long k = 0; k <= steps; k++) {
        if (!tn_map_inside(map, tx, ty) || tn_map_tile(map, tx, ty) == TN_TILE_BLOCK) return false;
        if (tx == ex && ty == ey) return true;
        if (nx < ny) {
            tx += sx;
            nx += stx;
        } else {
            ty += sy;
            ny += sty;
        }
    }
    return false; /* rounding left the walk off the end tile: no claim of sight */
}

bool tn_wnav_los(const tn_world *w, float ax, float ay, float bx, float by)
{
    if (!w || !w->map) return false;
    const tn_navmesh *m = tn_wnav_mesh(w);
    if (!m) return tile_los(w->map, ax, ay, bx, by); /* off: no mesh on a map this large */
    return tn_navmesh_los(m, ax, ay, bx, by);
}

float tn_wnav_agent_radius(const tn_world *w)
{
    return w && w->nav ? w->nav->agent_radius : 0.3125f * TN_TILE_PX;
}

/* Move a point that is not in free space (or, for a radius, closer than it
 * to a wall) to the nearest one that is. */
static bool snap_free(const tn_navmesh *m, float *x, float *y, float radius)
{
    if (radius > 0.0f) return tn_navmesh_nearest_clear(m, *x, *y, radius, x, y);
    if (tn_navmesh_locate(m, *x, *y, -1) >= 0) return true;
    return tn_navmesh_nearest_free(m, *x, *y, 0.0f, x, y);
}

static tn_status plan(struct tn_wnav *s, float sx, float sy, float gx, float gy, float radius,
                      int *n)
{
    *n = 0;
    if (!snap_free(s->mesh, &sx, &sy, radius) || !snap_free(s->mesh, &gx, &gy, radius))
        return TN_FAILURE | TN_UNREACHABLE;
    return tn_navquery_find_path(s->query, sx, sy, gx, gy, radius, s->scratch, s->cap, n, NULL);
}

int tn_wnav_path(tn_world *w, float ax, float ay, float bx, float by, float radius, float *xy,
                 int cap)
{
    struct tn_wnav *s = w ? nav_of(w) : NULL;
    if (!s || !xy || cap <= 0 || !(radius >= 0.0f)) return 0;
    int n;
    /* a partial answer (the closest place to an unreachable goal) is given
     * as tn_agent_nav says: its count negated */
    tn_status st = plan(s, ax, ay, bx, by, radius, &n);
    if (tn_failed(st) || n < 2) return 0;
    int k = n - 1 < cap ? n - 1 : cap;
    memcpy(xy, s->scratch + 2, sizeof(float) * 2 * (size_t)k);
    return tn_status_detail(st, TN_UNREACHABLE) ? -k : k;
}

static bool agent_los(void *user, float ax, float ay, float bx, float by)
{
    return tn_wnav_los((const tn_world *)user, ax, ay, bx, by);
}

static int agent_path(void *user, float ax, float ay, float bx, float by, float radius, float *xy,
                      int cap)
{
    return tn_wnav_path((tn_world *)user, ax, ay, bx, by, radius, xy, cap);
}

tn_agent_nav tn_wnav_agent_nav(tn_world *w)
{
    tn_agent_nav nav = {w, agent_los, agent_path};
    return nav;
}

/* ---- the navpath tool's path ---- */

static tn_status replan_tool_path(struct tn_wnav *s)
{
    s->plans++;
    int n;
    tn_status st = plan(s, s->sx, s->sy, s->gx, s->gy, s->agent_radius, &n);
    if (tn_failed(st)) {
        s->has_path = s->partial = false;
        s->npath = s->ncorr = 0;
        return st;
    }
    s->has_path = true;
    /* unreachable: the library's partial path to the closest place */
    s->partial = tn_status_detail(st, TN_UNREACHABLE);
    s->gap = s->partial && n > 0 ? hypot((double)s->scratch[2 * n - 2] - s->gx,
                                         (double)s->scratch[2 * n - 1] - s->gy)
                                 : 0;
    s->npath = n;
    memcpy(s->path, s->scratch, sizeof(float) * 2 * (size_t)n);
    s->path_len = 0;
    for (int i = 0; i + 1 < n; i++)
        s->path_len += hypot((double)s->path[2 * i + 2] - s->path[2 * i],
                             (double)s->path[2 * i + 3] - s->path[2 * i + 1]);
    int nc;
    const int32_t *c = tn_navquery_corridor(s->query, &nc);
    if (nc > s->cap) nc = s->cap;
    memcpy(s->corr, c, sizeof *c * (size_t)nc);
    s->ncorr = nc;
    return s->partial ? TN_SUCCESS | TN_PARTIAL_RESULT | TN_UNREACHABLE : TN_OK;
}

/* Why the tool's goal is unreachable, for its messages. */
static const char *unreachable_why(const struct tn_wnav *s)
{
    tn_navmesh_view v;
    tn_navmesh_get_view(s->mesh, &v);
    int a = tn_navmesh_locate(s->mesh, s->sx, s->sy, -1);
    int b = tn_navmesh_locate(s->mesh, s->gx, s->gy, -1);
    if (a >= 0 && b >= 0 && v.region[a] != v.region[b]) return "it is in another region";
    return "no way is wide enough for the agent";
}

bool tn_wnav_tool_goal(const tn_world *w, int *tx, int *ty)
{
    const struct tn_wnav *s = w ? nav_of(w) : NULL;
    if (!s || !s->has_path) return false;
    *tx = s->click_x;
    *ty = s->click_y;
    return true;
}

int tn_wnav_trace_tool_path(tn_world *w, struct tn_trace *trace, int *tx, int *ty)
{
    struct tn_wnav *s = w ? nav_of(w) : NULL;
    if (!s || !s->has_path) return -1;
    int n;
    tn_navquery_set_trace(s->query, trace);
    tn_status st = plan(s, s->sx, s->sy, s->gx, s->gy, s->agent_radius, &n);
    tn_navquery_set_trace(s->query, NULL);
    if (tn_failed(st)) return -1;
    if (tx) *tx = s->click_x;
    if (ty) *ty = s->click_y;
    return tn_navquery_expanded(s->query);
}

/* The mesh, its query object and the path buffers are sized to the map's
 * content: its outline points plus NAV_HEADROOM (tn_navmesh_config_for_map),
 * not the worst case of its size (a checkerboard).  An edit that outgrows
 * them re-creates all of them for the new content (mesh_fit), keeping the
 * navpath tool's path. */
#define NAV_HEADROOM 0.5f

/* Which maps get a navmesh: at most MAX_NAV_TILES tiles (the goto limit:
 * its layer is drawn whole, its outlines traced whole at every build) and
 * at most NAV_MEM_MAX bytes for the mesh, its query object and the path
 * buffers sized to the map's content (about 1,150 bytes per outline point,
 * tn_navmesh.h MEMORY, plus W*H bytes of tiles): a generated 1024x1024
 * level fits well within it, a checkerboard of that size would need over a
 * GB (docs/perf.md, "The world's navmesh on big maps").  Without a mesh
 * every query answers "no": the companion then searches by sight only. */
#define MAX_NAV_TILES (1024L * 1024L)
#define NAV_MEM_MAX (160L << 20)

static long nav_bytes(const tn_map *m, const tn_navmesh_config *cfg)
{
    return 1150L * cfg->max_points + 16L * cfg->max_segments + (long)m->w * m->h + (2L << 20);
}

/* The mesh config for the map: NAV_HEADROOM over its outlines, none when
 * that would pass the limit (a refit then comes sooner); *need its bytes. */
static tn_navmesh_config fit_config(const tn_map *m, long *need)
{
    tn_navmesh_config cfg = tn_navmesh_config_for_map(m, NAV_HEADROOM);
    *need = nav_bytes(m, &cfg);
    if (*need > NAV_MEM_MAX) {
        cfg = tn_navmesh_config_for_map(m, 0.0f);
        *need = nav_bytes(m, &cfg);
    }
    return cfg;
}

static void free_mesh(tn_world *w, struct tn_wnav *s)
{
    tn_navquery_destroy(s->query);
    tn_navmesh_destroy(s->mesh);
    tn_free(&w->alloc, s->scratch);
    tn_free(&w->alloc, s->path);
    tn_free(&w->alloc, s->corr);
    s->query = NULL;
    s->mesh = NULL;
    s->scratch = s->path = NULL;
    s->corr = NULL;
}

/* (Re)makes the mesh, its query object and the path buffers for the map,
 * the old ones freed first (memory never holds both: a refit at the limit
 * would need 160 MB more); the navpath tool's path is kept through a copy.
 * Fails over the limit (w->nav_off_mb says by how much) or out of memory,
 * leaving no mesh: the navmesh is then off (nav_of is NULL). */
static tn_status mesh_fit(tn_world *w, struct tn_wnav *s, tn_error *err)
{
    long need;
    tn_navmesh_config cfg = fit_config(w->map, &need);
    float *kp = NULL;
    int32_t *kc = NULL;
    if (s->has_path && need <= NAV_MEM_MAX) {
        kp = tn_alloc_array(&w->alloc, (size_t)s->npath + 1, 2 * sizeof(float));
        kc = tn_alloc_array(&w->alloc, (size_t)s->ncorr + 1, sizeof(int32_t));
        if (kp && kc) {
            memcpy(kp, s->path, sizeof(float) * 2 * (size_t)s->npath);
            memcpy(kc, s->corr, sizeof(int32_t) * (size_t)s->ncorr);
        }
    }
    const bool kept = kp && kc;
    free_mesh(w, s);
    if (!kept) {
        s->has_path = false;
        s->npath = s->ncorr = 0;
    }
    tn_status st = TN_OK;
    if (need > NAV_MEM_MAX) { /* an edit made outlines beyond the limit */
        w->nav_off_mb = need >> 20;
        st = tn_error_set(err, TN_FAILURE | TN_CAPACITY, 0, 0,
                          "the map's outlines now need about %ld MB (limit %ld MB): off until "
                          "edits take some away",
                          need >> 20, NAV_MEM_MAX >> 20);
    } else {
        w->nav_off_mb = 0;
        cfg.tile_size = (float)TN_TILE_PX;
        st = tn_navmesh_create(w->map->w, w->map->h, &cfg, &w->alloc, &s->mesh, err);
        if (tn_succeeded(st)) st = tn_navquery_create(s->mesh, &w->alloc, &s->query, err);
        /* A corridor has at most one triangle per triangle (2 per point); a
         * radius path adds a few arc points per corner it turns around. */
        s->cap = 8 * cfg.max_points + 16;
        s->scratch = tn_alloc_array(&w->alloc, (size_t)s->cap, 2 * sizeof(float));
        s->path = tn_alloc_array(&w->alloc, (size_t)s->cap, 2 * sizeof(float));
        s->corr = tn_alloc_array(&w->alloc, (size_t)s->cap, sizeof(int32_t));
        if (tn_succeeded(st) && (!s->scratch || !s->path || !s->corr))
            st = tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                              "out of memory for the navmesh of a %dx%d map", w->map->w, w->map->h);
        if (tn_failed(st)) free_mesh(w, s);
    }
    if (tn_succeeded(st) && kept && s->npath <= s->cap && s->ncorr <= s->cap) {
        memcpy(s->path, kp, sizeof(float) * 2 * (size_t)s->npath);
        memcpy(s->corr, kc, sizeof(int32_t) * (size_t)s->ncorr);
    } else {
        s->has_path = false;
        s->npath = s->ncorr = 0;
    }
    tn_free(&w->alloc, kp);
    tn_free(&w->alloc, kc);
    if (tn_succeeded(st)) s->refits++;
    return st;
}

/* The tool path's numbers as the HUD shows them: "N points, L tiles". */
static void path_numbers(const struct tn_wnav *s, char *out, size_t cap)
{
    snprintf(out, cap, "%d points, %.1f tiles%s", s->npath, s->path_len / TN_TILE_PX,
             s->partial ? " (partial)" : "");
}

static void moved_note(const struct tn_wnav *s, char *moved, size_t cap);

/* An edit re-planned the tool path into another one (the HUD shows its
 * numbers): a status line about the navmesh path (the click's "navmesh
 * path: 11 points, 63.8 tiles", a radius re-plan, a cut) would now say
 * numbers or a state the HUD does not, so it says the re-plan, as the
 * radius slider's does (a playtest: a wall dragged across the path left
 * the click's numbers beside the HUD's new ones).  Another message (a
 * save, the bot's) is not about this path: it stays, and the HUD has the
 * numbers, as for the bot's re-plans after an edit. */
static void replan_said(tn_world *w, struct tn_wnav *s, int x, int y, const char *numbers)
{
    if (w->message_ttl <= 0 || strncmp(w->message, "navmesh", 7) != 0) return;
    char at[48] = "";
    if (x >= 0) snprintf(at, sizeof at, " at (%d,%d)", x, y);
    if (s->partial) {
        tn_world_message(w,
                         "navmesh path re-planned after the edit%s: still unreachable (%s): it "
                         "ends %.1f tiles from the goal; %d points, %.1f tiles",
                         at, unreachable_why(s), s->gap / TN_TILE_PX, s->npath,
                         s->path_len / TN_TILE_PX);
    } else {
        char moved[160];
        moved_note(s, moved, sizeof moved);
        tn_world_message(w, "navmesh path re-planned after the edit%s: %s%s%s", at, numbers,
                         moved[0] ? "; " : "", moved);
    }
    s->said = w->message_serial;
}

unsigned tn_wnav_replan_said(const tn_world *w) { return w && w->nav ? w->nav->said : 0; }

/* Full build (x < 0) or the local update around tile (x, y); an edit that
 * outgrows the mesh's capacity re-fits it to the map and builds it whole. */
static void rebuild(tn_world *w, struct tn_wnav *s, int x, int y)
{
    tn_error err;
    double t0 = w->clock ? w->clock() : 0.0;
    const bool was_off = !s->mesh;
    bool fresh = was_off; /* a mesh made now is built whole */
    tn_status st = was_off                    ? mesh_fit(w, s, &err) /* back when it fits */
                   : x < 0 || s->build_failed ? tn_navmesh_build(s->mesh, w->map, &err)
                                              : tn_navmesh_update_tile(s->mesh, w->map, x, y, &err);
    if (!fresh && tn_failed(st) && tn_status_detail(st, TN_CAPACITY)) {
        st = mesh_fit(w, s, &err); /* outgrew it: sized to the map again */
        fresh = true;
    }
    if (fresh && tn_succeeded(st)) st = tn_navmesh_build(s->mesh, w->map, &err);
    s->build_ms = w->clock ? (w->clock() - t0) * 1e3 : -1.0;
    s->revision = ++w->nav_revisions; /* on from the last map's: never seen before */
    s->build_failed = tn_failed(st);
    if (s->build_failed && !(was_off && !s->mesh)) /* (said once while it stays off) */
        tn_world_message(w, "%s%s", strncmp(err.msg, "navmesh: ", 9) ? "navmesh: " : "",
                         err.msg); /* (the library's own messages say "navmesh: ") */
    if (was_off && s->mesh && !s->build_failed)
        tn_world_message(w, "navmesh: on again, the map's outlines fit");
    if (!s->mesh) return; /* off: nothing to re-plan */
    const bool was_partial = s->partial;
    if (s->has_path) {
        char before[64], now[64];
        path_numbers(s, before, sizeof before);
        tn_status st2 = replan_tool_path(s);
        if (tn_failed(st2))
            tn_world_message(w, "navmesh: the shown path is cut by the edit");
        else if (s->partial && !was_partial)
            tn_world_message(w,
                             "navmesh: the edit cut the shown path (%s): it now ends at the "
                             "closest place reached, %.1f tiles from the goal",
                             unreachable_why(s), s->gap / TN_TILE_PX);
        else if (path_numbers(s, now, sizeof now), strcmp(before, now) != 0 || was_partial)
            replan_said(w, s, x, y, now);
    }
}

/* ---- hooks ---- */

void tn_wnav_destroy(tn_world *w)
{
    struct tn_wnav *s = w->nav; /* (with a mesh or not) */
    if (!s) return;
    free_mesh(w, s);
    tn_free(&w->alloc, s);
    w->nav = NULL;
}

/* Why the navmesh is off (nav_of is NULL), for messages. */
static void off_why(const tn_world *w, char *buf, size_t cap)
{
    if (w->nav && w->nav_off_mb == 0) /* its refit found no memory */
        snprintf(buf, cap, "out of memory for this %dx%d map's mesh", w->map->w, w->map->h);
    else if ((long)w->map->w * w->map->h > MAX_NAV_TILES)
        snprintf(buf, cap, "this %dx%d map is larger than %ld tiles", w->map->w, w->map->h,
                 MAX_NAV_TILES);
    else
        snprintf(buf, cap, "this %dx%d map's outlines would need about %ld MB (limit %ld MB)",
                 w->map->w, w->map->h, w->nav_off_mb, NAV_MEM_MAX >> 20);
}

tn_status tn_wnav_create(tn_world *w, tn_error *err)
{
    w->nav_off_mb = 0;
    if ((long)w->map->w * w->map->h > MAX_NAV_TILES) {
        tn_world_message(w, "the navmesh is off: this %dx%d map is larger than %ld tiles",
                         w->map->w, w->map->h, MAX_NAV_TILES);
        return TN_OK; /* w->nav stays NULL: every query answers "no" */
    }
    long need;
    fit_config(w->map, &need);
    if (need > NAV_MEM_MAX) {
        w->nav_off_mb = need >> 20;
        char why[160];
        off_why(w, why, sizeof why);
        tn_world_message(w, "the navmesh is off: %s", why);
        return TN_OK;
    }
    struct tn_wnav *s = tn_alloc(&w->alloc, sizeof *s);
    if (!s) return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, "out of memory");
    w->nav = s;
    memset(s, 0, sizeof *s);
    /* a mesh layer cached for another world (a reset, another map) never
       matches this one's key, whatever the revisions */
    static atomic_uint next_uid = 1;
    s->uid = (uint32_t)atomic_fetch_add(&next_uid, 1u);
    tn_status st = mesh_fit(w, s, err);
    if (tn_failed(st)) {
        tn_wnav_destroy(w);
        return st;
    }
    s->agent_radius = (float)((tn_param_info)TN_WNAV_PARAM_AGENT_RADIUS).def * TN_TILE_PX;
    rebuild(w, s, -1, -1);
    return TN_OK;
}

static void moved_note(const struct tn_wnav *s, char *moved, size_t cap);

tn_status tn_wnav_set_agent_radius(tn_world *w, double value, tn_error *err)
{
    struct tn_wnav *s = nav_of(w);
    /* refused by a rule (no navmesh on a map this large), as `set bots`
     * is: a script's run goes on, the refusal is counted and said */
    if (!s) {
        char why[160];
        off_why(w, why, sizeof why);
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                            "the navmesh is off: %s; no agent radius to set", why);
    }
    s->agent_radius = (float)value * TN_TILE_PX;
    if (!s->has_path) return TN_OK;
    tn_status st = replan_tool_path(s);
    if (tn_failed(st))
        tn_world_message(w, "navmesh: no path for an agent of radius %.2f tiles", value);
    else if (s->partial)
        tn_world_message(w,
                         "navmesh: no way is wide enough for an agent of radius %.2f tiles: the "
                         "path ends at the closest place reached, %.1f tiles from the goal",
                         value, s->gap / TN_TILE_PX);
    else { /* the new path, said as a click says it (a playtest: the status
              line kept the click's "agent radius 0.31" after the slider moved),
              with an end the new radius moved off a wall */
        char moved[160];
        moved_note(s, moved, sizeof moved);
        tn_world_message(w, "navmesh path re-planned for radius %.2f: %d points, %.1f tiles%s%s",
                         value, s->npath, s->path_len / TN_TILE_PX, moved[0] ? "; " : "", moved);
    }
    return TN_OK;
}

bool tn_wnav_get_agent_radius(const tn_world *w, double *value)
{
    const struct tn_wnav *s = nav_of(w);
    if (!s) return false;
    *value = s->agent_radius / TN_TILE_PX;
    return true;
}

void tn_wnav_on_edit(tn_world *w, int x, int y)
{
    struct tn_wnav *s = w->nav; /* off since an edit outgrew the limit: tried again */
    if (!s) return;
    if (x >= 0 && s->mesh && !s->build_failed &&
        tn_navmesh_tile_free(s->mesh, x, y) == (tn_map_tile(w->map, x, y) != TN_TILE_BLOCK))
        return; /* free space unchanged (a mark or a one-way platform) */
    rebuild(w, s, x, y);
}

/* Moves of the navpath tool's start or goal shorter than this (tiles) are
 * not reported: rounding, not a place the user did not ask for. */
#define MOVE_REPORTED 0.05

tn_status tn_wnav_click(tn_world *w, int x, int y, tn_tool tool, tn_error *err)
{
    (void)tool;
    struct tn_wnav *s = nav_of(w);
    if (!s) {
        char why[160];
        off_why(w, why, sizeof why);
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0, "the navmesh is off: %s", why);
    }
    tn_world_character_center(w, &s->sx, &s->sy);
    s->click_x = x;
    s->click_y = y;
    s->gx = ((float)x + 0.5f) * TN_TILE_PX;
    s->gy = ((float)y + 0.5f) * TN_TILE_PX;
    bool block = tn_map_tile(w->map, x, y) == TN_TILE_BLOCK;
    if (block) tn_navmesh_nearest_free(s->mesh, s->gx, s->gy, 0.0f, &s->gx, &s->gy);
    tn_status st = replan_tool_path(s);
    if (tn_failed(st))
        return tn_error_set(err, st, 0, 0, "no navmesh path from the character to tile (%d,%d): %s",
                            x, y,
                            tn_status_detail(st, TN_UNREACHABLE) ? "it is in another region"
                                                                 : "no free space here");
    if (s->partial) { /* as the planners do: as close as it goes, said */
        tn_world_message(w,
                         "navmesh path toward tile (%d,%d): unreachable (%s): it ends at the "
                         "closest place reached, %.1f tiles from it; %d points, %.1f tiles",
                         x, y, unreachable_why(s), s->gap / TN_TILE_PX, s->npath,
                         s->path_len / TN_TILE_PX);
        return tn_error_set(err, st, 0, 0, "%s", tn_world_message_text(w));
    }
    char moved[160];
    moved_note(s, moved, sizeof moved);
    tn_world_message(w, "navmesh path%s: %d points, %.1f tiles, agent radius %.2f%s%s",
                     block ? " to the block's nearest free point" : "", s->npath,
                     s->path_len / TN_TILE_PX, s->agent_radius / TN_TILE_PX, moved[0] ? "; " : "",
                     moved);
    if (moved[0]) return tn_error_set(err, TN_SUCCESS | TN_PARTIAL_RESULT, 0, 0, "%s", moved);
    return TN_OK;
}

/* plan() moves an end closer than the radius to a wall to the nearest
 * point with room for the disc: how far, said ("" when neither end moved
 * MOVE_REPORTED or more; the path ended somewhere else than clicked
 * without a word). */
static void moved_note(const struct tn_wnav *s, char *moved, size_t cap)
{
    moved[0] = '\0';
    const float r = s->agent_radius;
    if (r > 0.0f) {
        const float T = (float)TN_TILE_PX;
        float ex[2] = {s->sx, s->gx}, ey[2] = {s->sy, s->gy};
        for (int k = 0; k < 2; k++) {
            float cx, cy;
            if (!tn_navmesh_nearest_clear(s->mesh, ex[k], ey[k], r, &cx, &cy)) continue;
            double d = hypot((double)cx - ex[k], (double)cy - ey[k]) / T;
            if (d < MOVE_REPORTED) continue;
            size_t len = strlen(moved);
            snprintf(moved + len, cap - len, "%s%s moved %.1f tiles", len ? ", " : "",
                     k ? "goal" : "start", d);
        }
        if (moved[0]) {
            size_t len = strlen(moved);
            snprintf(moved + len, cap - len, " to the nearest point with room for radius %.2f",
                     (double)(r / T));
        }
    }
}

int tn_wnav_json(const tn_world *w, char *buf, size_t cap)
{
    const struct tn_wnav *s = nav_of(w);
    if (!s)
        return snprintf(buf, cap,
                        ",\"navmesh\":{\"triangles\":0,\"regions\":0,"
                        "\"build_ms\":null,\"off\":true}");
    tn_navmesh_view v;
    tn_navmesh_get_view(s->mesh, &v);
    char ms[32];
    if (s->build_ms >= 0)
        snprintf(ms, sizeof ms, "%.3f", s->build_ms);
    else
        snprintf(ms, sizeof ms, "null");
    return snprintf(buf, cap, ",\"navmesh\":{\"triangles\":%d,\"regions\":%d,\"build_ms\":%s}",
                    v.nfree, v.nregions, ms);
}

int tn_wnav_hud(const tn_world *w, char *buf, size_t cap)
{
    const struct tn_wnav *s = nav_of(w);
    if (!s && w->nav_off_mb > 0)
        return snprintf(buf, cap, "navmesh: off (would need about %ld MB)", w->nav_off_mb);
    if (!s && w->nav) return snprintf(buf, cap, "navmesh: off (out of memory)");
    if (!s) return snprintf(buf, cap, "navmesh: off (map larger than %ld tiles)", MAX_NAV_TILES);
    tn_navmesh_view v;
    tn_navmesh_get_view(s->mesh, &v);
    char ms[48] = "";
    if (s->build_ms >= 0)
        snprintf(ms, sizeof ms, ", %s in %.2f ms", v.last_local ? "updated" : "built", s->build_ms);
    char path[112] = "";
    if (s->has_path)
        snprintf(path, sizeof path, " | path %d points%s, %.1f tiles%s", s->npath,
                 s->agent_radius > 0.0f && s->npath > 2 ? " (arcs included)" : "",
                 s->path_len / TN_TILE_PX, s->partial ? " (partial: goal unreachable)" : "");
    return snprintf(buf, cap, "navmesh: %d triangle%s, %d region%s%s%s", v.nfree,
                    v.nfree == 1 ? "" : "s", v.nregions, v.nregions == 1 ? "" : "s", ms, path);
}

void tn_wnav_draw_mesh(const tn_world *w, const tn_debug_draw *dd)
{
    const struct tn_wnav *s = nav_of(w);
    if (!s) return;
    tn_navmesh_draw(s->mesh, dd, 1.0f, TN_NAVDRAW_TRIANGLES | TN_NAVDRAW_OUTLINES);
    tn_navmesh_draw_clearance(s->mesh, dd, 1.0f, s->agent_radius, 0x40c0ffa0u);
}

uint64_t tn_wnav_mesh_key(const tn_world *w)
{
    const struct tn_wnav *s = nav_of(w);
    if (!s) return 0;
    uint32_t r;
    memcpy(&r, &s->agent_radius, sizeof r);
    uint64_t k = (uint64_t)s->uid << 32 | s->revision;
    k ^= (uint64_t)r * 0x9e3779b97f4a7c15u;
    return k ? k : 1; /* never 0 */
}

void tn_wnav_draw(const tn_world *w, const tn_debug_draw *dd, unsigned overlays)
{
    const struct tn_wnav *s = nav_of(w);
    if (!s) return;
    if (overlays & TN_OVERLAY_NAVMESH) {
        if (!(overlays & TN_DRAW_NAVMESH_LAYER_CACHED)) tn_wnav_draw_mesh(w, dd);
        if (s->has_path)
            tn_navmesh_draw_corridor(s->mesh, s->corr, s->ncorr, dd, 1.0f, 0xffe04050u);
    }
    if (s->has_path && ((overlays & TN_OVERLAY_NAVMESH) || w->tool == TN_TOOL_NAVPATH))
        tn_navmesh_draw_path(s->path, s->npath, dd, 1.0f, 0xfff040ffu);
}

tn_status tn_wnav_check(const tn_world *w, tn_error *err)
{
    const struct tn_wnav *s = nav_of(w);
    if (!s) return TN_OK; /* off on a map over MAX_NAV_TILES */
    const tn_map *m = w->map;
    bool any_free = false;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            bool f = tn_map_tile(m, x, y) != TN_TILE_BLOCK;
            any_free |= f;
            if (f != tn_navmesh_tile_free(s->mesh, x, y))
                return tn_error_set(err, TN_FAILURE, 0, 0,
                                    "navmesh: tile (%d,%d) changed since the last build", x, y);
        }
    tn_navmesh_view v;
    tn_navmesh_get_view(s->mesh, &v);
    if (any_free && v.nfree == 0 && !s->build_failed)
        return tn_error_set(err, TN_FAILURE, 0, 0, "navmesh: free tiles but no triangle");
    if (s->has_path) {
        for (int i = 0; i < s->npath; i++) {
            float x = s->path[2 * i], y = s->path[2 * i + 1];
            if (!isfinite(x) || !isfinite(y) || x < 0 || y < 0 || x > m->w * TN_TILE_PX ||
                y > m->h * TN_TILE_PX)
                return tn_error_set(err, TN_FAILURE, 0, 0,
                                    "navmesh: path point %d (%g,%g) is outside the map", i,
                                    (double)x, (double)y);
            if (i > 0 && !tn_navmesh_los(s->mesh, s->path[2 * i - 2], s->path[2 * i - 1], x, y))
                return tn_error_set(err, TN_FAILURE, 0, 0,
                                    "navmesh: path segment %d crosses a block", i - 1);
        }
    }
    return TN_OK;
}
