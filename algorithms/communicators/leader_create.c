/* Procedure 2 of seed 003 (Section 4): leader-based MPI_Comm_create with a
 * group every member already holds; several disjoint groups at once.
 *
 *  1. every member but group rank 0 sends its LBI bitmap (2^k / 8 bytes) to
 *     group rank 0, which receives them in group-rank order;
 *  2. rank 0 picks the member with the fewest bits set (ties: lowest group
 *     rank), LBI = its first free bit, LID = its world rank, and sends
 *     {<LID, LBI>, group rank} (8 bytes) to every other member;
 *  3. the member whose world rank is the LID marks LBI used;
 *  4. per OS process the first member to get there builds the map and
 *     publishes it under the context id (create or get, line 14); the others
 *     yield until it is there.
 * Messages per group of m members: 2 (m - 1) + wake-ups (members of an OS
 * process that arrive while its map is being built).  Non-members do
 * nothing.  Groups are disjoint, so their messages never meet.
 *
 * Choices the paper left open: "the proclet with smallest group rank" of
 * line 14 is read as the first collocated member to reach line 14 (the
 * proclets are nonpreemptive, so the check and the claim are one step); the
 * group object's own cost (MPI_Group_* calls before the creation) is not
 * charged; sends to group rank i translate i with the group's map (charged).
 */
#include "algorithms/communicators/protocol.h"

#include <string.h>

typedef struct cid_reply {
  uint32_t ctx;   /* 0: no context id */
  int32_t grank;
} cid_reply;

static cs_shared_map *group_map(cs_world *w, const cs_comm_request *rq, int g)
{
  uint64_t key = cs_memo_key(rq->seq, (uint64_t)g | UINT64_C(0x80000000));
  GError *e = NULL;
  if (!cs_comm_memo_deposit(w, key, rq->groups[g], rq->group_size[g], &e)) {
    g_error_free(e);
    return NULL;
  }
  return cs_comm_memo_peek(w, key);
}

static uint32_t choose_at_rank0(cs_proc *p, cs_comm *grp, const cs_comm_request *rq)
{
  cs_ctxids *ids = rq->ids;
  size_t bytes = sizeof(uint64_t) * (size_t)ids->lbi_words;
  uint64_t *b = cs_alloc(p, bytes * (size_t)grp->size);
  memcpy(b, cs_lbi_bitmap(ids, cs_rank(p)), bytes);
  for (int i = 1; i < grp->size; i++) {
    cs_msg *m = cs_comm_recv(p, grp, i, CS_TAG_BITMAP);
    memcpy(b + (size_t)i * ids->lbi_words, m->data, bytes);
    cs_msg_free(p, m);
  }
  int64_t k = cs_lbi_least_used(ids, b, grp->size);
  uint32_t ctx = 0;
  if (k >= 0)
    ctx = cs_lidlbi_encode(ids, cs_comm_world_rank(p, grp, (int)k), cs_lbi_first_free(ids, b + k * ids->lbi_words));
  cs_free(p, b);
  for (int i = 1; i < grp->size; i++) {
    cid_reply r = {ctx, i};
    cs_comm_send(p, grp, i, CS_TAG_CID, &r, sizeof r, sizeof r);
  }
  return ctx;
}

static uint32_t ask_rank0(cs_proc *p, cs_comm *grp, const cs_comm_request *rq)
{
  size_t bytes = sizeof(uint64_t) * (size_t)rq->ids->lbi_words;
  cs_comm_send(p, grp, 0, CS_TAG_BITMAP, cs_lbi_bitmap(rq->ids, cs_rank(p)), bytes, bytes);
  cs_msg *m = cs_comm_recv(p, grp, 0, CS_TAG_CID);
  cid_reply r;
  memcpy(&r, m->data, sizeof r);
  cs_msg_free(p, m);
  return r.ctx;
}

static cs_shared_map *create_or_get(cs_proc *p, cs_world *w, const cs_comm_request *rq, uint32_t ctx, int g)
{
  GError *e = NULL;
  uint64_t key = cs_memo_key(rq->seq, ctx);
  if (!cs_world_cfg(w)->share)
    return cs_comm_build_map(p, w, key, rq->groups[g], rq->group_size[g], &e);
  if (!cs_comm_claim_map(p, w, ctx))
    return cs_comm_wait_map(p, w, ctx);
  cs_shared_map *map = cs_comm_build_map(p, w, key, rq->groups[g], rq->group_size[g], &e);
  g_clear_error(&e);
  if (map)
    cs_comm_publish_map(p, w, ctx, map);
  return map;
}

cs_create_status cs_leader_create(cs_proc *p, cs_comm *outer, const cs_comm_request *rq, cs_comm **out)
{
  *out = NULL;
  int g = rq->group_of[outer->rank];
  if (g < 0)
    return CS_CREATE_OK;
  cs_world *w = outer->world;
  cs_shared_map *gm = group_map(w, rq, g);
  if (!gm)
    return CS_CREATE_MAP_FAILED;
  int64_t me = rq->group_rank[outer->rank];
  /* A handle over the group object (MPI_Comm_create sends in the parent's
   * context): not a communicator of its own, nothing to count; its SELECT
   * cache is the group object's own. */
  cs_comm grp = cs_comm_handle(w, outer->ctx, (int)me, (int)rq->group_size[g], gm);
  cs_compute(p, cs_world_cpu_seconds(w, cs_gm_select_cost_ns(cs_shared_map_groupmap(gm)))); /* MPI_Group_rank */
  uint32_t ctx = me == 0 ? choose_at_rank0(p, &grp, rq) : ask_rank0(p, &grp, rq);
  if (ctx == 0)
    return CS_CREATE_NO_CONTEXT_ID;
  int64_t lid;
  int lbi;
  cs_lidlbi_decode(rq->ids, ctx, &lid, &lbi);
  if (lid == cs_rank(p))
    cs_lbi_take(rq->ids, cs_lbi_bitmap(rq->ids, cs_rank(p)), lbi);
  cs_shared_map *map = create_or_get(p, w, rq, ctx, g);
  if (!map)
    return CS_CREATE_MAP_FAILED;
  *out = cs_comm_new(p, w, ctx, (int)me, grp.size, map);
  return CS_CREATE_OK;
}
