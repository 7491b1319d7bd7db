/* test_tiled.c - Tiled maps: the fixtures in tests/data/tiled/ load as the
 * maps make_fixtures.py wrote independently (NAME.expect.map); load, save,
 * load gives the same map with and without edits, in the same and in
 * another directory; what the game does not own is kept; new documents;
 * every kind of bad input is refused with its message. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cJSON.h>
#include <libxml/parser.h>
#include <libxml/xmlmemory.h>
#include <libxml/tree.h>
#include <zlib.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "tiled.h"
#include "testutil.h"

static const char *const FIXTURES[] = {"a.tmx", "b.tmj", "c.tmx", "d.tmj", "e.tmx"};
#define NFIX (sizeof FIXTURES / sizeof FIXTURES[0])

static char *slurp(const char *path, size_t *len)
{
    char *buf, err[512];
    size_t n;
    if (tn_read_file(path, 1u << 26, &buf, &n, err, sizeof err) != 0) fail_msg("%s", err);
    if (len) *len = n;
    return buf;
}

static void copy_file(const char *from, const char *to)
{
    size_t n;
    char *b = slurp(from, &n);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
    free(b);
}

/* A scratch directory holding copies of the fixtures and their tilesets. */
static void scratch(char *dir)
{
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    const char *files[] = {"a.tmx", "b.tmj",       "c.tmx",      "d.tmj",
                           "e.tmx", "fixture.tsx", "fixture.tsj"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char a[512], b[512];
        snprintf(a, sizeof a, "tests/data/tiled/%s", files[i]);
        snprintf(b, sizeof b, "%s/%s", dir, files[i]);
        copy_file(a, b);
    }
}

static void rm_scratch(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static tn_map *expected(const char *fixture)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/tiled/%.*s.expect.map",
             (int)(strchr(fixture, '.') - fixture), fixture);
    return tu_load_map(path);
}

static void test_fixtures_load(void **state)
{
    (void)state;
    for (size_t i = 0; i < NFIX; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/tiled/%s", FIXTURES[i]);
        tn_map *m = tu_load_map(path), *want = expected(FIXTURES[i]);
        if (!tn_map_equal(m, want)) fail_msg("%s does not load as its .expect.map", path);
        tn_map_destroy(m);
        tn_map_destroy(want);
    }
}

static void test_demo_tmx_equals_map(void **state)
{
    (void)state;
    tn_map *a = tu_load_map("maps/demo.tmx"), *b = tu_load_map("maps/demo.map");
    assert_true(tn_map_equal(a, b));
    assert_int_equal(tn_map_count_marks(a, TN_MARK_SPAWN), 3);
    tn_map_destroy(a);
    tn_map_destroy(b);
}

/* The document as libxml2 / cJSON prints it (a semantic fingerprint). */
static char *canonical(const char *path)
{
    size_t n;
    char *buf = slurp(path, &n), *out;
    if (tn_tiled_kind(path) == TN_TILED_TMX) {
        xmlDocPtr d = xmlReadMemory(buf, (int)n, NULL, NULL, XML_PARSE_NONET);
        assert_non_null(d);
        xmlChar *mem;
        int size;
        xmlDocDumpMemory(d, &mem, &size);
        out = strdup((const char *)mem);
        xmlFree(mem);
        xmlFreeDoc(d);
    } else {
        cJSON *j = cJSON_Parse(buf);
        assert_non_null(j);
        out = cJSON_PrintUnformatted(j);
        cJSON_Delete(j);
    }
    free(buf);
    return out;
}

/* Unchanged maps save as the same document (same directory: no path is
 * rewritten), and load equal. */
static void test_round_trip_unchanged(void **state)
{
    (void)state;
    char dir[64];
    scratch(dir);
    for (size_t i = 0; i < NFIX; i++) {
        char src[256], dst[256], err[512];
        snprintf(src, sizeof src, "%s/%s", dir, FIXTURES[i]);
        snprintf(dst, sizeof dst, "%s/saved-%s", dir, FIXTURES[i]);
        tn_map *m = tu_load_map(src);
        if (tn_save_map_as(m, dst, src, err, sizeof err) != 0) fail_msg("%s", err);
        tn_map *back = tu_load_map(dst);
        assert_true(tn_map_equal(m, back));
        char *a = canonical(src), *b = canonical(dst);
        if (strcmp(a, b) != 0)
            fail_msg("%s: saving without edits changed the document", FIXTURES[i]);
        free(a);
        free(b);
        if (tn_tiled_kind(src) == TN_TILED_TMX) { /* Tiled's own layout: byte for byte */
            size_t na, nb;
            char *ra = slurp(src, &na), *rb = slurp(dst, &nb);
            if (na != nb || memcmp(ra, rb, na) != 0)
                fail_msg("%s: the saved file differs in bytes", FIXTURES[i]);
            free(ra);
            free(rb);
        }
        tn_map_destroy(m);
        tn_map_destroy(back);
    }
    rm_scratch(dir);
}

/* The text content of the <data> of the TMX layer `name`. */
static char *tmx_layer_data(const char *path, const char *name)
{
    size_t n;
    char *buf = slurp(path, &n), *out = NULL;
    xmlDocPtr d = xmlReadMemory(buf, (int)n, NULL, NULL, XML_PARSE_NONET);
    assert_non_null(d);
    for (xmlNodePtr l = xmlDocGetRootElement(d)->children; l; l = l->next) {
        if (l->type != XML_ELEMENT_NODE || strcmp((const char *)l->name, "layer") != 0) continue;
        xmlChar *nm = xmlGetProp(l, (const xmlChar *)"name");
        if (nm && strcmp((const char *)nm, name) == 0) {
            xmlChar *c = xmlNodeGetContent(l);
            out = strdup((const char *)c);
            xmlFree(c);
        }
        xmlFree(nm);
    }
    xmlFreeDoc(d);
    free(buf);
    return out;
}

/* Edits every kind of change: terrain both ways (also under decoration
 * and, in the infinite maps, outside every chunk of the terrain layer),
 * marks removed, moved and added, the start moved. */
static void edit(tn_map *m)
{
    tn_map_set_tile(m, 3, 5, TN_TILE_EMPTY, NULL);  /* one-way -> empty */
    tn_map_set_tile(m, 4, 5, TN_TILE_BLOCK, NULL);  /* one-way -> block */
    tn_map_set_tile(m, 9, 3, TN_TILE_ONEWAY, NULL); /* empty -> one-way */
    tn_map_set_tile(m, 10, 3, TN_TILE_BLOCK, NULL);
    tn_map_set_tile(m, 0, 4, TN_TILE_EMPTY, NULL);  /* block -> empty */
    tn_map_set_tile(m, 2, 3, TN_TILE_ONEWAY, NULL); /* in d.tmj: where "walls" has no chunk */
    tn_map_set_tile(m, 3, 2, TN_TILE_BLOCK, NULL);
    for (int i = 0; i < m->w * m->h; i++) /* the first mark goes */
        if (m->mark[i] != TN_MARK_NONE) {
            m->mark[i] = TN_MARK_NONE;
            break;
        }
    tn_map_set_mark(m, 6, 2, TN_MARK_ITEM, NULL);
    tn_map_set_mark(m, 7, 2, TN_MARK_DEST, NULL);
    tn_map_set_mark(m, 8, 1, TN_MARK_SPAWN, NULL);
    m->start_x = 11;
    m->start_y = 1;
}

static bool file_has(const char *path, const char *text)
{
    char *b = slurp(path, NULL);
    bool yes = strstr(b, text) != NULL;
    free(b);
    return yes;
}

static void test_round_trip_edits(void **state)
{
    (void)state;
    char dir[64];
    scratch(dir);
    for (size_t i = 0; i < NFIX; i++) {
        char src[256], err[512];
        snprintf(src, sizeof src, "%s/%s", dir, FIXTURES[i]);
        tn_map *m = tu_load_map(src);
        edit(m);
        if (tn_save_map(m, src, err, sizeof err) != 0)
            fail_msg("%s", err); /* Ctrl+S: the same file */
        tn_map *back = tu_load_map(src);
        if (!tn_map_equal(m, back))
            fail_msg("%s: edits do not survive load, save, load", FIXTURES[i]);
        /* and again, from the saved file: nothing drifts */
        if (tn_save_map(back, src, err, sizeof err) != 0) fail_msg("%s", err);
        tn_map *again = tu_load_map(src);
        assert_true(tn_map_equal(m, again));
        tn_map_destroy(m);
        tn_map_destroy(back);
        tn_map_destroy(again);
    }
    /* What the game does not own is still there. */
    char p[256];
    snprintf(p, sizeof p, "%s/a.tmx", dir);
    const char *kept_a[] = {"cave.ogg",       "name=\"trigger\" type=\"door\"",
                            "level2",         "sky.png",
                            "name=\"solid\"", "opacity=\"0.5\"",
                            "other.png",      "source=\"fixture.tsx\"",
                            "<group id=\"5\""};
    for (size_t i = 0; i < sizeof kept_a / sizeof *kept_a; i++)
        if (!file_has(p, kept_a[i])) fail_msg("a.tmx lost '%s'", kept_a[i]);
    assert_true(file_has(p, "type=\"item\"")); /* a Tiled 1.8 file keeps 'type' */
    assert_false(file_has(p, "class=\""));
    char *dec0 = tmx_layer_data("tests/data/tiled/a.tmx", "decor"),
         *dec1 = tmx_layer_data(p, "decor");
    assert_non_null(dec0);
    assert_string_equal(dec0, dec1); /* decoration is not terrain */
    free(dec0);
    free(dec1);
    snprintf(p, sizeof p, "%s/b.tmj", dir);
    assert_true(file_has(p, "\"hello\""));
    assert_true(file_has(p, "\"author\""));
    assert_true(file_has(p, "\"class\":\t\"sign\""));
    assert_true(file_has(p, "\"compression\":\t\"zlib\""));
    snprintf(p, sizeof p, "%s/c.tmx", dir);
    assert_true(file_has(p, "<polyline"));
    assert_true(file_has(p, "compression=\"gzip\""));
    assert_true(file_has(p, "<chunksize"));
    rm_scratch(dir);
}

/* Saved into another directory, relative tileset paths still point at
 * the tilesets. */
static void test_save_elsewhere(void **state)
{
    (void)state;
    char dir[64];
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < NFIX; i++) {
        char src[256], dst[256], err[512];
        snprintf(src, sizeof src, "tests/data/tiled/%s", FIXTURES[i]);
        snprintf(dst, sizeof dst, "%s/%s", dir, FIXTURES[i]);
        tn_map *m = tu_load_map(src);
        edit(m);
        if (tn_save_map_as(m, dst, src, err, sizeof err) != 0) fail_msg("%s", err);
        tn_map *back = tu_load_map(dst);
        assert_true(tn_map_equal(m, back));
        tn_map_destroy(m);
        tn_map_destroy(back);
    }
    char p[256], cwd[1024];
    snprintf(p, sizeof p, "%s/a.tmx", dir);
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_false(file_has(p, "source=\"fixture.tsx\""));
    assert_true(file_has(p, "tests/data/tiled/fixture.tsx\""));
    rm_scratch(dir);
}

/* Saved through a symbolic link in another directory: the file written is
 * the link's target, so relative paths stay relative to the target's
 * directory (not rewritten for the link's). */
static void test_save_through_link(void **state)
{
    (void)state;
    char dir[64], a[256], sub[256], link[256], err[512];
    scratch(dir);
    snprintf(a, sizeof a, "%s/a.tmx", dir);
    snprintf(sub, sizeof sub, "%s/links", dir);
    snprintf(link, sizeof link, "%s/links/a.tmx", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(symlink(a, link), 0);
    tn_map *m = tu_load_map(a);
    edit(m);
    if (tn_save_map_as(m, link, a, err, sizeof err) != 0) fail_msg("%s", err);
    if (!file_has(a, "source=\"fixture.tsx\""))
        fail_msg("a.tmx saved through links/a.tmx: its tileset path was rewritten");
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    tn_map *back = tu_load_map(a), *via = tu_load_map(link);
    assert_true(tn_map_equal(m, back));
    assert_true(tn_map_equal(m, via));
    tn_map_destroy(m);
    tn_map_destroy(back);
    tn_map_destroy(via);
    rm_scratch(dir);
}

/* A save patches the document of the map being saved, whatever other
 * Tiled maps were loaded after it (the start-up check of the picker's
 * maps, Tab): never another map's author, tilesets or objects, and never a
 * new document because another map has another size. */
static void test_save_own_document(void **state)
{
    (void)state;
    char dir[64], a[256], twin[256], c[256], err[512];
    scratch(dir);
    snprintf(a, sizeof a, "%s/a.tmx", dir);
    snprintf(twin, sizeof twin, "%s/twin.tmx", dir);
    snprintf(c, sizeof c, "%s/c.tmx", dir);
    /* twin.tmx: a.tmx's size, other music */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sed 's/cave\\.ogg/bird.ogg/' '%s' > '%s'", a, twin);
    assert_int_equal(system(cmd), 0);
    assert_true(file_has(twin, "bird.ogg"));
    tn_map *m = tu_load_map(a);
    for (int k = 0; k < 2; k++) {
        tn_map *x = tu_load_map(k ? c : twin); /* loaded after a.tmx */
        tn_map_destroy(x);
        edit(m);
        if (k ? tn_save_map_as(m, a, a, err, sizeof err) : tn_save_map(m, a, err, sizeof err))
            fail_msg("%s", err);
        if (!file_has(a, "cave.ogg") || file_has(a, "bird.ogg") || file_has(a, "\"tilenav\""))
            fail_msg("a.tmx was saved with another map's document (after loading %s)",
                     k ? "c.tmx, of another size" : "twin.tmx");
        tn_map *back = tu_load_map(a);
        assert_true(tn_map_equal(m, back));
        tn_map_destroy(back);
    }
    tn_map_destroy(m);
    rm_scratch(dir);
}

static void write_bytes(const char *path, const char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
}

/* A file edited on disk (in Tiled) since the game loaded it is never
 * overwritten by a save over it: same size or not, the save is refused and
 * the file keeps every byte; a save elsewhere works, and after loading the
 * file again, saves over it work again (one after the other too). */
static void test_changed_on_disk(void **state)
{
    (void)state;
    char dir[64];
    scratch(dir);
    const char *names[] = {"a.tmx", "b.tmj"};
    for (int i = 0; i < 2; i++)
        for (int same_size = 0; same_size < 2; same_size++) {
            char p[256], other[256], err[512];
            snprintf(p, sizeof p, "%s/%s", dir, names[i]);
            snprintf(other, sizeof other, "%s/other-%s", dir, names[i]);
            tn_map *m = tu_load_map(p);
            size_t n;
            char *b = slurp(p, &n);
            char *ws = strchr(b, '\n');
            assert_non_null(ws);
            char *changed = malloc(n + 2);
            memcpy(changed, b, n);
            size_t cn = n;
            if (same_size)
                changed[ws - b] = ' '; /* one blank for another */
            else
                changed[cn++] = '\n';
            write_bytes(p, changed, cn);
            edit(m);
            int rc = tn_save_map(m, p, err, sizeof err);
            if (rc != TN_SAVE_CHANGED) fail_msg("%s: saved over a changed file (%d)", p, rc);
            char want[600];
            snprintf(want, sizeof want,
                     "%s changed on disk since it was loaded (edited in Tiled or another "
                     "editor?): not overwritten; save under another name (script: save OTHER) or "
                     "reload it (Ctrl+R)",
                     p);
            assert_string_equal(err, want);
            size_t now_n;
            char *now = slurp(p, &now_n);
            assert_true(now_n == cn && memcmp(now, changed, cn) == 0);
            free(now);
            /* elsewhere: fine */
            if (tn_save_map_as(m, other, p, err, sizeof err) != 0) fail_msg("%s", err);
            tn_map *back = tu_load_map(other);
            assert_true(tn_map_equal(back, m));
            tn_map_destroy(back);
            /* loaded again: saves over it work, twice in a row */
            tn_map_destroy(m);
            m = tu_load_map(p);
            edit(m);
            if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
            tn_map_set_tile(m, 12, 1, TN_TILE_BLOCK, NULL);
            if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
            back = tu_load_map(p);
            assert_true(tn_map_equal(back, m));
            tn_map_destroy(back);
            tn_map_destroy(m);
            free(changed);
            free(b);
        }
    rm_scratch(dir);
}

/* The gids of the CSV layer named `name` in the .tmx at path, into g[n]. */
static void layer_gids(const char *path, const char *name, unsigned *g, int n)
{
    xmlDocPtr x = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(x);
    bool found = false;
    for (xmlNodePtr l = xmlDocGetRootElement(x)->children; l; l = l->next) {
        if (l->type != XML_ELEMENT_NODE || strcmp((const char *)l->name, "layer") != 0) continue;
        xmlChar *ln = xmlGetProp(l, (const xmlChar *)"name");
        bool match = ln && strcmp((const char *)ln, name) == 0;
        xmlFree(ln);
        if (!match) continue;
        for (xmlNodePtr dnode = l->children; dnode; dnode = dnode->next) {
            if (dnode->type != XML_ELEMENT_NODE) continue;
            xmlChar *t = xmlNodeGetContent(dnode);
            const char *p = (const char *)t;
            for (int i = 0; i < n; i++) {
                char *e;
                g[i] = (unsigned)strtoul(p, &e, 10);
                assert_true(e != p);
                p = e + strspn(e, ", \n");
            }
            xmlFree(t);
            found = true;
        }
    }
    xmlFreeDoc(x);
    assert_true(found);
}

/* text with every "\n" as "\r\n" (malloc'd; *n in and out) */
static char *to_crlf(const char *text, size_t *n)
{
    char *out = malloc(2 * *n + 1);
    assert_non_null(out);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        if (text[i] == '\n') out[k++] = '\r';
        out[k++] = text[i];
    }
    out[k] = '\0';
    *n = k;
    return out;
}

/* A file with CRLF line endings (a Windows checkout, an editor's) is saved
 * with CRLF line endings: byte for byte what the same file with LF endings
 * saves to, each LF a CRLF, so a diff shows only the lines the edit
 * changed (a playtest: every line of a CRLF .tmx came back LF, all of them
 * changed in git).  Saved again, and saved elsewhere, it stays CRLF. */
