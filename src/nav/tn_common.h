/* SPDX-License-Identifier: Zlib */
/* tn_common.h - shared vocabulary of the tilenav library: status codes,
 * readable error messages, the caller-owned allocator, and small helpers.
 *
 * Status codes (after Recast/Detour): a tn_status is a 32-bit word whose top
 * bits say FAILURE / SUCCESS / IN_PROGRESS and whose low bits carry detail
 * (why it failed, or that a success is only partial).  Test with
 * tn_failed(s) / tn_succeeded(s) and tn_status_detail(s, TN_PARTIAL_RESULT).
 * tn_status_str() turns any status into a fixed English sentence.
 *
 * Every fallible function takes a `tn_error *` last (NULL = no message).
 * On failure it fills it with a complete human-readable message
 * ("maps/a.map:3:7: unknown tile character 'x'"); on a full success it
 * clears it (status TN_OK, empty msg), so a stale message never survives a
 * later success; a partial success (TN_SUCCESS | TN_PARTIAL_RESULT | why)
 * fills it with what was left out, err->status the same partial status; a
 * sliced query under way (TN_IN_PROGRESS) leaves it empty with that status.
 * A blocked or out-of-map goal is always a failure with a message (a goal
 * of (TN_PATH_EXPLORE, TN_PATH_EXPLORE) in tn_path_find is no goal: it asks
 * for an exploration; any other negative goal is outside the map).
 * A goal that exists but cannot be reached: the planners (tn_path,
 * tn_surf, tn_navquery) answer TN_SUCCESS | TN_PARTIAL_RESULT |
 * TN_UNREACHABLE with the way to the closest place; tn_flow_distance, whose
 * answer is a number with no partial form, TN_FAILURE | TN_UNREACHABLE.
 * Nothing in the library prints, exits or aborts.
 * A NaN argument or parameter is refused with a message naming it as one
 * ("phys: gravity is not a number (NaN)"), never printing its value (which
 * "%g" gives as "nan" or "-nan").
 *
 * Message prefixes: every message starts by saying who speaks, so that a
 * log of err->msg tells which module or which input it is about.
 *  - A message about a named text or data (the `name` given to
 *    tn_map_parse, tn_map_save, tn_scen_parse and tn_surf_load: a file's,
 *    say) starts with that name and its place in it when it has one:
 *    "NAME:LINE:COL: problem", "NAME:LINE: problem", or "NAME: problem"
 *    for the whole ("maps/a.map:3:7: unknown tile character 'x'",
 *    "a.scen:2: expected 9 fields ...", "g.bin: surface graph data: ...").
 *  - Every other message starts with its module's name - the name of the
 *    header declaring the function, without "tn_" and ".h" - and ": ",
 *    the rest in lower case: "path: goal (3,4) is blocked: ...", "surf:"
 *    for all of tn_surf.h (query objects, shortcuts, saves included),
 *    "navmesh:" for the tn_navquery_* functions, "steer:" for tn_grid_*.
 *    The prefixes: bot, cdt, companion, enemy, flow, levelgen, map,
 *    navmesh, path, phys, scen, steer, surf, wander.
 *  - A message passed on unchanged from a module a function called keeps
 *    that module's prefix, which names the module that found the problem
 *    ("path: ..." or "surf: ..." from tn_bot_goto's plan, "phys: ..." from
 *    tn_jump_model_init, "cdt: ..." from tn_navmesh_build).  Prefixes are
 *    never stacked ("bot: path: ..." does not occur).
 *
 * Creation: every object is made by
 *     tn_status tn_X_create(..., const tn_allocator *a, tn_X **out, tn_error *err);
 * *out is NULL on failure; tn_X_destroy(NULL) is a no-op.
 *
 * Memory: every create function takes a `const tn_allocator *`; NULL means
 * malloc/free.  Creation is the only place the library allocates, but for
 * the surface graph's rebuilds, repairs, shortcuts, labels and loads
 * (tn_surf_rebuild, tn_surf_sync / tn_surf_edit, tn_surf_build_shortcuts,
 * tn_surf_build_labels, tn_surf_load: through the graph's allocator, see
 * tn_surf.h MEMORY).  Steps and queries of every module work in memory
 * reserved before (0 allocations, tested), with one exception: a graph
 * query object (tn_surf_query_find, and tn_bot_step planning on one) grows
 * once on its first query after its graph grew (an edit, shortcuts,
 * labels); tn_surf_query_fit does that growth when the caller chooses,
 * off the frame (tn_surf.h QUERY OBJECTS).  There is no global mutable
 * state anywhere in the library.
 *
 * Units and conventions (the same in every module, file format and script):
 *  - tile coordinates: integers x = column from the LEFT, y = row from the
 *    TOP, both from 0 (top-left origin; "up" is -y).  Tile (x, y) is the
 *    plain index y*w + x of tn_map.tile / tn_map.mark.
 *  - tile units: floats in the same frame, tile (x, y) covering
 *    [x, x+1) x [y, y+1), centre (x+.5, y+.5) (flow exits, navmesh and CDT
 *    coordinates).
 *  - pixels: floats, y down.  The platformer modules take pixels per tile
 *    from tn_phys_params.tile_px (default TN_TILE_PX = 16, 4..256): bodies
 *    and physics (tn_phys), the classic planner's jump model (tn_path) and
 *    the bot (tn_bot), so a game with 32-px tiles sets tile_px = 32 with its
 *    own pixel speeds and never converts (power-of-two tile sizes behave
 *    exactly like 16 px scaled).  TN_TILE_PX stays the default and the
 *    demo's tile size, and the pixel unit of the modules that have no tile
 *    size parameter: steering, wander and companion (pixels = tile units x
 *    TN_TILE_PX, so a game with other tiles scales at their boundary).  The
 *    graph planner tn_surf takes tiles of 16 x 2^n px (4..256), exact (it
 *    builds with the physics scaled to 16 px; tn_surf.h UNITS).  Flow
 *    fields and the navmesh work in tiles or tile units (navmesh: times its
 *    own config.tile_size).
 *  - padded indices: tn_flow stores a one-tile wall ring around the board,
 *    index (y+1)*stride + (x+1) (tn_flow_index); only tn_flow's arrays use
 *    them.  Everything else takes plain (x, y) or y*w + x.
 *  - time: fixed steps of 1/60 s unless a parameter says otherwise.
 *  - memory sizes in every header and in `make bench`'s tables: KB = 1024
 *    bytes, MB = 1024 x 1024 bytes (KiB / MiB).
 *
 * Thread safety (every module): no global state, so distinct objects may be
 * used from distinct threads freely.  Functions taking a `const` object only
 * read it: any number of threads may call them at once on one object while
 * no thread modifies it (e.g. one tn_map and one tn_flow shared read-only,
 * one tn_path per thread; tested under ThreadSanitizer, tests/test_threads.c).
 * An object passed non-const (queries that use its scratch memory included)
 * belongs to one thread at a time.
 */
