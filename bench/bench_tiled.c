/* tilenav-bench tiled: how long loading a Tiled map takes (tn_load_map:
 * read the file, parse it with libxml2 / cJSON, decode the layers, place
 * the objects), against tilenav's own format for the same map.
 *
 * The map: a generated 512x512 platformer level (fixed seed) with 200
 * items and spawns as objects, written by the game's own saver as a new
 * document (base64 + zlib above 65536 cells), and as CSV variants made
 * from it (JSON array / TMX text).  Each file is loaded --reps times
 * (default 21); median and p90 wall-clock per file, and the median CPU
 * time of the process (which a loaded, shared machine inflates much
 * less).  Target: a 512x512 .tmj loads in at most 20 ms (median wall).
 * Usage: tilenav-bench tiled [--reps N] [--size N] [--keep]  (--keep: leave
 * the files in /tmp/tilenav-bench-tiled-XXXXXX and print where)
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "tiled.h"
#include "tn_levelgen.h"
#include "tn_map.h"
#include "tn_rng.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int write_text(const char *path, const char *text, size_t len)
{
    char err[512];
    if (tn_write_file_atomic(path, text, len, err, sizeof err) != 0) {
        fprintf(stderr, "tiled: %s\n", err);
        return -1;
    }
    return 0;
}

/* The .tmj with its layer as a JSON array (Tiled's "CSV" for JSON). */
static int tmj_csv(const tn_map *m, const char *zlib_path, const char *out)
{
    char *buf, err[512];
    size_t len;
    if (tn_read_file(zlib_path, 1u << 28, &buf, &len, err, sizeof err) != 0) return -1;
    cJSON *j = cJSON_Parse(buf);
    free(buf);
    cJSON *layer = j ? cJSON_GetArrayItem(cJSON_GetObjectItem(j, "layers"), 0) : NULL;
    if (!layer) return -1;
    cJSON_DeleteItemFromObject(layer, "encoding");
    cJSON_DeleteItemFromObject(layer, "compression");
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < m->w * m->h; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(m->tile[i] == TN_TILE_BLOCK    ? 1
                                                   : m->tile[i] == TN_TILE_ONEWAY ? 2
                                                                                  : 0));
    cJSON_ReplaceItemInObject(layer, "data", a);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    int rc = text ? write_text(out, text, strlen(text)) : -1;
    cJSON_free(text);
    return rc;
}

/* The .tmx with its layer as CSV text. */
static int tmx_csv(const tn_map *m, const char *zlib_path, const char *out)
{
    char *buf, err[512];
    size_t len;
    if (tn_read_file(zlib_path, 1u << 28, &buf, &len, err, sizeof err) != 0) return -1;
    const char *open_tag = "<data encoding=\"base64\" compression=\"zlib\">";
    char *a = strstr(buf, open_tag), *b = a ? strstr(a, "</data>") : NULL;
    if (!b) {
        free(buf);
        return -1;
    }
    size_t cells = (size_t)m->w * (size_t)m->h, cap = len + cells * 2 + 64, k;
    char *t = bench_alloc(cap);
    if (!t) {
        free(buf);
        return -1;
    }
    k = (size_t)(a - buf);
    memcpy(t, buf, k);
    k += (size_t)sprintf(t + k, "<data encoding=\"csv\">\n");
    for (size_t i = 0; i < cells; i++) {
        t[k++] = m->tile[i] == TN_TILE_BLOCK ? '1' : m->tile[i] == TN_TILE_ONEWAY ? '2' : '0';
        if (i + 1 < cells) t[k++] = ',';
        if ((i + 1) % (size_t)m->w == 0) t[k++] = '\n';
    }
    memcpy(t + k, b, len - (size_t)(b - buf));
    k += len - (size_t)(b - buf);
    int rc = write_text(out, t, k);
    free(t);
    free(buf);
    return rc;
}

