/* Unit tests of the succinct group-map pieces (seed 003, Section 5.5, and
 * Elias-Fano beyond the paper), each against a brute-force computation:
 *  - bitvec (algorithms/groupmaps/bitvec.[ch]): access, rank1/rank0 at every
 *    position 0..n and select1/select0 of every one and zero equal a scan, on
 *    all-zero, all-one, random (p = 0.5), sparse, dense, clustered and
 *    periodic vectors of lengths 0, 1, 63, 64, 65, around multiples of the
 *    512-bit block and of the 512-item select sampling, random lengths, and
 *    multi-million-bit sparse vectors (long binary searches); the in-word
 *    select and the byte table equal a scan; the size equals bitvec.h's
 *    formula;
 *  - "ef" (elias_fano.c): select, decode (whole, ranges, empty) and rank of
 *    members equal a sorted array, rank of non-members (neighbours of members,
 *    random wids, wids beyond the world) is -1, on hundreds of sets (empty,
 *    one member, whole world, world minus one, largest wid N - 1, random
 *    sparse / dense, ranges, strides, clusters) over worlds 1 .. 2^31; the
 *    size equals the formula of elias_fano.c; the select without PDEP
 *    (cs_gm_ef_select_portable) equals the array too; unordered input is refused
 *    with CS_GM_ERROR_NOT_APPLICABLE and a reason;
 *  - "wtr" (wtr.c): pi and pi_inv equal the brute-force permutation (sort)
 *    and are inverse, on hundreds of sequences (identity, 2 runs, reversed,
 *    random, block-permuted, pairwise-shuffled, geometric run lengths, sparse
 *    wids); runs = rho; node bits equal the optimal alphabetic cost (brute
 *    DP) for rho <= 40 and are at most the balanced tree's otherwise; the size equals wtr.c's formula; the run limit refuses
 *    with CS_GM_ERROR_LIMIT naming the counts, and the paper's Table 2 data
 *    points (10,000 decreasing accepted, random 10^6 refused) hold with the
 *    default limits;
 *  - Garsia-Wachs: the cost equals an O(n^3) dynamic programme for n <= 40
 *    on thousands of weight vectors (ties, powers of two, equal weights), and
 *    the depths always form an alphabetic tree (left-to-right stack check);
 *    at rho = 65,536 (six weight profiles) the cost lies between the entropy
 *    and the balanced tree's.
 * Deterministic: splitmix64 with fixed seeds.  Loops test in C and fail with
 * ck_abort_msg only on a mismatch. */
#include "algorithms/groupmaps/bitvec.h"
#include "algorithms/groupmaps/wtr.h"
#include "sim/contracts/groupmap.h"

#include <check.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const cs_gm_rep cs_gm_rep_elias_fano;
cs_wid cs_gm_ef_select_portable(void *st, int64_t gid); /* elias_fano.c, the path without PDEP */

#define EXPECT(cond, ...)                                                                                      \
  do {                                                                                                         \
    if (!(cond))                                                                                               \
      ck_abort_msg(__VA_ARGS__);                                                                               \
  } while (0)

/* ---- deterministic PRNG ---- */

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t next64(rng *r)
{
  uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* uniform in [0, n), n > 0 (modulo bias is irrelevant here) */
static uint64_t below(rng *r, uint64_t n)
{
  return next64(r) % n;
}

static double unit(rng *r)
{
  return (double)(next64(r) >> 11) / 9007199254740992.0;
}

static void shuffle_u32(rng *r, uint32_t *a, int64_t n)
{
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)below(r, (uint64_t)i + 1);
    uint32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
  return (a + b - 1) / b;
}

/* ======================================================================== */
/* bitvec                                                                   */

static unsigned get_bit(const uint64_t *w, uint64_t i)
{
  return (unsigned)((w[i >> 6] >> (i & 63)) & 1);
}

static void put_bit(uint64_t *w, uint64_t i)
{
  w[i >> 6] |= UINT64_C(1) << (i & 63);
}

static uint64_t bv_formula(uint64_t n, uint64_t ones)
{
  return 64 * (n / 64 + 1) + 128 * (n / 512 + 1) + 32 * (ceil_div(ones, 512) + 1) +
         32 * (ceil_div(n - ones, 512) + 1);
}

/* Every query of a vector built from bits[0..n) against a scan. */
static void check_bitvec(const uint64_t *bits, uint64_t n, const char *label)
{
  cs_bitvec bv;
  cs_bv_init(&bv, bits, n);
  EXPECT(bv.n == n, "%s n=%llu: n stored as %llu", label, (unsigned long long)n, (unsigned long long)bv.n);
  uint64_t ones = 0, zeros = 0;
  for (uint64_t i = 0; i <= n; i++) {
    uint64_t r1 = cs_bv_rank1(&bv, i);
    EXPECT(r1 == ones, "%s n=%llu: rank1(%llu) = %llu, scan %llu", label, (unsigned long long)n,
           (unsigned long long)i, (unsigned long long)r1, (unsigned long long)ones);
    EXPECT(cs_bv_rank0(&bv, i) == zeros, "%s n=%llu: rank0(%llu) wrong", label, (unsigned long long)n,
           (unsigned long long)i);
    if (i == n)
      break;
    unsigned b = get_bit(bits, i);
    EXPECT(cs_bv_access(&bv, i) == b, "%s n=%llu: access(%llu) wrong", label, (unsigned long long)n,
           (unsigned long long)i);
    if (b) {
      uint64_t p = cs_bv_select1(&bv, ones);
      EXPECT(p == i, "%s n=%llu: select1(%llu) = %llu, scan %llu", label, (unsigned long long)n,
             (unsigned long long)ones, (unsigned long long)p, (unsigned long long)i);
      ones++;
    } else {
      uint64_t p = cs_bv_select0(&bv, zeros);
      EXPECT(p == i, "%s n=%llu: select0(%llu) = %llu, scan %llu", label, (unsigned long long)n,
             (unsigned long long)zeros, (unsigned long long)p, (unsigned long long)i);
      zeros++;
    }
  }
  EXPECT(bv.ones == ones, "%s n=%llu: %llu ones stored, scan %llu", label, (unsigned long long)n,
         (unsigned long long)bv.ones, (unsigned long long)ones);
  uint64_t want = bv_formula(n, ones);
  EXPECT(cs_bv_size_bits(&bv) == want, "%s n=%llu: size %llu bits, formula %llu", label, (unsigned long long)n,
         (unsigned long long)cs_bv_size_bits(&bv), (unsigned long long)want);
  EXPECT(cs_bv_payload_bits(&bv) + cs_bv_directory_bits(&bv) == want, "%s: size terms do not add up", label);
  cs_bv_clear(&bv);
}

