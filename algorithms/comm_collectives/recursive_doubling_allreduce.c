/* Allreduce over a communicator by recursive doubling (MPICH's MPIR_Allreduce
 * for short messages): with pof2 the largest power of two <= n and rem =
 * n - pof2, the first 2 rem ranks pair up (even sends to odd, which
 * combines), the pof2 survivors exchange with partners at distances 1, 2,
 * 4, ..., and the odd ranks return the result to their even partner.
 * Messages: 2 rem + pof2 lg pof2.  Used by MPICH's context-id mask (AND). */
#include "algorithms/comm_collectives/common.h"

#include <string.h>

void cs_reduce_band(void *inout, const void *in, size_t bytes)
{
  unsigned char *a = inout;
  const unsigned char *b = in;
  for (size_t i = 0; i < bytes; i++)
    a[i] &= b[i];
}

static void combine_from(cs_proc *p, cs_comm *c, int src, int tag, void *buf, size_t bytes, cs_reduce_op op)
{
  cs_msg *m = cs_comm_recv(p, c, src, tag);
  if (op && buf && m->data)
    op(buf, m->data, bytes);
  cs_msg_free(p, m);
}

static void replace_from(cs_proc *p, cs_comm *c, int src, int tag, void *buf, size_t bytes)
{
  cs_msg *m = cs_comm_recv(p, c, src, tag);
  if (buf && m->data)
    memcpy(buf, m->data, bytes);
  cs_msg_free(p, m);
}

void cs_comm_allreduce(cs_proc *p, cs_comm *c, void *buf, size_t bytes, cs_reduce_op op)
{
  int n = c->size, r = c->rank, tag = cs_comm_next_coll_tag(c);
  size_t len = buf ? bytes : 0;
  int pof2 = (int)cs_pow2_floor(n), rem = n - pof2, newrank;
  if (r < 2 * rem && r % 2 == 0) {
    cs_comm_send(p, c, r + 1, tag, buf, len, bytes);
    newrank = -1;
  } else if (r < 2 * rem) {
    combine_from(p, c, r - 1, tag, buf, bytes, op);
    newrank = r / 2;
  } else
    newrank = r - rem;
  for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
    int partner = newrank ^ mask;
    int dst = partner < rem ? partner * 2 + 1 : partner + rem;
    cs_comm_send(p, c, dst, tag, buf, len, bytes);
    combine_from(p, c, dst, tag, buf, bytes, op);
  }
  if (r < 2 * rem && r % 2 == 1)
    cs_comm_send(p, c, r - 1, tag, buf, len, bytes);
  else if (r < 2 * rem)
    replace_from(p, c, r + 1, tag, buf, bytes);
}

void cs_comm_barrier(cs_proc *p, cs_comm *c) { cs_comm_allreduce(p, c, NULL, 0, NULL); }
