/* The front end's map files (src/game/fileio.c): load, atomic save, the
 * messages for a missing file and a directory, and tile rows beyond the
 * `size` header's height. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "fileio.h"
#include "tn_map.h"
#include "tn_world.h"

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

/* Write `text` to a new temporary file named into path (a mkstemp template). */
static void write_temp(char *path, const char *text)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* A Tiled map larger than the .map format's limit (16.8 MB; Tiled's CSV
 * may be up to TN_TILED_FILE_MAX) changed on disk since it was loaded is
 * not overwritten either: the check read it with the .map limit, failed,
 * and let the save through. */
static void test_big_tiled_changed_on_disk(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_bigtmx_XXXXXX", path[128], err[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/big.tmx", dir);
    const size_t pad = TN_MAP_FILE_MAX + 1000;
    const char *head =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<map version=\"1.10\" orientation=\"orthogonal\" width=\"4\" height=\"3\" "
        "tilewidth=\"16\" tileheight=\"16\" infinite=\"0\" nextlayerid=\"2\" "
        "nextobjectid=\"1\">\n"
        " <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" "
        "tilecount=\"1\" columns=\"1\">\n"
        "  <image source=\"t.png\" width=\"16\" height=\"16\"/>\n"
        "  <tile id=\"0\"><properties><property name=\"kind\" value=\"block\"/>"
        "</properties></tile>\n"
        " </tileset>\n"
        " <layer id=\"1\" name=\"terrain\" width=\"4\" height=\"3\">\n"
        "  <data encoding=\"csv\">\n0,0,0,0,\n0,0,0,0,\n1,1,1,1\n</data>\n </layer>\n<!-- ";
    const char *tail = " -->\n</map>\n";
    size_t nh = strlen(head), nt = strlen(tail), n = nh + pad + nt;
    char *doc = malloc(n);
    assert_non_null(doc);
    memcpy(doc, head, nh);
    memset(doc + nh, 'a', pad);
    for (size_t k = 1 << 20; k + 8 < pad; k += 1 << 20) /* comments of 1 MB (libxml2's limit: 10) */
        memcpy(doc + nh + k, " -->\n<!-- ", 10);
    memcpy(doc + nh + pad, tail, nt);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(doc, 1, n, f), n);
    fclose(f);
    tn_map *m;
    if (tn_load_map(path, &m, err, sizeof err) != 0) fail_msg("%s", err);
    doc[nh] = 'b'; /* another editor's change, of the same size */
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(doc, 1, n, f), n);
    fclose(f);
    tn_map_set_tile(m, 0, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), TN_SAVE_CHANGED);
    if (!strstr(err, "changed on disk since it was loaded")) fail_msg("%s", err);
    char *b;
    size_t len;
    assert_int_equal(tn_read_file(path, n + 1, &b, &len, err, sizeof err), 0);
    assert_true(len == n && memcmp(b, doc, n) == 0);
    free(b);
    free(doc);
    tn_map_destroy(m);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A tilenav map changed on disk since it was loaded (another editor) is not
 * overwritten by a save over it; loaded again, it is. */
static void test_save_changed_on_disk(void **state)
{
    (void)state;
    char path[] = "/tmp/tn_test_changed_XXXXXX", err[512];
    write_temp(path, "tilenav-map 1\nsize 3 2\ntiles\n...\n###\n");
    tn_map *m;
    assert_int_equal(tn_load_map(path, &m, err, sizeof err), 0);
    const char *edited = "# mine\ntilenav-map 1\nsize 3 2\ntiles\n.#.\n###\n";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(edited, f);
    fclose(f);
    tn_map_set_tile(m, 0, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), TN_SAVE_CHANGED);
    assert_non_null(strstr(err, "changed on disk since it was loaded"));
    char *b;
    size_t n;
    assert_int_equal(tn_read_file(path, 1000, &b, &n, err, sizeof err), 0);
    assert_string_equal(b, edited);
    free(b);
    tn_map_destroy(m);
    assert_int_equal(tn_load_map(path, &m, err, sizeof err), 0);
    tn_map_set_tile(m, 0, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
    tn_map_set_tile(m, 2, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
    tn_map *back;
    assert_int_equal(tn_load_map(path, &back, err, sizeof err), 0);
    assert_true(tn_map_equal(m, back));
    tn_map_destroy(back);
    tn_map_destroy(m);
    remove(path);
}

/* A map replaced on disk since it was loaded by a file that cannot be read
 * (larger than the read limit, here a 17,000,000-byte one) counts as
 * changed: the save is refused, saying why, and the file is left as it is.
 * The check read it, failed, and let the save replace it. */
static void test_save_unreadable_origin(void **state)
{
    (void)state;
    char path[] = "/tmp/tn_test_unread_XXXXXX", err[512];
    write_temp(path, "tilenav-map 1\nsize 3 2\ntiles\n...\n###\n");
    tn_map *m;
    assert_int_equal(tn_load_map(path, &m, err, sizeof err), 0);
    const off_t big = 17000000; /* > TN_MAP_FILE_MAX; sparse: no 17 MB written */
    assert_true((off_t)TN_MAP_FILE_MAX < big);
    assert_int_equal(truncate(path, big), 0);
    tn_map_set_tile(m, 0, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), TN_SAVE_CHANGED);
    char want[256];
    snprintf(want, sizeof want,
             "%s: not overwritten: it cannot be read to check that it still holds what was "
             "loaded (file is 17000000 bytes, larger than the %zu-byte limit)",
             path, TN_MAP_FILE_MAX);
    if (strncmp(err, want, strlen(want)) != 0) fail_msg("%s", err);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, big);
    /* a save under another name is not checked against it */
    char other[] = "/tmp/tn_test_unread_other_XXXXXX";
    write_temp(other, "");
    assert_int_equal(tn_save_map_as(m, other, path, err, sizeof err), 0);
    remove(other);
    tn_map_destroy(m);
    remove(path);
}

/* Replace the whole of `path` with `text` (an outside editor). */
static void rewrite(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The record of what a file held is the file's, whatever its name is spelt
 * as: a save under another spelling (/tmp/./x, a symbolic link) is checked
 * like one over the name it was loaded by, and updates the record, so the
 * next save by the first name is not refused. */
static void test_origin_by_identity(void **state)
{
    (void)state;
    char path[] = "/tmp/tn_test_ident_XXXXXX", alt[64], link_[64], none[64], other[64], err[512];
    write_temp(path, "tilenav-map 1\nsize 3 2\ntiles\n...\n###\n");
    /* (names of this run's own: a stray file of a fixed name in /tmp
     * changed what the test saw) */
    snprintf(none, sizeof none, "%s.none", path);
    snprintf(other, sizeof other, "%s.other", path);
    snprintf(alt, sizeof alt, "/tmp/./%s", path + 5);
    snprintf(link_, sizeof link_, "%s.lnk", path);
    assert_int_equal(symlink(path, link_), 0);
    assert_true(tn_same_file(path, alt) && tn_same_file(link_, path));
    assert_false(tn_same_file(path, none));
    tn_map *m;
    assert_int_equal(tn_load_map(path, &m, err, sizeof err), 0);
    tn_map_set_tile(m, 0, 0, TN_TILE_BLOCK, NULL);
    /* another spelling of the file the map came from: a save over it */
    assert_int_equal(tn_save_map_as(m, alt, path, err, sizeof err), 0);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
    tn_map_set_tile(m, 1, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, link_, err, sizeof err), 0);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
    /* edited outside: refused by every name */
    const char *edited = "# theirs\ntilenav-map 1\nsize 3 2\ntiles\n..#\n###\n";
    rewrite(path, edited);
    tn_map_set_tile(m, 1, 0, TN_TILE_EMPTY, NULL);
    assert_int_equal(tn_save_map_as(m, alt, path, err, sizeof err), TN_SAVE_CHANGED);
    assert_int_equal(tn_save_map(m, alt, err, sizeof err), TN_SAVE_CHANGED);
    assert_int_equal(tn_save_map_as(m, link_, path, err, sizeof err), TN_SAVE_CHANGED);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), TN_SAVE_CHANGED);
    char *b;
    size_t n;
    assert_int_equal(tn_read_file(path, 1000, &b, &n, err, sizeof err), 0);
    assert_string_equal(b, edited);
    free(b);
    /* saved as another file that was loaded once (not the map's own):
     * its record follows, and a later save over it by its name passes */
    tn_map *o;
    assert_int_equal(tn_load_map(link_, &o, err, sizeof err), 0);
    assert_int_equal(tn_save_map_as(m, alt, other, err, sizeof err), 0);
    assert_int_equal(tn_save_map(o, path, err, sizeof err), 0);
    tn_map_destroy(o);
    tn_map_destroy(m);
    remove(link_);
    remove(path);
}

/* A map opened through a symbolic link that is then pointed at another
 * map: a save by that name is refused (it went into the other map before,
 * replacing it with this one), by any spelling of the name.  A file that
 * was moved and linked to, the same bytes, is saved through the link. */