typedef enum {
  PAT_ZERO,
  PAT_ONE,
  PAT_HALF,
  PAT_SPARSE,   /* p = 0.002 */
  PAT_DENSE,    /* p = 0.998 */
  PAT_LOW,      /* p = 0.05 */
  PAT_HIGH,     /* p = 0.95 */
  PAT_CLUSTERS, /* alternating runs of random lengths up to 3000 */
  PAT_EVERY_513,
  PAT_ALTERNATE,
  PAT_COUNT
} bit_pattern;

static const char *pattern_name[PAT_COUNT] = {"zero",     "one",      "half",     "sparse",   "dense",
                                              "low",      "high",     "clusters", "every513", "alternate"};

/* A bit array of n bits with the pattern (extra words are zero, one spare). */
static uint64_t *make_bits(bit_pattern pat, uint64_t n, rng *r)
{
  uint64_t *w = g_new0(uint64_t, n / 64 + 2);
  bool cur = below(r, 2);
  uint64_t left = 0;
  for (uint64_t i = 0; i < n; i++) {
    bool b = false;
    switch (pat) {
    case PAT_ZERO: b = false; break;
    case PAT_ONE: b = true; break;
    case PAT_HALF: b = next64(r) & 1; break;
    case PAT_SPARSE: b = unit(r) < 0.002; break;
    case PAT_DENSE: b = unit(r) < 0.998; break;
    case PAT_LOW: b = unit(r) < 0.05; break;
    case PAT_HIGH: b = unit(r) < 0.95; break;
    case PAT_CLUSTERS:
      if (left == 0) {
        cur = !cur;
        left = 1 + below(r, 3000);
      }
      left--;
      b = cur;
      break;
    case PAT_EVERY_513: b = i % 513 == 0; break;
    case PAT_ALTERNATE: b = i & 1; break;
    default: break;
    }
    if (b)
      put_bit(w, i);
  }
  return w;
}

START_TEST(test_bitvec_special_lengths)
{
  static const uint64_t lengths[] = {0,    1,    2,    63,   64,   65,   127,  128,  129,   511,   512,
                                     513,  1023, 1024, 1025, 4095, 4096, 4097, 8191, 32768, 262143, 262144,
                                     262145, 262656};
  rng r = {11};
  char label[64];
  for (size_t li = 0; li < G_N_ELEMENTS(lengths); li++)
    for (int p = 0; p < PAT_COUNT; p++) {
      uint64_t *w = make_bits((bit_pattern)p, lengths[li], &r);
      snprintf(label, sizeof label, "pattern %s", pattern_name[p]);
      check_bitvec(w, lengths[li], label);
      g_free(w);
    }
}
END_TEST

START_TEST(test_bitvec_random_lengths)
{
  rng r = {12};
  char label[64];
  for (int t = 0; t < 300; t++) {
    uint64_t n = below(&r, 6000);
    bit_pattern p = (bit_pattern)below(&r, PAT_COUNT);
    uint64_t *w = make_bits(p, n, &r);
    snprintf(label, sizeof label, "trial %d pattern %s", t, pattern_name[p]);
    check_bitvec(w, n, label);
    g_free(w);
  }
}
END_TEST

/* Millions of bits, a few ones: select1 binary-searches hundreds of blocks;
 * and the complement for select0. */
START_TEST(test_bitvec_long_sparse)
{
  rng r = {13};
  const uint64_t n = 3000000;
  for (int flip = 0; flip < 2; flip++) {
    uint64_t *w = g_new0(uint64_t, n / 64 + 2);
    for (int k = 0; k < 1500; k++)
      put_bit(w, below(&r, n));
    put_bit(w, 0);
    put_bit(w, n - 1);
    if (flip) {
      for (uint64_t i = 0; i < n / 64 + 2; i++)
        w[i] = ~w[i];
    }
    check_bitvec(w, n, flip ? "long dense" : "long sparse");
    g_free(w);
  }
  uint64_t *w = make_bits(PAT_HALF, n, &r);
  check_bitvec(w, n, "long half");
  g_free(w);
}
END_TEST

