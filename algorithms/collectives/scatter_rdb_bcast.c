/* Broadcast by a binomial scatter and a recursive-doubling allgather, as
 * MPICH 4.x's MPIR_Bcast_intra_scatter_recursive_doubling_allgather (MPICH's
 * choice for medium messages on a power-of-two p).
 *
 * Phase 1 (tags 0..62, the tree level): the buffer cut into p chunks, chunk
 * r being relative rank r's, scattered on the binomial tree exactly as the
 * van de Geijn broadcast does (MPII_Scatter_for_bcast).
 * Phase 2 (tags from 8192): recursive-doubling allgather of the chunks
 * (cs_obl_recursive_doubling_allgather, the allgather "recursive-doubling"'s
 * generator over relative ranks): in step i rank r exchanges with r XOR 2^i
 * everything its aligned group of 2^i ranks holds.
 *
 * Non-powers of two: MPICH's own handling, as written in this routine (the
 * "EXPERIMENTAL" recursive-halving fix-up: when the partner group is cut at
 * p, the ranks of one's group that got the missing chunks pass them on by
 * halving).  MPICH's selection never runs it on such p (it takes the ring
 * allgather instead), but the code is MPICH's and collsim runs any p >= 1
 * with it; a power of two is plain recursive doubling, p log2 p messages.
 *
 * Choices left open (as in vandegeijn_bcast.c): nunits = p with collsim's
 * balanced chunk sizes (MPICH cuts ceil(n/p)-byte chunks, the last ones
 * smaller or empty, and skips empty scatter sends; they agree when p
 * divides n); every tree edge and exchange carries its chunks; the allgather
 * starts when the scatter is over (no overlap).
 *
 * Cost (sim/contracts/cost.h): the binomial scatter's of chunks b = n/p
 * followed by the recursive doubling's. */
#include "algorithms/collectives/oblivious.h"

enum { SCATTER_TAG = 0, ALLGATHER_TAG = 8192 };

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_scatter(prm, rank, SCATTER_TAG, out);
  cs_obl_recursive_doubling_allgather(prm, rank, ALLGATHER_TAG, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double b = (double)prm->bytes / (double)prm->p;
  return cs_obl_binomial_cost(prm, c, b, true) + cs_obl_recursive_doubling_cost(prm, c, b);
}

const cs_coll_algo cs_algo_scatter_rdb_bcast = {
  "scatter-rdb", CS_COLL_BCAST,
  "binomial scatter of p chunks + recursive-doubling allgather (MPICH; its halving fix-up for non-powers of two)",
  cs_plan_unit_per_rank, ops, false, cost,
  "[binomial scatter of b = n/p: " CS_OBL_BINOMIAL_SCATTER_COST "] + [recursive doubling: "
  CS_OBL_RECURSIVE_DOUBLING_COST "]"};
