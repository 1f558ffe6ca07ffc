/* Pipelined chain broadcast, as Open MPI's coll/tuned "pipeline"
 * (ompi_coll_base_bcast_intra_pipeline, Open MPI 4.1/5.0 coll/base): one
 * chain root -> 1 -> 2 -> ... -> p-1 (ompi_coll_base_topo_build_chain with
 * fanout 1) run by ompi_coll_base_bcast_intra_generic: the buffer is cut in
 * segments of --segment bytes; a rank receives segment s from its
 * predecessor, then sends it on, segment after segment.  (p - 1) S messages
 * for S segments; any p >= 1.  SMPI calls it ompi_pipeline.
 *
 * Choices left open: the segment size is collsim collective's --segment
 * (default 0 = no segmentation, one segment: Open MPI's fixed decision
 * passes segsize 0 and its MCA default coll_tuned_bcast_algorithm_segmentsize
 * is 0; SMPI's ompi_pipeline picks 128 KiB segments for p > 16, give
 * --segment 128KiB to match it); S = ceil(n / segment) segments of balanced
 * sizes (Open MPI: all of `segment` bytes but a shorter last one; they
 * agree when the segment divides n); Open MPI posts the receive of segment
 * s+1 before forwarding segment s and waits for a segment's sends before
 * the next: here sends are eager and a receive is posted when reached.
 * Units: one per segment.  Tags: the segment index.
 *
 * Cost (sim/contracts/cost.h): the last segment reaches the chain's end
 * after p - 1 hops plus S - 1 periods of the slowest hop. */
#include "algorithms/collectives/oblivious.h"

enum { FANOUT = 1 };

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_tree_bcast(prm, rank, cs_ompi_chain_parent, cs_ompi_chain_children, FANOUT, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_segmented_cost(prm, c, cs_ompi_chain_parent, cs_ompi_chain_children, FANOUT);
}

const cs_coll_algo cs_algo_ompi_pipeline_bcast = {
  "pipeline", CS_COLL_BCAST, "one chain from the root, --segment bytes at a time (Open MPI pipeline)",
  cs_obl_plan_segments, ops, false, cost, CS_OBL_SEGMENTED_COST("one chain of p-1 ranks")};
