/* The groups of seed 003's Tables 1 (ordered) and 2 (unordered), Section 6,
 * generated in a world of N = 10^6 (the paper says its world is 2^20 but
 * draws its groups from [0, 999,999]; Table 1's sizes fit 10^6).  Every
 * random choice comes from a fixed seed (a splitmix64 stream), so each
 * generator returns the same group on every call and machine.  Random
 * indices are draw mod n (bias below 10^6 / 2^64, negligible).
 *
 * Our reading of each row (the text of both tables is partly garbled):
 *
 * Table 1
 *  t1g1  "MPI_COMM_WORLD, one rank randomly removed": [0, N) minus one rank
 *        drawn with seed 1; 999,999 members.
 *  t1g2  "10,0000 ordered ranges of size 50", 500,000 members: read as
 *        10,000 ranges of 50 consecutive wids.  Their placement is not
 *        given; two readings, two groups:
 *        t1g2-spread  range k = [100 k, 100 k + 49]: evenly over the world,
 *                     which matches the paper's BM of 122 KB (a span of
 *                     about 10^6 bits);
 *        t1g2-random  the ranges at random non-overlapping places (a
 *                     uniform composition of the 500,000 free wids into
 *                     10,001 gaps, seed 2).
 *  t1g3  "{all odd ranks} U {0 ... 499,999}": 750,000 members.  The paper
 *        prints 749,999, one less than this union has; we keep the union.
 *  t1g4  "Upper half with prime numbers removed": [500,000, 999,999] minus
 *        its 36,960 primes = 463,040 members, exactly the paper's count.
 *  t1g5  "4-D sub-grid of 6-D grid, [*,10,*,10,*,*]": the world as a 6-D
 *        grid of 10 per dimension, wid = sum c_k 10^(5-k) (c_0 the most
 *        significant); "10" is read 1-based (the tenth value, c = 9), as a
 *        coordinate of a 10-wide dimension must be: c_1 = c_3 = 9, the
 *        others free; 10,000 members from 90,900 to 999,999, whose span
 *        matches the paper's BM of 111 KB (91 bpg).
 *  t1g6  garbled ("...id of 6 I) anid [1", 10,000 members, R/S applies,
 *        BM 1.3 KB = a span of about 10^4 bits): read as the 4-D sub-grid
 *        [1,1,*,*,*,*] of the same 6-D grid, 1-based as in t1g5 (c_0 = c_1
 *        = 0, the four low dimensions free): the range [0, 9,999], which
 *        R/S stores as wid = gid x 1 + 0.
 *  t1g7  "wid(i) = 2 x gid(i) + 600000 where x <> 8849", 10,000 members:
 *        gid runs over [0, 10,000] without x = 8,849 (x is the gid: wid
 *        8,849 is not in the progression), so the wids are 600,000,
 *        600,002, ..., 620,000 without 617,698.  (The paper's BM of 5 KB
 *        would fit a span twice as long; we follow the formula.)
 *  t1g8  "Randomly choose 1,500 items from [0,999999]": 1,500 distinct wids
 *        drawn with seed 8, sorted.
 * Table 2
 *  t2g1  "World, 1 item removed (50 pairwise-shuffling)": t1g1's reading
 *        with seed 21 (999,999 members; the paper prints 1,000,000), then
 *        50 swaps of two positions drawn with seed 22.
 *  t2g2  "MPI_COMM_WORLD randomly permuted": a Fisher-Yates shuffle of
 *        [0, N) with seed 23.
 *  t2g3  "10,000 blocks randomly permuted", 500,000 members, and WTR+R/S
 *        applies, so the set is one progression: [0, 499,999] cut into
 *        blocks of consecutive wids, the blocks in a random order, each
 *        ascending inside.  Two readings, two groups:
 *        t2g3-50x10000  50 blocks of 10,000 (seed 25): "10,000 blocks" as
 *                       blocks of 10,000; about 25 runs, which matches the
 *                       paper's WTR+R/S of 4.98 bpg (lg of the runs);
 *        t2g3-10000x50  10,000 blocks of 50 (seed 24): "10,000 blocks" as
 *                       their number; about 5,000 runs.
 *  t2g4  "Monotonically decreasing group" of 10,000.  Two readings:
 *        t2g4-stride  wid = 999,999 - 100 gid (Section 8.1.1 calls set A "a
 *                     monotonically decreasing stride"): stride -100 from
 *                     the top of the world down to 99;
 *        t2g4-range   wid = 9,999 - gid, the range [0, 9,999] backwards: the
 *                     paper's WTR+BM is only 1 KB above its WTR+R/S and its
 *                     WTR+BDD equals WTR+R/S, which fits a contiguous set
 *                     (a bitmap of 10,000 bits, a BDD of a few paths), not a
 *                     stride of 100 (a bitmap of 10^6 bits).
 */
