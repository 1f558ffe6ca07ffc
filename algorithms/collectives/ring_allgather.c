/* Ring allgather (seed 001, Section 4, Table 1: "Allgather, Ring", cost
 * (p-1)/p n beta; Section 6.3, Table 4), as MPICH's MPIR_Allgather_intra_ring.
 *
 * Convention: p-1 steps; in step i (i = 0 .. p-2) rank r sends block
 * (r - i) mod p to its right neighbour r+1 and receives block (r - 1 - i)
 * mod p from its left neighbour r-1 (MPICH's MPIC_Sendrecv: the send is
 * listed before the receive).  Data thus travel left to right and every
 * block visits every rank.  Works for any p >= 1 (p = 1: no messages).
 *
 * Representation: one CS_OP_LOOP of p-1 iterations over a send and a
 * receive (unit_step -1 block), so a rank's list is 3 ops long whatever p.
 * Units: one unit per rank (nunits = p).  Tags: step i has tag i.
 *
 * Cost (sim/contracts/cost.h): p-1 steps, each as long as the slowest
 * neighbour pair's message (every step waits for the previous one's block),
 * with the loads of every rank sending at once. */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_ring_allgather(prm, rank, 0, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_ring_cost(prm, c, (double)prm->bytes / (double)prm->p);
}

const cs_coll_algo cs_algo_ring_allgather = {
  "ring", CS_COLL_ALLGATHER, "ring, p-1 steps, each rank forwards to rank+1 (MPICH)", cs_plan_unit_per_rank, ops, false,
  cost, CS_OBL_RING_COST};
