/* Broadcast over a communicator on a binomial tree (MPICH's MPIR_Bcast for
 * short messages): relative rank rr receives from rr - lowbit(rr) and sends
 * to rr + 2^j for 2^j below its lowest set bit, largest first.  n - 1
 * messages.  The collective schedule's generator (cs_obl_binomial_bcast,
 * collsim collective's bcast binomial) run in place on the caller's buffer. */
#include "algorithms/collectives/oblivious.h"
#include "algorithms/comm_collectives/generators.h"

void cs_comm_bcast_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_bcast(prm, rank, 0, out);
}

void cs_comm_bcast(cs_proc *p, cs_comm *c, int root, void *buf, size_t bytes)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_BCAST, c->size, root, bytes);
  cs_comm_sched_io io = cs_comm_in_place(cs_units_all(&prm), buf);
  cs_comm_run_generated(p, c, &prm, cs_comm_bcast_ops, &io, NULL);
}
