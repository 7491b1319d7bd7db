/* bench.h - subcommands of tilenav-bench.  Each lives in its own file
 * bench/bench_NAME.c and returns a process exit code. */
#ifndef TN_BENCH_H
#define TN_BENCH_H

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
/* The p-th percentile (0..100) of n doubles (sorts in place). */
double bench_percentile(double *v, int n, double p);

#endif