#include "sim/contracts/groupmap_strategy.h"
#include "sim/contracts/prng.h"

#include <string.h>

#define N CS_GM_PAPER_WORLD

/* ------------------------------------------------------------ helpers */

/* The next number of a splitmix64 stream (sim/contracts/prng.h). */
static uint64_t next_random(uint64_t *state)
{
  return cs_splitmix_next(state);
}

static int64_t random_below(uint64_t *state, int64_t n)
{
  return (int64_t)(next_random(state) % (uint64_t)n);
}

static uint64_t seeded(uint64_t seed)
{
  uint64_t state = seed ^ UINT64_C(0x3003);
  return next_random(&state);
}

static cs_gm_group *group_of(cs_wid *wids, int64_t m)
{
  cs_gm_group *g = g_new(cs_gm_group, 1);
  *g = (cs_gm_group){.world = N, .m = m, .wids = wids};
  return g;
}

static void swap_wids(cs_wid *w, int64_t i, int64_t j)
{
  cs_wid t = w[i];
  w[i] = w[j];
  w[j] = t;
}

static void shuffle(cs_wid *w, int64_t m, uint64_t *state)
{
  for (int64_t i = m - 1; i > 0; i--)
    swap_wids(w, i, random_below(state, i + 1));
}

/* count distinct values of [0, n): the first `count` of a partial
 * Fisher-Yates shuffle of [0, n). */
static cs_wid *distinct_draw(int64_t n, int64_t count, uint64_t *state)
{
  cs_wid *all = g_new(cs_wid, n);
  for (int64_t i = 0; i < n; i++)
    all[i] = (cs_wid)i;
  for (int64_t i = 0; i < count; i++)
    swap_wids(all, i, i + random_below(state, n - i));
  cs_wid *pick = g_memdup2(all, (gsize)count * sizeof(cs_wid));
  g_free(all);
  return pick;
}

static int compare_wid(const void *a, const void *b)
{
  cs_wid x = *(const cs_wid *)a, y = *(const cs_wid *)b;
  return (x > y) - (x < y);
}

static cs_wid *distinct_sorted_draw(int64_t n, int64_t count, uint64_t seed)
{
  uint64_t state = seeded(seed);
  cs_wid *w = distinct_draw(n, count, &state);
  qsort(w, (size_t)count, sizeof *w, compare_wid);
  return w;
}

static cs_wid *world_minus_one(uint64_t seed, int64_t *m)
{
  uint64_t state = seeded(seed);
  int64_t removed = random_below(&state, N);
  cs_wid *w = g_new(cs_wid, N - 1);
  int64_t k = 0;
  for (int64_t i = 0; i < N; i++)
    if (i != removed)
      w[k++] = (cs_wid)i;
  *m = k;
  return w;
}

/* --------------------------------------------------------------- Table 1 */

static cs_gm_group *t1g1(void)
{
  int64_t m;
  cs_wid *w = world_minus_one(1, &m);
  return group_of(w, m);
}

#define T1G2_RANGES 10000
#define T1G2_LEN 50

static cs_gm_group *t1g2_spread(void)
{
  cs_wid *w = g_new(cs_wid, T1G2_RANGES * T1G2_LEN);
  int64_t k = 0;
  for (int64_t r = 0; r < T1G2_RANGES; r++)
    for (int64_t i = 0; i < T1G2_LEN; i++)
      w[k++] = (cs_wid)(r * (N / T1G2_RANGES) + i);
  return group_of(w, k);
}

