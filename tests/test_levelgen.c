/* Tests for tn_levelgen: the random platformer level generator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tn_levelgen.h"

/* A map whose fields were set by hand, larger than any tn_map_create
 * makes: refused with a message.  It overran the generator's column array
 * (surf[TN_MAP_MAX_SIZE] on the stack) and answered TN_OK. */
static void test_hand_made_map_refused(void **state)
{
    (void)state;
    const int w = TN_MAP_MAX_SIZE + 1, h = 12;
    tn_map m;
    memset(&m, 0, sizeof m);
    m.w = w;
    m.h = h;
    m.start_x = m.start_y = -1;
    m.tile = calloc((size_t)w * h, 1);
    m.mark = calloc((size_t)w * h, 1);
    assert_non_null(m.tile);
    assert_non_null(m.mark);
    tn_rng r;
    tn_rng_seed(&r, 1, 1);
    tn_error e;
    tn_status s = tn_levelgen_platformer(&m, &r, &e);
    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg,
                        "levelgen: a 4097x12 map is larger than 4096x4096 (TN_MAP_MAX_SIZE)");
    for (size_t i = 0; i < (size_t)w * h; i++) assert_int_equal(m.tile[i], TN_TILE_EMPTY);
    free(m.tile);
    free(m.mark);
    /* no arrays */
    m.w = 16;
    m.tile = m.mark = NULL;
    s = tn_levelgen_platformer(&m, &r, &e);
    assert_int_equal(s, TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "levelgen: a 16x12 map without tile arrays (tile or mark NULL)");
}

/* The largest maps still work, the same level for the same seed. */
static void test_largest_width(void **state)
{
    (void)state;
    tn_map *a = NULL, *b = NULL;
    assert_true(tn_succeeded(tn_map_create(TN_MAP_MAX_SIZE, 12, NULL, &a, NULL)));
    assert_true(tn_succeeded(tn_map_create(TN_MAP_MAX_SIZE, 12, NULL, &b, NULL)));
    tn_rng r;
    tn_rng_seed(&r, 5, 0);
    assert_int_equal(tn_levelgen_platformer(a, &r, NULL), TN_OK);
    tn_rng_seed(&r, 5, 0);
    assert_int_equal(tn_levelgen_platformer(b, &r, NULL), TN_OK);
    assert_true(tn_map_equal(a, b));
    assert_true(a->start_x >= 0);
    tn_map_destroy(a);
    tn_map_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made_map_refused),
        cmocka_unit_test(test_largest_width),
    };
    return cmocka_run_group_tests_name("levelgen", tests, NULL, NULL);
}
