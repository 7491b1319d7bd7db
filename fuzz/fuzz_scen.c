/* fuzz_scen.c - libFuzzer harness for tn_scen_parse (Moving AI .scen).
 *
 * Checks, beyond "no crash, no out-of-bounds read, no leak, no UB":
 *  - a refusal names the input and a line, and frees everything;
 *  - every accepted query is within its own map size, has a NUL-terminated
 *    basename without '/' or '\\', and a finite non-negative length;
 *  - the query array is allocated once, no larger than the input warrants
 *    (at most one query per two input bytes: "version 1" plus lines).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tn_map.h"
#include "tn_scen.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    counter cnt = {0, 0, 0};
    tn_allocator a = {count_alloc, count_free, &cnt};
    char *buf = fuzz_copy(data, size);
    if (!buf) return 0;

    tn_scen *sc = (tn_scen *)0x1;
    tn_error err;
    memset(&err, 0, sizeof err);
    tn_status s = tn_scen_parse(buf, size, "fuzz.scen", &a, &sc, &err);
    if (tn_failed(s)) {
        CHECK(sc == NULL);
        check_refusal(&err, "fuzz.scen", &cnt);
        free(buf);
        return 0;
    }
    CHECK(sc != NULL && sc->count >= 0);
    CHECK((size_t)sc->count <= size / 2 + 1);
    CHECK(cnt.calls <= 2);
    CHECK(cnt.peak <=
          sizeof(tn_scen) + (size_t)(sc->count ? sc->count : 1) * sizeof(tn_scen_query) + 64);
    for (int i = 0; i < sc->count; i++) {
        const tn_scen_query *q = &sc->q[i];
        CHECK(q->bucket >= 0);
        size_t n = strnlen(q->map, TN_SCEN_NAME_MAX);
        CHECK(n > 0 && n < TN_SCEN_NAME_MAX);
        CHECK(!memchr(q->map, '/', n) && !memchr(q->map, '\\', n));
        CHECK(q->map_w >= 1 && q->map_w <= TN_MAP_MAX_SIZE);
        CHECK(q->map_h >= 1 && q->map_h <= TN_MAP_MAX_SIZE);
        CHECK(q->sx >= 0 && q->sx < q->map_w && q->gx >= 0 && q->gx < q->map_w);
        CHECK(q->sy >= 0 && q->sy < q->map_h && q->gy >= 0 && q->gy < q->map_h);
        CHECK(isfinite(q->optimal) && q->optimal >= 0);
    }
    tn_scen_destroy(sc);
    CHECK(cnt.live == 0);
    free(buf);
    return 0;
}
