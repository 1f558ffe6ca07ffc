/* Scatter over a communicator on a binomial tree (MPICH's MPIR_Scatter):
 * relative rank rr receives its subtree's blocks from rr - lowbit(rr), then
 * hands the halves below to rr + n/2, ..., rr + 2, rr + 1.  n - 1 messages.
 * Used by Procedure 1 (line 17). */
#include "algorithms/comm_collectives/common.h"

#include <string.h>

void cs_comm_scatter(cs_proc *p, cs_comm *c, int root, const void *all, size_t block, void *mine)
{
  int n = c->size, rr = (c->rank - root + n) % n, tag = cs_comm_next_coll_tag(c);
  size_t span = (size_t)cs_binomial_subtree_size(rr, n);
  char *buf = (rr == 0 ? all != NULL : mine != NULL) ? cs_alloc(p, span * block) : NULL;
  if (!buf)
    cs_mem_hold_bytes(p, (int64_t)(span * block));
  if (rr == 0 && buf)
    for (int i = 0; i < n; i++)
      memcpy(buf + (size_t)i * block, (const char *)all + (size_t)((i + root) % n) * block, block);
  int mask = 1;
  for (; mask < n; mask <<= 1)
    if (rr & mask) {
      cs_msg *m = cs_comm_recv(p, c, (rr - mask + root) % n, tag);
      if (buf && m->data)
        memcpy(buf, m->data, (size_t)cs_min_int(mask, n - rr) * block);
      cs_msg_free(p, m);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rr + mask < n) {
      size_t bytes = (size_t)cs_min_int(mask, n - rr - mask) * block;
      cs_comm_send(p, c, (rr + mask + root) % n, tag, buf ? buf + (size_t)mask * block : NULL, buf ? bytes : 0,
                   bytes);
    }
  if (buf && mine)
    memcpy(mine, buf, block);
  if (buf)
    cs_free(p, buf);
  else
    cs_mem_hold_bytes(p, -(int64_t)(span * block));
}
