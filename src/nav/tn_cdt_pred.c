/* SPDX-License-Identifier: Zlib */
/* tn_cdt_pred.c - exact geometric predicates of tn_cdt (see tn_cdt.h,
 * ROBUSTNESS): integer orientation and in-circle tests in int64 / __int128,
 * and Shewchuk's adaptive floating-point expansions for double input. */
/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "internal/cdt_impl.h"

CDT_NOINLINE int orient_exact_int(const double *a, const double *b, const double *p)
{
    int64_t l = ((int64_t)b[0] - (int64_t)a[0]) * ((int64_t)p[1] - (int64_t)a[1]);
    int64_t r = ((int64_t)b[1] - (int64_t)a[1]) * ((int64_t)p[0] - (int64_t)a[0]);
    return (l > r) - (l < r);
}

#if defined(__SIZEOF_INT128__)
typedef __int128 cdt_i128;
CDT_NOINLINE int incircle_exact_int(const double *a, const double *b, const double *c,
                                    const double *d)
{
    int64_t adx = (int64_t)a[0] - (int64_t)d[0], ady = (int64_t)a[1] - (int64_t)d[1];
    int64_t bdx = (int64_t)b[0] - (int64_t)d[0], bdy = (int64_t)b[1] - (int64_t)d[1];
    int64_t cdx = (int64_t)c[0] - (int64_t)d[0], cdy = (int64_t)c[1] - (int64_t)d[1];
    int64_t al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
    /* |d| <= 2^27, lifts <= 2^55: each term < 2^111, the sum < 2^113 */
    cdt_i128 t1 = (cdt_i128)adx * ((cdt_i128)bdy * cl - (cdt_i128)cdy * bl);
    cdt_i128 t2 = (cdt_i128)bdx * ((cdt_i128)cdy * al - (cdt_i128)ady * cl);
    cdt_i128 t3 = (cdt_i128)cdx * ((cdt_i128)ady * bl - (cdt_i128)bdy * al);
    cdt_i128 det = t1 + t2 + t3;
    return (det > 0) - (det < 0);
}
#endif

/* ------------------------------------------------------------------------ */
/* Adaptive exact arithmetic (after Shewchuk 1997, "Adaptive Precision       */
/* Floating-Point Arithmetic and Fast Robust Geometric Predicates").  Our    */
/* own compact version: exact expansions with a final sign, no tail-of-      */
/* -tail stages.  Only reached when the static filter cannot decide.        */
/* ------------------------------------------------------------------------ */

/* a + b = x + y exactly (|a|, |b| arbitrary). */
static inline void two_sum(double a, double b, double *x, double *y)
{
    volatile double s = a + b; /* volatile: forbid re-association */
    double bv = s - a;
    double av = s - bv;
    *x = s;
    *y = (a - av) + (b - bv);
}

/* a * b = x + y exactly (Dekker split; fma would do, but stay portable). */
static inline void two_prod(double a, double b, double *x, double *y)
{
    static const double splitter = 134217729.0; /* 2^27 + 1 */
    volatile double p = a * b;
    double c = splitter * a;
    double ahi = c - (c - a), alo = a - ahi;
    c = splitter * b;
    double bhi = c - (c - b), blo = b - bhi;
    *x = p;
    *y = alo * blo - (((p - ahi * bhi) - alo * bhi) - ahi * blo);
}

/* h = e + f (expansions, zero components eliminated); returns length. */
static int exp_sum(int elen, const double *e, int flen, const double *f, double *h)
{
    /* fast_expansion_sum_zeroelim requires nonoverlapping inputs sorted by
     * magnitude; we use the simpler grow-expansion loop, O(elen*flen) but
     * inputs here are tiny. */
    int hlen = elen;
    for (int i = 0; i < elen; i++) h[i] = e[i];
    for (int j = 0; j < flen; j++) {
        double q = f[j];
        int k = 0;
        for (int i = 0; i < hlen; i++) {
            double x, y;
            two_sum(q, h[i], &x, &y);
            q = x;
            if (y != 0.0) h[k++] = y;
        }
        if (q != 0.0 || k == 0) h[k++] = q;
        hlen = k;
    }
    return hlen;
}

/* h = e * b (expansion times double); returns length. */
static int exp_scale(int elen, const double *e, double b, double *h)
{
    int hlen = 0;
    double q = 0.0;
    for (int i = 0; i < elen; i++) {
        double px, py;
        two_prod(e[i], b, &px, &py);
        /* accumulate q + py + px into h, keeping q as the running top */
        double s, t;
        two_sum(q, py, &s, &t);
        if (t != 0.0) h[hlen++] = t;
        two_sum(s, px, &q, &t);
        if (t != 0.0) h[hlen++] = t;
    }
    if (q != 0.0 || hlen == 0) h[hlen++] = q;
    return hlen;
}

