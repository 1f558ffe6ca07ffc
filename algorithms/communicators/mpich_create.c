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

cs_create_status cs_mpich_create(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  int id = cs_mpich_context_id(p, outer, rq->ids);
  int g = rq->group_of[outer->rank];
  if (g < 0)
    return CS_CREATE_OK;
  if (id < 0)
    return CS_CREATE_NO_CONTEXT_ID;
  GError *e = NULL;
  cs_shared_map *map = cs_comm_build_map(p, outer->world, cs_memo_key(rq->seq, (uint64_t)g | UINT64_C(0x80000000)),
                                         rq->groups[g], rq->group_size[g], &e);
  g_clear_error(&e);
  if (!map)
    return CS_CREATE_MAP_FAILED;
  *out = cs_comm_new(p, outer->world, cs_mask_ctx(id), rq->group_rank[outer->rank], (int)rq->group_size[g], map);
  return CS_CREATE_OK;
}