static void test_origin_link_repointed(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_repoint_XXXXXX", a[96], b[96], cur[96], alt[96], err[512];
    assert_non_null(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/a.map", dir);
    snprintf(b, sizeof b, "%s/b.map", dir);
    snprintf(cur, sizeof cur, "%s/cur.map", dir);
    snprintf(alt, sizeof alt, "%s/./cur.map", dir);
    const char *bt = "# b, another map\ntilenav-map 1\nsize 3 2\ntiles\n..#\n###\n";
    rewrite(a, "tilenav-map 1\nsize 3 2\ntiles\n...\n###\n");
    rewrite(b, bt);
    assert_int_equal(symlink("a.map", cur), 0);
    tn_map *m;
    assert_int_equal(tn_load_map(cur, &m, err, sizeof err), 0);
    tn_map_set_tile(m, 0, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(remove(cur), 0);
    assert_int_equal(symlink("b.map", cur), 0); /* pointed at b */
    assert_int_equal(tn_save_map(m, cur, err, sizeof err), TN_SAVE_CHANGED);
    assert_non_null(strstr(err, "now names another file"));
    assert_int_equal(tn_save_map_as(m, alt, cur, err, sizeof err), TN_SAVE_CHANGED);
    char *t;
    size_t n;
    assert_int_equal(tn_read_file(b, 1000, &t, &n, err, sizeof err), 0);
    assert_string_equal(t, bt); /* b is untouched */
    free(t);
    /* b loaded by that name (a reload): its own saves pass */
    tn_map *mb;
    assert_int_equal(tn_load_map(cur, &mb, err, sizeof err), 0);
    tn_map_set_tile(mb, 0, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(mb, cur, err, sizeof err), 0);
    tn_map_destroy(mb);
    /* a.map moved into a folder and linked to: the same bytes, saved */
    char store[96], moved[96];
    snprintf(store, sizeof store, "%s/store", dir);
    snprintf(moved, sizeof moved, "%s/store/a.map", dir);
    tn_map *ma;
    assert_int_equal(tn_load_map(a, &ma, err, sizeof err), 0);
    assert_int_equal(mkdir(store, 0700), 0);
    assert_int_equal(rename(a, moved), 0);
    assert_int_equal(symlink("store/a.map", a), 0);
    tn_map_set_tile(ma, 1, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(ma, a, err, sizeof err), 0);
    tn_map *back;
    assert_int_equal(tn_load_map(moved, &back, err, sizeof err), 0);
    assert_true(tn_map_equal(back, ma));
    tn_map_destroy(back);
    tn_map_destroy(ma);
    tn_map_destroy(m);
    remove(a);
    remove(moved);
    rmdir(store);
    remove(cur);
    remove(b);
    rmdir(dir);
}

/* A reload the world refuses (the character fits nowhere on the file's
 * map) leaves the record as it was: the world still plays the old map, and
 * a save over the file, which changed, is still refused. */
static void test_reset_refused_keeps_record(void **state)
{
    (void)state;
    char path[] = "/tmp/tn_test_reset_XXXXXX", err[512];
    write_temp(path, "tilenav-map 1\nsize 6 4\ntiles\n......\n.P....\n......\n######\n");
    tn_map *m;
    assert_int_equal(tn_load_map(path, &m, err, sizeof err), 0);
    tn_world *w;
    tn_error e;
    assert_true(tn_succeeded(tn_world_create(m, NULL, NULL, &w, &e)));
    assert_true(tn_succeeded(tn_world_edit(w, 4, 1, TN_EDIT_BLOCK, &e)));
    rewrite(path, "tilenav-map 1\nsize 6 4\ntiles\n######\n######\n######\n######\n");
    assert_int_equal(tn_control_reset(w, path, err, sizeof err), -1);
    assert_int_equal(tn_save_map(tn_world_map(w), path, err, sizeof err), TN_SAVE_CHANGED);
    assert_non_null(strstr(err, "changed on disk since it was loaded"));
    tn_world_destroy(w);
    remove(path);
}

/* After a save refused because the file changed on disk: only the tiles
 * the user changed (autosave vs the map as loaded) go onto the reloaded
 * map; its outside edits stay. */
static void test_merge_edits(void **state)
{
    (void)state;
    tn_map *base, *mine, *theirs, *other;
    tn_error e;
    assert_true(tn_succeeded(tn_map_create(40, 20, NULL, &base, &e)));
    assert_true(tn_succeeded(tn_map_clone(base, &mine, &e)));
    assert_true(tn_succeeded(tn_map_clone(base, &theirs, &e)));
    tn_map_set_tile(mine, 30, 15, TN_TILE_BLOCK, NULL);  /* the user's right-click */
    tn_map_set_mark(mine, 3, 3, TN_MARK_ITEM, NULL);     /* and an item */
    tn_map_set_tile(mine, 7, 7, TN_TILE_ONEWAY, NULL);   /* changed on both sides */
    tn_map_set_tile(theirs, 20, 9, TN_TILE_BLOCK, NULL); /* the outside edit */
    tn_map_set_tile(theirs, 7, 7, TN_TILE_BLOCK, NULL);
    int both = -1;
    assert_int_equal(tn_map_merge_edits(theirs, base, mine, &both), 3);
    assert_int_equal(both, 1);
    assert_int_equal(tn_map_tile(theirs, 30, 15), TN_TILE_BLOCK);
    assert_int_equal(tn_map_tile(theirs, 20, 9), TN_TILE_BLOCK); /* kept */
    assert_int_equal(tn_map_tile(theirs, 7, 7), TN_TILE_ONEWAY);
    assert_int_equal(tn_map_mark(theirs, 3, 3), TN_MARK_ITEM);
    /* another size: nothing merged */
    assert_true(tn_succeeded(tn_map_create(41, 20, NULL, &other, &e)));
    assert_int_equal(tn_map_merge_edits(other, base, mine, &both), -1);
    assert_int_equal(tn_map_tile(other, 30, 15), TN_TILE_EMPTY);
    tn_map_destroy(other);
    tn_map_destroy(theirs);
    tn_map_destroy(mine);
    tn_map_destroy(base);
}

/* Rows past the height start with '#' like a comment: still refused, with
 * the file, the line of the first extra row and both counts; comments after
 * the rows (even '#' lines of another width or with other text) load. */
static void test_load_extra_rows(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "\xEF\xBB\xBF# two extra rows\ntilenav-map 1\nsize 4 2\n# c\ntiles\n#..#\n#P.#\n#..#\n"
        "# between\n####\n",
        "tilenav-map 1\r\nsize 4 2\r\ntiles\r\n#..#\r\n#P.#\r\n####\r\n",
    };
    static const char *const want[] = {
        ":8:1: 4 tile rows but size says 2 (the 2 rows from this line on are extra: fix the "
        "'size' line or remove them)",
        ":6:1: 3 tile rows but size says 2 (this row is extra: fix the 'size' line or remove it)",
    };
    char err[512], msg[600];
    for (int i = 0; i < 2; i++) {
        char path[] = "/tmp/tn_test_rows_XXXXXX";
        write_temp(path, bad[i]);
        tn_map *m = NULL;
        assert_int_equal(tn_load_map(path, &m, err, sizeof err), -1);
        assert_null(m);
        snprintf(msg, sizeof msg, "%s%s", path, want[i]);
        assert_string_equal(err, msg);
        remove(path);
    }
    char path[] = "/tmp/tn_test_rows_XXXXXX";
    write_temp(path, "tilenav-map 1\nsize 4 2\ntiles\n#..#\n#P.#\n# end\n#####\n##\n#\n# ok\n");
    tn_map *m;
    assert_int_equal(tn_load_map(path, &m, err, sizeof err), 0);
    assert_int_equal(m->h, 2);
    tn_map_destroy(m);
    remove(path);
    /* Moving AI maps have no comments: any text after the rows was refused already. */
    char mai[] = "/tmp/tn_test_rows_XXXXXX";
    write_temp(mai, "type octile\nheight 1\nwidth 2\nmap\n..\n..\n");
    assert_int_equal(tn_load_map(mai, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, ":6:1: unexpected text after the last of the 1 tile rows"));
    remove(mai);
}

/* An older autosave the game did not write is moved to the first free
 * PATH.N, never over an existing file; nothing there (or a directory) moves
 * nothing. */
static void test_autosave_set_aside(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_aside_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], kept[300], err[512], want[300];
    snprintf(path, sizeof path, "%s/m.map.autosave", dir);
    assert_int_equal(tn_autosave_set_aside(path, kept, sizeof kept, err, sizeof err), 0);
    assert_string_equal(kept, "");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    snprintf(want, sizeof want, "%s.1", path); /* taken: the next free name is .2 */
    f = fopen(want, "w");
    assert_non_null(f);
    fputs("older\n", f);
    fclose(f);
    assert_int_equal(tn_autosave_set_aside(path, kept, sizeof kept, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s.2", path);
    assert_string_equal(kept, want);
    assert_false(tn_is_regular_file(path));
    char line[16] = "";
    f = fopen(want, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "old\n");
    snprintf(want, sizeof want, "%s.1", path);
    f = fopen(want, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "older\n");
    /* the next start's offer counts them (the window names them there) */
    int last = -1;
    assert_int_equal(tn_autosave_older(path, &last), 2);
    assert_int_equal(last, 2);
    remove(want);
    assert_int_equal(tn_autosave_older(path, &last), 1);
    assert_int_equal(last, 2);
    snprintf(want, sizeof want, "%s.2", path);
    remove(want);
    assert_int_equal(tn_autosave_older(path, &last), 0);
    assert_int_equal(last, 0);
    assert_int_equal(mkdir(path, 0700), 0); /* not a file: left for the save to refuse */
    assert_int_equal(tn_autosave_set_aside(path, kept, sizeof kept, err, sizeof err), 0);
    assert_string_equal(kept, "");
    assert_false(tn_is_regular_file(path));
    rmdir(path);
    rmdir(dir);
}

/* What the start says of a map's autosaves.  A playtest: edits autosaved
 * (Esc), the next session's edits autosaved too on Tab (the first set
 * aside as MAP.autosave.1), R and Ctrl+S there: MAP.autosave is removed,
 * and the next start said nothing at all of MAP.autosave.1, whose edits
 * were never restored (the offer named the older files only beside an
 * autosave R restores). */
static void test_autosave_offer(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_offer_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char map[256], as[280], older[300], older2[300], msg[2048], want[2048];
    snprintf(map, sizeof map, "%s/m.map", dir);
    snprintf(as, sizeof as, "%s.autosave", map);
    snprintf(older, sizeof older, "%s.1", as);
    snprintf(older2, sizeof older2, "%s.3", as);
    FILE *f = fopen(map, "w");
    assert_non_null(f);
    fputs("map\n", f);
    fclose(f);
    assert_int_equal(tn_autosave_offer(map, msg, sizeof msg), 0); /* nothing to say */
    assert_string_equal(msg, "");
    assert_int_equal(tn_autosave_offer(NULL, msg, sizeof msg), 0);
    const char *files[] = {as, older};
    for (int k = 0; k < 2; k++) {
        f = fopen(files[k], "w");
        assert_non_null(f);
        fputs("edits\n", f);
        fclose(f);
    }
    assert_int_equal(tn_autosave_offer(map, msg, sizeof msg), 1);
    snprintf(want, sizeof want,
             "%s holds edits that were never saved: press R to restore them (older unsaved "
             "edits: %s)",
             as, older);
    assert_string_equal(msg, want);
    remove(as); /* restored and saved: the older one stays, and is said */
    assert_int_equal(tn_autosave_offer(map, msg, sizeof msg), 2);
    snprintf(want, sizeof want,
             "older unsaved edits, never restored: %s (R restores %s only: rename that file to "
             "it to restore them)",
             older, as);
    assert_string_equal(msg, want);
    f = fopen(older2, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(tn_autosave_offer(map, msg, sizeof msg), 2);
    snprintf(want, sizeof want,
             "older unsaved edits, never restored: 2 files, %s.N (the newest %s) (R restores %s "
             "only: rename one to it to restore its edits)",
             as, older2, as);
    assert_string_equal(msg, want);
    remove(older);
    remove(older2);
    /* A review: a directory or a dangling link named MAP.autosave.1 holds
     * no edits, yet the start named it as older unsaved edits to rename. */
    assert_int_equal(mkdir(older, 0700), 0);
    assert_int_equal(symlink("/nonexistent-tilenav-autosave", older2), 0);
    assert_int_equal(tn_autosave_offer(map, msg, sizeof msg), 0);
    assert_string_equal(msg, "");
    rmdir(older);
    remove(older2);
    /* A review: older ones set aside in the data folder (an earlier session
     * whose map folder could not be written) were never named once that
     * folder could be written again: the start looked beside the map only. */
    const char *oldx = getenv("XDG_DATA_HOME");
    char *sx = oldx ? strdup(oldx) : NULL;
    char data[300], das[1024], dolder[1100], err[512];
    static char bigwant[4096];
    snprintf(data, sizeof data, "%s/data", dir);
    setenv("XDG_DATA_HOME", data, 1);
    assert_int_equal(tn_autosave_data_path(map, true, das, sizeof das, err, sizeof err), 0);
    snprintf(dolder, sizeof dolder, "%s.1", das);
    f = fopen(dolder, "w");
    assert_non_null(f);
    fputs("edits\n", f);
    fclose(f);
    assert_int_equal(tn_autosave_offer(map, msg, sizeof msg), 2);
    snprintf(bigwant, sizeof bigwant,
             "older unsaved edits, never restored: %s (R restores %s only: rename that file to "
             "it to restore them)",
             dolder, das);
    assert_string_equal(msg, bigwant);
    remove(dolder);
    assert_int_equal(tn_autosave_offer(map, msg, sizeof msg), 0);
    if (sx)
        setenv("XDG_DATA_HOME", sx, 1);
    else
        unsetenv("XDG_DATA_HOME");
    free(sx);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", data);
    assert_int_equal(system(cmd), 0);
    remove(map);
    rmdir(dir);
}

/* The first line of a file, into line. */
static void first_line(const char *path, char *line, size_t cap)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, (int)cap, f));
    fclose(f);
}

