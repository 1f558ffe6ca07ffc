/* Allgather over a communicator by Bruck's algorithm: in round j (distance
 * k = 2^j) every rank sends its first min(k, n - k) blocks to rank - k and
 * appends those of rank + k; ceil(lg n) rounds, n ceil(lg n) messages, and
 * every rank ends with all n blocks.  Used by MPICH's MPI_Comm_split
 * (allgather of colour and key).  A schedule (generators.h) run on a staged
 * buffer of all n blocks from the rank's own (the "first" blocks are
 * rank, rank + 1, ...).
 *
 * Choice the paper left open: MPICH2 uses the ring for long allgathers
 * (n x 8 bytes = 880 KB at n = 110,000 is long), n - 1 rounds and n (n - 1)
 * messages = 1.2e10 at that size, beyond any simulator; Bruck moves the
 * same bytes into every rank in lg n rounds and is MPICH's choice for short
 * non-power-of-two allgathers.  The buffer of n blocks is held (counted)
 * by every rank in both forms.  The generator is the collective schedule's
 * (cs_obl_bruck_allgather, collsim collective's allgather bruck). */
#include "algorithms/collectives/oblivious.h"
#include "algorithms/comm_collectives/generators.h"

void cs_comm_allgather_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_bruck_allgather(prm, rank, 0, out);
}

void cs_comm_allgather(cs_proc *p, cs_comm *c, const void *mine, size_t block, void *out)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_ALLGATHER, c->size, 0, block);
  cs_comm_sched_io io = cs_comm_staged(cs_units_blocks(&prm, c->rank, c->size), out && mine, mine,
                                      cs_units_block(&prm, c->rank), out, cs_units_all(&prm));
  cs_comm_run_generated(p, c, &prm, cs_comm_allgather_ops, &io, NULL);
}
