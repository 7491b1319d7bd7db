#include "script.h"
#include "tiled.h"

#include "fileio.h"
#include "tn_wbots.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 8
#define TOKEN_MAX 256

typedef struct token {
    char s[TOKEN_MAX];
} token;

/* Split a line into whitespace-separated tokens, stopping at '#'.
 * Returns the count; -1 with more than max words, -2 when word *bad (from
 * 1) is longer than TOKEN_MAX - 1 bytes (its length in *bad_len). */
static int tokenize(const char *line, size_t n, token *tok, int max, int *bad, size_t *bad_len)
{
    int count = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
        if (i >= n || line[i] == '#') break;
        size_t start = i;
        while (i < n && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') i++;
        if (count == max) return -1;
        if (i - start >= TOKEN_MAX) {
            *bad = count + 1;
            *bad_len = i - start;
            return -2;
        }
        memcpy(tok[count].s, line + start, i - start);
        tok[count].s[i - start] = '\0';
        count++;
    }
    return count;
}

/* Plain decimal only: digits with at most one '.', nothing else (no sign,
 * blanks, hex, exponent, inf or nan, all of which strtod would take). */
static bool plain_decimal(const char *s)
{
    int digits = 0, dots = 0;
    for (const char *p = s; *p; p++) {
        if (*p >= '0' && *p <= '9')
            digits++;
        else if (*p == '.' && dots++ == 0)
            continue;
        else
            return false;
    }
    return digits > 0;
}

bool tn_parse_number(const char *s, double lo, double hi, double *out)
{
    char *end;
    if (!plain_decimal(s)) return false;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno || !(v >= lo && v <= hi)) return false;
    *out = v;
    return true;
}

/* A whole number lo..hi (lo >= 0) by the same rule. */
static bool parse_long(const char *s, long lo, long hi, long *out)
{
    double v;
    if (!tn_parse_number(s, (double)lo, (double)hi, &v) || v != floor(v)) return false;
    *out = (long)v;
    return true;
}

/* Any plain decimal (the caller checks the range and says so). */
static bool parse_double(const char *s, double *out) { return tn_parse_number(s, 0, DBL_MAX, out); }

/* A word of the script for a message: 'word' when it is printable ASCII;
 * else never the raw bytes: "byte 0x83" for a lone byte (as the map loader
 * says it), and every such byte of a longer word as \xNN ('g\x83o'). */
static const char *shown(const char *t, char *buf, size_t cap)
{
    size_t n = strlen(t), o = 1;
    if (n == 1 && ((unsigned char)t[0] < 0x20 || (unsigned char)t[0] >= 0x7f)) {
        snprintf(buf, cap, "byte 0x%02x", (unsigned char)t[0]);
        return buf;
    }
    buf[0] = '\'';
    for (size_t i = 0; i < n && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c < 0x20 || c >= 0x7f)
            o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
        else
            buf[o++] = (char)c;
    }
    snprintf(buf + o, cap - o, "'");
    return buf;
}