#ifndef TN_COMMON_H
#define TN_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t tn_status;

/* High bits: what happened. */
#define TN_FAILURE (1u << 31)
#define TN_SUCCESS (1u << 30)
#define TN_IN_PROGRESS (1u << 29)
/* Detail bits. */
#define TN_INVALID_PARAM (1u << 0)    /* an argument was out of range */
#define TN_OUT_OF_MEMORY (1u << 1)    /* an allocation failed */
#define TN_PARSE_ERROR (1u << 2)      /* malformed input text */
#define TN_BUFFER_TOO_SMALL (1u << 3) /* result truncated / did not fit */
#define TN_PARTIAL_RESULT (1u << 4)   /* success, but only part of the request */
#define TN_UNREACHABLE (1u << 5)      /* the target cannot be reached */
#define TN_LIMIT_REACHED (1u << 6)    /* a search or size limit was hit */
#define TN_REFUSED (1u << 7)          /* an edit was refused by a rule */
#define TN_CAPACITY (1u << 8)         /* a fixed-capacity pool is full */
#define TN_IO_ERROR (1u << 9)         /* reading or writing a file failed */
#define TN_CANCELLED (1u << 10)       /* the caller's cancel callback stopped it */

/* No cast: TN_SUCCESS is an unsigned int constant, which converts to
 * tn_status as it is (a C cast here warned in C++ under -Wold-style-cast). */
#define TN_OK TN_SUCCESS

static inline bool tn_failed(tn_status s) { return (s & TN_FAILURE) != 0; }
static inline bool tn_succeeded(tn_status s) { return (s & TN_SUCCESS) != 0; }
static inline bool tn_status_detail(tn_status s, uint32_t bit) { return (s & bit) != 0; }

/* A fixed sentence for the most important detail bit of `s`. */
const char *tn_status_str(tn_status s);

/* A message for the caller to show; always NUL-terminated. */
#define TN_ERROR_MSG_MAX 256
typedef struct tn_error {
    tn_status status;
    int line; /* 1-based line of the input, 0 when not about a line */
    int col;  /* 1-based column, 0 when not about a column */
    char msg[TN_ERROR_MSG_MAX];
} tn_error;

/* Fill `err` (may be NULL) with a printf-style message; returns `status`. */
tn_status tn_error_set(tn_error *err, tn_status status, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Reset `err` (may be NULL) to success with an empty message. */
void tn_error_clear(tn_error *err);

/* NAME followed by REST (such as ":6:3: row 3 has 2 characters") into out
 * (cap bytes, always NUL-terminated).  When the whole does not fit, NAME
 * is shortened to "..." and its last bytes, from a '/' when one is among
 * them (its last components), never cutting a UTF-8 character, so that
 * REST (the line, column and problem) survives whole; REST itself is cut
 * only when even "..." and REST do not fit.  Returns strlen(out). */
size_t tn_name_fit(char *out, size_t cap, const char *name, const char *rest);

/* Caller-owned memory.  All functions receive `user`. */
typedef struct tn_allocator {
    void *(*alloc)(void *user, size_t size); /* like malloc; may return NULL */
    void (*free)(void *user, void *ptr);     /* like free; ptr may be NULL */
    void *user;
} tn_allocator;

/* Allocation through `a` (NULL = malloc/free).  Zero-filled. */
void *tn_alloc(const tn_allocator *a, size_t size);
/* n * size with overflow check; NULL on overflow. */
void *tn_alloc_array(const tn_allocator *a, size_t n, size_t size);
void tn_free(const tn_allocator *a, void *ptr);

static inline int tn_mini(int a, int b) { return a < b ? a : b; }
static inline int tn_maxi(int a, int b) { return a > b ? a : b; }
static inline int tn_clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
static inline float tn_minf(float a, float b) { return a < b ? a : b; }
static inline float tn_maxf(float a, float b) { return a > b ? a : b; }
static inline float tn_clampf(float v, float lo, float hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

#ifdef __cplusplus
}
#endif

#endif