int bench_tiled(int argc, char **argv)
{
    int reps = 21, size = 512;
    bool keep = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad;
        if (strcmp(a, "--keep") == 0) {
            keep = true;
            continue;
        }
        if (strcmp(a, "--reps") == 0)
            bad = bench_arg_int("tiled", a, v, 1, 10000, &reps);
        else if (strcmp(a, "--size") == 0) /* new documents use zlib from 65537 cells on */
            bad = bench_arg_int("tiled", a, v, 257, 4096, &size);
        else {
            bench_arg_unknown("tiled", a);
            fprintf(stderr, "usage: tilenav-bench tiled [--reps N] [--size N] [--keep]\n");
            return 2;
        }
        if (bad) return 2;
        i++;
    }
    tn_map *m = NULL;
    tn_map_create(size, size, NULL, &m, NULL);
    tn_rng rng;
    tn_rng_seed(&rng, 15, 1);
    tn_error e;
    if (!m || tn_failed(tn_levelgen_platformer(m, &rng, &e))) {
        fprintf(stderr, "tiled: cannot generate the level\n");
        tn_map_destroy(m);
        return 1;
    }
    for (int k = 0; k < 200; k++) {
        int i = (int)tn_rng_below(&rng, (uint32_t)(size * size));
        if (m->tile[i] == TN_TILE_EMPTY)
            m->mark[i] = (uint8_t)(k % 2 ? TN_MARK_ITEM : TN_MARK_SPAWN);
    }
    char dir[] = "/tmp/tilenav-bench-tiled-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("tiled: mkdtemp");
        tn_map_destroy(m);
        return 1;
    }
    char p[6][128], err[512];
    const char *names[6] = {"zlib.tmj", "csv.tmj", "zlib.tmx", "csv.tmx", "level.map", NULL};
    for (int i = 0; names[i]; i++) snprintf(p[i], sizeof p[i], "%s/%s", dir, names[i]);
    int rc = 0;
    if (tn_save_map(m, p[0], err, sizeof err) != 0 || tn_save_map(m, p[2], err, sizeof err) != 0 ||
        tn_save_map(m, p[4], err, sizeof err) != 0) {
        fprintf(stderr, "tiled: %s\n", err);
        rc = 1;
    }
    if (!rc && (tmj_csv(m, p[0], p[1]) != 0 || tmx_csv(m, p[2], p[3]) != 0)) {
        fprintf(stderr, "tiled: cannot write the CSV variants\n");
        rc = 1;
    }
    printf("Tiled map load (tn_load_map), %dx%d platformer level, %d runs each\n", size, size,
           reps);
    printf("%-10s %10s %10s %10s %10s  %s\n", "file", "bytes", "median ms", "p90 ms", "cpu ms",
           "loads equal");
    double *t = bench_alloc(sizeof(double) * (size_t)reps),
           *ct = bench_alloc(sizeof(double) * (size_t)reps), tmj_worst = 0;
    for (int i = 0; !rc && names[i]; i++) {
        bool same = true;
        for (int r = 0; r < reps; r++) {
            tn_map *back = NULL;
            double t0 = bench_now(), c0 = cpu_now();
            if (tn_load_map(p[i], &back, err, sizeof err) != 0) {
                fprintf(stderr, "tiled: %s\n", err);
                rc = 1;
                break;
            }
            t[r] = (bench_now() - t0) * 1e3;
            ct[r] = (cpu_now() - c0) * 1e3;
            if (!tn_map_equal(back, m)) same = false;
            tn_map_destroy(back);
        }
        if (rc) break;
        FILE *f = fopen(p[i], "rb");
        long bytes = -1;
        if (f) {
            fseek(f, 0, SEEK_END);
            bytes = ftell(f);
            fclose(f);
        }
        double p90 = bench_percentile(t, reps, 90), med = bench_median(t, reps);
        if (strstr(names[i], ".tmj") && med > tmj_worst) tmj_worst = med;
        printf("%-10s %10ld %10.2f %10.2f %10.2f  %s\n", names[i], bytes, med, p90,
               bench_median(ct, reps), same ? "yes" : "NO");
        if (!same) rc = 1;
    }
    if (!rc && size == 512)
        printf("target: a 512x512 .tmj loads in <= 20 ms: slowest .tmj median %.2f ms: %s\n",
               tmj_worst, tmj_worst <= 20 ? "met" : "NOT met");
    free(t);
    free(ct);
    if (keep) {
        printf("files kept in %s\n", dir);
    } else {
        for (int i = 0; names[i]; i++) remove(p[i]);
        rmdir(dir);
    }
    tn_map_destroy(m);
    return rc;
}