/* Sign of an expansion: the sign of its largest-magnitude component, which
 * (components being nonoverlapping after the grow loops) decides the sum. */
static int exp_sign(int len, const double *e)
{
    /* Nonoverlapping expansions: the most significant nonzero component is
     * the last nonzero one. */
    for (int i = len - 1; i >= 0; i--)
        if (e[i] != 0.0) return e[i] > 0.0 ? 1 : -1;
    return 0;
}

int orient_adapt(const double *a, const double *b, const double *c, double detsum)
{
    (void)detsum;
    /* (bx-ax)(cy-ay) - (by-ay)(cx-ax), each difference an exact 2-term
     * expansion. */
    double bax[2], cay[2], bay[2], cax[2];
    two_sum(b[0], -a[0], &bax[1], &bax[0]);
    two_sum(c[1], -a[1], &cay[1], &cay[0]);
    two_sum(b[1], -a[1], &bay[1], &bay[0]);
    two_sum(c[0], -a[0], &cax[1], &cax[0]);
    double t1[8], t2[8], u[16], v[16], w[32];
    int n1 = exp_scale(2, bax, cay[0], t1);
    int n2 = exp_scale(2, bax, cay[1], t2);
    int nu = exp_sum(n1, t1, n2, t2, u);
    n1 = exp_scale(2, bay, -cax[0], t1);
    n2 = exp_scale(2, bay, -cax[1], t2);
    int nv = exp_sum(n1, t1, n2, t2, v);
    int nw = exp_sum(nu, u, nv, v, w);
    return exp_sign(nw, w);
}

/* Exact product of two 2-term expansions into h; returns length. */
static int exp_mul(int alen, const double *a, int blen, const double *b, double *h, double *scratch)
{
    int hlen = 0;
    for (int j = 0; j < blen; j++) {
        double t[64]; /* alen <= 16 here: <= 32 terms */
        int tn = exp_scale(alen, a, b[j], t);
        int nl = exp_sum(hlen, h, tn, t, scratch);
        memcpy(h, scratch, (size_t)nl * sizeof *h);
        hlen = nl;
    }
    return hlen;
}

int incircle_adapt(const double *a, const double *b, const double *c, const double *d,
                   double permanent)
{
    (void)permanent;
    double adx[2], ady[2], bdx[2], bdy[2], cdx[2], cdy[2];
    two_sum(a[0], -d[0], &adx[1], &adx[0]);
    two_sum(a[1], -d[1], &ady[1], &ady[0]);
    two_sum(b[0], -d[0], &bdx[1], &bdx[0]);
    two_sum(b[1], -d[1], &bdy[1], &bdy[0]);
    two_sum(c[0], -d[0], &cdx[1], &cdx[0]);
    two_sum(c[1], -d[1], &cdy[1], &cdy[0]);
    /* structural length bounds: square of a 2-term expansion <= 8 terms,
     * lift <= 16, cross <= 16, term <= 16 * 32 = 512, sum of 3 <= 1536 */
    double s1[16], s2[16], lift[16], cr[16], term[512], acc[1536], acc2[1536];
    double scratch[1536];
    int nacc = 0;
    const double *X[3] = {adx, bdx, cdx}, *Y[3] = {ady, bdy, cdy};
    for (int k = 0; k < 3; k++) {
        const double *px = X[k], *py = Y[k];
        const double *qx = X[(k + 1) % 3], *qy = Y[(k + 1) % 3];
        const double *rx = X[(k + 2) % 3], *ry = Y[(k + 2) % 3];
        /* lift_k * (qx*ry - rx*qy) */
        int n1 = exp_mul(2, px, 2, px, s1, scratch);
        int n2 = exp_mul(2, py, 2, py, s2, scratch);
        int nl = exp_sum(n1, s1, n2, s2, lift);
        n1 = exp_mul(2, qx, 2, ry, s1, scratch);
        double nrx[2] = {-rx[0], -rx[1]};
        n2 = exp_mul(2, nrx, 2, qy, s2, scratch);
        int nc = exp_sum(n1, s1, n2, s2, cr);
        int nt = exp_mul(nl, lift, nc, cr, term, scratch);
        int na = exp_sum(nacc, acc, nt, term, acc2);
        memcpy(acc, acc2, (size_t)na * sizeof *acc);
        nacc = na;
    }
    return exp_sign(nacc, acc);
}
