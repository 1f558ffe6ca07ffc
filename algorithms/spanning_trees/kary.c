/* Balanced k-ary heap helpers, see kary.h. */
#include "algorithms/spanning_trees/kary.h"

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
