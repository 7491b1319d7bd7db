/* tests/fp_det.c - a hash of results that floating-point contraction (FMA)
 * changes: 8-connected flow distances, a classic bot's run and flying
 * enemies on a generated level.  tests/e2e/fp_contract.sh builds src/nav
 * with and without an FMA target and compares the hashes (README,
 * "Floating point"). */
#include "tilenav.h"

#include <stdio.h>
#include <string.h>

static uint64_t h = 1469598103934665603ull;
static void add(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
}

int main(void)
{
    tn_error e;
    tn_rng r;
    tn_rng_seed(&r, 1, 3);
    tn_map *m = NULL;
    if (tn_failed(tn_map_create(96, 64, NULL, &m, &e)) ||
        tn_failed(tn_levelgen_platformer(m, &r, &e)))
        return 1;
    int sx = -1, sy = -1;
    for (int y = 1; y < m->h && sx < 0; y++)
        for (int x = 0; x < m->w; x++)
            if (tn_map_tile(m, x, y) == TN_TILE_BLOCK &&
                tn_map_tile(m, x, y - 1) == TN_TILE_EMPTY &&
                tn_map_tile(m, x, y - 2) == TN_TILE_EMPTY) {
                sx = x, sy = y - 2;
                break;
            }
    if (sx < 0) return 1;
    tn_map_set_mark(m, sx, sy + 1, TN_MARK_DEST, NULL);
    tn_flow *f = NULL;
    if (tn_failed(tn_flow_create(m->w, m->h, 8, NULL, &f, &e)) ||
        tn_failed(tn_flow_rebuild(f, m, &e)))
        return 1;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            double d = tn_flow_dist(f, x, y);
            add(&d, sizeof d);
        }
    tn_phys_params p = tn_phys_default(4.5f);
    tn_path *pf = NULL;
    tn_bot *bot = NULL;
    if (tn_failed(tn_path_create(m->w, m->h, &p, 0, NULL, &pf, &e)) ||
        tn_failed(tn_bot_create(NULL, NULL, &bot, &e)))
        return 1;
    tn_body body;
    tn_body_place(&body, &p, 1, 2, sx, sy);
    for (int s = 0; s < 4000; s++) {
        if (!tn_bot_active(bot)) { /* two statements: argument order is unspecified */
            int gx = (int)tn_rng_below(&r, (uint32_t)m->w);
            int gy = (int)tn_rng_below(&r, (uint32_t)m->h);
            tn_bot_goto(bot, pf, m, &body, &p, gx, gy, NULL);
        }
        tn_body_step(&body, m, &p, tn_bot_step(bot, pf, m, &body, &p));
        add(&body.x, sizeof body.x);
        add(&body.y, sizeof body.y);
    }
    tn_enemies_config ec = tn_enemies_default_config();
    ec.capacity = 300;
    ec.spawn_rate = 20;
    tn_enemies *en = NULL;
    if (tn_failed(tn_enemies_create(&ec, NULL, &en, &e))) return 1;
    int32_t spawn = (m->h - 2) * m->w + m->w - 2;
    for (int s = 0; s < 2000; s++) {
        tn_enemies_step(en, f, &spawn, 1, &r, 1.0f / 60.0f, NULL);
        for (int i = 0; i < en->count; i++) {
            add(&en->e[i].x, sizeof en->e[i].x);
            add(&en->e[i].y, sizeof en->e[i].y);
        }
    }
    printf("%016llx\n", (unsigned long long)h);
    tn_enemies_destroy(en);
    tn_bot_destroy(bot);
    tn_path_destroy(pf);
    tn_flow_destroy(f);
    tn_map_destroy(m);
    return 0;
}
