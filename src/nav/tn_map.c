/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_map.h"
#include "internal/named_err.h"

#include <stdio.h>
#include <string.h>

tn_status tn_map_create(int w, int h, const tn_allocator *a, tn_map **out, tn_error *err)
{
    if (out) *out = NULL;
    if (!out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "map: no output pointer");
    if (w < 1 || h < 1 || w > TN_MAP_MAX_SIZE || h > TN_MAP_MAX_SIZE)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "map: size %dx%d is outside 1..%d", w, h, TN_MAP_MAX_SIZE);
    tn_map *m = tn_alloc(a, sizeof *m);
    uint8_t *cells = m ? tn_alloc_array(a, (size_t)w * (size_t)h, 2) : NULL;
    if (!cells) {
        tn_free(a, m);
        return tn_error_set(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0,
                            "map: out of memory for a %dx%d map", w, h);
    }
    m->w = w;
    m->h = h;
    m->tile = cells;
    m->mark = cells + (size_t)w * (size_t)h;
    m->start_x = m->start_y = -1;
    if (a) m->alloc = *a;
    *out = m;
    tn_error_clear(err);
    return TN_OK;
}

void tn_map_destroy(tn_map *m)
{
    if (!m) return;
    tn_allocator a = m->alloc;
    tn_free(&a, m->tile);
    tn_free(&a, m);
}

tn_status tn_map_clone(const tn_map *m, tn_map **out, tn_error *err)
{
    if (out) *out = NULL;
    if (!m || !out)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "map: no %s to clone (%s is NULL)", !m ? "map" : "output pointer",
                            !m ? "m" : "out");
    tn_map *c = NULL;
    tn_status st = tn_map_create(m->w, m->h, &m->alloc, &c, err);
    if (tn_failed(st)) return st;
    memcpy(c->tile, m->tile, (size_t)m->w * (size_t)m->h * 2);
    c->start_x = m->start_x;
    c->start_y = m->start_y;
    c->revision = m->revision;
    *out = c;
    return TN_OK;
}

bool tn_map_equal(const tn_map *a, const tn_map *b)
{
    if (!a || !b) return a == b; /* (two NULLs: the same nothing) */
    return a->w == b->w && a->h == b->h && a->start_x == b->start_x && a->start_y == b->start_y &&
           memcmp(a->tile, b->tile, (size_t)a->w * (size_t)a->h * 2) == 0;
}

static const char *const TILE_NAME[3] = {"empty", "a block", "a one-way platform"};

/* Why tile (x, y) of m cannot be edited, or TN_OK. */
static tn_status check_edit(const tn_map *m, int x, int y, tn_error *err)
{
    if (!m) return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "map: no map");
    if (!tn_map_inside(m, x, y))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "map: tile (%d,%d) is outside the %dx%d map", x, y, m->w, m->h);
    return TN_OK;
}

tn_status tn_map_set_tile(tn_map *m, int x, int y, int tile, tn_error *err)
{
    tn_status st = check_edit(m, x, y, err);
    if (tn_failed(st)) return st;
    if (tile < TN_TILE_EMPTY || tile > TN_TILE_ONEWAY)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "map: unknown tile kind %d",
                            tile);
    size_t i = (size_t)y * (size_t)m->w + (size_t)x;
    /* a set that changes nothing is no change: caches keyed on the
     * revision (tn_path's tile bits, bots' "map edited") stay valid */
    const bool same = m->tile[i] == (uint8_t)tile &&
                      (tile == TN_TILE_EMPTY ||
                       (m->mark[i] == TN_MARK_NONE && !(m->start_x == x && m->start_y == y)));
    m->tile[i] = (uint8_t)tile;
    if (tile != TN_TILE_EMPTY) {
        m->mark[i] = TN_MARK_NONE;
        if (m->start_x == x && m->start_y == y) m->start_x = m->start_y = -1;
    }
    if (!same) m->revision++;
    tn_error_clear(err);
    return TN_OK;
}

