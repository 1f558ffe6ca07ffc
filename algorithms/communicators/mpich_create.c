/* MPICH2's MPI_Comm_create (seed 003, Section 4.1; MPICH2 1.x
 * src/mpi/comm/comm_create.c), the baseline of Procedure 2: a context id
 * from the AND-allreduce of the 2^11-bit masks over the whole parent
 * (every proclet of the parent takes part and marks the id used), then
 * every member builds its own group map from the group it holds; no other
 * messages.  Messages for a parent of n: 2 rem + pof2 lg pof2 (the
 * allreduce, pof2 the largest power of two <= n, rem = n - pof2). */
#include "algorithms/communicators/intercomm.h"

uint64_t cs_mpich_create_messages(int64_t n, const int64_t *group_size, int ngroups)
{
  (void)group_size;
  (void)ngroups;
  return cs_allreduce_messages(n);
}

cs_comm *cs_mpich_comm_create(cs_proc *p, cs_comm *parent, const cs_wid *group, int64_t m, int grp_rank,
                              cs_ctxids *ids, uint64_t memo_key, cs_create_status *status)
{
  int id = cs_mpich_context_id(p, parent, ids);
  *status = CS_CREATE_OK;
  if (!group)
    return NULL;
  if (id < 0) {
    *status = CS_CREATE_NO_CONTEXT_ID;
    return NULL;
  }
  GError *e = NULL;
  cs_shared_map *map = cs_comm_build_map(p, parent->world, memo_key, group, m, &e);
  g_clear_error(&e);
  if (!map) {
    *status = CS_CREATE_MAP_FAILED;
    return NULL;
  }
  return cs_comm_new(p, parent->world, cs_mask_ctx(id), grp_rank, (int)m, map);
}

cs_create_status cs_mpich_create(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  int g = rq->group_of[outer->rank];
  cs_create_status status;
  *out = cs_mpich_comm_create(p, outer, g < 0 ? NULL : rq->groups[g], g < 0 ? 0 : rq->group_size[g],
                              g < 0 ? -1 : rq->group_rank[outer->rank], rq->ids,
                              cs_memo_key(rq->seq, (uint64_t)g | UINT64_C(0x80000000)), &status);
  return status;
}
