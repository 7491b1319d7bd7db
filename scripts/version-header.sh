#!/bin/sh
# Print src/nav/tn_version.h for the version in the file VERSION.
# Called by make when VERSION changes; the header is checked in so that
# src/nav/ stays self-contained for people who copy it into their game.
# Usage: scripts/version-header.sh VERSION-FILE
set -eu
v=$(tr -d ' \t\r\n' <"${1:-VERSION}")
if ! printf '%s\n' "$v" | grep -Eqx '(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,2})'; then
    echo "${1:-VERSION}: '$v' is not MAJOR.MINOR.PATCH (each 0..999)" >&2
    exit 1
fi
major=${v%%.*}; rest=${v#*.}; minor=${rest%%.*}; patch=${rest#*.}
cat <<H
/* SPDX-License-Identifier: Zlib */
/* tn_version.h - the library's version (semantic versioning: see README).
 *
 * Generated from the file VERSION by \`make\`: edit VERSION, not this file.
 * TN_VERSION_* are the version of the headers you compiled against;
 * tn_version() is the version of the library you linked (with the shared
 * library, the one loaded at run time).  Same MAJOR (same 0.MINOR while
 * MAJOR is 0): same API and ABI.  Thread safety: both functions are pure.
 */
#ifndef TN_VERSION_H
#define TN_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define TN_VERSION_MAJOR $major
#define TN_VERSION_MINOR $minor
#define TN_VERSION_PATCH $patch
#define TN_VERSION_STRING "$v"
/* One number that compares in #if: MAJOR * 1000000 + MINOR * 1000 + PATCH. */
#define TN_VERSION_NUMBER (TN_VERSION_MAJOR * 1000000L + TN_VERSION_MINOR * 1000L + TN_VERSION_PATCH)

/* The linked library's TN_VERSION_NUMBER and TN_VERSION_STRING. */
unsigned long tn_version(void);
const char *tn_version_string(void);

#ifdef __cplusplus
}
#endif

#endif
H
