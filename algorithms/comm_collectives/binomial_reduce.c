/* Reduce to a root over a communicator on a binomial tree (MPICH's
 * MPIR_Reduce for short messages and a commutative operation): relative
 * rank rr combines what rr + 1, rr + 2, rr + 4, ... (below its lowest set
 * bit, inside the communicator) send, then sends to rr - lowbit(rr).
 * n - 1 messages.  With cs_comm_bcast it makes the reduce-then-broadcast
 * allreduce (2 (n - 1) messages).  A schedule (generators.h) run in place
 * on the caller's buffer. */
#include "algorithms/comm_collectives/generators.h"

void cs_reduce_bor(void *inout, const void *in, size_t bytes)
{
  unsigned char *a = inout;
  const unsigned char *b = in;
  for (size_t i = 0; i < bytes; i++)
    a[i] |= b[i];
}

void cs_comm_reduce_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p, rel = cs_comm_rel(prm, rank);
  cs_units all = cs_units_all(prm);
  for (int64_t mask = 1; mask < cs_binomial_child_limit(rel, p); mask <<= 1)
    if (rel + mask < p)
      cs_ops_recv_reduce(out, cs_comm_abs(prm, rel + mask), cs_log2_pow2(mask), all);
  if (rel != 0)
    cs_ops_send(out, cs_comm_abs(prm, cs_binomial_parent(rel)), cs_log2_pow2(cs_lowbit(rel)), all);
}

void cs_comm_reduce(cs_proc *p, cs_comm *c, int root, void *buf, size_t bytes, cs_reduce_op op)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_REDUCE, c->size, root, bytes);
  cs_comm_sched_io io = cs_comm_in_place(cs_units_all(&prm), buf);
  cs_comm_run_generated(p, c, &prm, cs_comm_reduce_ops, &io, op);
}
