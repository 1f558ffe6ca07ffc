/* Two-tier allreduce: seed 001's two-tier reduce-scatter (Sec. 5.4,
 * twotier_reduce_scatter.c) then its two-tier allgather (SDTA, Sec. 5.3,
 * twotier_allgather.c), composed (compose.h) over one unit space: the
 * topology-aware counterpart of Rabenseifner's reduce-scatter + allgather.
 *
 * Units: p (both phases cut one unit per rank: after the reduce-scatter rank
 * r holds unit r summed over all ranks, which the allgather spreads).  Each
 * phase runs on a block of ceil(n/p) bytes for its own plan and cost; the
 * composite cuts the n bytes into p units (cs_unit_bytes).  Tags: the
 * reduce-scatter's, then the allgather's shifted past tt_tag_span.  Any
 * shape the two-tier view describes; ranks must be mapped to nodes in order.
 *
 * Cost (sim/contracts/cost.h): the two phases' own costs added. */
#include "algorithms/collectives/compose.h"
#include "algorithms/collectives/twotier.h"

static const cs_compose_phase phases[2] = {{CS_COLL_REDUCE_SCATTER, "two-tier", tt_tag_span},
                                           {CS_COLL_ALLGATHER, "two-tier", tt_tag_span}};

static bool plan(cs_sched_params *prm, GError **err) { return cs_compose_plan(prm, phases, "allreduce two-tier", err); }

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out) { cs_compose_rank_ops(prm, phases, rank, out); }

static double cost(const cs_sched_params *prm, const cs_cost_params *c) { return cs_compose_total_cost(prm, phases, c); }

const cs_coll_algo cs_algo_twotier_allreduce = {
  "two-tier", CS_COLL_ALLREDUCE, "seed 001's two-tier reduce-scatter (Sec. 5.4) then two-tier allgather (Sec. 5.3)",
  plan, ops, true, cost, "[reduce-scatter two-tier] + [allgather two-tier], each its own model, b = n/p"};
