/* Balanced k-ary trees laid out as heaps: vertex i has parent (i-1)/k and
 * children k*i+1 .. k*i+k (those below the vertex count).  Seed 000, eq. (1),
 * (3) and (4).  Shared by the driver, the algorithms and the verifier. */
#ifndef COLLSIM_KARY_H
#define COLLSIM_KARY_H

#include <stdint.h>

static inline int kary_parent(int64_t i, int k) { return i == 0 ? -1 : (int)((i - 1) / k); }

static inline int64_t kary_first_child(int64_t i, int k) { return (int64_t)k * i + 1; }

/* Number of children of vertex i in a heap of `count` vertices. */
static inline int kary_nchildren(int64_t i, int k, int64_t count)
{
  int64_t first = kary_first_child(i, k);
  if (first >= count)
    return 0;
  int64_t last = first + k; /* exclusive */
  if (last > count)
    last = count;
  return (int)(last - first);
}

/* Depth of vertex i (root at depth 0): eq. (1), floor(log_k(i(k-1)+1)), in
 * integer arithmetic. */
static inline int kary_depth(int64_t i, int k)
{
  int d = 0;
  int64_t level_end = 1, level_size = 1; /* vertices [0, level_end) are at depth < d+1 */
  while (i >= level_end) {
    level_size *= k;
    level_end += level_size;
    d++;
  }
  return d;
}

/* Minimal height (edges on the longest root-leaf path) of a tree with m
 * vertices and at most k children per vertex; 0 for m <= 1. */
static inline int kary_min_height(int64_t m, int k) { return m <= 1 ? 0 : kary_depth(m - 1, k); }

/* Number of vertices in the heap-subtree of vertex i, for a heap of `count`. */
int64_t kary_subtree_size(int64_t i, int k, int64_t count);

#endif
