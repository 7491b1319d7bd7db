/* The front end's map files (src/game/fileio.c): load, atomic save, and the
 * messages for a missing file and a directory. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "tn_map.h"

static void test_file_save_load(void **state)
{
    (void)state;
    char err[512];
    tn_map *m;
    assert_int_equal(tn_load_map("tests/data/small.map", &m, err, sizeof err), 0);
    assert_int_equal(m->w, 12);
    assert_int_equal(m->start_x, 1);
    assert_int_equal(m->start_y, 6);
    char path[] = "/tmp/tn_test_map_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    tn_map_set_tile(m, 5, 2, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
    tn_map *back;
    assert_int_equal(tn_load_map(path, &back, err, sizeof err), 0);
    assert_true(tn_map_equal(m, back));
    tn_map_destroy(back);
    remove(path);
    /* Missing file and directory give clear messages. */
    assert_int_equal(tn_load_map("tests/data/nope.map", &back, err, sizeof err), -1);
    assert_string_equal(err, "tests/data/nope.map: cannot open: No such file or directory");
    assert_int_equal(tn_load_map("tests/data", &back, err, sizeof err), -1);
    assert_string_equal(err, "tests/data: is a directory, not a file");
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_save_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
