/* MPI_Intercomm_create as MPICH2 1.3/1.4 does it (src/mpi/comm/
 * intercomm_create.c), on the communicator layer; seed 004 (Dinan et al.,
 * "Noncollective Communicator Creation in MPI"), Algorithm 1's first step.
 *
 * Local group A (a members, leader L_A) and remote group B (b members,
 * leader L_B), the leaders joined by the peer communicator and a tag:
 *  1. L_A <-> L_B: the group sizes (MPIC_Sendrecv, one 4-byte int each way);
 *  2. L_A <-> L_B: the members' global process ids (2 ints per member: 8 a
 *     and 8 b bytes);
 *     each leader decides is_low_group = its first member's process id is
 *     the smaller;
 *  3. every member: a receive context id for its side, MPIR_Get_contextid
 *     over its local group (AND-allreduce of the 2^11-bit masks, 256 bytes);
 *  4. L_A <-> L_B: the two receive context ids (a 4-byte int each way);
 *     each side sends on the other side's id;
 *  5. each leader broadcasts {remote size, send context id, is_low_group}
 *     (12 bytes) over its local group;
 *  6. each leader broadcasts the remote group's process ids (8 b bytes over
 *     A, 8 a over B).
 * Messages: 6 + AR(a) + AR(b) + 2 (a - 1) + 2 (b - 1), with AR(n) =
 * 2 rem + pof2 lg pof2 the allreduce's (pof2 the largest power of two <= n,
 * rem = n - pof2) and n - 1 a binomial broadcast's.
 *
 * Choices: the error-checking build's disjointness check is local and not
 * charged; a process id is (0, world rank) as for MPI_COMM_WORLD's single
 * process group; the leaders' exchanges use the peer communicator's
 * context with the user's tag (MPICH uses the peer's collective context,
 * which the tag alone stands for here).
 */
#include "algorithms/communicators/intercomm.h"

#include <string.h>

uint64_t cs_allreduce_messages(int64_t n)
{
  int64_t pof2 = 1, lg = 0;
  while (pof2 * 2 <= n) {
    pof2 *= 2;
    lg++;
  }
  return n < 1 ? 0 : (uint64_t)(2 * (n - pof2) + pof2 * lg);
}

uint64_t cs_bcast_messages(int64_t n) { return n > 1 ? (uint64_t)(n - 1) : 0; }

uint64_t cs_intercomm_create_messages(int64_t a, int64_t b)
{
  return 6 + cs_allreduce_messages(a) + cs_allreduce_messages(b) + 2 * cs_bcast_messages(a) +
         2 * cs_bcast_messages(b);
}

/* MPIC_Sendrecv of `len` real bytes with the remote leader on peer; the
 * reply (its length is known) lands in in. */
static void leader_sendrecv(cs_proc *p, cs_comm *peer, int remote_leader, int tag, const void *out, size_t len,
                            void *in, size_t in_len)
{
  cs_comm_send(p, peer, remote_leader, tag, out, len, len);
  cs_msg *m = cs_comm_recv(p, peer, remote_leader, tag);
  memcpy(in, m->data, in_len);
  cs_msg_free(p, m);
}

/* Global process ids of c's members: (process group 0, world rank). */
static int32_t *gpids_of(cs_proc *p, cs_comm *c)
{
  cs_wid *w = cs_alloc(p, sizeof(cs_wid) * (size_t)c->size);
  cs_comm_world_ranks(p, c, w);
  int32_t *g = cs_alloc(p, 2 * sizeof(int32_t) * (size_t)c->size);
  for (int i = 0; i < c->size; i++) {
    g[2 * i] = 0;
    g[2 * i + 1] = (int32_t)w[i];
  }
  cs_free(p, w);
  return g;
}

typedef struct leader_view {
  int32_t remote_size;
  int32_t *remote_gpids; /* 2 remote_size ints */
  int32_t is_low;
} leader_view;

/* Steps 1-2 at the local leader. */
static leader_view leaders_exchange_groups(cs_proc *p, cs_comm *local, cs_comm *peer, int remote_leader, int tag)
{
  leader_view v = {0};
  int32_t local_size = local->size;
  leader_sendrecv(p, peer, remote_leader, tag, &local_size, 4, &v.remote_size, 4);
  int32_t *mine = gpids_of(p, local);
  v.remote_gpids = cs_alloc(p, 8 * (size_t)v.remote_size);
  leader_sendrecv(p, peer, remote_leader, tag, mine, 8 * (size_t)local_size, v.remote_gpids,
                  8 * (size_t)v.remote_size);
  v.is_low = mine[1] < v.remote_gpids[1];
  cs_free(p, mine);
  return v;
}

cs_intercomm *cs_intercomm_create(cs_proc *p, cs_comm *local, int local_leader, cs_comm *peer, int remote_leader,
                                  int tag, cs_ctxids *ids)
{
  bool leader = local->rank == local_leader;
  leader_view v = {0};
  if (leader)
    v = leaders_exchange_groups(p, local, peer, remote_leader, tag);
  int recv_id = cs_mpich_context_id(p, local, ids); /* step 3 */
  int32_t info[3] = {0, 0, 0}; /* remote size, send context id, is_low_group */
  if (leader) {
    int32_t mine = recv_id, theirs = -1;
    leader_sendrecv(p, peer, remote_leader, tag, &mine, 4, &theirs, 4); /* step 4 */
    info[0] = v.remote_size;
    info[1] = theirs;
    info[2] = v.is_low;
  }
  cs_comm_bcast(p, local, local_leader, info, sizeof info); /* step 5 */
  if (!leader)
    v.remote_gpids = cs_alloc(p, 8 * (size_t)info[0]);
  cs_comm_bcast(p, local, local_leader, v.remote_gpids, 8 * (size_t)info[0]); /* step 6 */
  if (recv_id < 0 || info[1] < 0) {
    if (recv_id >= 0)
      cs_mask_release(cs_mask_of(ids, cs_rank(p)), recv_id);
    cs_free(p, v.remote_gpids);
    return NULL;
  }
  cs_intercomm *ic = cs_alloc(p, sizeof *ic);
  *ic = (cs_intercomm){.local = local, .send_ctx = cs_mask_ctx(info[1]), .recv_ctx = cs_mask_ctx(recv_id),
                       .remote_size = info[0], .is_low_group = info[2] != 0};
  ic->remote = cs_alloc(p, sizeof(cs_wid) * (size_t)info[0]);
  for (int i = 0; i < info[0]; i++)
    ic->remote[i] = (cs_wid)v.remote_gpids[2 * i + 1];
  cs_free(p, v.remote_gpids);
  return ic;
}

void cs_intercomm_free(cs_proc *p, cs_intercomm *ic, cs_ctxids *ids)
{
  if (!ic)
    return;
  cs_mask_release(cs_mask_of(ids, cs_rank(p)), cs_mask_id_of_ctx(ic->recv_ctx));
  cs_free(p, ic->remote);
  cs_free(p, ic);
}

void cs_mpich_comm_free(cs_proc *p, cs_comm *c, cs_ctxids *ids)
{
  if (!c)
    return;
  cs_mask_release(cs_mask_of(ids, cs_rank(p)), cs_mask_id_of_ctx(c->ctx));
  cs_comm_free(p, c);
}
