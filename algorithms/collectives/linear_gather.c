/* Linear gather, as Open MPI's ompi_coll_base_gather_intra_basic_linear
 * (Open MPI 4.1/5.0 coll/base; coll/tuned's "basic_linear", SMPI's
 * ompi_basic_linear; MPICH has no linear gather): every rank sends its block
 * to the root directly, one message each.  p - 1 messages; any p >= 1.
 *
 * Choices left open: the root's receives are one any-order group (taken in
 * order of arrival; Open MPI posts blocking receives in rank order, which
 * waits on a late low rank while later blocks queue).  The group is p - 1
 * ops long at the root (any-order receives cannot be a CS_OP_LOOP, see
 * schedule.h); every other rank has one send.  Units: one per rank
 * (nunits = p).  Tag 0 (each pair meets once).
 *
 * Cost (sim/contracts/cost.h): one step, the root receiving p - 1 blocks
 * (o_recv each): its port carries every off-node block, each node's
 * blocks share the route from it, each supernode's its L2 link. */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p;
  if (rank != prm->root) {
    cs_ops_send(out, prm->root, 0, cs_units_block(prm, rank));
    return;
  }
  for (int64_t i = 1; i < p; i++) {
    int64_t from = (rank + i) % p;
    cs_ops_recv(out, from, 0, cs_units_block(prm, from));
    cs_ops_any_order(out);
  }
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_linear_cost(prm, c, (double)prm->bytes / (double)prm->p, false);
}

const cs_coll_algo cs_algo_linear_gather = {
  "linear", CS_COLL_GATHER, "every rank sends its block to the root at once, any order (Open MPI basic_linear)",
  cs_plan_unit_per_rank, ops, false, cost, CS_OBL_LINEAR_GATHER_COST};