tn_status tn_map_set_mark(tn_map *m, int x, int y, int mark, tn_error *err)
{
    tn_status st = check_edit(m, x, y, err);
    if (tn_failed(st)) return st;
    if (mark < TN_MARK_NONE || mark > TN_MARK_ITEM)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "map: unknown mark kind %d",
                            mark);
    size_t i = (size_t)y * (size_t)m->w + (size_t)x;
    if (mark != TN_MARK_NONE && m->tile[i] != TN_TILE_EMPTY)
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                            "map: tile (%d,%d) is %s; spawns, destinations and items go on "
                            "empty tiles",
                            x, y, TILE_NAME[m->tile[i]]);
    if (mark != TN_MARK_NONE && x == m->start_x && y == m->start_y)
        return tn_error_set(err, TN_FAILURE | TN_REFUSED, 0, 0,
                            "map: tile (%d,%d) is the character's start", x, y);
    if (m->mark[i] != (uint8_t)mark) m->revision++;
    m->mark[i] = (uint8_t)mark;
    tn_error_clear(err);
    return TN_OK;
}

int tn_map_count_marks(const tn_map *m, int mark)
{
    if (!m) return 0;
    int n = 0;
    size_t cells = (size_t)m->w * (size_t)m->h;
    for (size_t i = 0; i < cells; i++) n += m->mark[i] == mark;
    return n;
}

int tn_map_list_marks(const tn_map *m, int mark, int32_t *out, int cap)
{
    if (!m) return 0;
    if (!out) cap = 0;
    int n = 0;
    size_t cells = (size_t)m->w * (size_t)m->h;
    for (size_t i = 0; i < cells; i++) {
        if (m->mark[i] != mark) continue;
        if (n < cap) out[n] = (int32_t)i;
        n++;
    }
    return n;
}

/* ---- parsing ------------------------------------------------------------ */

typedef struct line_reader {
    const char *buf;
    size_t len, pos;
    int lineno;    /* number of the line last returned */
    const char *s; /* the line (not NUL-terminated) */
    size_t n;      /* its length without "\n" / "\r\n" */
} line_reader;

static bool next_line(line_reader *r)
{
    if (r->pos >= r->len) return false;
    const char *start = r->buf + r->pos;
    const char *nl = memchr(start, '\n', r->len - r->pos);
    size_t n = nl ? (size_t)(nl - start) : r->len - r->pos;
    r->pos += n + (nl ? 1 : 0);
    if (n > 0 && start[n - 1] == '\r') n--;
    r->s = start;
    r->n = n;
    r->lineno++;
    return true;
}

static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return false;
    return true;
}

/* Skip comment and blank lines; false at the end of the input. */
static bool next_content_line(line_reader *r)
{
    while (next_line(r)) {
        if (r->n > 0 && r->s[0] == '#') continue;
        if (is_blank(r->s, r->n)) continue;
        return true;
    }
    return false;
}

/* A line of tilenav tile characters only (what a tile row holds), but for
 * blanks after them. */
static bool looks_like_row(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--; /* (blanks an editor left) */
    if (n < 2) return false;                                    /* (a lone '#': a comment mark) */
    for (size_t i = 0; i < n; i++)
        if (!strchr(".#=SD*P", s[i]) || s[i] == '\0') return false;
    return true;
}

/* Printable description of a byte for messages. */
static void describe_byte(char *out, size_t cap, unsigned char c)
{
    if (c >= 0x21 && c < 0x7f)
        snprintf(out, cap, "'%c'", c);
    else if (c == ' ')
        snprintf(out, cap, "' ' (space)");
    else
        snprintf(out, cap, "byte 0x%02x", c);
}

/* The first byte of the line that is not printable ASCII, or -1. */
static long find_junk(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t') || c >= 0x7f) return (long)i;
    }
    return -1;
}

/* Does the line equal `word` followed by one space-separated argument list?
 * Returns a pointer to the arguments (possibly empty) or NULL. */
static const char *match_keyword(const char *s, size_t n, const char *word, size_t *argn)
{
    size_t wl = strlen(word);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--; /* trailing blanks */
    if (n < wl || memcmp(s, word, wl) != 0) return NULL;
    if (n > wl && s[wl] != ' ' && s[wl] != '\t') return NULL;
    size_t i = wl;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    *argn = n - i;
    return s + i;
}

/* Parse a non-negative decimal integer token starting at s[*i]; stops at
 * space.  Values above 10^9 are reported as 10^9+1 (caller checks range). */
