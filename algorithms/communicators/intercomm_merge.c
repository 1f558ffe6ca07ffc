/* MPI_Intercomm_merge as MPICH does it (src/mpi/comm/intercomm_merge.c,
 * MPIR_Intercomm_merge_impl), on the communicator layer; seed 004
 * (Dinan et al.), Algorithm 1's second step.
 *
 * Intercommunicator of groups A (a members) and B (b members):
 *  1. the two rank-0 processes swap their `high` flags over the
 *     intercommunicator (a 4-byte int each way); equal flags are broken by
 *     is_low_group (the low group first);
 *  2. each rank 0 broadcasts the decided flag over its local group (4
 *     bytes);
 *  3. every member builds the union's map, the low group first, and joins a
 *     temporary intracommunicator over it whose context is the high
 *     group's receive context with MPICH's SUBCOMM field set;
 *  4. MPIR_Get_contextid over that temporary communicator: AND-allreduce of
 *     the 2^11-bit masks over the union (256 bytes), the new id taken in
 *     every member's mask.
 * Messages: 2 + (a - 1) + (b - 1) + AR(a + b), AR as in intercomm_create.c.
 *
 * Choices: the error-checking build's allreduce of `high` over each local
 * group (a consistency check) is left out, as in a production build; the
 * map of the union is built once (MPICH maps twice, for the temporary and
 * the final communicator, without messages).
 */
#include "algorithms/communicators/intercomm.h"

uint64_t cs_intercomm_merge_messages(int64_t a, int64_t b)
{
  return 2 + cs_bcast_messages(a) + cs_bcast_messages(b) + cs_allreduce_messages(a + b);
}

/* Step 1 at rank 0, step 2 everywhere: does this side come second? */
static bool decide_high(cs_proc *p, cs_intercomm *ic, bool high)
{
  int32_t local_high = high ? 1 : 0;
  if (ic->local->rank == 0) {
    cs_intercomm_send(p, ic, 0, CS_TAG_MERGE_HIGH, &local_high, 4, 4);
    cs_msg *m = cs_intercomm_recv(p, ic, 0, CS_TAG_MERGE_HIGH);
    int32_t remote_high = *(const int32_t *)m->data;
    cs_msg_free(p, m);
    if (local_high == remote_high)
      local_high = !ic->is_low_group;
  }
  cs_comm_bcast(p, ic->local, 0, &local_high, 4);
  return local_high != 0;
}

/* World ranks of the union, the low group first. */
static cs_wid *union_members(cs_proc *p, const cs_intercomm *ic, bool local_high)
{
  int a = ic->local->size, b = ic->remote_size;
  cs_wid *all = cs_alloc(p, sizeof(cs_wid) * (size_t)(a + b));
  cs_wid *local_part = all + (local_high ? b : 0), *remote_part = all + (local_high ? 0 : a);
  cs_comm_world_ranks(p, ic->local, local_part);
  for (int i = 0; i < b; i++)
    remote_part[i] = ic->remote[i];
  return all;
}

cs_comm *cs_intercomm_merge(cs_proc *p, cs_intercomm *ic, bool high, cs_ctxids *ids, uint64_t memo_key)
{
  cs_world *w = ic->local->world;
  bool local_high = decide_high(p, ic, high);
  int size = ic->local->size + ic->remote_size;
  int rank = local_high ? ic->remote_size + ic->local->rank : ic->local->rank;
  cs_wid *all = union_members(p, ic, local_high);
  GError *e = NULL;
  cs_shared_map *map = cs_comm_build_map(p, w, memo_key, all, size, &e);
  g_clear_error(&e);
  cs_free(p, all);
  if (!map)
    return NULL;
  uint32_t high_recv = local_high ? ic->recv_ctx : ic->send_ctx;
  cs_comm *tmp = cs_comm_new(p, w, CS_CTX_SUBCOMM | high_recv, rank, size, map);
  int id = cs_mpich_context_id(p, tmp, ids);
  cs_comm_free(p, tmp);
  return id < 0 ? NULL : cs_comm_new(p, w, cs_mask_ctx(id), rank, size, map);
}
