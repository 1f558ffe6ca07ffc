/* Allreduce as a reduce to rank 0 followed by a broadcast from it, composed
 * (compose.h) of two registered schedules: MPICH's long-message reduce
 * (rabenseifner: fold, recursive-halving reduce-scatter, binomial gather)
 * and long-message broadcast (vandegeijn: binomial scatter, ring
 * allgather).  Open MPI's ompi_coll_base_allreduce_intra_nonoverlapping
 * (Open MPI 4.1 and 5.0) is this composition with whatever reduce and bcast
 * the communicator selected; MPICH has no such allreduce.
 *
 * Units: lcm(pof2, p) (rabenseifner cuts pof2 pieces, vandegeijn p
 * chunks).  Tags: the reduce's (below 128: 0, 1 + i, 64 + i), then the
 * bcast's shifted by 128.  Non-powers of two: each phase's own handling
 * (rabenseifner's fold of the odd ranks, the binomial tree and ring over any
 * p).  Refused where the reduce is: fewer bytes than pof2.
 *
 * Cost (sim/contracts/cost.h): the reduce's own cost, then the bcast's. */
#include "algorithms/collectives/compose.h"

enum { REDUCE_TAGS = 128, BCAST_RING_TAG = 64 };

static int64_t reduce_tags(const cs_sched_params *prm)
{
  (void)prm;
  return REDUCE_TAGS; /* rabenseifner_reduce.c: 0, 1 + i, 64 + i with i < 63 */
}

static int64_t bcast_tags(const cs_sched_params *prm)
{
  return BCAST_RING_TAG + prm->p; /* vandegeijn_bcast.c: tree levels < 63, ring 64 + i with i < p - 1 */
}

static const cs_compose_phase phases[2] = {{CS_COLL_REDUCE, "rabenseifner", reduce_tags},
                                           {CS_COLL_BCAST, "vandegeijn", bcast_tags}};

static bool plan(cs_sched_params *prm, GError **err) { return cs_compose_plan(prm, phases, "allreduce reduce-bcast", err); }

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out) { cs_compose_rank_ops(prm, phases, rank, out); }

static double cost(const cs_sched_params *prm, const cs_cost_params *c) { return cs_compose_total_cost(prm, phases, c); }

const cs_coll_algo cs_algo_reduce_bcast_allreduce = {
  "reduce-bcast", CS_COLL_ALLREDUCE,
  "rabenseifner reduce to rank 0, then vandegeijn bcast (registered schedules composed; Open MPI's nonoverlapping)",
  plan, ops, false, cost, "[reduce rabenseifner] + [bcast vandegeijn], each its own model"};