/* Sorted distinct y_r in [0, free + ranges): range r starts at
 * y_r + r (len - 1), so consecutive ranges are at least len apart and the
 * last ends by N - 1. */
static cs_gm_group *t1g2_random(void)
{
  int64_t free_wids = N - T1G2_RANGES * T1G2_LEN;
  cs_wid *y = distinct_sorted_draw(free_wids + T1G2_RANGES, T1G2_RANGES, 2);
  cs_wid *w = g_new(cs_wid, T1G2_RANGES * T1G2_LEN);
  int64_t k = 0;
  for (int64_t r = 0; r < T1G2_RANGES; r++)
    for (int64_t i = 0; i < T1G2_LEN; i++)
      w[k++] = (cs_wid)(y[r] + r * (T1G2_LEN - 1) + i);
  g_free(y);
  return group_of(w, k);
}

static cs_gm_group *t1g3(void)
{
  cs_wid *w = g_new(cs_wid, N);
  int64_t k = 0;
  for (int64_t i = 0; i < N; i++)
    if (i < N / 2 || i % 2 == 1)
      w[k++] = (cs_wid)i;
  return group_of(w, k);
}

/* composite[i] for i < n by the sieve of Eratosthenes (0 and 1 marked). */
static bool *composite_below(int64_t n)
{
  bool *c = g_new0(bool, n);
  c[0] = c[1] = true;
  for (int64_t p = 2; p * p < n; p++)
    if (!c[p])
      for (int64_t q = p * p; q < n; q += p)
        c[q] = true;
  return c;
}

static cs_gm_group *t1g4(void)
{
  bool *composite = composite_below(N);
  cs_wid *w = g_new(cs_wid, N / 2);
  int64_t k = 0;
  for (int64_t i = N / 2; i < N; i++)
    if (composite[i])
      w[k++] = (cs_wid)i;
  g_free(composite);
  return group_of(w, k);
}

/* The sub-grid of the 6-D grid (10 per dimension, c_0 most significant)
 * with fixed[d] >= 0 fixed and -1 free, in increasing wid order. */
static cs_gm_group *subgrid(const int fixed[6])
{
  cs_wid *w = g_new(cs_wid, N);
  int64_t k = 0;
  for (int64_t i = 0; i < N; i++) {
    int64_t rest = i;
    bool in = true;
    for (int d = 5; d >= 0; d--, rest /= 10)
      if (fixed[d] >= 0 && rest % 10 != fixed[d])
        in = false;
    if (in)
      w[k++] = (cs_wid)i;
  }
  return group_of(g_realloc(w, (gsize)k * sizeof(cs_wid)), k);
}

static cs_gm_group *t1g5(void)
{
  static const int fixed[6] = {-1, 9, -1, 9, -1, -1}; /* [*,10,*,10,*,*], 1-based */
  return subgrid(fixed);
}

static cs_gm_group *t1g6(void)
{
  static const int fixed[6] = {0, 0, -1, -1, -1, -1}; /* [1,1,*,*,*,*], 1-based */
  return subgrid(fixed);
}

#define T1G7_SKIP 8849

static cs_gm_group *t1g7(void)
{
  cs_wid *w = g_new(cs_wid, 10000);
  int64_t k = 0;
  for (int64_t x = 0; x <= 10000; x++)
    if (x != T1G7_SKIP)
      w[k++] = (cs_wid)(2 * x + 600000);
  return group_of(w, k);
}

static cs_gm_group *t1g8(void) { return group_of(distinct_sorted_draw(N, 1500, 8), 1500); }

/* --------------------------------------------------------------- Table 2 */

static cs_gm_group *t2g1(void)
{
  int64_t m;
  cs_wid *w = world_minus_one(21, &m);
  uint64_t state = seeded(22);
  for (int s = 0; s < 50; s++) {
    int64_t i = random_below(&state, m);
    int64_t j = random_below(&state, m);
    swap_wids(w, i, j);
  }
  return group_of(w, m);
}

static cs_gm_group *t2g2(void)
{
  cs_wid *w = g_new(cs_wid, N);
  for (int64_t i = 0; i < N; i++)
    w[i] = (cs_wid)i;
  uint64_t state = seeded(23);
  shuffle(w, N, &state);
  return group_of(w, N);
}

