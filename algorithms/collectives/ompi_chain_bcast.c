/* Chain broadcast, as Open MPI's coll/tuned "chain"
 * (ompi_coll_base_bcast_intra_chain, Open MPI 4.1/5.0 coll/base): the root
 * heads `chains` chains over ranks 1 .. p-1 (ompi_coll_base_topo_build_chain:
 * ceil((p-1)/chains) ranks in each of the first (p-1) mod chains chains, one
 * less in the others, in rank order), run by
 * ompi_coll_base_bcast_intra_generic with segments of --segment bytes: the
 * root sends segment s to every chain's head, each rank passes it down its
 * chain.  (p - 1) S messages for S segments; any p >= 1.
 *
 * Choices left open: 4 chains, Open MPI's MCA default
 * coll_tuned_bcast_algorithm_chain_fanout (ompi_coll_tuned_init_chain_fanout)
 * when the chain is forced (its fixed decision passes fanout 0, which
 * build_chain turns into 1 chain: that is the "pipeline" algorithm here);
 * fewer chains when p - 1 < 4.  Segments as the pipeline's
 * (ompi_pipeline_bcast.c: --segment, default 0 = none, balanced sizes,
 * eager sends).  SMPI has no chain broadcast (its ompi_chain is a reduce).
 * Units: one per segment.  Tags: the segment index.
 *
 * Cost (sim/contracts/cost.h): the last segment's hops down the longest
 * chain plus S - 1 periods of the slowest rank (the root, sending to 4
 * heads at once). */
#include "algorithms/collectives/oblivious.h"

enum { CHAINS = 4 };

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_tree_bcast(prm, rank, cs_ompi_chain_parent, cs_ompi_chain_children, CHAINS, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_segmented_cost(prm, c, cs_ompi_chain_parent, cs_ompi_chain_children, CHAINS);
}

const cs_coll_algo cs_algo_ompi_chain_bcast = {
  "chain", CS_COLL_BCAST, "4 chains from the root, --segment bytes at a time (Open MPI chain)", cs_obl_plan_segments,
  ops, false, cost, CS_OBL_SEGMENTED_COST("4 chains of ceil((p-1)/4) ranks")};
