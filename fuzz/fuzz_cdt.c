/* fuzz_cdt.c - libFuzzer harness for the constrained Delaunay triangulation
 * input (tn_cdt_build_i and tn_cdt_build_d).
 *
 * Input decoding (every byte string is a valid case):
 *   byte 0  flags: bit 0 TN_CDT_REMOVE_OUTSIDE; bits 1-2 coordinate mode
 *           (0: a 8x8 grid, full of duplicates, collinear and cocircular
 *           points; 1: signed bytes; 2: 32-bit values folded into
 *           +-TN_CDT_MAX_COORD; 3: raw 32-bit values, which may be out of
 *           range and must then be refused); bit 3: perturb the doubles by
 *           k * 2^-24 (k a signed byte) to make nearly degenerate cases for
 *           the adaptive predicates; bit 4: raw segment indices (may be out
 *           of range, and must then be refused);
 *   byte 1  number of points (0..255), byte 2 number of segments (0..255);
 *   then the points, then two index bytes per segment, until the bytes run
 *   out (the counts shrink to what was read).
 *
 * On success the mesh is checked exactly (64/128-bit integer predicates on
 * the coordinates scaled by 2^24, which is exact for every decoded double):
 *  - every triangle has three distinct, non-duplicate input vertices and
 *    orient > 0;
 *  - adjacency is symmetric (t's edge (a,b) is u's edge (b,a)), and so is
 *    the `fixed` flag;
 *  - remap points to an earlier equal point (or itself), vert_tri to a
 *    triangle holding the point;
 *  - build_i: no unconstrained edge has the opposite vertex strictly inside
 *    the circumcircle (constrained Delaunay);
 *  - every fixed edge lies on an input segment;
 *  - without REMOVE_OUTSIDE: every distinct point is used, the boundary is
 *    convex, T = 2V - H - 2 (Euler), and every segment is present as fixed
 *    edges; with it, every boundary edge is a constraint;
 *  - build_i and build_d agree (status and triangle count) when the doubles
 *    equal the integers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tn_cdt.h"

#include "fuzz_util.h"

#define MAXP 255
#define MAXS 255
#define SCALE 16777216.0 /* 2^24 */

typedef __int128 i128;

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static bool take(reader *r, size_t k, const uint8_t **out)
{
    if (r->n < k) return false;
    *out = r->p;
    r->p += k;
    r->n -= k;
    return true;
}

static i128 orient(const int64_t *X, int a, int b, int c)
{
    return (i128)(X[2 * b] - X[2 * a]) * (X[2 * c + 1] - X[2 * a + 1]) -
           (i128)(X[2 * b + 1] - X[2 * a + 1]) * (X[2 * c] - X[2 * a]);
}

/* > 0 when d is strictly inside the circle through counter-clockwise a,b,c.
 * Exact for coordinates within +-2^26 (terms below 2^113). */
static i128 incircle(const int64_t *X, int a, int b, int c, int d)
{
    i128 adx = X[2 * a] - X[2 * d], ady = X[2 * a + 1] - X[2 * d + 1];
    i128 bdx = X[2 * b] - X[2 * d], bdy = X[2 * b + 1] - X[2 * d + 1];
    i128 cdx = X[2 * c] - X[2 * d], cdy = X[2 * c + 1] - X[2 * d + 1];
    i128 al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
    return adx * (bdy * cl - bl * cdy) - ady * (bdx * cl - bl * cdx) + al * (bdx * cdy - bdy * cdx);
}

static bool between(const int64_t *X, int a, int b, int p)
{
    for (int k = 0; k < 2; k++) {
        int64_t lo = X[2 * a + k] < X[2 * b + k] ? X[2 * a + k] : X[2 * b + k];
        int64_t hi = X[2 * a + k] < X[2 * b + k] ? X[2 * b + k] : X[2 * a + k];
        if (X[2 * p + k] < lo || X[2 * p + k] > hi) return false;
    }
    return true;
}

/* Check a successful build.  X: exact coordinates (scaled), exact_delaunay:
 * whether the incircle test is exact for this scale. */
