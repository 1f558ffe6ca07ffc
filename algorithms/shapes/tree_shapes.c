/* Tree shapes as pure functions: see tree_shapes.h. */
#include "algorithms/shapes/tree_shapes.h"

int64_t cs_pow2_floor(int64_t x)
{
  int64_t pow2 = 1;
  while (pow2 <= x / 2)
    pow2 *= 2;
  return pow2;
}

int64_t cs_pow2_ceil(int64_t x)
{
  int64_t pow2 = 1;
  while (pow2 < x)
    pow2 <<= 1;
  return pow2;
}

int cs_log2_pow2(int64_t pow2)
{
  int k = 0;
  while (pow2 > 1) {
    pow2 >>= 1;
    k++;
  }
  return k;
}

int64_t cs_binomial_child_limit(int64_t rel, int64_t p) { return rel == 0 ? cs_pow2_ceil(p) : cs_lowbit(rel); }

int64_t cs_binomial_subtree_size(int64_t rel, int64_t p)
{
  if (rel == 0)
    return p;
  int64_t low = cs_lowbit(rel);
  return low < p - rel ? low : p - rel;
}

int64_t kary_subtree_size(int64_t i, int k, int64_t count)
{
  /* Descendants at each depth form a contiguous range [lo, lo + width). */
  int64_t total = 0, lo = i, width = 1;
  while (lo < count) {
    int64_t hi = lo + width;
    total += (hi < count ? hi : count) - lo;
    lo = lo * k + 1;
    width *= k;
  }
  return total;
}
