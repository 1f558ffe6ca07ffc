/* Wavelet Tree on Runs (seed 003, Section 5.5): the permutation
 * representation "wtr" and the internals its unit tests need.  See wtr.c for
 * the construction, its choices and the size formula. */
#ifndef COLLSIM_WTR_H
#define COLLSIM_WTR_H

#include "sim/contracts/groupmap.h"

extern const cs_perm_rep cs_perm_rep_wtr_impl;

/* Garsia-Wachs: the depths of the leaves of an optimal alphabetic binary tree
 * on weights[0..n-1] (each > 0), written to depths[0..n-1] (n = 1: depth 0).
 * Returns the tree's cost, sum of weights[i] * depths[i] (0 when n <= 1). */
int64_t cs_wtr_alphabetic_depths(const int64_t *weights, int64_t n, int32_t *depths);

/* Bits in the node bit vectors of a wtr state (the tree's cost on the run
 * lengths; 0 when there are fewer than 2 runs), before word rounding. */
uint64_t cs_wtr_tree_bits(const void *st);

#endif
