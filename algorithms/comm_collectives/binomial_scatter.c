/* Scatter over a communicator on a binomial tree (MPICH's MPIR_Scatter):
 * relative rank rr receives its subtree's blocks from rr - lowbit(rr), then
 * hands the halves below to rr + n/2, ..., rr + 2, rr + 1.  n - 1 messages.
 * Used by Procedure 1 (line 17).  The collective schedule's generator
 * (cs_obl_binomial_scatter), run on a staged buffer of rr's subtree's
 * blocks. */
#include "algorithms/collectives/oblivious.h"
#include "algorithms/comm_collectives/generators.h"

void cs_comm_scatter_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_scatter(prm, rank, 0, out);
}

void cs_comm_scatter(cs_proc *p, cs_comm *c, int root, const void *all, size_t block, void *mine)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_SCATTER, c->size, root, block);
  bool at_root = c->rank == root; /* the others' `all` is unused; the root's says real or virtual */
  cs_comm_sched_io io = cs_comm_staged(cs_comm_subtree_blocks(&prm, c->rank), (at_root ? all : mine) != NULL,
                                      at_root ? all : NULL, cs_units_all(&prm), mine, cs_units_block(&prm, c->rank));
  cs_comm_run_generated(p, c, &prm, cs_comm_scatter_ops, &io, NULL);
}
