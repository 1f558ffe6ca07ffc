/* Section 8.1's experiment sets (seed 003), with the choices the paper left
 * open.  World: 110,000 proclets in 16 OS processes on 2 machines
 * (cpm:6875,8,2) for sets A and B; set C varies MPI_COMM_WORLD itself
 * (20,000, 50,000, 100,000 proclets, still 16 OS processes on 2 machines:
 * cpm:1250,8,2, cpm:3125,8,2, cpm:6250,8,2).  Every new communicator is
 * made by MPI_Comm_split of the world (the paper's A-set text speaks of
 * MPI_Comm_split): colour 0 for the members, keys giving the group order,
 * MPI_UNDEFINED for the others.
 *
 *  A1-A3  "a monotonically decreasing stride" of 10,000, 50,000, 100,000
 *         members spread over the world: stride s = floor(110,000 / m)
 *         (11, 2, 1) from rank 0, in decreasing order.  (A3's stride 1 is a
 *         range of 100,000 and leaves OS process 15 without members.)
 *  B1     "an unordered range with 2 runs": 50,000 .. 99,999 then 0 .. 49,999.
 *  B2     "a stride with one item randomly removed": 0 .. 100,000 (stride 1)
 *         less one rank drawn from the seed.
 *  B3     "a range of ranges": 100 ranges of 1,000 ranks, one every 1,100.
 *  C1-C3  "a union of a range and a stride", 10,000 members: the range
 *         0 .. 4,999 then the stride 5,000 + s i (i < 5,000) with s =
 *         floor((N - 5,000) / 5,000) (3, 9, 19), in increasing order.
 */
#include "sim/drivers/comm_sets.h"
#include "sim/contracts/prng.h"

#include <string.h>

static cs_wid *decreasing_stride(const cs_bench_set *s, int64_t n, uint64_t seed)
{
  (void)seed;
  int64_t stride = n / s->m;
  cs_wid *w = g_new(cs_wid, (gsize)s->m);
  for (int64_t i = 0; i < s->m; i++)
    w[i] = (cs_wid)(stride * (s->m - 1 - i));
  return w;
}

static cs_wid *two_runs(const cs_bench_set *s, int64_t n, uint64_t seed)
{
  (void)n;
  (void)seed;
  int64_t half = s->m / 2;
  cs_wid *w = g_new(cs_wid, (gsize)s->m);
  for (int64_t i = 0; i < s->m; i++)
    w[i] = (cs_wid)(i < s->m - half ? half + i : i - (s->m - half));
  return w;
}

static cs_wid *stride_less_one(const cs_bench_set *s, int64_t n, uint64_t seed)
{
  (void)n;
  int64_t gone = (int64_t)(cs_mix64(seed ^ 0xB2u) % (uint64_t)(s->m + 1));
  cs_wid *w = g_new(cs_wid, (gsize)s->m);
  for (int64_t i = 0, r = 0; i < s->m; r++)
    if (r != gone)
      w[i++] = (cs_wid)r;
  return w;
}

static cs_wid *range_of_ranges(const cs_bench_set *s, int64_t n, uint64_t seed)
{
  (void)n;
  (void)seed;
  cs_wid *w = g_new(cs_wid, (gsize)s->m);
  for (int64_t i = 0; i < s->m; i++)
    w[i] = (cs_wid)(i / 1000 * 1100 + i % 1000);
  return w;
}

static cs_wid *range_and_stride(const cs_bench_set *s, int64_t n, uint64_t seed)
{
  (void)seed;
  int64_t half = s->m / 2, stride = (n - half) / (s->m - half);
  cs_wid *w = g_new(cs_wid, (gsize)s->m);
  for (int64_t i = 0; i < s->m; i++)
    w[i] = (cs_wid)(i < half ? i : half + stride * (i - half));
  return w;
}

static const cs_bench_set sets[] = {
    {"A1", "decreasing stride, 10,000 members", {6875, 8, 2}, 10000, "bwt", decreasing_stride},
    {"A2", "decreasing stride, 50,000 members", {6875, 8, 2}, 50000, "bwt", decreasing_stride},
    {"A3", "decreasing stride, 100,000 members", {6875, 8, 2}, 100000, "bwt", decreasing_stride},
    {"B1", "unordered range with 2 runs, 100,000 members", {6875, 8, 2}, 100000, "wtr+rs", two_runs},
    {"B2", "stride with one member removed, 100,000 members", {6875, 8, 2}, 100000, "bm", stride_less_one},
    {"B3", "range of ranges, 100,000 members", {6875, 8, 2}, 100000, "bdd", range_of_ranges},
    {"C1", "range + stride, 10,000 of a world of 20,000", {1250, 8, 2}, 10000, "bm", range_and_stride},
    {"C2", "range + stride, 10,000 of a world of 50,000", {3125, 8, 2}, 10000, "bm", range_and_stride},
    {"C3", "range + stride, 10,000 of a world of 100,000", {6250, 8, 2}, 10000, "bm", range_and_stride},
};

size_t cs_bench_set_count(void) { return G_N_ELEMENTS(sets); }
const cs_bench_set *cs_bench_set_at(size_t i) { return i < G_N_ELEMENTS(sets) ? &sets[i] : NULL; }

const cs_bench_set *cs_bench_set_find(const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS(sets); i++)
    if (g_ascii_strcasecmp(sets[i].name, name) == 0)
      return &sets[i];
  return NULL;
}