static void test_save_keeps_crlf(void **state)
{
    (void)state;
    char dir[64];
    scratch(dir);
    for (size_t i = 0; i < NFIX; i++) {
        char lf[256], crlf[256], other[256], err[512];
        snprintf(lf, sizeof lf, "%s/%s", dir, FIXTURES[i]);
        snprintf(crlf, sizeof crlf, "%s/crlf-%s", dir, FIXTURES[i]);
        snprintf(other, sizeof other, "%s/other-%s", dir, FIXTURES[i]);
        size_t n;
        char *text = slurp(lf, &n);
        assert_null(memchr(text, '\r', n)); /* (the fixtures are LF) */
        char *c = to_crlf(text, &n);
        write_bytes(crlf, c, n);
        free(c);
        free(text);
        tn_map *a = tu_load_map(lf), *b = tu_load_map(crlf);
        edit(a);
        edit(b);
        if (tn_save_map(a, lf, err, sizeof err) != 0) fail_msg("%s", err);
        if (tn_save_map(b, crlf, err, sizeof err) != 0) fail_msg("%s", err);
        size_t na, nb;
        char *sa = slurp(lf, &na), *sb = slurp(crlf, &nb);
        char *want = to_crlf(sa, &na);
        if (na != nb || memcmp(want, sb, na) != 0)
            fail_msg("%s: the CRLF file's save is not the LF file's save in CRLF (%zu, %zu bytes)",
                     FIXTURES[i], na, nb);
        free(want);
        free(sa);
        free(sb);
        /* the saved file loads as the map, saves again in CRLF, and a save
         * elsewhere from it is CRLF too */
        tn_map *back = tu_load_map(crlf);
        assert_true(tn_map_equal(back, b));
        tn_map_set_tile(back, 1, 1, TN_TILE_BLOCK, NULL);
        if (tn_save_map(back, crlf, err, sizeof err) != 0) fail_msg("%s", err);
        if (tn_save_map_as(back, other, crlf, err, sizeof err) != 0) fail_msg("%s", err);
        const char *files[] = {crlf, other};
        for (int k = 0; k < 2; k++) {
            char *t = slurp(files[k], &n);
            for (size_t j = 0; j < n; j++)
                if (t[j] == '\n' && (j == 0 || t[j - 1] != '\r'))
                    fail_msg("%s: a bare LF at byte %zu", files[k], j);
            free(t);
        }
        tn_map_destroy(a);
        tn_map_destroy(b);
        tn_map_destroy(back);
    }
    rm_scratch(dir);
}

/* text with its first "\n" as `first` and every later one as `rest`
 * (malloc'd; *n in and out) */
static char *rebreak(const char *text, size_t *n, const char *first, const char *rest)
{
    char *out = malloc(2 * *n + 1);
    assert_non_null(out);
    size_t k = 0;
    bool seen = false;
    for (size_t i = 0; i < *n; i++) {
        if (text[i] != '\n') {
            out[k++] = text[i];
            continue;
        }
        const char *b = seen ? rest : first;
        seen = true;
        memcpy(out + k, b, strlen(b));
        k += strlen(b);
    }
    out[k] = '\0';
    *n = k;
    return out;
}

/* A file's line breaks are kept as it has most of them: CR-only (an old
 * Mac file) was saved with LF, every line changed; a mixed file followed
 * its first break, so a CRLF file whose first line alone ended in LF came
 * back all LF (and a LF file whose first line ended in CRLF all CRLF).
 * Each save is byte for byte the LF file's save, its LFs as the majority's
 * break. */
static void test_save_keeps_line_breaks(void **state)
{
    (void)state;
    char dir[64];
    scratch(dir);
    const struct {
        const char *name, *first, *rest, *want;
    } kinds[] = {
        {"cr", "\r", "\r", "\r"},
        {"mixed-crlf", "\n", "\r\n", "\r\n"}, /* LF first, CRLF after: CRLF */
        {"mixed-lf", "\r\n", "\n", "\n"},     /* CRLF first, LF after: LF */
        {"mixed-cr", "\n", "\r", "\r"},       /* LF first, CR after: CR */
    };
    for (size_t i = 0; i < NFIX; i++) {
        char lf[256], err[512];
        snprintf(lf, sizeof lf, "%s/%s", dir, FIXTURES[i]);
        size_t n;
        char *text = slurp(lf, &n);
        assert_null(memchr(text, '\r', n)); /* (the fixtures are LF) */
        tn_map *a = tu_load_map(lf);
        edit(a);
        if (tn_save_map(a, lf, err, sizeof err) != 0) fail_msg("%s", err);
        size_t na;
        char *sa = slurp(lf, &na);
        assert_null(memchr(sa, '\r', na));
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            char path[256];
            snprintf(path, sizeof path, "%s/%s-%s", dir, kinds[k].name, FIXTURES[i]);
            size_t nc = n;
            char *c = rebreak(text, &nc, kinds[k].first, kinds[k].rest);
            write_bytes(path, c, nc);
            free(c);
            tn_map *b = tu_load_map(path);
            tn_map *e = expected(FIXTURES[i]); /* it loads as the LF file */
            assert_true(tn_map_equal(b, e));
            tn_map_destroy(e);
            edit(b);
            if (tn_save_map(b, path, err, sizeof err) != 0) fail_msg("%s", err);
            size_t nw = na, nb;
            char *want = rebreak(sa, &nw, kinds[k].want, kinds[k].want);
            char *sb = slurp(path, &nb);
            if (nw != nb || memcmp(want, sb, nw) != 0)
                fail_msg("%s (%s): the save is not the LF file's save with %s breaks (%zu, %zu "
                         "bytes)",
                         FIXTURES[i], kinds[k].name,
                         kinds[k].want[0] == '\n' ? "LF"
                         : kinds[k].want[1]       ? "CRLF"
                                                  : "CR",
                         nw, nb);
            free(want);
            free(sb);
            /* the saved file loads as the map */
            tn_map *back = tu_load_map(path);
            assert_true(tn_map_equal(back, b));
            tn_map_destroy(back);
            tn_map_destroy(b);
        }
        free(sa);
        free(text);
        tn_map_destroy(a);
    }
    rm_scratch(dir);
}

/* base64 of a zlib stream of chunk k's 16x16 gids (1: a block) stored
 * uncompressed, zlib level 0 (Tiled's compressionlevel 0), into out */
static void stored_chunk(int k, char *out, size_t cap)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned char raw[16 * 16 * 4], z[2048];
    memset(raw, 0, sizeof raw);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            int mx = (k % 2) * 16 + x, my = (k / 2) * 16 + y;
            bool block = mx == 0 || my == 0 || mx == 31 || my == 31 || (mx + 3 * my) % 11 == 0;
            if (my >= 26 && mx >= 1 && mx <= 4 && my < 31) block = false; /* the start's room */
            raw[4 * (y * 16 + x)] = block;
        }
    uLongf zn = sizeof z;
    assert_int_equal(compress2(z, &zn, raw, sizeof raw, 0), Z_OK);
    size_t o = 0;
    for (size_t i = 0; i < zn; i += 3) {
        unsigned v = (unsigned)z[i] << 16 | (i + 1 < zn ? (unsigned)z[i + 1] << 8 : 0) |
                     (i + 2 < zn ? z[i + 2] : 0);
        assert_true(o + 5 < cap);
        out[o++] = A[v >> 18 & 63];
        out[o++] = A[v >> 12 & 63];
        out[o++] = i + 1 < zn ? A[v >> 6 & 63] : '=';
        out[o++] = i + 2 < zn ? A[v & 63] : '=';
    }
    out[o] = '\0';
}

/* A scratch folder into dir, and the four stored chunks into b64. */
static void chunks_fixture(char dir[64], char b64[4][2048])
{
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    for (int k = 0; k < 4; k++) stored_chunk(k, b64[k], 2048);
}

/* The infinite 32x32 map of test_save_infinite_keeps_chunks (TMX: fmt 0,
 * TMJ: 1) with chunks b64[0..3], into doc; level: the compressionlevel's
 * text (TMX: inside the quotes; TMJ: the JSON value), NULL for none.
 * Returns its length. */
static int infinite_doc(int fmt, const char *level, char b64[4][2048], char *doc, size_t cap)
{
    char lv[64] = "";
    if (level)
        snprintf(lv, sizeof lv, fmt ? "\"compressionlevel\":%s, " : " compressionlevel=\"%s\"",
                 level);
    int n = 0;
    if (!fmt) {
        n += snprintf(doc + n, cap - (size_t)n,
                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<map version=\"1.10\" orientation=\"orthogonal\" "
                      "renderorder=\"right-down\" width=\"32\" height=\"32\" tilewidth=\"16\" "
                      "tileheight=\"16\" infinite=\"1\" nextlayerid=\"3\" nextobjectid=\"2\"%s>\n"
                      " <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" "
                      "tilecount=\"1\" columns=\"1\">\n"
                      "  <image source=\"t.png\" width=\"16\" height=\"16\"/>\n"
                      "  <tile id=\"0\"><properties><property name=\"kind\" "
                      "value=\"block\"/></properties></tile>\n"
                      " </tileset>\n"
                      " <layer id=\"1\" name=\"terrain\" width=\"32\" height=\"32\">\n"
                      "  <data encoding=\"base64\" compression=\"zlib\">\n",
                      lv);
        for (int k = 0; k < 4; k++)
            n += snprintf(doc + n, cap - (size_t)n,
                          "   <chunk x=\"%d\" y=\"%d\" width=\"16\" height=\"16\">\n%s\n"
                          "</chunk>\n",
                          k % 2 * 16, k / 2 * 16, b64[k]);
        n += snprintf(doc + n, cap - (size_t)n,
                      "  </data>\n </layer>\n"
                      " <objectgroup id=\"2\" name=\"marks\">\n"
                      "  <object id=\"1\" type=\"start\" x=\"40\" y=\"472\"><point/></object>\n"
                      " </objectgroup>\n</map>\n");
    } else {
        n += snprintf(doc + n, cap - (size_t)n,
                      "{ %s\"height\":32, \"infinite\":true, \"layers\":[\n"
                      "  { \"chunks\":[\n",
                      lv);
        for (int k = 0; k < 4; k++)
            n += snprintf(doc + n, cap - (size_t)n,
                          "   %s{ \"data\":\"%s\", \"height\":16, \"width\":16, \"x\":%d, "
                          "\"y\":%d }\n",
                          k ? "," : "", b64[k], k % 2 * 16, k / 2 * 16);
        n += snprintf(doc + n, cap - (size_t)n,
                      "   ], \"compression\":\"zlib\", \"encoding\":\"base64\", "
                      "\"height\":32, \"id\":1, \"name\":\"terrain\", \"opacity\":1, "
                      "\"startx\":0, \"starty\":0, \"type\":\"tilelayer\", \"visible\":true, "
                      "\"width\":32, \"x\":0, \"y\":0 },\n"
                      "  { \"draworder\":\"topdown\", \"id\":2, \"name\":\"marks\", "
                      "\"objects\":[{ \"id\":1, \"type\":\"start\", \"x\":40, \"y\":472, "
                      "\"point\":true }], \"opacity\":1, \"type\":\"objectgroup\", "
                      "\"visible\":true, \"x\":0, \"y\":0 }],\n"
                      " \"nextlayerid\":3, \"nextobjectid\":2, \"orientation\":\"orthogonal\", "
                      "\"renderorder\":\"right-down\", \"tileheight\":16,\n"
                      " \"tilesets\":[{ \"columns\":1, \"firstgid\":1, \"image\":\"t.png\", "
                      "\"imageheight\":16, \"imagewidth\":16, \"margin\":0, \"name\":\"t\", "
                      "\"spacing\":0, \"tilecount\":1, \"tileheight\":16, \"tilewidth\":16, "
                      "\"tiles\":[{ \"id\":0, \"properties\":[{ \"name\":\"kind\", "
                      "\"type\":\"string\", \"value\":\"block\" }] }] }],\n"
                      " \"tilewidth\":16, \"type\":\"map\", \"version\":\"1.10\", "
                      "\"width\":32 }\n");
    }
    assert_true(n > 0 && (size_t)n < cap);
    return n;
}

/* A one-tile edit of an infinite map re-encodes only the chunk it is in:
 * the other chunks keep their text byte for byte (a save re-encoded every
 * chunk: on a 2048x2048 map of 16x16 base64+zlib chunks, 0.8-1.3 s of a
 * 2-3 s save, and each chunk Tiled compressed otherwise, at another
 * compressionlevel or with another gzip header, came back changed). */
static void test_save_infinite_keeps_chunks(void **state)
{
    (void)state;
    char dir[64];
    static char b64[4][2048];
    chunks_fixture(dir, b64);
    for (int fmt = 0; fmt < 2; fmt++) {
        char path[256], err[512];
        snprintf(path, sizeof path, "%s/inf.%s", dir, fmt ? "tmj" : "tmx");
        static char doc[32768];
        int n = infinite_doc(fmt, NULL, b64, doc, sizeof doc);
        write_bytes(path, doc, (size_t)n);
        tn_map *m = tu_load_map(path);
        assert_int_equal(m->w, 32);
        assert_int_equal(m->tile[5 * 32 + 20], TN_TILE_EMPTY);
        tn_map_set_tile(m, 20, 5, TN_TILE_BLOCK, NULL); /* in chunk 1 (16,0) */
        if (tn_save_map(m, path, err, sizeof err) != 0) fail_msg("%s", err);
        size_t len;
        char *saved = slurp(path, &len);
        for (int k = 0; k < 4; k++)
            if ((strstr(saved, b64[k]) != NULL) != (k != 1))
                fail_msg("%s: chunk %d %s", path, k,
                         k == 1 ? "(edited) kept its old text" : "(untouched) was re-encoded");
        tn_map *back = tu_load_map(path);
        assert_true(tn_map_equal(back, m));
        /* an edit that brings the chunk back as it was re-encodes it again,
         * and the others still keep theirs */
        tn_map_set_tile(back, 20, 5, TN_TILE_EMPTY, NULL);
        tn_map_set_tile(back, 3, 20, TN_TILE_BLOCK, NULL); /* chunk 2 (0,16) */
        if (tn_save_map(back, path, err, sizeof err) != 0) fail_msg("%s", err);
        free(saved);
        saved = slurp(path, &len);
        if (!strstr(saved, b64[0]) || !strstr(saved, b64[3]) || strstr(saved, b64[2]))
            fail_msg("%s: second save: chunks 0 and 3 not kept, or 2 not re-encoded", path);
        tn_map *again = tu_load_map(path);
        assert_true(tn_map_equal(again, back));
        tn_map_destroy(again);
        tn_map_destroy(back);
        tn_map_destroy(m);
        free(saved);
    }
    rm_scratch(dir);
}

/* The chunk data in a saved infinite map that is none of b64[0..3] (the
 * one a save encoded anew), copied into out. */
static void reencoded_chunk(const char *saved, int fmt, char b64[4][2048], char *out, size_t cap)
{
    int found = 0;
    const char *key = fmt ? "\"data\":" : "height=\"16\">";
    for (const char *p = strstr(saved, key); p; p = strstr(p + 1, key)) {
        const char *t = p + strlen(key);
        while (*t == '\n' || *t == '\r' || *t == ' ' || *t == '\t' || (fmt && *t == '"')) t++;
        size_t len = strcspn(t, fmt ? "\"" : "\r\n< ");
        bool old = false;
        for (int k = 0; k < 4; k++) old |= strlen(b64[k]) == len && !memcmp(b64[k], t, len);
        if (old) continue;
        assert_true(len < cap);
        memcpy(out, t, len);
        out[len] = '\0';
        found++;
    }
    if (found != 1) fail_msg("%d new chunks in:\n%s", found, saved);
}

/* A chunk a save encodes anew is deflated at the map's compressionlevel,
 * as Tiled would (-1: zlib's default; others bounded to 1..9): it was
 * always zlib's default.  zlib's header says the level class (RFC 1950
 * FLEVEL: 78 01 fastest, 78 9C default, 78 DA best; base64 "eA", "eJ",
 * "eN").  Tiled reads any compressionlevel (a number in a JSON string
 * too), and the game only saves by it: one that is not a whole number
 * is the default, and no value refuses the map. */
static void test_save_compression_level(void **state)
{
    (void)state;
    char dir[64];
    static char b64[4][2048];
    chunks_fixture(dir, b64);
    const struct {
        const char *tmx, *tmj; /* the value's text; NULL: none */
        const char *head;
    } cases[] = {{NULL, NULL, "eJ"},       {"-1", "-1", "eJ"},    {"0", "0", "eA"},
                 {"1", "1", "eA"},         {"6", "6", "eJ"},      {"9", "9", "eN"},
                 {"22", "22", "eN"},       {"23", "1e300", "eN"}, {"-7", "-1e300", "eJ"},
                 {"abc", "\"abc\"", "eJ"}, {"9.5", "9.5", "eJ"},  {"+9", "\"9\"", "eN"},
                 {"", "null", "eJ"}};
    for (int fmt = 0; fmt < 2; fmt++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            char path[256], err[512];
            snprintf(path, sizeof path, "%s/lvl.%s", dir, fmt ? "tmj" : "tmx");
            static char doc[32768];
            const char *lv = fmt ? cases[c].tmj : cases[c].tmx;
            int n = infinite_doc(fmt, lv, b64, doc, sizeof doc);
            write_bytes(path, doc, (size_t)n);
            tn_map *m = tu_load_map(path);
            tn_map_set_tile(m, 20, 5, TN_TILE_BLOCK, NULL);
            if (tn_save_map(m, path, err, sizeof err) != 0) fail_msg("%s", err);
            size_t len;
            char *saved = slurp(path, &len);
            static char fresh[4096];
            reencoded_chunk(saved, fmt, b64, fresh, sizeof fresh);
            if (strncmp(fresh, cases[c].head, 2) != 0)
                fail_msg("%s, compressionlevel %s: the new chunk starts '%.4s', not '%s'", path,
                         lv ? lv : "(none)", fresh, cases[c].head);
            tn_map *back = tu_load_map(path);
            assert_true(tn_map_equal(back, m));
            tn_map_destroy(back);
            tn_map_destroy(m);
            free(saved);
        }
    rm_scratch(dir);
}

/* A file that starts with a UTF-8 BOM (Windows editors write one, often
 * with CRLF) keeps it when saved: it was dropped, so a diff showed line 1
 * changed too.  The rest is the BOM-less file's save. */
/* A tn_map whose start lies outside it (a caller breaking the field's
 * rule) never makes the save write outside its tile array (it indexed
 * start_y * w + start_x unchecked: a heap overflow under ASan).  The start
 * is left out of the document, so the read-back check refuses the save
 * with a message and the file keeps the map it held. */
static void test_save_start_outside(void **state)
{
    (void)state;
    char dir[64];
    scratch(dir);
    for (size_t i = 0; i < NFIX; i++) {
        char path[256], err[512];
        snprintf(path, sizeof path, "%s/%s", dir, FIXTURES[i]);
        tn_map *m = tu_load_map(path), *before = tu_load_map(path);
        m->start_x = m->w + 3, m->start_y = m->h + 2;
        err[0] = 0;
        assert_int_not_equal(tn_save_map(m, path, err, sizeof err), 0);
        if (!strstr(err, FIXTURES[i]) || !strstr(err, "not saved")) fail_msg("message: %s", err);
        tn_map *back = tu_load_map(path);
        assert_true(tn_map_equal(back, before));
        tn_map_destroy(back);
        tn_map_destroy(before);
        tn_map_destroy(m);
    }
    rm_scratch(dir);
}

