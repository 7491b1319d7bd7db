/* SPDX-License-Identifier: Zlib */
/* tn_wnav.h - the world's navigation-mesh part and the
 * queries other parts and the game make through it.
 *
 * The world keeps one tn_navmesh of its map in WORLD PIXELS (tile_size =
 * TN_TILE_PX), sized to the map's content with headroom
 * (tn_navmesh_config_for_map); an edit that outgrows it makes the mesh,
 * its query and buffers again for the new content (the navpath tool's path
 * kept).  Maps above 512x512 tiles get none (every query answers "no",
 * line of sight walks the tiles).  It is built in create and updated after every edit
 * that changes free space (a block placed or removed) by the local rebuild
 * around the tile (tn_navmesh_update_tile, which falls back to a full build
 * near the map's corners); toggling a one-way platform or a mark leaves
 * flyers' free space as it is and skips it.  The time of the last build or
 * update (w->clock, when the front end set one) goes to the HUD and the
 * JSON's build_ms; with no clock the JSON says null (deterministic).
 *
 * Click tool TN_TOOL_NAVPATH: a path for a disc of radius agent_radius (the
 * parameter, tiles; 0 gives the exact any-angle path) from the character's centre to
 * the clicked tile's centre (a block's nearest free point when the tile is a
 * block), kept and drawn, and planned again after each rebuild.  With a
 * radius, a start or goal closer than it to a wall moves to the nearest
 * point with room for the disc; a click that moves one by 0.05 tiles or
 * more says so on the status line and returns SUCCESS | PARTIAL_RESULT
 * with the move in err ("goal moved 3.6 tiles to the nearest point with
 * room for radius 1.00"; scripts warn with it).
 * JSON: ,"navmesh":{"triangles":N,"regions":N,"build_ms":X|null}
 * (free triangles).  HUD: triangles, regions, build time, path.
 * Overlay TN_OVERLAY_NAVMESH: triangles by region, outlines, the corridor
 * and the path (the path is also drawn while the navpath tool is selected).
 *
 * For other parts (agents): line of sight and paths in world pixels,
 * directly or as a tn_agent_nav table.  Queries share one tn_navquery owned
 * here (single-threaded, like the world); tn_wnav_revision() changes with
 * every rebuild so cached paths can be dropped.
 */
#ifndef TN_WNAV_H
#define TN_WNAV_H

#include "tn_navmesh.h"
#include "tn_steer.h"
#include "tn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The world's mesh (pixel units), NULL before the part is created. */
const tn_navmesh *tn_wnav_mesh(const tn_world *w);
/* The shared query object (NULL before creation). */
tn_navquery *tn_wnav_query(tn_world *w);
/* Changes with every rebuild (triangle ids of an older revision, in a
 * recorded search or a corridor, are not this mesh's): a count of the
 * world's builds, going on across map switches (tn_world_replace_map), so
 * no revision of one map's mesh is ever another's. */
uint32_t tn_wnav_revision(const tn_world *w);
/* Incremented by every plan of the navpath tool's path: a click, and the
 * re-plans after a rebuild or an agent radius change. */
uint32_t tn_wnav_tool_plans(const tn_world *w);
/* The tile clicked for the navpath tool's path; false when there is no
 * such path (none clicked, or cut by an edit). */
bool tn_wnav_tool_goal(const tn_world *w, int *tx, int *ty);
/* Search the navpath tool's path again on the current mesh (its start and
 * goal as clicked, the agent radius: the search of its last plan),
 * recording into `trace` (tn_trace.h; NULL: nothing); the tile clicked
 * into *tx, *ty (either may be NULL).  Returns the nodes expanded, -1 when
 * there is no tool path (none clicked, or cut by an edit). */
struct tn_trace;
int tn_wnav_trace_tool_path(tn_world *w, struct tn_trace *trace, int *tx, int *ty);
/* Times the mesh was (re)created to fit the map's content: 1 after create;
 * each edit that outgrew the capacity (outline points + 50%) adds one. */
int tn_wnav_refits(const tn_world *w);

/* Line of sight between two points (pixels).  With
 * no mesh (a map above the navmesh's size) the tiles answer: no block among
 * the tiles the segment passes through (one-way platforms do not block). */
bool tn_wnav_los(const tn_world *w, float ax, float ay, float bx, float by);
/* tn_agent_nav.path semantics: the points after a (corners, then b) into xy,
 * at most cap; returns how many; when b cannot be reached, the path to the
 * closest place that can, its count negated (0: no path at all, a start
 * with no room).  A start inside a block starts from its nearest free
 * point; a goal inside a block is replaced by its nearest free point. */
int tn_wnav_path(tn_world *w, float ax, float ay, float bx, float by, float radius, float *xy,
                 int cap);
/* The agent radius (px; parameter agent_radius, tiles): the radius of the
 * navpath tool's path and of the companion's paths. */
float tn_wnav_agent_radius(const tn_world *w);
/* {user = w, los = tn_wnav_los, path = tn_wnav_path} for agents. */
tn_agent_nav tn_wnav_agent_nav(tn_world *w);

/* ---- this part's parameters (see tn_param_info) ---- */
/* agent_radius is refused (FAILURE | REFUSED, the map's size in the
 * message) on a map with no navmesh: above 1024x1024 tiles, or outlines
 * that would need more than 160 MB (tn_wnav.c, NAV_MEM_MAX). */
tn_status tn_wnav_set_agent_radius(tn_world *w, double value, tn_error *err);
bool tn_wnav_get_agent_radius(const tn_world *w, double *value);
#define TN_WNAV_PARAM_AGENT_RADIUS                                            \
    {                                                                         \
        "agent_radius", 0, 1, 0.3125, false, "tiles",                         \
            "radius of the companion's and the navpath tool's navmesh paths", \
            tn_wnav_set_agent_radius, tn_wnav_get_agent_radius                \
    }

#ifdef __cplusplus
}
#endif

#endif
