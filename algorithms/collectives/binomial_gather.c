/* Binomial-tree gather (seed 001, Section 4, Table 1: "Gather, Binomial
 * Tree", cost (p-1)/p n beta), as MPICH's MPIR_Gather_intra_binomial: the
 * mirror image of the binomial scatter.
 *
 * Convention: ranks relative to the root (rank 0).  For mask = 1, 2, 4, ...
 * a rank whose bit `mask` is clear receives from r + mask (if < p) the blocks
 * of that rank's subtree [r + mask, min(r + 2*mask, p)); at its lowest set
 * bit it sends everything it holds, the blocks [r, min(r + lowbit(r), p)),
 * to r - lowbit(r) and is done.  So children are received nearest (smallest
 * subtree) first.  Works for any p >= 1.
 *
 * MPICH differences that do not change the messages: for very small blocks
 * MPICH packs into a temporary buffer, and for a root other than 0 it
 * receives into a derived datatype; data movement between ranks is the same.
 *
 * Units: one unit per rank (nunits = p).  Tags: tree level, log2(mask).
 *
 * Cost (sim/contracts/cost.h; Table 1's (p-1)/p n beta, plus latency and
 * the port): the longest path of the tree, rank by rank; a rank's children
 * are ready one after another (the smaller subtrees first) and their
 * messages cross its port one after another (cs_obl_binomial_cost). */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_gather(prm, rank, 0, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_binomial_cost(prm, c, (double)prm->bytes / (double)prm->p, false);
}

const cs_coll_algo cs_algo_binomial_gather = {
  "binomial", CS_COLL_GATHER, "binomial tree to rank 0, nearest subtree first (MPICH)", cs_plan_unit_per_rank, ops, false,
  cost, CS_OBL_BINOMIAL_GATHER_COST};
