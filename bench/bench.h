/* bench.h - subcommands of tilenav-bench.  Each lives in its own file
 * bench/bench_NAME.c and returns a process exit code. */
#ifndef TN_BENCH_H
#define TN_BENCH_H

#include <stddef.h>
#include <stdint.h>

int bench_genmap(int argc, char **argv);  /* bench_gen.c      */
int bench_astar(int argc, char **argv);   /* bench_astar.c    */
int bench_arrival(int argc, char **argv); /* bench_arrival.c  */
int bench_flow(int argc, char **argv);    /* bench_flow.c     */
int bench_enemies(int argc, char **argv); /* bench_enemies.c  */
int bench_cdt(int argc, char **argv);     /* bench_cdt.c      */
int bench_navmesh(int argc, char **argv); /* bench_navmesh.c  */
int bench_agents(int argc, char **argv);  /* bench_agents.c   */
int bench_soak(int argc, char **argv);    /* bench_soak.c     */
int bench_tiled(int argc, char **argv);   /* bench_tiled.c    */
int bench_surf(int argc, char **argv);    /* bench_surf.c     */
int bench_render(int argc, char **argv);  /* bench_render.c   */
int bench_edits(int argc, char **argv);   /* bench_edits.c    */

/* Monotonic time in seconds (CLOCK_MONOTONIC). */
double bench_now(void);
/* This thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID): less
 * distorted than wall time on a shared machine. */
double bench_cpu_now(void);
/* Median of n doubles (sorts the array in place). */
double bench_median(double *v, int n);
/* malloc / calloc that end the program with "out of memory (N bytes)"
 * (exit 1) instead of returning NULL: a bench's sizes come from its flags,
 * and a range a flag accepts may still be more than the machine has. */
void *bench_alloc(size_t n);
void *bench_zalloc(size_t count, size_t size);
/* The p-th percentile (0..100) of n doubles (sorts in place). */
double bench_percentile(double *v, int n, double p);

/* Command-line values, the whole text checked (strtoll/strtoull/strtod: no
 * trailing text, no overflow, within lo..hi).  0 with *out set, or -1
 * after "CMD: FLAG: 'TEXT' is not a whole number (LO..HI)", "CMD: FLAG:
 * TEXT is outside LO..HI" or, for v == NULL, "CMD: FLAG needs a value
 * (LO..HI)" on standard error: the caller returns 2 (a usage error). */
int bench_arg_int(const char *cmd, const char *flag, const char *v, int lo, int hi, int *out);
int bench_arg_long(const char *cmd, const char *flag, const char *v, long long lo, long long hi,
                   long long *out);
int bench_arg_seed(const char *cmd, const char *flag, const char *v, unsigned long long *out);
int bench_arg_double(const char *cmd, const char *flag, const char *v, double lo, double hi,
                     double *out);
/* A comma-separated list of whole numbers in lo..hi (at most cap): their
 * count, or -1 after a message as above naming the bad item. */
int bench_arg_list(const char *cmd, const char *flag, const char *v, int lo, int hi, int *out,
                   int cap);
/* "CMD: FLAG needs a value" / "CMD: unknown option 'ARG'" ("unexpected
 * argument" when it does not start with '-'): printed; returns 2. */
int bench_arg_missing(const char *cmd, const char *flag);
int bench_arg_unknown(const char *cmd, const char *arg);

#endif
