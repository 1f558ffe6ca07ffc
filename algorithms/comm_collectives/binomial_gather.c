/* Gather over a communicator on a binomial tree (MPICH's MPIR_Gather for
 * short messages): relative rank rr = (rank - root) mod n receives the
 * subtrees of rr + 1, rr + 2, rr + 4, ... below its lowest set bit and sends
 * its whole subtree to rr - lowbit(rr).  n - 1 messages; the root receives
 * ceil(lg n) of them.  Used by Procedure 1 (line 4) and by the Section 8
 * benchmark's gathers.  The collective schedule's generator
 * (cs_obl_binomial_gather), run on a staged buffer of rr's subtree's
 * blocks. */
#include "algorithms/collectives/oblivious.h"
#include "algorithms/comm_collectives/generators.h"

void cs_comm_gather_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_gather(prm, rank, 0, out);
}

void cs_comm_gather(cs_proc *p, cs_comm *c, int root, const void *mine, size_t block, void *out)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_GATHER, c->size, root, block);
  cs_comm_sched_io io = cs_comm_staged(cs_comm_subtree_blocks(&prm, c->rank), mine != NULL, mine,
                                      cs_units_block(&prm, c->rank), c->rank == root ? out : NULL,
                                      cs_units_all(&prm));
  cs_comm_run_generated(p, c, &prm, cs_comm_gather_ops, &io, NULL);
}
