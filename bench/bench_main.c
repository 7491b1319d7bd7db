/* tilenav-bench: benchmark and tool programs that print tables.
 * Usage: tilenav-bench COMMAND [ARGS...]; `tilenav-bench help` lists them. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include "fileio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_percentile(double *v, int n, double p)
{
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(p / 100.0 * (double)(n - 1) + 0.5);
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return v[i];
}

double bench_median(double *v, int n)
{
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void *bench_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "tilenav-bench: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

void *bench_zalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "tilenav-bench: out of memory (%zu x %zu bytes)\n", count, size);
        exit(1);
    }
    return p;
}

int bench_arg_missing(const char *cmd, const char *flag)
{
    tn_print_shown(stderr, "%s: %s needs a value\n", cmd, flag);
    return 2;
}

int bench_arg_unknown(const char *cmd, const char *arg)
{
    if (arg[0] == '-')
        tn_print_shown(stderr, "%s: unknown option '%s'\n", cmd, arg);
    else
        tn_print_shown(stderr, "%s: unexpected argument '%s'\n", cmd, arg);
    return 2;
}

int bench_arg_long(const char *cmd, const char *flag, const char *v, long long lo, long long hi,
                   long long *out)
{
    if (!v) {
        tn_print_shown(stderr, "%s: %s needs a value (%lld..%lld)\n", cmd, flag, lo, hi);
        return -1;
    }
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    /* strtoll skips leading blanks and takes "+5": neither is a number here */
    if (end == v || *end || *v == ' ' || *v == '\t' || *v == '+' || errno == EINVAL) {
        tn_print_shown(stderr, "%s: %s: '%s' is not a whole number (%lld..%lld)\n", cmd, flag, v,
                       lo, hi);
        return -1;
    }
    if (errno == ERANGE || n < lo || n > hi) {
        tn_print_shown(stderr, "%s: %s: %s is outside %lld..%lld\n", cmd, flag, v, lo, hi);
        return -1;
    }
    *out = n;
    return 0;
}

int bench_arg_int(const char *cmd, const char *flag, const char *v, int lo, int hi, int *out)
{
    long long n;
    if (bench_arg_long(cmd, flag, v, lo, hi, &n) != 0) return -1;
    *out = (int)n;
    return 0;
}

int bench_arg_seed(const char *cmd, const char *flag, const char *v, unsigned long long *out)
{
    const char *range = "0..18446744073709551615";
    if (!v) {
        tn_print_shown(stderr, "%s: %s needs a value (%s)\n", cmd, flag, range);
        return -1;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    /* strtoull takes "-1" as 2^64 - 1 */
    if (end == v || *end || *v < '0' || *v > '9') {
        tn_print_shown(stderr, "%s: %s: '%s' is not a whole number (%s)\n", cmd, flag, v, range);
        return -1;
    }
    if (errno == ERANGE) {
        tn_print_shown(stderr, "%s: %s: %s is outside %s\n", cmd, flag, v, range);
        return -1;
    }
    *out = n;
    return 0;
}

int bench_arg_double(const char *cmd, const char *flag, const char *v, double lo, double hi,
                     double *out)
{
    if (!v) {
        tn_print_shown(stderr, "%s: %s needs a value (%g..%g)\n", cmd, flag, lo, hi);
        return -1;
    }
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end || *v == ' ' || *v == '\t' || !isfinite(d)) {
        tn_print_shown(stderr, "%s: %s: '%s' is not a number (%g..%g)\n", cmd, flag, v, lo, hi);
        return -1;
    }
    if (d < lo || d > hi) {
        tn_print_shown(stderr, "%s: %s: %s is outside %g..%g\n", cmd, flag, v, lo, hi);
        return -1;
    }
    *out = d;
    return 0;
}

