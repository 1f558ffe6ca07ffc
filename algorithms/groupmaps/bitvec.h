/* A static bit vector with rank and select: the building block of the
 * succinct group maps (Elias-Fano "ef" and the Wavelet Tree on Runs "wtr" of
 * seed 003, Section 5.5).  The paper's own bitmap (Section 5.3) keeps one
 * count per 1,000 bits and searches linearly; this vector is the textbook
 * constant-time design instead, built once from a bit array and never
 * modified.
 *
 * LAYOUT (choices of ours; the paper names no bit-vector structure):
 *  - bits: 64-bit little-endian words, bit i is (words[i / 64] >> (i % 64)) & 1.
 *    floor(n / 64) + 1 words are stored (one more than the data when n is a
 *    multiple of 64) so that rank(n) reads a word without a special case.
 *  - rank directory, two levels interleaved in one array ("rank9"-style
 *    blocks of 512 bits = 8 words): for block b, counts[2b] is the number of
 *    ones before the block (absolute, 64 bits) and counts[2b + 1] packs seven
 *    9-bit fields, field j - 1 (j = 1..7) holding the ones in words 0..j-1 of
 *    the block (at most 448 < 512).  floor(n / 512) + 1 blocks, so position n
 *    has a block.  rank = absolute + relative + one popcount: O(1), one
 *    16-byte directory read and one word read.
 *  - select directories: sel1[s] is the block holding one number 512 s
 *    (0-based), for s = 0 .. ceil(ones / 512) - 1, then a sentinel (the last
 *    block); sel0 likewise for zeros.  select1(k) looks for the block of
 *    one k between sel1[k / 512] and the next sample: a binary search on the
 *    absolute counts while more than 4 blocks remain (sparse regions), then
 *    4 branch-free comparisons (balanced vectors have samples about 2 blocks
 *    apart, so this is the only step); the word in the block comes from the
 *    packed relative counts (compared in parallel, SWAR), and the bit in the
 *    word from a SWAR byte-prefix count plus a 2 KiB byte table
 *    (cs_bv_select_in_byte, one per process, not counted in the sizes).
 *    select0 is the same on complemented counts.  O(1) on balanced vectors,
 *    O(log n) in the worst case.
 *    Samples are 32-bit block numbers: n < 2^40.
 *
 * SIZE in bits (cs_bv_size_bits), n bits of which n1 ones and n0 = n - n1 zeros:
 *    payload     = 64 * (floor(n / 64) + 1)
 *    rank dir.   = 128 * (floor(n / 512) + 1)
 *    select dir. = 32 * (ceil(n1 / 512) + 1) + 32 * (ceil(n0 / 512) + 1)
 * The rank directory is 25% of the payload, the select samples at most
 * 6.25% + 64 bits; so n bits cost about 1.31 n bits in all.
 *
 * Queries are static inline here because they are the hot paths of select
 * and rank of the group maps (one call per level of a wavelet tree); build,
 * size and free are in bitvec.c.  No -mpopcnt or -mbmi2 is assumed: popcount
 * is a SWAR sequence unless the compiler targets POPCNT (GCC without it would
 * call libgcc), and in-word select never uses PDEP (microcoded and slow on
 * AMD before Zen 3).
 */
#ifndef COLLSIM_BITVEC_H
#define COLLSIM_BITVEC_H

#include <stdint.h>

#define CS_BV_BLOCK_BITS 512    /* bits per rank block (8 words) */
#define CS_BV_SAMPLE_RATE 512   /* ones (zeros) between select samples */

typedef struct cs_bitvec {
  uint64_t n;       /* bits */
  uint64_t ones;    /* ones among them */
  uint64_t *words;  /* floor(n / 64) + 1 words, bits at and beyond n are 0 */
  uint64_t *counts; /* 2 * (floor(n / 512) + 1): absolute, packed relative */
  uint32_t *sel1;   /* ceil(ones / 512) + 1 block numbers */
  uint32_t *sel0;   /* ceil(zeros / 512) + 1 block numbers */
  uint64_t nblocks; /* floor(n / 512) + 1 */
} cs_bitvec;

/* Builds bv from bits[0 .. ceil(n / 64) - 1] (bits at and beyond n ignored).
 * bits may be NULL when n == 0.  The input is copied. */