static bool parse_uint(const char *s, size_t n, size_t *i, long *out)
{
    size_t j = *i;
    long v = 0;
    if (j >= n || s[j] < '0' || s[j] > '9') return false;
    while (j < n && s[j] >= '0' && s[j] <= '9') {
        if (v <= 1000000000L) v = v * 10 + (s[j] - '0');
        j++;
    }
    if (v > 1000000000L) v = 1000000001L;
    if (j < n && s[j] != ' ' && s[j] != '\t') return false;
    while (j < n && (s[j] == ' ' || s[j] == '\t')) j++;
    *i = j;
    *out = v;
    return true;
}

/* A header line's two whole numbers gone wrong at s[i] (after `got` of
 * them): what is wrong in `what`, and the column of the word at fault (0
 * when none is there: a number is missing). */
static int bad_numbers(const char *s, size_t n, size_t i, int got, char *what, size_t cap)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i >= n) {
        snprintf(what, cap, "%s", got == 0 ? "none given" : "only one given");
        return 0;
    }
    size_t e = i;
    while (e < n && s[e] != ' ' && s[e] != '\t') e++;
    int len = e - i > 24 ? 24 : (int)(e - i);
    snprintf(what, cap, got == 2 ? "'%.*s%s' is one too many" : "'%.*s%s' is not a whole number",
             len, s + i, e - i > 24 ? "..." : "");
    return (int)i + 1;
}

/* A header line's two whole numbers after its keyword (arg): 0, or the
 * column to name with what is wrong in `what`. */
static int two_numbers(const char *s, size_t n, const char *arg, long *a, long *b, char *what,
                       size_t cap)
{
    size_t i = (size_t)(arg - s);
    int got = !parse_uint(s, n, &i, a) ? 0 : !parse_uint(s, n, &i, b) ? 1 : 2;
    if (got == 2 && i == n) return 0;
    int col = bad_numbers(s, n, i, got, what, cap);
    return col ? col : (int)(arg - s) + 1;
}

/* "NAME:LINE:COL: problem", the name shortened (tn_name_fit) when a long
 * path would leave no room in the message for the line, column and
 * problem. */
#define PERR(line, col, ...)                                                              \
    do {                                                                                  \
        char detail_[192], rest_[224], msg_[TN_ERROR_MSG_MAX];                            \
        snprintf(detail_, sizeof detail_, __VA_ARGS__);                                   \
        snprintf(rest_, sizeof rest_, ":%d:%d: %s", (line), (col), detail_);              \
        tn_name_fit(msg_, sizeof msg_, name, rest_);                                      \
        return tn_error_set(err, TN_FAILURE | TN_PARSE_ERROR, (line), (col), "%s", msg_); \
    } while (0)

static tn_status check_header_line(line_reader *r, const char *name, tn_error *err)
{
    long junk = find_junk(r->s, r->n);
    if (junk >= 0) {
        char d[32];
        describe_byte(d, sizeof d, (unsigned char)r->s[junk]);
        PERR(r->lineno, (int)junk + 1, "unexpected %s in a header line (is this a map file?)", d);
    }
    return TN_OK;
}

