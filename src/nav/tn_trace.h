/* SPDX-License-Identifier: Zlib */
/* tn_trace.h - an optional record of a search, event by event, for teaching
 * overlays (replaying how A* explores) and for tests.
 *
 * CONTRACT.  A search that is given a non-NULL tn_trace (tn_path_set_trace,
 * tn_navquery_set_trace) appends one event
 *   - TN_TRACE_OPEN  each time a node is put on the open list (pushed, or
 *                    pushed again / decreased with a better cost);
 *   - TN_TRACE_CLOSE each time a node is taken off the open list and
 *                    expanded; the most recent CLOSE is the search's
 *                    "current" node, so the CLOSE events in order are the
 *                    expansion order;
 *   - TN_TRACE_GOAL  once, when the goal is popped (the search stops);
 * in the order the search does them.  Each search's header says how these
 * counts relate to its own statistics.  Stale heap entries a search skips
 * record nothing.  Positions are in the search's own units: tiles (the
 * node's bottom-left tile, `id` = its jump value) for tn_path; query units
 * (a triangle's centroid, `id` = the triangle) for tn_navquery at radius 0;
 * for a radius query, which searches tangent points around corner circles,
 * the event's tangent point (same units) with `id` = -1.  g and f are
 * the node's cost so far and its key, in the search's cost units.
 *
 * MEMORY.  The caller owns everything: `ev` points at `cap` events
 * (24 bytes each); recording never allocates.  When the buffer is full,
 * further events are counted in `dropped` and not stored, so a replay of a
 * huge search shows its beginning.  tn_trace_reset before each search you
 * want recorded on its own (a search never resets the trace: two searches
 * into one trace append).
 *
 * THREADS AND COST.  A trace belongs to one search at a time.  Recording is
 * a bounds check and a 24-byte store per event, out of line (a demo-map A*
 * query makes a few thousand events, about 100 KB); with no trace (NULL,
 * the default) a search pays one predictable branch per push and pop.
 * `tilenav-bench astar` times the demo map's optimal queries with and
 * without a trace and counts the events per query: its "with a trace" line
 * in docs/bench.md (a traced query costs about 1.3x an untraced one there).
 */
#ifndef TN_TRACE_H
#define TN_TRACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tn_trace_kind {
    TN_TRACE_OPEN = 0,
    TN_TRACE_CLOSE = 1,
    TN_TRACE_GOAL = 2
} tn_trace_kind;

typedef struct tn_trace_event {
    float x, y;   /* position (see above) */
    float g, f;   /* cost so far, key */
    int32_t id;   /* jump value (tn_path); triangle index (navmesh) */
    int32_t kind; /* tn_trace_kind */
} tn_trace_event;

typedef struct tn_trace {
    tn_trace_event *ev; /* caller's buffer of cap events */
    int cap;
    int count;    /* events stored, <= cap */
    long dropped; /* events that did not fit */
} tn_trace;

/* Point a trace at a buffer and empty it. */
static inline void tn_trace_init(tn_trace *t, tn_trace_event *buf, int cap)
{
    t->ev = buf;
    t->cap = buf ? cap : 0;
    t->count = 0;
    t->dropped = 0;
}

static inline void tn_trace_reset(tn_trace *t)
{
    t->count = 0;
    t->dropped = 0;
}

/* Append one event (dropped when full). */
static inline void tn_trace_record(tn_trace *t, tn_trace_kind kind, float x, float y, int id,
                                   float g, float f)
{
    if (t->count >= t->cap) {
        t->dropped++;
        return;
    }
    tn_trace_event *e = &t->ev[t->count++];
    e->x = x;
    e->y = y;
    e->g = g;
    e->f = f;
    e->id = id;
    /* an explicit conversion (the enum may be unsigned: -Wsign-conversion),
     * a C++ one for C++ users who build with -Wold-style-cast */
#ifdef __cplusplus
    e->kind = static_cast<int32_t>(kind);
#else
    e->kind = (int32_t)kind;
#endif
}

#ifdef __cplusplus
}
#endif

#endif
