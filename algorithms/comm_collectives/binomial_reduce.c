/* Reduce to a root over a communicator on a binomial tree (MPICH's
 * MPIR_Reduce for short messages and a commutative operation): relative
 * rank rr combines what rr + 1, rr + 2, rr + 4, ... (below its lowest set
 * bit, inside the communicator) send, then sends to rr - lowbit(rr).
 * n - 1 messages.  With cs_comm_bcast it makes the reduce-then-broadcast
 * allreduce (2 (n - 1) messages).  The collective schedule's generator
 * (cs_obl_binomial_reduce, collsim collective's reduce binomial) run in
 * place on the caller's buffer. */
#include "algorithms/collectives/oblivious.h"
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
  cs_obl_binomial_reduce(prm, rank, 0, out);
}

void cs_comm_reduce(cs_proc *p, cs_comm *c, int root, void *buf, size_t bytes, cs_reduce_op op)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_REDUCE, c->size, root, bytes);
  cs_comm_sched_io io = cs_comm_in_place(cs_units_all(&prm), buf);
  cs_comm_run_generated(p, c, &prm, cs_comm_reduce_ops, &io, op);
}