static tn_status read_rows(line_reader *r, tn_map *m, bool movingai, const char *name,
                           tn_error *err)
{
    for (int y = 0; y < m->h; y++) {
        if (!next_line(r)) PERR(r->lineno + 1, 1, "file ends after %d of %d tile rows", y, m->h);
        if (r->n != (size_t)m->w)
            PERR(r->lineno, (int)tn_mini((int)r->n, m->w) + 1,
                 "row %d has %zu characters, expected %d", y + 1, r->n, m->w);
        for (int x = 0; x < m->w; x++) {
            unsigned char c = (unsigned char)r->s[x];
            size_t i = (size_t)y * (size_t)m->w + (size_t)x;
            int tile = TN_TILE_EMPTY, mark = TN_MARK_NONE;
            bool ok = true;
            if (movingai) {
                switch (c) {
                case '.':
                case 'G':
                case 'S': break;
                case '@':
                case 'O':
                case 'T':
                case 'W': tile = TN_TILE_BLOCK; break;
                default: ok = false;
                }
            } else {
                switch (c) {
                case '.': break;
                case '#': tile = TN_TILE_BLOCK; break;
                case '=': tile = TN_TILE_ONEWAY; break;
                case 'S': mark = TN_MARK_SPAWN; break;
                case 'D': mark = TN_MARK_DEST; break;
                case '*': mark = TN_MARK_ITEM; break;
                case 'P':
                    if (m->start_x >= 0)
                        PERR(r->lineno, x + 1,
                             "second character start 'P' (the first is at tile %d,%d)", m->start_x,
                             m->start_y);
                    m->start_x = x;
                    m->start_y = y;
                    break;
                default: ok = false;
                }
            }
            if (!ok) {
                char d[32];
                describe_byte(d, sizeof d, c);
                PERR(r->lineno, x + 1, "unknown tile character %s%s", d,
                     movingai ? " (expected one of . G S @ O T W)"
                              : " (expected one of . # = P S D *)");
            }
            m->tile[i] = (uint8_t)tile;
            m->mark[i] = (uint8_t)mark;
        }
    }
    /* Only blank and comment lines may follow.  A line of exactly W tile
     * characters is a tile row past the height `size` gives, not a comment,
     * though it starts with '#' as most rows do (a wall): counted, so the
     * message can say how many. */
    int first = 0, extra = 0;
    while (next_line(r)) {
        size_t k = 0;
        while (!movingai && k < r->n && r->s[k] && strchr(".#=PSD*", r->s[k])) k++;
        if (!movingai && r->n == (size_t)m->w && k == r->n) {
            if (extra++ == 0) first = r->lineno;
            continue;
        }
        if (is_blank(r->s, r->n) || (!movingai && r->s[0] == '#')) continue;
        long junk = -1; /* a NUL or control byte: named where it is (UTF-8 is text) */
        for (size_t i = 0; i < r->n && junk < 0; i++)
            if (((unsigned char)r->s[i] < 0x20 && r->s[i] != '\t' && r->s[i] != '\r') ||
                r->s[i] == 0x7f)
                junk = (long)i;
        if (junk >= 0) {
            char d[32];
            if (r->s[junk] == '\0')
                snprintf(d, sizeof d, "NUL byte (0x00)");
            else
                describe_byte(d, sizeof d, (unsigned char)r->s[junk]);
            PERR(r->lineno, (int)junk + 1, "unexpected %s after the last of the %d tile rows", d,
                 m->h);
        }
        PERR(r->lineno, 1, "unexpected text after the last of the %d tile rows", m->h);
    }
    if (extra == 1)
        PERR(first, 1,
             "%d tile rows but size says %d (this row is extra: fix the 'size' line or "
             "remove it)",
             m->h + 1, m->h);
    if (extra > 1)
        PERR(first, 1,
             "%d tile rows but size says %d (the %d rows from this line on are extra: "
             "fix the 'size' line or remove them)",
             m->h + extra, m->h, extra);
    return TN_OK;
}

/* A parsed size for messages: parse_uint saturates above 10^9. */
static const char *size_text(long v, char buf[24])
{
    if (v > 1000000000L) return "(more than 10^9)";
    snprintf(buf, 24, "%ld", v);
    return buf;
}

