/* SPDX-License-Identifier: Zlib */
/* tn_world_impl.h - the fields of tn_world, for the sandbox's own files
 * (tn_world.c and its parts).  Front ends and tests use the accessors in
 * tn_world.h. */
#ifndef TN_WORLD_IMPL_H
#define TN_WORLD_IMPL_H

#include "tn_world.h"

struct tn_world {
    tn_map *map; /* owned */
    tn_allocator alloc;
    tn_phys_params phys;
    tn_body character;
    tn_input input;    /* the player's keys, read by the next step */
    tn_input bot_keys; /* its bot's keys in the last step (none: the player drove) */
    tn_rng rng;
    uint64_t seed;
    int graph_threads; /* tn_world_config.graph_threads */
    bool graph_bg;     /* tn_world_build_graphs_in_background */
    bool plan_frames;  /* tn_world_plan_budget_per_frame */
    long frame;        /* steps taken */
    tn_tool tool;
    bool dirty; /* edits since the last save */
    int edits, refused_edits;
    /* The map's start tile while an edit covers it with a block or one-way
     * (the map then has no start); the start comes back when that tile is
     * emptied again.  -1,-1 otherwise. */
    int covered_start_x, covered_start_y;
    char message[TN_WORLD_MSG_MAX]; /* last HUD message (longer ones end in "...") */
    int message_ttl;                /* steps left to show it */
    unsigned message_serial;        /* messages set so far (tn_world_message) */
    bool message_refusal;           /* the message says why a click was refused */
    /* Monotonic clock in seconds, set by an interactive front end so
     * parts can time their queries for the HUD.  NULL (the default, and
     * in headless runs) keeps every output deterministic: timings are then
     * reported as null in the JSON. */
    double (*clock)(void);
    /* Items picked up during play: game state, not level content.  The
     * map keeps its '*' marks (saving never loses them); taken[y*w+x] hides
     * one until the tile is edited or the map replaced. */
    uint8_t *taken;
    uint32_t map_serial;    /* maps replaced (tn_world_map_serial) */
    uint32_t nav_revisions; /* navmesh builds on every map (tn_wnav_revision) */
    long nav_off_mb;        /* the navmesh is off for memory: about this many MB */
    int graph_cancels;      /* background graph builds told to stop and stopped
                             * (tn_wbots.c; kept across map replacements) */
    int graph_bg_builds;    /* background graph builds started (tn_wbots.c; */
    int graph_bg_failures;  /* and failed; both kept across map replacements) */

    /* part state, owned by each part's file */
    struct tn_wbots *bots;
    struct tn_wenemies *enemies;
    struct tn_wnav *nav;
    struct tn_wagents *agents;
};

#endif
