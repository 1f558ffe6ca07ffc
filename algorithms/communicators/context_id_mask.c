/* MPICH2's context ids (seed 003, Section 4.1; MPICH2 1.3/1.4
 * src/mpi/comm/commutil.c, MPIR_Get_contextid): a 2^11-bit mask of free ids
 * per proclet, ANDed over the outer communicator by an allreduce; the id is
 * then the same on every member, and every colour of a split gets it.
 *
 * Which common free bit: MPICH2 1.3/1.4 takes the first non-zero word and
 * its highest set bit (MPIR_Locate_context_bit); the paper says "the lowest
 * set bit", after Gropp and Thakur.  The choice does not change how many
 * ids there are; we follow the code.  Three ids are reserved at start-up
 * (COMM_WORLD, COMM_SELF, the internal copy of COMM_WORLD).
 */
#include "algorithms/communicators/context_id.h"

#include <glib.h>

uint32_t *cs_mask_of(cs_ctxids *ids, int64_t rank) { return ids->mask + rank * CS_MASK_WORDS; }

int cs_mask_pick(const uint32_t *mask)
{
  for (int w = 0; w < CS_MASK_WORDS; w++)
    if (mask[w])
      return w * 32 + (31 - __builtin_clz(mask[w]));
  return -1;
}

void cs_mask_take(uint32_t *mask, int id)
{
  g_assert(id >= 0 && id < CS_MASK_BITS);
  mask[id / 32] &= ~(1u << (id % 32));
}

uint32_t cs_mask_ctx(int id) { return (uint32_t)id; }

void cs_mask_release(uint32_t *mask, int id)
{
  g_assert(id >= CS_MASK_RESERVED && id < CS_MASK_BITS);
  g_assert((mask[id / 32] & (1u << (id % 32))) == 0); /* it was taken */
  mask[id / 32] |= 1u << (id % 32);
}

int cs_mask_id_of_ctx(uint32_t ctx) { return (int)ctx; }
