/* SPDX-License-Identifier: Zlib */
/* tn_rng.h - the library's own deterministic PRNG (PCG32, O'Neill 2014).
 *
 * Every random choice in tilenav goes through a tn_rng owned by the caller,
 * so a run is a pure function of its seed on every platform (no rand(), no
 * global state).  64-bit state, 32-bit output, period 2^64.
 * Cost: ~1 ns per number.  Floats are built from the top 24 bits, so
 * tn_rng_float() returns exactly representable values in [0, 1).
 * Memory: the caller's 16-byte tn_rng; nothing is allocated.
 * Thread safety: every call writes the state (seed sets it, the others
 * advance it): a tn_rng belongs to one thread at a time (give each thread
 * its own stream).
 */
#ifndef TN_RNG_H
#define TN_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_rng {
    uint64_t state;
    uint64_t inc;
} tn_rng;

/* Seed with a value and a stream id (different streams never overlap). */
void tn_rng_seed(tn_rng *r, uint64_t seed, uint64_t stream);
uint32_t tn_rng_u32(tn_rng *r);
/* Uniform integer in [0, n), unbiased (rejection); 0 for n = 0. */
uint32_t tn_rng_below(tn_rng *r, uint32_t n);
/* Uniform float in [0, 1). */
float tn_rng_float(tn_rng *r);
/* Uniform float in [lo, hi) for lo <= hi (lo > hi: in (hi, lo], the same
 * formula lo + (hi - lo) * u; nothing is checked). */
float tn_rng_range(tn_rng *r, float lo, float hi);

#ifdef __cplusplus
}
#endif

#endif