/* [0, blocks x len) as `blocks` blocks of `len` in a random block order. */
static cs_gm_group *permuted_blocks(int64_t blocks, int64_t len, uint64_t seed)
{
  cs_wid *order = g_new(cs_wid, blocks);
  for (int64_t b = 0; b < blocks; b++)
    order[b] = (cs_wid)b;
  uint64_t state = seeded(seed);
  shuffle(order, blocks, &state);
  cs_wid *w = g_new(cs_wid, blocks * len);
  int64_t k = 0;
  for (int64_t b = 0; b < blocks; b++)
    for (int64_t i = 0; i < len; i++)
      w[k++] = (cs_wid)(order[b] * len + i);
  g_free(order);
  return group_of(w, k);
}

static cs_gm_group *t2g3_50x10000(void) { return permuted_blocks(50, 10000, 25); }

static cs_gm_group *t2g3_10000x50(void) { return permuted_blocks(10000, 50, 24); }

static cs_gm_group *decreasing(int64_t top, int64_t stride, int64_t m)
{
  cs_wid *w = g_new(cs_wid, m);
  for (int64_t i = 0; i < m; i++)
    w[i] = (cs_wid)(top - stride * i);
  return group_of(w, m);
}

static cs_gm_group *t2g4_stride(void) { return decreasing(N - 1, 100, 10000); }

static cs_gm_group *t2g4_range(void) { return decreasing(9999, 1, 10000); }

/* ----------------------------------------------------------- the table */

static const cs_gm_paper_group groups[] = {
    {"t1g1", 1, 1, 999999, "[0, 10^6) minus one random rank (seed 1)", t1g1},
    {"t1g2-spread", 1, 2, 500000, "10,000 ranges of 50, range k = [100k, 100k + 49]", t1g2_spread},
    {"t1g2-random", 1, 2, 500000, "10,000 ranges of 50 at random non-overlapping places (seed 2)",
     t1g2_random},
    {"t1g3", 1, 3, 749999, "odd ranks U [0, 499,999] (750,000; the paper prints 749,999)", t1g3},
    {"t1g4", 1, 4, 463040, "[500,000, 999,999] minus its primes", t1g4},
    {"t1g5", 1, 5, 10000, "6-D grid of 10s, sub-grid [*,9,*,9,*,*] (paper's 1-based [*,10,*,10,*,*])",
     t1g5},
    {"t1g6", 1, 6, 10000, "6-D grid of 10s, sub-grid [0,0,*,*,*,*] = the range [0, 9,999] (garbled row)",
     t1g6},
    {"t1g7", 1, 7, 10000, "wid = 2x + 600,000 for x in [0, 10,000], x != 8,849", t1g7},
    {"t1g8", 1, 8, 1500, "1,500 random distinct wids of [0, 999,999] (seed 8), sorted", t1g8},
    {"t2g1", 2, 1, 1000000, "t1g1 (seed 21) then 50 swaps of random positions (seed 22)", t2g1},
    {"t2g2", 2, 2, 1000000, "[0, 10^6) shuffled (seed 23)", t2g2},
    {"t2g3-50x10000", 2, 3, 500000, "[0, 499,999] as 50 blocks of 10,000 in random block order (seed 25)",
     t2g3_50x10000},
    {"t2g3-10000x50", 2, 3, 500000, "[0, 499,999] as 10,000 blocks of 50 in random block order (seed 24)",
     t2g3_10000x50},
    {"t2g4-stride", 2, 4, 10000, "decreasing stride: wid = 999,999 - 100 gid", t2g4_stride},
    {"t2g4-range", 2, 4, 10000, "decreasing range: wid = 9,999 - gid", t2g4_range},
};

size_t cs_gm_paper_group_count(void) { return sizeof groups / sizeof groups[0]; }

const cs_gm_paper_group *cs_gm_paper_group_at(size_t i)
{
  return i < cs_gm_paper_group_count() ? &groups[i] : NULL;
}

const cs_gm_paper_group *cs_gm_paper_group_find(const char *name)
{
  for (size_t i = 0; name && i < cs_gm_paper_group_count(); i++)
    if (strcmp(groups[i].name, name) == 0)
      return &groups[i];
  return NULL;
}
