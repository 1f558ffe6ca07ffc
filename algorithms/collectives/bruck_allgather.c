/* Bruck's allgather, as MPICH 4.x's MPIR_Allgather_intra_brucks (MPICH's
 * choice for short messages on a non-power-of-two p): for k = 1, 2, 4, ...
 * < p, rank r sends the first min(k, p - k) blocks it holds (its own and
 * the next ones, r, r+1, ... mod p) to r - k and receives as many, blocks
 * r + k on, from r + k.  ceil(log2 p) rounds, p ceil(log2 p) messages; any
 * p >= 1 (the last round of a non-power of two moves the p - k remaining
 * blocks, as MPICH does).  The generator (cs_obl_bruck_allgather) is the
 * communicator allgather's (algorithms/comm_collectives/).
 *
 * Choices left open: MPICH gathers into a temporary buffer from its own
 * block on and rotates it at the end; that local copy moves no message and
 * is not modelled.  Units: one per rank (nunits = p).  Tags: log2(k).
 *
 * Cost (sim/contracts/cost.h): ceil(log2 p) shifts one after another, in
 * each every rank sending its min(k, p-k) blocks to rank - k at once. */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_bruck_allgather(prm, rank, 0, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_bruck_cost(prm, c, (double)prm->bytes / (double)prm->p);
}

const cs_coll_algo cs_algo_bruck_allgather = {
  "bruck", CS_COLL_ALLGATHER, "Bruck, ceil(log2 p) rounds to rank - 2^k, any p (MPICH)", cs_plan_unit_per_rank, ops,
  false, cost, CS_OBL_BRUCK_COST};
