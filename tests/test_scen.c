/* Tests for tn_scen: the Moving AI scenario reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_scen.h"
#include "tu_nav.h"

#define MAI_DIR "../shared/data/movingai/"

/* Parse a string; expect success. */
static tn_scen *ok(const char *text)
{
    tn_scen *s = NULL;
    tn_error e = {0};
    tn_status st = tn_scen_parse(text, strlen(text), "t.scen", NULL, &s, &e);
    if (tn_failed(st)) fprintf(stderr, "unexpected error: %s\n", e.msg);
    assert_true(tn_succeeded(st));
    assert_non_null(s);
    return s;
}

/* Parse a string; expect a refusal whose message starts with `prefix` and
 * contains `what`. */
static void bad(const char *text, const char *prefix, const char *what)
{
    tn_scen *s = (tn_scen *)1;
    tn_error e = {0};
    tn_status st = tn_scen_parse(text, strlen(text), "t.scen", NULL, &s, &e);
    if (!tn_failed(st) || strncmp(e.msg, prefix, strlen(prefix)) != 0 || !strstr(e.msg, what))
        fprintf(stderr, "input:\n%s\nmessage: %s\n", text, e.msg);
    assert_true(tn_failed(st));
    assert_null(s);
    assert_true(strncmp(e.msg, prefix, strlen(prefix)) == 0);
    assert_non_null(strstr(e.msg, what));
}

static void test_basic(void **state)
{
    (void)state;
    tn_scen *s = ok("version 1\n"
                    "0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n"
                    "3 dir\\sub\\x.map 10 20 9 19 0 0 3.41421\r\n"
                    "\n"
                    "12  plain.map   5 5   0 0   4 4   5.65685  \n");
    assert_int_equal(s->count, 3);
    assert_int_equal(s->q[0].bucket, 0);
    assert_string_equal(s->q[0].map, "arena.map");
    assert_int_equal(s->q[0].map_w, 49);
    assert_int_equal(s->q[0].sy, 11);
    assert_int_equal(s->q[0].gy, 12);
    assert_true(s->q[0].optimal == 1.0);
    assert_string_equal(s->q[1].map, "x.map");
    assert_int_equal(s->q[1].map_h, 20);
    assert_int_equal(s->q[1].sx, 9);
    assert_true(fabs(s->q[1].optimal - 3.41421) < 1e-12);
    assert_int_equal(s->q[2].bucket, 12);
    assert_string_equal(s->q[2].map, "plain.map");
    tn_scen_destroy(s);

    s = ok("version 1.0\n");
    assert_int_equal(s->count, 0);
    tn_scen_destroy(s);
    s = ok("version 1\n1 a.map 2 2 0 0 1 1 1.4e0"); /* no final newline */
    assert_int_equal(s->count, 1);
    assert_true(fabs(s->q[0].optimal - 1.4) < 1e-12);
    tn_scen_destroy(s);
}

