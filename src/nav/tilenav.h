/* SPDX-License-Identifier: Zlib */
/* tilenav.h - the whole tilenav library in one include.
 *
 *     #include <tilenav.h>      cc game.c $(pkg-config --cflags --libs tilenav)
 *
 * Each module's header documents its algorithm, units, limits, memory and
 * thread safety; include only the ones you use if you prefer.  The library
 * is pure C11 with C linkage (every header has extern "C" guards), needs
 * nothing but libc and libm, and is zlib-licensed (LICENSE).
 */
#ifndef TILENAV_H
#define TILENAV_H

#include "tn_version.h"
#include "tn_common.h"
#include "tn_rng.h"
#include "tn_debug.h"
#include "tn_map.h"
#include "tn_scen.h"
#include "tn_phys.h"
#include "tn_path.h"
#include "tn_bot.h"
#include "tn_surf.h"
#include "tn_trace.h"
#include "tn_levelgen.h"
#include "tn_flow.h"
#include "tn_enemy.h"
#include "tn_cdt.h"
#include "tn_navmesh.h"
#include "tn_steer.h"
#include "tn_companion.h"
#include "tn_wander.h"

#endif
