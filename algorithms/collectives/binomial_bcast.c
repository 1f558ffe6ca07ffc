/* Binomial-tree broadcast, as MPICH 4.x's MPIR_Bcast_intra_binomial (MPICH's
 * choice for short messages or fewer than 8 ranks): relative rank r > 0
 * receives the whole buffer from r - lowbit(r), then sends it to r + mask
 * for mask from lowbit(r)/2 (the root: the largest power of two < p) down
 * to 1, farthest child first.  p - 1 messages of n bytes, ceil(log2 p)
 * rounds; any p >= 1.  The tree and the generator (cs_obl_binomial_bcast)
 * are those of the communicator broadcast (algorithms/comm_collectives/).
 *
 * Choices left open: one unit, the whole buffer (MPICH sends it in one
 * message; MPICH's non-contiguous pack step has no counterpart); sends
 * leave at once, eager (MPICH's MPIC_Send is blocking, so a rank's sends go
 * one after another; the timed interpreter's sends are eager).
 * Tags: tree level, log2(mask).
 *
 * Cost (sim/contracts/cost.h): the longest path of the tree, rank by rank,
 * every message the whole buffer; a rank's k-th send leaves after k
 * o_send, its off-node children sharing its port. */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_bcast(prm, rank, 0, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_binomial_bcast_cost(prm, c, (double)prm->bytes);
}

const cs_coll_algo cs_algo_binomial_bcast = {
  "binomial", CS_COLL_BCAST, "binomial tree, whole buffer to each child, farthest first (MPICH)",
  cs_plan_whole_buffer, ops, false,
  cost, CS_OBL_BINOMIAL_BCAST_COST};
