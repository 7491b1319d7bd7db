/* tu_nav.h - helpers for the library's own cmocka suites (and the benches):
 * reading a file, parsing a map from a file or a string, and an allocator
 * that counts.  Library-only: no SDL, no game code.  Include after
 * <cmocka.h> when the map helpers are used (they fail the running test). */
#ifndef TN_TU_NAV_H
#define TN_TU_NAV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_common.h"
#include "tn_map.h"

/* The whole file, NUL-terminated, in a malloc'd buffer (*len without the
 * NUL); NULL when it cannot be read. */
static inline char *tu_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = '\0';
        *len = (size_t)n;
    }
    return b;
}

/* A counting allocator: how many blocks and bytes the library asked for. */
typedef struct tu_counting {
    long allocs, frees;
    size_t bytes;
} tu_counting;

static inline void *tu_count_alloc(void *user, size_t n)
{
    tu_counting *c = user;
    c->allocs++;
    c->bytes += n;
    return malloc(n);
}

static inline void tu_count_free(void *user, void *p)
{
    if (p) ((tu_counting *)user)->frees++;
    free(p);
}

static inline tn_allocator tu_counting_allocator(tu_counting *c)
{
    tn_allocator a = {tu_count_alloc, tu_count_free, c};
    return a;
}

#ifdef cmocka_unit_test
/* A map parsed from `text`; fails the test with the parser's message. */
static inline tn_map *tu_map_text(const char *text)
{
    tn_map *m = NULL;
    tn_error e = {0};
    tn_status s = tn_map_parse(text, strlen(text), "inline", NULL, &m, &e);
    if (tn_failed(s)) fail_msg("%s", e.msg);
    return m;
}

#ifdef TN_ENEMY_H
/* A pool whose enemies all get exactly this speed, offset and scale. */
static inline tn_enemies *tu_pool_fixed(float speed, float offset, int capacity)
{
    tn_enemies_config c = tn_enemies_default_config();
    c.capacity = capacity;
    c.speed_min = c.speed_max = speed;
    c.offset_min = c.offset_max = offset;
    c.scale_min = c.scale_max = 1.0f;
    tn_enemies *p = NULL;
    tn_error e = {0};
    tn_status s = tn_enemies_create(&c, NULL, &p, &e);
    if (tn_failed(s)) fail_msg("%s", e.msg);
    return p;
}
#endif

/* A map file (tests run from the repository root); NULL when it cannot be
 * read (the caller skips or fails), fails the test when it does not parse. */
static inline tn_map *tu_map_file(const char *path)
{
    size_t len = 0;
    char *buf = tu_slurp(path, &len);
    if (!buf) return NULL;
    tn_map *m = NULL;
    tn_error e = {0};
    tn_status s = tn_map_parse(buf, len, path, NULL, &m, &e);
    free(buf);
    if (tn_failed(s)) fail_msg("%s", e.msg);
    return m;
}
#endif

#endif
