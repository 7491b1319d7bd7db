/* SPDX-License-Identifier: Zlib */
#include "tn_version.h"

unsigned long tn_version(void) { return TN_VERSION_NUMBER; }

const char *tn_version_string(void) { return TN_VERSION_STRING; }
