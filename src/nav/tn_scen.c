/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_scen.h"
#include "internal/named_err.h"

#include "tn_map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A line of the input: [p, e) without its '\n' (and without a trailing '\r'). */
typedef struct span {
    const char *p, *e;
} span;

/* The next line starting at *pos; false at the end of the buffer. */
static bool next_line(const char *buf, size_t len, size_t *pos, span *out)
{
    if (*pos >= len) return false;
    const char *p = buf + *pos, *end = buf + len;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    *pos = nl ? (size_t)(nl - buf) + 1 : len;
    if (e > p && e[-1] == '\r') e--;
    out->p = p;
    out->e = e;
    return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t'; }

static bool is_blank(span s)
{
    for (const char *p = s.p; p < s.e; p++)
        if (!is_space(*p)) return false;
    return true;
}

/* Split into at most `max` whitespace-separated tokens; returns how many
 * there are (max + 1 when there are more). */
static int split(span s, span *tok, int max)
{
    int n = 0;
    const char *p = s.p;
    for (;;) {
        while (p < s.e && is_space(*p)) p++;
        if (p >= s.e) return n;
        const char *b = p;
        while (p < s.e && !is_space(*p)) p++;
        if (n == max) return max + 1;
        tok[n].p = b;
        tok[n].e = p;
        n++;
    }
}

static bool tok_eq(span t, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(t.e - t.p) == n && memcmp(t.p, s, n) == 0;
}

/* A non-negative decimal integer up to `max`. */
static bool parse_int(span t, int max, int *out)
{
    if (t.p == t.e) return false;
    long v = 0;
    for (const char *p = t.p; p < t.e; p++) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + (*p - '0');
        if (v > max) return false;
    }
    *out = (int)v;
    return true;
}

/* A finite non-negative decimal: digits [. digits] [e|E [+|-] digits]. */
static bool parse_len(span t, double *out)
{
    const char *p = t.p;
    int digits = 0;
    while (p < t.e && *p >= '0' && *p <= '9') p++, digits++;
    if (p < t.e && *p == '.') {
        p++;
        while (p < t.e && *p >= '0' && *p <= '9') p++, digits++;
    }
    if (digits == 0) return false;
    if (p < t.e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < t.e && (*p == '+' || *p == '-')) p++;
        int ed = 0;
        while (p < t.e && *p >= '0' && *p <= '9') p++, ed++;
        if (ed == 0) return false;
    }
    if (p != t.e) return false;
    char tmp[64];
    size_t n = (size_t)(t.e - t.p);
    if (n >= sizeof tmp) return false;
    memcpy(tmp, t.p, n);
    tmp[n] = '\0';
    double v = strtod(tmp, NULL);
    if (!isfinite(v)) return false;
    *out = v;
    return true;
}

static const char *const FIELD[9] = {"bucket",  "map",    "map width", "map height",    "start x",
                                     "start y", "goal x", "goal y",    "optimal length"};

/* A message about the named text: "NAME:LINE: problem" ("NAME: problem"
 * for line 0), NAME shortened by tn_name_fit when the whole would not fit,
 * so that the line and the problem always survive (a long path used to
 * fill the message and cut both off). */
#define scen_err(err, st, line, col, name, ...) \
    tn_commoni_error_named(err, st, name, line, col, false, __VA_ARGS__)

