/* SPDX-License-Identifier: Zlib */
/* internal/phys_diff.h - "gravity 1030 / 2060, tile_px 16 / 32": the
 * fields in which two physics differ, for the messages of tn_bot.c (graph
 * vs character) and tn_surf_io.c (saved vs given); not installed. */
#ifndef TN_PHYS_DIFF_H
#define TN_PHYS_DIFF_H

#include "tn_phys.h"
#include <stddef.h>

/* Everything declared below is library-internal: hidden from the shared
 * library's exports (GCC/Clang; tests/pkg/exports.sh checks). */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* Appends ", " (unless *n is 0) and the formatted text to buf (cap
 * bytes, NUL-terminated, *n its length so far), as much as fits; *n
 * grows by what was written. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void
tn_commoni_appendf(char *buf, size_t cap, size_t *n, const char *fmt, ...);

/* tn_commoni_appendf of each field in which a and b differ, as
 * "NAME A / B": tile_px, jump_height, dt (in s), gravity, max_fall,
 * walk_speed, jump_cut_speed, coyote_frames, in that order. */
void tn_physi_diff(const tn_phys_params *a, const tn_phys_params *b, char *buf, size_t cap,
                   size_t *n);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