static void test_errors(void **state)
{
    (void)state;
    bad("", "t.scen:1: ", "version");
    bad("\n\n", "t.scen:", "version");
    bad("version 2\n", "t.scen:1: ", "version 1");
    bad("type octile\n", "t.scen:1: ", "version 1");
    bad("version 1 extra\n", "t.scen:1: ", "version 1");
    bad("version 1\n0 a.map 4 4 0 0 1\n", "t.scen:2: ", "9 fields");
    bad("version 1\n0 a.map 4 4 0 0 1 1 1 9\n", "t.scen:2: ", "9 fields");
    bad("version 1\n0 a.map 4 4 0 0 1 1 1\n-1 a.map 4 4 0 0 1 1 1\n", "t.scen:3: ", "bucket");
    bad("version 1\nx a.map 4 4 0 0 1 1 1\n", "t.scen:2: ", "bucket");
    bad("version 1\n0 a.map 0 4 0 0 1 1 1\n", "t.scen:2: ", "map width");
    bad("version 1\n0 a.map 4 99999 0 0 1 1 1\n", "t.scen:2: ", "map height");
    bad("version 1\n0 a.map 4 4 4 0 1 1 1\n", "t.scen:2: ", "start x");
    bad("version 1\n0 a.map 4 4 0 -1 1 1 1\n", "t.scen:2: ", "start y");
    bad("version 1\n0 a.map 4 4 0 0 1.5 1 1\n", "t.scen:2: ", "goal x");
    bad("version 1\n0 a.map 4 4 0 0 1 4 1\n", "t.scen:2: ", "goal y");
    bad("version 1\n0 a.map 4 4 0 0 1 1 -1\n", "t.scen:2: ", "optimal length");
    bad("version 1\n0 a.map 4 4 0 0 1 1 nan\n", "t.scen:2: ", "optimal length");
    bad("version 1\n0 a.map 4 4 0 0 1 1 inf\n", "t.scen:2: ", "optimal length");
    bad("version 1\n0 a.map 4 4 0 0 1 1 1e999\n", "t.scen:2: ", "optimal length");
    bad("version 1\n0 a.map 4 4 0 0 1 1 1.\n1 a.map 4 4 0 0 1 1 .\n",
        "t.scen:3: ", "optimal length");
    bad("version 1\n0 a.map 4 4 0 0 1 1 2e\n", "t.scen:2: ", "optimal length");
    bad("version 1\n0 dir/ 4 4 0 0 1 1 1\n", "t.scen:2: ", "no file name");
    bad("version 1\n0 a.map 4 4 0 0 1 1 1\x01\n", "t.scen:2: ", "control byte");
    bad("version 1\n0 a.map 99999999999999999999 4 0 0 1 1 1\n", "t.scen:2: ", "map width");
    char longname[400];
    memset(longname, 'a', sizeof longname);
    memcpy(longname, "version 1\n0 ", 12);
    longname[12 + 200] = '\0';
    strcat(longname, " 4 4 0 0 1 1 1\n");
    bad(longname, "t.scen:2: ", "map name");

    /* A NUL byte inside the buffer: refused, not read as a terminator. */
    const char nul[] = "version 1\n0 a.map 4 4 0 0 1 1 1\0 junk\n";
    tn_scen *s = NULL;
    tn_error e = {0};
    assert_true(tn_failed(tn_scen_parse(nul, sizeof nul - 1, "t.scen", NULL, &s, &e)));
    assert_null(s);
    assert_non_null(strstr(e.msg, "t.scen:2: control byte"));
    /* Bad arguments. */
    assert_true(tn_failed(tn_scen_parse(NULL, 5, "t.scen", NULL, &s, &e)));
    assert_true(tn_failed(tn_scen_parse("version 1\n", 10, "t.scen", NULL, NULL, &e)));
}

/* Every prefix of a valid file is either accepted or refused with a message:
 * nothing reads past the end (run under ASan to catch that), no crash. */
static void test_truncations(void **state)
{
    (void)state;
    const char *text = "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n"
                       "1 b.map 10 10 9 9 0 0 12.7279\n";
    size_t n = strlen(text);
    for (size_t k = 0; k <= n; k++) {
        char *copy = malloc(k ? k : 1); /* exact size: ASan sees any overrun */
        memcpy(copy, text, k);
        tn_scen *s = NULL;
        tn_error e = {0};
        tn_status st = tn_scen_parse(copy, k, "t.scen", NULL, &s, &e);
        if (tn_succeeded(st)) {
            assert_non_null(s);
            assert_true(s->count >= 0 && s->count <= 2);
            tn_scen_destroy(s);
        } else {
            assert_null(s);
            assert_true(strncmp(e.msg, "t.scen:", 7) == 0);
        }
        free(copy);
    }
}

