/* Allreduce over a communicator by recursive doubling (MPICH's MPIR_Allreduce
 * for short messages): with pof2 the largest power of two <= n and rem =
 * n - pof2, the first 2 rem ranks pair up (even sends to odd, which
 * combines), the pof2 survivors exchange with partners at distances 1, 2,
 * 4, ..., and the odd ranks return the result to their even partner.
 * Messages: 2 rem + pof2 lg pof2.  Used by MPICH's context-id mask (AND).
 * A schedule (generators.h) run in place on the caller's buffer; tags: 0
 * the fold, 1 + lg(mask) the exchanges, 1 + lg(pof2) the return. */
#include "algorithms/comm_collectives/generators.h"

void cs_reduce_band(void *inout, const void *in, size_t bytes)
{
  unsigned char *a = inout;
  const unsigned char *b = in;
  for (size_t i = 0; i < bytes; i++)
    a[i] &= b[i];
}

/* Rank of the survivor newrank. */
static int64_t survivor(int64_t newrank, int64_t rem) { return newrank < rem ? newrank * 2 + 1 : newrank + rem; }

void cs_comm_allreduce_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p, pof2 = cs_pow2_floor(p), rem = p - pof2, newrank = rank - rem;
  int32_t back = 1 + cs_log2_pow2(pof2);
  bool folded = rank < 2 * rem, even = rank % 2 == 0;
  cs_units all = cs_units_all(prm);
  if (folded && even)
    cs_ops_send(out, rank + 1, 0, all);
  else if (folded)
    cs_ops_recv_reduce(out, rank - 1, 0, all);
  if (folded)
    newrank = even ? -1 : rank / 2;
  for (int64_t mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
    int64_t partner = survivor(newrank ^ mask, rem);
    cs_ops_send(out, partner, 1 + cs_log2_pow2(mask), all);
    cs_ops_recv_reduce(out, partner, 1 + cs_log2_pow2(mask), all);
  }
  if (folded && !even)
    cs_ops_send(out, rank - 1, back, all);
  else if (folded)
    cs_ops_recv(out, rank + 1, back, all);
}

void cs_comm_allreduce(cs_proc *p, cs_comm *c, void *buf, size_t bytes, cs_reduce_op op)
{
  cs_sched_params prm;
  cs_comm_sched_params(&prm, CS_COLL_REDUCE, c->size, 0, bytes);
  cs_comm_sched_io io = cs_comm_in_place(cs_units_all(&prm), buf);
  cs_comm_run_generated(p, c, &prm, cs_comm_allreduce_ops, &io, op);
}

void cs_comm_barrier(cs_proc *p, cs_comm *c) { cs_comm_allreduce(p, c, NULL, 0, NULL); }