int bench_arg_list(const char *cmd, const char *flag, const char *v, int lo, int hi, int *out,
                   int cap)
{
    if (!v) {
        tn_print_shown(stderr, "%s: %s needs a value (a list like %d,%d)\n", cmd, flag, lo, hi);
        return -1;
    }
    int n = 0;
    const char *s = v;
    for (;;) {
        size_t len = strcspn(s, ",");
        char item[64];
        if (len >= sizeof item) { /* cut, "000...0005" would read as 0 */
            tn_print_shown(stderr, "%s: %s: an item of '%s' is %zu characters long: not a number\n",
                           cmd, flag, v, len);
            return -1;
        }
        memcpy(item, s, len);
        item[len] = '\0';
        if (n == cap) {
            tn_print_shown(stderr, "%s: %s: '%s' has more than %d items\n", cmd, flag, v, cap);
            return -1;
        }
        if (!*item) {
            tn_print_shown(stderr, "%s: %s: '%s' has an empty item (a list like %d,%d)\n", cmd,
                           flag, v, lo, hi);
            return -1;
        }
        if (bench_arg_int(cmd, flag, item, lo, hi, &out[n]) != 0) return -1;
        n++;
        s += strcspn(s, ",");
        if (!*s) break;
        s++;
    }
    return n;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} COMMANDS[] = {
    {"genmap", bench_genmap,
     "genmap --kind blocks|platformer --size N [--height N] [--blocks N] [--seed S] "
     "[-o FILE.map [--force]]: write a random map (an existing FILE is replaced only with --force; "
     "details: genmap --help)"},
    {"astar", bench_astar,
     "astar [--queries N] [--reps R] [--seed S] [--limit L]: platformer A* query times (demo "
     "map, with and without a search trace; the physics step there; 512x512 level)"},
    {"arrival", bench_arrival,
     "arrival [--levels N] [--goals K] [--seed S] [--out DIR] [--size WxH] [--quiet] "
     "[--planner classic|graph] [--push PX [--push-air]]: bot arrival rate on random levels "
     "(--push: each body pushed PX px once, on the ground or with --push-air in the air; the "
     "failures go into a new folder of the run's own in DIR)"},
    {"flow", bench_flow,
     "flow [--reps N] [--edits N] [--size N]: flow-field rebuild and single-edit update times"},
    {"enemies", bench_enemies,
     "enemies [--map FILE] [--steps N] [--frames N] [--assets DIR]: world step time with 1,000 "
     "and 10,000 enemies, software rendering frame rate"},
    {"render", bench_render,
     "render --map FILE [--frames N] [--steps N] [--overlays none,path,...] [--zooms 0,1,...] "
     "[--pan PX] [--bare] [--edit] [--assets DIR]: "
     "frame drawing time per zoom level and overlay (software renderer)"},
    {"cdt", bench_cdt,
     "cdt --points N | --map FILE... | --dump-input FILE.map | --dump-points N [...]: "
     "triangulation times (options: tilenav-bench cdt --help)"},
    {"navmesh", bench_navmesh,
     "navmesh [--reps N] [--queries N] FILE...: navmesh build, update and query times per map"},
    {"agents", bench_agents,
     "agents [--agents N] [--enemies N] [--steps N] [--runs R] [--size S] [--seed S] "
     "[--only companions|wanderers]: companion-style agents and wanderers step time"},
    {"soak", bench_soak,
     "soak --steps N --seed S [--map FILE] [--every K] [--planner classic|graph]: full world "
     "with random edits, invariants checked"},
    {"tiled", bench_tiled,
     "tiled [--reps N] [--size N] [--keep]: Tiled .tmj/.tmx load times (512x512)"},
    {"edits", bench_edits,
     "edits [--size N] [--seed S] [--edits K] [--frame-ms F]: what a map edit costs the game "
     "on a big level, the graph repaired in the edit and in the background"},
    {"surf", bench_surf,
     "surf [--sizes 64,128,512,1024|none] [--edits K] [--queries Q] [--gaps] [--oracle N] "
     "[--optimality N] [--coyote full|last|all|none] [--landmarks K] [--threads T] "
     "[--huge-pages] [--custom-step] [--light-above N] [--full N]: graph planner build, edit, "
     "query; gap widths; oracle sweep; optimality against the physics"},
};

static bool is_help(const char *a)
{
    return !strcmp(a, "help") || !strcmp(a, "--help") || !strcmp(a, "-h");
}

int main(int argc, char **argv)
{
    size_t n = sizeof COMMANDS / sizeof COMMANDS[0];
    if (argc >= 2) {
        for (size_t i = 0; i < n; i++) {
            if (strcmp(argv[1], COMMANDS[i].name) != 0) continue;
            /* COMMAND --help: its line of the list (genmap and cdt say more) */
            if (argc == 3 && is_help(argv[2]) && strcmp(argv[1], "genmap") != 0 &&
                strcmp(argv[1], "cdt") != 0) {
                printf("usage: tilenav-bench %s\n", COMMANDS[i].help);
                return 0;
            }
            /* an option given twice: the last one won without a word
             * (soak --map a.map --map b.map ran b.map), where the game
             * refuses it; cdt --map FILE... may be repeated, as a list */
            for (int a = 2; a < argc; a++) {
                /* --NAME=VALUE: no command takes it (each reads its value
                 * as the next word), so it was an "unknown option", and a
                 * repeat with another value passed the check below, which
                 * compares whole words: said here, naming the option */
                const char *eq = strchr(argv[a], '=');
                if (!strncmp(argv[a], "--", 2) && eq && eq > argv[a] + 2) {
                    tn_print_shown(stderr,
                                   "%s: %s: give the value as the next word (%.*s %s), not "
                                   "after '='\n",
                                   argv[1], argv[a], (int)(eq - argv[a]), argv[a], eq + 1);
                    return 2;
                }
                if (strncmp(argv[a], "--", 2) != 0 && strcmp(argv[a], "-o") != 0) continue;
                if (!strcmp(argv[1], "cdt") && !strcmp(argv[a], "--map")) continue;
                for (int b = 2; b < a; b++)
                    if (!strcmp(argv[a], argv[b])) {
                        tn_print_shown(stderr, "%s: %s is given twice (give it once)\n", argv[1],
                                       argv[a]);
                        return 2;
                    }
            }
            return COMMANDS[i].fn(argc - 1, argv + 1);
        }
    }
    FILE *out = argc >= 2 && is_help(argv[1]) ? stdout : stderr;
    if (argc >= 2 && out == stderr)
        fprintf(stderr, "tilenav-bench: unknown command '%s'\n", argv[1]);
    fprintf(out, "usage: tilenav-bench COMMAND [ARGS...]\ncommands:\n");
    for (size_t i = 0; i < n; i++) fprintf(out, "  %s\n", COMMANDS[i].help);
    return out == stdout ? 0 : 2;
}