START_TEST(test_select_in_word)
{
  rng r = {14};
  for (int t = 0; t < 200000; t++) {
    uint64_t x;
    switch (t % 4) {
    case 0: x = next64(&r); break;
    case 1: x = next64(&r) & next64(&r) & next64(&r); break;
    case 2: x = next64(&r) | next64(&r) | next64(&r); break;
    default: x = UINT64_C(1) << (t % 64) | (UINT64_C(1) << ((t / 64) % 64)); break;
    }
    unsigned k = 0;
    for (unsigned i = 0; i < 64; i++)
      if ((x >> i) & 1) {
        unsigned got = cs_bv_select_in_word(x, k);
        EXPECT(got == i, "select_in_word(%016llx, %u) = %u, scan %u", (unsigned long long)x, k, got, i);
        k++;
      }
    EXPECT(cs_bv_popcount(x) == k, "popcount(%016llx) = %u, scan %u", (unsigned long long)x, cs_bv_popcount(x), k);
  }
  EXPECT(cs_bv_select_in_word(~UINT64_C(0), 63) == 63, "select 63 of all ones");
  /* the byte table, entry by entry */
  for (unsigned b = 0; b < 256; b++) {
    unsigned r = 0;
    for (unsigned i = 0; i < 8; i++)
      if ((b >> i) & 1) {
        EXPECT(cs_bv_select_in_byte[8 * b + r] == i, "select_in_byte[%u][%u] = %u, scan %u", b, r,
               cs_bv_select_in_byte[8 * b + r], i);
        r++;
      }
  }
}
END_TEST

/* ======================================================================== */
/* Elias-Fano                                                               */

typedef enum {
  SET_EMPTY,
  SET_FIRST,
  SET_LAST,
  SET_MIDDLE,
  SET_PAIR_ENDS,
  SET_WHOLE,
  SET_MINUS_ONE,
  SET_MINUS_FIRST,
  SET_MINUS_LAST,
  SET_SPARSE,   /* about 1,500 random members */
  SET_HALF,     /* p = 0.5 */
  SET_DENSE,    /* p = 0.9 */
  SET_RANGE,
  SET_STRIDE,
  SET_CLUSTERS, /* two tight clusters far apart: long buckets */
  SET_KIND_COUNT
} set_kind;

static const char *set_name[SET_KIND_COUNT] = {"empty",  "first",  "last",   "middle", "pair-ends",
                                               "whole",  "minus-one", "minus-first", "minus-last", "sparse",
                                               "half",   "dense",  "range",  "stride", "clusters"};

