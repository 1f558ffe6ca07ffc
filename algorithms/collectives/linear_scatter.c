/* Linear scatter, as Open MPI's ompi_coll_base_scatter_intra_basic_linear
 * (Open MPI 4.1/5.0 coll/base; coll/tuned's "basic_linear", SMPI's
 * ompi_basic_linear; MPICH has no linear scatter): the root sends every
 * other rank its block directly, one message each.  p - 1 messages; any
 * p >= 1.
 *
 * Choices left open: the root's sends leave at once (eager; Open MPI's
 * sends are blocking, one after another, which the eager transport makes
 * the same below its rendezvous threshold), to root+1, root+2, ... (mod p;
 * Open MPI goes 0, 1, ... skipping the root: the same for root 0).
 * Representation: the root's p - 1 sends are one CS_OP_LOOP (peer and block
 * +1 per iteration, tag = iteration), every other rank one receive, so no
 * list grows with p.  Units: one per rank (nunits = p).
 *
 * Cost (sim/contracts/cost.h): one step, the root sending p - 1 blocks at
 * once: its port carries every off-node block, each node's blocks share the
 * route to it, each supernode's its L2 link. */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p, rel = cs_tree_rel_rank(rank, prm->root, p), m = prm->nunits / p;
  if (p == 1)
    return;
  if (rel != 0) {
    cs_ops_recv(out, prm->root, (int32_t)(rel - 1), cs_units_block(prm, rank));
    return;
  }
  int64_t first = (rank + 1) % p;
  cs_ops_loop(out, p - 1, 1);
  cs_ops_send(out, first, 0, cs_units_block(prm, first));
  cs_ops_step(out, 1, m);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_linear_cost(prm, c, (double)prm->bytes / (double)prm->p, true);
}

const cs_coll_algo cs_algo_linear_scatter = {
  "linear", CS_COLL_SCATTER, "the root sends every rank its block at once (Open MPI basic_linear)",
  cs_plan_unit_per_rank, ops, false, cost, CS_OBL_LINEAR_SCATTER_COST};
