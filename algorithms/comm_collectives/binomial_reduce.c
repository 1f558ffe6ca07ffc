/* Reduce to a root over a communicator on a binomial tree (MPICH's
 * MPIR_Reduce for short messages and a commutative operation): relative
 * rank rr combines what rr + 1, rr + 2, rr + 4, ... (below its lowest set
 * bit, inside the communicator) send, then sends to rr - lowbit(rr).
 * n - 1 messages.  With cs_comm_bcast it makes the reduce-then-broadcast
 * allreduce (2 (n - 1) messages). */
#include "algorithms/comm_collectives/common.h"

void cs_reduce_bor(void *inout, const void *in, size_t bytes)
{
  unsigned char *a = inout;
  const unsigned char *b = in;
  for (size_t i = 0; i < bytes; i++)
    a[i] |= b[i];
}

void cs_comm_reduce(cs_proc *p, cs_comm *c, int root, void *buf, size_t bytes, cs_reduce_op op)
{
  int n = c->size, rr = (c->rank - root + n) % n, tag = cs_comm_next_coll_tag(c);
  for (int mask = 1; mask < n; mask <<= 1) {
    if (rr & mask) {
      cs_comm_send(p, c, (rr - mask + root) % n, tag, buf, buf ? bytes : 0, bytes);
      return;
    }
    if (rr + mask < n) {
      cs_msg *m = cs_comm_recv(p, c, (rr + mask + root) % n, tag);
      if (buf && m->data)
        op(buf, m->data, bytes);
      cs_msg_free(p, m);
    }
  }
}
