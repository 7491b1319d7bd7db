/* fuzz_util.h - shared by the libFuzzer harnesses: CHECK (a failed check is
 * a crash libFuzzer reports with its input) and a counting allocator that
 * lets a harness bound what the code under test asks for. */
#ifndef TN_FUZZ_UTIL_H
#define TN_FUZZ_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "tn_common.h"

#define CHECK(c)                    \
    do {                            \
        if (!(c)) __builtin_trap(); \
    } while (0)

typedef struct counter {
    size_t live, peak, calls;
} counter;

static inline void *count_alloc(void *user, size_t size)
{
    counter *c = user;
    size_t *p = malloc(sizeof(size_t) * 2 + size);
    if (!p) return NULL;
    p[0] = size;
    c->live += size;
    c->calls++;
    if (c->live > c->peak) c->peak = c->live;
    return p + 2;
}

static inline void count_free(void *user, void *ptr)
{
    counter *c = user;
    if (!ptr) return;
    size_t *p = (size_t *)ptr - 2;
    c->live -= p[0];
    free(p);
}

/* The input copied into an exact-size heap block, so ASan sees any read
 * past the end (the copy is deliberately not NUL-terminated); NULL when out
 * of memory. */
static inline char *fuzz_copy(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1);
    if (buf && size) memcpy(buf, data, size);
    return buf;
}

/* A refused input: a failure status, a message that starts with the file
 * name and fits its buffer, and nothing left allocated. */
static inline void check_refusal(const tn_error *err, const char *file, const counter *cnt)
{
    CHECK(tn_failed(err->status));
    CHECK(strncmp(err->msg, file, strlen(file)) == 0 && err->msg[strlen(file)] == ':');
    CHECK(memchr(err->msg, '\0', sizeof err->msg) != NULL);
    CHECK(cnt->live == 0);
}

#endif
