/* Pairwise-exchange reduce-scatter (seed 001, Section 4, Table 1:
 * "Reduce-Scatter, PairWise Exchange", cost (p-1)/p (n beta + n gamma);
 * Section 6.4, Table 5), as MPICH's MPIR_Reduce_scatter_intra_pairwise
 * (commutative operation).
 *
 * Convention: p-1 steps; in step i (i = 1 .. p-1) rank r sends its own
 * contribution to block (r + i) mod p to rank r + i, and receives from rank
 * r - i that rank's contribution to block r, adding it into its partial sum
 * (MPIC_Sendrecv then MPIR_Reduce_local: the send is listed before the
 * receive).  Every rank thus sends only its original contributions, and each
 * block collects its p-1 remote contributions directly at its owner.
 * Works for any p >= 1 (p = 1: no messages).
 *
 * Representation: one CS_OP_LOOP of p-1 iterations over a send (peer_step
 * +1, unit_step +1 block) and a RECV_REDUCE (peer_step -1, units fixed), so
 * a rank's list is 3 ops long whatever p.  Units: one unit per rank
 * (nunits = p).  Tags: step i has tag i - 1.
 *
 * Cost (sim/contracts/cost.h): the p-1 steps one after another (a step's
 * receive ends before the next send), each with the loads of every rank
 * sending a block i ranks on at once, and the block combined (gamma). */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_pairwise_reduce_scatter(prm, rank, 0, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_pairwise_cost(prm, c, (double)prm->bytes / (double)prm->p);
}

const cs_coll_algo cs_algo_pairwise_reduce_scatter = {
  "pairwise", CS_COLL_REDUCE_SCATTER, "p-1 pairwise exchanges, step i: send to rank+i, reduce from rank-i (MPICH)",
  cs_plan_unit_per_rank, ops, false, cost, CS_OBL_PAIRWISE_COST};