static tn_status parse_movingai(line_reader *r, const char *name, const tn_allocator *a,
                                tn_map **out, tn_error *err)
{
    char wb[24], hb[24];
    long h = -1, w = -1;
    for (;;) {
        if (!next_content_line(r)) PERR(r->lineno + 1, 1, "file ends before the 'map' line");
        tn_status s = check_header_line(r, name, err);
        if (tn_failed(s)) return s;
        size_t argn;
        const char *arg;
        long *dst = NULL;
        const char *key = NULL;
        if ((arg = match_keyword(r->s, r->n, "height", &argn)))
            dst = &h, key = "height";
        else if ((arg = match_keyword(r->s, r->n, "width", &argn)))
            dst = &w, key = "width";
        else if (match_keyword(r->s, r->n, "map", &argn) && argn == 0)
            break;
        else
            PERR(r->lineno, 1, "unknown header line (expected 'height H', 'width W' or 'map')");
        if (*dst >= 0) PERR(r->lineno, 1, "repeated '%s' line", key);
        size_t i = (size_t)(arg - r->s);
        if (!parse_uint(r->s, r->n, &i, dst) || i != r->n)
            PERR(r->lineno, (int)(arg - r->s) + 1, "'%s' needs one whole number", key);
        /* At the line that says it, as 'size' in the tilenav format (it was
         * reported at the 'map' line). */
        if (*dst < 1 || *dst > TN_MAP_MAX_SIZE)
            PERR(r->lineno, (int)(arg - r->s) + 1, "map %s %s is outside 1..%d", key,
                 size_text(*dst, wb), TN_MAP_MAX_SIZE);
    }
    if (h < 0) PERR(r->lineno, 1, "missing 'height' line before 'map'");
    if (w < 0) PERR(r->lineno, 1, "missing 'width' line before 'map'");
    if (w < 1 || h < 1 || w > TN_MAP_MAX_SIZE || h > TN_MAP_MAX_SIZE)
        PERR(r->lineno, 1, "map size %sx%s is outside 1..%d", size_text(w, wb), size_text(h, hb),
             TN_MAP_MAX_SIZE);
    tn_map *m = NULL;
    tn_status cs = tn_map_create((int)w, (int)h, a, &m, err);
    if (tn_failed(cs)) return cs;
    tn_status s = read_rows(r, m, true, name, err);
    if (tn_failed(s)) {
        tn_map_destroy(m);
        return s;
    }
    *out = m;
    tn_error_clear(err);
    return TN_OK;
}

