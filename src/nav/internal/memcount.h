/* SPDX-License-Identifier: Zlib */
/* An allocator that counts the bytes it hands out and forwards to the
 * caller's (NULL: malloc/free, as tn_alloc): a create allocates through
 * it, then keeps the count as the object's memory (tn_X_memory).  It lives
 * on the create's stack: the object stores the caller's allocator, never
 * this one. */
#ifndef TN_MEMCOUNT_H
#define TN_MEMCOUNT_H

#include "tn_common.h"

#include <stdlib.h>

typedef struct tn_memcount {
    const tn_allocator *inner;
    size_t bytes;
} tn_memcount;

static void *tn_memcount_alloc_(void *user, size_t size)
{
    tn_memcount *c = user;
    void *p = c->inner && c->inner->alloc ? c->inner->alloc(c->inner->user, size) : malloc(size);
    if (p) c->bytes += size;
    return p;
}

static void tn_memcount_free_(void *user, void *ptr)
{
    tn_memcount *c = user;
    if (c->inner && c->inner->free)
        c->inner->free(c->inner->user, ptr);
    else
        free(ptr);
}

/* The counting allocator over `inner` (c holds the count). */
static inline tn_allocator tn_memcount_wrap(tn_memcount *c, const tn_allocator *inner)
{
    c->inner = inner;
    c->bytes = 0;
    return (tn_allocator){tn_memcount_alloc_, tn_memcount_free_, c};
}

#endif