static void test_save_keeps_bom(void **state)
{
    (void)state;
    char dir[64];
    scratch(dir);
    for (size_t i = 0; i < NFIX; i++) {
        for (int crlf = 0; crlf < 2; crlf++) {
            char plain[256], bom[256], err[512];
            snprintf(plain, sizeof plain, "%s/%s", dir, FIXTURES[i]);
            snprintf(bom, sizeof bom, "%s/bom%d-%s", dir, crlf, FIXTURES[i]);
            size_t n;
            char *text = slurp(plain, &n);
            char *c = crlf ? to_crlf(text, &n) : text;
            char *b = malloc(n + 3);
            assert_non_null(b);
            memcpy(b, "\xEF\xBB\xBF", 3);
            memcpy(b + 3, c, n);
            write_bytes(bom, b, n + 3);
            free(b);
            if (c != text) free(c);
            free(text);
            tn_map *m = tu_load_map(bom);
            edit(m);
            if (tn_save_map(m, bom, err, sizeof err) != 0) fail_msg("%s", err);
            size_t nb;
            char *sb = slurp(bom, &nb);
            if (nb < 3 || memcmp(sb, "\xEF\xBB\xBF", 3) != 0)
                fail_msg("%s (%s): the BOM is gone", FIXTURES[i], crlf ? "CRLF" : "LF");
            if (crlf != (memchr(sb, '\r', nb) != NULL))
                fail_msg("%s: line endings changed", FIXTURES[i]);
            tn_map *back = tu_load_map(bom);
            assert_true(tn_map_equal(back, m));
            free(sb);
            tn_map_destroy(back);
            tn_map_destroy(m);
        }
    }
    rm_scratch(dir);
}

/* New blocks go into the layer that holds the map's blocks, not into a
 * background layer that comes first (the reviewer's multi.tmx shape). */
static void test_save_terrain_layer(void **state)
{
    (void)state;
    char dir[64], p[256], err[512];
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(p, sizeof p, "%s/multi.tmx", dir);
    const char *tmx =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<map version=\"1.10\" orientation=\"orthogonal\" width=\"4\" height=\"3\" "
        "tilewidth=\"16\" tileheight=\"16\" infinite=\"0\" nextlayerid=\"4\" "
        "nextobjectid=\"1\">\n"
        " <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" "
        "tilecount=\"3\" columns=\"3\">\n"
        "  <image source=\"t.png\" width=\"48\" height=\"16\"/>\n"
        "  <tile id=\"0\"><properties><property name=\"kind\" value=\"block\"/>"
        "</properties></tile>\n"
        "  <tile id=\"1\"><properties><property name=\"kind\" value=\"oneway\"/>"
        "</properties></tile>\n"
        "  <tile id=\"2\"><properties><property name=\"kind\" value=\"none\"/>"
        "</properties></tile>\n"
        " </tileset>\n"
        " <layer id=\"1\" name=\"background\" width=\"4\" height=\"3\" opacity=\"0.5\">\n"
        "  <data encoding=\"csv\">\n3,3,0,1,\n0,0,0,0,\n0,0,0,0\n</data>\n </layer>\n"
        " <layer id=\"2\" name=\"terrain\" width=\"4\" height=\"3\">\n"
        "  <data encoding=\"csv\">\n0,0,0,0,\n0,0,0,0,\n1,1,1,1\n</data>\n </layer>\n"
        " <layer id=\"3\" name=\"oneway\" width=\"4\" height=\"3\">\n"
        "  <data encoding=\"csv\">\n0,0,0,0,\n0,2,0,0,\n0,0,0,0\n</data>\n </layer>\n"
        "</map>\n";
    write_bytes(p, tmx, strlen(tmx));
    tn_map *m = tu_load_map(p);
    tn_map_set_tile(m, 0, 1, TN_TILE_BLOCK, NULL);
    tn_map_set_tile(m, 2, 1, TN_TILE_ONEWAY, NULL);
    if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
    unsigned bg[12], te[12];
    layer_gids(p, "background", bg, 12);
    layer_gids(p, "terrain", te, 12);
    if (bg[4] != 0 || te[4] != 1 || te[6] != 2)
        fail_msg("the block went into 'background' (%u), not 'terrain' (%u)", bg[4], te[4]);
    tn_map *back = tu_load_map(p);
    assert_true(tn_map_equal(back, m));
    tn_map_destroy(back);
    tn_map_destroy(m);
    rm_scratch(dir);
}

/* An image collection holds only the tiles it lists: a saved block is one
 * of them (the first without kind), never an id the tileset lacks; with
 * none that means block, the save is refused with a message. */
static void test_save_collection_tile(void **state)
{
    (void)state;
    char dir[64], p[256], err[512];
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(p, sizeof p, "%s/coll.tmx", dir);
    for (int k = 0; k < 2; k++) {
        char tmx[2048];
        snprintf(tmx, sizeof tmx,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<map version=\"1.10\" orientation=\"orthogonal\" width=\"4\" height=\"3\" "
                 "tilewidth=\"16\" tileheight=\"16\" infinite=\"0\" nextlayerid=\"2\" "
                 "nextobjectid=\"1\">\n"
                 " <tileset firstgid=\"1\" name=\"coll\" tilewidth=\"16\" tileheight=\"16\" "
                 "tilecount=\"2\" columns=\"0\">\n"
                 "  <grid orientation=\"orthogonal\" width=\"1\" height=\"1\"/>\n"
                 "  <tile id=\"0\"><properties><property name=\"kind\" value=\"none\"/>"
                 "</properties><image width=\"16\" height=\"16\" source=\"a.png\"/></tile>\n"
                 "%s"
                 " </tileset>\n"
                 " <layer id=\"1\" name=\"terrain\" width=\"4\" height=\"3\">\n"
                 "  <data encoding=\"csv\">\n1,0,0,0,\n0,0,0,0,\n%s\n</data>\n </layer>\n"
                 "</map>\n",
                 k ? ""
                   : "  <tile id=\"5\"><image width=\"16\" height=\"16\" "
                     "source=\"b.png\"/></tile>\n",
                 k ? "0,0,0,0" : "6,6,6,6");
        write_bytes(p, tmx, strlen(tmx));
        tn_map *m = tu_load_map(p);
        tn_map_set_tile(m, 1, 1, TN_TILE_BLOCK, NULL);
        int rc = tn_save_map(m, p, err, sizeof err);
        if (k == 0) {
            if (rc != 0) fail_msg("%s", err);
            unsigned g[12];
            layer_gids(p, "terrain", g, 12);
            if (g[5] != 6) fail_msg("the block is gid %u, a tile the tileset lacks", g[5]);
            tn_map *back = tu_load_map(p);
            assert_true(tn_map_equal(back, m));
            tn_map_destroy(back);
        } else {
            assert_int_equal(rc, -1);
            char want[600];
            snprintf(want, sizeof want,
                     "%s:2: cannot save a block: no tileset has a tile that is a block "
                     "(kind=block, or a tile without kind; an image collection holds only the "
                     "tiles it lists): add one in Tiled",
                     p);
            assert_string_equal(err, want);
        }
        tn_map_destroy(m);
    }
    rm_scratch(dir);
}

/* Load a 4x3 TMX (tileset fixture.tsx at gid 1 and, at gid 101, an
 * embedded one whose objectalignment is `align`) around `layers`. */
static tn_map *load_tmx(const char *align, const char *layers, char *err, size_t cap)
{
    char text[4096];
    snprintf(text, sizeof text,
             "<map orientation=\"orthogonal\" width=\"4\" height=\"3\" tilewidth=\"16\" "
             "tileheight=\"16\">\n<tileset firstgid=\"1\" source=\"fixture.tsx\"/>\n"
             "<tileset firstgid=\"101\" name=\"m\" tilewidth=\"16\" tileheight=\"16\" "
             "tilecount=\"2\" columns=\"2\" objectalignment=\"%s\">\n"
             "<image source=\"m.png\" width=\"32\" height=\"16\"/>\n"
             "<tile id=\"0\" class=\"item\"><properties><property name=\"kind\" "
             "value=\"none\"/></properties></tile>\n</tileset>\n"
             "<layer name=\"t\" width=\"4\" height=\"3\"><data encoding=\"csv\">\n"
             "0,0,0,0,\n0,0,0,0,\n1,1,1,1</data></layer>\n%s</map>\n",
             align, layers);
    tn_map *m = NULL;
    if (tn_tiled_load_buffer(text, strlen(text), "tests/data/tiled/pos.tmx", TN_TILED_TMX, &m, err,
                             cap) != 0)
        return NULL;
    return m;
}

static int mark_at(const tn_map *m, int x, int y) { return m->mark[y * m->w + x]; }

/* Game objects land on the tile Tiled draws them on: layer and group
 * offsets (added up), the tileset's objectalignment, a polygon's middle;
 * a turned object or a tile layer with terrain drawn off the grid is
 * refused, naming the file, the line and the attribute. */
static void test_object_positions(void **state)
{
    (void)state;
    char err[512];
    /* an object layer offset by 16,16 inside a group offset by 16,0: the
     * point at 1,1 is drawn at 33,17, tile (2,1) */
    tn_map *m = load_tmx("",
                         "<group offsetx=\"16\"><objectgroup offsetx=\"16\" offsety=\"16\">"
                         "<object id=\"1\" type=\"spawn\" x=\"1\" y=\"1\"><point/></object>"
                         "</objectgroup></group>\n",
                         err, sizeof err);
    if (!m) fail_msg("%s", err);
    if (mark_at(m, 2, 1) != TN_MARK_SPAWN) fail_msg("the offset spawn is not on tile (2,1)");
    tn_map_destroy(m);
    /* a tile object of a topleft tileset at 16,0 covers tile (1,0); with
     * the default (bottomleft) at 16,16 too */
    const char *aligns[] = {"topleft", "unspecified", "center"};
    const char *ys[] = {"0", "16", "8"};
    const char *xs[] = {"16", "16", "24"};
    for (int i = 0; i < 3; i++) {
        char obj[512];
        snprintf(obj, sizeof obj,
                 "<objectgroup><object id=\"1\" gid=\"101\" x=\"%s\" y=\"%s\" width=\"16\" "
                 "height=\"16\"/></objectgroup>\n",
                 xs[i], ys[i]);
        m = load_tmx(aligns[i], obj, err, sizeof err);
        if (!m) fail_msg("%s", err);
        if (mark_at(m, 1, 0) != TN_MARK_ITEM)
            fail_msg("objectalignment %s: the item is not on tile (1,0)", aligns[i]);
        tn_map_destroy(m);
    }
    /* a polygon: the middle of its points, not its origin */
    m = load_tmx("",
                 "<objectgroup><object id=\"1\" type=\"dest\" x=\"0\" y=\"0\">"
                 "<polygon points=\"0,0 32,0 32,16 0,16\"/></object></objectgroup>\n",
                 err, sizeof err);
    if (!m) fail_msg("%s", err);
    if (mark_at(m, 1, 0) != TN_MARK_DEST) fail_msg("the polygon's dest is not on tile (1,0)");
    tn_map_destroy(m);
    /* refused */
    m = load_tmx("",
                 "<objectgroup>\n<object id=\"3\" gid=\"101\" x=\"16\" y=\"16\" "
                 "width=\"16\" height=\"16\" rotation=\"90\"/></objectgroup>\n",
                 err, sizeof err);
    assert_null(m);
    assert_string_equal(err, "tests/data/tiled/pos.tmx:12: object 3 (item): rotation 90 is not "
                             "supported (the game cannot tell which tile a turned object is on "
                             "as Tiled draws it): set rotation to 0");
    m = load_tmx("",
                 "<group offsety=\"-2\">\n<layer name=\"bg\" offsetx=\"4\" width=\"4\" "
                 "height=\"3\"><data encoding=\"csv\">4,4,1,0,\n0,0,0,0,\n0,0,0,0</data>"
                 "</layer></group>\n",
                 err, sizeof err);
    assert_null(m);
    assert_string_equal(err, "tests/data/tiled/pos.tmx:12: layer 'bg': offsetx/offsety 4,-2 px "
                             "(its groups' included): a tile layer drawn off the map's grid puts "
                             "its terrain elsewhere than Tiled shows it; set the offset to 0 "
                             "(decoration, tiles with kind=none, may be offset)");
    /* decoration only: fine */
    m = load_tmx("",
                 "<layer name=\"bg\" offsetx=\"4\" width=\"4\" height=\"3\">"
                 "<data encoding=\"csv\">4,4,0,0,\n0,0,0,0,\n0,0,0,0</data></layer>\n",
                 err, sizeof err);
    if (!m) fail_msg("%s", err);
    tn_map_destroy(m);
    /* .tmj: the same offsets */
    const char *tmj =
        "{\"orientation\":\"orthogonal\",\"width\":4,\"height\":3,\"tilewidth\":16,"
        "\"tileheight\":16,\"tilesets\":[{\"firstgid\":1,\"source\":\"fixture.tsj\"}],"
        "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":4,\"height\":3,"
        "\"data\":[0,0,0,0,0,0,0,0,1,1,1,1]},{\"type\":\"group\",\"offsetx\":16,"
        "\"layers\":[{\"type\":\"objectgroup\",\"offsetx\":16,\"offsety\":16,"
        "\"objects\":[{\"id\":1,\"type\":\"spawn\",\"x\":1,\"y\":1,\"point\":true}]}]}]}";
    m = NULL;
    if (tn_tiled_load_buffer(tmj, strlen(tmj), "tests/data/tiled/pos.tmj", TN_TILED_TMJ, &m, err,
                             sizeof err) != 0)
        fail_msg("%s", err);
    if (mark_at(m, 2, 1) != TN_MARK_SPAWN) fail_msg("the .tmj's offset spawn is not on (2,1)");
    tn_map_destroy(m);
}

/* A save adds new marks where Tiled draws them on an offset object layer. */
static void test_save_offset_layer(void **state)
{
    (void)state;
    char dir[64], p[256], err[512];
    scratch(dir);
    snprintf(p, sizeof p, "%s/off.tmx", dir);
    const char *tmx = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<map version=\"1.10\" orientation=\"orthogonal\" width=\"4\" height=\"3\" "
                      "tilewidth=\"16\" tileheight=\"16\" infinite=\"0\" nextlayerid=\"3\" "
                      "nextobjectid=\"2\">\n"
                      " <tileset firstgid=\"1\" source=\"fixture.tsx\"/>\n"
                      " <layer id=\"1\" name=\"t\" width=\"4\" height=\"3\">\n"
                      "  <data encoding=\"csv\">\n0,0,0,0,\n0,0,0,0,\n1,1,1,1\n</data>\n </layer>\n"
                      " <objectgroup id=\"2\" name=\"marks\" offsetx=\"16\" offsety=\"8\">\n"
                      "  <object id=\"1\" type=\"spawn\" x=\"0\" y=\"0\"><point/></object>\n"
                      " </objectgroup>\n"
                      "</map>\n";
    write_bytes(p, tmx, strlen(tmx));
    tn_map *m = tu_load_map(p);
    assert_int_equal(mark_at(m, 1, 0), TN_MARK_SPAWN);
    tn_map_set_mark(m, 3, 1, TN_MARK_ITEM, NULL);
    if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
    tn_map *back = tu_load_map(p);
    assert_true(tn_map_equal(back, m));
    assert_int_equal(mark_at(back, 3, 1), TN_MARK_ITEM);
    tn_map_destroy(back);
    tn_map_destroy(m);
    rm_scratch(dir);
}

/* New blocks never go into a layer drawn with an offset (decoration, its
 * tiles kind=none), even when it comes first and no layer holds a block:
 * they go into the first layer without one; with none, a clear message. */
static void test_save_skips_offset_layer(void **state)
{
    (void)state;
    char dir[64], p[256], err[512];
    scratch(dir);
    snprintf(p, sizeof p, "%s/deco.tmx", dir);
    for (int k = 0; k < 2; k++) {
        char tmx[2048], rows[512] = "", zero[512] = "";
        for (int y = 0; y < 6; y++)
            for (int x = 0; x < 10; x++) {
                bool last = y == 5 && x == 9;
                strcat(rows, y == 0 && x == 0 ? "4" : "0");
                strcat(rows, last ? "" : x == 9 ? ",\n" : ",");
                strcat(zero, last ? "0" : x == 9 ? "0,\n" : "0,");
            }
        snprintf(tmx, sizeof tmx,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<map version=\"1.10\" orientation=\"orthogonal\" width=\"10\" "
                 "height=\"6\" tilewidth=\"16\" tileheight=\"16\" infinite=\"0\">\n"
                 " <tileset firstgid=\"1\" source=\"fixture.tsx\"/>\n"
                 " <layer id=\"1\" name=\"deco\" offsetx=\"8\" width=\"10\" height=\"6\">\n"
                 "  <data encoding=\"csv\">\n%s\n</data>\n </layer>\n"
                 "%s%s%s"
                 "</map>\n",
                 rows,
                 k ? ""
                   : " <layer id=\"2\" name=\"terrain\" width=\"10\" height=\"6\">\n"
                     "  <data encoding=\"csv\">\n",
                 k ? "" : zero, k ? "" : "\n</data>\n </layer>\n");
        write_bytes(p, tmx, strlen(tmx));
        tn_map *m = tu_load_map(p);
        tn_map_set_tile(m, 5, 5, TN_TILE_BLOCK, NULL);
        int rc = tn_save_map(m, p, err, sizeof err);
        if (k) {
            assert_int_equal(rc, -1);
            assert_non_null(strstr(err, "cannot save a block: every tile layer other than "
                                        "'oneway' is drawn off the grid (layer 'deco': "
                                        "offsetx/offsety 8,0 px"));
            tn_map_destroy(m);
            continue;
        }
        if (rc != 0) fail_msg("%s", err);
        tn_map *back = tu_load_map(p);
        assert_true(tn_map_equal(back, m));
        tn_map_destroy(back);
        tn_map_destroy(m);
        /* into "terrain": its data now holds a tile, "deco"'s is unchanged */
        char *text;
        size_t n;
        assert_int_equal(tn_read_file(p, 1 << 20, &text, &n, err, sizeof err), 0);
        const char *terrain = strstr(text, "name=\"terrain\"");
        assert_non_null(terrain);
        assert_non_null(strstr(terrain, "1,0,0,0,0\n"));
        assert_non_null(strstr(text, rows));
        free(text);
    }
    rm_scratch(dir);
}