/* Parse one query line; on error fill err and return a failure. */
static tn_status parse_query(span s, const char *name, int line, tn_scen_query *q, tn_error *err)
{
    for (const char *p = s.p; p < s.e; p++) {
        unsigned char c = (unsigned char)*p;
        if ((c < 32 && c != '\t') || c == 127)
            return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line, (int)(p - s.p) + 1, name,
                            "control byte 0x%02x in the line", c);
    }
    span t[9];
    int n = split(s, t, 9);
    if (n != 9)
        return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line, 0, name,
                        "expected 9 fields (bucket map width height sx sy gx gy length), "
                        "found %s%d",
                        n > 9 ? "more than " : "", n > 9 ? 9 : n);
    if (!parse_int(t[0], 1000000000, &q->bucket))
        return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line, 0, name,
                        "bucket '%.*s' is not a non-negative integer",
                        (int)tn_mini((int)(t[0].e - t[0].p), 32), t[0].p);
    /* Basename of the map path. */
    const char *b = t[1].p;
    for (const char *p = t[1].p; p < t[1].e; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    size_t bl = (size_t)(t[1].e - b);
    if (bl == 0)
        return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line, 0, name,
                        "map path '%.*s' has no file name",
                        (int)tn_mini((int)(t[1].e - t[1].p), 64), t[1].p);
    if (bl >= TN_SCEN_NAME_MAX)
        return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line, 0, name,
                        "map name is %zu bytes long (at most %d)", bl, TN_SCEN_NAME_MAX - 1);
    memcpy(q->map, b, bl);
    q->map[bl] = '\0';
    int *const ints[6] = {&q->map_w, &q->map_h, &q->sx, &q->sy, &q->gx, &q->gy};
    for (int i = 0; i < 6; i++) {
        int max = i < 2 ? TN_MAP_MAX_SIZE : (i % 2 == 0 ? q->map_w - 1 : q->map_h - 1);
        if (!parse_int(t[2 + i], max, ints[i]) || (i < 2 && *ints[i] < 1)) {
            const char *range = i < 2 ? "1.." : "0..";
            return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line, 0, name,
                            "%s '%.*s' is not an integer in %s%d", FIELD[2 + i],
                            (int)tn_mini((int)(t[2 + i].e - t[2 + i].p), 32), t[2 + i].p, range,
                            max);
        }
    }
    if (!parse_len(t[8], &q->optimal))
        return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line, 0, name,
                        "optimal length '%.*s' is not a non-negative number",
                        (int)tn_mini((int)(t[8].e - t[8].p), 32), t[8].p);
    return TN_OK;
}

tn_status tn_scen_parse(const char *buf, size_t len, const char *name, const tn_allocator *a,
                        tn_scen **out, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (out) *out = NULL;
    if (!name) name = "scen"; /* the module speaks (tn_common.h) */
    if (!out || (!buf && len > 0))
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "scen: %s",
                            !out ? "no output pointer (out NULL)"
                                 : "no text (buf NULL with a length)");
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte-order mark */
        buf += 3;
        len -= 3;
    }
    /* Header. */
    size_t pos = 0;
    span s;
    int line = 0;
    bool have = false;
    while (next_line(buf, len, &pos, &s)) {
        line++;
        if (!is_blank(s)) {
            have = true;
            break;
        }
    }
    if (!have)
        return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line ? line : 1, 0, name,
                        "empty file: expected 'version 1'");
    span t[3];
    int n = split(s, t, 2);
    if (n != 2 || !tok_eq(t[0], "version") || !(tok_eq(t[1], "1") || tok_eq(t[1], "1.0")))
        return scen_err(err, TN_FAILURE | TN_PARSE_ERROR, line, 0, name,
                        "expected 'version 1' as the first line");
    size_t body = pos;
    int body_line = line;
    /* Count the queries before allocating. */
    size_t count = 0;
    while (next_line(buf, len, &pos, &s))
        if (!is_blank(s)) count++;
    if (count > (size_t)INT32_MAX)
        return scen_err(err, TN_FAILURE | TN_LIMIT_REACHED, 0, 0, name, "too many queries");
    tn_scen *sc = tn_alloc(a, sizeof *sc);
    tn_scen_query *q = sc ? tn_alloc_array(a, count ? count : 1, sizeof *q) : NULL;
    if (!q) {
        tn_free(a, sc);
        return scen_err(err, TN_FAILURE | TN_OUT_OF_MEMORY, 0, 0, name,
                        "out of memory for %zu queries", count);
    }
    if (a) sc->alloc = *a;
    sc->q = q;
    pos = body;
    line = body_line;
    int k = 0;
    while (next_line(buf, len, &pos, &s)) {
        line++;
        if (is_blank(s)) continue;
        tn_status st = parse_query(s, name, line, &q[k], err);
        if (tn_failed(st)) {
            tn_scen_destroy(sc);
            return st;
        }
        k++;
    }
    sc->count = k;
    *out = sc;
    return TN_OK;
}

void tn_scen_destroy(tn_scen *s)
{
    if (!s) return;
    tn_allocator a = s->alloc;
    tn_free(&a, s->q);
    tn_free(&a, s);
}
