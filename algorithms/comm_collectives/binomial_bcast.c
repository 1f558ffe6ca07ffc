/* Broadcast over a communicator on a binomial tree (MPICH's MPIR_Bcast for
 * short messages): relative rank rr receives from rr - lowbit(rr) and sends
 * to rr + 2^j for 2^j below its lowest set bit.  n - 1 messages. */
#include "algorithms/comm_collectives/common.h"

#include <string.h>

void cs_comm_bcast(cs_proc *p, cs_comm *c, int root, void *buf, size_t bytes)
{
  int n = c->size, rr = (c->rank - root + n) % n, tag = cs_comm_next_coll_tag(c);
  int mask = 1;
  for (; mask < n; mask <<= 1)
    if (rr & mask) {
      cs_msg *m = cs_comm_recv(p, c, (rr - mask + root) % n, tag);
      if (buf && m->data)
        memcpy(buf, m->data, bytes);
      cs_msg_free(p, m);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rr + mask < n)
      cs_comm_send(p, c, (rr + mask + root) % n, tag, buf, buf ? bytes : 0, bytes);
}