/* The autosave's name is MAP.autosave or nothing: a map path too long for
 * it is refused with the reason, never cut (a 1023-byte path cut to 1023
 * bytes was the map itself, which the autosave then replaced). */
static void test_autosave_path_fits(void **state)
{
    (void)state;
    char map[1100], out[1024], err[512];
    memset(map, 'd', sizeof map);
    for (int i = 0; i < 1100; i += 100) map[i] = '/'; /* names of 99 bytes */
    map[1014] = '\0';                                 /* 1014 + ".autosave" = 1023 bytes: fits */
    assert_int_equal(tn_autosave_path(map, out, sizeof out, err, sizeof err), 0);
    assert_int_equal(strlen(out), 1023);
    assert_string_equal(out + 1014, ".autosave");
    map[1014] = 'd';
    map[1023] = '\0'; /* 1032 bytes: refused */
    memset(out, 'x', sizeof out);
    assert_int_equal(tn_autosave_path(map, out, sizeof out, err, sizeof err), -1);
    assert_string_equal(out, "");
    const char *want = "the autosave's path would be 1032 bytes, at most 1023 (use a map with a "
                       "shorter path): /ddd";
    assert_memory_equal(err, want, strlen(want));
    map[1099] = '\0';
    assert_int_equal(tn_autosave_path(map, out, sizeof out, err, sizeof err), -1);
}

/* A map whose directory cannot be written (a system directory; here one
 * that does not exist, which access() refuses even to root) keeps its
 * autosave in DATA/tilenav/autosave, one per map path: before, the edits of
 * such a map could not be autosaved, and the window (which has no "save
 * as") could only quit and lose them.  tests/e2e/window_readonly_dir.sh
 * runs the game so. */
