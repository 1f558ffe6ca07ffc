/* Allgather over a communicator by Bruck's algorithm: in round j (distance
 * k = 2^j) every rank sends its first min(k, n - k) blocks to rank - k and
 * appends those of rank + k; ceil(lg n) rounds, n ceil(lg n) messages, and
 * every rank ends with all n blocks.  Used by MPICH's MPI_Comm_split
 * (allgather of colour and key).
 *
 * Choice the paper left open: MPICH2 uses the ring for long allgathers
 * (n x 8 bytes = 880 KB at n = 110,000 is long), n - 1 rounds and n (n - 1)
 * messages = 1.2e10 at that size, beyond any simulator; Bruck moves the
 * same bytes into every rank in lg n rounds and is MPICH's choice for short
 * non-power-of-two allgathers.  The buffer of n blocks is held (counted)
 * by every rank in both forms. */
#include "algorithms/comm_collectives/common.h"

#include <string.h>

void cs_comm_allgather(cs_proc *p, cs_comm *c, const void *mine, size_t block, void *out)
{
  int n = c->size, r = c->rank, tag = cs_comm_next_coll_tag(c);
  char *tmp = out && mine ? cs_alloc(p, (size_t)n * block) : NULL;
  if (!tmp)
    cs_mem_hold_bytes(p, (int64_t)((size_t)n * block));
  else
    memcpy(tmp, mine, block);
  for (int k = 1; k < n; k <<= 1) {
    size_t bytes = (size_t)cs_min_int(k, n - k) * block;
    cs_comm_send(p, c, (r - k + n) % n, tag, tmp, tmp ? bytes : 0, bytes);
    cs_msg *m = cs_comm_recv(p, c, (r + k) % n, tag);
    if (tmp && m->data)
      memcpy(tmp + (size_t)k * block, m->data, bytes);
    cs_msg_free(p, m);
  }
  if (tmp) {
    for (int i = 0; i < n; i++)
      memcpy((char *)out + (size_t)((r + i) % n) * block, tmp + (size_t)i * block, block);
    cs_free(p, tmp);
  } else
    cs_mem_hold_bytes(p, -(int64_t)((size_t)n * block));
}
