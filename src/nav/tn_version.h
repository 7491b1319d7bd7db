/* SPDX-License-Identifier: Zlib */
/* tn_version.h - the library's version (semantic versioning: see README).
 *
 * Generated from the file VERSION by `make`: edit VERSION, not this file.
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

#define TN_VERSION_MAJOR 0
#define TN_VERSION_MINOR 2
#define TN_VERSION_PATCH 0
#define TN_VERSION_STRING "0.2.0"
/* One number that compares in #if: MAJOR * 1000000 + MINOR * 1000 + PATCH. */
#define TN_VERSION_NUMBER (TN_VERSION_MAJOR * 1000000L + TN_VERSION_MINOR * 1000L + TN_VERSION_PATCH)

/* The linked library's TN_VERSION_NUMBER and TN_VERSION_STRING. */
unsigned long tn_version(void);
const char *tn_version_string(void);

#ifdef __cplusplus
}
#endif

#endif