static int lookup(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

static const char *const KEYS[] = {"left", "right", "down", "jump"};
static const char *const BUTTONS[] = {"left", "right", "middle"};
static const char *const EDITS[] = {"block", "oneway", "empty", "spawn", "dest", "item"};
static const char *const TOOLS[] = {"goto", "block", "oneway",  "spawn",
                                    "dest", "item",  "navpath", "target"};

#define FAIL(...)                                                \
    do {                                                         \
        char m_[1024];                                           \
        snprintf(m_, sizeof m_, __VA_ARGS__);                    \
        snprintf(err, errcap, "%s:%d: %s", s->file, lineno, m_); \
        tn_script_destroy(s);                                    \
        return NULL;                                             \
    } while (0)

/* A word for a FAIL message (one per message): see shown(). */
#define Q(word) shown((word), q_, sizeof q_)

/* Why "TX TY" at tok[i], tok[i+1] did not parse, for `cmd`: a whole
 * number past the largest tile is out of range, anything else not a
 * whole number. */
static void tile_problem(const token *tok, int i, const char *cmd, char *buf, size_t cap)
{
    for (int k = i; k < i + 2; k++) {
        const char *t = tok[k].s;
        long v;
        if (parse_long(t, 0, 1000000, &v)) continue;
        if (*t && strspn(t, "0123456789") == strlen(t)) {
            snprintf(buf, cap, "%s: tile coordinate %.40s is out of range 0..1000000", cmd, t);
            return;
        }
        /* "-1": a whole number, but tiles count from 0 with no sign (a
         * reviewer read "needs whole numbers" as wrong for it) */
        if (t[0] == '-' && t[1] && strspn(t + 1, "0123456789") == strlen(t + 1)) {
            snprintf(buf, cap, "%s: tile coordinate %.40s is negative (tiles count from 0)", cmd,
                     t);
            return;
        }
    }
    for (int k = i; k < i + 2; k++) { /* say which word is wrong, and how */
        const char *t = tok[k].s;
        long v;
        if (parse_long(t, 0, 1000000, &v)) continue;
        const char *hash = strchr(t, '#');
        if (hash && hash > t) { /* "1#c": a comment needs a blank before its '#' */
            snprintf(buf, cap,
                     "%s needs whole-number tile coordinates: '%.40s' is not one (a comment "
                     "starts at a '#' after a space or tab: write '%.*s #%.30s')",
                     cmd, t, (int)(hash - t) > 20 ? 20 : (int)(hash - t), t, hash + 1);
            return;
        }
        snprintf(buf, cap, "%s needs whole-number tile coordinates: '%.40s' is not one", cmd, t);
        return;
    }
    snprintf(buf, cap, "%s needs whole-number tile coordinates", cmd);
}

/* Parse "TX TY" at tok[i], tok[i+1]. */
static bool parse_tile(const token *tok, int i, int *x, int *y)
{
    long a, b;
    if (!parse_long(tok[i].s, 0, 1000000, &a) || !parse_long(tok[i + 1].s, 0, 1000000, &b))
        return false;
    *x = (int)a;
    *y = (int)b;
    return true;
}

tn_script *tn_script_parse(const char *buf, size_t len, const char *name, char *err, size_t errcap)
{
    tn_script *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errcap, "%s: out of memory", name);
        return NULL;
    }
    snprintf(s->file, sizeof s->file, "%s", name);
    int tl, tc;
    char tw[256];
    if (tn_text_check(buf, len, &tl, &tc, tw, sizeof tw)) { /* UTF-16, CR-only line ends */
        int lineno = tl;
        FAIL("%s", tw);
    }
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte-order mark */
        buf += 3;
        len -= 3;
    }
    if (len > TN_SCRIPT_MAX_BYTES) {
        int lineno = 0;
        FAIL("script is %zu bytes, larger than the %u-byte limit", len, TN_SCRIPT_MAX_BYTES);
    }
    /* Count the lines that hold a command (not blank, not a comment) for
     * one allocation: memory follows the commands, not the file size. */
    size_t lines = 1;
    bool content = false, comment = false;
    for (size_t i = 0; i < len; i++) {
        char ch = buf[i];
        if (ch == '\n') {
            lines += content;
            content = comment = false;
        } else if (!comment && !content) {
            if (ch == '#')
                comment = true;
            else if (ch != ' ' && ch != '\t' && ch != '\r')
                content = true;
        }
    }
    s->cmds = calloc(lines, sizeof *s->cmds);
    if (!s->cmds) {
        int lineno = 0;
        FAIL("out of memory");
    }
    long last_frame = 0;
    size_t pos = 0;
    int lineno = 0;
    while (pos < len) {
        const char *line = buf + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        pos += n + (nl ? 1 : 0);
        lineno++;
        if (memchr(line, '\0', n)) FAIL("binary data (a NUL byte) in a script line");
        token tok[MAX_TOKENS];
        char q_[TOKEN_MAX * 4 + 64];
        int bad = 0;
        size_t bad_len = 0;
        int nt = tokenize(line, n, tok, MAX_TOKENS, &bad, &bad_len);
        if (nt == -1)
            FAIL("more than %d words (FRAME, COMMAND and at most %d arguments; paths cannot "
                 "contain spaces)",
                 MAX_TOKENS, MAX_TOKENS - 2);
        if (nt < 0) FAIL("word %d is %zu bytes, at most %d", bad, bad_len, TOKEN_MAX - 1);
        if (nt == 0) continue;
        tn_script_cmd c;
        memset(&c, 0, sizeof c);
        c.line = lineno;
        long frame;
        if (!parse_long(tok[0].s, 0, TN_SCRIPT_MAX_FRAME, &frame)) {
            const char *d = tok[0].s + (tok[0].s[0] == '-');
            if (*d && strspn(d, "0123456789") == strlen(d))
                FAIL("frame %s is outside 0..%ld", tok[0].s, TN_SCRIPT_MAX_FRAME);
            FAIL("%s is not a frame number (a whole number 0..%ld; expected FRAME COMMAND ARGS)",
                 Q(tok[0].s), TN_SCRIPT_MAX_FRAME);
        }
        if (frame < last_frame)
            FAIL("frame %ld comes after frame %ld: frames must not decrease", frame, last_frame);
        last_frame = frame;
        c.frame = frame;
        if (nt < 2) FAIL("missing command after the frame number");
        const char *cmd = tok[1].s;
        int nargs = nt - 2;
        if (strcmp(cmd, "key") == 0) {
            if (nargs != 2) FAIL("usage: FRAME key left|right|down|jump press|release");
            c.op = TN_SC_KEY;
            c.arg = lookup(tok[2].s, KEYS, 4);
            if (c.arg < 0) FAIL("unknown key %s (expected left, right, down or jump)", Q(tok[2].s));
            if (strcmp(tok[3].s, "press") == 0)
                c.flag = 1;
            else if (strcmp(tok[3].s, "release") == 0)
                c.flag = 0;
            else
                FAIL("expected press or release, got %s", Q(tok[3].s));
        } else if (strcmp(cmd, "click") == 0) {
            if (nargs != 3 && nargs != 4)
                FAIL("usage: FRAME click TX TY left|right|middle [shift]");
            c.op = TN_SC_CLICK;
            if (!parse_tile(tok, 2, &c.x, &c.y)) {
                char tp[256];
                tile_problem(tok, 2, "click", tp, sizeof tp);
                FAIL("%s", tp);
            }
            c.arg = lookup(tok[4].s, BUTTONS, 3);
            if (c.arg < 0) FAIL("unknown button %s (expected left, right or middle)", Q(tok[4].s));
            if (nargs == 4) {
                if (strcmp(tok[5].s, "shift") != 0)
                    FAIL("unexpected %s (only 'shift' may follow)", Q(tok[5].s));
                c.flag = 1;
            }
        } else if (strcmp(cmd, "toggle") == 0) {
            if (nargs != 3) FAIL("usage: FRAME toggle TX TY block|oneway|empty|spawn|dest|item");
            c.op = TN_SC_TOGGLE;
            if (!parse_tile(tok, 2, &c.x, &c.y)) {
                char tp[256];
                tile_problem(tok, 2, "toggle", tp, sizeof tp);
                FAIL("%s", tp);
            }
            c.arg = lookup(tok[4].s, EDITS, 6);
            if (c.arg < 0)
                FAIL("unknown tile kind %s (expected block, oneway, empty, spawn, dest or item)",
                     Q(tok[4].s));
        } else if (strcmp(cmd, "set") == 0 && nargs == 2 && strcmp(tok[2].s, "speed") == 0) {
            static const char *const SPEEDS[] = {"1/8", "1/4", "1/2", "1", "2", "4"};
            static const double SV[] = {0.125, 0.25, 0.5, 1, 2, 4};
            c.op = TN_SC_SPEED;
            int k = lookup(tok[3].s, SPEEDS, 6);
            double v;
            if (k < 0 && parse_double(tok[3].s, &v))
                for (int i = 0; i < 6; i++)
                    if (v == SV[i]) k = i;
            if (k < 0) FAIL("speed %s is not one of 1/8, 1/4, 1/2, 1, 2, 4", Q(tok[3].s));
            c.value = SV[k];
        } else if (strcmp(cmd, "reset") == 0) {
            if (nargs != 0) FAIL("usage: FRAME reset");
            c.op = TN_SC_RESET;
        } else if (strcmp(cmd, "pause") == 0) {
            if (nargs != 1 || (strcmp(tok[2].s, "on") != 0 && strcmp(tok[2].s, "off") != 0))
                FAIL("usage: FRAME pause on|off");
            c.op = TN_SC_PAUSE;
            c.value = strcmp(tok[2].s, "on") == 0;
        } else if (strcmp(cmd, "playback") == 0) {
            long n;
            if (nargs != 1) FAIL("usage: FRAME playback N|all");
            c.op = TN_SC_PLAYBACK;
            if (strcmp(tok[2].s, "all") == 0)
                c.value = -1;
            else if (parse_long(tok[2].s, 0, 100000000L, &n))
                c.value = (double)n;
            else
                FAIL("playback needs a number of events or 'all', got %s", Q(tok[2].s));
        } else if (strcmp(cmd, "set") == 0 || strcmp(cmd, "wanderers") == 0) {
            const char *pname = strcmp(cmd, "set") == 0 ? tok[2].s : "wanderers";
            const char *val = strcmp(cmd, "set") == 0 ? tok[3].s : tok[2].s;
            if (strcmp(cmd, "set") == 0 && nargs != 2) FAIL("usage: FRAME set NAME VALUE");
            if (strcmp(cmd, "wanderers") == 0 && nargs != 1) FAIL("usage: FRAME wanderers N");
            const tn_param_info *p = tn_world_param_find(pname);
            if (!p) {
                char hint[200];
                tn_world_param_hint(pname, hint, sizeof hint);
                FAIL("unknown parameter %s (%s)", Q(pname), hint);
            }
            c.op = TN_SC_SET;
            c.name = p->name;
            if (strcmp(p->name, "planner") == 0 &&
                (!strcmp(val, "classic") || !strcmp(val, "graph")))
                c.value = strcmp(val, "graph") == 0 ? 1.0 : 0.0;
            else if (!parse_double(val, &c.value))
                FAIL(strcmp(p->name, "planner") == 0 ? "planner %s: expected classic or graph"
                                                     : "%s is not a plain decimal number",
                     Q(val));
            if (!(c.value >= p->min && c.value <= p->max))
                FAIL("%s %s is outside %g..%g", p->name, val, p->min, p->max);
            if (p->integer && c.value != floor(c.value)) FAIL("%s takes whole numbers", p->name);
        } else if (strcmp(cmd, "goto") == 0) {
            if (nargs != 2) FAIL("usage: FRAME goto TX TY");
            c.op = TN_SC_GOTO;
            if (!parse_tile(tok, 2, &c.x, &c.y)) {
                char tp[256];
                tile_problem(tok, 2, "goto", tp, sizeof tp);
                FAIL("%s", tp);
            }
        } else if (strcmp(cmd, "knock") == 0) {
            if (nargs != 1)
                FAIL("usage: FRAME knock DX (a push in px, at most %d; negative: to the left, "
                     "e.g. knock 1.3 or knock -1.3)",
                     TN_TILE_PX);
            c.op = TN_SC_KNOCK;
            const char *t = tok[2].s;
            const bool neg = t[0] == '-';
            double v;
            if (!tn_parse_number(t + (neg || t[0] == '+'), 0, DBL_MAX, &v))
                FAIL("knock needs a push in px (a plain decimal, '-' for left), got %s", Q(t));
            if (v > TN_TILE_PX)
                FAIL("knock %s is outside -%d..%d px (a knock-back is at most a tile)", t,
                     TN_TILE_PX, TN_TILE_PX);
            if ((float)v == 0.0f) /* (0, or below the smallest float: 0 px in the world) */
                FAIL("knock %s moves nothing: give 0 < |DX| <= %d px", t, TN_TILE_PX);
            c.value = neg ? -v : v;
        } else if (strcmp(cmd, "tool") == 0) {
            if (nargs != 1)
                FAIL("usage: FRAME tool goto|block|oneway|spawn|dest|item|navpath|target");
            c.op = TN_SC_TOOL;
            c.arg = lookup(tok[2].s, TOOLS, TN_TOOL_COUNT);
            if (c.arg < 0) FAIL("unknown tool %s", Q(tok[2].s));
        } else if (strcmp(cmd, "save") == 0 || strcmp(cmd, "screenshot") == 0) {
            if (nargs > 1)
                FAIL("%s takes one FILE without spaces, got %d words after '%s' (a path "
                     "cannot contain spaces)",
                     cmd, nargs, cmd);
            if (nargs != 1) FAIL("usage: FRAME %s FILE", cmd);
            c.op = cmd[1] == 'a' ? TN_SC_SAVE : TN_SC_SCREENSHOT;
            if (c.op == TN_SC_SCREENSHOT && !tn_is_bmp_name(tok[2].s))
                FAIL("screenshot writes a BMP image: give a name ending in .bmp, got %s",
                     Q(tok[2].s));
            c.path = malloc(strlen(tok[2].s) + 1);
            if (!c.path) FAIL("out of memory");
            strcpy(c.path, tok[2].s);
        } else {
            FAIL("unknown command %s (expected key, click, toggle, set, goto, knock, tool, save, "
                 "screenshot, wanderers, reset, pause or playback)",
                 Q(cmd));
        }
        s->cmds[s->count++] = c;
    }
    return s;
}

