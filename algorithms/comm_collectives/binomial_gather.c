/* Gather over a communicator on a binomial tree (MPICH's MPIR_Gather for
 * short messages): relative rank rr = (rank - root) mod n receives the
 * subtrees of rr + 1, rr + 2, rr + 4, ... below its lowest set bit and sends
 * its whole subtree to rr - lowbit(rr).  n - 1 messages; the root receives
 * ceil(lg n) of them.  Used by Procedure 1 (line 4) and by the Section 8
 * benchmark's gathers. */
#include "algorithms/comm_collectives/common.h"

#include <string.h>

static void take_child(cs_proc *p, cs_comm *c, int child, int tag, char *at, size_t bytes)
{
  cs_msg *m = cs_comm_recv(p, c, child, tag);
  if (at && m->data)
    memcpy(at, m->data, bytes);
  cs_msg_free(p, m);
}

void cs_comm_gather(cs_proc *p, cs_comm *c, int root, const void *mine, size_t block, void *out)
{
  int n = c->size, rr = (c->rank - root + n) % n, tag = cs_comm_next_coll_tag(c);
  size_t span = (size_t)cs_binomial_subtree_size(rr, n);
  char *buf = mine ? cs_alloc(p, span * block) : NULL;
  if (!buf)
    cs_mem_hold_bytes(p, (int64_t)(span * block));
  else
    memcpy(buf, mine, block);
  for (int mask = 1; mask < n; mask <<= 1) {
    if (rr & mask) {
      size_t have = (size_t)cs_min_int(mask, n - rr) * block;
      cs_comm_send(p, c, (rr - mask + root) % n, tag, buf, buf ? have : 0, have);
      break;
    }
    if (rr + mask < n)
      take_child(p, c, (rr + mask + root) % n, tag, buf ? buf + (size_t)mask * block : NULL,
                 (size_t)cs_min_int(mask, n - rr - mask) * block);
  }
  if (rr == 0 && buf && out)
    for (int i = 0; i < n; i++)
      memcpy((char *)out + (size_t)((i + root) % n) * block, buf + (size_t)i * block, block);
  if (buf)
    cs_free(p, buf);
  else
    cs_mem_hold_bytes(p, -(int64_t)(span * block));
}