/* Random byte junk never crashes and every refusal names a line. */
static void test_junk(void **state)
{
    (void)state;
    uint32_t x = 12345;
    for (int round = 0; round < 2000; round++) {
        char b[96];
        size_t n = 1 + (size_t)(round % 95);
        memcpy(b, "version 1\n", 10);
        for (size_t i = 10; i < n; i++) {
            x = x * 1664525u + 1013904223u;
            const char alpha[] = "0123456789 \t\n.-ea/\r";
            b[i] = (round & 1) ? (char)(x >> 24) : alpha[(x >> 24) % (sizeof alpha - 1)];
        }
        char *copy = malloc(n);
        memcpy(copy, b, n);
        tn_scen *s = NULL;
        tn_error e = {0};
        tn_status st = tn_scen_parse(copy, n, "j.scen", NULL, &s, &e);
        if (tn_succeeded(st))
            tn_scen_destroy(s);
        else
            assert_true(strncmp(e.msg, "j.scen:", 7) == 0);
        free(copy);
    }
}

static void test_movingai_files(void **state)
{
    (void)state;
    static const struct {
        const char *file, *map;
        int count, w, h;
    } F[] = {{"arena.map.scen", "arena.map", 160, 49, 49},
             {"den312d.map.scen", "den312d.map", 320, 65, 81},
             {"random512-10-0.map.scen", "random512-10-0.map", 1670, 512, 512}};
    for (int i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, MAI_DIR "%s", F[i].file);
        size_t len = 0;
        char *buf = tu_slurp(path, &len);
        if (!buf) {
            fprintf(stderr, "SKIP test_movingai_files: %s is missing\n", path);
            skip(); /* cmocka: marks the test skipped */
            return;
        }
        tn_scen *s = NULL;
        tn_error e = {0};
        tn_status st = tn_scen_parse(buf, len, path, NULL, &s, &e);
        if (tn_failed(st)) fprintf(stderr, "%s\n", e.msg);
        assert_true(tn_succeeded(st));
        assert_int_equal(s->count, F[i].count);
        for (int k = 0; k < s->count; k++) {
            assert_string_equal(s->q[k].map, F[i].map);
            assert_int_equal(s->q[k].map_w, F[i].w);
            assert_int_equal(s->q[k].map_h, F[i].h);
            assert_true(s->q[k].optimal >= 0.0);
        }
        tn_scen_destroy(s);
        free(buf);
    }
}

/* A leading UTF-8 byte-order mark (an editor's) is skipped, as tn_map_parse
 * skips one; it was refused as "expected 'version 1' as the first line". */
static void test_bom(void **state)
{
    (void)state;
    tn_scen *s = ok("\xEF\xBB\xBFversion 1\n0 m/a.map 5 5 1 2 3 4 2.5\n");
    assert_int_equal(s->count, 1);
    assert_string_equal(s->q[0].map, "a.map");
    tn_scen_destroy(s);
    /* only one mark, and only at the very start */
    bad("\xEF\xBB\xBF\xEF\xBB\xBFversion 1\n", "t.scen:1: ", "expected 'version 1'");
    bad("version 1\n\xEF\xBB\xBF"
        "0 a.map 5 5 1 2 3 4 2\n",
        "t.scen:2: ", "bucket");
}

/* A NULL name: messages start with "scen", the module's name
 * (tn_common.h); they started with "(scen)".  An empty name gives the bare
 * ":2: ..." as tn_map_parse does. */
static void test_null_name(void **state)
{
    (void)state;
    static const char text[] = "version 1\n0 a.map 5 5 1 2 3 4\n";
    const char *names[] = {NULL, ""};
    const char *want[] = {"scen:2: expected", ":2: expected"};
    for (int i = 0; i < 2; i++) {
        tn_scen *s = NULL;
        tn_error e = {0};
        assert_true(tn_failed(tn_scen_parse(text, sizeof text - 1, names[i], NULL, &s, &e)));
        assert_null(s);
        assert_true(strncmp(e.msg, want[i], strlen(want[i])) == 0);
        assert_non_null(strstr(e.msg, "expected 9 fields (bucket map width height sx sy gx gy "
                                      "length), found 8"));
    }
}

