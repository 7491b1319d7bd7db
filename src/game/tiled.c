/* tiled.c - Tiled maps (.tmx with libxml2, .tmj with cJSON, zlib); see
 * tiled.h for what is read, how the terrain is decided and how saving keeps
 * everything the game does not own. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "tiled.h"

#include <cJSON.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <zlib.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"

enum { ENC_CSV, ENC_B64 };
enum { CMP_NONE, CMP_ZLIB, CMP_GZIP };
enum { K_UNSET = 0, K_BLOCK, K_ONEWAY, K_NONE };
#define MARK_START 4         /* a start object (the map keeps it in start_x/y) */
#define GID_MASK 0x0FFFFFFFu /* Tiled's top four bits are flip flags */
#define MAX_DEPTH 64         /* group layers nested deeper are refused */
#define PATH_CAP 4096
#define TILES_MAX (1ull << 28) /* tiles decoded per file, all layers and chunks */

static const char *const CLASS_NAME[] = {"", "spawn", "dest", "item", "start"};

typedef struct tkind {
    uint32_t gid;
    uint8_t kind; /* K_* from the tile's `kind` property */
    uint8_t mark; /* a tile whose class is spawn/dest/item/start: tile objects inherit it */
} tkind;

/* The gids a tileset holds: first .. first + count - 1 (count 0: unknown,
 * up to the next tileset's first gid). */
typedef struct tsrange {
    uint32_t first;
    long long count;
    /* objectalignment: where a tile object's x,y is on its tile, in halves
     * of its width from the left (0..2) and height from the top (0..2);
     * Tiled's default for orthogonal maps is bottomleft (0, 2) */
    int8_t ax, ay;
    /* an image collection (no image of its own, its tiles with theirs)
     * holds only the tiles it lists: their ids, ascending, are
     * doc.cids[clo .. chi - 1]; clo < 0: not such a collection */
    int clo, chi;
} tsrange;

typedef struct chunk {
    long long x, y; /* Tiled tile coordinates of the top-left cell */
    int w, h;
    void *node; /* TMX <data> or <chunk>; TMJ the object holding "data" */
} chunk;

typedef struct layer {
    void *node; /* TMX <layer>; TMJ layer object */
    void *data; /* TMX <data>; TMJ the layer object */
    char name[128];
    char path[96]; /* TMJ: the layer's JSON path, "$.layers[2]" (messages) */
    bool oneway;
    double offx, offy; /* offsetx/offsety, its groups' added (px) */
    /* Offsets in whole tiles: its cells are drawn sx,sy tiles further (0,0
     * and frac for any other offset, which only decoration may have).  Its
     * cell grid (grid, covered, and the load's overlap stamps) starts at
     * its Tiled cell gx0,gy0: finite maps 0,0 (cells drawn off the map
     * stay in it), infinite maps where map cell 0,0 is drawn. */
    long long sx, sy, gx0, gy0;
    bool frac;
    int enc, comp;
    chunk *chunks;
    int nchunks, capchunks;
    uint32_t *grid;   /* save: the map's cells, 0 outside the chunks */
    uint8_t *covered; /* save, infinite maps: cell lies in one of the chunks (bit 0),
                       * and the save changed it (bit 1: its chunk is re-encoded) */
    bool dirty, grew;
} layer;

typedef struct object {
    void *node, *group;
    long long id;
    int mark;
    bool has_gid, point, used_class, poly;
    double x, y, w, h;
    double px0, py0, px1, py1; /* polygon/polyline: its points' bounds */
    double gx, gy;             /* its layer's offset, its groups' added (px) */
    uint32_t gid;
    int tx, ty;
    char path[192]; /* TMJ: the object's JSON path (messages) */
} object;

typedef struct doc {
    int fmt;
    const char *name; /* messages */
    /* Where a message points (fail): TMX the element `at` (its line;
     * at_line instead when > 0, a CSV tile number's own line), TMJ the JSON
     * path at_path (cJSON keeps no positions; "" = the document). */
    xmlNodePtr at;
    long at_line;
    char at_path[192];
    char dir[PATH_CAP]; /* where relative paths start ("" = cwd) */
    char *err;
    size_t cap;
    xmlDocPtr xdoc;
    xmlNodePtr xmap;
    cJSON *json;
    long long w, h, tw, th;
    bool infinite;
    /* The map's compressionlevel as zlib takes it for the data a save
     * encodes anew: Z_DEFAULT_COMPRESSION (Tiled's -1, and a value that
     * is not a whole number) or 1..9 (Tiled bounds a zlib or gzip level
     * so; zstd's go up to 22). */
    int zlevel;
    long long ox, oy; /* Tiled coordinates of map cell 0,0 */
    tkind *kinds;
    size_t nkinds, capkinds;
    long long *tids; /* the tile ids the tileset being read lists (tile_ids_once) */
    int ntids, captids;
    long long *cids; /* the tile ids the image collections list (tsrange.clo) */
    int ncids, capcids;
    int ntilesets;
    tsrange *ranges; /* one per tileset, sorted by first after the scan */
    int nranges, capranges;
    int rlast; /* the range the last cell was in (cells repeat tilesets) */
    uint32_t block_gid, oneway_gid, plain_gid;
    layer *layers;
    int nlayers, caplayers;
    void *first_ogroup;
    double fog_x, fog_y; /* first_ogroup's offset, its groups' added */
    double offx, offy;   /* the offset of the group being scanned */
    object *objs;
    int nobjs, capobjs;
    long long max_object_id;
    /* Load-only fast path for JSON tile arrays (see blank_arrays). */
    const char *src;
    size_t *span_at, *span_len;
    int nspans, capspans;
    uint16_t *stamp; /* load, infinite maps: 1 + the last layer that wrote each cell */
    /* template files read so far (struct tpl), each once per load */
    struct tpl *tpls;
    int ntpls, captpls;
    /* the map's external tilesets: where they are (realpath), first gid */
    struct tsref {
        char *real;
        uint32_t first;
        /* what reading the file gave (done): a later reference to the same
         * file is made from it, not read and parsed again (a 16 MB .tsx
         * named 40 times took 2.4 s and its DOM each time) */
        bool done, collection, tile_images;
        long long tilecount, maxid, plain_id;
        size_t klo, khi; /* its kinds: doc.kinds[klo .. khi - 1], gids from first */
        tsrange range;   /* ax, ay; clo, chi: its listed ids, shared */
    } * tsrefs;
    int ntsrefs, captsrefs;
    struct tsref *rec; /* the reference whose file is being read: tileset_done fills it */
} doc;

static bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* ------------------------------------------------------------ helpers */

static int fail(doc *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(doc *d, const char *fmt, ...)
{
    long line = d->at_line > 0 ? d->at_line : d->at ? xmlGetLineNo(d->at) : 0;
    int n;
    if (d->fmt == TN_TILED_TMX && line > 0)
        n = snprintf(d->err, d->cap, "%s:%ld: ", d->name, line);
    else if (d->fmt == TN_TILED_TMJ && d->at_path[0])
        n = snprintf(d->err, d->cap, "%s: %s: ", d->name, d->at_path);
    else
        n = snprintf(d->err, d->cap, "%s: ", d->name);
    if (n < 0 || (size_t)n >= d->cap) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err + n, d->cap - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static bool grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return true;
    int nc = *cap ? *cap * 2 : 8;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q) return false;
    memset((char *)q + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *p = q;
    *cap = nc;
    return true;
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    if (a < b) return false;
    for (size_t i = 0; i < b; i++) {
        char c = s[a - b + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suf[i]) return false;
    }
    return true;
}

int tn_tiled_kind(const char *path)
{
    if (ends_with(path, ".tmx")) return TN_TILED_TMX;
    if (ends_with(path, ".tmj") || ends_with(path, ".json")) return TN_TILED_TMJ;
    return 0;
}

/* Strict decimal integer (optional sign), whole string. */
static bool parse_ll(const char *s, long long *out)
{
    if (!s || !*s) return false;
    const char *p = s;
    bool neg = false;
    if (*p == '-' || *p == '+') neg = *p++ == '-';
    if (*p < '0' || *p > '9') return false;
    long long v = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (LLONG_MAX - 9) / 10) return false;
        v = v * 10 + (*p - '0');
    }
    if (*p) return false;
    *out = neg ? -v : v;
    return true;
}

static bool parse_num(const char *s, double *out)
{
    if (!s || !*s) return false;
    char *end;
    double v = strtod(s, &end);
    if (*end || !isfinite(v)) return false;
    *out = v;
    return true;
}

static int class_mark(const char *s)
{
    if (!s) return 0;
    for (int i = 1; i <= 4; i++)
        if (strcmp(s, CLASS_NAME[i]) == 0) return i;
    return 0;
}

static void dir_of(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        out[0] = '\0';
        return;
    }
    size_t n = (size_t)(slash - path) + 1;
    if (n >= cap) n = cap - 1;
    memcpy(out, path, n);
    out[n] = '\0';
}

/* The directory relative paths in the file `path` start from: its own, or,
 * when `path` is a symbolic link, the directory of the file it points to
 * (where the file and its tilesets really are, and where a save writes). */
static void file_dir(const char *path, char *out, size_t cap)
{
    struct stat st;
    char *real = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(path, NULL) : NULL;
    dir_of(real ? real : path, out, cap);
    free(real);
}

/* ------------------------------------------------------------ kinds */

static int add_kind(doc *d, uint32_t gid, int kind, int mark)
{
    if (d->nkinds == d->capkinds) {
        size_t nc = d->capkinds ? d->capkinds * 2 : 16;
        tkind *k = realloc(d->kinds, nc * sizeof *k);
        if (!k) return fail(d, "out of memory");
        d->kinds = k;
        d->capkinds = nc;
    }
    d->kinds[d->nkinds++] = (tkind){gid, (uint8_t)kind, (uint8_t)mark};
    return 0;
}

static int cmp_kind(const void *a, const void *b)
{
    uint32_t x = ((const tkind *)a)->gid, y = ((const tkind *)b)->gid;
    return (x > y) - (x < y);
}

static const tkind *find_kind(const doc *d, uint32_t gid)
{
    size_t lo = 0, hi = d->nkinds;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->kinds[mid].gid < gid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->nkinds && d->kinds[lo].gid == gid ? &d->kinds[lo] : NULL;
}

static int gid_kind(const doc *d, uint32_t gid)
{
    const tkind *k = find_kind(d, gid & GID_MASK);
    return k ? k->kind : K_UNSET;
}

static int parse_kind(doc *d, const char *ts, long long id, const char *v)
{
    if (strcmp(v, "block") == 0) return K_BLOCK;
    if (strcmp(v, "oneway") == 0) return K_ONEWAY;
    if (strcmp(v, "none") == 0) return K_NONE;
    fail(d, "%s: tile %lld has kind '%.40s' (expected block, oneway or none)", ts, id, v);
    return -1;
}

static int cmp_range(const void *a, const void *b)
{
    uint32_t x = ((const tsrange *)a)->first, y = ((const tsrange *)b)->first;
    return (x > y) - (x < y);
}

/* Whether gid g (flip flags cleared, not 0) is a tile of a tileset: as in
 * Tiled, the tileset with the largest first gid <= g holds it, and only
 * its own tiles are valid. */
static bool gid_known(doc *d, uint32_t g)
{
    if (d->nranges == 0) return false;
    const tsrange *r = &d->ranges[d->rlast];
    bool last = d->rlast == d->nranges - 1;
    if (!(r->first <= g && (last || g < d->ranges[d->rlast + 1].first))) {
        int lo = 0, hi = d->nranges; /* the first range with first > g */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (d->ranges[mid].first <= g)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0) return false;
        d->rlast = lo - 1;
        r = &d->ranges[d->rlast];
    }
    return r->count == 0 || (long long)(g - r->first) < r->count;
}

/* After gid_known(d, g): the tile id of g when its tileset is an image
 * collection that does not list it (Tiled has no such tile: it draws
 * nothing there), else -1. */