tn_status tn_map_parse(const char *buf, size_t len, const char *name, const tn_allocator *a,
                       tn_map **out, tn_error *err)
{
    if (!name) name = "map"; /* as tn_map_save: the module speaks */
    if (out) *out = NULL;
    if (!out || (!buf && len))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "map: %s",
                            !out ? "no output pointer (out NULL)"
                                 : "no text (buf NULL with a length)");
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte-order mark */
        buf += 3;
        len -= 3;
    }
    line_reader r = {buf, len, 0, 0, NULL, 0};
    if (!next_content_line(&r)) {
        /* Only blank and comment lines.  Tile rows written without the
         * header start with '#' (a wall) and so read as comments: it said
         * "empty file" of a whole level. */
        line_reader c = {buf, len, 0, 0, NULL, 0};
        int row = 0;
        bool comment = false;
        while (!row && next_line(&c)) {
            comment |= c.n > 0 && c.s[0] == '#';
            /* a CR not before a LF: old Mac line endings made the whole
             * file one line, a comment when it starts with '#' (a header
             * after a comment line, or rows) */
            const char *cr = memchr(c.s, '\r', c.n);
            if (cr)
                PERR(c.lineno, (int)(cr - c.s) + 1,
                     "a carriage return (CR) with no line feed after it ends the line: the file "
                     "uses old Mac (CR-only) line endings; save it with LF (or CRLF) line endings");
            if (looks_like_row(c.s, c.n)) row = c.lineno;
        }
        if (row)
            PERR(row, 1,
                 "no header line: this line reads as a comment ('#' starts one before "
                 "'tiles'); a map starts 'tilenav-map 1', then 'size W H' and 'tiles' above its "
                 "rows");
        PERR(1, 1, "%s (expected 'tilenav-map 1')",
             comment ? "only comments and blank lines" : "empty file");
    }
    tn_status s = check_header_line(&r, name, err);
    if (tn_failed(s)) return s;
    size_t argn;
    const char *arg;
    if ((arg = match_keyword(r.s, r.n, "type", &argn))) {
        if (argn != 6 || memcmp(arg, "octile", 6) != 0)
            PERR(r.lineno, (int)(arg - r.s) + 1,
                 "unsupported Moving AI map type (expected 'octile')");
        return parse_movingai(&r, name, a, out, err);
    }
    if (!(arg = match_keyword(r.s, r.n, "tilenav-map", &argn)))
        PERR(r.lineno, 1, "missing header line 'tilenav-map 1' (or 'type octile')");
    if (argn != 1 || arg[0] != '1')
        PERR(r.lineno, (int)(arg - r.s) + 1,
             "unsupported format version (expected 'tilenav-map 1')");
    long w = -1, h = -1, sx = -1, sy = -1;
    int start_line = 0, start_col = 0;
    char wb[24], hb[24];
    for (;;) {
        if (!next_content_line(&r)) PERR(r.lineno + 1, 1, "file ends before the 'tiles' line");
        s = check_header_line(&r, name, err);
        if (tn_failed(s)) return s;
        if (match_keyword(r.s, r.n, "tilenav-map", &argn))
            PERR(r.lineno, 1, "repeated header line 'tilenav-map'");
        if ((arg = match_keyword(r.s, r.n, "size", &argn))) {
            if (w >= 0) PERR(r.lineno, 1, "repeated header line 'size'");
            char what[64];
            int col = two_numbers(r.s, r.n, arg, &w, &h, what, sizeof what);
            if (col)
                PERR(r.lineno, col, "'size' needs two whole numbers: size WIDTH HEIGHT (%s)", what);
            if (w < 1 || h < 1 || w > TN_MAP_MAX_SIZE || h > TN_MAP_MAX_SIZE)
                PERR(r.lineno, (int)(arg - r.s) + 1, "map size %sx%s is outside 1..%d",
                     size_text(w, wb), size_text(h, hb), TN_MAP_MAX_SIZE);
            continue;
        }
        if ((arg = match_keyword(r.s, r.n, "start", &argn))) { /* a start under a block */
            if (sx >= 0) PERR(r.lineno, 1, "repeated header line 'start'");
            char what[64];
            int col = two_numbers(r.s, r.n, arg, &sx, &sy, what, sizeof what);
            if (col) PERR(r.lineno, col, "'start' needs two whole numbers: start X Y (%s)", what);
            start_line = r.lineno;
            start_col = (int)(arg - r.s) + 1;
            continue;
        }
        if (match_keyword(r.s, r.n, "tiles", &argn) && argn == 0) break;
        PERR(r.lineno, 1, "unknown header line (expected 'size W H', 'start X Y' or 'tiles')");
    }
    if (w < 0) PERR(r.lineno, 1, "missing 'size' line before 'tiles'");
    if (sx >= 0 && (sx >= w || sy >= h))
        PERR(start_line, start_col, "start %s %s is outside the %ldx%ld map", size_text(sx, wb),
             size_text(sy, hb), w, h);
    tn_map *m = NULL;
    tn_status cs = tn_map_create((int)w, (int)h, a, &m, err);
    if (tn_failed(cs)) return cs;
    s = read_rows(&r, m, false, name, err);
    if (tn_failed(s)) {
        tn_map_destroy(m);
        return s;
    }
    if (sx >= 0) {
        size_t i = (size_t)sy * (size_t)w + (size_t)sx;
        const char *why = m->start_x >= 0 ? "the map also has a 'P'"
                          : m->mark[i]    ? "that tile holds a spawn point, destination or item"
                                          : NULL;
        if (why) {
            tn_map_destroy(m);
            PERR(start_line, start_col, "start %ld %ld: %s", sx, sy, why);
        }
        m->start_x = (int)sx;
        m->start_y = (int)sy;
    }
    *out = m;
    tn_error_clear(err);
    return TN_OK;
}

/* ---- formatting ---------------------------------------------------------- */

static const char HEADER_FMT[] = "tilenav-map 1\nsize %d %d\ntiles\n";

static const char START_FMT[] = "start %d %d\n";

/* The start is on a block or one-way platform (kept under it). */
static bool start_covered(const tn_map *m)
{
    return m->start_x >= 0 && m->start_x < m->w && m->start_y >= 0 && m->start_y < m->h &&
           m->tile[(size_t)m->start_y * (size_t)m->w + (size_t)m->start_x] != TN_TILE_EMPTY;
}

size_t tn_map_format_size(const tn_map *m)
{
    if (!m) return 0;
    int hl = snprintf(NULL, 0, HEADER_FMT, m->w, m->h);
    int sl = start_covered(m) ? snprintf(NULL, 0, START_FMT, m->start_x, m->start_y) : 0;
    return (size_t)hl + (size_t)sl + (size_t)m->h * ((size_t)m->w + 1) + 1;
}

/* Why tile i cannot be written as it is (it would not read back the
 * same), or NULL. */