/* A NULL output or text is named, as tn_map_parse names it; the message
 * was "scen: no buffer or no output pointer" for either. */
static void test_null_argument_named(void **state)
{
    (void)state;
    tn_scen *s = NULL;
    tn_error e;
    assert_int_equal(tn_scen_parse("version 1\n", 10, NULL, NULL, NULL, &e),
                     TN_FAILURE | TN_INVALID_PARAM);
    assert_string_equal(e.msg, "scen: no output pointer (out NULL)");
    assert_int_equal(tn_scen_parse(NULL, 3, NULL, NULL, &s, &e), TN_FAILURE | TN_INVALID_PARAM);
    assert_null(s);
    assert_string_equal(e.msg, "scen: no text (buf NULL with a length)");
}

/* tn_scen.h's memory figure, by a counting allocator: the struct plus
 * max(count, 1) queries (it said count queries; an empty file has one). */
static void test_memory(void **state)
{
    (void)state;
    const char *texts[3] = {"version 1\n", "version 1\n0 a.map 5 5 1 2 3 4 2\n",
                            "version 1\n0 a.map 5 5 1 2 3 4 2\n1 a.map 5 5 1 2 3 4 2\n"};
    const size_t nq[3] = {1, 1, 2};
    assert_int_equal(sizeof(tn_scen_query), 168);
    for (int i = 0; i < 3; i++) {
        tu_counting c = {0};
        tn_allocator a = tu_counting_allocator(&c);
        tn_scen *s = NULL;
        assert_true(
            tn_succeeded(tn_scen_parse(texts[i], strlen(texts[i]), "t.scen", &a, &s, NULL)));
        assert_int_equal(c.bytes, sizeof(tn_scen) + nq[i] * sizeof(tn_scen_query));
        assert_non_null(s->q);
        tn_scen_destroy(s);
        assert_int_equal(c.allocs, c.frees);
    }
}

/* A long name keeps the line and the problem, shortened to its last
 * components as tn_map_parse does (the message was the name alone, cut at
 * 255 bytes). */
static void test_long_name(void **state)
{
    (void)state;
    char name[400];
    size_t n = (size_t)snprintf(name, sizeof name, "/scen");
    while (n + 20 < sizeof name) n += (size_t)snprintf(name + n, sizeof name - n, "/level");
    snprintf(name + n, sizeof name - n, "/a.scen");
    static const char text[] = "version 1\n0 a.map 5 5 1 2 9 4 2\n";
    tn_scen *s = NULL;
    tn_error e;
    assert_true(tn_failed(tn_scen_parse(text, sizeof text - 1, name, NULL, &s, &e)));
    const char *want = "/level/a.scen:2: goal x '9' is not an integer in 0..4";
    size_t el = strlen(e.msg), wl = strlen(want);
    assert_true(el > wl);
    assert_string_equal(e.msg + el - wl, want);
    assert_memory_equal(e.msg, ".../level/", 10);
    assert_int_equal(e.line, 2);
    assert_true(tn_failed(tn_scen_parse("version 2\n", 10, name, NULL, &s, &e)));
    assert_non_null(strstr(e.msg, "/a.scen:1: expected 'version 1' as the first line"));
    /* a short name is kept whole */
    assert_true(tn_failed(tn_scen_parse(text, sizeof text - 1, "b/a.scen", NULL, &s, &e)));
    assert_string_equal(e.msg, "b/a.scen:2: goal x '9' is not an integer in 0..4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),          cmocka_unit_test(test_errors),
        cmocka_unit_test(test_truncations),    cmocka_unit_test(test_junk),
        cmocka_unit_test(test_movingai_files), cmocka_unit_test(test_bom),
        cmocka_unit_test(test_null_name),      cmocka_unit_test(test_memory),
        cmocka_unit_test(test_long_name),      cmocka_unit_test(test_null_argument_named),
    };
    return cmocka_run_group_tests_name("scen", tests, NULL, NULL);
}