static long long collection_lacks(const doc *d, uint32_t g)
{
    const tsrange *r = &d->ranges[d->rlast];
    if (r->clo < 0) return -1;
    long long id = (long long)(g - r->first);
    int lo = r->clo, hi = r->chi;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (d->cids[mid] == id) return -1;
        if (d->cids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return id;
}

/* The tilesets' gids for a message: "1..6, 101..164" (at most 4 listed). */
static void ranges_text(const doc *d, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < d->nranges && n < cap; i++) {
        const tsrange *r = &d->ranges[i];
        if (i == 4) {
            snprintf(out + n, cap - n, ", ...");
            break;
        }
        int k = r->count ? snprintf(out + n, cap - n, "%s%u..%lld", i ? ", " : "",
                                    (unsigned)r->first, (long long)r->first + r->count - 1)
                         : snprintf(out + n, cap - n, "%s%u..", i ? ", " : "", (unsigned)r->first);
        if (k < 0) break;
        n += (size_t)k;
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Note tile id `id` of the tileset being read (ids: reset per tileset). */
static int tile_id_seen(doc *d, long long id)
{
    if (!grow((void **)&d->tids, &d->captids, d->ntids + 1, sizeof *d->tids))
        return fail(d, "out of memory");
    d->tids[d->ntids++] = id;
    return 0;
}

/* Each tile id once: Tiled lists a tile once, and a second entry would
 * give one gid two meanings (a fuzzer's tileset listed tile 0 without a
 * kind, then as oneway: a save wrote a block as that tile, which then read
 * back as a one-way platform, and the save was refused for it). */
static int tile_ids_once(doc *d, const char *what)
{
    if (d->ntids > 1) qsort(d->tids, (size_t)d->ntids, sizeof *d->tids, cmp_ll);
    for (int i = 1; i < d->ntids; i++)
        if (d->tids[i] == d->tids[i - 1])
            return fail(d, "%s: tile %lld is listed twice (Tiled lists each tile once)", what,
                        d->tids[i]);
    return 0;
}

/* Called once per tileset after its tiles: the smallest id without a kind
 * is the "plain" tile (a block outside the oneway layer). */
/* Tiled's objectalignment (NULL, "" or "unspecified": bottomleft, the
 * default for orthogonal maps) in halves; -1 for an unknown value. */
static int alignment(const char *v, int8_t *ax, int8_t *ay)
{
    static const char *const NAME[] = {"topleft", "top",        "topright", "left",       "center",
                                       "right",   "bottomleft", "bottom",   "bottomright"};
    *ax = 0;
    *ay = 2;
    if (!v || !*v || strcmp(v, "unspecified") == 0) return 0;
    for (int i = 0; i < 9; i++)
        if (strcmp(v, NAME[i]) == 0) {
            *ax = (int8_t)(i % 3);
            *ay = (int8_t)(i / 3);
            return 0;
        }
    return -1;
}

static int tileset_done(doc *d, uint32_t firstgid, long long tilecount, long long maxid,
                        size_t first_kind, bool collection, bool tile_images, long long plain_id,
                        const char *align, const tsrange *shared)
{
    d->ntilesets++;
    /* its gids: tilecount of them (an image collection's ids may go past
     * it: then up to its largest id); without a tilecount, unknown */
    if (!grow((void **)&d->ranges, &d->capranges, d->nranges + 1, sizeof(tsrange)))
        return fail(d, "out of memory");
    tsrange r = {firstgid, tilecount > 0 ? (tilecount > maxid + 1 ? tilecount : maxid + 1) : 0,
                 0,        2,
                 -1,       -1};
    if (shared) { /* the same file read for an earlier reference: its ids */
        r.clo = shared->clo;
        r.chi = shared->chi;
    } else if (collection && tile_images) { /* its listed ids (tile_ids_once sorted them) */
        if (!grow((void **)&d->cids, &d->capcids, d->ncids + d->ntids, sizeof *d->cids))
            return fail(d, "out of memory");
        r.clo = d->ncids;
        for (int i = 0; i < d->ntids; i++) d->cids[d->ncids++] = d->tids[i];
        r.chi = d->ncids;
    }
    if (shared) {
        r.ax = shared->ax;
        r.ay = shared->ay;
    } else if (alignment(align, &r.ax, &r.ay))
        return fail(d, "tileset: objectalignment '%.30s' is not one of Tiled's", align);
    d->ranges[d->nranges++] = r;
    if (d->rec) {
        struct tsref *c = d->rec;
        *c = (struct tsref){c->real,     c->first,  true,  collection,
                            tile_images, tilecount, maxid, plain_id,
                            first_kind,  d->nkinds, r};
        d->rec = NULL;
    }
    if (d->plain_gid) return 0;
    if (collection) {
        /* An image collection holds only the tiles it lists: the plain
         * tile is the first listed one without kind or class, if any. */
        if (plain_id >= 0) d->plain_gid = firstgid + (uint32_t)plain_id;
        return 0;
    }
    size_t n = 0;
    uint32_t *g = malloc((d->nkinds - first_kind + 1) * sizeof *g);
    if (!g) return fail(d, "out of memory");
    for (size_t i = first_kind; i < d->nkinds; i++)
        if (d->kinds[i].kind != K_UNSET) g[n++] = d->kinds[i].gid;
    if (n) qsort(g, n, sizeof *g, cmp_u32);
    uint32_t want = firstgid;
    for (size_t i = 0; i < n && g[i] <= want; i++)
        if (g[i] == want) want++;
    free(g);
    if (tilecount <= 0 || (long long)(want - firstgid) < tilecount) d->plain_gid = want;
    return 0;
}

/* Sort the kinds; the first block and one-way tiles are what saves write. */
static int kinds_done(doc *d)
{
    if (d->nranges) qsort(d->ranges, (size_t)d->nranges, sizeof *d->ranges, cmp_range);
    if (d->nkinds) qsort(d->kinds, d->nkinds, sizeof *d->kinds, cmp_kind);
    for (size_t i = 1; i < d->nkinds; i++)
        if (d->kinds[i].gid == d->kinds[i - 1].gid)
            return fail(d,
                        "tile %u is described twice (two tilesets overlap, or a tile id repeats)",
                        (unsigned)d->kinds[i].gid);
    for (size_t i = 0; i < d->nkinds; i++) {
        if (d->kinds[i].kind == K_BLOCK && !d->block_gid) d->block_gid = d->kinds[i].gid;
        if (d->kinds[i].kind == K_ONEWAY && !d->oneway_gid) d->oneway_gid = d->kinds[i].gid;
    }
    return 0;
}

/* ------------------------------------------------------------ XML access */

static char *xattr(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static bool xis(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* Integer attribute in lo..hi; `def` when absent (required: error). */
static int xint(doc *d, xmlNodePtr n, const char *name, long long lo, long long hi, bool required,
                long long def, const char *what, long long *out)
{
    char *s = xattr(n, name);
    if (!s) {
        if (required) return fail(d, "%s has no %s", what, name);
        *out = def;
        return 0;
    }
    long long v;
    bool ok = parse_ll(s, &v);
    if (!ok || v < lo || v > hi) {
        fail(d, "%s: %s '%.30s' is not a whole number in %lld..%lld", what, name, s, lo, hi);
        xmlFree(s);
        return -1;
    }
    xmlFree(s);
    *out = v;
    return 0;
}

static int xnum(doc *d, xmlNodePtr n, const char *name, const char *what, double *out)
{
    char *s = xattr(n, name);
    *out = 0;
    if (!s) return 0;
    bool ok = parse_num(s, out);
    if (!ok) fail(d, "%s: %s '%.30s' is not a number", what, name, s);
    xmlFree(s);
    return ok ? 0 : -1;
}

/* The first error of a parse: libxml2 goes on after a fatal error and
 * keeps only the last one (a '>' missing at line 4 was reported as "Extra
 * content at the end of the document" on the file's last line).  Kept in
 * the parser context's _private by the structured handler below, which is
 * the context's own (no global handler: loads on two threads, or an
 * application's handler, are left alone). */
typedef struct xfirst {
    xmlParserCtxtPtr main; /* the file's context (an entity's text gets its own) */
    const char *buf;       /* the file's bytes */
    size_t len;
    int line;
    bool set;
    char msg[200];
} xfirst;

/* The line breaks in buf's first `at` bytes, counted in the file's code
 * units: in UTF-16 or UCS-4 (a BOM or '<' says which) a byte 0x0A is a
 * break only as a whole unit (U+010A holds one: a file of them was named
 * lines past its bad byte). */
static int xml_lines_before(const char *buf, size_t len, size_t at)
{
    const unsigned char *b = (const unsigned char *)buf;
    static const struct {
        unsigned char sig[4];
        int n, w, nl; /* signature bytes; unit width; where 0x0A is in a unit */
    } units[] = {{{0, 0, 0xFE, 0xFF}, 4, 4, 3}, {{0xFF, 0xFE, 0, 0}, 4, 4, 0},
                 {{0, 0, 0, '<'}, 4, 4, 3},     {{'<', 0, 0, 0}, 4, 4, 0},
                 {{0xFE, 0xFF}, 2, 2, 1},       {{0xFF, 0xFE}, 2, 2, 0},
                 {{0, '<'}, 2, 2, 1},           {{'<', 0}, 2, 2, 0}};
    int w = 1, nl = 0;
    for (size_t u = 0; u < sizeof units / sizeof *units && w == 1; u++)
        if (len >= (size_t)units[u].n && memcmp(b, units[u].sig, (size_t)units[u].n) == 0) {
            w = units[u].w;
            nl = units[u].nl;
        }
    int lines = 0;
    for (size_t i = 0; i + (size_t)w <= at; i += (size_t)w) {
        bool brk = b[i + (size_t)nl] == '\n';
        for (int k = 0; k < w && brk; k++) brk = k == nl || b[i + (size_t)k] == 0;
        lines += brk;
    }
    return lines;
}

#if LIBXML_VERSION >= 21200
static void xml_first_error(void *ctx, const xmlError *e)
#else
static void xml_first_error(void *ctx, xmlErrorPtr e)
#endif
{
    xmlParserCtxtPtr c = ctx;
    xfirst *f = c ? c->_private : NULL;
    if (!f || f->set || !e || !e->message) return;
    /* Only an error that makes the document not well-formed is why the
     * parse failed: not a warning (libxml2 reports those here too, e.g.
     * version="1.1"), nor a namespace error (an undeclared prefix: level
     * error, but the document loads with it) or a DTD validity one.  A
     * parser-domain error of level error (libxml2 before 2.13) stops the
     * document too, and so does a byte the declared encoding cannot
     * convert (libxml2 before 2.13 reports it with no context: I18N). */
    const bool conv = (e->domain == XML_FROM_I18N || e->domain == XML_FROM_IO) && !e->line &&
                      e->level >= XML_ERR_ERROR;
    if (e->level != XML_ERR_FATAL && !(e->level == XML_ERR_ERROR && e->domain == XML_FROM_PARSER) &&
        !conv)
        return;
    f->set = true;
    /* inside an entity's text, e->line is the entity's: name the file's
     * line, where the parse of the file is (the entity's reference) */
    xmlParserCtxtPtr m = f->main;
    f->line = c != m || m->inputNr > 1
                  ? (m->inputNr > 0 && m->inputTab[0] ? m->inputTab[0]->line : 0)
                  : e->line;
    if (f->line <= 0) f->line = e->line;
    if (conv && m->input && m->input->buf && m->input->buf->raw) {
        /* no context's: the bytes not converted yet start at the bad one */
        size_t left = xmlBufUse(m->input->buf->raw), at = left < f->len ? f->len - left : 0;
        f->line = 1 + xml_lines_before(f->buf, f->len, at);
    }
    snprintf(f->msg, sizeof f->msg, "%s", e->message);
}

static int xml_error(doc *d, xmlParserCtxtPtr ctx, const char *what)
{
    const xmlError *e = ctx ? xmlCtxtGetLastError(ctx) : NULL;
    const xfirst *f = ctx ? ctx->_private : NULL;
    if ((f && f->set) || (e && e->message)) {
        char msg[200];
        int line = f && f->set ? f->line : e->line;
        snprintf(msg, sizeof msg, "%s", f && f->set ? f->msg : e->message);
        size_t n = strlen(msg);
        while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = '\0';
        if (what) return fail(d, "%s:%d: XML error: %s", what, line, msg);
        int k = snprintf(d->err, d->cap, "%s:%d: XML error: %s", d->name, line, msg);
        (void)k;
        return -1;
    }
    return what ? fail(d, "%s: not an XML document", what) : fail(d, "not an XML document");
}

static int no_nul(doc *d, const char *buf, size_t len, const char *what, bool xml);

/* buf with each lone CR as a LF (malloc'd), when it is an ASCII-compatible
 * document (UTF-8, a BOM or '<' or a blank first) holding one; else NULL.
 * XML reads a lone CR as a LF anyway (its line-end handling), but libxml2
 * counts lines at LFs only: every message about a CR-only (old Mac) file
 * said line 1.  Same length, so byte offsets stay.  Never UTF-16 or -32
 * (a NUL in the first character; little-endian without a BOM also starts
 * with '<'): a byte 0x0D there is half a character (U+010D, c with caron,
 * is 0x0D 0x01), and came back as U+010A. */
static char *lone_cr_as_lf(const char *buf, size_t len)
{
    const unsigned char *u = (const unsigned char *)buf;
    size_t lead = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (lead >= len || !(u[lead] == '<' || is_space(buf[lead]))) return NULL;
    if (memchr(buf + lead, '\0', len - lead < 4 ? len - lead : 4)) return NULL;
    const char *cr = memchr(buf, '\r', len);
    while (cr && (size_t)(cr - buf) + 1 < len && cr[1] == '\n')
        cr = memchr(cr + 2, '\r', len - (size_t)(cr + 2 - buf));
    if (!cr) return NULL;
    char *out = malloc(len + 1);
    if (!out) return NULL;
    memcpy(out, buf, len);
    out[len] = '\0';
    for (size_t i = (size_t)(cr - buf); i < len; i++)
        if (out[i] == '\r' && (i + 1 == len || out[i + 1] != '\n')) out[i] = '\n';
    return out;
}

static xmlDocPtr xml_parse(doc *d, const char *buf, size_t len, const char *what)
{
    if (len > INT_MAX) {
        fail(d, "too large");
        return NULL;
    }
    if (no_nul(d, buf, len, what, true)) return NULL;
    char *lf = lone_cr_as_lf(buf, len);
    if (lf) buf = lf;
    xmlParserCtxtPtr ctx = xmlNewParserCtxt();
    if (!ctx) {
        free(lf);
        fail(d, "out of memory");
        return NULL;
    }
    xfirst first = {ctx, buf, len, 0, false, ""};
    ctx->_private = &first;
    /* No network, no entity substitution, no DTD loading, quiet: the
     * handler takes every report, so nothing is printed.  Not with
     * XML_PARSE_NOERROR/NOWARNING then: from libxml2 2.13 on they keep
     * reports from any handler, this one too (the last error again). */
    int opts = XML_PARSE_NONET | XML_PARSE_BIG_LINES;
#if LIBXML_VERSION >= 21300
    xmlCtxtSetErrorHandler(ctx, xml_first_error, ctx);
#else
    if (ctx->sax) /* the context's own copy; its data: ctx->userData, the context */
        ctx->sax->serror = xml_first_error;
    else
        opts |= XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    /* An encoding conversion error has no context before 2.13: it goes to
     * the thread's structured handler, else is printed.  This thread's
     * handler is ours for the parse, then the one it was (libxml2's
     * handlers are per thread: another thread's loads are left alone). */
    xmlStructuredErrorFunc app_serror = xmlStructuredError;
    void *app_sdata = xmlStructuredErrorContext;
    xmlSetStructuredErrorFunc(ctx, xml_first_error);
#endif
    xmlDocPtr x = xmlCtxtReadMemory(ctx, buf, (int)len, NULL, NULL, opts);
#if LIBXML_VERSION < 21300
    xmlSetStructuredErrorFunc(app_sdata, app_serror);
#endif
    if (!x) xml_error(d, ctx, what);
    xmlFreeParserCtxt(ctx);
    free(lf);
    return x;
}

/* ------------------------------------------------------------ JSON access */

static cJSON *jget(const cJSON *o, const char *k)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static const char *jstr(const cJSON *o, const char *k)
{
    cJSON *v = jget(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int jint(doc *d, const cJSON *o, const char *k, long long lo, long long hi, bool required,
                long long def, const char *what, long long *out)
{
    cJSON *v = jget(o, k);
    if (!v) {
        if (required) return fail(d, "%s has no \"%s\"", what, k);
        *out = def;
        return 0;
    }
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(x >= (double)lo && x <= (double)hi) || x != floor(x))
        return fail(d, "%s: \"%s\" is not a whole number in %lld..%lld", what, k, lo, hi);
    *out = (long long)x;
    return 0;
}

static int jnum(doc *d, const cJSON *o, const char *k, const char *what, double *out)
{
    cJSON *v = jget(o, k);
    *out = 0;
    if (!v) return 0;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return fail(d, "%s: \"%s\" is not a number", what, k);
    *out = v->valuedouble;
    return 0;
}

/* The line and column (1-based, in bytes) of buf[pos] (buf: len bytes); a
 * line ends at a LF, or at a CR not before one (an old Mac file's: every
 * message about one said line 1). */
static void line_col(const char *buf, size_t len, size_t pos, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < pos; i++) {
        if (buf[i] == '\n' || (buf[i] == '\r' && (i + 1 >= len || buf[i + 1] != '\n'))) {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* "FILE:LINE:COL: problem" (a tileset's or template's: "... what: LINE:COL:
 * problem", at the map's element or path). */
static int text_error(doc *d, const char *buf, size_t len, size_t pos, const char *what,
                      const char *problem)
{
    int line, col;
    line_col(buf, len, pos, &line, &col);
    if (what) return fail(d, "%s:%d:%d: %s", what, line, col, problem);
    snprintf(d->err, d->cap, "%s:%d:%d: %s", d->name, line, col, problem);
    return -1;
}

/* A NUL byte is binary data, refused with where it is (as .map files and
 * scripts refuse it): cJSON would end a string there and libxml2 the
 * document, silently dropping what follows.  An XML file in UTF-16 or
 * UTF-32 (a byte-order mark, or a NUL in its first two bytes: "<\0" or
 * "\0<") has NUL bytes in every ASCII character; libxml2 decodes it and
 * refuses a NUL character itself. */
static int no_nul(doc *d, const char *buf, size_t len, const char *what, bool xml)
{
    const unsigned char *u = (const unsigned char *)buf;
    if (xml && len >= 2 &&
        (u[0] == 0 || u[1] == 0 || (u[0] == 0xFF && u[1] == 0xFE) ||
         (u[0] == 0xFE && u[1] == 0xFF)))
        return 0;
    const char *z = memchr(buf, '\0', len);
    if (!z) return 0;
    return text_error(d, buf, len, (size_t)(z - buf), what, "binary data (a NUL byte)");
}

static int json_error(doc *d, const char *buf, size_t len, const char *end, const char *what)
{
    size_t pos = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0;
    return text_error(d, buf, len, pos, what, "not valid JSON");
}

/* A number's source text, kept for a save (json_keep_numbers). */
typedef struct numtext {
    size_t nth; /* its place among the document's numbers (0 = the first) */
    size_t at, len;
} numtext;

/* Checks cJSON leaves out, on a document it parsed: a raw control
 * character in a string (JSON forbids it; Tiled writes it escaped) is
 * refused with its line and column.  With `keep`, the source text of
 * every number cJSON would not print back as it was (a fraction, an
 * exponent, more than 15 digits, -0) is listed in *nums (its order among
 * the numbers, as cJSON's pre-order of number nodes). */
static int json_lex(doc *d, const char *buf, size_t len, const char *what, bool keep,
                    numtext **nums, int *nnums)
{
    int cap = 0;
    size_t nth = 0;
    for (size_t i = 0; i < len;) {
        char c = buf[i];
        if (c == '"') {
            for (i++; i < len && buf[i] != '"'; i++) {
                if ((unsigned char)buf[i] < 0x20) {
                    char why[160];
                    snprintf(why, sizeof why,
                             "not valid JSON (a raw control character, byte 0x%02x, in a string; "
                             "JSON writes it as an escape such as \\t or \\n)",
                             (unsigned)(unsigned char)buf[i]);
                    return text_error(d, buf, len, i, what, why);
                }
                if (buf[i] == '\\') i++;
            }
            i++;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t j = i, digits = 0;
            bool plain = true; /* -?[0-9]+: printed back as it is (up to 15 digits) */
            for (; j < len && strchr("0123456789+-.eE", buf[j]) && buf[j]; j++) {
                if (buf[j] >= '0' && buf[j] <= '9')
                    digits++;
                else if (j > i || buf[j] != '-')
                    plain = false;
            }
            bool negzero = j - i == 2 && buf[i] == '-' && buf[i + 1] == '0';
            if (keep && (!plain || digits > 15 || negzero)) {
                if (!grow((void **)nums, &cap, *nnums + 1, sizeof **nums))
                    return fail(d, "out of memory");
                (*nums)[(*nnums)++] = (numtext){nth, i, j - i};
            }
            nth++;
            i = j;
        } else {
            i++;
        }
    }
    return 0;
}

/* Number node `n` (the nth of the document) gets its source text in
 * valuestring when nums lists it (cJSON_Delete frees it; printing a
 * number ignores it, json_restore_numbers uses it). */
static void json_keep_numbers(cJSON *n, const char *buf, const numtext *nums, int nnums,
                              size_t *nth, int *k)
{
    for (; n; n = n->next) {
        if (cJSON_IsNumber(n)) {
            if (*k < nnums && nums[*k].nth == *nth) {
                const numtext *t = &nums[(*k)++];
                char *v = n->valuestring ? NULL : cJSON_malloc(t->len + 1);
                if (v) {
                    memcpy(v, buf + t->at, t->len);
                    v[t->len] = '\0';
                    n->valuestring = v;
                }
            }
            (*nth)++;
        }
        if (n->child) json_keep_numbers(n->child, buf, nums, nnums, nth, k);
    }
}

/* Before printing: every number still holding the value of its source
 * text (exactly, the sign of zero too) prints that text (a cJSON_Raw
 * node), not cJSON's 15-17 digits (which may round 40.300000000000004 to
 * 40.3, 1.7976931348623157e+308 past the largest double, or print 1e400
 * as null).  Numbers the save made print as cJSON prints them. */
static void json_restore_numbers(cJSON *n)
{
    for (; n; n = n->next) {
        if (cJSON_IsNumber(n) && n->valuestring) {
            char *e;
            double v = strtod(n->valuestring, &e);
            if (*e == '\0' && v == n->valuedouble && !signbit(v) == !signbit(n->valuedouble))
                n->type = cJSON_Raw | (n->type & ~0xFF);
        }
        if (n->child) json_restore_numbers(n->child);
    }
}

/* Where a JSON path may be cut: before a ".key", or before a "[" that
 * follows another (never between a key and its index). */
static bool path_boundary(const char *p, size_t i)
{
    return i > 0 && (p[i] == '.' || (p[i] == '[' && p[i - 1] == ']'));
}

/* A JSON path element appended to base (out may be base): when the whole
 * would not fit in cap bytes, it is cut between path elements, never
 * inside one: its head (up to an earlier cut, or its first elements), "...",
 * and as many of its last elements as fit. */
static void jpath(char *out, size_t cap, const char *base, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void jpath(char *out, size_t cap, const char *base, const char *fmt, ...)
{
    char full[1024];
    size_t n = (size_t)snprintf(full, sizeof full, "%.600s", base);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(full + n, sizeof full - n, fmt, ap);
    va_end(ap);
    n = strlen(full);
    if (n < cap) {
        memcpy(out, full, n + 1);
        return;
    }
    const char *cut = strstr(full, "...");
    size_t head = 1; /* "$" */
    if (cut) {
        head = (size_t)(cut - full);
    } else {
        for (size_t i = 1; i < cap / 3; i++)
            if (path_boundary(full, i)) head = i;
    }
    size_t rest = cut ? head + 3 : head, room = cap - 1 - head - 3, t = n;
    for (size_t i = rest; i < n; i++) /* the first element boundary whose tail fits */
        if (path_boundary(full, i) && n - i - (full[i] == '.') <= room) {
            t = i + (full[i] == '.');
            break;
        }
    snprintf(out, cap, "%.*s...%s", (int)head, full, full + t);
}

/* Key k as messages show it: control characters and '"' as '?', cut
 * after 40 bytes ("..."). */
static void key_shown(char *out, const char *k)
{
    size_t i = 0;
    for (; k[i] && i < 40; i++)
        out[i] = ((unsigned char)k[i] < 32 || k[i] == '"' || k[i] == 127) ? '?' : k[i];
    snprintf(out + i, 4, "%s", k[i] ? "..." : "");
}

/* A path element naming key k: .k, or ["k"] for a key that is not a
 * plain name. */
static void jpath_key(char *out, size_t cap, const char *base, const char *k)
{
    bool plain = *k != '\0';
    for (const char *p = k; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            plain = false;
    char shown[48];
    key_shown(shown, k);
    if (plain)
        jpath(out, cap, base, ".%s", shown);
    else
        jpath(out, cap, base, "[\"%s\"]", shown);
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* A key given twice in one object is refused (cJSON would use the first,
 * Tiled and other readers the last): the object's path and the key. */
static int json_dups(doc *d, const cJSON *o, const char *path, const char *what)
{
    char sub[sizeof d->at_path];
    if (cJSON_IsObject(o) && o->child && o->child->next) {
        int n = 0, cap = 0;
        const cJSON **keys = NULL, *c;
        for (c = o->child; c; c = c->next) {
            if (!grow((void **)&keys, &cap, n + 1, sizeof *keys)) {
                free(keys);
                return fail(d, "out of memory");
            }
            keys[n++] = c;
        }
        qsort(keys, (size_t)n, sizeof *keys, cmp_key);
        const char *dup = NULL;
        for (int i = 1; i < n && !dup; i++)
            if (strcmp(keys[i - 1]->string, keys[i]->string) == 0) dup = keys[i]->string;
        int rc = 0;
        if (dup) {
            char k[48];
            key_shown(k, dup);
            if (what)
                rc = fail(d,
                          "%s: %s: the key \"%s\" is given twice in one object (JSON keys "
                          "must differ)",
                          what, path, k);
            else if ((snprintf(d->at_path, sizeof d->at_path, "%s", path), true))
                rc = fail(d, "the key \"%s\" is given twice in one object (JSON keys must differ)",
                          k);
        }
        free(keys);
        if (rc) return -1;
    }
    int i = 0;
    for (const cJSON *c = o->child; c; c = c->next, i++) {
        if (!cJSON_IsObject(c) && !cJSON_IsArray(c)) continue;
        if (cJSON_IsObject(o))
            jpath_key(sub, sizeof sub, path, c->string ? c->string : "");
        else
            jpath(sub, sizeof sub, path, "[%d]", i);
        if (json_dups(d, c, sub, what)) return -1;
    }
    return 0;
}

/* Parse a JSON document (`what`: a tileset or template, else the map).
 * Refused beyond what cJSON refuses: a NUL byte, anything but white space
 * after the document, a raw control character in a string, a key twice
 * in one object.  keep_numbers: each number keeps its source text for a
 * save (json_restore_numbers). */
static cJSON *json_parse(doc *d, const char *buf, size_t len, const char *what, bool keep_numbers)
{
    if (no_nul(d, buf, len, what, false)) return NULL;
    size_t lead = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a UTF-8 BOM */
    size_t sp = lead;
    while (sp < len && is_space(buf[sp])) sp++;
    if (sp == len) { /* cJSON says only "not valid JSON" at 1:1 */
        char problem[160];
        snprintf(problem, sizeof problem,
                 "the file %s: no JSON document (a %s is a JSON object, {...})",
                 len == 0     ? "is empty"
                 : sp == lead ? "holds only a UTF-8 byte-order mark"
                              : "holds only white space",
                 what ? "Tiled JSON file" : "Tiled JSON map");
        text_error(d, buf, len, len, what, problem);
        return NULL;
    }
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (!j) {
        json_error(d, buf, len, end, what);
        return NULL;
    }
    /* Only white space may follow the document. */
    while (end && end < buf + len && is_space(*end)) end++;
    if (end && end < buf + len) {
        text_error(d, buf, len, (size_t)(end - buf), what,
                   "not valid JSON (more text after the end of the document)");
        cJSON_Delete(j);
        return NULL;
    }
    numtext *nums = NULL;
    int nnums = 0;
    int rc = json_lex(d, buf, len, what, keep_numbers, &nums, &nnums);
    if (rc == 0) rc = json_dups(d, j, "$", what);
    if (rc == 0 && nnums) {
        size_t nth = 0;
        int k = 0;
        json_keep_numbers(j, buf, nums, nnums, &nth, &k);
    }
    free(nums);
    if (rc) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

/* ------------------------------------------------------------ tilesets */

/* A tileset's tiles.  Messages: in the map, at the element's line; in an
 * external .tsx, at the map's <tileset> (or the .tmj's path to it) with
 * the .tsx's own line after its name ("tileset t.tsx:5: ..."). */
static int tsx_tiles(doc *d, xmlNodePtr ts, uint32_t firstgid, const char *what_ts)
{
    size_t first = d->nkinds;
    bool ext = ts->doc != d->xdoc;
    char what[PATH_CAP + 40];
    if (ext)
        snprintf(what, sizeof what, "%s:%ld", what_ts, xmlGetLineNo(ts));
    else
        snprintf(what, sizeof what, "%s", what_ts);
    long long tilecount, maxid = -1, plain_id = -1;
    if (xint(d, ts, "tilecount", 0, 1LL << 28, false, 0, what, &tilecount)) return -1;
    bool collection = true;   /* no <image> of its own: each tile has one */
    bool tile_images = false; /* a listed tile has an <image>: a real image collection */
    for (xmlNodePtr t = ts->children; t; t = t->next)
        if (xis(t, "image")) collection = false;
    d->ntids = 0;
    for (xmlNodePtr t = ts->children; t; t = t->next) {
        if (!xis(t, "tile")) continue;
        if (ext)
            snprintf(what, sizeof what, "%s:%ld", what_ts, xmlGetLineNo(t));
        else
            d->at = t;
        long long id;
        if (xint(d, t, "id", 0, (long long)(GID_MASK - firstgid), true, 0, what, &id)) return -1;
        if (tile_id_seen(d, id)) return -1;
        if (id > maxid) maxid = id;
        for (xmlNodePtr im = t->children; im; im = im->next)
            if (xis(im, "image")) tile_images = true;
        int kind = K_UNSET, mark = 0;
        char *cls = xattr(t, "class");
        if (!cls) cls = xattr(t, "type");
        if (cls) {
            mark = class_mark(cls);
            xmlFree(cls);
        }
        for (xmlNodePtr ps = t->children; ps; ps = ps->next) {
            if (!xis(ps, "properties")) continue;
            for (xmlNodePtr p = ps->children; p; p = p->next) {
                if (!xis(p, "property")) continue;
                char *name = xattr(p, "name");
                bool is_kind = name && strcmp(name, "kind") == 0;
                xmlFree(name);
                if (!is_kind) continue;
                char *v = xattr(p, "value");
                if (!v) v = (char *)xmlNodeGetContent(p);
                kind = parse_kind(d, what, id, v ? v : "");
                xmlFree(v);
                if (kind < 0) return -1;
            }
        }
        if ((kind != K_UNSET || mark) && add_kind(d, firstgid + (uint32_t)id, kind, mark))
            return -1;
        if (kind == K_UNSET && !mark && (plain_id < 0 || id < plain_id)) plain_id = id;
    }
    if (!ext) d->at = ts;
    if (tile_ids_once(d, what_ts)) return -1;
    char *align = xattr(ts, "objectalignment");
    int rc = tileset_done(d, firstgid, tilecount, maxid, first, collection, tile_images, plain_id,
                          align, NULL);
    xmlFree(align);
    return rc;
}

static int tsj_tiles(doc *d, const cJSON *ts, uint32_t firstgid, const char *what_ts, bool ext)
{
    size_t first = d->nkinds;
    char what[PATH_CAP + 40], base[sizeof d->at_path];
    snprintf(what, sizeof what, "%s", what_ts);
    snprintf(base, sizeof base, "%s", d->at_path);
    int k = 0;
    long long tilecount, maxid = -1, plain_id = -1;
    if (jint(d, ts, "tilecount", 0, 1LL << 28, false, 0, what, &tilecount)) return -1;
    bool collection = !jget(ts, "image"); /* each tile has its own image */
    bool tile_images = false;             /* a listed tile has one: a real image collection */
    cJSON *tiles = jget(ts, "tiles"), *t;
    if (tiles && !cJSON_IsArray(tiles)) return fail(d, "%s: \"tiles\" is not an array", what);
    d->ntids = 0;
    cJSON_ArrayForEach(t, tiles)
    {
        /* the tile's JSON path: in the map's, or after an external file's name */
        if (ext)
            snprintf(what, sizeof what, "%s $.tiles[%d]", what_ts, k++);
        else
            jpath(d->at_path, sizeof d->at_path, base, ".tiles[%d]", k++);
        long long id;
        if (jint(d, t, "id", 0, (long long)(GID_MASK - firstgid), true, 0, what, &id)) return -1;
        if (tile_id_seen(d, id)) return -1;
        if (id > maxid) maxid = id;
        if (jget(t, "image")) tile_images = true;
        int kind = K_UNSET;
        const char *cls = jstr(t, "class");
        int mark = class_mark(cls ? cls : jstr(t, "type"));
        cJSON *props = jget(t, "properties"), *p;
        if (props && !cJSON_IsArray(props))
            return fail(d, "%s: tile %lld: \"properties\" is not an array", what, id);
        cJSON_ArrayForEach(p, props)
        {
            const char *name = jstr(p, "name");
            if (!name || strcmp(name, "kind") != 0) continue;
            const char *v = jstr(p, "value");
            kind = parse_kind(d, what, id, v ? v : "");
            if (kind < 0) return -1;
        }
        if ((kind != K_UNSET || mark) && add_kind(d, firstgid + (uint32_t)id, kind, mark))
            return -1;
        if (kind == K_UNSET && !mark && (plain_id < 0 || id < plain_id)) plain_id = id;
    }
    snprintf(d->at_path, sizeof d->at_path, "%s", base);
    if (tile_ids_once(d, what_ts)) return -1;
    return tileset_done(d, firstgid, tilecount, maxid, first, collection, tile_images, plain_id,
                        jstr(ts, "objectalignment"), NULL);
}

static int add_tsref(doc *d, const char *path, uint32_t firstgid);

/* An external tileset: .tsx (XML) or .tsj/.json, relative to the map. */
static int external_tileset(doc *d, const char *source, uint32_t firstgid)
{
    char path[PATH_CAP], what[PATH_CAP + 16];
    if (!source[0]) /* (it would name the map's directory) */
        return fail(d,
                    "%s is empty: it names no tileset file (an external tileset is a .tsx, "
                    ".tsj or .json file; an embedded one has no source)",
                    d->fmt == TN_TILED_TMX ? "the <tileset>'s source attribute"
                                           : "the tileset's \"source\"");
    if (source[0] == '/')
        snprintf(path, sizeof path, "%s", source);
    else if (snprintf(path, sizeof path, "%s%s", d->dir, source) >= (int)sizeof path)
        return fail(d, "tileset path too long");
    snprintf(what, sizeof what, "tileset %.200s", source);
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(d, "%s: cannot open %.300s: %s%s", what, path, strerror(errno),
                    source[0] == '/' ? "" : " (a source is relative to the map's directory)");
    if (!S_ISREG(st.st_mode)) return fail(d, "%s: not a regular file", what);
    if (add_tsref(d, path, firstgid)) return -1;
    /* The same file as an earlier reference's (realpath): made from what
     * that one read, once per load (its ids, if listed, shared).  Not
     * when one of its ids would be past the last gid from this firstgid:
     * read again, for the message at that tile. */
    struct tsref *me =
        d->ntsrefs && d->tsrefs[d->ntsrefs - 1].first == firstgid && !d->tsrefs[d->ntsrefs - 1].done
            ? &d->tsrefs[d->ntsrefs - 1]
            : NULL;
    for (int i = 0; me && i < d->ntsrefs - 1; i++) {
        const struct tsref *c = &d->tsrefs[i];
        if (!c->done || strcmp(c->real, me->real) != 0 ||
            c->maxid > (long long)(GID_MASK - firstgid))
            continue;
        size_t first = d->nkinds;
        for (size_t k = c->klo; k < c->khi; k++)
            if (add_kind(d, firstgid + (d->kinds[k].gid - c->first), d->kinds[k].kind,
                         d->kinds[k].mark))
                return -1;
        return tileset_done(d, firstgid, c->tilecount, c->maxid, first, c->collection,
                            c->tile_images, c->plain_id, NULL, &c->range);
    }
    char *buf, rerr[PATH_CAP + 200];
    size_t len;
    if (tn_read_file(path, TN_MAP_FILE_MAX, &buf, &len, rerr, sizeof rerr) != 0)
        return fail(d, "%s: %s", what, rerr);
    d->rec = me;
    int rc = -1;
    if (ends_with(path, ".tsx")) {
        xmlDocPtr x = xml_parse(d, buf, len, what);
        if (x) {
            xmlNodePtr root = xmlDocGetRootElement(x);
            if (!root || !xis(root, "tileset"))
                fail(d, "%s: the root element is not <tileset>", what);
            else
                rc = tsx_tiles(d, root, firstgid, what);
            xmlFreeDoc(x);
        }
    } else if (ends_with(path, ".tsj") || ends_with(path, ".json")) {
        cJSON *j = json_parse(d, buf, len, what, false);
        if (j) {
            if (!cJSON_IsObject(j))
                fail(d, "%s: not a JSON object", what);
            else
                rc = tsj_tiles(d, j, firstgid, what, true);
            cJSON_Delete(j);
        }
    } else {
        fail(d, "%s: unknown tileset format (expected .tsx, .tsj or .json)", what);
    }
    d->rec = NULL;
    free(buf);
    return rc;
}

/* ------------------------------------------------------------ scanning */

static layer *new_layer(doc *d, void *node, void *data, const char *name)
{
    if (!grow((void **)&d->layers, &d->caplayers, d->nlayers + 1, sizeof(layer))) {
        fail(d, "out of memory");
        return NULL;
    }
    layer *L = &d->layers[d->nlayers++];
    memset(L, 0, sizeof *L);
    L->node = node;
    L->data = data;
    snprintf(L->name, sizeof L->name, "%s", name ? name : "");
    L->oneway = name && strcmp(name, "oneway") == 0;
    return L;
}

static int add_chunk(doc *d, layer *L, long long x, long long y, long long w, long long h,
                     void *node)
{
    if (!grow((void **)&L->chunks, &L->capchunks, L->nchunks + 1, sizeof(chunk)))
        return fail(d, "out of memory");
    L->chunks[L->nchunks++] = (chunk){x, y, (int)w, (int)h, node};
    return 0;
}

static object *new_object(doc *d)
{
    if (!grow((void **)&d->objs, &d->capobjs, d->nobjs + 1, sizeof(object))) {
        fail(d, "out of memory");
        return NULL;
    }
    object *o = &d->objs[d->nobjs++];
    memset(o, 0, sizeof *o);
    return o;
}

static int set_encoding(doc *d, layer *L, const char *enc, const char *comp)
{
    if (!enc || strcmp(enc, "csv") == 0)
        L->enc = ENC_CSV;
    else if (strcmp(enc, "base64") == 0)
        L->enc = ENC_B64;
    else
        return fail(d, "layer '%s': unknown encoding '%.20s' (expected csv or base64)", L->name,
                    enc);
    if (!comp || !*comp)
        L->comp = CMP_NONE;
    else if (strcmp(comp, "zlib") == 0)
        L->comp = CMP_ZLIB;
    else if (strcmp(comp, "gzip") == 0)
        L->comp = CMP_GZIP;
    else if (strcmp(comp, "zstd") == 0)
        return fail(d,
                    "layer '%s': zstd compression is not supported (save it in Tiled with zlib, "
                    "gzip or no compression)",
                    L->name);
    else
        return fail(d, "layer '%s': unknown compression '%.20s'", L->name, comp);
    if (L->comp != CMP_NONE && L->enc != ENC_B64)
        return fail(d, "layer '%s': compression needs base64 encoding", L->name);
    return 0;
}

static int check_size(doc *d, const char *what, long long w, long long h)
{
    if (w < 1 || h < 1 || w > TN_MAP_MAX_SIZE || h > TN_MAP_MAX_SIZE)
        return fail(d, "%s is %lldx%lld tiles; the game takes 1..%d each way", what, w, h,
                    TN_MAP_MAX_SIZE);
    return 0;
}

/* ------------------------------------------------------------ objects */

/* What an object element says about itself (an instance's own, or its
 * template's object): class, gid, position, size, rotation and shape,
 * each with whether it is given at all (an instance overrides only what
 * it gives, Tiled's rule). */
enum { F_X, F_Y, F_W, F_H, F_ROT, F_N };
static const char *const FIELD[F_N] = {"x", "y", "width", "height", "rotation"};

typedef struct ofields {
    char cls[64]; /* class, else type; "" = none */
    bool used_class;
    bool has_gid;
    long long gid;
    bool has[F_N];
    double v[F_N];
    bool shape; /* a point, ellipse, polygon or polyline is given */
    bool point, poly;
    double px0, py0, px1, py1; /* polygon/polyline: its points' bounds */
} ofields;

/* A polygon's or polyline's point (relative to the object's x,y). */
static void poly_point(ofields *f, double x, double y)
{
    if (!f->poly) {
        f->px0 = f->px1 = x;
        f->py0 = f->py1 = y;
        f->poly = true;
    }
    f->px0 = fmin(f->px0, x);
    f->px1 = fmax(f->px1, x);
    f->py0 = fmin(f->py0, y);
    f->py1 = fmax(f->py1, y);
}

/* TMX points="x,y x,y ..." */
static int poly_bounds(doc *d, ofields *f, const char *pts, const char *what)
{
    const char *p = pts;
    while (*p) {
        char *e;
        double x = strtod(p, &e);
        if (e == p || *e != ',') break;
        p = e + 1;
        double y = strtod(p, &e);
        if (e == p || !isfinite(x) || !isfinite(y)) break;
        poly_point(f, x, y);
        p = e;
        while (*p == ' ') p++;
    }
    if (*p || !f->poly) return fail(d, "%s: points '%.40s' are not x,y pairs", what, pts);
    return 0;
}

/* Class (or type) and gid of a TMX <object>. */
static int x_class(doc *d, xmlNodePtr n, const char *what, ofields *f)
{
    memset(f, 0, sizeof *f);
    char *cls = xattr(n, "class");
    f->used_class = cls && *cls;
    if (!f->used_class) {
        xmlFree(cls);
        cls = xattr(n, "type");
    }
    if (cls) snprintf(f->cls, sizeof f->cls, "%s", cls);
    xmlFree(cls);
    f->has_gid = xmlHasProp(n, (const xmlChar *)"gid") != NULL;
    return xint(d, n, "gid", 0, UINT32_MAX, false, 0, what, &f->gid);
}

/* Position, size, rotation and shape of a TMX <object>. */
static int x_shape(doc *d, xmlNodePtr n, const char *what, ofields *f)
{
    for (int i = 0; i < F_N; i++) {
        f->has[i] = xmlHasProp(n, (const xmlChar *)FIELD[i]) != NULL;
        if (xnum(d, n, FIELD[i], what, &f->v[i])) return -1;
    }
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (xis(c, "point") || xis(c, "ellipse")) {
            f->shape = true;
            f->point = f->point || xis(c, "point");
        }
        if (!xis(c, "polygon") && !xis(c, "polyline")) continue;
        f->shape = true;
        char *pts = xattr(c, "points");
        int rc = poly_bounds(d, f, pts ? pts : "", what);
        xmlFree(pts);
        if (rc) return -1;
    }
    return 0;
}

static int j_class(doc *d, const cJSON *n, const char *what, ofields *f)
{
    memset(f, 0, sizeof *f);
    const char *cls = jstr(n, "class");
    f->used_class = cls && *cls;
    if (!f->used_class) cls = jstr(n, "type");
    if (cls) snprintf(f->cls, sizeof f->cls, "%s", cls);
    f->has_gid = jget(n, "gid") != NULL;
    return jint(d, n, "gid", 0, UINT32_MAX, false, 0, what, &f->gid);
}

static int j_shape(doc *d, const cJSON *n, const char *what, ofields *f)
{
    for (int i = 0; i < F_N; i++) {
        f->has[i] = jget(n, FIELD[i]) != NULL;
        if (jnum(d, n, FIELD[i], what, &f->v[i])) return -1;
    }
    if (jget(n, "point") || jget(n, "ellipse")) f->shape = true;
    f->point = cJSON_IsTrue(jget(n, "point"));
    const cJSON *poly = jget(n, "polygon"), *pt;
    if (!poly) poly = jget(n, "polyline");
    if (poly) {
        f->shape = true;
        if (!cJSON_IsArray(poly)) return fail(d, "%s: \"polygon\" is not an array", what);
        cJSON_ArrayForEach(pt, poly)
        {
            double px, py;
            if (jnum(d, pt, "x", what, &px) || jnum(d, pt, "y", what, &py)) return -1;
            poly_point(f, px, py);
        }
    }
    return 0;
}

/* ------------------------------------------------------------ templates */

#define TPL_FILE_MAX ((size_t)1 << 20) /* a template holds one object */
#define TPL_MAX 4096                   /* distinct template files in one map */

/* A template file (Tiled 1.1+): .tx, XML <template> holding at most one
 * <tileset firstgid source> and one <object>; .tj, JSON {"type":
 * "template", "tileset": {"firstgid", "source"}?, "object": {...}}.  Read
 * once per load (d->tpls), kept parsed until the load ends. */
typedef struct tpl {
    char *path;        /* resolved against the map's directory: the cache key */
    char where[64];    /* its object in messages: ":LINE" (.tx) or " $.object" (.tj) */
    xmlDocPtr xdoc;    /* .tx */
    xmlNodePtr xobj;   /* .tx: its <object> */
    cJSON *json;       /* .tj */
    const cJSON *jobj; /* .tj: its "object" */
    bool has_gid;
    uint32_t gid; /* its object's gid in the map's numbering (flip flags kept) */
} tpl;

/* Where the map's external tilesets really are (realpath), for the gid
 * of a template's tile object, which counts in its own tileset. */
static int add_tsref(doc *d, const char *path, uint32_t firstgid)
{
    char *real = realpath(path, NULL);
    if (!real) return 0; /* read already; a template naming it then says it is not found */
    if (!grow((void **)&d->tsrefs, &d->captsrefs, d->ntsrefs + 1, sizeof *d->tsrefs)) {
        free(real);
        return fail(d, "out of memory");
    }
    d->tsrefs[d->ntsrefs].real = real;
    d->tsrefs[d->ntsrefs++].first = firstgid;
    return 0;
}

/* t's object's gid g (counted in the template's tileset `src`, firstgid
 * `first`, relative to the template file tpath) in the map's numbering:
 * the map's tileset that is the same file (Tiled adds it to the map when
 * the object is placed). */
static int tpl_gid(doc *d, tpl *t, const char *what, long long g, bool has_ts, long long first,
                   const char *src)
{
    uint32_t id = (uint32_t)g & GID_MASK;
    t->has_gid = true;
    if (id == 0) {
        t->gid = (uint32_t)g;
        return 0;
    }
    if (!has_ts)
        return fail(d, "%s: its object has gid %lld but the template names no tileset", what, g);
    if (!src || !*src)
        return fail(d, "%s: its tileset has no source (a template's tileset is an external file)",
                    what);
    if (id < first)
        return fail(d, "%s: gid %lld is below its tileset's firstgid %lld", what, g, first);
    char dir[PATH_CAP], p[PATH_CAP];
    file_dir(t->path, dir, sizeof dir);
    if (src[0] == '/')
        snprintf(p, sizeof p, "%s", src);
    else if (snprintf(p, sizeof p, "%s%s", dir, src) >= (int)sizeof p)
        return fail(d, "%s: tileset path too long", what);
    char *real = realpath(p, NULL);
    if (!real) return fail(d, "%s: its tileset %.200s cannot be opened", what, src);
    long long mfirst = -1;
    for (int i = 0; i < d->ntsrefs && mfirst < 0; i++)
        if (strcmp(d->tsrefs[i].real, real) == 0) mfirst = d->tsrefs[i].first;
    free(real);
    if (mfirst < 0)
        return fail(d,
                    "%s: its tileset %.200s is not one of the map's tilesets (Tiled adds it "
                    "when the object is placed: add it to the map)",
                    what, src);
    long long mapped = mfirst + ((long long)id - first);
    if (mapped > (long long)GID_MASK)
        return fail(d, "%s: gid %lld is past the last gid of the map", what, g);
    t->gid = (uint32_t)mapped | ((uint32_t)g & ~GID_MASK);
    return 0;
}

static int tpl_read_tx(doc *d, tpl *t, const char *buf, size_t len, const char *what)
{
    t->xdoc = xml_parse(d, buf, len, what);
    if (!t->xdoc) return -1;
    xmlNodePtr root = xmlDocGetRootElement(t->xdoc), ts = NULL;
    if (!root || !xis(root, "template"))
        return fail(d, "%s: not a template (the root element is <%.30s>, not <template>)", what,
                    root ? (const char *)root->name : "");
    for (xmlNodePtr c = root->children; c; c = c->next) {
        if (xis(c, "object")) {
            if (t->xobj) return fail(d, "%s:%ld: a second <object>", what, xmlGetLineNo(c));
            t->xobj = c;
        } else if (xis(c, "tileset")) {
            if (ts) return fail(d, "%s:%ld: a second <tileset>", what, xmlGetLineNo(c));
            ts = c;
        }
    }
    if (!t->xobj) return fail(d, "%s: not a template (it holds no <object>)", what);
    snprintf(t->where, sizeof t->where, ":%ld", xmlGetLineNo(t->xobj));
    char w2[PATH_CAP + 120];
    snprintf(w2, sizeof w2, "%.400s%s", what, t->where);
    if (xmlHasProp(t->xobj, (const xmlChar *)"template"))
        return fail(d, "%s: its object is itself placed from a template (templates do not nest)",
                    w2);
    ofields f;
    if (x_class(d, t->xobj, w2, &f)) return -1;
    if (!f.has_gid) return 0;
    long long first = 0;
    char *src = NULL;
    if (ts) {
        char w3[PATH_CAP + 120];
        snprintf(w3, sizeof w3, "%.400s:%ld: its tileset", what, xmlGetLineNo(ts));
        if (xint(d, ts, "firstgid", 1, GID_MASK, true, 0, w3, &first)) return -1;
        src = xattr(ts, "source");
    }
    int rc = tpl_gid(d, t, w2, f.gid, ts != NULL, first, src);
    xmlFree(src);
    return rc;
}

static int tpl_read_tj(doc *d, tpl *t, const char *buf, size_t len, const char *what)
{
    t->json = json_parse(d, buf, len, what, false);
    if (!t->json) return -1;
    const char *type = jstr(t->json, "type");
    if (!cJSON_IsObject(t->json) || (type && strcmp(type, "template") != 0) ||
        (!type && !jget(t->json, "object")))
        return fail(d, "%s: not a template (no \"type\": \"template\")", what);
    t->jobj = jget(t->json, "object");
    if (!cJSON_IsObject(t->jobj))
        return fail(d, "%s: not a template (\"object\" is missing or not an object)", what);
    snprintf(t->where, sizeof t->where, " $.object");
    char w2[PATH_CAP + 120];
    snprintf(w2, sizeof w2, "%.400s%s", what, t->where);
    if (jget(t->jobj, "template"))
        return fail(d, "%s: its object is itself placed from a template (templates do not nest)",
                    w2);
    ofields f;
    if (j_class(d, t->jobj, w2, &f)) return -1;
    if (!f.has_gid) return 0;
    const cJSON *ts = jget(t->json, "tileset");
    long long first = 0;
    if (ts) {
        char w3[PATH_CAP + 120];
        snprintf(w3, sizeof w3, "%.400s $.tileset", what);
        if (!cJSON_IsObject(ts)) return fail(d, "%s: not an object", w3);
        if (jint(d, ts, "firstgid", 1, GID_MASK, true, 0, w3, &first)) return -1;
    }
    return tpl_gid(d, t, w2, f.gid, ts != NULL, first, jstr(ts, "source"));
}

/* The template `ref` (relative to the map, as Tiled writes it) of object
 * `id`: read and checked on its first use in this load, then from d->tpls.
 * what: "object ID: template REF" for messages.  Only a regular file is
 * read (template="/dev/stdin" would wait on the game's standard input, a
 * FIFO on its writer), of at most TPL_FILE_MAX bytes. */
static int tpl_get(doc *d, const char *ref, const char *what, const tpl **out)
{
    char path[PATH_CAP];
    *out = NULL;
    if (!*ref) return fail(d, "%s: the template path is empty", what);
    if (ref[0] == '/')
        snprintf(path, sizeof path, "%s", ref);
    else if (snprintf(path, sizeof path, "%s%s", d->dir, ref) >= (int)sizeof path)
        return fail(d, "%s: path too long", what);
    for (int i = 0; i < d->ntpls; i++)
        if (strcmp(d->tpls[i].path, path) == 0) {
            *out = &d->tpls[i];
            return 0;
        }
    if (d->ntpls >= TPL_MAX)
        return fail(d, "%s: more than %d template files in one map", what, TPL_MAX);
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(d, "%s: cannot open %.300s: %s", what, path, strerror(errno));
    if (!S_ISREG(st.st_mode)) return fail(d, "%s: not a regular file", what);
    if ((unsigned long long)st.st_size > TPL_FILE_MAX)
        return fail(d, "%s: %lld bytes, too large for a template (at most %zu)", what,
                    (long long)st.st_size, TPL_FILE_MAX);
    if (!grow((void **)&d->tpls, &d->captpls, d->ntpls + 1, sizeof *d->tpls))
        return fail(d, "out of memory");
    tpl *t = &d->tpls[d->ntpls];
    memset(t, 0, sizeof *t);
    if (!(t->path = strdup(path))) return fail(d, "out of memory");
    d->ntpls++; /* freed with d, whatever happens next */
    char *buf, rerr[PATH_CAP + 200];
    size_t len;
    if (tn_read_file(path, TPL_FILE_MAX, &buf, &len, rerr, sizeof rerr) != 0)
        return fail(d, "%s: %s", what, rerr);
    size_t k = 0;
    while (k < len && is_space(buf[k])) k++;
    int rc;
    if (ends_with(path, ".tx") ||
        (!ends_with(path, ".tj") && !ends_with(path, ".json") && k < len && buf[k] == '<'))
        rc = tpl_read_tx(d, t, buf, len, what);
    else if (ends_with(path, ".tj") || ends_with(path, ".json") || (k < len && buf[k] == '{'))
        rc = tpl_read_tj(d, t, buf, len, what);
    else
        rc = fail(d, "%s: not a template (expected a .tx or .tj file)", what);
    free(buf);
    if (rc == 0) *out = t;
    return rc;
}

/* ------------------------------------------------------------ game objects */

/* A game object turned by `rotation` (degrees about its x,y) lies elsewhere
 * than its unturned shape: refused, rather than put on another tile than
 * Tiled draws it on (a point has no shape to turn). */
static int rotated(doc *d, const object *o, double rot, const char *what)
{
    if (rot == 0 || fmod(rot, 360) == 0 || o->point) return 0;
    return fail(d,
                "%s: rotation %g is not supported (the game cannot tell which tile a turned "
                "object is on as Tiled draws it): set rotation to 0",
                what, rot);
}

/* One object of a layer, TMX (xn) or TMJ (jn): its own fields, over its
 * template's when it is placed from one (`template`).  A game object
 * (class spawn/dest/item/start, or a tile object without class whose tile
 * has one) is added to d->objs. */
static int read_object(doc *d, xmlNodePtr xn, const cJSON *jn, void *group)
{
    long long id;
    if (xn ? xint(d, xn, "id", 0, INT_MAX, false, 0, "an object", &id)
           : jint(d, jn, "id", 0, INT_MAX, false, 0, "an object", &id))
        return -1;
    if (id > d->max_object_id) d->max_object_id = id;
    ofields f, tf;
    if (xn ? x_class(d, xn, "an object", &f) : j_class(d, jn, "an object", &f)) return -1;
    const tpl *t = NULL;
    char twhat[PATH_CAP + 200] = "";
    char *xref = xn ? xattr(xn, "template") : NULL;
    const char *ref = xn ? xref : jstr(jn, "template");
    if (!xn && jget(jn, "template") && !ref)
        return fail(d, "object %lld: \"template\" is not a string", id);
    int rc = 0;
    /* An object with a class of its own that is not the game's is not the
     * game's whatever its template says: left alone, its template unread
     * (a decoration object whose template was deleted still loads). */
    if (ref && f.cls[0] && !class_mark(f.cls)) ref = NULL;
    if (ref) {
        char what[PATH_CAP + 64];
        snprintf(what, sizeof what, "object %lld: template%s%.300s", id, *ref ? " " : "", ref);
        rc = tpl_get(d, ref, what, &t);
        if (t) snprintf(twhat, sizeof twhat, "template %.300s%s", ref, t->where);
    }
    xmlFree(xref);
    if (rc) return -1;
    if (t) {
        char what[sizeof twhat + 32];
        snprintf(what, sizeof what, "object %lld: %s", id, twhat);
        if (t->xobj ? x_class(d, t->xobj, what, &tf) : j_class(d, t->jobj, what, &tf)) return -1;
        tf.has_gid = t->has_gid;
        tf.gid = t->gid;
        if (!f.cls[0]) {
            memcpy(f.cls, tf.cls, sizeof f.cls);
            f.used_class = tf.used_class;
        }
        if (!f.has_gid) {
            f.has_gid = tf.has_gid;
            f.gid = tf.gid;
        }
    }
    int mark = class_mark(f.cls);
    if (!mark && f.gid && !f.cls[0]) {
        const tkind *k = find_kind(d, (uint32_t)f.gid & GID_MASK);
        if (k) mark = k->mark;
    }
    if (!mark) return 0;
    char what[sizeof twhat + 64];
    snprintf(what, sizeof what, "object %lld (%s)", id, CLASS_NAME[mark]);
    if (xn ? x_shape(d, xn, what, &f) : j_shape(d, jn, what, &f)) return -1;
    if (t) {
        snprintf(what, sizeof what, "object %lld (%s): %s", id, CLASS_NAME[mark], twhat);
        if (t->xobj ? x_shape(d, t->xobj, what, &tf) : j_shape(d, t->jobj, what, &tf)) return -1;
        for (int i = 0; i < F_N; i++)
            if (!f.has[i]) {
                f.has[i] = tf.has[i];
                f.v[i] = tf.v[i];
            }
        if (!f.shape) {
            f.shape = tf.shape;
            f.point = tf.point;
            f.poly = tf.poly;
            f.px0 = tf.px0;
            f.py0 = tf.py0;
            f.px1 = tf.px1;
            f.py1 = tf.py1;
        }
        snprintf(what, sizeof what, "object %lld (%s)", id, CLASS_NAME[mark]);
    }
    object *o = new_object(d);
    if (!o) return -1;
    o->node = xn ? (void *)xn : (void *)jn;
    o->group = group;
    o->id = id;
    o->mark = mark;
    o->used_class = f.used_class;
    o->gid = (uint32_t)f.gid;
    o->has_gid = f.gid != 0;
    o->x = f.v[F_X];
    o->y = f.v[F_Y];
    o->w = f.v[F_W];
    o->h = f.v[F_H];
    o->point = f.point;
    o->poly = f.poly;
    o->px0 = f.px0;
    o->py0 = f.py0;
    o->px1 = f.px1;
    o->py1 = f.py1;
    o->gx = d->offx;
    o->gy = d->offy;
    if (jn) snprintf(o->path, sizeof o->path, "%s", d->at_path);
    return rotated(d, o, f.v[F_ROT], what);
}

static int tmx_object(doc *d, xmlNodePtr n, xmlNodePtr group)
{
    d->at = n;
    return read_object(d, n, NULL, group);
}
static int tmx_layers(doc *d, xmlNodePtr parent, int depth)
{
    if (depth > MAX_DEPTH) return fail(d, "group layers nested more than %d deep", MAX_DEPTH);
    for (xmlNodePtr n = parent->children; n; n = n->next) {
        d->at = n;
        double ox = 0, oy = 0, gx = d->offx, gy = d->offy;
        if ((xis(n, "group") || xis(n, "objectgroup") || xis(n, "layer")) &&
            (xnum(d, n, "offsetx", "a layer", &ox) || xnum(d, n, "offsety", "a layer", &oy)))
            return -1;
        if (xis(n, "group")) {
            d->offx = gx + ox;
            d->offy = gy + oy;
            int rc = tmx_layers(d, n, depth + 1);
            d->offx = gx;
            d->offy = gy;
            if (rc) return -1;
        } else if (xis(n, "objectgroup")) {
            d->offx = gx + ox;
            d->offy = gy + oy;
            if (!d->first_ogroup) {
                d->first_ogroup = n;
                d->fog_x = d->offx;
                d->fog_y = d->offy;
            }
            for (xmlNodePtr o = n->children; o; o = o->next)
                if (xis(o, "object") && tmx_object(d, o, n)) return -1;
            d->offx = gx;
            d->offy = gy;
        } else if (xis(n, "layer")) {
            xmlNodePtr data = NULL;
            for (xmlNodePtr c = n->children; c; c = c->next)
                if (xis(c, "data")) data = c;
            char *name = xattr(n, "name");
            layer *L = new_layer(d, n, data, name);
            xmlFree(name);
            if (!L) return -1;
            L->offx = gx + ox;
            L->offy = gy + oy;
            if (!data) return fail(d, "layer '%s' has no <data>", L->name);
            char *enc = xattr(data, "encoding"), *comp = xattr(data, "compression");
            int rc = 0;
            d->at = data; /* its attributes' problems: at the <data> (README) */
            if (!enc)
                rc = fail(
                    d,
                    "layer '%s': tile data as <tile> elements is not supported (use CSV or base64)",
                    L->name);
            else
                rc = set_encoding(d, L, enc, comp);
            xmlFree(enc);
            xmlFree(comp);
            if (rc) return -1;
            d->at = n; /* the <layer>'s own attributes next */
            char what[200];
            snprintf(what, sizeof what, "layer '%s'", L->name);
            if (!d->infinite) {
                long long w, h;
                if (xint(d, n, "width", 0, INT_MAX, true, 0, what, &w) ||
                    xint(d, n, "height", 0, INT_MAX, true, 0, what, &h))
                    return -1;
                if (w != d->w || h != d->h)
                    return fail(d, "layer '%s' is %lldx%lld tiles, the map %lldx%lld", L->name, w,
                                h, d->w, d->h);
                if (add_chunk(d, L, 0, 0, w, h, data)) return -1;
            } else {
                for (xmlNodePtr c = data->children; c; c = c->next) {
                    if (!xis(c, "chunk")) continue;
                    d->at = c;
                    long long x, y, w, h;
                    snprintf(what, sizeof what, "layer '%s' chunk", L->name);
                    if (xint(d, c, "x", -1000000000, 1000000000, true, 0, what, &x) ||
                        xint(d, c, "y", -1000000000, 1000000000, true, 0, what, &y) ||
                        xint(d, c, "width", 1, TN_MAP_MAX_SIZE, true, 0, what, &w) ||
                        xint(d, c, "height", 1, TN_MAP_MAX_SIZE, true, 0, what, &h) ||
                        add_chunk(d, L, x, y, w, h, c))
                        return -1;
                }
            }
        }
    }
    return 0;
}

/* Tiled's compressionlevel (-1: the default; up to 22 for zstd) as the
 * level zlib and gzip data are deflated at: -1 the default, others
 * bounded to 1..9 as Tiled bounds them.  It only matters to a save, and
 * Tiled reads any text there (what is not a number as 0), so no value
 * refuses a map: one that is not a whole number is the default. */
static int zlib_level(long long lvl)
{
    return lvl < 0 ? Z_DEFAULT_COMPRESSION : lvl < 1 ? 1 : lvl > 9 ? 9 : (int)lvl;
}

static int tmx_scan(doc *d)
{
    xmlNodePtr m = xmlDocGetRootElement(d->xdoc);
    d->at = m;
    if (!m || !xis(m, "map")) return fail(d, "not a Tiled map (the root element is not <map>)");
    d->xmap = m;
    char *s = xattr(m, "orientation");
    if (!s)
        return fail(d, "<map> has no orientation (Tiled writes orientation=\"orthogonal\"; the "
                       "game takes only orthogonal maps)");
    if (strcmp(s, "orthogonal") != 0) {
        fail(d, "orientation '%.30s' is not supported (only orthogonal maps)", s);
        xmlFree(s);
        return -1;
    }
    xmlFree(s);
    long long inf;
    if (xint(d, m, "infinite", 0, 1, false, 0, "the map", &inf) ||
        xint(d, m, "width", 0, INT_MAX, true, 0, "the map", &d->w) ||
        xint(d, m, "height", 0, INT_MAX, true, 0, "the map", &d->h) ||
        xint(d, m, "tilewidth", 1, 65536, true, 0, "the map", &d->tw) ||
        xint(d, m, "tileheight", 1, 65536, true, 0, "the map", &d->th))
        return -1;
    d->infinite = inf == 1;
    if (!d->infinite && check_size(d, "the map", d->w, d->h)) return -1;
    char *cl = xattr(m, "compressionlevel");
    long long lvl;
    d->zlevel = zlib_level(cl && parse_ll(cl, &lvl) ? lvl : -1);
    xmlFree(cl);
    for (xmlNodePtr n = m->children; n; n = n->next) {
        if (!xis(n, "tileset")) continue;
        d->at = n;
        long long fg;
        if (xint(d, n, "firstgid", 1, GID_MASK, true, 0, "a tileset", &fg)) return -1;
        char *src = xattr(n, "source");
        int rc = src ? external_tileset(d, src, (uint32_t)fg)
                     : tsx_tiles(d, n, (uint32_t)fg, "tileset (embedded)");
        xmlFree(src);
        if (rc) return -1;
    }
    d->at = m;
    if (kinds_done(d) || tmx_layers(d, m, 0)) return -1;
    d->at = m; /* problems of the whole map: at <map> */
    return 0;
}

static int tmj_object(doc *d, const cJSON *n, const cJSON *group)
{
    return read_object(d, NULL, n, (void *)group);
}

/* The layers of `arr`, whose JSON path is `at` ("$.layers", or a group's
 * "$.layers[1].layers"): each problem names the path of its layer, object
 * or chunk. */
static int tmj_layers(doc *d, const cJSON *arr, const char *at, int depth)
{
    if (depth > MAX_DEPTH) return fail(d, "group layers nested more than %d deep", MAX_DEPTH);
    if (!cJSON_IsArray(arr)) return fail(d, "\"layers\" is not an array");
    const cJSON *n;
    int i = 0;
    cJSON_ArrayForEach(n, arr)
    {
        char here[sizeof d->at_path];
        jpath(here, sizeof here, at, "[%d]", i++);
        snprintf(d->at_path, sizeof d->at_path, "%s", here);
        const char *type = jstr(n, "type");
        if (!type) return fail(d, "a layer has no \"type\"");
        double ox = 0, oy = 0, gx = d->offx, gy = d->offy;
        if (jnum(d, n, "offsetx", "a layer", &ox) || jnum(d, n, "offsety", "a layer", &oy))
            return -1;
        if (strcmp(type, "group") == 0) {
            char sub[sizeof d->at_path];
            jpath(sub, sizeof sub, here, ".layers");
            d->offx = gx + ox;
            d->offy = gy + oy;
            int rc = tmj_layers(d, jget(n, "layers"), sub, depth + 1);
            d->offx = gx;
            d->offy = gy;
            if (rc) return -1;
        } else if (strcmp(type, "objectgroup") == 0) {
            d->offx = gx + ox;
            d->offy = gy + oy;
            if (!d->first_ogroup) {
                d->first_ogroup = (void *)n;
                d->fog_x = d->offx;
                d->fog_y = d->offy;
            }
            cJSON *objs = jget(n, "objects"), *o;
            if (objs && !cJSON_IsArray(objs)) return fail(d, "\"objects\" is not an array");
            int k = 0;
            cJSON_ArrayForEach(o, objs)
            {
                jpath(d->at_path, sizeof d->at_path, here, ".objects[%d]", k++);
                if (tmj_object(d, o, n)) return -1;
            }
            d->offx = gx;
            d->offy = gy;
        } else if (strcmp(type, "tilelayer") == 0) {
            layer *L = new_layer(d, (void *)n, (void *)n, jstr(n, "name"));
            if (!L) return -1;
            jpath(L->path, sizeof L->path, here, "%s", "");
            L->offx = gx + ox;
            L->offy = gy + oy;
            cJSON *enc = jget(n, "encoding"), *comp = jget(n, "compression");
            if ((enc && !cJSON_IsString(enc)) || (comp && !cJSON_IsString(comp)))
                return fail(d, "layer '%s': \"encoding\" and \"compression\" must be strings",
                            L->name);
            if (set_encoding(d, L, enc ? enc->valuestring : NULL, comp ? comp->valuestring : NULL))
                return -1;
            char what[200];
            snprintf(what, sizeof what, "layer '%s'", L->name);
            if (!d->infinite) {
                long long w, h;
                if (jint(d, n, "width", 0, INT_MAX, true, 0, what, &w) ||
                    jint(d, n, "height", 0, INT_MAX, true, 0, what, &h))
                    return -1;
                if (w != d->w || h != d->h)
                    return fail(d, "layer '%s' is %lldx%lld tiles, the map %lldx%lld", L->name, w,
                                h, d->w, d->h);
                if (!jget(n, "data")) return fail(d, "layer '%s' has no \"data\"", L->name);
                if (add_chunk(d, L, 0, 0, w, h, (void *)n)) return -1;
            } else {
                cJSON *chunks = jget(n, "chunks"), *c;
                if (chunks && !cJSON_IsArray(chunks))
                    return fail(d, "layer '%s': \"chunks\" is not an array", L->name);
                snprintf(what, sizeof what, "layer '%s' chunk", L->name);
                int k = 0;
                cJSON_ArrayForEach(c, chunks)
                {
                    jpath(d->at_path, sizeof d->at_path, here, ".chunks[%d]", k++);
                    long long x, y, w, h;
                    if (jint(d, c, "x", -1000000000, 1000000000, true, 0, what, &x) ||
                        jint(d, c, "y", -1000000000, 1000000000, true, 0, what, &y) ||
                        jint(d, c, "width", 1, TN_MAP_MAX_SIZE, true, 0, what, &w) ||
                        jint(d, c, "height", 1, TN_MAP_MAX_SIZE, true, 0, what, &h))
                        return -1;
                    if (!jget(c, "data")) return fail(d, "%s has no \"data\"", what);
                    if (add_chunk(d, L, x, y, w, h, c)) return -1;
                }
            }
        }
    }
    return 0;
}

static int tmj_scan(doc *d)
{
    cJSON *m = d->json;
    if (!cJSON_IsObject(m)) return fail(d, "not a Tiled map (not a JSON object)");
    const char *type = jstr(m, "type");
    if (type && strcmp(type, "map") != 0)
        return fail(d, "not a Tiled map (\"type\" is '%.20s')", type);
    const char *o = jstr(m, "orientation");
    if (!o && !type) /* some other JSON file (package.json, a save of another program) */
        return fail(d, "not a Tiled map (it has neither \"type\": \"map\" nor an "
                       "\"orientation\")");
    if (!o)
        return fail(d, "the map has no \"orientation\" (Tiled writes \"orthogonal\"; the game "
                       "takes only orthogonal maps)");
    if (strcmp(o, "orthogonal") != 0)
        return fail(d, "orientation '%.30s' is not supported (only orthogonal maps)", o);
    d->infinite = cJSON_IsTrue(jget(m, "infinite"));
    if (jint(d, m, "width", 0, INT_MAX, true, 0, "the map", &d->w) ||
        jint(d, m, "height", 0, INT_MAX, true, 0, "the map", &d->h) ||
        jint(d, m, "tilewidth", 1, 65536, true, 0, "the map", &d->tw) ||
        jint(d, m, "tileheight", 1, 65536, true, 0, "the map", &d->th))
        return -1;
    if (!d->infinite && check_size(d, "the map", d->w, d->h)) return -1;
    const cJSON *cl = jget(m, "compressionlevel");
    long long lvl = -1;
    if (cJSON_IsNumber(cl) && cl->valuedouble == floor(cl->valuedouble))
        lvl = cl->valuedouble < 0 ? -1 : cl->valuedouble > 22 ? 22 : (long long)cl->valuedouble;
    else if (cJSON_IsString(cl) && !parse_ll(cl->valuestring, &lvl))
        lvl = -1;
    d->zlevel = zlib_level(lvl);
    cJSON *tss = jget(m, "tilesets"), *ts;
    if (tss && !cJSON_IsArray(tss)) return fail(d, "\"tilesets\" is not an array");
    int i = 0;
    cJSON_ArrayForEach(ts, tss)
    {
        snprintf(d->at_path, sizeof d->at_path, "$.tilesets[%d]", i++);
        long long fg;
        if (jint(d, ts, "firstgid", 1, GID_MASK, true, 0, "a tileset", &fg)) return -1;
        const char *src = jstr(ts, "source");
        if (src ? external_tileset(d, src, (uint32_t)fg)
                : tsj_tiles(d, ts, (uint32_t)fg, "tileset (embedded)", false))
            return -1;
    }
    d->at_path[0] = '\0';
    if (kinds_done(d)) return -1;
    if (tmj_layers(d, jget(m, "layers"), "$.layers", 0)) return -1;
    d->at_path[0] = '\0'; /* problems of the whole map: no path */
    return 0;
}

/* ------------------------------------------------------------ decoding */

typedef struct sink {
    doc *d;
    layer *L;
    chunk *c;
    tn_map *m;        /* load: combine kinds into m->tile */
    uint32_t *grid;   /* save: store gids */
    uint8_t *covered; /* save: mark cells inside chunks */
    size_t n, i;
    int col, row;
    char what[200];
    long line;      /* TMX CSV: the line being read (0: not known) */
    char base[160]; /* TMJ: the JSON path of the tile array */
} sink;

/* A problem with the cell being read: TMX, at its line when known (CSV),
 * else at the <data> or <chunk>; TMJ, at the array element's path. */
static void at_cell(sink *s)
{
    if (s->d->fmt == TN_TILED_TMX)
        s->d->at_line = s->line;
    else
        jpath(s->d->at_path, sizeof s->d->at_path, s->base, "[%zu]", s->i);
}

static int sink_put(sink *s, uint32_t gid)
{
    if (s->i >= s->n) {
        at_cell(s);
        return fail(s->d, "%s holds more than %zu tiles", s->what, s->n);
    }
    const layer *SL = s->L;
    long long lx = s->c->x + s->col, ly = s->c->y + s->row; /* its Tiled cell */
    size_t idx = (size_t)(ly - SL->gy0) * (size_t)s->d->w + (size_t)(lx - SL->gx0);
    if (s->grid) {
        s->grid[idx] = gid;
        if (s->covered) s->covered[idx] = 1;
    } else {
        if (s->d->stamp) { /* Tiled never writes overlapping chunks; their meaning would be unclear */
            uint16_t me = (uint16_t)(s->L - s->d->layers + 1);
            if (s->d->stamp[idx] == me && (at_cell(s), true))
                return fail(s->d, "%s overlaps another chunk of the layer at tile %lld,%lld",
                            s->what, s->c->x + s->col, s->c->y + s->row);
            s->d->stamp[idx] = me;
        }
    }
    uint32_t g = gid & GID_MASK; /* Tiled's flip flags cleared: 0 is empty, flipped or not */
    if (!s->grid && g) {
        if (!gid_known(s->d, g)) {
            at_cell(s);
            char ts[96], flags[64] = "";
            ranges_text(s->d, ts, sizeof ts);
            if (gid != g)
                snprintf(flags, sizeof flags, " (tile %u with flip flags 0x%08x)", (unsigned)g,
                         (unsigned)(gid & ~GID_MASK));
            return fail(s->d, "%s: cell (%lld,%lld): gid %u%s belongs to no tileset (%s%s)",
                        s->what, s->c->x + s->col, s->c->y + s->row, (unsigned)gid, flags,
                        s->d->nranges ? "the tilesets hold gids " : "the map has no tileset", ts);
        }
        long long lack = collection_lacks(s->d, g);
        if (lack >= 0) { /* Tiled shows nothing there: no block the user cannot see */
            at_cell(s);
            const tsrange *r = &s->d->ranges[s->d->rlast];
            char ids[64] = "none";
            size_t n = 0;
            for (int i = r->clo; i < r->chi && n < sizeof ids; i++) {
                int w = i - r->clo == 4 ? snprintf(ids + n, sizeof ids - n, ", ...")
                                        : snprintf(ids + n, sizeof ids - n, "%s%lld",
                                                   i > r->clo ? ", " : "", s->d->cids[i]);
                if (w < 0 || i - r->clo == 4) break;
                n += (size_t)w;
            }
            return fail(s->d,
                        "%s: cell (%lld,%lld): gid %u is tile %lld of the image collection at "
                        "first gid %u, which has no tile %lld (it lists %s)",
                        s->what, s->c->x + s->col, s->c->y + s->row, (unsigned)gid, lack,
                        (unsigned)r->first, lack, ids);
        }
        int k = gid_kind(s->d, g);
        if (k == K_UNSET) k = s->L->oneway ? K_ONEWAY : K_BLOCK;
        if (k != K_NONE && SL->frac) {
            layer *L = s->L; /* the layer's own element or path */
            s->d->at = s->d->fmt == TN_TILED_TMX ? (xmlNodePtr)L->node : NULL;
            s->d->at_line = 0;
            snprintf(s->d->at_path, sizeof s->d->at_path, "%s", L->path);
            return fail(s->d,
                        "layer '%s': offsetx/offsety %g,%g px (its groups' included): a tile "
                        "layer drawn off the map's grid puts its terrain elsewhere than Tiled "
                        "shows it; set the offset to 0 (decoration, tiles with kind=none, may "
                        "be offset)",
                        L->name, L->offx, L->offy);
        }
        /* the map cell it is drawn on (an offset in whole tiles moves it) */
        long long mx = lx + SL->sx - s->d->ox, my = ly + SL->sy - s->d->oy;
        bool inside = mx >= 0 && my >= 0 && mx < s->d->w && my < s->d->h;
        if (!inside && k != K_NONE) {
            at_cell(s);
            return fail(s->d,
                        "%s: cell (%lld,%lld) is drawn on tile (%lld,%lld), outside the "
                        "%lldx%lld map, by the layer's offsetx/offsety %g,%g px (%lld,%lld "
                        "tiles, its groups' included): its %s would be lost; move the tiles "
                        "or the layer back inside the map in Tiled",
                        s->what, lx, ly, mx + s->d->ox, my + s->d->oy, s->d->w, s->d->h, SL->offx,
                        SL->offy, SL->sx, SL->sy, k == K_ONEWAY ? "one-way platform" : "block");
        }
        if (inside) { /* (decoration drawn off the map is nothing to the game) */
            uint8_t *t = &s->m->tile[(size_t)my * (size_t)s->d->w + (size_t)mx];
            if (k == K_BLOCK)
                *t = TN_TILE_BLOCK;
            else if (k == K_ONEWAY && *t == TN_TILE_EMPTY)
                *t = TN_TILE_ONEWAY;
        }
    }
    s->i++;
    if (++s->col == s->c->w) {
        s->col = 0;
        s->row++;
    }
    return 0;
}

/* White space, counting the line breaks (s->line, when known). */
static const char *skip_space(sink *s, const char *p, const char *end)
{
    for (; p < end && is_space(*p); p++)
        if (*p == '\n' && s->line) s->line++;
    return p;
}

/* A tile number above 32 bits (the largest gid, flip flags included),
 * shown as written (its first 24 digits). */
static int gid_too_large(sink *s, const char *kind, const char *num, size_t n)
{
    at_cell(s);
    return fail(s->d,
                "%s: %stile number %.*s%s is larger than %u, the largest gid (flip flags "
                "included)",
                s->what, kind, (int)(n < 24 ? n : 24), num, n > 24 ? "..." : "",
                (unsigned)UINT32_MAX);
}

/* CSV tile numbers: a TMX <data encoding="csv">, or the text of a .tmj
 * "data" array of plain numbers (blank_arrays; messages then say nothing
 * of CSV). */
static int decode_csv_text(sink *s, const char *p, const char *end)
{
    const char *kind = s->d->fmt == TN_TILED_TMX ? "CSV: " : "";
    for (;;) {
        p = skip_space(s, p, end);
        if (p == end) break;
        if (*p < '0' || *p > '9') {
            at_cell(s);
            return fail(s->d, "%s: %s'%c' where a tile number belongs", s->what, kind,
                        (*p >= 32 && *p < 127) ? *p : '?');
        }
        unsigned long long v = 0;
        const char *num = p;
        while (p < end && *p >= '0' && *p <= '9') {
            v = v * 10 + (unsigned)(*p++ - '0');
            if (v > UINT32_MAX) {
                while (p < end && *p >= '0' && *p <= '9') p++;
                return gid_too_large(s, kind, num, (size_t)(p - num));
            }
        }
        if (sink_put(s, (uint32_t)v)) return -1;
        p = skip_space(s, p, end);
        if (p == end) break;
        if (*p != ',') {
            at_cell(s);
            return fail(s->d, "%s: %s'%c' after a tile number (expected a comma)", s->what, kind,
                        (*p >= 32 && *p < 127) ? *p : '?');
        }
        p++;
    }
    return 0;
}

static int b64val(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decode base64 (white space skipped) into a new buffer. */
static int b64_decode(sink *s, const char *p, const char *end, unsigned char **out, size_t *n)
{
    size_t cap = (size_t)(end - p) / 4 * 3 + 3, k = 0;
    unsigned char *b = malloc(cap ? cap : 1);
    if (!b) return fail(s->d, "out of memory");
    unsigned acc = 0;
    int bits = 0, pad = 0;
    for (; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (is_space((char)c)) continue;
        if (c == '=') {
            pad++;
            continue;
        }
        int v = b64val(c);
        if (v < 0 || pad) {
            free(b);
            return fail(s->d, "%s: bad base64 (character '%c')", s->what,
                        (c >= 32 && c < 127) ? c : '?');
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            b[k++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    if (bits >= 6 || pad > 2) {
        free(b);
        return fail(s->d, "%s: bad base64 (the data ends in the middle of a byte)", s->what);
    }
    *out = b;
    *n = k;
    return 0;
}

static int put_bytes(sink *s, const unsigned char *b, size_t n, unsigned char *carry, int *nc)
{
    size_t i = 0;
    while (*nc && i < n) { /* finish a gid split across two pieces */
        carry[(*nc)++] = b[i++];
        if (*nc == 4) {
            *nc = 0;
            if (sink_put(s, (uint32_t)carry[0] | (uint32_t)carry[1] << 8 |
                                (uint32_t)carry[2] << 16 | (uint32_t)carry[3] << 24))
                return -1;
        }
    }
    for (; i + 4 <= n; i += 4)
        if (sink_put(s, (uint32_t)b[i] | (uint32_t)b[i + 1] << 8 | (uint32_t)b[i + 2] << 16 |
                            (uint32_t)b[i + 3] << 24))
            return -1;
    for (; i < n; i++) {
        carry[(*nc)++] = b[i];
        if (*nc == 4) {
            *nc = 0;
            uint32_t g = (uint32_t)carry[0] | (uint32_t)carry[1] << 8 | (uint32_t)carry[2] << 16 |
                         (uint32_t)carry[3] << 24;
            if (sink_put(s, g)) return -1;
        }
    }
    return 0;
}

static int decode_b64(sink *s, const char *p, const char *end, int comp)
{
    unsigned char *b = NULL;
    size_t n = 0;
    if (b64_decode(s, p, end, &b, &n)) return -1;
    unsigned char carry[4];
    int nc = 0, rc = 0;
    size_t limit = s->n * 4;
    if (comp == CMP_NONE) {
        if (n != limit)
            rc = fail(s->d, "%s: %zu bytes of tile data, expected %zu (%zu tiles)", s->what, n,
                      limit, s->n);
        else
            rc = put_bytes(s, b, n, carry, &nc);
        free(b);
        return rc;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, comp == CMP_GZIP ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK) {
        free(b);
        return fail(s->d, "out of memory");
    }
    z.next_in = b;
    z.avail_in = (uInt)(n > UINT_MAX ? UINT_MAX : n);
    static const char *const cname[] = {"", "zlib", "gzip"};
    unsigned char out[65536];
    size_t total = 0;
    for (;;) {
        z.next_out = out;
        z.avail_out = sizeof out;
        int r = inflate(&z, Z_NO_FLUSH);
        size_t got = sizeof out - z.avail_out;
        if (r != Z_OK && r != Z_STREAM_END && !(r == Z_BUF_ERROR && got)) {
            rc = fail(s->d, "%s: bad %s data%s%s", s->what, cname[comp], z.msg ? ": " : "",
                      z.msg ? z.msg : (r == Z_BUF_ERROR ? " (it ends early)" : ""));
            break;
        }
        total += got;
        if (total > limit) {
            rc = fail(s->d,
                      "%s: the %s data inflates to more than the layer's %zu bytes (%zu tiles)",
                      s->what, cname[comp], limit, s->n);
            break;
        }
        if (put_bytes(s, out, got, carry, &nc)) {
            rc = -1;
            break;
        }
        if (r == Z_STREAM_END) {
            if (z.avail_in)
                rc = fail(s->d, "%s: data after the end of the %s stream", s->what, cname[comp]);
            else if (total != limit)
                rc = fail(s->d, "%s: %zu bytes of tile data, expected %zu (%zu tiles)", s->what,
                          total, limit, s->n);
            break;
        }
        if (got == 0 && z.avail_in == 0) {
            rc = fail(s->d, "%s: bad %s data (it ends early)", s->what, cname[comp]);
            break;
        }
    }
    inflateEnd(&z);
    free(b);
    return rc;
}

/* The cells of chunk c into s (decode_chunk). */
static int decode_cells(sink *s, doc *d, layer *L, chunk *c)
{
    int rc;
    if (d->fmt == TN_TILED_TMX) {
        char *text = (char *)xmlNodeGetContent((xmlNodePtr)c->node);
        const char *t = text ? text : "";
        const char *end = t + strlen(t);
        rc = L->enc == ENC_CSV ? decode_csv_text(s, t, end) : decode_b64(s, t, end, L->comp);
        xmlFree(text);
    } else {
        cJSON *data = jget((cJSON *)c->node, "data");
        if (L->enc == ENC_B64) {
            if (!cJSON_IsString(data))
                return fail(d, "%s: \"data\" is not a base64 string", s->what);
            rc = decode_b64(s, data->valuestring, data->valuestring + strlen(data->valuestring),
                            L->comp);
        } else {
            if (!cJSON_IsArray(data))
                return fail(d, "%s: \"data\" is not an array of tile numbers", s->what);
            cJSON *v = data->child;
            if (d->nspans && v && !v->next && cJSON_IsNumber(v) && v->valuedouble < 0) {
                /* a blanked array: decode the original text */
                long k = -(long)v->valuedouble - 1;
                if (k < 0 || k >= d->nspans)
                    return fail(d, "%s: internal error (tile array %ld)", s->what, k);
                rc = decode_csv_text(s, d->src + d->span_at[k],
                                     d->src + d->span_at[k] + d->span_len[k]);
                if (rc == 0 && s->i != s->n)
                    rc = fail(d, "%s holds %zu tiles, expected %zu", s->what, s->i, s->n);
                return rc;
            }
            rc = 0;
            cJSON_ArrayForEach(v, data)
            {
                double x = cJSON_IsNumber(v) ? v->valuedouble : -1;
                if (x > (double)UINT32_MAX && x < 1e300 && x == floor(x)) {
                    char num[32];
                    int n = snprintf(num, sizeof num, "%.0f", x);
                    rc = gid_too_large(s, "", num, (size_t)n);
                    break;
                }
                if (!(x >= 0 && x <= (double)UINT32_MAX) || x != floor(x)) {
                    at_cell(s);
                    rc = fail(d, "%s: \"data\" holds something other than a tile number", s->what);
                    break;
                }
                if ((rc = sink_put(s, (uint32_t)x))) break;
            }
        }
    }
    if (rc == 0 && s->i != s->n)
        rc = fail(d, "%s holds %zu tiles, expected %zu", s->what, s->i, s->n);
    return rc;
}

static int decode_chunk(doc *d, layer *L, chunk *c, tn_map *m, uint32_t *grid, uint8_t *covered)
{
    sink s;
    memset(&s, 0, sizeof s);
    s.d = d;
    s.L = L;
    s.c = c;
    s.m = m;
    s.grid = grid;
    s.covered = covered;
    s.n = (size_t)c->w * (size_t)c->h;
    if (d->infinite)
        snprintf(s.what, sizeof s.what, "layer '%s' chunk %lld,%lld", L->name, c->x, c->y);
    else
        snprintf(s.what, sizeof s.what, "layer '%s'", L->name);
    /* where its problems are: the <data> or <chunk> (CSV: the number's own
     * line, its text starting on the element's line); the "data" array */
    xmlNodePtr was = d->at;
    if (d->fmt == TN_TILED_TMX) {
        d->at = (xmlNodePtr)c->node;
        s.line = L->enc == ENC_CSV ? xmlGetLineNo(d->at) : 0;
        if (s.line < 0) s.line = 0;
    } else if (d->infinite) {
        jpath(s.base, sizeof s.base, L->path, ".chunks[%d].data", (int)(c - L->chunks));
    } else {
        jpath(s.base, sizeof s.base, L->path, ".data");
    }
    snprintf(d->at_path, sizeof d->at_path, "%s", s.base);
    int rc = decode_cells(&s, d, L, c);
    if (rc == 0) { /* back to where the messages pointed before */
        d->at = was;
        d->at_line = 0;
        d->at_path[0] = '\0';
    }
    return rc;
}

/* ------------------------------------------------------------ the map */

static void doc_free(doc *d)
{
    free(d->tids);
    free(d->cids);
    for (int i = 0; i < d->nlayers; i++) {
        free(d->layers[i].chunks);
        free(d->layers[i].grid);
        free(d->layers[i].covered);
    }
    free(d->layers);
    free(d->objs);
    for (int i = 0; i < d->ntpls; i++) {
        free(d->tpls[i].path);
        if (d->tpls[i].xdoc) xmlFreeDoc(d->tpls[i].xdoc);
        cJSON_Delete(d->tpls[i].json);
    }
    free(d->tpls);
    for (int i = 0; i < d->ntsrefs; i++) free(d->tsrefs[i].real);
    free(d->tsrefs);
    free(d->kinds);
    free(d->ranges);
    free(d->span_at);
    free(d->span_len);
    free(d->stamp);
    if (d->xdoc) xmlFreeDoc(d->xdoc);
    if (d->json) cJSON_Delete(d->json);
}

/* Parse buf as fmt into d (the tree and what was found in it). */
/* Loading a CSV .tmj would spend most of its time in cJSON making one
 * node per tile number (about 0.5 us each).  Before cJSON parses it, a
 * copy of the text gets every long "data" array of plain tile numbers
 * (digits, commas, white space only) replaced by a marker [-K] padded with
 * spaces (line breaks kept, so cJSON's error positions stay right); the
 * tiles are then read from the original text with the CSV decoder of
 * TMX.  Only string literals are lexed to find the "data" keys; cJSON
 * still parses (and validates) the whole document.  When any "data" array
 * starts with '-' (a marker could be ambiguous) nothing is blanked.  Saves
 * parse without this (they print the tree). */
/* True when s[0..n) is a valid JSON list of non-negative integers (what
 * goes between '[' and ']'): one comma between numbers, none before the
 * first or after the last, no leading zeros.  Anything else is left to
 * cJSON, which refuses it with its position. */
static bool json_uint_list(const char *s, size_t n)
{
    size_t i = 0;
    for (;;) {
        while (i < n && is_space(s[i])) i++;
        if (i >= n || s[i] < '0' || s[i] > '9') return false; /* a number must come */
        if (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9') return false;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        while (i < n && is_space(s[i])) i++;
        if (i >= n) return true;
        if (s[i] != ',') return false;
        i++;
    }
}

static char *blank_arrays(doc *d, const char *buf, size_t len)
{
    char *copy = NULL;
    bool conflict = false;
    for (size_t i = 0; i < len && !conflict;) {
        if (buf[i] != '"') {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < len && buf[j] != '"') j += buf[j] == '\\' ? 2 : 1;
        if (j >= len) break;
        bool is_data = j - i - 1 == 4 && memcmp(buf + i + 1, "data", 4) == 0;
        i = j + 1;
        if (!is_data) continue;
        size_t k = i;
        while (k < len && is_space(buf[k])) k++;
        if (k >= len || buf[k] != ':') continue;
        k++;
        while (k < len && is_space(buf[k])) k++;
        if (k >= len || buf[k] != '[') continue;
        size_t p = k + 1;
        while (p < len && is_space(buf[p])) p++;
        if (p < len && buf[p] == '-') conflict = true;
        while (p < len && ((buf[p] >= '0' && buf[p] <= '9') || buf[p] == ',' || is_space(buf[p])))
            p++;
        if (p >= len || buf[p] != ']' || p - k < 64) continue;
        if (!json_uint_list(buf + k + 1, p - k - 1)) continue; /* cJSON says where */
        if (!copy && !(copy = malloc(len ? len : 1))) break;
        if (!grow((void **)&d->span_at, &d->capspans, d->nspans + 1, sizeof(size_t))) break;
        size_t *nl = realloc(d->span_len, (size_t)d->capspans * sizeof(size_t)); /* alike */
        if (!nl) break;
        d->span_len = nl;
        if (d->nspans == 0) memcpy(copy, buf, len);
        d->span_at[d->nspans] = k + 1;
        d->span_len[d->nspans] = p - k - 1;
        char marker[32];
        int mn = snprintf(marker, sizeof marker, "[-%d]", d->nspans + 1);
        d->nspans++;
        for (size_t q = k; q <= p; q++)
            if (copy[q] != '\n' && copy[q] != '\r') copy[q] = ' ';
        memcpy(copy + k, marker, (size_t)mn); /* p - k >= 64: it fits, and no line break is lost */
        for (size_t q = k; q < k + (size_t)mn; q++)
            if (buf[q] == '\n' || buf[q] == '\r')
                conflict = true; /* keep it simple: no fast path */
        i = p + 1;
    }
    if (conflict || d->nspans == 0) {
        free(copy);
        d->nspans = 0;
        return NULL;
    }
    d->src = buf;
    return copy;
}

static int doc_read(doc *d, const char *buf, size_t len, const char *path, int fmt, char *err,
                    size_t cap, bool fast)
{
    memset(d, 0, sizeof *d);
    d->fmt = fmt;
    d->name = path;
    d->err = err;
    d->cap = cap;
    file_dir(path, d->dir, sizeof d->dir);
    if (fmt == TN_TILED_TMX) {
        d->xdoc = xml_parse(d, buf, len, NULL);
        if (!d->xdoc) return -1;
        return tmx_scan(d);
    }
    char *copy = fast ? blank_arrays(d, buf, len) : NULL;
    d->json = json_parse(d, copy ? copy : buf, len, NULL, !fast);
    free(copy);
    if (!d->json) return -1;
    return tmj_scan(d);
}

/* A layer offset (px, its groups' added) in whole tiles of `tile` px:
 * true with the count in *n (at most 2^30 each way), else false. */
static bool whole_tiles(double off, long long tile, long long *n)
{
    double q = off / (double)tile;
    *n = 0;
    if (!(fabs(q) <= (double)(1LL << 30)) || q != floor(q) || q * (double)tile != off) return false;
    *n = (long long)q;
    return true;
}

/* The map bounds (infinite: the chunks' bounding box), checked before
 * anything is decoded. */
static int doc_bounds(doc *d)
{
    /* A tile layer drawn a whole number of tiles off the grid has its cells
     * on the tiles they are drawn on; any other offset is refused for
     * terrain (sink_put). */
    for (int i = 0; i < d->nlayers; i++) {
        layer *L = &d->layers[i];
        if (!whole_tiles(L->offx, d->tw, &L->sx) || !whole_tiles(L->offy, d->th, &L->sy)) {
            L->sx = L->sy = 0;
            L->frac = true;
        }
    }
    if (!d->infinite) return 0;
    /* an infinite map is the bounding box of all chunks, where drawn */
    long long x0 = LLONG_MAX, y0 = LLONG_MAX, x1 = LLONG_MIN, y1 = LLONG_MIN;
    for (int i = 0; i < d->nlayers; i++) {
        const layer *L = &d->layers[i];
        for (int k = 0; k < L->nchunks; k++) {
            const chunk *c = &L->chunks[k];
            if (c->x + L->sx < x0) x0 = c->x + L->sx;
            if (c->y + L->sy < y0) y0 = c->y + L->sy;
            if (c->x + L->sx + c->w > x1) x1 = c->x + L->sx + c->w;
            if (c->y + L->sy + c->h > y1) y1 = c->y + L->sy + c->h;
        }
    }
    if (x0 == LLONG_MAX) return fail(d, "the infinite map has no tile chunks");
    d->ox = x0;
    d->oy = y0;
    d->w = x1 - x0;
    d->h = y1 - y0;
    for (int i = 0; i < d->nlayers; i++) { /* each layer's grid: where map cell 0,0 is */
        d->layers[i].gx0 = d->ox - d->layers[i].sx;
        d->layers[i].gy0 = d->oy - d->layers[i].sy;
    }
    return check_size(d, "the chunks' bounding box", d->w, d->h);
}

/* Messages about object o point at it. */
static bool at_object(doc *d, const object *o)
{
    if (d->fmt == TN_TILED_TMX)
        d->at = o->node;
    else
        snprintf(d->at_path, sizeof d->at_path, "%s", o->path);
    return true;
}

static int snap_objects(doc *d)
{
    for (int i = 0; i < d->nobjs; i++) {
        object *o = &d->objs[i];
        double cx = o->x, cy = o->y;
        const char *placed = NULL; /* where it is placed, when not at its x,y */
        if (o->has_gid) {          /* x,y is where its tileset's objectalignment says */
            int8_t ax = 0, ay = 2;
            if (gid_known(d, o->gid & GID_MASK)) {
                ax = d->ranges[d->rlast].ax;
                ay = d->ranges[d->rlast].ay;
            }
            cx = o->x + o->w * (1 - ax) / 2;
            cy = o->y + o->h * (1 - ay) / 2;
            placed = "the middle of its tile";
        } else if (o->poly) { /* the middle of its points' bounding box */
            cx = o->x + (o->px0 + o->px1) / 2;
            cy = o->y + (o->py0 + o->py1) / 2;
            placed = "the middle of its points' bounding box";
        } else if (!o->point) {
            cx = o->x + o->w / 2;
            cy = o->y + o->h / 2;
            placed = "its middle";
        }
        double ux = cx, uy = cy; /* where it is placed, before its layer's offset */
        cx += o->gx;             /* drawn shifted by its layer's (and groups') offset */
        cy += o->gy;
        double fx = floor(cx / (double)d->tw) - (double)d->ox,
               fy = floor(cy / (double)d->th) - (double)d->oy;
        if (!(fx >= 0 && fy >= 0 && fx < (double)d->w && fy < (double)d->h) && at_object(d, o)) {
            /* say where it was placed and why, when that is not its x,y */
            char why[160] = "";
            if (placed && (ux != o->x || uy != o->y))
                snprintf(why, sizeof why, ", placed at %g,%g (%s),", ux, uy, placed);
            if (o->gx != 0 || o->gy != 0)
                return fail(d,
                            "object %lld (%s) at %g,%g%s is outside the map (drawn %g,%g further "
                            "by its layer's offsetx/offsety)",
                            o->id, CLASS_NAME[o->mark], o->x, o->y, why, o->gx, o->gy);
            return fail(d, "object %lld (%s) at %g,%g%s is outside the map", o->id,
                        CLASS_NAME[o->mark], o->x, o->y, why);
        }
        o->tx = (int)fx;
        o->ty = (int)fy;
    }
    return 0;
}

static int place_objects(doc *d, tn_map *m)
{
    for (int i = 0; i < d->nobjs; i++) {
        object *o = &d->objs[i];
        size_t idx = (size_t)o->ty * (size_t)m->w + (size_t)o->tx;
        int t = m->tile[idx];
        at_object(d, o);
        if (t != TN_TILE_EMPTY && o->mark != MARK_START) /* a start may be under a block */
            return fail(d, "object %lld (%s) is on a %s at tile %d,%d", o->id, CLASS_NAME[o->mark],
                        t == TN_TILE_BLOCK ? "block" : "one-way platform", o->tx, o->ty);
        for (int j = 0; j < i; j++) {
            const object *p = &d->objs[j];
            if (p->tx == o->tx && p->ty == o->ty)
                return fail(d, "object %lld (%s) is on the same tile %d,%d as object %lld (%s)",
                            o->id, CLASS_NAME[o->mark], o->tx, o->ty, p->id, CLASS_NAME[p->mark]);
            if (o->mark == MARK_START && p->mark == MARK_START)
                return fail(d, "object %lld is a second start (the first is object %lld)", o->id,
                            p->id);
        }
        if (o->mark == MARK_START) {
            m->start_x = o->tx;
            m->start_y = o->ty;
        } else {
            m->mark[idx] = (uint8_t)o->mark;
        }
    }
    return 0;
}

static int doc_map(doc *d, tn_map **out)
{
    *out = NULL;
    if (doc_bounds(d)) return -1;
    if (d->nlayers == 0) return fail(d, "the map has no tile layer");
    /* Chunks may overlap: bound the work, not only the map. */
    unsigned long long total = 0;
    for (int i = 0; i < d->nlayers; i++)
        for (int k = 0; k < d->layers[i].nchunks; k++)
            total += (unsigned long long)d->layers[i].chunks[k].w *
                     (unsigned long long)d->layers[i].chunks[k].h;
    if (total > TILES_MAX)
        return fail(d, "the layers hold %llu tiles in all, more than the %llu the game reads",
                    total, (unsigned long long)TILES_MAX);
    if (d->infinite && d->nlayers > 65535) return fail(d, "more than 65535 tile layers");
    tn_error e;
    tn_map *m = NULL;
    tn_map_create((int)d->w, (int)d->h, NULL, &m, &e);
    if (!m) return fail(d, "%s", e.msg);
    if (d->infinite && !(d->stamp = calloc((size_t)d->w * (size_t)d->h, sizeof *d->stamp))) {
        tn_map_destroy(m);
        return fail(d, "out of memory");
    }
    for (int i = 0; i < d->nlayers; i++)
        for (int k = 0; k < d->layers[i].nchunks; k++)
            if (decode_chunk(d, &d->layers[i], &d->layers[i].chunks[k], m, NULL, NULL)) {
                tn_map_destroy(m);
                return -1;
            }
    if (snap_objects(d) || place_objects(d, m)) {
        tn_map_destroy(m);
        return -1;
    }
    /* loaded: later messages (a save's) are about no element */
    d->at = NULL;
    d->at_path[0] = '\0';
    *out = m;
    return 0;
}

int tn_tiled_load_buffer(const char *buf, size_t len, const char *path, int fmt, tn_map **out,
                         char *err, size_t cap)
{
    doc d;
    *out = NULL;
    int rc = doc_read(&d, buf, len, path, fmt, err, cap, true);
    if (rc == 0) rc = doc_map(&d, out);
    doc_free(&d);
    return rc;
}

int tn_tiled_load(const char *path, tn_map **out, char *err, size_t cap)
{
    tn_origin held;
    int rc = tn_tiled_load_held(path, out, &held, err, cap);
    if (rc == 0) tn_origin_keep(&held); /* a save over it checks it */
    return rc;
}

int tn_tiled_too_big(const char *path, unsigned long long size, bool saving, char *err, size_t cap)
{
    if (size <= TN_TILED_FILE_MAX) return 0;
    snprintf(err, cap,
             "%s: %s %llu bytes, more than the %llu bytes (%llu MiB: 4096x4096 tiles as CSV) the "
             "game reads from a Tiled map%s; in Tiled, set the tile layer format to Base64 (zlib "
             "compressed), which is much smaller",
             path, saving ? "not saved: the document would be" : "the file is", size,
             (unsigned long long)TN_TILED_FILE_MAX, (unsigned long long)(TN_TILED_FILE_MAX >> 20),
             saving ? " (a larger file would not load again)" : "");
    return -1;
}

/* A Tiled map file, up to TN_TILED_FILE_MAX bytes (a larger one is refused
 * before it is read, naming the limit). */
static int read_map_file(const char *path, char **buf, size_t *len, char *err, size_t cap)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        tn_tiled_too_big(path, (unsigned long long)st.st_size, false, err, cap))
        return -1;
    return tn_read_file(path, TN_TILED_FILE_MAX, buf, len, err, cap);
}

int tn_tiled_load_held(const char *path, tn_map **out, tn_origin *held, char *err, size_t cap)
{
    char *buf;
    size_t len;
    *out = NULL;
    held->key = held->name = NULL;
    int fmt = tn_tiled_kind(path);
    if (!fmt) {
        snprintf(err, cap, "%s: not a Tiled map name (.tmx, .tmj or .json)", path);
        return -1;
    }
    if (read_map_file(path, &buf, &len, err, cap) != 0) return -1;
    int rc = tn_tiled_load_buffer(buf, len, path, fmt, out, err, cap);
    if (rc == 0) tn_origin_make(held, path, buf, len);
    free(buf);
    return rc;
}

/* ------------------------------------------------------------ encoding */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    bool oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->n + n + 1) nc *= 2;
        char *q = realloc(b->p, nc);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_fmt(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void sb_fmt(sbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) sb_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void sb_u32(sbuf *b, uint32_t v)
{
    char tmp[12];
    int k = 11;
    tmp[k] = '\0';
    do {
        tmp[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sb_put(b, tmp + k, (size_t)(11 - k));
}

static void b64_encode(sbuf *b, const unsigned char *in, size_t n)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char q[4];
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16;
        if (i + 1 < n) v |= (unsigned)in[i + 1] << 8;
        if (i + 2 < n) v |= in[i + 2];
        q[0] = A[v >> 18 & 63];
        q[1] = A[v >> 12 & 63];
        q[2] = i + 1 < n ? A[v >> 6 & 63] : '=';
        q[3] = i + 2 < n ? A[v & 63] : '=';
        sb_put(b, q, 4);
    }
}

/* The cells' gids as text: CSV rows (TMX; `json` = one line) or base64. */
static int encode_gids(doc *d, const uint32_t *g, int w, int h, int enc, int comp, sbuf *out)
{
    size_t n = (size_t)w * (size_t)h;
    if (enc == ENC_CSV) {
        for (size_t i = 0; i < n; i++) {
            sb_u32(out, g[i]);
            if (i + 1 < n)
                sb_put(out, (i + 1) % (size_t)w ? "," : ",\n", (i + 1) % (size_t)w ? 1 : 2);
        }
        return out->oom ? fail(d, "out of memory") : 0;
    }
    unsigned char *raw = malloc(n * 4);
    if (!raw) return fail(d, "out of memory");
    for (size_t i = 0; i < n; i++) {
        raw[4 * i] = (unsigned char)g[i];
        raw[4 * i + 1] = (unsigned char)(g[i] >> 8);
        raw[4 * i + 2] = (unsigned char)(g[i] >> 16);
        raw[4 * i + 3] = (unsigned char)(g[i] >> 24);
    }
    if (comp == CMP_NONE) {
        b64_encode(out, raw, n * 4);
        free(raw);
        return out->oom ? fail(d, "out of memory") : 0;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, d->zlevel, Z_DEFLATED, comp == CMP_GZIP ? 16 + MAX_WBITS : MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        free(raw);
        return fail(d, "out of memory");
    }
    uLong bound = deflateBound(&z, (uLong)(n * 4));
    unsigned char *zb = malloc(bound);
    int r = Z_MEM_ERROR;
    if (zb) {
        z.next_in = raw;
        z.avail_in = (uInt)(n * 4);
        z.next_out = zb;
        z.avail_out = (uInt)bound;
        r = deflate(&z, Z_FINISH);
    }
    if (r == Z_STREAM_END) b64_encode(out, zb, bound - z.avail_out);
    deflateEnd(&z);
    free(zb);
    free(raw);
    if (r != Z_STREAM_END || out->oom) return fail(d, "out of memory while compressing");
    return 0;
}

static int encode_chunk(doc *d, layer *L, chunk *c, bool fresh)
{
    size_t n = (size_t)c->w * (size_t)c->h;
    uint32_t *g = malloc(n * sizeof *g);
    if (!g) return fail(d, "out of memory");
    for (int r = 0; r < c->h; r++)
        for (int q = 0; q < c->w; q++)
            g[(size_t)r * (size_t)c->w + (size_t)q] =
                L->grid[(size_t)(c->y - L->gy0 + r) * (size_t)d->w + (size_t)(c->x - L->gx0 + q)];
    int rc = 0;
    if (d->fmt == TN_TILED_TMX) {
        /* Keep the white space around the old text (Tiled's layout). */
        char *old = fresh ? NULL : (char *)xmlNodeGetContent((xmlNodePtr)c->node);
        const char *o = old ? old : "\n";
        size_t lead = 0, len = strlen(o), trail = 0;
        while (lead < len && is_space(o[lead])) lead++;
        while (trail < len - lead && is_space(o[len - 1 - trail])) trail++;
        sbuf b = {0};
        sb_put(&b, o, lead);
        rc = encode_gids(d, g, c->w, c->h, L->enc, L->comp, &b);
        sb_put(&b, fresh ? "\n" : o + len - trail, fresh ? 1 : trail);
        if (!rc && b.oom) rc = fail(d, "out of memory");
        if (!rc) xmlNodeSetContent((xmlNodePtr)c->node, (const xmlChar *)b.p);
        free(b.p);
        xmlFree(old);
    } else if (L->enc == ENC_B64) {
        sbuf b = {0};
        rc = encode_gids(d, g, c->w, c->h, L->enc, L->comp, &b);
        cJSON *s = rc ? NULL : cJSON_CreateString(b.p ? b.p : "");
        if (!rc && (!s || !cJSON_ReplaceItemInObjectCaseSensitive((cJSON *)c->node, "data", s))) {
            cJSON_Delete(s);
            rc = fail(d, "out of memory");
        }
        free(b.p);
    } else {
        cJSON *a = cJSON_CreateArray();
        for (size_t i = 0; a && i < n; i++) {
            cJSON *v = cJSON_CreateNumber((double)g[i]);
            if (!v || !cJSON_AddItemToArray(a, v)) {
                cJSON_Delete(v);
                cJSON_Delete(a);
                a = NULL;
            }
        }
        if (!a || !cJSON_ReplaceItemInObjectCaseSensitive((cJSON *)c->node, "data", a)) {
            cJSON_Delete(a);
            rc = fail(d, "out of memory");
        }
    }
    free(g);
    return rc;
}

/* ------------------------------------------------------------ patching */

static bool grid_cell(const doc *d, const layer *L, size_t i, size_t *j);

/* gid (a block or a one-way platform, as `want` says) into the cell of L
 * drawn on map cell i. */
static int put_cell(doc *d, layer *L, size_t i, uint32_t gid, int want)
{
    size_t j;
    if (!grid_cell(d, L, i, &j))
        return fail(d,
                    "cannot save a %s at %zu,%zu: layer '%s', where it goes, is drawn "
                    "%lld,%lld tiles off by its offsetx/offsety and has no cell there: move "
                    "the layer back in Tiled, or add a tile layer without an offset",
                    want == TN_TILE_BLOCK ? "block" : "one-way platform", i % (size_t)d->w,
                    i / (size_t)d->w, L->name, L->sx, L->sy);
    L->grid[j] = gid;
    L->dirty = true;
    if (L->covered && !L->covered[j]) L->grew = true;
    if (L->covered && L->covered[j]) L->covered[j] |= 2; /* (a new chunk's: encoded anew) */
    return 0;
}

/* Whether the save changed a cell of chunk c (a finite map's layer: any
 * cell).  Only those chunks are encoded anew: the others keep their text
 * byte for byte (a one-tile edit of a 2048x2048 map of 16x16 base64+zlib
 * chunks re-encoded all 16,384: 0.8-1.3 s of a 2-3 s save; and a chunk
 * Tiled compressed at another level, or with another gzip header, came
 * back changed in a diff). */
static bool chunk_changed(const doc *d, const layer *L, const chunk *c)
{
    if (!L->covered) return true;
    for (int r = 0; r < c->h; r++) {
        const uint8_t *row =
            L->covered + (size_t)(c->y - L->gy0 + r) * (size_t)d->w + (size_t)(c->x - L->gx0);
        for (int q = 0; q < c->w; q++)
            if (row[q] & 2) return true;
    }
    return false;
}

/* A new chunk (infinite maps) over [x0,x1) x [y0,y1), Tiled coordinates. */
static int new_chunk(doc *d, layer *L, long long x0, long long y0, long long x1, long long y1)
{
    void *node;
    if (d->fmt == TN_TILED_TMX) {
        xmlNodePtr c = xmlNewChild((xmlNodePtr)L->data, NULL, (const xmlChar *)"chunk", NULL);
        if (!c) return fail(d, "out of memory");
        char v[32];
        snprintf(v, sizeof v, "%lld", x0);
        xmlSetProp(c, (const xmlChar *)"x", (const xmlChar *)v);
        snprintf(v, sizeof v, "%lld", y0);
        xmlSetProp(c, (const xmlChar *)"y", (const xmlChar *)v);
        snprintf(v, sizeof v, "%lld", x1 - x0);
        xmlSetProp(c, (const xmlChar *)"width", (const xmlChar *)v);
        snprintf(v, sizeof v, "%lld", y1 - y0);
        xmlSetProp(c, (const xmlChar *)"height", (const xmlChar *)v);
        node = c;
    } else {
        cJSON *chunks = jget((cJSON *)L->node, "chunks");
        if (!chunks) {
            chunks = cJSON_AddArrayToObject((cJSON *)L->node, "chunks");
            if (!chunks) return fail(d, "out of memory");
        }
        cJSON *c = cJSON_CreateObject();
        if (!c || !cJSON_AddArrayToObject(c, "data") ||
            !cJSON_AddNumberToObject(c, "height", (double)(y1 - y0)) ||
            !cJSON_AddNumberToObject(c, "width", (double)(x1 - x0)) ||
            !cJSON_AddNumberToObject(c, "x", (double)x0) ||
            !cJSON_AddNumberToObject(c, "y", (double)y0) || !cJSON_AddItemToArray(chunks, c)) {
            cJSON_Delete(c);
            return fail(d, "out of memory");
        }
        node = c;
    }
    if (add_chunk(d, L, x0, y0, x1 - x0, y1 - y0, node)) return -1;
    for (long long y = y0; y < y1; y++)
        for (long long x = x0; x < x1; x++)
            L->covered[(size_t)(y - L->gy0) * (size_t)d->w + (size_t)(x - L->gx0)] = 1;
    return 0;
}

/* Cover written cells outside every chunk with new chunks: one per
 * 16x16-aligned block (clipped to the map), or per row run where a block
 * is partly covered already. */
static int grow_layer(doc *d, layer *L)
{
    /* in the layer's own Tiled cells: its grid starts at gx0,gy0 */
    const long long ox = L->gx0, oy = L->gy0;
    long long bx0 = (long long)floor((double)ox / 16) * 16,
              by0 = (long long)floor((double)oy / 16) * 16;
    int first_new = L->nchunks;
    for (long long by = by0; by < oy + d->h; by += 16) {
        for (long long bx = bx0; bx < ox + d->w; bx += 16) {
            long long x0 = bx < ox ? ox : bx, y0 = by < oy ? oy : by;
            long long x1 = bx + 16 > ox + d->w ? ox + d->w : bx + 16;
            long long y1 = by + 16 > oy + d->h ? oy + d->h : by + 16;
            bool need = false, partly = false;
            for (long long y = y0; y < y1; y++)
                for (long long x = x0; x < x1; x++) {
                    size_t i = (size_t)(y - oy) * (size_t)d->w + (size_t)(x - ox);
                    if (L->covered[i])
                        partly = true;
                    else if (L->grid[i])
                        need = true;
                }
            if (!need) continue;
            if (!partly) {
                if (new_chunk(d, L, x0, y0, x1, y1)) return -1;
                continue;
            }
            for (long long y = y0; y < y1; y++) {
                long long x = x0;
                while (x < x1) {
                    size_t i = (size_t)(y - oy) * (size_t)d->w + (size_t)(x - ox);
                    if (L->covered[i]) {
                        x++;
                        continue;
                    }
                    long long e = x;
                    while (e < x1 &&
                           !L->covered[(size_t)(y - oy) * (size_t)d->w + (size_t)(e - ox)])
                        e++;
                    if (new_chunk(d, L, x, y, e, y + 1)) return -1;
                    x = e;
                }
            }
        }
    }
    for (int k = first_new; k < L->nchunks; k++)
        if (encode_chunk(d, L, &L->chunks[k], true)) return -1;
    if (d->fmt == TN_TILED_TMJ) { /* the layer's own bounds */
        long long x0 = LLONG_MAX, y0 = LLONG_MAX, x1 = LLONG_MIN, y1 = LLONG_MIN;
        for (int k = 0; k < L->nchunks; k++) {
            const chunk *c = &L->chunks[k];
            if (c->x < x0) x0 = c->x;
            if (c->y < y0) y0 = c->y;
            if (c->x + c->w > x1) x1 = c->x + c->w;
            if (c->y + c->h > y1) y1 = c->y + c->h;
        }
        cJSON *n = L->node;
        const char *keys[] = {"startx", "starty", "width", "height"};
        long long vals[] = {x0, y0, x1 - x0, y1 - y0};
        for (int k = 0; k < 4; k++) {
            cJSON *v = cJSON_CreateNumber((double)vals[k]);
            if (!v) return fail(d, "out of memory");
            if (jget(n, keys[k]))
                cJSON_ReplaceItemInObjectCaseSensitive(n, keys[k], v);
            else
                cJSON_AddItemToObject(n, keys[k], v);
        }
    }
    return 0;
}

/* The cell of L's grid drawn on map cell i (a layer offset in whole
 * tiles moves it): false when L has none there (a finite map's layer
 * shifted away from that side of the map). */
static bool grid_cell(const doc *d, const layer *L, size_t i, size_t *j)
{
    long long mx = (long long)(i % (size_t)d->w), my = (long long)(i / (size_t)d->w);
    long long gx = mx + d->ox - L->sx - L->gx0, gy = my + d->oy - L->sy - L->gy0;
    if (gx < 0 || gy < 0 || gx >= d->w || gy >= d->h) return false;
    *j = (size_t)gy * (size_t)d->w + (size_t)gx;
    return true;
}

static int patch_terrain(doc *d, const tn_map *old, const tn_map *m)
{
    size_t cells = (size_t)d->w * (size_t)d->h;
    /* New blocks go into the terrain layer: the tile layer not named
     * "oneway" that holds the most blocks (the first of them on a tie, or
     * when none holds any), not a background layer that happens to come
     * first, and never one drawn off the grid (offsetx/offsety, its
     * groups' included, not whole tiles): a block there would not sit on
     * its tile, and the save's read-back refuses it.  A layer offset by
     * whole tiles gets its blocks on the cell drawn on the tile. */
    layer *T = NULL, *O = NULL;
    const layer *shifted = NULL; /* the first such layer skipped */
    size_t most = 0;
    for (int i = 0; i < d->nlayers; i++) {
        layer *L = &d->layers[i];
        if (!O && L->oneway && !L->frac) O = L; /* (one drawn off the grid: as below) */
        L->grid = calloc(cells, sizeof *L->grid);
        L->covered = d->infinite ? calloc(cells, 1) : NULL;
        if (!L->grid || (d->infinite && !L->covered)) return fail(d, "out of memory");
        for (int k = 0; k < L->nchunks; k++)
            if (decode_chunk(d, L, &L->chunks[k], NULL, L->grid, L->covered)) return -1;
        if (L->frac) {
            if (!shifted) shifted = L;
            continue;
        }
        if (L->oneway) continue;
        size_t blocks = 0;
        for (size_t c = 0; c < cells; c++) {
            if (!(L->grid[c] & GID_MASK)) continue;
            int k = gid_kind(d, L->grid[c]);
            blocks += k == K_BLOCK || k == K_UNSET;
        }
        if (!T || blocks > most) {
            T = L;
            most = blocks;
        }
    }
    d->at = d->xmap; /* a message is about the map as a whole */
    d->at_line = 0;
    d->at_path[0] = '\0';
    for (size_t i = 0; i < cells; i++) {
        if (old->tile[i] == m->tile[i]) continue;
        for (int k = 0; k < d->nlayers; k++) {
            layer *L = &d->layers[k];
            size_t j;
            if (grid_cell(d, L, i, &j) && L->grid[j] && gid_kind(d, L->grid[j]) != K_NONE) {
                L->grid[j] = 0;
                L->dirty = true;
                if (L->covered) L->covered[j] |= 2;
            }
        }
        int want = m->tile[i];
        if (want != TN_TILE_EMPTY && !T && shifted && !(want == TN_TILE_ONEWAY && O))
            return fail(d,
                        "cannot save a %s: every tile layer other than 'oneway' is drawn "
                        "off the grid (layer '%s': offsetx/offsety %g,%g px, its groups' "
                        "included, not whole tiles), where it would not sit on its tile: add "
                        "a tile layer without an offset in Tiled",
                        want == TN_TILE_BLOCK ? "block" : "one-way platform", shifted->name,
                        shifted->offx, shifted->offy);
        if (want == TN_TILE_BLOCK) {
            if (d->block_gid) {
                if (put_cell(d, T ? T : O, i, d->block_gid, want)) return -1;
            } else if (d->plain_gid && T) {
                if (put_cell(d, T, i, d->plain_gid, want)) return -1;
            } else {
                return fail(d, "cannot save a block: %s",
                            T ? "no tileset has a tile that is a block (kind=block, or a tile "
                                "without kind; an image collection holds only the tiles it "
                                "lists): add one in Tiled"
                              : "no tile has kind=block and no tile layer other than 'oneway' "
                                "exists");
            }
        } else if (want == TN_TILE_ONEWAY) {
            if (d->oneway_gid) {
                if (put_cell(d, T ? T : O, i, d->oneway_gid, want)) return -1;
            } else if (d->plain_gid && O) {
                if (put_cell(d, O, i, d->plain_gid, want)) return -1;
            } else {
                return fail(d, "cannot save a one-way platform: no tile has kind=oneway and no "
                               "layer is named 'oneway'");
            }
        }
    }
    for (int k = 0; k < d->nlayers; k++) {
        layer *L = &d->layers[k];
        if (!L->dirty) continue;
        int n0 = L->nchunks;
        for (int c = 0; c < n0; c++)
            if (chunk_changed(d, L, &L->chunks[c]) && encode_chunk(d, L, &L->chunks[c], false))
                return -1;
        if (L->grew && grow_layer(d, L)) return -1;
    }
    return 0;
}

static void tmx_remove(xmlNodePtr n)
{
    xmlNodePtr prev = n->prev;
    if (prev && prev->type == XML_TEXT_NODE && xmlIsBlankNode(prev)) {
        xmlUnlinkNode(prev);
        xmlFreeNode(prev);
    }
    xmlUnlinkNode(n);
    xmlFreeNode(n);
}

static void tmx_append(xmlNodePtr parent, xmlNodePtr n, const char *indent)
{
    xmlNodePtr last = parent->last;
    if (last && last->type == XML_TEXT_NODE && xmlIsBlankNode(last)) {
        /* (adding text next to text merges the two: the element first) */
        xmlAddPrevSibling(last, n);
        xmlAddPrevSibling(n, xmlNewText((const xmlChar *)indent));
    } else {
        xmlAddChild(parent, xmlNewText((const xmlChar *)indent));
        xmlAddChild(parent, n);
    }
}

/* The map's nextobjectid / nextlayerid; `def` when absent or not a whole
 * number in 1..INT_MAX (the loader does not need them, so it let them be). */
static long long next_id(doc *d, const char *key, long long def)
{
    long long v = def;
    if (d->fmt == TN_TILED_TMX) {
        char *s = xattr(d->xmap, key);
        if (!s || !parse_ll(s, &v) || v < 1 || v > INT_MAX) v = def;
        xmlFree(s);
    } else {
        cJSON *j = jget(d->json, key);
        double x = cJSON_IsNumber(j) ? j->valuedouble : 0;
        v = x >= 1 && x <= INT_MAX && x == floor(x) ? (long long)x : def;
    }
    return v;
}

static int patch_objects(doc *d, const tn_map *m)
{
    size_t cells = (size_t)d->w * (size_t)d->h;
    uint8_t *want = malloc(cells);
    if (!want) return fail(d, "out of memory");
    memcpy(want, m->mark, cells);
    /* a start outside the map (a caller's tn_map breaking its rule) is
     * left out, as the tilenav format's save leaves it out */
    if (m->start_x >= 0 && m->start_x < m->w && m->start_y >= 0 && m->start_y < m->h)
        want[(size_t)m->start_y * (size_t)m->w + (size_t)m->start_x] = MARK_START;
    /* New objects say "type" (every Tiled version reads it) unless the
     * map's first game object says "class". */
    bool use_type = !(d->nobjs && d->objs[0].used_class);
    void *group = d->nobjs ? d->objs[0].group : d->first_ogroup;
    /* that layer's offset (and its groups'): a new object is drawn there */
    double gox = d->nobjs ? d->objs[0].gx : group ? d->fog_x : 0;
    double goy = d->nobjs ? d->objs[0].gy : group ? d->fog_y : 0;
    for (int i = 0; i < d->nobjs; i++) {
        object *o = &d->objs[i];
        size_t idx = (size_t)o->ty * (size_t)d->w + (size_t)o->tx;
        if (want[idx] == o->mark) {
            want[idx] = 0;
            continue;
        }
        if (d->fmt == TN_TILED_TMX)
            tmx_remove((xmlNodePtr)o->node);
        else
            cJSON_Delete(
                cJSON_DetachItemViaPointer(jget((cJSON *)o->group, "objects"), (cJSON *)o->node));
    }
    long long next;
    int rc = 0;
    next = next_id(d, "nextobjectid", 0);
    if (rc) {
        free(want);
        return -1;
    }
    if (next <= d->max_object_id) next = d->max_object_id + 1;
    const char *cls_key = use_type ? "type" : "class";
    for (size_t i = 0; i < cells && rc == 0; i++) {
        if (!want[i]) continue;
        if (!group) { /* a new object layer "tilenav" */
            long long lid;
            if (d->fmt == TN_TILED_TMX) {
                lid = next_id(d, "nextlayerid", 1000);
                xmlNodePtr g = xmlNewNode(NULL, (const xmlChar *)"objectgroup");
                char v[32];
                snprintf(v, sizeof v, "%lld", lid);
                xmlSetProp(g, (const xmlChar *)"id", (const xmlChar *)v);
                xmlSetProp(g, (const xmlChar *)"name", (const xmlChar *)"tilenav");
                tmx_append(d->xmap, g, "\n ");
                snprintf(v, sizeof v, "%lld", lid + 1);
                if (xmlHasProp(d->xmap, (const xmlChar *)"nextlayerid"))
                    xmlSetProp(d->xmap, (const xmlChar *)"nextlayerid", (const xmlChar *)v);
                group = g;
            } else {
                lid = next_id(d, "nextlayerid", 1000);
                cJSON *layers = jget(d->json, "layers");
                if (!layers) layers = cJSON_AddArrayToObject(d->json, "layers");
                cJSON *g = cJSON_CreateObject();
                cJSON_AddStringToObject(g, "draworder", "topdown");
                cJSON_AddNumberToObject(g, "id", (double)lid);
                cJSON_AddStringToObject(g, "name", "tilenav");
                cJSON_AddArrayToObject(g, "objects");
                cJSON_AddNumberToObject(g, "opacity", 1);
                cJSON_AddStringToObject(g, "type", "objectgroup");
                cJSON_AddTrueToObject(g, "visible");
                cJSON_AddNumberToObject(g, "x", 0);
                cJSON_AddNumberToObject(g, "y", 0);
                cJSON_AddItemToArray(layers, g);
                if (jget(d->json, "nextlayerid"))
                    cJSON_ReplaceItemInObjectCaseSensitive(d->json, "nextlayerid",
                                                           cJSON_CreateNumber((double)lid + 1));
                group = g;
            }
            if (rc) break;
        }
        double x = ((double)(i % (size_t)d->w) + (double)d->ox + 0.5) * (double)d->tw - gox;
        double y = ((double)(i / (size_t)d->w) + (double)d->oy + 0.5) * (double)d->th - goy;
        const char *cls = CLASS_NAME[want[i]];
        if (d->fmt == TN_TILED_TMX) {
            xmlNodePtr o = xmlNewNode(NULL, (const xmlChar *)"object");
            char v[64];
            snprintf(v, sizeof v, "%lld", next);
            xmlSetProp(o, (const xmlChar *)"id", (const xmlChar *)v);
            xmlSetProp(o, (const xmlChar *)cls_key, (const xmlChar *)cls);
            snprintf(v, sizeof v, "%.17g", x);
            xmlSetProp(o, (const xmlChar *)"x", (const xmlChar *)v);
            snprintf(v, sizeof v, "%.17g", y);
            xmlSetProp(o, (const xmlChar *)"y", (const xmlChar *)v);
            xmlNewChild(o, NULL, (const xmlChar *)"point", NULL);
            tmx_append((xmlNodePtr)group, o, "\n  ");
        } else {
            cJSON *objs = jget((cJSON *)group, "objects");
            if (!objs) objs = cJSON_AddArrayToObject((cJSON *)group, "objects");
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "height", 0);
            cJSON_AddNumberToObject(o, "id", (double)next);
            cJSON_AddStringToObject(o, "name", "");
            cJSON_AddTrueToObject(o, "point");
            cJSON_AddNumberToObject(o, "rotation", 0);
            cJSON_AddStringToObject(o, cls_key, cls);
            cJSON_AddTrueToObject(o, "visible");
            cJSON_AddNumberToObject(o, "width", 0);
            cJSON_AddNumberToObject(o, "x", x);
            cJSON_AddNumberToObject(o, "y", y);
            if (!objs || !cJSON_AddItemToArray(objs, o)) {
                cJSON_Delete(o);
                rc = fail(d, "out of memory");
            }
        }
        next++;
    }
    free(want);
    if (rc) return -1;
    char v[32];
    snprintf(v, sizeof v, "%lld", next);
    if (d->fmt == TN_TILED_TMX) {
        if (xmlHasProp(d->xmap, (const xmlChar *)"nextobjectid"))
            xmlSetProp(d->xmap, (const xmlChar *)"nextobjectid", (const xmlChar *)v);
    } else if (jget(d->json, "nextobjectid")) {
        cJSON_ReplaceItemInObjectCaseSensitive(d->json, "nextobjectid",
                                               cJSON_CreateNumber((double)next));
    }
    return 0;
}

/* ------------------------------------------------------------ paths */

/* Resolve "." and ".." in an absolute path, in place. */
static void normalize(char *p)
{
    char *out = p, *in = p;
    while (*in) {
        while (*in == '/') in++;
        if (!*in) break;
        char *seg = in;
        while (*in && *in != '/') in++;
        size_t n = (size_t)(in - seg);
        if (n == 1 && seg[0] == '.') continue;
        if (n == 2 && seg[0] == '.' && seg[1] == '.') {
            while (out > p && *--out != '/') {}
            continue;
        }
        *out++ = '/';
        memmove(out, seg, n);
        out += n;
    }
    if (out == p) *out++ = '/';
    *out = '\0';
}

/* target (absolute, normalized) relative to the directory from (same). */
static void rel_path(const char *from, const char *target, char *out, size_t cap)
{
    size_t i = 0, common = 0;
    while (from[i] && from[i] == target[i]) {
        if (from[i] == '/') common = i + 1;
        i++;
    }
    if (!from[i] && (target[i] == '/' || !target[i])) common = i + 1;
    if (common > strlen(target)) common = strlen(target);
    size_t k = 0;
    out[0] = '\0';
    for (const char *p = from + (common ? common - 1 : 0); *p; p++)
        if (*p == '/' && p[1] && k + 4 < cap) {
            memcpy(out + k, "../", 3);
            k += 3;
            out[k] = '\0';
        }
    if (strcmp(from, "/") == 0 && k >= 3) k = 0;
    snprintf(out + k, cap - k, "%s", target + common);
}

static bool rewrite(const char *tdir, const char *odir, const char *src, char *out, size_t cap)
{
    if (!src || !*src || src[0] == '/' || strstr(src, "://")) return false;
    char joined[PATH_CAP * 2];
    snprintf(joined, sizeof joined, "%s/%s", tdir, src);
    normalize(joined);
    rel_path(odir, joined, out, cap);
    return true;
}

static void tmx_rewrite(xmlNodePtr n, const char *attr, const char *tdir, const char *odir)
{
    char *src = xattr(n, attr), out[PATH_CAP];
    if (rewrite(tdir, odir, src, out, sizeof out))
        xmlSetProp(n, (const xmlChar *)attr, (const xmlChar *)out);
    xmlFree(src);
}

static void tmj_rewrite(cJSON *o, const char *key, const char *tdir, const char *odir)
{
    char out[PATH_CAP];
    if (rewrite(tdir, odir, jstr(o, key), out, sizeof out))
        cJSON_ReplaceItemInObjectCaseSensitive(o, key, cJSON_CreateString(out));
}

/* The `template` paths of the objects of the layers under `parent`,
 * groups included. */
static void tmx_rewrite_templates(xmlNodePtr parent, const char *tdir, const char *odir, int depth)
{
    if (depth > MAX_DEPTH) return;
    for (xmlNodePtr n = parent->children; n; n = n->next) {
        if (xis(n, "group")) tmx_rewrite_templates(n, tdir, odir, depth + 1);
        if (!xis(n, "objectgroup")) continue;
        for (xmlNodePtr o = n->children; o; o = o->next)
            if (xis(o, "object")) tmx_rewrite(o, "template", tdir, odir);
    }
}

static void tmj_rewrite_templates(cJSON *layers, const char *tdir, const char *odir, int depth)
{
    cJSON *n, *o;
    if (depth > MAX_DEPTH) return;
    cJSON_ArrayForEach(n, layers)
    {
        tmj_rewrite_templates(jget(n, "layers"), tdir, odir, depth + 1);
        cJSON_ArrayForEach(o, jget(n, "objects")) tmj_rewrite(o, "template", tdir, odir);
    }
}

/* Tileset, image and object template paths are relative to the file:
 * moving the document to another directory rewrites them.  The directory is the one of the file
 * actually written: out_path with its symbolic links resolved when it
 * exists (tn_write_file_atomic replaces a link's target, not the link). */
static int rewrite_paths(doc *d, const char *out_path)
{
    char odir_in[PATH_CAP], tdir[PATH_CAP], odir[PATH_CAP];
    file_dir(out_path, odir_in, sizeof odir_in);
    if (strcmp(odir_in, d->dir) == 0) return 0; /* the same directory */
    if (!realpath(*odir_in ? odir_in : ".", odir)) {
        snprintf(d->err, d->cap, "%s: cannot save into the directory '%s': %s", out_path,
                 *odir_in ? odir_in : ".", strerror(errno));
        return -1;
    }
    if (!realpath(*d->dir ? d->dir : ".", tdir))
        return fail(d, "cannot resolve the directory '%s': %s", *d->dir ? d->dir : ".",
                    strerror(errno));
    if (strcmp(tdir, odir) == 0) return 0;
    if (d->fmt == TN_TILED_TMX) {
        for (xmlNodePtr n = d->xmap->children; n; n = n->next) {
            if (xis(n, "tileset")) {
                tmx_rewrite(n, "source", tdir, odir);
                for (xmlNodePtr c = n->children; c; c = c->next)
                    if (xis(c, "image")) tmx_rewrite(c, "source", tdir, odir);
            } else if (xis(n, "imagelayer")) {
                for (xmlNodePtr c = n->children; c; c = c->next)
                    if (xis(c, "image")) tmx_rewrite(c, "source", tdir, odir);
            }
        }
        tmx_rewrite_templates(d->xmap, tdir, odir, 0);
    } else {
        cJSON *ts;
        cJSON_ArrayForEach(ts, jget(d->json, "tilesets"))
        {
            tmj_rewrite(ts, "source", tdir, odir);
            tmj_rewrite(ts, "image", tdir, odir);
        }
        cJSON_ArrayForEach(ts, jget(d->json, "layers")) tmj_rewrite(ts, "image", tdir, odir);
        tmj_rewrite_templates(jget(d->json, "layers"), tdir, odir, 0);
    }
    return 0;
}

/* ------------------------------------------------------------ saving */

/* A new document: the embedded tileset "tilenav" (as assets/tilenav.tsx),
 * one empty terrain layer, one empty object layer. */
/* The game's assets directory (tn_tiled_set_assets); "" unknown. */
static char assets_dir[PATH_MAX];

void tn_tiled_set_assets(const char *dir)
{
    snprintf(assets_dir, sizeof assets_dir, "%s", dir ? dir : "");
}

/* The tileset image a new document names: assets/tilenav.png relative to
 * the directory of out_path ("../../assets/tilenav.png"), so Tiled shows the
 * tiles; "tilenav.png" when either cannot be resolved or the path would
 * need escaping in XML or JSON.  (The game reads only the tiles'
 * properties, embedded.) */
static void tileset_image(const char *out_path, char *img, size_t cap)
{
    snprintf(img, cap, "tilenav.png");
    char png[PATH_MAX + 16], a[PATH_MAX], dir[PATH_MAX], dreal[PATH_MAX];
    if (!assets_dir[0] ||
        snprintf(png, sizeof png, "%s/tilenav.png", assets_dir) >= (int)sizeof png)
        return;
    const char *slash = strrchr(out_path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == out_path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out_path), out_path);
    if (!realpath(png, a) || !realpath(dir, dreal)) return;
    /* drop the directories both start with, then a "../" per directory
       of dreal's left and the rest of a (whose last name is the file) */
    const char *pa = a + 1, *pd = dreal + 1;
    while (*pd) {
        size_t la = strcspn(pa, "/"), ld = strcspn(pd, "/");
        if (la != ld || strncmp(pa, pd, la) != 0 || pa[la] != '/') break;
        pa += la + 1;
        pd += ld + (pd[ld] == '/');
    }
    char rel[PATH_MAX * 2] = "";
    size_t n = 0;
    for (const char *p = pd; *p; p += strcspn(p, "/"), p += (*p == '/'))
        if (n + 4 < sizeof rel) n += (size_t)snprintf(rel + n, sizeof rel - n, "../");
    snprintf(rel + n, sizeof rel - n, "%s", pa);
    for (const char *p = rel; *p; p++)
        if (strchr("\"&<>'\\", *p) || (unsigned char)*p < 0x20) return;
    snprintf(img, cap, "%s", rel);
}

static int fresh_template(doc *d, int w, int h, int fmt, sbuf *b)
{
    char img[PATH_MAX * 2];
    tileset_image(d->name, img, sizeof img);
    size_t n = (size_t)w * (size_t)h;
    bool small = n <= 65536;
    uint32_t *zero = calloc(n, sizeof *zero);
    if (!zero) return fail(d, "out of memory");
    sbuf data = {0};
    int rc =
        encode_gids(d, zero, w, h, small ? ENC_CSV : ENC_B64, small ? CMP_NONE : CMP_ZLIB, &data);
    free(zero);
    if (rc) return -1;
    static const char *const kinds[] = {"block", "oneway", "none", "none", "none", "none"};
    static const char *const classes[] = {"", "", "spawn", "dest", "item", "start"};
    if (fmt == TN_TILED_TMX) {
        sb_str(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb_fmt(b,
               "<map version=\"1.10\" tiledversion=\"1.10.2\" orientation=\"orthogonal\" "
               "renderorder=\"right-down\" "
               "width=\"%d\" height=\"%d\" tilewidth=\"%d\" tileheight=\"%d\" infinite=\"0\" "
               "nextlayerid=\"3\" "
               "nextobjectid=\"1\">\n",
               w, h, TN_TILE_PX, TN_TILE_PX);
        sb_fmt(b,
               " <tileset firstgid=\"1\" name=\"tilenav\" tilewidth=\"16\" tileheight=\"16\" "
               "tilecount=\"6\" columns=\"6\">\n"
               "  <image source=\"%s\" width=\"96\" height=\"16\"/>\n",
               img);
        for (int i = 0; i < 6; i++) {
            sb_fmt(b,
                   "  <tile id=\"%d\"%s%s%s>\n   <properties>\n    <property name=\"kind\" "
                   "value=\"%s\"/>\n"
                   "   </properties>\n  </tile>\n",
                   i, *classes[i] ? " type=\"" : "", classes[i], *classes[i] ? "\"" : "", kinds[i]);
        }
        sb_str(b, " </tileset>\n");
        sb_fmt(b,
               " <layer id=\"1\" name=\"terrain\" width=\"%d\" height=\"%d\">\n  <data "
               "encoding=\"%s\"%s>\n",
               w, h, small ? "csv" : "base64", small ? "" : " compression=\"zlib\"");
        sb_put(b, data.p, data.n);
        sb_str(b, "\n</data>\n </layer>\n <objectgroup id=\"2\" name=\"tilenav\"/>\n</map>\n");
    } else {
        sb_fmt(b,
               "{ \"compressionlevel\":-1, \"height\":%d, \"infinite\":false,\n \"layers\":[\n  {",
               h);
        if (small) {
            for (size_t i = 0; i < data.n; i++)
                if (data.p[i] == '\n') data.p[i] = ' ';
            sb_str(b, "\"data\":[");
            sb_put(b, data.p, data.n);
            sb_str(b, "],");
        } else {
            sb_str(b, "\"compression\":\"zlib\", \"encoding\":\"base64\", \"data\":\"");
            sb_put(b, data.p, data.n);
            sb_str(b, "\",");
        }
        sb_fmt(b,
               " \"height\":%d, \"id\":1, \"name\":\"terrain\", \"opacity\":1, "
               "\"type\":\"tilelayer\", "
               "\"visible\":true, \"width\":%d, \"x\":0, \"y\":0 },\n",
               h, w);
        sb_str(b, "  { \"draworder\":\"topdown\", \"id\":2, \"name\":\"tilenav\", \"objects\":[], "
                  "\"opacity\":1, "
                  "\"type\":\"objectgroup\", \"visible\":true, \"x\":0, \"y\":0 }],\n");
        sb_fmt(b,
               " \"nextlayerid\":3, \"nextobjectid\":1, \"orientation\":\"orthogonal\", "
               "\"renderorder\":\"right-down\",\n"
               " \"tiledversion\":\"1.10.2\", \"tileheight\":16,\n"
               " \"tilesets\":[{ \"columns\":6, \"firstgid\":1, \"image\":\"%s\", "
               "\"imageheight\":16, ",
               img);
        sb_str(b, "\"imagewidth\":96, \"margin\":0, \"name\":\"tilenav\", \"spacing\":0, "
                  "\"tilecount\":6, "
                  "\"tileheight\":16, \"tilewidth\":16,\n   \"tiles\":[");
        for (int i = 0; i < 6; i++)
            sb_fmt(b,
                   "%s{ \"id\":%d,%s%s%s \"properties\":[{ \"name\":\"kind\", \"type\":\"string\", "
                   "\"value\":\"%s\" }] }",
                   i ? ", " : "", i, *classes[i] ? " \"type\":\"" : "", classes[i],
                   *classes[i] ? "\"," : "", kinds[i]);
        sb_fmt(b,
               "] }],\n \"tilewidth\":16, \"type\":\"map\", \"version\":\"1.10\", \"width\":%d }\n",
               w);
    }
    free(data.p);
    return b->oom ? fail(d, "out of memory") : 0;
}

/* A document's line breaks (a Windows checkout, an editor's setting, an
 * old Mac file): "\r\n", "\r" or "\n", whichever it has most of; on a
 * tie (or with none) the kind of its first break ("\n" without any).  The
 * majority, not the first break: a CRLF file one tool added a LF line to
 * (often the XML declaration, line 1) is still a CRLF file, and is saved as
 * one; a file whose first break was the odd one out was all rewritten. */
static const char *line_breaks(const char *t, size_t n)
{
    size_t lf = 0, crlf = 0, cr = 0;
    int first = 0; /* 1 LF, 2 CRLF, 3 CR */
    for (size_t i = 0; i < n; i++) {
        int k;
        if (t[i] == '\n')
            k = 1, lf++;
        else if (t[i] == '\r' && i + 1 < n && t[i + 1] == '\n')
            k = 2, crlf++, i++;
        else if (t[i] == '\r')
            k = 3, cr++;
        else
            continue;
        if (!first) first = k;
    }
    size_t most = lf > crlf ? lf : crlf;
    if (cr > most) most = cr;
    const size_t count[4] = {0, lf, crlf, cr};
    const char *name[4] = {"\n", "\n", "\r\n", "\r"};
    if (!first || count[first] == most) return name[first];
    return most == crlf ? "\r\n" : most == cr ? "\r" : "\n";
}

/* text (len bytes, NUL-terminated, malloc'd) with each LF as `brk` ("\r\n"
 * or "\r"): what libxml2 and cJSON write has raw line breaks only between
 * markup and in a tile layer's CSV text (a line break in a value is written
 * escaped, &#10; or \n), and XML and JSON read CRLF and a lone CR there as
 * LF, so the document means the same.  A CR already before a LF stays one
 * CR. */
static bool to_breaks(char **text, size_t *len, const char *brk)
{
    const bool crlf = brk[1] == '\n';
    size_t extra = 0;
    for (size_t i = 0; crlf && i < *len; i++)
        extra += (*text)[i] == '\n' && (i == 0 || (*text)[i - 1] != '\r');
    char *out = malloc(*len + extra + 1);
    if (!out) return false;
    size_t k = 0;
    for (size_t i = 0; i < *len; i++) {
        const char c = (*text)[i];
        if (c != '\n') {
            out[k++] = c;
        } else if (i == 0 || (*text)[i - 1] != '\r') {
            out[k++] = '\r';
            if (crlf) out[k++] = '\n';
        } else if (crlf) {
            out[k++] = '\n';
        }
    }
    out[k] = '\0';
    free(*text);
    *text = out;
    *len = k;
    return true;
}

/* text (len bytes, NUL-terminated, malloc'd) after a UTF-8 BOM, unless it
 * starts with one. */
static bool with_bom(char **text, size_t *len)
{
    if (*len >= 3 && memcmp(*text, "\xEF\xBB\xBF", 3) == 0) return true;
    char *out = malloc(*len + 4);
    if (!out) return false;
    memcpy(out, "\xEF\xBB\xBF", 3);
    memcpy(out + 3, *text, *len + 1);
    free(*text);
    *text = out;
    *len += 3;
    return true;
}

int tn_tiled_format(const tn_map *m, const char *tmpl, size_t tmpl_len, const char *tmpl_path,
                    const char *out_path, int fmt, char **out, size_t *out_len, char *err,
                    size_t cap)
{
    *out = NULL;
    *out_len = 0;
    sbuf fresh = {0};
    doc d;
    tn_map *old = NULL;
    int rc = 0;
    /* the document's line breaks are kept: a CRLF (or CR-only) file saved
     * with LF ones showed every line changed (git diff) */
    const char *brk = tmpl ? line_breaks(tmpl, tmpl_len) : "\n";
    /* and its UTF-8 BOM (what is written is UTF-8): dropped, line 1 changed */
    const bool bom = tmpl && tmpl_len >= 3 && memcmp(tmpl, "\xEF\xBB\xBF", 3) == 0;
    if (!tmpl) {
        memset(&d, 0, sizeof d);
        d.name = out_path;
        d.err = err;
        d.cap = cap;
        d.zlevel = Z_DEFAULT_COMPRESSION; /* (0 stored a big map's data raw: no map read yet) */
        if (fresh_template(&d, m->w, m->h, fmt, &fresh)) {
            free(fresh.p);
            return -1;
        }
        tmpl = fresh.p;
        tmpl_len = fresh.n;
        tmpl_path = out_path;
    }
    rc = doc_read(&d, tmpl, tmpl_len, tmpl_path, fmt, err, cap, false);
    if (rc == 0) rc = doc_map(&d, &old);
    if (rc == 0 && (old->w != m->w || old->h != m->h))
        rc = fail(&d, "the map is %dx%d tiles, this file %dx%d", m->w, m->h, old->w, old->h);
    if (rc == 0) rc = patch_terrain(&d, old, m);
    if (rc == 0) rc = patch_objects(&d, m);
    if (rc == 0) rc = rewrite_paths(&d, out_path);
    char *text = NULL;
    size_t len = 0;
    if (rc == 0) {
        if (fmt == TN_TILED_TMX) {
            xmlChar *mem = NULL;
            int size = 0;
            /* always UTF-8 (a file declared in another encoding would be
             * written in it, and some, like UTF-7, do not read back) */
            xmlDocDumpMemoryEnc(d.xdoc, &mem, &size, "UTF-8");
            if (mem && size >= 0 && (text = malloc((size_t)size + 1))) {
                memcpy(text, mem, (size_t)size);
                text[size] = '\0';
                len = (size_t)size;
            }
            xmlFree(mem);
        } else {
            json_restore_numbers(d.json); /* the numbers the save did not change */
            char *j = cJSON_Print(d.json);
            if (j) {
                len = strlen(j);
                text = malloc(len + 2);
                if (text) {
                    memcpy(text, j, len);
                    text[len++] = '\n';
                    text[len] = '\0';
                }
            }
            cJSON_free(j);
        }
        if (!text || (brk[0] == '\r' && !to_breaks(&text, &len, brk)) ||
            (bom && !with_bom(&text, &len)))
            rc = fail(&d, "out of memory");
    }
    if (rc == 0 && tn_tiled_too_big(out_path, len, true, err, cap)) rc = -1;
    tn_map_destroy(old);
    doc_free(&d);
    free(fresh.p);
    if (rc) {
        free(text);
        return -1;
    }
    /* Read it back: it must load as exactly this map. */
    tn_map *back = NULL;
    char berr[512];
    if (tn_tiled_load_buffer(text, len, out_path, fmt, &back, berr, sizeof berr) != 0 ||
        !tn_map_equal(back, m)) {
        snprintf(err, cap, "%s: the document would not read back as the same map (%s); not saved",
                 out_path, back ? "it differs" : berr);
        tn_map_destroy(back);
        free(text);
        return -1;
    }
    tn_map_destroy(back);
    *out = text;
    *out_len = len;
    return 0;
}

bool tn_tiled_save_drops(const char *path, const char *source, char *out, size_t cap)
{
    if (cap) out[0] = '\0';
    int fmt = tn_tiled_kind(path), sfmt = source ? tn_tiled_kind(source) : 0;
    if (!fmt || !sfmt || fmt == sfmt) return false;
    snprintf(out, cap,
             "%s is a new %s document without the layers, tilesets, properties and other "
             "objects of %s (only its terrain and game objects; save as %s to keep them)",
             path, fmt == TN_TILED_TMX ? "TMX" : "TMJ", source,
             sfmt == TN_TILED_TMX ? ".tmx" : ".tmj");
    return true;
}

int tn_tiled_save(const tn_map *m, const char *path, const char *source, char *err, size_t cap)
{
    int fmt = tn_tiled_kind(path);
    if (!fmt) {
        snprintf(err, cap, "%s: not a Tiled map name (.tmx, .tmj or .json)", path);
        return -1;
    }
    if (!source) source = path;
    /* Over the file the map came from: only when it still holds what was
     * loaded (or last saved), never over edits made in Tiled since. */
    bool own = tn_same_file(source, path);
    if (own) { /* by the name the map was loaded by: the one it has a record of */
        int rc = tn_origin_check(source, err, cap);
        if (rc) return rc;
    }
    char *tmpl = NULL;
    size_t tlen = 0;
    /* The template is the document the map came from, when that is a Tiled
     * file of this format: never another map's.  A save over the file it
     * came from that has since gone writes a new document. */
    const char *origin = tn_tiled_kind(source) == fmt ? source : NULL;
    struct stat st;
    if (origin && own && stat(origin, &st) != 0 && errno == ENOENT) origin = NULL;
    if (origin) {
        if (read_map_file(origin, &tmpl, &tlen, err, cap) != 0) return -1;
        tn_map *o = NULL;
        char oerr[512];
        if (tn_tiled_load_buffer(tmpl, tlen, origin, fmt, &o, oerr, sizeof oerr) != 0) {
            snprintf(err, cap, "%s: not saved: the map it came from no longer loads: %s", path,
                     oerr);
            free(tmpl);
            return -1;
        }
        /* An origin of another size (the file changed on disk since it was
         * opened) is no template: a new document then. */
        if (o->w != m->w || o->h != m->h) {
            free(tmpl);
            tmpl = NULL;
        }
        tn_map_destroy(o);
    }
    char *text;
    size_t len;
    int rc = tn_tiled_format(m, tmpl, tlen, tmpl ? origin : NULL, path, fmt, &text, &len, err, cap);
    free(tmpl);
    if (rc) return -1;
    rc = tn_write_file_atomic(path, text, len, err, cap);
    if (rc == 0) tn_origin_saved(path, text, len, own); /* what it holds now */
    free(text);
    return rc;
}