void tn_script_destroy(tn_script *s)
{
    if (!s) return;
    for (int i = 0; i < s->count; i++) free(s->cmds[i].path);
    free(s->cmds);
    free(s);
}

/* A command the world refused (a rule, a tile it cannot take) or did
 * elsewhere than asked: the run goes on, the user hears why. */
static void warn_host(const tn_script *s, const tn_script_cmd *c, const tn_script_host *host,
                      const char *what, const char *verb, const char *why)
{
    char m[1024];
    snprintf(m, sizeof m, "%s:%d: %s %s (frame %ld): %s", s->file, c->line, what, verb, c->frame,
             why);
    if (host && host->warn)
        host->warn(host->user, m);
    else
        tn_print_shown(stderr, "tilenav: warning: %s\n", m);
}

static void warn_refused(const tn_script *s, const tn_script_cmd *c, const tn_script_host *host,
                         const char *what, const char *why)
{
    warn_host(s, c, host, what, "refused", why);
}

static bool check_tile(const tn_script *s, const tn_script_cmd *c, const tn_world *w, char *err,
                       size_t errcap)
{
    if (tn_map_inside(tn_world_map(w), c->x, c->y)) return true;
    snprintf(err, errcap, "%s:%d: tile (%d,%d) is outside the %dx%d map", s->file, c->line, c->x,
             c->y, tn_world_map(w)->w, tn_world_map(w)->h);
    return false;
}

