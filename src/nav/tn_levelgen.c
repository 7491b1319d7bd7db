/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_levelgen.h"

#include <string.h>

static int range(tn_rng *r, int lo, int hi) /* inclusive */
{
    return lo + (int)tn_rng_below(r, (uint32_t)(hi - lo + 1));
}

static void set(tn_map *m, int x, int y, int t)
{
    if (tn_map_inside(m, x, y)) {
        m->tile[y * m->w + x] = (uint8_t)t;
        m->mark[y * m->w + x] = TN_MARK_NONE;
    }
}

tn_status tn_levelgen_platformer(tn_map *m, tn_rng *rng, tn_error *err)
{
    tn_error_clear(err); /* a success leaves no stale message */
    if (!m || !rng)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "levelgen: no %s (NULL)",
                            !m ? "map" : "rng");
    const int W = m->w, H = m->h;
    if (W < 16 || H < 12)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0,
                            "levelgen: a platformer level needs at least 16x12 tiles, not %dx%d", W,
                            H);
    /* A map whose fields were set by hand: surf[] below holds
     * TN_MAP_MAX_SIZE columns, and the arrays must be there. */
    if (W > TN_MAP_MAX_SIZE || H > TN_MAP_MAX_SIZE || !m->tile || !m->mark)
        return tn_error_set(err, TN_FAILURE | TN_INVALID_PARAM, 0, 0, "levelgen: a %dx%d map %s", W,
                            H,
                            !m->tile || !m->mark ? "without tile arrays (tile or mark NULL)"
                                                 : "is larger than 4096x4096 (TN_MAP_MAX_SIZE)");
    memset(m->tile, TN_TILE_EMPTY, (size_t)W * H);
    memset(m->mark, TN_MARK_NONE, (size_t)W * H);

    /* 1. terraced floor: surface row per column */
    const int lo = H - H / 4 - 1, hi = H - 3; /* surface row range */
    int surf[TN_MAP_MAX_SIZE];
    int s = range(rng, lo + (hi - lo) / 2, hi);
    for (int x = 0; x < W;) {
        int run = range(rng, 3, 10);
        for (int k = 0; k < run && x < W; k++, x++) surf[x] = s;
        s += range(rng, -3, 3);
        s = s < lo ? lo : s > hi ? hi : s;
    }
    for (int x = 0; x < W; x++)
        for (int y = surf[x]; y < H; y++) set(m, x, y, TN_TILE_BLOCK);

    /* 2. pits */
    int pits = W / 14 + 1;
    for (int i = 0; i < pits; i++) {
        int pw = range(rng, 1, 4), px = range(rng, 2, W - pw - 2);
        for (int x = px; x < px + pw && x >= 0 && x < W; x++)
            for (int y = 0; y < H; y++)
                if (tn_map_tile(m, x, y) == TN_TILE_BLOCK && y >= surf[x])
                    set(m, x, y, TN_TILE_EMPTY);
    }

    /* 3. platforms */
    int plats = W * H / 50 + 1;
    for (int i = 0; i < plats; i++) {
        int len = range(rng, 2, 9), x0 = range(rng, 0, W - len);
        int thick = tn_rng_below(rng, 5) == 0 ? 2 : 1;
        int kind = tn_rng_below(rng, 5) < 2 ? TN_TILE_ONEWAY : TN_TILE_BLOCK;
        int y;
        if (tn_rng_below(rng, 2) == 0) {
            int floor_y = surf[(x0 + len / 2) % W];
            y = floor_y - range(rng, 1, 8);
        } else {
            y = range(rng, 2, lo - 2);
        }
        if (y < 1) y = 1;
        for (int x = x0; x < x0 + len; x++)
            for (int t = 0; t < thick; t++)
                if (tn_map_tile(m, x, y + t) == TN_TILE_EMPTY) set(m, x, y + t, kind);
    }

    /* 4. walls */
    int walls = W / 12 + 1;
    for (int i = 0; i < walls; i++) {
        int ww = range(rng, 1, 2), x0 = range(rng, 1, W - ww - 1), tall = range(rng, 2, 7);
        bool hanging = tn_rng_below(rng, 3) == 0;
        for (int x = x0; x < x0 + ww; x++) {
            if (hanging) {
                for (int y = 0; y < tall; y++) set(m, x, y, TN_TILE_BLOCK);
            } else {
                int base = surf[x];
                for (int y = base - tall; y < base; y++) set(m, x, y, TN_TILE_BLOCK);
            }
        }
    }

    /* 5. a start mark on a standing tile */
    m->start_x = m->start_y = -1;
    for (int tries = 0; tries < 1000; tries++) {
        int x = range(rng, 0, W - 1), y = range(rng, 0, H - 2);
        if (tn_map_tile(m, x, y) == TN_TILE_EMPTY && tn_map_tile(m, x, y + 1) != TN_TILE_EMPTY) {
            m->start_x = x;
            m->start_y = y;
            break;
        }
    }
    m->revision++;
    return TN_OK;
}
