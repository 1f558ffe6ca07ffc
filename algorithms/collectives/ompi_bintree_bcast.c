/* Binary-tree broadcast, as Open MPI's coll/tuned "binary_tree"
 * (ompi_coll_base_bcast_intra_bintree, Open MPI 4.1/5.0 coll/base): the
 * tree of ompi_coll_base_topo_build_tree with fanout 2, numbered level by
 * level (relative rank r on level l has children r + 2^l and r + 2^(l+1):
 * 0 -> 1, 2; 1 -> 3, 5; 2 -> 4, 6), run by
 * ompi_coll_base_bcast_intra_generic with segments of --segment bytes: a
 * rank receives segment s from its parent, then sends it to both children.
 * (p - 1) S messages for S segments; any p >= 1.
 *
 * Choices left open: segments as the pipeline's (ompi_pipeline_bcast.c:
 * --segment, default 0 = none as Open MPI's fixed decision passes, balanced
 * sizes, eager sends).  SMPI has no such broadcast (its SMP_binary is
 * another, node-aware tree).  Units: one per segment.  Tags: the segment
 * index.
 *
 * Cost (sim/contracts/cost.h): the last segment's hops down the deepest
 * path (ceil(log2(p+1)) - 1 levels) plus S - 1 periods of the slowest rank
 * (sending to two children at once). */
#include "algorithms/collectives/oblivious.h"

enum { FANOUT = 2 };

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_tree_bcast(prm, rank, cs_ompi_tree_parent, cs_ompi_tree_children, FANOUT, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_segmented_cost(prm, c, cs_ompi_tree_parent, cs_ompi_tree_children, FANOUT);
}

const cs_coll_algo cs_algo_ompi_bintree_bcast = {
  "bintree", CS_COLL_BCAST, "binary tree by levels, --segment bytes at a time (Open MPI binary_tree)",
  cs_obl_plan_segments, ops, false, cost, CS_OBL_SEGMENTED_COST("binary tree, depth floor(log2 p)")};
