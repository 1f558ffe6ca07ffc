/* Broadcast over a communicator on a binomial tree (MPICH's MPIR_Bcast for
 * short messages): relative rank rr receives from rr - lowbit(rr) and sends
 * to rr + 2^j for 2^j below its lowest set bit, largest first.  n - 1
 * messages.  A schedule (generators.h) run in place on the caller's buffer. */
#include "algorithms/comm_collectives/generators.h"

void cs_comm_bcast_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p, rel = cs_comm_rel(prm, rank);
  cs_units all = cs_units_all(prm);
  if (rel != 0)
    cs_ops_recv(out, cs_comm_abs(prm, cs_binomial_parent(rel)), cs_log2_pow2(cs_lowbit(rel)), all);
  for (int64_t mask = cs_binomial_child_limit(rel, p) >> 1; mask > 0; mask >>= 1)
    if (rel + mask < p)
      cs_ops_send(out, cs_comm_abs(prm, rel + mask), cs_log2_pow2(mask), all);
}

void cs_comm_bcast(cs_proc *p, cs_comm *c, int root, void *buf, size_t bytes)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_BCAST, c->size, root, bytes);
  cs_comm_sched_io io = cs_comm_in_place(cs_units_all(&prm), buf);
  cs_comm_run_generated(p, c, &prm, cs_comm_bcast_ops, &io, NULL);
}
