/* Binomial-tree scatter (seed 001, Section 4, Table 1: "Scatter, Binomial
 * Tree", cost (p-1)/p n beta), as MPICH's MPIR_Scatter_intra_binomial.
 *
 * Convention: ranks relative to the root (rank 0); relative rank r > 0 has
 * parent r - lowbit(r) and subtree [r, min(r + lowbit(r), p)).  A rank first
 * receives its whole subtree's blocks from its parent, then sends to its
 * children r + mask for mask = lowbit(r)/2, ..., 2, 1 (the root: from the
 * largest power of two < p down to 1), i.e. farthest child (largest
 * subtree) first, each child getting exactly the blocks of its subtree.
 * Works for any p >= 1 (incomplete subtrees are cut at p, as in MPICH).
 *
 * Units: one unit per rank (nunits = p); rank r's block is unit r.
 * Tags: tree level, log2(mask).  Each (parent, child) pair meets once.
 *
 * Cost (sim/contracts/cost.h; Table 1's (p-1)/p n beta, plus latency and
 * the port): the longest path of the tree, rank by rank, each message its
 * child's subtree of blocks at the level of their distance; a rank's sends
 * all leave at once (eager), its off-node children sharing its port fairly
 * (cs_obl_binomial_cost). */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_scatter(prm, rank, 0, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_binomial_cost(prm, c, (double)prm->bytes / (double)prm->p, true);
}

const cs_coll_algo cs_algo_binomial_scatter = {
  "binomial", CS_COLL_SCATTER, "binomial tree from rank 0, farthest subtree first (MPICH)", cs_plan_unit_per_rank, ops, false,
  cost, CS_OBL_BINOMIAL_SCATTER_COST};
