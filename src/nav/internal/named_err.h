/* SPDX-License-Identifier: Zlib */
/* internal/named_err.h - a file's error message, for the library's own
 * parsers and writers (tn_map.c, tn_scen.c); not installed. */
#ifndef TN_NAMED_ERR_H
#define TN_NAMED_ERR_H

#include "tn_common.h"

/* Everything declared below is library-internal: hidden from the shared
 * library's exports (GCC/Clang; tests/pkg/exports.sh checks). */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* tn_error_set with the message "NAME:LINE:COL: problem" (show_col),
 * "NAME:LINE: problem", or "NAME: problem" for line 0, NAME shortened by
 * tn_name_fit so that the line and the problem survive a long path; the
 * error's line and column are line and col.  Returns st. */
#if defined(__GNUC__)
__attribute__((format(printf, 7, 8)))
#endif
tn_status
tn_commoni_error_named(tn_error *err, tn_status st, const char *name, int line, int col,
                       bool show_col, const char *fmt, ...);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
