/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_common.h"
#include "internal/named_err.h"
#include "internal/phys_diff.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tn_status_str(tn_status s)
{
    /* A success never reads as a failure, whatever detail bits it carries. */
    if ((s & TN_SUCCESS) && !(s & TN_FAILURE)) {
        if (s & TN_PARTIAL_RESULT) {
            if (s & TN_UNREACHABLE) return "partial result: the nearest reachable point";
            if (s & TN_LIMIT_REACHED) return "partial result: search limit reached";
            if (s & TN_BUFFER_TOO_SMALL) return "partial result: buffer too small";
            return "partial result";
        }
        return "success";
    }
    if (s & TN_CANCELLED) return "cancelled";
    if (s & TN_INVALID_PARAM) return "invalid parameter";
    if (s & TN_OUT_OF_MEMORY) return "out of memory";
    if (s & TN_PARSE_ERROR) return "malformed input";
    if (s & TN_BUFFER_TOO_SMALL) return "buffer too small";
    if (s & TN_IO_ERROR) return "input/output error";
    if (s & TN_REFUSED) return "refused";
    if (s & TN_CAPACITY) return "pool full";
    if (s & TN_UNREACHABLE) return "target unreachable";
    if (s & TN_LIMIT_REACHED) return "search limit reached";
    if (s & TN_PARTIAL_RESULT) return "partial result";
    if (s & TN_IN_PROGRESS) return "in progress";
    if (s & TN_FAILURE) return "failure";
    if (s & TN_SUCCESS) return "success";
    return "unknown status";
}

tn_status tn_error_set(tn_error *err, tn_status status, int line, int col, const char *fmt, ...)
{
    if (!err) return status;
    err->status = status;
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return status;
}

size_t tn_name_fit(char *out, size_t cap, const char *name, const char *rest)
{
    if (!out || cap == 0) return 0;
    if (!name) name = "";
    if (!rest) rest = "";
    size_t nl = strlen(name), rl = strlen(rest);
    if (nl + rl < cap) {
        memcpy(out, name, nl);
        memcpy(out + nl, rest, rl + 1);
        return nl + rl;
    }
    if (rl + 3 >= cap) { /* not even REST fits: its start is the most telling */
        snprintf(out, cap, "...%s", rest);
        return strlen(out);
    }
    size_t room = cap - 1 - rl - 3; /* bytes of NAME kept after "..." */
    const char *t = name + nl - room;
    const char *slash = memchr(t, '/', room);
    if (slash)
        t = slash;
    else
        while ((*t & 0xC0) == 0x80) t++; /* a UTF-8 continuation byte */
    snprintf(out, cap, "...%s%s", t, rest);
    return strlen(out);
}

void tn_error_clear(tn_error *err)
{
    if (!err) return;
    err->status = TN_OK;
    err->line = 0;
    err->col = 0;
    err->msg[0] = '\0';
}

void *tn_alloc(const tn_allocator *a, size_t size)
{
    if (size == 0) size = 1;
    void *p = a && a->alloc ? a->alloc(a->user, size) : malloc(size);
    if (p) memset(p, 0, size);
    return p;
}

void *tn_alloc_array(const tn_allocator *a, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    return tn_alloc(a, n * size);
}

void tn_free(const tn_allocator *a, void *ptr)
{
    if (!ptr) return;
    if (a && a->free)
        a->free(a->user, ptr);
    else
        free(ptr);
}

tn_status tn_commoni_error_named(tn_error *err, tn_status st, const char *name, int line, int col,
                                 bool show_col, const char *fmt, ...)
{
    char detail[192], rest[224], msg[TN_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (line > 0 && show_col)
        snprintf(rest, sizeof rest, ":%d:%d: %s", line, col, detail);
    else if (line > 0)
        snprintf(rest, sizeof rest, ":%d: %s", line, detail);
    else
        snprintf(rest, sizeof rest, ": %s", detail);
    tn_name_fit(msg, sizeof msg, name, rest);
    return tn_error_set(err, st, line, col, "%s", msg);
}

void tn_commoni_appendf(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
    if (*n<cap && * n> 0) {
        int k = snprintf(buf + *n, cap - *n, ", ");
        if (k > 0) *n += (size_t)k;
    }
    if (*n < cap) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(buf + *n, cap - *n, fmt, ap);
        va_end(ap);
        if (k > 0) *n += (size_t)k;
    }
    if (*n > cap) *n = cap; /* (cut short: what fits was written) */
}
