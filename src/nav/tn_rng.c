/* no a*b+c fused into an FMA (README, "Floating point"; gcc: -ffp-contract=off) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "tn_rng.h"

void tn_rng_seed(tn_rng *r, uint64_t seed, uint64_t stream)
{
    r->state = 0u;
    r->inc = (stream << 1u) | 1u;
    (void)tn_rng_u32(r);
    r->state += seed;
    (void)tn_rng_u32(r);
}

uint32_t tn_rng_u32(tn_rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

uint32_t tn_rng_below(tn_rng *r, uint32_t n)
{
    if (n == 0) return 0; /* documented n > 0; no division by zero either way */
    uint32_t threshold = (uint32_t)(-n) % n;
    for (;;) {
        uint32_t v = tn_rng_u32(r);
        if (v >= threshold) return v % n;
    }
}

float tn_rng_float(tn_rng *r) { return (float)(tn_rng_u32(r) >> 8) * (1.0f / 16777216.0f); }

float tn_rng_range(tn_rng *r, float lo, float hi) { return lo + (hi - lo) * tn_rng_float(r); }
