/* SPDX-License-Identifier: Zlib */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_version.h"

unsigned long tn_version(void) { return TN_VERSION_NUMBER; }

const char *tn_version_string(void) { return TN_VERSION_STRING; }