/* A path in the scratch directory dir. */
static void in_dir(char *out, size_t cap, const char *dir, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

static void write_text(const char *dir, const char *name, const char *text)
{
    char p[512];
    in_dir(p, sizeof p, dir, name);
    write_bytes(p, text, strlen(text));
}

/* The templates of test_template_objects, in DIR/tpl/ (the maps are in
 * DIR/maps/: every template path goes up a directory, from the map). */
static void write_templates(const char *dir)
{
    char p[512];
    in_dir(p, sizeof p, dir, "tpl");
    assert_int_equal(mkdir(p, 0700), 0);
    in_dir(p, sizeof p, dir, "maps");
    assert_int_equal(mkdir(p, 0700), 0);
    /* a 16x16 spawn rectangle, with a property the instances override */
    write_text(dir, "tpl/spawn.tx",
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<template>\n"
               " <object type=\"spawn\" width=\"16\" height=\"16\">\n"
               "  <properties>\n   <property name=\"hp\" type=\"int\" value=\"3\"/>\n"
               "  </properties>\n </object>\n</template>\n");
    write_text(dir, "tpl/spawn.tj",
               "{ \"type\":\"template\",\n  \"object\":{ \"class\":\"spawn\", \"width\":16, "
               "\"height\":16, \"name\":\"\", \"rotation\":0, \"visible\":true,\n"
               "    \"properties\":[{ \"name\":\"hp\", \"type\":\"int\", \"value\":3 }] } }\n");
    /* a destination point, in the other format than its map's */
    write_text(dir, "tpl/dest.tj",
               "{ \"type\":\"template\", \"object\":{ \"type\":\"dest\", \"point\":true, "
               "\"width\":0, \"height\":0 } }\n");
    write_text(dir, "tpl/dest.tx",
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<template>\n"
               " <object class=\"dest\">\n  <point/>\n </object>\n</template>\n");
    /* a tile object: tile 4 of fixture.tsx (class spawn), gid 5 counted in
     * the template's own tileset reference (the maps have it at 101) */
    write_text(dir, "tpl/tile.tx",
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<template>\n"
               " <tileset firstgid=\"1\" source=\"../fixture.tsx\"/>\n"
               " <object gid=\"5\" width=\"16\" height=\"16\"/>\n</template>\n");
    write_text(
        dir, "tpl/tile.tj",
        "{ \"type\":\"template\", \"tileset\":{ \"firstgid\":1, \"source\":"
        "\"../fixture.tsj\" },\n  \"object\":{ \"gid\":5, \"width\":16, \"height\":16 } }\n");
}

/* Game objects placed from templates (.tx and .tj, from .tmx and .tmj maps
 * in another directory than the templates) are where Tiled draws them,
 * with the template's class, size, shape and tile as defaults and the
 * instance's own attributes over them; saves keep them as instances, in
 * place and into another directory (their template paths rewritten). */
static void test_template_objects(void **state)
{
    (void)state;
    char dir[64], p[256], err[512];
    scratch(dir);
    write_templates(dir);
    const char *tmx =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<map version=\"1.10\" orientation=\"orthogonal\" width=\"8\" height=\"4\" "
        "tilewidth=\"16\" tileheight=\"16\" infinite=\"0\" nextlayerid=\"3\" "
        "nextobjectid=\"9\">\n"
        " <tileset firstgid=\"101\" source=\"../fixture.tsx\"/>\n"
        " <layer id=\"1\" name=\"t\" width=\"8\" height=\"4\">\n"
        "  <data encoding=\"csv\">\n0,0,0,0,0,0,0,0,\n0,0,0,0,0,0,0,0,\n0,0,0,0,0,0,0,0,\n"
        "101,101,101,101,101,101,101,101\n</data>\n </layer>\n"
        " <objectgroup id=\"2\" name=\"marks\">\n"
        "  <object id=\"3\" template=\"../tpl/spawn.tx\" x=\"16\" y=\"0\"/>\n"
        "  <object id=\"4\" template=\"../tpl/spawn.tx\" type=\"item\" x=\"32\" y=\"0\"/>\n"
        "  <object id=\"5\" template=\"../tpl/spawn.tx\" x=\"48\" y=\"0\" width=\"32\" "
        "height=\"32\"/>\n"
        "  <object id=\"6\" template=\"../tpl/dest.tj\" x=\"8\" y=\"40\"/>\n"
        "  <object id=\"7\" template=\"../tpl/tile.tx\" x=\"80\" y=\"16\"/>\n"
        "  <object id=\"8\" template=\"../tpl/spawn.tx\" x=\"96\" y=\"0\">\n"
        "   <properties>\n    <property name=\"hp\" type=\"int\" value=\"9\"/>\n"
        "   </properties>\n  </object>\n"
        "  <object id=\"9\" template=\"../tpl/gone.tx\" type=\"tree\" x=\"0\" y=\"0\"/>\n"
        " </objectgroup>\n</map>\n";
    const char *tmj =
        "{ \"type\":\"map\", \"orientation\":\"orthogonal\", \"width\":8, \"height\":4, "
        "\"tilewidth\":16, \"tileheight\":16, \"infinite\":false, \"nextobjectid\":9, "
        "\"nextlayerid\":3,\n"
        "  \"tilesets\":[{ \"firstgid\":101, \"source\":\"../fixture.tsj\" }],\n"
        "  \"layers\":[{ \"type\":\"tilelayer\", \"id\":1, \"name\":\"t\", \"width\":8, "
        "\"height\":4, \"x\":0, \"y\":0, \"opacity\":1, \"visible\":true, \"data\":[0,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,101,101,101,101,101,101,101,101] },\n"
        "   { \"type\":\"objectgroup\", \"id\":2, \"name\":\"marks\", \"opacity\":1, "
        "\"visible\":true, \"x\":0, \"y\":0, \"objects\":[\n"
        "    { \"id\":3, \"template\":\"../tpl/spawn.tj\", \"x\":16, \"y\":0 },\n"
        "    { \"id\":4, \"template\":\"../tpl/spawn.tj\", \"class\":\"item\", \"x\":32, \"y\":0 "
        "},\n"
        "    { \"id\":5, \"template\":\"../tpl/spawn.tj\", \"x\":48, \"y\":0, \"width\":32, "
        "\"height\":32 },\n"
        "    { \"id\":6, \"template\":\"../tpl/dest.tx\", \"x\":8, \"y\":40 },\n"
        "    { \"id\":7, \"template\":\"../tpl/tile.tj\", \"x\":80, \"y\":16 },\n"
        "    { \"id\":8, \"template\":\"../tpl/spawn.tj\", \"x\":96, \"y\":0, "
        "\"properties\":[{ \"name\":\"hp\", \"type\":\"int\", \"value\":9 }] },\n"
        "    { \"id\":9, \"template\":\"../tpl/gone.tj\", \"class\":\"tree\", \"x\":0, "
        "\"y\":0 }] }] }\n";
    for (int k = 0; k < 2; k++) {
        const char *name = k ? "maps/level.tmj" : "maps/level.tmx";
        in_dir(p, sizeof p, dir, name);
        write_text(dir, name, k ? tmj : tmx);
        tn_map *m = NULL;
        if (tn_load_map(p, &m, err, sizeof err) != 0) fail_msg("%s", err);
        /* 3: the template's 16x16 spawn at 16,0; 4: its class overridden;
         * 9: a class of its own that is not the game's (its template, gone,
         * is not read);
         * 5: its size overridden (32x32: centre 64,16); 6: a point; 7: a
         * tile object (bottomleft) whose tile is a spawn; 8: a property
         * overridden (the game reads none) */
        assert_int_equal(mark_at(m, 1, 0), TN_MARK_SPAWN);
        assert_int_equal(mark_at(m, 2, 0), TN_MARK_ITEM);
        assert_int_equal(mark_at(m, 3, 0), 0);
        assert_int_equal(mark_at(m, 4, 1), TN_MARK_SPAWN);
        assert_int_equal(mark_at(m, 0, 2), TN_MARK_DEST);
        assert_int_equal(mark_at(m, 5, 0), TN_MARK_SPAWN);
        assert_int_equal(mark_at(m, 6, 0), TN_MARK_SPAWN);
        assert_int_equal(tn_map_count_marks(m, TN_MARK_SPAWN), 4);
        /* a save in place after an edit keeps the instances as they were */
        tn_map_set_mark(m, 7, 2, TN_MARK_ITEM, NULL);
        if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
        size_t n;
        char *text = slurp(p, &n);
        assert_non_null(strstr(text, k ? "\"template\":\t\"../tpl/spawn.tj\""
                                       : "template=\"../tpl/spawn.tx\" type=\"item\""));
        free(text);
        tn_map *back = tu_load_map(p);
        assert_true(tn_map_equal(back, m));
        tn_map_destroy(back);
        /* into another directory: the template paths follow */
        char sub[256], q[300];
        in_dir(sub, sizeof sub, dir, "out");
        mkdir(sub, 0700);
        in_dir(sub, sizeof sub, dir, "out/deep");
        mkdir(sub, 0700);
        snprintf(q, sizeof q, "%s/%s", sub, k ? "level.tmj" : "level.tmx");
        if (tn_tiled_save(m, q, p, err, sizeof err) != 0) fail_msg("%s", err);
        text = slurp(q, &n);
        assert_non_null(strstr(text, k ? "\"../../tpl/dest.tx\"" : "\"../../tpl/dest.tj\""));
        free(text);
        back = tu_load_map(q);
        assert_true(tn_map_equal(back, m));
        tn_map_destroy(back);
        tn_map_destroy(m);
    }
    rm_scratch(dir);
}

/* A bad template is refused with the map's place, the template's name and
 * what is wrong with it: never left out, never read from a device or a
 * FIFO (no wait), never a crash. */
static void test_template_bad(void **state)
{
    (void)state;
    char dir[64], p[256], err[1024];
    scratch(dir);
    char big[300];
    snprintf(big, sizeof big, "%s/big.tx", dir);
    FILE *f = fopen(big, "wb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 2 << 20, SEEK_SET), 0); /* 2 MiB, sparse */
    fputc('\n', f);
    fclose(f);
    char fifo[300];
    snprintf(fifo, sizeof fifo, "%s/fifo.tx", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    static const struct {
        const char *file, *text, *want;
    } cases[] = {
        {"gone.tx", NULL, "template gone.tx: cannot open "},
        {"/dev/null", NULL, "template /dev/null: not a regular file"},
        {"fifo.tx", NULL, "template fifo.tx: not a regular file"},
        {"big.tx", NULL,
         "template big.tx: 2097153 bytes, too large for a template (at most "
         "1048576)"},
        {"syntax.tx", "<template><object type=\"spawn\"</template>",
         "template syntax.tx:1: XML error: "},
        {"syntax.tj", "{\"type\":\"template\",\n\"object\":{,}}",
         "template syntax.tj:2:12: not valid JSON"},
        {"blank.tj", "\n", /* (an empty one is written as no file: NULL text) */
         "template blank.tj:2:1: the file holds only white space: no JSON document (a Tiled "
         "JSON file is a JSON object, {...})"},
        {"map.tx", "<map orientation=\"orthogonal\"/>",
         "template map.tx: not a template (the root element is <map>, not <template>)"},
        {"map.tj", "{\"type\":\"map\",\"object\":{}}",
         "template map.tj: not a template (no \"type\": \"template\")"},
        {"empty.tx", "<template>\n</template>\n",
         "template empty.tx: not a template (it holds no <object>)"},
        {"two.tx", "<template>\n<object type=\"spawn\"/>\n<object type=\"dest\"/>\n</template>",
         "template two.tx:3: a second <object>"},
        {"nest.tx", "<template>\n<object template=\"nest.tx\"/>\n</template>",
         "template nest.tx:2: its object is itself placed from a template (templates do not "
         "nest)"},
        {"nest.tj", "{\"type\":\"template\",\"object\":{\"template\":\"nest.tj\"}}",
         "template nest.tj $.object: its object is itself placed from a template"},
        {"nan.tx", "<template>\n<object type=\"spawn\" width=\"nan\" height=\"16\"/>\n</template>",
         "object 3 (spawn): template nan.tx:2: width 'nan' is not a number"},
        {"huge.tj",
         "{\"type\":\"template\",\"object\":{\"class\":\"spawn\",\"width\":1e300,"
         "\"height\":16}}",
         "object 3 (spawn) at 16,0, placed at 5e+299,8 (its middle), is outside the map"},
        {"gid.tx", "<template>\n<object gid=\"5\" width=\"16\" height=\"16\"/>\n</template>",
         "template gid.tx:2: its object has gid 5 but the template names no tileset"},
        {"other.tx",
         "<template>\n<tileset firstgid=\"1\" source=\"fixture.tsj\"/>\n<object gid=\"5\"/>\n"
         "</template>",
         "template other.tx:3: its tileset fixture.tsj is not one of the map's tilesets"},
        {"nots.tx", "just text", "template nots.tx:1: XML error: "},
        {"nots.txt", "just text", "template nots.txt: not a template (expected a .tx or .tj file)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int k = 0; k < 2; k++) {
            if (cases[i].text) write_text(dir, cases[i].file, cases[i].text);
            char map[2048];
            if (k)
                snprintf(map, sizeof map,
                         "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":4,"
                         "\"height\":3,\"tilewidth\":16,\"tileheight\":16,\"tilesets\":[{"
                         "\"firstgid\":1,\"source\":\"fixture.tsx\"}],\"layers\":[{\"type\":"
                         "\"tilelayer\",\"name\":\"t\",\"width\":4,\"height\":3,\"data\":[0,0,0,"
                         "0,0,0,0,0,1,1,1,1]},{\"type\":\"objectgroup\",\"objects\":[{\"id\":2,"
                         "\"type\":\"tree\",\"x\":0,\"y\":0},{\"id\":3,\"template\":\"%s\","
                         "\"x\":16,\"y\":0}]}]}",
                         cases[i].file);
            else
                snprintf(map, sizeof map,
                         "<map orientation=\"orthogonal\" width=\"4\" height=\"3\" "
                         "tilewidth=\"16\" tileheight=\"16\">\n<tileset firstgid=\"1\" "
                         "source=\"fixture.tsx\"/>\n<layer name=\"t\" width=\"4\" "
                         "height=\"3\"><data encoding=\"csv\">\n0,0,0,0,\n0,0,0,0,\n1,1,1,1"
                         "</data></layer>\n<objectgroup>\n<object id=\"2\" type=\"tree\" "
                         "x=\"0\" y=\"0\"/>\n<object id=\"3\" template=\"%s\" x=\"16\" "
                         "y=\"0\"/>\n</objectgroup>\n</map>\n",
                         cases[i].file);
            snprintf(p, sizeof p, "%s/bad.%s", dir, k ? "tmj" : "tmx");
            write_bytes(p, map, strlen(map));
            tn_map *m = NULL;
            int rc = tn_load_map(p, &m, err, sizeof err);
            if (rc == 0) fail_msg("%s (%s) loaded", cases[i].file, k ? "tmj" : "tmx");
            char where[300];
            if (k)
                snprintf(where, sizeof where, "%s: $.layers[1].objects[1]: ", p);
            else
                snprintf(where, sizeof where, "%s:9: ", p);
            if (strncmp(err, where, strlen(where)) != 0 || !strstr(err, cases[i].want))
                fail_msg("%s (%s): '%s' is not '%s...%s...'", cases[i].file, k ? "tmj" : "tmx", err,
                         where, cases[i].want);
        }
    }
    /* a game class of its own: the template gives its size, so it is read */
    const char *own = "<map orientation=\"orthogonal\" width=\"4\" height=\"3\" tilewidth=\"16\" "
                      "tileheight=\"16\">\n<tileset firstgid=\"1\" source=\"fixture.tsx\"/>\n"
                      "<layer name=\"t\" width=\"4\" height=\"3\"><data encoding=\"csv\">\n"
                      "0,0,0,0,\n0,0,0,0,\n1,1,1,1</data></layer>\n<objectgroup>\n"
                      "<object id=\"3\" template=\"gone.tx\" type=\"item\" x=\"16\" y=\"0\"/>\n"
                      "</objectgroup>\n</map>\n";
    snprintf(p, sizeof p, "%s/own.tmx", dir);
    write_bytes(p, own, strlen(own));
    tn_map *m = NULL;
    assert_int_equal(tn_load_map(p, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "own.tmx:8: object 3: template gone.tx: cannot open "));
    rm_scratch(dir);
}

/* A tile layer offset by whole tiles (its groups' offsets added) has its
 * terrain on the tiles Tiled draws it on, .tmx and .tmj, finite and
 * infinite maps; a terrain tile drawn off the map is refused; saves clear
 * and add blocks on the cells drawn there. */
static void test_offset_layers(void **state)
{
    (void)state;
    char err[1024];
    /* 6x4: "t" the bottom row; "s" (group offsety -16, its own offsetx 16)
     * a block at (1,2), a platform at (4,2) and decoration at (5,0) drawn
     * at (2,1), (5,1) and off the map */
    const char *tmx =
        "<map orientation=\"orthogonal\" width=\"6\" height=\"4\" tilewidth=\"16\" "
        "tileheight=\"16\">\n<tileset firstgid=\"1\" source=\"fixture.tsx\"/>\n"
        "<layer name=\"t\" width=\"6\" height=\"4\"><data encoding=\"csv\">\n"
        "0,0,0,0,0,0,\n0,0,0,0,0,0,\n0,0,0,0,0,0,\n1,1,1,1,1,1</data></layer>\n"
        "<group offsety=\"-16\">\n<layer name=\"s\" offsetx=\"16\" width=\"6\" height=\"4\">"
        "<data encoding=\"csv\">\n0,0,0,0,0,4,\n0,0,0,0,0,0,\n0,1,0,0,2,0,\n0,0,0,0,0,0"
        "</data></layer>\n</group>\n</map>\n";
    const char *tmj =
        "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":6,\"height\":4,"
        "\"tilewidth\":16,\"tileheight\":16,\"tilesets\":[{\"firstgid\":1,\"source\":"
        "\"fixture.tsj\"}],\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":6,"
        "\"height\":4,\"data\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1]},"
        "{\"type\":\"group\",\"offsety\":-16,\"layers\":[{\"type\":\"tilelayer\",\"name\":"
        "\"s\",\"offsetx\":16,\"width\":6,\"height\":4,\"data\":[0,0,0,0,0,4,0,0,0,0,0,0,0,1,"
        "0,0,2,0,0,0,0,0,0,0]}]}]}";
    char dir[64], p[256];
    scratch(dir);
    for (int k = 0; k < 2; k++) {
        snprintf(p, sizeof p, "%s/off.%s", dir, k ? "tmj" : "tmx");
        write_bytes(p, k ? tmj : tmx, strlen(k ? tmj : tmx));
        tn_map *m = NULL;
        if (tn_load_map(p, &m, err, sizeof err) != 0) fail_msg("%s", err);
        assert_int_equal(tn_map_tile(m, 2, 1), TN_TILE_BLOCK);
        assert_int_equal(tn_map_tile(m, 5, 1), TN_TILE_ONEWAY);
        assert_int_equal(tn_map_tile(m, 1, 2), TN_TILE_EMPTY);
        assert_int_equal(tn_map_tile(m, 4, 2), TN_TILE_EMPTY);
        assert_int_equal(tn_map_tile(m, 0, 3), TN_TILE_BLOCK);
        /* the shifted block cleared, a block added: saved, read back */
        tn_map_set_tile(m, 2, 1, TN_TILE_EMPTY, NULL);
        tn_map_set_tile(m, 3, 1, TN_TILE_BLOCK, NULL);
        if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
        tn_map *back = tu_load_map(p);
        assert_true(tn_map_equal(back, m));
        tn_map_destroy(back);
        tn_map_destroy(m);
    }
    /* a block drawn off the map: refused at its cell */
    tn_map *m = load_tmx("",
                         "<layer name=\"s\" offsetx=\"32\" width=\"4\" height=\"3\">"
                         "<data encoding=\"csv\">\n0,0,0,0,\n0,0,0,1,\n0,0,0,0</data></layer>\n",
                         err, sizeof err);
    assert_null(m);
    assert_string_equal(err, "tests/data/tiled/pos.tmx:13: layer 's': cell (3,1) is drawn on "
                             "tile (5,1), outside the 4x3 map, by the layer's offsetx/offsety "
                             "32,0 px (2,0 tiles, its groups' included): its block would be "
                             "lost; move the tiles or the layer back inside the map in Tiled");
    /* half a tile: refused as before */
    m = load_tmx("",
                 "<layer name=\"s\" offsety=\"24\" width=\"4\" height=\"3\">"
                 "<data encoding=\"csv\">\n1,0,0,0,\n0,0,0,0,\n0,0,0,0</data></layer>\n",
                 err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "layer 's': offsetx/offsety 0,24 px (its groups' included): a "
                                "tile layer drawn off the map's grid"));
    /* the only terrain layer shifted: new blocks go on its cells drawn
     * there; where it has none, a clear message */
    snprintf(p, sizeof p, "%s/only.tmx", dir);
    const char *only = "<map orientation=\"orthogonal\" width=\"4\" height=\"3\" "
                       "tilewidth=\"16\" tileheight=\"16\">\n<tileset firstgid=\"1\" "
                       "source=\"fixture.tsx\"/>\n<layer name=\"s\" offsetx=\"16\" width=\"4\" "
                       "height=\"3\"><data encoding=\"csv\">\n0,0,0,0,\n0,0,0,0,\n1,1,1,0"
                       "</data></layer>\n</map>\n";
    write_bytes(p, only, strlen(only));
    m = tu_load_map(p);
    assert_int_equal(tn_map_tile(m, 0, 2), TN_TILE_EMPTY);
    assert_int_equal(tn_map_tile(m, 3, 2), TN_TILE_BLOCK);
    tn_map_set_tile(m, 2, 0, TN_TILE_BLOCK, NULL);
    if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
    size_t n;
    char *text = slurp(p, &n);
    assert_non_null(strstr(text, "0,1,0,0,\n0,0,0,0,\n1,1,1,0"));
    free(text);
    tn_map_set_tile(m, 0, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot save a block at 0,0: layer 's', where it goes, is drawn "
                                "1,0 tiles off by its offsetx/offsety and has no cell there"));
    tn_map_destroy(m);
    /* infinite: the map is the chunks' bounding box where they are drawn */
    snprintf(p, sizeof p, "%s/inf.tmx", dir);
    const char *inf =
        "<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" "
        "tileheight=\"16\" infinite=\"1\">\n<tileset firstgid=\"1\" source=\"fixture.tsx\"/>\n"
        "<layer name=\"a\" width=\"2\" height=\"2\"><data encoding=\"csv\">\n"
        "<chunk x=\"0\" y=\"0\" width=\"2\" height=\"2\">\n1,0,\n0,0\n</chunk>\n</data></layer>\n"
        "<layer name=\"b\" offsetx=\"32\" width=\"2\" height=\"2\"><data encoding=\"csv\">\n"
        "<chunk x=\"0\" y=\"0\" width=\"2\" height=\"2\">\n0,0,\n0,1\n</chunk>\n</data></layer>\n"
        "</map>\n";
    write_bytes(p, inf, strlen(inf));
    m = tu_load_map(p);
    assert_int_equal(m->w, 4);
    assert_int_equal(m->h, 2);
    assert_int_equal(tn_map_tile(m, 0, 0), TN_TILE_BLOCK);
    assert_int_equal(tn_map_tile(m, 3, 1), TN_TILE_BLOCK);
    assert_int_equal(tn_map_tile(m, 1, 1), TN_TILE_EMPTY);
    tn_map_set_tile(m, 3, 1, TN_TILE_EMPTY, NULL);
    tn_map_set_tile(m, 2, 0, TN_TILE_BLOCK, NULL);
    tn_map_set_tile(m, 3, 0, TN_TILE_BLOCK, NULL);
    if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
    tn_map *back = tu_load_map(p);
    assert_true(tn_map_equal(back, m));
    tn_map_destroy(back);
    tn_map_destroy(m);
    rm_scratch(dir);
}

/* Maps that did not come from Tiled get a new document. */
static void test_new_documents(void **state)
{
    (void)state;
    char dir[64], err[512];
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    tn_map *demo = tu_load_map("maps/demo.map");
    /* a big one: zlib instead of CSV */
    tn_map *big = NULL;
    assert_true(tn_succeeded(tn_map_create(700, 300, NULL, &big, NULL)));
    uint32_t r = 12345;
    for (int i = 0; i < big->w * big->h; i++) {
        r = r * 1103515245u + 12345u;
        big->tile[i] = (uint8_t)((r >> 16) % 3);
        if (big->tile[i] == TN_TILE_EMPTY && (r >> 8) % 50 == 0)
            big->mark[i] = (uint8_t)(1 + (r >> 4) % 3);
    }
    big->start_x = 0;
    big->start_y = 0;
    big->tile[0] = TN_TILE_EMPTY;
    big->mark[0] = TN_MARK_NONE;
    const char *names[] = {"demo.tmx", "demo.tmj", "big.tmx", "big.json"};
    for (int i = 0; i < 4; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        tn_map *m = i < 2 ? demo : big;
        if (tn_save_map(m, p, err, sizeof err) != 0) fail_msg("%s", err);
        tn_map *back = tu_load_map(p);
        if (!tn_map_equal(m, back)) fail_msg("%s does not load back equal", names[i]);
        tn_map_destroy(back);
    }
    tn_map_destroy(demo);
    tn_map_destroy(big);
    rm_scratch(dir);
}

/* A new document's zlib data is deflated at zlib's default level: the
 * fresh template's doc has no compressionlevel read yet (zlevel 0 after its
 * memset), and deflating at 0 stored a big empty map's terrain raw, the
 * 700x300 tiles' 840,000 bytes as 1.1 MB of base64 instead of about 2 KB,
 * and an all-empty map kept it (patch_terrain re-encodes a layer only when
 * a tile differs). */
static void test_new_document_deflated(void **state)
{
    (void)state;
    char err[512];
    tn_map *big = NULL;
    assert_true(tn_succeeded(tn_map_create(700, 300, NULL, &big, NULL)));
    big->start_x = 0;
    big->start_y = 0;
    for (int fmt = 0; fmt < 2; fmt++) {
        const char *name = fmt ? "/tmp/big.tmj" : "/tmp/big.tmx";
        char *out = NULL;
        size_t len = 0;
        if (tn_tiled_format(big, NULL, 0, NULL, name, fmt ? TN_TILED_TMJ : TN_TILED_TMX, &out, &len,
                            err, sizeof err) != 0)
            fail_msg("%s", err);
        if (len > 20000) fail_msg("%s: a new empty 700x300 document is %zu bytes", name, len);
        const char *z = strstr(out, "eJ"); /* zlib's header at the default level */
        if (!z) fail_msg("%s: no zlib data at the default level", name);
        tn_map *back = NULL;
        if (tn_tiled_load_buffer(out, len, name, fmt ? TN_TILED_TMJ : TN_TILED_TMX, &back, err,
                                 sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(tn_map_equal(back, big));
        tn_map_destroy(back);
        free(out);
    }
    tn_map_destroy(big);
}

/* A new document names the game's tileset image relative to itself, so
 * Tiled finds it (a reviewer's saved map named "tilenav.png" beside it,
 * where there is none): in a subdirectory of a scratch directory, in the
 * assets directory itself, and "tilenav.png" again with no assets. */
static void test_new_document_finds_the_image(void **state)
{
    (void)state;
    char dir[64], err[512], want[PATH_MAX], got[PATH_MAX];
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    char sub[128];
    snprintf(sub, sizeof sub, "%s/a", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_non_null(realpath("assets/tilenav.png", want));
    tn_map *demo = tu_load_map("maps/demo.map");
    const char *names[] = {"a/x.tmx", "a/x.tmj", "y.tmx"};
    tn_tiled_set_assets("assets");
    for (int i = 0; i < 3; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (tn_save_map(demo, p, err, sizeof err) != 0) fail_msg("%s", err);
        size_t len;
        char *text = slurp(p, &len);
        const char *key = i == 1 ? "\"image\":\t\"" : "<image source=\"";
        const char *at = strstr(text, key);
        if (!at) fail_msg("%s: no %s in\n%s", names[i], key, text);
        at += strlen(key);
        char img[PATH_MAX + 300];
        snprintf(img, sizeof img, "%.*s/%.*s", (int)(strrchr(p, '/') - p), p,
                 (int)strcspn(at, "\""), at);
        if (!realpath(img, got) || strcmp(got, want) != 0)
            fail_msg("%s names %s, not %s", names[i], img, want);
        free(text);
    }
    tn_tiled_set_assets(NULL);
    char p[256];
    snprintf(p, sizeof p, "%s/z.tmx", dir);
    if (tn_save_map(demo, p, err, sizeof err) != 0) fail_msg("%s", err);
    size_t len;
    char *text = slurp(p, &len);
    assert_non_null(strstr(text, "<image source=\"tilenav.png\""));
    free(text);
    tn_map_destroy(demo);
    rm_scratch(dir);
}

/* ----------------------------------------------------------- bad input */

static void expect_error(const char *text, int fmt, const char *want)
{
    tn_map *m = (tn_map *)0x1;
    char err[512];
    int rc = tn_tiled_load_buffer(text, strlen(text), "tests/data/tiled/bad.tmx", fmt, &m, err,
                                  sizeof err);
    if (rc != -1) fail_msg("accepted: %s", text);
    assert_null(m);
    if (strcmp(err, want) != 0) fail_msg("message\n  got:  %s\n  want: %s", err, want);
}

#define TMX_HEAD                                                                                   \
    "<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">" \
    "<tileset firstgid=\"1\" source=\"fixture.tsx\"/>"

static void test_errors(void **state)
{
    (void)state;
    /* .tmx: FILE:LINE: problem (the offending element's line; a CSV tile
     * number's own); .tmj: FILE: JSONPATH: problem (cJSON keeps no
     * positions), FILE: problem for the whole map */
    const char *B = "tests/data/tiled/bad.tmx";
    char want[512], doc[4096];
#define E(text, fmt, msg) E_AT(text, fmt, ((fmt) == TN_TILED_TMX ? ":1" : ""), msg)
#define E_AT(text, fmt, at, msg)                             \
    do {                                                     \
        snprintf(want, sizeof want, "%s%s: %s", B, at, msg); \
        expect_error(text, fmt, want);                       \
    } while (0)
    E("<map orientation=\"isometric\" width=\"2\" height=\"2\" tilewidth=\"16\" "
      "tileheight=\"16\"/>",
      TN_TILED_TMX, "orientation 'isometric' is not supported (only orthogonal maps)");
    E("<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">"
      "<tileset firstgid=\"1\" source=\"nope.tsx\"/></map>",
      TN_TILED_TMX,
      "tileset nope.tsx: cannot open tests/data/tiled/nope.tsx: No such file or directory (a "
      "source is relative to the map's directory)");
    E(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data "
               "encoding=\"base64\">AAA*AAAA</data></layer></map>",
      TN_TILED_TMX, "layer 't': bad base64 (character '*')");
    E(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"base64\" "
               "compression=\"zstd\">KLUv</data></layer></map>",
      TN_TILED_TMX,
      "layer 't': zstd compression is not supported (save it in Tiled with zlib, gzip or no "
      "compression)");
    E(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data "
               "encoding=\"csv\">1,2,3</data></layer></map>",
      TN_TILED_TMX, "layer 't' holds 3 tiles, expected 4");
    E(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data "
               "encoding=\"csv\">1,2,x,4</data></layer></map>",
      TN_TILED_TMX, "layer 't': CSV: 'x' where a tile number belongs");
    E(TMX_HEAD "<layer name=\"t\" width=\"3\" height=\"2\"><data "
               "encoding=\"csv\">1,2,3,4,5,6</data></layer></map>",
      TN_TILED_TMX, "layer 't' is 3x2 tiles, the map 2x2");
    E(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data>1</data></layer></map>",
      TN_TILED_TMX, "layer 't': tile data as <tile> elements is not supported (use CSV or base64)");
    /* a <data> attribute's problem is at the <data>, not its <layer> (README:
     * the line of the offending element; tiled-zstd named the <layer>'s) */
    {
        static const struct {
            const char *attrs, *msg;
        } DATA[] = {
            {"encoding=\"CSV\"", "unknown encoding 'CSV' (expected csv or base64)"},
            {"encoding=\"base64\" compression=\"zstd\"",
             "zstd compression is not supported (save it in Tiled with zlib, gzip or no "
             "compression)"},
            {"encoding=\"base64\" compression=\"lzma\"", "unknown compression 'lzma'"},
            {"encoding=\"csv\" compression=\"zlib\"", "compression needs base64 encoding"},
            {"", "tile data as <tile> elements is not supported (use CSV or base64)"},
        };
        for (size_t i = 0; i < sizeof DATA / sizeof DATA[0]; i++) {
            char msg[256];
            snprintf(doc, sizeof doc,
                     TMX_HEAD "\n<layer name=\"t\" width=\"2\" height=\"2\">\n\n"
                              "<data %s>1,2,3,4</data></layer></map>",
                     DATA[i].attrs);
            snprintf(msg, sizeof msg, "layer 't': %s", DATA[i].msg);
            E_AT(doc, TN_TILED_TMX, ":4", msg);
        }
    }
    E("<map orientation=\"orthogonal\" width=\"4097\" height=\"2\" tilewidth=\"16\" "
      "tileheight=\"16\"/>",
      TN_TILED_TMX, "the map is 4097x2 tiles; the game takes 1..4096 each way");
    E("<map orientation=\"orthogonal\" infinite=\"1\" width=\"4\" height=\"2\" tilewidth=\"16\" "
      "tileheight=\"16\">"
      "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\"><chunk x=\"0\" y=\"0\" "
      "width=\"16\" height=\"16\">0</chunk>"
      "<chunk x=\"4096\" y=\"0\" width=\"16\" height=\"16\">0</chunk></data></layer></map>",
      TN_TILED_TMX, "the chunks' bounding box is 4112x16 tiles; the game takes 1..4096 each way");
    E("<map orientation=\"orthogonal\" infinite=\"1\" width=\"4\" height=\"2\" tilewidth=\"16\" "
      "tileheight=\"16\">"
      "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\"></data></layer></map>",
      TN_TILED_TMX, "the infinite map has no tile chunks");
    E(TMX_HEAD
      "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\">0,0,0,0</data></layer>"
      "<objectgroup><object id=\"1\" class=\"start\" x=\"1\" y=\"1\"/><object id=\"2\" "
      "class=\"start\" x=\"17\" y=\"1\"/>"
      "</objectgroup></map>",
      TN_TILED_TMX, "object 2 is a second start (the first is object 1)");
    E(TMX_HEAD
      "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\">0,1,0,0</data></layer>"
      "<objectgroup><object id=\"7\" class=\"item\" x=\"20\" "
      "y=\"1\"><point/></object></objectgroup></map>",
      TN_TILED_TMX, "object 7 (item) is on a block at tile 1,0");
    E(TMX_HEAD
      "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\">0,0,0,0</data></layer>"
      "<objectgroup><object id=\"3\" type=\"dest\" x=\"40\" y=\"1\"/></objectgroup></map>",
      TN_TILED_TMX, "object 3 (dest) at 40,1 is outside the map");
    E("<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">"
      "<tileset firstgid=\"1\"><tile id=\"0\"><properties><property name=\"kind\" "
      "value=\"lava\"/></properties></tile>"
      "</tileset></map>",
      TN_TILED_TMX, "tileset (embedded): tile 0 has kind 'lava' (expected block, oneway or none)");
    E("<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">"
      "<layer name=\"t\" width=\"2\" height=\"2\"><data "
      "encoding=\"csv\">0,5,0,0</data></layer></map>",
      TN_TILED_TMX, "layer 't': cell (1,0): gid 5 belongs to no tileset (the map has no tileset)");
    /* a gid past the tileset's tiles (fixture.tsx holds 8), and one whose
     * flip flags (Tiled's top four bits) leave no tile of a tileset */
    E_AT(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data "
                  "encoding=\"csv\">0,1,\n999,0</data></layer></map>",
         TN_TILED_TMX, ":2",
         "layer 't': cell (0,1): gid 999 belongs to no tileset (the tilesets hold gids 1..8)");
    E(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data "
               "encoding=\"csv\">0,0,0,4294967295</data></layer></map>",
      TN_TILED_TMX,
      "layer 't': cell (1,1): gid 4294967295 (tile 268435455 with flip flags 0xf0000000) belongs "
      "to no tileset (the tilesets hold gids 1..8)");
    E_AT("{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":"
         "16,"
         "\"tilesets\":[{\"firstgid\":1,\"tilecount\":4},{\"firstgid\":101,\"tilecount\":2}],"
         "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"j\",\"width\":2,\"height\":2,"
         "\"data\":[0,4,102,103]}]}",
         TN_TILED_TMJ, ": $.layers[0].data[3]",
         "layer 'j': cell (1,1): gid 103 belongs to no tileset (the tilesets hold gids 1..4, "
         "101..102)");
    /* an image collection holds only the tiles it lists: Tiled draws
     * nothing for another id of its range, so it is no block either */
    E_AT(
        "{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":"
        "16,\"tilesets\":[{\"firstgid\":1,\"tilecount\":4},{\"firstgid\":11,\"tilecount\":2,"
        "\"columns\":0,\"tiles\":[{\"id\":5,\"image\":\"b.png\"},{\"id\":0,\"image\":\"a.png\"}]}],"
        "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"j\",\"width\":2,\"height\":2,"
        "\"data\":[11,16,0,2147483661]}]}",
        TN_TILED_TMJ, ": $.layers[0].data[3]",
        "layer 'j': cell (1,1): gid 2147483661 is tile 2 of the image collection at first gid 11, "
        "which has no tile 2 (it lists 0, 5)");
    E("<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">"
      "<tileset firstgid=\"1\"><tile id=\"0\"><properties><property name=\"kind\" "
      "value=\"block\"/></properties></tile>"
      "<tile id=\"0\"><properties><property name=\"kind\" "
      "value=\"oneway\"/></properties></tile></tileset></map>",
      TN_TILED_TMX, "tileset (embedded): tile 0 is listed twice (Tiled lists each tile once)");
    /* also when the first listing has no kind (a fuzzer's: a save wrote a
     * block as that tile, which read back as one-way) */
    E("<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">"
      "<tileset firstgid=\"1\"><tile id=\"0\"/>"
      "<tile id=\"0\"><properties><property name=\"kind\" "
      "value=\"oneway\"/></properties></tile></tileset></map>",
      TN_TILED_TMX, "tileset (embedded): tile 0 is listed twice (Tiled lists each tile once)");
    /* two tilesets whose gids overlap, each tile listed once */
    E("<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">"
      "<tileset firstgid=\"1\"><tile id=\"0\"><properties><property name=\"kind\" "
      "value=\"block\"/></properties></tile></tileset>"
      "<tileset firstgid=\"1\"><tile id=\"0\"><properties><property name=\"kind\" "
      "value=\"oneway\"/></properties></tile></tileset></map>",
      TN_TILED_TMX, "tile 1 is described twice (two tilesets overlap, or a tile id repeats)");
    E("<map orientation=\"orthogonal\" infinite=\"1\" width=\"4\" height=\"2\" tilewidth=\"16\" "
      "tileheight=\"16\">"
      "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\"><chunk x=\"0\" y=\"0\" "
      "width=\"2\" height=\"2\">0,0,0,0</chunk>"
      "<chunk x=\"1\" y=\"-1\" width=\"2\" height=\"2\">0,0,0,0</chunk></data></layer></map>",
      TN_TILED_TMX, "layer 't' chunk 1,-1 overlaps another chunk of the layer at tile 1,0");
    E("<tileset/>", TN_TILED_TMX, "not a Tiled map (the root element is not <map>)");
    E_AT("{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":"
         "16,"
         "\"layers\":[{\"type\":"
         "\"tilelayer\",\"name\":\"j\",\"width\":2,\"height\":2,\"data\":[0,0,0,-1]}]}",
         TN_TILED_TMJ, ": $.layers[0].data[3]",
         "layer 'j': \"data\" holds something other than a tile number");
    E("{\"orientation\":\"hexagonal\"}", TN_TILED_TMJ,
      "orientation 'hexagonal' is not supported (only orthogonal maps)");
    E("{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":16,"
      "\"layers\":[]}",
      TN_TILED_TMJ, "the map has no tile layer");
    /* lines and paths of elements further down */
    E_AT(TMX_HEAD "\n<layer name=\"t\" width=\"2\" height=\"2\"><data "
                  "encoding=\"csv\">0,0,0,0</data></layer>\n<objectgroup>\n"
                  "<object id=\"13\" class=\"item\" x=\"nan\" y=\"1\"/>\n</objectgroup></map>",
         TN_TILED_TMX, ":4", "object 13 (item): x 'nan' is not a number");
    E_AT(TMX_HEAD "\n<layer name=\"t\" width=\"2\" height=\"2\"><data "
                  "encoding=\"csv\">0,0,0,0</data></layer>\n\n<layer name=\"u\" width=\"3\" "
                  "height=\"2\">\n<data encoding=\"csv\">0,0,0,0,0,0</data></layer></map>",
         TN_TILED_TMX, ":4", "layer 'u' is 3x2 tiles, the map 2x2");
    E_AT(TMX_HEAD "\n<layer name=\"t\" width=\"2\" height=\"2\">\n<data "
                  "encoding=\"base64\">\nAAA*AAAA</data></layer></map>",
         TN_TILED_TMX, ":3", "layer 't': bad base64 (character '*')");
    E_AT(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\">\n0,1,\n0,0"
                  "</data></layer>\n<objectgroup>\n<object id=\"7\" class=\"item\" x=\"20\" "
                  "y=\"1\"><point/></object></objectgroup></map>",
         TN_TILED_TMX, ":5", "object 7 (item) is on a block at tile 1,0");
    E_AT("{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":"
         "16,"
         "\"layers\":[{\"type\":\"group\",\"layers\":[{\"type\":\"tilelayer\",\"name\":\"j\","
         "\"width\":2,\"height\":2,\"data\":[0,0,0,0]},{\"type\":\"objectgroup\",\"objects\":["
         "{\"id\":1,\"class\":\"item\",\"x\":1,\"y\":1},{\"id\":13,\"class\":\"item\",\"x\":"
         "\"nan\",\"y\":1}]}]}]}",
         TN_TILED_TMJ, ": $.layers[0].layers[1].objects[1]",
         "object 13 (item): \"x\" is not a number");
    E_AT("{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16,\"tileheight\":"
         "16,"
         "\"tilesets\":[{\"firstgid\":1,\"tiles\":[{\"id\":0},{\"id\":1,\"properties\":[{"
         "\"name\":\"kind\",\"value\":\"lava\"}]}]}],\"layers\":[]}",
         TN_TILED_TMJ, ": $.tilesets[0].tiles[1]",
         "tileset (embedded): tile 1 has kind 'lava' (expected block, oneway or none)");
#undef E
#undef E_AT
    expect_error(
        "<map", TN_TILED_TMX,
        "tests/data/tiled/bad.tmx:1: XML error: Couldn't find end of Start Tag map line 1");
    expect_error("{\"a\":\n [1,]}", TN_TILED_TMJ, "tests/data/tiled/bad.tmx:2:5: not valid JSON");
    /* an empty (or blank) document is said to be one, not "not valid JSON" */
    expect_error("", TN_TILED_TMJ,
                 "tests/data/tiled/bad.tmx:1:1: the file is empty: no JSON document (a Tiled "
                 "JSON map is a JSON object, {...})");
    expect_error(" \n\t", TN_TILED_TMJ,
                 "tests/data/tiled/bad.tmx:2:2: the file holds only white space: no JSON "
                 "document (a Tiled JSON map is a JSON object, {...})");
    expect_error("\xEF\xBB\xBF", TN_TILED_TMJ,
                 "tests/data/tiled/bad.tmx:1:4: the file holds only a UTF-8 byte-order mark: no "
                 "JSON document (a Tiled JSON map is a JSON object, {...})");

    /* A decompression bomb: 2x2 tiles, 8 MiB of zeros.  Refused after
     * inflating 16 bytes and at most one 64 KiB piece. */
    size_t raw = 8u << 20;
    unsigned char *zeros = calloc(raw, 1), *z = malloc(compressBound(raw));
    uLongf zn = compressBound(raw);
    assert_int_equal(compress(z, &zn, zeros, raw), Z_OK);
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char b64[64000];
    size_t k = 0;
    for (size_t i = 0; i < zn; i += 3) {
        unsigned v = (unsigned)z[i] << 16 | (i + 1 < zn ? (unsigned)z[i + 1] << 8 : 0) |
                     (i + 2 < zn ? z[i + 2] : 0);
        b64[k++] = A[v >> 18 & 63];
        b64[k++] = A[v >> 12 & 63];
        b64[k++] = i + 1 < zn ? A[v >> 6 & 63] : '=';
        b64[k++] = i + 2 < zn ? A[v & 63] : '=';
    }
    b64[k] = '\0';
    assert_true(k < sizeof b64 - 1);
    free(zeros);
    free(z);
    char *bomb = malloc(k + 1024);
    sprintf(bomb,
            TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"base64\" "
                     "compression=\"zlib\">%s"
                     "</data></layer></map>",
            b64);
    snprintf(want, sizeof want,
             "%s:1: layer 't': the zlib data inflates to more than the layer's 16 bytes (4 tiles)",
             B);
    expect_error(bomb, TN_TILED_TMX, want);
    free(bomb);
    (void)doc;
}

/* Tiled's flip flags (the top four bits of a gid: horizontal, vertical,
 * anti-diagonal, hexagonal 120) say how a tile is drawn, not which tile:
 * a flipped block is a block, and flags on gid 0 leave the cell empty. */
static void test_flip_flags(void **state)
{
    (void)state;
    char doc[1024], err[512];
    snprintf(doc, sizeof doc,
             TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\">"
                      "%u,%u,%u,%u</data></layer></map>",
             0x80000001u, 0x40000002u, 0x20000000u, 0x10000001u | 0x20000000u);
    tn_map *m = NULL;
    if (tn_tiled_load_buffer(doc, strlen(doc), "tests/data/tiled/flip.tmx", TN_TILED_TMX, &m, err,
                             sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(tn_map_tile(m, 0, 0), TN_TILE_BLOCK);
    assert_int_equal(tn_map_tile(m, 1, 0), TN_TILE_ONEWAY);
    assert_int_equal(tn_map_tile(m, 0, 1), TN_TILE_EMPTY);
    assert_int_equal(tn_map_tile(m, 1, 1), TN_TILE_BLOCK);
    tn_map_destroy(m);
}

/* The CSV .tmj fast path (tile arrays read from the text, not from cJSON
 * nodes) agrees with cJSON on what it accepts, refuses and where. */
static void test_json_tile_arrays(void **state)
{
    (void)state;
    char doc[8192], err[512], row[512];
    /* 16x4 map; one row of 16 numbers is > 64 characters. */
    snprintf(row, sizeof row, "%s", "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1");
    const char *head = "{\"orientation\":\"orthogonal\",\"width\":16,\"height\":4,\"tilewidth\":16,"
                       "\"tileheight\":16,\"tilesets\":[{\"firstgid\":1}],\n"
                       "\"properties\":[{\"name\":\"n\",\"value\":\"\\\"data\\\":[7,7,7,7,7,7,7,7,"
                       "7,7,7,7,7,7,7,7,7,"
                       "7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7]\"}],\n";
    /* full, with line breaks inside the array; the map's last row is empty */
    snprintf(doc, sizeof doc,
             "%s\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":16,\"height\":4,"
             "\"data\":[%s,\n%s,\n%s,\n0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]}",
             head, row, row, row);
    tn_map *m = NULL;
    if (tn_tiled_load_buffer(doc, strlen(doc), "x.tmj", TN_TILED_TMJ, &m, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(tn_map_tile(m, 3, 2), TN_TILE_BLOCK);
    assert_int_equal(tn_map_tile(m, 3, 3), TN_TILE_EMPTY);
    /* the same document through cJSON alone (the saver's parse) */
    char *out;
    size_t len;
    if (tn_tiled_format(m, doc, strlen(doc), "x.tmj", "x.tmj", TN_TILED_TMJ, &out, &len, err,
                        sizeof err) != 0)
        fail_msg("%s", err);
    free(out);
    tn_map_destroy(m);
    /* too few numbers: the same message as the cJSON path gives */
    snprintf(doc, sizeof doc,
             "%s\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":16,\"height\":4,"
             "\"data\":[%s,\n%s,\n%s]}]}",
             head, row, row, row);
    assert_int_equal(
        tn_tiled_load_buffer(doc, strlen(doc), "x.tmj", TN_TILED_TMJ, &m, err, sizeof err), -1);
    assert_string_equal(err, "x.tmj: $.layers[0].data: layer 't' holds 48 tiles, expected 64");
    /* a syntax error after a blanked array keeps its line and column */
    snprintf(doc, sizeof doc,
             "%s\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":16,\"height\":4,"
             "\"data\":[%s,\n%s,\n%s,\n%s]}],\n \"x\": tru}",
             head, row, row, row, row);
    assert_int_equal(
        tn_tiled_load_buffer(doc, strlen(doc), "x.tmj", TN_TILED_TMJ, &m, err, sizeof err), -1);
    assert_string_equal(err, "x.tmj:7:7: not valid JSON");
    /* a negative number in a tile array: refused, not taken for a marker */
    snprintf(doc, sizeof doc,
             "%s\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":16,\"height\":4,"
             "\"data\":[-1]}, {\"type\":\"tilelayer\",\"name\":\"u\",\"width\":16,\"height\":4,"
             "\"data\":[%s,%s,%s,%s]}]}",
             head, row, row, row, row);
    assert_int_equal(
        tn_tiled_load_buffer(doc, strlen(doc), "x.tmj", TN_TILED_TMJ, &m, err, sizeof err), -1);
    assert_string_equal(
        err,
        "x.tmj: $.layers[0].data[0]: layer 't': \"data\" holds something other than a tile number");
}

/* A "data" array that is not valid JSON (a trailing or doubled comma, two
 * numbers without one) is refused on load as cJSON refuses it, with the
 * line and column, and not read by the fast CSV path: the save, which
 * parses with cJSON alone, could not read it back. */
static void test_json_tile_arrays_strict(void **state)
{
    (void)state;
    char doc[4096], err[512];
    const char *row = "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1";
    /* the last of 4 rows of 16 numbers, and the array's end */
    static const char *const last[] = {
        "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,]",  /* trailing comma */
        "1,, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",  /* doubled comma */
        "1 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", /* no comma */
        "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",   /* valid */
    };
    static const char *const want[] = {"x.tmj:5:48: not valid JSON", "x.tmj:5:3: not valid JSON",
                                       "x.tmj:5:3: not valid JSON", NULL};
    for (int i = 0; i < 4; i++) {
        snprintf(doc, sizeof doc,
                 "{\"orientation\":\"orthogonal\",\"width\":16,\"height\":4,\"tilewidth\":16,"
                 "\"tileheight\":16,\"tilesets\":[{\"firstgid\":1}],\n"
                 "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":16,"
                 "\"height\":4,\"data\":[%s,\n%s,\n%s,\n%s}]}",
                 row, row, row, last[i]);
        tn_map *m = NULL;
        int rc = tn_tiled_load_buffer(doc, strlen(doc), "x.tmj", TN_TILED_TMJ, &m, err, sizeof err);
        if (!want[i]) {
            if (rc != 0) fail_msg("%s", err);
            tn_map_destroy(m);
            continue;
        }
        if (rc == 0) fail_msg("'%s': loaded", last[i]);
        assert_null(m);
        assert_string_equal(err, want[i]);
    }
}

/* expect_error for a text of len bytes (NUL bytes in it), as `name`. */
/* A CR-only (old Mac) or CRLF file's messages name the lines the LF
 * file's do: libxml2 counts lines at LFs only and the JSON messages did
 * too, so every problem in a CR-only file was on line 1. */
static void test_cr_only_lines(void **state)
{
    (void)state;
    const struct {
        const char *text, *at;
        int fmt;
    } cases[] = {
        {TMX_HEAD "\n<layer name=\"t\" width=\"2\" height=\"2\">\n<data encoding=\"base64\" "
                  "compression=\"zstd\">KLUv</data></layer>\n</map>\n",
         ":3: layer 't': zstd", TN_TILED_TMX},
        {TMX_HEAD "\n<layer name=\"t\" width=\"2\" height=\"2\">\n<data encoding=\"csv\">\n1,2,\n"
                  "x,4\n</data></layer>\n</map>\n",
         ":5: layer 't': CSV: 'x'", TN_TILED_TMX},
        {TMX_HEAD "\n<layer name=\"t\"\nwidth=\"2\" height=\"2\">\n<data <\n</data></layer>\n"
                  "</map>\n",
         ":4: XML error: ", TN_TILED_TMX},
        {"{ \"width\":2,\n  \"height\":2,\n  \"layers\":[ ,\n]\n}\n", ":3:14: not valid JSON",
         TN_TILED_TMJ},
        {"{ \"width\":2,\n\n  \"name\":\"a\tb\" }\n", ":3:12: not valid JSON (a raw control",
         TN_TILED_TMJ},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char lf_err[512], err[512];
        tn_map *m = NULL;
        size_t n = strlen(cases[i].text);
        assert_int_equal(tn_tiled_load_buffer(cases[i].text, n, "tests/data/tiled/bad.tmx",
                                              cases[i].fmt, &m, lf_err, sizeof lf_err),
                         -1);
        if (!strstr(lf_err, cases[i].at)) fail_msg("case %zu (LF): %s", i, lf_err);
        for (int k = 0; k < 2; k++) {
            size_t nc = n;
            char *c = rebreak(cases[i].text, &nc, k ? "\r\n" : "\r", k ? "\r\n" : "\r");
            assert_int_equal(tn_tiled_load_buffer(c, nc, "tests/data/tiled/bad.tmx", cases[i].fmt,
                                                  &m, err, sizeof err),
                             -1);
            if (strcmp(err, lf_err) != 0)
                fail_msg("case %zu (%s)\n  got:  %s\n  want: %s", i, k ? "CRLF" : "CR", err,
                         lf_err);
            free(c);
        }
    }
}

/* A UTF-16 file without a byte-order mark, little-endian: its
 * bytes 0x0D are halves of characters, never line breaks (U+010D, c with
 * caron, is 0x0D 0x01): they stay what they are, on load and on a save. */
static void test_utf16_no_bom_keeps_text(void **state)
{
    (void)state;
    const char *ascii[] = {"<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" TMX_HEAD
                           "<properties><property name=\"who\" value=\"",
                           "\"/></properties>\n<layer name=\"t\" width=\"2\" height=\"2\"><data "
                           "encoding=\"csv\">0,1,0,0</data></layer></map>\n"};
    {
        const int wide = 2; /* bytes a character */
        unsigned char doc[2048];
        size_t n = 0;
        for (int p = 0; p < 2; p++) {
            for (const char *s = ascii[p]; *s; s++) {
                doc[n++] = (unsigned char)*s;
                for (int k = 1; k < wide; k++) doc[n++] = 0;
            }
            if (p == 0) { /* U+010D */
                doc[n++] = 0x0D;
                doc[n++] = 0x01;
                for (int k = 2; k < wide; k++) doc[n++] = 0;
            }
        }
        tn_map *m = NULL;
        char err[512];
        const char *X = "tests/data/tiled/u16.tmx";
        if (tn_tiled_load_buffer((const char *)doc, n, X, TN_TILED_TMX, &m, err, sizeof err) != 0)
            fail_msg("UTF-%d: %s", wide * 8, err);
        assert_int_equal(tn_map_tile(m, 1, 0), TN_TILE_BLOCK);
        char *out = NULL;
        size_t len = 0;
        if (tn_tiled_format(m, (const char *)doc, n, X, X, TN_TILED_TMX, &out, &len, err,
                            sizeof err) != 0)
            fail_msg("UTF-%d save: %s", wide * 8, err);
        if (!strstr(out, "value=\"\xC4\x8D\""))
            fail_msg("UTF-%d: the property's c with caron changed: %s", wide * 8, out);
        free(out);
        tn_map_destroy(m);
    }
}

static void expect_error_n(const char *text, size_t len, const char *name, int fmt,
                           const char *want)
{
    tn_map *m = (tn_map *)0x1;
    char err[1024];
    int rc = tn_tiled_load_buffer(text, len, name, fmt, &m, err, sizeof err);
    if (rc != -1) fail_msg("accepted: %s", text);
    assert_null(m);
    if (strcmp(err, want) != 0) fail_msg("message\n  got:  %s\n  want: %s", err, want);
}

#define TMJ_HEAD                                                                                  \
    "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":16," \
    "\"tileheight\":16,\"tilesets\":[{\"firstgid\":1,\"source\":\"fixture.tsx\"}],"
#define TMJ_LAYER \
    "{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":2,\"height\":2,\"data\":[0,1,0,0]}"

#if LIBXML_VERSION >= 21200
static void count_error(void *data, const xmlError *e)
#else
static void count_error(void *data, xmlErrorPtr e)
#endif
{
    (void)e;
    (*(int *)data)++;
}

/* An XML syntax error is the first one that makes the document not
 * well-formed, kept by a handler of the parse's own: not a warning before
 * it (version="1.1"), nor a namespace error (an undeclared prefix: the
 * document loads with it, as it does with the warning); and an
 * application's global handler is neither called nor replaced. */
static void test_xml_first_error(void **state)
{
    (void)state;
    const char *X = "tests/data/tiled/bad.tmx";
    const char *head = "<?xml version=\"1.1\"?>\n"
                       "<map q:note=\"x\" orientation=\"orthogonal\" width=\"2\" height=\"2\" "
                       "tilewidth=\"16\" tileheight=\"16\">\n"
                       "<tileset firstgid=\"1\" source=\"fixture.tsx\"/>\n";
    char doc[1024], want[256], err[512];
    int calls = 0;
    xmlSetStructuredErrorFunc(&calls, count_error);
    /* both problems alone: the map loads */
    snprintf(doc, sizeof doc,
             "%s<layer name=\"t\" width=\"2\" height=\"2\">\n"
             "<data encoding=\"csv\">0,1,0,0</data></layer></map>\n",
             head);
    tn_map *m = NULL;
    if (tn_tiled_load_buffer(doc, strlen(doc), X, TN_TILED_TMX, &m, err, sizeof err) != 0)
        fail_msg("%s", err);
    tn_map_destroy(m);
    /* with a '>' missing at the end of line 4: that error, on line 5 */
    snprintf(doc, sizeof doc,
             "%s<layer name=\"t\" width=\"2\" height=\"2\"\n"
             "<data encoding=\"csv\">0,1,0,0</data></layer></map>\n",
             head);
    snprintf(want, sizeof want, "%s:5: XML error: error parsing attribute name", X);
    expect_error(doc, TN_TILED_TMX, want);
    assert_int_equal(calls, 0);
    /* the application's handler is still the one libxml2 reports to */
    xmlDocPtr x = xmlReadMemory("<a", 2, NULL, NULL, 0);
    assert_null(x);
    assert_true(calls > 0);
    xmlSetStructuredErrorFunc(NULL, NULL);
}

/* A byte that the declared encoding cannot convert: libxml2 before 2.13
 * reports it with no parser context (an I18N then an I/O error), to its
 * generic handler, which printed "encoding error : input conversion
 * failed ..." twice and "I/O error : encoder error" on stderr before the
 * load's own one-line message, which named a "Comment not terminated" that
 * only followed from it.  Nothing printed now, and the message is that
 * error's, on the line of the parse. */
static void test_xml_encoding_quiet(void **state)
{
    (void)state;
    const char *doc = "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n" TMX_HEAD "\n"
                      "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\">0,1,0,0"
                      "</data></layer><!-- \xff\xff -->\n</map>\n";
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(2);
    assert_true(saved >= 0);
    assert_int_equal(dup2(fileno(tmp), 2), 2);
    tn_map *m = (tn_map *)0x1;
    char err[512];
    int rc = tn_tiled_load_buffer(doc, strlen(doc), "tests/data/tiled/bad.tmx", TN_TILED_TMX, &m,
                                  err, sizeof err);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fseek(tmp, 0, SEEK_END);
    long printed = ftell(tmp);
    char out[512] = "";
    rewind(tmp);
    size_t n = fread(out, 1, sizeof out - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
    assert_int_equal(rc, -1);
    assert_null(m);
    if (printed != 0) fail_msg("printed on stderr: %s", out);
    if (strncmp(err, "tests/data/tiled/bad.tmx:3: XML error: input conversion failed", 62) != 0)
        fail_msg("message: %s", err);
}

/* A UTF-16 file's bad byte is named on its own line: a character whose
 * UTF-16 code unit holds the byte 0x0A (U+010A) is not a line break. */
static void test_xml_encoding_utf16_line(void **state)
{
    (void)state;
    /* line 1: the declaration; line 2: a comment of U+010A; line 3: a lone
     * high surrogate */
    const char *ascii[] = {"<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!-- ",
                           " -->\n" TMX_HEAD "<!-- ", " -->\n</map>\n"};
    unsigned char doc[1024];
    size_t n = 0;
    doc[n++] = 0xFF;
    doc[n++] = 0xFE;
    for (int p = 0; p < 3; p++) {
        for (const char *s = ascii[p]; *s; s++) {
            doc[n++] = (unsigned char)*s;
            doc[n++] = 0;
        }
        if (p == 0)
            for (int i = 0; i < 4; i++) { /* U+010A, bytes 0x0A 0x01 */
                doc[n++] = 0x0A;
                doc[n++] = 0x01;
            }
        if (p == 1) { /* U+D800 then 'x': not a pair */
            doc[n++] = 0x00;
            doc[n++] = 0xD8;
            doc[n++] = 'x';
            doc[n++] = 0;
        }
    }
    tn_map *m = (tn_map *)0x1;
    char err[512];
    int rc = tn_tiled_load_buffer((const char *)doc, n, "tests/data/tiled/bad.tmx", TN_TILED_TMX,
                                  &m, err, sizeof err);
    assert_int_equal(rc, -1);
    assert_null(m);
    if (strncmp(err, "tests/data/tiled/bad.tmx:3: XML error:", 38) != 0)
        fail_msg("message: %s", err);
}

/* The thread's structured handler, the application's, is the same after a
 * load (a bad one, one with an external tileset and a template) as before. */
static int g_app_errors;
#if LIBXML_VERSION >= 21200
static void app_serror(void *ctx, const xmlError *e)
#else
static void app_serror(void *ctx, xmlErrorPtr e)
#endif
{
    (void)e;
    if (ctx == &g_app_errors) g_app_errors++;
}

static void test_xml_handler_restored(void **state)
{
    (void)state;
    xmlSetStructuredErrorFunc(&g_app_errors, app_serror);
    const char *bad =
        "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n" TMX_HEAD "<!-- \xff\xff -->\n</map>\n";
    const char *good = TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data encoding=\"csv\">"
                                "0,1,0,0</data></layer></map>\n";
    const char *docs[] = {bad, good, "<map"};
    for (int i = 0; i < 3; i++) {
        tn_map *m = NULL;
        char err[512];
        int rc = tn_tiled_load_buffer(docs[i], strlen(docs[i]), "tests/data/tiled/probe.tmx",
                                      TN_TILED_TMX, &m, err, sizeof err);
        if (i == 1) {
            if (rc != 0) fail_msg("%s", err);
            tn_map_destroy(m);
        } else {
            assert_int_equal(rc, -1);
        }
        /* the application's own bad parse reaches its handler */
        g_app_errors = 0;
        xmlParserCtxtPtr c = xmlNewParserCtxt();
        assert_non_null(c);
        xmlDocPtr x = xmlCtxtReadMemory(c, "<a>", 3, NULL, NULL, 0);
        xmlFreeDoc(x);
        xmlFreeParserCtxt(c);
        if (g_app_errors == 0) fail_msg("load %d left another structured handler", i);
    }
    xmlSetStructuredErrorFunc(NULL, NULL);
}

/* Allocations libxml2 and cJSON make (counted for test_tileset_once). */
static long g_allocs;
static void *count_malloc(size_t n)
{
    g_allocs++;
    return malloc(n);
}
static void *count_realloc(void *p, size_t n)
{
    g_allocs++;
    return realloc(p, n);
}
static char *count_strdup(const char *s)
{
    g_allocs++;
    return strdup(s);
}

static void put_file(const char *dir, const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    fclose(f);
}

/* Load dir/name, counting the allocations made; NULL with err when refused. */
static tn_map *load_counted(const char *dir, const char *name, long *allocs, char *err)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tn_map *m = NULL;
    g_allocs = 0;
    if (tn_tiled_load(path, &m, err, 512) != 0) m = NULL;
    *allocs = g_allocs;
    return m;
}

/* An external tileset named by several of a map's tilesets is read and
 * parsed once per load (it was once per reference: a 16 MB .tsx named 40
 * times peaked at 495 MB and took 2.4 s a reference), with the same
 * result as separate copies of it: the kinds, marks and listed ids of
 * each reference at its own firstgid, and the same message for an
 * unlisted id in the third. */
static void test_tileset_once(void **state)
{
    (void)state;
    char dir[64];
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    const char *tsx =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<tileset version=\"1.10\" name=\"c\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"8\" "
        "columns=\"0\">\n"
        " <tile id=\"0\"><properties><property name=\"kind\" value=\"block\"/></properties>"
        "<image source=\"a.png\" width=\"16\" height=\"16\"/></tile>\n"
        " <tile id=\"2\"><properties><property name=\"kind\" value=\"oneway\"/></properties>"
        "<image source=\"b.png\" width=\"16\" height=\"16\"/></tile>\n"
        " <tile id=\"5\" class=\"spawn\"><image source=\"c.png\" width=\"16\" "
        "height=\"16\"/></tile>\n"
        " <tile id=\"6\"><image source=\"d.png\" width=\"16\" height=\"16\"/></tile>\n"
        "</tileset>\n";
    const char *tsj = "{\"type\":\"tileset\",\"name\":\"c\",\"tilewidth\":16,\"tileheight\":16,"
                      "\"tilecount\":8,\"columns\":0,\"tiles\":["
                      "{\"id\":0,\"image\":\"a.png\",\"properties\":[{\"name\":\"kind\","
                      "\"type\":\"string\",\"value\":\"block\"}]},"
                      "{\"id\":2,\"image\":\"b.png\",\"properties\":[{\"name\":\"kind\","
                      "\"type\":\"string\",\"value\":\"oneway\"}]},"
                      "{\"id\":5,\"image\":\"c.png\",\"class\":\"spawn\"},"
                      "{\"id\":6,\"image\":\"d.png\"}]}\n";
    const char *names[] = {"t.tsx", "t1.tsx", "t2.tsx", "t3.tsx",
                           "t.tsj", "t1.tsj", "t2.tsj", "t3.tsj"};
    for (int i = 0; i < 8; i++) put_file(dir, names[i], i < 4 ? tsx : tsj);
    /* cells from each reference: a block, a one-way, a plain tile; a
     * spawn tile object from the third */
    for (int bad = 0; bad < 2; bad++) {
        const char *cells = bad ? "1,3,11,13,0,27,21,24" : "1,3,11,13,0,27,21,23";
        for (int json = 0; json < 2; json++) {
            long n[3];
            tn_map *m[3];
            char err[3][512];
            for (int k = 0; k < 3; k++) { /* k 0: t x3; 1: t1, t2, t3; 2: t once */
                char text[4096], ts[3][32];
                const char *ext = json ? "tsj" : "tsx";
                for (int r = 0; r < 3; r++)
                    if (k == 1)
                        snprintf(ts[r], sizeof ts[r], "t%d.%s", r + 1, ext);
                    else
                        snprintf(ts[r], sizeof ts[r], "t.%s", ext);
                int refs = k == 2 ? 1 : 3;
                if (!json) {
                    int o = snprintf(text, sizeof text,
                                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                     "<map version=\"1.10\" orientation=\"orthogonal\" "
                                     "width=\"4\" height=\"2\" tilewidth=\"16\" "
                                     "tileheight=\"16\">\n");
                    for (int r = 0; r < refs; r++)
                        o += snprintf(text + o, sizeof text - (size_t)o,
                                      " <tileset firstgid=\"%d\" source=\"%s\"/>\n", 1 + 10 * r,
                                      ts[r]);
                    snprintf(text + o, sizeof text - (size_t)o,
                             " <layer name=\"g\" width=\"4\" height=\"2\"><data "
                             "encoding=\"csv\">%s</data></layer>\n"
                             " <objectgroup name=\"o\"><object id=\"1\" gid=\"26\" x=\"0\" "
                             "y=\"32\" width=\"16\" height=\"16\"/></objectgroup>\n</map>\n",
                             refs == 3 ? cells : "1,3,0,0,0,0,0,7");
                } else {
                    int o = snprintf(text, sizeof text,
                                     "{\"type\":\"map\",\"orientation\":\"orthogonal\","
                                     "\"width\":4,\"height\":2,\"tilewidth\":16,"
                                     "\"tileheight\":16,\"infinite\":false,\"tilesets\":[");
                    for (int r = 0; r < refs; r++)
                        o += snprintf(text + o, sizeof text - (size_t)o,
                                      "%s{\"firstgid\":%d,\"source\":\"%s\"}", r ? "," : "",
                                      1 + 10 * r, ts[r]);
                    snprintf(text + o, sizeof text - (size_t)o,
                             "],\"layers\":[{\"type\":\"tilelayer\",\"name\":\"g\",\"width\":4,"
                             "\"height\":2,\"data\":[%s]},{\"type\":\"objectgroup\","
                             "\"name\":\"o\",\"objects\":[{\"id\":1,\"gid\":26,\"x\":0,"
                             "\"y\":32,\"width\":16,\"height\":16}]}]}\n",
                             refs == 3 ? cells : "1,3,0,0,0,0,0,7");
                }
                char name[32];
                snprintf(name, sizeof name, "m%d.%s", k, json ? "tmj" : "tmx");
                put_file(dir, name, text);
                err[k][0] = '\0';
                /* k 2: its object's gid is past its one tileset: refused,
                 * after the tileset is read */
                m[k] = load_counted(dir, name, &n[k], err[k]);
            }
            if (bad) { /* the same message, the tileset named as each map does */
                assert_null(m[0]);
                assert_null(m[1]);
                if (!strstr(err[0], "24") || !strstr(err[1], "24"))
                    fail_msg("messages: %s / %s", err[0], err[1]);
            } else {
                if (!m[0] || !m[1]) fail_msg("refused: %s %s", err[0], err[1]);
                assert_true(tn_map_equal(m[0], m[1]));
                assert_int_equal(tn_map_count_marks(m[0], TN_MARK_SPAWN), 1);
            }
            /* t once for three references: about what one reference costs,
             * not what three copies do */
            if (!(n[0] < n[2] + (n[1] - n[2]) / 4))
                fail_msg("%s: allocations: t x3 %ld, t1..t3 %ld, t once %ld", json ? "tmj" : "tmx",
                         n[0], n[1], n[2]);
            for (int k = 0; k < 3; k++) tn_map_destroy(m[k]);
        }
    }
    rm_scratch(dir);
}

/* The same tileset named by other paths (./, a directory and .., a
 * symbolic link) is the same file: the map loads as with four copies,
 * and an id it does not list is refused at the last reference. */
static void test_tileset_once_paths(void **state)
{
    (void)state;
    char dir[64], sub[96], lnk[96];
    strcpy(dir, "/tmp/tn_test_tiled_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(lnk, sizeof lnk, "%s/l.tsx", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    const char *tsx =
        "<tileset name=\"c\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"4\" "
        "columns=\"0\">\n"
        " <tile id=\"0\"><properties><property name=\"kind\" value=\"block\"/>"
        "</properties><image source=\"a.png\" width=\"16\" height=\"16\"/></tile>\n"
        " <tile id=\"2\"><image source=\"b.png\" width=\"16\" height=\"16\"/></tile>\n"
        "</tileset>\n";
    const char *names[] = {"t.tsx", "c1.tsx", "c2.tsx", "c3.tsx", "c4.tsx"};
    for (int i = 0; i < 5; i++) put_file(dir, names[i], tsx);
    assert_int_equal(symlink("t.tsx", lnk), 0);
    const char *alias[] = {"t.tsx", "./t.tsx", "sub/../t.tsx", "l.tsx"};
    for (int bad = 0; bad < 2; bad++) {
        tn_map *m[2];
        long n[2];
        char err[2][512];
        for (int k = 0; k < 2; k++) {
            char text[4096];
            int o = snprintf(text, sizeof text,
                             "<map orientation=\"orthogonal\" width=\"4\" height=\"2\" "
                             "tilewidth=\"16\" tileheight=\"16\">\n");
            for (int r = 0; r < 4; r++)
                o += snprintf(text + o, sizeof text - (size_t)o,
                              " <tileset firstgid=\"%d\" source=\"%s\"/>\n", 1 + 10 * r,
                              k ? names[r + 1] : alias[r]);
            snprintf(text + o, sizeof text - (size_t)o,
                     " <layer name=\"g\" width=\"4\" height=\"2\"><data encoding=\"csv\">"
                     "1,11,21,31,3,13,23,%d</data></layer>\n</map>\n",
                     bad ? 32 : 33);
            char name[32];
            snprintf(name, sizeof name, "m%d.tmx", k);
            put_file(dir, name, text);
            err[k][0] = '\0';
            m[k] = load_counted(dir, name, &n[k], err[k]);
        }
        /* the aliases read one file: fewer allocations than four copies */
        if (!(n[0] < n[1])) fail_msg("allocations: aliases %ld, copies %ld", n[0], n[1]);
        if (bad) {
            assert_null(m[0]);
            assert_null(m[1]);
            if (!strstr(err[0], "32") || !strstr(err[1], "32"))
                fail_msg("messages: %s / %s", err[0], err[1]);
        } else {
            if (!m[0] || !m[1]) fail_msg("refused: %s / %s", err[0], err[1]);
            assert_true(tn_map_equal(m[0], m[1]));
            /* saved: every reference as it was, and it loads as the map */
            char path[600], serr[512];
            snprintf(path, sizeof path, "%s/m0.tmx", dir);
            tn_map_set_tile(m[0], 1, 0, TN_TILE_EMPTY, NULL); /* the block at gid 11 */
            tn_map_set_tile(m[0], 0, 1, TN_TILE_BLOCK, NULL);
            if (tn_save_map(m[0], path, serr, sizeof serr) != 0) fail_msg("%s", serr);
            size_t len;
            char *saved = slurp(path, &len);
            for (int r = 0; r < 4; r++) {
                char want[64];
                snprintf(want, sizeof want, "firstgid=\"%d\" source=\"%s\"", 1 + 10 * r, alias[r]);
                if (!strstr(saved, want)) fail_msg("saved without %s:\n%s", want, saved);
            }
            free(saved);
            tn_map *back = tu_load_map(path);
            assert_true(tn_map_equal(back, m[0]));
            tn_map_destroy(back);
        }
        for (int k = 0; k < 2; k++) tn_map_destroy(m[k]);
    }
    assert_int_equal(unlink(lnk), 0);
    assert_int_equal(rmdir(sub), 0);
    rm_scratch(dir);
}

/* JSON and XML that cJSON or libxml2 would take silently, losing or
 * guessing something, are refused with where they are: a NUL byte (XML in
 * UTF-16 has them in every character and still loads), text after the
 * document, a raw control character in a string, a key twice in one
 * object (the first would be used; Tiled uses the last). */
static void test_strict_input(void **state)
{
    (void)state;
    const char *J = "tests/data/tiled/bad.tmj", *X = "tests/data/tiled/bad.tmx";
    char doc[2048], want[1024];
    /* a NUL inside a string, and a NUL then garbage after the document */
    int n = snprintf(doc, sizeof doc, "%s\n\"layers\":[%s],\"note\":\"a", TMJ_HEAD, TMJ_LAYER);
    memcpy(doc + n, "\0b\"}", 4);
    snprintf(want, sizeof want, "%s:2:%d: binary data (a NUL byte)", J,
             (int)(n - (strchr(doc, '\n') - doc)));
    expect_error_n(doc, (size_t)n + 4, J, TN_TILED_TMJ, want);
    n = snprintf(doc, sizeof doc, "%s\"layers\":[%s]}\n", TMJ_HEAD, TMJ_LAYER);
    memcpy(doc + n, "\0garbage", 8);
    snprintf(want, sizeof want, "%s:2:1: binary data (a NUL byte)", J);
    expect_error_n(doc, (size_t)n + 8, J, TN_TILED_TMJ, want);
    n = snprintf(doc, sizeof doc,
                 TMX_HEAD "\n<layer name=\"t\" width=\"2\" height=\"2\"><data "
                          "encoding=\"csv\">0,1,0,0</data></layer></map>\n");
    memcpy(doc + n, "\0garbage", 8);
    snprintf(want, sizeof want, "%s:3:1: binary data (a NUL byte)", X);
    expect_error_n(doc, (size_t)n + 8, X, TN_TILED_TMX, want);
    /* ... while the same TMX in UTF-16 (NUL bytes everywhere) loads */
    char u16[4096];
    u16[0] = (char)0xFF;
    u16[1] = (char)0xFE;
    for (int i = 0; i < n; i++) {
        u16[2 + 2 * i] = doc[i];
        u16[3 + 2 * i] = 0;
    }
    tn_map *m = NULL;
    char err[512];
    if (tn_tiled_load_buffer(u16, 2 + 2 * (size_t)n, X, TN_TILED_TMX, &m, err, sizeof err) != 0)
        fail_msg("UTF-16: %s", err);
    assert_int_equal(tn_map_tile(m, 1, 0), TN_TILE_BLOCK);
    tn_map_destroy(m);
    /* text after the document */
    snprintf(doc, sizeof doc, "%s\"layers\":[%s]} {}", TMJ_HEAD, TMJ_LAYER);
    snprintf(want, sizeof want, "%s:1:%d: not valid JSON (more text after the end of the document)",
             J, (int)strlen(doc) - 1);
    expect_error_n(doc, strlen(doc), J, TN_TILED_TMJ, want);
    /* a raw tab in a string */
    snprintf(doc, sizeof doc, "%s\"layers\":[%s],\"note\":\"a\tb\"}", TMJ_HEAD, TMJ_LAYER);
    snprintf(want, sizeof want,
             "%s:1:%d: not valid JSON (a raw control character, byte 0x09, in a string; JSON "
             "writes it as an escape such as \\t or \\n)",
             J, (int)(strchr(doc, '\t') - doc) + 1);
    expect_error_n(doc, strlen(doc), J, TN_TILED_TMJ, want);
    /* ... written as an escape, it loads */
    snprintf(doc, sizeof doc, "%s\"layers\":[%s],\"note\":\"a\\tb\\\"\"}", TMJ_HEAD, TMJ_LAYER);
    if (tn_tiled_load_buffer(doc, strlen(doc), J, TN_TILED_TMJ, &m, err, sizeof err) != 0)
        fail_msg("escaped tab: %s", err);
    tn_map_destroy(m);
    /* a key twice: in the map (the first, 2, would be used), deeper */
    snprintf(doc, sizeof doc, "%s\"width\":600,\"layers\":[%s]}", TMJ_HEAD, TMJ_LAYER);
    snprintf(want, sizeof want,
             "%s: $: the key \"width\" is given twice in one object (JSON keys must differ)", J);
    expect_error_n(doc, strlen(doc), J, TN_TILED_TMJ, want);
    snprintf(doc, sizeof doc,
             "%s\"layers\":[%s,{\"type\":\"objectgroup\",\"objects\":[{\"id\":1,\"x\":0,\"y\":0,"
             "\"properties\":[{\"name\":\"a\",\"a b\":{\"q\":1,\"q\":2}}]}]}]}",
             TMJ_HEAD, TMJ_LAYER);
    snprintf(want, sizeof want,
             "%s: $.layers[1].objects[0].properties[0][\"a b\"]: the key \"q\" is given twice "
             "in one object (JSON keys must differ)",
             J);
    expect_error_n(doc, strlen(doc), J, TN_TILED_TMJ, want);
}

/* Numbers of a .tmj the save does not change are written as they were
 * (cJSON would print 15 significant digits and take "about equal" for
 * equal: 1.7976931348623157e+308 would read back as infinity, 40.300000000000004
 * as 40.3, an integer above 2^53 would change, -0.0 lose its sign, 1e400
 * become null); those it changes or adds are its own. */
static void test_save_keeps_numbers(void **state)
{
    (void)state;
    static const char *const nums[] = {"1.7976931348623157e+308",
                                       "40.300000000000004",
                                       "9007199254740993",
                                       "-0.0",
                                       "-0",
                                       "1e400",
                                       "0.1",
                                       "1E+2",
                                       "123456789012345678901234567890"};
    char props[1024] = "", doc[4096];
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        char one[128];
        snprintf(one, sizeof one, "%s{\"name\":\"p%zu\",\"type\":\"float\",\"value\":%s}",
                 i ? "," : "", i, nums[i]);
        strcat(props, one);
    }
    snprintf(doc, sizeof doc,
             "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":4,\"height\":2,"
             "\"tilewidth\":16,\"tileheight\":16,\"nextobjectid\":3,\"tilesets\":[{\"firstgid\":1,"
             "\"source\":\"fixture.tsj\"}],\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\","
             "\"width\":4,\"height\":2,\"opacity\":0.7000000000000001,\"data\":[0,0,0,0,1,1,1,1]},"
             "{\"type\":\"objectgroup\",\"name\":\"o\",\"objects\":[{\"id\":1,\"type\":\"tree\","
             "\"x\":40.300000000000004,\"y\":-0.0,\"rotation\":1e-320}]}],"
             "\"properties\":[%s]}",
             props);
    tn_map *m = NULL;
    char err[512];
    if (tn_tiled_load_buffer(doc, strlen(doc), "tests/data/tiled/n.tmj", TN_TILED_TMJ, &m, err,
                             sizeof err) != 0)
        fail_msg("%s", err);
    tn_map_set_tile(m, 1, 0, TN_TILE_BLOCK, NULL); /* an edit: the layer's data is written anew */
    tn_map_set_mark(m, 2, 0, TN_MARK_SPAWN, NULL); /* and a new object */
    char *out;
    size_t len;
    if (tn_tiled_format(m, doc, strlen(doc), "tests/data/tiled/n.tmj", "tests/data/tiled/n.tmj",
                        TN_TILED_TMJ, &out, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        char want[128];
        snprintf(want, sizeof want, "\"value\":\t%s\n", nums[i]);
        if (!strstr(out, want)) fail_msg("%s is not kept:\n%s", nums[i], out);
    }
    assert_non_null(strstr(out, "\"opacity\":\t0.7000000000000001,"));
    assert_non_null(strstr(out, "\"x\":\t40.300000000000004,"));
    assert_non_null(strstr(out, "\"y\":\t-0.0,"));
    assert_non_null(strstr(out, "\"rotation\":\t1e-320\n"));
    assert_non_null(strstr(out, "\"nextobjectid\":\t4,")); /* the save's own */
    assert_non_null(strstr(out, "\"x\":\t40,"));           /* the new spawn at 2,0 */
    tn_map *back = NULL;
    if (tn_tiled_load_buffer(out, len, "tests/data/tiled/n.tmj", TN_TILED_TMJ, &back, err,
                             sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(tn_map_equal(back, m));
    tn_map_destroy(back);
    free(out);
    tn_map_destroy(m);
}

/* Tiled files have their own size limit, TN_TILED_FILE_MAX, for 4096x4096
 * tiles in CSV with the longest gids: a CSV map past tilenav's own
 * TN_MAP_FILE_MAX (1500x1500 cells of 10-digit gids, 25 MB) loads, saves
 * and loads again; a file past the limit is refused before it is read,
 * naming the limit and base64+zlib; so is a save that would write one. */
static void test_file_limit(void **state)
{
    (void)state;
    char dir[64], p[512], q[512], err[1024], want[1024];
    scratch(dir);
    enum { N = 1500 };
    size_t cap = (size_t)N * N * 11 + 4096, n = 0;
    char *doc = malloc(cap);
    assert_non_null(doc);
    n += (size_t)sprintf(doc + n,
                         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.10\" "
                         "orientation=\"orthogonal\" width=\"%d\" height=\"%d\" tilewidth=\"16\" "
                         "tileheight=\"16\" infinite=\"0\">\n <tileset firstgid=\"1\" "
                         "source=\"fixture.tsx\"/>\n <layer id=\"1\" name=\"t\" width=\"%d\" "
                         "height=\"%d\">\n  <data encoding=\"csv\">\n",
                         N, N, N, N);
    for (size_t i = 0; i < (size_t)N * N; i++) /* flipped empty cells; a flipped block at 3,2 */
        n += (size_t)sprintf(doc + n, "%u%s", i == 2 * N + 3 ? 0x80000001u : 0x80000000u,
                             i + 1 == (size_t)N * N ? "\n"
                             : (i + 1) % N          ? ","
                                                    : ",\n");
    n += (size_t)sprintf(doc + n, "</data>\n </layer>\n</map>\n");
    assert_true(n > TN_MAP_FILE_MAX && n < cap);
    in_dir(p, sizeof p, dir, "big.tmx");
    write_bytes(p, doc, n);
    free(doc);
    tn_map *m = NULL;
    if (tn_tiled_load(p, &m, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(tn_map_tile(m, 3, 2), TN_TILE_BLOCK);
    assert_int_equal(tn_map_set_tile(m, 5, 5, TN_TILE_BLOCK, NULL), TN_OK);
    in_dir(q, sizeof q, dir, "big2.tmx");
    if (tn_tiled_save(m, q, p, err, sizeof err) != 0) fail_msg("%s", err);
    tn_map *back = NULL;
    if (tn_tiled_load(q, &back, err, sizeof err) != 0) fail_msg("%s", err);
    assert_true(tn_map_equal(back, m));
    tn_map_destroy(back);
    tn_map_destroy(m);
    /* past the limit: refused before it is read (a sparse file) */
    in_dir(p, sizeof p, dir, "huge.tmj");
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(truncate(p, (off_t)TN_TILED_FILE_MAX + 1), 0);
    assert_int_equal(tn_tiled_load(p, &m, err, sizeof err), -1);
    assert_null(m);
    snprintf(want, sizeof want,
             "%s: the file is %zu bytes, more than the 202383360 bytes (193 MiB: 4096x4096 tiles "
             "as CSV) the game reads from a Tiled map; in Tiled, set the tile layer format to "
             "Base64 (zlib compressed), which is much smaller",
             p, TN_TILED_FILE_MAX + 1);
    assert_string_equal(err, want);
    /* the limit a save keeps to (tn_tiled_format checks the document) */
    assert_int_equal(tn_tiled_too_big("x.tmx", TN_TILED_FILE_MAX, true, err, sizeof err), 0);
    assert_int_equal(tn_tiled_too_big("x.tmx", TN_TILED_FILE_MAX + 1, true, err, sizeof err), -1);
    assert_string_equal(err, "x.tmx: not saved: the document would be 202383361 bytes, more than "
                             "the 202383360 bytes (193 MiB: 4096x4096 tiles as CSV) the game "
                             "reads from a Tiled map (a larger file would not load again); in "
                             "Tiled, set the tile layer format to Base64 (zlib compressed), "
                             "which is much smaller");
    rm_scratch(dir);
}

/* A JSON path too long for a message is cut between path elements (never
 * inside one), its head and its last elements kept, "..." between. */
static void test_json_path_cut(void **state)
{
    (void)state;
    const char *B = "tests/data/tiled/bad.tmx";
    char want[1024], doc[8192];
    /* 70 nested groups: the path is cut between elements */
    size_t n = (size_t)snprintf(doc, sizeof doc, "%s\"layers\":[", TMJ_HEAD);
    for (int i = 0; i < 70; i++)
        n += (size_t)snprintf(doc + n, sizeof doc - n, "{\"type\":\"group\",\"layers\":[");
    for (int i = 0; i < 70; i++) n += (size_t)snprintf(doc + n, sizeof doc - n, "]}");
    snprintf(doc + n, sizeof doc - n, "]}");
    snprintf(want, sizeof want,
             "%s: $.layers[0].layers[0].layers[0].layers[0].layers[0].layers[0]...layers[0]."
             "layers[0].layers[0].layers[0].layers[0].layers[0].layers[0].layers[0].layers[0]."
             "layers[0].layers[0].layers[0]: group layers nested more than 64 deep",
             B);
    expect_error(doc, TN_TILED_TMJ, want);
}

/* Messages say what the input is and where: a .tmj tile array is no CSV;
 * an object placed elsewhere than its x,y says where and why; an empty
 * tileset source or template path is said to be empty. */
static void test_messages(void **state)
{
    (void)state;
    const char *B = "tests/data/tiled/bad.tmx";
    char want[1024], doc[8192];
    /* a gid past 32 bits: a short array (cJSON's nodes), a long one (read
     * from the text), and TMX CSV */
    snprintf(doc, sizeof doc,
             TMJ_HEAD "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":2,"
                      "\"height\":2,\"data\":[4294967296,0,0,0]}]}");
    snprintf(want, sizeof want,
             "%s: $.layers[0].data[0]: layer 't': tile number 4294967296 is larger than "
             "4294967295, the largest gid (flip flags included)",
             B);
    expect_error(doc, TN_TILED_TMJ, want);
    snprintf(doc, sizeof doc,
             TMJ_HEAD "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":2,"
                      "\"height\":2,\"data\":[0,                                              "
                      "        0,0,12345678901234567890123456789]}]}");
    snprintf(want, sizeof want,
             "%s: $.layers[0].data[3]: layer 't': tile number 123456789012345678901234... is "
             "larger than 4294967295, the largest gid (flip flags included)",
             B);
    expect_error(doc, TN_TILED_TMJ, want);
    snprintf(doc, sizeof doc,
             TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data "
                      "encoding=\"csv\">0,0,0,4294967296</data></layer></map>");
    snprintf(want, sizeof want,
             "%s:1: layer 't': CSV: tile number 4294967296 is larger than 4294967295, the "
             "largest gid (flip flags included)",
             B);
    expect_error(doc, TN_TILED_TMX, want);
    /* a polyline placed at its points' middle, far away */
    snprintf(doc, sizeof doc,
             TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data "
                      "encoding=\"csv\">0,0,0,0</data></layer>\n<objectgroup><object id=\"1\" "
                      "type=\"spawn\" x=\"8\" y=\"8\"><polyline points=\"0,0 1e308,1e308\"/>"
                      "</object></objectgroup></map>");
    snprintf(want, sizeof want,
             "%s:2: object 1 (spawn) at 8,8, placed at 5e+307,5e+307 (the middle of its points' "
             "bounding box), is outside the map",
             B);
    expect_error(doc, TN_TILED_TMX, want);
    /* empty paths */
    snprintf(want, sizeof want,
             "%s:1: the <tileset>'s source attribute is empty: it names no tileset file (an "
             "external tileset is a .tsx, .tsj or .json file; an embedded one has no source)",
             B);
    expect_error("<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" "
                 "tileheight=\"16\"><tileset firstgid=\"1\" source=\"\"/></map>",
                 TN_TILED_TMX, want);
    snprintf(want, sizeof want,
             "%s: $.tilesets[0]: the tileset's \"source\" is empty: it names no tileset file (an "
             "external tileset is a .tsx, .tsj or .json file; an embedded one has no source)",
             B);
    expect_error("{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,"
                 "\"tilewidth\":16,\"tileheight\":16,\"tilesets\":[{\"firstgid\":1,\"source\":"
                 "\"\"}]}",
                 TN_TILED_TMJ, want);
    snprintf(want, sizeof want, "%s:1: object 1: template: the template path is empty", B);
    expect_error(TMX_HEAD "<layer name=\"t\" width=\"2\" height=\"2\"><data "
                          "encoding=\"csv\">0,0,0,0</data></layer><objectgroup><object id=\"1\" "
                          "template=\"\" x=\"8\" y=\"8\"/></objectgroup></map>",
                 TN_TILED_TMX, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_load),
        cmocka_unit_test(test_demo_tmx_equals_map),
        cmocka_unit_test(test_round_trip_unchanged),
        cmocka_unit_test(test_round_trip_edits),
        cmocka_unit_test(test_save_elsewhere),
        cmocka_unit_test(test_save_own_document),
        cmocka_unit_test(test_save_through_link),
        cmocka_unit_test(test_new_documents),
        cmocka_unit_test(test_new_document_finds_the_image),
        cmocka_unit_test(test_changed_on_disk),
        cmocka_unit_test(test_save_terrain_layer),
        cmocka_unit_test(test_save_collection_tile),
        cmocka_unit_test(test_object_positions),
        cmocka_unit_test(test_save_offset_layer),
        cmocka_unit_test(test_save_skips_offset_layer),
        cmocka_unit_test(test_template_objects),
        cmocka_unit_test(test_template_bad),
        cmocka_unit_test(test_offset_layers),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_flip_flags),
        cmocka_unit_test(test_json_tile_arrays),
        cmocka_unit_test(test_json_tile_arrays_strict),
        cmocka_unit_test(test_strict_input),
        cmocka_unit_test(test_xml_first_error),
        cmocka_unit_test(test_xml_encoding_quiet),
        cmocka_unit_test(test_xml_encoding_utf16_line),
        cmocka_unit_test(test_utf16_no_bom_keeps_text),
        cmocka_unit_test(test_xml_handler_restored),
        cmocka_unit_test(test_tileset_once),
        cmocka_unit_test(test_tileset_once_paths),
        cmocka_unit_test(test_save_keeps_crlf),
        cmocka_unit_test(test_save_keeps_bom),
        cmocka_unit_test(test_save_keeps_line_breaks),
        cmocka_unit_test(test_save_infinite_keeps_chunks),
        cmocka_unit_test(test_save_compression_level),
        cmocka_unit_test(test_new_document_deflated),
        cmocka_unit_test(test_cr_only_lines),
        cmocka_unit_test(test_save_start_outside),
        cmocka_unit_test(test_save_keeps_numbers),
        cmocka_unit_test(test_file_limit),
        cmocka_unit_test(test_json_path_cut),
        cmocka_unit_test(test_messages),
    };
    xmlMemSetup(free, count_malloc, count_realloc, count_strdup);
    cJSON_Hooks hooks = {count_malloc, free};
    cJSON_InitHooks(&hooks);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
