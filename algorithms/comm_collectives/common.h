/* Shared arithmetic of the binomial collectives over a communicator. */
#ifndef COLLSIM_COMM_COLL_COMMON_H
#define COLLSIM_COMM_COLL_COMMON_H

#include "sim/contracts/comm_coll.h"

/* Blocks of the binomial subtree of relative rank rr in a tree of n:
 * rr's lowest set bit (n for the root), clipped at n - rr. */
static inline int cs_binomial_span(int rr, int n)
{
  if (rr == 0)
    return n;
  int low = rr & -rr;
  return low < n - rr ? low : n - rr;
}

static inline int cs_min_int(int a, int b) { return a < b ? a : b; }

#endif