static void check_mesh(const tn_cdt *c, const int64_t *X, int np, const int32_t *segs, int ns,
                       unsigned flags, bool exact_delaunay)
{
    tn_cdt_mesh m;
    tn_cdt_get_mesh(c, &m);
    CHECK(m.npoints == np && m.ntris >= 0);
    CHECK(m.ntris <= 2 * np);
    const int T = m.ntris;
    /* remap */
    int unique = 0;
    for (int i = 0; i < np; i++) {
        int r = m.remap[i];
        CHECK(r >= 0 && r <= i && m.remap[r] == r);
        CHECK(X[2 * r] == X[2 * i] && X[2 * r + 1] == X[2 * i + 1]);
        if (r == i) {
            unique++;
            for (int j = 0; j < i; j++) /* the first of equal points is kept */
                CHECK(X[2 * j] != X[2 * i] || X[2 * j + 1] != X[2 * i + 1]);
        } else {
            CHECK(m.vert_tri[i] == -1);
        }
    }
    /* triangles */
    for (int t = 0; t < T; t++) {
        const int32_t *v = m.tri + 3 * t;
        for (int i = 0; i < 3; i++) {
            CHECK(v[i] >= 0 && v[i] < np && m.remap[v[i]] == v[i]);
            CHECK(m.fixed[3 * t + i] <= 1);
        }
        CHECK(v[0] != v[1] && v[1] != v[2] && v[0] != v[2]);
        CHECK(orient(X, v[0], v[1], v[2]) > 0);
    }
    /* adjacency */
    int boundary = 0;
    for (int t = 0; t < T; t++) {
        for (int i = 0; i < 3; i++) {
            int a = m.tri[3 * t + i], b = m.tri[3 * t + (i + 1) % 3];
            int u = m.adj[3 * t + i];
            if (u < 0) {
                CHECK(u == -1);
                boundary++;
                if (flags & TN_CDT_REMOVE_OUTSIDE) CHECK(m.fixed[3 * t + i] == 1);
                continue;
            }
            CHECK(u < T && u != t);
            int j = 0;
            while (j < 3 && !(m.tri[3 * u + j] == b && m.tri[3 * u + (j + 1) % 3] == a)) j++;
            CHECK(j < 3);
            CHECK(m.adj[3 * u + j] == t);
            CHECK(m.fixed[3 * u + j] == m.fixed[3 * t + i]);
            if (exact_delaunay && !m.fixed[3 * t + i]) {
                int d = m.tri[3 * u + (j + 2) % 3];
                CHECK(incircle(X, m.tri[3 * t], m.tri[3 * t + 1], m.tri[3 * t + 2], d) <= 0);
            }
        }
    }
    /* vert_tri */
    for (int i = 0; i < np; i++) {
        int t = m.vert_tri[i];
        CHECK(t >= -1 && t < T);
        if (t >= 0)
            CHECK(m.tri[3 * t] == i || m.tri[3 * t + 1] == i || m.tri[3 * t + 2] == i);
        else if (!(flags & TN_CDT_REMOVE_OUTSIDE) && T > 0)
            CHECK(m.remap[i] != i);
    }
    /* fixed edges lie on input segments */
    for (int t = 0; t < T; t++) {
        for (int i = 0; i < 3; i++) {
            if (!m.fixed[3 * t + i]) continue;
            int a = m.tri[3 * t + i], b = m.tri[3 * t + (i + 1) % 3];
            bool on = false;
            for (int s = 0; s < ns && !on; s++) {
                int p = m.remap[segs[2 * s]], q = m.remap[segs[2 * s + 1]];
                if (p == q) continue;
                on = orient(X, p, q, a) == 0 && orient(X, p, q, b) == 0 && between(X, p, q, a) &&
                     between(X, p, q, b);
            }
            CHECK(on);
        }
    }
    if (flags & TN_CDT_REMOVE_OUTSIDE) return;
    if (T == 0) { /* only when there is no proper triangle: all points collinear */
        int a = -1, b = -1;
        for (int k = 0; k < np; k++) {
            if (m.remap[k] != k) continue;
            if (a < 0)
                a = k;
            else if (b < 0)
                b = k;
            else
                CHECK(orient(X, a, b, k) == 0);
        }
        return;
    }
    /* Euler and convexity of the whole-hull triangulation */
    CHECK(T == 2 * unique - boundary - 2);
    for (int t = 0; t < T; t++)
        for (int i = 0; i < 3; i++) {
            if (m.adj[3 * t + i] >= 0) continue;
            int a = m.tri[3 * t + i], b = m.tri[3 * t + (i + 1) % 3];
            for (int p = 0; p < np; p++) CHECK(orient(X, a, b, p) >= 0);
        }
    /* every segment starts with a fixed edge pointing along it */
    for (int s = 0; s < ns; s++) {
        int p = m.remap[segs[2 * s]], q = m.remap[segs[2 * s + 1]];
        if (p == q) continue;
        bool found = false;
        for (int t = 0; t < T && !found; t++)
            for (int i = 0; i < 3 && !found; i++) {
                if (!m.fixed[3 * t + i]) continue;
                int a = m.tri[3 * t + i], b = m.tri[3 * t + (i + 1) % 3];
                if (b == p) {
                    b = a;
                    a = p;
                }
                found = a == p && orient(X, p, q, b) == 0 && between(X, p, q, b);
            }
        CHECK(found);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    const uint8_t *h;
    if (!take(&r, 3, &h)) return 0;
    const unsigned flags = h[0] & 1u, mode = (h[0] >> 1) & 3u;
    const bool perturb = (h[0] >> 3) & 1u, raw_segs = (h[0] >> 4) & 1u;
    int np = h[1], ns = h[2];

    static int32_t ixy[2 * MAXP];
    static double dxy[2 * MAXP];
    static int64_t Xi[2 * MAXP], Xd[2 * MAXP];
    static int32_t segs[2 * MAXS];
    bool out_of_range = false, perturbed = false;
    int i = 0;
    for (; i < np; i++) {
        for (int k = 0; k < 2; k++) {
            const uint8_t *b;
            int64_t v;
            if (mode == 0) {
                if (!take(&r, 1, &b)) goto points_done;
                v = (b[0] & 7) * 4; /* 8x8 grid, spacing 4 */
            } else if (mode == 1) {
                if (!take(&r, 1, &b)) goto points_done;
                v = (int8_t)b[0];
            } else {
                if (!take(&r, 4, &b)) goto points_done;
                uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                             (uint32_t)b[3] << 24;
                if (mode == 2)
                    v = (int64_t)(u % (2u * TN_CDT_MAX_COORD + 1u)) - TN_CDT_MAX_COORD;
                else
                    v = (int32_t)u;
            }
            ixy[2 * i + k] = (int32_t)v;
            int p = 0;
            if (perturb && mode < 2) {
                if (!take(&r, 1, &b)) goto points_done;
                p = (int8_t)b[0];
            }
            Xi[2 * i + k] = v;
            Xd[2 * i + k] = v * (int64_t)SCALE + p;
            dxy[2 * i + k] = (double)v + (double)p / SCALE;
        }
    }
points_done:
    np = i;
    for (i = 0; i < 2 * np; i++)
        if (Xi[i] < -TN_CDT_MAX_COORD || Xi[i] > TN_CDT_MAX_COORD)
            out_of_range = true;
        else if (Xd[i] != Xi[i] * (int64_t)SCALE)
            perturbed = true;
    bool bad_index = false;
    int s = 0;
    for (; s < ns; s++) {
        const uint8_t *b;
        if (!take(&r, 2, &b)) break;
        for (int k = 0; k < 2; k++) {
            int idx = raw_segs ? b[k] : (np ? b[k] % np : 0);
            if (idx >= np) bad_index = true;
            segs[2 * s + k] = idx;
        }
    }
    ns = s;

    tn_error err;
    tn_cdt *c = NULL;
    tn_cdt_create(MAXP, MAXS, NULL, &c, &err);
    CHECK(c != NULL);

    tn_status si = tn_cdt_build_i(c, ixy, np, segs, ns, flags, &err);
    if (out_of_range || bad_index) CHECK(tn_failed(si));
    if (tn_failed(si))
        CHECK(tn_failed(err.status) && memchr(err.msg, '\0', sizeof err.msg));
    else
        check_mesh(c, Xi, np, segs, ns, flags, true);
    tn_cdt_mesh mi;
    tn_cdt_get_mesh(c, &mi);
    int ntris_i = tn_failed(si) ? -1 : mi.ntris;

    if (!out_of_range) {
        tn_status sd = tn_cdt_build_d(c, dxy, np, segs, ns, flags, &err);
        if (bad_index) CHECK(tn_failed(sd));
        if (tn_failed(sd)) {
            CHECK(tn_failed(err.status) && memchr(err.msg, '\0', sizeof err.msg));
        } else {
            check_mesh(c, Xd, np, segs, ns, flags, false);
        }
        if (!perturbed) {
            CHECK(tn_failed(sd) == tn_failed(si));
            if (!tn_failed(sd)) {
                tn_cdt_mesh md;
                tn_cdt_get_mesh(c, &md);
                CHECK(md.ntris == ntris_i);
            }
        }
    }
    tn_cdt_destroy(c);
    return 0;
}