static void test_autosave_path_for(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_asfor_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char map[600], out[1024], out2[1024], err[512], want[1100];
    /* a writable directory: beside the map, as tn_autosave_path */
    snprintf(map, sizeof map, "%s/room.map", dir);
    assert_int_equal(tn_autosave_path_for(map, false, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s.autosave", map);
    assert_string_equal(out, want);
    /* one that is not: under XDG_DATA_HOME, made on demand */
    const char *oldx = getenv("XDG_DATA_HOME"), *oldh = getenv("HOME");
    char *sx = oldx ? strdup(oldx) : NULL, *sh = oldh ? strdup(oldh) : NULL;
    char data[600];
    snprintf(data, sizeof data, "%s/data", dir);
    setenv("XDG_DATA_HOME", data, 1);
    const char *ro = "/nonexistent-tilenav-dir/a/room.map";
    assert_int_equal(tn_autosave_path_for(ro, true, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/tilenav/autosave/room.map~", data);
    assert_memory_equal(out, want, strlen(want));
    assert_string_equal(out + strlen(want) + 16, ".autosave");
    snprintf(want, sizeof want, "%s/tilenav/autosave", data);
    struct stat st;
    assert_int_equal(stat(want, &st), 0); /* made */
    /* an XDG_DATA_HOME whose parents are missing too: all made (mkdir -p;
     * a reviewer's HOME/.local/share with no .local lost the edits) */
    snprintf(data, sizeof data, "%s/deep/er/share", dir);
    setenv("XDG_DATA_HOME", data, 1);
    char deep[1024];
    assert_int_equal(tn_autosave_path_for(ro, true, deep, sizeof deep, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/tilenav/autosave", data);
    assert_int_equal(stat(want, &st), 0);
    snprintf(data, sizeof data, "%s/data", dir);
    setenv("XDG_DATA_HOME", data, 1);
    /* the same path again: the same file; another directory: another file */
    assert_int_equal(tn_autosave_path_for(ro, false, out2, sizeof out2, err, sizeof err), 0);
    assert_string_equal(out, out2);
    assert_int_equal(tn_autosave_path_for("/nonexistent-tilenav-dir/b/room.map", false, out2,
                                          sizeof out2, err, sizeof err),
                     0);
    assert_string_not_equal(out, out2);
    /* no XDG_DATA_HOME: HOME/.local/share, .local made too */
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", dir, 1);
    assert_int_equal(tn_autosave_path_for(ro, true, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/.local/share/tilenav/autosave/room.map~", dir);
    assert_memory_equal(out, want, strlen(want));
    snprintf(want, sizeof want, "%s/.local/share/tilenav/autosave", dir);
    assert_int_equal(stat(want, &st), 0);
    /* neither: refused, saying why */
    unsetenv("HOME");
    assert_int_equal(tn_autosave_path_for(ro, false, out, sizeof out, err, sizeof err), -1);
    assert_string_equal(out, "");
    assert_non_null(strstr(err, "HOME"));
    if (sx) setenv("XDG_DATA_HOME", sx, 1);
    if (sh) setenv("HOME", sh, 1);
    free(sx);
    free(sh);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static int save_map_writer(void *ctx, const char *path, char *err, size_t cap)
{
    return tn_save_map(ctx, path, err, cap);
}

/* The autosave falls back to the data folder when writing beside the map
 * fails (here MAP.autosave is a directory; a full disk does the same), and
 * goes there directly for a map that is a pipe or a device (it tried
 * /dev/fd/63.autosave) or whose autosave path would be too long: the
 * edits were lost, and the window said Ctrl+S saves them to /dev/fd/63. */
static void test_autosave_fallback(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_asfall_XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *oldx = getenv("XDG_DATA_HOME");
    char *sx = oldx ? strdup(oldx) : NULL;
    char map[1200], data[600], out[1024], out2[1024], kept[1100], err[1024], want[1300];
    snprintf(data, sizeof data, "%s/data", dir);
    setenv("XDG_DATA_HOME", data, 1);
    snprintf(map, sizeof map, "%s/room.map", dir);
    FILE *f = fopen(map, "w");
    assert_non_null(f);
    fputs("tilenav-map 1\nsize 3 2\ntiles\n...\n###\n", f);
    fclose(f);
    tn_map *m, *back;
    assert_int_equal(tn_load_map(map, &m, err, sizeof err), 0);
    tn_map_set_tile(m, 0, 0, TN_TILE_BLOCK, NULL);
    /* beside the map when it can be written there */
    assert_int_equal(tn_autosave_write(map, NULL, save_map_writer, m, out, sizeof out, kept,
                                       sizeof kept, err, sizeof err),
                     0);
    snprintf(want, sizeof want, "%s.autosave", map);
    assert_string_equal(out, want);
    assert_string_equal(err, "");
    assert_int_equal(remove(out), 0);
    /* MAP.autosave cannot be written: the data folder, saying why */
    assert_int_equal(mkdir(want, 0700), 0);
    assert_int_equal(tn_autosave_write(map, NULL, save_map_writer, m, out, sizeof out, kept,
                                       sizeof kept, err, sizeof err),
                     0);
    snprintf(want, sizeof want, "%s/tilenav/autosave/room.map~", data);
    if (strncmp(out, want, strlen(want)) != 0) fail_msg("%s", out);
    snprintf(want, sizeof want, "%s.autosave: is a directory: not saved", map);
    assert_string_equal(err, want);
    assert_int_equal(tn_load_map(out, &back, err, sizeof err), 0);
    assert_true(tn_map_equal(m, back));
    tn_map_destroy(back);
    /* found there by the next start (R), and written there again as ours */
    assert_int_equal(tn_autosave_find(map, out2, sizeof out2, err, sizeof err), 0);
    assert_string_equal(out2, out);
    assert_int_equal(tn_autosave_write(map, out, save_map_writer, m, out2, sizeof out2, kept,
                                       sizeof kept, err, sizeof err),
                     0);
    assert_string_equal(out2, out);
    assert_string_equal(kept, "");
    /* nowhere to write: both reasons */
    unlink(out);
    snprintf(want, sizeof want, "%s/tilenav", data);
    char cmd[2700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && touch '%s'", want, want); /* a file, no folder */
    assert_int_equal(system(cmd), 0);
    assert_int_equal(tn_autosave_write(map, NULL, save_map_writer, m, out, sizeof out, kept,
                                       sizeof kept, err, sizeof err),
                     -1);
    if (!strstr(err, "room.map.autosave: is a directory") || !strstr(err, "; and in the data "
                                                                          "folder: "))
        fail_msg("%s", err);
    assert_int_equal(remove(want), 0);
    /* a pipe: straight to the data folder */
    snprintf(map, sizeof map, "%s/pipe.map", dir);
    assert_int_equal(mkfifo(map, 0600), 0);
    assert_int_equal(tn_autosave_path_for(map, false, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/tilenav/autosave/pipe.map~", data);
    if (strncmp(out, want, strlen(want)) != 0) fail_msg("%s", out);
    /* an autosave path longer than 1023 bytes: the data folder too */
    size_t n = (size_t)snprintf(map, sizeof map, "%s", dir);
    while (n < 1000) {
        n += (size_t)snprintf(map + n, sizeof map - n, "/%.99s",
                              "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
                              "ddddddddddddddddddddddddddddddd");
        assert_int_equal(mkdir(map, 0700), 0);
    }
    snprintf(map + n, sizeof map - n, "/long.map");
    assert_int_equal(tn_autosave_path_for(map, false, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/tilenav/autosave/long.map~", data);
    if (strncmp(out, want, strlen(want)) != 0) fail_msg("%s", out);
    tn_map_destroy(m);
    if (sx)
        setenv("XDG_DATA_HOME", sx, 1);
    else
        unsetenv("XDG_DATA_HOME");
    free(sx);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The window has no "save as": its messages say what it can do.  A save's
 * script advice ("save under another name (script: save OTHER)") is cut
 * for it, and keeping a file it would replace is advised as a copy to a
 * name that is free (the restore of a map that changed size on disk said
 * "save under another name to keep both"). */
static void test_window_save_advice(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_advice_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char map[128], aside[160], hint[400], want[400], err[512];
    snprintf(map, sizeof map, "%s/x.map", dir);
    FILE *f = fopen(map, "w");
    assert_non_null(f);
    fputs("tilenav-map 1\nsize 3 2\ntiles\n...\n###\n", f);
    fclose(f);
    tn_copy_aside_hint(map, hint, sizeof hint);
    snprintf(want, sizeof want, "first copy %s to %s.outside", map, map);
    assert_string_equal(hint, want);
    snprintf(aside, sizeof aside, "%s.outside", map); /* taken: the next free name */
    f = fopen(aside, "w");
    assert_non_null(f);
    fclose(f);
    tn_copy_aside_hint(map, hint, sizeof hint);
    snprintf(want, sizeof want, "first copy %s to %s.outside-2", map, map);
    assert_string_equal(hint, want);
    /* a read-only map: the script's advice is cut, the reason kept */
    tn_map *m;
    assert_int_equal(tn_load_map(map, &m, err, sizeof err), 0);
    assert_int_equal(chmod(map, 0444), 0);
    assert_int_equal(tn_save_map(m, map, err, sizeof err), -1);
    assert_non_null(strstr(err, "save under another name"));
    tn_drop_script_hint(err);
    snprintf(want, sizeof want, "%s: is read-only (mode 0444", map);
    assert_memory_equal(err, want, strlen(want));
    assert_null(strstr(err, "another name"));
    assert_string_equal(err + strlen(err) - strlen(": not replaced"), ": not replaced");
    tn_map_destroy(m);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A save into a folder that is gone names it, absolute, and says so: the
 * working folder removed while the game ran said "cannot create a
 * temporary file in .: No such file or directory". */
static void test_save_folder_gone(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_gone_XXXXXX", old[4096], err[512], want[600];
    assert_non_null(mkdtemp(dir));
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(rmdir(dir), 0);
    int rc = tn_write_file_atomic("x.map", "abc\n", 4, err, sizeof err);
    assert_int_equal(chdir(old), 0);
    assert_int_equal(rc, -1);
    snprintf(want, sizeof want, "x.map: not saved: the folder %s no longer exists", dir);
    assert_string_equal(err, want);
    /* a folder that is not there at all */
    snprintf(want, sizeof want, "%s/sub/x.map", dir);
    assert_int_equal(tn_write_file_atomic(want, "abc\n", 4, err, sizeof err), -1);
    snprintf(want + strlen(want), sizeof want - strlen(want),
             ": not saved: the folder %s/sub does not exist", dir);
    assert_string_equal(err, want);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A folder another program holds locked (flock -x DIR sleep 40): the save
 * waits as long as it is set to (the window: 1.5 s, not 10), and the
 * autosave into that folder right after does not wait a second time: it
 * goes to the data folder at once.  Both messages name the folder one way
 * (it was /tmp/x in one and "." in the other). */
static void test_save_locked_folder(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_locked_XXXXXX", old[4096], map[128], err[1024], want[512];
    char out[1024], kept[1100], data[128];
    assert_non_null(mkdtemp(dir));
    snprintf(map, sizeof map, "%s/x.map", dir);
    FILE *f = fopen(map, "w");
    assert_non_null(f);
    fputs("tilenav-map 1\nsize 3 2\ntiles\n...\n###\n", f);
    fclose(f);
    tn_map *m;
    assert_int_equal(tn_load_map(map, &m, err, sizeof err), 0);
    int lk = open(dir, O_RDONLY | O_DIRECTORY); /* its own lock: as another process's */
    assert_true(lk >= 0);
    assert_int_equal(flock(lk, LOCK_EX), 0);
    tn_save_set_lock_wait(300);
    double t0 = now_s();
    assert_int_equal(tn_save_map(m, map, err, sizeof err), -1);
    double t1 = now_s();
    assert_true(t1 - t0 >= 0.25 && t1 - t0 < 2.0);
    snprintf(want, sizeof want,
             "%s: cannot lock the directory %s: another program holds it (a save there did not "
             "finish within 0.3 s) (the old file is untouched)",
             map, dir);
    assert_string_equal(err, want);
    /* the autosave, by a relative name as the window gives it: no second
     * wait, the data folder, the folder named as before.  A wait of 10 s
     * now, so that one would show (it was 0.3 s, under the 0.2 s the
     * autosave was given: its writes and two fsyncs took 343 ms under
     * other programs' disk writes) */
    tn_save_set_lock_wait(10000);
    const char *oldx = getenv("XDG_DATA_HOME");
    char *sx = oldx ? strdup(oldx) : NULL;
    snprintf(data, sizeof data, "%s-data", dir);
    setenv("XDG_DATA_HOME", data, 1);
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(dir), 0);
    t0 = now_s();
    int rc = tn_autosave_write("x.map", NULL, save_map_writer, m, out, sizeof out, kept,
                               sizeof kept, err, sizeof err);
    t1 = now_s();
    assert_int_equal(chdir(old), 0);
    assert_int_equal(rc, 0);
    assert_true(t1 - t0 < 5.0);
    snprintf(want, sizeof want, "%s/tilenav/autosave/x.map~", data);
    if (strncmp(out, want, strlen(want)) != 0) fail_msg("%s", out);
    snprintf(want, sizeof want,
             "x.map.autosave: cannot lock the directory %s: another program still holds it (not "
             "waited for again)",
             dir);
    assert_string_equal(err, want);
    /* released: saves pass again */
    close(lk);
    assert_int_equal(tn_save_map(m, map, err, sizeof err), 0);
    tn_save_set_lock_wait(10000);
    tn_map_destroy(m);
    if (sx)
        setenv("XDG_DATA_HOME", sx, 1);
    else
        unsetenv("XDG_DATA_HOME");
    free(sx);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, data);
    assert_int_equal(system(cmd), 0);
}

/* A map whose file name is too long for NAME.autosave (and NAME.autosave.N
 * beside it) in its directory gets a shortened autosave name: its first
 * bytes, "~" and its name's hash, so two long names with the same first
 * bytes never share one.  Such maps got no autosave at all ("cannot stat:
 * File name too long"), their edits lost on quitting. */
static void test_autosave_long_name(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_longname_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[512], b[512], c[512], u[512], out[1024], out2[1024], err[512], kept[1100];
    size_t dl = strlen(dir);
    /* 250 bytes: DIR/mmm...m.map */
    snprintf(a, sizeof a, "%s/%0*d.map", dir, 246, 0);
    memset(a + dl + 1, 'm', 246);
    assert_int_equal(tn_autosave_path(a, out, sizeof out, err, sizeof err), 0);
    const char *name = out + dl + 1;
    assert_int_equal(strlen(name), 225 + 17 + 9); /* room for ".999" in 255 */
    assert_memory_equal(name, a + dl + 1, 225);
    assert_int_equal(name[225], '~');
    assert_string_equal(name + 242, ".autosave");
    /* the same first 240 bytes, another name: another autosave */
    snprintf(b, sizeof b, "%s", a);
    b[dl + 1 + 240] = 'n';
    assert_int_equal(tn_autosave_path(b, out2, sizeof out2, err, sizeof err), 0);
    assert_string_not_equal(out, out2);
    assert_memory_equal(out, out2, dl + 1 + 226); /* only the hash differs */
    /* the same name: the same autosave (R finds it on the next visit) */
    assert_int_equal(tn_autosave_path(a, out2, sizeof out2, err, sizeof err), 0);
    assert_string_equal(out, out2);
    /* 242 bytes: NAME.autosave.999 fits in 255: kept as it was */
    snprintf(c, sizeof c, "%s/", dir);
    memset(c + dl + 1, 'c', 242);
    c[dl + 1 + 242] = '\0';
    assert_int_equal(tn_autosave_path(c, out2, sizeof out2, err, sizeof err), 0);
    assert_string_equal(out2 + dl + 1 + 242, ".autosave");
    c[dl + 1 + 242] = 'c'; /* 243 bytes: shortened */
    c[dl + 1 + 243] = '\0';
    assert_int_equal(tn_autosave_path(c, out2, sizeof out2, err, sizeof err), 0);
    assert_int_equal(out2[dl + 1 + 225], '~');
    /* UTF-8: never cut inside a character ("é" is 2 bytes) */
    snprintf(u, sizeof u, "%s/", dir);
    for (int i = 0; i < 130; i++) memcpy(u + dl + 1 + 2 * i, "\xc3\xa9", 2);
    u[dl + 1 + 260] = '\0';
    assert_int_equal(tn_autosave_path(u, out2, sizeof out2, err, sizeof err), 0);
    assert_int_equal(out2[dl + 1 + 224], '~');
    assert_memory_equal(out2 + dl + 1, u + dl + 1, 224);

    /* it is written, and set aside as NAME.1, in a real directory */
    tn_map *m;
    assert_int_equal(tn_load_map("tests/data/small.map", &m, err, sizeof err), 0);
    if (tn_save_map_as(m, out, a, err, sizeof err) != 0) fail_msg("%s", err);
    tn_map *back;
    assert_int_equal(tn_load_map(out, &back, err, sizeof err), 0);
    assert_true(tn_map_equal(m, back));
    tn_map_destroy(back);
    assert_int_equal(tn_autosave_set_aside(out, kept, sizeof kept, err, sizeof err), 0);
    assert_int_equal(strlen(kept), strlen(out) + 2);
    assert_memory_equal(kept, out, strlen(out));
    assert_string_equal(kept + strlen(out), ".1");
    remove(kept);
    tn_map_destroy(m);
    rmdir(dir);
}

/* A FIFO (named pipe) given as a map or script is refused at once with a
 * message naming it, instead of waiting forever for a writer; the map
 * picker does not list one named *.map.  (alarm: a hang fails the test.) */
static void test_fifo_refused(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_fifo_XXXXXX", a[64], b[64], err[512], want[600];
    assert_non_null(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/a.map", dir);
    snprintf(b, sizeof b, "%s/b.map", dir);
    FILE *f = fopen(a, "w");
    assert_non_null(f);
    fputs("tilenav-map 1\nsize 3 3\ntiles\n###\n#P#\n###\n", f);
    fclose(f);
    assert_int_equal(mkfifo(b, 0600), 0);
    alarm(10);
    char *buf = NULL;
    size_t len;
    assert_int_equal(tn_read_file(b, 1024, &buf, &len, err, sizeof err), -1);
    assert_null(buf);
    snprintf(want, sizeof want, "%s: is a FIFO (named pipe), not a regular file: not read", b);
    assert_string_equal(err, want);
    tn_map *m = NULL;
    assert_int_equal(tn_load_map(b, &m, err, sizeof err), -1);
    assert_string_equal(err, want);
    char *list[8];
    int n = tn_map_list(a, NULL, 0, list, 8);
    alarm(0);
    assert_int_equal(n, 1);
    assert_string_equal(list[0], a);
    free(list[0]);
    remove(a);
    remove(b);
    rmdir(dir);
}

/* A regular file whose size the file system does not know (st_size 0,
 * as procfs reports) is read to its end, not taken for an empty file;
 * the limit holds for it too, and for a pipe. */
static void test_read_unknown_size(void **state)
{
    (void)state;
    char *buf = NULL, err[512];
    size_t len = 0;
    struct stat st;
    if (stat("/proc/self/status", &st) != 0 || st.st_size != 0) skip();
    assert_int_equal(tn_read_file("/proc/self/status", 1 << 20, &buf, &len, err, sizeof err), 0);
    assert_true(len > 0 && strncmp(buf, "Name:", 5) == 0);
    free(buf);
    assert_int_equal(tn_read_file("/proc/self/status", 8, &buf, &len, err, sizeof err), -1);
    assert_string_equal(err, "/proc/self/status: larger than the 8-byte limit");
    assert_null(buf);
}

/* The limit is the largest size read, not one byte under it: a file or a
 * pipe of exactly `max` bytes is read (a 16 MiB script was refused as
 * "larger than the 16777216-byte limit"), one byte more is not. */
static void test_read_exactly_the_limit(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_limit_XXXXXX", path[64], err[512], want[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/f.txt", dir);
    char *buf = NULL;
    size_t len = 0;
    for (size_t size = 1000; size <= 1001; size++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        for (size_t i = 0; i < size; i++) fputc('a' + (int)(i % 26), f);
        fclose(f);
        int rc = tn_read_file(path, 1000, &buf, &len, err, sizeof err);
        if (size == 1000) {
            if (rc != 0) fail_msg("%s", err);
            assert_int_equal(len, 1000);
            assert_int_equal(buf[999], 'a' + 999 % 26);
            free(buf);
        } else {
            assert_int_equal(rc, -1);
            snprintf(want, sizeof want, "%s: file is 1001 bytes, larger than the 1000-byte limit",
                     path);
            assert_string_equal(err, want);
        }
    }
    /* a pipe this process holds, 8 bytes with an 8-byte limit, then 9 */
    for (int size = 8; size <= 9; size++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        assert_int_equal(write(fds[1], "123456789", (size_t)size), size);
        close(fds[1]);
        char p[32];
        snprintf(p, sizeof p, "/dev/fd/%d", fds[0]);
        int rc = tn_read_file(p, 8, &buf, &len, err, sizeof err);
        close(fds[0]);
        if (size == 8) {
            if (rc != 0) fail_msg("%s", err);
            assert_int_equal(len, 8);
            assert_memory_equal(buf, "12345678", 8);
            free(buf);
        } else {
            assert_int_equal(rc, -1);
            snprintf(want, sizeof want, "%s: larger than the 8-byte limit", p);
            assert_string_equal(err, want);
        }
    }
    remove(path);
    rmdir(dir);
}

/* Saved over a Moving AI map of another size, the header gets the new
 * height and width (other lines and CRLF endings kept): the file loads as
 * the map saved. */
static void test_save_movingai_other_size(void **state)
{
    (void)state;
    char err[512];
    tn_map *m = NULL;
    assert_true(tn_succeeded(tn_map_create(6, 3, NULL, &m, NULL)));
    tn_map_set_tile(m, 2, 1, TN_TILE_BLOCK, NULL);
    static const char *const olds[] = {
        "type octile\nheight 8\nwidth 12\nmap\n@@@@@@@@@@@@\n@..........@\n@..........@\n"
        "@..TTW..GG.@\n@..........@\n@..........@\n@SSSSSSSSSS@\n@@@@@@@@@@@@\n",
        "type octile\r\nwidth 2\r\nheight 1\r\nmap\r\n..\r\n",
    };
    static const char *const heads[] = {"type octile\nheight 3\nwidth 6\nmap\n",
                                        "type octile\r\nwidth 6\r\nheight 3\r\nmap\r\n"};
    for (int i = 0; i < 2; i++) {
        char path[] = "/tmp/tn_test_maisize_XXXXXX";
        write_temp(path, olds[i]);
        assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
        tn_map *back = NULL;
        if (tn_load_map(path, &back, err, sizeof err) != 0) fail_msg("%s", err);
        assert_true(tn_map_equal(m, back));
        tn_map_destroy(back);
        char head[64] = "";
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        size_t n = fread(head, 1, strlen(heads[i]), f);
        fclose(f);
        head[n] = '\0';
        assert_string_equal(head, heads[i]);
        remove(path);
    }
    /* what the format cannot hold: TN_SAVE_UNFIT (the window then puts the
     * edits into the autosave; it was -1, like any failure), the file kept */
    char path[] = "/tmp/tn_test_maisize_XXXXXX";
    write_temp(path, olds[1]);
    tn_map_set_tile(m, 3, 1, TN_TILE_ONEWAY, NULL);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), TN_SAVE_UNFIT);
    char want[512];
    snprintf(want, sizeof want,
             "%s: is a Moving AI map, which cannot hold one-way platforms: not saved (the old "
             "file is untouched)%s",
             path, TN_SAVE_UNFIT_HINT);
    assert_string_equal(err, want);
    tn_map *back = NULL;
    assert_int_equal(tn_load_map(path, &back, err, sizeof err), 0);
    assert_int_equal(back->w, 2);
    tn_map_destroy(back);
    remove(path);
    tn_map_destroy(m);
}

/* Saved to another file than the one it came from, a map keeps the leading
 * comments of its source (over the target's own); without a source, or from
 * a Moving AI source, the target's; the target still decides the format. */
static void test_save_as_keeps_comments(void **state)
{
    (void)state;
    char err[512], line[128];
    tn_map *m;
    assert_int_equal(tn_load_map("tests/data/small.map", &m, err, sizeof err), 0);
    char fresh[] = "/tmp/tn_test_saveas_XXXXXX", other[] = "/tmp/tn_test_saveas_XXXXXX";
    write_temp(fresh, "");
    remove(fresh); /* a new file */
    assert_int_equal(tn_save_map_as(m, fresh, "tests/data/small.map", err, sizeof err), 0);
    first_line(fresh, line, sizeof line);
    assert_string_equal(line, "# a small test map: floor, a one-way platform, a wall, marks\n");
    tn_map *back;
    assert_int_equal(tn_load_map(fresh, &back, err, sizeof err), 0);
    assert_true(tn_map_equal(m, back));
    tn_map_destroy(back);
    /* an existing tilenav map: the source's comments replace its own */
    write_temp(other, "# other\ntilenav-map 1\nsize 2 1\ntiles\n..\n");
    assert_int_equal(tn_save_map_as(m, other, "tests/data/small.map", err, sizeof err), 0);
    first_line(other, line, sizeof line);
    assert_string_equal(line, "# a small test map: floor, a one-way platform, a wall, marks\n");
    /* no source: the target's own comments, as before */
    assert_int_equal(tn_save_map_as(m, fresh, NULL, err, sizeof err), 0);
    first_line(fresh, line, sizeof line);
    assert_string_equal(line, "# a small test map: floor, a one-way platform, a wall, marks\n");
    FILE *f = fopen(other, "w");
    assert_non_null(f);
    fputs("# mine\ntilenav-map 1\nsize 2 1\ntiles\n..\n", f);
    fclose(f);
    assert_int_equal(tn_save_map_as(m, other, NULL, err, sizeof err), 0);
    first_line(other, line, sizeof line);
    assert_string_equal(line, "# mine\n");
    /* a source without comments (Moving AI) leaves the target's */
    char mai[] = "/tmp/tn_test_saveas_XXXXXX";
    write_temp(mai, "type octile\nheight 1\nwidth 2\nmap\n..\n");
    assert_int_equal(tn_save_map_as(m, other, mai, err, sizeof err), 0);
    first_line(other, line, sizeof line);
    assert_string_equal(line, "# mine\n");
    remove(mai);
    remove(other);
    remove(fresh);
    tn_map_destroy(m);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* A save keeps every comment of the file it replaces: the leading ones,
 * those among the header lines (in place, a CRLF one as it was), and those
 * after the last row; a start line that comes or goes leaves them.  (It
 * kept the leading ones only: Ctrl+S dropped the rest.)  Saved under
 * another name, the source's go with it; a tile's line in a refusal counts
 * the header's comments. */
static void test_save_keeps_every_comment(void **state)
{
    (void)state;
    char err[512];
    /* the header through its last comment, and what follows the rows */
#define HEAD "# lead\ntilenav-map 1\n# after the magic\r\nsize 4 3\n\n# before tiles\n"
#define TAIL "# trailing\n\n# last, no newline"
    const char *text = HEAD "tiles\n....\nP...\n####\n" TAIL;
    char path[] = "/tmp/tn_test_comments_XXXXXX";
    write_temp(path, text);
    tn_map *m;
    assert_int_equal(tn_load_map(path, &m, err, sizeof err), 0);
    tn_map_set_tile(m, 3, 0, TN_TILE_BLOCK, NULL);
    assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
    assert_string_equal(read_text(path), HEAD "tiles\n...#\nP...\n####\n" TAIL);
    /* the start under a block (as the game keeps it): a start line, before
     * `tiles`, comments kept */
    tn_map_set_tile(m, 0, 1, TN_TILE_BLOCK, NULL);
    m->start_x = 0, m->start_y = 1;
    assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
    assert_string_equal(read_text(path), HEAD "start 0 1\ntiles\n...#\n#...\n####\n" TAIL);
    tn_map *back;
    assert_int_equal(tn_load_map(path, &back, err, sizeof err), 0);
    assert_true(tn_map_equal(m, back));
    tn_map_destroy(back);
    /* and gone again: its line goes, the comments stay */
    tn_map_set_tile(m, 0, 1, TN_TILE_EMPTY, NULL);
    m->start_x = 0, m->start_y = 1;
    assert_int_equal(tn_save_map(m, path, err, sizeof err), 0);
    assert_non_null(strstr(read_text(path), "# before tiles\ntiles\n...#\nP...\n"));
    /* under another name: the source's comments, the target's dropped */
    char other[] = "/tmp/tn_test_comments_XXXXXX";
    write_temp(other, "# mine\ntilenav-map 1\n# mine too\nsize 2 1\ntiles\n..\n# my tail\n");
    assert_int_equal(tn_save_map_as(m, other, path, err, sizeof err), 0);
    assert_string_equal(read_text(other), read_text(path));
    /* a refusal names the tile's line in the file as it would be */
    m->mark[3] = TN_MARK_ITEM; /* on the block at (3,0) */
    assert_int_equal(tn_save_map(m, path, err, sizeof err), -1);
    assert_non_null(strstr(err, ":8:4: tile (3,0) has content on a block"));
    remove(other);
    remove(path);
    tn_map_destroy(m);
#undef HEAD
#undef TAIL
}

/* A map the text cannot hold as it is (a field set by hand: content on a
 * block) is not saved: the message names the file, the line and column of
 * the tile in it (after the kept comment lines) and the problem, and the
 * old file stays.  tn_map_format's status was ignored: the save wrote the
 * block without its mark, another map, and said nothing. */
static void test_save_refuses_unwritable_map(void **state)
{
    (void)state;
    char err[512], line[128];
    tn_map *m;
    assert_int_equal(tn_load_map("tests/data/small.map", &m, err, sizeof err), 0);
    m->mark[0] = TN_MARK_ITEM; /* on the block at (0,0) */
    char path[] = "/tmp/tn_test_unwritable_XXXXXX";
    write_temp(path, "# mine\n# two\ntilenav-map 1\nsize 2 1\ntiles\n..\n");
    assert_int_equal(tn_save_map(m, path, err, sizeof err), -1);
    char want[512];
    snprintf(want, sizeof want,
             "%s:6:1: tile (0,0) has content on a block or one-way platform (terrain 1, content "
             "3; terrain 0..2, content 0..3 on an empty tile other than the start): not written "
             "(the old file is untouched)",
             path);
    assert_string_equal(err, want);
    first_line(path, line, sizeof line);
    assert_string_equal(line, "# mine\n");
    tn_map *back;
    assert_int_equal(tn_load_map(path, &back, err, sizeof err), 0);
    assert_int_equal(back->w, 2); /* the old map */
    tn_map_destroy(back);
    /* a new file: not made */
    remove(path);
    assert_int_equal(tn_save_map_as(m, path, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, ":4:1: tile (0,0) has content on a block"));
    assert_int_equal(access(path, F_OK), -1);
    tn_map_destroy(m);
}

/* What the game prints on stderr and stdout goes through tn_print_shown:
 * a name's control characters as \xNN (a map named with an ESC sequence
 * retitled the terminal: "tilenav: bad<ESC>]0;pwned<BEL>.map:5:2: ..."),
 * the message's own final newline kept. */
static void test_print_shown(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    tn_print_shown(f, "tilenav: %s: %s\n", "bad\033]0;pwned\a.map", "line\nbreak");
    tn_print_shown(f, "no newline %d", 7);
    rewind(f);
    char got[256] = "";
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    fclose(f);
    assert_string_equal(got, "tilenav: bad\\x1b]0;pwned\\x07.map: line\\x0abreak\nno newline 7");
}

/* A screenshot replaces nothing but an older BMP: not a map (also through
 * a symbolic link: the map behind it stays a map), not a directory; a new
 * name, an empty file and a file starting with "BM" are fine. */
static void test_screenshot_target(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_shot_XXXXXX", p[128], q[128], err[1024], want[1200];
    assert_non_null(mkdtemp(dir));
    snprintf(p, sizeof p, "%s/new.bmp", dir);
    assert_int_equal(tn_screenshot_target_check(p, err, sizeof err), 0);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f); /* empty */
    assert_int_equal(tn_screenshot_target_check(p, err, sizeof err), 0);
    f = fopen(p, "w");
    fputs("BM\x36\x00", f);
    fclose(f);
    assert_int_equal(tn_screenshot_target_check(p, err, sizeof err), 0);
    snprintf(q, sizeof q, "%s/normal.map", dir);
    f = fopen(q, "w");
    fputs("tilenav-map 1\nsize 3 3\ntiles\n...\n.P.\n###\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/link.bmp", dir);
    assert_int_equal(symlink("normal.map", p), 0);
    assert_int_equal(tn_screenshot_target_check(p, err, sizeof err), -1);
    snprintf(want, sizeof want,
             "%s: not replaced: it is not a BMP image (it does not start with 'BM'), and it is "
             "a symbolic link to %s; a screenshot replaces only an older screenshot: write it "
             "under another name, or remove that file first",
             p, q);
    assert_string_equal(err, want);
    assert_int_equal(tn_screenshot_target_check(q, err, sizeof err), -1);
    assert_non_null(strstr(err, "it is not a BMP image (it does not start with 'BM'); a"));
    snprintf(p, sizeof p, "%s/d.bmp", dir);
    assert_int_equal(mkdir(p, 0700), 0);
    assert_int_equal(tn_screenshot_target_check(p, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: is a directory: not saved", p);
    assert_string_equal(err, want);
    rmdir(p);
    snprintf(p, sizeof p, "%s/link.bmp", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/new.bmp", dir);
    remove(p);
    remove(q);
    rmdir(dir);
}

/* A map read from a pipe (cat x.map | tilenav --map /dev/stdin): the pipe
 * gives its bytes once, so a second load (a reset) reads the copy kept at
 * the first; a save to the pipe is refused as "a pipe", not as a path that
 * cannot be resolved. */
static void test_map_from_pipe(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const char *text = "tilenav-map 1\nsize 3 3\ntiles\n...\n.P.\n###\n";
    assert_int_equal(write(fds[1], text, strlen(text)), (ssize_t)strlen(text));
    close(fds[1]);
    char path[64], err[512], want[600];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    alarm(10);
    tn_map *a = NULL, *b = NULL;
    assert_int_equal(tn_load_map(path, &a, err, sizeof err), 0);
    assert_true(tn_map_read_once(path));
    assert_int_equal(tn_load_map(path, &b, err, sizeof err), 0); /* the pipe is empty now */
    alarm(0);
    assert_true(tn_map_equal(a, b));
    assert_int_equal(b->start_x, 1);
    assert_false(tn_map_read_once("tests/data/small.map"));
    assert_int_equal(tn_save_map(a, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: is not a regular file (a pipe): not saved", path);
    assert_string_equal(err, want);
    tn_map_destroy(a);
    tn_map_destroy(b);
    close(fds[0]);
}

/* The data-folder autosave of map `text` read from a pipe at /dev/fd/40,
 * as a new session (a child process) names it. */
static void piped_autosave(const char *text, char *out, size_t cap)
{
    int res[2];
    assert_int_equal(pipe(res), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fds[2];
        char path[64], got[1024] = "", err[512];
        tn_map *m = NULL;
        if (pipe(fds) == 0 && dup2(fds[0], 40) == 40 &&
            write(fds[1], text, strlen(text)) == (ssize_t)strlen(text)) {
            close(fds[1]);
            snprintf(path, sizeof path, "/dev/fd/%d", 40);
            if (tn_load_map(path, &m, err, sizeof err) != 0 ||
                tn_autosave_path_for(path, false, got, sizeof got, err, sizeof err) != 0)
                snprintf(got, sizeof got, "error: %s", err);
        }
        if (write(res[1], got, strlen(got) + 1) < 0) _exit(1);
        _exit(0);
    }
    close(res[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(res[0], out + n, cap - 1 - n)) > 0) n += (size_t)r;
    out[n] = '\0';
    close(res[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Maps read from pipes all come through one path (/dev/fd/63 for
 * `--map <(genmap ...)`): their autosaves were one file, so a session
 * with another map was offered the last one's edits.  The bytes read name
 * the autosave now: the same map piped again finds it, another does not. */
static void test_piped_maps_autosave_apart(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_pipeauto_XXXXXX", a1[1024], a2[1024], b[1024], want[1100];
    assert_non_null(mkdtemp(dir));
    char *sx = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME")) : NULL;
    setenv("XDG_DATA_HOME", dir, 1);
    const char *ma = "tilenav-map 1\nsize 3 3\ntiles\n...\n.P.\n###\n";
    const char *mb = "tilenav-map 1\nsize 3 3\ntiles\n...\nP..\n###\n";
    piped_autosave(ma, a1, sizeof a1);
    piped_autosave(mb, b, sizeof b);
    piped_autosave(ma, a2, sizeof a2);
    snprintf(want, sizeof want, "%s/tilenav/autosave/40~", dir);
    if (strncmp(a1, want, strlen(want)) != 0) fail_msg("%s", a1);
    if (strncmp(b, want, strlen(want)) != 0) fail_msg("%s", b);
    assert_string_equal(a1, a2);
    if (strcmp(a1, b) == 0) fail_msg("two piped maps share the autosave %s", a1);
    if (sx)
        setenv("XDG_DATA_HOME", sx, 1);
    else
        unsetenv("XDG_DATA_HOME");
    free(sx);
    rmdir(dir);
}

/* A save to a path ending in '/' names no file: said so, nothing made. */
static void test_save_trailing_slash(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_slash_XXXXXX", p[128], err[512], want[600];
    assert_non_null(mkdtemp(dir));
    tn_map *m;
    assert_int_equal(tn_load_map("tests/data/small.map", &m, err, sizeof err), 0);
    snprintf(p, sizeof p, "%s/new.map/", dir);
    assert_int_equal(tn_save_map(m, p, err, sizeof err), -1);
    snprintf(want, sizeof want,
             "%s: the path ends with '/': a file name is needed after it: not saved", p);
    assert_string_equal(err, want);
    snprintf(p, sizeof p, "%s/new.map", dir);
    assert_int_equal(access(p, F_OK), -1);
    tn_map_destroy(m);
    rmdir(dir);
}

static void load_text(const char *text, size_t len, char *path, char *err, size_t cap)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    tn_map *m = NULL;
    assert_int_equal(tn_load_map(path, &m, err, cap), -1);
    assert_null(m);
    remove(path);
}

/* Map text in a form the loader does not read says what it is: UTF-16
 * (either byte order), old Mac CR-only line ends, a Tiled map (XML or
 * JSON) under a name that is not .tmx/.tmj/.json. */
/* A load message never loses its line, column and problem to a long
 * path: the path is shortened to its last components after "...". */
static void test_load_long_path(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_test_longpath_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[300];
    snprintf(sub, sizeof sub, "%s/m", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    char file[320];
    snprintf(file, sizeof file, "%s/short3.map", sub);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("tilenav-map 1\nsize 3 3\ntiles\n...\n.P.\n##\n", f);
    fclose(f);
    /* DIR/./././.../m/short3.map: 100 to 500 "./" before m/ */
    for (int dots = 100; dots <= 500; dots += 400) {
        size_t cap = (size_t)dots * 2 + 400;
        char *p = malloc(cap);
        assert_non_null(p);
        size_t n = (size_t)snprintf(p, cap, "%s/", dir);
        for (int i = 0; i < dots; i++) n += (size_t)snprintf(p + n, cap - n, "./");
        snprintf(p + n, cap - n, "m/short3.map");
        const char *want = ":6:3: row 3 has 2 characters, expected 3";
        size_t caps[] = {256, 1024};
        for (int c = 0; c < 2; c++) {
            char err[1024];
            tn_map *m = NULL;
            assert_int_equal(tn_load_map(p, &m, err, caps[c]), -1);
            assert_null(m);
            size_t el = strlen(err), wl = strlen(want);
            assert_true(el < caps[c]);
            assert_true(el > wl);
            assert_string_equal(err + el - wl, want);
            if (strlen(p) + wl < caps[c]) { /* fits: the path in full */
                assert_memory_equal(err, p, strlen(p));
            } else { /* "...", then whole components: the file's own name among them */
                assert_memory_equal(err, ".../", 4);
                assert_non_null(strstr(err, "/m/short3.map:6:3: "));
            }
        }
        /* a missing file: the reason survives too */
        snprintf(p + n, cap - n, "m/missing.map");
        char err[256];
        tn_map *m = NULL;
        assert_int_equal(tn_load_map(p, &m, err, sizeof err), -1);
        const char *gone = "/m/missing.map: cannot open: No such file or directory";
        assert_true(strlen(err) > strlen(gone));
        assert_string_equal(err + strlen(err) - strlen(gone), gone);
        free(p);
    }
    unlink(file);
    rmdir(sub);
    rmdir(dir);
}

static void test_load_hints(void **state)
{
    (void)state;
    char p[64], err[1024], want[1200];
    snprintf(p, sizeof p, "/tmp/tn_test_hint_XXXXXX");
    load_text("\xff\xfet\0i\0", 6, p, err, sizeof err);
    snprintf(want, sizeof want,
             "%s:1:1: looks like UTF-16 text (it starts with the bytes 0xff 0xfe, a UTF-16 "
             "byte-order mark): save it as UTF-8",
             p);
    assert_string_equal(err, want);
    snprintf(p, sizeof p, "/tmp/tn_test_hint_XXXXXX");
    load_text("\xfe\xff\0t\0i", 6, p, err, sizeof err);
    assert_non_null(
        strstr(err, ":1:1: looks like UTF-16 text (it starts with the bytes 0xfe 0xff"));
    snprintf(p, sizeof p, "/tmp/tn_test_hint_XXXXXX");
    const char *cr = "tilenav-map 1\rsize 3 3\rtiles\r...\r.P.\r###\r";
    load_text(cr, strlen(cr), p, err, sizeof err);
    snprintf(want, sizeof want,
             "%s:1:14: a carriage return (CR) with no line feed after it ends the line: the "
             "file uses old Mac (CR-only) line endings; save it with LF (or CRLF) line endings",
             p);
    assert_string_equal(err, want);
    snprintf(p, sizeof p, "/tmp/tn_test_hint_XXXXXX");
    const char *xml = "<?xml version=\"1.0\"?>\n<map version=\"1.10\">\n</map>\n";
    load_text(xml, strlen(xml), p, err, sizeof err);
    snprintf(want, sizeof want,
             "%s:1:1: missing header line 'tilenav-map 1' (or 'type octile'); it looks like a "
             "Tiled map (XML: a .tmx file): Tiled maps are read by their file name's extension, "
             "so give it as NAME.tmx, NAME.tmj or NAME.json",
             p);
    assert_string_equal(err, want);
    snprintf(p, sizeof p, "/tmp/tn_test_hint_XXXXXX");
    const char *json = "  {\"type\":\"map\"}\n";
    load_text(json, strlen(json), p, err, sizeof err);
    assert_non_null(strstr(err, "; it looks like a Tiled map (JSON: a .tmj or .json file)"));
    /* CRLF and a final lone CR are fine: no hint in an ordinary message */
    int line, col;
    char what[256];
    assert_int_equal(tn_text_check("a\r\nb\r", 5, &line, &col, what, sizeof what), 0);
    assert_int_equal(tn_text_check("a\r\r\nb", 5, &line, &col, what, sizeof what), 0);
    assert_int_equal(tn_text_check("a\nbc\rd", 6, &line, &col, what, sizeof what), 1);
    assert_int_equal(line, 2);
    assert_int_equal(col, 3);
}

/* Where a map's start is written: the 'P' of its row, or its `start` line. */
static void test_start_where(void **state)
{
    (void)state;
    char p[] = "/tmp/tn_test_where_XXXXXX";
    write_temp(p, "# c\ntilenav-map 1\nsize 5 4\ntiles\n.....\n.#...\n.P...\n#####\n");
    int line, col;
    assert_int_equal(tn_map_start_where(p, 1, 2, &line, &col), 0);
    assert_int_equal(line, 7);
    assert_int_equal(col, 2);
    assert_int_equal(tn_map_start_where(p, 2, 2, &line, &col), -1); /* no 'P' there */
    rewrite(p, "tilenav-map 1\nsize 5 4\nstart  1 0\ntiles\n.....\n.#...\n.....\n#####\n");
    assert_int_equal(tn_map_start_where(p, 1, 0, &line, &col), 0);
    assert_int_equal(line, 3);
    assert_int_equal(col, 8);
    remove(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_save_load),
        cmocka_unit_test(test_load_extra_rows),
        cmocka_unit_test(test_autosave_set_aside),
        cmocka_unit_test(test_autosave_offer),
        cmocka_unit_test(test_save_as_keeps_comments),
        cmocka_unit_test(test_save_keeps_every_comment),
        cmocka_unit_test(test_save_refuses_unwritable_map),
        cmocka_unit_test(test_print_shown),
        cmocka_unit_test(test_save_movingai_other_size),
        cmocka_unit_test(test_fifo_refused),
        cmocka_unit_test(test_read_unknown_size),
        cmocka_unit_test(test_read_exactly_the_limit),
        cmocka_unit_test(test_save_changed_on_disk),
        cmocka_unit_test(test_save_unreadable_origin),
        cmocka_unit_test(test_big_tiled_changed_on_disk),
        cmocka_unit_test(test_origin_by_identity),
        cmocka_unit_test(test_origin_link_repointed),
        cmocka_unit_test(test_reset_refused_keeps_record),
        cmocka_unit_test(test_merge_edits),
        cmocka_unit_test(test_autosave_path_fits),
        cmocka_unit_test(test_autosave_long_name),
        cmocka_unit_test(test_autosave_path_for),
        cmocka_unit_test(test_autosave_fallback),
        cmocka_unit_test(test_window_save_advice),
        cmocka_unit_test(test_save_folder_gone),
        cmocka_unit_test(test_save_locked_folder),
        cmocka_unit_test(test_screenshot_target),
        cmocka_unit_test(test_map_from_pipe),
        cmocka_unit_test(test_piped_maps_autosave_apart),
        cmocka_unit_test(test_save_trailing_slash),
        cmocka_unit_test(test_load_hints),
        cmocka_unit_test(test_load_long_path),
        cmocka_unit_test(test_start_where),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