int tn_script_apply(tn_script *s, tn_world *w, long frame, const tn_script_host *host, char *err,
                    size_t errcap)
{
    while (s->next < s->count && s->cmds[s->next].frame <= frame) {
        const tn_script_cmd *c = &s->cmds[s->next++];
        tn_error e;
        switch (c->op) {
        case TN_SC_KEY: {
            bool *k[4] = {&s->keys.left, &s->keys.right, &s->keys.down, &s->keys.jump};
            *k[c->arg] = c->flag != 0;
            break;
        }
        case TN_SC_CLICK:
        case TN_SC_TOGGLE:
        case TN_SC_GOTO: {
            if (!check_tile(s, c, w, err, errcap)) return -1;
            static const char *const op[] = {"click", "toggle", "goto"};
            int k = c->op == TN_SC_CLICK ? 0 : c->op == TN_SC_TOGGLE ? 1 : 2;
            tn_status r = k == 0
                              ? tn_world_click(w, c->x, c->y, (tn_button)c->arg, c->flag != 0, &e)
                          : k == 1 ? tn_world_edit(w, c->x, c->y, (tn_edit)c->arg, &e)
                                   : tn_world_goto(w, c->x, c->y, &e);
            if (tn_failed(r) || tn_status_detail(r, TN_PARTIAL_RESULT)) {
                /* refused, or done somewhere else than asked (a navpath
                 * goal moved to where the agent's radius fits) */
                char what[64];
                snprintf(what, sizeof what, "%s %d %d", op[k], c->x, c->y);
                warn_host(s, c, host, what, tn_failed(r) ? "refused" : "adjusted", e.msg);
            }
            break;
        }
        case TN_SC_TOOL: tn_world_set_tool(w, (tn_tool)c->arg); break;
        case TN_SC_KNOCK:
            if (tn_failed(tn_world_knock(w, (float)c->value, &e))) {
                /* in the air, or against a wall: said, the run goes on */
                char what[64];
                snprintf(what, sizeof what, "knock %g", c->value);
                warn_refused(s, c, host, what, e.msg);
            }
            break;
        case TN_SC_SET:
            if (tn_failed(tn_world_set(w, c->name, c->value, &e))) {
                /* Refusals by a rule (no room to grow) are reported, not fatal. */
                if (!tn_status_detail(e.status, TN_REFUSED)) {
                    snprintf(err, errcap, "%s:%d: %s", s->file, c->line, e.msg);
                    return -1;
                }
                char what[96];
                snprintf(what, sizeof what, "set %s %g", c->name, c->value);
                warn_refused(s, c, host, what, e.msg);
            } else if (strcmp(c->name, "planner") == 0) {
                /* classic selected, but a map this large has no classic
                 * finder (the world keeps the choice, goto plans with the
                 * graph), or goto is off altogether: said as a refused set
                 * is, but not counted as one (the world keeps the choice) */
                const tn_map *m = tn_world_map(w);
                const char *eff = tn_wbots_planner_in_effect(w);
                const char *what = c->value < 0.5 ? "set planner classic" : "set planner graph";
                char why[160];
                if (strcmp(eff, "none") == 0) {
                    snprintf(why, sizeof why,
                             "goto is off on this %dx%d map (above the graph planner's 1024x1024 "
                             "tiles): neither planner plans",
                             m->w, m->h);
                    warn_host(s, c, host, what, "has no effect", why); /* (kept: not refused) */
                } else if (c->value < 0.5 && strcmp(eff, "graph") == 0) {
                    snprintf(why, sizeof why,
                             "there is no classic path finder on this %dx%d map (above "
                             "512x512): goto plans with the graph",
                             m->w, m->h);
                    warn_host(s, c, host, what, "has no effect", why);
                }
            }
            break;
        case TN_SC_SPEED:
        case TN_SC_RESET:
        case TN_SC_PAUSE:
        case TN_SC_PLAYBACK: {
            char m[512];
            if (!host || !host->control) {
                if (c->op != TN_SC_RESET) break; /* display only */
                snprintf(err, errcap, "%s:%d: reset is not available in this mode", s->file,
                         c->line);
                return -1;
            }
            if (host->control(host->user, w, (int)c->op, c->value, m, sizeof m) != 0) {
                snprintf(err, errcap, "%s:%d: %s", s->file, c->line, m);
                return -1;
            }
            break;
        }
        case TN_SC_SAVE:
        case TN_SC_SCREENSHOT: {
            int (*fn)(void *, tn_world *, const char *, char *, size_t) =
                c->op == TN_SC_SAVE ? (host ? host->save : NULL) : (host ? host->screenshot : NULL);
            char m[512] = "";
            if (!fn) {
                snprintf(err, errcap, "%s:%d: %s is not available in this mode", s->file, c->line,
                         c->op == TN_SC_SAVE ? "save" : "screenshot");
                return -1;
            }
            if (fn(host->user, w, c->path, m, sizeof m) != 0) {
                snprintf(err, errcap, "%s:%d: %s", s->file, c->line, m);
                return -1;
            }
            if (c->op == TN_SC_SAVE && m[0]) { /* saved, but not all of it */
                tn_print_shown(stderr, "tilenav: warning: %s:%d: %s\n", s->file, c->line, m);
                tn_world_message(w, "warning: %s", m);
                tn_world_set_message_ttl(w, 60 * 10);
            }
            break;
        }
        }
    }
    tn_world_set_input(w, s->keys);
    return 0;
}

