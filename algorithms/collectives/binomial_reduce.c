/* Binomial-tree reduce, as MPICH 4.x's MPIR_Reduce_intra_binomial for a
 * commutative operation (MPICH's choice for short messages): relative rank
 * r, for mask = 1, 2, 4, ... while bit mask of r is clear, combines the
 * partial sums of r + mask (if < p) into its own; at its lowest set bit it
 * sends its partial sums to r - mask and stops.  p - 1 messages of n bytes;
 * any p >= 1.  The generator (cs_obl_binomial_reduce) is the communicator
 * reduce's (algorithms/comm_collectives/).
 *
 * Choices left open: commutative only (MPICH's non-commutative branch, which
 * swaps buffers so that lower ranks' data come first, has no counterpart:
 * collsim's reductions are sums, and MPICH's non-commutative path reduces
 * to rank 0 and forwards to the root); one unit, the whole buffer; ranks
 * relative to the root as MPICH's commutative path.  Tags: log2(mask).
 *
 * Cost (sim/contracts/cost.h): the longest path of the gather's tree with
 * every message the whole buffer, n*g per message combined, a rank's
 * receives through its port one after another. */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_reduce(prm, rank, 0, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_binomial_reduce_cost(prm, c, (double)prm->bytes);
}

const cs_coll_algo cs_algo_binomial_reduce = {
  "binomial", CS_COLL_REDUCE, "binomial tree, whole buffer combined on the way up (MPICH, commutative)",
  cs_plan_whole_buffer, ops,
  false, cost, CS_OBL_BINOMIAL_REDUCE_COST};