/* Whether the kind needs O(world) members (skipped for huge worlds). */
static bool set_is_dense(set_kind k)
{
  return k == SET_WHOLE || k == SET_MINUS_ONE || k == SET_MINUS_FIRST || k == SET_MINUS_LAST || k == SET_HALF ||
         k == SET_DENSE || k == SET_RANGE;
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Sorts and removes duplicates; returns the new count. */
static int64_t sort_unique(uint32_t *a, int64_t n)
{
  qsort(a, (size_t)n, sizeof *a, cmp_u32);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    if (k == 0 || a[i] != a[k - 1])
      a[k++] = a[i];
  return k;
}

static uint32_t *make_set(set_kind kind, int64_t world, rng *r, int64_t *m_out)
{
  int64_t cap = set_is_dense(kind) ? world : 4000;
  uint32_t *a = g_new(uint32_t, cap > 0 ? cap : 1);
  int64_t m = 0;
  uint64_t N = (uint64_t)world;
  switch (kind) {
  case SET_EMPTY: break;
  case SET_FIRST: a[m++] = 0; break;
  case SET_LAST: a[m++] = (uint32_t)(N - 1); break;
  case SET_MIDDLE: a[m++] = (uint32_t)below(r, N); break;
  case SET_PAIR_ENDS:
    a[m++] = 0;
    if (N > 1)
      a[m++] = (uint32_t)(N - 1);
    break;
  case SET_WHOLE:
    for (uint64_t i = 0; i < N; i++)
      a[m++] = (uint32_t)i;
    break;
  case SET_MINUS_ONE:
  case SET_MINUS_FIRST:
  case SET_MINUS_LAST: {
    uint64_t hole = kind == SET_MINUS_FIRST ? 0 : kind == SET_MINUS_LAST ? N - 1 : below(r, N);
    for (uint64_t i = 0; i < N; i++)
      if (i != hole)
        a[m++] = (uint32_t)i;
    break;
  }
  case SET_SPARSE: {
    int64_t want = world < 3000 ? world / 3 + 1 : 1500;
    for (int64_t i = 0; i < want; i++)
      a[m++] = (uint32_t)below(r, N);
    m = sort_unique(a, m);
    break;
  }
  case SET_HALF:
  case SET_DENSE: {
    double p = kind == SET_HALF ? 0.5 : 0.9;
    for (uint64_t i = 0; i < N; i++)
      if (unit(r) < p)
        a[m++] = (uint32_t)i;
    break;
  }
  case SET_RANGE: {
    uint64_t lo = below(r, N), hi = lo + below(r, N - lo) + 1;
    for (uint64_t i = lo; i < hi; i++)
      a[m++] = (uint32_t)i;
    break;
  }
  case SET_STRIDE: {
    uint64_t stride = 1 + below(r, N / 100 + 7);
    uint64_t start = below(r, stride < N ? stride : N);
    for (uint64_t x = start; x < N && m < 4000; x += stride)
      a[m++] = (uint32_t)x;
    break;
  }
  case SET_CLUSTERS: {
    uint64_t c1 = below(r, N), c2 = below(r, N);
    for (int i = 0; i < 1500 && i < world; i++) {
      uint64_t c = i & 1 ? c2 : c1;
      uint64_t x = c + below(r, 3000);
      a[m++] = (uint32_t)(x < N ? x : N - 1);
    }
    m = sort_unique(a, m);
    break;
  }
  default: break;
  }
  *m_out = m;
  return a;
}

/* Index of w in sorted a[0..m), or -1. */
static int64_t find_sorted(const uint32_t *a, int64_t m, int64_t w)
{
  int64_t lo = 0, hi = m;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if ((int64_t)a[mid] < w)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m && (int64_t)a[lo] == w ? lo : -1;
}

static uint64_t ef_formula(const uint32_t *a, int64_t m)
{
  if (m == 0)
    return bv_formula(0, 0);
  uint64_t u = (uint64_t)a[m - 1] - a[0] + 1;
  unsigned L = 0;
  while (u > (uint64_t)m && (u / (uint64_t)m) >> (L + 1) != 0)
    L++;
  uint64_t buckets = ((u - 1) >> L) + 1;
  uint64_t nh = (uint64_t)m + buckets;
  uint64_t low = L > 0 ? 64 * ((uint64_t)m * L / 64 + 2) : 0;
  uint64_t samples = 32 * (((uint64_t)m + 63) / 64);
  return bv_formula(nh, (uint64_t)m) + low + samples;
}

static void check_ef_rank(const cs_gm_rep *ef, void *st, const uint32_t *a, int64_t m, int64_t w,
                          const char *label)
{
  int64_t got = ef->rank(st, w);
  int64_t want = find_sorted(a, m, w);
  EXPECT(got == want, "%s: rank(%lld) = %lld, want %lld", label, (long long)w, (long long)got, (long long)want);
}

static void check_ef(const uint32_t *a, int64_t m, int64_t world, rng *r, const char *label)
{
  const cs_gm_rep *ef = &cs_gm_rep_elias_fano;
  GError *err = NULL;
  cs_gm_limits lim = cs_gm_limits_default();
  void *st = ef->create(a, m, world, true, &lim, &err);
  EXPECT(st != NULL, "%s: create failed: %s", label, err ? err->message : "?");
  for (int64_t i = 0; i < m; i++) {
    cs_wid w = ef->select(st, i);
    EXPECT(w == a[i], "%s: select(%lld) = %u, want %u", label, (long long)i, w, a[i]);
    cs_wid wp = cs_gm_ef_select_portable(st, i);
    EXPECT(wp == a[i], "%s: portable select(%lld) = %u, want %u", label, (long long)i, wp, a[i]);
    int64_t g = ef->rank(st, a[i]);
    EXPECT(g == i, "%s: rank(%u) = %lld, want %lld", label, a[i], (long long)g, (long long)i);
  }
  /* decode: whole, empty, single, random ranges */
  cs_wid *out = g_new(cs_wid, m + 1);
  if (m > 0) {
    ef->decode(st, 0, m, out);
    EXPECT(memcmp(out, a, (size_t)m * sizeof *out) == 0, "%s: decode of all differs", label);
  }
  out[0] = 12345;
  ef->decode(st, m / 2, 0, out);
  EXPECT(out[0] == 12345, "%s: decode of 0 members wrote", label);
  for (int t = 0; t < 20 && m > 0; t++) {
    int64_t first = (int64_t)below(r, (uint64_t)m);
    int64_t count = (int64_t)below(r, (uint64_t)(m - first)) + 1;
    if (t == 0)
      count = 1;
    ef->decode(st, first, count, out);
    EXPECT(memcmp(out, a + first, (size_t)count * sizeof *out) == 0, "%s: decode(%lld, %lld) differs", label,
           (long long)first, (long long)count);
  }
  g_free(out);
  /* rank of non-members */
  if (world <= 5000) {
    for (int64_t w = 0; w < world + 70; w++)
      check_ef_rank(ef, st, a, m, w, label);
  } else {
    for (int64_t i = 0; i < m; i++) {
      check_ef_rank(ef, st, a, m, (int64_t)a[i] - 1, label);
      check_ef_rank(ef, st, a, m, (int64_t)a[i] + 1, label);
    }
    for (int t = 0; t < 3000; t++)
      check_ef_rank(ef, st, a, m, (int64_t)below(r, (uint64_t)world), label);
  }
  static const int64_t beyond[] = {INT32_MAX, (int64_t)UINT32_MAX, INT64_C(1) << 40, INT64_MAX};
  for (size_t k = 0; k < G_N_ELEMENTS(beyond); k++)
    check_ef_rank(ef, st, a, m, beyond[k], label);
  check_ef_rank(ef, st, a, m, world, label);
  check_ef_rank(ef, st, a, m, world + 1, label);
  /* size */
  cs_gm_size z = ef->size(st);
  uint64_t want = ef_formula(a, m);
  EXPECT(z.bits == want, "%s: size %llu bits, formula %llu", label, (unsigned long long)z.bits,
         (unsigned long long)want);
  EXPECT(z.parts[0].bits + z.parts[1].bits + z.parts[2].bits == z.bits, "%s: parts do not add up", label);
  EXPECT(z.paths == -1 && z.runs == -1, "%s: paths/runs not -1", label);
  ef->destroy(st);
}

START_TEST(test_ef_matches_sorted_array)
{
  static const int64_t worlds[] = {1,     2,     3,       63,      64,      65,     100,      511,
                                   512,   513,   1000,    4096,    10007,   65536,  1000000,  INT64_C(1) << 31};
  rng r = {21};
  char label[128];
  int sets = 0;
  for (size_t wi = 0; wi < G_N_ELEMENTS(worlds); wi++)
    for (int k = 0; k < SET_KIND_COUNT; k++) {
      int64_t world = worlds[wi];
      if (world > (INT64_C(1) << 22) && set_is_dense((set_kind)k))
        continue;
      int reps = world <= 100000 ? 2 : 1;
      for (int rep = 0; rep < reps; rep++) {
        int64_t m;
        uint32_t *a = make_set((set_kind)k, world, &r, &m);
        snprintf(label, sizeof label, "ef world %lld set %s #%d (m = %lld)", (long long)world, set_name[k], rep,
                 (long long)m);
        check_ef(a, m, world, &r, label);
        g_free(a);
        sets++;
      }
    }
  ck_assert_int_ge(sets, 300);
}
END_TEST

START_TEST(test_ef_refuses_unordered)
{
  const cs_gm_rep *ef = &cs_gm_rep_elias_fano;
  cs_gm_limits lim = cs_gm_limits_default();
  const cs_wid wids[] = {3, 1, 2};
  GError *err = NULL;
  void *st = ef->create(wids, 3, 10, false, &lim, &err);
  ck_assert_ptr_null(st);
  ck_assert_ptr_nonnull(err);
  ck_assert(err->domain == CS_GM_ERROR);
  ck_assert_int_eq(err->code, CS_GM_ERROR_NOT_APPLICABLE);
  ck_assert(strlen(err->message) > 10);
  g_clear_error(&err);
  /* a caller claiming order falsely is refused too */
  st = ef->create(wids, 3, 10, true, &lim, &err);
  ck_assert_ptr_null(st);
  ck_assert_int_eq(err->code, CS_GM_ERROR_NOT_APPLICABLE);
  g_clear_error(&err);
  const cs_wid outside[] = {1, 2, 10};
  st = ef->create(outside, 3, 10, true, &lim, &err);
  ck_assert_ptr_null(st);
  ck_assert_int_eq(err->code, CS_GM_ERROR_INPUT);
  g_clear_error(&err);
  ck_assert_str_eq(ef->name, "ef");
  ck_assert_int_eq(ef->kind, CS_GM_SET);
  ck_assert(!ef->from_paper);
}
END_TEST

/* ======================================================================== */
/* Garsia-Wachs / optimal alphabetic trees                                  */

/* Optimal alphabetic tree cost by the O(n^3) dynamic programme. */
static int64_t alphabetic_dp(const int64_t *w, int n)
{
  if (n <= 1)
    return 0;
  int64_t *c = g_new0(int64_t, (size_t)n * n);
  int64_t *pre = g_new0(int64_t, n + 1);
  for (int i = 0; i < n; i++)
    pre[i + 1] = pre[i] + w[i];
  for (int len = 2; len <= n; len++)
    for (int i = 0; i + len <= n; i++) {
      int j = i + len - 1;
      int64_t best = INT64_MAX;
      for (int k = i; k < j; k++) {
        int64_t v = c[i * n + k] + c[(k + 1) * n + j];
        if (v < best)
          best = v;
      }
      c[i * n + j] = best + pre[j + 1] - pre[i];
    }
  int64_t res = c[n - 1];
  g_free(c);
  g_free(pre);
  return res;
}

/* Whether depths[0..n) are the leaf depths, left to right, of a full binary
 * tree (merging equal-depth neighbours on a stack closes into one root). */
static bool depths_form_alphabetic_tree(const int32_t *d, int64_t n)
{
  if (n == 1)
    return d[0] == 0;
  int32_t *st = g_new(int32_t, n);
  int64_t top = 0;
  bool ok = true;
  for (int64_t i = 0; i < n && ok; i++) {
    if (d[i] < 1)
      ok = false;
    st[top++] = d[i];
    while (top >= 2 && st[top - 1] == st[top - 2]) {
      top--;
      st[top - 1]--;
    }
  }
  ok = ok && top == 1 && st[0] == 0;
  g_free(st);
  return ok;
}

static int64_t cost_of(const int64_t *w, const int32_t *d, int64_t n)
{
  int64_t c = 0;
  for (int64_t i = 0; i < n; i++)
    c += w[i] * d[i];
  return c;
}

START_TEST(test_garsia_wachs_is_optimal)
{
  rng r = {31};
  int64_t w[40];
  int32_t d[40];
  for (int t = 0; t < 6000; t++) {
    int n = 1 + (int)(t < 4000 ? below(&r, 12) : below(&r, 40));
    int dist = t % 6;
    for (int i = 0; i < n; i++) {
      switch (dist) {
      case 0: w[i] = 1 + (int64_t)below(&r, 4); break;        /* many ties */
      case 1: w[i] = 1 + (int64_t)below(&r, 1000); break;
      case 2: w[i] = INT64_C(1) << below(&r, 20); break;     /* powers of two */
      case 3: w[i] = 7; break;                                /* all equal */
      case 4: w[i] = 1 + (int64_t)(unit(&r) * unit(&r) * unit(&r) * 100000); break; /* skewed */
      default: w[i] = i % 2 ? 1 + i : 100 - i; break;         /* zigzag */
      }
    }
    int64_t gw = cs_wtr_alphabetic_depths(w, n, d);
    int64_t dp = alphabetic_dp(w, n);
    EXPECT(gw == dp, "trial %d (n = %d, dist %d): Garsia-Wachs cost %lld, DP %lld", t, n, dist, (long long)gw,
           (long long)dp);
    EXPECT(cost_of(w, d, n) == gw, "trial %d: returned cost is not sum w d", t);
    EXPECT(depths_form_alphabetic_tree(d, n), "trial %d (n = %d): depths form no alphabetic tree", t, n);
  }
}
END_TEST

/* Big inputs: valid trees, cost between the entropy bound and the balanced
 * tree's (the optimum is at most the balanced tree's cost). */
START_TEST(test_garsia_wachs_large)
{
  rng r = {32};
  const int64_t n = 65536;
  int64_t *w = g_new(int64_t, n);
  int32_t *d = g_new(int32_t, n);
  for (int dist = 0; dist < 6; dist++) {
    int64_t total = 0;
    for (int64_t i = 0; i < n; i++) {
      switch (dist) {
      case 0: w[i] = 1; break;
      case 1: w[i] = 1 + i; break;
      case 2: w[i] = n - i; break;
      case 3: w[i] = 1 + (int64_t)below(&r, 100); break;
      case 4: w[i] = i % 2 ? 1 : 1000; break;
      default: w[i] = 1 + (int64_t)(unit(&r) * unit(&r) * unit(&r) * 10000); break;
      }
      total += w[i];
    }
    int64_t c = cs_wtr_alphabetic_depths(w, n, d);
    EXPECT(depths_form_alphabetic_tree(d, n), "dist %d: depths form no alphabetic tree", dist);
    EXPECT(c == cost_of(w, d, n), "dist %d: returned cost is not sum w d", dist);
    EXPECT(c <= total * 16, "dist %d: cost %lld above the balanced tree's %lld", dist, (long long)c,
           (long long)(total * 16));
    double h = 0;
    for (int64_t i = 0; i < n; i++)
      h -= (double)w[i] * log2((double)w[i] / (double)total);
    EXPECT((double)c >= h - 1e-6 * h, "dist %d: cost %lld below the entropy %g", dist, (long long)c, h);
  }
  g_free(w);
  g_free(d);
}
END_TEST

/* ======================================================================== */
/* WTR                                                                      */

static int64_t brute_runs(const uint32_t *a, int64_t m)
{
  int64_t rho = m > 0;
  for (int64_t i = 1; i < m; i++)
    if (a[i] < a[i - 1])
      rho++;
  return rho;
}

static int cmp_u64(const void *x, const void *y)
{
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

/* pos[gid] = position of a[gid] among the sorted values. */
static int64_t *brute_pi(const uint32_t *a, int64_t m)
{
  uint64_t *key = g_new(uint64_t, m > 0 ? m : 1);
  for (int64_t g = 0; g < m; g++)
    key[g] = ((uint64_t)a[g] << 32) | (uint64_t)g;
  qsort(key, (size_t)m, sizeof *key, cmp_u64);
  int64_t *pos = g_new(int64_t, m > 0 ? m : 1);
  for (int64_t p = 0; p < m; p++)
    pos[key[p] & 0xffffffffu] = p;
  g_free(key);
  return pos;
}

static uint64_t wtr_formula(uint64_t tree_bits, uint64_t ones, int64_t rho)
{
  uint64_t runs = 32 * (uint64_t)(rho + 1) + 32 * (uint64_t)rho;
  if (rho <= 1)
    return runs;
  return bv_formula(tree_bits, ones) + runs + 256 * (uint64_t)(rho - 1);
}

/* Sum over the internal nodes of the alphabetic tree with leaf depths d of
 * the weight of the right child (stack construction, left to right). */
static uint64_t right_members(const int64_t *w, const int32_t *d, int64_t n)
{
  int64_t *sw = g_new(int64_t, n);
  int32_t *sd = g_new(int32_t, n);
  int64_t top = 0;
  uint64_t ones = 0;
  for (int64_t i = 0; i < n; i++) {
    sw[top] = w[i];
    sd[top++] = d[i];
    while (top >= 2 && sd[top - 1] == sd[top - 2]) {
      ones += (uint64_t)sw[top - 1];
      sw[top - 2] += sw[top - 1];
      sd[top - 2]--;
      top--;
    }
  }
  g_free(sw);
  g_free(sd);
  return ones;
}

static void check_wtr(const uint32_t *a, int64_t m, const char *label)
{
  const cs_perm_rep *wtr = &cs_perm_rep_wtr_impl;
  GError *err = NULL;
  cs_gm_limits lim = cs_gm_limits_default();
  void *st = wtr->create(a, m, &lim, &err);
  EXPECT(st != NULL, "%s: create failed: %s", label, err ? err->message : "?");
  int64_t *pos = brute_pi(a, m);
  for (int64_t g = 0; g < m; g++) {
    int64_t p = wtr->pi(st, g);
    EXPECT(p == pos[g], "%s: pi(%lld) = %lld, want %lld", label, (long long)g, (long long)p, (long long)pos[g]);
    int64_t back = wtr->pi_inv(st, pos[g]);
    EXPECT(back == g, "%s: pi_inv(%lld) = %lld, want %lld", label, (long long)pos[g], (long long)back,
           (long long)g);
  }
  int64_t rho = brute_runs(a, m);
  cs_gm_size z = wtr->size(st);
  EXPECT(z.runs == rho, "%s: runs %lld, brute %lld", label, (long long)z.runs, (long long)rho);
  EXPECT(z.paths == -1, "%s: paths not -1", label);
  EXPECT(z.parts[0].bits + z.parts[1].bits + z.parts[2].bits == z.bits, "%s: parts do not add up", label);
  /* node bits: the optimal alphabetic cost on the run lengths */
  uint64_t tb = cs_wtr_tree_bits(st);
  int64_t *len = g_new(int64_t, rho > 0 ? rho : 1);
  int64_t k = 0, start = 0;
  for (int64_t i = 1; i <= m; i++)
    if (i == m || a[i] < a[i - 1]) {
      len[k++] = i - start;
      start = i;
    }
  if (rho <= 40) {
    int64_t dp = alphabetic_dp(len, (int)rho);
    EXPECT(tb == (uint64_t)dp, "%s: %llu node bits, optimal alphabetic cost %lld", label, (unsigned long long)tb,
           (long long)dp);
  } else {
    unsigned lg = 0;
    while ((INT64_C(1) << lg) < rho)
      lg++;
    EXPECT(tb <= (uint64_t)m * lg, "%s: %llu node bits above the balanced tree's %llu", label,
           (unsigned long long)tb, (unsigned long long)((uint64_t)m * lg));
  }
  /* size formula: the ones of the node vectors are the right children's
   * members, summed over the internal nodes of the tree the depths give */
  if (rho > 1) {
    int32_t *depth = g_new(int32_t, rho);
    cs_wtr_alphabetic_depths(len, rho, depth);
    uint64_t ones = right_members(len, depth, rho);
    g_free(depth);
    EXPECT(z.parts[0].bits == 64 * (tb / 64 + 1), "%s: bitvector payload %llu, formula %llu", label,
           (unsigned long long)z.parts[0].bits, (unsigned long long)(64 * (tb / 64 + 1)));
    EXPECT(z.bits == wtr_formula(tb, ones, rho), "%s: size %llu, formula %llu", label, (unsigned long long)z.bits,
           (unsigned long long)wtr_formula(tb, ones, rho));
  } else {
    EXPECT(z.bits == wtr_formula(0, 0, rho), "%s: size %llu, formula %llu", label, (unsigned long long)z.bits,
           (unsigned long long)wtr_formula(0, 0, rho));
  }
  g_free(len);
  g_free(pos);
  wtr->destroy(st);
}

typedef enum {
  SEQ_IDENTITY,
  SEQ_SPARSE_SORTED, /* distinct random wids, ascending: 1 run */
  SEQ_TWO_RUNS,      /* rotation: [k..m) then [0..k) */
  SEQ_REVERSED,
  SEQ_RANDOM,
  SEQ_BLOCKS,        /* blocks of b consecutive wids in random order */
  SEQ_PAIR_SWAPS,    /* identity with 50 random transpositions */
  SEQ_INTERLEAVED,   /* evens then odds */
  SEQ_GEOMETRIC,     /* runs of lengths 1, 2, 4, ... in decreasing value ranges */
  SEQ_SPARSE_RANDOM, /* distinct random wids in random order */
  SEQ_KIND_COUNT
} seq_kind;

static const char *seq_name[SEQ_KIND_COUNT] = {"identity", "sparse-sorted", "two-runs", "reversed", "random",
                                               "blocks",   "pair-swaps",    "interleaved", "geometric",
                                               "sparse-random"};

static uint32_t *make_seq(seq_kind kind, int64_t m, rng *r)
{
  uint32_t *a = g_new(uint32_t, m > 0 ? m : 1);
  for (int64_t i = 0; i < m; i++)
    a[i] = (uint32_t)i;
  switch (kind) {
  case SEQ_IDENTITY: break;
  case SEQ_SPARSE_SORTED:
  case SEQ_SPARSE_RANDOM: {
    uint64_t x = below(r, 1000);
    for (int64_t i = 0; i < m; i++) {
      x += 1 + below(r, 5000);
      a[i] = (uint32_t)x;
    }
    if (kind == SEQ_SPARSE_RANDOM)
      shuffle_u32(r, a, m);
    break;
  }
  case SEQ_TWO_RUNS: {
    int64_t k = m > 1 ? 1 + (int64_t)below(r, (uint64_t)m - 1) : 0;
    for (int64_t i = 0; i < m; i++)
      a[i] = (uint32_t)((i + k) % m);
    break;
  }
  case SEQ_REVERSED:
    for (int64_t i = 0; i < m; i++)
      a[i] = (uint32_t)(m - 1 - i);
    break;
  case SEQ_RANDOM: shuffle_u32(r, a, m); break;
  case SEQ_BLOCKS: {
    int64_t b = 1 + (int64_t)below(r, 60);
    int64_t nb = (m + b - 1) / b;
    uint32_t *order = g_new(uint32_t, nb > 0 ? nb : 1);
    for (int64_t i = 0; i < nb; i++)
      order[i] = (uint32_t)i;
    shuffle_u32(r, order, nb);
    int64_t k = 0;
    for (int64_t i = 0; i < nb; i++)
      for (int64_t x = (int64_t)order[i] * b; x < ((int64_t)order[i] + 1) * b && x < m; x++)
        a[k++] = (uint32_t)x;
    g_free(order);
    break;
  }
  case SEQ_PAIR_SWAPS:
    for (int t = 0; t < 50 && m > 1; t++) {
      int64_t i = (int64_t)below(r, (uint64_t)m), j = (int64_t)below(r, (uint64_t)m);
      uint32_t tmp = a[i];
      a[i] = a[j];
      a[j] = tmp;
    }
    break;
  case SEQ_INTERLEAVED: {
    int64_t k = 0;
    for (int64_t x = 0; x < m; x += 2)
      a[k++] = (uint32_t)x;
    for (int64_t x = 1; x < m; x += 2)
      a[k++] = (uint32_t)x;
    break;
  }
  case SEQ_GEOMETRIC: {
    /* runs of length 1, 2, 4, ...; each run's values below the previous run's */
    int64_t k = 0, len = 1, hi = m;
    while (k < m) {
      int64_t l = len < m - k ? len : m - k;
      for (int64_t i = 0; i < l; i++)
        a[k + i] = (uint32_t)(hi - l + i);
      hi -= l;
      k += l;
      len *= 2;
    }
    break;
  }
  default: break;
  }
  return a;
}

START_TEST(test_wtr_matches_sort)
{
  static const int64_t sizes[] = {1, 2, 3, 5, 17, 64, 100, 513, 1000, 5000};
  rng r = {41};
  char label[128];
  int seqs = 0;
  for (size_t si = 0; si < G_N_ELEMENTS(sizes); si++)
    for (int k = 0; k < SEQ_KIND_COUNT; k++)
      for (int rep = 0; rep < 3; rep++) {
        int64_t m = sizes[si];
        uint32_t *a = make_seq((seq_kind)k, m, &r);
        snprintf(label, sizeof label, "wtr m = %lld %s #%d", (long long)m, seq_name[k], rep);
        check_wtr(a, m, label);
        g_free(a);
        seqs++;
      }
  ck_assert_int_ge(seqs, 300);
}
END_TEST

/* Few-run inputs, whose alphabetic tree the DP can check, with random lengths. */
/* Few-run inputs (random sorted chunks of a shuffled range), whose
 * alphabetic tree check_wtr compares with the DP. */
START_TEST(test_wtr_few_runs_optimal)
{
  rng r = {42};
  char label[128];
  for (int t = 0; t < 300; t++) {
    int chunks = 1 + (int)below(&r, 14);
    int64_t len[14], m = 0;
    for (int i = 0; i < chunks; i++) {
      len[i] = 1 + (int64_t)(t % 2 ? below(&r, 5) : below(&r, 300));
      m += len[i];
    }
    uint32_t *vals = g_new(uint32_t, m);
    for (int64_t i = 0; i < m; i++)
      vals[i] = (uint32_t)(3 * i + below(&r, 3));
    shuffle_u32(&r, vals, m);
    for (int i = 0, k = 0; i < chunks; k += (int)len[i], i++)
      qsort(vals + k, (size_t)len[i], sizeof *vals, cmp_u32);
    snprintf(label, sizeof label, "wtr few runs trial %d", t);
    check_wtr(vals, m, label);
    g_free(vals);
  }
}
END_TEST

START_TEST(test_wtr_large)
{
  rng r = {43};
  static const seq_kind kinds[] = {SEQ_TWO_RUNS, SEQ_RANDOM, SEQ_BLOCKS, SEQ_PAIR_SWAPS, SEQ_GEOMETRIC};
  char label[128];
  for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
    uint32_t *a = make_seq(kinds[k], 100000, &r);
    snprintf(label, sizeof label, "wtr m = 100000 %s", seq_name[kinds[k]]);
    check_wtr(a, 100000, label);
    g_free(a);
  }
}
END_TEST

START_TEST(test_wtr_empty)
{
  GError *err = NULL;
  cs_gm_limits lim = cs_gm_limits_default();
  void *st = cs_perm_rep_wtr_impl.create(NULL, 0, &lim, &err);
  ck_assert_ptr_nonnull(st);
  cs_gm_size z = cs_perm_rep_wtr_impl.size(st);
  ck_assert_int_eq(z.runs, 0);
  ck_assert_int_eq(z.paths, -1);
  cs_perm_rep_wtr_impl.destroy(st);
  ck_assert_str_eq(cs_perm_rep_wtr_impl.name, "wtr");
}
END_TEST

START_TEST(test_wtr_limit)
{
  cs_gm_limits lim = cs_gm_limits_default();
  lim.wtr_max_runs = 10;
  GError *err = NULL;
  uint32_t a[11];
  for (int i = 0; i < 11; i++)
    a[i] = (uint32_t)(10 - i); /* 11 runs */
  void *st = cs_perm_rep_wtr_impl.create(a + 1, 10, &lim, &err); /* 10 runs: accepted */
  ck_assert_ptr_nonnull(st);
  ck_assert_int_eq(cs_perm_rep_wtr_impl.size(st).runs, 10);
  cs_perm_rep_wtr_impl.destroy(st);
  st = cs_perm_rep_wtr_impl.create(a, 11, &lim, &err);
  ck_assert_ptr_null(st);
  ck_assert_ptr_nonnull(err);
  ck_assert(err->domain == CS_GM_ERROR);
  ck_assert_int_eq(err->code, CS_GM_ERROR_LIMIT);
  ck_assert_ptr_nonnull(strstr(err->message, "11"));
  ck_assert_ptr_nonnull(strstr(err->message, "10"));
  g_clear_error(&err);
}
END_TEST

/* The paper's Table 2: a decreasing group of 10,000 (10,000 runs) is stored,
 * a random permutation of 10^6 (about 500,000 runs) is refused. */
START_TEST(test_wtr_default_limit_matches_paper)
{
  cs_gm_limits lim = cs_gm_limits_default();
  uint32_t *dec = make_seq(SEQ_REVERSED, 10000, &(rng){51});
  check_wtr(dec, 10000, "decreasing 10,000");
  g_free(dec);
  rng r = {52};
  uint32_t *perm = make_seq(SEQ_RANDOM, 1000000, &r);
  GError *err = NULL;
  void *st = cs_perm_rep_wtr_impl.create(perm, 1000000, &lim, &err);
  ck_assert_ptr_null(st);
  ck_assert_int_eq(err->code, CS_GM_ERROR_LIMIT);
  g_clear_error(&err);
  g_free(perm);
}
END_TEST

static Suite *succinct_suite(void)
{
  Suite *s = suite_create("succinct");
  TCase *tb = tcase_create("bitvec");
  tcase_set_timeout(tb, 300);
  tcase_add_test(tb, test_bitvec_special_lengths);
  tcase_add_test(tb, test_bitvec_random_lengths);
  tcase_add_test(tb, test_bitvec_long_sparse);
  tcase_add_test(tb, test_select_in_word);
  suite_add_tcase(s, tb);
  TCase *te = tcase_create("elias_fano");
  tcase_set_timeout(te, 300);
  tcase_add_test(te, test_ef_matches_sorted_array);
  tcase_add_test(te, test_ef_refuses_unordered);
  suite_add_tcase(s, te);
  TCase *tg = tcase_create("garsia_wachs");
  tcase_set_timeout(tg, 300);
  tcase_add_test(tg, test_garsia_wachs_is_optimal);
  tcase_add_test(tg, test_garsia_wachs_large);
  suite_add_tcase(s, tg);
  TCase *tw = tcase_create("wtr");
  tcase_set_timeout(tw, 300);
  tcase_add_test(tw, test_wtr_matches_sort);
  tcase_add_test(tw, test_wtr_few_runs_optimal);
  tcase_add_test(tw, test_wtr_large);
  tcase_add_test(tw, test_wtr_empty);
  tcase_add_test(tw, test_wtr_limit);
  tcase_add_test(tw, test_wtr_default_limit_matches_paper);
  suite_add_tcase(s, tw);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(succinct_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