void cs_bv_init(cs_bitvec *bv, const uint64_t *bits, uint64_t n);
/* Frees what cs_bv_init allocated and zeroes bv (cs_bv_init it again before
 * any query). */
void cs_bv_clear(cs_bitvec *bv);

/* Stored bits by the formula above, and its three terms. */
uint64_t cs_bv_size_bits(const cs_bitvec *bv);
uint64_t cs_bv_payload_bits(const cs_bitvec *bv);
uint64_t cs_bv_directory_bits(const cs_bitvec *bv); /* rank + select directories */

/* ---- queries (positions and counts 0-based) ---- */

static inline unsigned cs_bv_popcount(uint64_t x)
{
#if defined(__POPCNT__)
  return (unsigned)__builtin_popcountll(x);
#else
  x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
  x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
  x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
  return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* cs_bv_select_in_byte[8 b + r] = position (0..7) of the r-th set bit of
 * the byte b (r < popcount(b); other entries 0); in bitvec.c. */
extern const uint8_t cs_bv_select_in_byte[256 * 8];

/* Position (0..63) of the r-th set bit (r 0-based, r < popcount(x)): SWAR
 * byte counts, their prefix sums by one multiplication, the byte holding the
 * bit by a parallel comparison, then the bit within the byte. */
static inline unsigned cs_bv_select_in_word(uint64_t x, unsigned r)
{
  const uint64_t L8 = UINT64_C(0x0101010101010101), H8 = UINT64_C(0x8080808080808080);
  uint64_t s = x - ((x >> 1) & UINT64_C(0x5555555555555555));
  s = (s & UINT64_C(0x3333333333333333)) + ((s >> 2) & UINT64_C(0x3333333333333333));
  s = (s + (s >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
  uint64_t prefix = s * L8; /* byte i: ones in bytes 0..i (at most 64) */
  /* high bit of byte i set iff prefix_i <= r; those are the low bytes */
  uint64_t le = (((uint64_t)r * L8 | H8) - prefix) & H8;
  unsigned byte = (unsigned)(((le >> 7) * L8) >> 56);
  unsigned before = (unsigned)(((prefix << 8) >> (8 * byte)) & 0xff);
  return 8 * byte + cs_bv_select_in_byte[8 * ((x >> (8 * byte)) & 0xff) + (r - before)];
}

static inline unsigned cs_bv_access(const cs_bitvec *bv, uint64_t i)
{
  return (unsigned)((bv->words[i >> 6] >> (i & 63)) & 1);
}

/* Relative count of word w (0..7) of a block: 0 for w = 0, else field w - 1.
 * For w = 0 the shift is 63, which reads the always-zero top bit. */
static inline uint64_t cs_bv_relative_(uint64_t packed, unsigned w)
{
  return (packed >> (9 * ((w + 7) & 7))) & 511;
}

/* Ones in positions [0, i), 0 <= i <= n. */
static inline uint64_t cs_bv_rank1(const cs_bitvec *bv, uint64_t i)
{
  const uint64_t *c = bv->counts + 2 * (i >> 9);
  uint64_t word = bv->words[i >> 6] & ((UINT64_C(1) << (i & 63)) - 1);
  return c[0] + cs_bv_relative_(c[1], (unsigned)(i >> 6) & 7) + cs_bv_popcount(word);
}

/* Zeros in positions [0, i), 0 <= i <= n. */
static inline uint64_t cs_bv_rank0(const cs_bitvec *bv, uint64_t i)
{
  return i - cs_bv_rank1(bv, i);
}

/* The seven fields 64 (j + 1), j = 0..6, packed like the relative counts:
 * subtracting a block's packed ones gives its packed zeros (no field borrows,
 * as each field of ones is at most 64 (j + 1)). */
#define CS_BV_PACKED_WORD_BITS_                                                                                \
  (UINT64_C(64) | UINT64_C(128) << 9 | UINT64_C(192) << 18 | UINT64_C(256) << 27 | UINT64_C(320) << 36 |      \
   UINT64_C(384) << 45 | UINT64_C(448) << 54)

/* Ones (zeros when zeros != 0) before block b. */
static inline uint64_t cs_bv_before_block_(const cs_bitvec *bv, uint64_t b, int zeros)
{
  uint64_t ones = bv->counts[2 * b];
  return zeros ? b * CS_BV_BLOCK_BITS - ones : ones;
}

/* The block holding item k (a one, or a zero when zeros != 0): the last
 * block b in [lo, hi] with before(b) <= k, where lo and hi are the sampled
 * blocks around k.  A binary search narrows wide ranges (sparse items) to at
 * most 4 blocks, which are then compared without branches (on balanced
 * vectors the samples are about 2 blocks apart, so this is the only step). */
static inline uint64_t cs_bv_find_block_(const cs_bitvec *bv, uint64_t lo, uint64_t hi, uint64_t k, int zeros)
{
  while (hi - lo > 4) {
    uint64_t mid = (lo + hi + 1) >> 1;
    if (cs_bv_before_block_(bv, mid, zeros) <= k)
      lo = mid;
    else
      hi = mid - 1;
  }
  /* b = lo + the number of candidates lo + i <= hi (i = 1..4) with
   * before(lo + i) <= k: pure arithmetic, so no unpredictable branch */
  uint64_t b = lo;
  for (uint64_t i = 1; i <= 4; i++) {
    uint64_t t = lo + i < hi ? lo + i : hi;
    b += (uint64_t)(lo + i <= hi) & (uint64_t)(cs_bv_before_block_(bv, t, zeros) <= k);
  }
  return b;
}

/* Number of the seven 9-bit fields of packed that are <= r (r < 512),
 * without branches: the even fields (0, 2, 4, 6) and the odd ones (1, 3, 5)
 * are compared separately in 18-bit lanes, where (512 + r) - field keeps its
 * bit 9 exactly when field <= r and never borrows from the next lane; the
 * lane bits are summed by one multiplication. */
static inline unsigned cs_bv_fields_le_(uint64_t packed, uint64_t r)
{
  const uint64_t lanes4 = UINT64_C(1) | UINT64_C(1) << 18 | UINT64_C(1) << 36 | UINT64_C(1) << 54;
  const uint64_t lanes3 = UINT64_C(1) | UINT64_C(1) << 18 | UINT64_C(1) << 36;
  uint64_t even = packed & (511 * lanes4);
  uint64_t odd = (packed >> 9) & (511 * lanes3);
  uint64_t ge_even = (((512 | r) * lanes4 - even) >> 9) & lanes4;
  uint64_t ge_odd = (((512 | r) * lanes3 - odd) >> 9) & lanes3;
  return (unsigned)(((ge_even * lanes4) >> 54) + (((ge_odd * lanes3) >> 36) & 7));
}

/* Position of the k-th one (0-based), k < ones. */
static inline uint64_t cs_bv_select1(const cs_bitvec *bv, uint64_t k)
{
  uint64_t s = k / CS_BV_SAMPLE_RATE;
  uint64_t b = cs_bv_find_block_(bv, bv->sel1[s], bv->sel1[s + 1], k, 0);
  uint64_t r = k - bv->counts[2 * b];
  uint64_t packed = bv->counts[2 * b + 1];
  unsigned w = cs_bv_fields_le_(packed, r);
  r -= cs_bv_relative_(packed, w);
  uint64_t wi = 8 * b + w;
  return 64 * wi + cs_bv_select_in_word(bv->words[wi], (unsigned)r);
}

/* Position of the k-th zero (0-based), k < n - ones. */
static inline uint64_t cs_bv_select0(const cs_bitvec *bv, uint64_t k)
{
  uint64_t s = k / CS_BV_SAMPLE_RATE;
  uint64_t b = cs_bv_find_block_(bv, bv->sel0[s], bv->sel0[s + 1], k, 1);
  uint64_t r = k - (b * CS_BV_BLOCK_BITS - bv->counts[2 * b]);
  /* zeros in words 0..j of the block: 64 (j + 1) minus the ones, per field */
  uint64_t packed = CS_BV_PACKED_WORD_BITS_ - bv->counts[2 * b + 1];
  unsigned w = cs_bv_fields_le_(packed, r);
  r -= cs_bv_relative_(packed, w);
  uint64_t wi = 8 * b + w;
  return 64 * wi + cs_bv_select_in_word(~bv->words[wi], (unsigned)r);
}

#endif
