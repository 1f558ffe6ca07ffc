/* Tree shapes as pure functions (no messaging), written once for every
 * algorithm family:
 *  - the power-of-two arithmetic under them;
 *  - MPICH's binomial tree over ranks relative to a root: rel's parent is
 *    rel - lowbit(rel), its children rel + 2^j for 2^j below lowbit(rel)
 *    (below p at the root), those < p, and its subtree the ranks
 *    [rel, rel + subtree size);
 *  - the k-ary heap, seed 000's numbering (eq. (1), (3), (4)): vertex i has
 *    parent (i - 1) / k and children k i + 1 .. k i + k (those below the
 *    vertex count).
 * Users: the collective schedules (algorithms/collectives/oblivious.c), the
 * communicator collectives (algorithms/comm_collectives/), the spanning-tree
 * constructions (algorithms/spanning_trees/) and the verifier
 * (sim/checks/spanning_tree_verify.c). */
#ifndef COLLSIM_TREE_SHAPES_H
#define COLLSIM_TREE_SHAPES_H

#include <stdbool.h>
#include <stdint.h>

/* ---- powers of two ---- */

/* Lowest set bit of x > 0. */
static inline int64_t cs_lowbit(int64_t x) { return x & -x; }
/* Largest power of two <= x (x >= 1). */
int64_t cs_pow2_floor(int64_t x);
/* Smallest power of two >= x (1 for x <= 1). */
int64_t cs_pow2_ceil(int64_t x);
/* log2 of a power of two. */
int cs_log2_pow2(int64_t pow2);

/* ---- ranks relative to a root (0 <= rank, root < p) ---- */

static inline int64_t cs_tree_rel_rank(int64_t rank, int64_t root, int64_t p) { return (rank - root + p) % p; }
static inline int64_t cs_tree_abs_rank(int64_t rel, int64_t root, int64_t p) { return (rel + root) % p; }

/* ---- MPICH's binomial tree over relative ranks 0 .. p-1 ---- */

/* rel - lowbit(rel); -1 for the root. */
static inline int64_t cs_binomial_parent(int64_t rel) { return rel == 0 ? -1 : rel - cs_lowbit(rel); }
/* What MPICH's loops call the parent mask: lowbit(rel), or at the root the
 * smallest power of two >= p.  rel's children are rel + mask for mask =
 * limit/2, limit/4, ..., 1 (largest first), those < p. */
int64_t cs_binomial_child_limit(int64_t rel, int64_t p);
/* Ranks in rel's subtree, [rel, rel + size): lowbit(rel) clipped at p - rel;
 * p for the root. */
int64_t cs_binomial_subtree_size(int64_t rel, int64_t p);

/* ---- Open MPI's coll/base trees over relative ranks 0 .. p-1 ----
 * (ompi_coll_base_topo_build_tree and _build_chain, coll_base_topo.c).  A
 * rank fills `children` (room for `fanout`) and returns how many; the
 * parent of the root is -1. */

/* The fanout-ary tree numbered level by level: relative rank r at level l
 * (levels 0: {0}, 1: {1 .. fanout}, ...) has children r + j fanout^l for
 * j = 1 .. fanout (those < p); fanout 2 is Open MPI's binary tree ("bintree"):
 * 0 -> 1, 2; 1 -> 3, 5; 2 -> 4, 6. */
int cs_ompi_tree_children(int64_t rel, int fanout, int64_t p, int64_t *children);
int64_t cs_ompi_tree_parent(int64_t rel, int fanout, int64_t p); /* p unused: the signature of the chain's */
/* `fanout` chains (at most p - 1) hanging from the root: the root's children
 * are the chains' heads; chain c holds ceil((p-1)/fanout) ranks for the
 * first (p-1) mod fanout chains (all, if it is 0) and one less for the
 * others, numbered in order; fanout 1 is Open MPI's pipeline. */
int cs_ompi_chain_children(int64_t rel, int fanout, int64_t p, int64_t *children);
int64_t cs_ompi_chain_parent(int64_t rel, int fanout, int64_t p);

/* ---- the k-ary heap (seed 000), vertices 0 .. count-1, k >= 1 ---- */

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
