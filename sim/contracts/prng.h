/* Counter-based PRNG: u(seed, rank, stream) in [0,1).  Each process draws its
 * own numbers from its rank alone, so membership does not depend on the order
 * in which processes run (splitmix64 finaliser over a combined key). */
#ifndef COLLSIM_PRNG_H
#define COLLSIM_PRNG_H

#include <stdint.h>

static inline uint64_t cs_mix64(uint64_t z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The next number of a sequential splitmix64 stream whose state is *state
 * (any seed): the finaliser of state + golden gamma, then state advances. */
static inline uint64_t cs_splitmix_next(uint64_t *state)
{
  uint64_t z = cs_mix64(*state);
  *state += 0x9e3779b97f4a7c15ULL;
  return z;
}

/* A GHashFunc for keys that point to a uint64_t (with g_int64_equal): GLib's
 * g_int64_hash folds the two halves with XOR, so keys packed as
 * (a << 32 | b) with b a function of a collide en masse (the verifier's
 * (process, context id) keys made one 32,768-rank split spend 4 s in one
 * bucket); the finaliser spreads every bit. */
static inline unsigned int cs_u64_hash(const void *key) { return (unsigned int)cs_mix64(*(const uint64_t *)key); }

static inline double cs_uniform(uint64_t seed, uint64_t rank, uint64_t stream)
{
  uint64_t h = cs_mix64(cs_mix64(cs_mix64(seed) ^ rank) ^ (stream * 0x632be59bd9b4e019ULL));
  return (double)(h >> 11) * (1.0 / 9007199254740992.0); /* 53 bits */
}

#endif