static const char *tile_problem(const tn_map *m, size_t i, bool start)
{
    int t = m->tile[i], k = m->mark[i];
    if (t > TN_TILE_ONEWAY) return "an unknown terrain code";
    if (k > TN_MARK_ITEM) return "an unknown content code";
    if (k != TN_MARK_NONE && t != TN_TILE_EMPTY) return "content on a block or one-way platform";
    if (k != TN_MARK_NONE && start) return "content on the character start";
    return NULL;
}

static char tile_char(const tn_map *m, int x, int y)
{
    size_t i = (size_t)y * (size_t)m->w + (size_t)x;
    if (m->tile[i] == TN_TILE_BLOCK) return '#';
    if (m->tile[i] == TN_TILE_ONEWAY) return '=';
    if (x == m->start_x && y == m->start_y) return 'P';
    switch (m->mark[i]) {
    case TN_MARK_SPAWN: return 'S';
    case TN_MARK_DEST: return 'D';
    case TN_MARK_ITEM: return '*';
    default: return '.';
    }
}

/* tn_map_save's messages: "NAME:LINE:COL: problem" ("NAME: problem" for
 * line 0), NAME shortened as PERR does, so that a long path keeps the tile's
 * line, column and problem (it filled the message and cut them off). */
#define save_err(err, st, line, col, name, ...) \
    tn_commoni_error_named(err, st, name, line, col, true, __VA_ARGS__)

tn_status tn_map_save(const tn_map *m, const char *name, char *buf, size_t cap, size_t *written,
                      tn_error *err)
{
    const tn_status bad = TN_FAILURE | TN_INVALID_PARAM;
    if (!name) name = "map";
    if (!m) return tn_error_set(err, bad, 0, 0, "map: no map to write (m is NULL)");
    if (m->w < 1 || m->h < 1 || m->w > TN_MAP_MAX_SIZE || m->h > TN_MAP_MAX_SIZE)
        return save_err(err, bad, 0, 0, name, "size %dx%d is outside 1..%d: not written", m->w,
                        m->h, TN_MAP_MAX_SIZE);
    if (!m->tile || !m->mark)
        return save_err(err, bad, 0, 0, name, "the map has no tile arrays: not written");
    bool none = m->start_x == -1 && m->start_y == -1;
    if (!none && !tn_map_inside(m, m->start_x, m->start_y))
        return save_err(err, bad, 0, 0, name,
                        "the character start (%d,%d) is outside the %dx%d map (-1,-1 is none): "
                        "not written",
                        m->start_x, m->start_y, m->w, m->h);
    bool covered = start_covered(m);
    int first_row_line = covered ? 5 : 4; /* the text's line of row 0 */
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            size_t i = (size_t)y * (size_t)m->w + (size_t)x;
            const char *why = tile_problem(m, i, x == m->start_x && y == m->start_y);
            if (why)
                return save_err(err, bad, first_row_line + y, x + 1, name,
                                "tile (%d,%d) has %s (terrain %d, content %d; terrain 0..2, "
                                "content 0..3 on an empty tile other than the start): not written",
                                x, y, why, m->tile[i], m->mark[i]);
        }
    size_t need = tn_map_format_size(m);
    if (!buf || cap < need)
        return save_err(err, TN_FAILURE | TN_BUFFER_TOO_SMALL, 0, 0, name,
                        "the %dx%d map's text needs %zu bytes, the buffer has %zu: not written",
                        m->w, m->h, need, buf ? cap : (size_t)0);
    int hl = covered /* "start X Y" before "tiles" */
                 ? snprintf(buf, cap, "tilenav-map 1\nsize %d %d\nstart %d %d\ntiles\n", m->w, m->h,
                            m->start_x, m->start_y)
                 : snprintf(buf, cap, HEADER_FMT, m->w, m->h);
    char *p = buf + hl;
    for (int y = 0; y < m->h; y++) {
        for (int x = 0; x < m->w; x++) *p++ = tile_char(m, x, y);
        *p++ = '\n';
    }
    *p = '\0';
    if (written) *written = (size_t)(p - buf);
    tn_error_clear(err);
    return TN_OK;
}

tn_status tn_map_format(const tn_map *m, char *buf, size_t cap, size_t *written)
{
    return tn_map_save(m, NULL, buf, cap, written, NULL);
}
