/* SPDX-License-Identifier: Zlib */
/* internal/float_fields.h - a parameter struct's float fields checked
 * against their ranges, one message for every module (tn_companion.c,
 * tn_wander.c); not installed. */
#ifndef TN_FLOAT_FIELDS_H
#define TN_FLOAT_FIELDS_H

#include "tn_common.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* One float field: its name and unit ("" for none), its value, and its
 * range lo..hi; open: above lo, not at it. */
typedef struct tn_float_field {
    const char *name, *unit;
    float v, lo, hi;
    bool open;
} tn_float_field;

/* TN_OK when every field of f[0..n) is within its range; else the first
 * that is not, as FAILURE | INVALID_PARAM with "MODULE: NAME V UNIT is
 * outside (lo, hi]" (a NaN, which "%g" prints "nan" or "-nan", as "is not
 * a number (NaN)" with the range). */
static inline tn_status tn_float_fields_check(const char *module, const tn_float_field *f, size_t n,
                                              tn_error *err)
{
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    for (size_t i = 0; i < n; i++) {
        const float v = f[i].v;
        const char *sp = f[i].unit[0] ? " " : "", *open = f[i].open ? "(" : "[";
        if (isnan(v))
            return tn_error_set(err, bad, 0, 0,
                                "%s: %s is not a number (NaN); the range is %s%g, %g]%s%s", module,
                                f[i].name, open, (double)f[i].lo, (double)f[i].hi, sp, f[i].unit);
        if (!((f[i].open ? v > f[i].lo : v >= f[i].lo) && v <= f[i].hi))
            return tn_error_set(err, bad, 0, 0, "%s: %s %g%s%s is outside %s%g, %g]", module,
                                f[i].name, (double)v, sp, f[i].unit, open, (double)f[i].lo,
                                (double)f[i].hi);
    }
    return TN_OK;
}

#endif
