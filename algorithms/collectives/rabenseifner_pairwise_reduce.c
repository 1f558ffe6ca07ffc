/* Reduce as "Rabenseifner's Reduce-Scatter with Gather" (seed 001, Section 4,
 * Table 1: cost (p-1)/p (2 n beta + n gamma); Section 6.4, Table 5) with the
 * reduce-scatter that MPICH runs for long messages: pairwise exchange
 * (MPIR_Reduce_scatter_intra_pairwise), followed by MPICH's binomial gather
 * of the reduced blocks to rank 0.  Named variant "rabenseifner-pairwise" of
 * "rabenseifner" (rabenseifner_reduce.c, recursive halving, what
 * MPIR_Reduce_intra_reduce_scatter_gather does).
 *
 * Why a variant: Table 5's Rabenseifner column has every L1 and L2 link used
 * and 2-5 GB per link, like the pairwise-exchange column beside it, while
 * recursive halving pairs each rank with log2(p) partners only and leaves
 * most links idle.  Reading Table 1's "Reduce-Scatter" as MPICH's long-message
 * reduce-scatter gives this composition; results/seed001/README.md compares
 * both with the paper.
 *
 * Units: one per rank (nunits = p), balanced sizes (cs_unit_bytes); rank r
 * owns block r after the first phase.  Tags: pairwise steps 0 .. p-2, gather
 * levels p + log2(mask).  Any p >= 1.
 *
 * Cost (sim/contracts/cost.h): the pairwise reduce-scatter's, then the
 * binomial gather's of the reduced blocks (one after the other). */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_pairwise_reduce_scatter(prm, rank, 0, out);
  cs_obl_binomial_gather(prm, rank, (int32_t)prm->p, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double b = (double)prm->bytes / (double)prm->p;
  return cs_obl_pairwise_cost(prm, c, b) + cs_obl_binomial_cost(prm, c, b, false);
}

const cs_coll_algo cs_algo_rabenseifner_pairwise_reduce = {
  "rabenseifner-pairwise", CS_COLL_REDUCE,
  "pairwise-exchange reduce-scatter (MPICH's long-message choice) + binomial gather to rank 0", cs_plan_unit_per_rank,
  ops, false, cost, "[pairwise: " CS_OBL_PAIRWISE_COST "] + [binomial gather: " CS_OBL_BINOMIAL_GATHER_COST "], b = n/p"};