int tn_script_unrun(const tn_script *s, long last_frame, char *msg, size_t cap)
{
    if (cap) msg[0] = '\0';
    if (!s || s->next >= s->count) return 0;
    int n = s->count - s->next;
    const tn_script_cmd *c = &s->cmds[s->next];
    snprintf(msg, cap,
             "warning: %s: %d command%s not run: scheduled after the last frame (%ld), "
             "the first at line %d (frame %ld); raise --frames to run them",
             s->file, n, n == 1 ? "" : "s", last_frame, c->line, c->frame);
    return n;
}

int tn_save_world_map(const tn_world *w, const char *path, const char *source, char *err,
                      size_t cap)
{
    const tn_map *m = tn_world_map(w);
    int sx, sy;
    if (m->start_x >= 0 || !tn_world_covered_start(w, &sx, &sy))
        return tn_save_map_as(m, path, source, err, cap);
    tn_map *c = NULL; /* the start under its block goes into the file too */
    tn_error e;
    if (tn_failed(tn_map_clone(m, &c, &e))) {
        snprintf(err, cap, "%s: %s (not saved)", path, e.msg);
        return -1;
    }
    c->start_x = sx;
    c->start_y = sy;
    int rc = tn_save_map_as(c, path, source, err, cap);
    tn_map_destroy(c);
    return rc;
}

int tn_script_save_map(tn_world *w, const char *path, const char *loaded_from, char *err,
                       size_t cap)
{
    bool own = loaded_from && tn_same_file(path, loaded_from);
    /* a file of the user's that is not a map is never replaced (its own
     * file is checked against what was loaded instead: tn_origin_check) */
    if (!own && tn_save_target_check(path, err, cap) != 0) return -1;
    if (tn_save_world_map(w, path, loaded_from, err, cap) != 0) return -1;
    if (own) tn_world_set_dirty(w, false);
    tn_tiled_save_drops(path, loaded_from, err, cap); /* a warning, or "" */
    return 0;
}

int tn_script_run(tn_script *s, tn_world *w, long frames, const tn_script_host *host,
                  void (*after)(tn_world *w, void *ctx), void *ctx, char *err, size_t errcap)
{
    for (long f = 0; f < frames; f++) {
        if (s && tn_script_apply(s, w, tn_world_frame(w), host, err, errcap) != 0) return -1;
        tn_world_step(w);
        if (after) after(w, ctx);
    }
    return s ? tn_script_apply(s, w, tn_world_frame(w), host, err, errcap) : 0;
}
