/* tiled_stub.c - the browser build's Tiled loader: none.  src/game/tiled.c
 * needs libxml2, cJSON and zlib, which Debian ships for the native build
 * only; in the browser a .tmx/.tmj/.json path is recognised and refused
 * with a message, so the rest of the game (tilenav maps, Moving AI maps)
 * works unchanged.  Same API as src/game/tiled.h. */
#include "tiled.h"

#include <stdio.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int tn_tiled_kind(const char *path)
{
    if (ends_with(path, ".tmx")) return TN_TILED_TMX;
    if (ends_with(path, ".tmj") || ends_with(path, ".json")) return TN_TILED_TMJ;
    return 0;
}

static int refuse(const char *path, char *err, size_t cap)
{
    if (cap) snprintf(err, cap, "%s: Tiled maps are not supported in the browser build", path);
    return -1;
}

int tn_tiled_load(const char *path, tn_map **out, char *err, size_t cap)
{
    *out = NULL;
    return refuse(path, err, cap);
}

int tn_tiled_load_buffer(const char *buf, size_t len, const char *path, int fmt, tn_map **out,
                         char *err, size_t cap)
{
    (void)buf, (void)len, (void)fmt;
    *out = NULL;
    return refuse(path, err, cap);
}

int tn_tiled_format(const tn_map *m, const char *tmpl, size_t tmpl_len, const char *tmpl_path,
                    const char *out_path, int fmt, char **out, size_t *out_len, char *err,
                    size_t cap)
{
    (void)m, (void)tmpl, (void)tmpl_len, (void)tmpl_path, (void)fmt;
    *out = NULL;
    *out_len = 0;
    return refuse(out_path, err, cap);
}

int tn_tiled_save(const tn_map *m, const char *path, const char *source, char *err, size_t cap)
{
    (void)m, (void)source;
    return refuse(path, err, cap);
}

int tn_tiled_load_held(const char *path, tn_map **out, struct tn_origin *held, char *err,
                       size_t cap)
{
    (void)held;
    *out = NULL;
    return refuse(path, err, cap);
}

bool tn_tiled_save_drops(const char *path, const char *source, char *out, size_t cap)
{
    (void)path, (void)source; /* (no Tiled save here: nothing is dropped) */
    if (cap) out[0] = '\0';
    return false;
}
